/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * rte_flow pattern items -> the exact fte_match_param mask and value
 * (448 bytes each), including implied fields (ip_version, ip_protocol,
 * VLAN tag bits, the VXLAN port) and `last` ranges a mask can express.
 * Expected bits are written at literal mlx5_ifc.h offsets. ip_version
 * follows the SW-steering convention (mask = value = the version).
 */

#include "test_flow_common.h"

#define ITEM(t, s, m) { .type = RTE_FLOW_ITEM_TYPE_##t, .spec = (s), .mask = (m) }
#define ITEM_L(t, s, l, m) { .type = RTE_FLOW_ITEM_TYPE_##t, .spec = (s), .last = (l), .mask = (m) }
#define END_ITEM { .type = RTE_FLOW_ITEM_TYPE_END }
#define ITEMS(...) ((const struct rte_flow_item[]){ __VA_ARGS__, END_ITEM })
#define C(type, ...) (&(const struct type){ __VA_ARGS__ })
#define MAC(a, b, c, d, e, f) { .addr_bytes = { a, b, c, d, e, f } }
#define IP4(a, b, c, d) RTE_BE32(((uint32_t)(a) << 24) | ((b) << 16) | ((c) << 8) | (d))
#define FF16 { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, \
	       0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff }

/* One expected field: absolute bit, width (from a "bit, width" macro), mask, value. */
struct t_fexp {
	uint16_t bit;
	uint8_t width;
	uint32_t m;
	uint32_t v;
};
#define F_(sec, b, w, m, v) { sec(b), (w), (m), (v) }
#define F(sec, f, m, v) F_(sec, f, m, v)
#define V4(sec) F(sec, S_IP_VERSION, 4, 4)
#define V6(sec) F(sec, S_IP_VERSION, 6, 6)

struct item_case {
	const char *name;
	const struct rte_flow_attr *attr;
	const struct rte_flow_item *items;
	uint64_t layers;                /* must all be set */
	struct t_fexp f[16];            /* the whole expected match; width 0 ends */
};

static const struct rte_flow_item_eth eth_full = {
	.hdr.dst_addr = MAC(0xff, 0xff, 0xff, 0xff, 0xff, 0xff),
	.hdr.src_addr = MAC(0xff, 0xff, 0xff, 0xff, 0xff, 0xff),
	.hdr.ether_type = RTE_BE16(0xffff),
};
static const struct rte_flow_item_eth eth_type = { .hdr.ether_type = RTE_BE16(0xffff) };
static const struct rte_flow_item_vlan vlan_full = {
	.hdr.vlan_tci = RTE_BE16(0xffff),
	.hdr.eth_proto = RTE_BE16(0xffff),
};
static const struct rte_flow_item_eth eth_spec = {
	.hdr.dst_addr = MAC(0x00, 0x11, 0x22, 0x33, 0x44, 0x55),
	.hdr.src_addr = MAC(0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb),
	.hdr.ether_type = RTE_BE16(0x0800),
};
/* PCP 5, DEI 1, VID 0x123; then IPv4. */
static const struct rte_flow_item_vlan vlan_spec = {
	.hdr.vlan_tci = RTE_BE16(0xb123),
	.hdr.eth_proto = RTE_BE16(0x0800),
};
static const struct rte_flow_item_ipv4 frag_all = { .hdr.fragment_offset = RTE_BE16(0x3fff) };
static const struct rte_flow_item_ipv6 v6_src_mask = { .hdr.src_addr = FF16 };
static const struct rte_flow_item_eth has_vlan_mask = { .has_vlan = 1 };
#define P_V4 ITEM(ETH, NULL, NULL), ITEM(IPV4, NULL, NULL)
#define IN (&t_attr_in)

