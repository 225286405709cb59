/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The E-Switch through the ethdev API: the representor and vf_ports
 * devargs, the ports they make and their switch information, transfer
 * rules between the uplink and the VFs (items and actions), the misses to
 * the representors, and refused rules that change nothing. Frames go in by
 * a VF port (the VM's side) or the manager (the uplink's representor,
 * whose wire loops back into the switch) and are looked for where the
 * rules say.
 */

/* rte_flow_dev_dump() is experimental in 22.11. */
#define ALLOW_EXPERIMENTAL_API

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
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_flow.h>
#include <rte_ip.h>
#include <rte_mbuf.h>

#include <rte_pmd_mlx5dm.h>
#include "pmd_env.h"

static struct rte_mempool *pool;

/*
 * MLX5DM_TEST_BACKEND=hw (meson test --setup hw): the ports are on the
 * rdma-core double's PF ESW_HW_DEVICE in switchdev mode (the test's
 * MLX5DM_RDMA_DOUBLE gives it 7 VFs, ESW_HW_LEGACY none, ESW_HW_ONE_VF
 * one), through the hw transport.
 */
#define ESW_HW_DEVICE "mlx5_0"
/* Devices of the same double in legacy mode (no vfs) and with one VF. */
#define ESW_HW_LEGACY "mlx5_1"
#define ESW_HW_ONE_VF "mlx5_2"
static bool on_hw;

/* rte_vdev_init(name, args) on the backend of the run. */
static int
esw_vdev(const char *name, const char *args)
{
	char buf[256];

	if (!on_hw)
		return rte_vdev_init(name, args);
	snprintf(buf, sizeof(buf), "backend=hw,ib_device=" ESW_HW_DEVICE ",%s", args);
	return rte_vdev_init(name, buf);
}

/* The ports of "representor=vf[0-1],vf_ports=1". */
enum { PF, REP0, REP1, VF0, VF1, NB };
static uint16_t ports[NB];
static const char * const names[NB] = {
	"net_mlx5dm9", "net_mlx5dm9_representor_vf0", "net_mlx5dm9_representor_vf1",
	"net_mlx5dm9_vf0", "net_mlx5dm9_vf1",
};

static void
test_esw_devargs(void **state)
{
	static const char * const bad[] = {
		"representor=pf0",
		"representor=vf7",
		"representor=vf[0-7]",
		"representor=vf[x]",
		"representor=sf0",
		"representor=pf1vf0",
		"vf_ports=1",
		"vf_ports=2,representor=vf0",
		"representor=vf[0-6],vf_ports=1,ports=3",
		"representor=vf0,ports=3,topology=pair",
		"representor=vf0,representor=vf1",
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < RTE_DIM(bad); i++) {
		assert_int_not_equal(esw_vdev("net_mlx5dm8", bad[i]), 0);
		assert_int_equal(port_by_name("net_mlx5dm8"), RTE_MAX_ETHPORTS);
	}
	/* On hw: a device whose E-Switch is not in switchdev mode, or has too few VFs. */
	if (on_hw) {
		assert_int_not_equal(rte_vdev_init("net_mlx5dm8", "backend=hw,ib_device="
						   ESW_HW_LEGACY ",representor=vf0"), 0);
		assert_int_equal(port_by_name("net_mlx5dm8"), RTE_MAX_ETHPORTS);
		assert_int_not_equal(rte_vdev_init("net_mlx5dm8", "backend=hw,ib_device="
						   ESW_HW_ONE_VF ",representor=vf[0-1]"), 0);
		assert_int_equal(port_by_name("net_mlx5dm8"), RTE_MAX_ETHPORTS);
	}
	/* Representors in the order listed, after the PF. */
	assert_int_equal(esw_vdev("net_mlx5dm8", "representor=vf[3,1]"), 0);
	assert_int_equal(port_by_name("net_mlx5dm8_representor_vf3"),
			 port_by_name("net_mlx5dm8") + 1);
	assert_int_equal(port_by_name("net_mlx5dm8_representor_vf1"),
			 port_by_name("net_mlx5dm8") + 2);
	assert_int_equal(port_by_name("net_mlx5dm8_vf3"), RTE_MAX_ETHPORTS);
	assert_int_equal(rte_vdev_uninit("net_mlx5dm8"), 0);
	assert_int_equal(port_by_name("net_mlx5dm8_representor_vf3"), RTE_MAX_ETHPORTS);
	/* DPDK's list syntax drops a repeated id. */
	assert_int_equal(esw_vdev("net_mlx5dm8", "representor=vf[0,0]"), 0);
	assert_int_equal(port_by_name("net_mlx5dm8_representor_vf0"),
			 port_by_name("net_mlx5dm8") + 1);
	assert_int_equal(rte_vdev_uninit("net_mlx5dm8"), 0);
	assert_int_equal(esw_vdev("net_mlx5dm8", "representor=vf6"), 0);
	assert_true(port_by_name("net_mlx5dm8_representor_vf6") < RTE_MAX_ETHPORTS);
	assert_int_equal(rte_vdev_uninit("net_mlx5dm8"), 0);
}

static void
esw_open(void)
{
	struct rte_pmd_mlx5dm_port_info pinfo;
	struct rte_eth_conf conf = { 0 };
	unsigned int i;

	assert_int_equal(esw_vdev("net_mlx5dm9", "representor=vf[0-1],vf_ports=1"), 0);
	for (i = 0; i < NB; i++) {
		ports[i] = port_by_name(names[i]);
		assert_int_equal(rte_pmd_mlx5dm_port_info_get(ports[i], &pinfo), 0);
		assert_int_equal(pinfo.port_index, i);
		assert_int_equal(ports[i], ports[PF] + i);
		assert_int_equal(rte_eth_dev_configure(ports[i], 2, 1, &conf), 0);
		assert_int_equal(rte_eth_rx_queue_setup(ports[i], 0, 64, 0, NULL, pool), 0);
		assert_int_equal(rte_eth_rx_queue_setup(ports[i], 1, 64, 0, NULL, pool), 0);
		assert_int_equal(rte_eth_tx_queue_setup(ports[i], 0, 256, 0, NULL), 0);
	}
}

static void
esw_start(void)
{
	unsigned int i;

	/* The manager first: the representors' Rx rules are in its tables. */
	for (i = 0; i < NB; i++)
		assert_int_equal(rte_eth_dev_start(ports[i]), 0);
}

static void
esw_close(void)
{
	unsigned int i;

	for (i = 0; i < NB; i++)
		assert_int_equal(rte_eth_dev_stop(ports[NB - 1 - i]), 0);
	assert_int_equal(rte_vdev_uninit("net_mlx5dm9"), 0);
}

static void
test_esw_switch_info(void **state)
{
	struct rte_eth_dev_info info[NB];
	struct rte_flow_error error;
	uint16_t proxy;
	unsigned int i;
	uint64_t id;

	(void)state;
	esw_open();
	for (i = 0; i < NB; i++)
		assert_int_equal(rte_eth_dev_info_get(ports[i], &info[i]), 0);
	assert_int_equal(info[PF].switch_info.domain_id, info[REP0].switch_info.domain_id);
	assert_int_equal(info[PF].switch_info.domain_id, info[REP1].switch_info.domain_id);
	assert_int_not_equal(info[PF].switch_info.domain_id, RTE_ETH_DEV_SWITCH_DOMAIN_ID_INVALID);
	assert_int_equal(info[PF].switch_info.port_id, UINT16_MAX);
	assert_int_equal(info[REP0].switch_info.port_id, 0);
	assert_int_equal(info[REP1].switch_info.port_id, 1);
	assert_string_equal(info[REP1].switch_info.name, names[REP1]);
	assert_int_equal(info[VF0].switch_info.domain_id, RTE_ETH_DEV_SWITCH_DOMAIN_ID_INVALID);
	assert_int_equal(info[VF1].switch_info.domain_id, RTE_ETH_DEV_SWITCH_DOMAIN_ID_INVALID);
	/* A representor counts no device drops of its own (its device is the manager's). */
	assert_int_equal(rte_eth_xstats_get_id_by_name(ports[REP0], "dev_delivered", &id),
			 -EINVAL);
	/* The model's counters: a NIC has none of them. */
	assert_int_equal(rte_eth_xstats_get_id_by_name(ports[PF], "dev_delivered", &id),
			 on_hw ? -EINVAL : 0);
	assert_true(*info[REP0].dev_flags & RTE_ETH_DEV_REPRESENTOR);
	assert_false(*info[PF].dev_flags & RTE_ETH_DEV_REPRESENTOR);
	assert_false(*info[VF0].dev_flags & RTE_ETH_DEV_REPRESENTOR);
	for (i = PF; i <= REP1; i++) {
		proxy = RTE_MAX_ETHPORTS;
		assert_int_equal(rte_flow_pick_transfer_proxy(ports[i], &proxy, &error), 0);
		assert_int_equal(proxy, ports[PF]);
	}
	/* A port outside the switch is its own proxy (ethdev's answer without the op). */
	assert_int_equal(rte_flow_pick_transfer_proxy(ports[VF0], &proxy, &error), 0);
	assert_int_equal(proxy, ports[VF0]);
	esw_start();
	esw_close();
}

/*
 * Send n 100-byte frames (all bytes 0xa5) on port and wait
 * until the device completed them: it has then delivered or dropped each,
 * through the switch and the looped wire, in the same pass.
 */
static void
send_frames_on(uint16_t port, uint16_t q, unsigned int n)
{
	uint64_t deadline = rte_get_timer_cycles() + 5 * rte_get_timer_hz();
	struct rte_mbuf *m[32];
	unsigned int i, done = 0;
	int k;

	assert_true(n <= RTE_DIM(m));
	for (i = 0; i < n; i++) {
		uint8_t *d;

		m[i] = rte_pktmbuf_alloc(pool);
		assert_non_null(m[i]);
		d = (uint8_t *)rte_pktmbuf_append(m[i], 100);
		memset(d, 0xa5, 100);
	}
	assert_int_equal(rte_eth_tx_burst(port, q, m, (uint16_t)n), n);
	while (done < n && rte_get_timer_cycles() < deadline) {
		k = rte_eth_tx_done_cleanup(port, q, 0);
		assert_true(k >= 0);
		done += (unsigned int)k;
	}
	assert_int_equal(done, n);
}

static void
send_frames(uint16_t port, unsigned int n)
{
	send_frames_on(port, 0, n);
}

/*
 * Frames of length len waiting on Rx queue q of port (any other length
 * fails); VLAN tag vid if len is 104; MARK mark if not 0.
 */
static unsigned int
recv_queue(uint16_t port, uint16_t q, uint32_t len, uint16_t vid, uint32_t mark)
{
	struct rte_mbuf *m[32];
	unsigned int total = 0;
	uint16_t n, i;

	while ((n = rte_eth_rx_burst(port, q, m, RTE_DIM(m))) != 0) {
		for (i = 0; i < n; i++) {
			const uint8_t *d = rte_pktmbuf_mtod(m[i], const uint8_t *);

			assert_int_equal(m[i]->pkt_len, len);
			if (len == 104) {
				assert_int_equal(d[12] << 8 | d[13], 0x8100);
				assert_int_equal((d[14] << 8 | d[15]) & 0xfff, vid);
			}
			if (mark != 0) {
				assert_true(m[i]->ol_flags & RTE_MBUF_F_RX_FDIR_ID);
				assert_int_equal(m[i]->hash.fdir.hi, mark);
			}
		}
		total += n;
		rte_pktmbuf_free_bulk(m, n);
	}
	return total;
}

