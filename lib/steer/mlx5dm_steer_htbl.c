/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Hash tables in ICM and their growth chains.
 *
 * A chain is reached through one parent pointer (an anchor for a matcher's
 * first level, the previous level's entry otherwise). Its newest table is
 * the head; while a growth is being finished, the older table is reached
 * from the head's miss anchor and misses to the matcher's end anchor:
 *
 *   parent -> head [slot chains] -miss-> head.miss_anchor -hit-> older -> e_anchor
 *
 * Growing never stops an insert for a table copy: a table four times the
 * head's size is allocated and filled with always-miss entries (a slice per
 * later entry insertion when it is large), then one control write of the
 * parent makes it the head. New entries go to the head; whether a tag is
 * already in either table is answered by the matcher's index
 * (mlx5dm_steer_index.c). The older table's entries then move to the head,
 * a few per later rule operation, each in rdma-core's rehash order
 * (dr_rule_rehash_htbl in providers/mlx5/dr_rule.c): the copy is written and
 * linked first, then the old place is unlinked, so a packet finds the entry
 * in one table or the other at every moment. Once it is empty, the head's
 * miss anchor becomes an always-miss to the matcher's end and the older
 * table is freed (its ICM reused after the next sync). A chain grows again
 * only after that, so a packet pays at most two hash lookups per level.
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
	h->root = pointing != NULL ? (const void *)pointing : (const void *)m;
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
	/* Not while an older table is still being emptied: two tables at most. */
	if (h->growing != NULL || h->chain_prev != NULL || h->chain_next != NULL ||
	    h->byte_mask == 0)
		return false;
	/* More index bits than hashed bits cannot spread entries any further. */
	return (unsigned int)__builtin_popcount(h->byte_mask) * 8 > h->log_size;
}

/* Begin growing head to 2^log_size entries: allocate the table and its miss anchor. */
static int
mlx5dm_htbl_start_growth(struct mlx5dm_matcher *m, struct mlx5dm_queue *q,
			 struct mlx5dm_htbl *head, uint8_t log_size, struct mlx5dm_defer *d)
{
	struct mlx5dm_ctx *ctx = m->tbl->dom->ctx;
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

/*
 * A new chain below entry pointing (of level - 1). The first chain of its
 * level (while it lives) is sized from the matcher's hint, as the level-0
 * table is: rules that share their first levels (the same EtherType and IP
 * version before per-rule fields, say) then fill a table of their count
 * and never grow it. Later chains of the level start at one slot. A table
 * too large to write within one insert starts at the largest that is not,
 * and the hinted one is filled a slice per later insert, as a growth is
 * (not counted as one: the chain is being sized).
 */
struct mlx5dm_htbl *
mlx5dm_htbl_chain_create(struct mlx5dm_matcher *m, struct mlx5dm_queue *q, uint8_t level,
			 struct mlx5dm_ste *pointing, struct mlx5dm_defer *d)
{
	uint16_t byte_mask = m->builders[level].byte_mask;
	/* No more index bits than hashed bits: more slots would stay unused. */
	unsigned int hint = MLX5DM_MIN((unsigned int)m->log_first,
				       (unsigned int)__builtin_popcount(byte_mask) * 8);
	unsigned int now;
	struct mlx5dm_htbl *h;

	if (m->n_chains[level] != 0)
		hint = 0;
	now = MLX5DM_MIN(hint, MLX5DM_HTBL_LOG_SYNC_FILL - 1u);
	h = mlx5dm_htbl_create(m, q, level, (uint8_t)now, byte_mask, pointing, d);
	if (h == NULL)
		return NULL;
	m->n_chains[level]++;
	/* Not fatal: the chain grows from its first size instead. */
	if (hint > now && mlx5dm_htbl_start_growth(m, q, h, (uint8_t)hint, d) == 0)
		h->growing->sizing = true;
	return h;
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
	/* Complete: g becomes the head, the old head's entries move over from now on. */
	mlx5dm_htbl_grow_unlist(m, head);
	head->growing = NULL;
	g->chain_next = head;
	head->chain_prev = g;
	head->move_pos = 0;
	TAILQ_INSERT_TAIL(&m->drain, head, drain_link);
	if (g->sizing)
		m->n_chained += 2;
	else
		mlx5dm_htbl_stats_grown(g);
	ret = mlx5dm_htbl_flip_parent(m, q, g);
	if (ret < 0)
		return ret;
	/* (A first table became m->first with the anchor flip, under the anchor lock.) */
	if (g->pointing_ste != NULL)
		g->pointing_ste->next_htbl = g;
	if (!g->sizing)
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
	struct mlx5dm_ctx *ctx = m->tbl->dom->ctx;
	struct mlx5dm_htbl *h;
	int ret;

