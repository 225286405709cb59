/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * TIS and raw-packet SQ commands (mlx5_ifc_tisc_bits, mlx5_ifc_sqc_bits).
 *
 * CREATE_TIS: its transport_domain must exist. CREATE_SQ: created in RST,
 * cqn, the one TIS (tis_lst_sz 1) and wq.pd must exist; a cyclic WQ of
 * 64-byte WQEBBs (log_wq_stride 6, log_wq_sz 6..15) inside its umem, the
 * doorbell record (BE32 receive counter, then BE32 send counter) inside its
 * umem; min_wqe_inline_mode none or L2 and not below what the vport
 * context demands. MODIFY_SQ: sq_state must be the current state;
 * RST->RDY, RDY->ERR, RDY->RST, ERR->RST (the device's counter restarts at
 * 0 in RST). DESTROY_SQ / DESTROY_TIS: anything not in use.
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_sim_queue.h"

#define MLX5DM_SIM_SQ_LOG_MIN 6
#define MLX5DM_SIM_SQ_LOG_MAX 15
#define MLX5DM_SIM_SQ_LOG_STRIDE 6

int
mlx5dm_sim_cmd_create_tis(struct mlx5dm_sim_cmd *c)
{
	struct mlx5dm_sim_obj *td;
	struct mlx5dm_sim_tis *tis;

	td = mlx5dm_sim_obj_get(c->sim, MLX5DM_SIM_K_TD,
				(uint32_t)mlx5dm_sim_in_at(c, MLX5DM_SIM_TIS_IN_CTX_BYTE,
							   MLX5DM_SIM_TISC_TRANSPORT_DOMAIN));
	if (td == NULL)
		return MLX5DM_SIM_FAIL(c, BAD_RES, "transport_domain names no TD");
	tis = mlx5dm_sim_obj_new(c->sim, MLX5DM_SIM_K_TIS, sizeof(*tis));
	if (tis == NULL)
		return MLX5DM_SIM_FAIL(c, NO_RES, "out of TISs");
	tis->td = td;
	td->refs++;
	mlx5dm_sim_out(c, MLX5DM_SIM_OUT_OBJ_NUM, tis->h.id);
	c->obj = &tis->h;
	return MLX5DM_SIM_ST_OK;
}

int
mlx5dm_sim_cmd_destroy_tis(struct mlx5dm_sim_cmd *c)
{
	struct mlx5dm_sim_tis *tis = (struct mlx5dm_sim_tis *)c->obj;
	int st = mlx5dm_sim_cmd_destroy_check(c, MLX5DM_SIM_K_TIS);

	if (st != MLX5DM_SIM_ST_OK)
		return st; /* an SQ still sends through it */
	tis->td->refs--;
	mlx5dm_sim_obj_free(c->sim, tis);
	return MLX5DM_SIM_ST_OK;
}

/* Inline bytes the vport context demands (QUERY_NIC_VPORT_CONTEXT's min_wqe_inline_mode). */
static uint32_t
mlx5dm_sim_vport_inline(const struct mlx5dm_sim *sim)
{
	return sim->cfg.wqe_inline_l2 ? MLX5DM_SIM_INLINE_L2_BYTES : 0;
}

/* The SQ's rings and references from the sqc; a failed status or OK. */
static int
mlx5dm_sim_sq_parse(struct mlx5dm_sim_cmd *c, const uint8_t *ctx, struct mlx5dm_sim_sq *q)
{
	const uint8_t *wq = ctx + MLX5DM_SIM_SQC_WQ_BYTE;
	uint32_t mode = (uint32_t)mlx5dm_prm_fget(ctx, MLX5DM_SIM_SQC_MIN_WQE_INLINE_MODE);

	if (mlx5dm_prm_fget(ctx, MLX5DM_SIM_SQC_STATE) != MLX5DM_SIM_SQ_RST)
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "an SQ is created in RST");
	if (mlx5dm_prm_fget(ctx, MLX5DM_SIM_SQC_TIS_LST_SZ) != 1)
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "tis_lst_sz must be 1");
	if (mode > MLX5DM_SIM_INLINE_MODE_L2)
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "min_wqe_inline_mode beyond L2");
	q->inline_min = mode == MLX5DM_SIM_INLINE_MODE_L2 ? MLX5DM_SIM_INLINE_L2_BYTES : 0;
	if (q->inline_min < mlx5dm_sim_vport_inline(c->sim))
		return MLX5DM_SIM_FAIL(c, BAD_PARAM,
				       "min_wqe_inline_mode below the vport context's");
	if (mlx5dm_prm_fget(wq, MLX5DM_SIM_WQ_TYPE) != MLX5DM_SIM_WQ_CYCLIC)
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "only cyclic WQs are modelled");
	if (mlx5dm_prm_fget(wq, MLX5DM_SIM_WQ_LOG_WQ_STRIDE) != MLX5DM_SIM_SQ_LOG_STRIDE)
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "an SQ's stride is a 64-byte WQEBB");
	q->log_size = (uint32_t)mlx5dm_prm_fget(wq, MLX5DM_SIM_WQ_LOG_WQ_SZ);
	if (q->log_size < MLX5DM_SIM_SQ_LOG_MIN || q->log_size > MLX5DM_SIM_SQ_LOG_MAX)
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "log_wq_sz outside 6..log_max_wq_sz");
	q->cq = mlx5dm_sim_obj_get(c->sim, MLX5DM_SIM_K_CQ,
				   (uint32_t)mlx5dm_prm_fget(ctx, MLX5DM_SIM_SQC_CQN));
	q->tis = mlx5dm_sim_obj_get(c->sim, MLX5DM_SIM_K_TIS,
				    (uint32_t)mlx5dm_prm_fget(ctx, MLX5DM_SIM_SQC_TIS_NUM_0));
	q->pd = mlx5dm_sim_obj_get(c->sim, MLX5DM_SIM_K_PD,
				   (uint32_t)mlx5dm_prm_fget(wq, MLX5DM_SIM_WQ_PD));
	if (q->cq == NULL || q->tis == NULL || q->pd == NULL)
		return MLX5DM_SIM_FAIL(c, BAD_RES, "cqn, tis_num_0 or wq.pd names nothing");
	q->wq = mlx5dm_sim_umem_ptr(c->sim, (uint32_t)mlx5dm_prm_fget(wq, MLX5DM_SIM_WQ_WQ_UMEM_ID),
				    mlx5dm_prm_fget(wq, MLX5DM_SIM_WQ_WQ_UMEM_OFFSET),
				    (uint64_t)MLX5DM_SIM_WQEBB << q->log_size, &q->wq_umem);
	if (q->wq == NULL)
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "WQ outside its umem");
	q->dbr = mlx5dm_sim_umem_ptr(c->sim, (uint32_t)mlx5dm_prm_fget(wq,
				     MLX5DM_SIM_WQ_DBR_UMEM_ID),
				     mlx5dm_prm_fget(wq, MLX5DM_SIM_WQ_DBR_ADDR), 8, &q->dbr_umem);
	if (q->dbr == NULL)
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "doorbell record outside its umem");
	return MLX5DM_SIM_ST_OK;
}