/* Frames waiting on both Rx queues of port. */
static unsigned int
recv_frames(uint16_t port, uint32_t len, uint16_t vid)
{
	return recv_queue(port, 0, len, vid, 0) + recv_queue(port, 1, len, vid, 0);
}

/* Every port received exactly what want says (100-byte frames). */
static void
expect(const unsigned int want[NB])
{
	unsigned int i;

	for (i = 0; i < NB; i++)
		assert_int_equal(recv_frames(ports[i], 100, 0), want[i]);
}

static const struct rte_flow_attr transfer = { .transfer = 1 };

/* pattern: represented_port from; actions: count (if cnt), act to. */
static struct rte_flow *
rule(uint16_t on, const struct rte_flow_attr *attr, uint16_t from,
     enum rte_flow_action_type act, uint16_t to, bool cnt, struct rte_flow_error *error)
{
	struct rte_flow_item_ethdev src = { .port_id = from };
	struct rte_flow_action_ethdev dst = { .port_id = to };
	struct rte_flow_action_port_id port_id = { .id = to };
	struct rte_flow_action_jump jump = { .group = to };
	const void *conf = &dst;
	struct rte_flow_item pattern[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_REPRESENTED_PORT, .spec = &src },
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_action actions[] = {
		{ .type = cnt ? RTE_FLOW_ACTION_TYPE_COUNT : RTE_FLOW_ACTION_TYPE_VOID },
		{ .type = act },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};

	if (act == RTE_FLOW_ACTION_TYPE_JUMP)
		conf = &jump;
	else if (act == RTE_FLOW_ACTION_TYPE_PORT_ID)
		conf = &port_id;
	else if (act == RTE_FLOW_ACTION_TYPE_DROP)
		conf = NULL;
	actions[1].conf = conf;
	return rte_flow_create(on, attr, pattern, actions, error);
}

/* The rule's hits since its last reset; reset: the next query starts from 0. */
static uint64_t
hits_query(uint16_t port, struct rte_flow *f, bool reset)
{
	struct rte_flow_action count[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_COUNT }, { .type = RTE_FLOW_ACTION_TYPE_END },
	};
	struct rte_flow_query_count q = { .reset = reset };
	struct rte_flow_error error;

	assert_int_equal(rte_flow_query(port, f, count, &q, &error), 0);
	assert_true(q.hits_set);
	return q.hits;
}

static uint64_t
hits(uint16_t port, struct rte_flow *f)
{
	return hits_query(port, f, false);
}

/*
 * rte_flow_dev_dump() of port (flow: one, NULL: all): rdma-core's CSV
 * records, domains (3000) as many as want, and a rule (3300) at least.
 */
static void
dump_check(uint16_t port, struct rte_flow *flow, unsigned int domains)
{
	struct rte_flow_error error;
	unsigned int n = 0, rules = 0;
	char *buf = NULL, *line;
	size_t len = 0;
	FILE *f;

	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(rte_flow_dev_dump(port, flow, f, &error), 0);
	fclose(f);
	for (line = buf; line != NULL && *line != '\0'; line = strchr(line, '\n')) {
		if (*line == '\n')
			line++;
		n += strncmp(line, "3000,", 5) == 0;
		rules += strncmp(line, "3300,", 5) == 0;
	}
	free(buf);
	assert_int_equal(n, domains);
	assert_true(rules >= 1);
}

/* Stands for a test that fails half-way: its vdev left open and started. */
static void
test_esw_left_open(void **state)
{
	(void)state;
	esw_open();
	esw_start();
	send_frames(ports[VF0], 2);
}

/* ... and the next test starts with no port and no vdev of the last one. */
static void
test_esw_nothing_left(void **state)
{
	uint16_t port;

	(void)state;
	for (port = 0; port < RTE_MAX_ETHPORTS; port++)
		assert_false(rte_eth_dev_is_valid_port(port));
	esw_open();
	esw_start();
	esw_close();
}

/* Misses: a VF's frames reach its representor, the uplink's the manager; back. */
static void
test_esw_misses(void **state)
{
	(void)state;
	esw_open();
	esw_start();
	send_frames(ports[VF0], 8);
	send_frames(ports[VF1], 4);
	send_frames(ports[PF], 5);
	/* A representor's frames go to its VF. */
	send_frames(ports[REP0], 2);
	send_frames(ports[REP1], 1);
	expect((const unsigned int[NB]){ [PF] = 5, [REP0] = 8, [REP1] = 4, [VF0] = 2, [VF1] = 1 });
	/* The manager restarted, its running representors' rules are back. */
	assert_int_equal(rte_eth_dev_stop(ports[PF]), 0);
	assert_int_equal(rte_eth_dev_start(ports[PF]), 0);
	send_frames(ports[VF0], 2);
	send_frames(ports[REP0], 1);
	expect((const unsigned int[NB]){ [REP0] = 2, [VF0] = 1 });
	esw_close();
}

/*
 * A manager's ingress rule of group 0, priority 0, whose matcher exists
 * before a representor starts takes the manager's frames but not that
 * VF's misses, which still reach the representor.
 */
static void
test_esw_manager_rule_first(void **state)
{
	struct rte_flow_action_queue q1 = { .index = 1 };
	struct rte_flow_item pattern[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_action to_q1[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_COUNT },
		{ .type = RTE_FLOW_ACTION_TYPE_QUEUE, .conf = &q1 },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	static const struct rte_flow_attr in = { .ingress = 1 };
	struct rte_flow_error error;
	struct rte_flow *f;

	(void)state;
	esw_open();
	assert_int_equal(rte_eth_dev_start(ports[PF]), 0);
	assert_int_equal(rte_eth_dev_start(ports[VF0]), 0);
	assert_int_equal(rte_eth_dev_start(ports[VF1]), 0);
	f = rte_flow_create(ports[PF], &in, pattern, to_q1, &error);
	assert_non_null(f);
	assert_int_equal(rte_eth_dev_start(ports[REP0]), 0);
	assert_int_equal(rte_eth_dev_start(ports[REP1]), 0);
	send_frames(ports[VF0], 6);
	send_frames(ports[VF1], 4);
	send_frames(ports[PF], 5);
	assert_int_equal(recv_queue(ports[PF], 1, 100, 0, 0), 5);
	expect((const unsigned int[NB]){ [REP0] = 6, [REP1] = 4 });
	assert_int_equal(hits(ports[PF], f), 5);
	/* A representor restarted while the rule exists: its VF's misses still. */
	assert_int_equal(rte_eth_dev_stop(ports[REP0]), 0);
	assert_int_equal(rte_eth_dev_start(ports[REP0]), 0);
	send_frames(ports[VF0], 3);
	expect((const unsigned int[NB]){ [REP0] = 3 });
	assert_int_equal(hits(ports[PF], f), 5);
	esw_close();
}

/* A library statistic of the manager's steering context (xstat steer_*). */
static uint64_t
steer_stat(const char *name);

/* The manager's steering matchers (its xstat). */
static uint64_t
steer_matchers(void)
{
	uint64_t id, v;

	assert_int_equal(rte_eth_xstats_get_id_by_name(ports[PF], "steer_matchers", &id), 0);
	assert_int_equal(rte_eth_xstats_get_by_id(ports[PF], &id, &v, 1), 1);
	return v;
}

/* Transfer pattern: eth dst of the test frames (all 0xa5), no port item. */
static const struct rte_flow_item_eth a5_dst = {
	.hdr.dst_addr.addr_bytes = { 0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5 },
};
static const struct rte_flow_item_eth dst_mask = {
	.hdr.dst_addr.addr_bytes = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },
};

/*
 * A transfer rule of group 0 without a port item sees what a representor
 * sends: its send queues' rules to the VF come after every transfer rule.
 */
static void
test_esw_rep_tx_below(void **state)
{
	struct rte_flow_action_ethdev to_vf1 = { .port_id = 0 };
	struct rte_flow_item pattern[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH, .spec = &a5_dst, .mask = &dst_mask },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_action actions[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_COUNT },
		{ .type = RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT, .conf = &to_vf1 },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	static const struct rte_flow_attr low = { .transfer = 1, .priority = 65533 };
	struct rte_flow_error error;
	struct rte_flow *f;

	(void)state;
	esw_open();
	esw_start();
	to_vf1.port_id = ports[REP1];
	/* The lowest priority a transfer rule has, created after the representors started. */
	f = rte_flow_create(ports[PF], &low, pattern, actions, &error);
	assert_non_null(f);
	send_frames(ports[REP0], 3);
	send_frames(ports[REP1], 2);
	expect((const unsigned int[NB]){ [VF1] = 5 });
	assert_int_equal(hits(ports[PF], f), 5);
	/* Destroyed, a representor's frames go to its VF again. */
	assert_int_equal(rte_flow_destroy(ports[PF], f, &error), 0);
	send_frames(ports[REP0], 3);
	expect((const unsigned int[NB]){ [VF0] = 3 });
	esw_close();
}

/* A representor with no Rx queue still sends to its VF, not to the wire. */
static void
test_esw_rep_tx_no_rx(void **state)
{
	static const struct rte_flow_attr in = { .ingress = 1 };
	struct rte_flow_item eth[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH }, { .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_action drop[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_DROP }, { .type = RTE_FLOW_ACTION_TYPE_END },
	};
	struct rte_eth_conf conf = { 0 };
	struct rte_flow_error error;

	(void)state;
	esw_open();
	assert_int_equal(rte_eth_dev_configure(ports[REP0], 0, 1, &conf), 0);
	assert_int_equal(rte_eth_tx_queue_setup(ports[REP0], 0, 256, 0, NULL), 0);
	esw_start();
	send_frames(ports[REP0], 3);
	assert_int_equal(recv_frames(ports[VF0], 100, 0), 3);
	assert_int_equal(recv_frames(ports[PF], 100, 0) + recv_frames(ports[VF1], 100, 0) +
			 recv_frames(ports[REP1], 100, 0), 0);
	/* Its NIC rules would have no queue to reach: refused. */
	memset(&error, 0, sizeof(error));
	assert_null(rte_flow_create(ports[REP0], &in, eth, drop, &error));
	assert_non_null(strstr(error.message, "no Rx queue"));
	esw_close();
}

/*
 * A representor's frame a jump led to a group where it misses still
 * reaches its VF (each group ends with the manager's vport to the catch
 * group); the group's tail goes with its last rule.
 */
