/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Rule templates (mlx5dm_ste_tmpl_*): a template build must give exactly the
 * STEs of the generic builder (mlx5dm_ste_build_ste_arr, itself checked
 * against hand-derived bytes in test_ste_build.c) and the template value
 * check must agree with mlx5dm_ste_check_value(). One hand-derived IPv4
 * 5-tuple rule pins the bytes down directly; random masks over every field
 * of the outer, misc, inner, misc2 and misc3 sections cover the rest (byte
 * copies, fixed l3_type, generic entries, shared tag fields). Tag
 * templates (mlx5dm_ste_tag_*) must give the generic builder's STEs of the
 * value their moves make, and refuse the moves whose bytes they cannot take.
 */

#include <errno.h>
#include <stdlib.h>

#include "mlx5dm_prm_match.h"
#include "test_ste_common.h"

#define T5_SRC 0x000, 32
#define T5_DST 0x020, 32
#define T5_SPORT 0x040, 16
#define T5_DPORT 0x050, 16
#define T5_PROTO 0x078, 8
#define L2_L3_TYPE 0x00a, 2

#define T_DIM(a) (sizeof(a) / sizeof((a)[0]))

static uint32_t t_seed = 2026;

static uint32_t
t_rand(void)
{
	t_seed = t_seed * 1103515245u + 12345u;
	return t_seed >> 8;
}

/*
 * A device with the flex-parser protocols MPLS over GRE (parser 3, in the
 * FLEX_PARSER_0 lookup) and MPLS over UDP (parser 6, FLEX_PARSER_1), so
 * random misc2 masks build those lookups too.
 */
static const struct mlx5dm_ste_dev_caps t_dev = {
	.flex_protocols = MLX5DM_FLEX_PARSER_MPLS_OVER_GRE_ENABLED |
			  MLX5DM_FLEX_PARSER_MPLS_OVER_UDP_ENABLED,
	.flex_id = { [MLX5DM_STE_FLEX_MPLS_OVER_GRE] = 3, [MLX5DM_STE_FLEX_MPLS_OVER_UDP] = 6 },
};

static int
t_compile(const uint8_t *mask, uint8_t criteria, struct mlx5dm_ste_builder *b, unsigned int *n,
	  struct mlx5dm_ste_tmpl *t)
{
	int ret;

	ret = mlx5dm_ste_build_matcher(t_ctx(), &t_dev, mask, criteria, MLX5DM_STE_DIR_RX, b,
				       MLX5DM_STE_MAX_BUILDERS, n, NULL);
	if (ret < 0)
		return ret;
	return mlx5dm_ste_tmpl_compile(t_ctx(), b, *n, mask, criteria, MLX5DM_STE_DIR_RX, 0x21,
				       t);
}

/* Template and generic builder agree on the STEs of value. */
static void
t_same_stes(const struct mlx5dm_ste_tmpl *t, const struct mlx5dm_ste_builder *b, unsigned int n,
	    const uint8_t *value)
{
	static uint8_t got[MLX5DM_STE_MAX_BUILDERS * MLX5DM_STE_SIZE];
	static uint8_t exp[MLX5DM_STE_MAX_BUILDERS * MLX5DM_STE_SIZE];
	int r_exp;

	memset(got, 0xa5, sizeof(got));
	r_exp = mlx5dm_ste_build_ste_arr(t_ctx(), b, n, value, MLX5DM_STE_DIR_RX, 0x21, exp);
	assert_int_equal(mlx5dm_ste_tmpl_build(t, value, got), r_exp);
	if (r_exp == 0)
		t_assert_bytes(got, exp, (size_t)n * MLX5DM_STE_SIZE, "template STEs");
}

