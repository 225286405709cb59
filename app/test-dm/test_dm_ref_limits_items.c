/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * net_mlx5dm's limits on attributes and pattern items, as its guide states
 * them (doc/guides/nics/mlx5dm.rst, "rte_flow"): what it refuses and with
 * which error type. This is the reference's model of the PMD's contract,
 * written from the guide, not from the PMD's code: a negative case that
 * passes here and fails on the port shows the two disagree.
 *
 * Items are walked like the device parses headers: per header level (outer,
 * then inner after VXLAN/GRE) at most one ETH, two VLANs, one L3 and one L4,
 * in that order.
 */

#include <errno.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_ether.h>

#include "test_dm_flow.h"
#include "test_dm_ref_priv.h"

#define TEST_DM_LIMITS_PRIO_MAX 16382u
#define TEST_DM_LIMITS_TAGS 4u
#define TEST_DM_LIMITS_MARK_MAX 0xfffffdu
#define TEST_DM_LIMITS_FDB_GROUP_MAX 65534u
#define TEST_DM_LIMITS_FDB_PRIO_MAX 65533u

/* ---- attributes ---- */

int
test_dm_ref_limits_attr(const struct test_dm_ref *r, const struct rte_flow_attr *attr,
			struct rte_flow_error *e)
{
	if (r->cfg.limits != TEST_DM_REF_LIMITS_MLX5DM)
		return 0;
	if (attr->transfer && attr->group > TEST_DM_LIMITS_FDB_GROUP_MAX)
		return test_dm_ref_err(e, ENOTSUP, RTE_FLOW_ERROR_TYPE_ATTR_GROUP, attr,
				       "transfer group must be below 65535");
	if (attr->transfer && attr->priority > TEST_DM_LIMITS_FDB_PRIO_MAX)
		return test_dm_ref_err(e, ENOTSUP, RTE_FLOW_ERROR_TYPE_ATTR_PRIORITY, attr,
				       "transfer priority must be at most 65533");
	/* A transfer rule is a rule of the E-Switch: the port must be on one (test_dm_ref.c). */
	if (attr->transfer)
		return 0;
	if (attr->ingress && attr->egress)
		return test_dm_ref_err(e, ENOTSUP, RTE_FLOW_ERROR_TYPE_ATTR_EGRESS, attr,
				       "a rule is either ingress or egress, not both");
	if (!attr->ingress && !attr->egress)
		return test_dm_ref_err(e, EINVAL, RTE_FLOW_ERROR_TYPE_ATTR_INGRESS, attr,
				       "ingress or egress must be set");
	if (attr->group == UINT32_MAX)
		return test_dm_ref_err(e, ENOTSUP, RTE_FLOW_ERROR_TYPE_ATTR_GROUP, attr,
				       "group must be below 4294967295");
	if (attr->priority > TEST_DM_LIMITS_PRIO_MAX)
		return test_dm_ref_err(e, ENOTSUP, RTE_FLOW_ERROR_TYPE_ATTR_PRIORITY, attr,
				       "priority must be at most 16382");
	return 0;
}

/* ---- fields each item can match ---- */

#define TEST_DM_FF16 { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, \
		       0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff }

static const struct rte_flow_item_ipv4 test_dm_limits_ipv4 = {
	.hdr = {
		.version_ihl = 0x0f,
		.type_of_service = 0xff,
		.fragment_offset = RTE_BE16(0x3fff),
		.time_to_live = 0xff,
		.next_proto_id = 0xff,
		.src_addr = RTE_BE32(0xffffffff),
		.dst_addr = RTE_BE32(0xffffffff),
	},
};
static const struct rte_flow_item_ipv6 test_dm_limits_ipv6 = {
	.hdr = {
		.vtc_flow = RTE_BE32(0x0fffffff),
		.proto = 0xff,
		.hop_limits = 0xff,
		.src_addr = TEST_DM_FF16,
		.dst_addr = TEST_DM_FF16,
	},
};
static const struct rte_flow_item_tcp test_dm_limits_tcp = {
	.hdr = {
		.src_port = RTE_BE16(0xffff),
		.dst_port = RTE_BE16(0xffff),
		.sent_seq = RTE_BE32(0xffffffff),
		.recv_ack = RTE_BE32(0xffffffff),
		.tcp_flags = 0xff,
	},
};
static const struct rte_flow_item_udp test_dm_limits_udp = {
	.hdr = { .src_port = RTE_BE16(0xffff), .dst_port = RTE_BE16(0xffff) },
};
static const struct rte_flow_item_vxlan test_dm_limits_vxlan = {
	.hdr.vx_vni = RTE_BE32(0xffffff00),
};
static const struct rte_flow_item_gre test_dm_limits_gre = {
	.c_rsvd0_ver = RTE_BE16(0xb000),
	.protocol = RTE_BE16(0xffff),
};

struct test_dm_limits_mask {
	enum rte_flow_item_type type;
	const void *allowed;
	size_t size;
	const char *msg;
};

#define TEST_DM_LM(t, a, m) { RTE_FLOW_ITEM_TYPE_##t, &(a), sizeof(a), (m) }

/* Items whose every field can be matched (ETH, VLAN, GRE_KEY, MPLS, metadata) are absent. */
static const struct rte_flow_item_icmp test_dm_limits_icmp = {
	.hdr = {
		.icmp_type = 0xff,
		.icmp_code = 0xff,
		.icmp_ident = RTE_BE16(0xffff),
		.icmp_seq_nb = RTE_BE16(0xffff),
	},
};
static const struct rte_flow_item_icmp6 test_dm_limits_icmp6 = { .type = 0xff, .code = 0xff };

static const struct test_dm_limits_mask test_dm_limits_masks[] = {
	TEST_DM_LM(IPV4, test_dm_limits_ipv4, "IPV4: only IHL, DSCP/ECN, fragment_offset, TTL, "
		   "protocol and addresses can be matched"),
	TEST_DM_LM(IPV6, test_dm_limits_ipv6, "IPV6: only traffic class, flow label, next header, "
		   "hop limit and addresses can be matched"),
	TEST_DM_LM(TCP, test_dm_limits_tcp, "TCP: only ports, sequence and acknowledgment numbers "
		   "and flags can be matched"),
	TEST_DM_LM(UDP, test_dm_limits_udp, "UDP: only ports can be matched"),
	TEST_DM_LM(ICMP, test_dm_limits_icmp, "ICMP: only type, code, identifier and sequence "
		   "number can be matched"),
	TEST_DM_LM(ICMP6, test_dm_limits_icmp6, "ICMP6: only type and code can be matched"),
	TEST_DM_LM(VXLAN, test_dm_limits_vxlan, "VXLAN: only the VNI can be matched"),
	TEST_DM_LM(GRE, test_dm_limits_gre, "GRE: only the C, K and S bits and the protocol can "
		   "be matched"),
};

static const uint8_t *
test_dm_limits_eff_mask(const struct rte_flow_item *item)
{
	return item->mask != NULL ? item->mask : test_dm_flow_item_default_mask(item->type);
}

static int
test_dm_limits_item_mask(const struct rte_flow_item *item, struct rte_flow_error *e)
{
	const uint8_t *m = test_dm_limits_eff_mask(item), *a;
	unsigned int i, k;

	if (item->spec == NULL || m == NULL)
		return 0;
	for (i = 0; i < RTE_DIM(test_dm_limits_masks); i++) {
		if (test_dm_limits_masks[i].type != item->type)
			continue;
		a = test_dm_limits_masks[i].allowed;
		for (k = 0; k < test_dm_limits_masks[i].size; k++)
			if (m[k] & ~a[k])
				return test_dm_ref_err(e, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM_MASK,
						       item, test_dm_limits_masks[i].msg);
	}
	return 0;
}

