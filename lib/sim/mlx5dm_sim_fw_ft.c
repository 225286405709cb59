/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Flow tables, flow groups and flow table entries (firmware objects).
 *
 * SW-owned tables (sw_owner = 1) only record their ICM roots: packets
 * enter them through a root rule and the engine walks the STEs at
 * sw_owner_icm_root_0 (NIC RX and NIC TX both use root 0). FDB tables
 * (on an E-Switch manager only) have two: root 0 for the frames of the
 * wire (RX), root 1 for the frames of the functions (TX); packets enter
 * the one SET_FLOW_TABLE_ROOT names (mlx5dm_sim_esw.c).
 * Firmware-owned tables get a root address in the model's FW window,
 * reported by CREATE/QUERY_FLOW_TABLE; the model resolves such an address
 * only when the table's first always-hit entry (a group with no match
 * criteria) drops, forwards to a TIR, or (TX) allows: see
 * mlx5dm_sim_fw_table_terminal. Other FW table semantics are not modelled.
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_sim_core.h"

#define MLX5DM_SIM_FTE_MAX_DEST 16
#define MLX5DM_SIM_FTE_MAX_FC 4

struct mlx5dm_sim_ft {
	struct mlx5dm_sim_obj h;   /* aux0 = table type */
	uint8_t type;
	uint8_t level;
	uint8_t log_size;
	bool sw_owner;
	uint64_t icm_root0;
	uint64_t icm_root1;
	uint64_t fw_root;
};

struct mlx5dm_sim_fg {
	struct mlx5dm_sim_obj h;   /* aux0 = table type, aux1 = table id */
	struct mlx5dm_sim_ft *ft;
	uint32_t start, end;
	bool always_hit;           /* no match criteria */
};

struct mlx5dm_sim_fte {
	struct mlx5dm_sim_obj h;   /* aux0 = table type, aux1 = table id, aux2 = index */
	struct mlx5dm_sim_fg *fg;
	uint32_t index;
	uint16_t action;
	uint32_t flow_tag;
	uint32_t ndest;
	struct mlx5dm_sim_obj *dest[MLX5DM_SIM_FTE_MAX_DEST];
	uint32_t nfc;
	uint32_t fc[MLX5DM_SIM_FTE_MAX_FC];
};

static bool
mlx5dm_sim_ste_root_ok(struct mlx5dm_sim *sim, uint64_t addr)
{
	uint64_t local, start = sim->region[MLX5DM_SIM_REGION_STE].icm_start;

	if (!mlx5dm_sim_icm_local(sim, addr, &local) || local < start || local % 64 != 0)
		return false;
	return mlx5dm_sim_region_live(sim, MLX5DM_SIM_REGION_STE, local - start, 64);
}

static struct mlx5dm_sim_ft *
mlx5dm_sim_ft_find(struct mlx5dm_sim_cmd *c)
{
	struct mlx5dm_sim_ft *ft = mlx5dm_sim_obj_get(c->sim, MLX5DM_SIM_K_FT,
					(uint32_t)mlx5dm_sim_in(c, MLX5DM_SIM_FT_IN_TABLE_ID));

	if (ft == NULL || ft->type != mlx5dm_sim_in(c, MLX5DM_SIM_FT_IN_TABLE_TYPE))
		return NULL;
	return ft;
}

static void
mlx5dm_sim_put_icm(struct mlx5dm_sim_cmd *c, struct mlx5dm_prm_field f63,
		   struct mlx5dm_prm_field f39, struct mlx5dm_prm_field f31, uint64_t addr)
{
	mlx5dm_sim_out(c, f63, addr >> 40);
	mlx5dm_sim_out(c, f39, (addr >> 32) & 0xff);
	mlx5dm_sim_out(c, f31, addr & 0xffffffffu);
}

