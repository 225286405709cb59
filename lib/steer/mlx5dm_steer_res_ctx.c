/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The resource context: PD (and its PRM number), transport domain, UAR for
 * the RQ CQs, argument pools; command-error reporting and umem buffers
 * shared by the resource files; SYNC_STEERING.
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_osdep.h"
#include "mlx5dm_prm_res.h"
#include "mlx5dm_res.h"

#define MLX5DM_RES_PAGE 4096u
/* Argument objects span at least 4K units (rdma-core: DR_ICM_MODIFY_HDR_GRANULARITY_4K). */
#define MLX5DM_RES_ARG_MIN_LOG_RANGE 12u

/*
 * Firmware status -> errno, as rdma-core's mlx5_cmd_status_to_err (default
 * EIO), but for NO_RESOURCES: rdma-core says EAGAIN, which a caller reads as
 * "retry", while the firmware says it when a table of fixed size (flow
 * tables, counters, reformat contexts, ...) is full, which only a free
 * empties: ENOSPC.
 */
static const struct {
	uint8_t status;
	uint8_t err;
} mlx5dm_res_status_errno[] = {
	{ MLX5DM_CMD_STAT_BAD_OP_ERR, EINVAL },
	{ MLX5DM_CMD_STAT_BAD_PARAM_ERR, EINVAL },
	{ MLX5DM_CMD_STAT_BAD_RES_ERR, EINVAL },
	{ MLX5DM_CMD_STAT_RES_BUSY, EBUSY },
	{ MLX5DM_CMD_STAT_LIM_ERR, ENOMEM },
	{ MLX5DM_CMD_STAT_BAD_RES_STATE_ERR, EINVAL },
	{ MLX5DM_CMD_STAT_IX_ERR, EINVAL },
	{ MLX5DM_CMD_STAT_NO_RES_ERR, ENOSPC },
	{ MLX5DM_CMD_STAT_BAD_QP_STATE_ERR, EINVAL },
	{ MLX5DM_CMD_STAT_BAD_PKT_ERR, EINVAL },
	{ MLX5DM_CMD_STAT_BAD_SIZE_OUTS_CQES_ERR, EINVAL },
};

int
mlx5dm_res_cmd_err(const char *cmd, const void *out, int err)
{
	unsigned int status = (unsigned int)mlx5dm_prm_fget(out, MLX5DM_CMD_OUT_STATUS);
	unsigned int syndrome = (unsigned int)mlx5dm_prm_fget(out, MLX5DM_CMD_OUT_SYNDROME);
	size_t i;

	if (err < 0)
		err = -err;
	if (err == EREMOTEIO && status != MLX5DM_CMD_STAT_OK) {
		err = EIO;
		for (i = 0; i < MLX5DM_ARRAY_SIZE(mlx5dm_res_status_errno); i++)
			if (mlx5dm_res_status_errno[i].status == status)
				err = mlx5dm_res_status_errno[i].err;
	} else if (err == 0) {
		/* A transport that failed without saying why. */
		err = EIO;
	}
	MLX5DM_LOG(ERR, "res", "%s failed: %s (status 0x%x, syndrome 0x%x)", cmd, strerror(err),
		   status, syndrome);
	return -err;
}

int
mlx5dm_res_obj_destroy(struct mlx5dm_res_ctx *res, struct mlx5dv_devx_obj *obj,
		       const char *what, uint32_t id)
{
	int ret = res->dev->ops->devx_obj_destroy(obj);

	if (ret == 0)
		return 0;
	ret = ret < 0 ? -ret : ret;
	MLX5DM_LOG(ERR, "res", "%s 0x%x destroy failed: %s", what, id, strerror(ret));
	return -ret;
}

