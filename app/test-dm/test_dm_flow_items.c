/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Pattern items supported by net_mlx5dm, with testpmd's item and field
 * names (app/test-pmd/cmdline_flow.c of DPDK 22.11) and the same storage:
 * masked sub-fields (vid, pcp, label...) write only their bits.
 */

#include <stddef.h>
#include <string.h>

#include <rte_common.h>
#include <rte_flow.h>

#include "test_dm_flow_priv.h"

#define TEST_DM_F(n, st, m, k, h) { \
	.name = (n), .off = offsetof(st, m), .size = sizeof(((st *)0)->m), \
	.kind = (k), .hton = (h) }
#define TEST_DM_FBITS(n, st, m, k, b) { \
	.name = (n), .off = offsetof(st, m), .size = sizeof(((st *)0)->m), \
	.kind = (k), .hton = 1, .bits = (b) }
#define TEST_DM_FPROBE(n, fn) { .name = (n), .kind = TEST_DM_FK_BOOL, .probe = (fn) }
#define TEST_DM_ITEM(n, t, l, st, dm, f) { \
	.name = (n), .type = RTE_FLOW_ITEM_TYPE_##t, .layer = TEST_DM_L_##l, .size = sizeof(st), \
	.default_mask = (dm), .fields = (f), .nb_fields = RTE_DIM(f) }

static void
test_dm_probe_eth_has_vlan(void *o)
{
	((struct rte_flow_item_eth *)o)->has_vlan = 1;
}

static void
test_dm_probe_vlan_has_more_vlan(void *o)
{
	((struct rte_flow_item_vlan *)o)->has_more_vlan = 1;
}

static void
test_dm_probe_ipv6_has_frag_ext(void *o)
{
	((struct rte_flow_item_ipv6 *)o)->has_frag_ext = 1;
}

static const struct test_dm_fdesc test_dm_f_eth[] = {
	TEST_DM_F("dst", struct rte_flow_item_eth, dst, TEST_DM_FK_MAC, 0),
	TEST_DM_F("src", struct rte_flow_item_eth, src, TEST_DM_FK_MAC, 0),
	TEST_DM_F("type", struct rte_flow_item_eth, type, TEST_DM_FK_UINT, 1),
	TEST_DM_FPROBE("has_vlan", test_dm_probe_eth_has_vlan),
};

static const struct test_dm_fdesc test_dm_f_vlan[] = {
	TEST_DM_F("tci", struct rte_flow_item_vlan, tci, TEST_DM_FK_UINT, 1),
	TEST_DM_FBITS("pcp", struct rte_flow_item_vlan, tci, TEST_DM_FK_UINT, 0xe000),
	TEST_DM_FBITS("dei", struct rte_flow_item_vlan, tci, TEST_DM_FK_UINT, 0x1000),
	TEST_DM_FBITS("vid", struct rte_flow_item_vlan, tci, TEST_DM_FK_UINT, 0x0fff),
	TEST_DM_F("inner_type", struct rte_flow_item_vlan, inner_type, TEST_DM_FK_UINT, 1),
	TEST_DM_FPROBE("has_more_vlan", test_dm_probe_vlan_has_more_vlan),
};

static const struct test_dm_fdesc test_dm_f_ipv4[] = {
	TEST_DM_F("version_ihl", struct rte_flow_item_ipv4, hdr.version_ihl, TEST_DM_FK_UINT, 0),
	TEST_DM_F("tos", struct rte_flow_item_ipv4, hdr.type_of_service, TEST_DM_FK_UINT, 1),
	TEST_DM_F("packet_id", struct rte_flow_item_ipv4, hdr.packet_id, TEST_DM_FK_UINT, 1),
	TEST_DM_F("fragment_offset", struct rte_flow_item_ipv4, hdr.fragment_offset,
		  TEST_DM_FK_UINT, 1),
	TEST_DM_F("ttl", struct rte_flow_item_ipv4, hdr.time_to_live, TEST_DM_FK_UINT, 1),
	TEST_DM_F("proto", struct rte_flow_item_ipv4, hdr.next_proto_id, TEST_DM_FK_UINT, 1),
	TEST_DM_F("src", struct rte_flow_item_ipv4, hdr.src_addr, TEST_DM_FK_IPV4, 0),
	TEST_DM_F("dst", struct rte_flow_item_ipv4, hdr.dst_addr, TEST_DM_FK_IPV4, 0),
};

