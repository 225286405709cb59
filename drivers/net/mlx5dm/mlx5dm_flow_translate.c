/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * One rule: attributes, pattern, actions, then the library's check of the
 * masks. The walk of a template's example records what the template
 * compiles (mlx5dm_flow_compile.c).
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "mlx5dm_flow.h"

/* rte_flow attributes -> domain, table level (group), matcher priority band. */
static int
mlx5dm_flow_translate_attr(struct mlx5dm_flow_translation *x, const struct rte_flow_attr *attr,
			   struct rte_flow_error *error)
{
	struct mlx5dm_flow_spec *spec = x->spec;
	uint32_t max_prio;

	if (attr == NULL)
		return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ATTR, NULL,
					  "attributes are missing");
	if (attr->transfer)
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ATTR_TRANSFER, attr,
					  "transfer (FDB) rules need an E-Switch: a port of a "
					  "vdev with representor=vf[...]");
	if (attr->reserved != 0)
		return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ATTR, attr,
					  "reserved attribute bits must be zero");
	if (attr->ingress && attr->egress)
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ATTR_EGRESS, attr,
					  "a rule is either ingress or egress, not both");
	if (!attr->ingress && !attr->egress)
		return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ATTR_INGRESS, attr,
					  "ingress or egress must be set");
	if (attr->group > MLX5DM_FLOW_MAX_GROUP)
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ATTR_GROUP, attr,
					  "group must be below 4294967295");
	/* The last band is reserved for the PMD's default rule. */
	max_prio = x->ctx->internal ? MLX5DM_FLOW_DEFAULT_PRIORITY : MLX5DM_FLOW_MAX_PRIORITY;
	if (attr->priority > max_prio)
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ATTR_PRIORITY, attr,
					  "priority must be at most 16382");
	spec->egress = attr->egress;
	spec->group = attr->group;
	spec->priority = attr->priority;
	return 0;
}

/*
 * The library's verdict on the masks before anything is made
 * (mlx5dm_match_check(), the builder selection of matcher creation): a
 * field no lookup covers is blamed on the item that wrote it (or the
 * pattern as a whole).
 */
static int
mlx5dm_flow_check_err(struct mlx5dm_flow_translation *x, int ret, const char *err_field,
		      struct rte_flow_error *error)
{
	const struct rte_flow_item *cause = x->items;
	static __thread char msg[128];
	unsigned int f;

	if (ret == -ENOSPC)
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM, cause,
					  "pattern needs more lookups than a matcher can chain");
	for (f = 0; f < MLX5DM_FTE_NUM_FIELDS; f++)
		if (err_field != NULL && strcmp(mlx5dm_fte_fields[f].name, err_field) == 0)
			break;
	if (f == MLX5DM_FTE_NUM_FIELDS)
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM, cause,
					  "the device cannot match this pattern");
	if (x->owner[f] != 0)
		cause = &x->items[x->owner[f] - 1];
	/* Kept after the return: rte_flow_error holds a pointer. */
	snprintf(msg, sizeof(msg), "the device cannot match %s (in this combination of fields)",
		 mlx5dm_fte_fields[f].name);
	return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM, cause, msg);
}

/* Every sub-rule's mask through the library's builder selection (its value through its check). */
static int
mlx5dm_flow_check_masks(struct mlx5dm_flow_translation *x, struct rte_flow_error *error)
{
	uint8_t mask[MLX5DM_MATCH_PARAM_SIZE], value[MLX5DM_MATCH_PARAM_SIZE];
	struct mlx5dm_flow_spec *spec = x->spec;
	struct mlx5dm_matcher_attr ma = { .mask = mask };
	const char *err_field;
	unsigned int i;
	int ret;

	for (i = 0; i < spec->nb_sub; i++) {
		mlx5dm_flow_sub_match(spec, i, mask, value, &ma.criteria);
		ret = mlx5dm_match_check(x->ctx->dom[spec->egress ? 1 : 0], spec->egress ?
					 MLX5DM_DOMAIN_NIC_TX : MLX5DM_DOMAIN_NIC_RX, &ma, value,
					 &err_field);
		if (ret < 0)
			return mlx5dm_flow_check_err(x, ret, err_field, error);
	}
	return 0;
}

int
mlx5dm_flow_translate_record(const struct mlx5dm_flow_context *ctx,
			     struct mlx5dm_flow_recording *rec, const struct rte_flow_attr *attr,
			     const struct rte_flow_item items[],
			     const struct rte_flow_action actions[], struct mlx5dm_flow_spec *spec,
			     struct rte_flow_error *error)
{
	struct mlx5dm_flow_translation x;
	int ret;

	memset(spec, 0, MLX5DM_FLOW_SPEC_ZEROED);
	memset(&x, 0, sizeof(x));
	x.ctx = ctx;
	x.spec = spec;
	ret = mlx5dm_flow_translate_attr(&x, attr, error);
	if (ret < 0)
		return ret;
	x.rec = rec;
	ret = mlx5dm_flow_translate_items(&x, items, error);
	x.rec = NULL;
	if (ret < 0)
		return ret;
	ret = mlx5dm_flow_translate_actions(&x, actions, error);
	if (ret < 0)
		return ret;
	return mlx5dm_flow_check_masks(&x, error);
}

int
mlx5dm_flow_translate(const struct mlx5dm_flow_context *ctx, const struct rte_flow_attr *attr,
		      const struct rte_flow_item items[], const struct rte_flow_action actions[],
		      struct mlx5dm_flow_spec *spec, struct rte_flow_error *error)
{
	return mlx5dm_flow_translate_record(ctx, NULL, attr, items, actions, spec, error);
}