static void
test_esw_rep_jump_miss(void **state)
{
	struct rte_flow_action_jump to_1 = { .group = 1 };
	struct rte_flow_item pattern[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH, .spec = &a5_dst, .mask = &dst_mask },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_action actions[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_JUMP, .conf = &to_1 },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	static const struct rte_flow_attr group_1 = { .transfer = 1, .group = 1 };
	struct rte_flow_error error;
	struct rte_flow *jump, *drop;
	uint64_t base;

	(void)state;
	esw_open();
	esw_start();
	base = steer_matchers();
	jump = rte_flow_create(ports[PF], &transfer, pattern, actions, &error);
	assert_non_null(jump);
	/* Group 1 drops VF1's frames only. */
	drop = rule(ports[PF], &group_1, ports[REP1], RTE_FLOW_ACTION_TYPE_DROP, 0, true, &error);
	assert_non_null(drop);
	send_frames(ports[REP0], 3);
	send_frames(ports[VF1], 2);
	send_frames(ports[VF0], 1);
	/* The manager's leave by the wire and come back through the jump, missing again. */
	send_frames(ports[PF], 4);
	expect((const unsigned int[NB]){ [PF] = 4, [REP0] = 1, [VF0] = 3 });
	assert_int_equal(hits(ports[PF], drop), 2);
	/* Group 1's rule, its tail and table go; the jump's tail in group 1 stays with it. */
	assert_int_equal(rte_flow_destroy(ports[PF], drop, &error), 0);
	send_frames(ports[REP0], 2);
	expect((const unsigned int[NB]){ [VF0] = 2 });
	assert_int_equal(rte_flow_destroy(ports[PF], jump, &error), 0);
	assert_int_equal(steer_matchers(), base);
	send_frames(ports[REP0], 1);
	expect((const unsigned int[NB]){ [VF0] = 1 });
	esw_close();
}

/* PORT_REPRESENTOR item of port from: count, then act (to: its port). */
static struct rte_flow *
sent_by(uint16_t from, enum rte_flow_action_type act, uint16_t to, struct rte_flow_error *error)
{
	struct rte_flow_item_ethdev src = { .port_id = from };
	struct rte_flow_action_ethdev dst = { .port_id = to };
	struct rte_flow_item pattern[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_PORT_REPRESENTOR, .spec = &src },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_action actions[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_COUNT },
		{ .type = act, .conf = act == RTE_FLOW_ACTION_TYPE_DROP ? NULL : &dst },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};

	return rte_flow_create(ports[PF], &transfer, pattern, actions, error);
}

/*
 * PORT_REPRESENTOR naming a port: the frames it sends, on each of its send
 * queues (one library rule per queue, one counter); not its VF's frames,
 * nor (for a representor) the manager's, nor (for the manager) its
 * representors'. Refused on a stopped port; the port's stop takes it.
 */
static void
test_esw_port_representor(void **state)
{
	struct rte_eth_conf conf = { 0 };
	struct rte_flow_error error;
	struct rte_flow *f, *g;

	(void)state;
	esw_open();
	/* Two send queues on VF0's representor. */
	assert_int_equal(rte_eth_dev_configure(ports[REP0], 2, 2, &conf), 0);
	assert_int_equal(rte_eth_tx_queue_setup(ports[REP0], 0, 256, 0, NULL), 0);
	assert_int_equal(rte_eth_tx_queue_setup(ports[REP0], 1, 256, 0, NULL), 0);
	/* The queues are a started port's. */
	memset(&error, 0, sizeof(error));
	assert_int_equal(rte_eth_dev_start(ports[PF]), 0);
	assert_null(sent_by(ports[REP0], RTE_FLOW_ACTION_TYPE_DROP, 0, &error));
	assert_int_equal(error.type, RTE_FLOW_ERROR_TYPE_ITEM_SPEC);
	assert_non_null(strstr(error.message, "PORT_REPRESENTOR"));
	assert_non_null(strstr(error.message, "not started"));
	assert_int_equal(rte_eth_dev_stop(ports[PF]), 0);
	esw_start();
	f = sent_by(ports[REP0], RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT, ports[REP1], &error);
	assert_non_null(f);
	send_frames_on(ports[REP0], 0, 3);
	send_frames_on(ports[REP0], 1, 2);
	send_frames(ports[VF0], 2);
	send_frames(ports[PF], 4);
	send_frames(ports[REP1], 1);
	expect((const unsigned int[NB]){ [PF] = 4, [REP0] = 2, [VF1] = 6 });
	assert_int_equal(hits(ports[PF], f), 5);
	dump_check(ports[PF], f, 0);
	/* The manager's own Tx only: its representors' frames still reach their VFs. */
	g = sent_by(ports[PF], RTE_FLOW_ACTION_TYPE_DROP, 0, &error);
	assert_non_null(g);
	send_frames(ports[PF], 4);
	send_frames(ports[REP1], 2);
	send_frames_on(ports[REP0], 1, 1);
	expect((const unsigned int[NB]){ [VF1] = 3 });
	assert_int_equal(hits(ports[PF], g), 4);
	assert_int_equal(hits(ports[PF], f), 6);
	/* Destroyed, a representor's frames take the default path to its VF. */
	assert_int_equal(rte_flow_destroy(ports[PF], f, &error), 0);
	send_frames_on(ports[REP0], 1, 2);
	expect((const unsigned int[NB]){ [VF0] = 2 });
	/* A stop of the representor takes the rules on its send queues. */
	f = sent_by(ports[REP0], RTE_FLOW_ACTION_TYPE_DROP, 0, &error);
	assert_non_null(f);
	assert_int_equal(rte_eth_dev_stop(ports[REP0]), 0);
	assert_int_not_equal(rte_flow_destroy(ports[PF], f, &error), 0);
	assert_int_equal(error.type, RTE_FLOW_ERROR_TYPE_HANDLE);
	assert_int_equal(rte_eth_dev_start(ports[REP0]), 0);
	send_frames(ports[REP0], 3);
	expect((const unsigned int[NB]){ [VF0] = 3 });
	assert_int_equal(rte_flow_destroy(ports[PF], g, &error), 0);
	esw_close();
}

/* Transfer rules of one shape share their matcher; it goes with the last of them. */
static void
test_esw_shared_matcher(void **state)
{
	struct rte_flow_error error;
	struct rte_flow *a, *b;
	uint64_t base;

	(void)state;
	esw_open();
	esw_start();
	base = steer_matchers();
	a = rule(ports[PF], &transfer, ports[REP0], RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT,
		 ports[REP1], false, &error);
	assert_non_null(a);
	assert_int_equal(steer_matchers(), base + 1);
	b = rule(ports[REP1], &transfer, ports[REP1], RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT,
		 ports[REP0], true, &error);
	assert_non_null(b);
	assert_int_equal(steer_matchers(), base + 1);
	send_frames(ports[VF0], 3);
	send_frames(ports[VF1], 2);
	expect((const unsigned int[NB]){ [VF0] = 2, [VF1] = 3 });
	assert_int_equal(rte_flow_destroy(ports[PF], a, &error), 0);
	assert_int_equal(steer_matchers(), base + 1);
	/* A destroyed handle is no rule of the switch any more, on any of its ports. */
	assert_int_not_equal(rte_flow_destroy(ports[PF], a, &error), 0);
	assert_int_not_equal(rte_flow_destroy(ports[REP0], a, &error), 0);
	assert_int_equal(error.type, RTE_FLOW_ERROR_TYPE_HANDLE);
	assert_int_equal(hits(ports[REP1], b), 2);
	assert_int_equal(rte_flow_destroy(ports[REP1], b, &error), 0);
	assert_int_equal(steer_matchers(), base);
	esw_close();
}

static void
test_esw_transfer(void **state)
{
	const uint16_t *p = ports;
	static const struct rte_flow_attr in = { .ingress = 1 };
	const struct rte_flow_action count = { .type = RTE_FLOW_ACTION_TYPE_COUNT };
	const struct rte_flow_item eth[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH }, { .type = RTE_FLOW_ITEM_TYPE_END } };
	struct rte_flow_action counted[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_INDIRECT }, { .type = RTE_FLOW_ACTION_TYPE_DROP },
		{ .type = RTE_FLOW_ACTION_TYPE_END } };
	struct rte_flow *vf0_vf1, *up_vf0, *vf1_up, *vf1_rep0, *jump, *drop;
	struct rte_flow_action_handle *h;
	struct rte_flow_error error;

	(void)state;
	esw_open();
	esw_start();
	/* VF0 -> VF1 (created on a representor), the uplink -> VF0, VF1 -> the uplink. */
	vf0_vf1 = rule(p[REP0], &transfer, p[REP0], RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT,
		       p[REP1], true, &error);
	assert_non_null(vf0_vf1);
	up_vf0 = rule(p[PF], &transfer, p[PF], RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT, p[REP0],
		      true, &error);
	assert_non_null(up_vf0);
	vf1_up = rule(p[PF], &transfer, p[REP1], RTE_FLOW_ACTION_TYPE_PORT_ID, p[PF], true,
		      &error);
	assert_non_null(vf1_up);
	send_frames(p[VF0], 8);
	send_frames(p[PF], 6);
	/* VF1's frames go to the wire, which loops them into the switch from the uplink. */
	send_frames(p[VF1], 3);
	expect((const unsigned int[NB]){ [VF0] = 9, [VF1] = 8 });
	assert_int_equal(hits(p[REP0], vf0_vf1), 8);
	assert_int_equal(hits(p[PF], up_vf0), 9);
	assert_int_equal(hits(p[PF], vf1_up), 3);
	dump_check(p[PF], NULL, 3);
	dump_check(p[REP0], vf0_vf1, 0);
	dump_check(p[REP0], NULL, 0);

	/* PORT_REPRESENTOR: VF1's frames to the Rx of VF0's representor. */
	assert_int_equal(rte_flow_destroy(p[PF], vf1_up, &error), 0);
	vf1_rep0 = rule(p[REP1], &transfer, p[REP1], RTE_FLOW_ACTION_TYPE_PORT_REPRESENTOR,
			p[REP0], false, &error);
	assert_non_null(vf1_rep0);
	send_frames(p[VF1], 5);
	expect((const unsigned int[NB]){ [REP0] = 5 });

	/* JUMP to group 1, which counts and drops VF0's frames. */
	assert_int_equal(rte_flow_destroy(p[REP0], vf0_vf1, &error), 0);
	jump = rule(p[PF], &transfer, p[REP0], RTE_FLOW_ACTION_TYPE_JUMP, 1, false, &error);
	assert_non_null(jump);
	drop = rule(p[PF], &(const struct rte_flow_attr){ .transfer = 1, .group = 1 }, p[REP0],
		    RTE_FLOW_ACTION_TYPE_DROP, 0, true, &error);
	assert_non_null(drop);
	send_frames(p[VF0], 7);
	expect((const unsigned int[NB]){ 0 });
	assert_int_equal(hits(p[PF], drop), 7);

	/* Flush takes the rules created through the port only. */
	assert_int_equal(rte_flow_flush(p[REP1], &error), 0);
	send_frames(p[VF1], 2);
	expect((const unsigned int[NB]){ [REP1] = 2 });
	assert_int_equal(hits(p[PF], up_vf0), 9);
	/* A reset query answers the count, the next one counts from there. */
	assert_int_equal(hits_query(p[PF], up_vf0, true), 9);
	assert_int_equal(hits(p[PF], up_vf0), 0);
	/* Indirect COUNTs: in no synchronous transfer rule, nor a representor's own rule. */
	h = rte_flow_action_handle_create(p[PF], &(const struct rte_flow_indir_action_conf){
						  .transfer = 1 }, &count, &error);
	assert_non_null(h);
	counted[0].conf = h;
	assert_null(rte_flow_create(p[PF], &transfer, eth, counted, &error));
	assert_string_equal(error.message, "INDIRECT: not supported in transfer rules");
	assert_null(rte_flow_create(p[REP0], &in, eth, counted, &error));
	assert_string_equal(error.message, "INDIRECT: not supported in a representor's rules");
	assert_null(rte_flow_action_handle_create(p[REP0], &(const struct
		    rte_flow_indir_action_conf){ .transfer = 1 }, &count, &error));
	assert_int_equal(rte_flow_action_handle_destroy(p[PF], h, &error), 0);
	esw_close();
}

