/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_flow.h>
#include <rte_mbuf.h>

#include <rte_pmd_mlx5dm.h>

#include "test_dm_ethdev_runner.h"
#include "test_dm_tag.h"

#define TEST_DM_ETHDEV_DESC 512
#define TEST_DM_ETHDEV_MIN_DESC 64
#define TEST_DM_ETHDEV_BURST 32
/* Tagged packets in flight at once: at most half an Rx ring, whatever queue they all reach. */
#define TEST_DM_ETHDEV_CHUNK (TEST_DM_ETHDEV_DESC / 2)

struct test_dm_ethdev_runner {
	struct rte_mempool *mp;
	uint64_t wait_cycles;
	uint64_t quiet_cycles;
	uint16_t nb_rxq;
	uint16_t rx_desc;		/**< Rx ring size of this many queues. */
	uint16_t ports[RTE_MAX_ETHPORTS];
	uint16_t peer[RTE_MAX_ETHPORTS];
	uint8_t started[RTE_MAX_ETHPORTS];
	unsigned int nb_ports;
	uint64_t late;			/**< Tagged packets that arrived after their burst. */
	uint32_t pending[RTE_MAX_ETHPORTS];	/**< Sent, Tx completion not seen yet. */
};

/*
 * How long the runner polls for a frame's Tx completion: the device always
 * completes what was posted, but a loaded machine may leave its thread
 * waiting for a CPU. The limit runs on the runner's own CPU clock: a host
 * too loaded to run the device's thread runs the runner as little, so only
 * a broken device, one that had the host's time, takes this long.
 */
#define TEST_DM_ETHDEV_COMPLETION_NS 2000000000ull

/* CPU time the calling thread has run. */
static uint64_t
test_dm_ethdev_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * A wait that began at wall cycles w0 and CPU time c0 is over: the wall
 * waited at least wall_cycles and the runner polled for the completion
 * limit.
 */
static bool
test_dm_ethdev_waited(uint64_t w0, uint64_t c0, uint64_t wall_cycles)
{
	return rte_get_timer_cycles() - w0 >= wall_cycles &&
	       test_dm_ethdev_cpu_ns() - c0 >= TEST_DM_ETHDEV_COMPLETION_NS;
}

/*
 * Every Rx descriptor holds an mbuf of the pool from the queue's set-up
 * on: the rings of all ports take at most half of it (the rest is for
 * frames in flight), down to TEST_DM_ETHDEV_MIN_DESC per queue.
 */
static uint16_t
test_dm_ethdev_rx_desc(const struct test_dm_ethdev_runner *er)
{
	unsigned int per = er->mp->size / 2 / RTE_MAX(er->nb_ports * er->nb_rxq, 1u);
	uint16_t desc = TEST_DM_ETHDEV_DESC;

	while (desc > per && desc > TEST_DM_ETHDEV_MIN_DESC)
		desc /= 2;
	return desc;
}

static int
test_dm_ethdev_port_setup(struct test_dm_ethdev_runner *er, uint16_t port, char *msg, size_t size)
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
		ret = rte_eth_rx_queue_setup(port, q, er->rx_desc, rte_eth_dev_socket_id(port),
					     NULL, er->mp);
	if (ret == 0)
		ret = rte_eth_tx_queue_setup(port, 0, TEST_DM_ETHDEV_DESC,
					     rte_eth_dev_socket_id(port), NULL);
	if (ret == 0)
		ret = rte_eth_dev_start(port);
	er->started[port] = ret == 0;
	if (ret != 0)
		snprintf(msg, size, "port %u: set-up failed: %s", port, strerror(-ret));
	return ret;
}

static void
test_dm_ethdev_drain(struct test_dm_ethdev_runner *er)
{
	struct rte_mbuf *m[TEST_DM_ETHDEV_BURST];
	unsigned int i;
	uint16_t q, n;

	for (i = 0; i < er->nb_ports; i++)
		for (q = 0; q < er->nb_rxq; q++)
			while ((n = rte_eth_rx_burst(er->ports[i], q, m, TEST_DM_ETHDEV_BURST)) > 0)
				rte_pktmbuf_free_bulk(m, n);
}

