/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Builders: which lookups a mask selects (and in which order), their bit
 * masks, byte masks and the tags of rule values. Masks and values are
 * written at fte_match_param offsets of STE_LAYOUTS.md section I; expected
 * tags/masks at the v1 tag offsets of sections F and G, as literal numbers
 * (never through the library's layout tables).
 */

#include <errno.h>

#include "test_ste_common.h"

/* v1 tag fields: bit offset, width (STE_LAYOUTS.md F/G). */
#define L2SD_DMAC_47_16 0x000, 32
#define L2SD_SMAC_47_16 0x020, 32
#define L2SD_DMAC_15_0 0x040, 16
#define L2SD_L3_TYPE 0x05a, 2
#define L2SD_VLAN_QUAL 0x05e, 2
#define L2SD_PRIO 0x060, 3
#define L2SD_VID 0x064, 12
#define L2SD_SMAC_15_0 0x070, 16

#define L2_IP_FRAG 0x003, 1
#define L2_L3_TYPE 0x00a, 2
#define L2_VLAN_QUAL 0x00e, 2
#define L2_VID 0x014, 12
#define L2_MAC_47_16 0x020, 32
#define L2_MAC_15_0 0x040, 16
#define L2_ETHERTYPE 0x050, 16
#define L2_VLAN2_QUAL 0x06e, 2
#define L2_VLAN2_PRIO 0x070, 3
#define L2_VLAN2_VID 0x074, 12

#define TNL_NETWORK_ID 0x000, 32
#define TNL_DMAC_47_16 0x020, 32
#define TNL_DMAC_15_0 0x040, 16
#define TNL_L3_TYPE 0x06a, 2

#define T5_SRC 0x000, 32
#define T5_DST 0x020, 32
#define T5_SPORT 0x040, 16
#define T5_DPORT 0x050, 16
#define T5_FRAG 0x066, 1
#define T5_TCP_NS 0x067, 1
#define T5_TCP_ACK 0x06b, 1
#define T5_TCP_SYN 0x06e, 1
#define T5_TCP_FIN 0x06f, 1
#define T5_DSCP 0x070, 6
#define T5_ECN 0x076, 2
#define T5_PROTO 0x078, 8

#define MISC4_IHL 0x044, 4
#define MISC4_TTL 0x048, 8

#define L4_HOP_LIMIT 0x010, 8
#define L4_PROTO 0x018, 8
#define L4_SPORT 0x020, 16
#define L4_DPORT 0x030, 16
#define L4_FLOW_LABEL 0x04c, 20
#define L4_TCP_RST 0x06d, 1

#define L4M_ACK 0x020, 32
#define L4M_SEQ 0x040, 32

#define MPLS_LABEL 0x020, 20
#define MPLS_EXP 0x034, 3
#define MPLS_S_BOS 0x037, 1
#define MPLS_TTL 0x038, 8

#define GRE_C 0x000, 1
#define GRE_K 0x002, 1
#define GRE_S 0x003, 1
#define GRE_PROTO 0x010, 16
#define GRE_KEY_H 0x040, 24
#define GRE_KEY_L 0x058, 8

#define DW(i) (0x20 * (i)), 32

#define TAG_PUT_(b, w, buf, v) mlx5dm_prm_set64((buf), (b), (w), (v))
#define TAG_PUT(buf, f, v) TAG_PUT_(f, buf, v)

/* What one builder is expected to be. */
struct exp_builder {
	uint16_t lu_type;
	uint8_t mask[16];
	uint8_t tag[16];
};

/* Test-side byte mask: bit 15 - i set iff mask byte i is 0xff. */
static uint16_t
t_byte_mask(const uint8_t *m)
{
	uint16_t bm = 0;
	int i;

	for (i = 0; i < 16; i++)
		if (m[i] == 0xff)
			bm |= (uint16_t)(1u << (15 - i));
	return bm;
}

/* Build the matcher and compare every builder with the expectation. */
static void
t_check(const uint8_t *mask, const uint8_t *value, uint8_t criteria,
	const struct exp_builder *exp, unsigned int n_exp)
{
	const struct mlx5dm_ste_ctx *ctx = t_ctx();
	struct mlx5dm_ste_builder b[MLX5DM_STE_MAX_BUILDERS];
	const char *err_field = "untouched";
	unsigned int n = 0, i;
	uint8_t tag[16];
	char what[64];

	assert_int_equal(mlx5dm_ste_build_matcher(ctx, mask, criteria, MLX5DM_STE_DIR_RX, b,
						  MLX5DM_STE_MAX_BUILDERS, &n, &err_field), 0);
	assert_null(err_field);
	assert_int_equal(mlx5dm_ste_check_value(mask, value, criteria, &err_field), 0);
	if (n != n_exp) {
		for (i = 0; i < n; i++)
			fprintf(stderr, "builder %u: %s 0x%04x\n", i,
				mlx5dm_ste_lookup_name(b[i].lookup), b[i].lu_type);
	}
	assert_int_equal(n, n_exp);
	for (i = 0; i < n; i++) {
		snprintf(what, sizeof(what), "builder %u (%s) mask", i,
			 mlx5dm_ste_lookup_name(b[i].lookup));
		assert_int_equal(b[i].lu_type, exp[i].lu_type);
		t_assert_bytes(b[i].bit_mask, exp[i].mask, 16, what);
		assert_int_equal(b[i].byte_mask, t_byte_mask(exp[i].mask));
		assert_int_equal(mlx5dm_ste_build_tag(&b[i], value, tag), 0);
		snprintf(what, sizeof(what), "builder %u (%s) tag", i,
			 mlx5dm_ste_lookup_name(b[i].lookup));
		t_assert_bytes(tag, exp[i].tag, 16, what);
	}
}

static void
test_l2_src_dst(void **state)
{
	uint8_t m[448] = { 0 }, v[448] = { 0 };
	/* Hand-derived bytes, see below. */
	const struct exp_builder exp = {
		.lu_type = 0x000b,
		.mask = {
			0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
			0xff, 0xff, 0x00, 0x33, 0x0f, 0xff, 0xff, 0xff,
		},
		.tag = {
			0x66, 0x77, 0x88, 0x99, 0x00, 0x11, 0x22, 0x33,
			0xaa, 0xbb, 0x00, 0x12, 0x01, 0x23, 0x44, 0x55,
		},
	};
	const char *err;
	struct mlx5dm_ste_builder b[4];
	unsigned int n;

	(void)state;
	T_PUT(m, T_OUTER, S_SMAC_47_16, 0xffffffff);
	T_PUT(m, T_OUTER, S_SMAC_15_0, 0xffff);
	T_PUT(m, T_OUTER, S_DMAC_47_16, 0xffffffff);
	T_PUT(m, T_OUTER, S_DMAC_15_0, 0xffff);
	T_PUT(m, T_OUTER, S_FIRST_VID, 0xfff);
	T_PUT(m, T_OUTER, S_CVLAN_TAG, 1);
	T_PUT(m, T_OUTER, S_IP_VERSION, 4);
	T_PUT(v, T_OUTER, S_SMAC_47_16, 0x00112233);
	T_PUT(v, T_OUTER, S_SMAC_15_0, 0x4455);
	T_PUT(v, T_OUTER, S_DMAC_47_16, 0x66778899);
	T_PUT(v, T_OUTER, S_DMAC_15_0, 0xaabb);
	T_PUT(v, T_OUTER, S_FIRST_VID, 0x123);
	T_PUT(v, T_OUTER, S_CVLAN_TAG, 1);
	T_PUT(v, T_OUTER, S_IP_VERSION, 4);
	/*
	 * Tag: dmac[47:16] | smac[47:16] | dmac[15:0] | byte 10 = 0 |
	 * byte 11 = l3_type 1 (bits 5:4) + qualifier C-VLAN 2 (bits 1:0) |
	 * prio/cfi/vid[11:8] = 0x01, vid[7:0] = 0x23 | smac[15:0].
	 * Byte mask: bytes 0..9, 13, 14, 15 are all ones -> 0xffc7.
	 */
	t_check(m, v, C_OUTER, &exp, 1);
	assert_int_equal(mlx5dm_ste_build_matcher(t_ctx(), m, C_OUTER, MLX5DM_STE_DIR_TX, b, 4,
						  &n, &err), 0);
	assert_int_equal(b[0].byte_mask, 0xffc7);
	/* The same mask on the inner headers: the _I lookup. */
	memset(m, 0, sizeof(m));
	T_PUT(m, T_INNER, S_SMAC_47_16, 0xffffffff);
	T_PUT(m, T_INNER, S_DMAC_15_0, 0xffff);
	assert_int_equal(mlx5dm_ste_build_matcher(t_ctx(), m, C_INNER, MLX5DM_STE_DIR_RX, b, 4,
						  &n, &err), 0);
	assert_int_equal(n, 1);
	assert_int_equal(b[0].lu_type, 0x000c);
	assert_true(b[0].inner);
}

static void
test_l2_src(void **state)
{
	uint8_t m[448] = { 0 }, v[448] = { 0 };
	struct exp_builder exp[1] = { { .lu_type = 0x0005 } };

	(void)state;
	/* SMAC without DMAC, plus ethertype: one ETHL2_SRC takes both. */
	T_PUT(m, T_OUTER, S_SMAC_47_16, 0xffffffff);
	T_PUT(m, T_OUTER, S_SMAC_15_0, 0xff00);
	T_PUT(m, T_OUTER, S_ETHERTYPE, 0xffff);
	T_PUT(v, T_OUTER, S_SMAC_47_16, 0x02000000);
	T_PUT(v, T_OUTER, S_SMAC_15_0, 0x0100);
	T_PUT(v, T_OUTER, S_ETHERTYPE, 0x86dd);
	TAG_PUT(exp[0].mask, L2_MAC_47_16, 0xffffffff);
	TAG_PUT(exp[0].mask, L2_MAC_15_0, 0xff00);
	TAG_PUT(exp[0].mask, L2_ETHERTYPE, 0xffff);
	TAG_PUT(exp[0].tag, L2_MAC_47_16, 0x02000000);
	TAG_PUT(exp[0].tag, L2_MAC_15_0, 0x0100);
	TAG_PUT(exp[0].tag, L2_ETHERTYPE, 0x86dd);
	t_check(m, v, C_OUTER, exp, 1);
	/* Inner: ETHL2_SRC_I. */
	memset(m, 0, sizeof(m));
	memset(v, 0, sizeof(v));
	T_PUT(m, T_INNER, S_SMAC_47_16, 0xffffffff);
	T_PUT(m, T_INNER, S_SMAC_15_0, 0xff00);
	T_PUT(m, T_INNER, S_ETHERTYPE, 0xffff);
	T_PUT(v, T_INNER, S_SMAC_47_16, 0x02000000);
	T_PUT(v, T_INNER, S_SMAC_15_0, 0x0100);
	T_PUT(v, T_INNER, S_ETHERTYPE, 0x86dd);
	exp[0].lu_type = 0x0006;
	t_check(m, v, C_INNER, exp, 1);
}

static void
test_l2_dst_vlans(void **state)
{
	uint8_t m[448] = { 0 }, v[448] = { 0 };
	struct exp_builder exp[1] = { { .lu_type = 0x0003 } };

	(void)state;
	/* DMAC, fragment bit, both VLAN qualifiers and the second VLAN. */
	T_PUT(m, T_OUTER, S_DMAC_47_16, 0xffffffff);
	T_PUT(m, T_OUTER, S_DMAC_15_0, 0xffff);
	T_PUT(m, T_OUTER, S_FRAG, 1);
	T_PUT(m, T_OUTER, S_SVLAN_TAG, 1);
	T_PUT(m, T_MISC, M_OUTER_SECOND_VID, 0xfff);
	T_PUT(m, T_MISC, M_OUTER_SECOND_PRIO, 0x7);
	T_PUT(m, T_MISC, M_OUTER_SECOND_CVLAN_TAG, 1);
	T_PUT(m, T_MISC, M_OUTER_SECOND_SVLAN_TAG, 1);
	T_PUT(v, T_OUTER, S_DMAC_47_16, 0x01005e00);
	T_PUT(v, T_OUTER, S_DMAC_15_0, 0x00fb);
	T_PUT(v, T_OUTER, S_FRAG, 1);
	T_PUT(v, T_OUTER, S_SVLAN_TAG, 1);
	T_PUT(v, T_MISC, M_OUTER_SECOND_VID, 0xabc);
	T_PUT(v, T_MISC, M_OUTER_SECOND_PRIO, 5);
	T_PUT(v, T_MISC, M_OUTER_SECOND_CVLAN_TAG, 1);
	TAG_PUT(exp[0].mask, L2_MAC_47_16, 0xffffffff);
	TAG_PUT(exp[0].mask, L2_MAC_15_0, 0xffff);
	TAG_PUT(exp[0].mask, L2_IP_FRAG, 1);
	TAG_PUT(exp[0].mask, L2_VLAN_QUAL, 3);
	TAG_PUT(exp[0].mask, L2_VLAN2_QUAL, 3);
	TAG_PUT(exp[0].mask, L2_VLAN2_PRIO, 7);
	TAG_PUT(exp[0].mask, L2_VLAN2_VID, 0xfff);
	TAG_PUT(exp[0].tag, L2_MAC_47_16, 0x01005e00);
	TAG_PUT(exp[0].tag, L2_MAC_15_0, 0x00fb);
	TAG_PUT(exp[0].tag, L2_IP_FRAG, 1);
	TAG_PUT(exp[0].tag, L2_VLAN_QUAL, 1);		/* S-VLAN */
	TAG_PUT(exp[0].tag, L2_VLAN2_QUAL, 2);		/* C-VLAN */
	TAG_PUT(exp[0].tag, L2_VLAN2_PRIO, 5);
	TAG_PUT(exp[0].tag, L2_VLAN2_VID, 0xabc);
	t_check(m, v, C_OUTER | C_MISC, exp, 1);
	/* Inner with the inner second VLAN: ETHL2_I. */
	memset(m, 0, sizeof(m));
	memset(v, 0, sizeof(v));
	memset(&exp[0], 0, sizeof(exp[0]));
	exp[0].lu_type = 0x0004;
	T_PUT(m, T_INNER, S_FIRST_VID, 0xfff);
	T_PUT(m, T_MISC, M_INNER_SECOND_VID, 0x0ff);
	T_PUT(m, T_MISC, M_INNER_SECOND_CVLAN_TAG, 1);
	T_PUT(v, T_INNER, S_FIRST_VID, 0x064);
	T_PUT(v, T_MISC, M_INNER_SECOND_VID, 0x012);
	T_PUT(v, T_MISC, M_INNER_SECOND_CVLAN_TAG, 1);
	TAG_PUT(exp[0].mask, L2_VID, 0xfff);
	TAG_PUT(exp[0].mask, L2_VLAN2_VID, 0x0ff);
	TAG_PUT(exp[0].mask, L2_VLAN2_QUAL, 3);
	TAG_PUT(exp[0].tag, L2_VID, 0x064);
	TAG_PUT(exp[0].tag, L2_VLAN2_VID, 0x012);
	TAG_PUT(exp[0].tag, L2_VLAN2_QUAL, 2);
	t_check(m, v, C_INNER | C_MISC, exp, 1);
}

/* IPv4 matcher: l3_type (ETHL2), TTL/IHL (IPV4_MISC), then the 5-tuple. */
static void
test_ipv4(void **state)
{
	uint8_t m[448] = { 0 }, v[448] = { 0 };
	struct exp_builder exp[3] = {
		{ .lu_type = 0x0003 }, { .lu_type = 0x000d }, { .lu_type = 0x0007 },
	};

	(void)state;
	T_PUT(m, T_OUTER, S_IP_VERSION, 4);
	T_PUT(m, T_OUTER, S_SRC_IP_31_0, 0xffffffff);
	T_PUT(m, T_OUTER, S_DST_IP_31_0, 0xffffff00);
	T_PUT(m, T_OUTER, S_TCP_SPORT, 0xffff);
	T_PUT(m, T_OUTER, S_TCP_DPORT, 0xffff);
	T_PUT(m, T_OUTER, S_IP_PROTOCOL, 0xff);
	T_PUT(m, T_OUTER, S_TCP_FLAGS, 0x1ff);
	T_PUT(m, T_OUTER, S_IP_DSCP, 0x3f);
	T_PUT(m, T_OUTER, S_IP_ECN, 0x3);
	T_PUT(m, T_OUTER, S_FRAG, 1);
	T_PUT(m, T_OUTER, S_TTL, 0xff);
	T_PUT(m, T_OUTER, S_IPV4_IHL, 0xf);
	T_PUT(v, T_OUTER, S_IP_VERSION, 4);
	T_PUT(v, T_OUTER, S_SRC_IP_31_0, 0x0a000001);
	T_PUT(v, T_OUTER, S_DST_IP_31_0, 0xc0a80100);
	T_PUT(v, T_OUTER, S_TCP_SPORT, 1234);
	T_PUT(v, T_OUTER, S_TCP_DPORT, 80);
	T_PUT(v, T_OUTER, S_IP_PROTOCOL, 6);
	T_PUT(v, T_OUTER, S_TCP_FLAGS, 0x113);	/* NS | ACK | SYN | FIN */
	T_PUT(v, T_OUTER, S_IP_DSCP, 0x2e);
	T_PUT(v, T_OUTER, S_IP_ECN, 1);
	T_PUT(v, T_OUTER, S_TTL, 64);
	T_PUT(v, T_OUTER, S_IPV4_IHL, 5);
	/* ETHL2 takes ip_version (as l3_type) and, being first, the fragment bit. */
	TAG_PUT(exp[0].mask, L2_L3_TYPE, 3);
	TAG_PUT(exp[0].mask, L2_IP_FRAG, 1);
	TAG_PUT(exp[0].tag, L2_L3_TYPE, 1);
	TAG_PUT(exp[0].tag, L2_IP_FRAG, 0);
	TAG_PUT(exp[1].mask, MISC4_TTL, 0xff);
	TAG_PUT(exp[1].mask, MISC4_IHL, 0xf);
	TAG_PUT(exp[1].tag, MISC4_TTL, 64);
	TAG_PUT(exp[1].tag, MISC4_IHL, 5);
	TAG_PUT(exp[2].mask, T5_SRC, 0xffffffff);
	TAG_PUT(exp[2].mask, T5_DST, 0xffffff00);
	TAG_PUT(exp[2].mask, T5_SPORT, 0xffff);
	TAG_PUT(exp[2].mask, T5_DPORT, 0xffff);
	TAG_PUT(exp[2].mask, T5_PROTO, 0xff);
	TAG_PUT(exp[2].mask, T5_DSCP, 0x3f);
	TAG_PUT(exp[2].mask, T5_ECN, 3);
	mlx5dm_prm_set64(exp[2].mask, 0x067, 9, 0x1ff);	/* tcp_ns .. tcp_fin */
	TAG_PUT(exp[2].tag, T5_SRC, 0x0a000001);
	TAG_PUT(exp[2].tag, T5_DST, 0xc0a80100);
	TAG_PUT(exp[2].tag, T5_SPORT, 1234);
	TAG_PUT(exp[2].tag, T5_DPORT, 80);
	TAG_PUT(exp[2].tag, T5_PROTO, 6);
	TAG_PUT(exp[2].tag, T5_DSCP, 0x2e);
	TAG_PUT(exp[2].tag, T5_ECN, 1);
	TAG_PUT(exp[2].tag, T5_TCP_NS, 1);
	TAG_PUT(exp[2].tag, T5_TCP_ACK, 1);
	TAG_PUT(exp[2].tag, T5_TCP_SYN, 1);
	TAG_PUT(exp[2].tag, T5_TCP_FIN, 1);
	t_check(m, v, C_OUTER, exp, 3);
}

/* Without an L2 lookup in front, the 5-tuple takes the fragment bit itself. */
static void
test_ipv4_inner_udp(void **state)
{
	uint8_t m[448] = { 0 }, v[448] = { 0 };
	struct exp_builder exp[2] = { { .lu_type = 0x0004 }, { .lu_type = 0x0008 } };

	(void)state;
	T_PUT(m, T_INNER, S_IP_VERSION, 4);
	T_PUT(m, T_INNER, S_UDP_DPORT, 0xffff);
	T_PUT(m, T_INNER, S_UDP_SPORT, 0xff00);
	T_PUT(v, T_INNER, S_IP_VERSION, 4);
	T_PUT(v, T_INNER, S_UDP_DPORT, 4789);
	T_PUT(v, T_INNER, S_UDP_SPORT, 0x1200);
	TAG_PUT(exp[0].mask, L2_L3_TYPE, 3);
	TAG_PUT(exp[0].tag, L2_L3_TYPE, 1);
	TAG_PUT(exp[1].mask, T5_DPORT, 0xffff);
	TAG_PUT(exp[1].mask, T5_SPORT, 0xff00);
	TAG_PUT(exp[1].tag, T5_DPORT, 4789);
	TAG_PUT(exp[1].tag, T5_SPORT, 0x1200);
	t_check(m, v, C_INNER, exp, 2);
}

static void
test_ipv6(void **state)
{
	uint8_t m[448] = { 0 }, v[448] = { 0 };
	struct exp_builder exp[4] = {
		{ .lu_type = 0x0003 }, { .lu_type = 0x0107 }, { .lu_type = 0x0109 },
		{ .lu_type = 0x0009 },
	};
	unsigned int i;

	(void)state;
	T_PUT(m, T_OUTER, S_IP_VERSION, 6);
	T_PUT(v, T_OUTER, S_IP_VERSION, 6);
	for (i = 0; i < 4; i++) {
		/* dst_ip_127_96 .. dst_ip_31_0, then src_ip_* */
		mlx5dm_prm_set64(m, T_OUTER(0x180 + 0x20 * i), 32, 0xffffffff);
		mlx5dm_prm_set64(v, T_OUTER(0x180 + 0x20 * i), 32, 0x20010db8 + i);
		mlx5dm_prm_set64(m, T_OUTER(0x100 + 0x20 * i), 32, i == 3 ? 0xffff0000 : 0xffffffff);
		mlx5dm_prm_set64(v, T_OUTER(0x100 + 0x20 * i), 32, i == 3 ? 0xfe800000 : 0xfe80 + i);
		TAG_PUT(exp[1].mask, DW(i), 0xffffffff);
		TAG_PUT(exp[1].tag, DW(i), 0x20010db8 + i);
		TAG_PUT(exp[2].mask, DW(i), i == 3 ? 0xffff0000 : 0xffffffff);
		TAG_PUT(exp[2].tag, DW(i), i == 3 ? 0xfe800000 : 0xfe80 + i);
	}
	T_PUT(m, T_OUTER, S_UDP_DPORT, 0xffff);
	T_PUT(m, T_OUTER, S_TTL, 0xff);
	T_PUT(m, T_OUTER, S_IP_PROTOCOL, 0xff);
	T_PUT(m, T_OUTER, S_TCP_FLAGS, 0x004);		/* RST only */
	T_PUT(m, T_MISC, M_OUTER_IPV6_FLOW_LABEL, 0xfffff);
	T_PUT(v, T_OUTER, S_UDP_DPORT, 53);
	T_PUT(v, T_OUTER, S_TTL, 1);
	T_PUT(v, T_OUTER, S_IP_PROTOCOL, 17);
	T_PUT(v, T_OUTER, S_TCP_FLAGS, 0x004);
	T_PUT(v, T_MISC, M_OUTER_IPV6_FLOW_LABEL, 0x12345);
	TAG_PUT(exp[0].mask, L2_L3_TYPE, 3);
	TAG_PUT(exp[0].tag, L2_L3_TYPE, 2);
	TAG_PUT(exp[3].mask, L4_DPORT, 0xffff);
	TAG_PUT(exp[3].mask, L4_HOP_LIMIT, 0xff);
	TAG_PUT(exp[3].mask, L4_PROTO, 0xff);
	TAG_PUT(exp[3].mask, L4_TCP_RST, 1);
	TAG_PUT(exp[3].mask, L4_FLOW_LABEL, 0xfffff);
	TAG_PUT(exp[3].tag, L4_DPORT, 53);
	TAG_PUT(exp[3].tag, L4_HOP_LIMIT, 1);
	TAG_PUT(exp[3].tag, L4_PROTO, 17);
	TAG_PUT(exp[3].tag, L4_TCP_RST, 1);
	TAG_PUT(exp[3].tag, L4_FLOW_LABEL, 0x12345);
	t_check(m, v, C_OUTER | C_MISC, exp, 4);
}

static void
test_ipv6_inner(void **state)
{
	uint8_t m[448] = { 0 }, v[448] = { 0 };
	struct exp_builder exp[3] = {
		{ .lu_type = 0x0004 }, { .lu_type = 0x010a }, { .lu_type = 0x000a },
	};

	(void)state;
	T_PUT(m, T_INNER, S_IP_VERSION, 6);
	T_PUT(v, T_INNER, S_IP_VERSION, 6);
	T_PUT(m, T_INNER, S_SRC_IP_127_96, 0xffffffff);
	T_PUT(v, T_INNER, S_SRC_IP_127_96, 0xfd000000);
	T_PUT(m, T_INNER, S_TCP_SPORT, 0xffff);
	T_PUT(v, T_INNER, S_TCP_SPORT, 22);
	T_PUT(m, T_MISC, M_INNER_IPV6_FLOW_LABEL, 0xf0000);
	T_PUT(v, T_MISC, M_INNER_IPV6_FLOW_LABEL, 0x50000);
	TAG_PUT(exp[0].mask, L2_L3_TYPE, 3);
	TAG_PUT(exp[0].tag, L2_L3_TYPE, 2);
	TAG_PUT(exp[1].mask, DW(0), 0xffffffff);
	TAG_PUT(exp[1].tag, DW(0), 0xfd000000);
	TAG_PUT(exp[2].mask, L4_SPORT, 0xffff);
	TAG_PUT(exp[2].mask, L4_FLOW_LABEL, 0xf0000);
	TAG_PUT(exp[2].tag, L4_SPORT, 22);
	TAG_PUT(exp[2].tag, L4_FLOW_LABEL, 0x50000);
	t_check(m, v, C_INNER | C_MISC, exp, 3);
}

/* VXLAN: outer UDP port, then VNI + inner MAC (ETHL2_TNL), inner IPv4 dst. */
static void
test_l2_tnl(void **state)
{
	uint8_t m[448] = { 0 }, v[448] = { 0 };
	struct exp_builder exp[4] = {
		{ .lu_type = 0x0003 }, { .lu_type = 0x0007 }, { .lu_type = 0x0002 },
		{ .lu_type = 0x0008 },
	};

	(void)state;
	T_PUT(m, T_OUTER, S_IP_VERSION, 4);
	T_PUT(m, T_OUTER, S_UDP_DPORT, 0xffff);
	T_PUT(m, T_MISC, M_VXLAN_VNI, 0xffffff);
	T_PUT(m, T_INNER, S_DMAC_47_16, 0xffffffff);
	T_PUT(m, T_INNER, S_DMAC_15_0, 0xffff);
	T_PUT(m, T_INNER, S_IP_VERSION, 4);
	T_PUT(m, T_INNER, S_DST_IP_31_0, 0xffffffff);
	T_PUT(v, T_OUTER, S_IP_VERSION, 4);
	T_PUT(v, T_OUTER, S_UDP_DPORT, 4789);
	T_PUT(v, T_MISC, M_VXLAN_VNI, 0x123456);
	T_PUT(v, T_INNER, S_DMAC_47_16, 0x00155d01);
	T_PUT(v, T_INNER, S_DMAC_15_0, 0x0203);
	T_PUT(v, T_INNER, S_IP_VERSION, 4);
	T_PUT(v, T_INNER, S_DST_IP_31_0, 0x0a0a0a0a);
	TAG_PUT(exp[0].mask, L2_L3_TYPE, 3);
	TAG_PUT(exp[0].tag, L2_L3_TYPE, 1);
	TAG_PUT(exp[1].mask, T5_DPORT, 0xffff);
	TAG_PUT(exp[1].tag, T5_DPORT, 4789);
	/* The VNI sits in the network id shifted left by 8. */
	TAG_PUT(exp[2].mask, TNL_NETWORK_ID, 0xffffff00);
	TAG_PUT(exp[2].mask, TNL_DMAC_47_16, 0xffffffff);
	TAG_PUT(exp[2].mask, TNL_DMAC_15_0, 0xffff);
	TAG_PUT(exp[2].mask, TNL_L3_TYPE, 3);
	TAG_PUT(exp[2].tag, TNL_NETWORK_ID, 0x12345600);
	TAG_PUT(exp[2].tag, TNL_DMAC_47_16, 0x00155d01);
	TAG_PUT(exp[2].tag, TNL_DMAC_15_0, 0x0203);
	TAG_PUT(exp[2].tag, TNL_L3_TYPE, 1);
	TAG_PUT(exp[3].mask, T5_DST, 0xffffffff);
	TAG_PUT(exp[3].tag, T5_DST, 0x0a0a0a0a);
	t_check(m, v, C_OUTER | C_MISC | C_INNER, exp, 4);
}

static void
test_l4_misc(void **state)
{
	uint8_t m[448] = { 0 }, v[448] = { 0 };
	struct exp_builder exp[2] = { { .lu_type = 0x0113 }, { .lu_type = 0x0114 } };

	(void)state;
	T_PUT(m, T_MISC3, M3_OUTER_TCP_SEQ, 0xffffffff);
	T_PUT(m, T_MISC3, M3_INNER_TCP_ACK, 0xffff0000);
	T_PUT(v, T_MISC3, M3_OUTER_TCP_SEQ, 0xdeadbeef);
	T_PUT(v, T_MISC3, M3_INNER_TCP_ACK, 0x12340000);
	TAG_PUT(exp[0].mask, L4M_SEQ, 0xffffffff);
	TAG_PUT(exp[0].tag, L4M_SEQ, 0xdeadbeef);
	TAG_PUT(exp[1].mask, L4M_ACK, 0xffff0000);
	TAG_PUT(exp[1].tag, L4M_ACK, 0x12340000);
	t_check(m, v, C_MISC3, exp, 2);
}

static void
test_mpls(void **state)
{
	uint8_t m[448] = { 0 }, v[448] = { 0 };
	struct exp_builder exp[2] = { { .lu_type = 0x010b }, { .lu_type = 0x010c } };

	(void)state;
	T_PUT(m, T_MISC2, M2_OUTER_MPLS_LABEL, 0xfffff);
	T_PUT(m, T_MISC2, M2_OUTER_MPLS_EXP, 7);
	T_PUT(m, T_MISC2, M2_OUTER_MPLS_S_BOS, 1);
	T_PUT(m, T_MISC2, M2_OUTER_MPLS_TTL, 0xff);
	T_PUT(m, T_MISC2, M2_INNER_MPLS_LABEL, 0xfffff);
	T_PUT(m, T_MISC2, M2_INNER_MPLS_TTL, 0x0f);
	T_PUT(v, T_MISC2, M2_OUTER_MPLS_LABEL, 0x12345);
	T_PUT(v, T_MISC2, M2_OUTER_MPLS_EXP, 5);
	T_PUT(v, T_MISC2, M2_OUTER_MPLS_S_BOS, 1);
	T_PUT(v, T_MISC2, M2_OUTER_MPLS_TTL, 0x40);
	T_PUT(v, T_MISC2, M2_INNER_MPLS_LABEL, 0xabcde);
	T_PUT(v, T_MISC2, M2_INNER_MPLS_TTL, 0x01);
	TAG_PUT(exp[0].mask, MPLS_LABEL, 0xfffff);
	TAG_PUT(exp[0].mask, MPLS_EXP, 7);
	TAG_PUT(exp[0].mask, MPLS_S_BOS, 1);
	TAG_PUT(exp[0].mask, MPLS_TTL, 0xff);
	TAG_PUT(exp[0].tag, MPLS_LABEL, 0x12345);
	TAG_PUT(exp[0].tag, MPLS_EXP, 5);
	TAG_PUT(exp[0].tag, MPLS_S_BOS, 1);
	TAG_PUT(exp[0].tag, MPLS_TTL, 0x40);
	TAG_PUT(exp[1].mask, MPLS_LABEL, 0xfffff);
	TAG_PUT(exp[1].mask, MPLS_TTL, 0x0f);
	TAG_PUT(exp[1].tag, MPLS_LABEL, 0xabcde);
	TAG_PUT(exp[1].tag, MPLS_TTL, 0x01);
	t_check(m, v, C_MISC2, exp, 2);
}

static void
test_gre(void **state)
{
	uint8_t m[448] = { 0 }, v[448] = { 0 };
	struct exp_builder exp[1] = { { .lu_type = 0x010d } };

	(void)state;
	T_PUT(m, T_MISC, M_GRE_C_PRESENT, 1);
	T_PUT(m, T_MISC, M_GRE_K_PRESENT, 1);
	T_PUT(m, T_MISC, M_GRE_S_PRESENT, 1);
	T_PUT(m, T_MISC, M_GRE_PROTOCOL, 0xffff);
	T_PUT(m, T_MISC, M_GRE_KEY_H, 0xffffff);
	T_PUT(m, T_MISC, M_GRE_KEY_L, 0xff);
	T_PUT(v, T_MISC, M_GRE_K_PRESENT, 1);
	T_PUT(v, T_MISC, M_GRE_PROTOCOL, 0x6558);
	T_PUT(v, T_MISC, M_GRE_KEY_H, 0x000102);
	T_PUT(v, T_MISC, M_GRE_KEY_L, 0x03);
	/* Literal bytes: C/K/S bits 31,29,28 of DW0, protocol, key at DW2. */
	memcpy(exp[0].mask, (const uint8_t[16]){
		0xb0, 0x00, 0xff, 0xff, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0 }, 16);
	memcpy(exp[0].tag, (const uint8_t[16]){
		0x20, 0x00, 0x65, 0x58, 0, 0, 0, 0, 0x00, 0x01, 0x02, 0x03, 0, 0, 0, 0 }, 16);
	t_check(m, v, C_MISC, exp, 1);
	/* Cross-check the literal bytes with the field offsets of ste_gre_v1. */
	memset(exp[0].tag, 0, 16);
	TAG_PUT(exp[0].tag, GRE_K, 1);
	TAG_PUT(exp[0].tag, GRE_PROTO, 0x6558);
	TAG_PUT(exp[0].tag, GRE_KEY_H, 0x000102);
	TAG_PUT(exp[0].tag, GRE_KEY_L, 0x03);
	TAG_PUT(exp[0].mask, GRE_C, 1);
	TAG_PUT(exp[0].mask, GRE_S, 1);
	t_check(m, v, C_MISC, exp, 1);
}

static void
test_registers(void **state)
{
	uint8_t m[448] = { 0 }, v[448] = { 0 };
	struct exp_builder exp[3] = {
		{ .lu_type = 0x010e }, { .lu_type = 0x010f }, { .lu_type = 0x0110 },
	};

	(void)state;
	/* reg_a; reg_c_1 (16 bits) and reg_c_3; reg_c_4 and reg_c_7. */
	T_PUT(m, T_MISC2, M2_REG_A, 0xffffffff);
	T_PUT(m, T_MISC2, M2_REG_C_1, 0x0000ffff);
	T_PUT(m, T_MISC2, M2_REG_C_3, 0xffffffff);
	T_PUT(m, T_MISC2, M2_REG_C_4, 0xff000000);
	T_PUT(m, T_MISC2, M2_REG_C_7, 0xffffffff);
	T_PUT(v, T_MISC2, M2_REG_A, 0xa5a5a5a5);
	T_PUT(v, T_MISC2, M2_REG_C_1, 0x00001234);
	T_PUT(v, T_MISC2, M2_REG_C_3, 0xcafef00d);
	T_PUT(v, T_MISC2, M2_REG_C_4, 0x7f000000);
	T_PUT(v, T_MISC2, M2_REG_C_7, 0x00000001);
	TAG_PUT(exp[0].mask, DW(0), 0xffffffff);
	TAG_PUT(exp[0].tag, DW(0), 0xa5a5a5a5);
	/* STEERING_REGISTERS_0: reg_c_0, c_1, c_2, c_3 in DW0..3. */
	TAG_PUT(exp[1].mask, DW(1), 0x0000ffff);
	TAG_PUT(exp[1].mask, DW(3), 0xffffffff);
	TAG_PUT(exp[1].tag, DW(1), 0x00001234);
	TAG_PUT(exp[1].tag, DW(3), 0xcafef00d);
	/* STEERING_REGISTERS_1: reg_c_4..c_7. */
	TAG_PUT(exp[2].mask, DW(0), 0xff000000);
	TAG_PUT(exp[2].mask, DW(3), 0xffffffff);
	TAG_PUT(exp[2].tag, DW(0), 0x7f000000);
	TAG_PUT(exp[2].tag, DW(3), 0x00000001);
	t_check(m, v, C_MISC2, exp, 3);
}

/* The device's order across everything: registers before L2 before L3 ... */
static void
test_selection_order(void **state)
{
	const uint16_t want[] = {
		0x010e, 0x010f, 0x000b, 0x0003, 0x000d, 0x0007, 0x0113, 0x010b, 0x010d,
		0x0002, 0x0006, 0x000a, 0x0114, 0x010c,
	};
	struct mlx5dm_ste_builder b[MLX5DM_STE_MAX_BUILDERS];
	uint8_t m[448] = { 0 };
	const char *err;
	unsigned int n, i;

	(void)state;
	T_PUT(m, T_MISC, M_GRE_PROTOCOL, 0xffff);
	T_PUT(m, T_MISC2, M2_OUTER_MPLS_TTL, 0xff);
	T_PUT(m, T_MISC3, M3_OUTER_TCP_SEQ, 0xffffffff);
	T_PUT(m, T_OUTER, S_IP_PROTOCOL, 0xff);
	T_PUT(m, T_OUTER, S_TTL, 0xff);
	T_PUT(m, T_OUTER, S_IP_VERSION, 4);
	T_PUT(m, T_OUTER, S_ETHERTYPE, 0xffff);
	T_PUT(m, T_OUTER, S_SMAC_15_0, 0xffff);
	T_PUT(m, T_OUTER, S_DMAC_15_0, 0xffff);
	T_PUT(m, T_MISC2, M2_REG_C_0, 1);
	T_PUT(m, T_MISC2, M2_REG_A, 1);
	T_PUT(m, T_INNER, S_IP_VERSION, 6);
	T_PUT(m, T_INNER, S_UDP_SPORT, 0xffff);
	T_PUT(m, T_INNER, S_SMAC_15_0, 0xffff);
	T_PUT(m, T_INNER, S_DMAC_15_0, 0xffff);
	T_PUT(m, T_INNER, S_ETHERTYPE, 0xffff);
	T_PUT(m, T_MISC, M_VXLAN_VNI, 0xffffff);
	T_PUT(m, T_MISC3, M3_INNER_TCP_SEQ, 0xffffffff);
	T_PUT(m, T_MISC2, M2_INNER_MPLS_TTL, 0xff);
	assert_int_equal(mlx5dm_ste_build_matcher(t_ctx(), m, C_OUTER | C_MISC | C_INNER |
						  C_MISC2 | C_MISC3, MLX5DM_STE_DIR_RX, b,
						  MLX5DM_STE_MAX_BUILDERS, &n, &err), 0);
	for (i = 0; i < n; i++)
		fprintf(stderr, "  %u %s 0x%04x%s\n", i, mlx5dm_ste_lookup_name(b[i].lookup),
			b[i].lu_type, b[i].inner ? " inner" : "");
	/*
	 * Outer: GP, REG0, L2_SRC_DST (both MACs, ip_version), ETHL2 (the
	 * ethertype left), IPV4_MISC, 5-tuple, L4_MISC, MPLS, GRE. Inner: L2_TNL
	 * takes VNI + DMAC + ethertype + ip_version, so no L2_SRC_DST (DMAC
	 * gone) but L2_SRC for the SMAC, ETHL4_I (IPv6 L4), L4_MISC_I, MPLS_I.
	 */
	assert_int_equal(n, sizeof(want) / sizeof(want[0]));
	for (i = 0; i < n; i++)
		assert_int_equal(b[i].lu_type, want[i]);
}

static void
test_empty_mask(void **state)
{
	struct mlx5dm_ste_builder b[2];
	uint8_t m[448] = { 0 }, tag[16];
	const uint8_t zero[16] = { 0 };
	const char *err;
	unsigned int n;

	(void)state;
	/* No criteria, or criteria with an all-zero mask: always hit. */
	assert_int_equal(mlx5dm_ste_build_matcher(t_ctx(), m, 0, MLX5DM_STE_DIR_RX, b, 2, &n,
						  &err), 0);
	assert_int_equal(n, 1);
	assert_int_equal(b[0].lu_type, 0x000f);
	assert_int_equal(b[0].byte_mask, 0);
	t_assert_bytes(b[0].bit_mask, zero, 16, "empty mask");
	memset(tag, 0xee, sizeof(tag));
	assert_int_equal(mlx5dm_ste_build_tag(&b[0], m, tag), 0);
	t_assert_bytes(tag, zero, 16, "empty tag");
	assert_int_equal(mlx5dm_ste_build_matcher(t_ctx(), m, 0x7f, MLX5DM_STE_DIR_TX, b, 2, &n,
						  &err), 0);
	assert_int_equal(n, 1);
	assert_int_equal(b[0].lu_type, 0x000f);
	/* Fields of a section not enabled by the criteria are not looked at. */
	T_PUT(m, T_MISC5, M5_TUNNEL_HEADER_0, 0xffffffff);
	assert_int_equal(mlx5dm_ste_build_matcher(t_ctx(), m, C_OUTER, MLX5DM_STE_DIR_RX, b, 2, &n,
						  &err), 0);
	assert_int_equal(b[0].lu_type, 0x000f);
}

/* Masks no lookup covers are refused, naming the field. */
static void
test_rejected_masks(void **state)
{
	static const struct {
		unsigned int bit, width;
		uint8_t criteria;
		int ret;
		const char *field;
	} cases[] = {
		/* TTL without an IP version: no IPv4/IPv6 lookup takes it. */
		{ T_BW(T_OUTER, S_TTL), C_OUTER, -EOPNOTSUPP, "outer.ip_ttl_hoplimit" },
		{ T_BW(T_INNER, S_IPV4_IHL), C_INNER, -EOPNOTSUPP, "inner.ipv4_ihl" },
		{ T_OUTER(0x0d4), 1, C_OUTER, -EOPNOTSUPP, "outer.l3_ok" },
		{ T_MISC(0x008), 24, C_MISC, -EOPNOTSUPP, "misc.source_sqn" },
		{ T_MISC(0x0c0), 24, C_MISC, -EOPNOTSUPP, "misc.geneve_vni" },
		{ T_MISC3(0x140), 32, C_MISC3, -EOPNOTSUPP, "misc3.gtpu_teid" },
		{ 0xa00, 32, 0x20, -EOPNOTSUPP, "misc4.prog_sample_field_value_0" },
		{ T_BW(T_MISC5, M5_TUNNEL_HEADER_0), C_MISC5, -EOPNOTSUPP,
		  "misc5.tunnel_header_0" },
		/* Reserved bits (outer DW6[31:16]). */
		{ T_OUTER(0x0c0), 8, C_OUTER, -EOPNOTSUPP, "outer.reserved" },
		/* An IP version other than 4 or 6. */
		{ T_OUTER(0x093), 4, C_OUTER, -EOPNOTSUPP, "outer.ip_version" },
	};
	struct mlx5dm_ste_builder b[MLX5DM_STE_MAX_BUILDERS];
	unsigned int i, n;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint8_t m[448] = { 0 };
		const char *err = NULL;

		mlx5dm_prm_set64(m, cases[i].bit, cases[i].width,
				 cases[i].bit == T_OUTER(0x093) ? 5 : 0xffffffffu);
		assert_int_equal(mlx5dm_ste_build_matcher(t_ctx(), m, cases[i].criteria,
							  MLX5DM_STE_DIR_RX, b,
							  MLX5DM_STE_MAX_BUILDERS, &n, &err),
				 cases[i].ret);
		assert_non_null(err);
		assert_string_equal(err, cases[i].field);
	}
}

