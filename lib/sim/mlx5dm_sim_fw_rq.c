/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Receive queues. A model RQ is created with CREATE_RQ like a hardware RQ
 * (its CQ and PD must exist; the ring holds 2^log_wq_sz frames) but does
 * not use a WQE buffer: frames delivered by the engine are copied by value
 * (struct mlx5dm_dev_pkt) into a bounded multi-producer ring and handed
 * back by rq_poll. Delivery needs the RQ in RDY (MODIFY_RQ RST->RDY);
 * frames already in the ring stay pollable in any state. Destroying an RQ
 * drops what is still in its ring (the caller owns those cookies).
 *
 * Ring: Vyukov's bounded queue (per-cell sequence numbers), lock-free for
 * producers; one consumer at a time (a spinlock keeps two pollers of the
 * same RQ from corrupting it).
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_sim_core.h"

#define MLX5DM_SIM_RQ_LOG_MAX 16
#define MLX5DM_SIM_RQC_BYTES 240

struct mlx5dm_sim_cell {
	uint64_t seq;
	struct mlx5dm_dev_pkt pkt;
};

struct mlx5dm_sim_rq {
	struct mlx5dm_sim_obj h;
	uint32_t state;
	struct mlx5dm_sim_obj *cq;
	struct mlx5dm_sim_pd *pd;
	uint8_t ctx[MLX5DM_SIM_RQC_BYTES];   /* as created, for QUERY_RQ */
	struct mlx5dm_spinlock cons_lock;
	uint64_t mask;
	uint64_t head;                       /* next producer ticket */
	uint64_t tail;                       /* next consumer position */
	struct mlx5dm_sim_cell *cells;
	/* Counted at enqueue, so a consumer that stops polling does not skew them. */
	uint64_t packets;
	uint64_t bytes;
	uint64_t full_drops;
};

static int
mlx5dm_sim_ring_push(struct mlx5dm_sim_rq *rq, const struct mlx5dm_dev_pkt *pkt)
{
	uint64_t pos = __atomic_load_n(&rq->head, __ATOMIC_RELAXED);
	struct mlx5dm_sim_cell *cell;

	for (;;) {
		int64_t dif;

		cell = &rq->cells[pos & rq->mask];
		dif = (int64_t)(__atomic_load_n(&cell->seq, __ATOMIC_ACQUIRE) - pos);
		if (dif == 0) {
			if (__atomic_compare_exchange_n(&rq->head, &pos, pos + 1, true,
							__ATOMIC_RELAXED, __ATOMIC_RELAXED))
				break;
		} else if (dif < 0) {
			return -ENOSPC;
		} else {
			pos = __atomic_load_n(&rq->head, __ATOMIC_RELAXED);
		}
	}
	cell->pkt = *pkt;
	__atomic_store_n(&cell->seq, pos + 1, __ATOMIC_RELEASE);
	return 0;
}

static uint16_t
mlx5dm_sim_ring_pop(struct mlx5dm_sim_rq *rq, struct mlx5dm_dev_pkt *pkts, uint16_t n)
{
	uint16_t got = 0;

	mlx5dm_spinlock_lock(&rq->cons_lock);
	while (got < n) {
		uint64_t pos = rq->tail;
		struct mlx5dm_sim_cell *cell = &rq->cells[pos & rq->mask];

		if (__atomic_load_n(&cell->seq, __ATOMIC_ACQUIRE) != pos + 1)
			break;
		pkts[got++] = cell->pkt;
		__atomic_store_n(&cell->seq, pos + rq->mask + 1, __ATOMIC_RELEASE);
		rq->tail = pos + 1;
	}
	mlx5dm_spinlock_unlock(&rq->cons_lock);
	return got;
}

