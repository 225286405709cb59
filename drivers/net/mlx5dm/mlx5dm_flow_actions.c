/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The action walk. Header changes come in the device's order (decap, pop,
 * modify, push, encap) or are refused, not reordered. At most one fate;
 * ingress rules need one, egress rules without one go to the wire.
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_flow.h"

enum {
	MLX5DM_FLOW_DIR_IN = 1u << 0,
	MLX5DM_FLOW_DIR_OUT = 1u << 1,
	MLX5DM_FLOW_DIR_ANY = MLX5DM_FLOW_DIR_IN | MLX5DM_FLOW_DIR_OUT,
};

typedef int (*mlx5dm_flow_act_fn)(struct mlx5dm_flow_translation *x,
				  const struct rte_flow_action *a, struct rte_flow_error *error);

struct mlx5dm_flow_act_def {
	uint8_t dir;                /* MLX5DM_FLOW_DIR_*; 0: not supported */
	const char *dir_msg;        /* static: why not in the other direction */
	bool conf;                  /* needs a configuration */
	mlx5dm_flow_act_fn fn;      /* NULL: nothing but the fields below */
	uint8_t fate;               /* enum mlx5dm_flow_fate it decides (NONE: none) */
	uint16_t once;              /* MLX5DM_FLOW_A_* of which a rule has one at most */
};

/* Refusal of a second action of one MLX5DM_FLOW_A_* bit, by bit number. */
static const char *const mlx5dm_flow_once_msgs[] = {
	"only one fate action (QUEUE, RSS, DROP, JUMP) per rule",
	"only one COUNT action per rule",
	"only one MARK or FLAG action per rule",
	"only one decap action per rule",
	"only one encap action per rule",
};

static int
mlx5dm_flow_act_jump(struct mlx5dm_flow_translation *x, const struct rte_flow_action *a,
		     struct rte_flow_error *error)
{
	const struct rte_flow_action_jump *j = a->conf;

	/* SW-owned tables may only forward to deeper levels. */
	if (j->group <= x->spec->group)
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
					  "JUMP target group must be higher than the rule's group");
	if (j->group > MLX5DM_FLOW_MAX_GROUP)
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
					  "JUMP target group must be below 4294967295");
	x->spec->jump_group = j->group;
	return 0;
}

/* MARK / FLAG: the CQE flow tag (mlx5dm_flow_tag_decode()). */
static int
mlx5dm_flow_act_mark(struct mlx5dm_flow_translation *x, const struct rte_flow_action *a,
		     struct rte_flow_error *error)
{
	const struct rte_flow_action_mark *m = a->conf;

	x->spec->tag = true;
	if (a->type == RTE_FLOW_ACTION_TYPE_FLAG) {
		x->spec->tag_value = MLX5DM_FLOW_TAG_FLAG;
		return 0;
	}
	if (m->id > MLX5DM_FLOW_MARK_MAX)
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
					  "MARK id must be at most 0xfffffd");
	x->spec->tag_value = m->id + 1;
	return 0;
}

static int
mlx5dm_flow_act_push(struct mlx5dm_flow_translation *x, const struct rte_flow_action *a,
		     struct rte_flow_error *error)
{
	const struct rte_flow_action_of_push_vlan *p = a->conf;
	struct mlx5dm_flow_spec *spec = x->spec;
	uint16_t tpid = rte_be_to_cpu_16(p->ethertype);
	int ret;

	if (tpid != RTE_ETHER_TYPE_VLAN && tpid != RTE_ETHER_TYPE_QINQ)
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
					  "OF_PUSH_VLAN EtherType must be 0x8100 or 0x88a8");
	if (spec->nb_push == MLX5DM_FLOW_MAX_VLAN_PUSH)
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION, a,
					  "at most two OF_PUSH_VLAN actions per rule");
	ret = mlx5dm_flow_stage_enter(x, MLX5DM_FLOW_STAGE_PUSH, a, error);
	if (ret < 0)
		return ret;
	x->push_act[spec->nb_push] = a;
	spec->push[spec->nb_push++] = (struct mlx5dm_flow_push){ .tpid = tpid };
	x->seen |= MLX5DM_FLOW_A_PUSH;
	return 0;
}

