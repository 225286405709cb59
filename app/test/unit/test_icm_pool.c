/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * ICM pools over the fake device boundary: sizing from caps, chunk
 * addresses / rkeys / line indexes hand-computed from the fake's address
 * plan, the misaligned-DM path, growth, error propagation without leaks.
 *
 * Fake address plan (test_icm_fake.h): the ICM range of DM type t starts at
 * 0x0001000000000000 + t<<40, the first DM is placed at range + 0x10000
 * rounded up to the DM length (the fake aligns naturally unless told
 * otherwise), the next one after it, and so on; rkeys count from 0x1000.
 */

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "test_icm_fake.h"

#define STE_BASE     0x0001010000000000ull
#define MODIFY_BASE  0x0001020000000000ull
#define PATTERN_BASE 0x0001030000000000ull
#define ENCAP_BASE   0x0001040000000000ull
#define MR_ACCESS (IBV_ACCESS_ZERO_BASED | IBV_ACCESS_REMOTE_WRITE | \
		   IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ)

static void
assert_chunk(const struct mlx5dm_icm_chunk *c, uint64_t icm, uint64_t mr, uint32_t rkey,
	     unsigned int order, unsigned int log_entry)
{
	assert_non_null(c);
	assert_true(c->icm_addr == icm);
	assert_true(c->mr_addr == mr);
	assert_int_equal(c->rkey, rkey);
	assert_int_equal(c->order, order);
	assert_int_equal(c->num_entries, 1u << order);
	assert_true(c->byte_size == 1ull << (order + log_entry));
	assert_int_equal(c->log_entry_size, log_entry);
}

/* ---- sizing ---- */

struct sizing_case {
	enum mlx5dm_icm_type type;
	uint8_t log_icm;
	int err;              /* expected errno, 0 = created */
	unsigned int order;   /* expected max order */
	uint64_t threshold;   /* expected hot-bytes threshold */
};

static const struct sizing_case sizing_cases[] = {
	/* STE: min(20, log - 3 - 6), >= 26; threshold half of 2^order * 64 B. */
	{ MLX5DM_ICM_STE, 30, 0, 20, 0x2000000 },
	{ MLX5DM_ICM_STE, 28, 0, 19, 0x1000000 },
	{ MLX5DM_ICM_STE, 26, 0, 17, 0x400000 },
	{ MLX5DM_ICM_STE, 25, ENOMEM, 0, 0 },
	{ MLX5DM_ICM_STE, 0, ENOTSUP, 0, 0 },
	/* MODIFY: min(20, log - 3 - 3), >= 15; 90 % of 2^order * 8 B. */
	{ MLX5DM_ICM_MODIFY, 30, 0, 20, 7549747 },
	{ MLX5DM_ICM_MODIFY, 15, 0, 9, 3686 },
	{ MLX5DM_ICM_MODIFY, 14, ENOMEM, 0, 0 },
	/* PATTERN: 12, >= 15; half of 32 KiB. */
	{ MLX5DM_ICM_PATTERN, 15, 0, 12, 16384 },
	{ MLX5DM_ICM_PATTERN, 30, 0, 12, 16384 },
	{ MLX5DM_ICM_PATTERN, 14, ENOMEM, 0, 0 },
	/* ENCAP: 12, >= 18; half of 256 KiB. */
	{ MLX5DM_ICM_ENCAP, 18, 0, 12, 131072 },
	{ MLX5DM_ICM_ENCAP, 17, ENOMEM, 0, 0 },
	{ MLX5DM_ICM_ENCAP, 0, ENOTSUP, 0, 0 },
};

