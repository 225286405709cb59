/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * A port's socket (rte_eth_dev_socket_id()). A vdev has none, and a model
 * port keeps none. With MLX5DM_TEST_BACKEND=hw (meson test --setup hw) the
 * ports are on the rdma-core double's devices, whose PCI functions have
 * the NUMA nodes this test's MLX5DM_RDMA_DOUBLE gives them: a node EAL has
 * memory on becomes the port's (its representor's and VF port's too); a
 * node EAL does not know (7), -1 or none leave it SOCKET_ID_ANY, the
 * unknown node with one line saying so. Every port then takes queues on
 * its socket and a rule: no allocation asked for a socket without memory.
 */

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <rte_bus_vdev.h>
#include <rte_common.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_flow.h>
#include <rte_lcore.h>
#include <rte_log.h>
#include <rte_mbuf.h>

#include <rte_pmd_mlx5dm.h>
#include "pmd_env.h"

/* The node EAL does not know: past any socket of a test machine. */
#define UNKNOWN_NODE 7

static struct rte_mempool *pool;
static bool on_hw;

/* PMD log lines of the last probe. */
static char *log_buf;

/* How many times s is in the log of the last probe. */
static unsigned int
logged(const char *s)
{
	unsigned int n = 0;
	const char *p;

	for (p = log_buf; p != NULL && (p = strstr(p, s)) != NULL; p += strlen(s))
		n++;
	return n;
}

static bool
eal_has_socket(int socket)
{
	unsigned int i;

	for (i = 0; i < rte_socket_count(); i++)
		if (rte_socket_id_by_idx(i) == socket)
			return true;
	return false;
}

/* Queues on the port's socket, started, a rule made and destroyed, stopped. */
static void
port_works(uint16_t port)
{
	struct rte_flow_item pattern[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_action actions[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_DROP },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	unsigned int socket = (unsigned int)rte_eth_dev_socket_id(port);
	struct rte_flow_attr attr = { .ingress = 1 };
	struct rte_eth_conf conf = { 0 };
	struct rte_flow_error error;
	struct rte_flow *flow;

	assert_int_equal(rte_eth_dev_configure(port, 1, 1, &conf), 0);
	assert_int_equal(rte_eth_rx_queue_setup(port, 0, 64, socket, NULL, pool), 0);
	assert_int_equal(rte_eth_tx_queue_setup(port, 0, 64, socket, NULL), 0);
	assert_int_equal(rte_eth_dev_start(port), 0);
	flow = rte_flow_create(port, &attr, pattern, actions, &error);
	if (flow == NULL)
		fail_msg("port %u: rule refused: %s", port,
			 error.message != NULL ? error.message : "(no message)");
	assert_int_equal(rte_flow_destroy(port, flow, &error), 0);
	assert_int_equal(rte_eth_dev_stop(port), 0);
}

/* The socket of vdev name's first port made with args; it works on it. */
static int
vdev_socket(const char *name, const char *args)
{
	struct rte_pmd_mlx5dm_port_info info;
	uint16_t port;
	int socket;

	free(log_buf);
	if (probe_logged(name, args, &log_buf) != 0)
		fail_msg("%s,%s: probe failed:\n%s", name, args, log_buf);
	port = port_by_name(name);
	assert_true(port < RTE_MAX_ETHPORTS);
	assert_int_equal(rte_pmd_mlx5dm_port_info_get(port, &info), 0);
	assert_int_equal(info.backend, on_hw ? RTE_PMD_MLX5DM_BACKEND_HW :
				       RTE_PMD_MLX5DM_BACKEND_SIM);
	socket = rte_eth_dev_socket_id(port);
	port_works(port);
	return socket;
}

static void
test_socket_sim(void **state)
{
	(void)state;
	if (on_hw)
		skip();
	/* A vdev's port on the model: no device node to take. */
	assert_int_equal(vdev_socket("net_mlx5dm0", ""), SOCKET_ID_ANY);
	assert_int_equal(rte_vdev_uninit("net_mlx5dm0"), 0);
}

/* A port on device ibdev: its socket, the lines saying EAL has no memory on the node. */
struct hw_case {
	const char *ibdev;
	int socket;
	unsigned int lines;
};

/*
 * The socket of a hw port on the double's device ibdev (with args after),
 * and how many times the probe said that EAL has no memory on the node.
 */
static int
hw_socket(const char *name, const char *ibdev, const char *args, unsigned int *lines)
{
	char buf[128];
	int socket;

	snprintf(buf, sizeof(buf), "backend=hw,ib_device=%s%s", ibdev, args);
	socket = vdev_socket(name, buf);
	*lines = logged("where EAL has no memory");
	return socket;
}

/* The node of a device's function (0, 7 that EAL does not know, no file, -1). */
static void
test_socket_hw(void **state)
{
	static const struct hw_case cases[] = {
		{ "mlx5_0", 0, 0 },
		{ "mlx5_1", SOCKET_ID_ANY, 1 },
		{ "mlx5_2", SOCKET_ID_ANY, 0 },
		{ "mlx5_3", SOCKET_ID_ANY, 0 },
	};
	unsigned int i, lines;

	(void)state;
	if (!on_hw || !eal_has_socket(0))
		skip();
	assert_false(eal_has_socket(UNKNOWN_NODE));
	for (i = 0; i < RTE_DIM(cases); i++) {
		assert_int_equal(hw_socket("net_mlx5dm1", cases[i].ibdev, "", &lines),
				 cases[i].socket);
		assert_int_equal(lines, cases[i].lines);
		if (lines != 0)
			assert_non_null(strstr(log_buf, "the device is on NUMA node 7, "));
		assert_int_equal(rte_vdev_uninit("net_mlx5dm1"), 0);
	}
}

/*
 * The E-Switch: the representor shares its PF's device, the VF port's
 * function is on the PF's node. On a node EAL does not know, none for any
 * of them, and one line for each device (the PF's, the VF's).
 */
static void
test_socket_esw(void **state)
{
	static const struct hw_case cases[] = {
		{ "mlx5_4", 0, 0 },
		{ "mlx5_5", SOCKET_ID_ANY, 2 },
	};
	unsigned int i, lines;

	(void)state;
	if (!on_hw || !eal_has_socket(0))
		skip();
	for (i = 0; i < RTE_DIM(cases); i++) {
		assert_int_equal(hw_socket("net_mlx5dm2", cases[i].ibdev,
					   ",representor=vf0,vf_ports=1", &lines),
				 cases[i].socket);
		assert_int_equal(lines, cases[i].lines);
		assert_int_equal(rte_eth_dev_socket_id(port_by_name("net_mlx5dm2_representor_vf0")),
				 cases[i].socket);
		assert_int_equal(rte_eth_dev_socket_id(port_by_name("net_mlx5dm2_vf0")),
				 cases[i].socket);
		assert_int_equal(rte_vdev_uninit("net_mlx5dm2"), 0);
	}
}

static int
setup(void **state)
{
	(void)state;
	on_hw = backend_is_hw();
	pool = pmd_env_init("test_pmd_socket");
	return pool == NULL ? -1 : 0;
}

static int
teardown(void **state)
{
	(void)state;
	pmd_env_fini(pool);
	free(log_buf);
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_socket_sim),
		cmocka_unit_test(test_socket_hw),
		cmocka_unit_test(test_socket_esw),
	};

	return cmocka_run_group_tests_name("pmd_socket", tests, setup, teardown);
}
