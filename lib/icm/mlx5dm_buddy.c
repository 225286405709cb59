/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mlx5dm_osdep.h"
#include "mlx5dm_buddy.h"
#include "mlx5dm_buddy_priv.h"

#define MLX5DM_BUDDY_WORD_BITS 64u

static inline uint32_t
mlx5dm_buddy_words(uint32_t nbits)
{
	return (nbits + MLX5DM_BUDDY_WORD_BITS - 1) / MLX5DM_BUDDY_WORD_BITS;
}

static inline void
mlx5dm_buddy_set(struct mlx5dm_buddy_level *l, uint32_t i)
{
	uint32_t w = i / 64;

	l->bits[w] |= 1ull << (i % 64);
	l->summary[w / 64] |= 1ull << (w % 64);
	if (w / 64 < l->hint)
		l->hint = w / 64;
	l->nfree++;
}

static inline void
mlx5dm_buddy_clear(struct mlx5dm_buddy_level *l, uint32_t i)
{
	uint32_t w = i / 64;

	l->bits[w] &= ~(1ull << (i % 64));
	if (l->bits[w] == 0)
		l->summary[w / 64] &= ~(1ull << (w % 64));
	l->nfree--;
}

/* Remove and return the lowest free block; the caller checked nfree > 0. */
static uint32_t
mlx5dm_buddy_take_first(struct mlx5dm_buddy_level *l)
{
	uint32_t s = l->hint;
	uint32_t w, i;

	while (l->summary[s] == 0)
		s++;
	l->hint = s;
	w = s * 64 + (uint32_t)__builtin_ctzll(l->summary[s]);
	i = w * 64 + (uint32_t)__builtin_ctzll(l->bits[w]);
	mlx5dm_buddy_clear(l, i);
	return i;
}

struct mlx5dm_buddy *
mlx5dm_buddy_create(unsigned int max_order, int socket)
{
	struct mlx5dm_buddy *b;
	uint64_t *words;
	size_t nwords = 0;
	unsigned int o;

	if (max_order > MLX5DM_BUDDY_MAX_ORDER) {
		errno = EINVAL;
		return NULL;
	}
	for (o = 0; o <= max_order; o++) {
		uint32_t n = mlx5dm_buddy_words(1u << (max_order - o));

		nwords += n + mlx5dm_buddy_words(n);
	}
	/* One block for header and bitmaps: one failure point, one free. */
	b = mlx5dm_zmalloc_socket(sizeof(*b) + (max_order + 1) * sizeof(b->level[0]) +
				  nwords * sizeof(uint64_t), socket);
	if (b == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	b->max_order = max_order;
	words = (uint64_t *)&b->level[max_order + 1];
	for (o = 0; o <= max_order; o++) {
		struct mlx5dm_buddy_level *l = &b->level[o];

		l->nbits = 1u << (max_order - o);
		l->nwords = mlx5dm_buddy_words(l->nbits);
		l->nsum = mlx5dm_buddy_words(l->nwords);
		l->bits = words;
		l->summary = words + l->nwords;
		words += l->nwords + l->nsum;
	}
	mlx5dm_buddy_set(&b->level[max_order], 0);
	b->free_units = 1ull << max_order;
	return b;
}

void
mlx5dm_buddy_destroy(struct mlx5dm_buddy *buddy)
{
	mlx5dm_free(buddy);
}

int
mlx5dm_buddy_alloc(struct mlx5dm_buddy *buddy, unsigned int order, uint32_t *seg)
{
	unsigned int o;
	uint32_t i;

	if (order > buddy->max_order)
		return -EINVAL;
	for (o = order; o <= buddy->max_order; o++)
		if (buddy->level[o].nfree != 0)
			break;
	if (o > buddy->max_order)
		return -ENOMEM;
	i = mlx5dm_buddy_take_first(&buddy->level[o]);
	/* Split down: keep the lower half, free the upper half at each order. */
	while (o > order) {
		o--;
		i <<= 1;
		mlx5dm_buddy_set(&buddy->level[o], i | 1);
	}
	*seg = i << order;
	buddy->free_units -= 1ull << order;
	return 0;
}

int
mlx5dm_buddy_free(struct mlx5dm_buddy *buddy, uint32_t seg, unsigned int order)
{
	unsigned int o;
	uint32_t i;

	if (order > buddy->max_order || (seg & ((1u << order) - 1)) != 0 ||
	    (seg >> order) >= buddy->level[order].nbits)
		return -EINVAL;
	i = seg >> order;
	/* Already free, alone or inside a larger free block: refuse (double free). */
	for (o = order; o <= buddy->max_order; o++)
		if (mlx5dm_buddy_test(&buddy->level[o], i >> (o - order)))
			return -EINVAL;
	o = order;
	while (o < buddy->max_order && mlx5dm_buddy_test(&buddy->level[o], i ^ 1)) {
		mlx5dm_buddy_clear(&buddy->level[o], i ^ 1);
		i >>= 1;
		o++;
	}
	mlx5dm_buddy_set(&buddy->level[o], i);
	buddy->free_units += 1ull << order;
	return 0;
}

unsigned int
mlx5dm_buddy_max_order(const struct mlx5dm_buddy *buddy)
{
	return buddy->max_order;
}

uint32_t
mlx5dm_buddy_free_blocks(const struct mlx5dm_buddy *buddy, unsigned int order)
{
	return order > buddy->max_order ? 0 : buddy->level[order].nfree;
}

uint64_t
mlx5dm_buddy_free_units(const struct mlx5dm_buddy *buddy)
{
	return buddy->free_units;
}

int
mlx5dm_buddy_largest_free(const struct mlx5dm_buddy *buddy)
{
	int o;

	for (o = (int)buddy->max_order; o >= 0; o--)
		if (buddy->level[o].nfree != 0)
			return o;
	return -1;
}