int
mlx5dm_sim_cmd_create_ft(struct mlx5dm_sim_cmd *c)
{
	const unsigned int ctx = MLX5DM_SIM_FT_IN_CTX_BYTE;
	uint64_t type = mlx5dm_sim_in(c, MLX5DM_SIM_FT_IN_TABLE_TYPE);
	struct mlx5dm_sim_ft *ft;

	if (type == MLX5DM_SIM_FT_FDB && !mlx5dm_sim_esw_manager(c->sim))
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "FDB: not an e-switch manager");
	if (type != MLX5DM_SIM_FT_NIC_RX && type != MLX5DM_SIM_FT_NIC_TX &&
	    type != MLX5DM_SIM_FT_FDB)
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "unsupported table_type");
	if (mlx5dm_sim_in(c, MLX5DM_SIM_FT_IN_OTHER_VPORT))
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "other_vport not supported");
	if (mlx5dm_sim_in_at(c, ctx, MLX5DM_SIM_FTC_LEVEL) > c->sim->cfg.log_max_ft_level)
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "level above max_ft_level");
	if (mlx5dm_sim_in_at(c, ctx, MLX5DM_SIM_FTC_SW_OWNER) &&
	    !mlx5dm_sim_ste_root_ok(c->sim, mlx5dm_sim_in_at(c, ctx, MLX5DM_SIM_FTC_ICM_ROOT_0)))
		return MLX5DM_SIM_FAIL(c, BAD_PARAM,
				       "sw_owner_icm_root_0 is not allocated steering ICM");
	if (mlx5dm_sim_in_at(c, ctx, MLX5DM_SIM_FTC_SW_OWNER) && type == MLX5DM_SIM_FT_FDB &&
	    !mlx5dm_sim_ste_root_ok(c->sim, mlx5dm_sim_in_at(c, ctx, MLX5DM_SIM_FTC_ICM_ROOT_1)))
		return MLX5DM_SIM_FAIL(c, BAD_PARAM,
				       "sw_owner_icm_root_1 is not allocated steering ICM");
	ft = mlx5dm_sim_obj_new(c->sim, MLX5DM_SIM_K_FT, sizeof(*ft));
	if (ft == NULL)
		return MLX5DM_SIM_FAIL(c, NO_RES, "out of flow tables");
	ft->type = (uint8_t)type;
	ft->h.aux[0] = (uint32_t)type;
	ft->level = (uint8_t)mlx5dm_sim_in_at(c, ctx, MLX5DM_SIM_FTC_LEVEL);
	ft->log_size = (uint8_t)mlx5dm_sim_in_at(c, ctx, MLX5DM_SIM_FTC_LOG_SIZE);
	ft->sw_owner = mlx5dm_sim_in_at(c, ctx, MLX5DM_SIM_FTC_SW_OWNER) != 0;
	ft->icm_root0 = mlx5dm_sim_in_at(c, ctx, MLX5DM_SIM_FTC_ICM_ROOT_0);
	ft->icm_root1 = mlx5dm_sim_in_at(c, ctx, MLX5DM_SIM_FTC_ICM_ROOT_1);
	ft->fw_root = ((uint64_t)c->sim->cfg.vhca_id << 48) |
		      ((uint64_t)MLX5DM_SIM_FWFT_WINDOW << MLX5DM_SIM_WINDOW_SHIFT) |
		      (uint64_t)ft->h.id * 64;
	mlx5dm_sim_out(c, MLX5DM_SIM_FT_OUT_TABLE_ID, ft->h.id);
	if (!ft->sw_owner)
		mlx5dm_sim_put_icm(c, MLX5DM_SIM_FT_OUT_ICM_63_40, MLX5DM_SIM_FT_OUT_ICM_39_32,
				   MLX5DM_SIM_FT_OUT_ICM_31_0, ft->fw_root);
	c->obj = &ft->h;
	return MLX5DM_SIM_ST_OK;
}

int
mlx5dm_sim_cmd_destroy_ft(struct mlx5dm_sim_cmd *c)
{
	struct mlx5dm_sim_ft *ft = mlx5dm_sim_ft_find(c);

	if (ft == NULL || &ft->h != c->obj)
		return MLX5DM_SIM_FAIL(c, BAD_RES, "no such flow table");
	if (ft->h.refs != 0)
		return MLX5DM_SIM_FAIL(c, RES_BUSY,
				       "flow table has groups or is a destination");
	mlx5dm_sim_obj_free(c->sim, ft);
	return MLX5DM_SIM_ST_OK;
}

int
mlx5dm_sim_cmd_query_ft(struct mlx5dm_sim_cmd *c)
{
	const unsigned int ctx = MLX5DM_SIM_FT_QOUT_CTX_BYTE;
	struct mlx5dm_sim_ft *ft = mlx5dm_sim_ft_find(c);

	if (ft == NULL)
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "table_type does not match");
	mlx5dm_sim_out_at(c, ctx, MLX5DM_SIM_FTC_SW_OWNER, ft->sw_owner);
	mlx5dm_sim_out_at(c, ctx, MLX5DM_SIM_FTC_LEVEL, ft->level);
	mlx5dm_sim_out_at(c, ctx, MLX5DM_SIM_FTC_LOG_SIZE, ft->log_size);
	mlx5dm_sim_out_at(c, ctx, MLX5DM_SIM_FTC_ICM_ROOT_0,
			  ft->sw_owner ? ft->icm_root0 : ft->fw_root);
	mlx5dm_sim_out_at(c, ctx, MLX5DM_SIM_FTC_ICM_ROOT_1, ft->sw_owner ? ft->icm_root1 : 0);
	return MLX5DM_SIM_ST_OK;
}

