/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * rte_flow_info_get / rte_flow_configure, pattern and actions templates,
 * template tables (mlx5dm_flow_template.h). Everything here is control
 * path: lists and the table's matchers change under fp->lock.
 */

#include <errno.h>
#include <netinet/in.h>
#include <string.h>

#include <rte_common.h>
#include <rte_ethdev.h>
#include <rte_flow_driver.h>
#include <ethdev_driver.h>

#include "mlx5dm.h"
#include "mlx5dm_flow.h"
#include "mlx5dm_flow_item.h"
#include "mlx5dm_flow_template.h"
#include "mlx5dm_osdep.h"

/* A masked field's example value, what masks are compared with (larger than any item or conf). */
static const uint8_t mlx5dm_flow_tmpl_zero[256];

/* The port's template state; NULL (and error set) before rte_flow_configure(). */
static struct mlx5dm_flow_tmpl *
mlx5dm_flow_tmpl_get(struct mlx5dm_flow_priv *fp, struct rte_flow_error *error)
{
	if (fp == NULL) {
		mlx5dm_flow_nomem(error);
		return NULL;
	}
	if (fp->tmpl == NULL)
		mlx5dm_flow_tmpl_err(error, EINVAL, "the flow engine is not configured: "
				     "call rte_flow_configure() first");
	return fp->tmpl;
}

/* Transfer templates and tables are the E-Switch manager's (its FDB); 0, or -errno with error. */
static int
mlx5dm_flow_tmpl_transfer_ok(struct rte_eth_dev *dev, struct rte_flow_error *error)
{
	struct mlx5dm_priv *priv = dev->data->dev_private;

	if (mlx5dm_esw_manager(priv) == priv && priv->dom_fdb != NULL &&
	    priv->sh->esw_translator != NULL)
		return 0;
	return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ATTR_TRANSFER, NULL,
				  "transfer (FDB) templates need an E-Switch: the manager of a "
				  "vdev with representor=vf[...] (rte_flow_pick_transfer_proxy())");
}

/* The items naming a port of the switch (transfer rules only). */
static bool
mlx5dm_flow_tmpl_port_item(enum rte_flow_item_type type)
{
	return type == RTE_FLOW_ITEM_TYPE_REPRESENTED_PORT ||
	       type == RTE_FLOW_ITEM_TYPE_PORT_REPRESENTOR || type == RTE_FLOW_ITEM_TYPE_PORT_ID;
}

/*
 * An item of a transfer pattern template: a port item masks its port
 * whole (the port is the rule's), the metadata items are the NIC's.
 * 0, or -errno with error.
 */
static int
mlx5dm_flow_tmpl_transfer_item(const struct rte_flow_item *it, struct rte_flow_error *error)
{
	const void *m = it->mask;

	switch ((int)it->type) {
	case RTE_FLOW_ITEM_TYPE_PORT_ID:
		if (m != NULL && ((const struct rte_flow_item_port_id *)m)->id == UINT32_MAX)
			return 0;
		break;
	case RTE_FLOW_ITEM_TYPE_REPRESENTED_PORT:
		if (m != NULL && ((const struct rte_flow_item_ethdev *)m)->port_id == UINT16_MAX)
			return 0;
		break;
	case RTE_FLOW_ITEM_TYPE_PORT_REPRESENTOR:
		/* What a port sends is told by its send queues, a rule per queue (esw.c). */
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM, it,
					  mlx5dm_flow_named_msg(false, it->type,
					  "not supported in transfer templates (what a port "
					  "sends: rte_flow_create())"));
	case RTE_FLOW_ITEM_TYPE_MARK:
	case RTE_FLOW_ITEM_TYPE_META:
	case RTE_FLOW_ITEM_TYPE_TAG:
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM, it,
					  mlx5dm_flow_named_msg(false, it->type,
					  "not supported in transfer templates"));
	default:
		return 0;
	}
	return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM_MASK, it,
				  mlx5dm_flow_named_msg(false, it->type,
				  "a transfer template masks the port whole (each rule names it)"));
}

int
mlx5dm_flow_info_get(struct rte_eth_dev *dev __rte_unused, struct rte_flow_port_info *port_info,
		     struct rte_flow_queue_info *queue_info,
		     struct rte_flow_error *error __rte_unused)
{
	memset(port_info, 0, sizeof(*port_info));
	port_info->max_nb_queues = MLX5DM_FLOW_MAX_QUEUES;
	port_info->max_nb_counters = mlx5dm_flow_cnt_max();
	/* Operations in flight per flow queue: what a rule queue's send ring holds. */
	if (queue_info != NULL)
		queue_info->max_size = MLX5DM_QUEUE_MAX_OPS;
	return 0;
}

/* nb flow queues (NULL: none, nb 0), made by mlx5dm_flow_async_queue_new() or in the making. */
static void
mlx5dm_flow_async_queue_free(struct mlx5dm_flow_async_queue *aq, uint16_t nb)
{
	uint16_t q;

	for (q = 0; q < nb; q++)
		mlx5dm_free(aq[q].op);
	mlx5dm_free(aq);
}

/* The queues as asked, or a negative errno with error (nothing changed). */
static int
mlx5dm_flow_async_queue_new(uint16_t nb, const struct rte_flow_queue_attr *attr[], int socket,
			    struct mlx5dm_flow_async_queue **out, struct rte_flow_error *error)
{
	struct mlx5dm_flow_async_queue *aq;
	uint16_t q;

	for (q = 0; q < nb; q++)
		if (attr[q] == NULL || attr[q]->size == 0 || attr[q]->size > MLX5DM_QUEUE_MAX_OPS)
			return mlx5dm_flow_tmpl_err(error, EINVAL, "a flow queue's size must be "
						    "1 to rte_flow_info_get()'s max_size");
	aq = mlx5dm_aligned_zmalloc_socket(sizeof(*aq) * nb, RTE_CACHE_LINE_SIZE, socket);
	if (aq == NULL)
		return mlx5dm_flow_nomem(error);
	for (q = 0; q < nb; q++) {
		aq[q].size = attr[q]->size;
		aq[q].op = mlx5dm_calloc_socket(attr[q]->size, sizeof(aq[q].op[0]), socket);
		if (aq[q].op == NULL) {
			mlx5dm_flow_async_queue_free(aq, nb);
			return mlx5dm_flow_nomem(error);
		}
	}
	*out = aq;
	return 0;
}

/*
 * Size the send rings of the rule queues behind nb flow queues of attr's
 * sizes: flow queue q goes through rule queue rule_queue_tmpl + q %
 * nb_rule_queues_tmpl (mlx5dm_flow_queue.c), whose ring holds what every
 * flow queue it serves may have in flight, up to the largest ring. Its
 * doorbell waits for rte_flow_push() (or a pull, or the ring's need for
 * room): postponed operations reach the device in one batch, as DPDK mlx5
 * HWS sends a flow queue's at the push. 0 or -errno.
 */
