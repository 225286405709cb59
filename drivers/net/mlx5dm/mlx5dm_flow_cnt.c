/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Flow counters from bulks the device allocates. A bulk is a firmware
 * command, so bulks grow geometrically (2^7 .. 2^16) and go back with
 * their last counter. A flow names its counter by an id (bulk place, then
 * index); the bulk holds one counter action per domain (the rule's
 * argument picks the counter) and each counter's base, as a reused
 * counter does not start at zero. Callers hold fp->lock, but for a
 * counter's action (mlx5dm_flow_cnt_action()) and the pins of indirect
 * COUNTs (rules sharing a counter, at the end).
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_flow.h"
#include "mlx5dm_osdep.h"

#define MLX5DM_FLOW_CNT_LOG_MIN 7u
#define MLX5DM_FLOW_CNT_LOG_MAX 16u
/*
 * Id: (place in fp->cnt_tab + 1) << MLX5DM_FLOW_CNT_LOG_MAX | index; 0 is
 * no counter. The places: 2^28 counters at most, beyond what a device has.
 */
#define MLX5DM_FLOW_CNT_TAB_MAX 4095u

struct mlx5dm_flow_cnt_slot {
	uint64_t base_hits;             /* device values the flow's counts start from */
	uint64_t base_bytes;
	uint32_t shared;                /* the indirect COUNT's (place + 1) whose counter it is */
};

struct mlx5dm_flow_cnt_bulk {
	LIST_ENTRY(mlx5dm_flow_cnt_bulk) next;  /* on fp->bulks while not full */
	struct mlx5dm_counters *c;
	uint32_t size;
	uint32_t used;
	uint32_t hint;                  /* no free counter in the words below */
	uint32_t id;                    /* place in fp->cnt_tab */
	size_t huge_bytes;              /* from mlx5dm_huge_alloc (this size), or 0: heap */
	struct mlx5dm_action *act[3];   /* per domain (RX, TX, FDB): NULL until first used there */
	uint64_t *dirty;                /* counters used before (their value is not zero) */
	struct mlx5dm_flow_cnt_slot *slot;
	uint64_t busy[];                /* size / 64 words, then dirty's, the slots */
};

#define MLX5DM_FLOW_CNT_INDEX(id) ((id) & ((1u << MLX5DM_FLOW_CNT_LOG_MAX) - 1))

static struct mlx5dm_flow_cnt_bulk *
mlx5dm_flow_cnt_bulk(const struct mlx5dm_flow_priv *fp, uint32_t id)
{
	return fp->cnt_tab[(id >> MLX5DM_FLOW_CNT_LOG_MAX) - 1];
}

struct mlx5dm_counters *
mlx5dm_flow_cnt_counters(const struct mlx5dm_flow_priv *fp, uint32_t id, uint32_t *index)
{
	*index = MLX5DM_FLOW_CNT_INDEX(id);
	return mlx5dm_flow_cnt_bulk(fp, id)->c;
}

struct mlx5dm_action *
mlx5dm_flow_cnt_action(const struct mlx5dm_flow_priv *fp, uint32_t id, unsigned int dom,
		       uint32_t *arg)
{
	*arg = MLX5DM_FLOW_CNT_INDEX(id);
	return __atomic_load_n(&mlx5dm_flow_cnt_bulk(fp, id)->act[dom], __ATOMIC_ACQUIRE);
}

/*
 * A place in fp->cnt_tab for a new bulk. The table is made whole with the
 * first bulk, never moved: a quick begin reads it without fp->lock.
 */
static int
mlx5dm_flow_cnt_tab_take(struct mlx5dm_flow_priv *fp, struct mlx5dm_flow_cnt_bulk *b)
{
	uint32_t i;

	if (fp->cnt_tab == NULL) {
		fp->cnt_tab = mlx5dm_calloc_socket(MLX5DM_FLOW_CNT_TAB_MAX, sizeof(*fp->cnt_tab),
						   fp->socket);
		if (fp->cnt_tab == NULL)
			return -ENOMEM;
	}
	for (i = 0; i < MLX5DM_FLOW_CNT_TAB_MAX; i++)
		if (fp->cnt_tab[i] == NULL)
			break;
	if (i == MLX5DM_FLOW_CNT_TAB_MAX)
		return -ENOSPC;
	fp->cnt_tab[i] = b;
	b->id = i;
	return 0;
}

