/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The engine's packet parser: header offsets, derived flags and ptype for
 * each supported stack, and malformed/truncated frames (which must fail
 * without reading past the frame: truncated copies live in exactly-sized
 * heap buffers so ASan sees any over-read).
 */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "mlx5dm_dev.h"
#include "mlx5dm_sim_engine_priv.h"
#include "sim_test_util.h"

#define MAC_D 0x001122334455ull
#define MAC_S 0x66778899aabbull
#define IP_A 0x0a000001u
#define IP_B 0x0a000002u

static const uint8_t ip6_a[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 };
static const uint8_t ip6_b[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2 };

/* Ethernet + IPv4 (or IPv6) with the test addresses. */
static void
start4(struct tpkt *t, uint8_t proto)
{
	tp_init(t);
	tp_eth(t, MAC_D, MAC_S, 0x0800);
	tp_ipv4(t, IP_A, IP_B, proto, 64, 0);
}

static void
start6(struct tpkt *t, uint8_t nh)
{
	tp_init(t);
	tp_eth(t, MAC_D, MAC_S, 0x86dd);
	tp_ipv6(t, ip6_a, ip6_b, nh, 64);
}

static int
parse(struct tpkt *t, struct mlx5dm_sim_parse *p)
{
	struct mlx5dm_sim_pkt *pkt = tp_finish(t);

	return mlx5dm_sim_parse(pkt->data, pkt->len, p);
}

static void
test_ipv4_tcp(void **state)
{
	struct mlx5dm_sim_parse p;
	struct tpkt t;

	(void)state;
	start4(&t, 6);
	tp_tcp(&t, 1234, 80, 1, 2, 0x02);
	tp_payload(&t, 10);
	assert_int_equal(parse(&t, &p), 0);
	assert_int_equal(p.o.l2, 0);
	assert_int_equal(p.o.nb_vlan, 0);
	assert_int_equal(p.o.ethertype, 0x0800);
	assert_int_equal(p.o.l3, 14);
	assert_int_equal(p.o.l3_len, 20);
	assert_int_equal(p.o.l3_type, MLX5DM_SIM_L3_IPV4);
	assert_int_equal(p.o.l3_ok, 1);
	assert_int_equal(p.o.l4, 34);
	assert_int_equal(p.o.l4_type, MLX5DM_SIM_L4_TCP);
	assert_int_equal(p.o.frag, 0);
	assert_int_equal(p.tnl, MLX5DM_SIM_TNL_NONE);
	assert_int_equal(p.ptype, MLX5DM_SIM_PTYPE_L2_ETHER | MLX5DM_SIM_PTYPE_L3_IPV4 |
			 MLX5DM_SIM_PTYPE_L4_TCP);
	/* A corrupted header checksum is parsed, with l3_ok clear. */
	t.pkt.data[24] ^= 0xff;
	assert_int_equal(mlx5dm_sim_parse(t.pkt.data, t.pkt.len, &p), 0);
	assert_int_equal(p.o.l3_ok, 0);
}

static void
test_qinq_udp(void **state)
{
	struct mlx5dm_sim_parse p;
	struct tpkt t;

	(void)state;
	tp_init(&t);
	tp_eth(&t, MAC_D, MAC_S, 0x88a8);
	tp_vlan(&t, 0xa064, 0x8100);
	tp_vlan(&t, 0x0123, 0x0800);
	tp_ipv4(&t, IP_A, IP_B, 17, 64, 0);
	tp_udp(&t, 1000, 2000, true);
	assert_int_equal(parse(&t, &p), 0);
	assert_int_equal(p.o.nb_vlan, 2);
	assert_int_equal(p.o.vlan[0], 12);
	assert_int_equal(p.o.vlan[1], 16);
	assert_int_equal(p.o.vlan_qual[0], MLX5DM_SIM_VLAN_S);
	assert_int_equal(p.o.vlan_qual[1], MLX5DM_SIM_VLAN_C);
	assert_int_equal(p.o.ethertype, 0x0800);
	assert_int_equal(p.o.l3, 22);
	assert_int_equal(p.o.l4, 42);
	assert_int_equal(p.o.l4_type, MLX5DM_SIM_L4_UDP);
	assert_int_equal(p.ptype, MLX5DM_SIM_PTYPE_L2_ETHER_QINQ | MLX5DM_SIM_PTYPE_L3_IPV4 |
			 MLX5DM_SIM_PTYPE_L4_UDP);
}