/* An IPv4 UDP 5-tuple mask, and a value of it with the version and protocol (17). */
static void
t_5tuple(uint8_t *mask, uint8_t *v)
{
	T_PUT(mask, T_OUTER, S_IP_PROTOCOL, 0xff);
	T_PUT(mask, T_OUTER, S_SRC_IP_31_0, 0xffffffff);
	T_PUT(mask, T_OUTER, S_DST_IP_31_0, 0xffffffff);
	T_PUT(mask, T_OUTER, S_UDP_SPORT, 0xffff);
	T_PUT(mask, T_OUTER, S_UDP_DPORT, 0xffff);
	/* The mask's ip_version is the matcher's version (DR convention). */
	T_PUT(mask, T_OUTER, S_IP_VERSION, 4);
	T_PUT(v, T_OUTER, S_IP_VERSION, 4);
	T_PUT(v, T_OUTER, S_IP_PROTOCOL, 17);
}

/* IPv4 5-tuple: copies for addresses, ports and protocol; l3_type from the mask. */
static void
test_ipv4_5tuple_literal(void **state)
{
	struct mlx5dm_ste_builder b[MLX5DM_STE_MAX_BUILDERS];
	static struct mlx5dm_ste_tmpl t;
	uint8_t mask[448] = { 0 }, v[448] = { 0 };
	uint8_t arr[MLX5DM_STE_MAX_BUILDERS * MLX5DM_STE_SIZE];
	const uint8_t *tag;
	unsigned int n = 0;

	(void)state;
	t_5tuple(mask, v);
	T_PUT(v, T_OUTER, S_SRC_IP_31_0, 0xc0a80001);
	T_PUT(v, T_OUTER, S_DST_IP_31_0, 0x0a000002);
	T_PUT(v, T_OUTER, S_UDP_SPORT, 0x1234);
	T_PUT(v, T_OUTER, S_UDP_DPORT, 4789);
	assert_int_equal(t_compile(mask, C_OUTER, b, &n, &t), 0);
	assert_int_equal(n, 2);
	/* Nothing of this rule needs the generic path. */
	assert_int_equal(t.n_slow, 0);
	assert_true(mlx5dm_ste_tmpl_value_ok(&t, v));
	assert_int_equal(mlx5dm_ste_tmpl_build(&t, v, arr), 0);
	/* Level 0 (ETHL2): l3_type IPv4 = 1. */
	tag = arr + MLX5DM_STE_TAG_OFF;
	assert_int_equal(mlx5dm_prm_get(tag, L2_L3_TYPE), 1);
	/* Level 1 (IPv4 5-tuple): the value's fields at their tag positions. */
	tag = arr + MLX5DM_STE_SIZE + MLX5DM_STE_TAG_OFF;
	assert_int_equal(mlx5dm_prm_get(tag, T5_SRC), 0xc0a80001);
	assert_int_equal(mlx5dm_prm_get(tag, T5_DST), 0x0a000002);
	assert_int_equal(mlx5dm_prm_get(tag, T5_SPORT), 0x1234);
	assert_int_equal(mlx5dm_prm_get(tag, T5_DPORT), 4789);
	assert_int_equal(mlx5dm_prm_get(tag, T5_PROTO), 17);
	t_same_stes(&t, b, n, v);
	/* A stray bit outside the mask, and another IP version, are refused. */
	T_PUT(v, T_OUTER, S_TTL, 1);
	assert_false(mlx5dm_ste_tmpl_value_ok(&t, v));
	T_PUT(v, T_OUTER, S_TTL, 0);
	T_PUT(v, T_OUTER, S_IP_VERSION, 6);
	assert_false(mlx5dm_ste_tmpl_value_ok(&t, v));
}

/* Fields of the sections the builders cover (criteria bits 0..4). */
static bool
t_coverable(unsigned int f)
{
	return mlx5dm_fte_fields[f].section <= MLX5DM_FTE_SEC_misc3;
}