static int
mlx5dm_flow_async_queue_rings(struct mlx5dm_priv *priv, uint16_t nb,
			      const struct rte_flow_queue_attr *attr[])
{
	uint16_t i, q;
	int ret;

	if (priv->steer == NULL || priv->nb_rule_queues_tmpl == 0)
		return 0;
	for (i = 0; i < RTE_MIN(nb, priv->nb_rule_queues_tmpl); i++) {
		uint32_t ops = 0;

		for (q = i; q < nb; q += priv->nb_rule_queues_tmpl)
			ops += attr[q]->size;
		ret = mlx5dm_queue_resize(priv->steer, (uint16_t)(priv->rule_queue_tmpl + i),
					  RTE_MIN(ops, MLX5DM_QUEUE_MAX_OPS));
		if (ret == 0)
			ret = mlx5dm_queue_doorbell_batch(priv->steer,
							  (uint16_t)(priv->rule_queue_tmpl + i),
							  UINT32_MAX);
		if (ret < 0)
			return ret;
	}
	return 0;
}

int
mlx5dm_flow_configure(struct rte_eth_dev *dev, const struct rte_flow_port_attr *port_attr,
		      uint16_t nb_queue, const struct rte_flow_queue_attr *queue_attr[],
		      struct rte_flow_error *error)
{
	struct mlx5dm_flow_priv *fp = mlx5dm_flow_port_fp(dev);
	struct mlx5dm_flow_async_queue *aq = NULL;
	struct mlx5dm_flow_tmpl *t;
	unsigned int q;
	int ret;

	if (fp == NULL)
		return mlx5dm_flow_nomem(error);
	if (port_attr == NULL || nb_queue == 0 || queue_attr == NULL)
		return mlx5dm_flow_tmpl_err(error, EINVAL, "rte_flow_configure: port attributes "
					    "and at least one flow queue are required");
	if (nb_queue > MLX5DM_FLOW_MAX_QUEUES)
		return mlx5dm_flow_tmpl_err(error, EINVAL, "more flow queues than "
					    "rte_flow_info_get()'s max_nb_queues");
	if (port_attr->nb_counters > mlx5dm_flow_cnt_max())
		return mlx5dm_flow_tmpl_err(error, EINVAL, "more counters than "
					    "rte_flow_info_get()'s max_nb_counters");
	if (port_attr->nb_aging_objects != 0 || port_attr->nb_meters != 0 ||
	    port_attr->nb_conn_tracks != 0)
		return mlx5dm_flow_tmpl_err(error, ENOTSUP, "rte_flow_configure: aging objects, "
					    "meters and connection tracking are not supported");
	if (port_attr->flags != 0)
		return mlx5dm_flow_tmpl_err(error, ENOTSUP, "rte_flow_configure: no port flag "
					    "is supported");
	ret = mlx5dm_flow_async_queue_new(nb_queue, queue_attr, fp->socket, &aq, error);
	if (ret < 0)
		return ret;
	rte_spinlock_lock(&fp->lock);
	t = fp->tmpl;
	/* Rules and tables were made for the queues they went through. */
	if (mlx5dm_flow_objs_listed(fp) != 0) {
		ret = mlx5dm_flow_tmpl_err(error, EBUSY, "rte_flow_configure: flow rules exist; "
					   "destroy them before configuring again");
		goto unlock;
	}
	if (t != NULL && !LIST_EMPTY(&t->tables)) {
		ret = mlx5dm_flow_tmpl_err(error, EBUSY, "rte_flow_configure: template tables "
					   "exist; destroy them before configuring again");
		goto unlock;
	}
	if (t == NULL) {
		t = mlx5dm_zmalloc_socket(sizeof(*t), fp->socket);
		if (t == NULL) {
			ret = mlx5dm_flow_nomem(error);
			goto unlock;
		}
		LIST_INIT(&t->pts);
		LIST_INIT(&t->ats);
		LIST_INIT(&t->tables);
		for (q = 0; q < MLX5DM_FLOW_MAX_QUEUES; q++)
			rte_spinlock_init(&t->qlock[q]);
		fp->tmpl = t;
	}
	/* Last: a configure refused above leaves the rings as they were. */
	ret = mlx5dm_flow_async_queue_rings(dev->data->dev_private, nb_queue, queue_attr);
	if (ret < 0) {
		ret = mlx5dm_flow_tmpl_err(error, -ret, "rte_flow_configure: the flow queues' "
					   "send rings could not be sized");
		goto unlock;
	}
	/* The queues replaced go once the lock is let go. */
	RTE_SWAP(t->aq, aq);
	RTE_SWAP(t->nb_queues, nb_queue);
	ret = 0;
unlock:
	rte_spinlock_unlock(&fp->lock);
	mlx5dm_flow_async_queue_free(aq, nb_queue);
	return ret;
}

/* A new template of size bytes (zeroed) followed by rte_flow_conv()'s copy of list. */
static void *
mlx5dm_flow_tmpl_new(struct mlx5dm_flow_priv *fp, size_t size, enum rte_flow_conv_op op,
		     const void *list, struct rte_flow_error *error)
{
	int len = rte_flow_conv(op, NULL, 0, list, error);
	uint8_t *tmpl = len < 0 ? NULL : mlx5dm_zmalloc_socket(size + (size_t)len, fp->socket);

	if (len >= 0 && tmpl == NULL)
		mlx5dm_flow_nomem(error);
	if (tmpl != NULL && rte_flow_conv(op, tmpl + size, len, list, error) < 0) {
		mlx5dm_free(tmpl);
		return NULL;
	}
	return tmpl;
}

/* A new template on the port's list of its kind. */
static void
mlx5dm_flow_tmpl_add(struct mlx5dm_flow_priv *fp, struct mlx5dm_flow_tmpl_list *list,
		     struct mlx5dm_flow_tmpl_head *h, bool ingress, bool egress, bool transfer)
{
	h->ingress = ingress;
	h->egress = egress;
	h->transfer = transfer;
	rte_spinlock_lock(&fp->lock);
	LIST_INSERT_HEAD(list, h, next);
	rte_spinlock_unlock(&fp->lock);
}

struct rte_flow_pattern_template *
mlx5dm_flow_pattern_template_create(struct rte_eth_dev *dev,
				    const struct rte_flow_pattern_template_attr *attr,
				    const struct rte_flow_item pattern[],
				    struct rte_flow_error *error)
{
	struct mlx5dm_flow_priv *fp = mlx5dm_flow_port_fp(dev);
	struct mlx5dm_flow_tmpl *t = mlx5dm_flow_tmpl_get(fp, error);
	struct rte_flow_pattern_template *pt;
	const struct mlx5dm_flow_item_def *def;
	unsigned int i, nb;

