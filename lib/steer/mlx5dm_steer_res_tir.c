/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * TIRs: the receive end of a steering rule. A TIR delivers to one RQ
 * (direct: inline_rqn) or spreads by Toeplitz RSS over an RQ table
 * (indirect: CREATE_RQT, then the TIR names it). CREATE_TIR returns the
 * TIR's ICM address (rdma-core providers/mlx5/verbs.c, set_devx_obj_info()),
 * the last hit address of an STE
 * that delivers to it; without it SW steering cannot reach the TIR.
 */

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "mlx5dm_osdep.h"
#include "mlx5dm_prm_queue.h"
#include "mlx5dm_prm_res.h"
#include "mlx5dm_prm_res_rx.h"
#include "mlx5dm_res.h"

struct mlx5dm_tir {
	struct mlx5dm_res_ctx *res;
	struct mlx5dv_devx_obj *tir;
	struct mlx5dv_devx_obj *rqt;   /* indirect only */
	uint32_t tirn;
	uint32_t rqtn;
	uint64_t icm_addr;
};

/*
 * CREATE_RQT mailbox. The table holds a power of two of entries, the RQs
 * repeated to fill it (as DPDK's mlx5 PMD does): the hash picks an entry
 * by its low bits.
 */
static void
mlx5dm_res_rqt_build(const uint32_t *rqns, uint32_t nb_rqns, uint32_t size, uint8_t *in)
{
	uint32_t i;

	mlx5dm_prm_fset(in, MLX5DM_CMD_IN_OPCODE, MLX5DM_CMD_OP_CREATE_RQT);
	mlx5dm_prm_fset(in, MLX5DM_RQTC_MAX_SIZE, size);
	mlx5dm_prm_fset(in, MLX5DM_RQTC_ACTUAL_SIZE, size);
	for (i = 0; i < size; i++)
		mlx5dm_prm_fset(in, MLX5DM_RQTC_RQ_NUM(i), rqns[i % nb_rqns]);
}

static int
mlx5dm_res_rqt_create(struct mlx5dm_tir *t, const uint32_t *rqns, uint32_t nb_rqns)
{
	uint32_t size = 1u << mlx5dm_log2_ceil(nb_rqns);
	size_t inlen = MLX5DM_CREATE_RQT_IN_BYTES(size);
	uint8_t out[MLX5DM_CREATE_RQT_OUT_BYTES] = { 0 };
	uint8_t *in;
	int ret = 0;

	in = mlx5dm_zmalloc_socket(inlen, t->res->dev->socket);
	if (in == NULL)
		return -ENOMEM;
	mlx5dm_res_rqt_build(rqns, nb_rqns, size, in);
	t->rqt = t->res->dev->ops->devx_obj_create(t->res->dev->ctx, in, inlen, out, sizeof(out));
	if (t->rqt == NULL)
		ret = mlx5dm_res_cmd_err("CREATE_RQT", out, errno);
	else
		t->rqtn = (uint32_t)mlx5dm_prm_fget(out, MLX5DM_CMD_OUT_OBJ_NUM);
	mlx5dm_free(in);
	return ret;
}

/* The hashing part of an indirect TIR: Toeplitz over the selected fields. */
static void
mlx5dm_res_tir_rss_build(const struct mlx5dm_rss_attr *rss, uint8_t *in)
{
	unsigned int sel = rss->inner ? MLX5DM_TIRC_SEL_INNER : MLX5DM_TIRC_SEL_OUTER;

	mlx5dm_prm_fset(in, MLX5DM_TIRC_RX_HASH_FN, MLX5DM_RX_HASH_FN_TOEPLITZ);
	mlx5dm_prm_fset(in, MLX5DM_TIRC_RX_HASH_SYMMETRIC, rss->symmetric);
	/* Inner-header hashing needs tunnel offload on the TIR. */
	mlx5dm_prm_fset(in, MLX5DM_TIRC_TUNNELED_OFFLOAD, rss->inner);
	memcpy(in + MLX5DM_TIRC_TOEPLITZ_KEY_BYTE, rss->key, MLX5DM_TIRC_TOEPLITZ_KEY_LEN);
	mlx5dm_prm_fset(in, MLX5DM_TIRC_SEL_L3_PROT_TYPE(sel),
			rss->ipv6 ? MLX5DM_L3_PROT_IPV6 : MLX5DM_L3_PROT_IPV4);
	mlx5dm_prm_fset(in, MLX5DM_TIRC_SEL_L4_PROT_TYPE(sel),
			rss->udp ? MLX5DM_L4_PROT_UDP : MLX5DM_L4_PROT_TCP);
	/* MLX5DM_RSS_* are the PRM selected_fields bits (checked at build time below). */
	mlx5dm_prm_fset(in, MLX5DM_TIRC_SEL_FIELDS(sel), rss->fields);
}

_Static_assert(MLX5DM_RSS_SRC_IP == MLX5DM_HASH_SEL_SRC_IP &&
	       MLX5DM_RSS_DST_IP == MLX5DM_HASH_SEL_DST_IP &&
	       MLX5DM_RSS_L4_SPORT == MLX5DM_HASH_SEL_L4_SPORT &&
	       MLX5DM_RSS_L4_DPORT == MLX5DM_HASH_SEL_L4_DPORT,
	       "MLX5DM_RSS_* must equal the PRM rx_hash_field_select bits");

