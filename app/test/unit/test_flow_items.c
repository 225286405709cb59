/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * rte_flow pattern items -> the exact fte_match_param mask and value
 * (448 bytes each), including implied fields (ip_version, ip_protocol,
 * VLAN tag bits, the VXLAN port) and `last` ranges a mask can express.
 * Expected bits are written at literal STE_LAYOUTS.md offsets. ip_version
 * follows the SW-steering convention (mask = value = the version).
 */

#include "test_flow_common.h"

#define ITEM(t, s, m) { .type = RTE_FLOW_ITEM_TYPE_##t, .spec = (s), .mask = (m) }
#define ITEM_L(t, s, l, m) { .type = RTE_FLOW_ITEM_TYPE_##t, .spec = (s), .last = (l), .mask = (m) }
#define END_ITEM { .type = RTE_FLOW_ITEM_TYPE_END }
#define MAC(a, b, c, d, e, f) { .addr_bytes = { a, b, c, d, e, f } }
#define IP4(a, b, c, d) RTE_BE32(((uint32_t)(a) << 24) | ((b) << 16) | ((c) << 8) | (d))

static const struct rte_flow_item_eth eth_full_mask = {
	.hdr.dst_addr = MAC(0xff, 0xff, 0xff, 0xff, 0xff, 0xff),
	.hdr.src_addr = MAC(0xff, 0xff, 0xff, 0xff, 0xff, 0xff),
	.hdr.ether_type = RTE_BE16(0xffff),
};

static const struct rte_flow_item_eth eth_type_mask = {
	.hdr.ether_type = RTE_BE16(0xffff),
};

static const struct rte_flow_item_vlan vlan_full_mask = {
	.hdr.vlan_tci = RTE_BE16(0xffff),
	.hdr.eth_proto = RTE_BE16(0xffff),
};

static void
test_eth(void **state)
{
	const struct rte_flow_item_eth spec = {
		.hdr.dst_addr = MAC(0x00, 0x11, 0x22, 0x33, 0x44, 0x55),
		.hdr.src_addr = MAC(0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb),
		.hdr.ether_type = RTE_BE16(0x0800),
	};
	const struct rte_flow_item items[] = { ITEM(ETH, &spec, &eth_full_mask), END_ITEM };
	const struct rte_flow_item items_dflt[] = { ITEM(ETH, &spec, NULL), END_ITEM };
	struct mlx5dm_flow_spec fs;
	struct t_match exp;

	(void)state;
	memset(&exp, 0, sizeof(exp));
	T_FIELD(&exp, T_OUTER, S_DMAC_47_16, 0xffffffff, 0x00112233);
	T_FIELD(&exp, T_OUTER, S_DMAC_15_0, 0xffff, 0x4455);
	T_FIELD(&exp, T_OUTER, S_SMAC_47_16, 0xffffffff, 0x66778899);
	T_FIELD(&exp, T_OUTER, S_SMAC_15_0, 0xffff, 0xaabb);
	T_FIELD(&exp, T_OUTER, S_ETHERTYPE, 0xffff, 0x0800);
	t_xlate_ok(&t_attr_in, items, t_act_drop, &fs);
	t_assert_match(&fs, &exp);
	assert_true(fs.layers & MLX5DM_FLOW_L_L2);
	/* rte_flow's default ETH mask leaves the EtherType out. */
	T_FIELD(&exp, T_OUTER, S_ETHERTYPE, 0, 0);
	t_xlate_ok(&t_attr_in, items_dflt, t_act_drop, &fs);
	t_assert_match(&fs, &exp);
}

