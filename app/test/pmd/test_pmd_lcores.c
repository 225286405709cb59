/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * rte_flow_create() / rte_flow_destroy() from two EAL lcores at once on one
 * port, into one group and pattern (so one matcher): each lcore inserts on
 * its own rule queue, and the frames sent afterwards show that every live
 * rule steers and no deleted one does; then the same through two flow
 * queues of one template table (rte_flow_async_create() / _destroy(), push,
 * pull), and with the port's walks of its flows beside the flow queue.
 * The suite "tsan" runs it in a ThreadSanitizer build.
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
#include <time.h>
#include <cmocka.h>

#include <rte_bus_vdev.h>
#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_ether.h>
#include <rte_flow.h>
#include <rte_ip.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_pause.h>
#include <rte_udp.h>

#include <rte_pmd_mlx5dm.h>
#include "pmd_env.h"

#define RULES 192u          /* per lcore and round */
#define ROUNDS 6u
#define NB_LCORES 2u

static struct rte_mempool *pool;

struct lcore_job {
	uint16_t port;
	/* With a template table: through flow queue queue (push, pull without waiting). */
	struct rte_flow_template_table *table;
	uint32_t queue;
	/* Not NULL: the table's rules count with this indirect COUNT. */
	struct rte_flow_action_handle *shared;
	uint32_t base;          /* first IPv4 destination (host order); MARK id = dst - base0 */
	uint32_t mark;          /* MARK id of the first rule */
	struct rte_flow *flows[RULES];
	unsigned int failures;
	char msg[128];
	uint32_t done;          /* set (release) when the job is over */
};

static uint32_t go;         /* the lcores start together */

/* The job's rule to dst, marked: through its flow queue (postponed) when it has a table. */
static struct rte_flow *
rule_create(const struct lcore_job *j, uint32_t dst, uint32_t mark, struct rte_flow_error *err)
{
	const struct rte_flow_attr attr = { .group = 0, .ingress = 1 };
	const struct rte_flow_op_attr later = { .postpone = 1 };
	const struct rte_flow_item_ipv4 spec = { .hdr.dst_addr = rte_cpu_to_be_32(dst) };
	const struct rte_flow_item_ipv4 mask = { .hdr.dst_addr = RTE_BE32(0xffffffff) };
	const struct rte_flow_item pattern[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_IPV4, .spec = &spec, .mask = &mask },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	const struct rte_flow_action_mark m = { .id = mark };
	const struct rte_flow_action_queue q = { .index = 0 };
	const struct rte_flow_action actions[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_MARK, .conf = &m },
		{ .type = RTE_FLOW_ACTION_TYPE_QUEUE, .conf = &q },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	const struct rte_flow_action counted[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_MARK, .conf = &m },
		{ .type = j->shared != NULL ? RTE_FLOW_ACTION_TYPE_INDIRECT :
					      RTE_FLOW_ACTION_TYPE_COUNT, .conf = j->shared },
		{ .type = RTE_FLOW_ACTION_TYPE_QUEUE, .conf = &q },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};

	if (j->table != NULL)
		return rte_flow_async_create(j->port, j->queue, &later, j->table, pattern, 0,
					     counted, 0, NULL, err);
	return rte_flow_create(j->port, &attr, pattern, actions, err);
}

/*
 * How long a burst's frames (or a flow queue's results) may take to come
 * back, on the polling thread's own CPU clock as well as the wall's: the
 * first burst makes the device run every rule write of the churn before
 * the first frame, and a loaded host (or ThreadSanitizer) may leave the
 * device's thread waiting for a CPU all along.
 * The poller spins without yielding, so a host too loaded to run the
 * device runs the poller as little; only a device that had the host's
 * time and returned nothing ends the wait.
 */
#define RX_WAIT_NS 5000000000ull

/* CPU time the calling thread has run. */
static uint64_t
cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* A wait that began at wall cycles w0 and CPU time c0 is over. */
static bool
rx_waited(uint64_t w0, uint64_t c0)
{
	return rte_get_timer_cycles() - w0 >= RX_WAIT_NS / 1000000000ull * rte_get_timer_hz() &&
	       cpu_ns() - c0 >= RX_WAIT_NS;
}