	if (t == NULL)
		return NULL;
	if (attr == NULL || pattern == NULL) {
		mlx5dm_flow_tmpl_err(error, EINVAL, "pattern template: attributes and pattern "
				     "are required");
		return NULL;
	}
	if (attr->transfer && mlx5dm_flow_tmpl_transfer_ok(dev, error) < 0)
		return NULL;
	/* A transfer rule's pattern implies its protocols, as rte_flow_create() takes it. */
	if (attr->transfer && attr->relaxed_matching) {
		rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ATTR_TRANSFER, NULL,
				   "relaxed matching is not supported in transfer templates");
		return NULL;
	}
	for (nb = 0; pattern[nb].type != RTE_FLOW_ITEM_TYPE_END; nb++) {
		if (nb == MLX5DM_FLOW_TMPL_MAX_ITEMS) {
			rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM_NUM, NULL,
					   "pattern template: too many items");
			return NULL;
		}
		if (pattern[nb].type == RTE_FLOW_ITEM_TYPE_VOID)
			continue;
		if (attr->transfer && mlx5dm_flow_tmpl_transfer_item(&pattern[nb], error) < 0)
			return NULL;
		if (mlx5dm_flow_item_def_get(pattern[nb].type) == NULL &&
		    !(attr->transfer && mlx5dm_flow_tmpl_port_item(pattern[nb].type))) {
			rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM, &pattern[nb],
					   mlx5dm_flow_type_msg(false, pattern[nb].type));
			return NULL;
		}
		if (pattern[nb].last != NULL) {
			rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM_LAST,
					   &pattern[nb], mlx5dm_flow_named_msg(false,
					   pattern[nb].type, "a template item takes no range"));
			return NULL;
		}
	}
	pt = mlx5dm_flow_tmpl_new(fp, sizeof(*pt), RTE_FLOW_CONV_OP_PATTERN, pattern, error);
	if (pt == NULL)
		return NULL;
	pt->items = (struct rte_flow_item *)(pt + 1);
	/* A mask of zeros matches no field of the item: the same as none. */
	for (i = 0; i < nb; i++) {
		struct rte_flow_item *it = &pt->items[i];

		it->spec = NULL;
		def = mlx5dm_flow_item_def_get(it->type);
		if (mlx5dm_flow_tmpl_port_item(it->type))
			continue;
		if (def == NULL || (it->mask != NULL &&
				    memcmp(it->mask, mlx5dm_flow_tmpl_zero, def->size) == 0))
			it->mask = NULL;
	}
	pt->nb = (uint16_t)nb;
	pt->relaxed = attr->relaxed_matching;
	mlx5dm_flow_tmpl_add(fp, &t->pts, &pt->h, attr->ingress, attr->egress, attr->transfer);
	return pt;
}

/*
 * Destroy a pattern template (pattern) or an actions template: one a table
 * is built on stays, EBUSY, as in DPDK mlx5 HWS (mlx5_flow_hw.c:
 * flow_hw_pattern_template_destroy()).
 */
static int
mlx5dm_flow_tmpl_destroy(struct rte_eth_dev *dev, bool pattern, const void *tmpl,
			 struct rte_flow_error *error)
{
	struct mlx5dm_flow_priv *fp = mlx5dm_flow_port_fp(dev);
	struct mlx5dm_flow_tmpl *t = mlx5dm_flow_tmpl_get(fp, error);
	struct mlx5dm_flow_tmpl_head *h;
	int ret = 0;

	if (t == NULL)
		return -rte_errno;
	rte_spinlock_lock(&fp->lock);
	/* A handle is compared, never read, until the port's list has it. */
	LIST_FOREACH(h, pattern ? &t->pts : &t->ats, next)
		if ((const void *)h == tmpl)
			break;
	if (h == NULL)
		ret = mlx5dm_flow_tmpl_err(error, EINVAL, pattern ? "unknown pattern template" :
					   "unknown actions template");
	else if (h->users != 0)
		ret = mlx5dm_flow_tmpl_err(error, EBUSY, pattern ?
					   "the pattern template is used by a template table" :
					   "the actions template is used by a template table");
	else
		LIST_REMOVE(h, next);
	rte_spinlock_unlock(&fp->lock);
	if (ret == 0)
		mlx5dm_free(h);
	return ret;
}

int
mlx5dm_flow_pattern_template_destroy(struct rte_eth_dev *dev,
				     struct rte_flow_pattern_template *pt,
				     struct rte_flow_error *error)
{
	return mlx5dm_flow_tmpl_destroy(dev, true, pt, error);
}

/*
 * The size of an action's configuration when it is one flat structure: a
 * mask of it that is all zero leaves every field to the rule. 0 for the
 * others (lists, headers): any mask fixes them.
 */
static const uint8_t mlx5dm_flow_tmpl_flat_conf[] = {
	[RTE_FLOW_ACTION_TYPE_QUEUE] = sizeof(struct rte_flow_action_queue),
	[RTE_FLOW_ACTION_TYPE_MARK] = sizeof(struct rte_flow_action_mark),
	[RTE_FLOW_ACTION_TYPE_JUMP] = sizeof(struct rte_flow_action_jump),
	[RTE_FLOW_ACTION_TYPE_SET_MAC_SRC] = sizeof(struct rte_flow_action_set_mac),
	[RTE_FLOW_ACTION_TYPE_SET_MAC_DST] = sizeof(struct rte_flow_action_set_mac),
	[RTE_FLOW_ACTION_TYPE_SET_IPV4_SRC] = sizeof(struct rte_flow_action_set_ipv4),
	[RTE_FLOW_ACTION_TYPE_SET_IPV4_DST] = sizeof(struct rte_flow_action_set_ipv4),
	[RTE_FLOW_ACTION_TYPE_SET_IPV6_SRC] = sizeof(struct rte_flow_action_set_ipv6),
	[RTE_FLOW_ACTION_TYPE_SET_IPV6_DST] = sizeof(struct rte_flow_action_set_ipv6),
	[RTE_FLOW_ACTION_TYPE_SET_TP_SRC] = sizeof(struct rte_flow_action_set_tp),
	[RTE_FLOW_ACTION_TYPE_SET_TP_DST] = sizeof(struct rte_flow_action_set_tp),
	[RTE_FLOW_ACTION_TYPE_SET_TTL] = sizeof(struct rte_flow_action_set_ttl),
	[RTE_FLOW_ACTION_TYPE_INC_TCP_SEQ] = sizeof(rte_be32_t),
	[RTE_FLOW_ACTION_TYPE_DEC_TCP_SEQ] = sizeof(rte_be32_t),
	[RTE_FLOW_ACTION_TYPE_INC_TCP_ACK] = sizeof(rte_be32_t),
	[RTE_FLOW_ACTION_TYPE_DEC_TCP_ACK] = sizeof(rte_be32_t),
	[RTE_FLOW_ACTION_TYPE_SET_IPV4_DSCP] = sizeof(struct rte_flow_action_set_dscp),
	[RTE_FLOW_ACTION_TYPE_SET_TAG] = sizeof(struct rte_flow_action_set_tag),
	[RTE_FLOW_ACTION_TYPE_SET_META] = sizeof(struct rte_flow_action_set_meta),
	[RTE_FLOW_ACTION_TYPE_OF_SET_VLAN_VID] = sizeof(struct rte_flow_action_of_set_vlan_vid),
	[RTE_FLOW_ACTION_TYPE_OF_SET_VLAN_PCP] = sizeof(struct rte_flow_action_of_set_vlan_pcp),
	[RTE_FLOW_ACTION_TYPE_OF_PUSH_VLAN] = sizeof(struct rte_flow_action_of_push_vlan),
	[RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT] = sizeof(struct rte_flow_action_ethdev),
	[RTE_FLOW_ACTION_TYPE_PORT_REPRESENTOR] = sizeof(struct rte_flow_action_ethdev),
	[RTE_FLOW_ACTION_TYPE_PORT_ID] = sizeof(struct rte_flow_action_port_id),
};

/* The template fixes the action's configuration (DPDK: a masked action). */
static bool
mlx5dm_flow_tmpl_fixed(const struct rte_flow_action *mask)
{
	/* PMD-private types are negative: out of the table as unsigned. */
	size_t size = (unsigned int)mask->type < RTE_DIM(mlx5dm_flow_tmpl_flat_conf) ?
		      mlx5dm_flow_tmpl_flat_conf[mask->type] : 0;

	if (mask->conf == NULL)
		return false;
	return size == 0 || memcmp(mask->conf, mlx5dm_flow_tmpl_zero, size) != 0;
}

