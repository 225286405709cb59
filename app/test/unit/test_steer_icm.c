/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * ICM and host memory accounting on the device model: objects of every
 * kind use the ICM types they should (steering entries, modify lists and
 * L3-decap lists, encap headers), and after deleting every rule, action,
 * matcher and table and a SW|HW|MEM sync the ICM in use per type, the
 * host allocations and (with reclaim) the device memory are back at their
 * starting values. Device configurations the library does not support
 * are refused precisely.
 */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <cmocka.h>

#include "steer_test_env.h"
#include "test_util.h"

#define F(sec, name) MLX5DM_FTE(sec, name)

enum {
	ICM_STE = 0,
	ICM_MODIFY = 1,
	ICM_PATTERN = 2,
	ICM_ENCAP = 3,
};

#define NB 200

struct objs {
	struct mlx5dm_table *t2, *ttbl;
	struct mlx5dm_action *jump, *mod, *decap3, *decap2, *encap, *push, *cnt, *tag;
	struct mlx5dm_counters *c;
	struct mlx5dm_matcher *m1, *m2, *m3, *mt;
	struct mlx5dm_rule *r1[NB], *r2[NB], *r3[NB], *rt[NB];
};

/* m2 rule i: dmac 02::01, TTL 99, 10.9.9.9 -> 10.1.0.0 + i, UDP 1000 -> 2000. */
static void
m2_key(struct fkey *k, unsigned int i)
{
	memset(k, 0, sizeof(*k));
	k->dmac = 0x020000000001ull;
	k->ttl = 99;
	k->sip = 0x0a090909;
	k->dip = 0x0a010000 + i;
	k->sport = 1000;
	k->dport = 2000;
}

