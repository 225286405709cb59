/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * rte_flow_ops and the flow hooks of the port life cycle. The ops are
 * thread-safe themselves (RTE_ETH_DEV_FLOW_OPS_THREAD_SAFE): fp->lock
 * covers translation and objects, never the library's insertion or
 * deletion, which run on the calling lcore's rule queue.
 * flow_engine=null: user flows are handles only (a benchmarking aid).
 */

#include <errno.h>
#include <string.h>

#include <rte_common.h>
#include <rte_ethdev.h>
#include <rte_eal.h>
#include <rte_flow_driver.h>
#include <rte_malloc.h>
#include <ethdev_driver.h>

#include "mlx5dm.h"
#include "mlx5dm_flow.h"
#include "mlx5dm_flow_template.h"
#include "mlx5dm_log.h"
#include "mlx5dm_osdep.h"

/* flow_engine=null: what every rule must have, nothing more. */
static int
mlx5dm_flow_null_check(const struct rte_flow_attr *attr, const struct rte_flow_item items[],
		       const struct rte_flow_action actions[], struct rte_flow_error *error)
{
	if (attr == NULL)
		return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ATTR, NULL,
					  "attributes are missing");
	if (attr->transfer || attr->ingress == attr->egress)
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ATTR, attr,
					  "flow_engine=null: ingress or egress rules only");
	if (items == NULL)
		return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ITEM_NUM, NULL,
					  "pattern is missing");
	if (actions == NULL)
		return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_NUM, NULL,
					  "action list is missing");
	return 0;
}

/* What create would answer: the translation's verdict, then whether the port takes rules. */
static int
mlx5dm_flow_validate(struct rte_eth_dev *dev, const struct rte_flow_attr *attr,
		     const struct rte_flow_item items[], const struct rte_flow_action actions[],
		     struct rte_flow_error *error)
{
	struct mlx5dm_priv *priv = dev->data->dev_private;
	const struct mlx5dm_flow_context ctx = {
		.nb_rx_queues = dev->data->nb_rx_queues,
		.dom = { priv->dom_rx, priv->dom_tx },
	};
	struct mlx5dm_flow_priv *fp = mlx5dm_flow_port_fp(dev);
	struct rte_flow_action acts[MLX5DM_FLOW_TMPL_MAX_ACTIONS + 1];
	const struct rte_flow_action_handle *shared = NULL;
	const struct rte_flow_action *user = actions;
	struct mlx5dm_flow_spec spec;
	int ret;

	if (fp == NULL)
		return mlx5dm_flow_nomem(error);
	if (fp->null_engine)
		ret = mlx5dm_flow_null_check(attr, items, actions, error);
	else
		ret = mlx5dm_flow_indirect_count(&actions, acts, &shared, error);
	if (ret == 0 && !fp->null_engine)
		ret = mlx5dm_flow_translate(&ctx, attr, items, actions, &spec, error);
	if (ret == 0 && shared != NULL) {
		mlx5dm_flow_lock(&fp->lock);
		ret = mlx5dm_flow_handle_check(fp, shared, attr->transfer ? MLX5DM_FLOW_DOM_FDB :
					       attr->egress, error);
		rte_spinlock_unlock(&fp->lock);
	}
	if (ret < 0) {
		mlx5dm_flow_cause_mapped(error, acts, user, sizeof(acts));
		return ret;
	}
	return __atomic_load_n(&fp->started, __ATOMIC_ACQUIRE) ? 0 : mlx5dm_flow_not_started(error);
}

static struct rte_flow *
mlx5dm_flow_null_create(struct mlx5dm_flow_priv *fp, const struct rte_flow_attr *attr,
			const struct rte_flow_item items[], const struct rte_flow_action actions[],
			struct rte_flow_error *error)
{
	struct rte_flow *flow = NULL;

	if (mlx5dm_flow_null_check(attr, items, actions, error) < 0)
		return NULL;
	mlx5dm_flow_lock(&fp->lock);
	if (!fp->started) {
		mlx5dm_flow_not_started(error);
		goto unlock;
	}
	/* A listed handle with no rule behind it. */
	flow = mlx5dm_flow_pool_get(&fp->pool, 0);
	if (flow == NULL) {
		mlx5dm_flow_tmpl_err(error, ENOMEM, "no memory for the flow");
		goto unlock;
	}
	flow->dom = (uint8_t)attr->egress;
	flow->listed = true;
	fp->nb_listed++;
	fp->st.flows++;
unlock:
	rte_spinlock_unlock(&fp->lock);
	return flow;
}

