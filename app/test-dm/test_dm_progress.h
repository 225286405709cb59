/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#ifndef _TEST_DM_PROGRESS_H_
#define _TEST_DM_PROGRESS_H_

/*
 * The live progress line: rewritten in place ("\r...\033[K") while cases or
 * random packets run, only when the output is a terminal, and cleared
 * before anything else is printed so logs stay clean.
 */

#include <stdio.h>

#include <rte_common.h>

struct test_dm_progress {
	FILE *out;
	int on;			/**< The output is a terminal. */
	int shown;		/**< A line is on screen. */
	double last;		/**< When it was last drawn (seconds). */
};

/** Enabled when @p out is a terminal (and @p out is not NULL). */
void test_dm_progress_init(struct test_dm_progress *p, FILE *out);

/** Redraw the line (at most 10 times a second unless @p force). @p p may be NULL. */
void test_dm_progress_show(struct test_dm_progress *p, int force, const char *fmt, ...)
	__rte_format_printf(3, 4);

/** Erase the line, if one is shown. */
void test_dm_progress_clear(struct test_dm_progress *p);

/** Monotonic time in seconds. */
double test_dm_now(void);

#endif /* _TEST_DM_PROGRESS_H_ */
