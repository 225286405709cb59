/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#ifndef _TEST_DM_SUITE_H_
#define _TEST_DM_SUITE_H_

/*
 * Suites: a suite is a directory of case files (<suite dir>/<name>/NAME.case,
 * run in name order). The built-in suites ship in app/test-dm/suites and
 * are installed to <datadir>/dpdk-test-dm/suites. This module finds them,
 * turns a selection (suites, single case files) into a list of jobs, and
 * runs the jobs through a runner into a report, with one verdict line per
 * case and the live progress line.
 */

#include <stdio.h>

#include "test_dm_progress.h"
#include "test_dm_report.h"
#include "test_dm_runner.h"

/** Suite name given to case files selected one by one. */
#define TEST_DM_SUITE_LOOSE "cases"

struct test_dm_job {
	char *suite;
	char *path;
};

struct test_dm_jobs {
	struct test_dm_job *v;
	unsigned int n;
	unsigned int cap;
};

/**
 * Directory of the built-in suites: @p override when given, else
 * ../share/dpdk-test-dm/suites next to the running binary (an installed
 * tree), else the source tree's app/test-dm/suites (a build tree).
 *
 * @return 0, or -ENOENT with what was tried in @p msg.
 */
int test_dm_suite_dir(const char *override, char *out, size_t size, char *msg, size_t msize);

/** Names of the suites in @p dir, sorted. Free with test_dm_names_free(). @return n or -errno. */
int test_dm_suite_names(const char *dir, char ***names);
void test_dm_names_free(char **names, int n);

/**
 * Add the cases of suite @p name of @p dir ("all": every suite), sorted.
 * @return number added, -ENOENT (no such suite, with the known ones in
 * @p msg), -ENOMEM.
 */
int test_dm_jobs_add_suite(struct test_dm_jobs *j, const char *dir, const char *name,
			   char *msg, size_t size);

/** Add one case file under @p suite. @return 0 or -ENOMEM. */
int test_dm_jobs_add_file(struct test_dm_jobs *j, const char *suite, const char *path);

void test_dm_jobs_free(struct test_dm_jobs *j);

struct test_dm_suite_cfg {
	unsigned int repeat;		/**< Runs of the whole list (soak); 1 by default. */
	const struct test_dm_run_opts *opts;
	FILE *out;			/**< Verdict lines. */
	struct test_dm_progress *progress;
	/** When set, cases using rte_flow are skipped with this reason. */
	const char *skip_flow;
	/** When set, cases needing the switch topology are skipped with this reason. */
	const char *skip_switch;
};

/** Does a case of @p jobs need the switch topology ("topology switch")? */
int test_dm_jobs_need_switch(const struct test_dm_jobs *jobs);

/**
 * Load and run each job, @p cfg->repeat times over; print "PASS <suite>/<case>
 * (<n> checks on <runner>)" or "FAIL <suite>/<case>: <first failure>" per
 * case and record every result in @p report.
 */
void test_dm_suite_run(const struct test_dm_runner_ops *ops, void *ctx,
		       const struct test_dm_jobs *jobs, const struct test_dm_suite_cfg *cfg,
		       struct test_dm_report *report);

#endif /* _TEST_DM_SUITE_H_ */