/* A fragment (first or not) of an IPv4 or IPv6 datagram: parsed up to its IP header only. */
static void
check_fragment(struct tpkt *t, bool first)
{
	struct mlx5dm_sim_parse p;

	assert_int_equal(parse(t, &p), 0);
	assert_int_equal(p.o.frag, 1);
	assert_int_equal(p.o.first_frag, first);
	assert_int_equal(p.o.l4, MLX5DM_SIM_NOHDR);
	assert_int_equal(p.o.l4_type, MLX5DM_SIM_L4_NONE);
	assert_int_equal(p.o.l4_ok, 0);
	assert_int_equal(p.tnl, MLX5DM_SIM_TNL_NONE);
	assert_int_equal(p.ptype & 0xf00, MLX5DM_SIM_PTYPE_L4_FRAG);
}

/* First and second VLAN qualifiers for each order of C-tags (0x8100) and S-tags (0x88a8). */
static void
test_vlan_kinds(void **state)
{
	static const struct {
		uint16_t tpid[3];       /* 0: no (further) tag */
		uint8_t nb_vlan;
		uint8_t qual[2];
		uint16_t ethertype;
	} c[] = {
		{ { 0 }, 0, { MLX5DM_SIM_VLAN_NONE, MLX5DM_SIM_VLAN_NONE }, 0x0800 },
		{ { 0x8100 }, 1, { MLX5DM_SIM_VLAN_C, MLX5DM_SIM_VLAN_NONE }, 0x0800 },
		{ { 0x88a8 }, 1, { MLX5DM_SIM_VLAN_S, MLX5DM_SIM_VLAN_NONE }, 0x0800 },
		{ { 0x88a8, 0x8100 }, 2, { MLX5DM_SIM_VLAN_S, MLX5DM_SIM_VLAN_C }, 0x0800 },
		{ { 0x8100, 0x8100 }, 2, { MLX5DM_SIM_VLAN_C, MLX5DM_SIM_VLAN_C }, 0x0800 },
		{ { 0x88a8, 0x88a8 }, 2, { MLX5DM_SIM_VLAN_S, MLX5DM_SIM_VLAN_S }, 0x0800 },
		{ { 0x8100, 0x88a8 }, 2, { MLX5DM_SIM_VLAN_C, MLX5DM_SIM_VLAN_S }, 0x0800 },
		/* A third tag is beyond the parser: its TPID is the EtherType, no L3. */
		{ { 0x88a8, 0x8100, 0x8100 }, 2, { MLX5DM_SIM_VLAN_S, MLX5DM_SIM_VLAN_C }, 0x8100 },
	};
	struct mlx5dm_sim_parse p;
	struct tpkt t;
	unsigned int i, k;

	(void)state;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		tp_init(&t);
		tp_eth(&t, MAC_D, MAC_S, c[i].tpid[0] != 0 ? c[i].tpid[0] : 0x0800);
		for (k = 0; k < 3 && c[i].tpid[k] != 0; k++)
			tp_vlan(&t, (uint16_t)(100 + k), k < 2 && c[i].tpid[k + 1] != 0 ?
				c[i].tpid[k + 1] : 0x0800);
		tp_ipv4(&t, IP_A, IP_B, 17, 64, 0);
		tp_udp(&t, 1, 2, false);
		assert_int_equal(parse(&t, &p), 0);
		assert_int_equal(p.o.nb_vlan, c[i].nb_vlan);
		assert_int_equal(p.o.vlan_qual[0], c[i].qual[0]);
		assert_int_equal(p.o.vlan_qual[1], c[i].qual[1]);
		assert_int_equal(p.o.ethertype, c[i].ethertype);
		assert_int_equal(p.o.l3_type, c[i].ethertype == 0x0800 ? MLX5DM_SIM_L3_IPV4 :
				 MLX5DM_SIM_L3_NONE);
		for (k = 0; k < c[i].nb_vlan; k++)
			assert_int_equal(p.o.vlan[k], 12 + 4 * k);
	}
}