static void
test_pool_sizing(void **state)
{
	struct sync_probe probe = { 0 };
	struct mlx5dm_icm_pool_attr a;
	struct mlx5dm_icm_stats st;
	unsigned int i;

	(void)state;
	fake_init();
	for (i = 0; i < MLX5DM_ARRAY_SIZE(sizing_cases); i++) {
		const struct sizing_case *c = &sizing_cases[i];
		struct mlx5dm_icm_pool *pool;

		a = fake_pool_attr(c->type, c->log_icm, &probe);
		log_capture_start();
		pool = mlx5dm_icm_pool_create(&a);
		log_capture_stop();
		if (c->err != 0) {
			assert_null(pool);
			assert_int_equal(errno, c->err);
			assert_int_equal(log_errors(), 1);
			assert_non_null(strstr(log_last(), "icm: "));
			continue;
		}
		assert_non_null(pool);
		assert_int_equal(log_errors(), 0);
		assert_int_equal(mlx5dm_icm_pool_type(pool), c->type);
		assert_int_equal(mlx5dm_icm_pool_max_order(pool), c->order);
		mlx5dm_icm_pool_stats(pool, &st);
		assert_true(st.threshold == c->threshold);
		assert_int_equal(st.max_order, c->order);
		assert_true(st.dm_count == 0 && st.total_bytes == 0 && st.used_bytes == 0);
		mlx5dm_icm_pool_destroy(pool);
	}
	/* Bad attributes: refused with a log line. */
	log_capture_start();
	assert_null(mlx5dm_icm_pool_create(NULL));
	assert_int_equal(errno, EINVAL);
	a = fake_pool_attr(MLX5DM_ICM_TYPE_NUM, 30, &probe);
	assert_null(mlx5dm_icm_pool_create(&a));
	assert_int_equal(errno, EINVAL);
	a = fake_pool_attr(MLX5DM_ICM_STE, 30, &probe);
	a.sync = NULL;
	assert_null(mlx5dm_icm_pool_create(&a));
	assert_int_equal(errno, EINVAL);
	a = fake_pool_attr(MLX5DM_ICM_STE, 30, &probe);
	a.dev = NULL;
	assert_null(mlx5dm_icm_pool_create(&a));
	assert_int_equal(errno, EINVAL);
	log_capture_stop();
	assert_int_equal(log_errors(), 4);
	/* Host allocation failure. */
	a = fake_pool_attr(MLX5DM_ICM_STE, 30, &probe);
	mlx5dm_alloc_fail_at(1);
	assert_null(mlx5dm_icm_pool_create(&a));
	assert_int_equal(errno, ENOMEM);
	mlx5dm_alloc_fail_at(0);
	assert_int_equal(fake.alloc_calls, 0); /* pools allocate no DM up front */
	assert_int_equal(fake_live_allocs(), 0);
	fake_fini();
}

/* ---- STE chunk addresses ---- */

