/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Doorbell batching (ctx attr doorbell_batch): a rule is placed in its
 * slot chain when created, only the doorbell waits for the next flush.
 * On the device model, against a reference of which rule must win for
 * each key: duplicates go behind the first inserted, deletions of rules
 * not yet rung and rung ones interleave with inserts, the table grows
 * meanwhile; EEXIST is decided at create time; a create that fails at
 * any allocation leaves the rules before it steering and its own key
 * unmatched; batched and unbatched runs build the same tables.
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

#include "mlx5dm_osdep.h"
#include "steer_test_env.h"

#define KEYS 1500u
#define RULES 2400u
#define DMAC_BASE 0x020000000000ull

struct live {
	struct mlx5dm_rule *r;
	unsigned int key;
	int q;
	unsigned int seq;            /* insertion order */
};

static struct senv *
batch_env(bool dups, uint32_t batch)
{
	struct mlx5dm_ctx_attr a = {
		.nb_queues = 1, .doorbell_batch = batch, .allow_duplicate_rules = dups,
	};

	return senv_open_ex(&a, NULL);
}

static struct senv *
defer_env(bool dups)
{
	return batch_env(dups, 16);
}

static struct mlx5dm_matcher *
dmac_matcher(struct senv *e)
{
	uint8_t mask[MP_SIZE] = { 0 };

	mp_mac(mask, MLX5DM_FTE(outer, dmac_47_16), 0xffffffffffffull);
	return senv_matcher(e->tbl, 0, CRIT(outer), mask, 0);
}

static struct mlx5dm_rule *
dmac_rule(struct mlx5dm_matcher *m, struct senv *e, unsigned int key, int q)
{
	uint8_t v[MP_SIZE] = { 0 };

	mp_mac(v, MLX5DM_FTE(outer, dmac_47_16), DMAC_BASE + key);
	return mlx5dm_rule_create(m, 0, v, 1, &e->to_q[q]);
}

static int
dmac_send(struct senv *e, unsigned int key)
{
	struct frame f;
	struct pkt p;

	pkt_udp4(&p);
	p.o.dmac = DMAC_BASE + key;
	frame_build(&f, &p);
	return senv_send(e, &f, NULL);
}

/* The queue key's frame must reach: the earliest live rule's, or none. */
static int
expect_q(const struct live *l, unsigned int n, unsigned int key)
{
	unsigned int i, best = UINT32_MAX;
	int q = RX_DROPPED;

	for (i = 0; i < n; i++)
		if (l[i].r != NULL && l[i].key == key && l[i].seq < best) {
			best = l[i].seq;
			q = l[i].q;
		}
	return q;
}

static void
check_all(struct senv *e, const struct live *l, unsigned int n, unsigned int keys)
{
	unsigned int k;

	assert_int_equal(mlx5dm_queue_flush(e->ctx, 0), 0);
	for (k = 0; k < keys; k++) {
		int want = expect_q(l, n, k), got = dmac_send(e, k);

		if (got != want)
			fail_msg("key %u: queue %d, want %d", k, got, want);
	}
}

static void
test_defer_dups_deletes_growth(void **state)
{
	static struct live l[RULES];
	struct senv *e = defer_env(true);
	struct mlx5dm_matcher *m = dmac_matcher(e);
	struct mlx5dm_matcher_stats ms;
	uint64_t rnd = 11;
	unsigned int i, live = 0;

	(void)state;
	for (i = 0; i < RULES; i++) {
		/* Keys repeat after KEYS rules: the later rule of a key is a duplicate. */
		l[i].key = i < KEYS ? i : (unsigned int)(rnd_next(&rnd) % KEYS);
		l[i].q = (int)(rnd_next(&rnd) % SENV_NB_RQ);
		l[i].seq = i;
		l[i].r = dmac_rule(m, e, l[i].key, l[i].q);
		assert_non_null(l[i].r);
		live++;
		/* Delete now and then: the rule just made (not rung yet) or an older one. */
		if (rnd_next(&rnd) % 5 == 0) {
			unsigned int j = i;

			if (rnd_next(&rnd) % 2)
				j = (unsigned int)(rnd_next(&rnd) % (i + 1));

			if (l[j].r != NULL) {
				assert_int_equal(mlx5dm_rule_destroy(l[j].r, 0), 0);
				l[j].r = NULL;
				live--;
			}
		}
		if (i == KEYS / 2 || i == KEYS + 300)
			check_all(e, l, i + 1, KEYS);
	}
	check_all(e, l, RULES, KEYS);
	assert_int_equal(mlx5dm_matcher_stats_get(m, &ms), 0);
	assert_int_equal(ms.rules, live);
	for (i = 0; i < RULES; i++)
		if (l[i].r != NULL)
			assert_int_equal(mlx5dm_rule_destroy(l[i].r, 0), 0);
	assert_int_equal(mlx5dm_queue_flush(e->ctx, 0), 0);
	assert_int_equal(dmac_send(e, 0), RX_DROPPED);
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	senv_close(e);
}