/* OF_SET_VLAN_VID/PCP: the header just pushed, else (VID only) the packet's tag. */
static int
mlx5dm_flow_act_vlan_set(struct mlx5dm_flow_translation *x, const struct rte_flow_action *a,
			 struct rte_flow_error *error)
{
	struct mlx5dm_flow_spec *spec = x->spec;
	unsigned int i = spec->nb_push != 0 ? spec->nb_push - 1u : 0;
	struct mlx5dm_flow_push *p = &spec->push[i];

	if (a->type == RTE_FLOW_ACTION_TYPE_OF_SET_VLAN_PCP) {
		const struct rte_flow_action_of_set_vlan_pcp *c = a->conf;

		if (c->vlan_pcp > 7)
			return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
						  "VLAN PCP must be 0 to 7");
		if (spec->nb_push == 0)
			return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION, a,
						  "OF_SET_VLAN_PCP is supported only after "
						  "OF_PUSH_VLAN");
		p->tci = (uint16_t)((p->tci & 0x1fff) | c->vlan_pcp << 13);
		x->push_pcp_set[i] = true;
	} else {
		const struct rte_flow_action_of_set_vlan_vid *c = a->conf;
		uint16_t vid = rte_be_to_cpu_16(c->vlan_vid);

		if (vid > 0xffe)
			return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
						  "VLAN VID must be at most 0xffe");
		if (spec->nb_push == 0)
			return mlx5dm_flow_translate_set(x, a, error);
		p->tci = (uint16_t)((p->tci & 0xf000) | vid);
		x->push_vid_set[i] = true;
	}
	return 0;
}

static int
mlx5dm_flow_act_pop(struct mlx5dm_flow_translation *x, const struct rte_flow_action *a,
		    struct rte_flow_error *error)
{
	struct mlx5dm_flow_spec *spec = x->spec;
	uint32_t l = mlx5dm_flow_action_layers(x);
	unsigned int tags = !!(l & MLX5DM_FLOW_L_VLAN) + !!(l & MLX5DM_FLOW_L_VLAN2);
	int ret;

	if (spec->nb_pop >= tags)
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION, a,
					  "OF_POP_VLAN needs a VLAN item per popped tag in the "
					  "pattern");
	ret = mlx5dm_flow_stage_enter(x, MLX5DM_FLOW_STAGE_POP, a, error);
	if (ret < 0)
		return ret;
	spec->nb_pop++;
	x->seen |= MLX5DM_FLOW_A_POP;
	return 0;
}

/*
 * A decap or encap: its own conditions, the stage order, then what it
 * decides. RAW_DECAP / RAW_ENCAP are a decap on ingress, an encap on
 * egress, their types resolved once both are known.
 */
static int
mlx5dm_flow_act_reformat(struct mlx5dm_flow_translation *x, const struct rte_flow_action *a,
			 struct rte_flow_error *error)
{
	const struct rte_flow_action_raw_encap *e = a->conf;
	struct mlx5dm_flow_spec *spec = x->spec;
	size_t len = sizeof(spec->encap_data);
	int ret;

	switch (a->type) {
	case RTE_FLOW_ACTION_TYPE_VXLAN_DECAP:
		if (!(spec->layers & MLX5DM_FLOW_L_VXLAN))
			return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION, a,
						  "VXLAN_DECAP needs a VXLAN item in the pattern");
		break;
	case RTE_FLOW_ACTION_TYPE_RAW_DECAP:
		if (x->raw_encap != NULL)
			return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION, a,
						  "RAW_DECAP must come before RAW_ENCAP");
		break;
	case RTE_FLOW_ACTION_TYPE_RAW_ENCAP:
		if (e->data == NULL || e->size == 0)
			return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_CONF,
						  a, "RAW_ENCAP data is empty");
		if (e->preserve != NULL)
			return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION_CONF,
						  a, "RAW_ENCAP preserve is not supported");
		break;
	default:
		break;
	}
	/* VXLAN_ENCAP is egress only, VXLAN_DECAP ingress only (the action table). */
	ret = mlx5dm_flow_stage_enter(x, spec->egress ? MLX5DM_FLOW_STAGE_ENCAP :
				      MLX5DM_FLOW_STAGE_DECAP, a, error);
	if (ret < 0)
		return ret;
	switch (a->type) {
	case RTE_FLOW_ACTION_TYPE_VXLAN_DECAP:
		spec->decap = true;
		spec->decap_type = MLX5DM_REFORMAT_L2_TUNNEL_TO_L2;
		return 0;
	case RTE_FLOW_ACTION_TYPE_VXLAN_ENCAP:
		ret = mlx5dm_flow_vxlan_encap_build(a, spec->encap_data, &len, error);
		if (ret < 0)
			return ret;
		spec->encap = true;
		spec->encap_type = MLX5DM_REFORMAT_L2_TO_L2_TUNNEL;
		spec->encap_len = (uint16_t)len;
		return 0;
	case RTE_FLOW_ACTION_TYPE_RAW_DECAP:
		x->raw_decap = a->conf;
		x->raw_decap_act = a;
		spec->decap |= !spec->egress;
		return 0;
	default:
		x->raw_encap = a->conf;
		x->raw_encap_act = a;
		return 0;
	}
}

