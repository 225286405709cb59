/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Header layouts as data: every field of every header the packet language
 * knows, with its bit position (from the protocol's header diagram), its
 * default and whether the builder computes it.
 */

#include <errno.h>
#include <string.h>

#include <rte_common.h>

#include "test_dm_pkt.h"

#define TEST_DM_PF(n, b, w, k, fl, d) { \
	.name = (n), .bit = (b), .width = (w), .kind = (k), .flags = (fl), .def = (d) }
#define TEST_DM_PU(n, b, w, d) TEST_DM_PF(n, b, w, TEST_DM_PK_UINT, 0, d)
#define TEST_DM_PAUTO(n, b, w, d) TEST_DM_PF(n, b, w, TEST_DM_PK_UINT, TEST_DM_PF_AUTO, d)
#define TEST_DM_PALIAS(n, b, w) TEST_DM_PF(n, b, w, TEST_DM_PK_UINT, TEST_DM_PF_ALIAS, 0)
#define TEST_DM_PADDR(n, b, w, k, d) { \
	.name = (n), .bit = (b), .width = (w), .kind = (k), .def_bytes = (d) }
#define TEST_DM_LAYER(n, t, l, f, et, ip) { \
	.name = (n), .type = (t), .len = (l), .fields = (f), .nb_fields = RTE_DIM(f), \
	.ethertype = (et), .ipproto = (ip) }

static const uint8_t test_dm_mac_dst[6] = { 0x02, 0, 0, 0, 0, 0x02 };
static const uint8_t test_dm_mac_src[6] = { 0x02, 0, 0, 0, 0, 0x01 };
static const uint8_t test_dm_ip4_src[4] = { 10, 0, 0, 1 };
static const uint8_t test_dm_ip4_dst[4] = { 10, 0, 0, 2 };
static const uint8_t test_dm_ip6_src[16] = { 0xfd, [15] = 0x01 };
static const uint8_t test_dm_ip6_dst[16] = { 0xfd, [15] = 0x02 };

static const struct test_dm_pfield test_dm_p_eth[] = {
	TEST_DM_PADDR("dst", 0, 48, TEST_DM_PK_MAC, test_dm_mac_dst),
	TEST_DM_PADDR("src", 48, 48, TEST_DM_PK_MAC, test_dm_mac_src),
	/* IEEE 802 local experimental EtherType when nothing follows. */
	TEST_DM_PAUTO("type", 96, 16, 0x88b5),
};

static const struct test_dm_pfield test_dm_p_vlan[] = {
	TEST_DM_PALIAS("tci", 0, 16),
	TEST_DM_PU("pcp", 0, 3, 0),
	TEST_DM_PU("dei", 3, 1, 0),
	TEST_DM_PU("vid", 4, 12, 1),
	TEST_DM_PAUTO("type", 16, 16, 0x88b5),
};

static const struct test_dm_pfield test_dm_p_ipv4[] = {
	TEST_DM_PU("version", 0, 4, 4),
	TEST_DM_PU("ihl", 4, 4, 5),
	TEST_DM_PU("tos", 8, 8, 0),
	TEST_DM_PALIAS("dscp", 8, 6),
	TEST_DM_PALIAS("ecn", 14, 2),
	TEST_DM_PAUTO("len", 16, 16, 0),
	TEST_DM_PU("id", 32, 16, 0),
	TEST_DM_PALIAS("frag_off", 48, 16),
	TEST_DM_PU("flags", 48, 3, 0),
	TEST_DM_PALIAS("df", 49, 1),
	TEST_DM_PALIAS("mf", 50, 1),
	TEST_DM_PU("frag", 51, 13, 0),
	TEST_DM_PU("ttl", 64, 8, 64),
	/* 253: "use for experimentation" when nothing follows. */
	TEST_DM_PAUTO("proto", 72, 8, 253),
	TEST_DM_PAUTO("cksum", 80, 16, 0),
	TEST_DM_PADDR("src", 96, 32, TEST_DM_PK_IPV4, test_dm_ip4_src),
	TEST_DM_PADDR("dst", 128, 32, TEST_DM_PK_IPV4, test_dm_ip4_dst),
};

