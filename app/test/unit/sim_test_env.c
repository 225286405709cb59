/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/* Shared fixture of the engine tests (see sim_test_env.h). */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sim_test_env.h"

static void
env_trace_cb(void *arg, const char *line)
{
	struct env *e = arg;
	size_t n = strlen(line);

	/* SIM_TRACE=1 in the environment echoes the walk (debugging a test). */
	if (getenv("SIM_TRACE") != NULL)
		fprintf(stderr, "%s\n", line);
	e->trace_lines++;
	/* Keep the most recent lines when a long walk overflows the buffer. */
	if (e->trace_len + n + 2 >= sizeof(e->trace))
		e->trace_len = 0;
	if (n + 2 >= sizeof(e->trace))
		return;
	memcpy(e->trace + e->trace_len, line, n);
	e->trace_len += n;
	e->trace[e->trace_len++] = '\n';
	e->trace[e->trace_len] = '\0';
}

int
env_setup(void **state)
{
	struct env *e = calloc(1, sizeof(*e));
	unsigned int n;

	if (e == NULL)
		return -1;
	e->sim = fake_create();
	e->engine = fake_engine(e->sim);
	fake_icm_map(e->sim, FAKE_STE_BASE, 1u << 20);
	fake_icm_map(e->sim, FAKE_MODIFY_BASE, 1u << 16);
	fake_icm_map(e->sim, FAKE_PATTERN_BASE, 1u << 16);
	fake_icm_map(e->sim, FAKE_ENCAP_BASE, 1u << 16);
	for (n = 1; n < 8; n++) {
		struct mlx5dm_sim_tir_info ti = { .inline_rqn = RQN(n) };

		fake_terminal_add(e->sim, TIR_ADDR(n), MLX5DM_SIM_TERM_TIR, n);
		fake_tir_add(e->sim, n, &ti);
		fake_rq_add(e->sim, RQN(n), FAKE_RQ_DEPTH, true);
	}
	if (getenv("SIM_TRACE") != NULL)
		env_trace_on(e);
	*state = e;
	return 0;
}

int
env_teardown(void **state)
{
	struct env *e = *state;

	fake_destroy(e->sim);
	free(e);
	return 0;
}

void
env_trace_on(struct env *e)
{
	e->trace_len = 0;
	e->trace_lines = 0;
	e->trace[0] = '\0';
	mlx5dm_sim_engine_trace_set(e->engine, env_trace_cb, e);
}

uint8_t
env_send(struct env *e, struct mlx5dm_sim_pkt *pkt)
{
	assert_int_equal(mlx5dm_sim_engine_port_tx(e->engine, 0, pkt, 1), 1);
	return pkt->fate;
}

struct mlx5dm_dev_port_stats
env_stats(struct env *e)
{
	struct mlx5dm_dev_port_stats st;

	assert_int_equal(mlx5dm_sim_engine_port_stats(e->engine, 0, &st), 0);
	return st;
}

const struct fake_rx *
env_last_rx(struct env *e, unsigned int n)
{
	unsigned int c = fake_rq_count(e->sim, RQN(n));

	return c ? fake_rq_get(e->sim, RQN(n), c - 1) : NULL;
}

void
env_rule(struct env *e, uint64_t addr, uint16_t lu, const uint8_t mask[16],
	 const uint8_t tag[16], uint64_t miss, uint64_t hit, uint32_t hit_size,
	 uint16_t next_lu, uint16_t next_byte_mask)
{
	struct t_ste s;

	t_ste_init(&s, lu);
	memcpy(s.mask, mask, 16);
	memcpy(s.tag, tag, 16);
	s.miss = miss;
	s.hit = hit;
	s.hit_size = hit_size;
	s.next_lu = next_lu;
	s.byte_mask = next_byte_mask;
	t_ste_put(e->sim, addr, &s);
}

void
env_table(struct env *e, uint64_t base, uint32_t size, uint16_t lu, uint64_t miss)
{
	uint32_t i;

	for (i = 0; i < size; i++)
		t_ste_put_miss(e->sim, base + 64ull * i, lu, miss);
}
