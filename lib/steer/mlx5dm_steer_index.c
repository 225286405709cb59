/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The growable hash index (mlx5dm_steer.h), and a matcher's index of its
 * entries on it, keyed by (chain, tag).
 *
 * Open addressing in cache-line buckets of MLX5DM_INDEX_WAYS (hash, record)
 * pairs: a probe compares hashes within one line and reads a record only
 * when its whole hash matches (nearly always the record looked for), where a
 * chained table read a record per link. A full bucket sends new records on
 * to the next one and counts them in its overflow count; a probe goes past
 * a bucket only while that count is non-zero, so a removal just clears its
 * way and decrements the counts of the buckets it passed (no tombstones).
 *
 * Growth is incremental: past 4/5 of the ways, a table four times as large
 * is allocated and a few old buckets move over per operation, so no call
 * ever rehashes everything at once. Four times rather than twice: a record
 * moves once per quadrupling of the index instead of once per doubling.
 * The price is a table at a fifth of its ways right after a growth (two
 * fifths when doubling); the sizes are every other one of doubling's.
 * Records not yet moved are found in the old table, whose overflow counts
 * stay as they were (an emptied bucket may send a probe one bucket
 * further, never stop it short).
 *
 * The matcher's index, of the entries above the last level (each shared
 * by the rules of a prefix): a growth chain holds entries in two tables
 * (the head and the older one being emptied), so finding a tag in
 * ICM-layout order means probing both. The index answers "is this tag
 * already under this parent?" with one probe. A chain is named by its
 * pointing entry (the matcher for the first level, htbl->root), which
 * lives as long as the chain, so moving an entry (a follower copied into
 * its slot on delete, an entry moved to the head) never invalidates the
 * keys of the entries below it. A last-level entry (one per rule) is not
 * indexed: a rule's tag is looked for in the slot chains it would join
 * (mlx5dm_steer_rule.c), which a new entry reads anyway.
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_steer_priv.h"

#define MLX5DM_INDEX_WAYS 5
#define MLX5DM_INDEX_MIN_LOG 4  /* buckets of a new index */
#define MLX5DM_INDEX_MAX_LOG 26
#define MLX5DM_INDEX_MOVE 2     /* old buckets moved per operation while growing */

struct mlx5dm_index_bucket {
	uint32_t hash[MLX5DM_INDEX_WAYS];
	uint32_t overflow;                /* records placed further on from this bucket */
	void *rec[MLX5DM_INDEX_WAYS];     /* NULL: free way */
};

/* One cache line; tables are allocated on line boundaries. */
_Static_assert(sizeof(struct mlx5dm_index_bucket) == 64, "index bucket is one cache line");

/*
 * Bytes of a huge-page region for a table of n buckets, 0 for a heap one.
 * From MLX5DM_HUGE_SIZE on a table takes a region: faulted in 2 MiB at a
 * time where the heap would zero it in the growing call. Only there: the
 * table sizes are powers of two, so those fill their regions, while the
 * one size between half a region and a region (1 MiB, an index of some
 * 50 000 records) would leave half of its region unused (the region is
 * whole when the allocator operations are rte_malloc's, as in the PMD).
 */
static size_t
mlx5dm_index_table_huge(uint32_t n)
{
	size_t bytes = (size_t)n * sizeof(struct mlx5dm_index_bucket);

	return bytes >= MLX5DM_HUGE_SIZE ? mlx5dm_huge_fit(bytes) : 0;
}

/* Zeroed buckets. */
static struct mlx5dm_index_bucket *
mlx5dm_index_table_alloc(const struct mlx5dm_index *x, uint32_t n)
{
	size_t huge = mlx5dm_index_table_huge(n);

	if (huge != 0)
		return mlx5dm_huge_alloc(huge, false, x->socket1 - 1);
	return mlx5dm_aligned_zmalloc_socket((size_t)n * sizeof(struct mlx5dm_index_bucket),
					     sizeof(struct mlx5dm_index_bucket), x->socket1 - 1);
}

static void
mlx5dm_index_table_free(struct mlx5dm_index_bucket *b, uint32_t n)
{
	size_t huge = mlx5dm_index_table_huge(n);

	if (huge != 0)
		mlx5dm_huge_free(b, huge);
	else
		mlx5dm_free(b);
}

void
mlx5dm_index_fini(struct mlx5dm_index *x)
{
	int socket1 = x->socket1;

	if (x->b != NULL)
		mlx5dm_index_table_free(x->b, x->mask + 1);
	if (x->old != NULL)
		mlx5dm_index_table_free(x->old, x->old_mask + 1);
	memset(x, 0, sizeof(*x));
	x->socket1 = socket1;
}

