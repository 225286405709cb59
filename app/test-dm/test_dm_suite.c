/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#include <stdio.h>
#include <string.h>

#include "test_dm_suite.h"

void
test_dm_suite_run(const struct test_dm_runner_ops *ops, void *ctx, char *const *files,
		  unsigned int nb_files, const struct test_dm_run_opts *opts, FILE *out,
		  struct test_dm_suite_result *res)
{
	struct test_dm_case_result cr;
	struct test_dm_case *c;
	struct test_dm_err err;
	unsigned int i;

	memset(res, 0, sizeof(*res));
	for (i = 0; i < nb_files; i++) {
		if (test_dm_case_load(files[i], &c, &err) != 0) {
			fprintf(out, "FAIL %s: %s\n", files[i], err.msg);
			res->failed++;
			continue;
		}
		if (test_dm_case_run(c, ops, ctx, opts, &cr) != 0) {
			fprintf(out, "FAIL %s: could not run on %s: %s\n", c->name, ops->name,
				cr.first_failure);
			res->failed++;
		} else if (cr.failed != 0) {
			fprintf(out, "FAIL %s: %u of %u checks failed, first: %s\n", c->name,
				cr.failed, cr.checks, cr.first_failure);
			res->failed++;
		} else {
			fprintf(out, "PASS %s (%u checks on %s)\n", c->name, cr.checks, ops->name);
			res->passed++;
		}
		test_dm_case_free(c);
	}
}