#define PUSH 32u

/*
 * The job's flow queue: a push, then pulls until at most keep results wait
 * (a pull returns only the operations the device has executed). Each
 * result must be a success; false once the wait gave up.
 */
static bool
job_pull(struct lcore_job *j, uint32_t *waiting, uint32_t keep)
{
	uint64_t w0 = rte_get_timer_cycles(), c0 = cpu_ns();
	struct rte_flow_op_result res[PUSH];
	struct rte_flow_error err;
	int n, i;

	if (rte_flow_push(j->port, j->queue, &err) != 0)
		return false;
	while (*waiting > keep && !rx_waited(w0, c0)) {
		n = rte_flow_pull(j->port, j->queue, res, PUSH, &err);
		if (n < 0)
			return false;
		for (i = 0; i < n; i++)
			if (res[i].status != RTE_FLOW_OP_SUCCESS && j->failures++ == 0)
				snprintf(j->msg, sizeof(j->msg), "a pulled result failed");
		*waiting -= (uint32_t)n;
		/* The wait is for a device that returns nothing: progress starts it again. */
		if (n != 0) {
			w0 = rte_get_timer_cycles();
			c0 = cpu_ns();
		}
	}
	return *waiting <= keep;
}


/*
 * ROUNDS times: create the job's RULES rules, then destroy them; in the
 * last round only the odd ones go, so the even ones stay. Through its flow
 * queue when the job has a table: a push every PUSH operations and a pull
 * of what is done, a wait only when the queue (4 x PUSH) could not take
 * the next batch, and every result pulled before the destructions start.
 */
static int
lcore_rules(void *arg)
{
	const struct rte_flow_op_attr later = { .postpone = 1 };
	struct lcore_job *j = arg;
	struct rte_flow_error err;
	uint32_t waiting = 0;
	unsigned int r, i;
	int ret;

	while (__atomic_load_n(&go, __ATOMIC_ACQUIRE) == 0)
		rte_pause();
	for (r = 0; r < ROUNDS; r++) {
		for (i = 0; i < RULES; i++) {
			j->flows[i] = rule_create(j, j->base + i, j->mark + i, &err);
			if (j->flows[i] == NULL && j->failures++ == 0)
				snprintf(j->msg, sizeof(j->msg), "create: %s",
					 err.message != NULL ? err.message : "?");
			waiting += j->table != NULL && j->flows[i] != NULL;
			if (j->table != NULL && (i + 1) % PUSH == 0 &&
			    !job_pull(j, &waiting, 2 * PUSH) && j->failures++ == 0)
				snprintf(j->msg, sizeof(j->msg), "pull after creations");
		}
		if (j->table != NULL && !job_pull(j, &waiting, 0) && j->failures++ == 0)
			snprintf(j->msg, sizeof(j->msg), "pull of the creations");
		for (i = 0; i < RULES; i++) {
			if (r == ROUNDS - 1 && i % 2 == 0)
				continue;
			if (j->flows[i] == NULL)
				continue;
			ret = j->table == NULL ? rte_flow_destroy(j->port, j->flows[i], &err) :
			      rte_flow_async_destroy(j->port, j->queue, &later, j->flows[i], NULL,
						     &err);
			if (ret != 0 && j->failures++ == 0)
				snprintf(j->msg, sizeof(j->msg), "destroy: %s",
					 err.message != NULL ? err.message : "?");
			waiting += j->table != NULL && ret == 0;
			j->flows[i] = NULL;
			if (j->table != NULL && waiting >= PUSH &&
			    !job_pull(j, &waiting, 2 * PUSH) && j->failures++ == 0)
				snprintf(j->msg, sizeof(j->msg), "pull after destructions");
		}
		if (j->table != NULL && !job_pull(j, &waiting, 0) && j->failures++ == 0)
			snprintf(j->msg, sizeof(j->msg), "pull of the destructions");
	}
	__atomic_store_n(&j->done, 1, __ATOMIC_RELEASE);
	return 0;
}

