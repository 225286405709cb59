/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Receive queues, as a ConnectX's: CREATE_RQ names a CQ, a PD and a cyclic
 * WQ of single-segment WQEs (BE32 buffer length, BE32 lkey, BE64 address)
 * in a umem with its doorbell record (BE32 receive counter) in a umem.
 * Delivery needs the RQ in RDY (MODIFY_RQ RST->RDY).
 *
 * A frame the steering delivers goes into the next posted WQE's buffer
 * (found by lkey in the RQ's PD, range checked) and a 64-byte CQE says so
 * (DPDK struct mlx5_cqe as rxq_cq_to_pkt_type / rxq_cq_to_ol_flags /
 * mlx5_rx_burst read it): opcode RESP_SEND, wqe_counter, byte_cnt, the flow
 * tag in sop_drop_qpn, the RSS hash, the outer L3/L4 header types, IP
 * fragment and checksum-good bits (from the parse its steering used,
 * mlx5dm_sim_rx_offload). Nothing posted: the frame is dropped
 * and counted (out of buffer). Errors, as a ConnectX reports them: an lkey
 * or address the RQ may not write (LOCAL_PROT), a frame longer than the
 * buffer (LOCAL_LENGTH), a receive counter more than a ring ahead of the
 * device (LOCAL_QP_OP) write an error CQE (RESP_ERR, syndrome) for the
 * WQE, move the RQ to ERR and flush the rest of its posted WQEs (WR_FLUSH
 * CQEs, and so for every WQE posted while in ERR: the device thread
 * watches the record). MODIFY_RQ ERR->RST->RDY restarts the counter at 0.
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_sim_engine_priv.h"
#include "mlx5dm_sim_queue.h"

#define MLX5DM_SIM_RQ_LOG_MAX 16
#define MLX5DM_SIM_RQ_LOG_STRIDE 4 /* one 16-byte data segment */

int
mlx5dm_sim_cmd_create_rq(struct mlx5dm_sim_cmd *c)
{
	const uint8_t *ctx = c->in + MLX5DM_SIM_RQ_IN_CTX_BYTE;
	const uint8_t *wq = ctx + MLX5DM_SIM_RQC_WQ_BYTE;
	uint64_t log = mlx5dm_prm_fget(wq, MLX5DM_SIM_WQ_LOG_WQ_SZ);
	uint32_t stride = (uint32_t)mlx5dm_prm_fget(wq, MLX5DM_SIM_WQ_LOG_WQ_STRIDE);
	struct mlx5dm_sim_rq r, *rq;

	memset(&r, 0, sizeof(r));
	if (mlx5dm_prm_fget(ctx, MLX5DM_SIM_RQC_STATE) != MLX5DM_SIM_RQ_RST)
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "an RQ is created in RST");
	if (mlx5dm_prm_fget(ctx, MLX5DM_SIM_RQC_MEM_RQ_TYPE) != 0)
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "only inline RQs are modelled");
	if (mlx5dm_prm_fget(wq, MLX5DM_SIM_WQ_TYPE) != MLX5DM_SIM_WQ_CYCLIC)
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "only cyclic WQs are modelled");
	if (log > MLX5DM_SIM_RQ_LOG_MAX)
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "log_wq_sz above log_max_wq_sz");
	if (stride != MLX5DM_SIM_RQ_LOG_STRIDE)
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "only one-segment WQEs are modelled");
	r.cq = mlx5dm_sim_obj_get(c->sim, MLX5DM_SIM_K_CQ,
				  (uint32_t)mlx5dm_prm_fget(ctx, MLX5DM_SIM_RQC_CQN));
	if (r.cq == NULL)
		return MLX5DM_SIM_FAIL(c, BAD_RES, "cqn names no CQ");
	r.pd = mlx5dm_sim_obj_get(c->sim, MLX5DM_SIM_K_PD,
				  (uint32_t)mlx5dm_prm_fget(wq, MLX5DM_SIM_WQ_PD));
	if (r.pd == NULL)
		return MLX5DM_SIM_FAIL(c, BAD_RES, "wq.pd names no PD");
	r.wq = mlx5dm_sim_umem_ptr(c->sim, (uint32_t)mlx5dm_prm_fget(wq, MLX5DM_SIM_WQ_WQ_UMEM_ID),
				   mlx5dm_prm_fget(wq, MLX5DM_SIM_WQ_WQ_UMEM_OFFSET),
				   (uint64_t)1 << (log + stride), &r.wq_umem);
	if (r.wq == NULL)
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "WQ outside its umem");
	r.dbr = mlx5dm_sim_umem_ptr(c->sim,
				    (uint32_t)mlx5dm_prm_fget(wq, MLX5DM_SIM_WQ_DBR_UMEM_ID),
				    mlx5dm_prm_fget(wq, MLX5DM_SIM_WQ_DBR_ADDR), 4, &r.dbr_umem);
	if (r.dbr == NULL)
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "doorbell record outside its umem");
	rq = mlx5dm_sim_obj_new(c->sim, MLX5DM_SIM_K_RQ, sizeof(*rq));
	if (rq == NULL)
		return MLX5DM_SIM_FAIL(c, NO_RES, "out of RQs");
	r.h = rq->h;
	*rq = r;
	rq->log_size = (uint32_t)log;
	rq->log_stride = stride;
	rq->state = MLX5DM_SIM_RQ_RST;
	mlx5dm_spinlock_init(&rq->lock);
	memcpy(rq->ctx, ctx, sizeof(rq->ctx));
	rq->cq->h.refs++;
	rq->pd->h.refs++;
	rq->wq_umem->h.refs++;
	rq->dbr_umem->h.refs++;
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
	mlx5dm_spinlock_lock(&rq->lock);
	if (next == MLX5DM_SIM_RQ_RST) {
		rq->ctr = 0; /* the device's counter restarts with the queue */
		rq->posted = 0;
	}
	__atomic_store_n(&rq->state, next, __ATOMIC_RELEASE);
	mlx5dm_spinlock_unlock(&rq->lock);
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

