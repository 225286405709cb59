/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Send-ring bring-up: buffers and umems, CREATE_CQ, CREATE_QP (RC, zero-length
 * RQ), then RST2INIT / INIT2RTR / RTR2RTS connecting the QP to itself, with
 * force-loopback addressing or through the port's RoCE address, as rdma-core's
 * DR send rings do (dr_prepare_qp_to_rts()).
 */

#include <errno.h>
#include <string.h>
#include <arpa/inet.h>

#include "mlx5dm_osdep.h"
#include "mlx5dm_prm_queue.h"
#include "mlx5dm_send_priv.h"

#define MLX5DM_SEND_PAGE 4096u
#define MLX5DM_SEND_UMEM_ACCESS (IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | \
				 IBV_ACCESS_REMOTE_READ)

/* Status/syndrome of a command output, as a log line; returns -errno. */
static int
mlx5dm_send_cmd_err(const char *what, const uint8_t *out, int ret)
{
	MLX5DM_LOG(ERR, "send", "%s failed: %d (status 0x%x, syndrome 0x%x)", what, ret,
		   (unsigned int)mlx5dm_prm_fget(out, MLX5DM_CMD_OUT_STATUS),
		   (unsigned int)mlx5dm_prm_fget(out, MLX5DM_CMD_OUT_SYNDROME));
	return ret < 0 ? ret : -EIO;
}

static int
mlx5dm_send_create_cq(struct mlx5dm_send_ring *ring, const struct mlx5dm_send_attr *attr)
{
	uint8_t in[MLX5DM_CREATE_CQ_IN_BYTES] = { 0 };
	uint8_t out[MLX5DM_CREATE_CQ_OUT_BYTES] = { 0 };
	const struct mlx5dm_dev_ops *ops = ring->dev->ops;

	mlx5dm_prm_fset(in, MLX5DM_CMD_IN_OPCODE, MLX5DM_CMD_OP_CREATE_CQ);
	mlx5dm_prm_fset(in, MLX5DM_CQC_CQE_SZ, 0); /* 64-byte CQEs */
	mlx5dm_prm_fset(in, MLX5DM_CQC_LOG_CQ_SIZE, ring->log_ncqe);
	mlx5dm_prm_fset(in, MLX5DM_CQC_UAR_PAGE, ring->uar->page_id);
	mlx5dm_prm_fset(in, MLX5DM_CQC_C_EQN, attr->eqn);
	mlx5dm_prm_fset(in, MLX5DM_CQC_LOG_PAGE_SIZE, 0); /* 4 KiB pages */
	mlx5dm_prm_fset(in, MLX5DM_CQC_DBR_UMEM_VALID, 1);
	mlx5dm_prm_fset(in, MLX5DM_CQC_DBR_UMEM_ID, ring->dbr_umem->umem_id);
	mlx5dm_prm_fset(in, MLX5DM_CQC_DBR_ADDR, MLX5DM_SEND_CQ_DBR_OFF);
	mlx5dm_prm_fset(in, MLX5DM_CREATE_CQ_IN_UMEM_VALID, 1);
	mlx5dm_prm_fset(in, MLX5DM_CREATE_CQ_IN_UMEM_ID, ring->cq_umem->umem_id);
	mlx5dm_prm_fset(in, MLX5DM_CREATE_CQ_IN_UMEM_OFFSET, 0);
	ring->cq = ops->devx_obj_create(ring->dev->ctx, in, sizeof(in), out, sizeof(out));
	if (ring->cq == NULL)
		return mlx5dm_send_cmd_err("CREATE_CQ", out, -errno);
	ring->cqn = (uint32_t)mlx5dm_prm_fget(out, MLX5DM_CREATE_CQ_OUT_CQN);
	return 0;
}

