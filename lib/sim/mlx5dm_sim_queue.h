/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Queue state shared by the queue commands (mlx5dm_sim_queue.c,
 * mlx5dm_sim_fw_sq.c, mlx5dm_sim_fw_rq.c), the WQE executors
 * (mlx5dm_sim_wqe.c for the steering QPs, mlx5dm_sim_tx.c for the
 * datapath SQs) and the device thread (mlx5dm_sim_thread.c).
 */

#ifndef _MLX5DM_SIM_QUEUE_H_
#define _MLX5DM_SIM_QUEUE_H_

#include <string.h>

#include "mlx5dm_sim_core.h"

/*
 * A big-endian counter of a doorbell record (4-byte aligned, PRM
 * dbr_addr), read as one access with acquire semantics: the driver stores
 * it in one piece after the WQEs or CQE releases it counts, so a counter
 * read is never half old, and what it counts is read after it.
 */
static inline uint32_t
mlx5dm_sim_dbr_get(const uint8_t *rec)
{
	uint32_t v = __atomic_load_n((const uint32_t *)(const void *)rec, __ATOMIC_ACQUIRE);
	uint8_t b[4];

	memcpy(b, &v, sizeof(b));
	return mlx5dm_prm_be32(b);
}

struct mlx5dm_sim_cq {
	struct mlx5dm_sim_obj h;
	struct mlx5dm_sim_umem *buf_umem;
	struct mlx5dm_sim_umem *dbr_umem;
	struct mlx5dm_sim_uar *uar;
	uint8_t *buf;           /* 2^log_size CQEs of 64 bytes */
	uint8_t *dbr;           /* [0..3] consumer index (BE, 24 bits), [4..7] arm */
	uint32_t log_size;
	uint32_t pc;            /* CQEs written so far */
	uint32_t ci;            /* consumer index as last read from the record */
	bool overrun;           /* in error: the device writes no more CQEs */
	uint64_t overruns;      /* CQEs lost to the overrun */
	struct mlx5dm_spinlock lock; /* writers of a CQ several queues share */
};

/*
 * Write one CQE (img, owner bit filled in here) at the CQ's producer
 * index, body before op_own. -ENOSPC when it would overwrite a CQE the
 * consumer has not released (cq_dbrec): the CQ goes to error (overrun)
 * and the CQE is counted as lost. The CQ's lock is taken only when more
 * than one queue completes into it.
 */
int mlx5dm_sim_cq_push(struct mlx5dm_sim_cq *cq, uint8_t img[MLX5DM_SIM_CQE_BYTES]);
/*
 * cq_push in two steps, for a writer that owns the CQ (not shared): claim
 * the next slot (the room check, the owner bit into img; NULL on overrun,
 * as cq_push), then put img into it.
 */
uint8_t *mlx5dm_sim_cq_claim(struct mlx5dm_sim_cq *cq, uint8_t img[MLX5DM_SIM_CQE_BYTES]);
void mlx5dm_sim_cq_put(uint8_t *slot, const uint8_t img[MLX5DM_SIM_CQE_BYTES]);

/* More than one queue completes into cq: its writers take its lock. */
static inline bool
mlx5dm_sim_cq_shared(const struct mlx5dm_sim_cq *cq)
{
	return cq->h.refs > 1;
}

struct mlx5dm_sim_tis {
	struct mlx5dm_sim_obj h;
	struct mlx5dm_sim_obj *td;
};

/* A raw-packet send queue of the datapath (mlx5dm_sim_fw_sq.c, mlx5dm_sim_tx.c). */
struct mlx5dm_sim_sq {
	struct mlx5dm_sim_obj h;
	uint32_t state;
	struct mlx5dm_sim_pd *pd;
	struct mlx5dm_sim_cq *cq;
	struct mlx5dm_sim_tis *tis;
	struct mlx5dm_sim_umem *wq_umem;
	struct mlx5dm_sim_umem *dbr_umem;
	uint8_t *wq;            /* 2^log_size WQEBBs */
	uint32_t log_size;
	uint8_t *dbr;           /* [4..7] send counter (BE, 16 bits used) */
	uint32_t inline_min;    /* header bytes each Ethernet segment must inline */
	uint16_t ctr;           /* next WQEBB the device executes */
	uint8_t ctx[MLX5DM_SIM_SQC_BYTES]; /* as created, for QUERY_SQ */
};

#define MLX5DM_SIM_RQ_RUN 32

/* A receive queue: cyclic WQ of single-segment WQEs (mlx5dm_sim_fw_rq.c). */
struct mlx5dm_sim_rq {
	struct mlx5dm_sim_obj h;
	uint32_t state;
	struct mlx5dm_sim_cq *cq;
	struct mlx5dm_sim_pd *pd;
	struct mlx5dm_sim_umem *wq_umem;
	struct mlx5dm_sim_umem *dbr_umem;
	uint8_t *wq;
	uint32_t log_size;
	uint32_t log_stride;
	uint8_t *dbr;           /* [0..3] receive counter (BE, 16 bits used) */
	uint16_t ctr;           /* next WQE the device fills */
	uint32_t posted;        /* WQEs from ctr on known posted (record read when 0) */
	struct mlx5dm_spinlock lock; /* one writer at a time (several devices may deliver) */
	uint8_t ctx[240];       /* as created, for QUERY_RQ */
	/*
	 * CQEs of frames already in their buffers, claimed but not yet put:
	 * written as one run when the burst leaves the RQ (or the run is
	 * full), so the driver, polling the next CQE's line, takes that line
	 * from the device once per run rather than once per frame.
	 */
	uint16_t run;
	uint8_t *run_slot[MLX5DM_SIM_RQ_RUN];
	uint8_t run_img[MLX5DM_SIM_RQ_RUN][MLX5DM_SIM_CQE_BYTES];
	uint64_t packets;
	uint64_t bytes;
	uint64_t out_of_buffer; /* frames for it while nothing was posted */
};

/* Datapath SQs (mlx5dm_sim_tx.c): run what is rung on sq; true if there was work. */
struct mlx5dm_sim_tx;
struct mlx5dm_sim_tx *mlx5dm_sim_tx_create(int socket);
void mlx5dm_sim_tx_free(struct mlx5dm_sim_tx *tx);
bool mlx5dm_sim_sq_run(struct mlx5dm_sim *sim, struct mlx5dm_sim_tx *tx,
		       struct mlx5dm_sim_sq *sq);
/* RQ in ERR (sim->lock read-held): complete what was posted since with flush errors. */
bool mlx5dm_sim_rq_flush(struct mlx5dm_sim *sim, struct mlx5dm_sim_rq *rq);

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
	struct mlx5dm_spinlock lock; /* one executor runs a QP at a time */
};

/* WQEBBs of a send WQE of ds 16-byte units (a WQE takes at least one). */
static inline uint16_t
mlx5dm_sim_wqe_bbs(uint32_t ds)
{
	return (uint16_t)((MLX5DM_MAX(ds, 1u) * MLX5DM_SIM_WQE_DS + MLX5DM_SIM_WQEBB - 1) /
			  MLX5DM_SIM_WQEBB);
}

/*
 * Execute the rung WQEs of qp (its lock and sim->lock for reading held);
 * returns the WQEBBs it moved past.
 */
uint16_t mlx5dm_sim_sq_exec(struct mlx5dm_sim *sim, struct mlx5dm_sim_qp *qp);

#endif /* _MLX5DM_SIM_QUEUE_H_ */
