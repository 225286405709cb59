/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Transport domains, RQ tables and TIRs, and the terminal addresses that
 * end a packet walk (drop, TX allow, TIRs, firmware-table roots).
 *
 * Every TIR gets a unique ICM address in the terminal window
 * (GVMI << 48 | window << 36 | 0x100000 + 64 * tirn), returned by
 * CREATE_TIR in icm_address_63_40/39_32/31_0 (rdma-core verbs.c,
 * set_devx_obj_info()), which is
 * what an STE's hit pointer names to deliver to the TIR.
 */

#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "mlx5dm_sim_core.h"

#define MLX5DM_SIM_RQT_MAX 256
#define MLX5DM_SIM_TIRC_BYTES 240

struct mlx5dm_sim_rqt {
	struct mlx5dm_sim_obj h;
	uint32_t max;
	uint32_t n;
	struct mlx5dm_sim_obj *rq[MLX5DM_SIM_RQT_MAX];
};

struct mlx5dm_sim_tir {
	struct mlx5dm_sim_obj h;
	struct mlx5dm_sim_obj *td;
	struct mlx5dm_sim_obj *rq;      /* direct */
	struct mlx5dm_sim_rqt *rqt;     /* indirect */
	struct mlx5dm_sim_tir_info info; /* all but the RQT entries */
	uint8_t ctx[MLX5DM_SIM_TIRC_BYTES]; /* as created, for QUERY_TIR */
};

int
mlx5dm_sim_cmd_alloc_td(struct mlx5dm_sim_cmd *c)
{
	struct mlx5dm_sim_obj *td = mlx5dm_sim_obj_new(c->sim, MLX5DM_SIM_K_TD, sizeof(*td));

	if (td == NULL)
		return MLX5DM_SIM_FAIL(c, NO_RES, "out of transport domains");
	mlx5dm_sim_out(c, MLX5DM_SIM_OUT_OBJ_NUM, td->id);
	c->obj = td;
	return MLX5DM_SIM_ST_OK;
}

int
mlx5dm_sim_cmd_dealloc_td(struct mlx5dm_sim_cmd *c)
{
	int st = mlx5dm_sim_cmd_destroy_check(c, MLX5DM_SIM_K_TD);

	if (st == MLX5DM_SIM_ST_OK)
		mlx5dm_sim_obj_free(c->sim, c->obj);
	return st;
}

/* Fill an RQT's list from a mailbox's rqt_context; 0 or a failed status. */
static int
mlx5dm_sim_rqt_fill(struct mlx5dm_sim_cmd *c, struct mlx5dm_sim_rqt *t, uint32_t max)
{
	const unsigned int ctx = MLX5DM_SIM_RQT_IN_CTX_BYTE;
	uint32_t n = (uint32_t)mlx5dm_sim_in_at(c, ctx, MLX5DM_SIM_RQTC_ACTUAL_SIZE);
	struct mlx5dm_sim_obj *rq[MLX5DM_SIM_RQT_MAX];
	uint32_t i;

	if (n == 0 || n > max)
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "rqt_actual_size out of range");
	if (c->inlen < ctx + MLX5DM_SIM_RQTC_RQ_LIST_BYTE + 4ull * n)
		return MLX5DM_SIM_FAIL(c, BAD_INPUT_LEN, "RQ list truncated");
	for (i = 0; i < n; i++) {
		unsigned int at = ctx + MLX5DM_SIM_RQTC_RQ_LIST_BYTE + 4 * i;

		rq[i] = mlx5dm_sim_obj_get(c->sim, MLX5DM_SIM_K_RQ,
			(uint32_t)mlx5dm_sim_in_at(c, at, MLX5DM_SIM_RQT_ENTRY_RQN));
		if (rq[i] == NULL)
			return MLX5DM_SIM_FAIL(c, BAD_RES, "RQ list names no RQ");
	}
	for (i = 0; i < t->n; i++)
		t->rq[i]->refs--;
	for (i = 0; i < n; i++) {
		t->rq[i] = rq[i];
		rq[i]->refs++;
	}
	t->n = n;
	return MLX5DM_SIM_ST_OK;
}

