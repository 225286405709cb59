/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Rule queues used from two threads at once, into one matcher, on the
 * device model.
 *
 * One slot: sixteen rules whose tags hash to the same slot of the first
 * table (one collision chain), eight per thread, inserted and deleted at
 * random by both threads on their own queues while each thread, after
 * waiting for its queue, sends frames: a live rule of its own must steer
 * its frame, a deleted one must not. Then the frames of all sixteen keys
 * must find exactly the live rules. The walk is the model's, over the
 * bytes in its ICM: a write of one queue overtaken by an older write of the
 * other to the same entry loses a rule or revives a deleted one.
 *
 * One slot, one thread: the same meeting in a fixed order, the second
 * queue's doorbell rung first (what the device may do with two rings).
 *
 * A stopped device: a queue's wait times out with nothing lost, whether
 * a rule's own write or a first-level growth's anchor write was pending.
 *
 * Disjoint slots: rules of two queues in different slots neither wait for
 * nor drain the other queue (one write per rule, on its own ring).
 *
 * Moves: a first level that grew has its older table's entries moved to
 * the head on the ring of the queue whose operation moves them; the other
 * queue's entry in the same head slot must execute first (fixed order),
 * and two threads grow a first level from its smallest table, once to
 * tables large enough to be written a slice per operation.
 *
 * A shared prefix: two threads into a two-level matcher whose rules share
 * their level-0 entry, meeting in its last level's chains and in the
 * structure below the shared entry, which comes and goes with few keys.
 *
 * A held queue: a first-level growth completes on queue 0 while queue 1's
 * lock is held elsewhere (as by queue 1 completing another matcher's
 * growth): a growth written on queue 0 alone takes no other queue's lock,
 * and one that queue 1 wrote slices of waits for them without queue 0's.
 *
 * Shards: where a one-level and a two-level matcher put their rules, and
 * two threads meeting on the one shard lock of a two-level matcher whose
 * rules share their level-0 entry (the queue counters of those meetings).
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

#include "mlx5dm_sim_core.h"
#include "mlx5dm_steer_priv.h"
#include "steer_test_env.h"

#define F(sec, name) MLX5DM_FTE(sec, name)

#define HAM_KEYS 8              /* per thread */
#define HAM_OPS 4000            /* inserts and deletes per thread */
#define HAM_CHECK 64            /* operations between two checks by frame */
#define HAM_ROUNDS 32           /* hammer rounds at most, until the two queues met */
#define GROW_KEYS 384           /* per thread, over every shard: the first level grows */
#define BIG_KEYS 2048           /* per thread: a first-level table filled in slices */

static void
dmac_mask(uint8_t *m)
{
	memset(m, 0, MP_SIZE);
	mp_mac(m, F(outer, dmac_47_16), 0xffffffffffffull);
}

static void
dmac_value(uint64_t mac, uint8_t *v)
{
	memset(v, 0, MP_SIZE);
	mp_mac(v, F(outer, dmac_47_16), mac);
}

static void
dmac_frame(uint64_t mac, struct frame *f)
{
	struct pkt p;

	pkt_udp4(&p);
	p.o.dmac = mac;
	frame_build(f, &p);
}

/* Two-level keys: one MAC (level 0, shared) and a per-rule IPv4 destination. */
#define SHARED_MAC 0x02aabbccdd01ull

static void
mac_dip_mask(uint8_t *m)
{
	dmac_mask(m);
	mp_set(m, F(outer, ip_version), 4);
	mp_set(m, F(outer, dst_ip_31_0), 0xffffffff);
}

static void
mac_dip_value(uint32_t dip, uint8_t *v)
{
	dmac_value(SHARED_MAC, v);
	mp_set(v, F(outer, ip_version), 4);
	mp_set(v, F(outer, dst_ip_31_0), dip);
}

/* The slot hash of mac's rule in m (before the table's mask): what the device hashes. */
static uint32_t
dmac_hash(struct mlx5dm_matcher *m, uint64_t mac)
{
	struct mlx5dm_rule_prep prep;
	uint8_t v[MP_SIZE];

	dmac_value(mac, v);
	assert_int_equal(mlx5dm_rule_prepare(m, v, &prep), 0);
	assert_non_null(prep.root);
	return prep.hash;
}

static uint64_t
first_entries(struct mlx5dm_matcher *m)
{
	struct mlx5dm_matcher_stats st;

	assert_int_equal(mlx5dm_matcher_stats_get(m, &st), 0);
	return st.entries;
}

struct hammer {
	struct senv *e;
	struct mlx5dm_matcher *m;
	pthread_mutex_t *send_lock;
	pthread_barrier_t *start;
	uint16_t queue;
	uint64_t seed;
	unsigned int nb_keys;
	bool grow;               /* every key inserted, then every other one deleted */
	bool prefix;             /* keys are IPv4 destinations behind SHARED_MAC */
	uint64_t mac[BIG_KEYS];
	struct mlx5dm_rule *r[BIG_KEYS];
	int errors;
	int first_errno;
	int missed;              /* a live rule's frame not steered by it */
	int stale;               /* a deleted rule's frame steered */
};

static int
hammer_rq(const struct hammer *h, unsigned int i)
{
	return (int)((h->queue * 2u + i) % SENV_NB_RQ);
}

static void
hammer_fail(struct hammer *h)
{
	if (h->errors++ == 0)
		h->first_errno = errno;
}

/* Key i's frame goes where its rule says, or is dropped when it has none. */
static void
hammer_check(struct hammer *h, unsigned int i)
{
	struct frame f;
	struct pkt p;
	int q;

	pkt_udp4(&p);
	p.o.dmac = h->prefix ? SHARED_MAC : h->mac[i];
	if (h->prefix)
		p.o.dip = (uint32_t)h->mac[i];
	frame_build(&f, &p);
	pthread_mutex_lock(h->send_lock);
	q = senv_send(h->e, &f, NULL);
	pthread_mutex_unlock(h->send_lock);
	if (h->r[i] != NULL && q != hammer_rq(h, i))
		h->missed++;
	else if (h->r[i] == NULL && q != RX_DROPPED)
		h->stale++;
}

static void *
hammer_main(void *arg)
{
	struct hammer *h = arg;
	uint8_t v[MP_SIZE];
	unsigned int n, i;

	pthread_barrier_wait(h->start);
	for (n = 0; n < (h->grow ? h->nb_keys * 3 / 2 : HAM_OPS); n++) {
		if (!h->grow)
			i = (unsigned int)(rnd_next(&h->seed) % h->nb_keys);
		else
			i = n < h->nb_keys ? n : 2 * (n - h->nb_keys);
		if (h->r[i] != NULL) {
			if (mlx5dm_rule_destroy(h->r[i], h->queue) != 0)
				hammer_fail(h);
			h->r[i] = NULL;
		} else {
			if (h->prefix)
				mac_dip_value((uint32_t)h->mac[i], v);
			else
				dmac_value(h->mac[i], v);
			h->r[i] = mlx5dm_rule_create(h->m, h->queue, v, 1,
						     &h->e->to_q[hammer_rq(h, i)]);
			if (h->r[i] == NULL)
				hammer_fail(h);
		}
		if (n % HAM_CHECK != HAM_CHECK - 1)
			continue;
		/* Once the queue's writes are done, its rules are as the thread left them. */
		if (mlx5dm_queue_drain(h->e->ctx, h->queue) != 0)
			hammer_fail(h);
		hammer_check(h, (unsigned int)(rnd_next(&h->seed) % h->nb_keys));
	}
	if (mlx5dm_queue_drain(h->e->ctx, h->queue) != 0)
		hammer_fail(h);
	return NULL;
}

