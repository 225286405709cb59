/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Basic stats, per-queue stats (ethdev turns them into rx_qN_* / tx_qN_*
 * xstats because the port sets RTE_ETH_DEV_AUTOFILL_QUEUE_XSTATS) and the
 * driver's own xstats. Packets and bytes are counted by the bursts: Rx
 * what the application received, Tx what was posted to the device. Error
 * CQEs count as Rx errors and Tx errors. On the device model, frames the
 * device had no receive buffer for are imissed (its out-of-buffer count).
 */

#include <stdio.h>
#include <string.h>

#include <ethdev_driver.h>

#include "mlx5dm.h"
#include "mlx5dm_dev.h"
#include "mlx5dm_steer.h"

/* Frames dropped for want of a posted receive buffer, where the device counts them. */
static uint64_t
mlx5dm_out_of_buffer(struct mlx5dm_priv *priv)
{
	struct mlx5dm_dev_port_stats ps;

	/* A representor's device is its manager's: the counts are the manager's. */
	if (priv->kind == MLX5DM_PORT_REPRESENTOR)
		return 0;
	memset(&ps, 0, sizeof(ps));
	mlx5dm_dev_port_stats(priv->dev, &ps);
	return ps.drops.queue_full;
}

int
mlx5dm_stats_get(struct rte_eth_dev *dev, struct rte_eth_stats *stats)
{
	struct mlx5dm_priv *priv = dev->data->dev_private;
	unsigned int i;

	for (i = 0; i < dev->data->nb_rx_queues; i++) {
		struct mlx5dm_rxq *rxq = dev->data->rx_queues[i];

		if (rxq == NULL)
			continue;
		stats->ipackets += rxq->packets;
		stats->ibytes += rxq->bytes;
		stats->ierrors += rxq->errors;
		stats->rx_nombuf += rxq->nombuf;
		if (i < RTE_ETHDEV_QUEUE_STAT_CNTRS) {
			stats->q_ipackets[i] = rxq->packets;
			stats->q_ibytes[i] = rxq->bytes;
			stats->q_errors[i] = rxq->errors;
		}
	}
	stats->imissed = mlx5dm_out_of_buffer(priv) - priv->imissed_base;
	for (i = 0; i < dev->data->nb_tx_queues; i++) {
		struct mlx5dm_txq *txq = dev->data->tx_queues[i];

		if (txq == NULL)
			continue;
		stats->opackets += txq->packets;
		stats->obytes += txq->bytes;
		stats->oerrors += txq->errors + txq->refused;
		if (i < RTE_ETHDEV_QUEUE_STAT_CNTRS) {
			stats->q_opackets[i] = txq->packets;
			stats->q_obytes[i] = txq->bytes;
		}
	}
	return 0;
}

int
mlx5dm_stats_reset(struct rte_eth_dev *dev)
{
	struct mlx5dm_priv *priv = dev->data->dev_private;
	unsigned int i;

	for (i = 0; i < dev->data->nb_rx_queues; i++) {
		struct mlx5dm_rxq *rxq = dev->data->rx_queues[i];

		if (rxq == NULL)
			continue;
		rxq->packets = 0;
		rxq->bytes = 0;
		rxq->errors = 0;
		rxq->nombuf = 0;
		rxq->recoveries = 0;
	}
	/* The device's count is monotonic: a reset remembers where it stood. */
	priv->imissed_base = mlx5dm_out_of_buffer(priv);
	for (i = 0; i < dev->data->nb_tx_queues; i++) {
		struct mlx5dm_txq *txq = dev->data->tx_queues[i];

		if (txq == NULL)
			continue;
		txq->packets = 0;
		txq->bytes = 0;
		txq->errors = 0;
		txq->refused = 0;
		txq->recoveries = 0;
	}
	return 0;
}

/* Why the device dropped frames this port sent or received (where it counts them). */
static const struct {
	const char *name;
	size_t off;
} mlx5dm_xstats_dev[] = {
	{ "dev_steering_drops", offsetof(struct mlx5dm_dev_port_stats, drops.steering_drop) },
	{ "dev_default_miss_drops", offsetof(struct mlx5dm_dev_port_stats, drops.default_miss) },
	{ "dev_no_tir_drops", offsetof(struct mlx5dm_dev_port_stats, drops.no_tir) },
	{ "dev_queue_full_drops", offsetof(struct mlx5dm_dev_port_stats, drops.queue_full) },
	{ "dev_parse_error_drops", offsetof(struct mlx5dm_dev_port_stats, drops.parse_error) },
	{ "dev_walk_error_drops", offsetof(struct mlx5dm_dev_port_stats, drops.walk_error) },
	{ "dev_no_peer_drops", offsetof(struct mlx5dm_dev_port_stats, drops.no_peer) },
	{ "dev_no_room_drops", offsetof(struct mlx5dm_dev_port_stats, drops.no_room) },
	{ "dev_loop_drops", offsetof(struct mlx5dm_dev_port_stats, drops.loop) },
	{ "dev_wire_packets", offsetof(struct mlx5dm_dev_port_stats, wire_packets) },
	{ "dev_rx_packets", offsetof(struct mlx5dm_dev_port_stats, rx_packets) },
	{ "dev_delivered", offsetof(struct mlx5dm_dev_port_stats, delivered) },
};

