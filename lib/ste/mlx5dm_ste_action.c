/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Format-neutral validation of a rule's action list: which actions a side
 * of a domain accepts, how often, and in which order (the device executes
 * them in its own fixed order, so an order it cannot honour is refused
 * rather than silently changed). The accepted list becomes an action set
 * that the format's placement code (ctx->place_actions) writes into STEs.
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_ste_priv.h"

#define BIT(t) MLX5DM_STE_ACT_BIT(t)

/* Where an action list stands after the actions seen so far. */
enum mlx5dm_ste_act_state {
	MLX5DM_STE_ST_START,
	MLX5DM_STE_ST_NON_TERM,		/* only counter / flow tag so far */
	MLX5DM_STE_ST_DECAP,
	MLX5DM_STE_ST_ENCAP,
	MLX5DM_STE_ST_MODIFY,
	MLX5DM_STE_ST_POP,
	MLX5DM_STE_ST_PUSH,
	MLX5DM_STE_ST_TERM,
	MLX5DM_STE_ST_MAX,
};

static const char *const mlx5dm_ste_state_names[MLX5DM_STE_ST_MAX] = {
	"start", "counter/flow_tag", "decap", "encap", "modify_header", "pop_vlan",
	"push_vlan", "a terminating action",
};

#define TERMINATING (BIT(DROP) | BIT(DEST_TABLE) | BIT(DEST_TIR) | BIT(DEFAULT_MISS) | \
		     BIT(DEST_VPORT))
#define DECAP (BIT(DECAP_L2) | BIT(DECAP_L3))
#define ENCAP (BIT(ENCAP_L2) | BIT(ENCAP_L3))
#define ALL ((1u << MLX5DM_STE_ACTION_TYPE_MAX) - 1)

/*
 * Actions accepted in each state of a NIC side (rdma-core's state machine
 * without ASO/meter/sampler). Direction-only restrictions (no flow tag or
 * decap on TX, no encap on NIC RX) are applied separately. An FDB side
 * follows the NIC side of its direction (rdma-core's FDB_INGRESS and
 * FDB_EGRESS differ from NIC_RX and NIC_TX in their destinations only): a
 * vport destination is accepted wherever a table is.
 */
static const uint32_t mlx5dm_ste_nic_allowed[2][MLX5DM_STE_ST_MAX] = {
	[MLX5DM_STE_DIR_RX] = {
		[MLX5DM_STE_ST_START] = ALL,
		[MLX5DM_STE_ST_NON_TERM] = ALL,
		[MLX5DM_STE_ST_DECAP] = BIT(DEST_TABLE) | BIT(DEST_TIR) | BIT(FLOW_TAG) |
					BIT(COUNTER) | BIT(MODIFY_HDR) | BIT(POP_VLAN) |
					BIT(PUSH_VLAN) | ENCAP,
		[MLX5DM_STE_ST_MODIFY] = BIT(DEST_TABLE) | BIT(DEST_TIR) | BIT(FLOW_TAG) |
					 BIT(COUNTER) | BIT(PUSH_VLAN) | ENCAP,
		[MLX5DM_STE_ST_POP] = BIT(DEST_TABLE) | BIT(DEST_TIR) | BIT(FLOW_TAG) |
				      BIT(COUNTER) | BIT(POP_VLAN) | BIT(MODIFY_HDR) | ENCAP,
		[MLX5DM_STE_ST_PUSH] = BIT(DEST_TABLE) | BIT(DEST_TIR) | BIT(FLOW_TAG) |
				       BIT(COUNTER) | BIT(PUSH_VLAN) | ENCAP,
		[MLX5DM_STE_ST_ENCAP] = BIT(DEST_TABLE) | BIT(DEST_TIR) | BIT(FLOW_TAG) |
					BIT(COUNTER),
		[MLX5DM_STE_ST_TERM] = BIT(COUNTER),
	},
	[MLX5DM_STE_DIR_TX] = {
		[MLX5DM_STE_ST_START] = ALL,
		[MLX5DM_STE_ST_NON_TERM] = ALL,
		[MLX5DM_STE_ST_MODIFY] = BIT(DEST_TABLE) | BIT(COUNTER) | BIT(PUSH_VLAN) | ENCAP,
		[MLX5DM_STE_ST_POP] = BIT(DEST_TABLE) | BIT(COUNTER) | BIT(POP_VLAN) |
				      BIT(PUSH_VLAN) | BIT(MODIFY_HDR) | ENCAP,
		[MLX5DM_STE_ST_PUSH] = BIT(DEST_TABLE) | BIT(COUNTER) | BIT(PUSH_VLAN) | ENCAP,
		[MLX5DM_STE_ST_ENCAP] = BIT(DEST_TABLE) | BIT(COUNTER),
		[MLX5DM_STE_ST_TERM] = BIT(COUNTER),
	},
};

