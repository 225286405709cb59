/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The flow queues of the template API: rte_flow_async_create/destroy,
 * rte_flow_push, rte_flow_pull (mlx5dm_flow_template.h). What a result
 * says, and how a failed rule queue is brought back, is the NIC guide's
 * (doc/guides/nics/mlx5dm.rst).
 *
 * An operation's rule writes are posted when its call returns (found and
 * released under fp->lock, inserted or deleted without it); its result
 * waits in the flow queue's ring, which only the lcore owning the queue
 * touches, until a pull finds the writes executed (each result remembers
 * where its writes end on the rule queue).
 */

#include <errno.h>
#include <string.h>

#include <rte_common.h>
#include <rte_ethdev.h>
#include <rte_flow_driver.h>
#include <ethdev_driver.h>

#include "mlx5dm.h"
#include "mlx5dm_flow.h"
#include "mlx5dm_flow_template.h"
#include "mlx5dm_log.h"
#include "mlx5dm_osdep.h"
#include "mlx5dm_steer.h"

/* The flow queue, with room for a result unless any; NULL with error set. */
static __rte_always_inline struct mlx5dm_flow_async_queue *
mlx5dm_flow_async_queue_get(struct mlx5dm_flow_priv *fp, uint32_t queue, bool any,
			    struct rte_flow_error *error)
{
	struct mlx5dm_flow_async_queue *aq;

	if (fp == NULL) {
		mlx5dm_flow_nomem(error);
		return NULL;
	}
	if (fp->tmpl == NULL || queue >= fp->tmpl->nb_queues) {
		mlx5dm_flow_tmpl_err(error, EINVAL, "no such flow queue: see rte_flow_configure()");
		return NULL;
	}
	aq = &fp->tmpl->aq[queue];
	if (!any && aq->count >= aq->size) {
		mlx5dm_flow_tmpl_err(error, EAGAIN,
				     "the flow queue is full: pull its results first");
		return NULL;
	}
	return aq;
}

/* The place after k in the flow queue's ring of results. */
static inline uint32_t
mlx5dm_flow_async_queue_next(const struct mlx5dm_flow_async_queue *aq, uint32_t k)
{
	return k + 1 == aq->size ? 0 : k + 1;
}

/* Flow queue q's library rule queue and the lock its use takes (NULL: none). */
static uint16_t
mlx5dm_flow_async_queue_rule_queue(struct mlx5dm_flow_priv *fp, uint32_t q, rte_spinlock_t **lock)
{
	const struct mlx5dm_flow_port *port = &fp->port;
	uint32_t i;

	/* A port built by hand: the one queue every thread shares. */
	if (port->nb_tmpl == 0) {
		*lock = &fp->any_lock;
		return port->any;
	}
	i = q % port->nb_tmpl;
	*lock = fp->tmpl->nb_queues > port->nb_tmpl ? &fp->tmpl->qlock[i] : NULL;
	return (uint16_t)(port->tmpl + i);
}

/*
 * Keep the result of a finished operation (room was checked). One that
 * wrote through rule queue lq of steer (NULL: none) keeps where its writes
 * end, and a creation its flow: should the rule queue fail before they
 * executed, the pull reports an error instead.
 */
static void
mlx5dm_flow_async_queue_done(struct mlx5dm_flow_async_queue *aq,
			     const struct rte_flow_op_attr *op_attr, void *user_data,
			     struct mlx5dm_ctx *steer, uint16_t lq, struct rte_flow *flow)
{
	uint32_t place = aq->head + aq->count;
	struct mlx5dm_flow_async_op *op;

	if (place >= aq->size)
		place -= aq->size;
	op = &aq->op[place];
	op->res.status = RTE_FLOW_OP_SUCCESS;
	op->res.user_data = user_data;
	op->writes = steer != NULL;
	op->flow = flow;
	if (op->writes)
		op->pos = mlx5dm_queue_pos(steer, lq);
	aq->count++;
	if (op_attr != NULL && op_attr->postpone)
		return;
	aq->pushed = aq->count;
	if (op->writes)
		(void)mlx5dm_queue_flush(steer, lq);
}