static void
test_pool_ste_addresses(void **state)
{
	const uint64_t dm0 = STE_BASE + 0x800000; /* range + 0x10000 rounded up to 8 MiB */
	struct sync_probe probe = { 0 };
	struct mlx5dm_icm_chunk *c0, *c1, *c2;
	struct mlx5dm_icm_pool *pool;
	struct mlx5dm_icm_stats st;
	uint32_t idx;

	(void)state;
	fake_init();
	pool = fake_pool_new(MLX5DM_ICM_STE, 26, 0, &probe); /* order 17: 8 MiB DMs */
	/* Order 0 splits the DM down: entry 0. */
	c0 = mlx5dm_icm_chunk_alloc(pool, 0);
	assert_chunk(c0, dm0, 0, FAKE_RKEY_FIRST, 0, 6);
	/* Order 4: the free order-4 block left by the split is entries 16..31. */
	c1 = mlx5dm_icm_chunk_alloc(pool, 4);
	assert_chunk(c1, dm0 + 16 * 64, 16 * 64, FAKE_RKEY_FIRST, 4, 6);
	/* Order 2: entries 4..7. */
	c2 = mlx5dm_icm_chunk_alloc(pool, 2);
	assert_chunk(c2, dm0 + 4 * 64, 4 * 64, FAKE_RKEY_FIRST, 2, 6);
	assert_true(mlx5dm_icm_chunk_entry_icm(c1, 3) == dm0 + 19 * 64);
	assert_true(mlx5dm_icm_chunk_entry_mr(c1, 3) == 19 * 64);
	assert_int_equal(mlx5dm_icm_chunk_line_index(c0, &idx), -EINVAL);

	/* What the device boundary saw. */
	assert_int_equal(fake.alloc_calls, 1);
	assert_int_equal(fake.init_obj_calls, 1);
	assert_int_equal(fake.dms[0]->type, MLX5DV_DM_TYPE_STEERING_SW_ICM);
	assert_true(fake.dms[0]->length == 0x800000);
	assert_true(fake.dms[0]->addr == dm0);
	assert_true(fake.dms[0]->mr->dm_offset == 0);
	assert_true(fake.dms[0]->mr->ibv.length == 0x800000);
	assert_int_equal(fake.dms[0]->mr->access, MR_ACCESS);

	mlx5dm_icm_pool_stats(pool, &st);
	assert_true(st.dm_count == 1 && st.dm_bytes == 0x800000 && st.total_bytes == 0x800000);
	assert_true(st.used_bytes == 64 + 1024 + 256);
	assert_true(st.hot_bytes == 0);
	assert_true(st.free_bytes == 0x800000 - 1344);
	assert_true(st.live_chunks == 3);
	/* Largest free block: the upper half left by the first split (2^16 entries). */
	assert_true(st.largest_free == 0x400000);

	assert_int_equal(mlx5dm_icm_chunk_free(c1), 0);
	assert_int_equal(mlx5dm_icm_chunk_free(c0), 0);
	assert_int_equal(mlx5dm_icm_chunk_free(c2), 0);
	assert_int_equal(mlx5dm_icm_chunk_free(NULL), 0);
	assert_int_equal(mlx5dm_icm_pool_sync(pool), 0);
	mlx5dm_icm_pool_stats(pool, &st);
	assert_true(st.used_bytes == 0 && st.hot_bytes == 0 && st.free_bytes == 0x800000);
	assert_true(st.largest_free == 0x800000 && st.live_chunks == 0);
	mlx5dm_icm_pool_destroy(pool);
	assert_int_equal(fake_live_allocs(), 0);
	fake_fini();
}

/* ---- line indexes of modify/pattern/encap chunks ---- */

struct index_case {
	enum mlx5dm_icm_type type;
	uint8_t log_icm;
	uint64_t base;        /* range start = the cap's index base */
	uint64_t dm_offset;   /* first DM in the range */
	unsigned int order[4];
	uint64_t entry_off[4]; /* hand-derived buddy placement, in entries */
	uint32_t index[4];
};

static const struct index_case index_cases[] = {
	/* 8 B entries; DM at +0x10000 = line 1024. Orders 3,3,5,0 -> entries 0, 8, 32, 16. */
	{ MLX5DM_ICM_MODIFY, 15, MODIFY_BASE, 0x10000, { 3, 3, 5, 0 },
	  { 0, 8, 32, 16 }, { 1024, 1025, 1028, 1026 } },
	{ MLX5DM_ICM_PATTERN, 15, PATTERN_BASE, 0x10000, { 3, 3, 5, 0 },
	  { 0, 8, 32, 16 }, { 1024, 1025, 1028, 1026 } },
	/* 64 B entries, 256 KiB DM at +0x40000 = line 4096. Orders 0,1,0,2 -> 0, 2, 1, 4. */
	{ MLX5DM_ICM_ENCAP, 18, ENCAP_BASE, 0x40000, { 0, 1, 0, 2 },
	  { 0, 2, 1, 4 }, { 4096, 4098, 4097, 4100 } },
};

