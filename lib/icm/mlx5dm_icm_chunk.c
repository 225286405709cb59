/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/* Chunk allocation (with pool growth) and release to the hot list. */

#include <errno.h>
#include <inttypes.h>
#include <sched.h>

#include "mlx5dm_icm_priv.h"

/* First fit, newest DM first (it is the one most likely to have room). */
static struct mlx5dm_icm_dm *
mlx5dm_icm_pool_find(struct mlx5dm_icm_pool *pool, unsigned int order, uint32_t *seg)
{
	struct mlx5dm_icm_dm *dm;

	TAILQ_FOREACH(dm, &pool->dms, next)
		if (mlx5dm_buddy_alloc(dm->buddy, order, seg) == 0)
			return dm;
	return NULL;
}

/*
 * Nothing fits: add a DM. Called and returns with the lock held, but drops
 * it while talking to the device. Only one thread grows at a time; the
 * others wait and search again, so a burst of allocations on a full pool
 * brings one new DM, not one per thread.
 */
static struct mlx5dm_icm_dm *
mlx5dm_icm_pool_grow(struct mlx5dm_icm_pool *pool, unsigned int order, uint32_t *seg)
{
	struct mlx5dm_icm_dm *dm;
	unsigned int max_order;

	while (pool->growing) {
		mlx5dm_spinlock_unlock(&pool->lock);
		sched_yield();
		mlx5dm_spinlock_lock(&pool->lock);
		dm = mlx5dm_icm_pool_find(pool, order, seg);
		if (dm != NULL)
			return dm;
	}
	pool->growing = true;
	max_order = pool->max_order;
	mlx5dm_spinlock_unlock(&pool->lock);
	dm = mlx5dm_icm_dm_create(pool, max_order);
	mlx5dm_spinlock_lock(&pool->lock);
	pool->growing = false;
	if (dm == NULL)
		return NULL;
	TAILQ_INSERT_HEAD(&pool->dms, dm, next);
	/* order <= pool max order <= max_order: a fresh buddy always has room. */
	if (mlx5dm_buddy_alloc(dm->buddy, order, seg) != 0) {
		errno = ENOMEM;
		return NULL;
	}
	return dm;
}

struct mlx5dm_icm_chunk *
mlx5dm_icm_chunk_alloc(struct mlx5dm_icm_pool *pool, unsigned int order)
{
	unsigned int log_entry = pool->info->log_entry;
	struct mlx5dm_icm_chunk_priv *c;
	struct mlx5dm_icm_dm *dm;
	uint64_t offset;
	uint32_t seg;

	if (order > mlx5dm_icm_pool_max_order(pool)) {
		errno = EINVAL;
		return NULL;
	}
	/* Host memory first, outside the lock. */
	c = mlx5dm_malloc_socket(sizeof(*c), pool->dev->socket);
	if (c == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	mlx5dm_spinlock_lock(&pool->lock);
	dm = mlx5dm_icm_pool_find(pool, order, &seg);
	if (dm == NULL)
		dm = mlx5dm_icm_pool_grow(pool, order, &seg);
	if (MLX5DM_UNLIKELY(dm == NULL)) {
		int err = errno;

		mlx5dm_spinlock_unlock(&pool->lock);
		mlx5dm_free(c);
		errno = err;
		return NULL;
	}
	offset = (uint64_t)seg << log_entry;
	c->dm = dm;
	c->seg = seg;
	c->pub.icm_addr = dm->icm_start + offset;
	c->pub.mr_addr = (uint64_t)(uintptr_t)dm->mr->addr + offset;
	c->pub.byte_size = 1ull << (order + log_entry);
	c->pub.rkey = dm->mr->rkey;
	c->pub.num_entries = 1u << order;
	c->pub.order = (uint8_t)order;
	c->pub.log_entry_size = (uint8_t)log_entry;
	TAILQ_INSERT_TAIL(&dm->used, c, next);
	dm->busy += c->pub.byte_size;
	pool->used_bytes += c->pub.byte_size;
	pool->live_chunks++;
	mlx5dm_spinlock_unlock(&pool->lock);
	return &c->pub;
}

int
mlx5dm_icm_chunk_free(struct mlx5dm_icm_chunk *chunk)
{
	struct mlx5dm_icm_chunk_priv *c;
	struct mlx5dm_icm_pool *pool;
	struct mlx5dm_icm_snap snap;
	bool synced = false;
	struct mlx5dm_icm_dm *dm;
	int ret = 0;

	if (chunk == NULL)
		return 0;
	c = mlx5dm_icm_chunk_priv(chunk);
	dm = c->dm;
	pool = dm->pool;
	mlx5dm_spinlock_lock(&pool->lock);
	TAILQ_REMOVE(&dm->used, c, next);
	TAILQ_INSERT_TAIL(&dm->hot, c, next);
	pool->used_bytes -= chunk->byte_size;
	pool->hot_bytes += chunk->byte_size;
	pool->live_chunks--;
	/* While a sync runs (maybe our caller's), freed memory just waits. */
	if (pool->hot_bytes >= pool->threshold && !pool->syncing) {
		ret = mlx5dm_icm_sync_run(pool, &snap);
		synced = true;
	}
	mlx5dm_spinlock_unlock(&pool->lock);
	if (synced)
		mlx5dm_icm_sync_release(&snap);
	return ret;
}

int
mlx5dm_icm_chunk_line_index(const struct mlx5dm_icm_chunk *chunk, uint32_t *index)
{
	const struct mlx5dm_icm_chunk_priv *c = (const struct mlx5dm_icm_chunk_priv *)chunk;
	const struct mlx5dm_icm_pool *pool = c->dm->pool;
	uint64_t delta;

	if (pool->type == MLX5DM_ICM_STE)
		return -EINVAL;
	if (chunk->icm_addr < pool->index_base)
		return -ERANGE;
	delta = chunk->icm_addr - pool->index_base;
	if ((delta & ((1ull << MLX5DM_ICM_LINE_LOG) - 1)) != 0 ||
	    (delta >> MLX5DM_ICM_LINE_LOG) > UINT32_MAX)
		return -ERANGE;
	*index = (uint32_t)(delta >> MLX5DM_ICM_LINE_LOG);
	return 0;
}