static void
test_ipv4_options_and_fragments(void **state)
{
	struct mlx5dm_sim_parse p;
	struct tpkt t;

	(void)state;
	/* ihl 6: one option word (four NOPs) */
	start4(&t, 6);
	tp_u32(&t, 0x01010101);
	t.mem[TP_HEAD + 14] = 0x46;
	tp_tcp(&t, 1, 2, 3, 4, 0x10);
	assert_int_equal(parse(&t, &p), 0);
	assert_int_equal(p.o.l3_len, 24);
	assert_int_equal(p.o.l3_ext, 1);
	assert_int_equal(p.o.l3_ok, 1);
	assert_int_equal(p.o.l4, 38);
	assert_int_equal(p.ptype, MLX5DM_SIM_PTYPE_L2_ETHER | MLX5DM_SIM_PTYPE_L3_IPV4_EXT |
			 MLX5DM_SIM_PTYPE_L4_TCP);

	/*
	 * Fragments: first (MF, offset 0), middle (MF, offset 185 * 8) and last
	 * (offset 370 * 8): a ConnectX parses nothing behind the IP header of
	 * any of them, so even the first one's UDP header (to port 4789: no
	 * VXLAN either) is no L4 header.
	 */
	start4(&t, 17);
	t.mem[TP_HEAD + 20] = 0x20;
	t.mem[TP_HEAD + 21] = 0x00;
	tp_udp(&t, 1, 4789, false);
	tp_payload(&t, 16);
	check_fragment(&t, true);
	start4(&t, 17);
	t.mem[TP_HEAD + 20] = 0x20;
	t.mem[TP_HEAD + 21] = 185;
	tp_payload(&t, 16);
	check_fragment(&t, false);
	start4(&t, 6);
	t.mem[TP_HEAD + 20] = 0x01;
	t.mem[TP_HEAD + 21] = 0x72;
	tp_payload(&t, 24);
	check_fragment(&t, false);
	/* DF alone is no fragment: the L4 header is there. */
	start4(&t, 17);
	t.mem[TP_HEAD + 20] = 0x40;
	tp_udp(&t, 1, 2, false);
	assert_int_equal(parse(&t, &p), 0);
	assert_int_equal(p.o.frag, 0);
	assert_int_equal(p.o.l4_type, MLX5DM_SIM_L4_UDP);
}

/* IPv6 with hop-by-hop (8 B), routing (16 B) and destination options (8 B). */
static void
test_ipv6_ext_headers(void **state)
{
	static const uint8_t hbh[8] = { 43, 0, 1, 4, 0, 0, 0, 0 };
	static const uint8_t rt[16] = { 60, 1, 0, 0 };
	static const uint8_t dst[8] = { 6, 0, 1, 4, 0, 0, 0, 0 };
	static const uint8_t frag1[8] = { 17, 0, 0x00, 0x01, 0, 0, 0, 7 }; /* offset 0, M */
	static const uint8_t frag2[8] = { 17, 0, 0x01, 0x00, 0, 0, 0, 7 }; /* offset 32 */
	struct mlx5dm_sim_parse p;
	struct tpkt t;

	(void)state;
	start6(&t, 0);
	tp_bytes(&t, hbh, sizeof(hbh));
	tp_bytes(&t, rt, sizeof(rt));
	tp_bytes(&t, dst, sizeof(dst));
	tp_tcp(&t, 5, 6, 7, 8, 0x02);
	assert_int_equal(parse(&t, &p), 0);
	assert_int_equal(p.o.l3_type, MLX5DM_SIM_L3_IPV6);
	assert_int_equal(p.o.l3_len, 40 + 32);
	assert_int_equal(p.o.proto, 6);
	assert_int_equal(p.o.l4, 14 + 72);
	assert_int_equal(p.o.l4_type, MLX5DM_SIM_L4_TCP);
	assert_int_equal(p.ptype, MLX5DM_SIM_PTYPE_L2_ETHER | MLX5DM_SIM_PTYPE_L3_IPV6_EXT |
			 MLX5DM_SIM_PTYPE_L4_TCP);

	/* Fragment header, first fragment: UDP follows, but is no L4 header to the device. */
	start6(&t, 44);
	tp_bytes(&t, frag1, sizeof(frag1));
	tp_udp(&t, 1, 2, true);
	check_fragment(&t, true);
	assert_int_equal(parse(&t, &p), 0);
	assert_int_equal(p.o.proto, 17);

	/* Non-first fragment. */
	start6(&t, 44);
	tp_bytes(&t, frag2, sizeof(frag2));
	tp_payload(&t, 24);
	check_fragment(&t, false);
}

static void
test_icmp(void **state)
{
	struct mlx5dm_sim_parse p;
	struct tpkt t;

	(void)state;
	start4(&t, 1);
	tp_u32(&t, 0x08000000);
	tp_u32(&t, 0x12340001);
	assert_int_equal(parse(&t, &p), 0);
	assert_int_equal(p.o.l4_type, MLX5DM_SIM_L4_ICMP);
	assert_int_equal(p.ptype & 0xf00, MLX5DM_SIM_PTYPE_L4_ICMP);

	start6(&t, 58);
	tp_u32(&t, 0x80000000);
	tp_u32(&t, 0x00010002);
	assert_int_equal(parse(&t, &p), 0);
	assert_int_equal(p.o.l4_type, MLX5DM_SIM_L4_ICMP);
	assert_int_equal(p.ptype & 0xf00, MLX5DM_SIM_PTYPE_L4_ICMP);
}

