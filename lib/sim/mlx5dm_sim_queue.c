/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * DEVX umems and UARs, CREATE_CQ and CREATE_QP with their state machine.
 *
 * As on the kernel's DEVX path, a umem id in a CQ/QP mailbox is used
 * whether or not the *_umem_valid bit is set (the kernel sets it).
 * Supported: 64-byte CQEs; RC QPs whose WQ umem holds the RQ
 * (2^log_rq_size << (4 + log_rq_stride) bytes, none for a zero-length RQ)
 * followed by the SQ (2^log_sq_size WQEBBs of 64 bytes); doorbell records
 * in a umem at dbr_addr (QP: RQ counter then SQ counter; CQ: consumer
 * index then arm). The QP is "self-connected": INIT2RTR's remote_qpn must
 * name a QP of the same device, whose rre/rwe then govern RDMA READ/WRITE.
 * A CQ's c_eqn must name one of the model's completion EQs, as
 * mlx5dv_devx_query_eqn() gives them out (the model raises no events on
 * them).
 *
 * INIT2RTR's primary address path: force-loopback (fl) when the device
 * allows it (no_force_loopback off), else the port's own address, as
 * QUERY_ROCE_ADDRESS reports it (GID index 0, its MAC), which needs RoCE
 * enabled (roce). The port: MAC 02:00:00:00:hh:ll (hh:ll = vhca_id), GID
 * index 0 the link-local fe80::ff:fe00:hhll, RoCE v2.
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_sim_queue.h"

#define MLX5DM_SIM_UAR_PAGE 4096
#define MLX5DM_SIM_UAR_BF_OFF 0x800 /* BlueFlame/doorbell register inside the page */
#define MLX5DM_SIM_CQ_LOG_MAX 22
#define MLX5DM_SIM_SQ_LOG_MAX 15

#define MLX5DM_SIM_CONTAINER(p, type, member) \
	((type *)(void *)((uint8_t *)(p) - offsetof(type, member)))

struct mlx5dv_devx_umem *
mlx5dm_sim_devx_umem_reg(struct ibv_context *ctx, void *addr, size_t size, uint32_t access)
{
	struct mlx5dm_sim *sim = mlx5dm_sim_from_ctx(ctx);
	struct mlx5dm_sim_umem *u;

	if (addr == NULL || size == 0 ||
	    (access & ~(uint32_t)(IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
				  IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC)) != 0) {
		errno = EINVAL;
		return NULL;
	}
	pthread_rwlock_wrlock(&sim->lock);
	u = mlx5dm_sim_obj_new(sim, MLX5DM_SIM_K_UMEM, sizeof(*u));
	if (u != NULL) {
		u->addr = addr;
		u->size = size;
		u->umem.umem_id = u->h.id;
	}
	pthread_rwlock_unlock(&sim->lock);
	return u != NULL ? &u->umem : NULL;
}

int
mlx5dm_sim_devx_umem_dereg(struct mlx5dv_devx_umem *umem)
{
	struct mlx5dm_sim_umem *u;
	struct mlx5dm_sim *sim;

	if (umem == NULL)
		return errno = EINVAL;
	u = MLX5DM_SIM_CONTAINER(umem, struct mlx5dm_sim_umem, umem);
	if (mlx5dm_sim_obj_check(u, MLX5DM_SIM_K_UMEM) == NULL)
		return errno = EINVAL;
	sim = u->h.sim;
	pthread_rwlock_wrlock(&sim->lock);
	if (u->h.refs != 0) {
		pthread_rwlock_unlock(&sim->lock);
		return errno = EBUSY; /* a CQ or QP still lives in it */
	}
	mlx5dm_sim_obj_free(sim, u);
	pthread_rwlock_unlock(&sim->lock);
	return 0;
}