static void
test_bad_arguments(void **state)
{
	struct mlx5dm_ste_builder b[2];
	uint8_t m[448] = { 0 };
	const char *err;
	unsigned int n;

	(void)state;
	/* Three lookups needed, room for two. */
	T_PUT(m, T_MISC2, M2_REG_A, 1);
	T_PUT(m, T_MISC2, M2_REG_C_0, 1);
	T_PUT(m, T_MISC2, M2_REG_C_7, 1);
	assert_int_equal(mlx5dm_ste_build_matcher(t_ctx(), m, C_MISC2, MLX5DM_STE_DIR_RX, b, 2,
						  &n, &err), -ENOSPC);
	assert_int_equal(mlx5dm_ste_build_matcher(t_ctx(), m, 0x80, MLX5DM_STE_DIR_RX, b, 2, &n,
						  &err), -EINVAL);
	assert_int_equal(mlx5dm_ste_build_matcher(NULL, m, 0, MLX5DM_STE_DIR_RX, b, 2, &n,
						  &err), -EINVAL);
	/* err_field may be NULL. */
	assert_int_equal(mlx5dm_ste_build_matcher(t_ctx(), m, C_MISC2, MLX5DM_STE_DIR_RX, b, 2,
						  &n, NULL), -ENOSPC);
}

