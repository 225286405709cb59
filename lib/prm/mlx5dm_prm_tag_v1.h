/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * 16-byte match-tag layouts of the v1 legacy (BWC) lookups. The same layout
 * describes the tag and its 16-byte bit mask. Offsets are from the tag start.
 *
 * Besides the PRM's own fields, a few layouts declare a "span" field that
 * covers adjacent PRM fields which software always writes together (the nine
 * TCP flag bits ns..fin, the 24-bit VNI inside the 32-bit network id); they
 * are marked as such and exist so the builders need no shifts of their own.
 */

#ifndef _MLX5DM_PRM_TAG_V1_H_
#define _MLX5DM_PRM_TAG_V1_H_

#include "mlx5dm_prm_bits.h"

/* l3_type / l4_type / VLAN qualifier encodings inside tags. */
enum {
	MLX5DM_TAG_L3_TYPE_IPV4 = 1,
	MLX5DM_TAG_L3_TYPE_IPV6 = 2,
	MLX5DM_TAG_L4_TYPE_TCP = 1,
	MLX5DM_TAG_L4_TYPE_UDP = 2,
	MLX5DM_TAG_L4_TYPE_IPSEC = 3,
	MLX5DM_TAG_VLAN_QUAL_NONE = 0,
	MLX5DM_TAG_VLAN_QUAL_SVLAN = 1,
	MLX5DM_TAG_VLAN_QUAL_CVLAN = 2,
};

/* A VLAN's qualifier and TCI fields, named first_* or second_*. */
#define MLX5DM_PRM_VLAN_FIELDS(n) \
	struct mlx5dm_prm_field n##_vlan_qualifier; \
	struct mlx5dm_prm_field n##_priority; \
	struct mlx5dm_prm_field n##_cfi; \
	struct mlx5dm_prm_field n##_vlan_id

/* ETHL2_SRC_DST (ste_eth_l2_src_dst_v1). */
struct mlx5dm_prm_tag_v1_eth_l2_src_dst {
	struct mlx5dm_prm_field dmac_47_16;
	struct mlx5dm_prm_field smac_47_16;
	struct mlx5dm_prm_field dmac_15_0;
	struct mlx5dm_prm_field functional_lb;
	struct mlx5dm_prm_field port;
	struct mlx5dm_prm_field l3_type;
	MLX5DM_PRM_VLAN_FIELDS(first);
	struct mlx5dm_prm_field smac_15_0;
};
extern const struct mlx5dm_prm_tag_v1_eth_l2_src_dst mlx5dm_prm_tag_v1_eth_l2_src_dst;

/*
 * ETHL2 (destination MAC) and ETHL2_SRC share one layout
 * (ste_eth_l2_dst_v1 / ste_eth_l2_src_v1): "mac" is the DMAC or the SMAC.
 */
struct mlx5dm_prm_tag_v1_eth_l2 {
	struct mlx5dm_prm_field sx_sniffer;
	struct mlx5dm_prm_field functional_lb;
	struct mlx5dm_prm_field ip_fragmented;
	struct mlx5dm_prm_field qp_type;
	struct mlx5dm_prm_field encapsulation_type;
	struct mlx5dm_prm_field port;
	struct mlx5dm_prm_field l3_type;
	struct mlx5dm_prm_field l4_type;
	MLX5DM_PRM_VLAN_FIELDS(first);
	struct mlx5dm_prm_field mac_47_16;
	struct mlx5dm_prm_field mac_15_0;
	struct mlx5dm_prm_field l3_ethertype;
	struct mlx5dm_prm_field tcp_syn;
	struct mlx5dm_prm_field force_lb;
	struct mlx5dm_prm_field l2_ok;
	struct mlx5dm_prm_field l3_ok;
	struct mlx5dm_prm_field l4_ok;
	MLX5DM_PRM_VLAN_FIELDS(second);
};
extern const struct mlx5dm_prm_tag_v1_eth_l2 mlx5dm_prm_tag_v1_eth_l2;

/* ETHL2_TNL (ste_eth_l2_tnl_v1): inner L2 plus the VXLAN network id. */
struct mlx5dm_prm_tag_v1_eth_l2_tnl {
	struct mlx5dm_prm_field l2_tunneling_network_id;
	struct mlx5dm_prm_field vni;	/* span: network_id[31:8] = the 24-bit VNI */
	struct mlx5dm_prm_field dmac_47_16;
	struct mlx5dm_prm_field dmac_15_0;
	struct mlx5dm_prm_field l3_ethertype;
	struct mlx5dm_prm_field ip_fragmented;
	struct mlx5dm_prm_field encp_type;
	struct mlx5dm_prm_field l3_type;
	struct mlx5dm_prm_field l4_type;
	MLX5DM_PRM_VLAN_FIELDS(first);
};
extern const struct mlx5dm_prm_tag_v1_eth_l2_tnl mlx5dm_prm_tag_v1_eth_l2_tnl;

