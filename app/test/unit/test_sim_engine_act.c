/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Actions executed by hit STEs, checked on the delivered bytes: inline
 * SET/ADD/COPY on headers and metadata registers (with checksums verified
 * independently), modify lists in HEADER_MODIFY ICM, pattern + argument
 * lists, VLAN push/pop, encapsulation from ENCAP ICM, L2 and L3 decap,
 * reparse semantics, head/tailroom limits and action errors.
 */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "mlx5dm_dev.h"
#include "sim_test_env.h"

#define LU_ETHL2_O 0x0003
#define LU_DONT_CARE 0x000f
#define LU_REGS_0 0x010f
#define LU_GENERAL_PURPOSE 0x010e

#define MAC_A 0x001122334455ull
#define MAC_B 0x66778899aabbull
#define IP_S 0x0a000001u
#define IP_D 0x0a000002u

/* v1 modify-header dword codes (rdma-core dr_ste_v1.c). */
#define DW_DMAC_HI 0x00
#define DW_DMAC_LO 0x01
#define DW_VLAN 0x02
#define DW_SMAC_HI 0x08
#define DW_SMAC_LO 0x09
#define DW_L3_0 0x0e
#define DW_L4_0 0x18
#define DW_L4_1 0x19
#define DW_SIP4 0x40
#define DW_DIP4 0x41
#define DW_DIP6_3 0x47
#define DW_TCP_SEQ 0x5e
#define DW_TCP_ACK 0x5f
#define DW_REG_A 0x7c
#define DW_REG_C0 0x90
#define DW_REG_C1 0x91

/* Anchor -> one BWC STE per 8-byte action -> TIR 1 (reparse on each). */
static void
chain(struct env *e, const uint8_t (*acts)[8], unsigned int n, bool reparse)
{
	unsigned int i;

	fake_root_set(e->sim, MLX5DM_SIM_DIR_RX, STE(0));
	t_ste_put_hit(e->sim, STE(0), GVMI(STE(0x40)), 1, LU_DONT_CARE, 0);
	for (i = 0; i < n; i++) {
		struct t_ste s;

		t_ste_init(&s, LU_DONT_CARE);
		memcpy(s.act, acts[i], 8);
		s.reparse = reparse;
		s.hit = GVMI(i + 1 < n ? STE(0x40 * (i + 2)) : TIR_ADDR(1));
		s.hit_size = 1;
		t_ste_put(e->sim, STE(0x40 * (i + 1)), &s);
	}
}

static struct mlx5dm_sim_pkt *
udp4(struct tpkt *t, bool udp_csum)
{
	tp_init(t);
	tp_eth(t, MAC_A, MAC_B, 0x0800);
	tp_ipv4(t, IP_S, IP_D, 17, 64, 0xb9);
	tp_udp(t, 1111, 2222, udp_csum);
	tp_payload(t, 21);
	return tp_finish(t);
}

static struct mlx5dm_sim_pkt *
tcp4(struct tpkt *t)
{
	tp_init(t);
	tp_eth(t, MAC_A, MAC_B, 0x0800);
	tp_ipv4(t, IP_S, IP_D, 6, 64, 0);
	tp_tcp(t, 1111, 80, 0x10000000, 0x20000000, 0x010);
	tp_payload(t, 9);
	return tp_finish(t);
}

/* The frame as built, before the engine edits the buffer in place. */
static uint8_t orig[TP_MAX];

static const struct fake_rx *
deliver(struct env *e, struct mlx5dm_sim_pkt *pkt)
{
	memcpy(orig, pkt->data, pkt->len);
	assert_int_equal(env_send(e, pkt), MLX5DM_SIM_PKT_DELIVERED);
	return env_last_rx(e, 1);
}

