/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/* Pool creation and sizing, policy knobs, statistics, destruction. */

#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <string.h>

#include "mlx5dm_icm_priv.h"

const struct mlx5dm_icm_type_info mlx5dm_icm_types[MLX5DM_ICM_TYPE_NUM] = {
	[MLX5DM_ICM_STE] = {
		.name = "ste",
		.dm_type = MLX5DV_DM_TYPE_STEERING_SW_ICM,
		.log_entry = 6,
		.min_order = 20,
		.order_cap = 20,
		.eighth_of_device = true,
		.align_whole = true,
		.sync_percent = 50,
	},
	[MLX5DM_ICM_MODIFY] = {
		.name = "modify",
		.dm_type = MLX5DV_DM_TYPE_HEADER_MODIFY_SW_ICM,
		.log_entry = 3,
		.min_order = 12,
		.order_cap = 20,
		.eighth_of_device = true,
		/* Higher than the others: fewer syncs at high insertion rates. */
		.sync_percent = 90,
	},
	[MLX5DM_ICM_PATTERN] = {
		.name = "pattern",
		.dm_type = MLX5DV_DM_TYPE_HEADER_MODIFY_PATTERN_SW_ICM,
		.log_entry = 3,
		.min_order = 12,
		.order_cap = 12,
		.sync_percent = 50,
	},
	[MLX5DM_ICM_ENCAP] = {
		.name = "encap",
		.dm_type = MLX5DV_DM_TYPE_ENCAP_SW_ICM,
		.log_entry = 6,
		.min_order = 12,
		.order_cap = 12,
		.sync_percent = 50,
	},
};

uint64_t
mlx5dm_icm_threshold(const struct mlx5dm_icm_type_info *info, unsigned int max_order)
{
	return ((1ull << (max_order + info->log_entry)) * info->sync_percent) / 100;
}

unsigned int
mlx5dm_icm_min_log_size(enum mlx5dm_icm_type type)
{
	const struct mlx5dm_icm_type_info *info = &mlx5dm_icm_types[type];

	return info->min_order + info->log_entry;
}

/* Max order from the device size, or -errno with a log line. */
static int
mlx5dm_icm_pool_order(const struct mlx5dm_icm_type_info *info, uint8_t log_icm_size)
{
	unsigned int min_log = info->min_order + info->log_entry;
	unsigned int order = info->order_cap;

	if (log_icm_size == 0) {
		MLX5DM_LOG(ERR, MLX5DM_ICM_LOG, "%s pool: device has no ICM of this type",
			   info->name);
		return -ENOTSUP;
	}
	if (log_icm_size < min_log) {
		MLX5DM_LOG(ERR, MLX5DM_ICM_LOG,
			   "%s pool: device ICM 2^%u bytes is below the minimum 2^%u",
			   info->name, log_icm_size, min_log);
		return -ENOMEM;
	}
	if (info->eighth_of_device)
		order = MLX5DM_MIN(order, (unsigned int)log_icm_size - 3 - info->log_entry);
	return (int)order;
}

struct mlx5dm_icm_pool *
mlx5dm_icm_pool_create(const struct mlx5dm_icm_pool_attr *attr)
{
	const struct mlx5dm_icm_type_info *info;
	struct mlx5dm_icm_pool *pool;
	int order;

	if (attr == NULL || (unsigned int)attr->type >= MLX5DM_ICM_TYPE_NUM ||
	    attr->dev == NULL || attr->dev->ops == NULL || attr->sync == NULL) {
		MLX5DM_LOG(ERR, MLX5DM_ICM_LOG, "pool create: missing type, device or sync");
		errno = EINVAL;
		return NULL;
	}
	info = &mlx5dm_icm_types[attr->type];
	order = mlx5dm_icm_pool_order(info, attr->log_icm_size);
	if (order < 0) {
		errno = -order;
		return NULL;
	}
	pool = mlx5dm_zmalloc_socket(sizeof(*pool), attr->dev->socket);
	if (pool == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	mlx5dm_spinlock_init(&pool->lock);
	pool->type = attr->type;
	pool->info = info;
	pool->dev = attr->dev;
	pool->pd = attr->pd;
	pool->log_icm_size = attr->log_icm_size;
	pool->index_base = attr->index_base;
	pool->sync = attr->sync;
	pool->sync_arg = attr->sync_arg;
	pool->reclaim = attr->reclaim;
	pool->max_order = (unsigned int)order;
	pool->threshold = mlx5dm_icm_threshold(info, pool->max_order);
	TAILQ_INIT(&pool->dms);
	MLX5DM_LOG(DEBUG, MLX5DM_ICM_LOG, "%s pool: max order %d, sync at %" PRIu64 " hot bytes",
		   info->name, order, pool->threshold);
	return pool;
}

void
mlx5dm_icm_pool_destroy(struct mlx5dm_icm_pool *pool)
{
	struct mlx5dm_icm_dm *dm;

	if (pool == NULL)
		return;
	if (pool->live_chunks != 0)
		MLX5DM_LOG(DEBUG, MLX5DM_ICM_LOG, "%s pool: destroyed with %" PRIu64
			   " live chunks", pool->info->name, pool->live_chunks);
	while ((dm = TAILQ_FIRST(&pool->dms)) != NULL) {
		TAILQ_REMOVE(&pool->dms, dm, next);
		mlx5dm_icm_dm_destroy(dm);
	}
	mlx5dm_spinlock_destroy(&pool->lock);
	mlx5dm_free(pool);
}

enum mlx5dm_icm_type
mlx5dm_icm_pool_type(const struct mlx5dm_icm_pool *pool)
{
	return pool->type;
}

unsigned int
mlx5dm_icm_pool_max_order(const struct mlx5dm_icm_pool *pool)
{
	return pool->max_order;
}

void
mlx5dm_icm_pool_set_reclaim(struct mlx5dm_icm_pool *pool, bool reclaim)
{
	mlx5dm_spinlock_lock(&pool->lock);
	pool->reclaim = reclaim;
	mlx5dm_spinlock_unlock(&pool->lock);
}

uint64_t
mlx5dm_icm_pool_syncs(const struct mlx5dm_icm_pool *pool)
{
	return __atomic_load_n(&pool->syncs, __ATOMIC_ACQUIRE);
}

void
mlx5dm_icm_pool_stats(struct mlx5dm_icm_pool *pool, struct mlx5dm_icm_stats *st)
{
	struct mlx5dm_icm_dm *dm;

	memset(st, 0, sizeof(*st));
	mlx5dm_spinlock_lock(&pool->lock);
	TAILQ_FOREACH(dm, &pool->dms, next) {
		int largest = mlx5dm_buddy_largest_free(dm->buddy);

		st->dm_count++;
		st->dm_bytes += dm->dm_length;
		st->total_bytes += dm->size;
		if (largest >= 0)
			st->largest_free = MLX5DM_MAX(st->largest_free,
				1ull << ((unsigned int)largest + pool->info->log_entry));
	}
	st->used_bytes = pool->used_bytes;
	st->hot_bytes = pool->hot_bytes;
	st->free_bytes = st->total_bytes - st->used_bytes - st->hot_bytes;
	st->live_chunks = pool->live_chunks;
	st->syncs = __atomic_load_n(&pool->syncs, __ATOMIC_RELAXED);
	st->sync_errors = pool->sync_errors;
	st->threshold = pool->threshold;
	st->max_order = pool->max_order;
	mlx5dm_spinlock_unlock(&pool->lock);
}
