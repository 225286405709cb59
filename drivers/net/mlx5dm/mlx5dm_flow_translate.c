/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/* One rule: attributes, pattern, actions, then the library's check of the masks. */

#include <string.h>

#include "mlx5dm_flow.h"

int
mlx5dm_flow_translate(const struct mlx5dm_flow_xctx *xc, const struct rte_flow_attr *attr,
		      const struct rte_flow_item items[], const struct rte_flow_action actions[],
		      struct mlx5dm_flow_spec *spec, struct rte_flow_error *error)
{
	struct mlx5dm_flow_xlate x;
	int ret;

	memset(spec, 0, MLX5DM_FLOW_SPEC_ZEROED);
	memset(&x, 0, sizeof(x));
	x.xc = xc;
	x.spec = spec;
	ret = mlx5dm_flow_xlate_attr(&x, attr, error);
	if (ret == 0)
		ret = mlx5dm_flow_xlate_items(&x, items, error);
	if (ret == 0)
		ret = mlx5dm_flow_xlate_actions(&x, actions, error);
	if (ret < 0)
		return ret;
	return mlx5dm_flow_check_masks(&x, error);
}
