/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Modify-header argument pools (rdma-core providers/mlx5/dr_arg.c). In pattern + argument
 * mode an STE's ACCELERATED_LIST action names the action data by argument
 * id: the id of a HEADER_MODIFY_ARGUMENT general object (0x23) plus a
 * 64-byte unit offset inside it. An object spans 2^log_obj_range units,
 * log_obj_range = min(max_alloc, max(granularity, 12)); creating one per
 * rule would cost a firmware command each, so objects are carved into
 * slots of 1, 2, 4 or 8 units (up to 8, 16, 32, 64 actions), one pool per
 * slot size, each with a free list per object.
 *
 * Unlike rdma-core (which keeps objects until the domain goes), an object
 * counts its slots in use and is destroyed when the last one is returned,
 * except that each pool keeps one empty object so that a rule inserted and
 * deleted in a loop does not create and destroy an object every time.
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_osdep.h"
#include "mlx5dm_prm_res.h"
#include "mlx5dm_res.h"

struct mlx5dm_res_arg {
	struct mlx5dm_res_arg_obj *obj;
	struct mlx5dm_res_arg *next_free;
	uint32_t id;                      /* object id + unit offset */
};

struct mlx5dm_res_arg_obj {
	LIST_ENTRY(mlx5dm_res_arg_obj) next;  /* in its pool's avail or full list */
	struct mlx5dm_res_arg_pool *pool;
	struct mlx5dm_res_ctx *res;
	struct mlx5dv_devx_obj *obj;
	uint32_t id;
	uint32_t used;                    /* slots handed out */
	struct mlx5dm_res_arg *free;      /* free slots, lowest id first */
	struct mlx5dm_res_arg slots[];
};