static void
test_eth_vlan(void **state)
{
	const struct rte_flow_item_eth eth = { .hdr.ether_type = RTE_BE16(0x8100) };
	/* PCP 5, DEI 1, VID 0x123. */
	const struct rte_flow_item_vlan vlan = {
		.hdr.vlan_tci = RTE_BE16(0xb123),
		.hdr.eth_proto = RTE_BE16(0x0800),
	};
	const struct rte_flow_item items[] = {
		ITEM(ETH, &eth, &eth_type_mask), ITEM(VLAN, &vlan, &vlan_full_mask), END_ITEM,
	};
	const struct rte_flow_item items_dflt[] = {
		ITEM(ETH, NULL, NULL), ITEM(VLAN, &vlan, NULL), END_ITEM,
	};
	struct mlx5dm_flow_spec fs;
	struct t_match exp;

	(void)state;
	memset(&exp, 0, sizeof(exp));
	T_FIELD(&exp, T_OUTER, S_CVLAN_TAG, 1, 1);
	T_FIELD(&exp, T_OUTER, S_FIRST_PRIO, 7, 5);
	T_FIELD(&exp, T_OUTER, S_FIRST_CFI, 1, 1);
	T_FIELD(&exp, T_OUTER, S_FIRST_VID, 0xfff, 0x123);
	T_FIELD(&exp, T_OUTER, S_ETHERTYPE, 0xffff, 0x0800);
	t_xlate_ok(&t_attr_in, items, t_act_drop, &fs);
	t_assert_match(&fs, &exp);
	/* Default VLAN mask: the VID only; the tag bit is implied. */
	memset(&exp, 0, sizeof(exp));
	T_FIELD(&exp, T_OUTER, S_CVLAN_TAG, 1, 1);
	T_FIELD(&exp, T_OUTER, S_FIRST_VID, 0xfff, 0x123);
	t_xlate_ok(&t_attr_in, items_dflt, t_act_drop, &fs);
	t_assert_match(&fs, &exp);
}

static void
test_qinq(void **state)
{
	const struct rte_flow_item_eth eth = { .hdr.ether_type = RTE_BE16(0x88a8) };
	const struct rte_flow_item_vlan v1 = {
		.hdr.vlan_tci = RTE_BE16(10),
		.hdr.eth_proto = RTE_BE16(0x8100),
	};
	const struct rte_flow_item_vlan v2 = {
		.hdr.vlan_tci = RTE_BE16(20),
		.hdr.eth_proto = RTE_BE16(0x0800),
	};
	const struct rte_flow_item items[] = {
		ITEM(ETH, &eth, &eth_type_mask), ITEM(VLAN, &v1, &vlan_full_mask),
		ITEM(VLAN, &v2, &vlan_full_mask), END_ITEM,
	};
	struct mlx5dm_flow_spec fs;
	struct t_match exp;

	(void)state;
	memset(&exp, 0, sizeof(exp));
	T_FIELD(&exp, T_OUTER, S_SVLAN, 1, 1);
	T_FIELD(&exp, T_OUTER, S_FIRST_PRIO, 7, 0);
	T_FIELD(&exp, T_OUTER, S_FIRST_CFI, 1, 0);
	T_FIELD(&exp, T_OUTER, S_FIRST_VID, 0xfff, 10);
	T_FIELD(&exp, T_MISC, M_OUTER_SECOND_CVLAN_TAG, 1, 1);
	T_FIELD(&exp, T_MISC, M_OUTER_SECOND_PRIO, 7, 0);
	T_FIELD(&exp, T_MISC, M_OUTER_SECOND_CFI, 1, 0);
	T_FIELD(&exp, T_MISC, M_OUTER_SECOND_VID, 0xfff, 20);
	T_FIELD(&exp, T_OUTER, S_ETHERTYPE, 0xffff, 0x0800);
	t_xlate_ok(&t_attr_in, items, t_act_drop, &fs);
	t_assert_match(&fs, &exp);
	assert_true(fs.layers & MLX5DM_FLOW_L_VLAN2);
}

