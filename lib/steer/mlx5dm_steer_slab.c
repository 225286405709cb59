/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Object slabs and pooled ICM entries of a matcher.
 *
 * Rule operations allocate and free small records at a high rate (one or
 * more per rule); going through malloc each time costs time and, after mass
 * deletions, long malloc consolidation pauses. Each matcher keeps slabs of
 * fixed-size records, used under the matcher lock. A freed record is reused
 * first (it is warm); otherwise records are cut from the newest block in
 * order, so a fresh block is touched only as it is used. The first few
 * blocks are small heap blocks (a matcher of a few rules stays small); the
 * next ones are huge-page regions of MLX5DM_HUGE_SIZE, populated at once:
 * a million records then cost a few hundred page faults, not tens of
 * thousands (each costing microseconds in a VM). The rule slabs of a matcher
 * that reserved its rules' records cut their blocks from that memory
 * (struct mlx5dm_slab_arena) before they do either.
 *
 * Collision and action entries each need one ICM entry of their own. They
 * come from blocks of MLX5DM_ENTRY_POOL_BLOCK entries cut from the STE pool. A
 * freed entry is hot: the device may still read it, so it is reused only
 * after an ICM sync (drain + SYNC_STEERING) has completed since it was freed.
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_steer_priv.h"

#define MLX5DM_SLAB_BLOCK 256       /* records of a small block */
#define MLX5DM_SLAB_SMALL_BLOCKS 4  /* small blocks before the huge ones */
#define MLX5DM_SLAB_ALIGN 64u /* records start on a cache line: a 128-byte one spans two */
/* Bytes of an arena block (more for large records): a slab's unused rest is at most one. */
#define MLX5DM_SLAB_ARENA_BLOCK (64u * 1024u)

enum mlx5dm_slab_from {
	MLX5DM_SLAB_HEAP,                 /* mlx5dm_malloc_socket() */
	MLX5DM_SLAB_HUGE,                 /* mlx5dm_huge_alloc(): zeroed */
	MLX5DM_SLAB_ARENA,                /* its arena's: zeroed, freed with the arena */
};

struct mlx5dm_slab_block {
	struct mlx5dm_slab_block *next;
	size_t bytes;                     /* of the whole block, header included */
	enum mlx5dm_slab_from from;
};

void
mlx5dm_slab_init(struct mlx5dm_slab *s, size_t obj_size, int socket)
{
	memset(s, 0, sizeof(*s));
	s->obj_size = MLX5DM_ALIGN_UP(obj_size, sizeof(void *));
	s->socket = socket;
}

/* Bytes of a block in units of unit, 16 records of obj_size at least (after the header). */
static size_t
mlx5dm_slab_block_bytes(size_t obj_size, size_t unit)
{
	size_t n = unit;

	while (n < MLX5DM_SLAB_ALIGN + obj_size * 16)
		n += unit;
	return n;
}

int
mlx5dm_slab_arena_init(struct mlx5dm_slab_arena *a, const struct mlx5dm_slab *s,
		       uint64_t records, unsigned int nb_slabs)
{
	size_t block = mlx5dm_slab_block_bytes(s->obj_size, MLX5DM_SLAB_ARENA_BLOCK);
	uint64_t per_block = (block - MLX5DM_SLAB_ALIGN) / s->obj_size;

	a->next = 0;
	a->base = NULL;
	a->size = 0;
	/* Records of less than half a huge page are no arena: the heap's blocks serve them. */
	if (mlx5dm_huge_fit(records * s->obj_size) == 0)
		return 0;
	/* Each slab leaves the rest of its last block unused. */
	a->size = MLX5DM_ALIGN_UP(((records + per_block - 1) / per_block + nb_slabs) * block,
				  MLX5DM_HUGE_SIZE);
	a->base = mlx5dm_huge_alloc(a->size, true, s->socket);
	if (a->base == NULL) {
		a->size = 0;
		return -ENOMEM;
	}
	return 0;
}

void
mlx5dm_slab_arena_fini(struct mlx5dm_slab_arena *a)
{
	mlx5dm_huge_free(a->base, a->size);
	memset(a, 0, sizeof(*a));
}

/* The next block of s's arena (*bytes set), NULL once it is used up. */
static struct mlx5dm_slab_block *
mlx5dm_slab_arena_take(struct mlx5dm_slab *s, size_t *bytes)
{
	struct mlx5dm_slab_arena *a = s->arena;
	size_t n, off;

	if (a == NULL || a->base == NULL)
		return NULL;
	n = mlx5dm_slab_block_bytes(s->obj_size, MLX5DM_SLAB_ARENA_BLOCK);
	/* Shards take blocks under their own locks: one atomic add per block. */
	off = __atomic_fetch_add(&a->next, n, __ATOMIC_RELAXED);
	if (off >= a->size || a->size - off < n)
		return NULL;
	*bytes = n;
	return (struct mlx5dm_slab_block *)(void *)(a->base + off);
}