/* Families of actions that count together (encap_l2 and encap_l3 are both "encap"). */
enum mlx5dm_ste_act_family {
	MLX5DM_STE_FAM_COUNTER,
	MLX5DM_STE_FAM_FLOW_TAG,
	MLX5DM_STE_FAM_DECAP,
	MLX5DM_STE_FAM_MODIFY,
	MLX5DM_STE_FAM_POP,
	MLX5DM_STE_FAM_PUSH,
	MLX5DM_STE_FAM_ENCAP,
	MLX5DM_STE_FAM_TERM,
	MLX5DM_STE_FAM_MAX,
};

static const struct {
	const char *name;
	uint8_t max;		/* how often the family may appear in one list */
} mlx5dm_ste_families[MLX5DM_STE_FAM_MAX] = {
	[MLX5DM_STE_FAM_COUNTER] = { "counter", 1 },
	[MLX5DM_STE_FAM_FLOW_TAG] = { "flow_tag", 1 },
	[MLX5DM_STE_FAM_DECAP] = { "decap", 1 },
	[MLX5DM_STE_FAM_MODIFY] = { "modify_header", 1 },
	[MLX5DM_STE_FAM_POP] = { "pop_vlan", 2 },
	[MLX5DM_STE_FAM_PUSH] = { "push_vlan", 2 },
	[MLX5DM_STE_FAM_ENCAP] = { "encap", 1 },
	[MLX5DM_STE_FAM_TERM] = { "terminating", 1 },
};

/* Per action type: its name, family and the state it leads to (START = keep). */
static const struct {
	const char *name;
	uint8_t family;
	uint8_t next;
} mlx5dm_ste_act_info[MLX5DM_STE_ACTION_TYPE_MAX] = {
	[MLX5DM_STE_ACTION_COUNTER] = { "counter", MLX5DM_STE_FAM_COUNTER, MLX5DM_STE_ST_START },
	[MLX5DM_STE_ACTION_FLOW_TAG] = {
		"flow_tag", MLX5DM_STE_FAM_FLOW_TAG, MLX5DM_STE_ST_START },
	[MLX5DM_STE_ACTION_DECAP_L2] = { "decap_l2", MLX5DM_STE_FAM_DECAP, MLX5DM_STE_ST_DECAP },
	[MLX5DM_STE_ACTION_DECAP_L3] = { "decap_l3", MLX5DM_STE_FAM_DECAP, MLX5DM_STE_ST_DECAP },
	[MLX5DM_STE_ACTION_MODIFY_HDR] = {
		"modify_header", MLX5DM_STE_FAM_MODIFY, MLX5DM_STE_ST_MODIFY },
	[MLX5DM_STE_ACTION_POP_VLAN] = { "pop_vlan", MLX5DM_STE_FAM_POP, MLX5DM_STE_ST_POP },
	[MLX5DM_STE_ACTION_PUSH_VLAN] = { "push_vlan", MLX5DM_STE_FAM_PUSH, MLX5DM_STE_ST_PUSH },
	[MLX5DM_STE_ACTION_ENCAP_L2] = { "encap_l2", MLX5DM_STE_FAM_ENCAP, MLX5DM_STE_ST_ENCAP },
	[MLX5DM_STE_ACTION_ENCAP_L3] = { "encap_l3", MLX5DM_STE_FAM_ENCAP, MLX5DM_STE_ST_ENCAP },
	[MLX5DM_STE_ACTION_DROP] = { "drop", MLX5DM_STE_FAM_TERM, MLX5DM_STE_ST_TERM },
	[MLX5DM_STE_ACTION_DEST_TABLE] = {
		"dest_table", MLX5DM_STE_FAM_TERM, MLX5DM_STE_ST_TERM },
	[MLX5DM_STE_ACTION_DEST_TIR] = { "dest_tir", MLX5DM_STE_FAM_TERM, MLX5DM_STE_ST_TERM },
	[MLX5DM_STE_ACTION_DEFAULT_MISS] = {
		"default_miss", MLX5DM_STE_FAM_TERM, MLX5DM_STE_ST_TERM },
	[MLX5DM_STE_ACTION_DEST_VPORT] = { "dest_vport", MLX5DM_STE_FAM_TERM, MLX5DM_STE_ST_TERM },
};

