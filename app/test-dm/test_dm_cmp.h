/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#ifndef _TEST_DM_CMP_H_
#define _TEST_DM_CMP_H_

/*
 * Comparing what a runner reported for a packet with the reference
 * classifier's fate: delivered or dropped, where (a QUEUE fate names the
 * queue, an RSS fate a set of queues: a device hashes differently from the
 * reference, so any queue of the set is right), mark and flag, and the
 * exact bytes.
 */

#include <stddef.h>

#include "test_dm_ref.h"
#include "test_dm_runner.h"

/**
 * @return 0 when @p rx is what @p f predicts, else 1 with the first
 *   difference described in @p why.
 */
int test_dm_fate_cmp(const struct test_dm_fate *f, const struct test_dm_rx *rx, char *why,
		     size_t size);

/** "dropped", "port 0 queue 3", "port 0 one of queues 0,1,2 (rss)", with mark/flag. */
void test_dm_fate_format(const struct test_dm_fate *f, char *buf, size_t size);
void test_dm_rx_format(const struct test_dm_rx *rx, char *buf, size_t size);

#endif /* _TEST_DM_CMP_H_ */
