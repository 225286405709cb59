/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The executor of the steering send queues (RC QPs).
 *
 * The device thread (mlx5dm_sim_thread.c) sees a QP's SQ producer counter
 * in its doorbell record move and executes the WQEs from the QP's internal
 * counter up to it, in order, honouring wrap-around of the SQ buffer:
 *   RDMA WRITE (0x08): ctrl + raddr + one inline segment (0x80000000|len)
 *                      or data pointer segments (lkey/addr of local MRs);
 *   RDMA READ  (0x10): ctrl + raddr + scatter pointer segments;
 *   FLOW_TBL_ACCESS (0x2c) opmod 1: ctrl (imm = argument id) + 48-byte
 *                      flow-update control + 64 bytes of argument data;
 *   NOP (0x00).
 * The remote side is resolved device-wide by rkey (ICM DM MRs, zero-based,
 * or host MRs by VA) and checked against the remote QP's rre/rwe and PD.
 * A WQE is validated completely before any byte moves. A CQE is written
 * when the WQE asks for one (fm_ce_se CQ update) and always on error; an
 * error moves the QP to ERR and every later WQE completes with a flush
 * error, as on hardware. A full CQ is an overrun: the QP goes to ERR.
 *
 * Error CQE: opcode 13, syndrome (LOCAL_LENGTH 0x01, LOCAL_QP_OP 0x02,
 * LOCAL_PROT 0x04, WR_FLUSH 0x05, REMOTE_ACCESS 0x13) and in
 * vendor_err_synd the model's reason (enum below). Tests make a WQE fail
 * on purpose with mlx5dm_sim_sq_fail_at().
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_sim_line.h"
#include "mlx5dm_sim_queue.h"

#define MLX5DM_SIM_WQE_MAX (63 * MLX5DM_SIM_WQE_DS)
#define MLX5DM_SIM_MAX_SEGS ((MLX5DM_SIM_WQE_MAX - 32) / MLX5DM_SIM_WQE_DS)

/* vendor_err_synd of the model: which check failed. */
enum {
	MLX5DM_SIM_WHY_RKEY = 1,        /* rkey names no MR (or another PD) */
	MLX5DM_SIM_WHY_RRANGE,          /* remote range outside the MR */
	MLX5DM_SIM_WHY_RACCESS,         /* MR or remote QP lacks the right */
	MLX5DM_SIM_WHY_RQP,             /* remote QP gone */
	MLX5DM_SIM_WHY_LKEY,            /* lkey names no MR of the QP's PD */
	MLX5DM_SIM_WHY_LRANGE,          /* local range outside the MR */
	MLX5DM_SIM_WHY_LACCESS,         /* scatter target lacks local write */
	MLX5DM_SIM_WHY_FORMAT,          /* malformed segments */
	MLX5DM_SIM_WHY_OPCODE,          /* opcode/opmod not modelled */
	MLX5DM_SIM_WHY_QPN,             /* ctrl qpn is not this QP */
	MLX5DM_SIM_WHY_ARG,             /* argument id not allocated */
	MLX5DM_SIM_WHY_ARG_PD,          /* argument object of another PD */
	MLX5DM_SIM_WHY_PARTIAL,         /* producer counter ends inside a WQE */
	MLX5DM_SIM_WHY_INJECTED,        /* mlx5dm_sim_sq_fail_at() */
};
#define MLX5DM_SIM_ERR(synd, why) (((synd) << 8) | (why))

/* One gather/scatter piece after validation. */
struct mlx5dm_sim_piece {
	struct mlx5dm_sim_mr *mr;       /* NULL: inline data at host pointer */
	uint64_t addr;                  /* VA (host MR), offset (DM MR) */
	const uint8_t *inl;
	uint32_t len;
};

struct mlx5dm_sim_wqe {
	const uint8_t *b;               /* the WQE: in the SQ, or in buf if it wraps */
	uint8_t buf[MLX5DM_SIM_WQE_MAX];
	uint8_t opcode, opmod;
	uint16_t index;
	uint32_t ds, qpn;
};

/*
 * Remote targets of RDMA WRITEs that passed the remote checks (remote QP,
 * rkey, PD, MR access, the QP's rwe) in this doorbell: the executor holds
 * sim->lock for reading from the first WQE to the last, so no MR, QP or PD
 * changes meanwhile and a check passed once holds for every later WQE
 * naming the same rkey. Only the range is left to check per WQE. Direct-
 * mapped by MR index; a key that fails is never cached (its WQE takes the
 * general path, which reports the error).
 */
#define MLX5DM_SIM_TGT_SLOTS 8

struct mlx5dm_sim_tgt {
	uint32_t key;                   /* see mlx5dm_sim_tgt_reset() for an empty slot */
	bool icm;                       /* a DM MR: stores go through the line seqlocks */
	uint8_t *base;                  /* host address of RDMA address start */
	uint64_t start, len;            /* the MR's RDMA address range */
};

