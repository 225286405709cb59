/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * STE format v1 (ConnectX-6 Dx): control-part operations and the format's
 * operations table. Positions come from mlx5dm_prm_ste_v1 (layouts as data).
 */

#include <string.h>

#include "mlx5dm_ste_priv.h"

/* A local copy of the layout: the control accessors below compile to constant shifts. */
static const struct mlx5dm_prm_ste_v1_ctrl mlx5dm_ste_v1_ctrl = MLX5DM_PRM_STE_V1_CTRL_INIT;
#define V1 mlx5dm_ste_v1_ctrl

static inline uint64_t
mlx5dm_ste_v1_get(const uint8_t *ste, struct mlx5dm_prm_field f)
{
	return mlx5dm_prm_fget(ste, f);
}

static inline void
mlx5dm_ste_v1_put(uint8_t *ste, struct mlx5dm_prm_field f, uint64_t v)
{
	mlx5dm_prm_fset(ste, f, v);
}

static bool
mlx5dm_ste_v1_lu_is_match(uint16_t lu_type)
{
	return (lu_type >> 8) == MLX5DM_STE_V1_FMT_MATCH;
}

static bool
mlx5dm_ste_v1_is_match_entry(const uint8_t *ste)
{
	return mlx5dm_ste_v1_get(ste, V1.entry_format) == MLX5DM_STE_V1_FMT_MATCH;
}

/* A lookup type is split: mode -> entry_format, index -> definer ctx index. */
static void
mlx5dm_ste_v1_set_lu_type(uint8_t *ste, uint16_t lu_type)
{
	mlx5dm_ste_v1_put(ste, V1.entry_format, lu_type >> 8);
	mlx5dm_ste_v1_put(ste, V1.match_definer_ctx_idx, lu_type & 0xff);
}

/* MATCH entries have no next_entry_format: those bits hold actions. */
static void
mlx5dm_ste_v1_set_next_lu_type(uint8_t *ste, uint16_t lu_type)
{
	if (!mlx5dm_ste_v1_is_match_entry(ste))
		mlx5dm_ste_v1_put(ste, V1.next_entry_format, lu_type >> 8);
	mlx5dm_ste_v1_put(ste, V1.hash_definer_ctx_idx, lu_type & 0xff);
}

static uint16_t
mlx5dm_ste_v1_get_next_lu_type(const uint8_t *ste)
{
	uint16_t mode = 0;

	if (!mlx5dm_ste_v1_is_match_entry(ste))
		mode = (uint16_t)mlx5dm_ste_v1_get(ste, V1.next_entry_format);
	return (uint16_t)(mode << 8 | mlx5dm_ste_v1_get(ste, V1.hash_definer_ctx_idx));
}

/* Only BWC entries carry a byte mask (MATCH tables hash the whole tag). */
static void
mlx5dm_ste_v1_set_byte_mask(uint8_t *ste, uint16_t byte_mask)
{
	if (!mlx5dm_ste_v1_is_match_entry(ste))
		mlx5dm_ste_v1_put(ste, V1.byte_mask, byte_mask);
}

static uint16_t
mlx5dm_ste_v1_get_byte_mask(const uint8_t *ste)
{
	if (mlx5dm_ste_v1_is_match_entry(ste))
		return 0;
	return (uint16_t)mlx5dm_ste_v1_get(ste, V1.byte_mask);
}

/*
 * Hit pointer = (icm_addr >> 5) | num_entries: tables are aligned to their
 * size (64 B per entry), so bit log2(N) of the 32-byte index is free and
 * carries the size. 40 address bits are encodable (39..5).
 */
static void
mlx5dm_ste_v1_set_hit_addr(uint8_t *ste, uint64_t icm_addr, uint32_t num_entries)
{
	uint64_t idx = (icm_addr >> 5) | num_entries;

	mlx5dm_ste_v1_put(ste, V1.next_table_base_39_32_size, idx >> 27);
	mlx5dm_ste_v1_put(ste, V1.next_table_base_31_5_size, idx);
}

static void
mlx5dm_ste_v1_set_hit_gvmi(uint8_t *ste, uint16_t gvmi)
{
	mlx5dm_ste_v1_put(ste, V1.next_table_base_63_48, gvmi);
}

/* Miss pointer = icm_addr >> 6, split 8 + 26 bits. */
static void
mlx5dm_ste_v1_set_miss_addr(uint8_t *ste, uint64_t icm_addr)
{
	uint64_t idx = icm_addr >> 6;

	mlx5dm_ste_v1_put(ste, V1.miss_address_39_32, idx >> 26);
	mlx5dm_ste_v1_put(ste, V1.miss_address_31_6, idx);
}

