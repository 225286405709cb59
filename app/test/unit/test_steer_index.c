/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The matcher's host index (open addressing, overflow counts, incremental
 * growth) and the record slabs, on records made up here: every lookup is
 * checked against what was inserted and removed so far.
 */

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "mlx5dm_steer_priv.h"

#define NB_RECS 4000

static struct mlx5dm_htbl chains[2];
static struct mlx5dm_ste recs[NB_RECS];
static bool indexed[NB_RECS];

static void
rec_init(unsigned int i, unsigned int chain, uint32_t tag)
{
	memset(&recs[i], 0, sizeof(recs[i]));
	recs[i].refcount = 1;
	chains[chain].root = &chains[chain];
	recs[i].htbl = &chains[chain];
	memcpy(recs[i].tag, &tag, sizeof(tag));
}

static const uint8_t *
rec_tag(unsigned int i)
{
	return recs[i].tag;
}

/* Every indexed record is found, every other one is not. */
static void
check_all(struct mlx5dm_index *x, uint32_t (*hash)(unsigned int))
{
	unsigned int i;

	for (i = 0; i < NB_RECS; i++) {
		struct mlx5dm_ste *s = mlx5dm_tag_index_find(x, recs[i].htbl->root, rec_tag(i),
							       hash(i));

		if (indexed[i])
			assert_ptr_equal(s, &recs[i]);
		else
			assert_null(s);
	}
}

static uint32_t
hash_clustered(unsigned int i)
{
	/* Few distinct hashes: long overflow runs, and hash hits on other tags. */
	return (i % 7) * 0x10001u;
}

static uint32_t
hash_real(unsigned int i)
{
	return mlx5dm_tag_index_hash(recs[i].htbl->root, rec_tag(i));
}

static void
run_index(uint32_t (*hash)(unsigned int))
{
	struct mlx5dm_index x = { .b = NULL };
	unsigned int i, n = 0;

	memset(&x, 0, sizeof(x));
	memset(indexed, 0, sizeof(indexed));
	for (i = 0; i < NB_RECS; i++)
		rec_init(i, i & 1, i / 2);
	/* Insert all, checking everything now and then (growths happen on the way). */
	for (i = 0; i < NB_RECS; i++) {
		assert_int_equal(mlx5dm_tag_index_insert(&x, &recs[i], hash(i)), 0);
		indexed[i] = true;
		n++;
		if (i % 500 == 499)
			check_all(&x, hash);
	}
	assert_int_equal(x.count, n);
	check_all(&x, hash);
	/* Remove every third, then insert them back, while growth may still be moving buckets. */
	for (i = 0; i < NB_RECS; i += 3) {
		mlx5dm_tag_index_remove(&x, &recs[i], hash(i));
		indexed[i] = false;
		n--;
	}
	check_all(&x, hash);
	for (i = 0; i < NB_RECS; i += 6) {
		assert_int_equal(mlx5dm_tag_index_insert(&x, &recs[i], hash(i)), 0);
		indexed[i] = true;
		n++;
	}
	check_all(&x, hash);
	/* Removing a record that is not indexed changes nothing. */
	mlx5dm_tag_index_remove(&x, &recs[3], hash(3));
	assert_int_equal(x.count, n);
	for (i = 0; i < NB_RECS; i++) {
		if (indexed[i]) {
			mlx5dm_tag_index_remove(&x, &recs[i], hash(i));
			indexed[i] = false;
		}
	}
	assert_int_equal(x.count, 0);
	check_all(&x, hash);
	assert_true(mlx5dm_index_bytes(&x) >= 64u * (NB_RECS / 5));
	mlx5dm_index_fini(&x);
}

static void
test_index_real_hash(void **state)
{
	(void)state;
	run_index(hash_real);
}

static void
test_index_clustered(void **state)
{
	(void)state;
	run_index(hash_clustered);
}

