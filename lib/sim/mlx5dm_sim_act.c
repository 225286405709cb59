/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The action executor: runs the action area of a hit STE (8 bytes in a
 * BWC entry, 12 in a MATCH entry) slot by slot in order, and the lists
 * those slots point to (MODIFY_LIST in HEADER_MODIFY ICM, ACCELERATED_LIST
 * = pattern ICM combined with argument data). Single actions take 4 bytes
 * of an STE's area; in a list every action takes an 8-byte entry.
 */

#include <inttypes.h>
#include <string.h>

#include "mlx5dm_prm_bits.h"
#include "mlx5dm_sim_engine_priv.h"

#define MLX5DM_SIM_LIST_MAX 255u /* #actions is an 8-bit field */
#define MLX5DM_SIM_ACT_SINGLE 4u
#define MLX5DM_SIM_ACT_DOUBLE 8u

/* ste_single_action_modify_list_v1 / ste_double_action_accelerated_..._v1 / flow tag */
static const struct {
	struct mlx5dm_prm_field flow_tag;
	struct mlx5dm_prm_field ml_num, ml_ptr;
	struct mlx5dm_prm_field al_pattern, al_num, al_arg;
} mlx5dm_sim_act_fld = {
	.flow_tag = MLX5DM_PRM_FIELD(0x008, 24),
	.ml_num = MLX5DM_PRM_FIELD(0x008, 8),
	.ml_ptr = MLX5DM_PRM_FIELD(0x010, 16),
	.al_pattern = MLX5DM_PRM_FIELD(0x008, 24),
	.al_num = MLX5DM_PRM_FIELD(0x020, 8),
	.al_arg = MLX5DM_PRM_FIELD(0x028, 24),
};

/* Bytes an action occupies in an STE's action area; 0 = unknown id. */
static unsigned int
mlx5dm_sim_act_size(uint8_t id)
{
	switch (id) {
	case MLX5DM_SIM_ACT_NOP:
	case MLX5DM_SIM_ACT_REMOVE_BY_SIZE:
	case MLX5DM_SIM_ACT_REMOVE_HDR:
	case MLX5DM_SIM_ACT_FLOW_TAG:
	case MLX5DM_SIM_ACT_MODIFY_LIST:
		return MLX5DM_SIM_ACT_SINGLE;
	case MLX5DM_SIM_ACT_COPY:
	case MLX5DM_SIM_ACT_SET:
	case MLX5DM_SIM_ACT_ADD:
	case MLX5DM_SIM_ACT_INSERT_INLINE:
	case MLX5DM_SIM_ACT_INSERT_PTR:
	case MLX5DM_SIM_ACT_ACCEL_LIST:
	case MLX5DM_SIM_ACT_ASO:
		return MLX5DM_SIM_ACT_DOUBLE;
	default:
		return 0;
	}
}

static int mlx5dm_sim_act_one(struct mlx5dm_sim_walk *w, const uint8_t *a, bool in_list);

/* Run n 8-byte list entries. */
static int
mlx5dm_sim_act_list(struct mlx5dm_sim_walk *w, const uint8_t *list, unsigned int n)
{
	unsigned int i;
	int rc;

	for (i = 0; i < n; i++) {
		rc = mlx5dm_sim_act_one(w, list + MLX5DM_SIM_ACT_DOUBLE * i, true);
		if (rc != 0)
			return rc;
	}
	return 0;
}

static int
mlx5dm_sim_act_modify_list(struct mlx5dm_sim_walk *w, const uint8_t *a)
{
	unsigned int n = (unsigned int)mlx5dm_prm_fget(a, mlx5dm_sim_act_fld.ml_num);
	uint32_t ptr = (uint32_t)mlx5dm_prm_fget(a, mlx5dm_sim_act_fld.ml_ptr);
	uint64_t addr = w->caps->header_modify_sw_icm_start + 64ull * ptr;
	uint8_t list[MLX5DM_SIM_LIST_MAX * MLX5DM_SIM_ACT_DOUBLE];

	MLX5DM_SIM_TRACE(w, "   modify list: %u actions at line %u (ICM 0x%" PRIx64 ")", n, ptr,
			 addr);
	if (mlx5dm_sim_icm_read(w->sim, addr, list, n * MLX5DM_SIM_ACT_DOUBLE) != 0) {
		MLX5DM_SIM_TRACE(w, "   modify list unreadable");
		return MLX5DM_SIM_FATE_WALK_ERROR;
	}
	return mlx5dm_sim_act_list(w, list, n);
}

/*
 * Pattern + argument: the pattern holds the actions with their data zeroed,
 * the argument the complete actions; the device combines them with an OR
 * (rdma-core providers/mlx5/dr_ptrn.c), which is what is modelled.
 */
