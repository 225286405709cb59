/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Statistics of matchers, tables, domains and the context on the device
 * model. The matcher figures the library keeps as tables change are checked
 * against a walk of its internal structures (every chain, slot and
 * collision entry) through insertions, growths (synchronous and
 * incremental) and deletions; table and domain sums against what the test
 * created; the context's object counts against the actions alive; a rule
 * rewritten in place steering the next frame.
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

#include "mlx5dm_prm_match.h"
#include "mlx5dm_steer_priv.h"
#include "steer_feat_env.h"

#define MAC(i) (0x020000000100ull + (i))

/* Walk a chain (and what hangs below its entries), as the stats would be without counters. */
static void
walk_chain(const struct mlx5dm_htbl *head, struct mlx5dm_matcher_stats *w)
{
	const struct mlx5dm_htbl *t;
	const struct mlx5dm_ste *s;
	uint32_t i;

	for (t = head; t != NULL; t = t->chain_next) {
		w->tables++;
		w->entries += t->num_entries;
		if (head->chain_next != NULL)
			w->chained_tables++;
		for (i = 0; i < t->num_entries; i++) {
			const struct mlx5dm_ste *head = mlx5dm_htbl_slot(t, i);

			if (head != NULL)
				w->used++;
			for (s = head; s != NULL; s = s->next_col) {
				if (s != head)
					w->collisions++;
				if (mlx5dm_ste_next_htbl(s) != NULL)
					walk_chain(s->next_htbl, w);
			}
		}
		if (t->growing != NULL) {
			w->tables++;
			w->entries += t->growing->num_entries;
			w->growing++;
		}
	}
}

/* The library's figures equal the walk's. */
static void
check_matcher(struct mlx5dm_matcher *m, uint64_t rules, struct mlx5dm_matcher_stats *st)
{
	struct mlx5dm_matcher_stats w;

	memset(&w, 0, sizeof(w));
	walk_chain(m->first, &w);
	assert_int_equal(mlx5dm_matcher_stats_get(m, st), 0);
	assert_int_equal(st->rules, rules);
	assert_int_equal(st->tables, w.tables);
	assert_int_equal(st->entries, w.entries);
	assert_int_equal(st->used, w.used);
	assert_int_equal(st->collisions, w.collisions);
	assert_int_equal(st->chained_tables, w.chained_tables);
	assert_int_equal(st->growing, w.growing);
}

/* dmac + IPv4 source: two lookups, rules sharing a dmac share the first-level entry. */
static struct mlx5dm_matcher *
two_level_matcher(struct fenv *e)
{
	uint8_t mask[MLX5DM_MATCH_PARAM_SIZE] = { 0 };
	struct mlx5dm_matcher_attr ma = { .criteria = 1, .mask = mask };
	struct mlx5dm_matcher *m;

	fenv_mask_dmac(mask);
	mlx5dm_fte_set(mask, MLX5DM_FTE(outer, ip_version), 4);
	mlx5dm_fte_set(mask, MLX5DM_FTE(outer, src_ip_31_0), 0xffffffff);
	m = mlx5dm_matcher_create(e->rx_tbl, &ma, NULL);
	assert_non_null(m);
	assert_true(m->nb_builders >= 2);
	return m;
}

static struct mlx5dm_rule *
two_level_rule(struct fenv *e, struct mlx5dm_matcher *m, unsigned int i)
{
	uint8_t v[MLX5DM_MATCH_PARAM_SIZE] = { 0 };
	struct mlx5dm_rule *r;

	fenv_value_dmac(v, MAC(i % 4));
	mlx5dm_fte_set(v, MLX5DM_FTE(outer, ip_version), 4);
	mlx5dm_fte_set(v, MLX5DM_FTE(outer, src_ip_31_0), 0x0a000000 + i);
	r = mlx5dm_rule_create(m, (uint16_t)(i & 1), v, 1, &e->to_q[i & 1]);
	assert_non_null(r);
	return r;
}

#define N_RULES 300