uint8_t *
mlx5dm_sim_umem_ptr(struct mlx5dm_sim *sim, uint32_t umem_id, uint64_t off, uint64_t len,
		    struct mlx5dm_sim_umem **umem)
{
	struct mlx5dm_sim_umem *u = mlx5dm_sim_obj_get(sim, MLX5DM_SIM_K_UMEM, umem_id);

	if (u == NULL || off > u->size || len > u->size - off)
		return NULL;
	*umem = u;
	return u->addr + off;
}

struct mlx5dv_devx_uar *
mlx5dm_sim_devx_alloc_uar(struct ibv_context *ctx, uint32_t flags)
{
	struct mlx5dm_sim *sim = mlx5dm_sim_from_ctx(ctx);
	struct mlx5dm_sim_uar *u;
	void *page;

	if (flags != MLX5DV_UAR_ALLOC_TYPE_BF && flags != MLX5DV_UAR_ALLOC_TYPE_NC) {
		errno = EINVAL;
		return NULL;
	}
	/* A real page, so a stray write to reg_addr hits memory instead of faulting. */
	page = mlx5dm_aligned_zmalloc_socket(MLX5DM_SIM_UAR_PAGE, MLX5DM_SIM_UAR_PAGE, sim->socket);
	if (page == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	pthread_rwlock_wrlock(&sim->lock);
	u = mlx5dm_sim_obj_new(sim, MLX5DM_SIM_K_UAR, sizeof(*u));
	if (u != NULL) {
		u->page = page;
		u->uar.base_addr = page;
		u->uar.reg_addr = (uint8_t *)page + MLX5DM_SIM_UAR_BF_OFF;
		u->uar.page_id = u->h.id;
	}
	pthread_rwlock_unlock(&sim->lock);
	if (u == NULL) {
		mlx5dm_free(page);
		return NULL;
	}
	return &u->uar;
}

void
mlx5dm_sim_uar_release(struct mlx5dm_sim *sim, void *obj)
{
	struct mlx5dm_sim_uar *u = obj;

	(void)sim;
	mlx5dm_free(u->page);
	u->page = NULL;
}

void
mlx5dm_sim_uar_put(struct mlx5dm_sim *sim, struct mlx5dm_sim_uar *u)
{
	if (--u->h.refs == 0 && u->freed) {
		mlx5dm_sim_uar_release(sim, u);
		mlx5dm_sim_obj_free(sim, u);
	}
}

void
mlx5dm_sim_devx_free_uar(struct mlx5dv_devx_uar *uar)
{
	struct mlx5dm_sim_uar *u;
	struct mlx5dm_sim *sim;

	if (uar == NULL)
		return;
	u = MLX5DM_SIM_CONTAINER(uar, struct mlx5dm_sim_uar, uar);
	if (mlx5dm_sim_obj_check(u, MLX5DM_SIM_K_UAR) == NULL || u->freed)
		return;
	sim = u->h.sim;
	pthread_rwlock_wrlock(&sim->lock);
	/* Queues still ring through it: keep the page until the last one goes. */
	u->freed = true;
	u->h.refs++;
	mlx5dm_sim_uar_put(sim, u);
	pthread_rwlock_unlock(&sim->lock);
}

int
mlx5dm_sim_devx_query_eqn(struct ibv_context *context, uint32_t vector, uint32_t *eqn)
{
	/* As rdma-core: 0, or the value of errno. */
	if (context == NULL || eqn == NULL || vector >= (uint32_t)context->num_comp_vectors)
		return EINVAL;
	*eqn = MLX5DM_SIM_EQN_BASE + vector;
	return 0;
}

static struct mlx5dm_sim_uar *
mlx5dm_sim_uar_get(struct mlx5dm_sim *sim, uint32_t page_id)
{
	struct mlx5dm_sim_uar *u = mlx5dm_sim_obj_get(sim, MLX5DM_SIM_K_UAR, page_id);

	return u != NULL && !u->freed ? u : NULL;
}

int
mlx5dm_sim_cmd_create_cq(struct mlx5dm_sim_cmd *c)
{
	const unsigned int ctx = MLX5DM_SIM_CQ_IN_CTX_BYTE;
	uint32_t log = (uint32_t)mlx5dm_sim_in_at(c, ctx, MLX5DM_SIM_CQC_LOG_CQ_SIZE);
	struct mlx5dm_sim_umem *bu = NULL, *du = NULL;
	struct mlx5dm_sim_uar *uar;
	struct mlx5dm_sim_cq *cq;
	uint8_t *buf, *dbr;

	if (mlx5dm_sim_in_at(c, ctx, MLX5DM_SIM_CQC_CQE_SZ) != 0)
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "only 64-byte CQEs are modelled");
	if (log > MLX5DM_SIM_CQ_LOG_MAX)
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "log_cq_size above log_max_cq_sz");
	if (mlx5dm_sim_in_at(c, ctx, MLX5DM_SIM_CQC_C_EQN) - MLX5DM_SIM_EQN_BASE >=
	    MLX5DM_SIM_COMP_VECTORS)
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "c_eqn names no completion EQ");
	uar = mlx5dm_sim_uar_get(c->sim, (uint32_t)mlx5dm_sim_in_at(c, ctx,
				 MLX5DM_SIM_CQC_UAR_PAGE));
	if (uar == NULL)
		return MLX5DM_SIM_FAIL(c, BAD_RES, "uar_page names no UAR");
	buf = mlx5dm_sim_umem_ptr(c->sim, (uint32_t)mlx5dm_sim_in(c, MLX5DM_SIM_CQ_IN_UMEM_ID),
				  mlx5dm_sim_in(c, MLX5DM_SIM_CQ_IN_UMEM_OFFSET),
				  (uint64_t)MLX5DM_SIM_CQE_BYTES << log, &bu);
	if (buf == NULL)
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "CQ buffer outside its umem");
	dbr = mlx5dm_sim_umem_ptr(c->sim, (uint32_t)mlx5dm_sim_in_at(c, ctx,
				  MLX5DM_SIM_CQC_DBR_UMEM_ID),
				  mlx5dm_sim_in_at(c, ctx, MLX5DM_SIM_CQC_DBR_ADDR), 8, &du);
	if (dbr == NULL)
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "CQ doorbell outside its umem");
	cq = mlx5dm_sim_obj_new(c->sim, MLX5DM_SIM_K_CQ, sizeof(*cq));
	if (cq == NULL)
		return MLX5DM_SIM_FAIL(c, NO_RES, "out of CQs");
	cq->buf_umem = bu;
	cq->dbr_umem = du;
	cq->uar = uar;
	cq->buf = buf;
	cq->dbr = dbr;
	cq->log_size = log;
	mlx5dm_spinlock_init(&cq->lock);
	bu->h.refs++;
	du->h.refs++;
	uar->h.refs++;
	mlx5dm_sim_out(c, MLX5DM_SIM_OUT_OBJ_NUM, cq->h.id);
	c->obj = &cq->h;
	return MLX5DM_SIM_ST_OK;
}