static void
mlx5dm_flow_cnt_bulk_mem_free(struct mlx5dm_flow_cnt_bulk *b)
{
	if (b->huge_bytes != 0)
		mlx5dm_huge_free(b, b->huge_bytes);
	else
		mlx5dm_free(b);
}

/* The bulk's actions, the bulk; the last bulk takes the table. */
static void
mlx5dm_flow_cnt_bulk_free(struct mlx5dm_flow_priv *fp, struct mlx5dm_flow_cnt_bulk *b)
{
	unsigned int dom;
	int ret;

	for (dom = 0; dom < RTE_DIM(b->act); dom++) {
		if (b->act[dom] == NULL)
			continue;
		ret = mlx5dm_action_destroy(b->act[dom]);
		if (ret < 0)
			MLX5DM_LOG(ERR, "flow", "counter action not destroyed: %d", ret);
		fp->st.cnt_actions--;
	}
	ret = mlx5dm_counters_free(b->c);
	if (ret < 0)
		MLX5DM_LOG(ERR, "flow", "counter bulk not freed: %d", ret);
	fp->cnt_tab[b->id] = NULL;
	mlx5dm_flow_cnt_bulk_mem_free(b);
	if (--fp->st.cnt_bulks == 0) {
		mlx5dm_free(fp->cnt_tab);
		fp->cnt_tab = NULL;
	}
}

/* A refused bulk size is halved (down to 2^7) and not asked again on this port. */
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
	size_t bytes, huge;
	int err;

	c = mlx5dm_flow_cnt_bulk_alloc(fp, &log);
	if (c == NULL)
		return NULL;
	words = (1u << log) / 64;
	bytes = sizeof(*b) + 2 * words * sizeof(b->busy[0]) + (1u << log) * sizeof(b->slot[0]);
	/* Zeroed: a MiB or more in a huge region, smaller from the heap. */
	huge = mlx5dm_huge_fit(bytes);
	b = huge != 0 ? mlx5dm_huge_alloc(huge, false, fp->socket) :
			mlx5dm_zmalloc_socket(bytes, fp->socket);
	if (b == NULL) {
		err = ENOMEM;
		goto free_c;
	}
	b->huge_bytes = huge;
	err = -mlx5dm_flow_cnt_tab_take(fp, b);
	if (err != 0)
		goto free_b;
	b->c = c;
	b->size = 1u << log;
	b->dirty = b->busy + words;
	b->slot = (struct mlx5dm_flow_cnt_slot *)(b->dirty + words);
	LIST_INSERT_HEAD(&fp->bulks, b, next);
	fp->st.cnt_bulks++;
	return b;
free_b:
	mlx5dm_flow_cnt_bulk_mem_free(b);
free_c:
	if (mlx5dm_counters_free(c) < 0)
		MLX5DM_LOG(ERR, "flow", "counter bulk not freed");
	errno = err;
	return NULL;
}

/* The bulk's action in domain dom (created on the bulk's first use there). */
static int
mlx5dm_flow_cnt_action_make(struct mlx5dm_flow_priv *fp, struct mlx5dm_flow_cnt_bulk *b,
			    unsigned int dom)
{
	struct mlx5dm_action *act;

	if (b->act[dom] != NULL)
		return 0;
	act = mlx5dm_action_counters(fp->port.dom[dom], b->c);
	if (act == NULL)
		return -errno;
	/* Released: a quick begin reads it unlocked (mlx5dm_flow_cnt_action()). */
	__atomic_store_n(&b->act[dom], act, __ATOMIC_RELEASE);
	fp->st.cnt_actions++;
	return 0;
}

