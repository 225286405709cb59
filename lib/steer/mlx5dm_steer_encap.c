/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Where an encap header lives (rdma-core providers/mlx5/dr_action.c): in ENCAP SW ICM when the
 * device has it (the STE's INSERT_POINTER names the 64-byte line), else -
 * or when that ICM is exhausted - in a firmware packet reformat context
 * (the pointer is its packet_reformat_id). Either way the data is in place
 * before the action is handed out. Whether there is ENCAP SW ICM is decided
 * when the context opens, and once more if the device refuses its first DM.
 */

#include <errno.h>

#include "mlx5dm_prm_res.h"
#include "mlx5dm_steer_priv.h"

static int
mlx5dm_encap_store_icm(struct mlx5dm_action *a, struct mlx5dm_icm_pool *pool, size_t len,
		       const void *data)
{
	struct mlx5dm_ctx *ctx = a->dom->ctx;
	int ret;

	a->chunk = mlx5dm_icm_chunk_alloc(pool, mlx5dm_log2_ceil((len + 63) / 64));
	if (a->chunk == NULL)
		return -ENOMEM;
	ret = mlx5dm_icm_chunk_line_index(a->chunk, &a->ste.encap.index);
	if (ret == 0)
		ret = mlx5dm_action_write_icm(ctx, a->chunk, data, len);
	if (ret < 0) {
		mlx5dm_icm_chunk_free(a->chunk);
		a->chunk = NULL;
	}
	return ret;
}

static int
mlx5dm_encap_store_fw(struct mlx5dm_action *a, size_t len, const void *data)
{
	unsigned int type = a->reformat == MLX5DM_REFORMAT_L2_TO_L3_TUNNEL ?
			    MLX5DM_REFORMAT_TYPE_L2_TO_L3_TUNNEL :
			    MLX5DM_REFORMAT_TYPE_L2_TO_L2_TUNNEL;
	int ret;

	ret = mlx5dm_res_reformat_alloc(&a->dom->ctx->res, type, data, len, &a->fw_reformat);
	if (ret < 0)
		return ret;
	a->ste.encap.index = mlx5dm_res_reformat_id(a->fw_reformat);
	return 0;
}

/*
 * The pool's first DM was refused: the device reports ENCAP SW ICM but its
 * driver stack does not give it out (an rdma-core or kernel without the DM
 * type). The context stops asking, once, rather than per encap action.
 */
static void
mlx5dm_encap_icm_check(struct mlx5dm_ctx *ctx, struct mlx5dm_icm_pool *pool)
{
	struct mlx5dm_icm_stats st;

	mlx5dm_icm_pool_stats(pool, &st);
	if (st.dm_bytes != 0)
		return;
	if (__atomic_exchange_n(&ctx->encap_pool, NULL, __ATOMIC_RELAXED) != NULL)
		MLX5DM_LOG(WARNING, MLX5DM_STEER_LOG, "ENCAP SW ICM not available: encap "
			   "headers go to firmware reformat contexts");
}

int
mlx5dm_encap_store(struct mlx5dm_action *a, size_t len, const void *data)
{
	struct mlx5dm_ctx *ctx = a->dom->ctx;
	struct mlx5dm_icm_pool *pool;
	int ret;

	ret = mlx5dm_ste_encap_check(len, ctx->caps.max_encap_header_size);
	if (ret < 0) {
		MLX5DM_LOG(ERR, MLX5DM_STEER_LOG, "encap header of %zu bytes not possible "
			   "(even, <= 126, <= %u)", len, ctx->caps.max_encap_header_size);
		return ret;
	}
	a->ste.encap.size = (uint16_t)len;
	pool = __atomic_load_n(&ctx->encap_pool, __ATOMIC_RELAXED);
	if (pool != NULL) {
		ret = mlx5dm_encap_store_icm(a, pool, len, data);
		if (ret == 0)
			return 0;
		mlx5dm_encap_icm_check(ctx, pool);
		/* Taken by every new header once ENCAP ICM is full. */
		if (__atomic_load_n(&ctx->encap_pool, __ATOMIC_RELAXED) != NULL)
			MLX5DM_LOG_LIMITED(WARNING, MLX5DM_STEER_LOG,
					   "encap in ENCAP ICM failed (%d): using a firmware "
					   "reformat context", ret);
	}
	return mlx5dm_encap_store_fw(a, len, data);
}

int
mlx5dm_encap_release(struct mlx5dm_action *a)
{
	int ret;

	if (a->fw_reformat == NULL)
		return 0;
	ret = mlx5dm_res_reformat_free(a->fw_reformat);
	a->fw_reformat = NULL;
	return ret;
}