int
mlx5dm_flow_create_begin(struct rte_eth_dev *dev, struct mlx5dm_flow_priv *fp,
			 struct mlx5dm_flow_compiled *ct, bool relaxed,
			 const struct rte_flow_attr *attr, const struct rte_flow_item items[],
			 const struct rte_flow_action actions[], struct mlx5dm_flow_build *b,
			 struct rte_flow_error *error)
{
	struct mlx5dm_priv *priv = dev->data->dev_private;
	struct mlx5dm_flow_context ctx = {
		.nb_rx_queues = dev->data->nb_rx_queues,
		.relaxed = relaxed,
		.dom = { priv->dom_rx, priv->dom_tx },
	};

	return mlx5dm_flow_objs_prepare(fp, &ctx, ct, attr, items, actions, b, error);
}

struct rte_flow *
mlx5dm_flow_create_end(struct rte_eth_dev *dev, struct mlx5dm_flow_priv *fp,
		       struct mlx5dm_flow_build *b, uint16_t queue, rte_spinlock_t *qlock,
		       struct rte_flow_error *error)
{
	int ret;

	mlx5dm_flow_queue_lock(qlock);
	ret = mlx5dm_flow_objs_insert(fp, b, queue, error);
	if (ret == 0)
		mlx5dm_flow_objs_commit(fp, b, queue);
	mlx5dm_flow_queue_unlock(qlock);
	if (ret == 0) {
		mlx5dm_rules_posted(dev->data->dev_private);
		return b->flow;
	}
	mlx5dm_flow_lock(&fp->lock);
	mlx5dm_flow_objs_abandon(fp, b);
	rte_spinlock_unlock(&fp->lock);
	return NULL;
}

/*
 * A synchronous call refused on the calling thread's rule queue in error
 * (EIO) brings the queue back, so the call made again succeeds: a flow
 * queue's pull does that for the template API, here no call would.
 */
static void
mlx5dm_flow_sync_recover(struct mlx5dm_flow_priv *fp, uint16_t queue, rte_spinlock_t *qlock)
{
	mlx5dm_flow_queue_lock(qlock);
	(void)mlx5dm_flow_queue_recover(fp, queue);
	mlx5dm_flow_queue_unlock(qlock);
}

static struct rte_flow *
mlx5dm_flow_create(struct rte_eth_dev *dev, const struct rte_flow_attr *attr,
		   const struct rte_flow_item items[], const struct rte_flow_action actions[],
		   struct rte_flow_error *error)
{
	struct mlx5dm_flow_priv *fp = mlx5dm_flow_port_fp(dev);
	struct rte_flow_action acts[MLX5DM_FLOW_TMPL_MAX_ACTIONS + 1];
	const struct rte_flow_action *user = actions;
	struct mlx5dm_flow_build b;
	struct rte_flow *flow;
	rte_spinlock_t *qlock;
	uint16_t queue;
	int ret;

	if (fp == NULL) {
		mlx5dm_flow_nomem(error);
		return NULL;
	}
	if (fp->null_engine)
		return mlx5dm_flow_null_create(fp, attr, items, actions, error);
	mlx5dm_flow_build_init(&b);
	if (mlx5dm_flow_indirect_count(&actions, acts, &b.shared, error) < 0)
		return NULL;
	/* One hold: the matchers translation found stay valid, the template is ours. */
	mlx5dm_flow_lock(&fp->lock);
	ret = b.shared == NULL || attr == NULL ? 0 :
	      mlx5dm_flow_handle_check(fp, b.shared, attr->transfer ? MLX5DM_FLOW_DOM_FDB :
				       attr->egress, error);
	if (ret == 0)
		ret = mlx5dm_flow_create_begin(dev, fp, NULL, false, attr, items, actions, &b,
					       error);
	queue = mlx5dm_flow_queue_of(fp, &qlock);
	rte_spinlock_unlock(&fp->lock);
	if (ret < 0) {
		mlx5dm_flow_cause_mapped(error, acts, user, sizeof(acts));
		return NULL;
	}
	flow = mlx5dm_flow_create_end(dev, fp, &b, queue, qlock, error);
	if (flow == NULL && rte_errno == EIO)
		mlx5dm_flow_sync_recover(fp, queue, qlock);
	return flow;
}