/* fragment_offset: "not a fragment" (spec 0) or "a fragment" (spec 1, last 0x3fff), mask 0x3fff. */
static int
test_dm_limits_frag(const struct rte_flow_item *item, struct rte_flow_error *e)
{
	const struct rte_flow_item_ipv4 *s = item->spec, *l = item->last;
	const struct rte_flow_item_ipv4 *m = (const void *)test_dm_limits_eff_mask(item);
	uint16_t mv = rte_be_to_cpu_16(m->hdr.fragment_offset) & 0x3fff;
	uint16_t sv = rte_be_to_cpu_16(s->hdr.fragment_offset) & 0x3fff;
	uint16_t lv = l != NULL ? rte_be_to_cpu_16(l->hdr.fragment_offset) & 0x3fff : 0;

	if (mv == 0)
		return 0;
	if (mv != 0x3fff)
		return test_dm_ref_err(e, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM_MASK, item,
				       "IPV4 fragment_offset can only be matched with mask 0x3fff");
	if ((sv == 0 && (lv == 0 || lv == sv)) || (sv == 1 && lv == 0x3fff))
		return 0;
	return test_dm_ref_err(e, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM_SPEC, item,
			       "IPV4 fragment_offset: only spec 0 (not a fragment) or spec 1 with "
			       "last 0x3fff (a fragment) can be matched");
}

static int
test_dm_limits_ranges(const struct rte_flow_item *item, struct rte_flow_error *e)
{
	int off = test_dm_ref_item_range_off(item);

	/* The fragment range has its own rule (test_dm_limits_frag). */
	if (off < 0 || (item->type == RTE_FLOW_ITEM_TYPE_IPV4 &&
			off == (int)offsetof(struct rte_ipv4_hdr, fragment_offset)))
		return 0;
	return test_dm_ref_err(e, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM_LAST, item,
			       "range cannot be matched: only ranges a mask expresses (spec ends "
			       "in zeros, last in ones) are supported");
}

/* ---- metadata items ---- */

static int
test_dm_limits_meta(const struct rte_flow_attr *attr, const struct rte_flow_item *item,
		    struct rte_flow_error *e)
{
	if (item->type == RTE_FLOW_ITEM_TYPE_MARK) {
		const struct rte_flow_item_mark *s = item->spec;

		if (!attr->ingress)
			return test_dm_ref_err(e, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM, item,
					       "MARK item is supported on ingress only");
		if (s != NULL && s->id > TEST_DM_LIMITS_MARK_MAX)
			return test_dm_ref_err(e, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM_SPEC, item,
					       "MARK id must be at most 0xfffffd");
	}
	if (item->type == RTE_FLOW_ITEM_TYPE_TAG && item->spec != NULL) {
		const struct rte_flow_item_tag *s = item->spec;
		const struct rte_flow_item_tag *m = (const void *)test_dm_limits_eff_mask(item);

		if (m->index != 0xff)
			return test_dm_ref_err(e, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM_MASK, item,
					       "TAG index must be fully masked");
		if (s->index >= TEST_DM_LIMITS_TAGS)
			return test_dm_ref_err(e, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM_SPEC, item,
					       "TAG index must be 0 to 3");
	}
	return 0;
}

/* ---- header order ---- */

/** What the items so far have said about the headers. */
struct test_dm_limits_walk {
	unsigned int inner;		/**< Header level: 0 outer, 1 after a tunnel item. */
	unsigned int eth;		/**< ETH items at this level. */
	unsigned int vlans;
	enum rte_flow_item_type l3;	/**< END when none at this level. */
	enum rte_flow_item_type l4;
	enum rte_flow_item_type tunnel;
	enum rte_flow_item_type prev;	/**< Previous item (VOID skipped). */
	int mpls;			/**< An MPLS item was seen. */
	int ethertype;			/**< Fully masked EtherType before the L3 item, or -1. */
	int proto;			/**< Fully masked IP protocol of the L3 item, or -1. */
	int frag;			/**< The L3 item matches fragments only. */
};