/*
 * Header-check bits and TCP flags (PRM order ns .. fin) that two layouts
 * keep in the same place (DW3[27:16]).
 */
#define MLX5DM_PRM_L4_FLAG_FIELDS \
	struct mlx5dm_prm_field l4_ok; \
	struct mlx5dm_prm_field l3_ok; \
	struct mlx5dm_prm_field fragmented; \
	struct mlx5dm_prm_field tcp_ns; \
	struct mlx5dm_prm_field tcp_cwr; \
	struct mlx5dm_prm_field tcp_ece; \
	struct mlx5dm_prm_field tcp_urg; \
	struct mlx5dm_prm_field tcp_ack; \
	struct mlx5dm_prm_field tcp_psh; \
	struct mlx5dm_prm_field tcp_rst; \
	struct mlx5dm_prm_field tcp_syn; \
	struct mlx5dm_prm_field tcp_fin; \
	struct mlx5dm_prm_field tcp_flags	/* span: ns..fin, 9 bits */

/* ETHL3_IPV4_5_TUPLE (ste_eth_l3_ipv4_5_tuple_v1). */
struct mlx5dm_prm_tag_v1_eth_l3_ipv4_5_tuple {
	struct mlx5dm_prm_field source_address;
	struct mlx5dm_prm_field destination_address;
	struct mlx5dm_prm_field source_port;
	struct mlx5dm_prm_field destination_port;
	MLX5DM_PRM_L4_FLAG_FIELDS;
	struct mlx5dm_prm_field dscp;
	struct mlx5dm_prm_field ecn;
	struct mlx5dm_prm_field protocol;
};
extern const struct mlx5dm_prm_tag_v1_eth_l3_ipv4_5_tuple mlx5dm_prm_tag_v1_eth_l3_ipv4_5_tuple;

/* ETHL3_IPV4_MISC (ste_eth_l3_ipv4_misc_v1). */
struct mlx5dm_prm_tag_v1_eth_l3_ipv4_misc {
	struct mlx5dm_prm_field identification;
	struct mlx5dm_prm_field flags;
	struct mlx5dm_prm_field fragment_offset;
	struct mlx5dm_prm_field total_length;
	struct mlx5dm_prm_field checksum;
	struct mlx5dm_prm_field version;
	struct mlx5dm_prm_field ihl;
	struct mlx5dm_prm_field time_to_live;
	struct mlx5dm_prm_field voq_internal_prio;
};
extern const struct mlx5dm_prm_tag_v1_eth_l3_ipv4_misc mlx5dm_prm_tag_v1_eth_l3_ipv4_misc;

/* ETHL4 (ste_eth_l4_v1): IPv6 L3 fields plus L4 ports. */
struct mlx5dm_prm_tag_v1_eth_l4 {
	struct mlx5dm_prm_field ipv6_version;
	struct mlx5dm_prm_field dscp;
	struct mlx5dm_prm_field ecn;
	struct mlx5dm_prm_field ipv6_hop_limit;
	struct mlx5dm_prm_field protocol;
	struct mlx5dm_prm_field src_port;
	struct mlx5dm_prm_field dst_port;
	struct mlx5dm_prm_field first_fragment;
	struct mlx5dm_prm_field flow_label;
	struct mlx5dm_prm_field tcp_data_offset;
	MLX5DM_PRM_L4_FLAG_FIELDS;
	struct mlx5dm_prm_field ipv6_paylen;
};
extern const struct mlx5dm_prm_tag_v1_eth_l4 mlx5dm_prm_tag_v1_eth_l4;

/* ETHL4_MISC (ste_eth_l4_misc_v1). */
struct mlx5dm_prm_tag_v1_eth_l4_misc {
	struct mlx5dm_prm_field window_size;
	struct mlx5dm_prm_field urgent_pointer;
	struct mlx5dm_prm_field ack_num;
	struct mlx5dm_prm_field seq_num;
	struct mlx5dm_prm_field length;
	struct mlx5dm_prm_field checksum;
};
extern const struct mlx5dm_prm_tag_v1_eth_l4_misc mlx5dm_prm_tag_v1_eth_l4_misc;

/*
 * ICMP (ste_icmp_v1): the ETHL4_MISC lookup of an ICMP/ICMPv6 packet (STE
 * v1 needs no flex parser for ICMP).
 */
