/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Datapath. Tx hands each mbuf (zero-copy) to the port's device: NIC TX
 * steering, the wire, the peer's NIC RX steering, an RQ. What the device
 * drops comes back to us to free; what it delivers waits in the RQ and
 * returns from the Rx burst of the queue that owns it, rewritten in place
 * (encap/decap grow into headroom or shrink), with flow tag, RSS hash and
 * packet type. Allocation-free; no locks.
 */

#include <stdbool.h>

#include <rte_flow.h>
#include <rte_mbuf.h>
#include <ethdev_driver.h>

#include "mlx5dm.h"
#include "mlx5dm_dev.h"
#include "mlx5dm_flow.h"

#define MLX5DM_BURST 64

/* The device reports packet types with DPDK's numbering. */
_Static_assert(MLX5DM_DEV_PTYPE_L3_IPV4 == RTE_PTYPE_L3_IPV4 &&
	       MLX5DM_DEV_PTYPE_L4_UDP == RTE_PTYPE_L4_UDP &&
	       MLX5DM_DEV_PTYPE_TUNNEL_VXLAN == RTE_PTYPE_TUNNEL_VXLAN &&
	       MLX5DM_DEV_PTYPE_TUNNEL_MPLS_IN_GRE == RTE_PTYPE_TUNNEL_MPLS_IN_GRE &&
	       MLX5DM_DEV_PTYPE_TUNNEL_MPLS_IN_UDP == RTE_PTYPE_TUNNEL_MPLS_IN_UDP &&
	       MLX5DM_DEV_PTYPE_INNER_L4_TCP == RTE_PTYPE_INNER_L4_TCP,
	       "device packet types follow rte_mbuf_ptype.h");

static inline void
mlx5dm_rx_fill(struct rte_mbuf *m, const struct mlx5dm_dev_pkt *d, uint16_t port)
{
	m->data_off = (uint16_t)(d->data - (uint8_t *)m->buf_addr);
	m->data_len = d->len;
	m->pkt_len = d->len;
	m->nb_segs = 1;
	m->next = NULL;
	m->port = port;
	m->packet_type = d->ptype;
	m->vlan_tci = 0;
	m->ol_flags = 0;
	if (d->flags & MLX5DM_DEV_PKT_F_RSS_HASH) {
		m->ol_flags |= RTE_MBUF_F_RX_RSS_HASH;
		m->hash.rss = d->rss_hash;
	}
	if (d->flags & MLX5DM_DEV_PKT_F_FLOW_TAG) {
		uint32_t id;

		switch (mlx5dm_flow_tag_decode(d->flow_tag, &id)) {
		case 2:
			m->ol_flags |= RTE_MBUF_F_RX_FDIR | RTE_MBUF_F_RX_FDIR_ID;
			m->hash.fdir.hi = id;
			break;
		case 1:
			m->ol_flags |= RTE_MBUF_F_RX_FDIR;
			break;
		default:
			break;
		}
	}
}

uint16_t
mlx5dm_rx_burst(void *q, struct rte_mbuf **pkts, uint16_t n)
{
	struct mlx5dm_rxq *rxq = q;
	struct mlx5dm_dev_pkt d[MLX5DM_BURST];
	uint64_t bytes = 0;
	int got, i;

	if (n > MLX5DM_BURST)
		n = MLX5DM_BURST;
	got = rxq->dev->ops->rq_poll(rxq->dev, rxq->rqn, d, n);
	if (got <= 0)
		return 0;
	for (i = 0; i < got; i++) {
		pkts[i] = d[i].cookie;
		mlx5dm_rx_fill(pkts[i], &d[i], rxq->port_id);
		bytes += d[i].len;
	}
	rxq->polled += (uint64_t)got;
	rxq->polled_bytes += bytes;
	return (uint16_t)got;
}

/*
 * Frames are steered on both ends of the wire (this port's NIC TX, the
 * peer's NIC RX): rule writes either side posted must reach the devices
 * first, as if each flow operation had rung its doorbell.
 */
static inline void
mlx5dm_tx_ring_rules(struct mlx5dm_priv *priv)
{
	struct mlx5dm_priv *peer;

	mlx5dm_rules_ring(priv);
	if (priv->sh == NULL)
		return;
	peer = priv->sh->ports[priv->peer_index];
	if (peer != NULL && peer != priv)
		mlx5dm_rules_ring(peer);
}

uint16_t
mlx5dm_tx_burst(void *q, struct rte_mbuf **pkts, uint16_t n)
{
	struct mlx5dm_txq *txq = q;
	struct mlx5dm_dev_pkt d[MLX5DM_BURST];
	bool meta = rte_flow_dynf_metadata_avail();
	uint16_t done = 0;

	if (txq->priv != NULL)
		mlx5dm_tx_ring_rules(txq->priv);

	while (done < n) {
		uint16_t k = RTE_MIN((uint16_t)(n - done), (uint16_t)MLX5DM_BURST);
		uint16_t i, cnt = 0;

		for (i = 0; i < k; i++) {
			struct rte_mbuf *m = pkts[done + i];

			/* The device parses and rewrites one contiguous frame. */
			if (unlikely(m->nb_segs > 1) && rte_pktmbuf_linearize(m) < 0) {
				txq->linearize_fail++;
				rte_pktmbuf_free(m);
				continue;
			}
			d[cnt].cookie = m;
			d[cnt].data = rte_pktmbuf_mtod(m, uint8_t *);
			d[cnt].len = (uint16_t)m->pkt_len;
			d[cnt].headroom = rte_pktmbuf_headroom(m);
			d[cnt].tailroom = rte_pktmbuf_tailroom(m);
			d[cnt].flags = 0;
			d[cnt].fate = 0;
			/* Tx metadata (egress META items match it in reg_a). */
			d[cnt].metadata = meta && (m->ol_flags & RTE_MBUF_DYNFLAG_TX_METADATA) ?
					  *RTE_FLOW_DYNF_METADATA(m) : 0;
			txq->bytes += m->pkt_len;
			cnt++;
		}
		txq->packets += cnt;
		if (cnt > 0 && txq->dev->ops->port_tx(txq->dev, 0, d, cnt) < 0) {
			/* The device took nothing: the wire lost the burst. */
			for (i = 0; i < cnt; i++)
				d[i].fate = MLX5DM_DEV_PKT_DROPPED;
		}
		for (i = 0; i < cnt; i++) {
			if (d[i].fate != MLX5DM_DEV_PKT_DELIVERED) {
				txq->dropped++;
				rte_pktmbuf_free(d[i].cookie);
			}
		}
		done += k;
	}
	/* Like a NIC: every frame was taken; the device decides what arrives. */
	return n;
}

void
mlx5dm_rxq_drain(struct mlx5dm_rxq *rxq)
{
	struct mlx5dm_dev_pkt d[MLX5DM_BURST];
	int got, i;

	do {
		got = rxq->dev->ops->rq_poll(rxq->dev, rxq->rqn, d, MLX5DM_BURST);
		for (i = 0; i < got; i++)
			rte_pktmbuf_free(d[i].cookie);
	} while (got > 0);
}