#define IN MLX5DM_FLOW_DIR_IN
#define OUT MLX5DM_FLOW_DIR_OUT
#define ANY MLX5DM_FLOW_DIR_ANY
#define FATE(f) MLX5DM_FLOW_FATE_ ## f, MLX5DM_FLOW_A_FATE

/* By action type (the walk skips VOID). */
static const struct mlx5dm_flow_act_def mlx5dm_flow_act_defs[] = {
	[RTE_FLOW_ACTION_TYPE_DROP] = { ANY, NULL, false, NULL, FATE(DROP) },
	[RTE_FLOW_ACTION_TYPE_QUEUE] = { IN, "QUEUE is an ingress action", true,
					 mlx5dm_flow_translate_queue, FATE(QUEUE) },
	[RTE_FLOW_ACTION_TYPE_RSS] = { IN, "RSS is an ingress action", true,
				       mlx5dm_flow_translate_rss, FATE(QUEUE) },
	[RTE_FLOW_ACTION_TYPE_JUMP] = { ANY, NULL, true, mlx5dm_flow_act_jump, FATE(JUMP) },
	[RTE_FLOW_ACTION_TYPE_COUNT] = { ANY, NULL, false, NULL, 0, MLX5DM_FLOW_A_COUNT },
	[RTE_FLOW_ACTION_TYPE_MARK] = { IN, "MARK is an ingress action", true,
					mlx5dm_flow_act_mark, 0, MLX5DM_FLOW_A_MARK },
	[RTE_FLOW_ACTION_TYPE_FLAG] = { IN, "FLAG is an ingress action", false,
					mlx5dm_flow_act_mark, 0, MLX5DM_FLOW_A_MARK },
	[RTE_FLOW_ACTION_TYPE_SET_MAC_SRC] = { ANY, NULL, true, mlx5dm_flow_translate_set },
	[RTE_FLOW_ACTION_TYPE_SET_MAC_DST] = { ANY, NULL, true, mlx5dm_flow_translate_set },
	[RTE_FLOW_ACTION_TYPE_SET_IPV4_SRC] = { ANY, NULL, true, mlx5dm_flow_translate_set },
	[RTE_FLOW_ACTION_TYPE_SET_IPV4_DST] = { ANY, NULL, true, mlx5dm_flow_translate_set },
	[RTE_FLOW_ACTION_TYPE_SET_IPV6_SRC] = { ANY, NULL, true, mlx5dm_flow_translate_set },
	[RTE_FLOW_ACTION_TYPE_SET_IPV6_DST] = { ANY, NULL, true, mlx5dm_flow_translate_set },
	[RTE_FLOW_ACTION_TYPE_SET_TP_SRC] = { ANY, NULL, true, mlx5dm_flow_translate_set },
	[RTE_FLOW_ACTION_TYPE_SET_TP_DST] = { ANY, NULL, true, mlx5dm_flow_translate_set },
	[RTE_FLOW_ACTION_TYPE_SET_TTL] = { ANY, NULL, true, mlx5dm_flow_translate_set },
	[RTE_FLOW_ACTION_TYPE_DEC_TTL] = { ANY, NULL, false, mlx5dm_flow_translate_set },
	[RTE_FLOW_ACTION_TYPE_INC_TCP_SEQ] = { ANY, NULL, true, mlx5dm_flow_translate_set },
	[RTE_FLOW_ACTION_TYPE_DEC_TCP_SEQ] = { ANY, NULL, true, mlx5dm_flow_translate_set },
	[RTE_FLOW_ACTION_TYPE_INC_TCP_ACK] = { ANY, NULL, true, mlx5dm_flow_translate_set },
	[RTE_FLOW_ACTION_TYPE_DEC_TCP_ACK] = { ANY, NULL, true, mlx5dm_flow_translate_set },
	[RTE_FLOW_ACTION_TYPE_SET_IPV4_DSCP] = { ANY, NULL, true, mlx5dm_flow_translate_set },
	[RTE_FLOW_ACTION_TYPE_SET_TAG] = { ANY, NULL, true, mlx5dm_flow_translate_set_reg },
	[RTE_FLOW_ACTION_TYPE_SET_META] = { ANY, NULL, true, mlx5dm_flow_translate_set_reg },
	[RTE_FLOW_ACTION_TYPE_MODIFY_FIELD] = { ANY, NULL, true,
						mlx5dm_flow_translate_modify_field },
	[RTE_FLOW_ACTION_TYPE_OF_PUSH_VLAN] = { ANY, NULL, true, mlx5dm_flow_act_push },
	[RTE_FLOW_ACTION_TYPE_OF_SET_VLAN_VID] = { ANY, NULL, true, mlx5dm_flow_act_vlan_set },
	[RTE_FLOW_ACTION_TYPE_OF_SET_VLAN_PCP] = { ANY, NULL, true, mlx5dm_flow_act_vlan_set },
	[RTE_FLOW_ACTION_TYPE_OF_POP_VLAN] = { ANY, NULL, false, mlx5dm_flow_act_pop },
	[RTE_FLOW_ACTION_TYPE_VXLAN_ENCAP] = { OUT, "VXLAN_ENCAP is an egress action (NIC RX "
					       "cannot encapsulate)", true,
					       mlx5dm_flow_act_reformat, 0,
					       MLX5DM_FLOW_A_ENCAP },
	[RTE_FLOW_ACTION_TYPE_VXLAN_DECAP] = { IN, "VXLAN_DECAP is an ingress action (NIC TX "
					       "cannot decapsulate)", false,
					       mlx5dm_flow_act_reformat, 0,
					       MLX5DM_FLOW_A_DECAP },
	[RTE_FLOW_ACTION_TYPE_RAW_ENCAP] = { ANY, NULL, true, mlx5dm_flow_act_reformat, 0,
					     MLX5DM_FLOW_A_ENCAP },
	[RTE_FLOW_ACTION_TYPE_RAW_DECAP] = { ANY, NULL, false, mlx5dm_flow_act_reformat, 0,
					     MLX5DM_FLOW_A_DECAP },
};

