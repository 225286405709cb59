/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Field vectors per lookup type. Each case lists the expected tag fields as
 * (bit offset, width, value) read off mlx5_ifc.h ste_*_v1, with
 * values derived by hand from the test packet; the expected 16 bytes are
 * built from that list and compared with what the engine extracts.
 */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "mlx5dm_sim_engine_priv.h"
#include "sim_test_util.h"

struct fv_bits {
	uint16_t bit;
	uint8_t width;
	uint32_t val;
};

#define FV_END { 0, 0, 0 }

static void
start4(struct tpkt *t, uint32_t src, uint32_t dst, uint8_t proto, uint8_t ttl)
{
	tp_init(t);
	tp_eth(t, 1, 2, 0x0800);
	tp_ipv4(t, src, dst, proto, ttl, 0);
}

static void
check_fv(uint16_t lu, const struct mlx5dm_sim_parse *p, const struct mlx5dm_sim_meta *m,
	 const struct fv_bits *exp)
{
	uint8_t want[16], got[16];

	memset(want, 0, sizeof(want));
	for (; exp->width != 0; exp++)
		mlx5dm_prm_set(want, exp->bit, exp->width, exp->val);
	assert_int_equal(mlx5dm_sim_fv_build(lu, p, m, got), 0);
	assert_memory_equal(got, want, 16);
}

/* VLAN 5/0/0x123 (C), 00:11:22:33:44:55 <- 66:77:88:99:aa:bb, 10.0.0.1 -> 10.0.0.2
 * TOS 0xb9 (DSCP 46, ECN 1), TTL 64, TCP 1234 -> 80 SYN|ACK seq 0x01020304 ack 0x05060708. */
static void
build_tcp4(struct tpkt *t)
{
	tp_init(t);
	tp_eth(t, 0x001122334455ull, 0x66778899aabbull, 0x8100);
	tp_vlan(t, 0xa123, 0x0800);
	tp_ipv4(t, 0x0a000001, 0x0a000002, 6, 64, 0xb9);
	tp_tcp(t, 1234, 80, 0x01020304, 0x05060708, 0x012);
	tp_payload(t, 4);
	tp_finish(t);
}

static void
test_fv_l2(void **state)
{
	const struct fv_bits ethl2_common[] = {
		{ 0x003, 1, 0 }, { 0x00a, 2, 1 }, { 0x00c, 2, 1 }, { 0x00e, 2, 2 },
		{ 0x010, 3, 5 }, { 0x013, 1, 0 }, { 0x014, 12, 0x123 }, { 0x050, 16, 0x0800 },
		{ 0x066, 1, 1 }, { 0x06b, 1, 1 }, { 0x06c, 1, 1 }, { 0x06d, 1, 1 },
	};
	struct fv_bits dst[20], src[20];
	const struct fv_bits src_dst[] = {
		{ 0x000, 32, 0x00112233 }, { 0x020, 32, 0x66778899 }, { 0x040, 16, 0x4455 },
		{ 0x05a, 2, 1 }, { 0x05e, 2, 2 }, { 0x060, 3, 5 }, { 0x063, 1, 0 },
		{ 0x064, 12, 0x123 }, { 0x070, 16, 0xaabb }, FV_END,
	};
	struct mlx5dm_sim_meta m = { 0 };
	struct mlx5dm_sim_parse p;
	unsigned int n = MLX5DM_ARRAY_SIZE(ethl2_common);
	struct tpkt t;

	(void)state;
	memcpy(dst, ethl2_common, sizeof(ethl2_common));
	memcpy(src, ethl2_common, sizeof(ethl2_common));
	dst[n] = (struct fv_bits){ 0x020, 32, 0x00112233 };
	dst[n + 1] = (struct fv_bits){ 0x040, 16, 0x4455 };
	dst[n + 2] = (struct fv_bits)FV_END;
	src[n] = (struct fv_bits){ 0x020, 32, 0x66778899 };
	src[n + 1] = (struct fv_bits){ 0x040, 16, 0xaabb };
	src[n + 2] = (struct fv_bits)FV_END;
	build_tcp4(&t);
	assert_int_equal(mlx5dm_sim_parse(t.pkt.data, t.pkt.len, &p), 0);
	check_fv(MLX5DM_SIM_LU_ETHL2_O, &p, &m, dst);
	check_fv(MLX5DM_SIM_LU_ETHL2_SRC_O, &p, &m, src);
	check_fv(MLX5DM_SIM_LU_ETHL2_SRC_DST_O, &p, &m, src_dst);
}