int
mlx5dm_sim_cmd_destroy_cq(struct mlx5dm_sim_cmd *c)
{
	struct mlx5dm_sim_cq *cq = (struct mlx5dm_sim_cq *)c->obj;
	int st = mlx5dm_sim_cmd_destroy_check(c, MLX5DM_SIM_K_CQ);

	if (st != MLX5DM_SIM_ST_OK)
		return st; /* a QP or an RQ still uses it */
	cq->buf_umem->h.refs--;
	cq->dbr_umem->h.refs--;
	mlx5dm_sim_uar_put(c->sim, cq->uar);
	mlx5dm_spinlock_destroy(&cq->lock);
	mlx5dm_sim_obj_free(c->sim, cq);
	return MLX5DM_SIM_ST_OK;
}

/* The QP's queues inside its umems; 0 or a failed status. */
static int
mlx5dm_sim_qp_buffers(struct mlx5dm_sim_cmd *c, const uint8_t *qpc, struct mlx5dm_sim_qp *qp)
{
	uint32_t log_sq = (uint32_t)mlx5dm_prm_fget(qpc, MLX5DM_SIM_QPC_LOG_SQ_SIZE);
	uint64_t rq_bytes = 0;
	uint8_t *wq;

	if (mlx5dm_prm_fget(qpc, MLX5DM_SIM_QPC_RQ_TYPE) != MLX5DM_SIM_QP_RQ_ZERO_LEN)
		rq_bytes = (1ull << mlx5dm_prm_fget(qpc, MLX5DM_SIM_QPC_LOG_RQ_SIZE)) <<
			   (4 + mlx5dm_prm_fget(qpc, MLX5DM_SIM_QPC_LOG_RQ_STRIDE));
	if (log_sq > MLX5DM_SIM_SQ_LOG_MAX)
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "log_sq_size above log_max_qp_sz");
	qp->sq_bytes = MLX5DM_SIM_WQEBB << log_sq;
	wq = mlx5dm_sim_umem_ptr(c->sim, (uint32_t)mlx5dm_sim_in(c, MLX5DM_SIM_QP_IN_WQ_UMEM_ID),
				 mlx5dm_sim_in(c, MLX5DM_SIM_QP_IN_WQ_UMEM_OFFSET),
				 rq_bytes + qp->sq_bytes, &qp->wq_umem);
	if (wq == NULL)
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "RQ + SQ outside the WQ umem");
	qp->sq = wq + rq_bytes;
	qp->dbr = mlx5dm_sim_umem_ptr(c->sim,
				      (uint32_t)mlx5dm_prm_fget(qpc, MLX5DM_SIM_QPC_DBR_UMEM_ID),
				      mlx5dm_prm_fget(qpc, MLX5DM_SIM_QPC_DBR_ADDR), 8,
				      &qp->dbr_umem);
	if (qp->dbr == NULL)
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "doorbell record outside its umem");
	return MLX5DM_SIM_ST_OK;
}