/* WQEs whose ICM lines are being loaded ahead of the one executing. */
#define MLX5DM_SIM_PREFETCH_AHEAD 32
/* WQEBBs loaded ahead of the WQE those hints read next (twice as many). */
#define MLX5DM_SIM_SQ_LINES_AHEAD (2 * MLX5DM_SIM_PREFETCH_AHEAD)

/* One doorbell's execution of a QP. */
struct mlx5dm_sim_exec {
	struct mlx5dm_sim *sim;
	struct mlx5dm_sim_qp *qp;
	uint16_t pi;                    /* the producer counter executed up to */
	uint16_t ahead;                 /* the next WQE (WQEBB counter) to prefetch for */
	struct mlx5dm_sim_tgt tgt[MLX5DM_SIM_TGT_SLOTS];
};

static void
mlx5dm_sim_sq_copy(const struct mlx5dm_sim_qp *qp, uint32_t off, uint8_t *dst, uint32_t len)
{
	while (len > 0) {
		uint32_t o = off & (qp->sq_bytes - 1); /* a power of two */
		uint32_t n = MLX5DM_MIN(len, qp->sq_bytes - o);

		memcpy(dst, qp->sq + o, n);
		dst += n;
		off += n;
		len -= n;
	}
}

/* Host address or region offset of [addr, addr + len) in an MR; false if outside. */
static bool
mlx5dm_sim_mr_range(const struct mlx5dm_sim_mr *mr, uint64_t addr, uint64_t len)
{
	uint64_t start = mr->dm != NULL ? 0 : (uintptr_t)mr->mr.addr;

	return addr >= start && addr - start <= mr->mr.length &&
	       len <= mr->mr.length - (addr - start);
}

static void
mlx5dm_sim_mr_write(struct mlx5dm_sim *sim, const struct mlx5dm_sim_mr *mr, uint64_t addr,
		    const void *src, uint32_t len)
{
	if (mr->dm != NULL)
		mlx5dm_sim_region_write(sim, mr->dm->region, mr->dm_off + addr, src, len);
	else
		memcpy((void *)(uintptr_t)addr, src, len);
}

static void
mlx5dm_sim_mr_read(struct mlx5dm_sim *sim, const struct mlx5dm_sim_mr *mr, uint64_t addr,
		   void *dst, uint32_t len)
{
	if (mr->dm != NULL)
		mlx5dm_sim_region_read(sim, mr->dm->region, mr->dm_off + addr, dst, len);
	else
		memcpy(dst, (const void *)(uintptr_t)addr, len);
}

/* Decode and check the local data segments; 0 or an error code. */
static int
mlx5dm_sim_wqe_pieces(struct mlx5dm_sim *sim, const struct mlx5dm_sim_qp *qp,
		      const struct mlx5dm_sim_wqe *w, bool scatter,
		      struct mlx5dm_sim_piece *p, unsigned int *np, uint64_t *total)
{
	uint32_t at = 32, end = w->ds * MLX5DM_SIM_WQE_DS;
	unsigned int n = 0;

	*total = 0;
	if (at < end && !scatter &&
	    (mlx5dm_prm_be32(w->b + at) & MLX5DM_SIM_INLINE_FLAG)) {
		uint32_t len = mlx5dm_prm_be32(w->b + at) & ~MLX5DM_SIM_INLINE_FLAG;

		if (len > end - at - 4)
			return MLX5DM_SIM_ERR(MLX5DM_SIM_SYND_LOCAL_LENGTH, MLX5DM_SIM_WHY_FORMAT);
		p[0] = (struct mlx5dm_sim_piece){ .inl = w->b + at + 4, .len = len };
		*np = 1;
		*total = len;
		return 0;
	}
	for (; at + MLX5DM_SIM_WQE_DS <= end; at += MLX5DM_SIM_WQE_DS, n++) {
		const uint8_t *s = w->b + at;
		uint32_t len = (uint32_t)mlx5dm_prm_fget(s, MLX5DM_SIM_DSEG_BYTE_COUNT);
		struct mlx5dm_sim_mr *mr = mlx5dm_sim_mr_lookup(sim,
				(uint32_t)mlx5dm_prm_fget(s, MLX5DM_SIM_DSEG_LKEY));
		uint64_t addr = mlx5dm_prm_fget(s, MLX5DM_SIM_DSEG_ADDR);

		if (len == 0 || (len & MLX5DM_SIM_INLINE_FLAG))
			return MLX5DM_SIM_ERR(MLX5DM_SIM_SYND_LOCAL_LENGTH, MLX5DM_SIM_WHY_FORMAT);
		if (mr == NULL || mr->pd != qp->pd)
			return MLX5DM_SIM_ERR(MLX5DM_SIM_SYND_LOCAL_PROT, MLX5DM_SIM_WHY_LKEY);
		if (!mlx5dm_sim_mr_range(mr, addr, len))
			return MLX5DM_SIM_ERR(MLX5DM_SIM_SYND_LOCAL_PROT, MLX5DM_SIM_WHY_LRANGE);
		if (scatter && !(mr->access & IBV_ACCESS_LOCAL_WRITE))
			return MLX5DM_SIM_ERR(MLX5DM_SIM_SYND_LOCAL_PROT, MLX5DM_SIM_WHY_LACCESS);
		p[n] = (struct mlx5dm_sim_piece){ .mr = mr, .addr = addr, .len = len };
		*total += len;
	}
	*np = n;
	return 0;
}