/* A random mask: a few random fields, random bits or all ones, and an IP version. */
static uint8_t
t_random_mask(uint8_t *mask)
{
	unsigned int k, nf = 1 + t_rand() % 6;
	uint8_t criteria = 0;

	memset(mask, 0, 448);
	for (k = 0; k < nf; k++) {
		unsigned int f = t_rand() % MLX5DM_FTE_NUM_FIELDS;
		const struct mlx5dm_fte_field_desc *d = &mlx5dm_fte_fields[f];
		uint32_t m = t_rand() % 2 ? 0xffffffffu : t_rand() | 1;

		if (!t_coverable(f))
			continue;
		mlx5dm_fte_set(mask, (enum mlx5dm_fte_field)f, m);
		criteria |= (uint8_t)(1u << d->section);
	}
	for (k = 0; k < 2; k++) {
		enum mlx5dm_fte_field ipv = k == 0 ? MLX5DM_FTE(outer, ip_version) :
						     MLX5DM_FTE(inner, ip_version);
		uint32_t r = t_rand() % 3;

		mlx5dm_fte_set(mask, ipv, r == 0 ? 0 : r == 1 ? 4 : 6);
	}
	/* Sometimes a section more than the fields need. */
	criteria |= (uint8_t)(t_rand() % 32 & t_rand() % 32);
	return criteria | C_OUTER;
}

/* A random value inside the mask, with the mask's IP versions. */
static void
t_random_value(const uint8_t *mask, uint8_t *v)
{
	unsigned int i;

	for (i = 0; i < 448; i++)
		v[i] = (uint8_t)(t_rand() & mask[i]);
	/* Zero fields now and then: shared tag fields keep the one that is set. */
	for (i = 0; i < 448; i += 4)
		if (t_rand() % 4 == 0)
			memset(v + i, 0, 4);
	mlx5dm_fte_set(v, MLX5DM_FTE(outer, ip_version),
		       mlx5dm_fte_get(mask, MLX5DM_FTE(outer, ip_version)));
	mlx5dm_fte_set(v, MLX5DM_FTE(inner, ip_version),
		       mlx5dm_fte_get(mask, MLX5DM_FTE(inner, ip_version)));
}

static void
test_random_masks(void **state)
{
	struct mlx5dm_ste_builder b[MLX5DM_STE_MAX_BUILDERS];
	static struct mlx5dm_ste_tmpl t;
	uint8_t mask[448], v[448];
	unsigned int iter, tried = 0, compiled = 0, slow = 0, copies = 0;

	(void)state;
	for (iter = 0; compiled < 3000 && tried < 200000; iter++) {
		uint8_t criteria = t_random_mask(mask);
		unsigned int n = 0, k;

		tried++;
		if (t_compile(mask, criteria, b, &n, &t) < 0)
			continue;
		compiled++;
		slow += t.n_slow;
		copies += t.n_copy;
		for (k = 0; k < 8; k++) {
			const char *field;
			unsigned int i;

			t_random_value(mask, v);
			assert_true(mlx5dm_ste_tmpl_value_ok(&t, v));
			assert_int_equal(mlx5dm_ste_check_value(mask, v, criteria, &field), 0);
			t_same_stes(&t, b, n, v);
			/* One random bit flipped: both checks give the same verdict. */
			i = t_rand() % (448 * 8);
			v[i / 8] ^= (uint8_t)(1u << (i % 8));
			assert_int_equal(mlx5dm_ste_tmpl_value_ok(&t, v),
					 mlx5dm_ste_check_value(mask, v, criteria, &field) == 0);
		}
	}
	/* The random masks really exercised every kind of entry. */
	assert_true(compiled >= 3000);
	assert_true(slow > 0);
	assert_true(copies > 0);
}

