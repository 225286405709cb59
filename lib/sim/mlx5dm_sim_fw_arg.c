/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Modify-header argument objects (general object 0x23). An object covers
 * 2^log_obj_range 64-byte units; its id is the first unit and "object id +
 * unit" is the argument id an ACCELERATED_LIST action names. Units live in
 * the argument region and are written only by FLOW_TBL_ACCESS WQEs
 * (opmod 1), one unit per WQE, line-atomically like ICM.
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_sim_core.h"

#define MLX5DM_SIM_ARG_MAX_RANGE 16

struct mlx5dm_sim_arg {
	struct mlx5dm_sim_obj h;   /* aux0 = object type, aux1 = first unit, aux2 = log range */
	struct mlx5dm_sim_pd *pd;
};

int
mlx5dm_sim_cmd_create_gobj(struct mlx5dm_sim_cmd *c)
{
	uint32_t log = (uint32_t)mlx5dm_sim_in(c, MLX5DM_SIM_GO_IN_LOG_RANGE);
	struct mlx5dm_sim_region *g = &c->sim->region[MLX5DM_SIM_REGION_ARG];
	struct mlx5dm_sim_arg *a;
	struct mlx5dm_sim_pd *pd;
	int64_t base;

	if (mlx5dm_sim_in(c, MLX5DM_SIM_GO_IN_TYPE) != MLX5DM_SIM_OBJ_MODIFY_HDR_ARG ||
	    g->size == 0)
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "general object type not supported");
	if (c->inlen < MLX5DM_SIM_GO_HDR_BYTES + 20)
		return MLX5DM_SIM_FAIL(c, BAD_INPUT_LEN, "no modify_header_arg");
	if (log > MLX5DM_SIM_ARG_MAX_RANGE)
		return MLX5DM_SIM_FAIL(c, BAD_PARAM,
				       "log_obj_range above log_header_modify_argument_max_alloc");
	pd = mlx5dm_sim_obj_get(c->sim, MLX5DM_SIM_K_PD, (uint32_t)mlx5dm_sim_in_at(c,
				MLX5DM_SIM_GO_HDR_BYTES, MLX5DM_SIM_ARG_ACCESS_PD));
	if (pd == NULL)
		return MLX5DM_SIM_FAIL(c, BAD_RES, "access_pd names no PD");
	base = mlx5dm_sim_bitmap_find_area(&g->blocks, 1ull << log, 1ull << log);
	if (base < 0)
		return MLX5DM_SIM_FAIL(c, NO_RES, "out of argument units");
	a = mlx5dm_sim_obj_new(c->sim, MLX5DM_SIM_K_ARG, sizeof(*a));
	if (a == NULL)
		return MLX5DM_SIM_FAIL(c, NO_RES, "out of argument objects");
	mlx5dm_sim_bitmap_set(&g->blocks, (uint64_t)base, 1ull << log, true);
	a->pd = pd;
	pd->h.refs++;
	a->h.aux[0] = MLX5DM_SIM_OBJ_MODIFY_HDR_ARG;
	a->h.aux[1] = (uint32_t)base;
	a->h.aux[2] = log;
	mlx5dm_sim_out(c, MLX5DM_SIM_GO_OUT_ID, (uint64_t)base);
	c->obj = &a->h;
	return MLX5DM_SIM_ST_OK;
}

static int
mlx5dm_sim_gobj_named(struct mlx5dm_sim_cmd *c)
{
	if (c->obj == NULL || mlx5dm_sim_in(c, MLX5DM_SIM_GO_IN_TYPE) != c->obj->aux[0] ||
	    mlx5dm_sim_in(c, MLX5DM_SIM_GO_IN_ID) != c->obj->aux[1])
		return MLX5DM_SIM_FAIL(c, BAD_RES, "no such general object");
	return MLX5DM_SIM_ST_OK;
}

int
mlx5dm_sim_cmd_query_gobj(struct mlx5dm_sim_cmd *c)
{
	int st = mlx5dm_sim_gobj_named(c);

	if (st == MLX5DM_SIM_ST_OK)
		mlx5dm_sim_out(c, MLX5DM_SIM_GO_OUT_ID, c->obj->aux[1]);
	return st;
}

int
mlx5dm_sim_cmd_destroy_gobj(struct mlx5dm_sim_cmd *c)
{
	struct mlx5dm_sim_arg *a = (struct mlx5dm_sim_arg *)c->obj;
	uint64_t n;
	int st = mlx5dm_sim_gobj_named(c);

	if (st != MLX5DM_SIM_ST_OK)
		return st;
	n = 1ull << a->h.aux[2];
	mlx5dm_sim_bitmap_set(&c->sim->region[MLX5DM_SIM_REGION_ARG].blocks, a->h.aux[1], n, false);
	mlx5dm_sim_region_discard(c->sim, MLX5DM_SIM_REGION_ARG, (uint64_t)a->h.aux[1] * 64,
				  n * 64);
	a->pd->h.refs--;
	mlx5dm_sim_obj_free(c->sim, a);
	return MLX5DM_SIM_ST_OK;
}

int
mlx5dm_sim_arg_read(struct mlx5dm_sim *sim, uint32_t arg_id, void *dst, size_t len)
{
	uint64_t off = (uint64_t)arg_id * 64;

	if (!mlx5dm_sim_region_live(sim, MLX5DM_SIM_REGION_ARG, off, len))
		return -ENOENT;
	mlx5dm_sim_region_read(sim, MLX5DM_SIM_REGION_ARG, off, dst, len);
	return 0;
}

int
mlx5dm_sim_arg_write(struct mlx5dm_sim *sim, uint32_t arg_id, uint32_t pdn,
		     const uint8_t data[64])
{
	struct mlx5dm_sim_id_table *t = &sim->tab[MLX5DM_SIM_K_ARG];
	uint32_t i;

	/* Caller holds the read lock; objects are few (each covers thousands of units). */
	for (i = 0; i < t->cap; i++) {
		struct mlx5dm_sim_arg *a = t->slot[i];

		if (a == NULL || arg_id < a->h.aux[1] ||
		    arg_id - a->h.aux[1] >= (1u << a->h.aux[2]))
			continue;
		if (a->pd->h.id != pdn)
			return MLX5DM_SIM_SYND_LOCAL_PROT;
		mlx5dm_sim_region_write(sim, MLX5DM_SIM_REGION_ARG, (uint64_t)arg_id * 64, data,
					64);
		return 0;
	}
	return MLX5DM_SIM_SYND_LOCAL_QP_OP;
}