int
mlx5dm_sim_cmd_create_qp(struct mlx5dm_sim_cmd *c)
{
	const uint8_t *qpc = c->in + MLX5DM_SIM_QP_IN_QPC_BYTE;
	struct mlx5dm_sim_qp q, *qp;
	int st;

	memset(&q, 0, sizeof(q));
	if (mlx5dm_prm_fget(qpc, MLX5DM_SIM_QPC_ST) != MLX5DM_SIM_QP_ST_RC)
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "only RC QPs are modelled");
	if (mlx5dm_prm_fget(qpc, MLX5DM_SIM_QPC_NO_SQ))
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "a QP without SQ is useless here");
	q.pd = mlx5dm_sim_obj_get(c->sim, MLX5DM_SIM_K_PD,
				  (uint32_t)mlx5dm_prm_fget(qpc, MLX5DM_SIM_QPC_PD));
	q.uar = mlx5dm_sim_uar_get(c->sim, (uint32_t)mlx5dm_prm_fget(qpc, MLX5DM_SIM_QPC_UAR_PAGE));
	q.scq = mlx5dm_sim_obj_get(c->sim, MLX5DM_SIM_K_CQ,
				   (uint32_t)mlx5dm_prm_fget(qpc, MLX5DM_SIM_QPC_CQN_SND));
	q.rcq = mlx5dm_sim_obj_get(c->sim, MLX5DM_SIM_K_CQ,
				   (uint32_t)mlx5dm_prm_fget(qpc, MLX5DM_SIM_QPC_CQN_RCV));
	if (q.pd == NULL || q.uar == NULL || q.scq == NULL || q.rcq == NULL)
		return MLX5DM_SIM_FAIL(c, BAD_RES,
				       "pd, uar_page, cqn_snd or cqn_rcv names nothing");
	st = mlx5dm_sim_qp_buffers(c, qpc, &q);
	if (st != MLX5DM_SIM_ST_OK)
		return st;
	qp = mlx5dm_sim_obj_new(c->sim, MLX5DM_SIM_K_QP, sizeof(*qp));
	if (qp == NULL)
		return MLX5DM_SIM_FAIL(c, NO_RES, "out of QPs");
	q.h = qp->h;
	*qp = q;
	qp->state = MLX5DM_SIM_QPS_RST;
	mlx5dm_spinlock_init(&qp->lock);
	qp->pd->h.refs++;
	qp->uar->h.refs++;
	qp->scq->h.refs++;
	qp->rcq->h.refs++;
	qp->wq_umem->h.refs++;
	qp->dbr_umem->h.refs++;
	mlx5dm_sim_out(c, MLX5DM_SIM_OUT_OBJ_NUM, qp->h.id);
	c->obj = &qp->h;
	return MLX5DM_SIM_ST_OK;
}