bool
mlx5dm_sim_ft_is(struct mlx5dm_sim_obj *o, unsigned int table_type, uint64_t *icm_root)
{
	struct mlx5dm_sim_ft *ft = (struct mlx5dm_sim_ft *)o;

	if (o == NULL || o->kind != MLX5DM_SIM_K_FT || ft->type != table_type)
		return false;
	*icm_root = ft->sw_owner ? ft->icm_root0 : ft->fw_root;
	return true;
}

bool
mlx5dm_sim_ft_fdb_roots(struct mlx5dm_sim_obj *o, uint64_t *rx, uint64_t *tx)
{
	struct mlx5dm_sim_ft *ft = (struct mlx5dm_sim_ft *)o;

	if (o == NULL || o->kind != MLX5DM_SIM_K_FT || ft->type != MLX5DM_SIM_FT_FDB ||
	    !ft->sw_owner)
		return false;
	*rx = ft->icm_root0;
	*tx = ft->icm_root1;
	return true;
}

int
mlx5dm_sim_cmd_create_fg(struct mlx5dm_sim_cmd *c)
{
	struct mlx5dm_sim_ft *ft = mlx5dm_sim_ft_find(c);
	uint32_t start = (uint32_t)mlx5dm_sim_in(c, MLX5DM_SIM_FG_IN_START_INDEX);
	uint32_t end = (uint32_t)mlx5dm_sim_in(c, MLX5DM_SIM_FG_IN_END_INDEX);
	struct mlx5dm_sim_fg *fg;
	unsigned int i;
	bool empty = true;

	if (ft == NULL)
		return MLX5DM_SIM_FAIL(c, BAD_RES, "no such flow table");
	if (ft->sw_owner)
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "SW-owned tables have no groups");
	if (start > end || (uint64_t)end >= (1ull << ft->log_size))
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "bad flow index range");
	for (i = 0; i < MLX5DM_SIM_MATCH_PARAM_BYTES; i++)
		empty = empty && c->in[MLX5DM_SIM_FG_IN_CRITERIA_BYTE + i] == 0;
	fg = mlx5dm_sim_obj_new(c->sim, MLX5DM_SIM_K_FG, sizeof(*fg));
	if (fg == NULL)
		return MLX5DM_SIM_FAIL(c, NO_RES, "out of flow groups");
	fg->ft = ft;
	fg->start = start;
	fg->end = end;
	fg->always_hit = empty || mlx5dm_sim_in(c, MLX5DM_SIM_FG_IN_CRITERIA_EN) == 0;
	fg->h.aux[0] = ft->type;
	fg->h.aux[1] = ft->h.id;
	ft->h.refs++;
	mlx5dm_sim_out(c, MLX5DM_SIM_OUT_OBJ_NUM, fg->h.id);
	c->obj = &fg->h;
	return MLX5DM_SIM_ST_OK;
}

int
mlx5dm_sim_cmd_destroy_fg(struct mlx5dm_sim_cmd *c)
{
	struct mlx5dm_sim_fg *fg = mlx5dm_sim_obj_get(c->sim, MLX5DM_SIM_K_FG,
					(uint32_t)mlx5dm_sim_in(c, MLX5DM_SIM_FG_IN_GROUP_ID));

	if (fg == NULL || fg->ft != mlx5dm_sim_ft_find(c))
		return MLX5DM_SIM_FAIL(c, BAD_RES, "no such flow group");
	if (fg->h.refs != 0)
		return MLX5DM_SIM_FAIL(c, RES_BUSY, "flow group has entries");
	fg->ft->h.refs--;
	mlx5dm_sim_obj_free(c->sim, fg);
	return MLX5DM_SIM_ST_OK;
}

static struct mlx5dm_sim_fte *
mlx5dm_sim_fte_at(struct mlx5dm_sim *sim, struct mlx5dm_sim_ft *ft, uint32_t index)
{
	struct mlx5dm_sim_id_table *t = &sim->tab[MLX5DM_SIM_K_FTE];
	uint32_t i;

	for (i = 0; i < t->cap; i++) {
		struct mlx5dm_sim_fte *e = t->slot[i];

		if (e != NULL && e->fg->ft == ft && e->index == index)
			return e;
	}
	return NULL;
}