static uint32_t
rd32(const uint8_t *b)
{
	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

static void
test_set_macs(void **state)
{
	struct env *e = *state;
	uint8_t a[4][8] = { { 0 } };
	const struct fake_rx *rx;
	uint8_t want[12] = { 0xde, 0xad, 0xbe, 0xef, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05,
			     0x06, 0x07 };
	struct tpkt t;

	t_act_set(a[0], DW_DMAC_HI, 0, 32, 0xdeadbeef);
	t_act_set(a[1], DW_DMAC_LO, 16, 16, 0x0001);
	t_act_set(a[2], DW_SMAC_HI, 0, 32, 0x02030405);
	t_act_set(a[3], DW_SMAC_LO, 16, 16, 0x0607);
	chain(e, a, 4, true);
	rx = deliver(e, udp4(&t, true));
	assert_memory_equal(rx->data, want, 12);
	assert_memory_equal(rx->data + 12, orig + 12, t.len - 12);
}

/* Rewrites of IPv4 addresses/TTL/DSCP and UDP ports keep both checksums valid. */
static void
test_ipv4_udp_rewrite(void **state)
{
	struct env *e = *state;
	uint8_t a[5][8] = { { 0 } };
	const struct fake_rx *rx;
	const uint8_t *ip, *udp;
	struct tpkt t;

	t_act_set(a[0], DW_SIP4, 0, 32, 0xc0a80101);
	t_act_set(a[1], DW_DIP4, 8, 8, 0x77);            /* one byte of the address */
	t_act_add(a[2], DW_L3_0, 8, 8, 0xff);            /* TTL - 1 */
	t_act_set(a[3], DW_L3_0, 18, 6, 10);             /* DSCP 10, ECN kept */
	t_act_set(a[4], DW_L4_0, 0, 16, 4789);           /* UDP dport */
	chain(e, a, 5, true);
	rx = deliver(e, udp4(&t, true));
	ip = rx->data + 14;
	udp = ip + 20;
	assert_int_equal(rd32(ip + 12), 0xc0a80101);
	assert_int_equal(rd32(ip + 16), 0x0a007702);
	assert_int_equal(ip[8], 63);
	assert_int_equal(ip[1], (10 << 2) | 1);
	assert_int_equal(udp[2] << 8 | udp[3], 4789);
	assert_int_equal(udp[0] << 8 | udp[1], 1111);
	assert_true(t_ipv4_csum_ok(ip));
	assert_true(t_l4_csum_ok(ip, udp, rx->pkt.len - 34, 17));
	/* A zero UDP checksum (none) stays zero. */
	rx = deliver(e, udp4(&t, false));
	assert_int_equal(rx->data[34 + 6], 0);
	assert_int_equal(rx->data[34 + 7], 0);
	assert_int_equal(rd32(rx->data + 14 + 12), 0xc0a80101);
	assert_true(t_ipv4_csum_ok(rx->data + 14));
}

static void
test_tcp_rewrite(void **state)
{
	struct env *e = *state;
	uint8_t a[5][8] = { { 0 } };
	const struct fake_rx *rx;
	const uint8_t *ip, *tcp;
	struct tpkt t;

	t_act_set(a[0], DW_L4_1, 16, 9, 0x0c2);          /* flags: CWR|ECE|SYN */
	t_act_add(a[1], DW_TCP_SEQ, 0, 32, 0xf0000001);  /* wraps */
	t_act_set(a[2], DW_TCP_ACK, 0, 32, 0x12345678);
	t_act_set(a[3], DW_L4_0, 16, 16, 5555);          /* sport */
	t_act_set(a[4], DW_DIP4, 0, 32, 0x01020304);
	chain(e, a, 5, false);
	rx = deliver(e, tcp4(&t));
	ip = rx->data + 14;
	tcp = ip + 20;
	assert_int_equal(tcp[0] << 8 | tcp[1], 5555);
	assert_int_equal(rd32(tcp + 4), 0x00000001);
	assert_int_equal(rd32(tcp + 8), 0x12345678);
	assert_int_equal(tcp[13], 0xc2);
	assert_int_equal(tcp[12], 0x50);
	assert_int_equal(rd32(ip + 16), 0x01020304);
	assert_true(t_ipv4_csum_ok(ip));
	assert_true(t_l4_csum_ok(ip, tcp, rx->pkt.len - 34, 6));
}

static void
test_ipv6_rewrite(void **state)
{
	static const uint8_t s6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 };
	static const uint8_t d6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 2 };
	struct env *e = *state;
	uint8_t a[3][8] = { { 0 } };
	const struct fake_rx *rx;
	const uint8_t *ip;
	struct tpkt t;

	t_act_set(a[0], DW_DIP6_3, 0, 32, 0xcafef00d);
	t_act_add(a[1], DW_L3_0, 8, 8, 0xfe);            /* hop limit - 2 */
	t_act_set(a[2], DW_L3_0, 16, 8, 0xb8);           /* traffic class */
	chain(e, a, 3, true);
	tp_init(&t);
	tp_eth(&t, MAC_A, MAC_B, 0x86dd);
	tp_ipv6(&t, s6, d6, 6, 30);
	tp_tcp(&t, 1, 2, 3, 4, 0x02);
	tp_payload(&t, 5);
	rx = deliver(e, tp_finish(&t));
	ip = rx->data + 14;
	assert_int_equal(rd32(ip + 36), 0xcafef00d);
	assert_int_equal(ip[7], 28);
	assert_int_equal(rd32(ip), 0x6b812345); /* TC 0xb8, flow label kept */
	assert_true(t_l4_csum_ok(ip, ip + 40, rx->pkt.len - 54, 6));
}

