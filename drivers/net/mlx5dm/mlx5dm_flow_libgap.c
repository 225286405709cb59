/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * TEMPORARY: symbols the flow part calls that do not exist yet on this
 * branch, so librte_net_mlx5dm.so links (-Wl,--no-undefined). Each fails
 * with ENOTSUP; nothing here pretends to work. Delete this file (and its
 * line in meson.build) when:
 *  - lib/steer implements mlx5dm_tir_create/destroy, mlx5dm_action_dest_tir,
 *    mlx5dm_counters_alloc/free/query, mlx5dm_action_counter and
 *    mlx5dm_domain_dump (declared in mlx5dm_steer.h), and
 *  - the datapath implements mlx5dm_rxq_rqn() (mlx5dm.h).
 * Linking both will fail with "multiple definition", which is the reminder.
 */

#include <errno.h>

#include "mlx5dm.h"
#include "mlx5dm_steer.h"

struct mlx5dm_tir *
mlx5dm_tir_create(struct mlx5dm_ctx *ctx, const uint32_t *rqns, uint32_t nb_rqns,
		  const struct mlx5dm_rss_attr *rss)
{
	(void)ctx;
	(void)rqns;
	(void)nb_rqns;
	(void)rss;
	errno = ENOTSUP;
	return NULL;
}

int
mlx5dm_tir_destroy(struct mlx5dm_tir *tir)
{
	(void)tir;
	return -ENOTSUP;
}

struct mlx5dm_action *
mlx5dm_action_dest_tir(struct mlx5dm_domain *dom, struct mlx5dm_tir *tir)
{
	(void)dom;
	(void)tir;
	errno = ENOTSUP;
	return NULL;
}

struct mlx5dm_counters *
mlx5dm_counters_alloc(struct mlx5dm_ctx *ctx, uint32_t log_n)
{
	(void)ctx;
	(void)log_n;
	errno = ENOTSUP;
	return NULL;
}

int
mlx5dm_counters_free(struct mlx5dm_counters *c)
{
	(void)c;
	return -ENOTSUP;
}

int
mlx5dm_counters_query(struct mlx5dm_counters *c, uint32_t index, uint64_t *packets,
		      uint64_t *bytes)
{
	(void)c;
	(void)index;
	(void)packets;
	(void)bytes;
	return -ENOTSUP;
}

struct mlx5dm_action *
mlx5dm_action_counter(struct mlx5dm_domain *dom, struct mlx5dm_counters *c, uint32_t index)
{
	(void)dom;
	(void)c;
	(void)index;
	errno = ENOTSUP;
	return NULL;
}

int
mlx5dm_domain_dump(struct mlx5dm_domain *dom, FILE *f)
{
	(void)dom;
	(void)f;
	return -ENOTSUP;
}

int
mlx5dm_rxq_rqn(struct rte_eth_dev *dev, uint16_t queue, uint32_t *rqn)
{
	(void)dev;
	(void)queue;
	(void)rqn;
	return -ENOTSUP;
}