static void
test_ipv4(void **state)
{
	const struct rte_flow_item_ipv4 spec = {
		.hdr = {
			.version_ihl = 0x45,
			.type_of_service = 0xb9, /* DSCP 46, ECN 1 */
			.time_to_live = 64,
			.next_proto_id = 17,
			.src_addr = IP4(10, 0, 0, 1),
			.dst_addr = IP4(10, 0, 0, 2),
		},
	};
	const struct rte_flow_item_ipv4 mask = {
		.hdr = {
			.version_ihl = 0x0f,
			.type_of_service = 0xff,
			.time_to_live = 0xff,
			.next_proto_id = 0xff,
			.src_addr = RTE_BE32(0xffffffff),
			.dst_addr = RTE_BE32(0xffffffff),
		},
	};
	const struct rte_flow_item items[] = {
		ITEM(ETH, NULL, NULL), ITEM(IPV4, &spec, &mask), END_ITEM,
	};
	struct mlx5dm_flow_spec fs;
	struct t_match exp;

	(void)state;
	memset(&exp, 0, sizeof(exp));
	T_FIELD(&exp, T_OUTER, S_IP_VERSION, 4, 4);
	T_FIELD(&exp, T_OUTER, S_IPV4_IHL, 0xf, 5);
	T_FIELD(&exp, T_OUTER, S_IP_DSCP, 0x3f, 46);
	T_FIELD(&exp, T_OUTER, S_IP_ECN, 3, 1);
	T_FIELD(&exp, T_OUTER, S_TTL, 0xff, 64);
	T_FIELD(&exp, T_OUTER, S_IP_PROTOCOL, 0xff, 17);
	T_FIELD(&exp, T_OUTER, S_SRC_IP_31_0, 0xffffffff, 0x0a000001);
	T_FIELD(&exp, T_OUTER, S_DST_IP_31_0, 0xffffffff, 0x0a000002);
	t_xlate_ok(&t_attr_in, items, t_act_drop, &fs);
	t_assert_match(&fs, &exp);
}

static void
test_ipv4_fragment(void **state)
{
	const struct rte_flow_item_ipv4 zero = { .hdr.fragment_offset = 0 };
	const struct rte_flow_item_ipv4 one = { .hdr.fragment_offset = RTE_BE16(1) };
	const struct rte_flow_item_ipv4 all = { .hdr.fragment_offset = RTE_BE16(0x3fff) };
	const struct rte_flow_item not_frag[] = { ITEM(IPV4, &zero, &all), END_ITEM };
	const struct rte_flow_item is_frag[] = { ITEM_L(IPV4, &one, &all, &all), END_ITEM };
	struct mlx5dm_flow_spec fs;
	struct t_match exp;

	(void)state;
	memset(&exp, 0, sizeof(exp));
	T_FIELD(&exp, T_OUTER, S_IP_VERSION, 4, 4);
	T_FIELD(&exp, T_OUTER, S_FRAG, 1, 0);
	t_xlate_ok(&t_attr_in, not_frag, t_act_drop, &fs);
	t_assert_match(&fs, &exp);
	T_FIELD(&exp, T_OUTER, S_FRAG, 1, 1);
	t_xlate_ok(&t_attr_in, is_frag, t_act_drop, &fs);
	t_assert_match(&fs, &exp);
}

static const struct rte_flow_item_ipv6 ipv6_addr_mask = {
	.hdr = {
		.src_addr = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
			      0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },
		.dst_addr = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
			      0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },
	},
};

