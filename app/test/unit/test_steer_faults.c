/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * "A failed call leaves no state behind", on the device model: every host
 * allocation of an operation is made to fail in turn (mlx5dm_alloc_fail_at)
 * and afterwards the ICM in use, the live host allocations and the object
 * counts are what they were, the rules already there still forward, and
 * the operation works once allocations succeed again. An operation may
 * also succeed despite the failure (a postponed table growth); then it
 * must be complete.
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

#include "mlx5dm_osdep.h"
#include "mlx5dm_prm_res.h"
#include "mlx5dm_res.h"
#include "mlx5dm_send_priv.h"
#include "mlx5dm_sim_core.h"
#include "mlx5dm_sim_priv.h"
#include "mlx5dm_steer_priv.h"
#include "steer_test_env.h"
#include "test_util.h"

#define F(sec, name) MLX5DM_FTE(sec, name)

struct fenv {
	struct senv *e;
	struct mlx5dm_matcher *m;        /* dmac | TTL | 5-tuple */
	struct mlx5dm_rule *base;        /* a rule that must keep working */
	struct mlx5dm_action *tag, *mod, *push, *cnt;
	struct mlx5dm_counters *c;
	struct mlx5dm_table *t2;
	struct mlx5dm_table *t_alt;      /* another entry table */
};

/* Key i of the matcher; the frame that hits it. */
static void
ml_key(uint32_t i, uint8_t *v, struct frame *f)
{
	struct fkey k = {
		.dmac = 0x020000000000ull + (i & 0xff), .ttl = (uint8_t)(64 + ((i >> 8) & 3)),
		.sip = 0x0a000001, .dip = 0x0a000000 + i, .sport = 1000,
		.dport = (uint16_t)(2000 + (i >> 10)),
	};

	fkey_value(&k, v);
	fkey_frame(&k, f);
}

static void
fenv_open(struct fenv *fe)
{
	uint8_t mask[MP_SIZE], v[MP_SIZE], list[2 * MOD_SIZE];
	struct frame f;

	memset(fe, 0, sizeof(*fe));
	test_alloc_count_install();
	fe->e = senv_open(1);
	fkey_mask(mask);
	fe->m = senv_matcher(fe->e->tbl, 0, CRIT(outer), mask, 0);
	ml_key(0, v, &f);
	fe->base = senv_rule(fe->m, 0, v, 1, &fe->e->to_q[3]);
	fe->tag = mlx5dm_action_flow_tag(fe->e->rx, 0x77);
	mod_set(list, 0x0a, 0, 8, 9);
	mod_set(list + MOD_SIZE, 0x16, 0, 0, 0x0b0b0b0b);
	fe->mod = mlx5dm_action_modify_header(fe->e->rx, 2, list);
	fe->push = mlx5dm_action_push_vlan(fe->e->rx, 0x8100u << 16 | 5);
	fe->c = mlx5dm_counters_alloc(fe->e->ctx, 0);
	assert_non_null(fe->c);
	fe->cnt = mlx5dm_action_counter(fe->e->rx, fe->c, 0);
	fe->t2 = mlx5dm_table_create(fe->e->rx, 2);
	fe->t_alt = mlx5dm_table_create(fe->e->rx, 5);
	assert_non_null(fe->t_alt);
	assert_non_null(fe->tag);
	assert_non_null(fe->mod);
	assert_non_null(fe->push);
	assert_non_null(fe->cnt);
	assert_non_null(fe->t2);
}

static void
fenv_close(struct fenv *fe)
{
	assert_int_equal(mlx5dm_rule_destroy(fe->base, 0), 0);
	assert_int_equal(mlx5dm_matcher_destroy(fe->m), 0);
	DESTROY_ACTIONS(fe->tag, fe->mod, fe->push, fe->cnt);
	assert_int_equal(mlx5dm_counters_free(fe->c), 0);
	assert_int_equal(mlx5dm_table_destroy(fe->t2), 0);
	assert_int_equal(mlx5dm_table_destroy(fe->t_alt), 0);
	senv_close(fe->e);
	assert_int_equal(test_alloc_live(), 0);
}

/* Everything the library holds, to compare before and after a failed call. */
struct snap {
	struct mlx5dm_ctx_stats st;
	long host;
};

static struct snap
snap_take(struct fenv *fe)
{
	struct snap s;

	senv_sync(fe->e);
	s.st = senv_stats(fe->e);
	s.host = test_alloc_live();
	return s;
}

static void
snap_assert(struct fenv *fe, const struct snap *a, const char *what, uint64_t at)
{
	struct snap b = snap_take(fe);
	uint8_t v[MP_SIZE];
	struct frame f;

	if (memcmp(a->st.icm, b.st.icm, sizeof(a->st.icm)) != 0)
		fprintf(stderr, "%s, allocation %llu failed:\n", what, (unsigned long long)at);
	assert_icm_equal(&a->st, &b.st);
	if (b.host != a->host)
		fail_msg("%s, allocation %llu failed: %ld host allocations, %ld before", what,
			 (unsigned long long)at, b.host, a->host);
	assert_int_equal(b.st.rules, a->st.rules);
	assert_int_equal(b.st.matchers, a->st.matchers);
	assert_int_equal(b.st.tables, a->st.tables);
	/* The rule that was there still forwards. */
	ml_key(0, v, &f);
	assert_int_equal(senv_send(fe->e, &f, NULL), 3);
}

/*
 * An operation under test: do() returns the object made (NULL on failure),
 * undo() removes it, check() asserts it works.
 */
struct fop {
	const char *name;
	void *(*doit)(struct fenv *fe);
	void (*undo)(struct fenv *fe, void *obj);
	void (*check)(struct fenv *fe, void *obj);
	/* Needs no allocation once done before (a pooled record): see test_action_records. */
	bool pooled;
};

/* A rule with new entries at every level of the ml matcher. */
static void *
do_rule_new_path(struct fenv *fe)
{
	struct mlx5dm_action *acts[2] = { fe->tag, fe->e->to_q[1] };
	uint8_t v[MP_SIZE];
	struct frame f;

	ml_key(0x5a5, v, &f);
	return mlx5dm_rule_create(fe->m, 0, v, 2, acts);
}

static void
undo_rule(struct fenv *fe, void *obj)
{
	(void)fe;
	assert_int_equal(mlx5dm_rule_destroy(obj, 0), 0);
}

