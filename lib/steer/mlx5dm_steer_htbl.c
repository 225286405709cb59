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
 * a few per later rule insert, each in rdma-core's rehash order
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

/*
 * The device image of an unused slot of h, kept by shard sh (its lock
 * held) for the next slots of the same level and miss target: the image
 * depends on nothing else of the matcher's.
 */
const uint8_t *
mlx5dm_htbl_miss_image_of(struct mlx5dm_shard *sh, const struct mlx5dm_htbl *h)
{
	uint64_t target = mlx5dm_htbl_miss_target(h);

	if (!sh->miss_valid || sh->miss_level != h->level || sh->miss_target != target) {
		mlx5dm_htbl_miss_image(h, sh->miss_hw);
		sh->miss_level = h->level;
		sh->miss_target = target;
		sh->miss_valid = true;
	}
	return sh->miss_hw;
}

/* The region for the slot heads of a table of n slots, or 0 (mlx5dm_huge_fit). */
static size_t
mlx5dm_htbl_slot_mem_bytes(uint32_t n)
{
	return mlx5dm_huge_fit((size_t)n * sizeof(struct mlx5dm_ste *));
}

/* A small table of a shard has its slot records inline, behind its slot heads. */
static bool
mlx5dm_htbl_orders_inline(const struct mlx5dm_htbl *h)
{
	return h->pages == &h->page0 && h->shard != NULL;
}

/*
 * The slot records of h (several shards): a record per slot, at most
 * MLX5DM_HTBL_ORDERS; a shared first-level table's in a block per shard,
 * a cache line at least each.
 */
static int
mlx5dm_htbl_orders_init(struct mlx5dm_htbl *h)
{
	unsigned int nb = h->matcher->nb_shards;
	uint32_t n = MLX5DM_MIN(h->num_entries, (uint32_t)MLX5DM_HTBL_ORDERS), block, i;

	if (h->shard == NULL) {
		block = MLX5DM_MAX(n / nb, 64u / (uint32_t)sizeof(*h->order));
		h->order_block = (uint8_t)__builtin_ctz(block);
		n = block * nb;
	}
	if (mlx5dm_htbl_orders_inline(h))
		h->order = (struct mlx5dm_order *)(h->page0 + h->num_entries);
	else
		h->order = mlx5dm_aligned_zmalloc_socket(n * sizeof(*h->order), 64,
							 h->matcher->tbl->dom->ctx->dev->socket);
	if (h->order == NULL)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		h->order[i].queue = UINT16_MAX;
	h->order_mask = n - 1;
	return 0;
}

static struct mlx5dm_htbl *
mlx5dm_htbl_alloc(struct mlx5dm_matcher *m, struct mlx5dm_shard *sh, uint8_t level,
		  uint8_t log_size, uint16_t byte_mask)
{
	struct mlx5dm_ctx *ctx = m->tbl->dom->ctx;
	struct mlx5dm_htbl *h;

	uint32_t n = 1u << log_size;
	bool small = n <= MLX5DM_HTBL_PAGE;
	size_t orders = small && sh != NULL && m->nb_shards > 1 ? n * sizeof(*h->order) : 0;

	/* A slot is found from the hash bits its entries keep. */
	if (log_size > MLX5DM_STE_HASH_BITS) {
		errno = EINVAL;
		return NULL;
	}
	/* Callers report errno: the allocation shim does not set it. */
	h = mlx5dm_zmalloc_socket(sizeof(*h) + (small ? n * sizeof(*h->page0) : 0) + orders,
				  ctx->dev->socket);
	if (h == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	h->matcher = m;
	h->shard = sh;
	h->level = level;
	h->log_size = log_size;
	h->num_entries = n;
	h->lu_type = m->builders[level].lu_type;
	h->byte_mask = byte_mask;
	if (small) {
		h->page0 = (struct mlx5dm_ste **)(h + 1);
		h->pages = &h->page0;
	} else {
		h->pages = mlx5dm_calloc_socket(n >> MLX5DM_HTBL_PAGE_LOG, sizeof(*h->pages),
						ctx->dev->socket);
		if (h->pages == NULL) {
			errno = ENOMEM;
			goto free_h;
		}
		/* Without the region, the pages come one by one from the heap. */
		if (mlx5dm_htbl_slot_mem_bytes(n) != 0)
			h->slot_mem = mlx5dm_huge_alloc(mlx5dm_htbl_slot_mem_bytes(n), false,
							ctx->dev->socket);
	}
	if (m->nb_shards > 1 && mlx5dm_htbl_orders_init(h) < 0) {
		errno = ENOMEM;
		goto free_pages;
	}
	h->chunk = mlx5dm_icm_chunk_alloc(ctx->ste_pool, log_size);
	if (h->chunk == NULL)
		goto free_pages;
	mlx5dm_htbl_cnt(h)->tables++;
	mlx5dm_htbl_cnt(h)->entries += h->num_entries;
	return h;
free_pages:
	if (!mlx5dm_htbl_orders_inline(h))
		mlx5dm_free(h->order);
	if (!small) {
		if (h->slot_mem != NULL)
			mlx5dm_huge_free(h->slot_mem, mlx5dm_htbl_slot_mem_bytes(n));
		mlx5dm_free(h->pages);
	}
free_h:
	mlx5dm_free(h);
	return NULL;
}

/*
 * Slot pages go to the owning shard's cache (the link in the page's first
 * word); a shared first-level table's to the heap.
 */
static void
mlx5dm_htbl_free_pages(struct mlx5dm_htbl *h)
{
	struct mlx5dm_shard *sh = h->shard;
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

		if (page != NULL && sh != NULL) {
			*page = sh->page_cache;
			sh->page_cache = page;
		} else {
			mlx5dm_free(page);
		}
	}
	mlx5dm_free(h->pages);
}

