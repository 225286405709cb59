/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The E-Switch side of the PMD: representor ports and transfer rules, as
 * DPDK mlx5 gives them in switchdev mode (doc/guides/nics/mlx5.rst,
 * "E-Switch"; mlx5_flow_dv.c for the port items and actions).
 *
 * Port 0 of a vdev with representors is the E-Switch manager and the
 * uplink's representor; each listed VF has a representor port, which has
 * no device of its own: its queues are the manager's, and a frame of its
 * VF that misses the FDB reaches the manager's NIC RX stamped with the
 * VF's vport metadata (metadata_reg_c_0), where a rule of the manager's
 * root table matching that stamp sends it to the representor's table: its
 * NIC rules, then its Rx queues. What it sends goes to its VF by an FDB
 * rule on each of its send queues, in the catch group.
 *
 * Transfer rules (attr.transfer, on the manager or a representor) go into
 * the manager's FDB domain through the full translation of their pattern
 * (mlx5dm_flow_translate_items(): no compiled template), with the port items
 * and the FDB's actions translated here (mlx5dm_esw_spec_of()), as flows
 * of the manager's flow pool inserted by its begin/insert/commit, like a
 * transfer template table's; a synchronous one keeps a record past its
 * rules (struct mlx5dm_esw_record). Groups are FDB tables, group 0 the FDB
 * root; tables and matchers (a representor's table too) are entries of
 * the manager's flow caches (mlx5dm_flow_cache.c), keyed by domain as NIC
 * ones are. What the manager's vport sends and no transfer
 * rule decides for goes to the catch group (MLX5DM_ESW_CATCH_GROUP): a
 * representor's send queues to its VF, the rest to the wire (the manager
 * is the uplink's representor), so the frames of the wire enter the FDB
 * from the uplink.
 *
 * The rules of a transfer template table (mlx5dm_flow_template.c) take the
 * same translation (mlx5dm_esw_flow_spec()) into the flow path's spec.
 * A representor's NIC rules are flows of the manager's flow path too, in
 * the representor's table (MLX5DM_FLOW_DOM_REP()), to its Rx queues
 * (MLX5DM_ESW_REP_QUEUE()); the switch's own rules (tails, the catch
 * group's) are unlisted ones.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/queue.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_flow_driver.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_spinlock.h>
#include <ethdev_driver.h>

#include "mlx5dm.h"
#include "mlx5dm_dev.h"
#include "mlx5dm_flow.h"
#include "mlx5dm_flow_template.h"
#include "mlx5dm_log.h"
#include "mlx5dm_prm_match.h"
#include "mlx5dm_prm_modify.h"
#include "mlx5dm_steer.h"

/*
 * What the manager's vport sends (the manager's and the representors'
 * frames) and no transfer rule decides for goes by the catch group, behind
 * every group: there the representors' send queues go to their VFs, then
 * the rest to the wire. Each FDB group a transfer rule uses, group 0 too,
 * ends with a rule of the manager's vport to it (the group's tail), below
 * every rte_flow priority. So a transfer rule without a port item sees
 * what a representor sends, as in DPDK mlx5, whose SQ-miss flows go below
 * every rule of the user's group 0 (mlx5_flow.c:
 * mlx5_flow_create_devx_sq_miss_flow(); mlx5_flow_hw.c:
 * flow_hw_create_ctrl_sq_miss_flow()); and a frame a jump led to a group
 * where it misses still reaches its VF (or the wire) instead of the FDB's
 * default, the manager's own Rx.
 */
#define MLX5DM_ESW_MAX_PRIORITY 0xfffdu
#define MLX5DM_ESW_SQ_PRIORITY 0xfffeu      /* in the catch group */
#define MLX5DM_ESW_LAST_PRIORITY 0xffffu    /* tails; the catch group's rule to the wire */
#define MLX5DM_ESW_MAX_GROUP 0xfffeu
#define MLX5DM_ESW_CATCH_GROUP 0xffffu
#define MLX5DM_ESW_MAX_ACTIONS 8

/*
 * A transfer rule of rte_flow_create() (or a representor's NIC rule) is a
 * flow of the manager's flow pool like a template table's, with this
 * record past its rules (mlx5dm_flow_extra()), which also tells it from a
 * flow queue's.
 */
struct mlx5dm_esw_record {
	uint16_t port_id;       /* the port it was created through (flush, dump) */
	uint16_t sender;        /* PORT_REPRESENTOR: the port whose send queues; else none */
	uint32_t nb_tails;
	uint32_t tails[2];      /* the groups whose tails it holds: its own, its jump's */
};
_Static_assert(sizeof(struct mlx5dm_esw_record) <= sizeof(struct mlx5dm_flow_rule),
	       "one rule slot of the flow handle");

/* The tail of an FDB group: its last rule, to the catch group; held by its group's rules. */
struct mlx5dm_esw_tail {
	TAILQ_ENTRY(mlx5dm_esw_tail) next;
	uint32_t group;
	unsigned int users;
	struct rte_flow *f;
};

/*
 * A transfer template table's tails: its group's and those of the groups
 * its actions templates jump to (a jump fixed in the template), held while
 * the switch runs, as its rules live (they go at the manager's stop).
 */
struct mlx5dm_esw_table {
	TAILQ_ENTRY(mlx5dm_esw_table) next;
	const struct rte_flow_template_table *tbl;
	bool held;
	unsigned int nb_groups;
	uint32_t groups[1 + MLX5DM_FLOW_TMPL_MAX_PER_TABLE];
};

struct mlx5dm_esw {
	rte_spinlock_t lock;
	bool started;
	struct mlx5dm_flow_tbl *root;       /* FDB group 0, the switch's root */
	struct rte_flow *uplink;            /* the manager's frames to the wire (catch group) */
	TAILQ_HEAD(, mlx5dm_esw_tail) tails;
	TAILQ_HEAD(, mlx5dm_esw_table) tables;
	/*
	 * The representors' rules in the manager's NIC RX root: one matcher of
	 * the VFs' stamps at priority 0, made when the manager starts, so that
	 * it is walked before every matcher of the manager's own rules (equal
	 * priorities go in creation order) whenever a representor starts.
	 */
	struct mlx5dm_matcher *dispatch;
	/*
	 * The same in the manager's NIC TX root: the representors' send queues
	 * (source_sqn), let out before the manager's egress rules, which see
	 * the manager's own frames only, as rte_flow's egress rules of a port
	 * do (DPDK mlx5 tells them apart by a tag, repr_matching_en).
	 */
	struct mlx5dm_matcher *gate;
	struct rte_flow_ops mgr_ops;        /* the NIC ops with the transfer ones */
	struct rte_flow_ops rep_ops;        /* a representor's: transfer and its NIC rules */
};

/* A representor's steering: its Rx and NIC rules in the manager's NIC RX, its Tx in the FDB. */
struct mlx5dm_esw_rep {
	struct mlx5dm_flow_tbl *tbl;    /* its NIC rules, then its default */
	struct mlx5dm_action *to_tbl;
	struct mlx5dm_rule *rule;       /* in the manager's root: its VF's stamp */
	struct mlx5dm_tir *tir;         /* its default: all its Rx queues */
	struct mlx5dm_action *to_tir;
	struct mlx5dm_matcher *dm;
	struct mlx5dm_rule *drule;
	/*
	 * Its Tx: the frames of each of its send queues pass the manager's
	 * NIC TX (a rule of esw->gate) and go to its VF (FDB rules).
	 */
	uint16_t nb_tx;
	struct rte_flow *tx[MLX5DM_MAX_QUEUES];
	uint16_t nb_gate;
	struct mlx5dm_rule *gate[MLX5DM_MAX_QUEUES];
};

/* ---- rule queues of the manager's context ---- */

/* The queue of the calling thread; a thread that is not an EAL lcore takes the shared one. */
static uint16_t
mlx5dm_esw_queue_take(struct mlx5dm_priv *mgr, struct mlx5dm_flow_priv *fp)
{
	unsigned int lcore = rte_lcore_id();

	if (lcore != LCORE_ID_ANY && rte_lcore_is_enabled(lcore))
		return mgr->rule_queue[lcore];
	rte_spinlock_lock(&fp->any_lock);
	return mgr->rule_queue_any;
}

static void
mlx5dm_esw_queue_give(struct mlx5dm_priv *mgr, struct mlx5dm_flow_priv *fp, uint16_t queue)
{
	/* Rules are visible to frames sent after the call returns. */
	mlx5dm_queue_drain(mgr->steer, queue);
	if (queue == mgr->rule_queue_any)
		rte_spinlock_unlock(&fp->any_lock);
}

/* ---- the translation of a transfer rule ---- */

/* What a transfer rule becomes. */
struct mlx5dm_esw_spec {
	int32_t source;                 /* a vport, or -1: none (both halves) */
	struct mlx5dm_priv *sender;     /* PORT_REPRESENTOR: the port whose send queues */
	bool drop;
	bool count;
	bool jump;
	uint32_t jump_group;
	int32_t dest;                   /* a vport, or -1 */
	uint32_t stamp;                 /* to a representor's Rx: its reg_c_0 */
	bool pop;
	bool push;
	uint16_t tpid;
	uint16_t tci;
	/* A representor's NIC rule. */
	int32_t queue;                  /* QUEUE index, or -1 */
	bool tag;
	uint32_t tag_value;             /* MARK id, or the FLAG tag */
	struct mlx5dm_flow_spec spec;   /* the pattern's match (and its attributes), last */
};
/* What translation clears: the fields above and the spec's own. */
#define MLX5DM_ESW_SPEC_ZEROED (offsetof(struct mlx5dm_esw_spec, spec) + MLX5DM_FLOW_SPEC_ZEROED)

/*
 * The vport behind ethdev port_id for a port item or action of a rule on
 * a port of vdev sh: the manager is the uplink (or, for the
 * representor's own side, the manager's vport 0), a representor its VF.
 */
static int
mlx5dm_esw_port_vport(struct mlx5dm_shared *sh, uint32_t port_id, bool wire, uint16_t *vport,
		      struct mlx5dm_priv **out)
{
	struct mlx5dm_priv *p;
	struct rte_eth_dev *dev;

	if (port_id >= RTE_MAX_ETHPORTS || !rte_eth_dev_is_valid_port((uint16_t)port_id))
		return -ENODEV;
	dev = &rte_eth_devices[port_id];
	if (dev->dev_ops == NULL || dev->dev_ops->flow_ops_get != mlx5dm_esw_flow_ops_get)
		return -EXDEV;
	p = dev->data->dev_private;
	if (p->sh != sh || mlx5dm_esw_manager(p) == NULL)
		return -EXDEV;
	if (p->kind == MLX5DM_PORT_REPRESENTOR)
		*vport = p->vport;
	else
		*vport = wire ? MLX5DM_DEV_VPORT_UPLINK : 0;
	if (out != NULL)
		*out = p;
	return 0;
}

static int
mlx5dm_esw_port_err(struct rte_flow_error *error, int ret, bool action, int type,
		    const void *cause)
{
	return rte_flow_error_set(error, ret == -ENODEV ? ENODEV : EINVAL,
				  action ? RTE_FLOW_ERROR_TYPE_ACTION_CONF :
				  RTE_FLOW_ERROR_TYPE_ITEM_SPEC, cause,
				  mlx5dm_flow_named_msg(action, type, ret == -ENODEV ?
				  "no such ethdev port" :
				  "the port is not in this port's switch domain"));
}

/* A port item: its ethdev port id under a full mask (or the default one). */
static int
mlx5dm_esw_item_port(struct mlx5dm_priv *priv, const struct rte_flow_item *item,
		     struct mlx5dm_esw_spec *es, struct rte_flow_error *error)
{
	uint32_t id, mask;
	uint16_t vport;
	struct mlx5dm_priv *p;
	int ret;

	if (item->last != NULL)
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM_LAST, item,
					  mlx5dm_flow_named_msg(false, item->type,
					  "ranges are not supported"));
	if (es->source >= 0)
		return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ITEM, item,
					  mlx5dm_flow_named_msg(false, item->type,
					  "a rule has one source port item"));
	if (item->type == RTE_FLOW_ITEM_TYPE_PORT_ID) {
		const struct rte_flow_item_port_id *s = item->spec, *m = item->mask;

		if (s == NULL)
			goto no_spec;
		id = s->id;
		mask = m != NULL ? m->id : UINT32_MAX;
	} else {
		const struct rte_flow_item_ethdev *s = item->spec, *m = item->mask;

		if (s == NULL)
			goto no_spec;
		id = s->port_id;
		mask = m != NULL ? m->port_id : UINT16_MAX;
	}
	if ((item->type == RTE_FLOW_ITEM_TYPE_PORT_ID && mask != UINT32_MAX) ||
	    (item->type != RTE_FLOW_ITEM_TYPE_PORT_ID && mask != UINT16_MAX))
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM_MASK, item,
					  mlx5dm_flow_named_msg(false, item->type,
					  "the port is matched whole (full mask)"));
	ret = mlx5dm_esw_port_vport(priv->sh, id,
				    item->type != RTE_FLOW_ITEM_TYPE_PORT_REPRESENTOR, &vport, &p);
	if (ret < 0)
		return mlx5dm_esw_port_err(error, ret, false, item->type, item);
	es->source = vport;
	if (item->type != RTE_FLOW_ITEM_TYPE_PORT_REPRESENTOR)
		return 0;
	/*
	 * What the port sends: the manager's and its representors' frames all
	 * come from the manager's vport, told apart by their send queues, as
	 * DPDK mlx5 matches a representor's SQs (its internal item
	 * MLX5_RTE_FLOW_ITEM_TYPE_SQ, mlx5_flow.h); the queues are the started
	 * port's.
	 */
	if (!p->started || rte_eth_devices[p->port_id].data->nb_tx_queues == 0)
		return rte_flow_error_set(error, EAGAIN, RTE_FLOW_ERROR_TYPE_ITEM_SPEC, item,
					  mlx5dm_flow_named_msg(false, item->type,
					  "the port is not started or has no Tx queue"));
	es->source = 0;
	es->sender = p;
	return 0;
