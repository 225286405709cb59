/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#ifndef _BENCH_KEY_H_
#define _BENCH_KEY_H_

/*
 * What the benchmarks share: the clocks, and the 5-tuple of rule i,
 * keyed the same way by a rule and by the rte_hash floor of its run.
 */

#include <stdint.h>
#include <time.h>

/* The 5-tuple of rule i (protocol implied: UDP). */
struct bench_key {
	uint32_t src;
	uint32_t dst;
	uint16_t sport;
	uint16_t dport;
};

/* Seconds of a clock: the wall's (now()), or a thread's or the process's CPU time. */
static inline double
clock_seconds(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static inline double
now(void)
{
	return clock_seconds(CLOCK_MONOTONIC);
}

static inline void
bench_key_of(uint32_t i, struct bench_key *k)
{
	k->src = 0x0a000000u | (i & 0xffffffu);
	k->dst = 0x0b000000u | ((i >> 8) & 0xffffu);
	k->sport = (uint16_t)(1024 + (i & 0x3fffu));
	k->dport = (uint16_t)(2048 + ((i >> 14) & 0x3fffu));
}

#endif /* _BENCH_KEY_H_ */
