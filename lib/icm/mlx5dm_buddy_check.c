/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Consistency check of a buddy. It needs the private layout, so it lives
 * next to the allocator, but in its own file: it is not on any fast path.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>

#include "mlx5dm_osdep.h"
#include "mlx5dm_buddy.h"
#include "mlx5dm_buddy_priv.h"

static int
mlx5dm_buddy_fail(unsigned int order, uint32_t i, const char *what)
{
	MLX5DM_LOG(ERR, "icm", "buddy check: order %u index %" PRIu32 ": %s", order, i, what);
	return -EFAULT;
}

/* Bitmap words against the summary, the counter and the unused tail bits. */
static int
mlx5dm_buddy_check_words(const struct mlx5dm_buddy_level *l, unsigned int o)
{
	uint32_t w, pop = 0;

	for (w = 0; w < l->nwords; w++) {
		bool sum = (l->summary[w / 64] >> (w % 64)) & 1;

		if (sum != (l->bits[w] != 0))
			return mlx5dm_buddy_fail(o, w, "summary bit disagrees with its word");
		if (sum && w / 64 < l->hint)
			return mlx5dm_buddy_fail(o, w, "non-empty word below the search hint");
		pop += (uint32_t)__builtin_popcountll(l->bits[w]);
	}
	if (l->nbits % 64 != 0 && (l->bits[l->nwords - 1] >> (l->nbits % 64)) != 0)
		return mlx5dm_buddy_fail(o, l->nbits, "bit set past the end");
	if (l->nwords % 64 != 0 && (l->summary[l->nsum - 1] >> (l->nwords % 64)) != 0)
		return mlx5dm_buddy_fail(o, l->nwords, "summary bit set past the end");
	if (pop != l->nfree)
		return mlx5dm_buddy_fail(o, pop, "free counter differs from bitmap population");
	return 0;
}

/* A free block (o, i) must neither have a free buddy nor lie in a free block. */
static int
mlx5dm_buddy_check_block(const struct mlx5dm_buddy *b, unsigned int o, uint32_t i)
{
	unsigned int up;

	if (o < b->max_order && mlx5dm_buddy_test(&b->level[o], i ^ 1))
		return mlx5dm_buddy_fail(o, i, "free buddies left unmerged");
	for (up = o + 1; up <= b->max_order; up++)
		if (mlx5dm_buddy_test(&b->level[up], i >> (up - o)))
			return mlx5dm_buddy_fail(o, i, "free block inside a free block");
	return 0;
}

int
mlx5dm_buddy_check(const struct mlx5dm_buddy *b)
{
	uint64_t units = 0;
	unsigned int o;
	uint32_t w;
	int ret;

	for (o = 0; o <= b->max_order; o++) {
		const struct mlx5dm_buddy_level *l = &b->level[o];

		ret = mlx5dm_buddy_check_words(l, o);
		if (ret != 0)
			return ret;
		units += (uint64_t)l->nfree << o;
		/* Visit only the free blocks: cost follows fragmentation, not size. */
		for (w = 0; w < l->nwords; w++) {
			uint64_t bits = l->bits[w];

			while (bits != 0) {
				uint32_t i = w * 64 + (uint32_t)__builtin_ctzll(bits);

				bits &= bits - 1;
				ret = mlx5dm_buddy_check_block(b, o, i);
				if (ret != 0)
					return ret;
			}
		}
	}
	if (units != b->free_units)
		return mlx5dm_buddy_fail(b->max_order, 0, "free unit total differs from bitmaps");
	return 0;
}
