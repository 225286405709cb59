/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * dpdk-test-dm: validates net_mlx5dm by loopback traffic
 * (doc/guides/tools/testdm.rst).
 *
 *  - no selection: the loopback check on every net_mlx5dm port;
 *  - --suite/--case/--random: cases and the random mode on the net_mlx5dm
 *    ports (--run, the default) or on the reference classifier (--check).
 *
 * Every run ends with a summary table, optional JSON/TAP reports, and the
 * line "N passed, N failed"; the exit status is 0 only when nothing failed
 * (1: failures, 2: nothing could be run).
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "test_dm_ethdev_runner.h"
#include "test_dm_loopback.h"
#include "test_dm_mutant.h"
#include "test_dm_opts.h"
#include "test_dm_ports.h"
#include "test_dm_random.h"
#include "test_dm_ref.h"
#include "test_dm_report.h"
#include "test_dm_suite.h"
#include "test_dm_topo.h"

#define TEST_DM_MBUFS 8192
#define TEST_DM_MBUFS_PER_PORT 2048
#define TEST_DM_RANDOM_QUEUES 8

/* Where cases run: the runner, its context, and what it is made of. */
struct test_dm_target {
	const struct test_dm_runner_ops *ops;
	void *ctx;
	struct test_dm_ref_runner *rr;
	struct test_dm_ethdev_runner *er;
	struct test_dm_mutant *mut;
	struct rte_mempool *mp;
	/** Set when rte_flow is missing and --skip-without-flow was given. */
	char skip_flow[256];
	/** Set when a case needs the switch topology and the ports have none. */
	char skip_switch[512];
};

static int
test_dm_list(const struct test_dm_config *cfg)
{
	struct test_dm_jobs jobs = { 0 };
	char dir[1024], msg[512];
	unsigned int i;

	if (test_dm_suite_dir(cfg->suite_dir, dir, sizeof(dir), msg, sizeof(msg)) < 0 ||
	    test_dm_jobs_add_suite(&jobs, dir, "all", msg, sizeof(msg)) < 0) {
		fprintf(stderr, "test-dm: %s\n", msg);
		return TEST_DM_EXIT_SETUP;
	}
	printf("suites in %s:\n", dir);
	for (i = 0; i < jobs.n; i++)
		printf("  %s/%s\n", jobs.v[i].suite, strrchr(jobs.v[i].path, '/') + 1);
	printf("%u cases\n", jobs.n);
	test_dm_jobs_free(&jobs);
	return 0;
}

static int
test_dm_select(const struct test_dm_config *cfg, struct test_dm_jobs *jobs)
{
	char dir[1024], msg[512];
	unsigned int i;

	if (cfg->nb_suites != 0 &&
	    test_dm_suite_dir(cfg->suite_dir, dir, sizeof(dir), msg, sizeof(msg)) < 0) {
		fprintf(stderr, "test-dm: %s\n", msg);
		return -1;
	}
	for (i = 0; i < cfg->nb_suites; i++) {
		if (test_dm_jobs_add_suite(jobs, dir, cfg->suites[i], msg, sizeof(msg)) < 0) {
			fprintf(stderr, "test-dm: --suite %s: %s\n", cfg->suites[i], msg);
			return -1;
		}
	}
	for (i = 0; i < cfg->nb_cases; i++)
		if (test_dm_jobs_add_file(jobs, TEST_DM_SUITE_LOOSE, cfg->cases[i]) < 0)
			return -1;
	return 0;
}

/*
 * The switch topology for the cases that need it: the default topology
 * gains the switch's vdev; given ports must include one. Without it those
 * cases are skipped with the reason.
 */
static void
test_dm_target_switch(const struct test_dm_config *cfg, struct test_dm_target *t, int defaults)
{
	char msg[sizeof(t->skip_switch) - 64];

	if (defaults && !cfg->backend_hw && test_dm_ports_add_switch(msg, sizeof(msg)) < 0)
		goto skip;
	if (test_dm_ports_find_switch(cfg, msg, sizeof(msg)) == 0)
		return;
skip:
	snprintf(t->skip_switch, sizeof(t->skip_switch), "switch topology not available: %s",
		 msg);
	printf("%s; the cases that need it are skipped\n", t->skip_switch);
}

