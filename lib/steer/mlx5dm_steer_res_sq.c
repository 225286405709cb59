/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Send queues of the datapath, built as DPDK's mlx5 PMD builds a raw-packet
 * SQ (drivers/net/mlx5/mlx5_devx.c, drivers/common/mlx5/mlx5_devx_cmds.c):
 * a CQ (CREATE_CQ with its CQE buffer and doorbell record in umems), the
 * context's TIS (one, in the context's transport domain, made with the
 * first SQ), CREATE_SQ in RST (cyclic WQ of 64-byte WQEBBs in a umem, its
 * doorbell record in a umem, flush on error, the TIS) and MODIFY_SQ
 * RST -> RDY. The TIRs of the context leave self_lb_block clear, so a
 * frame sent on a looped port comes back to it, as DPDK's mlx5 has it.
 *
 * The inline header size an Ethernet segment must carry comes from the
 * caps, as DPDK's mlx5_os.c reads it: Ethernet offload cap
 * wqe_inline_mode; L2 means 18 bytes, "vport context" means the NIC vport
 * context's min_wqe_inline_mode (none or L2 are supported here).
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_osdep.h"
#include "mlx5dm_prm_caps.h"
#include "mlx5dm_prm_queue.h"
#include "mlx5dm_prm_res.h"
#include "mlx5dm_prm_res_tx.h"
#include "mlx5dm_res.h"

#define MLX5DM_RES_SQ_LOG_MIN 6
#define MLX5DM_RES_SQ_LOG_MAX 15
#define MLX5DM_RES_SQ_LOG_WQEBB 6u
/* One doorbell page per SQ: the CQ's record, then the SQ's ([0] receive, [1] send). */
#define MLX5DM_RES_SQ_CQ_DBR_OFF 0u
#define MLX5DM_RES_SQ_WQ_DBR_OFF 64u
#define MLX5DM_RES_SQ_DBR_BYTES 128u

struct mlx5dm_sq {
	struct mlx5dm_res_ctx *res;
	struct mlx5dv_devx_uar *uar;
	struct mlx5dv_devx_obj *cq;
	struct mlx5dv_devx_obj *sq;
	uint32_t cqn;
	uint32_t sqn;
	uint32_t log_size;
	struct mlx5dm_res_umem cq_buf;
	struct mlx5dm_res_umem wq_buf;
	struct mlx5dm_res_umem dbr;
};

/* Inline header bytes the device demands in each Ethernet segment; -errno. */
static int
mlx5dm_res_inline_min(struct mlx5dm_res_ctx *res)
{
	const struct mlx5dm_dev_ops *ops = res->dev->ops;
	uint8_t in[MLX5DM_CMD_HDR_BYTES] = { 0 };
	uint8_t out[MLX5DM_QUERY_HCA_CAP_OUT_SIZE];
	unsigned int mode;
	int ret;

	memset(out, 0, sizeof(out));
	mlx5dm_prm_fset(in, MLX5DM_CMD_IN_OPCODE, MLX5DM_CMD_QUERY_HCA_CAP);
	mlx5dm_prm_fset(in, MLX5DM_CMD_IN_OP_MOD, MLX5DM_HCA_CAP_OPMOD(MLX5DM_HCA_CAP_ETH_OFFLOAD));
	ret = ops->devx_general_cmd(res->dev->ctx, in, sizeof(in), out, sizeof(out));
	if (ret != 0)
		return mlx5dm_res_cmd_err("QUERY_HCA_CAP (Ethernet offload)", out, ret);
	mode = (unsigned int)mlx5dm_prm_fget(out, MLX5DM_ETH_CAP_WQE_INLINE_MODE);
	if (mode == MLX5DM_CAP_INLINE_MODE_NOT_REQUIRED)
		return 0;
	if (mode == MLX5DM_CAP_INLINE_MODE_L2)
		return MLX5DM_INLINE_L2_BYTES;
	memset(in, 0, sizeof(in));
	memset(out, 0, MLX5DM_QUERY_NIC_VPORT_OUT_BYTES);
	mlx5dm_prm_fset(in, MLX5DM_CMD_IN_OPCODE, MLX5DM_CMD_OP_QUERY_NIC_VPORT_CONTEXT);
	ret = ops->devx_general_cmd(res->dev->ctx, in, sizeof(in), out,
				    MLX5DM_QUERY_NIC_VPORT_OUT_BYTES);
	if (ret != 0)
		return mlx5dm_res_cmd_err("QUERY_NIC_VPORT_CONTEXT", out, ret);
	mode = (unsigned int)mlx5dm_prm_fget(out, MLX5DM_NIC_VPORT_MIN_WQE_INLINE_MODE);
	if (mode == MLX5DM_INLINE_MODE_NONE)
		return 0;
	if (mode == MLX5DM_INLINE_MODE_L2)
		return MLX5DM_INLINE_L2_BYTES;
	MLX5DM_LOG(ERR, "res", "min_wqe_inline_mode %u (beyond L2) is not supported", mode);
	return -ENOTSUP;
}

