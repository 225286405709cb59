/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * net_mlx5dm's device side: the devargs that select a hardware device and
 * their refusals; the port attributes read from the device; bring-up and
 * teardown that leave nothing behind on the device when any step fails.
 *
 * The PMD is built into this program (see meson.build), so the test uses
 * the library's fault injection and the model's object count directly.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <cmocka.h>

#include <rte_bus_vdev.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_log.h>
#include <rte_mbuf.h>

#include <rte_flow.h>
#include <rte_malloc.h>

#include <ethdev_driver.h>

#include <rte_pmd_mlx5dm.h>
#include "mlx5dm_osdep.h"
#include "pmd_env.h"
#include "mlx5dm_sim.h"

static struct rte_mempool *pool;

/* Probe name with devargs; returns the probe's result, the log it wrote in *log (free it). */
static int
probe_logged(const char *name, const char *devargs, char **log)
{
	size_t len = 0;
	FILE *f;
	int ret;

	*log = NULL;
	f = open_memstream(log, &len);
	assert_non_null(f);
	assert_int_equal(rte_openlog_stream(f), 0);
	ret = rte_vdev_init(name, devargs);
	rte_openlog_stream(NULL);
	fclose(f);
	return ret;
}

static void
test_devargs_device_selection(void **state)
{
	/* devargs, what the refusal says. */
	static const char * const bad[][2] = {
		{ "backend=hw,ib_device=", "devarg ib_device= invalid" },
		{ "backend=hw,pci_addr=", "devarg pci_addr= invalid" },
		{ "backend=hw,ib_device=mlx5 0", "devarg ib_device=mlx5 0 invalid" },
		{ "backend=hw,ib_device=mlx5/0", "devarg ib_device=mlx5/0 invalid" },
		{ "backend=hw,ib_device=mlx5_0,ib_device=mlx5_1", "given more than once" },
		{ "backend=hw,pci_addr=08:00", "devarg pci_addr=08:00 invalid" },
		{ "backend=hw,pci_addr=0000:08:20.0", "devarg pci_addr=0000:08:20.0 invalid" },
		{ "backend=hw,pci_addr=mlx5_0", "devarg pci_addr=mlx5_0 invalid" },
		{ "backend=hw,ib_device=mlx5_0,pci_addr=0000:08:00.0",
		  "devargs ib_device and pci_addr both name the device: give one" },
		/* Device selection is for hardware; the model has its own devargs. */
		{ "ib_device=mlx5_0", "devarg ib_device applies to backend=hw only" },
		{ "backend=sim,pci_addr=08:00.0", "devarg pci_addr applies to backend=hw only" },
		{ "backend=hw,ports=2", "devarg ports applies to backend=sim only" },
		{ "backend=hw,ports=1", "devarg ports applies to backend=sim only" },
		{ "backend=hw,topology=loop", "devarg topology applies to backend=sim only" },
		/* Well formed: refused because no such device is on this machine. */
		{ "backend=hw,ib_device=mlx5dm_none", "no RDMA device named mlx5dm_none" },
		{ "backend=hw,pci_addr=ffff:ff:1f.7",
		  "no RDMA device at PCI address ffff:ff:1f.7" },
		{ "backend=hw,pci_addr=FF:1F.7", "no RDMA device at PCI address 0000:ff:1f.7" },
	};
	uint16_t before = rte_eth_dev_count_avail();
	struct rte_pmd_mlx5dm_port_info info;
	unsigned int i;
	char *log;

	(void)state;
	/* The driver is there: the refusals below are its own. */
	assert_int_equal(rte_pmd_mlx5dm_port_info_get(RTE_MAX_ETHPORTS, &info), -ENODEV);
	for (i = 0; i < RTE_DIM(bad); i++) {
		int ret = probe_logged("net_mlx5dm9", bad[i][0], &log);

		if (ret >= 0)
			fail_msg("devargs \"%s\" accepted", bad[i][0]);
		if (strstr(log, bad[i][1]) == NULL)
			fail_msg("devargs \"%s\": expected \"%s\" in: %s", bad[i][0], bad[i][1],
				 log);
		free(log);
		assert_int_equal(rte_eth_dev_count_avail(), before);
		assert_int_equal(port_by_name("net_mlx5dm9"), RTE_MAX_ETHPORTS);
	}
}

