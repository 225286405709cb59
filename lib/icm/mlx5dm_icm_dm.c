/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * One DM of a pool: device memory of the pool's type through the device
 * boundary, its ICM address, the zero-based MR giving the rkey, the buddy.
 */

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "mlx5dm_icm_priv.h"

#define MLX5DM_ICM_MR_ACCESS (IBV_ACCESS_ZERO_BASED | IBV_ACCESS_REMOTE_WRITE | \
			      IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ)

static void
mlx5dm_icm_dm_put(struct mlx5dm_icm_pool *pool, struct ibv_dm *dm)
{
	int ret = pool->dev->ops->free_dm(dm);

	if (ret != 0)
		MLX5DM_LOG(ERR, MLX5DM_ICM_LOG, "%s pool: free_dm failed (%d)",
			   pool->info->name, ret);
}

/* Allocate length bytes of the pool's type and read its ICM address. NULL + errno. */
static struct ibv_dm *
mlx5dm_icm_dm_get(struct mlx5dm_icm_pool *pool, uint64_t length, uint64_t *icm)
{
	const struct mlx5dm_dev_ops *ops = pool->dev->ops;
	struct ibv_alloc_dm_attr attr = { .length = length };
	struct mlx5dv_alloc_dm_attr mattr = {
		.type = (enum mlx5dv_alloc_dm_type)pool->info->dm_type,
	};
	struct mlx5dv_dm out = { .comp_mask = MLX5DV_DM_MASK_REMOTE_VA };
	struct mlx5dv_obj obj;
	struct ibv_dm *dm;
	int ret;

	errno = 0;
	dm = ops->alloc_dm(pool->dev->ctx, &attr, &mattr);
	if (dm == NULL) {
		ret = errno != 0 ? errno : ENOMEM;
		/* Per rule once the device's ICM of this type is used up. */
		MLX5DM_LOG_LIMITED(ERR, MLX5DM_ICM_LOG, "%s pool: alloc_dm of %" PRIu64
				   " bytes failed (errno %d)", pool->info->name, length, ret);
		errno = ret;
		return NULL;
	}
	memset(&obj, 0, sizeof(obj));
	obj.dm.in = dm;
	obj.dm.out = &out;
	ret = ops->init_obj(&obj, MLX5DV_OBJ_DM);
	if (ret != 0 || !(out.comp_mask & MLX5DV_DM_MASK_REMOTE_VA)) {
		/* init_obj returns an errno value (rdma-core) or -errno (ours). */
		ret = ret < 0 ? -ret : ret != 0 ? ret : ENOTSUP;
		MLX5DM_LOG(ERR, MLX5DM_ICM_LOG, "%s pool: no ICM address for the DM (errno %d)",
			   pool->info->name, ret);
		mlx5dm_icm_dm_put(pool, dm);
		errno = ret;
		return NULL;
	}
	*icm = out.remote_va;
	return dm;
}

/*
 * rdma-core DR's recipe: ask for L bytes; if the ICM address is not aligned
 * as the type needs, free it and ask for 2L, which always contains an
 * aligned range of L bytes (alignment <= L), and start there.
 */
static int
mlx5dm_icm_dm_get_aligned(struct mlx5dm_icm_pool *pool, struct mlx5dm_icm_dm *dm)
{
	uint64_t align = pool->info->align_whole ? dm->size : 1ull << MLX5DM_ICM_LINE_LOG;
	uint64_t icm;

	dm->dm_length = dm->size;
	dm->dm = mlx5dm_icm_dm_get(pool, dm->dm_length, &icm);
	if (dm->dm == NULL)
		return -errno;
	if ((icm & (align - 1)) != 0) {
		MLX5DM_LOG(DEBUG, MLX5DM_ICM_LOG, "%s pool: ICM 0x%" PRIx64 " not aligned to %"
			   PRIu64 ", retrying with twice the size", pool->info->name, icm, align);
		mlx5dm_icm_dm_put(pool, dm->dm);
		dm->dm_length = 2 * dm->size;
		dm->dm = mlx5dm_icm_dm_get(pool, dm->dm_length, &icm);
		if (dm->dm == NULL)
			return -errno;
		if ((icm & (align - 1)) != 0)
			dm->offset_in_dm = align - (icm & (align - 1));
	}
	dm->icm_start = icm + dm->offset_in_dm;
	return 0;
}

struct mlx5dm_icm_dm *
mlx5dm_icm_dm_create(struct mlx5dm_icm_pool *pool, unsigned int max_order)
{
	const struct mlx5dm_dev_ops *ops = pool->dev->ops;
	struct mlx5dm_icm_dm *dm;
	int ret;

	dm = mlx5dm_zmalloc_socket(sizeof(*dm), pool->dev->socket);
	if (dm == NULL) {
		ret = -ENOMEM;
		goto err;
	}
	dm->pool = pool;
	dm->max_order = max_order;
	dm->size = 1ull << (max_order + pool->info->log_entry);
	TAILQ_INIT(&dm->used);
	TAILQ_INIT(&dm->hot);
	ret = mlx5dm_icm_dm_get_aligned(pool, dm);
	if (ret != 0)
		goto free_struct;
	errno = 0;
	dm->mr = ops->reg_dm_mr(pool->pd, dm->dm, dm->offset_in_dm, dm->size,
				MLX5DM_ICM_MR_ACCESS);
	if (dm->mr == NULL) {
		ret = errno != 0 ? -errno : -ENOMEM;
		MLX5DM_LOG(ERR, MLX5DM_ICM_LOG, "%s pool: reg_dm_mr of %" PRIu64
			   " bytes failed (errno %d)", pool->info->name, dm->size, -ret);
		goto free_dm;
	}
	dm->buddy = mlx5dm_buddy_create(max_order, pool->dev->socket);
	if (dm->buddy == NULL) {
		ret = -ENOMEM;
		goto dereg_mr;
	}
	MLX5DM_LOG(DEBUG, MLX5DM_ICM_LOG, "%s pool: new DM at ICM 0x%" PRIx64 ", %" PRIu64
		   " bytes, rkey 0x%x", pool->info->name, dm->icm_start, dm->size, dm->mr->rkey);
	return dm;

dereg_mr:
	ops->dereg_mr(dm->mr);
free_dm:
	mlx5dm_icm_dm_put(pool, dm->dm);
free_struct:
	mlx5dm_free(dm);
err:
	errno = -ret;
	return NULL;
}

static void
mlx5dm_icm_chunk_list_free(struct mlx5dm_icm_chunk_list *list)
{
	struct mlx5dm_icm_chunk_priv *c;

	while ((c = TAILQ_FIRST(list)) != NULL) {
		TAILQ_REMOVE(list, c, next);
		mlx5dm_free(c);
	}
}

void
mlx5dm_icm_dm_destroy(struct mlx5dm_icm_dm *dm)
{
	struct mlx5dm_icm_pool *pool = dm->pool;
	int ret;

	mlx5dm_icm_chunk_list_free(&dm->used);
	mlx5dm_icm_chunk_list_free(&dm->hot);
	ret = pool->dev->ops->dereg_mr(dm->mr);
	if (ret != 0)
		MLX5DM_LOG(ERR, MLX5DM_ICM_LOG, "%s pool: dereg_mr failed (%d)",
			   pool->info->name, ret);
	mlx5dm_icm_dm_put(pool, dm->dm);
	mlx5dm_buddy_destroy(dm->buddy);
	mlx5dm_free(dm);
}