static void
build_vxlan(struct tpkt *t, unsigned int payload)
{
	tp_init(t);
	tp_eth(t, MAC_D, MAC_S, 0x0800);
	tp_ipv4(t, IP_A, IP_B, 17, 64, 0);
	tp_udp(t, 49152, 4789, false);
	tp_u32(t, 0x08000000);
	tp_u32(t, 0x12345600); /* VNI 0x123456 */
	tp_eth(t, 0x0a0b0c0d0e0full, 0x1a1b1c1d1e1full, 0x8100);
	tp_vlan(t, 0x0042, 0x0800);
	tp_ipv4(t, 0xc0a80001, 0xc0a80002, 6, 32, 0);
	tp_tcp(t, 4000, 443, 9, 10, 0x18);
	tp_payload(t, payload);
}

static void
test_vxlan(void **state)
{
	struct mlx5dm_sim_parse p;
	struct tpkt t;

	(void)state;
	build_vxlan(&t, 6);
	assert_int_equal(parse(&t, &p), 0);
	assert_int_equal(p.tnl, MLX5DM_SIM_TNL_VXLAN);
	assert_int_equal(p.tnl_off, 42);
	assert_int_equal(p.i.l2, 50);
	assert_int_equal(p.i.nb_vlan, 1);
	assert_int_equal(p.i.l3, 68);
	assert_int_equal(p.i.l4, 88);
	assert_int_equal(p.i.l4_type, MLX5DM_SIM_L4_TCP);
	assert_int_equal(p.o.l4_type, MLX5DM_SIM_L4_UDP);
	assert_int_equal(p.ptype, MLX5DM_SIM_PTYPE_L2_ETHER | MLX5DM_SIM_PTYPE_L3_IPV4 |
			 MLX5DM_SIM_PTYPE_L4_UDP | MLX5DM_SIM_PTYPE_TUNNEL_VXLAN |
			 MLX5DM_SIM_PTYPE_INNER_L2_ETHER_VLAN | MLX5DM_SIM_PTYPE_INNER_L3_IPV4 |
			 MLX5DM_SIM_PTYPE_INNER_L4_TCP);
}

/* GRE with C, K and S (16-byte header) carrying IPv6, then Ethernet (TEB), then MPLS. */
static void
test_gre(void **state)
{
	struct mlx5dm_sim_parse p;
	struct tpkt t;

	(void)state;
	start4(&t, 47);
	tp_u32(&t, 0xb00086dd);
	tp_u32(&t, 0);          /* checksum + reserved */
	tp_u32(&t, 0xabcdef01); /* key */
	tp_u32(&t, 7);          /* sequence */
	tp_ipv6(&t, ip6_a, ip6_b, 17, 9);
	tp_udp(&t, 1, 2, true);
	assert_int_equal(parse(&t, &p), 0);
	assert_int_equal(p.tnl, MLX5DM_SIM_TNL_GRE);
	assert_int_equal(p.tnl_off, 34);
	assert_int_equal(p.tnl_len, 16);
	assert_int_equal(p.i.l2, MLX5DM_SIM_NOHDR);
	assert_int_equal(p.i.l3, 50);
	assert_int_equal(p.i.l3_type, MLX5DM_SIM_L3_IPV6);
	assert_int_equal(p.i.l4, 90);
	assert_int_equal(p.ptype, MLX5DM_SIM_PTYPE_L2_ETHER | MLX5DM_SIM_PTYPE_L3_IPV4 |
			 MLX5DM_SIM_PTYPE_TUNNEL_GRE | MLX5DM_SIM_PTYPE_INNER_L3_IPV6 |
			 MLX5DM_SIM_PTYPE_INNER_L4_UDP);

	start4(&t, 47);
	tp_u32(&t, 0x00006558);
	tp_eth(&t, 1, 2, 0x0800);
	tp_ipv4(&t, 3, 4, 6, 1, 0);
	tp_tcp(&t, 1, 2, 3, 4, 0);
	assert_int_equal(parse(&t, &p), 0);
	assert_int_equal(p.tnl_len, 4);
	assert_int_equal(p.i.l2, 38);
	assert_int_equal(p.i.l3, 52);
	assert_int_equal(p.i.l4_type, MLX5DM_SIM_L4_TCP);

	start4(&t, 47);
	tp_u32(&t, 0x00008847);
	tp_u32(&t, (300u << 12) | (1u << 8) | 5); /* one label, bottom of stack */
	tp_ipv4(&t, 3, 4, 17, 1, 0);
	tp_udp(&t, 1, 2, true);
	assert_int_equal(parse(&t, &p), 0);
	assert_int_equal(p.mpls_in_gre, 1);
	assert_int_equal(p.i.nb_mpls, 1);
	assert_int_equal(p.i.mpls, 38);
	assert_int_equal(p.i.l3, 42);
	assert_int_equal(p.ptype & 0xf000, MLX5DM_SIM_PTYPE_TUNNEL_MPLS_IN_GRE);
}