void
mlx5dm_htbl_page_cache_free(struct mlx5dm_shard *sh)
{
	while (sh->page_cache != NULL) {
		void **page = sh->page_cache;

		sh->page_cache = *page;
		mlx5dm_free(page);
	}
}

/* Free a table that nothing points at any more (its entries are gone). */
static void
mlx5dm_htbl_free(struct mlx5dm_htbl *h, struct mlx5dm_defer *d)
{
	mlx5dm_defer_chunk(d, h->chunk);
	mlx5dm_ste_rec_free(mlx5dm_htbl_owner(h), h->miss_anchor, d);
	mlx5dm_htbl_free_pages(h);
	mlx5dm_htbl_cnt(h)->tables--;
	mlx5dm_htbl_stats_drop(h);
	if (!mlx5dm_htbl_orders_inline(h))
		mlx5dm_free(h->order);
	mlx5dm_free(h);
}

/*
 * The page of slot i exists (allocated if it did not): slot_set on it
 * cannot fail. Slots of one page of a shared first-level table belong to
 * every shard: the page is installed with a compare-and-swap.
 */
int
mlx5dm_htbl_slot_reserve(struct mlx5dm_htbl *h, uint32_t i)
{
	struct mlx5dm_ste ***pp = &h->pages[i >> MLX5DM_HTBL_PAGE_LOG];
	struct mlx5dm_ste **page, **none = NULL;
	void **cached;

	if (MLX5DM_LIKELY(__atomic_load_n(pp, __ATOMIC_ACQUIRE) != NULL))
		return 0;
	if (h->slot_mem != NULL) {
		/* Zero already: the region is fresh and a page of it is taken once. */
		page = h->slot_mem + (i & ~(MLX5DM_HTBL_PAGE - 1));
		__atomic_store_n(pp, page, __ATOMIC_RELEASE);
		return 0;
	}
	cached = h->shard != NULL ? h->shard->page_cache : NULL;
	if (cached != NULL) {
		h->shard->page_cache = *cached;
		memset(cached, 0, MLX5DM_HTBL_PAGE * sizeof(*page));
		page = (struct mlx5dm_ste **)cached;
	} else {
		page = mlx5dm_calloc_socket(MLX5DM_HTBL_PAGE, sizeof(*page),
					    h->matcher->tbl->dom->ctx->dev->socket);
		if (page == NULL)
			return -ENOMEM;
	}
	if (!__atomic_compare_exchange_n(pp, &none, page, false, __ATOMIC_RELEASE,
					 __ATOMIC_ACQUIRE))
		mlx5dm_free(page);
	return 0;
}

/* Start loading slot i's head (its page pointer is one small directory away). */
void
mlx5dm_htbl_slot_prefetch(const struct mlx5dm_htbl *h, uint32_t i)
{
	struct mlx5dm_ste **p = mlx5dm_htbl_page(h, i);

	if (p != NULL)
		MLX5DM_PREFETCH(&p[i & (MLX5DM_HTBL_PAGE - 1)]);
}

/*
 * A new table with every slot written as always-miss to miss_target (the
 * matcher end for a new chain). Small: one call; it is not reachable until
 * the caller points something at it.
 */
struct mlx5dm_htbl *
mlx5dm_htbl_create(struct mlx5dm_matcher *m, struct mlx5dm_shard *sh, struct mlx5dm_queue *q,
		   uint8_t level, uint8_t log_size, uint16_t byte_mask,
		   struct mlx5dm_ste *pointing, struct mlx5dm_defer *d)
{
	struct mlx5dm_ctx *ctx = m->tbl->dom->ctx;
	uint8_t hw[MLX5DM_STE_SIZE];
	struct mlx5dm_htbl *h;
	int ret;

	h = mlx5dm_htbl_alloc(m, sh, level, log_size, byte_mask);
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

/* Set the hit pointer of an anchor/parent control part to table h (size included). */
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
	mlx5dm_htbl_point(ctx, head, p->ctrl);
	return mlx5dm_ste_write_ctrl(ctx, q, p);
}

/* The chain heads being grown with h's chain: its shard's list, or the first level's. */
static struct mlx5dm_htbl **
mlx5dm_htbl_grow_list(const struct mlx5dm_htbl *h)
{
	return h->shard != NULL ? &h->shard->grow_list : &h->matcher->grow_list;
}

/*
 * Used slots and collision entries of h. A shared first-level table is
 * counted by the shards, each its share of it: the sum, with every
 * shard lock held, or one shard's share scaled up (an estimate) with one.
 */
static void
mlx5dm_htbl_load(const struct mlx5dm_htbl *h, const struct mlx5dm_shard *one, uint64_t *used,
		 uint64_t *collisions)
{
	const struct mlx5dm_matcher *m = h->matcher;
	unsigned int i;

	*used = h->used;
	*collisions = h->collisions;
	if (h->shard != NULL)
		return;
	for (i = 0; i < m->nb_shards; i++) {
		const struct mlx5dm_shard *sh = one != NULL ? one : &m->shards[i];

		*used += sh->l0_used[h->chain_prev != NULL];
		*collisions += sh->l0_collisions[h->chain_prev != NULL];
	}
}

