/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Root-table connection (rdma-core providers/mlx5/dr_action.c,
 * dr_actions_build_attr()). The root flow table of a
 * direction belongs to the kernel/firmware; the only way into SW-owned ICM
 * is a root rule whose destination is the SW table's DEVX object
 * (MLX5DV_FLOW_ACTION_DEST_DEVX). The rule matches everything: matcher
 * with match_criteria_enable 0 and an all-zero fte_match_param mask.
 *
 * Replacing the target is make-before-break: the new rule is installed at
 * the other of two adjacent priorities before the old one goes. Two rules
 * with equal match in the same matcher/priority would not do: the kernel
 * may merge them into one entry with two destinations (packets duplicated).
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_osdep.h"
#include "mlx5dm_prm_res.h"
#include "mlx5dm_res.h"

void
mlx5dm_res_root_init(struct mlx5dm_res_root *root, struct mlx5dm_res_ctx *res,
		     enum mlx5dm_domain_type type, uint16_t priority)
{
	memset(root, 0, sizeof(*root));
	root->res = res;
	root->type = type;
	root->priority = priority;
}

static int
mlx5dm_res_root_ft_type(enum mlx5dm_domain_type type, enum mlx5dv_flow_table_type *ft_type)
{
	switch (type) {
	case MLX5DM_DOMAIN_NIC_RX:
		*ft_type = MLX5DV_FLOW_TABLE_TYPE_NIC_RX;
		return 0;
	case MLX5DM_DOMAIN_NIC_TX:
		*ft_type = MLX5DV_FLOW_TABLE_TYPE_NIC_TX;
		return 0;
	case MLX5DM_DOMAIN_FDB:
		*ft_type = MLX5DV_FLOW_TABLE_TYPE_FDB;
		return 0;
	}
	return -EINVAL;
}

/* Create the match-all matcher at prio and the rule forwarding to ft. */
static int
mlx5dm_res_root_rule_add(struct mlx5dm_res_root *root, uint16_t prio, struct mlx5dm_res_ft *ft,
			 struct mlx5dv_flow_matcher **matcher, struct ibv_flow **flow)
{
	const struct mlx5dm_dev_ops *ops = root->res->dev->ops;
	struct mlx5dv_flow_matcher_attr mattr;
	struct mlx5dv_flow_action_attr action;
	struct mlx5dv_flow_match_parameters *zero;
	int ret;

	memset(&mattr, 0, sizeof(mattr));
	ret = mlx5dm_res_root_ft_type(root->type, &mattr.ft_type);
	if (ret < 0)
		return ret;
	/* One all-zero blob serves as mask and value: the kernel copies both. */
	zero = mlx5dm_zmalloc_socket(sizeof(*zero) + MLX5DM_FTE_MATCH_PARAM_BYTES,
				     root->res->dev->socket);
	if (zero == NULL)
		return -ENOMEM;
	zero->match_sz = MLX5DM_FTE_MATCH_PARAM_BYTES;
	mattr.type = IBV_FLOW_ATTR_NORMAL;
	mattr.priority = prio;
	mattr.match_criteria_enable = 0;
	mattr.match_mask = zero;
	mattr.comp_mask = MLX5DV_FLOW_MATCHER_MASK_FT_TYPE;
	*matcher = ops->create_flow_matcher(root->res->dev->ctx, &mattr);
	if (*matcher == NULL) {
		ret = errno != 0 ? errno : EIO;
		MLX5DM_LOG(ERR, "res", "root matcher (domain %d, priority %u) failed: %s",
			   (int)root->type, prio, strerror(ret));
		goto free_zero;
	}
	memset(&action, 0, sizeof(action));
	action.type = MLX5DV_FLOW_ACTION_DEST_DEVX;
	action.obj = mlx5dm_res_ft_obj(ft);
	*flow = ops->create_flow(*matcher, zero, 1, &action);
	if (*flow == NULL) {
		ret = errno != 0 ? errno : EIO;
		MLX5DM_LOG(ERR, "res", "root rule to flow table 0x%x (domain %d) failed: %s",
			   mlx5dm_res_ft_id(ft), (int)root->type, strerror(ret));
		goto destroy_matcher;
	}
	mlx5dm_free(zero);
	return 0;
destroy_matcher:
	ops->destroy_flow_matcher(*matcher);
	*matcher = NULL;
free_zero:
	mlx5dm_free(zero);
	return -ret;
}

/*
 * Remove a rule and its matcher. If the rule cannot be removed nothing
 * changed (-errno); a matcher left without rules is only logged: it holds
 * no traffic.
 */
static int
mlx5dm_res_root_rule_del(struct mlx5dm_res_root *root, struct mlx5dv_flow_matcher *matcher,
			 struct ibv_flow *flow)
{
	const struct mlx5dm_dev_ops *ops = root->res->dev->ops;
	int ret;

	ret = ops->destroy_flow(flow);
	if (ret != 0) {
		ret = ret < 0 ? -ret : ret;
		MLX5DM_LOG(ERR, "res", "root rule removal (domain %d) failed: %s",
			   (int)root->type, strerror(ret));
		return -ret;
	}
	ret = ops->destroy_flow_matcher(matcher);
	if (ret != 0)
		MLX5DM_LOG(ERR, "res", "root matcher removal (domain %d) failed: %d; leaked",
			   (int)root->type, ret);
	return 0;
}

int
mlx5dm_res_root_set(struct mlx5dm_res_root *root, struct mlx5dm_res_ft *ft)
{
	struct mlx5dm_res_ctx *res = root->res;
	struct mlx5dv_flow_matcher *matcher = NULL;
	struct ibv_flow *flow = NULL;
	unsigned int slot;
	int ret = 0;

	if (root->priority == UINT16_MAX)
		return -EINVAL; /* no room for the second slot */
	pthread_mutex_lock(&res->lock);
	if (ft == root->ft)
		goto unlock;
	if (ft == NULL) {
		ret = mlx5dm_res_root_rule_del(root, root->matcher, root->flow);
		if (ret == 0) {
			root->matcher = NULL;
			root->flow = NULL;
			root->ft = NULL;
			mlx5dm_res_live_add(&res->live.roots, -1);
		}
		goto unlock;
	}
	slot = root->flow != NULL ? root->slot ^ 1u : 0;
	ret = mlx5dm_res_root_rule_add(root, (uint16_t)(root->priority + slot), ft, &matcher,
				       &flow);
	if (ret < 0)
		goto unlock;
	if (root->flow != NULL) {
		ret = mlx5dm_res_root_rule_del(root, root->matcher, root->flow);
		if (ret < 0) {
			/* Keep the old target: take the new rule out again. */
			mlx5dm_res_root_rule_del(root, matcher, flow);
			goto unlock;
		}
	} else {
		mlx5dm_res_live_add(&res->live.roots, 1);
	}
	root->matcher = matcher;
	root->flow = flow;
	root->slot = slot;
	root->ft = ft;
	MLX5DM_LOG(DEBUG, "res", "domain %d enters flow table 0x%x (root priority %u)",
		   (int)root->type, mlx5dm_res_ft_id(ft), root->priority + slot);
unlock:
	pthread_mutex_unlock(&res->lock);
	return ret;
}