/* The MR named by rkey, checked as a remote target of qp (but for its range); 0 or error. */
static int
mlx5dm_sim_remote_mr(struct mlx5dm_sim *sim, const struct mlx5dm_sim_qp *qp, uint32_t rkey,
		     bool write, struct mlx5dm_sim_mr **out)
{
	struct mlx5dm_sim_qp *rqp = mlx5dm_sim_obj_get(sim, MLX5DM_SIM_K_QP, qp->remote_qpn);
	struct mlx5dm_sim_mr *mr = mlx5dm_sim_mr_lookup(sim, rkey);
	unsigned int right = write ? IBV_ACCESS_REMOTE_WRITE : IBV_ACCESS_REMOTE_READ;

	if (rqp == NULL)
		return MLX5DM_SIM_ERR(MLX5DM_SIM_SYND_REMOTE_ACCESS, MLX5DM_SIM_WHY_RQP);
	if (mr == NULL || mr->pd != rqp->pd)
		return MLX5DM_SIM_ERR(MLX5DM_SIM_SYND_REMOTE_ACCESS, MLX5DM_SIM_WHY_RKEY);
	if (!(mr->access & right) || !(write ? rqp->rwe : rqp->rre))
		return MLX5DM_SIM_ERR(MLX5DM_SIM_SYND_REMOTE_ACCESS, MLX5DM_SIM_WHY_RACCESS);
	*out = mr;
	return 0;
}

/* The remote MR of an RDMA WQE, checked for [va, va + len) and the right; 0 or error. */
static int
mlx5dm_sim_wqe_remote(struct mlx5dm_sim *sim, const struct mlx5dm_sim_qp *qp,
		      const struct mlx5dm_sim_wqe *w, uint64_t len, bool write,
		      struct mlx5dm_sim_mr **out)
{
	const uint8_t *ra = w->b + 16;
	struct mlx5dm_sim_mr *mr;
	int err;

	err = mlx5dm_sim_remote_mr(sim, qp, (uint32_t)mlx5dm_prm_fget(ra, MLX5DM_SIM_RADDR_RKEY),
				   write, &mr);
	if (err != 0)
		return err;
	if (!mlx5dm_sim_mr_range(mr, mlx5dm_prm_fget(ra, MLX5DM_SIM_RADDR_VA), len))
		return MLX5DM_SIM_ERR(MLX5DM_SIM_SYND_REMOTE_ACCESS, MLX5DM_SIM_WHY_RRANGE);
	*out = mr;
	return 0;
}

/* RDMA WRITE or READ; 0 or an error code. */
static int
mlx5dm_sim_wqe_rdma(struct mlx5dm_sim *sim, const struct mlx5dm_sim_qp *qp,
		    const struct mlx5dm_sim_wqe *w, bool write, uint32_t *byte_cnt)
{
	struct mlx5dm_sim_piece p[MLX5DM_SIM_MAX_SEGS];
	struct mlx5dm_sim_mr *rmr;
	uint8_t bounce[256];
	uint64_t total, va;
	unsigned int np, i;
	int err;

	if (w->ds < 2)
		return MLX5DM_SIM_ERR(MLX5DM_SIM_SYND_LOCAL_LENGTH, MLX5DM_SIM_WHY_FORMAT);
	err = mlx5dm_sim_wqe_pieces(sim, qp, w, !write, p, &np, &total);
	if (err == 0)
		err = mlx5dm_sim_wqe_remote(sim, qp, w, total, write, &rmr);
	if (err != 0)
		return err;
	va = mlx5dm_prm_fget(w->b + 16, MLX5DM_SIM_RADDR_VA);
	for (i = 0; i < np; i++) {
		uint32_t done = 0;

		while (done < p[i].len) {
			uint32_t n = p[i].len - done;

			if (p[i].inl != NULL) {
				mlx5dm_sim_mr_write(sim, rmr, va, p[i].inl + done, n);
			} else if (p[i].mr->dm == NULL) {
				/* Host memory on the local side: copy straight to/from it. */
				uint8_t *h = (uint8_t *)(uintptr_t)(p[i].addr + done);

				if (write)
					mlx5dm_sim_mr_write(sim, rmr, va, h, n);
				else
					mlx5dm_sim_mr_read(sim, rmr, va, h, n);
			} else {
				n = MLX5DM_MIN(n, (uint32_t)sizeof(bounce));
				uint64_t la = p[i].addr + done;

				if (write) {
					mlx5dm_sim_mr_read(sim, p[i].mr, la, bounce, n);
					mlx5dm_sim_mr_write(sim, rmr, va, bounce, n);
				} else {
					mlx5dm_sim_mr_read(sim, rmr, va, bounce, n);
					mlx5dm_sim_mr_write(sim, p[i].mr, la, bounce, n);
				}
			}
			done += n;
			va += n;
		}
	}
	/* Like verbs' byte_len, the byte count is reported for READs only. */
	*byte_cnt = write ? 0 : (uint32_t)total;
	return 0;
}

