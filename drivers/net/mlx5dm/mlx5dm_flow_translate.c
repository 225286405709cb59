/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * One rule: attributes, pattern, actions, then the library's check of the
 * masks. With a compiled template (xc->compiled) a rule of its shape
 * replays what the template holds (mlx5dm_flow_compile.c) and walks the
 * rest, which then compiles the template anew.
 */

#include <string.h>

#include "mlx5dm_flow.h"

static int
mlx5dm_flow_translate_pattern(struct mlx5dm_flow_xlate *x, const struct mlx5dm_flow_xctx *xc,
			      const struct rte_flow_attr *attr,
			      const struct rte_flow_item items[], struct mlx5dm_flow_spec *spec,
			      uint16_t *owner, struct rte_flow_error *error)
{
	struct mlx5dm_flow_compiled *ct = xc->compiled;
	int ret;

	if (ct != NULL && spec == &ct->out) {
		/* Cleared below, whatever follows. */
		ct->out_kept = false;
		ct->out_full = false;
	}
	memset(spec, 0, MLX5DM_FLOW_SPEC_ZEROED);
	memset(x, 0, sizeof(*x));
	memset(owner, 0, MLX5DM_FTE_NUM_FIELDS * sizeof(*owner));
	x->xc = xc;
	x->spec = spec;
	x->owner = owner;
	ret = mlx5dm_flow_xlate_attr(x, attr, error);
	if (ret < 0)
		return ret;
	if (ct != NULL) {
		mlx5dm_flow_compiled_rec_begin(ct);
		x->rec = ct;
	}
	ret = mlx5dm_flow_xlate_items(x, items, error);
	x->rec = NULL;
	if (ret == 0 && ct != NULL)
		mlx5dm_flow_compiled_rec_end(ct, items, x);
	return ret;
}

/* What the replay left to walk (the pattern unless replayed), then the mask check. */
static int
mlx5dm_flow_translate_walk(const struct mlx5dm_flow_xctx *xc, enum mlx5dm_flow_replay replayed,
			   const struct rte_flow_attr *attr, const struct rte_flow_item items[],
			   const struct rte_flow_action actions[], struct mlx5dm_flow_xlate *x,
			   struct mlx5dm_flow_spec *spec, struct rte_flow_error *error)
{
	uint16_t owner[MLX5DM_FTE_NUM_FIELDS];
	struct mlx5dm_flow_compiled *ct = xc->compiled;
	int ret;

	if (replayed == MLX5DM_FLOW_REPLAY_NONE) {
		ret = mlx5dm_flow_translate_pattern(x, xc, attr, items, spec, owner, error);
		if (ret < 0)
			return ret;
	}
	ret = mlx5dm_flow_xlate_actions(x, actions, error);
	if (ret < 0)
		return ret;
	if (ct != NULL && ct->valid)
		mlx5dm_flow_compiled_keep_actions(ct, actions, spec);
	return mlx5dm_flow_check_masks(x, error);
}

static int
mlx5dm_flow_compiled_translate(const struct mlx5dm_flow_xctx *xc, const struct rte_flow_attr *attr,
			       const struct rte_flow_item items[],
			       const struct rte_flow_action actions[],
			       struct mlx5dm_flow_spec *spec, struct rte_flow_error *error)
{
	struct mlx5dm_flow_xlate x;
	enum mlx5dm_flow_replay replayed;

	replayed = mlx5dm_flow_compiled_replay(xc->compiled, xc, items, actions, &x, spec);
	if (replayed == MLX5DM_FLOW_REPLAY_RULE)
		return mlx5dm_flow_check_masks(&x, error);
	return mlx5dm_flow_translate_walk(xc, replayed, attr, items, actions, &x, spec, error);
}

/* Apart: the template's path has a translation state of its own. */
static __rte_noinline int
mlx5dm_flow_translate_plain(const struct mlx5dm_flow_xctx *xc, const struct rte_flow_attr *attr,
			    const struct rte_flow_item items[],
			    const struct rte_flow_action actions[],
			    struct mlx5dm_flow_spec *spec, struct rte_flow_error *error)
{
	struct mlx5dm_flow_xlate x;

	return mlx5dm_flow_translate_walk(xc, MLX5DM_FLOW_REPLAY_NONE, attr, items, actions, &x,
					  spec, error);
}

int
mlx5dm_flow_translate(const struct mlx5dm_flow_xctx *xc, const struct rte_flow_attr *attr,
		      const struct rte_flow_item items[], const struct rte_flow_action actions[],
		      struct mlx5dm_flow_spec *spec, struct rte_flow_error *error)
{
	if (xc->compiled != NULL)
		return mlx5dm_flow_compiled_translate(xc, attr, items, actions, spec, error);
	return mlx5dm_flow_translate_plain(xc, attr, items, actions, spec, error);
}