/* CREATE_TIR mailbox: direct to one RQ, or indirect over t->rqtn with RSS. */
static void
mlx5dm_res_tir_build(const struct mlx5dm_tir *t, uint32_t rqn,
		     const struct mlx5dm_rss_attr *rss, uint8_t *in)
{
	mlx5dm_prm_fset(in, MLX5DM_CMD_IN_OPCODE, MLX5DM_CMD_OP_CREATE_TIR);
	mlx5dm_prm_fset(in, MLX5DM_TIRC_TRANSPORT_DOMAIN, t->res->tdn);
	if (rss == NULL) {
		mlx5dm_prm_fset(in, MLX5DM_TIRC_DISP_TYPE, MLX5DM_TIRC_DISP_DIRECT);
		mlx5dm_prm_fset(in, MLX5DM_TIRC_INLINE_RQN, rqn);
		return;
	}
	mlx5dm_prm_fset(in, MLX5DM_TIRC_DISP_TYPE, MLX5DM_TIRC_DISP_INDIRECT);
	mlx5dm_prm_fset(in, MLX5DM_TIRC_INDIRECT_TABLE, t->rqtn);
	mlx5dm_res_tir_rss_build(rss, in);
}

static int
mlx5dm_res_tir_obj(struct mlx5dm_tir *t, uint32_t rqn, const struct mlx5dm_rss_attr *rss)
{
	const struct mlx5dm_dev_ops *ops = t->res->dev->ops;
	uint8_t in[MLX5DM_CREATE_TIR_IN_BYTES] = { 0 };
	uint8_t out[MLX5DM_CREATE_TIR_OUT_BYTES] = { 0 };

	mlx5dm_res_tir_build(t, rqn, rss, in);
	t->tir = ops->devx_obj_create(t->res->dev->ctx, in, sizeof(in), out, sizeof(out));
	if (t->tir == NULL)
		return mlx5dm_res_cmd_err("CREATE_TIR", out, errno);
	t->tirn = (uint32_t)mlx5dm_prm_fget(out, MLX5DM_CREATE_TIR_OUT_TIRN);
	t->icm_addr = mlx5dm_prm_fget(out, MLX5DM_CREATE_TIR_OUT_ICM_63_40) << 40 |
		      mlx5dm_prm_fget(out, MLX5DM_CREATE_TIR_OUT_ICM_39_32) << 32 |
		      mlx5dm_prm_fget(out, MLX5DM_CREATE_TIR_OUT_ICM_31_0);
	if (t->icm_addr == 0) {
		MLX5DM_LOG(ERR, "res", "CREATE_TIR: device reported no ICM address for TIR 0x%x;"
			   " SW steering cannot deliver to it", t->tirn);
		mlx5dm_res_obj_destroy(t->res, t->tir, "TIR", t->tirn);
		t->tir = NULL;
		return -ENOTSUP;
	}
	return 0;
}

struct mlx5dm_tir *
mlx5dm_res_tir_create(struct mlx5dm_res_ctx *res, const uint32_t *rqns, uint32_t nb_rqns,
		      const struct mlx5dm_rss_attr *rss)
{
	struct mlx5dm_tir *t;
	int ret = 0;

	/* Several RQs only make sense with RSS. */
	if (res == NULL || rqns == NULL || nb_rqns == 0 || nb_rqns > MLX5DM_RES_RQT_MAX ||
	    (nb_rqns > 1 && rss == NULL) ||
	    (rss != NULL && (rss->fields & ~(MLX5DM_RSS_SRC_IP | MLX5DM_RSS_DST_IP |
					     MLX5DM_RSS_L4_SPORT | MLX5DM_RSS_L4_DPORT)))) {
		errno = EINVAL;
		return NULL;
	}
	t = mlx5dm_zmalloc_socket(sizeof(*t), res->dev->socket);
	if (t == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	t->res = res;
	if (rss != NULL)
		ret = mlx5dm_res_rqt_create(t, rqns, nb_rqns);
	if (ret == 0)
		ret = mlx5dm_res_tir_obj(t, rqns[0], rss);
	if (ret < 0) {
		if (t->rqt != NULL)
			mlx5dm_res_obj_destroy(res, t->rqt, "RQT", t->rqtn);
		mlx5dm_free(t);
		errno = -ret;
		return NULL;
	}
	mlx5dm_res_live_add(&res->live.tirs, 1);
	MLX5DM_LOG(DEBUG, "res", "TIR 0x%x (%s, %u RQs) at ICM 0x%" PRIx64, t->tirn,
		   rss != NULL ? "RSS" : "direct", nb_rqns, t->icm_addr);
	return t;
}

int
mlx5dm_tir_destroy(struct mlx5dm_tir *t)
{
	int ret;

	if (t == NULL)
		return -EINVAL;
	ret = mlx5dm_res_obj_destroy(t->res, t->tir, "TIR", t->tirn);
	if (ret < 0)
		return ret;
	if (t->rqt != NULL)
		mlx5dm_res_obj_destroy(t->res, t->rqt, "RQT of a TIR", t->rqtn);
	mlx5dm_res_live_add(&t->res->live.tirs, -1);
	mlx5dm_free(t);
	return 0;
}

uint32_t
mlx5dm_res_tir_number(const struct mlx5dm_tir *tir)
{
	return tir->tirn;
}

uint64_t
mlx5dm_res_tir_icm_addr(const struct mlx5dm_tir *tir)
{
	return tir->icm_addr;
}

struct mlx5dm_tir *
mlx5dm_tir_create(struct mlx5dm_ctx *ctx, const uint32_t *rqns, uint32_t nb_rqns,
		  const struct mlx5dm_rss_attr *rss)
{
	return mlx5dm_res_tir_create(mlx5dm_ctx_res(ctx), rqns, nb_rqns, rss);
}