/* The port's MAC, 48 bits. */
static uint64_t
mlx5dm_sim_port_mac(const struct mlx5dm_sim *sim)
{
	return sim->cfg.vport_mac != 0 ? sim->cfg.vport_mac : 0x020000000000ull | sim->cfg.vhca_id;
}

/* GID index 0: the link-local address of the port's MAC (modified EUI-64). */
static void
mlx5dm_sim_port_gid(const struct mlx5dm_sim *sim, uint8_t gid[16])
{
	uint64_t mac = mlx5dm_sim_port_mac(sim);
	unsigned int i;

	memset(gid, 0, 16);
	gid[0] = 0xfe;
	gid[1] = 0x80;
	gid[8] = (uint8_t)(mac >> 40) ^ 0x02;
	gid[9] = (uint8_t)(mac >> 32);
	gid[10] = (uint8_t)(mac >> 24);
	gid[11] = 0xff;
	gid[12] = 0xfe;
	for (i = 0; i < 3; i++)
		gid[13 + i] = (uint8_t)(mac >> (16 - 8 * i));
}

int
mlx5dm_sim_cmd_query_nic_vport_context(struct mlx5dm_sim_cmd *c)
{
	uint64_t mac = mlx5dm_sim_port_mac(c->sim);

	if (mlx5dm_sim_in(c, MLX5DM_SIM_VPORT_IN_OTHER_VPORT) != 0)
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "no other vport (not an e-switch manager)");
	mlx5dm_sim_out(c, MLX5DM_SIM_VPORT_ROCE_EN, c->sim->cfg.roce);
	mlx5dm_sim_out(c, MLX5DM_SIM_VPORT_MIN_INLINE, c->sim->cfg.wqe_inline_l2 ?
		       MLX5DM_SIM_INLINE_MODE_L2 : MLX5DM_SIM_INLINE_MODE_NONE);
	mlx5dm_sim_out(c, MLX5DM_SIM_VPORT_MAC_47_32, mac >> 32);
	mlx5dm_sim_out(c, MLX5DM_SIM_VPORT_MAC_31_0, mac & 0xffffffffu);
	return MLX5DM_SIM_ST_OK;
}

int
mlx5dm_sim_cmd_query_roce_address(struct mlx5dm_sim_cmd *c)
{
	uint64_t mac = mlx5dm_sim_port_mac(c->sim);

	if (mlx5dm_sim_in(c, MLX5DM_SIM_ROCE_IN_PORT) != 1)
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "vhca_port_num: the device has port 1");
	if (mlx5dm_sim_in(c, MLX5DM_SIM_ROCE_IN_INDEX) != 0)
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "the port has GID index 0 only");
	mlx5dm_sim_port_gid(c->sim, c->out + MLX5DM_SIM_ROCE_GID_BYTE);
	mlx5dm_sim_out(c, MLX5DM_SIM_ROCE_MAC_47_32, mac >> 32);
	mlx5dm_sim_out(c, MLX5DM_SIM_ROCE_MAC_31_0, mac & 0xffffffffu);
	mlx5dm_sim_out(c, MLX5DM_SIM_ROCE_L3_TYPE, 1);      /* IPv6 */
	mlx5dm_sim_out(c, MLX5DM_SIM_ROCE_VERSION, MLX5DM_SIM_ROCE_VERSION_2);
	return MLX5DM_SIM_ST_OK;
}