static void
test_matcher_counts(void **state)
{
	static struct mlx5dm_rule *r[N_RULES];
	struct mlx5dm_matcher_stats st;
	struct mlx5dm_ctx_stats cs;
	struct mlx5dm_matcher *m;
	struct fenv *e = fenv_open(NULL);
	struct frame f;
	bool chained_seen = false;
	unsigned int i;

	(void)state;
	m = two_level_matcher(e);
	/*
	 * Empty: one first-level table (no size hint) of a slot per shard (the
	 * context has two queues).
	 */
	check_matcher(m, 0, &st);
	assert_int_equal(st.tables, 1);
	assert_int_equal(st.entries, MLX5DM_MATCHER_SHARDS);
	assert_int_equal(st.used + st.collisions + st.chained_tables + st.growths, 0);
	/* One rule: its first-level entry and a one-slot table below it. */
	r[0] = two_level_rule(e, m, 0);
	check_matcher(m, 1, &st);
	assert_int_equal(st.tables, 2);
	assert_int_equal(st.entries, MLX5DM_MATCHER_SHARDS + 1);
	assert_int_equal(st.used, 2);
	assert_int_equal(st.collisions, 0);
	for (i = 1; i < N_RULES; i++) {
		r[i] = two_level_rule(e, m, i);
		if (i % 37 == 0)
			check_matcher(m, i + 1, &st);
		assert_int_equal(mlx5dm_matcher_stats_get(m, &st), 0);
		/* Two tables at most per chain: chained ones come in pairs. */
		assert_int_equal(st.chained_tables % 2, 0);
		chained_seen |= st.chained_tables > 0;
	}
	assert_int_equal(mlx5dm_queue_drain(e->ctx, 0), 0);
	assert_int_equal(mlx5dm_queue_drain(e->ctx, 1), 0);
	check_matcher(m, N_RULES, &st);
	/* 4 first-level entries; each rule ends in its own second-level entry. */
	assert_int_equal(st.used + st.collisions, 4 + N_RULES);
	assert_true(st.growths > 0);
	assert_true(chained_seen);
	assert_int_equal(mlx5dm_ctx_stats_get(e->ctx, &cs), 0);
	assert_int_equal(cs.rehash - e->start.rehash, st.growths);
	assert_int_equal(cs.rules, N_RULES);
	/* The rules still steer. */
	frame_udp4(&f, MAC(3), 0x02000000aaaaull, 0x0a000000 + 7, 0x0a0000ff, 1, 2, 4);
	assert_int_equal(fenv_send(e, &f, NULL, NULL), 1);

	/* Delete every other rule, then the rest: back to the empty figures, chains kept. */
	for (i = 0; i < N_RULES; i += 2)
		assert_int_equal(mlx5dm_rule_destroy(r[i], 0), 0);
	check_matcher(m, N_RULES / 2, &st);
	/* The odd rules are left: dmacs 1 and 3 only. */
	assert_int_equal(st.used + st.collisions, 2 + N_RULES / 2);
	for (i = 1; i < N_RULES; i += 2)
		assert_int_equal(mlx5dm_rule_destroy(r[i], 1), 0);
	check_matcher(m, 0, &st);
	assert_int_equal(st.used, 0);
	assert_int_equal(st.collisions, 0);
	assert_true(st.growths > 0);
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	fenv_close(e);
}