/*
 * Keys in one slot chain of m's first table (no growth: one slot in use),
 * alternately for out0 and out1 (n each).
 */
static void
one_slot_keys(struct mlx5dm_matcher *m, uint64_t *out0, uint64_t *out1, unsigned int n)
{
	uint64_t entries = first_entries(m), mac;
	uint32_t slot = UINT32_MAX, hash;
	unsigned int found = 0;

	for (mac = 0x020000000001ull; found < 2 * n; mac++) {
		hash = dmac_hash(m, mac) & (uint32_t)(entries - 1);
		if (slot == UINT32_MAX)
			slot = hash;
		if (hash != slot)
			continue;
		if (found % 2 == 0)
			out0[found / 2] = mac;
		else
			out1[found / 2] = mac;
		found++;
	}
}

static int
send_mac(struct senv *e, uint64_t mac)
{
	struct frame f;

	dmac_frame(mac, &f);
	return senv_send(e, &f, NULL);
}

/*
 * Run the two hammers (their keys set) on m, then check every key's frame:
 * exactly the live rules steer, as the model walks the chains.
 */
static void
hammer_run(struct hammer *h, struct senv *e, struct mlx5dm_matcher *m, unsigned int nb_keys,
	   uint64_t seed)
{
	static pthread_mutex_t send_lock = PTHREAD_MUTEX_INITIALIZER;
	pthread_barrier_t start;
	pthread_t th[2];
	unsigned int t, i;

	/* Both threads start their operations together, so that their queues overlap. */
	assert_int_equal(pthread_barrier_init(&start, NULL, 2), 0);
	for (t = 0; t < 2; t++) {
		h[t].e = e;
		h[t].m = m;
		h[t].send_lock = &send_lock;
		h[t].start = &start;
		h[t].queue = (uint16_t)t;
		h[t].nb_keys = nb_keys;
		h[t].seed = seed * (t + 1);
		assert_int_equal(pthread_create(&th[t], NULL, hammer_main, &h[t]), 0);
	}
	for (t = 0; t < 2; t++)
		pthread_join(th[t], NULL);
	pthread_barrier_destroy(&start);
	for (t = 0; t < 2; t++) {
		if (h[t].errors != 0)
			fail_msg("thread %u: %d failures, first errno %d", t, h[t].errors,
				 h[t].first_errno);
		if (h[t].missed != 0 || h[t].stale != 0)
			fail_msg("thread %u: %d live rules missed, %d deleted rules hit", t,
				 h[t].missed, h[t].stale);
	}
	for (t = 0; t < 2; t++) {
		for (i = 0; i < nb_keys; i++) {
			hammer_check(&h[t], i);
			if (h[t].missed != 0 || h[t].stale != 0)
				fail_msg("thread %u key %u: live %d, steered wrong", t, i,
					 h[t].r[i] != NULL);
		}
	}
}

/*
 * A context with two queues and a matcher of a MAC (prefix: of SHARED_MAC
 * and an IPv4 destination) for the two hammers h, whose nb_keys keys each
 * alternate between them from first on.
 */
static struct mlx5dm_matcher *
hammer_matcher(struct senv **e, struct hammer *h, unsigned int nb_keys, uint64_t first,
	       bool prefix)
{
	struct mlx5dm_ctx_attr cattr = { .nb_queues = 2, .doorbell_batch = 32 };
	uint8_t mask[MP_SIZE];
	unsigned int t, i;

	*e = senv_open_ex(&cattr, NULL);
	if (prefix)
		mac_dip_mask(mask);
	else
		dmac_mask(mask);
	for (t = 0; t < 2; t++) {
		h[t].prefix = prefix;
		for (i = 0; i < nb_keys; i++)
			h[t].mac[i] = first + 2 * i + t;
	}
	return senv_matcher((*e)->tbl, 0, CRIT(outer), mask, 0);
}

/*
 * Hammer rounds until the queues met: some rule made the other queue's
 * writes to its chain execute first. Whether two threads overlap is up to
 * the scheduler (a loaded machine may run one after the other), so rounds
 * go on, each checked, until they have met.
 */
static void
hammer_until_met(struct hammer *h, struct senv *e, struct mlx5dm_matcher *m,
		 unsigned int nb_keys, uint64_t seed)
{
	struct mlx5dm_ctx_stats st0 = senv_stats(e), st1;
	unsigned int round;

	for (round = 0; round < HAM_ROUNDS; round++) {
		hammer_run(h, e, m, nb_keys, seed + round);
		st1 = senv_stats(e);
		if (st1.queue_waits > st0.queue_waits)
			return;
	}
	fail_msg("the queues never met in %u rounds", HAM_ROUNDS);
}

/* Each thread's remaining rules, deleted through the other queue. */
static void
hammer_release(struct hammer *h)
{
	unsigned int t, i;

	for (t = 0; t < 2; t++) {
		for (i = 0; i < h[t].nb_keys; i++) {
			if (h[t].r[i] != NULL)
				assert_int_equal(mlx5dm_rule_destroy(h[t].r[i], (uint16_t)(1 - t)),
						 0);
		}
	}
}

/* Sixteen keys in one slot chain, two threads on two queues. */
static void
test_threads_one_slot(void **state)
{
	struct mlx5dm_ctx_attr cattr = { .nb_queues = 2, .doorbell_batch = 32 };
	struct hammer h[2];
	struct mlx5dm_matcher *m;
	uint8_t mask[MP_SIZE];
	struct senv *e;

	(void)state;
	e = senv_open_ex(&cattr, NULL);
	dmac_mask(mask);
	m = senv_matcher(e->tbl, 0, CRIT(outer), mask, 0);
	memset(h, 0, sizeof(h));
	one_slot_keys(m, h[0].mac, h[1].mac, HAM_KEYS);
	hammer_until_met(h, e, m, HAM_KEYS, 0x9e3779b97f4a7c15ull);
	hammer_release(h);
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	senv_close(e);
}

/*
 * One thread, two queues, one slot chain, writes held back by doorbell
 * batching: queue 1 links an entry behind the one queue 0 has just
 * appended (and not rung yet), then deletes queue 0's rule; queue 1's ring
 * is rung first. Without the wait for queue 0's writes, queue 0's entry
 * (written later, with its miss pointer at the chain end) would cut queue
 * 1's rule off, or revive the deleted one.
 */
