/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The model's allocation bitmaps (DM blocks, counter ids, argument ids):
 * first fit from 0 with the start aligned, ranges set and cleared across
 * word boundaries. Checked against a bit-at-a-time reference in the test
 * (the kernel's bitmap_find_next_zero_area rule), over random sequences.
 */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "mlx5dm_sim_core.h"

#define NBITS 1000u

/* The rule, bit by bit: lowest aligned start whose n bits are all clear. */
static int64_t
ref_find(const uint8_t *ref, uint64_t nbits, uint64_t n, uint64_t align)
{
	uint64_t s, i;

	for (s = 0; s + n <= nbits; s += align) {
		for (i = 0; i < n && !ref[s + i]; i++)
			;
		if (i == n)
			return (int64_t)s;
	}
	return -1;
}

static void
assert_same(const struct mlx5dm_sim_bitmap *bm, const uint8_t *ref, uint64_t nbits)
{
	uint64_t i;

	for (i = 0; i < nbits; i++)
		assert_int_equal(mlx5dm_sim_bitmap_all_set(bm, i, 1), ref[i]);
}

static void
test_bitmap_ranges(void **state)
{
	struct mlx5dm_sim_bitmap bm;
	uint8_t ref[NBITS] = { 0 };

	(void)state;
	assert_int_equal(mlx5dm_sim_bitmap_init(&bm, NBITS, MLX5DM_SOCKET_ANY), 0);
	/* Within a word, ending on a boundary, spanning three words, a full word. */
	mlx5dm_sim_bitmap_set(&bm, 3, 5, true);
	mlx5dm_sim_bitmap_set(&bm, 60, 4, true);
	mlx5dm_sim_bitmap_set(&bm, 100, 150, true);
	mlx5dm_sim_bitmap_set(&bm, 320, 64, true);
	memset(ref + 3, 1, 5);
	memset(ref + 60, 1, 4);
	memset(ref + 100, 1, 150);
	memset(ref + 320, 1, 64);
	assert_same(&bm, ref, NBITS);
	assert_true(mlx5dm_sim_bitmap_all_set(&bm, 100, 150));
	assert_false(mlx5dm_sim_bitmap_all_set(&bm, 99, 2));
	assert_false(mlx5dm_sim_bitmap_all_set(&bm, 990, 20)); /* past the end */
	/* Clearing the middle of a range leaves its ends. */
	mlx5dm_sim_bitmap_set(&bm, 120, 70, false);
	memset(ref + 120, 0, 70);
	assert_same(&bm, ref, NBITS);
	/*
	 * Busy now: 3-7, 60-63, 100-119, 190-249, 320-383. First fits by
	 * hand: the free run 384-999 is the longest (616 bits).
	 */
	assert_int_equal(mlx5dm_sim_bitmap_find_area(&bm, 1, 1), 0);
	assert_int_equal(mlx5dm_sim_bitmap_find_area(&bm, 52, 4), 8);
	assert_int_equal(mlx5dm_sim_bitmap_find_area(&bm, 64, 64), 256);
	assert_int_equal(mlx5dm_sim_bitmap_find_area(&bm, 64, 8), 120);
	assert_int_equal(mlx5dm_sim_bitmap_find_area(&bm, 616, 128), 384);
	assert_int_equal(mlx5dm_sim_bitmap_find_area(&bm, 616, 256), -1);
	assert_int_equal(mlx5dm_sim_bitmap_find_area(&bm, 617, 1), -1);
	assert_int_equal(mlx5dm_sim_bitmap_find_area(&bm, NBITS + 1, 1), -1);
	assert_int_equal(mlx5dm_sim_bitmap_find_area(&bm, 0, 1), -1);
	mlx5dm_sim_bitmap_fini(&bm);
}

/* Random allocations and frees of aligned power-of-two areas, as the model's users make. */
static void
test_bitmap_random(void **state)
{
	struct mlx5dm_sim_bitmap bm;
	static uint8_t ref[NBITS];
	int64_t base[64] = { 0 };
	uint64_t len[64] = { 0 };
	unsigned int step;

	(void)state;
	memset(ref, 0, sizeof(ref));
	srand(7);
	assert_int_equal(mlx5dm_sim_bitmap_init(&bm, NBITS, MLX5DM_SOCKET_ANY), 0);
	for (step = 0; step < 4000; step++) {
		unsigned int k = (unsigned int)rand() % 64;

		if (len[k] != 0) {
			mlx5dm_sim_bitmap_set(&bm, (uint64_t)base[k], len[k], false);
			memset(ref + base[k], 0, len[k]);
			len[k] = 0;
		} else {
			uint64_t n = 1ull << (rand() % 8), al = rand() % 2 ? n : 1;
			int64_t got = mlx5dm_sim_bitmap_find_area(&bm, n, al);

			assert_int_equal(got, ref_find(ref, NBITS, n, al));
			if (got < 0)
				continue;
			mlx5dm_sim_bitmap_set(&bm, (uint64_t)got, n, true);
			memset(ref + got, 1, n);
			base[k] = got;
			len[k] = n;
		}
		if (step % 256 == 0)
			assert_same(&bm, ref, NBITS);
	}
	assert_same(&bm, ref, NBITS);
	mlx5dm_sim_bitmap_fini(&bm);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bitmap_ranges),
		cmocka_unit_test(test_bitmap_random),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
