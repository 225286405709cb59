/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Receive queues: what a TIR delivers to. An RQ is built as a real
 * raw-packet RQ is: a CQ (CREATE_CQ with its CQE buffer and doorbell
 * record in umems), then CREATE_RQ (inline memory RQ, cyclic WQ of
 * 16-byte single-segment WQEs in a umem, doorbell record in a umem, state
 * RST) and MODIFY_RQ RST -> RDY. On the model the RQ is a packet ring
 * polled through dev->ops->rq_poll and the WQ buffer stays unused; on
 * hardware the buffers are where receive WQEs and CQEs will live once a
 * datapath posts buffers (not part of this layer).
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_osdep.h"
#include "mlx5dm_prm_queue.h"
#include "mlx5dm_prm_res.h"
#include "mlx5dm_prm_res_rx.h"
#include "mlx5dm_res.h"

#define MLX5DM_RES_CQE_BYTES 64u
#define MLX5DM_RES_RQ_LOG_WQE_BYTES 4u   /* one 16-byte data segment per WQE */
/* One doorbell page per RQ: the CQ's record, then the RQ's on its own cache line. */
#define MLX5DM_RES_RQ_CQ_DBR_OFF 0u
#define MLX5DM_RES_RQ_WQ_DBR_OFF 64u
#define MLX5DM_RES_RQ_DBR_BYTES 128u

struct mlx5dm_rq {
	struct mlx5dm_res_ctx *res;
	struct mlx5dv_devx_obj *cq;
	struct mlx5dv_devx_obj *rq;
	uint32_t cqn;
	uint32_t rqn;
	uint32_t log_size;
	struct mlx5dm_res_umem cq_buf;
	struct mlx5dm_res_umem wq_buf;
	struct mlx5dm_res_umem dbr;
};

/* The UAR named by RQ CQs: given at init, or allocated once (NC, else BF). */
static struct mlx5dv_devx_uar *
mlx5dm_res_uar(struct mlx5dm_res_ctx *res)
{
	const struct mlx5dm_dev_ops *ops = res->dev->ops;
	struct mlx5dv_devx_uar *uar;

	pthread_mutex_lock(&res->lock);
	if (res->uar == NULL) {
		res->uar = ops->devx_alloc_uar(res->dev->ctx, MLX5DV_UAR_ALLOC_TYPE_NC);
		if (res->uar == NULL)
			res->uar = ops->devx_alloc_uar(res->dev->ctx, MLX5DV_UAR_ALLOC_TYPE_BF);
		if (res->uar == NULL)
			MLX5DM_LOG(ERR, "res", "UAR allocation failed: %s", strerror(errno));
		else
			res->own_uar = true;
	}
	uar = res->uar;
	pthread_mutex_unlock(&res->lock);
	return uar;
}

/* CREATE_CQ mailbox of an RQ's CQ: 2^log_size 64-byte CQEs. */
static void
mlx5dm_res_rq_cq_build(const struct mlx5dm_rq *rq, uint32_t uar_page, uint8_t *in)
{
	mlx5dm_prm_fset(in, MLX5DM_CMD_IN_OPCODE, MLX5DM_CMD_OP_CREATE_CQ);
	mlx5dm_prm_fset(in, MLX5DM_CQC_CQE_SZ, 0); /* 64-byte CQEs */
	mlx5dm_prm_fset(in, MLX5DM_CQC_LOG_CQ_SIZE, rq->log_size);
	mlx5dm_prm_fset(in, MLX5DM_CQC_UAR_PAGE, uar_page);
	mlx5dm_prm_fset(in, MLX5DM_CQC_C_EQN, rq->res->attr.eqn);
	mlx5dm_prm_fset(in, MLX5DM_CQC_LOG_PAGE_SIZE, 0); /* 4 KiB pages */
	mlx5dm_prm_fset(in, MLX5DM_CQC_DBR_UMEM_VALID, 1);
	mlx5dm_prm_fset(in, MLX5DM_CQC_DBR_UMEM_ID, rq->dbr.umem->umem_id);
	mlx5dm_prm_fset(in, MLX5DM_CQC_DBR_ADDR, MLX5DM_RES_RQ_CQ_DBR_OFF);
	mlx5dm_prm_fset(in, MLX5DM_CREATE_CQ_IN_UMEM_VALID, 1);
	mlx5dm_prm_fset(in, MLX5DM_CREATE_CQ_IN_UMEM_ID, rq->cq_buf.umem->umem_id);
	mlx5dm_prm_fset(in, MLX5DM_CREATE_CQ_IN_UMEM_OFFSET, 0);
}

/*
 * CREATE_RQ mailbox: what a raw-packet RQ needs (as DPDK's mlx5 PMD builds
 * it): inline memory RQ in RST, no VLAN stripping (frames reach the queue
 * as the steering left them), flush on error, cyclic WQ in a umem.
 */