static int
test_dm_limits_bad(const struct rte_flow_item *item, int code, struct rte_flow_error *e,
		   const char *msg)
{
	return test_dm_ref_err(e, code, RTE_FLOW_ERROR_TYPE_ITEM, item, msg);
}

static void
test_dm_limits_level(struct test_dm_limits_walk *w, enum rte_flow_item_type tunnel)
{
	w->inner = 1;
	w->tunnel = tunnel;
	w->eth = 0;
	w->vlans = 0;
	w->l3 = RTE_FLOW_ITEM_TYPE_END;
	w->l4 = RTE_FLOW_ITEM_TYPE_END;
	w->ethertype = -1;
	w->proto = -1;
	w->frag = 0;
}

/* A fully masked 16-bit big-endian field of the spec, or -1. */
static int
test_dm_limits_full16(const struct rte_flow_item *item, size_t off)
{
	const uint8_t *s = item->spec, *m = test_dm_limits_eff_mask(item);

	if (s == NULL || m == NULL || m[off] != 0xff || m[off + 1] != 0xff)
		return -1;
	return s[off] << 8 | s[off + 1];
}

static int
test_dm_limits_full8(const struct rte_flow_item *item, size_t off)
{
	const uint8_t *s = item->spec, *m = test_dm_limits_eff_mask(item);

	return s == NULL || m == NULL || m[off] != 0xff ? -1 : s[off];
}

static int
test_dm_limits_l2(struct test_dm_limits_walk *w, const struct rte_flow_item *item,
		  struct rte_flow_error *e)
{
	int et;

	if (item->type == RTE_FLOW_ITEM_TYPE_ETH) {
		if (w->inner && w->tunnel != RTE_FLOW_ITEM_TYPE_VXLAN)
			return test_dm_limits_bad(item, ENOTSUP, e,
						  "an inner ETH is only supported " "after VXLAN");
		if (w->l3 != RTE_FLOW_ITEM_TYPE_END || w->l4 != RTE_FLOW_ITEM_TYPE_END)
			return test_dm_limits_bad(item, EINVAL, e, "ETH must come before the L3/L4 "
						  "items of its header level");
		if (w->eth != 0)
			return test_dm_limits_bad(item, ENOTSUP, e, "ETH cannot follow another ETH "
						  "of the same header level");
		w->eth++;
		et = test_dm_limits_full16(item, offsetof(struct rte_ether_hdr, ether_type));
	} else {
		if (w->eth == 0)
			return test_dm_limits_bad(item, EINVAL, e, "VLAN must follow an ETH item");
		if (w->l3 != RTE_FLOW_ITEM_TYPE_END || w->l4 != RTE_FLOW_ITEM_TYPE_END)
			return test_dm_limits_bad(item, EINVAL, e, "VLAN must come before the "
						  "L3/L4 items of its header level");
		if (w->vlans == 2)
			return test_dm_limits_bad(item, ENOTSUP, e, "at most two VLAN items per "
						  "header level can be matched");
		w->vlans++;
		et = test_dm_limits_full16(item, offsetof(struct rte_vlan_hdr, eth_proto));
	}
	/* A VLAN TPID in the EtherType announces a tag, not the L3 header. */
	if (et != RTE_ETHER_TYPE_VLAN && et != RTE_ETHER_TYPE_QINQ)
		w->ethertype = et;
	return 0;
}

static int
test_dm_limits_l3(struct test_dm_limits_walk *w, const struct rte_flow_item *item,
		  struct rte_flow_error *e)
{
	int v4 = item->type == RTE_FLOW_ITEM_TYPE_IPV4;

