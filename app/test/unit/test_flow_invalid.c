/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Rules the PMD must refuse, as a table: bad attributes, unsupported or
 * misplaced items, masks beyond what the device matches, ranges a mask
 * cannot express, fields the steering library cannot look up, bad action
 * configurations and impossible combinations. Each case checks the
 * returned errno, the error type, the exact (static) message and the cause.
 */

#include "test_flow_common.h"

#define ITEM(t, s, m) { .type = RTE_FLOW_ITEM_TYPE_##t, .spec = (s), .mask = (m) }
#define ITEM_L(t, s, l, m) { .type = RTE_FLOW_ITEM_TYPE_##t, .spec = (s), .last = (l), .mask = (m) }
#define END_ITEM { .type = RTE_FLOW_ITEM_TYPE_END }
#define ACT(t, c) { .type = RTE_FLOW_ACTION_TYPE_##t, .conf = (c) }
#define END_ACT { .type = RTE_FLOW_ACTION_TYPE_END }
#define ITEMS(...) ((const struct rte_flow_item[]){ __VA_ARGS__, END_ITEM })
#define ACTS(...) ((const struct rte_flow_action[]){ __VA_ARGS__, END_ACT })
#define C(type, ...) (&(const struct type){ __VA_ARGS__ })
#define ATTR(...) C(rte_flow_attr, __VA_ARGS__)

#define IN ATTR(.ingress = 1)
#define OUT ATTR(.egress = 1)
#define P_ETH ITEMS(ITEM(ETH, NULL, NULL))
#define P_V4 ITEM(ETH, NULL, NULL), ITEM(IPV4, NULL, NULL)
#define P_VXLAN P_V4, ITEM(UDP, NULL, NULL), ITEM(VXLAN, NULL, NULL)
#define A_DROP ACTS(ACT(DROP, NULL))
#define Q0 C(rte_flow_action_queue, .index = 0)

enum cause_kind { K_NULL, K_ATTR, K_ITEM, K_ACTION, K_ITEMS, K_ACTIONS };

struct bad_rule {
	const char *name;
	const struct rte_flow_attr *attr;
	const struct rte_flow_item *items;
	const struct rte_flow_action *actions;
	int err;                        /* errno */
	enum rte_flow_error_type type;
	const char *msg;
	enum cause_kind cause;
	unsigned int idx;               /* item / action index for K_ITEM / K_ACTION */
};

#define T(n) RTE_FLOW_ERROR_TYPE_##n

static const uint16_t q_dup[] = { 1, 1 };
static const uint16_t q_bad[] = { 1, 8 };
static const uint8_t raw50[50];
static const uint8_t raw20[20];
static const uint8_t raw14[14];
static const uint8_t raw15[15];
static const uint8_t key52[52];
static const rte_be32_t be_one = RTE_BE32(1);

static struct rte_flow_item bad_encap_def[] = {
	ITEM(ETH, C(rte_flow_item_eth, .has_vlan = 0), NULL),
	ITEM(IPV4, C(rte_flow_item_ipv4, .hdr.time_to_live = 1), NULL),
	ITEM(VXLAN, C(rte_flow_item_vxlan, .hdr.vx_vni = 0), NULL),
	END_ITEM,
};

static const char *const msg_order = "header changes must come in the order the device applies "
				     "them: decap, VLAN pop, field changes, VLAN push, encap";
static const char *const msg_contra = "TCP: item contradicts a previous item or what it implies";
static const char *const msg_range = "range cannot be matched: only ranges a mask expresses "
				     "(spec ends in zeros, last in ones) are supported";

