/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * A rule's match checked ahead of creation, on a domain or without a
 * device. A file of its own: it needs of the matchers only
 * mlx5dm_matcher_check(), and the PMD's translation tests link it with a
 * stand-in for them (app/test/unit/flow_fake_steer.c).
 */

#include <errno.h>

#include "mlx5dm_steer_priv.h"

int
mlx5dm_match_check(struct mlx5dm_domain *dom, enum mlx5dm_domain_type type,
		   const struct mlx5dm_matcher_attr *attr, const uint8_t *value,
		   const char **err_field)
{
	struct mlx5dm_ste_builder b[MLX5DM_STE_MAX_BUILDERS];
	const struct mlx5dm_ste_ctx *ste;
	unsigned int n;
	int ret;

	if (err_field != NULL)
		*err_field = NULL;
	if (attr == NULL || attr->mask == NULL)
		return -EINVAL;
	if (dom != NULL) {
		ret = mlx5dm_matcher_check(dom, attr, err_field);
	} else {
		ste = mlx5dm_ste_ctx_get(1);
		if (ste == NULL)
			return -ENOTSUP;
		ret = mlx5dm_ste_build_matcher(ste, NULL, attr->mask, attr->criteria,
					       type == MLX5DM_DOMAIN_NIC_TX ? MLX5DM_STE_DIR_TX :
					       MLX5DM_STE_DIR_RX, b, MLX5DM_STE_MAX_BUILDERS, &n,
					       err_field);
	}
	if (ret == 0 && value != NULL)
		ret = mlx5dm_ste_check_value(attr->mask, value, attr->criteria, err_field);
	return ret;
}