/* Two records with one key: either is found until both are gone. */
static void
test_index_duplicates(void **state)
{
	struct mlx5dm_index x = { .b = NULL };
	uint32_t h;

	(void)state;
	memset(&x, 0, sizeof(x));
	rec_init(0, 0, 42);
	rec_init(1, 0, 42);
	rec_init(2, 1, 42); /* same tag, other chain: another key */
	h = hash_real(0);
	assert_int_equal(mlx5dm_tag_index_insert(&x, &recs[0], h), 0);
	assert_int_equal(mlx5dm_tag_index_insert(&x, &recs[1], h), 0);
	assert_null(mlx5dm_tag_index_find(&x, &chains[1], rec_tag(2), hash_real(2)));
	assert_int_equal(mlx5dm_tag_index_insert(&x, &recs[2], hash_real(2)), 0);
	assert_ptr_equal(mlx5dm_tag_index_find(&x, &chains[1], rec_tag(2), hash_real(2)), &recs[2]);
	mlx5dm_tag_index_remove(&x, &recs[0], h);
	assert_ptr_equal(mlx5dm_tag_index_find(&x, &chains[0], rec_tag(0), h), &recs[1]);
	mlx5dm_tag_index_remove(&x, &recs[1], h);
	assert_null(mlx5dm_tag_index_find(&x, &chains[0], rec_tag(0), h));
	mlx5dm_index_fini(&x);
}

/*
 * The key is the chain, named by its root, not the table: a record moved
 * to another table of its chain (a grown head) is found and removed under
 * the key it was indexed with.
 */
static void
test_index_moved(void **state)
{
	struct mlx5dm_index x = { .b = NULL };
	struct mlx5dm_htbl head = { .root = &chains[0] };
	uint32_t h;

	(void)state;
	memset(&x, 0, sizeof(x));
	rec_init(0, 0, 7);
	rec_init(1, 0, 8);
	h = hash_real(0);
	assert_int_equal(mlx5dm_tag_index_insert(&x, &recs[0], h), 0);
	assert_int_equal(mlx5dm_tag_index_insert(&x, &recs[1], hash_real(1)), 0);
	recs[0].htbl = &head;
	assert_int_equal(mlx5dm_tag_index_hash(recs[0].htbl->root, rec_tag(0)), h);
	assert_ptr_equal(mlx5dm_tag_index_find(&x, &chains[0], rec_tag(0), h), &recs[0]);
	mlx5dm_tag_index_remove(&x, &recs[0], h);
	assert_int_equal(x.count, 1);
	assert_null(mlx5dm_tag_index_find(&x, &chains[0], rec_tag(0), h));
	assert_ptr_equal(mlx5dm_tag_index_find(&x, &chains[0], rec_tag(1), hash_real(1)), &recs[1]);
	mlx5dm_index_fini(&x);
}

/* Without memory to grow, the index fills up and then refuses, staying correct. */
static void
test_index_no_growth(void **state)
{
	struct mlx5dm_index x = { .b = NULL };
	unsigned int i, n;
	int ret = 0;

	(void)state;
	memset(indexed, 0, sizeof(indexed));
	memset(&x, 0, sizeof(x));
	for (i = 0; i < NB_RECS; i++)
		rec_init(i, 0, i);
	for (n = 0; n < NB_RECS; n++) {
		/* The first insert takes the first table. */
		mlx5dm_alloc_fail_at(n == 0 ? 0 : 1);
		ret = mlx5dm_tag_index_insert(&x, &recs[n], hash_real(n));
		mlx5dm_alloc_fail_at(0);
		if (ret < 0)
			break;
		indexed[n] = true;
	}
	assert_int_equal(ret, -ENOMEM);
	assert_true(n > 4 * 16); /* past the growth point of the first table */
	check_all(&x, hash_real);
	/* A removal makes room again. */
	mlx5dm_tag_index_remove(&x, &recs[0], hash_real(0));
	indexed[0] = false;
	assert_int_equal(mlx5dm_tag_index_insert(&x, &recs[n], hash_real(n)), 0);
	indexed[n] = true;
	check_all(&x, hash_real);
	mlx5dm_index_fini(&x);
}

/* Records of the generic index: keys are their own numbers. */
static bool
key_is(const void *rec, const void *key)
{
	return *(const uint32_t *)rec == *(const uint32_t *)key;
}

