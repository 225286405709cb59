/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#ifndef _TEST_DM_ARENA_H_
#define _TEST_DM_ARENA_H_

/*
 * A parse result owns many small objects (item specs/masks, action
 * configurations, RSS queue arrays, encapsulation data). They all come from
 * one arena so the result is freed in one call whatever its shape.
 */

#include <stddef.h>

struct test_dm_arena_blk;

struct test_dm_arena {
	struct test_dm_arena_blk *head;
};

/** Zeroed, suitably aligned memory owned by @p a; NULL on ENOMEM. */
void *test_dm_arena_zalloc(struct test_dm_arena *a, size_t size);

/** Copy of @p size bytes at @p src owned by @p a; NULL on ENOMEM. */
void *test_dm_arena_memdup(struct test_dm_arena *a, const void *src, size_t size);

/** Free everything allocated from @p a (the arena itself can be reused). */
void test_dm_arena_free(struct test_dm_arena *a);

#endif /* _TEST_DM_ARENA_H_ */
