/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Modify header in pattern + argument mode and in basic list mode, end to
 * end on the device model: the pattern bytes in HEADER_MODIFY_PATTERN ICM,
 * the argument bytes in the model's argument store and the STE's
 * ACCELERATED_LIST action are checked against bytes derived by hand from
 * mlx5_ifc.h ste_double_action_set_v1 (v1 SET = 06 | dw_offset | shifter + 0x20 | length | data),
 * frames are rewritten by the model from those bytes, patterns are shared
 * as rdma-core's dr_ptrn.c shares them, and everything is returned on destroy.
 */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <pthread.h>
#include <cmocka.h>

#include "mlx5dm_sim_priv.h"
#include "mlx5dm_steer_priv.h"
#include "steer_feat_env.h"

/* User action types and field ids (PRM set/copy_action_in, MLX5_ACTION_IN_FIELD_OUT_*). */
enum { SET = 1, COPY = 3 };
enum {
	F_DMAC_47_16 = 0x04, F_DMAC_15_0 = 0x05, F_IP_TTL = 0x0a, F_UDP_DPORT = 0x0c,
	F_SIPV4 = 0x15, F_DIPV4 = 0x16, F_REG_C_0 = 0x51,
};

#define MAC_A 0x020000000001ull
#define MAC_B 0x020000000002ull
#define MAC_C 0x020000000003ull
#define SMAC  0x02000000aaaaull

/* set_action_in: type[31:28], field[27:16], offset[12:8], length[4:0]; DW1 data. */
static void
sw_set(uint8_t *a, unsigned int field, unsigned int len, uint32_t data)
{
	memset(a, 0, 8);
	mlx5dm_prm_set(a, 0x000, 4, SET);
	mlx5dm_prm_set(a, 0x004, 12, field);
	mlx5dm_prm_set(a, 0x01b, 5, len);
	mlx5dm_prm_set(a, 0x020, 32, data);
}

/* copy_action_in: source as set_action_in's field, dst_field DW1[27:16]. */
static void
sw_copy(uint8_t *a, unsigned int src, unsigned int dst, unsigned int len)
{
	memset(a, 0, 8);
	mlx5dm_prm_set(a, 0x000, 4, COPY);
	mlx5dm_prm_set(a, 0x004, 12, src);
	mlx5dm_prm_set(a, 0x01b, 5, len);
	mlx5dm_prm_set(a, 0x024, 12, dst);
}

/* dmac := mac, TTL := ttl; the three v1 HW actions that does. */
static struct mlx5dm_action *
act_dmac_ttl(struct fenv *e, uint64_t mac, uint8_t ttl, uint8_t hw[3][8])
{
	uint8_t sw[3][8];
	struct mlx5dm_action *a;

	sw_set(sw[0], F_DMAC_47_16, 0, (uint32_t)(mac >> 16));
	sw_set(sw[1], F_DMAC_15_0, 16, (uint32_t)(mac & 0xffff));
	sw_set(sw[2], F_IP_TTL, 8, ttl);
	a = mlx5dm_action_modify_header(e->rx, 3, &sw[0][0]);
	assert_non_null(a);
	/* L2_OUT_0 bits 0..31, L2_OUT_1 bits 16..31, L3_OUT_0 bits 8..15. */
	memcpy(hw[0], (const uint8_t[]){ 0x06, 0x00, 0x20, 0x20, 0, 0, 0, 0 }, 8);
	mlx5dm_prm_put_be32(hw[0] + 4, (uint32_t)(mac >> 16));
	memcpy(hw[1], (const uint8_t[]){ 0x06, 0x01, 0x30, 0x10, 0, 0, 0, 0 }, 8);
	mlx5dm_prm_put_be32(hw[1] + 4, (uint32_t)(mac & 0xffff));
	memcpy(hw[2], (const uint8_t[]){ 0x06, 0x0e, 0x28, 0x08, 0, 0, 0, ttl }, 8);
	return a;
}