no_spec:
	return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ITEM_SPEC, item,
				  mlx5dm_flow_named_msg(false, item->type, "the port is missing"));
}

/* The pattern: port items here, the rest by the NIC translation (one level, no template). */
/* Header changes: what the NIC translation makes of them (modify lists, reformat data). */
static bool
mlx5dm_esw_is_header(enum rte_flow_action_type type)
{
	switch ((int)type) {
	case RTE_FLOW_ACTION_TYPE_SET_MAC_SRC:
	case RTE_FLOW_ACTION_TYPE_SET_MAC_DST:
	case RTE_FLOW_ACTION_TYPE_SET_IPV4_SRC:
	case RTE_FLOW_ACTION_TYPE_SET_IPV4_DST:
	case RTE_FLOW_ACTION_TYPE_SET_IPV4_DSCP:
	case RTE_FLOW_ACTION_TYPE_SET_IPV6_SRC:
	case RTE_FLOW_ACTION_TYPE_SET_IPV6_DST:
	case RTE_FLOW_ACTION_TYPE_SET_TP_SRC:
	case RTE_FLOW_ACTION_TYPE_SET_TP_DST:
	case RTE_FLOW_ACTION_TYPE_SET_TTL:
	case RTE_FLOW_ACTION_TYPE_DEC_TTL:
	case RTE_FLOW_ACTION_TYPE_INC_TCP_SEQ:
	case RTE_FLOW_ACTION_TYPE_DEC_TCP_SEQ:
	case RTE_FLOW_ACTION_TYPE_INC_TCP_ACK:
	case RTE_FLOW_ACTION_TYPE_DEC_TCP_ACK:
	case RTE_FLOW_ACTION_TYPE_MODIFY_FIELD:
	case RTE_FLOW_ACTION_TYPE_VXLAN_ENCAP:
	case RTE_FLOW_ACTION_TYPE_VXLAN_DECAP:
	case RTE_FLOW_ACTION_TYPE_RAW_ENCAP:
	case RTE_FLOW_ACTION_TYPE_RAW_DECAP:
		return true;
	default:
		return false;
	}
}

/*
 * The header changes of a transfer rule through the NIC translation, on
 * the pattern it translated: as egress (field changes, encap) unless the
 * rule decapsulates, then as ingress (decap, field changes), with a jump
 * standing in for the rule's fate, which is its own (a port, DROP, JUMP).
 * The FDB decapsulates on its RX side only (frames from the wire), as
 * rdma-core's FDB ingress action order allows (dr_action.c), and not with
 * an encapsulation.
 */
static int
mlx5dm_esw_headers(struct mlx5dm_flow_translation *x, const struct rte_flow_action actions[],
		   struct mlx5dm_esw_spec *es, struct rte_flow_error *error)
{
	struct rte_flow_action_jump next = { .group = es->spec.group + 1 };
	struct rte_flow_action list[MLX5DM_ESW_MAX_ACTIONS * 2];
	const struct rte_flow_action *a, *decap = NULL, *encap = NULL;
	unsigned int n = 0;

	for (a = actions; a->type != RTE_FLOW_ACTION_TYPE_END; a++) {
		if (!mlx5dm_esw_is_header(a->type))
			continue;
		if (n + 2 >= RTE_DIM(list))
			return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION, a,
						  "too many header changes");
		list[n++] = *a;
		if (a->type == RTE_FLOW_ACTION_TYPE_VXLAN_DECAP ||
		    a->type == RTE_FLOW_ACTION_TYPE_RAW_DECAP)
			decap = a;
		else if (a->type == RTE_FLOW_ACTION_TYPE_VXLAN_ENCAP ||
			 a->type == RTE_FLOW_ACTION_TYPE_RAW_ENCAP)
			encap = a;
	}
	if (decap != NULL && es->source != MLX5DM_DEV_VPORT_UPLINK)
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION, decap,
					  mlx5dm_flow_named_msg(true, decap->type,
					  "the FDB decapsulates frames from the wire only: match "
					  "the REPRESENTED_PORT of the PF"));
	/* A RAW_ENCAP after a RAW_DECAP is an L3 tunnel's new L2 header, an ingress change. */
	if (decap != NULL && encap != NULL && encap->type == RTE_FLOW_ACTION_TYPE_VXLAN_ENCAP)
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION, encap,
					  mlx5dm_flow_named_msg(true, encap->type,
					  "a transfer rule that decapsulates does not "
					  "encapsulate again"));
	if (n == 0)
		return 0;
	if (es->drop)
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION, actions,
					  "DROP cannot be combined with header changes");
	es->spec.egress = decap == NULL;
	if (decap != NULL)
		list[n++] = (struct rte_flow_action){
			.type = RTE_FLOW_ACTION_TYPE_JUMP, .conf = &next,
		};
	list[n] = (struct rte_flow_action){ .type = RTE_FLOW_ACTION_TYPE_END };
	return mlx5dm_flow_translate_actions(x, list, error);
}

static int
mlx5dm_esw_pattern(struct mlx5dm_priv *priv, const struct rte_flow_attr *attr,
		   const struct rte_flow_item pattern[], const struct rte_flow_action actions[],
		   struct mlx5dm_esw_spec *es, struct rte_flow_error *error)
{
	const char *what = attr->transfer ? "not supported in transfer rules" :
			   "not supported in a representor's rules";
	struct rte_flow_item items[64];
	struct mlx5dm_flow_context ctx = { .nb_rx_queues = 0 };
	struct mlx5dm_flow_translation x;
	unsigned int n;
	int ret;

	if (pattern == NULL)
		return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ITEM_NUM, NULL,
					  "the pattern is missing");
	for (n = 0; pattern[n].type != RTE_FLOW_ITEM_TYPE_END; n++) {
		if (n + 1 >= RTE_DIM(items))
			return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM,
						  &pattern[n], "too many pattern items");
		items[n] = pattern[n];
		switch ((int)pattern[n].type) {
		case RTE_FLOW_ITEM_TYPE_REPRESENTED_PORT:
		case RTE_FLOW_ITEM_TYPE_PORT_REPRESENTOR:
		case RTE_FLOW_ITEM_TYPE_PORT_ID:
			if (!attr->transfer)
				return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM,
							  &pattern[n], mlx5dm_flow_named_msg(false,
							  pattern[n].type, "a transfer item"));
			ret = mlx5dm_esw_item_port(priv, &pattern[n], es, error);
			if (ret < 0)
				return ret;
			items[n] = (struct rte_flow_item){ .type = RTE_FLOW_ITEM_TYPE_VOID };
			break;
		case RTE_FLOW_ITEM_TYPE_MARK:
		case RTE_FLOW_ITEM_TYPE_META:
		case RTE_FLOW_ITEM_TYPE_TAG:
			return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM,
						  &pattern[n], mlx5dm_flow_named_msg(false,
						  pattern[n].type, what));
		default:
			break;
		}
	}
	items[n] = pattern[n];
	memset(&x, 0, sizeof(x));
	x.ctx = &ctx;
	x.spec = &es->spec;
	es->spec.group = attr->group;
	es->spec.priority = attr->priority;
	ret = mlx5dm_flow_translate_items(&x, items, error);
	if (ret < 0)
		return ret;
	if (es->source >= 0) {
		mlx5dm_fte_set(es->spec.mask, MLX5DM_FTE(misc, source_port), 0xffff);
		mlx5dm_fte_set(es->spec.value, MLX5DM_FTE(misc, source_port), (uint32_t)es->source);
	}
	/* The send queue of each library rule of it (mlx5dm_esw_rule_insert()). */
	if (es->sender != NULL)
		mlx5dm_fte_set(es->spec.mask, MLX5DM_FTE(misc, source_sqn), 0xffffff);
	/* A representor's rules see its VF's frames only: its table is behind their stamp. */
	es->spec.criteria = mlx5dm_flow_match_criteria(es->spec.mask);
	return actions != NULL ? mlx5dm_esw_headers(&x, actions, es, error) : 0;
}

/* Refusal of an action the FDB does not take here. */
static int
mlx5dm_esw_action_refused(const struct rte_flow_action *a, struct rte_flow_error *error)
{
	return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION, a,
				  mlx5dm_flow_named_msg(true, a->type,
				  "not supported in transfer rules"));
}

static int
mlx5dm_esw_fate_twice(const struct rte_flow_action *a, struct rte_flow_error *error)
{
	return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION, a,
				  mlx5dm_flow_named_msg(true, a->type,
				  "a transfer rule has one fate (drop, jump or a port)"));
}

/* A port action: the vport (REPRESENTED_PORT, PORT_ID) or the representor's Rx. */
static int
mlx5dm_esw_action_port(struct mlx5dm_priv *priv, const struct rte_flow_action *a,
		       struct mlx5dm_esw_spec *es, struct rte_flow_error *error)
{
	struct mlx5dm_priv *p;
	uint16_t vport;
	uint32_t id;
	int ret;

	if (a->conf == NULL)
		return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
					  mlx5dm_flow_named_msg(true, a->type,
					  "the port is missing"));
	if (a->type == RTE_FLOW_ACTION_TYPE_PORT_ID) {
		const struct rte_flow_action_port_id *c = a->conf;

		if (c->original)
			return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION_CONF,
						  a, mlx5dm_flow_named_msg(true, a->type,
						  "original is not supported"));
		id = c->id;
	} else {
		id = ((const struct rte_flow_action_ethdev *)a->conf)->port_id;
	}
	ret = mlx5dm_esw_port_vport(priv->sh, id, true, &vport, &p);
	if (ret < 0)
		return mlx5dm_esw_port_err(error, ret, true, a->type, a);
	if (a->type == RTE_FLOW_ACTION_TYPE_PORT_REPRESENTOR) {
		uint32_t stamp_mask;

		/* The manager's NIC RX, stamped as a frame of the representor's VF or the wire. */
		ret = mlx5dm_dev_vport_reg_c0(p->dev, vport, &es->stamp, &stamp_mask);
		if (ret < 0)
			return rte_flow_error_set(error, -ret, RTE_FLOW_ERROR_TYPE_ACTION, a,
						  mlx5dm_flow_named_msg(true, a->type,
						  "the device gives no vport metadata"));
		vport = 0;
	}
	es->dest = vport;
	return 0;
}

/* VLAN pop, then a push with the tag the set actions after it give, before the fate. */
static int
mlx5dm_esw_action_vlan(const struct rte_flow_action *a, bool fate, struct mlx5dm_esw_spec *es,
		       struct rte_flow_error *error)
{
	const char *msg = NULL;
	uint16_t v;

	switch ((int)a->type) {
	case RTE_FLOW_ACTION_TYPE_OF_POP_VLAN:
		if (es->pop || es->push || fate)
			msg = "once, before a push and the fate";
		es->pop = true;
		break;
	case RTE_FLOW_ACTION_TYPE_OF_PUSH_VLAN:
		if (es->push || fate) {
			msg = "once, before the fate";
			break;
		}
		es->push = true;
		es->tpid = a->conf != NULL ? rte_be_to_cpu_16(((const struct
			   rte_flow_action_of_push_vlan *)a->conf)->ethertype) : 0;
		if (es->tpid != RTE_ETHER_TYPE_VLAN && es->tpid != RTE_ETHER_TYPE_QINQ)
			msg = "TPID 0x8100 or 0x88a8";
		break;
	case RTE_FLOW_ACTION_TYPE_OF_SET_VLAN_VID:
		if (!es->push || a->conf == NULL) {
			msg = "only after OF_PUSH_VLAN, for its tag";
			break;
		}
		v = rte_be_to_cpu_16(((const struct rte_flow_action_of_set_vlan_vid *)
				      a->conf)->vlan_vid);
		es->tci = (uint16_t)((es->tci & 0xf000) | (v & 0x0fff));
		break;
	default:
		if (!es->push || a->conf == NULL) {
			msg = "only after OF_PUSH_VLAN, for its tag";
			break;
		}
		v = ((const struct rte_flow_action_of_set_vlan_pcp *)a->conf)->vlan_pcp;
		es->tci = (uint16_t)((es->tci & 0x0fff) | (v & 7) << 13);
		break;
	}
	if (msg == NULL)
		return 0;
	return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION, a,
				  mlx5dm_flow_named_msg(true, a->type, msg));
}