static void
check_rule_new_path(struct fenv *fe, void *obj)
{
	uint8_t v[MP_SIZE];
	struct frame f;
	struct rx got;

	(void)obj;
	ml_key(0x5a5, v, &f);
	assert_int_equal(senv_send(fe->e, &f, &got), 1);
	assert_int_equal(got.flow_tag, 0x77);
}

/* A rule sharing the first two levels with the base rule, with actions in extra STEs. */
static void *
do_rule_many_actions(struct fenv *fe)
{
	struct mlx5dm_action *acts[6] = {
		fe->cnt, fe->tag, fe->mod, fe->push, fe->push, fe->e->to_q[2],
	};
	uint8_t v[MP_SIZE];
	struct frame f;

	ml_key(7, v, &f);
	return mlx5dm_rule_create(fe->m, 0, v, 6, acts);
}

static void
check_rule_many_actions(struct fenv *fe, void *obj)
{
	uint8_t v[MP_SIZE];
	struct frame f;
	struct rx got;

	(void)obj;
	ml_key(7, v, &f);
	assert_int_equal(senv_send(fe->e, &f, &got), 2);
	assert_int_equal(got.flow_tag, 0x77);
	/* TTL 9, two tags, destination rewritten: 8 bytes longer. */
	assert_int_equal(got.len, f.len + 8);
}

static void *
do_matcher(struct fenv *fe)
{
	uint8_t mask[MP_SIZE];
	struct mlx5dm_matcher_attr ma = {
		.priority = 1, .criteria = CRIT(outer) | CRIT(misc), .mask = mask,
		.log_rules_hint = 6,
	};

	fkey_mask(mask);
	mp_set(mask, F(misc, outer_second_vid), 0xfff);
	return mlx5dm_matcher_create(fe->e->tbl, &ma, NULL);
}

static void
undo_matcher(struct fenv *fe, void *obj)
{
	(void)fe;
	assert_int_equal(mlx5dm_matcher_destroy(obj), 0);
}

static void
check_matcher(struct fenv *fe, void *obj)
{
	uint8_t v[MP_SIZE];
	struct frame f;
	struct mlx5dm_rule *r;

	/* A rule in it works (behind the base matcher, so another key). */
	ml_key(0x3333, v, &f);
	r = senv_rule(obj, 0, v, 1, &fe->e->to_q[0]);
	assert_int_equal(senv_send(fe->e, &f, NULL), 0);
	assert_int_equal(mlx5dm_rule_destroy(r, 0), 0);
}

/*
 * A matcher whose first table spans two pages of slot heads (2^10 slots),
 * with one rule: the rule's slot page is allocated by the insert.
 */
static struct mlx5dm_rule *big_rule;

static void *
do_big_table_rule(struct fenv *fe)
{
	uint8_t mask[MP_SIZE] = { 0 }, v[MP_SIZE] = { 0 };
	struct mlx5dm_matcher_attr ma = {
		.priority = 2, .criteria = CRIT(outer), .mask = mask, .log_rules_hint = 10,
	};
	struct mlx5dm_matcher *m;

	mp_mac(mask, F(outer, dmac_47_16), 0xffffffffffffull);
	m = mlx5dm_matcher_create(fe->e->tbl, &ma, NULL);
	if (m == NULL)
		return NULL;
	mp_mac(v, F(outer, dmac_47_16), 0x0c0000000001ull);
	big_rule = mlx5dm_rule_create(m, 0, v, 1, &fe->e->to_q[3]);
	if (big_rule == NULL) {
		assert_int_equal(errno, ENOMEM);
		assert_int_equal(mlx5dm_matcher_destroy(m), 0);
		errno = ENOMEM;
		return NULL;
	}
	return m;
}

static void
undo_big_table_rule(struct fenv *fe, void *obj)
{
	(void)fe;
	assert_int_equal(mlx5dm_rule_destroy(big_rule, 0), 0);
	assert_int_equal(mlx5dm_matcher_destroy(obj), 0);
}

static void
check_big_table_rule(struct fenv *fe, void *obj)
{
	struct frame f;
	struct pkt p;

	(void)obj;
	pkt_udp4(&p);
	p.o.dmac = 0x0c0000000001ull;
	frame_build(&f, &p);
	assert_int_equal(senv_send(fe->e, &f, NULL), 3);
}

static void *
do_modify(struct fenv *fe)
{
	uint8_t list[12 * MOD_SIZE];
	unsigned int i;

	for (i = 0; i < 12; i++)
		mod_set(list + i * MOD_SIZE, (uint16_t)(0x0d + i % 8), 0, 0, i);
	return mlx5dm_action_modify_header(fe->e->rx, 12, list);
}

static void *
do_encap(struct fenv *fe)
{
	static bool warm;
	uint8_t hdr[100] = { 0 };

	/*
	 * A failed ENCAP ICM allocation falls back to a firmware reformat
	 * context; the model's first such context grows its object table for
	 * good. Use that path once up front so only leaks show up later.
	 */
	if (!warm) {
		struct mlx5dm_res_reformat *r;

		assert_int_equal(mlx5dm_res_reformat_alloc(mlx5dm_ctx_res(fe->e->ctx),
							   MLX5DM_REFORMAT_TYPE_L2_TO_L2_TUNNEL,
							   hdr, sizeof(hdr), &r), 0);
		assert_int_equal(mlx5dm_res_reformat_free(r), 0);
		warm = true;
	}
	return mlx5dm_action_reformat(fe->e->tx, MLX5DM_REFORMAT_L2_TO_L2_TUNNEL, 100, hdr);
}

static void *
do_decap_l3(struct fenv *fe)
{
	static const uint8_t l2[18] = { 2, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 2, 0x81, 0, 0, 1,
					0x08, 0 };

	return mlx5dm_action_reformat(fe->e->rx, MLX5DM_REFORMAT_L3_TUNNEL_TO_L2, 18, l2);
}

static void *
do_jump(struct fenv *fe)
{
	return mlx5dm_action_dest_table(fe->e->rx, fe->t2);
}

static void
undo_action(struct fenv *fe, void *obj)
{
	(void)fe;
	assert_int_equal(mlx5dm_action_destroy(obj), 0);
}

static void *
do_table(struct fenv *fe)
{
	return mlx5dm_table_create(fe->e->rx, 3);
}

static void
undo_table(struct fenv *fe, void *obj)
{
	(void)fe;
	assert_int_equal(mlx5dm_table_destroy(obj), 0);
}

static void *
do_counters(struct fenv *fe)
{
	return mlx5dm_counters_alloc(fe->e->ctx, 4);
}

static void
undo_counters(struct fenv *fe, void *obj)
{
	(void)fe;
	assert_int_equal(mlx5dm_counters_free(obj), 0);
}