#undef IN
#undef OUT
#undef ANY
#undef FATE

static const struct mlx5dm_flow_act_def *
mlx5dm_flow_act_def_get(enum rte_flow_action_type type)
{
	/* PMD-private types are negative: out of the table as unsigned. */
	if ((unsigned int)type >= RTE_DIM(mlx5dm_flow_act_defs) ||
	    mlx5dm_flow_act_defs[type].dir == 0)
		return NULL;
	return &mlx5dm_flow_act_defs[type];
}

bool
mlx5dm_flow_action_known(enum rte_flow_action_type type)
{
	return type == RTE_FLOW_ACTION_TYPE_VOID || mlx5dm_flow_act_def_get(type) != NULL;
}

/* VID / PCP of pushed headers not set by an action: from the matched VLAN. */
static int
mlx5dm_flow_push_finish(struct mlx5dm_flow_translation *x, struct rte_flow_error *error)
{
	struct mlx5dm_flow_spec *spec = x->spec;
	uint32_t vid_m, prio_m;
	unsigned int i;

	if (spec->nb_push == 0)
		return 0;
	vid_m = mlx5dm_flow_match_mask(x, MLX5DM_FTE(outer, first_vid));
	prio_m = mlx5dm_flow_match_mask(x, MLX5DM_FTE(outer, first_prio));
	for (i = 0; i < spec->nb_push; i++) {
		struct mlx5dm_flow_push *p = &spec->push[i];

		if (!x->push_vid_set[i]) {
			if (!(spec->layers & MLX5DM_FLOW_L_VLAN) || vid_m != 0xfff)
				return rte_flow_error_set(error, EINVAL,
							  RTE_FLOW_ERROR_TYPE_ACTION,
							  x->push_act[i],
							  "OF_PUSH_VLAN needs OF_SET_VLAN_VID or a "
							  "VLAN item with a fully masked VID");
			p->tci = (uint16_t)((p->tci & 0xf000) |
				 mlx5dm_flow_match_value(x, MLX5DM_FTE(outer, first_vid)));
		}
		if (!x->push_pcp_set[i] && (spec->layers & MLX5DM_FLOW_L_VLAN) && prio_m == 0x7)
			p->tci = (uint16_t)((p->tci & 0x1fff) |
				 mlx5dm_flow_match_value(x, MLX5DM_FTE(outer, first_prio)) << 13);
	}
	return 0;
}

