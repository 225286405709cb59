/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Device boundary: the hw transport fails cleanly (ENODEV and one log line
 * naming what it looked for) where there is no such mlx5 device; the sim
 * transport opens and closes; bad attributes are refused. The registry
 * holds both transports, takes a third and opens it by name; the model's
 * own controls are optional operations that a device without them refuses.
 */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
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
		.transport = "hw", .ib_device = "mlx5dm_no_such_dev",
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
	struct mlx5dm_dev_attr attr = { .transport = "hw" };
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
	struct mlx5dm_dev_attr attr = { .transport = "sim" };
	struct mlx5dm_dev *dev;

	(void)state;
	dev = mlx5dm_dev_open(&attr);
	assert_non_null(dev);
	assert_string_equal(dev->ops->name, "sim");
	assert_ptr_equal(dev->transport, &mlx5dm_sim_transport);
	assert_ptr_equal(dev->ctx, mlx5dm_sim_context(mlx5dm_sim_of(dev)));
	assert_non_null(dev->ctx->device);
	mlx5dm_dev_close(dev);
	attr.transport = NULL;
	assert_null(mlx5dm_dev_open(&attr));
	assert_int_equal(errno, EINVAL);
	assert_null(mlx5dm_dev_open(NULL));
	mlx5dm_dev_close(NULL);
}

static void
test_sim_open_alloc_failures(void **state)
{
	struct mlx5dm_dev_attr attr = { .transport = "sim" };
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

/* A transport without the model's controls, as a NIC is: the model's table without them. */
static struct mlx5dm_dev_ops nic_ops;

static int
nic_open(struct mlx5dm_dev *dev, const struct mlx5dm_dev_attr *attr)
{
	int ret = mlx5dm_sim_transport.open(dev, attr);

	nic_ops = mlx5dm_sim_dev_ops;
	nic_ops.name = "nic";
	nic_ops.wire_connect = NULL;
	nic_ops.port_stats = NULL;
	dev->ops = &nic_ops;
	return ret;
}

static void
nic_close(struct mlx5dm_dev *dev)
{
	mlx5dm_sim_transport.close(dev);
}

static const struct mlx5dm_dev_transport nic_transport = {
	.name = "nic", .open = nic_open, .close = nic_close,
};

static void
test_registry(void **state)
{
	struct mlx5dm_dev_attr attr = { .transport = "no_such_transport" };
	struct mlx5dm_dev_transport dup = nic_transport;
	struct mlx5dm_dev *dev;

	(void)state;
	/* The model joined when it was loaded; nothing here registered it. */
	assert_ptr_equal(mlx5dm_dev_transport_find("sim"), &mlx5dm_sim_transport);
	assert_non_null(mlx5dm_dev_transport_find("hw"));
	assert_null(mlx5dm_dev_transport_find("nic"));
	mlx5dm_log_set_hook(capture);
	last_log[0] = '\0';
	assert_null(mlx5dm_dev_open(&attr));
	assert_int_equal(errno, ENOENT);
	assert_non_null(strstr(last_log, "no transport \"no_such_transport\""));
	mlx5dm_log_set_hook(NULL);

	assert_int_equal(mlx5dm_dev_transport_register(&nic_transport), 0);
	dup.name = "sim";
	assert_int_equal(mlx5dm_dev_transport_register(&dup), -EEXIST);
	dup.name = "other";
	dup.open = NULL;
	assert_int_equal(mlx5dm_dev_transport_register(&dup), -EINVAL);
	attr.transport = "nic";
	dev = mlx5dm_dev_open(&attr);
	assert_non_null(dev);
	assert_ptr_equal(dev->transport, &nic_transport);
	assert_string_equal(dev->ops->name, "nic");
	assert_null(mlx5dm_sim_of(dev));
	mlx5dm_dev_close(dev);
}

static void
test_optional_ops(void **state)
{
	struct mlx5dm_dev_attr sim_attr = { .transport = "sim" };
	struct mlx5dm_dev_attr nic_attr = { .transport = "nic" };
	struct mlx5dm_dev *a, *b, *nic;
	struct mlx5dm_dev_port_stats st;

	(void)state;
	if (mlx5dm_dev_transport_find("nic") == NULL)
		assert_int_equal(mlx5dm_dev_transport_register(&nic_transport), 0);
	a = mlx5dm_dev_open(&sim_attr);
	b = mlx5dm_dev_open(&sim_attr);
	nic = mlx5dm_dev_open(&nic_attr);
	assert_non_null(a);
	assert_non_null(b);
	assert_non_null(nic);
	/* The model counts (test_sim_dp's two devices count frames); a NIC says no. */
	memset(&st, 0xff, sizeof(st));
	assert_int_equal(mlx5dm_dev_port_stats(a, &st), 0);
	assert_int_equal(st.wire_packets, 0);
	assert_int_equal(st.drops.queue_full, 0);
	assert_int_equal(mlx5dm_dev_port_stats(nic, &st), -ENOTSUP);
	assert_int_equal(mlx5dm_dev_wire_connect(nic, nic), -ENOTSUP);
	assert_int_equal(mlx5dm_dev_wire_connect(a, nic), -EINVAL);
	assert_int_equal(mlx5dm_dev_wire_connect(a, b), 0);
	mlx5dm_dev_close(nic);
	mlx5dm_dev_close(b);
	mlx5dm_dev_close(a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hw_no_such_device),
		cmocka_unit_test(test_hw_first_mlx5),
		cmocka_unit_test(test_sim_open_close),
		cmocka_unit_test(test_sim_open_alloc_failures),
		cmocka_unit_test(test_registry),
		cmocka_unit_test(test_optional_ops),
	};

	return cmocka_run_group_tests_name("dev", tests, NULL, NULL);
}
