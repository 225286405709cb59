/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Sync-before-reuse (rdma-core dr_icm_pool.c, hot memory). A sync snapshots the hot
 * chunks, runs the owner's callback (drain the send rings, SYNC_STEERING)
 * without the pool lock, then returns exactly the snapshot to the buddies:
 * a chunk freed while the callback runs may have been written by work the
 * drain did not cover, so it waits for the next sync.
 */

#include <errno.h>
#include <inttypes.h>
#include <sched.h>

#include "mlx5dm_icm_priv.h"

int
mlx5dm_icm_sync_wait(struct mlx5dm_icm_pool *pool)
{
	while (pool->syncing) {
		/* From inside the callback: waiting for ourselves would never end. */
		if (pthread_equal(pool->sync_thread, pthread_self()))
			return -EDEADLK;
		mlx5dm_spinlock_unlock(&pool->lock);
		sched_yield();
		mlx5dm_spinlock_lock(&pool->lock);
	}
	return 0;
}

void
mlx5dm_icm_sync_begin(struct mlx5dm_icm_pool *pool, struct mlx5dm_icm_snap *snap)
{
	struct mlx5dm_icm_dm *dm;

	TAILQ_INIT(&snap->chunks);
	TAILQ_INIT(&snap->reclaimed);
	TAILQ_FOREACH(dm, &pool->dms, next)
		TAILQ_CONCAT(&snap->chunks, &dm->hot, next);
	pool->syncing = true;
	pool->sync_thread = pthread_self();
}

/* The callback failed: the device may still use the memory, keep it hot. */
static void
mlx5dm_icm_sync_undo(struct mlx5dm_icm_pool *pool, struct mlx5dm_icm_snap *snap, int err)
{
	struct mlx5dm_icm_chunk_priv *c;

	while ((c = TAILQ_FIRST(&snap->chunks)) != NULL) {
		TAILQ_REMOVE(&snap->chunks, c, next);
		TAILQ_INSERT_TAIL(&c->dm->hot, c, next);
	}
	pool->sync_errors++;
	MLX5DM_LOG(ERR, MLX5DM_ICM_LOG, "%s pool: sync failed (%d), %" PRIu64
		   " hot bytes kept", pool->info->name, err, pool->hot_bytes);
}

void
mlx5dm_icm_sync_end(struct mlx5dm_icm_pool *pool, struct mlx5dm_icm_snap *snap, int err)
{
	struct mlx5dm_icm_chunk_priv *c;
	struct mlx5dm_icm_dm *dm, *tmp;

	pool->syncing = false;
	if (err != 0) {
		mlx5dm_icm_sync_undo(pool, snap, err);
		return;
	}
	TAILQ_FOREACH(c, &snap->chunks, next) {
		if (mlx5dm_buddy_free(c->dm->buddy, c->seg, c->pub.order) != 0)
			MLX5DM_LOG(ERR, MLX5DM_ICM_LOG, "%s pool: chunk at ICM 0x%" PRIx64
				   " was not allocated", pool->info->name, c->pub.icm_addr);
		c->dm->busy -= c->pub.byte_size;
		pool->hot_bytes -= c->pub.byte_size;
	}
	/* Atomic: mlx5dm_icm_pool_syncs() reads it without the lock. */
	__atomic_fetch_add(&pool->syncs, 1, __ATOMIC_RELEASE);
	if (!pool->reclaim)
		return;
	for (dm = TAILQ_FIRST(&pool->dms); dm != NULL; dm = tmp) {
		tmp = TAILQ_NEXT(dm, next);
		if (dm->busy != 0)
			continue;
		TAILQ_REMOVE(&pool->dms, dm, next);
		TAILQ_INSERT_TAIL(&snap->reclaimed, dm, next);
	}
}

void
mlx5dm_icm_sync_release(struct mlx5dm_icm_snap *snap)
{
	struct mlx5dm_icm_chunk_priv *c;
	struct mlx5dm_icm_dm *dm;

	while ((c = TAILQ_FIRST(&snap->chunks)) != NULL) {
		TAILQ_REMOVE(&snap->chunks, c, next);
		mlx5dm_free(c);
	}
	while ((dm = TAILQ_FIRST(&snap->reclaimed)) != NULL) {
		TAILQ_REMOVE(&snap->reclaimed, dm, next);
		mlx5dm_icm_dm_destroy(dm);
	}
}

int
mlx5dm_icm_sync_run(struct mlx5dm_icm_pool *pool, struct mlx5dm_icm_snap *snap)
{
	int ret;

	mlx5dm_icm_sync_begin(pool, snap);
	mlx5dm_spinlock_unlock(&pool->lock);
	ret = pool->sync(pool->sync_arg);
	mlx5dm_spinlock_lock(&pool->lock);
	mlx5dm_icm_sync_end(pool, snap, ret);
	return ret;
}

int
mlx5dm_icm_pool_sync(struct mlx5dm_icm_pool *pool)
{
	struct mlx5dm_icm_snap snap;
	int ret;

	mlx5dm_spinlock_lock(&pool->lock);
	ret = mlx5dm_icm_sync_wait(pool);
	if (ret == 0)
		ret = mlx5dm_icm_sync_run(pool, &snap);
	mlx5dm_spinlock_unlock(&pool->lock);
	if (ret == 0)
		mlx5dm_icm_sync_release(&snap);
	return ret;
}