struct rte_flow_actions_template *
mlx5dm_flow_actions_template_create(struct rte_eth_dev *dev,
				    const struct rte_flow_actions_template_attr *attr,
				    const struct rte_flow_action actions[],
				    const struct rte_flow_action masks[],
				    struct rte_flow_error *error)
{
	struct mlx5dm_flow_priv *fp = mlx5dm_flow_port_fp(dev);
	struct mlx5dm_flow_tmpl *t = mlx5dm_flow_tmpl_get(fp, error);
	struct rte_flow_actions_template *at;
	enum rte_flow_action_type type;
	unsigned int i, nb;

	if (t == NULL)
		return NULL;
	if (attr == NULL || actions == NULL || masks == NULL) {
		mlx5dm_flow_tmpl_err(error, EINVAL, "actions template: attributes, actions and "
				     "masks are required");
		return NULL;
	}
	if (attr->transfer && mlx5dm_flow_tmpl_transfer_ok(dev, error) < 0)
		return NULL;
	for (nb = 0; actions[nb].type != RTE_FLOW_ACTION_TYPE_END; nb++) {
		if (nb == MLX5DM_FLOW_TMPL_MAX_ACTIONS) {
			rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION_NUM, NULL,
					   "actions template: too many actions");
			return NULL;
		}
		type = actions[nb].type;
		if (type != RTE_FLOW_ACTION_TYPE_INDIRECT &&
		    !(attr->transfer ? mlx5dm_flow_tmpl_translator(dev)->action_ok(type) :
		      mlx5dm_flow_action_known(type))) {
			rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION, &actions[nb],
					   !attr->transfer ? mlx5dm_flow_type_msg(true, type) :
					   mlx5dm_flow_named_msg(true, type,
					   "not supported in transfer templates"));
			return NULL;
		}
		if (masks[nb].type != type) {
			rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION, &masks[nb],
					   mlx5dm_flow_named_msg(true, type,
					   "the mask list must have the action list's types"));
			return NULL;
		}
	}
	if (masks[nb].type != RTE_FLOW_ACTION_TYPE_END) {
		rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION, &masks[nb],
				   "the mask list is longer than the action list");
		return NULL;
	}
	at = mlx5dm_flow_tmpl_new(fp, sizeof(*at), RTE_FLOW_CONV_OP_ACTIONS, actions, error);
	if (at == NULL)
		return NULL;
	at->actions = (struct rte_flow_action *)(at + 1);
	at->jump = -1;
	for (i = 0; i < nb; i++) {
		if (mlx5dm_flow_tmpl_fixed(&masks[i]))
			at->fixed |= 1u << i;
		else if (attr->transfer && actions[i].type == RTE_FLOW_ACTION_TYPE_JUMP)
			at->jump = (int8_t)i;
	}
	at->nb = (uint16_t)nb;
	mlx5dm_flow_tmpl_add(fp, &t->ats, &at->h, attr->ingress, attr->egress, attr->transfer);
	return at;
}

int
mlx5dm_flow_actions_template_destroy(struct rte_eth_dev *dev,
				     struct rte_flow_actions_template *at,
				     struct rte_flow_error *error)
{
	return mlx5dm_flow_tmpl_destroy(dev, false, at, error);
}

struct mlx5dm_flow_compiled *
mlx5dm_flow_tmpl_fast(const struct rte_flow_template_table *tbl, uint8_t pt_idx, uint8_t at_idx,
		      const struct rte_flow_item pattern[], const struct rte_flow_action actions[],
		      const struct rte_flow_action_handle **shared)
{
	const struct rte_flow_pattern_template *pt;
	const struct rte_flow_actions_template *at;
	struct mlx5dm_flow_compiled *ct;
	unsigned int i;

	*shared = NULL;
	if (MLX5DM_UNLIKELY(tbl->attr.transfer || pt_idx >= tbl->nb_pt || at_idx >= tbl->nb_at))
		return NULL;
	ct = mlx5dm_flow_tmpl_compiled(tbl, pt_idx, at_idx);
	if (!ct->fast)
		return NULL;
	pt = tbl->pt[pt_idx];
	at = tbl->at[at_idx];
	for (i = 0; i < pt->nb; i++)
		if (pattern[i].type != pt->items[i].type ||
		    (pt->items[i].mask != NULL && pattern[i].spec == NULL))
			return NULL;
	for (i = 0; i < at->nb; i++) {
		if (actions[i].type != at->actions[i].type)
			return NULL;
		if (actions[i].type != RTE_FLOW_ACTION_TYPE_INDIRECT)
			continue;
		if (*shared != NULL)
			return NULL;
		*shared = (at->fixed & (1u << i) ? &at->actions[i] : &actions[i])->conf;
		if (*shared == NULL)
			return NULL;
	}
	return ct;
}

int
mlx5dm_flow_tmpl_rule(const struct rte_flow_template_table *tbl, uint8_t pt_idx,
		      uint8_t at_idx, const struct rte_flow_item vals[],
		      const struct rte_flow_action avals[], struct rte_flow_item *items,
		      struct rte_flow_action *actions, struct rte_flow_action_handle **shared,
		      struct rte_flow_error *error)
{
	const struct rte_flow_pattern_template *pt;
	const struct rte_flow_actions_template *at;
	unsigned int i;

	if (pt_idx >= tbl->nb_pt || at_idx >= tbl->nb_at)
		return mlx5dm_flow_tmpl_err(error, EINVAL, "no such template in the table");
	pt = tbl->pt[pt_idx];
	at = tbl->at[at_idx];
	for (i = 0; i < pt->nb; i++) {
		const struct rte_flow_item *it = &pt->items[i];

		items[i] = (struct rte_flow_item){ .type = it->type, .mask = it->mask };
		if (vals != NULL && vals[i].type != it->type)
			return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ITEM, &vals[i],
						  "the rule's pattern is not its template's");
		if (it->mask == NULL)
			continue;
		items[i].spec = vals != NULL ? vals[i].spec : mlx5dm_flow_tmpl_zero;
		if (items[i].spec == NULL)
			return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ITEM_SPEC,
						  &vals[i], mlx5dm_flow_named_msg(false, it->type,
						  "the template masks fields of the item: the "
						  "rule must give their values"));
	}
	items[i] = (struct rte_flow_item){ .type = RTE_FLOW_ITEM_TYPE_END };
	for (i = 0; i < at->nb; i++) {
		const struct rte_flow_action *a = &at->actions[i];

		if (avals != NULL && avals[i].type != a->type)
			return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION,
						  &avals[i], "the rule's actions are not their "
						  "template's");
		/* A masked action is the template's; an unmasked one takes the rule's value. */
		actions[i] = (struct rte_flow_action){
			.type = a->type,
			.conf = avals == NULL || (at->fixed & (1u << i)) ? a->conf :
				avals[i].conf,
		};
		/* Indirect actions are COUNTs: the rule counts with the handle's counter. */
		if (a->type == RTE_FLOW_ACTION_TYPE_INDIRECT) {
			if (*shared != NULL)
				return rte_flow_error_set(error, ENOTSUP,
							  RTE_FLOW_ERROR_TYPE_ACTION, a,
							  "one indirect action per rule");
			*shared = avals != NULL ? (void *)(uintptr_t)actions[i].conf :
				  NULL;
			if (avals != NULL && *shared == NULL)
				return rte_flow_error_set(error, EINVAL,
							  RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
							  "INDIRECT: the rule gives no handle");
			actions[i] = (struct rte_flow_action){
				.type = RTE_FLOW_ACTION_TYPE_COUNT };
		}
	}
	actions[i] = (struct rte_flow_action){ .type = RTE_FLOW_ACTION_TYPE_END };
	return 0;
}

