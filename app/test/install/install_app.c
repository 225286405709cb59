/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * A DPDK application as a user of the installed mlx5dm writes it: built by
 * test_install.py with `pkg-config --cflags --libs libmlx5dm libdpdk` only.
 * It describes the net_mlx5dm ports EAL created (the PMD's public API) and
 * opens a table on the device model through the steering library, printing
 * what it found for the test to check.
 */

#include <inttypes.h>
#include <stdio.h>

#include <rte_eal.h>
#include <rte_ethdev.h>

#include <mlx5dm_steer.h>
#include <rte_pmd_mlx5dm.h>

static int
library_table(void)
{
	struct mlx5dm_dev_attr attr = { .transport = "sim" };
	struct mlx5dm_ctx_stats st;
	struct mlx5dm_domain *dom = NULL;
	struct mlx5dm_table *tbl = NULL;
	struct mlx5dm_ctx *ctx = NULL;
	struct mlx5dm_dev *dev;
	int ret = -1;

	dev = mlx5dm_dev_open(&attr);
	if (dev == NULL)
		return -1;
	ctx = mlx5dm_ctx_open(dev, NULL);
	if (ctx == NULL)
		goto out;
	dom = mlx5dm_domain_create(ctx, MLX5DM_DOMAIN_NIC_RX);
	if (dom == NULL)
		goto out;
	tbl = mlx5dm_table_create(dom, 1);
	if (tbl == NULL || mlx5dm_ctx_stats_get(ctx, &st) != 0)
		goto out;
	printf("library: tables %" PRIu64 " steering ICM used %" PRIu64 "\n",
	       st.tables, st.icm[0].used_bytes);
	ret = 0;
out:
	if (tbl != NULL)
		mlx5dm_table_destroy(tbl);
	if (dom != NULL)
		mlx5dm_domain_destroy(dom);
	if (ctx != NULL)
		mlx5dm_ctx_close(ctx);
	mlx5dm_dev_close(dev);
	return ret;
}

int
main(int argc, char **argv)
{
	struct rte_pmd_mlx5dm_port_info info;
	uint16_t port;
	int ret;

	if (rte_eal_init(argc, argv) < 0) {
		fprintf(stderr, "EAL init failed\n");
		return 1;
	}
	/* Where the PMD must be for EAL to load it without -d. */
	printf("eal plugin dir: %s\n", RTE_EAL_PMD_PATH);
	RTE_ETH_FOREACH_DEV(port) {
		ret = rte_pmd_mlx5dm_port_info_get(port, &info);
		if (ret != 0) {
			printf("port %u: not net_mlx5dm (%d)\n", port, ret);
			continue;
		}
		printf("port %u: backend %s index %u of %u peer %u\n", port,
		       info.backend == RTE_PMD_MLX5DM_BACKEND_SIM ? "sim" : "hw",
		       info.port_index, info.nb_ports, info.peer_port_id);
	}
	ret = library_table();
	if (ret != 0)
		printf("library: failed\n");
	rte_eal_cleanup();
	return ret == 0 ? 0 : 1;
}