struct mlx5dm_prm_tag_v1_icmp {
	struct mlx5dm_prm_field icmp_payload_data;
	struct mlx5dm_prm_field icmp_header_data;
	struct mlx5dm_prm_field icmp_type;
	struct mlx5dm_prm_field icmp_code;
};
extern const struct mlx5dm_prm_tag_v1_icmp mlx5dm_prm_tag_v1_icmp;

/* MPLS (ste_mpls_v1): first label in DW1. */
struct mlx5dm_prm_tag_v1_mpls {
	struct mlx5dm_prm_field mpls_ok;
	struct mlx5dm_prm_field mpls0_s_bit;
	struct mlx5dm_prm_field mpls0_qualifier;
	struct mlx5dm_prm_field mpls0_label;
	struct mlx5dm_prm_field mpls0_exp;
	struct mlx5dm_prm_field mpls0_s_bos;
	struct mlx5dm_prm_field mpls0_ttl;
	struct mlx5dm_prm_field mpls1_label;
	struct mlx5dm_prm_field mpls2_label;
};
extern const struct mlx5dm_prm_tag_v1_mpls mlx5dm_prm_tag_v1_mpls;

/*
 * FLEX_PARSER_0 / FLEX_PARSER_1 (ste_flex_parser_0/1): four 32-bit flex
 * parser dwords each, parsers 3..0 (FLEX_PARSER_0) or 7..4 (FLEX_PARSER_1)
 * from DW0 to DW3, so parser id p sits at tag byte 4 * (3 - p % 4) of the
 * lookup p / 4 selects. Which header a parser holds is a device fact
 * (QUERY_HCA_CAP flex_parser_id_*).
 *
 * mlx5dm_prm_tag_v1_flex_mpls[p]: parser p's dword holding an MPLS header
 * (MPLS over GRE / over UDP) as on the wire: label[31:12] exp[11:9]
 * s_bos[8] ttl[7:0].
 */
#define MLX5DM_PRM_FLEX_PARSERS 8
#define MLX5DM_PRM_FLEX_PARSERS_PER_LOOKUP 4

struct mlx5dm_prm_tag_v1_flex_mpls {
	struct mlx5dm_prm_field label;
	struct mlx5dm_prm_field exp;
	struct mlx5dm_prm_field s_bos;
	struct mlx5dm_prm_field ttl;
};
extern const struct mlx5dm_prm_tag_v1_flex_mpls
	mlx5dm_prm_tag_v1_flex_mpls[MLX5DM_PRM_FLEX_PARSERS];

/* GRE (ste_gre_v1). */
struct mlx5dm_prm_tag_v1_gre {
	struct mlx5dm_prm_field gre_c_present;
	struct mlx5dm_prm_field gre_k_present;
	struct mlx5dm_prm_field gre_s_present;
	struct mlx5dm_prm_field strict_src_route;
	struct mlx5dm_prm_field recur;
	struct mlx5dm_prm_field flags;
	struct mlx5dm_prm_field version;
	struct mlx5dm_prm_field gre_protocol;
	struct mlx5dm_prm_field gre_key_h;
	struct mlx5dm_prm_field gre_key_l;
};
extern const struct mlx5dm_prm_tag_v1_gre mlx5dm_prm_tag_v1_gre;

/*
 * Four big-endian dwords: IPV6_DES / IPV6_SRC (address bits 127..0, most
 * significant dword first) and STEERING_REGISTERS_0/1 (ste_register_0/1:
 * register_N_h, register_N_l pairs = reg_c0..c3 or reg_c4..c7).
 */
struct mlx5dm_prm_tag_dw4 {
	struct mlx5dm_prm_field dw[4];
};
extern const struct mlx5dm_prm_tag_dw4 mlx5dm_prm_tag_dw4;

/* GENERAL_PURPOSE (ste_general_purpose): metadata register A in DW0. */
struct mlx5dm_prm_tag_general_purpose {
	struct mlx5dm_prm_field general_purpose_lookup_field;
};
extern const struct mlx5dm_prm_tag_general_purpose mlx5dm_prm_tag_general_purpose;

/* SRC_QP_GVMI (ste_src_gvmi_qp_v1): the sending function's vhca_id and QP. */
struct mlx5dm_prm_tag_v1_src_gvmi_qp {
	struct mlx5dm_prm_field source_gvmi;
	struct mlx5dm_prm_field source_qp;
};
extern const struct mlx5dm_prm_tag_v1_src_gvmi_qp mlx5dm_prm_tag_v1_src_gvmi_qp;

#endif /* _MLX5DM_PRM_TAG_V1_H_ */