static int
test_dm_ethdev_begin(void *ctx, const struct test_dm_case *c, char *msg, size_t size)
{
	struct test_dm_ethdev_runner *er = ctx;
	struct rte_flow_error e;
	unsigned int i;
	int ret;

	/* Ports already set up for this many queues are kept: only their rules go. */
	for (i = 0; i < er->nb_ports; i++) {
		if (er->started[er->ports[i]] && er->nb_rxq == c->nb_queues)
			continue;
		er->nb_rxq = c->nb_queues;
		er->rx_desc = test_dm_ethdev_rx_desc(er);
		for (i = 0; i < er->nb_ports; i++) {
			ret = test_dm_ethdev_port_setup(er, er->ports[i], msg, size);
			if (ret != 0)
				return ret;
		}
	}
	for (i = 0; i < er->nb_ports; i++)
		rte_flow_flush(er->ports[i], &e);
	test_dm_ethdev_drain(er);
	return 0;
}

static void
test_dm_ethdev_end(void *ctx)
{
	test_dm_ethdev_drain(ctx);
}

/*
 * rte_flow's return values as negative errnos. DPDK 22.11 hands a PMD's
 * negative flow_ops_get() code on as it is, so a port without rte_flow
 * makes rte_flow_validate() return +ENOTSUP and rte_errno -ENOTSUP: any
 * non-zero result is a failure, whatever its sign.
 */
static int
test_dm_ethdev_errno(int ret)
{
	if (ret == 0)
		return 0;
	return ret < 0 ? ret : -ret;
}

static int
test_dm_ethdev_create(void *ctx, const struct test_dm_flow_cmd *cmd, void **handle,
		      struct rte_flow_error *error)
{
	RTE_SET_USED(ctx);
	*handle = rte_flow_create(cmd->port, &cmd->attr, cmd->pattern, cmd->actions, error);
	return *handle != NULL ? 0 : test_dm_ethdev_errno(rte_errno);
}

static int
test_dm_ethdev_validate(void *ctx, const struct test_dm_flow_cmd *cmd, struct rte_flow_error *error)
{
	RTE_SET_USED(ctx);
	return test_dm_ethdev_errno(rte_flow_validate(cmd->port, &cmd->attr, cmd->pattern,
						      cmd->actions, error));
}

static int
test_dm_ethdev_destroy(void *ctx, uint16_t port, void *handle, struct rte_flow_error *error)
{
	RTE_SET_USED(ctx);
	return test_dm_ethdev_errno(rte_flow_destroy(port, handle, error));
}

static int
test_dm_ethdev_flush(void *ctx, uint16_t port, struct rte_flow_error *error)
{
	RTE_SET_USED(ctx);
	return test_dm_ethdev_errno(rte_flow_flush(port, error));
}

static int
test_dm_ethdev_query(void *ctx, uint16_t port, void *handle, struct rte_flow_query_count *q,
		     struct rte_flow_error *error)
{
	static const struct rte_flow_action count[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_COUNT },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};

	RTE_SET_USED(ctx);
	return test_dm_ethdev_errno(rte_flow_query(port, handle, count, q, error));
}

/*
 * ethdev takes a flow configuration only between configure and start: the
 * port stops for it (a case configures before it has rules or tables).
 */
static int
test_dm_ethdev_flow_configure(void *ctx, const struct test_dm_flow_cmd *cmd,
			      struct rte_flow_error *error)
{
	struct test_dm_ethdev_runner *er = ctx;
	const struct rte_flow_queue_attr **qa;
	struct rte_flow_queue_attr q = { .size = cmd->queue_size };
	struct rte_flow_port_attr pa = { .nb_counters = cmd->nb_counters };
	uint16_t port = cmd->port;
	int ret, start;

	if (!rte_eth_dev_is_valid_port(port))
		return -ENODEV;
	qa = calloc(cmd->nb_queues, sizeof(*qa));
	if (qa == NULL)
		return -ENOMEM;
	for (unsigned int i = 0; i < cmd->nb_queues; i++)
		qa[i] = &q;
	if (er->started[port])
		rte_eth_dev_stop(port);
	ret = test_dm_ethdev_errno(rte_flow_configure(port, &pa, cmd->nb_queues, qa, error));
	free(qa);
	start = er->started[port] ? rte_eth_dev_start(port) : 0;
	if (ret == 0 && start != 0) {
		er->started[port] = 0;
		rte_flow_error_set(error, -start, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
				   "the port did not start again after rte_flow_configure()");
		ret = start;
	}
	return ret;
}