/* The frame f after dmac := mac and TTL := ttl (checksum recomputed). */
static void
expect_dmac_ttl(const struct frame *f, uint64_t mac, uint8_t ttl, uint8_t *exp)
{
	memcpy(exp, f->buf + FENV_HEADROOM, f->len);
	fenv_put_mac(exp, mac);
	exp[22] = ttl;
	ipv4_csum_set(exp + 14);
}

/* Send a UDP frame to dmac and check it arrives on queue q rewritten as exp. */
static void
send_expect(struct fenv *e, uint64_t dmac, int q, uint64_t new_mac, uint8_t ttl)
{
	uint8_t got[FENV_FRAME_MAX], exp[FENV_FRAME_MAX];
	struct frame f;
	uint16_t len = 0;

	frame_udp4(&f, dmac, SMAC, 0x0a000001, 0x0a000002, 1000, 2000, 18);
	expect_dmac_ttl(&f, new_mac, ttl, exp);
	assert_int_equal(fenv_send(e, &f, got, &len), q);
	assert_int_equal(len, f.len);
	assert_memory_equal(got, exp, f.len);
}

static uint32_t
pattern_count(struct fenv *e)
{
	return mlx5dm_pattern_cache_count(e->ctx->patterns);
}

static uint64_t
icm_used(struct fenv *e, unsigned int type)
{
	struct mlx5dm_ctx_stats st;

	assert_int_equal(mlx5dm_ctx_stats_get(e->ctx, &st), 0);
	return st.icm[type].used_bytes - e->start.icm[type].used_bytes;
}

/* The 8 action bytes of a BWC STE (control bytes 24..31) as the device reads them. */
static void
ste_action(struct fenv *e, const struct mlx5dm_rule *r, uint8_t act[8])
{
	uint8_t ste[64];

	assert_int_equal(fenv_icm_read(e, mlx5dm_ste_icm(mlx5dm_rule_last(r)), ste, 64), 0);
	memcpy(act, ste + 24, 8);
}

