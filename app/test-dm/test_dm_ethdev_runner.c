/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_flow.h>
#include <rte_mbuf.h>

#include <rte_pmd_mlx5dm.h>

#include "test_dm_ethdev_runner.h"

#define TEST_DM_ER_DESC 512
#define TEST_DM_ER_BURST 32

struct test_dm_ethdev_runner {
	struct rte_mempool *mp;
	uint64_t wait_cycles;
	uint16_t nb_rxq;
	uint16_t ports[RTE_MAX_ETHPORTS];
	uint16_t peer[RTE_MAX_ETHPORTS];
	uint8_t started[RTE_MAX_ETHPORTS];
	unsigned int nb_ports;
};

static int
test_dm_er_port_setup(struct test_dm_ethdev_runner *er, uint16_t port, char *msg, size_t size)
{
	struct rte_eth_conf conf = { 0 };
	struct rte_eth_dev_info info;
	uint16_t q;
	int ret;

	ret = rte_eth_dev_info_get(port, &info);
	if (ret == 0 && er->nb_rxq > info.max_rx_queues)
		ret = -EINVAL;
	if (ret != 0) {
		snprintf(msg, size, "port %u: %u Rx queues not available", port, er->nb_rxq);
		return ret;
	}
	/* Unmatched traffic is spread by the port's RSS, as the cases expect. */
	if (er->nb_rxq > 1 && info.flow_type_rss_offloads != 0) {
		conf.rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
		conf.rx_adv_conf.rss_conf.rss_hf = info.flow_type_rss_offloads &
			(RTE_ETH_RSS_IP | RTE_ETH_RSS_TCP | RTE_ETH_RSS_UDP);
	}
	if (er->started[port])
		rte_eth_dev_stop(port);
	er->started[port] = 0;
	ret = rte_eth_dev_configure(port, er->nb_rxq, 1, &conf);
	for (q = 0; ret == 0 && q < er->nb_rxq; q++)
		ret = rte_eth_rx_queue_setup(port, q, TEST_DM_ER_DESC, rte_eth_dev_socket_id(port),
					     NULL, er->mp);
	if (ret == 0)
		ret = rte_eth_tx_queue_setup(port, 0, TEST_DM_ER_DESC,
					     rte_eth_dev_socket_id(port), NULL);
	if (ret == 0)
		ret = rte_eth_dev_start(port);
	er->started[port] = ret == 0;
	if (ret != 0)
		snprintf(msg, size, "port %u: set-up failed: %s", port, strerror(-ret));
	return ret;
}

static void
test_dm_er_drain(struct test_dm_ethdev_runner *er)
{
	struct rte_mbuf *m[TEST_DM_ER_BURST];
	unsigned int i;
	uint16_t q, n;

	for (i = 0; i < er->nb_ports; i++)
		for (q = 0; q < er->nb_rxq; q++)
			while ((n = rte_eth_rx_burst(er->ports[i], q, m, TEST_DM_ER_BURST)) > 0)
				rte_pktmbuf_free_bulk(m, n);
}

static int
test_dm_er_begin(void *ctx, const struct test_dm_case *c, char *msg, size_t size)
{
	struct test_dm_ethdev_runner *er = ctx;
	struct rte_flow_error e;
	unsigned int i;
	int ret;

	er->nb_rxq = c->nb_queues;
	for (i = 0; i < er->nb_ports; i++) {
		ret = test_dm_er_port_setup(er, er->ports[i], msg, size);
		if (ret != 0)
			return ret;
		rte_flow_flush(er->ports[i], &e);
	}
	test_dm_er_drain(er);
	return 0;
}

static void
test_dm_er_end(void *ctx)
{
	test_dm_er_drain(ctx);
}

static int
test_dm_er_create(void *ctx, const struct test_dm_flow_cmd *cmd, void **handle,
		  struct rte_flow_error *error)
{
	RTE_SET_USED(ctx);
	*handle = rte_flow_create(cmd->port, &cmd->attr, cmd->pattern, cmd->actions, error);
	return *handle != NULL ? 0 : -rte_errno;
}

static int
test_dm_er_validate(void *ctx, const struct test_dm_flow_cmd *cmd, struct rte_flow_error *error)
{
	RTE_SET_USED(ctx);
	return rte_flow_validate(cmd->port, &cmd->attr, cmd->pattern, cmd->actions, error);
}

static int
test_dm_er_destroy(void *ctx, uint16_t port, void *handle, struct rte_flow_error *error)
{
	RTE_SET_USED(ctx);
	return rte_flow_destroy(port, handle, error);
}

static int
test_dm_er_flush(void *ctx, uint16_t port, struct rte_flow_error *error)
{
	RTE_SET_USED(ctx);
	return rte_flow_flush(port, error);
}

static int
test_dm_er_query(void *ctx, uint16_t port, void *handle, struct rte_flow_query_count *q,
		 struct rte_flow_error *error)
{
	static const struct rte_flow_action count[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_COUNT },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};

	RTE_SET_USED(ctx);
	return rte_flow_query(port, handle, count, q, error);
}