static bool
mlx5dm_htbl_wants_growth(const struct mlx5dm_htbl *h, const struct mlx5dm_shard *one)
{
	unsigned int half = (h->num_entries + 1) / 2;
	uint64_t used, collisions;

	mlx5dm_htbl_load(h, one, &used, &collisions);
	if (collisions < half || used < half)
		return false;
	/*
	 * A table of the hinted size holding no more entries than the hint
	 * is what the matcher was sized for: keys that spread badly lengthen
	 * its collision lists rather than take a table four times as large.
	 */
	if (h->log_size >= h->matcher->log_hint &&
	    used + collisions <= (1ull << h->matcher->log_hint))
		return false;
	/* Not while an older table is still being emptied: two tables at most. */
	if (h->growing != NULL || h->chain_prev != NULL || h->chain_next != NULL ||
	    h->byte_mask == 0)
		return false;
	/*
	 * A table of the STE pool's largest chunk cannot grow: its "growth"
	 * would copy every entry into a table no larger, again each time it
	 * is crowded. Its collision lists take the rest.
	 */
	if (h->log_size >= mlx5dm_icm_pool_max_order(h->matcher->tbl->dom->ctx->ste_pool))
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

	g = mlx5dm_htbl_alloc(m, head->shard, head->level, log_size, head->byte_mask);
	if (g == NULL)
		return -ENOMEM;
	anchor = mlx5dm_ste_entry_alloc(mlx5dm_htbl_owner(head));
	if (anchor == NULL) {
		mlx5dm_htbl_free(g, d);
		return -ENOMEM;
	}
	/* The anchor hits into the current head, hashed the same way. */
	mlx5dm_ste_build_always_hit(ctx->ste, img, ctx->ste->lu_dont_care, m->tbl->dom->dir,
				    ctx->caps.vhca_id, head->lu_type, head->byte_mask,
				    mlx5dm_htbl_icm(head), head->num_entries);
	mlx5dm_ste_set_image(anchor, img);
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
	g->writers = mlx5dm_steer_queue_bit(ctx, q);
	g->grow_next = *mlx5dm_htbl_grow_list(head);
	*mlx5dm_htbl_grow_list(head) = head;
	return 0;
}

/*
 * A new chain below entry pointing (of level - 1). The first chain of the
 * last level (while it lives) is sized from the matcher's hint: rules that
 * share their first levels (the same EtherType and IP version before
 * per-rule fields, say) then fill a table of their count and never grow
 * it. Chains of the levels between, and later chains of the last level,
 * start at one slot: the hint counts rules, which only the last level has
 * an entry for (a hinted table per level would hold a few entries in
 * slots the size of the rule count). A table too large to write within
 * one insert starts at the largest that is not, and the hinted one is
 * filled a slice per later insert, as a growth is (not counted as one: the
 * chain is being sized).
 */
struct mlx5dm_htbl *
mlx5dm_htbl_chain_create(struct mlx5dm_matcher *m, struct mlx5dm_shard *sh, struct mlx5dm_queue *q,
			 uint8_t level, struct mlx5dm_ste *pointing, struct mlx5dm_defer *d)
{
	uint16_t byte_mask = m->builders[level].byte_mask;
	/* No more index bits than hashed bits: more slots would stay unused. */
	unsigned int hint = MLX5DM_MIN((unsigned int)m->log_hint,
				       (unsigned int)__builtin_popcount(byte_mask) * 8);
	unsigned int now;
	struct mlx5dm_htbl *h;

	/* Counted by the shards' rules at once: one locked add per chain, not per rule. */
	if (__atomic_fetch_add(&m->n_chains[level], 1, __ATOMIC_RELAXED) != 0 ||
	    level + 1u != m->nb_builders)
		hint = 0;
	now = MLX5DM_MIN(hint, MLX5DM_HTBL_LOG_SYNC_FILL - 1u);
	h = mlx5dm_htbl_create(m, sh, q, level, (uint8_t)now, byte_mask, pointing, d);
	if (h == NULL) {
		__atomic_fetch_sub(&m->n_chains[level], 1, __ATOMIC_RELAXED);
		return NULL;
	}
	/* Not fatal: the chain grows from its first size instead. */
	if (hint > now && mlx5dm_htbl_start_growth(m, q, h, (uint8_t)hint, d) == 0)
		h->growing->sizing = true;
	return h;
}

/* Drop head from the matcher's list of chains being grown. */
static void
mlx5dm_htbl_grow_unlist(struct mlx5dm_htbl *head)
{
	struct mlx5dm_htbl **pp;

	for (pp = mlx5dm_htbl_grow_list(head); *pp != NULL; pp = &(*pp)->growing->grow_next) {
		if (*pp == head) {
			*pp = head->growing->grow_next;
			return;
		}
	}
}

/*
 * The shared first level grew (every shard lock held): each shard's share
 * of the old head is now its share of the older table, which it empties
 * from its first slot.
 */
static void
mlx5dm_htbl_l0_aged(struct mlx5dm_matcher *m)
{
	unsigned int i;

	for (i = 0; i < m->nb_shards; i++) {
		struct mlx5dm_shard *sh = &m->shards[i];

		sh->l0_used[1] = sh->l0_used[0];
		sh->l0_collisions[1] = sh->l0_collisions[0];
		sh->l0_used[0] = 0;
		sh->l0_collisions[0] = 0;
		sh->l0_move_pos = i;
		__atomic_store_n(&sh->l0_drained, false, __ATOMIC_RELAXED);
	}
}

/* The level-0 entry above the chains of level > 0 that t is in. */
static const struct mlx5dm_ste *
mlx5dm_htbl_top(const struct mlx5dm_htbl *t)
{
	const struct mlx5dm_ste *p = t->pointing_ste;

	while (p->htbl->level > 0)
		p = p->htbl->pointing_ste;
	return p;
}

/*
 * Several shards, a chain of h's shard below level 0: its structure
 * (growth slices, the flip, the unlink of an emptied older table) is
 * recorded at the level-0 slot above it, as the rules' new chains are.
 * Returns that record in *rec once another queue's writes it names have
 * executed (q's lock is held: that queue's only if free), else -EBUSY
 * (the work waits for a later operation). *rec is NULL when there is
 * nothing to record (one shard, or the shared first level).
 */
static int
mlx5dm_htbl_chain_order(const struct mlx5dm_htbl *h, struct mlx5dm_queue *q,
			struct mlx5dm_order **rec)
{
	struct mlx5dm_ctx *ctx = h->matcher->tbl->dom->ctx;
	uint16_t qi = (uint16_t)(q - ctx->queues);
	const struct mlx5dm_ste *top;
	struct mlx5dm_order *o;

