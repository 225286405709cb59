/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * mlx5dm-bench-flow-unique: rte_flow insertion rate on port 0 when every
 * rule carries its own action value, next to the same rules sharing one
 * value, measured in the same run. A driver whose caches of actions (or
 * groups) do not grow with their contents slows down with the square of
 * the rule count on the unique runs; the ratio shared / unique shows it.
 *
 * Rules: ingress, group 0, `eth / ipv4 src is i / end`, then
 *   mark    `mark id V / queue index 0`                 (the OVS offload pattern)
 *   modify  `set_ipv4_src V / queue index 0`
 *   encap   egress, `raw_encap (Ethernet/IPv4/UDP/VXLAN, VNI V)`
 *   jump    `jump group V`, V a group made for the rule (at most --groups groups)
 * with V = i + 1 (unique; encap headers and groups repeat after 65536 and
 * --groups, default 40000) or V = 1 (shared). dpdk-test-flow-perf cannot
 * make MARK ids unique (its ids cycle through 1..255 with or without
 * --unique-data), hence this program.
 *
 *   mlx5dm-bench-flow-unique EAL_ARGS -- --rules N [--kinds mark,modify,encap,jump]
 *                                        [--groups G] [--only shared|unique]
 * prints one line per kind: rules/s shared, unique, and the ratio
 * (--only: one of the two runs, for profiling it alone).
 */

#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_byteorder.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_flow.h>
#include <rte_mbuf.h>

#include "bench_key.h"

#define PORT 0
#define BENCH_ENCAPS 65536u /* distinct encap headers (within the device's reformat room) */

struct rule_buf {
	struct rte_flow_item_ipv4 ip_spec;
	struct rte_flow_item_ipv4 ip_mask;
	struct rte_flow_action_mark mark;
	struct rte_flow_action_set_ipv4 set_ip;
	struct rte_flow_action_queue queue;
	struct rte_flow_action_jump jump;
	struct rte_flow_action_raw_encap encap;
	uint8_t encap_data[50];
};

/* An Ethernet/IPv4/UDP/VXLAN header whose VNI is v. */
static void
encap_header(uint8_t *d, uint32_t v)
{
	static const uint8_t tmpl[50] = {
		0x02, 0, 0, 0, 0, 0x02, 0x02, 0, 0, 0, 0, 0x01, 0x08, 0x00,
		0x45, 0, 0, 0, 0, 0, 0x40, 0, 64, 17, 0, 0, 10, 0, 0, 1, 10, 0, 0, 2,
		0x12, 0xb5, 0x12, 0xb5, 0, 0, 0, 0,
		0x08, 0, 0, 0, 0, 0, 0, 0,
	};

	memcpy(d, tmpl, sizeof(tmpl));
	d[46] = (uint8_t)(v >> 16);
	d[47] = (uint8_t)(v >> 8);
	d[48] = (uint8_t)v;
}