int
mlx5dm_flow_destroy_one(struct rte_eth_dev *dev, struct mlx5dm_flow_priv *fp,
			struct rte_flow *flow, uint16_t queue, rte_spinlock_t *qlock,
			struct rte_flow_error *error)
{
	uint32_t group = 0;
	bool idle = false;
	uint16_t ct;
	int ret;

	/* A flow of one template rule, on the caller's own rule queue: no port lock. */
	if (qlock == NULL) {
		ret = mlx5dm_flow_objs_quick_destroy(fp, flow, queue);
		if (ret != -EAGAIN) {
			mlx5dm_rules_posted(dev->data->dev_private);
			return ret < 0 ? mlx5dm_flow_remove_err(flow, ret, error) : 0;
		}
	}
	mlx5dm_flow_lock(&fp->lock);
	if (!mlx5dm_flow_objs_owns(fp, flow))
		goto unknown;
	if (mlx5dm_flow_extra(flow) != NULL) {
		rte_spinlock_unlock(&fp->lock);
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_HANDLE, flow,
					  "a rule of rte_flow_create() on an E-Switch port: "
					  "rte_flow_destroy() destroys it");
	}
	/* Unlisted: no other call finds the handle while its rules go unlocked. */
	if (!mlx5dm_flow_objs_unlist(fp, flow)) {
		/* Another destroy took it meanwhile, without the lock. */
		fp->inflight--;
		goto unknown;
	}
	rte_spinlock_unlock(&fp->lock);
	mlx5dm_flow_queue_lock(qlock);
	ret = mlx5dm_flow_objs_remove(flow, queue);
	mlx5dm_flow_queue_unlock(qlock);
	mlx5dm_rules_posted(dev->data->dev_private);
	mlx5dm_flow_lock(&fp->lock);
	if (ret < 0) {
		mlx5dm_flow_objs_relist(fp, flow, true);
	} else {
		ct = flow->ct;
		mlx5dm_flow_objs_reap(fp, flow);
		/* The last rule of a transfer table to a group it chose: the group's tail goes. */
		if (MLX5DM_UNLIKELY(fp->tmpl != NULL && fp->tmpl->nb_jumps != 0))
			idle = mlx5dm_flow_tmpl_jump_idle(fp, ct, &group);
	}
	rte_spinlock_unlock(&fp->lock);
	if (idle)
		mlx5dm_flow_tmpl_jump_tail(dev, group);
	return ret < 0 ? mlx5dm_flow_remove_err(flow, ret, error) : 0;
unknown:
	rte_spinlock_unlock(&fp->lock);
	return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_HANDLE, flow,
				  "unknown flow handle");
}

static int
mlx5dm_flow_destroy(struct rte_eth_dev *dev, struct rte_flow *flow, struct rte_flow_error *error)
{
	struct mlx5dm_flow_priv *fp = mlx5dm_flow_port_fp(dev);
	rte_spinlock_t *qlock;
	uint16_t queue;
	int ret;

	if (fp == NULL)
		return mlx5dm_flow_nomem(error);
	queue = mlx5dm_flow_queue_of(fp, &qlock);
	ret = mlx5dm_flow_destroy_one(dev, fp, flow, queue, qlock, error);
	if (ret == -EIO)
		mlx5dm_flow_sync_recover(fp, queue, qlock);
	return ret;
}

static int
mlx5dm_flow_flush(struct rte_eth_dev *dev, struct rte_flow_error *error)
{
	struct mlx5dm_flow_priv *fp = mlx5dm_flow_port_fp(dev);
	int ret;

	if (fp == NULL)
		return mlx5dm_flow_nomem(error);
	mlx5dm_flow_lock(&fp->lock);
	ret = mlx5dm_flow_objs_flush(fp, error);
	mlx5dm_rules_posted(dev->data->dev_private);
	mlx5dm_rules_ring(dev->data->dev_private);
	rte_spinlock_unlock(&fp->lock);
	return ret;
}

