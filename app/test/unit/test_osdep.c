/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "mlx5dm_osdep.h"

static char last_line[256];
static enum mlx5dm_log_level last_level;

static void
capture_log(enum mlx5dm_log_level level, const char *module, const char *fmt, va_list ap)
{
	int n = snprintf(last_line, sizeof(last_line), "%s: ", module);

	vsnprintf(last_line + n, sizeof(last_line) - (size_t)n, fmt, ap);
	last_level = level;
}

static void
test_log_hook(void **state)
{
	(void)state;
	mlx5dm_log_set_hook(capture_log);
	MLX5DM_LOG(ERR, "icm", "pool %s: %d bytes", "ste", 64);
	assert_string_equal(last_line, "icm: pool ste: 64 bytes");
	assert_int_equal(last_level, MLX5DM_LOG_ERR);
	mlx5dm_log_set_hook(NULL);
}

static void
test_alloc_fail_injection(void **state)
{
	void *a, *b, *c;

	(void)state;
	mlx5dm_alloc_fail_at(2);
	a = mlx5dm_zmalloc(16);
	b = mlx5dm_zmalloc(16);
	c = mlx5dm_zmalloc(16);
	assert_non_null(a);
	assert_null(b);
	assert_non_null(c);
	assert_int_equal(mlx5dm_alloc_count(), 3);
	mlx5dm_alloc_fail_at(0);
	mlx5dm_free(a);
	mlx5dm_free(c);
}

static void
test_aligned_and_calloc(void **state)
{
	uint8_t *p;
	size_t i;

	(void)state;
	p = mlx5dm_aligned_zmalloc(4096, 4096);
	assert_non_null(p);
	assert_int_equal((uintptr_t)p % 4096, 0);
	for (i = 0; i < 4096; i++)
		assert_int_equal(p[i], 0);
	mlx5dm_free(p);
	assert_null(mlx5dm_calloc(SIZE_MAX / 2, 4));
	assert_int_equal(mlx5dm_log2_ceil(1), 0);
	assert_int_equal(mlx5dm_log2_ceil(2), 1);
	assert_int_equal(mlx5dm_log2_ceil(3), 2);
	assert_int_equal(mlx5dm_log2_ceil(1024), 10);
	assert_int_equal(mlx5dm_log2_ceil(1025), 11);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_log_hook),
		cmocka_unit_test(test_alloc_fail_injection),
		cmocka_unit_test(test_aligned_and_calloc),
	};

	return cmocka_run_group_tests_name("osdep", tests, NULL, NULL);
}
