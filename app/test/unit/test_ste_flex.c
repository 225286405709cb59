/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Flex-parser lookups: MPLS over GRE and MPLS over UDP. Where the header
 * lands is a device fact (its flex parser id p): FLEX_PARSER_0 (0x0111) for
 * p <= 3, FLEX_PARSER_1 (0x0112) otherwise, the whole MPLS header dword at
 * tag byte 4 * (3 - p % 4) (mlx5_ifc.h ste_flex_parser_0/1: parser 3/7
 * in DW0 ... parser 0/4 in DW3). Inputs are written at the misc2 offsets of
 * mlx5_ifc.h fte_match_param; expected masks and tags as literal bytes.
 */

#include <errno.h>

#include "test_ste_common.h"

/* dr_match_set_misc2: outer_first_mpls_over_gre (DW2) and _over_udp (DW3). */
#define M2_GRE_LABEL 0x040, 20
#define M2_GRE_EXP 0x054, 3
#define M2_GRE_S_BOS 0x057, 1
#define M2_GRE_TTL 0x058, 8
#define M2_UDP_LABEL 0x060, 20
#define M2_UDP_EXP 0x074, 3
#define M2_UDP_S_BOS 0x077, 1
#define M2_UDP_TTL 0x078, 8

/* flex_parser_protocols bits (PRM): MPLS over GRE 4, MPLS over UDP 5. */
#define P_GRE (1u << 4)
#define P_UDP (1u << 5)

/* A device: protocol bits, MPLS-over-GRE parser id, MPLS-over-UDP parser id. */
static struct mlx5dm_ste_dev_caps
t_dev(uint32_t protocols, uint8_t gre_id, uint8_t udp_id)
{
	struct mlx5dm_ste_dev_caps d = { .flex_protocols = protocols };

	d.flex_id[MLX5DM_STE_FLEX_MPLS_OVER_GRE] = gre_id;
	d.flex_id[MLX5DM_STE_FLEX_MPLS_OVER_UDP] = udp_id;
	return d;
}

/* One builder expected: lookup type, 16-byte bit mask, tag of the value, byte mask. */
static void
t_one(const struct mlx5dm_ste_dev_caps *dev, const uint8_t *m, const uint8_t *v,
      uint16_t lu_type, const uint8_t *exp_mask, const uint8_t *exp_tag, uint16_t byte_mask)
{
	struct mlx5dm_ste_builder b[MLX5DM_STE_MAX_BUILDERS];
	const char *err = "untouched";
	unsigned int n = 0;
	uint8_t tag[16];

	assert_int_equal(mlx5dm_ste_build_matcher(t_ctx(), dev, m, C_MISC2, MLX5DM_STE_DIR_RX, b,
						  MLX5DM_STE_MAX_BUILDERS, &n, &err), 0);
	assert_null(err);
	assert_int_equal(n, 1);
	assert_int_equal(b[0].lu_type, lu_type);
	t_assert_bytes(b[0].bit_mask, exp_mask, 16, "bit mask");
	assert_int_equal(b[0].byte_mask, byte_mask);
	assert_int_equal(b[0].byte_mask, t_byte_mask(exp_mask));
	assert_int_equal(mlx5dm_ste_check_value(m, v, C_MISC2, &err), 0);
	assert_int_equal(mlx5dm_ste_build_tag(&b[0], v, tag), 0);
	t_assert_bytes(tag, exp_tag, 16, "tag");
}

/* The contract device: MPLS over GRE at parser 3, every field of the header. */
static void
test_gre_parser3(void **state)
{
	const struct mlx5dm_ste_dev_caps dev = t_dev(P_GRE | P_UDP, 3, 4);
	uint8_t m[448] = { 0 }, v[448] = { 0 };
	/* Parser 3: FLEX_PARSER_0 DW0 = tag bytes 0..3. */
	const uint8_t mask[16] = { 0xff, 0xff, 0xff, 0xff };
	/* label 0x12345, exp 5, s 1, ttl 64: 0x12345 << 12 | 5 << 9 | 1 << 8 | 0x40. */
	const uint8_t tag[16] = { 0x12, 0x34, 0x5b, 0x40 };

	(void)state;
	T_PUT(m, T_MISC2, M2_GRE_LABEL, 0xfffff);
	T_PUT(m, T_MISC2, M2_GRE_EXP, 7);
	T_PUT(m, T_MISC2, M2_GRE_S_BOS, 1);
	T_PUT(m, T_MISC2, M2_GRE_TTL, 0xff);
	T_PUT(v, T_MISC2, M2_GRE_LABEL, 0x12345);
	T_PUT(v, T_MISC2, M2_GRE_EXP, 5);
	T_PUT(v, T_MISC2, M2_GRE_S_BOS, 1);
	T_PUT(v, T_MISC2, M2_GRE_TTL, 64);
	t_one(&dev, m, v, 0x0111, mask, tag, 0xf000);
}

