/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Flow counters (COUNT), taken from bulks the device allocates. A bulk is
 * a firmware command, so bulks grow geometrically with the counters in use
 * (2^7, 2^8, ... up to 2^16, or the largest bulk the device accepted): a
 * million counted rules cost a few dozen commands, not thousands. Bulks
 * with a free counter are on fp->bulks, so taking one is O(1); inside a
 * bulk a word hint skips the full words. A bulk is returned to the device
 * when its last counter is freed, so a failed rule leaves nothing
 * allocated.
 *
 * Each counted flow has its own counter action (the library's counter
 * action names one counter), created with the counter and destroyed with
 * it, so a destroyed or failed flow leaves no action behind. A reused
 * counter's device value is not zero: its value at allocation becomes the
 * flow's base (flows report what they counted themselves).
 *
 * Callers hold fp->lock.
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_flow.h"
#include "mlx5dm_osdep.h"

#define MLX5DM_FLOW_CNT_LOG_MIN 7u
#define MLX5DM_FLOW_CNT_LOG_MAX 16u

struct mlx5dm_flow_cnt_bulk {
	LIST_ENTRY(mlx5dm_flow_cnt_bulk) next;  /* on fp->bulks while not full */
	struct mlx5dm_counters *c;
	uint32_t size;
	uint32_t used;
	uint32_t hint;                  /* no free counter in the words below */
	uint64_t *dirty;                /* counters used before (their value is not zero) */
	uint64_t busy[];                /* size / 64 words, then dirty's */
};

struct mlx5dm_counters *
mlx5dm_flow_cnt_counters(const struct mlx5dm_flow_cnt *c)
{
	return c->bulk->c;
}

static void
mlx5dm_flow_cnt_bulk_free(struct mlx5dm_flow_priv *fp, struct mlx5dm_flow_cnt_bulk *b)
{
	int ret = mlx5dm_counters_free(b->c);

	if (ret < 0)
		MLX5DM_LOG(ERR, "flow", "counter bulk not freed: %d", ret);
	mlx5dm_free(b);
	fp->st.cnt_bulks--;
}

/*
 * A device refusing a bulk size (above its log_max_flow_counter_bulk, or
 * no aligned room left for it) is asked for half as many, down to 2^7; the
 * size it refused is not asked again on this port.
 */
static struct mlx5dm_counters *
mlx5dm_flow_cnt_bulk_alloc(struct mlx5dm_flow_priv *fp, uint32_t *log)
{
	struct mlx5dm_counters *c;

	if (fp->cnt_log_max == 0)
		fp->cnt_log_max = MLX5DM_FLOW_CNT_LOG_MAX;
	*log = RTE_MIN(MLX5DM_FLOW_CNT_LOG_MIN + fp->st.cnt_bulks, fp->cnt_log_max);
	for (;;) {
		c = mlx5dm_counters_alloc(fp->port.ctx, *log);
		if (c != NULL || *log == MLX5DM_FLOW_CNT_LOG_MIN)
			return c;
		fp->cnt_log_max = --*log;
	}
}

static struct mlx5dm_flow_cnt_bulk *
mlx5dm_flow_cnt_bulk_new(struct mlx5dm_flow_priv *fp)
{
	struct mlx5dm_flow_cnt_bulk *b;
	struct mlx5dm_counters *c;
	uint32_t log, words;
	int err;

	c = mlx5dm_flow_cnt_bulk_alloc(fp, &log);
	if (c == NULL)
		return NULL;
	words = (1u << log) / 64;
	b = mlx5dm_zmalloc(sizeof(*b) + 2 * words * sizeof(b->busy[0]));
	if (b == NULL) {
		err = mlx5dm_counters_free(c);
		if (err < 0)
			MLX5DM_LOG(ERR, "flow", "counter bulk not freed: %d", err);
		errno = ENOMEM;
		return NULL;
	}
	b->c = c;
	b->size = 1u << log;
	b->dirty = b->busy + words;
	LIST_INSERT_HEAD(&fp->bulks, b, next);
	fp->st.cnt_bulks++;
	return b;
}

int
mlx5dm_flow_cnt_alloc(struct mlx5dm_flow_priv *fp, unsigned int dom, struct mlx5dm_flow_cnt *c)
{
	struct mlx5dm_flow_cnt_bulk *b = LIST_FIRST(&fp->bulks);
	uint32_t w, bit;
	uint64_t hits = 0, bytes = 0;
	int ret;

	if (b == NULL) {
		b = mlx5dm_flow_cnt_bulk_new(fp);
		if (b == NULL)
			return -errno;
	}
	for (w = b->hint; ~b->busy[w] == 0; w++)
		;
	b->hint = w;
	bit = (uint32_t)__builtin_ctzll(~b->busy[w]);
	c->bulk = b;
	c->index = w * 64 + bit;
	if (b->dirty[w] & (1ull << bit)) {
		ret = mlx5dm_counters_query(b->c, c->index, &hits, &bytes);
		if (ret < 0) {
			errno = -ret;
			goto fail;
		}
	}
	c->action = mlx5dm_action_counter(fp->port.dom[dom], b->c, c->index);
	if (c->action == NULL)
		goto fail;
	c->base_hits = hits;
	c->base_bytes = bytes;
	b->busy[w] |= 1ull << bit;
	b->dirty[w] |= 1ull << bit;
	if (++b->used == b->size)
		LIST_REMOVE(b, next);
	fp->st.counters++;
	return 0;
fail:
	ret = -errno;
	c->bulk = NULL;
	if (b->used == 0) {
		LIST_REMOVE(b, next);
		mlx5dm_flow_cnt_bulk_free(fp, b);
	}
	return ret;
}

void
mlx5dm_flow_cnt_free(struct mlx5dm_flow_priv *fp, struct mlx5dm_flow_cnt *c)
{
	struct mlx5dm_flow_cnt_bulk *b = c->bulk;
	uint32_t w = c->index / 64;
	int ret = mlx5dm_action_destroy(c->action);

	if (ret < 0)
		MLX5DM_LOG(ERR, "flow", "counter action not destroyed: %d", ret);
	b->busy[w] &= ~(1ull << (c->index % 64));
	if (w < b->hint)
		b->hint = w;
	fp->st.counters--;
	c->bulk = NULL;
	c->action = NULL;
	if (b->used-- == b->size)
		LIST_INSERT_HEAD(&fp->bulks, b, next);
	if (b->used != 0)
		return;
	LIST_REMOVE(b, next);
	mlx5dm_flow_cnt_bulk_free(fp, b);
}
