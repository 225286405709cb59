/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Receive queues: what a TIR delivers to. An RQ is built as a real
 * raw-packet RQ is: a CQ (CREATE_CQ with its CQE buffer and doorbell
 * record in umems), then CREATE_RQ (inline memory RQ, cyclic WQ of
 * 16-byte single-segment WQEs in a umem, doorbell record in a umem, state
 * RST) and MODIFY_RQ RST -> RDY. The datapath posts receive WQEs into the
 * WQ and polls the CQEs itself (mlx5dm_rq_info); the device, ConnectX or
 * model, writes frames into the posted buffers. The CQ and UAR helpers
 * here serve the send queues (mlx5dm_steer_res_sq.c) too.
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_osdep.h"
#include "mlx5dm_prm_queue.h"
#include "mlx5dm_prm_res.h"
#include "mlx5dm_prm_res_rx.h"
#include "mlx5dm_res.h"

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

struct mlx5dv_devx_uar *
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

/* CREATE_CQ mailbox: 2^log_size 64-byte CQEs in buf, its record at dbr_off of dbr. */
static void
mlx5dm_res_cq_build(const struct mlx5dm_res_ctx *res, uint32_t log_size, uint32_t uar_page,
		    const struct mlx5dm_res_umem *buf, const struct mlx5dm_res_umem *dbr,
		    uint32_t dbr_off, uint8_t *in)
{
	mlx5dm_prm_fset(in, MLX5DM_CMD_IN_OPCODE, MLX5DM_CMD_OP_CREATE_CQ);
	mlx5dm_prm_fset(in, MLX5DM_CQC_CQE_SZ, 0); /* 64-byte CQEs */
	mlx5dm_prm_fset(in, MLX5DM_CQC_LOG_CQ_SIZE, log_size);
	mlx5dm_prm_fset(in, MLX5DM_CQC_UAR_PAGE, uar_page);
	mlx5dm_prm_fset(in, MLX5DM_CQC_C_EQN, res->attr.eqn);
	mlx5dm_prm_fset(in, MLX5DM_CQC_LOG_PAGE_SIZE, 0); /* 4 KiB pages */
	mlx5dm_prm_fset(in, MLX5DM_CQC_DBR_UMEM_VALID, 1);
	mlx5dm_prm_fset(in, MLX5DM_CQC_DBR_UMEM_ID, dbr->umem->umem_id);
	mlx5dm_prm_fset(in, MLX5DM_CQC_DBR_ADDR, dbr_off);
	mlx5dm_prm_fset(in, MLX5DM_CREATE_CQ_IN_UMEM_VALID, 1);
	mlx5dm_prm_fset(in, MLX5DM_CREATE_CQ_IN_UMEM_ID, buf->umem->umem_id);
	mlx5dm_prm_fset(in, MLX5DM_CREATE_CQ_IN_UMEM_OFFSET, 0);
}

void
mlx5dm_res_cq_invalidate(struct mlx5dm_res_umem *buf, uint32_t log_size)
{
	size_t i;

	/* Invalid CQEs, owner 0: nothing reads as a completion before the device writes. */
	for (i = 0; i < (size_t)1 << log_size; i++)
		buf->buf[i * MLX5DM_RES_CQE_BYTES + MLX5DM_RES_CQE_BYTES - 1] = 0xf0;
}

