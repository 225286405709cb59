/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * TEMPORARY until the rte_flow part (mlx5dm_flow*.c) lands: group 0 of NIC
 * RX as the root table with one match-all rule delivering every frame to
 * Rx queue 0, so the port forwards as it did before steering existed.
 * No rte_flow ops are offered.
 */

#include <errno.h>
#include <string.h>

#include <ethdev_driver.h>

#include "mlx5dm.h"
#include "mlx5dm_log.h"
#include "mlx5dm_steer.h"

struct mlx5dm_flow_priv {
	struct mlx5dm_table *tbl;
	struct mlx5dm_matcher *matcher;
	struct mlx5dm_tir *tir;
	struct mlx5dm_action *act;
	struct mlx5dm_rule *rule;
};

void
mlx5dm_flow_stop(struct rte_eth_dev *dev)
{
	struct mlx5dm_priv *priv = dev->data->dev_private;
	struct mlx5dm_flow_priv *f = priv->flow;

	if (f == NULL)
		return;
	if (f->rule != NULL)
		mlx5dm_rule_destroy(f->rule, 0);
	if (f->act != NULL)
		mlx5dm_action_destroy(f->act);
	if (f->tir != NULL)
		mlx5dm_tir_destroy(f->tir);
	if (f->matcher != NULL)
		mlx5dm_matcher_destroy(f->matcher);
	if (f->tbl != NULL) {
		mlx5dm_domain_set_root(priv->dom_rx, NULL);
		mlx5dm_table_destroy(f->tbl);
	}
	free(f);
	priv->flow = NULL;
}

int
mlx5dm_flow_start(struct rte_eth_dev *dev)
{
	struct mlx5dm_priv *priv = dev->data->dev_private;
	uint8_t zero[MLX5DM_MATCH_PARAM_SIZE] = { 0 };
	struct mlx5dm_matcher_attr ma = { .priority = 0xffff, .mask = zero };
	struct mlx5dm_flow_priv *f;
	uint32_t rqn;
	int ret;

	f = calloc(1, sizeof(*f));
	if (f == NULL)
		return -ENOMEM;
	priv->flow = f;
	ret = mlx5dm_rxq_rqn(dev, 0, &rqn);
	if (ret < 0)
		goto fail;
	f->tbl = mlx5dm_table_create(priv->dom_rx, 1);
	if (f->tbl == NULL)
		goto fail_errno;
	ret = mlx5dm_domain_set_root(priv->dom_rx, f->tbl);
	if (ret < 0)
		goto fail;
	f->matcher = mlx5dm_matcher_create(f->tbl, &ma, NULL);
	if (f->matcher == NULL)
		goto fail_errno;
	f->tir = mlx5dm_tir_create(priv->steer, &rqn, 1, NULL);
	if (f->tir == NULL)
		goto fail_errno;
	f->act = mlx5dm_action_dest_tir(priv->dom_rx, f->tir);
	if (f->act == NULL)
		goto fail_errno;
	f->rule = mlx5dm_rule_create(f->matcher, 0, zero, 1, &f->act);
	if (f->rule == NULL)
		goto fail_errno;
	return 0;
fail_errno:
	ret = -errno;
fail:
	mlx5dm_flow_stop(dev);
	return ret;
}

void
mlx5dm_flow_close(struct rte_eth_dev *dev)
{
	mlx5dm_flow_stop(dev);
}

int
mlx5dm_flow_ops_get(struct rte_eth_dev *dev __rte_unused, const struct rte_flow_ops **ops)
{
	*ops = NULL;
	return -ENOTSUP;
}