int
mlx5dm_sim_cmd_destroy_rq(struct mlx5dm_sim_cmd *c)
{
	struct mlx5dm_sim_rq *rq = (struct mlx5dm_sim_rq *)c->obj;
	int st = mlx5dm_sim_cmd_destroy_check(c, MLX5DM_SIM_K_RQ);

	if (st != MLX5DM_SIM_ST_OK)
		return st; /* a TIR or an RQT still uses it */
	rq->cq->h.refs--;
	rq->pd->h.refs--;
	rq->wq_umem->h.refs--;
	rq->dbr_umem->h.refs--;
	mlx5dm_spinlock_destroy(&rq->lock);
	mlx5dm_sim_obj_free(c->sim, rq);
	return MLX5DM_SIM_ST_OK;
}

/*
 * One's-complement sum of len bytes (big-endian 16-bit words), folded
 * later. Four bytes at a time: a big-endian 32-bit word adds its two
 * 16-bit halves, as 2^16 = 1 modulo 0xffff.
 */
/* Put the run of CQEs claimed for frames of rq (RQ lock held). */
static void
mlx5dm_sim_rq_publish(struct mlx5dm_sim_rq *rq)
{
	unsigned int i;

	for (i = 0; i < rq->run; i++)
		__builtin_prefetch(rq->run_slot[i], 1, 3);
	for (i = 0; i < rq->run; i++)
		mlx5dm_sim_cq_put(rq->run_slot[i], rq->run_img[i]);
	rq->run = 0;
}

