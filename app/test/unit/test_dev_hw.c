/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Device boundary: the hw transport fails cleanly (ENODEV and one log line
 * naming what it looked for) where there is no such mlx5 device; the sim
 * transport opens and closes; bad attributes are refused.
 */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "mlx5dm_osdep.h"
#include "test_sim_util.h"

static char last_log[512];

static void
capture(enum mlx5dm_log_level level, const char *module, const char *fmt, va_list ap)
{
	(void)level;
	(void)module;
	vsnprintf(last_log, sizeof(last_log), fmt, ap);
}

static void
test_hw_no_such_device(void **state)
{
	struct mlx5dm_dev_attr attr = {
		.backend = MLX5DM_DEV_BACKEND_HW, .ib_device = "mlx5dm_no_such_dev",
	};

	(void)state;
	mlx5dm_log_set_hook(capture);
	last_log[0] = '\0';
	errno = 0;
	assert_null(mlx5dm_dev_open(&attr));
	assert_int_equal(errno, ENODEV);
	assert_non_null(strstr(last_log, "no RDMA device named mlx5dm_no_such_dev"));
	mlx5dm_log_set_hook(NULL);
	print_message("hw transport said: %s\n", last_log);
}

static void
test_hw_first_mlx5(void **state)
{
	struct mlx5dm_dev_attr attr = { .backend = MLX5DM_DEV_BACKEND_HW };
	struct mlx5dm_dev *dev;

	(void)state;
	mlx5dm_log_set_hook(capture);
	last_log[0] = '\0';
	dev = mlx5dm_dev_open(&attr);
	mlx5dm_log_set_hook(NULL);
	if (dev != NULL) {
		/* A machine with a ConnectX: the real transport opened. */
		assert_string_equal(dev->ops->name, "hw");
		mlx5dm_dev_close(dev);
		skip();
	}
	assert_int_equal(errno, ENODEV);
	assert_non_null(strstr(last_log, "no mlx5 device found"));
}

static void
test_sim_open_close(void **state)
{
	struct mlx5dm_dev_attr attr = { .backend = MLX5DM_DEV_BACKEND_SIM };
	struct mlx5dm_dev *dev;

	(void)state;
	dev = mlx5dm_dev_open(&attr);
	assert_non_null(dev);
	assert_string_equal(dev->ops->name, "sim");
	assert_int_equal(dev->backend, MLX5DM_DEV_BACKEND_SIM);
	assert_ptr_equal(dev->ctx, mlx5dm_sim_context(dev->transport));
	assert_non_null(dev->ctx->device);
	mlx5dm_dev_close(dev);
	attr.backend = (enum mlx5dm_dev_backend)7;
	assert_null(mlx5dm_dev_open(&attr));
	assert_int_equal(errno, EINVAL);
	assert_null(mlx5dm_dev_open(NULL));
	mlx5dm_dev_close(NULL);
}

static void
test_sim_open_alloc_failures(void **state)
{
	struct mlx5dm_dev_attr attr = { .backend = MLX5DM_DEV_BACKEND_SIM };
	struct mlx5dm_dev *dev;
	uint64_t n, i;

	(void)state;
	/* Count the allocations of a successful open, then fail each one in turn. */
	mlx5dm_log_set_hook(capture);
	mlx5dm_alloc_fail_at(0);
	dev = mlx5dm_dev_open(&attr);
	n = mlx5dm_alloc_count();
	mlx5dm_dev_close(dev);
	for (i = 1; i <= n; i++) {
		mlx5dm_alloc_fail_at(i);
		dev = mlx5dm_dev_open(&attr);
		assert_null(dev);
		assert_int_equal(errno, ENOMEM);
	}
	mlx5dm_alloc_fail_at(0);
	mlx5dm_log_set_hook(NULL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hw_no_such_device),
		cmocka_unit_test(test_hw_first_mlx5),
		cmocka_unit_test(test_sim_open_close),
		cmocka_unit_test(test_sim_open_alloc_failures),
	};

	return cmocka_run_group_tests_name("dev", tests, NULL, NULL);
}
