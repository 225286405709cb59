/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#ifndef _MLX5DM_SEND_PRIV_H_
#define _MLX5DM_SEND_PRIV_H_

#include <stdbool.h>
#include <stdint.h>

#include "mlx5dm_send.h"

/* Doorbell-record page: CQ record at 0, QP record at 64 (own cache lines). */
#define MLX5DM_SEND_DBR_BYTES 4096u
#define MLX5DM_SEND_CQ_DBR_OFF 0u
#define MLX5DM_SEND_QP_DBR_OFF 64u

/* WQEBBs of a kept write (an inline RDMA WRITE) at most. */
#define MLX5DM_SEND_KEPT_NBB 2u

/* A kept write, copied: one a recovery posts again. */
struct mlx5dm_send_kept {
	uint64_t addr;
	uint32_t rkey;
	uint32_t len;
	uint8_t data[MLX5DM_SEND_MAX_INLINE];
};

/*
 * What a ring's attributes make: the QP and CQ with their buffers, umems
 * and per-WQEBB records. Created and freed as one, so that a resize
 * replaces them with a single assignment.
 */
struct mlx5dm_send_queues {
	struct mlx5dv_devx_uar *uar;
	bool own_uar;
	uint32_t signal_th;
	uint64_t stall_ns;               /* a wait fails after this long without a completion */

	/* Send queue: (1 << log_nbb) WQEBBs of 64 bytes. */
	uint8_t *sq_buf;
	uint32_t log_nbb;
	uint32_t *wqe_end;               /* per start WQEBB: pi after that WQE */
	uint8_t *wqe_kept;               /* per start WQEBB: 1 for a kept write */
	uint64_t *wqe_data_end;          /* per start WQEBB: staging head after it */
	uint32_t qpn;
	struct mlx5dv_devx_obj *qp;
	struct mlx5dv_devx_umem *sq_umem;

	/* Completion queue: (1 << log_ncqe) 64-byte CQEs. */
	uint8_t *cq_buf;
	uint32_t log_ncqe;
	uint32_t cq_ci;
	uint32_t cqn;
	struct mlx5dv_devx_obj *cq;
	struct mlx5dv_devx_umem *cq_umem;

	/* Doorbell records. */
	uint8_t *dbr_buf;
	struct mlx5dv_devx_umem *dbr_umem;

	/* Staging buffer for pointer writes, plus a 64-byte READ-fence target at its end. */
	uint8_t *data_buf;
	uint32_t data_size;
	struct ibv_mr *data_mr;
};

struct mlx5dm_send_ring {
	struct mlx5dm_dev *dev;
	int err;                         /* -EIO once an error CQE was seen (or a wait gave up) */
	uint32_t err_pos;                /* with err: pi of the first WQE that did not execute */
	/* The WQEs the last recovery discarded: positions in (lost_from, lost_to]. */
	uint32_t lost_from, lost_to;
	struct mlx5dm_send_path path;    /* how the QP reaches itself, for a reconnection */
	struct mlx5dm_send_queues queues;

	uint32_t pi;                     /* producer, in WQEBBs (wraps at 2^32) */
	uint32_t ci;                     /* completed, in WQEBBs */
	uint8_t *last_ctrl;              /* control segment of the last WQE posted */
	uint32_t unrung;                 /* WQEs posted since the last doorbell */
	uint32_t rung_pi;                /* pi at the last doorbell: what the device was told */
	uint32_t since_signal;           /* WQEs since the last CQE request */
	/* Kept writes the posts leave room for besides the ring's own (mlx5dm_send_kept_hold()). */
	uint32_t kept_holds;

	uint64_t data_head;              /* staging bytes ever reserved */
	uint64_t data_tail;              /* staging bytes ever released by completions */
	uint64_t data_unsignaled;        /* staged bytes behind no CQE request */

	/* Last ICM range written: the READ fence reads it back. */
	uint64_t last_raddr;
	uint32_t last_rkey;
	uint32_t last_len;

	struct mlx5dm_send_stats stats;
};

/* mlx5dm_send_wqe.c */
int mlx5dm_send_wait_room(struct mlx5dm_send_ring *ring, uint32_t nbb, uint32_t data_len);
uint32_t mlx5dm_send_lost_kept(const struct mlx5dm_send_ring *ring, struct mlx5dm_send_kept *out,
			       uint32_t max);
/* Post a kept write where the caller found room, whatever the ring's error. */
void mlx5dm_send_kept_post(struct mlx5dm_send_ring *ring, uint64_t remote_addr, uint32_t rkey,
			   const void *data, uint32_t len);

#endif /* _MLX5DM_SEND_PRIV_H_ */