/* Registers set by actions are matched by later lookups; COPY between fields. */
static void
test_registers(void **state)
{
	struct env *e = *state;
	uint8_t mask[16] = { 0 }, tag[16] = { 0 };
	const struct fake_rx *rx;
	struct t_ste s;
	struct tpkt t;

	fake_root_set(e->sim, MLX5DM_SIM_DIR_RX, STE(0));
	/* reg_c0 := 0x1234; reg_c1 := dst IP bits 0..15 (COPY); reg_a := 0xa5a5 */
	t_ste_init(&s, LU_DONT_CARE);
	t_act_set(s.act, DW_REG_C0, 0, 32, 0x1234);
	s.hit = GVMI(STE(0x40));
	s.hit_size = 1;
	t_ste_put(e->sim, STE(0), &s);
	t_ste_init(&s, LU_DONT_CARE);
	t_act_copy(s.act, DW_REG_C1, 0, 16, DW_DIP4, 0);
	s.hit = GVMI(STE(0x80));
	s.hit_size = 1;
	t_ste_put(e->sim, STE(0x40), &s);
	t_ste_init(&s, LU_DONT_CARE);
	t_act_set(s.act, DW_REG_A, 0, 32, 0xa5a5);
	s.hit = GVMI(STE(0xc0));
	s.hit_size = 1;
	t_ste_put(e->sim, STE(0x80), &s);
	/* STEERING_REGISTERS_0: reg_c0 at 0x000, reg_c1 at 0x020 (ste_register_0). */
	mlx5dm_prm_set(mask, 0x000, 32, 0xffffffff);
	mlx5dm_prm_set(mask, 0x020, 32, 0xffffffff);
	mlx5dm_prm_set(tag, 0x000, 32, 0x1234);
	mlx5dm_prm_set(tag, 0x020, 32, IP_D & 0xffff);
	env_rule(e, STE(0xc0), LU_REGS_0, mask, tag, GVMI(FAKE_RX_DROP), GVMI(STE(0x100)), 1,
		 LU_GENERAL_PURPOSE, 0);
	/* GENERAL_PURPOSE: reg_a at 0x000; then copy reg_c0 into the UDP source port. */
	memset(mask, 0, 16);
	memset(tag, 0, 16);
	mlx5dm_prm_set(mask, 0x000, 32, 0xffffffff);
	mlx5dm_prm_set(tag, 0x000, 32, 0xa5a5);
	t_ste_init(&s, LU_GENERAL_PURPOSE);
	memcpy(s.mask, mask, 16);
	memcpy(s.tag, tag, 16);
	t_act_copy(s.act, DW_L4_0, 16, 16, DW_REG_C0, 0);
	s.miss = GVMI(FAKE_RX_DROP);
	s.hit = GVMI(TIR_ADDR(1));
	s.hit_size = 1;
	t_ste_put(e->sim, STE(0x100), &s);
	rx = deliver(e, udp4(&t, true));
	assert_int_equal(rx->data[34] << 8 | rx->data[35], 0x1234);
	assert_true(t_l4_csum_ok(rx->data + 14, rx->data + 34, rx->pkt.len - 34, 17));
	/* Registers start at zero for every packet: a different dst IP misses. */
	tp_finish(&t);
	t.mem[TP_HEAD + 33] = 9;
	tp_finish(&t);
	assert_int_equal(env_send(e, &t.pkt), MLX5DM_SIM_PKT_DROPPED);
}