/* INIT2RTR's primary address path: a way for the QP to reach its remote (itself). */
static int
mlx5dm_sim_qp_path_check(struct mlx5dm_sim_cmd *c, const uint8_t *qpc)
{
	uint64_t mac = mlx5dm_sim_port_mac(c->sim);
	uint8_t gid[16];

	if (mlx5dm_prm_fget(qpc, MLX5DM_SIM_QPC_PAP_FL) != 0) {
		if (c->sim->cfg.no_force_loopback)
			return MLX5DM_SIM_FAIL(c, BAD_PARAM, "force-loopback RC QPs not allowed");
		return MLX5DM_SIM_ST_OK;
	}
	if (!c->sim->cfg.roce)
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "RoCE disabled: only force-loopback connects");
	mlx5dm_sim_port_gid(c->sim, gid);
	if (mlx5dm_prm_fget(qpc, MLX5DM_SIM_QPC_PAP_SRC_ADDR_INDEX) != 0 ||
	    memcmp(qpc + MLX5DM_SIM_QPC_PAP_RGID_BYTE, gid, sizeof(gid)) != 0 ||
	    mlx5dm_prm_fget(qpc, MLX5DM_SIM_QPC_PAP_RMAC_47_32) != mac >> 32 ||
	    mlx5dm_prm_fget(qpc, MLX5DM_SIM_QPC_PAP_RMAC_31_0) != (mac & 0xffffffffu))
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "address path does not lead to this port");
	return MLX5DM_SIM_ST_OK;
}

int
mlx5dm_sim_cmd_modify_qp(struct mlx5dm_sim_cmd *c)
{
	static const struct {
		uint16_t opcode;
		uint32_t from;  /* required state; ~0 = any */
		uint32_t to;
	} tr[] = {
		{ MLX5DM_SIM_OP_RST2INIT_QP, MLX5DM_SIM_QPS_RST, MLX5DM_SIM_QPS_INIT },
		{ MLX5DM_SIM_OP_INIT2RTR_QP, MLX5DM_SIM_QPS_INIT, MLX5DM_SIM_QPS_RTR },
		{ MLX5DM_SIM_OP_RTR2RTS_QP, MLX5DM_SIM_QPS_RTR, MLX5DM_SIM_QPS_RTS },
		{ MLX5DM_SIM_OP_2ERR_QP, ~0u, MLX5DM_SIM_QPS_ERR },
		{ MLX5DM_SIM_OP_2RST_QP, ~0u, MLX5DM_SIM_QPS_RST },
	};
	struct mlx5dm_sim_qp *qp = (struct mlx5dm_sim_qp *)c->obj;
	const uint8_t *qpc = c->in + MLX5DM_SIM_QP_IN_QPC_BYTE;
	unsigned int i;

	for (i = 0; i < MLX5DM_ARRAY_SIZE(tr) && tr[i].opcode != c->opcode; i++)
		;
	if (i == MLX5DM_ARRAY_SIZE(tr))
		return MLX5DM_SIM_FAIL(c, BAD_OP, "not a QP transition");
	if (tr[i].from != ~0u && qp->state != tr[i].from)
		return MLX5DM_SIM_FAIL(c, BAD_RES_STATE, "QP not in the source state");
	if (c->opcode == MLX5DM_SIM_OP_RST2INIT_QP) {
		qp->rre = mlx5dm_prm_fget(qpc, MLX5DM_SIM_QPC_RRE) != 0;
		qp->rwe = mlx5dm_prm_fget(qpc, MLX5DM_SIM_QPC_RWE) != 0;
	} else if (c->opcode == MLX5DM_SIM_OP_INIT2RTR_QP) {
		uint32_t rqpn = (uint32_t)mlx5dm_prm_fget(qpc, MLX5DM_SIM_QPC_REMOTE_QPN);

		int st;

		if (mlx5dm_sim_obj_get(c->sim, MLX5DM_SIM_K_QP, rqpn) == NULL)
			return MLX5DM_SIM_FAIL(c, BAD_PARAM,
					       "remote_qpn must be a QP of this device (loopback)");
		st = mlx5dm_sim_qp_path_check(c, qpc);
		if (st != MLX5DM_SIM_ST_OK)
			return st;
		qp->remote_qpn = rqpn;
	}
	mlx5dm_spinlock_lock(&qp->lock);
	if (c->opcode == MLX5DM_SIM_OP_2RST_QP)
		qp->hw_ctr = 0;
	__atomic_store_n(&qp->state, tr[i].to, __ATOMIC_RELEASE);
	mlx5dm_spinlock_unlock(&qp->lock);
	return MLX5DM_SIM_ST_OK;
}