int
mlx5dm_flow_cnt_ready(struct mlx5dm_flow_priv *fp, uint32_t id, unsigned int dom)
{
	return mlx5dm_flow_cnt_action_make(fp, mlx5dm_flow_cnt_bulk(fp, id), dom);
}

uint32_t
mlx5dm_flow_cnt_max(void)
{
	/* Ids: MLX5DM_FLOW_CNT_TAB_MAX bulks of at most 2^MLX5DM_FLOW_CNT_LOG_MAX counters. */
	return MLX5DM_FLOW_CNT_TAB_MAX << MLX5DM_FLOW_CNT_LOG_MAX;
}

int
mlx5dm_flow_cnt_alloc(struct mlx5dm_flow_priv *fp, unsigned int dom, uint32_t *id)
{
	struct mlx5dm_flow_cnt_bulk *b = LIST_FIRST(&fp->bulks);
	struct mlx5dm_flow_cnt_slot *s;
	uint32_t w, bit, index;
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
	index = w * 64 + bit;
	s = &b->slot[index];
	/*
	 * A counter never used has a zero base: its slot is not touched (a
	 * cache line). The base of a free slot is never read: a failure below
	 * leaves it dirty, to be queried again.
	 */
	if (b->dirty[w] & (1ull << bit)) {
		ret = mlx5dm_counters_query(b->c, index, &s->base_hits, &s->base_bytes);
		if (ret < 0)
			goto fail;
	}
	ret = mlx5dm_flow_cnt_action_make(fp, b, dom);
	if (ret < 0)
		goto fail;
	b->busy[w] |= 1ull << bit;
	b->dirty[w] |= 1ull << bit;
	if (++b->used == b->size)
		LIST_REMOVE(b, next);
	fp->st.counters++;
	*id = (b->id + 1) << MLX5DM_FLOW_CNT_LOG_MAX | index;
	return 0;
fail:
	if (b->used == 0) {
		LIST_REMOVE(b, next);
		mlx5dm_flow_cnt_bulk_free(fp, b);
	}
	return ret;
}

void
mlx5dm_flow_cnt_free(struct mlx5dm_flow_priv *fp, uint32_t id)
{
	struct mlx5dm_flow_cnt_bulk *b = mlx5dm_flow_cnt_bulk(fp, id);
	uint32_t index = MLX5DM_FLOW_CNT_INDEX(id);
	uint32_t w = index / 64;

	b->busy[w] &= ~(1ull << (index % 64));
	if (w < b->hint)
		b->hint = w;
	fp->st.counters--;
	if (b->used-- == b->size)
		LIST_INSERT_HEAD(&fp->bulks, b, next);
	if (b->used != 0)
		return;
	LIST_REMOVE(b, next);
	mlx5dm_flow_cnt_bulk_free(fp, b);
}

int
mlx5dm_flow_cnt_query(struct mlx5dm_flow_priv *fp, uint32_t id, struct rte_flow_query_count *q)
{
	struct mlx5dm_flow_cnt_bulk *b = mlx5dm_flow_cnt_bulk(fp, id);
	struct mlx5dm_flow_cnt_slot *s = &b->slot[MLX5DM_FLOW_CNT_INDEX(id)];
	uint64_t h, n;
	int ret;

	ret = mlx5dm_counters_query(b->c, MLX5DM_FLOW_CNT_INDEX(id), &h, &n);
	if (ret < 0)
		return ret;
	q->hits = h - s->base_hits;
	q->bytes = n - s->base_bytes;
	q->hits_set = 1;
	q->bytes_set = 1;
	if (q->reset) {
		s->base_hits = h;
		s->base_bytes = n;
	}
	return 0;
}

/* ---- indirect COUNTs ---- */

#define MLX5DM_FLOW_SHARED_LIVE (1ull << 31)
#define MLX5DM_FLOW_SHARED_PINS (MLX5DM_FLOW_SHARED_LIVE - 1)
#define MLX5DM_FLOW_SHARED_MAX (MLX5DM_FLOW_SHARED_PAGES << MLX5DM_FLOW_SHARED_PAGE_LOG)

_Static_assert(sizeof(uintptr_t) >= sizeof(uint64_t), "a handle holds place and generation");