static int
mlx5dm_esw_actions(struct mlx5dm_priv *priv, const struct rte_flow_action actions[],
		   struct mlx5dm_esw_spec *es, struct rte_flow_error *error)
{
	const struct rte_flow_action *a;
	bool fate = false;
	int ret;

	if (actions == NULL)
		return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_NUM, NULL,
					  "the actions are missing");
	for (a = actions; a->type != RTE_FLOW_ACTION_TYPE_END; a++) {
		switch ((int)a->type) {
		case RTE_FLOW_ACTION_TYPE_VOID:
			break;
		case RTE_FLOW_ACTION_TYPE_DROP:
			if (fate)
				return mlx5dm_esw_fate_twice(a, error);
			fate = es->drop = true;
			break;
		case RTE_FLOW_ACTION_TYPE_JUMP:
			if (fate)
				return mlx5dm_esw_fate_twice(a, error);
			if (a->conf == NULL)
				return rte_flow_error_set(error, EINVAL,
							  RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
							  "JUMP: the group is missing");
			es->jump_group = ((const struct rte_flow_action_jump *)a->conf)->group;
			if (es->jump_group <= es->spec.group ||
			    es->jump_group > MLX5DM_ESW_MAX_GROUP)
				return rte_flow_error_set(error, ENOTSUP,
							  RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
							  "JUMP: to a higher group only");
			fate = es->jump = true;
			break;
		case RTE_FLOW_ACTION_TYPE_PORT_ID:
		case RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT:
		case RTE_FLOW_ACTION_TYPE_PORT_REPRESENTOR:
			if (fate)
				return mlx5dm_esw_fate_twice(a, error);
			ret = mlx5dm_esw_action_port(priv, a, es, error);
			if (ret < 0)
				return ret;
			fate = true;
			break;
		case RTE_FLOW_ACTION_TYPE_COUNT:
			if (es->count)
				return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION,
							  a, "COUNT given twice");
			es->count = true;
			break;
		case RTE_FLOW_ACTION_TYPE_OF_POP_VLAN:
		case RTE_FLOW_ACTION_TYPE_OF_PUSH_VLAN:
		case RTE_FLOW_ACTION_TYPE_OF_SET_VLAN_VID:
		case RTE_FLOW_ACTION_TYPE_OF_SET_VLAN_PCP:
			ret = mlx5dm_esw_action_vlan(a, fate, es, error);
			if (ret < 0)
				return ret;
			break;
		default:
			/* Header changes: with the pattern (mlx5dm_esw_headers()). */
			if (mlx5dm_esw_is_header(a->type))
				break;
			return mlx5dm_esw_action_refused(a, error);
		}
	}
	if (!fate)
		return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_NUM, actions,
					  "a transfer rule needs a fate: DROP, JUMP or a port "
					  "action");
	return 0;
}

/* A representor's NIC rule: QUEUE or DROP, with COUNT, MARK, FLAG. */
static int
mlx5dm_esw_rep_actions(struct rte_eth_dev *dev, const struct rte_flow_action actions[],
		       struct mlx5dm_esw_spec *es, struct rte_flow_error *error)
{
	const struct rte_flow_action *a;

	if (actions == NULL)
		return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_NUM, NULL,
					  "the actions are missing");
	for (a = actions; a->type != RTE_FLOW_ACTION_TYPE_END; a++) {
		switch ((int)a->type) {
		case RTE_FLOW_ACTION_TYPE_VOID:
			break;
		case RTE_FLOW_ACTION_TYPE_QUEUE:
		case RTE_FLOW_ACTION_TYPE_DROP:
			if (es->drop || es->queue >= 0)
				return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION,
							  a, "a rule has one fate");
			if (a->type == RTE_FLOW_ACTION_TYPE_DROP) {
				es->drop = true;
				break;
			}
			if (a->conf == NULL || ((const struct rte_flow_action_queue *)
			    a->conf)->index >= dev->data->nb_rx_queues)
				return rte_flow_error_set(error, EINVAL,
							  RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
							  "QUEUE index is beyond the configured "
							  "Rx queues");
			es->queue = ((const struct rte_flow_action_queue *)a->conf)->index;
			break;
		case RTE_FLOW_ACTION_TYPE_COUNT:
			es->count = true;
			break;
		case RTE_FLOW_ACTION_TYPE_MARK:
		case RTE_FLOW_ACTION_TYPE_FLAG:
			if (es->tag)
				return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION,
							  a, "MARK or FLAG, once");
			es->tag = true;
			es->tag_value = MLX5DM_FLOW_TAG_FLAG;
			if (a->type == RTE_FLOW_ACTION_TYPE_FLAG)
				break;
			if (a->conf == NULL || ((const struct rte_flow_action_mark *)
			    a->conf)->id > MLX5DM_FLOW_MARK_MAX)
				return rte_flow_error_set(error, ENOTSUP,
							  RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
							  "MARK id must be at most 0xfffffd");
			/* The flow tag as the NIC rules give it (mlx5dm_flow_actions.c). */
			es->tag_value = ((const struct rte_flow_action_mark *)a->conf)->id + 1;
			break;
		default:
			return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION, a,
						  mlx5dm_flow_named_msg(true, a->type,
						  "not supported in a representor's rules"));
		}
	}
	if (!es->drop && es->queue < 0)
		return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_NUM, actions,
					  "a representor's rule needs a fate: QUEUE or DROP");
	return 0;
}

/* A spec before translation: nothing matched, no source, destination or queue yet. */
static void
mlx5dm_esw_spec_start(struct mlx5dm_esw_spec *es)
{
	memset(es, 0, MLX5DM_ESW_SPEC_ZEROED);
	es->source = -1;
	es->dest = -1;
	es->queue = -1;
}

/* Whether domain dom (of type) can match what es asks, as the rule would be created. */
static int
mlx5dm_esw_match_check(struct mlx5dm_domain *dom, enum mlx5dm_domain_type type,
		       const struct rte_flow_attr *attr, const struct mlx5dm_esw_spec *es,
		       struct rte_flow_error *error)
{
	struct mlx5dm_matcher_attr mattr = {
		.priority = (uint16_t)attr->priority, .criteria = es->spec.criteria,
		.mask = es->spec.mask,
	};
	const char *field = NULL;
	int ret;

	ret = mlx5dm_match_check(dom, type, &mattr, es->spec.value, &field);
	if (ret < 0)
		return rte_flow_error_set(error, -ret, RTE_FLOW_ERROR_TYPE_ITEM, NULL,
					  field != NULL ? field : type == MLX5DM_DOMAIN_FDB ?
					  "the FDB cannot match this pattern" :
					  "NIC RX cannot match this pattern");
	return 0;
}

/*
 * A NIC rule of a representor: ingress, group 0, in the representor's
 * table of the manager's NIC RX (which only its VF's frames reach).
 */
static int
mlx5dm_esw_rep_translate(struct rte_eth_dev *dev, const struct rte_flow_attr *attr,
			 const struct rte_flow_item pattern[],
			 const struct rte_flow_action actions[], struct mlx5dm_esw_spec *es,
			 struct rte_flow_error *error)
{
	struct mlx5dm_priv *priv = dev->data->dev_private;
	struct mlx5dm_priv *mgr = mlx5dm_esw_manager(priv);
	int ret;

	if (attr == NULL)
		return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ATTR, NULL,
					  "attributes are missing");
	if (!attr->ingress || attr->egress)
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ATTR_EGRESS, attr,
					  "a representor's NIC rules are ingress rules");
	if (attr->group != 0)
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ATTR_GROUP, attr,
					  "a representor's NIC rules are in group 0");
	if (attr->priority > MLX5DM_ESW_MAX_PRIORITY)
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ATTR_PRIORITY, attr,
					  "priority must be at most 65533");
	mlx5dm_esw_spec_start(es);
	ret = mlx5dm_esw_pattern(priv, attr, pattern, NULL, es, error);
	if (ret < 0)
		return ret;
	ret = mlx5dm_esw_rep_actions(dev, actions, es, error);
	if (ret < 0)
		return ret;
	return mlx5dm_esw_match_check(mgr->dom_rx, MLX5DM_DOMAIN_NIC_RX, attr, es, error);
}

static int
mlx5dm_esw_translate(struct mlx5dm_priv *priv, const struct rte_flow_attr *attr,
		     const struct rte_flow_item pattern[], const struct rte_flow_action actions[],
		     struct mlx5dm_esw_spec *es, struct rte_flow_error *error)
{
	struct mlx5dm_priv *mgr = mlx5dm_esw_manager(priv);
	int ret;

	if (mgr == NULL || mgr->dom_fdb == NULL)
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ATTR_TRANSFER, attr,
					  "transfer (FDB) rules need an E-Switch: a port of a "
					  "vdev with representor=vf[...]");
	if (attr->group > MLX5DM_ESW_MAX_GROUP)
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ATTR_GROUP, attr,
					  "transfer group must be below 65535");
	if (attr->priority > MLX5DM_ESW_MAX_PRIORITY)
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ATTR_PRIORITY, attr,
					  "transfer priority must be at most 65533");
	mlx5dm_esw_spec_start(es);
	es->spec.group = attr->group;
	es->spec.priority = attr->priority;
	ret = mlx5dm_esw_actions(priv, actions, es, error);
	if (ret < 0)
		return ret;
	ret = mlx5dm_esw_pattern(priv, attr, pattern, actions, es, error);
	if (ret < 0)
		return ret;
	return mlx5dm_esw_match_check(mgr->dom_fdb, MLX5DM_DOMAIN_FDB, attr, es, error);
}

/* The modify entry writing a representor's stamp: set_action_in, the whole reg_c_0. */
static void
mlx5dm_esw_stamp_entry(uint8_t set[8], uint32_t stamp)
{
	/* Length 0 = 32 bits. */
	uint32_t w0 = 1u << 28 | (uint32_t)MLX5DM_MODIFY_FLD_METADATA_REG_C_0 << 16;

	set[0] = (uint8_t)(w0 >> 24);
	set[1] = (uint8_t)(w0 >> 16);
	set[2] = (uint8_t)(w0 >> 8);
	set[3] = (uint8_t)w0;
	set[4] = (uint8_t)(stamp >> 24);
	set[5] = (uint8_t)(stamp >> 16);
	set[6] = (uint8_t)(stamp >> 8);
	set[7] = (uint8_t)stamp;
}

/* The action types a transfer rule may have (mlx5dm_esw_actions() and the headers'). */
static bool
mlx5dm_esw_transfer_action(enum rte_flow_action_type type)
{
	switch ((int)type) {
	case RTE_FLOW_ACTION_TYPE_VOID:
	case RTE_FLOW_ACTION_TYPE_DROP:
	case RTE_FLOW_ACTION_TYPE_JUMP:
	case RTE_FLOW_ACTION_TYPE_COUNT:
	case RTE_FLOW_ACTION_TYPE_PORT_ID:
	case RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT:
	case RTE_FLOW_ACTION_TYPE_PORT_REPRESENTOR:
	case RTE_FLOW_ACTION_TYPE_OF_POP_VLAN:
	case RTE_FLOW_ACTION_TYPE_OF_PUSH_VLAN:
	case RTE_FLOW_ACTION_TYPE_OF_SET_VLAN_VID:
	case RTE_FLOW_ACTION_TYPE_OF_SET_VLAN_PCP:
		return true;
	default:
		return mlx5dm_esw_is_header(type);
	}
}

/*
 * A transfer rule through port priv as the flow path's spec: a sub-rule
 * per kind of a VLAN tag the pattern leaves to either kind, as a NIC
 * rule's; *sender: the port whose send queues it matches
 * (PORT_REPRESENTOR), or NULL.
 */
static int
mlx5dm_esw_spec_of(struct mlx5dm_priv *priv, const struct rte_flow_attr *attr,
		   const struct rte_flow_item pattern[], const struct rte_flow_action actions[],
		   struct mlx5dm_flow_spec *spec, struct mlx5dm_priv **sender,
		   struct rte_flow_error *error)
{
	struct mlx5dm_esw_spec es;
	int ret;

	ret = mlx5dm_esw_translate(priv, attr, pattern, actions, &es, error);
	if (ret < 0)
		return ret;
	*sender = es.sender;
	if (es.stamp != 0 && es.spec.nb_modify >= MLX5DM_FLOW_MAX_MODIFY)
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION, actions,
					  "too many header changes");
	mlx5dm_flow_spec_copy(spec, &es.spec);
	/* The header changes were translated as a NIC direction would take them. */
	spec->egress = false;
	spec->transfer = true;
	spec->fate = es.drop ? MLX5DM_FLOW_FATE_DROP : es.jump ? MLX5DM_FLOW_FATE_JUMP :
		     MLX5DM_FLOW_FATE_VPORT;
	spec->jump_group = es.jump_group;
	spec->dest_vport = (uint16_t)es.dest;
	spec->count = es.count;
	spec->tag = false;
	spec->nb_pop = es.pop;
	spec->nb_push = es.push;
	spec->push[0] = (struct mlx5dm_flow_push){ .tpid = es.tpid, .tci = es.tci };
	if (es.stamp != 0)
		mlx5dm_esw_stamp_entry(&spec->modify[spec->nb_modify++ * 8], es.stamp);
	spec->nb_sub = 1;
	memset(&spec->sub[0], 0, sizeof(spec->sub[0]));
	return mlx5dm_flow_vlan_expand(spec, error);
}

