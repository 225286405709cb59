/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * net_mlx5dm through the ethdev API: devargs strictness, loopback delivery,
 * stats and xstats, ring overflow, wire drops, reconfiguration, close, the
 * handle-only flow engine, the private dump.
 */

/* rte_eth_dev_priv_dump() is experimental in 22.11. */
#define ALLOW_EXPERIMENTAL_API

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <rte_bus_vdev.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_flow.h>
#include <rte_ip.h>
#include <rte_log.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include <rte_pmd_mlx5dm.h>
#include "pmd_env.h"
#include "test_rss.h"

static struct rte_mempool *pool;

/* The rule the tests steer with: every Ethernet frame on ingress, dropped. */
static const struct rte_flow_attr in = { .ingress = 1 };
static const struct rte_flow_item eth[] = {
	{ .type = RTE_FLOW_ITEM_TYPE_ETH }, { .type = RTE_FLOW_ITEM_TYPE_END },
};
static const struct rte_flow_action drop[] = {
	{ .type = RTE_FLOW_ACTION_TYPE_DROP }, { .type = RTE_FLOW_ACTION_TYPE_END },
};

static void
port_setup(uint16_t port, uint16_t nrxq, uint16_t ntxq, uint16_t rx_desc)
{
	struct rte_eth_conf conf = { 0 };
	uint16_t q;

	assert_int_equal(rte_eth_dev_configure(port, nrxq, ntxq, &conf), 0);
	for (q = 0; q < nrxq; q++)
		assert_int_equal(rte_eth_rx_queue_setup(port, q, rx_desc, 0, NULL, pool), 0);
	for (q = 0; q < ntxq; q++)
		assert_int_equal(rte_eth_tx_queue_setup(port, q, 512, 0, NULL), 0);
	assert_int_equal(rte_eth_dev_start(port), 0);
}

/*
 * Wait until the device completed n frames of Tx queue q (each then
 * delivered into an Rx queue or dropped): what a caller must do before it
 * looks for them, the device being on the far side of the queues.
 */
static void
tx_wait(uint16_t port, uint16_t q, unsigned int n)
{
	uint64_t deadline = rte_get_timer_cycles() + 5 * rte_get_timer_hz();
	unsigned int done = 0;
	int k;

	while (done < n && rte_get_timer_cycles() < deadline) {
		k = rte_eth_tx_done_cleanup(port, q, 0);
		assert_true(k >= 0);
		done += (unsigned int)k;
	}
	assert_int_equal(done, n);
}

/* Send n 100-byte packets whose first payload byte is its index; returns what Tx took. */
static uint16_t
send_pkts_nowait(uint16_t port, uint16_t q, unsigned int n)
{
	struct rte_mbuf *m[64];
	unsigned int i;

	assert_true(n <= 64);
	for (i = 0; i < n; i++) {
		uint8_t *d;

		m[i] = rte_pktmbuf_alloc(pool);
		assert_non_null(m[i]);
		d = (uint8_t *)rte_pktmbuf_append(m[i], 100);
		memset(d, 0xa5, 100);
		d[14] = (uint8_t)i;
	}
	return rte_eth_tx_burst(port, q, m, (uint16_t)n);
}

/* The same, then wait for the device to be done with them. */
static uint16_t
send_pkts(uint16_t port, uint16_t q, unsigned int n)
{
	uint16_t k = send_pkts_nowait(port, q, n);

	tx_wait(port, q, k);
	return k;
}

static unsigned int
recv_all(uint16_t port, uint16_t q, int check_order)
{
	struct rte_mbuf *m[64];
	unsigned int total = 0;
	uint16_t n, i;

	while ((n = rte_eth_rx_burst(port, q, m, 64)) != 0) {
		for (i = 0; i < n; i++) {
			assert_int_equal(m[i]->pkt_len, 100);
			assert_int_equal(m[i]->port, port);
			if (check_order)
				assert_int_equal(rte_pktmbuf_mtod(m[i], uint8_t *)[14],
						 (uint8_t)(total + i));
		}
		total += n;
		rte_pktmbuf_free_bulk(m, n);
	}
	return total;
}

static void
close_port(uint16_t port)
{
	assert_int_equal(rte_eth_dev_stop(port), 0);
	assert_int_equal(rte_eth_dev_close(port), 0);
}

static void
test_devargs_rejected(void **state)
{
	static const char * const bad[] = {
		"colour=blue",
		"ports=0",
		"ports=17",
		"ports=abc",
		"ports=2x",
		"ports=-1",
		"ports=",
		"backend=fpga",
		"topology=ring",
		"topology=pair,ports=3",
		"ports=2,ports=2",
		"backend=hw",
		"flow_engine=fast",
		"flow_engine=",
		"doorbell_batch=0",
		"doorbell_batch=1025",
		"doorbell_batch=8x",
		"log_steering_icm_size=25",
		"log_steering_icm_size=33",
		"log_steering_icm_size=28x",
		"sim_sq_thread=1",
	};
	/* Refused by the parser, which names the devarg: the memory devargs are gone. */
	static const char * const bad_parsed[][2] = {
		{ "mem_reserve=16", "unknown key" },
		{ "mem_ahead=0", "unknown key" },
		{ "mem_ahead_start=64", "unknown key" },
		{ "sim_icm_populate=1", "unknown key" },
		{ "sim_icm_start=8", "unknown key" },
	};
	uint16_t before = rte_eth_dev_count_avail();
	unsigned int i;
	char *log;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int ret = rte_vdev_init("net_mlx5dm9", bad[i]);

		if (ret >= 0)
			fail_msg("devargs \"%s\" accepted", bad[i]);
		assert_int_equal(rte_eth_dev_count_avail(), before);
		assert_int_equal(port_by_name("net_mlx5dm9"), RTE_MAX_ETHPORTS);
	}
	for (i = 0; i < RTE_DIM(bad_parsed); i++) {
		if (probe_logged("net_mlx5dm9", bad_parsed[i][0], &log) >= 0)
			fail_msg("devargs \"%s\" accepted", bad_parsed[i][0]);
		if (strstr(log, bad_parsed[i][1]) == NULL)
			fail_msg("devargs \"%s\" refused, not by the parser: %s",
				 bad_parsed[i][0], log);
		free(log);
		assert_int_equal(rte_eth_dev_count_avail(), before);
		assert_int_equal(port_by_name("net_mlx5dm9"), RTE_MAX_ETHPORTS);
	}
}