/* VLAN push on the way to a VF, pop on the way back to the wire. */
static void
test_esw_vlan(void **state)
{
	struct rte_flow_item_ethdev vf1 = { .port_id = 0 }, up = { .port_id = 0 };
	struct rte_flow_action_ethdev to_rep0 = { .port_id = 0 }, to_up = { .port_id = 0 };
	struct rte_flow_action_of_push_vlan push = { .ethertype = RTE_BE16(0x8100) };
	struct rte_flow_action_of_set_vlan_vid vid = { .vlan_vid = RTE_BE16(5) };
	struct rte_flow_item pattern[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_REPRESENTED_PORT, .spec = &vf1 },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_action actions[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_OF_PUSH_VLAN, .conf = &push },
		{ .type = RTE_FLOW_ACTION_TYPE_OF_SET_VLAN_VID, .conf = &vid },
		{ .type = RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT, .conf = &to_up },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	struct rte_flow_action pop[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_OF_POP_VLAN },
		{ .type = RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT, .conf = &to_rep0 },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	struct rte_flow_item up_pattern[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_REPRESENTED_PORT, .spec = &up },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_error error;

	(void)state;
	esw_open();
	esw_start();
	vf1.port_id = ports[REP1];
	up.port_id = ports[PF];
	to_up.port_id = ports[PF];
	to_rep0.port_id = ports[REP0];
	/* VF1 -> the wire with a tag; back from the wire untagged to VF0. */
	assert_non_null(rte_flow_create(ports[PF], &transfer, pattern, actions, &error));
	assert_non_null(rte_flow_create(ports[PF], &transfer, up_pattern, pop, &error));
	send_frames(ports[VF1], 4);
	expect((const unsigned int[NB]){ [VF0] = 4 });
	/* Without the pop, VF0 gets the tagged frames. */
	assert_int_equal(rte_flow_flush(ports[PF], &error), 0);
	assert_non_null(rte_flow_create(ports[PF], &transfer, pattern, actions, &error));
	assert_non_null(rule(ports[PF], &transfer, ports[PF],
			     RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT, ports[REP0], false, &error));
	send_frames(ports[VF1], 3);
	assert_int_equal(recv_frames(ports[VF0], 104, 5), 3);
	esw_close();
}

/* The first frame waiting on port: its first bytes into head, its length; 0: none. */
static uint32_t
recv_head(uint16_t port, uint8_t *head, size_t len)
{
	struct rte_mbuf *m = NULL;
	uint32_t n;
	uint16_t q;

	for (q = 0; q < 2 && m == NULL; q++)
		if (rte_eth_rx_burst(port, q, &m, 1) == 0)
			m = NULL;
	if (m == NULL)
		return 0;
	memcpy(head, rte_pktmbuf_mtod(m, const uint8_t *), RTE_MIN(len, (size_t)m->pkt_len));
	n = m->pkt_len;
	rte_pktmbuf_free(m);
	return n;
}

/*
 * Header changes in transfer rules: a MAC rewrite from VF0 to VF1; VXLAN
 * encap from VF1 to the wire, decap from the wire to VF0.
 */
static void
test_esw_headers(void **state)
{
	static const uint8_t mac[6] = { 0x00, 0x11, 0x22, 0x33, 0x44, 0x55 };
	struct rte_flow_item_ethdev vf0 = { .port_id = 0 }, vf1 = { .port_id = 0 };
	struct rte_flow_item_ethdev up = { .port_id = 0 };
	struct rte_flow_action_ethdev to_vf0 = { .port_id = 0 }, to_vf1 = { .port_id = 0 };
	struct rte_flow_action_ethdev to_up = { .port_id = 0 };
	struct rte_flow_action_set_mac set_mac;
	struct rte_flow_item_eth o_eth = {
		.hdr.dst_addr.addr_bytes = { 0x02, 0, 0, 0, 0, 0x02 },
		.hdr.src_addr.addr_bytes = { 0x02, 0, 0, 0, 0, 0x01 },
		.hdr.ether_type = RTE_BE16(RTE_ETHER_TYPE_IPV4),
	};
	struct rte_flow_item_ipv4 o_ip = {
		.hdr.version_ihl = RTE_IPV4_VHL_DEF, .hdr.time_to_live = 64,
		.hdr.next_proto_id = IPPROTO_UDP,
		.hdr.src_addr = RTE_BE32(0x0a000001), .hdr.dst_addr = RTE_BE32(0x0a000002),
	};
	struct rte_flow_item_udp o_udp = { .hdr.dst_port = RTE_BE16(4789) };
	struct rte_flow_item_vxlan o_vxlan = { .hdr.vx_flags = RTE_BE32(0x08000000),
					       .hdr.vx_vni = RTE_BE32(42 << 8) };
	struct rte_flow_item tunnel[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH, .spec = &o_eth },
		{ .type = RTE_FLOW_ITEM_TYPE_IPV4, .spec = &o_ip },
		{ .type = RTE_FLOW_ITEM_TYPE_UDP, .spec = &o_udp },
		{ .type = RTE_FLOW_ITEM_TYPE_VXLAN, .spec = &o_vxlan },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_action_vxlan_encap encap = { .definition = tunnel };
	struct rte_flow_item from_vf0[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_REPRESENTED_PORT, .spec = &vf0 },
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_item from_vf1[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_REPRESENTED_PORT, .spec = &vf1 },
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_item from_up_vxlan[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_REPRESENTED_PORT, .spec = &up },
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_IPV4 },
		{ .type = RTE_FLOW_ITEM_TYPE_UDP },
		{ .type = RTE_FLOW_ITEM_TYPE_VXLAN },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_action rewrite[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_SET_MAC_DST, .conf = &set_mac },
		{ .type = RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT, .conf = &to_vf1 },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	struct rte_flow_action encap_to_up[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_VXLAN_ENCAP, .conf = &encap },
		{ .type = RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT, .conf = &to_up },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	struct rte_flow_action decap_to_vf0[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_COUNT },
		{ .type = RTE_FLOW_ACTION_TYPE_VXLAN_DECAP },
		{ .type = RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT, .conf = &to_vf0 },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	struct rte_flow_error error;
	struct rte_flow *decap;
	uint8_t head[64];
	unsigned int i;

	(void)state;
	esw_open();
	esw_start();
	vf0.port_id = ports[REP0];
	vf1.port_id = ports[REP1];
	up.port_id = ports[PF];
	to_vf0.port_id = ports[REP0];
	to_vf1.port_id = ports[REP1];
	to_up.port_id = ports[PF];
	memcpy(set_mac.mac_addr, mac, sizeof(mac));
	assert_non_null(rte_flow_create(ports[PF], &transfer, from_vf0, rewrite, &error));
	assert_non_null(rte_flow_create(ports[PF], &transfer, from_vf1, encap_to_up, &error));
	decap = rte_flow_create(ports[PF], &transfer, from_up_vxlan, decap_to_vf0, &error);
	assert_non_null(decap);
	send_frames(ports[VF0], 1);
	assert_int_equal(recv_head(ports[VF1], head, sizeof(head)), 100);
	assert_memory_equal(head, mac, sizeof(mac));
	assert_int_equal(head[6], 0xa5);
	/* 50 bytes of tunnel on the wire, none when it reaches VF0. */
	send_frames(ports[VF1], 3);
	for (i = 0; i < 3; i++) {
		assert_int_equal(recv_head(ports[VF0], head, sizeof(head)), 100);
		assert_int_equal(head[0], 0xa5);
		assert_int_equal(head[13], 0xa5);
	}
	assert_int_equal(hits(ports[PF], decap), 3);
	expect((const unsigned int[NB]){ 0 });
	esw_close();
}

/* A library statistic of the manager's steering context (xstat steer_*). */
static uint64_t
steer_stat(const char *name)
{
	uint64_t id, v;

	assert_int_equal(rte_eth_xstats_get_id_by_name(ports[PF], name, &id), 0);
	assert_int_equal(rte_eth_xstats_get_by_id(ports[PF], &id, &v, 1), 1);
	return v;
}

/* Pull n results of flow queue 0 of port, each a success. */
static void
pull_ok(uint16_t port, unsigned int n)
{
	struct rte_flow_op_result res[8];
	struct rte_flow_error error;
	unsigned int i;

	assert_true(n <= RTE_DIM(res));
	assert_int_equal(rte_flow_push(port, 0, &error), 0);
	assert_int_equal(pull_results(port, 0, res, n), n);
	for (i = 0; i < n; i++)
		assert_int_equal(res[i].status, RTE_FLOW_OP_SUCCESS);
}

/* A rule of table tbl: the frames of port from, to port to (or the actions' own fate). */
static struct rte_flow *
queue_rule(uint16_t on, struct rte_flow_template_table *tbl, uint8_t at, uint16_t from,
	   uint16_t to, struct rte_flow_action_handle *h, struct rte_flow_error *error)
{
	const struct rte_flow_op_attr op = { .postpone = 1 };
	struct rte_flow_item_ethdev src = { .port_id = from };
	struct rte_flow_action_ethdev dst = { .port_id = to };
	struct rte_flow_item pattern[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_REPRESENTED_PORT, .spec = &src },
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_action to_port[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_COUNT },
		{ .type = RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT, .conf = &dst },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	struct rte_flow_action drop[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_INDIRECT, .conf = h },
		{ .type = RTE_FLOW_ACTION_TYPE_DROP },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};

	return rte_flow_async_create(on, 0, &op, tbl, pattern, 0, at == 0 ? to_port : drop, at,
				     NULL, error);
}

/*
 * Transfer templates: a template table of the FDB, its rules inserted and
 * destroyed through a flow queue of the manager, with push and pull; the
 * frames of the wire and of the VFs go where they say; a transfer COUNT
 * shared by rules (indirect) is queried through the queue. A representor's
 * template API is its manager's. Templates a transfer table cannot take
 * are refused, naming what they hold.
 */