/* CREATE_GENERAL_OBJECT of a HEADER_MODIFY_ARGUMENT object; NULL + errno. */
static struct mlx5dm_res_arg_obj *
mlx5dm_res_arg_obj_create(struct mlx5dm_res_ctx *res, struct mlx5dm_res_arg_pool *pool)
{
	uint8_t in[MLX5DM_CREATE_ARG_IN_BYTES] = { 0 };
	uint8_t out[MLX5DM_GOBJ_OUT_BYTES] = { 0 };
	uint32_t nslots = 1u << (res->log_arg_obj_range - pool->log_units);
	struct mlx5dm_res_arg_obj *o;
	uint32_t i;
	int ret;

	o = mlx5dm_zmalloc_socket(sizeof(*o) + nslots * sizeof(o->slots[0]), res->dev->socket);
	if (o == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	mlx5dm_prm_fset(in, MLX5DM_CMD_IN_OPCODE, MLX5DM_CMD_OP_CREATE_GENERAL_OBJECT);
	mlx5dm_prm_fset(in, MLX5DM_GOBJ_IN_OBJ_TYPE, MLX5DM_GOBJ_TYPE_HEADER_MODIFY_ARGUMENT);
	mlx5dm_prm_fset(in, MLX5DM_GOBJ_IN_LOG_OBJ_RANGE, res->log_arg_obj_range);
	mlx5dm_prm_fset(in, MLX5DM_ARG_IN_ACCESS_PD, res->pdn);
	o->obj = res->dev->ops->devx_obj_create(res->dev->ctx, in, sizeof(in), out, sizeof(out));
	if (o->obj == NULL) {
		ret = mlx5dm_res_cmd_err("CREATE_GENERAL_OBJECT (modify-header argument)", out,
					 errno);
		mlx5dm_free(o);
		errno = -ret;
		return NULL;
	}
	o->pool = pool;
	o->res = res;
	o->id = (uint32_t)mlx5dm_prm_fget(out, MLX5DM_GOBJ_OUT_OBJ_ID);
	for (i = nslots; i-- > 0;) {
		o->slots[i].obj = o;
		o->slots[i].id = o->id + (i << pool->log_units);
		o->slots[i].next_free = o->free;
		o->free = &o->slots[i];
	}
	mlx5dm_res_live_add(&res->live.arg_objs, 1);
	MLX5DM_LOG(DEBUG, "res", "argument object 0x%x: 2^%u units, %u slots of %u", o->id,
		   res->log_arg_obj_range, nslots, 1u << pool->log_units);
	return o;
}

static int
mlx5dm_res_arg_obj_destroy(struct mlx5dm_res_arg_obj *o)
{
	struct mlx5dm_res_ctx *res = o->res;
	/* A failure is logged; the slots are gone from the pool either way. */
	int ret = mlx5dm_res_obj_destroy(res, o->obj, "argument object", o->id);

	mlx5dm_res_live_add(&res->live.arg_objs, -1);
	mlx5dm_free(o);
	return ret;
}

int
mlx5dm_res_arg_alloc(struct mlx5dm_res_ctx *res, uint32_t nb_actions,
		     struct mlx5dm_res_arg **out)
{
	uint32_t units = (nb_actions + MLX5DM_RES_ARG_ACTIONS_PER_UNIT - 1) /
			 MLX5DM_RES_ARG_ACTIONS_PER_UNIT;
	unsigned int cls = mlx5dm_log2_ceil(units);
	struct mlx5dm_res_arg_pool *pool;
	struct mlx5dm_res_arg_obj *o;
	struct mlx5dm_res_arg *a;

	if (res == NULL || out == NULL || nb_actions == 0 ||
	    nb_actions > MLX5DM_RES_ARG_MAX_ACTIONS)
		return -EINVAL;
	if (!res->attr.arg_supported || cls > res->log_arg_obj_range) {
		MLX5DM_LOG(ERR, "res", "no modify-header argument of %u units: objects %s, "
			   "log range %u", 1u << cls,
			   res->attr.arg_supported ? "supported" : "unsupported",
			   res->log_arg_obj_range);
		return -ENOTSUP;
	}
	pool = &res->arg_pools[cls];
	pthread_mutex_lock(&res->lock);
	o = LIST_FIRST(&pool->avail);
	if (o == NULL) {
		o = mlx5dm_res_arg_obj_create(res, pool);
		if (o == NULL) {
			int err = errno;

			pthread_mutex_unlock(&res->lock);
			return -err;
		}
		LIST_INSERT_HEAD(&pool->avail, o, next);
		pool->nempty++;
	}
	a = o->free;
	o->free = a->next_free;
	a->next_free = NULL;
	if (o->used++ == 0)
		pool->nempty--;
	if (o->free == NULL) {
		LIST_REMOVE(o, next);
		LIST_INSERT_HEAD(&pool->full, o, next);
	}
	pthread_mutex_unlock(&res->lock);
	mlx5dm_res_live_add(&res->live.args, 1);
	*out = a;
	return 0;
}

void
mlx5dm_res_arg_free(struct mlx5dm_res_arg *a)
{
	struct mlx5dm_res_arg_obj *o, *drop = NULL;
	struct mlx5dm_res_arg_pool *pool;
	struct mlx5dm_res_ctx *res;

	if (a == NULL)
		return;
	o = a->obj;
	pool = o->pool;
	res = o->res;
	pthread_mutex_lock(&res->lock);
	if (o->free == NULL) {
		LIST_REMOVE(o, next);
		LIST_INSERT_HEAD(&pool->avail, o, next);
	}
	a->next_free = o->free;
	o->free = a;
	if (--o->used == 0) {
		if (pool->nempty > 0) {
			LIST_REMOVE(o, next);
			drop = o;
		} else {
			pool->nempty++;
		}
	}
	pthread_mutex_unlock(&res->lock);
	mlx5dm_res_live_add(&res->live.args, -1);
	if (drop != NULL)
		mlx5dm_res_arg_obj_destroy(drop);
}

uint32_t
mlx5dm_res_arg_id(const struct mlx5dm_res_arg *a)
{
	return a->id;
}

uint32_t
mlx5dm_res_arg_units(const struct mlx5dm_res_arg *a)
{
	return 1u << a->obj->pool->log_units;
}

int
mlx5dm_res_arg_pools_fini(struct mlx5dm_res_ctx *res)
{
	struct mlx5dm_res_arg_obj *o;
	unsigned int i;
	int ret, first = 0;

	/* Only empty objects are left: the context refuses to close while slots are used. */
	for (i = 0; i < MLX5DM_RES_ARG_CLASSES; i++) {
		struct mlx5dm_res_arg_pool *pool = &res->arg_pools[i];

		while ((o = LIST_FIRST(&pool->avail)) != NULL) {
			LIST_REMOVE(o, next);
			ret = mlx5dm_res_arg_obj_destroy(o);
			first = first != 0 ? first : ret;
		}
		pool->nempty = 0;
	}
	return first;
}
