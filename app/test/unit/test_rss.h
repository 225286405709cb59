/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Resident memory of the test process, for tests that check what is made
 * resident up front (the model's ICM) and given back. Shared by the unit
 * and the PMD suites; depends on nothing of ours.
 */

#ifndef _TEST_RSS_H_
#define _TEST_RSS_H_

#include <stdint.h>

/*
 * Resident bytes: the resident set (/proc/self/statm) and the pages of
 * the huge page pool mapped (HugetlbPages of /proc/self/status); fails the
 * test if unreadable.
 */
uint64_t test_rss_bytes(void);

#endif /* _TEST_RSS_H_ */
