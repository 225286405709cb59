/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Matchers: a mask turned into a chain of lookups (builders), a first-level
 * hash table and an end anchor, linked into the table's priority-ordered
 * list:  prev anchor (table start or previous matcher's end) -> first level
 * ... misses -> e_anchor -> next matcher (or the domain default).
 *
 * Anchors shared with neighbours are written under tbl->anchor_lock and
 * drained before it is released, so two queues never race on an anchor.
 */

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "mlx5dm_steer_priv.h"


uint64_t
mlx5dm_matcher_end_icm(const struct mlx5dm_matcher *m)
{
	return mlx5dm_ste_icm(m->e_anchor);
}

/* The anchor whose hit pointer leads to m's first level. */
static struct mlx5dm_ste *
mlx5dm_matcher_prev_anchor(struct mlx5dm_matcher *m)
{
	struct mlx5dm_matcher *prev = TAILQ_PREV(m, mlx5dm_matcher_list, next);

	return prev != NULL ? prev->e_anchor : m->tbl->s_anchor;
}

/* Level-0 growth: the previous anchor now enters m at head (control write); head is m->first. */
int
mlx5dm_matcher_write_parent(struct mlx5dm_matcher *m, struct mlx5dm_queue *q,
			    struct mlx5dm_htbl *head)
{
	struct mlx5dm_ctx *ctx = m->tbl->dom->ctx;
	uint8_t saved[MLX5DM_STE_CTRL_SIZE];
	struct mlx5dm_ste *anchor;
	int ret;

	mlx5dm_spinlock_lock(&m->tbl->anchor_lock);
	anchor = mlx5dm_matcher_prev_anchor(m);
	memcpy(saved, anchor->ctrl, sizeof(saved));
	mlx5dm_htbl_point(ctx, head, anchor->ctrl);
	ret = mlx5dm_ste_write_ctrl(ctx, q, anchor);
	if (ret < 0) {
		/* Not posted: the device's anchor and its record still agree. */
		memcpy(anchor->ctrl, saved, sizeof(saved));
		goto unlock;
	}
	/*
	 * Posted, so the device follows the anchor to head whether or not the
	 * drain below completes: head is m->first from now on (a failed drain
	 * is the queue's error, not a reason to forget the new head). A
	 * matcher created or removed in front of m links its anchor to
	 * m->first under this lock.
	 */
	m->first = head;
	ret = mlx5dm_send_drain(q->ring);
unlock:
	mlx5dm_spinlock_unlock(&m->tbl->anchor_lock);
	return ret;
}

/* Point anchor at matcher next's first level, or miss it to the default. */
static int
mlx5dm_matcher_link(struct mlx5dm_table *tbl, struct mlx5dm_queue *q, struct mlx5dm_ste *anchor,
		    struct mlx5dm_matcher *next)
{
	if (next != NULL)
		return mlx5dm_anchor_write_hit(tbl->dom, q, anchor, next->first);
	return mlx5dm_anchor_write_miss(tbl->dom, q, anchor, tbl->dom->default_icm);
}

/* Shards for a context with nb_queues rule queues (their records and locks set up). */
static int
mlx5dm_matcher_shards_init(struct mlx5dm_matcher *m, uint16_t nb_queues)
{
	int socket = m->tbl->dom->ctx->dev->socket;
	unsigned int i;

	m->nb_shards = nb_queues > 1 ? MLX5DM_MATCHER_SHARDS : 1;
	mlx5dm_spinlock_init(&m->l0_lock);
	m->shards = mlx5dm_aligned_zmalloc_socket(m->nb_shards * sizeof(*m->shards),
						  _Alignof(struct mlx5dm_shard), socket);
	if (m->shards == NULL)
		return -ENOMEM;
	for (i = 0; i < m->nb_shards; i++) {
		struct mlx5dm_shard *sh = &m->shards[i];

		sh->m = m;
		mlx5dm_spinlock_init(&sh->lock);
		mlx5dm_slab_init(&sh->ste_slab, MLX5DM_STE_REC_FULL, socket);
		mlx5dm_rule_slabs_init(sh, socket);
		mlx5dm_index_set_socket(&sh->index, socket);
		TAILQ_INIT(&sh->drain);
	}
	return 0;
}

/*
 * Reserve the records of rules (attr->rules_reserve; no more than the
 * device's STE ICM has entries): one of the smallest class each (a rule
 * with more actions takes a larger one, beyond the reserve if all do),
 * plus a block per shard for the unused rest of each shard's last block.
 * Without the memory the records come from the heap as usual.
 */
static void
mlx5dm_matcher_reserve(struct mlx5dm_matcher *m, uint64_t rules)
{
	unsigned int i, c;

	rules = MLX5DM_MIN(rules, mlx5dm_ctx_ste_entries(m->tbl->dom->ctx));
	if (rules == 0)
		return;
	if (mlx5dm_slab_arena_init(&m->arena, &m->shards[0].rule_slab[0], rules,
				   m->nb_shards) < 0) {
		MLX5DM_LOG(INFO, MLX5DM_STEER_LOG, "no memory reserved for the records of %"
			   PRIu64 " rules: they come from the heap as they are made", rules);
		return;
	}
	/* A few rules' records: no arena was made, the heap's blocks serve them. */
	if (m->arena.base == NULL)
		return;
	for (i = 0; i < m->nb_shards; i++)
		for (c = 0; c < MLX5DM_RULE_CLASSES; c++)
			m->shards[i].rule_slab[c].arena = &m->arena;
}

/* The shards' records (nothing may use them any more); NULL shards: nothing. */
static void
mlx5dm_matcher_shards_fini(struct mlx5dm_matcher *m, struct mlx5dm_defer *d)
{
	unsigned int i;

	if (m->shards == NULL)
		return;
	for (i = 0; i < m->nb_shards; i++) {
		struct mlx5dm_shard *sh = &m->shards[i];

		mlx5dm_htbl_page_cache_free(sh);
		mlx5dm_entry_pool_destroy(&sh->entry_pool, d);
		mlx5dm_index_fini(&sh->index);
		mlx5dm_rule_slabs_destroy(sh);
		mlx5dm_slab_destroy(&sh->ste_slab);
		mlx5dm_spinlock_destroy(&sh->lock);
	}
	mlx5dm_slab_arena_fini(&m->arena);
	mlx5dm_free(m->shards);
	m->shards = NULL;
}

static void
mlx5dm_matcher_free(struct mlx5dm_matcher *m, struct mlx5dm_defer *d)
{
	mlx5dm_htbl_chain_free(m, m->first, d);
	mlx5dm_ste_free_single(m->e_anchor, d);
	mlx5dm_matcher_shards_fini(m, d);
	mlx5dm_free(m);
}

struct mlx5dm_matcher *
mlx5dm_matcher_alloc(struct mlx5dm_table *tbl, const struct mlx5dm_matcher_attr *attr)
{
	struct mlx5dm_matcher *m = mlx5dm_zmalloc_socket(sizeof(*m), tbl->dom->ctx->dev->socket);

	if (m == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	m->tbl = tbl;
	m->priority = attr->priority;
	m->criteria = attr->criteria;
	memcpy(m->mask, attr->mask, sizeof(m->mask));
	return m;
}

int
mlx5dm_matcher_check(struct mlx5dm_domain *dom, const struct mlx5dm_matcher_attr *attr,
		     const char **err_field)
{
	struct mlx5dm_ste_builder b[MLX5DM_STE_MAX_BUILDERS];
	unsigned int n;

	if (err_field != NULL)
		*err_field = NULL;
	if (dom == NULL || attr == NULL || attr->mask == NULL)
		return -EINVAL;
	if (mlx5dm_domain_is_fdb(dom)) {
		int ret = mlx5dm_fdb_mask_check(attr->mask, attr->criteria, err_field);

		if (ret < 0)
			return ret;
	}
	/* Caps and format are fixed at context open: no lock needed. */
	return mlx5dm_ste_build_matcher(dom->ctx->ste, &dom->ste_caps, attr->mask,
					attr->criteria, dom->dir, b, MLX5DM_STE_MAX_BUILDERS, &n,
					err_field);
}

struct mlx5dm_matcher *
mlx5dm_matcher_create(struct mlx5dm_table *tbl, const struct mlx5dm_matcher_attr *attr,
		      const char **err_field)
{
	struct mlx5dm_defer d = { .n = 0 };
	struct mlx5dm_matcher *m, *pos, *next;
	struct mlx5dm_ctx *ctx;
	struct mlx5dm_queue *q;
	unsigned int max_log, i;
	int ret;

	if (err_field != NULL)
		*err_field = NULL;
	if (tbl == NULL || attr == NULL || attr->mask == NULL) {
		errno = EINVAL;
		return NULL;
	}
	if (mlx5dm_domain_is_fdb(tbl->dom))
		return mlx5dm_fdb_matcher_create(tbl, attr, err_field);
	ctx = tbl->dom->ctx;
	m = mlx5dm_matcher_alloc(tbl, attr);
	if (m == NULL)
		return NULL;
	ret = mlx5dm_matcher_shards_init(m, ctx->nb_queues);
	if (ret < 0)
		goto free_m;
	ret = mlx5dm_ste_build_matcher(ctx->ste, &tbl->dom->ste_caps, m->mask, m->criteria,
				       tbl->dom->dir, m->builders, MLX5DM_STE_MAX_BUILDERS,
				       &m->nb_builders, err_field);
	if (ret < 0) {
		MLX5DM_LOG(ERR, MLX5DM_STEER_LOG, "matcher mask rejected: %d%s%s", ret,
			   err_field != NULL && *err_field != NULL ? ", field " : "",
			   err_field != NULL && *err_field != NULL ? *err_field : "");
		goto free_m;
	}
	ret = mlx5dm_ste_tmpl_compile(ctx->ste, m->builders, m->nb_builders, m->mask, m->criteria,
				      tbl->dom->dir, ctx->caps.vhca_id, &m->tmpl);
	if (ret < 0) {
		MLX5DM_LOG(ERR, MLX5DM_STEER_LOG, "matcher template: %d", ret);
		goto free_m;
	}
	for (i = 0; i < m->nb_builders; i++)
		mlx5dm_ste_build_always_miss(ctx->ste, m->miss_img[i], m->builders[i].lu_type,
					     tbl->dom->dir, ctx->caps.vhca_id, 0);
	max_log = mlx5dm_icm_pool_max_order(ctx->ste_pool);
	m->log_hint = (uint8_t)MLX5DM_MIN(attr->log_rules_hint, max_log);
	mlx5dm_matcher_reserve(m, attr->rules_reserve);
	/*
	 * Only the last level holds an entry per rule: a deeper matcher's
	 * level 0 starts small (mlx5dm_htbl_chain_create() sizes the last
	 * level's first chain from the hint instead) and grows if its rules
	 * do not share their first levels after all.
	 */
	m->log_first = m->nb_builders == 1 ? m->log_hint : 0;
	/* Every slot of a first-level table in one shard: at least a slot per shard. */
	while ((1u << m->log_first) < m->nb_shards && m->log_first < max_log)
		m->log_first++;
	m->e_anchor = mlx5dm_ste_alloc_single(ctx);
	if (m->e_anchor == NULL) {
		ret = -ENOMEM;
		goto free_m;
	}
	q = mlx5dm_steer_ctrl_queue(ctx);
	mlx5dm_spinlock_lock(&ctx->lock);
	mlx5dm_spinlock_lock(&q->lock);
	m->first = mlx5dm_htbl_create(m, m->nb_shards == 1 ? &m->shards[0] : NULL, q, 0,
				      m->log_first, m->builders[0].byte_mask, NULL, &d);
	if (m->first == NULL) {
		ret = -errno;
		goto unlock;
	}
	/* Stable priority order: after every matcher of the same or higher priority. */
	TAILQ_FOREACH(pos, &tbl->matchers, next) {
		if (pos->priority > m->priority)
			break;
	}
	next = pos;
	mlx5dm_spinlock_lock(&tbl->anchor_lock);
	/* Fully written before anything points at it: first the new matcher... */
	ret = mlx5dm_matcher_link(tbl, q, m->e_anchor, next);
	if (ret == 0)
		ret = mlx5dm_send_drain(q->ring);
	if (ret == 0) {
		/* ...then the pointer into it. */
		if (next != NULL)
			TAILQ_INSERT_BEFORE(next, m, next);
		else
			TAILQ_INSERT_TAIL(&tbl->matchers, m, next);
		ret = mlx5dm_anchor_write_hit(tbl->dom, q, mlx5dm_matcher_prev_anchor(m), m->first);
		if (ret == 0)
			ret = mlx5dm_send_drain(q->ring);
		if (ret < 0)
			TAILQ_REMOVE(&tbl->matchers, m, next);
	}
	mlx5dm_spinlock_unlock(&tbl->anchor_lock);
	/* An FDB side is counted as its FDB matcher (mlx5dm_fdb_matcher_create). */
	if (ret == 0 && tbl->dom->top == NULL)
		ctx->n_matchers++;
unlock:
	mlx5dm_spinlock_unlock(&q->lock);
	mlx5dm_spinlock_unlock(&ctx->lock);
	if (ret < 0) {
		MLX5DM_LOG(ERR, MLX5DM_STEER_LOG, "matcher creation failed: %d", ret);
		mlx5dm_matcher_free(m, &d);
		mlx5dm_defer_run(&d);
		errno = -ret;
		return NULL;
	}
	return m;
free_m:
	mlx5dm_matcher_shards_fini(m, &d);
	mlx5dm_defer_run(&d);
	mlx5dm_free(m);
	errno = -ret;
	return NULL;
}

int
mlx5dm_matcher_destroy(struct mlx5dm_matcher *m)
{
	struct mlx5dm_defer d = { .n = 0 };
	struct mlx5dm_table *tbl;
	struct mlx5dm_ctx *ctx;
	struct mlx5dm_queue *q;
	int ret;

	if (m == NULL)
		return -EINVAL;
	if (m->half[MLX5DM_STE_DIR_RX] != NULL)
		return mlx5dm_fdb_matcher_destroy(m);
	tbl = m->tbl;
	ctx = tbl->dom->ctx;
	/* Queues that wrote m's entries must be done before its ICM is freed. */
	ret = mlx5dm_steer_quiesce_rings(ctx);
	if (ret < 0)
		return ret;
	q = mlx5dm_steer_ctrl_queue(ctx);
	mlx5dm_spinlock_lock(&ctx->lock);
	mlx5dm_matcher_lock_all(m);
	if (mlx5dm_matcher_rules(m) != 0) {
		mlx5dm_matcher_unlock_all(m);
		mlx5dm_spinlock_unlock(&ctx->lock);
		return -EBUSY;
	}
	mlx5dm_matcher_unlock_all(m);
	mlx5dm_spinlock_lock(&q->lock);
	mlx5dm_spinlock_lock(&tbl->anchor_lock);
	/* Bypass m: the previous anchor now goes where m's end went. */
	ret = mlx5dm_matcher_link(tbl, q, mlx5dm_matcher_prev_anchor(m),
				  TAILQ_NEXT(m, next));
	if (ret == 0)
		ret = mlx5dm_send_drain(q->ring);
	if (ret == 0)
		TAILQ_REMOVE(&tbl->matchers, m, next);
	mlx5dm_spinlock_unlock(&tbl->anchor_lock);
	mlx5dm_spinlock_unlock(&q->lock);
	if (ret == 0 && tbl->dom->top == NULL)
		ctx->n_matchers--;
	mlx5dm_spinlock_unlock(&ctx->lock);
	if (ret < 0)
		return ret;
	mlx5dm_matcher_free(m, &d);
	mlx5dm_defer_run(&d);
	return 0;
}
