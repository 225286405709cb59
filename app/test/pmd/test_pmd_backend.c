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
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_log.h>
#include <rte_mbuf.h>

#include <rte_flow.h>
#include <rte_malloc.h>

#include <ethdev_driver.h>

#include <rte_pmd_mlx5dm.h>
#include "mlx5dm.h"
#include "mlx5dm_flow.h"
#include "mlx5dm_flow_template.h"
#include "mlx5dm_osdep.h"
#include "mlx5dm_send_priv.h"
#include "mlx5dm_steer_priv.h"
#include "pmd_env.h"
#include "mlx5dm_sim.h"
#include "mlx5dm_sim_core.h"

static struct rte_mempool *pool;

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

/* Whether an IPv4/UDP frame to 10.0.0.d comes back through the loop (else it was dropped). */
static bool
frame_received(uint16_t port, uint8_t d)
{
	static const uint8_t hdr[34] = {
		0x02, 0, 0, 0, 0, 1, 0x02, 0, 0, 0, 0, 2, 0x08, 0x00,
		0x45, 0, 0, 50, 0, 0, 0, 0, 64, 17, 0, 0, 10, 0, 0, 1, 10, 0, 0, 0,
	};
	uint64_t deadline = rte_get_timer_cycles() + 5 * rte_get_timer_hz();
	struct rte_mbuf *m;
	unsigned int got = 0;
	uint8_t *b;
	int k = 0;

	m = rte_pktmbuf_alloc(pool);
	assert_non_null(m);
	assert_non_null(rte_pktmbuf_append(m, 64));
	b = rte_pktmbuf_mtod(m, uint8_t *);
	memcpy(b, hdr, sizeof(hdr));
	memset(b + sizeof(hdr), 0, 64 - sizeof(hdr));
	b[33] = d;
	b[35] = 1;      /* UDP ports 1 -> 2, length 30 */
	b[37] = 2;
	b[39] = 30;
	assert_int_equal(rte_eth_tx_burst(port, 0, &m, 1), 1);
	/* Done on Tx: delivered to an Rx queue or dropped by then. */
	while (k == 0 && rte_get_timer_cycles() < deadline) {
		k = rte_eth_tx_done_cleanup(port, 0, 0);
		assert_true(k >= 0);
	}
	assert_int_equal(k, 1);
	while (rte_eth_rx_burst(port, 0, &m, 1) == 1) {
		got++;
		rte_pktmbuf_free(m);
	}
	return got != 0;
}

/* The rule of tbl dropping what goes to 10.0.0.d, created on flow queue 0 and checked. */
static struct rte_flow *
drop_rule(uint16_t port, struct rte_flow_template_table *tbl, uint8_t d)
{
	struct rte_flow *f = ipv4_dst_rule(port, tbl, rte_cpu_to_be_32(0x0a000000 | d));

	assert_false(frame_received(port, d));
	return f;
}

/* A started port with one flow queue and a group-0 table of DROP rules on the IPv4 destination. */
struct drop_table {
	const char *name;
	uint16_t port;
	struct rte_flow_pattern_template *pt;
	struct rte_flow_actions_template *at;
	struct rte_flow_template_table *tbl;
};

static const struct rte_flow_action drop_actions[] = {
	{ .type = RTE_FLOW_ACTION_TYPE_DROP }, { .type = RTE_FLOW_ACTION_TYPE_END },
};