static void
mlx5dm_res_rq_build(const struct mlx5dm_rq *rq, uint8_t *in)
{
	const struct mlx5dm_res_ctx *res = rq->res;

	mlx5dm_prm_fset(in, MLX5DM_CMD_IN_OPCODE, MLX5DM_CMD_OP_CREATE_RQ);
	mlx5dm_prm_fset(in, MLX5DM_RQC_VSD, 1);
	mlx5dm_prm_fset(in, MLX5DM_RQC_MEM_RQ_TYPE, MLX5DM_RQC_MEM_RQ_TYPE_INLINE);
	mlx5dm_prm_fset(in, MLX5DM_RQC_STATE, MLX5DM_RQC_STATE_RST);
	mlx5dm_prm_fset(in, MLX5DM_RQC_FLUSH_IN_ERROR_EN, 1);
	/* As DPDK's mlx5_ts_format_conv: free running only if that is all there is. */
	mlx5dm_prm_fset(in, MLX5DM_RQC_TS_FORMAT,
			res->attr.rq_ts_format == MLX5DM_HCA_TS_FORMAT_FR ?
			MLX5DM_TS_FORMAT_FREE_RUNNING : MLX5DM_TS_FORMAT_DEFAULT);
	mlx5dm_prm_fset(in, MLX5DM_RQC_CQN, rq->cqn);
	mlx5dm_prm_fset(in, MLX5DM_WQ_TYPE, MLX5DM_WQ_TYPE_CYCLIC);
	mlx5dm_prm_fset(in, MLX5DM_WQ_END_PADDING_MODE, MLX5DM_WQ_END_PAD_NONE);
	mlx5dm_prm_fset(in, MLX5DM_WQ_PD, res->pdn);
	mlx5dm_prm_fset(in, MLX5DM_WQ_DBR_ADDR, MLX5DM_RES_RQ_WQ_DBR_OFF);
	mlx5dm_prm_fset(in, MLX5DM_WQ_LOG_WQ_STRIDE, MLX5DM_RES_RQ_LOG_WQE_BYTES);
	mlx5dm_prm_fset(in, MLX5DM_WQ_LOG_WQ_PG_SZ, 0); /* 4 KiB pages */
	mlx5dm_prm_fset(in, MLX5DM_WQ_LOG_WQ_SZ, rq->log_size);
	mlx5dm_prm_fset(in, MLX5DM_WQ_DBR_UMEM_VALID, 1);
	mlx5dm_prm_fset(in, MLX5DM_WQ_WQ_UMEM_VALID, 1);
	mlx5dm_prm_fset(in, MLX5DM_WQ_DBR_UMEM_ID, rq->dbr.umem->umem_id);
	mlx5dm_prm_fset(in, MLX5DM_WQ_WQ_UMEM_ID, rq->wq_buf.umem->umem_id);
	mlx5dm_prm_fset(in, MLX5DM_WQ_WQ_UMEM_OFFSET, 0);
}

/* MODIFY_RQ mailbox: RST -> RDY, nothing else modified (bitmask 0). */
static void
mlx5dm_res_rq_rdy_build(const struct mlx5dm_rq *rq, uint8_t *in)
{
	mlx5dm_prm_fset(in, MLX5DM_CMD_IN_OPCODE, MLX5DM_CMD_OP_MODIFY_RQ);
	mlx5dm_prm_fset(in, MLX5DM_MODIFY_RQ_IN_RQ_STATE, MLX5DM_RQC_STATE_RST);
	mlx5dm_prm_fset(in, MLX5DM_MODIFY_RQ_IN_RQN, rq->rqn);
	mlx5dm_prm_fset(in, MLX5DM_MODIFY_RQ_IN_BITMASK, 0);
	mlx5dm_prm_fset(in, MLX5DM_RQC_STATE, MLX5DM_RQC_STATE_RDY);
}

static int
mlx5dm_res_rq_buffers(struct mlx5dm_rq *rq)
{
	struct mlx5dm_res_ctx *res = rq->res;
	size_t ncqe = (size_t)1 << rq->log_size;
	size_t i;
	int ret;

	ret = mlx5dm_res_umem_alloc(res, &rq->cq_buf, ncqe * MLX5DM_RES_CQE_BYTES);
	if (ret == 0)
		ret = mlx5dm_res_umem_alloc(res, &rq->wq_buf,
					    ncqe << MLX5DM_RES_RQ_LOG_WQE_BYTES);
	if (ret == 0)
		ret = mlx5dm_res_umem_alloc(res, &rq->dbr, MLX5DM_RES_RQ_DBR_BYTES);
	if (ret < 0)
		return ret;
	/* Invalid CQEs, owner 0: nothing reads as a completion before the device writes. */
	for (i = 0; i < ncqe; i++)
		rq->cq_buf.buf[i * MLX5DM_RES_CQE_BYTES + MLX5DM_RES_CQE_BYTES - 1] = 0xf0;
	return 0;
}

static void
mlx5dm_res_rq_free(struct mlx5dm_rq *rq)
{
	struct mlx5dm_res_ctx *res = rq->res;

	mlx5dm_res_umem_free(res, &rq->dbr);
	mlx5dm_res_umem_free(res, &rq->wq_buf);
	mlx5dm_res_umem_free(res, &rq->cq_buf);
	mlx5dm_free(rq);
}

