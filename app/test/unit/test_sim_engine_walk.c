/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The STE walk against hand-built ICM images: hash vectors, root anchors,
 * multi-level tables (L2 -> L3 -> L4), collision chains, matcher end
 * anchors and priorities, always-hit/always-miss entries, every terminal,
 * counters, action-only STEs, a chain of 3000 matchers, corrupt tables
 * (loops, unreadable ICM, unmodelled formats), the trace and the STE
 * control fields against their bit offsets. Tags are
 * written at the bit offsets of mlx5_ifc.h ste_*_v1; slots come from the
 * test's bitwise CRC.
 */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "mlx5dm_sim_engine_priv.h"
#include "sim_test_env.h"

#define LU_ETHL2_O 0x0003
#define LU_ETHL2_SRC_O 0x0005
#define LU_5TUPLE_O 0x0007
#define LU_ETHL4_O 0x0009
#define LU_DONT_CARE 0x000f
#define LU_SRC_QP_GVMI 0x0104
#define LU_FLEX_PARSER_0 0x0111
#define LU_FLEX_PARSER_1 0x0112

#define MAC_A 0x001122334455ull
#define MAC_B 0x66778899aabbull

/* ETHL2 (dst) v1: dmac_47_16 at 0x020, dmac_15_0 at 0x040. */
static void
tag_dmac(uint8_t mask[16], uint8_t tag[16], uint64_t mac)
{
	memset(mask, 0, 16);
	memset(tag, 0, 16);
	mlx5dm_prm_set(mask, 0x020, 32, 0xffffffff);
	mlx5dm_prm_set(mask, 0x040, 16, 0xffff);
	mlx5dm_prm_set(tag, 0x020, 32, (uint32_t)(mac >> 16));
	mlx5dm_prm_set(tag, 0x040, 16, (uint32_t)mac & 0xffff);
}

/* ETHL2_SRC v1: smac_47_16 at 0x020, smac_15_0 at 0x040. */
static void
tag_smac(uint8_t mask[16], uint8_t tag[16], uint64_t mac)
{
	tag_dmac(mask, tag, mac); /* same bit positions, other MAC */
}

/* IPV4_5_TUPLE v1: destination_address at 0x020. */
static void
tag_dip(uint8_t mask[16], uint8_t tag[16], uint32_t ip)
{
	memset(mask, 0, 16);
	memset(tag, 0, 16);
	mlx5dm_prm_set(mask, 0x020, 32, 0xffffffff);
	mlx5dm_prm_set(tag, 0x020, 32, ip);
}

/* ETHL4 v1: dst_port at 0x030. */
static void
tag_dport(uint8_t mask[16], uint8_t tag[16], uint16_t port)
{
	memset(mask, 0, 16);
	memset(tag, 0, 16);
	mlx5dm_prm_set(mask, 0x030, 16, 0xffff);
	mlx5dm_prm_set(tag, 0x030, 16, port);
}

/*
 * FLEX_PARSER_0/1 v1 (ste_flex_parser_0: parser 3 in dw0; ste_flex_parser_1:
 * parser 4 in dw3): the MPLS label, bits 31:12 of the parser's dword.
 */
static void
tag_flex_label(uint8_t mask[16], uint8_t tag[16], unsigned int dw, uint32_t label)
{
	memset(mask, 0, 16);
	memset(tag, 0, 16);
	mlx5dm_prm_set(mask, 32 * dw, 20, 0xfffff);
	mlx5dm_prm_set(tag, 32 * dw, 20, label);
}

/* IPv4 / GRE (K bit: 8-byte header) / protocol proto / one label, bottom of stack / IPv4 / UDP. */
static struct mlx5dm_sim_pkt *
mk_gre(struct tpkt *t, uint16_t proto, uint32_t label)
{
	tp_init(t);
	tp_eth(t, MAC_A, MAC_B, 0x0800);
	tp_ipv4(t, 0x0a000001, 0x0a000002, 47, 64, 0);
	tp_u32(t, 0x20000000u | proto);
	tp_u32(t, 0x01020304);
	if (proto == 0x8847)
		tp_u32(t, label << 12 | 1u << 8 | 64);
	tp_ipv4(t, 0xc0a80001, 0xc0a80002, 17, 64, 0);
	tp_udp(t, 1, 2, true);
	tp_payload(t, 8);
	return tp_finish(t);
}

/* IPv4 / UDP to dport / one label, bottom of stack / IPv4 / TCP. */
static struct mlx5dm_sim_pkt *
mk_mpls_udp(struct tpkt *t, uint16_t dport, uint32_t label)
{
	tp_init(t);
	tp_eth(t, MAC_A, MAC_B, 0x0800);
	tp_ipv4(t, 0x0a000001, 0x0a000002, 17, 64, 0);
	tp_udp(t, 49152, dport, true);
	tp_u32(t, label << 12 | 3u << 9 | 1u << 8 | 32);
	tp_ipv4(t, 0xc0a80001, 0xc0a80002, 6, 64, 0);
	tp_tcp(t, 1, 2, 3, 4, 0x10);
	return tp_finish(t);
}

static struct mlx5dm_sim_pkt *
mk_pkt(struct tpkt *t, uint64_t dmac, uint64_t smac, uint32_t dip, uint16_t dport)
{
	tp_init(t);
	tp_eth(t, dmac, smac, 0x0800);
	tp_ipv4(t, 0x0a000001, dip, 17, 64, 0);
	tp_udp(t, 1111, dport, true);
	tp_payload(t, 18);
	return tp_finish(t);
}

static void
test_hash_vectors(void **state)
{
	/* Known hash vectors (rdma-core dr_ste_calc_hash_index()). */
	static const struct {
		uint8_t v[16];
		uint16_t byte_mask;
		uint32_t h;
	} vec[] = {
		{ { 0 }, 0xffff, 0 },
		{ { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 }, 0xffff, 0xdda97522 },
		{ { 0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc,
		    0xdd, 0xee, 0xff }, 0xffff, 0xce3ebc68 },
		{ { 0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc,
		    0xdd, 0xee, 0xff }, 0xfc00, 0xda84ac51 },
	};
	uint8_t b32[32];
	unsigned int i;

	(void)state;
	for (i = 0; i < MLX5DM_ARRAY_SIZE(vec); i++) {
		assert_int_equal(mlx5dm_sim_hash(vec[i].v, vec[i].byte_mask), vec[i].h);
		assert_int_equal(mlx5dm_sim_hash(vec[i].v, vec[i].byte_mask) % 16,
				 t_slot(vec[i].v, vec[i].byte_mask, 16));
	}
	assert_int_equal(mlx5dm_sim_hash(vec[1].v, 0xffff) % 1024, 290);
	assert_int_equal(mlx5dm_sim_hash(vec[2].v, 0xffff) % 1024, 104);
	for (i = 0; i < 32; i++)
		b32[i] = (uint8_t)i;
	assert_int_equal(__builtin_bswap32(mlx5dm_sim_crc32(b32, 32)), 0x272b2c88);
	assert_int_equal(t_crc_bswap(b32, 32), 0x272b2c88);
}