static struct mlx5dm_flow_shared_cnt *
mlx5dm_flow_shared_at(const struct mlx5dm_flow_shared *sh, uint32_t place)
{
	return &sh->page[place >> MLX5DM_FLOW_SHARED_PAGE_LOG]
			[place & ((1u << MLX5DM_FLOW_SHARED_PAGE_LOG) - 1)];
}

/* Where counter id keeps the place + 1 of the indirect COUNT it is (0: none). */
static uint32_t *
mlx5dm_flow_cnt_owner(const struct mlx5dm_flow_priv *fp, uint32_t id)
{
	return &mlx5dm_flow_cnt_bulk(fp, id)->slot[MLX5DM_FLOW_CNT_INDEX(id)].shared;
}

/* The COUNT's counter goes (fp->lock held, no rule pins it). */
static void
mlx5dm_flow_shared_drop(struct mlx5dm_flow_priv *fp, struct mlx5dm_flow_shared_cnt *s)
{
	if (s->cnt == 0)
		return;
	*mlx5dm_flow_cnt_owner(fp, s->cnt) = 0;
	mlx5dm_flow_cnt_free(fp, s->cnt);
	s->cnt = 0;
}

/*
 * The place handle h names if the port made it (live or not), *live the
 * state it has live and unpinned; NULL if h is no place of the port's.
 */
static struct mlx5dm_flow_shared_cnt *
mlx5dm_flow_shared_of(const struct mlx5dm_flow_priv *fp, const struct rte_flow_action_handle *h,
		      uint64_t *live)
{
	uint64_t v = (uintptr_t)h;
	uint32_t place = (uint32_t)v - 1;

	if ((uint32_t)v == 0 || place >= __atomic_load_n(&fp->shared.nb, __ATOMIC_ACQUIRE))
		return NULL;
	*live = (v >> 32) << 32 | MLX5DM_FLOW_SHARED_LIVE;
	return mlx5dm_flow_shared_at(&fp->shared, place);
}

int
mlx5dm_flow_shared_new(struct mlx5dm_flow_priv *fp, unsigned int dom,
		       struct rte_flow_action_handle **h)
{
	struct mlx5dm_flow_shared *sh = &fp->shared;
	struct mlx5dm_flow_shared_cnt **page, *s;
	uint32_t place, cnt, gen, i;
	int ret;

	place = sh->free != 0 ? sh->free - 1 : sh->nb;
	if (place == MLX5DM_FLOW_SHARED_MAX)
		return -ENOSPC;
	page = &sh->page[place >> MLX5DM_FLOW_SHARED_PAGE_LOG];
	if (*page == NULL) {
		*page = mlx5dm_calloc_socket(1u << MLX5DM_FLOW_SHARED_PAGE_LOG, sizeof(**page),
					     fp->socket);
		if (*page == NULL)
			return -ENOMEM;
		/* Generations of the port's own: another port's handle names none here. */
		for (i = 0; i < 1u << MLX5DM_FLOW_SHARED_PAGE_LOG; i++)
			(*page)[i].state =
				(uint64_t)mlx5dm_index_mix((uintptr_t)fp + place + i) << 32;
	}
	ret = mlx5dm_flow_cnt_alloc(fp, dom, &cnt);
	if (ret < 0)
		return ret;
	s = mlx5dm_flow_shared_at(sh, place);
	if (sh->free != 0)
		sh->free = s->cnt;
	else
		__atomic_store_n(&sh->nb, place + 1, __ATOMIC_RELEASE);
	s->cnt = cnt;
	s->dom = (uint8_t)dom;
	*mlx5dm_flow_cnt_owner(fp, cnt) = place + 1;
	/* A new generation: the handles of the place's earlier COUNTs name none. */
	gen = (uint32_t)(__atomic_load_n(&s->state, __ATOMIC_RELAXED) >> 32) + 1;
	gen += gen == 0;
	__atomic_store_n(&s->state, (uint64_t)gen << 32 | MLX5DM_FLOW_SHARED_LIVE,
			 __ATOMIC_RELEASE);
	*h = (struct rte_flow_action_handle *)(uintptr_t)((uint64_t)gen << 32 | (place + 1));
	return 0;
}