/* Rule i of kind with action value v; NULL + the driver's message on failure. */
static struct rte_flow *
make_rule(const char *kind, uint32_t i, uint32_t v, struct rule_buf *b)
{
	struct rte_flow_attr attr = { .ingress = 1 };
	struct rte_flow_item items[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_IPV4, .spec = &b->ip_spec, .mask = &b->ip_mask },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_action acts[3] = {
		{ .type = RTE_FLOW_ACTION_TYPE_QUEUE, .conf = &b->queue },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	struct rte_flow_error err = { .message = NULL };
	struct rte_flow *f;

	b->ip_spec.hdr.src_addr = rte_cpu_to_be_32(i);
	b->ip_mask.hdr.src_addr = RTE_BE32(0xffffffff);
	if (strcmp(kind, "jump") == 0) {
		b->jump.group = v;
		acts[0] = (struct rte_flow_action){ .type = RTE_FLOW_ACTION_TYPE_JUMP,
						    .conf = &b->jump };
	} else {
		acts[1] = acts[0];
		if (strcmp(kind, "mark") == 0) {
			b->mark.id = v;
			acts[0] = (struct rte_flow_action){ .type = RTE_FLOW_ACTION_TYPE_MARK,
							    .conf = &b->mark };
		} else if (strcmp(kind, "modify") == 0) {
			b->set_ip.ipv4_addr = rte_cpu_to_be_32(v);
			acts[0] = (struct rte_flow_action){
				.type = RTE_FLOW_ACTION_TYPE_SET_IPV4_SRC, .conf = &b->set_ip };
		} else {
			/* Egress: the tunnel header goes on the way out (no queue). */
			attr = (struct rte_flow_attr){ .egress = 1 };
			encap_header(b->encap_data, v);
			b->encap.data = b->encap_data;
			b->encap.size = sizeof(b->encap_data);
			acts[0] = (struct rte_flow_action){
				.type = RTE_FLOW_ACTION_TYPE_RAW_ENCAP, .conf = &b->encap };
			acts[1].type = RTE_FLOW_ACTION_TYPE_END;
		}
	}
	f = rte_flow_create(PORT, &attr, items, acts, &err);
	if (f == NULL)
		fprintf(stderr, "%s rule %u: %s\n", kind, i,
			err.message != NULL ? err.message : "(no message)");
	return f;
}

/* Insert n rules (unique or shared values), then flush; rules per second, 0 on failure. */
static double
run(const char *kind, uint32_t n, bool unique, uint32_t groups)
{
	struct rte_flow_error err;
	struct rule_buf b;
	double t0, t;
	uint32_t i, v;

	memset(&b, 0, sizeof(b));
	b.queue.index = 0;
	t0 = now();
	for (i = 0; i < n; i++) {
		v = unique ? i + 1 : 1;
		/* Groups and encap headers take device objects: at most so many at once. */
		if (strcmp(kind, "jump") == 0 && unique)
			v = i % groups + 1;
		if (strcmp(kind, "encap") == 0 && unique)
			v = i % BENCH_ENCAPS + 1;
		if (make_rule(kind, i, v, &b) == NULL)
			break;
	}
	t = now() - t0;
	rte_flow_flush(PORT, &err);
	return i == n ? n / t : 0;
}

static int
port_init(void)
{
	struct rte_eth_conf conf = { .rxmode = { .mq_mode = RTE_ETH_MQ_RX_NONE } };
	struct rte_mempool *mp;

	if (rte_eth_dev_count_avail() == 0) {
		fprintf(stderr, "no port: pass --vdev net_mlx5dm0 (and -d the PMD)\n");
		return -1;
	}
	mp = rte_pktmbuf_pool_create("bench", 1024, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE, 0);
	if (mp == NULL || rte_eth_dev_configure(PORT, 1, 1, &conf) != 0 ||
	    rte_eth_rx_queue_setup(PORT, 0, 256, 0, NULL, mp) != 0 ||
	    rte_eth_tx_queue_setup(PORT, 0, 256, 0, NULL) != 0 || rte_eth_dev_start(PORT) != 0) {
		fprintf(stderr, "port setup failed\n");
		return -1;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "rules", required_argument, NULL, 'r' },
		{ "kinds", required_argument, NULL, 'k' },
		{ "groups", required_argument, NULL, 'g' },
		{ "only", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 },
	};
	char kinds[64] = "mark,modify,encap,jump";
	uint32_t rules = 100000, groups = 40000;
	const char *only = "";
	char *kind, *save = NULL;
	int ret, c;

	ret = rte_eal_init(argc, argv);
	if (ret < 0)
		return 1;
	argc -= ret;
	argv += ret;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'r':
			rules = (uint32_t)strtoul(optarg, NULL, 0);
			break;
		case 'k':
			snprintf(kinds, sizeof(kinds), "%s", optarg);
			break;
		case 'g':
			groups = (uint32_t)strtoul(optarg, NULL, 0);
			break;
		case 'o':
			only = optarg;
			break;
		default:
			return 1;
		}
	}
	if (rules == 0 || groups == 0 || port_init() < 0)
		return 1;
	printf("%-16s %9s %12s %12s %7s\n", "kind", "rules", "shared/s", "unique/s", "ratio");
	for (kind = strtok_r(kinds, ",", &save); kind != NULL; kind = strtok_r(NULL, ",", &save)) {
		double shared = strcmp(only, "unique") == 0 ? 1 : run(kind, rules, false, groups);
		double unique = strcmp(only, "shared") == 0 ? 1 : run(kind, rules, true, groups);

		if (shared == 0 || unique == 0) {
			printf("%-16s %9u %12s %12s %7s\n", kind, rules, "-", "-", "-");
			continue;
		}
		printf("%-16s %9u %12.0f %12.0f %7.2f\n", kind, rules, shared, unique,
		       shared / unique);
		fflush(stdout);
	}
	rte_eth_dev_stop(PORT);
	rte_eth_dev_close(PORT);
	rte_eal_cleanup();
	return 0;
}