/*
 * The example of a transfer rule: the ports the rule names (port items,
 * port actions the template leaves to the rule) are the manager's own,
 * which every switch has.
 */
static int
mlx5dm_flow_tmpl_transfer_example(struct rte_eth_dev *dev,
				  const struct rte_flow_template_table *tbl, uint8_t ai,
				  struct rte_flow_item *items, struct rte_flow_action *actions,
				  struct mlx5dm_flow_spec *spec, struct rte_flow_error *error)
{
	const struct rte_flow_item_ethdev ieth = { .port_id = dev->data->port_id };
	const struct rte_flow_item_port_id iid = { .id = dev->data->port_id };
	const struct rte_flow_action_ethdev aeth = { .port_id = dev->data->port_id };
	const struct rte_flow_action_port_id aid = { .id = dev->data->port_id };
	unsigned int i;

	for (i = 0; items[i].type != RTE_FLOW_ITEM_TYPE_END; i++)
		if (mlx5dm_flow_tmpl_port_item(items[i].type))
			items[i].spec = items[i].type == RTE_FLOW_ITEM_TYPE_PORT_ID ?
					(const void *)&iid : (const void *)&ieth;
	for (i = 0; i < tbl->at[ai]->nb; i++) {
		if (tbl->at[ai]->fixed & (1u << i))
			continue;
		if (actions[i].type == RTE_FLOW_ACTION_TYPE_PORT_ID)
			actions[i].conf = &aid;
		else if (actions[i].type == RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT ||
			 actions[i].type == RTE_FLOW_ACTION_TYPE_PORT_REPRESENTOR)
			actions[i].conf = &aeth;
	}
	return mlx5dm_flow_tmpl_translator(dev)->spec(dev, &tbl->attr, items, actions, spec, error);
}

static struct mlx5dm_flow_compiled *
mlx5dm_flow_tmpl_jump_find(const struct rte_flow_template_table *tbl, uint32_t group)
{
	uint32_t i;

	for (i = 0; i < tbl->nb_jumps; i++)
		if (tbl->jumps[i].group == group)
			return tbl->jumps[i].ct;
	return NULL;
}

struct mlx5dm_flow_compiled *
mlx5dm_flow_tmpl_jump_get(struct rte_eth_dev *dev, struct mlx5dm_flow_priv *fp,
			  struct rte_flow_template_table *tbl, uint32_t group, bool *spare,
			  struct rte_flow_error *error)
{
	struct mlx5dm_flow_tmpl_jump *jumps;
	struct mlx5dm_flow_compiled *ct;
	uint32_t max;
	int ret;

	ct = mlx5dm_flow_tmpl_jump_find(tbl, group);
	if (MLX5DM_LIKELY(ct != NULL))
		return ct;
	/* The switch's lock comes before fp->lock. */
	rte_spinlock_unlock(&fp->lock);
	ret = mlx5dm_flow_tmpl_translator(dev)->tail(dev, group, true);
	mlx5dm_flow_lock(&fp->lock);
	if (ret < 0) {
		rte_flow_error_set(error, -ret, RTE_FLOW_ERROR_TYPE_ACTION, NULL,
				   ret == -ENODEV ? "JUMP: the E-Switch is stopped" :
				   "JUMP: the target group's last rule (to the switch's "
				   "catch group) failed");
		return NULL;
	}
	/* Another thread's anchor may have come first: the tail taken is one too many. */
	ct = mlx5dm_flow_tmpl_jump_find(tbl, group);
	*spare = true;
	if (ct != NULL)
		return ct;
	if (tbl->nb_jumps == tbl->max_jumps) {
		max = tbl->max_jumps == 0 ? 4 : tbl->max_jumps * 2;
		jumps = mlx5dm_calloc_socket(max, sizeof(*jumps), fp->socket);
		if (jumps == NULL)
			goto nomem;
		if (tbl->nb_jumps != 0)
			memcpy(jumps, tbl->jumps, tbl->nb_jumps * sizeof(*jumps));
		mlx5dm_free(tbl->jumps);
		tbl->jumps = jumps;
		tbl->max_jumps = max;
	}
	ct = mlx5dm_flow_compiled_new(fp);
	if (ct == NULL)
		goto nomem;
	ct->owned = true;
	tbl->jumps[tbl->nb_jumps++] = (struct mlx5dm_flow_tmpl_jump){ .group = group, .ct = ct };
	fp->tmpl->nb_jumps++;
	*spare = false;
	return ct;
nomem:
	mlx5dm_flow_tmpl_err(error, ENOMEM, "no memory for the rules' jump target group");
	return NULL;
}

/* Anchor i of tbl goes (no rule holds it); its group is returned. */
static uint32_t
mlx5dm_flow_tmpl_jump_drop(struct mlx5dm_flow_priv *fp, struct rte_flow_template_table *tbl,
			   uint32_t i)
{
	struct mlx5dm_flow_tmpl_jump j = tbl->jumps[i];

	tbl->jumps[i] = tbl->jumps[--tbl->nb_jumps];
	fp->tmpl->nb_jumps--;
	j.ct->owned = false;
	mlx5dm_flow_compiled_put(fp, j.ct);
	return j.group;
}

/* An anchor no rule holds: ct itself (NULL: any); false if none. */
static bool
mlx5dm_flow_tmpl_jump_free(struct mlx5dm_flow_priv *fp, const struct mlx5dm_flow_compiled *ct,
			   uint32_t *group)
{
	struct rte_flow_template_table *tbl;
	uint32_t i;

	LIST_FOREACH(tbl, &fp->tmpl->tables, next) {
		for (i = 0; i < tbl->nb_jumps; i++) {
			if ((ct != NULL && tbl->jumps[i].ct != ct) ||
			    mlx5dm_flow_cached_refs(&tbl->jumps[i].ct->k) != 1)
				continue;
			*group = mlx5dm_flow_tmpl_jump_drop(fp, tbl, i);
			return true;
		}
	}
	return false;
}

bool
mlx5dm_flow_tmpl_jump_idle(struct mlx5dm_flow_priv *fp, uint16_t ct_id, uint32_t *group)
{
	const struct mlx5dm_flow_compiled *ct;

	/* Most flows: no anchor at all, or one rules still hold. */
	if (ct_id == 0 || fp->tmpl == NULL || fp->tmpl->nb_jumps == 0)
		return false;
	ct = fp->compiled[ct_id];
	if (ct == NULL || mlx5dm_flow_cached_refs(&ct->k) != 1)
		return false;
	return mlx5dm_flow_tmpl_jump_free(fp, ct, group);
}

bool
mlx5dm_flow_tmpl_jump_pop(struct mlx5dm_flow_priv *fp, uint32_t *group)
{
	return fp->tmpl != NULL && fp->tmpl->nb_jumps != 0 &&
	       mlx5dm_flow_tmpl_jump_free(fp, NULL, group);
}