static const struct test_dm_pfield test_dm_p_ipv6[] = {
	TEST_DM_PU("version", 0, 4, 6),
	TEST_DM_PU("tc", 4, 8, 0),
	TEST_DM_PALIAS("dscp", 4, 6),
	TEST_DM_PALIAS("ecn", 10, 2),
	TEST_DM_PU("flow", 12, 20, 0),
	TEST_DM_PAUTO("plen", 32, 16, 0),
	/* 59: "no next header" when nothing follows. */
	TEST_DM_PAUTO("nh", 48, 8, 59),
	TEST_DM_PU("hlim", 56, 8, 64),
	TEST_DM_PADDR("src", 64, 128, TEST_DM_PK_IPV6, test_dm_ip6_src),
	TEST_DM_PADDR("dst", 192, 128, TEST_DM_PK_IPV6, test_dm_ip6_dst),
};

static const struct test_dm_pfield test_dm_p_tcp[] = {
	TEST_DM_PU("sport", 0, 16, 1024),
	TEST_DM_PU("dport", 16, 16, 80),
	TEST_DM_PU("seq", 32, 32, 0),
	TEST_DM_PU("ack", 64, 32, 0),
	TEST_DM_PU("off", 96, 4, 5),
	TEST_DM_PF("flags", 104, 8, TEST_DM_PK_TCPFLAGS, 0, 0x02),
	TEST_DM_PU("win", 112, 16, 8192),
	TEST_DM_PAUTO("cksum", 128, 16, 0),
	TEST_DM_PU("urg", 144, 16, 0),
};

static const struct test_dm_pfield test_dm_p_udp[] = {
	TEST_DM_PU("sport", 0, 16, 1024),
	TEST_DM_PAUTO("dport", 16, 16, 1024),
	TEST_DM_PAUTO("len", 32, 16, 0),
	TEST_DM_PAUTO("cksum", 48, 16, 0),
};

/* ICMP and ICMPv6 in their echo form: type, code, checksum, identifier, sequence. */
static const struct test_dm_pfield test_dm_p_icmp[] = {
	TEST_DM_PU("type", 0, 8, 8),
	TEST_DM_PU("code", 8, 8, 0),
	TEST_DM_PAUTO("cksum", 16, 16, 0),
	TEST_DM_PU("id", 32, 16, 0),
	TEST_DM_PU("seq", 48, 16, 0),
};

static const struct test_dm_pfield test_dm_p_icmp6[] = {
	TEST_DM_PU("type", 0, 8, 128),
	TEST_DM_PU("code", 8, 8, 0),
	TEST_DM_PAUTO("cksum", 16, 16, 0),
	TEST_DM_PU("id", 32, 16, 0),
	TEST_DM_PU("seq", 48, 16, 0),
};

static const struct test_dm_pfield test_dm_p_vxlan[] = {
	TEST_DM_PU("flags", 0, 8, 0x08),
	TEST_DM_PU("vni", 32, 24, 0),
	TEST_DM_PU("rsvd", 56, 8, 0),
};

/* Optional fields sit after the base header in C, K, S order (RFC 2784, 2890). */
static const struct test_dm_pfield test_dm_p_gre[] = {
	TEST_DM_PAUTO("c", 0, 1, 0),
	TEST_DM_PAUTO("k", 2, 1, 0),
	TEST_DM_PAUTO("s", 3, 1, 0),
	TEST_DM_PU("ver", 13, 3, 0),
	TEST_DM_PAUTO("proto", 16, 16, 0x88b5),
	TEST_DM_PF("csum", 0, 16, TEST_DM_PK_UINT, TEST_DM_PF_AUTO | TEST_DM_PF_GRE_OPT, 0),
	TEST_DM_PF("key", 1, 32, TEST_DM_PK_UINT, TEST_DM_PF_GRE_OPT, 0),
	TEST_DM_PF("seq", 2, 32, TEST_DM_PK_UINT, TEST_DM_PF_GRE_OPT, 0),
};

static const struct test_dm_pfield test_dm_p_mpls[] = {
	TEST_DM_PU("label", 0, 20, 0),
	TEST_DM_PU("tc", 20, 3, 0),
	TEST_DM_PAUTO("s", 23, 1, 1),
	TEST_DM_PU("ttl", 24, 8, 64),
};

