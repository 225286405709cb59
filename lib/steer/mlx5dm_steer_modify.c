/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Where a modify-header (or L3 decap) action list lives (rdma-core
 * providers/mlx5/dr_action.c, dr_ptrn.c, dr_arg.c):
 *
 *  - one HW action of a modify header: inline in the STE (no ICM);
 *  - pattern + argument, when the device has HEADER_MODIFY_ARGUMENT objects
 *    and pattern ICM: the pattern (the list with its per-rule data zeroed)
 *    in HEADER_MODIFY_PATTERN ICM, shared by every action with the same
 *    pattern through a refcounted cache, and the full list in an argument
 *    slot written by FLOW_TBL_ACCESS WQEs; the STE's ACCELERATED_LIST names
 *    both and the device combines them;
 *  - otherwise the basic list in HEADER_MODIFY ICM (MODIFY_LIST).
 *
 * Everything is written on the control queue and drained before the
 * action is handed out, so rules on any queue may use it at once.
 *
 * The cache is a growable hash index (mlx5dm_index_*) under a mutex (held
 * across the ICM write of a new pattern, so two actions with the same new
 * pattern never write it twice): patterns are one per distinct set of
 * fields rewritten, usually few, but a program may make many.
 */

#include <errno.h>
#include <pthread.h>
#include <string.h>

#include "mlx5dm_prm_res.h"
#include "mlx5dm_steer_priv.h"

struct mlx5dm_pattern {
	uint32_t hash;                    /* mlx5dm_pattern_hash() */
	struct mlx5dm_icm_chunk *chunk;   /* in HEADER_MODIFY_PATTERN ICM */
	uint32_t index;                   /* line index: what ACCELERATED_LIST names */
	uint32_t refcnt;                  /* actions using it */
	enum mlx5dm_ste_action_type type; /* MODIFY_HDR or DECAP_L3 */
	uint8_t n;                        /* HW actions */
	uint8_t data[];                   /* n * 8 bytes */
};

struct mlx5dm_pattern_cache {
	struct mlx5dm_ctx *ctx;
	pthread_mutex_t lock;
	struct mlx5dm_index index;        /* patterns by mlx5dm_pattern_hash() */
};