/* A receive CQE: err 0 for a frame, else the syndrome of an error CQE. */
static int
mlx5dm_sim_rq_cqe(struct mlx5dm_sim_rq *rq, uint16_t idx, uint8_t synd,
		  const struct mlx5dm_sim_pkt *pkt)
{
	uint8_t cqe[MLX5DM_SIM_CQE_BYTES];
	bool run = synd == 0 && !mlx5dm_sim_cq_shared(rq->cq);
	uint8_t *img = run ? rq->run_img[rq->run] : cqe;
	uint8_t *slot;

	/* What completed before comes first. */
	if (!run)
		mlx5dm_sim_rq_publish(rq);
	memset(img, 0, MLX5DM_SIM_CQE_BYTES);
	mlx5dm_prm_fset(img, MLX5DM_SIM_CQE_WQE_COUNTER, idx);
	if (synd != 0) {
		mlx5dm_prm_fset(img, MLX5DM_SIM_CQE_SYNDROME, synd);
		mlx5dm_prm_fset(img, MLX5DM_SIM_CQE_QPN, rq->h.id);
		mlx5dm_prm_fset(img, MLX5DM_SIM_CQE_OPCODE, MLX5DM_SIM_CQE_RESP_ERR);
		return mlx5dm_sim_cq_push(rq->cq, img);
	}
	/* The receive offload's bytes, from the layout the engine had (mlx5dm_sim_rx_offload). */
	img[28] = pkt->rx_ok;
	img[29] = pkt->rx_hdr;
	if (pkt->flags & MLX5DM_SIM_PKT_F_RSS_HASH) {
		mlx5dm_prm_fset(img, MLX5DM_SIM_CQE_RX_HASH_RES, pkt->rss_hash);
		/* Which headers were hashed (the model's coding): IPv4 1, IPv6 2, TCP 4, UDP 8. */
		unsigned int l3 = (img[29] >> MLX5DM_SIM_CQE_L3_SHIFT) & 3;
		unsigned int l4 = (img[29] >> MLX5DM_SIM_CQE_L4_SHIFT) & 7;
		unsigned int type = l3 == 1 ? 2u : 1u;

		type |= l4 == 1 ? 4u : l4 == 2 ? 8u : 0;
		mlx5dm_prm_fset(img, MLX5DM_SIM_CQE_RX_HASH_TYPE, type);
	}
	mlx5dm_prm_fset(img, MLX5DM_SIM_CQE_BYTE_CNT, pkt->len);
	if (pkt->flags & MLX5DM_SIM_PKT_F_FLOW_TAG)
		mlx5dm_prm_fset(img, MLX5DM_SIM_CQE_FLOW_TAG, pkt->flow_tag & 0xffffff);
	mlx5dm_prm_fset(img, MLX5DM_SIM_CQE_OPCODE, MLX5DM_SIM_CQE_RESP_SEND);
	if (!run)
		return mlx5dm_sim_cq_push(rq->cq, img);
	slot = mlx5dm_sim_cq_claim(rq->cq, img);
	if (slot == NULL)
		return -ENOSPC;
	rq->run_slot[rq->run++] = slot;
	if (rq->run == MLX5DM_SIM_RQ_RUN)
		mlx5dm_sim_rq_publish(rq);
	return 0;
}

/* Posted WQEs the device has not used; > ring size: the record is bogus. */
static uint32_t
mlx5dm_sim_rq_posted(const struct mlx5dm_sim_rq *rq)
{
	return (uint16_t)(mlx5dm_sim_dbr_get(rq->dbr) - rq->ctr);
}

/* Flush n posted WQEs from the device's counter on (WR_FLUSH CQEs). */
static void
mlx5dm_sim_rq_flush_n(struct mlx5dm_sim_rq *rq, uint32_t n)
{
	while (n-- > 0) {
		mlx5dm_sim_rq_cqe(rq, rq->ctr, MLX5DM_SIM_SYND_WR_FLUSH, NULL);
		rq->ctr++;
	}
	rq->posted = 0;
}

/* An error on WQE ctr: its error CQE, the RQ to ERR, the rest flushed. */
static void
mlx5dm_sim_rq_fail(struct mlx5dm_sim_rq *rq, uint8_t synd, uint32_t posted)
{
	mlx5dm_sim_rq_cqe(rq, rq->ctr, synd, NULL);
	__atomic_store_n(&rq->state, MLX5DM_SIM_RQ_ERR, __ATOMIC_RELEASE);
	rq->posted = 0;
	if (posted > (1u << rq->log_size))
		return; /* the record is bogus: nothing is known to be posted */
	rq->ctr++;
	mlx5dm_sim_rq_flush_n(rq, posted - 1);
}

