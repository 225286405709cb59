/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The action half of the shape cache (mlx5dm_flow.h): the last action list
 * translated over a pattern of the kept shape, and the whole result, so the
 * next rule with that pattern shape and an equal list is a copy of it with
 * its own copied match values (mlx5dm_flow_shape_replay() compares the list).
 *
 * Why a replay is exact. The walk of the kept kinds (mlx5dm_flow_actions.c,
 * mlx5dm_flow_rss.c) reads the action types, the configuration of QUEUE,
 * JUMP and MARK (compared whole), the direction and group of the
 * attributes and xc->nb_rx_queues; the checks at the list's end (fate,
 * reformat, VLAN push, MARK with JUMP, RSS expansion) read only what those
 * actions wrote: no pattern layer, no match value. The attributes are the
 * kept shape's, so with an equal list and queue count the walk writes what
 * it wrote before. Only successful walks are kept: a replay never has to
 * reproduce an error, and any other list takes the walk.
 *
 * Each kept result gets a new id (spec->shape_id), unique in the process,
 * so equal ids mean equal results but for the match values (and the hints
 * the mask check adds).
 */

#include <string.h>

#include "mlx5dm_flow.h"

static uint64_t mlx5dm_flow_shape_ids;

/* Configuration bytes the walk of a kept kind reads; -1: the kind is not kept. */
static int
mlx5dm_flow_shape_conf_len(enum rte_flow_action_type type)
{
	RTE_BUILD_BUG_ON(sizeof(struct rte_flow_action_queue) != 2);
	RTE_BUILD_BUG_ON(sizeof(struct rte_flow_action_jump) != 4);
	RTE_BUILD_BUG_ON(sizeof(struct rte_flow_action_mark) != 4);
	switch (type) {
	case RTE_FLOW_ACTION_TYPE_VOID:
	case RTE_FLOW_ACTION_TYPE_DROP:
	case RTE_FLOW_ACTION_TYPE_COUNT:
	case RTE_FLOW_ACTION_TYPE_FLAG:
		return 0;
	case RTE_FLOW_ACTION_TYPE_QUEUE:
		return sizeof(struct rte_flow_action_queue);
	case RTE_FLOW_ACTION_TYPE_JUMP:
		return sizeof(struct rte_flow_action_jump);
	case RTE_FLOW_ACTION_TYPE_MARK:
		return sizeof(struct rte_flow_action_mark);
	default:
		return -1;
	}
}

void
mlx5dm_flow_spec_copy(struct mlx5dm_flow_spec *dst, const struct mlx5dm_flow_spec *src)
{
	memcpy(dst, src, MLX5DM_FLOW_SPEC_ZEROED);
	memcpy(dst->queues, src->queues, src->nb_queues * sizeof(src->queues[0]));
	if (src->rss_types != 0)
		memcpy(dst->rss_key, src->rss_key, sizeof(dst->rss_key));
	memcpy(dst->sub, src->sub, src->nb_sub * sizeof(src->sub[0]));
	memcpy(dst->push, src->push, src->nb_push * sizeof(src->push[0]));
	memcpy(dst->decap_data, src->decap_data, src->decap_len);
	memcpy(dst->encap_data, src->encap_data, src->encap_len);
	memcpy(dst->modify, src->modify, (size_t)src->nb_modify * MLX5DM_MODIFY_ACTION_SIZE);
}

void
mlx5dm_flow_shape_act_forget(struct mlx5dm_flow_shape *sh)
{
	sh->act.valid = false;
	sh->out_full = false;
}

void
mlx5dm_flow_shape_keep_actions(struct mlx5dm_flow_shape *sh, const struct mlx5dm_flow_xctx *xc,
			       const struct rte_flow_action actions[],
			       struct mlx5dm_flow_spec *spec)
{
	struct mlx5dm_flow_shape_act *m = &sh->act;
	unsigned int n;
	int len;

	mlx5dm_flow_shape_act_forget(sh);
	for (n = 0; actions[n].type != RTE_FLOW_ACTION_TYPE_END; n++) {
		if (n == MLX5DM_FLOW_SHAPE_ACTIONS)
			return;
		len = mlx5dm_flow_shape_conf_len(actions[n].type);
		if (len < 0)
			return;
		m->a[n].type = actions[n].type;
		m->a[n].conf_len = (uint8_t)len;
		/* The walk succeeded: an action that needs a configuration has one. */
		m->a[n].conf = len != 0 ? mlx5dm_flow_shape_conf(actions[n].conf, len) : 0;
	}
	m->nb = (uint8_t)n;
	m->nb_rx_queues = xc->nb_rx_queues;
	spec->shape_id = __atomic_add_fetch(&mlx5dm_flow_shape_ids, 1, __ATOMIC_RELAXED);
	mlx5dm_flow_spec_copy(&m->res, spec);
	m->valid = true;
	sh->out_full = spec == &sh->out;
}
