/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * net_mlx5dm's device side: the devargs that select a hardware device and
 * their refusals; the port attributes read from the device.
 */

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <rte_bus_vdev.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_log.h>
#include <rte_mbuf.h>

#include <rte_pmd_mlx5dm.h>

static struct rte_mempool *pool;

static uint16_t
port_by_name(const char *name)
{
	uint16_t port;

	if (rte_eth_dev_get_port_by_name(name, &port) != 0)
		return RTE_MAX_ETHPORTS;
	return port;
}

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
		{ "backend=hw,sim_icm_populate=1",
		  "devarg sim_icm_populate applies to backend=sim only" },
		{ "backend=hw,sim_icm_start=8",
		  "devarg sim_icm_start applies to backend=sim only" },
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

static int
setup(void **state)
{
	static char args[][40] = {
		"test_pmd_backend", "--no-huge", "--no-pci", "--no-shconf", "-m", "256",
		"--log-level=lib.eal:error", "--log-level=pmd.net.mlx5dm:debug",
	};
	char *argv[RTE_DIM(args)];
	unsigned int i;

	(void)state;
	for (i = 0; i < RTE_DIM(args); i++)
		argv[i] = args[i];
	if (rte_eal_init((int)RTE_DIM(args), argv) < 0)
		return -1;
	pool = rte_pktmbuf_pool_create("test_pool", 2048, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE, 0);
	return pool == NULL ? -1 : 0;
}

static int
teardown(void **state)
{
	(void)state;
	rte_mempool_free(pool);
	rte_eal_cleanup();
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_devargs_device_selection),
		cmocka_unit_test(test_port_attributes),
	};

	return cmocka_run_group_tests_name("pmd_backend", tests, setup, teardown);
}
