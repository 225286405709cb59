/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/* Domains (NIC RX, NIC TX), their entry table and sync. */

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
	if (type == MLX5DM_DOMAIN_FDB) {
		MLX5DM_LOG(ERR, MLX5DM_STEER_LOG, "%s", !ctx->caps.fdb.sw_owner ?
			   "FDB: the device manages no e-switch with SW-owned FDB tables" :
			   "FDB domains are not supported yet");
		errno = ENOTSUP;
		return NULL;
	}
	dom = mlx5dm_zmalloc(sizeof(*dom));
	if (dom == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	dom->ctx = ctx;
	dom->type = type;
	LIST_INIT(&dom->tables);
	if (type == MLX5DM_DOMAIN_NIC_RX) {
		dom->dir = MLX5DM_STE_DIR_RX;
		/* NIC RX has no "default": unmatched traffic is dropped (SWS 1.2). */
		dom->default_icm = ctx->caps.rx_drop_icm;
		dom->drop_icm = ctx->caps.rx_drop_icm;
	} else {
		dom->dir = MLX5DM_STE_DIR_TX;
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
mlx5dm_domain_destroy(struct mlx5dm_domain *dom)
{
	struct mlx5dm_ctx *ctx;

	if (dom == NULL)
		return -EINVAL;
	ctx = dom->ctx;
	mlx5dm_spinlock_lock(&ctx->lock);
	if (!LIST_EMPTY(&dom->tables) || dom->refcnt != 0 || dom->root_tbl != NULL) {
		mlx5dm_spinlock_unlock(&ctx->lock);
		return -EBUSY;
	}
	LIST_REMOVE(dom, next);
	mlx5dm_spinlock_unlock(&ctx->lock);
	mlx5dm_free(dom);
	return 0;
}


int
mlx5dm_domain_set_root(struct mlx5dm_domain *dom, struct mlx5dm_table *tbl)
{
	struct mlx5dm_ctx *ctx = dom->ctx;
	int ret;

	if (tbl != NULL && tbl->dom != dom)
		return -EINVAL;
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
	mlx5dm_rule_settle_all(ctx);
	if (flags & MLX5DM_SYNC_SW)
		ret = mlx5dm_steer_sync_rings(ctx);
	if (ret == 0 && (flags & MLX5DM_SYNC_HW))
		ret = mlx5dm_steer_hw_sync(ctx);
	if (ret == 0 && (flags & MLX5DM_SYNC_MEM))
		ret = mlx5dm_icm_set_sync(ctx->icm);
	return ret;
}
