/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Rx and Tx queues. An Rx queue owns a receive queue (RQ) of the port's
 * device, created through the steering library's resource layer; TIRs (the
 * default RSS rule, QUEUE/RSS flow actions) point at its RQ number. Its
 * WQEs hold mbufs of the queue's pool from the set-up on (the pool's
 * memory registered first) until the queue is released. A Tx queue owns a
 * send queue (SQ) with its CQ and a ring of the mbufs in flight.
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

static void
mlx5dm_rxq_free(struct mlx5dm_rxq *rxq)
{
	uint32_t i;

	if (rxq->elts != NULL)
		for (i = 0; i < 1u << rxq->log_wqes; i++)
			rte_pktmbuf_free(rxq->elts[i]);
	rte_free(rxq->elts);
	rte_free(rxq);
}

void
mlx5dm_rx_queue_release(struct rte_eth_dev *dev, uint16_t idx)
{
	struct mlx5dm_rxq *rxq = dev->data->rx_queues[idx];
	int ret;

	if (rxq == NULL)
		return;
	dev->data->rx_queues[idx] = NULL;
	ret = mlx5dm_rq_destroy(rxq->rq);
	if (ret < 0) {
		/* The device may still write into the buffers: they stay with it. */
		MLX5DM_DRV_LOG(ERR, "port %u: Rx queue %u: RQ 0x%x still in use (%d)",
			       dev->data->port_id, idx, rxq->rqn, ret);
		return;
	}
	mlx5dm_rxq_free(rxq);
}

int
mlx5dm_rx_queue_setup(struct rte_eth_dev *dev, uint16_t idx, uint16_t nb_desc,
		      unsigned int socket, const struct rte_eth_rxconf *conf __rte_unused,
		      struct rte_mempool *mp)
{
	struct mlx5dm_priv *priv = mlx5dm_rxq_priv(dev);
	struct mlx5dm_wq_info info;
	struct mlx5dm_rxq *rxq;
	uint32_t log, room;
	int ret;

	if (nb_desc < MLX5DM_MIN_DESC || nb_desc > MLX5DM_MAX_DESC) {
		MLX5DM_DRV_LOG(ERR, "port %u: Rx queue %u: %u descriptors out of range [%u, %u]",
			       dev->data->port_id, idx, nb_desc, MLX5DM_MIN_DESC,
			       MLX5DM_MAX_DESC);
		return -EINVAL;
	}
	room = rte_pktmbuf_data_room_size(mp);
	if (room <= RTE_PKTMBUF_HEADROOM) {
		MLX5DM_DRV_LOG(ERR, "port %u: Rx queue %u: mempool %s has no data room",
			       dev->data->port_id, idx, mp->name);
		return -EINVAL;
	}
	mlx5dm_rx_queue_release(dev, idx);
	ret = mlx5dm_mr_mempool_reg(priv, mp);
	if (ret < 0)
		return ret;
	rxq = rte_zmalloc_socket("mlx5dm_rxq", sizeof(*rxq), RTE_CACHE_LINE_SIZE, socket);
	if (rxq == NULL)
		return -ENOMEM;
	/* The device ring holds a power of two: at least what was asked for. */
	log = rte_log2_u32(rte_align32pow2(nb_desc));
	rxq->elts = rte_zmalloc_socket("mlx5dm_rxq_elts", sizeof(*rxq->elts) << log,
				       RTE_CACHE_LINE_SIZE, socket);
	if (rxq->elts == NULL) {
		ret = -ENOMEM;
		goto free;
	}
	rxq->log_wqes = log;
	if (rte_pktmbuf_alloc_bulk(mp, rxq->elts, 1u << log) != 0) {
		MLX5DM_DRV_LOG(ERR, "port %u: Rx queue %u: %u mbufs for the ring not available "
			       "in %s", dev->data->port_id, idx, 1u << log, mp->name);
		memset(rxq->elts, 0, sizeof(*rxq->elts) << log);
		ret = -ENOMEM;
		goto free;
	}
	rxq->rq = mlx5dm_rq_create(priv->steer, log);
	if (rxq->rq == NULL) {
		ret = -errno;
		MLX5DM_DRV_LOG(ERR, "port %u: Rx queue %u: cannot create the RQ: %s",
			       dev->data->port_id, idx, rte_strerror(-ret));
		goto free;
	}
	mlx5dm_rq_info(rxq->rq, &info);
	rxq->rqn = info.qn;
	rxq->wqes = info.wqes;
	rxq->dbrec = info.dbrec;
	rxq->cqes = info.cqes;
	rxq->log_cqes = info.log_cqes;
	rxq->cq_dbrec = info.cq_dbrec;
	rxq->buf_len = room - RTE_PKTMBUF_HEADROOM;
	rxq->priv = priv;
	rxq->mp = mp;
	rxq->idx = idx;
	rxq->nb_desc = nb_desc;
	rxq->port_id = dev->data->port_id;
	mlx5dm_rxq_post_all(rxq);
	dev->data->rx_queues[idx] = rxq;
	return 0;
free:
	mlx5dm_rxq_free(rxq);
	return ret;
}

