/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Hot memory and sync-before-reuse: the threshold fires exactly once at
 * the right free, hot memory is never handed out before the callback has
 * run, explicit and failing syncs, re-entry from the callback, reclaim,
 * statistics, the pool set, allocation-failure injection, two threads.
 */

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "test_icm_fake.h"

/* ---- threshold: one sync at the right free, no reuse before it ---- */

struct threshold_case {
	enum mlx5dm_icm_type type;
	uint8_t log_icm;
	unsigned int order;     /* chunk order */
	unsigned int nchunks;   /* chunks filling one DM */
	unsigned int sync_at;   /* the free that reaches the threshold (1-based) */
	uint64_t largest;       /* largest free block after that sync */
	uint32_t reuse_entry;   /* where the next chunk of that order goes */
};

static const struct threshold_case threshold_cases[] = {
	/* 8 MiB DM, 16 x 512 KiB; 50 % = 4 MiB = 8 chunks, merged to 2^16 entries. */
	{ MLX5DM_ICM_STE, 26, 13, 16, 8, 0x400000, 0 },
	/*
	 * 4 KiB DM, 64 x 64 B; 90 % = 3686 B: 57 frees = 3648 stay below, the
	 * 58th (3712) syncs. Entries 0..463 merge to 256 + 128 + 64 + 16; the
	 * smallest block that fits an order-3 chunk is the 16 at entry 448.
	 */
	{ MLX5DM_ICM_MODIFY, 15, 3, 64, 58, 2048, 448 },
	/* 32 KiB DM, 32 x 1 KiB; 16 KiB = 16 chunks. */
	{ MLX5DM_ICM_PATTERN, 15, 7, 32, 16, 16384, 0 },
	/* 256 KiB DM, 32 x 8 KiB; 128 KiB = 16 chunks. */
	{ MLX5DM_ICM_ENCAP, 18, 7, 32, 16, 131072, 0 },
};

struct reuse_probe {
	unsigned int order;
	struct mlx5dm_icm_chunk *got;
};

/* Inside the callback the pool is usable, but the hot memory is still not free. */
static int
hook_try_alloc(struct sync_probe *p)
{
	struct reuse_probe *r = p->ctx;

	r->got = mlx5dm_icm_chunk_alloc(p->pool, r->order);
	return r->got == NULL ? errno : 0;
}