int
mlx5dm_sim_cmd_create_rqt(struct mlx5dm_sim_cmd *c)
{
	uint32_t max = (uint32_t)mlx5dm_sim_in_at(c, MLX5DM_SIM_RQT_IN_CTX_BYTE,
						  MLX5DM_SIM_RQTC_MAX_SIZE);
	struct mlx5dm_sim_rqt *t;
	int st;

	if (max == 0 || max > MLX5DM_SIM_RQT_MAX)
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "rqt_max_size above 2^8");
	t = mlx5dm_sim_obj_new(c->sim, MLX5DM_SIM_K_RQT, sizeof(*t));
	if (t == NULL)
		return MLX5DM_SIM_FAIL(c, NO_RES, "out of RQTs");
	st = mlx5dm_sim_rqt_fill(c, t, max);
	if (st != MLX5DM_SIM_ST_OK) {
		mlx5dm_sim_obj_free(c->sim, t);
		return st;
	}
	t->max = max;
	mlx5dm_sim_out(c, MLX5DM_SIM_OUT_OBJ_NUM, t->h.id);
	c->obj = &t->h;
	return MLX5DM_SIM_ST_OK;
}

int
mlx5dm_sim_cmd_modify_rqt(struct mlx5dm_sim_cmd *c)
{
	struct mlx5dm_sim_rqt *t = (struct mlx5dm_sim_rqt *)c->obj;

	/* Bit 0 of modify_bitmask selects the RQ list, the only modifiable field. */
	if ((mlx5dm_sim_in(c, MLX5DM_SIM_RQT_MOD_IN_BITMASK) & 1) == 0)
		return MLX5DM_SIM_ST_OK;
	return mlx5dm_sim_rqt_fill(c, t, t->max);
}

int
mlx5dm_sim_cmd_destroy_rqt(struct mlx5dm_sim_cmd *c)
{
	int st = mlx5dm_sim_cmd_destroy_check(c, MLX5DM_SIM_K_RQT);
	struct mlx5dm_sim_rqt *t = (struct mlx5dm_sim_rqt *)c->obj;
	uint32_t i;

	if (st != MLX5DM_SIM_ST_OK)
		return st;
	for (i = 0; i < t->n; i++)
		t->rq[i]->refs--;
	mlx5dm_sim_obj_free(c->sim, t);
	return MLX5DM_SIM_ST_OK;
}

/* Decode the hashing part of a tirc; 0 or a failed status. */
static int
mlx5dm_sim_tir_hash(struct mlx5dm_sim_cmd *c, const uint8_t *ctx, struct mlx5dm_sim_tir_info *ti)
{
	uint64_t fn = mlx5dm_prm_fget(ctx, MLX5DM_SIM_TIRC_HASH_FN);
	unsigned int sel = MLX5DM_SIM_TIRC_SEL_OUTER_BIT;
	uint32_t fields;

	if (fn != MLX5DM_SIM_HASH_FN_TOEPLITZ && fn != MLX5DM_SIM_HASH_FN_XOR8)
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "indirect TIR needs rx_hash_fn");
	ti->toeplitz = fn == MLX5DM_SIM_HASH_FN_TOEPLITZ;
	ti->symmetric = mlx5dm_prm_fget(ctx, MLX5DM_SIM_TIRC_HASH_SYMMETRIC) != 0;
	memcpy(ti->key, ctx + MLX5DM_SIM_TIRC_TOEPLITZ_KEY_BYTE, sizeof(ti->key));
	/* Tunnel offload with an inner selector: hash on the inner headers. */
	if (mlx5dm_prm_fget(ctx, MLX5DM_SIM_TIRC_TUNNELED_OFFLOAD) &&
	    mlx5dm_prm_get(ctx, MLX5DM_SIM_TIRC_SEL_INNER_BIT + MLX5DM_SIM_HSEL_FIELDS.bit,
			   MLX5DM_SIM_HSEL_FIELDS.width) != 0) {
		sel = MLX5DM_SIM_TIRC_SEL_INNER_BIT;
		ti->inner = true;
	}
	fields = mlx5dm_prm_get(ctx, sel + MLX5DM_SIM_HSEL_FIELDS.bit,
				MLX5DM_SIM_HSEL_FIELDS.width);
	if (fields & ~0xfu)
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "IPsec SPI hashing not modelled");
	ti->fields = fields;
	ti->l3_ipv6 = (uint8_t)mlx5dm_prm_get(ctx, sel + MLX5DM_SIM_HSEL_L3_PROT.bit, 1);
	ti->l4_udp = (uint8_t)mlx5dm_prm_get(ctx, sel + MLX5DM_SIM_HSEL_L4_PROT.bit, 1);
	return MLX5DM_SIM_ST_OK;
}

