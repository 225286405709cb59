/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Warm reserves for huge regions.
 *
 * Where a guest hands idle pages back to its host (free page reporting),
 * the first touch of memory not used for a while is a host fault per page,
 * far slower than reusing pages the guest recycled. A matcher of
 * a million rules grows by hundreds of MB of records, index and slot tables
 * while the rules go in, so that first touch lands in the inserting calls.
 * A reserve is mapped and populated when the application chooses (device
 * probe); mlx5dm_huge_alloc() carves its regions from reserves first (first
 * fit, in MLX5DM_HUGE_SIZE units) and mlx5dm_huge_free() gives them back,
 * to be zeroed when taken again, so a reserve stays warm for the next
 * tables. When no reserve has room, regions come from mmap as before.
 *
 * An ahead reserve (mlx5dm_huge_reserve_ahead) is populated by a thread
 * instead (mlx5dm_osdep_ahead.c), on past the highest unit ever taken: a
 * large address space costs only what its users come near.
 *
 * Regions are taken and given back a few hundred times per million rules:
 * one mutex and a bit scan are cheap there.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "mlx5dm_osdep.h"

struct mlx5dm_reserve {
	struct mlx5dm_reserve *next;
	uint8_t *base;                    /* first unit, MLX5DM_HUGE_SIZE aligned */
	uint32_t units;
	uint32_t taken;                   /* units handed out */
	uint32_t high;                    /* units below the highest end ever taken */
	bool released;                    /* unmapped once nothing is taken */
	struct mlx5dm_ahead *ahead;       /* its populate-ahead range (ahead reserve), or NULL */
	uint64_t *dirty;                  /* bit per unit: written, to be zeroed when taken */
	uint64_t used[];                  /* bit per unit: handed out (then the dirty words) */
};

static pthread_mutex_t mlx5dm_reserve_lock = PTHREAD_MUTEX_INITIALIZER;
static struct mlx5dm_reserve *mlx5dm_reserves;

static bool
mlx5dm_reserve_bit(const uint64_t *map, uint32_t i)
{
	return (map[i / 64] >> (i % 64)) & 1;
}

static void
mlx5dm_reserve_mark(uint64_t *map, uint32_t i, uint32_t n, bool on)
{
	for (; n > 0; n--, i++) {
		if (on)
			map[i / 64] |= 1ull << (i % 64);
		else
			map[i / 64] &= ~(1ull << (i % 64));
	}
}

/* Map a reserve of bytes; ahead: populated by a thread (first, lead), else now. */
static int
mlx5dm_reserve_new(size_t bytes, bool ahead, size_t first, size_t lead,
		   struct mlx5dm_reserve **out)
{
	size_t units = bytes / MLX5DM_HUGE_SIZE;
	struct mlx5dm_reserve *r;

	*out = NULL;
	if (units == 0 || units > UINT32_MAX || bytes % MLX5DM_HUGE_SIZE != 0)
		return -EINVAL;
	r = calloc(1, sizeof(*r) + 2 * ((units + 63) / 64) * sizeof(uint64_t));
	if (r == NULL)
		return -ENOMEM;
	r->dirty = r->used + (units + 63) / 64;
	r->base = mlx5dm_huge_map(units * MLX5DM_HUGE_SIZE);
	r->units = (uint32_t)units;
	if (r->base == NULL)
		goto free_r;
	if (!ahead && mlx5dm_populate(r->base, units * MLX5DM_HUGE_SIZE) < 0)
		goto unmap;
	if (ahead)
		r->ahead = mlx5dm_ahead_add(r->base, units * MLX5DM_HUGE_SIZE, first, lead);
	pthread_mutex_lock(&mlx5dm_reserve_lock);
	r->next = mlx5dm_reserves;
	__atomic_store_n(&mlx5dm_reserves, r, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&mlx5dm_reserve_lock);
	*out = r;
	return 0;
unmap:
	munmap(r->base, units * MLX5DM_HUGE_SIZE);
free_r:
	free(r);
	return -ENOMEM;
}

int
mlx5dm_huge_reserve(size_t bytes, struct mlx5dm_reserve **out)
{
	return mlx5dm_reserve_new(bytes, false, 0, 0, out);
}

int
mlx5dm_huge_reserve_ahead(size_t bytes, size_t first, size_t lead, struct mlx5dm_reserve **out)
{
	return mlx5dm_reserve_new(bytes, true, first, lead, out);
}

/* Unlink and unmap r (lock held; nothing of it is handed out). */
static void
mlx5dm_reserve_destroy(struct mlx5dm_reserve *r)
{
	struct mlx5dm_reserve **pp;

	for (pp = &mlx5dm_reserves; *pp != NULL; pp = &(*pp)->next) {
		if (*pp == r) {
			__atomic_store_n(pp, r->next, __ATOMIC_RELAXED);
			break;
		}
	}
	munmap(r->base, (size_t)r->units * MLX5DM_HUGE_SIZE);
	free(r);
}

