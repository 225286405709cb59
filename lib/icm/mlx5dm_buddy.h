/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Buddy allocator over the entries of one device-memory allocation.
 *
 * One instance manages 2^max_order units (one unit = one ICM entry: 64 B
 * for STE/encap, 8 B for modify-header/pattern). Blocks are 2^order units,
 * naturally aligned. Every order has a bitmap of its free blocks plus a
 * summary bitmap with one bit per non-empty bitmap word, and a free counter:
 * allocation tests the counters to find the order to split from, then two
 * find-first-set steps locate a free block, so its cost does not grow with
 * fragmentation the way list walking would.
 *
 * Not thread safe: the ICM pool serialises calls under its lock.
 */

#ifndef _MLX5DM_BUDDY_H_
#define _MLX5DM_BUDDY_H_

#include <stdint.h>

/* Segments are uint32_t unit offsets; 2^30 units of 64 B is already 64 GiB. */
#define MLX5DM_BUDDY_MAX_ORDER 30

struct mlx5dm_buddy;

/*
 * All units free (one block of max_order), its bitmaps on socket
 * (MLX5DM_SOCKET_ANY: no preference). NULL + errno (EINVAL, ENOMEM).
 */
struct mlx5dm_buddy *mlx5dm_buddy_create(unsigned int max_order, int socket);
void mlx5dm_buddy_destroy(struct mlx5dm_buddy *buddy);

/*
 * Take a block of 2^order units. On success *seg is its first unit (a
 * multiple of 2^order). -ENOMEM when no block of that order or larger is
 * free, -EINVAL when order > max_order.
 */
int mlx5dm_buddy_alloc(struct mlx5dm_buddy *buddy, unsigned int order, uint32_t *seg);

/*
 * Give back the block (seg, order) from mlx5dm_buddy_alloc(), merging it
 * with its free buddies. -EINVAL (and nothing changes) for a misaligned or
 * out-of-range block or one that is already free (the block itself or a
 * block containing it).
 */
int mlx5dm_buddy_free(struct mlx5dm_buddy *buddy, uint32_t seg, unsigned int order);

unsigned int mlx5dm_buddy_max_order(const struct mlx5dm_buddy *buddy);
/* Free blocks of exactly this order (0 for order > max_order). */
uint32_t mlx5dm_buddy_free_blocks(const struct mlx5dm_buddy *buddy, unsigned int order);
/* Free units in total. */
uint64_t mlx5dm_buddy_free_units(const struct mlx5dm_buddy *buddy);
/* Order of the largest free block, -1 when everything is allocated. */
int mlx5dm_buddy_largest_free(const struct mlx5dm_buddy *buddy);

/*
 * Full consistency check (tests, debugging; cost linear in the bitmaps):
 * counters equal bitmap populations, summaries match their words, no free
 * block overlaps another, no two free buddies are left unmerged, the total
 * matches. 0 or -EFAULT with a log line naming the broken invariant.
 */
int mlx5dm_buddy_check(const struct mlx5dm_buddy *buddy);

#endif /* _MLX5DM_BUDDY_H_ */