static void
objs_create(struct senv *e, struct objs *o)
{
	uint8_t mask[MP_SIZE], v[MP_SIZE], list[2 * MOD_SIZE], hdr[50] = { 0 };
	static const uint8_t l2[14] = { 2, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 2, 0x08, 0x00 };
	struct mlx5dm_action *acts[3];
	unsigned int i;

	o->t2 = mlx5dm_table_create(e->rx, 2);
	o->ttbl = mlx5dm_table_create(e->tx, 1);
	assert_non_null(o->t2);
	assert_non_null(o->ttbl);
	assert_int_equal(mlx5dm_domain_set_root(e->tx, o->ttbl), 0);
	o->c = mlx5dm_counters_alloc(e->ctx, 2);
	assert_non_null(o->c);
	o->jump = mlx5dm_action_dest_table(e->rx, o->t2);
	mod_set(list, 0x0a /* TTL */, 0, 8, 99);
	mod_set(list + MOD_SIZE, 0x15 /* SIPV4 */, 0, 0, 0x0a090909);
	o->mod = mlx5dm_action_modify_header(e->rx, 2, list);
	o->decap3 = mlx5dm_action_reformat(e->rx, MLX5DM_REFORMAT_L3_TUNNEL_TO_L2, 14, l2);
	o->decap2 = mlx5dm_action_reformat(e->rx, MLX5DM_REFORMAT_L2_TUNNEL_TO_L2, 0, NULL);
	hdr[12] = 0x08;
	hdr[14] = 0x45;
	hdr[23] = 17;
	o->encap = mlx5dm_action_reformat(e->tx, MLX5DM_REFORMAT_L2_TO_L2_TUNNEL, 50, hdr);
	o->push = mlx5dm_action_push_vlan(e->tx, 0x8100u << 16 | 7);
	o->cnt = mlx5dm_action_counter(e->rx, o->c, 3);
	o->tag = mlx5dm_action_flow_tag(e->rx, 0xfeed);
	assert_non_null(o->jump);
	assert_non_null(o->mod);
	assert_non_null(o->decap3);
	assert_non_null(o->decap2);
	assert_non_null(o->encap);
	assert_non_null(o->push);
	assert_non_null(o->cnt);
	assert_non_null(o->tag);

	/* Table 1: dmac -> modify (list in ICM) + jump. */
	memset(mask, 0, sizeof(mask));
	mp_mac(mask, F(outer, dmac_47_16), 0xffffffffffffull);
	o->m1 = senv_matcher(e->tbl, 0, CRIT(outer), mask, 0);
	for (i = 0; i < NB; i++) {
		memset(v, 0, sizeof(v));
		mp_mac(v, F(outer, dmac_47_16), 0x020000000001ull + i * 0x100);
		acts[0] = o->mod;
		acts[1] = o->jump;
		o->r1[i] = senv_rule(o->m1, 0, v, 2, acts);
	}
	/* Table 2: three lookups -> counter + tag + queue. */
	fkey_mask(mask);
	o->m2 = senv_matcher(o->t2, 0, CRIT(outer), mask, 0);
	for (i = 0; i < NB; i++) {
		struct fkey k;

		m2_key(&k, i);
		fkey_value(&k, v);
		acts[0] = o->cnt;
		acts[1] = o->tag;
		acts[2] = e->to_q[i % SENV_NB_RQ];
		o->r2[i] = senv_rule(o->m2, 0, v, 3, acts);
	}
	/* Table 2, lower priority: VXLAN VNI -> L2 decap, GRE key -> L3 decap. */
	memset(mask, 0, sizeof(mask));
	mp_set(mask, F(misc, vxlan_vni), 0xffffff);
	mp_set(mask, F(misc, gre_key_l), 0xff);
	mp_set(mask, F(misc, gre_k_present), 1);
	o->m3 = senv_matcher(o->t2, 1, CRIT(misc), mask, 0);
	for (i = 0; i < NB; i++) {
		memset(v, 0, sizeof(v));
		if (i % 2)
			mp_set(v, F(misc, vxlan_vni), i);
		else
			mp_set(v, F(misc, gre_k_present), 1);
		mp_set(v, F(misc, gre_key_l), i);
		acts[0] = i % 2 ? o->decap2 : o->decap3;
		acts[1] = e->to_q[0];
		o->r3[i] = senv_rule(o->m3, 0, v, 2, acts);
	}
	/* NIC TX: dmac -> push VLAN + encap. */
	memset(mask, 0, sizeof(mask));
	mp_mac(mask, F(outer, dmac_47_16), 0xffffffffffffull);
	o->mt = senv_matcher(o->ttbl, 0, CRIT(outer), mask, 0);
	for (i = 0; i < NB; i++) {
		memset(v, 0, sizeof(v));
		mp_mac(v, F(outer, dmac_47_16), 0x0e0000000000ull + i);
		acts[0] = o->push;
		acts[1] = o->encap;
		o->rt[i] = senv_rule(o->mt, 0, v, 2, acts);
	}
}

static void
objs_destroy(struct senv *e, struct objs *o)
{
	unsigned int i;

	for (i = 0; i < NB; i++) {
		assert_int_equal(mlx5dm_rule_destroy(o->r1[i], 0), 0);
		assert_int_equal(mlx5dm_rule_destroy(o->r2[i], 0), 0);
		assert_int_equal(mlx5dm_rule_destroy(o->r3[i], 0), 0);
		assert_int_equal(mlx5dm_rule_destroy(o->rt[i], 0), 0);
	}
	assert_int_equal(mlx5dm_matcher_destroy(o->m1), 0);
	assert_int_equal(mlx5dm_matcher_destroy(o->m2), 0);
	assert_int_equal(mlx5dm_matcher_destroy(o->m3), 0);
	assert_int_equal(mlx5dm_matcher_destroy(o->mt), 0);
	DESTROY_ACTIONS(o->jump, o->mod, o->decap3, o->decap2, o->encap, o->push, o->cnt, o->tag);
	assert_int_equal(mlx5dm_counters_free(o->c), 0);
	assert_int_equal(mlx5dm_domain_set_root(e->tx, NULL), 0);
	assert_int_equal(mlx5dm_table_destroy(o->t2), 0);
	assert_int_equal(mlx5dm_table_destroy(o->ttbl), 0);
}