static int
mlx5dm_send_create_qp(struct mlx5dm_send_ring *ring, const struct mlx5dm_send_attr *attr)
{
	uint8_t in[MLX5DM_CREATE_QP_IN_BYTES] = { 0 };
	uint8_t out[MLX5DM_CREATE_QP_OUT_BYTES] = { 0 };
	const struct mlx5dm_dev_ops *ops = ring->dev->ops;

	mlx5dm_prm_fset(in, MLX5DM_CMD_IN_OPCODE, MLX5DM_CMD_OP_CREATE_QP);
	mlx5dm_prm_fset(in, MLX5DM_QPC_ST, MLX5DM_QPC_ST_RC);
	mlx5dm_prm_fset(in, MLX5DM_QPC_PM_STATE, MLX5DM_QPC_PM_STATE_MIGRATED);
	mlx5dm_prm_fset(in, MLX5DM_QPC_PD, attr->pdn);
	mlx5dm_prm_fset(in, MLX5DM_QPC_UAR_PAGE, ring->uar->page_id);
	mlx5dm_prm_fset(in, MLX5DM_QPC_RQ_TYPE, MLX5DM_QPC_RQ_TYPE_ZERO_LEN);
	mlx5dm_prm_fset(in, MLX5DM_QPC_LOG_SQ_SIZE, ring->log_nbb);
	mlx5dm_prm_fset(in, MLX5DM_QPC_LOG_PAGE_SIZE, 0);
	mlx5dm_prm_fset(in, MLX5DM_QPC_CQN_SND, ring->cqn);
	mlx5dm_prm_fset(in, MLX5DM_QPC_CQN_RCV, ring->cqn);
	mlx5dm_prm_fset(in, MLX5DM_QPC_DBR_UMEM_VALID, 1);
	mlx5dm_prm_fset(in, MLX5DM_QPC_DBR_UMEM_ID, ring->dbr_umem->umem_id);
	mlx5dm_prm_fset(in, MLX5DM_QPC_DBR_ADDR, MLX5DM_SEND_QP_DBR_OFF);
	mlx5dm_prm_fset(in, MLX5DM_CREATE_QP_IN_WQ_UMEM_VALID, 1);
	mlx5dm_prm_fset(in, MLX5DM_CREATE_QP_IN_WQ_UMEM_ID, ring->sq_umem->umem_id);
	ring->qp = ops->devx_obj_create(ring->dev->ctx, in, sizeof(in), out, sizeof(out));
	if (ring->qp == NULL)
		return mlx5dm_send_cmd_err("CREATE_QP", out, -errno);
	ring->qpn = (uint32_t)mlx5dm_prm_fget(out, MLX5DM_CREATE_QP_OUT_QPN);
	return 0;
}

/* INIT2RTR's primary address path to the QP itself. */
static void
mlx5dm_send_path_set(uint8_t *in, const struct mlx5dm_send_path *path)
{
	const uint8_t *m = path->rmac;

	if (path->fl) {
		mlx5dm_prm_fset(in, MLX5DM_QPC_PAP_FL, 1);
		return;
	}
	memcpy(in + MLX5DM_QPC_PAP_RGID_BYTE, path->rgid, sizeof(path->rgid));
	mlx5dm_prm_fset(in, MLX5DM_QPC_PAP_RMAC_47_32, (uint64_t)m[0] << 8 | m[1]);
	mlx5dm_prm_fset(in, MLX5DM_QPC_PAP_RMAC_31_0, (uint64_t)m[2] << 24 | (uint64_t)m[3] << 16 |
			(uint64_t)m[4] << 8 | m[5]);
	mlx5dm_prm_fset(in, MLX5DM_QPC_PAP_SRC_ADDR_INDEX, 0);
	if (path->roce_v2)
		mlx5dm_prm_fset(in, MLX5DM_QPC_PAP_UDP_SPORT, MLX5DM_SEND_ROCE_UDP_SPORT);
}