static void
test_defer_eexist(void **state)
{
	struct senv *e = defer_env(false);
	struct mlx5dm_matcher *m = dmac_matcher(e);
	struct mlx5dm_rule *r0, *r1;

	(void)state;
	r0 = dmac_rule(m, e, 1, 2);
	assert_non_null(r0);
	/* r0 waits for its placement; its twin is refused now all the same. */
	errno = 0;
	assert_null(dmac_rule(m, e, 1, 3));
	assert_int_equal(errno, EEXIST);
	assert_int_equal(dmac_send(e, 1), RX_DROPPED); /* not flushed yet */
	assert_int_equal(mlx5dm_queue_flush(e->ctx, 0), 0);
	assert_int_equal(dmac_send(e, 1), 2);
	/* A rule destroyed before its doorbell rang, and a rung one. */
	r1 = dmac_rule(m, e, 2, 1);
	assert_non_null(r1);
	assert_int_equal(mlx5dm_rule_destroy(r1, 0), 0);
	assert_int_equal(mlx5dm_rule_destroy(r0, 0), 0);
	assert_int_equal(mlx5dm_queue_flush(e->ctx, 0), 0);
	assert_int_equal(dmac_send(e, 1), RX_DROPPED);
	assert_int_equal(dmac_send(e, 2), RX_DROPPED);
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	senv_close(e);
}

/* The same rules, placed at once (no batching) or deferred: the same tables, slots and growths. */
static void
test_defer_same_layout(void **state)
{
	struct mlx5dm_matcher_stats st[2];
	unsigned int run, k;

	(void)state;
	for (run = 0; run < 2; run++) {
		static struct mlx5dm_rule *r[3 * KEYS];
		struct senv *e = batch_env(true, run == 0 ? 1 : 16);
		struct mlx5dm_matcher *m = dmac_matcher(e);

		for (k = 0; k < 3 * KEYS; k++) {
			r[k] = dmac_rule(m, e, (k * 7919u) % (3 * KEYS), 0);
			assert_non_null(r[k]);
		}
		assert_int_equal(mlx5dm_matcher_stats_get(m, &st[run]), 0);
		for (k = 0; k < 3 * KEYS; k++)
			assert_int_equal(mlx5dm_rule_destroy(r[k], 0), 0);
		assert_int_equal(mlx5dm_matcher_destroy(m), 0);
		senv_close(e);
	}
	assert_true(st[0].growths > 1);
	assert_int_equal(st[1].rules, st[0].rules);
	assert_int_equal(st[1].tables, st[0].tables);
	assert_int_equal(st[1].entries, st[0].entries);
	assert_int_equal(st[1].used, st[0].used);
	assert_int_equal(st[1].collisions, st[0].collisions);
	assert_int_equal(st[1].growths, st[0].growths);
}

#define FAULT_KEYS 48u