static void
test_fv_ipv4(void **state)
{
	const struct fv_bits tuple[] = {
		{ 0x000, 32, 0x0a000001 }, { 0x020, 32, 0x0a000002 }, { 0x040, 16, 1234 },
		{ 0x050, 16, 80 }, { 0x064, 1, 1 }, { 0x065, 1, 1 }, { 0x066, 1, 0 },
		{ 0x06b, 1, 1 /* ack */ }, { 0x06e, 1, 1 /* syn */ }, { 0x070, 6, 46 },
		{ 0x076, 2, 1 }, { 0x078, 8, 6 }, FV_END,
	};
	struct fv_bits misc[] = {
		{ 0x000, 16, 0x1234 }, { 0x010, 3, 2 /* DF */ }, { 0x013, 13, 0 },
		{ 0x020, 16, 20 + 20 + 4 }, { 0x030, 16, 0 /* below */ }, { 0x040, 4, 4 },
		{ 0x044, 4, 5 }, { 0x048, 8, 64 }, FV_END,
	};
	struct fv_bits l4[] = {
		{ 0x000, 4, 4 }, { 0x008, 6, 46 }, { 0x00e, 2, 1 }, { 0x010, 8, 64 },
		{ 0x018, 8, 6 }, { 0x020, 16, 1234 }, { 0x030, 16, 80 }, { 0x040, 1, 0 },
		{ 0x060, 4, 5 }, { 0x064, 1, 1 }, { 0x065, 1, 1 }, { 0x066, 1, 0 },
		{ 0x067, 9, 0x012 }, FV_END,
	};
	struct fv_bits l4misc[] = {
		{ 0x000, 32, 0x20000000 /* window 0x2000, urgent 0 */ },
		{ 0x020, 32, 0x05060708 }, { 0x040, 32, 0x01020304 }, { 0x070, 16, 0 /* below */ },
		FV_END,
	};
	struct mlx5dm_sim_meta m = { 0 };
	struct mlx5dm_sim_parse p;
	struct tpkt t;

	(void)state;
	build_tcp4(&t);
	misc[4].val = (uint32_t)(t.pkt.data[18 + 10] << 8 | t.pkt.data[18 + 11]);
	l4misc[3].val = (uint32_t)(t.pkt.data[38 + 16] << 8 | t.pkt.data[38 + 17]);
	assert_int_equal(mlx5dm_sim_parse(t.pkt.data, t.pkt.len, &p), 0);
	check_fv(MLX5DM_SIM_LU_IPV4_5_TUPLE_O, &p, &m, tuple);
	check_fv(MLX5DM_SIM_LU_IPV4_MISC_O, &p, &m, misc);
	check_fv(MLX5DM_SIM_LU_ETHL4_O, &p, &m, l4);
	check_fv(MLX5DM_SIM_LU_ETHL4_MISC_O, &p, &m, l4misc);
	/* No tunnel: the inner vectors are empty. */
	check_fv(MLX5DM_SIM_LU_IPV4_5_TUPLE_I, &p, &m, (const struct fv_bits[]){ FV_END });
}