/* Check rkey as an RDMA WRITE target and cache it in t; NULL if any check fails. */
static const struct mlx5dm_sim_tgt *
mlx5dm_sim_tgt_fill(struct mlx5dm_sim_exec *x, struct mlx5dm_sim_tgt *t, uint32_t rkey)
{
	struct mlx5dm_sim *sim = x->sim;
	struct mlx5dm_sim_mr *mr;

	/* The checks of the general path, but the range (a failure takes that path). */
	if (mlx5dm_sim_remote_mr(sim, x->qp, rkey, true, &mr) != 0)
		return NULL;
	t->start = mr->dm != NULL ? 0 : (uintptr_t)mr->mr.addr;
	/* A range that wraps past 2^64 (a bogus host MR) is left to the general path. */
	if (mr->mr.length > UINT64_MAX - t->start)
		return NULL;
	t->key = rkey;
	t->icm = mr->dm != NULL;
	t->base = t->icm ? sim->region[mr->dm->region].base + mr->dm_off : (uint8_t *)mr->mr.addr;
	t->len = mr->mr.length;
	return t;
}

static inline unsigned int
mlx5dm_sim_tgt_slot(uint32_t rkey)
{
	return (rkey >> 8) % MLX5DM_SIM_TGT_SLOTS; /* the MR index part of the key */
}

/* Empty the cache: an empty slot holds a key that cannot map to it, so it never matches. */
static void
mlx5dm_sim_tgt_reset(struct mlx5dm_sim_exec *x)
{
	unsigned int i;

	for (i = 0; i < MLX5DM_SIM_TGT_SLOTS; i++)
		x->tgt[i].key = ((i + 1) % MLX5DM_SIM_TGT_SLOTS) << 8;
}

static inline const struct mlx5dm_sim_tgt *
mlx5dm_sim_tgt_get(struct mlx5dm_sim_exec *x, uint32_t rkey)
{
	struct mlx5dm_sim_tgt *t = &x->tgt[mlx5dm_sim_tgt_slot(rkey)];

	if (MLX5DM_LIKELY(t->key == rkey))
		return t;
	return mlx5dm_sim_tgt_fill(x, t, rkey);
}

/*
 * The common shape: an RDMA WRITE of this QP with its data inline, to a
 * target that passes every check. Executed here without the general
 * path's segment list; false (nothing done) for anything else, which the
 * general path then executes or refuses with the exact reason. c: the
 * first three dwords of the control segment at b.
 */
static inline bool
mlx5dm_sim_wqe_fast(struct mlx5dm_sim_exec *x, const uint32_t *c, const uint8_t *b)
{
	uint32_t ds = mlx5dm_sim_dw_get(c, MLX5DM_SIM_CTRL_DS);
	const uint8_t *ra = b + 16, *seg = b + 32;
	const struct mlx5dm_sim_tgt *t;
	uint32_t hdr, len;
	uint64_t va, off;

	if (mlx5dm_sim_dw_get(c, MLX5DM_SIM_CTRL_OPCODE) != MLX5DM_SIM_WQE_RDMA_WRITE ||
	    mlx5dm_sim_dw_get(c, MLX5DM_SIM_CTRL_QPN) != x->qp->h.id || ds < 3)
		return false;
	hdr = mlx5dm_prm_be32(seg);
	len = hdr & ~MLX5DM_SIM_INLINE_FLAG;
	if (!(hdr & MLX5DM_SIM_INLINE_FLAG) || len > ds * MLX5DM_SIM_WQE_DS - 32 - 4)
		return false;
	t = mlx5dm_sim_tgt_get(x, (uint32_t)mlx5dm_prm_fget(ra, MLX5DM_SIM_RADDR_RKEY));
	if (t == NULL)
		return false;
	/*
	 * The range check of mlx5dm_sim_mr_range(): as the target's range does
	 * not wrap, a va below its start wraps off past its length.
	 */
	va = mlx5dm_prm_fget(ra, MLX5DM_SIM_RADDR_VA);
	off = va - t->start;
	if (off > t->len || len > t->len - off)
		return false;
	if (t->icm)
		mlx5dm_sim_icm_put(x->sim, t->base + off, seg + 4, len);
	else
		memcpy(t->base + off, seg + 4, len);
	return true;
}