/* Every map entry is generic when fields share tag bits (TCP and UDP ports). */
static void
test_shared_fields(void **state)
{
	struct mlx5dm_ste_builder b[MLX5DM_STE_MAX_BUILDERS];
	static struct mlx5dm_ste_tmpl t;
	uint8_t mask[448] = { 0 }, v[448] = { 0 };
	uint8_t arr[MLX5DM_STE_MAX_BUILDERS * MLX5DM_STE_SIZE];
	unsigned int n = 0;

	(void)state;
	T_PUT(mask, T_OUTER, S_IP_VERSION, 4);
	T_PUT(mask, T_OUTER, S_TCP_SPORT, 0xffff);
	T_PUT(mask, T_OUTER, S_UDP_SPORT, 0xffff);
	assert_int_equal(t_compile(mask, C_OUTER, b, &n, &t), 0);
	assert_true(t.n_slow >= 2);
	T_PUT(v, T_OUTER, S_IP_VERSION, 4);
	T_PUT(v, T_OUTER, S_UDP_SPORT, 0x4321);
	assert_int_equal(mlx5dm_ste_tmpl_build(&t, v, arr), 0);
	/* The UDP port lands in the shared source-port field; the zero TCP port keeps it. */
	assert_int_equal(mlx5dm_prm_get(arr + (n - 1) * MLX5DM_STE_SIZE + MLX5DM_STE_TAG_OFF,
					T5_SPORT), 0x4321);
	t_same_stes(&t, b, n, v);
	T_PUT(v, T_OUTER, S_UDP_SPORT, 0);
	T_PUT(v, T_OUTER, S_TCP_SPORT, 0x0102);
	t_same_stes(&t, b, n, v);
}

/*
 * A tag template's entries from its sources are those of the value that
 * has the example's bytes but for the moved ones, taken from the sources.
 */
static void
t_same_tag(const struct mlx5dm_ste_tag *tag, const struct mlx5dm_ste_builder *b, unsigned int n,
	   const uint8_t *example, const struct mlx5dm_ste_move *mv, unsigned int nb_mv,
	   const void *const src[])
{
	static uint8_t got[MLX5DM_STE_MAX_BUILDERS * MLX5DM_STE_SIZE];
	static uint8_t exp[MLX5DM_STE_MAX_BUILDERS * MLX5DM_STE_SIZE];
	uint8_t v[448];
	unsigned int i;

	memcpy(v, example, sizeof(v));
	for (i = 0; i < nb_mv; i++)
		memcpy(v + mv[i].to, (const uint8_t *)src[mv[i].src] + mv[i].from, mv[i].len);
	assert_int_equal(mlx5dm_ste_build_ste_arr(t_ctx(), b, n, v, MLX5DM_STE_DIR_RX, 0x21, exp),
			 0);
	memset(got, 0xa5, sizeof(got));
	mlx5dm_ste_tag_build(tag, src, got);
	t_assert_bytes(got, exp, (size_t)n * MLX5DM_STE_SIZE, "tag template STEs");
}

/*
 * The IPv4 5-tuple of test_ipv4_5tuple_literal() as a tag template: the
 * addresses from one source (an IPv4 header's last 8 bytes), the ports
 * from another (a UDP header): three moves, the ports' two merged.
 */