static uint32_t
key_hash(uint32_t k)
{
	uint8_t tag[MLX5DM_STE_TAG_SIZE] = { 0 };

	memcpy(tag, &k, sizeof(k));
	return mlx5dm_tag_index_hash(NULL, tag);
}

static void
count_visit(void *arg, void *rec)
{
	(void)rec;
	++*(unsigned int *)arg;
}

/*
 * The generic index grows with its contents (buckets doubled, each lookup
 * reading about one bucket), finds every key, visits every record once,
 * and gives its tables back when emptied and finished.
 */
static void
test_index_generic(void **state)
{
	enum { N = 50000 };
	static uint32_t keys[N];
	struct mlx5dm_index x;
	struct mlx5dm_index_shape sh;
	unsigned int i, seen = 0;
	uint32_t k = 1;

	(void)state;
	memset(&x, 0, sizeof(x));
	assert_null(mlx5dm_index_find(&x, 1, key_is, &k));
	for (i = 0; i < N; i++) {
		keys[i] = i * 7919u;
		assert_int_equal(mlx5dm_index_insert(&x, &keys[i], key_hash(keys[i])), 0);
	}
	mlx5dm_index_shape(&x, &sh);
	assert_int_equal(sh.count, N);
	assert_true(sh.buckets * 4u >= N);
	assert_true(sh.reads <= 2u * N);
	mlx5dm_index_foreach(&x, count_visit, &seen);
	assert_int_equal(seen, N);
	for (i = 0; i < N; i++) {
		uint32_t h = key_hash(keys[i]);

		k = keys[i];
		assert_ptr_equal(mlx5dm_index_find(&x, h, key_is, &k), &keys[i]);
		k = keys[i] + 1;
		assert_null(mlx5dm_index_find(&x, h, key_is, &k));
	}
	for (i = 0; i < N; i++)
		assert_true(mlx5dm_index_remove(&x, &keys[i], key_hash(keys[i])));
	assert_int_equal(x.count, 0);
	mlx5dm_index_fini(&x);
	assert_int_equal(mlx5dm_index_bytes(&x), 0);
}

/* Slab records: distinct, reused after a free, across small and huge blocks. */
static void
test_slab_blocks(void **state)
{
	enum { N = 40000 };
	static uint8_t *objs[N];
	struct mlx5dm_slab s;
	unsigned int i;
	uint8_t *o;

	(void)state;
	mlx5dm_slab_init(&s, 100, MLX5DM_SOCKET_ANY);
	for (i = 0; i < N; i++) {
		objs[i] = mlx5dm_slab_alloc(&s);
		assert_non_null(objs[i]);
		assert_int_equal(objs[i][99], 0);
		memset(objs[i], (int)(i & 0xff) | 1, 100);
	}
	assert_int_equal(s.live, N);
	/* Past the small blocks: at least one huge region. */
	assert_true(mlx5dm_slab_bytes(&s) >= MLX5DM_HUGE_SIZE);
	for (i = 0; i < N; i++)
		assert_int_equal(objs[i][50], (int)(i & 0xff) | 1); /* nothing overlapped */
	mlx5dm_slab_free(&s, objs[123]);
	o = mlx5dm_slab_alloc_raw(&s);
	assert_ptr_equal(o, objs[123]);
	/* A failed block allocation is an error, not a crash; the slab still works after. */
	while (s.bump < s.end)
		assert_non_null(mlx5dm_slab_alloc_raw(&s));
	mlx5dm_alloc_fail_at(1);
	assert_null(mlx5dm_slab_alloc_raw(&s));
	mlx5dm_alloc_fail_at(0);
	assert_non_null(mlx5dm_slab_alloc_raw(&s));
	mlx5dm_slab_destroy(&s);
	assert_int_equal(mlx5dm_slab_bytes(&s), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_index_real_hash),
		cmocka_unit_test(test_index_clustered),
		cmocka_unit_test(test_index_duplicates),
		cmocka_unit_test(test_index_moved),
		cmocka_unit_test(test_index_no_growth),
		cmocka_unit_test(test_index_generic),
		cmocka_unit_test(test_slab_blocks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
