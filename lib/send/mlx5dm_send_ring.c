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
mlx5dm_send_create_cq(struct mlx5dm_dev *dev, struct mlx5dm_send_queues *queues, uint32_t eqn)
{
	uint8_t in[MLX5DM_CREATE_CQ_IN_BYTES] = { 0 };
	uint8_t out[MLX5DM_CREATE_CQ_OUT_BYTES] = { 0 };

	mlx5dm_prm_fset(in, MLX5DM_CMD_IN_OPCODE, MLX5DM_CMD_OP_CREATE_CQ);
	mlx5dm_prm_fset(in, MLX5DM_CQC_CQE_SZ, 0); /* 64-byte CQEs */
	mlx5dm_prm_fset(in, MLX5DM_CQC_LOG_CQ_SIZE, queues->log_ncqe);
	mlx5dm_prm_fset(in, MLX5DM_CQC_UAR_PAGE, queues->uar->page_id);
	mlx5dm_prm_fset(in, MLX5DM_CQC_C_EQN, eqn);
	mlx5dm_prm_fset(in, MLX5DM_CQC_LOG_PAGE_SIZE, 0); /* 4 KiB pages */
	mlx5dm_prm_fset(in, MLX5DM_CQC_DBR_UMEM_VALID, 1);
	mlx5dm_prm_fset(in, MLX5DM_CQC_DBR_UMEM_ID, queues->dbr_umem->umem_id);
	mlx5dm_prm_fset(in, MLX5DM_CQC_DBR_ADDR, MLX5DM_SEND_CQ_DBR_OFF);
	mlx5dm_prm_fset(in, MLX5DM_CREATE_CQ_IN_UMEM_VALID, 1);
	mlx5dm_prm_fset(in, MLX5DM_CREATE_CQ_IN_UMEM_ID, queues->cq_umem->umem_id);
	mlx5dm_prm_fset(in, MLX5DM_CREATE_CQ_IN_UMEM_OFFSET, 0);
	queues->cq = dev->ops->devx_obj_create(dev->ctx, in, sizeof(in), out, sizeof(out));
	if (queues->cq == NULL)
		return mlx5dm_send_cmd_err("CREATE_CQ", out, -errno);
	queues->cqn = (uint32_t)mlx5dm_prm_fget(out, MLX5DM_CREATE_CQ_OUT_CQN);
	return 0;
}