static void
test_value_checks(void **state)
{
	struct mlx5dm_ste_builder b[4];
	uint8_t m[448] = { 0 }, v[448] = { 0 }, tag[16];
	const char *err;
	unsigned int n;

	(void)state;
	T_PUT(m, T_OUTER, S_IP_VERSION, 4);
	T_PUT(m, T_OUTER, S_TCP_DPORT, 0xff00);
	T_PUT(v, T_OUTER, S_IP_VERSION, 4);
	T_PUT(v, T_OUTER, S_TCP_DPORT, 0x1200);
	assert_int_equal(mlx5dm_ste_check_value(m, v, C_OUTER, &err), 0);
	/* A value bit outside the mask. */
	T_PUT(v, T_OUTER, S_TCP_DPORT, 0x1201);
	assert_int_equal(mlx5dm_ste_check_value(m, v, C_OUTER, &err), -EINVAL);
	assert_string_equal(err, "outer.tcp_dport");
	T_PUT(v, T_OUTER, S_TCP_DPORT, 0x1200);
	/* ... in a field no builder knows, or in reserved bits. */
	T_PUT(v, T_OUTER, S_TTL, 1);
	assert_int_equal(mlx5dm_ste_check_value(m, v, C_OUTER, &err), -EINVAL);
	assert_string_equal(err, "outer.ip_ttl_hoplimit");
	T_PUT(v, T_OUTER, S_TTL, 0);
	mlx5dm_prm_set64(v, T_OUTER(0x0c4), 1, 1);
	assert_int_equal(mlx5dm_ste_check_value(m, v, C_OUTER, &err), -EINVAL);
	assert_string_equal(err, "outer.reserved");
	mlx5dm_prm_set64(v, T_OUTER(0x0c4), 1, 0);
	/* Bits in a section the criteria leave out are ignored. */
	T_PUT(v, T_MISC2, M2_REG_A, 7);
	assert_int_equal(mlx5dm_ste_check_value(m, v, C_OUTER, &err), 0);
	/* The IP version must be the matcher's. */
	T_PUT(v, T_OUTER, S_IP_VERSION, 0);
	assert_int_equal(mlx5dm_ste_check_value(m, v, C_OUTER, &err), -EINVAL);
	assert_string_equal(err, "outer.ip_version");
	T_PUT(v, T_OUTER, S_IP_VERSION, 6);
	assert_int_equal(mlx5dm_ste_check_value(m, v, C_OUTER, &err), -EINVAL);
	assert_string_equal(err, "outer.ip_version");
	/* build_tag alone refuses an IP version it cannot encode. */
	assert_int_equal(mlx5dm_ste_build_matcher(t_ctx(), m, C_OUTER, MLX5DM_STE_DIR_RX, b, 4,
						  &n, &err), 0);
	assert_int_equal(b[0].lu_type, 0x0003);
	T_PUT(v, T_OUTER, S_IP_VERSION, 5);
	assert_int_equal(mlx5dm_ste_build_tag(&b[0], v, tag), -EINVAL);
}

