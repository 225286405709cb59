/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "test_dm_arena.h"

struct test_dm_arena_blk {
	struct test_dm_arena_blk *next;
	/* Keeps the payload aligned for any object type. */
	max_align_t data[];
};

void *
test_dm_arena_zalloc(struct test_dm_arena *a, size_t size)
{
	struct test_dm_arena_blk *b = calloc(1, sizeof(*b) + (size != 0 ? size : 1));

	if (b == NULL)
		return NULL;
	b->next = a->head;
	a->head = b;
	return b->data;
}

void *
test_dm_arena_memdup(struct test_dm_arena *a, const void *src, size_t size)
{
	void *p = test_dm_arena_zalloc(a, size);

	if (p != NULL && size != 0)
		memcpy(p, src, size);
	return p;
}

void
test_dm_arena_free(struct test_dm_arena *a)
{
	while (a->head != NULL) {
		struct test_dm_arena_blk *b = a->head;

		a->head = b->next;
		free(b);
	}
}