static void
test_loopback_single_port(void **state)
{
	struct rte_pmd_mlx5dm_port_info info;
	struct rte_eth_stats st;
	struct rte_eth_link link;
	uint16_t port;

	(void)state;
	assert_int_equal(rte_vdev_init("net_mlx5dm0", "backend=sim"), 0);
	port = port_by_name("net_mlx5dm0");
	assert_true(port < RTE_MAX_ETHPORTS);
	assert_int_equal(rte_pmd_mlx5dm_port_info_get(port, &info), 0);
	assert_int_equal(info.peer_port_id, port);
	assert_int_equal(info.nb_ports, 1);
	assert_int_equal(info.backend, RTE_PMD_MLX5DM_BACKEND_SIM);

	port_setup(port, 2, 2, 512);
	assert_int_equal(rte_eth_link_get_nowait(port, &link), 0);
	assert_int_equal(link.link_status, RTE_ETH_LINK_UP);
	assert_int_equal(send_pkts(port, 1, 40), 40);
	assert_int_equal(send_pkts(port, 0, 10), 10);
	/* Until steering exists every packet lands on Rx queue 0. */
	assert_int_equal(recv_all(port, 1, 0), 0);
	assert_int_equal(recv_all(port, 0, 0), 50);
	assert_int_equal(rte_eth_stats_get(port, &st), 0);
	assert_int_equal(st.opackets, 50);
	assert_int_equal(st.obytes, 5000);
	assert_int_equal(st.ipackets, 50);
	assert_int_equal(st.ibytes, 5000);
	assert_int_equal(st.imissed, 0);
	assert_int_equal(st.ierrors + st.oerrors, 0);
	assert_int_equal(xstat(port, "rx_q0_packets"), 50);
	assert_int_equal(xstat(port, "rx_q1_packets"), 0);
	assert_int_equal(xstat(port, "tx_q1_packets"), 40);
	assert_int_equal(xstat(port, "tx_q0_packets"), 10);
	assert_int_equal(xstat(port, "rx_q0_recoveries"), 0);
	assert_int_equal(rte_eth_stats_reset(port), 0);
	assert_int_equal(rte_eth_stats_get(port, &st), 0);
	assert_int_equal(st.ipackets + st.opackets, 0);
	close_port(port);
	assert_int_equal(rte_eth_dev_is_valid_port(port), 0);
	assert_int_equal(rte_vdev_uninit("net_mlx5dm0"), 0);
}

/*
 * flow_engine=null: rules are handles only. A drop-all rule drops nothing,
 * an action the steering engine refuses is accepted, handles are checked
 * (a destroyed one is refused) and flush takes the rest.
 */
static void
test_flow_engine_null(void **state)
{
	const struct rte_flow_attr xfer = { .transfer = 1 };
	const struct rte_flow_action meter[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_METER }, { .type = RTE_FLOW_ACTION_TYPE_END },
	};
	struct rte_flow_error err;
	struct rte_flow *f1, *f2;
	uint16_t port;

	(void)state;
	assert_int_equal(rte_vdev_init("net_mlx5dm5", "flow_engine=null"), 0);
	port = port_by_name("net_mlx5dm5");
	port_setup(port, 1, 1, 512);
	f1 = rte_flow_create(port, &in, eth, drop, &err);
	assert_non_null(f1);
	f2 = rte_flow_create(port, &in, eth, meter, &err);
	assert_non_null(f2);
	assert_null(rte_flow_create(port, &xfer, eth, drop, &err));
	assert_int_equal(err.type, RTE_FLOW_ERROR_TYPE_ATTR);
	assert_null(rte_flow_create(port, &in, NULL, drop, &err));
	assert_int_equal(err.type, RTE_FLOW_ERROR_TYPE_ITEM_NUM);
	assert_int_equal(send_pkts(port, 0, 10), 10);
	assert_int_equal(recv_all(port, 0, 1), 10);
	assert_int_equal(rte_flow_destroy(port, f1, &err), 0);
	assert_int_equal(rte_flow_destroy(port, f1, &err), -EINVAL);
	assert_int_equal(err.type, RTE_FLOW_ERROR_TYPE_HANDLE);
	assert_int_equal(rte_flow_flush(port, &err), 0);
	assert_int_equal(rte_flow_destroy(port, f2, &err), -EINVAL);
	close_port(port);
	assert_int_equal(rte_vdev_uninit("net_mlx5dm5"), 0);
}

/*
 * Flush and isolate find the port's flows by walking the handle pool:
 * 70 000 flows (two 2 MiB chunks of handles), a third destroyed one by
 * one, then isolate is refused (flows exist), flush takes every other
 * flow across both chunks (each then refused by destroy), isolate is
 * accepted, and a new flow reuses a freed handle. The default rule (not
 * the user's) survives: traffic is received again after isolate is off.
 */