static void
test_pattern_argument(void **state)
{
	uint8_t hw1[3][8], hw2[3][8], pat[3][8], got[64], act[8], exp_act[8];
	uint8_t sw[2][8];
	struct mlx5dm_action *a1, *a2, *a3, *a4, *acts[2];
	const struct mlx5dm_ste_modify_ref *m1, *m2;
	struct mlx5dm_res_stats rs;
	struct mlx5dm_rule *r1, *r2;
	struct mlx5dm_matcher *m;
	struct fenv *e = fenv_open(NULL);
	uint8_t v[MLX5DM_MATCH_PARAM_SIZE] = { 0 };
	uint64_t pat_base = mlx5dm_sim_caps(e->sim)->header_modify_pattern_sw_icm_start;
	unsigned int i;

	(void)state;
	assert_non_null(e->ctx->patterns);
	m = fenv_dmac_matcher(e->rx_tbl);
	a1 = act_dmac_ttl(e, 0x02aabbccddeeull, 0x21, hw1);
	m1 = &a1->ste.modify;
	assert_int_equal(m1->mode, MLX5DM_STE_MODIFY_PATTERN);
	assert_int_equal(m1->num_actions, 3);
	/* Pattern: the HW actions with their data zeroed, in pattern ICM at its line index. */
	memset(pat, 0, sizeof(pat));
	for (i = 0; i < 3; i++)
		memcpy(pat[i], hw1[i], 4);
	assert_int_equal(fenv_icm_read(e, pat_base + 64ull * m1->pattern_index, got,
					     24), 0);
	assert_memory_equal(got, pat, 24);
	/* Argument: the full actions, padded to one 64-byte unit. */
	assert_int_equal(fenv_arg_read(e, m1->index, got, 64), 0);
	assert_memory_equal(got, hw1, 24);
	for (i = 24; i < 64; i++)
		assert_int_equal(got[i], 0);
	assert_int_equal(pattern_count(e), 1);
	assert_int_equal(icm_used(e, MLX5DM_ICM_PATTERN), 64);
	assert_int_equal(icm_used(e, MLX5DM_ICM_MODIFY), 0);

	acts[0] = a1;
	acts[1] = e->to_q[1];
	r1 = fenv_dmac_rule(m, MAC_A, 2, acts);
	/* The rule's STE: ACCELERATED_LIST pattern pointer | #actions | argument pointer. */
	ste_action(e, r1, act);
	exp_act[0] = 0x0e;
	exp_act[1] = (uint8_t)(m1->pattern_index >> 16);
	exp_act[2] = (uint8_t)(m1->pattern_index >> 8);
	exp_act[3] = (uint8_t)m1->pattern_index;
	mlx5dm_prm_put_be32(exp_act + 4, m1->index);
	exp_act[4] = 3;
	assert_memory_equal(act, exp_act, 8);
	send_expect(e, MAC_A, 1, 0x02aabbccddeeull, 0x21);

	/* Same fields, other data: the pattern is shared, the argument is not. */
	a2 = act_dmac_ttl(e, 0x021122334455ull, 0x05, hw2);
	m2 = &a2->ste.modify;
	assert_int_equal(m2->mode, MLX5DM_STE_MODIFY_PATTERN);
	assert_int_equal(m2->pattern_index, m1->pattern_index);
	assert_int_not_equal(m2->index, m1->index);
	assert_int_equal(pattern_count(e), 1);
	assert_int_equal(icm_used(e, MLX5DM_ICM_PATTERN), 64);
	assert_int_equal(fenv_arg_read(e, m2->index, got, 24), 0);
	assert_memory_equal(got, hw2, 24);
	/* A rule on the other queue uses it right away. */
	fenv_value_dmac(v, MAC_B);
	acts[0] = a2;
	acts[1] = e->to_q[0];
	r2 = mlx5dm_rule_create(m, 1, v, 2, acts);
	assert_non_null(r2);
	assert_int_equal(mlx5dm_queue_drain(e->ctx, 1), 0);
	send_expect(e, MAC_B, 0, 0x021122334455ull, 0x05);
	send_expect(e, MAC_A, 1, 0x02aabbccddeeull, 0x21);

	/* Other fields: a pattern of its own. */
	sw_set(sw[0], F_IP_TTL, 8, 7);
	sw_set(sw[1], F_UDP_DPORT, 16, 0x1234);
	a3 = mlx5dm_action_modify_header(e->rx, 2, &sw[0][0]);
	assert_non_null(a3);
	assert_int_equal(a3->ste.modify.mode, MLX5DM_STE_MODIFY_PATTERN);
	assert_int_not_equal(a3->ste.modify.pattern_index, m1->pattern_index);
	assert_int_equal(pattern_count(e), 2);
	assert_int_equal(icm_used(e, MLX5DM_ICM_PATTERN), 128);
	/* One action stays inline: no pattern, no argument. */
	mlx5dm_res_stats_get(mlx5dm_ctx_res(e->ctx), &rs);
	a4 = mlx5dm_action_modify_header(e->rx, 1, sw[0]);
	assert_non_null(a4);
	assert_int_equal(a4->ste.modify.mode, MLX5DM_STE_MODIFY_INLINE);
	assert_memory_equal(a4->ste.modify.inline_action,
			    ((const uint8_t[]){ 0x06, 0x0e, 0x28, 0x08, 0, 0, 0, 7 }), 8);
	assert_int_equal(pattern_count(e), 2);
	{
		struct mlx5dm_res_stats rs2;

		mlx5dm_res_stats_get(mlx5dm_ctx_res(e->ctx), &rs2);
		assert_int_equal(rs2.args, rs.args);
		assert_int_equal(rs.args, 3);
	}

	/* In use: refused. Then everything goes and the pattern ICM with it. */
	assert_int_equal(mlx5dm_action_destroy(a1), -EBUSY);
	assert_int_equal(mlx5dm_rule_destroy(r1, 0), 0);
	assert_int_equal(mlx5dm_rule_destroy(r2, 1), 0);
	assert_int_equal(mlx5dm_action_destroy(a1), 0);
	assert_int_equal(pattern_count(e), 2);
	assert_int_equal(mlx5dm_action_destroy(a2), 0);
	assert_int_equal(pattern_count(e), 1);
	assert_int_equal(mlx5dm_action_destroy(a3), 0);
	assert_int_equal(mlx5dm_action_destroy(a4), 0);
	assert_int_equal(pattern_count(e), 0);
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	fenv_close(e);
}

