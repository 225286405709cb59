/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/* rte_flow attributes -> domain, table level (group), matcher priority band. */

#include <errno.h>

#include "mlx5dm_flow.h"

int
mlx5dm_flow_xlate_attr(struct mlx5dm_flow_xlate *x, const struct rte_flow_attr *attr,
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
	max_prio = x->xc->internal ? MLX5DM_FLOW_DEFAULT_PRIORITY : MLX5DM_FLOW_MAX_PRIORITY;
	if (attr->priority > max_prio)
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ATTR_PRIORITY, attr,
					  "priority must be at most 16382");
	spec->egress = attr->egress;
	spec->group = attr->group;
	spec->priority = attr->priority;
	return 0;
}