/* MAC, MTU and link as the device's vport reports them (the model's defaults). */
static void
test_port_attributes(void **state)
{
	struct rte_eth_conf conf = { 0 };
	struct rte_ether_addr mac;
	struct rte_eth_link link;
	uint16_t port, mtu = 0;

	(void)state;
	assert_int_equal(rte_vdev_init("net_mlx5dm8", "ports=2"), 0);
	port = port_by_name("net_mlx5dm8_p1");
	assert_true(port < RTE_MAX_ETHPORTS);
	/* Known from the probe on, before any configuration. */
	assert_int_equal(rte_eth_dev_get_mtu(port, &mtu), 0);
	assert_int_equal(mtu, 1500);
	assert_int_equal(rte_eth_macaddr_get(port, &mac), 0);
	assert_int_equal(mac.addr_bytes[0], 0x02);
	assert_int_equal(mac.addr_bytes[1], 0x4d);
	assert_int_equal(mac.addr_bytes[2], 0x44);
	assert_int_equal(mac.addr_bytes[5], 1);
	assert_int_equal(rte_eth_link_get_nowait(port, &link), 0);
	assert_int_equal(link.link_status, RTE_ETH_LINK_DOWN);
	assert_int_equal(link.link_speed, RTE_ETH_SPEED_NUM_NONE);
	assert_int_equal(rte_eth_dev_configure(port, 1, 1, &conf), 0);
	assert_int_equal(rte_eth_rx_queue_setup(port, 0, 128, 0, NULL, pool), 0);
	assert_int_equal(rte_eth_tx_queue_setup(port, 0, 128, 0, NULL), 0);
	assert_int_equal(rte_eth_dev_start(port), 0);
	/* Up, at a speed nothing reports. */
	assert_int_equal(rte_eth_link_get_nowait(port, &link), 0);
	assert_int_equal(link.link_status, RTE_ETH_LINK_UP);
	assert_int_equal(link.link_speed, RTE_ETH_SPEED_NUM_UNKNOWN);
	assert_int_equal(link.link_duplex, RTE_ETH_LINK_FULL_DUPLEX);
	assert_int_equal(rte_eth_dev_stop(port), 0);
	assert_int_equal(rte_eth_link_get_nowait(port, &link), 0);
	assert_int_equal(link.link_status, RTE_ETH_LINK_DOWN);
	assert_int_equal(rte_vdev_uninit("net_mlx5dm8"), 0);
}

/*
 * Everything a port has on its device: probe (device, capabilities,
 * context, PD, UAR, ICM pools, the send engine's QP, domains), queues,
 * start (root tables jumping to the SW-owned group 0, default rule), a
 * counted rule. Stops at the first failure; returns 0 or the error.
 */
static int
bring_up(const char *name, uint16_t *port)
{
	static const struct rte_flow_attr attr = { .ingress = 1, .group = 1 };
	static const struct rte_flow_item pattern[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH }, { .type = RTE_FLOW_ITEM_TYPE_END },
	};
	static const struct rte_flow_action_count count = { .id = 0 };
	static const struct rte_flow_action actions[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_COUNT, .conf = &count },
		{ .type = RTE_FLOW_ACTION_TYPE_DROP }, { .type = RTE_FLOW_ACTION_TYPE_END },
	};
	struct rte_eth_conf conf = { 0 };
	struct rte_flow_error err;
	int ret;

	*port = RTE_MAX_ETHPORTS;
	ret = rte_vdev_init(name, NULL);
	if (ret < 0)
		return ret;
	*port = port_by_name(name);
	assert_true(*port < RTE_MAX_ETHPORTS);
	ret = rte_eth_dev_configure(*port, 2, 1, &conf);
	if (ret == 0)
		ret = rte_eth_rx_queue_setup(*port, 0, 64, 0, NULL, pool);
	if (ret == 0)
		ret = rte_eth_rx_queue_setup(*port, 1, 64, 0, NULL, pool);
	if (ret == 0)
		ret = rte_eth_tx_queue_setup(*port, 0, 64, 0, NULL);
	if (ret == 0)
		ret = rte_eth_dev_start(*port);
	if (ret == 0 && rte_flow_create(*port, &attr, pattern, actions, &err) == NULL)
		ret = -rte_errno;
	return ret;
}