static int
test_dm_ethdev_template_create(void *ctx, const struct test_dm_flow_cmd *cmd, void *const *refs,
			       void **handle, struct rte_flow_error *error)
{
	const struct rte_flow_pattern_template_attr pa = {
		.relaxed_matching = !!cmd->relaxed,
		.ingress = cmd->attr.ingress,
		.egress = cmd->attr.egress,
		.transfer = cmd->attr.transfer,
	};
	const struct rte_flow_actions_template_attr aa = {
		.ingress = cmd->attr.ingress,
		.egress = cmd->attr.egress,
		.transfer = cmd->attr.transfer,
	};
	const struct rte_flow_template_table_attr ta = {
		.flow_attr = cmd->attr,
		.nb_flows = cmd->rules_number,
	};

	RTE_SET_USED(ctx);
	switch (cmd->type) {
	case TEST_DM_FLOW_PATTERN_TEMPLATE:
		*handle = rte_flow_pattern_template_create(cmd->port, &pa, cmd->pattern, error);
		break;
	case TEST_DM_FLOW_ACTIONS_TEMPLATE:
		*handle = rte_flow_actions_template_create(cmd->port, &aa, cmd->actions,
							   cmd->masks, error);
		break;
	default:
		*handle = rte_flow_template_table_create(cmd->port, &ta,
			(struct rte_flow_pattern_template **)(uintptr_t)refs,
			(uint8_t)cmd->nb_pattern_templates,
			(struct rte_flow_actions_template **)(uintptr_t)
			(refs + cmd->nb_pattern_templates),
			(uint8_t)cmd->nb_actions_templates, error);
		break;
	}
	return *handle != NULL ? 0 : test_dm_ethdev_errno(rte_errno);
}

static int
test_dm_ethdev_template_destroy(void *ctx, enum test_dm_flow_cmd_type type, uint16_t port,
				void *handle, struct rte_flow_error *error)
{
	RTE_SET_USED(ctx);
	if (type == TEST_DM_FLOW_PATTERN_TEMPLATE)
		return test_dm_ethdev_errno(rte_flow_pattern_template_destroy(port, handle, error));
	if (type == TEST_DM_FLOW_ACTIONS_TEMPLATE)
		return test_dm_ethdev_errno(rte_flow_actions_template_destroy(port, handle, error));
	return test_dm_ethdev_errno(rte_flow_template_table_destroy(port, handle, error));
}

static int
test_dm_ethdev_async_create(void *ctx, const struct test_dm_flow_cmd *cmd, void *table,
			    void *user_data, void **handle, struct rte_flow_error *error)
{
	const struct rte_flow_op_attr op = { .postpone = !!cmd->postpone };

	RTE_SET_USED(ctx);
	*handle = rte_flow_async_create(cmd->port, cmd->queue, &op, table, cmd->pattern,
					cmd->pattern_index, cmd->actions, cmd->actions_index,
					user_data, error);
	return *handle != NULL ? 0 : test_dm_ethdev_errno(rte_errno);
}

static int
test_dm_ethdev_async_destroy(void *ctx, uint16_t port, uint32_t queue, int postpone, void *handle,
			     void *user_data, struct rte_flow_error *error)
{
	const struct rte_flow_op_attr op = { .postpone = !!postpone };

	RTE_SET_USED(ctx);
	return test_dm_ethdev_errno(rte_flow_async_destroy(port, queue, &op, handle, user_data,
							   error));
}

static int
test_dm_ethdev_push(void *ctx, uint16_t port, uint32_t queue, struct rte_flow_error *error)
{
	RTE_SET_USED(ctx);
	return test_dm_ethdev_errno(rte_flow_push(port, queue, error));
}

static int
test_dm_ethdev_pull(void *ctx, uint16_t port, uint32_t queue, struct rte_flow_op_result *res,
		    uint16_t n, struct rte_flow_error *error)
{
	int ret;

	RTE_SET_USED(ctx);
	ret = rte_flow_pull(port, queue, res, n, error);
	return ret >= 0 ? ret : test_dm_ethdev_errno(ret);
}

