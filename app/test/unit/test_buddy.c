/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Buddy allocator: hand-derived segments, argument checks, and randomized
 * alloc/free against a unit-level shadow (who owns each unit) with the
 * invariants checked after every step.
 */

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "mlx5dm_osdep.h"
#include "mlx5dm_buddy.h"

static void
assert_free_blocks(const struct mlx5dm_buddy *b, const uint32_t *expect)
{
	unsigned int o;

	for (o = 0; o <= mlx5dm_buddy_max_order(b); o++)
		assert_int_equal(mlx5dm_buddy_free_blocks(b, o), expect[o]);
	assert_int_equal(mlx5dm_buddy_check(b), 0);
}

static void
test_buddy_hand_derived(void **state)
{
	struct mlx5dm_buddy *b;
	uint32_t s0, s1, s2, s3, s4, s5;

	(void)state;
	b = mlx5dm_buddy_create(4, MLX5DM_SOCKET_ANY); /* 16 units */
	assert_non_null(b);
	assert_free_blocks(b, (uint32_t[]){ 0, 0, 0, 0, 1 });
	assert_int_equal(mlx5dm_buddy_largest_free(b), 4);
	/* Order 0 splits 16 -> 8+8 -> 4+4 -> 2+2 -> 1+1: unit 0, one free block per order. */
	assert_int_equal(mlx5dm_buddy_alloc(b, 0, &s0), 0);
	assert_int_equal(s0, 0);
	assert_free_blocks(b, (uint32_t[]){ 1, 1, 1, 1, 0 });
	/* Order 1 takes the free pair at units 2-3. */
	assert_int_equal(mlx5dm_buddy_alloc(b, 1, &s1), 0);
	assert_int_equal(s1, 2);
	/* Order 0 takes the free single unit 1. */
	assert_int_equal(mlx5dm_buddy_alloc(b, 0, &s2), 0);
	assert_int_equal(s2, 1);
	assert_free_blocks(b, (uint32_t[]){ 0, 0, 1, 1, 0 });
	/* Order 2 -> units 4-7, order 3 -> units 8-15; then nothing is left. */
	assert_int_equal(mlx5dm_buddy_alloc(b, 2, &s3), 0);
	assert_int_equal(s3, 4);
	assert_int_equal(mlx5dm_buddy_alloc(b, 3, &s4), 0);
	assert_int_equal(s4, 8);
	assert_int_equal(mlx5dm_buddy_free_units(b), 0);
	assert_int_equal(mlx5dm_buddy_largest_free(b), -1);
	assert_int_equal(mlx5dm_buddy_alloc(b, 0, &s5), -ENOMEM);
	/* Unit 1 back: its buddy (unit 0) is in use, no merge. */
	assert_int_equal(mlx5dm_buddy_free(b, s2, 0), 0);
	assert_free_blocks(b, (uint32_t[]){ 1, 0, 0, 0, 0 });
	/* Unit 0 back: merges with 1 into pair 0-1; pair 2-3 is in use. */
	assert_int_equal(mlx5dm_buddy_free(b, s0, 0), 0);
	assert_free_blocks(b, (uint32_t[]){ 0, 1, 0, 0, 0 });
	/* Pair 2-3 back: 0-3 merges; 4-7 in use. */
	assert_int_equal(mlx5dm_buddy_free(b, s1, 1), 0);
	assert_free_blocks(b, (uint32_t[]){ 0, 0, 1, 0, 0 });
	/* Units 8-15 back: no merge with 0-7 (4-7 in use). */
	assert_int_equal(mlx5dm_buddy_free(b, s4, 3), 0);
	assert_free_blocks(b, (uint32_t[]){ 0, 0, 1, 1, 0 });
	/* 4-7 back: 0-7, then 0-15. */
	assert_int_equal(mlx5dm_buddy_free(b, s3, 2), 0);
	assert_free_blocks(b, (uint32_t[]){ 0, 0, 0, 0, 1 });
	assert_int_equal(mlx5dm_buddy_free_units(b), 16);
	mlx5dm_buddy_destroy(b);
}