static const struct test_dm_fdesc test_dm_f_ipv6[] = {
	TEST_DM_FBITS("tc", struct rte_flow_item_ipv6, hdr.vtc_flow, TEST_DM_FK_UINT, 0x0ff00000),
	TEST_DM_FBITS("flow", struct rte_flow_item_ipv6, hdr.vtc_flow, TEST_DM_FK_UINT,
		      0x000fffff),
	TEST_DM_F("proto", struct rte_flow_item_ipv6, hdr.proto, TEST_DM_FK_UINT, 1),
	TEST_DM_F("hop", struct rte_flow_item_ipv6, hdr.hop_limits, TEST_DM_FK_UINT, 1),
	TEST_DM_F("src", struct rte_flow_item_ipv6, hdr.src_addr, TEST_DM_FK_IPV6, 0),
	TEST_DM_F("dst", struct rte_flow_item_ipv6, hdr.dst_addr, TEST_DM_FK_IPV6, 0),
	TEST_DM_FPROBE("has_frag_ext", test_dm_probe_ipv6_has_frag_ext),
};

static const struct test_dm_fdesc test_dm_f_icmp[] = {
	TEST_DM_F("type", struct rte_flow_item_icmp, hdr.icmp_type, TEST_DM_FK_UINT, 1),
	TEST_DM_F("code", struct rte_flow_item_icmp, hdr.icmp_code, TEST_DM_FK_UINT, 1),
	TEST_DM_F("ident", struct rte_flow_item_icmp, hdr.icmp_ident, TEST_DM_FK_UINT, 1),
	TEST_DM_F("seq", struct rte_flow_item_icmp, hdr.icmp_seq_nb, TEST_DM_FK_UINT, 1),
};

static const struct test_dm_fdesc test_dm_f_udp[] = {
	TEST_DM_F("src", struct rte_flow_item_udp, hdr.src_port, TEST_DM_FK_UINT, 1),
	TEST_DM_F("dst", struct rte_flow_item_udp, hdr.dst_port, TEST_DM_FK_UINT, 1),
};

static const struct test_dm_fdesc test_dm_f_tcp[] = {
	TEST_DM_F("src", struct rte_flow_item_tcp, hdr.src_port, TEST_DM_FK_UINT, 1),
	TEST_DM_F("dst", struct rte_flow_item_tcp, hdr.dst_port, TEST_DM_FK_UINT, 1),
	TEST_DM_F("flags", struct rte_flow_item_tcp, hdr.tcp_flags, TEST_DM_FK_UINT, 1),
};

static const struct test_dm_fdesc test_dm_f_vxlan[] = {
	TEST_DM_F("vni", struct rte_flow_item_vxlan, vni, TEST_DM_FK_UINT, 1),
	TEST_DM_F("last_rsvd", struct rte_flow_item_vxlan, rsvd1, TEST_DM_FK_UINT, 1),
};

static const struct test_dm_fdesc test_dm_f_gre[] = {
	TEST_DM_F("protocol", struct rte_flow_item_gre, protocol, TEST_DM_FK_UINT, 1),
	TEST_DM_F("c_rsvd0_ver", struct rte_flow_item_gre, c_rsvd0_ver, TEST_DM_FK_UINT, 1),
	TEST_DM_FBITS("c_bit", struct rte_flow_item_gre, c_rsvd0_ver, TEST_DM_FK_BOOL, 0x8000),
	TEST_DM_FBITS("k_bit", struct rte_flow_item_gre, c_rsvd0_ver, TEST_DM_FK_BOOL, 0x2000),
	TEST_DM_FBITS("s_bit", struct rte_flow_item_gre, c_rsvd0_ver, TEST_DM_FK_BOOL, 0x1000),
};