static void
test_modify_list(void **state)
{
	struct env *e = *state;
	uint8_t list[3][8] = { { 0 } }, a[1][8] = { { 0 } };
	const struct fake_rx *rx;
	struct tpkt t;

	t_act_set(list[0], DW_SMAC_HI, 0, 32, 0x0a0b0c0d);
	t_act_set(list[1], DW_SMAC_LO, 16, 16, 0x0e0f);
	t_act_add(list[2], DW_L3_0, 8, 8, 0xff);
	fake_icm_write(e->sim, FAKE_MODIFY_BASE + 64 * 5, list, sizeof(list));
	t_act_modify_list(a[0], 3, 5);
	chain(e, a, 1, true);
	rx = deliver(e, udp4(&t, true));
	assert_int_equal(rd32(rx->data + 6), 0x0a0b0c0d);
	assert_int_equal(rx->data[10] << 8 | rx->data[11], 0x0e0f);
	assert_int_equal(rx->data[14 + 8], 63);
	assert_true(t_ipv4_csum_ok(rx->data + 14));
	/* A list pointing outside HEADER_MODIFY ICM is a walk error. */
	t_act_modify_list(a[0], 3, 0xffff);
	chain(e, a, 1, true);
	assert_int_equal(env_send(e, udp4(&t, true)), MLX5DM_SIM_PKT_DROPPED);
	assert_int_equal(env_stats(e).drops.walk_error, 1);
}

/* Pattern (data zeroed) OR argument (complete actions) = the executed list. */
static void
test_accelerated_list(void **state)
{
	struct env *e = *state;
	uint8_t pat[2][8] = { { 0 } }, arg[2][8] = { { 0 } }, a[1][8] = { { 0 } };
	const struct fake_rx *rx;
	uint8_t *argmem;
	struct tpkt t;

	t_act_set(pat[0], DW_DMAC_HI, 0, 32, 0);
	t_act_set(pat[1], DW_DMAC_LO, 16, 16, 0);
	t_act_set(arg[0], DW_DMAC_HI, 0, 32, 0x11223344);
	t_act_set(arg[1], DW_DMAC_LO, 16, 16, 0x5566);
	fake_icm_write(e->sim, FAKE_PATTERN_BASE + 64 * 2, pat, sizeof(pat));
	argmem = fake_arg_add(e->sim, 0x40, 4);
	memcpy(argmem + 64, arg, sizeof(arg)); /* argument id 0x41 */
	t_act_accel_list(a[0], 2, 2, 0x41);
	chain(e, a, 1, true);
	rx = deliver(e, udp4(&t, true));
	assert_int_equal(rd32(rx->data), 0x11223344);
	assert_int_equal(rx->data[4] << 8 | rx->data[5], 0x5566);
	/* An argument that was never allocated. */
	t_act_accel_list(a[0], 2, 2, 0x99);
	chain(e, a, 1, true);
	assert_int_equal(env_send(e, udp4(&t, true)), MLX5DM_SIM_PKT_DROPPED);
	assert_int_equal(env_stats(e).drops.walk_error, 1);
}

/* Push a VLAN (insert inline after the MACs), match it after reparse, pop it. */
static void
test_vlan_push_match_pop(void **state)
{
	struct env *e = *state;
	uint8_t mask[16] = { 0 }, tag[16] = { 0 };
	const struct fake_rx *rx;
	struct t_ste s;
	struct tpkt t;
	unsigned int round;

	for (round = 0; round < 2; round++) {
		bool reparse = round == 0;

		fake_root_set(e->sim, MLX5DM_SIM_DIR_RX, STE(0));
		t_ste_init(&s, LU_DONT_CARE);
		t_act_insert_inline(s.act, 0x00, 6, 0x81002064);
		s.reparse = reparse;
		s.hit = GVMI(STE(0x40));
		s.hit_size = 1;
		t_ste_put(e->sim, STE(0), &s);
		/* ETHL2 v1: first_vlan_qualifier 0x00e (2 = C-VLAN), first_vlan_id 0x014 */
		mlx5dm_prm_set(mask, 0x00e, 2, 3);
		mlx5dm_prm_set(mask, 0x014, 12, 0xfff);
		mlx5dm_prm_set(tag, 0x00e, 2, 2);
		mlx5dm_prm_set(tag, 0x014, 12, 0x064);
		env_rule(e, STE(0x40), LU_ETHL2_O, mask, tag, GVMI(FAKE_RX_DROP),
			 GVMI(TIR_ADDR(1)), 1, LU_DONT_CARE, 0);
		udp4(&t, true);
		if (!reparse) {
			/* Without reparse the lookup still sees the untagged frame. */
			assert_int_equal(env_send(e, &t.pkt), MLX5DM_SIM_PKT_DROPPED);
			assert_int_equal(env_stats(e).drops.default_miss, 1);
			continue;
		}
		rx = deliver(e, &t.pkt);
		assert_int_equal(rx->pkt.len, t.len + 4);
		assert_memory_equal(rx->data, orig, 12);
		assert_int_equal(rd32(rx->data + 12), 0x81002064);
		assert_memory_equal(rx->data + 16, orig + 12, t.len - 12);
		assert_int_equal(rx->pkt.ptype & 0xf, MLX5DM_SIM_PTYPE_L2_ETHER_VLAN);
		assert_int_equal(rx->pkt.headroom, TP_HEAD - 4);
	}
}

