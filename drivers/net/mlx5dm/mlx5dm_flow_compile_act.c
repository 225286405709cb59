/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The action half of a compiled template: the list and the whole result.
 * The walk of the kept kinds reads the types, the attributes, the Rx queue
 * count and one value of QUEUE, JUMP, MARK, which lands as it is in
 * queues[0], jump_group, tag_value (id + 1) once it passes the walk's own
 * check; MARK with JUMP also writes a modify entry, so its id is compared.
 * Any other value or list takes the walk, with its verdict.
 */

#include <string.h>

#include "mlx5dm_flow.h"

/* What a replay does with a kept kind's configuration; -1: the kind is not kept. */
static int
mlx5dm_flow_compiled_aop(enum rte_flow_action_type type, bool jump)
{
	switch (type) {
	case RTE_FLOW_ACTION_TYPE_VOID:
	case RTE_FLOW_ACTION_TYPE_DROP:
	case RTE_FLOW_ACTION_TYPE_COUNT:
	case RTE_FLOW_ACTION_TYPE_FLAG:
		return MLX5DM_FLOW_CT_A_TYPE;
	case RTE_FLOW_ACTION_TYPE_QUEUE:
		return MLX5DM_FLOW_CT_A_QUEUE;
	case RTE_FLOW_ACTION_TYPE_JUMP:
		return MLX5DM_FLOW_CT_A_JUMP;
	case RTE_FLOW_ACTION_TYPE_MARK:
		return jump ? MLX5DM_FLOW_CT_A_MARK_SAME : MLX5DM_FLOW_CT_A_MARK;
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
mlx5dm_flow_compiled_act_forget(struct mlx5dm_flow_compiled *ct)
{
	ct->act.valid = false;
	ct->out_full = false;
	/* Its objects were found for the results being forgotten (the object layer lets go). */
	ct->objs_stale = true;
	ct->compiles++;
}

void
mlx5dm_flow_compiled_keep_actions(struct mlx5dm_flow_compiled *ct,
				  const struct rte_flow_action actions[],
				  struct mlx5dm_flow_spec *spec)
{
	struct mlx5dm_flow_ct_act *m = &ct->act;
	bool jump = false;
	unsigned int n;
	int op;

	mlx5dm_flow_compiled_act_forget(ct);
	for (n = 0; actions[n].type != RTE_FLOW_ACTION_TYPE_END; n++)
		jump |= actions[n].type == RTE_FLOW_ACTION_TYPE_JUMP;
	if (n > MLX5DM_FLOW_CT_ACTIONS)
		return;
	m->has = 0;
	for (n = 0; actions[n].type != RTE_FLOW_ACTION_TYPE_END; n++) {
		op = mlx5dm_flow_compiled_aop(actions[n].type, jump);
		if (op < 0)
			return;
		m->a[n].type = actions[n].type;
		m->a[n].op = (uint8_t)op;
		/* The walk succeeded: an action that needs a configuration has one. */
		m->a[n].val = op != MLX5DM_FLOW_CT_A_TYPE ?
			      mlx5dm_flow_compiled_aval(actions[n].conf, op) : 0;
		if (op != MLX5DM_FLOW_CT_A_MARK_SAME)
			m->has |= 1u << op;
	}
	m->nb = (uint8_t)n;
	spec->whole = true;
	spec->act_same = true;
	mlx5dm_flow_spec_copy(&m->res, spec);
	m->valid = true;
	ct->out_full = spec == &ct->out;
}