static void
run_threshold_case(const struct threshold_case *tc)
{
	struct mlx5dm_icm_chunk *c[64], *again;
	struct sync_probe probe = { 0 };
	struct reuse_probe reuse = { .order = tc->order };
	struct mlx5dm_icm_pool_attr a;
	struct mlx5dm_icm_pool *pool;
	struct mlx5dm_icm_stats st;
	uint64_t bytes = 0, first;
	unsigned int i;

	fake_init();
	a = fake_pool_attr(tc->type, tc->log_icm, &probe);
	pool = mlx5dm_icm_pool_create(&a);
	assert_non_null(pool);
	probe.pool = pool;
	for (i = 0; i < tc->nchunks; i++) {
		c[i] = mlx5dm_icm_chunk_alloc(pool, tc->order);
		assert_non_null(c[i]);
		bytes = c[i]->byte_size;
	}
	first = c[0]->icm_addr; /* c[0] is gone once freed and synced */
	mlx5dm_icm_pool_stats(pool, &st);
	assert_true(st.dm_count == 1 && st.free_bytes == 0);
	/* From now on the device has no more ICM: only freed memory could serve. */
	fake.fail_alloc_always = true;
	for (i = 0; i + 1 < tc->sync_at; i++) {
		assert_int_equal(mlx5dm_icm_chunk_free(c[i]), 0);
		assert_int_equal(probe.calls, 0);
		mlx5dm_icm_pool_stats(pool, &st);
		assert_true(st.hot_bytes == (i + 1) * bytes && st.free_bytes == 0);
	}
	log_capture_start();
	assert_null(mlx5dm_icm_chunk_alloc(pool, tc->order));
	log_capture_stop();
	assert_int_equal(errno, ENOMEM);
	/* The threshold free: exactly one sync, during which nothing is reusable yet. */
	probe.hook = hook_try_alloc;
	probe.ctx = &reuse;
	log_capture_start();
	assert_int_equal(mlx5dm_icm_chunk_free(c[tc->sync_at - 1]), 0);
	log_capture_stop();
	assert_int_equal(probe.calls, 1);
	assert_null(reuse.got);
	assert_int_equal(probe.hook_ret, ENOMEM);
	assert_true(probe.in_sync.hot_bytes == tc->sync_at * bytes);
	assert_true(probe.in_sync.syncs == 0 && probe.in_sync.free_bytes == 0);
	probe.hook = NULL;
	mlx5dm_icm_pool_stats(pool, &st);
	assert_true(st.hot_bytes == 0 && st.syncs == 1);
	assert_true(st.free_bytes == tc->sync_at * bytes);
	assert_true(st.largest_free == tc->largest);
	/* Now the memory is back (no new DM needed). */
	again = mlx5dm_icm_chunk_alloc(pool, tc->order);
	assert_non_null(again);
	assert_true(again->icm_addr ==
		    first + ((uint64_t)tc->reuse_entry << again->log_entry_size));
	fake.fail_alloc_always = false;
	assert_int_equal(fake.live_dms, 1);
	for (i = tc->sync_at; i < tc->nchunks; i++)
		assert_int_equal(mlx5dm_icm_chunk_free(c[i]), 0);
	assert_int_equal(mlx5dm_icm_chunk_free(again), 0);
	assert_int_equal(mlx5dm_icm_pool_sync(pool), 0);
	mlx5dm_icm_pool_stats(pool, &st);
	assert_true(st.used_bytes == 0 && st.hot_bytes == 0 && st.free_bytes == st.total_bytes);
	assert_true(st.largest_free == st.total_bytes && st.live_chunks == 0);
	mlx5dm_icm_pool_destroy(pool);
	assert_int_equal(fake_live_allocs(), 0);
	fake_fini();
}

static void
test_sync_threshold(void **state)
{
	unsigned int i;

	(void)state;
	for (i = 0; i < MLX5DM_ARRAY_SIZE(threshold_cases); i++)
		run_threshold_case(&threshold_cases[i]);
}

/* ---- explicit sync, failing callbacks ---- */

static uint64_t
hot_bytes(struct mlx5dm_icm_pool *pool)
{
	struct mlx5dm_icm_stats st;

	mlx5dm_icm_pool_stats(pool, &st);
	return st.hot_bytes;
}

static void
test_sync_explicit_and_errors(void **state)
{
	struct sync_probe probe = { 0 };
	struct mlx5dm_icm_chunk *c[4], *big, *small;
	struct mlx5dm_icm_pool *pool;
	struct mlx5dm_icm_stats st;
	unsigned int i;

	(void)state;
	fake_init();
	pool = fake_pool_new(MLX5DM_ICM_PATTERN, 15, 0, &probe); /* 32 KiB DM, sync at 16 KiB */
	for (i = 0; i < 4; i++)
		c[i] = mlx5dm_icm_chunk_alloc(pool, 3);
	assert_int_equal(mlx5dm_icm_chunk_free(c[0]), 0);
	assert_int_equal(mlx5dm_icm_chunk_free(c[1]), 0);
	assert_true(hot_bytes(pool) == 128);
	assert_int_equal(mlx5dm_icm_pool_sync(pool), 0);
	assert_int_equal(probe.calls, 1);
	assert_true(probe.in_sync.hot_bytes == 128);
	assert_true(hot_bytes(pool) == 0);
	/* A failing callback: the memory stays hot and the error comes back. */
	assert_int_equal(mlx5dm_icm_chunk_free(c[2]), 0);
	probe.ret = -EIO;
	log_capture_start();
	assert_int_equal(mlx5dm_icm_pool_sync(pool), -EIO);
	log_capture_stop();
	assert_int_equal(log_errors(), 1);
	assert_true(hot_bytes(pool) == 64);
	probe.ret = 0;
	assert_int_equal(mlx5dm_icm_pool_sync(pool), 0);
	assert_true(hot_bytes(pool) == 0);
	/* The same through the threshold: free returns the error, memory stays hot. */
	big = mlx5dm_icm_chunk_alloc(pool, 11); /* 16 KiB = the threshold */
	small = mlx5dm_icm_chunk_alloc(pool, 0);
	assert_non_null(big);
	assert_non_null(small);
	probe.ret = -EIO;
	log_capture_start();
	assert_int_equal(mlx5dm_icm_chunk_free(big), -EIO);
	log_capture_stop();
	assert_int_equal(probe.calls, 4);
	assert_true(hot_bytes(pool) == 16384);
	/* Still above the threshold: the next free retries, and succeeds. */
	probe.ret = 0;
	assert_int_equal(mlx5dm_icm_chunk_free(small), 0);
	assert_int_equal(probe.calls, 5);
	mlx5dm_icm_pool_stats(pool, &st);
	assert_true(st.hot_bytes == 0 && st.syncs == 3 && st.sync_errors == 2);
	assert_true(st.used_bytes == 64 && st.live_chunks == 1);
	mlx5dm_icm_pool_destroy(pool); /* c[3] still live: destroy frees it */
	assert_int_equal(fake_live_allocs(), 0);
	fake_fini();
}