static const struct item_case item_cases[] = {
	{ "ETH", IN, ITEMS(ITEM(ETH, &eth_spec, &eth_full)), MLX5DM_FLOW_L_L2, {
		F(T_OUTER, S_DMAC_47_16, 0xffffffff, 0x00112233),
		F(T_OUTER, S_DMAC_15_0, 0xffff, 0x4455),
		F(T_OUTER, S_SMAC_47_16, 0xffffffff, 0x66778899),
		F(T_OUTER, S_SMAC_15_0, 0xffff, 0xaabb),
		F(T_OUTER, S_ETHERTYPE, 0xffff, 0x0800) } },
	/* rte_flow's default ETH mask leaves the EtherType out. */
	{ "ETH default mask", IN, ITEMS(ITEM(ETH, &eth_spec, NULL)), MLX5DM_FLOW_L_L2, {
		F(T_OUTER, S_DMAC_47_16, 0xffffffff, 0x00112233),
		F(T_OUTER, S_DMAC_15_0, 0xffff, 0x4455),
		F(T_OUTER, S_SMAC_47_16, 0xffffffff, 0x66778899),
		F(T_OUTER, S_SMAC_15_0, 0xffff, 0xaabb) } },
	/* A tag of either kind: the C-tag here, the S-tag in a second sub-rule. */
	{ "ETH has_vlan", IN, ITEMS(ITEM(ETH, C(rte_flow_item_eth, .has_vlan = 1),
					 &has_vlan_mask)), 0, {
		F(T_OUTER, S_CVLAN_TAG, 1, 1),
		F(T_OUTER, S_SVLAN_TAG, 1, 0) } },
	/* No tag: both qualifier bits 0. */
	{ "ETH no VLAN", IN, ITEMS(ITEM(ETH, C(rte_flow_item_eth, .has_vlan = 0),
					&has_vlan_mask)), 0, {
		F(T_OUTER, S_CVLAN_TAG, 1, 0),
		F(T_OUTER, S_SVLAN_TAG, 1, 0) } },
	/* has_vlan and a TPID: the TPID's kind. */
	{ "ETH 0x88a8 has_vlan", IN,
	  ITEMS(ITEM(ETH, C(rte_flow_item_eth, .hdr.ether_type = RTE_BE16(0x88a8),
			    .has_vlan = 1),
		     C(rte_flow_item_eth, .hdr.ether_type = RTE_BE16(0xffff), .has_vlan = 1))),
	  0, {
		F(T_OUTER, S_CVLAN_TAG, 1, 0),
		F(T_OUTER, S_SVLAN_TAG, 1, 1) } },
	{ "ETH 0x8100 / VLAN", IN,
	  ITEMS(ITEM(ETH, C(rte_flow_item_eth, .hdr.ether_type = RTE_BE16(0x8100)), &eth_type),
		ITEM(VLAN, &vlan_spec, &vlan_full)), MLX5DM_FLOW_L_VLAN, {
		F(T_OUTER, S_CVLAN_TAG, 1, 1),
		F(T_OUTER, S_SVLAN_TAG, 1, 0),
		F(T_OUTER, S_FIRST_PRIO, 7, 5),
		F(T_OUTER, S_FIRST_CFI, 1, 1),
		F(T_OUTER, S_FIRST_VID, 0xfff, 0x123),
		F(T_OUTER, S_ETHERTYPE, 0xffff, 0x0800) } },
	/* Default VLAN mask: the VID only; the tag bit is implied. */
	{ "VLAN default mask", IN, ITEMS(ITEM(ETH, NULL, NULL), ITEM(VLAN, &vlan_spec, NULL)),
	  MLX5DM_FLOW_L_VLAN, {
		F(T_OUTER, S_CVLAN_TAG, 1, 1),
		F(T_OUTER, S_SVLAN_TAG, 1, 0),
		F(T_OUTER, S_FIRST_VID, 0xfff, 0x123) } },
	{ "QinQ", IN,
	  ITEMS(ITEM(ETH, C(rte_flow_item_eth, .hdr.ether_type = RTE_BE16(0x88a8)), &eth_type),
		ITEM(VLAN, C(rte_flow_item_vlan, .hdr.vlan_tci = RTE_BE16(10),
			     .hdr.eth_proto = RTE_BE16(0x8100)), &vlan_full),
		ITEM(VLAN, C(rte_flow_item_vlan, .hdr.vlan_tci = RTE_BE16(20),
			     .hdr.eth_proto = RTE_BE16(0x0800)), &vlan_full)),
	  MLX5DM_FLOW_L_VLAN | MLX5DM_FLOW_L_VLAN2, {
		F(T_OUTER, S_CVLAN_TAG, 1, 0),
		F(T_OUTER, S_SVLAN, 1, 1),
		F(T_OUTER, S_FIRST_PRIO, 7, 0),
		F(T_OUTER, S_FIRST_CFI, 1, 0),
		F(T_OUTER, S_FIRST_VID, 0xfff, 10),
		F(T_MISC, M_OUTER_SECOND_CVLAN_TAG, 1, 1),
		F(T_MISC, M_OUTER_SECOND_SVLAN, 1, 0),
		F(T_MISC, M_OUTER_SECOND_PRIO, 7, 0),
		F(T_MISC, M_OUTER_SECOND_CFI, 1, 0),
		F(T_MISC, M_OUTER_SECOND_VID, 0xfff, 20),
		F(T_OUTER, S_ETHERTYPE, 0xffff, 0x0800) } },
	{ "IPV4", IN,
	  ITEMS(ITEM(ETH, NULL, NULL),
		ITEM(IPV4, C(rte_flow_item_ipv4, .hdr.version_ihl = 0x45,
			     .hdr.type_of_service = 0xb9, /* DSCP 46, ECN 1 */
			     .hdr.time_to_live = 64, .hdr.next_proto_id = 17,
			     .hdr.src_addr = IP4(10, 0, 0, 1), .hdr.dst_addr = IP4(10, 0, 0, 2)),
		     C(rte_flow_item_ipv4, .hdr.version_ihl = 0x0f, .hdr.type_of_service = 0xff,
		       .hdr.time_to_live = 0xff, .hdr.next_proto_id = 0xff,
		       .hdr.src_addr = RTE_BE32(0xffffffff),
		       .hdr.dst_addr = RTE_BE32(0xffffffff)))),
	  MLX5DM_FLOW_L_IPV4, {
		V4(T_OUTER),
		F(T_OUTER, S_IPV4_IHL, 0xf, 5),
		F(T_OUTER, S_IP_DSCP, 0x3f, 46),
		F(T_OUTER, S_IP_ECN, 3, 1),
		F(T_OUTER, S_TTL, 0xff, 64),
		F(T_OUTER, S_IP_PROTOCOL, 0xff, 17),
		F(T_OUTER, S_SRC_IP_31_0, 0xffffffff, 0x0a000001),
		F(T_OUTER, S_DST_IP_31_0, 0xffffffff, 0x0a000002) } },
	{ "IPV4 not a fragment", IN, ITEMS(ITEM(IPV4, C(rte_flow_item_ipv4, .hdr.version_ihl = 0),
						&frag_all)), 0, {
		V4(T_OUTER),
		F(T_OUTER, S_FRAG, 1, 0) } },
	{ "IPV4 not a fragment, DF set outside the mask", IN,
	  ITEMS(ITEM(IPV4, C(rte_flow_item_ipv4, .hdr.fragment_offset = RTE_BE16(0x4000)),
		     &frag_all)), 0, {
		V4(T_OUTER),
		F(T_OUTER, S_FRAG, 1, 0) } },
	{ "IPV4 a fragment", IN,
	  ITEMS(ITEM_L(IPV4, C(rte_flow_item_ipv4, .hdr.fragment_offset = RTE_BE16(1)),
		       &frag_all, &frag_all)), 0, {
		V4(T_OUTER),
		F(T_OUTER, S_FRAG, 1, 1) } },
	{ "IPV6", IN,
	  ITEMS(ITEM(IPV6, C(rte_flow_item_ipv6,
			     /* version 6, traffic class 0xb9, flow label 0x12345 */
			     .hdr.vtc_flow = RTE_BE32(0x6b912345), .hdr.proto = 6,
			     .hdr.hop_limits = 255,
			     .hdr.src_addr = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 },
			     .hdr.dst_addr = { 0x20, 0x01, 0x0d, 0xb8, [15] = 2 }),
		     C(rte_flow_item_ipv6, .hdr.vtc_flow = RTE_BE32(0x0fffffff), .hdr.proto = 0xff,
		       .hdr.hop_limits = 0xff, .hdr.src_addr = FF16, .hdr.dst_addr = FF16))),
	  MLX5DM_FLOW_L_IPV6, {
		V6(T_OUTER),
		F(T_OUTER, S_IP_DSCP, 0x3f, 46),
		F(T_OUTER, S_IP_ECN, 3, 1),
		F(T_MISC, M_OUTER_IPV6_FLOW_LABEL, 0xfffff, 0x12345),
		F(T_OUTER, S_IP_PROTOCOL, 0xff, 6),
		F(T_OUTER, S_TTL, 0xff, 255),
		F(T_OUTER, S_SRC_IP_127_96, 0xffffffff, 0x20010db8),
		F(T_OUTER, S_SRC_IP_95_64, 0xffffffff, 0),
		F(T_OUTER, S_SRC_IP_63_32, 0xffffffff, 0),
		F(T_OUTER, S_SRC_IP_31_0, 0xffffffff, 1),
		F(T_OUTER, S_DST_IP_127_96, 0xffffffff, 0x20010db8),
		F(T_OUTER, S_DST_IP_95_64, 0xffffffff, 0),
		F(T_OUTER, S_DST_IP_63_32, 0xffffffff, 0),
		F(T_OUTER, S_DST_IP_31_0, 0xffffffff, 2) } },
	{ "TCP", IN,
	  ITEMS(P_V4, ITEM(TCP, C(rte_flow_item_tcp, .hdr.src_port = RTE_BE16(1234),
				  .hdr.dst_port = RTE_BE16(80),
				  .hdr.sent_seq = RTE_BE32(0x11223344),
				  .hdr.recv_ack = RTE_BE32(0x55667788), .hdr.tcp_flags = 0x12),
			   C(rte_flow_item_tcp, .hdr.src_port = RTE_BE16(0xffff),
			     .hdr.dst_port = RTE_BE16(0xffff), .hdr.sent_seq = RTE_BE32(0xffffffff),
			     .hdr.recv_ack = RTE_BE32(0xffffffff), .hdr.tcp_flags = 0xff))),
	  MLX5DM_FLOW_L_TCP, {
		V4(T_OUTER),
		F(T_OUTER, S_IP_PROTOCOL, 0xff, 6),
		F(T_OUTER, S_FRAG, 1, 0),
		F(T_OUTER, S_TCP_SPORT, 0xffff, 1234),
		F(T_OUTER, S_TCP_DPORT, 0xffff, 80),
		F(T_OUTER, S_TCP_FLAGS, 0xff, 0x12),
		F(T_MISC3, M3_OUTER_TCP_SEQ, 0xffffffff, 0x11223344),
		F(T_MISC3, M3_OUTER_TCP_ACK, 0xffffffff, 0x55667788) } },
	{ "UDP", IN,
	  ITEMS(ITEM(IPV6, NULL, NULL),
		ITEM(UDP, C(rte_flow_item_udp, .hdr.src_port = RTE_BE16(53),
			    .hdr.dst_port = RTE_BE16(5353)), NULL)), MLX5DM_FLOW_L_UDP, {
		V6(T_OUTER),
		F(T_OUTER, S_IP_PROTOCOL, 0xff, 17),
		F(T_OUTER, S_FRAG, 1, 0),
		F(T_OUTER, S_UDP_SPORT, 0xffff, 53),
		F(T_OUTER, S_UDP_DPORT, 0xffff, 5353) } },
	/* ICMP without spec: the protocol only (type/code need misc3 lookups). */
	{ "ICMP", IN, ITEMS(ITEM(IPV4, NULL, NULL), ITEM(ICMP, NULL, NULL)), MLX5DM_FLOW_L_ICMP, {
		V4(T_OUTER),
		F(T_OUTER, S_IP_PROTOCOL, 0xff, 1),
		F(T_OUTER, S_FRAG, 1, 0) } },
	{ "ICMP6", IN, ITEMS(ITEM(IPV6, NULL, NULL), ITEM(ICMP6, NULL, NULL)),
	  MLX5DM_FLOW_L_ICMP6, {
		V6(T_OUTER),
		F(T_OUTER, S_IP_PROTOCOL, 0xff, 58),
		F(T_OUTER, S_FRAG, 1, 0) } },
	/* Default masks match inner source address and port too (as 0). */
	{ "VXLAN", IN,
	  ITEMS(P_V4, ITEM(UDP, NULL, NULL),
		ITEM(VXLAN, C(rte_flow_item_vxlan, .hdr.vx_vni = RTE_BE32(0x12345600)), NULL),
		ITEM(ETH, C(rte_flow_item_eth,
			    .hdr.dst_addr = MAC(0, 0xaa, 0xbb, 0xcc, 0xdd, 0xee)),
		     C(rte_flow_item_eth,
		       .hdr.dst_addr = MAC(0xff, 0xff, 0xff, 0xff, 0xff, 0xff))),
		ITEM(IPV4, C(rte_flow_item_ipv4, .hdr.dst_addr = IP4(192, 168, 0, 1)), NULL),
		ITEM(TCP, C(rte_flow_item_tcp, .hdr.dst_port = RTE_BE16(443)), NULL)),
	  MLX5DM_FLOW_L_VXLAN | MLX5DM_FLOW_INNER(MLX5DM_FLOW_L_TCP), {
		V4(T_OUTER),
		F(T_OUTER, S_IP_PROTOCOL, 0xff, 17),
		F(T_OUTER, S_FRAG, 1, 0),
		F(T_OUTER, S_UDP_DPORT, 0xffff, 4789),
		F(T_MISC, M_VXLAN_VNI, 0xffffff, 0x123456),
		F(T_INNER, S_DMAC_47_16, 0xffffffff, 0x00aabbcc),
		F(T_INNER, S_DMAC_15_0, 0xffff, 0xddee),
		V4(T_INNER),
		F(T_INNER, S_SRC_IP_31_0, 0xffffffff, 0),
		F(T_INNER, S_DST_IP_31_0, 0xffffffff, 0xc0a80001),
		F(T_INNER, S_IP_PROTOCOL, 0xff, 6),
		F(T_INNER, S_FRAG, 1, 0),
		F(T_INNER, S_TCP_SPORT, 0xffff, 0),
		F(T_INNER, S_TCP_DPORT, 0xffff, 443) } },
	{ "VXLAN on another port", IN,
	  ITEMS(ITEM(IPV4, NULL, NULL),
		ITEM(UDP, C(rte_flow_item_udp, .hdr.dst_port = RTE_BE16(4790)), NULL),
		ITEM(VXLAN, NULL, NULL)), MLX5DM_FLOW_L_VXLAN, {
		V4(T_OUTER),
		F(T_OUTER, S_IP_PROTOCOL, 0xff, 17),
		F(T_OUTER, S_FRAG, 1, 0),
		F(T_OUTER, S_UDP_SPORT, 0xffff, 0),
		F(T_OUTER, S_UDP_DPORT, 0xffff, 4790) } },
	{ "GRE + GRE_KEY", IN,
	  ITEMS(P_V4,
		ITEM(GRE, C(rte_flow_item_gre, .c_rsvd0_ver = RTE_BE16(0x2000), /* K */
			    .protocol = RTE_BE16(0x0800)),
		     C(rte_flow_item_gre, .c_rsvd0_ver = RTE_BE16(0xb000),
		       .protocol = RTE_BE16(0xffff))),
		ITEM(GRE_KEY, &(const rte_be32_t){ RTE_BE32(0x11223344) }, NULL),
		ITEM(IPV4, C(rte_flow_item_ipv4, .hdr.dst_addr = IP4(1, 2, 3, 4)), NULL)),
	  MLX5DM_FLOW_L_GRE | MLX5DM_FLOW_L_GRE_KEY, {
		V4(T_OUTER),
		F(T_OUTER, S_IP_PROTOCOL, 0xff, 47),
		F(T_OUTER, S_FRAG, 1, 0),
		F(T_MISC, M_GRE_C_PRESENT, 1, 0),
		F(T_MISC, M_GRE_K_PRESENT, 1, 1),
		F(T_MISC, M_GRE_S_PRESENT, 1, 0),
		F(T_MISC, M_GRE_PROTOCOL, 0xffff, 0x0800),
		F(T_MISC, M_GRE_KEY_H, 0xffffff, 0x112233),
		F(T_MISC, M_GRE_KEY_L, 0xff, 0x44),
		V4(T_INNER),
		F(T_INNER, S_SRC_IP_31_0, 0xffffffff, 0),
		F(T_INNER, S_DST_IP_31_0, 0xffffffff, 0x01020304) } },
	/* label 0x12345, TC 3, S 1: 0x12345 << 4 | 3 << 1 | 1 = 0x123457 */
	{ "MPLS", IN,
	  ITEMS(ITEM(ETH, NULL, NULL),
		ITEM(MPLS, C(rte_flow_item_mpls, .label_tc_s = { 0x12, 0x34, 0x57 }, .ttl = 64),
		     C(rte_flow_item_mpls, .label_tc_s = { 0xff, 0xff, 0xff }, .ttl = 0xff))),
	  MLX5DM_FLOW_L_MPLS, {
		F(T_OUTER, S_ETHERTYPE, 0xffff, 0x8847),
		F(T_MISC2, M2_OUTER_MPLS_LABEL, 0xfffff, 0x12345),
		F(T_MISC2, M2_OUTER_MPLS_EXP, 7, 3),
		F(T_MISC2, M2_OUTER_MPLS_S_BOS, 1, 1),
		F(T_MISC2, M2_OUTER_MPLS_TTL, 0xff, 64) } },
	{ "META ingress", IN, ITEMS(ITEM(META, C(rte_flow_item_meta, .data = 0xdeadbeef), NULL)),
	  MLX5DM_FLOW_L_META, {
		F(T_MISC2, M2_REG_C_1, 0xffffffff, 0xdeadbeef) } },
	/* Egress: the Tx metadata register. */
	{ "META egress", &t_attr_out,
	  ITEMS(ITEM(META, C(rte_flow_item_meta, .data = 0xdeadbeef), NULL)), 0, {
		F(T_MISC2, M2_REG_A, 0xffffffff, 0xdeadbeef) } },
	{ "TAG 2", IN, ITEMS(ITEM(TAG, C(rte_flow_item_tag, .data = 0x1234, .index = 2), NULL)),
	  MLX5DM_FLOW_L_TAG(2), {
		F(T_MISC2, M2_REG_C_4, 0xffffffff, 0x1234) } },
	{ "MARK", IN, ITEMS(ITEM(MARK, C(rte_flow_item_mark, .id = 0x1234), NULL)),
	  MLX5DM_FLOW_L_MARK, {
		F(T_MISC2, M2_REG_C_0, 0x01ffffff, 0x01001234) } },
	{ "any MARK", IN, ITEMS(ITEM(MARK, NULL, NULL)), MLX5DM_FLOW_L_MARK, {
		F(T_MISC2, M2_REG_C_0, 0x01000000, 0x01000000) } },
	/* `last` prefix ranges become narrower masks; default masks add src = 0. */
	{ "address and port ranges", IN,
	  ITEMS(ITEM_L(IPV4, C(rte_flow_item_ipv4, .hdr.dst_addr = IP4(10, 0, 0, 0)),
		       C(rte_flow_item_ipv4, .hdr.dst_addr = IP4(10, 0, 0, 255)), NULL),
		ITEM_L(TCP, C(rte_flow_item_tcp, .hdr.dst_port = RTE_BE16(0x1000)),
		       C(rte_flow_item_tcp, .hdr.dst_port = RTE_BE16(0x1fff)), NULL)), 0, {
		V4(T_OUTER),
		F(T_OUTER, S_IP_PROTOCOL, 0xff, 6),
		F(T_OUTER, S_FRAG, 1, 0),
		F(T_OUTER, S_SRC_IP_31_0, 0xffffffff, 0),
		F(T_OUTER, S_DST_IP_31_0, 0xffffff00, 0x0a000000),
		F(T_OUTER, S_TCP_SPORT, 0xffff, 0),
		F(T_OUTER, S_TCP_DPORT, 0xf000, 0x1000) } },
	/* `last` 0 in a field is no range there: only dst_port is a range. */
	{ "range on one field only", IN,
	  ITEMS(ITEM(IPV4, NULL, NULL),
		ITEM_L(UDP, C(rte_flow_item_udp, .hdr.src_port = RTE_BE16(53),
			      .hdr.dst_port = RTE_BE16(1024)),
		       C(rte_flow_item_udp, .hdr.dst_port = RTE_BE16(1039)), NULL)), 0, {
		V4(T_OUTER),
		F(T_OUTER, S_IP_PROTOCOL, 0xff, 17),
		F(T_OUTER, S_FRAG, 1, 0),
		F(T_OUTER, S_UDP_SPORT, 0xffff, 53),
		F(T_OUTER, S_UDP_DPORT, 0xfff0, 1024) } },
	/* A /64 over 128 bits: the range spans the two low words. */
	{ "IPv6 /64 range", IN,
	  ITEMS(ITEM_L(IPV6, C(rte_flow_item_ipv6, .hdr.src_addr = { 0x20, 0x01, 0x0d, 0xb8,
								      0, 0, 0, 7 }),
		       C(rte_flow_item_ipv6, .hdr.src_addr = { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 7,
							       0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
							       0xff, 0xff }),
		       &v6_src_mask)), 0, {
		V6(T_OUTER),
		F(T_OUTER, S_SRC_IP_127_96, 0xffffffff, 0x20010db8),
		F(T_OUTER, S_SRC_IP_95_64, 0xffffffff, 7) } },
};