const struct mlx5dm_flow_shared_cnt *
mlx5dm_flow_shared_find(const struct mlx5dm_flow_priv *fp, const struct rte_flow_action_handle *h)
{
	const struct mlx5dm_flow_shared_cnt *s;
	uint64_t live;

	s = mlx5dm_flow_shared_of(fp, h, &live);
	if (s == NULL ||
	    (__atomic_load_n(&s->state, __ATOMIC_ACQUIRE) & ~MLX5DM_FLOW_SHARED_PINS) != live)
		return NULL;
	return s;
}

int
mlx5dm_flow_shared_free(struct mlx5dm_flow_priv *fp, const struct rte_flow_action_handle *h)
{
	struct mlx5dm_flow_shared_cnt *s;
	uint64_t live, state;

	s = mlx5dm_flow_shared_of(fp, h, &live);
	if (s == NULL)
		return -EINVAL;
	/* Only unpinned: a rule pinning it meanwhile makes the swap fail. */
	state = live;
	if (!__atomic_compare_exchange_n(&s->state, &state, live & ~MLX5DM_FLOW_SHARED_LIVE,
					 false, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
		return (state & ~MLX5DM_FLOW_SHARED_PINS) == live ? -EBUSY : -EINVAL;
	mlx5dm_flow_shared_drop(fp, s);
	s->cnt = fp->shared.free;
	fp->shared.free = (uint32_t)(uintptr_t)h;
	return 0;
}

uint32_t
mlx5dm_flow_shared_pin(struct mlx5dm_flow_priv *fp, const struct rte_flow_action_handle *h,
		       unsigned int dom)
{
	struct mlx5dm_flow_shared_cnt *s;
	uint64_t live, state;

	s = mlx5dm_flow_shared_of(fp, h, &live);
	if (s == NULL)
		return 0;
	state = __atomic_load_n(&s->state, __ATOMIC_RELAXED);
	do {
		if ((state & ~MLX5DM_FLOW_SHARED_PINS) != live ||
		    (state & MLX5DM_FLOW_SHARED_PINS) == MLX5DM_FLOW_SHARED_PINS)
			return 0;
	} while (!__atomic_compare_exchange_n(&s->state, &state, state + 1, true,
					      __ATOMIC_ACQUIRE, __ATOMIC_RELAXED));
	/* Pinned, it stays live: what its making stored before the state is read. */
	if (s->cnt != 0 && s->dom == dom)
		return s->cnt;
	__atomic_fetch_sub(&s->state, 1, __ATOMIC_RELEASE);
	return 0;
}

void
mlx5dm_flow_shared_unpin(struct mlx5dm_flow_priv *fp, uint32_t cnt)
{
	uint32_t place = *mlx5dm_flow_cnt_owner(fp, cnt) - 1;

	/* Released: a free that sees no pin sees the rule gone. */
	__atomic_fetch_sub(&mlx5dm_flow_shared_at(&fp->shared, place)->state, 1, __ATOMIC_RELEASE);
}

void
mlx5dm_flow_shared_stop(struct mlx5dm_flow_priv *fp)
{
	struct mlx5dm_flow_shared_cnt *s;
	uint32_t place;

	for (place = 0; place < fp->shared.nb; place++) {
		s = mlx5dm_flow_shared_at(&fp->shared, place);
		if (__atomic_load_n(&s->state, __ATOMIC_RELAXED) & MLX5DM_FLOW_SHARED_LIVE)
			mlx5dm_flow_shared_drop(fp, s);
	}
}

void
mlx5dm_flow_shared_fini(struct mlx5dm_flow_priv *fp)
{
	unsigned int i;

	for (i = 0; i < MLX5DM_FLOW_SHARED_PAGES; i++)
		mlx5dm_free(fp->shared.page[i]);
	memset(&fp->shared, 0, sizeof(fp->shared));
}
