/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Object slabs and pooled ICM entries of a matcher.
 *
 * Rule operations allocate and free small records at a high rate (one or
 * more per rule); going through malloc each time costs time and, after mass
 * deletions, long malloc consolidation pauses. Each matcher keeps slabs of
 * fixed-size records, used under the matcher lock.
 *
 * Collision and action entries each need one ICM entry of their own. They
 * come from blocks of MLX5DM_EPOOL_BLOCK entries cut from the STE pool. A
 * freed entry is hot: the device may still read it, so it is reused only
 * after an ICM sync (drain + SYNC_STEERING) has completed since it was freed.
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_steer_priv.h"

#define MLX5DM_SLAB_BLOCK 256

struct mlx5dm_slab_block {
	struct mlx5dm_slab_block *next;
};

void
mlx5dm_slab_init(struct mlx5dm_slab *s, size_t obj_size)
{
	memset(s, 0, sizeof(*s));
	s->obj_size = MLX5DM_ALIGN_UP(obj_size, sizeof(void *));
}

void *
mlx5dm_slab_alloc(struct mlx5dm_slab *s)
{
	void *o = s->free;

	if (MLX5DM_UNLIKELY(o == NULL)) {
		struct mlx5dm_slab_block *b;
		uint8_t *objs;
		unsigned int i;

		b = mlx5dm_malloc(sizeof(*b) + s->obj_size * MLX5DM_SLAB_BLOCK);
		if (b == NULL)
			return NULL;
		b->next = s->blocks;
		s->blocks = b;
		objs = (uint8_t *)(b + 1);
		for (i = 0; i < MLX5DM_SLAB_BLOCK; i++) {
			*(void **)(objs + i * s->obj_size) = s->free;
			s->free = objs + i * s->obj_size;
		}
		o = s->free;
	}
	s->free = *(void **)o;
	s->live++;
	memset(o, 0, s->obj_size);
	return o;
}

void
mlx5dm_slab_free(struct mlx5dm_slab *s, void *o)
{
	if (o == NULL)
		return;
	*(void **)o = s->free;
	s->free = o;
	s->live--;
}

void
mlx5dm_slab_destroy(struct mlx5dm_slab *s)
{
	struct mlx5dm_slab_block *b, *n;

	for (b = s->blocks; b != NULL; b = n) {
		n = b->next;
		mlx5dm_free(b);
	}
	s->blocks = NULL;
	s->free = NULL;
}

size_t
mlx5dm_slab_bytes(const struct mlx5dm_slab *s)
{
	const struct mlx5dm_slab_block *b;
	size_t n = 0;

	for (b = s->blocks; b != NULL; b = b->next)
		n += sizeof(*b) + s->obj_size * MLX5DM_SLAB_BLOCK;
	return n;
}

/* ---- pooled single ICM entries ---- */

struct mlx5dm_epool_block {
	struct mlx5dm_epool_block *next;
	struct mlx5dm_icm_chunk *chunk;
};

/* A free (or hot) entry: where it is and when it was freed. */
struct mlx5dm_epool_ent {
	struct mlx5dm_epool_ent *next;
	struct mlx5dm_icm_chunk *chunk;
	uint32_t index;
	uint64_t epoch;              /* ICM syncs completed when it was freed */
};

static uint64_t
mlx5dm_epool_epoch(struct mlx5dm_ctx *ctx)
{
	struct mlx5dm_icm_stats st;

	mlx5dm_icm_pool_stats(ctx->ste_pool, &st);
	return st.syncs;
}

/*
 * Move hot entries freed before the last completed sync to the free list.
 * The hot list is in freeing order, so only its head needs looking at.
 */
static void
mlx5dm_epool_cool(struct mlx5dm_epool *p, struct mlx5dm_ctx *ctx)
{
	uint64_t now = mlx5dm_epool_epoch(ctx);

	while (p->hot != NULL && p->hot->epoch < now) {
		struct mlx5dm_epool_ent *e = p->hot;

		p->hot = e->next;
		if (p->hot == NULL)
			p->hot_tail = NULL;
		e->next = p->free;
		p->free = e;
		p->n_hot--;
	}
}

/* An entry of its own for record s (collision or action entry). */
int
mlx5dm_epool_get(struct mlx5dm_epool *p, struct mlx5dm_ctx *ctx, struct mlx5dm_ste *s)
{
	struct mlx5dm_epool_ent *e;

	if (p->free == NULL && p->hot != NULL)
		mlx5dm_epool_cool(p, ctx);
	if (p->free == NULL) {
		struct mlx5dm_epool_block *b;
		unsigned int i;

		b = mlx5dm_malloc(sizeof(*b) + sizeof(*e) * MLX5DM_EPOOL_BLOCK);
		if (b == NULL)
			return -ENOMEM;
		b->chunk = mlx5dm_icm_chunk_alloc(ctx->ste_pool,
						  mlx5dm_log2_ceil(MLX5DM_EPOOL_BLOCK));
		if (b->chunk == NULL) {
			mlx5dm_free(b);
			return -ENOMEM;
		}
		b->next = p->blocks;
		p->blocks = b;
		e = (struct mlx5dm_epool_ent *)(b + 1);
		for (i = 0; i < MLX5DM_EPOOL_BLOCK; i++) {
			e[i].chunk = b->chunk;
			e[i].index = i;
			e[i].next = p->free;
			p->free = &e[i];
		}
	}
	e = p->free;
	p->free = e->next;
	s->chunk = e->chunk;
	s->index = e->index;
	s->pooled = e;
	return 0;
}

/* Give record s's entry back; it stays hot until the next sync. */
void
mlx5dm_epool_put(struct mlx5dm_epool *p, struct mlx5dm_ctx *ctx, struct mlx5dm_ste *s,
		 struct mlx5dm_defer *d)
{
	struct mlx5dm_epool_ent *e = s->pooled;

	e->epoch = mlx5dm_epool_epoch(ctx);
	e->next = NULL;
	if (p->hot_tail != NULL)
		p->hot_tail->next = e;
	else
		p->hot = e;
	p->hot_tail = e;
	p->n_hot++;
	/* Many hot entries and no sync coming by itself: ask for one after the locks. */
	if (p->n_hot >= 4 * MLX5DM_EPOOL_BLOCK && p->free == NULL)
		d->want_sync = true;
	s->pooled = NULL;
	s->chunk = NULL;
}

void
mlx5dm_epool_destroy(struct mlx5dm_epool *p, struct mlx5dm_defer *d)
{
	struct mlx5dm_epool_block *b, *n;

	for (b = p->blocks; b != NULL; b = n) {
		n = b->next;
		mlx5dm_defer_chunk(d, b->chunk);
		mlx5dm_free(b);
	}
	memset(p, 0, sizeof(*p));
}