/*
 * Rule queue lq was brought back from a failure: waiting creations whose
 * writes the device never executed become errors and their flows are
 * destroyed, drained before anything is pulled. A lost destruction stays
 * a success: the recovery wrote its unlink again. 0, or the drain's error.
 */
static int
mlx5dm_flow_async_queue_lost(struct rte_eth_dev *dev, struct mlx5dm_flow_priv *fp,
			     struct mlx5dm_flow_async_queue *aq, uint16_t lq, rte_spinlock_t *qlock)
{
	struct mlx5dm_priv *priv = dev->data->dev_private;
	struct rte_flow_error err;
	uint32_t i, k, lost = 0;

	for (i = 0, k = aq->head; i < aq->count; i++, k = mlx5dm_flow_async_queue_next(aq, k)) {
		struct mlx5dm_flow_async_op *op = &aq->op[k];

		if (!op->writes || op->flow == NULL ||
		    !mlx5dm_queue_lost(priv->steer, lq, op->pos))
			continue;
		op->res.status = RTE_FLOW_OP_ERROR;
		op->writes = false;
		if (mlx5dm_flow_destroy_one(dev, fp, op->flow, lq, qlock, &err) < 0)
			MLX5DM_DRV_LOG(ERR, "flow of a lost creation not destroyed: %s",
				       err.message);
		op->flow = NULL;
		lost++;
	}
	if (lost != 0)
		MLX5DM_DRV_LOG(ERR, "port %u: operations ending in error on a failed rule "
			       "queue: %u", dev->data->port_id, lost);
	return lost != 0 ? mlx5dm_queue_drain(priv->steer, lq) : 0;
}

/*
 * Where rule queue lq of the flow queue stands, without waiting for the
 * device: polled once into *p (the writes before p->done executed), or,
 * found failed, brought back (by this call or another flow queue's sharing
 * it) with the results it lost marked. 0, or a negative errno
 * (-ETIMEDOUT: the failed queue is not flushed yet, pull again).
 */
static int
mlx5dm_flow_async_queue_settle(struct rte_eth_dev *dev, struct mlx5dm_flow_priv *fp,
			       struct mlx5dm_flow_async_queue *aq, uint16_t lq,
			       rte_spinlock_t *qlock, struct mlx5dm_queue_progress *p)
{
	struct mlx5dm_priv *priv = dev->data->dev_private;
	int ret;

	ret = mlx5dm_queue_poll(priv->steer, lq, p);
	if (ret == -EIO) {
		ret = mlx5dm_queue_recover(priv->steer, lq);
		if (ret == 0)
			ret = mlx5dm_queue_poll(priv->steer, lq, p);
	}
	if (ret < 0 || p->recoveries == aq->recoveries)
		return ret;
	aq->recoveries = p->recoveries;
	ret = mlx5dm_flow_async_queue_lost(dev, fp, aq, lq, qlock);
	/* The lost creations' flows were destroyed (and drained): where it stands now. */
	if (ret == 0)
		ret = mlx5dm_queue_poll(priv->steer, lq, p);
	return ret;
}

/*
 * An operation refused on a rule queue in error (another write rang it;
 * the flow is kept): the queue is brought back now if the flow queue
 * holds no result, as no pull would and it would refuse every operation.
 * With results, their pull does (and reports those it lost).
 */
static __rte_noinline void
mlx5dm_flow_async_queue_refused(struct rte_eth_dev *dev, struct mlx5dm_flow_priv *fp,
				struct mlx5dm_flow_async_queue *aq, uint16_t lq,
				rte_spinlock_t *qlock)
{
	struct mlx5dm_priv *priv = dev->data->dev_private;
	struct mlx5dm_queue_progress p;

	if (rte_errno != EIO || aq->count != 0 || priv->steer == NULL)
		return;
	(void)mlx5dm_flow_async_queue_settle(dev, fp, aq, lq, qlock, &p);
	rte_errno = EIO;
}