static void
test_buddy_bad_arguments(void **state)
{
	struct mlx5dm_buddy *b;
	uint32_t s, t;

	(void)state;
	assert_null(mlx5dm_buddy_create(MLX5DM_BUDDY_MAX_ORDER + 1, MLX5DM_SOCKET_ANY));
	assert_int_equal(errno, EINVAL);
	mlx5dm_alloc_fail_at(1);
	assert_null(mlx5dm_buddy_create(3, MLX5DM_SOCKET_ANY));
	assert_int_equal(errno, ENOMEM);
	mlx5dm_alloc_fail_at(0);

	b = mlx5dm_buddy_create(3, MLX5DM_SOCKET_ANY);
	assert_non_null(b);
	assert_int_equal(mlx5dm_buddy_alloc(b, 4, &s), -EINVAL);
	assert_int_equal(mlx5dm_buddy_alloc(b, 1, &s), 0);
	assert_int_equal(mlx5dm_buddy_alloc(b, 1, &t), 0);
	assert_int_equal(t, 2);
	assert_int_equal(mlx5dm_buddy_free(b, 1, 1), -EINVAL);  /* misaligned */
	assert_int_equal(mlx5dm_buddy_free(b, 8, 0), -EINVAL);  /* out of range */
	assert_int_equal(mlx5dm_buddy_free(b, 0, 4), -EINVAL);  /* order too big */
	assert_int_equal(mlx5dm_buddy_free(b, 4, 2), -EINVAL);  /* units 4-7 are free */
	assert_int_equal(mlx5dm_buddy_free(b, 6, 0), -EINVAL);  /* inside free 4-7 */
	assert_int_equal(mlx5dm_buddy_free(b, s, 1), 0);
	assert_int_equal(mlx5dm_buddy_free(b, s, 1), -EINVAL);  /* double free */
	assert_int_equal(mlx5dm_buddy_free(b, t, 1), 0);
	assert_int_equal(mlx5dm_buddy_free(b, t, 1), -EINVAL);  /* merged into 0-7 */
	assert_int_equal(mlx5dm_buddy_free_blocks(b, 3), 1);
	assert_int_equal(mlx5dm_buddy_free_blocks(b, 9), 0);
	assert_int_equal(mlx5dm_buddy_check(b), 0);
	mlx5dm_buddy_destroy(b);
}

/* ---- randomized test against a shadow of unit owners ---- */

struct live_block {
	uint32_t seg;
	unsigned int order;
};

struct shadow {
	unsigned int max_order;
	uint32_t *owner;          /* 0 = free, else 1 + index into live */
	struct live_block *live;
	uint32_t nlive;
	uint64_t used_units;
};

static bool
shadow_range_free(const struct shadow *sh, uint32_t seg, unsigned int order)
{
	uint32_t u;

	for (u = seg; u < seg + (1u << order); u++)
		if (sh->owner[u] != 0)
			return false;
	return true;
}

/*
 * Where the buddy must place an order-k block, derived from the shadow
 * alone: with full merging the free blocks are the maximal free aligned
 * ranges; the allocator splits the lowest free block of the smallest
 * order >= k and keeps its low end. UINT32_MAX = must fail.
 */
static uint32_t
shadow_expected_seg(const struct shadow *sh, unsigned int k)
{
	unsigned int o;
	uint32_t i;

	for (o = k; o <= sh->max_order; o++) {
		for (i = 0; i < (1u << (sh->max_order - o)); i++) {
			bool parent_free = o < sh->max_order &&
				shadow_range_free(sh, (i >> 1) << (o + 1), o + 1);

			if (!parent_free && shadow_range_free(sh, i << o, o))
				return i << o;
		}
	}
	return UINT32_MAX;
}

