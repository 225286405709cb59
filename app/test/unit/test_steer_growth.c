/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Growth, churn and concurrency on the device model.
 *
 * Growth: enough rules in one matcher to grow its tables many times (small
 * tables switched at once, large ones filled a slice per insert) while a
 * second thread keeps sending frames of the rules already installed and
 * checks that none is ever missed. Then everything is deleted under the
 * same traffic. Lookups: what growth costs the packets, and the ICM per
 * rule once grown (the program's "lookups" group, its own meson test).
 * Sizing ("sizing" group, steer_sizing): what moving entries to a grown
 * table writes, and matchers sized from their hint that never grow.
 * Churn: the same rules inserted and deleted over and over, the ICM back
 * at its start each round. Concurrency: two threads on two queues
 * inserting and deleting in the same matcher and in two matchers.
 *
 * Threads other than the test's own never call cmocka: they count
 * failures and the test asserts on the counts after joining them.
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
#include <sched.h>
#include <time.h>
#include <cmocka.h>

#include "steer_test_env.h"

#define F(sec, name) MLX5DM_FTE(sec, name)

/*
 * Rule key kinds: a 1-lookup matcher (dmac) and a 2-lookup one (l3 type |
 * 5-tuple). KEY_TUPLE's keys differ in 16 bits only, and the device hash
 * (a CRC, linear) spreads such keys over at most 2^16 slots; KEY_TUPLE_MIX
 * has the same shape with addresses spread over all 32 bits.
 */
enum key_kind {
	KEY_DMAC,
	KEY_TUPLE,
	KEY_TUPLE_MIX,
};

static void
key_mask(enum key_kind kind, uint8_t *m)
{
	memset(m, 0, MP_SIZE);
	if (kind == KEY_DMAC) {
		mp_mac(m, F(outer, dmac_47_16), 0xffffffffffffull);
		return;
	}
	mp_set(m, F(outer, ip_version), 4);
	mp_set(m, F(outer, dst_ip_31_0), 0xffffffff);
	mp_set(m, F(outer, udp_dport), 0xffff);
}

/* Key i: a distinct dmac, or a distinct (dip, dport). */
static uint64_t
key_mac(uint32_t i)
{
	return 0x020000000000ull | (uint64_t)(i * 2654435761u);
}

static uint32_t
key_dip(enum key_kind kind, uint32_t i)
{
	if (kind == KEY_TUPLE_MIX)
		return (i >> 4) * 2654435761u;
	return 0x0a000000u | (i >> 4);
}

static uint16_t
key_dport(uint32_t i)
{
	return (uint16_t)(5000 + (i & 15));
}

static void
key_value(enum key_kind kind, uint32_t i, uint8_t *v)
{
	memset(v, 0, MP_SIZE);
	if (kind == KEY_DMAC) {
		mp_mac(v, F(outer, dmac_47_16), key_mac(i));
		return;
	}
	mp_set(v, F(outer, ip_version), 4);
	mp_set(v, F(outer, dst_ip_31_0), key_dip(kind, i));
	mp_set(v, F(outer, udp_dport), key_dport(i));
}

static void
key_frame(enum key_kind kind, uint32_t i, struct frame *f)
{
	struct pkt p;

	pkt_udp4(&p);
	if (kind == KEY_DMAC) {
		p.o.dmac = key_mac(i);
	} else {
		p.o.dip = key_dip(kind, i);
		p.o.dport = key_dport(i);
	}
	frame_build(f, &p);
}

/* ---- traffic thread ---- */

struct traffic {
	struct senv *e;
	enum key_kind kind;
	uint32_t lo;             /* frames of keys [lo, hi) must arrive */
	uint32_t hi;
	bool stop;
	uint64_t iter;           /* loop iterations completed */
	uint64_t sent;
	uint64_t missed;
	uint32_t first_missed;
	int first_result;
};

static void *
traffic_main(void *arg)
{
	struct traffic *t = arg;
	uint64_t seed = 0x1234567;
	struct frame f;

	while (!__atomic_load_n(&t->stop, __ATOMIC_ACQUIRE)) {
		uint32_t lo = __atomic_load_n(&t->lo, __ATOMIC_ACQUIRE);
		uint32_t hi = __atomic_load_n(&t->hi, __ATOMIC_ACQUIRE);
		uint32_t i, span;
		int q;

		if (hi <= lo) {
			__atomic_fetch_add(&t->iter, 1, __ATOMIC_RELEASE);
			continue;
		}
		/* Half the time one of the 64 newest rules, else any installed one. */
		span = (rnd_next(&seed) & 1) && hi - lo > 64 ? 64 : hi - lo;
		i = hi - 1 - (uint32_t)(rnd_next(&seed) % span);
		key_frame(t->kind, i, &f);
		q = senv_send_rqs(t->e, &f, t->e->rqn, SENV_NB_RQ, NULL);
		__atomic_fetch_add(&t->sent, 1, __ATOMIC_RELAXED);
		if (q != (int)(i % SENV_NB_RQ)) {
			if (t->missed++ == 0) {
				t->first_missed = i;
				t->first_result = q;
			}
		}
		__atomic_fetch_add(&t->iter, 1, __ATOMIC_RELEASE);
	}
	return NULL;
}

/* Wait until no frame picked before the last change of [lo, hi) is still on its way. */
static void
traffic_quiesce(struct traffic *t)
{
	uint64_t s = __atomic_load_n(&t->iter, __ATOMIC_ACQUIRE);

	while (__atomic_load_n(&t->iter, __ATOMIC_ACQUIRE) < s + 2)
		sched_yield();
}

#define BATCH 32        /* rules published to the traffic thread at a time */
#define DEL_BATCH 1024  /* rules withdrawn from it at a time */

/* Destroy m (its rules are gone) and the env: the ICM is back at st0. */
static void
growth_close(struct senv *e, struct mlx5dm_matcher *m, const struct mlx5dm_ctx_stats *st0,
	     struct mlx5dm_rule **r)
{
	struct mlx5dm_ctx_stats st1;

	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	senv_sync(e);
	st1 = senv_stats(e);
	assert_icm_equal(st0, &st1);
	free(r);
	senv_close(e);
}

/*
 * Insert n rules of kind into a fresh matcher (first table of one entry)
 * under traffic, then delete them (newest first) under traffic. Forty
 * thousand rules take the chain through eight growths: the last two
 * tables (2^14 and 2^16 entries) are filled a slice per insert and the
 * older tables they leave are emptied by later operations, all under
 * traffic; more rules would only repeat those steps.
 */
static void
growth_run(enum key_kind kind, uint32_t n)
{
	struct senv *e = senv_open(1);
	struct mlx5dm_ctx_stats st0, st1;
	struct mlx5dm_rule **r = calloc(n, sizeof(*r));
	struct traffic t = { .e = e, .kind = kind };
	struct mlx5dm_matcher *m;
	uint8_t mask[MP_SIZE], v[MP_SIZE];
	uint32_t i, lo, hi, max_at = 0;
	uint64_t max_ns = 0;
	pthread_t th;

	assert_non_null(r);
	st0 = senv_stats(e);
	key_mask(kind, mask);
	m = senv_matcher(e->tbl, 0, CRIT(outer), mask, 0);
	assert_int_equal(pthread_create(&th, NULL, traffic_main, &t), 0);
	for (i = 0; i < n; i++) {
		struct timespec a, b;
		uint64_t ns;

		key_value(kind, i, v);
		clock_gettime(CLOCK_MONOTONIC, &a);
		r[i] = mlx5dm_rule_create(m, 0, v, 1, &e->to_q[i % SENV_NB_RQ]);
		clock_gettime(CLOCK_MONOTONIC, &b);
		if (r[i] == NULL)
			break;
		/* Informational only (timing is never asserted in unit tests). */
		ns = (uint64_t)(b.tv_sec - a.tv_sec) * 1000000000u + (uint64_t)b.tv_nsec -
		     (uint64_t)a.tv_nsec;
		if (ns > max_ns) {
			max_ns = ns;
			max_at = i;
		}
		if ((i + 1) % BATCH == 0 || i + 1 == n) {
			/* Written to the device: from now on these frames must arrive. */
			assert_int_equal(mlx5dm_queue_drain(e->ctx, 0), 0);
			__atomic_store_n(&t.hi, i + 1, __ATOMIC_RELEASE);
		}
	}
	if (i < n) {
		__atomic_store_n(&t.stop, true, __ATOMIC_RELEASE);
		pthread_join(th, NULL);
		fail_msg("rule %u refused: errno %d", i, errno);
	}
	st1 = senv_stats(e);
	fprintf(stderr, "%u rules, %llu table growths, %llu frames sent during insertion, "
		"slowest insert %llu us (rule %u)\n", n,
		(unsigned long long)(st1.rehash - st0.rehash),
		(unsigned long long)__atomic_load_n(&t.sent, __ATOMIC_RELAXED),
		(unsigned long long)(max_ns / 1000), max_at);
	/* Deletion, newest first, while the older ones keep being sent. */
	for (hi = n; hi > 0; hi = lo) {
		lo = hi > DEL_BATCH ? hi - DEL_BATCH : 0;
		__atomic_store_n(&t.hi, lo, __ATOMIC_RELEASE);
		traffic_quiesce(&t);
		for (i = hi; i-- > lo;)
			assert_int_equal(mlx5dm_rule_destroy(r[i], 0), 0);
	}
	__atomic_store_n(&t.stop, true, __ATOMIC_RELEASE);
	pthread_join(th, NULL);
	if (t.missed != 0)
		fail_msg("%llu of %llu frames missed; first: key %u -> %d",
			 (unsigned long long)t.missed, (unsigned long long)t.sent, t.first_missed,
			 t.first_result);
	/* Every growth step ran: 1 -> 4 -> 16 ... entries until n fit. */
	assert_true(st1.rehash - st0.rehash >= 7);
	assert_true(t.sent > 0);
	growth_close(e, m, &st0, r);
}

static void
test_growth_level0(void **state)
{
	(void)state;
	growth_run(KEY_DMAC, 40000);
}

static void
test_growth_deep_level(void **state)
{
	(void)state;
	growth_run(KEY_TUPLE, 40000);
}

/*
 * What a packet pays: the model's walk trace names every table the walk
 * enters through a hit pointer (a matcher level's head, an older table of
 * its chain behind the head's miss anchor, ...). Counted on the RX walk.
 */
struct lookups {
	bool rx;
	unsigned int n;
};

static void
lookups_trace(void *arg, const char *line)
{
	struct lookups *l = arg;

	if (strncmp(line, "rx:", 3) == 0 || strncmp(line, "tx:", 3) == 0) {
		__atomic_store_n(&l->rx, line[0] == 'r', __ATOMIC_RELAXED);
		return;
	}
	if (__atomic_load_n(&l->rx, __ATOMIC_RELAXED) && strstr(line, "(hit)") != NULL &&
	    strstr(line, "terminal") == NULL)
		__atomic_fetch_add(&l->n, 1, __ATOMIC_RELAXED);
}

/* Send key i's frame: it must reach its queue in at most max_lookups; returns the lookups. */
static unsigned int
lookups_send(struct senv *e, struct lookups *l, enum key_kind kind, uint32_t i,
	     unsigned int max_lookups)
{
	struct frame f;
	unsigned int n;
	int q;

	__atomic_store_n(&l->n, 0, __ATOMIC_RELAXED);
	key_frame(kind, i, &f);
	q = senv_send(e, &f, NULL);
	n = __atomic_load_n(&l->n, __ATOMIC_RELAXED);
	if (q != (int)(i % SENV_NB_RQ))
		fail_msg("key %u: queue %d, expected %u", i, q, i % SENV_NB_RQ);
	if (n > max_lookups)
		fail_msg("key %u: %u hash lookups, at most %u expected", i, n, max_lookups);
	return n;
}

/*
 * Grow a matcher from a one-entry table to n rules; between inserts, frames
 * of rules spread over those installed (older tables are being emptied
 * then); at the end a frame for every rule. None may take more than two
 * lookups per matcher level, and the ICM per rule (library statistics,
 * after the sync that lets freed tables go) must stay within 96 bytes.
 * GROWTH_RULES=1048576 in the environment runs it at a million rules.
 */
static void
lookups_run(enum key_kind kind, unsigned int levels, uint32_t n)
{
	struct senv *e = senv_open(1);
	struct mlx5dm_rule **r = calloc(n, sizeof(*r));
	unsigned int max = 2 * levels, worst = 0, k;
	struct lookups l = { .rx = false };
	struct mlx5dm_ctx_stats st0, st1;
	struct mlx5dm_matcher_stats ms;
	struct mlx5dm_matcher *m;
	uint8_t mask[MP_SIZE], v[MP_SIZE];
	uint64_t icm, total = 0;
	uint32_t i, moving = 0;

	assert_non_null(r);
	senv_sync(e);
	st0 = senv_stats(e);
	key_mask(kind, mask);
	m = senv_matcher(e->tbl, 0, CRIT(outer), mask, 0);
	mlx5dm_sim_trace_set(mlx5dm_sim_of(e->dev), lookups_trace, &l);
	for (i = 0; i < n; i++) {
		key_value(kind, i, v);
		r[i] = senv_rule(m, 0, v, 1, &e->to_q[i % SENV_NB_RQ]);
		if ((i + 1) % 509 != 0)
			continue;
		/* Rules from the oldest to the newest, 16 of them; some while entries move. */
		assert_int_equal(mlx5dm_queue_drain(e->ctx, 0), 0);
		for (k = 0; k < 16; k++)
			(void)lookups_send(e, &l, kind, (uint32_t)((uint64_t)i * k / 15), max);
		assert_int_equal(mlx5dm_matcher_stats_get(m, &ms), 0);
		if (ms.chained_tables != 0)
			moving++;
	}
	/* Some samples were taken with an older table still on the lookup path. */
	assert_true(moving > 0);
	assert_int_equal(mlx5dm_queue_drain(e->ctx, 0), 0);
	for (i = 0; i < n; i++) {
		k = lookups_send(e, &l, kind, i, max);
		if (k > worst)
			worst = k;
		total += k;
	}
	mlx5dm_sim_trace_set(mlx5dm_sim_of(e->dev), NULL, NULL);
	senv_sync(e);
	st1 = senv_stats(e);
	icm = st1.icm[0].used_bytes - st0.icm[0].used_bytes;
	fprintf(stderr, "%u rules, %u level(s): lookups per frame max %u, mean %.2f; "
		"STEERING ICM %.1f bytes per rule; %u of %u samples while entries moved\n", n,
		levels, worst, (double)total / n, (double)icm / n, moving, n / 509);
	assert_true(icm <= 96ull * n);
	for (i = 0; i < n; i++)
		assert_int_equal(mlx5dm_rule_destroy(r[i], 0), 0);
	growth_close(e, m, &st0, r);
}

static uint32_t
lookups_rules(void)
{
	const char *s = getenv("GROWTH_RULES");

	return s != NULL ? (uint32_t)strtoul(s, NULL, 0) : 16384;
}

static void
test_growth_lookups_level0(void **state)
{
	(void)state;
	lookups_run(KEY_DMAC, 1, lookups_rules());
}

static void
test_growth_lookups_deep_level(void **state)
{
	(void)state;
	lookups_run(KEY_TUPLE_MIX, 2, lookups_rules());
}

/* The same rules in and out many times: every round ends where it started. */
static void
test_churn(void **state)
{
	struct senv *e = senv_open(1);
	struct mlx5dm_ctx_stats st0, st1;
	struct mlx5dm_rule *r[2048];
	struct mlx5dm_matcher *m;
	uint8_t mask[MP_SIZE], v[MP_SIZE];
	unsigned int round, i;
	struct frame f;

	(void)state;
	key_mask(KEY_TUPLE, mask);
	m = senv_matcher(e->tbl, 0, CRIT(outer), mask, 0);
	senv_sync(e);
	st0 = senv_stats(e);
	for (round = 0; round < 12; round++) {
		/* Shift the keys a little each round so tables are reused differently. */
		for (i = 0; i < 2048; i++) {
			key_value(KEY_TUPLE, i + round * 97, v);
			r[i] = senv_rule(m, 0, v, 1, &e->to_q[(i + round) % SENV_NB_RQ]);
		}
		for (i = 0; i < 2048; i += 61) {
			key_frame(KEY_TUPLE, i + round * 97, &f);
			assert_int_equal(senv_send(e, &f, NULL), (int)((i + round) % SENV_NB_RQ));
		}
		/* Delete in an order unrelated to the insertion order. */
		for (i = 0; i < 2048; i++)
			assert_int_equal(mlx5dm_rule_destroy(r[(i * 1031) % 2048], 0), 0);
		senv_sync(e);
		for (i = 0; i < 2048; i += 61) {
			key_frame(KEY_TUPLE, i + round * 97, &f);
			assert_int_equal(senv_send(e, &f, NULL), RX_DROPPED);
		}
		st1 = senv_stats(e);
		assert_icm_equal(&st0, &st1);
	}
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	senv_close(e);
}

static void
ring_key(unsigned int i, struct fkey *k)
{
	memset(k, 0, sizeof(*k));
	k->dmac = 0x020000000000ull + i % 7;
	k->ttl = (uint8_t)(i % 5);
	k->sip = i;
	k->dip = i * 3;
	k->sport = 1;
	k->dport = 2;
}

/*
 * The smallest send rings (64 WQEBBs): every rule operation wraps them
 * again and again; rules with several lookups and extra action STEs.
 */
static void
test_small_rings(void **state)
{
	struct mlx5dm_ctx_attr cattr = { .nb_queues = 2, .log_queue_wqebb = 6 };
	struct senv *e = senv_open_ex(&cattr, NULL);
	struct mlx5dm_action *push, *tag, *acts[4];
	struct mlx5dm_rule *r[4000];
	struct mlx5dm_matcher *m;
	uint8_t mask[MP_SIZE], v[MP_SIZE];
	unsigned int i;

	(void)state;
	push = mlx5dm_action_push_vlan(e->rx, 0x8100u << 16 | 9);
	tag = mlx5dm_action_flow_tag(e->rx, 0x99);
	assert_non_null(push);
	assert_non_null(tag);
	fkey_mask(mask);
	m = senv_matcher(e->tbl, 0, CRIT(outer), mask, 0);
	for (i = 0; i < 4000; i++) {
		struct fkey k;

		ring_key(i, &k);
		fkey_value(&k, v);
		acts[0] = tag;
		acts[1] = push;
		acts[2] = push;
		acts[3] = e->to_q[i % SENV_NB_RQ];
		r[i] = senv_rule(m, (uint16_t)(i % 2), v, 4, acts);
		if (i % 3 == 0 && i > 0) {
			assert_int_equal(mlx5dm_rule_destroy(r[i - 1], (uint16_t)(i % 2)), 0);
			r[i - 1] = NULL;
		}
	}
	assert_int_equal(mlx5dm_domain_sync(e->rx, MLX5DM_SYNC_SW | MLX5DM_SYNC_HW), 0);
	for (i = 0; i < 4000; i++) {
		struct frame f;
		struct fkey k;
		struct rx got;
		int q;

		ring_key(i, &k);
		fkey_frame(&k, &f);
		q = senv_send(e, &f, &got);
		if (r[i] == NULL) {
			assert_int_equal(q, RX_DROPPED);
			continue;
		}
		assert_int_equal(q, (int)(i % SENV_NB_RQ));
		assert_int_equal(got.flow_tag, 0x99);
		assert_int_equal(got.len, f.len + 8);
	}
	for (i = 0; i < 4000; i++)
		if (r[i] != NULL)
			assert_int_equal(mlx5dm_rule_destroy(r[i], 0), 0);
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	DESTROY_ACTIONS(push, tag);
	senv_close(e);
}

/* ---- concurrency ---- */

#define CONC_N 3000

struct worker {
	struct senv *e;
	struct mlx5dm_matcher *m;
	enum key_kind kind;
	uint16_t queue;
	uint32_t base;           /* keys [base, base + CONC_N) */
	struct mlx5dm_rule *r[CONC_N];
	int errors;
	int first_errno;
};

static void
worker_fail(struct worker *w)
{
	if (w->errors++ == 0)
		w->first_errno = errno;
}

static void *
worker_main(void *arg)
{
	struct worker *w = arg;
	uint8_t v[MP_SIZE];
	uint32_t i, k;

	/* Insert all, delete every third, re-insert every sixth, delete every fifth. */
	for (i = 0; i < CONC_N; i++) {
		k = w->base + i;
		key_value(w->kind, k, v);
		w->r[i] = mlx5dm_rule_create(w->m, w->queue, v, 1, &w->e->to_q[k % SENV_NB_RQ]);
		if (w->r[i] == NULL)
			worker_fail(w);
		if (i % 3 == 2 && w->r[i - 1] != NULL) {
			if (mlx5dm_rule_destroy(w->r[i - 1], w->queue) != 0)
				worker_fail(w);
			w->r[i - 1] = NULL;
		}
	}
	for (i = 1; i < CONC_N; i += 6) {
		k = w->base + i;
		key_value(w->kind, k, v);
		w->r[i] = mlx5dm_rule_create(w->m, w->queue, v, 1, &w->e->to_q[k % SENV_NB_RQ]);
		if (w->r[i] == NULL)
			worker_fail(w);
	}
	for (i = 0; i < CONC_N; i += 5) {
		if (w->r[i] == NULL)
			continue;
		if (mlx5dm_rule_destroy(w->r[i], w->queue) != 0)
			worker_fail(w);
		w->r[i] = NULL;
	}
	if (mlx5dm_queue_drain(w->e->ctx, w->queue) != 0)
		worker_fail(w);
	return NULL;
}

/* Two workers on queues 0 and 1; both in m0, or in m0 and m1. */
static void
concurrent_run(struct mlx5dm_matcher *m0, struct mlx5dm_matcher *m1, enum key_kind k0,
	       enum key_kind k1, struct senv *e)
{
	struct worker *w = calloc(2, sizeof(*w));
	pthread_t th[2];
	unsigned int t, i;

	assert_non_null(w);
	for (t = 0; t < 2; t++) {
		w[t].e = e;
		w[t].m = t == 0 ? m0 : m1;
		w[t].kind = t == 0 ? k0 : k1;
		w[t].queue = (uint16_t)t;
		w[t].base = t * CONC_N;
		assert_int_equal(pthread_create(&th[t], NULL, worker_main, &w[t]), 0);
	}
	for (t = 0; t < 2; t++)
		pthread_join(th[t], NULL);
	assert_int_equal(mlx5dm_domain_sync(e->rx, MLX5DM_SYNC_SW | MLX5DM_SYNC_HW), 0);
	for (t = 0; t < 2; t++) {
		if (w[t].errors != 0)
			fail_msg("worker %u: %d failures, first errno %d", t, w[t].errors,
				 w[t].first_errno);
		for (i = 0; i < CONC_N; i++) {
			uint32_t k = w[t].base + i;
			int want = w[t].r[i] != NULL ? (int)(k % SENV_NB_RQ) : RX_DROPPED;
			struct frame f;
			int q;

			key_frame(w[t].kind, k, &f);
			q = senv_send(e, &f, NULL);
			if (q != want)
				fail_msg("worker %u key %u: queue %d, expected %d", t, k, q, want);
		}
	}
	for (t = 0; t < 2; t++)
		for (i = 0; i < CONC_N; i++)
			if (w[t].r[i] != NULL)
				assert_int_equal(mlx5dm_rule_destroy(w[t].r[i], t), 0);
	free(w);
}

static void
test_concurrent_same_matcher(void **state)
{
	struct senv *e = senv_open(2);
	struct mlx5dm_ctx_stats st0, st1;
	struct mlx5dm_matcher *m;
	uint8_t mask[MP_SIZE];
	unsigned int kind;

	(void)state;
	st0 = senv_stats(e);
	for (kind = KEY_DMAC; kind <= KEY_TUPLE; kind++) {
		key_mask(kind, mask);
		m = senv_matcher(e->tbl, 0, CRIT(outer), mask, 0);
		concurrent_run(m, m, kind, kind, e);
		assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	}
	senv_sync(e);
	st1 = senv_stats(e);
	assert_icm_equal(&st0, &st1);
	senv_close(e);
}

static void
test_concurrent_two_matchers(void **state)
{
	struct senv *e = senv_open(2);
	struct mlx5dm_ctx_stats st0, st1;
	struct mlx5dm_matcher *m[2];
	uint8_t mask[MP_SIZE];

	(void)state;
	st0 = senv_stats(e);
	/* The frames of one key kind never match the other matcher's rules. */
	key_mask(KEY_DMAC, mask);
	m[0] = senv_matcher(e->tbl, 1, CRIT(outer), mask, 0);
	key_mask(KEY_TUPLE, mask);
	m[1] = senv_matcher(e->tbl, 0, CRIT(outer), mask, 0);
	concurrent_run(m[0], m[1], KEY_DMAC, KEY_TUPLE, e);
	assert_int_equal(mlx5dm_matcher_destroy(m[0]), 0);
	assert_int_equal(mlx5dm_matcher_destroy(m[1]), 0);
	senv_sync(e);
	st1 = senv_stats(e);
	assert_icm_equal(&st0, &st1);
	senv_close(e);
}

/*
 * Matchers come and go in front of a matcher whose first table grows: the
 * anchor in front of the growing matcher is rewritten by both. No rule
 * may become unreachable.
 */
struct churner {
	struct senv *e;
	bool stop;
	unsigned int rounds;
	int errors;
};

static void *
churner_main(void *arg)
{
	struct churner *c = arg;
	uint8_t mask[MP_SIZE] = { 0 };
	struct mlx5dm_matcher_attr ma = {
		.priority = 0, .criteria = CRIT(outer), .mask = mask,
	};

	/* A matcher no test frame matches (their source MAC is another). */
	mp_mac(mask, F(outer, smac_47_16), 0xffffffffffffull);
	while (!__atomic_load_n(&c->stop, __ATOMIC_ACQUIRE)) {
		struct mlx5dm_matcher *m = mlx5dm_matcher_create(c->e->tbl, &ma, NULL);

		if (m == NULL || mlx5dm_matcher_destroy(m) != 0)
			c->errors++;
		__atomic_fetch_add(&c->rounds, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

#define CHURN_ROUNDS 40

static void
test_matcher_churn_during_growth(void **state)
{
	struct senv *e = senv_open(1);
	struct churner c = { .e = e };
	struct mlx5dm_rule *r[1024];
	uint8_t mask[MP_SIZE], v[MP_SIZE];
	unsigned int round, i, lost = 0;
	pthread_t th;

	(void)state;
	key_mask(KEY_DMAC, mask);
	assert_int_equal(pthread_create(&th, NULL, churner_main, &c), 0);
	/* Rounds until the churner also did as many (both threads ran throughout). */
	for (round = 0; lost == 0 && (round < CHURN_ROUNDS ||
				     __atomic_load_n(&c.rounds, __ATOMIC_RELAXED) < CHURN_ROUNDS);
	     round++) {
		struct mlx5dm_matcher *m = senv_matcher(e->tbl, 1, CRIT(outer), mask, 0);

		for (i = 0; i < 1024; i++) {
			key_value(KEY_DMAC, round * 1024 + i, v);
			r[i] = senv_rule(m, 0, v, 1, &e->to_q[i % SENV_NB_RQ]);
		}
		for (i = 0; i < 1024; i++) {
			struct frame f;

			key_frame(KEY_DMAC, round * 1024 + i, &f);
			if (senv_send(e, &f, NULL) != (int)(i % SENV_NB_RQ))
				lost++;
		}
		for (i = 0; i < 1024; i++)
			assert_int_equal(mlx5dm_rule_destroy(r[i], 0), 0);
		assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	}
	__atomic_store_n(&c.stop, true, __ATOMIC_RELEASE);
	pthread_join(th, NULL);
	fprintf(stderr, "%u rounds, %u matcher create/destroy\n", round, c.rounds);
	assert_int_equal(c.errors, 0);
	if (lost != 0)
		fail_msg("round %u: %u of 1024 rules unreachable", round - 1, lost);
	senv_close(e);
}

/*
 * What moving entries to grown tables costs the send ring: n rules
 * inserted into a matcher grown from one slot, then deleted (the later
 * operations finish the moves). A slot chain moves in one go: each entry
 * is written once at its new place and the old slot is cleared with one
 * write; an entry is never written where it only waits to move again.
 */
static void
test_growth_move_writes(void **state)
{
	enum { N = 8192 };
	struct senv *e = senv_open(1);
	struct mlx5dm_ctx_stats st0, st1;
	struct mlx5dm_matcher_stats ms;
	struct mlx5dm_rule **r = calloc(N, sizeof(*r));
	struct mlx5dm_matcher *m;
	uint8_t mask[MP_SIZE], v[MP_SIZE];
	uint64_t wqes;
	uint32_t i;

	(void)state;
	assert_non_null(r);
	key_mask(KEY_DMAC, mask);
	m = senv_matcher(e->tbl, 0, CRIT(outer), mask, 0);
	senv_sync(e);
	st0 = senv_stats(e);
	for (i = 0; i < N; i++) {
		key_value(KEY_DMAC, i, v);
		r[i] = senv_rule(m, 0, v, 1, &e->to_q[i % SENV_NB_RQ]);
	}
	assert_int_equal(mlx5dm_matcher_stats_get(m, &ms), 0);
	assert_true(ms.growths >= 6);
	for (i = 0; i < N; i++)
		assert_int_equal(mlx5dm_rule_destroy(r[i], 0), 0);
	assert_int_equal(mlx5dm_matcher_stats_get(m, &ms), 0);
	assert_int_equal(ms.chained_tables, 0);
	st1 = senv_stats(e);
	wqes = st1.wqes - st0.wqes;
	fprintf(stderr, "%u rules in and out, %llu growths: %.2f WQEs per rule\n", N,
		(unsigned long long)ms.growths, (double)wqes / N);
	assert_true(wqes < 4 * N);
	free(r);
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	senv_close(e);
}

/*
 * A slot chain longer than a move step takes (MLX5DM_HTBL_MOVE_CHAIN): 48
 * distinct dmacs whose slot hashes agree in their low 10 bits share one
 * slot in every table up to 1024 entries. Twelve other rules per such rule
 * (spread over the slots) grow the matcher from one slot, and each growth
 * leaves the shared slot's chain, up to 48 entries, to move: a step moves
 * MLX5DM_HTBL_MOVE_CHAIN of it and the next entry takes the old slot, the
 * rest moving later. After each insert every chained rule so far steers
 * its frame, at the end every rule does, and so does every chained rule
 * left after each delete; the ICM is back at its start at the end.
 */
static void
test_growth_long_chain(void **state)
{
	enum { N = 48, OTHERS = 12, LOW = 1023, ALL = N * (OTHERS + 1) };
	struct senv *e = senv_open(1);
	struct mlx5dm_rule **r = calloc(ALL, sizeof(*r));
	struct mlx5dm_ctx_stats st0;
	struct mlx5dm_matcher_stats ms;
	struct mlx5dm_rule_prep prep;
	struct mlx5dm_matcher *m;
	uint8_t mask[MP_SIZE], v[MP_SIZE];
	uint32_t key[ALL], i, j, n = 0, low = 0;
	struct frame f;

	(void)state;
	assert_non_null(r);
	senv_sync(e);
	st0 = senv_stats(e);
	key_mask(KEY_DMAC, mask);
	m = senv_matcher(e->tbl, 0, CRIT(outer), mask, 0);
	/* Every (OTHERS + 1)th key's hash agrees with the first one's in its low bits. */
	for (i = 0; n < N && i < (1u << 24); i++) {
		key_value(KEY_DMAC, i, v);
		assert_int_equal(mlx5dm_rule_prepare(m, v, &prep), 0);
		if (n == 0)
			low = prep.hash & LOW;
		if ((prep.hash & LOW) == low)
			key[n++ * (OTHERS + 1)] = i;
	}
	assert_int_equal(n, N);
	for (i = 0; i < ALL; i++)
		if (i % (OTHERS + 1) != 0)
			key[i] = (1u << 24) + i;
	for (i = 0; i < ALL; i++) {
		key_value(KEY_DMAC, key[i], v);
		r[i] = senv_rule(m, 0, v, 1, &e->to_q[i % SENV_NB_RQ]);
		for (j = 0; j <= i; j += OTHERS + 1) {
			key_frame(KEY_DMAC, key[j], &f);
			assert_int_equal(senv_send(e, &f, NULL), (int)(j % SENV_NB_RQ));
		}
	}
	assert_int_equal(mlx5dm_matcher_stats_get(m, &ms), 0);
	fprintf(stderr, "%u rules, %u of them in one slot up to 1024 entries: %llu growths\n",
		(unsigned int)ALL, (unsigned int)N, (unsigned long long)ms.growths);
	assert_true(ms.growths >= 4);
	for (i = 0; i < ALL; i++) {
		key_frame(KEY_DMAC, key[i], &f);
		assert_int_equal(senv_send(e, &f, NULL), (int)(i % SENV_NB_RQ));
	}
	for (i = 0; i < ALL; i++) {
		assert_int_equal(mlx5dm_rule_destroy(r[i], 0), 0);
		for (j = (i / (OTHERS + 1) + 1) * (OTHERS + 1); j < ALL; j += OTHERS + 1) {
			key_frame(KEY_DMAC, key[j], &f);
			assert_int_equal(senv_send(e, &f, NULL), (int)(j % SENV_NB_RQ));
		}
	}
	growth_close(e, m, &st0, r);
}

/*
 * A matcher sized for its rules (log hint) and filled with that many never
 * grows a table: at level 0 (distinct dmacs), and below a level-0 entry the
 * rules share (one IPv4 address, a UDP port each), whose chain is sized
 * from the hint instead of level 0 (which holds one entry). Neither starts
 * a growth, not even for keys that spread over half the slots, and the ICM
 * is the hinted table's and its collision entries' (within 96 bytes per
 * rule for keys that spread). Every rule steers its frames.
 */
static void
sized_run(bool deep)
{
	enum { LOG_N = 14, N = 1 << LOG_N };
	struct senv *e = senv_open(1);
	struct mlx5dm_rule **r = calloc(N, sizeof(*r));
	struct mlx5dm_ctx_stats st0, st1;
	struct mlx5dm_matcher_stats ms;
	struct mlx5dm_matcher *m;
	uint8_t mask[MP_SIZE], v[MP_SIZE];
	struct frame f;
	struct pkt p;
	uint64_t icm;
	uint32_t i;

	assert_non_null(r);
	senv_sync(e);
	st0 = senv_stats(e);
	key_mask(deep ? KEY_TUPLE : KEY_DMAC, mask);
	m = senv_matcher(e->tbl, 0, CRIT(outer), mask, LOG_N);
	for (i = 0; i < N; i++) {
		if (deep) {
			memset(v, 0, MP_SIZE);
			mp_set(v, F(outer, ip_version), 4);
			mp_set(v, F(outer, dst_ip_31_0), 0x0a000001);
			mp_set(v, F(outer, udp_dport), i);
		} else {
			key_value(KEY_DMAC, i, v);
		}
		r[i] = senv_rule(m, 0, v, 1, &e->to_q[i % SENV_NB_RQ]);
	}
	assert_int_equal(mlx5dm_queue_drain(e->ctx, 0), 0);
	st1 = senv_stats(e);
	assert_int_equal(mlx5dm_matcher_stats_get(m, &ms), 0);
	fprintf(stderr, "%u rules in a matcher sized for them (%s): %llu growths\n", N,
		deep ? "two levels" : "one level", (unsigned long long)ms.growths);
	assert_int_equal(st1.rehash - st0.rehash, 0);
	assert_int_equal(ms.growths, 0);
	/* Not even started (the two-level keys spread over half the slots). */
	assert_int_equal(ms.growing, 0);
	icm = st1.icm[0].used_bytes - st0.icm[0].used_bytes;
	fprintf(stderr, "STEERING ICM %.1f bytes per rule, %llu slots, %llu used\n",
		(double)icm / N, (unsigned long long)ms.entries, (unsigned long long)ms.used);
	/* The hinted table and its collision entries (64 bytes each): no other table. */
	assert_true(icm <= (deep ? 128ull : 96ull) * N);
	for (i = 0; i < N; i += 97) {
		if (deep) {
			pkt_udp4(&p);
			p.o.dip = 0x0a000001;
			p.o.dport = (uint16_t)i;
			frame_build(&f, &p);
		} else {
			key_frame(KEY_DMAC, i, &f);
		}
		assert_int_equal(senv_send(e, &f, NULL), (int)(i % SENV_NB_RQ));
	}
	for (i = 0; i < N; i++)
		assert_int_equal(mlx5dm_rule_destroy(r[i], 0), 0);
	growth_close(e, m, &st0, r);
}

static void
test_sized_never_grows(void **state)
{
	(void)state;
	sized_run(false);
	sized_run(true);
}

/*
 * A table as large as the STE pool's largest chunk (2^17 entries on 64 MiB
 * of STE ICM) does not grow when crowded: a growth could only copy its
 * entries into another table of that size, again and again. With half
 * again as many rules as slots it stays the one table, its collision
 * lists take the rest, and every rule steers its frames.
 */
static void
test_largest_table_stays(void **state)
{
	enum { LOG_N = 17, N = 3 << (LOG_N - 1) };
	struct mlx5dm_rule **r = calloc(N, sizeof(*r));
	struct mlx5dm_ctx_stats st0, st1;
	struct mlx5dm_matcher_stats ms;
	struct mlx5dm_sim_config cfg;
	struct mlx5dm_matcher *m;
	uint8_t mask[MP_SIZE], v[MP_SIZE];
	struct frame f;
	struct senv *e;
	uint32_t i;

	(void)state;
	assert_non_null(r);
	mlx5dm_sim_config_default(&cfg);
	cfg.log_steering_sw_icm_size = 26;
	e = senv_open_cfg(1, &cfg);
	senv_sync(e);
	st0 = senv_stats(e);
	key_mask(KEY_DMAC, mask);
	m = senv_matcher(e->tbl, 0, CRIT(outer), mask, LOG_N);
	for (i = 0; i < N; i++) {
		key_value(KEY_DMAC, i, v);
		r[i] = senv_rule(m, 0, v, 1, &e->to_q[i % SENV_NB_RQ]);
	}
	assert_int_equal(mlx5dm_queue_drain(e->ctx, 0), 0);
	st1 = senv_stats(e);
	assert_int_equal(mlx5dm_matcher_stats_get(m, &ms), 0);
	assert_int_equal(ms.growths, 0);
	assert_int_equal(st1.rehash - st0.rehash, 0);
	assert_int_equal(ms.rules, N);
	for (i = 0; i < N; i += 101) {
		key_frame(KEY_DMAC, i, &f);
		assert_int_equal(senv_send(e, &f, NULL), (int)(i % SENV_NB_RQ));
	}
	for (i = 0; i < N; i++)
		assert_int_equal(mlx5dm_rule_destroy(r[i], 0), 0);
	growth_close(e, m, &st0, r);
}

/* With "lookups" or "sizing": those tests only; without: the others. */
int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_growth_level0),
		cmocka_unit_test(test_growth_deep_level),
		cmocka_unit_test(test_churn),
		cmocka_unit_test(test_small_rings),
		cmocka_unit_test(test_concurrent_same_matcher),
		cmocka_unit_test(test_concurrent_two_matchers),
		cmocka_unit_test(test_matcher_churn_during_growth),
	};
	const struct CMUnitTest sizing[] = {
		cmocka_unit_test(test_growth_move_writes),
		cmocka_unit_test(test_growth_long_chain),
		cmocka_unit_test(test_sized_never_grows),
		cmocka_unit_test(test_largest_table_stays),
	};
	const struct CMUnitTest lookups[] = {
		cmocka_unit_test(test_growth_lookups_level0),
		cmocka_unit_test(test_growth_lookups_deep_level),
	};

	if (argc > 1 && strcmp(argv[1], "lookups") == 0)
		return cmocka_run_group_tests_name("steer_lookups", lookups, NULL, NULL);
	if (argc > 1 && strcmp(argv[1], "sizing") == 0)
		return cmocka_run_group_tests_name("steer_sizing", sizing, NULL, NULL);
	return cmocka_run_group_tests_name("steer_growth", tests, NULL, NULL);
}