static int
test_dm_target_ports(const struct test_dm_config *cfg, struct test_dm_target *t, int need_switch)
{
	int defaults = rte_eth_dev_count_avail() == 0;
	char msg[512];
	uint16_t port;
	int ret;

	ret = test_dm_ports_prepare(cfg, msg, sizeof(msg));
	if (ret < 0) {
		fprintf(stderr, "test-dm: %s\n", msg);
		return -1;
	}
	if (need_switch)
		test_dm_target_switch(cfg, t, defaults);
	/* Every Rx queue of every port holds mbufs: a switch's ports need more. */
	t->mp = rte_pktmbuf_pool_create("test_dm_pool", RTE_MAX(TEST_DM_MBUFS,
					rte_eth_dev_count_avail() * TEST_DM_MBUFS_PER_PORT), 0, 0,
					RTE_MBUF_DEFAULT_BUF_SIZE, (int)rte_socket_id());
	if (t->mp == NULL) {
		fprintf(stderr, "test-dm: cannot create the mbuf pool\n");
		return -1;
	}
	t->er = test_dm_ethdev_runner_new(t->mp, cfg->wait_us, cfg->quiet_us);
	if (t->er == NULL)
		return -1;
	RTE_ETH_FOREACH_DEV(port)
		test_dm_ethdev_runner_set_peer(t->er, port, test_dm_ports_peer(cfg, port));
	t->ops = &test_dm_ethdev_runner_ops;
	t->ctx = t->er;
	ret = test_dm_ethdev_runner_flow_probe(t->er, msg, sizeof(msg));
	if (ret < 0) {
		fprintf(stderr, "test-dm: %s\n", msg);
		return -1;
	}
	if (ret == 0) {
		printf("rte_flow not available in this PMD build (%s)\n", msg);
		if (cfg->skip_without_flow) {
			snprintf(t->skip_flow, sizeof(t->skip_flow), "rte_flow not available in "
				 "this PMD build");
			printf("rte_flow not available in this PMD build; suites skipped (cases "
			       "without rules still run)\n");
		}
	}
	return 0;
}

static int
test_dm_target_open(const struct test_dm_config *cfg, struct test_dm_target *t, int need_switch)
{
	uint16_t peer[TEST_DM_REF_MAX_PORTS], p;

	memset(t, 0, sizeof(*t));
	if (cfg->check) {
		/*
		 * The reference models the default topology of the ports
		 * (test_dm_ports.h) and, behind it, the switch topology
		 * (test_dm_topo.h), its PF's uplink looped as the PMD's is.
		 */
		test_dm_topo_set_default();
		for (p = 0; p < TEST_DM_REF_MAX_PORTS; p++)
			peer[p] = p < TEST_DM_DEFAULT_PORTS ? test_dm_default_peer[p] : p;
		t->rr = test_dm_ref_runner_new(TEST_DM_REF_MAX_PORTS, peer);
		if (t->rr == NULL)
			return -1;
		test_dm_ref_runner_set_role(t->rr, test_dm_topo_port(TEST_DM_TOPO_PF),
					    TEST_DM_REF_PF, 0);
		for (p = 0; p < TEST_DM_TOPO_VFS; p++) {
			test_dm_ref_runner_set_role(t->rr, test_dm_topo_port(TEST_DM_TOPO_REP0 + p),
						    TEST_DM_REF_REP, (uint8_t)p);
			test_dm_ref_runner_set_role(t->rr, test_dm_topo_port(TEST_DM_TOPO_VF0 + p),
						    TEST_DM_REF_VF, (uint8_t)p);
		}
		if (cfg->no_limits)
			test_dm_ref_runner_set_limits(t->rr, TEST_DM_REF_LIMITS_NONE);
		t->ops = &test_dm_ref_runner_ops;
		t->ctx = t->rr;
	} else if (test_dm_target_ports(cfg, t, need_switch) < 0) {
		return -1;
	}
	if (cfg->mutate == NULL)
		return 0;
	t->mut = test_dm_mutant_new(t->ops, t->ctx, cfg->mutate);
	if (t->mut == NULL) {
		fprintf(stderr, "test-dm: --mutate %s: expected one of %s\n", cfg->mutate,
			TEST_DM_MUTANT_KINDS);
		return -1;
	}
	printf("NOTE: running on a deliberately broken runner (--mutate %s)\n", cfg->mutate);
	t->ops = &test_dm_mutant_ops;
	t->ctx = t->mut;
	return 0;
}

