/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The PMD's Rx/Tx bursts against queue memory this test plays the device
 * on: rings, doorbell records, a UAR page and CQEs written here by hand.
 * Tx: one WQE per frame, a completion asked every 32 WQEs and on a burst's
 * last, the doorbell record and one doorbell per burst, mbufs freed by
 * completions (and counted by tx_done_cleanup), a full ring refusing the
 * rest, an error CQE recovering the SQ. Rx: the mbuf built from the CQE,
 * a fresh buffer posted in its WQE, both doorbell records once per burst,
 * an error CQE counted and recycled, recovery once the ring is flushed.
 */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <rte_mbuf.h>
#include <ethdev_driver.h>

#include "mlx5dm.h"
#include "mlx5dm_dev.h"
#include "mlx5dm_rxtx.h"
#include "mlx5dm_steer.h"
#include "pmd_env.h"

#define LKEY 0x77aa

int mlx5dm_logtype;
int mlx5dm_logtype_lib;
static struct rte_mempool *pool;
static unsigned int rq_recovers, sq_recovers;

/* ---- what the PMD's datapath calls outside rxtx.c ---- */

int
mlx5dm_rq_recover(struct mlx5dm_rq *rq)
{
	(void)rq;
	rq_recovers++;
	return 0;
}

int
mlx5dm_sq_recover(struct mlx5dm_sq *sq)
{
	(void)sq;
	sq_recovers++;
	return 0;
}

void
mlx5dm_rules_ring_slow(struct mlx5dm_priv *priv)
{
	(void)priv;
}

/* Every address is in one region. */
uint32_t
mlx5dm_mr_lkey_slow(struct mlx5dm_priv *priv, struct mlx5dm_mr_cache *cache,
		    struct rte_mbuf *m, uintptr_t addr)
{
	(void)priv;
	(void)m;
	(void)addr;
	cache->start = 0;
	cache->end = UINTPTR_MAX;
	cache->lkey = LKEY;
	return LKEY;
}

/* ---- the device side ---- */

#define LOG_WQES 6
#define NWQES (1u << LOG_WQES)

static uint8_t wqes[NWQES * 64] __attribute__((aligned(64)));
static uint8_t cqes[NWQES * 64] __attribute__((aligned(64)));
static uint32_t dbrec[2], cq_dbrec[1];
static uint64_t uar_page[512];
static struct mlx5dv_devx_uar uar = { .reg_addr = uar_page };
static struct mlx5dm_priv priv;
static uint32_t dev_cq_pi; /* CQEs the fake device wrote */
static unsigned int dev_log_cq = LOG_WQES;

static void
dev_reset(void)
{
	unsigned int i;

	memset(wqes, 0, sizeof(wqes));
	memset(cqes, 0, sizeof(cqes));
	for (i = 0; i < NWQES; i++)
		cqes[i * 64 + 63] = 0xf0;
	dbrec[0] = dbrec[1] = cq_dbrec[0] = 0;
	memset(uar_page, 0, sizeof(uar_page));
	dev_cq_pi = 0;
	rq_recovers = sq_recovers = 0;
}

static uint8_t *
dev_cqe(uint8_t opcode, uint16_t wqe_counter)
{
	uint8_t *c = cqes + (dev_cq_pi & ((1u << dev_log_cq) - 1)) * 64;

	memset(c, 0, 64);
	c[60] = (uint8_t)(wqe_counter >> 8);
	c[61] = (uint8_t)wqe_counter;
	c[63] = (uint8_t)(opcode << 4 | ((dev_cq_pi >> dev_log_cq) & 1));
	dev_cq_pi++;
	return c;
}