int
mlx5dm_res_cq_create(struct mlx5dm_res_ctx *res, uint32_t log_size, uint32_t uar_page,
		     const struct mlx5dm_res_umem *buf, const struct mlx5dm_res_umem *dbr,
		     uint32_t dbr_off, const char *what, struct mlx5dv_devx_obj **cq,
		     uint32_t *cqn)
{
	uint8_t in[MLX5DM_CREATE_CQ_IN_BYTES] = { 0 };
	uint8_t out[MLX5DM_CREATE_CQ_OUT_BYTES] = { 0 };

	mlx5dm_res_cq_build(res, log_size, uar_page, buf, dbr, dbr_off, in);
	*cq = res->dev->ops->devx_obj_create(res->dev->ctx, in, sizeof(in), out, sizeof(out));
	if (*cq == NULL)
		return mlx5dm_res_cmd_err(what, out, errno);
	*cqn = (uint32_t)mlx5dm_prm_fget(out, MLX5DM_CREATE_CQ_OUT_CQN);
	return 0;
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

static int mlx5dm_res_rq_modify(struct mlx5dm_rq *rq, uint32_t cur, uint32_t next,
				const char *what);

static int
mlx5dm_res_rq_buffers(struct mlx5dm_rq *rq)
{
	struct mlx5dm_res_ctx *res = rq->res;
	size_t ncqe = (size_t)1 << rq->log_size;
	int ret;

	ret = mlx5dm_res_umem_alloc(res, &rq->cq_buf, ncqe * MLX5DM_RES_CQE_BYTES);
	if (ret == 0)
		ret = mlx5dm_res_umem_alloc(res, &rq->wq_buf,
					    ncqe << MLX5DM_RES_RQ_LOG_WQE_BYTES);
	if (ret == 0)
		ret = mlx5dm_res_umem_alloc(res, &rq->dbr, MLX5DM_RES_RQ_DBR_BYTES);
	if (ret < 0)
		return ret;
	mlx5dm_res_cq_invalidate(&rq->cq_buf, rq->log_size);
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
	uint8_t rq_in[MLX5DM_CREATE_RQ_IN_BYTES] = { 0 };
	uint8_t out[MLX5DM_CMD_HDR_BYTES] = { 0 };
	int ret;

	ret = mlx5dm_res_cq_create(rq->res, rq->log_size, uar_page, &rq->cq_buf, &rq->dbr,
				   MLX5DM_RES_RQ_CQ_DBR_OFF, "CREATE_CQ (RQ)", &rq->cq, &rq->cqn);
	if (ret < 0)
		return ret;
	mlx5dm_res_rq_build(rq, rq_in);
	rq->rq = ops->devx_obj_create(ctx, rq_in, sizeof(rq_in), out, sizeof(out));
	if (rq->rq == NULL) {
		ret = mlx5dm_res_cmd_err("CREATE_RQ", out, errno);
		goto destroy_cq;
	}
	rq->rqn = (uint32_t)mlx5dm_prm_fget(out, MLX5DM_CMD_OUT_OBJ_NUM);
	ret = mlx5dm_res_rq_modify(rq, MLX5DM_RQC_STATE_RST, MLX5DM_RQC_STATE_RDY,
				   "MODIFY_RQ (RST->RDY)");
	if (ret < 0)
		goto destroy_rq;
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
	rq = mlx5dm_zmalloc_socket(sizeof(*rq), res->dev->socket);
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

void
mlx5dm_rq_info(const struct mlx5dm_rq *rq, struct mlx5dm_wq_info *info)
{
	memset(info, 0, sizeof(*info));
	info->qn = rq->rqn;
	info->cqn = rq->cqn;
	info->wqes = rq->wq_buf.buf;
	info->log_wqes = rq->log_size;
	info->dbrec = (volatile uint32_t *)(void *)(rq->dbr.buf + MLX5DM_RES_RQ_WQ_DBR_OFF);
	info->cqes = rq->cq_buf.buf;
	info->log_cqes = rq->log_size;
	info->cq_dbrec = (volatile uint32_t *)(void *)(rq->dbr.buf + MLX5DM_RES_RQ_CQ_DBR_OFF);
}

/* MODIFY_RQ from state cur to next, nothing else modified. */
static int
mlx5dm_res_rq_modify(struct mlx5dm_rq *rq, uint32_t cur, uint32_t next, const char *what)
{
	uint8_t in[MLX5DM_MODIFY_RQ_IN_BYTES] = { 0 };
	uint8_t out[MLX5DM_MODIFY_RQ_OUT_BYTES] = { 0 };
	int ret;

	mlx5dm_prm_fset(in, MLX5DM_CMD_IN_OPCODE, MLX5DM_CMD_OP_MODIFY_RQ);
	mlx5dm_prm_fset(in, MLX5DM_MODIFY_RQ_IN_RQ_STATE, cur);
	mlx5dm_prm_fset(in, MLX5DM_MODIFY_RQ_IN_RQN, rq->rqn);
	mlx5dm_prm_fset(in, MLX5DM_RQC_STATE, next);
	ret = rq->res->dev->ops->devx_obj_modify(rq->rq, in, sizeof(in), out, sizeof(out));
	return ret != 0 ? mlx5dm_res_cmd_err(what, out, ret) : 0;
}

int
mlx5dm_rq_recover(struct mlx5dm_rq *rq)
{
	int ret;

	if (rq == NULL)
		return -EINVAL;
	ret = mlx5dm_res_rq_modify(rq, MLX5DM_RQC_STATE_ERR, MLX5DM_RQC_STATE_RST,
				   "MODIFY_RQ (ERR->RST)");
	if (ret < 0)
		return ret;
	/* In RST the device reads nothing: the record restarts with its counter. */
	__atomic_store_n((uint32_t *)(void *)(rq->dbr.buf + MLX5DM_RES_RQ_WQ_DBR_OFF), 0,
			 __ATOMIC_RELEASE);
	return mlx5dm_res_rq_modify(rq, MLX5DM_RQC_STATE_RST, MLX5DM_RQC_STATE_RDY,
				    "MODIFY_RQ (RST->RDY)");
}