static uint64_t
mlx5dm_ste_v1_get_miss_addr(const uint8_t *ste)
{
	uint64_t idx = mlx5dm_ste_v1_get(ste, V1.miss_address_31_6) |
		       mlx5dm_ste_v1_get(ste, V1.miss_address_39_32) << 26;

	return idx << 6;
}

static void
mlx5dm_ste_v1_set_counter_id(uint8_t *ste, uint32_t counter_id)
{
	mlx5dm_ste_v1_put(ste, V1.counter_id, counter_id);
}

static uint32_t
mlx5dm_ste_v1_get_counter_id(const uint8_t *ste)
{
	return (uint32_t)mlx5dm_ste_v1_get(ste, V1.counter_id);
}

/*
 * Single-action slots of the action area (12 bytes of a MATCH entry from
 * offset 20, 8 of a BWC entry from 24) reading as a flow tag of value tag
 * (any value when any): the offset of the one such slot, or -1 (a double
 * action's data half could read so too: then the caller cannot tell which
 * one to rewrite).
 */
static int
mlx5dm_ste_v1_tag_slot(const uint8_t *ste, uint32_t tag, bool any)
{
	const struct mlx5dm_prm_ste_v1_act_flow_tag *l = &mlx5dm_prm_ste_v1_act_flow_tag;
	unsigned int off = mlx5dm_ste_v1_is_match_entry(ste) ? MLX5DM_STE_V1_MATCH_ACTION_OFF :
							       MLX5DM_STE_V1_BWC_ACTION_OFF;
	const unsigned int end = MLX5DM_STE_V1_MATCH_ACTION_OFF + MLX5DM_STE_V1_ACTION_TRIPLE_SIZE;
	const unsigned int step = MLX5DM_STE_V1_ACTION_SINGLE_SIZE;
	int found = -1, n = 0;

	for (; off + step <= end; off += step)
		if (mlx5dm_prm_fget(ste + off, l->action_id) == MLX5DM_STE_V1_ACT_FLOW_TAG &&
		    (any || mlx5dm_prm_fget(ste + off, l->flow_tag) == tag)) {
			found = (int)off;
			n++;
		}
	return n == 1 ? found : -1;
}

static int
mlx5dm_ste_v1_flow_tag_slot(const uint8_t *ste, uint32_t tag)
{
	return mlx5dm_ste_v1_tag_slot(ste, tag, false);
}

static int
mlx5dm_ste_v1_get_flow_tag(const uint8_t *ste, uint32_t *tag)
{
	int off = mlx5dm_ste_v1_tag_slot(ste, 0, true);

	if (off < 0)
		return -1;
	*tag = (uint32_t)mlx5dm_prm_fget(ste + off,
					 mlx5dm_prm_ste_v1_act_flow_tag.flow_tag);
	return 0;
}

/*
 * v1 control has no direction-specific entry type (v0 does): dir is
 * accepted for the common signature and ignored.
 */
static void
mlx5dm_ste_v1_init(uint8_t *ste, uint16_t lu_type, enum mlx5dm_ste_dir dir, uint16_t gvmi)
{
	(void)dir;
	mlx5dm_ste_v1_set_lu_type(ste, lu_type);
	/* MATCH entries have no gvmi field (those bits hold actions). */
	if (!mlx5dm_ste_v1_lu_is_match(lu_type))
		mlx5dm_ste_v1_put(ste, V1.gvmi, gvmi);
	mlx5dm_ste_v1_set_next_lu_type(ste, MLX5DM_STE_V1_LU_DONT_CARE);
	mlx5dm_ste_v1_put(ste, V1.next_table_base_63_48, gvmi);
	mlx5dm_ste_v1_put(ste, V1.miss_address_63_48, gvmi);
}

/*
 * Always hit into the next table. An entry leading to a MATCH table must
 * itself be a MATCH entry (miss 0, first action dword cleared); otherwise
 * it becomes a byte-mask BWC entry carrying the next table's byte mask.
 */
static void
mlx5dm_ste_v1_set_ctrl_always_hit(uint8_t *ste, uint16_t next_lu_type, uint16_t next_byte_mask,
				  uint64_t next_icm_addr, uint32_t next_num_entries,
				  uint16_t gvmi)
{
	if (mlx5dm_ste_v1_lu_is_match(next_lu_type)) {
		mlx5dm_ste_v1_put(ste, V1.entry_format, MLX5DM_STE_V1_FMT_MATCH);
		mlx5dm_ste_v1_set_miss_addr(ste, 0);
		mlx5dm_prm_set(ste, V1.match_action.bit, 32, 0);
	} else {
		mlx5dm_ste_v1_put(ste, V1.entry_format, MLX5DM_STE_V1_FMT_BWC_BYTE);
		mlx5dm_ste_v1_set_byte_mask(ste, next_byte_mask);
		mlx5dm_ste_v1_put(ste, V1.gvmi, gvmi);
		mlx5dm_ste_v1_put(ste, V1.mask_mode, 0);
	}
	mlx5dm_ste_v1_set_next_lu_type(ste, next_lu_type);
	mlx5dm_ste_v1_set_hit_addr(ste, next_icm_addr, next_num_entries);
}