/* An Ethernet / IPv4 (dst) / UDP frame of 100 bytes. */
static struct rte_mbuf *
frame(uint32_t dst)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(pool);
	uint8_t d[100] = { 0 };
	struct rte_ether_hdr *eth;
	struct rte_ipv4_hdr *ip;
	struct rte_udp_hdr *udp;
	char *to;

	assert_non_null(m);
	eth = (struct rte_ether_hdr *)d;
	eth->ether_type = RTE_BE16(RTE_ETHER_TYPE_IPV4);
	eth->dst_addr.addr_bytes[0] = 0x02;
	ip = (struct rte_ipv4_hdr *)(eth + 1);
	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->time_to_live = 64;
	ip->next_proto_id = IPPROTO_UDP;
	ip->total_length = rte_cpu_to_be_16(100 - sizeof(*eth));
	ip->src_addr = RTE_BE32(0x0a000001);
	ip->dst_addr = rte_cpu_to_be_32(dst);
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	udp = (struct rte_udp_hdr *)(ip + 1);
	udp->src_port = RTE_BE16(1000);
	udp->dst_port = RTE_BE16(2000);
	udp->dgram_len = rte_cpu_to_be_16(100 - sizeof(*eth) - sizeof(*ip));
	to = rte_pktmbuf_append(m, sizeof(d));
	assert_non_null(to);
	memcpy(to, d, sizeof(d));
	return m;
}

/* 1 when the frame is marked by its live rule, 0 when its rule was deleted. */
static unsigned int
check_frame(const struct rte_mbuf *m, const struct lcore_job *j)
{
	const struct rte_ipv4_hdr *ip = rte_pktmbuf_mtod_offset(m, const struct rte_ipv4_hdr *,
								sizeof(struct rte_ether_hdr));
	uint32_t idx = rte_be_to_cpu_32(ip->dst_addr) - j->base;
	bool live = idx % 2 == 0;

	assert_true(idx < RULES);
	if (live != ((m->ol_flags & RTE_MBUF_F_RX_FDIR_ID) != 0))
		fail_msg("destination %u of base %#x: %s rule, frame %s", idx, j->base,
			 live ? "live" : "deleted", live ? "not marked" : "marked");
	if (!live)
		return 0;
	assert_int_equal(m->hash.fdir.hi, j->mark + idx);
	return 1;
}

/*
 * Frames to every destination of the job: each is received, marked with
 * its rule's id when the rule is live (even index), unmarked (the default
 * rule's) when it was destroyed.
 */
static void
check_steering(uint16_t port, const struct lcore_job *j)
{
	struct rte_mbuf *m[64];
	unsigned int i, k, sent, got, marked = 0;
	uint64_t w0, c0;
	uint16_t n;

	for (i = 0; i < RULES; i += sent) {
		sent = RTE_MIN(64u, RULES - i);
		for (k = 0; k < sent; k++)
			m[k] = frame(j->base + i + k);
		assert_int_equal(rte_eth_tx_burst(port, 0, m, (uint16_t)sent), sent);
		got = 0;
		w0 = rte_get_timer_cycles();
		c0 = cpu_ns();
		while (got < sent && !rx_waited(w0, c0)) {
			n = rte_eth_rx_burst(port, 0, m, 64);
			for (k = 0; k < n; k++)
				marked += check_frame(m[k], j);
			got += n;
			rte_pktmbuf_free_bulk(m, n);
		}
		assert_int_equal(got, sent);
	}
	assert_int_equal(marked, RULES / 2);
}

/* The rules rule queue q holds, from the port's private dump. */
static long long
queue_rules(uint16_t port, unsigned int q)
{
	char *buf = NULL, key[32];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	const char *p;
	long long v;

	assert_non_null(f);
	assert_int_equal(rte_eth_dev_priv_dump(port, f), 0);
	assert_int_equal(fclose(f), 0);
	snprintf(key, sizeof(key), "rule queue %u: ", q);
	p = strstr(buf, key);
	assert_non_null(p);
	v = strtoll(p + strlen(key), NULL, 10);
	free(buf);
	return v;
}

