/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Helpers of the device-model unit tests: open the model through the
 * device boundary, run PRM commands, and build a send ring (CQ + RC QP via
 * DEVX) the way an upper layer does. Every mailbox field is written at its
 * literal PRM bit offset (from mlx5_ifc.h), never through lib/sim's layout
 * table, so the tests check the model's decoding independently.
 */

#ifndef _TEST_SIM_UTIL_H_
#define _TEST_SIM_UTIL_H_

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mlx5dm_dev.h"
#include "mlx5dm_prm_bits.h"
#include "mlx5dm_sim.h"
#include "mlx5dm_sim_priv.h"

#define SET(buf, bit, w, v) mlx5dm_prm_set64(buf, bit, w, v)
#define GET(buf, bit, w) mlx5dm_prm_get64(buf, bit, w)

struct tsim {
	struct mlx5dm_dev *dev;
	const struct mlx5dm_dev_ops *ops;
	struct ibv_context *ctx;
	struct mlx5dm_sim *sim;
	struct ibv_pd *pd;
	uint32_t pdn;
};

static inline int
tsim_open(struct tsim *t, const struct mlx5dm_sim_config *cfg)
{
	struct mlx5dm_dev_attr attr = { .transport = "sim", .config = cfg };
	struct mlx5dv_pd dpd = { 0 };
	struct mlx5dv_obj o;

	memset(t, 0, sizeof(*t));
	t->dev = mlx5dm_dev_open(&attr);
	if (t->dev == NULL)
		return -errno;
	t->ops = t->dev->ops;
	t->ctx = t->dev->ctx;
	t->sim = mlx5dm_sim_of(t->dev);
	t->pd = t->ops->alloc_pd(t->ctx);
	if (t->pd == NULL)
		return -errno;
	memset(&o, 0, sizeof(o));
	o.pd.in = t->pd;
	o.pd.out = &dpd;
	if (t->ops->init_obj(&o, MLX5DV_OBJ_PD) != 0)
		return -EINVAL;
	t->pdn = dpd.pdn;
	return 0;
}

static inline void
tsim_close(struct tsim *t)
{
	mlx5dm_dev_close(t->dev);
	memset(t, 0, sizeof(*t));
}

/* Output status byte and syndrome of a failed command. */
static inline uint32_t
tsim_status(const uint8_t *out)
{
	return (uint32_t)GET(out, 0x00, 8);
}

static inline uint32_t
tsim_syndrome(const uint8_t *out)
{
	return (uint32_t)GET(out, 0x20, 32);
}

/* A SW ICM DM of type with its ICM address and a zero-based MR. */
struct tdm {
	struct ibv_dm *dm;
	struct ibv_mr *mr;
	uint64_t icm;
};

static inline int
tdm_alloc(struct tsim *t, struct tdm *d, unsigned int type, size_t len)
{
	struct ibv_alloc_dm_attr a = { .length = len };
	struct mlx5dv_alloc_dm_attr ma = { .type = (enum mlx5dv_alloc_dm_type)type };
	struct mlx5dv_dm out = { .comp_mask = MLX5DV_DM_MASK_REMOTE_VA };
	struct mlx5dv_obj o;

	memset(d, 0, sizeof(*d));
	d->dm = t->ops->alloc_dm(t->ctx, &a, &ma);
	if (d->dm == NULL)
		return -errno;
	memset(&o, 0, sizeof(o));
	o.dm.in = d->dm;
	o.dm.out = &out;
	if (t->ops->init_obj(&o, MLX5DV_OBJ_DM) != 0)
		return -EINVAL;
	d->icm = out.remote_va;
	d->mr = t->ops->reg_dm_mr(t->pd, d->dm, 0, len, IBV_ACCESS_ZERO_BASED |
				  IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
				  IBV_ACCESS_REMOTE_READ);
	return d->mr == NULL ? -errno : 0;
}

static inline void
tdm_free(struct tsim *t, struct tdm *d)
{
	if (d->mr != NULL)
		t->ops->dereg_mr(d->mr);
	if (d->dm != NULL)
		t->ops->free_dm(d->dm);
	memset(d, 0, sizeof(*d));
}

/*
 * A send ring as an upper layer builds it on the model (and on hardware):
 * PD, UAR, CQ buffer + doorbell record as umems, CREATE_CQ, QP buffer
 * (RQ of 4 x 16 B, then the SQ) + doorbell record as umems, CREATE_QP
 * (RC), RST2INIT (rre, rwe), INIT2RTR (remote_qpn = itself), RTR2RTS.
 */
struct tring {
	struct tsim *t;
	struct mlx5dv_devx_uar *uar;
	struct mlx5dv_devx_umem *cq_umem, *cqdb_umem, *qp_umem, *qpdb_umem;
	struct mlx5dv_devx_obj *cq, *qp;
	uint8_t *cqbuf, *cqdb, *qpbuf, *qpdb, *sq;
	uint32_t cq_log, sq_log, cqn, qpn;
	uint32_t ci;
	uint16_t pi;
};