struct rte_flow *
mlx5dm_flow_async_create(struct rte_eth_dev *dev, uint32_t queue,
			 const struct rte_flow_op_attr *op_attr,
			 struct rte_flow_template_table *tbl,
			 const struct rte_flow_item pattern[], uint8_t pt_idx,
			 const struct rte_flow_action actions[], uint8_t at_idx,
			 void *user_data, struct rte_flow_error *error)
{
	struct mlx5dm_priv *priv = dev->data->dev_private;
	struct mlx5dm_flow_priv *fp = mlx5dm_flow_port_fp(dev);
	struct mlx5dm_flow_async_queue *aq = mlx5dm_flow_async_queue_get(fp, queue, false, error);
	struct rte_flow_item items[MLX5DM_FLOW_TMPL_MAX_ITEMS + 1];
	struct rte_flow_action acts[MLX5DM_FLOW_TMPL_MAX_ACTIONS + 1];
	struct rte_flow_action_handle *shared = NULL;
	struct mlx5dm_flow_compiled *anchor = NULL, *ct;
	const struct rte_flow_action *jump = NULL;
	struct mlx5dm_flow_rule_values r;
	bool spare = false;
	uint32_t group = 0;
	struct mlx5dm_flow_build b;
	struct rte_flow *flow;
	rte_spinlock_t *qlock;
	uint16_t lq, anchor_id = 0;
	int ret = -1;

	if (aq == NULL)
		return NULL;
	mlx5dm_flow_build_init(&b);
	if (tbl == NULL || pattern == NULL || actions == NULL) {
		rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
				   "a template table, a pattern and actions are required");
		return NULL;
	}
	/* A rule the pair's setters take is not built again from the templates. */
	ct = mlx5dm_flow_tmpl_fast(tbl, pt_idx, at_idx, pattern, actions, &b.shared);
	if (ct != NULL && !mlx5dm_flow_compiled_rule(ct, dev->data->nb_rx_queues, pattern, actions,
						     &r))
		ct = NULL;
	if (ct == NULL && mlx5dm_flow_tmpl_rule(tbl, pt_idx, at_idx, pattern, actions, items, acts,
						&shared, error) < 0)
		return NULL;
	if (ct == NULL)
		b.shared = shared;
	if (MLX5DM_UNLIKELY(tbl->attr.transfer) && tbl->at[at_idx]->jump >= 0) {
		jump = &acts[tbl->at[at_idx]->jump];
		if (jump->conf == NULL) {
			rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_CONF, jump,
					   "JUMP: the template leaves the group to the rule, "
					   "which gives none");
			return NULL;
		}
		group = ((const struct rte_flow_action_jump *)jump->conf)->group;
	}
	/* The queue exists (aq): the template state outlives the call. */
	lq = mlx5dm_flow_async_queue_rule_queue(fp, queue, &qlock);
	/* A rule of a compiled pair, on a rule queue of its flow queue's own: no port lock. */
	if (ct != NULL && qlock == NULL && mlx5dm_flow_objs_quick(fp, ct, &r, &b, lq) == 0) {
		ret = 0;
		goto insert;
	}
	mlx5dm_flow_lock(&fp->lock);
	if (!fp->started) {
		mlx5dm_flow_not_started(error);
		goto unlock;
	}
	if (!tbl->bound && mlx5dm_flow_tmpl_bind(dev, fp, tbl, error) < 0)
		goto unlock;
	/* A rule jumping to a group of its own choice holds the group's tail. */
	if (jump != NULL) {
		anchor = mlx5dm_flow_tmpl_jump_get(dev, fp, tbl, group, &spare, error);
		if (anchor == NULL)
			goto unlock;
		anchor_id = anchor->id;
	}
	if (b.shared != NULL &&
	    mlx5dm_flow_handle_check(fp, b.shared, tbl->attr.transfer ? MLX5DM_FLOW_DOM_FDB :
				     tbl->attr.egress, error) < 0)
		goto unlock;
	if (ct != NULL) {
		if (qlock == NULL)
			mlx5dm_flow_lane_fill(fp, lq, ct);
		ret = mlx5dm_flow_objs_fast(fp, ct, &r, &b, error);
	} else if (tbl->attr.transfer) {
		ret = priv->sh->esw_translator->spec(dev, &tbl->attr, items, acts, tbl->spec,
						     error);
		if (ret == 0)
			ret = mlx5dm_flow_objs_begin(fp, tbl->spec, anchor != NULL ? anchor :
						     tbl->ct[0], true, &b, error);
	} else {
		ret = mlx5dm_flow_create_begin(dev, fp,
					       mlx5dm_flow_tmpl_compiled(tbl, pt_idx, at_idx),
					       tbl->pt[pt_idx]->relaxed, &tbl->attr, items, acts,
					       &b, error);
	}