bool
mlx5dm_sim_rq_flush(struct mlx5dm_sim *sim, struct mlx5dm_sim_rq *rq)
{
	uint32_t posted;

	(void)sim;
	if (__atomic_load_n(&rq->state, __ATOMIC_ACQUIRE) != MLX5DM_SIM_RQ_ERR ||
	    mlx5dm_sim_rq_posted(rq) == 0)
		return false;
	mlx5dm_spinlock_lock(&rq->lock);
	posted = mlx5dm_sim_rq_posted(rq);
	if (rq->state == MLX5DM_SIM_RQ_ERR && posted <= (1u << rq->log_size))
		mlx5dm_sim_rq_flush_n(rq, posted);
	mlx5dm_spinlock_unlock(&rq->lock);
	return true;
}

/* Write pkt into the next posted buffer of rq (its lock held); 0 or -errno. */
static int
mlx5dm_sim_rq_write(struct mlx5dm_sim *sim, struct mlx5dm_sim_rq *rq,
		    const struct mlx5dm_sim_pkt *pkt)
{
	uint32_t posted = rq->posted;
	struct mlx5dm_sim_mr *mr;
	const uint8_t *wqe;
	uint32_t blen;
	uint64_t addr;

	/* The record, a line the driver keeps writing, is read when what it said is used up. */
	if (posted == 0)
		posted = rq->posted = mlx5dm_sim_rq_posted(rq);
	if (posted == 0) {
		rq->out_of_buffer++;
		return -ENOSPC;
	}
	if (posted > (1u << rq->log_size)) {
		mlx5dm_sim_rq_fail(rq, MLX5DM_SIM_SYND_LOCAL_QP_OP, posted);
		return -EIO;
	}
	wqe = rq->wq + ((size_t)(rq->ctr & ((1u << rq->log_size) - 1)) << rq->log_stride);
	blen = (uint32_t)mlx5dm_prm_fget(wqe, MLX5DM_SIM_DSEG_BYTE_COUNT);
	mr = mlx5dm_sim_mr_lookup(sim, (uint32_t)mlx5dm_prm_fget(wqe, MLX5DM_SIM_DSEG_LKEY));
	addr = mlx5dm_prm_fget(wqe, MLX5DM_SIM_DSEG_ADDR);
	if (mr == NULL || mr->pd != rq->pd || mr->dm != NULL ||
	    addr < (uintptr_t)mr->mr.addr || addr - (uintptr_t)mr->mr.addr > mr->mr.length ||
	    blen > mr->mr.length - (addr - (uintptr_t)mr->mr.addr)) {
		mlx5dm_sim_rq_fail(rq, MLX5DM_SIM_SYND_LOCAL_PROT, posted);
		return -EIO;
	}
	if (pkt->len > blen) {
		mlx5dm_sim_rq_fail(rq, MLX5DM_SIM_SYND_LOCAL_LENGTH, posted);
		return -EIO;
	}
	memcpy((void *)(uintptr_t)addr, pkt->data, pkt->len);
	/*
	 * An overrun CQ is in error: the WQE is used and the frame is in its
	 * buffer, but no one learns of it; the RQ goes to ERR.
	 */
	rq->posted--;
	if (mlx5dm_sim_rq_cqe(rq, rq->ctr++, 0, pkt) != 0) {
		__atomic_store_n(&rq->state, MLX5DM_SIM_RQ_ERR, __ATOMIC_RELEASE);
		return -EIO;
	}
	rq->packets++;
	rq->bytes += pkt->len;
	if (rq->posted > 0) {
		/* A hint: the next frame's buffer, a line the driver's core owns. */
		wqe = rq->wq + ((size_t)(rq->ctr & ((1u << rq->log_size) - 1)) << rq->log_stride);
		__builtin_prefetch((const void *)(uintptr_t)mlx5dm_prm_fget(wqe,
				   MLX5DM_SIM_DSEG_ADDR), 1, 3);
	}
	return 0;
}