static void
test_items(void **state)
{
	unsigned int i, k, failed = 0;

	(void)state;
	for (i = 0; i < RTE_DIM(item_cases); i++) {
		const struct item_case *c = &item_cases[i];
		struct rte_flow_error err = { .message = NULL };
		struct mlx5dm_flow_spec fs;
		struct t_match exp;
		int ret;

		memset(&exp, 0, sizeof(exp));
		for (k = 0; k < RTE_DIM(c->f) && c->f[k].width != 0; k++) {
			mlx5dm_prm_set64(exp.mask, c->f[k].bit, c->f[k].width, c->f[k].m);
			mlx5dm_prm_set64(exp.value, c->f[k].bit, c->f[k].width, c->f[k].v);
		}
		ret = mlx5dm_flow_translate(&t_context, c->attr, c->items, t_act_drop, &fs, &err);
		if (ret == 0 && memcmp(fs.mask, exp.mask, sizeof(exp.mask)) == 0 &&
		    memcmp(fs.value, exp.value, sizeof(exp.value)) == 0 &&
		    fs.criteria == t_criteria(exp.mask) && (fs.layers & c->layers) == c->layers)
			continue;
		fprintf(stderr, "case \"%s\": ret %d (%s)\n", c->name, ret,
			err.message != NULL ? err.message : "-");
		if (ret == 0) {
			t_dump("mask", fs.mask, sizeof(fs.mask));
			t_dump("expected mask", exp.mask, sizeof(exp.mask));
			t_dump("value", fs.value, sizeof(fs.value));
			t_dump("expected value", exp.value, sizeof(exp.value));
		}
		failed++;
	}
	assert_int_equal(failed, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_items),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