static const struct test_dm_fdesc test_dm_f_gre_key[] = {
	{ .name = "value", .off = 0, .size = 4, .kind = TEST_DM_FK_UINT, .hton = 1 },
};

static const struct test_dm_fdesc test_dm_f_mpls[] = {
	TEST_DM_FBITS("label", struct rte_flow_item_mpls, label_tc_s, TEST_DM_FK_UINT, 0xfffff0),
	TEST_DM_FBITS("tc", struct rte_flow_item_mpls, label_tc_s, TEST_DM_FK_UINT, 0x00000e),
	TEST_DM_FBITS("s", struct rte_flow_item_mpls, label_tc_s, TEST_DM_FK_UINT, 0x000001),
};

static const struct test_dm_fdesc test_dm_f_icmp6[] = {
	TEST_DM_F("type", struct rte_flow_item_icmp6, type, TEST_DM_FK_UINT, 1),
	TEST_DM_F("code", struct rte_flow_item_icmp6, code, TEST_DM_FK_UINT, 1),
};

static const struct test_dm_fdesc test_dm_f_meta[] = {
	TEST_DM_F("data", struct rte_flow_item_meta, data, TEST_DM_FK_UINT, 0),
};

static const struct test_dm_fdesc test_dm_f_tag[] = {
	TEST_DM_F("data", struct rte_flow_item_tag, data, TEST_DM_FK_UINT, 0),
	TEST_DM_F("index", struct rte_flow_item_tag, index, TEST_DM_FK_UINT, 0),
};

static const struct test_dm_fdesc test_dm_f_mark[] = {
	TEST_DM_F("id", struct rte_flow_item_mark, id, TEST_DM_FK_UINT, 0),
};

/* Traffic sources of transfer rules: testpmd's field names. */
static const struct test_dm_fdesc test_dm_f_ethdev[] = {
	TEST_DM_F("ethdev_port_id", struct rte_flow_item_ethdev, port_id, TEST_DM_FK_PORT, 0),
};
static const struct test_dm_fdesc test_dm_f_port_representor[] = {
	TEST_DM_F("port_id", struct rte_flow_item_ethdev, port_id, TEST_DM_FK_PORT, 0),
};
static const struct test_dm_fdesc test_dm_f_port_id[] = {
	TEST_DM_F("id", struct rte_flow_item_port_id, id, TEST_DM_FK_PORT, 0),
};

/* rte_flow.h of 22.11 has no default mask for GRE_KEY; rte_flow.rst says all ones. */
static const rte_be32_t test_dm_gre_key_mask = RTE_BE32(UINT32_MAX);