static void *
do_rss_tir(struct fenv *fe)
{
	struct mlx5dm_rss_attr rss = { .fields = MLX5DM_RSS_SRC_IP | MLX5DM_RSS_DST_IP };

	return mlx5dm_tir_create(fe->e->ctx, fe->e->rqn, SENV_NB_RQ, &rss);
}

static void
undo_tir(struct fenv *fe, void *obj)
{
	(void)fe;
	assert_int_equal(mlx5dm_tir_destroy(obj), 0);
}

static void *
do_rq(struct fenv *fe)
{
	return mlx5dm_rq_create(fe->e->ctx, 4);
}

static void
undo_rq(struct fenv *fe, void *obj)
{
	(void)fe;
	assert_int_equal(mlx5dm_rq_destroy(obj), 0);
}

/* Switching the domain's entry table (make-before-break in the root table). */
static void *
do_set_root(struct fenv *fe)
{
	int ret = mlx5dm_domain_set_root(fe->e->rx, fe->t_alt);

	errno = -ret;
	return ret == 0 ? fe->t_alt : NULL;
}

static void
undo_set_root(struct fenv *fe, void *obj)
{
	(void)obj;
	assert_int_equal(mlx5dm_domain_set_root(fe->e->rx, fe->e->tbl), 0);
}

static void
check_set_root(struct fenv *fe, void *obj)
{
	uint8_t v[MP_SIZE];
	struct frame f;

	(void)obj;
	/* The new entry table is empty: the base rule's frame is dropped now. */
	ml_key(0, v, &f);
	assert_int_equal(senv_send(fe->e, &f, NULL), RX_DROPPED);
}

static const struct fop fops[] = {
	{ "rule, new entries at every level", do_rule_new_path, undo_rule, check_rule_new_path },
	{ "rule, extra action STEs", do_rule_many_actions, undo_rule, check_rule_many_actions },
	{ "matcher", do_matcher, undo_matcher, check_matcher },
	{ "rule in a two-page table", do_big_table_rule, undo_big_table_rule,
	  check_big_table_rule },
	{ "modify header list", do_modify, undo_action, NULL },
	{ "encap", do_encap, undo_action, NULL },
	{ "L3 decap", do_decap_l3, undo_action, NULL },
	{ "jump", do_jump, undo_action, NULL, true },
	{ "table", do_table, undo_table, NULL },
	{ "counters", do_counters, undo_counters, NULL },
	{ "RSS TIR", do_rss_tir, undo_tir, NULL },
	{ "RQ", do_rq, undo_rq, NULL },
	{ "entry table switch", do_set_root, undo_set_root, check_set_root },
};

static void
test_failed_calls_leave_nothing(void **state)
{
	struct fenv fe;
	unsigned int o;

	(void)state;
	fenv_open(&fe);
	for (o = 0; o < sizeof(fops) / sizeof(fops[0]); o++) {
		const struct fop *op = &fops[o];
		struct snap before;
		uint64_t n, j;
		void *obj;

		/*
		 * Once for the lasting effects of a success (a first table grown
		 * by the new entry stays grown), then count its allocations.
		 */
		obj = op->doit(&fe);
		assert_non_null(obj);
		op->undo(&fe, obj);
		before = snap_take(&fe);
		mlx5dm_alloc_fail_at(0);
		obj = op->doit(&fe);
		n = mlx5dm_alloc_count();
		if (obj == NULL)
			fail_msg("%s: fails without injection (errno %d)", op->name, errno);
		op->undo(&fe, obj);
		snap_assert(&fe, &before, op->name, 0);
		fprintf(stderr, "%s: %llu allocations\n", op->name, (unsigned long long)n);
		assert_true(n > 0 || op->pooled);
		for (j = 1; j <= n; j++) {
			errno = 0;
			mlx5dm_alloc_fail_at(j);
			obj = op->doit(&fe);
			mlx5dm_alloc_fail_at(0);
			if (obj != NULL) {
				/* Survived the failure: it must be whole. */
				if (op->check != NULL)
					op->check(&fe, obj);
				op->undo(&fe, obj);
			} else if (errno != ENOMEM && errno != ENOSPC) {
				/* ENOSPC: the model's firmware was out of memory (NO_RESOURCES). */
				fail_msg("%s, allocation %llu failed: errno %d", op->name,
					 (unsigned long long)j, errno);
			}
			snap_assert(&fe, &before, op->name, j);
		}
		/* And it still works afterwards. */
		obj = op->doit(&fe);
		assert_non_null(obj);
		if (op->check != NULL)
			op->check(&fe, obj);
		op->undo(&fe, obj);
	}
	fenv_close(&fe);
}

/*
 * Action records come from the context's slab: creating one allocates only
 * when the slab grows. Arm a failure of the next allocation before each of
 * many creates: those that needed to grow the slab fail with ENOMEM and
 * leave nothing behind, the others succeed; the slab's blocks stay until the
 * context closes (fenv_close checks that nothing is left then).
 */
#define ACT_RECORDS 600

static void
test_action_records(void **state)
{
	struct mlx5dm_action **a = calloc(ACT_RECORDS, sizeof(*a));
	unsigned int i, failed = 0;
	struct snap before;
	struct fenv fe;

	(void)state;
	assert_non_null(a);
	fenv_open(&fe);
	before = snap_take(&fe);
	for (i = 0; i < ACT_RECORDS; i++) {
		errno = 0;
		mlx5dm_alloc_fail_at(1);
		a[i] = do_jump(&fe);
		mlx5dm_alloc_fail_at(0);
		if (a[i] == NULL) {
			assert_int_equal(errno, ENOMEM);
			failed++;
			a[i] = do_jump(&fe);
		}
		assert_non_null(a[i]);
	}
	/* The slab grew at least twice (blocks of 256 records), never silently. */
	assert_true(failed >= 2);
	for (i = 0; i < ACT_RECORDS; i++)
		undo_action(&fe, a[i]);
	/* Nothing left but the slab's blocks, one per growth (freed with the context). */
	before.host += failed;
	snap_assert(&fe, &before, "action records", 0);
	fenv_close(&fe);
	free(a);
}

/* Allocation failures while a rule insert grows a table. */
/* Post a write the device fails (past the end of the STE DM the key names) on queue 0. */
static void
ring_bad_write(struct fenv *fe)
{
	struct mlx5dm_send_ring *ring = fe->e->ctx->queues[0].ring;
	uint8_t line[64];

	memset(line, 0xee, sizeof(line));
	assert_int_equal(mlx5dm_send_write(ring, ring->last_raddr + (1ull << 40), ring->last_rkey,
					   line, sizeof(line)), 0);
}

