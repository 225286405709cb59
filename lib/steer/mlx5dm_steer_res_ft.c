/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * SW-owned flow table objects (rdma-core providers/mlx5/dr_table.c). The device walks a
 * SW-owned table from its ICM root - the start anchor the library wrote -
 * so the object only tells the firmware that the table exists, at which
 * level, and where it starts: root rules and FW tables can then name it.
 */

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "mlx5dm_osdep.h"
#include "mlx5dm_prm_res.h"
#include "mlx5dm_res.h"

struct mlx5dm_res_ft {
	struct mlx5dm_res_ctx *res;
	struct mlx5dv_devx_obj *obj;
	uint32_t id;
	uint8_t table_type;          /* PRM table_type */
};

/* PRM table_type of a domain; -1 for an unknown domain. */
static int
mlx5dm_res_ft_type(enum mlx5dm_domain_type type)
{
	switch (type) {
	case MLX5DM_DOMAIN_NIC_RX:
		return MLX5DM_FT_TYPE_NIC_RX;
	case MLX5DM_DOMAIN_NIC_TX:
		return MLX5DM_FT_TYPE_NIC_TX;
	case MLX5DM_DOMAIN_FDB:
		return MLX5DM_FT_TYPE_FDB;
	}
	return -1;
}

int
mlx5dm_res_ft_create(struct mlx5dm_res_ctx *res, enum mlx5dm_domain_type type,
		     uint32_t level, uint64_t icm_root_0, uint64_t icm_root_1,
		     struct mlx5dm_res_ft **out)
{
	uint8_t in[MLX5DM_CREATE_FT_IN_BYTES] = { 0 };
	uint8_t cmd_out[MLX5DM_CREATE_FT_OUT_BYTES] = { 0 };
	int table_type = mlx5dm_res_ft_type(type);
	struct mlx5dm_res_ft *ft;
	int ret;

	/* Level 0 is the kernel-owned root; a SW table without an anchor cannot be walked. */
	if (res == NULL || out == NULL || table_type < 0 || level == 0 ||
	    level > MLX5DM_FT_MAX_LEVEL || icm_root_0 == 0 ||
	    (type == MLX5DM_DOMAIN_FDB && icm_root_1 == 0))
		return -EINVAL;
	ft = mlx5dm_zmalloc_socket(sizeof(*ft), res->dev->socket);
	if (ft == NULL)
		return -ENOMEM;
	mlx5dm_prm_fset(in, MLX5DM_CMD_IN_OPCODE, MLX5DM_CMD_OP_CREATE_FLOW_TABLE);
	mlx5dm_prm_fset(in, MLX5DM_FT_IN_TABLE_TYPE, (uint64_t)table_type);
	mlx5dm_prm_fset(in, MLX5DM_FTC_SW_OWNER, 1);
	mlx5dm_prm_fset(in, MLX5DM_FTC_LEVEL, level);
	mlx5dm_prm_fset(in, MLX5DM_FTC_ICM_ROOT_0, icm_root_0);
	if (type == MLX5DM_DOMAIN_FDB)
		mlx5dm_prm_fset(in, MLX5DM_FTC_ICM_ROOT_1, icm_root_1);
	ft->obj = res->dev->ops->devx_obj_create(res->dev->ctx, in, sizeof(in), cmd_out,
						 sizeof(cmd_out));
	if (ft->obj == NULL) {
		ret = mlx5dm_res_cmd_err("CREATE_FLOW_TABLE", cmd_out, errno);
		mlx5dm_free(ft);
		return ret;
	}
	ft->res = res;
	ft->id = (uint32_t)mlx5dm_prm_fget(cmd_out, MLX5DM_CREATE_FT_OUT_TABLE_ID);
	ft->table_type = (uint8_t)table_type;
	mlx5dm_res_live_add(&res->live.fts, 1);
	MLX5DM_LOG(DEBUG, "res", "flow table 0x%x: type %d level %u root 0x%" PRIx64, ft->id,
		   table_type, level, icm_root_0);
	*out = ft;
	return 0;
}

int
mlx5dm_res_ft_destroy(struct mlx5dm_res_ft *ft)
{
	int ret;

	if (ft == NULL)
		return -EINVAL;
	ret = mlx5dm_res_obj_destroy(ft->res, ft->obj, "flow table", ft->id);
	if (ret < 0)
		return ret;
	mlx5dm_res_live_add(&ft->res->live.fts, -1);
	mlx5dm_free(ft);
	return 0;
}

uint32_t
mlx5dm_res_ft_id(const struct mlx5dm_res_ft *ft)
{
	return ft->id;
}

int
mlx5dm_res_ft_query(struct mlx5dm_res_ft *ft, uint64_t *icm_root_0, uint64_t *icm_root_1)
{
	uint8_t in[MLX5DM_QUERY_FT_IN_BYTES] = { 0 };
	uint8_t out[MLX5DM_QUERY_FT_OUT_BYTES] = { 0 };
	int ret;

	mlx5dm_prm_fset(in, MLX5DM_CMD_IN_OPCODE, MLX5DM_CMD_OP_QUERY_FLOW_TABLE);
	mlx5dm_prm_fset(in, MLX5DM_FT_IN_TABLE_TYPE, ft->table_type);
	mlx5dm_prm_fset(in, MLX5DM_FT_IN_TABLE_ID, ft->id);
	ret = ft->res->dev->ops->devx_obj_query(ft->obj, in, sizeof(in), out, sizeof(out));
	if (ret != 0)
		return mlx5dm_res_cmd_err("QUERY_FLOW_TABLE", out, ret);
	*icm_root_0 = mlx5dm_prm_fget(out, MLX5DM_FTC_ICM_ROOT_0);
	*icm_root_1 = mlx5dm_prm_fget(out, MLX5DM_FTC_ICM_ROOT_1);
	return 0;
}

struct mlx5dv_devx_obj *
mlx5dm_res_ft_obj(const struct mlx5dm_res_ft *ft)
{
	return ft->obj;
}