/* A COPY is compared on all its 8 bytes: another source is another pattern. */
static void
test_copy_patterns(void **state)
{
	uint8_t sw[2][8], got[FENV_FRAME_MAX], exp[FENV_FRAME_MAX];
	struct mlx5dm_action *a1, *a2, *a3, *acts[2];
	struct mlx5dm_matcher *m;
	struct mlx5dm_rule *r;
	struct fenv *e = fenv_open(NULL);
	struct frame f;
	uint16_t len = 0;

	(void)state;
	sw_copy(sw[0], F_SIPV4, F_DIPV4, 0);
	sw_set(sw[1], F_IP_TTL, 8, 9);
	a1 = mlx5dm_action_modify_header(e->rx, 2, &sw[0][0]);
	assert_non_null(a1);
	sw_copy(sw[0], F_REG_C_0, F_DIPV4, 0);
	a2 = mlx5dm_action_modify_header(e->rx, 2, &sw[0][0]);
	assert_non_null(a2);
	assert_int_not_equal(a1->ste.modify.pattern_index, a2->ste.modify.pattern_index);
	sw_copy(sw[0], F_SIPV4, F_DIPV4, 0);
	sw_set(sw[1], F_IP_TTL, 8, 10);
	a3 = mlx5dm_action_modify_header(e->rx, 2, &sw[0][0]);
	assert_non_null(a3);
	assert_int_equal(a1->ste.modify.pattern_index, a3->ste.modify.pattern_index);
	assert_int_equal(pattern_count(e), 2);

	/* dip := sip, TTL 10 (a3's data over the shared pattern). */
	m = fenv_dmac_matcher(e->rx_tbl);
	acts[0] = a3;
	acts[1] = e->to_q[0];
	r = fenv_dmac_rule(m, MAC_C, 2, acts);
	frame_udp4(&f, MAC_C, SMAC, 0x0a000001, 0x0a000002, 1000, 2000, 6);
	memcpy(exp, frame_data(&f), f.len);
	mlx5dm_prm_put_be32(exp + 30, 0x0a000001);
	exp[22] = 10;
	ipv4_csum_set(exp + 14);
	assert_int_equal(fenv_send(e, &f, got, &len), 0);
	assert_int_equal(len, f.len);
	assert_memory_equal(got, exp, f.len);

	assert_int_equal(mlx5dm_rule_destroy(r, 0), 0);
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	assert_int_equal(mlx5dm_action_destroy(a1), 0);
	assert_int_equal(mlx5dm_action_destroy(a2), 0);
	assert_int_equal(mlx5dm_action_destroy(a3), 0);
	assert_int_equal(pattern_count(e), 0);
	fenv_close(e);
}

/* Outer Eth / IPv4 (GRE) / GRE (0x0800) / inner IPv4 / UDP; returns the inner offset. */
static unsigned int
frame_gre(struct frame *f, uint64_t dmac)
{
	uint8_t *p = frame_data(f);
	struct frame inner;

	frame_udp4(&inner, 0, 0, 0xc0a80001, 0xc0a80002, 7, 8, 5);
	memset(f->buf, 0, sizeof(f->buf));
	fenv_put_mac(p, dmac);
	fenv_put_mac(p + 6, SMAC);
	p[12] = 0x08;
	p[14] = 0x45;
	p[17] = (uint8_t)(20 + 4 + inner.len - 14);
	p[22] = 64;
	p[23] = 47;
	mlx5dm_prm_put_be32(p + 26, 0xac100001);
	mlx5dm_prm_put_be32(p + 30, 0xac100002);
	ipv4_csum_set(p + 14);
	mlx5dm_prm_put_be32(p + 34, 0x00000800);        /* GRE: no flags, IPv4 */
	memcpy(p + 38, frame_data(&inner) + 14, inner.len - 14u);
	f->len = (uint16_t)(38 + inner.len - 14);
	return 38;
}

