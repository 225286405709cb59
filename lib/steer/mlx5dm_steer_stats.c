/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Statistics of matchers, tables and domains.
 *
 * A matcher's hash-table figures are kept as they change (the table code
 * and the rule code update them under the matcher lock), because finding
 * every table of a matcher means visiting every slot of every level. What
 * is cheap to walk is walked: the tables of a domain and the matchers of a
 * table (under the context lock, which guards those lists), the chains
 * being grown of a matcher (under its lock). Each matcher's figures are
 * read under its own lock, so they are consistent per matcher; a table or
 * domain sum is not one atomic snapshot across matchers.
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_steer_priv.h"

void
mlx5dm_htbl_stats_drop(const struct mlx5dm_htbl *h)
{
	struct mlx5dm_matcher *m = h->matcher;

	m->n_entries -= h->num_entries;
	m->n_used -= h->used;
	m->n_collisions -= h->collisions;
	/* Links of a chain are only freed with the whole chain. */
	if (h->chain_next != NULL || h->chain_prev != NULL)
		m->n_chained--;
}

void
mlx5dm_htbl_stats_grown(const struct mlx5dm_htbl *g)
{
	struct mlx5dm_matcher *m = g->matcher;

	m->n_growths++;
	/* The old head was alone until now: both tables join the chain count. */
	m->n_chained += g->chain_next->chain_next == NULL ? 2 : 1;
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

/* Matcher lock held. */
static void
mlx5dm_matcher_stats_locked(const struct mlx5dm_matcher *m, struct mlx5dm_matcher_stats *st)
{
	const struct mlx5dm_htbl *h;

	st->rules = m->n_rules;
	st->tables = m->n_tables;
	st->entries = m->n_entries;
	st->used = m->n_used;
	st->collisions = m->n_collisions;
	st->chained_tables = m->n_chained;
	st->growths = m->n_growths;
	st->growing = 0;
	for (h = m->grow_list; h != NULL; h = h->growing->grow_next)
		st->growing++;
}

int
mlx5dm_matcher_stats_get(struct mlx5dm_matcher *m, struct mlx5dm_matcher_stats *st)
{
	if (m == NULL || st == NULL)
		return -EINVAL;
	mlx5dm_rule_settle_all(m->tbl->dom->ctx);
	memset(st, 0, sizeof(*st));
	mlx5dm_spinlock_lock(&m->lock);
	mlx5dm_matcher_stats_locked(m, st);
	mlx5dm_spinlock_unlock(&m->lock);
	return 0;
}

/* Context lock held: the table's matchers cannot come or go. */
static void
mlx5dm_table_stats_locked(struct mlx5dm_table *tbl, struct mlx5dm_table_stats *st)
{
	struct mlx5dm_matcher *m;

	TAILQ_FOREACH(m, &tbl->matchers, next) {
		st->matchers++;
		mlx5dm_spinlock_lock(&m->lock);
		st->rules += m->n_rules;
		mlx5dm_spinlock_unlock(&m->lock);
	}
}

int
mlx5dm_table_stats_get(struct mlx5dm_table *tbl, struct mlx5dm_table_stats *st)
{
	struct mlx5dm_ctx *ctx;

	if (tbl == NULL || st == NULL)
		return -EINVAL;
	ctx = tbl->dom->ctx;
	mlx5dm_rule_settle_all(ctx);
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
	mlx5dm_rule_settle_all(ctx);
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