/* The contract device: MPLS over UDP at parser 4, the label only. */
static void
test_udp_parser4(void **state)
{
	const struct mlx5dm_ste_dev_caps dev = t_dev(P_GRE | P_UDP, 3, 4);
	uint8_t m[448] = { 0 }, v[448] = { 0 };
	/* Parser 4: FLEX_PARSER_1 DW3 = tag bytes 12..15; label = bits 31..12. */
	const uint8_t mask[16] = { [12] = 0xff, [13] = 0xff, [14] = 0xf0 };
	const uint8_t tag[16] = { [12] = 0xab, [13] = 0xcd, [14] = 0xe0 };

	(void)state;
	T_PUT(m, T_MISC2, M2_UDP_LABEL, 0xfffff);
	T_PUT(v, T_MISC2, M2_UDP_LABEL, 0xabcde);
	t_one(&dev, m, v, 0x0112, mask, tag, 0x000c);
}

/* Parser 6 (FLEX_PARSER_1 DW1 = bytes 4..7): TTL and the S bit. */
static void
test_gre_parser6(void **state)
{
	const struct mlx5dm_ste_dev_caps dev = t_dev(P_GRE, 6, 0);
	uint8_t m[448] = { 0 }, v[448] = { 0 };
	const uint8_t mask[16] = { [6] = 0x01, [7] = 0xff };
	const uint8_t tag[16] = { [6] = 0x01, [7] = 0x7f };

	(void)state;
	T_PUT(m, T_MISC2, M2_GRE_S_BOS, 1);
	T_PUT(m, T_MISC2, M2_GRE_TTL, 0xff);
	T_PUT(v, T_MISC2, M2_GRE_S_BOS, 1);
	T_PUT(v, T_MISC2, M2_GRE_TTL, 0x7f);
	t_one(&dev, m, v, 0x0112, mask, tag, 0x0100);
}

/* Every parser id, both protocols: the lookup and the dword of the ste_flex_parser tables. */
static void
test_every_parser_id(void **state)
{
	static const struct {
		uint8_t id;
		uint16_t lu_type;
		unsigned int byte;	/* first tag byte of the parser's dword */
	} ids[] = {
		{ 0, 0x0111, 12 }, { 1, 0x0111, 8 }, { 2, 0x0111, 4 }, { 3, 0x0111, 0 },
		{ 4, 0x0112, 12 }, { 5, 0x0112, 8 }, { 6, 0x0112, 4 }, { 7, 0x0112, 0 },
	};
	unsigned int i, proto;

	(void)state;
	for (proto = 0; proto < 2; proto++) {
		for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
			const struct mlx5dm_ste_dev_caps dev = t_dev(P_GRE | P_UDP, ids[i].id,
								     ids[i].id);
			uint8_t m[448] = { 0 }, v[448] = { 0 };
			uint8_t mask[16] = { 0 }, tag[16] = { 0 };
			const unsigned int k = ids[i].byte;

			fprintf(stderr, "%s parser %u\n", proto ? "udp" : "gre", ids[i].id);
			/* label 0x00001 exp 2 s 0 ttl 0x10: dword 0x00001410. */
			if (proto == 0) {
				T_PUT(m, T_MISC2, M2_GRE_LABEL, 0xfffff);
				T_PUT(m, T_MISC2, M2_GRE_EXP, 7);
				T_PUT(m, T_MISC2, M2_GRE_TTL, 0xff);
				T_PUT(v, T_MISC2, M2_GRE_LABEL, 1);
				T_PUT(v, T_MISC2, M2_GRE_EXP, 2);
				T_PUT(v, T_MISC2, M2_GRE_TTL, 0x10);
			} else {
				T_PUT(m, T_MISC2, M2_UDP_LABEL, 0xfffff);
				T_PUT(m, T_MISC2, M2_UDP_EXP, 7);
				T_PUT(m, T_MISC2, M2_UDP_TTL, 0xff);
				T_PUT(v, T_MISC2, M2_UDP_LABEL, 1);
				T_PUT(v, T_MISC2, M2_UDP_EXP, 2);
				T_PUT(v, T_MISC2, M2_UDP_TTL, 0x10);
			}
			/* Mask dword 0xfffffeff (all but the S bit). */
			mask[k] = 0xff;
			mask[k + 1] = 0xff;
			mask[k + 2] = 0xfe;
			mask[k + 3] = 0xff;
			tag[k + 2] = 0x14;
			tag[k + 3] = 0x10;
			t_one(&dev, m, v, ids[i].lu_type, mask, tag,
			      (uint16_t)(0xd000 >> k));
		}
	}
}