static void
test_fv_ipv6(void **state)
{
	static const uint8_t a[16] = { 0x20, 0x01, 0x0d, 0xb8, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
				       12 };
	static const uint8_t b[16] = { 0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0xaa, 0xbb, 0, 0, 0, 0, 0, 1 };
	static const uint8_t hbh[8] = { 17, 0, 1, 4, 0, 0, 0, 0 };
	const struct fv_bits des[] = {
		{ 0x000, 32, 0xfe800000 }, { 0x020, 32, 0 }, { 0x040, 32, 0xaabb0000 },
		{ 0x060, 32, 1 }, FV_END,
	};
	const struct fv_bits src[] = {
		{ 0x000, 32, 0x20010db8 }, { 0x020, 32, 0x01020304 }, { 0x040, 32, 0x05060708 },
		{ 0x060, 32, 0x090a0b0c }, FV_END,
	};
	const struct fv_bits l4[] = {
		{ 0x000, 4, 6 }, { 0x008, 6, 0x2d }, { 0x00e, 2, 2 }, { 0x010, 8, 7 },
		{ 0x018, 8, 17 }, { 0x020, 16, 53 }, { 0x030, 16, 5353 }, { 0x04c, 20, 0x12345 },
		{ 0x064, 1, 1 }, { 0x065, 1, 1 }, { 0x070, 16, 8 + 8 + 3 }, FV_END,
	};
	struct mlx5dm_sim_meta m = { 0 };
	struct mlx5dm_sim_parse p;
	struct tpkt t;

	(void)state;
	tp_init(&t);
	tp_eth(&t, 1, 2, 0x86dd);
	tp_ipv6(&t, a, b, 0, 7);
	tp_bytes(&t, hbh, sizeof(hbh));
	tp_udp(&t, 53, 5353, true);
	tp_payload(&t, 3);
	tp_finish(&t);
	t.pkt.data[14] = 0x6b; /* traffic class 0xb6: DSCP 0x2d, ECN 2 */
	t.pkt.data[15] = 0x61;
	assert_int_equal(mlx5dm_sim_parse(t.pkt.data, t.pkt.len, &p), 0);
	check_fv(MLX5DM_SIM_LU_IPV6_DES_O, &p, &m, des);
	check_fv(MLX5DM_SIM_LU_IPV6_SRC_O, &p, &m, src);
	check_fv(MLX5DM_SIM_LU_ETHL4_O, &p, &m, l4);
	/* An IPv6 packet has no IPv4 addresses. */
	check_fv(MLX5DM_SIM_LU_IPV4_MISC_O, &p, &m, (const struct fv_bits[]){ FV_END });
}

static void
test_fv_vxlan_inner(void **state)
{
	const struct fv_bits tnl[] = {
		{ 0x000, 32, 0x12345600 }, { 0x020, 32, 0x0a0b0c0d }, { 0x040, 16, 0x0e0f },
		{ 0x050, 16, 0x0800 }, { 0x063, 1, 0 }, { 0x06a, 2, 1 }, { 0x06c, 2, 1 },
		{ 0x06e, 2, 2 }, { 0x070, 3, 0 }, { 0x073, 1, 0 }, { 0x074, 12, 0x042 }, FV_END,
	};
	const struct fv_bits tuple_i[] = {
		{ 0x000, 32, 0xc0a80001 }, { 0x020, 32, 0xc0a80002 }, { 0x040, 16, 4000 },
		{ 0x050, 16, 443 }, { 0x064, 1, 1 }, { 0x065, 1, 1 }, { 0x067, 9, 0x18 },
		{ 0x078, 8, 6 }, FV_END,
	};
	const struct fv_bits l2_i[] = {
		{ 0x00a, 2, 1 }, { 0x00c, 2, 1 }, { 0x00e, 2, 2 }, { 0x014, 12, 0x042 },
		{ 0x020, 32, 0x0a0b0c0d }, { 0x040, 16, 0x0e0f }, { 0x050, 16, 0x0800 },
		{ 0x06b, 1, 1 }, { 0x06c, 1, 1 }, { 0x06d, 1, 1 }, FV_END,
	};
	struct fv_bits misc_i[] = {
		{ 0x000, 32, 0x20000000 }, { 0x020, 32, 10 }, { 0x040, 32, 9 },
		{ 0x070, 16, 0 }, FV_END,
	};
	struct fv_bits tuple_o[] = {
		{ 0x000, 32, 0x0a000001 }, { 0x020, 32, 0x0a000002 }, { 0x040, 16, 49152 },
		{ 0x050, 16, 4789 }, { 0x064, 1, 1 }, { 0x065, 1, 1 }, { 0x078, 8, 17 },
		FV_END,
	};
	struct mlx5dm_sim_meta m = { 0 };
	struct mlx5dm_sim_parse p;
	struct tpkt t;

	(void)state;
	start4(&t, 0x0a000001, 0x0a000002, 17, 64);
	tp_udp(&t, 49152, 4789, false);
	tp_u32(&t, 0x08000000);
	tp_u32(&t, 0x12345600);
	tp_eth(&t, 0x0a0b0c0d0e0full, 0x1a1b1c1d1e1full, 0x8100);
	tp_vlan(&t, 0x0042, 0x0800);
	tp_ipv4(&t, 0xc0a80001, 0xc0a80002, 6, 32, 0);
	tp_tcp(&t, 4000, 443, 9, 10, 0x18);
	tp_finish(&t);
	assert_int_equal(mlx5dm_sim_parse(t.pkt.data, t.pkt.len, &p), 0);
	check_fv(MLX5DM_SIM_LU_ETHL2_TNL, &p, &m, tnl);
	check_fv(MLX5DM_SIM_LU_IPV4_5_TUPLE_I, &p, &m, tuple_i);
	check_fv(MLX5DM_SIM_LU_ETHL2_I, &p, &m, l2_i);
	check_fv(MLX5DM_SIM_LU_IPV4_5_TUPLE_O, &p, &m, tuple_o);
	misc_i[3].val = (uint32_t)(t.pkt.data[88 + 16] << 8 | t.pkt.data[88 + 17]);
	check_fv(MLX5DM_SIM_LU_ETHL4_MISC_I, &p, &m, misc_i);
}

