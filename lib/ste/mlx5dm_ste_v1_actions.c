/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * STE v1 action placement: writes a validated action set into the action
 * area of the rule's last match STE (8 bytes in a BWC entry, 12 in a MATCH
 * entry) and, when something does not fit or must not share an STE, into
 * extra MATCH-format action STEs. The device runs the actions of an STE in
 * slot order and the STEs in chain order, so the order below (per direction)
 * is the execution order; the "allow" rules keep apart what the device
 * cannot do in one STE.
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_ste_priv.h"

#define V1 mlx5dm_prm_ste_v1
#define SINGLE MLX5DM_STE_V1_ACTION_SINGLE_SIZE
#define DOUBLE MLX5DM_STE_V1_ACTION_DOUBLE_SIZE
#define TRIPLE MLX5DM_STE_V1_ACTION_TRIPLE_SIZE
#define HAS(set, t) (((set)->present & MLX5DM_STE_ACT_BIT(t)) != 0)

/* Write position inside the chain of STEs being filled. */
struct mlx5dm_ste_v1_cursor {
	const struct mlx5dm_ste_ctx *ctx;
	uint8_t *ste;		/* STE receiving actions */
	uint8_t *act;		/* next free action byte in it */
	unsigned int room;	/* free action bytes in it */
	unsigned int n_extra;
	unsigned int max_extra;
	uint16_t gvmi;
};

/* Append an action STE: MATCH entry, zero tag, miss 0 (it always hits). */
static int
mlx5dm_ste_v1_new_ste(struct mlx5dm_ste_v1_cursor *c)
{
	if (c->n_extra == c->max_extra)
		return -ENOSPC;
	c->n_extra++;
	c->ste += MLX5DM_STE_SIZE;
	memset(c->ste, 0, MLX5DM_STE_SIZE);
	c->ctx->init(c->ste, c->ctx->lu_action, MLX5DM_STE_DIR_RX, c->gvmi);
	c->ctx->set_miss_addr(c->ste, 0);
	c->act = c->ste + MLX5DM_STE_V1_MATCH_ACTION_OFF;
	c->room = TRIPLE;
	return 0;
}

/*
 * Reserve size bytes of action area, in a new STE if it does not fit or if
 * new_ste says the action must not share the current STE. NULL = no room
 * for another STE.
 */
static uint8_t *
mlx5dm_ste_v1_slot(struct mlx5dm_ste_v1_cursor *c, unsigned int size, bool new_ste)
{
	uint8_t *p;

	if ((new_ste || c->room < size) && mlx5dm_ste_v1_new_ste(c) < 0)
		return NULL;
	p = c->act;
	c->act += size;
	c->room -= size;
	return p;
}

/* Actions the placement writes, each with its slot size. */
enum mlx5dm_ste_v1_op {
	MLX5DM_STE_V1_OP_DECAP_L2,
	MLX5DM_STE_V1_OP_DECAP_L3,
	MLX5DM_STE_V1_OP_FLOW_TAG,
	MLX5DM_STE_V1_OP_POP,
	MLX5DM_STE_V1_OP_MODIFY,
	MLX5DM_STE_V1_OP_PUSH,
	MLX5DM_STE_V1_OP_ENCAP_L2,
	MLX5DM_STE_V1_OP_ENCAP_L3,
};

static const uint8_t mlx5dm_ste_v1_op_size[] = {
	[MLX5DM_STE_V1_OP_DECAP_L2] = SINGLE,
	[MLX5DM_STE_V1_OP_DECAP_L3] = DOUBLE,	/* modify list of remove + inserts */
	[MLX5DM_STE_V1_OP_FLOW_TAG] = SINGLE,
	[MLX5DM_STE_V1_OP_POP] = SINGLE,
	[MLX5DM_STE_V1_OP_MODIFY] = DOUBLE,	/* MODIFY_LIST uses 4 but owns 8 */
	[MLX5DM_STE_V1_OP_PUSH] = DOUBLE,
	[MLX5DM_STE_V1_OP_ENCAP_L2] = DOUBLE,
	[MLX5DM_STE_V1_OP_ENCAP_L3] = TRIPLE,	/* remove L2 + insert pointer */
};

/*
 * Write one action (arg = push index) in the current STE or, if new_ste
 * or short of room, in a new one. Returns 1 if a new STE was opened, 0 if
 * not, or -errno.
 */