/* MPLS over GRE, MPLS, ICMP and GRE: the order of rdma-core's dr_matcher.c. */
static void
test_order(void **state)
{
	const struct mlx5dm_ste_dev_caps dev = t_dev(P_GRE | P_UDP, 3, 4);
	const uint16_t want[] = { 0x010b, 0x0111, 0x0113, 0x010d };
	struct mlx5dm_ste_builder b[MLX5DM_STE_MAX_BUILDERS];
	uint8_t m[448] = { 0 };
	const char *err;
	unsigned int n, i;

	(void)state;
	T_PUT(m, T_MISC, M_GRE_PROTOCOL, 0xffff);
	T_PUT(m, T_MISC3, M3_ICMP_CODE, 0xff);
	T_PUT(m, T_MISC2, M2_GRE_LABEL, 0xfffff);
	T_PUT(m, T_MISC2, M2_OUTER_MPLS_TTL, 0xff);
	assert_int_equal(mlx5dm_ste_build_matcher(t_ctx(), &dev, m, C_MISC | C_MISC2 | C_MISC3,
						  MLX5DM_STE_DIR_RX, b, MLX5DM_STE_MAX_BUILDERS,
						  &n, &err), 0);
	assert_int_equal(n, sizeof(want) / sizeof(want[0]));
	for (i = 0; i < n; i++) {
		assert_int_equal(b[i].lu_type, want[i]);
		assert_false(b[i].inner);
	}
	assert_string_equal(mlx5dm_ste_lookup_name(b[1].lookup), "MPLS_OVER_GRE");
	/* The UDP one alone takes its own flex lookup, at the same place. */
	memset(m, 0, sizeof(m));
	T_PUT(m, T_MISC2, M2_UDP_TTL, 0xff);
	T_PUT(m, T_MISC2, M2_OUTER_MPLS_TTL, 0xff);
	assert_int_equal(mlx5dm_ste_build_matcher(t_ctx(), &dev, m, C_MISC2, MLX5DM_STE_DIR_RX,
						  b, MLX5DM_STE_MAX_BUILDERS, &n, &err), 0);
	assert_int_equal(n, 2);
	assert_int_equal(b[0].lu_type, 0x010b);
	assert_int_equal(b[1].lu_type, 0x0112);
	/* Both: no packet carries MPLS over GRE and over UDP; the UDP fields are refused. */
	T_PUT(m, T_MISC2, M2_GRE_LABEL, 0xfffff);
	err = NULL;
	assert_int_equal(mlx5dm_ste_build_matcher(t_ctx(), &dev, m, C_MISC2, MLX5DM_STE_DIR_RX,
						  b, MLX5DM_STE_MAX_BUILDERS, &n, &err),
			 -EOPNOTSUPP);
	assert_string_equal(err, "misc2.outer_first_mpls_over_udp_ttl");
}

/* Without the device's protocol bit (or a usable id) the fields are refused, named. */
static void
test_refused(void **state)
{
	static const struct {
		uint32_t protocols;
		uint8_t gre_id, udp_id;
		bool gre;		/* mask the GRE field (else the UDP one) */
		const char *field;
	} cases[] = {
		{ 0, 3, 4, true, "misc2.outer_first_mpls_over_gre_label" },
		{ P_UDP, 3, 4, true, "misc2.outer_first_mpls_over_gre_label" },
		{ 0, 3, 4, false, "misc2.outer_first_mpls_over_udp_label" },
		{ P_GRE, 3, 4, false, "misc2.outer_first_mpls_over_udp_label" },
		/* A parser id the two flex lookups cannot reach (the cap is 4 bits). */
		{ P_GRE | P_UDP, 8, 4, true, "misc2.outer_first_mpls_over_gre_label" },
		{ P_GRE | P_UDP, 3, 15, false, "misc2.outer_first_mpls_over_udp_label" },
	};
	struct mlx5dm_ste_builder b[MLX5DM_STE_MAX_BUILDERS];
	unsigned int i, n;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct mlx5dm_ste_dev_caps dev = t_dev(cases[i].protocols, cases[i].gre_id,
							     cases[i].udp_id);
		uint8_t m[448] = { 0 };
		const char *err = NULL;

		if (cases[i].gre)
			T_PUT(m, T_MISC2, M2_GRE_LABEL, 0xfffff);
		else
			T_PUT(m, T_MISC2, M2_UDP_LABEL, 0xfffff);
		assert_int_equal(mlx5dm_ste_build_matcher(t_ctx(), &dev, m, C_MISC2,
							  MLX5DM_STE_DIR_RX, b,
							  MLX5DM_STE_MAX_BUILDERS, &n, &err),
				 -EOPNOTSUPP);
		assert_non_null(err);
		assert_string_equal(err, cases[i].field);
	}
	/* No device facts at all: as a device without the protocols. */
	{
		uint8_t m[448] = { 0 };
		const char *err = NULL;

		T_PUT(m, T_MISC2, M2_GRE_TTL, 0xff);
		assert_int_equal(mlx5dm_ste_build_matcher(t_ctx(), NULL, m, C_MISC2,
							  MLX5DM_STE_DIR_RX, b,
							  MLX5DM_STE_MAX_BUILDERS, &n, &err),
				 -EOPNOTSUPP);
		assert_string_equal(err, "misc2.outer_first_mpls_over_gre_ttl");
	}
}

