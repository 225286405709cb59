/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_bus_vdev.h>
#include <rte_ethdev.h>

#include <rte_pmd_mlx5dm.h>

#include "test_dm_ports.h"
#include "test_dm_topo.h"

const uint16_t test_dm_default_peer[TEST_DM_DEFAULT_PORTS] = { 0, 2, 1 };

static void
test_dm_ports_count(unsigned int *sim, unsigned int *hw)
{
	struct rte_pmd_mlx5dm_port_info info;
	uint16_t port;

	*sim = 0;
	*hw = 0;
	RTE_ETH_FOREACH_DEV(port) {
		if (rte_pmd_mlx5dm_port_info_get(port, &info) != 0)
			continue;
		if (info.backend == RTE_PMD_MLX5DM_BACKEND_HW)
			(*hw)++;
		else
			(*sim)++;
	}
}

uint16_t
test_dm_ports_peer(const struct test_dm_config *cfg, uint16_t port)
{
	struct rte_pmd_mlx5dm_port_info info;
	unsigned int i;

	if (rte_pmd_mlx5dm_port_info_get(port, &info) != 0)
		return port;
	if (info.backend != RTE_PMD_MLX5DM_BACKEND_HW)
		return info.peer_port_id;
	for (i = 0; i < cfg->nb_cables; i++) {
		if (cfg->cable[i][0] == port)
			return cfg->cable[i][1];
		if (cfg->cable[i][1] == port)
			return cfg->cable[i][0];
	}
	return port;
}

/* Every port --cabled names is a hardware net_mlx5dm port. */
static int
test_dm_ports_cables(const struct test_dm_config *cfg, char *msg, size_t size)
{
	struct rte_pmd_mlx5dm_port_info info;
	unsigned int i, j;

	for (i = 0; i < cfg->nb_cables; i++) {
		for (j = 0; j < 2; j++) {
			uint16_t p = cfg->cable[i][j];

			if (rte_pmd_mlx5dm_port_info_get(p, &info) == 0 &&
			    info.backend == RTE_PMD_MLX5DM_BACKEND_HW)
				continue;
			snprintf(msg, size, "--cabled %u:%u: port %u is not a net_mlx5dm port on a "
				 "NIC", cfg->cable[i][0], cfg->cable[i][1], p);
			return -EINVAL;
		}
	}
	return 0;
}

static int
test_dm_ports_hw(const struct test_dm_config *cfg, unsigned int sim, unsigned int hw, char *msg,
		 size_t size)
{
	int ret;

	if (hw != 0) {
		ret = test_dm_ports_cables(cfg, msg, size);
		return ret < 0 ? ret : (int)hw;
	}
	if (sim != 0) {
		snprintf(msg, size, "hardware run asked for, but the net_mlx5dm ports given run on "
			 "the device model (add backend=hw to their devargs)");
		return -EINVAL;
	}
	if (cfg->hw_devargs) {
		snprintf(msg, size, "hardware run: the net_mlx5dm port asked for with backend=hw "
			 "did not come up; the PMD's log above says why. Nothing was run: a "
			 "hardware run never falls back to the device model");
		return -ENODEV;
	}
	ret = rte_vdev_init("net_mlx5dm0", "backend=hw");
	if (ret == 0) {
		test_dm_ports_count(&sim, &hw);
		ret = test_dm_ports_cables(cfg, msg, size);
		return ret < 0 ? ret : (int)hw;
	}
	snprintf(msg, size, "hardware run: no net_mlx5dm port on a NIC could be brought up "
		 "(net_mlx5dm0,backend=hw: %s); the PMD's log above says why. Nothing was run: "
		 "a hardware run never falls back to the device model", strerror(-ret));
	return ret;
}

int
test_dm_ports_prepare(const struct test_dm_config *cfg, char *msg, size_t size)
{
	unsigned int sim, hw;
	int ret;

	test_dm_ports_count(&sim, &hw);
	if (cfg->backend_hw)
		return test_dm_ports_hw(cfg, sim, hw, msg, size);
	if (sim + hw != 0)
		return (int)(sim + hw);
	ret = rte_vdev_init("net_mlx5dm0", NULL);
	if (ret == 0)
		ret = rte_vdev_init("net_mlx5dm1", "ports=2,topology=pair");
	if (ret != 0) {
		snprintf(msg, size, "cannot create the default net_mlx5dm ports: %s",
			 strerror(-ret));
		return ret;
	}
	test_dm_ports_count(&sim, &hw);
	return (int)(sim + hw);
}