/* ---- re-entry from the callback ---- */

struct reentry_ctx {
	struct mlx5dm_icm_chunk *to_free;
	struct mlx5dm_icm_chunk *allocated;
	int sync_ret;
	int free_ret;
};

static int
hook_reenter(struct sync_probe *p)
{
	struct reentry_ctx *r = p->ctx;

	r->sync_ret = mlx5dm_icm_pool_sync(p->pool);
	r->free_ret = mlx5dm_icm_chunk_free(r->to_free);
	r->allocated = mlx5dm_icm_chunk_alloc(p->pool, 2);
	return 0;
}

static void
test_sync_reentry(void **state)
{
	struct sync_probe probe = { 0 };
	struct reentry_ctx r = { 0 };
	struct mlx5dm_icm_pool *pool;
	struct mlx5dm_icm_chunk *a;
	struct mlx5dm_icm_stats st;

	(void)state;
	fake_init();
	pool = fake_pool_new(MLX5DM_ICM_ENCAP, 18, 0, &probe);
	a = mlx5dm_icm_chunk_alloc(pool, 1);
	r.to_free = mlx5dm_icm_chunk_alloc(pool, 4);
	assert_int_equal(mlx5dm_icm_chunk_free(a), 0);
	probe.hook = hook_reenter;
	probe.ctx = &r;
	assert_int_equal(mlx5dm_icm_pool_sync(pool), 0);
	assert_int_equal(probe.calls, 1);
	assert_int_equal(r.sync_ret, -EDEADLK);
	assert_int_equal(r.free_ret, 0);
	assert_non_null(r.allocated);
	/* The chunk freed during the sync was not in its snapshot: still hot. */
	mlx5dm_icm_pool_stats(pool, &st);
	assert_true(st.hot_bytes == 16 * 64);
	assert_true(st.used_bytes == 4 * 64 && st.syncs == 1);
	probe.hook = NULL;
	assert_int_equal(mlx5dm_icm_pool_sync(pool), 0);
	assert_true(hot_bytes(pool) == 0);
	assert_int_equal(mlx5dm_icm_chunk_free(r.allocated), 0);
	mlx5dm_icm_pool_destroy(pool);
	assert_int_equal(fake_live_allocs(), 0);
	fake_fini();
}

/* ---- reclaim: empty DMs go back to the device after a sync ---- */

