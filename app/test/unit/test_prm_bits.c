/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * PRM bit accessors against hand-derived bytes and against a naive
 * bit-by-bit reference over random fields.
 */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "mlx5dm_prm_bits.h"

/* Reference: walk the field one bit at a time (bit 0 = MSB of byte 0). */
static uint64_t
ref_get(const uint8_t *b, unsigned int bit, unsigned int width)
{
	uint64_t v = 0;
	unsigned int i;

	for (i = 0; i < width; i++) {
		unsigned int p = bit + i;

		v = (v << 1) | ((b[p / 8] >> (7 - p % 8)) & 1);
	}
	return v;
}

static void
ref_set(uint8_t *b, unsigned int bit, unsigned int width, uint64_t v)
{
	unsigned int i;

	for (i = 0; i < width; i++) {
		unsigned int p = bit + width - 1 - i;
		uint8_t m = (uint8_t)(1u << (7 - p % 8));

		if ((v >> i) & 1)
			b[p / 8] |= m;
		else
			b[p / 8] &= (uint8_t)~m;
	}
}

static void
test_hand_derived(void **state)
{
	uint8_t b[32];

	(void)state;
	memset(b, 0, sizeof(b));
	/* STE v1 BWC: entry_format DW0[31:24] = 0x02 -> byte 0 = 0x02. */
	mlx5dm_prm_set(b, 0x000, 8, 0x02);
	assert_int_equal(b[0], 0x02);
	/* counter_id DW0[23:0] = 0x123456 -> bytes 1..3. */
	mlx5dm_prm_set(b, 0x008, 24, 0x123456);
	assert_memory_equal(b, ((uint8_t[]){ 0x02, 0x12, 0x34, 0x56 }), 4);
	/* miss_address_31_6 DW2[31:6] = 0x3ffffff -> bytes 8..11 = ff ff ff c0. */
	mlx5dm_prm_set(b, 0x040, 26, 0x3ffffff);
	assert_memory_equal(b + 8, ((uint8_t[]){ 0xff, 0xff, 0xff, 0xc0 }), 4);
	/* reparse DW2[3] -> byte 11 bit 3. */
	mlx5dm_prm_set(b, 0x05c, 1, 1);
	assert_int_equal(b[11], 0xc8);
	assert_int_equal(mlx5dm_prm_get(b, 0x040, 26), 0x3ffffff);
	assert_int_equal(mlx5dm_prm_get(b, 0x05c, 1), 1);
	assert_int_equal(mlx5dm_prm_get(b, 0x05b, 1), 0);
	/* A field straddling two dwords: 16 bits at bit 24 -> bytes 3..4. */
	memset(b, 0, sizeof(b));
	mlx5dm_prm_set(b, 24, 16, 0xabcd);
	assert_int_equal(b[3], 0xab);
	assert_int_equal(b[4], 0xcd);
	assert_int_equal(mlx5dm_prm_get(b, 24, 16), 0xabcd);
	/* 64-bit ICM address at byte 8. */
	memset(b, 0, sizeof(b));
	mlx5dm_prm_set64(b, 64, 64, 0x0102030405060708ull);
	assert_memory_equal(b + 8, ((uint8_t[]){ 1, 2, 3, 4, 5, 6, 7, 8 }), 8);
	assert_true(mlx5dm_prm_get64(b, 64, 64) == 0x0102030405060708ull);
	/* Setting must not disturb neighbours. */
	memset(b, 0xff, sizeof(b));
	mlx5dm_prm_set(b, 0x012, 6, 0);
	assert_int_equal(b[2], 0xc0);
	assert_int_equal(b[1], 0xff);
	assert_int_equal(b[3], 0xff);
	/* Bits of the value above width are ignored. */
	memset(b, 0, sizeof(b));
	mlx5dm_prm_set(b, 4, 4, 0xff);
	assert_int_equal(b[0], 0x0f);
}

/* Random buffers a = r; get and set of (bit, width) agree with the reference. */
static void
check_field(uint8_t *a, uint8_t *r, size_t len, unsigned int bit, unsigned int width, uint64_t v)
{
	size_t i;

	for (i = 0; i < len; i++)
		a[i] = r[i] = (uint8_t)rand();
	assert_true(mlx5dm_prm_get64(a, bit, width) == ref_get(a, bit, width));
	mlx5dm_prm_set64(a, bit, width, v);
	ref_set(r, bit, width, v);
	assert_memory_equal(a, r, len);
}

static void
test_random_against_reference(void **state)
{
	uint8_t a[48], r[48];
	unsigned int iter;

	(void)state;
	srand(12345);
	for (iter = 0; iter < 200000; iter++) {
		unsigned int width = 1 + (unsigned int)rand() % 64;
		unsigned int bit = (unsigned int)rand() % (sizeof(a) * 8 - width + 1);
		uint64_t v = ((uint64_t)rand() << 33) ^ ((uint64_t)rand() << 11) ^ (uint64_t)rand();

		check_field(a, r, sizeof(a), bit, width, v);
		if (width < 64)
			v &= (1ull << width) - 1;
		assert_true(mlx5dm_prm_get64(a, bit, width) == v);
	}
}

/* Every byte-aligned field of whole bytes (the byte-copy paths) against the reference. */
static void
test_byte_fields(void **state)
{
	uint8_t a[24], r[24];
	unsigned int bit, width;

	(void)state;
	srand(777);
	for (width = 8; width <= 64; width += 8) {
		for (bit = 0; bit + width <= sizeof(a) * 8; bit += 8) {
			uint64_t v = ((uint64_t)rand() << 40) ^ ((uint64_t)rand() << 20) ^
				     (uint64_t)rand();

			check_field(a, r, sizeof(a), bit, width, v);
		}
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hand_derived),
		cmocka_unit_test(test_random_against_reference),
		cmocka_unit_test(test_byte_fields),
	};

	return cmocka_run_group_tests_name("prm_bits", tests, NULL, NULL);
}