static void
test_no_root(void **state)
{
	struct env *e = *state;
	struct mlx5dm_dev_port_stats st;
	struct tpkt t;

	/* No TX root: straight to the wire; no RX root: default miss. */
	assert_int_equal(env_send(e, mk_pkt(&t, MAC_A, MAC_B, 2, 80)), MLX5DM_SIM_PKT_DROPPED);
	st = env_stats(e);
	assert_int_equal(st.tx_packets, 1);
	assert_int_equal(st.wire_packets, 1);
	assert_int_equal(st.rx_packets, 1);
	assert_int_equal(st.tx_bytes, t.len);
	assert_int_equal(st.rx_bytes, t.len);
	assert_int_equal(st.drops.default_miss, 1);
	assert_int_equal(st.delivered, 0);
}

static void
test_anchor_to_tir(void **state)
{
	struct env *e = *state;
	const struct fake_rx *rx;
	struct tpkt t;

	/* root anchor (always-hit) -> 1-entry table (always-hit) -> TIR 1 */
	fake_root_set(e->sim, MLX5DM_SIM_DIR_RX, STE(0));
	t_ste_put_hit(e->sim, STE(0), GVMI(STE(0x40)), 1, LU_DONT_CARE, 0);
	t_ste_put_hit(e->sim, STE(0x40), GVMI(TIR_ADDR(1)), 1, LU_DONT_CARE, 0);
	assert_int_equal(env_send(e, mk_pkt(&t, MAC_A, MAC_B, 2, 80)), MLX5DM_SIM_PKT_DELIVERED);
	assert_int_equal(fake_rq_count(e->sim, RQN(1)), 1);
	rx = env_last_rx(e, 1);
	assert_int_equal(rx->pkt.len, t.len);
	assert_memory_equal(rx->data, t.mem + TP_HEAD, t.len);
	assert_int_equal(rx->pkt.fate, MLX5DM_SIM_PKT_DELIVERED);
	assert_int_equal(rx->pkt.flags, 0);
	assert_int_equal(rx->pkt.ptype, MLX5DM_SIM_PTYPE_L2_ETHER | MLX5DM_SIM_PTYPE_L3_IPV4 |
			 MLX5DM_SIM_PTYPE_L4_UDP);
	assert_int_equal(env_stats(e).delivered, 1);
}

/* Anchor -> ETHL2 (16) -> IPv4 5-tuple (4) -> ETHL4 (2) -> TIR; misses to an end anchor. */
static void
test_multi_level(void **state)
{
	const uint64_t t1 = STE(0x1000), t2 = STE(0x2000), t3 = STE(0x3000), e1 = STE(0x800);
	struct env *e = *state;
	uint8_t m[16], g[16];
	uint16_t bm1, bm2, bm3;
	uint32_t s1, s2, s3;
	struct tpkt t;

	fake_root_set(e->sim, MLX5DM_SIM_DIR_RX, STE(0));
	t_ste_put_miss(e->sim, e1, LU_DONT_CARE, FAKE_RX_DROP);
	/* Each level hashes on its matched bytes: dmac, dst IP, dst port. */
	tag_dport(m, g, 80);
	bm3 = t_byte_mask(m);
	s3 = t_slot(g, bm3, 2);
	env_table(e, t3, 2, LU_ETHL4_O, e1);
	env_rule(e, t3 + 64 * s3, LU_ETHL4_O, m, g, e1, GVMI(TIR_ADDR(2)), 1, LU_DONT_CARE, 0);
	tag_dip(m, g, 0x0a000002);
	bm2 = t_byte_mask(m);
	s2 = t_slot(g, bm2, 4);
	env_table(e, t2, 4, LU_5TUPLE_O, e1);
	env_rule(e, t2 + 64 * s2, LU_5TUPLE_O, m, g, e1, GVMI(t3), 2, LU_ETHL4_O, bm3);
	tag_dmac(m, g, MAC_A);
	bm1 = t_byte_mask(m);
	assert_int_equal(bm1, 0x0fc0);
	s1 = t_slot(g, bm1, 16);
	env_table(e, t1, 16, LU_ETHL2_O, e1);
	env_rule(e, t1 + 64 * s1, LU_ETHL2_O, m, g, e1, GVMI(t2), 4, LU_5TUPLE_O, bm2);
	t_ste_put_hit(e->sim, STE(0), GVMI(t1), 16, LU_ETHL2_O, bm1);

	env_trace_on(e);
	assert_int_equal(env_send(e, mk_pkt(&t, MAC_A, MAC_B, 0x0a000002, 80)),
			 MLX5DM_SIM_PKT_DELIVERED);
	assert_int_equal(fake_rq_count(e->sim, RQN(2)), 1);
	assert_non_null(strstr(e->trace, "ETHL2_O"));
	assert_non_null(strstr(e->trace, "IPV4_5_TUPLE_O"));
	assert_non_null(strstr(e->trace, "ETHL4_O"));
	assert_non_null(strstr(e->trace, "terminal tir"));
	assert_non_null(strstr(e->trace, "fate: delivered to rq 0x102"));
	/* A miss at each level ends at the end anchor -> default miss. */
	assert_int_equal(env_send(e, mk_pkt(&t, MAC_B, MAC_B, 0x0a000002, 80)),
			 MLX5DM_SIM_PKT_DROPPED);
	assert_int_equal(env_send(e, mk_pkt(&t, MAC_A, MAC_B, 0x0a000003, 80)),
			 MLX5DM_SIM_PKT_DROPPED);
	assert_int_equal(env_send(e, mk_pkt(&t, MAC_A, MAC_B, 0x0a000002, 81)),
			 MLX5DM_SIM_PKT_DROPPED);
	assert_int_equal(env_stats(e).drops.default_miss, 3);
	assert_int_equal(fake_rq_count(e->sim, RQN(2)), 1);
}