/* Destinations and counters of a new entry; 0 or a failed status. */
static int
mlx5dm_sim_fte_lists(struct mlx5dm_sim_cmd *c, struct mlx5dm_sim_ft *ft,
		     struct mlx5dm_sim_fte *e)
{
	const unsigned int fl = MLX5DM_SIM_FTE_IN_CTX_BYTE;
	unsigned int n = (unsigned int)mlx5dm_sim_in_at(c, fl, MLX5DM_SIM_FLC_DEST_LIST_SIZE);
	unsigned int nfc = (unsigned int)mlx5dm_sim_in_at(c, fl, MLX5DM_SIM_FLC_COUNTER_LIST_SIZE);
	unsigned int i, at = fl + MLX5DM_SIM_FLC_DEST_BYTE;

	if (!(e->action & MLX5DM_SIM_FLC_ACT_FWD_DEST))
		n = 0;
	if (!(e->action & MLX5DM_SIM_FLC_ACT_COUNT))
		nfc = 0;
	if (n > MLX5DM_SIM_FTE_MAX_DEST || nfc > MLX5DM_SIM_FTE_MAX_FC ||
	    ((e->action & MLX5DM_SIM_FLC_ACT_FWD_DEST) && n == 0))
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "bad destination list size");
	if (c->inlen < at + 8ull * (n + nfc))
		return MLX5DM_SIM_FAIL(c, BAD_INPUT_LEN, "destination list truncated");
	for (i = 0; i < n; i++, at += 8) {
		uint64_t type = mlx5dm_sim_in_at(c, at, MLX5DM_SIM_DEST_TYPE);
		uint32_t id = (uint32_t)mlx5dm_sim_in_at(c, at, MLX5DM_SIM_DEST_ID);
		struct mlx5dm_sim_obj *d = NULL;
		uint64_t root;

		if (type == MLX5DM_SIM_DEST_FT) {
			d = mlx5dm_sim_obj_get(c->sim, MLX5DM_SIM_K_FT, id);
			if (d != NULL && !mlx5dm_sim_ft_is(d, ft->type, &root))
				d = NULL;
		} else if (type == MLX5DM_SIM_DEST_TIR && ft->type == MLX5DM_SIM_FT_NIC_RX) {
			d = mlx5dm_sim_obj_get(c->sim, MLX5DM_SIM_K_TIR, id);
		}
		if (d == NULL)
			return MLX5DM_SIM_FAIL(c, BAD_PARAM, "bad destination");
		e->dest[e->ndest++] = d;
	}
	for (i = 0; i < nfc; i++, at += 8) {
		uint32_t id = (uint32_t)mlx5dm_sim_in_at(c, at, MLX5DM_SIM_DEST_COUNTER_ID);

		if (!mlx5dm_sim_bitmap_all_set(&c->sim->fc_ids, id, 1) || id < 128)
			return MLX5DM_SIM_FAIL(c, BAD_RES, "no such flow counter");
		e->fc[e->nfc++] = id;
	}
	return MLX5DM_SIM_ST_OK;
}

