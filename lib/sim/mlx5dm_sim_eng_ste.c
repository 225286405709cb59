/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Decoding of a 64-byte v1 STE as the device reads it from ICM. The
 * control layout is declared once as data (rdma-core mlx5_ifc.h,
 * ste_match_bwc_v1 / ste_mask_and_match_v1); the pointer arithmetic is
 * rdma-core's dr_ste.c:
 *   hit:  raw = next_table_base_39_32_size << 27 | next_table_base_31_5_size
 *         = (base >> 5) | entries; the lowest set bit is the table size
 *         (tables are aligned to their size), the rest is the base.
 *   miss: address = (miss_address_39_32 << 26 | miss_address_31_6) << 6.
 * The upper 16 bits of both addresses are the GVMI fields.
 */

#include <string.h>

#include "mlx5dm_prm_bits.h"
#include "mlx5dm_sim_eng_priv.h"

static const struct {
	struct mlx5dm_prm_field entry_format;
	struct mlx5dm_prm_field counter_id;
	struct mlx5dm_prm_field miss_63_48;
	struct mlx5dm_prm_field match_definer_ctx_idx;
	struct mlx5dm_prm_field miss_39_32;
	struct mlx5dm_prm_field miss_31_6;
	struct mlx5dm_prm_field reparse;
	struct mlx5dm_prm_field next_63_48;
	struct mlx5dm_prm_field hash_definer_ctx_idx;
	struct mlx5dm_prm_field next_39_32_size;
	struct mlx5dm_prm_field next_31_5_size;
	struct mlx5dm_prm_field byte_mask;         /* BWC only */
	struct mlx5dm_prm_field next_entry_format; /* BWC only */
} mlx5dm_sim_ste_ctrl = {
	.entry_format = MLX5DM_PRM_FIELD(0x000, 8),
	.counter_id = MLX5DM_PRM_FIELD(0x008, 24),
	.miss_63_48 = MLX5DM_PRM_FIELD(0x020, 16),
	.match_definer_ctx_idx = MLX5DM_PRM_FIELD(0x030, 8),
	.miss_39_32 = MLX5DM_PRM_FIELD(0x038, 8),
	.miss_31_6 = MLX5DM_PRM_FIELD(0x040, 26),
	.reparse = MLX5DM_PRM_FIELD(0x05c, 1),
	.next_63_48 = MLX5DM_PRM_FIELD(0x060, 16),
	.hash_definer_ctx_idx = MLX5DM_PRM_FIELD(0x070, 8),
	.next_39_32_size = MLX5DM_PRM_FIELD(0x078, 8),
	.next_31_5_size = MLX5DM_PRM_FIELD(0x080, 27),
	.byte_mask = MLX5DM_PRM_FIELD(0x0a0, 16),
	.next_entry_format = MLX5DM_PRM_FIELD(0x0b0, 1),
};

/* Byte offsets of the action area and match data per entry format. */
#define MLX5DM_SIM_STE_BWC_ACT 24u
#define MLX5DM_SIM_STE_MATCH_ACT 20u
#define MLX5DM_SIM_STE_DATA 32u

void
mlx5dm_sim_ste_decode(const uint8_t raw[MLX5DM_SIM_STE_SIZE], struct mlx5dm_sim_ste *s)
{
	const uint8_t *r;
	uint64_t hit, miss;
	uint8_t ctx;

	memcpy(s->raw, raw, MLX5DM_SIM_STE_SIZE);
	r = s->raw;
	s->entry_format = (uint8_t)mlx5dm_prm_fget(r, mlx5dm_sim_ste_ctrl.entry_format);
	ctx = (uint8_t)mlx5dm_prm_fget(r, mlx5dm_sim_ste_ctrl.match_definer_ctx_idx);
	s->counter_id = (uint32_t)mlx5dm_prm_fget(r, mlx5dm_sim_ste_ctrl.counter_id);
	s->reparse = mlx5dm_prm_fget(r, mlx5dm_sim_ste_ctrl.reparse) != 0;
	miss = mlx5dm_prm_fget(r, mlx5dm_sim_ste_ctrl.miss_39_32) << 26 |
	       mlx5dm_prm_fget(r, mlx5dm_sim_ste_ctrl.miss_31_6);
	s->miss_addr = mlx5dm_prm_fget(r, mlx5dm_sim_ste_ctrl.miss_63_48) << 48 | miss << 6;
	hit = mlx5dm_prm_fget(r, mlx5dm_sim_ste_ctrl.next_39_32_size) << 27 |
	      mlx5dm_prm_fget(r, mlx5dm_sim_ste_ctrl.next_31_5_size);
	s->hit_size = 0;
	s->hit_addr = 0;
	if (hit != 0 && (hit & (0 - hit)) <= (1u << 24)) {
		s->hit_size = (uint32_t)(hit & (0 - hit));
		s->hit_addr = (hit & ~(uint64_t)s->hit_size) << 5;
	}
	s->hit_addr |= mlx5dm_prm_fget(r, mlx5dm_sim_ste_ctrl.next_63_48) << 48;
	s->next_lu = (uint16_t)mlx5dm_prm_fget(r, mlx5dm_sim_ste_ctrl.hash_definer_ctx_idx);
	s->byte_mask = 0;
	switch (s->entry_format) {
	case 0: /* BWC_BYTE */
	case 1: /* BWC_DW */
		s->fmt = MLX5DM_SIM_STE_BWC;
		s->next_lu |= (uint16_t)(mlx5dm_prm_fget(r, mlx5dm_sim_ste_ctrl.next_entry_format)
					 << 8);
		s->byte_mask = (uint16_t)mlx5dm_prm_fget(r, mlx5dm_sim_ste_ctrl.byte_mask);
		s->actions = r + MLX5DM_SIM_STE_BWC_ACT;
		s->actions_len = 8;
		s->mask = r + MLX5DM_SIM_STE_DATA;
		s->tag = r + MLX5DM_SIM_STE_DATA + MLX5DM_SIM_FV_LEN;
		s->lu = (uint16_t)(s->entry_format << 8 | ctx);
		break;
	case 2: /* MATCH_AND_MASK (rdma-core's action-only "MATCH" STEs) */
	case 3:
		s->fmt = MLX5DM_SIM_STE_MASK_MATCH;
		s->actions = r + MLX5DM_SIM_STE_MATCH_ACT;
		s->actions_len = 12;
		s->mask = r + MLX5DM_SIM_STE_DATA;
		s->tag = r + MLX5DM_SIM_STE_DATA + MLX5DM_SIM_FV_LEN;
		s->lu = (uint16_t)((s->entry_format - 2) << 8 | ctx);
		break;
	case 4: /* MATCH: definer-based 32-byte tag */
		s->fmt = MLX5DM_SIM_STE_DEFINER;
		s->actions = r + MLX5DM_SIM_STE_MATCH_ACT;
		s->actions_len = 12;
		s->mask = NULL;
		s->tag = r + MLX5DM_SIM_STE_DATA;
		s->lu = (uint16_t)(0x0400 | ctx);
		break;
	default:
		s->fmt = MLX5DM_SIM_STE_UNKNOWN;
		s->actions = r + MLX5DM_SIM_STE_MATCH_ACT;
		s->actions_len = 0;
		s->mask = NULL;
		s->tag = NULL;
		s->lu = (uint16_t)(s->entry_format << 8 | ctx);
		break;
	}
}
