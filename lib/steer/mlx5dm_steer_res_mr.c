/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Memory regions of the datapath: host memory (mbuf pools) that receive
 * and send WQEs point at by lkey. Registered in the context's PD with
 * local write access, as DPDK's mlx5 PMD registers its mempools
 * (ibv_reg_mr on hardware; the model resolves the lkey the same way).
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_osdep.h"
#include "mlx5dm_res.h"

struct mlx5dm_mr {
	struct mlx5dm_res_ctx *res;
	struct ibv_mr *mr;
};

struct mlx5dm_mr *
mlx5dm_res_mr_reg(struct mlx5dm_res_ctx *res, void *addr, size_t len)
{
	struct mlx5dm_mr *mr;

	if (res == NULL || addr == NULL || len == 0) {
		errno = EINVAL;
		return NULL;
	}
	mr = mlx5dm_zmalloc_socket(sizeof(*mr), res->dev->socket);
	if (mr == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	mr->res = res;
	mr->mr = res->dev->ops->reg_mr(res->pd, addr, len, IBV_ACCESS_LOCAL_WRITE);
	if (mr->mr == NULL) {
		int err = errno != 0 ? errno : ENOMEM;

		MLX5DM_LOG(ERR, "res", "MR of %zu bytes at %p: %s", len, addr, strerror(err));
		mlx5dm_free(mr);
		errno = err;
		return NULL;
	}
	mlx5dm_res_live_add(&res->live.mrs, 1);
	return mr;
}

struct mlx5dm_mr *
mlx5dm_mr_reg(struct mlx5dm_ctx *ctx, void *addr, size_t len)
{
	return mlx5dm_res_mr_reg(mlx5dm_ctx_res(ctx), addr, len);
}

int
mlx5dm_mr_dereg(struct mlx5dm_mr *mr)
{
	int ret;

	if (mr == NULL)
		return -EINVAL;
	ret = mr->res->dev->ops->dereg_mr(mr->mr);
	if (ret != 0) {
		MLX5DM_LOG(ERR, "res", "MR lkey 0x%x: deregistration failed: %s", mr->mr->lkey,
			   strerror(ret));
		return -ret;
	}
	mlx5dm_res_live_add(&mr->res->live.mrs, -1);
	mlx5dm_free(mr);
	return 0;
}

uint32_t
mlx5dm_mr_lkey(const struct mlx5dm_mr *mr)
{
	return mr->mr->lkey;
}