/* Record rec in the first free way from its home bucket (one exists). */
static void
mlx5dm_index_put(struct mlx5dm_index_bucket *tb, uint32_t mask, void *rec, uint32_t h)
{
	uint32_t i = h & mask;
	unsigned int w;

	for (;;) {
		struct mlx5dm_index_bucket *b = &tb[i];

		for (w = 0; w < MLX5DM_INDEX_WAYS; w++) {
			if (b->rec[w] == NULL) {
				b->hash[w] = h;
				b->rec[w] = rec;
				return;
			}
		}
		b->overflow++;
		i = (i + 1) & mask;
	}
}

/* Clear rec's way in table tb; false if it is not there. */
static bool
mlx5dm_index_take(struct mlx5dm_index_bucket *tb, uint32_t mask, const void *rec, uint32_t h)
{
	uint32_t home = h & mask, i = home, n;
	unsigned int w;

	for (n = 0; n <= mask; n++) {
		struct mlx5dm_index_bucket *b = &tb[i];

		for (w = 0; w < MLX5DM_INDEX_WAYS; w++) {
			if (b->rec[w] != rec)
				continue;
			b->rec[w] = NULL;
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

/* Inline: the matcher's lookup below gets its comparison inlined too. */
static inline void *
mlx5dm_index_probe(const struct mlx5dm_index_bucket *tb, uint32_t mask, uint32_t h,
		   mlx5dm_index_eq eq, const void *key)
{
	uint32_t i = h & mask, n;
	unsigned int w;

	for (n = 0; n <= mask; n++) {
		const struct mlx5dm_index_bucket *b = &tb[i];

		for (w = 0; w < MLX5DM_INDEX_WAYS; w++) {
			if (b->hash[w] == h && b->rec[w] != NULL && eq(b->rec[w], key))
				return b->rec[w];
		}
		if (b->overflow == 0)
			return NULL;
		i = (i + 1) & mask;
	}
	return NULL;
}

static inline void *
mlx5dm_index_lookup(const struct mlx5dm_index *x, uint32_t h, mlx5dm_index_eq eq,
		    const void *key)
{
	void *r;

	if (x->b == NULL)
		return NULL;
	r = mlx5dm_index_probe(x->b, x->mask, h, eq, key);
	if (r == NULL && x->old != NULL)
		r = mlx5dm_index_probe(x->old, x->old_mask, h, eq, key);
	return r;
}

void *
mlx5dm_index_find(const struct mlx5dm_index *x, uint32_t h, mlx5dm_index_eq eq, const void *key)
{
	return mlx5dm_index_lookup(x, h, eq, key);
}

/* Move up to n old buckets into the current table. */
static void
mlx5dm_index_move(struct mlx5dm_index *x, unsigned int n)
{
	while (x->old != NULL && n-- > 0) {
		struct mlx5dm_index_bucket *b = &x->old[x->move_pos];
		unsigned int w;

		for (w = 0; w < MLX5DM_INDEX_WAYS; w++) {
			if (b->rec[w] != NULL) {
				mlx5dm_index_put(x->b, x->mask, b->rec[w], b->hash[w]);
				b->rec[w] = NULL;
			}
		}
		if (++x->move_pos > x->old_mask) {
			mlx5dm_index_table_free(x->old, x->old_mask + 1);
			x->old = NULL;
		}
	}
}

/* The first table; then grow when 4/5 of the ways are taken. */
static void
mlx5dm_index_maybe_grow(struct mlx5dm_index *x)
{
	struct mlx5dm_index_bucket *nb;
	uint32_t n = x->mask + 1;

	if (x->b == NULL) {
		x->b = mlx5dm_index_table_alloc(x, 1u << MLX5DM_INDEX_MIN_LOG);
		x->mask = x->b != NULL ? (1u << MLX5DM_INDEX_MIN_LOG) - 1 : 0;
		return;
	}
	if (x->old != NULL) {
		mlx5dm_index_move(x, MLX5DM_INDEX_MOVE);
		return;
	}
	if (x->count < 4u * n || n >= (1u << MLX5DM_INDEX_MAX_LOG))
		return;
	nb = mlx5dm_index_table_alloc(x, 4 * n);
	if (nb == NULL)
		return; /* fuller buckets, still correct (insert refuses at the limit) */
	x->old = x->b;
	x->old_mask = x->mask;
	x->move_pos = 0;
	x->b = nb;
	x->mask = 4 * n - 1;
}

/* Room for n more records in the current table. */
static bool
mlx5dm_index_room(const struct mlx5dm_index *x, uint32_t n)
{
	return x->b != NULL && x->count + n < MLX5DM_INDEX_WAYS * (x->mask + 1);
}

int
mlx5dm_index_reserve(struct mlx5dm_index *x, uint32_t n)
{
	/* Usually far from full: growing is left to the inserts (they move buckets too). */
	if (mlx5dm_index_room(x, n))
		return 0;
	mlx5dm_index_maybe_grow(x);
	return mlx5dm_index_room(x, n) ? 0 : -ENOMEM;
}

void
mlx5dm_index_prefetch(const struct mlx5dm_index *x, uint32_t h)
{
	if (x->b != NULL)
		MLX5DM_PREFETCH(&x->b[h & x->mask]);
}

int
mlx5dm_index_insert(struct mlx5dm_index *x, void *rec, uint32_t h)
{
	mlx5dm_index_maybe_grow(x);
	if (!mlx5dm_index_room(x, 1))
		return -ENOMEM;
	mlx5dm_index_put(x->b, x->mask, rec, h);
	x->count++;
	return 0;
}

bool
mlx5dm_index_remove(struct mlx5dm_index *x, const void *rec, uint32_t h)
{
	bool done = false;

	if (x->b != NULL)
		done = mlx5dm_index_take(x->b, x->mask, rec, h);
	if (!done && x->old != NULL)
		done = mlx5dm_index_take(x->old, x->old_mask, rec, h);
	if (done)
		x->count--;
	mlx5dm_index_move(x, x->old != NULL ? MLX5DM_INDEX_MOVE : 0);
	return done;
}

static void
mlx5dm_index_table_foreach(const struct mlx5dm_index_bucket *tb, uint32_t mask,
			   void (*cb)(void *arg, void *rec), void *arg)
{
	uint32_t i;
	unsigned int w;

	for (i = 0; tb != NULL && i <= mask; i++)
		for (w = 0; w < MLX5DM_INDEX_WAYS; w++)
			if (tb[i].rec[w] != NULL)
				cb(arg, tb[i].rec[w]);
}

void
mlx5dm_index_foreach(const struct mlx5dm_index *x, void (*cb)(void *arg, void *rec), void *arg)
{
	mlx5dm_index_table_foreach(x->b, x->mask, cb, arg);
	if (x->old != NULL)
		mlx5dm_index_table_foreach(x->old, x->old_mask, cb, arg);
}

size_t
mlx5dm_index_bytes(const struct mlx5dm_index *x)
{
	size_t n = 0;

	if (x->b != NULL)
		n += sizeof(*x->b) * ((size_t)x->mask + 1);
	if (x->old != NULL)
		n += sizeof(*x->old) * ((size_t)x->old_mask + 1);
	return n;
}

/* Buckets read by finding every record of table tb once (from its home bucket to its way). */
static uint64_t
mlx5dm_index_table_reads(const struct mlx5dm_index_bucket *tb, uint32_t mask)
{
	uint64_t reads = 0;
	uint32_t i;
	unsigned int w;

	for (i = 0; tb != NULL && i <= mask; i++)
		for (w = 0; w < MLX5DM_INDEX_WAYS; w++)
			if (tb[i].rec[w] != NULL)
				reads += ((i - tb[i].hash[w]) & mask) + 1;
	return reads;
}

void
mlx5dm_index_shape(const struct mlx5dm_index *x, struct mlx5dm_index_shape *sh)
{
	sh->count = x->count;
	sh->buckets = x->b != NULL ? x->mask + 1 : 0;
	sh->reads = mlx5dm_index_table_reads(x->b, x->mask);
	if (x->old != NULL) {
		sh->buckets += x->old_mask + 1;
		sh->reads += mlx5dm_index_table_reads(x->old, x->old_mask);
	}
}

/* ---- the matcher's index of its entries ---- */

uint32_t
mlx5dm_tag_index_hash(const void *chain, const uint8_t *tag)
{
	uint64_t a, b, h;

	memcpy(&a, tag, 8);
	memcpy(&b, tag + 8, 8);
	h = a ^ (b * 0x9e3779b97f4a7c15ull) ^ ((uint64_t)(uintptr_t)chain >> 4);
	return mlx5dm_index_mix(h);
}

struct mlx5dm_tag_index_key {
	const void *chain;
	const uint8_t *tag;
};

/* An entry with this chain and tag (an entry leaves the index as it leaves its chain). */
static inline bool
mlx5dm_tag_index_match(const void *rec, const void *key)
{
	const struct mlx5dm_ste *s = rec;
	const struct mlx5dm_tag_index_key *k = key;

	return s->htbl->root == k->chain &&
	       memcmp(s->tag, k->tag, MLX5DM_STE_TAG_SIZE) == 0;
}

struct mlx5dm_ste *
mlx5dm_tag_index_find(struct mlx5dm_index *x, const void *chain, const uint8_t *tag,
		      uint32_t h)
{
	const struct mlx5dm_tag_index_key k = { .chain = chain, .tag = tag };

	return mlx5dm_index_lookup(x, h, mlx5dm_tag_index_match, &k);
}