int
mlx5dm_res_umem_alloc(struct mlx5dm_res_ctx *res, struct mlx5dm_res_umem *u, size_t size)
{
	/* Page-granular: the device maps whole pages of a umem. */
	size = MLX5DM_ALIGN_UP(size, (size_t)MLX5DM_RES_PAGE);
	u->buf = mlx5dm_aligned_zmalloc_socket(size, MLX5DM_RES_PAGE, res->dev->socket);
	if (u->buf == NULL)
		return -ENOMEM;
	u->size = size;
	u->umem = res->dev->ops->devx_umem_reg(res->dev->ctx, u->buf, size,
					       IBV_ACCESS_LOCAL_WRITE);
	if (u->umem == NULL) {
		int err = errno != 0 ? errno : EIO;

		MLX5DM_LOG(ERR, "res", "umem registration of %zu bytes failed: %s", size,
			   strerror(err));
		mlx5dm_free(u->buf);
		u->buf = NULL;
		return -err;
	}
	return 0;
}

void
mlx5dm_res_umem_free(struct mlx5dm_res_ctx *res, struct mlx5dm_res_umem *u)
{
	if (u->umem != NULL)
		res->dev->ops->devx_umem_dereg(u->umem);
	mlx5dm_free(u->buf);
	memset(u, 0, sizeof(*u));
}

/* The PD's PRM number: TIR transport domains, WQs and argument objects name it. */
static int
mlx5dm_res_pd_number(struct mlx5dm_res_ctx *res)
{
	struct mlx5dv_pd dvpd = { 0 };
	struct mlx5dv_obj obj;
	int ret;

	memset(&obj, 0, sizeof(obj));
	obj.pd.in = res->pd;
	obj.pd.out = &dvpd;
	ret = res->dev->ops->init_obj(&obj, MLX5DV_OBJ_PD);
	if (ret != 0) {
		ret = ret < 0 ? -ret : ret;
		MLX5DM_LOG(ERR, "res", "PD number query (init_obj) failed: %s", strerror(ret));
		return -ret;
	}
	res->pdn = dvpd.pdn;
	return 0;
}

static int
mlx5dm_res_td_alloc(struct mlx5dm_res_ctx *res)
{
	uint8_t in[MLX5DM_ALLOC_TD_IN_BYTES] = { 0 };
	uint8_t out[MLX5DM_ALLOC_TD_OUT_BYTES] = { 0 };

	mlx5dm_prm_fset(in, MLX5DM_CMD_IN_OPCODE, MLX5DM_CMD_OP_ALLOC_TRANSPORT_DOMAIN);
	res->td = res->dev->ops->devx_obj_create(res->dev->ctx, in, sizeof(in), out, sizeof(out));
	if (res->td == NULL)
		return mlx5dm_res_cmd_err("ALLOC_TRANSPORT_DOMAIN", out, errno);
	res->tdn = (uint32_t)mlx5dm_prm_fget(out, MLX5DM_ALLOC_TD_OUT_TD);
	return 0;
}

static void
mlx5dm_res_arg_pools_init(struct mlx5dm_res_ctx *res)
{
	unsigned int i, range;

	for (i = 0; i < MLX5DM_RES_ARG_CLASSES; i++) {
		res->arg_pools[i].log_units = i;
		LIST_INIT(&res->arg_pools[i].avail);
		LIST_INIT(&res->arg_pools[i].full);
		res->arg_pools[i].nempty = 0;
	}
	/* As rdma-core's dr_arg.c sizes its pools: min(max_alloc, max(granularity, 12)). */
	range = MLX5DM_MAX((unsigned int)res->attr.log_arg_granularity,
			   MLX5DM_RES_ARG_MIN_LOG_RANGE);
	res->log_arg_obj_range = (uint8_t)MLX5DM_MIN(range, res->attr.log_arg_max_alloc);
}

