/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * PRM modify-header entries, and the register writes (SET_TAG, SET_META).
 * Header fields are written through the MODIFY_FIELD table
 * (mlx5dm_flow_modify_field.c). Decrements are ADDs of the complement.
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_flow.h"

#define IN mlx5dm_prm_modify_in

/* Metadata registers: a write there changes no byte of the packet. */
static bool
mlx5dm_flow_modify_is_reg(uint8_t field)
{
	return field == MLX5DM_MODIFY_FLD_METADATA_REG_A ||
	       (field >= MLX5DM_MODIFY_FLD_METADATA_REG_B &&
		field <= MLX5DM_MODIFY_FLD_METADATA_REG_C_5);
}

int
mlx5dm_flow_modify_entry(struct mlx5dm_flow_translation *x, const struct rte_flow_action *a,
			 uint8_t type, uint8_t field, uint8_t offset, uint8_t length, uint32_t data,
			 uint8_t dst, uint8_t dst_offset, struct rte_flow_error *error)
{
	struct mlx5dm_flow_spec *spec = x->spec;
	uint8_t *e;

	if (spec->nb_modify == MLX5DM_FLOW_MAX_MODIFY)
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION, a,
					  "too many header changes in one rule (at most 64 "
					  "fields)");
	e = &spec->modify[spec->nb_modify++ * MLX5DM_MODIFY_ACTION_SIZE];
	memset(e, 0, MLX5DM_MODIFY_ACTION_SIZE);
	if (length != 0 && length < 32)
		data &= (1u << length) - 1;
	mlx5dm_prm_fset(e, IN.action_type, type);
	mlx5dm_prm_fset(e, IN.field, field);
	mlx5dm_prm_fset(e, IN.offset, offset);
	mlx5dm_prm_fset(e, IN.length, length == 32 ? 0 : length); /* 0 means 32 */
	if (type == MLX5DM_MODIFY_ACTION_COPY) {
		mlx5dm_prm_fset(e, IN.dst_field, dst);
		mlx5dm_prm_fset(e, IN.dst_offset, dst_offset);
	} else {
		mlx5dm_prm_fset(e, IN.data, data);
	}
	x->seen |= mlx5dm_flow_modify_is_reg(dst) ? 0 : MLX5DM_FLOW_A_MODIFY;
	return 0;
}

bool
mlx5dm_flow_modify_is_set32(const uint8_t *e, uint32_t *data)
{
	if (mlx5dm_prm_fget(e, IN.action_type) != MLX5DM_MODIFY_ACTION_SET ||
	    mlx5dm_prm_fget(e, IN.offset) != 0 || mlx5dm_prm_fget(e, IN.length) != 0)
		return false;
	*data = (uint32_t)mlx5dm_prm_fget(e, IN.data);
	return true;
}

int
mlx5dm_flow_modify_set(struct mlx5dm_flow_translation *x, const struct rte_flow_action *a,
		       uint8_t field, uint8_t offset, uint8_t length, uint32_t data,
		       struct rte_flow_error *error)
{
	return mlx5dm_flow_modify_entry(x, a, MLX5DM_MODIFY_ACTION_SET, field, offset, length,
					data, field, 0, error);
}

/* Set the bits of mask in a 32-bit register field (one entry per run of ones). */
static int
mlx5dm_flow_modify_set_masked(struct mlx5dm_flow_translation *x, const struct rte_flow_action *a,
			      uint8_t field, uint32_t data, uint32_t mask,
			      struct rte_flow_error *error)
{
	int ret;

	if (mask == 0)
		return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
					  "mask is zero: nothing to set");
	/* One SET per run of ones, lowest first: offset = its lowest bit. */
	while (mask != 0) {
		unsigned int bit = (unsigned int)__builtin_ctz(mask);
		unsigned int len = (unsigned int)__builtin_ctzll(~((uint64_t)mask >> bit));

		ret = mlx5dm_flow_modify_set(x, a, field, (uint8_t)bit, (uint8_t)len,
					     (uint32_t)((uint64_t)data >> bit), error);
		if (ret < 0)
			return ret;
		mask &= (uint32_t)~(((1ull << len) - 1) << bit);
	}
	return 0;
}

#define FLD(n) MLX5DM_MODIFY_FLD_##n

uint8_t
mlx5dm_flow_modify_reg(const struct mlx5dm_flow_translation *x, int index)
{
	static const uint8_t tag_regs[MLX5DM_FLOW_NB_TAGS] = {
		FLD(METADATA_REG_C_2), FLD(METADATA_REG_C_3),
		FLD(METADATA_REG_C_4), FLD(METADATA_REG_C_5),
	};

	/* META is the Tx descriptor's metadata (reg_a) on egress. */
	if (index < 0)
		return x->spec->egress ? FLD(METADATA_REG_A) : FLD(METADATA_REG_C_1);
	return tag_regs[index];
}

/* Registers are not packet headers: their writes may come anywhere (no stage). */
int
mlx5dm_flow_translate_set_reg(struct mlx5dm_flow_translation *x, const struct rte_flow_action *a,
			      struct rte_flow_error *error)
{
	const struct rte_flow_action_set_meta *m = a->conf;
	const struct rte_flow_action_set_tag *t = a->conf;

	if (a->type == RTE_FLOW_ACTION_TYPE_SET_META)
		return mlx5dm_flow_modify_set_masked(x, a, mlx5dm_flow_modify_reg(x, -1), m->data,
						     m->mask, error);
	if (t->index >= MLX5DM_FLOW_NB_TAGS)
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
					  "SET_TAG index must be 0 to 3");
	return mlx5dm_flow_modify_set_masked(x, a, mlx5dm_flow_modify_reg(x, t->index), t->data,
					     t->mask, error);
}