static void
test_esw_template(void **state)
{
	const struct rte_flow_port_attr pattr = { .nb_counters = 16 };
	const struct rte_flow_queue_attr qattr = { .size = 16 };
	const struct rte_flow_queue_attr *qa[] = { &qattr };
	const struct rte_flow_item_ethdev whole = { .port_id = UINT16_MAX };
	const struct rte_flow_item items[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_REPRESENTED_PORT, .mask = &whole },
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	const struct rte_flow_item mark_items[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_MARK },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	const struct rte_flow_item unmasked[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_REPRESENTED_PORT },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	const struct rte_flow_item rep_items[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_PORT_REPRESENTOR, .mask = &whole },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	/* The port is each rule's (a zero mask), COUNT and DROP the template's. */
	const struct rte_flow_action_ethdev any = { .port_id = 0 };
	const struct rte_flow_action to_port[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_COUNT },
		{ .type = RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT, .conf = &any },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	const struct rte_flow_action to_rep[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_PORT_REPRESENTOR, .conf = &any },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	const struct rte_flow_action_queue q0 = { .index = 0 };
	const struct rte_flow_action to_queue[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_QUEUE, .conf = &q0 },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	const struct rte_flow_indir_action_conf transfer_conf = { .transfer = 1 };
	const struct rte_flow_action count = { .type = RTE_FLOW_ACTION_TYPE_COUNT };
	const struct rte_flow_op_attr now = { .postpone = 0 };
	const struct rte_flow_pattern_template_attr pt_attr = { .transfer = 1 };
	const struct rte_flow_actions_template_attr at_attr = { .transfer = 1 };
	struct rte_flow_template_table_attr tattr = {
		.flow_attr = { .transfer = 1 }, .nb_flows = 64,
	};
	struct rte_flow_pattern_template *pt, *nic_pt, *rep_pt;
	struct rte_flow_actions_template *at[3];
	struct rte_flow_template_table *tbl, *rep_tbl;
	struct rte_flow_action_handle *h;
	struct rte_flow_query_count q = { .reset = 0 };
	struct rte_flow *up_vf0, *vf0_vf1, *vf1_drop, *vf1_rep0;
	struct rte_flow_error error;
	uint64_t matchers, rules;
	const uint16_t *p = ports;

	(void)state;
	esw_open();
	/*
	 * Before the ports start (ethdev's rule), on each port the template API
	 * is used on: a representor's configures its manager's queues again.
	 */
	assert_int_equal(rte_flow_configure(p[PF], &pattr, 1, qa, &error), 0);
	assert_int_equal(rte_flow_configure(p[REP0], &pattr, 1, qa, &error), 0);
	assert_int_equal(rte_flow_configure(p[REP1], &pattr, 1, qa, &error), 0);
	esw_start();
	h = rte_flow_async_action_handle_create(p[PF], 0, &now, &transfer_conf, &count, NULL,
						&error);
	assert_non_null(h);
	pull_ok(p[PF], 1);
	{
		const struct rte_flow_action drop[] = {
			{ .type = RTE_FLOW_ACTION_TYPE_INDIRECT, .conf = h },
			{ .type = RTE_FLOW_ACTION_TYPE_DROP },
			{ .type = RTE_FLOW_ACTION_TYPE_END },
		};

		at[1] = rte_flow_actions_template_create(p[PF], &at_attr, drop, drop, &error);
		assert_non_null(at[1]);
	}
	/* What a transfer template cannot hold, named. */
	assert_null(rte_flow_pattern_template_create(p[PF], &pt_attr, mark_items, &error));
	assert_non_null(strstr(error.message, "MARK"));
	assert_null(rte_flow_pattern_template_create(p[PF], &pt_attr, unmasked, &error));
	assert_int_equal(error.type, RTE_FLOW_ERROR_TYPE_ITEM_MASK);
	assert_null(rte_flow_pattern_template_create(p[PF],
						     &(const struct rte_flow_pattern_template_attr){
						     .transfer = 1, .relaxed_matching = 1 }, items,
						     &error));
	assert_int_equal(error.type, RTE_FLOW_ERROR_TYPE_ATTR_TRANSFER);
	assert_null(rte_flow_actions_template_create(p[PF], &at_attr, to_queue, to_queue,
						     &error));
	assert_non_null(strstr(error.message, "QUEUE"));
	pt = rte_flow_pattern_template_create(p[PF], &pt_attr, items, &error);
	assert_non_null(pt);
	at[0] = rte_flow_actions_template_create(p[PF], &at_attr, to_port, to_port, &error);
	assert_non_null(at[0]);
	at[2] = rte_flow_actions_template_create(p[PF], &at_attr, to_rep, to_rep, &error);
	assert_non_null(at[2]);
	/* A NIC template in a transfer table: refused. */
	nic_pt = rte_flow_pattern_template_create(p[PF],
						  &(const struct rte_flow_pattern_template_attr){
						  .ingress = 1 }, &items[1], &error);
	assert_non_null(nic_pt);
	assert_null(rte_flow_template_table_create(p[PF], &tattr, &nic_pt, 1, at, 1, &error));

	matchers = steer_matchers();
	rules = steer_stat("steer_rules");
	tbl = rte_flow_template_table_create(p[PF], &tattr, &pt, 1, at, 3, &error);
	assert_non_null(tbl);
	/* Its matcher (one mask, one priority) exists with the table. */
	assert_int_equal(steer_matchers(), matchers + 1);
	up_vf0 = queue_rule(p[PF], tbl, 0, p[PF], p[REP0], NULL, &error);
	assert_non_null(up_vf0);
	vf0_vf1 = queue_rule(p[PF], tbl, 0, p[REP0], p[REP1], NULL, &error);
	assert_non_null(vf0_vf1);
	/* Through a representor: the manager's flow queue and table. */
	vf1_drop = queue_rule(p[REP1], tbl, 1, p[REP1], 0, h, &error);
	assert_non_null(vf1_drop);
	pull_ok(p[PF], 3);
	assert_int_equal(steer_stat("steer_rules"), rules + 3);
	assert_int_equal(steer_matchers(), matchers + 1);
	/* The wire's frames to VF0, VF0's to VF1, VF1's dropped. */
	send_frames(p[PF], 6);
	send_frames(p[VF0], 4);
	send_frames(p[VF1], 3);
	expect((const unsigned int[NB]){ [VF0] = 6, [VF1] = 4 });
	assert_int_equal(hits(p[PF], up_vf0), 6);
	assert_int_equal(hits(p[PF], vf0_vf1), 4);
	/* Its steering rule in rdma-core's dump format, and the FDB's with the NIC domains. */
	dump_check(p[PF], up_vf0, 0);
	dump_check(p[PF], NULL, 3);
	assert_int_equal(rte_flow_async_action_handle_query(p[PF], 0, &now, h, &q, NULL, &error),
			 0);
	pull_ok(p[PF], 1);
	assert_int_equal(q.hits, 3);
	/*
	 * A flow queue's rule is destroyed through a flow queue (DPDK mlx5's
	 * rte_flow_destroy() takes none): refused on the proxy and on a
	 * representor, it still steers; its query and dump work on any port
	 * of the switch.
	 */
	memset(&error, 0, sizeof(error));
	assert_int_not_equal(rte_flow_destroy(p[PF], up_vf0, &error), 0);
	assert_int_equal(error.type, RTE_FLOW_ERROR_TYPE_HANDLE);
	assert_non_null(strstr(error.message, "rte_flow_async_destroy"));
	memset(&error, 0, sizeof(error));
	assert_int_not_equal(rte_flow_destroy(p[REP0], up_vf0, &error), 0);
	assert_int_equal(error.type, RTE_FLOW_ERROR_TYPE_HANDLE);
	assert_non_null(strstr(error.message, "rte_flow_async_destroy"));
	assert_int_equal(steer_stat("steer_rules"), rules + 3);
	send_frames(p[PF], 2);
	expect((const unsigned int[NB]){ [VF0] = 2 });
	assert_int_equal(hits(p[REP0], up_vf0), 8);
	dump_check(p[REP1], up_vf0, 0);
	/*
	 * Templates and tables on a representor are its manager's, transfer
	 * ones only. What a port sends (PORT_REPRESENTOR) is not a template's.
	 */
	assert_null(rte_flow_pattern_template_create(p[REP0],
						     &(const struct rte_flow_pattern_template_attr){
						     .ingress = 1 }, &items[1], &error));
	assert_int_equal(error.type, RTE_FLOW_ERROR_TYPE_ATTR_TRANSFER);
	assert_null(rte_flow_pattern_template_create(p[REP0], &pt_attr, rep_items, &error));
	assert_non_null(strstr(error.message, "PORT_REPRESENTOR"));
	rep_pt = rte_flow_pattern_template_create(p[REP0], &pt_attr, items, &error);
	assert_non_null(rep_pt);
	rep_tbl = rte_flow_template_table_create(p[REP0], &tattr, &rep_pt, 1, at, 1, &error);
	assert_non_null(rep_tbl);
	assert_int_equal(rte_flow_template_table_destroy(p[REP0], rep_tbl, &error), 0);
	assert_int_equal(rte_flow_pattern_template_destroy(p[REP0], rep_pt, &error), 0);
	/* Destroyed through the queue: the library's rules go, the table keeps its matcher. */
	assert_int_equal(rte_flow_async_destroy(p[PF], 0, &now, up_vf0, NULL, &error), 0);
	assert_int_equal(rte_flow_async_destroy(p[PF], 0, &now, vf0_vf1, NULL, &error), 0);
	assert_int_equal(rte_flow_async_destroy(p[REP1], 0, &now, vf1_drop, NULL, &error), 0);
	pull_ok(p[PF], 3);
	assert_int_equal(steer_stat("steer_rules"), rules);
	assert_int_equal(steer_matchers(), matchers + 1);
	/* The switch is as before: misses to the representors. */
	send_frames(p[VF0], 2);
	expect((const unsigned int[NB]){ [REP0] = 2 });
	/* PORT_REPRESENTOR: VF1's frames to the Rx of VF0's representor (stamped). */
	{
		struct rte_flow_item_ethdev vf1 = { .port_id = p[REP1] };
		struct rte_flow_action_ethdev rep0 = { .port_id = p[REP0] };
		const struct rte_flow_item pattern[] = {
			{ .type = RTE_FLOW_ITEM_TYPE_REPRESENTED_PORT, .spec = &vf1 },
			{ .type = RTE_FLOW_ITEM_TYPE_ETH },
			{ .type = RTE_FLOW_ITEM_TYPE_END },
		};
		const struct rte_flow_action acts[] = {
			{ .type = RTE_FLOW_ACTION_TYPE_PORT_REPRESENTOR, .conf = &rep0 },
			{ .type = RTE_FLOW_ACTION_TYPE_END },
		};

		vf1_rep0 = rte_flow_async_create(p[PF], 0, &now, tbl, pattern, 0, acts, 2, NULL,
						 &error);
		assert_non_null(vf1_rep0);
	}
	pull_ok(p[PF], 1);
	send_frames(p[VF1], 5);
	expect((const unsigned int[NB]){ [REP0] = 5 });
	assert_int_equal(rte_flow_async_destroy(p[PF], 0, &now, vf1_rep0, NULL, &error), 0);
	pull_ok(p[PF], 1);
	assert_int_equal(steer_stat("steer_rules"), rules);
	assert_int_equal(rte_flow_template_table_destroy(p[PF], tbl, &error), 0);
	assert_int_equal(steer_matchers(), matchers);
	esw_close();
}