/* A transfer rule of the manager as the flow path's spec (a template table's rule). */
static int
mlx5dm_esw_flow_spec(struct rte_eth_dev *dev, const struct rte_flow_attr *attr,
		     const struct rte_flow_item pattern[], const struct rte_flow_action actions[],
		     struct mlx5dm_flow_spec *spec, struct rte_flow_error *error)
{
	struct mlx5dm_priv *sender;

	return mlx5dm_esw_spec_of(dev->data->dev_private, attr, pattern, actions, spec, &sender,
				  error);
}

static int mlx5dm_esw_translator_tail(struct rte_eth_dev *dev, uint32_t group, bool take);
static int mlx5dm_esw_rep_rqn(struct rte_eth_dev *dev, uint16_t queue, uint32_t *rqn);

static const struct mlx5dm_esw_translator mlx5dm_esw_translator = {
	.action_ok = mlx5dm_esw_transfer_action,
	.spec = mlx5dm_esw_flow_spec,
	.tail = mlx5dm_esw_translator_tail,
	.rqn = mlx5dm_esw_rep_rqn,
};

/* ---- rules ---- */

/*
 * A rule of the switch itself in FDB group at priority: the manager's
 * vport (on its send queue sqn unless negative) to vport dest, or (dest
 * negative) to the catch group. An unlisted flow of the manager's flow
 * path, which no application call finds; NULL with error.
 */
static struct rte_flow *
mlx5dm_esw_own_rule(struct mlx5dm_priv *mgr, uint32_t group, uint16_t priority, int64_t sqn,
		    int32_t dest, struct rte_flow_error *error)
{
	struct mlx5dm_flow_priv *fp = mgr->flow;
	struct mlx5dm_flow_spec *spec;
	struct rte_flow *flow;

	spec = rte_zmalloc("mlx5dm_esw_spec", sizeof(*spec), 0);
	if (spec == NULL) {
		mlx5dm_flow_nomem(error);
		return NULL;
	}
	spec->transfer = true;
	spec->group = group;
	spec->priority = priority;
	/* The manager's vport is 0 (the value's zeroes). */
	mlx5dm_fte_set(spec->mask, MLX5DM_FTE(misc, source_port), 0xffff);
	if (sqn >= 0) {
		mlx5dm_fte_set(spec->mask, MLX5DM_FTE(misc, source_sqn), 0xffffff);
		mlx5dm_fte_set(spec->value, MLX5DM_FTE(misc, source_sqn), (uint32_t)sqn);
	}
	spec->criteria = mlx5dm_flow_match_criteria(spec->mask);
	spec->fate = dest < 0 ? MLX5DM_FLOW_FATE_JUMP : MLX5DM_FLOW_FATE_VPORT;
	spec->jump_group = MLX5DM_ESW_CATCH_GROUP;
	spec->dest_vport = (uint16_t)dest;
	spec->nb_sub = 1;
	rte_spinlock_lock(&fp->lock);
	flow = mlx5dm_flow_objs_create(fp, spec, false, error);
	mlx5dm_rules_posted(mgr);
	rte_spinlock_unlock(&fp->lock);
	rte_free(spec);
	return flow;
}

/* A rule of the switch itself goes (NULL: none); 0 or a negative errno. */
static int
mlx5dm_esw_own_remove(struct mlx5dm_priv *mgr, struct rte_flow *flow)
{
	struct mlx5dm_flow_priv *fp = mgr->flow;
	int ret;

	if (flow == NULL)
		return 0;
	rte_spinlock_lock(&fp->lock);
	ret = mlx5dm_flow_objs_destroy(fp, flow, NULL);
	mlx5dm_rules_posted(mgr);
	rte_spinlock_unlock(&fp->lock);
	return ret;
}

/* ---- rte_flow operations ---- */

/* The NIC rules' operations (mlx5dm_flow_ops.c). */
static const struct rte_flow_ops *
mlx5dm_esw_nic_ops(void)
{
	const struct rte_flow_ops *ops;

	mlx5dm_flow_ops_get(NULL, &ops);
	return ops;
}

/* The tail of group, made by its first user; esw->lock held. */
static int
mlx5dm_esw_tail_get(struct mlx5dm_priv *mgr, uint32_t group)
{
	struct rte_flow_error error = { .message = NULL };
	struct mlx5dm_esw *esw = mgr->sh->esw;
	struct mlx5dm_esw_tail *t;

	TAILQ_FOREACH(t, &esw->tails, next) {
		if (t->group == group) {
			t->users++;
			return 0;
		}
	}
	t = rte_zmalloc_socket("mlx5dm_esw_tail", sizeof(*t), 0, mgr->data->numa_node);
	if (t == NULL)
		return -ENOMEM;
	t->f = mlx5dm_esw_own_rule(mgr, group, MLX5DM_ESW_LAST_PRIORITY, -1, -1, &error);
	if (t->f == NULL) {
		MLX5DM_DRV_LOG(ERR, "port %u: FDB group %u: no rule to the catch group: %s",
			       mgr->port_id, group, error.message != NULL ? error.message : "");
		rte_free(t);
		return -EIO;
	}
	t->group = group;
	t->users = 1;
	TAILQ_INSERT_TAIL(&esw->tails, t, next);
	return 0;
}

/* The tail of group goes with its last user; esw->lock held. */
static void
mlx5dm_esw_tail_put(struct mlx5dm_priv *mgr, uint32_t group)
{
	struct mlx5dm_esw *esw = mgr->sh->esw;
	struct mlx5dm_esw_tail *t;

	TAILQ_FOREACH(t, &esw->tails, next)
		if (t->group == group)
			break;
	if (t == NULL || --t->users > 0)
		return;
	TAILQ_REMOVE(&esw->tails, t, next);
	if (mlx5dm_esw_own_remove(mgr, t->f) < 0)
		MLX5DM_DRV_LOG(ERR, "port %u: FDB group %u: its tail was not removed",
			       mgr->port_id, group);
	rte_free(t);
}

/* The tails rec holds go; esw->lock held. */
static void
mlx5dm_esw_record_untail(struct mlx5dm_priv *mgr, struct mlx5dm_esw_record *rec)
{
	while (rec->nb_tails > 0)
		mlx5dm_esw_tail_put(mgr, rec->tails[--rec->nb_tails]);
}

/* The tails of the groups a transfer rule of spec is in and jumps to, into rec; esw->lock held. */
static int
mlx5dm_esw_record_tails(struct mlx5dm_priv *mgr, const struct mlx5dm_flow_spec *spec,
		     struct mlx5dm_esw_record *rec)
{
	int ret;

	ret = mlx5dm_esw_tail_get(mgr, spec->group);
	if (ret == 0)
		rec->tails[rec->nb_tails++] = spec->group;
	if (ret == 0 && spec->fate == MLX5DM_FLOW_FATE_JUMP) {
		ret = mlx5dm_esw_tail_get(mgr, spec->jump_group);
		if (ret == 0)
			rec->tails[rec->nb_tails++] = spec->jump_group;
	}
	if (ret < 0)
		mlx5dm_esw_record_untail(mgr, rec);
	return ret;
}

/*
 * flow as a transfer rule of the manager: its record if rte_flow_create()
 * made it, else NULL, with *queued when a flow queue did (esw->lock held:
 * only its holder destroys a flow with a record).
 */
static struct mlx5dm_esw_record *
mlx5dm_esw_record_of(struct mlx5dm_priv *mgr, struct rte_flow *flow, bool *queued)
{
	struct mlx5dm_flow_priv *fp = mgr != NULL ? mgr->flow : NULL;
	struct mlx5dm_esw_record *rec = NULL;

	*queued = false;
	if (fp == NULL || flow == NULL)
		return NULL;
	rte_spinlock_lock(&fp->lock);
	if (mlx5dm_flow_objs_owns(fp, flow)) {
		rec = mlx5dm_flow_extra(flow);
		*queued = rec == NULL && flow->dom == MLX5DM_FLOW_DOM_FDB;
	}
	rte_spinlock_unlock(&fp->lock);
	return rec;
}

/* A transfer rule of rte_flow_create() goes, then the tails it held; esw->lock held. */
static int
mlx5dm_esw_record_destroy(struct mlx5dm_priv *mgr, struct rte_flow *flow,
		       struct rte_flow_error *error)
{
	struct mlx5dm_flow_priv *fp = mgr->flow;
	struct mlx5dm_esw_record rec;
	int ret;

	rte_spinlock_lock(&fp->lock);
	memcpy(&rec, mlx5dm_flow_extra(flow), sizeof(rec));
	ret = mlx5dm_flow_objs_destroy(fp, flow, error);
	mlx5dm_rules_posted(mgr);
	rte_spinlock_unlock(&fp->lock);
	if (ret == 0)
		mlx5dm_esw_record_untail(mgr, &rec);
	return ret;
}

/* Which rules of rte_flow_create() a walk over the manager's flows takes. */
enum mlx5dm_esw_which {
	MLX5DM_ESW_ALL,         /* the manager's stop */
	MLX5DM_ESW_MADE_BY,     /* created through the port (its flush, its dump) */
	MLX5DM_ESW_STOPPED,     /* its NIC rules and those on its send queues (its stop) */
};

static bool
mlx5dm_esw_record_is(const struct rte_flow *flow, const struct mlx5dm_esw_record *rec,
		  uint16_t port_id, enum mlx5dm_esw_which which)
{
	switch (which) {
	case MLX5DM_ESW_ALL:
		return true;
	case MLX5DM_ESW_MADE_BY:
		return rec->port_id == port_id;
	default:
		return rec->sender == port_id ||
		       (rec->port_id == port_id && flow->dom != MLX5DM_FLOW_DOM_FDB);
	}
}

/*
 * Destroy the rules of rte_flow_create() a walk takes (which, of port_id)
 * with their tails; esw->lock held. 0 or the first failure.
 */
static int
mlx5dm_esw_record_flush(struct mlx5dm_priv *mgr, uint16_t port_id, enum mlx5dm_esw_which which,
		     struct rte_flow_error *error)
{
	struct mlx5dm_flow_priv *fp = mgr->flow;
	struct rte_flow *flow = NULL;
	struct mlx5dm_esw_record *rec, copy;
	int ret = 0, r;

	rte_spinlock_lock(&fp->lock);
	/* next() copes with a handle put back (the tails are taken unlocked). */
	while ((flow = mlx5dm_flow_pool_next(&fp->pool, flow)) != NULL) {
		bool mine;

		/* Taken while read (mlx5dm_flow_take()); a flow with a record is ours. */
		if (!mlx5dm_flow_take(flow))
			continue;
		rec = mlx5dm_flow_extra(flow);
		mine = rec != NULL && mlx5dm_esw_record_is(flow, rec, port_id, which);
		if (mine)
			copy = *rec;
		mlx5dm_flow_give(flow);
		if (!mine)
			continue;
		r = mlx5dm_flow_objs_destroy(fp, flow, error);
		if (r < 0) {
			ret = ret == 0 ? r : ret;
			continue;
		}
		rte_spinlock_unlock(&fp->lock);
		mlx5dm_esw_record_untail(mgr, &copy);
		rte_spinlock_lock(&fp->lock);
	}
	mlx5dm_rules_posted(mgr);
	rte_spinlock_unlock(&fp->lock);
	return ret;
}

/* Dump the rules of rte_flow_create() created through port_id; esw->lock held. */
static int
mlx5dm_esw_record_dump(struct mlx5dm_priv *mgr, uint16_t port_id, FILE *file)
{
	struct mlx5dm_flow_priv *fp = mgr->flow;
	struct rte_flow *flow = NULL;
	struct mlx5dm_esw_record *rec;
	int ret = 0;

	rte_spinlock_lock(&fp->lock);
	mlx5dm_rules_ring(mgr);
	while (ret == 0 && (flow = mlx5dm_flow_pool_next(&fp->pool, flow)) != NULL) {
		/* Taken while read (mlx5dm_flow_take()). */
		if (!mlx5dm_flow_take(flow))
			continue;
		rec = mlx5dm_flow_extra(flow);
		if (rec != NULL && mlx5dm_esw_record_is(flow, rec, port_id, MLX5DM_ESW_MADE_BY))
			ret = mlx5dm_flow_dump_flow(fp, flow, file);
		mlx5dm_flow_give(flow);
	}
	rte_spinlock_unlock(&fp->lock);
	return ret;
}

/* A template rule's tail of its jump target (struct mlx5dm_esw_translator); no lock held. */
static int
mlx5dm_esw_translator_tail(struct rte_eth_dev *dev, uint32_t group, bool take)
{
	struct mlx5dm_priv *mgr = dev->data->dev_private;
	struct mlx5dm_esw *esw = mgr->sh->esw;
	int ret = 0;

	rte_spinlock_lock(&esw->lock);
	if (!take)
		mlx5dm_esw_tail_put(mgr, group);
	else if (!esw->started)
		ret = -ENODEV;
	else
		ret = mlx5dm_esw_tail_get(mgr, group);
	rte_spinlock_unlock(&esw->lock);
	return ret;
}