/* A started looped port of vdev name (rte_flow_configure() first when nb_fq > 0). */
static uint16_t
port_open(const char *name, uint16_t nb_fq)
{
	const struct rte_flow_queue_attr qa = { .size = 4 * PUSH };
	const struct rte_flow_queue_attr *qas[] = { &qa, &qa };
	const struct rte_flow_port_attr pa = { 0 };
	struct rte_pmd_mlx5dm_port_info info;
	struct rte_eth_conf conf = { 0 };
	struct rte_flow_error err;
	uint16_t port;

	assert_int_equal(rte_lcore_count(), NB_LCORES);
	assert_int_equal(rte_vdev_init(name, NULL), 0);
	port = port_by_name(name);
	assert_true(port < RTE_MAX_ETHPORTS);
	/* A looped port: what it sends comes back to its own Rx queue. */
	assert_int_equal(rte_pmd_mlx5dm_port_info_get(port, &info), 0);
	assert_int_equal(info.peer_port_id, port);
	assert_int_equal(rte_eth_dev_configure(port, 1, 1, &conf), 0);
	assert_int_equal(rte_eth_rx_queue_setup(port, 0, 1024, 0, NULL, pool), 0);
	assert_int_equal(rte_eth_tx_queue_setup(port, 0, 512, 0, NULL), 0);
	if (nb_fq != 0)
		assert_int_equal(rte_flow_configure(port, &pa, nb_fq, qas, &err), 0);
	assert_int_equal(rte_eth_dev_start(port), 0);
	return port;
}

/* The jobs of both lcores at once (through flow queue i of table for lcore i, if any). */
static void
run_jobs(struct lcore_job *jobs, uint16_t port, struct rte_flow_template_table *table)
{
	unsigned int worker, i;

	for (i = 0; i < NB_LCORES; i++) {
		memset(&jobs[i], 0, sizeof(jobs[i]));
		jobs[i].port = port;
		jobs[i].table = table;
		jobs[i].queue = i;
		jobs[i].base = 0x0a010000u + i * 0x100u;
		jobs[i].mark = 1 + i * RULES;
	}
	worker = rte_get_next_lcore(rte_get_main_lcore(), 1, 0);
	__atomic_store_n(&go, 0, __ATOMIC_RELEASE);
	assert_int_equal(rte_eal_remote_launch(lcore_rules, &jobs[1], worker), 0);
	__atomic_store_n(&go, 1, __ATOMIC_RELEASE);
	lcore_rules(&jobs[0]);
	assert_int_equal(rte_eal_wait_lcore(worker), 0);
	/* EAL's wait is not seen by ThreadSanitizer: the job's own flag is. */
	while (__atomic_load_n(&jobs[1].done, __ATOMIC_ACQUIRE) == 0)
		rte_pause();
	for (i = 0; i < NB_LCORES; i++) {
		if (jobs[i].failures != 0)
			fail_msg("lcore job %u: %u failures, first: %s", i, jobs[i].failures,
				 jobs[i].msg);
	}
}

static void
test_two_lcores_one_matcher(void **state)
{
	static struct lcore_job jobs[NB_LCORES];
	struct rte_flow_error err;
	unsigned int i;
	uint16_t port;

	(void)state;
	port = port_open("net_mlx5dm20", 0);
	run_jobs(jobs, port, NULL);
	/* Each lcore's own rule queue holds the rules it left (queue 0: the default rule too). */
	assert_int_equal(queue_rules(port, 1), RULES / 2);
	assert_true(queue_rules(port, 0) >= RULES / 2);
	for (i = 0; i < NB_LCORES; i++)
		check_steering(port, &jobs[i]);

	assert_int_equal(rte_flow_flush(port, &err), 0);
	assert_int_equal(rte_eth_dev_stop(port), 0);
	assert_int_equal(rte_eth_dev_close(port), 0);
	assert_int_equal(rte_vdev_uninit("net_mlx5dm20"), 0);
}