static void
test_sync_reclaim(void **state)
{
	struct mlx5dm_icm_stats st, zero;
	struct sync_probe probe = { 0 };
	struct mlx5dm_icm_pool_attr attr;
	struct mlx5dm_icm_chunk *a, *b, *c;
	struct mlx5dm_icm_pool *pool;

	(void)state;
	fake_init();
	attr = fake_pool_attr(MLX5DM_ICM_MODIFY, 15, &probe); /* 4 KiB DMs, sync at 3686 */
	attr.reclaim = true;
	pool = mlx5dm_icm_pool_create(&attr);
	assert_non_null(pool);
	probe.pool = pool;
	mlx5dm_icm_pool_stats(pool, &zero);
	a = mlx5dm_icm_chunk_alloc(pool, 9);   /* DM 1, full */
	b = mlx5dm_icm_chunk_alloc(pool, 8);   /* DM 2, half */
	c = mlx5dm_icm_chunk_alloc(pool, 9);   /* DM 3 */
	assert_int_equal(fake.live_dms, 3);
	/* DM 2 empties (2048 B hot: no sync yet); freed, MR first, at the sync. */
	assert_int_equal(mlx5dm_icm_chunk_free(b), 0);
	assert_int_equal(probe.calls, 0);
	assert_true(fake.dms[1]->live);
	assert_int_equal(mlx5dm_icm_pool_sync(pool), 0);
	assert_false(fake.dms[1]->live);
	assert_int_equal(fake.dereg_calls, 1);
	assert_int_equal(fake.free_calls, 1);
	mlx5dm_icm_pool_stats(pool, &st);
	assert_true(st.dm_count == 2 && st.total_bytes == 8192);
	/* Freeing a (4096 B >= 3686) syncs by itself and reclaims DM 1. */
	assert_int_equal(mlx5dm_icm_chunk_free(a), 0);
	assert_int_equal(probe.calls, 2);
	assert_false(fake.dms[0]->live);
	assert_true(fake.dms[2]->live);
	assert_int_equal(mlx5dm_icm_chunk_free(c), 0);
	assert_int_equal(mlx5dm_icm_pool_sync(pool), 0);
	assert_int_equal(fake.live_dms, 0);
	assert_int_equal(fake.live_mrs, 0);
	/* Back to the starting statistics (sync counters aside). */
	mlx5dm_icm_pool_stats(pool, &st);
	st.syncs = zero.syncs;
	assert_memory_equal(&st, &zero, sizeof(st));
	/* The pool still works; without reclaim empty DMs are kept. */
	mlx5dm_icm_pool_set_reclaim(pool, false);
	a = mlx5dm_icm_chunk_alloc(pool, 0);
	assert_non_null(a);
	assert_int_equal(fake.alloc_calls, 4);
	assert_int_equal(mlx5dm_icm_chunk_free(a), 0);
	assert_int_equal(mlx5dm_icm_pool_sync(pool), 0);
	assert_int_equal(fake.live_dms, 1);
	mlx5dm_icm_pool_destroy(pool);
	assert_int_equal(fake_live_allocs(), 0);
	fake_fini();
}

/* ---- randomized: statistics and "hot memory is never handed out" ---- */

struct span {
	uint64_t start;
	uint64_t end;
	struct mlx5dm_icm_chunk *chunk;
};

static bool
span_overlaps(const struct span *v, unsigned int n, uint64_t start, uint64_t end)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (start < v[i].end && v[i].start < end)
			return true;
	return false;
}