/*
 * A failing write, then writes that are never executed (they follow it)
 * until the ring's posts have no room left for a 64-byte write: the next
 * one waits for room, rings the doorbell and finds the error.
 */
static void
ring_bad_write_full(struct fenv *fe)
{
	struct mlx5dm_send_ring *ring = fe->e->ctx->queues[0].ring;
	uint64_t bad = ring->last_raddr + (1ull << 40);
	struct mlx5dm_send_stats st, st0;
	uint8_t line[64];

	memset(line, 0xee, sizeof(line));
	mlx5dm_send_stats_get(ring, &st0);
	for (;;) {
		assert_int_equal(mlx5dm_send_write(ring, bad, ring->last_rkey, line, 64), 0);
		mlx5dm_send_stats_get(ring, &st);
		/* Two WQEBBs each; the SQ keeps two for a kept write of a ring in error. */
		if (st.outstanding + 4 > st.size)
			break;
	}
	assert_int_equal(st.doorbells, st0.doorbells);
}

/* Where a UDP frame to dmac goes (an RQ index or RX_DROPPED). */
static int
dmac_send(struct fenv *fe, uint64_t dmac)
{
	struct pkt p;

	pkt_udp4(&p);
	p.o.dmac = dmac;
	return senv_send_pkt(fe->e, &p);
}

#define GROW_RULES 64

static uint64_t
grow_mac(uint32_t k)
{
	return 0x0e0000000000ull + k * 0x01010101ull;
}

/*
 * Fill a fresh dmac matcher with GROW_RULES rules, making allocation
 * fail_j of insert fail_k fail (0: none). Returns the insert that made the
 * third growth and, in *n, how many allocations it made.
 */
static uint32_t
grow_run(struct fenv *fe, uint32_t fail_k, uint64_t fail_j, uint64_t *n)
{
	uint8_t mask[MP_SIZE] = { 0 }, v[MP_SIZE] = { 0 };
	struct mlx5dm_rule *r[GROW_RULES];
	struct snap before = snap_take(fe);
	struct mlx5dm_matcher *m;
	uint32_t k, third = 0;

	mp_mac(mask, F(outer, dmac_47_16), 0xffffffffffffull);
	m = senv_matcher(fe->e->tbl, 1, CRIT(outer), mask, 0);
	for (k = 0; k < GROW_RULES; k++) {
		uint64_t g = senv_stats(fe->e).rehash - before.st.rehash;

		mp_mac(v, F(outer, dmac_47_16), grow_mac(k));
		errno = 0;
		mlx5dm_alloc_fail_at(fail_j != 0 && k == fail_k ? fail_j : 0);
		r[k] = mlx5dm_rule_create(m, 0, v, 1, &fe->e->to_q[k % SENV_NB_RQ]);
		if (g == 2 && senv_stats(fe->e).rehash - before.st.rehash == 3) {
			third = k;
			*n = mlx5dm_alloc_count();
		}
		mlx5dm_alloc_fail_at(0);
		if (r[k] == NULL && (fail_j == 0 || k != fail_k || errno != ENOMEM))
			fail_msg("insert %u refused: errno %d", k, errno);
	}
	/* Every rule that was accepted forwards. */
	for (k = 0; k < GROW_RULES; k++)
		assert_int_equal(dmac_send(fe, grow_mac(k)),
				 r[k] != NULL ? (int)(k % SENV_NB_RQ) : RX_DROPPED);
	for (k = 0; k < GROW_RULES; k++)
		if (r[k] != NULL)
			assert_int_equal(mlx5dm_rule_destroy(r[k], 0), 0);
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	snap_assert(fe, &before, "growth", fail_j);
	return third;
}

static void
test_failed_growth(void **state)
{
	struct fenv fe;
	uint64_t n = 0, j, dummy;
	uint32_t third;

	(void)state;
	fenv_open(&fe);
	third = grow_run(&fe, 0, 0, &n);
	assert_true(third > 0);
	fprintf(stderr, "insert %u grows the table a third time: %llu allocations\n", third,
		(unsigned long long)n);
	for (j = 1; j <= n; j++)
		grow_run(&fe, third, j, &dummy);
	fenv_close(&fe);
}

/*
 * A rule write that fails on the device: the model completes WQE k of the
 * rule's create in error, as a ConnectX completes an RDMA WRITE it cannot
 * make (an error CQE, the QP in error, later WQEs flushed). Whichever of the
 * rule's WQEs fails (the last one makes it reachable), the create returns
 * EIO and the library holds what it held before; the device does not steer
 * by the rule, whatever the WQEs before k wrote (the create returns EIO
 * if it saw the error CQE; the device runs beside the caller, so it may
 * return first and the drain reports the error). A failure after the rule's
 * WQEs (k past them) leaves the rule created and steering. Either way the
 * ring stays in error: later creates fail at once and post nothing, while
 * deleting the objects still frees everything.
 */