/*
 * Four MACs hashing to one slot of a 2-entry table: the slot holds A, whose
 * miss leads through 1-entry collision tables (B, C) to the matcher end
 * anchor, which always-hits into a lower-priority catch-all matcher.
 */
static void
test_collision_chain(void **state)
{
	const uint64_t tbl = STE(0x4000), c1 = STE(0x5000), c2 = STE(0x5040), ea = STE(0x5080);
	const uint64_t m2 = STE(0x6000);
	struct env *e = *state;
	uint64_t macs[4], other = 0;
	uint8_t m[16], g[16];
	uint32_t slot = 0, i, n = 0;
	uint16_t bm;
	struct tpkt t;

	tag_dmac(m, g, MAC_A);
	bm = t_byte_mask(m);
	for (i = 0; n < 4 || other == 0; i++) {
		uint64_t mac = 0x020000000000ull + i;

		tag_dmac(m, g, mac);
		if (n == 0)
			slot = t_slot(g, bm, 2);
		if (t_slot(g, bm, 2) == slot && n < 4)
			macs[n++] = mac;
		else if (t_slot(g, bm, 2) != slot && other == 0)
			other = mac;
	}
	fake_root_set(e->sim, MLX5DM_SIM_DIR_RX, STE(0));
	t_ste_put_hit(e->sim, STE(0), GVMI(tbl), 2, LU_ETHL2_O, bm);
	env_table(e, tbl, 2, LU_ETHL2_O, ea);
	tag_dmac(m, g, macs[0]);
	env_rule(e, tbl + 64 * slot, LU_ETHL2_O, m, g, c1, GVMI(TIR_ADDR(1)), 1, LU_DONT_CARE, 0);
	tag_dmac(m, g, macs[1]);
	env_rule(e, c1, LU_ETHL2_O, m, g, c2, GVMI(TIR_ADDR(2)), 1, LU_DONT_CARE, 0);
	tag_dmac(m, g, macs[2]);
	env_rule(e, c2, LU_ETHL2_O, m, g, ea, GVMI(TIR_ADDR(3)), 1, LU_DONT_CARE, 0);
	t_ste_put_hit(e->sim, ea, GVMI(m2), 1, LU_DONT_CARE, 0);
	t_ste_put_hit(e->sim, m2, GVMI(TIR_ADDR(4)), 1, LU_DONT_CARE, 0);

	for (i = 0; i < 3; i++) {
		assert_int_equal(env_send(e, mk_pkt(&t, macs[i], MAC_B, 2, 80)),
				 MLX5DM_SIM_PKT_DELIVERED);
		assert_int_equal(fake_rq_count(e->sim, RQN(i + 1)), 1);
	}
	env_trace_on(e);
	assert_int_equal(env_send(e, mk_pkt(&t, macs[3], MAC_B, 2, 80)),
			 MLX5DM_SIM_PKT_DELIVERED);
	assert_int_equal(fake_rq_count(e->sim, RQN(4)), 1);
	/* slot (miss), c1 (miss), c2 (miss), end anchor (hit), catch-all (hit) */
	{
		const char *p = e->trace;
		unsigned int misses = 0;

		while ((p = strstr(p, ": ste ")) != NULL) {
			p += 6;
			if (strstr(p, " miss\n") == strchr(p, '\n') - 5)
				misses++;
		}
		assert_int_equal(misses, 3);
	}
	assert_int_equal(env_send(e, mk_pkt(&t, other, MAC_B, 2, 80)), MLX5DM_SIM_PKT_DELIVERED);
	assert_int_equal(fake_rq_count(e->sim, RQN(4)), 2);
}

/* Matcher 1 (dmac) before matcher 2 (smac) through matcher 1's end anchor. */
static void
test_matcher_priorities(void **state)
{
	const uint64_t t1 = STE(0x1000), t2 = STE(0x2000), e1 = STE(0x800), e2 = STE(0x840);
	struct env *e = *state;
	uint8_t m[16], g[16];
	uint16_t bm1, bm2;
	struct tpkt t;

	fake_root_set(e->sim, MLX5DM_SIM_DIR_RX, STE(0));
	tag_dmac(m, g, MAC_A);
	bm1 = t_byte_mask(m);
	t_ste_put_hit(e->sim, STE(0), GVMI(t1), 4, LU_ETHL2_O, bm1);
	env_table(e, t1, 4, LU_ETHL2_O, e1);
	env_rule(e, t1 + 64 * t_slot(g, bm1, 4), LU_ETHL2_O, m, g, e1, GVMI(TIR_ADDR(1)), 1,
		 LU_DONT_CARE, 0);
	tag_smac(m, g, MAC_B);
	bm2 = t_byte_mask(m);
	t_ste_put_hit(e->sim, e1, GVMI(t2), 8, LU_ETHL2_SRC_O, bm2);
	env_table(e, t2, 8, LU_ETHL2_SRC_O, e2);
	env_rule(e, t2 + 64 * t_slot(g, bm2, 8), LU_ETHL2_SRC_O, m, g, e2, GVMI(TIR_ADDR(2)), 1,
		 LU_DONT_CARE, 0);
	t_ste_put_miss(e->sim, e2, LU_DONT_CARE, GVMI(FAKE_RX_DROP));

	assert_int_equal(env_send(e, mk_pkt(&t, MAC_A, MAC_B, 2, 80)), MLX5DM_SIM_PKT_DELIVERED);
	assert_int_equal(fake_rq_count(e->sim, RQN(1)), 1);
	assert_int_equal(env_send(e, mk_pkt(&t, 0x0a, MAC_B, 2, 80)), MLX5DM_SIM_PKT_DELIVERED);
	assert_int_equal(fake_rq_count(e->sim, RQN(2)), 1);
	assert_int_equal(env_send(e, mk_pkt(&t, 0x0a, 0x0b, 2, 80)), MLX5DM_SIM_PKT_DROPPED);
	assert_int_equal(env_stats(e).drops.default_miss, 1);
}