static int
mlx5dm_ste_v1_put(struct mlx5dm_ste_v1_cursor *c, const struct mlx5dm_ste_actions_set *set,
		  enum mlx5dm_ste_v1_op op, unsigned int arg, bool new_ste,
		  struct mlx5dm_ste_action_err *err)
{
	unsigned int before = c->n_extra;
	uint8_t *a = mlx5dm_ste_v1_slot(c, mlx5dm_ste_v1_op_size[op], new_ste);
	int ret = 0;

	if (a == NULL)
		return -ENOSPC;
	switch (op) {
	case MLX5DM_STE_V1_OP_DECAP_L2:
		mlx5dm_ste_v1_write_remove_header(a, MLX5DM_STE_V1_ANCHOR_INNER_MAC, true);
		break;
	case MLX5DM_STE_V1_OP_DECAP_L3:
		ret = mlx5dm_ste_v1_write_modify(a, set->decap_l3, err);
		break;
	case MLX5DM_STE_V1_OP_FLOW_TAG:
		mlx5dm_ste_v1_write_flow_tag(a, set->flow_tag);
		/* A tag changes no header: no reparse. */
		return c->n_extra != before;
	case MLX5DM_STE_V1_OP_POP:
		/* One action pops all: 4 bytes = 2 words per VLAN from the first VLAN. */
		mlx5dm_ste_v1_write_remove_size(a, MLX5DM_STE_V1_ANCHOR_FIRST_VLAN, 0,
						(uint8_t)(2 * set->n_pop));
		break;
	case MLX5DM_STE_V1_OP_MODIFY:
		ret = mlx5dm_ste_v1_write_modify(a, set->modify, err);
		break;
	case MLX5DM_STE_V1_OP_PUSH:
		mlx5dm_ste_v1_write_push(a, set->push_hdr[arg]);
		break;
	case MLX5DM_STE_V1_OP_ENCAP_L2:
		mlx5dm_ste_v1_write_insert_ptr(a, set->encap_index, set->encap_size);
		break;
	case MLX5DM_STE_V1_OP_ENCAP_L3:
		/* Strip the original L2 (up to the outer L3), then insert the tunnel. */
		mlx5dm_ste_v1_write_remove_header(a, MLX5DM_STE_V1_ANCHOR_OUTER_L3, false);
		mlx5dm_ste_v1_write_insert_ptr(a + SINGLE, set->encap_index, set->encap_size);
		break;
	}
	if (ret < 0)
		return ret;
	/* Header-changing actions make the device parse the packet again. */
	mlx5dm_prm_fset(c->ste, V1.reparse, 1);
	return c->n_extra != before;
}

/* Encap comes last on both sides: L2 encap 8 bytes, L2->L3 encap 12 bytes. */
static int
mlx5dm_ste_v1_place_encap(struct mlx5dm_ste_v1_cursor *c, const struct mlx5dm_ste_actions_set *set,
			  bool new_ste, struct mlx5dm_ste_action_err *err)
{
	int ret = 0;

	if (HAS(set, ENCAP_L2))
		ret = mlx5dm_ste_v1_put(c, set, MLX5DM_STE_V1_OP_ENCAP_L2, 0, new_ste, err);
	else if (HAS(set, ENCAP_L3))
		ret = mlx5dm_ste_v1_put(c, set, MLX5DM_STE_V1_OP_ENCAP_L3, 0, false, err);
	return ret < 0 ? ret : 0;
}

/*
 * RX order: decap, flow tag, pop VLAN, modify header, push VLAN(s),
 * counter, encap. Modify never shares an STE with a decap, and the counter
 * goes to an STE after decap/pop so it counts the packet as delivered.
 * (Flag handling mirrors rdma-core's v1 placement, which hardware runs.)
 */
static int
mlx5dm_ste_v1_place_rx(struct mlx5dm_ste_v1_cursor *c, const struct mlx5dm_ste_actions_set *set,
		       struct mlx5dm_ste_action_err *err)
{
	bool allow_modify = true, allow_ctr = true;
	unsigned int i;
	int ret;