static int
mlx5dm_res_rq_objects(struct mlx5dm_rq *rq, uint32_t uar_page)
{
	const struct mlx5dm_dev_ops *ops = rq->res->dev->ops;
	struct ibv_context *ctx = rq->res->dev->ctx;
	uint8_t cq_in[MLX5DM_CREATE_CQ_IN_BYTES] = { 0 };
	uint8_t rq_in[MLX5DM_CREATE_RQ_IN_BYTES] = { 0 };
	uint8_t mod_in[MLX5DM_MODIFY_RQ_IN_BYTES] = { 0 };
	uint8_t out[MLX5DM_CMD_HDR_BYTES] = { 0 };
	int ret;

	mlx5dm_res_rq_cq_build(rq, uar_page, cq_in);
	rq->cq = ops->devx_obj_create(ctx, cq_in, sizeof(cq_in), out, sizeof(out));
	if (rq->cq == NULL)
		return mlx5dm_res_cmd_err("CREATE_CQ (RQ)", out, errno);
	rq->cqn = (uint32_t)mlx5dm_prm_fget(out, MLX5DM_CREATE_CQ_OUT_CQN);
	memset(out, 0, sizeof(out));
	mlx5dm_res_rq_build(rq, rq_in);
	rq->rq = ops->devx_obj_create(ctx, rq_in, sizeof(rq_in), out, sizeof(out));
	if (rq->rq == NULL) {
		ret = mlx5dm_res_cmd_err("CREATE_RQ", out, errno);
		goto destroy_cq;
	}
	rq->rqn = (uint32_t)mlx5dm_prm_fget(out, MLX5DM_CMD_OUT_OBJ_NUM);
	memset(out, 0, sizeof(out));
	mlx5dm_res_rq_rdy_build(rq, mod_in);
	ret = ops->devx_obj_modify(rq->rq, mod_in, sizeof(mod_in), out, sizeof(out));
	if (ret != 0) {
		ret = mlx5dm_res_cmd_err("MODIFY_RQ (RST->RDY)", out, ret);
		goto destroy_rq;
	}
	return 0;
destroy_rq:
	mlx5dm_res_obj_destroy(rq->res, rq->rq, "RQ", rq->rqn);
	rq->rq = NULL;
destroy_cq:
	mlx5dm_res_obj_destroy(rq->res, rq->cq, "CQ of an RQ", rq->cqn);
	rq->cq = NULL;
	return ret;
}

struct mlx5dm_rq *
mlx5dm_res_rq_create(struct mlx5dm_res_ctx *res, uint32_t log_size)
{
	struct mlx5dv_devx_uar *uar;
	struct mlx5dm_rq *rq;
	int ret;

	if (res == NULL || log_size == 0 || log_size > MLX5DM_RES_RQ_LOG_MAX) {
		errno = EINVAL;
		return NULL;
	}
	uar = mlx5dm_res_uar(res);
	if (uar == NULL) {
		errno = errno != 0 ? errno : ENOMEM;
		return NULL;
	}
	rq = mlx5dm_zmalloc(sizeof(*rq));
	if (rq == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	rq->res = res;
	rq->log_size = log_size;
	ret = mlx5dm_res_rq_buffers(rq);
	if (ret == 0)
		ret = mlx5dm_res_rq_objects(rq, uar->page_id);
	if (ret < 0) {
		mlx5dm_res_rq_free(rq);
		errno = -ret;
		return NULL;
	}
	mlx5dm_res_live_add(&res->live.rqs, 1);
	MLX5DM_LOG(DEBUG, "res", "RQ 0x%x (CQ 0x%x): %u entries", rq->rqn, rq->cqn,
		   1u << log_size);
	return rq;
}

int
mlx5dm_rq_destroy(struct mlx5dm_rq *rq)
{
	int ret;

	if (rq == NULL)
		return -EINVAL;
	/* The device refuses while a TIR or RQT names the RQ; then nothing changes. */
	ret = mlx5dm_res_obj_destroy(rq->res, rq->rq, "RQ", rq->rqn);
	if (ret < 0)
		return ret;
	mlx5dm_res_obj_destroy(rq->res, rq->cq, "CQ of an RQ", rq->cqn);
	mlx5dm_res_live_add(&rq->res->live.rqs, -1);
	mlx5dm_res_rq_free(rq);
	return 0;
}

uint32_t
mlx5dm_res_rq_cqn(const struct mlx5dm_rq *rq)
{
	return rq->cqn;
}

struct mlx5dm_rq *
mlx5dm_rq_create(struct mlx5dm_ctx *ctx, uint32_t log_size)
{
	return mlx5dm_res_rq_create(mlx5dm_ctx_res(ctx), log_size);
}

uint32_t
mlx5dm_rq_number(const struct mlx5dm_rq *rq)
{
	return rq->rqn;
}