/* A zero mask hits iff the tag is zero: 0xDC in tag byte 0 never matches. */
static void
test_always_hit_and_miss(void **state)
{
	struct env *e = *state;
	struct t_ste s;
	struct tpkt t;

	fake_root_set(e->sim, MLX5DM_SIM_DIR_RX, STE(0));
	/* An always-miss entry whose hit pointer would deliver: must not be taken. */
	t_ste_init(&s, LU_ETHL2_O);
	s.tag[0] = 0xdc;
	s.miss = GVMI(STE(0x40));
	s.hit = GVMI(TIR_ADDR(1));
	s.hit_size = 1;
	t_ste_put(e->sim, STE(0), &s);
	/* Non-zero mask on a field the packet has as zero, tag zero: hits. */
	t_ste_init(&s, LU_ETHL2_O);
	mlx5dm_prm_set(s.mask, 0x014, 12, 0xfff); /* first_vlan_id: untagged packet -> 0 */
	s.miss = GVMI(FAKE_RX_DROP);
	s.hit = GVMI(TIR_ADDR(2));
	s.hit_size = 1;
	t_ste_put(e->sim, STE(0x40), &s);
	assert_int_equal(env_send(e, mk_pkt(&t, MAC_A, MAC_B, 2, 80)), MLX5DM_SIM_PKT_DELIVERED);
	assert_int_equal(fake_rq_count(e->sim, RQN(1)), 0);
	assert_int_equal(fake_rq_count(e->sim, RQN(2)), 1);
}

static void
test_terminals(void **state)
{
	struct env *e = *state;
	struct mlx5dm_sim_tir_info ti = { .inline_rqn = 0x200 };
	struct mlx5dm_dev_port_stats st;
	struct tpkt t;
	unsigned int i;

	fake_terminal_add(e->sim, TIR_ADDR(9), MLX5DM_SIM_TERM_TIR, 9);    /* no TIR object */
	fake_terminal_add(e->sim, TIR_ADDR(10), MLX5DM_SIM_TERM_TIR, 10);  /* RQ not ready */
	fake_tir_add(e->sim, 10, &ti);
	fake_rq_add(e->sim, 0x200, 4, false);
	ti.inline_rqn = 0x201;
	fake_terminal_add(e->sim, TIR_ADDR(11), MLX5DM_SIM_TERM_TIR, 11);  /* RQ of depth 1 */
	fake_tir_add(e->sim, 11, &ti);
	fake_rq_add(e->sim, 0x201, 1, true);

	fake_root_set(e->sim, MLX5DM_SIM_DIR_TX, STE(0x100));
	fake_root_set(e->sim, MLX5DM_SIM_DIR_RX, STE(0));

	/* TX drop */
	t_ste_put_hit(e->sim, STE(0x100), FAKE_TX_DROP, 1, LU_DONT_CARE, 0);
	env_send(e, mk_pkt(&t, MAC_A, MAC_B, 2, 80));
	st = env_stats(e);
	assert_int_equal(st.drops.steering_drop, 1);
	assert_int_equal(st.wire_packets, 0);
	/* TX allow -> wire; RX explicit drop (hit) is a steering drop, not a default miss */
	t_ste_put_hit(e->sim, STE(0x100), FAKE_TX_ALLOW, 1, LU_DONT_CARE, 0);
	t_ste_put_hit(e->sim, STE(0), GVMI(FAKE_RX_DROP), 1, LU_DONT_CARE, 0);
	env_send(e, mk_pkt(&t, MAC_A, MAC_B, 2, 80));
	st = env_stats(e);
	assert_int_equal(st.wire_packets, 1);
	assert_int_equal(st.drops.steering_drop, 2);
	assert_int_equal(st.drops.default_miss, 0);
	/* RX to a TIR without object, then to a TIR whose RQ is not ready */
	t_ste_put_hit(e->sim, STE(0), GVMI(TIR_ADDR(9)), 1, LU_DONT_CARE, 0);
	env_send(e, mk_pkt(&t, MAC_A, MAC_B, 2, 80));
	t_ste_put_hit(e->sim, STE(0), GVMI(TIR_ADDR(10)), 1, LU_DONT_CARE, 0);
	env_send(e, mk_pkt(&t, MAC_A, MAC_B, 2, 80));
	assert_int_equal(env_stats(e).drops.no_tir, 2);
	/* A full RQ */
	t_ste_put_hit(e->sim, STE(0), GVMI(TIR_ADDR(11)), 1, LU_DONT_CARE, 0);
	for (i = 0; i < 3; i++)
		env_send(e, mk_pkt(&t, MAC_A, MAC_B, 2, 80));
	st = env_stats(e);
	assert_int_equal(st.delivered, 1);
	assert_int_equal(st.drops.queue_full, 2);
	/* A TIR in TX and the TX allow address in RX are walk errors. */
	t_ste_put_hit(e->sim, STE(0x100), GVMI(TIR_ADDR(1)), 1, LU_DONT_CARE, 0);
	env_send(e, mk_pkt(&t, MAC_A, MAC_B, 2, 80));
	t_ste_put_hit(e->sim, STE(0x100), FAKE_TX_ALLOW, 1, LU_DONT_CARE, 0);
	t_ste_put_hit(e->sim, STE(0), FAKE_TX_ALLOW, 1, LU_DONT_CARE, 0);
	env_send(e, mk_pkt(&t, MAC_A, MAC_B, 2, 80));
	assert_int_equal(env_stats(e).drops.walk_error, 2);
	assert_int_equal(fake_rq_count(e->sim, RQN(1)), 0);
}

/*
 * NIC TX tells a frame's send queue: the SRC_QP_GVMI lookup
 * (ste_src_gvmi_qp_v1: source_qp at 0x028, 24 bits) reads the number of
 * the queue that sent it. A 1-entry table (slot 0) of that lookup:
 * queue 0x123's frames are dropped, the others' miss to the TX allow.
 */
static void
test_tx_source_qp(void **state)
{
	const uint64_t t1 = STE(0x1000);
	struct env *e = *state;
	uint8_t m[16] = { 0 }, g[16] = { 0 };
	struct mlx5dm_sim_pkt *pkt;
	struct tpkt t;
	uint16_t bm;

	mlx5dm_prm_set(m, 0x028, 24, 0xffffff);
	mlx5dm_prm_set(g, 0x028, 24, 0x123);
	bm = t_byte_mask(m);
	assert_int_equal(bm, 0x0700);
	fake_root_set(e->sim, MLX5DM_SIM_DIR_TX, STE(0x100));
	env_table(e, t1, 1, LU_SRC_QP_GVMI, FAKE_TX_ALLOW);
	env_rule(e, t1, LU_SRC_QP_GVMI, m, g, FAKE_TX_ALLOW, FAKE_TX_DROP, 1, LU_DONT_CARE, 0);
	t_ste_put_hit(e->sim, STE(0x100), GVMI(t1), 1, LU_SRC_QP_GVMI, bm);
	pkt = mk_pkt(&t, MAC_A, MAC_B, 2, 80);
	pkt->sqn = 0x123;
	env_send(e, pkt);
	assert_int_equal(env_stats(e).drops.steering_drop, 1);
	assert_int_equal(env_stats(e).wire_packets, 0);
	pkt = mk_pkt(&t, MAC_A, MAC_B, 2, 80);
	pkt->sqn = 0x124;
	env_send(e, pkt);
	assert_int_equal(env_stats(e).drops.steering_drop, 1);
	assert_int_equal(env_stats(e).wire_packets, 1);
}