static void
test_sync_random_stats(void **state)
{
	enum { MAXLIVE = 512, STEPS = 4000 };
	struct span *live = calloc(MAXLIVE, sizeof(*live));
	struct span *hot = calloc(4096, sizeof(*hot));
	struct sync_probe probe = { 0 };
	uint64_t used = 0, hotb = 0, th;
	unsigned int nlive = 0, nhot = 0, step, calls = 0;
	struct mlx5dm_icm_pool *pool;
	struct mlx5dm_icm_stats st;

	(void)state;
	assert_non_null(live);
	assert_non_null(hot);
	fake_init();
	pool = fake_pool_new(MLX5DM_ICM_ENCAP, 18, 0, &probe);
	mlx5dm_icm_pool_stats(pool, &st);
	th = st.threshold;
	srand(7);
	for (step = 0; step < STEPS; step++) {
		bool grow = (step / 500) % 2 == 0;

		if (nlive < MAXLIVE && (nlive == 0 || rand() % 100 < (grow ? 70 : 35))) {
			struct mlx5dm_icm_chunk *c = mlx5dm_icm_chunk_alloc(pool, rand() % 7);

			assert_non_null(c);
			/* Neither a live chunk nor memory freed since the last sync. */
			assert_false(span_overlaps(live, nlive, c->icm_addr,
						   c->icm_addr + c->byte_size));
			assert_false(span_overlaps(hot, nhot, c->icm_addr,
						   c->icm_addr + c->byte_size));
			live[nlive].start = c->icm_addr;
			live[nlive].end = c->icm_addr + c->byte_size;
			live[nlive++].chunk = c;
			used += c->byte_size;
		} else {
			unsigned int i = (unsigned int)rand() % nlive;
			uint64_t size = live[i].chunk->byte_size;

			hot[nhot++] = live[i];
			live[i] = live[--nlive];
			assert_int_equal(mlx5dm_icm_chunk_free(hot[nhot - 1].chunk), 0);
			used -= size;
			hotb += size;
			if (hotb >= th) { /* this free must have synced */
				calls++;
				hotb = 0;
				nhot = 0;
			}
			assert_true(nhot < 4096);
		}
		assert_int_equal(probe.calls, calls);
		mlx5dm_icm_pool_stats(pool, &st);
		assert_true(st.used_bytes == used && st.hot_bytes == hotb);
		assert_true(st.live_chunks == nlive);
		assert_true(st.free_bytes == st.total_bytes - used - hotb);
		assert_true(st.dm_bytes == st.total_bytes);
		assert_true(st.total_bytes == st.dm_count * 0x40000);
	}
	while (nlive != 0)
		assert_int_equal(mlx5dm_icm_chunk_free(live[--nlive].chunk), 0);
	assert_int_equal(mlx5dm_icm_pool_sync(pool), 0);
	/* Everything merged back: each DM is one free block again. */
	mlx5dm_icm_pool_stats(pool, &st);
	assert_true(st.used_bytes == 0 && st.hot_bytes == 0 && st.free_bytes == st.total_bytes);
	assert_true(st.largest_free == 0x40000 && st.live_chunks == 0);
	mlx5dm_icm_pool_destroy(pool);
	assert_int_equal(fake_live_allocs(), 0);
	fake_fini();
	free(live);
	free(hot);
}

/* ---- the pool set ---- */

static const struct mlx5dm_icm_caps set_caps = {
	.steering_format_version = 1,
	.log_steering_sw_icm_size = 26,
	.log_header_modify_sw_icm_size = 15,
	.log_header_modify_pattern_sw_icm_size = 15,
	.log_indirect_encap_sw_icm_size = 18,
	.header_modify_sw_icm_start_address = 0x0001020000000000ull,
	.header_modify_pattern_sw_icm_start_address = 0x0001030000000000ull,
	.indirect_encap_icm_base = 0x0001040000000000ull,
};

static struct mlx5dm_icm_set_attr
set_attr(const struct mlx5dm_icm_caps *caps, struct sync_probe *probe)
{
	struct mlx5dm_icm_set_attr a = {
		.dev = &fake.dev,
		.pd = fake.pd,
		.caps = caps,
		.sync = probe_sync,
		.sync_arg = probe,
		.modify_pattern = true,
	};

	return a;
}