static uint32_t
be32_at(const void *p)
{
	const uint8_t *b = p;

	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

static void
txq_init(struct mlx5dm_txq *txq, uint16_t inline_min)
{
	static struct rte_mbuf *elts[NWQES];
	static struct mlx5dm_txq_comp comp[NWQES];

	memset(txq, 0, sizeof(*txq));
	memset(elts, 0, sizeof(elts));
	txq->wqes = wqes;
	txq->log_wqes = LOG_WQES;
	txq->dbrec = dbrec;
	txq->cqes = cqes;
	txq->log_cqes = LOG_WQES;
	txq->cq_dbrec = cq_dbrec;
	txq->uar = &uar;
	txq->sqn = 0x321;
	txq->inline_min = inline_min;
	txq->elts = elts;
	txq->comp = comp;
	txq->priv = &priv;
}

static void
alloc_frames(struct rte_mbuf **m, unsigned int n, uint16_t len)
{
	unsigned int i;

	assert_int_equal(rte_pktmbuf_alloc_bulk(pool, m, n), 0);
	for (i = 0; i < n; i++)
		memset(rte_pktmbuf_append(m[i], len), (int)i, len);
}

/* WQEBB i's control segment asks for a completion. */
static bool
wqe_ce(unsigned int i)
{
	return wqes[(i & (NWQES - 1)) * 64 + 11] == 0x08;
}

static void
test_tx_burst(void **state)
{
	struct mlx5dm_txq txq;
	struct rte_mbuf *m[NWQES + 8];
	unsigned int avail = rte_mempool_avail_count(pool), i;

	(void)state;
	dev_reset();
	dev_log_cq = LOG_WQES;
	txq_init(&txq, 18);
	/* 40 frames: one WQEBB each; completions on the 32nd and the last. */
	alloc_frames(m, 40, 60);
	assert_int_equal(mlx5dm_tx_burst(&txq, m, 40), 40);
	for (i = 0; i < 40; i++)
		assert_int_equal(wqe_ce(i), i == 31 || i == 39);
	/* WQE 39: index 39, SEND; sqn, ds 4; one data segment of 42 bytes at byte 18. */
	assert_int_equal(be32_at(wqes + 39 * 64), 39u << 8 | 0x0a);
	assert_int_equal(be32_at(wqes + 39 * 64 + 4), 0x321u << 8 | 4);
	assert_int_equal(be32_at(wqes + 39 * 64 + 48), 42);
	assert_int_equal(be32_at(wqes + 39 * 64 + 52), LKEY);
	/* Doorbell record: 40 WQEBBs; the doorbell: WQE 39's first 8 bytes. */
	assert_int_equal(be32_at(&dbrec[1]), 40);
	assert_memory_equal(&uar_page[0], wqes + 39 * 64, 8);
	assert_int_equal(txq.packets, 40);
	assert_int_equal(txq.bytes, 40 * 60);
	/* Nothing completed yet: the mbufs are the device's. */
	assert_int_equal(mlx5dm_tx_done_cleanup(&txq, 0), 0);
	assert_int_equal(rte_mempool_avail_count(pool), avail - 40);
	/* The first completion frees 32 and releases the CQE. */
	dev_cqe(MLX5DM_CQE_REQ, 31);
	assert_int_equal(mlx5dm_tx_done_cleanup(&txq, 0), 32);
	assert_int_equal(be32_at(cq_dbrec), 1);
	assert_int_equal(rte_mempool_avail_count(pool), avail - 8);
	dev_cqe(MLX5DM_CQE_REQ, 39);
	assert_int_equal(mlx5dm_tx_done_cleanup(&txq, 0), 8);
	assert_int_equal(rte_mempool_avail_count(pool), avail);
	/* A burst that fills the ring: 40 posted, 24 WQEBBs left, the rest refused. */
	alloc_frames(m, NWQES + 4, 60);
	assert_int_equal(mlx5dm_tx_burst(&txq, m, 40), 40);
	assert_int_equal(mlx5dm_tx_burst(&txq, m + 40, 24 + 4), 24);
	/* The burst that stopped early asked for a completion on its last WQE. */
	assert_true(wqe_ce(40 + 40 + 23));
	assert_int_equal(be32_at(&dbrec[1]), 104);
	rte_pktmbuf_free_bulk(m + 64, 4);
	/* A Tx error (wrong lkey, say) at WQE 90: everything in flight is lost, the SQ recovers. */
	dev_cqe(MLX5DM_CQE_REQ, 79);
	assert_int_equal(mlx5dm_tx_done_cleanup(&txq, 0), 40);
	dev_cqe(MLX5DM_CQE_REQ_ERR, 90)[55] = MLX5DM_CQE_SYNDROME_LOCAL_PROT_ERR;
	dev_cqe(MLX5DM_CQE_REQ_ERR, 91)[55] = MLX5DM_CQE_SYNDROME_WR_FLUSH_ERR;
	assert_int_equal(mlx5dm_tx_done_cleanup(&txq, 0), 24);
	assert_int_equal(sq_recovers, 1);
	assert_int_equal(txq.errors, 24);
	assert_int_equal(rte_mempool_avail_count(pool), avail);
	/* The counters start over at 0. */
	alloc_frames(m, 1, 60);
	assert_int_equal(mlx5dm_tx_burst(&txq, m, 1), 1);
	assert_int_equal(be32_at(wqes), 0x0a);
	assert_int_equal(be32_at(&dbrec[1]), 1);
	dev_cqe(MLX5DM_CQE_REQ, 0);
	assert_int_equal(mlx5dm_tx_done_cleanup(&txq, 0), 1);
}

static void
rxq_init(struct mlx5dm_rxq *rxq, unsigned int log)
{
	static struct rte_mbuf *elts[NWQES];

	memset(rxq, 0, sizeof(*rxq));
	rxq->wqes = wqes;
	rxq->dbrec = dbrec;
	rxq->cqes = cqes;
	rxq->cq_dbrec = cq_dbrec;
	rxq->log_wqes = log;
	rxq->log_cqes = log;
	rxq->elts = elts;
	rxq->mp = pool;
	rxq->buf_len = rte_pktmbuf_data_room_size(pool) - RTE_PKTMBUF_HEADROOM;
	rxq->priv = &priv;
	rxq->port_id = 3;
	assert_int_equal(rte_pktmbuf_alloc_bulk(pool, elts, 1u << log), 0);
	mlx5dm_rxq_post_all(rxq);
}

/* The device puts a frame of len bytes into RQ WQE idx. */
static uint8_t *
dev_rx(struct mlx5dm_rxq *rxq, uint16_t idx, uint32_t len)
{
	uint8_t *w = wqes + (idx & ((1u << rxq->log_wqes) - 1)) * 16;
	uint64_t addr = 0;
	uint8_t *c;
	int i;

	for (i = 0; i < 8; i++)
		addr = addr << 8 | w[8 + i];
	assert_int_equal(be32_at(w + 4), LKEY);
	assert_true(len <= be32_at(w));
	memset((void *)(uintptr_t)addr, 0xab, len);
	c = dev_cqe(MLX5DM_CQE_RESP_SEND, idx);
	c[44] = (uint8_t)(len >> 24), c[45] = (uint8_t)(len >> 16);
	c[46] = (uint8_t)(len >> 8), c[47] = (uint8_t)len;
	return c;
}

static void
test_rx_burst(void **state)
{
	struct mlx5dm_rxq rxq;
	struct rte_mbuf *m[8], *posted;
	unsigned int avail, i;
	uint8_t *c;

	(void)state;
	dev_reset();
	dev_log_cq = 3;
	rxq_init(&rxq, 3);
	avail = rte_mempool_avail_count(pool);
	/* All 8 WQEs posted at set-up, nothing consumed. */
	assert_int_equal(be32_at(dbrec), 8);
	assert_int_equal(be32_at(wqes), rxq.buf_len);
	assert_int_equal(mlx5dm_rx_burst(&rxq, m, 8), 0);
	posted = rxq.elts[0];
	c = dev_rx(&rxq, 0, 70);
	c[12] = 0xca, c[13] = 0xfe, c[14] = 0xf0, c[15] = 0x0d, c[16] = 1; /* hash */
	c[28] = 0x06, c[29] = 0x28;          /* IPv4 UDP, checksums good */
	c[57] = 0, c[58] = 0, c[59] = 8;     /* flow tag 8: MARK 7 */
	c = dev_rx(&rxq, 1, 64);
	c[59] = 0xff, c[58] = 0xff, c[57] = 0xff; /* FLAG */
	assert_int_equal(mlx5dm_rx_burst(&rxq, m, 8), 2);
	assert_ptr_equal(m[0], posted);
	assert_int_equal(m[0]->pkt_len, 70);
	assert_int_equal(m[0]->data_len, 70);
	assert_int_equal(m[0]->data_off, RTE_PKTMBUF_HEADROOM);
	assert_int_equal(m[0]->port, 3);
	assert_int_equal(rte_pktmbuf_mtod(m[0], uint8_t *)[69], 0xab);
	assert_int_equal(m[0]->packet_type,
			 RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV4_EXT_UNKNOWN | RTE_PTYPE_L4_UDP);
	assert_int_equal(m[0]->ol_flags, RTE_MBUF_F_RX_RSS_HASH | RTE_MBUF_F_RX_FDIR |
			 RTE_MBUF_F_RX_FDIR_ID | RTE_MBUF_F_RX_IP_CKSUM_GOOD |
			 RTE_MBUF_F_RX_L4_CKSUM_GOOD);
	assert_int_equal(m[0]->hash.rss, 0xcafef00d);
	assert_int_equal(m[0]->hash.fdir.hi, 7);
	assert_int_equal(m[1]->ol_flags, RTE_MBUF_F_RX_FDIR);
	assert_int_equal(m[1]->packet_type, RTE_PTYPE_L2_ETHER);
	/* Fresh buffers in WQEs 0 and 1; both records once: CQ 2, RQ 10. */
	assert_ptr_not_equal(rxq.elts[0], posted);
	assert_int_equal(be32_at(cq_dbrec), 2);
	assert_int_equal(be32_at(dbrec), 10);
	assert_int_equal(rte_mempool_avail_count(pool), avail - 2);
	assert_int_equal(rxq.packets, 2);
	assert_int_equal(rxq.bytes, 134);
	rte_pktmbuf_free_bulk(m, 2);
	/* An error CQE (frame too long) on WQE 2, then the flush of the other 7. */
	dev_cqe(MLX5DM_CQE_RESP_ERR, 2)[55] = MLX5DM_CQE_SYNDROME_LOCAL_LENGTH_ERR;
	for (i = 3; i < 10; i++)
		dev_cqe(MLX5DM_CQE_RESP_ERR, (uint16_t)i)[55] = MLX5DM_CQE_SYNDROME_WR_FLUSH_ERR;
	assert_int_equal(mlx5dm_rx_burst(&rxq, m, 4), 0);
	assert_int_equal(rq_recovers, 0);    /* 4 of 8 came back: not yet */
	assert_int_equal(rxq.errors, 1);
	assert_int_equal(mlx5dm_rx_burst(&rxq, m, 8), 0);
	assert_int_equal(rq_recovers, 1);
	assert_int_equal(rxq.errors, 1);
	assert_int_equal(rxq.recoveries, 1);
	/* Counters at zero, the ring posted again with the buffers it had. */
	assert_int_equal(be32_at(dbrec), 8);
	assert_int_equal(be32_at(cq_dbrec), 10);
	assert_int_equal(rte_mempool_avail_count(pool), avail);
	dev_rx(&rxq, 0, 60);
	assert_int_equal(mlx5dm_rx_burst(&rxq, m, 8), 1);
	assert_int_equal(m[0]->pkt_len, 60);
	rte_pktmbuf_free(m[0]);
	for (i = 0; i < 8; i++)
		rte_pktmbuf_free(rxq.elts[i]);
}

static int
setup(void **state)
{
	(void)state;
	pool = pmd_env_init("test_pmd_rxtx");
	return pool == NULL ? -1 : 0;
}

static int
teardown(void **state)
{
	(void)state;
	pmd_env_fini(pool);
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tx_burst),
		cmocka_unit_test(test_rx_burst),
	};

	return cmocka_run_group_tests_name("pmd_rxtx", tests, setup, teardown);
}
