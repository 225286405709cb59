/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Basic stats, per-queue stats (ethdev turns them into rx_qN_* / tx_qN_*
 * xstats because the port sets RTE_ETH_DEV_AUTOFILL_QUEUE_XSTATS) and the
 * driver's own xstats.
 */

#include <stdio.h>
#include <string.h>

#include <ethdev_driver.h>

#include "mlx5dm.h"

static inline uint64_t
mlx5dm_ld(const uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

int
mlx5dm_stats_get(struct rte_eth_dev *dev, struct rte_eth_stats *stats)
{
	unsigned int i;

	for (i = 0; i < dev->data->nb_rx_queues; i++) {
		struct mlx5dm_rxq *rxq = dev->data->rx_queues[i];
		uint64_t pk, by;

		if (rxq == NULL)
			continue;
		pk = mlx5dm_ld(&rxq->packets);
		by = mlx5dm_ld(&rxq->bytes);
		stats->ipackets += pk;
		stats->ibytes += by;
		stats->imissed += mlx5dm_ld(&rxq->full_drops);
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
	unsigned int i;

	for (i = 0; i < dev->data->nb_rx_queues; i++) {
		struct mlx5dm_rxq *rxq = dev->data->rx_queues[i];

		if (rxq == NULL)
			continue;
		__atomic_store_n(&rxq->packets, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&rxq->bytes, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&rxq->full_drops, 0, __ATOMIC_RELAXED);
	}
	for (i = 0; i < dev->data->nb_tx_queues; i++) {
		struct mlx5dm_txq *txq = dev->data->tx_queues[i];

		if (txq == NULL)
			continue;
		txq->packets = 0;
		txq->bytes = 0;
		txq->wire_drops = 0;
	}
	return 0;
}

/* Driver xstats: per Rx queue ring-full drops, per Tx queue wire drops. */
int
mlx5dm_xstats_get_names(struct rte_eth_dev *dev, struct rte_eth_xstat_name *names,
			unsigned int size)
{
	unsigned int nrx = dev->data->nb_rx_queues;
	unsigned int ntx = dev->data->nb_tx_queues;
	unsigned int i;

	if (names == NULL || size < nrx + ntx)
		return (int)(nrx + ntx);
	for (i = 0; i < nrx; i++)
		snprintf(names[i].name, sizeof(names[i].name), "rx_q%u_full_drops", i);
	for (i = 0; i < ntx; i++)
		snprintf(names[nrx + i].name, sizeof(names[nrx + i].name),
			 "tx_q%u_wire_drops", i);
	return (int)(nrx + ntx);
}

int
mlx5dm_xstats_get(struct rte_eth_dev *dev, struct rte_eth_xstat *xstats, unsigned int n)
{
	unsigned int nrx = dev->data->nb_rx_queues;
	unsigned int ntx = dev->data->nb_tx_queues;
	unsigned int i;

	if (xstats == NULL || n < nrx + ntx)
		return (int)(nrx + ntx);
	for (i = 0; i < nrx; i++) {
		struct mlx5dm_rxq *rxq = dev->data->rx_queues[i];

		xstats[i].id = i;
		xstats[i].value = rxq == NULL ? 0 : mlx5dm_ld(&rxq->full_drops);
	}
	for (i = 0; i < ntx; i++) {
		struct mlx5dm_txq *txq = dev->data->tx_queues[i];

		xstats[nrx + i].id = nrx + i;
		xstats[nrx + i].value = txq == NULL ? 0 : txq->wire_drops;
	}
	return (int)(nrx + ntx);
}