const char *
mlx5dm_ste_action_name(enum mlx5dm_ste_action_type type)
{
	if ((unsigned int)type >= MLX5DM_STE_ACTION_TYPE_MAX)
		return "?";
	return mlx5dm_ste_act_info[type].name;
}

static const char *
mlx5dm_ste_side_name(const struct mlx5dm_ste_actions_attr *attr)
{
	static const char *const names[2][2] = {
		{ "NIC_RX", "NIC_TX" }, { "FDB_RX", "FDB_TX" },
	};

	return names[attr->domain == MLX5DM_STE_DOMAIN_FDB][attr->dir == MLX5DM_STE_DIR_TX];
}

/* Actions a side cannot take at all, whatever the order. */
static uint32_t
mlx5dm_ste_side_forbidden(const struct mlx5dm_ste_ctx *ctx,
			  const struct mlx5dm_ste_actions_attr *attr)
{
	bool fdb = attr->domain == MLX5DM_STE_DOMAIN_FDB;

	if (attr->dir == MLX5DM_STE_DIR_RX)
		/*
		 * A NIC RX domain only decapsulates, the FDB's RX side
		 * encapsulates too where the format can (rdma-core's
		 * RX_ENCAP); push needs a v1+ device. Tags and TIRs are
		 * NIC RX's, vports the FDB's.
		 */
		return (fdb && (ctx->caps & MLX5DM_STE_CAP_RX_ENCAP) ? 0 : ENCAP) |
		       (fdb ? BIT(FLOW_TAG) | BIT(DEST_TIR) : BIT(DEST_VPORT)) |
		       ((ctx->caps & MLX5DM_STE_CAP_RX_PUSH) ? 0 : BIT(PUSH_VLAN));
	/* TX: nothing to tag or decapsulate, no TIR; pop needs a v1+ device. */
	return BIT(FLOW_TAG) | DECAP | BIT(DEST_TIR) | (fdb ? 0 : BIT(DEST_VPORT)) |
	       ((ctx->caps & MLX5DM_STE_CAP_TX_POP) ? 0 : BIT(POP_VLAN));
}

/* Parameter checks of single actions. */
static int
mlx5dm_ste_check_params(const struct mlx5dm_ste_ctx *ctx, const struct mlx5dm_ste_action *a,
			int i, struct mlx5dm_ste_action_err *err)
{
	const struct mlx5dm_ste_modify_ref *m = &a->modify;
	uint16_t tpid;

	switch (a->type) {
	case MLX5DM_STE_ACTION_MODIFY_HDR:
	case MLX5DM_STE_ACTION_DECAP_L3:
		if (m->mode > MLX5DM_STE_MODIFY_PATTERN || m->num_actions == 0 ||
		    (m->mode == MLX5DM_STE_MODIFY_INLINE &&
		     (m->num_actions != 1 || a->type == MLX5DM_STE_ACTION_DECAP_L3 ||
		      !(ctx->caps & MLX5DM_STE_CAP_MODIFY_INLINE)))) {
			mlx5dm_ste_action_err_set(err, i, "%s: invalid action list reference",
						  mlx5dm_ste_action_name(a->type));
			return -EINVAL;
		}
		return 0;
	case MLX5DM_STE_ACTION_PUSH_VLAN:
		tpid = (uint16_t)(a->vlan_hdr >> 16);
		if (tpid != 0x8100 && tpid != 0x88a8) {
			mlx5dm_ste_action_err_set(err, i, "push_vlan with TPID 0x%04x", tpid);
			return -EINVAL;
		}
		return 0;
	case MLX5DM_STE_ACTION_ENCAP_L2:
	case MLX5DM_STE_ACTION_ENCAP_L3:
		if (a->encap.size == 0 || mlx5dm_ste_encap_check(a->encap.size, 0) < 0) {
			mlx5dm_ste_action_err_set(err, i, "%s: header size %u not encodable",
						  mlx5dm_ste_action_name(a->type), a->encap.size);
			return -EINVAL;
		}
		return 0;
	default:
		return 0;
	}
}