static void
test_flush_walks_pool(void **state)
{
	const unsigned int n = 70000;
	struct rte_flow_error err;
	struct rte_flow **f;
	unsigned int i;
	uint16_t port;

	(void)state;
	f = calloc(n, sizeof(*f));
	assert_non_null(f);
	assert_int_equal(rte_vdev_init("net_mlx5dm5", "flow_engine=null"), 0);
	port = port_by_name("net_mlx5dm5");
	port_setup(port, 1, 1, 512);
	for (i = 0; i < n; i++) {
		f[i] = rte_flow_create(port, &in, eth, drop, &err);
		assert_non_null(f[i]);
	}
	for (i = 0; i < n; i += 3)
		assert_int_equal(rte_flow_destroy(port, f[i], &err), 0);
	assert_int_equal(rte_flow_isolate(port, 1, &err), -EBUSY);
	assert_int_equal(rte_flow_flush(port, &err), 0);
	for (i = 0; i < n; i++)
		if (rte_flow_destroy(port, f[i], &err) != -EINVAL)
			fail_msg("flow %u still live after flush", i);
	assert_int_equal(rte_flow_isolate(port, 1, &err), 0);
	assert_int_equal(rte_flow_isolate(port, 0, &err), 0);
	assert_int_equal(send_pkts(port, 0, 10), 10);
	assert_int_equal(recv_all(port, 0, 1), 10);
	f[0] = rte_flow_create(port, &in, eth, drop, &err);
	assert_non_null(f[0]);
	assert_int_equal(rte_flow_flush(port, &err), 0);
	assert_int_equal(rte_flow_destroy(port, f[0], &err), -EINVAL);
	close_port(port);
	assert_int_equal(rte_vdev_uninit("net_mlx5dm5"), 0);
	free(f);
}

static void
test_order_and_ring_overflow(void **state)
{
	struct rte_eth_stats st;
	uint16_t port;

	(void)state;
	assert_int_equal(rte_vdev_init("net_mlx5dm1", NULL), 0);
	port = port_by_name("net_mlx5dm1");
	port_setup(port, 1, 1, 32);
	assert_int_equal(send_pkts(port, 0, 20), 20);
	assert_int_equal(recv_all(port, 0, 1), 20);
	/* 50 packets into a 32-entry Rx ring: 18 find no buffer, the device counts them. */
	assert_int_equal(send_pkts(port, 0, 50), 50);
	assert_int_equal(recv_all(port, 0, 1), 32);
	assert_int_equal(rte_eth_stats_get(port, &st), 0);
	assert_int_equal(st.imissed, 18);
	assert_int_equal(st.ipackets, 52);
	assert_int_equal(st.opackets, 70);
	assert_int_equal(xstat(port, "dev_queue_full_drops"), 18);
	/* The buffers went back to the device: the ring takes 32 again. */
	assert_int_equal(send_pkts(port, 0, 32), 32);
	assert_int_equal(recv_all(port, 0, 1), 32);
	close_port(port);
	assert_int_equal(rte_vdev_uninit("net_mlx5dm1"), 0);
}

static void
test_pair_topology_and_wire_drops(void **state)
{
	struct rte_pmd_mlx5dm_port_info ia, ib;
	uint16_t a, b;

	(void)state;
	assert_int_equal(rte_vdev_init("net_mlx5dm2", "ports=2,topology=pair"), 0);
	a = port_by_name("net_mlx5dm2");
	b = port_by_name("net_mlx5dm2_p1");
	assert_true(a < RTE_MAX_ETHPORTS && b < RTE_MAX_ETHPORTS);
	assert_int_equal(rte_pmd_mlx5dm_port_info_get(a, &ia), 0);
	assert_int_equal(rte_pmd_mlx5dm_port_info_get(b, &ib), 0);
	assert_int_equal(ia.peer_port_id, b);
	assert_int_equal(ib.peer_port_id, a);
	assert_int_equal(ib.port_index, 1);
	port_setup(a, 1, 1, 512);
	/* b is not started: nothing steers its NIC RX, the device drops what a sends. */
	assert_int_equal(send_pkts(a, 0, 7), 7);
	assert_int_equal(xstat(b, "dev_default_miss_drops"), 7);
	assert_int_equal(xstat(b, "dev_rx_packets"), 7);
	port_setup(b, 1, 1, 512);
	assert_int_equal(send_pkts(a, 0, 9), 9);
	assert_int_equal(send_pkts(b, 0, 3), 3);
	assert_int_equal(recv_all(a, 0, 1), 3);
	assert_int_equal(recv_all(b, 0, 1), 9);
	assert_int_equal(xstat(b, "rx_q0_packets"), 9);
	assert_int_equal(xstat(a, "rx_q0_packets"), 3);
	close_port(a);
	/* a is gone: b's packets fall off the wire. */
	assert_int_equal(send_pkts(b, 0, 2), 2);
	assert_int_equal(xstat(b, "dev_no_peer_drops"), 2);
	close_port(b);
	assert_int_equal(rte_vdev_uninit("net_mlx5dm2"), 0);
}

/*
 * A drop-all rule on rx's ingress drops what tx sends (its writes reached
 * the device), and after its destroy the frames arrive again.
 */
static void
drop_rule_steers(uint16_t tx, uint16_t rx)
{
	struct rte_flow_error err;
	struct rte_flow *f;

	f = rte_flow_create(rx, &in, eth, drop, &err);
	assert_non_null(f);
	assert_int_equal(send_pkts(tx, 0, 5), 5);
	assert_int_equal(recv_all(rx, 0, 1), 0);
	assert_int_equal(xstat(rx, "rx_q0_packets"), 0);
	assert_int_equal(rte_flow_destroy(rx, f, &err), 0);
	assert_int_equal(send_pkts(tx, 0, 4), 4);
	assert_int_equal(recv_all(rx, 0, 1), 4);
}

/*
 * doorbell_batch: a rule's writes wait behind the rule queue's doorbell,
 * yet steer the next frame that crosses the wire: a's Tx burst rings the
 * queue of its peer b, whose NIC RX steers what a sends. Same for a
 * destroy. With a doorbell per operation (1), the same outcome; the
 * model's device thread runs the queues, so a doorbell returns before the
 * writes are done.
 */
