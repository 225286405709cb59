/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * STE v1 action-slot encoders: one function per action encoding, writing
 * into a zeroed slot through the section-C layouts. Shared by the action
 * placement (STE slots) and the L3-decap list (modify-header ICM).
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_ste_priv.h"

/* A static copy of the layout: constant fields, so the two sets fold into one dword store. */
static const struct mlx5dm_prm_ste_v1_act_flow_tag mlx5dm_ste_v1_flow_tag_layout =
	MLX5DM_PRM_STE_V1_ACT_FLOW_TAG_INIT;

void
mlx5dm_ste_v1_write_flow_tag(uint8_t *a, uint32_t tag)
{
	const struct mlx5dm_prm_ste_v1_act_flow_tag *l = &mlx5dm_ste_v1_flow_tag_layout;

	mlx5dm_prm_fset(a, l->action_id, MLX5DM_STE_V1_ACT_FLOW_TAG);
	mlx5dm_prm_fset(a, l->flow_tag, tag);
}

/* Remove from the packet start up to end_anchor (decap: report the VNI too). */
void
mlx5dm_ste_v1_write_remove_header(uint8_t *a, uint8_t end_anchor, bool decap)
{
	const struct mlx5dm_prm_ste_v1_act_remove_header *l = &mlx5dm_prm_ste_v1_act_remove_header;

	mlx5dm_prm_fset(a, l->action_id, MLX5DM_STE_V1_ACT_REMOVE_HEADER_TO_HEADER);
	mlx5dm_prm_fset(a, l->start_anchor, MLX5DM_STE_V1_ANCHOR_PACKET_START);
	mlx5dm_prm_fset(a, l->end_anchor, end_anchor);
	mlx5dm_prm_fset(a, l->decap, decap);
	mlx5dm_prm_fset(a, l->vni_to_cqe, decap);
}

/* Remove size_words 2-byte words at start_offset_words after the anchor. */
void
mlx5dm_ste_v1_write_remove_size(uint8_t *a, uint8_t anchor, uint8_t start_offset_words,
				uint8_t size_words)
{
	const struct mlx5dm_prm_ste_v1_act_remove_size *l = &mlx5dm_prm_ste_v1_act_remove_size;

	mlx5dm_prm_fset(a, l->action_id, MLX5DM_STE_V1_ACT_REMOVE_BY_SIZE);
	mlx5dm_prm_fset(a, l->start_anchor, anchor);
	mlx5dm_prm_fset(a, l->start_offset, start_offset_words);
	mlx5dm_prm_fset(a, l->remove_size, size_words);
}

/* Insert 4 bytes at offset_words after the packet start. */
void
mlx5dm_ste_v1_write_insert_inline(uint8_t *a, uint8_t offset_words, uint32_t data)
{
	const struct mlx5dm_prm_ste_v1_act_insert_inline *l = &mlx5dm_prm_ste_v1_act_insert_inline;

	mlx5dm_prm_fset(a, l->action_id, MLX5DM_STE_V1_ACT_INSERT_INLINE);
	mlx5dm_prm_fset(a, l->start_anchor, MLX5DM_STE_V1_ANCHOR_PACKET_START);
	mlx5dm_prm_fset(a, l->start_offset, offset_words);
	/* Big-endian, like the packet: the first inserted byte is data[31:24]. */
	mlx5dm_prm_fset(a, l->inline_data, data);
}

/* Insert an encap header (size bytes) from ENCAP ICM at the packet start. */
void
mlx5dm_ste_v1_write_insert_ptr(uint8_t *a, uint32_t pointer, uint16_t size)
{
	const struct mlx5dm_prm_ste_v1_act_insert_ptr *l = &mlx5dm_prm_ste_v1_act_insert_ptr;

	mlx5dm_prm_fset(a, l->action_id, MLX5DM_STE_V1_ACT_INSERT_POINTER);
	mlx5dm_prm_fset(a, l->start_anchor, MLX5DM_STE_V1_ANCHOR_PACKET_START);
	mlx5dm_prm_fset(a, l->start_offset, 0);
	mlx5dm_prm_fset(a, l->size, size / 2u);
	mlx5dm_prm_fset(a, l->attributes, MLX5DM_STE_V1_INSERT_ATTR_ENCAP);
	mlx5dm_prm_fset(a, l->pointer, pointer);
}

/* A modify list: inline action, list pointer or pattern + argument. */
int
mlx5dm_ste_v1_write_modify(uint8_t *a, const struct mlx5dm_ste_modify_ref *m,
			   struct mlx5dm_ste_action_err *err)
{
	const struct mlx5dm_prm_ste_v1_act_modify_list *ml = &mlx5dm_prm_ste_v1_act_modify_list;
	const struct mlx5dm_prm_ste_v1_act_accel_list *al = &mlx5dm_prm_ste_v1_act_accel_list;

	switch (m->mode) {
	case MLX5DM_STE_MODIFY_INLINE:
		memcpy(a, m->inline_action, MLX5DM_MODIFY_ACTION_SIZE);
		return 0;
	case MLX5DM_STE_MODIFY_LIST:
		/* The basic list pointer is a 16-bit line index. */
		if (m->index > 0xffff) {
			mlx5dm_ste_action_err_set(err, -1,
						  "modify list index %u exceeds 16 bits", m->index);
			return -ERANGE;
		}
		mlx5dm_prm_fset(a, ml->action_id, MLX5DM_STE_V1_ACT_MODIFY_LIST);
		mlx5dm_prm_fset(a, ml->num_of_modify_actions, m->num_actions);
		mlx5dm_prm_fset(a, ml->modify_actions_ptr, m->index);
		return 0;
	default:
		if (m->index > 0xffffff || m->pattern_index > 0xffffff) {
			mlx5dm_ste_action_err_set(err, -1,
						  "modify pattern/argument exceeds 24 bits");
			return -ERANGE;
		}
		mlx5dm_prm_fset(a, al->action_id, MLX5DM_STE_V1_ACT_ACCELERATED_LIST);
		mlx5dm_prm_fset(a, al->modify_actions_pattern_pointer, m->pattern_index);
		mlx5dm_prm_fset(a, al->number_of_modify_actions, m->num_actions);
		mlx5dm_prm_fset(a, al->modify_actions_argument_pointer, m->index);
		return 0;
	}
}

void
mlx5dm_ste_v1_write_push(uint8_t *a, uint32_t hdr)
{
	/* Right after the two MACs: 12 bytes = 6 words. */
	mlx5dm_ste_v1_write_insert_inline(a, 6, hdr);
}
