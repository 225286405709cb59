/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * STE v1 control and action-slot positions (PRM bit offset, width), from
 * the ste_match_bwc_v1 / ste_mask_and_match_v1 / ste_*_action_*_v1 layouts.
 */

#include "mlx5dm_prm_ste_v1.h"

#define F MLX5DM_PRM_FIELD_INIT

const struct mlx5dm_prm_ste_v1_ctrl mlx5dm_prm_ste_v1 = MLX5DM_PRM_STE_V1_CTRL_INIT;

const struct mlx5dm_prm_ste_v1_act_flow_tag mlx5dm_prm_ste_v1_act_flow_tag =
	MLX5DM_PRM_STE_V1_ACT_FLOW_TAG_INIT;

const struct mlx5dm_prm_ste_v1_act_modify_list mlx5dm_prm_ste_v1_act_modify_list = {
	.action_id = F(0x00, 8),
	.num_of_modify_actions = F(0x08, 8),
	.modify_actions_ptr = F(0x10, 16),
};

const struct mlx5dm_prm_ste_v1_act_remove_header mlx5dm_prm_ste_v1_act_remove_header = {
	.action_id = F(0x00, 8),
	.start_anchor = F(0x0a, 6),
	.end_anchor = F(0x12, 6),
	.decap = F(0x1c, 1),
	.vni_to_cqe = F(0x1d, 1),
	.qos_profile = F(0x1e, 2),
};

const struct mlx5dm_prm_ste_v1_act_remove_size mlx5dm_prm_ste_v1_act_remove_size = {
	.action_id = F(0x00, 8),
	.start_anchor = F(0x0a, 6),
	.outer_l4_remove = F(0x10, 1),
	.start_offset = F(0x12, 7),
	.remove_size = F(0x1a, 6),
};

const struct mlx5dm_prm_ste_v1_act_insert_inline mlx5dm_prm_ste_v1_act_insert_inline = {
	.action_id = F(0x00, 8),
	.start_anchor = F(0x0a, 6),
	.start_offset = F(0x10, 7),
	.inline_data = F(0x20, 32),
};

const struct mlx5dm_prm_ste_v1_act_insert_ptr mlx5dm_prm_ste_v1_act_insert_ptr = {
	.action_id = F(0x00, 8),
	.start_anchor = F(0x0a, 6),
	.start_offset = F(0x10, 7),
	.size = F(0x17, 6),
	.attributes = F(0x1d, 3),
	.pointer = F(0x20, 32),
};

const struct mlx5dm_prm_ste_v1_act_accel_list mlx5dm_prm_ste_v1_act_accel_list = {
	.action_id = F(0x00, 8),
	.modify_actions_pattern_pointer = F(0x08, 24),
	.number_of_modify_actions = F(0x20, 8),
	.modify_actions_argument_pointer = F(0x28, 24),
};