static const struct test_dm_idesc test_dm_items[] = {
	TEST_DM_ITEM("eth", ETH, ETH, struct rte_flow_item_eth,
		     &rte_flow_item_eth_mask, test_dm_f_eth),
	TEST_DM_ITEM("vlan", VLAN, VLAN, struct rte_flow_item_vlan,
		     &rte_flow_item_vlan_mask, test_dm_f_vlan),
	TEST_DM_ITEM("ipv4", IPV4, IPV4, struct rte_flow_item_ipv4,
		     &rte_flow_item_ipv4_mask, test_dm_f_ipv4),
	TEST_DM_ITEM("ipv6", IPV6, IPV6, struct rte_flow_item_ipv6,
		     &rte_flow_item_ipv6_mask, test_dm_f_ipv6),
	TEST_DM_ITEM("icmp", ICMP, ICMP, struct rte_flow_item_icmp,
		     &rte_flow_item_icmp_mask, test_dm_f_icmp),
	TEST_DM_ITEM("udp", UDP, UDP, struct rte_flow_item_udp,
		     &rte_flow_item_udp_mask, test_dm_f_udp),
	TEST_DM_ITEM("tcp", TCP, TCP, struct rte_flow_item_tcp,
		     &rte_flow_item_tcp_mask, test_dm_f_tcp),
	TEST_DM_ITEM("vxlan", VXLAN, VXLAN, struct rte_flow_item_vxlan,
		     &rte_flow_item_vxlan_mask, test_dm_f_vxlan),
	TEST_DM_ITEM("gre", GRE, GRE, struct rte_flow_item_gre,
		     &rte_flow_item_gre_mask, test_dm_f_gre),
	TEST_DM_ITEM("gre_key", GRE_KEY, COUNT, rte_be32_t,
		     &test_dm_gre_key_mask, test_dm_f_gre_key),
	TEST_DM_ITEM("mpls", MPLS, MPLS, struct rte_flow_item_mpls,
		     &rte_flow_item_mpls_mask, test_dm_f_mpls),
	TEST_DM_ITEM("icmp6", ICMP6, ICMP6, struct rte_flow_item_icmp6,
		     &rte_flow_item_icmp6_mask, test_dm_f_icmp6),
	TEST_DM_ITEM("meta", META, COUNT, struct rte_flow_item_meta,
		     &rte_flow_item_meta_mask, test_dm_f_meta),
	TEST_DM_ITEM("tag", TAG, COUNT, struct rte_flow_item_tag,
		     &rte_flow_item_tag_mask, test_dm_f_tag),
	TEST_DM_ITEM("mark", MARK, COUNT, struct rte_flow_item_mark,
		     &rte_flow_item_mark_mask, test_dm_f_mark),
	TEST_DM_ITEM("represented_port", REPRESENTED_PORT, COUNT, struct rte_flow_item_ethdev,
		     &rte_flow_item_ethdev_mask, test_dm_f_ethdev),
	TEST_DM_ITEM("port_representor", PORT_REPRESENTOR, COUNT, struct rte_flow_item_ethdev,
		     &rte_flow_item_ethdev_mask, test_dm_f_port_representor),
	TEST_DM_ITEM("port_id", PORT_ID, COUNT, struct rte_flow_item_port_id,
		     &rte_flow_item_port_id_mask, test_dm_f_port_id),
	{ .name = "void", .type = RTE_FLOW_ITEM_TYPE_VOID, .layer = TEST_DM_L_COUNT },
};

const struct test_dm_idesc *
test_dm_idesc_find(const char *s, size_t len)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(test_dm_items); i++)
		if (strlen(test_dm_items[i].name) == len &&
		    memcmp(test_dm_items[i].name, s, len) == 0)
			return &test_dm_items[i];
	return NULL;
}

const struct test_dm_idesc *
test_dm_idesc_by_type(enum rte_flow_item_type type)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(test_dm_items); i++)
		if (test_dm_items[i].type == type)
			return &test_dm_items[i];
	return NULL;
}

const struct test_dm_fdesc *
test_dm_fdesc_find(const struct test_dm_fdesc *f, unsigned int n, const char *s, size_t len)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (strlen(f[i].name) == len && memcmp(f[i].name, s, len) == 0)
			return &f[i];
	return NULL;
}

const char *
test_dm_flow_item_name(enum rte_flow_item_type type)
{
	const struct test_dm_idesc *d;

	if (type == RTE_FLOW_ITEM_TYPE_END)
		return "end";
	d = test_dm_idesc_by_type(type);
	return d != NULL ? d->name : NULL;
}

const void *
test_dm_flow_item_default_mask(enum rte_flow_item_type type)
{
	const struct test_dm_idesc *d = test_dm_idesc_by_type(type);

	return d != NULL ? d->default_mask : NULL;
}

size_t
test_dm_flow_item_size(enum rte_flow_item_type type)
{
	const struct test_dm_idesc *d = test_dm_idesc_by_type(type);

	return d != NULL ? d->size : 0;
}

enum test_dm_layer
test_dm_flow_item_layer(enum rte_flow_item_type type)
{
	const struct test_dm_idesc *d = test_dm_idesc_by_type(type);

	return d != NULL ? d->layer : TEST_DM_L_COUNT;
}
