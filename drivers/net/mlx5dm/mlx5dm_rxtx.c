/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Datapath in the mlx5 queue formats (mlx5dm_rxtx.h), as DPDK's mlx5 PMD
 * drives a ConnectX: Tx writes one SEND WQE per frame (control segment,
 * Ethernet segment with the inline header the SQ demands and the Tx
 * metadata, one data segment per mbuf segment), asks for a completion
 * every MLX5DM_TX_COMP_EVERY WQEs and on a burst's last, updates the
 * doorbell record and rings once per burst; completions free the mbufs.
 * Rx polls CQEs, builds the mbuf from the CQE (length, packet type,
 * checksums, RSS hash, flow tag), posts a fresh mbuf in its place and
 * updates both doorbell records once per burst. An error CQE moves the
 * queue to ERR: the device flushes the rest, the burst recovers it. No
 * locks, no system calls but the recovery's command.
 */

#include <stdbool.h>

#include <rte_flow.h>
#include <rte_io.h>
#include <rte_mbuf.h>
#include <ethdev_driver.h>

#include "mlx5dm.h"
#include "mlx5dm_dev.h"
#include "mlx5dm_flow.h"
#include "mlx5dm_log.h"
#include "mlx5dm_rxtx.h"
#include "mlx5dm_steer.h"

/* A CQE per this many WQEs at most, as DPDK's mlx5 MLX5_TX_COMP_THRESH. */
#define MLX5DM_TX_COMP_EVERY 32

static uint32_t mlx5dm_ptype_table[256] __rte_cache_aligned;

RTE_INIT(mlx5dm_rxtx_init)
{
	mlx5dm_ptype_table_init(mlx5dm_ptype_table);
}

const uint32_t *
mlx5dm_supported_ptypes(struct rte_eth_dev *dev __rte_unused)
{
	/* What mlx5dm_ptype_table_init can give. */
	static const uint32_t ptypes[] = {
		RTE_PTYPE_L2_ETHER,
		RTE_PTYPE_L3_IPV4_EXT_UNKNOWN,
		RTE_PTYPE_L3_IPV6_EXT_UNKNOWN,
		RTE_PTYPE_L4_NONFRAG,
		RTE_PTYPE_L4_FRAG,
		RTE_PTYPE_L4_TCP,
		RTE_PTYPE_L4_UDP,
		RTE_PTYPE_INNER_L3_IPV4_EXT_UNKNOWN,
		RTE_PTYPE_INNER_L3_IPV6_EXT_UNKNOWN,
		RTE_PTYPE_INNER_L4_NONFRAG,
		RTE_PTYPE_INNER_L4_FRAG,
		RTE_PTYPE_INNER_L4_TCP,
		RTE_PTYPE_INNER_L4_UDP,
		RTE_PTYPE_UNKNOWN,
	};

	return ptypes;
}

/* ---- Rx ---- */

static inline void
mlx5dm_rxq_post(struct mlx5dm_rxq *rxq, uint32_t idx, struct rte_mbuf *m)
{
	uintptr_t addr = (uintptr_t)m->buf_addr + RTE_PKTMBUF_HEADROOM;

	mlx5dm_rx_wqe_write(rxq->wqes, idx, rxq->buf_len,
			    mlx5dm_mbuf_lkey(rxq->priv, &rxq->mr, m, addr), addr);
}

/* Both doorbell records: CQEs released before WQEs posted, so the CQ never overruns. */
static inline void
mlx5dm_rxq_doorbells(struct mlx5dm_rxq *rxq)
{
	mlx5dm_dbrec_set(rxq->cq_dbrec, rxq->cq_ci & 0xffffffu);
	mlx5dm_dbrec_set(rxq->dbrec, rxq->rq_pi & 0xffffu);
	rxq->rq_db = rxq->rq_pi;
}

/* Every WQE of the ring holds its mbuf again; the device's counter is at zero. */
void
mlx5dm_rxq_post_all(struct mlx5dm_rxq *rxq)
{
	uint32_t i, n = 1u << rxq->log_wqes;

	for (i = 0; i < n; i++)
		mlx5dm_rxq_post(rxq, i, rxq->elts[i]);
	rxq->rq_pi = n;
	rxq->rq_ci = 0;
	rxq->err = false;
	mlx5dm_rxq_doorbells(rxq);
}

/*
 * Once the device completed every posted WQE after an error (flushed),
 * bring the RQ back (ERR -> RST -> RDY) and post the ring again. A failed
 * command is retried on the next burst.
 */
