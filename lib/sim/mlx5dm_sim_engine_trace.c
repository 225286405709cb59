/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Packet-walk trace lines. Only reached when a trace callback is set (the
 * MLX5DM_SIM_TRACE macro tests it first), so formatting costs nothing when
 * tracing is off. A line longer than the buffer is cut.
 */

#include <stdio.h>

#include "mlx5dm_sim_engine_priv.h"

#define MLX5DM_SIM_TRACE_LINE 256

void
mlx5dm_sim_tracef(const struct mlx5dm_sim_walk *w, const char *fmt, ...)
{
	char line[MLX5DM_SIM_TRACE_LINE];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	w->trace(w->trace_arg, line);
}