static void
test_pool_line_index(void **state)
{
	struct sync_probe probe = { 0 };
	unsigned int i, k;

	(void)state;
	for (i = 0; i < MLX5DM_ARRAY_SIZE(index_cases); i++) {
		const struct index_case *ic = &index_cases[i];
		unsigned int log_entry = ic->type == MLX5DM_ICM_ENCAP ? 6 : 3;
		struct mlx5dm_icm_chunk *c[4];
		struct mlx5dm_icm_pool *pool, *high, *odd;
		uint32_t idx;

		fake_init();
		pool = fake_pool_new(ic->type, ic->log_icm, ic->base, &probe);
		for (k = 0; k < 4; k++) {
			uint64_t off = ic->entry_off[k] << log_entry;

			c[k] = mlx5dm_icm_chunk_alloc(pool, ic->order[k]);
			assert_chunk(c[k], ic->base + ic->dm_offset + off, off, FAKE_RKEY_FIRST,
				     ic->order[k], log_entry);
			assert_int_equal(mlx5dm_icm_chunk_line_index(c[k], &idx), 0);
			assert_int_equal(idx, ic->index[k]);
		}
		assert_int_equal(fake.dms[0]->type, (uint32_t)ic->type + 1);
		/* A base above the chunk, or not on a line boundary: no index. */
		high = fake_pool_new(ic->type, ic->log_icm, ic->base + 0x100000, &probe);
		odd = fake_pool_new(ic->type, ic->log_icm, ic->base + 8, &probe);
		c[0] = mlx5dm_icm_chunk_alloc(high, 3);
		c[1] = mlx5dm_icm_chunk_alloc(odd, 3);
		assert_int_equal(mlx5dm_icm_chunk_line_index(c[0], &idx), -ERANGE);
		assert_int_equal(mlx5dm_icm_chunk_line_index(c[1], &idx), -ERANGE);
		/* Destroy frees live chunks too. */
		mlx5dm_icm_pool_destroy(pool);
		mlx5dm_icm_pool_destroy(high);
		mlx5dm_icm_pool_destroy(odd);
		assert_int_equal(fake_live_allocs(), 0);
		fake_fini();
	}
}

/* ---- misaligned DMs ---- */

struct misalign_case {
	enum mlx5dm_icm_type type;
	uint8_t log_icm;
	unsigned int misalign_calls;
	uint64_t misalign_by;
	unsigned int alloc_calls;   /* expected alloc_dm calls */
	uint64_t dm_addr;           /* expected address of the kept DM */
	uint64_t dm_length;         /* expected length of the kept DM */
	uint64_t offset_in_dm;      /* expected MR offset */
};

static const struct misalign_case misalign_cases[] = {
	/*
	 * STE 8 MiB at +0x801000: freed; 16 MiB asked, the fake puts it at the
	 * next 16 MiB boundary (+0x2000000), aligned: offset 0.
	 */
	{ MLX5DM_ICM_STE, 26, 1, 0x1000, 2, STE_BASE + 0x2000000, 0x1000000, 0 },
	/*
	 * Both misaligned: 16 MiB at +0x2001000; the first 8 MiB boundary in it
	 * is +0x2800000, 0x7ff000 into the DM.
	 */
	{ MLX5DM_ICM_STE, 26, 2, 0x1000, 2, STE_BASE + 0x2001000, 0x1000000, 0x7ff000 },
	/*
	 * MODIFY needs 64 B: 4 KiB at +0x10008 freed; 8 KiB at 0x12000 + 8,
	 * next line 56 bytes in.
	 */
	{ MLX5DM_ICM_MODIFY, 15, 2, 8, 2, MODIFY_BASE + 0x12008, 0x2000, 56 },
	/* 64-byte aligned (not to its size) is enough for MODIFY: kept as is. */
	{ MLX5DM_ICM_MODIFY, 15, 1, 0x40, 1, MODIFY_BASE + 0x10040, 0x1000, 0 },
	/* ENCAP 256 KiB at +0x40020 freed; 512 KiB at +0x100000 + 0x20, next line 0x20 in. */
	{ MLX5DM_ICM_ENCAP, 18, 2, 0x20, 2, ENCAP_BASE + 0x100020, 0x80000, 0x20 },
};