static void
test_tag_5tuple(void **state)
{
	struct mlx5dm_ste_builder b[MLX5DM_STE_MAX_BUILDERS];
	static struct mlx5dm_ste_tmpl t;
	static struct mlx5dm_ste_tag tag;
	uint8_t mask[448] = { 0 }, v[448] = { 0 };
	uint8_t arr[MLX5DM_STE_MAX_BUILDERS * MLX5DM_STE_SIZE];
	const uint8_t addrs[8] = { 192, 168, 0, 9, 10, 0, 0, 7 };
	const uint8_t ports[4] = { 0x12, 0x34, 0x12, 0xb5 };
	const void *const src[] = { addrs, ports };
	const struct mlx5dm_ste_move mv[] = {
		{ .src = 0, .from = 0, .to = 0x160 / 8, .len = 4 },
		{ .src = 0, .from = 4, .to = 0x1e0 / 8, .len = 4 },
		{ .src = 1, .from = 0, .to = 0x0e0 / 8, .len = 4 },
	};
	const uint8_t *lvl1;
	unsigned int n = 0;

	(void)state;
	t_5tuple(mask, v);
	assert_int_equal(t_compile(mask, C_OUTER, b, &n, &t), 0);
	assert_int_equal(mlx5dm_ste_tag_compile(&t, v, mv, T_DIM(mv), &tag), 0);
	assert_int_equal(tag.n, 2);
	assert_true(tag.n_move <= 3);
	mlx5dm_ste_tag_build(&tag, src, arr);
	/* Level 1 (IPv4 5-tuple): the sources' bytes at the fields' tag positions. */
	lvl1 = arr + MLX5DM_STE_SIZE + MLX5DM_STE_TAG_OFF;
	assert_int_equal(mlx5dm_prm_get(lvl1, T5_SRC), 0xc0a80009);
	assert_int_equal(mlx5dm_prm_get(lvl1, T5_DST), 0x0a000007);
	assert_int_equal(mlx5dm_prm_get(lvl1, T5_SPORT), 0x1234);
	assert_int_equal(mlx5dm_prm_get(lvl1, T5_DPORT), 0x12b5);
	assert_int_equal(mlx5dm_prm_get(lvl1, T5_PROTO), 17);
	assert_int_equal(mlx5dm_prm_get(arr + MLX5DM_STE_TAG_OFF, L2_L3_TYPE), 1);
	t_same_tag(&tag, b, n, v, mv, T_DIM(mv), src);
	/* A byte outside the mask (TTL), a part of the protocol's, beyond the value. */
	assert_int_equal(mlx5dm_ste_tag_compile(&t, v, &(struct mlx5dm_ste_move){
		.src = 0, .from = 0, .to = 0xd8 / 8, .len = 1 }, 1, &tag), -EOPNOTSUPP);
	assert_int_equal(mlx5dm_ste_tag_compile(&t, v, &(struct mlx5dm_ste_move){
		.src = 0, .from = 0, .to = 0x0f / 8, .len = 2 }, 1, &tag), -EOPNOTSUPP);
	assert_int_equal(mlx5dm_ste_tag_compile(&t, v, &(struct mlx5dm_ste_move){
		.src = 0, .from = 0, .to = 446, .len = 4 }, 1, &tag), -EINVAL);
	/* An example the matcher refuses (another IP version). */
	T_PUT(v, T_OUTER, S_IP_VERSION, 6);
	assert_int_equal(mlx5dm_ste_tag_compile(&t, v, mv, T_DIM(mv), &tag), -EINVAL);
}

/* Ports whose tag field TCP and UDP share (generic entries): not a tag template's. */
static void
test_tag_shared_fields(void **state)
{
	struct mlx5dm_ste_builder b[MLX5DM_STE_MAX_BUILDERS];
	static struct mlx5dm_ste_tmpl t;
	static struct mlx5dm_ste_tag tag;
	uint8_t mask[448] = { 0 }, v[448] = { 0 };
	const struct mlx5dm_ste_move sport = { .src = 0, .from = 0, .to = 0x0e0 / 8, .len = 2 };
	unsigned int n = 0;

	(void)state;
	T_PUT(mask, T_OUTER, S_IP_VERSION, 4);
	T_PUT(mask, T_OUTER, S_TCP_SPORT, 0xffff);
	T_PUT(mask, T_OUTER, S_UDP_SPORT, 0xffff);
	T_PUT(v, T_OUTER, S_IP_VERSION, 4);
	assert_int_equal(t_compile(mask, C_OUTER, b, &n, &t), 0);
	assert_int_equal(mlx5dm_ste_tag_compile(&t, v, &sport, 1, &tag), -EOPNOTSUPP);
	/* No move at all: every rule is the example. */
	assert_int_equal(mlx5dm_ste_tag_compile(&t, v, NULL, 0, &tag), 0);
	t_same_tag(&tag, b, n, v, NULL, 0, NULL);
}

