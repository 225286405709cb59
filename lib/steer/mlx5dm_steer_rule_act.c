/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * A rule's actions in its STEs. Validating and placing an action list costs
 * far more than the rest of building a rule, and rules of one matcher mostly
 * repeat the same few lists (one queue, one counter set, one jump...), so
 * each matcher keeps the placed bytes of its last lists (struct
 * mlx5dm_act_memo) and a rule with the same actions copies them.
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_steer_priv.h"

/* Convert the rule's action objects to what the STE encoder takes. */
static int
mlx5dm_rule_actions(struct mlx5dm_matcher *m, size_t n, struct mlx5dm_action *const acts[],
		    struct mlx5dm_ste_action *out)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (acts[i] == NULL || acts[i]->dom != m->tbl->dom) {
			MLX5DM_LOG(ERR, MLX5DM_STEER_LOG, "action %zu %s", i,
				   acts[i] == NULL ? "is NULL" : "belongs to another domain");
			return -EINVAL;
		}
		/* Levels order jumps: a jump back (or to itself) could loop forever. */
		if (acts[i]->kind == MLX5DM_ACT_DEST_TABLE &&
		    acts[i]->dest_tbl->level <= m->tbl->level) {
			MLX5DM_LOG(ERR, MLX5DM_STEER_LOG,
				   "action %zu jumps from level %u to level %u", i,
				   m->tbl->level, acts[i]->dest_tbl->level);
			return -EINVAL;
		}
		out[i] = acts[i]->ste;
	}
	return 0;
}

static struct mlx5dm_act_memo *
mlx5dm_act_memo_find(struct mlx5dm_matcher *m, size_t n, struct mlx5dm_action *const acts[])
{
	unsigned int w;
	size_t i;

	for (i = 0; i < n; i++)
		if (acts[i] == NULL)
			return NULL;
	for (w = 0; w < MLX5DM_ACT_MEMO_WAYS; w++) {
		struct mlx5dm_act_memo *e = &m->memo[w];

		if (!e->valid || e->nb_actions != n)
			continue;
		for (i = 0; i < n && e->serial[i] == acts[i]->serial; i++)
			;
		if (i == n)
			return e;
	}
	return NULL;
}

static void
mlx5dm_act_memo_store(struct mlx5dm_matcher *m, size_t n, struct mlx5dm_action *const acts[],
		      const uint8_t *last, unsigned int n_extra)
{
	struct mlx5dm_act_memo *e = &m->memo[m->memo_next];
	size_t i;

	m->memo_next = (m->memo_next + 1) % MLX5DM_ACT_MEMO_WAYS;
	for (i = 0; i < n; i++)
		e->serial[i] = acts[i]->serial;
	e->nb_actions = (uint8_t)n;
	e->n_extra = (uint8_t)n_extra;
	memcpy(e->ctrl, last, sizeof(e->ctrl));
	memcpy(e->extra, last + MLX5DM_STE_SIZE, (size_t)n_extra * MLX5DM_STE_SIZE);
	e->valid = true;
}

int
mlx5dm_rule_place_actions(struct mlx5dm_matcher *m, size_t nb_actions,
			  struct mlx5dm_action *const actions[], uint8_t *arr,
			  unsigned int *n_extra)
{
	struct mlx5dm_ste_action sacts[MLX5DM_RULE_MAX_ACTIONS];
	struct mlx5dm_domain *dom = m->tbl->dom;
	uint8_t *last = arr + (size_t)(m->nb_builders - 1) * MLX5DM_STE_SIZE;
	uint8_t data[MLX5DM_STE_SIZE - MLX5DM_STE_CTRL_SIZE];
	struct mlx5dm_ste_actions_attr aattr;
	struct mlx5dm_ste_action_err aerr;
	struct mlx5dm_act_memo *e;
	int ret;

	e = mlx5dm_act_memo_find(m, nb_actions, actions);
	if (e != NULL) {
		memcpy(last, e->ctrl, sizeof(e->ctrl));
		memcpy(last + MLX5DM_STE_SIZE, e->extra, (size_t)e->n_extra * MLX5DM_STE_SIZE);
		*n_extra = e->n_extra;
		return 0;
	}
	ret = mlx5dm_rule_actions(m, nb_actions, actions, sacts);
	if (ret < 0)
		return ret;
	memset(&aattr, 0, sizeof(aattr));
	aattr.domain = MLX5DM_STE_DOMAIN_NIC;
	aattr.dir = dom->dir;
	aattr.gvmi = dom->ctx->caps.vhca_id;
	aattr.default_icm_addr = dom->default_icm;
	memcpy(data, last + MLX5DM_STE_CTRL_SIZE, sizeof(data));
	ret = mlx5dm_ste_set_actions(dom->ctx->ste, &aattr, sacts, (unsigned int)nb_actions,
				     last, MLX5DM_STE_MAX_ACTION_STES, n_extra, &aerr);
	if (ret < 0) {
		MLX5DM_LOG(ERR, MLX5DM_STEER_LOG, "actions rejected: %s (action %d)", aerr.msg,
			   aerr.index);
		return ret;
	}
	/* Kept only while placement leaves the rule's tag alone (the memo holds no tag). */
	if (memcmp(data, last + MLX5DM_STE_CTRL_SIZE, sizeof(data)) == 0)
		mlx5dm_act_memo_store(m, nb_actions, actions, last, *n_extra);
	return 0;
}