/*
 * The rule's STEs: the flex lookup chained after MPLS (next lookup type and
 * byte mask in the control), and the template build giving the same bytes.
 */
static void
test_chain_and_template(void **state)
{
	const struct mlx5dm_ste_dev_caps dev = t_dev(P_GRE | P_UDP, 3, 4);
	const struct mlx5dm_ste_ctx *ctx = t_ctx();
	struct mlx5dm_ste_builder b[MLX5DM_STE_MAX_BUILDERS];
	static struct mlx5dm_ste_tmpl t;
	uint8_t m[448] = { 0 }, v[448] = { 0 };
	uint8_t arr[2 * 64], tarr[2 * 64];
	const uint8_t tag1[16] = { [12] = 0x00, [13] = 0x06, [14] = 0x41, [15] = 0x05 };
	unsigned int n;
	const char *err;

	(void)state;
	T_PUT(m, T_MISC2, M2_OUTER_MPLS_TTL, 0xff);
	T_PUT(m, T_MISC2, M2_UDP_LABEL, 0xfffff);
	T_PUT(m, T_MISC2, M2_UDP_S_BOS, 1);
	T_PUT(m, T_MISC2, M2_UDP_TTL, 0xff);
	T_PUT(v, T_MISC2, M2_OUTER_MPLS_TTL, 9);
	T_PUT(v, T_MISC2, M2_UDP_LABEL, 100);
	T_PUT(v, T_MISC2, M2_UDP_S_BOS, 1);
	T_PUT(v, T_MISC2, M2_UDP_TTL, 5);
	assert_int_equal(mlx5dm_ste_build_matcher(ctx, &dev, m, C_MISC2, MLX5DM_STE_DIR_RX, b,
						  MLX5DM_STE_MAX_BUILDERS, &n, &err), 0);
	assert_int_equal(n, 2);
	assert_int_equal(b[1].lu_type, 0x0112);
	/* Bytes 12, 13 and 15 whole (label high bits, TTL); byte 14 has 4 label bits + S. */
	assert_int_equal(b[1].byte_mask, 0x000d);
	assert_int_equal(mlx5dm_ste_build_ste_arr(ctx, b, n, v, MLX5DM_STE_DIR_RX, 0x21, arr), 0);
	/* STE 0 (MPLS) points the lookup at FLEX_PARSER_1 hashed on bytes 12, 13, 15. */
	assert_int_equal(ctx->get_next_lu_type(arr), 0x0112);
	assert_int_equal(ctx->get_byte_mask(arr), 0x000d);
	/* label 100 << 12 | 1 << 8 | 5 = 0x00064105. */
	t_assert_bytes(arr + 64 + MLX5DM_STE_TAG_OFF, tag1, 16, "flex STE tag");
	assert_int_equal(mlx5dm_ste_tmpl_compile(ctx, b, n, m, C_MISC2, MLX5DM_STE_DIR_RX, 0x21,
						 &t), 0);
	assert_true(mlx5dm_ste_tmpl_value_ok(&t, v));
	assert_int_equal(mlx5dm_ste_tmpl_build(&t, v, tarr), 0);
	t_assert_bytes(tarr, arr, sizeof(arr), "template STEs");
	/* A label bit outside the mask is refused by both value checks. */
	T_PUT(v, T_MISC2, M2_GRE_LABEL, 1);
	assert_false(mlx5dm_ste_tmpl_value_ok(&t, v));
	assert_int_equal(mlx5dm_ste_check_value(m, v, C_MISC2, &err), -EINVAL);
	assert_string_equal(err, "misc2.outer_first_mpls_over_gre_label");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gre_parser3),
		cmocka_unit_test(test_udp_parser4),
		cmocka_unit_test(test_gre_parser6),
		cmocka_unit_test(test_every_parser_id),
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_chain_and_template),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