static void
test_dm_target_close(struct test_dm_target *t)
{
	test_dm_mutant_free(t->mut);
	test_dm_ethdev_runner_free(t->er);
	test_dm_ref_runner_free(t->rr);
	if (t->mp != NULL)
		rte_mempool_free(t->mp);
}

static void
test_dm_random(const struct test_dm_config *cfg, struct test_dm_target *t,
	       struct test_dm_progress *progress, struct test_dm_report *report)
{
	struct test_dm_random_cfg rc = {
		.seed = cfg->seed, .packets = cfg->random, .rules = cfg->rules, .port = 0,
		.nb_queues = TEST_DM_RANDOM_QUEUES, .batch = 256, .out_dir = cfg->out_dir,
		.max_report = 20, .log = stdout, .verbose = cfg->verbose, .progress = progress,
		.templates = cfg->templates, .churn = cfg->churn, .tuples = cfg->tuples,
		.transfer = cfg->transfer,
	};
	struct test_dm_record rec = { .suite = "random", .run = 1, .file = "" };
	struct test_dm_random_result res;
	char name[64], why[700];
	double t0 = test_dm_now();

	snprintf(name, sizeof(name), "seed-%" PRIu64, cfg->seed);
	rec.name = name;
	report->seed = cfg->seed;
	report->has_seed = 1;
	if (t->skip_flow[0] != '\0') {
		rec.verdict = TEST_DM_SKIP;
		rec.reason = t->skip_flow;
		printf("SKIP random/%s: %s\n", name, t->skip_flow);
		test_dm_report_add(report, &rec);
		return;
	}
	printf("random: seed %" PRIu64 ", %u rules%s%s, %" PRIu64 " packets on %s\n", cfg->seed,
	       cfg->rules, cfg->templates ? " through template tables" : "",
	       cfg->transfer ? " on the switch" : "", cfg->random, t->ops->name);
	if (test_dm_random_run(t->ops, t->ctx, &rc, &res) < 0) {
		rec.verdict = TEST_DM_ERROR;
		snprintf(why, sizeof(why), "could not run: %s", res.first);
	} else {
		rec.verdict = test_dm_random_failures(&res) != 0 ? TEST_DM_FAIL : TEST_DM_PASS;
		snprintf(why, sizeof(why), "%s", res.first);
	}
	rec.reason = why;
	rec.artifacts = res.reproducer;
	rec.packets = res.packets;
	rec.received = res.received;
	rec.checks = (unsigned int)RTE_MIN(res.packets + res.rules, (uint64_t)UINT32_MAX);
	rec.failed = (unsigned int)RTE_MIN(test_dm_random_failures(&res), (uint64_t)UINT32_MAX);
	rec.seconds = test_dm_now() - t0;
	printf("%s random/%s: %u rules (%u refused by the generator's reference check), "
	       "%" PRIu64 " packets, %" PRIu64 " received, %" PRIu64 " mismatches, "
	       "%u rules refused by %s, %u counters differ\n",
	       rec.verdict == TEST_DM_PASS ? "PASS" : "FAIL", name, res.rules, res.gen_refused,
	       res.packets, res.received, res.mismatches, res.runner_refused, t->ops->name,
	       res.count_mismatches);
	printf("  reference fates: %" PRIu64 " dropped, %" PRIu64 " to a queue, %" PRIu64
	       " spread by an RSS rule, %" PRIu64 " missed every rule; %u of %u rules met\n",
	       res.dropped, res.queued, res.spread, res.missed, res.rules_hit, res.rules);
	if (cfg->transfer)
		printf("  %" PRIu64 " sent to a port of the switch by a transfer rule\n",
		       res.switched);
	if (cfg->templates)
		printf("  %u of the %u rules through %u template tables and flow queues\n",
		       res.via_templates, res.rules, res.tables);
	if (cfg->churn)
		printf("  %u rules destroyed before the second half of the packets, %u "
		       "destructions failed\n", res.destroyed, res.destroy_failures);
	if (t->er != NULL && test_dm_ethdev_runner_late(t->er) != 0)
		printf("  %" PRIu64 " packets arrived after their burst (counted dropped); "
		       "--quiet-us is %u\n", test_dm_ethdev_runner_late(t->er), cfg->quiet_us);
	if (rec.verdict != TEST_DM_PASS)
		printf("  first: %s\n  reproducer: %s\n", why, res.reproducer);
	test_dm_report_add(report, &rec);
}