/* Is any aligned range of 2^k units entirely free? (Then allocation must succeed.) */
static bool
shadow_has_free_range(const struct shadow *sh, unsigned int k)
{
	uint32_t seg;

	for (seg = 0; seg < (1u << sh->max_order); seg += 1u << k)
		if (shadow_range_free(sh, seg, k))
			return true;
	return false;
}

static void
shadow_take(struct shadow *sh, uint32_t seg, unsigned int order)
{
	uint32_t u;

	assert_int_equal(seg & ((1u << order) - 1), 0);
	assert_true(seg + (1u << order) <= (1u << sh->max_order));
	sh->live[sh->nlive].seg = seg;
	sh->live[sh->nlive].order = order;
	sh->nlive++;
	for (u = seg; u < seg + (1u << order); u++) {
		assert_int_equal(sh->owner[u], 0); /* no overlap with a live block */
		sh->owner[u] = sh->nlive;
	}
	sh->used_units += 1u << order;
}

static void
shadow_give(struct shadow *sh, uint32_t idx)
{
	struct live_block blk = sh->live[idx];
	uint32_t u;

	for (u = blk.seg; u < blk.seg + (1u << blk.order); u++)
		sh->owner[u] = 0;
	sh->used_units -= 1u << blk.order;
	/* Move the last live block into the hole and renumber its units. */
	sh->nlive--;
	if (idx != sh->nlive) {
		sh->live[idx] = sh->live[sh->nlive];
		for (u = sh->live[idx].seg; u < sh->live[idx].seg + (1u << sh->live[idx].order);
		     u++)
			sh->owner[u] = idx + 1;
	}
}

static void
assert_consistent(const struct mlx5dm_buddy *b, const struct shadow *sh)
{
	uint64_t units = 0;
	unsigned int o;

	assert_int_equal(mlx5dm_buddy_check(b), 0);
	for (o = 0; o <= sh->max_order; o++)
		units += (uint64_t)mlx5dm_buddy_free_blocks(b, o) << o;
	assert_true(units == mlx5dm_buddy_free_units(b));
	assert_true(units == (1ull << sh->max_order) - sh->used_units);
}

/* One random allocation; with exact, the placement must match the shadow's. */
static void
step_alloc(struct mlx5dm_buddy *b, struct shadow *sh, bool exact)
{
	unsigned int big = MLX5DM_MIN(sh->max_order, 6u);
	unsigned int order = rand() % 8 == 0 ? (unsigned int)rand() % (sh->max_order + 1)
					     : (unsigned int)rand() % (big + 1);
	uint32_t seg, want = exact ? shadow_expected_seg(sh, order) : 0;
	int ret = mlx5dm_buddy_alloc(b, order, &seg);

	if (ret == 0) {
		if (exact)
			assert_int_equal(seg, want);
		shadow_take(sh, seg, order);
		return;
	}
	assert_int_equal(ret, -ENOMEM);
	/* Failing is right only if no free aligned range of that size exists. */
	assert_false(shadow_has_free_range(sh, order));
}

static void
step_free(struct mlx5dm_buddy *b, struct shadow *sh)
{
	uint32_t idx = (uint32_t)rand() % sh->nlive;
	struct live_block blk = sh->live[idx];

	assert_int_equal(mlx5dm_buddy_free(b, blk.seg, blk.order), 0);
	shadow_give(sh, idx);
	if (rand() % 16 == 0) /* the same block again must be refused */
		assert_int_equal(mlx5dm_buddy_free(b, blk.seg, blk.order), -EINVAL);
}

