/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/* What the PMD tests share: EAL without hugepages or PCI, an mbuf pool, small queries. */

#ifndef _PMD_ENV_H_
#define _PMD_ENV_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_byteorder.h>

struct rte_flow;
struct rte_flow_actions_template;
struct rte_flow_op_result;
struct rte_flow_pattern_template;
struct rte_flow_template_table;
struct rte_mempool;

/* rte_eal_init() as the tests run it (prog names the process); the pool, or NULL. */
struct rte_mempool *pmd_env_init(const char *prog);
/* The same with EAL's --lcores (NULL: EAL's default). */
struct rte_mempool *pmd_env_init_lcores(const char *prog, const char *lcores);
void pmd_env_fini(struct rte_mempool *pool);

/* The ethdev port named name, or RTE_MAX_ETHPORTS. */
uint16_t port_by_name(const char *name);
/* rte_vdev_init(name, devargs): its result, the log lines it wrote in *log (free it). */
int probe_logged(const char *name, const char *devargs, char **log);
/* The ports are on the rdma-core double (MLX5DM_TEST_BACKEND=hw: meson test --setup hw). */
bool backend_is_hw(void);
/* Bytes allocated in the DPDK heap of socket 0. */
size_t heap_allocated(void);
/* The port's extended statistic called name (the test fails if there is none). */
uint64_t xstat(uint16_t port, const char *name);
/*
 * rte_flow_pull() on flow queue queue of port until n results came (a pull
 * hands out only what the device executed) or a few seconds passed without
 * one; the number pulled into res (the test fails on a pull error).
 */
unsigned int pull_results(uint16_t port, uint32_t queue, struct rte_flow_op_result *res,
			  unsigned int n);

/* An ingress pattern template of port: eth / ipv4 matching the whole destination. */
struct rte_flow_pattern_template *ipv4_dst_template(uint16_t port);
/* An ingress actions template of port: DROP. */
struct rte_flow_actions_template *drop_template(uint16_t port);
/*
 * The rule of tbl (of ipv4_dst_template() and drop_template()) to dst,
 * created through flow queue 0: its result is pulled, a success.
 */
struct rte_flow *ipv4_dst_rule(uint16_t port, struct rte_flow_template_table *tbl,
			       rte_be32_t dst);

#endif /* _PMD_ENV_H_ */