static void
test_doorbell_batch_peer(void **state)
{
	static const char * const args[] = {
		"ports=2,topology=pair,doorbell_batch=1",
		"ports=2,topology=pair,doorbell_batch=1024",
	};
	unsigned int i;
	uint16_t a, b;

	(void)state;
	for (i = 0; i < sizeof(args) / sizeof(args[0]); i++) {
		assert_int_equal(rte_vdev_init("net_mlx5dm6", args[i]), 0);
		a = port_by_name("net_mlx5dm6");
		b = port_by_name("net_mlx5dm6_p1");
		port_setup(a, 1, 1, 512);
		port_setup(b, 1, 1, 512);
		drop_rule_steers(a, b);
		close_port(a);
		close_port(b);
		assert_int_equal(rte_vdev_uninit("net_mlx5dm6"), 0);
	}
}

static void
test_reconfigure(void **state)
{
	struct rte_eth_dev_info di;
	uint16_t port;

	(void)state;
	assert_int_equal(rte_vdev_init("net_mlx5dm3", "ports=1"), 0);
	port = port_by_name("net_mlx5dm3");
	assert_int_equal(rte_eth_dev_info_get(port, &di), 0);
	assert_string_equal(di.driver_name, "net_mlx5dm");
	port_setup(port, 1, 1, 512);
	assert_int_equal(send_pkts(port, 0, 5), 5);
	assert_int_equal(rte_eth_dev_stop(port), 0);
	/* Stop drops what waited in the rings; a new configuration works. */
	port_setup(port, 4, 4, 256);
	assert_int_equal(recv_all(port, 0, 0), 0);
	assert_int_equal(send_pkts(port, 3, 12), 12);
	assert_int_equal(recv_all(port, 0, 1), 12);
	assert_int_equal(rte_eth_dev_stop(port), 0);
	port_setup(port, 1, 1, 64);
	assert_int_equal(send_pkts(port, 0, 6), 6);
	assert_int_equal(recv_all(port, 0, 1), 6);
	/* Bad descriptor counts are refused. */
	assert_int_equal(rte_eth_dev_stop(port), 0);
	assert_true(rte_eth_rx_queue_setup(port, 0, 8, 0, NULL, pool) < 0);
	assert_int_equal(rte_eth_dev_close(port), 0);
	assert_int_equal(rte_vdev_uninit("net_mlx5dm3"), 0);
	/* A closed port cannot be described. */
	assert_int_equal(rte_pmd_mlx5dm_port_info_get(port, NULL), -ENODEV);
}

/* Probe, use and close ports repeatedly: the DPDK heap returns to its start. */
static void
test_no_leak_across_lifecycle(void **state)
{
	size_t before, after;
	unsigned int round;
	uint16_t a, b;

	(void)state;
	before = heap_allocated();
	for (round = 0; round < 3; round++) {
		assert_int_equal(rte_vdev_init("net_mlx5dm4", "ports=2,topology=pair"), 0);
		a = port_by_name("net_mlx5dm4");
		b = port_by_name("net_mlx5dm4_p1");
		port_setup(a, 2, 2, 128);
		port_setup(b, 3, 1, 128);
		/* Some still in flight when the port goes. */
		assert_int_equal(send_pkts_nowait(a, 1, 20), 20);
		/* Packets stay in b's ring: close/remove must free them. */
		if (round == 1) {
			close_port(a);
			close_port(b);
		} else {
			/* Uninit with the ports still started: remove must clean up. */
			assert_int_equal(rte_vdev_uninit("net_mlx5dm4"), 0);
			assert_int_equal(rte_eth_dev_is_valid_port(a), 0);
			assert_int_equal(rte_eth_dev_is_valid_port(b), 0);
			continue;
		}
		assert_int_equal(rte_vdev_uninit("net_mlx5dm4"), 0);
	}
	after = heap_allocated();
	assert_int_equal(after, before);
	assert_int_equal(rte_mempool_avail_count(pool), 2048);
}

/* The port of vdev name steers a drop rule; then it is closed and the vdev removed. */
static void
steer_and_remove(const char *name)
{
	uint16_t port = port_by_name(name);

	assert_true(port < RTE_MAX_ETHPORTS);
	port_setup(port, 1, 1, 512);
	drop_rule_steers(port, port);
	close_port(port);
	assert_int_equal(rte_vdev_uninit(name), 0);
}

/*
 * The model's SW ICM is device memory: resident when the probe returns
 * (256 MiB of STE ICM by default, 16 MiB of modify, 2 MiB each of pattern
 * and encap, each rounded up to 2 MiB), without a thread to wait for;
 * rules work, and the close gives all of it back: twice, with the same
 * name; then once with twice the STE ICM (log_steering_icm_size=29).
 */
static void
test_icm_resident(void **state)
{
	static const char * const devargs[] = { NULL, NULL, "log_steering_icm_size=29" };
	const uint64_t others = (16ull + 2 + 2) << 20;
	uint64_t rss0, rss1, rss2, resident;
	unsigned int round;

	(void)state;
	for (round = 0; round < RTE_DIM(devargs); round++) {
		resident = (devargs[round] == NULL ? 256ull << 20 : 512ull << 20) + others;
		rss0 = test_rss_bytes();
		assert_int_equal(rte_vdev_init("net_mlx5dm7", devargs[round]), 0);
		rss1 = test_rss_bytes();
		steer_and_remove("net_mlx5dm7");
		rss2 = test_rss_bytes();
		if (rss1 < rss0 + resident)
			fail_msg("round %u: probe made %llu MiB resident, expected %llu", round,
				 (unsigned long long)((rss1 - rss0) >> 20),
				 (unsigned long long)(resident >> 20));
		/* The slack covers the sanitizers' shadow and quarantine. */
		if (rss2 > rss0 + (64u << 20))
			fail_msg("round %u: %llu MiB still resident after close", round,
				 (unsigned long long)((rss2 - rss0) >> 20));
	}
}