static void
test_vlan_pop(void **state)
{
	struct env *e = *state;
	uint8_t a[1][8] = { { 0 } };
	const struct fake_rx *rx;
	struct tpkt t;

	t_act_remove_size(a[0], 0x02, 0, 4); /* both tags of a QinQ frame */
	chain(e, a, 1, true);
	tp_init(&t);
	tp_eth(&t, MAC_A, MAC_B, 0x88a8);
	tp_vlan(&t, 0x0001, 0x8100);
	tp_vlan(&t, 0x0002, 0x0800);
	tp_ipv4(&t, IP_S, IP_D, 17, 64, 0);
	tp_udp(&t, 1, 2, true);
	tp_finish(&t);
	rx = deliver(e, &t.pkt);
	assert_int_equal(rx->pkt.len, t.len - 8);
	assert_memory_equal(rx->data, orig, 12);
	assert_memory_equal(rx->data + 12, orig + 20, t.len - 20);
	assert_int_equal(rx->pkt.ptype & 0xf, MLX5DM_SIM_PTYPE_L2_ETHER);
	/* No VLAN to pop: the anchor is absent and the frame is left as it is. */
	rx = deliver(e, udp4(&t, true));
	assert_int_equal(rx->pkt.len, t.len);
	assert_memory_equal(rx->data, orig, t.len);
}

/* The 50-byte VXLAN encap header with zero lengths/checksum, as software writes it. */
static void
encap_hdr(uint8_t h[50])
{
	struct tpkt o;

	tp_init(&o);
	tp_eth(&o, 0xa0a1a2a3a4a5ull, 0xb0b1b2b3b4b5ull, 0x0800);
	tp_ipv4(&o, 0xac100001, 0xac100002, 17, 255, 0);
	tp_udp(&o, 50000, 4789, false);
	tp_u32(&o, 0x08000000);
	tp_u32(&o, 0x00abcd00);
	memcpy(h, o.mem + TP_HEAD, 50);
	h[16] = h[17] = 0; /* total length */
	h[24] = h[25] = 0; /* header checksum */
}

/* TX: one STE inserting size_words of encap data from ptr; RX: everything to TIR 1. */
static void
encap_rules(struct env *e, unsigned int size_words, uint32_t ptr)
{
	struct t_ste s;

	fake_root_set(e->sim, MLX5DM_SIM_DIR_TX, STE(0x400));
	t_ste_init(&s, LU_DONT_CARE);
	t_act_insert_ptr(s.act, 0x00, 0, size_words, 1, ptr);
	s.reparse = true;
	s.hit = FAKE_TX_ALLOW;
	s.hit_size = 1;
	t_ste_put(e->sim, STE(0x400), &s);
	fake_root_set(e->sim, MLX5DM_SIM_DIR_RX, STE(0));
	t_ste_put_hit(e->sim, STE(0), GVMI(TIR_ADDR(1)), 1, LU_DONT_CARE, 0);
}

/* A TCP frame sent through encap_rules() arrives behind hdr with its lengths filled in. */
static void
encap_check(struct env *e, const uint8_t hdr[50])
{
	const struct fake_rx *rx;
	struct tpkt t;

	rx = deliver(e, tcp4(&t));
	assert_int_equal(rx->pkt.len, t.len + 50);
	assert_memory_equal(rx->data, hdr, 16);
	assert_int_equal(rx->data[16] << 8 | rx->data[17], t.len + 36); /* IPv4 total length */
	assert_true(t_ipv4_csum_ok(rx->data + 14));
	assert_int_equal(rx->data[38] << 8 | rx->data[39], t.len + 16); /* UDP length */
	assert_memory_equal(rx->data + 42, hdr + 42, 8);
	assert_memory_equal(rx->data + 50, orig, t.len);
	assert_int_equal(rx->pkt.ptype & 0xf000, MLX5DM_SIM_PTYPE_TUNNEL_VXLAN);
	assert_int_equal(rx->pkt.ptype & 0x0f000000, MLX5DM_SIM_PTYPE_INNER_L4_TCP);
}