/* Another block to cut records from; false without memory. */
static bool
mlx5dm_slab_grow(struct mlx5dm_slab *s)
{
	enum mlx5dm_slab_from from = MLX5DM_SLAB_ARENA;
	struct mlx5dm_slab_block *b;
	size_t bytes;

	b = mlx5dm_slab_arena_take(s, &bytes);
	if (b == NULL && s->nb_blocks >= MLX5DM_SLAB_SMALL_BLOCKS) {
		from = MLX5DM_SLAB_HUGE;
		bytes = mlx5dm_slab_block_bytes(s->obj_size, MLX5DM_HUGE_SIZE);
		b = mlx5dm_huge_alloc(bytes, true, s->socket);
	} else if (b == NULL) {
		from = MLX5DM_SLAB_HEAP;
		bytes = MLX5DM_SLAB_ALIGN + s->obj_size * MLX5DM_SLAB_BLOCK;
		b = mlx5dm_malloc_socket(bytes, s->socket);
	}
	if (b == NULL)
		return false;
	b->next = s->blocks;
	b->bytes = bytes;
	b->from = from;
	s->bump_zero = from != MLX5DM_SLAB_HEAP;
	s->blocks = b;
	s->nb_blocks++;
	/* The header takes the first cache line; records follow on the next. */
	s->bump = (uint8_t *)MLX5DM_ALIGN_UP((uintptr_t)(b + 1), MLX5DM_SLAB_ALIGN);
	s->end = (uint8_t *)b + bytes - s->obj_size + 1;
	return true;
}

/* A record with undefined contents (the caller sets every field it reads). */
void *
mlx5dm_slab_alloc_raw(struct mlx5dm_slab *s)
{
	void *o = s->free;

	if (o != NULL) {
		s->free = *(void **)o;
	} else {
		if (MLX5DM_UNLIKELY(s->bump >= s->end) && !mlx5dm_slab_grow(s))
			return NULL;
		o = s->bump;
		s->bump += s->obj_size;
	}
	s->live++;
	return o;
}

void *
mlx5dm_slab_alloc(struct mlx5dm_slab *s)
{
	/* A never-used record of a fresh mapping is zero already. */
	bool zero = s->free == NULL && s->bump < s->end && s->bump_zero;
	void *o = mlx5dm_slab_alloc_raw(s);

	if (o != NULL && !zero)
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
		if (b->from == MLX5DM_SLAB_HUGE)
			mlx5dm_huge_free(b, b->bytes);
		else if (b->from == MLX5DM_SLAB_HEAP)
			mlx5dm_free(b);
	}
	s->blocks = NULL;
	s->free = NULL;
	s->bump = NULL;
	s->end = NULL;
	s->nb_blocks = 0;
	s->bump_zero = false;
}

size_t
mlx5dm_slab_bytes(const struct mlx5dm_slab *s)
{
	const struct mlx5dm_slab_block *b;
	size_t n = 0;

	for (b = s->blocks; b != NULL; b = b->next)
		n += b->bytes;
	return n;
}

/* ---- pooled single ICM entries ---- */

/*
 * Blocks of entries (struct mlx5dm_entry_pool_block). A block whose entries
 * are all free or hot goes back to the ICM pool at once (which keeps it hot
 * there until the next sync), so deleting every rule of a matcher returns
 * all of its pooled ICM.
 */

#define MLX5DM_ENTRY_POOL_ALL (MLX5DM_ENTRY_POOL_BLOCK == 64 ? ~0ull : \
			  ((1ull << (MLX5DM_ENTRY_POOL_BLOCK & 63)) - 1))

static uint64_t
mlx5dm_entry_pool_epoch(struct mlx5dm_ctx *ctx)
{
	return mlx5dm_icm_pool_syncs(ctx->ste_pool);
}

static void
mlx5dm_entry_pool_init_lists(struct mlx5dm_entry_pool *p)
{
	if (!p->init) {
		LIST_INIT(&p->all);
		LIST_INIT(&p->avail);
		TAILQ_INIT(&p->hot);
		p->init = true;
	}
}

static void
mlx5dm_entry_pool_set_avail(struct mlx5dm_entry_pool *p, struct mlx5dm_entry_pool_block *b, bool on)
{
	if (on && !b->in_avail)
		LIST_INSERT_HEAD(&p->avail, b, avail);
	else if (!on && b->in_avail)
		LIST_REMOVE(b, avail);
	b->in_avail = on;
}