static int
mlx5dm_flow_query(struct rte_eth_dev *dev, struct rte_flow *flow,
		  const struct rte_flow_action *action, void *data, struct rte_flow_error *error)
{
	struct mlx5dm_flow_priv *fp = mlx5dm_flow_port_fp(dev);
	int ret;

	if (fp == NULL)
		return mlx5dm_flow_nomem(error);
	if (action == NULL || action->type != RTE_FLOW_ACTION_TYPE_COUNT)
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION, action,
					  "only COUNT can be queried");
	if (data == NULL)
		return mlx5dm_flow_tmpl_err(error, EINVAL, "no query result buffer");
	mlx5dm_flow_lock(&fp->lock);
	mlx5dm_rules_ring(dev->data->dev_private);
	if (!mlx5dm_flow_objs_owns(fp, flow))
		ret = rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_HANDLE, flow,
					 "unknown flow handle");
	else
		ret = mlx5dm_flow_objs_query_count(fp, flow, data, error);
	rte_spinlock_unlock(&fp->lock);
	return ret;
}

/* The default rule: everything not matched in group 0 is spread as the NIC would. */
static int
mlx5dm_flow_default_create(struct rte_eth_dev *dev, struct mlx5dm_flow_priv *fp,
			   struct rte_flow_error *error)
{
	const struct rte_eth_rss_conf *rc = &dev->data->dev_conf.rx_adv_conf.rss_conf;
	uint16_t nb = dev->data->nb_rx_queues;
	const struct mlx5dm_flow_context ctx = {
		.nb_rx_queues = nb,
		.internal = true,
		.dom = { fp->port.dom[0], fp->port.dom[1] },
	};
	const struct rte_flow_attr attr = {
		.ingress = 1,
		.priority = MLX5DM_FLOW_DEFAULT_PRIORITY,
	};
	const struct rte_flow_item pattern[] = { { .type = RTE_FLOW_ITEM_TYPE_END } };
	uint16_t queues[MLX5DM_FLOW_MAX_QUEUES];
	struct rte_flow_action_rss rss = {
		.types = rc->rss_hf & MLX5DM_FLOW_RSS_HF_SUPPORTED,
		.key_len = rc->rss_key != NULL && rc->rss_key_len == 40 ? 40 : 0,
		.key = rc->rss_key,
		.queue_num = RTE_MIN(nb, MLX5DM_FLOW_MAX_QUEUES),
		.queue = queues,
	};
	const struct rte_flow_action_queue q0 = { .index = 0 };
	const bool use_rss = (dev->data->dev_conf.rxmode.mq_mode & RTE_ETH_MQ_RX_RSS_FLAG) &&
			     rss.types != 0 && nb > 1;
	const struct rte_flow_action actions[] = {
		{
			.type = use_rss ? RTE_FLOW_ACTION_TYPE_RSS : RTE_FLOW_ACTION_TYPE_QUEUE,
			.conf = use_rss ? (const void *)&rss : (const void *)&q0,
		},
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	struct mlx5dm_flow_spec spec;
	unsigned int i;
	int ret;

	if (nb == 0)
		return 0; /* nowhere to deliver: unmatched traffic is dropped */
	for (i = 0; i < RTE_DIM(queues); i++)
		queues[i] = (uint16_t)i;
	ret = mlx5dm_flow_translate(&ctx, &attr, pattern, actions, &spec, error);
	if (ret < 0)
		return ret;
	fp->default_flow = mlx5dm_flow_objs_create(fp, &spec, false, error);
	return fp->default_flow != NULL ? 0 : -rte_errno;
}

/* Stop every flow object of the port, then start them on port unless it is NULL. */
static int
mlx5dm_flow_reset(struct rte_eth_dev *dev, struct mlx5dm_flow_priv *fp,
		  const struct mlx5dm_flow_port *port, struct rte_flow_error *error)
{
	struct mlx5dm_priv *priv = dev->data->dev_private;
	int ret = 0;

	mlx5dm_flow_lock(&fp->lock);
	/* Operations of other threads between their phases finish first. */
	mlx5dm_flow_objs_quiesce(fp);
	/* Flows first (they hold indirect counters): the objects' stop checks none is left. */
	if (fp->started)
		mlx5dm_flow_objs_flush(fp, NULL);
	mlx5dm_flow_tmpl_stop(fp);
	mlx5dm_flow_shared_stop(fp);
	mlx5dm_flow_objs_stop(fp);
	if (port != NULL) {
		ret = mlx5dm_flow_objs_start(fp, port);
		if (ret == 0 && !priv->isolated) {
			ret = mlx5dm_flow_default_create(dev, fp, error);
			if (ret < 0)
				mlx5dm_flow_objs_stop(fp);
		}
	}
	mlx5dm_rules_posted(priv);
	mlx5dm_rules_ring(priv);
	__atomic_store_n(&fp->quiescing, false, __ATOMIC_SEQ_CST);
	rte_spinlock_unlock(&fp->lock);
	return ret;
}

static int
mlx5dm_flow_isolate(struct rte_eth_dev *dev, int set, struct rte_flow_error *error)
{
	struct mlx5dm_priv *priv = dev->data->dev_private;
	struct mlx5dm_flow_priv *fp = mlx5dm_flow_port_fp(dev);
	int ret = 0;

	if (fp == NULL)
		return mlx5dm_flow_nomem(error);
	mlx5dm_flow_lock(&fp->lock);
	if (mlx5dm_flow_objs_listed(fp) != 0) {
		ret = mlx5dm_flow_tmpl_err(error, EBUSY,
					   "isolated mode can only change while no flows exist");
		goto unlock;
	}
	if (fp->started && !!set != priv->isolated) {
		if (set) {
			if (fp->default_flow != NULL)
				mlx5dm_flow_objs_destroy(fp, fp->default_flow, NULL);
			fp->default_flow = NULL;
		} else {
			ret = mlx5dm_flow_default_create(dev, fp, error);
		}
	}
	if (ret == 0)
		priv->isolated = !!set;
	mlx5dm_rules_posted(priv);
	mlx5dm_rules_ring(priv);
unlock:
	rte_spinlock_unlock(&fp->lock);
	return ret;
}

static int
mlx5dm_flow_dev_dump(struct rte_eth_dev *dev, struct rte_flow *flow, FILE *file,
		     struct rte_flow_error *error)
{
	struct mlx5dm_priv *priv = dev->data->dev_private;
	struct mlx5dm_flow_priv *fp = mlx5dm_flow_port_fp(dev);
	int ret;