/* As drop_table_open(), with a flow queue of size operations. */
static void
drop_table_open_sized(struct drop_table *t, const char *name, uint32_t size)
{
	const struct rte_flow_queue_attr qa = { .size = size };
	const struct rte_flow_queue_attr *qas[] = { &qa };
	const struct rte_flow_port_attr pa = { 0 };
	const struct rte_flow_template_table_attr ta = {
		.flow_attr = { .group = 0, .ingress = 1 }, .nb_flows = 1024,
	};
	struct rte_eth_conf conf = { 0 };
	struct rte_flow_error err;

	t->name = name;
	assert_int_equal(rte_vdev_init(name, NULL), 0);
	t->port = port_by_name(name);
	assert_true(t->port < RTE_MAX_ETHPORTS);
	assert_int_equal(rte_eth_dev_configure(t->port, 1, 1, &conf), 0);
	assert_int_equal(rte_eth_rx_queue_setup(t->port, 0, 512, 0, NULL, pool), 0);
	assert_int_equal(rte_eth_tx_queue_setup(t->port, 0, 512, 0, NULL), 0);
	assert_int_equal(rte_flow_configure(t->port, &pa, 1, qas, &err), 0);
	assert_int_equal(rte_eth_dev_start(t->port), 0);
	t->pt = ipv4_dst_template(t->port);
	t->at = drop_template(t->port);
	t->tbl = rte_flow_template_table_create(t->port, &ta, &t->pt, 1, &t->at, 1, &err);
	assert_non_null(t->tbl);
}

static void
drop_table_open(struct drop_table *t, const char *name)
{
	drop_table_open_sized(t, name, 64);
}

/* The table and its templates go; the port stays started (once: tbl NULL then). */
static void
drop_table_destroy(struct drop_table *t)
{
	struct rte_flow_error err;

	if (t->tbl == NULL)
		return;
	assert_int_equal(rte_flow_template_table_destroy(t->port, t->tbl, &err), 0);
	assert_int_equal(rte_flow_actions_template_destroy(t->port, t->at, &err), 0);
	assert_int_equal(rte_flow_pattern_template_destroy(t->port, t->pt, &err), 0);
	t->tbl = NULL;
}

static void
drop_table_close(struct drop_table *t)
{
	drop_table_destroy(t);
	assert_int_equal(rte_eth_dev_stop(t->port), 0);
	assert_int_equal(rte_eth_dev_close(t->port), 0);
	assert_int_equal(rte_vdev_uninit(t->name), 0);
}

/* The postponed creation on flow queue 0 of t's rule dropping what goes to 10.0.0.d. */
static struct rte_flow *
drop_rule_later(struct drop_table *t, uint32_t d, void *user_data)
{
	const struct rte_flow_op_attr later = { .postpone = 1 };
	const struct rte_flow_item_ipv4 ip = { .hdr.dst_addr = rte_cpu_to_be_32(0x0a000000 | d) };
	const struct rte_flow_item rule[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_IPV4, .spec = &ip },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_error err;

	return rte_flow_async_create(t->port, 0, &later, t->tbl, rule, 0, drop_actions, 0,
				     user_data, &err);
}

/*
 * Fail ring as a ConnectX fails a QP: a write past the end of the STE ICM
 * DM its key names (the model's own range check makes it a remote access
 * error); the drain finds the ring in error.
 */
static void
ring_fail_posted(struct mlx5dm_send_ring *ring)
{
	uint8_t line[64];

	memset(line, 0xee, sizeof(line));
	assert_int_equal(mlx5dm_send_write(ring, ring->last_raddr + (1ull << 40),
					   ring->last_rkey, line, sizeof(line)), 0);
}

static void
ring_fail(struct mlx5dm_send_ring *ring)
{
	ring_fail_posted(ring);
	assert_int_equal(mlx5dm_send_drain(ring), -EIO);
}

/*
 * rte_flow_destroy() on the calling lcore's rule queue in error: refused
 * (EIO), the flow kept and steering, the queue brought back; the destroy
 * made again succeeds and the flow's ICM returns to the pool.
 */