void
mlx5dm_huge_unreserve(struct mlx5dm_reserve *r)
{
	if (r == NULL)
		return;
	pthread_mutex_lock(&mlx5dm_reserve_lock);
	r->released = true;
	/*
	 * Out of the populating thread's hands before it can be unmapped (here
	 * or by the last give). Under the lock, as take() reads r->ahead; the
	 * thread never takes this lock, so waiting for it here cannot deadlock.
	 */
	mlx5dm_ahead_remove(r->ahead);
	r->ahead = NULL;
	if (r->taken == 0)
		mlx5dm_reserve_destroy(r);
	pthread_mutex_unlock(&mlx5dm_reserve_lock);
}

/* Zero the units of [i, i + n) given back written (lock held). */
static void
mlx5dm_reserve_clean(struct mlx5dm_reserve *r, uint32_t i, uint32_t n)
{
	for (; n > 0; n--, i++) {
		if (mlx5dm_reserve_bit(r->dirty, i)) {
			memset(r->base + (size_t)i * MLX5DM_HUGE_SIZE, 0, MLX5DM_HUGE_SIZE);
			mlx5dm_reserve_mark(r->dirty, i, 1, false);
		}
	}
}

/* First run of n free units of r; UINT32_MAX if none. */
static uint32_t
mlx5dm_reserve_find(const struct mlx5dm_reserve *r, uint32_t n)
{
	uint32_t i = 0, j;

	while (i + n <= r->units) {
		for (j = i; j < i + n && !mlx5dm_reserve_bit(r->used, j); j++)
			;
		if (j == i + n)
			return i;
		i = j + 1;
	}
	return UINT32_MAX;
}

void *
mlx5dm_reserve_take(size_t size)
{
	uint32_t n = (uint32_t)(size / MLX5DM_HUGE_SIZE);
	struct mlx5dm_reserve *r;
	void *p = NULL;

	if (__atomic_load_n(&mlx5dm_reserves, __ATOMIC_RELAXED) == NULL)
		return NULL;
	pthread_mutex_lock(&mlx5dm_reserve_lock);
	for (r = mlx5dm_reserves; r != NULL && p == NULL; r = r->next) {
		uint32_t i;

		if (r->released || r->units - r->taken < n)
			continue;
		i = mlx5dm_reserve_find(r, n);
		if (i == UINT32_MAX)
			continue;
		mlx5dm_reserve_mark(r->used, i, n, true);
		mlx5dm_reserve_clean(r, i, n);
		r->taken += n;
		p = r->base + (size_t)i * MLX5DM_HUGE_SIZE;
		if (r->ahead != NULL && i + n > r->high) {
			r->high = i + n;
			mlx5dm_ahead_use(r->ahead, (size_t)r->high * MLX5DM_HUGE_SIZE);
		}
	}
	pthread_mutex_unlock(&mlx5dm_reserve_lock);
	return p;
}

bool
mlx5dm_reserve_give(void *ptr, size_t size)
{
	uint8_t *p = ptr;
	struct mlx5dm_reserve *r;
	bool mine = false;

	if (__atomic_load_n(&mlx5dm_reserves, __ATOMIC_RELAXED) == NULL)
		return false;
	pthread_mutex_lock(&mlx5dm_reserve_lock);
	for (r = mlx5dm_reserves; r != NULL; r = r->next) {
		if (p >= r->base && p < r->base + (size_t)r->units * MLX5DM_HUGE_SIZE)
			break;
	}
	if (r != NULL) {
		uint32_t n = (uint32_t)(size / MLX5DM_HUGE_SIZE);
		uint32_t first = (uint32_t)((size_t)(p - r->base) / MLX5DM_HUGE_SIZE);

		mine = true;
		/*
		 * Handed out zeroed, like a fresh mapping: a unit every page of
		 * which is backed (all of a populated reserve; an ahead reserve's
		 * below its thread) is zeroed when it is taken again (a region
		 * freed for good costs nothing), the others are dropped now
		 * (MADV_DONTNEED reads zero): clearing them would fault the pages
		 * their user never touched in, on the core that clears. A released
		 * reserve hands out nothing again.
		 */
		if (!r->released && (r->ahead == NULL ||
				     mlx5dm_ahead_backed(r->ahead, (size_t)(p - r->base), size)))
			mlx5dm_reserve_mark(r->dirty, first, n, true);
		else if (!r->released)
			(void)madvise(p, size, MADV_DONTNEED);
		mlx5dm_reserve_mark(r->used, first, n, false);
		r->taken -= n;
		if (r->released && r->taken == 0)
			mlx5dm_reserve_destroy(r);
	}
	pthread_mutex_unlock(&mlx5dm_reserve_lock);
	return mine;
}