static void
test_counter(void **state)
{
	struct env *e = *state;
	uint64_t pk, by;
	struct t_ste s;
	struct tpkt t;

	fake_counter_add(e->sim, 0x123456);
	fake_root_set(e->sim, MLX5DM_SIM_DIR_RX, STE(0));
	t_ste_init(&s, LU_DONT_CARE);
	s.counter = 0x123456;
	s.hit = GVMI(TIR_ADDR(1));
	s.hit_size = 1;
	t_ste_put(e->sim, STE(0), &s);
	env_send(e, mk_pkt(&t, MAC_A, MAC_B, 2, 80));
	env_send(e, mk_pkt(&t, MAC_A, MAC_B, 2, 80));
	fake_counter_get(e->sim, 0x123456, &pk, &by);
	assert_int_equal(pk, 2);
	assert_int_equal(by, 2 * t.len);
	assert_int_equal(fake_rq_count(e->sim, RQN(1)), 2);
}

/*
 * Action-only STEs as rdma-core writes them (entry_format 2, 12-byte
 * actions, zero mask/tag) and as a definer-less MATCH entry (format 4,
 * index DONT_CARE): both always hit and run their actions.
 */
static void
test_action_stes(void **state)
{
	struct env *e = *state;
	const struct fake_rx *rx;
	struct t_ste s;
	struct tpkt t;

	fake_root_set(e->sim, MLX5DM_SIM_DIR_RX, STE(0));
	t_ste_put_hit(e->sim, STE(0), GVMI(STE(0x40)), 1, LU_DONT_CARE, 0);
	t_ste_init(&s, 0x020f);
	t_act_flow_tag(s.act, 0x111);
	t_act_flow_tag(s.act + 4, 0x222);
	s.hit = GVMI(STE(0x80));
	s.hit_size = 1;
	t_ste_put(e->sim, STE(0x40), &s);
	t_ste_init(&s, 0x040f);
	t_act_flow_tag(s.act + 8, 0xabcdef);
	s.hit = GVMI(TIR_ADDR(3));
	s.hit_size = 1;
	t_ste_put(e->sim, STE(0x80), &s);
	assert_int_equal(env_send(e, mk_pkt(&t, MAC_A, MAC_B, 2, 80)), MLX5DM_SIM_PKT_DELIVERED);
	rx = env_last_rx(e, 3);
	assert_non_null(rx);
	assert_int_equal(rx->pkt.flags, MLX5DM_SIM_PKT_F_FLOW_TAG);
	assert_int_equal(rx->pkt.flow_tag, 0xabcdef);
	/* A definer entry with a non-zero tag misses. */
	s.tag[0] = 1;
	s.miss = GVMI(FAKE_RX_DROP);
	t_ste_put(e->sim, STE(0x80), &s);
	assert_int_equal(env_send(e, mk_pkt(&t, MAC_A, MAC_B, 2, 80)), MLX5DM_SIM_PKT_DROPPED);
	assert_int_equal(env_stats(e).drops.default_miss, 1);
}

/*
 * A table of MATCHERS chained matchers, as a group with that many
 * priorities: each matcher's 1-entry start table holds a source-MAC rule
 * the packet does not match and misses to the matcher's end anchor, which
 * hits to the next matcher. Only the last rule matches: the packet walks
 * every matcher (two STEs each, far more than 4096) and is delivered with
 * its flow tag. A device walks such a chain to its end; nothing here is a
 * loop or an error.
 */
#define MATCHERS 3000u

static void
test_long_matcher_chain(void **state)
{
	struct env *e = *state;
	const struct fake_rx *rx;
	uint8_t m[16], g[16];
	struct t_ste s;
	struct tpkt t;
	uint64_t start, anchor;
	unsigned int i;
	uint16_t bm;

	fake_root_set(e->sim, MLX5DM_SIM_DIR_RX, STE(0));
	tag_smac(m, g, MAC_B);
	bm = t_byte_mask(m);
	t_ste_put_hit(e->sim, STE(0), GVMI(STE(0x1000)), 1, LU_ETHL2_SRC_O, bm);
	for (i = 0; i < MATCHERS; i++) {
		start = STE(0x1000 + 128ull * i);
		anchor = start + 64;
		if (i + 1 < MATCHERS) {
			tag_smac(m, g, 0x060000000000ull | i);
			env_rule(e, start, LU_ETHL2_SRC_O, m, g, GVMI(anchor), GVMI(TIR_ADDR(2)),
				 1, LU_DONT_CARE, 0);
			t_ste_put_hit(e->sim, anchor, GVMI(start + 128), 1, LU_ETHL2_SRC_O, bm);
			continue;
		}
		t_ste_init(&s, LU_DONT_CARE);
		t_act_flow_tag(s.act, 5);
		s.miss = GVMI(anchor);
		s.hit = GVMI(TIR_ADDR(1));
		s.hit_size = 1;
		t_ste_put(e->sim, start, &s);
		t_ste_put_miss(e->sim, anchor, LU_DONT_CARE, GVMI(FAKE_RX_DROP));
	}
	assert_int_equal(env_send(e, mk_pkt(&t, MAC_A, MAC_B, 2, 80)), MLX5DM_SIM_PKT_DELIVERED);
	rx = env_last_rx(e, 1);
	assert_non_null(rx);
	assert_int_equal(rx->pkt.flags, MLX5DM_SIM_PKT_F_FLOW_TAG);
	assert_int_equal(rx->pkt.flow_tag, 5);
	/* A packet from the MAC of a rule deep in the chain hits that rule. */
	assert_int_equal(env_send(e, mk_pkt(&t, MAC_A, 0x060000000000ull | 2500, 2, 80)),
			 MLX5DM_SIM_PKT_DELIVERED);
	assert_int_equal(fake_rq_count(e->sim, RQN(2)), 1);
	assert_int_equal(env_stats(e).drops.walk_error, 0);
	assert_int_equal(env_stats(e).drops.loop, 0);
}