	if (fp == NULL)
		return mlx5dm_flow_nomem(error);
	if (flow == NULL && (priv->dom_rx == NULL || priv->dom_tx == NULL))
		return mlx5dm_flow_tmpl_err(error, ENODEV, "the port has no steering domains");
	mlx5dm_flow_lock(&fp->lock);
	mlx5dm_rules_ring(priv);
	if (flow != NULL && !mlx5dm_flow_objs_owns(fp, flow)) {
		rte_spinlock_unlock(&fp->lock);
		return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_HANDLE, flow,
					  "unknown flow handle");
	}
	if (flow != NULL) {
		/* One flow: its records, as DPDK's mlx5 dumps a rule (no domain records). */
		ret = mlx5dm_flow_dump_flow(fp, flow, file);
	} else {
		/* PMD records first, as DPDK's mlx5: parsers print a domain as they end it. */
		ret = mlx5dm_flow_dump_pmd(fp, file);
		if (ret == 0)
			ret = mlx5dm_domain_dump(priv->dom_rx, file);
		if (ret == 0)
			ret = mlx5dm_domain_dump(priv->dom_tx, file);
	}
	rte_spinlock_unlock(&fp->lock);
	if (ret < 0)
		return mlx5dm_flow_tmpl_err(error, -ret, flow != NULL ? "flow dump failed" :
					    "steering library: domain dump failed");
	return 0;
}

static const struct rte_flow_ops mlx5dm_flow_ops = {
	.validate = mlx5dm_flow_validate,
	.create = mlx5dm_flow_create,
	.destroy = mlx5dm_flow_destroy,
	.flush = mlx5dm_flow_flush,
	.query = mlx5dm_flow_query,
	.isolate = mlx5dm_flow_isolate,
	.dev_dump = mlx5dm_flow_dev_dump,
	.info_get = mlx5dm_flow_info_get,
	.configure = mlx5dm_flow_configure,
	.pattern_template_create = mlx5dm_flow_pattern_template_create,
	.pattern_template_destroy = mlx5dm_flow_pattern_template_destroy,
	.actions_template_create = mlx5dm_flow_actions_template_create,
	.actions_template_destroy = mlx5dm_flow_actions_template_destroy,
	.template_table_create = mlx5dm_flow_template_table_create,
	.template_table_destroy = mlx5dm_flow_template_table_destroy,
	.async_create = mlx5dm_flow_async_create,
	.async_destroy = mlx5dm_flow_async_destroy,
	.push = mlx5dm_flow_push,
	.pull = mlx5dm_flow_pull,
	.action_handle_create = mlx5dm_flow_handle_create,
	.action_handle_destroy = mlx5dm_flow_handle_destroy,
	.action_handle_query = mlx5dm_flow_handle_query,
	.async_action_handle_create = mlx5dm_flow_async_handle_create,
	.async_action_handle_destroy = mlx5dm_flow_async_handle_destroy,
	.async_action_handle_query = mlx5dm_flow_async_handle_query,
};