static const struct bad_rule bad_rules[] = {
	/* ---- attributes ---- */
	{ "transfer", ATTR(.ingress = 1, .transfer = 1), P_ETH, A_DROP, ENOTSUP,
	  T(ATTR_TRANSFER),
	  "transfer (FDB) rules need an E-Switch: a port of a vdev with representor=vf[...]",
	  K_ATTR, 0 },
	{ "ingress and egress", ATTR(.ingress = 1, .egress = 1), P_ETH, A_DROP, ENOTSUP,
	  T(ATTR_EGRESS), "a rule is either ingress or egress, not both", K_ATTR, 0 },
	{ "no direction", ATTR(.group = 1), P_ETH, A_DROP, EINVAL, T(ATTR_INGRESS),
	  "ingress or egress must be set", K_ATTR, 0 },
	{ "group too high", ATTR(.ingress = 1, .group = UINT32_MAX), P_ETH, A_DROP, ENOTSUP,
	  T(ATTR_GROUP), "group must be below 4294967295", K_ATTR, 0 },
	{ "reserved priority", ATTR(.ingress = 1, .priority = 16383), P_ETH, A_DROP, ENOTSUP,
	  T(ATTR_PRIORITY), "priority must be at most 16382", K_ATTR, 0 },
	{ "no attributes", NULL, P_ETH, A_DROP, EINVAL, T(ATTR), "attributes are missing",
	  K_NULL, 0 },
	{ "no pattern", IN, NULL, A_DROP, EINVAL, T(ITEM_NUM), "pattern is missing", K_NULL, 0 },
	{ "no actions", IN, P_ETH, NULL, EINVAL, T(ACTION_NUM), "action list is missing",
	  K_NULL, 0 },
	/* ---- items: types, spec/mask/last ---- */
	{ "unsupported item", IN, ITEMS(P_V4, ITEM(SCTP, NULL, NULL)), A_DROP, ENOTSUP, T(ITEM),
	  "item type SCTP not supported", K_ITEM, 2 },
	{ "mask without spec", IN,
	  ITEMS(ITEM(ETH, NULL, C(rte_flow_item_eth, .hdr.ether_type = 0xffff))), A_DROP, EINVAL,
	  T(ITEM), "ETH: mask or last given without spec", K_ITEM, 0 },
	{ "IPv4 total_length mask", IN,
	  ITEMS(ITEM(IPV4, C(rte_flow_item_ipv4, .hdr.time_to_live = 1),
		     C(rte_flow_item_ipv4, .hdr.total_length = 0xffff))), A_DROP, ENOTSUP,
	  T(ITEM_MASK), "IPV4: only IHL, DSCP/ECN, fragment_offset, TTL, protocol and addresses "
	  "can be matched", K_ITEM, 0 },
	{ "IPv4 version mask", IN,
	  ITEMS(ITEM(IPV4, C(rte_flow_item_ipv4, .hdr.version_ihl = 0x45),
		     C(rte_flow_item_ipv4, .hdr.version_ihl = 0xff))), A_DROP, ENOTSUP,
	  T(ITEM_MASK), "IPV4: only IHL, DSCP/ECN, fragment_offset, TTL, protocol and addresses "
	  "can be matched", K_ITEM, 0 },
	{ "UDP checksum mask", IN,
	  ITEMS(P_V4, ITEM(UDP, C(rte_flow_item_udp, .hdr.dgram_cksum = 1),
			   C(rte_flow_item_udp, .hdr.dgram_cksum = 0xffff))), A_DROP, ENOTSUP,
	  T(ITEM_MASK), "UDP: only ports can be matched", K_ITEM, 2 },
	{ "TCP window mask", IN,
	  ITEMS(P_V4, ITEM(TCP, C(rte_flow_item_tcp, .hdr.rx_win = 1),
			   C(rte_flow_item_tcp, .hdr.rx_win = 0xffff))), A_DROP, ENOTSUP,
	  T(ITEM_MASK), "TCP: only ports, sequence and acknowledgment numbers and flags can be "
	  "matched", K_ITEM, 2 },
	{ "VXLAN flags mask", IN,
	  ITEMS(P_V4, ITEM(UDP, NULL, NULL),
		ITEM(VXLAN, C(rte_flow_item_vxlan, .hdr.vx_flags = RTE_BE32(0x08000000)),
		     C(rte_flow_item_vxlan, .hdr.vx_flags = RTE_BE32(0xff000000)))), A_DROP,
	  ENOTSUP, T(ITEM_MASK), "VXLAN: only the VNI can be matched", K_ITEM, 3 },
	{ "GRE version mask", IN,
	  ITEMS(P_V4, ITEM(GRE, C(rte_flow_item_gre, .protocol = 1),
			   C(rte_flow_item_gre, .c_rsvd0_ver = RTE_BE16(0x0007)))), A_DROP,
	  ENOTSUP, T(ITEM_MASK), "GRE: only the C, K and S bits and the protocol can be matched",
	  K_ITEM, 2 },
	{ "IPv6 payload length mask", IN,
	  ITEMS(ITEM(IPV6, C(rte_flow_item_ipv6, .hdr.proto = 6),
		     C(rte_flow_item_ipv6, .hdr.payload_len = 0xffff))), A_DROP, ENOTSUP,
	  T(ITEM_MASK), "IPV6: only traffic class, flow label, next header, hop limit and "
	  "addresses can be matched", K_ITEM, 0 },
	{ "IPv6 extension flag", IN,
	  ITEMS(ITEM(IPV6, C(rte_flow_item_ipv6, .has_frag_ext = 1),
		     C(rte_flow_item_ipv6, .has_frag_ext = 1))), A_DROP, ENOTSUP, T(ITEM_MASK),
	  "IPV6: only traffic class, flow label, next header, hop limit and addresses can be "
	  "matched", K_ITEM, 0 },
	{ "VID range not a prefix", IN,
	  ITEMS(ITEM(ETH, NULL, NULL),
		ITEM_L(VLAN, C(rte_flow_item_vlan, .hdr.vlan_tci = RTE_BE16(10)),
		       C(rte_flow_item_vlan, .hdr.vlan_tci = RTE_BE16(20)), NULL)), A_DROP,
	  ENOTSUP, T(ITEM_LAST), msg_range, K_ITEM, 1 },
	{ "empty address range", IN,
	  ITEMS(ITEM_L(IPV4, C(rte_flow_item_ipv4, .hdr.dst_addr = RTE_BE32(0x0a000010)),
		       C(rte_flow_item_ipv4, .hdr.dst_addr = RTE_BE32(0x0a000001)), NULL)),
	  A_DROP, EINVAL, T(ITEM_LAST), "IPV4: empty range: last is below spec", K_ITEM, 0 },
	{ "fragment offset partial mask", IN,
	  ITEMS(ITEM(IPV4, C(rte_flow_item_ipv4, .hdr.fragment_offset = RTE_BE16(0x2000)),
		     C(rte_flow_item_ipv4, .hdr.fragment_offset = RTE_BE16(0x2000)))), A_DROP,
	  ENOTSUP, T(ITEM_MASK), "IPV4 fragment_offset can only be matched with mask 0x3fff",
	  K_ITEM, 0 },
	{ "fragment offset value", IN,
	  ITEMS(ITEM(IPV4, C(rte_flow_item_ipv4, .hdr.fragment_offset = RTE_BE16(0x2000)),
		     C(rte_flow_item_ipv4, .hdr.fragment_offset = RTE_BE16(0x3fff)))), A_DROP,
	  ENOTSUP, T(ITEM_SPEC), "IPV4 fragment_offset: only spec 0 (not a fragment) or spec 1 "
	  "with last 0x3fff (a fragment) can be matched", K_ITEM, 0 },
	{ "L4 item on fragments", IN,
	  ITEMS(ITEM(ETH, NULL, NULL),
		ITEM_L(IPV4, C(rte_flow_item_ipv4, .hdr.fragment_offset = RTE_BE16(1)),
		       C(rte_flow_item_ipv4, .hdr.fragment_offset = RTE_BE16(0x3fff)),
		       C(rte_flow_item_ipv4, .hdr.fragment_offset = RTE_BE16(0x3fff))),
		ITEM(UDP, NULL, NULL)), A_DROP, EINVAL, T(ITEM),
	  "L4 item after a fragment match: the device parses no L4 header in IP fragments",
	  K_ITEM, 2 },
	{ "no VLAN, then a VLAN", IN,
	  ITEMS(ITEM(ETH, C(rte_flow_item_eth, .has_vlan = 0), C(rte_flow_item_eth, .has_vlan = 1)),
		ITEM(VLAN, NULL, NULL)), A_DROP, EINVAL, T(ITEM),
	  "item contradicts what a previous item says of this VLAN tag", K_ITEM, 1 },
	{ "a C-tag and no tag", IN,
	  ITEMS(ITEM(ETH, C(rte_flow_item_eth, .hdr.ether_type = RTE_BE16(0x8100)),
		     C(rte_flow_item_eth, .hdr.ether_type = RTE_BE16(0xffff), .has_vlan = 1))),
	  A_DROP, EINVAL, T(ITEM), "item contradicts what a previous item says of this VLAN tag",
	  K_ITEM, 0 },
	/* ---- items: layer order ---- */
	{ "ETH after ETH", IN, ITEMS(ITEM(ETH, NULL, NULL), ITEM(ETH, NULL, NULL)), A_DROP,
	  ENOTSUP, T(ITEM), "ETH cannot follow another ETH of the same header level", K_ITEM, 1 },
	{ "ETH after IPV4", IN, ITEMS(ITEM(IPV4, NULL, NULL), ITEM(ETH, NULL, NULL)), A_DROP,
	  EINVAL, T(ITEM), "ETH must come before the L3/L4 items of its header level", K_ITEM, 1 },
	{ "VLAN first", IN, ITEMS(ITEM(VLAN, NULL, NULL)), A_DROP, EINVAL, T(ITEM),
	  "VLAN must follow an ETH item", K_ITEM, 0 },
	{ "three VLANs", IN,
	  ITEMS(ITEM(ETH, NULL, NULL), ITEM(VLAN, NULL, NULL), ITEM(VLAN, NULL, NULL),
		ITEM(VLAN, NULL, NULL)), A_DROP, ENOTSUP, T(ITEM),
	  "at most two VLAN items per header level can be matched", K_ITEM, 3 },
	{ "VLAN after IPV4", IN, ITEMS(P_V4, ITEM(VLAN, NULL, NULL)), A_DROP, EINVAL, T(ITEM),
	  "VLAN must come before the L3/L4 items of its header level", K_ITEM, 2 },
	{ "two L3", IN, ITEMS(P_V4, ITEM(IPV6, NULL, NULL)), A_DROP, ENOTSUP, T(ITEM),
	  "only one L3 item per header level", K_ITEM, 2 },
	{ "TCP without L3", IN, ITEMS(ITEM(ETH, NULL, NULL), ITEM(TCP, NULL, NULL)), A_DROP,
	  ENOTSUP, T(ITEM), "TCP needs an IPV4 or IPV6 item before it", K_ITEM, 1 },
	{ "UDP without L3", IN, ITEMS(ITEM(UDP, NULL, NULL)), A_DROP, ENOTSUP, T(ITEM),
	  "UDP needs an IPV4 or IPV6 item before it", K_ITEM, 0 },
	{ "two L4", IN, ITEMS(P_V4, ITEM(TCP, NULL, NULL), ITEM(UDP, NULL, NULL)), A_DROP,
	  ENOTSUP, T(ITEM), "only one L4 item per header level", K_ITEM, 3 },
	{ "ICMP over IPv6", IN, ITEMS(ITEM(IPV6, NULL, NULL), ITEM(ICMP, NULL, NULL)), A_DROP,
	  ENOTSUP, T(ITEM), "ICMP needs an IPV4 item before it", K_ITEM, 1 },
	{ "ICMP6 over IPv4", IN, ITEMS(P_V4, ITEM(ICMP6, NULL, NULL)), A_DROP, ENOTSUP, T(ITEM),
	  "ICMP6 needs an IPV6 item before it", K_ITEM, 2 },
	{ "VXLAN without UDP", IN, ITEMS(P_V4, ITEM(VXLAN, NULL, NULL)), A_DROP, EINVAL,
	  T(ITEM), "VXLAN needs an outer UDP item before it", K_ITEM, 2 },
	{ "two tunnels", IN, ITEMS(P_VXLAN, ITEM(VXLAN, NULL, NULL)), A_DROP, ENOTSUP, T(ITEM),
	  "only one tunnel item per pattern", K_ITEM, 4 },
	{ "GRE without L3", IN, ITEMS(ITEM(ETH, NULL, NULL), ITEM(GRE, NULL, NULL)), A_DROP,
	  EINVAL, T(ITEM), "GRE needs an outer IPV4 or IPV6 item before it", K_ITEM, 1 },
	{ "GRE after UDP", IN, ITEMS(P_V4, ITEM(UDP, NULL, NULL), ITEM(GRE, NULL, NULL)), A_DROP,
	  EINVAL, T(ITEM), "GRE cannot follow an L4 item", K_ITEM, 3 },
	{ "GRE_KEY alone", IN, ITEMS(P_V4, ITEM(GRE_KEY, NULL, NULL)), A_DROP, EINVAL, T(ITEM),
	  "GRE_KEY must directly follow GRE", K_ITEM, 2 },
	{ "inner ETH after GRE", IN, ITEMS(P_V4, ITEM(GRE, NULL, NULL), ITEM(ETH, NULL, NULL)),
	  A_DROP, ENOTSUP, T(ITEM), "an inner ETH is only supported after VXLAN", K_ITEM, 3 },
	{ "MPLS after IPv4", IN, ITEMS(P_V4, ITEM(MPLS, NULL, NULL)), A_DROP, ENOTSUP, T(ITEM),
	  "MPLS is supported after ETH/VLAN, GRE or UDP only", K_ITEM, 2 },
	{ "MPLS after VXLAN", IN, ITEMS(P_VXLAN, ITEM(MPLS, NULL, NULL)), A_DROP, ENOTSUP, T(ITEM),
	  "MPLS after VXLAN is not supported", K_ITEM, 4 },
	{ "header after MPLS", IN,
	  ITEMS(ITEM(ETH, NULL, NULL), ITEM(MPLS, NULL, NULL), ITEM(IPV4, NULL, NULL)), A_DROP,
	  ENOTSUP, T(ITEM), "no header item can follow MPLS", K_ITEM, 2 },
	{ "EtherType vs L3", IN,
	  ITEMS(ITEM(ETH, C(rte_flow_item_eth, .hdr.ether_type = RTE_BE16(0x86dd)),
		     C(rte_flow_item_eth, .hdr.ether_type = RTE_BE16(0xffff))),
		ITEM(IPV4, NULL, NULL)), A_DROP, EINVAL, T(ITEM),
	  "L3 item does not match the EtherType given before it", K_ITEM, 1 },
	{ "protocol vs L4", IN,
	  ITEMS(ITEM(IPV4, C(rte_flow_item_ipv4, .hdr.next_proto_id = 17),
		     C(rte_flow_item_ipv4, .hdr.next_proto_id = 0xff)), ITEM(TCP, NULL, NULL)),
	  A_DROP, EINVAL, T(ITEM), msg_contra, K_ITEM, 1 },
	/* ---- items: metadata ---- */
	{ "TAG index too high", IN,
	  ITEMS(ITEM(TAG, C(rte_flow_item_tag, .data = 1, .index = 5), NULL)), A_DROP, ENOTSUP,
	  T(ITEM_SPEC), "TAG index must be 0 to 3", K_ITEM, 0 },
	{ "TAG index partly masked", IN,
	  ITEMS(ITEM(TAG, C(rte_flow_item_tag, .data = 1, .index = 1),
		     C(rte_flow_item_tag, .data = 1, .index = 0x0f))), A_DROP, ENOTSUP,
	  T(ITEM_MASK), "TAG index must be fully masked", K_ITEM, 0 },
	{ "MARK item on egress", OUT, ITEMS(ITEM(MARK, NULL, NULL)), A_DROP, ENOTSUP, T(ITEM),
	  "MARK item is supported on ingress only", K_ITEM, 0 },
	{ "MARK item id", IN, ITEMS(ITEM(MARK, C(rte_flow_item_mark, .id = 0xffffff), NULL)),
	  A_DROP, ENOTSUP, T(ITEM_SPEC), "MARK id must be at most 0xfffffd", K_ITEM, 0 },
	/*
	 * ---- items: what the steering library cannot look up ----
	 * Translation here has no port: masks are checked as for a device
	 * without flex-parser protocols, which has no lookup for MPLS over GRE
	 * (the device model has one: testpmd_items_tunnel matches it).
	 */
	{ "MPLS over GRE", IN,
	  ITEMS(P_V4, ITEM(GRE, NULL, NULL),
		ITEM(MPLS, C(rte_flow_item_mpls, .label_tc_s = { 0, 0x10, 0 }), NULL)), A_DROP,
	  ENOTSUP, T(ITEM), "the device cannot match misc2.outer_first_mpls_over_gre_label (in "
	  "this combination of fields)", K_ITEM, 3 },
	{ "inner ICMP fields", IN,
	  ITEMS(P_VXLAN, ITEM(IPV4, NULL, NULL),
		ITEM(ICMP, C(rte_flow_item_icmp, .hdr.icmp_code = 1), NULL)), A_DROP, ENOTSUP,
	  T(ITEM_MASK), "this field cannot be matched at this position of the pattern", K_ITEM,
	  5 },
	/* ---- actions: types, fates, directions ---- */
	{ "unsupported action", IN, P_ETH, ACTS(ACT(PASSTHRU, NULL), ACT(DROP, NULL)), ENOTSUP,
	  T(ACTION), "action type PASSTHRU not supported", K_ACTION, 0 },
	{ "two fates", IN, P_ETH, ACTS(ACT(QUEUE, Q0), ACT(DROP, NULL)), ENOTSUP, T(ACTION),
	  "only one fate action (QUEUE, RSS, DROP, JUMP) per rule", K_ACTION, 1 },
	{ "QUEUE on egress", OUT, P_ETH, ACTS(ACT(QUEUE, Q0)), ENOTSUP, T(ACTION),
	  "QUEUE is an ingress action", K_ACTION, 0 },
	{ "RSS on egress", OUT, P_ETH,
	  ACTS(ACT(RSS, C(rte_flow_action_rss, .queue_num = 1, .queue = q_dup))), ENOTSUP,
	  T(ACTION), "RSS is an ingress action", K_ACTION, 0 },
	{ "QUEUE beyond Rx queues", IN, P_ETH,
	  ACTS(ACT(QUEUE, C(rte_flow_action_queue, .index = 8))), EINVAL, T(ACTION_CONF),
	  "QUEUE index is beyond the configured Rx queues", K_ACTION, 0 },
	{ "QUEUE without conf", IN, P_ETH, ACTS(ACT(QUEUE, NULL)), EINVAL, T(ACTION_CONF),
	  "QUEUE: action configuration is missing", K_ACTION, 0 },
	{ "ingress without fate", IN, P_ETH, ACTS(ACT(COUNT, NULL)), EINVAL, T(ACTION),
	  "ingress rules need a fate action: QUEUE, RSS, DROP or JUMP", K_ACTIONS, 0 },
	{ "JUMP backwards", ATTR(.ingress = 1, .group = 3), P_ETH,
	  ACTS(ACT(JUMP, C(rte_flow_action_jump, .group = 3))), ENOTSUP, T(ACTION_CONF),
	  "JUMP target group must be higher than the rule's group", K_ACTION, 0 },
	{ "two COUNTs", IN, P_ETH, ACTS(ACT(COUNT, NULL), ACT(COUNT, NULL), ACT(DROP, NULL)),
	  ENOTSUP, T(ACTION), "only one COUNT action per rule", K_ACTION, 1 },
	{ "MARK and FLAG", IN, P_ETH,
	  ACTS(ACT(MARK, C(rte_flow_action_mark, .id = 1)), ACT(FLAG, NULL), ACT(QUEUE, Q0)),
	  ENOTSUP, T(ACTION), "only one MARK or FLAG action per rule", K_ACTION, 1 },
	{ "MARK id too high", IN, P_ETH,
	  ACTS(ACT(MARK, C(rte_flow_action_mark, .id = 0xfffffe)), ACT(QUEUE, Q0)), ENOTSUP,
	  T(ACTION_CONF), "MARK id must be at most 0xfffffd", K_ACTION, 0 },
	{ "MARK on egress", OUT, P_ETH, ACTS(ACT(MARK, C(rte_flow_action_mark, .id = 1))),
	  ENOTSUP, T(ACTION), "MARK is an ingress action", K_ACTION, 0 },
	/* ---- actions: encap / decap ---- */
	{ "VXLAN_ENCAP on ingress", IN, P_ETH,
	  ACTS(ACT(VXLAN_ENCAP, C(rte_flow_action_vxlan_encap, .definition = bad_encap_def)),
	       ACT(DROP, NULL)), ENOTSUP, T(ACTION),
	  "VXLAN_ENCAP is an egress action (NIC RX cannot encapsulate)", K_ACTION, 0 },
	{ "VXLAN_DECAP on egress", OUT, ITEMS(P_VXLAN), ACTS(ACT(VXLAN_DECAP, NULL)), ENOTSUP,
	  T(ACTION), "VXLAN_DECAP is an ingress action (NIC TX cannot decapsulate)", K_ACTION,
	  0 },
	{ "VXLAN_DECAP without VXLAN", IN, ITEMS(P_V4), ACTS(ACT(VXLAN_DECAP, NULL),
							     ACT(QUEUE, Q0)), EINVAL, T(ACTION),
	  "VXLAN_DECAP needs a VXLAN item in the pattern", K_ACTION, 0 },
	{ "VXLAN_ENCAP definition", OUT, P_ETH,
	  ACTS(ACT(VXLAN_ENCAP, C(rte_flow_action_vxlan_encap, .definition = bad_encap_def))),
	  EINVAL, T(ACTION_CONF), "VXLAN_ENCAP definition must be ETH / [VLAN] / IPV4 or IPV6 / "
	  "UDP / VXLAN / END, each with a spec", K_ACTION, 0 },
	{ "RAW_ENCAP alone on ingress", IN, ITEMS(P_VXLAN),
	  ACTS(ACT(RAW_ENCAP, C(rte_flow_action_raw_encap, .data = (uint8_t *)(uintptr_t)raw14,
				.size = 14)), ACT(QUEUE, Q0)), ENOTSUP, T(ACTION),
	  "RAW_ENCAP on ingress is only supported after RAW_DECAP (L3 tunnel decap)", K_ACTION,
	  0 },
	{ "RAW_DECAP alone on egress", OUT, P_ETH,
	  ACTS(ACT(RAW_DECAP, C(rte_flow_action_raw_decap, .size = 14))), ENOTSUP, T(ACTION),
	  "RAW_DECAP on egress is only supported before RAW_ENCAP (L2 to L3 tunnel encap)",
	  K_ACTION, 0 },
	{ "RAW_ENCAP odd size", OUT, P_ETH,
	  ACTS(ACT(RAW_ENCAP, C(rte_flow_action_raw_encap, .data = (uint8_t *)(uintptr_t)raw15,
				.size = 15))), ENOTSUP, T(ACTION_CONF),
	  "RAW_ENCAP header must be an even number of bytes, at most 126", K_ACTION, 0 },
	{ "RAW_ENCAP before RAW_DECAP", OUT, P_ETH,
	  ACTS(ACT(RAW_ENCAP, C(rte_flow_action_raw_encap, .data = (uint8_t *)(uintptr_t)raw50,
				.size = 50)),
	       ACT(RAW_DECAP, C(rte_flow_action_raw_decap, .size = 14))), ENOTSUP, T(ACTION),
	  "RAW_DECAP must come before RAW_ENCAP", K_ACTION, 1 },
	{ "L3 decap with a bad L2", IN, ITEMS(P_VXLAN),
	  ACTS(ACT(RAW_DECAP, C(rte_flow_action_raw_decap, .size = 50)),
	       ACT(RAW_ENCAP, C(rte_flow_action_raw_encap, .data = (uint8_t *)(uintptr_t)raw20,
				.size = 20)), ACT(QUEUE, Q0)), ENOTSUP, T(ACTION_CONF),
	  "RAW_DECAP + RAW_ENCAP on ingress: an L3 tunnel decap needs a tunnel header over 34 "
	  "bytes and a new L2 header of 14 or 18 bytes", K_ACTION, 1 },
	{ "RAW_ENCAP preserve", OUT, P_ETH,
	  ACTS(ACT(RAW_ENCAP, C(rte_flow_action_raw_encap, .data = (uint8_t *)(uintptr_t)raw50,
				.preserve = (uint8_t *)(uintptr_t)raw50, .size = 50))), ENOTSUP,
	  T(ACTION_CONF), "RAW_ENCAP preserve is not supported", K_ACTION, 0 },
	/* ---- actions: header change order and prerequisites ---- */
	{ "modify after encap", OUT, P_ETH,
	  ACTS(ACT(RAW_ENCAP, C(rte_flow_action_raw_encap, .data = (uint8_t *)(uintptr_t)raw50,
				.size = 50)),
	       ACT(SET_MAC_SRC, C(rte_flow_action_set_mac, .mac_addr = { 1, 2, 3, 4, 5, 6 }))),
	  ENOTSUP,
	  T(ACTION), msg_order, K_ACTION, 1 },
	{ "pop after modify", IN,
	  ITEMS(ITEM(ETH, NULL, NULL), ITEM(VLAN, NULL, NULL), ITEM(IPV4, NULL, NULL)),
	  ACTS(ACT(SET_IPV4_SRC, C(rte_flow_action_set_ipv4, .ipv4_addr = 1)),
	       ACT(OF_POP_VLAN, NULL), ACT(QUEUE, Q0)), ENOTSUP, T(ACTION), msg_order, K_ACTION,
	  1 },
	{ "ingress push right after a pop", IN,
	  ITEMS(ITEM(ETH, NULL, NULL), ITEM(VLAN, NULL, NULL), ITEM(IPV4, NULL, NULL)),
	  ACTS(ACT(OF_POP_VLAN, NULL),
	       ACT(OF_PUSH_VLAN, C(rte_flow_action_of_push_vlan, .ethertype = RTE_BE16(0x8100))),
	       ACT(OF_SET_VLAN_VID, C(rte_flow_action_of_set_vlan_vid, .vlan_vid = RTE_BE16(5))),
	       ACT(QUEUE, Q0)), ENOTSUP, T(ACTION),
	  "on ingress, OF_PUSH_VLAN cannot follow OF_POP_VLAN without a field change between them",
	  K_ACTION, 1 },
	{ "DROP with modify", IN, ITEMS(P_V4),
	  ACTS(ACT(SET_IPV4_SRC, C(rte_flow_action_set_ipv4, .ipv4_addr = 1)), ACT(DROP, NULL)),
	  ENOTSUP, T(ACTION), "DROP cannot be combined with header changes", K_ACTION, 1 },
	{ "SET_IPV4_SRC without IPv4", IN, ITEMS(ITEM(IPV6, NULL, NULL)),
	  ACTS(ACT(SET_IPV4_SRC, C(rte_flow_action_set_ipv4, .ipv4_addr = 1)), ACT(QUEUE, Q0)),
	  EINVAL, T(ACTION), "SET_IPV4_SRC needs an IPV4 item in the pattern", K_ACTION, 0 },
	{ "SET_TP_SRC without L4", IN, ITEMS(P_V4),
	  ACTS(ACT(SET_TP_SRC, C(rte_flow_action_set_tp, .port = 1)), ACT(QUEUE, Q0)), EINVAL,
	  T(ACTION), "SET_TP_SRC/DST needs a TCP or UDP item in the pattern", K_ACTION, 0 },
	{ "DEC_TTL without L3", IN, P_ETH, ACTS(ACT(DEC_TTL, NULL), ACT(QUEUE, Q0)), EINVAL,
	  T(ACTION), "SET_TTL/DEC_TTL needs an IPV4 or IPV6 item in the pattern", K_ACTION, 0 },
	{ "DSCP out of range", IN, ITEMS(P_V4),
	  ACTS(ACT(SET_IPV4_DSCP, C(rte_flow_action_set_dscp, .dscp = 64)), ACT(QUEUE, Q0)),
	  EINVAL, T(ACTION_CONF), "value out of range (DSCP is 0 to 63)", K_ACTION, 0 },
	{ "TCP seq on UDP", IN, ITEMS(P_V4, ITEM(UDP, NULL, NULL)),
	  ACTS(ACT(INC_TCP_SEQ, &be_one), ACT(QUEUE, Q0)), EINVAL, T(ACTION),
	  "INC/DEC_TCP_SEQ/ACK needs a TCP item in the pattern", K_ACTION, 0 },
	/* ---- actions: VLAN ---- */
	{ "push of a non-VLAN type", OUT, P_ETH,
	  ACTS(ACT(OF_PUSH_VLAN, C(rte_flow_action_of_push_vlan,
				   .ethertype = RTE_BE16(0x0800)))), ENOTSUP, T(ACTION_CONF),
	  "OF_PUSH_VLAN EtherType must be 0x8100 or 0x88a8", K_ACTION, 0 },
	{ "push without VID", OUT, P_ETH,
	  ACTS(ACT(OF_PUSH_VLAN, C(rte_flow_action_of_push_vlan,
				   .ethertype = RTE_BE16(0x8100)))), EINVAL, T(ACTION),
	  "OF_PUSH_VLAN needs OF_SET_VLAN_VID or a VLAN item with a fully masked VID",
	  K_ACTION, 0 },
	{ "PCP without push", OUT, P_ETH,
	  ACTS(ACT(OF_SET_VLAN_PCP, C(rte_flow_action_of_set_vlan_pcp, .vlan_pcp = 1))), ENOTSUP,
	  T(ACTION), "OF_SET_VLAN_PCP is supported only after OF_PUSH_VLAN", K_ACTION, 0 },
	{ "VID too high", OUT, P_ETH,
	  ACTS(ACT(OF_SET_VLAN_VID, C(rte_flow_action_of_set_vlan_vid,
				      .vlan_vid = RTE_BE16(0xfff)))), EINVAL, T(ACTION_CONF),
	  "VLAN VID must be at most 0xffe", K_ACTION, 0 },
	{ "VID without VLAN", OUT, P_ETH,
	  ACTS(ACT(OF_SET_VLAN_VID, C(rte_flow_action_of_set_vlan_vid,
				      .vlan_vid = RTE_BE16(5)))), EINVAL, T(ACTION),
	  "OF_SET_VLAN_VID needs OF_PUSH_VLAN before it or a VLAN item in the pattern",
	  K_ACTION, 0 },
	{ "pop without VLAN", IN, P_ETH, ACTS(ACT(OF_POP_VLAN, NULL), ACT(QUEUE, Q0)), ENOTSUP,
	  T(ACTION), "OF_POP_VLAN needs a VLAN item per popped tag in the pattern", K_ACTION, 0 },
	{ "three pushes", OUT, P_ETH,
	  ACTS(ACT(OF_PUSH_VLAN, C(rte_flow_action_of_push_vlan, .ethertype = RTE_BE16(0x8100))),
	       ACT(OF_PUSH_VLAN, C(rte_flow_action_of_push_vlan, .ethertype = RTE_BE16(0x8100))),
	       ACT(OF_PUSH_VLAN, C(rte_flow_action_of_push_vlan,
				   .ethertype = RTE_BE16(0x8100)))), ENOTSUP, T(ACTION),
	  "at most two OF_PUSH_VLAN actions per rule", K_ACTION, 2 },
	/* ---- actions: registers and MODIFY_FIELD ---- */
	{ "SET_TAG index", IN, P_ETH,
	  ACTS(ACT(SET_TAG, C(rte_flow_action_set_tag, .data = 1, .mask = 1, .index = 4)),
	       ACT(QUEUE, Q0)), ENOTSUP, T(ACTION_CONF), "SET_TAG index must be 0 to 3", K_ACTION,
	  0 },
	{ "SET_META empty mask", IN, P_ETH,
	  ACTS(ACT(SET_META, C(rte_flow_action_set_meta, .data = 1, .mask = 0)), ACT(QUEUE, Q0)),
	  EINVAL, T(ACTION_CONF), "mask is zero: nothing to set", K_ACTION, 0 },
	{ "too many modifications", OUT, P_ETH,
	  ACTS(ACT(SET_META, C(rte_flow_action_set_meta, .mask = 0x55555555)),
	       ACT(SET_META, C(rte_flow_action_set_meta, .mask = 0x55555555)),
	       ACT(SET_META, C(rte_flow_action_set_meta, .mask = 0x55555555)),
	       ACT(SET_META, C(rte_flow_action_set_meta, .mask = 0x55555555)),
	       ACT(SET_META, C(rte_flow_action_set_meta, .mask = 0x55555555))), ENOTSUP,
	  T(ACTION), "too many header changes in one rule (at most 64 fields)", K_ACTION, 4 },
	{ "MODIFY_FIELD field", IN, ITEMS(P_VXLAN),
	  ACTS(ACT(MODIFY_FIELD, C(rte_flow_action_modify_field,
				   .dst = { .field = RTE_FLOW_FIELD_VXLAN_VNI },
				   .src = { .field = RTE_FLOW_FIELD_VALUE }, .width = 24)),
	       ACT(QUEUE, Q0)), ENOTSUP, T(ACTION_CONF),
	  "MODIFY_FIELD: destination field 21 (enum rte_flow_field_id) not supported",
	  K_ACTION, 0 },
	/* Ids past the field table: an application's enum may hold anything. */
	{ "MODIFY_FIELD field id beyond the known", IN, ITEMS(P_VXLAN),
	  ACTS(ACT(MODIFY_FIELD, C(rte_flow_action_modify_field,
				   .dst = { .field = RTE_FLOW_FIELD_IPV4_TTL },
				   .src = { .field = (enum rte_flow_field_id)1000 },
				   .width = 8)),
	       ACT(QUEUE, Q0)), ENOTSUP, T(ACTION_CONF),
	  "MODIFY_FIELD: source field 1000 (enum rte_flow_field_id) not supported",
	  K_ACTION, 0 },
	{ "MODIFY_FIELD negative field id", IN, ITEMS(P_VXLAN),
	  ACTS(ACT(MODIFY_FIELD, C(rte_flow_action_modify_field,
				   .dst = { .field = (enum rte_flow_field_id)-1 },
				   .src = { .field = RTE_FLOW_FIELD_VALUE }, .width = 8)),
	       ACT(QUEUE, Q0)), ENOTSUP, T(ACTION_CONF),
	  "MODIFY_FIELD: destination field -1 (enum rte_flow_field_id) not supported",
	  K_ACTION, 0 },
	{ "MODIFY_FIELD inner", IN, ITEMS(P_VXLAN),
	  ACTS(ACT(MODIFY_FIELD, C(rte_flow_action_modify_field,
				   .dst = { .field = RTE_FLOW_FIELD_IPV4_TTL, .level = 2 },
				   .src = { .field = RTE_FLOW_FIELD_VALUE }, .width = 8)),
	       ACT(QUEUE, Q0)), ENOTSUP, T(ACTION_CONF),
	  "MODIFY_FIELD: only outermost headers (level 0 or 1) can be modified", K_ACTION, 0 },
	{ "MODIFY_FIELD width", IN, ITEMS(P_V4),
	  ACTS(ACT(MODIFY_FIELD, C(rte_flow_action_modify_field,
				   .dst = { .field = RTE_FLOW_FIELD_IPV4_TTL, .offset = 4 },
				   .src = { .field = RTE_FLOW_FIELD_VALUE }, .width = 8)),
	       ACT(QUEUE, Q0)), EINVAL, T(ACTION_CONF),
	  "MODIFY_FIELD: width is 0 or offset + width exceeds the destination field", K_ACTION,
	  0 },
	{ "MODIFY_FIELD add to an address", IN, ITEMS(P_V4),
	  ACTS(ACT(MODIFY_FIELD, C(rte_flow_action_modify_field,
				   .operation = RTE_FLOW_MODIFY_ADD,
				   .dst = { .field = RTE_FLOW_FIELD_IPV4_SRC },
				   .src = { .field = RTE_FLOW_FIELD_VALUE }, .width = 32)),
	       ACT(QUEUE, Q0)), ENOTSUP, T(ACTION_CONF), "MODIFY_FIELD ADD/SUB: only whole TTL, "
	  "hop limit, TCP sequence or acknowledgment fields", K_ACTION, 0 },
	{ "MODIFY_FIELD header missing", IN, P_ETH,
	  ACTS(ACT(MODIFY_FIELD, C(rte_flow_action_modify_field,
				   .dst = { .field = RTE_FLOW_FIELD_IPV4_DST },
				   .src = { .field = RTE_FLOW_FIELD_VALUE }, .width = 32)),
	       ACT(QUEUE, Q0)), EINVAL, T(ACTION),
	  "MODIFY_FIELD: the pattern has no item for the header of this field", K_ACTION, 0 },
	/* ---- actions: RSS ---- */
	{ "RSS level 3", IN, ITEMS(P_VXLAN),
	  ACTS(ACT(RSS, C(rte_flow_action_rss, .level = 3, .queue_num = 1, .queue = q_dup))),
	  ENOTSUP, T(ACTION_CONF), "RSS level must be 0 or 1 (outer) or 2 (inner)", K_ACTION, 0 },
	{ "inner RSS without tunnel", IN, ITEMS(P_V4),
	  ACTS(ACT(RSS, C(rte_flow_action_rss, .level = 2, .queue_num = 1, .queue = q_dup))),
	  EINVAL, T(ACTION_CONF), "inner RSS (level 2) needs a tunnel item in the pattern",
	  K_ACTION, 0 },
	{ "RSS on SCTP", IN, P_ETH,
	  ACTS(ACT(RSS, C(rte_flow_action_rss, .types = RTE_ETH_RSS_NONFRAG_IPV4_SCTP,
			  .queue_num = 1, .queue = q_dup))), ENOTSUP, T(ACTION_CONF),
	  "RSS types contain hash types the device cannot compute (IPv4/IPv6 addresses and "
	  "TCP/UDP ports only)", K_ACTION, 0 },
	{ "RSS key size", IN, P_ETH,
	  ACTS(ACT(RSS, C(rte_flow_action_rss, .key_len = 52, .key = key52, .queue_num = 1,
			  .queue = q_dup))), ENOTSUP, T(ACTION_CONF), "RSS key must be 40 bytes",
	  K_ACTION, 0 },
	{ "RSS duplicate queue", IN, P_ETH,
	  ACTS(ACT(RSS, C(rte_flow_action_rss, .queue_num = 2, .queue = q_dup))), ENOTSUP,
	  T(ACTION_CONF), "RSS queue list has duplicates", K_ACTION, 0 },
	{ "RSS queue out of range", IN, P_ETH,
	  ACTS(ACT(RSS, C(rte_flow_action_rss, .queue_num = 2, .queue = q_bad))), EINVAL,
	  T(ACTION_CONF), "RSS queue index is beyond the configured Rx queues", K_ACTION, 0 },
	{ "RSS without queues", IN, P_ETH, ACTS(ACT(RSS, C(rte_flow_action_rss, .queue_num = 0))),
	  EINVAL, T(ACTION_CONF), "RSS needs at least one queue", K_ACTION, 0 },
	{ "RSS XOR", IN, P_ETH,
	  ACTS(ACT(RSS, C(rte_flow_action_rss, .func = RTE_ETH_HASH_FUNCTION_SIMPLE_XOR,
			  .queue_num = 1, .queue = q_dup))), ENOTSUP, T(ACTION_CONF),
	  "RSS hash function not supported: Toeplitz or symmetric Toeplitz only", K_ACTION, 0 },
	{ "RSS src and dst only", IN, P_ETH,
	  ACTS(ACT(RSS, C(rte_flow_action_rss,
			  .types = RTE_ETH_RSS_IPV4 | RTE_ETH_RSS_L3_SRC_ONLY |
				   RTE_ETH_RSS_L3_DST_ONLY, .queue_num = 1, .queue = q_dup))),
	  EINVAL, T(ACTION_CONF), "RSS types L3_SRC_ONLY and L3_DST_ONLY together", K_ACTION, 0 },
};