/* The context's TIS and inline size, made once; 0 or -errno. */
static int
mlx5dm_res_tis_get(struct mlx5dm_res_ctx *res)
{
	uint8_t in[MLX5DM_CREATE_TIS_IN_BYTES] = { 0 };
	uint8_t out[MLX5DM_CREATE_TIS_OUT_BYTES] = { 0 };
	int ret = 0;

	pthread_mutex_lock(&res->lock);
	if (res->tis != NULL)
		goto unlock;
	ret = mlx5dm_res_inline_min(res);
	if (ret < 0)
		goto unlock;
	res->inline_min = (uint32_t)ret;
	mlx5dm_prm_fset(in, MLX5DM_CMD_IN_OPCODE, MLX5DM_CMD_OP_CREATE_TIS);
	mlx5dm_prm_fset(in, MLX5DM_TISC_TRANSPORT_DOMAIN, res->tdn);
	res->tis = res->dev->ops->devx_obj_create(res->dev->ctx, in, sizeof(in), out,
						  sizeof(out));
	if (res->tis == NULL) {
		ret = mlx5dm_res_cmd_err("CREATE_TIS", out, errno);
		goto unlock;
	}
	res->tisn = (uint32_t)mlx5dm_prm_fget(out, MLX5DM_CMD_OUT_OBJ_NUM);
	ret = 0;
unlock:
	pthread_mutex_unlock(&res->lock);
	return ret;
}

int
mlx5dm_res_tis_fini(struct mlx5dm_res_ctx *res)
{
	int ret;

	if (res->tis == NULL)
		return 0;
	ret = mlx5dm_res_obj_destroy(res, res->tis, "TIS", res->tisn);
	if (ret == 0)
		res->tis = NULL;
	return ret;
}

/* CREATE_SQ mailbox: in RST, flush on error, the context's TIS, cyclic WQ in a umem. */
static void
mlx5dm_res_sq_build(const struct mlx5dm_sq *sq, uint8_t *in)
{
	const struct mlx5dm_res_ctx *res = sq->res;

	mlx5dm_prm_fset(in, MLX5DM_CMD_IN_OPCODE, MLX5DM_CMD_OP_CREATE_SQ);
	mlx5dm_prm_fset(in, MLX5DM_SQC_FLUSH_IN_ERROR_EN, 1);
	mlx5dm_prm_fset(in, MLX5DM_SQC_MIN_WQE_INLINE_MODE, res->inline_min != 0 ?
			MLX5DM_INLINE_MODE_L2 : MLX5DM_INLINE_MODE_NONE);
	mlx5dm_prm_fset(in, MLX5DM_SQC_STATE, MLX5DM_SQC_STATE_RST);
	/* As DPDK's mlx5_ts_format_conv: free running only if that is all there is. */
	mlx5dm_prm_fset(in, MLX5DM_SQC_TS_FORMAT,
			res->attr.rq_ts_format == MLX5DM_HCA_TS_FORMAT_FR ?
			MLX5DM_TS_FORMAT_FREE_RUNNING : MLX5DM_TS_FORMAT_DEFAULT);
	mlx5dm_prm_fset(in, MLX5DM_SQC_CQN, sq->cqn);
	mlx5dm_prm_fset(in, MLX5DM_SQC_TIS_LST_SZ, 1);
	mlx5dm_prm_fset(in, MLX5DM_SQC_TIS_NUM_0, res->tisn);
	mlx5dm_prm_fset(in, MLX5DM_SQ_WQ(MLX5DM_WQ_TYPE), MLX5DM_WQ_TYPE_CYCLIC);
	mlx5dm_prm_fset(in, MLX5DM_SQ_WQ(MLX5DM_WQ_PD), res->pdn);
	mlx5dm_prm_fset(in, MLX5DM_SQ_WQ(MLX5DM_WQ_DBR_ADDR), MLX5DM_RES_SQ_WQ_DBR_OFF);
	mlx5dm_prm_fset(in, MLX5DM_SQ_WQ(MLX5DM_WQ_LOG_WQ_STRIDE), MLX5DM_RES_SQ_LOG_WQEBB);
	mlx5dm_prm_fset(in, MLX5DM_SQ_WQ(MLX5DM_WQ_LOG_WQ_PG_SZ), 0); /* 4 KiB pages */
	mlx5dm_prm_fset(in, MLX5DM_SQ_WQ(MLX5DM_WQ_LOG_WQ_SZ), sq->log_size);
	mlx5dm_prm_fset(in, MLX5DM_SQ_WQ(MLX5DM_WQ_DBR_UMEM_VALID), 1);
	mlx5dm_prm_fset(in, MLX5DM_SQ_WQ(MLX5DM_WQ_WQ_UMEM_VALID), 1);
	mlx5dm_prm_fset(in, MLX5DM_SQ_WQ(MLX5DM_WQ_DBR_UMEM_ID), sq->dbr.umem->umem_id);
	mlx5dm_prm_fset(in, MLX5DM_SQ_WQ(MLX5DM_WQ_WQ_UMEM_ID), sq->wq_buf.umem->umem_id);
	mlx5dm_prm_fset(in, MLX5DM_SQ_WQ(MLX5DM_WQ_WQ_UMEM_OFFSET), 0);
}

