/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#ifndef _TEST_DM_LOOPBACK_H_
#define _TEST_DM_LOOPBACK_H_

/*
 * The loopback check: numbered Ether/IPv4/UDP packets sent on every
 * net_mlx5dm port must arrive, byte for byte and in order, on the port at
 * the other end of its wire. Needs no rte_flow.
 */

#include <rte_mempool.h>

#include "test_dm_opts.h"
#include "test_dm_report.h"

/** One record per port in @p report ("loopback" suite). */
void test_dm_loopback_run(const struct test_dm_config *cfg, struct rte_mempool *mp,
			  struct test_dm_report *report);

#endif /* _TEST_DM_LOOPBACK_H_ */