void
mlx5dm_flow_tmpl_jump_tail(struct rte_eth_dev *dev, uint32_t group)
{
	const struct mlx5dm_esw_translator *x = mlx5dm_flow_tmpl_translator(dev);

	if (x != NULL)
		(void)x->tail(dev, group, false);
}

/* Example values of one item (mlx5dm_flow_tmpl_example_spec()). */
union mlx5dm_flow_tmpl_example {
	struct rte_flow_item_eth eth;
	struct rte_flow_item_vlan vlan;
	struct rte_flow_item_ipv4 ipv4;
	struct rte_flow_item_ipv6 ipv6;
	struct rte_flow_item_gre gre;
};

/*
 * The example's values of item it: zero, but for the protocol fields the
 * item after it (next) implies (EtherType, VLAN presence, IP protocol, GRE
 * protocol), into buf. A template masking such a field leaves its value
 * to rules, which must agree with the next item: zero would not.
 */
static const void *
mlx5dm_flow_tmpl_example_spec(const struct rte_flow_item *it, enum rte_flow_item_type next,
			      union mlx5dm_flow_tmpl_example *buf)
{
	uint16_t type = 0;
	uint8_t proto = 0;

	switch (next) {
	case RTE_FLOW_ITEM_TYPE_VLAN:
		type = RTE_ETHER_TYPE_VLAN;
		break;
	case RTE_FLOW_ITEM_TYPE_IPV4:
		type = RTE_ETHER_TYPE_IPV4;
		proto = IPPROTO_IPIP;
		break;
	case RTE_FLOW_ITEM_TYPE_IPV6:
		type = RTE_ETHER_TYPE_IPV6;
		proto = IPPROTO_IPV6;
		break;
	case RTE_FLOW_ITEM_TYPE_ETH:
		type = RTE_ETHER_TYPE_TEB;
		break;
	case RTE_FLOW_ITEM_TYPE_MPLS:
		type = RTE_ETHER_TYPE_MPLS;
		break;
	case RTE_FLOW_ITEM_TYPE_UDP:
		proto = IPPROTO_UDP;
		break;
	case RTE_FLOW_ITEM_TYPE_TCP:
		proto = IPPROTO_TCP;
		break;
	case RTE_FLOW_ITEM_TYPE_ICMP:
		proto = IPPROTO_ICMP;
		break;
	case RTE_FLOW_ITEM_TYPE_ICMP6:
		proto = IPPROTO_ICMPV6;
		break;
	case RTE_FLOW_ITEM_TYPE_GRE:
		proto = IPPROTO_GRE;
		break;
	default:
		break;
	}
	memset(buf, 0, sizeof(*buf));
	switch (it->type) {
	case RTE_FLOW_ITEM_TYPE_ETH:
		buf->eth.hdr.ether_type = rte_cpu_to_be_16(type);
		buf->eth.has_vlan = next == RTE_FLOW_ITEM_TYPE_VLAN;
		return buf;
	case RTE_FLOW_ITEM_TYPE_VLAN:
		buf->vlan.hdr.eth_proto = rte_cpu_to_be_16(type);
		buf->vlan.has_more_vlan = next == RTE_FLOW_ITEM_TYPE_VLAN;
		return buf;
	case RTE_FLOW_ITEM_TYPE_IPV4:
		buf->ipv4.hdr.next_proto_id = proto;
		return buf;
	case RTE_FLOW_ITEM_TYPE_IPV6:
		buf->ipv6.hdr.proto = proto;
		return buf;
	case RTE_FLOW_ITEM_TYPE_GRE:
		buf->gre.protocol = rte_cpu_to_be_16(type);
		return buf;
	default:
		return it->spec;
	}
}

/*
 * The example rule of templates pi and ai (the masked fields zero, the
 * actions the template's), translated into spec; but for a transfer table,
 * their compiled template is made from it. The protocol fields take what
 * the next item implies (mlx5dm_flow_tmpl_example_spec()); a JUMP the
 * template leaves to the rule goes to the next group, the first a rule of
 * the table may jump to (the template's group, which the rule replaces, may
 * be none).
 */
static int
mlx5dm_flow_tmpl_example(struct rte_eth_dev *dev, const struct rte_flow_template_table *tbl,
			 uint8_t pi, uint8_t ai, struct mlx5dm_flow_spec *spec,
			 struct rte_flow_error *error)
{
	struct mlx5dm_priv *priv = dev->data->dev_private;
	const struct mlx5dm_flow_context ctx = {
		.nb_rx_queues = dev->data->nb_rx_queues,
		.relaxed = tbl->pt[pi]->relaxed,
		.dom = { priv->dom_rx, priv->dom_tx },
	};
	union mlx5dm_flow_tmpl_example values[MLX5DM_FLOW_TMPL_MAX_ITEMS];
	struct rte_flow_item items[MLX5DM_FLOW_TMPL_MAX_ITEMS + 1];
	struct rte_flow_action actions[MLX5DM_FLOW_TMPL_MAX_ACTIONS + 1];
	const struct rte_flow_action_jump next = { .group = tbl->attr.group + 1 };
	struct rte_flow_action_handle *shared = NULL;
	unsigned int i, k;
	int ret;

	ret = mlx5dm_flow_tmpl_rule(tbl, pi, ai, NULL, NULL, items, actions, &shared, error);
	if (ret < 0)
		return ret;
	for (i = 0; items[i].type != RTE_FLOW_ITEM_TYPE_END; i++) {
		for (k = i + 1; items[k].type == RTE_FLOW_ITEM_TYPE_VOID; k++)
			;
		if (items[i].mask != NULL)
			items[i].spec = mlx5dm_flow_tmpl_example_spec(&items[i], items[k].type,
								      &values[i]);
	}
	for (i = 0; i < tbl->at[ai]->nb; i++)
		if (actions[i].type == RTE_FLOW_ACTION_TYPE_JUMP &&
		    !(tbl->at[ai]->fixed & (1u << i)))
			actions[i].conf = &next;
	if (tbl->attr.transfer)
		return mlx5dm_flow_tmpl_transfer_example(dev, tbl, ai, items, actions, spec, error);
	return mlx5dm_flow_compile(mlx5dm_flow_tmpl_compiled(tbl, pi, ai), &ctx, &tbl->attr, items,
				   actions, tbl->at[ai]->fixed, spec, error);
}

static void
mlx5dm_flow_tmpl_unbind(struct mlx5dm_flow_priv *fp, struct rte_flow_template_table *tbl)
{
	unsigned int cls;

	while (tbl->nb_m > 0)
		mlx5dm_flow_matcher_put(fp, tbl->m[--tbl->nb_m]);
	for (cls = 0; cls < MLX5DM_FLOW_POOL_CLASSES; cls++)
		if (tbl->handle_classes & (1u << cls))
			mlx5dm_flow_pool_unreserve(&fp->pool, cls, tbl->nb_flows);
	tbl->handle_classes = 0;
	tbl->bound = false;
}

int
mlx5dm_flow_tmpl_bind(struct rte_eth_dev *dev, struct mlx5dm_flow_priv *fp,
		      struct rte_flow_template_table *tbl, struct rte_flow_error *error)
{
	uint8_t mask[MLX5DM_MATCH_PARAM_SIZE], value[MLX5DM_MATCH_PARAM_SIZE], criteria;
	struct mlx5dm_flow_spec *spec = tbl->spec;
	struct mlx5dm_flow_matcher *m;
	unsigned int k, i, cls;
	int ret = 0;

