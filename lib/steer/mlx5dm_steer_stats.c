/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Statistics of matchers, tables and domains.
 *
 * A matcher's hash-table figures are kept as they change (the table code
 * and the rule code update them in the shard they work in, under its
 * lock; mlx5dm_matcher_counts), because finding
 * every table of a matcher means visiting every slot of every level. What
 * is cheap to walk is walked: the tables of a domain and the matchers of a
 * table (under the context lock, which guards those lists), the chains
 * being grown of a matcher (under its locks). Each matcher's figures are
 * read under all its shard locks, so they are consistent per matcher; a table or
 * domain sum is not one atomic snapshot across matchers.
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_steer_priv.h"

void
mlx5dm_htbl_stats_drop(const struct mlx5dm_htbl *h)
{
	struct mlx5dm_matcher_counts *c = mlx5dm_htbl_cnt(h);

	c->entries -= h->num_entries;
	c->used -= h->used;
	c->collisions -= h->collisions;
	/* Links of a chain are only freed with the whole chain. */
	if (h->chain_next != NULL || h->chain_prev != NULL)
		c->chained--;
}

void
mlx5dm_htbl_stats_grown(const struct mlx5dm_htbl *g)
{
	struct mlx5dm_matcher_counts *c = mlx5dm_htbl_cnt(g);

	c->growths++;
	/* The old head was alone until now: both tables join the chain count. */
	c->chained += g->chain_next->chain_next == NULL ? 2 : 1;
}

static void
mlx5dm_matcher_counts_add(struct mlx5dm_matcher_stats *st, const struct mlx5dm_matcher_counts *c)
{
	st->rules += c->rules;
	st->tables += c->tables;
	st->entries += c->entries;
	st->used += c->used;
	st->collisions += c->collisions;
	st->chained_tables += c->chained;
	st->growths += c->growths;
}

/* The context's device objects behind actions (mlx5dm_ctx_stats_get). */
void
mlx5dm_steer_stats_objects(struct mlx5dm_ctx *ctx, struct mlx5dm_ctx_stats *st)
{
	struct mlx5dm_res_stats rs;

	mlx5dm_res_stats_get(&ctx->res, &rs);
	st->modify_patterns = mlx5dm_pattern_cache_count(ctx->patterns);
	st->modify_args = rs.args;
	st->reformat_contexts = rs.reformats;
	st->counter_bulks = rs.counter_bulks;
}

/* Every shard lock of m held; st zeroed. */
static void
mlx5dm_matcher_stats_locked(const struct mlx5dm_matcher *m, struct mlx5dm_matcher_stats *st)
{
	const struct mlx5dm_htbl *h;
	unsigned int i;

	mlx5dm_matcher_counts_add(st, &m->cnt);
	for (h = m->grow_list; h != NULL; h = h->growing->grow_next)
		st->growing++;
	st->shards = m->nb_shards;
	for (i = 0; i < m->nb_shards; i++) {
		mlx5dm_matcher_counts_add(st, &m->shards[i].cnt);
		st->shard_rules_max = MLX5DM_MAX(st->shard_rules_max, m->shards[i].cnt.rules);
		for (h = m->shards[i].grow_list; h != NULL; h = h->growing->grow_next)
			st->growing++;
	}
}

int
mlx5dm_matcher_stats_get(struct mlx5dm_matcher *m, struct mlx5dm_matcher_stats *st)
{
	if (m == NULL || st == NULL)
		return -EINVAL;
	if (m->half[MLX5DM_STE_DIR_RX] != NULL)
		return mlx5dm_fdb_matcher_stats(m, st);
	memset(st, 0, sizeof(*st));
	mlx5dm_matcher_lock_all(m);
	mlx5dm_matcher_stats_locked(m, st);
	mlx5dm_matcher_unlock_all(m);
	return 0;
}

/* Context lock held: the table's matchers cannot come or go. */
static void
mlx5dm_table_stats_locked(struct mlx5dm_table *tbl, struct mlx5dm_table_stats *st)
{
	struct mlx5dm_matcher *m;

	TAILQ_FOREACH(m, &tbl->matchers, next) {
		st->matchers++;
		mlx5dm_matcher_lock_all(m);
		st->rules += mlx5dm_matcher_rules(m);
		mlx5dm_matcher_unlock_all(m);
	}
}

int
mlx5dm_table_stats_get(struct mlx5dm_table *tbl, struct mlx5dm_table_stats *st)
{
	struct mlx5dm_ctx *ctx;

	if (tbl == NULL || st == NULL)
		return -EINVAL;
	ctx = tbl->dom->ctx;
	memset(st, 0, sizeof(*st));
	mlx5dm_spinlock_lock(&ctx->lock);
	mlx5dm_table_stats_locked(tbl, st);
	mlx5dm_spinlock_unlock(&ctx->lock);
	return 0;
}

int
mlx5dm_domain_stats_get(struct mlx5dm_domain *dom, struct mlx5dm_domain_stats *st)
{
	struct mlx5dm_table_stats ts;
	struct mlx5dm_table *tbl;
	struct mlx5dm_ctx *ctx;

	if (dom == NULL || st == NULL)
		return -EINVAL;
	ctx = dom->ctx;
	memset(st, 0, sizeof(*st));
	mlx5dm_spinlock_lock(&ctx->lock);
	LIST_FOREACH(tbl, &dom->tables, next) {
		memset(&ts, 0, sizeof(ts));
		mlx5dm_table_stats_locked(tbl, &ts);
		st->tables++;
		st->matchers += ts.matchers;
		st->rules += ts.rules;
	}
	st->actions = dom->refcnt;
	mlx5dm_spinlock_unlock(&ctx->lock);
	return 0;
}