	*rec = NULL;
	if (h->shard == NULL || h->order == NULL || h->level == 0)
		return 0;
	top = mlx5dm_htbl_top(h);
	o = mlx5dm_htbl_order(top->htbl, mlx5dm_ste_slot(top));
	if (o->queue != qi && o->queue != UINT16_MAX &&
	    mlx5dm_steer_queue_wait(ctx, o->queue, o->pos, true) != 0)
		return -EBUSY;
	*rec = o;
	return 0;
}

/* q's writes so far are the last of record o (NULL: none kept). */
static void
mlx5dm_htbl_order_set(struct mlx5dm_order *o, const struct mlx5dm_htbl *h,
		      struct mlx5dm_queue *q)
{
	if (o == NULL)
		return;
	o->queue = (uint16_t)(q - h->matcher->tbl->dom->ctx->queues);
	o->pos = mlx5dm_send_pos(q->ring);
}

/*
 * head's growing table is written and every write into it has executed or
 * is on q's ring: it becomes the chain head (parent pointer flip, m->first
 * or the pointing entry), the old head's entries move over from now on.
 * rec: the chain's structure record (mlx5dm_htbl_chain_order()).
 */
static int
mlx5dm_htbl_grown(struct mlx5dm_matcher *m, struct mlx5dm_queue *q, struct mlx5dm_htbl *head,
		  struct mlx5dm_order *rec)
{
	struct mlx5dm_ctx *ctx = m->tbl->dom->ctx;
	struct mlx5dm_htbl *g = head->growing;
	int ret;

	mlx5dm_htbl_grow_unlist(head);
	head->growing = NULL;
	g->chain_next = head;
	head->chain_prev = g;
	head->move_pos = 0;
	if (head->shard != NULL)
		TAILQ_INSERT_TAIL(&head->shard->drain, head, drain_link);
	else
		mlx5dm_htbl_l0_aged(m);
	if (g->sizing)
		mlx5dm_htbl_cnt(g)->chained += 2;
	else
		mlx5dm_htbl_stats_grown(g);
	ret = mlx5dm_htbl_flip_parent(m, q, g);
	mlx5dm_htbl_order_set(rec, g, q);
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
 * Write up to `budget` bytes of head's growing table; when complete, make it
 * the chain head, except the shared first level's, which
 * mlx5dm_htbl_l0_complete() makes the head once the other queues' slices
 * have executed. Slices of a chain below level 0 and its flip wait for
 * another queue's (their record); when that queue is busy, a later insert
 * writes them.
 */
static int
mlx5dm_htbl_fill(struct mlx5dm_matcher *m, struct mlx5dm_queue *q, struct mlx5dm_htbl *head,
		 uint32_t budget)
{
	struct mlx5dm_ctx *ctx = m->tbl->dom->ctx;
	struct mlx5dm_htbl *g = head->growing;
	uint32_t n = MLX5DM_MIN(g->num_entries - g->fill_pos, budget / MLX5DM_STE_SIZE);
	uint8_t hw[MLX5DM_STE_SIZE];
	struct mlx5dm_order *rec;
	int ret;

	if (mlx5dm_htbl_chain_order(head, q, &rec) < 0)
		return 0;
	if (n > 0) {
		mlx5dm_htbl_miss_image(g, hw);
		g->writers |= mlx5dm_steer_queue_bit(ctx, q);
		ret = mlx5dm_ste_write_image(ctx, q, g->chunk, g->fill_pos, n, hw);
		mlx5dm_htbl_order_set(rec, head, q);
		if (ret < 0)
			return ret;
		g->fill_pos += n;
	}
	if (g->fill_pos < g->num_entries || g->shard == NULL)
		return 0;
	return mlx5dm_htbl_grown(m, q, head, rec);
}

/*
 * After an entry was placed in head: start growing it if it is crowded
 * (small tables are filled at once and switched, the shared first level's
 * by mlx5dm_htbl_l0_complete()), then spend one slice on
 * the growth at the front of the matcher's list (the most recently started).
 */
int
mlx5dm_htbl_after_insert(struct mlx5dm_matcher *m, struct mlx5dm_queue *q,
			 struct mlx5dm_htbl *head, struct mlx5dm_defer *d)
{
	struct mlx5dm_ctx *ctx = m->tbl->dom->ctx;
	struct mlx5dm_htbl *h;
	int ret;

	if (head != NULL && mlx5dm_htbl_wants_growth(head, NULL)) {
		ret = mlx5dm_htbl_start_growth(m, q, head, (uint8_t)MLX5DM_MIN(head->log_size + 2u,
					       mlx5dm_icm_pool_max_order(ctx->ste_pool)), d);
		if (ret < 0) {
			/* Not fatal: entries keep going to the crowded head. */
			MLX5DM_LOG(WARNING, MLX5DM_STEER_LOG, "table growth postponed: %d", ret);
		} else if (head->growing->log_size < MLX5DM_HTBL_LOG_SYNC_FILL) {
			return mlx5dm_htbl_fill(m, q, head, UINT32_MAX);
		}
	}
	h = head != NULL ? *mlx5dm_htbl_grow_list(head) : NULL;
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

	(void)m; /* growth lists are the chain's own (its shard's or the first level's) */
	if (head == NULL)
		return;
	if (head->pointing_ste != NULL)
		__atomic_fetch_sub(&m->n_chains[head->level], 1, __ATOMIC_RELAXED);
	if (head->growing != NULL) {
		mlx5dm_htbl_grow_unlist(head);
		mlx5dm_htbl_free(head->growing, d);
		head->growing = NULL;
	}
	for (t = head; t != NULL; t = next) {
		next = t->chain_next;
		if (t->chain_prev != NULL && t->shard != NULL)
			TAILQ_REMOVE(&t->shard->drain, t, drain_link);
		mlx5dm_htbl_free(t, d);
	}
}

/*
 * Several shards: the slot records of the chains a move of slot i of the
 * older table o (n entries, from s on) writes, into rec: slot i and each
 * entry's slot in the head h, and for a table below level 0 the record
 * of its structure (the level-0 slot above it). Returns how many (0 with
 * one shard).
 */
static unsigned int
mlx5dm_htbl_move_orders(const struct mlx5dm_htbl *h,
			const struct mlx5dm_htbl *o, uint32_t i, const struct mlx5dm_ste *s,
			struct mlx5dm_order *rec[MLX5DM_HTBL_MOVE_CHAIN + 2])
{
	const struct mlx5dm_ste *top;
	unsigned int n, k, nb = 0;