static int
mlx5dm_flow_actions_finish(struct mlx5dm_flow_translation *x, struct rte_flow_error *error)
{
	struct mlx5dm_flow_spec *spec = x->spec;
	const uint32_t changes = MLX5DM_FLOW_A_DECAP | MLX5DM_FLOW_A_ENCAP | MLX5DM_FLOW_A_MODIFY |
				 MLX5DM_FLOW_A_POP | MLX5DM_FLOW_A_PUSH;
	int ret;

	if (spec->fate == MLX5DM_FLOW_FATE_NONE && !spec->egress)
		return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION, x->actions,
					  "ingress rules need a fate action: QUEUE, RSS, DROP or "
					  "JUMP");
	if (spec->fate == MLX5DM_FLOW_FATE_DROP && (x->seen & changes))
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION, x->fate_act,
					  "DROP cannot be combined with header changes");
	/*
	 * Nothing reads a dropped packet's registers: no modify header, which
	 * rdma-core's NIC action order could not put before a drop anyway.
	 */
	if (spec->fate == MLX5DM_FLOW_FATE_DROP)
		spec->nb_modify = 0;
	ret = mlx5dm_flow_translate_reformat(x, error);
	if (ret < 0)
		return ret;
	ret = mlx5dm_flow_push_finish(x, error);
	if (ret < 0)
		return ret;
	/* A later group's MARK item sees the mark (a MARK's tag is its id + 1) through reg_c_0. */
	if (spec->tag && spec->tag_value != MLX5DM_FLOW_TAG_FLAG &&
	    spec->fate == MLX5DM_FLOW_FATE_JUMP) {
		ret = mlx5dm_flow_modify_set(x, x->fate_act, MLX5DM_MODIFY_FLD_METADATA_REG_C_0, 0,
					     0, (spec->tag_value - 1) | MLX5DM_FLOW_MARK_REG_FLAG,
					     error);
		if (ret < 0)
			return ret;
	}
	/* NIC RX takes a push after a pop only once a modify header sits between them. */
	if (!spec->egress && spec->nb_pop != 0 && spec->nb_push != 0 && spec->nb_modify == 0)
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION,
					  x->push_act[0], "on ingress, OF_PUSH_VLAN cannot follow "
					  "OF_POP_VLAN without a field change between them");
	return mlx5dm_flow_rss_expand(x, error);
}

int
mlx5dm_flow_translate_actions(struct mlx5dm_flow_translation *x,
			      const struct rte_flow_action actions[], struct rte_flow_error *error)
{
	const struct rte_flow_action *a;
	int ret;

	if (actions == NULL)
		return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_NUM, NULL,
					  "action list is missing");
	x->actions = actions;
	for (a = actions; a->type != RTE_FLOW_ACTION_TYPE_END; a++) {
		const struct mlx5dm_flow_act_def *def = mlx5dm_flow_act_def_get(a->type);
		uint8_t dir = x->spec->egress ? MLX5DM_FLOW_DIR_OUT : MLX5DM_FLOW_DIR_IN;

		if (a->type == RTE_FLOW_ACTION_TYPE_VOID)
			continue;
		if (def == NULL)
			return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION, a,
						  mlx5dm_flow_type_msg(true, a->type));
		if (!(def->dir & dir))
			return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION, a,
						  def->dir_msg);
		if (def->conf && a->conf == NULL)
			return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_CONF,
						  a, mlx5dm_flow_named_msg(true, a->type,
						  "action configuration is missing"));
		if (x->seen & def->once)
			return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION, a,
						  mlx5dm_flow_once_msgs[__builtin_ctz(def->once)]);
		x->seen |= def->once;
		if (def->fate != MLX5DM_FLOW_FATE_NONE) {
			x->fate_act = a;
			x->spec->fate = def->fate;
		}
		ret = def->fn != NULL ? def->fn(x, a, error) : 0;
		if (ret < 0)
			return ret;
	}
	x->spec->count = (x->seen & MLX5DM_FLOW_A_COUNT) != 0;
	return mlx5dm_flow_actions_finish(x, error);
}