static void
mlx5dm_ste_collect(const struct mlx5dm_ste_action *a, const struct mlx5dm_ste_actions_attr *attr,
		   struct mlx5dm_ste_actions_set *set)
{
	set->present |= 1u << a->type;
	switch (a->type) {
	case MLX5DM_STE_ACTION_COUNTER:
		set->counter_id = a->counter_id;
		break;
	case MLX5DM_STE_ACTION_FLOW_TAG:
		set->flow_tag = a->flow_tag;
		break;
	case MLX5DM_STE_ACTION_DECAP_L3:
		set->decap_l3 = &a->modify;
		break;
	case MLX5DM_STE_ACTION_MODIFY_HDR:
		set->modify = &a->modify;
		break;
	case MLX5DM_STE_ACTION_POP_VLAN:
		set->n_pop++;
		break;
	case MLX5DM_STE_ACTION_PUSH_VLAN:
		set->push_hdr[set->n_push++] = a->vlan_hdr;
		break;
	case MLX5DM_STE_ACTION_ENCAP_L2:
	case MLX5DM_STE_ACTION_ENCAP_L3:
		set->encap_index = a->encap.index;
		set->encap_size = a->encap.size;
		break;
	case MLX5DM_STE_ACTION_DROP:
		/* Drop addresses belong to the firmware's GVMI, kept in bits 63:48. */
		set->final_icm_addr = a->icm_addr;
		set->final_gvmi = (uint16_t)(a->icm_addr >> 48);
		break;
	case MLX5DM_STE_ACTION_DEST_TABLE:
	case MLX5DM_STE_ACTION_DEST_TIR:
		set->final_icm_addr = a->icm_addr;
		set->final_gvmi = attr->gvmi;
		break;
	case MLX5DM_STE_ACTION_DEST_VPORT:
		/* The vport's entry belongs to the e-switch manager (rdma-core's vhca_gvmi). */
		set->final_icm_addr = a->vport.icm_addr;
		set->final_gvmi = a->vport.gvmi;
		break;
	default:
		break;
	}
}

static int
mlx5dm_ste_validate(const struct mlx5dm_ste_ctx *ctx, const struct mlx5dm_ste_actions_attr *attr,
		    const struct mlx5dm_ste_action *acts, unsigned int n_acts,
		    struct mlx5dm_ste_actions_set *set, struct mlx5dm_ste_action_err *err)
{
	uint8_t count[MLX5DM_STE_FAM_MAX] = { 0 };
	enum mlx5dm_ste_act_state st = MLX5DM_STE_ST_START;
	uint32_t forbidden;
	unsigned int i;
	int ret;