	if (o->order == NULL)
		return 0;
	if (o->level > 0) {
		top = mlx5dm_htbl_top(o);
		rec[nb++] = mlx5dm_htbl_order(top->htbl, mlx5dm_ste_slot(top));
	}
	rec[nb++] = mlx5dm_htbl_order(o, i);
	for (n = 0; s != NULL && n < MLX5DM_HTBL_MOVE_CHAIN; s = s->next_col, n++) {
		struct mlx5dm_order *r = mlx5dm_htbl_order(h,
							    s->hash & (h->num_entries - 1));

		for (k = 0; k < nb && rec[k] != r; k++)
			;
		if (k == nb)
			rec[nb++] = r;
	}
	return nb;
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
 * after a sync. miss: o's unused-slot image (mlx5dm_htbl_miss_image).
 * Another queue's writes into the slot chains it writes execute first;
 * when that queue is busy (its lock taken: q's is held), nothing moves
 * and *err is -EBUSY (try with a later operation). Returns the entries
 * moved (0 with -ENOMEM in *err when the first could not be placed), the
 * first write error in *err.
 */
static unsigned int
mlx5dm_htbl_move_chain(struct mlx5dm_shard *sh, struct mlx5dm_queue *q, uint16_t qi,
		       struct mlx5dm_htbl *h, struct mlx5dm_htbl *o, uint32_t i,
		       const uint8_t *miss, struct mlx5dm_defer *d, int *err)
{
	struct mlx5dm_matcher *m = sh->m;
	struct mlx5dm_ctx *ctx = m->tbl->dom->ctx;
	const uint8_t *bit_mask = m->builders[o->level].bit_mask;
	struct mlx5dm_ste *s = mlx5dm_htbl_slot(o, i), *next, *tail;
	struct mlx5dm_order *rec[MLX5DM_HTBL_MOVE_CHAIN + 2];
	unsigned int n, k, nb;
	int ret = 0;

	nb = mlx5dm_htbl_move_orders(h, o, i, s, rec);
	for (k = 0; k < nb; k++) {
		if (rec[k]->queue != qi && rec[k]->queue != UINT16_MAX &&
		    mlx5dm_steer_queue_wait(ctx, rec[k]->queue, rec[k]->pos, true) != 0) {
			*err = -EBUSY;
			return 0;
		}
	}
	for (n = 0; s != NULL && n < MLX5DM_HTBL_MOVE_CHAIN; s = next, n++) {
		uint32_t j = (uint32_t)s->hash & (h->num_entries - 1);
		/* The ICM entry s leaves (its own, when a collision entry of o's). */
		struct mlx5dm_icm_chunk *own_chunk = s->pooled ? s->chunk : NULL;
		uint32_t own_index = s->pool_index;

		tail = mlx5dm_htbl_slot_tail(h, j);
		/* The slot of h, or an ICM entry of its own behind the slot's chain. */
		if ((tail == NULL ? mlx5dm_htbl_slot_reserve(h, j) :
				    mlx5dm_entry_pool_get(&sh->entry_pool, ctx, s)) < 0) {
			/* The rest stays in o, reachable as it was. */
			if (n == 0) {
				*err = -ENOMEM;
				return 0;
			}
			break;
		}
		next = s->next_col;
		if (tail == NULL)
			s->pooled = 0;
		s->collision = false;
		s->next_col = NULL;
		mlx5dm_rule_link(sh, h, s, tail);
		if (ret == 0)
			ret = mlx5dm_ste_write_full(ctx, q, s, bit_mask);
		if (ret == 0 && tail != NULL)
			ret = mlx5dm_ste_write_ctrl(ctx, q, tail);
		if (own_chunk != NULL) {
			struct mlx5dm_ste own;

			/* The pool reads only these of the record (not zeroed whole). */
			own.chunk = own_chunk;
			own.pool_index = own_index;
			own.pooled = 1;
			mlx5dm_entry_pool_put(&sh->entry_pool, ctx, &own, d);
			mlx5dm_htbl_count_collision(sh, o, -1);
		}
	}
	if (s == NULL) {
		mlx5dm_htbl_slot_clear(o, i);
		mlx5dm_htbl_count_used(sh, o, -1);
		if (ret == 0)
			ret = mlx5dm_ste_write_image(ctx, q, o->chunk, i, 1, miss);
	} else {
		/* s takes the slot; its own entry goes (reused after a sync). */
		struct mlx5dm_ste own = {
			.chunk = s->chunk, .pool_index = s->pool_index, .pooled = 1,
		};

		/* Its place in o's chunk is its slot, i. */
		s->pooled = 0;
		s->chunk = o->chunk;
		s->collision = false;
		mlx5dm_htbl_slot_replace(o, i, s);
		mlx5dm_htbl_count_collision(sh, o, -1);
		mlx5dm_entry_pool_put(&sh->entry_pool, ctx, &own, d);
		if (ret == 0)
			ret = mlx5dm_ste_write_full(ctx, q, s, bit_mask);
	}
	for (k = 0; k < nb; k++) {
		rec[k]->queue = qi;
		rec[k]->pos = mlx5dm_send_pos(q->ring);
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
	mlx5dm_ste_set_image(a, hw);
	mlx5dm_ste_to_hw(ctx->ste, hw, MLX5DM_STE_SIZE);
	ret = mlx5dm_ste_write_image(ctx, q, a->chunk, mlx5dm_ste_index(a), 1, hw);
	if (ret < 0)
		return ret;
	if (o->shard != NULL)
		TAILQ_REMOVE(&o->shard->drain, o, drain_link);
	h->chain_next = NULL;
	o->chain_prev = NULL;
	mlx5dm_htbl_cnt(o)->chained -= 2;
	mlx5dm_htbl_free(o, d);
	return 0;
}

/* What one rule operation may spend on emptying older tables. */
struct mlx5dm_htbl_budget {
	unsigned int moved;
	unsigned int passed;
};

/*
 * Empty slots of older table o from *pos, every stride-th, into its head:
 * 1 once past the last, 0 when the budget is spent (or another queue is
 * busy in a slot to move), or a negative errno.
 */
static int
mlx5dm_htbl_drain_scan(struct mlx5dm_shard *sh, struct mlx5dm_queue *q, uint16_t qi,
		       struct mlx5dm_htbl *o, uint32_t *pos, uint32_t stride,
		       struct mlx5dm_htbl_budget *b, struct mlx5dm_defer *d)
{
	int ret;

	while (*pos < o->num_entries) {
		uint32_t i = *pos;

		if (mlx5dm_htbl_page(o, i) == NULL) {
			/* A never used page: the stride's first slot of the next one. */
			*pos = ((i | (MLX5DM_HTBL_PAGE - 1)) + 1) | (i & (stride - 1));
			b->passed++;
		} else if (mlx5dm_htbl_slot(o, i) == NULL) {
			*pos += stride;
			b->passed++;
		} else {
			ret = 0;
			b->moved += mlx5dm_htbl_move_chain(sh, q, qi, o->chain_prev, o, i,
							   mlx5dm_htbl_miss_image_of(sh, o), d,
							   &ret);
			if (ret == -EBUSY)
				return 0;
			if (ret < 0)
				return ret;
		}
		if (b->moved >= MLX5DM_HTBL_MOVE_ENTRIES || b->passed >= MLX5DM_HTBL_MOVE_SCAN)
			return 0;
	}
	return 1;
}

/* Start loading an entry record and, for a lean one, the rule behind it up to its actions. */
static inline void
mlx5dm_htbl_record_prefetch(const struct mlx5dm_ste *s)
{
	const uint8_t *b = (const uint8_t *)s;

	MLX5DM_PREFETCH(b);
	MLX5DM_PREFETCH(b + 64);
	MLX5DM_PREFETCH(b + sizeof(*s) + sizeof(struct mlx5dm_rule) + 63);
}

/*
 * Start loading what the shard's next drain step reads first (its oldest
 * growth's slots from the scan position, as many as the step may empty):
 * slot order is hash order, so each record moved is a cache miss, and
 * the insert that runs the step (mlx5dm_rule_drain()) has its own work to
 * overlap them with. A lean last-level record is followed by its rule
 * (mlx5dm_rule_last()), whose actions rebuild its control part: its lines
 * are loaded too. The slots' first records go into first; returns how
 * many. Shard sh's lock held.
 */
unsigned int
mlx5dm_htbl_drain_prefetch(const struct mlx5dm_shard *sh,
			   const struct mlx5dm_ste *first[MLX5DM_HTBL_MOVE_ENTRIES])
{
	const struct mlx5dm_htbl *o = TAILQ_FIRST(&sh->drain);
	uint32_t i, end;
	unsigned int n = 0;

	if (MLX5DM_LIKELY(o == NULL))
		return 0;
	end = MLX5DM_MIN(o->move_pos + MLX5DM_HTBL_MOVE_SCAN, o->num_entries);
	/* The step moves whole chains until MLX5DM_HTBL_MOVE_ENTRIES: as many slots at most. */
	for (i = o->move_pos; i < end && n < MLX5DM_HTBL_MOVE_ENTRIES; i++) {
		const struct mlx5dm_ste *s = mlx5dm_htbl_slot(o, i);

		if (s != NULL) {
			mlx5dm_htbl_record_prefetch(s);
			first[n++] = s;
		}
	}
	return n;
}

/*
 * Once the n records of mlx5dm_htbl_drain_prefetch() have arrived: the
 * slots of the head they go to and the second record of each chain. Not
 * further: reading what was just requested would wait for it.
 */
void
mlx5dm_htbl_drain_prefetch_next(const struct mlx5dm_shard *sh,
				const struct mlx5dm_ste *const first[], unsigned int n)
{
	const struct mlx5dm_htbl *o = TAILQ_FIRST(&sh->drain), *h;
	unsigned int k;

	if (MLX5DM_LIKELY(n == 0) || o == NULL)
		return;
	h = o->chain_prev;
	for (k = 0; k < n; k++) {
		mlx5dm_htbl_slot_prefetch(h, (uint32_t)first[k]->hash & (h->num_entries - 1));
		if (first[k]->next_col != NULL)
			mlx5dm_htbl_record_prefetch(first[k]->next_col);
	}
}

/*
 * Shard sh's share of the shared first level's older table, with sh's lock
 * (or every shard's) and q's held: sh's slots move to the head; once none
 * is left, the shard says so (the table goes with every shard lock held:
 * mlx5dm_htbl_l0_grow()). 1 when sh's share is empty.
 */
static int
mlx5dm_htbl_l0_drain(struct mlx5dm_shard *sh, struct mlx5dm_queue *q, uint16_t qi,
		     struct mlx5dm_htbl_budget *b, struct mlx5dm_defer *d)
{
	struct mlx5dm_matcher *m = sh->m;
	struct mlx5dm_htbl *o = m->first->chain_next;
	int ret;

	if (o == NULL || sh->l0_drained)
		return 1;
	ret = mlx5dm_htbl_drain_scan(sh, q, qi, o, &sh->l0_move_pos, m->nb_shards, b, d);
	if (ret <= 0)
		return ret;
	sh->l0_move_pos = (uint32_t)(sh - m->shards);
	/* Entries placed behind the scan (a duplicate behind its original): again. */
	if (sh->l0_used[1] != 0 || sh->l0_collisions[1] != 0)
		return 0;
	__atomic_store_n(&sh->l0_drained, true, __ATOMIC_RELEASE);
	return 1;
}

/*
 * One rule operation's share of emptying older tables (shard sh's lock
 * and q's held): slot chains moved to their heads until
 * MLX5DM_HTBL_MOVE_ENTRIES entries moved, or MLX5DM_HTBL_MOVE_SCAN unused
 * slots passed, the shard's oldest growth first (own: an insertion; see
 * mlx5dm_htbl_after_delete()), then its share of a shared first level. A
 * table that received entries behind the scan (a duplicate placed behind
 * its original, a placement deferred since before the growth) is scanned
 * again; an empty one of the shard's is unchained and freed.
 */
int
mlx5dm_htbl_drain_step(struct mlx5dm_shard *sh, struct mlx5dm_queue *q, uint16_t qi,
		       bool own, struct mlx5dm_defer *d)
{
	struct mlx5dm_matcher *m = sh->m;
	struct mlx5dm_htbl_budget b = { .moved = 0 };
	struct mlx5dm_htbl *o, *h;
	struct mlx5dm_order *rec;
	int ret;

	while (own && (o = TAILQ_FIRST(&sh->drain)) != NULL) {
		ret = mlx5dm_htbl_drain_scan(sh, q, qi, o, &o->move_pos, 1, &b, d);
		if (ret <= 0)
			return ret;
		o->move_pos = 0;
		if (o->used != 0 || o->collisions != 0 ||
		    mlx5dm_htbl_chain_order(o, q, &rec) < 0)
			return 0;
		h = o->chain_prev;
		ret = mlx5dm_htbl_unchain(m, q, h, o, d);
		mlx5dm_htbl_order_set(rec, h, q);
		if (ret < 0)
			return ret;
	}
	if (m->nb_shards == 1)
		return 0;
	ret = mlx5dm_htbl_l0_drain(sh, q, qi, &b, d);
	return ret < 0 ? ret : 0;
}

/*
 * After a deletion from table t (shard sh's lock and q's held): t, an
 * older table of a chain of the shard's, goes once it is empty. Deletions
 * move no entries of the shard's tables: a chain grows only on insertion,
 * so only insertions need its older table gone (mlx5dm_htbl_drain_step),
 * and meanwhile the older table also empties as its rules are deleted;
 * moving entries on deletion would move many that are deleted next.
 */
int
mlx5dm_htbl_after_delete(struct mlx5dm_shard *sh, struct mlx5dm_queue *q, struct mlx5dm_htbl *t,
			 struct mlx5dm_defer *d)
{
	if (t->chain_prev == NULL || t->shard == NULL || t->used != 0 || t->collisions != 0)
		return 0;
	return mlx5dm_htbl_unchain(sh->m, q, t->chain_prev, t, d);
}

/*
 * Several shards: does the shared first level want growing, a slice of
 * its growth in progress, or its older table emptied by the shards that
 * have not done their share yet (sh's lock held; placed: sh's rule took a
 * first-level slot; sh's share stands for the rest)?
 */
bool
mlx5dm_htbl_l0_due(struct mlx5dm_shard *sh, bool placed)
{
	struct mlx5dm_matcher *m = sh->m;

	if (m->first->chain_next != NULL)
		return sh->l0_drained;
	return m->grow_list != NULL || (placed && mlx5dm_htbl_wants_growth(m->first, sh));
}

/*
 * The shared first level's table is written (l0_lock held, no other lock
 * of m nor a queue's): the anchor and slices that other queues wrote must
 * execute before the flip makes it reachable. They are waited for without
 * the shard locks and q's: a queue that waited for another queue's lock
 * holding its own would deadlock with that queue completing another
 * matcher's growth. A growth written on q alone (a small one, filled at
 * once) waits for nothing. Then, with every shard lock, the table becomes
 * the head. The wait changed nothing that this needs: the head and its
 * growth change only with l0_lock, and the rules placed in the head
 * meanwhile move over from the older table as the earlier ones do.
 */
static int
mlx5dm_htbl_l0_complete(struct mlx5dm_matcher *m, struct mlx5dm_queue *q, struct mlx5dm_htbl *h)
{
	struct mlx5dm_ctx *ctx = m->tbl->dom->ctx;
	int ret;

	ret = mlx5dm_steer_wait_others(ctx, q, h->growing->writers);
	if (ret < 0)
		return ret;
	mlx5dm_matcher_lock_all(m);
	mlx5dm_spinlock_lock(&q->lock);
	ret = mlx5dm_htbl_grown(m, q, h, NULL);
	if (ret >= 0)
		ret = mlx5dm_send_flush_batch(q->ring, q->db_batch);
	mlx5dm_spinlock_unlock(&q->lock);
	mlx5dm_matcher_unlock_all(m);
	return ret;
}

/*
 * The shared first level's growth (l0_lock held, no other lock of m nor a
 * queue's): whether to start one, from every shard's share (every shard
 * lock); else a slice of the one in progress, which no rule and no packet
 * reaches until it is complete, so q's lock is all it needs; then, once
 * the table is written, its completion.
 */
static int
mlx5dm_htbl_l0_fill(struct mlx5dm_matcher *m, struct mlx5dm_queue *q, struct mlx5dm_defer *d)
{
	struct mlx5dm_htbl *h = m->first, *g;
	bool start = m->grow_list == NULL;
	int ret;

	if (start) {
		mlx5dm_matcher_lock_all(m);
		mlx5dm_spinlock_lock(&q->lock);
		ret = mlx5dm_htbl_after_insert(m, q, h, d);
	} else {
		mlx5dm_spinlock_lock(&q->lock);
		ret = mlx5dm_htbl_fill(m, q, h, MLX5DM_HTBL_FILL_SLICE);
	}
	if (ret >= 0)
		ret = mlx5dm_send_flush_batch(q->ring, q->db_batch);
	mlx5dm_spinlock_unlock(&q->lock);
	if (start)
		mlx5dm_matcher_unlock_all(m);
	g = h->growing;
	if (ret < 0 || g == NULL || g->fill_pos < g->num_entries)
		return ret;
	return mlx5dm_htbl_l0_complete(m, q, h);
}

/*
 * Shares of the shared first level's older table that their shards have
 * not emptied (l0_lock held): each under its own shard's lock, taken only
 * if free (its holder is that shard's rule, which empties it too), within
 * one operation's budget. True once every shard's share is empty.
 */
static bool
mlx5dm_htbl_l0_help(struct mlx5dm_matcher *m, struct mlx5dm_queue *q, uint16_t qi,
		    struct mlx5dm_defer *d, int *ret)
{
	struct mlx5dm_htbl_budget b = { .moved = 0 };
	bool all = true;
	unsigned int i;
	int r;

	*ret = 0;
	for (i = 0; i < m->nb_shards; i++) {
		struct mlx5dm_shard *sh = &m->shards[i];

		if (__atomic_load_n(&sh->l0_drained, __ATOMIC_ACQUIRE))
			continue;
		if (b.moved >= MLX5DM_HTBL_MOVE_ENTRIES || b.passed >= MLX5DM_HTBL_MOVE_SCAN ||
		    !mlx5dm_spinlock_trylock(&sh->lock)) {
			all = false;
			continue;
		}
		mlx5dm_spinlock_lock(&q->lock);
		r = mlx5dm_htbl_l0_drain(sh, q, qi, &b, d);
		if (r >= 0)
			*ret = mlx5dm_send_flush_batch(q->ring, q->db_batch);
		mlx5dm_spinlock_unlock(&q->lock);
		mlx5dm_spinlock_unlock(&sh->lock);
		if (r < 0)
			*ret = r;
		if (*ret < 0)
			return false;
		all = all && r == 1;
	}
	return all;
}

/*
 * Every shard's share of the shared first level's older table is empty
 * (l0_lock held, no other lock of m nor a queue's): the moves out of it
 * went on several queues' rings and must execute before the head's miss
 * anchor stops leading into it. They are waited for without the shard
 * locks and q's, which the other queues' rules need; then, with every
 * shard lock, the table goes unless a placement behind the scans filled a
 * share again (that share is scanned again first).
 */
static int
mlx5dm_htbl_l0_unchain(struct mlx5dm_matcher *m, struct mlx5dm_queue *q, struct mlx5dm_defer *d)
{
	struct mlx5dm_ctx *ctx = m->tbl->dom->ctx;
	bool empty = true;
	unsigned int i;
	int ret;

	ret = mlx5dm_steer_wait_others(ctx, q, UINT64_MAX);
	if (ret < 0)
		return ret;
	mlx5dm_matcher_lock_all(m);
	mlx5dm_spinlock_lock(&q->lock);
	for (i = 0; i < m->nb_shards; i++) {
		struct mlx5dm_shard *sh = &m->shards[i];

		if (sh->l0_used[1] != 0 || sh->l0_collisions[1] != 0) {
			__atomic_store_n(&sh->l0_drained, false, __ATOMIC_RELAXED);
			empty = false;
		}
	}
	if (empty)
		ret = mlx5dm_htbl_unchain(m, q, m->first, m->first->chain_next, d);
	if (ret >= 0)
		ret = mlx5dm_send_flush_batch(q->ring, q->db_batch);
	mlx5dm_spinlock_unlock(&q->lock);
	mlx5dm_matcher_unlock_all(m);
	return ret;
}

/*
 * The first-level work of an operation with several shards, called holding
 * no lock of m (mlx5dm_htbl_l0_due() said it is due): a growth
 * (mlx5dm_htbl_l0_fill()), or a share of emptying the older table without
 * the other shards' locks; with every shard lock (no rule is then between
 * reading m->first and writing under it), then queue qi's, what changes
 * the chain: a growth started or completed (the head flips); the older
 * table goes once every shard's share of it is empty and every ring's
 * moves have executed (mlx5dm_htbl_l0_unchain()). An operation that finds
 * another at this work leaves it to that one and to later ones.
 */
int
mlx5dm_htbl_l0_grow(struct mlx5dm_matcher *m, uint16_t qi, struct mlx5dm_defer *d)
{
	struct mlx5dm_ctx *ctx = m->tbl->dom->ctx;
	struct mlx5dm_queue *q = &ctx->queues[qi];
	struct mlx5dm_htbl_budget b = { .moved = 0 };
	struct mlx5dm_htbl *o;
	unsigned int i;
	int ret = 0;

	if (!mlx5dm_spinlock_trylock(&m->l0_lock))
		return 0;
	o = m->first->chain_next;
	if (o == NULL) {
		ret = mlx5dm_htbl_l0_fill(m, q, d);
		mlx5dm_spinlock_unlock(&m->l0_lock);
		return ret;
	}
	if (!mlx5dm_htbl_l0_help(m, q, qi, d, &ret) || ret < 0) {
		mlx5dm_spinlock_unlock(&m->l0_lock);
		return ret;
	}
	mlx5dm_matcher_lock_all(m);
	mlx5dm_spinlock_lock(&q->lock);
	for (i = 0; i < m->nb_shards; i++) {
		ret = mlx5dm_htbl_l0_drain(&m->shards[i], q, qi, &b, d);
		if (ret <= 0)
			break;
	}
	if (ret >= 0)
		ret = mlx5dm_send_flush_batch(q->ring, q->db_batch);
	mlx5dm_spinlock_unlock(&q->lock);
	mlx5dm_matcher_unlock_all(m);
	if (ret >= 0 && i == m->nb_shards)
		ret = mlx5dm_htbl_l0_unchain(m, q, d);
	mlx5dm_spinlock_unlock(&m->l0_lock);
	return ret;
}
