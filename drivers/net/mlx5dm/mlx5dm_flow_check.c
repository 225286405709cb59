/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The library's verdict on the masks before anything is made
 * (mlx5dm_match_check(), the builder selection of matcher creation): a
 * field no lookup covers is blamed on the item that wrote it.
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_flow.h"

#define MLX5DM_FLOW_X_MSG(sec, name, bit, width) \
	[MLX5DM_FTE(sec, name)] = "the device cannot match " #sec "." #name \
				  " (in this combination of fields)",
static const char *const mlx5dm_flow_field_msgs[MLX5DM_FTE_NUM_FIELDS] = {
	MLX5DM_FTE_ALL_FIELDS(MLX5DM_FLOW_X_MSG)
};
#undef MLX5DM_FLOW_X_MSG

static int
mlx5dm_flow_field_by_name(const char *name)
{
	unsigned int i;

	for (i = 0; i < MLX5DM_FTE_NUM_FIELDS; i++)
		if (strcmp(mlx5dm_fte_fields[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* Blame the item that wrote the field (or the pattern as a whole). */
static int
mlx5dm_flow_check_err(struct mlx5dm_flow_xlate *x, int ret, const char *err_field,
		      struct rte_flow_error *error)
{
	int f = err_field != NULL ? mlx5dm_flow_field_by_name(err_field) : -1;
	const struct rte_flow_item *cause = x->items;

	if (ret == -ENOSPC)
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM, cause,
					  "pattern needs more lookups than a matcher can chain");
	if (f < 0)
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM, cause,
					  "the device cannot match this pattern");
	if (x->owner[f] != 0)
		cause = &x->items[x->owner[f] - 1];
	return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM, cause,
				  mlx5dm_flow_field_msgs[f]);
}

/* One mask through the library's builder selection (its value through the library's check). */
int
mlx5dm_flow_check_mask(struct mlx5dm_flow_xlate *x, const uint8_t *mask, const uint8_t *value,
		       uint8_t criteria, struct rte_flow_error *error)
{
	struct mlx5dm_domain *dom = x->xc->dom[x->spec->egress ? 1 : 0];
	const struct mlx5dm_matcher_attr ma = { .criteria = criteria, .mask = mask };
	const char *err_field;
	int ret;

	ret = mlx5dm_match_check(dom, x->spec->egress ? MLX5DM_DOMAIN_NIC_TX : MLX5DM_DOMAIN_NIC_RX,
				 &ma, value, &err_field);
	if (ret < 0)
		return mlx5dm_flow_check_err(x, ret, err_field, error);
	return 0;
}

/*
 * Unless a matcher with the key exists (its mask was checked): the check
 * costs as much as the rest of the translation. Values are written under
 * their masks only, and the library checks them against the matcher.
 */
int
mlx5dm_flow_check_subs(struct mlx5dm_flow_xlate *x, struct rte_flow_error *error)
{
	uint8_t buf[2 * MLX5DM_MATCH_PARAM_SIZE];
	const struct mlx5dm_flow_xctx *xc = x->xc;
	struct mlx5dm_flow_spec *spec = x->spec;
	const uint8_t *mask, *value;
	unsigned int i;
	uint8_t criteria;
	int ret;

	for (i = 0; i < spec->nb_sub; i++) {
		criteria = mlx5dm_flow_sub_match_ref(spec, i, buf, &mask, &value);
		spec->sub[i].hint = xc->match_known != NULL ?
				    xc->match_known(xc->arg, spec, i, mask, criteria) : NULL;
		if (spec->sub[i].hint != NULL)
			continue;
		ret = mlx5dm_flow_check_mask(x, mask, value, criteria, error);
		if (ret < 0)
			return ret;
	}
	return 0;
}