static void
test_loops(void **state)
{
	struct env *e = *state;
	struct t_ste s;
	struct tpkt t;

	fake_root_set(e->sim, MLX5DM_SIM_DIR_RX, STE(0));
	/* An always-miss entry missing to itself. */
	t_ste_put_miss(e->sim, STE(0), LU_DONT_CARE, GVMI(STE(0)));
	env_trace_on(e);
	assert_int_equal(env_send(e, mk_pkt(&t, MAC_A, MAC_B, 2, 80)), MLX5DM_SIM_PKT_DROPPED);
	assert_non_null(strstr(e->trace, "loop"));
	/* A three-entry hit cycle. */
	t_ste_put_hit(e->sim, STE(0), GVMI(STE(0x40)), 1, LU_DONT_CARE, 0);
	t_ste_put_hit(e->sim, STE(0x40), GVMI(STE(0x80)), 1, LU_DONT_CARE, 0);
	t_ste_put_hit(e->sim, STE(0x80), GVMI(STE(0x40)), 1, LU_DONT_CARE, 0);
	env_trace_on(e);
	assert_int_equal(env_send(e, mk_pkt(&t, MAC_A, MAC_B, 2, 80)), MLX5DM_SIM_PKT_DROPPED);
	assert_non_null(strstr(e->trace, "loop"));
	assert_true(e->trace_lines < 40);
	/*
	 * A cycle that changes state every turn (reg_c0 += 1) never comes back
	 * in the same state: it is a loop once it has read more STEs than the
	 * ICM holds (the env maps 1 MiB + 3 * 64 KiB: 19456 lines).
	 */
	t_ste_init(&s, LU_DONT_CARE);
	t_act_add(s.act, 0x90, 0, 32, 1);
	s.hit = GVMI(STE(0));
	s.hit_size = 1;
	t_ste_put(e->sim, STE(0), &s);
	env_trace_on(e);
	assert_int_equal(env_send(e, mk_pkt(&t, MAC_A, MAC_B, 2, 80)), MLX5DM_SIM_PKT_DROPPED);
	assert_non_null(strstr(e->trace, "loop (19457 STEs read, the ICM holds 19456)"));
	assert_int_equal(env_stats(e).drops.loop, 3);
	assert_int_equal(env_stats(e).drops.walk_error, 0);
}

static void
test_bad_images(void **state)
{
	struct env *e = *state;
	uint8_t m[16], g[16];
	struct t_ste s;
	struct tpkt t;

	/* Root in unmapped ICM. */
	fake_root_set(e->sim, MLX5DM_SIM_DIR_RX, 0x900000000ull);
	env_trace_on(e);
	env_send(e, mk_pkt(&t, MAC_A, MAC_B, 2, 80));
	assert_non_null(strstr(e->trace, "ICM not readable"));
	/* Hit pointer into unmapped ICM. */
	fake_root_set(e->sim, MLX5DM_SIM_DIR_RX, STE(0));
	t_ste_put_hit(e->sim, STE(0), GVMI(0x900000000ull), 16, LU_ETHL2_O, 0x0fc0);
	env_send(e, mk_pkt(&t, MAC_A, MAC_B, 2, 80));
	/* A hit without a hit pointer. */
	t_ste_put_hit(e->sim, STE(0), 0, 0, LU_DONT_CARE, 0);
	env_send(e, mk_pkt(&t, MAC_A, MAC_B, 2, 80));
	/* Unmodelled lookup type with a non-zero mask (FLEX_PARSER_TNL_HEADER). */
	t_ste_init(&s, 0x000e);
	s.mask[15] = 0xff;
	s.hit = GVMI(TIR_ADDR(1));
	s.hit_size = 1;
	t_ste_put(e->sim, STE(0), &s);
	env_send(e, mk_pkt(&t, MAC_A, MAC_B, 2, 80));
	/* Hashing a table with an unmodelled lookup type. */
	t_ste_put_hit(e->sim, STE(0), GVMI(STE(0x400)), 4, 0x000e, 0xffff);
	env_send(e, mk_pkt(&t, MAC_A, MAC_B, 2, 80));
	/* A definer (MATCH) entry with a real definer id. */
	t_ste_init(&s, 0x0405);
	s.hit = GVMI(TIR_ADDR(1));
	s.hit_size = 1;
	t_ste_put(e->sim, STE(0), &s);
	env_send(e, mk_pkt(&t, MAC_A, MAC_B, 2, 80));
	/* An unknown action id. */
	t_ste_init(&s, LU_DONT_CARE);
	s.act[0] = 0x1f;
	s.hit = GVMI(TIR_ADDR(1));
	s.hit_size = 1;
	t_ste_put(e->sim, STE(0), &s);
	env_send(e, mk_pkt(&t, MAC_A, MAC_B, 2, 80));
	assert_int_equal(env_stats(e).drops.walk_error, 7);
	/* Steering format 0 (ConnectX-5) is not modelled. */
	tag_dmac(m, g, MAC_A);
	t_ste_put_hit(e->sim, STE(0), GVMI(TIR_ADDR(1)), 1, LU_DONT_CARE, 0);
	fake_caps(e->sim)->steering_format_version = 0;
	env_send(e, mk_pkt(&t, MAC_A, MAC_B, 2, 80));
	assert_int_equal(env_stats(e).drops.walk_error, 8);
	fake_caps(e->sim)->steering_format_version = 1;
	assert_int_equal(env_send(e, mk_pkt(&t, MAC_A, MAC_B, 2, 80)), MLX5DM_SIM_PKT_DELIVERED);
	assert_int_equal(fake_rq_count(e->sim, RQN(1)), 1);
}

/*
 * Root -> a 4-entry table of lookup type lu holding one rule (the label in
 * dword dw) that delivers to TIR 1; everything else misses to an end
 * anchor whose miss is the RX drop address (a default miss).
 */
static void
flex_rule(struct env *e, uint16_t lu, unsigned int dw, uint32_t label)
{
	const uint64_t tbl = STE(0x1000), ea = STE(0x800);
	uint8_t m[16], g[16];
	uint16_t bm;

	tag_flex_label(m, g, dw, label);
	bm = t_byte_mask(m);
	fake_root_set(e->sim, MLX5DM_SIM_DIR_RX, STE(0));
	t_ste_put_miss(e->sim, ea, LU_DONT_CARE, GVMI(FAKE_RX_DROP));
	env_table(e, tbl, 4, lu, ea);
	env_rule(e, tbl + 64 * t_slot(g, bm, 4), lu, m, g, ea, GVMI(TIR_ADDR(1)), 1,
		 LU_DONT_CARE, 0);
	t_ste_put_hit(e->sim, STE(0), GVMI(tbl), 4, lu, bm);
}