/* Each rule queue's rules and ring; the counter bulks of the context. */
static void
test_queue_counters(void **state)
{
	static struct mlx5dm_rule *r[10];
	struct mlx5dm_queue_stats q0, q1, q;
	struct mlx5dm_counters *c;
	struct mlx5dm_ctx_stats cs;
	struct mlx5dm_matcher *m;
	struct fenv *e = fenv_open(NULL);
	unsigned int i;

	(void)state;
	assert_int_equal(mlx5dm_ctx_stats_get(e->ctx, &cs), 0);
	assert_int_equal(cs.queues, FENV_QUEUES);
	assert_int_equal(mlx5dm_queue_stats_get(e->ctx, 0, &q0), 0);
	assert_int_equal(mlx5dm_queue_stats_get(e->ctx, 1, &q1), 0);
	assert_int_equal(mlx5dm_queue_stats_get(e->ctx, FENV_QUEUES, &q), -EINVAL);
	assert_int_equal(mlx5dm_queue_stats_get(e->ctx, 0, NULL), -EINVAL);
	assert_true(q0.size > 0);
	m = two_level_matcher(e);
	/* Rules 0, 2, ... on queue 0, 1, 3, ... on queue 1. */
	for (i = 0; i < 10; i++)
		r[i] = two_level_rule(e, m, i);
	assert_int_equal(mlx5dm_queue_drain(e->ctx, 0), 0);
	assert_int_equal(mlx5dm_queue_stats_get(e->ctx, 0, &q), 0);
	assert_int_equal(q.rules - q0.rules, 5);
	assert_true(q.wqes > q0.wqes);
	assert_true(q.write_bytes > q0.write_bytes);
	assert_true(q.doorbells > q0.doorbells);
	assert_true(q.cqes > q0.cqes);
	assert_int_equal(q.outstanding, 0);     /* drained */
	assert_int_equal(q.unrung, 0);
	assert_int_equal(q.error, 0);
	assert_int_equal(q.err_syndrome, 0);
	assert_int_equal(q.size, q0.size);
	/* Destroyed through the other queue: queue 0 goes below what it created. */
	for (i = 0; i < 10; i++)
		assert_int_equal(mlx5dm_rule_destroy(r[i], 1), 0);
	assert_int_equal(mlx5dm_queue_stats_get(e->ctx, 0, &q), 0);
	assert_int_equal(q.rules - q0.rules, 5);
	assert_int_equal(mlx5dm_queue_stats_get(e->ctx, 1, &q), 0);
	assert_int_equal(q.rules - q1.rules, -5);
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);

	c = mlx5dm_counters_alloc(e->ctx, 4);
	assert_non_null(c);
	assert_int_equal(mlx5dm_ctx_stats_get(e->ctx, &cs), 0);
	assert_int_equal(cs.counter_bulks - e->start.counter_bulks, 1);
	assert_int_equal(mlx5dm_counters_free(c), 0);
	assert_int_equal(mlx5dm_ctx_stats_get(e->ctx, &cs), 0);
	assert_int_equal(cs.counter_bulks, e->start.counter_bulks);
	fenv_close(e);
}

/* A large first level grows a slice at a time: "growing" while it fills. */
static void
test_incremental_growth(void **state)
{
	uint8_t mask[MLX5DM_MATCH_PARAM_SIZE] = { 0 };
	struct mlx5dm_matcher_attr ma = { .criteria = 1, .mask = mask, .log_rules_hint = 10 };
	struct mlx5dm_rule **r = calloc(8192, sizeof(*r));
	struct mlx5dm_matcher_stats st;
	struct mlx5dm_matcher *m;
	struct fenv *e = fenv_open(NULL);
	unsigned int n = 0, i;
	bool seen_growing = false;

	(void)state;
	assert_non_null(r);
	fenv_mask_dmac(mask);
	m = mlx5dm_matcher_create(e->rx_tbl, &ma, NULL);
	assert_non_null(m);
	check_matcher(m, 0, &st);
	assert_int_equal(st.entries, 1024);
	while (n < 8192) {
		r[n] = fenv_dmac_rule(m, MAC(n), 1, &e->to_q[0]);
		n++;
		check_matcher(m, n, &st);
		if (st.growing != 0 && !seen_growing) {
			/* The old table plus a four times larger one, not yet reachable. */
			seen_growing = true;
			assert_int_equal(st.tables, 2);
			assert_int_equal(st.entries, 1024 + 4096);
			assert_int_equal(st.chained_tables, 0);
			assert_int_equal(st.growths, 0);
		}
		if (seen_growing && st.growing == 0)
			break;
	}
	assert_true(seen_growing);
	assert_int_equal(st.growths, 1);
	assert_int_equal(st.tables, 2);
	assert_int_equal(st.chained_tables, 2);
	assert_int_equal(st.used + st.collisions, n);
	for (i = 0; i < n; i++)
		assert_int_equal(mlx5dm_rule_destroy(r[i], 0), 0);
	check_matcher(m, 0, &st);
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	free(r);
	fenv_close(e);
}

