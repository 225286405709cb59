/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * STE v1 lookups as data: for each lookup kind its v1 type codes (outer,
 * inner) and the map from fte_match_param fields to its 16-byte tag. The
 * generic engine (mlx5dm_ste_build.c) runs these maps over the mask (bit
 * mask, consumption) and over rule values (tags).
 *
 * Flex-parser lookups are the one place where a position is not the
 * format's but the device's: the tag dword and the lookup type follow the
 * parser id the device gives the protocol. They are declared here once per
 * possible parser id (mlx5dm_ste_v1_flex_lookups[protocol][id]); the engine
 * picks the device's, so each is still a fixed map, as every other lookup.
 */

#include "mlx5dm_ste_priv.h"

#define TAG(layout, f) (&mlx5dm_prm_tag_v1_##layout.f)
#define DW4(i) (&mlx5dm_prm_tag_dw4.dw[i])

#define COPY(dstp, s) { .dst = (dstp), .src = s, .kind = MLX5DM_STE_FIELD_MAP_COPY }
#define SPEC(dstp, f) COPY(dstp, MLX5DM_STE_FSRC_SPEC(f))
#define SEC(dstp, sec, f) COPY(dstp, MLX5DM_STE_FSRC(sec, f))
#define IO(dstp, sec, fo, fi) COPY(dstp, MLX5DM_STE_FSRC_IO(sec, fo, fi))
/* l3_type from the matcher's ip_version. */
#define L3_TYPE(dstp) { \
	.dst = (dstp), .src = MLX5DM_STE_FSRC_SPEC(ip_version), \
	.kind = MLX5DM_STE_FIELD_MAP_L3_TYPE }
/* First VLAN qualifier from the cvlan_tag / svlan_tag bits of the headers. */
#define VLAN1_QUAL(dstp) { \
	.dst = (dstp), .src = MLX5DM_STE_FSRC_SPEC(cvlan_tag), \
	.src2 = MLX5DM_STE_FSRC_SPEC(svlan_tag), .kind = MLX5DM_STE_FIELD_MAP_VLAN_QUAL }
#define LU(o, i) { MLX5DM_STE_V1_LU_##o, MLX5DM_STE_V1_LU_##i }
#define DEF(lu, m) { .lu_type = lu, .n_map = MLX5DM_ARRAY_SIZE(m), .map = (m) }

static const struct mlx5dm_ste_field_map mlx5dm_ste_v1_map_l2_src_dst[] = {
	SPEC(TAG(eth_l2_src_dst, dmac_47_16), dmac_47_16),
	SPEC(TAG(eth_l2_src_dst, dmac_15_0), dmac_15_0),
	SPEC(TAG(eth_l2_src_dst, smac_47_16), smac_47_16),
	SPEC(TAG(eth_l2_src_dst, smac_15_0), smac_15_0),
	SPEC(TAG(eth_l2_src_dst, first_vlan_id), first_vid),
	SPEC(TAG(eth_l2_src_dst, first_cfi), first_cfi),
	SPEC(TAG(eth_l2_src_dst, first_priority), first_prio),
	L3_TYPE(TAG(eth_l2_src_dst, l3_type)),
	VLAN1_QUAL(TAG(eth_l2_src_dst, first_vlan_qualifier)),
};

/*
 * ETHL2 (dst) and ETHL2_SRC: one layout, one map; only the MAC differs,
 * so it is the first two entries and the rest is shared.
 */