static int
test_dm_finish(const struct test_dm_config *cfg, struct test_dm_report *report)
{
	unsigned int passed, failed, skipped;

	test_dm_report_table(report, stdout);
	if (cfg->json != NULL && test_dm_report_json(report, cfg->json) < 0)
		fprintf(stderr, "test-dm: cannot write %s\n", cfg->json);
	if (cfg->tap != NULL && test_dm_report_tap(report, cfg->tap) < 0)
		fprintf(stderr, "test-dm: cannot write %s\n", cfg->tap);
	test_dm_report_counts(report, &passed, &failed, &skipped);
	if (skipped != 0)
		printf("%u skipped\n", skipped);
	printf("%u passed, %u failed\n", passed, failed);
	return failed != 0 ? TEST_DM_EXIT_FAIL : 0;
}

static int
test_dm_cases(const struct test_dm_config *cfg)
{
	struct test_dm_run_opts opts = { .log = stdout, .verbose = cfg->verbose,
					 .out_dir = cfg->out_dir, .max_log = 20 };
	struct test_dm_jobs jobs = { 0 };
	struct test_dm_progress progress;
	struct test_dm_report report;
	struct test_dm_target t;
	struct test_dm_suite_cfg sc = { .repeat = cfg->repeat, .opts = &opts, .out = stdout,
					.progress = &progress };
	int ret;

	if (test_dm_select(cfg, &jobs) < 0) {
		test_dm_jobs_free(&jobs);
		return TEST_DM_EXIT_SETUP;
	}
	if (test_dm_target_open(cfg, &t, test_dm_jobs_need_switch(&jobs) ||
				(cfg->random != 0 && cfg->transfer)) < 0) {
		test_dm_target_close(&t);
		test_dm_jobs_free(&jobs);
		return TEST_DM_EXIT_SETUP;
	}
	test_dm_progress_init(&progress, stdout);
	test_dm_report_init(&report, t.ops->name);
	sc.skip_flow = t.skip_flow[0] != '\0' ? t.skip_flow : NULL;
	sc.skip_switch = t.skip_switch[0] != '\0' ? t.skip_switch : NULL;
	test_dm_suite_run(t.ops, t.ctx, &jobs, &sc, &report);
	if (cfg->random != 0)
		test_dm_random(cfg, &t, &progress, &report);
	ret = test_dm_finish(cfg, &report);
	test_dm_report_free(&report);
	test_dm_target_close(&t);
	test_dm_jobs_free(&jobs);
	return ret;
}

static int
test_dm_loopback(const struct test_dm_config *cfg)
{
	struct test_dm_report report;
	struct rte_mempool *mp;
	char msg[512];
	int ret;

	if (test_dm_ports_prepare(cfg, msg, sizeof(msg)) < 0) {
		fprintf(stderr, "test-dm: %s\n", msg);
		return TEST_DM_EXIT_SETUP;
	}
	mp = rte_pktmbuf_pool_create("test_dm_pool", TEST_DM_MBUFS, 0, 0,
				     RTE_MBUF_DEFAULT_BUF_SIZE, (int)rte_socket_id());
	if (mp == NULL) {
		fprintf(stderr, "test-dm: cannot create the mbuf pool\n");
		return TEST_DM_EXIT_SETUP;
	}
	test_dm_report_init(&report, "net_mlx5dm");
	test_dm_loopback_run(cfg, mp, &report);
	ret = test_dm_finish(cfg, &report);
	test_dm_report_free(&report);
	rte_mempool_free(mp);
	return ret;
}

int
main(int argc, char **argv)
{
	struct test_dm_config cfg;
	int ret;

	test_dm_opts_init(&cfg, argc, argv);
	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		fprintf(stderr, "test-dm: EAL initialisation failed\n");
		return TEST_DM_EXIT_SETUP;
	}
	argc -= ret;
	argv += ret;
	ret = test_dm_opts_parse(argc, argv, &cfg);
	if (ret != 0)
		ret = ret > 0 ? 0 : TEST_DM_EXIT_SETUP;
	else if (cfg.list)
		ret = test_dm_list(&cfg);
	else if (test_dm_opts_has_work(&cfg))
		ret = test_dm_cases(&cfg);
	else
		ret = test_dm_loopback(&cfg);
	free(cfg.suites);
	free(cfg.cases);
	rte_eal_cleanup();
	return ret;
}