static void
test_ipv6(void **state)
{
	const struct rte_flow_item_ipv6 spec = {
		.hdr = {
			/* version 6, traffic class 0xb9, flow label 0x12345 */
			.vtc_flow = RTE_BE32(0x6b912345),
			.proto = 6,
			.hop_limits = 255,
			.src_addr = { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 },
			.dst_addr = { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2 },
		},
	};
	struct rte_flow_item_ipv6 mask = ipv6_addr_mask;
	struct rte_flow_item items[] = { ITEM(IPV6, &spec, &mask), END_ITEM };
	struct mlx5dm_flow_spec fs;
	struct t_match exp;

	(void)state;
	mask.hdr.vtc_flow = RTE_BE32(0x0fffffff);
	mask.hdr.proto = 0xff;
	mask.hdr.hop_limits = 0xff;
	memset(&exp, 0, sizeof(exp));
	T_FIELD(&exp, T_OUTER, S_IP_VERSION, 6, 6);
	T_FIELD(&exp, T_OUTER, S_IP_DSCP, 0x3f, 46);
	T_FIELD(&exp, T_OUTER, S_IP_ECN, 3, 1);
	T_FIELD(&exp, T_MISC, M_OUTER_IPV6_FLOW_LABEL, 0xfffff, 0x12345);
	T_FIELD(&exp, T_OUTER, S_IP_PROTOCOL, 0xff, 6);
	T_FIELD(&exp, T_OUTER, S_TTL, 0xff, 255);
	T_FIELD(&exp, T_OUTER, S_SRC_IP_127_96, 0xffffffff, 0x20010db8);
	T_FIELD(&exp, T_OUTER, S_SRC_IP_95_64, 0xffffffff, 0);
	T_FIELD(&exp, T_OUTER, S_SRC_IP_63_32, 0xffffffff, 0);
	T_FIELD(&exp, T_OUTER, S_SRC_IP_31_0, 0xffffffff, 1);
	T_FIELD(&exp, T_OUTER, S_DST_IP_127_96, 0xffffffff, 0x20010db8);
	T_FIELD(&exp, T_OUTER, S_DST_IP_95_64, 0xffffffff, 0);
	T_FIELD(&exp, T_OUTER, S_DST_IP_63_32, 0xffffffff, 0);
	T_FIELD(&exp, T_OUTER, S_DST_IP_31_0, 0xffffffff, 2);
	t_xlate_ok(&t_attr_in, items, t_act_drop, &fs);
	t_assert_match(&fs, &exp);
}

static void
test_tcp(void **state)
{
	const struct rte_flow_item_tcp spec = {
		.hdr = {
			.src_port = RTE_BE16(1234),
			.dst_port = RTE_BE16(80),
			.sent_seq = RTE_BE32(0x11223344),
			.recv_ack = RTE_BE32(0x55667788),
			.tcp_flags = 0x12,
		},
	};
	const struct rte_flow_item_tcp mask = {
		.hdr = {
			.src_port = RTE_BE16(0xffff),
			.dst_port = RTE_BE16(0xffff),
			.sent_seq = RTE_BE32(0xffffffff),
			.recv_ack = RTE_BE32(0xffffffff),
			.tcp_flags = 0xff,
		},
	};
	const struct rte_flow_item items[] = {
		ITEM(ETH, NULL, NULL), ITEM(IPV4, NULL, NULL), ITEM(TCP, &spec, &mask), END_ITEM,
	};
	struct mlx5dm_flow_spec fs;
	struct t_match exp;

	(void)state;
	memset(&exp, 0, sizeof(exp));
	T_FIELD(&exp, T_OUTER, S_IP_VERSION, 4, 4);
	T_FIELD(&exp, T_OUTER, S_IP_PROTOCOL, 0xff, 6);
	T_FIELD(&exp, T_OUTER, S_TCP_SPORT, 0xffff, 1234);
	T_FIELD(&exp, T_OUTER, S_TCP_DPORT, 0xffff, 80);
	T_FIELD(&exp, T_OUTER, S_TCP_FLAGS, 0xff, 0x12);
	T_FIELD(&exp, T_MISC3, M3_OUTER_TCP_SEQ, 0xffffffff, 0x11223344);
	T_FIELD(&exp, T_MISC3, M3_OUTER_TCP_ACK, 0xffffffff, 0x55667788);
	t_xlate_ok(&t_attr_in, items, t_act_drop, &fs);
	t_assert_match(&fs, &exp);
}