	if (w->l3 != RTE_FLOW_ITEM_TYPE_END || w->l4 != RTE_FLOW_ITEM_TYPE_END)
		return test_dm_limits_bad(item, ENOTSUP, e, "only one L3 item per header level");
	if (w->ethertype >= 0 && w->ethertype != (v4 ? RTE_ETHER_TYPE_IPV4 : RTE_ETHER_TYPE_IPV6))
		return test_dm_limits_bad(item, EINVAL, e, "L3 item does not match the EtherType "
					  "given before it");
	w->l3 = item->type;
	w->proto = test_dm_limits_full8(item, v4 ? offsetof(struct rte_ipv4_hdr, next_proto_id) :
					offsetof(struct rte_ipv6_hdr, proto));
	/* "A fragment" (spec 1 .. last 0x3fff): the device parses nothing behind its header. */
	if (v4 && item->spec != NULL) {
		const struct rte_flow_item_ipv4 *s = item->spec;
		const struct rte_flow_item_ipv4 *m = (const void *)test_dm_limits_eff_mask(item);

		w->frag = (rte_be_to_cpu_16(s->hdr.fragment_offset & m->hdr.fragment_offset) &
			   0x3fff) != 0;
	}
	return 0;
}

struct test_dm_limits_l4 {
	enum rte_flow_item_type type;
	enum rte_flow_item_type l3;	/**< END: IPV4 or IPV6. */
	uint8_t proto;
	const char *msg;
};

static const struct test_dm_limits_l4 test_dm_limits_l4s[] = {
	{ RTE_FLOW_ITEM_TYPE_TCP, RTE_FLOW_ITEM_TYPE_END, IPPROTO_TCP,
	  "TCP needs an IPV4 or IPV6 item before it" },
	{ RTE_FLOW_ITEM_TYPE_UDP, RTE_FLOW_ITEM_TYPE_END, IPPROTO_UDP,
	  "UDP needs an IPV4 or IPV6 item before it" },
	{ RTE_FLOW_ITEM_TYPE_ICMP, RTE_FLOW_ITEM_TYPE_IPV4, IPPROTO_ICMP,
	  "ICMP needs an IPV4 item before it" },
	{ RTE_FLOW_ITEM_TYPE_ICMP6, RTE_FLOW_ITEM_TYPE_IPV6, IPPROTO_ICMPV6,
	  "ICMP6 needs an IPV6 item before it" },
};

static int
test_dm_limits_l4(struct test_dm_limits_walk *w, const struct rte_flow_item *item,
		  const struct test_dm_limits_l4 *d, struct rte_flow_error *e)
{
	const uint8_t *m = test_dm_limits_eff_mask(item);
	size_t k, size = test_dm_flow_item_size(item->type);

	if (w->l4 != RTE_FLOW_ITEM_TYPE_END)
		return test_dm_limits_bad(item, ENOTSUP, e, "only one L4 item per header level");
	if (w->l3 == RTE_FLOW_ITEM_TYPE_END || (d->l3 != RTE_FLOW_ITEM_TYPE_END && w->l3 != d->l3))
		return test_dm_limits_bad(item, ENOTSUP, e, d->msg);
	if (w->frag)
		return test_dm_limits_bad(item, EINVAL, e, "L4 item after a fragment match: the "
					  "device parses no L4 header in IP fragments");
	if (w->proto >= 0 && w->proto != d->proto)
		return test_dm_limits_bad(item, EINVAL, e,
					  "item contradicts a previous item or what " "it implies");
	/* ICMP/ICMPv6 fields are looked up in the outer headers only. */
	if (d->l3 != RTE_FLOW_ITEM_TYPE_END && w->inner && item->spec != NULL && m != NULL)
		for (k = 0; k < size; k++)
			if (m[k] != 0)
				return test_dm_ref_err(e, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM_MASK,
						       item, "this field cannot be matched at "
						       "this position of the pattern");
	w->l4 = item->type;
	return 0;
}