	if (ctx == NULL || attr == NULL || (acts == NULL && n_acts != 0) ||
	    attr->dir > MLX5DM_STE_DIR_TX) {
		mlx5dm_ste_action_err_set(err, -1, "invalid arguments");
		return -EINVAL;
	}
	if (attr->domain != MLX5DM_STE_DOMAIN_NIC && attr->domain != MLX5DM_STE_DOMAIN_FDB) {
		mlx5dm_ste_action_err_set(err, -1, "invalid arguments");
		return -EINVAL;
	}
	memset(set, 0, sizeof(*set));
	set->dir = attr->dir;
	set->final_icm_addr = attr->default_icm_addr;
	set->final_gvmi = attr->gvmi;
	forbidden = mlx5dm_ste_side_forbidden(ctx, attr);
	for (i = 0; i < n_acts; i++) {
		const struct mlx5dm_ste_action *a = &acts[i];
		const char *name = mlx5dm_ste_action_name(a->type);
		unsigned int fam;

		if ((unsigned int)a->type >= MLX5DM_STE_ACTION_TYPE_MAX) {
			mlx5dm_ste_action_err_set(err, (int)i, "unknown action type %d", a->type);
			return -EINVAL;
		}
		if (forbidden & (1u << a->type)) {
			mlx5dm_ste_action_err_set(err, (int)i, "%s on %s", name,
						  mlx5dm_ste_side_name(attr));
			return -EOPNOTSUPP;
		}
		fam = mlx5dm_ste_act_info[a->type].family;
		if (count[fam] == mlx5dm_ste_families[fam].max) {
			mlx5dm_ste_action_err_set(err, (int)i, "%s %s actions",
						  count[fam] == 1 ? "two" : "more than two",
						  mlx5dm_ste_families[fam].name);
			return -EOPNOTSUPP;
		}
		/* A vport is a destination as a table is. */
		if (!(mlx5dm_ste_nic_allowed[attr->dir][st] &
		      (1u << (a->type == MLX5DM_STE_ACTION_DEST_VPORT ?
			      MLX5DM_STE_ACTION_DEST_TABLE : a->type)))) {
			mlx5dm_ste_action_err_set(err, (int)i, "%s after %s on %s", name,
						  mlx5dm_ste_state_names[st],
						  mlx5dm_ste_side_name(attr));
			return -EOPNOTSUPP;
		}
		ret = mlx5dm_ste_check_params(ctx, a, (int)i, err);
		if (ret < 0)
			return ret;
		count[fam]++;
		if (mlx5dm_ste_act_info[a->type].next != MLX5DM_STE_ST_START)
			st = mlx5dm_ste_act_info[a->type].next;
		else if (st == MLX5DM_STE_ST_START)
			st = MLX5DM_STE_ST_NON_TERM;
		mlx5dm_ste_collect(a, attr, set);
	}
	return 0;
}

int
mlx5dm_ste_check_actions(const struct mlx5dm_ste_ctx *ctx,
			 const struct mlx5dm_ste_actions_attr *attr,
			 const struct mlx5dm_ste_action *acts, unsigned int n_acts,
			 struct mlx5dm_ste_action_err *err)
{
	struct mlx5dm_ste_actions_set set;

	return mlx5dm_ste_validate(ctx, attr, acts, n_acts, &set, err);
}

int
mlx5dm_ste_set_actions(const struct mlx5dm_ste_ctx *ctx,
		       const struct mlx5dm_ste_actions_attr *attr,
		       const struct mlx5dm_ste_action *acts, unsigned int n_acts,
		       uint8_t *last_ste, unsigned int max_extra, unsigned int *n_extra,
		       struct mlx5dm_ste_action_err *err)
{
	struct mlx5dm_ste_actions_set set;
	int ret;

	ret = mlx5dm_ste_validate(ctx, attr, acts, n_acts, &set, err);
	if (ret < 0)
		return ret;
	if (last_ste == NULL || n_extra == NULL) {
		mlx5dm_ste_action_err_set(err, -1, "invalid arguments");
		return -EINVAL;
	}
	return ctx->place_actions(ctx, &set, attr->gvmi, last_ste, max_extra, n_extra, err);
}

int
mlx5dm_ste_vlan_hdr(uint16_t tpid, uint16_t tci, uint32_t *hdr)
{
	if (tpid != 0x8100 && tpid != 0x88a8)
		return -EINVAL;
	*hdr = (uint32_t)tpid << 16 | tci;
	return 0;
}

int
mlx5dm_ste_encap_check(size_t size, unsigned int max_encap_header_size)
{
	/* The insert size is a 6-bit count of 2-byte words. */
	if (size % 2 != 0 || size > 126)
		return -EINVAL;
	if (max_encap_header_size != 0 && size > max_encap_header_size)
		return -EINVAL;
	return 0;
}