/* Counted rules (by an indirect COUNT each rule names), mark and queue each rule's. */
static struct rte_flow_actions_template *
counted_template(uint16_t port, bool indirect)
{
	static const struct rte_flow_action_mark mark;
	static const struct rte_flow_action_queue queue;
	const struct rte_flow_action actions[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_MARK, .conf = &mark },
		{ .type = indirect ? RTE_FLOW_ACTION_TYPE_INDIRECT : RTE_FLOW_ACTION_TYPE_COUNT },
		{ .type = RTE_FLOW_ACTION_TYPE_QUEUE, .conf = &queue },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	const struct rte_flow_actions_template_attr ata = { .ingress = 1 };
	struct rte_flow_actions_template *at;
	struct rte_flow_error err;

	at = rte_flow_actions_template_create(port, &ata, actions, actions, &err);
	assert_non_null(at);
	return at;
}

/*
 * The same through the template API, with counted rules: each lcore on its
 * own flow queue into one template table, pulling only what the device
 * executed; once every result was pulled, exactly the live rules steer,
 * each counter having counted its rule's one frame.
 */
static void
test_two_lcores_flow_queues(void **state)
{
	const struct rte_flow_action count = { .type = RTE_FLOW_ACTION_TYPE_COUNT };
	struct rte_flow_query_count qc;
	const struct rte_flow_template_table_attr ta = {
		.flow_attr = { .group = 0, .ingress = 1 }, .nb_flows = NB_LCORES * RULES,
	};
	const struct rte_flow_op_attr later = { .postpone = 1 };
	static struct lcore_job jobs[NB_LCORES];
	struct rte_flow_pattern_template *pt;
	struct rte_flow_actions_template *at;
	struct rte_flow_template_table *table;
	struct rte_flow_error err;
	uint32_t waiting;
	unsigned int i, k;
	uint16_t port;

	(void)state;
	port = port_open("net_mlx5dm21", NB_LCORES);
	pt = ipv4_dst_template(port);
	at = counted_template(port, false);
	table = rte_flow_template_table_create(port, &ta, &pt, 1, &at, 1, &err);
	if (table == NULL)
		fail_msg("template table: %s", err.message != NULL ? err.message : "?");
	run_jobs(jobs, port, table);
	for (i = 0; i < NB_LCORES; i++) {
		check_steering(port, &jobs[i]);
		for (k = 0; k < RULES; k += 2) {
			memset(&qc, 0, sizeof(qc));
			assert_int_equal(rte_flow_query(port, jobs[i].flows[k], &count, &qc, &err),
					 0);
			assert_int_equal(qc.hits, 1);
			assert_int_equal(qc.bytes, 100);
		}
	}
	/* The live rules go through their flow queues too; the table is then empty. */
	for (i = 0; i < NB_LCORES; i++) {
		waiting = 0;
		for (k = 0; k < RULES; k += 2) {
			assert_int_equal(rte_flow_async_destroy(port, i, &later, jobs[i].flows[k],
								NULL, &err), 0);
			waiting++;
		}
		assert_true(job_pull(&jobs[i], &waiting, 0));
		assert_int_equal(jobs[i].failures, 0);
	}
	assert_int_equal(rte_flow_template_table_destroy(port, table, &err), 0);
	assert_int_equal(rte_flow_actions_template_destroy(port, at, &err), 0);
	assert_int_equal(rte_flow_pattern_template_destroy(port, pt, &err), 0);
	assert_int_equal(rte_eth_dev_stop(port), 0);
	assert_int_equal(rte_eth_dev_close(port), 0);
	assert_int_equal(rte_vdev_uninit("net_mlx5dm21"), 0);
}

/*
 * The port's walks of its flow handles under its lock (the dump of every
 * flow, a template table's destroy looking for its rules) on the main
 * lcore while the worker
 * creates and destroys through its flow queue, reusing the same handles
 * without the lock: no race (the suite "tsan"), every operation succeeds
 * and the worker's live rules steer afterwards.
 */
