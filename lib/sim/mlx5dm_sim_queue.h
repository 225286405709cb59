/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * CQ and QP state shared by the queue commands (mlx5dm_sim_queue.c) and
 * the WQE executor (mlx5dm_sim_wqe.c).
 */

#ifndef _MLX5DM_SIM_QUEUE_H_
#define _MLX5DM_SIM_QUEUE_H_

#include "mlx5dm_sim_core.h"

struct mlx5dm_sim_cq {
	struct mlx5dm_sim_obj h;
	struct mlx5dm_sim_umem *buf_umem;
	struct mlx5dm_sim_umem *dbr_umem;
	struct mlx5dm_sim_uar *uar;
	uint8_t *buf;           /* 2^log_size CQEs of 64 bytes */
	uint8_t *dbr;           /* [0..3] consumer index (BE, 24 bits), [4..7] arm */
	uint32_t log_size;
	uint32_t pc;            /* CQEs written so far */
	bool overrun;
	struct mlx5dm_spinlock lock;
};

struct mlx5dm_sim_qp {
	struct mlx5dm_sim_obj h;
	uint32_t state;
	struct mlx5dm_sim_pd *pd;
	struct mlx5dm_sim_cq *scq;
	struct mlx5dm_sim_cq *rcq;
	struct mlx5dm_sim_uar *uar;
	struct mlx5dm_sim_umem *wq_umem;
	struct mlx5dm_sim_umem *dbr_umem;
	uint8_t *sq;            /* send queue: 2^log_sq_size WQEBBs after the RQ */
	uint32_t sq_bytes;
	uint8_t *dbr;           /* [0..3] RQ counter, [4..7] SQ producer counter (BE) */
	uint32_t remote_qpn;
	bool rre, rwe;
	uint16_t hw_ctr;        /* next WQEBB the model executes */
	uint32_t db_pending;    /* rung, not yet executed (send-queue thread) */
	struct mlx5dm_spinlock lock; /* one doorbell executes a QP at a time */
};

/* Execute the rung WQEs of qp (its lock and sim->lock for reading held). */
void mlx5dm_sim_sq_exec(struct mlx5dm_sim *sim, struct mlx5dm_sim_qp *qp);
/* Hand a doorbell of qp to the send-queue thread. */
void mlx5dm_sim_sq_kick(struct mlx5dm_sim *sim, struct mlx5dm_sim_qp *qp);
int mlx5dm_sim_sqt_start(struct mlx5dm_sim *sim);
void mlx5dm_sim_sqt_stop(struct mlx5dm_sim *sim);

#endif /* _MLX5DM_SIM_QUEUE_H_ */