#define TRING_RQ_BYTES 64

static inline int
tring_modify(struct tring *r, uint16_t opcode, unsigned int rre_rwe)
{
	uint8_t in[272] = { 0 }, out[16] = { 0 };

	SET(in, 0x00, 16, opcode);
	SET(in, 0x48, 24, r->qpn);
	if (opcode == 0x502) {          /* RST2INIT: qpc.rre, qpc.rwe */
		SET(in, 0xc0 + 0x490, 1, rre_rwe & 1);
		SET(in, 0xc0 + 0x491, 1, (rre_rwe >> 1) & 1);
	} else if (opcode == 0x503) {   /* INIT2RTR: mtu 1024 (3), remote_qpn = self, fl */
		SET(in, 0xc0 + 0x40, 3, 3);
		SET(in, 0xc0 + 0xa8, 24, r->qpn);
		SET(in, 0xc0 + 0xc0, 1, 1);
	}
	return r->t->ops->devx_obj_modify(r->qp, in, sizeof(in), out, sizeof(out));
}

static inline int
tring_create(struct tsim *t, struct tring *r, uint32_t cq_log, uint32_t sq_log,
	     unsigned int rre_rwe)
{
	size_t cq_bytes = (size_t)64 << cq_log, qp_bytes = TRING_RQ_BYTES + ((size_t)64 << sq_log);
	uint8_t in[272], out[16];
	uint32_t i, eqn;

	memset(r, 0, sizeof(*r));
	r->t = t;
	r->cq_log = cq_log;
	r->sq_log = sq_log;
	r->uar = t->ops->devx_alloc_uar(t->ctx, MLX5DV_UAR_ALLOC_TYPE_NC);
	if (r->uar == NULL ||
	    posix_memalign((void **)&r->cqbuf, 4096, cq_bytes) != 0 ||
	    posix_memalign((void **)&r->qpbuf, 4096, qp_bytes) != 0 ||
	    posix_memalign((void **)&r->cqdb, 64, 64) != 0 ||
	    posix_memalign((void **)&r->qpdb, 64, 64) != 0)
		return -ENOMEM;
	memset(r->cqbuf, 0, cq_bytes);
	for (i = 0; i < (1u << cq_log); i++)
		r->cqbuf[i * 64 + 63] = 0xf0;    /* opcode INVALID, owner 0 */
	memset(r->qpbuf, 0, qp_bytes);
	memset(r->cqdb, 0, 64);
	memset(r->qpdb, 0, 64);
	r->sq = r->qpbuf + TRING_RQ_BYTES;
	r->cq_umem = t->ops->devx_umem_reg(t->ctx, r->cqbuf, cq_bytes, IBV_ACCESS_LOCAL_WRITE);
	r->cqdb_umem = t->ops->devx_umem_reg(t->ctx, r->cqdb, 8, IBV_ACCESS_LOCAL_WRITE);
	r->qp_umem = t->ops->devx_umem_reg(t->ctx, r->qpbuf, qp_bytes, IBV_ACCESS_LOCAL_WRITE);
	r->qpdb_umem = t->ops->devx_umem_reg(t->ctx, r->qpdb, 8, IBV_ACCESS_LOCAL_WRITE);
	if (r->cq_umem == NULL || r->cqdb_umem == NULL || r->qp_umem == NULL ||
	    r->qpdb_umem == NULL)
		return -errno;
	/* CREATE_CQ: cqc at byte 16. */
	memset(in, 0, sizeof(in));
	memset(out, 0, sizeof(out));
	if (t->ops->devx_query_eqn(t->ctx, 0, &eqn) != 0)
		return -EINVAL;
	SET(in, 0x00, 16, 0x400);
	SET(in, 0x80 + 0xb8, 8, eqn);                       /* c_eqn */
	SET(in, 0x80 + 0x06, 1, 1);                         /* dbr_umem_valid */
	SET(in, 0x80 + 0x08, 3, 0);                         /* cqe_sz 64 */
	SET(in, 0x80 + 0x20, 32, r->cqdb_umem->umem_id);    /* dbr_umem_id */
	SET(in, 0x80 + 0x63, 5, cq_log);                    /* log_cq_size */
	SET(in, 0x80 + 0x68, 24, r->uar->page_id);          /* uar_page */
	SET(in, 0x280, 64, 0);                              /* cq_umem_offset */
	SET(in, 0x2c0, 32, r->cq_umem->umem_id);            /* cq_umem_id */
	SET(in, 0x2e0, 1, 1);                               /* cq_umem_valid */
	r->cq = t->ops->devx_obj_create(t->ctx, in, sizeof(in), out, sizeof(out));
	if (r->cq == NULL)
		return -errno;
	r->cqn = (uint32_t)GET(out, 0x48, 24);
	/* CREATE_QP: qpc at byte 24. */
	memset(in, 0, sizeof(in));
	memset(out, 0, sizeof(out));
	SET(in, 0x00, 16, 0x500);
	SET(in, 0xc0 + 0x08, 8, 0);                         /* st RC */
	SET(in, 0xc0 + 0x13, 2, 3);                         /* pm_state migrated */
	SET(in, 0xc0 + 0x28, 24, t->pdn);                   /* pd */
	SET(in, 0xc0 + 0x49, 4, 2);                         /* log_rq_size: 4 entries */
	SET(in, 0xc0 + 0x4d, 3, 0);                         /* log_rq_stride: 16 B */
	SET(in, 0xc0 + 0x51, 4, sq_log);                    /* log_sq_size */
	SET(in, 0xc0 + 0x68, 24, r->uar->page_id);          /* uar_page */
	SET(in, 0xc0 + 0x3e8, 24, r->cqn);                  /* cqn_snd */
	SET(in, 0xc0 + 0x4e8, 24, r->cqn);                  /* cqn_rcv */
	SET(in, 0xc0 + 0x720, 32, r->qpdb_umem->umem_id);   /* dbr_umem_id */
	SET(in, 0x840, 32, r->qp_umem->umem_id);            /* wq_umem_id */
	SET(in, 0x860, 1, 1);                               /* wq_umem_valid */
	r->qp = t->ops->devx_obj_create(t->ctx, in, sizeof(in), out, sizeof(out));
	if (r->qp == NULL)
		return -errno;
	r->qpn = (uint32_t)GET(out, 0x48, 24);
	if (tring_modify(r, 0x502, rre_rwe) != 0 || tring_modify(r, 0x503, 0) != 0 ||
	    tring_modify(r, 0x504, 0) != 0)
		return -errno;
	return 0;
}