/*
 * The steering library's state of the port (either backend): rules, and
 * the STE ICM they and their tables hold, which returns to the pool as
 * rules and matchers go.
 */
static const char *const mlx5dm_xstats_steer[] = {
	"steer_rules",
	"steer_matchers",
	"steer_icm_used_bytes",
	"steer_table_growths",
};

static void
mlx5dm_xstats_steer_get(struct mlx5dm_priv *priv, uint64_t *v)
{
	struct mlx5dm_ctx_stats st;

	memset(&st, 0, sizeof(st));
	if (priv->steer != NULL)
		mlx5dm_ctx_stats_get(priv->steer, &st);
	v[0] = st.rules;
	v[1] = st.matchers;
	v[2] = st.icm[0].used_bytes;
	v[3] = st.rehash;
}

static unsigned int
mlx5dm_xstats_ndev(struct rte_eth_dev *dev)
{
	struct mlx5dm_priv *priv = dev->data->dev_private;

	struct mlx5dm_dev_port_stats ps;

	if (priv->kind == MLX5DM_PORT_REPRESENTOR)
		return 0;
	return mlx5dm_dev_port_stats(priv->dev, &ps) == 0 ? RTE_DIM(mlx5dm_xstats_dev) : 0;
}

int
mlx5dm_xstats_get_names(struct rte_eth_dev *dev, struct rte_eth_xstat_name *names,
			unsigned int size)
{
	unsigned int nrx = dev->data->nb_rx_queues;
	unsigned int ntx = dev->data->nb_tx_queues;
	unsigned int ndev = mlx5dm_xstats_ndev(dev);
	unsigned int n = nrx + ntx + ndev + RTE_DIM(mlx5dm_xstats_steer);
	unsigned int i;

	if (names == NULL || size < n)
		return (int)n;
	for (i = 0; i < nrx; i++)
		snprintf(names[i].name, sizeof(names[i].name), "rx_q%u_recoveries", i);
	for (i = 0; i < ntx; i++)
		snprintf(names[nrx + i].name, sizeof(names[nrx + i].name),
			 "tx_q%u_recoveries", i);
	for (i = 0; i < ndev; i++)
		snprintf(names[nrx + ntx + i].name, sizeof(names[0].name), "%s",
			 mlx5dm_xstats_dev[i].name);
	for (i = 0; i < RTE_DIM(mlx5dm_xstats_steer); i++)
		snprintf(names[nrx + ntx + ndev + i].name, sizeof(names[0].name), "%s",
			 mlx5dm_xstats_steer[i]);
	return (int)n;
}

int
mlx5dm_xstats_get(struct rte_eth_dev *dev, struct rte_eth_xstat *xstats, unsigned int n)
{
	struct mlx5dm_priv *priv = dev->data->dev_private;
	unsigned int nrx = dev->data->nb_rx_queues;
	unsigned int ntx = dev->data->nb_tx_queues;
	unsigned int ndev = mlx5dm_xstats_ndev(dev);
	unsigned int nb = nrx + ntx + ndev + RTE_DIM(mlx5dm_xstats_steer);
	uint64_t steer[RTE_DIM(mlx5dm_xstats_steer)];
	struct mlx5dm_dev_port_stats ps;
	unsigned int i;

	if (xstats == NULL || n < nb)
		return (int)nb;
	for (i = 0; i < nrx; i++) {
		struct mlx5dm_rxq *rxq = dev->data->rx_queues[i];

		xstats[i].id = i;
		xstats[i].value = rxq == NULL ? 0 : rxq->recoveries;
	}
	for (i = 0; i < ntx; i++) {
		struct mlx5dm_txq *txq = dev->data->tx_queues[i];

		xstats[nrx + i].id = nrx + i;
		xstats[nrx + i].value = txq == NULL ? 0 : txq->recoveries;
	}
	memset(&ps, 0, sizeof(ps));
	if (ndev != 0)
		mlx5dm_dev_port_stats(priv->dev, &ps);
	for (i = 0; i < ndev; i++) {
		xstats[nrx + ntx + i].id = nrx + ntx + i;
		memcpy(&xstats[nrx + ntx + i].value,
		       (const uint8_t *)&ps + mlx5dm_xstats_dev[i].off, sizeof(uint64_t));
	}
	mlx5dm_xstats_steer_get(priv, steer);
	for (i = 0; i < RTE_DIM(steer); i++) {
		xstats[nrx + ntx + ndev + i].id = nrx + ntx + ndev + i;
		xstats[nrx + ntx + ndev + i].value = steer[i];
	}
	return (int)nb;
}
