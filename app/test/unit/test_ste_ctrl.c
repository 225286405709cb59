/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * STE v1 control part: format lookup, entry init, hit/miss pointer
 * encodings, always-hit / always-miss images and the shadow -> device
 * swap. Expected bytes are literal arrays derived by hand from
 * ste_match_bwc_v1 of rdma-core's providers/mlx5/mlx5_ifc.h:
 *   byte 0 entry_format, 1..3 counter_id, 4..5 miss GVMI, 6 own lookup
 *   index, 7 miss[39:32], 8..11 miss[31:6] | polarity(bit 4) | reparse(bit 3),
 *   12..13 hit GVMI, 14 next lookup index, 15 hit[39:32]+size,
 *   16..19 hit[31:5]+size, 20..21 byte_mask,
 *   22..23 next_entry_format(bit 15) | mask_mode(bit 14) | gvmi[13:0].
 */

#include <errno.h>

#include "test_ste_common.h"

static void
test_ctx_get(void **state)
{
	const struct mlx5dm_ste_ctx *ctx;
	const uint8_t missing[] = { 0, 2, 3, 4, 255 };
	unsigned int i;

	(void)state;
	ctx = mlx5dm_ste_ctx_get(1);
	assert_non_null(ctx);
	assert_int_equal(ctx->format_version, 1);
	assert_int_equal(ctx->lu_dont_care, 0x000f);
	assert_int_equal(ctx->lu_action, 0x040f);
	for (i = 0; i < sizeof(missing); i++) {
		errno = 0;
		assert_null(mlx5dm_ste_ctx_get(missing[i]));
		assert_int_equal(errno, ENOTSUP);
	}
}

static void
test_init_bwc(void **state)
{
	const struct mlx5dm_ste_ctx *ctx = t_ctx();
	uint8_t ste[64];
	uint8_t exp[64] = {
		[0] = 0x01,			/* entry_format = 0x0107 >> 8 (BWC_DW) */
		[4] = 0x12, [5] = 0x34,		/* miss GVMI */
		[6] = 0x07,			/* own lookup index */
		[12] = 0x12, [13] = 0x34,	/* hit GVMI */
		[14] = 0x0f,			/* next lookup: don't care */
		[22] = 0x12, [23] = 0x34,	/* gvmi[13:0] */
	};

	(void)state;
	memset(ste, 0, sizeof(ste));
	/* IPV6_DES_O, RX. */
	mlx5dm_ste_init(ctx, ste, 0x0107, MLX5DM_STE_DIR_RX, 0x1234);
	t_assert_bytes(ste, exp, sizeof(exp), "BWC init");
	/* v1 control does not depend on the direction. */
	memset(ste, 0, sizeof(ste));
	mlx5dm_ste_init(ctx, ste, 0x0107, MLX5DM_STE_DIR_TX, 0x1234);
	t_assert_bytes(ste, exp, sizeof(exp), "BWC init TX");
	assert_false(mlx5dm_ste_is_match_entry(ctx, ste));
	/* Next lookup + byte mask: ETHL4_MISC_I (0x0114), 0xf00f. */
	mlx5dm_ste_set_next_lookup(ctx, ste, 0x0114, 0xf00f);
	exp[14] = 0x14;
	exp[20] = 0xf0;
	exp[21] = 0x0f;
	exp[22] = 0x80 | 0x12;		/* next_entry_format = 1 */
	t_assert_bytes(ste, exp, sizeof(exp), "next lookup");
	assert_int_equal(ctx->get_next_lu_type(ste), 0x0114);
	assert_int_equal(ctx->get_byte_mask(ste), 0xf00f);
}

static void
test_init_match(void **state)
{
	const struct mlx5dm_ste_ctx *ctx = t_ctx();
	uint8_t ste[64];
	const uint8_t exp[64] = {
		[0] = 0x04,			/* MATCH */
		[4] = 0x00, [5] = 0x11,
		[6] = 0x05,			/* definer id */
		[12] = 0x00, [13] = 0x11,
		[14] = 0x0f,
		/* no gvmi, no next_entry_format: bytes 20..31 are actions */
	};

	(void)state;
	memset(ste, 0, sizeof(ste));
	mlx5dm_ste_init(ctx, ste, 0x0405, MLX5DM_STE_DIR_RX, 0x0011);
	t_assert_bytes(ste, exp, sizeof(exp), "MATCH init");
	assert_true(mlx5dm_ste_is_match_entry(ctx, ste));
	/* A byte mask is not part of a MATCH entry. */
	mlx5dm_ste_set_next_lookup(ctx, ste, 0x0107, 0xffff);
	assert_int_equal(ste[14], 0x07);
	assert_int_equal(ste[20], 0);
	assert_int_equal(ste[21], 0);
	assert_int_equal(ste[22], 0);
}