static void
test_set(void **state)
{
	/* First DM of each type: +0x800000 (STE), +0x10000, +0x10000, +0x40000 -> lines. */
	static const uint32_t first_line[MLX5DM_ICM_TYPE_NUM] = { 0, 1024, 1024, 4096 };
	struct mlx5dm_icm_stats st[MLX5DM_ICM_TYPE_NUM], total;
	struct mlx5dm_icm_chunk *c[MLX5DM_ICM_TYPE_NUM];
	struct mlx5dm_icm_caps caps = set_caps;
	struct sync_probe probe = { 0 };
	struct mlx5dm_icm_set_attr a;
	struct mlx5dm_icm_set *set;
	unsigned int t;
	uint32_t idx;

	(void)state;
	fake_init();
	a = set_attr(&caps, &probe);
	set = mlx5dm_icm_set_create(&a);
	assert_non_null(set);
	for (t = 0; t < MLX5DM_ICM_TYPE_NUM; t++) {
		struct mlx5dm_icm_pool *pool = mlx5dm_icm_set_pool(set, t);

		assert_non_null(pool);
		assert_int_equal(mlx5dm_icm_pool_type(pool), t);
		c[t] = mlx5dm_icm_chunk_alloc(pool, 3);
		assert_non_null(c[t]);
		if (t != MLX5DM_ICM_STE) {
			assert_int_equal(mlx5dm_icm_chunk_line_index(c[t], &idx), 0);
			assert_int_equal(idx, first_line[t]);
		}
	}
	assert_null(mlx5dm_icm_set_pool(set, MLX5DM_ICM_TYPE_NUM));
	for (t = 0; t < MLX5DM_ICM_TYPE_NUM; t++)
		assert_int_equal(mlx5dm_icm_chunk_free(c[t]), 0);
	mlx5dm_icm_set_stats(set, st, &total);
	assert_true(total.hot_bytes == 2 * 8 * 64 + 2 * 8 * 8);
	assert_true(total.dm_count == 4);
	assert_true(total.total_bytes == 0x800000 + 4096 + 32768 + 0x40000);
	assert_int_equal(total.max_order, 17);
	/* One callback for all four pools. */
	assert_int_equal(mlx5dm_icm_set_sync(set), 0);
	assert_int_equal(probe.calls, 1);
	mlx5dm_icm_set_stats(set, st, NULL);
	for (t = 0; t < MLX5DM_ICM_TYPE_NUM; t++)
		assert_true(st[t].hot_bytes == 0 && st[t].syncs == 1 && st[t].used_bytes == 0);
	/* A failing callback keeps everything hot. */
	c[0] = mlx5dm_icm_chunk_alloc(mlx5dm_icm_set_pool(set, MLX5DM_ICM_MODIFY), 0);
	assert_int_equal(mlx5dm_icm_chunk_free(c[0]), 0);
	probe.ret = -EIO;
	log_capture_start();
	assert_int_equal(mlx5dm_icm_set_sync(set), -EIO);
	log_capture_stop();
	mlx5dm_icm_set_stats(set, st, &total);
	assert_true(total.hot_bytes == 8 && total.sync_errors == 4);
	probe.ret = 0;
	mlx5dm_icm_set_destroy(set);
	mlx5dm_icm_set_destroy(NULL);
	assert_int_equal(fake_live_allocs(), 0);
	fake_fini();
}

struct set_case {
	uint8_t fmt;
	uint8_t log_pattern;
	uint8_t log_encap;
	uint8_t log_ste;
	bool modify_pattern;
	int err;
	bool has_pattern;
	bool has_encap;
};

static const struct set_case set_cases[] = {
	{ 1, 15, 18, 26, true, 0, true, true },
	{ 1, 15, 0, 26, true, 0, true, false },    /* no SW encap */
	{ 1, 15, 18, 26, false, 0, false, true },  /* basic modify-header mode */
	{ 1, 14, 18, 26, false, ENOMEM, 0, 0 },    /* fmt 1: pattern size still checked */
	{ 0, 0, 0, 26, false, 0, false, false },   /* ConnectX-5 */
	{ 1, 15, 17, 26, true, ENOMEM, 0, 0 },     /* encap too small */
	{ 1, 15, 18, 25, true, ENOMEM, 0, 0 },     /* STE too small */
};