static void
test_udp_icmp(void **state)
{
	const struct rte_flow_item_udp udp = {
		.hdr = { .src_port = RTE_BE16(53), .dst_port = RTE_BE16(5353) },
	};
	const struct rte_flow_item udp_items[] = {
		ITEM(IPV6, NULL, NULL), ITEM(UDP, &udp, NULL), END_ITEM,
	};
	const struct rte_flow_item icmp_items[] = {
		ITEM(IPV4, NULL, NULL), ITEM(ICMP, NULL, NULL), END_ITEM,
	};
	const struct rte_flow_item icmp6_items[] = {
		ITEM(IPV6, NULL, NULL), ITEM(ICMP6, NULL, NULL), END_ITEM,
	};
	struct mlx5dm_flow_spec fs;
	struct t_match exp;

	(void)state;
	memset(&exp, 0, sizeof(exp));
	T_FIELD(&exp, T_OUTER, S_IP_VERSION, 6, 6);
	T_FIELD(&exp, T_OUTER, S_IP_PROTOCOL, 0xff, 17);
	T_FIELD(&exp, T_OUTER, S_UDP_SPORT, 0xffff, 53);
	T_FIELD(&exp, T_OUTER, S_UDP_DPORT, 0xffff, 5353);
	t_xlate_ok(&t_attr_in, udp_items, t_act_drop, &fs);
	t_assert_match(&fs, &exp);
	/* ICMP without spec: the protocol only (type/code need misc3 lookups). */
	memset(&exp, 0, sizeof(exp));
	T_FIELD(&exp, T_OUTER, S_IP_VERSION, 4, 4);
	T_FIELD(&exp, T_OUTER, S_IP_PROTOCOL, 0xff, 1);
	t_xlate_ok(&t_attr_in, icmp_items, t_act_drop, &fs);
	t_assert_match(&fs, &exp);
	T_FIELD(&exp, T_OUTER, S_IP_VERSION, 6, 6);
	T_FIELD(&exp, T_OUTER, S_IP_PROTOCOL, 0xff, 58);
	t_xlate_ok(&t_attr_in, icmp6_items, t_act_drop, &fs);
	t_assert_match(&fs, &exp);
}

static void
test_vxlan(void **state)
{
	const struct rte_flow_item_vxlan vx = { .hdr.vx_vni = RTE_BE32(0x12345600) };
	const struct rte_flow_item_eth ieth = {
		.hdr.dst_addr = MAC(0x00, 0xaa, 0xbb, 0xcc, 0xdd, 0xee),
	};
	const struct rte_flow_item_eth ieth_mask = {
		.hdr.dst_addr = MAC(0xff, 0xff, 0xff, 0xff, 0xff, 0xff),
	};
	const struct rte_flow_item_ipv4 iip = { .hdr.dst_addr = IP4(192, 168, 0, 1) };
	const struct rte_flow_item_tcp itcp = { .hdr.dst_port = RTE_BE16(443) };
	const struct rte_flow_item items[] = {
		ITEM(ETH, NULL, NULL), ITEM(IPV4, NULL, NULL), ITEM(UDP, NULL, NULL),
		ITEM(VXLAN, &vx, NULL), ITEM(ETH, &ieth, &ieth_mask), ITEM(IPV4, &iip, NULL),
		ITEM(TCP, &itcp, NULL), END_ITEM,
	};
	struct mlx5dm_flow_spec fs;
	struct t_match exp;

	(void)state;
	memset(&exp, 0, sizeof(exp));
	T_FIELD(&exp, T_OUTER, S_IP_VERSION, 4, 4);
	T_FIELD(&exp, T_OUTER, S_IP_PROTOCOL, 0xff, 17);
	T_FIELD(&exp, T_OUTER, S_UDP_DPORT, 0xffff, 4789);
	T_FIELD(&exp, T_MISC, M_VXLAN_VNI, 0xffffff, 0x123456);
	T_FIELD(&exp, T_INNER, S_DMAC_47_16, 0xffffffff, 0x00aabbcc);
	T_FIELD(&exp, T_INNER, S_DMAC_15_0, 0xffff, 0xddee);
	T_FIELD(&exp, T_INNER, S_IP_VERSION, 4, 4);
	/* Default masks: source address and port are matched too (as 0). */
	T_FIELD(&exp, T_INNER, S_SRC_IP_31_0, 0xffffffff, 0);
	T_FIELD(&exp, T_INNER, S_DST_IP_31_0, 0xffffffff, 0xc0a80001);
	T_FIELD(&exp, T_INNER, S_IP_PROTOCOL, 0xff, 6);
	T_FIELD(&exp, T_INNER, S_TCP_SPORT, 0xffff, 0);
	T_FIELD(&exp, T_INNER, S_TCP_DPORT, 0xffff, 443);
	t_xlate_ok(&t_attr_in, items, t_act_drop, &fs);
	t_assert_match(&fs, &exp);
	assert_true(fs.layers & MLX5DM_FLOW_L_VXLAN);
	assert_true(fs.layers & MLX5DM_FLOW_INNER(MLX5DM_FLOW_L_TCP));
}

