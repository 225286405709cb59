/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The model's command interface: what mlx5dv_devx_general_cmd and
 * mlx5dv_devx_obj_create/modify/query/destroy reach on hardware (the
 * kernel's DEVX layer, then firmware).
 *
 * Two layers are modelled, as on a real system:
 *  - the kernel's DEVX checks: an opcode must come through the right entry
 *    point (general / object create / modify / query) and a modify or query
 *    must name the object whose handle it is sent on; violations fail with
 *    EINVAL and leave the output mailbox untouched;
 *  - the firmware: every mailbox is decoded byte-for-byte; bad input gets a
 *    PRM status and a syndrome in the output mailbox and the call fails with
 *    EREMOTEIO (what current kernels return for a bad command status).
 * rdma-core's DEVX functions return 0 or a positive errno and set errno;
 * the model does the same.
 *
 * Syndromes are the model's own: 0x5d000000 | opcode[11:0] << 12 | check id,
 * and the reason is logged (INFO) as text.
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_sim_core.h"

enum mlx5dm_sim_cmd_cls {
	MLX5DM_SIM_CLS_GENERAL,
	MLX5DM_SIM_CLS_CREATE,
	MLX5DM_SIM_CLS_MODIFY,
	MLX5DM_SIM_CLS_QUERY,
	MLX5DM_SIM_CLS_DESTROY,
};

struct mlx5dm_sim_cmd_desc {
	uint16_t opcode;
	uint8_t cls;
	uint8_t kind;           /* object kind created or addressed */
	uint16_t inlen;         /* input the firmware requires */
	uint16_t outlen;        /* output the firmware requires */
	struct mlx5dm_prm_field idf; /* modify/query: field naming the target (width 0: none) */
	mlx5dm_sim_cmd_fn fn;
	const char *name;
};

#define D(op, cls, kind, in, out, idf, fn) \
	{ MLX5DM_SIM_OP_ ## op, MLX5DM_SIM_CLS_ ## cls, MLX5DM_SIM_K_ ## kind, in, out, idf, \
	  fn, #op }
#define NOID SIMF(0, 0)

static const struct mlx5dm_sim_cmd_desc mlx5dm_sim_cmds[] = {
	D(QUERY_HCA_CAP, GENERAL, NUM, 16, 16 + MLX5DM_SIM_CAP_BYTES, NOID,
	  mlx5dm_sim_cmd_query_hca_cap),
	D(SYNC_STEERING, GENERAL, NUM, 16, 16, NOID, mlx5dm_sim_cmd_sync_steering),
	D(QUERY_NIC_VPORT_CONTEXT, GENERAL, NUM, 16, MLX5DM_SIM_VPORT_OUT_BYTES, NOID,
	  mlx5dm_sim_cmd_nic_vport_context),
	D(QUERY_VPORT_STATE, GENERAL, NUM, 16, 16, NOID, mlx5dm_sim_cmd_query_vport_state),
	D(QUERY_ESW_VPORT_CONTEXT, GENERAL, NUM, 16, 272, NOID,
	  mlx5dm_sim_cmd_query_esw_vport_context),
	D(SET_FLOW_TABLE_ROOT, GENERAL, NUM, 64, 16, NOID, mlx5dm_sim_cmd_set_ft_root),
	D(QUERY_ROCE_ADDRESS, GENERAL, NUM, 16, MLX5DM_SIM_ROCE_OUT_BYTES, NOID,
	  mlx5dm_sim_cmd_query_roce_address),
	D(CREATE_CQ, CREATE, CQ, MLX5DM_SIM_CQ_IN_BYTES, 16, NOID, mlx5dm_sim_cmd_create_cq),
	D(DESTROY_CQ, DESTROY, CQ, 16, 16, NOID, mlx5dm_sim_cmd_destroy_cq),
	D(CREATE_QP, CREATE, QP, MLX5DM_SIM_QP_IN_BYTES, 16, NOID, mlx5dm_sim_cmd_create_qp),
	D(DESTROY_QP, DESTROY, QP, 16, 16, NOID, mlx5dm_sim_cmd_destroy_qp),
	D(RST2INIT_QP, MODIFY, QP, MLX5DM_SIM_QPM_IN_BYTES, 16, MLX5DM_SIM_IN_OBJ_NUM,
	  mlx5dm_sim_cmd_modify_qp),
	D(INIT2RTR_QP, MODIFY, QP, MLX5DM_SIM_QPM_IN_BYTES, 16, MLX5DM_SIM_IN_OBJ_NUM,
	  mlx5dm_sim_cmd_modify_qp),
	D(RTR2RTS_QP, MODIFY, QP, MLX5DM_SIM_QPM_IN_BYTES, 16, MLX5DM_SIM_IN_OBJ_NUM,
	  mlx5dm_sim_cmd_modify_qp),
	D(2ERR_QP, MODIFY, QP, 16, 16, MLX5DM_SIM_IN_OBJ_NUM, mlx5dm_sim_cmd_modify_qp),
	D(2RST_QP, MODIFY, QP, 16, 16, MLX5DM_SIM_IN_OBJ_NUM, mlx5dm_sim_cmd_modify_qp),
	D(QUERY_QP, QUERY, QP, 16, 272, MLX5DM_SIM_IN_OBJ_NUM, mlx5dm_sim_cmd_query_qp),
	D(ALLOC_TRANSPORT_DOMAIN, CREATE, TD, 16, 16, NOID, mlx5dm_sim_cmd_alloc_td),
	D(DEALLOC_TRANSPORT_DOMAIN, DESTROY, TD, 16, 16, NOID, mlx5dm_sim_cmd_dealloc_td),
	D(CREATE_TIR, CREATE, TIR, 272, 16, NOID, mlx5dm_sim_cmd_create_tir),
	D(DESTROY_TIR, DESTROY, TIR, 16, 16, NOID, mlx5dm_sim_cmd_destroy_tir),
	D(QUERY_TIR, QUERY, TIR, 16, 272, MLX5DM_SIM_IN_OBJ_NUM, mlx5dm_sim_cmd_query_tir),
	D(CREATE_TIS, CREATE, TIS, 272, 16, NOID, mlx5dm_sim_cmd_create_tis),
	D(DESTROY_TIS, DESTROY, TIS, 16, 16, NOID, mlx5dm_sim_cmd_destroy_tis),
	D(CREATE_SQ, CREATE, SQ, 272, 16, NOID, mlx5dm_sim_cmd_create_sq),
	D(MODIFY_SQ, MODIFY, SQ, 272, 16, MLX5DM_SIM_IN_OBJ_NUM, mlx5dm_sim_cmd_modify_sq),
	D(QUERY_SQ, QUERY, SQ, 16, 272, MLX5DM_SIM_IN_OBJ_NUM, mlx5dm_sim_cmd_query_sq),
	D(DESTROY_SQ, DESTROY, SQ, 16, 16, NOID, mlx5dm_sim_cmd_destroy_sq),
	D(CREATE_RQ, CREATE, RQ, 272, 16, NOID, mlx5dm_sim_cmd_create_rq),
	D(MODIFY_RQ, MODIFY, RQ, 272, 16, MLX5DM_SIM_IN_OBJ_NUM, mlx5dm_sim_cmd_modify_rq),
	D(QUERY_RQ, QUERY, RQ, 16, 272, MLX5DM_SIM_IN_OBJ_NUM, mlx5dm_sim_cmd_query_rq),
	D(DESTROY_RQ, DESTROY, RQ, 16, 16, NOID, mlx5dm_sim_cmd_destroy_rq),
	D(CREATE_RQT, CREATE, RQT, 272, 16, NOID, mlx5dm_sim_cmd_create_rqt),
	D(MODIFY_RQT, MODIFY, RQT, 272, 16, MLX5DM_SIM_IN_OBJ_NUM, mlx5dm_sim_cmd_modify_rqt),
	D(DESTROY_RQT, DESTROY, RQT, 16, 16, NOID, mlx5dm_sim_cmd_destroy_rqt),
	D(CREATE_FLOW_TABLE, CREATE, FT, 64, 16, NOID, mlx5dm_sim_cmd_create_ft),
	D(DESTROY_FLOW_TABLE, DESTROY, FT, 64, 16, NOID, mlx5dm_sim_cmd_destroy_ft),
	D(QUERY_FLOW_TABLE, QUERY, FT, 64, 64, MLX5DM_SIM_FT_IN_TABLE_ID,
	  mlx5dm_sim_cmd_query_ft),
	D(CREATE_FLOW_GROUP, CREATE, FG, 1024, 16, NOID, mlx5dm_sim_cmd_create_fg),
	D(DESTROY_FLOW_GROUP, DESTROY, FG, 64, 16, NOID, mlx5dm_sim_cmd_destroy_fg),
	D(SET_FLOW_TABLE_ENTRY, CREATE, FTE, 832, 16, NOID, mlx5dm_sim_cmd_set_fte),
	D(DELETE_FLOW_TABLE_ENTRY, DESTROY, FTE, 64, 16, NOID, mlx5dm_sim_cmd_delete_fte),
	D(ALLOC_FLOW_COUNTER, CREATE, FC, 16, 16, NOID, mlx5dm_sim_cmd_alloc_fc),
	D(DEALLOC_FLOW_COUNTER, DESTROY, FC, 16, 16, NOID, mlx5dm_sim_cmd_dealloc_fc),
	D(QUERY_FLOW_COUNTER, QUERY, FC, 32, 16, NOID, mlx5dm_sim_cmd_query_fc),
	D(ALLOC_PACKET_REFORMAT_CONTEXT, CREATE, PRC, MLX5DM_SIM_PRC_IN_MIN_BYTES, 16, NOID,
	  mlx5dm_sim_cmd_alloc_prc),
	D(DEALLOC_PACKET_REFORMAT_CONTEXT, DESTROY, PRC, 16, 16, NOID, mlx5dm_sim_cmd_dealloc_prc),
	D(CREATE_GENERAL_OBJECT, CREATE, ARG, 16, 16, NOID, mlx5dm_sim_cmd_create_gobj),
	D(QUERY_GENERAL_OBJECT, QUERY, ARG, 16, 16, NOID, mlx5dm_sim_cmd_query_gobj),
	D(DESTROY_GENERAL_OBJECT, DESTROY, ARG, 16, 16, NOID, mlx5dm_sim_cmd_destroy_gobj),
};

#undef D

/* How devx_obj_destroy builds the destroy mailbox of each object kind. */
enum { MLX5DM_SIM_SRC_ID, MLX5DM_SIM_SRC_AUX0, MLX5DM_SIM_SRC_AUX1, MLX5DM_SIM_SRC_AUX2 };
struct mlx5dm_sim_destroy_desc {
	uint8_t kind;
	uint16_t opcode;
	uint16_t inlen;
	struct {
		struct mlx5dm_prm_field f;
		uint8_t src;
	} put[4];
};

static const struct mlx5dm_sim_destroy_desc mlx5dm_sim_destroys[] = {
	{ MLX5DM_SIM_K_CQ, MLX5DM_SIM_OP_DESTROY_CQ, 16,
	  { { MLX5DM_SIM_IN_OBJ_NUM, MLX5DM_SIM_SRC_ID } } },
	{ MLX5DM_SIM_K_QP, MLX5DM_SIM_OP_DESTROY_QP, 16,
	  { { MLX5DM_SIM_IN_OBJ_NUM, MLX5DM_SIM_SRC_ID } } },
	{ MLX5DM_SIM_K_TD, MLX5DM_SIM_OP_DEALLOC_TRANSPORT_DOMAIN, 16,
	  { { MLX5DM_SIM_IN_OBJ_NUM, MLX5DM_SIM_SRC_ID } } },
	{ MLX5DM_SIM_K_TIR, MLX5DM_SIM_OP_DESTROY_TIR, 16,
	  { { MLX5DM_SIM_IN_OBJ_NUM, MLX5DM_SIM_SRC_ID } } },
	{ MLX5DM_SIM_K_TIS, MLX5DM_SIM_OP_DESTROY_TIS, 16,
	  { { MLX5DM_SIM_IN_OBJ_NUM, MLX5DM_SIM_SRC_ID } } },
	{ MLX5DM_SIM_K_SQ, MLX5DM_SIM_OP_DESTROY_SQ, 16,
	  { { MLX5DM_SIM_IN_OBJ_NUM, MLX5DM_SIM_SRC_ID } } },
	{ MLX5DM_SIM_K_RQ, MLX5DM_SIM_OP_DESTROY_RQ, 16,
	  { { MLX5DM_SIM_IN_OBJ_NUM, MLX5DM_SIM_SRC_ID } } },
	{ MLX5DM_SIM_K_RQT, MLX5DM_SIM_OP_DESTROY_RQT, 16,
	  { { MLX5DM_SIM_IN_OBJ_NUM, MLX5DM_SIM_SRC_ID } } },
	{ MLX5DM_SIM_K_FT, MLX5DM_SIM_OP_DESTROY_FLOW_TABLE, 64,
	  { { MLX5DM_SIM_FT_IN_TABLE_ID, MLX5DM_SIM_SRC_ID },
	    { MLX5DM_SIM_FT_IN_TABLE_TYPE, MLX5DM_SIM_SRC_AUX0 } } },
	{ MLX5DM_SIM_K_FG, MLX5DM_SIM_OP_DESTROY_FLOW_GROUP, 64,
	  { { MLX5DM_SIM_FG_IN_GROUP_ID, MLX5DM_SIM_SRC_ID },
	    { MLX5DM_SIM_FT_IN_TABLE_TYPE, MLX5DM_SIM_SRC_AUX0 },
	    { MLX5DM_SIM_FT_IN_TABLE_ID, MLX5DM_SIM_SRC_AUX1 } } },
	{ MLX5DM_SIM_K_FTE, MLX5DM_SIM_OP_DELETE_FLOW_TABLE_ENTRY, 64,
	  { { MLX5DM_SIM_FT_IN_TABLE_TYPE, MLX5DM_SIM_SRC_AUX0 },
	    { MLX5DM_SIM_FT_IN_TABLE_ID, MLX5DM_SIM_SRC_AUX1 },
	    { MLX5DM_SIM_FTE_IN_FLOW_INDEX, MLX5DM_SIM_SRC_AUX2 } } },
	/* Counters and arguments: the PRM id (bulk base, first unit) is in aux. */
	{ MLX5DM_SIM_K_FC, MLX5DM_SIM_OP_DEALLOC_FLOW_COUNTER, 16,
	  { { MLX5DM_SIM_FC_DEALLOC_ID, MLX5DM_SIM_SRC_AUX0 } } },
	{ MLX5DM_SIM_K_ARG, MLX5DM_SIM_OP_DESTROY_GENERAL_OBJECT, 16,
	  { { MLX5DM_SIM_GO_IN_ID, MLX5DM_SIM_SRC_AUX1 },
	    { MLX5DM_SIM_GO_IN_TYPE, MLX5DM_SIM_SRC_AUX0 } } },
	{ MLX5DM_SIM_K_PRC, MLX5DM_SIM_OP_DEALLOC_PACKET_REFORMAT_CONTEXT, 16,
	  { { MLX5DM_SIM_PRC_DEALLOC_ID, MLX5DM_SIM_SRC_AUX0 } } },
};

int
mlx5dm_sim_cmd_fail(struct mlx5dm_sim_cmd *c, int status, unsigned int reason, const char *why)
{
	c->syndrome = 0x5d000000u | ((uint32_t)(c->opcode & 0xfff) << 12) | (reason & 0xfff);
	c->why = why;
	return status;
}

uint64_t
mlx5dm_sim_in(const struct mlx5dm_sim_cmd *c, struct mlx5dm_prm_field f)
{
	return mlx5dm_prm_fget(c->in, f);
}

uint64_t
mlx5dm_sim_in_at(const struct mlx5dm_sim_cmd *c, unsigned int byte, struct mlx5dm_prm_field f)
{
	return mlx5dm_prm_fget(c->in + byte, f);
}

void
mlx5dm_sim_out(struct mlx5dm_sim_cmd *c, struct mlx5dm_prm_field f, uint64_t v)
{
	mlx5dm_prm_fset(c->out, f, v);
}

void
mlx5dm_sim_out_at(struct mlx5dm_sim_cmd *c, unsigned int byte, struct mlx5dm_prm_field f,
		  uint64_t v)
{
	mlx5dm_prm_fset(c->out + byte, f, v);
}

int
mlx5dm_sim_cmd_destroy_check(struct mlx5dm_sim_cmd *c, enum mlx5dm_sim_kind kind)
{
	struct mlx5dm_sim_obj *o = mlx5dm_sim_obj_get(c->sim, kind,
					(uint32_t)mlx5dm_sim_in(c, MLX5DM_SIM_IN_OBJ_NUM));

	if (o == NULL || o != c->obj)
		return MLX5DM_SIM_FAIL(c, BAD_RES, "no such object");
	if (o->refs != 0)
		return MLX5DM_SIM_FAIL(c, RES_BUSY, "object still referenced");
	return MLX5DM_SIM_ST_OK;
}

static const struct mlx5dm_sim_cmd_desc *
mlx5dm_sim_cmd_find(uint16_t opcode)
{
	unsigned int i;

	for (i = 0; i < MLX5DM_ARRAY_SIZE(mlx5dm_sim_cmds); i++)
		if (mlx5dm_sim_cmds[i].opcode == opcode)
			return &mlx5dm_sim_cmds[i];
	return NULL;
}

/* The firmware part: length checks, the handler, status and syndrome. */
static int
mlx5dm_sim_fw_exec(struct mlx5dm_sim_cmd *c, const struct mlx5dm_sim_cmd_desc *d)
{
	int st;

	memset(c->out, 0, c->outlen);
	if (d == NULL)
		st = MLX5DM_SIM_FAIL(c, BAD_OP, "unknown opcode");
	else if (c->inlen < d->inlen)
		st = MLX5DM_SIM_FAIL(c, BAD_INPUT_LEN, "input mailbox too short");
	else if (c->outlen < d->outlen)
		st = MLX5DM_SIM_FAIL(c, BAD_OUTPUT_LEN, "output mailbox too short");
	else if (d->opcode == MLX5DM_SIM_OP_SYNC_STEERING)
		st = d->fn(c); /* waits for walks: must not hold the instance lock */
	else {
		/* Between two batches of the device thread, as a firmware command is. */
		pthread_mutex_lock(&c->sim->dt.exec);
		pthread_rwlock_wrlock(&c->sim->lock);
		st = d->fn(c);
		pthread_rwlock_unlock(&c->sim->lock);
		pthread_mutex_unlock(&c->sim->dt.exec);
	}
	mlx5dm_sim_out(c, MLX5DM_SIM_OUT_STATUS, (uint64_t)st);
	if (st == MLX5DM_SIM_ST_OK)
		return 0;
	mlx5dm_sim_out(c, MLX5DM_SIM_OUT_SYNDROME, c->syndrome);
	MLX5DM_LOG(INFO, MLX5DM_SIM_LOG, "%s (0x%x) failed: status 0x%x syndrome 0x%08x: %s",
		   d != NULL ? d->name : "command", c->opcode, st, c->syndrome,
		   c->why != NULL ? c->why : "");
	return EREMOTEIO;
}

/* The kernel part: entry point and handle checks, then the firmware. */
static int
mlx5dm_sim_cmd_run(struct mlx5dm_sim *sim, enum mlx5dm_sim_cmd_cls cls, const void *in,
		   size_t inlen, void *out, size_t outlen, struct mlx5dm_sim_obj **obj)
{
	const struct mlx5dm_sim_cmd_desc *d;
	struct mlx5dm_sim_cmd c = {
		.sim = sim, .in = in, .inlen = inlen, .out = out, .outlen = outlen,
	};
	int ret;

	if (in == NULL || inlen < MLX5DM_SIM_IN_HDR_BYTES || out == NULL ||
	    outlen < MLX5DM_SIM_OUT_HDR_BYTES)
		return EINVAL;
	c.opcode = (uint16_t)mlx5dm_prm_fget(in, MLX5DM_SIM_IN_OPCODE);
	c.op_mod = (uint16_t)mlx5dm_prm_fget(in, MLX5DM_SIM_IN_OP_MOD);
	d = mlx5dm_sim_cmd_find(c.opcode);
	if (d != NULL && d->cls != cls)
		return EINVAL;
	if (d == NULL && cls != MLX5DM_SIM_CLS_GENERAL)
		return EINVAL;
	if (cls == MLX5DM_SIM_CLS_MODIFY || cls == MLX5DM_SIM_CLS_QUERY) {
		c.obj = *obj;
		if (c.obj->kind != d->kind || inlen < d->inlen)
			return EINVAL;
		if (d->idf.width != 0 && mlx5dm_prm_fget(in, d->idf) != c.obj->id)
			return EINVAL;
	}
	ret = mlx5dm_sim_fw_exec(&c, d);
	if (ret == 0 && cls == MLX5DM_SIM_CLS_CREATE)
		*obj = c.obj;
	return ret;
}

static struct mlx5dm_sim *
mlx5dm_sim_of_devx(struct mlx5dv_devx_obj *obj, struct mlx5dm_sim_obj **o)
{
	*o = (struct mlx5dm_sim_obj *)obj;
	if (*o == NULL || (*o)->magic != MLX5DM_SIM_OBJ_MAGIC)
		return NULL;
	return (*o)->sim;
}

int
mlx5dm_sim_devx_general_cmd(struct ibv_context *ctx, const void *in, size_t inlen, void *out,
			    size_t outlen)
{
	int ret = mlx5dm_sim_cmd_run(mlx5dm_sim_from_ctx(ctx), MLX5DM_SIM_CLS_GENERAL, in, inlen,
				     out, outlen, NULL);

	if (ret != 0)
		errno = ret;
	return ret;
}

struct mlx5dv_devx_obj *
mlx5dm_sim_devx_obj_create(struct ibv_context *ctx, const void *in, size_t inlen, void *out,
			   size_t outlen)
{
	struct mlx5dm_sim_obj *o = NULL;
	int ret = mlx5dm_sim_cmd_run(mlx5dm_sim_from_ctx(ctx), MLX5DM_SIM_CLS_CREATE, in, inlen,
				     out, outlen, &o);

	if (ret != 0) {
		errno = ret;
		return NULL;
	}
	return (struct mlx5dv_devx_obj *)o;
}

static int
mlx5dm_sim_devx_obj_cmd(struct mlx5dv_devx_obj *obj, enum mlx5dm_sim_cmd_cls cls,
			const void *in, size_t inlen, void *out, size_t outlen)
{
	struct mlx5dm_sim_obj *o;
	struct mlx5dm_sim *sim = mlx5dm_sim_of_devx(obj, &o);
	int ret = sim == NULL ? EINVAL : mlx5dm_sim_cmd_run(sim, cls, in, inlen, out, outlen, &o);

	if (ret != 0)
		errno = ret;
	return ret;
}

int
mlx5dm_sim_devx_obj_query(struct mlx5dv_devx_obj *obj, const void *in, size_t inlen,
			  void *out, size_t outlen)
{
	return mlx5dm_sim_devx_obj_cmd(obj, MLX5DM_SIM_CLS_QUERY, in, inlen, out, outlen);
}

int
mlx5dm_sim_devx_obj_modify(struct mlx5dv_devx_obj *obj, const void *in, size_t inlen,
			   void *out, size_t outlen)
{
	return mlx5dm_sim_devx_obj_cmd(obj, MLX5DM_SIM_CLS_MODIFY, in, inlen, out, outlen);
}

int
mlx5dm_sim_devx_obj_destroy(struct mlx5dv_devx_obj *obj)
{
	uint8_t in[64], out[MLX5DM_SIM_OUT_HDR_BYTES];
	const struct mlx5dm_sim_destroy_desc *dd = NULL;
	struct mlx5dm_sim_cmd c;
	struct mlx5dm_sim_obj *o;
	struct mlx5dm_sim *sim = mlx5dm_sim_of_devx(obj, &o);
	unsigned int i;
	int ret;

	if (sim == NULL) {
		errno = EINVAL;
		return EINVAL;
	}
	for (i = 0; i < MLX5DM_ARRAY_SIZE(mlx5dm_sim_destroys); i++)
		if (mlx5dm_sim_destroys[i].kind == o->kind)
			dd = &mlx5dm_sim_destroys[i];
	if (dd == NULL) {
		errno = EINVAL;
		return EINVAL;
	}
	/* Build the destroy mailbox the kernel would send and let the firmware decode it. */
	memset(in, 0, sizeof(in));
	mlx5dm_prm_fset(in, MLX5DM_SIM_IN_OPCODE, dd->opcode);
	for (i = 0; i < MLX5DM_ARRAY_SIZE(dd->put); i++) {
		uint32_t v = dd->put[i].src == MLX5DM_SIM_SRC_ID ? o->id :
			     o->aux[dd->put[i].src - 1];

		if (dd->put[i].f.width != 0)
			mlx5dm_prm_fset(in, dd->put[i].f, v);
	}
	memset(&c, 0, sizeof(c));
	c.sim = sim;
	c.in = in;
	c.inlen = dd->inlen;
	c.out = out;
	c.outlen = sizeof(out);
	c.opcode = dd->opcode;
	c.obj = o;
	ret = mlx5dm_sim_fw_exec(&c, mlx5dm_sim_cmd_find(dd->opcode));
	if (ret != 0) {
		/* The object stays, as with rdma-core when the kernel refuses. */
		ret = mlx5dm_prm_fget(out, MLX5DM_SIM_OUT_STATUS) == MLX5DM_SIM_ST_RES_BUSY ?
		      EBUSY : ret;
		errno = ret;
	}
	return ret;
}
