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
 *
 * Open addressing in cache-line buckets of MLX5DM_HIDX_WAYS (hash, record)
 * pairs: a probe compares hashes within one line and reads a record only
 * when its whole hash matches (nearly always the entry looked for), where a
 * chained table read a record per link. A full bucket sends new entries on
 * to the next one and counts them in its overflow count; a probe goes past
 * a bucket only while that count is non-zero, so a removal just clears its
 * way and decrements the counts of the buckets it passed (no tombstones).
 *
 * Growth is incremental: past 4/5 of the ways, a table twice as large is
 * allocated and a few old buckets move over per operation, so no call ever
 * rehashes everything at once. Entries not yet moved are found in the old
 * table, whose overflow counts stay as they were (an emptied bucket may
 * send a probe one bucket further, never stop it short).
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_steer_priv.h"

#define MLX5DM_HIDX_WAYS 5
#define MLX5DM_HIDX_MIN_LOG 4  /* buckets of a new index */
#define MLX5DM_HIDX_MAX_LOG 26
#define MLX5DM_HIDX_MOVE 2     /* old buckets moved per operation while growing */

struct mlx5dm_hidx_bucket {
	uint32_t hash[MLX5DM_HIDX_WAYS];
	uint32_t overflow;                /* entries placed further on from this bucket */
	struct mlx5dm_ste *ste[MLX5DM_HIDX_WAYS]; /* NULL: free way */
};

/* One cache line; tables are allocated on line boundaries. */
_Static_assert(sizeof(struct mlx5dm_hidx_bucket) == 64, "index bucket is one cache line");

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

/* A live entry (a buried one, refcount 0, may have lost its table) with this chain and tag. */
static bool
mlx5dm_hidx_match(const struct mlx5dm_ste *s, const struct mlx5dm_htbl *chain, const uint8_t *tag)
{
	return s->refcount != 0 && s->htbl->root == chain &&
	       memcmp(s->shadow + MLX5DM_STE_CTRL_SIZE, tag, MLX5DM_STE_TAG_SIZE) == 0;
}

/*
 * Bytes of a huge-page region for a table of n buckets, 0 for a heap one.
 * From 1 MiB on (an index of some 50 000 entries) a table takes a region
 * (rounded up to 2 MiB): faulted in 2 MiB at a time, from the warm reserve
 * when there is one, where the heap would zero it in the growing call.
 */
static size_t
mlx5dm_hidx_table_huge(uint32_t n)
{
	return mlx5dm_huge_fit((size_t)n * sizeof(struct mlx5dm_hidx_bucket));
}

/* Zeroed buckets. */
static struct mlx5dm_hidx_bucket *
mlx5dm_hidx_table_alloc(uint32_t n)
{
	size_t huge = mlx5dm_hidx_table_huge(n);

	if (huge != 0)
		return mlx5dm_huge_alloc(huge, false);
	return mlx5dm_aligned_zmalloc((size_t)n * sizeof(struct mlx5dm_hidx_bucket),
				      sizeof(struct mlx5dm_hidx_bucket));
}

static void
mlx5dm_hidx_table_free(struct mlx5dm_hidx_bucket *b, uint32_t n)
{
	size_t huge = mlx5dm_hidx_table_huge(n);

	if (huge != 0)
		mlx5dm_huge_free(b, huge);
	else
		mlx5dm_free(b);
}

int
mlx5dm_hidx_init(struct mlx5dm_hidx *x)
{
	memset(x, 0, sizeof(*x));
	x->mask = (1u << MLX5DM_HIDX_MIN_LOG) - 1;
	x->b = mlx5dm_hidx_table_alloc(x->mask + 1);
	return x->b == NULL ? -ENOMEM : 0;
}

void
mlx5dm_hidx_fini(struct mlx5dm_hidx *x)
{
	if (x->b != NULL)
		mlx5dm_hidx_table_free(x->b, x->mask + 1);
	if (x->old != NULL)
		mlx5dm_hidx_table_free(x->old, x->old_mask + 1);
	memset(x, 0, sizeof(*x));
}

/* Record s in the first free way from its home bucket (one exists). */
static void
mlx5dm_hidx_put(struct mlx5dm_hidx_bucket *tb, uint32_t mask, struct mlx5dm_ste *s, uint32_t h)
{
	uint32_t i = h & mask;
	unsigned int w;

	for (;;) {
		struct mlx5dm_hidx_bucket *b = &tb[i];

		for (w = 0; w < MLX5DM_HIDX_WAYS; w++) {
			if (b->ste[w] == NULL) {
				b->hash[w] = h;
				b->ste[w] = s;
				return;
			}
		}
		b->overflow++;
		i = (i + 1) & mask;
	}
}

/* Clear s's way in table tb; false if it is not there. */
static bool
mlx5dm_hidx_take(struct mlx5dm_hidx_bucket *tb, uint32_t mask, const struct mlx5dm_ste *s,
		 uint32_t h)
{
	uint32_t home = h & mask, i = home, n;
	unsigned int w;

	for (n = 0; n <= mask; n++) {
		struct mlx5dm_hidx_bucket *b = &tb[i];

		for (w = 0; w < MLX5DM_HIDX_WAYS; w++) {
			if (b->ste[w] != s)
				continue;
			b->ste[w] = NULL;
			/* The buckets passed on the way counted it. */
			for (; home != i; home = (home + 1) & mask)
				tb[home].overflow--;
			return true;
		}
		if (b->overflow == 0)
			return false;
		i = (i + 1) & mask;
	}
	return false;
}