static void
test_fv_gre_mpls(void **state)
{
	const struct fv_bits gre[] = {
		/* C, K, S set (bits 0x000, 0x002, 0x003), protocol 0x0800 */
		{ 0x000, 1, 1 }, { 0x002, 1, 1 }, { 0x003, 1, 1 }, { 0x010, 16, 0x0800 },
		{ 0x040, 24, 0xabcdef }, { 0x058, 8, 0x01 }, FV_END,
	};
	const struct fv_bits mpls_o[] = {
		/* mpls_ok, entry 0: qualifier, entry 1: qualifier + S */
		{ 0x015, 1, 1 }, { 0x01c, 1, 1 }, { 0x01d, 1, 1 }, { 0x01e, 1, 0 },
		{ 0x01f, 1, 1 }, { 0x020, 20, 100 }, { 0x034, 3, 3 }, { 0x037, 1, 0 },
		{ 0x038, 8, 64 }, { 0x040, 32, (200u << 12) | (1u << 8) | 63 }, FV_END,
	};
	const struct fv_bits mpls_i[] = {
		{ 0x015, 1, 1 }, { 0x01e, 1, 1 }, { 0x01f, 1, 1 }, { 0x020, 20, 300 },
		{ 0x037, 1, 1 }, { 0x038, 8, 5 }, FV_END,
	};
	struct mlx5dm_sim_meta m = { 0 };
	struct mlx5dm_sim_parse p;
	struct tpkt t;

	(void)state;
	start4(&t, 1, 2, 47, 64);
	tp_u32(&t, 0xb0000800);
	tp_u32(&t, 0xffff0000); /* checksum/reserved: not in the tag */
	tp_u32(&t, 0xabcdef01);
	tp_u32(&t, 99);
	tp_ipv4(&t, 3, 4, 17, 1, 0);
	tp_udp(&t, 1, 2, true);
	tp_finish(&t);
	assert_int_equal(mlx5dm_sim_parse(t.pkt.data, t.pkt.len, &p), 0);
	check_fv(MLX5DM_SIM_LU_GRE, &p, &m, gre);

	tp_init(&t);
	tp_eth(&t, 1, 2, 0x8847);
	tp_u32(&t, (100u << 12) | (3u << 9) | 64);
	tp_u32(&t, (200u << 12) | (1u << 8) | 63);
	tp_ipv4(&t, 1, 2, 17, 64, 0);
	tp_udp(&t, 1, 2, true);
	tp_finish(&t);
	assert_int_equal(mlx5dm_sim_parse(t.pkt.data, t.pkt.len, &p), 0);
	check_fv(MLX5DM_SIM_LU_MPLS_O, &p, &m, mpls_o);

	start4(&t, 1, 2, 47, 64);
	tp_u32(&t, 0x00008847);
	tp_u32(&t, (300u << 12) | (1u << 8) | 5);
	tp_ipv4(&t, 3, 4, 17, 1, 0);
	tp_udp(&t, 1, 2, true);
	tp_finish(&t);
	assert_int_equal(mlx5dm_sim_parse(t.pkt.data, t.pkt.len, &p), 0);
	check_fv(MLX5DM_SIM_LU_MPLS_I, &p, &m, mpls_i);
	check_fv(MLX5DM_SIM_LU_MPLS_O, &p, &m, (const struct fv_bits[]){ FV_END });
}