/* The general path: any WQE, every check, the exact error. */
static int
mlx5dm_sim_wqe_exec(struct mlx5dm_sim_exec *x, const struct mlx5dm_sim_wqe *w,
		    uint32_t *byte_cnt)
{
	struct mlx5dm_sim *sim = x->sim;
	const struct mlx5dm_sim_qp *qp = x->qp;

	if (w->qpn != qp->h.id)
		return MLX5DM_SIM_ERR(MLX5DM_SIM_SYND_LOCAL_QP_OP, MLX5DM_SIM_WHY_QPN);
	switch (w->opcode) {
	case MLX5DM_SIM_WQE_NOP:
		return 0;
	case MLX5DM_SIM_WQE_RDMA_WRITE:
		return mlx5dm_sim_wqe_rdma(sim, qp, w, true, byte_cnt);
	case MLX5DM_SIM_WQE_RDMA_READ:
		return mlx5dm_sim_wqe_rdma(sim, qp, w, false, byte_cnt);
	case MLX5DM_SIM_WQE_FLOW_TBL_ACCESS: {
		int synd;

		if (w->opmod != MLX5DM_SIM_WQE_OPMOD_ARG_UPDATE || w->ds != MLX5DM_SIM_ARG_WQE_DS)
			return MLX5DM_SIM_ERR(MLX5DM_SIM_SYND_LOCAL_QP_OP, MLX5DM_SIM_WHY_OPCODE);
		synd = mlx5dm_sim_arg_write(sim, (uint32_t)mlx5dm_prm_fget(w->b,
					    MLX5DM_SIM_CTRL_IMM), qp->pd->h.id,
					    w->b + MLX5DM_SIM_ARG_WQE_DATA_BYTE);
		if (synd == 0)
			return 0;
		return MLX5DM_SIM_ERR(synd, synd == MLX5DM_SIM_SYND_LOCAL_PROT ?
				      MLX5DM_SIM_WHY_ARG_PD : MLX5DM_SIM_WHY_ARG);
	}
	default:
		return MLX5DM_SIM_ERR(MLX5DM_SIM_SYND_LOCAL_QP_OP, MLX5DM_SIM_WHY_OPCODE);
	}
}

uint8_t *
mlx5dm_sim_cq_claim(struct mlx5dm_sim_cq *cq, uint8_t img[MLX5DM_SIM_CQE_BYTES])
{
	uint32_t ci, size = 1u << cq->log_size;
	uint8_t *slot;

	/*
	 * The consumer index only moves forward: the record, a line the
	 * consumer keeps writing, is read again only when the last value read
	 * says the ring is full.
	 */
	ci = cq->ci;
	if (!cq->overrun && ((cq->pc - ci) & 0xffffff) >= size) {
		ci = mlx5dm_sim_dbr_get(cq->dbr) & 0xffffff;
		cq->ci = ci;
	}
	if (cq->overrun || ((cq->pc - ci) & 0xffffff) >= size) {
		if (!cq->overrun)
			MLX5DM_LOG(ERR, MLX5DM_SIM_LOG, "CQ 0x%x overrun (consumer index %u)",
				   cq->h.id, ci);
		cq->overrun = true;
		cq->overruns++;
		return NULL;
	}
	mlx5dm_prm_fset(img, MLX5DM_SIM_CQE_OWNER, (cq->pc >> cq->log_size) & 1);
	slot = cq->buf + (size_t)(cq->pc & (size - 1)) * MLX5DM_SIM_CQE_BYTES;
	cq->pc++;
	return slot;
}

void
mlx5dm_sim_cq_put(uint8_t *slot, const uint8_t img[MLX5DM_SIM_CQE_BYTES])
{
	/* Body first, then op_own: a poller that sees the new owner sees the whole CQE. */
	memcpy(slot, img, MLX5DM_SIM_CQE_BYTES - 1);
	__atomic_store_n(&slot[MLX5DM_SIM_CQE_BYTES - 1], img[MLX5DM_SIM_CQE_BYTES - 1],
			 __ATOMIC_RELEASE);
}

