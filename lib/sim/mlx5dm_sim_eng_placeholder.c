/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * TEMPORARY PLACEHOLDER for the engine half of the model (parser, STE
 * walker, actions, wire, stats, trace), which is developed on its own
 * branch. It only lets the core build and be unit-tested alone: there is
 * no packet processing here (port_tx, wire and stats return -ENOTSUP) and
 * no test relies on engine behaviour. Delete this file when the engine
 * is merged.
 */

#include <errno.h>

#include "mlx5dm_sim_core.h"

struct mlx5dm_sim_eng {
	struct mlx5dm_sim *sim;
};

struct mlx5dm_sim_eng *
mlx5dm_sim_eng_create(struct mlx5dm_sim *sim)
{
	struct mlx5dm_sim_eng *eng = mlx5dm_zmalloc(sizeof(*eng));

	if (eng == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	eng->sim = sim;
	return eng;
}

void
mlx5dm_sim_eng_destroy(struct mlx5dm_sim_eng *eng)
{
	mlx5dm_free(eng);
}

int
mlx5dm_sim_eng_port_tx(struct mlx5dm_sim_eng *eng, uint16_t port, struct mlx5dm_dev_pkt *pkts,
		       uint16_t n)
{
	(void)eng;
	(void)port;
	(void)pkts;
	(void)n;
	return -ENOTSUP;
}

int
mlx5dm_sim_eng_wire_connect(struct mlx5dm_sim_eng *a, uint16_t pa, struct mlx5dm_sim_eng *b,
			    uint16_t pb)
{
	(void)a;
	(void)pa;
	(void)b;
	(void)pb;
	return -ENOTSUP;
}

void
mlx5dm_sim_eng_wire_disconnect(struct mlx5dm_sim_eng *eng)
{
	(void)eng;
}

int
mlx5dm_sim_eng_port_stats(struct mlx5dm_sim_eng *eng, uint16_t port,
			  struct mlx5dm_sim_port_stats *st)
{
	(void)eng;
	(void)port;
	(void)st;
	return -ENOTSUP;
}

void
mlx5dm_sim_eng_trace_set(struct mlx5dm_sim_eng *eng, mlx5dm_sim_trace_fn fn, void *arg)
{
	(void)eng;
	(void)fn;
	(void)arg;
}