/* TX encap from ENCAP ICM (INSERT_POINTER), RX L2 decap (remove to the inner MAC). */
static void
test_encap_decap(void **state)
{
	struct env *e = *state;
	const struct fake_rx *rx;
	uint8_t hdr[50];
	struct t_ste s;
	struct tpkt t;

	encap_hdr(hdr);
	fake_icm_write(e->sim, FAKE_ENCAP_BASE + 64 * 3, hdr, sizeof(hdr));
	encap_rules(e, 25, 3);
	encap_check(e, hdr);

	/* RX decap of what TX encapsulated gives back the original frame. */
	t_ste_init(&s, LU_DONT_CARE);
	t_act_remove_hdr(s.act, 0x00, 0x13, true);
	s.reparse = true;
	s.hit = GVMI(TIR_ADDR(2));
	s.hit_size = 1;
	t_ste_put(e->sim, STE(0), &s);
	tcp4(&t);
	memcpy(orig, t.pkt.data, t.len);
	assert_int_equal(env_send(e, &t.pkt), MLX5DM_SIM_PKT_DELIVERED);
	rx = env_last_rx(e, 2);
	assert_int_equal(rx->pkt.len, t.len);
	assert_memory_equal(rx->data, orig, t.len);
	assert_int_equal(rx->pkt.ptype, MLX5DM_SIM_PTYPE_L2_ETHER | MLX5DM_SIM_PTYPE_L3_IPV4 |
			 MLX5DM_SIM_PTYPE_L4_TCP);
}

/*
 * A device without ENCAP SW ICM: INSERT_POINTER names a packet reformat
 * context, whose bytes are inserted; ENCAP ICM at the same index is not read.
 */
static void
test_encap_reformat_context(void **state)
{
	struct env *e = *state;
	uint8_t hdr[50], other[64];
	struct tpkt t;

	fake_caps(e->sim)->indirect_encap_sw_icm = false;
	encap_hdr(hdr);
	fake_reformat_add(e->sim, 0x100, hdr, sizeof(hdr));
	memset(other, 0xee, sizeof(other));
	fake_icm_write(e->sim, FAKE_ENCAP_BASE + 64 * 0x100, other, sizeof(other));
	encap_rules(e, 25, 0x100);
	encap_check(e, hdr);

	/* More words than the context holds, or no such context: walk error. */
	encap_rules(e, 26, 0x100);
	assert_int_not_equal(env_send(e, tcp4(&t)), MLX5DM_SIM_PKT_DELIVERED);
	encap_rules(e, 25, 0x101);
	assert_int_not_equal(env_send(e, tcp4(&t)), MLX5DM_SIM_PKT_DELIVERED);
	assert_int_equal(env_stats(e).drops.walk_error, 2);
}

/*
 * L3 decap as a 6-action list (rdma-core dr_ste_v1.c): remove up to the inner
 * L3, insert the 14-byte L2 left-padded to 16 bytes last dword first, then
 * remove the 2 pad bytes.
 */
static void
test_l3_decap(void **state)
{
	static const uint8_t l2[16] = { 0, 0, 0xc0, 0xc1, 0xc2, 0xc3, 0xc4, 0xc5, 0xd0, 0xd1,
					0xd2, 0xd3, 0xd4, 0xd5, 0x08, 0x00 };
	struct env *e = *state;
	uint8_t list[6][8] = { { 0 } }, a[1][8] = { { 0 } };
	const struct fake_rx *rx;
	unsigned int i, inner;
	struct tpkt t;

	t_act_remove_hdr(list[0], 0x00, 0x19, true);
	for (i = 0; i < 4; i++)
		t_act_insert_inline(list[1 + i], 0x00, 0, rd32(l2 + 12 - 4 * i));
	t_act_remove_size(list[5], 0x00, 0, 1);
	fake_icm_write(e->sim, FAKE_MODIFY_BASE + 64 * 9, list, sizeof(list));
	t_act_modify_list(a[0], 6, 9);
	chain(e, a, 1, true);
	tp_init(&t);
	tp_eth(&t, MAC_A, MAC_B, 0x0800);
	tp_ipv4(&t, IP_S, IP_D, 47, 64, 0);
	tp_u32(&t, 0x00000800);
	inner = t.len;
	tp_ipv4(&t, 0xc0a80001, 0xc0a80002, 17, 9, 0);
	tp_udp(&t, 7, 8, true);
	tp_payload(&t, 3);
	tp_finish(&t);
	rx = deliver(e, &t.pkt);
	assert_int_equal(rx->pkt.len, 14 + t.len - inner);
	assert_memory_equal(rx->data, l2 + 2, 14);
	assert_memory_equal(rx->data + 14, orig + inner, t.len - inner);
	assert_int_equal(rx->pkt.ptype, MLX5DM_SIM_PTYPE_L2_ETHER | MLX5DM_SIM_PTYPE_L3_IPV4 |
			 MLX5DM_SIM_PTYPE_L4_UDP);
}

