/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * A minimal datapath for tests that send frames through steering: one SQ
 * of the context (mlx5dm_sq_create) and the tests' RQs, driven the way a
 * poll-mode driver drives them, with WQE and CQE bytes written and read
 * here from the PRM layouts (rdma-core mlx5dv.h struct mlx5_wqe_ctrl_seg,
 * mlx5_wqe_eth_seg, mlx5_wqe_data_seg; DPDK mlx5_prm.h struct mlx5_cqe),
 * not by library code. Buffers live in one host MR of the context's PD.
 */

#ifndef _DP_TEST_UTIL_H_
#define _DP_TEST_UTIL_H_

#include <stdbool.h>
#include <stdint.h>

#include "mlx5dm_dev.h"
#include "mlx5dm_sim_priv.h"
#include "mlx5dm_steer.h"

#define DP_MAX_RQ 8
#define DP_RQ_POSTED 16        /* receive buffers kept posted per RQ */
#define DP_BUF 2048            /* bytes per buffer */

struct dp_rq {
	struct mlx5dm_wq_info wi;
	uint16_t pi;               /* WQEs posted */
	uint32_t cq_ci;
	uint8_t *buf;              /* DP_RQ_POSTED buffers */
};

struct dp {
	struct mlx5dm_dev *dev;
	struct mlx5dm_sq *sq;
	struct mlx5dm_wq_info sqi;
	uint16_t pi;               /* WQEBBs posted */
	uint32_t cq_ci;
	struct ibv_mr *mr;
	uint8_t *mem;
	size_t mem_len;
	unsigned int nb_rq;
	struct dp_rq rq[DP_MAX_RQ];
};

/* What a receive CQE said of a frame. */
struct dp_rx {
	int q;                     /* index of the RQ */
	uint8_t b[DP_BUF];
	uint16_t len;
	uint32_t flow_tag;         /* sop_drop_qpn[23:0], 0: none */
	uint32_t rss_hash;
	bool has_hash;             /* rx_hash_type != 0 */
	uint8_t cqe[64];
};

/* SQ, MR and posted buffers for rqs[0..nb); 0 or -errno. */
int dp_open(struct dp *dp, struct mlx5dm_ctx *ctx, struct mlx5dm_dev *dev,
	    struct mlx5dm_rq *const *rqs, unsigned int nb);
void dp_close(struct dp *dp);

/*
 * Send one frame (metadata: the Ethernet segment's flow_table_metadata)
 * and wait for its Tx CQE. Returns the index of the RQ it arrived on (out
 * filled, the buffer posted again), -1 when no RQ got it, < -1 on a
 * datapath error (no Tx CQE in time, an error CQE).
 */
int dp_send_meta(struct dp *dp, const uint8_t *frame, uint16_t len, uint32_t metadata,
		 struct dp_rx *out);
int dp_send(struct dp *dp, const uint8_t *frame, uint16_t len, struct dp_rx *out);

/*
 * A frame another device's send has already delivered to one of dp's RQs
 * (the model delivers before the sender's Tx CQE): as dp_send() returns.
 */
int dp_recv(struct dp *dp, struct dp_rx *out);

/*
 * dp_send() for tests written against struct mlx5dm_sim_pkt: got (if not
 * NULL) says what the CQE said (flags, flow_tag, rss_hash, len) and its
 * data points into a static copy, valid until the next call.
 */
int dp_send_pkt(struct dp *dp, const uint8_t *frame, uint16_t len,
		struct mlx5dm_sim_pkt *got);

/* Next CQE of a ring (2^log entries) at *ci if software owns it (consumed), else NULL. */
const uint8_t *dp_cqe(uint8_t *cqes, uint32_t log, uint32_t *ci, volatile uint32_t *dbrec);

#endif /* _DP_TEST_UTIL_H_ */
