/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Rx and Tx queues. An Rx queue owns a receive queue (RQ) of the port's
 * device, created through the steering library's resource layer; TIRs (the
 * default RSS rule, QUEUE/RSS flow actions) point at its RQ number. A Tx
 * queue needs no device object: its burst hands frames to the port.
 */

#include <errno.h>

#include <rte_common.h>
#include <rte_malloc.h>
#include <ethdev_driver.h>

#include "mlx5dm.h"
#include "mlx5dm_log.h"
#include "mlx5dm_steer.h"

static struct mlx5dm_priv *
mlx5dm_rxq_priv(struct rte_eth_dev *dev)
{
	return dev->data->dev_private;
}

int
mlx5dm_rxq_rqn(struct rte_eth_dev *dev, uint16_t queue, uint32_t *rqn)
{
	struct mlx5dm_rxq *rxq;

	if (queue >= dev->data->nb_rx_queues)
		return -EINVAL;
	rxq = dev->data->rx_queues[queue];
	if (rxq == NULL)
		return -EINVAL;
	*rqn = rxq->rqn;
	return 0;
}

void
mlx5dm_rx_queue_release(struct rte_eth_dev *dev, uint16_t idx)
{
	struct mlx5dm_rxq *rxq = dev->data->rx_queues[idx];
	int ret;

	if (rxq == NULL)
		return;
	mlx5dm_rxq_drain(rxq);
	ret = mlx5dm_rq_destroy(rxq->rq);
	if (ret < 0)
		MLX5DM_DRV_LOG(ERR, "port %u: Rx queue %u: RQ 0x%x still in use (%d)",
			       dev->data->port_id, idx, rxq->rqn, ret);
	rte_free(rxq);
	dev->data->rx_queues[idx] = NULL;
}

int
mlx5dm_rx_queue_setup(struct rte_eth_dev *dev, uint16_t idx, uint16_t nb_desc,
		      unsigned int socket, const struct rte_eth_rxconf *conf __rte_unused,
		      struct rte_mempool *mp)
{
	struct mlx5dm_priv *priv = mlx5dm_rxq_priv(dev);
	struct mlx5dm_rxq *rxq;
	uint32_t log;

	if (nb_desc < MLX5DM_MIN_DESC || nb_desc > MLX5DM_MAX_DESC) {
		MLX5DM_DRV_LOG(ERR, "port %u: Rx queue %u: %u descriptors out of range [%u, %u]",
			       dev->data->port_id, idx, nb_desc, MLX5DM_MIN_DESC,
			       MLX5DM_MAX_DESC);
		return -EINVAL;
	}
	mlx5dm_rx_queue_release(dev, idx);
	rxq = rte_zmalloc_socket("mlx5dm_rxq", sizeof(*rxq), RTE_CACHE_LINE_SIZE, socket);
	if (rxq == NULL)
		return -ENOMEM;
	/* The device ring holds a power of two: at least what was asked for. */
	log = rte_log2_u32(rte_align32pow2(nb_desc));
	rxq->rq = mlx5dm_rq_create(priv->steer, log);
	if (rxq->rq == NULL) {
		MLX5DM_DRV_LOG(ERR, "port %u: Rx queue %u: cannot create the RQ: %s",
			       dev->data->port_id, idx, rte_strerror(errno));
		rte_free(rxq);
		return -errno;
	}
	rxq->rqn = mlx5dm_rq_number(rxq->rq);
	rxq->priv = priv;
	rxq->dev = priv->dev;
	rxq->mp = mp;
	rxq->idx = idx;
	rxq->nb_desc = nb_desc;
	rxq->port_id = dev->data->port_id;
	dev->data->rx_queues[idx] = rxq;
	return 0;
}

void
mlx5dm_tx_queue_release(struct rte_eth_dev *dev, uint16_t idx)
{
	rte_free(dev->data->tx_queues[idx]);
	dev->data->tx_queues[idx] = NULL;
}

int
mlx5dm_tx_queue_setup(struct rte_eth_dev *dev, uint16_t idx, uint16_t nb_desc,
		      unsigned int socket, const struct rte_eth_txconf *conf __rte_unused)
{
	struct mlx5dm_txq *txq;

	if (nb_desc < MLX5DM_MIN_DESC || nb_desc > MLX5DM_MAX_DESC) {
		MLX5DM_DRV_LOG(ERR, "port %u: Tx queue %u: %u descriptors out of range [%u, %u]",
			       dev->data->port_id, idx, nb_desc, MLX5DM_MIN_DESC,
			       MLX5DM_MAX_DESC);
		return -EINVAL;
	}
	mlx5dm_tx_queue_release(dev, idx);
	txq = rte_zmalloc_socket("mlx5dm_txq", sizeof(*txq), RTE_CACHE_LINE_SIZE, socket);
	if (txq == NULL)
		return -ENOMEM;
	txq->priv = mlx5dm_rxq_priv(dev);
	txq->dev = txq->priv->dev;
	txq->idx = idx;
	txq->nb_desc = nb_desc;
	dev->data->tx_queues[idx] = txq;
	return 0;
}

/* Frames the queue received (device counters relative to the last reset). */
int
mlx5dm_rxq_counts(struct mlx5dm_rxq *rxq, uint64_t *packets, uint64_t *bytes, uint64_t *full)
{
	struct mlx5dm_dev_rq_stats st;

	if (rxq->dev->ops->rq_stats(rxq->dev, rxq->rqn, &st) == 0) {
		*packets = st.packets - rxq->base_packets;
		*bytes = st.bytes - rxq->base_bytes;
		*full = st.full_drops - rxq->base_full;
		return 0;
	}
	*packets = __atomic_load_n(&rxq->polled, __ATOMIC_RELAXED);
	*bytes = __atomic_load_n(&rxq->polled_bytes, __ATOMIC_RELAXED);
	*full = 0;
	return 0;
}