static int
test_dm_limits_tunnel(struct test_dm_limits_walk *w, const struct rte_flow_item *item,
		      struct rte_flow_error *e)
{
	if (w->tunnel != RTE_FLOW_ITEM_TYPE_END)
		return test_dm_limits_bad(item, ENOTSUP, e, "only one tunnel item per pattern");
	if (item->type == RTE_FLOW_ITEM_TYPE_VXLAN) {
		if (w->l4 != RTE_FLOW_ITEM_TYPE_UDP)
			return test_dm_limits_bad(item, EINVAL, e, "VXLAN needs an outer UDP item "
						  "before it");
	} else {
		if (w->l3 == RTE_FLOW_ITEM_TYPE_END)
			return test_dm_limits_bad(item, EINVAL, e, "GRE needs an outer IPV4 or "
						  "IPV6 item before it");
		if (w->l4 != RTE_FLOW_ITEM_TYPE_END)
			return test_dm_limits_bad(item, EINVAL, e, "GRE cannot follow an L4 item");
		if ((w->proto >= 0 && w->proto != IPPROTO_GRE) || w->frag)
			return test_dm_limits_bad(item, EINVAL, e, "item contradicts a previous "
						  "item or what it implies");
	}
	test_dm_limits_level(w, item->type);
	/* GRE's protocol is the EtherType of what it carries: an L3 item after it must agree. */
	if (item->type == RTE_FLOW_ITEM_TYPE_GRE)
		w->ethertype = test_dm_limits_full16(item,
						     offsetof(struct rte_flow_item_gre, protocol));
	return 0;
}

static int
test_dm_limits_mpls(struct test_dm_limits_walk *w, const struct rte_flow_item *item,
		    struct rte_flow_error *e)
{
	/*
	 * First (the ETH item may be left out, as before an L3 item), after
	 * ETH/VLAN, right after GRE (or its key), or after the outer UDP; not
	 * after VXLAN.
	 */
	if (w->tunnel == RTE_FLOW_ITEM_TYPE_VXLAN)
		return test_dm_limits_bad(item, ENOTSUP, e, "MPLS after VXLAN is not supported");
	if (w->inner) {
		if (w->eth != 0 || w->vlans != 0 || w->l3 != RTE_FLOW_ITEM_TYPE_END ||
		    w->l4 != RTE_FLOW_ITEM_TYPE_END)
			return test_dm_limits_bad(item, ENOTSUP, e,
						  "MPLS over GRE must follow GRE directly");
	} else if (w->l4 != RTE_FLOW_ITEM_TYPE_UDP && w->l3 != RTE_FLOW_ITEM_TYPE_END) {
		return test_dm_limits_bad(item, ENOTSUP, e,
					  "MPLS is supported after ETH/VLAN, GRE or UDP only");
	}
	w->mpls = 1;
	return 0;
}

static int
test_dm_limits_order(struct test_dm_limits_walk *w, const struct rte_flow_item *item,
		     struct rte_flow_error *e)
{
	unsigned int i;

	if (w->mpls)
		return test_dm_limits_bad(item, ENOTSUP, e, "no header item can follow MPLS");
	switch (item->type) {
	case RTE_FLOW_ITEM_TYPE_ETH:
	case RTE_FLOW_ITEM_TYPE_VLAN:
		return test_dm_limits_l2(w, item, e);
	case RTE_FLOW_ITEM_TYPE_IPV4:
	case RTE_FLOW_ITEM_TYPE_IPV6:
		return test_dm_limits_l3(w, item, e);
	case RTE_FLOW_ITEM_TYPE_VXLAN:
	case RTE_FLOW_ITEM_TYPE_GRE:
		return test_dm_limits_tunnel(w, item, e);
	case RTE_FLOW_ITEM_TYPE_GRE_KEY:
		if (w->prev != RTE_FLOW_ITEM_TYPE_GRE)
			return test_dm_limits_bad(item, EINVAL, e, "GRE_KEY must directly follow "
						  "GRE");
		return 0;
	case RTE_FLOW_ITEM_TYPE_MPLS:
		return test_dm_limits_mpls(w, item, e);
	default:
		for (i = 0; i < RTE_DIM(test_dm_limits_l4s); i++)
			if (test_dm_limits_l4s[i].type == item->type)
				return test_dm_limits_l4(w, item, &test_dm_limits_l4s[i], e);
		return test_dm_limits_bad(item, ENOTSUP, e, "item type not supported");
	}
}