static int
test_dm_er_record(struct test_dm_rx *rx, uint16_t port, uint16_t queue, struct rte_mbuf *m)
{
	const void *src;

	rx->data = malloc(m->pkt_len != 0 ? m->pkt_len : 1);
	if (rx->data == NULL)
		return -ENOMEM;
	/* Copies into data only when the packet is segmented. */
	src = rte_pktmbuf_read(m, 0, m->pkt_len, rx->data);
	if (src != NULL && src != rx->data)
		memcpy(rx->data, src, m->pkt_len);
	rx->received = 1;
	rx->port = port;
	rx->queue = queue;
	rx->len = m->pkt_len;
	rx->fdir = (m->ol_flags & RTE_MBUF_F_RX_FDIR) != 0;
	rx->fdir_id = (m->ol_flags & RTE_MBUF_F_RX_FDIR_ID) != 0;
	rx->mark = rx->fdir_id ? m->hash.fdir.hi : 0;
	return 0;
}

/* Look for the packet on every queue of every port until it shows up or time runs out. */
static int
test_dm_er_collect(struct test_dm_ethdev_runner *er, struct test_dm_rx *rx)
{
	uint64_t deadline = rte_get_timer_cycles() + er->wait_cycles;
	struct rte_mbuf *m[TEST_DM_ER_BURST];
	unsigned int i, extra = 0;
	uint16_t q, n, k;
	int ret = 0;

	do {
		for (i = 0; i < er->nb_ports; i++) {
			for (q = 0; q < er->nb_rxq; q++) {
				n = rte_eth_rx_burst(er->ports[i], q, m, TEST_DM_ER_BURST);
				for (k = 0; k < n; k++) {
					if (!rx->received && ret == 0)
						ret = test_dm_er_record(rx, er->ports[i], q, m[k]);
					else
						extra++;
				}
				rte_pktmbuf_free_bulk(m, n);
			}
		}
	} while (!rx->received && ret == 0 && rte_get_timer_cycles() < deadline);
	/* One packet sent, more than one received: the device duplicated it. */
	return ret < 0 ? ret : extra == 0 ? 0 : -EIO;
}

static int
test_dm_er_send(void *ctx, uint16_t port, const struct test_dm_pktlist *pkts,
		struct test_dm_rx *rx)
{
	struct test_dm_ethdev_runner *er = ctx;
	struct rte_mbuf *m;
	unsigned int k;
	int ret;

	if (!rte_eth_dev_is_valid_port(port) || !er->started[port])
		return -ENODEV;
	for (k = 0; k < pkts->n; k++) {
		memset(&rx[k], 0, sizeof(rx[k]));
		m = rte_pktmbuf_alloc(er->mp);
		if (m == NULL)
			return -ENOMEM;
		if (rte_pktmbuf_append(m, (uint16_t)pkts->v[k].len) == NULL) {
			rte_pktmbuf_free(m);
			return -E2BIG;
		}
		memcpy(rte_pktmbuf_mtod(m, void *), pkts->v[k].data, pkts->v[k].len);
		if (rte_eth_tx_burst(port, 0, &m, 1) != 1) {
			rte_pktmbuf_free(m);
			return -EIO;
		}
		ret = test_dm_er_collect(er, &rx[k]);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static uint16_t
test_dm_er_peer(void *ctx, uint16_t port)
{
	struct test_dm_ethdev_runner *er = ctx;

	return port < RTE_MAX_ETHPORTS ? er->peer[port] : port;
}

const struct test_dm_runner_ops test_dm_ethdev_runner_ops = {
	.name = "net_mlx5dm",
	.case_begin = test_dm_er_begin,
	.case_end = test_dm_er_end,
	.flow_create = test_dm_er_create,
	.flow_validate = test_dm_er_validate,
	.flow_destroy = test_dm_er_destroy,
	.flow_flush = test_dm_er_flush,
	.flow_query_count = test_dm_er_query,
	.send = test_dm_er_send,
	.peer = test_dm_er_peer,
};

struct test_dm_ethdev_runner *
test_dm_ethdev_runner_new(struct rte_mempool *mp, unsigned int wait_us)
{
	struct rte_pmd_mlx5dm_port_info info;
	struct test_dm_ethdev_runner *er;
	uint16_t port;

	er = calloc(1, sizeof(*er));
	if (er == NULL)
		return NULL;
	er->mp = mp;
	er->wait_cycles = rte_get_timer_hz() * wait_us / 1000000;
	for (port = 0; port < RTE_MAX_ETHPORTS; port++)
		er->peer[port] = port;
	RTE_ETH_FOREACH_DEV(port) {
		if (rte_pmd_mlx5dm_port_info_get(port, &info) != 0)
			continue;
		er->ports[er->nb_ports++] = port;
		er->peer[port] = info.peer_port_id;
	}
	return er;
}

void
test_dm_ethdev_runner_free(struct test_dm_ethdev_runner *er)
{
	unsigned int i;

	if (er == NULL)
		return;
	for (i = 0; i < er->nb_ports; i++)
		if (er->started[er->ports[i]])
			rte_eth_dev_stop(er->ports[i]);
	free(er);
}