static void
test_mpls(void **state)
{
	struct mlx5dm_sim_parse p;
	struct tpkt t;

	(void)state;
	tp_init(&t);
	tp_eth(&t, MAC_D, MAC_S, 0x8847);
	tp_u32(&t, (100u << 12) | (3u << 9) | 64);
	tp_u32(&t, (200u << 12) | (1u << 8) | 63);
	tp_ipv4(&t, IP_A, IP_B, 17, 64, 0);
	tp_udp(&t, 1, 2, true);
	assert_int_equal(parse(&t, &p), 0);
	assert_int_equal(p.o.nb_mpls, 2);
	assert_int_equal(p.o.mpls, 14);
	/* The IP behind labels on Ethernet is no outer L3 (MPLS is a tunnel layer). */
	assert_int_equal(p.o.l3_type, MLX5DM_SIM_L3_NONE);
	assert_int_equal(p.o.l4_type, MLX5DM_SIM_L4_NONE);
	assert_int_equal(p.ptype & 0xf, MLX5DM_SIM_PTYPE_L2_ETHER_MPLS);
	assert_int_equal(p.ptype & 0xf0, 0);
}

/* MPLS over UDP (port 6635, RFC 7510): two labels, then IP by its version nibble. */
static void
build_mpls_udp(struct tpkt *t, uint16_t dport, bool inner6)
{
	start4(t, 17);
	tp_udp(t, 49152, dport, true);
	tp_u32(t, (1000u << 12) | (5u << 9) | 64);
	tp_u32(t, (2000u << 12) | (1u << 8) | 63);
	if (inner6) {
		tp_ipv6(t, ip6_b, ip6_a, 17, 5);
		tp_udp(t, 7, 9, true);
	} else {
		tp_ipv4(t, 0xc0a80001, 0xc0a80002, 6, 32, 0);
		tp_tcp(t, 4000, 443, 9, 10, 0x18);
	}
	tp_payload(t, 4);
}

static void
test_mpls_udp(void **state)
{
	struct mlx5dm_sim_parse p;
	struct tpkt t;

	(void)state;
	build_mpls_udp(&t, 6635, false);
	assert_int_equal(parse(&t, &p), 0);
	assert_int_equal(p.tnl, MLX5DM_SIM_TNL_MPLS_UDP);
	assert_int_equal(p.tnl_off, 42);
	assert_int_equal(p.tnl_len, 0);
	assert_int_equal(p.mpls_in_gre, 0);
	assert_int_equal(p.o.l4_type, MLX5DM_SIM_L4_UDP);
	assert_int_equal(p.o.nb_mpls, 0);
	assert_int_equal(p.i.l2, MLX5DM_SIM_NOHDR);
	assert_int_equal(p.i.nb_mpls, 2);
	assert_int_equal(p.i.mpls, 42);
	assert_int_equal(p.i.l3, 50);
	assert_int_equal(p.i.l3_type, MLX5DM_SIM_L3_IPV4);
	assert_int_equal(p.i.l4, 70);
	assert_int_equal(p.i.l4_type, MLX5DM_SIM_L4_TCP);
	assert_int_equal(p.ptype, MLX5DM_SIM_PTYPE_L2_ETHER | MLX5DM_SIM_PTYPE_L3_IPV4 |
			 MLX5DM_SIM_PTYPE_L4_UDP | 0x0000d000u /* RTE_PTYPE_TUNNEL_MPLS_IN_UDP */ |
			 MLX5DM_SIM_PTYPE_INNER_L3_IPV4 | MLX5DM_SIM_PTYPE_INNER_L4_TCP);
	/* IPv6 after the labels. */
	build_mpls_udp(&t, 6635, true);
	assert_int_equal(parse(&t, &p), 0);
	assert_int_equal(p.tnl, MLX5DM_SIM_TNL_MPLS_UDP);
	assert_int_equal(p.i.l3, 50);
	assert_int_equal(p.i.l3_type, MLX5DM_SIM_L3_IPV6);
	assert_int_equal(p.i.l4, 90);
	assert_int_equal(p.i.l4_type, MLX5DM_SIM_L4_UDP);
	assert_int_equal(p.ptype, MLX5DM_SIM_PTYPE_L2_ETHER | MLX5DM_SIM_PTYPE_L3_IPV4 |
			 MLX5DM_SIM_PTYPE_L4_UDP | 0x0000d000u | MLX5DM_SIM_PTYPE_INNER_L3_IPV6 |
			 MLX5DM_SIM_PTYPE_INNER_L4_UDP);
	/* Any other port is plain UDP: the labels are payload. */
	build_mpls_udp(&t, 6636, false);
	assert_int_equal(parse(&t, &p), 0);
	assert_int_equal(p.tnl, MLX5DM_SIM_TNL_NONE);
	assert_int_equal(p.i.nb_mpls, 0);
	assert_int_equal(p.i.l3, MLX5DM_SIM_NOHDR);
	assert_int_equal(p.ptype, MLX5DM_SIM_PTYPE_L2_ETHER | MLX5DM_SIM_PTYPE_L3_IPV4 |
			 MLX5DM_SIM_PTYPE_L4_UDP);
}