int
mlx5dm_flow_ops_get(struct rte_eth_dev *dev, const struct rte_flow_ops **ops)
{
	RTE_SET_USED(dev);
	*ops = &mlx5dm_flow_ops;
	return 0;
}

static int
mlx5dm_flow_rqn(void *arg, uint16_t queue, uint32_t *rqn)
{
	struct rte_eth_dev *dev = arg;

	/* A representor's NIC rules are its manager's flows (mlx5dm_esw.c). */
	if (queue >= MLX5DM_MAX_QUEUES)
		return mlx5dm_flow_tmpl_translator(dev)->rqn(dev, queue, rqn);
	return mlx5dm_rxq_rqn(dev, queue, rqn);
}

int
mlx5dm_flow_start(struct rte_eth_dev *dev)
{
	struct mlx5dm_priv *priv = dev->data->dev_private;
	struct mlx5dm_flow_priv *fp = mlx5dm_flow_port_fp(dev);
	const struct mlx5dm_flow_port port = {
		.ctx = priv->steer,
		.dom = { priv->dom_rx, priv->dom_tx, priv->dom_fdb },
		.rqn = mlx5dm_flow_rqn,
		.rqn_arg = dev,
		.lcore_queue = priv->rule_queue,
		.any = priv->rule_queue_any,
		.tmpl = priv->rule_queue_tmpl,
		.nb_tmpl = priv->nb_rule_queues_tmpl,
		.nb_queues = priv->nb_rule_queues,
	};
	struct rte_flow_error error = { .message = NULL };
	int ret;

	if (fp == NULL)
		return -ENOMEM;
	if (port.ctx == NULL || port.dom[0] == NULL || port.dom[1] == NULL) {
		MLX5DM_DRV_LOG(ERR, "port %u: no steering context or domains", dev->data->port_id);
		return -ENODEV;
	}
	/* A start without a stop in between begins from a clean state. */
	ret = mlx5dm_flow_reset(dev, fp, &port, &error);
	if (ret < 0)
		MLX5DM_DRV_LOG(ERR, "port %u: flow start failed: %d (%s)", dev->data->port_id, ret,
			       error.message != NULL ? error.message : "root tables");
	return ret;
}

void
mlx5dm_flow_stop(struct rte_eth_dev *dev)
{
	struct mlx5dm_priv *priv = dev->data->dev_private;

	if (priv->flow != NULL)
		mlx5dm_flow_reset(dev, priv->flow, NULL, NULL);
}

void
mlx5dm_flow_close(struct rte_eth_dev *dev)
{
	struct mlx5dm_priv *priv = dev->data->dev_private;

	if (priv->flow == NULL)
		return;
	mlx5dm_flow_stop(dev);
	mlx5dm_flow_tmpl_free(priv->flow);
	mlx5dm_flow_shared_fini(priv->flow);
	mlx5dm_free(priv->flow);
	priv->flow = NULL;
}

/*
 * Doorbell batching (devarg doorbell_batch > 1): what this driver does that
 * observes steering (Tx bursts, queries, dumps, flush, start/stop) rings
 * what waits first; frames from the wire are not seen, hence the default
 * of one doorbell per operation.
 */
void
mlx5dm_rules_ring_slow(struct mlx5dm_priv *priv)
{
	uint16_t q;
	int ret;

	/* Cleared first: writes posted after this leave the flag set again. */
	if (__atomic_exchange_n(&priv->rules_unrung, 0, __ATOMIC_ACQ_REL) == 0 ||
	    priv->steer == NULL)
		return;
	/* A flush takes the queue's lock in the library: any thread may ring any queue. */
	for (q = 0; q < priv->nb_rule_queues; q++) {
		ret = mlx5dm_queue_flush(priv->steer, q);
		if (ret < 0)
			MLX5DM_DRV_LOG(ERR, "port %u: rule queue %u doorbell failed: %d",
				       priv->port_id, q, ret);
	}
}