	if (HAS(set, DECAP_L3) || HAS(set, DECAP_L2)) {
		ret = mlx5dm_ste_v1_put(c, set, HAS(set, DECAP_L3) ? MLX5DM_STE_V1_OP_DECAP_L3 :
				       MLX5DM_STE_V1_OP_DECAP_L2, 0, false, err);
		if (ret < 0)
			return ret;
		allow_modify = allow_ctr = false;
	}
	if (HAS(set, FLOW_TAG)) {
		ret = mlx5dm_ste_v1_put(c, set, MLX5DM_STE_V1_OP_FLOW_TAG, 0, false, err);
		if (ret < 0)
			return ret;
		if (ret == 1)
			allow_modify = allow_ctr = true;
	}
	if (set->n_pop != 0) {
		ret = mlx5dm_ste_v1_put(c, set, MLX5DM_STE_V1_OP_POP, 0, !allow_modify, err);
		if (ret < 0)
			return ret;
		allow_ctr = false;
		if (!(c->ctx->caps & MLX5DM_STE_CAP_POP_MODIFY))
			allow_modify = false;
	}
	if (HAS(set, MODIFY_HDR)) {
		ret = mlx5dm_ste_v1_put(c, set, MLX5DM_STE_V1_OP_MODIFY, 0, !allow_modify, err);
		if (ret < 0)
			return ret;
		if (ret == 1)
			allow_modify = allow_ctr = true;
	}
	for (i = 0; i < set->n_push; i++) {
		ret = mlx5dm_ste_v1_put(c, set, MLX5DM_STE_V1_OP_PUSH, i, !allow_modify, err);
		if (ret < 0)
			return ret;
	}
	if (HAS(set, COUNTER)) {
		if (!allow_ctr && mlx5dm_ste_v1_new_ste(c) < 0)
			return -ENOSPC;
		c->ctx->set_counter_id(c->ste, set->counter_id);
	}
	return mlx5dm_ste_v1_place_encap(c, set, false, err);
}

/*
 * TX order: pop VLAN, counter, modify header, push VLAN(s), encap. Encap
 * never shares an STE with a modify header (the encap would be rewritten).
 */
static int
mlx5dm_ste_v1_place_tx(struct mlx5dm_ste_v1_cursor *c, const struct mlx5dm_ste_actions_set *set,
		       struct mlx5dm_ste_action_err *err)
{
	bool allow_modify = true, allow_encap = true;
	unsigned int i;
	int ret;

	if (set->n_pop != 0) {
		ret = mlx5dm_ste_v1_put(c, set, MLX5DM_STE_V1_OP_POP, 0, false, err);
		if (ret < 0)
			return ret;
		if (!(c->ctx->caps & MLX5DM_STE_CAP_POP_MODIFY))
			allow_modify = false;
	}
	if (HAS(set, COUNTER))
		c->ctx->set_counter_id(c->ste, set->counter_id);
	if (HAS(set, MODIFY_HDR)) {
		ret = mlx5dm_ste_v1_put(c, set, MLX5DM_STE_V1_OP_MODIFY, 0, !allow_modify, err);
		if (ret < 0)
			return ret;
		allow_encap = false;
	}
	for (i = 0; i < set->n_push; i++) {
		ret = mlx5dm_ste_v1_put(c, set, MLX5DM_STE_V1_OP_PUSH, i, !allow_encap, err);
		if (ret < 0)
			return ret;
		if (ret == 1)
			allow_encap = true;
	}
	return mlx5dm_ste_v1_place_encap(c, set, !allow_encap, err);
}

int
mlx5dm_ste_v1_place_actions(const struct mlx5dm_ste_ctx *ctx,
			    const struct mlx5dm_ste_actions_set *set, uint16_t gvmi,
			    uint8_t *last_ste, unsigned int max_extra, unsigned int *n_extra,
			    struct mlx5dm_ste_action_err *err)
{
	struct mlx5dm_ste_v1_cursor c = {
		.ctx = ctx,
		.ste = last_ste,
		.max_extra = max_extra,
		.gvmi = gvmi,
	};
	int ret;

	if (ctx->is_match_entry(last_ste)) {
		c.act = last_ste + MLX5DM_STE_V1_MATCH_ACTION_OFF;
		c.room = TRIPLE;
	} else {
		c.act = last_ste + MLX5DM_STE_V1_BWC_ACTION_OFF;
		c.room = DOUBLE;
	}
	if (set->dir == MLX5DM_STE_DIR_RX)
		ret = mlx5dm_ste_v1_place_rx(&c, set, err);
	else
		ret = mlx5dm_ste_v1_place_tx(&c, set, err);
	if (ret == -ENOSPC)
		mlx5dm_ste_action_err_set(err, -1, "actions need more than %u action STEs",
					  max_extra);
	if (ret < 0)
		return ret;
	/* The last STE of the chain leads to the final destination. */
	ctx->set_hit_gvmi(c.ste, set->final_gvmi);
	ctx->set_hit_addr(c.ste, set->final_icm_addr, 1);
	*n_extra = c.n_extra;
	return 0;
}