static int
test_dm_ethdev_record(struct test_dm_rx *rx, uint16_t port, uint16_t queue, struct rte_mbuf *m)
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

/*
 * Frames of port's Tx queue the device has completed since the last call.
 * A Tx completion comes after the frame's whole journey (delivered into an
 * Rx queue or dropped), as on a looped NIC.
 */
static unsigned int
test_dm_ethdev_tx_done(struct test_dm_ethdev_runner *er, uint16_t port)
{
	int n = rte_eth_tx_done_cleanup(port, 0, 0);

	if (n <= 0)
		return 0;
	er->pending[port] -= RTE_MIN((uint32_t)n, er->pending[port]);
	return (unsigned int)n;
}

/*
 * Wait until every frame sent on port completed: the Tx burst then finds no
 * completion to consume unseen, and what tx_done_cleanup reports is the
 * next burst's alone.
 */
static void
test_dm_ethdev_tx_idle(struct test_dm_ethdev_runner *er, uint16_t port)
{
	uint64_t w0 = rte_get_timer_cycles(), c0 = test_dm_ethdev_cpu_ns();

	while (er->pending[port] != 0 && !test_dm_ethdev_waited(w0, c0, 0))
		test_dm_ethdev_tx_done(er, port);
	er->pending[port] = 0;
}

static uint16_t
test_dm_ethdev_tx(struct test_dm_ethdev_runner *er, uint16_t port, struct rte_mbuf **m, uint16_t n)
{
	uint16_t k = rte_eth_tx_burst(port, 0, m, n);

	er->pending[port] += k;
	return k;
}

/*
 * Look for the packet on every queue of every port until it shows up and
 * its Tx completed, or it did not show up in a round of polls that began
 * after the completion, or time runs out.
 */
static int
test_dm_ethdev_collect(struct test_dm_ethdev_runner *er, uint16_t port, struct test_dm_rx *rx)
{
	uint64_t w0 = rte_get_timer_cycles(), c0 = test_dm_ethdev_cpu_ns();
	struct rte_mbuf *m[TEST_DM_ETHDEV_BURST];
	unsigned int i, extra = 0, done = 0, rounds_after = 0;
	uint16_t q, n, k;
	int ret = 0;

	do {
		bool completed = done != 0;

		for (i = 0; i < er->nb_ports; i++) {
			for (q = 0; q < er->nb_rxq; q++) {
				n = rte_eth_rx_burst(er->ports[i], q, m, TEST_DM_ETHDEV_BURST);
				for (k = 0; k < n; k++) {
					if (!rx->received && ret == 0)
						ret = test_dm_ethdev_record(rx, er->ports[i], q,
									    m[k]);
					else
						extra++;
				}
				rte_pktmbuf_free_bulk(m, n);
			}
		}
		rounds_after += completed;
		done += test_dm_ethdev_tx_done(er, port);
		if (done != 0 && (rx->received || rounds_after >= 1))
			break;
	} while (ret == 0 && !test_dm_ethdev_waited(w0, c0, er->wait_cycles));
	/* One packet sent, more than one received: the device duplicated it. */
	return ret < 0 ? ret : extra == 0 ? 0 : -EIO;
}