/* MPLS over GRE on FLEX_PARSER_0 (parser 3, tag bytes 0..3). */
static void
test_flex_mpls_over_gre(void **state)
{
	struct env *e = *state;
	struct tpkt t;

	flex_rule(e, LU_FLEX_PARSER_0, 0, 0x12345);
	env_trace_on(e);
	assert_int_equal(env_send(e, mk_gre(&t, 0x8847, 0x12345)), MLX5DM_SIM_PKT_DELIVERED);
	assert_int_equal(fake_rq_count(e->sim, RQN(1)), 1);
	assert_non_null(strstr(e->trace, "FLEX_PARSER_0"));
	assert_int_equal(env_last_rx(e, 1)->pkt.ptype & 0xf000,
			 MLX5DM_SIM_PTYPE_TUNNEL_MPLS_IN_GRE);
	/* Another label; GRE carrying IPv4; the label behind UDP/6635: misses. */
	assert_int_equal(env_send(e, mk_gre(&t, 0x8847, 0x12346)), MLX5DM_SIM_PKT_DROPPED);
	assert_int_equal(env_send(e, mk_gre(&t, 0x0800, 0)), MLX5DM_SIM_PKT_DROPPED);
	assert_int_equal(env_send(e, mk_mpls_udp(&t, 6635, 0x12345)), MLX5DM_SIM_PKT_DROPPED);
	assert_int_equal(env_stats(e).drops.default_miss, 3);
	assert_int_equal(env_stats(e).drops.walk_error, 0);
	assert_int_equal(fake_rq_count(e->sim, RQN(1)), 1);
}

/* MPLS over UDP on FLEX_PARSER_1 (parser 4, tag bytes 12..15). */
static void
test_flex_mpls_over_udp(void **state)
{
	struct env *e = *state;
	struct tpkt t;

	flex_rule(e, LU_FLEX_PARSER_1, 3, 0xabcde);
	assert_int_equal(env_send(e, mk_mpls_udp(&t, 6635, 0xabcde)), MLX5DM_SIM_PKT_DELIVERED);
	assert_int_equal(fake_rq_count(e->sim, RQN(1)), 1);
	assert_int_equal(env_last_rx(e, 1)->pkt.ptype,
			 MLX5DM_SIM_PTYPE_L2_ETHER | MLX5DM_SIM_PTYPE_L3_IPV4 |
			 MLX5DM_SIM_PTYPE_L4_UDP | 0x0000d000u /* TUNNEL_MPLS_IN_UDP */ |
			 MLX5DM_SIM_PTYPE_INNER_L3_IPV4 | MLX5DM_SIM_PTYPE_INNER_L4_TCP);
	/* Another label; the right label to port 6636; the label behind GRE: misses. */
	assert_int_equal(env_send(e, mk_mpls_udp(&t, 6635, 0xabcdf)), MLX5DM_SIM_PKT_DROPPED);
	assert_int_equal(env_send(e, mk_mpls_udp(&t, 6636, 0xabcde)), MLX5DM_SIM_PKT_DROPPED);
	assert_int_equal(env_send(e, mk_gre(&t, 0x8847, 0xabcde)), MLX5DM_SIM_PKT_DROPPED);
	assert_int_equal(env_stats(e).drops.default_miss, 3);
	assert_int_equal(env_stats(e).drops.walk_error, 0);
	assert_int_equal(fake_rq_count(e->sim, RQN(1)), 1);
}

static void
test_parse_error_counted(void **state)
{
	struct env *e = *state;
	struct mlx5dm_sim_pkt *pkt;
	struct tpkt t;

	pkt = mk_pkt(&t, MAC_A, MAC_B, 2, 80);
	pkt->len = 20; /* cut inside the IPv4 header */
	assert_int_equal(env_send(e, pkt), MLX5DM_SIM_PKT_DROPPED);
	assert_int_equal(env_stats(e).drops.parse_error, 1);
	assert_int_equal(env_stats(e).wire_packets, 0);
}

/* An IPv4 datagram longer than its frame is steered, as a ConnectX does: no parse error. */
static void
test_cut_datagram_steered(void **state)
{
	struct env *e = *state;
	struct mlx5dm_sim_pkt *pkt;
	struct tpkt t;

	fake_root_set(e->sim, MLX5DM_SIM_DIR_RX, STE(0));
	t_ste_put_hit(e->sim, STE(0), GVMI(TIR_ADDR(1)), 1, LU_DONT_CARE, 0);
	pkt = mk_pkt(&t, MAC_A, MAC_B, 2, 80);
	t.mem[TP_HEAD + 14 + 2] = 0x05; /* total length 1280 and more */
	assert_int_equal(env_send(e, pkt), MLX5DM_SIM_PKT_DELIVERED);
	assert_int_equal(env_stats(e).drops.parse_error, 0);
	assert_int_equal(fake_rq_count(e->sim, RQN(1)), 1);
	assert_memory_equal(env_last_rx(e, 1)->data, t.mem + TP_HEAD, t.len);
}

static void
test_trace_off(void **state)
{
	struct env *e = *state;
	struct tpkt t;

	env_trace_on(e);
	mlx5dm_sim_engine_trace_set(e->engine, NULL, NULL);
	env_send(e, mk_pkt(&t, MAC_A, MAC_B, 2, 80));
	assert_int_equal(e->trace_lines, 0);
	env_trace_on(e);
	env_send(e, mk_pkt(&t, MAC_A, MAC_B, 2, 80));
	assert_true(e->trace_lines >= 4);
	assert_non_null(strstr(e->trace, "tx: no root rule"));
	assert_non_null(strstr(e->trace, "rx: no root rule"));
	assert_non_null(strstr(e->trace, "fate: dropped (default miss)"));
}

/*
 * Random STE images whose pointers stay inside a 64 KiB region (or hit a
 * terminal): every walk must end, with every packet accounted for once.
 */