static void
mlx5dm_txq_free(struct mlx5dm_txq *txq)
{
	if (txq->elts != NULL)
		mlx5dm_txq_reset(txq);
	rte_free(txq->elts);
	rte_free(txq->comp);
	rte_free(txq);
}

void
mlx5dm_tx_queue_release(struct rte_eth_dev *dev, uint16_t idx)
{
	struct mlx5dm_txq *txq = dev->data->tx_queues[idx];
	int ret;

	if (txq == NULL)
		return;
	dev->data->tx_queues[idx] = NULL;
	ret = mlx5dm_sq_destroy(txq->sq);
	if (ret < 0) {
		MLX5DM_DRV_LOG(ERR, "port %u: Tx queue %u: SQ 0x%x cannot be destroyed (%d)",
			       dev->data->port_id, idx, txq->sqn, ret);
		return;
	}
	/* The device reads no more WQEs: what was in flight is freed unsent. */
	mlx5dm_txq_free(txq);
}

int
mlx5dm_tx_queue_setup(struct rte_eth_dev *dev, uint16_t idx, uint16_t nb_desc,
		      unsigned int socket, const struct rte_eth_txconf *conf __rte_unused)
{
	struct mlx5dm_priv *priv = mlx5dm_rxq_priv(dev);
	struct mlx5dm_wq_info info;
	struct mlx5dm_txq *txq;
	uint32_t log;
	int ret;

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
	/* One WQEBB per single-segment frame; at least 64 (the SQ's minimum). */
	log = RTE_MAX(rte_log2_u32(rte_align32pow2(nb_desc)), 6u);
	txq->sq = mlx5dm_sq_create(priv->steer, log);
	if (txq->sq == NULL) {
		ret = -errno;
		MLX5DM_DRV_LOG(ERR, "port %u: Tx queue %u: cannot create the SQ: %s",
			       dev->data->port_id, idx, rte_strerror(-ret));
		rte_free(txq);
		return ret;
	}
	mlx5dm_sq_info(txq->sq, &info);
	txq->elts = rte_zmalloc_socket("mlx5dm_txq_elts", sizeof(*txq->elts) << info.log_wqes,
				       RTE_CACHE_LINE_SIZE, socket);
	txq->comp = rte_zmalloc_socket("mlx5dm_txq_comp", sizeof(*txq->comp) << info.log_wqes,
				       RTE_CACHE_LINE_SIZE, socket);
	if (txq->elts == NULL || txq->comp == NULL) {
		mlx5dm_sq_destroy(txq->sq);
		mlx5dm_txq_free(txq);
		return -ENOMEM;
	}
	txq->sqn = info.qn;
	txq->wqes = info.wqes;
	txq->log_wqes = info.log_wqes;
	txq->dbrec = info.dbrec;
	txq->cqes = info.cqes;
	txq->log_cqes = info.log_cqes;
	txq->cq_dbrec = info.cq_dbrec;
	txq->uar = info.uar;
	txq->inline_min = (uint16_t)info.inline_min;
	txq->priv = priv;
	txq->idx = idx;
	txq->nb_desc = nb_desc;
	dev->data->tx_queues[idx] = txq;
	return 0;
}
