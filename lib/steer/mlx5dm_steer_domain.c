/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/* Domains (NIC RX, NIC TX; the FDB's sides: mlx5dm_steer_fdb.c), their entry table and sync. */

#include <errno.h>
#include <string.h>

#include "mlx5dm_steer_priv.h"

struct mlx5dm_domain *
mlx5dm_domain_create(struct mlx5dm_ctx *ctx, enum mlx5dm_domain_type type)
{
	struct mlx5dm_domain *dom;

	if (ctx == NULL || (type != MLX5DM_DOMAIN_NIC_RX && type != MLX5DM_DOMAIN_NIC_TX &&
			    type != MLX5DM_DOMAIN_FDB)) {
		errno = EINVAL;
		return NULL;
	}
	if (type == MLX5DM_DOMAIN_FDB)
		return mlx5dm_fdb_domain_create(ctx);
	dom = mlx5dm_zmalloc_socket(sizeof(*dom), ctx->dev->socket);
	if (dom == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	dom->ctx = ctx;
	dom->type = type;
	dom->ste_caps = ctx->caps.ste;
	LIST_INIT(&dom->tables);
	if (type == MLX5DM_DOMAIN_NIC_RX) {
		dom->dir = MLX5DM_STE_DIR_RX;
		/* NIC RX has no "default": unmatched traffic is dropped (SWS 1.2). */
		dom->default_icm = ctx->caps.rx_drop_icm;
		dom->drop_icm = ctx->caps.rx_drop_icm;
	} else {
		dom->dir = MLX5DM_STE_DIR_TX;
		/* What a function sends tells its send queue (rdma-core's SRC_QP_GVMI on TX). */
		dom->ste_caps.source_qp = true;
		dom->default_icm = ctx->caps.tx_allow_icm;
		dom->drop_icm = ctx->caps.tx_drop_icm;
	}
	mlx5dm_res_root_init(&dom->root, &ctx->res, type, 0);
	mlx5dm_spinlock_lock(&ctx->lock);
	LIST_INSERT_HEAD(&ctx->domains, dom, next);
	mlx5dm_spinlock_unlock(&ctx->lock);
	return dom;
}

int
mlx5dm_domain_unlist(struct mlx5dm_domain *dom)
{
	struct mlx5dm_ctx *ctx = dom->ctx;

	mlx5dm_spinlock_lock(&ctx->lock);
	if (!LIST_EMPTY(&dom->tables) || dom->refcnt != 0 || dom->root_tbl != NULL) {
		mlx5dm_spinlock_unlock(&ctx->lock);
		return -EBUSY;
	}
	LIST_REMOVE(dom, next);
	mlx5dm_spinlock_unlock(&ctx->lock);
	return 0;
}

int
mlx5dm_domain_destroy(struct mlx5dm_domain *dom)
{
	int ret;

	if (dom == NULL || dom->top != NULL)
		return -EINVAL;
	if (mlx5dm_domain_is_fdb(dom))
		return mlx5dm_fdb_domain_destroy(dom);
	ret = mlx5dm_domain_unlist(dom);
	if (ret == 0)
		mlx5dm_free(dom);
	return ret;
}


int
mlx5dm_domain_set_root(struct mlx5dm_domain *dom, struct mlx5dm_table *tbl)
{
	struct mlx5dm_ctx *ctx;
	int ret;

	if (dom == NULL || dom->top != NULL || (tbl != NULL && tbl->dom != dom))
		return -EINVAL;
	ctx = dom->ctx;
	mlx5dm_spinlock_lock(&ctx->lock);
	/* Make-before-break: the resource layer installs the new rule first. */
	ret = mlx5dm_res_root_set(&dom->root, tbl != NULL ? tbl->ft : NULL);
	if (ret == 0) {
		if (tbl != NULL)
			tbl->refcnt++;
		if (dom->root_tbl != NULL)
			dom->root_tbl->refcnt--;
		dom->root_tbl = tbl;
	} else {
		MLX5DM_LOG(ERR, MLX5DM_STEER_LOG, "root rule to table %u failed: %d",
			   tbl != NULL ? tbl->ft_id : 0, ret);
	}
	mlx5dm_spinlock_unlock(&ctx->lock);
	return ret;
}

int
mlx5dm_domain_sync(struct mlx5dm_domain *dom, uint32_t flags)
{
	struct mlx5dm_ctx *ctx = dom->ctx;
	int ret = 0;

	if (flags & ~(MLX5DM_SYNC_SW | MLX5DM_SYNC_HW | MLX5DM_SYNC_MEM))
		return -EINVAL;
	if (flags & MLX5DM_SYNC_SW)
		ret = mlx5dm_steer_sync_rings(ctx);
	if (ret == 0 && (flags & MLX5DM_SYNC_HW))
		ret = mlx5dm_steer_hw_sync(ctx);
	if (ret == 0 && (flags & MLX5DM_SYNC_MEM))
		ret = mlx5dm_icm_set_sync(ctx->icm);
	return ret;
}