/*
 * FLEX_PARSER_0/1 (ste_flex_parser_0: dw0 = parser 3 .. dw3 = parser 0;
 * ste_flex_parser_1: dw0 = parser 7 .. dw3 = parser 4). The model's
 * MPLS-over-GRE parser is id 3 (FLEX_PARSER_0 dword 0), its MPLS-over-UDP
 * parser id 4 (FLEX_PARSER_1 dword 3); each holds the whole first MPLS
 * header: label[31:12], exp[11:9], s_bos[8], ttl[7:0].
 */
static void
test_fv_flex_parsers(void **state)
{
	const struct fv_bits gre_flex0[] = {
		{ 0x000, 20, 0x12345 }, { 0x014, 3, 5 }, { 0x017, 1, 0 }, { 0x018, 8, 0x40 },
		FV_END,
	};
	const struct fv_bits udp_flex1[] = {
		{ 0x060, 20, 0xfedcb }, { 0x074, 3, 2 }, { 0x077, 1, 1 }, { 0x078, 8, 0x11 },
		FV_END,
	};
	const struct fv_bits none[] = { FV_END };
	struct mlx5dm_sim_meta m = { 0 };
	struct mlx5dm_sim_parse p;
	struct tpkt t;

	(void)state;
	/* GRE with K and S (12-byte header), two labels: only the first counts. */
	start4(&t, 1, 2, 47, 64);
	tp_u32(&t, 0x30008847);
	tp_u32(&t, 0xabcdef01); /* key */
	tp_u32(&t, 7);          /* sequence */
	tp_u32(&t, (0x12345u << 12) | (5u << 9) | 0x40);
	tp_u32(&t, (0x00777u << 12) | (1u << 8) | 0x3f);
	tp_ipv4(&t, 3, 4, 17, 1, 0);
	tp_udp(&t, 1, 2, true);
	tp_finish(&t);
	assert_int_equal(mlx5dm_sim_parse(t.pkt.data, t.pkt.len, &p), 0);
	check_fv(MLX5DM_SIM_LU_FLEX_PARSER_0, &p, &m, gre_flex0);
	check_fv(MLX5DM_SIM_LU_FLEX_PARSER_1, &p, &m, none);

	/* MPLS over UDP/6635. */
	start4(&t, 1, 2, 17, 64);
	tp_udp(&t, 5000, 6635, true);
	tp_u32(&t, (0xfedcbu << 12) | (2u << 9) | (1u << 8) | 0x11);
	tp_ipv4(&t, 3, 4, 6, 1, 0);
	tp_tcp(&t, 1, 2, 3, 4, 0x10);
	tp_finish(&t);
	assert_int_equal(mlx5dm_sim_parse(t.pkt.data, t.pkt.len, &p), 0);
	check_fv(MLX5DM_SIM_LU_FLEX_PARSER_1, &p, &m, udp_flex1);
	check_fv(MLX5DM_SIM_LU_FLEX_PARSER_0, &p, &m, none);
	/* The same bytes to another port: no parser sees them. */
	t.pkt.data[37] ^= 1;
	assert_int_equal(mlx5dm_sim_parse(t.pkt.data, t.pkt.len, &p), 0);
	check_fv(MLX5DM_SIM_LU_FLEX_PARSER_1, &p, &m, none);

	/* GRE carrying IPv4, and GRE carrying multicast MPLS (0x8848): nothing. */
	start4(&t, 1, 2, 47, 64);
	tp_u32(&t, 0x00000800);
	tp_ipv4(&t, 3, 4, 17, 1, 0);
	tp_udp(&t, 1, 2, true);
	tp_finish(&t);
	assert_int_equal(mlx5dm_sim_parse(t.pkt.data, t.pkt.len, &p), 0);
	check_fv(MLX5DM_SIM_LU_FLEX_PARSER_0, &p, &m, none);
	start4(&t, 1, 2, 47, 64);
	tp_u32(&t, 0x00008848);
	tp_u32(&t, (0x12345u << 12) | (1u << 8) | 0x40);
	tp_ipv4(&t, 3, 4, 17, 1, 0);
	tp_udp(&t, 1, 2, true);
	tp_finish(&t);
	assert_int_equal(mlx5dm_sim_parse(t.pkt.data, t.pkt.len, &p), 0);
	assert_int_equal(p.i.nb_mpls, 1);
	check_fv(MLX5DM_SIM_LU_FLEX_PARSER_0, &p, &m, none);

	/* UDP/6635 with 3 payload bytes: no label, every parser reads 0. */
	start4(&t, 1, 2, 17, 64);
	tp_udp(&t, 5000, 6635, true);
	tp_bytes(&t, (const uint8_t[3]){ 0xff, 0xff, 0xff }, 3);
	tp_finish(&t);
	assert_int_equal(mlx5dm_sim_parse(t.pkt.data, t.pkt.len, &p), 0);
	check_fv(MLX5DM_SIM_LU_FLEX_PARSER_0, &p, &m, none);
	check_fv(MLX5DM_SIM_LU_FLEX_PARSER_1, &p, &m, none);
}