static void
test_icm_every_type(void **state)
{
	struct mlx5dm_ctx_stats st0, mid, st1;
	struct senv *e;
	struct objs *o = calloc(1, sizeof(*o));
	long host0 = 0;
	unsigned int round;

	(void)state;
	assert_non_null(o);
	test_alloc_count_install();
	e = senv_open(1);
	senv_sync(e);
	st0 = senv_stats(e);
	for (round = 0; round < 3; round++) {
		struct frame f;
		struct rx got;
		struct pkt p;

		objs_create(e, o);
		mid = senv_stats(e);
		assert_true(mid.icm[ICM_STE].used_bytes > st0.icm[ICM_STE].used_bytes);
		assert_true(mid.icm[ICM_ENCAP].used_bytes > st0.icm[ICM_ENCAP].used_bytes);
		/*
		 * The default model has argument objects, so modify lists are
		 * pattern + argument: the pattern area fills, the plain
		 * modify-list area stays unused.
		 */
		assert_true(mid.icm[ICM_PATTERN].used_bytes > st0.icm[ICM_PATTERN].used_bytes);
		assert_int_equal(mid.icm[ICM_MODIFY].used_bytes, st0.icm[ICM_MODIFY].used_bytes);
		assert_int_equal(mid.rules, st0.rules + 4 * NB);
		assert_int_equal(mid.matchers, st0.matchers + 4);
		assert_int_equal(mid.tables, st0.tables + 2);
		/* The objects work: table 1 rewrites TTL and source, table 2 matches them. */
		pkt_udp4(&p);
		p.o.dmac = 0x020000000001ull;
		p.o.dip = 0x0a010000 + 7;
		frame_build(&f, &p);
		assert_int_equal(senv_send(e, &f, &got), 7 % SENV_NB_RQ);
		assert_int_equal(got.flow_tag, 0xfeed);
		objs_destroy(e, o);
		senv_sync(e);
		st1 = senv_stats(e);
		assert_icm_equal(&st0, &st1);
		assert_int_equal(st1.rules, st0.rules);
		assert_int_equal(st1.matchers, st0.matchers);
		assert_int_equal(st1.tables, st0.tables);
		/*
		 * Pools keep their device memory (and its host bookkeeping) for
		 * reuse, so the first round may end above the start; later
		 * rounds must end exactly where the first one did.
		 */
		if (round == 0)
			host0 = test_alloc_live();
		else if (test_alloc_live() != host0)
			fail_msg("round %u: %ld host allocations alive, %ld after round 0", round,
				 test_alloc_live(), host0);
	}
	senv_close(e);
	assert_int_equal(test_alloc_live(), 0);
	free(o);
}

/*
 * Device memory left empty after a sync: kept for reuse by default, given
 * back to the device with reclaim. The modify-pattern and encap pools get
 * their first DM with their first action, so their DM bytes can go back
 * to where they were.
 */