static const uint8_t new_l2[18] = {
	0x02, 0xd0, 0xd1, 0xd2, 0xd3, 0xd4, 0x02, 0xe0, 0xe1, 0xe2, 0xe3, 0xe4,
	0x81, 0x00, 0x00, 0x64, 0x08, 0x00,
};

/* L3 decap: 6/7 actions; equal-length decap lists share one pattern. */
static void
l3_decap_run(struct fenv *e, enum mlx5dm_ste_modify_mode mode)
{
	uint8_t l2_b[14], got[FENV_FRAME_MAX];
	struct mlx5dm_action *d14, *d14b, *d18, *acts[2];
	struct mlx5dm_matcher *m;
	struct mlx5dm_rule *r14, *r18;
	struct frame f;
	unsigned int inner;
	uint16_t len = 0;

	memcpy(l2_b, new_l2, 12);
	l2_b[12] = 0x08;
	l2_b[13] = 0x00;
	d14 = mlx5dm_action_reformat(e->rx, MLX5DM_REFORMAT_L3_TUNNEL_TO_L2, 14, l2_b);
	assert_non_null(d14);
	assert_int_equal(d14->ste.modify.mode, mode);
	assert_int_equal(d14->ste.modify.num_actions, 6);
	l2_b[0] = 0x04;
	d14b = mlx5dm_action_reformat(e->rx, MLX5DM_REFORMAT_L3_TUNNEL_TO_L2, 14, l2_b);
	assert_non_null(d14b);
	d18 = mlx5dm_action_reformat(e->rx, MLX5DM_REFORMAT_L3_TUNNEL_TO_L2, 18, new_l2);
	assert_non_null(d18);
	assert_int_equal(d18->ste.modify.num_actions, 7);
	if (mode == MLX5DM_STE_MODIFY_PATTERN) {
		assert_int_equal(d14->ste.modify.pattern_index, d14b->ste.modify.pattern_index);
		assert_int_not_equal(d14->ste.modify.pattern_index, d18->ste.modify.pattern_index);
		assert_int_equal(pattern_count(e), 2);
	}

	m = fenv_dmac_matcher(e->rx_tbl);
	acts[0] = d14b;
	acts[1] = e->to_q[1];
	r14 = fenv_dmac_rule(m, MAC_A, 2, acts);
	acts[0] = d18;
	r18 = fenv_dmac_rule(m, MAC_B, 2, acts);
	inner = frame_gre(&f, MAC_A);
	assert_int_equal(fenv_send(e, &f, got, &len), 1);
	assert_int_equal(len, 14 + f.len - inner);
	assert_memory_equal(got, l2_b, 14);
	assert_memory_equal(got + 14, frame_data(&f) + inner, f.len - inner);
	inner = frame_gre(&f, MAC_B);
	assert_int_equal(fenv_send(e, &f, got, &len), 1);
	assert_int_equal(len, 18 + f.len - inner);
	assert_memory_equal(got, new_l2, 18);
	assert_memory_equal(got + 18, frame_data(&f) + inner, f.len - inner);

	assert_int_equal(mlx5dm_rule_destroy(r14, 0), 0);
	assert_int_equal(mlx5dm_rule_destroy(r18, 0), 0);
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	assert_int_equal(mlx5dm_action_destroy(d14), 0);
	assert_int_equal(mlx5dm_action_destroy(d14b), 0);
	assert_int_equal(mlx5dm_action_destroy(d18), 0);
}