static const void *
expected_cause(const struct bad_rule *r)
{
	switch (r->cause) {
	case K_ATTR:
		return r->attr;
	case K_ITEM:
		return &r->items[r->idx];
	case K_ACTION:
		return &r->actions[r->idx];
	case K_ITEMS:
		return r->items;
	case K_ACTIONS:
		return r->actions;
	default:
		return NULL;
	}
}

static void
test_invalid_rules(void **state)
{
	unsigned int i, failed = 0;

	(void)state;
	assert_true(RTE_DIM(bad_rules) >= 50);
	for (i = 0; i < RTE_DIM(bad_rules); i++) {
		const struct bad_rule *r = &bad_rules[i];
		struct rte_flow_error err = { .type = RTE_FLOW_ERROR_TYPE_NONE };
		struct mlx5dm_flow_spec fs;
		int ret = mlx5dm_flow_translate(&t_context, r->attr, r->items, r->actions, &fs,
						&err);

		if (ret == -r->err && err.type == r->type && err.message != NULL &&
		    strcmp(err.message, r->msg) == 0 && err.cause == expected_cause(r))
			continue;
		fprintf(stderr, "case \"%s\": got ret %d type %d cause %p \"%s\"\n"
			"   expected ret %d type %d cause %p \"%s\"\n", r->name, ret, err.type,
			err.cause, err.message != NULL ? err.message : "(null)", -r->err, r->type,
			expected_cause(r), r->msg);
		failed++;
	}
	fprintf(stderr, "%u invalid rules, %u not refused as expected\n",
		(unsigned int)RTE_DIM(bad_rules), failed);
	assert_int_equal(failed, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_invalid_rules),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
