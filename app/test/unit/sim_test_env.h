/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * A ready-made fake instance for the walk/action/port tests: mapped ICM of
 * all four types, TIRs 1..7 each delivering to RQ 0x100 + n, a trace
 * collector, and helpers to send one frame and read the port statistics.
 */

#ifndef _SIM_TEST_ENV_H_
#define _SIM_TEST_ENV_H_

#include "sim_test_util.h"

#define STE(off) (FAKE_STE_BASE + (off))
#define TIR_ADDR(n) (0x7e0000000ull + 0x40ull * (n))
#define RQN(n) (0x100u + (n))
#define GVMI(addr) ((uint64_t)FAKE_VHCA << 48 | (addr))

struct env {
	struct mlx5dm_sim *sim;
	struct mlx5dm_sim_engine *engine;
	char trace[16384];
	size_t trace_len;
	unsigned int trace_lines;
};

/* cmocka setup/teardown: *state = struct env *. */
int env_setup(void **state);
int env_teardown(void **state);

void env_trace_on(struct env *e);
/* Send one frame through port 0; returns its fate. */
uint8_t env_send(struct env *e, struct mlx5dm_sim_pkt *pkt);
struct mlx5dm_dev_port_stats env_stats(struct env *e);
/* The last frame RQ(n) received (NULL if none). */
const struct fake_rx *env_last_rx(struct env *e, unsigned int n);

/* A BWC rule STE: lookup lu, match (mask, tag), miss address, hit to a table. */
void env_rule(struct env *e, uint64_t addr, uint16_t lu, const uint8_t mask[16],
	      const uint8_t tag[16], uint64_t miss, uint64_t hit, uint32_t hit_size,
	      uint16_t next_lu, uint16_t next_byte_mask);
/* Fill a table with always-miss entries (the image of unused slots). */
void env_table(struct env *e, uint64_t base, uint32_t size, uint16_t lu, uint64_t miss);

#endif /* _SIM_TEST_ENV_H_ */
