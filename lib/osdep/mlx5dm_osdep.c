/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#include <stdio.h>
#include <time.h>

#include "mlx5dm_osdep.h"

static mlx5dm_log_fn mlx5dm_log_hook;
static enum mlx5dm_log_level mlx5dm_log_max = MLX5DM_LOG_NOTICE;

void
mlx5dm_log_set_hook(mlx5dm_log_fn fn)
{
	mlx5dm_log_hook = fn;
}

void
mlx5dm_log_set_level(enum mlx5dm_log_level level)
{
	mlx5dm_log_max = level;
}

void
mlx5dm_log(enum mlx5dm_log_level level, const char *module, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (mlx5dm_log_hook != NULL) {
		mlx5dm_log_hook(level, module, fmt, ap);
	} else if (level <= mlx5dm_log_max) {
		fprintf(stderr, "mlx5dm.%s: ", module);
		vfprintf(stderr, fmt, ap);
		fputc('\n', stderr);
	}
	va_end(ap);
}

bool
mlx5dm_log_limit_take(struct mlx5dm_log_limit *l, uint64_t *suppressed)
{
	struct timespec t;
	uint64_t now, next = __atomic_load_n(&l->next_ns, __ATOMIC_RELAXED);

	clock_gettime(CLOCK_MONOTONIC, &t);
	now = (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
	/* One thread wins the second; the others count themselves out. */
	if (now < next || !__atomic_compare_exchange_n(&l->next_ns, &next,
						       now + MLX5DM_LOG_LIMIT_NS, false,
						       __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
		__atomic_fetch_add(&l->suppressed, 1, __ATOMIC_RELAXED);
		return false;
	}
	*suppressed = __atomic_exchange_n(&l->suppressed, 0, __ATOMIC_RELAXED);
	return true;
}