/*
 * A matcher that reserves the records of its rules when it is made takes
 * no huge region from the allocator while it is filled to that count (one
 * that does not reserve them does), and the reserve goes with it. One
 * reserving a few rules takes no huge region at all: they fit the heap's
 * first blocks.
 */
static void
test_sized_matcher_reserve(void **state)
{
	const unsigned int log_n = 15, n = 1u << log_n;
	uint8_t mask[MLX5DM_MATCH_PARAM_SIZE] = { 0 };
	struct mlx5dm_matcher_attr ma = { .criteria = 1, .mask = mask };
	struct mlx5dm_rule **r = calloc(n, sizeof(*r));
	struct mlx5dm_matcher_stats st;
	uint64_t held0, held1, rec;
	struct mlx5dm_matcher *m;
	struct fenv *e = fenv_open(NULL);
	unsigned int sized, i;

	(void)state;
	assert_non_null(r);
	fenv_mask_dmac(mask);
	for (sized = 0; sized < 2; sized++) {
		ma.log_rules_hint = log_n;
		ma.rules_reserve = sized ? n : 0;
		held0 = mlx5dm_huge_bytes();
		m = mlx5dm_matcher_create(e->rx_tbl, &ma, NULL);
		assert_non_null(m);
		held1 = mlx5dm_huge_bytes();
		rec = m->shards[0].rule_slab[0].obj_size;
		if (sized)
			assert_true(held1 - held0 >= rec * n);
		else
			assert_true(held1 == held0);
		for (i = 0; i < n; i++) {
			r[i] = fenv_dmac_rule(m, MAC(i), 1, &e->to_q[0]);
			assert_non_null(r[i]);
		}
		check_matcher(m, n, &st);
		/* n records are more than 16 shards' first heap blocks hold. */
		if (sized)
			assert_true(mlx5dm_huge_bytes() == held1);
		else
			assert_true(mlx5dm_huge_bytes() > held1);
		for (i = 0; i < n; i++)
			assert_int_equal(mlx5dm_rule_destroy(r[i], 0), 0);
		assert_int_equal(mlx5dm_matcher_destroy(m), 0);
		assert_true(mlx5dm_huge_bytes() == held0);
	}
	ma.log_rules_hint = 4;
	ma.rules_reserve = 16;
	m = mlx5dm_matcher_create(e->rx_tbl, &ma, NULL);
	assert_non_null(m);
	assert_true(mlx5dm_huge_bytes() == held0);
	for (i = 0; i < 16; i++) {
		r[i] = fenv_dmac_rule(m, MAC(i), 1, &e->to_q[0]);
		assert_non_null(r[i]);
	}
	check_matcher(m, 16, &st);
	for (i = 0; i < 16; i++)
		assert_int_equal(mlx5dm_rule_destroy(r[i], 0), 0);
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	free(r);
	fenv_close(e);
}