int
mlx5dm_sim_cq_push(struct mlx5dm_sim_cq *cq, uint8_t img[MLX5DM_SIM_CQE_BYTES])
{
	/*
	 * A CQ one queue writes to has one writer at a time already (that
	 * queue's thread or lock), and its users change only by commands,
	 * which run between the device's batches: no lock, whose atomic
	 * would wait for every store before it into the driver's lines.
	 */
	bool shared = mlx5dm_sim_cq_shared(cq);
	uint8_t *slot;

	if (shared)
		mlx5dm_spinlock_lock(&cq->lock);
	slot = mlx5dm_sim_cq_claim(cq, img);
	if (slot != NULL)
		mlx5dm_sim_cq_put(slot, img);
	if (shared)
		mlx5dm_spinlock_unlock(&cq->lock);
	return slot != NULL ? 0 : -ENOSPC;
}

/*
 * Write the CQE of the WQE whose control segment dwords are c; -ENOSPC on
 * overrun. err = 0 for a good completion. Off the common path.
 */
static int
mlx5dm_sim_cqe_put(struct mlx5dm_sim_cq *cq, uint32_t qpn, const uint32_t *c, int err,
		   uint32_t byte_cnt)
{
	uint8_t img[MLX5DM_SIM_CQE_BYTES];

	memset(img, 0, sizeof(img));
	mlx5dm_prm_fset(img, MLX5DM_SIM_CQE_SOP_OPCODE,
			mlx5dm_sim_dw_get(c, MLX5DM_SIM_CTRL_OPCODE));
	mlx5dm_prm_fset(img, MLX5DM_SIM_CQE_QPN, qpn);
	mlx5dm_prm_fset(img, MLX5DM_SIM_CQE_WQE_COUNTER,
			mlx5dm_sim_dw_get(c, MLX5DM_SIM_CTRL_WQE_INDEX));
	if (err != 0) {
		mlx5dm_prm_fset(img, MLX5DM_SIM_CQE_SYNDROME, (uint32_t)err >> 8);
		mlx5dm_prm_fset(img, MLX5DM_SIM_CQE_VENDOR_SYND, (uint32_t)err & 0xff);
		mlx5dm_prm_fset(img, MLX5DM_SIM_CQE_OPCODE, MLX5DM_SIM_CQE_REQ_ERR);
	} else {
		mlx5dm_prm_fset(img, MLX5DM_SIM_CQE_BYTE_CNT, byte_cnt);
		mlx5dm_prm_fset(img, MLX5DM_SIM_CQE_OPCODE, MLX5DM_SIM_CQE_REQ);
	}
	return mlx5dm_sim_cq_push(cq, img);
}

/* WQEBB pos (a producer count) of qp's SQ. */
static inline const uint8_t *
mlx5dm_sim_sq_line(const struct mlx5dm_sim_qp *qp, uint32_t pos)
{
	return qp->sq + (pos & (qp->sq_bytes / MLX5DM_SIM_WQEBB - 1)) * MLX5DM_SIM_WQEBB;
}

/*
 * Start loading the ICM lines the RDMA WRITEs of the next n WQEs from
 * x->ahead on land on, moving x->ahead past them (up to the producer
 * counter). Each is usually a miss somewhere in a large table, and the
 * line stores (each behind a seqlock, whose atomic waits for the stores
 * before it) would otherwise wait for them one by one: the executor keeps
 * MLX5DM_SIM_PREFETCH_AHEAD WQEs loading ahead of the one it executes,
 * however long the batch. Only a hint: nothing is written here, and the
 * targets it checks are the ones the WQEs need next anyway.
 */
static inline void
mlx5dm_sim_sq_prefetch(struct mlx5dm_sim_exec *x, unsigned int n)
{
	const struct mlx5dm_sim_qp *qp = x->qp;

	for (; n > 0 && x->ahead != x->pi; n--) {
		const uint8_t *ctrl = mlx5dm_sim_sq_line(qp, x->ahead);
		const struct mlx5dm_sim_tgt *t;
		uint32_t c[2];
		uint16_t bb;
		uint64_t off;

		/*
		 * Each WQE's size is in its first line, which the host has
		 * just written: a miss that ends a chain of them. The lines
		 * further on are loaded by address, so they do not wait.
		 */
		if ((uint16_t)(x->pi - x->ahead) > MLX5DM_SIM_SQ_LINES_AHEAD + 1) {
			__builtin_prefetch(mlx5dm_sim_sq_line(qp, x->ahead +
							      MLX5DM_SIM_SQ_LINES_AHEAD));
			__builtin_prefetch(mlx5dm_sim_sq_line(qp, x->ahead +
							      MLX5DM_SIM_SQ_LINES_AHEAD + 1));
		}
		mlx5dm_sim_dw_load(c, ctrl, MLX5DM_ARRAY_SIZE(c));
		bb = mlx5dm_sim_wqe_bbs(mlx5dm_sim_dw_get(c, MLX5DM_SIM_CTRL_DS));
		/* Its raddr segment is in the WQEBB even if ds says there is none: a hint. */
		if (mlx5dm_sim_dw_get(c, MLX5DM_SIM_CTRL_OPCODE) == MLX5DM_SIM_WQE_RDMA_WRITE) {
			t = mlx5dm_sim_tgt_get(x, (uint32_t)mlx5dm_prm_fget(ctrl + 16,
							MLX5DM_SIM_RADDR_RKEY));
			off = mlx5dm_prm_fget(ctrl + 16, MLX5DM_SIM_RADDR_VA) -
			      (t != NULL ? t->start : 0);
			if (t != NULL && off < t->len)
				__builtin_prefetch(t->base + off, 1);
		}
		/* A WQE that ends past the producer counter ends the hints. */
		x->ahead = bb > (uint16_t)(x->pi - x->ahead) ? x->pi :
			   (uint16_t)(x->ahead + bb);
	}
}

