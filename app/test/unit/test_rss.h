/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Resident memory and threads of the test process, for tests that check
 * what is populated up front or ahead and given back (warm and ahead
 * reserves, resident model ICM) and the populating thread's life.
 * Shared by the unit and the PMD suites; depends on nothing of ours.
 */

#ifndef _TEST_RSS_H_
#define _TEST_RSS_H_

#include <stdint.h>
#include <sys/types.h>

/* Resident bytes (/proc/self/statm, second field in pages); fails the test if unreadable. */
uint64_t test_rss_bytes(void);
/*
 * Resident bytes once they reach at_least, or after a minute (the
 * populate-ahead thread runs at idle priority: slow on a loaded machine).
 */
uint64_t test_rss_wait(uint64_t at_least);
/* Id of this process's thread named name (/proc/self/task/<tid>/comm), or -1 if none. */
pid_t test_thread_tid(const char *name);
/*
 * Whether no thread of that name is left, waiting up to two seconds: a
 * thread joined has exited, but may stay listed for a moment.
 */
int test_thread_gone(const char *name);

#endif /* _TEST_RSS_H_ */