int
mlx5dm_sim_cmd_query_qp(struct mlx5dm_sim_cmd *c)
{
	struct mlx5dm_sim_qp *qp = (struct mlx5dm_sim_qp *)c->obj;
	const unsigned int at = MLX5DM_SIM_QPQ_OUT_QPC_BYTE;
	const struct {
		struct mlx5dm_prm_field f;
		uint64_t v;
	} rows[] = {
		{ MLX5DM_SIM_QPC_STATE, qp->state },
		{ MLX5DM_SIM_QPC_ST, MLX5DM_SIM_QP_ST_RC },
		{ MLX5DM_SIM_QPC_PD, qp->pd->h.id },
		{ MLX5DM_SIM_QPC_LOG_SQ_SIZE, mlx5dm_log2_ceil(qp->sq_bytes / MLX5DM_SIM_WQEBB) },
		{ MLX5DM_SIM_QPC_UAR_PAGE, qp->uar->h.id },
		{ MLX5DM_SIM_QPC_REMOTE_QPN, qp->remote_qpn },
		{ MLX5DM_SIM_QPC_CQN_SND, qp->scq->h.id },
		{ MLX5DM_SIM_QPC_RRE, qp->rre },
		{ MLX5DM_SIM_QPC_RWE, qp->rwe },
		{ MLX5DM_SIM_QPC_CQN_RCV, qp->rcq->h.id },
		{ MLX5DM_SIM_QPC_HW_SQ_WQEBB_CTR, __atomic_load_n(&qp->hw_ctr, __ATOMIC_RELAXED) },
	};
	unsigned int i;

	for (i = 0; i < MLX5DM_ARRAY_SIZE(rows); i++)
		mlx5dm_sim_out_at(c, at, rows[i].f, rows[i].v);
	return MLX5DM_SIM_ST_OK;
}

int
mlx5dm_sim_cmd_destroy_qp(struct mlx5dm_sim_cmd *c)
{
	struct mlx5dm_sim_qp *qp = (struct mlx5dm_sim_qp *)c->obj;
	int st = mlx5dm_sim_cmd_destroy_check(c, MLX5DM_SIM_K_QP);

	if (st != MLX5DM_SIM_ST_OK)
		return st;
	qp->pd->h.refs--;
	qp->scq->h.refs--;
	qp->rcq->h.refs--;
	qp->wq_umem->h.refs--;
	qp->dbr_umem->h.refs--;
	mlx5dm_sim_uar_put(c->sim, qp->uar);
	mlx5dm_spinlock_destroy(&qp->lock);
	mlx5dm_sim_obj_free(c->sim, qp);
	return MLX5DM_SIM_ST_OK;
}