/* The WQE fields the general path uses, from the control segment's dwords. */
static inline void
mlx5dm_sim_wqe_ctrl(struct mlx5dm_sim_wqe *w, const uint32_t *c)
{
	w->opmod = (uint8_t)mlx5dm_sim_dw_get(c, MLX5DM_SIM_CTRL_OPMOD);
	w->opcode = (uint8_t)mlx5dm_sim_dw_get(c, MLX5DM_SIM_CTRL_OPCODE);
	w->index = (uint16_t)mlx5dm_sim_dw_get(c, MLX5DM_SIM_CTRL_WQE_INDEX);
	w->ds = mlx5dm_sim_dw_get(c, MLX5DM_SIM_CTRL_DS);
	w->qpn = mlx5dm_sim_dw_get(c, MLX5DM_SIM_CTRL_QPN);
}

/* A CQE when the WQE failed or asks for one; an error (or overrun) moves the QP to ERR. */
static inline void
mlx5dm_sim_sq_complete(struct mlx5dm_sim_qp *qp, const uint32_t *c, int err,
		       uint32_t byte_cnt, uint32_t *state)
{
	if (MLX5DM_UNLIKELY(err != 0 || (mlx5dm_sim_dw_get(c, MLX5DM_SIM_CTRL_FM_CE_SE) &
					 MLX5DM_SIM_CTRL_CE_CQ_UPDATE))) {
		if (mlx5dm_sim_cqe_put(qp->scq, qp->h.id, c, err, byte_cnt) != 0)
			err = -1;
	}
	if (MLX5DM_UNLIKELY(err != 0) && *state != MLX5DM_SIM_QPS_ERR) {
		*state = MLX5DM_SIM_QPS_ERR;
		__atomic_store_n(&qp->state, *state, __ATOMIC_RELEASE);
	}
}

/*
 * Execute the WQEs from ctr on while they have the common shape and the
 * QP is in RTS; returns the counter of the first one not executed (pi
 * when all were). What it leaves, the general loop takes.
 */
static uint16_t
mlx5dm_sim_sq_run_fast(struct mlx5dm_sim_exec *x, uint16_t ctr, uint16_t pi, uint32_t *state)
{
	struct mlx5dm_sim_qp *qp = x->qp;
	uint16_t mask = (uint16_t)(qp->sq_bytes / MLX5DM_SIM_WQEBB - 1);

	/* The general path may have executed past the hints: they go on from here. */
	if ((uint16_t)(pi - x->ahead) > (uint16_t)(pi - ctr))
		x->ahead = ctr;
	/* An armed fault injection counts every WQE: the general path does. */
	while (ctr != pi && *state == MLX5DM_SIM_QPS_RTS &&
	       __atomic_load_n(&x->sim->sq_fail_in, __ATOMIC_RELAXED) == 0) {
		uint32_t off = (uint32_t)(ctr & mask) * MLX5DM_SIM_WQEBB;
		const uint8_t *ctrl = qp->sq + off;
		uint32_t c[3], ds;
		uint16_t bb;

		mlx5dm_sim_dw_load(c, ctrl, MLX5DM_ARRAY_SIZE(c));
		ds = mlx5dm_sim_dw_get(c, MLX5DM_SIM_CTRL_DS);
		bb = mlx5dm_sim_wqe_bbs(ds);
		/* Whole (rung up to its end) and in place (not wrapping past the SQ's end). */
		if (bb > (uint16_t)(pi - ctr) || off + ds * MLX5DM_SIM_WQE_DS > qp->sq_bytes ||
		    !mlx5dm_sim_wqe_fast(x, c, ctrl))
			break;
		ctr = (uint16_t)(ctr + bb);
		mlx5dm_sim_sq_complete(qp, c, 0, 0, state);
		mlx5dm_sim_sq_prefetch(x, 1);
	}
	return ctr;
}