/*
 * UDP datagrams to 6635 with 0..3 payload bytes (well-formed, exactly
 * sized heap copies): too short for a label, so no tunnel and no MPLS,
 * and nothing read past the frame. With a whole label but no bottom of
 * stack, the stack simply ends.
 */
static void
test_mpls_udp_short(void **state)
{
	static const uint8_t junk[4] = { 0xff, 0xff, 0xff, 0xff };
	struct mlx5dm_sim_parse p;
	unsigned int n;
	struct tpkt t;

	(void)state;
	for (n = 0; n <= 4; n++) {
		uint8_t *b;

		start4(&t, 17);
		tp_udp(&t, 1, 6635, true);
		tp_bytes(&t, junk, n);
		tp_finish(&t);
		b = malloc(t.len);
		assert_non_null(b);
		memcpy(b, t.pkt.data, t.len);
		assert_int_equal(mlx5dm_sim_parse(b, (uint16_t)t.len, &p), 0);
		free(b);
		assert_int_equal(p.o.l4_type, MLX5DM_SIM_L4_UDP);
		assert_int_equal(p.i.l3, MLX5DM_SIM_NOHDR);
		if (n < 4) {
			assert_int_equal(p.tnl, MLX5DM_SIM_TNL_NONE);
			assert_int_equal(p.i.nb_mpls, 0);
			assert_int_equal(p.ptype, MLX5DM_SIM_PTYPE_L2_ETHER |
					 MLX5DM_SIM_PTYPE_L3_IPV4 | MLX5DM_SIM_PTYPE_L4_UDP);
		} else {
			/* One label without S and nothing after it. */
			assert_int_equal(p.tnl, MLX5DM_SIM_TNL_MPLS_UDP);
			assert_int_equal(p.i.nb_mpls, 1);
		}
	}
}

/* Every prefix of a VXLAN frame, in an exactly-sized buffer: never a read past it. */
static void
test_truncations(void **state)
{
	struct mlx5dm_sim_parse p;
	unsigned int len, nb_err = 0;
	struct tpkt t;

	(void)state;
	build_vxlan(&t, 0);
	tp_finish(&t);
	for (len = 0; len <= t.len; len++) {
		uint8_t *b = malloc(len ? len : 1);

		assert_non_null(b);
		memcpy(b, t.pkt.data, len);
		if (mlx5dm_sim_parse(b, (uint16_t)len, &p) != 0) {
			nb_err++;
		} else {
			/* A cut datagram: not L3-OK, its headers as far as the frame goes. */
			assert_int_equal(p.o.l3, 14);
			assert_int_equal(p.o.l3_ok, len == t.len);
			assert_int_equal(p.o.l4 == MLX5DM_SIM_NOHDR, len < 14 + 20 + 8);
			assert_int_equal(p.tnl == MLX5DM_SIM_TNL_NONE, len < 14 + 20 + 8 + 8);
		}
		free(b);
	}
	/* Shorter than Ethernet and the outer IPv4 header: errors. */
	assert_int_equal(nb_err, 14 + 20);
}

/* The same for MPLS over UDP: a cut datagram parses, never with an over-read. */
static void
test_truncations_mpls_udp(void **state)
{
	struct mlx5dm_sim_parse p;
	unsigned int len, nb_err = 0;
	struct tpkt t;

	(void)state;
	build_mpls_udp(&t, 6635, true);
	tp_finish(&t);
	for (len = 0; len < t.len; len++) {
		uint8_t *b = malloc(len ? len : 1);

		assert_non_null(b);
		memcpy(b, t.pkt.data, len);
		if (mlx5dm_sim_parse(b, (uint16_t)len, &p) != 0)
			nb_err++;
		else
			assert_int_equal(p.o.l3_ok, 0);
		free(b);
	}
	assert_int_equal(nb_err, 14 + 20);
}

