/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * One rule: attributes, pattern, actions, then the library's check of the
 * masks. Attributes and pattern come from the shape cache when the pattern
 * has the shape it keeps (mlx5dm_flow_shape.c), else from the full walk,
 * which the cache then keeps.
 */

#include <string.h>

#include "mlx5dm_flow.h"

static int
mlx5dm_flow_translate_pattern(struct mlx5dm_flow_xlate *x, const struct mlx5dm_flow_xctx *xc,
			      const struct rte_flow_attr *attr,
			      const struct rte_flow_item items[], struct mlx5dm_flow_spec *spec,
			      uint16_t *owner, struct rte_flow_error *error)
{
	struct mlx5dm_flow_shape *sh = xc->shape;
	int ret;

	if (sh != NULL && spec == &sh->out)
		sh->out_kept = false; /* cleared below, whatever follows */
	memset(spec, 0, MLX5DM_FLOW_SPEC_ZEROED);
	memset(x, 0, sizeof(*x));
	memset(owner, 0, MLX5DM_FTE_NUM_FIELDS * sizeof(*owner));
	x->xc = xc;
	x->spec = spec;
	x->owner = owner;
	ret = mlx5dm_flow_xlate_attr(x, attr, error);
	if (ret < 0)
		return ret;
	if (sh != NULL) {
		mlx5dm_flow_shape_rec_begin(sh);
		x->rec = sh;
	}
	ret = mlx5dm_flow_xlate_items(x, items, error);
	x->rec = NULL;
	if (ret == 0 && sh != NULL)
		mlx5dm_flow_shape_rec_end(sh, xc, attr, items, x);
	return ret;
}

int
mlx5dm_flow_translate(const struct mlx5dm_flow_xctx *xc, const struct rte_flow_attr *attr,
		      const struct rte_flow_item items[], const struct rte_flow_action actions[],
		      struct mlx5dm_flow_spec *spec, struct rte_flow_error *error)
{
	uint16_t owner[MLX5DM_FTE_NUM_FIELDS];
	struct mlx5dm_flow_xlate x;
	int ret;

	if (xc->shape == NULL || !mlx5dm_flow_shape_replay(xc->shape, xc, attr, items, &x, spec)) {
		ret = mlx5dm_flow_translate_pattern(&x, xc, attr, items, spec, owner, error);
		if (ret < 0)
			return ret;
	}
	ret = mlx5dm_flow_xlate_actions(&x, actions, error);
	if (ret < 0)
		return ret;
	return mlx5dm_flow_check_masks(&x, error);
}