/* One QP state transition; the fields each step sets are those of rdma-core's DR rings. */
static int
mlx5dm_send_modify_qp(struct mlx5dm_send_ring *ring, uint16_t opcode)
{
	uint8_t in[MLX5DM_MODIFY_QP_IN_BYTES] = { 0 };
	uint8_t out[MLX5DM_MODIFY_QP_OUT_BYTES] = { 0 };
	int ret;

	mlx5dm_prm_fset(in, MLX5DM_CMD_IN_OPCODE, opcode);
	mlx5dm_prm_fset(in, MLX5DM_QP_IN_QPN, ring->qpn);
	switch (opcode) {
	case MLX5DM_CMD_OP_RST2INIT_QP:
		mlx5dm_prm_fset(in, MLX5DM_QPC_PAP_VHCA_PORT, 1);
		mlx5dm_prm_fset(in, MLX5DM_QPC_PM_STATE, MLX5DM_QPC_PM_STATE_MIGRATED);
		mlx5dm_prm_fset(in, MLX5DM_QPC_RRE, 1);
		mlx5dm_prm_fset(in, MLX5DM_QPC_RWE, 1);
		break;
	case MLX5DM_CMD_OP_INIT2RTR_QP:
		mlx5dm_prm_fset(in, MLX5DM_QPC_MTU, MLX5DM_QPC_MTU_1K);
		mlx5dm_prm_fset(in, MLX5DM_QPC_LOG_MSG_MAX, 24);
		mlx5dm_prm_fset(in, MLX5DM_QPC_REMOTE_QPN, ring->qpn); /* connected to itself */
		mlx5dm_send_path_set(in, &ring->path);
		mlx5dm_prm_fset(in, MLX5DM_QPC_PAP_VHCA_PORT, 1);
		mlx5dm_prm_fset(in, MLX5DM_QPC_MIN_RNR_NAK, 1);
		mlx5dm_prm_fset(in, MLX5DM_QPC_LOG_RRA_MAX, 4);
		break;
	case MLX5DM_CMD_OP_RTR2RTS_QP:
		mlx5dm_prm_fset(in, MLX5DM_QPC_RETRY_COUNT, 7);
		mlx5dm_prm_fset(in, MLX5DM_QPC_RNR_RETRY, 7);
		mlx5dm_prm_fset(in, MLX5DM_QPC_PAP_ACK_TIMEOUT, 8);
		mlx5dm_prm_fset(in, MLX5DM_QPC_LOG_SRA_MAX, 4);
		break;
	case MLX5DM_CMD_OP_2RST_QP:
		break;
	default:
		return -EINVAL;
	}
	ret = ring->dev->ops->devx_obj_modify(ring->qp, in, sizeof(in), out, sizeof(out));
	if (ret != 0)
		return mlx5dm_send_cmd_err("modify QP", out, ret < 0 ? ret : -ret);
	return 0;
}

/* RST to RTS, connected to itself. */
static int
mlx5dm_send_connect(struct mlx5dm_send_ring *ring)
{
	int ret;

	ret = mlx5dm_send_modify_qp(ring, MLX5DM_CMD_OP_RST2INIT_QP);
	if (ret == 0)
		ret = mlx5dm_send_modify_qp(ring, MLX5DM_CMD_OP_INIT2RTR_QP);
	if (ret == 0)
		ret = mlx5dm_send_modify_qp(ring, MLX5DM_CMD_OP_RTR2RTS_QP);
	return ret;
}

/*
 * A QP in error back to RTS, as DPDK mlx5 brings its failed queues back
 * (mlx5_queue_state_modify(): to RST, then up again): once the device has
 * flushed every WQE it was told of, nothing of the old SQ can still
 * execute, and RST restarts the device's WQE counter at 0. The ring's own
 * positions never go back (callers keep them to ask mlx5dm_send_done()):
 * they jump to the next multiple of 2^16, where the 16-bit counter of the
 * device's WQEs meets them again. The CQ was not in error (it holds a CQE
 * per WQEBB): it goes on as it was.
 */
int
mlx5dm_send_recover(struct mlx5dm_send_ring *ring)
{
	/* Nothing staged is read any more: the staging buffer holds the writes to post again. */
	struct mlx5dm_send_kept *again = (struct mlx5dm_send_kept *)(void *)ring->data_buf;
	uint32_t max = ring->data_size / sizeof(*again);
	uint32_t restart, i, n;
	int ret;

	if (ring->err == 0)
		return 0;
	ret = mlx5dm_send_quiesce(ring);
	if (ret < 0)
		return ret;
	ret = mlx5dm_send_modify_qp(ring, MLX5DM_CMD_OP_2RST_QP);
	if (ret == 0) {
		/* In RST the device reads no record: it starts again from 0 with it. */
		__atomic_store_n((uint32_t *)(ring->dbr_buf + MLX5DM_SEND_QP_DBR_OFF) +
				 MLX5_SND_DBR, 0, __ATOMIC_RELAXED);
		mlx5dm_wmb();
		ret = mlx5dm_send_connect(ring);
	}
	if (ret < 0) {
		MLX5DM_LOG(ERR, "send", "qpn 0x%x: the failed QP could not be brought back: %d",
			   ring->qpn, ret);
		return ret;
	}
	/*
	 * Copied out before any post: the new WQEs start at slot 0, over the
	 * lost ones when those wrapped past the SQ's end.
	 */
	n = mlx5dm_send_lost_kept(ring, again, max);
	for (i = 0; i < ring->nb_refused && n < max; i++)
		again[n++] = ring->refused[i];
	ring->nb_refused = 0;
	restart = (ring->pi + 0xffffu) & ~0xffffu;
	ring->lost_from = ring->err_pos;
	ring->lost_to = restart;
	/* WQEs posted but never rung are dropped with the rest. */
	__atomic_store_n(&ring->ci, restart, __ATOMIC_RELEASE);
	ring->pi = restart;
	ring->rung_pi = restart;
	ring->unrung = 0;
	ring->since_signal = 0;
	ring->data_tail = ring->data_head;
	ring->data_unsignaled = 0;
	ring->last_len = 0;
	ring->err = 0;
	ring->stats.recoveries++;
	MLX5DM_LOG(INFO, "send", "qpn 0x%x: back in RTS; WQEs %u to %u were not executed, "
		   "%u kept writes among them or refused posted again", ring->qpn,
		   ring->lost_from, restart, n);
	/* A post the ring refuses again keeps that write for the next recovery. */
	for (i = 0; i < n; i++)
		if (mlx5dm_send_write_kept(ring, again[i].addr, again[i].rkey, again[i].data,
					   again[i].len) == 0)
			ring->stats.rewrites++;
	return 0;
}