static void
sync_refused_destroy(uint16_t port)
{
	static const struct rte_flow_attr attr = { .ingress = 1 };
	const struct rte_flow_item_ipv4 ip = { .hdr.dst_addr = RTE_BE32(0x0a000003) };
	const struct rte_flow_item_ipv4 ip_mask = { .hdr.dst_addr = RTE_BE32(0xffffffff) };
	const struct rte_flow_item rule[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_IPV4, .spec = &ip, .mask = &ip_mask },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	const struct rte_flow_action drop[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_DROP }, { .type = RTE_FLOW_ACTION_TYPE_END },
	};
	struct mlx5dm_priv *priv = rte_eth_devices[port].data->dev_private;
	struct mlx5dm_flow_priv *fp = mlx5dm_flow_port_fp(&rte_eth_devices[port]);
	struct mlx5dm_queue_stats qs;
	struct rte_flow_error err;
	uint64_t icm, rules;
	rte_spinlock_t *lock;
	struct rte_flow *s;
	uint16_t q;

	assert_int_equal(mlx5dm_domain_sync(priv->dom_rx, MLX5DM_SYNC_MEM), 0);
	icm = xstat(port, "steer_icm_used_bytes");
	s = rte_flow_create(port, &attr, rule, drop, &err);
	assert_non_null(s);
	assert_false(frame_received(port, 3));
	rules = xstat(port, "steer_rules");
	q = mlx5dm_flow_queue_of(fp, &lock);
	ring_fail(priv->steer->queues[q].ring);
	assert_int_equal(rte_flow_destroy(port, s, &err), -EIO);
	assert_int_equal(rte_errno, EIO);
	assert_non_null(strstr(err.message, "in error"));
	assert_int_equal(xstat(port, "steer_rules"), rules);
	assert_false(frame_received(port, 3));
	assert_int_equal(mlx5dm_queue_stats_get(priv->steer, q, &qs), 0);
	assert_int_equal(qs.error, 0);
	assert_int_equal(qs.recoveries, 1);
	assert_int_equal(rte_flow_destroy(port, s, &err), 0);
	assert_true(frame_received(port, 3));
	assert_int_equal(rte_flow_destroy(port, s, &err), -EINVAL);
	assert_int_equal(mlx5dm_domain_sync(priv->dom_rx, MLX5DM_SYNC_MEM), 0);
	assert_int_equal(xstat(port, "steer_icm_used_bytes"), icm);
}

/*
 * A flow queue's rule queue whose QP fails: a write past the end of the
 * STE ICM DM its key names (the model's own range check makes it fail as a
 * ConnectX does, a remote access error) is posted on the rule queue, then
 * rules are created through the flow queue. Those the device lost come
 * back from rte_flow_pull() as RTE_FLOW_OP_ERROR with their user data;
 * their ICM and records are back; the rule in place keeps dropping its
 * traffic, the lost ones steer nothing, and the queue takes rules again.
 */
