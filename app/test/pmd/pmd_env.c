/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/* rte_flow_pull() is experimental in DPDK 22.11 (test_pmd_backend sets it for the PMD). */
#ifndef ALLOW_EXPERIMENTAL_API
#define ALLOW_EXPERIMENTAL_API
#endif

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <rte_bus_vdev.h>
#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_flow.h>
#include <rte_log.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>

#include "pmd_env.h"

struct rte_mempool *
pmd_env_init_lcores(const char *prog, const char *lcores)
{
	static char args[][40] = {
		"", "--no-huge", "--no-pci", "--no-shconf", "-m", "256",
		"--log-level=lib.eal:error", "--log-level=pmd.net.mlx5dm:debug", "--lcores", "",
	};
	char *argv[RTE_DIM(args)];
	int argc = (int)RTE_DIM(args) - (lcores == NULL ? 2 : 0);
	int i;

	snprintf(args[0], sizeof(args[0]), "%s", prog);
	if (lcores != NULL)
		snprintf(args[RTE_DIM(args) - 1], sizeof(args[0]), "%s", lcores);
	for (i = 0; i < argc; i++)
		argv[i] = args[i];
	if (rte_eal_init(argc, argv) < 0)
		return NULL;
	return rte_pktmbuf_pool_create("test_pool", 2048, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE, 0);
}

struct rte_mempool *
pmd_env_init(const char *prog)
{
	return pmd_env_init_lcores(prog, NULL);
}

/*
 * Ports a failed test left open still hold mbufs of the pool in their
 * queues: close them before the pool goes, so the failure is reported
 * rather than a crash at teardown. Last port first, as the vdev's remove
 * does: representors before their manager.
 */
void
pmd_env_fini(struct rte_mempool *pool)
{
	uint16_t port;

	for (port = RTE_MAX_ETHPORTS; port-- > 0;) {
		if (!rte_eth_dev_is_valid_port(port))
			continue;
		if (rte_eth_dev_stop(port) != 0)
			fprintf(stderr, "port %u: left started, cannot stop\n", port);
		rte_eth_dev_close(port);
	}
	rte_mempool_free(pool);
	rte_eal_cleanup();
}

int
probe_logged(const char *name, const char *devargs, char **log)
{
	FILE *prev = rte_log_get_stream(), *f;
	size_t len = 0;
	int ret;

	*log = NULL;
	f = open_memstream(log, &len);
	assert_non_null(f);
	assert_int_equal(rte_openlog_stream(f), 0);
	ret = rte_vdev_init(name, devargs);
	rte_openlog_stream(prev);
	fclose(f);
	return ret;
}

bool
backend_is_hw(void)
{
	const char *backend = getenv("MLX5DM_TEST_BACKEND");

	return backend != NULL && strcmp(backend, "hw") == 0;
}

uint16_t
port_by_name(const char *name)
{
	uint16_t port;

	if (rte_eth_dev_get_port_by_name(name, &port) != 0)
		return RTE_MAX_ETHPORTS;
	return port;
}

size_t
heap_allocated(void)
{
	struct rte_malloc_socket_stats st;

	assert_int_equal(rte_malloc_get_socket_stats(0, &st), 0);
	return st.heap_allocsz_bytes;
}

uint64_t
xstat(uint16_t port, const char *name)
{
	uint64_t id, v;

	assert_int_equal(rte_eth_xstats_get_id_by_name(port, name, &id), 0);
	assert_int_equal(rte_eth_xstats_get_by_id(port, &id, &v, 1), 1);
	return v;
}

unsigned int
pull_results(uint16_t port, uint32_t queue, struct rte_flow_op_result *res, unsigned int n)
{
	uint64_t deadline = rte_get_timer_cycles() + 5 * rte_get_timer_hz();
	struct rte_flow_error error;
	unsigned int got = 0;
	int k;

	while (got < n && rte_get_timer_cycles() < deadline) {
		k = rte_flow_pull(port, queue, res + got, (uint16_t)(n - got), &error);
		assert_true(k >= 0);
		got += (unsigned int)k;
		/* Only a device that executes nothing for the whole wait ends it. */
		if (k != 0)
			deadline = rte_get_timer_cycles() + 5 * rte_get_timer_hz();
	}
	return got;
}

struct rte_flow_pattern_template *
ipv4_dst_template(uint16_t port)
{
	static const struct rte_flow_item_ipv4 ip_mask = {
		.hdr = { .dst_addr = RTE_BE32(0xffffffff) },
	};
	const struct rte_flow_item pattern[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_IPV4, .mask = &ip_mask },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	const struct rte_flow_pattern_template_attr pta = { .ingress = 1 };
	struct rte_flow_pattern_template *pt;
	struct rte_flow_error err;

	pt = rte_flow_pattern_template_create(port, &pta, pattern, &err);
	assert_non_null(pt);
	return pt;
}

struct rte_flow_actions_template *
drop_template(uint16_t port)
{
	static const struct rte_flow_action drop[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_DROP }, { .type = RTE_FLOW_ACTION_TYPE_END },
	};
	const struct rte_flow_actions_template_attr ata = { .ingress = 1 };
	struct rte_flow_actions_template *at;
	struct rte_flow_error err;

	at = rte_flow_actions_template_create(port, &ata, drop, drop, &err);
	assert_non_null(at);
	return at;
}

struct rte_flow *
ipv4_dst_rule(uint16_t port, struct rte_flow_template_table *tbl, rte_be32_t dst)
{
	static const struct rte_flow_action drop[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_DROP }, { .type = RTE_FLOW_ACTION_TYPE_END },
	};
	const struct rte_flow_item_ipv4 ip = { .hdr = { .dst_addr = dst } };
	const struct rte_flow_item rule[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_IPV4, .spec = &ip },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	const struct rte_flow_op_attr now = { .postpone = 0 };
	struct rte_flow_op_result res;
	struct rte_flow_error err;
	struct rte_flow *f;

	f = rte_flow_async_create(port, 0, &now, tbl, rule, 0, drop, 0, NULL, &err);
	assert_non_null(f);
	assert_int_equal(pull_results(port, 0, &res, 1), 1);
	assert_int_equal(res.status, RTE_FLOW_OP_SUCCESS);
	return f;
}