#define MLX5DM_STE_V1_L2_COMMON(mac) \
	SPEC(TAG(eth_l2, mac_47_16), mac##_47_16), \
	SPEC(TAG(eth_l2, mac_15_0), mac##_15_0), \
	SPEC(TAG(eth_l2, first_vlan_id), first_vid), \
	SPEC(TAG(eth_l2, first_cfi), first_cfi), \
	SPEC(TAG(eth_l2, first_priority), first_prio), \
	SPEC(TAG(eth_l2, ip_fragmented), frag), \
	SPEC(TAG(eth_l2, l3_ethertype), ethertype), \
	L3_TYPE(TAG(eth_l2, l3_type)), \
	VLAN1_QUAL(TAG(eth_l2, first_vlan_qualifier)), \
	{ \
		.dst = TAG(eth_l2, second_vlan_qualifier), \
		.src = MLX5DM_STE_FSRC_IO(misc, outer_second_cvlan_tag, \
					  inner_second_cvlan_tag), \
		.src2 = MLX5DM_STE_FSRC_IO(misc, outer_second_svlan_tag, \
					   inner_second_svlan_tag), \
		.kind = MLX5DM_STE_FIELD_MAP_VLAN_QUAL, \
	}, \
	IO(TAG(eth_l2, second_vlan_id), misc, outer_second_vid, inner_second_vid), \
	IO(TAG(eth_l2, second_cfi), misc, outer_second_cfi, inner_second_cfi), \
	IO(TAG(eth_l2, second_priority), misc, outer_second_prio, inner_second_prio)

static const struct mlx5dm_ste_field_map mlx5dm_ste_v1_map_l2_src[] = {
	MLX5DM_STE_V1_L2_COMMON(smac),
};

static const struct mlx5dm_ste_field_map mlx5dm_ste_v1_map_l2_dst[] = {
	MLX5DM_STE_V1_L2_COMMON(dmac),
};

/* Inner L2 with the VXLAN VNI (VNI << 8 in the network id). */
static const struct mlx5dm_ste_field_map mlx5dm_ste_v1_map_l2_tnl[] = {
	SPEC(TAG(eth_l2_tnl, dmac_47_16), dmac_47_16),
	SPEC(TAG(eth_l2_tnl, dmac_15_0), dmac_15_0),
	SPEC(TAG(eth_l2_tnl, first_vlan_id), first_vid),
	SPEC(TAG(eth_l2_tnl, first_cfi), first_cfi),
	SPEC(TAG(eth_l2_tnl, first_priority), first_prio),
	SPEC(TAG(eth_l2_tnl, ip_fragmented), frag),
	SPEC(TAG(eth_l2_tnl, l3_ethertype), ethertype),
	L3_TYPE(TAG(eth_l2_tnl, l3_type)),
	SEC(TAG(eth_l2_tnl, vni), misc, vxlan_vni),
	VLAN1_QUAL(TAG(eth_l2_tnl, first_vlan_qualifier)),
};

static const struct mlx5dm_ste_field_map mlx5dm_ste_v1_map_ipv4_misc[] = {
	SPEC(TAG(eth_l3_ipv4_misc, time_to_live), ip_ttl_hoplimit),
	SPEC(TAG(eth_l3_ipv4_misc, ihl), ipv4_ihl),
};

/* TCP and UDP ports share the tag's port fields (a packet has one L4). */
static const struct mlx5dm_ste_field_map mlx5dm_ste_v1_map_ipv4_5_tuple[] = {
	SPEC(TAG(eth_l3_ipv4_5_tuple, destination_address), dst_ip_31_0),
	SPEC(TAG(eth_l3_ipv4_5_tuple, source_address), src_ip_31_0),
	SPEC(TAG(eth_l3_ipv4_5_tuple, destination_port), tcp_dport),
	SPEC(TAG(eth_l3_ipv4_5_tuple, destination_port), udp_dport),
	SPEC(TAG(eth_l3_ipv4_5_tuple, source_port), tcp_sport),
	SPEC(TAG(eth_l3_ipv4_5_tuple, source_port), udp_sport),
	SPEC(TAG(eth_l3_ipv4_5_tuple, protocol), ip_protocol),
	SPEC(TAG(eth_l3_ipv4_5_tuple, fragmented), frag),
	SPEC(TAG(eth_l3_ipv4_5_tuple, dscp), ip_dscp),
	SPEC(TAG(eth_l3_ipv4_5_tuple, ecn), ip_ecn),
	SPEC(TAG(eth_l3_ipv4_5_tuple, tcp_flags), tcp_flags),
};

static const struct mlx5dm_ste_field_map mlx5dm_ste_v1_map_ipv6_dst[] = {
	SPEC(DW4(0), dst_ip_127_96),
	SPEC(DW4(1), dst_ip_95_64),
	SPEC(DW4(2), dst_ip_63_32),
	SPEC(DW4(3), dst_ip_31_0),
};

static const struct mlx5dm_ste_field_map mlx5dm_ste_v1_map_ipv6_src[] = {
	SPEC(DW4(0), src_ip_127_96),
	SPEC(DW4(1), src_ip_95_64),
	SPEC(DW4(2), src_ip_63_32),
	SPEC(DW4(3), src_ip_31_0),
};

/* IPv6 L3 fields and L4 ports (the IPv6 counterpart of the 5-tuple). */
static const struct mlx5dm_ste_field_map mlx5dm_ste_v1_map_ethl4[] = {
	SPEC(TAG(eth_l4, dst_port), tcp_dport),
	SPEC(TAG(eth_l4, src_port), tcp_sport),
	SPEC(TAG(eth_l4, dst_port), udp_dport),
	SPEC(TAG(eth_l4, src_port), udp_sport),
	SPEC(TAG(eth_l4, protocol), ip_protocol),
	SPEC(TAG(eth_l4, fragmented), frag),
	SPEC(TAG(eth_l4, dscp), ip_dscp),
	SPEC(TAG(eth_l4, ecn), ip_ecn),
	SPEC(TAG(eth_l4, ipv6_hop_limit), ip_ttl_hoplimit),
	IO(TAG(eth_l4, flow_label), misc, outer_ipv6_flow_label, inner_ipv6_flow_label),
	SPEC(TAG(eth_l4, tcp_flags), tcp_flags),
};

static const struct mlx5dm_ste_field_map mlx5dm_ste_v1_map_ethl4_misc[] = {
	IO(TAG(eth_l4_misc, seq_num), misc3, outer_tcp_seq_num, inner_tcp_seq_num),
	IO(TAG(eth_l4_misc, ack_num), misc3, outer_tcp_ack_num, inner_tcp_ack_num),
};

/*
 * ICMP and ICMPv6 share the tag (misc3 has outer fields only); a matcher
 * masks the fields of one of them (its pattern's L3 decides which).
 */
static const struct mlx5dm_ste_field_map mlx5dm_ste_v1_map_icmp[] = {
	SEC(TAG(icmp, icmp_header_data), misc3, icmp_header_data),
	SEC(TAG(icmp, icmp_type), misc3, icmp_type),
	SEC(TAG(icmp, icmp_code), misc3, icmp_code),
	SEC(TAG(icmp, icmp_header_data), misc3, icmpv6_header_data),
	SEC(TAG(icmp, icmp_type), misc3, icmpv6_type),
	SEC(TAG(icmp, icmp_code), misc3, icmpv6_code),
};

static const struct mlx5dm_ste_field_map mlx5dm_ste_v1_map_mpls[] = {
	IO(TAG(mpls, mpls0_label), misc2, outer_first_mpls_label, inner_first_mpls_label),
	IO(TAG(mpls, mpls0_s_bos), misc2, outer_first_mpls_s_bos, inner_first_mpls_s_bos),
	IO(TAG(mpls, mpls0_exp), misc2, outer_first_mpls_exp, inner_first_mpls_exp),
	IO(TAG(mpls, mpls0_ttl), misc2, outer_first_mpls_ttl, inner_first_mpls_ttl),
};

/*
 * MPLS over GRE / over UDP: the first MPLS header after the tunnel, which
 * the device's flex parser p holds as one dword, field for field the
 * misc2.outer_first_mpls_over_<proto>_* fields (label, exp, s_bos, ttl).
 */
#define MLX5DM_STE_V1_MPLS_FIELDS 4
#define FLEX_MPLS_MAP(p, proto) { \
	SEC(&mlx5dm_prm_tag_v1_flex_mpls[p].label, misc2, outer_first_mpls_over_##proto##_label), \
	SEC(&mlx5dm_prm_tag_v1_flex_mpls[p].exp, misc2, outer_first_mpls_over_##proto##_exp), \
	SEC(&mlx5dm_prm_tag_v1_flex_mpls[p].s_bos, misc2, outer_first_mpls_over_##proto##_s_bos), \
	SEC(&mlx5dm_prm_tag_v1_flex_mpls[p].ttl, misc2, outer_first_mpls_over_##proto##_ttl), \
}
#define FLEX_MPLS_MAPS(proto) { \
	FLEX_MPLS_MAP(0, proto), FLEX_MPLS_MAP(1, proto), FLEX_MPLS_MAP(2, proto), \
	FLEX_MPLS_MAP(3, proto), FLEX_MPLS_MAP(4, proto), FLEX_MPLS_MAP(5, proto), \
	FLEX_MPLS_MAP(6, proto), FLEX_MPLS_MAP(7, proto), \
}

static const struct mlx5dm_ste_field_map mlx5dm_ste_v1_map_flex_mpls
	[MLX5DM_STE_FLEX_MAX][MLX5DM_PRM_FLEX_PARSERS][MLX5DM_STE_V1_MPLS_FIELDS] = {
	[MLX5DM_STE_FLEX_MPLS_OVER_GRE] = FLEX_MPLS_MAPS(gre),
	[MLX5DM_STE_FLEX_MPLS_OVER_UDP] = FLEX_MPLS_MAPS(udp),
};

static const struct mlx5dm_ste_field_map mlx5dm_ste_v1_map_gre[] = {
	SEC(TAG(gre, gre_protocol), misc, gre_protocol),
	SEC(TAG(gre, gre_k_present), misc, gre_k_present),
	SEC(TAG(gre, gre_key_h), misc, gre_key_h),
	SEC(TAG(gre, gre_key_l), misc, gre_key_l),
	SEC(TAG(gre, gre_c_present), misc, gre_c_present),
	SEC(TAG(gre, gre_s_present), misc, gre_s_present),
};

/* register_N_h / register_N_l = reg_c pairs, most significant first. */
static const struct mlx5dm_ste_field_map mlx5dm_ste_v1_map_registers_0[] = {
	SEC(DW4(0), misc2, metadata_reg_c_0),
	SEC(DW4(1), misc2, metadata_reg_c_1),
	SEC(DW4(2), misc2, metadata_reg_c_2),
	SEC(DW4(3), misc2, metadata_reg_c_3),
};

static const struct mlx5dm_ste_field_map mlx5dm_ste_v1_map_registers_1[] = {
	SEC(DW4(0), misc2, metadata_reg_c_4),
	SEC(DW4(1), misc2, metadata_reg_c_5),
	SEC(DW4(2), misc2, metadata_reg_c_6),
	SEC(DW4(3), misc2, metadata_reg_c_7),
};

static const struct mlx5dm_ste_field_map mlx5dm_ste_v1_map_general_purpose[] = {
	SEC(&mlx5dm_prm_tag_general_purpose.general_purpose_lookup_field, misc2, metadata_reg_a),
};

/* source_port already holds the vport's vhca_id (struct mlx5dm_ste_dev_caps.source_gvmi). */
static const struct mlx5dm_ste_field_map mlx5dm_ste_v1_map_src_gvmi_qp[] = {
	SEC(TAG(src_gvmi_qp, source_gvmi), misc, source_port),
	SEC(TAG(src_gvmi_qp, source_qp), misc, source_sqn),
};

static const struct mlx5dm_ste_lookup_def mlx5dm_ste_v1_def[MLX5DM_STE_LOOKUP_MAX] = {
	[MLX5DM_STE_LOOKUP_DONT_CARE] = { .lu_type = LU(DONT_CARE, DONT_CARE) },
	[MLX5DM_STE_LOOKUP_GENERAL_PURPOSE] =
		DEF(LU(GENERAL_PURPOSE, GENERAL_PURPOSE), mlx5dm_ste_v1_map_general_purpose),
	[MLX5DM_STE_LOOKUP_REGISTERS_0] =
		DEF(LU(STEERING_REGISTERS_0, STEERING_REGISTERS_0), mlx5dm_ste_v1_map_registers_0),
	[MLX5DM_STE_LOOKUP_REGISTERS_1] =
		DEF(LU(STEERING_REGISTERS_1, STEERING_REGISTERS_1), mlx5dm_ste_v1_map_registers_1),
	[MLX5DM_STE_LOOKUP_ETHL2_SRC_DST] =
		DEF(LU(ETHL2_SRC_DST_O, ETHL2_SRC_DST_I), mlx5dm_ste_v1_map_l2_src_dst),
	[MLX5DM_STE_LOOKUP_ETHL2_SRC] =
		DEF(LU(ETHL2_SRC_O, ETHL2_SRC_I), mlx5dm_ste_v1_map_l2_src),
	[MLX5DM_STE_LOOKUP_ETHL2_DST] = DEF(LU(ETHL2_O, ETHL2_I), mlx5dm_ste_v1_map_l2_dst),
	[MLX5DM_STE_LOOKUP_ETHL2_TNL] = DEF(LU(ETHL2_TNL, ETHL2_TNL), mlx5dm_ste_v1_map_l2_tnl),
	[MLX5DM_STE_LOOKUP_IPV4_MISC] =
		DEF(LU(ETHL3_IPV4_MISC_O, ETHL3_IPV4_MISC_I), mlx5dm_ste_v1_map_ipv4_misc),
	[MLX5DM_STE_LOOKUP_IPV4_5_TUPLE] =
		DEF(LU(ETHL3_IPV4_5_TUPLE_O, ETHL3_IPV4_5_TUPLE_I), mlx5dm_ste_v1_map_ipv4_5_tuple),
	[MLX5DM_STE_LOOKUP_IPV6_DST] = DEF(LU(IPV6_DES_O, IPV6_DES_I), mlx5dm_ste_v1_map_ipv6_dst),
	[MLX5DM_STE_LOOKUP_IPV6_SRC] = DEF(LU(IPV6_SRC_O, IPV6_SRC_I), mlx5dm_ste_v1_map_ipv6_src),
	[MLX5DM_STE_LOOKUP_ETHL4] = DEF(LU(ETHL4_O, ETHL4_I), mlx5dm_ste_v1_map_ethl4),
	/*
	 * rdma-core uses the _O code for inner seq/ack too; we follow the
	 * lookup-type table (0x0114 = ETHL4_MISC_I) so the inner lookup
	 * reads the inner TCP header.
	 */
	[MLX5DM_STE_LOOKUP_ETHL4_MISC] =
		DEF(LU(ETHL4_MISC_O, ETHL4_MISC_I), mlx5dm_ste_v1_map_ethl4_misc),
	[MLX5DM_STE_LOOKUP_MPLS] = DEF(LU(MPLS_O, MPLS_I), mlx5dm_ste_v1_map_mpls),
	/* ICMP reads the outer L4 header through the L4 misc lookup (as rdma-core does). */
	[MLX5DM_STE_LOOKUP_ICMP] = DEF(LU(ETHL4_MISC_O, ETHL4_MISC_O), mlx5dm_ste_v1_map_icmp),
	[MLX5DM_STE_LOOKUP_GRE] = DEF(LU(GRE, GRE), mlx5dm_ste_v1_map_gre),
	[MLX5DM_STE_LOOKUP_SRC_GVMI_QP] =
		DEF(LU(SRC_QP_GVMI, SRC_QP_GVMI), mlx5dm_ste_v1_map_src_gvmi_qp),
};

/* Parsers 0..3 are read by the FLEX_PARSER_0 lookup, 4..7 by FLEX_PARSER_1. */
#define FLEX_LU(p) ((p) < MLX5DM_PRM_FLEX_PARSERS_PER_LOOKUP ? MLX5DM_STE_V1_LU_FLEX_PARSER_0 : \
		    MLX5DM_STE_V1_LU_FLEX_PARSER_1)
#define FLEX_DEF(k, p) { \
	.lu_type = { FLEX_LU(p), FLEX_LU(p) }, .n_map = MLX5DM_STE_V1_MPLS_FIELDS, \
	.map = mlx5dm_ste_v1_map_flex_mpls[MLX5DM_STE_FLEX_##k][p], \
}
#define FLEX_DEFS(k) [MLX5DM_STE_FLEX_##k] = { \
	FLEX_DEF(k, 0), FLEX_DEF(k, 1), FLEX_DEF(k, 2), FLEX_DEF(k, 3), \
	FLEX_DEF(k, 4), FLEX_DEF(k, 5), FLEX_DEF(k, 6), FLEX_DEF(k, 7), \
}

const struct mlx5dm_ste_lookup_def
	mlx5dm_ste_v1_flex_lookups[MLX5DM_STE_FLEX_MAX][MLX5DM_PRM_FLEX_PARSERS] = {
	FLEX_DEFS(MPLS_OVER_GRE),
	FLEX_DEFS(MPLS_OVER_UDP),
};

#define PTR(k) [MLX5DM_STE_LOOKUP_##k] = &mlx5dm_ste_v1_def[MLX5DM_STE_LOOKUP_##k]

const struct mlx5dm_ste_lookup_def *const mlx5dm_ste_v1_lookups[MLX5DM_STE_LOOKUP_MAX] = {
	PTR(DONT_CARE), PTR(GENERAL_PURPOSE), PTR(REGISTERS_0), PTR(REGISTERS_1),
	PTR(ETHL2_SRC_DST), PTR(ETHL2_SRC), PTR(ETHL2_DST), PTR(ETHL2_TNL),
	PTR(IPV4_MISC), PTR(IPV4_5_TUPLE), PTR(IPV6_DST), PTR(IPV6_SRC),
	PTR(ETHL4), PTR(ETHL4_MISC), PTR(MPLS), PTR(ICMP), PTR(GRE), PTR(SRC_GVMI_QP),
};