	/* Pair k: pattern template k / nb_at, actions template k % nb_at (as tbl->ct). */
	for (k = 0; k < (unsigned int)tbl->nb_pt * tbl->nb_at; k++) {
		/* A transfer table has no compiled template: the example again. */
		if (!tbl->attr.transfer) {
			spec = &tbl->ct[k]->res;
		} else {
			ret = mlx5dm_flow_tmpl_example(dev, tbl, (uint8_t)(k / tbl->nb_at),
						       (uint8_t)(k % tbl->nb_at), spec, error);
			if (ret < 0)
				goto unbind;
		}
		for (i = 0; i < spec->nb_sub; i++) {
			mlx5dm_flow_sub_match(spec, i, mask, value, &criteria);
			m = mlx5dm_flow_matcher_get(fp, spec->transfer ? MLX5DM_FLOW_DOM_FDB :
						    spec->egress, spec->group,
						    mlx5dm_flow_sub_priority(spec, i), criteria,
						    mask, tbl->nb_flows, NULL);
			if (m == NULL) {
				ret = mlx5dm_flow_tmpl_err(error, errno, "steering library: the "
							   "table's matcher creation failed");
				goto unbind;
			}
			tbl->m[tbl->nb_m++] = m;
		}
		/* The rules' handles too are made now: filling the table makes no chunk. */
		cls = spec->nb_sub + spec->nb_extra;
		if (cls >= MLX5DM_FLOW_POOL_CLASSES || (tbl->handle_classes & (1u << cls)))
			continue;
		if (mlx5dm_flow_pool_reserve(&fp->pool, cls, tbl->nb_flows) < 0) {
			ret = mlx5dm_flow_tmpl_err(error, ENOMEM, "template table: no memory for "
						   "the handles of its nb_flows rules");
			goto unbind;
		}
		tbl->handle_classes |= 1u << cls;
	}
	tbl->bound = true;
	return 0;
unbind:
	mlx5dm_flow_tmpl_unbind(fp, tbl);
	return ret;
}

void
mlx5dm_flow_tmpl_start(struct rte_eth_dev *dev)
{
	struct mlx5dm_priv *priv = dev->data->dev_private;
	struct mlx5dm_flow_priv *fp = priv->flow;
	struct rte_flow_template_table *tbl;
	struct rte_flow_error error;

	if (fp == NULL)
		return;
	mlx5dm_flow_lock(&fp->lock);
	if (fp->tmpl == NULL || !fp->started)
		goto unlock;
	LIST_FOREACH(tbl, &fp->tmpl->tables, next) {
		if (tbl->bound)
			continue;
		error.message = NULL;
		if (mlx5dm_flow_tmpl_bind(dev, fp, tbl, &error) < 0)
			MLX5DM_LOG(WARNING, "flow", "port %u: a template table's matchers were not "
				   "made at start (%s); its first rule tries again",
				   dev->data->port_id, error.message != NULL ? error.message : "?");
	}
	mlx5dm_rules_posted(priv);
	mlx5dm_rules_ring(priv);
unlock:
	rte_spinlock_unlock(&fp->lock);
}

void
mlx5dm_flow_tmpl_stop(struct mlx5dm_flow_priv *fp)
{
	struct rte_flow_template_table *tbl;

	if (fp->tmpl == NULL)
		return;
	LIST_FOREACH(tbl, &fp->tmpl->tables, next)
		mlx5dm_flow_tmpl_unbind(fp, tbl);
}

/*
 * Table tbl is built on template h: false if h is of the other direction
 * (one made for a direction serves that direction only) or kind.
 */
static bool
mlx5dm_flow_tmpl_use(struct rte_flow_template_table *tbl, struct mlx5dm_flow_tmpl_head *h)
{
	h->users++;
	if (h->transfer != !!tbl->attr.transfer)
		return false;
	return (!h->ingress && !h->egress) || (tbl->attr.egress ? h->egress : h->ingress);
}

/*
 * The table's compiled templates stay with the rules made of them (fp->lock
 * held). Its jump anchors go: their number, and in *jumps (NULL: freed)
 * the groups whose tails they held.
 */
static uint32_t
mlx5dm_flow_table_free(struct mlx5dm_flow_priv *fp, struct rte_flow_template_table *tbl,
		       struct mlx5dm_flow_tmpl_jump **jumps)
{
	uint32_t i, nb_jumps = tbl->nb_jumps;

	mlx5dm_flow_tmpl_unbind(fp, tbl);
	for (i = 0; i < tbl->nb_pt; i++)
		tbl->pt[i]->h.users--;
	for (i = 0; i < tbl->nb_at; i++)
		tbl->at[i]->h.users--;
	for (i = 0; i < tbl->nb_ct; i++) {
		tbl->ct[i]->owned = false;
		mlx5dm_flow_compiled_put(fp, tbl->ct[i]);
	}
	/* From the last: the array keeps their groups. */
	while (tbl->nb_jumps > 0)
		(void)mlx5dm_flow_tmpl_jump_drop(fp, tbl, tbl->nb_jumps - 1);
	if (jumps != NULL)
		*jumps = tbl->jumps;
	else
		mlx5dm_free(tbl->jumps);
	mlx5dm_free(tbl->ct);
	mlx5dm_free(tbl->m);
	mlx5dm_free(tbl->spec);
	mlx5dm_free(tbl);
	return nb_jumps;
}

struct rte_flow_template_table *
mlx5dm_flow_template_table_create(struct rte_eth_dev *dev,
				  const struct rte_flow_template_table_attr *attr,
				  struct rte_flow_pattern_template *pts[], uint8_t nb_pt,
				  struct rte_flow_actions_template *ats[], uint8_t nb_at,
				  struct rte_flow_error *error)
{
	struct mlx5dm_flow_priv *fp = mlx5dm_flow_port_fp(dev);
	struct mlx5dm_flow_tmpl *t = mlx5dm_flow_tmpl_get(fp, error);
	struct mlx5dm_priv *priv = dev->data->dev_private;
	struct rte_flow_template_table *tbl;
	struct mlx5dm_flow_spec *spec;
	unsigned int i, j, nb_ct;
	int ret = 0;

