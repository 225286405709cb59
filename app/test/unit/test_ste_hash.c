/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The STE hash against known vectors (rdma-core dr_ste_calc_hash_index(),
 * checked with an independent bitwise CRC) and against vectors generated with
 * Python's zlib by devtools/gen-crc-vectors.py.
 */

#include "test_ste_common.h"
#include "test_ste_crc_vectors.h"
#include "mlx5dm_ste_priv.h"

static void
test_reference_vectors(void **state)
{
	uint8_t zero[16] = { 0 }, seq16[16], seq32[32];
	const uint8_t ab[16] = {
		0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
		0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff,
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < 32; i++) {
		seq32[i] = (uint8_t)i;
		if (i < 16)
			seq16[i] = (uint8_t)i;
	}
	assert_int_equal(mlx5dm_ste_hash(zero, 16), 0x00000000);
	assert_int_equal(mlx5dm_ste_hash(seq16, 16), 0xdda97522);
	assert_int_equal(mlx5dm_ste_hash(ab, 16), 0xce3ebc68);
	assert_int_equal(mlx5dm_ste_hash(seq32, 32), 0x272b2c88);
	/* Indexes of the reference table (mod 16 and mod 1024). */
	assert_int_equal(mlx5dm_ste_hash_index_bwc(seq16, 0xffff, 16), 2);
	assert_int_equal(mlx5dm_ste_hash_index_bwc(seq16, 0xffff, 1024), 290);
	assert_int_equal(mlx5dm_ste_hash_index_bwc(ab, 0xffff, 16), 8);
	assert_int_equal(mlx5dm_ste_hash_index_bwc(ab, 0xffff, 1024), 104);
	/* byte_mask 0xfc00 keeps bytes 0..5 only: hash of 001122334455 00.. */
	assert_int_equal(mlx5dm_ste_hash_index_bwc(ab, 0xfc00, 16), 1);
	assert_int_equal(mlx5dm_ste_hash_index_bwc(ab, 0xfc00, 1024), 81);
	assert_int_equal(mlx5dm_ste_hash_index_match(seq32, 16), 8);
	assert_int_equal(mlx5dm_ste_hash_index_match(seq32, 1024), 136);
}

static void
test_trivial_tables(void **state)
{
	uint8_t tag[32];

	(void)state;
	memset(tag, 0xa5, sizeof(tag));
	/* One entry, or nothing hashed: the device uses entry 0. */
	assert_int_equal(mlx5dm_ste_hash_index_bwc(tag, 0xffff, 1), 0);
	assert_int_equal(mlx5dm_ste_hash_index_bwc(tag, 0, 1 << 20), 0);
	assert_int_equal(mlx5dm_ste_hash_index_match(tag, 1), 0);
	/* The hash of an all-ones mask over a non-zero tag is not 0 here. */
	assert_int_not_equal(mlx5dm_ste_hash_index_bwc(tag, 0xffff, 1 << 20), 0);
}

static void
test_generated_crc(void **state)
{
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(crc_vecs) / sizeof(crc_vecs[0]); i++) {
		uint32_t got = mlx5dm_ste_crc32(crc_vecs[i].buf, crc_vecs[i].len);

		if (got != crc_vecs[i].crc)
			fprintf(stderr, "crc len %u: got %08x want %08x\n", crc_vecs[i].len, got,
				crc_vecs[i].crc);
		assert_int_equal(got, crc_vecs[i].crc);
		assert_int_equal(mlx5dm_ste_hash(crc_vecs[i].buf, crc_vecs[i].len),
				 __builtin_bswap32(crc_vecs[i].crc));
	}
}

static void
test_generated_bwc(void **state)
{
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(bwc_vecs) / sizeof(bwc_vecs[0]); i++) {
		const struct bwc_vec *v = &bwc_vecs[i];

		assert_int_equal(mlx5dm_ste_hash_index_bwc(v->tag, v->byte_mask, v->num_entries),
				 v->index);
		if (v->byte_mask == 0xffff)
			assert_int_equal(mlx5dm_ste_hash(v->tag, 16), v->hash);
		/* The hash of the masked tag itself, whatever the table size. */
		if (v->byte_mask != 0)
			assert_int_equal(mlx5dm_ste_hash_bwc(v->tag, v->byte_mask), v->hash);
	}
}

/*
 * Any tag and byte mask: the insertion path (carry-less multiply where the
 * CPU has one) agrees with the table CRC of the tag masked byte by byte,
 * and so does the table-only path.
 */
static void
test_bwc_random(void **state)
{
	uint64_t x = 0x9e3779b97f4a7c15ull;
	unsigned int i, j;

	(void)state;
	for (i = 0; i < 200000; i++) {
		uint8_t tag[16], masked[16];
		uint16_t byte_mask;
		uint32_t want;

		for (j = 0; j < 16; j++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			tag[j] = (uint8_t)(x >> 24);
		}
		/* Every mask in turn, then random ones; all-ones masks often. */
		byte_mask = i < 65536 ? (uint16_t)i : (i & 3) == 0 ? 0xffff : (uint16_t)(x >> 40);
		for (j = 0; j < 16; j++)
			masked[j] = (byte_mask & (0x8000u >> j)) ? tag[j] : 0;
		want = byte_mask == 0 ? 0 : mlx5dm_ste_hash(masked, 16);
		assert_int_equal(mlx5dm_ste_hash_bwc(tag, byte_mask), want);
		if (byte_mask != 0)
			assert_int_equal(mlx5dm_ste_hash_bwc_tables(tag, byte_mask), want);
	}
}

static void
test_generated_match(void **state)
{
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(match_vecs) / sizeof(match_vecs[0]); i++) {
		const struct match_vec *v = &match_vecs[i];

		assert_int_equal(mlx5dm_ste_hash(v->tag, 32), v->hash);
		assert_int_equal(mlx5dm_ste_hash_index_match(v->tag, v->num_entries), v->index);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reference_vectors),
		cmocka_unit_test(test_trivial_tables),
		cmocka_unit_test(test_generated_crc),
		cmocka_unit_test(test_generated_bwc),
		cmocka_unit_test(test_bwc_random),
		cmocka_unit_test(test_generated_match),
	};

	return cmocka_run_group_tests_name("ste_hash", tests, NULL, NULL);
}