static void
ring_failure_at(uint64_t k, bool rule_fails)
{
	struct mlx5dm_ctx_stats st;
	struct mlx5dm_rule *r;
	struct snap before, after;
	uint8_t v[MP_SIZE];
	struct frame f;
	struct fenv fe;
	unsigned int i;

	fenv_open(&fe);
	/* Once for the lasting effects of a success (slab blocks, index room). */
	undo_rule(&fe, do_rule_new_path(&fe));
	before = snap_take(&fe);
	mlx5dm_sim_sq_fail_at(mlx5dm_sim_of(fe.e->dev), k);
	errno = 0;
	r = do_rule_new_path(&fe);
	if (!rule_fails) {
		/* The rule is on the device; the next WQE (the drain's READ) fails. */
		assert_non_null(r);
		check_rule_new_path(&fe, r);
		assert_int_equal(mlx5dm_queue_drain(fe.e->ctx, 0), -EIO);
		/* Refused on the ring in error: the rule stays, whole and steering. */
		assert_int_equal(mlx5dm_rule_destroy(r, 0), -EIO);
		check_rule_new_path(&fe, r);
	} else if (r != NULL) {
		/*
		 * The device reports the failed WQE after the create returned (it
		 * runs beside the caller): the drain learns it, the rule never
		 * became reachable on the device, and the ring is in error.
		 */
		assert_int_equal(mlx5dm_queue_drain(fe.e->ctx, 0), -EIO);
		ml_key(0x5a5, v, &f);
		assert_int_equal(senv_send(fe.e, &f, NULL), RX_DROPPED);
		assert_int_equal(mlx5dm_rule_destroy(r, 0), -EIO);
	} else {
		assert_null(r);
		assert_int_equal(errno, EIO);
		/*
		 * The library is back where it was. Writes cannot be synced any
		 * more (the ring reports its error), freed ICM can: the failed QP
		 * is flushed.
		 */
		assert_int_equal(mlx5dm_domain_sync(fe.e->rx, MLX5DM_SYNC_SW), -EIO);
		assert_int_equal(mlx5dm_domain_sync(fe.e->rx, MLX5DM_SYNC_MEM), 0);
		after.st = senv_stats(fe.e);
		after.host = test_alloc_live();
		assert_int_equal(after.st.rules, before.st.rules);
		assert_int_equal(after.st.tables, before.st.tables);
		assert_int_equal(after.st.matchers, before.st.matchers);
		assert_int_equal(after.host, before.host);
		assert_icm_equal(&before.st, &after.st);
		/* Not steered by the failed rule (it misses to the default drop). */
		ml_key(0x5a5, v, &f);
		assert_int_equal(senv_send(fe.e, &f, NULL), RX_DROPPED);
	}
	/* The base rule still steers. */
	ml_key(0, v, &f);
	assert_int_equal(senv_send(fe.e, &f, NULL), 3);
	/* The ring's error state: refused at once, nothing posted. */
	st = senv_stats(fe.e);
	errno = 0;
	assert_null(do_rule_new_path(&fe));
	assert_int_equal(errno, EIO);
	assert_int_equal(senv_stats(fe.e).wqes, st.wqes);
	assert_int_equal(mlx5dm_queue_flush(fe.e->ctx, 0), -EIO);
	/* A destroy is refused too: the base rule is kept and steers. */
	st = senv_stats(fe.e);
	assert_int_equal(mlx5dm_rule_destroy(fe.base, 0), -EIO);
	assert_int_equal(senv_stats(fe.e).wqes, st.wqes);
	assert_int_equal(senv_stats(fe.e).rules, st.rules);
	assert_int_equal(senv_send(fe.e, &f, NULL), 3);
	/* Once the queue is back, the refused destroys succeed and the rules stop steering. */
	assert_int_equal(mlx5dm_queue_recover(fe.e->ctx, 0), 0);
	if (r != NULL)
		assert_int_equal(mlx5dm_rule_destroy(r, 0), 0);
	assert_int_equal(mlx5dm_rule_destroy(fe.base, 0), 0);
	assert_int_equal(mlx5dm_queue_drain(fe.e->ctx, 0), 0);
	assert_int_equal(senv_send(fe.e, &f, NULL), RX_DROPPED);
	assert_int_equal(mlx5dm_matcher_destroy(fe.m), 0);
	assert_int_equal(senv_send(fe.e, &f, NULL), RX_DROPPED);
	DESTROY_ACTIONS(fe.tag, fe.mod, fe.push, fe.cnt);
	assert_int_equal(mlx5dm_counters_free(fe.c), 0);
	assert_int_equal(mlx5dm_table_destroy(fe.t2), 0);
	assert_int_equal(mlx5dm_table_destroy(fe.t_alt), 0);
	/* Everything comes back but what the environment holds. */
	assert_int_equal(mlx5dm_domain_sync(fe.e->rx, MLX5DM_SYNC_MEM), 0);
	st = senv_stats(fe.e);
	for (i = 0; i < 4; i++)
		assert_int_equal(st.icm[i].hot_bytes, 0);
	senv_close_failed(fe.e);
	assert_int_equal(test_alloc_live(), 0);
}

static void
test_ring_failure(void **state)
{
	struct mlx5dm_ctx_stats st;
	struct fenv fe;
	uint64_t k, n;
	void *r;

	(void)state;
	/* The WQEs of the create under test. */
	fenv_open(&fe);
	undo_rule(&fe, do_rule_new_path(&fe));
	st = snap_take(&fe).st;
	r = do_rule_new_path(&fe);
	n = senv_stats(fe.e).wqes - st.wqes;
	undo_rule(&fe, r);
	fenv_close(&fe);
	assert_true(n >= 2);
	for (k = 1; k <= n + 1; k++)
		ring_failure_at(k, k <= n);
}

/*
 * A queue whose QP failed comes back into use. A write outside the STE ICM
 * the device knows (past the end of the DM its key names) completes in
 * error on the model as on a ConnectX: the QP goes to the error state and
 * the WQEs behind it are flushed. The rules created behind it either fail
 * at once (EIO: the create saw the error) or were created and their writes
 * lost (mlx5dm_queue_lost()). Recovering resets the QP; the lost rules are
 * destroyed as any other, their ICM and records go back, the rules that
 * were in place keep steering, and new rules on the queue steer again.
 */