static const struct test_dm_layer_desc test_dm_layers[TEST_DM_L_COUNT] = {
	/* Ethernet after GRE: transparent Ethernet bridging. */
	[TEST_DM_L_ETH] = TEST_DM_LAYER("eth", TEST_DM_L_ETH, 14, test_dm_p_eth, 0x6558, 0),
	[TEST_DM_L_VLAN] = TEST_DM_LAYER("vlan", TEST_DM_L_VLAN, 4, test_dm_p_vlan, 0x8100, 0),
	[TEST_DM_L_IPV4] = TEST_DM_LAYER("ipv4", TEST_DM_L_IPV4, 20, test_dm_p_ipv4, 0x0800, 4),
	[TEST_DM_L_IPV6] = TEST_DM_LAYER("ipv6", TEST_DM_L_IPV6, 40, test_dm_p_ipv6, 0x86dd, 41),
	[TEST_DM_L_TCP] = TEST_DM_LAYER("tcp", TEST_DM_L_TCP, 20, test_dm_p_tcp, 0, 6),
	[TEST_DM_L_UDP] = TEST_DM_LAYER("udp", TEST_DM_L_UDP, 8, test_dm_p_udp, 0, 17),
	[TEST_DM_L_ICMP] = TEST_DM_LAYER("icmp", TEST_DM_L_ICMP, 8, test_dm_p_icmp, 0, 1),
	[TEST_DM_L_ICMP6] = TEST_DM_LAYER("icmp6", TEST_DM_L_ICMP6, 8, test_dm_p_icmp6, 0, 58),
	[TEST_DM_L_VXLAN] = TEST_DM_LAYER("vxlan", TEST_DM_L_VXLAN, 8, test_dm_p_vxlan, 0, 0),
	[TEST_DM_L_GRE] = TEST_DM_LAYER("gre", TEST_DM_L_GRE, 4, test_dm_p_gre, 0, 47),
	[TEST_DM_L_MPLS] = TEST_DM_LAYER("mpls", TEST_DM_L_MPLS, 4, test_dm_p_mpls, 0x8847, 137),
	[TEST_DM_L_PAYLOAD] = { .name = "payload", .type = TEST_DM_L_PAYLOAD },
};

const struct test_dm_layer_desc *
test_dm_layer_get(enum test_dm_layer type)
{
	return type < TEST_DM_L_COUNT ? &test_dm_layers[type] : NULL;
}

uint16_t
test_dm_layer_ethertype(enum test_dm_layer next)
{
	return next < TEST_DM_L_COUNT ? test_dm_layers[next].ethertype : 0;
}

uint8_t
test_dm_layer_ipproto(enum test_dm_layer next)
{
	return next < TEST_DM_L_COUNT ? test_dm_layers[next].ipproto : 0;
}

const struct test_dm_layer_desc *
test_dm_layer_find(const char *s, size_t len)
{
	unsigned int i;

	for (i = 0; i < TEST_DM_L_COUNT; i++)
		if (strlen(test_dm_layers[i].name) == len &&
		    memcmp(test_dm_layers[i].name, s, len) == 0)
			return &test_dm_layers[i];
	return NULL;
}

const struct test_dm_pfield *
test_dm_pfield_find(const struct test_dm_layer_desc *d, const char *s, size_t len)
{
	unsigned int i;

	for (i = 0; i < d->nb_fields; i++)
		if (strlen(d->fields[i].name) == len && memcmp(d->fields[i].name, s, len) == 0)
			return &d->fields[i];
	return NULL;
}

int
test_dm_pfield_bit(const uint8_t *p, const struct test_dm_hdr *h,
		   const struct test_dm_pfield *f)
{
	const uint8_t *g = p + h->off;
	unsigned int c, k, s;

	if (!(f->flags & TEST_DM_PF_GRE_OPT))
		return f->bit;
	/* For GRE optional fields .bit holds their rank: 0 csum, 1 key, 2 seq. */
	c = g[0] >> 7 & 1;
	k = g[0] >> 5 & 1;
	s = g[0] >> 4 & 1;
	if ((f->bit == 0 && !c) || (f->bit == 1 && !k) || (f->bit == 2 && !s))
		return -ENOENT;
	return 32 + 32 * (int)((f->bit > 0 ? c : 0) + (f->bit > 1 ? k : 0));
}