	if (head != NULL && mlx5dm_htbl_wants_growth(head)) {
		ret = mlx5dm_htbl_start_growth(m, q, head, (uint8_t)MLX5DM_MIN(head->log_size + 2u,
					       mlx5dm_icm_pool_max_order(ctx->ste_pool)), d);
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
	if (head->pointing_ste != NULL)
		m->n_chains[head->level]--;
	if (head->growing != NULL) {
		mlx5dm_htbl_grow_unlist(m, head);
		mlx5dm_htbl_free(head->growing, d);
		head->growing = NULL;
	}
	for (t = head; t != NULL; t = next) {
		next = t->chain_next;
		if (t->chain_prev != NULL)
			TAILQ_REMOVE(&m->drain, t, drain_link);
		mlx5dm_htbl_free(t, d);
	}
}

/* Last record of slot i's collision chain in h, or NULL when the slot is unused. */
static struct mlx5dm_ste *
mlx5dm_htbl_slot_tail(const struct mlx5dm_htbl *h, uint32_t i)
{
	struct mlx5dm_ste *s = mlx5dm_htbl_slot(h, i);

	while (s != NULL && s->next_col != NULL)
		s = s->next_col;
	return s;
}

/*
 * Move the entries of slot i of the older table o to the chain's head h, in
 * chain order, MLX5DM_HTBL_MOVE_CHAIN at most: each is written at its place
 * in h (its slot from the hash it keeps) and linked behind that slot's
 * chain, then o's slot is rewritten once: always-miss, or the image of the
 * first entry left, which takes the slot over. The copies come first, as in
 * rdma-core's rehash (dr_rule_rehash_htbl in providers/mlx5/dr_rule.c), so
 * a packet finds every entry in one table or the other at every moment.
 * The records stay, with their new places: the rules, the index and the
 * tables below keep pointing at them; the ICM entries they leave are reused
 * after a sync. miss: o's unused-slot image (mlx5dm_htbl_miss_image). Returns
 * the entries moved (0 with -ENOMEM in *err when the first could not be
 * placed), the first write error in *err.
 */
static unsigned int
mlx5dm_htbl_move_chain(struct mlx5dm_matcher *m, struct mlx5dm_queue *q, struct mlx5dm_htbl *h,
		       struct mlx5dm_htbl *o, uint32_t i, const uint8_t *miss,
		       struct mlx5dm_defer *d, int *err)
{
	struct mlx5dm_ctx *ctx = m->tbl->dom->ctx;
	const uint8_t *bit_mask = m->builders[o->level].bit_mask;
	struct mlx5dm_ste *s = mlx5dm_htbl_slot(o, i), *next, *tail;
	unsigned int n;
	int ret = 0;

	for (n = 0; s != NULL && n < MLX5DM_HTBL_MOVE_CHAIN; s = next, n++) {
		uint32_t j = s->hash & (h->num_entries - 1);
		struct mlx5dm_ste own = { .chunk = s->chunk, .index = s->index,
					  .pooled = s->pooled };

		tail = mlx5dm_htbl_slot_tail(h, j);
		/* The slot of h, or an ICM entry of its own behind the slot's chain. */
		if ((tail == NULL ? mlx5dm_htbl_slot_reserve(h, j) :
				    mlx5dm_entry_pool_get(&m->entry_pool, ctx, s)) < 0) {
			/* The rest stays in o, reachable as it was. */
			if (n == 0) {
				*err = -ENOMEM;
				return 0;
			}
			break;
		}
		next = s->next_col;
		if (tail == NULL)
			s->pooled = NULL;
		s->collision = false;
		s->next_col = NULL;
		mlx5dm_rule_link(ctx, h, s, tail);
		if (ret == 0)
			ret = mlx5dm_ste_write_full(ctx, q, s, bit_mask);
		if (ret == 0 && tail != NULL)
			ret = mlx5dm_ste_write_ctrl(ctx, q, tail);
		if (own.pooled != NULL) {
			mlx5dm_entry_pool_put(&m->entry_pool, ctx, &own, d);
			mlx5dm_htbl_count_collision(o, -1);
		}
	}
	if (s == NULL) {
		mlx5dm_htbl_slot_clear(o, i);
		mlx5dm_htbl_count_used(o, -1);
		if (ret == 0)
			ret = mlx5dm_ste_write_image(ctx, q, o->chunk, i, 1, miss);
	} else {
		/* s takes the slot; its own entry goes (reused after a sync). */
		struct mlx5dm_ste own = { .chunk = s->chunk, .index = s->index,
					  .pooled = s->pooled };

		s->chunk = o->chunk;
		s->index = i;
		s->pooled = NULL;
		s->collision = false;
		mlx5dm_htbl_slot_replace(o, i, s);
		mlx5dm_htbl_count_collision(o, -1);
		mlx5dm_entry_pool_put(&m->entry_pool, ctx, &own, d);
		if (ret == 0)
			ret = mlx5dm_ste_write_full(ctx, q, s, bit_mask);
	}
	if (*err == 0)
		*err = ret;
	return n;
}

/*
 * o, the older table of head h's chain, is empty: h's miss anchor stops
 * leading into it (an always-miss to the matcher's end, as o's slots were),
 * then o goes; its ICM turns hot and is reused after the next sync.
 */
static int
mlx5dm_htbl_unchain(struct mlx5dm_matcher *m, struct mlx5dm_queue *q, struct mlx5dm_htbl *h,
		    struct mlx5dm_htbl *o, struct mlx5dm_defer *d)
{
	struct mlx5dm_ctx *ctx = m->tbl->dom->ctx;
	struct mlx5dm_ste *a = h->miss_anchor;
	uint8_t hw[MLX5DM_STE_SIZE];
	int ret;