static void
test_ring_recovery(void **state)
{
	struct mlx5dm_rule *lost[4];
	struct mlx5dm_queue_stats qs;
	struct mlx5dm_rule *r1, *r;
	uint8_t v[MP_SIZE];
	unsigned int i, n = 0, failed = 0;
	struct snap before;
	struct frame f;
	struct fenv fe;
	uint32_t pos, pos0;

	(void)state;
	fenv_open(&fe);
	ml_key(1, v, &f);
	r1 = senv_rule(fe.m, 0, v, 1, &fe.e->to_q[2]);
	assert_int_equal(mlx5dm_queue_drain(fe.e->ctx, 0), 0);
	assert_int_equal(senv_send(fe.e, &f, NULL), 2);
	before = snap_take(&fe);
	/* The last write went to STE ICM: the same key, an address far past the DM. */
	pos0 = mlx5dm_queue_pos(fe.e->ctx, 0);
	ring_bad_write(&fe);
	for (i = 0; i < MLX5DM_ARRAY_SIZE(lost); i++) {
		ml_key(2 + i, v, &f);
		errno = 0;
		r = mlx5dm_rule_create(fe.m, 0, v, 1, &fe.e->to_q[1]);
		pos = mlx5dm_queue_pos(fe.e->ctx, 0);
		if (r == NULL) {
			assert_int_equal(errno, EIO);
			failed++;
			continue;
		}
		lost[n++] = r;
		/* The bad write is before this rule's: whatever the device did, it is lost. */
		assert_int_equal(mlx5dm_queue_drain(fe.e->ctx, 0), -EIO);
		assert_true(mlx5dm_queue_lost(fe.e->ctx, 0, pos));
	}
	assert_int_equal(n + failed, MLX5DM_ARRAY_SIZE(lost));
	assert_int_equal(mlx5dm_queue_stats_get(fe.e->ctx, 0, &qs), 0);
	assert_int_equal(qs.error, -EIO);
	assert_int_equal(qs.err_syndrome, 0x13);
	assert_int_equal(qs.recoveries, 0);
	assert_int_equal(mlx5dm_queue_recover(fe.e->ctx, 0), 0);
	assert_int_equal(mlx5dm_queue_stats_get(fe.e->ctx, 0, &qs), 0);
	assert_int_equal(qs.error, 0);
	assert_int_equal(qs.recoveries, 1);
	assert_int_equal(mlx5dm_queue_recover(fe.e->ctx, 0), 0);
	/* The dropped writes stay known as lost; what came before them is not. */
	assert_true(mlx5dm_queue_lost(fe.e->ctx, 0, pos));
	assert_false(mlx5dm_queue_lost(fe.e->ctx, 0, pos0));
	for (i = 0; i < n; i++)
		assert_int_equal(mlx5dm_rule_destroy(lost[i], 0), 0);
	/* The ICM and the records of the lost rules are back; the rules in place steer. */
	snap_assert(&fe, &before, "recovery", 0);
	ml_key(1, v, &f);
	assert_int_equal(senv_send(fe.e, &f, NULL), 2);
	for (i = 0; i < MLX5DM_ARRAY_SIZE(lost); i++) {
		ml_key(2 + i, v, &f);
		assert_int_equal(senv_send(fe.e, &f, NULL), RX_DROPPED);
	}
	/* The queue works again: a new rule steers, and nothing is lost any more. */
	ml_key(2, v, &f);
	r = senv_rule(fe.m, 0, v, 1, &fe.e->to_q[1]);
	assert_int_equal(mlx5dm_queue_drain(fe.e->ctx, 0), 0);
	assert_false(mlx5dm_queue_lost(fe.e->ctx, 0, mlx5dm_queue_pos(fe.e->ctx, 0)));
	assert_int_equal(senv_send(fe.e, &f, NULL), 1);
	assert_int_equal(mlx5dm_rule_destroy(r, 0), 0);
	assert_int_equal(mlx5dm_rule_destroy(r1, 0), 0);
	assert_int_equal(mlx5dm_queue_drain(fe.e->ctx, 0), 0);
	assert_int_equal(senv_send(fe.e, &f, NULL), RX_DROPPED);
	fenv_close(&fe);
}

/*
 * A one-level rule on dmac, created and executed (steering to queue 2)
 * in a new environment, whose matcher is *m; *before: the state to come
 * back to once it is gone.
 */
static struct mlx5dm_rule *
dmac_rule_open(struct fenv *fe, uint64_t dmac, struct mlx5dm_matcher **m, struct snap *before)
{
	uint8_t mask[MP_SIZE] = { 0 }, v[MP_SIZE] = { 0 };
	struct mlx5dm_rule *r;

	fenv_open(fe);
	mp_mac(mask, F(outer, dmac_47_16), 0xffffffffffffull);
	*m = senv_matcher(fe->e->tbl, 1, CRIT(outer), mask, 0);
	/* Once for the lasting effects of a success (slab blocks, index room). */
	mp_mac(v, F(outer, dmac_47_16), dmac + 1);
	r = mlx5dm_rule_create(*m, 0, v, 1, &fe->e->to_q[2]);
	assert_non_null(r);
	assert_int_equal(mlx5dm_rule_destroy(r, 0), 0);
	assert_int_equal(mlx5dm_domain_sync(fe->e->rx, MLX5DM_SYNC_MEM), 0);
	*before = snap_take(fe);
	mp_mac(v, F(outer, dmac_47_16), dmac);
	r = mlx5dm_rule_create(*m, 0, v, 1, &fe->e->to_q[2]);
	assert_non_null(r);
	assert_int_equal(mlx5dm_queue_drain(fe->e->ctx, 0), 0);
	assert_int_equal(dmac_send(fe, dmac), 2);
	return r;
}

/* Recover queue 0: the ring is back, and redone unlinks were written again in all. */
static void
recover_redone(struct fenv *fe, uint64_t redone)
{
	struct mlx5dm_queue_stats qs;

	assert_int_equal(mlx5dm_queue_recover(fe->e->ctx, 0), 0);
	assert_int_equal(mlx5dm_queue_stats_get(fe->e->ctx, 0, &qs), 0);
	assert_int_equal(qs.error, 0);
	assert_int_equal(qs.unlinks_redone, redone);
}

/* The ICM and records are back as before; then m and the environment go. */
static void
dmac_rules_close(struct fenv *fe, struct mlx5dm_matcher *m, const struct snap *before,
		 const char *what)
{
	assert_int_equal(mlx5dm_domain_sync(fe->e->rx, MLX5DM_SYNC_MEM), 0);
	snap_assert(fe, before, what, 0);
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	fenv_close(fe);
}

/*
 * A deletion the ring loses after its call returned: the bad write goes
 * before the destroy's unlink, so the QP flushes the unlink unexecuted.
 * The rule has left the library, yet the device still holds its entry
 * and steers by it; the freed ICM is not handed back meanwhile (the sync
 * fails). The recovery writes the unlink again: the slot becomes the
 * table's always-miss entry (checked byte by byte in the device's ICM),
 * the frames are no longer steered, and the sync gives everything back.
 */