static __rte_noinline void
mlx5dm_rxq_recover(struct mlx5dm_rxq *rxq)
{
	int ret;

	ret = mlx5dm_rq_recover(rxq->rq);
	if (ret < 0) {
		MLX5DM_DRV_LOG(ERR, "port %u: Rx queue %u: recovery failed: %s", rxq->port_id,
			       rxq->idx, rte_strerror(-ret));
		return;
	}
	rxq->recoveries++;
	mlx5dm_rxq_post_all(rxq);
}

static __rte_noinline void
mlx5dm_rxq_error(struct mlx5dm_rxq *rxq, const volatile uint8_t *cqe)
{
	uint8_t syndrome = mlx5dm_cqe_syndrome(cqe);

	rxq->err = true;
	if (syndrome == MLX5DM_CQE_SYNDROME_WR_FLUSH_ERR)
		return;
	rxq->errors++;
	MLX5DM_DRV_LOG(DEBUG, "port %u: Rx queue %u: error CQE, syndrome 0x%x, WQE %u",
		       rxq->port_id, rxq->idx, syndrome, mlx5dm_cqe_wqe_counter(cqe));
}

static inline void
mlx5dm_rx_fill(struct mlx5dm_rxq *rxq, struct rte_mbuf *m, const volatile uint8_t *cqe,
	       uint32_t len)
{
	uint64_t ol = mlx5dm_cqe_cksum_flags(cqe);
	uint32_t hash, id;

	m->data_off = RTE_PKTMBUF_HEADROOM;
	m->data_len = (uint16_t)len;
	m->pkt_len = len;
	m->port = rxq->port_id;
	m->packet_type = mlx5dm_ptype_table[mlx5dm_cqe_ptype_index(cqe)];
	m->vlan_tci = 0;
	if (mlx5dm_cqe_rss_hash(cqe, &hash)) {
		ol |= RTE_MBUF_F_RX_RSS_HASH;
		m->hash.rss = hash;
	}
	switch (mlx5dm_flow_tag_decode(mlx5dm_cqe_flow_tag(cqe), &id)) {
	case 2:
		ol |= RTE_MBUF_F_RX_FDIR | RTE_MBUF_F_RX_FDIR_ID;
		m->hash.fdir.hi = id;
		break;
	case 1:
		ol |= RTE_MBUF_F_RX_FDIR;
		break;
	default:
		break;
	}
	m->ol_flags = ol;
}

uint16_t
mlx5dm_rx_burst(void *q, struct rte_mbuf **pkts, uint16_t n)
{
	struct mlx5dm_rxq *rxq = q;
	uint32_t mask = (1u << rxq->log_wqes) - 1;
	uint32_t seen = 0;
	uint64_t bytes = 0;
	uint16_t got = 0;

	/* At most n completions per burst, errors included. */
	while (seen < n) {
		const volatile uint8_t *cqe = mlx5dm_cqe_get(rxq->cqes, rxq->log_cqes, rxq->cq_ci);
		struct rte_mbuf *m, *rep;
		uint32_t idx, len;

		if (cqe == NULL)
			break;
		rxq->cq_ci++;
		rxq->rq_ci++;
		seen++;
		idx = mlx5dm_cqe_wqe_counter(cqe) & mask;
		m = rxq->elts[idx];
		if (unlikely(mlx5dm_cqe_opcode(cqe) != MLX5DM_CQE_RESP_SEND)) {
			/* The buffer stays in its WQE; the ring is posted again on recovery. */
			mlx5dm_rxq_error(rxq, cqe);
			continue;
		}
		if (unlikely(rxq->err))
			continue;
		rep = rte_mbuf_raw_alloc(rxq->mp);
		if (unlikely(rep == NULL)) {
			/* The frame is dropped; its buffer goes back to the device. */
			rxq->nombuf++;
			rxq->rq_pi++;
			continue;
		}
		len = mlx5dm_cqe_byte_cnt(cqe);
		mlx5dm_rx_fill(rxq, m, cqe, len);
		rte_prefetch0(rte_pktmbuf_mtod(m, void *));
		pkts[got++] = m;
		bytes += len;
		rxq->elts[idx] = rep;
		mlx5dm_rxq_post(rxq, idx, rep);
		rxq->rq_pi++;
	}
	if (unlikely(rxq->err)) {
		mlx5dm_dbrec_set(rxq->cq_dbrec, rxq->cq_ci & 0xffffffu);
		/* Every WQE the device knew of has come back (completed or flushed). */
		if (rxq->rq_ci == rxq->rq_db)
			mlx5dm_rxq_recover(rxq);
	} else if (seen != 0) {
		mlx5dm_rxq_doorbells(rxq);
	}
	rxq->packets += got;
	rxq->bytes += bytes;
	return got;
}