static void
test_async_ring_recovery(void **state)
{
	const struct rte_flow_op_attr now = { .postpone = 0 };
	struct rte_flow_op_result res[8];
	struct rte_flow *f1, *f[4], *g;
	struct mlx5dm_flow_priv *fp;
	struct mlx5dm_send_ring *ring;
	struct mlx5dm_priv *priv;
	struct mlx5dm_queue_stats qs;
	struct rte_flow_error err;
	struct drop_table t;
	uint64_t icm1, rules1, left = mlx5dm_sim_left_behind();
	unsigned int i, made = 0;
	uint16_t port, lq;
	int n;

	(void)state;
	drop_table_open(&t, "net_mlx5dm5");
	port = t.port;
	f1 = drop_rule(port, t.tbl, 1);
	assert_true(frame_received(port, 2));
	icm1 = xstat(port, "steer_icm_used_bytes");
	rules1 = xstat(port, "steer_rules");
	/* The flow queue's rule queue; its last write went to STE ICM. */
	priv = rte_eth_devices[port].data->dev_private;
	fp = mlx5dm_flow_port_fp(&rte_eth_devices[port]);
	lq = (uint16_t)(fp->port.tmpl + 0 % fp->port.nb_tmpl);
	ring = priv->steer->queues[lq].ring;
	ring_fail_posted(ring);
	for (i = 0; i < RTE_DIM(f); i++) {
		f[i] = drop_rule_later(&t, (uint8_t)(2 + i), (void *)(uintptr_t)(0x100 + i));
		/* Refused at once once the device reported the failure (EIO). */
		if (f[i] == NULL)
			assert_int_equal(rte_errno, EIO);
		made += f[i] != NULL;
	}
	assert_int_equal(rte_flow_push(port, 0, &err), 0);
	n = (int)pull_results(port, 0, res, made);
	assert_int_equal(n, (int)made);
	for (i = 0; i < made; i++) {
		assert_int_equal(res[i].status, RTE_FLOW_OP_ERROR);
		assert_ptr_equal(res[i].user_data, (void *)(uintptr_t)(0x100 + i));
	}
	assert_int_equal(mlx5dm_queue_stats_get(priv->steer, lq, &qs), 0);
	assert_int_equal(qs.error, 0);
	assert_int_equal(qs.err_syndrome, 0x13);
	assert_int_equal(qs.recoveries, 1);
	/* The lost rules' ICM and records are back; the one in place steers. */
	assert_int_equal(xstat(port, "steer_icm_used_bytes"), icm1);
	assert_int_equal(xstat(port, "steer_rules"), rules1);
	assert_false(frame_received(port, 1));
	for (i = 0; i < RTE_DIM(f); i++)
		assert_true(frame_received(port, (uint8_t)(2 + i)));
	/* The queue takes rules again. */
	g = drop_rule(port, t.tbl, 2);
	/*
	 * A destroy on the rule queue known to be in error is refused: no
	 * result, the flow kept and steering; the queue is brought back, so
	 * the same destroy then succeeds.
	 */
	ring_fail(ring);
	rules1 = xstat(port, "steer_rules");
	memset(&err, 0, sizeof(err));
	assert_int_equal(rte_flow_async_destroy(port, 0, &now, g, NULL, &err), -EIO);
	assert_int_equal(rte_errno, EIO);
	assert_int_equal(err.type, RTE_FLOW_ERROR_TYPE_HANDLE);
	assert_non_null(strstr(err.message, "in error"));
	assert_int_equal(rte_flow_pull(port, 0, res, RTE_DIM(res), &err), 0);
	assert_int_equal(xstat(port, "steer_rules"), rules1);
	assert_false(frame_received(port, 2));
	assert_int_equal(mlx5dm_queue_stats_get(priv->steer, lq, &qs), 0);
	assert_int_equal(qs.error, 0);
	assert_int_equal(qs.recoveries, 2);
	assert_int_equal(rte_flow_async_destroy(port, 0, &now, g, NULL, &err), 0);
	assert_int_equal(rte_flow_async_destroy(port, 0, &now, f1, NULL, &err), 0);
	assert_int_equal(pull_results(port, 0, res, 2), 2);
	assert_int_equal(res[0].status, RTE_FLOW_OP_SUCCESS);
	assert_int_equal(res[1].status, RTE_FLOW_OP_SUCCESS);
	assert_true(frame_received(port, 1));
	assert_true(frame_received(port, 2));
	/* A second destroy of a destroyed flow is an unknown handle. */
	assert_int_equal(rte_flow_async_destroy(port, 0, &now, g, NULL, &err), -EINVAL);
	/*
	 * A destruction the rule queue loses after the call returned (the
	 * failing write is ahead of its unlink): the pull brings the queue
	 * back, whose recovery writes the unlink again, so the destruction is
	 * pulled as a success, only once the unlink written again executed:
	 * the flow no longer steers when its result is out; its ICM returns.
	 */
	assert_int_equal(mlx5dm_domain_sync(priv->dom_rx, MLX5DM_SYNC_MEM), 0);
	icm1 = xstat(port, "steer_icm_used_bytes");
	g = drop_rule(port, t.tbl, 3);
	ring_fail_posted(ring);
	assert_int_equal(rte_flow_async_destroy(port, 0, &now, g, (void *)0x300, &err), 0);
	assert_int_equal(pull_results(port, 0, res, 1), 1);
	assert_int_equal(res[0].status, RTE_FLOW_OP_SUCCESS);
	assert_ptr_equal(res[0].user_data, (void *)0x300);
	assert_int_equal(mlx5dm_queue_stats_get(priv->steer, lq, &qs), 0);
	assert_int_equal(qs.recoveries, 3);
	assert_int_equal(qs.unlinks_redone, 1);
	assert_true(frame_received(port, 3));
	assert_int_equal(mlx5dm_domain_sync(priv->dom_rx, MLX5DM_SYNC_MEM), 0);
	assert_int_equal(xstat(port, "steer_icm_used_bytes"), icm1);
	drop_table_destroy(&t);
	sync_refused_destroy(port);
	drop_table_close(&t);
	assert_int_equal(mlx5dm_sim_left_behind(), left);
}