/* MODIFY_SQ from state cur to next, nothing else modified. */
static int
mlx5dm_res_sq_modify(struct mlx5dm_sq *sq, uint32_t cur, uint32_t next, const char *what)
{
	uint8_t in[MLX5DM_MODIFY_SQ_IN_BYTES] = { 0 };
	uint8_t out[MLX5DM_MODIFY_SQ_OUT_BYTES] = { 0 };
	int ret;

	mlx5dm_prm_fset(in, MLX5DM_CMD_IN_OPCODE, MLX5DM_CMD_OP_MODIFY_SQ);
	mlx5dm_prm_fset(in, MLX5DM_MODIFY_SQ_IN_SQ_STATE, cur);
	mlx5dm_prm_fset(in, MLX5DM_MODIFY_SQ_IN_SQN, sq->sqn);
	mlx5dm_prm_fset(in, MLX5DM_SQC_STATE, next);
	ret = sq->res->dev->ops->devx_obj_modify(sq->sq, in, sizeof(in), out, sizeof(out));
	return ret != 0 ? mlx5dm_res_cmd_err(what, out, ret) : 0;
}

static void
mlx5dm_res_sq_free(struct mlx5dm_sq *sq)
{
	struct mlx5dm_res_ctx *res = sq->res;

	mlx5dm_res_umem_free(res, &sq->dbr);
	mlx5dm_res_umem_free(res, &sq->wq_buf);
	mlx5dm_res_umem_free(res, &sq->cq_buf);
	mlx5dm_free(sq);
}

static int
mlx5dm_res_sq_objects(struct mlx5dm_sq *sq)
{
	struct mlx5dm_res_ctx *res = sq->res;
	uint8_t in[MLX5DM_CREATE_SQ_IN_BYTES] = { 0 };
	uint8_t out[MLX5DM_CREATE_SQ_OUT_BYTES] = { 0 };
	int ret;

	ret = mlx5dm_res_cq_create(res, sq->log_size, sq->uar->page_id, &sq->cq_buf, &sq->dbr,
				   MLX5DM_RES_SQ_CQ_DBR_OFF, "CREATE_CQ (SQ)", &sq->cq, &sq->cqn);
	if (ret < 0)
		return ret;
	mlx5dm_res_sq_build(sq, in);
	sq->sq = res->dev->ops->devx_obj_create(res->dev->ctx, in, sizeof(in), out, sizeof(out));
	if (sq->sq == NULL) {
		ret = mlx5dm_res_cmd_err("CREATE_SQ", out, errno);
		goto destroy_cq;
	}
	sq->sqn = (uint32_t)mlx5dm_prm_fget(out, MLX5DM_CMD_OUT_OBJ_NUM);
	ret = mlx5dm_res_sq_modify(sq, MLX5DM_SQC_STATE_RST, MLX5DM_SQC_STATE_RDY,
				   "MODIFY_SQ (RST->RDY)");
	if (ret < 0)
		goto destroy_sq;
	return 0;
destroy_sq:
	mlx5dm_res_obj_destroy(res, sq->sq, "SQ", sq->sqn);
	sq->sq = NULL;
destroy_cq:
	mlx5dm_res_obj_destroy(res, sq->cq, "CQ of an SQ", sq->cqn);
	sq->cq = NULL;
	return ret;
}