unlock:
	rte_spinlock_unlock(&fp->lock);
	if (spare)
		mlx5dm_flow_tmpl_jump_tail(dev, group);
insert:
	if (ret >= 0) {
		flow = mlx5dm_flow_create_end(dev, fp, &b, lq, qlock, error);
		if (flow != NULL) {
			mlx5dm_flow_async_queue_done(aq, op_attr, user_data, priv->steer, lq, flow);
			return flow;
		}
		mlx5dm_flow_async_queue_refused(dev, fp, aq, lq, qlock);
	}
	/* A refused first rule to its group leaves no anchor behind (nor its tail). */
	if (anchor_id != 0) {
		bool idle;

		mlx5dm_flow_lock(&fp->lock);
		idle = mlx5dm_flow_tmpl_jump_idle(fp, anchor_id, &group);
		rte_spinlock_unlock(&fp->lock);
		if (idle)
			mlx5dm_flow_tmpl_jump_tail(dev, group);
	}
	/* The translation's cause is in the rule as built from the templates. */
	mlx5dm_flow_cause_mapped(error, items, pattern, sizeof(items));
	mlx5dm_flow_cause_mapped(error, acts, actions, sizeof(acts));
	return NULL;
}

int
mlx5dm_flow_async_destroy(struct rte_eth_dev *dev, uint32_t queue,
			  const struct rte_flow_op_attr *op_attr, struct rte_flow *flow,
			  void *user_data, struct rte_flow_error *error)
{
	struct mlx5dm_priv *priv = dev->data->dev_private;
	struct mlx5dm_flow_priv *fp = mlx5dm_flow_port_fp(dev);
	struct mlx5dm_flow_async_queue *aq = mlx5dm_flow_async_queue_get(fp, queue, false, error);
	rte_spinlock_t *qlock;
	uint16_t lq;
	int ret;

	if (aq == NULL)
		return -rte_errno;
	/* The queue exists (aq): the template state outlives the call. */
	lq = mlx5dm_flow_async_queue_rule_queue(fp, queue, &qlock);
	ret = mlx5dm_flow_destroy_one(dev, fp, flow, lq, qlock, error);
	if (ret < 0)
		mlx5dm_flow_async_queue_refused(dev, fp, aq, lq, qlock);
	else
		mlx5dm_flow_async_queue_done(aq, op_attr, user_data, priv->steer, lq, NULL);
	return ret;
}

int
mlx5dm_flow_push(struct rte_eth_dev *dev, uint32_t queue, struct rte_flow_error *error)
{
	struct mlx5dm_flow_priv *fp = mlx5dm_flow_port_fp(dev);
	struct mlx5dm_flow_async_queue *aq = mlx5dm_flow_async_queue_get(fp, queue, true, error);
	struct mlx5dm_ctx *steer = ((struct mlx5dm_priv *)dev->data->dev_private)->steer;
	rte_spinlock_t *qlock;

	if (aq == NULL)
		return -rte_errno;
	aq->pushed = aq->count;
	/* A failed doorbell leaves the ring in error: the pull reports it. */
	if (steer != NULL)
		(void)mlx5dm_queue_flush(steer,
					 mlx5dm_flow_async_queue_rule_queue(fp, queue, &qlock));
	mlx5dm_rules_ring(dev->data->dev_private);
	return 0;
}