#define PULL_RULES 6

/*
 * rte_flow_pull() waits for nothing: with the model's device stopped (its
 * thread held off the model's lock), the creations pushed have not
 * executed and a pull returns none of them; once the device runs, pulls
 * return them all, in order with their user data, and each pulled rule
 * drops its frames. A destruction pushed on the stopped device is not
 * pulled either; once pulled, its rule's frames pass again.
 */
static void
test_async_pull_no_wait(void **state)
{
	const struct rte_flow_op_attr later = { .postpone = 1 };
	struct rte_flow_op_result res[PULL_RULES];
	struct rte_flow *f0, *f[PULL_RULES];
	struct mlx5dm_priv *priv;
	struct rte_flow_error err;
	struct drop_table t;
	struct mlx5dm_sim *sim;
	unsigned int i;
	uint64_t rules0;
	uint16_t port;

	(void)state;
	drop_table_open(&t, "net_mlx5dm7");
	port = t.port;
	rules0 = xstat(port, "steer_rules");
	/* The table's matcher is made by its first rule (and waits for the device). */
	f0 = drop_rule(port, t.tbl, 1);
	priv = rte_eth_devices[port].data->dev_private;
	sim = mlx5dm_sim_of(priv->dev);
	/* The device stops. */
	assert_int_equal(pthread_rwlock_wrlock(&sim->lock), 0);
	for (i = 0; i < PULL_RULES; i++) {
		f[i] = drop_rule_later(&t, (uint8_t)(2 + i), (void *)(uintptr_t)(0x200 + i));
		assert_non_null(f[i]);
	}
	assert_int_equal(rte_flow_push(port, 0, &err), 0);
	assert_int_equal(rte_flow_pull(port, 0, res, RTE_DIM(res), &err), 0);
	assert_int_equal(rte_flow_pull(port, 0, res, RTE_DIM(res), &err), 0);
	/* The device runs again: every result, in order. */
	assert_int_equal(pthread_rwlock_unlock(&sim->lock), 0);
	assert_int_equal(pull_results(port, 0, res, PULL_RULES), PULL_RULES);
	for (i = 0; i < PULL_RULES; i++) {
		assert_int_equal(res[i].status, RTE_FLOW_OP_SUCCESS);
		assert_ptr_equal(res[i].user_data, (void *)(uintptr_t)(0x200 + i));
		assert_false(frame_received(port, (uint8_t)(2 + i)));
	}
	assert_true(frame_received(port, (uint8_t)(2 + PULL_RULES)));
	/* A destruction: not pulled while the device is stopped. */
	assert_int_equal(pthread_rwlock_wrlock(&sim->lock), 0);
	assert_int_equal(rte_flow_async_destroy(port, 0, &later, f[0], (void *)0x300, &err), 0);
	assert_int_equal(rte_flow_push(port, 0, &err), 0);
	assert_int_equal(rte_flow_pull(port, 0, res, RTE_DIM(res), &err), 0);
	assert_int_equal(pthread_rwlock_unlock(&sim->lock), 0);
	assert_int_equal(pull_results(port, 0, res, 1), 1);
	assert_int_equal(res[0].status, RTE_FLOW_OP_SUCCESS);
	assert_ptr_equal(res[0].user_data, (void *)0x300);
	assert_true(frame_received(port, 2));
	assert_false(frame_received(port, 3));
	for (i = 1; i < PULL_RULES; i++)
		assert_int_equal(rte_flow_async_destroy(port, 0, &later, f[i], NULL, &err), 0);
	assert_int_equal(rte_flow_async_destroy(port, 0, &later, f0, NULL, &err), 0);
	assert_int_equal(rte_flow_push(port, 0, &err), 0);
	assert_int_equal(pull_results(port, 0, res, PULL_RULES), PULL_RULES);
	assert_int_equal(xstat(port, "steer_rules"), rules0);
	drop_table_close(&t);
}

