/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/* The fte_match_param field table, expanded from the X-lists of the header. */

#include "mlx5dm_prm_match.h"

/* Bit offset of each section inside the 448-byte blob. */
#define MLX5DM_FTE_BASE(sec) (MLX5DM_FTE_SEC_##sec * MLX5DM_FTE_SECTION_SIZE * 8)

#define MLX5DM_FTE_X_DESC(sec, fname, b, w) \
	[MLX5DM_FTE(sec, fname)] = { \
		.f = { .bit = MLX5DM_FTE_BASE(sec) + (b), .width = (w) }, \
		.section = MLX5DM_FTE_SEC_##sec, \
		.name = #sec "." #fname, \
	},

const struct mlx5dm_fte_field_desc mlx5dm_fte_fields[MLX5DM_FTE_NUM_FIELDS] = {
	MLX5DM_FTE_ALL_FIELDS(MLX5DM_FTE_X_DESC)
};