static int
test_dm_ethdev_send(void *ctx, uint16_t port, const struct test_dm_pktlist *pkts,
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
		test_dm_ethdev_tx_idle(er, port);
		if (test_dm_ethdev_tx(er, port, &m, 1) != 1) {
			rte_pktmbuf_free(m);
			return -EIO;
		}
		ret = test_dm_ethdev_collect(er, port, &rx[k]);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/*
 * Poll every queue of every port, pairing packets with rx[first..first+n) by
 * their tag (tag of packet 0: @p base). The burst ends once the device has
 * completed all n on port's Tx queue and either all arrived or two rounds
 * of polls after the completion found nothing for the quiet time: a poll
 * always follows the wait, so a descheduled process does not call waiting
 * packets dropped. Without completions, the quiet time alone ends it.
 * Packets of earlier bursts are late: ignored (they were reported
 * dropped); a packet without tag, or twice, is an error.
 */
static int
test_dm_ethdev_collect_tagged(struct test_dm_ethdev_runner *er, uint16_t port,
			      struct test_dm_rx *rx, uint32_t base, unsigned int first,
			      unsigned int n)
{
	uint64_t last = rte_get_timer_cycles(), last_cpu = test_dm_ethdev_cpu_ns();
	uint64_t limit = RTE_MAX(er->wait_cycles, er->quiet_cycles);
	struct rte_mbuf *m[TEST_DM_ETHDEV_BURST];
	unsigned int i, got = 0, bad = 0, empty = 0, arrived, done = 0;
	uint16_t q, nb, k;
	uint32_t idx;
	int64_t tag;
	int ret = 0;

	while (got < n || done < n) {
		bool completed = done >= n;

		arrived = 0;
		for (i = 0; i < er->nb_ports; i++) {
			for (q = 0; q < er->nb_rxq; q++) {
				nb = rte_eth_rx_burst(er->ports[i], q, m, TEST_DM_ETHDEV_BURST);
				for (k = 0; k < nb; k++) {
					tag = test_dm_tag_read(rte_pktmbuf_mtod(m[k], uint8_t *),
							       rte_pktmbuf_data_len(m[k]));
					idx = (uint32_t)tag - base;
					if (tag >= 0 && (idx < first || idx >= first + n)) {
						er->late++;
						continue;
					}
					if (tag < 0 || rx[idx].received) {
						bad++;
						continue;
					}
					if (ret == 0)
						ret = test_dm_ethdev_record(&rx[idx], er->ports[i],
									    q, m[k]);
					got++;
				}
				rte_pktmbuf_free_bulk(m, nb);
				arrived += nb;
			}
		}
		done += test_dm_ethdev_tx_done(er, port);
		if (arrived != 0) {
			last = rte_get_timer_cycles();
			last_cpu = test_dm_ethdev_cpu_ns();
			empty = 0;
		} else if (completed && ++empty >= 2 &&
			   rte_get_timer_cycles() - last >= er->quiet_cycles) {
			break;
		} else if (!completed && test_dm_ethdev_waited(last, last_cpu, limit)) {
			break;
		}
		if (done >= n && !completed)
			last = rte_get_timer_cycles();
	}
	return ret < 0 ? ret : bad == 0 ? 0 : -EIO;
}

static int
test_dm_ethdev_send_tagged(void *ctx, uint16_t port, const struct test_dm_pktlist *pkts,
			   struct test_dm_rx *rx)
{
	struct test_dm_ethdev_runner *er = ctx;
	struct rte_mbuf *m[TEST_DM_ETHDEV_CHUNK];
	unsigned int chunk = RTE_MIN((unsigned int)TEST_DM_ETHDEV_CHUNK, er->rx_desc / 2u);
	unsigned int done, n, k, sent, idle;
	uint32_t base;
	int ret;

	if (!rte_eth_dev_is_valid_port(port) || !er->started[port])
		return -ENODEV;
	if (pkts->n == 0)
		return 0;
	base = (uint32_t)test_dm_tag_read(pkts->v[0].data, pkts->v[0].len);
	memset(rx, 0, pkts->n * sizeof(*rx));
	for (done = 0; done < pkts->n; done += n) {
		n = RTE_MIN(chunk, pkts->n - done);
		if (rte_pktmbuf_alloc_bulk(er->mp, m, n) != 0)
			return -ENOMEM;
		for (k = 0; k < n; k++) {
			const struct test_dm_bytes *b = &pkts->v[done + k];

			if (rte_pktmbuf_append(m[k], (uint16_t)b->len) == NULL) {
				rte_pktmbuf_free_bulk(m, n);
				return -E2BIG;
			}
			memcpy(rte_pktmbuf_mtod(m[k], void *), b->data, b->len);
		}
		test_dm_ethdev_tx_idle(er, port);
		for (sent = 0, idle = 0; sent < n && idle < 1000; ) {
			k = test_dm_ethdev_tx(er, port, m + sent, (uint16_t)(n - sent));
			sent += k;
			idle = k == 0 ? idle + 1 : 0;
		}
		if (sent < n) {
			rte_pktmbuf_free_bulk(m + sent, n - sent);
			return -EIO;
		}
		ret = test_dm_ethdev_collect_tagged(er, port, rx, base, done, n);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static int
test_dm_ethdev_dump(void *ctx, uint16_t port, FILE *f, char *why, size_t size)
{
	struct rte_flow_error e = { 0 };
	int ret;

	RTE_SET_USED(ctx);
	ret = test_dm_ethdev_errno(rte_flow_dev_dump(port, NULL, f, &e));
	if (ret != 0)
		snprintf(why, size, "rte_flow_dev_dump: %s%s%s", strerror(-ret),
			 e.message != NULL ? ": " : "", e.message != NULL ? e.message : "");
	return ret;
}

static uint16_t
test_dm_ethdev_peer(void *ctx, uint16_t port)
{
	struct test_dm_ethdev_runner *er = ctx;

	return port < RTE_MAX_ETHPORTS ? er->peer[port] : port;
}

const struct test_dm_runner_ops test_dm_ethdev_runner_ops = {
	.name = "net_mlx5dm",
	.case_begin = test_dm_ethdev_begin,
	.case_end = test_dm_ethdev_end,
	.flow_create = test_dm_ethdev_create,
	.flow_validate = test_dm_ethdev_validate,
	.flow_destroy = test_dm_ethdev_destroy,
	.flow_flush = test_dm_ethdev_flush,
	.flow_query_count = test_dm_ethdev_query,
	.flow_configure = test_dm_ethdev_flow_configure,
	.template_create = test_dm_ethdev_template_create,
	.template_destroy = test_dm_ethdev_template_destroy,
	.async_create = test_dm_ethdev_async_create,
	.async_destroy = test_dm_ethdev_async_destroy,
	.push = test_dm_ethdev_push,
	.pull = test_dm_ethdev_pull,
	.send = test_dm_ethdev_send,
	.peer = test_dm_ethdev_peer,
	.send_tagged = test_dm_ethdev_send_tagged,
	.dump = test_dm_ethdev_dump,
};

struct test_dm_ethdev_runner *
test_dm_ethdev_runner_new(struct rte_mempool *mp, unsigned int wait_us, unsigned int quiet_us)
{
	struct rte_pmd_mlx5dm_port_info info;
	struct test_dm_ethdev_runner *er;
	uint16_t port;

	er = calloc(1, sizeof(*er));
	if (er == NULL)
		return NULL;
	er->mp = mp;
	er->wait_cycles = rte_get_timer_hz() * wait_us / 1000000;
	er->quiet_cycles = rte_get_timer_hz() * quiet_us / 1000000;
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
test_dm_ethdev_runner_set_peer(struct test_dm_ethdev_runner *er, uint16_t port, uint16_t peer)
{
	if (port < RTE_MAX_ETHPORTS)
		er->peer[port] = peer;
}

int
test_dm_ethdev_runner_flow_probe(struct test_dm_ethdev_runner *er, char *msg, size_t size)
{
	struct test_dm_case c = { .name = (char *)(uintptr_t)"probe",
				  .file = (char *)(uintptr_t)"probe", .nb_queues = 1 };
	static const struct rte_flow_attr attr = { .ingress = 1 };
	static const struct rte_flow_item pattern[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	static const struct rte_flow_action_queue q0 = { .index = 0 };
	static const struct rte_flow_action actions[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_QUEUE, .conf = &q0 },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	struct rte_flow_error e = { 0 };
	int ret;

	if (er->nb_ports == 0) {
		snprintf(msg, size, "no net_mlx5dm port");
		return -ENODEV;
	}
	ret = test_dm_ethdev_begin(er, &c, msg, size);
	if (ret < 0)
		return ret;
	ret = test_dm_ethdev_errno(rte_flow_validate(er->ports[0], &attr, pattern, actions, &e));
	test_dm_ethdev_end(er);
	if (ret == 0)
		return 1;
	snprintf(msg, size, "rte_flow_validate(ingress pattern eth / end actions queue index 0 "
		 "/ end) on port %u: %s%s%s", er->ports[0], strerror(-ret),
		 e.message != NULL ? ": " : "", e.message != NULL ? e.message : "");
	/* Only "no rte_flow at all" makes it unavailable; any other refusal is the PMD's answer. */
	return (ret == -ENOTSUP || ret == -ENOSYS) && e.type == RTE_FLOW_ERROR_TYPE_UNSPECIFIED ?
	       0 : 1;
}

uint64_t
test_dm_ethdev_runner_late(const struct test_dm_ethdev_runner *er)
{
	return er->late;
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
