/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Hash tables in ICM and their growth chains.
 *
 * A chain is reached through one parent pointer (an anchor for a matcher's
 * first level, the previous level's entry otherwise). Its newest table is
 * the head; each older table is reached from the newer one's miss anchor,
 * and the oldest table misses to the matcher's end anchor:
 *
 *   parent -> head [slot chains] -miss-> head.miss_anchor -hit-> older ... -> e_anchor
 *
 * Growing never moves an entry: a table four times the head's size is
 * allocated and filled with always-miss entries (a slice per later entry
 * insertion when it is large), then one control write of the parent makes
 * it the head. New entries go to the head; whether a tag is already in any
 * table of the chain is answered by the matcher's index (mlx5dm_steer_index.c).
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_steer_priv.h"

uint64_t
mlx5dm_htbl_icm(const struct mlx5dm_htbl *h)
{
	return h->chunk->icm_addr;
}

/* Where unused slots and chain ends of this table miss to. */
uint64_t
mlx5dm_htbl_miss_target(const struct mlx5dm_htbl *h)
{
	if (h->miss_anchor != NULL)
		return mlx5dm_ste_icm(h->miss_anchor);
	return mlx5dm_matcher_end_icm(h->matcher);
}

/* The device image of an unused slot of h (the matcher's image of its level, aimed). */
void
mlx5dm_htbl_miss_image(const struct mlx5dm_htbl *h, uint8_t *hw)
{
	struct mlx5dm_ctx *ctx = h->matcher->tbl->dom->ctx;

	memcpy(hw, h->matcher->miss_img[h->level], MLX5DM_STE_SIZE);
	mlx5dm_ste_set_miss_addr(ctx->ste, hw, mlx5dm_htbl_miss_target(h));
	mlx5dm_ste_to_hw(ctx->ste, hw, MLX5DM_STE_SIZE);
}

/* The region for the slot heads of a table of n slots, or 0 (mlx5dm_huge_fit). */
static size_t
mlx5dm_htbl_slot_mem_bytes(uint32_t n)
{
	return mlx5dm_huge_fit((size_t)n * sizeof(struct mlx5dm_ste *));
}

static struct mlx5dm_htbl *
mlx5dm_htbl_alloc(struct mlx5dm_matcher *m, uint8_t level, uint8_t log_size,
		  uint16_t byte_mask)
{
	struct mlx5dm_ctx *ctx = m->tbl->dom->ctx;
	struct mlx5dm_htbl *h;

	uint32_t n = 1u << log_size;
	bool small = n <= MLX5DM_HTBL_PAGE;

	/* Callers report errno: the allocation shim does not set it. */
	h = mlx5dm_zmalloc(sizeof(*h) + (small ? n * sizeof(*h->page0) : 0));
	if (h == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	h->matcher = m;
	h->level = level;
	h->log_size = log_size;
	h->num_entries = n;
	h->lu_type = m->builders[level].lu_type;
	h->byte_mask = byte_mask;
	if (small) {
		h->page0 = (struct mlx5dm_ste **)(h + 1);
		h->pages = &h->page0;
	} else {
		h->pages = mlx5dm_calloc(n >> MLX5DM_HTBL_PAGE_LOG, sizeof(*h->pages));
		if (h->pages == NULL) {
			errno = ENOMEM;
			goto free_h;
		}
		/* Without the region, the pages come one by one from the heap. */
		if (mlx5dm_htbl_slot_mem_bytes(n) != 0)
			h->slot_mem = mlx5dm_huge_alloc(mlx5dm_htbl_slot_mem_bytes(n), false);
	}
	h->chunk = mlx5dm_icm_chunk_alloc(ctx->ste_pool, log_size);
	if (h->chunk == NULL)
		goto free_pages;
	m->n_tables++;
	m->n_entries += h->num_entries;
	return h;
free_pages:
	if (!small) {
		if (h->slot_mem != NULL)
			mlx5dm_huge_free(h->slot_mem, mlx5dm_htbl_slot_mem_bytes(n));
		mlx5dm_free(h->pages);
	}
free_h:
	mlx5dm_free(h);
	return NULL;
}

/* Slot pages go to the matcher's cache (the link in the page's first word). */
static void
mlx5dm_htbl_free_pages(struct mlx5dm_htbl *h)
{
	struct mlx5dm_matcher *m = h->matcher;
	uint32_t i;

	if (h->pages == &h->page0)
		return;
	if (h->slot_mem != NULL) {
		mlx5dm_huge_free(h->slot_mem, mlx5dm_htbl_slot_mem_bytes(h->num_entries));
		mlx5dm_free(h->pages);
		return;
	}
	for (i = 0; i < h->num_entries >> MLX5DM_HTBL_PAGE_LOG; i++) {
		void **page = (void **)h->pages[i];

		if (page != NULL) {
			*page = m->page_cache;
			m->page_cache = page;
		}
	}
	mlx5dm_free(h->pages);
}

void
mlx5dm_htbl_page_cache_free(struct mlx5dm_matcher *m)
{
	while (m->page_cache != NULL) {
		void **page = m->page_cache;

		m->page_cache = *page;
		mlx5dm_free(page);
	}
}

/* Free a table that nothing points at any more (its entries are gone). */
static void
mlx5dm_htbl_free(struct mlx5dm_htbl *h, struct mlx5dm_defer *d)
{
	mlx5dm_defer_chunk(d, h->chunk);
	mlx5dm_ste_rec_free(h->matcher, h->miss_anchor, d);
	mlx5dm_htbl_free_pages(h);
	h->matcher->n_tables--;
	mlx5dm_htbl_stats_drop(h);
	mlx5dm_free(h);
}

/* Make s the head of slot i; its page comes now if it is the page's first. -ENOMEM. */
/* The page of slot i exists (allocated if it did not): slot_set on it cannot fail. */
int
mlx5dm_htbl_slot_reserve(struct mlx5dm_htbl *h, uint32_t i)
{
	struct mlx5dm_ste ***pp = &h->pages[i >> MLX5DM_HTBL_PAGE_LOG];
	void **page;

	if (MLX5DM_LIKELY(*pp != NULL))
		return 0;
	page = h->matcher->page_cache;
	if (h->slot_mem != NULL) {
		/* Zero already: the region is fresh and a page of it is taken once. */
		*pp = h->slot_mem + (i & ~(MLX5DM_HTBL_PAGE - 1));
	} else if (page != NULL) {
		h->matcher->page_cache = *page;
		memset(page, 0, MLX5DM_HTBL_PAGE * sizeof(**pp));
		*pp = (struct mlx5dm_ste **)page;
	} else {
		*pp = mlx5dm_calloc(MLX5DM_HTBL_PAGE, sizeof(**pp));
		if (*pp == NULL)
			return -ENOMEM;
	}
	return 0;
}

int
mlx5dm_htbl_slot_set(struct mlx5dm_htbl *h, uint32_t i, struct mlx5dm_ste *s)
{
	int ret = mlx5dm_htbl_slot_reserve(h, i);

	if (ret < 0)
		return ret;
	h->pages[i >> MLX5DM_HTBL_PAGE_LOG][i & (MLX5DM_HTBL_PAGE - 1)] = s;
	return 0;
}

/* Start loading slot i's head (its page pointer is one small directory away). */
void
mlx5dm_htbl_slot_prefetch(const struct mlx5dm_htbl *h, uint32_t i)
{
	struct mlx5dm_ste **p = h->pages[i >> MLX5DM_HTBL_PAGE_LOG];

	if (p != NULL)
		MLX5DM_PREFETCH(&p[i & (MLX5DM_HTBL_PAGE - 1)]);
}

/*
 * A new table with every slot written as always-miss to miss_target (the
 * matcher end for a new chain). Small: one call; it is not reachable until
 * the caller points something at it.
 */
struct mlx5dm_htbl *
mlx5dm_htbl_create(struct mlx5dm_matcher *m, struct mlx5dm_queue *q, uint8_t level,
		   uint8_t log_size, uint16_t byte_mask, struct mlx5dm_ste *pointing,
		   struct mlx5dm_defer *d)
{
	struct mlx5dm_ctx *ctx = m->tbl->dom->ctx;
	uint8_t hw[MLX5DM_STE_SIZE];
	struct mlx5dm_htbl *h;
	int ret;

	h = mlx5dm_htbl_alloc(m, level, log_size, byte_mask);
	if (h == NULL)
		return NULL;
	h->pointing_ste = pointing;
	h->root = h;
	mlx5dm_htbl_miss_image(h, hw);
	ret = mlx5dm_ste_write_image(ctx, q, h->chunk, 0, h->num_entries, hw);
	if (ret < 0) {
		mlx5dm_htbl_free(h, d);
		errno = -ret;
		return NULL;
	}
	return h;
}

/* Set the hit pointer of an anchor/parent shadow to table h (size included). */
void
mlx5dm_htbl_point(struct mlx5dm_ctx *ctx, const struct mlx5dm_htbl *h, uint8_t *shadow)
{
	mlx5dm_ste_set_hit_addr(ctx->ste, shadow, mlx5dm_htbl_icm(h), h->num_entries);
}

/*
 * Make the chain reached through `pointing` (or the matcher's first level
 * when NULL) start at head: one control write of the parent.
 */
static int
mlx5dm_htbl_flip_parent(struct mlx5dm_matcher *m, struct mlx5dm_queue *q,
			struct mlx5dm_htbl *head)
{
	struct mlx5dm_ctx *ctx = m->tbl->dom->ctx;
	struct mlx5dm_ste *p = head->pointing_ste;

	if (p == NULL)
		return mlx5dm_matcher_write_parent(m, q, head);
	mlx5dm_htbl_point(ctx, head, p->shadow);
	return mlx5dm_ste_write_ctrl(ctx, q, p);
}

static bool
mlx5dm_htbl_wants_growth(const struct mlx5dm_htbl *h)
{
	unsigned int half = (h->num_entries + 1) / 2;

	if (h->collisions < half || h->used < half)
		return false;
	if (h->growing != NULL || h->chain_prev != NULL || h->byte_mask == 0)
		return false;
	/* More index bits than hashed bits cannot spread entries any further. */
	return (unsigned int)__builtin_popcount(h->byte_mask) * 8 > h->log_size;
}

/* Begin growing head: allocate the bigger table and its miss anchor. */
static int
mlx5dm_htbl_start_growth(struct mlx5dm_matcher *m, struct mlx5dm_queue *q,
			 struct mlx5dm_htbl *head, struct mlx5dm_defer *d)
{
	struct mlx5dm_ctx *ctx = m->tbl->dom->ctx;
	unsigned int max = mlx5dm_icm_pool_max_order(ctx->ste_pool);
	uint8_t log_size = (uint8_t)MLX5DM_MIN(head->log_size + 2u, max);
	struct mlx5dm_ste *anchor;
	struct mlx5dm_htbl *g;
	uint8_t img[MLX5DM_STE_SIZE];
	int ret;

	g = mlx5dm_htbl_alloc(m, head->level, log_size, head->byte_mask);
	if (g == NULL)
		return -ENOMEM;
	anchor = mlx5dm_ste_entry_alloc(m);
	if (anchor == NULL) {
		mlx5dm_htbl_free(g, d);
		return -ENOMEM;
	}
	/* The anchor hits into the current head, hashed the same way. */
	mlx5dm_ste_build_always_hit(ctx->ste, img, ctx->ste->lu_dont_care, m->tbl->dom->dir,
				    ctx->caps.vhca_id, head->lu_type, head->byte_mask,
				    mlx5dm_htbl_icm(head), head->num_entries);
	memcpy(anchor->shadow, img, sizeof(anchor->shadow));
	anchor->htbl = g;
	g->miss_anchor = anchor;
	g->pointing_ste = head->pointing_ste;
	g->root = head->root;
	ret = mlx5dm_ste_write_full(ctx, q, anchor, NULL);
	if (ret < 0) {
		mlx5dm_htbl_free(g, d);
		return ret;
	}
	head->growing = g;
	g->fill_pos = 0;
	g->grow_next = m->grow_list;
	m->grow_list = head;
	return 0;
}

/* Drop head from the matcher's list of chains being grown. */
static void
mlx5dm_htbl_grow_unlist(struct mlx5dm_matcher *m, struct mlx5dm_htbl *head)
{
	struct mlx5dm_htbl **pp;

	for (pp = &m->grow_list; *pp != NULL; pp = &(*pp)->growing->grow_next) {
		if (*pp == head) {
			*pp = head->growing->grow_next;
			return;
		}
	}
}

/*
 * Write up to `budget` bytes of head's growing table; when complete, make it
 * the chain head (parent pointer flip, m->first or the pointing entry).
 */
static int
mlx5dm_htbl_fill(struct mlx5dm_matcher *m, struct mlx5dm_queue *q, struct mlx5dm_htbl *head,
		 uint32_t budget)
{
	struct mlx5dm_ctx *ctx = m->tbl->dom->ctx;
	struct mlx5dm_htbl *g = head->growing;
	uint32_t n = MLX5DM_MIN(g->num_entries - g->fill_pos, budget / MLX5DM_STE_SIZE);
	uint8_t hw[MLX5DM_STE_SIZE];
	int ret;

	if (n > 0) {
		mlx5dm_htbl_miss_image(g, hw);
		ret = mlx5dm_ste_write_image(ctx, q, g->chunk, g->fill_pos, n, hw);
		if (ret < 0)
			return ret;
		g->fill_pos += n;
	}
	if (g->fill_pos < g->num_entries)
		return 0;
	/* Complete: g becomes the head. */
	mlx5dm_htbl_grow_unlist(m, head);
	head->growing = NULL;
	g->chain_next = head;
	head->chain_prev = g;
	mlx5dm_htbl_stats_grown(g);
	ret = mlx5dm_htbl_flip_parent(m, q, g);
	if (ret < 0)
		return ret;
	/* (A first table became m->first with the anchor flip, under the anchor lock.) */
	if (g->pointing_ste != NULL)
		g->pointing_ste->next_htbl = g;
	__atomic_fetch_add(&ctx->n_rehash, 1, __ATOMIC_RELAXED);
	return 0;
}

/*
 * After an entry was placed in head: start growing it if it is crowded
 * (small tables are filled and switched at once), then spend one slice on
 * the growth at the front of the matcher's list (the most recently started).
 */
int
mlx5dm_htbl_after_insert(struct mlx5dm_matcher *m, struct mlx5dm_queue *q,
			 struct mlx5dm_htbl *head, struct mlx5dm_defer *d)
{
	struct mlx5dm_htbl *h;
	int ret;

	if (head != NULL && mlx5dm_htbl_wants_growth(head)) {
		ret = mlx5dm_htbl_start_growth(m, q, head, d);
		if (ret < 0) {
			/* Not fatal: entries keep going to the crowded head. */
			MLX5DM_LOG(WARNING, MLX5DM_STEER_LOG, "table growth postponed: %d", ret);
		} else if (head->growing->log_size < MLX5DM_HTBL_LOG_SYNC_FILL) {
			return mlx5dm_htbl_fill(m, q, head, UINT32_MAX);
		}
	}
	h = m->grow_list;
	if (h == NULL)
		return 0;
	return mlx5dm_htbl_fill(m, q, h, MLX5DM_HTBL_FILL_SLICE);
}

/*
 * Free a whole chain (and a growth in progress) whose entries are all gone;
 * nothing points at it any more.
 */
void
mlx5dm_htbl_chain_free(struct mlx5dm_matcher *m, struct mlx5dm_htbl *head,
		       struct mlx5dm_defer *d)
{
	struct mlx5dm_htbl *t, *next;

	if (head == NULL)
		return;
	if (head->growing != NULL) {
		mlx5dm_htbl_grow_unlist(m, head);
		mlx5dm_htbl_free(head->growing, d);
		head->growing = NULL;
	}
	for (t = head; t != NULL; t = next) {
		next = t->chain_next;
		mlx5dm_htbl_free(t, d);
	}
}
