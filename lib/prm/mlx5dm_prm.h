/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * PRM layouts of the steering library, one header per layout group:
 * the bit accessors, STE v1 control and action slots, v1 16-byte tags,
 * the fte_match_param blob, QUERY_HCA_CAP capability fields and the
 * modify-header action formats. Every position is declared once, as data.
 */

#ifndef _MLX5DM_PRM_H_
#define _MLX5DM_PRM_H_

#include "mlx5dm_prm_bits.h"
#include "mlx5dm_prm_caps.h"
#include "mlx5dm_prm_match.h"
#include "mlx5dm_prm_modify.h"
#include "mlx5dm_prm_ste_v1.h"
#include "mlx5dm_prm_tag_v1.h"

#endif /* _MLX5DM_PRM_H_ */
