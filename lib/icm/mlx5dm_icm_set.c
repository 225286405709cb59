/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/* The pools of one steering domain, created from the device caps together. */

#include <errno.h>
#include <string.h>

#include "mlx5dm_icm_priv.h"

struct mlx5dm_icm_set {
	struct mlx5dm_icm_pool *pool[MLX5DM_ICM_TYPE_NUM];
	mlx5dm_icm_sync_fn sync;
	void *sync_arg;
};

/* Minimum pattern ICM checked on fmt >= 1 whether or not the pool is wanted (rdma-core). */
static int
mlx5dm_icm_set_check_pattern(const struct mlx5dm_icm_caps *caps)
{
	const struct mlx5dm_icm_type_info *info = &mlx5dm_icm_types[MLX5DM_ICM_PATTERN];

	if (caps->steering_format_version >= 1 &&
	    caps->log_header_modify_pattern_sw_icm_size < info->min_order + info->log_entry) {
		MLX5DM_LOG(ERR, MLX5DM_ICM_LOG, "pattern ICM 2^%u bytes is below the minimum 2^%u",
			   caps->log_header_modify_pattern_sw_icm_size,
			   info->min_order + info->log_entry);
		return -ENOMEM;
	}
	return 0;
}

struct mlx5dm_icm_set *
mlx5dm_icm_set_create(const struct mlx5dm_icm_set_attr *attr)
{
	const struct mlx5dm_icm_caps *caps;
	struct mlx5dm_icm_pool_attr pa;
	struct mlx5dm_icm_set *set;
	bool want[MLX5DM_ICM_TYPE_NUM];
	unsigned int t;
	int ret;

	if (attr == NULL || attr->caps == NULL || attr->dev == NULL) {
		errno = EINVAL;
		return NULL;
	}
	caps = attr->caps;
	ret = mlx5dm_icm_set_check_pattern(caps);
	if (ret != 0) {
		errno = -ret;
		return NULL;
	}
	set = mlx5dm_zmalloc_socket(sizeof(*set), attr->dev->socket);
	if (set == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	set->sync = attr->sync;
	set->sync_arg = attr->sync_arg;
	want[MLX5DM_ICM_STE] = true;
	want[MLX5DM_ICM_MODIFY] = true;
	want[MLX5DM_ICM_PATTERN] = attr->modify_pattern;
	want[MLX5DM_ICM_ENCAP] = caps->log_indirect_encap_sw_icm_size != 0;
	for (t = 0; t < MLX5DM_ICM_TYPE_NUM; t++) {
		if (!want[t])
			continue;
		memset(&pa, 0, sizeof(pa));
		pa.type = (enum mlx5dm_icm_type)t;
		pa.dev = attr->dev;
		pa.pd = attr->pd;
		pa.sync = attr->sync;
		pa.sync_arg = attr->sync_arg;
		pa.reclaim = attr->reclaim;
		switch (pa.type) {
		case MLX5DM_ICM_STE:
			pa.log_icm_size = caps->log_steering_sw_icm_size;
			break;
		case MLX5DM_ICM_MODIFY:
			pa.log_icm_size = caps->log_header_modify_sw_icm_size;
			pa.index_base = caps->header_modify_sw_icm_start_address;
			break;
		case MLX5DM_ICM_PATTERN:
			pa.log_icm_size = caps->log_header_modify_pattern_sw_icm_size;
			pa.index_base = caps->header_modify_pattern_sw_icm_start_address;
			break;
		default:
			pa.log_icm_size = caps->log_indirect_encap_sw_icm_size;
			pa.index_base = caps->indirect_encap_icm_base;
			break;
		}
		set->pool[t] = mlx5dm_icm_pool_create(&pa);
		if (set->pool[t] == NULL)
			goto destroy_pools;
	}
	return set;

destroy_pools:
	ret = errno;
	mlx5dm_icm_set_destroy(set);
	errno = ret;
	return NULL;
}

void
mlx5dm_icm_set_destroy(struct mlx5dm_icm_set *set)
{
	unsigned int t;

	if (set == NULL)
		return;
	for (t = 0; t < MLX5DM_ICM_TYPE_NUM; t++)
		mlx5dm_icm_pool_destroy(set->pool[t]);
	mlx5dm_free(set);
}

struct mlx5dm_icm_pool *
mlx5dm_icm_set_pool(const struct mlx5dm_icm_set *set, enum mlx5dm_icm_type type)
{
	return (unsigned int)type < MLX5DM_ICM_TYPE_NUM ? set->pool[type] : NULL;
}

/* End the syncs begun on pools [0, n) with the callback's result. */
static void
mlx5dm_icm_set_sync_end(struct mlx5dm_icm_set *set, struct mlx5dm_icm_snap *snap,
			unsigned int n, int err)
{
	unsigned int t;

	for (t = 0; t < n; t++) {
		struct mlx5dm_icm_pool *pool = set->pool[t];

		if (pool == NULL)
			continue;
		mlx5dm_spinlock_lock(&pool->lock);
		mlx5dm_icm_sync_end(pool, &snap[t], err);
		mlx5dm_spinlock_unlock(&pool->lock);
		mlx5dm_icm_sync_release(&snap[t]);
	}
}

int
mlx5dm_icm_set_sync(struct mlx5dm_icm_set *set)
{
	struct mlx5dm_icm_snap snap[MLX5DM_ICM_TYPE_NUM];
	unsigned int t;
	int ret = 0;

	/* Snapshot every pool, then one drain + SYNC_STEERING covers them all. */
	for (t = 0; t < MLX5DM_ICM_TYPE_NUM; t++) {
		struct mlx5dm_icm_pool *pool = set->pool[t];

		if (pool == NULL)
			continue;
		mlx5dm_spinlock_lock(&pool->lock);
		ret = mlx5dm_icm_sync_wait(pool);
		if (ret == 0)
			mlx5dm_icm_sync_begin(pool, &snap[t]);
		mlx5dm_spinlock_unlock(&pool->lock);
		if (ret != 0)
			break;
	}
	if (ret == 0)
		ret = set->sync(set->sync_arg);
	mlx5dm_icm_set_sync_end(set, snap, t, ret);
	return ret;
}

void
mlx5dm_icm_set_stats(struct mlx5dm_icm_set *set,
		     struct mlx5dm_icm_stats stats[MLX5DM_ICM_TYPE_NUM],
		     struct mlx5dm_icm_stats *total)
{
	unsigned int t;

	if (total != NULL)
		memset(total, 0, sizeof(*total));
	for (t = 0; t < MLX5DM_ICM_TYPE_NUM; t++) {
		struct mlx5dm_icm_stats *s = &stats[t];

		memset(s, 0, sizeof(*s));
		if (set->pool[t] != NULL)
			mlx5dm_icm_pool_stats(set->pool[t], s);
		if (total == NULL)
			continue;
		total->dm_count += s->dm_count;
		total->dm_bytes += s->dm_bytes;
		total->total_bytes += s->total_bytes;
		total->used_bytes += s->used_bytes;
		total->hot_bytes += s->hot_bytes;
		total->free_bytes += s->free_bytes;
		total->largest_free = MLX5DM_MAX(total->largest_free, s->largest_free);
		total->live_chunks += s->live_chunks;
		total->syncs += s->syncs;
		total->sync_errors += s->sync_errors;
		total->threshold += s->threshold;
		total->max_order = MLX5DM_MAX(total->max_order, s->max_order);
	}
}