static struct mlx5dv_devx_umem *
mlx5dm_send_umem(struct mlx5dm_send_ring *ring, void *buf, size_t len)
{
	struct mlx5dv_devx_umem *u;

	u = ring->dev->ops->devx_umem_reg(ring->dev->ctx, buf, len, MLX5DM_SEND_UMEM_ACCESS);
	if (u == NULL)
		MLX5DM_LOG(ERR, "send", "umem registration of %zu bytes failed: %d", len, errno);
	return u;
}

static int
mlx5dm_send_alloc_buffers(struct mlx5dm_send_ring *ring, uint32_t data_size,
			  struct ibv_pd *pd)
{
	size_t nbb = (size_t)1 << ring->log_nbb;
	size_t ncqe = (size_t)1 << ring->log_ncqe;
	size_t i;

	ring->sq_buf = mlx5dm_aligned_zmalloc(nbb * 64, MLX5DM_SEND_PAGE);
	ring->cq_buf = mlx5dm_aligned_zmalloc(ncqe * 64, MLX5DM_SEND_PAGE);
	ring->dbr_buf = mlx5dm_aligned_zmalloc(MLX5DM_SEND_DBR_BYTES, MLX5DM_SEND_PAGE);
	ring->data_buf = mlx5dm_aligned_zmalloc(data_size + 64, MLX5DM_SEND_PAGE);
	ring->wqe_end = mlx5dm_calloc(nbb, sizeof(*ring->wqe_end));
	ring->wqe_data_end = mlx5dm_calloc(nbb, sizeof(*ring->wqe_data_end));
	ring->wqe_kept = mlx5dm_calloc(nbb, sizeof(*ring->wqe_kept));
	if (ring->sq_buf == NULL || ring->cq_buf == NULL || ring->dbr_buf == NULL ||
	    ring->data_buf == NULL || ring->wqe_end == NULL || ring->wqe_data_end == NULL ||
	    ring->wqe_kept == NULL)
		return -ENOMEM;
	ring->data_size = data_size;
	/* Invalid CQEs with owner 0: nothing is mistaken for a completion on the first pass. */
	for (i = 0; i < ncqe; i++)
		ring->cq_buf[i * 64 + 63] = 0xf0;
	ring->sq_umem = mlx5dm_send_umem(ring, ring->sq_buf, nbb * 64);
	if (ring->sq_umem == NULL)
		return -errno;
	ring->cq_umem = mlx5dm_send_umem(ring, ring->cq_buf, ncqe * 64);
	if (ring->cq_umem == NULL)
		return -errno;
	ring->dbr_umem = mlx5dm_send_umem(ring, ring->dbr_buf, MLX5DM_SEND_DBR_BYTES);
	if (ring->dbr_umem == NULL)
		return -errno;
	ring->data_mr = ring->dev->ops->reg_mr(pd, ring->data_buf, data_size + 64,
					       IBV_ACCESS_LOCAL_WRITE);
	if (ring->data_mr == NULL) {
		MLX5DM_LOG(ERR, "send", "staging buffer registration failed: %d", errno);
		return -errno;
	}
	return 0;
}