static int
mlx5dm_send_create_qp(struct mlx5dm_dev *dev, struct mlx5dm_send_queues *queues, uint32_t pdn)
{
	uint8_t in[MLX5DM_CREATE_QP_IN_BYTES] = { 0 };
	uint8_t out[MLX5DM_CREATE_QP_OUT_BYTES] = { 0 };

	mlx5dm_prm_fset(in, MLX5DM_CMD_IN_OPCODE, MLX5DM_CMD_OP_CREATE_QP);
	mlx5dm_prm_fset(in, MLX5DM_QPC_ST, MLX5DM_QPC_ST_RC);
	mlx5dm_prm_fset(in, MLX5DM_QPC_PM_STATE, MLX5DM_QPC_PM_STATE_MIGRATED);
	mlx5dm_prm_fset(in, MLX5DM_QPC_PD, pdn);
	mlx5dm_prm_fset(in, MLX5DM_QPC_UAR_PAGE, queues->uar->page_id);
	mlx5dm_prm_fset(in, MLX5DM_QPC_RQ_TYPE, MLX5DM_QPC_RQ_TYPE_ZERO_LEN);
	mlx5dm_prm_fset(in, MLX5DM_QPC_LOG_SQ_SIZE, queues->log_nbb);
	mlx5dm_prm_fset(in, MLX5DM_QPC_LOG_PAGE_SIZE, 0);
	mlx5dm_prm_fset(in, MLX5DM_QPC_CQN_SND, queues->cqn);
	mlx5dm_prm_fset(in, MLX5DM_QPC_CQN_RCV, queues->cqn);
	mlx5dm_prm_fset(in, MLX5DM_QPC_DBR_UMEM_VALID, 1);
	mlx5dm_prm_fset(in, MLX5DM_QPC_DBR_UMEM_ID, queues->dbr_umem->umem_id);
	mlx5dm_prm_fset(in, MLX5DM_QPC_DBR_ADDR, MLX5DM_SEND_QP_DBR_OFF);
	mlx5dm_prm_fset(in, MLX5DM_CREATE_QP_IN_WQ_UMEM_VALID, 1);
	mlx5dm_prm_fset(in, MLX5DM_CREATE_QP_IN_WQ_UMEM_ID, queues->sq_umem->umem_id);
	queues->qp = dev->ops->devx_obj_create(dev->ctx, in, sizeof(in), out, sizeof(out));
	if (queues->qp == NULL)
		return mlx5dm_send_cmd_err("CREATE_QP", out, -errno);
	queues->qpn = (uint32_t)mlx5dm_prm_fget(out, MLX5DM_CREATE_QP_OUT_QPN);
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
mlx5dm_send_modify_qp(struct mlx5dm_dev *dev, const struct mlx5dm_send_queues *queues,
		      const struct mlx5dm_send_path *path, uint16_t opcode)
{
	uint8_t in[MLX5DM_MODIFY_QP_IN_BYTES] = { 0 };
	uint8_t out[MLX5DM_MODIFY_QP_OUT_BYTES] = { 0 };
	int ret;

	mlx5dm_prm_fset(in, MLX5DM_CMD_IN_OPCODE, opcode);
	mlx5dm_prm_fset(in, MLX5DM_QP_IN_QPN, queues->qpn);
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
		/* Connected to itself. */
		mlx5dm_prm_fset(in, MLX5DM_QPC_REMOTE_QPN, queues->qpn);
		mlx5dm_send_path_set(in, path);
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
	ret = dev->ops->devx_obj_modify(queues->qp, in, sizeof(in), out, sizeof(out));
	if (ret != 0)
		return mlx5dm_send_cmd_err("modify QP", out, ret < 0 ? ret : -ret);
	return 0;
}

/* RST to RTS, connected to itself. */
static int
mlx5dm_send_connect(struct mlx5dm_dev *dev, const struct mlx5dm_send_queues *queues,
		    const struct mlx5dm_send_path *path)
{
	static const uint16_t steps[] = {
		MLX5DM_CMD_OP_RST2INIT_QP, MLX5DM_CMD_OP_INIT2RTR_QP, MLX5DM_CMD_OP_RTR2RTS_QP,
	};
	unsigned int i;
	int ret = 0;

	for (i = 0; i < MLX5DM_ARRAY_SIZE(steps) && ret == 0; i++)
		ret = mlx5dm_send_modify_qp(dev, queues, path, steps[i]);
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
	struct mlx5dm_send_kept *again = (struct mlx5dm_send_kept *)(void *)ring->queues.data_buf;
	uint32_t max = ring->queues.data_size / sizeof(*again);
	uint32_t restart, i, n;
	int ret;

	if (ring->err == 0)
		return 0;
	ret = mlx5dm_send_quiesce(ring);
	if (ret < 0)
		return ret;
	ret = mlx5dm_send_modify_qp(ring->dev, &ring->queues, &ring->path,
				    MLX5DM_CMD_OP_2RST_QP);
	if (ret == 0) {
		/* In RST the device reads no record: it starts again from 0 with it. */
		__atomic_store_n((uint32_t *)(ring->queues.dbr_buf + MLX5DM_SEND_QP_DBR_OFF) +
				 MLX5_SND_DBR, 0, __ATOMIC_RELAXED);
		mlx5dm_wmb();
		ret = mlx5dm_send_connect(ring->dev, &ring->queues, &ring->path);
	}
	if (ret < 0) {
		MLX5DM_LOG(ERR, "send", "qpn 0x%x: the failed QP could not be brought back: %d",
			   ring->queues.qpn, ret);
		return ret;
	}
	/*
	 * Copied out before any post: the new WQEs start at slot 0, over the
	 * lost ones when those wrapped past the SQ's end.
	 */
	n = mlx5dm_send_lost_kept(ring, again, max);
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
		   "%u kept writes among them posted again", ring->queues.qpn,
		   ring->lost_from, restart, n);
	/*
	 * They held no more of the SQ, now empty, than they take again; they
	 * are kept writes again, should the QP fail once more.
	 */
	for (i = 0; i < n; i++)
		mlx5dm_send_kept_post(ring, again[i].addr, again[i].rkey, again[i].data,
				      again[i].len);
	ring->stats.rewrites += n;
	return 0;
}

static struct mlx5dv_devx_umem *
mlx5dm_send_umem(struct mlx5dm_dev *dev, void *buf, size_t len)
{
	struct mlx5dv_devx_umem *u;

	u = dev->ops->devx_umem_reg(dev->ctx, buf, len, MLX5DM_SEND_UMEM_ACCESS);
	if (u == NULL)
		MLX5DM_LOG(ERR, "send", "umem registration of %zu bytes failed: %d", len, errno);
	return u;
}

