/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/* Modify-header action positions (set/add/copy_action_in; v1 double actions). */

#include "mlx5dm_prm_modify.h"

#define F MLX5DM_PRM_FIELD_INIT

const struct mlx5dm_prm_modify_in mlx5dm_prm_modify_in = {
	.action_type = F(0x000, 4),
	.field = F(0x004, 12),
	.offset = F(0x013, 5),
	.length = F(0x01b, 5),
	.data = F(0x020, 32),
	.dst_field = F(0x024, 12),
	.dst_offset = F(0x033, 5),
};

const struct mlx5dm_prm_modify_v1 mlx5dm_prm_modify_v1 = {
	.action_id = F(0x000, 8),
	.destination_dw_offset = F(0x008, 8),
	.destination_left_shifter = F(0x012, 6),
	.destination_length = F(0x01a, 6),
	.inline_data = F(0x020, 32),
	.source_dw_offset = F(0x028, 8),
	.source_right_shifter = F(0x032, 6),
};
