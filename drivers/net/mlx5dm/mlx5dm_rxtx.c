/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Datapath. Until the device model carries packets, the wire is a direct
 * loopback: a Tx burst on port P delivers each mbuf (zero-copy) into Rx
 * queue 0 of the port at the other end of P's wire (P itself with
 * topology=loop). Delivery is counted at enqueue time so that a stop does
 * not race the numbers.
 */

#include <ethdev_driver.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "mlx5dm.h"

uint16_t
mlx5dm_rx_burst(void *q, struct rte_mbuf **pkts, uint16_t n)
{
	struct mlx5dm_rxq *rxq = q;

	return (uint16_t)rte_ring_sc_dequeue_burst(rxq->ring, (void **)pkts, n, NULL);
}

/* The Rx queue 0 of the peer if it can take packets now, else NULL. */
static inline struct mlx5dm_rxq *
mlx5dm_wire_target(struct mlx5dm_priv *priv)
{
	struct mlx5dm_priv *peer = priv->sh->ports[priv->peer_index];

	if (peer == NULL || !__atomic_load_n(&peer->started, __ATOMIC_ACQUIRE))
		return NULL;
	if (peer->data->nb_rx_queues == 0)
		return NULL;
	return peer->data->rx_queues[0];
}

uint16_t
mlx5dm_tx_burst(void *q, struct rte_mbuf **pkts, uint16_t n)
{
	struct mlx5dm_txq *txq = q;
	struct mlx5dm_rxq *rxq = mlx5dm_wire_target(txq->priv);
	uint64_t tx_bytes = 0;
	uint64_t rx_bytes = 0;
	unsigned int done = 0;
	uint16_t i;

	for (i = 0; i < n; i++)
		tx_bytes += pkts[i]->pkt_len;
	txq->packets += n;
	txq->bytes += tx_bytes;
	if (rxq != NULL) {
		uint16_t port = rxq->priv->port_id;

		for (i = 0; i < n; i++) {
			struct rte_mbuf *m = pkts[i];

			/* What a received packet looks like to the application. */
			m->port = port;
			m->ol_flags = 0;
			m->packet_type = RTE_PTYPE_UNKNOWN;
			m->vlan_tci = 0;
			m->hash.rss = 0;
		}
		done = rte_ring_mp_enqueue_burst(rxq->ring, (void **)pkts, n, NULL);
		for (i = 0; i < done; i++)
			rx_bytes += pkts[i]->pkt_len;
		__atomic_fetch_add(&rxq->packets, done, __ATOMIC_RELAXED);
		__atomic_fetch_add(&rxq->bytes, rx_bytes, __ATOMIC_RELAXED);
		if (done < n)
			__atomic_fetch_add(&rxq->full_drops, n - done, __ATOMIC_RELAXED);
	} else {
		txq->wire_drops += n;
	}
	/* The wire accepted everything; what the receiver could not take is lost. */
	for (i = done; i < n; i++)
		rte_pktmbuf_free(pkts[i]);
	return n;
}

void
mlx5dm_rxq_drain(struct mlx5dm_rxq *rxq)
{
	struct rte_mbuf *m[32];
	unsigned int n, i;

	do {
		n = rte_ring_sc_dequeue_burst(rxq->ring, (void **)m, RTE_DIM(m), NULL);
		for (i = 0; i < n; i++)
			rte_pktmbuf_free(m[i]);
	} while (n != 0);
}