int
mlx5dm_sim_cmd_create_sq(struct mlx5dm_sim_cmd *c)
{
	const uint8_t *ctx = c->in + MLX5DM_SIM_SQ_IN_CTX_BYTE;
	struct mlx5dm_sim_sq q, *sq;
	int st;

	memset(&q, 0, sizeof(q));
	st = mlx5dm_sim_sq_parse(c, ctx, &q);
	if (st != MLX5DM_SIM_ST_OK)
		return st;
	sq = mlx5dm_sim_obj_new(c->sim, MLX5DM_SIM_K_SQ, sizeof(*sq));
	if (sq == NULL)
		return MLX5DM_SIM_FAIL(c, NO_RES, "out of SQs");
	q.h = sq->h;
	*sq = q;
	sq->state = MLX5DM_SIM_SQ_RST;
	memcpy(sq->ctx, ctx, sizeof(sq->ctx));
	sq->pd->h.refs++;
	sq->cq->h.refs++;
	sq->tis->h.refs++;
	sq->wq_umem->h.refs++;
	sq->dbr_umem->h.refs++;
	mlx5dm_sim_out(c, MLX5DM_SIM_OUT_OBJ_NUM, sq->h.id);
	c->obj = &sq->h;
	return MLX5DM_SIM_ST_OK;
}

int
mlx5dm_sim_cmd_modify_sq(struct mlx5dm_sim_cmd *c)
{
	struct mlx5dm_sim_sq *sq = (struct mlx5dm_sim_sq *)c->obj;
	uint32_t cur = (uint32_t)mlx5dm_sim_in(c, MLX5DM_SIM_SQ_MOD_IN_STATE);
	uint32_t next = (uint32_t)mlx5dm_sim_in_at(c, MLX5DM_SIM_SQ_IN_CTX_BYTE,
						   MLX5DM_SIM_SQC_STATE);
	bool ok;

	if (cur != sq->state)
		return MLX5DM_SIM_FAIL(c, BAD_RES_STATE, "sq_state is not current");
	ok = (cur == MLX5DM_SIM_SQ_RST && next == MLX5DM_SIM_SQ_RDY) ||
	     (cur == MLX5DM_SIM_SQ_RDY && next == MLX5DM_SIM_SQ_ERR) ||
	     (cur == MLX5DM_SIM_SQ_RDY && next == MLX5DM_SIM_SQ_RST) ||
	     (cur == MLX5DM_SIM_SQ_ERR && next == MLX5DM_SIM_SQ_RST);
	if (!ok)
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "bad SQ state transition");
	/* The device thread is between batches (the command holds its exec lock). */
	if (next == MLX5DM_SIM_SQ_RST)
		sq->ctr = 0;
	__atomic_store_n(&sq->state, next, __ATOMIC_RELEASE);
	return MLX5DM_SIM_ST_OK;
}

int
mlx5dm_sim_cmd_query_sq(struct mlx5dm_sim_cmd *c)
{
	struct mlx5dm_sim_sq *sq = (struct mlx5dm_sim_sq *)c->obj;

	memcpy(c->out + MLX5DM_SIM_SQ_IN_CTX_BYTE, sq->ctx, sizeof(sq->ctx));
	mlx5dm_sim_out_at(c, MLX5DM_SIM_SQ_IN_CTX_BYTE, MLX5DM_SIM_SQC_STATE, sq->state);
	return MLX5DM_SIM_ST_OK;
}

int
mlx5dm_sim_cmd_destroy_sq(struct mlx5dm_sim_cmd *c)
{
	struct mlx5dm_sim_sq *sq = (struct mlx5dm_sim_sq *)c->obj;
	int st = mlx5dm_sim_cmd_destroy_check(c, MLX5DM_SIM_K_SQ);

	if (st != MLX5DM_SIM_ST_OK)
		return st;
	sq->pd->h.refs--;
	sq->cq->h.refs--;
	sq->tis->h.refs--;
	sq->wq_umem->h.refs--;
	sq->dbr_umem->h.refs--;
	mlx5dm_sim_obj_free(c->sim, sq);
	return MLX5DM_SIM_ST_OK;
}