int
test_dm_ports_add_switch(char *msg, size_t size)
{
	int ret = rte_vdev_init(TEST_DM_SWITCH_VDEV, TEST_DM_SWITCH_ARGS);

	if (ret != 0)
		snprintf(msg, size, "the switch topology's ports could not be created (%s,%s: "
			 "%s): this PMD has no representor ports", TEST_DM_SWITCH_VDEV,
			 TEST_DM_SWITCH_ARGS, strerror(-ret));
	return ret != 0 ? ret : 0;
}

/* Port @p prefix@p suffix into *port, if there is one. */
static void
test_dm_ports_by_name(const char *prefix, const char *suffix, uint16_t *port)
{
	char name[RTE_ETH_NAME_MAX_LEN];

	snprintf(name, sizeof(name), "%s%s", prefix, suffix);
	if (rte_eth_dev_get_port_by_name(name, port) != 0)
		*port = TEST_DM_TOPO_NONE;
}

int
test_dm_ports_find_switch(const struct test_dm_config *cfg, char *msg, size_t size)
{
	static const char rep0[] = "_representor_vf0";
	static const char *const suffix[TEST_DM_TOPO_ROLES] = {
		[TEST_DM_TOPO_PF] = "",
		[TEST_DM_TOPO_REP0] = rep0,
		[TEST_DM_TOPO_REP1] = "_representor_vf1",
		[TEST_DM_TOPO_VF0] = "_vf0",
		[TEST_DM_TOPO_VF1] = "_vf1",
	};
	uint16_t ports[TEST_DM_TOPO_ROLES], port;
	char name[RTE_ETH_NAME_MAX_LEN] = "";
	size_t len = 0;
	unsigned int r;

	/* By name: the PF is <name> of a representor <name>_representor_vf0. */
	RTE_ETH_FOREACH_DEV(port) {
		if (rte_eth_dev_get_name_by_port(port, name) != 0)
			continue;
		len = strlen(name);
		if (len > sizeof(rep0) - 1 && strcmp(name + len - (sizeof(rep0) - 1), rep0) == 0)
			break;
	}
	if (port < RTE_MAX_ETHPORTS)
		name[len - (sizeof(rep0) - 1)] = '\0';
	else
		name[0] = '\0';
	for (r = 0; r < TEST_DM_TOPO_ROLES; r++) {
		ports[r] = cfg->switch_port[r];
		if (ports[r] == TEST_DM_TOPO_NONE && port < RTE_MAX_ETHPORTS &&
		    r != TEST_DM_TOPO_WIRE)
			test_dm_ports_by_name(name, suffix[r], &ports[r]);
	}
	/* The wire port is the other end of the PF's wire; a looped uplink has none. */
	if (ports[TEST_DM_TOPO_WIRE] == TEST_DM_TOPO_NONE && ports[TEST_DM_TOPO_PF] !=
	    TEST_DM_TOPO_NONE && test_dm_ports_peer(cfg, ports[TEST_DM_TOPO_PF]) !=
	    ports[TEST_DM_TOPO_PF])
		ports[TEST_DM_TOPO_WIRE] = test_dm_ports_peer(cfg, ports[TEST_DM_TOPO_PF]);
	for (r = 0; r < TEST_DM_TOPO_ROLES; r++) {
		if (r == TEST_DM_TOPO_WIRE && ports[r] == TEST_DM_TOPO_NONE)
			continue;
		if (ports[r] != TEST_DM_TOPO_NONE && rte_eth_dev_is_valid_port(ports[r]))
			continue;
		if (port >= RTE_MAX_ETHPORTS && cfg->switch_port[TEST_DM_TOPO_PF] ==
		    TEST_DM_TOPO_NONE)
			snprintf(msg, size, "no representor port among the ports (the switch "
				 "topology needs %s,%s, or a NIC's PF in switchdev mode with "
				 "representor=vf[0-1])", TEST_DM_SWITCH_VDEV, TEST_DM_SWITCH_ARGS);
		else if (name[0] != '\0')
			snprintf(msg, size, "no port %s%s, nor is one given with --switch-port "
				 "%s=ID", name, suffix[r], test_dm_topo_name(r));
		else
			snprintf(msg, size, "no %s port: give it with --switch-port %s=ID",
				 test_dm_topo_name(r), test_dm_topo_name(r));
		return -ENOENT;
	}
	for (r = 0; r < TEST_DM_TOPO_ROLES; r++)
		test_dm_topo_set(r, ports[r]);
	return 0;
}