/* Port stop: frames that waited in the queue are dropped, their buffers reposted. */
void
mlx5dm_rxq_drain(struct mlx5dm_rxq *rxq)
{
	struct rte_mbuf *pkts[MLX5DM_TX_COMP_EVERY];
	uint16_t n, i;

	while ((n = mlx5dm_rx_burst(rxq, pkts, RTE_DIM(pkts))) != 0) {
		rxq->packets -= n;
		for (i = 0; i < n; i++)
			rxq->bytes -= pkts[i]->pkt_len;
		rte_pktmbuf_free_bulk(pkts, n);
	}
}

/* ---- Tx ---- */

/* Free mbufs [elts_tail, upto). */
static inline void
mlx5dm_txq_free_elts(struct mlx5dm_txq *txq, uint16_t upto)
{
	uint16_t mask = (uint16_t)((1u << txq->log_wqes) - 1);
	uint16_t n = (uint16_t)(upto - txq->elts_tail);
	uint16_t first = txq->elts_tail & mask;
	uint16_t part = RTE_MIN(n, (uint16_t)(mask + 1 - first));

	if (n == 0)
		return;
	rte_pktmbuf_free_bulk(&txq->elts[first], part);
	if (part < n)
		rte_pktmbuf_free_bulk(&txq->elts[0], n - part);
	txq->elts_tail = upto;
}

/* Every mbuf in flight freed, counters at zero: the SQ starts over. */
void
mlx5dm_txq_reset(struct mlx5dm_txq *txq)
{
	mlx5dm_txq_free_elts(txq, txq->elts_head);
	txq->elts_head = 0;
	txq->elts_tail = 0;
	txq->pi = 0;
	txq->ci = 0;
	txq->since_comp = 0;
}

/*
 * An error CQE: the frame it names and every later one are lost (the
 * device flushes them); the SQ is brought back and starts over. Flush
 * CQEs that follow carry nothing more.
 */
static __rte_noinline uint32_t
mlx5dm_txq_error(struct mlx5dm_txq *txq, const volatile uint8_t *cqe)
{
	uint8_t syndrome = mlx5dm_cqe_syndrome(cqe);
	uint16_t lost = (uint16_t)(txq->elts_head - txq->elts_tail);
	int ret;

	if (syndrome == MLX5DM_CQE_SYNDROME_WR_FLUSH_ERR)
		return 0;
	MLX5DM_DRV_LOG(DEBUG, "port %u: Tx queue %u: error CQE, syndrome 0x%x, WQE %u",
		       txq->priv->port_id, txq->idx, syndrome, mlx5dm_cqe_wqe_counter(cqe));
	txq->errors += lost;
	ret = mlx5dm_sq_recover(txq->sq);
	if (ret < 0) {
		MLX5DM_DRV_LOG(ERR, "port %u: Tx queue %u: recovery failed: %s",
			       txq->priv->port_id, txq->idx, rte_strerror(-ret));
		return 0;
	}
	txq->recoveries++;
	mlx5dm_txq_reset(txq);
	return lost;
}

/* Consume the CQ: free what completed. Returns the mbufs freed. */
static inline uint32_t
mlx5dm_txq_complete(struct mlx5dm_txq *txq)
{
	uint16_t mask = (uint16_t)((1u << txq->log_wqes) - 1);
	const volatile uint8_t *cqe;
	uint32_t seen = 0, freed = 0;

	while ((cqe = mlx5dm_cqe_get(txq->cqes, txq->log_cqes, txq->cq_ci)) != NULL) {
		txq->cq_ci++;
		seen++;
		if (likely(mlx5dm_cqe_opcode(cqe) == MLX5DM_CQE_REQ)) {
			const struct mlx5dm_txq_comp *c =
				&txq->comp[mlx5dm_cqe_wqe_counter(cqe) & mask];

			freed += (uint16_t)(c->elts_head - txq->elts_tail);
			mlx5dm_txq_free_elts(txq, c->elts_head);
			txq->ci = c->pi_next;
		} else {
			freed += mlx5dm_txq_error(txq, cqe);
		}
	}
	if (seen != 0)
		mlx5dm_dbrec_set(txq->cq_dbrec, txq->cq_ci & 0xffffffu);
	return freed;
}