static void
mlx5dm_send_queues_free(struct mlx5dm_dev *dev, struct mlx5dm_send_queues *queues)
{
	const struct mlx5dm_dev_ops *ops = dev->ops;

	if (queues->qp != NULL)
		ops->devx_obj_destroy(queues->qp);
	if (queues->cq != NULL)
		ops->devx_obj_destroy(queues->cq);
	if (queues->data_mr != NULL)
		ops->dereg_mr(queues->data_mr);
	if (queues->dbr_umem != NULL)
		ops->devx_umem_dereg(queues->dbr_umem);
	if (queues->cq_umem != NULL)
		ops->devx_umem_dereg(queues->cq_umem);
	if (queues->sq_umem != NULL)
		ops->devx_umem_dereg(queues->sq_umem);
	if (queues->own_uar && queues->uar != NULL)
		ops->devx_free_uar(queues->uar);
	mlx5dm_free(queues->wqe_kept);
	mlx5dm_free(queues->wqe_data_end);
	mlx5dm_free(queues->wqe_end);
	mlx5dm_free(queues->data_buf);
	mlx5dm_free(queues->dbr_buf);
	mlx5dm_free(queues->cq_buf);
	mlx5dm_free(queues->sq_buf);
	memset(queues, 0, sizeof(*queues));
}

static int
mlx5dm_send_alloc_buffers(struct mlx5dm_dev *dev, struct mlx5dm_send_queues *queues,
			  struct ibv_pd *pd)
{
	size_t nbb = (size_t)1 << queues->log_nbb;
	size_t ncqe = (size_t)1 << queues->log_ncqe;
	uint32_t data_size = queues->data_size;
	int socket = dev->socket;
	size_t i;

	queues->sq_buf = mlx5dm_aligned_zmalloc_socket(nbb * 64, MLX5DM_SEND_PAGE, socket);
	queues->cq_buf = mlx5dm_aligned_zmalloc_socket(ncqe * 64, MLX5DM_SEND_PAGE, socket);
	queues->dbr_buf = mlx5dm_aligned_zmalloc_socket(MLX5DM_SEND_DBR_BYTES, MLX5DM_SEND_PAGE,
							socket);
	queues->data_buf = mlx5dm_aligned_zmalloc_socket(data_size + 64, MLX5DM_SEND_PAGE, socket);
	queues->wqe_end = mlx5dm_calloc_socket(nbb, sizeof(*queues->wqe_end), socket);
	queues->wqe_data_end = mlx5dm_calloc_socket(nbb, sizeof(*queues->wqe_data_end), socket);
	queues->wqe_kept = mlx5dm_calloc_socket(nbb, sizeof(*queues->wqe_kept), socket);
	if (queues->sq_buf == NULL || queues->cq_buf == NULL || queues->dbr_buf == NULL ||
	    queues->data_buf == NULL || queues->wqe_end == NULL ||
	    queues->wqe_data_end == NULL || queues->wqe_kept == NULL)
		return -ENOMEM;
	/* Invalid CQEs with owner 0: nothing is mistaken for a completion on the first pass. */
	for (i = 0; i < ncqe; i++)
		queues->cq_buf[i * 64 + 63] = 0xf0;
	queues->sq_umem = mlx5dm_send_umem(dev, queues->sq_buf, nbb * 64);
	if (queues->sq_umem == NULL)
		return -errno;
	queues->cq_umem = mlx5dm_send_umem(dev, queues->cq_buf, ncqe * 64);
	if (queues->cq_umem == NULL)
		return -errno;
	queues->dbr_umem = mlx5dm_send_umem(dev, queues->dbr_buf, MLX5DM_SEND_DBR_BYTES);
	if (queues->dbr_umem == NULL)
		return -errno;
	queues->data_mr = dev->ops->reg_mr(pd, queues->data_buf, data_size + 64,
					   IBV_ACCESS_LOCAL_WRITE);
	if (queues->data_mr == NULL) {
		MLX5DM_LOG(ERR, "send", "staging buffer registration failed: %d", errno);
		return -errno;
	}
	return 0;
}

/* The queues attr asks for, connected to themselves by path; 0 or -errno (nothing left). */
static int
mlx5dm_send_queues_create(const struct mlx5dm_send_attr *attr,
			  struct mlx5dm_send_queues *queues)
{
	struct mlx5dm_dev *dev = attr->dev;
	uint32_t nbb;
	int ret;