/* Garbage or a cut in a tunnel payload only ends the inner stack. */
static void
test_bad_tunnel_payload(void **state)
{
	struct mlx5dm_sim_parse p;
	struct tpkt t;

	(void)state;
	/* UDP to 4789 with 4 bytes of payload: no VXLAN header. */
	start4(&t, 17);
	tp_udp(&t, 1, 4789, true);
	tp_u32(&t, 0x08000000);
	assert_int_equal(parse(&t, &p), 0);
	assert_int_equal(p.tnl, MLX5DM_SIM_TNL_NONE);
	/* VXLAN whose inner IPv4 is cut: inner L2 parsed, inner L3 absent. */
	start4(&t, 17);
	tp_udp(&t, 1, 4789, false);
	tp_u32(&t, 0x08000000);
	tp_u32(&t, 0x00000100);
	tp_eth(&t, 1, 2, 0x0800);
	tp_u32(&t, 0x45000099);
	assert_int_equal(parse(&t, &p), 0);
	assert_int_equal(p.tnl, MLX5DM_SIM_TNL_VXLAN);
	assert_int_equal(p.i.l2, 50);
	assert_int_equal(p.i.l3, MLX5DM_SIM_NOHDR);
	assert_int_equal(p.ptype, MLX5DM_SIM_PTYPE_L2_ETHER | MLX5DM_SIM_PTYPE_L3_IPV4 |
			 MLX5DM_SIM_PTYPE_L4_UDP | MLX5DM_SIM_PTYPE_TUNNEL_VXLAN |
			 MLX5DM_SIM_PTYPE_INNER_L2_ETHER);
}

/*
 * Random corruption of valid frames (every supported stack), each parsed
 * from an exactly-sized heap copy: whatever the verdict, ASan sees no
 * read outside the frame, and a parse that succeeds has headers inside it.
 */
static void
test_fuzz(void **state)
{
	struct mlx5dm_sim_parse p;
	struct tpkt seeds[5];
	unsigned int i, k;

	(void)state;
	build_vxlan(&seeds[0], 8);
	start6(&seeds[1], 0);
	tp_bytes(&seeds[1], (const uint8_t[8]){ 44, 0 }, 8);
	tp_bytes(&seeds[1], (const uint8_t[8]){ 6, 0, 0, 1 }, 8);
	tp_tcp(&seeds[1], 1, 2, 3, 4, 5);
	start4(&seeds[2], 47);
	tp_u32(&seeds[2], 0xb0008847);
	tp_u32(&seeds[2], 0);
	tp_u32(&seeds[2], 1);
	tp_u32(&seeds[2], 2);
	tp_u32(&seeds[2], 0x00001140);
	tp_ipv4(&seeds[2], 1, 2, 17, 3, 0);
	tp_udp(&seeds[2], 1, 4789, true);
	tp_init(&seeds[3]);
	tp_eth(&seeds[3], 1, 2, 0x88a8);
	tp_vlan(&seeds[3], 1, 0x8100);
	tp_vlan(&seeds[3], 2, 0x8847);
	tp_u32(&seeds[3], 0x00001040);
	tp_ipv4(&seeds[3], 1, 2, 1, 3, 0);
	tp_u32(&seeds[3], 0x08000000);
	tp_u32(&seeds[3], 0);
	build_mpls_udp(&seeds[4], 6635, false);
	for (i = 0; i < 5; i++)
		tp_finish(&seeds[i]);
	srand(1234);
	for (i = 0; i < 20000; i++) {
		const struct tpkt *sd = &seeds[i % 5];
		unsigned int len = sd->len - (unsigned int)rand() % 8u * (i & 1);
		uint8_t *b = malloc(len);

		assert_non_null(b);
		memcpy(b, sd->pkt.data, len);
		for (k = 0; k < 1 + (unsigned int)rand() % 4u; k++)
			b[(unsigned int)rand() % len] ^= (uint8_t)(1u << (rand() % 8));
		if (mlx5dm_sim_parse(b, (uint16_t)len, &p) == 0) {
			assert_true(p.o.l4 == MLX5DM_SIM_NOHDR || p.o.l4 < len);
			assert_true(p.i.l4 == MLX5DM_SIM_NOHDR || p.i.l4 < len);
			assert_true(p.len <= len);
		}
		free(b);
	}
}