/*
 * Random masks, examples and moves of runs of wholly masked bytes: a
 * template the composition takes builds the generic builder's STEs for
 * random sources (and some moves are refused: generic entries read them).
 */
static void
test_tag_random(void **state)
{
	struct mlx5dm_ste_builder b[MLX5DM_STE_MAX_BUILDERS];
	static struct mlx5dm_ste_tmpl t;
	static struct mlx5dm_ste_tag tag;
	static uint8_t srcs[4][448];
	const void *const src[] = { srcs[0], srcs[1], srcs[2], srcs[3] };
	struct mlx5dm_ste_move mv[8];
	uint8_t mask[448], v[448];
	unsigned int iter, taken = 0, refused = 0;

	(void)state;
	for (iter = 0; iter < 200000 && (taken < 1000 || refused < 100); iter++) {
		uint8_t criteria = t_random_mask(mask);
		unsigned int n = 0, nb = 0, k, i, j;
		int ret;

		if (t_compile(mask, criteria, b, &n, &t) < 0)
			continue;
		t_random_value(mask, v);
		/* Up to 8 runs of bytes whose mask is all ones, from random sources. */
		for (k = 0; k < 8 && nb < T_DIM(mv); k++) {
			unsigned int at = t_rand() % 448, len = 0;

			while (at + len < 448 && len < 8 && mask[at + len] == 0xff)
				len++;
			if (len == 0)
				continue;
			len = 1 + t_rand() % len;
			mv[nb++] = (struct mlx5dm_ste_move){ .src = (uint8_t)(t_rand() % 4),
				.from = (uint16_t)(t_rand() % (448 - len)), .to = (uint16_t)at,
				.len = (uint8_t)len };
		}
		if (nb == 0)
			continue;
		ret = mlx5dm_ste_tag_compile(&t, v, mv, nb, &tag);
		if (ret == -EOPNOTSUPP) {
			refused++;
			continue;
		}
		assert_int_equal(ret, 0);
		taken++;
		for (k = 0; k < 4; k++) {
			for (i = 0; i < 4; i++)
				for (j = 0; j < 448; j++)
					srcs[i][j] = (uint8_t)t_rand();
			t_same_tag(&tag, b, n, v, mv, nb, src);
		}
	}
	assert_true(taken >= 1000);
	assert_true(refused >= 100);
}

static void
test_bad_arguments(void **state)
{
	struct mlx5dm_ste_builder b[1];
	static struct mlx5dm_ste_tmpl t;
	uint8_t mask[448] = { 0 };

	(void)state;
	memset(b, 0, sizeof(b));
	assert_int_equal(mlx5dm_ste_tmpl_compile(NULL, b, 1, mask, 1, MLX5DM_STE_DIR_RX, 0, &t),
			 -EINVAL);
	assert_int_equal(mlx5dm_ste_tmpl_compile(t_ctx(), b, 0, mask, 1, MLX5DM_STE_DIR_RX, 0,
						 &t), -EINVAL);
	assert_int_equal(mlx5dm_ste_tmpl_compile(t_ctx(), b, MLX5DM_STE_MAX_BUILDERS + 1, mask,
						 1, MLX5DM_STE_DIR_RX, 0, &t), -EINVAL);
	assert_int_equal(mlx5dm_ste_tmpl_compile(t_ctx(), b, 1, mask, 0x80, MLX5DM_STE_DIR_RX,
						 0, &t), -EINVAL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ipv4_5tuple_literal),
		cmocka_unit_test(test_random_masks),
		cmocka_unit_test(test_shared_fields),
		cmocka_unit_test(test_tag_5tuple),
		cmocka_unit_test(test_tag_shared_fields),
		cmocka_unit_test(test_tag_random),
		cmocka_unit_test(test_bad_arguments),
	};

	return cmocka_run_group_tests_name("ste_tmpl", tests, NULL, NULL);
}