/* Table and domain sums, and the context's device objects behind actions. */
static void
test_table_domain_ctx(void **state)
{
	uint8_t sw[2][8], hdr[50] = { 0 };
	struct mlx5dm_action *mod, *encap, *jump;
	struct mlx5dm_rule *r[6];
	struct mlx5dm_matcher *m1, *m2, *m3;
	struct mlx5dm_sim_config cfg;
	struct mlx5dm_domain_stats ds;
	struct mlx5dm_table_stats ts;
	struct mlx5dm_ctx_stats cs;
	struct mlx5dm_table *t2;
	struct fenv *e;
	unsigned int i;

	(void)state;
	mlx5dm_sim_config_default(&cfg);
	cfg.log_indirect_encap_sw_icm_size = 0;
	e = fenv_open(&cfg);
	assert_int_equal(mlx5dm_domain_stats_get(e->rx, &ds), 0);
	assert_int_equal(ds.tables, 1);
	assert_int_equal(ds.matchers + ds.rules, 0);
	assert_int_equal(ds.actions, FENV_QUEUES);
	t2 = mlx5dm_table_create(e->rx, 2);
	assert_non_null(t2);
	jump = mlx5dm_action_dest_table(e->rx, t2);
	assert_non_null(jump);
	m1 = fenv_dmac_matcher(e->rx_tbl);
	m2 = two_level_matcher(e);
	m3 = fenv_dmac_matcher(t2);
	for (i = 0; i < 3; i++)
		r[i] = fenv_dmac_rule(m1, MAC(i), 1, &jump);
	r[3] = two_level_rule(e, m2, 10);
	r[4] = two_level_rule(e, m2, 11);
	r[5] = fenv_dmac_rule(m3, MAC(0), 1, &e->to_q[1]);
	assert_int_equal(mlx5dm_table_stats_get(e->rx_tbl, &ts), 0);
	assert_int_equal(ts.matchers, 2);
	assert_int_equal(ts.rules, 5);
	assert_int_equal(mlx5dm_table_stats_get(t2, &ts), 0);
	assert_int_equal(ts.matchers, 1);
	assert_int_equal(ts.rules, 1);
	assert_int_equal(mlx5dm_domain_stats_get(e->rx, &ds), 0);
	assert_int_equal(ds.tables, 2);
	assert_int_equal(ds.matchers, 3);
	assert_int_equal(ds.rules, 6);
	assert_int_equal(ds.actions, FENV_QUEUES + 1);
	assert_int_equal(mlx5dm_domain_stats_get(e->tx, &ds), 0);
	assert_int_equal(ds.tables, 1);
	assert_int_equal(ds.matchers + ds.rules + ds.actions, 0);
	{
		struct frame f;

		/* Through the jump into t2, then queue 1. */
		frame_udp4(&f, MAC(0), 0x02000000aaaaull, 1, 2, 3, 4, 8);
		assert_int_equal(fenv_send(e, &f, NULL, NULL), 1);
	}

	/* Device objects behind actions: a pattern and an argument, a reformat context. */
	assert_int_equal(mlx5dm_ctx_stats_get(e->ctx, &cs), 0);
	assert_int_equal(cs.modify_patterns + cs.modify_args + cs.reformat_contexts, 0);
	assert_int_equal(cs.tables, 3);
	assert_int_equal(cs.matchers, 3);
	assert_int_equal(cs.rules, 6);
	memset(sw, 0, sizeof(sw));
	mlx5dm_prm_set(sw[0], 0x000, 4, 1);             /* SET TTL 9, SET UDP dport 7 */
	mlx5dm_prm_set(sw[0], 0x004, 12, 0x0a);
	mlx5dm_prm_set(sw[0], 0x01b, 5, 8);
	mlx5dm_prm_set(sw[0], 0x020, 32, 9);
	mlx5dm_prm_set(sw[1], 0x000, 4, 1);
	mlx5dm_prm_set(sw[1], 0x004, 12, 0x0c);
	mlx5dm_prm_set(sw[1], 0x01b, 5, 16);
	mlx5dm_prm_set(sw[1], 0x020, 32, 7);
	mod = mlx5dm_action_modify_header(e->rx, 2, &sw[0][0]);
	assert_non_null(mod);
	hdr[12] = 0x08;
	encap = mlx5dm_action_reformat(e->tx, MLX5DM_REFORMAT_L2_TO_L2_TUNNEL, sizeof(hdr), hdr);
	assert_non_null(encap);
	assert_int_equal(mlx5dm_ctx_stats_get(e->ctx, &cs), 0);
	assert_int_equal(cs.modify_patterns, 1);
	assert_int_equal(cs.modify_args, 1);
	assert_int_equal(cs.reformat_contexts, 1);
	assert_int_equal(cs.icm[MLX5DM_ICM_PATTERN].used_bytes -
			 e->start.icm[MLX5DM_ICM_PATTERN].used_bytes, 64);
	assert_true(cs.wqes > e->start.wqes);
	assert_true(cs.write_bytes > e->start.write_bytes);
	assert_int_equal(mlx5dm_domain_stats_get(e->tx, &ds), 0);
	assert_int_equal(ds.actions, 1);
	assert_int_equal(mlx5dm_action_destroy(mod), 0);
	assert_int_equal(mlx5dm_action_destroy(encap), 0);
	assert_int_equal(mlx5dm_ctx_stats_get(e->ctx, &cs), 0);
	assert_int_equal(cs.modify_patterns + cs.modify_args + cs.reformat_contexts, 0);

	for (i = 0; i < 6; i++)
		assert_int_equal(mlx5dm_rule_destroy(r[i], 0), 0);
	assert_int_equal(mlx5dm_table_stats_get(e->rx_tbl, &ts), 0);
	assert_int_equal(ts.rules, 0);
	assert_int_equal(mlx5dm_matcher_destroy(m1), 0);
	assert_int_equal(mlx5dm_matcher_destroy(m2), 0);
	assert_int_equal(mlx5dm_matcher_destroy(m3), 0);
	assert_int_equal(mlx5dm_action_destroy(jump), 0);
	assert_int_equal(mlx5dm_table_destroy(t2), 0);
	assert_int_equal(mlx5dm_domain_stats_get(e->rx, &ds), 0);
	assert_int_equal(ds.tables, 1);
	assert_int_equal(ds.matchers + ds.rules, 0);
	/* Bad arguments. */
	assert_int_equal(mlx5dm_matcher_stats_get(NULL, NULL), -EINVAL);
	assert_int_equal(mlx5dm_table_stats_get(e->rx_tbl, NULL), -EINVAL);
	assert_int_equal(mlx5dm_domain_stats_get(NULL, &ds), -EINVAL);
	fenv_close(e);
}