/* Hot entries freed before the last completed sync become free again. */
static void
mlx5dm_entry_pool_cool(struct mlx5dm_entry_pool *p, struct mlx5dm_ctx *ctx)
{
	uint64_t now = mlx5dm_entry_pool_epoch(ctx);
	struct mlx5dm_entry_pool_block *b;

	while ((b = TAILQ_FIRST(&p->hot)) != NULL && b->hot_epoch < now) {
		TAILQ_REMOVE(&p->hot, b, hot);
		b->in_hot = false;
		b->free |= MLX5DM_ENTRY_POOL_ALL & ~b->busy & ~b->free;
		p->n_hot = 0;
		mlx5dm_entry_pool_set_avail(p, b, true);
	}
}

/* An entry of its own for record s (collision, action or miss-anchor entry). */
int
mlx5dm_entry_pool_get(struct mlx5dm_entry_pool *p, struct mlx5dm_ctx *ctx, struct mlx5dm_ste *s)
{
	struct mlx5dm_entry_pool_block *b;
	unsigned int idx;

	mlx5dm_entry_pool_init_lists(p);
	b = LIST_FIRST(&p->avail);
	if (b == NULL && !TAILQ_EMPTY(&p->hot)) {
		mlx5dm_entry_pool_cool(p, ctx);
		b = LIST_FIRST(&p->avail);
	}
	if (b == NULL) {
		b = mlx5dm_zmalloc_socket(sizeof(*b), ctx->dev->socket);
		if (b == NULL)
			return -ENOMEM;
		b->chunk = mlx5dm_icm_chunk_alloc(ctx->ste_pool,
						  mlx5dm_log2_ceil(MLX5DM_ENTRY_POOL_BLOCK));
		if (b->chunk == NULL) {
			mlx5dm_free(b);
			return -ENOMEM;
		}
		b->icm = *b->chunk;
		b->free = MLX5DM_ENTRY_POOL_ALL;
		LIST_INSERT_HEAD(&p->all, b, all);
		mlx5dm_entry_pool_set_avail(p, b, true);
	}
	idx = (unsigned int)__builtin_ctzll(b->free);
	b->free &= ~(1ull << idx);
	b->busy |= 1ull << idx;
	if (b->free == 0)
		mlx5dm_entry_pool_set_avail(p, b, false);
	s->chunk = &b->icm;
	s->pool_index = idx;
	s->pooled = 1;
	return 0;
}

static void
mlx5dm_entry_pool_release(struct mlx5dm_entry_pool *p, struct mlx5dm_entry_pool_block *b,
			  struct mlx5dm_defer *d)
{
	mlx5dm_entry_pool_set_avail(p, b, false);
	if (b->in_hot)
		TAILQ_REMOVE(&p->hot, b, hot);
	LIST_REMOVE(b, all);
	mlx5dm_defer_chunk(d, b->chunk);
	mlx5dm_free(b);
}

/* Give record s's entry back; it stays hot until the next sync. */
void
mlx5dm_entry_pool_put(struct mlx5dm_entry_pool *p, struct mlx5dm_ctx *ctx, struct mlx5dm_ste *s,
		      struct mlx5dm_defer *d)
{
	struct mlx5dm_entry_pool_block *b = mlx5dm_ste_block(s);

	b->busy &= ~(1ull << s->pool_index);
	s->pooled = 0;
	s->chunk = NULL;
	if (b->busy == 0) {
		/* Nothing in use: the ICM pool takes the whole chunk (and keeps it hot). */
		mlx5dm_entry_pool_release(p, b, d);
		return;
	}
	b->hot_epoch = mlx5dm_entry_pool_epoch(ctx);
	/* A sync since the last count: what was hot then is cooling already. */
	if (b->hot_epoch != p->hot_epoch) {
		p->hot_epoch = b->hot_epoch;
		p->n_hot = 0;
	}
	if (!b->in_hot) {
		TAILQ_INSERT_TAIL(&p->hot, b, hot);
		b->in_hot = true;
	} else {
		/* Keep the list in freeing order: this block was just freed from. */
		TAILQ_REMOVE(&p->hot, b, hot);
		TAILQ_INSERT_TAIL(&p->hot, b, hot);
	}
	p->n_hot++;
	/*
	 * Many hot entries and nothing free: ask for a sync once the locks are
	 * gone (once per 4 blocks' worth of frees, not on every free after).
	 */
	if (p->n_hot >= 4 * MLX5DM_ENTRY_POOL_BLOCK && LIST_EMPTY(&p->avail))
		d->want_sync = true;
}

void
mlx5dm_entry_pool_destroy(struct mlx5dm_entry_pool *p, struct mlx5dm_defer *d)
{
	struct mlx5dm_entry_pool_block *b;

	mlx5dm_entry_pool_init_lists(p);
	while ((b = LIST_FIRST(&p->all)) != NULL)
		mlx5dm_entry_pool_release(p, b, d);
	memset(p, 0, sizeof(*p));
}