static void
test_fv_icmp_frag(void **state)
{
	const struct fv_bits icmp[] = {
		{ 0x000, 32, 0xdeadbeef /* first payload dword */ },
		{ 0x020, 32, 0x12340001 /* id, sequence */ },
		{ 0x040, 8, 8 /* echo request */ }, { 0x048, 8, 0 }, FV_END,
	};
	/* A fragment: the IP protocol, but no ports and no L4 header (l4_ok 0). */
	const struct fv_bits frag_tuple[] = {
		{ 0x000, 32, 1 }, { 0x020, 32, 2 }, { 0x065, 1, 1 }, { 0x066, 1, 1 },
		{ 0x078, 8, 17 }, FV_END,
	};
	const struct fv_bits frag_l4[] = {
		{ 0x000, 4, 4 }, { 0x010, 8, 64 }, { 0x018, 8, 17 }, { 0x040, 1, 1 },
		{ 0x065, 1, 1 }, { 0x066, 1, 1 }, FV_END,
	};
	/* ETHL2: fragmented, IPv4, no L4 type, no tag. */
	const struct fv_bits frag_l2[] = {
		{ 0x003, 1, 1 }, { 0x00a, 2, 1 }, { 0x020, 32, 0 }, { 0x040, 16, 1 },
		{ 0x050, 16, 0x0800 }, { 0x06b, 1, 1 }, { 0x06c, 1, 1 }, FV_END,
	};
	struct mlx5dm_sim_meta m = { 0 };
	struct mlx5dm_sim_parse p;
	struct tpkt t;

	(void)state;
	start4(&t, 1, 2, 1, 64);
	tp_u32(&t, 0x0800f7ff);
	tp_u32(&t, 0x12340001);
	tp_u32(&t, 0xdeadbeef);
	tp_finish(&t);
	assert_int_equal(mlx5dm_sim_parse(t.pkt.data, t.pkt.len, &p), 0);
	check_fv(MLX5DM_SIM_LU_ETHL4_MISC_O, &p, &m, icmp);

	/*
	 * First fragment: fragmented and first_fragment set; the UDP header
	 * behind it is not parsed (ports, L4 type and l4_ok read as absent).
	 */
	start4(&t, 1, 2, 17, 64);
	t.mem[TP_HEAD + 20] = 0x20;
	t.mem[TP_HEAD + 21] = 0;
	tp_udp(&t, 7, 9, false);
	tp_finish(&t);
	assert_int_equal(mlx5dm_sim_parse(t.pkt.data, t.pkt.len, &p), 0);
	check_fv(MLX5DM_SIM_LU_IPV4_5_TUPLE_O, &p, &m, frag_tuple);
	check_fv(MLX5DM_SIM_LU_ETHL4_O, &p, &m, frag_l4);
	check_fv(MLX5DM_SIM_LU_ETHL2_O, &p, &m, frag_l2);
}