int
mlx5dm_sim_cmd_create_rq(struct mlx5dm_sim_cmd *c)
{
	const uint8_t *ctx = c->in + MLX5DM_SIM_RQ_IN_CTX_BYTE;
	const uint8_t *wq = ctx + MLX5DM_SIM_RQC_WQ_BYTE;
	uint64_t log = mlx5dm_prm_fget(wq, MLX5DM_SIM_WQ_LOG_WQ_SZ);
	struct mlx5dm_sim_obj *cq;
	struct mlx5dm_sim_pd *pd;
	struct mlx5dm_sim_rq *rq;
	uint64_t i;

	if (mlx5dm_prm_fget(ctx, MLX5DM_SIM_RQC_STATE) != MLX5DM_SIM_RQ_RST)
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "an RQ is created in RST");
	if (mlx5dm_prm_fget(ctx, MLX5DM_SIM_RQC_MEM_RQ_TYPE) != 0)
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "only inline RQs are modelled");
	if (log > MLX5DM_SIM_RQ_LOG_MAX)
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "log_wq_sz above log_max_wq_sz");
	cq = mlx5dm_sim_obj_get(c->sim, MLX5DM_SIM_K_CQ,
				(uint32_t)mlx5dm_prm_fget(ctx, MLX5DM_SIM_RQC_CQN));
	if (cq == NULL)
		return MLX5DM_SIM_FAIL(c, BAD_RES, "cqn names no CQ");
	pd = mlx5dm_sim_obj_get(c->sim, MLX5DM_SIM_K_PD, (uint32_t)mlx5dm_prm_fget(wq,
				MLX5DM_SIM_WQ_PD));
	if (pd == NULL)
		return MLX5DM_SIM_FAIL(c, BAD_RES, "wq.pd names no PD");
	rq = mlx5dm_sim_obj_new(c->sim, MLX5DM_SIM_K_RQ, sizeof(*rq));
	if (rq == NULL)
		return MLX5DM_SIM_FAIL(c, NO_RES, "out of RQs");
	rq->cells = mlx5dm_aligned_zmalloc(sizeof(*rq->cells) << log, 64);
	if (rq->cells == NULL) {
		mlx5dm_sim_obj_free(c->sim, rq);
		return MLX5DM_SIM_FAIL(c, NO_RES, "out of memory for the RQ ring");
	}
	rq->mask = (1ull << log) - 1;
	for (i = 0; i <= rq->mask; i++)
		rq->cells[i].seq = i;
	mlx5dm_spinlock_init(&rq->cons_lock);
	memcpy(rq->ctx, ctx, sizeof(rq->ctx));
	rq->state = MLX5DM_SIM_RQ_RST;
	rq->cq = cq;
	rq->pd = pd;
	cq->refs++;
	pd->h.refs++;
	mlx5dm_sim_out(c, MLX5DM_SIM_OUT_OBJ_NUM, rq->h.id);
	c->obj = &rq->h;
	return MLX5DM_SIM_ST_OK;
}

int
mlx5dm_sim_cmd_modify_rq(struct mlx5dm_sim_cmd *c)
{
	struct mlx5dm_sim_rq *rq = (struct mlx5dm_sim_rq *)c->obj;
	uint32_t cur = (uint32_t)mlx5dm_sim_in(c, MLX5DM_SIM_RQ_MOD_IN_STATE);
	uint32_t next = (uint32_t)mlx5dm_sim_in_at(c, MLX5DM_SIM_RQ_IN_CTX_BYTE,
						   MLX5DM_SIM_RQC_STATE);
	bool ok;

	if (cur != rq->state)
		return MLX5DM_SIM_FAIL(c, BAD_RES_STATE, "rq_state is not current");
	ok = (cur == MLX5DM_SIM_RQ_RST && next == MLX5DM_SIM_RQ_RDY) ||
	     (cur == MLX5DM_SIM_RQ_RDY && next == MLX5DM_SIM_RQ_ERR) ||
	     (cur == MLX5DM_SIM_RQ_RDY && next == MLX5DM_SIM_RQ_RST) ||
	     (cur == MLX5DM_SIM_RQ_ERR && next == MLX5DM_SIM_RQ_RST) || cur == next;
	if (!ok)
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "bad RQ state transition");
	__atomic_store_n(&rq->state, next, __ATOMIC_RELEASE);
	return MLX5DM_SIM_ST_OK;
}