int
mlx5dm_tx_done_cleanup(void *q, uint32_t free_cnt __rte_unused)
{
	/* Completions free everything they cover; the count is what they freed. */
	return (int)mlx5dm_txq_complete(q);
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

/* Data segments past the inline header, at most this many per WQE. */
#define MLX5DM_TX_MAX_SEGS 56

uint16_t
mlx5dm_tx_burst(void *q, struct rte_mbuf **pkts, uint16_t n)
{
	struct mlx5dm_txq *txq = q;
	struct mlx5dm_tx_seg segs[MLX5DM_TX_MAX_SEGS];
	uint16_t size = (uint16_t)(1u << txq->log_wqes);
	bool meta = rte_flow_dynf_metadata_avail();
	struct mlx5dm_tx_wqe w = { .sqn = txq->sqn, .segs = segs };
	uint16_t last_pi = 0, i;
	uint64_t bytes = 0;
	uint16_t sent = 0;

	if (txq->priv != NULL)
		mlx5dm_tx_ring_rules(txq->priv);
	mlx5dm_txq_complete(txq);
	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i], *s;
		unsigned int ds, wqebbs, k = 0;
		bool ok = true;

		if (unlikely(m->nb_segs > MLX5DM_TX_MAX_SEGS)) {
			txq->refused++;
			rte_pktmbuf_free(m);
			continue;
		}
		for (s = m; s != NULL; s = s->next) {
			uintptr_t addr = rte_pktmbuf_mtod(s, uintptr_t);

			segs[k].addr = (const uint8_t *)addr;
			segs[k].len = s->data_len;
			segs[k].lkey = mlx5dm_mbuf_lkey(txq->priv, &txq->mr, s, addr);
			ok &= segs[k].lkey != MLX5DM_MR_NONE;
			k++;
		}
		if (unlikely(!ok)) {
			txq->refused++;
			rte_pktmbuf_free(m);
			continue;
		}
		w.nsegs = (uint16_t)k;
		w.inline_sz = (uint16_t)RTE_MIN((uint32_t)txq->inline_min, m->pkt_len);
		/* At most: segments the inline header takes whole need no data segment. */
		ds = mlx5dm_tx_wqe_ds(w.inline_sz, k);
		if (unlikely(ds > MLX5DM_WQE_DS_MAX)) {
			txq->refused++;
			rte_pktmbuf_free(m);
			continue;
		}
		wqebbs = (ds + MLX5DM_WSEGS_PER_WQEBB - 1) / MLX5DM_WSEGS_PER_WQEBB;
		/* Full: the rest is the caller's, as with any NIC. */
		if ((uint16_t)(txq->pi - txq->ci) + wqebbs > size ||
		    (uint16_t)(txq->elts_head - txq->elts_tail) >= size)
			break;
		w.metadata = meta && (m->ol_flags & RTE_MBUF_DYNFLAG_TX_METADATA) ?
			     *RTE_FLOW_DYNF_METADATA(m) : 0;
		w.completion = ++txq->since_comp >= MLX5DM_TX_COMP_EVERY || i + 1 == n;
		last_pi = txq->pi;
		wqebbs = mlx5dm_tx_wqe_write(txq->wqes, txq->log_wqes, txq->pi, &w);
		txq->elts[txq->elts_head++ & (size - 1)] = m;
		txq->pi = (uint16_t)(txq->pi + wqebbs);
		if (w.completion) {
			txq->comp[last_pi & (size - 1)] = (struct mlx5dm_txq_comp){
				.elts_head = txq->elts_head, .pi_next = txq->pi,
			};
			txq->since_comp = 0;
		}
		bytes += m->pkt_len;
		sent++;
	}
	if (sent == 0)
		return i;
	if (!w.completion) {
		/* Stopped early: the last WQE asks for the completion after all. */
		txq->wqes[(size_t)(last_pi & (size - 1)) * MLX5DM_WQEBB + 11] =
			MLX5DM_WQE_CTRL_CQ_UPDATE;
		txq->comp[last_pi & (size - 1)] = (struct mlx5dm_txq_comp){
			.elts_head = txq->elts_head, .pi_next = txq->pi,
		};
		txq->since_comp = 0;
	}
	mlx5dm_dbrec_set(&txq->dbrec[1], txq->pi);
	rte_wmb();
	mlx5dm_dev_doorbell(txq->uar, 0, mlx5dm_tx_doorbell_value(txq->wqes, txq->log_wqes,
								  last_pi));
	txq->packets += sent;
	txq->bytes += bytes;
	return i;
}
