/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Helpers shared by the unit tests: a counting host allocator behind the
 * mlx5dm allocation shim (leak checks that do not depend on ASan) and a
 * capture of the library's ERR log lines.
 */

#ifndef _TEST_UTIL_H_
#define _TEST_UTIL_H_

/* Install the counting allocator, zero its count and disarm fault injection. */
void test_alloc_count_install(void);
/* Host allocations (through the mlx5dm shim) currently alive. */
long test_alloc_live(void);

/* Log capture: ERR lines seen since the last start, and the last one ("module: text"). */
void test_log_start(void);
void test_log_stop(void);
int test_log_errors(void);
const char *test_log_last(void);

#endif /* _TEST_UTIL_H_ */