static void
test_malformed(void **state)
{
	struct mlx5dm_sim_parse p;
	struct tpkt t;

	(void)state;
	/* ihl < 5 */
	start4(&t, 6);
	tp_tcp(&t, 1, 2, 3, 4, 0);
	tp_finish(&t);
	t.pkt.data[14] = 0x44;
	assert_int_equal(mlx5dm_sim_parse(t.pkt.data, t.pkt.len, &p), -EINVAL);
	/* Total length beyond the frame: steered, not L3-OK (the whole TCP header is there). */
	t.pkt.data[14] = 0x45;
	t.pkt.data[16] = 0x10;
	assert_int_equal(mlx5dm_sim_parse(t.pkt.data, t.pkt.len, &p), 0);
	assert_int_equal(p.o.l3_ok, 0);
	assert_int_equal(p.o.l4_type, MLX5DM_SIM_L4_TCP);
	/* Shorter than its header, or than what the next header needs: malformed. */
	t.pkt.data[16] = 0;
	t.pkt.data[17] = 19;
	assert_int_equal(mlx5dm_sim_parse(t.pkt.data, t.pkt.len, &p), -EINVAL);
	t.pkt.data[17] = 30;
	assert_int_equal(mlx5dm_sim_parse(t.pkt.data, t.pkt.len, &p), -EINVAL);
	/* TCP data offset < 5 */
	tp_finish(&t);
	t.pkt.data[46] = 0x40;
	assert_int_equal(mlx5dm_sim_parse(t.pkt.data, t.pkt.len, &p), -EINVAL);
	/* Wrong IP version for the ethertype */
	tp_finish(&t);
	t.pkt.data[14] = 0x65;
	assert_int_equal(mlx5dm_sim_parse(t.pkt.data, t.pkt.len, &p), -EINVAL);
	/* An IPv6 payload length beyond the frame: as IPv4's. */
	start6(&t, 6);
	tp_tcp(&t, 1, 2, 3, 4, 0);
	tp_finish(&t);
	assert_int_equal(mlx5dm_sim_parse(t.pkt.data, t.pkt.len, &p), 0);
	assert_int_equal(p.o.l3_ok, 1);
	t.pkt.data[18] = 0x10;
	assert_int_equal(mlx5dm_sim_parse(t.pkt.data, t.pkt.len, &p), 0);
	assert_int_equal(p.o.l3_ok, 0);
	assert_int_equal(p.o.l4_type, MLX5DM_SIM_L4_TCP);
	/* An unknown ethertype is plain L2, not an error; trailing padding is fine. */
	tp_init(&t);
	tp_eth(&t, MAC_D, MAC_S, 0x88b5);
	tp_payload(&t, 46);
	assert_int_equal(parse(&t, &p), 0);
	assert_int_equal(p.o.l3, MLX5DM_SIM_NOHDR);
	assert_int_equal(p.ptype, MLX5DM_SIM_PTYPE_L2_ETHER);
}

/* Headers past the parse window end parsing quietly (no error, no L4). */
static void
test_parse_window(void **state)
{
	struct mlx5dm_sim_parse p;
	uint8_t hbh[232];
	struct tpkt t;

	(void)state;
	memset(hbh, 0, sizeof(hbh));
	hbh[0] = 6;
	hbh[1] = sizeof(hbh) / 8 - 1;
	start6(&t, 0);
	tp_bytes(&t, hbh, sizeof(hbh));
	tp_tcp(&t, 1, 2, 3, 4, 0);
	assert_int_equal(parse(&t, &p), 0);
	assert_int_equal(p.o.l3_type, MLX5DM_SIM_L3_IPV6);
	assert_int_equal(p.o.l4, MLX5DM_SIM_NOHDR);
	assert_int_equal(p.len, MLX5DM_SIM_HDR_MAX);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ipv4_tcp),
		cmocka_unit_test(test_qinq_udp),
		cmocka_unit_test(test_vlan_kinds),
		cmocka_unit_test(test_ipv4_options_and_fragments),
		cmocka_unit_test(test_ipv6_ext_headers),
		cmocka_unit_test(test_icmp),
		cmocka_unit_test(test_vxlan),
		cmocka_unit_test(test_gre),
		cmocka_unit_test(test_mpls),
		cmocka_unit_test(test_mpls_udp),
		cmocka_unit_test(test_mpls_udp_short),
		cmocka_unit_test(test_truncations),
		cmocka_unit_test(test_truncations_mpls_udp),
		cmocka_unit_test(test_bad_tunnel_payload),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_fuzz),
		cmocka_unit_test(test_parse_window),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
