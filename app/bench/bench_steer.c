/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * mlx5dm-bench-steer: rule insertion/deletion through the steering library
 * on the device model (every rule is written into the model's ICM through a
 * send ring, exactly as on hardware), with per-insert latency percentiles,
 * ICM and host bytes per rule, WQEs per rule and table growth events.
 *
 * Baseline measured in the same run: rte_hash add/del of the same keys
 * (a host-only hash table, the floor of "remember a rule").
 *
 * --threads 2: insertion and deletion rates into one matcher on a context
 * with two rule queues, first by one thread on one queue (the floor), then
 * by two threads on their own queues, in the same run.
 */

#include <getopt.h>
#include <inttypes.h>
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_hash.h>
#include <rte_jhash.h>

#include "mlx5dm_dev.h"
#include "mlx5dm_osdep.h"
#include "mlx5dm_prm_match.h"
#include "mlx5dm_steer.h"

struct bench_cfg {
	uint32_t rules;
	uint32_t hint_log;
	uint32_t batch;     /* doorbell batch of the rule queue (0: every operation) */
	const char *kind;
	bool five_tuple;
	bool dmac;          /* one lookup: the destination MAC */
	uint32_t threads;   /* 2: the two-queue comparison instead of the single-queue run */
};

static uint64_t
bench_clock(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t
bench_ns(void)
{
	return bench_clock(CLOCK_MONOTONIC);
}

static int
bench_cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static void
bench_percentiles(const char *what, uint32_t *lat, uint32_t n)
{
	qsort(lat, n, sizeof(*lat), bench_cmp_u32);
	printf("  %-26s p50 %7u ns  p99 %7u ns  p99.9 %8u ns  max %9u ns\n", what,
	       lat[n / 2], lat[(uint64_t)n * 99 / 100], lat[(uint64_t)n * 999 / 1000], lat[n - 1]);
}

/* The i-th rule's key: IPv4 destination (and source for 5-tuple rules), or MAC. */
static void
bench_key(const struct bench_cfg *cfg, uint32_t i, uint8_t *v)
{
	memset(v, 0, MLX5DM_MATCH_PARAM_SIZE);
	if (cfg->dmac) {
		mlx5dm_fte_set(v, MLX5DM_FTE(outer, dmac_47_16), 0x02000000u + (i >> 16));
		mlx5dm_fte_set(v, MLX5DM_FTE(outer, dmac_15_0), i & 0xffff);
		return;
	}
	mlx5dm_fte_set(v, MLX5DM_FTE(outer, ip_version), 4);
	mlx5dm_fte_set(v, MLX5DM_FTE(outer, dst_ip_31_0), 0x0a000000u + i);
	if (cfg->five_tuple) {
		mlx5dm_fte_set(v, MLX5DM_FTE(outer, ip_protocol), 17);
		mlx5dm_fte_set(v, MLX5DM_FTE(outer, src_ip_31_0), 0xc0a80000u + (i >> 8));
		mlx5dm_fte_set(v, MLX5DM_FTE(outer, udp_sport), 1024 + (i & 0xff));
		mlx5dm_fte_set(v, MLX5DM_FTE(outer, udp_dport), 4789);
	}
}

static void
bench_mask(const struct bench_cfg *cfg, uint8_t *m)
{
	memset(m, 0, MLX5DM_MATCH_PARAM_SIZE);
	if (cfg->dmac) {
		mlx5dm_fte_set(m, MLX5DM_FTE(outer, dmac_47_16), 0xffffffff);
		mlx5dm_fte_set(m, MLX5DM_FTE(outer, dmac_15_0), 0xffff);
		return;
	}
	mlx5dm_fte_set(m, MLX5DM_FTE(outer, ip_version), 4); /* DR convention: the version */
	mlx5dm_fte_set(m, MLX5DM_FTE(outer, dst_ip_31_0), 0xffffffff);
	if (cfg->five_tuple) {
		mlx5dm_fte_set(m, MLX5DM_FTE(outer, ip_protocol), 0xff);
		mlx5dm_fte_set(m, MLX5DM_FTE(outer, src_ip_31_0), 0xffffffff);
		mlx5dm_fte_set(m, MLX5DM_FTE(outer, udp_sport), 0xffff);
		mlx5dm_fte_set(m, MLX5DM_FTE(outer, udp_dport), 0xffff);
	}
}

/*
 * Between passes (untimed): return the ICM freed by the deletions to the
 * pools, so that the next pass reuses ICM the model has already backed with
 * host memory. The first write to a model ICM page costs a host page fault
 * (nothing like it on a NIC); without this,
 * how much of a pass lands on fresh pages depends on when the pools last
 * synced, not on the library.
 */
static void
bench_settle(struct mlx5dm_domain *dom)
{
	mlx5dm_domain_sync(dom, MLX5DM_SYNC_SW | MLX5DM_SYNC_HW | MLX5DM_SYNC_MEM);
}

/* What the timed passes work on. */
struct bench_run {
	struct mlx5dm_ctx *ctx;
	struct mlx5dm_domain *dom;
	struct mlx5dm_matcher *m;
	struct mlx5dm_action *act;
	struct mlx5dm_rule **rules;
};

/*
 * Insert every rule timing each on the wall clock (a cheap clock: the
 * thread CPU clock is a system call), then delete them all. 0 or -1.
 */
static int
bench_timed_pass(const struct bench_cfg *cfg, const struct bench_run *r, uint32_t *lat)
{
	uint8_t v[MLX5DM_MATCH_PARAM_SIZE];
	uint32_t i;

	for (i = 0; i < cfg->rules; i++) {
		uint64_t a, b;

		bench_key(cfg, i, v);
		a = bench_ns();
		r->rules[i] = mlx5dm_rule_create(r->m, 0, v, 1, &r->act);
		b = bench_ns();
		if (r->rules[i] == NULL) {
			printf("insert %u failed: %s\n", i, strerror(errno));
			return -1;
		}
		lat[i] = (uint32_t)RTE_MIN(b - a, (uint64_t)UINT32_MAX);
	}
	for (i = 0; i < cfg->rules; i++)
		mlx5dm_rule_destroy(r->rules[i], 0);
	mlx5dm_queue_drain(r->ctx, 0);
	bench_settle(r->dom);
	return 0;
}

/*
 * Two warm timed passes; per insert the smaller of its two times. Being
 * preempted (a 4 ms scheduler tick on a shared machine) rarely hits the
 * same insert twice, work that an insert really does (a table growth
 * starting, a slice of a growing table written) repeats at the same index,
 * so the tail of these minima is the library's own.
 */
static int
bench_repeatable(const struct bench_cfg *cfg, const struct bench_run *r, uint32_t *lat,
		 uint32_t *tmp)
{
	uint32_t i, wi[3] = { 0, 0, 0 }, wv[3] = { 0, 0, 0 };
	unsigned int k;

	if (bench_timed_pass(cfg, r, lat) < 0 || bench_timed_pass(cfg, r, tmp) < 0)
		return -1;
	for (i = 0; i < cfg->rules; i++) {
		lat[i] = RTE_MIN(lat[i], tmp[i]);
		/* The three slowest, slowest first. */
		for (k = 0; k < 3 && lat[i] <= wv[k]; k++)
			;
		if (k == 3)
			continue;
		memmove(&wv[k + 1], &wv[k], sizeof(wv[0]) * (2 - k));
		memmove(&wi[k + 1], &wi[k], sizeof(wi[0]) * (2 - k));
		wv[k] = lat[i];
		wi[k] = i;
	}
	printf("  slowest inserts (warm, min of 2 runs): #%u %u ns, #%u %u ns, #%u %u ns\n",
	       wi[0], wv[0], wi[1], wv[1], wi[2], wv[2]);
	bench_percentiles("insert latency (warm, min 2)", lat, cfg->rules);
	return 0;
}

static size_t
bench_heap(void)
{
	struct mallinfo2 mi = mallinfo2();

	/* The library's huge-page regions (slabs, big indexes): mappings malloc does not see. */
	return mi.uordblks + mi.hblkhd + mlx5dm_huge_bytes();
}

static int
bench_baseline(const struct bench_cfg *cfg)
{
	struct rte_hash_parameters p = {
		.name = "bench_baseline", .entries = cfg->rules + cfg->rules / 4 + 64,
		.key_len = sizeof(uint32_t) * 4, .hash_func = rte_jhash, .socket_id = 0,
	};
	struct rte_hash *h = rte_hash_create(&p);
	uint32_t key[4] = { 0 };
	uint64_t t0, t1, t2;
	uint32_t i;

	if (h == NULL) {
		printf("baseline: rte_hash_create failed\n");
		return -1;
	}
	t0 = bench_ns();
	for (i = 0; i < cfg->rules; i++) {
		key[0] = 0x0a000000u + i;
		key[1] = 0xc0a80000u + (i >> 8);
		if (rte_hash_add_key(h, key) < 0)
			break;
	}
	t1 = bench_ns();
	for (i = 0; i < cfg->rules; i++) {
		key[0] = 0x0a000000u + i;
		key[1] = 0xc0a80000u + (i >> 8);
		rte_hash_del_key(h, key);
	}
	t2 = bench_ns();
	printf("baseline rte_hash (same keys, host memory only):\n");
	printf("  insert %10.0f keys/s   delete %10.0f keys/s\n",
	       cfg->rules / ((t1 - t0) / 1e9), cfg->rules / ((t2 - t1) / 1e9));
	rte_hash_free(h);
	return 0;
}

static int
bench_steer(const struct bench_cfg *cfg)
{
	struct mlx5dm_dev_attr dattr = { .transport = "sim" };
	struct mlx5dm_ctx_attr cattr = { .nb_queues = 1, .doorbell_batch = cfg->batch };
	uint8_t mask[MLX5DM_MATCH_PARAM_SIZE], v[MLX5DM_MATCH_PARAM_SIZE];
	struct mlx5dm_matcher_attr ma = { .criteria = 1, .mask = mask };
	struct mlx5dm_ctx_stats s0, s1;
	struct bench_run run;
	struct mlx5dm_rule **rules;
	struct mlx5dm_matcher *m;
	struct mlx5dm_domain *dom;
	struct mlx5dm_table *tbl;
	struct mlx5dm_action *drop;
	struct mlx5dm_ctx *ctx;
	struct mlx5dm_dev *dev;
	uint32_t *lat, *cpu, i, slow = 0;
	uint64_t t0, t1, t2, c0, c1, c2;
	size_t heap0, heap1;

	rules = calloc(cfg->rules, sizeof(*rules));
	lat = calloc(cfg->rules, sizeof(*lat));
	cpu = calloc(cfg->rules, sizeof(*cpu));
	if (rules == NULL || lat == NULL || cpu == NULL)
		return -1;
	dev = mlx5dm_dev_open(&dattr);
	ctx = dev == NULL ? NULL : mlx5dm_ctx_open(dev, &cattr);
	if (ctx == NULL) {
		printf("cannot open the device model\n");
		return -1;
	}
	dom = mlx5dm_domain_create(ctx, MLX5DM_DOMAIN_NIC_RX);
	tbl = mlx5dm_table_create(dom, 1);
	mlx5dm_domain_set_root(dom, tbl);
	drop = mlx5dm_action_drop(dom);
	bench_mask(cfg, mask);
	ma.log_rules_hint = cfg->hint_log;
	m = mlx5dm_matcher_create(tbl, &ma, NULL);
	if (m == NULL || drop == NULL) {
		printf("cannot create the matcher\n");
		return -1;
	}
	/*
	 * Pass 1, latency: every insert timed on the wall clock and on the
	 * thread's CPU clock. The CPU clock leaves out time the thread was not
	 * running (preemption by other work on this machine), so its tail
	 * shows what the library itself costs, including page faults.
	 */
	mlx5dm_ctx_stats_get(ctx, &s0);
	heap0 = bench_heap();
	for (i = 0; i < cfg->rules; i++) {
		uint64_t a, b, ca, cb;

		bench_key(cfg, i, v);
		ca = bench_clock(CLOCK_THREAD_CPUTIME_ID);
		a = bench_ns();
		rules[i] = mlx5dm_rule_create(m, 0, v, 1, &drop);
		b = bench_ns();
		cb = bench_clock(CLOCK_THREAD_CPUTIME_ID);
		if (rules[i] == NULL) {
			printf("insert %u failed: %s\n", i, strerror(errno));
			return -1;
		}
		lat[i] = (uint32_t)RTE_MIN(b - a, (uint64_t)UINT32_MAX);
		cpu[i] = (uint32_t)RTE_MIN(cb - ca, (uint64_t)UINT32_MAX);
		if (cpu[i] > 100000)
			slow++;
	}
	mlx5dm_queue_drain(ctx, 0);
	heap1 = bench_heap();
	mlx5dm_ctx_stats_get(ctx, &s1);
	printf("mlx5dm steering library on the device model, %u %s rules, one matcher "
	       "(initial table 2^%u), doorbell %s:\n", cfg->rules, cfg->kind, cfg->hint_log,
	       cfg->batch > 1 ? "batched" : "per operation");
	bench_percentiles("insert latency (wall)", lat, cfg->rules);
	bench_percentiles("insert latency (thread CPU)", cpu, cfg->rules);
	printf("  inserts using > 100 us of CPU: %u; table growths: %" PRIu64 "\n", slow,
	       s1.rehash - s0.rehash);
	printf("  ICM per rule: %.1f B (STE used %" PRIu64 " B, DM %" PRIu64 " B)\n",
	       (double)(s1.icm[0].used_bytes - s0.icm[0].used_bytes) / cfg->rules,
	       s1.icm[0].used_bytes, s1.icm[0].dm_bytes);
	printf("  host memory per rule: %.1f B;  WQEs per rule: %.2f;  bytes written per rule: "
	       "%.1f\n", (double)(heap1 - heap0) / cfg->rules,
	       (double)(s1.wqes - s0.wqes) / cfg->rules,
	       (double)(s1.write_bytes - s0.write_bytes) / cfg->rules);
	for (i = 0; i < cfg->rules; i++)
		mlx5dm_rule_destroy(rules[i], 0);
	mlx5dm_queue_drain(ctx, 0);
	bench_settle(dom);
	/*
	 * Pass 2, throughput: the same rules, untimed individually. The thread's
	 * CPU time is reported next to the wall time: on a shared machine it
	 * leaves out the time other work took the core away.
	 */
	c0 = bench_clock(CLOCK_THREAD_CPUTIME_ID);
	t0 = bench_ns();
	for (i = 0; i < cfg->rules; i++) {
		bench_key(cfg, i, v);
		rules[i] = mlx5dm_rule_create(m, 0, v, 1, &drop);
		if (rules[i] == NULL) {
			printf("insert %u failed: %s\n", i, strerror(errno));
			return -1;
		}
	}
	mlx5dm_queue_drain(ctx, 0);
	t1 = bench_ns();
	c1 = bench_clock(CLOCK_THREAD_CPUTIME_ID);
	for (i = 0; i < cfg->rules; i++)
		mlx5dm_rule_destroy(rules[i], 0);
	mlx5dm_queue_drain(ctx, 0);
	t2 = bench_ns();
	c2 = bench_clock(CLOCK_THREAD_CPUTIME_ID);
	bench_settle(dom);
	printf("  insert %10.0f rules/s   delete %10.0f rules/s (into the grown tables)\n",
	       cfg->rules / ((t1 - t0) / 1e9), cfg->rules / ((t2 - t1) / 1e9));
	printf("  insert %10.0f rules/CPU-s delete %10.0f rules/CPU-s (thread CPU time)\n",
	       cfg->rules / ((c1 - c0) / 1e9), cfg->rules / ((c2 - c1) / 1e9));
	/* Passes 3 and 4: warm per-insert latency, robust to preemption. */
	run = (struct bench_run){ .ctx = ctx, .dom = dom, .m = m, .act = drop, .rules = rules };
	if (bench_repeatable(cfg, &run, lat, cpu) < 0)
		return -1;
	mlx5dm_matcher_destroy(m);
	mlx5dm_action_destroy(drop);
	mlx5dm_domain_set_root(dom, NULL);
	mlx5dm_table_destroy(tbl);
	mlx5dm_domain_destroy(dom);
	mlx5dm_ctx_close(ctx);
	mlx5dm_dev_close(dev);
	free(cpu);
	free(lat);
	free(rules);
	return 0;
}

/* One thread's share of a two-queue pass: rules [lo, hi) on its queue. */
struct bench_worker {
	const struct bench_cfg *cfg;
	struct bench_run *run;
	uint16_t queue;
	uint32_t lo, hi;
	bool destroy;
	pthread_barrier_t *start;
	int failed;
};

static void *
bench_worker_main(void *arg)
{
	struct bench_worker *w = arg;
	uint8_t v[MLX5DM_MATCH_PARAM_SIZE];
	uint32_t i;

	pthread_barrier_wait(w->start);
	for (i = w->lo; i < w->hi; i++) {
		if (w->destroy) {
			mlx5dm_rule_destroy(w->run->rules[i], w->queue);
			continue;
		}
		bench_key(w->cfg, i, v);
		w->run->rules[i] = mlx5dm_rule_create(w->run->m, w->queue, v, 1, &w->run->act);
		if (w->run->rules[i] == NULL)
			w->failed++;
	}
	mlx5dm_queue_drain(w->run->ctx, w->queue);
	return NULL;
}

/* Insert (or delete) every rule with n threads on queues 0..n-1; the wall time in ns. */
static uint64_t
bench_queues_pass(const struct bench_cfg *cfg, struct bench_run *run, unsigned int n,
		  bool destroy)
{
	struct bench_worker w[2];
	pthread_barrier_t start;
	pthread_t th[2];
	uint64_t t0, t1;
	unsigned int k;

	pthread_barrier_init(&start, NULL, n + 1);
	for (k = 0; k < n; k++) {
		w[k] = (struct bench_worker){
			.cfg = cfg, .run = run, .queue = (uint16_t)k, .destroy = destroy,
			.lo = (uint32_t)((uint64_t)cfg->rules * k / n),
			.hi = (uint32_t)((uint64_t)cfg->rules * (k + 1) / n), .start = &start,
		};
		pthread_create(&th[k], NULL, bench_worker_main, &w[k]);
	}
	pthread_barrier_wait(&start);
	t0 = bench_ns();
	for (k = 0; k < n; k++)
		pthread_join(th[k], NULL);
	t1 = bench_ns();
	pthread_barrier_destroy(&start);
	for (k = 0; k < n; k++) {
		if (w[k].failed != 0) {
			printf("thread %u: %d inserts failed\n", k, w[k].failed);
			return 0;
		}
	}
	return t1 - t0;
}

/* Operations of both rule queues that found their shard lock held. */
static uint64_t
bench_busy(struct mlx5dm_ctx *ctx)
{
	struct mlx5dm_queue_stats qs;
	uint64_t n = 0;
	uint16_t q;

	for (q = 0; q < 2; q++) {
		if (mlx5dm_queue_stats_get(ctx, q, &qs) == 0)
			n += qs.shard_busy;
	}
	return n;
}

/*
 * One matcher, a context with two rule queues: the rates of one thread on
 * queue 0 (the floor), then of two threads on queues 0 and 1, each over
 * all the rules, the tables grown from the same initial size each time.
 */
static int
bench_queues(const struct bench_cfg *cfg)
{
	struct mlx5dm_dev_attr dattr = { .transport = "sim" };
	struct mlx5dm_ctx_attr cattr = { .nb_queues = 2, .doorbell_batch = cfg->batch };
	uint8_t mask[MLX5DM_MATCH_PARAM_SIZE];
	struct mlx5dm_matcher_attr ma = { .criteria = 1, .mask = mask };
	uint64_t busy_start, busy0, shard_max = 0;
	struct mlx5dm_matcher_stats ms;
	struct mlx5dm_ctx_stats s0, s1;
	double ins[2], del[2];
	struct bench_run run;
	struct mlx5dm_table *tbl;
	struct mlx5dm_dev *dev;
	uint64_t ti, td;
	unsigned int n;

	memset(&run, 0, sizeof(run));
	run.rules = calloc(cfg->rules, sizeof(*run.rules));
	dev = mlx5dm_dev_open(&dattr);
	run.ctx = dev == NULL ? NULL : mlx5dm_ctx_open(dev, &cattr);
	if (run.ctx == NULL || run.rules == NULL) {
		printf("cannot open the device model\n");
		return -1;
	}
	run.dom = mlx5dm_domain_create(run.ctx, MLX5DM_DOMAIN_NIC_RX);
	tbl = mlx5dm_table_create(run.dom, 1);
	mlx5dm_domain_set_root(run.dom, tbl);
	run.act = mlx5dm_action_drop(run.dom);
	bench_mask(cfg, mask);
	ma.log_rules_hint = cfg->hint_log;
	printf("mlx5dm steering library on the device model, %u %s rules, one matcher "
	       "(initial table 2^%u), two rule queues, doorbell %s:\n", cfg->rules, cfg->kind,
	       cfg->hint_log, cfg->batch > 1 ? "batched" : "per operation");
	mlx5dm_ctx_stats_get(run.ctx, &s0);
	busy_start = bench_busy(run.ctx);
	for (n = 1; n <= 2; n++) {
		/* A new matcher each time: the same growth from the same initial table. */
		run.m = mlx5dm_matcher_create(tbl, &ma, NULL);
		if (run.m == NULL || run.act == NULL) {
			printf("cannot create the matcher\n");
			return -1;
		}
		ti = bench_queues_pass(cfg, &run, n, false);
		if (ti != 0 && mlx5dm_matcher_stats_get(run.m, &ms) == 0)
			shard_max = ms.shard_rules_max;
		busy0 = bench_busy(run.ctx);
		td = ti == 0 ? 0 : bench_queues_pass(cfg, &run, n, true);
		if (td == 0)
			return -1;
		ins[n - 1] = cfg->rules / (ti / 1e9);
		del[n - 1] = cfg->rules / (td / 1e9);
		printf("  %u thread%s  insert %10.0f rules/s   delete %10.0f rules/s   "
		       "fullest shard %" PRIu64 " rules; shard lock found held: insert %"
		       PRIu64 ", delete %" PRIu64 "\n", n, n > 1 ? "s" : " ", ins[n - 1],
		       del[n - 1], shard_max, busy0 - busy_start, bench_busy(run.ctx) - busy0);
		busy_start = bench_busy(run.ctx);
		mlx5dm_matcher_destroy(run.m);
		bench_settle(run.dom);
	}
	mlx5dm_ctx_stats_get(run.ctx, &s1);
	printf("  two threads / one: insert %.2fx, delete %.2fx; waits for the other queue: %"
	       PRIu64 "\n", ins[1] / ins[0], del[1] / del[0], s1.queue_waits - s0.queue_waits);
	mlx5dm_action_destroy(run.act);
	mlx5dm_domain_set_root(run.dom, NULL);
	mlx5dm_table_destroy(tbl);
	mlx5dm_domain_destroy(run.dom);
	mlx5dm_ctx_close(run.ctx);
	mlx5dm_dev_close(dev);
	free(run.rules);
	return 0;
}

int
main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "rules", required_argument, NULL, 'r' },
		{ "hint", required_argument, NULL, 'h' },
		{ "kind", required_argument, NULL, 'k' },
		{ "batch", required_argument, NULL, 'b' },
		{ "threads", required_argument, NULL, 't' },
		{ NULL, 0, NULL, 0 },
	};
	struct bench_cfg cfg = { .rules = 1000000, .hint_log = 0, .kind = "ipv4dst" };
	int c, ret;

	ret = rte_eal_init(argc, argv);
	if (ret < 0)
		return 1;
	argc -= ret;
	argv += ret;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'r':
			cfg.rules = (uint32_t)strtoul(optarg, NULL, 0);
			break;
		case 'h':
			cfg.hint_log = (uint32_t)strtoul(optarg, NULL, 0);
			break;
		case 'k':
			cfg.kind = optarg;
			break;
		case 'b':
			cfg.batch = (uint32_t)strtoul(optarg, NULL, 0);
			break;
		case 't':
			cfg.threads = (uint32_t)strtoul(optarg, NULL, 0);
			break;
		default:
			fprintf(stderr, "usage: %s [EAL] -- [--rules N] [--hint LOG2] "
				"[--kind ipv4dst|5tuple|dmac] [--batch WQES] [--threads 1|2]\n",
				argv[0]);
			return 2;
		}
	}
	cfg.five_tuple = strcmp(cfg.kind, "5tuple") == 0;
	cfg.dmac = strcmp(cfg.kind, "dmac") == 0;
	if (!cfg.five_tuple && !cfg.dmac && strcmp(cfg.kind, "ipv4dst") != 0) {
		fprintf(stderr, "--kind: ipv4dst, 5tuple or dmac\n");
		return 2;
	}
	if (cfg.rules == 0 || cfg.rules > 16000000) {
		fprintf(stderr, "--rules: 1..16000000\n");
		return 2;
	}
	if (cfg.threads > 2) {
		fprintf(stderr, "--threads: 1 or 2\n");
		return 2;
	}
	ret = bench_baseline(&cfg);
	if (ret == 0)
		ret = cfg.threads == 2 ? bench_queues(&cfg) : bench_steer(&cfg);
	rte_eal_cleanup();
	return ret == 0 ? 0 : 1;
}