static inline void
tring_destroy(struct tring *r)
{
	const struct mlx5dm_dev_ops *ops = r->t->ops;

	if (r->qp != NULL)
		ops->devx_obj_destroy(r->qp);
	if (r->cq != NULL)
		ops->devx_obj_destroy(r->cq);
	if (r->qpdb_umem != NULL)
		ops->devx_umem_dereg(r->qpdb_umem);
	if (r->qp_umem != NULL)
		ops->devx_umem_dereg(r->qp_umem);
	if (r->cqdb_umem != NULL)
		ops->devx_umem_dereg(r->cqdb_umem);
	if (r->cq_umem != NULL)
		ops->devx_umem_dereg(r->cq_umem);
	if (r->uar != NULL)
		ops->devx_free_uar(r->uar);
	free(r->cqbuf);
	free(r->qpbuf);
	free(r->cqdb);
	free(r->qpdb);
	memset(r, 0, sizeof(*r));
}

/* Copy a WQE image of len bytes into the SQ at the producer counter, wrapping. */
static inline void
tring_put(struct tring *r, const uint8_t *wqe, size_t len)
{
	size_t sq_bytes = (size_t)64 << r->sq_log;
	size_t off = (size_t)(r->pi & ((1u << r->sq_log) - 1)) * 64, i;

	for (i = 0; i < len; i++)
		r->sq[(off + i) % sq_bytes] = wqe[i];
	r->pi = (uint16_t)(r->pi + (len + 63) / 64);
}

/* Update the SQ doorbell record and ring with the ctrl segment's first 8 bytes. */
static inline void
tring_ring(struct tring *r, const uint8_t *ctrl)
{
	uint64_t v;

	mlx5dm_prm_put_be32(r->qpdb + 4, r->pi);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	memcpy(&v, ctrl, sizeof(v));
	mlx5dm_dev_doorbell(r->uar, 0, v);
	/* The device thread would see it soon; a test wants it executed now. */
	mlx5dm_sim_sq_catch_up(r->t->sim);
}

/* Control segment: opmod, wqe index, opcode, qpn, ds, fm_ce_se, imm. */
static inline void
tring_ctrl(struct tring *r, uint8_t *w, uint8_t opmod, uint8_t opcode, uint8_t ds, bool signal,
	   uint32_t imm)
{
	SET(w, 0x00, 8, opmod);
	SET(w, 0x08, 16, r->pi);
	SET(w, 0x18, 8, opcode);
	SET(w, 0x20, 24, r->qpn);
	SET(w, 0x3a, 6, ds);
	SET(w, 0x58, 8, signal ? 0x08 : 0);
	SET(w, 0x60, 32, imm);
}

/* Next CQE if the device has written it (owner bit matches the pass), else NULL. */
static inline const uint8_t *
tring_poll(struct tring *r)
{
	const uint8_t *cqe = r->cqbuf + (size_t)(r->ci & ((1u << r->cq_log) - 1)) * 64;
	uint8_t op_own = __atomic_load_n(&cqe[63], __ATOMIC_ACQUIRE);

	if ((op_own >> 4) == 0xf || (op_own & 1) != ((r->ci >> r->cq_log) & 1))
		return NULL;
	r->ci++;
	mlx5dm_prm_put_be32(r->cqdb, r->ci & 0xffffff);
	return cqe;
}

#endif /* _TEST_SIM_UTIL_H_ */