int
mlx5dm_sim_cmd_set_fte(struct mlx5dm_sim_cmd *c)
{
	const unsigned int fl = MLX5DM_SIM_FTE_IN_CTX_BYTE;
	struct mlx5dm_sim_ft *ft = mlx5dm_sim_ft_find(c);
	uint32_t index = (uint32_t)mlx5dm_sim_in(c, MLX5DM_SIM_FTE_IN_FLOW_INDEX);
	struct mlx5dm_sim_fg *fg;
	struct mlx5dm_sim_fte *e;
	unsigned int i;
	int st;

	if (ft == NULL)
		return MLX5DM_SIM_FAIL(c, BAD_RES, "no such flow table");
	if (c->op_mod != 0)
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "entry modification not modelled");
	fg = mlx5dm_sim_obj_get(c->sim, MLX5DM_SIM_K_FG,
				(uint32_t)mlx5dm_sim_in_at(c, fl, MLX5DM_SIM_FLC_GROUP_ID));
	if (fg == NULL || fg->ft != ft || index < fg->start || index > fg->end)
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "flow index not in the group");
	if (mlx5dm_sim_fte_at(c->sim, ft, index) != NULL)
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "flow index already used");
	if (mlx5dm_sim_in_at(c, fl, MLX5DM_SIM_FLC_EXT_DEST))
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "extended destination");
	e = mlx5dm_sim_obj_new(c->sim, MLX5DM_SIM_K_FTE, sizeof(*e));
	if (e == NULL)
		return MLX5DM_SIM_FAIL(c, NO_RES, "out of flow entries");
	e->action = (uint16_t)mlx5dm_sim_in_at(c, fl, MLX5DM_SIM_FLC_ACTION);
	e->flow_tag = (uint32_t)mlx5dm_sim_in_at(c, fl, MLX5DM_SIM_FLC_FLOW_TAG);
	if (e->action & ~(MLX5DM_SIM_FLC_ACT_ALLOW | MLX5DM_SIM_FLC_ACT_DROP |
			  MLX5DM_SIM_FLC_ACT_FWD_DEST | MLX5DM_SIM_FLC_ACT_COUNT))
		st = MLX5DM_SIM_FAIL(c, BAD_PARAM, "action not modelled");
	else
		st = mlx5dm_sim_fte_lists(c, ft, e);
	if (st != MLX5DM_SIM_ST_OK) {
		mlx5dm_sim_obj_free(c->sim, e);
		return st;
	}
	for (i = 0; i < e->ndest; i++)
		e->dest[i]->refs++;
	e->fg = fg;
	e->index = index;
	e->h.aux[0] = ft->type;
	e->h.aux[1] = ft->h.id;
	e->h.aux[2] = index;
	fg->h.refs++;
	c->obj = &e->h;
	return MLX5DM_SIM_ST_OK;
}

int
mlx5dm_sim_cmd_delete_fte(struct mlx5dm_sim_cmd *c)
{
	struct mlx5dm_sim_ft *ft = mlx5dm_sim_ft_find(c);
	struct mlx5dm_sim_fte *e;
	unsigned int i;

	e = ft == NULL ? NULL :
	    mlx5dm_sim_fte_at(c->sim, ft, (uint32_t)mlx5dm_sim_in(c, MLX5DM_SIM_FTE_IN_FLOW_INDEX));
	if (e == NULL)
		return MLX5DM_SIM_FAIL(c, BAD_RES, "no such flow entry");
	for (i = 0; i < e->ndest; i++)
		e->dest[i]->refs--;
	e->fg->h.refs--;
	mlx5dm_sim_obj_free(c->sim, e);
	return MLX5DM_SIM_ST_OK;
}

bool
mlx5dm_sim_fw_table_terminal(struct mlx5dm_sim *sim, uint64_t local, enum mlx5dm_sim_term *t,
			     uint32_t *tirn)
{
	uint64_t off = local & ((1ull << MLX5DM_SIM_WINDOW_SHIFT) - 1);
	struct mlx5dm_sim_id_table *tab = &sim->tab[MLX5DM_SIM_K_FTE];
	struct mlx5dm_sim_fte *best = NULL;
	struct mlx5dm_sim_ft *ft;
	uint32_t i;

	*t = MLX5DM_SIM_TERM_NONE;
	if ((local >> MLX5DM_SIM_WINDOW_SHIFT) != MLX5DM_SIM_FWFT_WINDOW || off % 64 != 0)
		return false;
	/* Inside a hold (mlx5dm_sim_hold): the tables and entries stay. */
	ft = mlx5dm_sim_obj_get(sim, MLX5DM_SIM_K_FT, (uint32_t)(off / 64));
	for (i = 0; ft != NULL && !ft->sw_owner && i < tab->cap; i++) {
		struct mlx5dm_sim_fte *e = tab->slot[i];

		if (e != NULL && e->fg->ft == ft && e->fg->always_hit &&
		    (best == NULL || e->index < best->index))
			best = e;
	}
	if (best != NULL && (best->action & MLX5DM_SIM_FLC_ACT_DROP)) {
		*t = MLX5DM_SIM_TERM_DROP;
	} else if (best != NULL && best->ndest > 0 && best->dest[0]->kind == MLX5DM_SIM_K_TIR) {
		*t = MLX5DM_SIM_TERM_TIR;
		*tirn = best->dest[0]->id;
	} else if (best != NULL && (best->action & MLX5DM_SIM_FLC_ACT_ALLOW) &&
		   ft->type == MLX5DM_SIM_FT_NIC_TX) {
		*t = MLX5DM_SIM_TERM_TX_WIRE;
	}
	return true;
}