/*
 * A transfer template table in group 1, entered by a group-0 template
 * rule whose jump its actions template fixes: group 1 ends with its tail
 * while the table lives, so what the manager's vport sends and misses
 * there reaches its VF (a representor's) or the wire (the manager's own),
 * not the manager's Rx, before and after the manager's restart. The
 * tables' destroy leaves the FDB as before.
 */
static void
test_esw_template_tail(void **state)
{
	const struct rte_flow_port_attr pattr = { .nb_counters = 4 };
	const struct rte_flow_queue_attr qattr = { .size = 16 };
	const struct rte_flow_queue_attr *qa[] = { &qattr };
	const struct rte_flow_item_ethdev whole = { .port_id = UINT16_MAX };
	const struct rte_flow_item dst_items[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH, .mask = &dst_mask },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	const struct rte_flow_item port_items[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_REPRESENTED_PORT, .mask = &whole },
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	const struct rte_flow_action_jump to_1 = { .group = 1 };
	const struct rte_flow_action jump[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_JUMP, .conf = &to_1 },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	const struct rte_flow_action drop[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_DROP },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	const struct rte_flow_op_attr now = { .postpone = 0 };
	const struct rte_flow_pattern_template_attr pt_attr = { .transfer = 1 };
	const struct rte_flow_actions_template_attr at_attr = { .transfer = 1 };
	const struct rte_flow_template_table_attr attr_0 = {
		.flow_attr = { .transfer = 1 }, .nb_flows = 4,
	};
	const struct rte_flow_template_table_attr attr_1 = {
		.flow_attr = { .transfer = 1, .group = 1 }, .nb_flows = 4,
	};
	struct rte_flow_item_ethdev vf1 = { .port_id = 0 };
	struct rte_flow_item a5[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH, .spec = &a5_dst },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_item from_vf1[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_REPRESENTED_PORT, .spec = &vf1 },
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_pattern_template *pt_dst, *pt_port;
	struct rte_flow_actions_template *at_jump, *at_drop;
	struct rte_flow_template_table *tbl_0, *tbl_1;
	struct rte_flow *to_group_1, *vf1_drop;
	struct rte_flow_error error;
	uint64_t matchers, rules, wire;
	const uint16_t *p = ports;
	unsigned int round;

	(void)state;
	esw_open();
	assert_int_equal(rte_flow_configure(p[PF], &pattr, 1, qa, &error), 0);
	esw_start();
	matchers = steer_matchers();
	rules = steer_stat("steer_rules");
	pt_dst = rte_flow_pattern_template_create(p[PF], &pt_attr, dst_items, &error);
	assert_non_null(pt_dst);
	pt_port = rte_flow_pattern_template_create(p[PF], &pt_attr, port_items, &error);
	assert_non_null(pt_port);
	at_jump = rte_flow_actions_template_create(p[PF], &at_attr, jump, jump, &error);
	assert_non_null(at_jump);
	at_drop = rte_flow_actions_template_create(p[PF], &at_attr, drop, drop, &error);
	assert_non_null(at_drop);
	tbl_1 = rte_flow_template_table_create(p[PF], &attr_1, &pt_port, 1, &at_drop, 1, &error);
	assert_non_null(tbl_1);
	tbl_0 = rte_flow_template_table_create(p[PF], &attr_0, &pt_dst, 1, &at_jump, 1, &error);
	assert_non_null(tbl_0);
	vf1.port_id = p[REP1];
	/* The manager's stop takes the rules and the tails, its start the tails back. */
	for (round = 0; round < 2; round++) {
		if (round == 1) {
			assert_int_equal(rte_eth_dev_stop(p[PF]), 0);
			assert_int_equal(rte_eth_dev_start(p[PF]), 0);
		}
		to_group_1 = rte_flow_async_create(p[PF], 0, &now, tbl_0, a5, 0, jump, 0, NULL,
						   &error);
		assert_non_null(to_group_1);
		vf1_drop = rte_flow_async_create(p[PF], 0, &now, tbl_1, from_vf1, 0, drop, 0,
						 NULL, &error);
		assert_non_null(vf1_drop);
		pull_ok(p[PF], 2);
		/* Group 1 drops VF1's frames only; the rest of the manager's vport goes on. */
		/* A model counter: the hw transport has no wire of its own to count. */
		wire = on_hw ? 0 : steer_stat("dev_wire_packets");
		send_frames(p[REP0], 3);
		send_frames(p[VF1], 2);
		send_frames(p[VF0], 1);
		/* The manager's leave by the wire and come back from the uplink (its Rx). */
		send_frames(p[PF], 4);
		expect((const unsigned int[NB]){ [PF] = 4, [REP0] = 1, [VF0] = 3 });
		if (!on_hw)
			assert_int_equal(steer_stat("dev_wire_packets"), wire + 4);
	}
	assert_int_equal(rte_flow_async_destroy(p[PF], 0, &now, to_group_1, NULL, &error), 0);
	assert_int_equal(rte_flow_async_destroy(p[PF], 0, &now, vf1_drop, NULL, &error), 0);
	pull_ok(p[PF], 2);
	assert_int_equal(rte_flow_template_table_destroy(p[PF], tbl_0, &error), 0);
	assert_int_equal(rte_flow_template_table_destroy(p[PF], tbl_1, &error), 0);
	/* Group 1's tail went with the last table naming it. */
	assert_int_equal(steer_stat("steer_rules"), rules);
	assert_int_equal(steer_matchers(), matchers);
	send_frames(p[REP0], 1);
	expect((const unsigned int[NB]){ [VF0] = 1 });
	assert_int_equal(rte_flow_actions_template_destroy(p[PF], at_jump, &error), 0);
	assert_int_equal(rte_flow_actions_template_destroy(p[PF], at_drop, &error), 0);
	assert_int_equal(rte_flow_pattern_template_destroy(p[PF], pt_dst, &error), 0);
	assert_int_equal(rte_flow_pattern_template_destroy(p[PF], pt_port, &error), 0);
	esw_close();
}

/* A rule of tbl (actions template 0: COUNT, JUMP): frames to MAC dst, to group. */
static struct rte_flow *
jump_rule(struct rte_flow_template_table *tbl, uint8_t dst, uint32_t group)
{
	const struct rte_flow_op_attr now = { .postpone = 0 };
	struct rte_flow_item_eth eth = {
		.hdr.dst_addr.addr_bytes = { dst, dst, dst, dst, dst, dst },
	};
	struct rte_flow_action_jump to = { .group = group };
	const struct rte_flow_item pattern[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH, .spec = &eth },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	const struct rte_flow_action actions[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_COUNT },
		{ .type = RTE_FLOW_ACTION_TYPE_JUMP, .conf = &to },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	struct rte_flow_error error;
	struct rte_flow *f;

	f = rte_flow_async_create(ports[PF], 0, &now, tbl, pattern, 0, actions, 0, NULL, &error);
	assert_non_null(f);
	pull_ok(ports[PF], 1);
	return f;
}

static void
destroy_ok(struct rte_flow *f)
{
	const struct rte_flow_op_attr now = { .postpone = 0 };
	struct rte_flow_error error;

	assert_int_equal(rte_flow_async_destroy(ports[PF], 0, &now, f, NULL, &error), 0);
	pull_ok(ports[PF], 1);
}

/*
 * A transfer table whose JUMP leaves the group to each rule: a rule to a
 * group no other rule is in holds the group's tail, so what the manager's
 * vport sends reaches its VF (a representor's) or the wire (the
 * manager's), not the manager's Rx; the tail goes with the last rule to
 * the group (of two tables here: each table's rules hold it), with a
 * flush, with the manager's stop, and is taken again after its start. A
 * table with rules, and the templates of a table, are not destroyed
 * (EBUSY) and keep steering.
 */
static void
test_esw_template_jump(void **state)
{
	const struct rte_flow_port_attr pattr = { .nb_counters = 8 };
	const struct rte_flow_queue_attr qattr = { .size = 16 };
	const struct rte_flow_queue_attr *qa[] = { &qattr };
	const struct rte_flow_item items[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH, .mask = &dst_mask },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	/* The group is each rule's: no mask. */
	const struct rte_flow_action acts[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_COUNT },
		{ .type = RTE_FLOW_ACTION_TYPE_JUMP },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	const struct rte_flow_pattern_template_attr pt_attr = { .transfer = 1 };
	const struct rte_flow_actions_template_attr at_attr = { .transfer = 1 };
	const struct rte_flow_template_table_attr hi_attr = {
		.flow_attr = { .transfer = 1 }, .nb_flows = 4,
	};
	const struct rte_flow_template_table_attr lo_attr = {
		.flow_attr = { .transfer = 1, .priority = 1 }, .nb_flows = 4,
	};
	struct rte_flow_pattern_template *pt;
	struct rte_flow_actions_template *at;
	struct rte_flow_template_table *hi, *lo;
	struct rte_flow *a, *b;
	struct rte_flow_error error;
	uint64_t matchers0, rules0, matchers, rules, wire;
	const uint16_t *p = ports;

	(void)state;
	esw_open();
	assert_int_equal(rte_flow_configure(p[PF], &pattr, 1, qa, &error), 0);
	esw_start();
	matchers0 = steer_matchers();
	rules0 = steer_stat("steer_rules");
	pt = rte_flow_pattern_template_create(p[PF], &pt_attr, items, &error);
	assert_non_null(pt);
	at = rte_flow_actions_template_create(p[PF], &at_attr, acts, acts, &error);
	assert_non_null(at);
	hi = rte_flow_template_table_create(p[PF], &hi_attr, &pt, 1, &at, 1, &error);
	assert_non_null(hi);
	lo = rte_flow_template_table_create(p[PF], &lo_attr, &pt, 1, &at, 1, &error);
	assert_non_null(lo);
	/* The tables' matchers; no tail yet: no rule jumps anywhere. */
	matchers = steer_matchers();
	rules = steer_stat("steer_rules");
	assert_int_equal(matchers, matchers0 + 2);
	assert_int_equal(rules, rules0);

	/* Group 2 has no rule but its tail, which the first rule to it made. */
	a = jump_rule(hi, 0xa5, 2);
	assert_int_equal(steer_matchers(), matchers + 1);
	wire = on_hw ? 0 : steer_stat("dev_wire_packets");
	send_frames(p[REP0], 3);
	expect((const unsigned int[NB]){ [VF0] = 3 });
	assert_int_equal(hits(p[PF], a), 3);
	/* The manager's: by the wire, back into group 0 from the uplink, then its Rx. */
	send_frames(p[PF], 4);
	expect((const unsigned int[NB]){ [PF] = 4 });
	if (!on_hw)
		assert_int_equal(steer_stat("dev_wire_packets"), wire + 4);

	/* A table with a rule, and its templates, stay: EBUSY, and it still steers. */
	assert_int_equal(rte_flow_template_table_destroy(p[PF], hi, &error), -EBUSY);
	assert_non_null(strstr(error.message, "rules"));
	assert_int_equal(rte_flow_pattern_template_destroy(p[PF], pt, &error), -EBUSY);
	assert_int_equal(rte_flow_actions_template_destroy(p[PF], at, &error), -EBUSY);
	send_frames(p[REP0], 2);
	expect((const unsigned int[NB]){ [VF0] = 2 });
	assert_int_equal(hits(p[PF], a), 3 + 2 + 8);

	/* The lower table's rule to group 2 holds the tail as well: a's going keeps it. */
	b = jump_rule(lo, 0xa5, 2);
	assert_int_equal(steer_matchers(), matchers + 1);
	destroy_ok(a);
	assert_int_equal(steer_matchers(), matchers + 1);
	send_frames(p[REP0], 2);
	expect((const unsigned int[NB]){ [VF0] = 2 });
	assert_int_equal(hits(p[PF], b), 2);
	/* The last rule to group 2: its tail and table go. */
	destroy_ok(b);
	assert_int_equal(steer_matchers(), matchers);
	assert_int_equal(steer_stat("steer_rules"), rules);

	/* A flush takes the rules and the tail. */
	a = jump_rule(hi, 0xa5, 3);
	b = jump_rule(lo, 0xb6, 3);
	assert_int_equal(steer_matchers(), matchers + 1);
	assert_int_equal(rte_flow_flush(p[PF], &error), 0);
	assert_int_equal(steer_matchers(), matchers);
	assert_int_equal(steer_stat("steer_rules"), rules);

	/* So does the manager's stop; its start takes the tail again for a new rule. */
	a = jump_rule(hi, 0xa5, 2);
	b = jump_rule(lo, 0xb6, 3);
	assert_int_equal(steer_matchers(), matchers + 2);
	assert_int_equal(rte_eth_dev_stop(p[PF]), 0);
	assert_int_equal(rte_eth_dev_start(p[PF]), 0);
	a = jump_rule(hi, 0xa5, 2);
	send_frames(p[REP0], 3);
	expect((const unsigned int[NB]){ [VF0] = 3 });
	assert_int_equal(hits(p[PF], a), 3);
	destroy_ok(a);

	assert_int_equal(rte_flow_template_table_destroy(p[PF], hi, &error), 0);
	assert_int_equal(rte_flow_template_table_destroy(p[PF], lo, &error), 0);
	assert_int_equal(rte_flow_template_table_destroy(p[PF], lo, &error), -EINVAL);
	assert_int_equal(steer_matchers(), matchers0);
	assert_int_equal(steer_stat("steer_rules"), rules0);
	assert_int_equal(rte_flow_actions_template_destroy(p[PF], at, &error), 0);
	assert_int_equal(rte_flow_pattern_template_destroy(p[PF], pt, &error), 0);
	assert_int_equal(rte_flow_pattern_template_destroy(p[PF], pt, &error), -EINVAL);
	esw_close();
}