static void
mlx5dm_send_free(struct mlx5dm_send_ring *ring)
{
	const struct mlx5dm_dev_ops *ops = ring->dev->ops;

	if (ring->qp != NULL)
		ops->devx_obj_destroy(ring->qp);
	if (ring->cq != NULL)
		ops->devx_obj_destroy(ring->cq);
	if (ring->data_mr != NULL)
		ops->dereg_mr(ring->data_mr);
	if (ring->dbr_umem != NULL)
		ops->devx_umem_dereg(ring->dbr_umem);
	if (ring->cq_umem != NULL)
		ops->devx_umem_dereg(ring->cq_umem);
	if (ring->sq_umem != NULL)
		ops->devx_umem_dereg(ring->sq_umem);
	if (ring->own_uar && ring->uar != NULL)
		ops->devx_free_uar(ring->uar);
	mlx5dm_free(ring->wqe_kept);
	mlx5dm_free(ring->wqe_data_end);
	mlx5dm_free(ring->wqe_end);
	mlx5dm_free(ring->data_buf);
	mlx5dm_free(ring->dbr_buf);
	mlx5dm_free(ring->cq_buf);
	mlx5dm_free(ring->sq_buf);
	mlx5dm_free(ring);
}

struct mlx5dm_send_ring *
mlx5dm_send_ring_create(const struct mlx5dm_send_attr *attr)
{
	struct mlx5dm_send_ring *ring;
	uint32_t data_size;
	int ret;

	if (attr == NULL || attr->dev == NULL || attr->pd == NULL ||
	    attr->log_sq_wqebb > 15 || (attr->log_sq_wqebb != 0 && attr->log_sq_wqebb < 6)) {
		errno = EINVAL;
		return NULL;
	}
	ring = mlx5dm_zmalloc(sizeof(*ring));
	if (ring == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	ring->dev = attr->dev;
	ring->path = attr->path;
	ring->log_nbb = attr->log_sq_wqebb != 0 ? attr->log_sq_wqebb : MLX5DM_SEND_LOG_SQ_WQEBB;
	/*
	 * Every WQE may end with an error CQE once the QP fails, so the CQ holds
	 * as many CQEs as the SQ holds WQEs (one WQEBB at least each).
	 */
	ring->log_ncqe = ring->log_nbb;
	ring->signal_th = attr->signal_th != 0 ? attr->signal_th : 16;
	ring->stall_ns = (uint64_t)(attr->stall_ms != 0 ? attr->stall_ms : 5000) * 1000000;
	/* Keep a requested CQE always in flight when the SQ is full (WQEs <= 2 WQEBBs). */
	if (ring->signal_th > (1u << ring->log_nbb) / 4)
		ring->signal_th = (1u << ring->log_nbb) / 4;
	data_size = attr->data_buf_size != 0 ? attr->data_buf_size : 1u << 20;
	if (data_size < 2 * MLX5DM_SEND_MAX_WRITE)
		data_size = 2 * MLX5DM_SEND_MAX_WRITE;
	/* A recovery copies the lost kept writes there (one per WQEBB at most). */
	if (data_size < (1u << ring->log_nbb) * sizeof(struct mlx5dm_send_kept))
		data_size = (1u << ring->log_nbb) * sizeof(struct mlx5dm_send_kept);
	if (attr->uar != NULL) {
		ring->uar = attr->uar;
	} else {
		ring->uar = ring->dev->ops->devx_alloc_uar(ring->dev->ctx,
							   MLX5DV_UAR_ALLOC_TYPE_NC);
		if (ring->uar == NULL)
			ring->uar = ring->dev->ops->devx_alloc_uar(ring->dev->ctx,
								   MLX5DV_UAR_ALLOC_TYPE_BF);
		if (ring->uar == NULL) {
			MLX5DM_LOG(ERR, "send", "UAR allocation failed: %d", errno);
			ret = -errno;
			goto free_ring;
		}
		ring->own_uar = true;
	}
	ret = mlx5dm_send_alloc_buffers(ring, data_size, attr->pd);
	if (ret < 0)
		goto free_ring;
	ret = mlx5dm_send_create_cq(ring, attr);
	if (ret < 0)
		goto free_ring;
	ret = mlx5dm_send_create_qp(ring, attr);
	if (ret < 0)
		goto free_ring;
	ret = mlx5dm_send_connect(ring);
	if (ret < 0)
		goto free_ring;
	MLX5DM_LOG(DEBUG, "send", "ring qpn 0x%x cqn 0x%x: %u WQEBBs, signal every %u, %s",
		   ring->qpn, ring->cqn, 1u << ring->log_nbb, ring->signal_th,
		   attr->path.fl ? "force-loopback" : "through the port's GID");
	return ring;
free_ring:
	mlx5dm_send_free(ring);
	errno = ret < 0 ? -ret : EIO;
	return NULL;
}

#define MLX5DM_SEND_SWAP(a, b, field) do { \
	__typeof__((a)->field) tmp_ = (a)->field; \
	(a)->field = (b)->field; \
	(b)->field = tmp_; \
} while (0)

