/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Firmware packet reformat contexts (rdma-core providers/mlx5/dr_action.c): on a device
 * without ENCAP SW ICM the firmware keeps an encap header and the STE's
 * INSERT_POINTER names it by packet_reformat_id. One DEVX object per
 * context (ALLOC_PACKET_REFORMAT_CONTEXT; the transport builds the DEALLOC
 * when the object is destroyed).
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_osdep.h"
#include "mlx5dm_prm_res.h"
#include "mlx5dm_res.h"

struct mlx5dm_res_reformat {
	struct mlx5dm_res_ctx *res;
	struct mlx5dv_devx_obj *obj;
	uint32_t id;
};

int
mlx5dm_res_reformat_alloc(struct mlx5dm_res_ctx *res, unsigned int reformat_type,
			  const void *data, size_t len, struct mlx5dm_res_reformat **out)
{
	uint8_t cmd_out[MLX5DM_PRC_OUT_BYTES] = { 0 };
	struct mlx5dm_res_reformat *r;
	size_t inlen;
	uint8_t *in;
	int ret;

	/* reformat_data_size is 10 bits; the first two bytes sit inside the fixed part. */
	if (res == NULL || out == NULL || data == NULL || len < 2 || len > 1023)
		return -EINVAL;
	inlen = MLX5DM_ALIGN_UP(MLX5DM_PRC_IN_FIXED_BYTES + len - 2, (size_t)4);
	in = mlx5dm_zmalloc_socket(inlen, res->dev->socket);
	r = mlx5dm_zmalloc_socket(sizeof(*r), res->dev->socket);
	if (in == NULL || r == NULL) {
		ret = -ENOMEM;
		goto free_all;
	}
	mlx5dm_prm_fset(in, MLX5DM_CMD_IN_OPCODE, MLX5DM_CMD_OP_ALLOC_PACKET_REFORMAT_CONTEXT);
	mlx5dm_prm_fset(in, MLX5DM_PRC_IN_TYPE, reformat_type);
	mlx5dm_prm_fset(in, MLX5DM_PRC_IN_DATA_SIZE, len);
	memcpy(in + MLX5DM_PRC_IN_DATA_BYTE, data, len);
	r->obj = res->dev->ops->devx_obj_create(res->dev->ctx, in, inlen, cmd_out,
						sizeof(cmd_out));
	if (r->obj == NULL) {
		ret = mlx5dm_res_cmd_err("ALLOC_PACKET_REFORMAT_CONTEXT", cmd_out, errno);
		goto free_all;
	}
	r->res = res;
	r->id = (uint32_t)mlx5dm_prm_fget(cmd_out, MLX5DM_PRC_OUT_ID);
	mlx5dm_res_live_add(&res->live.reformats, 1);
	mlx5dm_free(in);
	*out = r;
	return 0;
free_all:
	mlx5dm_free(r);
	mlx5dm_free(in);
	return ret;
}

int
mlx5dm_res_reformat_free(struct mlx5dm_res_reformat *r)
{
	int ret;

	if (r == NULL)
		return 0;
	ret = mlx5dm_res_obj_destroy(r->res, r->obj, "packet reformat context", r->id);
	if (ret < 0)
		return ret;
	mlx5dm_res_live_add(&r->res->live.reformats, -1);
	mlx5dm_free(r);
	return 0;
}

uint32_t
mlx5dm_res_reformat_id(const struct mlx5dm_res_reformat *r)
{
	return r->id;
}