static void
run_random(unsigned int max_order, unsigned int steps, bool exact, unsigned int seed)
{
	struct shadow sh = { .max_order = max_order };
	struct mlx5dm_buddy *b = mlx5dm_buddy_create(max_order, MLX5DM_SOCKET_ANY);
	unsigned int step;

	assert_non_null(b);
	sh.owner = calloc(1u << max_order, sizeof(*sh.owner));
	sh.live = calloc(1u << max_order, sizeof(*sh.live));
	assert_non_null(sh.owner);
	assert_non_null(sh.live);
	srand(seed);
	for (step = 0; step < steps; step++) {
		/* Alternate filling and draining phases to visit full and empty states. */
		bool filling = (step / 1000) % 2 == 0;

		if (sh.nlive == 0 || rand() % 100 < (filling ? 75 : 30))
			step_alloc(b, &sh, exact);
		else
			step_free(b, &sh);
		assert_consistent(b, &sh);
	}
	while (sh.nlive != 0) {
		assert_int_equal(mlx5dm_buddy_free(b, sh.live[0].seg, sh.live[0].order), 0);
		shadow_give(&sh, 0);
		assert_consistent(b, &sh);
	}
	/* Everything merged back into the one max-order block. */
	assert_int_equal(mlx5dm_buddy_free_blocks(b, max_order), 1);
	assert_int_equal(mlx5dm_buddy_largest_free(b), (int)max_order);
	assert_true(mlx5dm_buddy_free_units(b) == 1ull << max_order);
	free(sh.owner);
	free(sh.live);
	mlx5dm_buddy_destroy(b);
}

/* Small buddy: every placement compared with the shadow's prediction. */
static void
test_buddy_random_exact(void **state)
{
	(void)state;
	run_random(9, 12000, true, 1);
	run_random(0, 50, true, 2);
	run_random(1, 200, true, 3);
}

/* Larger buddy (multi-word summaries): invariants and ENOMEM justification. */
static void
test_buddy_random_large(void **state)
{
	(void)state;
	run_random(14, 20000, false, 4);
}

/* 2^18 single units: lowest-first order across many summary words, then full merge. */
static void
test_buddy_fill_and_drain(void **state)
{
	const unsigned int max_order = 18;
	const uint32_t n = 1u << max_order;
	struct mlx5dm_buddy *b = mlx5dm_buddy_create(max_order, MLX5DM_SOCKET_ANY);
	uint32_t *perm = malloc(n * sizeof(*perm));
	uint32_t i, seg;

	(void)state;
	assert_non_null(b);
	assert_non_null(perm);
	for (i = 0; i < n; i++) {
		assert_int_equal(mlx5dm_buddy_alloc(b, 0, &seg), 0);
		assert_int_equal(seg, i);
		perm[i] = i;
	}
	assert_int_equal(mlx5dm_buddy_alloc(b, 0, &seg), -ENOMEM);
	assert_int_equal(mlx5dm_buddy_check(b), 0);
	srand(5);
	for (i = n - 1; i > 0; i--) {
		uint32_t j = (uint32_t)(((uint64_t)rand() * (i + 1)) / ((uint64_t)RAND_MAX + 1));
		uint32_t t = perm[i];

		perm[i] = perm[j];
		perm[j] = t;
	}
	for (i = 0; i < n; i++) {
		assert_int_equal(mlx5dm_buddy_free(b, perm[i], 0), 0);
		if (i == n / 2)
			assert_int_equal(mlx5dm_buddy_check(b), 0);
	}
	assert_int_equal(mlx5dm_buddy_check(b), 0);
	assert_int_equal(mlx5dm_buddy_free_blocks(b, max_order), 1);
	/* Whole again: one block of max order, then orders 17..0 split lowest-first. */
	assert_int_equal(mlx5dm_buddy_alloc(b, max_order, &seg), 0);
	assert_int_equal(seg, 0);
	assert_int_equal(mlx5dm_buddy_free(b, 0, max_order), 0);
	free(perm);
	mlx5dm_buddy_destroy(b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buddy_hand_derived),
		cmocka_unit_test(test_buddy_bad_arguments),
		cmocka_unit_test(test_buddy_random_exact),
		cmocka_unit_test(test_buddy_random_large),
		cmocka_unit_test(test_buddy_fill_and_drain),
	};

	return cmocka_run_group_tests_name("buddy", tests, NULL, NULL);
}