int
mlx5dm_sim_cmd_create_tir(struct mlx5dm_sim_cmd *c)
{
	const uint8_t *ctx = c->in + MLX5DM_SIM_TIR_IN_CTX_BYTE;
	struct mlx5dm_sim_tir_info ti;
	struct mlx5dm_sim_obj *td, *rq = NULL;
	struct mlx5dm_sim_rqt *rqt = NULL;
	struct mlx5dm_sim_tir *tir;
	uint64_t disp = mlx5dm_prm_fget(ctx, MLX5DM_SIM_TIRC_DISP_TYPE);
	uint64_t icm;
	int st;

	memset(&ti, 0, sizeof(ti));
	td = mlx5dm_sim_obj_get(c->sim, MLX5DM_SIM_K_TD,
				(uint32_t)mlx5dm_prm_fget(ctx, MLX5DM_SIM_TIRC_TRANSPORT_DOMAIN));
	if (td == NULL)
		return MLX5DM_SIM_FAIL(c, BAD_RES, "no such transport domain");
	if (disp == MLX5DM_SIM_TIR_DISP_DIRECT) {
		rq = mlx5dm_sim_obj_get(c->sim, MLX5DM_SIM_K_RQ,
					(uint32_t)mlx5dm_prm_fget(ctx, MLX5DM_SIM_TIRC_INLINE_RQN));
		if (rq == NULL)
			return MLX5DM_SIM_FAIL(c, BAD_RES, "inline_rqn names no RQ");
		ti.inline_rqn = rq->id;
	} else if (disp == MLX5DM_SIM_TIR_DISP_INDIRECT) {
		rqt = mlx5dm_sim_obj_get(c->sim, MLX5DM_SIM_K_RQT,
				(uint32_t)mlx5dm_prm_fget(ctx, MLX5DM_SIM_TIRC_INDIRECT_TABLE));
		if (rqt == NULL)
			return MLX5DM_SIM_FAIL(c, BAD_RES, "indirect_table names no RQT");
		ti.indirect = true;
		st = mlx5dm_sim_tir_hash(c, ctx, &ti);
		if (st != MLX5DM_SIM_ST_OK)
			return st;
	} else {
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "bad disp_type");
	}
	tir = mlx5dm_sim_obj_new(c->sim, MLX5DM_SIM_K_TIR, sizeof(*tir));
	if (tir == NULL)
		return MLX5DM_SIM_FAIL(c, NO_RES, "out of TIRs");
	tir->td = td;
	tir->rq = rq;
	tir->rqt = rqt;
	tir->info = ti;
	memcpy(tir->ctx, ctx, sizeof(tir->ctx));
	td->refs++;
	if (rq != NULL)
		rq->refs++;
	if (rqt != NULL)
		rqt->h.refs++;
	icm = mlx5dm_sim_tir_icm(c->sim, tir->h.id);
	mlx5dm_sim_out(c, MLX5DM_SIM_TIR_OUT_TIRN, tir->h.id);
	mlx5dm_sim_out(c, MLX5DM_SIM_TIR_OUT_ICM_63_40, icm >> 40);
	mlx5dm_sim_out(c, MLX5DM_SIM_TIR_OUT_ICM_39_32, (icm >> 32) & 0xff);
	mlx5dm_sim_out(c, MLX5DM_SIM_TIR_OUT_ICM_31_0, icm & 0xffffffffu);
	c->obj = &tir->h;
	return MLX5DM_SIM_ST_OK;
}

int
mlx5dm_sim_cmd_query_tir(struct mlx5dm_sim_cmd *c)
{
	struct mlx5dm_sim_tir *tir = (struct mlx5dm_sim_tir *)c->obj;

	memcpy(c->out + MLX5DM_SIM_TIR_QOUT_CTX_BYTE, tir->ctx, sizeof(tir->ctx));
	return MLX5DM_SIM_ST_OK;
}

int
mlx5dm_sim_cmd_destroy_tir(struct mlx5dm_sim_cmd *c)
{
	int st = mlx5dm_sim_cmd_destroy_check(c, MLX5DM_SIM_K_TIR);
	struct mlx5dm_sim_tir *tir = (struct mlx5dm_sim_tir *)c->obj;

	if (st != MLX5DM_SIM_ST_OK)
		return st;
	tir->td->refs--;
	if (tir->rq != NULL)
		tir->rq->refs--;
	if (tir->rqt != NULL)
		tir->rqt->h.refs--;
	mlx5dm_sim_obj_free(c->sim, tir);
	return MLX5DM_SIM_ST_OK;
}

