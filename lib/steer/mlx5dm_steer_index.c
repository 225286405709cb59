/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * A matcher's host index of its entries, keyed by (chain, tag).
 *
 * A growth chain holds entries in several tables (the head and the older
 * ones), so finding a tag in ICM-layout order means probing every table.
 * The index answers "is this tag already under this parent?" with one
 * probe. A chain is named by its oldest table (htbl->root), which lives as
 * long as the chain, so moving an entry's identity (a follower copied into
 * its slot on delete) never invalidates the keys of the entries below it.
 * It is a chained hash table (intrusive next pointer in the record)
 * that grows incrementally: when crowded, a table four times larger is
 * allocated and a few old buckets move over per operation, so no call ever
 * rehashes everything at once.
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_steer_priv.h"

#define MLX5DM_HIDX_MIN_LOG 8
#define MLX5DM_HIDX_MOVE 8   /* old buckets moved per operation while growing */

uint32_t
mlx5dm_hidx_hash(const struct mlx5dm_htbl *chain, const uint8_t *tag)
{
	uint64_t a, b, h;

	memcpy(&a, tag, 8);
	memcpy(&b, tag + 8, 8);
	/* Combine, then a full avalanche (MurmurHash3's finaliser): bucket = low bits. */
	h = a ^ (b * 0x9e3779b97f4a7c15ull) ^ ((uint64_t)(uintptr_t)chain >> 4);
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	h ^= h >> 33;
	return (uint32_t)h;
}

static const uint8_t *
mlx5dm_hidx_tag(const struct mlx5dm_ste *s)
{
	return s->shadow + MLX5DM_STE_CTRL_SIZE;
}

static const struct mlx5dm_htbl *
mlx5dm_hidx_chain(const struct mlx5dm_ste *s)
{
	return s->htbl->root;
}

int
mlx5dm_hidx_init(struct mlx5dm_hidx *x)
{
	memset(x, 0, sizeof(*x));
	x->log = MLX5DM_HIDX_MIN_LOG;
	x->b = mlx5dm_calloc((size_t)1 << x->log, sizeof(*x->b));
	return x->b == NULL ? -ENOMEM : 0;
}

void
mlx5dm_hidx_fini(struct mlx5dm_hidx *x)
{
	mlx5dm_free(x->b);
	mlx5dm_free(x->old);
	memset(x, 0, sizeof(*x));
}

/* Move up to n old buckets into the current table. */
static void
mlx5dm_hidx_move(struct mlx5dm_hidx *x, unsigned int n)
{
	uint32_t mask = ((uint32_t)1 << x->log) - 1;

	while (x->old != NULL && n-- > 0) {
		struct mlx5dm_ste *s = x->old[x->move_pos], *next;

		for (; s != NULL; s = next) {
			uint32_t h = s->hidx_hash;

			next = s->hnext;
			s->hnext = x->b[h & mask];
			x->b[h & mask] = s;
		}
		x->old[x->move_pos] = NULL;
		if (++x->move_pos > x->old_mask) {
			mlx5dm_free(x->old);
			x->old = NULL;
		}
	}
}

/* Grow when crowded (two records per bucket on average). */
static void
mlx5dm_hidx_maybe_grow(struct mlx5dm_hidx *x)
{
	struct mlx5dm_ste **nb;

	if (x->old != NULL) {
		mlx5dm_hidx_move(x, MLX5DM_HIDX_MOVE);
		return;
	}
	if (x->count < (2u << x->log) || x->log >= 28)
		return;
	nb = mlx5dm_calloc((size_t)1 << (x->log + 2), sizeof(*nb));
	if (nb == NULL)
		return; /* longer buckets, still correct */
	x->old = x->b;
	x->old_mask = ((uint32_t)1 << x->log) - 1;
	x->move_pos = 0;
	x->b = nb;
	x->log += 2;
}

/* Start loading the bucket of hash h (the caller has other work before the lookup). */
void
mlx5dm_hidx_prefetch(const struct mlx5dm_hidx *x, uint32_t h)
{
	MLX5DM_PREFETCH(&x->b[h & (((uint32_t)1 << x->log) - 1)]);
}

/* The first entry with this tag in this chain; h = mlx5dm_hidx_hash(chain, tag). */
struct mlx5dm_ste *
mlx5dm_hidx_find(struct mlx5dm_hidx *x, const struct mlx5dm_htbl *chain, const uint8_t *tag,
		 uint32_t h)
{
	struct mlx5dm_ste *s;

	for (s = x->b[h & (((uint32_t)1 << x->log) - 1)]; s != NULL; s = s->hnext) {
		if (s->hidx_hash == h && mlx5dm_hidx_chain(s) == chain &&
		    memcmp(mlx5dm_hidx_tag(s), tag, MLX5DM_STE_TAG_SIZE) == 0)
			return s;
	}
	if (x->old != NULL && (h & x->old_mask) >= x->move_pos) {
		for (s = x->old[h & x->old_mask]; s != NULL; s = s->hnext) {
			if (s->hidx_hash == h && mlx5dm_hidx_chain(s) == chain &&
			    memcmp(mlx5dm_hidx_tag(s), tag, MLX5DM_STE_TAG_SIZE) == 0)
				return s;
		}
	}
	return NULL;
}

/* Index s (its htbl and tag are set; h: the hash of its chain and tag). Duplicates go last. */
void
mlx5dm_hidx_insert(struct mlx5dm_hidx *x, struct mlx5dm_ste *s, uint32_t h)
{
	struct mlx5dm_ste **pp;

	mlx5dm_hidx_maybe_grow(x);
	s->hidx_hash = h;
	/* At the bucket's end, so find() keeps returning the first inserted. */
	for (pp = &x->b[h & (((uint32_t)1 << x->log) - 1)]; *pp != NULL; pp = &(*pp)->hnext)
		;
	s->hnext = NULL;
	*pp = s;
	x->count++;
}

static bool
mlx5dm_hidx_unlink(struct mlx5dm_ste **pp, struct mlx5dm_ste *s)
{
	for (; *pp != NULL; pp = &(*pp)->hnext) {
		if (*pp == s) {
			*pp = s->hnext;
			s->hnext = NULL;
			return true;
		}
	}
	return false;
}

void
mlx5dm_hidx_remove(struct mlx5dm_hidx *x, struct mlx5dm_ste *s)
{
	uint32_t h = s->hidx_hash;
	bool done;

	done = mlx5dm_hidx_unlink(&x->b[h & (((uint32_t)1 << x->log) - 1)], s);
	if (!done && x->old != NULL)
		done = mlx5dm_hidx_unlink(&x->old[h & x->old_mask], s);
	if (done)
		x->count--;
	mlx5dm_hidx_move(x, x->old != NULL ? MLX5DM_HIDX_MOVE : 0);
}

size_t
mlx5dm_hidx_bytes(const struct mlx5dm_hidx *x)
{
	size_t n = sizeof(*x->b) << x->log;

	if (x->old != NULL)
		n += sizeof(*x->old) * ((size_t)x->old_mask + 1);
	return n;
}