static void
test_hit_pointer(void **state)
{
	const struct mlx5dm_ste_ctx *ctx = t_ctx();
	uint8_t ste[64];

	(void)state;
	memset(ste, 0, sizeof(ste));
	/*
	 * Table of 4 entries at 0x12_3456_7800: idx = (addr >> 5) | 4 =
	 * 0x91a2b3c4; [39:32] = idx >> 27 = 0x12; [31:5] = idx & 0x7ffffff =
	 * 0x01a2b3c4, i.e. DW4 = 0x01a2b3c4 << 5 = 0x34567880.
	 */
	mlx5dm_ste_set_hit_addr(ctx, ste, 0x1234567800ull, 4);
	assert_int_equal(ste[15], 0x12);
	t_assert_bytes(ste + 16, (const uint8_t[]){ 0x34, 0x56, 0x78, 0x80 }, 4, "hit 4");
	/* Final address, size 1: 0xab_cdef_0040 -> idx 0x55e6f7802 | 1. */
	mlx5dm_ste_set_hit_addr(ctx, ste, 0xabcdef0040ull, 1);
	assert_int_equal(ste[15], 0xab);
	t_assert_bytes(ste + 16, (const uint8_t[]){ 0xcd, 0xef, 0x00, 0x60 }, 4, "hit 1");
	/* Bits 63:48 of an address are not encodable: GVMI goes apart. */
	mlx5dm_ste_set_hit_gvmi(ctx, ste, 0xbeef);
	assert_int_equal(ste[12], 0xbe);
	assert_int_equal(ste[13], 0xef);
	/* Nothing else was touched. */
	assert_int_equal(ste[14], 0);
	assert_int_equal(ste[20], 0);
}

static void
test_miss_pointer(void **state)
{
	const struct mlx5dm_ste_ctx *ctx = t_ctx();
	uint8_t ste[64];

	(void)state;
	memset(ste, 0, sizeof(ste));
	/* 0x12_3456_7840 >> 6 = 0x48d159e1: [39:32] = 0x12, DW2 = 0x34567840. */
	mlx5dm_ste_set_miss_addr(ctx, ste, 0x1234567840ull);
	assert_int_equal(ste[7], 0x12);
	t_assert_bytes(ste + 8, (const uint8_t[]){ 0x34, 0x56, 0x78, 0x40 }, 4, "miss");
	assert_true(mlx5dm_ste_get_miss_addr(ctx, ste) == 0x1234567840ull);
	/* reparse (DW2[3]) and polarity (DW2[4]) are left alone. */
	ste[11] |= 0x18;
	mlx5dm_ste_set_miss_addr(ctx, ste, 0xff00000000ull);
	assert_int_equal(ste[7], 0xff);
	t_assert_bytes(ste + 8, (const uint8_t[]){ 0x00, 0x00, 0x00, 0x18 }, 4, "miss keep");
	assert_true(mlx5dm_ste_get_miss_addr(ctx, ste) == 0xff00000000ull);
}

static void
test_always_miss(void **state)
{
	const struct mlx5dm_ste_ctx *ctx = t_ctx();
	uint8_t ste[64];
	const uint8_t exp[64] = {
		[0] = 0x00, [4] = 0x00, [5] = 0x11, [6] = 0x05,	/* ETHL2_SRC_O */
		/* miss 0x1000: idx 0x40 -> DW2 = 0x1000 */
		[8] = 0x00, [9] = 0x00, [10] = 0x10, [11] = 0x00,
		[12] = 0x00, [13] = 0x11, [14] = 0x0f,
		/* hit pointer all ones, size 0 */
		[15] = 0xff, [16] = 0xff, [17] = 0xff, [18] = 0xff, [19] = 0xe0,
		[22] = 0x00, [23] = 0x11,
		[32] = 0xdc,			/* tag byte 0; mask byte 0 stays 0 */
	};

	(void)state;
	memset(ste, 0x5a, sizeof(ste));
	mlx5dm_ste_build_always_miss(ctx, ste, 0x0005, MLX5DM_STE_DIR_RX, 0x0011, 0x1000);
	t_assert_bytes(ste, exp, sizeof(exp), "always miss");
	/* Built without a target and aimed later (lib/steer keeps one per level): same bytes. */
	mlx5dm_ste_build_always_miss(ctx, ste, 0x0005, MLX5DM_STE_DIR_RX, 0x0011, 0);
	mlx5dm_ste_set_miss_addr(ctx, ste, 0x1000);
	t_assert_bytes(ste, exp, sizeof(exp), "always miss, aimed later");
}