static void
test_l3_decap_pattern(void **state)
{
	struct fenv *e = fenv_open(NULL);

	(void)state;
	l3_decap_run(e, MLX5DM_STE_MODIFY_PATTERN);
	assert_int_equal(pattern_count(e), 0);
	fenv_close(e);
}

/*
 * An argument holds 64 actions: a longer HW list (40 SETs of one field need
 * a NOP before each but the first: 79 actions) stays a basic list.
 */
static void
test_long_list(void **state)
{
	uint8_t sw[40][8], hw[3][8];
	struct mlx5dm_action *a, *acts[2];
	struct mlx5dm_matcher *m;
	struct mlx5dm_rule *r;
	struct fenv *e = fenv_open(NULL);
	unsigned int i;

	(void)state;
	for (i = 0; i < 40; i++)
		sw_set(sw[i], F_IP_TTL, 8, 100 + i);
	a = mlx5dm_action_modify_header(e->rx, 40, &sw[0][0]);
	assert_non_null(a);
	assert_int_equal(a->ste.modify.mode, MLX5DM_STE_MODIFY_LIST);
	assert_int_equal(a->ste.modify.num_actions, 79);
	assert_int_equal(pattern_count(e), 0);
	assert_int_equal(icm_used(e, MLX5DM_ICM_MODIFY), 128 * 8);
	m = fenv_dmac_matcher(e->rx_tbl);
	acts[0] = a;
	acts[1] = e->to_q[0];
	r = fenv_dmac_rule(m, MAC_A, 2, acts);
	/* The last SET wins; the dmac is untouched. */
	send_expect(e, MAC_A, 0, MAC_A, 139);
	assert_int_equal(mlx5dm_rule_destroy(r, 0), 0);
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	assert_int_equal(mlx5dm_action_destroy(a), 0);
	/* Next to it, a short list still takes pattern + argument. */
	a = act_dmac_ttl(e, MAC_B, 1, hw);
	assert_int_equal(a->ste.modify.mode, MLX5DM_STE_MODIFY_PATTERN);
	assert_int_equal(mlx5dm_action_destroy(a), 0);
	fenv_close(e);
}

struct thr_arg {
	struct fenv *e;
	unsigned int id;
	int failures;
};

/* Create and destroy actions of one shared pattern, each with its own data. */
static void *
pattern_thread(void *p)
{
	struct thr_arg *t = p;
	uint8_t sw[2][8];
	unsigned int i;

	for (i = 0; i < 50; i++) {
		struct mlx5dm_action *a;

		sw_set(sw[0], F_IP_TTL, 8, t->id * 100 + i);
		sw_set(sw[1], F_UDP_DPORT, 16, i);
		a = mlx5dm_action_modify_header(t->e->rx, 2, &sw[0][0]);
		if (a == NULL || a->ste.modify.mode != MLX5DM_STE_MODIFY_PATTERN ||
		    mlx5dm_action_destroy(a) != 0)
			t->failures++;
	}
	return NULL;
}

/* The cache under concurrent creators: no failure, nothing left. */
static void
test_pattern_threads(void **state)
{
	struct thr_arg t[2];
	pthread_t th[2];
	struct fenv *e = fenv_open(NULL);
	unsigned int i;

	(void)state;
	for (i = 0; i < 2; i++) {
		t[i] = (struct thr_arg){ .e = e, .id = i };
		assert_int_equal(pthread_create(&th[i], NULL, pattern_thread, &t[i]), 0);
	}
	for (i = 0; i < 2; i++) {
		assert_int_equal(pthread_join(th[i], NULL), 0);
		assert_int_equal(t[i].failures, 0);
	}
	assert_int_equal(pattern_count(e), 0);
	fenv_close(e);
}

/* A device without argument objects: basic lists in HEADER_MODIFY ICM, same traffic. */
/*
 * Many distinct patterns (a SIPV4 and a DIPV4 write of every width pair):
 * the cache's index grows, so finding a pattern reads about one bucket.
 */
