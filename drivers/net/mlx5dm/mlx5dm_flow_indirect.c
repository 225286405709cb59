/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Indirect COUNTs at the rte_flow edge: rte_flow_action_handle_create(),
 * _destroy() and _query() (the flow queues' forms add their results), and
 * a rule's INDIRECT action, which counts with the handle's counter. The
 * handles themselves are mlx5dm_flow_cnt.c's.
 */

#include <errno.h>
#include <limits.h>
#include <string.h>

#include <rte_flow_driver.h>
#include <ethdev_driver.h>

#include "mlx5dm.h"
#include "mlx5dm_flow.h"
#include "mlx5dm_flow_template.h"

/* The live indirect COUNT h of the port with its counter (fp->lock held); else NULL, error. */
static const struct mlx5dm_flow_shared_cnt *
mlx5dm_flow_handle_ok(struct mlx5dm_flow_priv *fp, const struct rte_flow_action_handle *h,
		      struct rte_flow_error *error)
{
	const struct mlx5dm_flow_shared_cnt *s = mlx5dm_flow_shared_find(fp, h);

	if (s == NULL)
		rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_CONF, h,
				   "unknown indirect action handle");
	else if (s->cnt == 0)
		rte_flow_error_set(error, ENODEV, RTE_FLOW_ERROR_TYPE_ACTION_CONF, h,
				   "the indirect action's counter went with a port stop");
	return s != NULL && s->cnt != 0 ? s : NULL;
}

int
mlx5dm_flow_handle_check(struct mlx5dm_flow_priv *fp, const struct rte_flow_action_handle *h,
			 unsigned int dom, struct rte_flow_error *error)
{
	const struct mlx5dm_flow_shared_cnt *sc = mlx5dm_flow_handle_ok(fp, h, error);

	if (sc == NULL)
		return -rte_errno;
	if (sc->dom != dom)
		return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_CONF, h,
					  "the indirect COUNT is of the other direction");
	return 0;
}

int
mlx5dm_flow_indirect_count(const struct rte_flow_action **actions, struct rte_flow_action *acts,
			   const struct rte_flow_action_handle **shared,
			   struct rte_flow_error *error)
{
	const struct rte_flow_action *a = *actions;
	unsigned int i, at = UINT_MAX;

	for (i = 0; a != NULL && a[i].type != RTE_FLOW_ACTION_TYPE_END; i++) {
		if (a[i].type != RTE_FLOW_ACTION_TYPE_INDIRECT)
			continue;
		if (at != UINT_MAX)
			return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION,
						  &a[i], "one indirect action per rule");
		at = i;
	}
	if (at == UINT_MAX)
		return 0;
	if (i > MLX5DM_FLOW_TMPL_MAX_ACTIONS)
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION_NUM, NULL,
					  "a rule with an INDIRECT action: too many actions");
	if (a[at].conf == NULL)
		return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_CONF, &a[at],
					  "INDIRECT: the rule gives no handle");
	memcpy(acts, a, (i + 1) * sizeof(*acts));
	acts[at] = (struct rte_flow_action){ .type = RTE_FLOW_ACTION_TYPE_COUNT };
	*shared = a[at].conf;
	*actions = acts;
	return 0;
}

struct rte_flow_action_handle *
mlx5dm_flow_handle_create(struct rte_eth_dev *dev, const struct rte_flow_indir_action_conf *conf,
			  const struct rte_flow_action *action, struct rte_flow_error *error)
{
	struct mlx5dm_flow_priv *fp = mlx5dm_flow_port_fp(dev);
	struct rte_flow_action_handle *h = NULL;
	int ret;

	if (fp == NULL) {
		mlx5dm_flow_nomem(error);
		return NULL;
	}
	if (conf == NULL || action == NULL || action->type != RTE_FLOW_ACTION_TYPE_COUNT ||
	    conf->ingress + conf->egress + conf->transfer != 1) {
		rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION, action,
				   "indirect actions: COUNT only, ingress, egress or transfer");
		return NULL;
	}
	if (conf->transfer && ((struct mlx5dm_priv *)dev->data->dev_private)->dom_fdb == NULL) {
		rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION, action,
				   "a transfer COUNT needs an E-Switch manager port");
		return NULL;
	}
	mlx5dm_flow_lock(&fp->lock);
	if (!fp->started) {
		mlx5dm_flow_not_started(error);
	} else {
		ret = mlx5dm_flow_shared_new(fp, conf->transfer ? MLX5DM_FLOW_DOM_FDB :
					     conf->egress, &h);
		if (ret < 0)
			mlx5dm_flow_tmpl_err(error, -ret, ret == -ENOSPC ?
					     "the port has as many indirect actions as it can" :
					     "indirect COUNT: no memory or counter for it");
	}
	rte_spinlock_unlock(&fp->lock);
	return h;
}

int
mlx5dm_flow_handle_destroy(struct rte_eth_dev *dev, struct rte_flow_action_handle *h,
			   struct rte_flow_error *error)
{
	struct mlx5dm_flow_priv *fp = mlx5dm_flow_port_fp(dev);
	int ret;

	if (fp == NULL)
		return mlx5dm_flow_nomem(error);
	/* A handle whose counter went with a stop can still be destroyed. */
	mlx5dm_flow_lock(&fp->lock);
	ret = mlx5dm_flow_shared_free(fp, h);
	rte_spinlock_unlock(&fp->lock);
	if (ret < 0)
		rte_flow_error_set(error, -ret, RTE_FLOW_ERROR_TYPE_ACTION_CONF, h,
				   ret == -EBUSY ? "the indirect action is used by flow rules" :
				   "unknown indirect action handle");
	return ret;
}

int
mlx5dm_flow_handle_query(struct rte_eth_dev *dev, const struct rte_flow_action_handle *h,
			 void *data, struct rte_flow_error *error)
{
	struct mlx5dm_flow_priv *fp = mlx5dm_flow_port_fp(dev);
	const struct mlx5dm_flow_shared_cnt *sc;
	int ret;

	if (fp == NULL)
		return mlx5dm_flow_nomem(error);
	if (data == NULL)
		return mlx5dm_flow_tmpl_err(error, EINVAL, "no query result buffer");
	mlx5dm_flow_lock(&fp->lock);
	/* What the device counted: the rules' writes are in, the counters read now. */
	mlx5dm_rules_ring(dev->data->dev_private);
	sc = mlx5dm_flow_handle_ok(fp, h, error);
	ret = sc != NULL ? mlx5dm_flow_cnt_query(fp, sc->cnt, data) : -rte_errno;
	rte_spinlock_unlock(&fp->lock);
	if (sc != NULL && ret < 0)
		return mlx5dm_flow_tmpl_err(error, -ret, "steering library: counter query failed");
	return ret;
}