static void
test_lost_unlink_redo(void **state)
{
	const uint64_t dmac = 0x0e00000000a5ull;
	struct mlx5dm_queue_stats qs;
	struct mlx5dm_matcher *m;
	uint8_t dev[64], was[64];
	struct mlx5dm_rule *r;
	struct snap before;
	struct fenv fe;
	uint64_t icm;
	unsigned int i;

	(void)state;
	r = dmac_rule_open(&fe, dmac, &m, &before);
	/* One level, alone in its slot: the unlink rewrites that slot. */
	assert_false(mlx5dm_rule_last(r)->collision);
	assert_null(mlx5dm_rule_last(r)->next_col);
	icm = mlx5dm_ste_icm(mlx5dm_rule_last(r));
	assert_int_equal(mlx5dm_sim_icm_read(mlx5dm_sim_of(fe.e->dev), icm, was, 64), 0);
	/* The rule's entry: a match on the whole dmac (mask bytes set), not a miss. */
	assert_int_not_equal(was[MLX5DM_STE_MASK_OFF], 0xdc);

	ring_bad_write(&fe);
	assert_int_equal(mlx5dm_rule_destroy(r, 0), 0);
	assert_int_equal(mlx5dm_queue_drain(fe.e->ctx, 0), -EIO);
	assert_true(mlx5dm_queue_lost(fe.e->ctx, 0, mlx5dm_queue_pos(fe.e->ctx, 0)));
	/* Lost: the device still holds the entry and steers by it. */
	assert_int_equal(mlx5dm_sim_icm_read(mlx5dm_sim_of(fe.e->dev), icm, dev, 64), 0);
	assert_memory_equal(dev, was, 64);
	assert_int_equal(dmac_send(&fe, dmac), 2);
	/* What the deletion freed must not be reused under the device. */
	assert_int_equal(mlx5dm_domain_sync(fe.e->rx, MLX5DM_SYNC_MEM), -EIO);

	recover_redone(&fe, 1);
	assert_int_equal(mlx5dm_queue_stats_get(fe.e->ctx, 0, &qs), 0);
	assert_int_equal(qs.recoveries, 1);
	/*
	 * The slot is the always-miss entry, in the device's order (STE v1: a
	 * non-MATCH entry keeps its mask before its tag): a zero mask, a tag
	 * whose first byte (0xdc) no masked packet byte can equal, and a hit
	 * pointer of all ones with size 0 (no table), next lookup DONT_CARE.
	 */
	assert_int_equal(mlx5dm_sim_icm_read(mlx5dm_sim_of(fe.e->dev), icm, dev, 64), 0);
	for (i = MLX5DM_STE_TAG_OFF; i < MLX5DM_STE_MASK_OFF; i++)
		assert_int_equal(dev[i], 0);
	assert_int_equal(dev[MLX5DM_STE_MASK_OFF], 0xdc);
	for (i = MLX5DM_STE_MASK_OFF + 1; i < 64; i++)
		assert_int_equal(dev[i], 0);
	assert_memory_not_equal(dev, was, 64);
	assert_int_equal(dmac_send(&fe, dmac), RX_DROPPED);
	/* Redone once: another recovery has nothing more to write. */
	recover_redone(&fe, 1);
	dmac_rules_close(&fe, m, &before, "lost unlink");
}

/*
 * dmac_rule_open(), then the SQ of queue 0 filled behind a failing write
 * not yet rung (ring_bad_write_full()); *st: the ring's statistics then.
 */
static struct mlx5dm_rule *
full_ring_open(struct fenv *fe, uint64_t dmac, struct mlx5dm_matcher **m, struct snap *before,
	       struct mlx5dm_send_stats *st)
{
	struct mlx5dm_rule *r = dmac_rule_open(fe, dmac, m, before);

	ring_bad_write_full(fe);
	mlx5dm_send_stats_get(fe->e->ctx->queues[0].ring, st);
	assert_int_equal(st->err, 0);
	return r;
}

/* An operation met the failing write on the full SQ of full_ring_open(): it posted nothing. */
static void
full_ring_refused(struct fenv *fe, const struct mlx5dm_send_stats *st)
{
	struct mlx5dm_send_stats now;

	mlx5dm_send_stats_get(fe->e->ctx->queues[0].ring, &now);
	assert_int_equal(now.err, -EIO);
	assert_int_equal(now.full_waits, st->full_waits + 1);
	assert_int_equal(now.wqes, st->wqes);
	assert_false(mlx5dm_send_kept_due(fe->e->ctx->queues[0].ring));
}

/*
 * A full SQ behind a failing write. A destroy whose unlink finds no room
 * waits for it, and the ring fails meanwhile (its doorbell starts the
 * failing write): the destroy is refused with nothing posted and the
 * rule left as it was, steering; nothing is kept to be written again.
 * After the recovery the rule is destroyed. Created again, the rule is
 * undone as a half-made one (mlx5dm_rule_discard(), as an FDB rule whose
 * other side failed) on the ring in error, the SQ full again: it leaves
 * the library, and its unlink takes the room the posts left for it, lost
 * with the failed QP's WQEs: the rule steers and its ICM is not handed
 * back until the recovery writes the unlink again.
 */
static void
test_full_ring_in_error(void **state)
{
	uint8_t v[MP_SIZE] = { 0 };
	const uint64_t dmac = 0x0e00000000b7ull;
	struct mlx5dm_send_ring *ring;
	struct mlx5dm_send_stats st;
	struct mlx5dm_matcher *m;
	struct mlx5dm_rule *r;
	struct snap before;
	struct fenv fe;

	(void)state;
	r = full_ring_open(&fe, dmac, &m, &before, &st);
	ring = fe.e->ctx->queues[0].ring;
	assert_int_equal(mlx5dm_rule_destroy(r, 0), -EIO);
	full_ring_refused(&fe, &st);
	assert_int_equal(dmac_send(&fe, dmac), 2);
	assert_int_equal(mlx5dm_domain_sync(fe.e->rx, MLX5DM_SYNC_MEM), 0);
	recover_redone(&fe, 0);
	assert_int_equal(dmac_send(&fe, dmac), 2);
	assert_int_equal(mlx5dm_rule_destroy(r, 0), 0);
	assert_int_equal(mlx5dm_queue_drain(fe.e->ctx, 0), 0);
	assert_int_equal(dmac_send(&fe, dmac), RX_DROPPED);

	mp_mac(v, F(outer, dmac_47_16), dmac);
	r = mlx5dm_rule_create(m, 0, v, 1, &fe.e->to_q[2]);
	assert_non_null(r);
	assert_int_equal(mlx5dm_queue_drain(fe.e->ctx, 0), 0);
	ring_bad_write_full(&fe);
	assert_int_equal(mlx5dm_queue_drain(fe.e->ctx, 0), -EIO);
	mlx5dm_rule_discard(r, 0);
	assert_true(mlx5dm_send_kept_due(ring));
	assert_int_equal(dmac_send(&fe, dmac), 2);
	assert_int_equal(mlx5dm_domain_sync(fe.e->rx, MLX5DM_SYNC_MEM), -EIO);
	recover_redone(&fe, 1);
	assert_int_equal(dmac_send(&fe, dmac), RX_DROPPED);
	dmac_rules_close(&fe, m, &before, "full ring in error");
}

/*
 * A create that finds the SQ full behind a failing write: its first write
 * waits for room, its doorbell starts the failing write, and the QP's
 * flush frees the room. The create is refused (EIO) having posted
 * nothing and the rule does not steer; once the queue is recovered the
 * same create steers, and once the rules are gone the library holds what
 * it held before.
 */