static void
test_many_patterns(void **state)
{
	enum { N = 400 };
	static struct mlx5dm_action *a[N];
	struct mlx5dm_index_shape sh;
	struct fenv *e = fenv_open(NULL);
	uint8_t sw[2][8];
	unsigned int i;

	(void)state;
	for (i = 0; i < N; i++) {
		sw_set(sw[0], F_SIPV4, i % 32, 0x0a000000 + i);
		sw_set(sw[1], F_DIPV4, i / 32, 0x0b000000 + i);
		a[i] = mlx5dm_action_modify_header(e->rx, 2, &sw[0][0]);
		assert_non_null(a[i]);
	}
	assert_int_equal(pattern_count(e), N);
	mlx5dm_pattern_cache_shape(e->ctx->patterns, &sh);
	assert_int_equal(sh.count, N);
	assert_true(sh.buckets * 4u >= N);
	assert_true(sh.reads <= 2u * N);
	for (i = 0; i < N; i++)
		assert_int_equal(mlx5dm_action_destroy(a[i]), 0);
	assert_int_equal(pattern_count(e), 0);
	fenv_close(e);
}

static void
test_list_mode(void **state)
{
	uint8_t hw[3][8], got[64], act[8];
	struct mlx5dm_sim_config cfg;
	struct mlx5dm_action *a, *acts[2];
	struct mlx5dm_ctx_stats st;
	struct mlx5dm_matcher *m;
	struct mlx5dm_rule *r;
	struct fenv *e;
	uint64_t mod_base;

	(void)state;
	mlx5dm_sim_config_default(&cfg);
	cfg.header_modify_argument = false;
	e = fenv_open(&cfg);
	mod_base = mlx5dm_sim_caps(e->sim)->header_modify_sw_icm_start;
	assert_null(e->ctx->patterns);
	a = act_dmac_ttl(e, 0x02aabbccddeeull, 0x21, hw);
	assert_int_equal(a->ste.modify.mode, MLX5DM_STE_MODIFY_LIST);
	assert_int_equal(a->ste.modify.num_actions, 3);
	/* The whole list at its line of HEADER_MODIFY ICM. */
	assert_int_equal(fenv_icm_read(e, mod_base + 64ull * a->ste.modify.index, got,
					     24), 0);
	assert_memory_equal(got, hw, 24);
	assert_int_equal(icm_used(e, MLX5DM_ICM_MODIFY), 64);
	m = fenv_dmac_matcher(e->rx_tbl);
	acts[0] = a;
	acts[1] = e->to_q[1];
	r = fenv_dmac_rule(m, MAC_A, 2, acts);
	/* MODIFY_LIST: id 0x0f | #actions | 16-bit line index, in a 4-byte slot. */
	ste_action(e, r, act);
	assert_int_equal(act[0], 0x0f);
	assert_int_equal(act[1], 3);
	assert_int_equal(act[2] << 8 | act[3], a->ste.modify.index);
	send_expect(e, MAC_A, 1, 0x02aabbccddeeull, 0x21);
	assert_int_equal(mlx5dm_rule_destroy(r, 0), 0);
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	assert_int_equal(mlx5dm_action_destroy(a), 0);
	/* No pattern ICM was ever taken from the device. */
	assert_int_equal(mlx5dm_ctx_stats_get(e->ctx, &st), 0);
	assert_int_equal(st.icm[MLX5DM_ICM_PATTERN].dm_bytes, 0);
	l3_decap_run(e, MLX5DM_STE_MODIFY_LIST);
	fenv_close(e);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pattern_argument),
		cmocka_unit_test(test_copy_patterns),
		cmocka_unit_test(test_l3_decap_pattern),
		cmocka_unit_test(test_long_list),
		cmocka_unit_test(test_pattern_threads),
		cmocka_unit_test(test_list_mode),
		cmocka_unit_test(test_many_patterns),
	};

	return cmocka_run_group_tests_name("steer_feat_modify", tests, NULL, NULL);
}