static void
test_set_caps(void **state)
{
	struct sync_probe probe = { 0 };
	unsigned int i;

	(void)state;
	fake_init();
	for (i = 0; i < MLX5DM_ARRAY_SIZE(set_cases); i++) {
		const struct set_case *sc = &set_cases[i];
		struct mlx5dm_icm_caps caps = set_caps;
		struct mlx5dm_icm_set_attr a;
		struct mlx5dm_icm_set *set;

		caps.steering_format_version = sc->fmt;
		caps.log_header_modify_pattern_sw_icm_size = sc->log_pattern;
		caps.log_indirect_encap_sw_icm_size = sc->log_encap;
		caps.log_steering_sw_icm_size = sc->log_ste;
		a = set_attr(&caps, &probe);
		a.modify_pattern = sc->modify_pattern;
		log_capture_start();
		set = mlx5dm_icm_set_create(&a);
		log_capture_stop();
		if (sc->err != 0) {
			assert_null(set);
			assert_int_equal(errno, sc->err);
			assert_int_equal(log_errors(), 1);
			assert_int_equal(fake_live_allocs(), 0);
			continue;
		}
		assert_non_null(set);
		assert_non_null(mlx5dm_icm_set_pool(set, MLX5DM_ICM_STE));
		assert_non_null(mlx5dm_icm_set_pool(set, MLX5DM_ICM_MODIFY));
		assert_int_equal(mlx5dm_icm_set_pool(set, MLX5DM_ICM_PATTERN) != NULL,
				 sc->has_pattern);
		assert_int_equal(mlx5dm_icm_set_pool(set, MLX5DM_ICM_ENCAP) != NULL,
				 sc->has_encap);
		mlx5dm_icm_set_destroy(set);
		assert_int_equal(fake_live_allocs(), 0);
	}
	assert_null(mlx5dm_icm_set_create(NULL));
	assert_int_equal(errno, EINVAL);
	fake_fini();
}

/* ---- every host allocation failing in turn leaves nothing behind ---- */

static int
fault_scenario(void)
{
	struct mlx5dm_icm_chunk *c[MLX5DM_ICM_TYPE_NUM][2] = { { NULL } };
	struct sync_probe probe = { 0 };
	struct mlx5dm_icm_set_attr a = set_attr(&set_caps, &probe);
	struct mlx5dm_icm_set *set;
	unsigned int t, k;
	int ret = 0;

	set = mlx5dm_icm_set_create(&a);
	if (set == NULL)
		return -errno;
	for (t = 0; t < MLX5DM_ICM_TYPE_NUM; t++) {
		struct mlx5dm_icm_pool *pool = mlx5dm_icm_set_pool(set, t);

		/* MODIFY order 9 fills a DM: its second chunk brings a second DM. */
		for (k = 0; k < 2; k++) {
			c[t][k] = mlx5dm_icm_chunk_alloc(pool, t == MLX5DM_ICM_MODIFY ? 9 : 2);
			if (c[t][k] == NULL) {
				ret = -errno;
				goto destroy;
			}
		}
		mlx5dm_icm_chunk_free(c[t][0]);
	}
	ret = mlx5dm_icm_set_sync(set);
	if (ret != 0)
		goto destroy;
	c[0][0] = mlx5dm_icm_chunk_alloc(mlx5dm_icm_set_pool(set, 0), 5);
	if (c[0][0] == NULL)
		ret = -errno;
destroy:
	mlx5dm_icm_set_destroy(set);
	return ret;
}

static void
test_alloc_failure_injection(void **state)
{
	uint64_t n, made;
	int ret;

	(void)state;
	for (n = 1;; n++) {
		fake_init();
		mlx5dm_alloc_fail_at(n);
		ret = fault_scenario();
		made = mlx5dm_alloc_count();
		mlx5dm_alloc_fail_at(0);
		assert_int_equal(fake_live_allocs(), 0);
		assert_int_equal(fake.live_dms, 0);
		assert_int_equal(fake.live_mrs, 0);
		fake_fini();
		if (made < n) { /* the injected failure was never reached */
			assert_int_equal(ret, 0);
			break;
		}
		assert_int_equal(ret, -ENOMEM);
	}
	assert_true(n > 10);
}

/* ---- two threads sharing one pool ---- */

#define THREAD_OPS 20000
#define SHADOW_ENTRIES (1u << 17)

struct thread_ctx {
	struct mlx5dm_icm_pool *pool;
	uint8_t *shadow; /* entry -> owning thread id, 0 = free */
	uint8_t id;
	unsigned int overlaps;
	unsigned int failures;
};

static int thread_syncs;

static int
count_sync(void *arg)
{
	(void)arg;
	__atomic_add_fetch(&thread_syncs, 1, __ATOMIC_RELAXED);
	return 0;
}