int
mlx5dm_flow_pull(struct rte_eth_dev *dev, uint32_t queue, struct rte_flow_op_result res[],
		 uint16_t n_res, struct rte_flow_error *error)
{
	struct mlx5dm_priv *priv = dev->data->dev_private;
	struct mlx5dm_flow_priv *fp = mlx5dm_flow_port_fp(dev);
	struct mlx5dm_flow_async_queue *aq = mlx5dm_flow_async_queue_get(fp, queue, true, error);
	uint32_t n, i, k;
	int ret = 0;

	if (aq == NULL)
		return -rte_errno;
	n = RTE_MIN((uint32_t)n_res, aq->pushed);
	if (n == 0)
		return 0;
	/*
	 * Nothing is waited for, as DPDK mlx5 HWS's pull returns what its CQ
	 * completed; only this flow queue's rule queue is rung and polled.
	 */
	if (priv->steer != NULL) {
		struct mlx5dm_queue_progress p;
		rte_spinlock_t *qlock;
		uint16_t lq = mlx5dm_flow_async_queue_rule_queue(fp, queue, &qlock);

		ret = mlx5dm_flow_async_queue_settle(dev, fp, aq, lq, qlock, &p);
		if (ret < 0)
			return mlx5dm_flow_tmpl_err(error, -ret, ret == -ETIMEDOUT ?
						    "steering library: the failed rule queue is "
						    "not flushed yet; pull again" :
						    "steering library: the rule queue failed");
		/* Those whose writes the device executed, in order (one stops those behind). */
		for (i = 0, k = aq->head; i < n; i++, k = mlx5dm_flow_async_queue_next(aq, k))
			if (aq->op[k].writes && !mlx5dm_queue_done(&p, aq->op[k].pos))
				break;
		n = i;
	}
	for (i = 0; i < n; i++) {
		res[i] = aq->op[aq->head].res;
		aq->head = mlx5dm_flow_async_queue_next(aq, aq->head);
	}
	aq->count -= n;
	aq->pushed -= n;
	return (int)n;
}

/* The asynchronous forms: the same, then a result on the flow queue. */
struct rte_flow_action_handle *
mlx5dm_flow_async_handle_create(struct rte_eth_dev *dev, uint32_t queue,
				const struct rte_flow_op_attr *op_attr,
				const struct rte_flow_indir_action_conf *conf,
				const struct rte_flow_action *action, void *user_data,
				struct rte_flow_error *error)
{
	struct mlx5dm_flow_async_queue *aq;
	struct rte_flow_action_handle *h;

	aq = mlx5dm_flow_async_queue_get(mlx5dm_flow_port_fp(dev), queue, false, error);
	if (aq == NULL)
		return NULL;
	h = mlx5dm_flow_handle_create(dev, conf, action, error);
	if (h != NULL)
		mlx5dm_flow_async_queue_done(aq, op_attr, user_data, NULL, 0, NULL);
	return h;
}

int
mlx5dm_flow_async_handle_destroy(struct rte_eth_dev *dev, uint32_t queue,
				 const struct rte_flow_op_attr *op_attr,
				 struct rte_flow_action_handle *h, void *user_data,
				 struct rte_flow_error *error)
{
	struct mlx5dm_flow_async_queue *aq;
	int ret;

	aq = mlx5dm_flow_async_queue_get(mlx5dm_flow_port_fp(dev), queue, false, error);
	if (aq == NULL)
		return -rte_errno;
	ret = mlx5dm_flow_handle_destroy(dev, h, error);
	if (ret == 0)
		mlx5dm_flow_async_queue_done(aq, op_attr, user_data, NULL, 0, NULL);
	return ret;
}

int
mlx5dm_flow_async_handle_query(struct rte_eth_dev *dev, uint32_t queue,
			       const struct rte_flow_op_attr *op_attr,
			       const struct rte_flow_action_handle *h, void *data,
			       void *user_data, struct rte_flow_error *error)
{
	struct mlx5dm_flow_async_queue *aq;
	int ret;

	aq = mlx5dm_flow_async_queue_get(mlx5dm_flow_port_fp(dev), queue, false, error);
	if (aq == NULL)
		return -rte_errno;
	ret = mlx5dm_flow_handle_query(dev, h, data, error);
	if (ret == 0)
		mlx5dm_flow_async_queue_done(aq, op_attr, user_data, NULL, 0, NULL);
	return ret;
}