int
mlx5dm_sim_cmd_query_rq(struct mlx5dm_sim_cmd *c)
{
	struct mlx5dm_sim_rq *rq = (struct mlx5dm_sim_rq *)c->obj;

	memcpy(c->out + MLX5DM_SIM_RQ_QOUT_CTX_BYTE, rq->ctx, sizeof(rq->ctx));
	mlx5dm_sim_out_at(c, MLX5DM_SIM_RQ_QOUT_CTX_BYTE, MLX5DM_SIM_RQC_STATE, rq->state);
	return MLX5DM_SIM_ST_OK;
}

void
mlx5dm_sim_rq_release(struct mlx5dm_sim *sim, void *obj)
{
	struct mlx5dm_sim_rq *rq = obj;
	uint64_t left = rq->head - rq->tail;

	(void)sim;
	if (left != 0)
		MLX5DM_LOG(INFO, MLX5DM_SIM_LOG, "RQ 0x%x destroyed with %" PRIu64 " frames queued",
			   rq->h.id, left);
	mlx5dm_spinlock_destroy(&rq->cons_lock);
	mlx5dm_free(rq->cells);
	rq->cells = NULL;
}

int
mlx5dm_sim_cmd_destroy_rq(struct mlx5dm_sim_cmd *c)
{
	struct mlx5dm_sim_rq *rq = (struct mlx5dm_sim_rq *)c->obj;
	int st = mlx5dm_sim_cmd_destroy_check(c, MLX5DM_SIM_K_RQ);

	if (st != MLX5DM_SIM_ST_OK)
		return st; /* a TIR or an RQT still uses it */
	rq->cq->refs--;
	rq->pd->h.refs--;
	mlx5dm_sim_rq_release(c->sim, rq);
	mlx5dm_sim_obj_free(c->sim, rq);
	return MLX5DM_SIM_ST_OK;
}

int
mlx5dm_sim_rq_deliver(struct mlx5dm_sim *sim, uint32_t rqn, const struct mlx5dm_dev_pkt *pkt)
{
	struct mlx5dm_sim_rq *rq;
	int ret;

	pthread_rwlock_rdlock(&sim->lock);
	rq = mlx5dm_sim_obj_get(sim, MLX5DM_SIM_K_RQ, rqn);
	if (rq == NULL || __atomic_load_n(&rq->state, __ATOMIC_ACQUIRE) != MLX5DM_SIM_RQ_RDY) {
		ret = -ENOENT;
	} else {
		ret = mlx5dm_sim_ring_push(rq, pkt);
		if (ret == 0) {
			__atomic_fetch_add(&rq->packets, 1, __ATOMIC_RELAXED);
			__atomic_fetch_add(&rq->bytes, pkt->len, __ATOMIC_RELAXED);
		} else {
			__atomic_fetch_add(&rq->full_drops, 1, __ATOMIC_RELAXED);
		}
	}
	pthread_rwlock_unlock(&sim->lock);
	return ret;
}

int
mlx5dm_sim_rq_stats(struct mlx5dm_sim *sim, uint32_t rqn, struct mlx5dm_dev_rq_stats *st)
{
	struct mlx5dm_sim_rq *rq;
	int ret = 0;

	pthread_rwlock_rdlock(&sim->lock);
	rq = mlx5dm_sim_obj_get(sim, MLX5DM_SIM_K_RQ, rqn);
	if (rq == NULL) {
		ret = -ENOENT;
	} else {
		st->packets = __atomic_load_n(&rq->packets, __ATOMIC_RELAXED);
		st->bytes = __atomic_load_n(&rq->bytes, __ATOMIC_RELAXED);
		st->full_drops = __atomic_load_n(&rq->full_drops, __ATOMIC_RELAXED);
	}
	pthread_rwlock_unlock(&sim->lock);
	return ret;
}

int
mlx5dm_sim_rq_poll(struct mlx5dm_sim *sim, uint32_t rqn, struct mlx5dm_dev_pkt *pkts,
		   uint16_t n)
{
	struct mlx5dm_sim_rq *rq;
	int ret;

	if (pkts == NULL && n != 0)
		return -EINVAL;
	pthread_rwlock_rdlock(&sim->lock);
	rq = mlx5dm_sim_obj_get(sim, MLX5DM_SIM_K_RQ, rqn);
	ret = rq == NULL ? -ENOENT : mlx5dm_sim_ring_pop(rq, pkts, n);
	pthread_rwlock_unlock(&sim->lock);
	return ret;
}