	memcpy(hw, m->miss_img[h->level], MLX5DM_STE_SIZE);
	mlx5dm_ste_set_miss_addr(ctx->ste, hw, mlx5dm_matcher_end_icm(m));
	memcpy(a->shadow, hw, sizeof(a->shadow));
	mlx5dm_ste_to_hw(ctx->ste, hw, MLX5DM_STE_SIZE);
	ret = mlx5dm_ste_write_image(ctx, q, a->chunk, a->index, 1, hw);
	if (ret < 0)
		return ret;
	TAILQ_REMOVE(&m->drain, o, drain_link);
	h->chain_next = NULL;
	o->chain_prev = NULL;
	m->n_chained -= 2;
	mlx5dm_htbl_free(o, d);
	return 0;
}

/*
 * One rule operation's share of emptying older tables (matcher and queue
 * locks held): slot chains moved to their heads until
 * MLX5DM_HTBL_MOVE_ENTRIES entries moved, or MLX5DM_HTBL_MOVE_SCAN unused
 * slots passed, the oldest growth first. A table that received entries
 * behind the scan (a duplicate placed behind its original, a placement
 * deferred since before the growth) is scanned again; an empty one is
 * unchained and freed.
 */
int
mlx5dm_htbl_drain_step(struct mlx5dm_matcher *m, struct mlx5dm_queue *q, struct mlx5dm_defer *d)
{
	unsigned int moved = 0, passed = 0;
	struct mlx5dm_htbl *o, *miss_of = NULL;
	uint8_t miss[MLX5DM_STE_SIZE];
	int ret;

	while ((o = TAILQ_FIRST(&m->drain)) != NULL) {
		while (o->move_pos < o->num_entries) {
			uint32_t i = o->move_pos;

			if (o->pages[i >> MLX5DM_HTBL_PAGE_LOG] == NULL) {
				o->move_pos = (i | (MLX5DM_HTBL_PAGE - 1)) + 1;
				passed++;
			} else if (mlx5dm_htbl_slot(o, i) == NULL) {
				o->move_pos++;
				passed++;
			} else {
				/* One image for the slots it clears. */
				if (miss_of != o) {
					mlx5dm_htbl_miss_image(o, miss);
					miss_of = o;
				}
				ret = 0;
				moved += mlx5dm_htbl_move_chain(m, q, o->chain_prev, o, i, miss, d,
								&ret);
				if (ret < 0)
					return ret;
			}
			if (moved >= MLX5DM_HTBL_MOVE_ENTRIES || passed >= MLX5DM_HTBL_MOVE_SCAN)
				return 0;
		}
		o->move_pos = 0;
		if (o->used != 0 || o->collisions != 0)
			return 0;
		/* The pending rule (mlx5dm_steer_rule.c) may be aimed at it still. */
		if (m->pending != NULL && m->pending->last->htbl == o)
			return 0;
		ret = mlx5dm_htbl_unchain(m, q, o->chain_prev, o, d);
		if (ret < 0)
			return ret;
	}
	return 0;
}
