/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Flow counters (COUNT), taken from bulks the device allocates 2^7 at a
 * time; a bulk is returned to the device when its last counter is freed,
 * so a failed rule leaves nothing allocated. Callers hold fp->lock.
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_flow.h"
#include "mlx5dm_osdep.h"

#define MLX5DM_FLOW_CNT_LOG_BULK 7u
#define MLX5DM_FLOW_CNT_BULK (1u << MLX5DM_FLOW_CNT_LOG_BULK)

struct mlx5dm_flow_cnt_bulk {
	LIST_ENTRY(mlx5dm_flow_cnt_bulk) next;
	struct mlx5dm_counters *c;
	uint32_t used;
	uint64_t busy[MLX5DM_FLOW_CNT_BULK / 64];
};

struct mlx5dm_counters *
mlx5dm_flow_cnt_counters(const struct mlx5dm_flow_cnt *c)
{
	return c->bulk->c;
}

static struct mlx5dm_flow_cnt_bulk *
mlx5dm_flow_cnt_bulk_new(struct mlx5dm_flow_priv *fp)
{
	struct mlx5dm_flow_cnt_bulk *b = mlx5dm_zmalloc(sizeof(*b));
	int err;

	if (b == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	b->c = mlx5dm_counters_alloc(fp->port.ctx, MLX5DM_FLOW_CNT_LOG_BULK);
	if (b->c == NULL) {
		err = errno;
		mlx5dm_free(b);
		errno = err;
		return NULL;
	}
	LIST_INSERT_HEAD(&fp->bulks, b, next);
	fp->st.cnt_bulks++;
	return b;
}

int
mlx5dm_flow_cnt_alloc(struct mlx5dm_flow_priv *fp, struct mlx5dm_flow_cnt *c)
{
	struct mlx5dm_flow_cnt_bulk *b;
	unsigned int w;

	LIST_FOREACH(b, &fp->bulks, next)
		if (b->used < MLX5DM_FLOW_CNT_BULK)
			break;
	if (b == NULL) {
		b = mlx5dm_flow_cnt_bulk_new(fp);
		if (b == NULL)
			return -errno;
	}
	for (w = 0; w < RTE_DIM(b->busy); w++)
		if (~b->busy[w] != 0)
			break;
	c->bulk = b;
	c->index = w * 64 + (uint32_t)__builtin_ctzll(~b->busy[w]);
	b->busy[w] |= 1ull << (c->index % 64);
	b->used++;
	fp->st.counters++;
	return 0;
}

void
mlx5dm_flow_cnt_free(struct mlx5dm_flow_priv *fp, struct mlx5dm_flow_cnt *c)
{
	struct mlx5dm_flow_cnt_bulk *b = c->bulk;
	int ret;

	b->busy[c->index / 64] &= ~(1ull << (c->index % 64));
	fp->st.counters--;
	c->bulk = NULL;
	if (--b->used != 0)
		return;
	LIST_REMOVE(b, next);
	ret = mlx5dm_counters_free(b->c);
	if (ret < 0)
		MLX5DM_LOG(ERR, "flow", "counter bulk not freed: %d", ret);
	mlx5dm_free(b);
	fp->st.cnt_bulks--;
}