struct mlx5dm_pattern_cache *
mlx5dm_pattern_cache_create(struct mlx5dm_ctx *ctx)
{
	struct mlx5dm_pattern_cache *pc = mlx5dm_zmalloc_socket(sizeof(*pc), ctx->dev->socket);

	if (pc == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	pc->ctx = ctx;
	mlx5dm_index_set_socket(&pc->index, ctx->dev->socket);
	pthread_mutex_init(&pc->lock, NULL);
	return pc;
}

/* Every action is gone before its context; a pattern left is a leak, freed here. */
static void
mlx5dm_pattern_leaked(void *arg, void *rec)
{
	struct mlx5dm_pattern *p = rec;

	(void)arg;
	MLX5DM_LOG(WARNING, MLX5DM_STEER_LOG, "modify pattern %u still referenced %u time(s)",
		   p->index, p->refcnt);
	mlx5dm_icm_chunk_free(p->chunk);
	mlx5dm_free(p);
}

void
mlx5dm_pattern_cache_destroy(struct mlx5dm_pattern_cache *pc)
{
	if (pc == NULL)
		return;
	mlx5dm_index_foreach(&pc->index, mlx5dm_pattern_leaked, NULL);
	mlx5dm_index_fini(&pc->index);
	pthread_mutex_destroy(&pc->lock);
	mlx5dm_free(pc);
}

uint32_t
mlx5dm_pattern_cache_count(struct mlx5dm_pattern_cache *pc)
{
	uint32_t n;

	if (pc == NULL)
		return 0;
	pthread_mutex_lock(&pc->lock);
	n = pc->index.count;
	pthread_mutex_unlock(&pc->lock);
	return n;
}

void
mlx5dm_pattern_cache_shape(struct mlx5dm_pattern_cache *pc, struct mlx5dm_index_shape *sh)
{
	pthread_mutex_lock(&pc->lock);
	mlx5dm_index_shape(&pc->index, sh);
	pthread_mutex_unlock(&pc->lock);
}

struct mlx5dm_pattern_key {
	const struct mlx5dm_ctx *ctx;
	enum mlx5dm_ste_action_type type;
	const uint8_t *pat;
	unsigned int n;
};

/* Same device pattern? All L3-decap patterns of one length are (they differ in data only). */
static bool
mlx5dm_pattern_match(const void *rec, const void *key)
{
	const struct mlx5dm_pattern *p = rec;
	const struct mlx5dm_pattern_key *k = key;

	if (p->type != k->type || p->n != k->n)
		return false;
	if (k->type == MLX5DM_STE_ACTION_DECAP_L3)
		return true;
	return mlx5dm_ste_modify_pattern_equal(k->ctx->ste, p->data, k->pat, k->n);
}

/* Over what mlx5dm_pattern_match() compares. */
static uint32_t
mlx5dm_pattern_hash(const struct mlx5dm_pattern_key *k)
{
	uint32_t h = (uint32_t)k->type * 0x9e3779b1u ^ k->n;

	if (k->type != MLX5DM_STE_ACTION_DECAP_L3)
		h ^= mlx5dm_ste_modify_pattern_hash(k->ctx->ste, k->pat, k->n);
	return h;
}

/* A new pattern, written to pattern ICM and drained; NULL + errno. */
static struct mlx5dm_pattern *
mlx5dm_pattern_new(struct mlx5dm_ctx *ctx, enum mlx5dm_ste_action_type type,
		   const uint8_t *pat, unsigned int n)
{
	size_t len = (size_t)n * MLX5DM_MODIFY_ACTION_SIZE;
	struct mlx5dm_pattern *p;
	int ret;

	p = mlx5dm_zmalloc_socket(sizeof(*p) + len, ctx->dev->socket);
	if (p == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	/* The device reads whole 64-byte lines: at least 8 entries. */
	p->chunk = mlx5dm_icm_chunk_alloc(ctx->pattern_pool, MLX5DM_MAX(3u, mlx5dm_log2_ceil(n)));
	if (p->chunk == NULL) {
		ret = -errno;
		goto free_p;
	}
	ret = mlx5dm_icm_chunk_line_index(p->chunk, &p->index);
	if (ret == 0)
		ret = mlx5dm_action_write_icm(ctx, p->chunk, pat, len);
	if (ret < 0)
		goto free_chunk;
	p->type = type;
	p->n = (uint8_t)n;
	memcpy(p->data, pat, len);
	return p;
free_chunk:
	mlx5dm_icm_chunk_free(p->chunk);
free_p:
	mlx5dm_free(p);
	errno = -ret;
	return NULL;
}

/* The cached pattern of a HW list, created on first use; NULL + errno. */
static struct mlx5dm_pattern *
mlx5dm_pattern_get(struct mlx5dm_ctx *ctx, enum mlx5dm_ste_action_type type,
		   const uint8_t *hw, unsigned int n)
{
	struct mlx5dm_pattern_cache *pc = ctx->patterns;
	uint8_t pat[MLX5DM_RES_ARG_MAX_ACTIONS * MLX5DM_MODIFY_ACTION_SIZE];
	struct mlx5dm_pattern_key k;
	struct mlx5dm_pattern *p;
	uint32_t h;
	int ret;

	ret = mlx5dm_ste_modify_pattern(ctx->ste, hw, n, pat);
	if (ret < 0) {
		errno = -ret;
		return NULL;
	}
	k = (struct mlx5dm_pattern_key){ .ctx = ctx, .type = type, .pat = pat, .n = n };
	h = mlx5dm_pattern_hash(&k);
	pthread_mutex_lock(&pc->lock);
	p = mlx5dm_index_find(&pc->index, h, mlx5dm_pattern_match, &k);
	if (p == NULL) {
		ret = mlx5dm_index_reserve(&pc->index, 1);
		p = ret == 0 ? mlx5dm_pattern_new(ctx, type, pat, n) : NULL;
		if (p == NULL) {
			ret = ret < 0 ? -ret : errno;
			pthread_mutex_unlock(&pc->lock);
			errno = ret;
			return NULL;
		}
		p->hash = h;
		(void)mlx5dm_index_insert(&pc->index, p, h); /* reserved */
	}
	p->refcnt++;
	pthread_mutex_unlock(&pc->lock);
	return p;
}

static void
mlx5dm_pattern_put(struct mlx5dm_ctx *ctx, struct mlx5dm_pattern *p)
{
	struct mlx5dm_pattern_cache *pc = ctx->patterns;
	bool last;

	pthread_mutex_lock(&pc->lock);
	last = --p->refcnt == 0;
	if (last)
		(void)mlx5dm_index_remove(&pc->index, p, p->hash);
	pthread_mutex_unlock(&pc->lock);
	if (!last)
		return;
	/* Hot until the next sync: a walk still holding the old STE may read it. */
	mlx5dm_icm_chunk_free(p->chunk);
	mlx5dm_free(p);
}

/* Write a HW list into argument units (8 actions each) on the control queue; drain. */
static int
mlx5dm_modify_write_arg(struct mlx5dm_ctx *ctx, uint32_t arg_id, const uint8_t *hw,
			unsigned int n)
{
	struct mlx5dm_queue *q = mlx5dm_steer_ctrl_queue(ctx);
	size_t len = (size_t)n * MLX5DM_MODIFY_ACTION_SIZE, off;
	uint8_t unit[MLX5DM_ARG_UNIT_BYTES];
	uint32_t i;
	int ret = 0;

	mlx5dm_spinlock_lock(&q->lock);
	for (i = 0, off = 0; ret == 0 && off < len; i++, off += sizeof(unit)) {
		size_t chunk = MLX5DM_MIN(len - off, sizeof(unit));

		memset(unit, 0, sizeof(unit));
		memcpy(unit, hw + off, chunk);
		ret = mlx5dm_send_arg_update(q->ring, arg_id + i, unit);
	}
	if (ret == 0)
		ret = mlx5dm_send_drain(q->ring);
	mlx5dm_spinlock_unlock(&q->lock);
	return ret;
}

/* Pattern + argument mode: the shared pattern, then this action's argument slot. */
static int
mlx5dm_modify_store_pattern(struct mlx5dm_action *a, const uint8_t *hw, unsigned int n_hw)
{
	struct mlx5dm_ctx *ctx = a->dom->ctx;
	struct mlx5dm_ste_modify_ref *ref = &a->ste.modify;
	int ret;

	a->pattern = mlx5dm_pattern_get(ctx, a->ste.type, hw, n_hw);
	if (a->pattern == NULL)
		return -errno;
	ret = mlx5dm_res_arg_alloc(&ctx->res, n_hw, &a->arg);
	if (ret == 0)
		ret = mlx5dm_modify_write_arg(ctx, mlx5dm_res_arg_id(a->arg), hw, n_hw);
	if (ret < 0)
		return ret; /* the caller releases what was taken */
	ref->mode = MLX5DM_STE_MODIFY_PATTERN;
	ref->pattern_index = a->pattern->index;
	ref->index = mlx5dm_res_arg_id(a->arg);
	return 0;
}

/* Basic mode: the whole list in HEADER_MODIFY ICM. */
static int
mlx5dm_modify_store_list(struct mlx5dm_action *a, const uint8_t *hw, unsigned int n_hw)
{
	struct mlx5dm_ctx *ctx = a->dom->ctx;
	struct mlx5dm_ste_modify_ref *ref = &a->ste.modify;
	int ret;

	/* At least one 64-byte line (8 actions), as the device reads whole lines. */
	a->chunk = mlx5dm_icm_chunk_alloc(ctx->modify_pool,
					  MLX5DM_MAX(3u, mlx5dm_log2_ceil(n_hw)));
	if (a->chunk == NULL)
		return -ENOMEM;
	ret = mlx5dm_icm_chunk_line_index(a->chunk, &ref->index);
	if (ret == 0)
		ret = mlx5dm_action_write_icm(ctx, a->chunk, hw,
					      (size_t)n_hw * MLX5DM_MODIFY_ACTION_SIZE);
	if (ret < 0)
		return ret;
	ref->mode = MLX5DM_STE_MODIFY_LIST;
	return 0;
}

int
mlx5dm_modify_store(struct mlx5dm_action *a, const uint8_t *hw, unsigned int n_hw,
		    bool may_inline)
{
	struct mlx5dm_ctx *ctx = a->dom->ctx;
	struct mlx5dm_ste_modify_ref *ref = &a->ste.modify;

	ref->num_actions = (uint8_t)n_hw;
	if (may_inline && n_hw == 1 && (ctx->ste->caps & MLX5DM_STE_CAP_MODIFY_INLINE)) {
		ref->mode = MLX5DM_STE_MODIFY_INLINE;
		memcpy(ref->inline_action, hw, MLX5DM_MODIFY_ACTION_SIZE);
		return 0;
	}
	/* An argument holds at most 64 actions; longer lists stay basic. */
	if (ctx->patterns != NULL && n_hw <= MLX5DM_RES_ARG_MAX_ACTIONS) {
		int ret = mlx5dm_modify_store_pattern(a, hw, n_hw);

		/* No argument slot that large (small objects): the basic list still works. */
		if (ret != -ENOTSUP)
			return ret;
		mlx5dm_modify_release(a);
	}
	return mlx5dm_modify_store_list(a, hw, n_hw);
}

void
mlx5dm_modify_release(struct mlx5dm_action *a)
{
	if (a->arg != NULL) {
		mlx5dm_res_arg_free(a->arg);
		a->arg = NULL;
	}
	if (a->pattern != NULL) {
		mlx5dm_pattern_put(a->dom->ctx, a->pattern);
		a->pattern = NULL;
	}
}
