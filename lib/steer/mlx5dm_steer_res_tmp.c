/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * TEMPORARY (wip-steer only): the SW-owned flow table object and the root
 * rule, until the resource layer (wip-res) is merged. Not for main.
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_steer_priv.h"

int
mlx5dm_tmp_ft_create(struct mlx5dm_ctx *ctx, enum mlx5dm_ste_dir dir, uint32_t level,
		     uint64_t root, void **obj, uint32_t *id)
{
	uint8_t in[64] = { 0 }, out[16] = { 0 };
	struct mlx5dv_devx_obj *o;

	mlx5dm_prm_set(in, 0, 16, 0x930);
	mlx5dm_prm_set(in, 0x80, 8, dir == MLX5DM_STE_DIR_RX ? 0 : 1);
	mlx5dm_prm_set(in, 0xc2, 1, 1);
	mlx5dm_prm_set(in, 0xc8, 8, level);
	mlx5dm_prm_set64(in, 0x1c0, 64, root);
	o = ctx->dev->ops->devx_obj_create(ctx->dev->ctx, in, sizeof(in), out, sizeof(out));
	if (o == NULL)
		return -errno;
	*obj = o;
	*id = mlx5dm_prm_get(out, 0x48, 24);
	return 0;
}

void
mlx5dm_tmp_ft_destroy(struct mlx5dm_ctx *ctx, void *obj)
{
	ctx->dev->ops->devx_obj_destroy(obj);
}

struct mlx5dm_tmp_root {
	struct mlx5dv_flow_matcher *matcher;
	struct ibv_flow *flow;
};

int
mlx5dm_tmp_root_set(struct mlx5dm_ctx *ctx, enum mlx5dm_ste_dir dir, void *ft_obj, void **out)
{
	struct {
		struct mlx5dv_flow_match_parameters p;
		uint64_t buf[MLX5DM_MATCH_PARAM_SIZE / 8];
	} mask, value;
	struct mlx5dv_flow_matcher_attr ma;
	struct mlx5dv_flow_action_attr act;
	struct mlx5dm_tmp_root *r;

	r = mlx5dm_zmalloc(sizeof(*r));
	if (r == NULL)
		return -ENOMEM;
	memset(&mask, 0, sizeof(mask));
	memset(&value, 0, sizeof(value));
	mask.p.match_sz = MLX5DM_MATCH_PARAM_SIZE;
	value.p.match_sz = MLX5DM_MATCH_PARAM_SIZE;
	memset(&ma, 0, sizeof(ma));
	ma.type = IBV_FLOW_ATTR_NORMAL;
	ma.match_mask = &mask.p;
	ma.comp_mask = MLX5DV_FLOW_MATCHER_MASK_FT_TYPE;
	ma.ft_type = dir == MLX5DM_STE_DIR_RX ? MLX5DV_FLOW_TABLE_TYPE_NIC_RX :
		     MLX5DV_FLOW_TABLE_TYPE_NIC_TX;
	r->matcher = ctx->dev->ops->create_flow_matcher(ctx->dev->ctx, &ma);
	if (r->matcher == NULL) {
		mlx5dm_free(r);
		return -errno;
	}
	act.type = MLX5DV_FLOW_ACTION_DEST_DEVX;
	act.obj = ft_obj;
	r->flow = ctx->dev->ops->create_flow(r->matcher, &value.p, 1, &act);
	if (r->flow == NULL) {
		int ret = -errno;

		ctx->dev->ops->destroy_flow_matcher(r->matcher);
		mlx5dm_free(r);
		return ret;
	}
	*out = r;
	return 0;
}

void
mlx5dm_tmp_root_unset(struct mlx5dm_ctx *ctx, void *root)
{
	struct mlx5dm_tmp_root *r = root;

	if (r == NULL)
		return;
	ctx->dev->ops->destroy_flow(r->flow);
	ctx->dev->ops->destroy_flow_matcher(r->matcher);
	mlx5dm_free(r);
}