static struct mlx5dm_ste *
mlx5dm_hidx_probe(const struct mlx5dm_hidx_bucket *tb, uint32_t mask,
		  const struct mlx5dm_htbl *chain, const uint8_t *tag, uint32_t h)
{
	uint32_t i = h & mask, n;
	unsigned int w;

	for (n = 0; n <= mask; n++) {
		const struct mlx5dm_hidx_bucket *b = &tb[i];

		for (w = 0; w < MLX5DM_HIDX_WAYS; w++) {
			if (b->hash[w] == h && b->ste[w] != NULL &&
			    mlx5dm_hidx_match(b->ste[w], chain, tag))
				return b->ste[w];
		}
		if (b->overflow == 0)
			return NULL;
		i = (i + 1) & mask;
	}
	return NULL;
}

/* Move up to n old buckets into the current table. */
static void
mlx5dm_hidx_move(struct mlx5dm_hidx *x, unsigned int n)
{
	while (x->old != NULL && n-- > 0) {
		struct mlx5dm_hidx_bucket *b = &x->old[x->move_pos];
		unsigned int w;

		for (w = 0; w < MLX5DM_HIDX_WAYS; w++) {
			if (b->ste[w] != NULL) {
				mlx5dm_hidx_put(x->b, x->mask, b->ste[w], b->hash[w]);
				b->ste[w] = NULL;
			}
		}
		if (++x->move_pos > x->old_mask) {
			mlx5dm_hidx_table_free(x->old, x->old_mask + 1);
			x->old = NULL;
		}
	}
}

/* Grow when 4/5 of the ways are taken. */
static void
mlx5dm_hidx_maybe_grow(struct mlx5dm_hidx *x)
{
	struct mlx5dm_hidx_bucket *nb;
	uint32_t n = x->mask + 1;

	if (x->old != NULL) {
		mlx5dm_hidx_move(x, MLX5DM_HIDX_MOVE);
		return;
	}
	if (x->count < 4u * n || n >= (1u << MLX5DM_HIDX_MAX_LOG))
		return;
	nb = mlx5dm_hidx_table_alloc(2 * n);
	if (nb == NULL)
		return; /* fuller buckets, still correct (insert refuses at the limit) */
	x->old = x->b;
	x->old_mask = x->mask;
	x->move_pos = 0;
	x->b = nb;
	x->mask = 2 * n - 1;
}

/* Room for n more entries (growing if due): their mlx5dm_hidx_insert() cannot fail. */
int
mlx5dm_hidx_reserve(struct mlx5dm_hidx *x, uint32_t n)
{
	/* Usually far from full: growing is left to the inserts (they move buckets too). */
	if (x->count + n < MLX5DM_HIDX_WAYS * (x->mask + 1))
		return 0;
	mlx5dm_hidx_maybe_grow(x);
	return x->count + n >= MLX5DM_HIDX_WAYS * (x->mask + 1) ? -ENOMEM : 0;
}

/* Start loading the home bucket of hash h (the caller has other work before the lookup). */
void
mlx5dm_hidx_prefetch(const struct mlx5dm_hidx *x, uint32_t h)
{
	MLX5DM_PREFETCH(&x->b[h & x->mask]);
}

/* An entry with this tag in this chain; h = mlx5dm_hidx_hash(chain, tag). */
struct mlx5dm_ste *
mlx5dm_hidx_find(struct mlx5dm_hidx *x, const struct mlx5dm_htbl *chain, const uint8_t *tag,
		 uint32_t h)
{
	struct mlx5dm_ste *s = mlx5dm_hidx_probe(x->b, x->mask, chain, tag, h);

	if (s == NULL && x->old != NULL)
		s = mlx5dm_hidx_probe(x->old, x->old_mask, chain, tag, h);
	return s;
}

/*
 * Index s (its htbl and tag are set; h: the hash of its chain and tag).
 * -ENOMEM only when the index could not grow and is nearly full; never
 * right after a removal (the way it freed is there).
 */
int
mlx5dm_hidx_insert(struct mlx5dm_hidx *x, struct mlx5dm_ste *s, uint32_t h)
{
	mlx5dm_hidx_maybe_grow(x);
	if (x->count + 1 >= MLX5DM_HIDX_WAYS * (x->mask + 1))
		return -ENOMEM;
	s->hidx_hash = h;
	mlx5dm_hidx_put(x->b, x->mask, s, h);
	x->count++;
	return 0;
}

void
mlx5dm_hidx_remove(struct mlx5dm_hidx *x, struct mlx5dm_ste *s)
{
	uint32_t h = s->hidx_hash;
	bool done;

	done = mlx5dm_hidx_take(x->b, x->mask, s, h);
	if (!done && x->old != NULL)
		done = mlx5dm_hidx_take(x->old, x->old_mask, s, h);
	if (done)
		x->count--;
	mlx5dm_hidx_move(x, x->old != NULL ? MLX5DM_HIDX_MOVE : 0);
}

size_t
mlx5dm_hidx_bytes(const struct mlx5dm_hidx *x)
{
	size_t n = sizeof(*x->b) * ((size_t)x->mask + 1);

	if (x->old != NULL)
		n += sizeof(*x->old) * ((size_t)x->old_mask + 1);
	return n;
}