/* Port net_mlx5dm7 with devargs, one Rx and one Tx queue, one flow queue of 64; not started. */
static uint16_t
template_port(const char *devargs)
{
	const struct rte_flow_queue_attr qa = { .size = 64 };
	const struct rte_flow_queue_attr *qas[] = { &qa };
	const struct rte_flow_port_attr pa = { 0 };
	struct rte_eth_conf conf = { 0 };
	struct rte_flow_error err;
	uint16_t port;

	assert_int_equal(rte_vdev_init("net_mlx5dm7", devargs), 0);
	port = port_by_name("net_mlx5dm7");
	assert_true(port < RTE_MAX_ETHPORTS);
	assert_int_equal(rte_eth_dev_configure(port, 1, 1, &conf), 0);
	assert_int_equal(rte_eth_rx_queue_setup(port, 0, 512, 0, NULL, pool), 0);
	assert_int_equal(rte_eth_tx_queue_setup(port, 0, 512, 0, NULL), 0);
	assert_int_equal(rte_flow_configure(port, &pa, 1, qas, &err), 0);
	return port;
}

/* f destroyed through flow queue 0, done. */
static void
template_rule_destroy(uint16_t port, struct rte_flow *f)
{
	const struct rte_flow_op_attr now = { .postpone = 0 };
	struct rte_flow_op_result res;
	struct rte_flow_error err;

	assert_int_equal(rte_flow_async_destroy(port, 0, &now, f, NULL, &err), 0);
	assert_int_equal(pull_results(port, 0, &res, 1), 1);
	assert_int_equal(res.status, RTE_FLOW_OP_SUCCESS);
}

/*
 * A template table whose rules cannot fit in the STE ICM the port has left
 * (64 MiB with log_steering_icm_size=26: a million rules of one 64-byte
 * STE each take all of it) is refused with ENOMEM and a message, and
 * changes nothing: no matcher, no ICM; a table of a size that fits is
 * made after it, and its rules are placed. While it has a rule the table
 * is not destroyed, nor are its templates (EBUSY, a message, nothing
 * changes); a handle the port does not know is refused (EINVAL).
 */
static void
test_template_table_icm(void **state)
{
	struct rte_flow_template_table_attr ta = {
		.flow_attr = { .group = 1, .ingress = 1 },
		.nb_flows = 1u << 20,
	};
	struct rte_flow_pattern_template *pt;
	struct rte_flow_actions_template *at;
	struct rte_flow_template_table *tbl;
	struct rte_flow_error err;
	uint64_t icm0, matchers0, rules;
	uint64_t unknown[8] = { 0 };
	struct rte_flow *f;
	uint16_t port;

	(void)state;
	port = template_port("log_steering_icm_size=26");
	assert_int_equal(rte_eth_dev_start(port), 0);
	pt = ipv4_dst_template(port);
	at = drop_template(port);
	icm0 = xstat(port, "steer_icm_used_bytes");
	matchers0 = xstat(port, "steer_matchers");
	memset(&err, 0, sizeof(err));
	tbl = rte_flow_template_table_create(port, &ta, &pt, 1, &at, 1, &err);
	assert_null(tbl);
	assert_int_equal(rte_errno, ENOMEM);
	assert_non_null(err.message);
	assert_non_null(strstr(err.message, "STE ICM"));
	assert_int_equal(xstat(port, "steer_icm_used_bytes"), icm0);
	assert_int_equal(xstat(port, "steer_matchers"), matchers0);
	ta.nb_flows = 1u << 16;
	tbl = rte_flow_template_table_create(port, &ta, &pt, 1, &at, 1, &err);
	assert_non_null(tbl);
	f = ipv4_dst_rule(port, tbl, RTE_BE32(0x0a000001));
	rules = xstat(port, "steer_rules");
	memset(&err, 0, sizeof(err));
	assert_int_equal(rte_flow_template_table_destroy(port, tbl, &err), -EBUSY);
	assert_non_null(err.message);
	assert_non_null(strstr(err.message, "rules"));
	assert_int_equal(rte_flow_pattern_template_destroy(port, pt, &err), -EBUSY);
	assert_non_null(strstr(err.message, "pattern template"));
	assert_int_equal(rte_flow_actions_template_destroy(port, at, &err), -EBUSY);
	assert_non_null(strstr(err.message, "actions template"));
	assert_int_equal(rte_flow_template_table_destroy(port, (void *)unknown, &err), -EINVAL);
	assert_int_equal(rte_flow_pattern_template_destroy(port, (void *)unknown, &err), -EINVAL);
	assert_int_equal(rte_flow_actions_template_destroy(port, (void *)unknown, &err), -EINVAL);
	assert_int_equal(xstat(port, "steer_rules"), rules);
	assert_int_equal(xstat(port, "steer_matchers"), matchers0 + 1);
	template_rule_destroy(port, f);
	assert_int_equal(xstat(port, "steer_rules"), rules - 1);
	/* A template of a table stays while the table does. */
	assert_int_equal(rte_flow_actions_template_destroy(port, at, &err), -EBUSY);
	assert_int_equal(rte_flow_template_table_destroy(port, tbl, &err), 0);
	assert_int_equal(xstat(port, "steer_matchers"), matchers0);
	assert_int_equal(rte_flow_actions_template_destroy(port, at, &err), 0);
	assert_int_equal(rte_flow_pattern_template_destroy(port, pt, &err), 0);
	close_port(port);
	assert_int_equal(rte_vdev_uninit("net_mlx5dm7"), 0);
}

/*
 * A template table made before the port starts, or kept across a stop, has
 * its matcher made by the start: its first rule makes none (nor any other
 * rule: the table is sized for them), and its rules steer as before.
 */