static void
test_walks_beside_flow_queue(void **state)
{
	const struct rte_flow_template_table_attr ta = {
		.flow_attr = { .group = 0, .ingress = 1 }, .nb_flows = RULES,
	};
	const struct rte_flow_template_table_attr other = {
		.flow_attr = { .group = 1, .ingress = 1 }, .nb_flows = 16,
	};
	const struct rte_flow_op_attr later = { .postpone = 1 };
	static struct lcore_job job;
	struct rte_flow_template_table *table, *spare;
	struct rte_flow_pattern_template *pt;
	struct rte_flow_actions_template *at;
	struct rte_flow_error err;
	unsigned int worker, walks = 0, k;
	uint32_t waiting = 0;
	uint16_t port;
	FILE *null;

	(void)state;
	port = port_open("net_mlx5dm22", NB_LCORES);
	pt = ipv4_dst_template(port);
	at = counted_template(port, false);
	table = rte_flow_template_table_create(port, &ta, &pt, 1, &at, 1, &err);
	assert_non_null(table);
	null = fopen("/dev/null", "w");
	assert_non_null(null);
	memset(&job, 0, sizeof(job));
	job.port = port;
	job.table = table;
	job.queue = 1;
	job.base = 0x0a020000u;
	job.mark = 1;
	worker = rte_get_next_lcore(rte_get_main_lcore(), 1, 0);
	__atomic_store_n(&go, 1, __ATOMIC_RELEASE);
	assert_int_equal(rte_eal_remote_launch(lcore_rules, &job, worker), 0);
	while (__atomic_load_n(&job.done, __ATOMIC_ACQUIRE) == 0) {
		assert_int_equal(rte_flow_dev_dump(port, NULL, null, &err), 0);
		spare = rte_flow_template_table_create(port, &other, &pt, 1, &at, 1, &err);
		assert_non_null(spare);
		assert_int_equal(rte_flow_template_table_destroy(port, spare, &err), 0);
		walks++;
	}
	assert_int_equal(rte_eal_wait_lcore(worker), 0);
	assert_true(walks > 0);
	if (job.failures != 0)
		fail_msg("lcore job: %u failures, first: %s", job.failures, job.msg);
	check_steering(port, &job);
	for (k = 0; k < RULES; k += 2) {
		assert_int_equal(rte_flow_async_destroy(port, 1, &later, job.flows[k], NULL, &err),
				 0);
		waiting++;
	}
	assert_true(job_pull(&job, &waiting, 0));
	assert_int_equal(job.failures, 0);
	assert_int_equal(fclose(null), 0);
	assert_int_equal(rte_flow_template_table_destroy(port, table, &err), 0);
	assert_int_equal(rte_flow_actions_template_destroy(port, at, &err), 0);
	assert_int_equal(rte_flow_pattern_template_destroy(port, pt, &err), 0);
	assert_int_equal(rte_eth_dev_stop(port), 0);
	assert_int_equal(rte_eth_dev_close(port), 0);
	assert_int_equal(rte_vdev_uninit("net_mlx5dm22"), 0);
}

/*
 * Rules counting with one indirect COUNT, made and destroyed by the worker
 * through its flow queue (each pins the COUNT without the port lock),
 * while the main lcore, whose own rule pins it throughout, queries it and
 * tries to destroy it through its queue: every destroy is refused (EBUSY),
 * no race (the suite "tsan"). Then the worker's live rules steer, the
 * COUNT counted their frames, and with its last rule gone it goes.
 */
