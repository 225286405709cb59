/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * rte_flow handles from per-port chunks, one size class per chunk (the
 * flow's rule count): a free-list pop per rule, and a handle the
 * application passes back is checked in O(1) without reading memory the
 * port does not own (chunk = address rounded down, in the chunk map; slot
 * marked live). Chunks stay until the port stops.
 *
 * A template table promises its nb_flows rules up front: their handles are
 * made with the table, several chunks per heap allocation, so that its
 * rules take them from a free list and never wait on the heap (whose
 * aligned allocations grow slower with the chunks it holds).
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_flow.h"
#include "mlx5dm_osdep.h"

/* Chunks of one heap allocation at most when handles are made ahead. */
#define MLX5DM_FLOW_POOL_BULK 32u

/* Chunk header; handles follow at MLX5DM_FLOW_POOL_HDR. */
struct mlx5dm_flow_chunk {
	uint32_t obj_size;
	uint32_t nb_objs;
	uint32_t span;                    /* chunks of the allocation it starts; 0: not the first */
	struct mlx5dm_flow_chunk *next;   /* made after this one */
};
#define MLX5DM_FLOW_POOL_HDR 64u

static size_t
mlx5dm_flow_pool_obj_size(unsigned int cls)
{
	size_t sz = sizeof(struct rte_flow) + cls * sizeof(struct mlx5dm_flow_rule);

	return (sz + 7u) & ~(size_t)7u;
}

void
mlx5dm_flow_pool_init(struct mlx5dm_flow_pool *pool, int socket)
{
	memset(pool, 0, sizeof(*pool));
	pool->socket = socket;
}

/*
 * The chunk map: which chunks are the pool's, by chunk number (address /
 * MLX5DM_FLOW_POOL_CHUNK, below 2^32: 48-bit addresses) in three levels
 * of 2^12, 2^10 and 2^10 (a bit each). Written under fp->lock, read
 * without it by a destroy that checks its handle: a level is published
 * with a release store once made and stays until the pool's release.
 */
#define MLX5DM_FLOW_MAP_TOP 4096u
#define MLX5DM_FLOW_MAP_MID 1024u
struct mlx5dm_flow_map_leaf {
	uint64_t bits[MLX5DM_FLOW_MAP_MID / 64];
};
struct mlx5dm_flow_map_mid {
	struct mlx5dm_flow_map_leaf *leaf[MLX5DM_FLOW_MAP_MID];
};

static uint64_t
mlx5dm_flow_map_number(uintptr_t chunk)
{
	return (uint64_t)chunk / MLX5DM_FLOW_POOL_CHUNK;
}

/* The leaf of chunk number n, made if absent; NULL when out of memory. */
static struct mlx5dm_flow_map_leaf *
mlx5dm_flow_map_leaf_make(struct mlx5dm_flow_pool *pool, uint64_t n)
{
	struct mlx5dm_flow_map_mid *mid;
	struct mlx5dm_flow_map_leaf *leaf;

	if (pool->map == NULL) {
		struct mlx5dm_flow_map_mid **top = mlx5dm_calloc_socket(MLX5DM_FLOW_MAP_TOP,
									sizeof(*top),
									pool->socket);

		if (top == NULL)
			return NULL;
		__atomic_store_n(&pool->map, top, __ATOMIC_RELEASE);
	}
	mid = pool->map[n / (MLX5DM_FLOW_MAP_MID * MLX5DM_FLOW_MAP_MID)];
	if (mid == NULL) {
		mid = mlx5dm_zmalloc_socket(sizeof(*mid), pool->socket);
		if (mid == NULL)
			return NULL;
		__atomic_store_n(&pool->map[n / (MLX5DM_FLOW_MAP_MID * MLX5DM_FLOW_MAP_MID)], mid,
				 __ATOMIC_RELEASE);
	}
	leaf = mid->leaf[n / MLX5DM_FLOW_MAP_MID % MLX5DM_FLOW_MAP_MID];
	if (leaf == NULL) {
		leaf = mlx5dm_zmalloc_socket(sizeof(*leaf), pool->socket);
		if (leaf == NULL)
			return NULL;
		__atomic_store_n(&mid->leaf[n / MLX5DM_FLOW_MAP_MID % MLX5DM_FLOW_MAP_MID], leaf,
				 __ATOMIC_RELEASE);
	}
	return leaf;
}

static bool
mlx5dm_flow_map_has(const struct mlx5dm_flow_pool *pool, uintptr_t chunk)
{
	uint64_t n = mlx5dm_flow_map_number(chunk);
	struct mlx5dm_flow_map_mid **top, *mid;
	struct mlx5dm_flow_map_leaf *leaf;

	top = __atomic_load_n(&pool->map, __ATOMIC_ACQUIRE);
	if (top == NULL || n >= (uint64_t)MLX5DM_FLOW_MAP_TOP * MLX5DM_FLOW_MAP_MID *
				MLX5DM_FLOW_MAP_MID)
		return false;
	mid = __atomic_load_n(&top[n / (MLX5DM_FLOW_MAP_MID * MLX5DM_FLOW_MAP_MID)],
			      __ATOMIC_ACQUIRE);
	if (mid == NULL)
		return false;
	leaf = __atomic_load_n(&mid->leaf[n / MLX5DM_FLOW_MAP_MID % MLX5DM_FLOW_MAP_MID],
			       __ATOMIC_ACQUIRE);
	return leaf != NULL && (__atomic_load_n(&leaf->bits[n % MLX5DM_FLOW_MAP_MID / 64],
						__ATOMIC_ACQUIRE) >> (n % 64) & 1) != 0;
}

static void
mlx5dm_flow_map_free(struct mlx5dm_flow_pool *pool)
{
	uint32_t i, j;

	if (pool->map == NULL)
		return;
	for (i = 0; i < MLX5DM_FLOW_MAP_TOP; i++) {
		if (pool->map[i] == NULL)
			continue;
		for (j = 0; j < MLX5DM_FLOW_MAP_MID; j++)
			mlx5dm_free(pool->map[i]->leaf[j]);
		mlx5dm_free(pool->map[i]);
	}
	mlx5dm_free(pool->map);
}

static uint32_t
mlx5dm_flow_pool_per_chunk(unsigned int cls)
{
	return (uint32_t)((MLX5DM_FLOW_POOL_CHUNK - MLX5DM_FLOW_POOL_HDR) /
			  mlx5dm_flow_pool_obj_size(cls));
}

/*
 * One chunk of class cls at base (zeroed), its handles pushed on the
 * class's free list, its bit in the chunk map set (the map's levels made).
 */
static void
mlx5dm_flow_pool_add(struct mlx5dm_flow_pool *pool, unsigned int cls, uint8_t *base,
		     uint32_t span, struct mlx5dm_flow_map_leaf *leaf)
{
	uint64_t number = mlx5dm_flow_map_number((uintptr_t)base);
	uint64_t *word = &leaf->bits[number % MLX5DM_FLOW_MAP_MID / 64];
	size_t obj = mlx5dm_flow_pool_obj_size(cls);
	struct mlx5dm_flow_chunk *c = (struct mlx5dm_flow_chunk *)base;
	uint32_t n = mlx5dm_flow_pool_per_chunk(cls), i;

	c->obj_size = (uint32_t)obj;
	c->nb_objs = n;
	c->span = span;
	if (pool->newest != NULL)
		pool->newest->next = c;
	else
		pool->first = c;
	pool->newest = c;
	/* Pushed in reverse: handles are handed out in address order. */
	for (i = n; i-- > 0;) {
		struct rte_flow *f = (struct rte_flow *)(base + MLX5DM_FLOW_POOL_HDR + i * obj);

		f->free_next = pool->free[cls];
		pool->free[cls] = f;
	}
	__atomic_store_n(word, *word | 1ull << (number % 64), __ATOMIC_RELEASE);
	pool->nb_chunks++;
	pool->made[cls] += n;
}

/* nb new chunks of class cls from one heap allocation. */
static int
mlx5dm_flow_pool_grow(struct mlx5dm_flow_pool *pool, unsigned int cls, uint32_t nb)
{
	struct mlx5dm_flow_map_leaf *leaf[MLX5DM_FLOW_POOL_BULK];
	uint8_t *base;
	uint32_t i;

	base = mlx5dm_aligned_zmalloc_socket(MLX5DM_FLOW_POOL_CHUNK * nb, MLX5DM_FLOW_POOL_CHUNK,
					     pool->socket);
	if (base == NULL)
		return -ENOMEM;
	/* The map's levels first: a failure leaves empty ones, freed with the pool. */
	for (i = 0; i < nb; i++) {
		leaf[i] = mlx5dm_flow_map_leaf_make(pool, mlx5dm_flow_map_number(
			(uintptr_t)base + MLX5DM_FLOW_POOL_CHUNK * i));
		if (leaf[i] == NULL) {
			mlx5dm_free(base);
			return -ENOMEM;
		}
	}
	for (i = 0; i < nb; i++)
		mlx5dm_flow_pool_add(pool, cls, base + MLX5DM_FLOW_POOL_CHUNK * i, i == 0 ? nb : 0,
				     leaf[i]);
	return 0;
}

int
mlx5dm_flow_pool_reserve(struct mlx5dm_flow_pool *pool, unsigned int nb_rules, uint32_t n)
{
	uint32_t per = mlx5dm_flow_pool_per_chunk(nb_rules), want;

	if (nb_rules > MLX5DM_FLOW_MAX_SUB || n > UINT32_MAX - pool->reserved[nb_rules])
		return -EINVAL;
	want = pool->reserved[nb_rules] + n;
	while (pool->made[nb_rules] < want) {
		uint32_t nb = (want - pool->made[nb_rules] + per - 1) / per;

		if (mlx5dm_flow_pool_grow(pool, nb_rules,
					  RTE_MIN(nb, MLX5DM_FLOW_POOL_BULK)) < 0)
			return -ENOMEM;
	}
	pool->reserved[nb_rules] = want;
	return 0;
}

void
mlx5dm_flow_pool_unreserve(struct mlx5dm_flow_pool *pool, unsigned int nb_rules, uint32_t n)
{
	pool->reserved[nb_rules] -= RTE_MIN(n, pool->reserved[nb_rules]);
}

struct rte_flow *
mlx5dm_flow_pool_get_new(struct mlx5dm_flow_pool *pool, unsigned int nb_rules)
{
	if (nb_rules > MLX5DM_FLOW_MAX_SUB) {
		errno = EINVAL;
		return NULL;
	}
	if (pool->free[nb_rules] == NULL && mlx5dm_flow_pool_grow(pool, nb_rules, 1) < 0) {
		errno = ENOMEM;
		return NULL;
	}
	return mlx5dm_flow_pool_take(pool, nb_rules);
}

bool
mlx5dm_flow_pool_owns(const struct mlx5dm_flow_pool *pool, const struct rte_flow *f)
{
	uintptr_t p = (uintptr_t)f, chunk = p & ~(uintptr_t)(MLX5DM_FLOW_POOL_CHUNK - 1);
	const struct mlx5dm_flow_chunk *c;
	uintptr_t off;

	if (f == NULL || !mlx5dm_flow_map_has(pool, chunk))
		return false;
	c = (const struct mlx5dm_flow_chunk *)chunk;
	off = p - chunk;
	if (off < MLX5DM_FLOW_POOL_HDR)
		return false;
	off -= MLX5DM_FLOW_POOL_HDR;
	if (off % c->obj_size != 0 || off / c->obj_size >= c->nb_objs)
		return false;
	return __atomic_load_n(&f->live, __ATOMIC_ACQUIRE) == MLX5DM_FLOW_LIVE;
}

struct rte_flow *
mlx5dm_flow_pool_next(const struct mlx5dm_flow_pool *pool, const struct rte_flow *f)
{
	const struct mlx5dm_flow_chunk *c = pool->first;
	uint32_t i = 0;

	if (f != NULL) {
		uintptr_t chunk = (uintptr_t)f & ~(uintptr_t)(MLX5DM_FLOW_POOL_CHUNK - 1);

		c = (const struct mlx5dm_flow_chunk *)chunk;
		i = (uint32_t)(((uintptr_t)f - chunk - MLX5DM_FLOW_POOL_HDR) / c->obj_size) + 1;
	}
	for (; c != NULL; c = c->next, i = 0) {
		uintptr_t slots = (uintptr_t)c + MLX5DM_FLOW_POOL_HDR;

		for (; i < c->nb_objs; i++) {
			struct rte_flow *h = (struct rte_flow *)(slots + (size_t)i * c->obj_size);

			if (__atomic_load_n(&h->live, __ATOMIC_ACQUIRE) == MLX5DM_FLOW_LIVE)
				return h;
		}
	}
	return NULL;
}

void
mlx5dm_flow_pool_release(struct mlx5dm_flow_pool *pool)
{
	struct mlx5dm_flow_chunk *c = pool->first, *last;
	uint32_t i;

	if (pool->live != 0)
		MLX5DM_LOG(ERR, "flow", "%u flow handles still live at release", pool->live);
	/* The chunks of an allocation follow its first in the list: freed with it. */
	while (c != NULL) {
		for (last = c, i = 1; i < c->span; i++)
			last = last->next;
		pool->first = last->next;
		mlx5dm_free(c);
		c = pool->first;
	}
	mlx5dm_flow_map_free(pool);
	mlx5dm_flow_pool_init(pool, pool->socket);
}