/*
 * The template rules' jump anchors no rule holds any more give their tails
 * back (all of them once the rules are flushed); esw->lock held.
 */
static void
mlx5dm_esw_anchors_put(struct mlx5dm_priv *mgr)
{
	struct mlx5dm_flow_priv *fp = mgr->flow;
	uint32_t group;
	bool idle;

	if (fp == NULL)
		return;
	do {
		rte_spinlock_lock(&fp->lock);
		idle = mlx5dm_flow_tmpl_jump_pop(fp, &group);
		rte_spinlock_unlock(&fp->lock);
		if (idle)
			mlx5dm_esw_tail_put(mgr, group);
	} while (idle);
}

/* Take (or give back) the tails of a transfer template table; esw->lock held. */
static void
mlx5dm_esw_table_hold(struct mlx5dm_priv *mgr, struct mlx5dm_esw_table *t, bool hold)
{
	unsigned int i;

	if (t->held == hold)
		return;
	for (i = 0; i < t->nb_groups; i++) {
		if (!hold) {
			mlx5dm_esw_tail_put(mgr, t->groups[i]);
		} else if (mlx5dm_esw_tail_get(mgr, t->groups[i]) < 0) {
			while (i > 0)
				mlx5dm_esw_tail_put(mgr, t->groups[--i]);
			MLX5DM_DRV_LOG(ERR, "port %u: a transfer table's FDB groups have no tail",
				       mgr->port_id);
			return;
		}
	}
	t->held = hold;
}

/* A transfer rule, or a representor's NIC rule. */
static int
mlx5dm_esw_translate_any(struct rte_eth_dev *dev, const struct rte_flow_attr *attr,
			 const struct rte_flow_item pattern[],
			 const struct rte_flow_action actions[], struct mlx5dm_esw_spec *es,
			 struct rte_flow_error *error)
{
	if (attr != NULL && attr->transfer)
		return mlx5dm_esw_translate(dev->data->dev_private, attr, pattern, actions, es,
					    error);
	return mlx5dm_esw_rep_translate(dev, attr, pattern, actions, es, error);
}

static int
mlx5dm_esw_validate(struct rte_eth_dev *dev, const struct rte_flow_attr *attr,
		    const struct rte_flow_item pattern[], const struct rte_flow_action actions[],
		    struct rte_flow_error *error)
{
	struct mlx5dm_priv *priv = dev->data->dev_private;
	struct mlx5dm_esw_spec es;

	if ((attr == NULL || !attr->transfer) && priv->kind != MLX5DM_PORT_REPRESENTOR)
		return mlx5dm_esw_nic_ops()->validate(dev, attr, pattern, actions, error);
	return mlx5dm_esw_translate_any(dev, attr, pattern, actions, &es, error);
}

/*
 * A rule of rte_flow_create() is a flow of the manager's flow path,
 * inserted as a template table's (begin, insert, commit), with its record
 * and (a transfer rule) the tails of its groups; one naming what a port
 * sends has a sub-rule per send queue of the port, told apart by its
 * source_sqn. Called with esw->lock held, which keeps sender started.
 */
static struct rte_flow *
mlx5dm_esw_rule_insert(struct mlx5dm_priv *mgr, struct mlx5dm_flow_spec *spec,
		       struct mlx5dm_priv *sender, struct mlx5dm_esw_record *rec,
		       struct rte_flow_error *error)
{
	struct mlx5dm_flow_priv *fp = mgr->flow;
	const struct rte_eth_dev_data *data;
	const struct mlx5dm_txq *txq;
	struct mlx5dm_flow_build b;
	struct rte_flow *flow = NULL;
	rte_spinlock_t *qlock;
	unsigned int i;
	uint16_t queue;
	int ret;

	if (spec->transfer && mlx5dm_esw_record_tails(mgr, spec, rec) < 0) {
		rte_flow_error_set(error, EIO, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
				   "FDB: no rule to the catch group in the rule's groups");
		return NULL;
	}
	mlx5dm_flow_build_init(&b);
	rte_spinlock_lock(&fp->lock);
	ret = mlx5dm_flow_objs_begin(fp, spec, NULL, true, &b, error);
	queue = mlx5dm_flow_queue_of(fp, &qlock);
	rte_spinlock_unlock(&fp->lock);
	if (ret == 0) {
		data = sender != NULL ? rte_eth_devices[sender->port_id].data : NULL;
		/* Sub-rule i: send queue i / kinds (mlx5dm_esw_transfer_create()). */
		for (i = 0; data != NULL && i < spec->nb_sub; i++) {
			txq = data->tx_queues[i / (spec->nb_sub / data->nb_tx_queues)];
			mlx5dm_fte_set(b.value[i], MLX5DM_FTE(misc, source_sqn), txq->sqn);
		}
		memcpy(mlx5dm_flow_extra(b.flow), rec, sizeof(*rec));
		flow = mlx5dm_flow_create_end(&rte_eth_devices[mgr->port_id], fp, &b, queue, qlock,
					      error);
	}
	if (flow == NULL)
		mlx5dm_esw_record_untail(mgr, rec);
	return flow;
}

static struct rte_flow *
mlx5dm_esw_transfer_create(struct rte_eth_dev *dev, const struct rte_flow_attr *attr,
			   const struct rte_flow_item pattern[],
			   const struct rte_flow_action actions[], struct rte_flow_error *error)
{
	struct mlx5dm_priv *priv = dev->data->dev_private;
	struct mlx5dm_esw_record rec = { .port_id = priv->port_id, .sender = RTE_MAX_ETHPORTS };
	struct mlx5dm_esw *esw = priv->sh->esw;
	struct mlx5dm_priv *sender = NULL;
	struct mlx5dm_flow_spec spec;
	struct rte_flow *flow = NULL;
	uint16_t nb, q;

	if (mlx5dm_esw_spec_of(priv, attr, pattern, actions, &spec, &sender, error) < 0)
		return NULL;
	spec.nb_extra = 1;
	nb = sender != NULL ? rte_eth_devices[sender->port_id].data->nb_tx_queues : 1;
	/* One handle holds its sub-rules and the record. */
	if ((unsigned int)spec.nb_sub * nb + spec.nb_extra > MLX5DM_FLOW_MAX_SUB) {
		rte_flow_error_set(error, ENOTSUP, sender != NULL ?
				   RTE_FLOW_ERROR_TYPE_ITEM_SPEC : RTE_FLOW_ERROR_TYPE_ITEM, NULL,
				   sender != NULL ? "PORT_REPRESENTOR: more than 15 device rules, "
				   "one per send queue of the port (and VLAN tag kind)" :
				   "VLAN tags of either kind need too many device rules here: "
				   "name the TPID (ETH type or VLAN inner_type 0x8100 or 0x88a8)");
		return NULL;
	}
	if (sender != NULL) {
		/* Sub-rule q * kinds + k: send queue q, the tags' kinds k. */
		for (q = 1; q < nb; q++)
			memcpy(&spec.sub[q * spec.nb_sub], spec.sub,
			       spec.nb_sub * sizeof(spec.sub[0]));
		spec.nb_sub = (uint8_t)(nb * spec.nb_sub);
		rec.sender = sender->port_id;
	}
	rte_spinlock_lock(&esw->lock);
	/* Its stop takes the rules on its send queues: it must run now (see translation). */
	if (!esw->started)
		rte_flow_error_set(error, ENODEV, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
				   "the E-Switch manager (port 0 of the vdev) is not started");
	else if (sender != NULL && !sender->started)
		rte_flow_error_set(error, EAGAIN, RTE_FLOW_ERROR_TYPE_ITEM_SPEC, NULL,
				   "PORT_REPRESENTOR: the port is not started");
	else
		flow = mlx5dm_esw_rule_insert(mlx5dm_esw_manager(priv), &spec, sender, &rec, error);
	rte_spinlock_unlock(&esw->lock);
	return flow;
}

static struct rte_flow *
mlx5dm_esw_create(struct rte_eth_dev *dev, const struct rte_flow_attr *attr,
		  const struct rte_flow_item pattern[], const struct rte_flow_action actions[],
		  struct rte_flow_error *error)
{
	struct mlx5dm_priv *priv = dev->data->dev_private;
	struct mlx5dm_esw_record rec = { .port_id = priv->port_id, .sender = RTE_MAX_ETHPORTS };
	struct mlx5dm_esw *esw = priv->sh->esw;
	struct mlx5dm_flow_spec *spec;
	struct rte_flow *flow = NULL;
	struct mlx5dm_esw_spec es;

	if (attr != NULL && attr->transfer)
		return mlx5dm_esw_transfer_create(dev, attr, pattern, actions, error);
	if (priv->kind != MLX5DM_PORT_REPRESENTOR)
		return mlx5dm_esw_nic_ops()->create(dev, attr, pattern, actions, error);
	if (mlx5dm_esw_rep_translate(dev, attr, pattern, actions, &es, error) < 0)
		return NULL;
	/* In its table (past the root's level), to one of its Rx queues. */
	spec = &es.spec;
	spec->group = 1;
	spec->table_dom = (uint16_t)MLX5DM_FLOW_DOM_REP(priv->vf);
	spec->fate = es.drop ? MLX5DM_FLOW_FATE_DROP : MLX5DM_FLOW_FATE_QUEUE;
	spec->nb_queues = 1;
	spec->queues[0] = MLX5DM_ESW_REP_QUEUE(priv->vf, es.drop ? 0 : es.queue);
	spec->count = es.count;
	spec->tag = es.tag;
	spec->tag_value = es.tag_value;
	spec->nb_sub = 1;
	memset(&spec->sub[0], 0, sizeof(spec->sub[0]));
	spec->nb_extra = 1;
	/* A tag of either kind, as a NIC rule's: a rule per kind. */
	if (mlx5dm_flow_vlan_expand(spec, error) < 0)
		return NULL;
	rte_spinlock_lock(&esw->lock);
	if (!esw->started || priv->rep == NULL)
		rte_flow_error_set(error, ENODEV, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
				   "the port is not started: create flows after starting it");
	else if (priv->rep->tbl == NULL)
		rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ATTR_INGRESS, NULL,
				   "the representor has no Rx queue for its rules");
	else
		flow = mlx5dm_esw_rule_insert(mlx5dm_esw_manager(priv), spec, NULL, &rec, error);
	rte_spinlock_unlock(&esw->lock);
	return flow;
}

static int
mlx5dm_esw_rep_rqn(struct rte_eth_dev *dev, uint16_t queue, uint32_t *rqn)
{
	struct mlx5dm_shared *sh = ((struct mlx5dm_priv *)dev->data->dev_private)->sh;
	uint16_t vf = (uint16_t)(queue / MLX5DM_MAX_QUEUES - 1), i;

	for (i = 0; sh != NULL && i < sh->nb_ethdevs; i++)
		if (sh->ports[i] != NULL && sh->ports[i]->kind == MLX5DM_PORT_REPRESENTOR &&
		    sh->ports[i]->vf == vf)
			return mlx5dm_rxq_rqn(&rte_eth_devices[sh->ports[i]->port_id],
					      queue % MLX5DM_MAX_QUEUES, rqn);
	return -ENODEV;
}

/*
 * A flow queue's transfer rule is destroyed through a flow queue, as DPDK
 * mlx5 (dv_flow_en=2) takes no rte_flow_destroy() of a flow queue's rule
 * (mlx5_flow.c: mlx5_flow_destroy()).
 */
static int
mlx5dm_esw_queued(struct rte_flow *flow, struct rte_flow_error *error)
{
	return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_HANDLE, flow,
				  "a flow queue's transfer rule: rte_flow_async_destroy() on the "
				  "transfer proxy destroys it");
}

static int
mlx5dm_esw_no_rule(struct rte_flow *flow, struct rte_flow_error *error)
{
	return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_HANDLE, flow,
				  "no such transfer rule");
}

static int
mlx5dm_esw_destroy(struct rte_eth_dev *dev, struct rte_flow *flow, struct rte_flow_error *error)
{
	struct mlx5dm_priv *priv = dev->data->dev_private;
	struct mlx5dm_priv *mgr = mlx5dm_esw_manager(priv);
	struct mlx5dm_esw *esw = priv->sh->esw;
	bool queued;
	int ret;

	rte_spinlock_lock(&esw->lock);
	if (mlx5dm_esw_record_of(mgr, flow, &queued) != NULL) {
		ret = mlx5dm_esw_record_destroy(mgr, flow, error);
		rte_spinlock_unlock(&esw->lock);
		return ret;
	}
	rte_spinlock_unlock(&esw->lock);
	if (queued)
		return mlx5dm_esw_queued(flow, error);
	if (priv->kind == MLX5DM_PORT_REPRESENTOR)
		return mlx5dm_esw_no_rule(flow, error);
	return mlx5dm_esw_nic_ops()->destroy(dev, flow, error);
}