static void
test_pool_misaligned(void **state)
{
	struct sync_probe probe = { 0 };
	unsigned int i;

	(void)state;
	for (i = 0; i < MLX5DM_ARRAY_SIZE(misalign_cases); i++) {
		const struct misalign_case *mc = &misalign_cases[i];
		unsigned int log_entry = mc->type == MLX5DM_ICM_MODIFY ? 3 : 6;
		struct mlx5dm_icm_chunk *c, *d;
		struct mlx5dm_icm_pool *pool;
		struct mlx5dm_icm_stats st;
		struct fake_dm *kept;
		uint64_t usable;

		fake_init();
		fake.misalign_calls = mc->misalign_calls;
		fake.misalign_by = mc->misalign_by;
		pool = fake_pool_new(mc->type, mc->log_icm, 0, &probe);
		usable = 1ull << (mlx5dm_icm_pool_max_order(pool) + log_entry);
		c = mlx5dm_icm_chunk_alloc(pool, 0);
		d = mlx5dm_icm_chunk_alloc(pool, 1);
		assert_int_equal(fake.alloc_calls, mc->alloc_calls);
		assert_int_equal(fake.free_calls, mc->alloc_calls - 1);
		assert_int_equal(fake.live_dms, 1);
		kept = fake.dms[mc->alloc_calls - 1];
		assert_true(kept->addr == mc->dm_addr);
		assert_true(kept->length == mc->dm_length);
		assert_true(kept->mr->dm_offset == mc->offset_in_dm);
		assert_true(kept->mr->ibv.length == usable);
		/* Entry 0 is at the aligned start; the zero-based MR starts there too. */
		assert_chunk(c, mc->dm_addr + mc->offset_in_dm, 0, FAKE_RKEY_FIRST, 0, log_entry);
		assert_chunk(d, mc->dm_addr + mc->offset_in_dm + (2ull << log_entry),
			     2ull << log_entry, FAKE_RKEY_FIRST, 1, log_entry);
		if (mc->type == MLX5DM_ICM_STE)
			assert_int_equal(c->icm_addr & (usable - 1), 0);
		else
			assert_int_equal(c->icm_addr & 63, 0);
		mlx5dm_icm_pool_stats(pool, &st);
		assert_true(st.dm_bytes == mc->dm_length && st.total_bytes == usable);
		mlx5dm_icm_pool_destroy(pool);
		assert_int_equal(fake_live_allocs(), 0);
		fake_fini();
	}
}

/* ---- growth: newest DM first, a new DM only when nothing fits ---- */

static void
test_pool_growth(void **state)
{
	struct mlx5dm_icm_chunk *b1, *b2, *c, *d, *e, *f, *g, *h;
	struct sync_probe probe = { 0 };
	struct mlx5dm_icm_pool *pool;
	struct mlx5dm_icm_stats st;

	(void)state;
	fake_init();
	pool = fake_pool_new(MLX5DM_ICM_MODIFY, 15, 0, &probe); /* order 9: 4 KiB DMs */
	b1 = mlx5dm_icm_chunk_alloc(pool, 8);
	b2 = mlx5dm_icm_chunk_alloc(pool, 8);
	assert_chunk(b1, MODIFY_BASE + 0x10000, 0, 0x1000, 8, 3);
	assert_chunk(b2, MODIFY_BASE + 0x10800, 0x800, 0x1000, 8, 3);
	c = mlx5dm_icm_chunk_alloc(pool, 0);     /* DM 1 is full: DM 2 */
	assert_chunk(c, MODIFY_BASE + 0x11000, 0, 0x1001, 0, 3);
	d = mlx5dm_icm_chunk_alloc(pool, 3);     /* newest (DM 2): entries 8..15 */
	assert_chunk(d, MODIFY_BASE + 0x11040, 0x40, 0x1001, 3, 3);
	assert_int_equal(fake.alloc_calls, 2);
	/* b1 is hot (2048 B, below the 3686 B threshold): not reused. */
	assert_int_equal(mlx5dm_icm_chunk_free(b1), 0);
	assert_int_equal(probe.calls, 0);
	e = mlx5dm_icm_chunk_alloc(pool, 8);     /* DM 2, entries 256..511 */
	assert_chunk(e, MODIFY_BASE + 0x11800, 0x800, 0x1001, 8, 3);
	f = mlx5dm_icm_chunk_alloc(pool, 9);     /* nothing fits: DM 3 */
	assert_chunk(f, MODIFY_BASE + 0x12000, 0, 0x1002, 9, 3);
	assert_int_equal(mlx5dm_icm_pool_sync(pool), 0);
	assert_int_equal(probe.calls, 1);
	/* DM 1 (b1's entries) and DM 2 (entry 1) both fit one entry: newest first. */
	h = mlx5dm_icm_chunk_alloc(pool, 0);
	assert_chunk(h, MODIFY_BASE + 0x11008, 8, 0x1001, 0, 3);
	/* b1's block is found again in DM 1 (DM 3, DM 2 have no room). */
	g = mlx5dm_icm_chunk_alloc(pool, 8);
	assert_chunk(g, MODIFY_BASE + 0x10000, 0, 0x1000, 8, 3);
	assert_int_equal(fake.alloc_calls, 3);
	mlx5dm_icm_pool_stats(pool, &st);
	assert_true(st.dm_count == 3 && st.total_bytes == 3 * 4096);
	assert_true(st.used_bytes == 2048 * 3 + 4096 + 8 + 64 + 8 && st.live_chunks == 7);
	/* Beyond the max order. */
	assert_null(mlx5dm_icm_chunk_alloc(pool, 10));
	assert_int_equal(errno, EINVAL);
	mlx5dm_icm_pool_destroy(pool);
	assert_int_equal(fake_live_allocs(), 0);
	fake_fini();
}