/*
 * A rule written again in place (destroyed, and created for the same
 * match: the same line of the same table) decides the fate of the very
 * next frame: the device thread keeps the STEs it decoded, and any write
 * to their lines is seen at once.
 */
static void
test_rewrite_in_place(void **state)
{
	struct mlx5dm_matcher *m;
	struct mlx5dm_rule *r;
	struct fenv *e = fenv_open(NULL);
	struct frame f;
	uint64_t line;
	unsigned int i, k;

	(void)state;
	m = fenv_dmac_matcher(e->rx_tbl);
	frame_udp4(&f, MAC(1), 0x02000000aaaaull, 0x0a000001, 0x0a000002, 1, 2, 4);
	r = fenv_dmac_rule(m, MAC(1), 1, &e->to_q[0]);
	assert_int_equal(mlx5dm_queue_drain(e->ctx, 0), 0);
	line = mlx5dm_ste_icm(mlx5dm_rule_last(r));
	for (k = 0; k < 4; k++)
		assert_int_equal(fenv_send(e, &f, NULL, NULL), 0);
	for (i = 1; i <= 6; i++) {
		assert_int_equal(mlx5dm_rule_destroy(r, 0), 0);
		assert_int_equal(mlx5dm_queue_drain(e->ctx, 0), 0);
		/* Gone: the frame misses the table (the domain's default drops it). */
		assert_int_equal(fenv_send(e, &f, NULL, NULL), -1);
		r = fenv_dmac_rule(m, MAC(1), 1, &e->to_q[i % 2]);
		assert_int_equal(mlx5dm_queue_drain(e->ctx, 0), 0);
		assert_int_equal(mlx5dm_ste_icm(mlx5dm_rule_last(r)), line);
		for (k = 0; k < 4; k++)
			assert_int_equal(fenv_send(e, &f, NULL, NULL), (int)(i % 2));
	}
	assert_int_equal(mlx5dm_rule_destroy(r, 0), 0);
	assert_int_equal(mlx5dm_queue_drain(e->ctx, 0), 0);
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	fenv_close(e);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rewrite_in_place),
		cmocka_unit_test(test_matcher_counts),
		cmocka_unit_test(test_incremental_growth),
		cmocka_unit_test(test_sized_matcher_reserve),
		cmocka_unit_test(test_table_domain_ctx),
		cmocka_unit_test(test_queue_counters),
	};

	return cmocka_run_group_tests_name("steer_feat_stats", tests, NULL, NULL);
}