/* The STE chain of a rule: control of each STE links to the next lookup. */
static void
test_ste_arr(void **state)
{
	const struct mlx5dm_ste_ctx *ctx = t_ctx();
	struct mlx5dm_ste_builder b[4];
	uint8_t m[448] = { 0 }, v[448] = { 0 }, ste[3 * 64];
	uint8_t exp[64];
	const char *err;
	unsigned int n;

	(void)state;
	T_PUT(m, T_OUTER, S_IP_VERSION, 4);
	T_PUT(m, T_OUTER, S_TTL, 0xff);
	T_PUT(m, T_OUTER, S_DST_IP_31_0, 0xffffffff);
	T_PUT(v, T_OUTER, S_IP_VERSION, 4);
	T_PUT(v, T_OUTER, S_TTL, 0x11);
	T_PUT(v, T_OUTER, S_DST_IP_31_0, 0x01020304);
	assert_int_equal(mlx5dm_ste_build_matcher(ctx, m, C_OUTER, MLX5DM_STE_DIR_RX, b, 4, &n,
						  &err), 0);
	assert_int_equal(n, 3);
	memset(ste, 0xcc, sizeof(ste));
	assert_int_equal(mlx5dm_ste_build_ste_arr(ctx, b, n, v, MLX5DM_STE_DIR_RX, 0x0021, ste),
			 0);
	/* STE 0: ETHL2_O; next = IPV4_MISC_O (0x0d), byte mask of its TTL byte. */
	memset(exp, 0, sizeof(exp));
	exp[0] = 0x00;
	exp[5] = 0x21;
	exp[6] = 0x03;
	exp[13] = 0x21;
	exp[14] = 0x0d;
	exp[20] = 0x00;			/* byte mask 0x0040: TTL is tag byte 9 */
	exp[21] = 0x40;
	exp[23] = 0x21;
	exp[32 + 1] = 0x10;		/* tag: l3_type 1 (DW0[21:20]) */
	exp[48 + 1] = 0x30;		/* mask: l3_type 3 */
	t_assert_bytes(ste, exp, 64, "STE 0");
	/* STE 1: IPV4_MISC_O; next = 5-tuple (0x07), dst address bytes 4..7. */
	memset(exp, 0, sizeof(exp));
	exp[5] = 0x21;
	exp[6] = 0x0d;
	exp[13] = 0x21;
	exp[14] = 0x07;
	exp[20] = 0x0f;
	exp[23] = 0x21;
	exp[32 + 9] = 0x11;
	exp[48 + 9] = 0xff;
	t_assert_bytes(ste + 64, exp, 64, "STE 1");
	/* STE 2, the last: next lookup don't care, no byte mask. */
	memset(exp, 0, sizeof(exp));
	exp[5] = 0x21;
	exp[6] = 0x07;
	exp[13] = 0x21;
	exp[14] = 0x0f;
	exp[23] = 0x21;
	memcpy(exp + 32 + 4, (const uint8_t[]){ 1, 2, 3, 4 }, 4);
	memset(exp + 48 + 4, 0xff, 4);
	t_assert_bytes(ste + 128, exp, 64, "STE 2");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_l2_src_dst),
		cmocka_unit_test(test_l2_src),
		cmocka_unit_test(test_l2_dst_vlans),
		cmocka_unit_test(test_ipv4),
		cmocka_unit_test(test_ipv4_inner_udp),
		cmocka_unit_test(test_ipv6),
		cmocka_unit_test(test_ipv6_inner),
		cmocka_unit_test(test_l2_tnl),
		cmocka_unit_test(test_l4_misc),
		cmocka_unit_test(test_mpls),
		cmocka_unit_test(test_gre),
		cmocka_unit_test(test_registers),
		cmocka_unit_test(test_selection_order),
		cmocka_unit_test(test_empty_mask),
		cmocka_unit_test(test_rejected_masks),
		cmocka_unit_test(test_bad_arguments),
		cmocka_unit_test(test_value_checks),
		cmocka_unit_test(test_ste_arr),
	};

	return cmocka_run_group_tests_name("ste_build", tests, NULL, NULL);
}