int
mlx5dm_res_ctx_init(struct mlx5dm_res_ctx *res, const struct mlx5dm_res_attr *attr)
{
	int ret;

	if (res == NULL || attr == NULL || attr->dev == NULL || attr->dev->ops == NULL)
		return -EINVAL;
	memset(res, 0, sizeof(*res));
	res->dev = attr->dev;
	res->attr = *attr;
	if (attr->pd != NULL) {
		res->pd = attr->pd;
	} else {
		res->pd = res->dev->ops->alloc_pd(res->dev->ctx);
		if (res->pd == NULL) {
			ret = errno != 0 ? errno : ENOMEM;
			MLX5DM_LOG(ERR, "res", "PD allocation failed: %s", strerror(ret));
			return -ret;
		}
		res->own_pd = true;
	}
	ret = mlx5dm_res_pd_number(res);
	if (ret < 0)
		goto dealloc_pd;
	ret = mlx5dm_res_td_alloc(res);
	if (ret < 0)
		goto dealloc_pd;
	res->uar = attr->uar;
	mlx5dm_res_arg_pools_init(res);
	pthread_mutex_init(&res->lock, NULL);
	MLX5DM_LOG(DEBUG, "res", "vhca 0x%x: pdn 0x%x, transport domain 0x%x, argument objects %s"
		   " (log range %u)", attr->vhca_id, res->pdn, res->tdn,
		   attr->arg_supported ? "on" : "off", res->log_arg_obj_range);
	return 0;
dealloc_pd:
	if (res->own_pd)
		res->dev->ops->dealloc_pd(res->pd);
	res->pd = NULL;
	return ret;
}

int
mlx5dm_res_ctx_fini(struct mlx5dm_res_ctx *res)
{
	struct mlx5dm_res_stats st;
	int ret, first = 0;

	mlx5dm_res_stats_get(res, &st);
	if (st.fts || st.roots || st.rqs || st.sqs || st.tirs || st.counter_bulks || st.args ||
	    st.reformats || st.mrs) {
		MLX5DM_LOG(ERR, "res", "context still has objects: %u tables, %u root rules, "
			   "%u RQs, %u SQs, %u TIRs, %u counter bulks, %u arguments, %u reformats, "
			   "%u MRs", st.fts, st.roots, st.rqs, st.sqs, st.tirs, st.counter_bulks,
			   st.args, st.reformats, st.mrs);
		return -EBUSY;
	}
	first = mlx5dm_res_arg_pools_fini(res);
	ret = mlx5dm_res_tis_fini(res);
	first = first != 0 ? first : ret;
	ret = mlx5dm_res_obj_destroy(res, res->td, "transport domain", res->tdn);
	first = first != 0 ? first : ret;
	if (res->own_uar && res->uar != NULL)
		res->dev->ops->devx_free_uar(res->uar);
	if (res->own_pd)
		res->dev->ops->dealloc_pd(res->pd);
	pthread_mutex_destroy(&res->lock);
	memset(res, 0, sizeof(*res));
	return first;
}

void
mlx5dm_res_stats_get(struct mlx5dm_res_ctx *res, struct mlx5dm_res_stats *st)
{
	const uint32_t *src = (const uint32_t *)&res->live;
	uint32_t *dst = (uint32_t *)st;
	size_t i;

	/* The stats are a row of uint32_t counters, each updated atomically. */
	for (i = 0; i < sizeof(*st) / sizeof(uint32_t); i++)
		dst[i] = __atomic_load_n(&src[i], __ATOMIC_RELAXED);
}

struct ibv_pd *
mlx5dm_res_pd(const struct mlx5dm_res_ctx *res)
{
	return res->pd;
}

uint32_t
mlx5dm_res_pdn(const struct mlx5dm_res_ctx *res)
{
	return res->pdn;
}

int
mlx5dm_res_sync_steering(struct mlx5dm_res_ctx *res)
{
	uint8_t in[MLX5DM_SYNC_STEERING_IN_BYTES] = { 0 };
	uint8_t out[MLX5DM_SYNC_STEERING_OUT_BYTES] = { 0 };
	int ret;

	mlx5dm_prm_fset(in, MLX5DM_CMD_IN_OPCODE, MLX5DM_CMD_OP_SYNC_STEERING);
	ret = res->dev->ops->devx_general_cmd(res->dev->ctx, in, sizeof(in), out, sizeof(out));
	if (ret != 0)
		return mlx5dm_res_cmd_err("SYNC_STEERING", out, ret);
	return 0;
}