/* L2 -> L3 tunnel encap in one MATCH-format STE: remove the L2, insert eth/IPv4/GRE. */
static void
test_l3_encap(void **state)
{
	struct env *e = *state;
	const struct fake_rx *rx;
	uint8_t hdr[38];
	struct tpkt o, t;
	struct t_ste s;

	tp_init(&o);
	tp_eth(&o, 0xa0a1a2a3a4a5ull, 0xb0b1b2b3b4b5ull, 0x0800);
	tp_ipv4(&o, 0xac100001, 0xac100002, 47, 255, 0);
	tp_u32(&o, 0x00000800);
	memcpy(hdr, o.mem + TP_HEAD, sizeof(hdr));
	fake_icm_write(e->sim, FAKE_ENCAP_BASE, hdr, sizeof(hdr));
	fake_root_set(e->sim, MLX5DM_SIM_DIR_TX, STE(0x400));
	t_ste_init(&s, 0x020f);
	t_act_remove_hdr(s.act, 0x00, 0x07, false);
	t_act_insert_ptr(s.act + 4, 0x00, 0, 19, 1, 0);
	s.reparse = true;
	s.hit = FAKE_TX_ALLOW;
	s.hit_size = 1;
	t_ste_put(e->sim, STE(0x400), &s);
	fake_root_set(e->sim, MLX5DM_SIM_DIR_RX, STE(0));
	t_ste_put_hit(e->sim, STE(0), GVMI(TIR_ADDR(1)), 1, LU_DONT_CARE, 0);
	rx = deliver(e, udp4(&t, true));
	assert_int_equal(rx->pkt.len, t.len - 14 + 38);
	assert_memory_equal(rx->data, hdr, 16);
	assert_int_equal(rx->data[16] << 8 | rx->data[17], t.len - 14 + 24);
	assert_true(t_ipv4_csum_ok(rx->data + 14));
	assert_memory_equal(rx->data + 38, orig + 14, t.len - 14);
	assert_int_equal(rx->pkt.ptype & 0xf000, MLX5DM_SIM_PTYPE_TUNNEL_GRE);
}

static void
test_no_room(void **state)
{
	struct env *e = *state;
	uint8_t a[1][8] = { { 0 } };
	const struct fake_rx *rx;
	struct tpkt t;

	t_act_insert_inline(a[0], 0x00, 6, 0x81000001);
	chain(e, a, 1, true);
	udp4(&t, true);
	t.pkt.headroom = 0;
	t.pkt.tailroom = 3;
	assert_int_equal(env_send(e, &t.pkt), MLX5DM_SIM_PKT_DROPPED);
	assert_int_equal(env_stats(e).drops.no_room, 1);
	/* No headroom but enough tailroom: the bytes after the insert point move. */
	udp4(&t, true);
	t.pkt.headroom = 0;
	t.pkt.tailroom = 4;
	rx = deliver(e, &t.pkt);
	assert_ptr_equal(rx->pkt.data, t.mem + TP_HEAD);
	assert_int_equal(rx->pkt.tailroom, 0);
	assert_int_equal(rd32(rx->data + 12), 0x81000001);
	assert_memory_equal(rx->data + 16, orig + 12, 4);
}

static void
test_action_errors(void **state)
{
	struct env *e = *state;
	uint8_t a[1][8] = { { 0 } };
	const struct fake_rx *rx;
	struct tpkt t;

	/* Shifter below 0x20 (the v1 offset) */
	t_act_set(a[0], DW_DMAC_HI, 0, 8, 1);
	a[0][2] = 0x05; /* destination_left_shifter (DW0[13:8]) = 5 */
	chain(e, a, 1, true);
	env_send(e, udp4(&t, true));
	/* ASO actions need ASO objects: not modelled */
	memset(a, 0, sizeof(a));
	a[0][0] = 0x12;
	chain(e, a, 1, true);
	env_send(e, udp4(&t, true));
	/* An encap pointer outside ENCAP ICM */
	t_act_insert_ptr(a[0], 0x00, 0, 25, 1, 0x100000);
	chain(e, a, 1, true);
	env_send(e, udp4(&t, true));
	assert_int_equal(env_stats(e).drops.walk_error, 3);
	/* Rewriting a header the packet lacks (TCP flags of a UDP frame) is ignored. */
	t_act_set(a[0], DW_L4_1, 16, 9, 0x1ff);
	chain(e, a, 1, true);
	rx = deliver(e, udp4(&t, true));
	assert_memory_equal(rx->data, orig, t.len);
}