static int
mlx5dm_sim_act_accel_list(struct mlx5dm_sim_walk *w, const uint8_t *a)
{
	uint32_t pat = (uint32_t)mlx5dm_prm_fget(a, mlx5dm_sim_act_fld.al_pattern);
	unsigned int n = (unsigned int)mlx5dm_prm_fget(a, mlx5dm_sim_act_fld.al_num);
	uint32_t arg = (uint32_t)mlx5dm_prm_fget(a, mlx5dm_sim_act_fld.al_arg);
	uint64_t addr = w->caps->header_modify_pattern_sw_icm_start + 64ull * pat;
	uint8_t list[MLX5DM_SIM_LIST_MAX * MLX5DM_SIM_ACT_DOUBLE];
	uint8_t args[MLX5DM_SIM_LIST_MAX * MLX5DM_SIM_ACT_DOUBLE];
	unsigned int i, len = n * MLX5DM_SIM_ACT_DOUBLE;

	MLX5DM_SIM_TRACE(w, "   accelerated list: %u actions, pattern %u (ICM 0x%" PRIx64
			 "), argument %u", n, pat, addr, arg);
	if (mlx5dm_sim_icm_read(w->sim, addr, list, len) != 0) {
		MLX5DM_SIM_TRACE(w, "   pattern unreadable");
		return MLX5DM_SIM_FATE_WALK_ERROR;
	}
	if (mlx5dm_sim_arg_read(w->sim, arg, args, len) != 0) {
		MLX5DM_SIM_TRACE(w, "   argument %u not allocated", arg);
		return MLX5DM_SIM_FATE_WALK_ERROR;
	}
	for (i = 0; i < len; i++)
		list[i] |= args[i];
	return mlx5dm_sim_act_list(w, list, n);
}

static int
mlx5dm_sim_act_one(struct mlx5dm_sim_walk *w, const uint8_t *a, bool in_list)
{
	switch (a[0]) {
	case MLX5DM_SIM_ACT_NOP:
		return 0;
	case MLX5DM_SIM_ACT_FLOW_TAG:
		w->meta.flow_tag = (uint32_t)mlx5dm_prm_fget(a, mlx5dm_sim_act_fld.flow_tag);
		w->meta.has_flow_tag = true;
		w->gen++;
		MLX5DM_SIM_TRACE(w, "   flow tag 0x%06x", w->meta.flow_tag);
		return 0;
	case MLX5DM_SIM_ACT_SET:
	case MLX5DM_SIM_ACT_ADD:
	case MLX5DM_SIM_ACT_COPY:
		return mlx5dm_sim_act_modify(w, a);
	case MLX5DM_SIM_ACT_REMOVE_HDR:
	case MLX5DM_SIM_ACT_REMOVE_BY_SIZE:
	case MLX5DM_SIM_ACT_INSERT_INLINE:
	case MLX5DM_SIM_ACT_INSERT_PTR:
		return mlx5dm_sim_act_reformat(w, a);
	case MLX5DM_SIM_ACT_MODIFY_LIST:
	case MLX5DM_SIM_ACT_ACCEL_LIST:
		if (in_list) {
			MLX5DM_SIM_TRACE(w, "   list action 0x%02x inside a list", a[0]);
			return MLX5DM_SIM_FATE_WALK_ERROR;
		}
		return a[0] == MLX5DM_SIM_ACT_MODIFY_LIST ? mlx5dm_sim_act_modify_list(w, a) :
							     mlx5dm_sim_act_accel_list(w, a);
	case MLX5DM_SIM_ACT_ASO:
		/* Meters, connection tracking and first-hit need ASO object state. */
		MLX5DM_SIM_TRACE(w, "   ASO action (context %u): not modelled",
				 (unsigned int)mlx5dm_prm_get(a, 0x008, 24));
		return MLX5DM_SIM_FATE_WALK_ERROR;
	default:
		MLX5DM_SIM_TRACE(w, "   unknown action id 0x%02x", a[0]);
		return MLX5DM_SIM_FATE_WALK_ERROR;
	}
}

int
mlx5dm_sim_act_run(struct mlx5dm_sim_walk *w, const uint8_t *area, unsigned int len)
{
	unsigned int pos = 0, sz;
	int rc;

	while (pos < len) {
		sz = mlx5dm_sim_act_size(area[pos]);
		if (sz == 0 || pos + sz > len) {
			MLX5DM_SIM_TRACE(w, "   action 0x%02x at slot byte %u does not fit the STE",
					 area[pos], pos);
			return MLX5DM_SIM_FATE_WALK_ERROR;
		}
		rc = mlx5dm_sim_act_one(w, area + pos, false);
		if (rc != 0)
			return rc;
		pos += sz;
	}
	return 0;
}