static void
test_template_table_bound_at_start(void **state)
{
	const struct rte_flow_template_table_attr ta = {
		.flow_attr = { .group = 1, .ingress = 1 },
		.nb_flows = 1u << 12,
	};
	struct rte_flow_pattern_template *pt;
	struct rte_flow_actions_template *at;
	struct rte_flow_template_table *tbl;
	struct rte_flow_error err;
	uint64_t matchers0, rules0;
	unsigned int round;
	struct rte_flow *f;
	uint16_t port;

	(void)state;
	port = template_port(NULL);
	/* The port's own matchers: started without a table. */
	assert_int_equal(rte_eth_dev_start(port), 0);
	matchers0 = xstat(port, "steer_matchers");
	assert_int_equal(rte_eth_dev_stop(port), 0);
	pt = ipv4_dst_template(port);
	at = drop_template(port);
	tbl = rte_flow_template_table_create(port, &ta, &pt, 1, &at, 1, &err);
	assert_non_null(tbl);
	for (round = 0; round < 2; round++) {
		if (round == 1)
			assert_int_equal(rte_eth_dev_stop(port), 0);
		assert_int_equal(rte_eth_dev_start(port), 0);
		assert_int_equal(xstat(port, "steer_matchers"), matchers0 + 1);
		rules0 = xstat(port, "steer_rules");
		f = ipv4_dst_rule(port, tbl, RTE_BE32(0x0a000001 + round));
		assert_int_equal(xstat(port, "steer_matchers"), matchers0 + 1);
		assert_int_equal(xstat(port, "steer_rules"), rules0 + 1);
		template_rule_destroy(port, f);
		assert_int_equal(xstat(port, "steer_rules"), rules0);
	}
	assert_int_equal(rte_flow_template_table_destroy(port, tbl, &err), 0);
	assert_int_equal(xstat(port, "steer_matchers"), matchers0);
	assert_int_equal(rte_flow_actions_template_destroy(port, at, &err), 0);
	assert_int_equal(rte_flow_pattern_template_destroy(port, pt, &err), 0);
	close_port(port);
	assert_int_equal(rte_vdev_uninit("net_mlx5dm7"), 0);
}

/*
 * The steering library's memory is DPDK's (rte_malloc on the port's
 * socket): rules grow the DPDK heap by their records, and closing the port
 * gives every byte back.
 */
static void
test_lib_memory_in_dpdk_heap(void **state)
{
	enum { RULES = 4096 };
	struct rte_flow_item_ipv4 spec = { 0 }, mask = { 0 };
	struct rte_flow_item pattern[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_IPV4, .spec = &spec, .mask = &mask },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	static const struct rte_flow_action actions[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_DROP }, { .type = RTE_FLOW_ACTION_TYPE_END },
	};
	static const struct rte_flow_attr attr = { .ingress = 1, .group = 1 };
	struct rte_flow_error err;
	size_t heap0, heap1, heap2;
	uint16_t port;
	unsigned int i;

	(void)state;
	heap0 = heap_allocated();
	assert_int_equal(rte_vdev_init("net_mlx5dm7", NULL), 0);
	port = port_by_name("net_mlx5dm7");
	assert_true(port < RTE_MAX_ETHPORTS);
	port_setup(port, 1, 1, 512);
	heap1 = heap_allocated();
	mask.hdr.dst_addr = RTE_BE32(0xffffffff);
	for (i = 0; i < RULES; i++) {
		spec.hdr.dst_addr = rte_cpu_to_be_32(0x0a000000 + i);
		if (rte_flow_create(port, &attr, pattern, actions, &err) == NULL)
			fail_msg("rule %u: %s", i, err.message ? err.message : "(no message)");
	}
	heap2 = heap_allocated();
	/* A rule's STE record, its hash-table slot and index entry are 64 bytes at least. */
	if (heap2 < heap1 + RULES * 64)
		fail_msg("%u rules grew the DPDK heap by %zu bytes", RULES, heap2 - heap1);
	/* The device's context, domains and tables are there from the probe on. */
	if (heap1 < heap0 + (64u << 10))
		fail_msg("a started port holds %zu bytes of the DPDK heap", heap1 - heap0);
	assert_int_equal(rte_flow_flush(port, &err), 0);
	close_port(port);
	assert_int_equal(rte_vdev_uninit("net_mlx5dm7"), 0);
	assert_int_equal(heap_allocated(), heap0);
}

/*
 * A frame in three mbuf segments (the first shorter than the inline
 * header) leaves as one frame: one WQE with a data segment per segment;
 * it arrives whole in one Rx buffer, typed L2 only (no IP).
 */
static void
test_multi_segment_tx(void **state)
{
	struct rte_mbuf *seg[3], *m;
	static const uint16_t len[3] = { 10, 50, 140 };
	uint8_t *d, exp[200];
	unsigned int i, off = 0;
	uint16_t port;

	(void)state;
	assert_int_equal(rte_vdev_init("net_mlx5dm8", NULL), 0);
	port = port_by_name("net_mlx5dm8");
	port_setup(port, 1, 1, 64);
	for (i = 0; i < 3; i++) {
		unsigned int k;

		seg[i] = rte_pktmbuf_alloc(pool);
		assert_non_null(seg[i]);
		d = (uint8_t *)rte_pktmbuf_append(seg[i], len[i]);
		for (k = 0; k < len[i]; k++)
			exp[off + k] = d[k] = (uint8_t)(off + k);
		off += len[i];
	}
	exp[12] = 0x88, exp[13] = 0xb5; /* local experimental EtherType: not IP */
	rte_pktmbuf_mtod(seg[1], uint8_t *)[2] = 0x88;
	rte_pktmbuf_mtod(seg[1], uint8_t *)[3] = 0xb5;
	assert_int_equal(rte_pktmbuf_chain(seg[0], seg[1]), 0);
	assert_int_equal(rte_pktmbuf_chain(seg[0], seg[2]), 0);
	assert_int_equal(rte_eth_tx_burst(port, 0, &seg[0], 1), 1);
	tx_wait(port, 0, 1);
	assert_int_equal(rte_eth_rx_burst(port, 0, &m, 1), 1);
	assert_int_equal(m->nb_segs, 1);
	assert_int_equal(m->pkt_len, 200);
	assert_memory_equal(rte_pktmbuf_mtod(m, uint8_t *), exp, 200);
	assert_int_equal(m->packet_type, RTE_PTYPE_L2_ETHER);
	assert_int_equal(m->ol_flags & (RTE_MBUF_F_RX_IP_CKSUM_MASK | RTE_MBUF_F_RX_L4_CKSUM_MASK),
			 0);
	rte_pktmbuf_free(m);
	close_port(port);
	assert_int_equal(rte_vdev_uninit("net_mlx5dm8"), 0);
}