/*
 * Format versions: v2 moves the reg_c block of the modify-header map
 * (reg_c0 = 0x94), v3 re-lays the insert/remove actions (mlx5_ifc.h *_v3).
 */
static void
test_format_versions(void **state)
{
	struct env *e = *state;
	uint8_t mask[16] = { 0 }, tag[16] = { 0 };
	const struct fake_rx *rx;
	uint8_t a[1][8] = { { 0 } };
	struct t_ste s;
	struct tpkt t;

	fake_caps(e->sim)->steering_format_version = 2;
	fake_root_set(e->sim, MLX5DM_SIM_DIR_RX, STE(0));
	t_ste_init(&s, LU_DONT_CARE);
	t_act_set(s.act, 0x94, 0, 32, 0x5a5a);
	s.hit = GVMI(STE(0x40));
	s.hit_size = 1;
	t_ste_put(e->sim, STE(0), &s);
	mlx5dm_prm_set(mask, 0x000, 32, 0xffffffff);
	mlx5dm_prm_set(tag, 0x000, 32, 0x5a5a);
	env_rule(e, STE(0x40), LU_REGS_0, mask, tag, GVMI(FAKE_RX_DROP), GVMI(TIR_ADDR(1)), 1,
		 LU_DONT_CARE, 0);
	deliver(e, udp4(&t, true));
	/* On v1 the same code is reg_c4: reg_c0 stays 0 and the match misses. */
	fake_caps(e->sim)->steering_format_version = 1;
	assert_int_equal(env_send(e, udp4(&t, true)), MLX5DM_SIM_PKT_DROPPED);

	/* v3 insert inline: start_anchor DW0[23:17], start_offset DW0[16:9] */
	fake_caps(e->sim)->steering_format_version = 3;
	mlx5dm_prm_set(a[0], 0x000, 8, 0x0a);
	mlx5dm_prm_set(a[0], 0x008, 7, 0x00);
	mlx5dm_prm_set(a[0], 0x00f, 8, 6);
	mlx5dm_prm_set(a[0], 0x020, 32, 0x88a80005);
	chain(e, a, 1, true);
	rx = deliver(e, udp4(&t, true));
	assert_int_equal(rd32(rx->data + 12), 0x88a80005);
	assert_memory_equal(rx->data + 16, orig + 12, t.len - 12);
	/* v3 remove by size: start_anchor DW0[23:17], size DW0[5:0] */
	memset(a, 0, sizeof(a));
	mlx5dm_prm_set(a[0], 0x000, 8, 0x08);
	mlx5dm_prm_set(a[0], 0x008, 7, 0x02);
	mlx5dm_prm_set(a[0], 0x01a, 6, 2);
	chain(e, a, 1, true);
	tp_init(&t);
	tp_eth(&t, MAC_A, MAC_B, 0x8100);
	tp_vlan(&t, 0x0007, 0x0800);
	tp_ipv4(&t, IP_S, IP_D, 17, 64, 0);
	tp_udp(&t, 1, 2, true);
	rx = deliver(e, tp_finish(&t));
	assert_int_equal(rx->pkt.len, t.len - 4);
	assert_memory_equal(rx->data + 12, orig + 16, t.len - 16);
}

#define T(f) cmocka_unit_test_setup_teardown(f, env_setup, env_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_set_macs),
		T(test_ipv4_udp_rewrite),
		T(test_tcp_rewrite),
		T(test_ipv6_rewrite),
		T(test_registers),
		T(test_modify_list),
		T(test_accelerated_list),
		T(test_vlan_push_match_pop),
		T(test_vlan_pop),
		T(test_encap_decap),
		T(test_encap_reformat_context),
		T(test_l3_decap),
		T(test_l3_encap),
		T(test_no_room),
		T(test_action_errors),
		T(test_format_versions),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