/* ---- device and host failures: errno propagated, nothing leaked ---- */

static void
assert_alloc_fails(struct mlx5dm_icm_pool *pool, int err, long allocs)
{
	log_capture_start();
	assert_null(mlx5dm_icm_chunk_alloc(pool, 0));
	log_capture_stop();
	assert_int_equal(errno, err);
	assert_int_equal(fake.live_dms, 0);
	assert_int_equal(fake.live_mrs, 0);
	assert_int_equal(fake_live_allocs(), allocs);
}

static void
test_pool_errors(void **state)
{
	struct sync_probe probe = { 0 };
	struct mlx5dm_icm_pool *pool;
	struct mlx5dm_icm_chunk *c;
	struct mlx5dm_icm_stats st;
	long base;
	uint64_t n;

	(void)state;
	fake_init();
	pool = fake_pool_new(MLX5DM_ICM_MODIFY, 15, 0, &probe);
	base = fake_live_allocs();
	/* The device is out of ICM. */
	fake.fail_alloc_at = 1;
	assert_alloc_fails(pool, ENOMEM, base);
	assert_true(log_errors() >= 1);
	assert_int_equal(fake.alloc_calls, 1);
	/* Registration refused: the DM goes back. */
	fake.fail_reg = true;
	assert_alloc_fails(pool, EACCES, base);
	assert_int_equal(fake.free_calls, 1);
	fake.fail_reg = false;
	/* No ICM address reported. */
	fake.no_remote_va = true;
	assert_alloc_fails(pool, ENOTSUP, base);
	assert_int_equal(fake.free_calls, 2);
	fake.no_remote_va = false;
	/* Misaligned, then the 2L retry fails: the first DM was already freed. */
	fake.misalign_calls = 1;
	fake.misalign_by = 8;
	fake.fail_alloc_at = 2;
	assert_alloc_fails(pool, ENOMEM, base);
	assert_int_equal(fake.free_calls, 3);
	/* Host memory: chunk struct, DM struct, buddy - each failure unwinds. */
	for (n = 1; n <= 3; n++) {
		mlx5dm_alloc_fail_at(n);
		assert_alloc_fails(pool, ENOMEM, base);
		assert_true(mlx5dm_alloc_count() >= n);
	}
	mlx5dm_alloc_fail_at(4);
	c = mlx5dm_icm_chunk_alloc(pool, 0);
	assert_non_null(c);
	assert_int_equal(mlx5dm_alloc_count(), 3);
	mlx5dm_alloc_fail_at(0);
	mlx5dm_icm_pool_stats(pool, &st);
	assert_true(st.dm_count == 1 && st.live_chunks == 1 && st.used_bytes == 8);
	mlx5dm_icm_pool_destroy(pool);
	assert_int_equal(fake_live_allocs(), 0);
	fake_fini();
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pool_sizing),
		cmocka_unit_test(test_pool_ste_addresses),
		cmocka_unit_test(test_pool_line_index),
		cmocka_unit_test(test_pool_misaligned),
		cmocka_unit_test(test_pool_growth),
		cmocka_unit_test(test_pool_errors),
	};

	return cmocka_run_group_tests_name("icm_pool", tests, NULL, NULL);
}