/*
 * Transfer rules of rte_flow_create() are flows of the manager's flow
 * path: one the library refuses leaves no rule, matcher or tail; a
 * representor's flush takes those created through it, with the tails of
 * their groups; a flow queue does not destroy them; the manager's stop
 * takes them all and its start brings the switch back as it was.
 */
static void
test_esw_sync_objects(void **state)
{
	const struct rte_flow_port_attr pattr = { .nb_counters = 4 };
	const struct rte_flow_queue_attr qattr = { .size = 4 };
	const struct rte_flow_queue_attr *qa[] = { &qattr };
	const struct rte_flow_op_attr now = { .postpone = 0 };
	static const struct rte_flow_attr group_1 = { .transfer = 1, .group = 1 };
	static const struct rte_flow_attr in = { .ingress = 1 };
	const struct rte_flow_action_queue q1 = { .index = 1 };
	const struct rte_flow_item eth[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH }, { .type = RTE_FLOW_ITEM_TYPE_END },
	};
	const struct rte_flow_action to_q1[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_COUNT },
		{ .type = RTE_FLOW_ACTION_TYPE_QUEUE, .conf = &q1 },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	uint64_t matchers, rules, one_matchers, one_rules;
	struct rte_flow *drop, *fwd, *back, *nic;
	struct rte_eth_conf conf = { 0 };
	struct rte_flow_error error;
	const uint16_t *p = ports;
	uint16_t q;

	(void)state;
	esw_open();
	assert_int_equal(rte_flow_configure(p[PF], &pattr, 1, qa, &error), 0);
	assert_int_equal(rte_eth_dev_configure(p[REP1], 2, 16, &conf), 0);
	for (q = 0; q < 16; q++)
		assert_int_equal(rte_eth_tx_queue_setup(p[REP1], q, 64, 0, NULL), 0);
	esw_start();
	matchers = steer_matchers();
	rules = steer_stat("steer_rules");
	/* Group 1 drops VF0's frames (its rule and its tail); group 0 does not lead there. */
	drop = rule(p[PF], &group_1, p[REP0], RTE_FLOW_ACTION_TYPE_DROP, 0, true, &error);
	assert_non_null(drop);
	one_matchers = steer_matchers();
	one_rules = steer_stat("steer_rules");
	assert_int_equal(one_rules, rules + 2);
	/* What REP1 sends: a sub-rule per send queue, 16 are more than a rule holds. */
	memset(&error, 0, sizeof(error));
	assert_null(sent_by(p[REP1], RTE_FLOW_ACTION_TYPE_DROP, 0, &error));
	assert_int_equal(error.type, RTE_FLOW_ERROR_TYPE_ITEM_SPEC);
	assert_non_null(strstr(error.message, "PORT_REPRESENTOR"));
	assert_int_equal(steer_matchers(), one_matchers);
	assert_int_equal(steer_stat("steer_rules"), one_rules);
	send_frames_on(p[REP1], 15, 2);
	expect((const unsigned int[NB]){ [VF1] = 2 });
	/* Rules created through the representors: VF0's frames to VF1 and back. */
	fwd = rule(p[REP0], &transfer, p[REP0], RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT, p[REP1],
		   true, &error);
	assert_non_null(fwd);
	back = rule(p[REP1], &transfer, p[REP1], RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT, p[REP0],
		    true, &error);
	assert_non_null(back);
	send_frames(p[VF0], 3);
	send_frames(p[VF1], 2);
	expect((const unsigned int[NB]){ [VF0] = 2, [VF1] = 3 });
	assert_int_equal(hits(p[REP0], fwd), 3);
	assert_int_equal(hits(p[PF], back), 2);
	dump_check(p[REP1], NULL, 0);
	/* A flow queue does not destroy them. */
	memset(&error, 0, sizeof(error));
	assert_int_not_equal(rte_flow_async_destroy(p[PF], 0, &now, fwd, NULL, &error), 0);
	assert_non_null(strstr(error.message, "rte_flow_destroy"));
	/* REP1's flush takes its rule only. */
	assert_int_equal(rte_flow_flush(p[REP1], &error), 0);
	assert_int_not_equal(rte_flow_destroy(p[PF], back, &error), 0);
	send_frames(p[VF0], 1);
	send_frames(p[VF1], 2);
	expect((const unsigned int[NB]){ [REP1] = 2, [VF1] = 1 });
	assert_int_equal(hits(p[REP0], fwd), 4);
	/* REP0's flush: the switch holds group 1's rule and tail only. */
	assert_int_equal(rte_flow_flush(p[REP0], &error), 0);
	assert_int_equal(steer_matchers(), one_matchers);
	assert_int_equal(steer_stat("steer_rules"), one_rules);
	/*
	 * A representor's NIC rule is a flow of the manager's too (its query
	 * there); the representor's stop takes it, not the transfer rules
	 * created through it.
	 */
	nic = rte_flow_create(p[REP0], &in, eth, to_q1, &error);
	assert_non_null(nic);
	fwd = rule(p[REP0], &transfer, p[REP1], RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT, p[REP0],
		   false, &error);
	assert_non_null(fwd);
	send_frames(p[VF0], 2);
	assert_int_equal(recv_queue(p[REP0], 1, 100, 0, 0), 2);
	expect((const unsigned int[NB]){ 0 });
	assert_int_equal(hits(p[PF], nic), 2);
	assert_int_equal(rte_eth_dev_stop(p[REP0]), 0);
	assert_int_equal(rte_eth_dev_start(p[REP0]), 0);
	assert_int_not_equal(rte_flow_destroy(p[REP0], nic, &error), 0);
	send_frames(p[VF1], 1);
	send_frames(p[VF0], 1);
	expect((const unsigned int[NB]){ [REP0] = 1, [VF0] = 1 });
	assert_int_equal(rte_flow_destroy(p[PF], fwd, &error), 0);
	/* The manager's stop takes the rest; its start brings back the switch without them. */
	fwd = rule(p[REP0], &transfer, p[REP0], RTE_FLOW_ACTION_TYPE_JUMP, 1, true, &error);
	assert_non_null(fwd);
	send_frames(p[VF0], 2);
	expect((const unsigned int[NB]){ 0 });
	assert_int_equal(hits(p[PF], drop), 2);
	assert_int_equal(rte_eth_dev_stop(p[PF]), 0);
	assert_int_equal(rte_eth_dev_start(p[PF]), 0);
	assert_int_not_equal(rte_flow_destroy(p[PF], drop, &error), 0);
	assert_int_equal(error.type, RTE_FLOW_ERROR_TYPE_HANDLE);
	assert_int_not_equal(rte_flow_destroy(p[REP0], fwd, &error), 0);
	assert_int_equal(steer_matchers(), matchers);
	assert_int_equal(steer_stat("steer_rules"), rules);
	send_frames(p[VF0], 2);
	expect((const unsigned int[NB]){ [REP0] = 2 });
	esw_close();
}

/*
 * A representor's NIC rules: they see the frames of its VF that missed the
 * FDB (and no other), with QUEUE, MARK, COUNT, DROP.
 */
static void
test_esw_rep_nic_rules(void **state)
{
	struct rte_flow_item_eth eth = { .hdr.ether_type = RTE_BE16(0xa5a5) };
	struct rte_flow_item_eth eth_mask = { .hdr.ether_type = RTE_BE16(0xffff) };
	struct rte_flow_action_queue q1 = { .index = 1 };
	struct rte_flow_action_mark mark = { .id = 7 };
	struct rte_flow_item pattern[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH, .spec = &eth, .mask = &eth_mask },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_action to_q1[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_COUNT },
		{ .type = RTE_FLOW_ACTION_TYPE_MARK, .conf = &mark },
		{ .type = RTE_FLOW_ACTION_TYPE_QUEUE, .conf = &q1 },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	struct rte_flow_action drop[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_DROP }, { .type = RTE_FLOW_ACTION_TYPE_END },
	};
	static const struct rte_flow_attr in = { .ingress = 1 };
	struct rte_flow_error error;
	struct rte_flow *f;

	(void)state;
	esw_open();
	esw_start();
	assert_int_equal(rte_flow_validate(ports[REP0], &in, pattern, to_q1, &error), 0);
	f = rte_flow_create(ports[REP0], &in, pattern, to_q1, &error);
	assert_non_null(f);
	assert_non_null(rte_flow_create(ports[REP1], &in, pattern, drop, &error));
	send_frames(ports[VF0], 6);
	send_frames(ports[VF1], 4);
	send_frames(ports[PF], 3);
	assert_int_equal(recv_queue(ports[REP0], 1, 100, 0, 7), 6);
	expect((const unsigned int[NB]){ [PF] = 3 });
	assert_int_equal(hits(ports[REP0], f), 6);
	/* Destroyed, the representor's default takes them again. */
	assert_int_equal(rte_flow_destroy(ports[REP0], f, &error), 0);
	send_frames(ports[VF0], 2);
	assert_int_equal(recv_queue(ports[REP0], 1, 100, 0, 0) +
			 recv_queue(ports[REP0], 0, 100, 0, 0), 2);
	/* Egress and jumps are not a representor's. */
	assert_null(rte_flow_create(ports[REP0], &(const struct rte_flow_attr){ .egress = 1 },
				    pattern, drop, &error));
	assert_int_equal(error.type, RTE_FLOW_ERROR_TYPE_ATTR_EGRESS);
	esw_close();
}