static void
test_defer_faults(void **state)
{
	static struct live l[FAULT_KEYS];
	struct senv *e = defer_env(true);
	struct mlx5dm_matcher *m = dmac_matcher(e);
	unsigned int k, n, failed = 0;

	(void)state;
	for (k = 0; k < FAULT_KEYS; k++) {
		l[k].key = k;
		l[k].q = (int)(k % SENV_NB_RQ);
		l[k].seq = k;
		for (n = 1;; n++) {
			mlx5dm_alloc_fail_at(n);
			errno = 0;
			l[k].r = dmac_rule(m, e, k, l[k].q);
			mlx5dm_alloc_fail_at(0);
			if (l[k].r != NULL)
				break;
			failed++;
			assert_int_equal(errno, ENOMEM);
			/* The rules before steer; this key does not. */
			check_all(e, l, k, k + 1);
		}
	}
	/* Creates allocate now and then (slabs, slot pages, the held entry): some failed. */
	assert_true(failed > 0);
	check_all(e, l, FAULT_KEYS, FAULT_KEYS);
	for (k = 0; k < FAULT_KEYS; k++)
		assert_int_equal(mlx5dm_rule_destroy(l[k].r, 0), 0);
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	senv_close(e);
}

/*
 * Two threads insert and delete on their own queues into one matcher while
 * a third flushes, dumps and reads statistics: every rule left must
 * steer.
 */
#define THR_KEYS 1200u

struct thr {
	struct senv *e;
	struct mlx5dm_matcher *m;
	uint16_t queue;
	unsigned int base;
	struct mlx5dm_rule *r[THR_KEYS];
	int q[THR_KEYS];
	unsigned int made;               /* rules created (all, unless one failed) */
	unsigned int *done;
};