#define DEEP_QUEUE 512u

/*
 * A flow queue of DEEP_QUEUE operations has a send ring that holds them:
 * with the device stopped, that many creations are posted and none waits
 * for room in the ring (which would stall until the ring failed); the
 * rule queues of the synchronous path keep their size. A flow queue size
 * the rings cannot hold (above rte_flow_info_get()'s max_size), or none,
 * is refused and the rings stay as they were.
 */
static void
test_async_ring_sized(void **state)
{
	const struct rte_flow_queue_attr big = { .size = MLX5DM_QUEUE_MAX_OPS + 1 };
	const struct rte_flow_queue_attr none = { .size = 0 };
	const struct rte_flow_queue_attr small = { .size = 64 };
	const struct rte_flow_queue_attr *qas[] = { &big };
	const struct rte_flow_port_attr pa = { 0 };
	struct rte_flow_op_result res[DEEP_QUEUE];
	struct rte_flow *f[DEEP_QUEUE];
	struct mlx5dm_queue_stats qs;
	struct mlx5dm_priv *priv;
	struct rte_flow_error err;
	struct drop_table t;
	struct mlx5dm_sim *sim;
	uint64_t full_waits;
	unsigned int i;
	uint16_t port, lq;

	(void)state;
	drop_table_open_sized(&t, "net_mlx5dm8", DEEP_QUEUE);
	port = t.port;
	priv = rte_eth_devices[port].data->dev_private;
	sim = mlx5dm_sim_of(priv->dev);
	lq = priv->rule_queue_tmpl;
	assert_int_equal(mlx5dm_queue_stats_get(priv->steer, lq, &qs), 0);
	assert_true(qs.size >= DEEP_QUEUE * MLX5DM_QUEUE_OP_WQEBB);
	assert_int_equal(mlx5dm_queue_stats_get(priv->steer, priv->rule_queue_any, &qs), 0);
	assert_int_equal(qs.size, 1u << MLX5DM_SEND_LOG_SQ_WQEBB);
	/* The table's matcher is made by its first rule (and waits for the device). */
	f[0] = drop_rule(port, t.tbl, 1);
	assert_int_equal(mlx5dm_queue_stats_get(priv->steer, lq, &qs), 0);
	full_waits = qs.full_waits;
	assert_int_equal(pthread_rwlock_wrlock(&sim->lock), 0);
	for (i = 1; i < DEEP_QUEUE; i++) {
		f[i] = drop_rule_later(&t, 0x10000 + i, NULL);
		assert_non_null(f[i]);
	}
	assert_int_equal(rte_flow_push(port, 0, &err), 0);
	assert_int_equal(mlx5dm_queue_stats_get(priv->steer, lq, &qs), 0);
	assert_int_equal(qs.full_waits, full_waits);
	assert_int_equal(qs.error, 0);
	assert_int_equal(pthread_rwlock_unlock(&sim->lock), 0);
	assert_int_equal(pull_results(port, 0, res, DEEP_QUEUE - 1), DEEP_QUEUE - 1);
	for (i = 0; i < DEEP_QUEUE - 1; i++)
		assert_int_equal(res[i].status, RTE_FLOW_OP_SUCCESS);
	for (i = 0; i < DEEP_QUEUE; i++)
		assert_int_equal(rte_flow_async_destroy(port, 0, NULL, f[i], NULL, &err), 0);
	assert_int_equal(rte_flow_push(port, 0, &err), 0);
	assert_int_equal(pull_results(port, 0, res, DEEP_QUEUE), DEEP_QUEUE);
	/*
	 * Refused configures change nothing (the port stopped: ethdev refuses
	 * any configure of a started one): sizes the rings cannot hold or no
	 * size, and a configure while a template table exists.
	 */
	assert_int_equal(rte_eth_dev_stop(port), 0);
	assert_int_equal(rte_flow_configure(port, &pa, 1, qas, &err), -EINVAL);
	qas[0] = &none;
	assert_int_equal(rte_flow_configure(port, &pa, 1, qas, &err), -EINVAL);
	qas[0] = &small;
	assert_int_equal(rte_flow_configure(port, &pa, 1, qas, &err), -EBUSY);
	assert_int_equal(mlx5dm_queue_stats_get(priv->steer, lq, &qs), 0);
	assert_true(qs.size >= DEEP_QUEUE * MLX5DM_QUEUE_OP_WQEBB);
	drop_table_close(&t);
}