static void
test_vxlan_port_given(void **state)
{
	const struct rte_flow_item_udp udp = { .hdr.dst_port = RTE_BE16(4790) };
	const struct rte_flow_item items[] = {
		ITEM(IPV4, NULL, NULL), ITEM(UDP, &udp, NULL), ITEM(VXLAN, NULL, NULL), END_ITEM,
	};
	struct mlx5dm_flow_spec fs;
	struct t_match exp;

	(void)state;
	memset(&exp, 0, sizeof(exp));
	T_FIELD(&exp, T_OUTER, S_IP_VERSION, 4, 4);
	T_FIELD(&exp, T_OUTER, S_IP_PROTOCOL, 0xff, 17);
	T_FIELD(&exp, T_OUTER, S_UDP_SPORT, 0xffff, 0);
	T_FIELD(&exp, T_OUTER, S_UDP_DPORT, 0xffff, 4790);
	t_xlate_ok(&t_attr_in, items, t_act_drop, &fs);
	t_assert_match(&fs, &exp);
}

static void
test_gre(void **state)
{
	const struct rte_flow_item_gre gre = {
		.c_rsvd0_ver = RTE_BE16(0x2000), /* K */
		.protocol = RTE_BE16(0x0800),
	};
	const struct rte_flow_item_gre gre_mask = {
		.c_rsvd0_ver = RTE_BE16(0xb000),
		.protocol = RTE_BE16(0xffff),
	};
	const rte_be32_t key = RTE_BE32(0x11223344);
	const struct rte_flow_item_ipv4 iip = { .hdr.dst_addr = IP4(1, 2, 3, 4) };
	const struct rte_flow_item items[] = {
		ITEM(ETH, NULL, NULL), ITEM(IPV4, NULL, NULL), ITEM(GRE, &gre, &gre_mask),
		ITEM(GRE_KEY, &key, NULL), ITEM(IPV4, &iip, NULL), END_ITEM,
	};
	struct mlx5dm_flow_spec fs;
	struct t_match exp;

	(void)state;
	memset(&exp, 0, sizeof(exp));
	T_FIELD(&exp, T_OUTER, S_IP_VERSION, 4, 4);
	T_FIELD(&exp, T_OUTER, S_IP_PROTOCOL, 0xff, 47);
	T_FIELD(&exp, T_MISC, M_GRE_C_PRESENT, 1, 0);
	T_FIELD(&exp, T_MISC, M_GRE_K_PRESENT, 1, 1);
	T_FIELD(&exp, T_MISC, M_GRE_S_PRESENT, 1, 0);
	T_FIELD(&exp, T_MISC, M_GRE_PROTOCOL, 0xffff, 0x0800);
	T_FIELD(&exp, T_MISC, M_GRE_KEY_H, 0xffffff, 0x112233);
	T_FIELD(&exp, T_MISC, M_GRE_KEY_L, 0xff, 0x44);
	T_FIELD(&exp, T_INNER, S_IP_VERSION, 4, 4);
	T_FIELD(&exp, T_INNER, S_SRC_IP_31_0, 0xffffffff, 0);
	T_FIELD(&exp, T_INNER, S_DST_IP_31_0, 0xffffffff, 0x01020304);
	t_xlate_ok(&t_attr_in, items, t_act_drop, &fs);
	t_assert_match(&fs, &exp);
}