int
mlx5dm_sim_tir_info(struct mlx5dm_sim *sim, uint32_t tirn, struct mlx5dm_sim_tir_info *info)
{
	struct mlx5dm_sim_tir *tir;
	uint32_t i;

	/* Inside a hold (mlx5dm_sim_hold): the TIR and its RQT stay. */
	tir = mlx5dm_sim_obj_get(sim, MLX5DM_SIM_K_TIR, tirn);
	if (tir == NULL)
		return -ENOENT;
	memcpy(info, &tir->info, offsetof(struct mlx5dm_sim_tir_info, rqns));
	if (tir->rqt != NULL) {
		info->nb_rqs = tir->rqt->n;
		for (i = 0; i < tir->rqt->n; i++)
			info->rqns[i] = tir->rqt->rq[i]->id;
	}
	return 0;
}

bool
mlx5dm_sim_terminal_possible(const struct mlx5dm_sim *sim, uint64_t icm_addr)
{
	uint64_t local;

	/* As mlx5dm_sim_terminal_lookup decides before it looks at any object. */
	return mlx5dm_sim_icm_local(sim, icm_addr, &local) &&
	       ((local >> MLX5DM_SIM_WINDOW_SHIFT) == MLX5DM_SIM_TERM_WINDOW ||
		(local >> MLX5DM_SIM_WINDOW_SHIFT) == MLX5DM_SIM_FWFT_WINDOW);
}

enum mlx5dm_sim_term
mlx5dm_sim_terminal_lookup(struct mlx5dm_sim *sim, uint64_t icm_addr, uint32_t *tirn)
{
	enum mlx5dm_sim_term t = MLX5DM_SIM_TERM_NONE;
	uint64_t local, off;
	uint32_t n = 0;

	if (!mlx5dm_sim_icm_local(sim, icm_addr, &local))
		return MLX5DM_SIM_TERM_NONE;
	/* Most addresses a walk asks about are STEs: only two windows hold terminals. */
	if ((local >> MLX5DM_SIM_WINDOW_SHIFT) != MLX5DM_SIM_TERM_WINDOW &&
	    (local >> MLX5DM_SIM_WINDOW_SHIFT) != MLX5DM_SIM_FWFT_WINDOW)
		return MLX5DM_SIM_TERM_NONE;
	if (mlx5dm_sim_fw_table_terminal(sim, local, &t, &n)) {
		if (t == MLX5DM_SIM_TERM_TIR && tirn != NULL)
			*tirn = n;
		return t;
	}
	if ((local >> MLX5DM_SIM_WINDOW_SHIFT) != MLX5DM_SIM_TERM_WINDOW)
		return MLX5DM_SIM_TERM_NONE;
	off = local & ((1ull << MLX5DM_SIM_WINDOW_SHIFT) - 1);
	if (off == MLX5DM_SIM_TERM_RX_DROP_OFF || off == MLX5DM_SIM_TERM_TX_DROP_OFF)
		return MLX5DM_SIM_TERM_DROP;
	if (off == MLX5DM_SIM_TERM_TX_ALLOW_OFF)
		return MLX5DM_SIM_TERM_TX_WIRE;
	if (off < MLX5DM_SIM_TERM_TIR_OFF && sim->esw != NULL) {
		t = mlx5dm_sim_esw_terminal(sim, off, &n);
		if (t != MLX5DM_SIM_TERM_NONE && tirn != NULL)
			*tirn = n;
		return t;
	}
	/* A TIR address stays a TIR address after the TIR is gone: tir_info then fails. */
	if (off >= MLX5DM_SIM_TERM_TIR_OFF && (off - MLX5DM_SIM_TERM_TIR_OFF) % 64 == 0 &&
	    (off - MLX5DM_SIM_TERM_TIR_OFF) / 64 <= UINT32_MAX) {
		if (tirn != NULL)
			*tirn = (uint32_t)((off - MLX5DM_SIM_TERM_TIR_OFF) / 64);
		return MLX5DM_SIM_TERM_TIR;
	}
	return MLX5DM_SIM_TERM_NONE;
}