/* A rule of transfer table tbl: frames to MAC dst, JUMP (to group unless the template's). */
static struct rte_flow *
esw_jump_rule(uint16_t port, struct rte_flow_template_table *tbl, uint8_t at, uint8_t dst,
	      uint32_t group)
{
	const struct rte_flow_op_attr now = { .postpone = 0 };
	struct rte_flow_item_eth eth = { .hdr.dst_addr.addr_bytes = { 2, 0, 0, 0, 0, dst } };
	struct rte_flow_action_jump to = { .group = group };
	const struct rte_flow_item pattern[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH, .spec = &eth },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	const struct rte_flow_action actions[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_JUMP, .conf = &to },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	struct rte_flow_error err;

	return rte_flow_async_create(port, 0, &now, tbl, pattern, 0, actions, at, NULL, &err);
}

/*
 * The tails of the FDB groups transfer template rules jump to (a group
 * the template fixes, and groups each rule chooses) through the manager's
 * stop/start cycles, with rules in place at each stop, and through a
 * rule whose writes the device lost (its flow queue's rule queue failed):
 * the lost rule's tail goes with it, every stop takes the rules before
 * their tails, and the close leaves no object on the device.
 */
static void
test_esw_template_tails(void **state)
{
	static const char * const names[] = {
		"net_mlx5dm4", "net_mlx5dm4_representor_vf0", "net_mlx5dm4_representor_vf1",
	};
	static const struct rte_flow_item_eth dst_mask = {
		.hdr.dst_addr.addr_bytes = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },
	};
	const struct rte_flow_item items[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH, .mask = &dst_mask },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	const struct rte_flow_action_jump to_2 = { .group = 2 };
	const struct rte_flow_action own[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_JUMP },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	const struct rte_flow_action fixed[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_JUMP, .conf = &to_2 },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	const struct rte_flow_queue_attr qa = { .size = 16 };
	const struct rte_flow_queue_attr *qas[] = { &qa };
	const struct rte_flow_port_attr pa = { 0 };
	const struct rte_flow_pattern_template_attr pta = { .transfer = 1 };
	const struct rte_flow_actions_template_attr ata = { .transfer = 1 };
	const struct rte_flow_template_table_attr ta = {
		.flow_attr = { .transfer = 1 }, .nb_flows = 16,
	};
	struct rte_flow_actions_template *at[2];
	struct rte_flow_pattern_template *pt;
	struct rte_flow_template_table *tbl;
	struct rte_eth_conf conf = { 0 };
	struct rte_flow_op_result res[4];
	struct mlx5dm_send_ring *ring;
	struct mlx5dm_flow_priv *fp;
	struct mlx5dm_priv *priv;
	struct rte_flow_error err;
	uint64_t left = mlx5dm_sim_left_behind(), matchers, rules, matchers0 = 0, rules0 = 0;
	size_t heap = heap_allocated();
	struct rte_flow *lost;
	uint16_t ports[RTE_DIM(names)], lq;
	unsigned int i, round;
	uint8_t line[64];
	int n;

	(void)state;
	assert_int_equal(rte_vdev_init(names[0], "representor=vf[0-1]"), 0);
	for (i = 0; i < RTE_DIM(names); i++) {
		ports[i] = port_by_name(names[i]);
		assert_true(ports[i] < RTE_MAX_ETHPORTS);
		assert_int_equal(rte_eth_dev_configure(ports[i], 1, 1, &conf), 0);
		assert_int_equal(rte_eth_rx_queue_setup(ports[i], 0, 64, 0, NULL, pool), 0);
		assert_int_equal(rte_eth_tx_queue_setup(ports[i], 0, 64, 0, NULL), 0);
	}
	assert_int_equal(rte_flow_configure(ports[0], &pa, 1, qas, &err), 0);
	for (i = 0; i < RTE_DIM(names); i++)
		assert_int_equal(rte_eth_dev_start(ports[i]), 0);
	pt = rte_flow_pattern_template_create(ports[0], &pta, items, &err);
	assert_non_null(pt);
	at[0] = rte_flow_actions_template_create(ports[0], &ata, own, own, &err);
	assert_non_null(at[0]);
	at[1] = rte_flow_actions_template_create(ports[0], &ata, fixed, fixed, &err);
	assert_non_null(at[1]);
	tbl = rte_flow_template_table_create(ports[0], &ta, &pt, 1, at, 2, &err);
	assert_non_null(tbl);
	for (round = 0; round < 3; round++) {
		assert_non_null(esw_jump_rule(ports[0], tbl, 0, 1, 3 + round));
		assert_non_null(esw_jump_rule(ports[0], tbl, 0, 2, 3 + round));
		assert_non_null(esw_jump_rule(ports[0], tbl, 1, 3, 0));
		assert_int_equal(pull_results(ports[0], 0, res, 3), 3);
		matchers = xstat(ports[0], "steer_matchers");
		rules = xstat(ports[0], "steer_rules");
		if (round == 1) {
			/* A write past the end of the STE ICM fails the flow queue's rule queue. */
			priv = rte_eth_devices[ports[0]].data->dev_private;
			fp = mlx5dm_flow_port_fp(&rte_eth_devices[ports[0]]);
			lq = (uint16_t)(fp->port.tmpl + 0 % fp->port.nb_tmpl);
			ring = priv->steer->queues[lq].ring;
			memset(line, 0xee, sizeof(line));
			assert_int_equal(mlx5dm_send_write(ring, ring->last_raddr + (1ull << 40),
							   ring->last_rkey, line, sizeof(line)), 0);
			/* Group 9 has no rule: the lost rule's is its tail. */
			lost = esw_jump_rule(ports[0], tbl, 0, 4, 9);
			n = (int)pull_results(ports[0], 0, res, lost != NULL);
			assert_int_equal(n, lost != NULL);
			if (n == 1)
				assert_int_equal(res[0].status, RTE_FLOW_OP_ERROR);
			assert_int_equal(xstat(ports[0], "steer_matchers"), matchers);
			assert_int_equal(xstat(ports[0], "steer_rules"), rules);
		}
		assert_int_equal(rte_eth_dev_stop(ports[0]), 0);
		assert_int_equal(rte_eth_dev_start(ports[0]), 0);
		/* Each restart finds the FDB as the first did: no tail left from before. */
		if (round == 0) {
			matchers0 = xstat(ports[0], "steer_matchers");
			rules0 = xstat(ports[0], "steer_rules");
		}
		assert_int_equal(xstat(ports[0], "steer_matchers"), matchers0);
		assert_int_equal(xstat(ports[0], "steer_rules"), rules0);
	}
	assert_int_equal(rte_flow_template_table_destroy(ports[0], tbl, &err), 0);
	assert_int_equal(rte_flow_actions_template_destroy(ports[0], at[0], &err), 0);
	assert_int_equal(rte_flow_actions_template_destroy(ports[0], at[1], &err), 0);
	assert_int_equal(rte_flow_pattern_template_destroy(ports[0], pt, &err), 0);
	for (i = RTE_DIM(names); i-- > 0;)
		assert_int_equal(rte_eth_dev_stop(ports[i]), 0);
	assert_int_equal(rte_vdev_uninit(names[0]), 0);
	assert_int_equal(mlx5dm_sim_left_behind(), left);
	assert_int_equal(heap_allocated(), heap);
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
		cmocka_unit_test(test_async_ring_recovery),
		cmocka_unit_test(test_async_pull_no_wait),
		cmocka_unit_test(test_async_ring_sized),
		cmocka_unit_test(test_esw_template_tails),
	};

	return cmocka_run_group_tests_name("pmd_backend", tests, setup, teardown);
}