static void
test_shared_count_beside_flow_queue(void **state)
{
	const struct rte_flow_template_table_attr ta = {
		.flow_attr = { .group = 0, .ingress = 1 }, .nb_flows = RULES + 1,
	};
	const struct rte_flow_indir_action_conf ic = { .ingress = 1 };
	const struct rte_flow_action count = { .type = RTE_FLOW_ACTION_TYPE_COUNT };
	const struct rte_flow_op_attr later = { .postpone = 1 };
	static struct lcore_job job, mine;
	struct rte_flow_template_table *table;
	struct rte_flow_pattern_template *pt;
	struct rte_flow_actions_template *at;
	struct rte_flow_query_count qc;
	struct rte_flow_action_handle *h;
	struct rte_flow_error err;
	unsigned int worker, tries = 0, k;
	uint32_t waiting;
	uint16_t port;

	(void)state;
	port = port_open("net_mlx5dm23", NB_LCORES);
	pt = ipv4_dst_template(port);
	at = counted_template(port, true);
	table = rte_flow_template_table_create(port, &ta, &pt, 1, &at, 1, &err);
	assert_non_null(table);
	h = rte_flow_async_action_handle_create(port, 0, NULL, &ic, &count, NULL, &err);
	assert_non_null(h);
	memset(&mine, 0, sizeof(mine));
	mine = (struct lcore_job){ .port = port, .table = table, .queue = 0, .shared = h,
				   .base = 0x0a030000u, .mark = 2 * RULES };
	mine.flows[0] = rule_create(&mine, mine.base, mine.mark, &err);
	assert_non_null(mine.flows[0]);
	waiting = 2;
	assert_true(job_pull(&mine, &waiting, 0));
	memset(&job, 0, sizeof(job));
	job = (struct lcore_job){ .port = port, .table = table, .queue = 1, .shared = h,
				  .base = 0x0a020000u, .mark = 1 };
	worker = rte_get_next_lcore(rte_get_main_lcore(), 1, 0);
	__atomic_store_n(&go, 1, __ATOMIC_RELEASE);
	assert_int_equal(rte_eal_remote_launch(lcore_rules, &job, worker), 0);
	while (__atomic_load_n(&job.done, __ATOMIC_ACQUIRE) == 0) {
		assert_int_equal(rte_flow_async_action_handle_destroy(port, 0, NULL, h, NULL,
								      &err), -EBUSY);
		memset(&qc, 0, sizeof(qc));
		assert_int_equal(rte_flow_async_action_handle_query(port, 0, NULL, h, &qc, NULL,
								    &err), 0);
		waiting = 1;
		assert_true(job_pull(&mine, &waiting, 0));
		tries++;
	}
	assert_int_equal(rte_eal_wait_lcore(worker), 0);
	assert_true(tries > 0);
	if (job.failures != 0 || mine.failures != 0)
		fail_msg("lcore jobs: %u failures, first: %s", job.failures + mine.failures,
			 job.failures != 0 ? job.msg : mine.msg);
	check_steering(port, &job);
	memset(&qc, 0, sizeof(qc));
	assert_int_equal(rte_flow_async_action_handle_query(port, 0, NULL, h, &qc, NULL, &err), 0);
	assert_int_equal(qc.hits, RULES / 2);
	assert_int_equal(qc.bytes, RULES / 2 * 100);
	waiting = 0;
	for (k = 0; k < RULES; k += 2) {
		assert_int_equal(rte_flow_async_destroy(port, 1, &later, job.flows[k], NULL, &err),
				 0);
		waiting++;
	}
	assert_true(job_pull(&job, &waiting, 0));
	assert_int_equal(rte_flow_async_destroy(port, 0, &later, mine.flows[0], NULL, &err), 0);
	waiting = 2;
	assert_true(job_pull(&mine, &waiting, 0));
	assert_int_equal(rte_flow_async_action_handle_destroy(port, 0, NULL, h, NULL, &err), 0);
	waiting = 1;
	assert_true(job_pull(&mine, &waiting, 0));
	assert_int_equal(job.failures + mine.failures, 0);
	assert_int_equal(rte_flow_template_table_destroy(port, table, &err), 0);
	assert_int_equal(rte_flow_actions_template_destroy(port, at, &err), 0);
	assert_int_equal(rte_flow_pattern_template_destroy(port, pt, &err), 0);
	assert_int_equal(rte_eth_dev_stop(port), 0);
	assert_int_equal(rte_eth_dev_close(port), 0);
	assert_int_equal(rte_vdev_uninit("net_mlx5dm23"), 0);
}

static int
setup(void **state)
{
	(void)state;
	pool = pmd_env_init_lcores("test_pmd_lcores", "0-1");
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
		cmocka_unit_test(test_two_lcores_one_matcher),
		cmocka_unit_test(test_two_lcores_flow_queues),
		cmocka_unit_test(test_walks_beside_flow_queue),
		cmocka_unit_test(test_shared_count_beside_flow_queue),
	};

	return cmocka_run_group_tests_name("pmd_lcores", tests, setup, teardown);
}