/* An Ether/IPv4/UDP frame of 100 bytes with correct checksums, or a broken IPv4 one. */
static struct rte_mbuf *
udp_frame(int bad_ip_cksum)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(pool);
	struct rte_ether_hdr *eth;
	struct rte_ipv4_hdr *ip;
	struct rte_udp_hdr *udp;

	assert_non_null(m);
	eth = (struct rte_ether_hdr *)rte_pktmbuf_append(m, 100);
	memset(eth, 0, 100);
	eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
	ip = (struct rte_ipv4_hdr *)(eth + 1);
	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->total_length = rte_cpu_to_be_16(100 - sizeof(*eth));
	ip->time_to_live = 64;
	ip->next_proto_id = IPPROTO_UDP;
	ip->src_addr = rte_cpu_to_be_32(0x0a000001);
	ip->dst_addr = rte_cpu_to_be_32(0x0a000002);
	udp = (struct rte_udp_hdr *)(ip + 1);
	udp->src_port = rte_cpu_to_be_16(1000);
	udp->dst_port = rte_cpu_to_be_16(2000);
	udp->dgram_len = rte_cpu_to_be_16(100 - sizeof(*eth) - sizeof(*ip));
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	udp->dgram_cksum = rte_ipv4_udptcp_cksum(ip, udp);
	if (bad_ip_cksum)
		ip->hdr_checksum ^= 0xffff;
	return m;
}

/* Packet type and checksum verdicts come from the CQE. */
static void
test_rx_ptype_cksum(void **state)
{
	struct rte_mbuf *m[2];
	uint16_t port;

	(void)state;
	assert_int_equal(rte_vdev_init("net_mlx5dm8", NULL), 0);
	port = port_by_name("net_mlx5dm8");
	port_setup(port, 1, 1, 64);
	m[0] = udp_frame(0);
	m[1] = udp_frame(1);
	assert_int_equal(rte_eth_tx_burst(port, 0, m, 2), 2);
	tx_wait(port, 0, 2);
	assert_int_equal(rte_eth_rx_burst(port, 0, m, 2), 2);
	assert_int_equal(m[0]->packet_type,
			 RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV4_EXT_UNKNOWN | RTE_PTYPE_L4_UDP);
	assert_int_equal(m[0]->ol_flags & RTE_MBUF_F_RX_IP_CKSUM_MASK,
			 RTE_MBUF_F_RX_IP_CKSUM_GOOD);
	assert_int_equal(m[0]->ol_flags & RTE_MBUF_F_RX_L4_CKSUM_MASK,
			 RTE_MBUF_F_RX_L4_CKSUM_GOOD);
	assert_int_equal(m[1]->ol_flags & RTE_MBUF_F_RX_IP_CKSUM_MASK, RTE_MBUF_F_RX_IP_CKSUM_BAD);
	rte_pktmbuf_free_bulk(m, 2);
	close_port(port);
	assert_int_equal(rte_vdev_uninit("net_mlx5dm8"), 0);
}

/*
 * A frame longer than the Rx buffers (128 bytes of data room) is an error
 * CQE (LOCAL_LENGTH_ERR): counted in ierrors and the queue's errors, its
 * buffer kept; the device flushes the ring, the burst recovers the RQ
 * (ERR -> RST -> RDY) and posts the ring again; frames arrive again.
 */
static void
test_rx_error_recovery(void **state)
{
	struct rte_mempool *small;
	struct rte_eth_conf conf = { 0 };
	struct rte_eth_stats st;
	struct rte_mbuf *m[64];
	uint64_t deadline;
	uint16_t port;

	(void)state;
	small = rte_pktmbuf_pool_create("small_pool", 256, 0, 0, RTE_PKTMBUF_HEADROOM + 128, 0);
	assert_non_null(small);
	assert_int_equal(rte_vdev_init("net_mlx5dm8", NULL), 0);
	port = port_by_name("net_mlx5dm8");
	assert_int_equal(rte_eth_dev_configure(port, 1, 1, &conf), 0);
	assert_int_equal(rte_eth_rx_queue_setup(port, 0, 32, 0, NULL, small), 0);
	assert_int_equal(rte_eth_tx_queue_setup(port, 0, 64, 0, NULL), 0);
	assert_int_equal(rte_eth_dev_start(port), 0);
	assert_int_equal(send_pkts(port, 0, 3), 3);
	assert_int_equal(recv_all(port, 0, 1), 3);
	m[0] = rte_pktmbuf_alloc(pool);
	assert_non_null(m[0]);
	memset(rte_pktmbuf_append(m[0], 200), 0x5a, 200);
	assert_int_equal(rte_eth_tx_burst(port, 0, m, 1), 1);
	tx_wait(port, 0, 1);
	deadline = rte_get_timer_cycles() + 5 * rte_get_timer_hz();
	while (xstat(port, "rx_q0_recoveries") == 0 && rte_get_timer_cycles() < deadline)
		assert_int_equal(rte_eth_rx_burst(port, 0, m, 64), 0);
	assert_int_equal(xstat(port, "rx_q0_recoveries"), 1);
	assert_int_equal(rte_eth_stats_get(port, &st), 0);
	assert_int_equal(st.ierrors, 1);
	assert_int_equal(st.q_errors[0], 1);
	assert_int_equal(st.ipackets, 3);
	assert_int_equal(send_pkts(port, 0, 5), 5);
	assert_int_equal(recv_all(port, 0, 1), 5);
	close_port(port);
	assert_int_equal(rte_vdev_uninit("net_mlx5dm8"), 0);
	/* Every buffer came back to the pool. */
	assert_int_equal(rte_mempool_avail_count(small), 256);
	rte_mempool_free(small);
}

