/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlx5dm_osdep.h"
#include "test_util.h"

static long live_allocs;

static void *
count_alloc(size_t size, size_t align, int socket)
{
	void *p = NULL;

	(void)socket;
	if (align <= sizeof(void *))
		p = malloc(size);
	else if (posix_memalign(&p, align, size) != 0)
		p = NULL;
	if (p != NULL)
		__atomic_add_fetch(&live_allocs, 1, __ATOMIC_RELAXED);
	return p;
}

static void
count_free(void *p)
{
	if (p != NULL)
		__atomic_sub_fetch(&live_allocs, 1, __ATOMIC_RELAXED);
	free(p);
}

static const struct mlx5dm_alloc_ops count_ops = {
	.alloc = count_alloc,
	.free = count_free,
};

void
test_alloc_count_install(void)
{
	mlx5dm_alloc_set_ops(&count_ops);
	mlx5dm_alloc_fail_at(0);
	/* A failed test leaves its objects behind; start every test from zero. */
	__atomic_store_n(&live_allocs, 0, __ATOMIC_RELAXED);
}

long
test_alloc_live(void)
{
	return __atomic_load_n(&live_allocs, __ATOMIC_RELAXED);
}

static int log_err_count;
static char log_line[512];

static void
capture(enum mlx5dm_log_level level, const char *module, const char *fmt, va_list ap)
{
	if (level > MLX5DM_LOG_ERR)
		return;
	log_err_count++;
	snprintf(log_line, sizeof(log_line), "%s: ", module);
	vsnprintf(log_line + strlen(log_line), sizeof(log_line) - strlen(log_line), fmt, ap);
}

void
test_log_start(void)
{
	log_err_count = 0;
	log_line[0] = '\0';
	mlx5dm_log_set_hook(capture);
}

void
test_log_stop(void)
{
	mlx5dm_log_set_hook(NULL);
}

int
test_log_errors(void)
{
	return log_err_count;
}

const char *
test_log_last(void)
{
	return log_line;
}