static void *
thr_run(void *arg)
{
	struct thr *t = arg;
	uint64_t rnd = 100 + t->queue;
	uint8_t v[MP_SIZE] = { 0 };
	unsigned int i;

	for (i = 0; i < THR_KEYS; i++) {
		t->q[i] = (int)(rnd_next(&rnd) % SENV_NB_RQ);
		mp_mac(v, MLX5DM_FTE(outer, dmac_47_16), DMAC_BASE + t->base + i);
		t->r[i] = mlx5dm_rule_create(t->m, t->queue, v, 1, &t->e->to_q[t->q[i]]);
		if (t->r[i] == NULL)
			break;
		if (i > 0 && rnd_next(&rnd) % 4 == 0) {
			unsigned int j = (unsigned int)(rnd_next(&rnd) % i);

			if (t->r[j] != NULL && mlx5dm_rule_destroy(t->r[j], t->queue) == 0)
				t->r[j] = NULL;
		}
	}
	t->made = i;
	__atomic_add_fetch(t->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static void
test_defer_threads(void **state)
{
	struct mlx5dm_ctx_attr a = {
		.nb_queues = 2, .doorbell_batch = 16, .allow_duplicate_rules = true,
	};
	static struct thr t[2];
	struct senv *e = senv_open_ex(&a, NULL);
	struct mlx5dm_matcher *m = dmac_matcher(e);
	struct mlx5dm_matcher_stats ms;
	unsigned int done = 0, i, k, rounds = 0;
	pthread_t th[2];
	FILE *f;

	(void)state;
	for (k = 0; k < 2; k++) {
		memset(&t[k], 0, sizeof(t[k]));
		t[k].e = e;
		t[k].m = m;
		t[k].queue = (uint16_t)k;
		t[k].base = k * THR_KEYS;
		t[k].done = &done;
		assert_int_equal(pthread_create(&th[k], NULL, thr_run, &t[k]), 0);
	}
	while (__atomic_load_n(&done, __ATOMIC_ACQUIRE) < 2 || rounds < 3) {
		assert_int_equal(mlx5dm_queue_flush(e->ctx, (uint16_t)(rounds % 2)), 0);
		assert_int_equal(mlx5dm_matcher_stats_get(m, &ms), 0);
		f = fopen("/dev/null", "w");
		assert_non_null(f);
		assert_int_equal(mlx5dm_domain_dump(e->rx, f), 0);
		fclose(f);
		rounds++;
	}
	for (k = 0; k < 2; k++) {
		assert_int_equal(pthread_join(th[k], NULL), 0);
		assert_int_equal(t[k].made, THR_KEYS);
	}
	assert_int_equal(mlx5dm_queue_drain(e->ctx, 0), 0);
	assert_int_equal(mlx5dm_queue_drain(e->ctx, 1), 0);
	for (k = 0; k < 2; k++) {
		for (i = 0; i < THR_KEYS; i++) {
			int want = t[k].r[i] != NULL ? t[k].q[i] : RX_DROPPED;

			if (dmac_send(e, t[k].base + i) != want)
				fail_msg("thread %u key %u: want %d", k, i, want);
		}
	}
	for (k = 0; k < 2; k++)
		for (i = 0; i < THR_KEYS; i++)
			if (t[k].r[i] != NULL)
				assert_int_equal(mlx5dm_rule_destroy(t[k].r[i], 0), 0);
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	senv_close(e);
}

/*
 * One queue's batching (mlx5dm_queue_doorbell_batch()): queue 1 leaves its
 * writes to the flush, queue 0 of the same context rings per rule; a rule
 * of queue 1 steers only once flushed, or once the queue is back to one
 * doorbell per rule and rings again. Bad arguments change nothing.
 */
static void
test_defer_queue_batch(void **state)
{
	struct mlx5dm_ctx_attr a = { .nb_queues = 2 };
	struct senv *e = senv_open_ex(&a, NULL);
	struct mlx5dm_matcher *m = dmac_matcher(e);
	struct mlx5dm_rule *r[4];
	uint8_t v[MP_SIZE];
	unsigned int k;

	(void)state;
	assert_int_equal(mlx5dm_queue_doorbell_batch(NULL, 1, UINT32_MAX), -EINVAL);
	assert_int_equal(mlx5dm_queue_doorbell_batch(e->ctx, 2, UINT32_MAX), -EINVAL);
	assert_int_equal(mlx5dm_queue_doorbell_batch(e->ctx, 1, UINT32_MAX), 0);
	for (k = 0; k < 4; k++) {
		memset(v, 0, sizeof(v));
		mp_mac(v, MLX5DM_FTE(outer, dmac_47_16), DMAC_BASE + k);
		r[k] = mlx5dm_rule_create(m, (uint16_t)(k % 2), v, 1, &e->to_q[1]);
		assert_non_null(r[k]);
	}
	/* Queue 0's rules (keys 0 and 2) steer at once, queue 1's wait. */
	assert_int_equal(dmac_send(e, 0), 1);
	assert_int_equal(dmac_send(e, 1), RX_DROPPED);
	assert_int_equal(dmac_send(e, 2), 1);
	assert_int_equal(dmac_send(e, 3), RX_DROPPED);
	assert_int_equal(mlx5dm_queue_flush(e->ctx, 1), 0);
	assert_int_equal(dmac_send(e, 1), 1);
	assert_int_equal(dmac_send(e, 3), 1);
	/* Unlinks wait the same way: key 3's rule steers until the flush. */
	assert_int_equal(mlx5dm_rule_destroy(r[3], 1), 0);
	assert_int_equal(dmac_send(e, 3), 1);
	assert_int_equal(mlx5dm_queue_flush(e->ctx, 1), 0);
	assert_int_equal(dmac_send(e, 3), RX_DROPPED);
	/* Back to one doorbell per rule: the next write rings at once. */
	assert_int_equal(mlx5dm_queue_doorbell_batch(e->ctx, 1, 0), 0);
	assert_int_equal(mlx5dm_rule_destroy(r[1], 1), 0);
	assert_int_equal(dmac_send(e, 1), RX_DROPPED);
	assert_int_equal(mlx5dm_rule_destroy(r[0], 0), 0);
	assert_int_equal(mlx5dm_rule_destroy(r[2], 0), 0);
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	senv_close(e);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defer_dups_deletes_growth),
		cmocka_unit_test(test_defer_eexist),
		cmocka_unit_test(test_defer_same_layout),
		cmocka_unit_test(test_defer_faults),
		cmocka_unit_test(test_defer_threads),
		cmocka_unit_test(test_defer_queue_batch),
	};

	return cmocka_run_group_tests_name("steer_defer", tests, NULL, NULL);
}
