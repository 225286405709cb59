/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#ifndef _TEST_DM_SUITE_H_
#define _TEST_DM_SUITE_H_

/* Running a list of case files through a runner, with a one-line verdict each. */

#include <stdio.h>

#include "test_dm_runner.h"

struct test_dm_suite_result {
	unsigned int passed;
	unsigned int failed;	/**< Cases that failed, could not be parsed or run. */
};

/**
 * Load and run each case file; print "PASS <name> (<n> checks)" or
 * "FAIL <name>: <first failure>" per case to @p out.
 */
void test_dm_suite_run(const struct test_dm_runner_ops *ops, void *ctx, char *const *files,
		       unsigned int nb_files, const struct test_dm_run_opts *opts, FILE *out,
		       struct test_dm_suite_result *res);

#endif /* _TEST_DM_SUITE_H_ */