void
mlx5dm_sim_sq_fail_at(struct mlx5dm_sim *sim, uint64_t n)
{
	__atomic_store_n(&sim->sq_fail_in, n, __ATOMIC_RELAXED);
}

/* Count a WQE against an armed injection; true for the one that fails. */
static bool
mlx5dm_sim_sq_injected(struct mlx5dm_sim *sim)
{
	uint64_t n = __atomic_load_n(&sim->sq_fail_in, __ATOMIC_RELAXED);

	while (n != 0) {
		if (__atomic_compare_exchange_n(&sim->sq_fail_in, &n, n - 1, false,
						__ATOMIC_RELAXED, __ATOMIC_RELAXED))
			return n == 1;
	}
	return false;
}

uint16_t
mlx5dm_sim_sq_exec(struct mlx5dm_sim *sim, struct mlx5dm_sim_qp *qp)
{
	uint32_t state = __atomic_load_n(&qp->state, __ATOMIC_ACQUIRE);
	uint16_t mask = (uint16_t)(qp->sq_bytes / MLX5DM_SIM_WQEBB - 1);
	struct mlx5dm_sim_exec x;
	struct mlx5dm_sim_wqe w;
	uint16_t pi, ctr, start;

	if (state != MLX5DM_SIM_QPS_RTS && state != MLX5DM_SIM_QPS_ERR)
		return 0; /* the SQ is processed from RTS on */
	/* SQ producer counter: big-endian, second word of the doorbell record. */
	pi = (uint16_t)mlx5dm_sim_dbr_get(qp->dbr + 4);
	ctr = qp->hw_ctr;
	if (ctr == pi)
		return 0;
	start = ctr;
	x.sim = sim;
	x.qp = qp;
	x.pi = pi;
	x.ahead = ctr;
	mlx5dm_sim_tgt_reset(&x);
	if ((uint16_t)(pi - ctr) > 2) {
		uint16_t i, n = MLX5DM_MIN((uint16_t)(pi - ctr), MLX5DM_SIM_SQ_LINES_AHEAD + 1);

		for (i = 0; i < n; i++)
			__builtin_prefetch(mlx5dm_sim_sq_line(qp, ctr + (uint32_t)i));
		mlx5dm_sim_sq_prefetch(&x, MLX5DM_SIM_PREFETCH_AHEAD);
	} else
		x.ahead = pi; /* a WQE or two: nothing to overlap */
	for (;;) {
		uint32_t off, c[3], ds, byte_cnt = 0;
		const uint8_t *ctrl;
		uint16_t bb;
		int err;

		ctr = mlx5dm_sim_sq_run_fast(&x, ctr, pi, &state);
		if (ctr == pi)
			break;
		/* The general path, one WQE. Its control segment starts a WQEBB: it never wraps. */
		off = (uint32_t)(ctr & mask) * MLX5DM_SIM_WQEBB;
		ctrl = qp->sq + off;
		mlx5dm_sim_dw_load(c, ctrl, MLX5DM_ARRAY_SIZE(c));
		ds = mlx5dm_sim_dw_get(c, MLX5DM_SIM_CTRL_DS);
		bb = mlx5dm_sim_wqe_bbs(ds);
		if (bb > (uint16_t)(pi - ctr)) {
			err = MLX5DM_SIM_ERR(MLX5DM_SIM_SYND_LOCAL_QP_OP, MLX5DM_SIM_WHY_PARTIAL);
			bb = (uint16_t)(pi - ctr);
		} else if (state == MLX5DM_SIM_QPS_ERR) {
			err = MLX5DM_SIM_ERR(MLX5DM_SIM_SYND_WR_FLUSH, 0);
		} else if (mlx5dm_sim_sq_injected(sim)) {
			err = MLX5DM_SIM_ERR(MLX5DM_SIM_SYND_REMOTE_ACCESS,
					     MLX5DM_SIM_WHY_INJECTED);
		} else {
			/* Read in place; one that wraps past the SQ's end is put together first. */
			mlx5dm_sim_wqe_ctrl(&w, c);
			w.b = ctrl;
			if (off + ds * MLX5DM_SIM_WQE_DS > qp->sq_bytes) {
				mlx5dm_sim_sq_copy(qp, off, w.buf, ds * MLX5DM_SIM_WQE_DS);
				w.b = w.buf;
			}
			err = mlx5dm_sim_wqe_exec(&x, &w, &byte_cnt);
		}
		ctr = (uint16_t)(ctr + bb);
		mlx5dm_sim_sq_complete(qp, c, err, byte_cnt, &state);
	}
	qp->hw_ctr = ctr;
	return (uint16_t)(ctr - start);
}