static uint32_t
shadow_index(const struct mlx5dm_icm_chunk *c)
{
	return (uint32_t)((c->icm_addr - (0x0001030000000000ull + FAKE_ICM_FIRST_OFFSET)) >> 3);
}

/* Clear the shadow before the pool may hand the entries to the other thread. */
static void
thread_release(struct thread_ctx *t, struct mlx5dm_icm_chunk *c)
{
	unsigned int e;

	for (e = 0; e < c->num_entries; e++)
		__atomic_store_n(&t->shadow[shadow_index(c) + e], 0, __ATOMIC_RELAXED);
	if (mlx5dm_icm_chunk_free(c) != 0)
		t->failures++;
}

static void *
thread_main(void *arg)
{
	struct thread_ctx *t = arg;
	struct mlx5dm_icm_chunk *held[64] = { NULL };
	unsigned int i, e;

	for (i = 0; i < THREAD_OPS; i++) {
		unsigned int slot = (i * 7 + t->id) % 64;
		struct mlx5dm_icm_chunk *c = held[slot];

		if (c != NULL) {
			thread_release(t, c);
			held[slot] = NULL;
			continue;
		}
		c = mlx5dm_icm_chunk_alloc(t->pool, (i / 64) % 6);
		if (c == NULL || shadow_index(c) + c->num_entries > SHADOW_ENTRIES) {
			t->failures++;
			break;
		}
		for (e = 0; e < c->num_entries; e++)
			if (__atomic_exchange_n(&t->shadow[shadow_index(c) + e], t->id,
						__ATOMIC_RELAXED) != 0)
				t->overlaps++;
		held[slot] = c;
	}
	for (i = 0; i < 64; i++)
		if (held[i] != NULL)
			thread_release(t, held[i]);
	return NULL;
}

static void
test_threads(void **state)
{
	struct mlx5dm_icm_pool_attr a;
	struct thread_ctx ctx[2];
	struct mlx5dm_icm_stats st;
	struct mlx5dm_icm_pool *pool;
	pthread_t tid[2];
	uint8_t *shadow = calloc(SHADOW_ENTRIES, 1);
	unsigned int i;

	(void)state;
	assert_non_null(shadow);
	fake_init();
	a = fake_pool_attr(MLX5DM_ICM_PATTERN, 15, NULL);
	a.sync = count_sync;
	pool = mlx5dm_icm_pool_create(&a);
	assert_non_null(pool);
	for (i = 0; i < 2; i++) {
		memset(&ctx[i], 0, sizeof(ctx[i]));
		ctx[i].pool = pool;
		ctx[i].shadow = shadow;
		ctx[i].id = (uint8_t)(i + 1);
		assert_int_equal(pthread_create(&tid[i], NULL, thread_main, &ctx[i]), 0);
	}
	for (i = 0; i < 2; i++) {
		assert_int_equal(pthread_join(tid[i], NULL), 0);
		assert_int_equal(ctx[i].overlaps, 0);
		assert_int_equal(ctx[i].failures, 0);
	}
	assert_int_equal(mlx5dm_icm_pool_sync(pool), 0);
	mlx5dm_icm_pool_stats(pool, &st);
	assert_true(st.used_bytes == 0 && st.hot_bytes == 0 && st.live_chunks == 0);
	assert_true(st.free_bytes == st.total_bytes);
	assert_true(st.syncs == (uint64_t)__atomic_load_n(&thread_syncs, __ATOMIC_RELAXED));
	assert_true(st.syncs > 1);
	mlx5dm_icm_pool_destroy(pool);
	assert_int_equal(fake_live_allocs(), 0);
	fake_fini();
	free(shadow);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sync_threshold),
		cmocka_unit_test(test_sync_explicit_and_errors),
		cmocka_unit_test(test_sync_reentry),
		cmocka_unit_test(test_sync_reclaim),
		cmocka_unit_test(test_sync_random_stats),
		cmocka_unit_test(test_set),
		cmocka_unit_test(test_set_caps),
		cmocka_unit_test(test_alloc_failure_injection),
		cmocka_unit_test(test_threads),
	};

	return cmocka_run_group_tests_name("icm_sync", tests, NULL, NULL);
}