static int
test_dm_limits_is_meta(enum rte_flow_item_type t)
{
	return t == RTE_FLOW_ITEM_TYPE_META || t == RTE_FLOW_ITEM_TYPE_TAG ||
	       t == RTE_FLOW_ITEM_TYPE_MARK;
}

/*
 * Traffic-source items: in transfer rules, one per pattern, the port matched
 * whole (PORT_REPRESENTOR: what that port sends, told apart by its send
 * queues).
 */
static int
test_dm_limits_port(const struct rte_flow_attr *attr, const struct rte_flow_item *item,
		    int *sources, struct rte_flow_error *e)
{
	const struct rte_flow_item_ethdev *m = item->mask;
	const struct rte_flow_item_port_id *ms = item->mask;

	if (!attr->transfer)
		return test_dm_limits_bad(item, ENOTSUP, e, "REPRESENTED_PORT, PORT_REPRESENTOR "
					  "and PORT_ID match only in transfer rules");
	if ((*sources)++ != 0)
		return test_dm_limits_bad(item, EINVAL, e, "a rule has one source port item");
	if (item->last != NULL)
		return test_dm_ref_err(e, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM_LAST, item,
				       "source port ranges are not supported");
	if (item->spec == NULL)
		return test_dm_ref_err(e, EINVAL, RTE_FLOW_ERROR_TYPE_ITEM_SPEC, item,
				       "the port is missing");
	if (m != NULL && (item->type == RTE_FLOW_ITEM_TYPE_PORT_ID ? ms->id != UINT32_MAX :
			  m->port_id != UINT16_MAX))
		return test_dm_ref_err(e, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM_MASK, item,
				       "the port is matched whole (full mask)");
	return 0;
}

static int
test_dm_limits_is_port(enum rte_flow_item_type t)
{
	return t == RTE_FLOW_ITEM_TYPE_REPRESENTED_PORT ||
	       t == RTE_FLOW_ITEM_TYPE_PORT_REPRESENTOR || t == RTE_FLOW_ITEM_TYPE_PORT_ID;
}

int
test_dm_ref_limits_items(const struct test_dm_ref *r, const struct rte_flow_attr *attr,
			 const struct rte_flow_item *pattern, struct rte_flow_error *e)
{
	struct test_dm_limits_walk w = {
		.l3 = RTE_FLOW_ITEM_TYPE_END, .l4 = RTE_FLOW_ITEM_TYPE_END,
		.tunnel = RTE_FLOW_ITEM_TYPE_END, .prev = RTE_FLOW_ITEM_TYPE_END,
		.ethertype = -1, .proto = -1,
	};
	const struct rte_flow_item *item;
	int sources = 0, ret;

	if (r->cfg.limits != TEST_DM_REF_LIMITS_MLX5DM)
		return 0;
	for (item = pattern; item->type != RTE_FLOW_ITEM_TYPE_END; item++) {
		if (item->type == RTE_FLOW_ITEM_TYPE_VOID)
			continue;
		if (item->spec == NULL && (item->mask != NULL || item->last != NULL))
			return test_dm_limits_bad(item, EINVAL, e, "mask or last given without "
						  "spec");
		if (test_dm_limits_is_port(item->type))
			ret = test_dm_limits_port(attr, item, &sources, e);
		else if (test_dm_limits_is_meta(item->type) && attr->transfer)
			ret = test_dm_limits_bad(item, ENOTSUP, e, "MARK, META and TAG items are "
						 "not supported in transfer rules");
		else if (test_dm_limits_is_meta(item->type))
			ret = test_dm_limits_meta(attr, item, e);
		else
			ret = test_dm_limits_order(&w, item, e);
		if (ret == 0)
			ret = test_dm_limits_item_mask(item, e);
		if (ret == 0 && item->type == RTE_FLOW_ITEM_TYPE_IPV4 && item->spec != NULL)
			ret = test_dm_limits_frag(item, e);
		if (ret == 0)
			ret = test_dm_limits_ranges(item, e);
		if (ret < 0)
			return ret;
		w.prev = item->type;
	}
	return 0;
}
