/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#ifndef _TEST_DM_ETHDEV_RUNNER_H_
#define _TEST_DM_ETHDEV_RUNNER_H_

/*
 * The runner over real ports: net_mlx5dm ports through ethdev and rte_flow.
 * A case's packets are sent one at a time and looked for on every Rx queue
 * of every port, so each received packet is tied to the packet that was
 * sent. Tagged packets (the random mode) go in bursts of half an Rx ring and
 * are paired with what was sent by their tag; a burst ends when every packet
 * arrived or nothing arrived for the quiet time.
 */

#include <stdint.h>

#include <rte_mempool.h>

#include "test_dm_runner.h"

extern const struct test_dm_runner_ops test_dm_ethdev_runner_ops;

struct test_dm_ethdev_runner;

/**
 * A runner over every net_mlx5dm port. Ports are (re)configured by each
 * case with its number of Rx queues and one Tx queue.
 *
 * @param wait_us   how long to wait for a sent packet before calling it dropped
 * @param quiet_us  tagged bursts: how long nothing arrives before the rest are dropped
 */
struct test_dm_ethdev_runner *test_dm_ethdev_runner_new(struct rte_mempool *mp,
							 unsigned int wait_us,
							 unsigned int quiet_us);
/** A wire the PMD cannot know (hardware ports): @p port's frames arrive on @p peer. */
void test_dm_ethdev_runner_set_peer(struct test_dm_ethdev_runner *er, uint16_t port,
				    uint16_t peer);

/**
 * Does the PMD offer rte_flow at all? A trivial rule is validated on the
 * first port. @return 1 yes, 0 no (why in @p msg), <0 the port cannot start.
 */
int test_dm_ethdev_runner_flow_probe(struct test_dm_ethdev_runner *er, char *msg, size_t size);

/** Tagged packets that arrived after their burst was over (so far). */
uint64_t test_dm_ethdev_runner_late(const struct test_dm_ethdev_runner *er);

void test_dm_ethdev_runner_free(struct test_dm_ethdev_runner *er);

#endif /* _TEST_DM_ETHDEV_RUNNER_H_ */