static void
test_one_slot_order(void **state)
{
	struct mlx5dm_ctx_attr cattr = { .nb_queues = 2, .doorbell_batch = 64 };
	struct mlx5dm_ctx_stats st0, st1;
	struct mlx5dm_rule *r0[3], *r1[3];
	uint64_t k0[3], k1[3];
	struct mlx5dm_matcher *m;
	uint8_t mask[MP_SIZE], v[MP_SIZE];
	unsigned int i;
	struct senv *e;

	(void)state;
	e = senv_open_ex(&cattr, NULL);
	dmac_mask(mask);
	m = senv_matcher(e->tbl, 0, CRIT(outer), mask, 0);
	one_slot_keys(m, k0, k1, 3);
	st0 = senv_stats(e);
	for (i = 0; i < 3; i++) {
		dmac_value(k0[i], v);
		r0[i] = senv_rule(m, 0, v, 1, &e->to_q[0]);
		dmac_value(k1[i], v);
		r1[i] = senv_rule(m, 1, v, 1, &e->to_q[1]);
	}
	/* Queue 1's doorbell first: the device gets its writes before queue 0's. */
	assert_int_equal(mlx5dm_queue_flush(e->ctx, 1), 0);
	assert_int_equal(mlx5dm_queue_drain(e->ctx, 1), 0);
	assert_int_equal(mlx5dm_queue_drain(e->ctx, 0), 0);
	for (i = 0; i < 3; i++) {
		assert_int_equal(send_mac(e, k0[i]), 0);
		assert_int_equal(send_mac(e, k1[i]), 1);
	}
	/* Deletes across queues: queue 1 unlinks queue 0's rules, queue 0 queue 1's. */
	assert_int_equal(mlx5dm_rule_destroy(r0[1], 1), 0);
	assert_int_equal(mlx5dm_rule_destroy(r1[0], 0), 0);
	assert_int_equal(mlx5dm_rule_destroy(r0[2], 1), 0);
	assert_int_equal(mlx5dm_queue_drain(e->ctx, 1), 0);
	assert_int_equal(mlx5dm_queue_drain(e->ctx, 0), 0);
	assert_int_equal(send_mac(e, k0[0]), 0);
	assert_int_equal(send_mac(e, k0[1]), RX_DROPPED);
	assert_int_equal(send_mac(e, k0[2]), RX_DROPPED);
	assert_int_equal(send_mac(e, k1[0]), RX_DROPPED);
	assert_int_equal(send_mac(e, k1[1]), 1);
	assert_int_equal(send_mac(e, k1[2]), 1);
	st1 = senv_stats(e);
	assert_true(st1.queue_waits > st0.queue_waits);
	assert_int_equal(mlx5dm_rule_destroy(r0[0], 0), 0);
	assert_int_equal(mlx5dm_rule_destroy(r1[1], 1), 0);
	assert_int_equal(mlx5dm_rule_destroy(r1[2], 0), 0);
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	senv_close(e);
}

/*
 * One slot chain, two queues, a device that completes nothing: queue 0's
 * entry is posted, not rung (doorbell batching), when the device stops
 * (the model's thread is held off its queues). Queue 1's rule into the
 * same chain must come after it; the wait for it rings queue 0's doorbell
 * and gives up after the stall limit: the create fails with ETIMEDOUT and
 * queue 1 writes nothing, and a destroy of queue 0's rule through queue 1
 * fails the same way, the rule left as it was. Once the device runs again,
 * both work and the chain steers as the library holds it.
 */
static void
test_silent_queue_order(void **state)
{
	struct mlx5dm_ctx_attr cattr = { .nb_queues = 2, .doorbell_batch = 64 };
	struct mlx5dm_queue_stats q1a, q1b;
	struct mlx5dm_ctx_stats st;
	struct mlx5dm_rule *r0[2], *r1[2];
	uint64_t k0[2], k1[2];
	struct mlx5dm_matcher *m;
	uint8_t mask[MP_SIZE], v[MP_SIZE];
	struct mlx5dm_sim *sim;
	struct senv *e;

	(void)state;
	e = senv_open_ex(&cattr, NULL);
	sim = mlx5dm_sim_of(e->dev);
	dmac_mask(mask);
	m = senv_matcher(e->tbl, 0, CRIT(outer), mask, 0);
	one_slot_keys(m, k0, k1, 2);
	dmac_value(k0[0], v);
	r0[0] = senv_rule(m, 0, v, 1, &e->to_q[0]);
	dmac_value(k1[0], v);
	r1[0] = senv_rule(m, 1, v, 1, &e->to_q[1]);
	assert_int_equal(mlx5dm_queue_drain(e->ctx, 0), 0);
	assert_int_equal(mlx5dm_queue_drain(e->ctx, 1), 0);
	dmac_value(k0[1], v);
	r0[1] = senv_rule(m, 0, v, 1, &e->to_q[0]);
	st = senv_stats(e);
	assert_int_equal(mlx5dm_queue_stats_get(e->ctx, 1, &q1a), 0);
	/* The device stops: its thread waits for the model's lock. */
	assert_int_equal(pthread_rwlock_wrlock(&sim->lock), 0);
	dmac_value(k1[1], v);
	errno = 0;
	assert_null(mlx5dm_rule_create(m, 1, v, 1, &e->to_q[1]));
	assert_int_equal(errno, ETIMEDOUT);
	assert_int_equal(mlx5dm_rule_destroy(r0[1], 1), -ETIMEDOUT);
	assert_int_equal(mlx5dm_queue_stats_get(e->ctx, 1, &q1b), 0);
	assert_int_equal(q1b.wqes, q1a.wqes);
	assert_int_equal(pthread_rwlock_unlock(&sim->lock), 0);
	assert_int_equal(senv_stats(e).rules, st.rules);
	/* The device runs again: both calls work. */
	r1[1] = senv_rule(m, 1, v, 1, &e->to_q[1]);
	assert_int_equal(mlx5dm_queue_drain(e->ctx, 1), 0);
	assert_int_equal(mlx5dm_queue_drain(e->ctx, 0), 0);
	assert_int_equal(send_mac(e, k0[1]), 0);
	assert_int_equal(send_mac(e, k1[1]), 1);
	assert_int_equal(mlx5dm_rule_destroy(r0[1], 1), 0);
	assert_int_equal(mlx5dm_queue_drain(e->ctx, 1), 0);
	assert_int_equal(send_mac(e, k0[1]), RX_DROPPED);
	assert_int_equal(send_mac(e, k0[0]), 0);
	assert_int_equal(send_mac(e, k1[0]), 1);
	assert_int_equal(send_mac(e, k1[1]), 1);
	assert_int_equal(mlx5dm_rule_destroy(r0[0], 0), 0);
	assert_int_equal(mlx5dm_rule_destroy(r1[0], 1), 0);
	assert_int_equal(mlx5dm_rule_destroy(r1[1], 1), 0);
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	senv_close(e);
}

/*
 * mlx5dm_queue_poll() waits for nothing: with the device stopped (its
 * thread held off the model's lock) a rule's writes are posted and rung
 * but not executed, and every poll reports a position before the rule's
 * end. Once the device runs, polls reach it (the rule's last write asked
 * for no completion: the poll's fence brings one) and the rule steers.
 * Bad arguments: -EINVAL.
 */
