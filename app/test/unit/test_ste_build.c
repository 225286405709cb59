/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Builders: which lookups a mask selects (and in which order), their bit
 * masks, byte masks and the tags of rule values. Masks and values are
 * written at fte_match_param offsets of rdma-core's mlx5_ifc.h; expected
 * tags/masks at the offsets of its ste_*_v1 tags, as literal numbers
 * (never through the library's layout tables).
 */

#include <errno.h>

#include "test_ste_common.h"

/* v1 tag fields: bit offset, width (mlx5_ifc.h ste_*_v1). */
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

/* ste_icmp_v1 */
#define ICMP_HDR 0x020, 32
#define ICMP_TYPE 0x040, 8
#define ICMP_CODE 0x048, 8

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

/* What one builder is expected to be. */
struct exp_builder {
	uint16_t lu_type;
	uint8_t mask[16];
	uint8_t tag[16];
};

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

	assert_int_equal(mlx5dm_ste_build_matcher(ctx, NULL, mask, criteria, MLX5DM_STE_DIR_RX, b,
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
	assert_int_equal(mlx5dm_ste_build_matcher(t_ctx(), NULL, m,
						  C_OUTER, MLX5DM_STE_DIR_TX, b, 4, &n, &err), 0);
	assert_int_equal(b[0].byte_mask, 0xffc7);
	/* The same mask on the inner headers: the _I lookup. */
	memset(m, 0, sizeof(m));
	T_PUT(m, T_INNER, S_SMAC_47_16, 0xffffffff);
	T_PUT(m, T_INNER, S_DMAC_15_0, 0xffff);
	assert_int_equal(mlx5dm_ste_build_matcher(t_ctx(), NULL, m,
						  C_INNER, MLX5DM_STE_DIR_RX, b, 4, &n, &err), 0);
	assert_int_equal(n, 1);
	assert_int_equal(b[0].lu_type, 0x000c);
	assert_true(b[0].inner);
}

/* One fte_match_param field of a case: mask and value. */
struct t_in {
	unsigned int bit, width;
	uint64_t mask, value;
};

/* One tag field of an expected builder: bit mask and tag value. */
struct t_out {
	unsigned int bit, width;
	uint64_t mask, tag;
};

struct t_case {
	const char *name;
	uint8_t criteria;
	struct t_in in[16];		/* ends at width 0 */
	struct {
		uint16_t lu_type;
		struct t_out f[20];	/* ends at width 0 */
	} out[5];			/* ends at lu_type 0 */
};

/* I_xxx(field, mask, value) with field a "bit, width" pair of its section. */
#define I_SEC_(sec, b, w, m, v) { sec(b), (w), (m), (v) }
#define I_OUT(...) I_SEC_(T_OUTER, __VA_ARGS__)
#define I_IN(...) I_SEC_(T_INNER, __VA_ARGS__)
#define I_MISC(...) I_SEC_(T_MISC, __VA_ARGS__)
#define I_MISC2(...) I_SEC_(T_MISC2, __VA_ARGS__)
#define I_MISC3(...) I_SEC_(T_MISC3, __VA_ARGS__)
/* O(tag field "bit, width", mask, tag). */
#define O(...) { __VA_ARGS__ }

static const struct t_case t_cases[] = {
	{ "SMAC + ethertype: ETHL2_SRC", C_OUTER, {
		I_OUT(S_SMAC_47_16, 0xffffffff, 0x02000000),
		I_OUT(S_SMAC_15_0, 0xff00, 0x0100),
		I_OUT(S_ETHERTYPE, 0xffff, 0x86dd) }, {
		{ 0x0005, {
			O(L2_MAC_47_16, 0xffffffff, 0x02000000),
			O(L2_MAC_15_0, 0xff00, 0x0100),
			O(L2_ETHERTYPE, 0xffff, 0x86dd) } } } },
	{ "inner SMAC + ethertype: ETHL2_SRC_I", C_INNER, {
		I_IN(S_SMAC_47_16, 0xffffffff, 0x02000000),
		I_IN(S_ETHERTYPE, 0xffff, 0x0800) }, {
		{ 0x0006, {
			O(L2_MAC_47_16, 0xffffffff, 0x02000000),
			O(L2_ETHERTYPE, 0xffff, 0x0800) } } } },
	{ "DMAC, frag, S-VLAN, second C-VLAN: ETHL2", C_OUTER | C_MISC, {
		I_OUT(S_DMAC_47_16, 0xffffffff, 0x01005e00),
		I_OUT(S_DMAC_15_0, 0xffff, 0x00fb),
		I_OUT(S_FRAG, 1, 1),
		I_OUT(S_SVLAN_TAG, 1, 1),
		I_MISC(M_OUTER_SECOND_VID, 0xfff, 0xabc),
		I_MISC(M_OUTER_SECOND_PRIO, 7, 5),
		I_MISC(M_OUTER_SECOND_CVLAN_TAG, 1, 1),
		I_MISC(M_OUTER_SECOND_SVLAN_TAG, 1, 0) }, {
		{ 0x0003, {
			O(L2_MAC_47_16, 0xffffffff, 0x01005e00),
			O(L2_MAC_15_0, 0xffff, 0x00fb),
			O(L2_IP_FRAG, 1, 1),
			O(L2_VLAN_QUAL, 3, 1),		/* S-VLAN */
			O(L2_VLAN2_QUAL, 3, 2),		/* C-VLAN */
			O(L2_VLAN2_PRIO, 7, 5),
			O(L2_VLAN2_VID, 0xfff, 0xabc) } } } },
	{ "inner VLANs: ETHL2_I", C_INNER | C_MISC, {
		I_IN(S_FIRST_VID, 0xfff, 0x064),
		I_MISC(M_INNER_SECOND_VID, 0x0ff, 0x012),
		I_MISC(M_INNER_SECOND_CVLAN_TAG, 1, 1) }, {
		{ 0x0004, {
			O(L2_VID, 0xfff, 0x064),
			O(L2_VLAN2_VID, 0x0ff, 0x012),
			O(L2_VLAN2_QUAL, 3, 2) } } } },
	/* IPv4: l3_type (ETHL2, first, also takes frag), TTL/IHL, 5-tuple. */
	{ "IPv4 5-tuple + misc", C_OUTER, {
		I_OUT(S_IP_VERSION, 4, 4),
		I_OUT(S_SRC_IP_31_0, 0xffffffff, 0x0a000001),
		I_OUT(S_DST_IP_31_0, 0xffffff00, 0xc0a80100),
		I_OUT(S_TCP_SPORT, 0xffff, 1234),
		I_OUT(S_TCP_DPORT, 0xffff, 80),
		I_OUT(S_IP_PROTOCOL, 0xff, 6),
		I_OUT(S_TCP_FLAGS, 0x1ff, 0x113),	/* NS | ACK | SYN | FIN */
		I_OUT(S_IP_DSCP, 0x3f, 0x2e),
		I_OUT(S_IP_ECN, 3, 1),
		I_OUT(S_FRAG, 1, 0),
		I_OUT(S_TTL, 0xff, 64),
		I_OUT(S_IPV4_IHL, 0xf, 5) }, {
		{ 0x0003, { O(L2_L3_TYPE, 3, 1), O(L2_IP_FRAG, 1, 0) } },
		{ 0x000d, { O(MISC4_TTL, 0xff, 64), O(MISC4_IHL, 0xf, 5) } },
		{ 0x0007, {
			O(T5_SRC, 0xffffffff, 0x0a000001),
			O(T5_DST, 0xffffff00, 0xc0a80100),
			O(T5_SPORT, 0xffff, 1234),
			O(T5_DPORT, 0xffff, 80),
			O(T5_PROTO, 0xff, 6),
			O(T5_DSCP, 0x3f, 0x2e),
			O(T5_ECN, 3, 1),
			/* TCP flags, one bit each: ns, cwr, ece, urg, ack, psh, rst, syn, fin */
			O(T5_TCP_NS, 1, 1), O(0x068, 1, 1, 0), O(0x069, 1, 1, 0),
			O(0x06a, 1, 1, 0), O(T5_TCP_ACK, 1, 1), O(0x06c, 1, 1, 0),
			O(0x06d, 1, 1, 0), O(T5_TCP_SYN, 1, 1), O(T5_TCP_FIN, 1, 1) } } } },
	{ "inner IPv4 UDP ports", C_INNER, {
		I_IN(S_IP_VERSION, 4, 4),
		I_IN(S_UDP_DPORT, 0xffff, 4789),
		I_IN(S_UDP_SPORT, 0xff00, 0x1200) }, {
		{ 0x0004, { O(L2_L3_TYPE, 3, 1) } },
		{ 0x0008, { O(T5_DPORT, 0xffff, 4789), O(T5_SPORT, 0xff00, 0x1200) } } } },
	{ "IPv6 dst, src, L4", C_OUTER | C_MISC, {
		I_OUT(S_IP_VERSION, 6, 6),
		I_OUT(S_DST_IP_127_96, 0xffffffff, 0x20010db8),
		I_OUT(S_DST_IP_95_64, 0xffffffff, 1),
		I_OUT(S_DST_IP_63_32, 0xffffffff, 2),
		I_OUT(S_DST_IP_31_0, 0xffffffff, 3),
		I_OUT(S_SRC_IP_127_96, 0xffffffff, 0xfe800000),
		I_OUT(S_SRC_IP_31_0, 0xffff0000, 0xabcd0000),
		I_OUT(S_UDP_DPORT, 0xffff, 53),
		I_OUT(S_TTL, 0xff, 1),
		I_OUT(S_IP_PROTOCOL, 0xff, 17),
		I_OUT(S_TCP_FLAGS, 0x004, 0x004),	/* RST */
		I_MISC(M_OUTER_IPV6_FLOW_LABEL, 0xfffff, 0x12345) }, {
		{ 0x0003, { O(L2_L3_TYPE, 3, 2) } },
		{ 0x0107, {
			O(DW(0), 0xffffffff, 0x20010db8), O(DW(1), 0xffffffff, 1),
			O(DW(2), 0xffffffff, 2), O(DW(3), 0xffffffff, 3) } },
		{ 0x0109, { O(DW(0), 0xffffffff, 0xfe800000), O(DW(3), 0xffff0000, 0xabcd0000) } },
		{ 0x0009, {
			O(L4_DPORT, 0xffff, 53),
			O(L4_HOP_LIMIT, 0xff, 1),
			O(L4_PROTO, 0xff, 17),
			O(L4_TCP_RST, 1, 1),
			O(L4_FLOW_LABEL, 0xfffff, 0x12345) } } } },
	{ "inner IPv6 src, L4", C_INNER | C_MISC, {
		I_IN(S_IP_VERSION, 6, 6),
		I_IN(S_SRC_IP_127_96, 0xffffffff, 0xfd000000),
		I_IN(S_TCP_SPORT, 0xffff, 22),
		I_MISC(M_INNER_IPV6_FLOW_LABEL, 0xf0000, 0x50000) }, {
		{ 0x0004, { O(L2_L3_TYPE, 3, 2) } },
		{ 0x010a, { O(DW(0), 0xffffffff, 0xfd000000) } },
		{ 0x000a, { O(L4_SPORT, 0xffff, 22), O(L4_FLOW_LABEL, 0xf0000, 0x50000) } } } },
	/* VXLAN: outer UDP port, then VNI + inner MAC (ETHL2_TNL), inner IPv4 dst. */
	{ "VXLAN VNI + inner L2/L3", C_OUTER | C_MISC | C_INNER, {
		I_OUT(S_IP_VERSION, 4, 4),
		I_OUT(S_UDP_DPORT, 0xffff, 4789),
		I_MISC(M_VXLAN_VNI, 0xffffff, 0x123456),
		I_IN(S_DMAC_47_16, 0xffffffff, 0x00155d01),
		I_IN(S_DMAC_15_0, 0xffff, 0x0203),
		I_IN(S_IP_VERSION, 4, 4),
		I_IN(S_DST_IP_31_0, 0xffffffff, 0x0a0a0a0a) }, {
		{ 0x0003, { O(L2_L3_TYPE, 3, 1) } },
		{ 0x0007, { O(T5_DPORT, 0xffff, 4789) } },
		{ 0x0002, {
			O(TNL_NETWORK_ID, 0xffffff00, 0x12345600),	/* VNI << 8 */
			O(TNL_DMAC_47_16, 0xffffffff, 0x00155d01),
			O(TNL_DMAC_15_0, 0xffff, 0x0203),
			O(TNL_L3_TYPE, 3, 1) } },
		{ 0x0008, { O(T5_DST, 0xffffffff, 0x0a0a0a0a) } } } },
	{ "TCP seq/ack outer and inner", C_MISC3, {
		I_MISC3(M3_OUTER_TCP_SEQ, 0xffffffff, 0xdeadbeef),
		I_MISC3(M3_INNER_TCP_ACK, 0xffff0000, 0x12340000) }, {
		{ 0x0113, { O(L4M_SEQ, 0xffffffff, 0xdeadbeef) } },
		{ 0x0114, { O(L4M_ACK, 0xffff0000, 0x12340000) } } } },
	{ "MPLS outer and inner", C_MISC2, {
		I_MISC2(M2_OUTER_MPLS_LABEL, 0xfffff, 0x12345),
		I_MISC2(M2_OUTER_MPLS_EXP, 7, 5),
		I_MISC2(M2_OUTER_MPLS_S_BOS, 1, 1),
		I_MISC2(M2_OUTER_MPLS_TTL, 0xff, 0x40),
		I_MISC2(M2_INNER_MPLS_LABEL, 0xfffff, 0xabcde),
		I_MISC2(M2_INNER_MPLS_TTL, 0x0f, 0x01) }, {
		{ 0x010b, {
			O(MPLS_LABEL, 0xfffff, 0x12345), O(MPLS_EXP, 7, 5),
			O(MPLS_S_BOS, 1, 1), O(MPLS_TTL, 0xff, 0x40) } },
		{ 0x010c, { O(MPLS_LABEL, 0xfffff, 0xabcde), O(MPLS_TTL, 0x0f, 0x01) } } } },
	/* ICMP through the outer L4 misc lookup (ste_icmp_v1, no flex parser on v1). */
	{ "ICMP type, code, header data", C_MISC3, {
		I_MISC3(M3_ICMP_TYPE, 0xff, 8),
		I_MISC3(M3_ICMP_CODE, 0xff, 0),
		I_MISC3(M3_ICMP_HDR, 0xffffffff, 0x12340001) }, {
		{ 0x0113, {
			O(ICMP_TYPE, 0xff, 8), O(ICMP_CODE, 0xff, 0),
			O(ICMP_HDR, 0xffffffff, 0x12340001) } } } },
	{ "ICMPv6 type, code, header data", C_MISC3, {
		I_MISC3(M3_ICMPV6_TYPE, 0xff, 128),
		I_MISC3(M3_ICMPV6_CODE, 0x0f, 1),
		I_MISC3(M3_ICMPV6_HDR, 0x0000ffff, 0x00000007) }, {
		{ 0x0113, {
			O(ICMP_TYPE, 0xff, 128), O(ICMP_CODE, 0x0f, 1),
			O(ICMP_HDR, 0x0000ffff, 0x00000007) } } } },
	/* Order: MPLS, then ICMP, then GRE. */
	{ "MPLS, ICMP, GRE order", C_MISC | C_MISC2 | C_MISC3, {
		I_MISC(M_GRE_PROTOCOL, 0xffff, 0x0800),
		I_MISC3(M3_ICMP_CODE, 0xff, 3),
		I_MISC2(M2_OUTER_MPLS_TTL, 0xff, 0x40) }, {
		{ 0x010b, { O(MPLS_TTL, 0xff, 0x40) } },
		{ 0x0113, { O(ICMP_CODE, 0xff, 3) } },
		{ 0x010d, { O(GRE_PROTO, 0xffff, 0x0800) } } } },
	{ "GRE", C_MISC, {
		I_MISC(M_GRE_C_PRESENT, 1, 0),
		I_MISC(M_GRE_K_PRESENT, 1, 1),
		I_MISC(M_GRE_S_PRESENT, 1, 0),
		I_MISC(M_GRE_PROTOCOL, 0xffff, 0x6558),
		I_MISC(M_GRE_KEY_H, 0xffffff, 0x000102),
		I_MISC(M_GRE_KEY_L, 0xff, 0x03) }, {
		{ 0x010d, {
			O(GRE_C, 1, 0), O(GRE_K, 1, 1), O(GRE_S, 1, 0),
			O(GRE_PROTO, 0xffff, 0x6558), O(GRE_KEY_H, 0xffffff, 0x000102),
			O(GRE_KEY_L, 0xff, 0x03) } } } },
	/* reg_a; reg_c_1 (16 bits) and reg_c_3; reg_c_4 (8 bits) and reg_c_7. */
	{ "metadata registers", C_MISC2, {
		I_MISC2(M2_REG_A, 0xffffffff, 0xa5a5a5a5),
		I_MISC2(M2_REG_C_1, 0x0000ffff, 0x00001234),
		I_MISC2(M2_REG_C_3, 0xffffffff, 0xcafef00d),
		I_MISC2(M2_REG_C_4, 0xff000000, 0x7f000000),
		I_MISC2(M2_REG_C_7, 0xffffffff, 0x00000001) }, {
		{ 0x010e, { O(DW(0), 0xffffffff, 0xa5a5a5a5) } },
		{ 0x010f, { O(DW(1), 0x0000ffff, 0x00001234), O(DW(3), 0xffffffff, 0xcafef00d) } },
		{ 0x0110, { O(DW(0), 0xff000000, 0x7f000000), O(DW(3), 0xffffffff, 1) } } } },
};

static void
test_lookups(void **state)
{
	unsigned int c, i, k;

	(void)state;
	for (c = 0; c < sizeof(t_cases) / sizeof(t_cases[0]); c++) {
		const struct t_case *tc = &t_cases[c];
		struct exp_builder exp[5];
		uint8_t m[448] = { 0 }, v[448] = { 0 };

		fprintf(stderr, "case: %s\n", tc->name);
		memset(exp, 0, sizeof(exp));
		for (i = 0; tc->in[i].width != 0; i++) {
			mlx5dm_prm_set64(m, tc->in[i].bit, tc->in[i].width, tc->in[i].mask);
			mlx5dm_prm_set64(v, tc->in[i].bit, tc->in[i].width, tc->in[i].value);
		}
		for (k = 0; tc->out[k].lu_type != 0; k++) {
			exp[k].lu_type = tc->out[k].lu_type;
			for (i = 0; tc->out[k].f[i].width != 0; i++) {
				const struct t_out *o = &tc->out[k].f[i];

				mlx5dm_prm_set64(exp[k].mask, o->bit, o->width, o->mask);
				mlx5dm_prm_set64(exp[k].tag, o->bit, o->width, o->tag);
			}
		}
		t_check(m, v, tc->criteria, exp, k);
	}
}

/* GRE once more against literal bytes, independent of the field offsets above. */
static void
test_gre_literal(void **state)
{
	uint8_t m[448] = { 0 }, v[448] = { 0 };
	const struct exp_builder exp = {
		.lu_type = 0x010d,
		/* C/K/S = DW0 bits 31/29/28, protocol DW0[15:0], key DW2. */
		.mask = { 0xb0, 0x00, 0xff, 0xff, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0 },
		.tag = { 0x20, 0x00, 0x65, 0x58, 0, 0, 0, 0, 0x00, 0x01, 0x02, 0x03, 0, 0, 0, 0 },
	};

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
	t_check(m, v, C_MISC, &exp, 1);
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
	assert_int_equal(mlx5dm_ste_build_matcher(t_ctx(), NULL, m, C_OUTER | C_MISC | C_INNER |
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
	assert_int_equal(mlx5dm_ste_build_matcher(t_ctx(), NULL, m, 0, MLX5DM_STE_DIR_RX, b, 2, &n,
						  &err), 0);
	assert_int_equal(n, 1);
	assert_int_equal(b[0].lu_type, 0x000f);
	assert_int_equal(b[0].byte_mask, 0);
	t_assert_bytes(b[0].bit_mask, zero, 16, "empty mask");
	memset(tag, 0xee, sizeof(tag));
	assert_int_equal(mlx5dm_ste_build_tag(&b[0], m, tag), 0);
	t_assert_bytes(tag, zero, 16, "empty tag");
	assert_int_equal(mlx5dm_ste_build_matcher(t_ctx(), NULL, m,
						  0x7f, MLX5DM_STE_DIR_TX, b, 2, &n, &err), 0);
	assert_int_equal(n, 1);
	assert_int_equal(b[0].lu_type, 0x000f);
	/* Fields of a section not enabled by the criteria are not looked at. */
	T_PUT(m, T_MISC5, M5_TUNNEL_HEADER_0, 0xffffffff);
	assert_int_equal(mlx5dm_ste_build_matcher(t_ctx(), NULL, m,
						  C_OUTER, MLX5DM_STE_DIR_RX, b, 2, &n, &err), 0);
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
		assert_int_equal(mlx5dm_ste_build_matcher(t_ctx(), NULL, m, cases[i].criteria,
							  MLX5DM_STE_DIR_RX, b,
							  MLX5DM_STE_MAX_BUILDERS, &n, &err),
				 cases[i].ret);
		assert_non_null(err);
		assert_string_equal(err, cases[i].field);
	}
}

/*
 * A send queue alone (misc.source_sqn) is matched where the device caps
 * say so: NIC TX (source_qp) and an FDB side (source_gvmi), by the
 * SRC_QP_GVMI lookup; source_port only where it holds a vhca_id.
 */
static void
test_source_qp(void **state)
{
	const struct mlx5dm_ste_dev_caps tx = { .source_qp = true }, fdb = { .source_gvmi = true };
	struct mlx5dm_ste_builder b[MLX5DM_STE_MAX_BUILDERS];
	uint8_t m[448] = { 0 };
	const char *err = NULL;
	unsigned int n = 0;

	(void)state;
	mlx5dm_fte_set(m, MLX5DM_FTE(misc, source_sqn), 0xffffff);
	assert_int_equal(mlx5dm_ste_build_matcher(t_ctx(), &tx, m, C_MISC, MLX5DM_STE_DIR_TX, b,
						  MLX5DM_STE_MAX_BUILDERS, &n, &err), 0);
	assert_int_equal(n, 1);
	assert_int_equal(b[0].lookup, MLX5DM_STE_LOOKUP_SRC_GVMI_QP);
	assert_int_equal(mlx5dm_ste_build_matcher(t_ctx(), NULL, m, C_MISC, MLX5DM_STE_DIR_TX, b,
						  MLX5DM_STE_MAX_BUILDERS, &n, &err), -EOPNOTSUPP);
	assert_string_equal(err, "misc.source_sqn");
	mlx5dm_fte_set(m, MLX5DM_FTE(misc, source_port), 0xffff);
	assert_int_equal(mlx5dm_ste_build_matcher(t_ctx(), &tx, m, C_MISC, MLX5DM_STE_DIR_TX, b,
						  MLX5DM_STE_MAX_BUILDERS, &n, &err), -EOPNOTSUPP);
	assert_string_equal(err, "misc.source_port");
	assert_int_equal(mlx5dm_ste_build_matcher(t_ctx(), &fdb, m, C_MISC, MLX5DM_STE_DIR_TX, b,
						  MLX5DM_STE_MAX_BUILDERS, &n, &err), 0);
	assert_int_equal(n, 1);
	assert_int_equal(b[0].lookup, MLX5DM_STE_LOOKUP_SRC_GVMI_QP);
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
	assert_int_equal(mlx5dm_ste_build_matcher(t_ctx(), NULL, m, C_MISC2, MLX5DM_STE_DIR_RX,
						  b, 2, &n, &err), -ENOSPC);
	assert_int_equal(mlx5dm_ste_build_matcher(t_ctx(), NULL, m, 0x80, MLX5DM_STE_DIR_RX,
						  b, 2, &n, &err), -EINVAL);
	assert_int_equal(mlx5dm_ste_build_matcher(NULL, NULL, m, 0, MLX5DM_STE_DIR_RX, b, 2, &n,
						  &err), -EINVAL);
	/* err_field may be NULL. */
	assert_int_equal(mlx5dm_ste_build_matcher(t_ctx(), NULL, m, C_MISC2, MLX5DM_STE_DIR_RX,
						  b, 2, &n, NULL), -ENOSPC);
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
	assert_int_equal(mlx5dm_ste_build_matcher(t_ctx(), NULL, m,
						  C_OUTER, MLX5DM_STE_DIR_RX, b, 4, &n, &err), 0);
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
	assert_int_equal(mlx5dm_ste_build_matcher(ctx, NULL, m,
						  C_OUTER, MLX5DM_STE_DIR_RX, b, 4, &n, &err), 0);
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
		cmocka_unit_test(test_lookups),
		cmocka_unit_test(test_gre_literal),
		cmocka_unit_test(test_selection_order),
		cmocka_unit_test(test_empty_mask),
		cmocka_unit_test(test_rejected_masks),
		cmocka_unit_test(test_source_qp),
		cmocka_unit_test(test_bad_arguments),
		cmocka_unit_test(test_value_checks),
		cmocka_unit_test(test_ste_arr),
	};

	return cmocka_run_group_tests_name("ste_build", tests, NULL, NULL);
}