static void
test_icm_reclaim(void **state)
{
	static const unsigned int types[2] = { ICM_PATTERN, ICM_ENCAP };
	unsigned int reclaim, i;

	(void)state;
	for (reclaim = 0; reclaim < 2; reclaim++) {
		struct mlx5dm_ctx_attr cattr = { .nb_queues = 1, .reclaim_icm = reclaim == 1 };
		struct mlx5dm_ctx_stats st0, mid, st1;
		struct mlx5dm_action *a[3];
		uint8_t list[4 * MOD_SIZE], hdr[64] = { 0 };
		struct senv *e = senv_open_ex(&cattr, NULL);

		senv_sync(e);
		st0 = senv_stats(e);
		mod_set(list, 0x0a, 0, 8, 1);
		mod_set(list + MOD_SIZE, 0x15, 0, 0, 2);
		mod_set(list + 2 * MOD_SIZE, 0x16, 0, 0, 3);
		mod_set(list + 3 * MOD_SIZE, 0x04, 0, 0, 4);
		a[0] = mlx5dm_action_modify_header(e->rx, 4, list);
		a[1] = mlx5dm_action_modify_header(e->tx, 2, list);
		a[2] = mlx5dm_action_reformat(e->tx, MLX5DM_REFORMAT_L2_TO_L2_TUNNEL, 64, hdr);
		for (i = 0; i < 3; i++)
			assert_non_null(a[i]);
		mid = senv_stats(e);
		for (i = 0; i < 2; i++) {
			assert_true(mid.icm[types[i]].used_bytes > st0.icm[types[i]].used_bytes);
			assert_true(mid.icm[types[i]].dm_bytes > st0.icm[types[i]].dm_bytes);
		}
		for (i = 0; i < 3; i++)
			assert_int_equal(mlx5dm_action_destroy(a[i]), 0);
		senv_sync(e);
		st1 = senv_stats(e);
		assert_icm_equal(&st0, &st1);
		for (i = 0; i < 2; i++) {
			uint64_t want = reclaim ? st0.icm[types[i]].dm_bytes :
					mid.icm[types[i]].dm_bytes;

			if (st1.icm[types[i]].dm_bytes != want)
				fail_msg("ICM type %u, reclaim %u: %llu DM bytes, expected %llu",
					 types[i], reclaim,
					 (unsigned long long)st1.icm[types[i]].dm_bytes,
					 (unsigned long long)want);
		}
		senv_close(e);
	}
}

/* What the library does not support is refused with the reason. */
static void
test_unsupported_devices(void **state)
{
	struct mlx5dm_dev_attr dattr = { .transport = "sim" };
	struct mlx5dm_ctx_attr cattr = { .nb_queues = 1 };
	struct mlx5dm_sim_config cfg;
	struct mlx5dm_ctx_stats st;
	struct mlx5dm_action *a;
	struct mlx5dm_dev *dev;
	uint8_t hdr[14] = { 0 };
	struct senv *e;

	(void)state;
	/* STE formats other than v1 (ConnectX-5, -7, -8). */
	mlx5dm_sim_config_default(&cfg);
	cfg.steering_format_version = 2;
	dattr.config = &cfg;
	dev = mlx5dm_dev_open(&dattr);
	assert_non_null(dev);
	test_log_start();
	assert_null(mlx5dm_ctx_open(dev, &cattr));
	assert_int_equal(errno, ENOTSUP);
	assert_string_equal(test_log_last(), "steer: steering_format_version 2 (ConnectX-7): "
			    "only 1 (ConnectX-6 Dx, STE v1) is implemented");
	test_log_stop();
	mlx5dm_dev_close(dev);

	/*
	 * No ENCAP SW ICM: the header goes into a firmware reformat context
	 * and the encap still works on the wire.
	 */
	mlx5dm_sim_config_default(&cfg);
	cfg.log_indirect_encap_sw_icm_size = 0;
	e = senv_open_cfg(1, &cfg);
	st = senv_stats(e);
	a = mlx5dm_action_reformat(e->tx, MLX5DM_REFORMAT_L2_TO_L2_TUNNEL, 14, hdr);
	assert_non_null(a);
	assert_int_equal(senv_stats(e).icm[ICM_ENCAP].used_bytes, st.icm[ICM_ENCAP].used_bytes);
	assert_int_equal(mlx5dm_action_destroy(a), 0);
	test_log_start();
	/* FDB domains. */
	assert_null(mlx5dm_domain_create(e->ctx, MLX5DM_DOMAIN_FDB));
	assert_int_equal(errno, ENOTSUP);
	assert_string_equal(test_log_last(),
			    "steer: FDB: the device manages no e-switch with SW-owned FDB tables");
	test_log_stop();
	senv_close(e);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_icm_every_type),
		cmocka_unit_test(test_icm_reclaim),
		cmocka_unit_test(test_unsupported_devices),
	};

	return cmocka_run_group_tests_name("steer_icm", tests, NULL, NULL);
}