static void
test_always_hit(void **state)
{
	const struct mlx5dm_ste_ctx *ctx = t_ctx();
	uint8_t ste[64];
	const uint8_t exp_bwc[64] = {
		[0] = 0x00, [5] = 0x11, [6] = 0x0f,
		[13] = 0x11,
		[14] = 0x07,				/* next: IPV6_DES_O index */
		/* 0x2000 >> 5 | 2 = 0x102 -> DW4 = 0x2040 */
		[18] = 0x20, [19] = 0x40,
		[20] = 0xf0, [21] = 0xf0,		/* next byte mask */
		[22] = 0x80, [23] = 0x11,		/* next_entry_format 1, gvmi */
	};
	const uint8_t exp_match[64] = {
		[0] = 0x04,				/* became a MATCH entry */
		[5] = 0x11, [6] = 0x0f,
		[13] = 0x11,
		[14] = 0x03,				/* definer 3 */
		/* 0x40000 >> 5 | 8 = 0x2008 -> DW4 = 0x40100 */
		[17] = 0x04, [18] = 0x01, [19] = 0x00,
		/* miss 0, no byte mask / gvmi, first action dword 0 */
	};

	(void)state;
	/* Anchor (lookup DONT_CARE) into a 2-entry IPV6_DES_O table. */
	mlx5dm_ste_build_always_hit(ctx, ste, 0x000f, MLX5DM_STE_DIR_RX, 0x0011, 0x0107, 0xf0f0,
				    0x2000, 2);
	t_assert_bytes(ste, exp_bwc, sizeof(exp_bwc), "always hit BWC");
	/* Into an 8-entry MATCH table of definer 3. */
	memset(ste, 0x5a, sizeof(ste));
	mlx5dm_ste_build_always_hit(ctx, ste, 0x000f, MLX5DM_STE_DIR_TX, 0x0011, 0x0403, 0xffff,
				    0x40000, 8);
	t_assert_bytes(ste, exp_match, sizeof(exp_match), "always hit MATCH");
}

static void
test_to_hw(void **state)
{
	const struct mlx5dm_ste_ctx *ctx = t_ctx();
	uint8_t ste[64], exp[64];
	unsigned int i;

	(void)state;
	memset(ste, 0, sizeof(ste));
	mlx5dm_ste_init(ctx, ste, 0x0003, MLX5DM_STE_DIR_RX, 1);
	for (i = 32; i < 64; i++)
		ste[i] = (uint8_t)i;
	memcpy(exp, ste, 64);
	/* Control-only writes are not swapped. */
	mlx5dm_ste_to_hw(ctx, ste, 32);
	t_assert_bytes(ste, exp, 64, "ctrl-only");
	/* Full BWC: device image is ctrl | mask | tag. */
	mlx5dm_ste_to_hw(ctx, ste, 64);
	for (i = 0; i < 16; i++) {
		exp[32 + i] = (uint8_t)(48 + i);
		exp[48 + i] = (uint8_t)(32 + i);
	}
	t_assert_bytes(ste, exp, 64, "BWC swap");
	/* Its own inverse. */
	mlx5dm_ste_to_hw(ctx, ste, 64);
	for (i = 32; i < 64; i++)
		assert_int_equal(ste[i], i);
	/* MATCH entries carry a 32-byte tag: no swap. */
	memset(ste, 0, 32);
	mlx5dm_ste_init(ctx, ste, 0x0401, MLX5DM_STE_DIR_RX, 1);
	memcpy(exp, ste, 64);
	mlx5dm_ste_to_hw(ctx, ste, 64);
	t_assert_bytes(ste, exp, 64, "MATCH no swap");
}

static void
test_counter_id(void **state)
{
	const struct mlx5dm_ste_ctx *ctx = t_ctx();
	uint8_t ste[64];

	(void)state;
	memset(ste, 0, sizeof(ste));
	mlx5dm_ste_init(ctx, ste, 0x0003, MLX5DM_STE_DIR_RX, 1);
	ctx->set_counter_id(ste, 0x00abcdef);
	t_assert_bytes(ste, (const uint8_t[]){ 0x00, 0xab, 0xcd, 0xef }, 4, "counter");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ctx_get),
		cmocka_unit_test(test_init_bwc),
		cmocka_unit_test(test_init_match),
		cmocka_unit_test(test_hit_pointer),
		cmocka_unit_test(test_miss_pointer),
		cmocka_unit_test(test_always_miss),
		cmocka_unit_test(test_always_hit),
		cmocka_unit_test(test_to_hw),
		cmocka_unit_test(test_counter_id),
	};

	return cmocka_run_group_tests_name("ste_ctrl", tests, NULL, NULL);
}