/* Hit pointer all ones with size 0: no valid table; only the miss path. */
static void
mlx5dm_ste_v1_set_ctrl_always_miss(uint8_t *ste, uint64_t miss_icm_addr, uint16_t gvmi)
{
	(void)gvmi;
	mlx5dm_ste_v1_set_hit_addr(ste, UINT64_MAX, 0);
	mlx5dm_ste_v1_set_next_lu_type(ste, MLX5DM_STE_V1_LU_DONT_CARE);
	mlx5dm_ste_v1_set_miss_addr(ste, miss_icm_addr);
}

/* The device keeps the mask before the tag in BWC entries. */
static void
mlx5dm_ste_v1_to_hw(uint8_t *ste, unsigned int size)
{
	uint8_t tmp[MLX5DM_STE_TAG_SIZE];

	if (size != MLX5DM_STE_SIZE || mlx5dm_ste_v1_is_match_entry(ste))
		return;
	memcpy(tmp, ste + MLX5DM_STE_TAG_OFF, sizeof(tmp));
	memcpy(ste + MLX5DM_STE_TAG_OFF, ste + MLX5DM_STE_MASK_OFF, sizeof(tmp));
	memcpy(ste + MLX5DM_STE_MASK_OFF, tmp, sizeof(tmp));
}

const struct mlx5dm_ste_ctx mlx5dm_ste_ctx_v1 = {
	.format_version = 1,
	.name = "STE v1 (ConnectX-6 Dx)",
	.caps = MLX5DM_STE_CAP_RX_ENCAP | MLX5DM_STE_CAP_TX_POP | MLX5DM_STE_CAP_RX_PUSH |
		MLX5DM_STE_CAP_POP_MODIFY | MLX5DM_STE_CAP_MODIFY_INLINE,
	.lu_dont_care = MLX5DM_STE_V1_LU_DONT_CARE,
	.lu_action = MLX5DM_STE_V1_LU_MATCH | MLX5DM_STE_V1_LU_DONT_CARE,
	.lookups = mlx5dm_ste_v1_lookups,
	.flex_lookups = &mlx5dm_ste_v1_flex_lookups[0][0],
	.modify_map = mlx5dm_ste_v1_modify_map,
	.modify_map_size = MLX5DM_MODIFY_FLD_MAX,
	.init = mlx5dm_ste_v1_init,
	.is_match_entry = mlx5dm_ste_v1_is_match_entry,
	.set_next_lu_type = mlx5dm_ste_v1_set_next_lu_type,
	.get_next_lu_type = mlx5dm_ste_v1_get_next_lu_type,
	.set_byte_mask = mlx5dm_ste_v1_set_byte_mask,
	.get_byte_mask = mlx5dm_ste_v1_get_byte_mask,
	.set_hit_addr = mlx5dm_ste_v1_set_hit_addr,
	.set_hit_gvmi = mlx5dm_ste_v1_set_hit_gvmi,
	.set_miss_addr = mlx5dm_ste_v1_set_miss_addr,
	.get_miss_addr = mlx5dm_ste_v1_get_miss_addr,
	.set_counter_id = mlx5dm_ste_v1_set_counter_id,
	.get_counter_id = mlx5dm_ste_v1_get_counter_id,
	.flow_tag_slot = mlx5dm_ste_v1_flow_tag_slot,
	.set_flow_tag = mlx5dm_ste_v1_write_flow_tag,
	.get_flow_tag = mlx5dm_ste_v1_get_flow_tag,
	.set_ctrl_always_hit = mlx5dm_ste_v1_set_ctrl_always_hit,
	.set_ctrl_always_miss = mlx5dm_ste_v1_set_ctrl_always_miss,
	.to_hw = mlx5dm_ste_v1_to_hw,
	.place_actions = mlx5dm_ste_v1_place_actions,
	.modify_encode = mlx5dm_ste_v1_modify_encode,
	.decap_l3_list = mlx5dm_ste_v1_decap_l3_list,
	.modify_pattern = mlx5dm_ste_v1_modify_pattern,
	.modify_pattern_key = mlx5dm_ste_v1_modify_pattern_key,
};