static void
test_random_images(void **state)
{
	static const uint64_t terms[] = { FAKE_RX_DROP, TIR_ADDR(1), TIR_ADDR(2), FAKE_TX_ALLOW };
	const unsigned int nb = 1024, npkt = 3000;
	struct env *e = *state;
	struct mlx5dm_dev_port_stats st;
	struct mlx5dm_dev_drop_stats *d;
	unsigned int i, k;
	struct tpkt t;

	srand(42);
	for (i = 0; i < nb; i++) {
		struct t_ste s;
		uint32_t size = 1u << (rand() % 5);

		memset(&s, 0, sizeof(s));
		/* Mostly modelled lookup types; some definer and unknown ones. */
		s.fmt = (uint8_t[]){ 0, 0, 0, 1, 2, 4 }[rand() % 6];
		s.ctx = (uint8_t[]){ 0x03, 0x05, 0x07, 0x0f, 0x0f, 0x0f, 0x0d, 0x11 }[rand() % 8];
		s.counter = (uint32_t)rand() % 4;
		s.reparse = rand() & 1;
		s.miss = rand() % 4 ? STE(64ull * ((unsigned int)rand() % nb)) : terms[rand() % 4];
		if (rand() % 4 == 0) {
			s.hit = terms[rand() % 4];
			s.hit_size = 1;
		} else {
			s.hit = STE(64ull * size * ((unsigned int)rand() % (nb / size)));
			s.hit_size = size;
		}
		s.next_lu = (uint16_t)((rand() & 1) << 8 | rand() % 0x16);
		s.byte_mask = (uint16_t)rand();
		for (k = 0; k < 16; k++) {
			s.mask[k] = rand() % 6 ? 0 : (uint8_t)rand();
			s.tag[k] = s.mask[k] & (uint8_t)(rand() % 4 ? 0 : rand());
		}
		if (rand() % 8 == 0)
			t_act_flow_tag(s.act, (uint32_t)rand());
		else if (rand() % 8 == 0)
			t_act_set(s.act, 0x90, 0, 32, (uint32_t)rand() % 4);
		else if (rand() % 32 == 0)
			s.act[0] = (uint8_t)(rand() % 0x16);
		t_ste_put(e->sim, STE(64ull * i), &s);
	}
	/* No TX root: every frame reaches RX, which starts at a random entry. */
	for (i = 0; i < npkt; i++) {
		struct mlx5dm_sim_pkt *pkt = mk_pkt(&t, MAC_A + (unsigned int)rand() % 4, MAC_B,
						   (uint32_t)rand() % 8, (uint16_t)(rand() % 4));

		fake_root_set(e->sim, MLX5DM_SIM_DIR_RX, STE(64ull * ((unsigned int)rand() % nb)));
		env_send(e, pkt);
		assert_true(pkt->fate == MLX5DM_SIM_PKT_DELIVERED ||
			    pkt->fate == MLX5DM_SIM_PKT_DROPPED);
	}
	st = env_stats(e);
	d = &st.drops;
	/* Looped back: every frame is delivered or dropped exactly once. */
	assert_int_equal(st.tx_packets, npkt);
	assert_int_equal(st.rx_packets, st.wire_packets);
	assert_int_equal(st.tx_packets, st.delivered + d->steering_drop + d->no_tir +
			 d->parse_error + d->queue_full + d->default_miss + d->walk_error +
			 d->no_peer + d->no_room + d->loop);
	assert_true(d->walk_error > 0);
	assert_true(d->steering_drop + d->default_miss > 0);
	assert_true(st.delivered + d->queue_full > 0);
}

/* Bit field of a big-endian PRM layout, MSB first: width bits at bit offset off. */
static uint64_t
prm_bits(const uint8_t *b, unsigned int off, unsigned int width)
{
	uint64_t v = 0;
	unsigned int i;

	for (i = 0; i < width; i++)
		v = v << 1 | ((b[(off + i) / 8] >> (7 - (off + i) % 8)) & 1);
	return v;
}

/*
 * The STE control fields against the ste_match_bwc_v1 offsets read bit by
 * bit, over random STEs of every entry format.
 */
static void
test_ste_decode_fields(void **state)
{
	unsigned int n, i;

	(void)state;
	srand(5);
	for (n = 0; n < 4000; n++) {
		uint8_t raw[MLX5DM_SIM_STE_SIZE];
		struct mlx5dm_sim_ste s;
		uint64_t hit, size, miss;
		bool bwc;

		for (i = 0; i < sizeof(raw); i++)
			raw[i] = (uint8_t)rand();
		raw[0] = (uint8_t)(n % 6);
		if (n % 3 == 0) /* a valid hit pointer: one set bit at or below 2^24 */
			raw[19] = (uint8_t)((raw[19] & ~0x1fu) | 0x20);
		mlx5dm_sim_ste_decode(raw, &s);
		bwc = raw[0] < 2;
		assert_memory_equal(s.raw, raw, sizeof(raw));
		assert_int_equal(s.entry_format, prm_bits(raw, 0x000, 8));
		assert_int_equal(s.counter_id, prm_bits(raw, 0x008, 24));
		assert_int_equal(s.reparse, prm_bits(raw, 0x05c, 1));
		miss = prm_bits(raw, 0x038, 8) << 26 | prm_bits(raw, 0x040, 26);
		assert_true(s.miss_addr == (prm_bits(raw, 0x020, 16) << 48 | miss << 6));
		hit = prm_bits(raw, 0x078, 8) << 27 | prm_bits(raw, 0x080, 27);
		size = hit & (0 - hit);
		if (hit == 0 || size > (1u << 24)) {
			assert_int_equal(s.hit_size, 0);
			assert_true(s.hit_addr == prm_bits(raw, 0x060, 16) << 48);
		} else {
			assert_int_equal(s.hit_size, size);
			assert_true(s.hit_addr == (prm_bits(raw, 0x060, 16) << 48 |
						   (hit & ~size) << 5));
		}
		assert_int_equal(s.next_lu, (bwc ? prm_bits(raw, 0x0b0, 1) << 8 : 0) |
				 prm_bits(raw, 0x070, 8));
		assert_int_equal(s.byte_mask, bwc ? prm_bits(raw, 0x0a0, 16) : 0);
		assert_int_equal(s.lu & 0xff, prm_bits(raw, 0x030, 8));
	}
}

#define T(f) cmocka_unit_test_setup_teardown(f, env_setup, env_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hash_vectors),
		cmocka_unit_test(test_ste_decode_fields),
		T(test_no_root),
		T(test_anchor_to_tir),
		T(test_multi_level),
		T(test_collision_chain),
		T(test_matcher_priorities),
		T(test_always_hit_and_miss),
		T(test_terminals),
		T(test_tx_source_qp),
		T(test_counter),
		T(test_action_stes),
		T(test_long_matcher_chain),
		T(test_loops),
		T(test_bad_images),
		T(test_flex_mpls_over_gre),
		T(test_flex_mpls_over_udp),
		T(test_parse_error_counted),
		T(test_cut_datagram_steered),
		T(test_trace_off),
		T(test_random_images),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