static void
test_mpls(void **state)
{
	/* label 0x12345, TC 3, S 1: 0x12345 << 4 | 3 << 1 | 1 = 0x123457 */
	const struct rte_flow_item_mpls mpls = { .label_tc_s = { 0x12, 0x34, 0x57 }, .ttl = 64 };
	const struct rte_flow_item_mpls mask = { .label_tc_s = { 0xff, 0xff, 0xff }, .ttl = 0xff };
	const struct rte_flow_item items[] = {
		ITEM(ETH, NULL, NULL), ITEM(MPLS, &mpls, &mask), END_ITEM,
	};
	struct mlx5dm_flow_spec fs;
	struct t_match exp;

	(void)state;
	memset(&exp, 0, sizeof(exp));
	T_FIELD(&exp, T_OUTER, S_ETHERTYPE, 0xffff, 0x8847);
	T_FIELD(&exp, T_MISC2, M2_OUTER_MPLS_LABEL, 0xfffff, 0x12345);
	T_FIELD(&exp, T_MISC2, M2_OUTER_MPLS_EXP, 7, 3);
	T_FIELD(&exp, T_MISC2, M2_OUTER_MPLS_S_BOS, 1, 1);
	T_FIELD(&exp, T_MISC2, M2_OUTER_MPLS_TTL, 0xff, 64);
	t_xlate_ok(&t_attr_in, items, t_act_drop, &fs);
	t_assert_match(&fs, &exp);
}

static void
test_metadata(void **state)
{
	const struct rte_flow_item_meta meta = { .data = 0xdeadbeef };
	const struct rte_flow_item_tag tag = { .data = 0x1234, .index = 2 };
	const struct rte_flow_item_mark mark = { .id = 0x1234 };
	const struct rte_flow_item meta_items[] = { ITEM(META, &meta, NULL), END_ITEM };
	const struct rte_flow_item tag_items[] = { ITEM(TAG, &tag, NULL), END_ITEM };
	const struct rte_flow_item mark_items[] = { ITEM(MARK, &mark, NULL), END_ITEM };
	const struct rte_flow_item any_mark[] = { ITEM(MARK, NULL, NULL), END_ITEM };
	struct mlx5dm_flow_spec fs;
	struct t_match exp;

	(void)state;
	memset(&exp, 0, sizeof(exp));
	T_FIELD(&exp, T_MISC2, M2_REG_C_1, 0xffffffff, 0xdeadbeef);
	t_xlate_ok(&t_attr_in, meta_items, t_act_drop, &fs);
	t_assert_match(&fs, &exp);
	/* Egress: the Tx metadata register. */
	memset(&exp, 0, sizeof(exp));
	T_FIELD(&exp, T_MISC2, M2_REG_A, 0xffffffff, 0xdeadbeef);
	t_xlate_ok(&t_attr_out, meta_items, t_act_drop, &fs);
	t_assert_match(&fs, &exp);
	memset(&exp, 0, sizeof(exp));
	T_FIELD(&exp, T_MISC2, M2_REG_C_4, 0xffffffff, 0x1234);
	t_xlate_ok(&t_attr_in, tag_items, t_act_drop, &fs);
	t_assert_match(&fs, &exp);
	memset(&exp, 0, sizeof(exp));
	T_FIELD(&exp, T_MISC2, M2_REG_C_0, 0x01ffffff, 0x01001234);
	t_xlate_ok(&t_attr_in, mark_items, t_act_drop, &fs);
	t_assert_match(&fs, &exp);
	memset(&exp, 0, sizeof(exp));
	T_FIELD(&exp, T_MISC2, M2_REG_C_0, 0x01000000, 0x01000000);
	t_xlate_ok(&t_attr_in, any_mark, t_act_drop, &fs);
	t_assert_match(&fs, &exp);
}