static void
test_create_meets_failing_ring(void **state)
{
	uint8_t v[MP_SIZE] = { 0 };
	const uint64_t dmac = 0x0e00000000c3ull;
	struct mlx5dm_send_stats st;
	struct mlx5dm_matcher *m;
	struct mlx5dm_rule *r, *r2;
	struct snap before;
	struct fenv fe;

	(void)state;
	r = full_ring_open(&fe, dmac, &m, &before, &st);
	mp_mac(v, F(outer, dmac_47_16), dmac + 2);
	errno = 0;
	assert_null(mlx5dm_rule_create(m, 0, v, 1, &fe.e->to_q[1]));
	assert_int_equal(errno, EIO);
	full_ring_refused(&fe, &st);
	assert_int_equal(dmac_send(&fe, dmac + 2), RX_DROPPED);
	assert_int_equal(dmac_send(&fe, dmac), 2);
	assert_int_equal(mlx5dm_domain_sync(fe.e->rx, MLX5DM_SYNC_MEM), 0);
	recover_redone(&fe, 0);
	assert_int_equal(mlx5dm_rule_destroy(r, 0), 0);
	r2 = mlx5dm_rule_create(m, 0, v, 1, &fe.e->to_q[1]);
	assert_non_null(r2);
	assert_int_equal(mlx5dm_queue_drain(fe.e->ctx, 0), 0);
	assert_int_equal(dmac_send(&fe, dmac + 2), 1);
	assert_int_equal(dmac_send(&fe, dmac), RX_DROPPED);
	assert_int_equal(mlx5dm_rule_destroy(r2, 0), 0);
	assert_int_equal(mlx5dm_queue_drain(fe.e->ctx, 0), 0);
	assert_int_equal(dmac_send(&fe, dmac + 2), RX_DROPPED);
	dmac_rules_close(&fe, m, &before, "create on a failing ring");
}

#define WRAP_RULES 48

/*
 * Lost unlinks whose WQEs wrap past the end of the send queue: with the
 * device stopped, a failing write and then the deletions of WRAP_RULES
 * rules are posted so that they run over the SQ's last slot. The recovery
 * reads every lost unlink out of the ring before its first new WQE lands
 * at slot 0 (over the wrapped ones), and writes each again, in order: no
 * deleted rule steers any more, and the ICM and records come back.
 */
static void
test_lost_unlinks_wrap(void **state)
{
	uint8_t mask[MP_SIZE] = { 0 }, v[MP_SIZE] = { 0 };
	const uint64_t dmac = 0x0e0000000100ull;
	struct mlx5dm_rule *r[WRAP_RULES], *spare;
	struct mlx5dm_queue_stats qs;
	struct mlx5dm_matcher *m;
	struct mlx5dm_sim *sim;
	struct snap before;
	struct fenv fe;
	uint32_t room;
	unsigned int i;

	(void)state;
	fenv_open(&fe);
	sim = mlx5dm_sim_of(fe.e->dev);
	mp_mac(mask, F(outer, dmac_47_16), 0xffffffffffffull);
	m = senv_matcher(fe.e->tbl, 1, CRIT(outer), mask, 0);
	/* Once for the lasting effects of a success (slab blocks, index room). */
	for (i = 0; i < WRAP_RULES; i++) {
		mp_mac(v, F(outer, dmac_47_16), dmac + i);
		r[i] = mlx5dm_rule_create(m, 0, v, 1, &fe.e->to_q[2]);
		assert_non_null(r[i]);
	}
	for (i = 0; i < WRAP_RULES; i++)
		assert_int_equal(mlx5dm_rule_destroy(r[i], 0), 0);
	assert_int_equal(mlx5dm_domain_sync(fe.e->rx, MLX5DM_SYNC_MEM), 0);
	before = snap_take(&fe);
	for (i = 0; i < WRAP_RULES; i++) {
		mp_mac(v, F(outer, dmac_47_16), dmac + i);
		r[i] = mlx5dm_rule_create(m, 0, v, 1, &fe.e->to_q[2]);
		assert_non_null(r[i]);
	}
	/* The ring close to its end: fewer WQEBBs left than the unlinks take. */
	assert_int_equal(mlx5dm_queue_stats_get(fe.e->ctx, 0, &qs), 0);
	mp_mac(v, F(outer, dmac_47_16), dmac + WRAP_RULES);
	for (;;) {
		assert_int_equal(mlx5dm_queue_drain(fe.e->ctx, 0), 0);
		room = qs.size - (mlx5dm_queue_pos(fe.e->ctx, 0) & (qs.size - 1));
		if (room <= WRAP_RULES && room > 8)
			break;
		spare = mlx5dm_rule_create(m, 0, v, 1, &fe.e->to_q[2]);
		assert_non_null(spare);
		assert_int_equal(mlx5dm_rule_destroy(spare, 0), 0);
	}
	for (i = 0; i < WRAP_RULES; i++)
		assert_int_equal(dmac_send(&fe, dmac + i), 2);
	/* The device stops: every unlink is posted behind the failing write. */
	assert_int_equal(pthread_rwlock_wrlock(&sim->lock), 0);
	ring_bad_write(&fe);
	for (i = 0; i < WRAP_RULES; i++)
		assert_int_equal(mlx5dm_rule_destroy(r[i], 0), 0);
	assert_int_equal(pthread_rwlock_unlock(&sim->lock), 0);
	assert_int_equal(mlx5dm_queue_drain(fe.e->ctx, 0), -EIO);
	for (i = 0; i < WRAP_RULES; i++)
		assert_int_equal(dmac_send(&fe, dmac + i), 2);
	assert_int_equal(mlx5dm_domain_sync(fe.e->rx, MLX5DM_SYNC_MEM), -EIO);
	recover_redone(&fe, WRAP_RULES);
	for (i = 0; i < WRAP_RULES; i++)
		assert_int_equal(dmac_send(&fe, dmac + i), RX_DROPPED);
	dmac_rules_close(&fe, m, &before, "lost unlinks over the SQ's end");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_failed_calls_leave_nothing),
		cmocka_unit_test(test_failed_growth),
		cmocka_unit_test(test_action_records),
		cmocka_unit_test(test_ring_failure),
		cmocka_unit_test(test_ring_recovery),
		cmocka_unit_test(test_lost_unlink_redo),
		cmocka_unit_test(test_lost_unlinks_wrap),
		cmocka_unit_test(test_full_ring_in_error),
		cmocka_unit_test(test_create_meets_failing_ring),
	};

	return cmocka_run_group_tests_name("steer_faults", tests, NULL, NULL);
}