/* The transfer rules created through the port, then its NIC rules. */
static int
mlx5dm_esw_flush(struct rte_eth_dev *dev, struct rte_flow_error *error)
{
	struct mlx5dm_priv *priv = dev->data->dev_private;
	struct mlx5dm_priv *mgr = mlx5dm_esw_manager(priv);
	struct mlx5dm_esw *esw = priv->sh->esw;
	int ret;

	rte_spinlock_lock(&esw->lock);
	ret = mlx5dm_esw_record_flush(mgr, priv->port_id, MLX5DM_ESW_MADE_BY, error);
	rte_spinlock_unlock(&esw->lock);
	if (ret < 0 || priv->kind == MLX5DM_PORT_REPRESENTOR)
		return ret;
	ret = mlx5dm_esw_nic_ops()->flush(dev, error);
	/* The template rules went: so do the tails of the groups they chose to jump to. */
	rte_spinlock_lock(&esw->lock);
	mlx5dm_esw_anchors_put(mgr);
	rte_spinlock_unlock(&esw->lock);
	return ret;
}

/*
 * The port whose flow path answers for flow named on port dev: a
 * representor names its manager's (its NIC rules, the transfer rules), or
 * NULL with error.
 */
static struct rte_eth_dev *
mlx5dm_esw_flow_port(struct rte_eth_dev *dev, struct rte_flow *flow, struct rte_flow_error *error)
{
	struct mlx5dm_priv *priv = dev->data->dev_private;
	struct mlx5dm_priv *mgr = mlx5dm_esw_manager(priv);
	struct mlx5dm_esw *esw = priv->sh->esw;
	struct mlx5dm_esw_record *rec;
	bool queued;

	if (priv->kind != MLX5DM_PORT_REPRESENTOR)
		return dev;
	rte_spinlock_lock(&esw->lock);
	rec = mlx5dm_esw_record_of(mgr, flow, &queued);
	rte_spinlock_unlock(&esw->lock);
	if (rec != NULL || queued)
		return &rte_eth_devices[mgr->port_id];
	mlx5dm_esw_no_rule(flow, error);
	return NULL;
}

/* COUNT with the flow path's reset semantics, on any port of the switch. */
static int
mlx5dm_esw_query(struct rte_eth_dev *dev, struct rte_flow *flow,
		 const struct rte_flow_action *action, void *data, struct rte_flow_error *error)
{
	struct rte_eth_dev *port = mlx5dm_esw_flow_port(dev, flow, error);

	if (port == NULL)
		return -rte_errno;
	return mlx5dm_esw_nic_ops()->query(port, flow, action, data, error);
}

/*
 * The manager's dump of all flows is its NIC domains' and then its FDB's;
 * of one flow, the flow path's (on any port of the switch). A
 * representor's of all flows: the rules created through it, all in the
 * manager's tables.
 */
static int
mlx5dm_esw_dev_dump(struct rte_eth_dev *dev, struct rte_flow *flow, FILE *file,
		    struct rte_flow_error *error)
{
	struct mlx5dm_priv *priv = dev->data->dev_private;
	struct mlx5dm_priv *mgr = mlx5dm_esw_manager(priv);
	struct mlx5dm_esw *esw = priv->sh->esw;
	struct rte_eth_dev *port;
	int ret;

	if (flow != NULL) {
		port = mlx5dm_esw_flow_port(dev, flow, error);
		return port == NULL ? -rte_errno :
		       mlx5dm_esw_nic_ops()->dev_dump(port, flow, file, error);
	}
	if (priv->kind != MLX5DM_PORT_REPRESENTOR) {
		ret = mlx5dm_esw_nic_ops()->dev_dump(dev, NULL, file, error);
		if (ret < 0)
			return ret;
	}
	rte_spinlock_lock(&esw->lock);
	if (priv->kind == MLX5DM_PORT_REPRESENTOR)
		ret = mlx5dm_esw_record_dump(mgr, priv->port_id, file);
	else
		ret = mlx5dm_domain_dump(mgr->dom_fdb, file);
	rte_spinlock_unlock(&esw->lock);
	if (ret < 0)
		return rte_flow_error_set(error, -ret, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
					  "steering library: dump failed");
	return 0;
}

static int
mlx5dm_esw_pick_transfer_proxy(struct rte_eth_dev *dev, uint16_t *proxy_port_id,
			       struct rte_flow_error *error)
{
	struct mlx5dm_priv *mgr = mlx5dm_esw_manager(dev->data->dev_private);

	if (mgr == NULL)
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
					  "the port is in no switch domain");
	*proxy_port_id = mgr->port_id;
	return 0;
}

/*
 * A representor's template API is its manager's (rte_flow_pick_transfer_proxy()):
 * the same flow queues, templates and tables, transfer ones only (its NIC rules
 * are rte_flow_create()'s).
 */
static struct rte_eth_dev *
mlx5dm_esw_proxy(struct rte_eth_dev *dev)
{
	return &rte_eth_devices[mlx5dm_esw_manager(dev->data->dev_private)->port_id];
}

static int
mlx5dm_esw_rep_nic_template(struct rte_flow_error *error)
{
	return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ATTR_TRANSFER, NULL,
				  "a representor's templates and tables are transfer ones (its NIC "
				  "rules: rte_flow_create())");
}

static int
mlx5dm_esw_rep_info_get(struct rte_eth_dev *dev, struct rte_flow_port_info *port_info,
			struct rte_flow_queue_info *queue_info, struct rte_flow_error *error)
{
	return mlx5dm_flow_info_get(mlx5dm_esw_proxy(dev), port_info, queue_info, error);
}

static int
mlx5dm_esw_rep_configure(struct rte_eth_dev *dev, const struct rte_flow_port_attr *port_attr,
			 uint16_t nb_queue, const struct rte_flow_queue_attr *queue_attr[],
			 struct rte_flow_error *error)
{
	return mlx5dm_flow_configure(mlx5dm_esw_proxy(dev), port_attr, nb_queue, queue_attr,
				     error);
}

static struct rte_flow_pattern_template *
mlx5dm_esw_rep_pt_create(struct rte_eth_dev *dev,
			 const struct rte_flow_pattern_template_attr *attr,
			 const struct rte_flow_item pattern[], struct rte_flow_error *error)
{
	if (attr != NULL && !attr->transfer) {
		mlx5dm_esw_rep_nic_template(error);
		return NULL;
	}
	return mlx5dm_flow_pattern_template_create(mlx5dm_esw_proxy(dev), attr, pattern, error);
}

static int
mlx5dm_esw_rep_pt_destroy(struct rte_eth_dev *dev, struct rte_flow_pattern_template *pt,
			  struct rte_flow_error *error)
{
	return mlx5dm_flow_pattern_template_destroy(mlx5dm_esw_proxy(dev), pt, error);
}

static struct rte_flow_actions_template *
mlx5dm_esw_rep_at_create(struct rte_eth_dev *dev,
			 const struct rte_flow_actions_template_attr *attr,
			 const struct rte_flow_action actions[],
			 const struct rte_flow_action masks[], struct rte_flow_error *error)
{
	if (attr != NULL && !attr->transfer) {
		mlx5dm_esw_rep_nic_template(error);
		return NULL;
	}
	return mlx5dm_flow_actions_template_create(mlx5dm_esw_proxy(dev), attr, actions, masks,
						   error);
}

static int
mlx5dm_esw_rep_at_destroy(struct rte_eth_dev *dev, struct rte_flow_actions_template *at,
			  struct rte_flow_error *error)
{
	return mlx5dm_flow_actions_template_destroy(mlx5dm_esw_proxy(dev), at, error);
}

/*
 * A transfer template table: the tails of its group and of the groups its
 * actions templates jump to are taken once here, not by each rule, so that
 * the rules' path does no more than a NIC table's. A jump the template
 * leaves to each rule is held by the rule (mlx5dm_flow_queue.c).
 */
static struct rte_flow_template_table *
mlx5dm_esw_table_create(struct rte_eth_dev *dev, const struct rte_flow_template_table_attr *attr,
			struct rte_flow_pattern_template *pts[], uint8_t nb_pt,
			struct rte_flow_actions_template *ats[], uint8_t nb_at,
			struct rte_flow_error *error)
{
	struct mlx5dm_priv *mgr = dev->data->dev_private;
	struct mlx5dm_esw *esw = mgr->sh->esw;
	struct rte_flow_template_table *tbl;
	const struct rte_flow_action_jump *jump;
	struct mlx5dm_esw_table *t;
	unsigned int i, j;

	if (attr == NULL || !attr->flow_attr.transfer)
		return mlx5dm_flow_template_table_create(dev, attr, pts, nb_pt, ats, nb_at, error);
	t = rte_zmalloc_socket("mlx5dm_esw_table", sizeof(*t), 0, mgr->data->numa_node);
	if (t == NULL) {
		rte_flow_error_set(error, ENOMEM, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
				   "no memory for the transfer table");
		return NULL;
	}
	tbl = mlx5dm_flow_template_table_create(dev, attr, pts, nb_pt, ats, nb_at, error);
	if (tbl == NULL) {
		rte_free(t);
		return NULL;
	}
	t->tbl = tbl;
	t->groups[t->nb_groups++] = attr->flow_attr.group;
	for (i = 0; i < nb_at; i++) {
		for (j = 0; j < ats[i]->nb; j++) {
			if (ats[i]->actions[j].type != RTE_FLOW_ACTION_TYPE_JUMP ||
			    !(ats[i]->fixed & (1u << j)) || ats[i]->actions[j].conf == NULL)
				continue;
			jump = ats[i]->actions[j].conf;
			t->groups[t->nb_groups++] = jump->group;
		}
	}
	rte_spinlock_lock(&esw->lock);
	TAILQ_INSERT_TAIL(&esw->tables, t, next);
	if (esw->started)
		mlx5dm_esw_table_hold(mgr, t, true);
	rte_spinlock_unlock(&esw->lock);
	return tbl;
}

/* A table without rules (EBUSY otherwise), then its tails. */
static int
mlx5dm_esw_table_destroy(struct rte_eth_dev *dev, struct rte_flow_template_table *tbl,
			 struct rte_flow_error *error)
{
	struct mlx5dm_priv *mgr = dev->data->dev_private;
	struct mlx5dm_esw *esw = mgr->sh->esw;
	struct mlx5dm_esw_table *t;
	int ret;

	ret = mlx5dm_flow_template_table_destroy(dev, tbl, error);
	if (ret < 0)
		return ret;
	rte_spinlock_lock(&esw->lock);
	TAILQ_FOREACH(t, &esw->tables, next)
		if (t->tbl == tbl)
			break;
	if (t != NULL) {
		TAILQ_REMOVE(&esw->tables, t, next);
		mlx5dm_esw_table_hold(mgr, t, false);
	}
	rte_spinlock_unlock(&esw->lock);
	rte_free(t);
	return 0;
}

static struct rte_flow_template_table *
mlx5dm_esw_rep_table_create(struct rte_eth_dev *dev,
			    const struct rte_flow_template_table_attr *attr,
			    struct rte_flow_pattern_template *pts[], uint8_t nb_pt,
			    struct rte_flow_actions_template *ats[], uint8_t nb_at,
			    struct rte_flow_error *error)
{
	if (attr != NULL && !attr->flow_attr.transfer) {
		mlx5dm_esw_rep_nic_template(error);
		return NULL;
	}
	return mlx5dm_esw_table_create(mlx5dm_esw_proxy(dev), attr, pts, nb_pt, ats, nb_at,
				       error);
}

static int
mlx5dm_esw_rep_table_destroy(struct rte_eth_dev *dev, struct rte_flow_template_table *tbl,
			     struct rte_flow_error *error)
{
	return mlx5dm_esw_table_destroy(mlx5dm_esw_proxy(dev), tbl, error);
}

static struct rte_flow *
mlx5dm_esw_rep_async_create(struct rte_eth_dev *dev, uint32_t queue,
			    const struct rte_flow_op_attr *op_attr,
			    struct rte_flow_template_table *tbl,
			    const struct rte_flow_item pattern[], uint8_t pt_idx,
			    const struct rte_flow_action actions[], uint8_t at_idx,
			    void *user_data, struct rte_flow_error *error)
{
	return mlx5dm_flow_async_create(mlx5dm_esw_proxy(dev), queue, op_attr, tbl, pattern,
					pt_idx, actions, at_idx, user_data, error);
}

static int
mlx5dm_esw_rep_async_destroy(struct rte_eth_dev *dev, uint32_t queue,
			     const struct rte_flow_op_attr *op_attr, struct rte_flow *flow,
			     void *user_data, struct rte_flow_error *error)
{
	return mlx5dm_flow_async_destroy(mlx5dm_esw_proxy(dev), queue, op_attr, flow, user_data,
					 error);
}

static int
mlx5dm_esw_rep_push(struct rte_eth_dev *dev, uint32_t queue, struct rte_flow_error *error)
{
	return mlx5dm_flow_push(mlx5dm_esw_proxy(dev), queue, error);
}

static int
mlx5dm_esw_rep_pull(struct rte_eth_dev *dev, uint32_t queue, struct rte_flow_op_result res[],
		    uint16_t n_res, struct rte_flow_error *error)
{
	return mlx5dm_flow_pull(mlx5dm_esw_proxy(dev), queue, res, n_res, error);
}

static struct rte_flow_action_handle *
mlx5dm_esw_rep_handle_create(struct rte_eth_dev *dev, uint32_t queue,
			     const struct rte_flow_op_attr *op_attr,
			     const struct rte_flow_indir_action_conf *conf,
			     const struct rte_flow_action *action, void *user_data,
			     struct rte_flow_error *error)
{
	if (conf != NULL && !conf->transfer) {
		mlx5dm_esw_rep_nic_template(error);
		return NULL;
	}
	return mlx5dm_flow_async_handle_create(mlx5dm_esw_proxy(dev), queue, op_attr, conf,
					       action, user_data, error);
}

