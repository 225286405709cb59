/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * mlx5dm-bench-flow-async: the template and asynchronous rte_flow API on
 * port 0. N ingress 5-tuple rules (eth / ipv4 src dst / udp src dst, QUEUE
 * fixed by the actions template) go into one template table of group 1
 * sized for them, through one flow queue per lcore, then are destroyed the
 * same way; on 1 and on 2 lcores (each lcore its share of the rules on its
 * own queue). The queue is kept deep, as an asynchronous application keeps
 * it: the operations are postponed, and every --push operations a push is
 * followed by one pull of what the device has executed, without waiting for
 * the rest; only when the flow queue could not take the next batch (more
 * than --queue-size less --push results outstanding) does the lcore pull
 * until it can. At the end it pulls until every result is in.
 *
 * Per run: insertion and deletion rates (and insertions per second of
 * time inside the create calls, summed over the lcores: "in calls"), the
 * latency of one rte_flow_async_create() call (p50, p99, p99.9, the
 * worst), the mean and worst push plus pulls after an insertion batch ("sync"), and the ICM (xstat
 * steer_icm_used_bytes) and host bytes (rte_malloc heap in use) per rule,
 * with the table and its rules in place.
 * Next to them, the floor measured in the same run: rte_hash inserts and
 * deletes of the same keys (one table sized for N, multi-writer on 2
 * lcores) and its bytes per key.
 *
 * The program checks that its counters add up: every operation's result is
 * pulled and is a success, the port's rule count (xstat steer_rules) goes
 * from 0 to N and back, and once the table is destroyed the ICM in use is
 * what it was before. A failed check prints "check failed" and the exit
 * status is 1.
 *
 * --count adds COUNT to every rule (in the actions template, before the
 * QUEUE): each rule takes a counter of its own. --indirect counts every
 * rule of a flow queue with one indirect COUNT of that queue instead (an
 * INDIRECT action whose handle the rule gives).
 *
 * --slow US says where the time of each create slower than US microseconds
 * went, from the calling thread's CPU clock and its run-queue delay
 * (/proc/thread-self/schedstat, the scheduler's own account): waiting for
 * a CPU (runnable, another task on it: the machine's load), on its CPU
 * (the driver's work, page faults included), or neither (a wait of its
 * own). A guest that is not told of the time its vCPU was not run (steal
 * time 0 in /proc/stat) counts that time as on its CPU. Two more system
 * calls per create: the rates of such a run are not the figures to quote.
 *
 * The floor of the worst create: after the insertions, an empty loop on
 * every EAL lcore (both CPUs busy, as the lcores and the device model's
 * thread keep them) reads the TSC for as long as the insertions took; its
 * longest gap between two reads is a stall no code on that machine avoids
 * (the hypervisor or the kernel took the CPU).
 *
 * The floor of two lcores: the CPU time of the process's other threads
 * (the device model's, which executes the WQEs) during the 1-lcore
 * insertions, per CPU second of the lcore. Each lcore's stream of rules
 * needs 1 + that many CPUs, so on P online CPUs two lcores go at most
 * min(2, P / (1 + share)) times as fast as one.
 *
 *   mlx5dm-bench-flow-async EAL_ARGS -- --rules N [--lcores 1,2] [--push 32]
 *                                      [--queue-size 1024] [--slow US] [--count]
 *                                      [--indirect]
 */

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_flow.h>
#include <rte_hash.h>
#include <rte_jhash.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>

#include "bench_key.h"

#include <rte_pmd_mlx5dm.h>

#define PORT 0
#define MAX_LCORES 2
#define PULL_BURST 64

struct bench_opts {
	uint32_t rules;
	uint32_t push;
	uint32_t queue_size;
	unsigned int lcores[MAX_LCORES];
	unsigned int nb_runs;
	uint32_t slow_us;		/**< Account for creates slower than this (0: none). */
};

/* --count: the rules count (the templates' and the workers' actions). */
static bool counted;
/* --indirect: through the indirect COUNT of their flow queue. */
static bool indirect;
static struct rte_flow_action_handle *shared[MAX_LCORES];
/* The first action of a counted rule (the rule's, NULL: a template's). */
#define BENCH_COUNT(handle) { \
	.type = indirect ? RTE_FLOW_ACTION_TYPE_INDIRECT : RTE_FLOW_ACTION_TYPE_COUNT, \
	.conf = indirect ? (handle) : NULL }

/* Where the time of a slow create went (--slow). */
enum slow_cause {
	SLOW_RUNQUEUE,			/**< Runnable, waiting for a CPU. */
	SLOW_ON_CPU,			/**< Running. */
	SLOW_OTHER,			/**< Neither. */
	SLOW_CAUSES
};

static const char *const slow_names[SLOW_CAUSES] = {
	"waiting for a CPU", "on its CPU", "neither",
};

/* The thread's CPU time and run-queue delay, nanoseconds. */
struct slow_clock {
	uint64_t cpu;
	uint64_t wait;
};

/* One lcore's empty loop (the floor of the worst create). */
struct bench_stall {
	uint64_t cycles;		/**< How long to loop. */
	uint64_t max;			/**< The longest gap between two TSC reads... */
	uint64_t over;			/**< ...and the gaps over 1 ms. */
};

static struct bench_stall stalls[RTE_MAX_LCORE];

/* One lcore's share of a run. */
struct bench_worker {
	unsigned int queue;
	uint32_t push;			/**< Operations between pushes. */
	uint32_t keep;			/**< Results outstanding the queue has room beside. */
	uint32_t first;
	uint32_t n;
	struct rte_flow **flows;	/**< Handles of the share's rules. */
	uint32_t *lat;			/**< Cycles of each create call. */
	struct rte_flow_template_table *table;
	struct rte_hash *hash;		/**< Floor runs. */
	bool destroy;
	/* results */
	uint64_t calls_ok;
	uint64_t pulled_ok;
	uint64_t pulled_failed;
	uint64_t call_failed;
	uint64_t pull_timeouts;		/**< Pulls that timed out (and were retried). */
	uint64_t max_batch;		/**< Cycles of the slowest push + pulls. */
	uint64_t sum_batch;		/**< Cycles of all of them... */
	uint64_t nb_batch;		/**< ...and their number. */
	uint64_t max_cycles;		/**< The slowest create (lat[] stops at 32 bits)... */
	uint32_t max_at;		/**< ...and its rule in the share. */
	uint32_t slow_cycles;		/**< --slow in TSC cycles (0: off). */
	int schedstat;			/**< /proc/thread-self/schedstat, or -1. */
	uint64_t slow[SLOW_CAUSES];	/**< Slow creates by cause... */
	uint64_t slow_max[SLOW_CAUSES];	/**< ...and the slowest of each (cycles). */
	double seconds;
	double cpu_seconds;		/**< The lcore's own CPU time in the run. */
	char error[160];
};

static struct bench_worker workers[MAX_LCORES];

static uint64_t
xstat(const char *name)
{
	uint64_t id, v = UINT64_MAX;

	if (rte_eth_xstats_get_id_by_name(PORT, name, &id) != 0 ||
	    rte_eth_xstats_get_by_id(PORT, &id, &v, 1) != 1)
		return UINT64_MAX;
	return v;
}

/* Bytes allocated from the rte_malloc heaps of every socket. */
static uint64_t
heap_bytes(void)
{
	struct rte_malloc_socket_stats s;
	uint64_t sum = 0;
	unsigned int i;

	for (i = 0; i < rte_socket_count(); i++)
		if (rte_malloc_get_socket_stats(rte_socket_id_by_idx(i), &s) == 0)
			sum += s.heap_allocsz_bytes;
	return sum;
}

static int
port_start(uint16_t nb_queues, uint32_t queue_size)
{
	const struct rte_flow_queue_attr qa = { .size = queue_size };
	const struct rte_flow_queue_attr *qas[MAX_LCORES] = { &qa, &qa };
	const struct rte_flow_port_attr pa = { 0 };
	struct rte_pmd_mlx5dm_port_info info;
	struct rte_eth_conf conf = { 0 };
	struct rte_flow_error err = { 0 };
	struct rte_mempool *mp;
	int ret;

	if (rte_pmd_mlx5dm_port_info_get(PORT, &info) != 0) {
		fprintf(stderr, "port %u is not a net_mlx5dm port: pass --vdev net_mlx5dm0\n",
			PORT);
		return -1;
	}
	mp = rte_pktmbuf_pool_create("bench", 1024, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE, 0);
	ret = mp == NULL ? -ENOMEM : rte_eth_dev_configure(PORT, 1, 1, &conf);
	if (ret == 0)
		ret = rte_eth_rx_queue_setup(PORT, 0, 256, rte_socket_id(), NULL, mp);
	if (ret == 0)
		ret = rte_eth_tx_queue_setup(PORT, 0, 256, rte_socket_id(), NULL);
	if (ret == 0) {
		ret = rte_flow_configure(PORT, &pa, nb_queues, qas, &err);
		if (ret != 0)
			fprintf(stderr, "rte_flow_configure: %s\n",
				err.message != NULL ? err.message : "?");
	}
	if (ret == 0)
		ret = rte_eth_dev_start(PORT);
	if (ret != 0)
		fprintf(stderr, "port set-up failed: %d\n", ret);
	return ret;
}

/* The templates, the table of group 1 for @p rules and the jump to it. */
static struct rte_flow_template_table *
table_create(uint32_t rules, struct rte_flow_pattern_template **pt,
	     struct rte_flow_actions_template **at, struct rte_flow **jump)
{
	static const struct rte_flow_item_ipv4 ip_mask = {
		.hdr = { .src_addr = RTE_BE32(0xffffffff), .dst_addr = RTE_BE32(0xffffffff) },
	};
	static const struct rte_flow_item_udp udp_mask = {
		.hdr = { .src_port = RTE_BE16(0xffff), .dst_port = RTE_BE16(0xffff) },
	};
	const struct rte_flow_item pattern[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_IPV4, .mask = &ip_mask },
		{ .type = RTE_FLOW_ITEM_TYPE_UDP, .mask = &udp_mask },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	static const struct rte_flow_action_queue q0 = { .index = 0 };
	static const struct rte_flow_action_queue qmask = { .index = 0xffff };
	const struct rte_flow_action acts[] = {
		BENCH_COUNT(NULL),
		{ .type = RTE_FLOW_ACTION_TYPE_QUEUE, .conf = &q0 },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	const struct rte_flow_action masks[] = {
		BENCH_COUNT(NULL),
		{ .type = RTE_FLOW_ACTION_TYPE_QUEUE, .conf = &qmask },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	static const struct rte_flow_action_jump to1 = { .group = 1 };
	const struct rte_flow_action jump_acts[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_JUMP, .conf = &to1 },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	const struct rte_flow_item jump_pattern[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	const struct rte_flow_pattern_template_attr pa = { .ingress = 1 };
	const struct rte_flow_actions_template_attr aa = { .ingress = 1 };
	const struct rte_flow_template_table_attr ta = {
		.flow_attr = { .group = 1, .ingress = 1 },
		.nb_flows = rules,
	};
	const struct rte_flow_attr jump_attr = { .ingress = 1 };
	struct rte_flow_template_table *t = NULL;
	struct rte_flow_error err = { 0 };

	*pt = rte_flow_pattern_template_create(PORT, &pa, pattern, &err);
	*at = *pt == NULL ? NULL : rte_flow_actions_template_create(PORT, &aa, acts + !counted,
								   masks + !counted, &err);
	if (*at != NULL)
		t = rte_flow_template_table_create(PORT, &ta, pt, 1, at, 1, &err);
	if (t != NULL)
		*jump = rte_flow_create(PORT, &jump_attr, jump_pattern, jump_acts, &err);
	if (t == NULL || *jump == NULL)
		fprintf(stderr, "templates: %s\n", err.message != NULL ? err.message : "?");
	return t != NULL && *jump != NULL ? t : NULL;
}

/* Pull what the queue has; every result is counted. */
static unsigned int
pull(struct bench_worker *w)
{
	struct rte_flow_op_result res[PULL_BURST];
	struct rte_flow_error err = { 0 };
	int n, i;

	n = rte_flow_pull(PORT, w->queue, res, PULL_BURST, &err);
	/* A failed rule queue the device did not flush for the stall limit: pull again. */
	if (n == -ETIMEDOUT) {
		w->pull_timeouts++;
		return 0;
	}
	if (n < 0) {
		snprintf(w->error, sizeof(w->error), "rte_flow_pull: %s",
			 err.message != NULL ? err.message : "?");
		return 0;
	}
	for (i = 0; i < n; i++) {
		if (res[i].status == RTE_FLOW_OP_SUCCESS)
			w->pulled_ok++;
		else
			w->pulled_failed++;
	}
	return (unsigned int)n;
}

static void
slow_read(const struct bench_worker *w, struct slow_clock *c)
{
	unsigned long long run, wait;
	struct timespec ts;
	char buf[96];
	ssize_t n;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	c->cpu = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	c->wait = 0;
	n = pread(w->schedstat, buf, sizeof(buf) - 1, 0);
	if (n > 0) {
		buf[n] = '\0';
		if (sscanf(buf, "%llu %llu", &run, &wait) == 2)
			c->wait = wait;
	}
}

/* A create of @p cycles that began at @p c0: its cause when it was slow. */
static void
slow_account(struct bench_worker *w, const struct slow_clock *c0, uint64_t cycles)
{
	double ns = (double)cycles * 1e9 / (double)rte_get_tsc_hz();
	struct slow_clock c1;
	enum slow_cause k;

	if (cycles <= w->slow_cycles)
		return;
	slow_read(w, &c1);
	if ((double)(c1.wait - c0->wait) >= ns / 2)
		k = SLOW_RUNQUEUE;
	else if ((double)(c1.cpu - c0->cpu) >= ns / 2)
		k = SLOW_ON_CPU;
	else
		k = SLOW_OTHER;
	w->slow[k]++;
	w->slow_max[k] = RTE_MAX(w->slow_max[k], cycles);
}

/*
 * A push, one pull of what the device has executed, then more pulls only
 * while more than @p keep operations wait for their result.
 */
static void
push_pull(struct bench_worker *w, uint64_t *inflight, uint64_t keep)
{
	struct rte_flow_error err = { 0 };
	uint64_t t0 = rte_rdtsc(), t;
	unsigned int n;

	if (rte_flow_push(PORT, w->queue, &err) != 0) {
		snprintf(w->error, sizeof(w->error), "rte_flow_push: %s",
			 err.message != NULL ? err.message : "?");
		return;
	}
	do {
		n = pull(w);
		*inflight -= RTE_MIN((uint64_t)n, *inflight);
		/* Waiting with nothing done yet: the device model's thread may need this core. */
		if (n == 0 && *inflight > keep)
			sched_yield();
	} while (*inflight > keep && w->error[0] == '\0');
	t = rte_rdtsc() - t0;
	w->max_batch = RTE_MAX(w->max_batch, t);
	w->sum_batch += t;
	w->nb_batch++;
}

static int
worker_flows(void *arg)
{
	static const struct rte_flow_action_queue q0 = { .index = 0 };
	struct bench_worker *w = arg;
	/* The first skipped without --count. */
	const struct rte_flow_action acts[] = {
		BENCH_COUNT(shared[w->queue]),
		{ .type = RTE_FLOW_ACTION_TYPE_QUEUE, .conf = &q0 },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	const struct rte_flow_op_attr postpone = { .postpone = 1 };
	struct rte_flow_item_ipv4 ip = { 0 };
	struct rte_flow_item_udp udp = { 0 };
	const struct rte_flow_item pattern[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_IPV4, .spec = &ip },
		{ .type = RTE_FLOW_ITEM_TYPE_UDP, .spec = &udp },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_error err = { 0 };
	uint64_t inflight = 0, t0, t;
	struct slow_clock c0;
	struct bench_key k;
	double start;
	uint32_t i;
	int ret;

	w->schedstat = w->slow_cycles != 0 && !w->destroy ?
		       open("/proc/thread-self/schedstat", O_RDONLY) : -1;
	w->cpu_seconds = -clock_seconds(CLOCK_THREAD_CPUTIME_ID);
	start = now();
	for (i = 0; i < w->n && w->error[0] == '\0'; i++) {
		if (w->destroy) {
			ret = rte_flow_async_destroy(PORT, w->queue, &postpone, w->flows[i], NULL,
						     &err);
			if (ret != 0) {
				w->call_failed++;
				snprintf(w->error, sizeof(w->error), "rte_flow_async_destroy: %s",
					 err.message != NULL ? err.message : "?");
				break;
			}
		} else {
			bench_key_of(w->first + i, &k);
			ip.hdr.src_addr = rte_cpu_to_be_32(k.src);
			ip.hdr.dst_addr = rte_cpu_to_be_32(k.dst);
			udp.hdr.src_port = rte_cpu_to_be_16(k.sport);
			udp.hdr.dst_port = rte_cpu_to_be_16(k.dport);
			if (w->slow_cycles != 0)
				slow_read(w, &c0);
			t0 = rte_rdtsc();
			w->flows[i] = rte_flow_async_create(PORT, w->queue, &postpone, w->table,
							    pattern, 0, acts + !counted, 0, NULL,
							    &err);
			t = rte_rdtsc() - t0;
			w->lat[i] = (uint32_t)RTE_MIN(t, (uint64_t)UINT32_MAX);
			if (t > w->max_cycles) {
				w->max_cycles = t;
				w->max_at = i;
			}
			if (w->slow_cycles != 0)
				slow_account(w, &c0, t);
			if (w->flows[i] == NULL) {
				w->call_failed++;
				snprintf(w->error, sizeof(w->error), "rte_flow_async_create: %s",
					 err.message != NULL ? err.message : "?");
				break;
			}
		}
		w->calls_ok++;
		inflight++;
		if ((i + 1) % w->push == 0)
			push_pull(w, &inflight, w->keep);
	}
	if (w->error[0] == '\0')
		push_pull(w, &inflight, 0);
	w->seconds = now() - start;
	w->cpu_seconds += clock_seconds(CLOCK_THREAD_CPUTIME_ID);
	if (w->schedstat >= 0)
		close(w->schedstat);
	return 0;
}

/* The floor: the same keys into (or out of) an rte_hash. */
static int
worker_hash(void *arg)
{
	struct bench_worker *w = arg;
	struct bench_key k;
	double start = now();
	uint32_t i;
	int ret;

	for (i = 0; i < w->n; i++) {
		bench_key_of(w->first + i, &k);
		ret = w->destroy ? rte_hash_del_key(w->hash, &k) :
		      rte_hash_add_key_data(w->hash, &k, (void *)(uintptr_t)(i + 1));
		if (ret < 0) {
			snprintf(w->error, sizeof(w->error), "rte_hash: %s", strerror(-ret));
			break;
		}
		w->calls_ok++;
	}
	w->seconds = now() - start;
	return 0;
}

static int
worker_stall(void *arg)
{
	struct bench_stall *s = &stalls[rte_lcore_id()];
	uint64_t ms = rte_get_tsc_hz() / 1000, prev, end, t;

	(void)arg;
	s->max = s->over = 0;
	prev = rte_rdtsc();
	end = prev + s->cycles;
	while (prev < end) {
		t = rte_rdtsc();
		if (t - prev > s->max)
			s->max = t - prev;
		s->over += t - prev > ms;
		prev = t;
	}
	return 0;
}

/* The empty loop on every EAL lcore for @p seconds: its longest gap (us), gaps over 1 ms. */
static void
stall_floor(double seconds, double *max_us, uint64_t *over)
{
	unsigned int lcore;

	RTE_LCORE_FOREACH(lcore)
		stalls[lcore].cycles = (uint64_t)(seconds * rte_get_tsc_hz());
	rte_eal_mp_remote_launch(worker_stall, NULL, CALL_MAIN);
	rte_eal_mp_wait_lcore();
	*max_us = 0;
	*over = 0;
	RTE_LCORE_FOREACH(lcore) {
		*max_us = RTE_MAX(*max_us, stalls[lcore].max * 1e6 / rte_get_tsc_hz());
		*over += stalls[lcore].over;
	}
}

/* Run fn on @p nb lcores (the main one last), each on its share; the slowest time. */
static double
run_on(unsigned int nb, lcore_function_t *fn)
{
	unsigned int lcore, k = 0, i;
	double t = 0;

	RTE_LCORE_FOREACH_WORKER(lcore) {
		if (k + 1 >= nb)
			break;
		rte_eal_remote_launch(fn, &workers[k++], lcore);
	}
	fn(&workers[k]);
	rte_eal_mp_wait_lcore();
	for (i = 0; i < nb; i++)
		t = RTE_MAX(t, workers[i].seconds);
	return t;
}

static int
cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

struct bench_result {
	double insert;
	double delete;
	double p50, p99, p999, max;	/**< Microseconds. */
	uint32_t worst;			/**< The rule of the slowest create. */
	uint64_t over;			/**< Creates over 1 ms. */
	double seconds;			/**< The insertions' time. */
	double other_cpu;		/**< The other threads' CPU per lcore CPU, insertions. */
	double stall_max;		/**< The empty loop's longest gap, microseconds... */
	uint64_t stall_over;		/**< ...and its gaps over 1 ms. */
	uint64_t slow[SLOW_CAUSES];	/**< --slow: creates by cause... */
	double slow_max[SLOW_CAUSES];	/**< ...and the slowest of each, microseconds. */
	double calls;			/**< Creates per second of time inside the calls. */
	double max_batch;
	double mean_batch;
	double icm_per_rule;
	double host_per_rule;
	double floor_insert;
	double floor_delete;
	double floor_per_key;
	bool ok;
};

static bool
check(bool cond, const char *what, unsigned int nb)
{
	if (!cond)
		printf("check failed (%u lcore%s): %s\n", nb, nb > 1 ? "s" : "", what);
	return cond;
}

static void
share(unsigned int nb, uint32_t rules, struct rte_flow **flows, uint32_t *lat, uint32_t push,
      uint32_t queue_size)
{
	unsigned int i;

	memset(workers, 0, sizeof(workers));
	for (i = 0; i < nb; i++) {
		workers[i].queue = i;
		workers[i].push = push;
		workers[i].keep = queue_size - push;
		workers[i].first = rules / nb * i;
		workers[i].n = i + 1 == nb ? rules - workers[i].first : rules / nb;
		workers[i].flows = flows == NULL ? NULL : flows + workers[i].first;
		workers[i].lat = lat == NULL ? NULL : lat + workers[i].first;
	}
}

static bool
workers_ok(unsigned int nb, const char *phase)
{
	bool ok = true;
	unsigned int i;

	for (i = 0; i < nb; i++) {
		if (workers[i].error[0] != '\0') {
			printf("check failed (%s, lcore %u): %s\n", phase, i, workers[i].error);
			ok = false;
		}
	}
	return ok;
}

/* Sums over the lcores; batch: the slowest push + pull, and their mean (cycles). */
static void
sums(unsigned int nb, uint64_t *calls, uint64_t *ok, uint64_t *failed, uint64_t *batch,
     double *mean)
{
	uint64_t sum = 0, n = 0;
	unsigned int i;

	*calls = *ok = *failed = *batch = 0;
	for (i = 0; i < nb; i++) {
		*calls += workers[i].calls_ok;
		*ok += workers[i].pulled_ok;
		*failed += workers[i].pulled_failed + workers[i].call_failed;
		*batch = RTE_MAX(*batch, workers[i].max_batch);
		sum += workers[i].sum_batch;
		n += workers[i].nb_batch;
	}
	*mean = n != 0 ? (double)sum / n : 0;
}

static void
floor_run(unsigned int nb, uint32_t rules, struct bench_result *r)
{
	struct rte_hash_parameters hp = {
		.name = "bench_floor",
		.entries = rules,
		.key_len = sizeof(struct bench_key),
		.hash_func = rte_jhash,
		.socket_id = (int)rte_socket_id(),
		.extra_flag = nb > 1 ? RTE_HASH_EXTRA_FLAGS_MULTI_WRITER_ADD : 0,
	};
	uint64_t heap0 = heap_bytes();
	struct rte_hash *h = rte_hash_create(&hp);
	unsigned int i;
	double t;

	if (h == NULL) {
		printf("check failed: rte_hash_create for %u keys\n", rules);
		r->ok = false;
		return;
	}
	share(nb, rules, NULL, NULL, 0, 0);
	for (i = 0; i < nb; i++)
		workers[i].hash = h;
	t = run_on(nb, worker_hash);
	r->floor_insert = rules / t;
	r->floor_per_key = (double)(heap_bytes() - heap0) / rules;
	r->ok &= workers_ok(nb, "floor insert");
	r->ok &= check(rte_hash_count(h) == (int32_t)rules, "rte_hash holds every key", nb);
	for (i = 0; i < nb; i++) {
		workers[i].destroy = true;
		workers[i].calls_ok = 0;
	}
	t = run_on(nb, worker_hash);
	r->floor_delete = rules / t;
	r->ok &= workers_ok(nb, "floor delete");
	r->ok &= check(rte_hash_count(h) == 0, "rte_hash is empty again", nb);
	rte_hash_free(h);
}

/* --indirect: the indirect COUNT of each of nb flow queues made (or destroyed); false: failed. */
static bool
shared_counts(unsigned int nb, bool destroy)
{
	static const struct rte_flow_indir_action_conf ic = { .ingress = 1 };
	static const struct rte_flow_action count = { .type = RTE_FLOW_ACTION_TYPE_COUNT };
	struct rte_flow_error err = { 0 };
	struct rte_flow_op_result res;
	unsigned int i;
	int n;

	for (i = 0; indirect && i < nb; i++) {
		if (destroy && rte_flow_async_action_handle_destroy(PORT, i, NULL, shared[i], NULL,
								    &err) != 0)
			return false;
		if (!destroy) {
			shared[i] = rte_flow_async_action_handle_create(PORT, i, NULL, &ic, &count,
									NULL, &err);
			if (shared[i] == NULL)
				return false;
		}
		/* Its result, with no rule write to wait for. */
		do
			n = rte_flow_pull(PORT, i, &res, 1, &err);
		while (n == 0);
		if (n < 0 || res.status != RTE_FLOW_OP_SUCCESS)
			return false;
	}
	return true;
}

static void
bench_run(const struct bench_opts *o, unsigned int nb, struct rte_flow **flows, uint32_t *lat,
	  struct bench_result *r)
{
	struct rte_flow_pattern_template *pt = NULL;
	struct rte_flow_actions_template *at = NULL;
	struct rte_flow_template_table *table;
	uint64_t icm0, icm1, icm2, heap0, heap1, rules0, calls, ok, failed, batch, created;
	uint64_t timeouts = 0, slow;
	struct rte_flow *jump = NULL;
	struct rte_flow_error err = { 0 };
	double hz = (double)rte_get_tsc_hz() / 1e6, t, mean, cpu, lcore_cpu = 0;
	unsigned int i;
	char what[160];

	memset(r, 0, sizeof(*r));
	r->ok = check(shared_counts(nb, false), "the indirect COUNTs made", nb);
	if (!r->ok)
		return;
	icm0 = xstat("steer_icm_used_bytes");
	rules0 = xstat("steer_rules");
	heap0 = heap_bytes();
	table = table_create(o->rules, &pt, &at, &jump);
	if (table == NULL) {
		r->ok = check(false, "the template table could not be made", nb);
		shared_counts(nb, true);
		return;
	}
	share(nb, o->rules, flows, lat, o->push, o->queue_size);
	slow = RTE_MIN(o->slow_us * (rte_get_tsc_hz() / 1000000), (uint64_t)UINT32_MAX);
	for (i = 0; i < nb; i++) {
		workers[i].table = table;
		workers[i].slow_cycles = (uint32_t)slow;
	}
	cpu = -clock_seconds(CLOCK_PROCESS_CPUTIME_ID);
	t = run_on(nb, worker_flows);
	cpu += clock_seconds(CLOCK_PROCESS_CPUTIME_ID);
	r->seconds = t;
	for (i = 0; i < nb; i++)
		lcore_cpu += workers[i].cpu_seconds;
	r->other_cpu = lcore_cpu > 0 ? (cpu - lcore_cpu) / lcore_cpu : 0;
	for (i = 0; i < nb; i++) {
		unsigned int k;

		if (workers[i].max_cycles / hz > r->max) {
			r->max = workers[i].max_cycles / hz;
			r->worst = workers[i].first + workers[i].max_at;
		}
		for (k = 0; k < SLOW_CAUSES; k++) {
			r->slow[k] += workers[i].slow[k];
			r->slow_max[k] = RTE_MAX(r->slow_max[k], workers[i].slow_max[k] / hz);
		}
	}
	for (i = 0; i < nb; i++)
		timeouts += workers[i].pull_timeouts;
	icm1 = xstat("steer_icm_used_bytes");
	heap1 = heap_bytes();
	r->ok &= workers_ok(nb, "insert");
	sums(nb, &calls, &ok, &failed, &batch, &mean);
	/* Of what was done: a failed run says how far it got. */
	r->insert = calls / t;
	r->max_batch = batch / hz;
	r->mean_batch = mean / hz;
	snprintf(what, sizeof(what), "%u rules: %" PRIu64 " created, %" PRIu64 " pulled "
		 "successful, %" PRIu64 " failed", o->rules, calls, ok, failed);
	r->ok &= check(calls == o->rules && ok == o->rules && failed == 0, what, nb);
	/* The jump of group 0 is one more rule. */
	snprintf(what, sizeof(what), "steer_rules %" PRIu64 " after the insertions, expected "
		 "%" PRIu64, xstat("steer_rules"), rules0 + o->rules + 1);
	r->ok &= check(xstat("steer_rules") == rules0 + o->rules + 1, what, nb);
	r->icm_per_rule = (double)(icm1 - icm0) / o->rules;
	r->host_per_rule = (double)(heap1 - heap0) / o->rules;
	if (calls == o->rules) {
		uint64_t in_calls = 0;

		for (i = 0; i < o->rules; i++)
			in_calls += lat[i];
		r->calls = in_calls != 0 ? o->rules * hz * 1e6 / in_calls : 0;
		qsort(lat, o->rules, sizeof(*lat), cmp_u32);
		r->p50 = lat[(uint64_t)o->rules * 50 / 100] / hz;
		r->p99 = lat[(uint64_t)o->rules * 99 / 100] / hz;
		r->p999 = lat[(uint64_t)o->rules * 999 / 1000] / hz;
		for (i = o->rules; i > 0 && lat[i - 1] > hz * 1000; i--)
			r->over++;
	}
	stall_floor(r->seconds, &r->stall_max, &r->stall_over);
	/* Each lcore destroys the rules it made, also after a failed insertion. */
	created = calls;
	for (i = 0; i < nb; i++) {
		workers[i].destroy = true;
		workers[i].n = (uint32_t)workers[i].calls_ok;
		workers[i].calls_ok = workers[i].pulled_ok = workers[i].pulled_failed = 0;
		workers[i].call_failed = workers[i].pull_timeouts = 0;
		workers[i].error[0] = '\0';
	}
	t = run_on(nb, worker_flows);
	for (i = 0; i < nb; i++)
		timeouts += workers[i].pull_timeouts;
	/* The run went on, but the device was silent for the stall limit. */
	snprintf(what, sizeof(what), "%" PRIu64 " pulls timed out (retried)", timeouts);
	r->ok &= check(timeouts == 0, what, nb);
	r->ok &= workers_ok(nb, "delete");
	sums(nb, &calls, &ok, &failed, &batch, &mean);
	r->delete = calls / t;
	snprintf(what, sizeof(what), "%" PRIu64 " rules: %" PRIu64 " destroyed, %" PRIu64
		 " pulled successful, %" PRIu64 " failed", created, calls, ok, failed);
	r->ok &= check(calls == created && ok == created && failed == 0, what, nb);
	r->ok &= check(rte_flow_destroy(PORT, jump, &err) == 0, "the jump rule destroyed", nb);
	r->ok &= check(rte_flow_template_table_destroy(PORT, table, &err) == 0,
		       "the template table destroyed", nb);
	rte_flow_actions_template_destroy(PORT, at, &err);
	rte_flow_pattern_template_destroy(PORT, pt, &err);
	r->ok &= check(shared_counts(nb, true), "the indirect COUNTs destroyed", nb);
	icm2 = xstat("steer_icm_used_bytes");
	snprintf(what, sizeof(what), "steer_rules %" PRIu64 " after the destructions, "
		 "expected %" PRIu64, xstat("steer_rules"), rules0);
	r->ok &= check(xstat("steer_rules") == rules0, what, nb);
	snprintf(what, sizeof(what), "ICM in use %" PRIu64 " B once the table is gone, %"
		 PRIu64 " B before it", icm2, icm0);
	r->ok &= check(icm2 == icm0 && icm0 != UINT64_MAX, what, nb);
	/*
	 * The PMD keeps its rule-handle chunks until the port stops: without
	 * a restart the next run would reuse them and read fewer host bytes.
	 */
	r->ok &= check(rte_eth_dev_stop(PORT) == 0 && rte_eth_dev_start(PORT) == 0,
		       "the port restarted", nb);
	floor_run(nb, o->rules, r);
}

static int
parse_lcores(const char *s, struct bench_opts *o)
{
	char *end;
	unsigned long v;

	o->nb_runs = 0;
	while (*s != '\0') {
		v = strtoul(s, &end, 10);
		if (end == s || v == 0 || v > MAX_LCORES || o->nb_runs == MAX_LCORES)
			return -1;
		o->lcores[o->nb_runs++] = (unsigned int)v;
		s = *end == ',' ? end + 1 : end;
		if (*end != ',' && *end != '\0')
			return -1;
	}
	return o->nb_runs != 0 ? 0 : -1;
}

int
main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "rules", required_argument, NULL, 'r' },
		{ "lcores", required_argument, NULL, 'l' },
		{ "push", required_argument, NULL, 'p' },
		{ "queue-size", required_argument, NULL, 'q' },
		{ "slow", required_argument, NULL, 's' },
		{ "count", no_argument, NULL, 'c' },
		{ "indirect", no_argument, NULL, 'i' },
		{ NULL, 0, NULL, 0 },
	};
	struct bench_opts o = { .rules = 1000000, .push = 32, .queue_size = 1024,
				.lcores = { 1, 2 }, .nb_runs = 2 };
	unsigned int i, max_nb = 1;
	struct bench_result r[MAX_LCORES];
	struct rte_flow **flows;
	uint32_t *lat;
	bool ok = true;
	int ret, c;

	ret = rte_eal_init(argc, argv);
	if (ret < 0)
		return 1;
	argc -= ret;
	argv += ret;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'r':
			o.rules = (uint32_t)strtoul(optarg, NULL, 0);
			break;
		case 'l':
			if (parse_lcores(optarg, &o) < 0) {
				fprintf(stderr, "--lcores: a list of 1 and 2\n");
				return 1;
			}
			break;
		case 'p':
			o.push = (uint32_t)strtoul(optarg, NULL, 0);
			break;
		case 'q':
			o.queue_size = (uint32_t)strtoul(optarg, NULL, 0);
			break;
		case 's':
			o.slow_us = (uint32_t)strtoul(optarg, NULL, 0);
			break;
		case 'c':
			counted = true;
			break;
		case 'i':
			counted = indirect = true;
			break;
		default:
			return 1;
		}
	}
	for (i = 0; i < o.nb_runs; i++)
		max_nb = RTE_MAX(max_nb, o.lcores[i]);
	if (o.rules < max_nb || o.push == 0 || o.queue_size < 2 * o.push ||
	    max_nb > rte_lcore_count()) {
		fprintf(stderr, "need --rules >= lcores, --push > 0, --queue-size >= 2 x --push, "
			"and as many EAL lcores (-l) as the most --lcores\n");
		return 1;
	}
	if (port_start((uint16_t)max_nb, o.queue_size) != 0)
		return 1;
	/* Taken before any measurement: they are the program's, not the rules'. */
	flows = malloc(sizeof(*flows) * o.rules);
	lat = malloc(sizeof(*lat) * o.rules);
	if (flows == NULL || lat == NULL) {
		fprintf(stderr, "out of memory\n");
		return 1;
	}
	printf("async rte_flow: %u rules, 5-tuple%s, one template table in group 1, push every %u, "
	       "flow queues of %u (net_mlx5dm)\n", o.rules,
	       indirect ? ", counted (indirect)" : counted ? ", counted" : "", o.push,
	       o.queue_size);
	printf("%-6s %10s %10s %10s %7s %7s %8s %8s %8s %8s %7s %8s | %10s %10s %6s\n",
	       "lcores", "insert/s", "in calls", "delete/s", "p50 us", "p99 us", "p99.9 us",
	       "max us", "sync us", "max sync", "ICM B/r", "host B/r", "floor ins", "floor del",
	       "B/key");
	for (i = 0; i < o.nb_runs; i++) {
		bench_run(&o, o.lcores[i], flows, lat, &r[i]);
		ok &= r[i].ok;
		printf("%-6u %10.0f %10.0f %10.0f %7.2f %7.2f %8.2f %8.1f %8.1f %8.1f %7.1f "
		       "%8.1f | %10.0f %10.0f %6.1f\n", o.lcores[i], r[i].insert, r[i].calls,
		       r[i].delete, r[i].p50, r[i].p99, r[i].p999, r[i].max, r[i].mean_batch,
		       r[i].max_batch,
		       r[i].icm_per_rule, r[i].host_per_rule, r[i].floor_insert, r[i].floor_delete,
		       r[i].floor_per_key);
		fflush(stdout);
	}
	/* The first rules of a table make its matcher: say whether the worst was one of them. */
	for (i = 0; i < o.nb_runs; i++) {
		printf("%u lcore%s: the slowest create (%.1f us) was rule %u, %" PRIu64 " over "
		       "1000 us; an empty loop on every EAL lcore for as long (%.2f s): longest "
		       "stall %.1f us, %" PRIu64 " over 1000 us\n", o.lcores[i],
		       o.lcores[i] > 1 ? "s" : "", r[i].max, r[i].worst, r[i].over, r[i].seconds,
		       r[i].stall_max, r[i].stall_over);
		if (o.slow_us != 0) {
			unsigned int k;

			printf("%u lcore%s: creates over %u us:", o.lcores[i],
			       o.lcores[i] > 1 ? "s" : "", o.slow_us);
			for (k = 0; k < SLOW_CAUSES; k++)
				printf("%s %" PRIu64 " %s (worst %.1f us)", k > 0 ? "," : "",
				       r[i].slow[k], slow_names[k], r[i].slow_max[k]);
			printf("\n");
		}
	}
	for (i = 1; i < o.nb_runs; i++)
		if (o.lcores[i] == 2 && o.lcores[0] == 1 && r[0].insert > 0)
			printf("2 lcores / 1 lcore: insert %.2fx, delete %.2fx; at most %.2fx on "
			       "%ld CPUs (the other threads took %.2f CPU s per lcore CPU s of the "
			       "1-lcore insertions)\n", r[i].insert / r[0].insert,
			       r[i].delete / r[0].delete,
			       RTE_MIN(2.0, sysconf(_SC_NPROCESSORS_ONLN) / (1 + r[0].other_cpu)),
			       sysconf(_SC_NPROCESSORS_ONLN), r[0].other_cpu);
	printf("targets: 1 lcore >= 4 M/s insert and >= 8 M/s delete at 1 M rules; 2 lcores >= "
	       "1.8x one; no insertion above 1000 us at 4 M rules; <= 96 ICM B and <= 128 host B "
	       "per rule\n");
	printf("checks: %s\n", ok ? "every operation pulled successful, rule counts and ICM back "
	       "to the start\n" : "FAILED (see above)\n");
	free(lat);
	free(flows);
	rte_eth_dev_stop(PORT);
	rte_eth_dev_close(PORT);
	rte_eal_cleanup();
	return ok ? 0 : 1;
}
