/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/* Buddy layout, shared by the allocator and its consistency check only. */

#ifndef _MLX5DM_BUDDY_PRIV_H_
#define _MLX5DM_BUDDY_PRIV_H_

#include <stdbool.h>
#include <stdint.h>

/* The free blocks of one order: bit i set = block i (units i<<order ...) free. */
struct mlx5dm_buddy_level {
	uint64_t *bits;    /* one bit per block of this order */
	uint64_t *summary; /* bit w set <=> bits[w] != 0 */
	uint32_t nbits;    /* 2^(max_order - order) */
	uint32_t nwords;   /* words of bits */
	uint32_t nsum;     /* words of summary */
	uint32_t nfree;    /* population of bits */
	/*
	 * Every summary word below hint is zero. Allocation always takes the
	 * lowest free block, so blocks cluster low and the scan for the first
	 * non-empty summary word starts where the last one ended.
	 */
	uint32_t hint;
};

struct mlx5dm_buddy {
	unsigned int max_order;
	uint64_t free_units;
	struct mlx5dm_buddy_level level[]; /* [0 .. max_order] */
};

static inline bool
mlx5dm_buddy_test(const struct mlx5dm_buddy_level *l, uint32_t i)
{
	return (l->bits[i / 64] >> (i % 64)) & 1;
}

#endif /* _MLX5DM_BUDDY_PRIV_H_ */