static int
mlx5dm_esw_rep_handle_destroy(struct rte_eth_dev *dev, uint32_t queue,
			      const struct rte_flow_op_attr *op_attr,
			      struct rte_flow_action_handle *h, void *user_data,
			      struct rte_flow_error *error)
{
	return mlx5dm_flow_async_handle_destroy(mlx5dm_esw_proxy(dev), queue, op_attr, h,
						user_data, error);
}

static int
mlx5dm_esw_rep_handle_query(struct rte_eth_dev *dev, uint32_t queue,
			    const struct rte_flow_op_attr *op_attr,
			    const struct rte_flow_action_handle *h, void *data, void *user_data,
			    struct rte_flow_error *error)
{
	return mlx5dm_flow_async_handle_query(mlx5dm_esw_proxy(dev), queue, op_attr, h, data,
					      user_data, error);
}

int
mlx5dm_esw_flow_ops_get(struct rte_eth_dev *dev, const struct rte_flow_ops **ops)
{
	struct mlx5dm_priv *priv = dev->data->dev_private;
	struct mlx5dm_esw *esw = priv->sh != NULL ? priv->sh->esw : NULL;

	/* A representor whose manager is closed has no steering left: no operation. */
	static const struct rte_flow_ops none;

	if (priv->kind == MLX5DM_PORT_REPRESENTOR && mlx5dm_esw_manager(priv) == NULL) {
		*ops = &none;
		return 0;
	}
	if (esw == NULL || mlx5dm_esw_manager(priv) == NULL)
		return mlx5dm_flow_ops_get(dev, ops);
	*ops = priv->kind == MLX5DM_PORT_REPRESENTOR ? &esw->rep_ops : &esw->mgr_ops;
	return 0;
}

/* ---- the representors' rules of the manager's NIC RX and NIC TX ---- */

#define REG_C0 MLX5DM_FTE(misc2, metadata_reg_c_0)
#define SQN MLX5DM_FTE(misc, source_sqn)

/*
 * A matcher of field f under mask in tbl: the VFs' stamps (misc2
 * metadata_reg_c_0) on RX, the representors' send queues (misc
 * source_sqn) on TX.
 */
static struct mlx5dm_matcher *
mlx5dm_esw_stamp_matcher(struct mlx5dm_table *tbl, uint16_t priority, enum mlx5dm_fte_field f,
			 uint32_t mask)
{
	uint8_t mparam[MLX5DM_MATCH_PARAM_SIZE] = { 0 };
	struct mlx5dm_matcher_attr mattr = { .priority = priority, .mask = mparam };

	mlx5dm_fte_set(mparam, f, mask);
	mattr.criteria = mlx5dm_flow_match_criteria(mparam);
	return mlx5dm_matcher_create(tbl, &mattr, NULL);
}

/* A rule of m for field f's value, one action (NULL: none, to the domain's default). */
static int
mlx5dm_esw_stamp_rule(struct mlx5dm_priv *mgr, struct mlx5dm_matcher *m, enum mlx5dm_fte_field f,
		      uint32_t value, struct mlx5dm_action *a, struct mlx5dm_rule **rule)
{
	uint8_t vparam[MLX5DM_MATCH_PARAM_SIZE] = { 0 };
	uint16_t queue;

	mlx5dm_fte_set(vparam, f, value);
	queue = mlx5dm_esw_queue_take(mgr, mgr->flow);
	*rule = mlx5dm_rule_create(m, queue, vparam, a != NULL, a != NULL ? &a : NULL);
	mlx5dm_esw_queue_give(mgr, mgr->flow, queue);
	return *rule == NULL ? -errno : 0;
}

/* ---- the switch's life ---- */

int
mlx5dm_esw_init(struct mlx5dm_shared *sh)
{
	const struct rte_flow_ops *base;
	struct mlx5dm_esw *esw;
	int ret;

	if (sh->args.nb_vfs == 0)
		return 0;
	esw = rte_zmalloc("mlx5dm_esw", sizeof(*esw), 0);
	if (esw == NULL)
		return -ENOMEM;
	ret = rte_eth_switch_domain_alloc(&sh->switch_domain);
	if (ret < 0) {
		MLX5DM_DRV_LOG(ERR, "%s: no switch domain left", sh->name);
		rte_free(esw);
		return ret;
	}
	rte_spinlock_init(&esw->lock);
	TAILQ_INIT(&esw->tails);
	TAILQ_INIT(&esw->tables);
	base = mlx5dm_esw_nic_ops();
	esw->mgr_ops = *base;
	esw->mgr_ops.validate = mlx5dm_esw_validate;
	esw->mgr_ops.create = mlx5dm_esw_create;
	esw->mgr_ops.destroy = mlx5dm_esw_destroy;
	esw->mgr_ops.flush = mlx5dm_esw_flush;
	esw->mgr_ops.query = mlx5dm_esw_query;
	esw->mgr_ops.pick_transfer_proxy = mlx5dm_esw_pick_transfer_proxy;
	esw->mgr_ops.dev_dump = mlx5dm_esw_dev_dump;
	esw->mgr_ops.template_table_create = mlx5dm_esw_table_create;
	esw->mgr_ops.template_table_destroy = mlx5dm_esw_table_destroy;
	esw->rep_ops = (struct rte_flow_ops){
		.validate = mlx5dm_esw_validate,
		.create = mlx5dm_esw_create,
		.destroy = mlx5dm_esw_destroy,
		.flush = mlx5dm_esw_flush,
		.query = mlx5dm_esw_query,
		.pick_transfer_proxy = mlx5dm_esw_pick_transfer_proxy,
		.dev_dump = mlx5dm_esw_dev_dump,
		.info_get = mlx5dm_esw_rep_info_get,
		.configure = mlx5dm_esw_rep_configure,
		.pattern_template_create = mlx5dm_esw_rep_pt_create,
		.pattern_template_destroy = mlx5dm_esw_rep_pt_destroy,
		.actions_template_create = mlx5dm_esw_rep_at_create,
		.actions_template_destroy = mlx5dm_esw_rep_at_destroy,
		.template_table_create = mlx5dm_esw_rep_table_create,
		.template_table_destroy = mlx5dm_esw_rep_table_destroy,
		.async_create = mlx5dm_esw_rep_async_create,
		.async_destroy = mlx5dm_esw_rep_async_destroy,
		.push = mlx5dm_esw_rep_push,
		.pull = mlx5dm_esw_rep_pull,
		.async_action_handle_create = mlx5dm_esw_rep_handle_create,
		.async_action_handle_destroy = mlx5dm_esw_rep_handle_destroy,
		.async_action_handle_query = mlx5dm_esw_rep_handle_query,
	};
	sh->esw = esw;
	sh->esw_translator = &mlx5dm_esw_translator;
	return 0;
}

void
mlx5dm_esw_fini(struct mlx5dm_shared *sh)
{
	struct mlx5dm_esw_table *t;

	if (sh->esw == NULL)
		return;
	/* The tables the port's close freed (the switch stopped, their tails went). */
	while ((t = TAILQ_FIRST(&sh->esw->tables)) != NULL) {
		TAILQ_REMOVE(&sh->esw->tables, t, next);
		rte_free(t);
	}
	rte_eth_switch_domain_free(sh->switch_domain);
	rte_free(sh->esw);
	sh->esw = NULL;
	sh->esw_translator = NULL;
}

/*
 * The manager started (its NIC tables exist): the FDB's group 0 becomes the
 * switch's root, with the manager's frames to the wire below every rule.
 */
int
mlx5dm_esw_start(struct rte_eth_dev *dev)
{
	struct mlx5dm_priv *mgr = dev->data->dev_private;
	struct mlx5dm_esw *esw = mgr->sh->esw;
	struct rte_flow_error error = { .message = NULL };
	struct mlx5dm_esw_table *t;
	uint32_t value, mask;
	int ret;

	rte_spinlock_lock(&esw->lock);
	rte_spinlock_lock(&mgr->flow->lock);
	esw->root = mlx5dm_flow_tbl_get(mgr->flow, MLX5DM_FLOW_DOM_FDB, 0);
	rte_spinlock_unlock(&mgr->flow->lock);
	if (esw->root == NULL) {
		ret = -errno;
		goto unlock;
	}
	ret = mlx5dm_domain_set_root(mgr->dom_fdb, mlx5dm_flow_tbl_table(esw->root));
	if (ret < 0)
		goto put_root;
	/* Without vport metadata no representor starts (mlx5dm_esw_rep_start()). */
	if (mlx5dm_dev_vport_reg_c0(mgr->dev, MLX5DM_DEV_VPORT_UPLINK, &value, &mask) == 0) {
		rte_spinlock_lock(&mgr->flow->lock);
		esw->dispatch = mlx5dm_esw_stamp_matcher(mlx5dm_flow_tbl_table(mgr->flow->root[0]),
							 0, REG_C0, mask);
		if (esw->dispatch != NULL)
			esw->gate = mlx5dm_esw_stamp_matcher(mlx5dm_flow_tbl_table(
							     mgr->flow->root[1]), 0, SQN, 0xffffff);
		rte_spinlock_unlock(&mgr->flow->lock);
		if (esw->dispatch == NULL || esw->gate == NULL) {
			ret = -errno;
			goto destroy_dispatch;
		}
	}
	esw->uplink = mlx5dm_esw_own_rule(mgr, MLX5DM_ESW_CATCH_GROUP, MLX5DM_ESW_LAST_PRIORITY, -1,
					  MLX5DM_DEV_VPORT_UPLINK, &error);
	if (esw->uplink == NULL) {
		ret = -EIO;
		MLX5DM_DRV_LOG(ERR, "port %u: the manager's rule to the wire failed: %s",
			       mgr->port_id, error.message != NULL ? error.message : "");
		goto destroy_dispatch;
	}
	/* Group 0's tail lives as long as the switch runs. */
	ret = mlx5dm_esw_tail_get(mgr, 0);
	if (ret < 0)
		goto remove_uplink;
	TAILQ_FOREACH(t, &esw->tables, next)
		mlx5dm_esw_table_hold(mgr, t, true);
	esw->started = true;
	rte_spinlock_unlock(&esw->lock);
	return 0;
remove_uplink:
	mlx5dm_esw_own_remove(mgr, esw->uplink);
	esw->uplink = NULL;
destroy_dispatch:
	if (esw->gate != NULL)
		mlx5dm_matcher_destroy(esw->gate);
	esw->gate = NULL;
	if (esw->dispatch != NULL)
		mlx5dm_matcher_destroy(esw->dispatch);
	esw->dispatch = NULL;
	mlx5dm_domain_set_root(mgr->dom_fdb, NULL);
put_root:
	rte_spinlock_lock(&mgr->flow->lock);
	mlx5dm_flow_tbl_put(mgr->flow, esw->root);
	rte_spinlock_unlock(&mgr->flow->lock);
	esw->root = NULL;
unlock:
	rte_spinlock_unlock(&esw->lock);
	return ret;
}

static void
mlx5dm_esw_rep_rx_remove(struct mlx5dm_priv *mgr, struct mlx5dm_priv *rep);

/* Transfer rules do not survive the manager's stop; nor do its representors' Rx rules. */
void
mlx5dm_esw_stop(struct rte_eth_dev *dev)
{
	struct mlx5dm_priv *mgr = dev->data->dev_private;
	struct mlx5dm_flow_priv *fp = mgr->flow;
	struct mlx5dm_shared *sh = mgr->sh;
	struct mlx5dm_esw *esw = sh->esw;
	struct mlx5dm_esw_table *t;
	uint16_t i;

	for (i = 0; i < sh->nb_ethdevs; i++)
		if (sh->ports[i] != NULL && sh->ports[i]->kind == MLX5DM_PORT_REPRESENTOR)
			mlx5dm_esw_rep_rx_remove(mgr, sh->ports[i]);
	rte_spinlock_lock(&esw->lock);
	if (!esw->started) {
		rte_spinlock_unlock(&esw->lock);
		return;
	}
	esw->started = false;
	/*
	 * The rules first, then the tails they jump through, then the tables
	 * (the root's) the tails are in: the rules of rte_flow_create()
	 * (transfer ones with their tails, representors' NIC ones), then the
	 * template rules (the flow path's, which the port's flow stop would
	 * flush after this; its flush leaves the former) and their anchors'
	 * tails.
	 */
	if (mlx5dm_esw_record_flush(mgr, RTE_MAX_ETHPORTS, MLX5DM_ESW_ALL, NULL) < 0)
		MLX5DM_DRV_LOG(ERR, "port %u: a rule of the switch was not removed", mgr->port_id);
	rte_spinlock_lock(&fp->lock);
	mlx5dm_flow_objs_quiesce(fp);
	if (fp->started)
		(void)mlx5dm_flow_objs_flush(fp, NULL);
	__atomic_store_n(&fp->quiescing, false, __ATOMIC_SEQ_CST);
	rte_spinlock_unlock(&fp->lock);
	mlx5dm_esw_anchors_put(mgr);
	TAILQ_FOREACH(t, &esw->tables, next)
		mlx5dm_esw_table_hold(mgr, t, false);
	mlx5dm_esw_tail_put(mgr, 0);
	mlx5dm_esw_own_remove(mgr, esw->uplink);
	esw->uplink = NULL;
	if (esw->dispatch != NULL && mlx5dm_matcher_destroy(esw->dispatch) < 0)
		MLX5DM_DRV_LOG(ERR, "port %u: the representors' root matcher still in use",
			       mgr->port_id);
	esw->dispatch = NULL;
	if (esw->gate != NULL && mlx5dm_matcher_destroy(esw->gate) < 0)
		MLX5DM_DRV_LOG(ERR, "port %u: the representors' NIC TX matcher still in use",
			       mgr->port_id);
	esw->gate = NULL;
	mlx5dm_domain_set_root(mgr->dom_fdb, NULL);
	rte_spinlock_lock(&mgr->flow->lock);
	mlx5dm_flow_tbl_put(mgr->flow, esw->root);
	rte_spinlock_unlock(&mgr->flow->lock);
	esw->root = NULL;
	rte_spinlock_unlock(&esw->lock);
}

