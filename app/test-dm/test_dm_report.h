/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#ifndef _TEST_DM_REPORT_H_
#define _TEST_DM_REPORT_H_

/*
 * Results of a run (every case of every suite, each repetition, and the
 * random mode) and their renderings: the summary table, a JSON document and
 * a TAP stream for CI.
 */

#include <stdint.h>
#include <stdio.h>

enum test_dm_verdict {
	TEST_DM_PASS,
	TEST_DM_FAIL,		/**< Ran, and some check failed. */
	TEST_DM_ERROR,		/**< Could not be parsed or run at all. */
	TEST_DM_SKIP,		/**< Not run, on purpose (the reason says why). */
};

struct test_dm_record {
	const char *suite;		/**< Suite name, "cases" for files given one by one. */
	const char *name;		/**< Case name. */
	const char *file;
	unsigned int run;	/**< Repetition (from 1). */
	enum test_dm_verdict verdict;
	unsigned int checks;
	unsigned int failed;	/**< Failed checks. */
	uint64_t packets;
	uint64_t received;
	double seconds;
	const char *reason;		/**< First failure, error or skip reason ("" if none). */
	const char *artifacts;	/**< Evidence left on disk ("" if none). */
};

struct test_dm_report {
	char runner[64];
	uint64_t seed;		/**< Random mode's seed (when it ran). */
	int has_seed;
	struct test_dm_record *v;
	unsigned int n;
	unsigned int cap;
	double start;
};

void test_dm_report_init(struct test_dm_report *r, const char *runner);

/** Append a record (strings are copied; NULL counts as ""). @return 0 or -ENOMEM. */
int test_dm_report_add(struct test_dm_report *r, const struct test_dm_record *rec);

void test_dm_report_free(struct test_dm_report *r);

/** Records that passed / failed (FAIL or ERROR) / were skipped. */
void test_dm_report_counts(const struct test_dm_report *r, unsigned int *passed,
			   unsigned int *failed, unsigned int *skipped);

/** Per suite: cases, passed, failed, packets and time; then the totals. */
void test_dm_report_table(const struct test_dm_report *r, FILE *out);

/** Write the JSON document / TAP stream. @return 0 or -errno. */
int test_dm_report_json(const struct test_dm_report *r, const char *path);
int test_dm_report_tap(const struct test_dm_report *r, const char *path);

#endif /* _TEST_DM_REPORT_H_ */