	if (t == NULL)
		return NULL;
	if (attr == NULL || nb_pt == 0 || nb_at == 0 || nb_pt > MLX5DM_FLOW_TMPL_MAX_PER_TABLE ||
	    nb_at > MLX5DM_FLOW_TMPL_MAX_PER_TABLE) {
		mlx5dm_flow_tmpl_err(error, EINVAL, "template table: attributes and 1 to 8 "
				     "pattern and actions templates are required");
		return NULL;
	}
	if (attr->flow_attr.transfer && mlx5dm_flow_tmpl_transfer_ok(dev, error) < 0)
		return NULL;
	/* Refused now, not after a part of its rules took the rest of the ICM. */
	if (priv->steer != NULL && mlx5dm_ctx_ste_room(priv->steer, attr->nb_flows) < 0) {
		mlx5dm_flow_tmpl_err(error, ENOMEM, "template table: nb_flows rules do not fit "
				     "in the STE ICM the port has left (devarg "
				     "log_steering_icm_size sizes it on the device model)");
		return NULL;
	}
	tbl = mlx5dm_zmalloc_socket(sizeof(*tbl), fp->socket);
	spec = mlx5dm_malloc_socket(sizeof(*spec), fp->socket);
	if (tbl != NULL) {
		tbl->m = mlx5dm_calloc_socket((size_t)nb_pt * nb_at * MLX5DM_FLOW_MAX_SUB,
					      sizeof(tbl->m[0]), fp->socket);
		tbl->ct = mlx5dm_calloc_socket((size_t)nb_pt * nb_at, sizeof(tbl->ct[0]),
					       fp->socket);
		if (attr->flow_attr.transfer)
			tbl->spec = mlx5dm_malloc_socket(sizeof(*tbl->spec), fp->socket);
	}
	if (tbl == NULL || spec == NULL || tbl->m == NULL || tbl->ct == NULL ||
	    (attr->flow_attr.transfer && tbl->spec == NULL)) {
		if (tbl != NULL)
			mlx5dm_flow_table_free(fp, tbl, NULL);
		mlx5dm_free(spec);
		mlx5dm_flow_nomem(error);
		return NULL;
	}
	tbl->attr = attr->flow_attr;
	tbl->nb_flows = attr->nb_flows;
	rte_spinlock_lock(&fp->lock);
	nb_ct = tbl->attr.transfer ? 1 : nb_pt * nb_at;
	while (tbl->nb_ct < nb_ct && (tbl->ct[tbl->nb_ct] = mlx5dm_flow_compiled_new(fp)) != NULL)
		tbl->ct[tbl->nb_ct++]->owned = true;
	if (tbl->nb_ct < nb_ct)
		ret = mlx5dm_flow_tmpl_err(error, errno, "template table: no memory (or no id "
					   "left) for its compiled templates");
	for (i = 0; i < nb_pt; i++) {
		tbl->pt[tbl->nb_pt++] = pts[i];
		if (!mlx5dm_flow_tmpl_use(tbl, &pts[i]->h))
			ret = mlx5dm_flow_tmpl_err(error, EINVAL, "template table: a pattern "
						   "template is of the other direction (a "
						   "transfer table takes transfer templates only)");
	}
	for (i = 0; i < nb_at; i++) {
		tbl->at[tbl->nb_at++] = ats[i];
		if (!mlx5dm_flow_tmpl_use(tbl, &ats[i]->h))
			ret = mlx5dm_flow_tmpl_err(error, EINVAL, "template table: an actions "
						   "template is of the other direction (a "
						   "transfer table takes transfer templates only)");
	}
	for (i = 0; ret == 0 && i < nb_pt; i++)
		for (j = 0; ret == 0 && j < nb_at; j++)
			ret = mlx5dm_flow_tmpl_example(dev, tbl, (uint8_t)i, (uint8_t)j, spec,
						       error);
	if (ret == 0 && fp->started)
		ret = mlx5dm_flow_tmpl_bind(dev, fp, tbl, error);
	if (ret == 0)
		LIST_INSERT_HEAD(&t->tables, tbl, next);
	else
		mlx5dm_flow_table_free(fp, tbl, NULL);
	mlx5dm_rules_posted(dev->data->dev_private);
	rte_spinlock_unlock(&fp->lock);
	mlx5dm_free(spec);
	return ret == 0 ? tbl : NULL;
}

/* A rule holds one of the table's compiled templates or jump anchors (fp->lock held). */
static bool
mlx5dm_flow_table_busy(const struct mlx5dm_flow_priv *fp,
		       const struct rte_flow_template_table *tbl)
{
	const struct rte_flow *f = NULL;
	uint32_t i;

	for (i = 0; i < tbl->nb_ct; i++)
		if (mlx5dm_flow_cached_refs(&tbl->ct[i]->k) > 1)
			return true;
	for (i = 0; i < tbl->nb_jumps; i++)
		if (mlx5dm_flow_cached_refs(&tbl->jumps[i].ct->k) > 1)
			return true;
	/*
	 * The rules its pairs' setters made hold no reference: a walk of the
	 * handles finds them, even those not listed yet (an unlocked begin
	 * stores the two fields atomically, mlx5dm_flow_handle_init()).
	 */
	while ((f = mlx5dm_flow_pool_next(&fp->pool, f)) != NULL) {
		uint16_t ct = __atomic_load_n(&f->ct, __ATOMIC_RELAXED);

		if (!__atomic_load_n(&f->borrowed, __ATOMIC_RELAXED))
			continue;
		for (i = 0; i < tbl->nb_ct; i++)
			if (ct == tbl->ct[i]->id)
				return true;
	}
	return false;
}

/*
 * A table with rules stays, EBUSY, as in DPDK mlx5 HWS (mlx5_flow_hw.c:
 * flow_hw_table_destroy()): its rules would outlive what they were made
 * of (a transfer table's tails).
 */
int
mlx5dm_flow_template_table_destroy(struct rte_eth_dev *dev,
				   struct rte_flow_template_table *tbl,
				   struct rte_flow_error *error)
{
	struct mlx5dm_flow_priv *fp = mlx5dm_flow_port_fp(dev);
	struct mlx5dm_flow_tmpl *t = mlx5dm_flow_tmpl_get(fp, error);
	struct rte_flow_template_table *o;
	struct mlx5dm_flow_tmpl_jump *jumps;
	uint32_t i, nb_jumps;
	int ret = 0;

	if (t == NULL)
		return -rte_errno;
	rte_spinlock_lock(&fp->lock);
	LIST_FOREACH(o, &t->tables, next)
		if (o == tbl)
			break;
	if (o == NULL) {
		ret = mlx5dm_flow_tmpl_err(error, EINVAL, "unknown template table");
		goto unlock;
	}
	if (mlx5dm_flow_table_busy(fp, tbl)) {
		ret = mlx5dm_flow_tmpl_err(error, EBUSY, "the template table has flow rules: "
					   "destroy them first");
		goto unlock;
	}
	LIST_REMOVE(tbl, next);
	/* The tails its jump anchors held go once the lock is let go. */
	nb_jumps = mlx5dm_flow_table_free(fp, tbl, &jumps);
	mlx5dm_rules_posted(dev->data->dev_private);
	mlx5dm_rules_ring(dev->data->dev_private);
	rte_spinlock_unlock(&fp->lock);
	for (i = 0; i < nb_jumps; i++)
		mlx5dm_flow_tmpl_jump_tail(dev, jumps[i].group);
	mlx5dm_free(jumps);
	return 0;
unlock:
	rte_spinlock_unlock(&fp->lock);
	return ret;
}

void
mlx5dm_flow_tmpl_free(struct mlx5dm_flow_priv *fp)
{
	struct mlx5dm_flow_tmpl *t = fp->tmpl;
	struct rte_flow_template_table *tbl;
	struct mlx5dm_flow_tmpl_head *tmpl;

	if (t == NULL)
		return;
	while ((tbl = LIST_FIRST(&t->tables)) != NULL) {
		LIST_REMOVE(tbl, next);
		mlx5dm_flow_table_free(fp, tbl, NULL);
	}
	while ((tmpl = LIST_FIRST(&t->pts)) != NULL || (tmpl = LIST_FIRST(&t->ats)) != NULL) {
		LIST_REMOVE(tmpl, next);
		mlx5dm_free(tmpl);
	}
	mlx5dm_flow_async_queue_free(t->aq, t->nb_queues);
	mlx5dm_free(t);
	fp->tmpl = NULL;
}