/* ---- a representor's Rx ---- */

/*
 * A representor's own rule goes. A rule queue in error refuses the
 * destroy (EIO, the rule kept): the queue is brought back first.
 */
static int
mlx5dm_esw_rep_rule_remove(struct mlx5dm_flow_priv *fp, struct mlx5dm_rule *rule, uint16_t queue)
{
	int ret = mlx5dm_rule_destroy(rule, queue);

	if (ret == -EIO && mlx5dm_flow_queue_recover(fp, queue) == 0)
		ret = mlx5dm_rule_destroy(rule, queue);
	return ret;
}

/* Remove r's rules and objects (what exists of them); fp->lock held for the root's. */
static void
mlx5dm_esw_rep_free(struct mlx5dm_priv *mgr, struct mlx5dm_esw_rep *r)
{
	struct mlx5dm_flow_priv *fp = mgr->flow;
	uint16_t queue;

	queue = mlx5dm_esw_queue_take(mgr, fp);
	while (r->nb_gate > 0)
		if (mlx5dm_esw_rep_rule_remove(fp, r->gate[--r->nb_gate], queue) < 0)
			MLX5DM_DRV_LOG(ERR, "a representor's NIC TX rule was not removed");
	if (r->rule != NULL && mlx5dm_esw_rep_rule_remove(fp, r->rule, queue) < 0)
		MLX5DM_DRV_LOG(ERR, "a representor's root rule was not removed");
	if (r->drule != NULL && mlx5dm_esw_rep_rule_remove(fp, r->drule, queue) < 0)
		MLX5DM_DRV_LOG(ERR, "a representor's default rule was not removed");
	mlx5dm_esw_queue_give(mgr, fp, queue);
	if (r->dm != NULL)
		mlx5dm_matcher_destroy(r->dm);
	if (r->to_tbl != NULL)
		mlx5dm_action_destroy(r->to_tbl);
	if (r->to_tir != NULL)
		mlx5dm_action_destroy(r->to_tir);
	if (r->tbl != NULL)
		mlx5dm_flow_tbl_put(fp, r->tbl);
	if (r->tir != NULL)
		mlx5dm_tir_destroy(r->tir);
	rte_free(r);
}

/*
 * The representor's Tx rules, its NIC rules and the transfer rules on its
 * send queues (PORT_REPRESENTOR of it, which a queue setup may renumber
 * once stopped), then its Rx.
 */
static void
mlx5dm_esw_rep_rx_remove(struct mlx5dm_priv *mgr, struct mlx5dm_priv *rep)
{
	struct mlx5dm_esw *esw = rep->sh->esw;

	rte_spinlock_lock(&esw->lock);
	if (esw->started &&
	    mlx5dm_esw_record_flush(mgr, rep->port_id, MLX5DM_ESW_STOPPED, NULL) < 0)
		MLX5DM_DRV_LOG(ERR, "port %u: a rule of its own or on its send queues was not "
			       "removed", rep->port_id);
	while (rep->rep != NULL && rep->rep->nb_tx > 0)
		mlx5dm_esw_own_remove(mgr, rep->rep->tx[--rep->rep->nb_tx]);
	rte_spinlock_unlock(&esw->lock);
	if (rep->rep == NULL)
		return;
	rte_spinlock_lock(&mgr->flow->lock);
	mlx5dm_esw_rep_free(mgr, rep->rep);
	rte_spinlock_unlock(&mgr->flow->lock);
	rep->rep = NULL;
}

/* The rule of esw->gate letting send queue sqn's frames out: no action, to the TX default. */
static int
mlx5dm_esw_rep_gate(struct mlx5dm_priv *mgr, struct mlx5dm_esw_rep *r, uint32_t sqn)
{
	int ret;

	rte_spinlock_lock(&mgr->flow->lock);
	ret = mlx5dm_esw_stamp_rule(mgr, mgr->sh->esw->gate, SQN, sqn, NULL, &r->gate[r->nb_gate]);
	rte_spinlock_unlock(&mgr->flow->lock);
	if (ret == 0)
		r->nb_gate++;
	return ret;
}

/*
 * What a representor sends goes to its VF, as DPDK mlx5's representor
 * send queues do: its queues are the manager's, so in the catch group,
 * below every transfer rule and above the manager's rule to the wire, the
 * manager's frames of each of its send queues (source_sqn) go to the VF's
 * vport, a rule of the switch per queue. Before that, the manager's NIC
 * TX lets them out past its egress rules (a rule of esw->gate per queue).
 */
static int
mlx5dm_esw_rep_tx_start(struct rte_eth_dev *dev, struct mlx5dm_priv *mgr, struct mlx5dm_esw_rep *r)
{
	struct mlx5dm_priv *rep = dev->data->dev_private;
	struct mlx5dm_esw *esw = rep->sh->esw;
	struct rte_flow_error error = { .message = "the E-Switch is not started" };
	const struct mlx5dm_txq *txq;
	int ret = 0;

	rte_spinlock_lock(&esw->lock);
	while (r->nb_tx < dev->data->nb_tx_queues) {
		txq = dev->data->tx_queues[r->nb_tx];
		if (esw->started && r->nb_gate == r->nb_tx &&
		    mlx5dm_esw_rep_gate(mgr, r, txq->sqn) < 0) {
			MLX5DM_DRV_LOG(ERR, "port %u: no NIC TX rule of its Tx queue %u: %d",
				       rep->port_id, r->nb_tx, -errno);
			ret = -EIO;
			break;
		}
		r->tx[r->nb_tx] = !esw->started ? NULL :
				  mlx5dm_esw_own_rule(mgr, MLX5DM_ESW_CATCH_GROUP,
						      MLX5DM_ESW_SQ_PRIORITY, txq->sqn,
						      rep->vport, &error);
		if (r->tx[r->nb_tx] == NULL) {
			MLX5DM_DRV_LOG(ERR, "port %u: no rule of its Tx queue %u to its VF: %s",
				       rep->port_id, r->nb_tx, error.message != NULL ?
				       error.message : "");
			ret = -EIO;
			break;
		}
		r->nb_tx++;
	}
	rte_spinlock_unlock(&esw->lock);
	return ret;
}

/*
 * The representor's Rx: in the manager's NIC RX root table, before the
 * manager's rules, its VF's stamp jumps to a table of its own, where its
 * NIC rules are, then its default: a TIR over its Rx queues (RSS over IP
 * addresses with several). Frames of its VF that missed the FDB get there.
 */
int
mlx5dm_esw_rep_start(struct rte_eth_dev *dev)
{
	struct mlx5dm_priv *rep = dev->data->dev_private;
	struct mlx5dm_priv *mgr = mlx5dm_esw_manager(rep);
	struct mlx5dm_flow_priv *fp;
	uint32_t rqns[MLX5DM_MAX_QUEUES], value, mask;
	struct mlx5dm_rss_attr rss = {
		.fields = MLX5DM_RSS_SRC_IP | MLX5DM_RSS_DST_IP,
		.key = { 0x2c, 0xc6, 0x81, 0xd1, 0x5b, 0xdb, 0xf4, 0xf7, 0xfc, 0xa2,
			 0x83, 0x19, 0xdb, 0x1a, 0x3e, 0x94, 0x6b, 0x9e, 0x38, 0xd9,
			 0x2c, 0x9c, 0x03, 0xd1, 0xad, 0x99, 0x44, 0xa7, 0xd9, 0x56,
			 0x3d, 0x59, 0x06, 0x3c, 0x25, 0xf3, 0xfc, 0x1f, 0xdc, 0x2a },
	};
	struct mlx5dm_esw *esw = rep->sh->esw;
	struct mlx5dm_esw_rep *r;
	uint16_t q;
	int ret;

	if (mgr == NULL) {
		MLX5DM_DRV_LOG(ERR, "port %u: its E-Switch manager is closed", rep->port_id);
		return -ENODEV;
	}
	fp = mgr->flow;
	if (fp == NULL || !fp->started || !mgr->started) {
		MLX5DM_DRV_LOG(ERR, "port %u: start the E-Switch manager (port %u) before its "
			       "representors", rep->port_id, mgr->port_id);
		return -EAGAIN;
	}
	ret = mlx5dm_dev_vport_reg_c0(mgr->dev, rep->vport, &value, &mask);
	if (ret < 0)
		return ret;
	if (esw->dispatch == NULL)
		return -ENOTSUP;
	for (q = 0; q < dev->data->nb_rx_queues; q++) {
		ret = mlx5dm_rxq_rqn(dev, q, &rqns[q]);
		if (ret < 0)
			return ret;
	}
	r = rte_zmalloc_socket("mlx5dm_esw_rep", sizeof(*r), 0, mgr->data->numa_node);
	if (r == NULL)
		return -ENOMEM;
	/* Without Rx queues only its Tx: what it sends still goes to its VF. */
	if (dev->data->nb_rx_queues == 0)
		goto tx;
	r->tir = mlx5dm_tir_create(mgr->steer, rqns, dev->data->nb_rx_queues,
				   dev->data->nb_rx_queues > 1 ? &rss : NULL);
	if (r->tir == NULL)
		goto err;
	r->to_tir = mlx5dm_action_dest_tir(mgr->dom_rx, r->tir);
	if (r->to_tir == NULL)
		goto err;
	rte_spinlock_lock(&fp->lock);
	/* Past the root's level (group 0 is level 1), as a jump target must be. */
	r->tbl = mlx5dm_flow_tbl_get(fp, MLX5DM_FLOW_DOM_REP(rep->vf), 1);
	if (r->tbl != NULL)
		r->to_tbl = mlx5dm_action_dest_table(mgr->dom_rx, mlx5dm_flow_tbl_table(r->tbl));
	if (r->to_tbl != NULL)
		r->dm = mlx5dm_esw_stamp_matcher(mlx5dm_flow_tbl_table(r->tbl), UINT16_MAX, REG_C0,
						 0);
	ret = r->dm != NULL ? mlx5dm_esw_stamp_rule(mgr, r->dm, REG_C0, 0, r->to_tir, &r->drule) :
			      -errno;
	if (ret == 0)
		ret = mlx5dm_esw_stamp_rule(mgr, esw->dispatch, REG_C0, value & mask, r->to_tbl,
					    &r->rule);
	if (ret < 0) {
		mlx5dm_esw_rep_free(mgr, r);
		rte_spinlock_unlock(&fp->lock);
		return ret;
	}
	rte_spinlock_unlock(&fp->lock);
tx:
	rep->rep = r;
	ret = mlx5dm_esw_rep_tx_start(dev, mgr, r);
	if (ret < 0)
		mlx5dm_esw_rep_rx_remove(mgr, rep);
	return ret;
err:
	ret = errno != 0 ? -errno : -EIO;
	mlx5dm_esw_rep_free(mgr, r);
	return ret;
}

/* The manager (re)started: its running representors' rules, as their start made them. */
void
mlx5dm_esw_reps_restart(struct mlx5dm_priv *mgr)
{
	struct mlx5dm_shared *sh = mgr->sh;
	struct rte_eth_dev *dev;
	uint16_t i;
	int ret;

	for (i = 0; i < sh->nb_ethdevs; i++) {
		if (sh->ports[i] == NULL || sh->ports[i]->kind != MLX5DM_PORT_REPRESENTOR ||
		    !sh->ports[i]->started || sh->ports[i]->rep != NULL)
			continue;
		dev = &rte_eth_devices[sh->ports[i]->port_id];
		ret = mlx5dm_esw_rep_start(dev);
		if (ret < 0)
			MLX5DM_DRV_LOG(ERR, "port %u: representor rules not restored: %s",
				       sh->ports[i]->port_id, rte_strerror(-ret));
	}
}

void
mlx5dm_esw_rep_stop(struct rte_eth_dev *dev)
{
	struct mlx5dm_priv *rep = dev->data->dev_private;

	/* Without a manager (closed) its rules went with the manager's stop. */
	if (mlx5dm_esw_manager(rep) != NULL)
		mlx5dm_esw_rep_rx_remove(mlx5dm_esw_manager(rep), rep);
}
