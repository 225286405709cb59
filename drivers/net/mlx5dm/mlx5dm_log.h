/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#ifndef _MLX5DM_LOG_H_
#define _MLX5DM_LOG_H_

#include <rte_log.h>

extern int mlx5dm_logtype;
extern int mlx5dm_logtype_lib;

/* Driver log line: "mlx5dm: <func>(): <message>\n" on pmd.net.mlx5dm. */
#define MLX5DM_DRV_LOG(level, ...) \
	rte_log(RTE_LOG_ ## level, mlx5dm_logtype, \
		RTE_FMT("mlx5dm: %s(): " RTE_FMT_HEAD(__VA_ARGS__,) "\n", \
			__func__, RTE_FMT_TAIL(__VA_ARGS__,)))

#endif /* _MLX5DM_LOG_H_ */