int
mlx5dm_send_ring_resize(struct mlx5dm_send_ring *ring, const struct mlx5dm_send_attr *attr)
{
	struct mlx5dm_send_ring *n;
	uint32_t restart;
	int ret;

	if (ring->err != 0)
		return ring->err;
	ret = mlx5dm_send_drain(ring);
	if (ret < 0)
		return ret;
	n = mlx5dm_send_ring_create(attr);
	if (n == NULL)
		return -errno;
	/* The queues and their buffers change hands; n leaves with the old ones. */
	MLX5DM_SEND_SWAP(ring, n, uar);
	MLX5DM_SEND_SWAP(ring, n, own_uar);
	MLX5DM_SEND_SWAP(ring, n, sq_buf);
	MLX5DM_SEND_SWAP(ring, n, log_nbb);
	MLX5DM_SEND_SWAP(ring, n, wqe_end);
	MLX5DM_SEND_SWAP(ring, n, wqe_kept);
	MLX5DM_SEND_SWAP(ring, n, wqe_data_end);
	MLX5DM_SEND_SWAP(ring, n, signal_th);
	MLX5DM_SEND_SWAP(ring, n, stall_ns);
	MLX5DM_SEND_SWAP(ring, n, qpn);
	MLX5DM_SEND_SWAP(ring, n, qp);
	MLX5DM_SEND_SWAP(ring, n, sq_umem);
	MLX5DM_SEND_SWAP(ring, n, cq_buf);
	MLX5DM_SEND_SWAP(ring, n, log_ncqe);
	MLX5DM_SEND_SWAP(ring, n, cq_ci);
	MLX5DM_SEND_SWAP(ring, n, cqn);
	MLX5DM_SEND_SWAP(ring, n, cq);
	MLX5DM_SEND_SWAP(ring, n, cq_umem);
	MLX5DM_SEND_SWAP(ring, n, dbr_buf);
	MLX5DM_SEND_SWAP(ring, n, dbr_umem);
	MLX5DM_SEND_SWAP(ring, n, data_buf);
	MLX5DM_SEND_SWAP(ring, n, data_size);
	MLX5DM_SEND_SWAP(ring, n, data_mr);
	/* Drained: every staged byte was released, none is behind a WQE. */
	ring->data_tail = ring->data_head;
	ring->data_unsignaled = 0;
	/* The new QP's WQE counter starts at 0, as after a recovery. */
	restart = (ring->pi + 0xffffu) & ~0xffffu;
	ring->pi = restart;
	ring->rung_pi = restart;
	__atomic_store_n(&ring->ci, restart, __ATOMIC_RELEASE);
	ring->unrung = 0;
	ring->since_signal = 0;
	ring->last_ctrl = NULL;
	ring->last_len = 0;
	MLX5DM_LOG(DEBUG, "send", "qpn 0x%x replaced by qpn 0x%x: %u WQEBBs", n->qpn, ring->qpn,
		   1u << ring->log_nbb);
	mlx5dm_send_free(n);
	return 0;
}

void
mlx5dm_send_ring_destroy(struct mlx5dm_send_ring *ring)
{
	if (ring == NULL)
		return;
	if (ring->err == 0)
		mlx5dm_send_drain(ring);
	mlx5dm_send_free(ring);
}

void
mlx5dm_send_stats_get(const struct mlx5dm_send_ring *ring, struct mlx5dm_send_stats *st)
{
	*st = ring->stats;
	st->size = 1u << ring->log_nbb;
	st->outstanding = ring->pi - ring->ci;
	st->unrung = ring->unrung;
	st->err = ring->err;
}

uint32_t
mlx5dm_send_ring_qpn(const struct mlx5dm_send_ring *ring)
{
	return ring->qpn;
}

uint32_t
mlx5dm_send_ring_cqn(const struct mlx5dm_send_ring *ring)
{
	return ring->cqn;
}