/*
 * ports=2,topology=pair: the manager's wire is cabled to port 1, the
 * outside world. Ports: 0 manager, 1 outside, 2 VF0's representor, 3 VF0.
 */
static void
test_esw_pair(void **state)
{
	static const char * const pnames[] = {
		"net_mlx5dm7", "net_mlx5dm7_p1", "net_mlx5dm7_representor_vf0", "net_mlx5dm7_vf0",
	};
	enum { MGR, OUT, R0, V0, NP };
	struct rte_eth_conf conf = { 0 };
	struct rte_flow_error error;
	struct rte_flow *in, *out;
	uint16_t p[NP];
	unsigned int i;

	(void)state;
	/* The model's cabled pair (ports=2,topology=pair): no such devargs on hw. */
	if (on_hw)
		skip();
	assert_int_equal(rte_vdev_init("net_mlx5dm7", "ports=2,topology=pair,representor=vf0,"
				       "vf_ports=1"), 0);
	for (i = 0; i < NP; i++) {
		p[i] = port_by_name(pnames[i]);
		assert_int_equal(p[i], p[MGR] + i);
		assert_int_equal(rte_eth_dev_configure(p[i], 2, 1, &conf), 0);
		assert_int_equal(rte_eth_rx_queue_setup(p[i], 0, 64, 0, NULL, pool), 0);
		assert_int_equal(rte_eth_rx_queue_setup(p[i], 1, 64, 0, NULL, pool), 0);
		assert_int_equal(rte_eth_tx_queue_setup(p[i], 0, 64, 0, NULL), 0);
	}
	for (i = 0; i < NP; i++)
		assert_int_equal(rte_eth_dev_start(p[i]), 0);
	/* Misses: the outside's frames reach the manager, VF0's its representor. */
	send_frames(p[OUT], 4);
	send_frames(p[MGR], 2);
	send_frames(p[V0], 3);
	send_frames(p[R0], 1);
	assert_int_equal(recv_frames(p[MGR], 100, 0), 4);
	assert_int_equal(recv_frames(p[OUT], 100, 0), 2);
	assert_int_equal(recv_frames(p[R0], 100, 0), 3);
	assert_int_equal(recv_frames(p[V0], 100, 0), 1);
	/* The uplink <-> VF0. */
	in = rule(p[MGR], &transfer, p[MGR], RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT, p[R0], true,
		  &error);
	assert_non_null(in);
	out = rule(p[R0], &transfer, p[R0], RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT, p[MGR], true,
		   &error);
	assert_non_null(out);
	send_frames(p[OUT], 5);
	send_frames(p[V0], 2);
	assert_int_equal(recv_frames(p[V0], 100, 0), 5);
	assert_int_equal(recv_frames(p[OUT], 100, 0), 2);
	assert_int_equal(recv_frames(p[MGR], 100, 0) + recv_frames(p[R0], 100, 0), 0);
	assert_int_equal(hits(p[MGR], in), 5);
	assert_int_equal(hits(p[R0], out), 2);
	for (i = 0; i < NP; i++)
		assert_int_equal(rte_eth_dev_stop(p[NP - 1 - i]), 0);
	assert_int_equal(rte_vdev_uninit("net_mlx5dm7"), 0);
}

/* The manager closed before its representors: they live on without steering. */
static void
test_esw_manager_closed(void **state)
{
	struct rte_flow_error error;
	unsigned int i;

	(void)state;
	esw_open();
	esw_start();
	for (i = 0; i < NB; i++)
		assert_int_equal(rte_eth_dev_stop(ports[i]), 0);
	assert_int_equal(rte_eth_dev_close(ports[PF]), 0);
	assert_null(rule(ports[REP0], &transfer, ports[REP0], RTE_FLOW_ACTION_TYPE_DROP, 0,
			 false, &error));
	assert_int_not_equal(rte_eth_dev_start(ports[REP0]), 0);
	/* The VF ports are NIC ports of their own and still run. */
	assert_int_equal(rte_eth_dev_start(ports[VF0]), 0);
	assert_int_equal(rte_eth_dev_stop(ports[VF0]), 0);
	assert_int_equal(rte_eth_dev_close(ports[REP0]), 0);
	assert_int_equal(rte_vdev_uninit("net_mlx5dm9"), 0);
}

/* Refused rules name their item or action, and leave the switch as it was. */
static void
test_esw_refused(void **state)
{
	const uint16_t *p = ports;
	struct rte_flow_item_ethdev src = { .port_id = 0 };
	struct rte_flow_action_mark mark = { .id = 1 };
	struct rte_flow_action_ethdev to = { .port_id = 0 };
	struct rte_flow_item pattern[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_REPRESENTED_PORT, .spec = &src },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_action marked[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_MARK, .conf = &mark },
		{ .type = RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT, .conf = &to },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	struct rte_flow_error error;
	struct rte_flow *f;

	(void)state;
	esw_open();
	esw_start();
	/* A VF port is no port of the switch: as an item, as an action. */
	memset(&error, 0, sizeof(error));
	assert_null(rule(p[PF], &transfer, p[VF0], RTE_FLOW_ACTION_TYPE_DROP, 0, false, &error));
	assert_int_equal(error.type, RTE_FLOW_ERROR_TYPE_ITEM_SPEC);
	assert_non_null(strstr(error.message, "REPRESENTED_PORT"));
	assert_non_null(strstr(error.message, "switch domain"));
	assert_null(rule(p[PF], &transfer, p[REP0], RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT, p[VF1],
			 false, &error));
	assert_int_equal(error.type, RTE_FLOW_ERROR_TYPE_ACTION_CONF);
	assert_null(rule(p[PF], &transfer, RTE_MAX_ETHPORTS - 1,
			 RTE_FLOW_ACTION_TYPE_DROP, 0, false, &error));
	/* An action the FDB does not take here. */
	src.port_id = p[REP0];
	to.port_id = p[REP1];
	assert_null(rte_flow_create(p[PF], &transfer, pattern, marked, &error));
	assert_int_equal(error.type, RTE_FLOW_ERROR_TYPE_ACTION);
	assert_non_null(strstr(error.message, "MARK"));
	assert_int_not_equal(rte_flow_validate(p[PF], &transfer, pattern, marked, &error), 0);
	/* Transfer on a port outside the switch; NIC rules on a representor. */
	assert_null(rule(p[VF0], &transfer, p[REP0], RTE_FLOW_ACTION_TYPE_DROP, 0, false, &error));
	assert_int_equal(error.type, RTE_FLOW_ERROR_TYPE_ATTR_TRANSFER);
	assert_null(rule(p[REP0], &(const struct rte_flow_attr){ .ingress = 1 }, p[REP0],
			 RTE_FLOW_ACTION_TYPE_DROP, 0, false, &error));
	/* Nothing changed: VF0's frames still miss to its representor. */
	send_frames(p[VF0], 3);
	expect((const unsigned int[NB]){ [REP0] = 3 });
	f = rule(p[PF], &transfer, p[REP0], RTE_FLOW_ACTION_TYPE_DROP, 0, true, &error);
	assert_non_null(f);
	send_frames(p[VF0], 3);
	expect((const unsigned int[NB]){ 0 });
	assert_int_equal(hits(p[PF], f), 3);
	esw_close();
}

static int
setup(void **state)
{
	(void)state;
	on_hw = backend_is_hw();
	pool = pmd_env_init("test_pmd_esw");
	return pool == NULL ? -1 : 0;
}

/*
 * After each test, passed or failed half-way: what it left started is
 * stopped (representors before their manager) and its vdev removed, so
 * one failure does not fail every later test on an open vdev.
 */
static int
esw_test_close(void **state)
{
	static const char * const vdevs[] = { "net_mlx5dm7", "net_mlx5dm8", "net_mlx5dm9" };
	uint16_t port;
	unsigned int i;

	(void)state;
	for (port = RTE_MAX_ETHPORTS; port-- > 0;)
		if (rte_eth_dev_is_valid_port(port))
			(void)rte_eth_dev_stop(port);
	for (i = 0; i < RTE_DIM(vdevs); i++)
		(void)rte_vdev_uninit(vdevs[i]);
	for (port = 0; port < RTE_MAX_ETHPORTS; port++)
		if (rte_eth_dev_is_valid_port(port))
			return -1;
	return 0;
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
		cmocka_unit_test_teardown(test_esw_devargs, esw_test_close),
		cmocka_unit_test_teardown(test_esw_switch_info, esw_test_close),
		cmocka_unit_test_teardown(test_esw_left_open, esw_test_close),
		cmocka_unit_test_teardown(test_esw_nothing_left, esw_test_close),
		cmocka_unit_test_teardown(test_esw_misses, esw_test_close),
		cmocka_unit_test_teardown(test_esw_manager_rule_first, esw_test_close),
		cmocka_unit_test_teardown(test_esw_rep_tx_below, esw_test_close),
		cmocka_unit_test_teardown(test_esw_rep_tx_no_rx, esw_test_close),
		cmocka_unit_test_teardown(test_esw_port_representor, esw_test_close),
		cmocka_unit_test_teardown(test_esw_rep_jump_miss, esw_test_close),
		cmocka_unit_test_teardown(test_esw_shared_matcher, esw_test_close),
		cmocka_unit_test_teardown(test_esw_transfer, esw_test_close),
		cmocka_unit_test_teardown(test_esw_vlan, esw_test_close),
		cmocka_unit_test_teardown(test_esw_headers, esw_test_close),
		cmocka_unit_test_teardown(test_esw_template, esw_test_close),
		cmocka_unit_test_teardown(test_esw_template_tail, esw_test_close),
		cmocka_unit_test_teardown(test_esw_template_jump, esw_test_close),
		cmocka_unit_test_teardown(test_esw_sync_objects, esw_test_close),
		cmocka_unit_test_teardown(test_esw_rep_nic_rules, esw_test_close),
		cmocka_unit_test_teardown(test_esw_pair, esw_test_close),
		cmocka_unit_test_teardown(test_esw_refused, esw_test_close),
		cmocka_unit_test_teardown(test_esw_manager_closed, esw_test_close),
	};

	return cmocka_run_group_tests_name("pmd_esw", tests, setup, teardown);
}