/* The port's private dump (rte_eth_dev_priv_dump) as a string to free. */
static char *
priv_dump(uint16_t port)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(rte_eth_dev_priv_dump(port, f), 0);
	assert_int_equal(fclose(f), 0);
	assert_non_null(buf);
	return buf;
}

/* The number after key, found after anchor, in a dump. */
static uint64_t
dump_num(const char *dump, const char *anchor, const char *key)
{
	const char *p = strstr(dump, anchor);

	assert_non_null(p);
	p = strstr(p, key);
	assert_non_null(p);
	return strtoull(p + strlen(key), NULL, 10);
}

struct dump_facts {
	uint64_t flows, rules, rx_rules, queue_rules, counters, icm_used;
};

static void
dump_facts(uint16_t port, struct dump_facts *df)
{
	char *d = priv_dump(port);

	df->flows = dump_num(d, "\n", "rte_flow: ");
	df->rules = dump_num(d, "rte_flow: ", "steering: ");
	df->rx_rules = dump_num(d, "  rx: ", "matchers, ");
	df->queue_rules = dump_num(d, "\n", "rule queue 0: ");
	df->counters = dump_num(d, "\n", "counters: ");
	df->icm_used = dump_num(d, "ICM", "  steering ");
	assert_non_null(strstr(d, "net_mlx5dm port"));
	free(d);
}

/*
 * The private dump says what the port's steering holds: rte_flow rules and
 * the steering rules under them (the default rule too), per domain, the rule
 * queue's share, counters in use, steering ICM; a flush takes it all back.
 */
static void
test_priv_dump(void **state)
{
	static const struct rte_flow_action_queue q0 = { .index = 0 };
	static const struct rte_flow_action_count cnt;
	static const struct rte_flow_action count_queue[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_COUNT, .conf = &cnt },
		{ .type = RTE_FLOW_ACTION_TYPE_QUEUE, .conf = &q0 },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	struct rte_flow_item_ipv4 spec = { 0 }, mask = { 0 };
	struct rte_flow_item pattern[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_IPV4, .spec = &spec, .mask = &mask },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct dump_facts base, now;
	struct rte_flow_error err;
	char *d;
	uint16_t port;
	unsigned int i;

	(void)state;
	assert_int_equal(rte_vdev_init("net_mlx5dm10", NULL), 0);
	port = port_by_name("net_mlx5dm10");
	port_setup(port, 2, 1, 128);
	dump_facts(port, &base);
	assert_int_equal(base.flows, 0);
	assert_true(base.rules > 0);                    /* the default rule */
	assert_int_equal(base.rx_rules, base.rules);
	assert_int_equal(base.counters, 0);
	assert_true(base.icm_used > 0);
	mask.hdr.dst_addr = RTE_BE32(0xffffffff);
	for (i = 0; i < 3; i++) {
		spec.hdr.dst_addr = rte_cpu_to_be_32(RTE_IPV4(10, 0, 0, i + 1));
		assert_non_null(rte_flow_create(port, &in, pattern, count_queue, &err));
	}
	dump_facts(port, &now);
	assert_int_equal(now.flows, 3);
	assert_int_equal(now.rules, base.rules + 3);
	assert_int_equal(now.rx_rules, base.rx_rules + 3);
	assert_int_equal(now.queue_rules, base.queue_rules + 3);
	assert_int_equal(now.counters, 3);
	assert_true(now.icm_used > base.icm_used);
	d = priv_dump(port);
	assert_non_null(strstr(d, "rx group 0: "));
	assert_non_null(strstr(d, "error 0 "));
	free(d);
	assert_int_equal(rte_flow_flush(port, &err), 0);
	dump_facts(port, &now);
	assert_int_equal(now.flows, 0);
	assert_int_equal(now.rules, base.rules);
	assert_int_equal(now.queue_rules, base.queue_rules);
	assert_int_equal(now.counters, 0);
	assert_int_equal(now.icm_used, base.icm_used);
	close_port(port);
	assert_int_equal(rte_vdev_uninit("net_mlx5dm10"), 0);
}

static int
setup(void **state)
{
	(void)state;
	pool = pmd_env_init("test_pmd_ethdev");
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
		cmocka_unit_test(test_devargs_rejected),
		cmocka_unit_test(test_loopback_single_port),
		cmocka_unit_test(test_order_and_ring_overflow),
		cmocka_unit_test(test_multi_segment_tx),
		cmocka_unit_test(test_rx_ptype_cksum),
		cmocka_unit_test(test_rx_error_recovery),
		cmocka_unit_test(test_flow_engine_null),
		cmocka_unit_test(test_flush_walks_pool),
		cmocka_unit_test(test_pair_topology_and_wire_drops),
		cmocka_unit_test(test_doorbell_batch_peer),
		cmocka_unit_test(test_icm_resident),
		cmocka_unit_test(test_template_table_icm),
		cmocka_unit_test(test_template_table_bound_at_start),
		cmocka_unit_test(test_lib_memory_in_dpdk_heap),
		cmocka_unit_test(test_reconfigure),
		cmocka_unit_test(test_no_leak_across_lifecycle),
		cmocka_unit_test(test_priv_dump),
	};

	return cmocka_run_group_tests_name("pmd_ethdev", tests, setup, teardown);
}