/* An S-tag then a C-tag: first qualifier 1 (S), second 2 (C), each tag's PCP/DEI/VID. */
static void
test_fv_qinq(void **state)
{
	const struct fv_bits l2[] = {
		{ 0x00a, 2, 1 }, { 0x00c, 2, 2 }, { 0x00e, 2, 1 }, { 0x010, 3, 5 },
		{ 0x013, 1, 1 }, { 0x014, 12, 0x064 }, { 0x020, 32, 0 }, { 0x040, 16, 1 },
		{ 0x050, 16, 0x0800 }, { 0x06b, 1, 1 }, { 0x06c, 1, 1 }, { 0x06d, 1, 1 },
		{ 0x06e, 2, 2 }, { 0x070, 3, 0 }, { 0x073, 1, 0 }, { 0x074, 12, 0x123 }, FV_END,
	};
	const struct fv_bits l2_s[] = {
		{ 0x00a, 2, 1 }, { 0x00c, 2, 2 }, { 0x00e, 2, 1 }, { 0x014, 12, 7 },
		{ 0x020, 32, 0 }, { 0x040, 16, 1 }, { 0x050, 16, 0x0800 }, { 0x06b, 1, 1 },
		{ 0x06c, 1, 1 }, { 0x06d, 1, 1 }, FV_END,
	};
	struct mlx5dm_sim_meta m = { 0 };
	struct mlx5dm_sim_parse p;
	struct tpkt t;

	(void)state;
	tp_init(&t);
	tp_eth(&t, 1, 2, 0x88a8);
	tp_vlan(&t, 0xb064, 0x8100);
	tp_vlan(&t, 0x0123, 0x0800);
	tp_ipv4(&t, 1, 2, 17, 64, 0);
	tp_udp(&t, 7, 9, false);
	tp_finish(&t);
	assert_int_equal(mlx5dm_sim_parse(t.pkt.data, t.pkt.len, &p), 0);
	check_fv(MLX5DM_SIM_LU_ETHL2_O, &p, &m, l2);
	/* An S-tag alone. */
	tp_init(&t);
	tp_eth(&t, 1, 2, 0x88a8);
	tp_vlan(&t, 7, 0x0800);
	tp_ipv4(&t, 1, 2, 17, 64, 0);
	tp_udp(&t, 7, 9, false);
	tp_finish(&t);
	assert_int_equal(mlx5dm_sim_parse(t.pkt.data, t.pkt.len, &p), 0);
	check_fv(MLX5DM_SIM_LU_ETHL2_O, &p, &m, l2_s);
}

static void
test_fv_registers(void **state)
{
	const struct fv_bits r0[] = {
		{ 0x000, 32, 0x100 }, { 0x020, 32, 0x101 }, { 0x040, 32, 0x102 },
		{ 0x060, 32, 0x103 }, FV_END,
	};
	const struct fv_bits r1[] = {
		{ 0x000, 32, 0x104 }, { 0x020, 32, 0x105 }, { 0x040, 32, 0x106 },
		{ 0x060, 32, 0x107 }, FV_END,
	};
	const struct fv_bits gp[] = { { 0x000, 32, 0xdeadbeef }, FV_END };
	/* ste_src_gvmi_qp_v1: source_gvmi at 0x010, source_qp at 0x028. */
	const struct fv_bits src[] = { { 0x010, 16, 0x1234 }, { 0x028, 24, 0xabcdef }, FV_END };
	struct mlx5dm_sim_meta m = { .reg_a = 0xdeadbeef, .reg_b = 0x55, .source_gvmi = 0x1234,
				     .source_qp = 0xabcdef };
	struct mlx5dm_sim_parse p;
	uint8_t v[16];
	struct tpkt t;
	unsigned int i;

	(void)state;
	for (i = 0; i < 8; i++)
		m.reg_c[i] = 0x100 + i;
	build_tcp4(&t);
	assert_int_equal(mlx5dm_sim_parse(t.pkt.data, t.pkt.len, &p), 0);
	check_fv(MLX5DM_SIM_LU_STEERING_REGS_0, &p, &m, r0);
	check_fv(MLX5DM_SIM_LU_STEERING_REGS_1, &p, &m, r1);
	check_fv(MLX5DM_SIM_LU_GENERAL_PURPOSE, &p, &m, gp);
	check_fv(MLX5DM_SIM_LU_SRC_QP_GVMI, &p, &m, src);
	/* Not modelled: flex-parser tunnel header, definers. */
	assert_int_equal(mlx5dm_sim_fv_build(0x000e, &p, &m, v), -ENOTSUP);
	assert_int_equal(mlx5dm_sim_fv_build(0x0400, &p, &m, v), -ENOTSUP);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fv_l2),
		cmocka_unit_test(test_fv_ipv4),
		cmocka_unit_test(test_fv_ipv6),
		cmocka_unit_test(test_fv_vxlan_inner),
		cmocka_unit_test(test_fv_gre_mpls),
		cmocka_unit_test(test_fv_flex_parsers),
		cmocka_unit_test(test_fv_icmp_frag),
		cmocka_unit_test(test_fv_qinq),
		cmocka_unit_test(test_fv_registers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