static void
tear_down(const char *name, uint16_t port)
{
	if (port == RTE_MAX_ETHPORTS)
		return;
	if (rte_eth_devices[port].data->dev_started)
		assert_int_equal(rte_eth_dev_stop(port), 0);
	assert_int_equal(rte_eth_dev_close(port), 0);
	assert_int_equal(rte_vdev_uninit(name), 0);
}

/*
 * Each host allocation of the bring-up fails in turn (every device object
 * the model creates is one, and so is every step of the library and the
 * PMD): whatever step fails, what was made before is undone, by the
 * failing step or by the close, and the model is left with no object of
 * the port's (mlx5dm_sim_left_behind() counts what an instance still held
 * when it was destroyed), nor the DPDK heap with a byte more.
 */
static void
test_bringup_faults(void **state)
{
	uint64_t n, total, left = mlx5dm_sim_left_behind();
	unsigned int failed = 0;
	size_t heap = heap_allocated();
	uint16_t port;
	int ret;

	(void)state;
	/* The ports of the tests before were closed cleanly too. */
	assert_int_equal(left, 0);
	rte_log_set_level_pattern("pmd.net.mlx5dm*", RTE_LOG_EMERG);
	mlx5dm_alloc_fail_at(0);
	assert_int_equal(bring_up("net_mlx5dm6", &port), 0);
	total = mlx5dm_alloc_count();
	tear_down("net_mlx5dm6", port);
	assert_int_equal(mlx5dm_sim_left_behind(), left);
	assert_int_equal(heap_allocated(), heap);
	for (n = 1; n <= total; n++) {
		mlx5dm_alloc_fail_at(n);
		ret = bring_up("net_mlx5dm6", &port);
		mlx5dm_alloc_fail_at(0);
		failed += ret < 0;
		tear_down("net_mlx5dm6", port);
		if (mlx5dm_sim_left_behind() != left)
			fail_msg("allocation %" PRIu64 " of %" PRIu64 " failed (%d): %" PRIu64
				 " objects left on the device", n, total, ret,
				 mlx5dm_sim_left_behind() - left);
		if (heap_allocated() != heap)
			fail_msg("allocation %" PRIu64 " of %" PRIu64 " failed (%d): %zd heap "
				 "bytes more", n, total, ret, (ssize_t)(heap_allocated() - heap));
	}
	rte_log_set_level_pattern("pmd.net.mlx5dm*", RTE_LOG_DEBUG);
	print_message("%" PRIu64 " allocations, %u bring-ups failed, none left anything\n",
		      total, failed);
	/* Most failures are fatal; a few are absorbed (a cache that does without). */
	assert_true(failed > total / 2);
}

static int
setup(void **state)
{
	(void)state;
	pool = pmd_env_init("test_pmd_backend");
	return pool == NULL ? -1 : 0;
}

static int
teardown(void **state)
{
	(void)state;
	pmd_env_fini(pool);
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_devargs_device_selection),
		cmocka_unit_test(test_port_attributes),
		cmocka_unit_test(test_bringup_faults),
	};

	return cmocka_run_group_tests_name("pmd_backend", tests, setup, teardown);
}