static void
test_has_vlan(void **state)
{
	const struct rte_flow_item_eth yes = { .has_vlan = 1 };
	const struct rte_flow_item_eth no = { .has_vlan = 0 };
	const struct rte_flow_item_eth mask = { .has_vlan = 1 };
	const struct rte_flow_item with[] = { ITEM(ETH, &yes, &mask), END_ITEM };
	const struct rte_flow_item without[] = { ITEM(ETH, &no, &mask), END_ITEM };
	struct mlx5dm_flow_spec fs;
	struct t_match exp;

	(void)state;
	memset(&exp, 0, sizeof(exp));
	T_FIELD(&exp, T_OUTER, S_CVLAN_TAG, 1, 1);
	t_xlate_ok(&t_attr_in, with, t_act_drop, &fs);
	t_assert_match(&fs, &exp);
	T_FIELD(&exp, T_OUTER, S_CVLAN_TAG, 1, 0);
	t_xlate_ok(&t_attr_in, without, t_act_drop, &fs);
	t_assert_match(&fs, &exp);
}

/* `last` ranges that are prefixes become narrower masks. */
static void
test_ranges(void **state)
{
	const struct rte_flow_item_ipv4 v4s = { .hdr.dst_addr = IP4(10, 0, 0, 0) };
	const struct rte_flow_item_ipv4 v4l = { .hdr.dst_addr = IP4(10, 0, 0, 255) };
	const struct rte_flow_item_tcp ts = { .hdr.dst_port = RTE_BE16(0x1000) };
	const struct rte_flow_item_tcp tl = { .hdr.dst_port = RTE_BE16(0x1fff) };
	const struct rte_flow_item_ipv6 v6s = {
		.hdr.src_addr = { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 7 },
	};
	const struct rte_flow_item_ipv6 v6l = {
		.hdr.src_addr = { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 7,
				  0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },
	};
	const struct rte_flow_item_ipv6 v6m = {
		.hdr.src_addr = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
				  0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },
	};
	const struct rte_flow_item v4[] = {
		ITEM_L(IPV4, &v4s, &v4l, NULL), ITEM_L(TCP, &ts, &tl, NULL), END_ITEM,
	};
	const struct rte_flow_item v6[] = { ITEM_L(IPV6, &v6s, &v6l, &v6m), END_ITEM };
	struct mlx5dm_flow_spec fs;
	struct t_match exp;

	(void)state;
	memset(&exp, 0, sizeof(exp));
	T_FIELD(&exp, T_OUTER, S_IP_VERSION, 4, 4);
	T_FIELD(&exp, T_OUTER, S_IP_PROTOCOL, 0xff, 6);
	/* The default IPv4 mask has src too: spec = last = 0 there, an exact 0. */
	T_FIELD(&exp, T_OUTER, S_SRC_IP_31_0, 0xffffffff, 0);
	T_FIELD(&exp, T_OUTER, S_DST_IP_31_0, 0xffffff00, 0x0a000000);
	T_FIELD(&exp, T_OUTER, S_TCP_SPORT, 0xffff, 0);
	T_FIELD(&exp, T_OUTER, S_TCP_DPORT, 0xf000, 0x1000);
	t_xlate_ok(&t_attr_in, v4, t_act_drop, &fs);
	t_assert_match(&fs, &exp);
	/* A /64 over 128 bits: the range spans the two low words. */
	memset(&exp, 0, sizeof(exp));
	T_FIELD(&exp, T_OUTER, S_IP_VERSION, 6, 6);
	T_FIELD(&exp, T_OUTER, S_SRC_IP_127_96, 0xffffffff, 0x20010db8);
	T_FIELD(&exp, T_OUTER, S_SRC_IP_95_64, 0xffffffff, 7);
	t_xlate_ok(&t_attr_in, v6, t_act_drop, &fs);
	t_assert_match(&fs, &exp);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_eth),
		cmocka_unit_test(test_eth_vlan),
		cmocka_unit_test(test_qinq),
		cmocka_unit_test(test_ipv4),
		cmocka_unit_test(test_ipv4_fragment),
		cmocka_unit_test(test_ipv6),
		cmocka_unit_test(test_tcp),
		cmocka_unit_test(test_udp_icmp),
		cmocka_unit_test(test_vxlan),
		cmocka_unit_test(test_vxlan_port_given),
		cmocka_unit_test(test_gre),
		cmocka_unit_test(test_mpls),
		cmocka_unit_test(test_metadata),
		cmocka_unit_test(test_has_vlan),
		cmocka_unit_test(test_ranges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