static void
test_poll_no_wait(void **state)
{
	struct mlx5dm_queue_progress p;
	uint8_t mask[MP_SIZE], v[MP_SIZE];
	struct mlx5dm_matcher *m;
	struct mlx5dm_rule *r;
	struct mlx5dm_sim *sim;
	struct timespec t0, t;
	unsigned int i;
	struct senv *e;
	uint32_t pos;

	(void)state;
	e = senv_open(2);
	sim = mlx5dm_sim_of(e->dev);
	dmac_mask(mask);
	m = senv_matcher(e->tbl, 0, CRIT(outer), mask, 0);
	assert_int_equal(mlx5dm_queue_drain(e->ctx, 1), 0);
	assert_int_equal(pthread_rwlock_wrlock(&sim->lock), 0);
	dmac_value(0x020000000001ull, v);
	r = senv_rule(m, 1, v, 1, &e->to_q[0]);
	pos = mlx5dm_queue_pos(e->ctx, 1);
	for (i = 0; i < 3; i++) {
		assert_int_equal(mlx5dm_queue_poll(e->ctx, 1, &p), 0);
		assert_false(mlx5dm_queue_done(&p, pos));
	}
	assert_int_equal(pthread_rwlock_unlock(&sim->lock), 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		assert_int_equal(mlx5dm_queue_poll(e->ctx, 1, &p), 0);
		if (mlx5dm_queue_done(&p, pos))
			break;
		sched_yield();
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while (t.tv_sec - t0.tv_sec < 5);
	assert_true(mlx5dm_queue_done(&p, pos));
	assert_int_equal(p.recoveries, 0);
	assert_int_equal(send_mac(e, 0x020000000001ull), 0);
	assert_int_equal(mlx5dm_queue_poll(e->ctx, 2, &p), -EINVAL);
	assert_int_equal(mlx5dm_queue_poll(e->ctx, 1, NULL), -EINVAL);
	assert_int_equal(mlx5dm_queue_poll(NULL, 1, &p), -EINVAL);
	assert_int_equal(mlx5dm_rule_destroy(r, 1), 0);
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	senv_close(e);
}

#define FLIP_KEYS 1024
#define FLIP_MAC 0x0a0000000000ull

static uint64_t
matcher_growths(struct mlx5dm_matcher *m)
{
	struct mlx5dm_matcher_stats st;

	assert_int_equal(mlx5dm_matcher_stats_get(m, &st), 0);
	return st.growths;
}

/*
 * The device stops while an insert completes the first growth of a first
 * level: the anchor's write pointing at the new head is posted, the drain
 * after it times out. The device follows the anchor once it runs, so the
 * matcher must keep the new head as its first level: every rule steers,
 * and destroying them and the matcher gives back all of its ICM
 * (senv_close() compares the ICM with the context's at open).
 */
static void
test_silent_first_flip(void **state)
{
	struct mlx5dm_ctx_attr cattr = { .nb_queues = 1, .log_queue_wqebb = 13 };
	struct mlx5dm_rule **r = calloc(FLIP_KEYS, sizeof(*r));
	uint8_t mask[MP_SIZE], v[MP_SIZE];
	struct mlx5dm_matcher *m;
	struct mlx5dm_sim *sim;
	unsigned int i, k;
	struct senv *e;

	(void)state;
	assert_non_null(r);
	e = senv_open_ex(&cattr, NULL);
	sim = mlx5dm_sim_of(e->dev);
	dmac_mask(mask);
	/* A first matcher finds the insert that completes the first growth (k). */
	m = senv_matcher(e->tbl, 0, CRIT(outer), mask, 0);
	for (k = 0; k < FLIP_KEYS && matcher_growths(m) == 0; k++) {
		dmac_value(FLIP_MAC + k, v);
		r[k] = senv_rule(m, 0, v, 1, &e->to_q[0]);
	}
	assert_true(k < FLIP_KEYS);
	for (i = 0; i < k; i++)
		assert_int_equal(mlx5dm_rule_destroy(r[i], 0), 0);
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	/* The same matcher again: insert k completes the growth with the device stopped. */
	m = senv_matcher(e->tbl, 0, CRIT(outer), mask, 0);
	for (i = 0; i + 1 < k; i++) {
		dmac_value(FLIP_MAC + i, v);
		r[i] = senv_rule(m, 0, v, 1, &e->to_q[0]);
	}
	assert_int_equal(mlx5dm_queue_drain(e->ctx, 0), 0);
	assert_int_equal(matcher_growths(m), 0);
	assert_int_equal(pthread_rwlock_wrlock(&sim->lock), 0);
	dmac_value(FLIP_MAC + k - 1, v);
	r[k - 1] = mlx5dm_rule_create(m, 0, v, 1, &e->to_q[0]);
	assert_int_equal(matcher_growths(m), 1);
	assert_int_equal(pthread_rwlock_unlock(&sim->lock), 0);
	assert_int_equal(mlx5dm_queue_drain(e->ctx, 0), 0);
	for (i = 0; i < k; i++)
		assert_int_equal(send_mac(e, FLIP_MAC + i), r[i] != NULL ? 0 : RX_DROPPED);
	for (i = 0; i < k; i++)
		if (r[i] != NULL)
			assert_int_equal(mlx5dm_rule_destroy(r[i], 0), 0);
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	senv_close(e);
	free(r);
}

#define DIS_RULES 2000

/*
 * Rules of two queues in different shards (queue 0's in the lower half of
 * the shards, queue 1's in the upper), each in a slot of its own, one
 * operation on each queue in turn, both queues' writes held back by
 * doorbell batching: a rule writes its one entry and nothing else, on its
 * own ring (no drain of the other queue, no wait for it).
 */
static void
test_disjoint_slots(void **state)
{
	/* Rings large enough that no write waits for room (no fence for completions). */
	struct mlx5dm_ctx_attr cattr = { .nb_queues = 2, .doorbell_batch = 64,
					 .log_queue_wqebb = 13 };
	struct mlx5dm_ctx_stats st0, st1;
	struct mlx5dm_rule **r = calloc(DIS_RULES, sizeof(*r));
	uint8_t *used = calloc(1u << 16, 1);
	struct mlx5dm_matcher *m;
	uint8_t mask[MP_SIZE], v[MP_SIZE];
	uint64_t *mac = calloc(DIS_RULES, sizeof(*mac));
	uint64_t entries, k;
	unsigned int n[2] = { 0, 0 }, i, q, shards;
	uint32_t slot;
	struct senv *e;

	(void)state;
	assert_non_null(r);
	assert_non_null(used);
	assert_non_null(mac);
	e = senv_open_ex(&cattr, NULL);
	dmac_mask(mask);
	/* The first table of a matcher without a hint has a slot per shard. */
	m = senv_matcher(e->tbl, 0, CRIT(outer), mask, 0);
	shards = (unsigned int)first_entries(m);
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	assert_true(shards > 1);
	/* Large enough not to grow: every rule takes a slot of its own. */
	m = senv_matcher(e->tbl, 0, CRIT(outer), mask, 14);
	entries = first_entries(m);
	for (k = 0x020000000001ull; n[0] + n[1] < DIS_RULES; k += 0x10001) {
		slot = dmac_hash(m, k) & (uint32_t)(entries - 1);
		q = (slot & (shards - 1)) < shards / 2 ? 0 : 1;
		if (used[slot] || n[q] == DIS_RULES / 2)
			continue;
		used[slot] = 1;
		mac[2 * n[q] + q] = k;
		n[q]++;
	}
	st0 = senv_stats(e);
	for (i = 0; i < DIS_RULES; i++) {
		dmac_value(mac[i], v);
		r[i] = senv_rule(m, (uint16_t)(i & 1), v, 1, &e->to_q[i & 1]);
	}
	st1 = senv_stats(e);
	assert_int_equal(st1.wqes - st0.wqes, DIS_RULES);
	assert_int_equal(st1.queue_waits, st0.queue_waits);
	for (i = 0; i < DIS_RULES; i++)
		assert_int_equal(mlx5dm_rule_destroy(r[i], (uint16_t)(i & 1)), 0);
	st0 = senv_stats(e);
	assert_int_equal(st0.wqes - st1.wqes, DIS_RULES);
	assert_int_equal(st0.queue_waits, st1.queue_waits);
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	senv_close(e);
	free(mac);
	free(used);
	free(r);
}

static uint64_t
matcher_stat(struct mlx5dm_matcher *m, size_t off)
{
	struct mlx5dm_matcher_stats st;

	assert_int_equal(mlx5dm_matcher_stats_get(m, &st), 0);
	return *(const uint64_t *)((const uint8_t *)&st + off);
}

#define MSTAT(m, field) matcher_stat(m, offsetof(struct mlx5dm_matcher_stats, field))

#define MOVE_LOG 8              /* first table: 2^8 slots, 16 per shard */
#define MOVE_KEYS 1024

/*
 * One thread, two queues, a first level that grew: entries of the older
 * table move to the head a few per operation, on the ring of the queue
 * whose operation moves them. Queue 1 puts a rule into a slot of the head
 * (its writes held back: not rung), then queue 0's operations move the
 * older table's entries of the same shard, some into that slot, behind
 * queue 1's entry; queue 0 is rung and drained first. Without the wait for
 * queue 1's writes to that slot, queue 1's entry, written last with its
 * miss pointer at the chain end, cuts the moved entries off. At the end
 * the older table is gone (every shard emptied its share).
 */
static void
test_move_order(void **state)
{
	struct mlx5dm_ctx_attr cattr = { .nb_queues = 2, .doorbell_batch = 64,
					 .log_queue_wqebb = 13 };
	struct mlx5dm_rule **r = calloc(MOVE_KEYS, sizeof(*r));
	uint64_t *mac = calloc(MOVE_KEYS, sizeof(*mac));
	uint32_t e0, last = 0, hash, j;
	struct mlx5dm_rule *rb, *rc;
	struct mlx5dm_matcher *m;
	uint8_t mask[MP_SIZE], v[MP_SIZE];
	uint64_t k, kb = 0, kc = 0;
	unsigned int n = 0, i, s = 0;
	struct senv *e;

	(void)state;
	assert_non_null(r);
	assert_non_null(mac);
	e = senv_open_ex(&cattr, NULL);
	dmac_mask(mask);
	m = senv_matcher(e->tbl, 0, CRIT(outer), mask, MOVE_LOG);
	e0 = (uint32_t)first_entries(m);
	/* Keys on queue 0 until the table grows; s: the shard-0 one its scan reaches last. */
	for (k = 0x020000000001ull; MSTAT(m, growths) == 0; k++) {
		assert_true(n < MOVE_KEYS);
		hash = dmac_hash(m, k);
		dmac_value(k, v);
		r[n] = senv_rule(m, 0, v, 1, &e->to_q[0]);
		mac[n] = k;
		if ((hash & 15) == 0 && (hash & (e0 - 1)) >= last) {
			last = hash & (e0 - 1);
			s = n;
		}
		n++;
	}
	assert_true((dmac_hash(m, mac[s]) & 15) == 0);
	assert_int_equal(mlx5dm_queue_drain(e->ctx, 0), 0);
	/* Queue 1's key in the head's slot the last entry moves to, queue 0's elsewhere. */
	j = dmac_hash(m, mac[s]) & (4 * e0 - 1);
	for (; kb == 0 || kc == 0; k++) {
		hash = dmac_hash(m, k);
		if ((hash & 15) != 0)
			continue;
		if ((hash & (4 * e0 - 1)) == j && kb == 0)
			kb = k;
		else if ((hash & (4 * e0 - 1)) != j && kc == 0)
			kc = k;
	}
	dmac_value(kb, v);
	rb = senv_rule(m, 1, v, 1, &e->to_q[1]);
	/* Queue 0 only, rung and drained at once: its moves overtake queue 1's writes. */
	for (i = 0; i < 2 * n; i++) {
		dmac_value(kc, v);
		rc = senv_rule(m, 0, v, 1, &e->to_q[0]);
		assert_int_equal(mlx5dm_rule_destroy(rc, 0), 0);
		assert_int_equal(mlx5dm_queue_flush(e->ctx, 0), 0);
		assert_int_equal(mlx5dm_queue_drain(e->ctx, 0), 0);
	}
	assert_int_equal(mlx5dm_queue_drain(e->ctx, 1), 0);
	for (i = 0; i < n; i++) {
		if (send_mac(e, mac[i]) != 0)
			fail_msg("key %u of %u (slot %u of the older table) lost", i, n,
				 dmac_hash(m, mac[i]) & (e0 - 1));
	}
	assert_int_equal(send_mac(e, kb), 1);
	/* Every shard emptied its share: the older table is gone. */
	assert_int_equal(MSTAT(m, chained_tables), 0);
	assert_int_equal(mlx5dm_rule_destroy(rb, 1), 0);
	for (i = 0; i < n; i++)
		assert_int_equal(mlx5dm_rule_destroy(r[i], (uint16_t)(i & 1)), 0);
	assert_int_equal(MSTAT(m, rules), 0);
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	senv_close(e);
	free(mac);
	free(r);
}

/*
 * Two threads on two queues, each inserting and deleting its own keys
 * spread over every shard, into a matcher grown from its smallest first
 * table while they run: the first level grows, and the entries of its
 * older table move to the head on the ring of whichever queue's operation
 * moves them, meeting the other queue's rules in both tables' slots.
 * Frames after each wait for the thread's queue, then all keys at the end.
 * sliced: every key inserted, then every other one deleted, so that the
 * first level grows to tables written a slice per operation; slices are
 * written, and the older table's shares emptied, by one operation while
 * the other queue's rules go on in their shards.
 */
static void
threads_grow(bool sliced)
{
	unsigned int nb_keys = sliced ? BIG_KEYS : GROW_KEYS;
	struct hammer *h = calloc(2, sizeof(*h));
	struct mlx5dm_matcher *m;
	struct senv *e;

	assert_non_null(h);
	h[0].grow = sliced;
	h[1].grow = sliced;
	m = hammer_matcher(&e, h, nb_keys, 0x020000000001ull, false);
	hammer_run(h, e, m, nb_keys, 0x6a09e667f3bcc909ull);
	assert_true(MSTAT(m, growths) >= 2);
	/* The head reached a size written in slices (MLX5DM_HTBL_LOG_SYNC_FILL). */
	if (sliced)
		assert_true(first_entries(m) >= 1u << 12);
	hammer_release(h);
	assert_int_equal(MSTAT(m, rules), 0);
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	senv_close(e);
	free(h);
}

static void
test_threads_grow(void **state)
{
	(void)state;
	threads_grow(false);
}

static void
test_threads_grow_sliced(void **state)
{
	(void)state;
	threads_grow(true);
}

/*
 * Two threads on two queues, inserting and deleting at random into one
 * two-level matcher whose rules share their level-0 entry (SHARED_MAC,
 * per-rule IPv4 destinations): the queues meet in the last level's slot
 * chains and in the structure recorded at the MAC's slot. Many keys: the
 * last level's chain grows from one slot under both queues. Two keys per
 * thread: the MAC entry often goes with the last rule below it and comes
 * back, its chain rebuilt, with the next, on either queue. Frames after
 * each wait for the thread's queue, then every key at the end; rounds go
 * on until a queue waited for the other's writes.
 */
static void
threads_prefix(unsigned int nb_keys)
{
	struct hammer *h = calloc(2, sizeof(*h));
	struct mlx5dm_matcher *m;
	unsigned int t;
	struct frame f;
	struct pkt p;
	struct senv *e;

	assert_non_null(h);
	m = hammer_matcher(&e, h, nb_keys, 0x0a000001u, true);
	hammer_until_met(h, e, m, nb_keys, 0xbb67ae8584caa73bull);
	/* A one-slot chain took a second entry at once: it grew. */
	if (nb_keys > 2)
		assert_true(MSTAT(m, growths) >= 1);
	hammer_release(h);
	assert_int_equal(MSTAT(m, rules), 0);
	for (t = 0; t < 2; t++)
		assert_int_equal(mlx5dm_queue_drain(e->ctx, (uint16_t)t), 0);
	pkt_udp4(&p);
	p.o.dmac = SHARED_MAC;
	p.o.dip = 0x0a000001u;
	frame_build(&f, &p);
	assert_int_equal(senv_send(e, &f, NULL), RX_DROPPED);
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	senv_close(e);
	free(h);
}

static void
test_threads_prefix(void **state)
{
	(void)state;
	threads_prefix(HAM_KEYS);
}

static void
test_threads_prefix_churn(void **state)
{
	(void)state;
	threads_prefix(2);
}

/*
 * Shards: a one-level matcher spreads its rules over the shards by slot
 * hash; a two-level one whose rules share their level-0 entry (one MAC,
 * per-rule IPv4 destinations) has them all in the shard of that entry,
 * whichever queue inserts them. A context with one queue has one shard.
 */
#define SPREAD_KEYS 64

static int
send_dip(struct senv *e, uint32_t dip)
{
	struct pkt p;

	pkt_udp4(&p);
	p.o.dmac = SHARED_MAC;
	p.o.dip = dip;
	return senv_send_pkt(e, &p);
}

static uint64_t
queue_busy(struct senv *e, uint16_t q)
{
	struct mlx5dm_queue_stats qs;

	assert_int_equal(mlx5dm_queue_stats_get(e->ctx, q, &qs), 0);
	return qs.shard_busy;
}

static void
spread_check(uint16_t nb_queues)
{
	struct mlx5dm_ctx_attr cattr = { .nb_queues = nb_queues };
	struct mlx5dm_rule *r1[SPREAD_KEYS], *r2[SPREAD_KEYS];
	struct mlx5dm_matcher *m1, *m2;
	struct mlx5dm_matcher_stats st;
	uint8_t mask[MP_SIZE], v[MP_SIZE];
	unsigned int i;
	uint16_t q;
	struct senv *e;

	e = senv_open_ex(&cattr, NULL);
	dmac_mask(mask);
	m1 = senv_matcher(e->tbl, 0, CRIT(outer), mask, 0);
	mac_dip_mask(mask);
	m2 = senv_matcher(e->tbl, 1, CRIT(outer), mask, 0);
	for (i = 0; i < SPREAD_KEYS; i++) {
		q = (uint16_t)(i % nb_queues);
		dmac_value(0x020000000001ull + i, v);
		r1[i] = mlx5dm_rule_create(m1, q, v, 1, &e->to_q[0]);
		assert_non_null(r1[i]);
		mac_dip_value(0x0a000001u + i, v);
		r2[i] = mlx5dm_rule_create(m2, q, v, 1, &e->to_q[1]);
		assert_non_null(r2[i]);
	}
	assert_int_equal(mlx5dm_matcher_stats_get(m1, &st), 0);
	assert_int_equal(st.rules, SPREAD_KEYS);
	if (nb_queues == 1) {
		assert_int_equal(st.shards, 1);
		assert_int_equal(st.shard_rules_max, SPREAD_KEYS);
	} else {
		assert_true(st.shards > 1);
		assert_true(st.shard_rules_max < SPREAD_KEYS);
		assert_true(st.shard_rules_max * st.shards >= SPREAD_KEYS);
	}
	assert_int_equal(mlx5dm_matcher_stats_get(m2, &st), 0);
	assert_int_equal(st.shards, nb_queues == 1 ? 1 : st.shards);
	assert_int_equal(st.shard_rules_max, SPREAD_KEYS);
	for (i = 0; i < SPREAD_KEYS; i++)
		assert_int_equal(send_dip(e, 0x0a000001u + i), 1);
	/* One thread: no operation can find its shard held by another. */
	for (q = 0; q < nb_queues; q++)
		assert_int_equal(queue_busy(e, q), 0);
	for (i = 0; i < SPREAD_KEYS; i++) {
		assert_int_equal(mlx5dm_rule_destroy(r1[i], 0), 0);
		assert_int_equal(mlx5dm_rule_destroy(r2[i], (uint16_t)(nb_queues - 1)), 0);
	}
	assert_int_equal(mlx5dm_matcher_stats_get(m2, &st), 0);
	assert_int_equal(st.shard_rules_max, 0);
	assert_int_equal(mlx5dm_matcher_destroy(m2), 0);
	assert_int_equal(mlx5dm_matcher_destroy(m1), 0);
	senv_close(e);
}

static void
test_shard_spread(void **state)
{
	(void)state;
	spread_check(1);
	spread_check(2);
}

#define BUSY_KEYS 256           /* per thread */
#define BUSY_ROUNDS 64          /* rounds at most, until an operation found the shard held */

struct busy_worker {
	struct senv *e;
	struct mlx5dm_matcher *m;
	pthread_barrier_t *start;
	uint16_t queue;
	struct mlx5dm_rule *r[BUSY_KEYS];
	int failed;
};

/* Insert this thread's keys (destinations 10.q.x.x) on its queue. */
static void *
busy_main(void *arg)
{
	struct busy_worker *w = arg;
	uint8_t v[MP_SIZE];
	unsigned int i;

	pthread_barrier_wait(w->start);
	for (i = 0; i < BUSY_KEYS; i++) {
		mac_dip_value(0x0a000000u | (uint32_t)w->queue << 16 | i, v);
		w->r[i] = mlx5dm_rule_create(w->m, w->queue, v, 1, &w->e->to_q[w->queue]);
		if (w->r[i] == NULL)
			w->failed++;
	}
	if (mlx5dm_queue_drain(w->e->ctx, w->queue) != 0)
		w->failed++;
	return NULL;
}

/*
 * Two threads insert on their own queues into a two-level matcher whose
 * rules all share one level-0 entry, so one shard: they take turns on its
 * lock, and the queue counters say how often an operation found it held.
 * Rounds go on until it did once (whether the threads overlap is up to
 * the scheduler). Every rule steers its frame to its queue's RQ.
 */
static void
test_threads_shard_busy(void **state)
{
	struct mlx5dm_ctx_attr cattr = { .nb_queues = 2, .doorbell_batch = 32 };
	struct busy_worker w[2];
	struct mlx5dm_matcher_stats st;
	pthread_barrier_t start;
	struct mlx5dm_matcher *m;
	uint8_t mask[MP_SIZE];
	uint64_t busy = 0;
	unsigned int round, t, i;
	pthread_t th[2];
	struct senv *e;

	(void)state;
	e = senv_open_ex(&cattr, NULL);
	mac_dip_mask(mask);
	m = senv_matcher(e->tbl, 0, CRIT(outer), mask, 0);
	for (round = 0; round < BUSY_ROUNDS && busy == 0; round++) {
		assert_int_equal(pthread_barrier_init(&start, NULL, 2), 0);
		for (t = 0; t < 2; t++) {
			w[t] = (struct busy_worker){ .e = e, .m = m, .start = &start,
						     .queue = (uint16_t)t };
			assert_int_equal(pthread_create(&th[t], NULL, busy_main, &w[t]), 0);
		}
		for (t = 0; t < 2; t++)
			pthread_join(th[t], NULL);
		pthread_barrier_destroy(&start);
		assert_int_equal(mlx5dm_matcher_stats_get(m, &st), 0);
		assert_int_equal(st.rules, 2 * BUSY_KEYS);
		assert_int_equal(st.shard_rules_max, 2 * BUSY_KEYS);
		for (t = 0; t < 2; t++) {
			assert_int_equal(w[t].failed, 0);
			for (i = 0; i < BUSY_KEYS; i += 17)
				assert_int_equal(send_dip(e, 0x0a000000u | t << 16 | i), t);
			for (i = 0; i < BUSY_KEYS; i++)
				assert_int_equal(mlx5dm_rule_destroy(w[t].r[i], (uint16_t)t), 0);
		}
		busy = queue_busy(e, 0) + queue_busy(e, 1);
		/* At most one count per operation (inserts and this thread's deletes). */
		assert_true(busy <= 4ull * BUSY_KEYS * (round + 1));
	}
	assert_true(busy > 0);
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	senv_close(e);
}

/*
 * Two queues taking turns on a two-level matcher whose rules share one
 * level-0 entry (one MAC): each rule writes only its own last-level slot
 * chain, so a rule waits for the other queue's writes only where they
 * went into the same chain (or built the chain it writes into), not at
 * every turn. Doorbells are batched: an unordered wait would have to ring
 * and quiesce the other ring each time. Every rule steers its frame.
 */
#define TURN_KEYS 64

static void
test_turns_shared_prefix(void **state)
{
	struct mlx5dm_ctx_attr cattr = { .nb_queues = 2, .doorbell_batch = 32 };
	struct mlx5dm_rule *r[TURN_KEYS];
	struct mlx5dm_ctx_stats st0, st1;
	struct mlx5dm_matcher *m;
	uint8_t mask[MP_SIZE], v[MP_SIZE];
	unsigned int i;
	struct senv *e;

	(void)state;
	e = senv_open_ex(&cattr, NULL);
	mac_dip_mask(mask);
	/* A last-level chain of 2^10 slots: the keys rarely share one. */
	m = senv_matcher(e->tbl, 0, CRIT(outer), mask, 10);
	st0 = senv_stats(e);
	for (i = 0; i < TURN_KEYS; i++) {
		mac_dip_value(0x0a000001u + i, v);
		r[i] = senv_rule(m, (uint16_t)(i & 1), v, 1, &e->to_q[i & 1]);
	}
	st1 = senv_stats(e);
	/* The chain's creation by queue 0, and a few keys meeting in a slot (or record). */
	assert_true(st1.queue_waits - st0.queue_waits <= TURN_KEYS / 8);
	for (i = 0; i < 2; i++)
		assert_int_equal(mlx5dm_queue_drain(e->ctx, (uint16_t)i), 0);
	for (i = 0; i < TURN_KEYS; i++)
		assert_int_equal(send_dip(e, 0x0a000001u + i), (int)(i & 1));
	for (i = 0; i < TURN_KEYS; i++)
		assert_int_equal(mlx5dm_rule_destroy(r[i], (uint16_t)((i + 1) & 1)), 0);
	for (i = 0; i < 2; i++)
		assert_int_equal(mlx5dm_queue_drain(e->ctx, (uint16_t)i), 0);
	assert_int_equal(send_dip(e, 0x0a000001u), RX_DROPPED);
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	senv_close(e);
}

#define HELD_KEYS 8192
#define HELD_MAC 0x0c0000000000ull
#define HELD_SECONDS 10

/* Inserts on queue 0 from a thread of their own, until the matcher has grown. */
struct held_inserts {
	struct mlx5dm_matcher *m;
	struct mlx5dm_action *to_q;
	struct mlx5dm_rule **r;
	unsigned int first;             /* the first key of the thread */
	unsigned int end;               /* past its last key */
	uint64_t growths;               /* the matcher's growths before */
	unsigned int errors;
	bool done;                      /* atomic */
};

static void *
held_main(void *arg)
{
	struct held_inserts *b = arg;
	struct mlx5dm_matcher_stats st = { .growths = b->growths };
	uint8_t v[MP_SIZE];
	unsigned int i;

	for (i = b->first; i < b->end && st.growths == b->growths; i++) {
		dmac_value(HELD_MAC + i, v);
		b->r[i] = mlx5dm_rule_create(b->m, 0, v, 1, &b->to_q);
		if (b->r[i] == NULL || mlx5dm_matcher_stats_get(b->m, &st) != 0)
			b->errors++;
		if (b->r[i] == NULL)
			break;
	}
	b->end = i;
	__atomic_store_n(&b->done, true, __ATOMIC_RELEASE);
	return NULL;
}

/* Whether *done is set within the test's bound. */
static bool
held_wait_done(const bool *done)
{
	struct timespec nap = { .tv_sec = 0, .tv_nsec = 1000000 };
	unsigned int i;

	for (i = 0; i < HELD_SECONDS * 1000; i++) {
		if (__atomic_load_n(done, __ATOMIC_ACQUIRE))
			return true;
		nanosleep(&nap, NULL);
	}
	return false;
}

/*
 * Queue 0 completes a growth of a first level shared by the shards while
 * queue 1's lock is held by the test, standing for queue 1 completing a
 * growth of another matcher, which waits for queue 0's lock holding its
 * own. Small: the whole growth was written on queue 0 and completes
 * without queue 1's lock. Sliced: queue 1 wrote slices of the new table,
 * which must execute before the flip; the completion waits for them
 * holding neither its queue's lock nor a shard lock, so queue 0's lock is
 * free meanwhile, and the test takes it (with queue 1's still held) before
 * it lets the completion go on. The thread would otherwise hang for good:
 * the test gives up after HELD_SECONDS, releases queue 1 and fails.
 */
static void
held_queue_growth(bool sliced)
{
	struct mlx5dm_ctx_attr cattr = { .nb_queues = 2, .doorbell_batch = 32 };
	struct mlx5dm_rule **r = calloc(HELD_KEYS, sizeof(*r));
	struct timespec nap = { .tv_sec = 0, .tv_nsec = 20000000 };
	struct held_inserts b = { .r = r };
	struct mlx5dm_queue *q0, *q1;
	struct mlx5dm_htbl *g = NULL;
	bool finished, q0_free = false;
	uint8_t mask[MP_SIZE], v[MP_SIZE];
	struct mlx5dm_matcher *m;
	unsigned int i, k = 0;
	struct senv *e;
	pthread_t th;

	assert_non_null(r);
	e = senv_open_ex(&cattr, NULL);
	dmac_mask(mask);
	m = senv_matcher(e->tbl, 0, CRIT(outer), mask, 0);
	assert_true(m->nb_shards > 1);
	q0 = &e->ctx->queues[0];
	q1 = &e->ctx->queues[1];
	/* Sliced: both queues in turn, until the last slice of a sliced growth is due. */
	while (sliced && k < HELD_KEYS / 2) {
		g = m->grow_list != NULL ? m->grow_list->growing : NULL;
		if (g != NULL && g->log_size >= MLX5DM_HTBL_LOG_SYNC_FILL &&
		    (g->writers & 2) != 0 &&
		    g->num_entries - g->fill_pos <= MLX5DM_HTBL_FILL_SLICE / MLX5DM_STE_SIZE)
			break;
		dmac_value(HELD_MAC + k, v);
		r[k] = senv_rule(m, (uint16_t)(k & 1), v, 1, &e->to_q[k & 1]);
		k++;
	}
	assert_true(!sliced || k < HELD_KEYS / 2);
	for (i = 0; i < 2; i++)
		assert_int_equal(mlx5dm_queue_drain(e->ctx, (uint16_t)i), 0);
	b.m = m;
	b.to_q = e->to_q[0];
	b.first = k;
	b.end = sliced ? k + 1 : HELD_KEYS;
	b.growths = MSTAT(m, growths);
	mlx5dm_spinlock_lock(&q1->lock);
	assert_int_equal(pthread_create(&th, NULL, held_main, &b), 0);
	if (sliced) {
		/* The completion began (l0_lock), then it reaches the wait for queue 1. */
		for (i = 0; i < HELD_SECONDS * 50 &&
		     __atomic_load_n(&m->l0_lock.locked, __ATOMIC_ACQUIRE) == 0; i++)
			nanosleep(&nap, NULL);
		nanosleep(&nap, NULL);
		for (i = 0; i < HELD_SECONDS * 50 && !q0_free; i++) {
			q0_free = mlx5dm_spinlock_trylock(&q0->lock);
			if (!q0_free)
				nanosleep(&nap, NULL);
		}
		if (q0_free)
			mlx5dm_spinlock_unlock(&q0->lock);
		finished = q0_free;
	} else {
		finished = held_wait_done(&b.done);
	}
	mlx5dm_spinlock_unlock(&q1->lock);
	pthread_join(th, NULL);
	if (!finished)
		fail_msg("queue 0's growth completion waited for queue 1's lock holding its own");
	assert_int_equal(b.errors, 0);
	assert_int_equal(MSTAT(m, growths), b.growths + 1);
	for (i = 0; i < 2; i++)
		assert_int_equal(mlx5dm_queue_drain(e->ctx, (uint16_t)i), 0);
	for (i = 0; i < b.end; i++)
		assert_int_equal(send_mac(e, HELD_MAC + i),
				 i < k ? (int)(i & 1) : 0);
	for (i = 0; i < b.end; i++)
		assert_int_equal(mlx5dm_rule_destroy(r[i], 0), 0);
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	senv_close(e);
	free(r);
}

static void
test_held_queue_growth(void **state)
{
	(void)state;
	held_queue_growth(false);
}

static void
test_held_queue_growth_sliced(void **state)
{
	(void)state;
	held_queue_growth(true);
}

/* An argument runs only the tests it names (a pattern: the suite "tsan" runs test_threads_*). */
#define RING_RULES 2000

/*
 * RING_RULES rules on queue 0 of a context whose queues have cattr's ring
 * size, doorbells batched beyond any ring: the first operations fill the
 * SQ before any doorbell, so one waits for room. Every rule steers; the
 * size of queue 0's ring, after, is returned, queue 1's (unused) is
 * unchanged.
 */
static uint32_t
ring_after_waits(struct mlx5dm_ctx_attr *cattr, const struct mlx5dm_sim_config *cfg)
{
	struct mlx5dm_rule *r[RING_RULES];
	struct mlx5dm_queue_stats qs, qs1;
	uint8_t mask[MP_SIZE], v[MP_SIZE];
	struct mlx5dm_matcher *m;
	struct senv *e;
	unsigned int i;
	uint32_t size;

	e = senv_open_ex(cattr, cfg);
	assert_int_equal(mlx5dm_queue_stats_get(e->ctx, 1, &qs1), 0);
	dmac_mask(mask);
	m = senv_matcher(e->tbl, 0, CRIT(outer), mask, 0);
	for (i = 0; i < RING_RULES; i++) {
		dmac_value(0x0a0000000000ull + i, v);
		r[i] = senv_rule(m, 0, v, 1, &e->to_q[i % SENV_NB_RQ]);
	}
	assert_int_equal(mlx5dm_queue_drain(e->ctx, 0), 0);
	assert_int_equal(mlx5dm_queue_stats_get(e->ctx, 0, &qs), 0);
	assert_true(qs.full_waits > 0);
	size = qs.size;
	for (i = 0; i < RING_RULES; i++)
		assert_int_equal(send_mac(e, 0x0a0000000000ull + i), (int)(i % SENV_NB_RQ));
	for (i = 0; i < RING_RULES; i++)
		assert_int_equal(mlx5dm_rule_destroy(r[i], 0), 0);
	assert_int_equal(mlx5dm_queue_drain(e->ctx, 0), 0);
	assert_int_equal(send_mac(e, 0x0a0000000000ull), RX_DROPPED);
	assert_int_equal(mlx5dm_queue_stats_get(e->ctx, 1, &qs), 0);
	assert_int_equal(qs.size, qs1.size);
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	senv_close(e);
	return size;
}

/*
 * A rule queue whose operation waited for room in its ring grows the
 * ring, up to the device's largest QP (2^11 WQEBBs on this model); a
 * ring size the context was given is kept.
 */
static void
test_ring_grows_on_wait(void **state)
{
	struct mlx5dm_ctx_attr cattr = { .nb_queues = 2, .doorbell_batch = 1u << 20 };
	struct mlx5dm_sim_config cfg;

	(void)state;
	mlx5dm_sim_config_default(&cfg);
	cfg.log_max_qp_sz = 11;
	assert_int_equal(ring_after_waits(&cattr, &cfg), 1u << 11);
	cattr.log_queue_wqebb = MLX5DM_SEND_LOG_SQ_WQEBB;
	assert_int_equal(ring_after_waits(&cattr, &cfg), 1u << MLX5DM_SEND_LOG_SQ_WQEBB);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_slot_order),
		cmocka_unit_test(test_silent_queue_order),
		cmocka_unit_test(test_poll_no_wait),
		cmocka_unit_test(test_silent_first_flip),
		cmocka_unit_test(test_held_queue_growth),
		cmocka_unit_test(test_held_queue_growth_sliced),
		cmocka_unit_test(test_threads_one_slot),
		cmocka_unit_test(test_disjoint_slots),
		cmocka_unit_test(test_move_order),
		cmocka_unit_test(test_threads_grow),
		cmocka_unit_test(test_threads_grow_sliced),
		cmocka_unit_test(test_threads_prefix),
		cmocka_unit_test(test_threads_prefix_churn),
		cmocka_unit_test(test_shard_spread),
		cmocka_unit_test(test_threads_shard_busy),
		cmocka_unit_test(test_turns_shared_prefix),
		cmocka_unit_test(test_ring_grows_on_wait),
	};

	if (argc > 1)
		cmocka_set_test_filter(argv[1]);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