	memset(queues, 0, sizeof(*queues));
	queues->log_nbb = attr->log_sq_wqebb != 0 ? attr->log_sq_wqebb : MLX5DM_SEND_LOG_SQ_WQEBB;
	nbb = 1u << queues->log_nbb;
	/*
	 * Every WQE may end with an error CQE once the QP fails, so the CQ holds
	 * as many CQEs as the SQ holds WQEs (one WQEBB at least each).
	 */
	queues->log_ncqe = queues->log_nbb;
	queues->signal_th = attr->signal_th != 0 ? attr->signal_th : 64;
	queues->stall_ns = (uint64_t)(attr->stall_ms != 0 ? attr->stall_ms : 5000) * 1000000;
	/* Keep a requested CQE always in flight when the SQ is full (WQEs <= 2 WQEBBs). */
	if (queues->signal_th > nbb / 4)
		queues->signal_th = nbb / 4;
	queues->data_size = attr->data_buf_size != 0 ? attr->data_buf_size : 1u << 20;
	if (queues->data_size < 2 * MLX5DM_SEND_MAX_WRITE)
		queues->data_size = 2 * MLX5DM_SEND_MAX_WRITE;
	/* A recovery copies the lost kept writes there (one per WQEBB at most). */
	if (queues->data_size < nbb * sizeof(struct mlx5dm_send_kept))
		queues->data_size = nbb * sizeof(struct mlx5dm_send_kept);
	queues->uar = attr->uar;
	if (queues->uar == NULL) {
		queues->uar = dev->ops->devx_alloc_uar(dev->ctx, MLX5DV_UAR_ALLOC_TYPE_NC);
		if (queues->uar == NULL)
			queues->uar = dev->ops->devx_alloc_uar(dev->ctx, MLX5DV_UAR_ALLOC_TYPE_BF);
		if (queues->uar == NULL) {
			MLX5DM_LOG(ERR, "send", "UAR allocation failed: %d", errno);
			return -errno;
		}
		queues->own_uar = true;
	}
	ret = mlx5dm_send_alloc_buffers(dev, queues, attr->pd);
	if (ret == 0)
		ret = mlx5dm_send_create_cq(dev, queues, attr->eqn);
	if (ret == 0)
		ret = mlx5dm_send_create_qp(dev, queues, attr->pdn);
	if (ret == 0)
		ret = mlx5dm_send_connect(dev, queues, &attr->path);
	if (ret < 0)
		mlx5dm_send_queues_free(dev, queues);
	return ret;
}

struct mlx5dm_send_ring *
mlx5dm_send_ring_create(const struct mlx5dm_send_attr *attr)
{
	struct mlx5dm_send_ring *ring;
	int ret;

	if (attr == NULL || attr->dev == NULL || attr->pd == NULL ||
	    attr->log_sq_wqebb > 15 || (attr->log_sq_wqebb != 0 && attr->log_sq_wqebb < 6)) {
		errno = EINVAL;
		return NULL;
	}
	ring = mlx5dm_zmalloc_socket(sizeof(*ring), attr->dev->socket);
	if (ring == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	ring->dev = attr->dev;
	ring->path = attr->path;
	ret = mlx5dm_send_queues_create(attr, &ring->queues);
	if (ret < 0) {
		mlx5dm_free(ring);
		errno = -ret;
		return NULL;
	}
	MLX5DM_LOG(DEBUG, "send", "ring qpn 0x%x cqn 0x%x: %u WQEBBs, signal every %u, %s",
		   ring->queues.qpn, ring->queues.cqn, 1u << ring->queues.log_nbb,
		   ring->queues.signal_th,
		   attr->path.fl ? "force-loopback" : "through the port's GID");
	return ring;
}

int
mlx5dm_send_ring_resize(struct mlx5dm_send_ring *ring, const struct mlx5dm_send_attr *attr)
{
	struct mlx5dm_send_queues fresh, old;
	uint32_t restart;
	int ret;

	if (ring->err != 0)
		return ring->err;
	ret = mlx5dm_send_drain(ring);
	if (ret < 0)
		return ret;
	ret = mlx5dm_send_queues_create(attr, &fresh);
	if (ret < 0)
		return ret;
	old = ring->queues;
	ring->queues = fresh;
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
	MLX5DM_LOG(DEBUG, "send", "qpn 0x%x replaced by qpn 0x%x: %u WQEBBs", old.qpn,
		   ring->queues.qpn, 1u << ring->queues.log_nbb);
	mlx5dm_send_queues_free(ring->dev, &old);
	return 0;
}

void
mlx5dm_send_ring_destroy(struct mlx5dm_send_ring *ring)
{
	if (ring == NULL)
		return;
	if (ring->err == 0)
		mlx5dm_send_drain(ring);
	mlx5dm_send_queues_free(ring->dev, &ring->queues);
	mlx5dm_free(ring);
}

void
mlx5dm_send_stats_get(const struct mlx5dm_send_ring *ring, struct mlx5dm_send_stats *st)
{
	*st = ring->stats;
	st->size = 1u << ring->queues.log_nbb;
	st->outstanding = ring->pi - ring->ci;
	st->unrung = ring->unrung;
	st->err = ring->err;
}

uint64_t
mlx5dm_send_sq_full_waits(const struct mlx5dm_send_ring *ring)
{
	return ring->stats.sq_full_waits;
}

uint32_t
mlx5dm_send_ring_qpn(const struct mlx5dm_send_ring *ring)
{
	return ring->queues.qpn;
}

uint32_t
mlx5dm_send_ring_cqn(const struct mlx5dm_send_ring *ring)
{
	return ring->queues.cqn;
}