void
mlx5dm_sim_hold_all(struct mlx5dm_sim_hold *h, struct mlx5dm_sim *const *sims, unsigned int n)
{
	unsigned int i, j;

	/* In address order: device threads whose bursts meet never wait in a circle. */
	h->n = 0;
	for (i = 0; i < n; i++) {
		struct mlx5dm_sim *s = sims[i];

		if (s == NULL)
			continue;
		for (j = h->n; j > 0 && (uintptr_t)h->sim[j - 1] >= (uintptr_t)s; j--)
			;
		if (j < h->n && h->sim[j] == s)
			continue;
		memmove(&h->sim[j + 1], &h->sim[j], (h->n - j) * sizeof(h->sim[0]));
		h->sim[j] = s;
		h->n++;
	}
	h->rq_sim = NULL;
	h->rq = NULL;
	for (i = 0; i < h->n; i++)
		pthread_rwlock_rdlock(&h->sim[i]->lock);
}

void
mlx5dm_sim_hold(struct mlx5dm_sim_hold *h, struct mlx5dm_sim *a, struct mlx5dm_sim *b)
{
	struct mlx5dm_sim *const two[2] = { a, b };

	mlx5dm_sim_hold_all(h, two, 2);
}

static void
mlx5dm_sim_hold_rq_drop(struct mlx5dm_sim_hold *h)
{
	struct mlx5dm_sim_rq *rq = h->rq;

	if (rq != NULL) {
		mlx5dm_sim_rq_publish(rq);
		mlx5dm_spinlock_unlock(&rq->lock);
	}
	h->rq = NULL;
	h->rq_sim = NULL;
}

void
mlx5dm_sim_release(struct mlx5dm_sim_hold *h)
{
	unsigned int i;

	mlx5dm_sim_hold_rq_drop(h);
	for (i = h->n; i > 0; i--)
		pthread_rwlock_unlock(&h->sim[i - 1]->lock);
}

/*
 * Start loading the WQEs a run of frames will use: lines the driver
 * wrote, each a wait when read one by one. Only a hint: nothing is
 * decided here (a prefetch past what is posted cannot fault).
 */
static void
mlx5dm_sim_rq_prefetch(const struct mlx5dm_sim_rq *rq)
{
	uint32_t mask = (1u << rq->log_size) - 1, i;

	for (i = 0; i < MLX5DM_SIM_RQ_RUN && i <= mask; i += 64u >> rq->log_stride)
		__builtin_prefetch(rq->wq + ((size_t)((rq->ctr + i) & mask) << rq->log_stride));
}

int
mlx5dm_sim_rq_deliver(struct mlx5dm_sim_hold *h, struct mlx5dm_sim *sim, uint32_t rqn,
		      const struct mlx5dm_sim_pkt *pkt)
{
	struct mlx5dm_sim_rq *rq = h->rq;

	/* Frames of a burst mostly go to one RQ: its lock is taken once for them. */
	if (rq == NULL || h->rq_sim != sim || rq->h.id != rqn) {
		mlx5dm_sim_hold_rq_drop(h);
		rq = mlx5dm_sim_obj_get(sim, MLX5DM_SIM_K_RQ, rqn);
		if (rq == NULL ||
		    __atomic_load_n(&rq->state, __ATOMIC_ACQUIRE) != MLX5DM_SIM_RQ_RDY)
			return -ENOENT;
		mlx5dm_spinlock_lock(&rq->lock);
		h->rq = rq;
		h->rq_sim = sim;
		mlx5dm_sim_rq_prefetch(rq);
	}
	return rq->state == MLX5DM_SIM_RQ_RDY ? mlx5dm_sim_rq_write(sim, rq, pkt) : -ENOENT;
}
