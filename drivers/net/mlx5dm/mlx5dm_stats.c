/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Basic stats, per-queue stats (ethdev turns them into rx_qN_* / tx_qN_*
 * xstats because the port sets RTE_ETH_DEV_AUTOFILL_QUEUE_XSTATS) and the
 * driver's own xstats. Rx counts come from the device, which counts a frame
 * when it enqueues it to the RQ, so a stopped poller never skews them.
 */

#include <stdio.h>
#include <string.h>

#include <ethdev_driver.h>

#include "mlx5dm.h"
#include "mlx5dm_dev.h"
#include "mlx5dm_sim.h"

int
mlx5dm_stats_get(struct rte_eth_dev *dev, struct rte_eth_stats *stats)
{
	unsigned int i;

	for (i = 0; i < dev->data->nb_rx_queues; i++) {
		struct mlx5dm_rxq *rxq = dev->data->rx_queues[i];
		uint64_t pk, by, full;

		if (rxq == NULL)
			continue;
		mlx5dm_rxq_counts(rxq, &pk, &by, &full);
		stats->ipackets += pk;
		stats->ibytes += by;
		stats->imissed += full;
		if (i < RTE_ETHDEV_QUEUE_STAT_CNTRS) {
			stats->q_ipackets[i] = pk;
			stats->q_ibytes[i] = by;
		}
	}
	for (i = 0; i < dev->data->nb_tx_queues; i++) {
		struct mlx5dm_txq *txq = dev->data->tx_queues[i];

		if (txq == NULL)
			continue;
		stats->opackets += txq->packets;
		stats->obytes += txq->bytes;
		stats->oerrors += txq->linearize_fail;
		if (i < RTE_ETHDEV_QUEUE_STAT_CNTRS) {
			stats->q_opackets[i] = txq->packets;
			stats->q_obytes[i] = txq->bytes;
		}
	}
	return 0;
}

/* Device counters are monotonic: a reset remembers where they stood. */
int
mlx5dm_stats_reset(struct rte_eth_dev *dev)
{
	unsigned int i;

	for (i = 0; i < dev->data->nb_rx_queues; i++) {
		struct mlx5dm_rxq *rxq = dev->data->rx_queues[i];
		struct mlx5dm_dev_rq_stats st;

		if (rxq == NULL)
			continue;
		if (rxq->dev->ops->rq_stats(rxq->dev, rxq->rqn, &st) == 0) {
			rxq->base_packets = st.packets;
			rxq->base_bytes = st.bytes;
			rxq->base_full = st.full_drops;
		}
		rxq->polled = 0;
		rxq->polled_bytes = 0;
	}
	for (i = 0; i < dev->data->nb_tx_queues; i++) {
		struct mlx5dm_txq *txq = dev->data->tx_queues[i];

		if (txq == NULL)
			continue;
		txq->packets = 0;
		txq->bytes = 0;
		txq->dropped = 0;
		txq->linearize_fail = 0;
	}
	return 0;
}

/* Why the device dropped frames this port sent or received (device model only). */
static const struct {
	const char *name;
	size_t off;
} mlx5dm_xstats_dev[] = {
	{ "dev_steering_drops", offsetof(struct mlx5dm_sim_port_stats, drops.steering_drop) },
	{ "dev_default_miss_drops", offsetof(struct mlx5dm_sim_port_stats, drops.default_miss) },
	{ "dev_no_tir_drops", offsetof(struct mlx5dm_sim_port_stats, drops.no_tir) },
	{ "dev_queue_full_drops", offsetof(struct mlx5dm_sim_port_stats, drops.queue_full) },
	{ "dev_parse_error_drops", offsetof(struct mlx5dm_sim_port_stats, drops.parse_error) },
	{ "dev_walk_error_drops", offsetof(struct mlx5dm_sim_port_stats, drops.walk_error) },
	{ "dev_no_peer_drops", offsetof(struct mlx5dm_sim_port_stats, drops.no_peer) },
	{ "dev_no_room_drops", offsetof(struct mlx5dm_sim_port_stats, drops.no_room) },
	{ "dev_loop_drops", offsetof(struct mlx5dm_sim_port_stats, drops.loop) },
	{ "dev_wire_packets", offsetof(struct mlx5dm_sim_port_stats, wire_packets) },
	{ "dev_rx_packets", offsetof(struct mlx5dm_sim_port_stats, rx_packets) },
	{ "dev_delivered", offsetof(struct mlx5dm_sim_port_stats, delivered) },
};

static unsigned int
mlx5dm_xstats_ndev(struct rte_eth_dev *dev)
{
	struct mlx5dm_priv *priv = dev->data->dev_private;

	return priv->dev->backend == MLX5DM_DEV_BACKEND_SIM ? RTE_DIM(mlx5dm_xstats_dev) : 0;
}

int
mlx5dm_xstats_get_names(struct rte_eth_dev *dev, struct rte_eth_xstat_name *names,
			unsigned int size)
{
	unsigned int nrx = dev->data->nb_rx_queues;
	unsigned int ntx = dev->data->nb_tx_queues;
	unsigned int ndev = mlx5dm_xstats_ndev(dev);
	unsigned int i;

	if (names == NULL || size < nrx + ntx + ndev)
		return (int)(nrx + ntx + ndev);
	for (i = 0; i < nrx; i++)
		snprintf(names[i].name, sizeof(names[i].name), "rx_q%u_full_drops", i);
	for (i = 0; i < ntx; i++)
		snprintf(names[nrx + i].name, sizeof(names[nrx + i].name),
			 "tx_q%u_dropped", i);
	for (i = 0; i < ndev; i++)
		snprintf(names[nrx + ntx + i].name, sizeof(names[0].name), "%s",
			 mlx5dm_xstats_dev[i].name);
	return (int)(nrx + ntx + ndev);
}

int
mlx5dm_xstats_get(struct rte_eth_dev *dev, struct rte_eth_xstat *xstats, unsigned int n)
{
	struct mlx5dm_priv *priv = dev->data->dev_private;
	unsigned int nrx = dev->data->nb_rx_queues;
	unsigned int ntx = dev->data->nb_tx_queues;
	unsigned int ndev = mlx5dm_xstats_ndev(dev);
	struct mlx5dm_sim_port_stats ps;
	unsigned int i;

	if (xstats == NULL || n < nrx + ntx + ndev)
		return (int)(nrx + ntx + ndev);
	for (i = 0; i < nrx; i++) {
		struct mlx5dm_rxq *rxq = dev->data->rx_queues[i];
		uint64_t pk = 0, by = 0, full = 0;

		if (rxq != NULL)
			mlx5dm_rxq_counts(rxq, &pk, &by, &full);
		xstats[i].id = i;
		xstats[i].value = full;
	}
	for (i = 0; i < ntx; i++) {
		struct mlx5dm_txq *txq = dev->data->tx_queues[i];

		xstats[nrx + i].id = nrx + i;
		xstats[nrx + i].value = txq == NULL ? 0 : txq->dropped;
	}
	memset(&ps, 0, sizeof(ps));
	if (ndev != 0)
		mlx5dm_sim_port_stats_get(priv->dev->transport, 0, &ps);
	for (i = 0; i < ndev; i++) {
		xstats[nrx + ntx + i].id = nrx + ntx + i;
		memcpy(&xstats[nrx + ntx + i].value,
		       (const uint8_t *)&ps + mlx5dm_xstats_dev[i].off, sizeof(uint64_t));
	}
	return (int)(nrx + ntx + ndev);
}