struct mlx5dm_sq *
mlx5dm_sq_create(struct mlx5dm_ctx *ctx, uint32_t log_size)
{
	struct mlx5dm_res_ctx *res = mlx5dm_ctx_res(ctx);
	struct mlx5dm_sq *sq;
	int ret;

	if (res == NULL || log_size < MLX5DM_RES_SQ_LOG_MIN || log_size > MLX5DM_RES_SQ_LOG_MAX) {
		errno = EINVAL;
		return NULL;
	}
	sq = mlx5dm_zmalloc_socket(sizeof(*sq), res->dev->socket);
	if (sq == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	sq->res = res;
	sq->log_size = log_size;
	sq->uar = mlx5dm_res_uar(res);
	ret = sq->uar != NULL ? 0 : -(errno != 0 ? errno : ENOMEM);
	if (ret == 0)
		ret = mlx5dm_res_tis_get(res);
	if (ret == 0)
		ret = mlx5dm_res_umem_alloc(res, &sq->cq_buf, MLX5DM_RES_CQE_BYTES << log_size);
	if (ret == 0)
		ret = mlx5dm_res_umem_alloc(res, &sq->wq_buf, (size_t)1 <<
					    (log_size + MLX5DM_RES_SQ_LOG_WQEBB));
	if (ret == 0)
		ret = mlx5dm_res_umem_alloc(res, &sq->dbr, MLX5DM_RES_SQ_DBR_BYTES);
	if (ret == 0) {
		mlx5dm_res_cq_invalidate(&sq->cq_buf, log_size);
		ret = mlx5dm_res_sq_objects(sq);
	}
	if (ret < 0) {
		mlx5dm_res_sq_free(sq);
		errno = -ret;
		return NULL;
	}
	mlx5dm_res_live_add(&res->live.sqs, 1);
	MLX5DM_LOG(DEBUG, "res", "SQ 0x%x (CQ 0x%x, TIS 0x%x): %u WQEBBs, inline %u", sq->sqn,
		   sq->cqn, res->tisn, 1u << log_size, res->inline_min);
	return sq;
}

int
mlx5dm_sq_destroy(struct mlx5dm_sq *sq)
{
	int ret;

	if (sq == NULL)
		return -EINVAL;
	ret = mlx5dm_res_obj_destroy(sq->res, sq->sq, "SQ", sq->sqn);
	if (ret < 0)
		return ret;
	mlx5dm_res_obj_destroy(sq->res, sq->cq, "CQ of an SQ", sq->cqn);
	mlx5dm_res_live_add(&sq->res->live.sqs, -1);
	mlx5dm_res_sq_free(sq);
	return 0;
}

void
mlx5dm_sq_info(const struct mlx5dm_sq *sq, struct mlx5dm_wq_info *info)
{
	memset(info, 0, sizeof(*info));
	info->qn = sq->sqn;
	info->cqn = sq->cqn;
	info->wqes = sq->wq_buf.buf;
	info->log_wqes = sq->log_size;
	info->dbrec = (volatile uint32_t *)(void *)(sq->dbr.buf + MLX5DM_RES_SQ_WQ_DBR_OFF);
	info->cqes = sq->cq_buf.buf;
	info->log_cqes = sq->log_size;
	info->cq_dbrec = (volatile uint32_t *)(void *)(sq->dbr.buf + MLX5DM_RES_SQ_CQ_DBR_OFF);
	info->uar = sq->uar;
	info->inline_min = sq->res->inline_min;
}

int
mlx5dm_sq_recover(struct mlx5dm_sq *sq)
{
	int ret;

	if (sq == NULL)
		return -EINVAL;
	ret = mlx5dm_res_sq_modify(sq, MLX5DM_SQC_STATE_ERR, MLX5DM_SQC_STATE_RST,
				   "MODIFY_SQ (ERR->RST)");
	if (ret < 0)
		return ret;
	/* In RST the device reads nothing: the send counter restarts with the device's. */
	__atomic_store_n((uint32_t *)(void *)(sq->dbr.buf + MLX5DM_RES_SQ_WQ_DBR_OFF + 4), 0,
			 __ATOMIC_RELEASE);
	return mlx5dm_res_sq_modify(sq, MLX5DM_SQC_STATE_RST, MLX5DM_SQC_STATE_RDY,
				    "MODIFY_SQ (RST->RDY)");
}
