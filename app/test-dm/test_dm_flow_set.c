/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * testpmd's "set raw_encap", "set raw_decap" and "set vxlan*" commands, the
 * header bytes they define, and the VXLAN_ENCAP configuration built from
 * "set vxlan" (the same item list testpmd builds).
 */

#include <errno.h>
#include <stddef.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ethdev.h>
#include <rte_flow.h>

#include "test_dm_flow_priv.h"
#include "test_dm_value.h"

/* testpmd's vxlan_encap_conf defaults (app/test-pmd/cmdline_flow.c). */
static const struct test_dm_vxlan_conf test_dm_vxlan_default = {
	.udp_dst = RTE_VXLAN_DEFAULT_PORT,
	.ipv4_src = { 127, 0, 0, 1 },
	.ipv4_dst = { 255, 255, 255, 255 },
	.ipv6_src = { [15] = 0x01 },
	.ipv6_dst = { [14] = 0x11, [15] = 0x11 },
	.ip_ttl = 255,
	.eth_dst = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },
};

void
test_dm_flow_ctx_init(struct test_dm_flow_ctx *ctx)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->vxlan = test_dm_vxlan_default;
	ctx->nb_rxq = 1;
	ctx->rss_types = RTE_ETH_RSS_IP;
}

/* Bytes of the header an item stands for, 0 for items that are not headers. */
static size_t
test_dm_item_hdr_len(enum rte_flow_item_type type)
{
	switch (type) {
	case RTE_FLOW_ITEM_TYPE_ETH:
		return 14;
	case RTE_FLOW_ITEM_TYPE_IPV4:
	case RTE_FLOW_ITEM_TYPE_TCP:
		return 20;
	case RTE_FLOW_ITEM_TYPE_IPV6:
		return 40;
	case RTE_FLOW_ITEM_TYPE_UDP:
	case RTE_FLOW_ITEM_TYPE_VXLAN:
	case RTE_FLOW_ITEM_TYPE_ICMP:
		return 8;
	case RTE_FLOW_ITEM_TYPE_VLAN:
	case RTE_FLOW_ITEM_TYPE_GRE:
	case RTE_FLOW_ITEM_TYPE_GRE_KEY:
	case RTE_FLOW_ITEM_TYPE_MPLS:
	case RTE_FLOW_ITEM_TYPE_ICMP6:
		return 4;
	default:
		return 0;
	}
}

static uint16_t
test_dm_item_ethertype(enum rte_flow_item_type type)
{
	return test_dm_layer_ethertype(test_dm_flow_item_layer(type));
}

static uint8_t
test_dm_item_ipproto(enum rte_flow_item_type type)
{
	return test_dm_layer_ipproto(test_dm_flow_item_layer(type));
}

static void
test_dm_set16(uint8_t *b, uint16_t v)
{
	b[0] = (uint8_t)(v >> 8);
	b[1] = (uint8_t)v;
}

/* Fill in what a header left at zero needs to be well formed before @p next. */
static void
test_dm_hdr_fixup(enum rte_flow_item_type type, uint8_t *b, enum rte_flow_item_type next)
{
	uint16_t et = test_dm_item_ethertype(next);
	uint8_t proto = test_dm_item_ipproto(next);

	switch (type) {
	case RTE_FLOW_ITEM_TYPE_ETH:
		if (b[12] == 0 && b[13] == 0 && next != RTE_FLOW_ITEM_TYPE_ETH)
			test_dm_set16(b + 12, et);
		break;
	case RTE_FLOW_ITEM_TYPE_VLAN:
		if (b[2] == 0 && b[3] == 0 && next != RTE_FLOW_ITEM_TYPE_ETH)
			test_dm_set16(b + 2, et);
		break;
	case RTE_FLOW_ITEM_TYPE_IPV4:
		if (b[0] == 0)
			b[0] = 0x45;
		if (b[9] == 0)
			b[9] = proto;
		break;
	case RTE_FLOW_ITEM_TYPE_IPV6:
		b[0] = (uint8_t)(0x60 | (b[0] & 0x0f));
		if (b[6] == 0)
			b[6] = proto;
		break;
	case RTE_FLOW_ITEM_TYPE_UDP:
		if (b[2] == 0 && b[3] == 0 && next == RTE_FLOW_ITEM_TYPE_VXLAN)
			test_dm_set16(b + 2, RTE_VXLAN_DEFAULT_PORT);
		if (b[2] == 0 && b[3] == 0 && next == RTE_FLOW_ITEM_TYPE_MPLS)
			test_dm_set16(b + 2, 6635);
		break;
	case RTE_FLOW_ITEM_TYPE_VXLAN:
		if (b[0] == 0)
			b[0] = 0x08;
		break;
	case RTE_FLOW_ITEM_TYPE_GRE:
		if (next == RTE_FLOW_ITEM_TYPE_GRE_KEY)
			b[0] |= 0x20;
		break;
	case RTE_FLOW_ITEM_TYPE_MPLS:
		if (next != RTE_FLOW_ITEM_TYPE_MPLS)
			b[2] |= 0x01;
		break;
	default:
		break;
	}
}

int
test_dm_flow_items_bytes(const struct rte_flow_item *items, uint8_t *buf, size_t cap,
			 unsigned int *bad)
{
	uint8_t *gre = NULL;
	size_t used = 0, len;
	unsigned int i, j;

	for (i = 0; items[i].type != RTE_FLOW_ITEM_TYPE_END; i++) {
		enum rte_flow_item_type next = RTE_FLOW_ITEM_TYPE_END;

		if (items[i].type == RTE_FLOW_ITEM_TYPE_VOID)
			continue;
		len = test_dm_item_hdr_len(items[i].type);
		if (len == 0) {
			*bad = i;
			return -EINVAL;
		}
		if (used + len > cap)
			return -E2BIG;
		memset(buf + used, 0, len);
		if (items[i].spec != NULL)
			memcpy(buf + used, items[i].spec, len);
		for (j = i + 1; items[j].type == RTE_FLOW_ITEM_TYPE_VOID; j++)
			;
		next = items[j].type;
		/* A GRE's protocol names what follows its key. */
		if (items[i].type == RTE_FLOW_ITEM_TYPE_GRE) {
			gre = buf + used;
			if (next == RTE_FLOW_ITEM_TYPE_GRE_KEY)
				for (j++; items[j].type == RTE_FLOW_ITEM_TYPE_VOID; j++)
					;
		}
		test_dm_hdr_fixup(items[i].type, buf + used, next);
		if (gre != NULL && items[i].type == RTE_FLOW_ITEM_TYPE_GRE &&
		    gre[2] == 0 && gre[3] == 0)
			test_dm_set16(gre + 2, test_dm_item_ethertype(items[j].type));
		used += len;
	}
	return (int)used;
}

int
test_dm_flow_items_to_bytes(const struct rte_flow_item *items, uint8_t *buf, size_t cap)
{
	unsigned int bad;

	return test_dm_flow_items_bytes(items, buf, cap, &bad);
}

/* set raw_encap|raw_decap [index] <items> / end_set */
static int
test_dm_parse_set_raw(struct test_dm_flow_parser *p, int encap)
{
	struct test_dm_raw_conf *slot;
	const struct test_dm_tok *t = test_dm_flow_parser_peek(p);
	unsigned int bad;
	uint64_t v = 0;
	int ret;

	p->cmd->type = encap ? TEST_DM_SET_RAW_ENCAP : TEST_DM_SET_RAW_DECAP;
	if (t != NULL && t->len > 0 && t->s[0] >= '0' && t->s[0] <= '9') {
		ret = test_dm_flow_parser_uint(p, TEST_DM_RAW_SLOTS - 1, "a raw data index", &v);
		if (ret < 0)
			return ret;
	}
	p->cmd->slot = (unsigned int)v;
	ret = test_dm_flow_parse_items(p, "end_set");
	if (ret < 0)
		return ret;
	slot = encap ? &p->ctx->raw_encap[v] : &p->ctx->raw_decap[v];
	ret = test_dm_flow_items_bytes(p->cmd->pattern, slot->data, sizeof(slot->data), &bad);
	if (ret == -EINVAL) {
		const struct rte_flow_item *it = &p->cmd->pattern[bad];

		return test_dm_flow_parser_error_at(p, p->item_tok[bad], "item '%s' is not a "
						    "header and cannot be part of raw data",
						    test_dm_flow_item_name(it->type));
	}
	if (ret < 0)
		return test_dm_err_at(p->err, &p->cmd->pos, "raw data longer than %u bytes",
				      TEST_DM_RAW_MAX);
	slot->size = (size_t)ret;
	slot->defined = 1;
	return 0;
}

/* Keys of "set vxlan*" (testpmd's), with the variants that accept them. */
enum {
	TEST_DM_VX_PLAIN = 1,
	TEST_DM_VX_VLAN = 2,
	TEST_DM_VX_TOS_TTL = 4,
	TEST_DM_VX_ALL = 7,
};

static const char *const test_dm_ip_versions[] = { "ipv4", "ipv6", NULL };

#define TEST_DM_VXF(k, m, kd, b, v) { \
	.d = { .name = (k), .off = offsetof(struct test_dm_vxlan_conf, m), \
	       .size = sizeof(((struct test_dm_vxlan_conf *)0)->m), .kind = (kd), .bits = (b), \
	       .names = test_dm_ip_versions }, \
	.variants = (v) }

static const struct {
	struct test_dm_fdesc d;
	int variants;
} test_dm_vx_keys[] = {
	TEST_DM_VXF("ip-version", ipv6, TEST_DM_FK_ENUM, 0, TEST_DM_VX_ALL),
	TEST_DM_VXF("vni", vni, TEST_DM_FK_UINT, 0xffffff, TEST_DM_VX_ALL),
	TEST_DM_VXF("udp-src", udp_src, TEST_DM_FK_UINT, 0, TEST_DM_VX_ALL),
	TEST_DM_VXF("udp-dst", udp_dst, TEST_DM_FK_UINT, 0, TEST_DM_VX_ALL),
	/* The address family is known once the line is read: see test_dm_vx_addr(). */
	TEST_DM_VXF("ip-src", ipv4_src, TEST_DM_FK_HEX, 0, TEST_DM_VX_ALL),
	TEST_DM_VXF("ip-dst", ipv4_dst, TEST_DM_FK_HEX, 0, TEST_DM_VX_ALL),
	TEST_DM_VXF("eth-src", eth_src, TEST_DM_FK_MAC, 0, TEST_DM_VX_ALL),
	TEST_DM_VXF("eth-dst", eth_dst, TEST_DM_FK_MAC, 0, TEST_DM_VX_ALL),
	TEST_DM_VXF("vlan-tci", vlan_tci, TEST_DM_FK_UINT, 0, TEST_DM_VX_VLAN),
	TEST_DM_VXF("ip-tos", ip_tos, TEST_DM_FK_UINT, 0, TEST_DM_VX_TOS_TTL),
	TEST_DM_VXF("ip-ttl", ip_ttl, TEST_DM_FK_UINT, 0, TEST_DM_VX_TOS_TTL),
};

/* ip-src / ip-dst: IPv4 or IPv6, to be checked against ip-version at the end. */
static int
test_dm_vx_addr(struct test_dm_flow_parser *p, struct test_dm_vxlan_conf *c, int dst,
		const struct test_dm_tok **tok, int *is_v6)
{
	const struct test_dm_tok *t = test_dm_flow_parser_next(p);

	*tok = t;
	if (t != NULL && test_dm_parse_ipv4(t->s, t->len, dst ? c->ipv4_dst : c->ipv4_src) == 0) {
		*is_v6 = 0;
		return 0;
	}
	if (t != NULL && test_dm_parse_ipv6(t->s, t->len, dst ? c->ipv6_dst : c->ipv6_src) == 0) {
		*is_v6 = 1;
		return 0;
	}
	return test_dm_flow_parser_error_at(p, t, "expected an IPv4 or IPv6 address for '%s'",
					    dst ? "ip-dst" : "ip-src");
}

static int
test_dm_parse_set_vxlan(struct test_dm_flow_parser *p, int variant)
{
	const struct test_dm_tok *t, *addr_tok[2] = { NULL, NULL };
	struct test_dm_vxlan_conf c;
	struct test_dm_field f;
	int addr_v6[2] = { 0, 0 }, ret;
	unsigned int k;

	/* Like testpmd, every "set vxlan" starts over. */
	c = test_dm_vxlan_default;
	c.with_vlan = variant == TEST_DM_VX_VLAN;
	c.with_tos_ttl = variant == TEST_DM_VX_TOS_TTL;
	while ((t = test_dm_flow_parser_next(p)) != NULL) {
		for (k = 0; k < RTE_DIM(test_dm_vx_keys); k++)
			if (test_dm_tok_is(t, test_dm_vx_keys[k].d.name))
				break;
		if (k == RTE_DIM(test_dm_vx_keys))
			return test_dm_flow_parser_error_at(p, t,
							    "unknown key '%.*s' of 'set vxlan'",
							    (int)t->len, t->s);
		if (!(test_dm_vx_keys[k].variants & variant))
			return test_dm_flow_parser_error_at(p, t, "'%s' is only accepted by "
							    "'set %s'", test_dm_vx_keys[k].d.name,
							    test_dm_vx_keys[k].variants ==
							    TEST_DM_VX_VLAN ? "vxlan-with-vlan" :
							    "vxlan-tos-ttl");
		if (test_dm_vx_keys[k].d.kind == TEST_DM_FK_HEX) {
			int dst = test_dm_vx_keys[k].d.name[3] == 'd';

			ret = test_dm_vx_addr(p, &c, dst, &addr_tok[dst], &addr_v6[dst]);
		} else {
			test_dm_field_resolve(&test_dm_vx_keys[k].d, sizeof(c), &f);
			ret = test_dm_field_parse(p, &f, &c);
		}
		if (ret < 0)
			return ret;
	}
	for (k = 0; k < 2; k++)
		if (addr_tok[k] != NULL && addr_v6[k] != c.ipv6)
			return test_dm_flow_parser_error_at(p, addr_tok[k], "address family does "
							    "not match ip-version %s",
							    c.ipv6 ? "ipv6" : "ipv4");
	p->ctx->vxlan = c;
	return 0;
}

int
test_dm_flow_parse_set(struct test_dm_flow_parser *p)
{
	const struct test_dm_tok *t = test_dm_flow_parser_next(p);

	if (t != NULL && test_dm_tok_is(t, "raw_encap"))
		return test_dm_parse_set_raw(p, 1);
	if (t != NULL && test_dm_tok_is(t, "raw_decap"))
		return test_dm_parse_set_raw(p, 0);
	p->cmd->type = TEST_DM_SET_VXLAN;
	if (t != NULL && test_dm_tok_is(t, "vxlan"))
		return test_dm_parse_set_vxlan(p, TEST_DM_VX_PLAIN);
	if (t != NULL && test_dm_tok_is(t, "vxlan-with-vlan"))
		return test_dm_parse_set_vxlan(p, TEST_DM_VX_VLAN);
	if (t != NULL && test_dm_tok_is(t, "vxlan-tos-ttl"))
		return test_dm_parse_set_vxlan(p, TEST_DM_VX_TOS_TTL);
	return test_dm_flow_parser_error_at(p, t, "expected raw_encap, raw_decap, vxlan, "
					    "vxlan-with-vlan or vxlan-tos-ttl after 'set'");
}

/* VXLAN_ENCAP's definition: eth / [vlan] / ipv4|ipv6 / udp / vxlan / end, as testpmd. */
int
test_dm_flow_vxlan_encap_conf(struct test_dm_flow_parser *p, struct rte_flow_action *a)
{
	const struct test_dm_vxlan_conf *c = &p->ctx->vxlan;
	struct rte_flow_action_vxlan_encap *conf = (void *)(uintptr_t)a->conf;
	struct test_dm_arena *ar = &p->cmd->arena;
	struct rte_flow_item *it = test_dm_arena_zalloc(ar, sizeof(*it) * 6);
	struct rte_flow_item_eth *eth = test_dm_arena_zalloc(ar, sizeof(*eth));
	struct rte_flow_item_vlan *vlan = test_dm_arena_zalloc(ar, sizeof(*vlan));
	struct rte_flow_item_ipv4 *ip4 = test_dm_arena_zalloc(ar, sizeof(*ip4));
	struct rte_flow_item_ipv6 *ip6 = test_dm_arena_zalloc(ar, sizeof(*ip6));
	struct rte_flow_item_udp *udp = test_dm_arena_zalloc(ar, sizeof(*udp));
	struct rte_flow_item_vxlan *vx = test_dm_arena_zalloc(ar, sizeof(*vx));
	struct rte_flow_item_ipv4 *m4 = test_dm_arena_zalloc(ar, sizeof(*m4));
	struct rte_flow_item_ipv6 *m6 = test_dm_arena_zalloc(ar, sizeof(*m6));

	if (it == NULL || eth == NULL || vlan == NULL || ip4 == NULL || ip6 == NULL ||
	    udp == NULL || vx == NULL || m4 == NULL || m6 == NULL)
		return -ENOMEM;
	memcpy(eth->dst.addr_bytes, c->eth_dst, 6);
	memcpy(eth->src.addr_bytes, c->eth_src, 6);
	vlan->tci = rte_cpu_to_be_16(c->vlan_tci);
	memcpy(&ip4->hdr.src_addr, c->ipv4_src, 4);
	memcpy(&ip4->hdr.dst_addr, c->ipv4_dst, 4);
	memcpy(ip6->hdr.src_addr, c->ipv6_src, 16);
	memcpy(ip6->hdr.dst_addr, c->ipv6_dst, 16);
	*m4 = rte_flow_item_ipv4_mask;
	*m6 = rte_flow_item_ipv6_mask;
	if (c->with_tos_ttl) {
		ip4->hdr.type_of_service = c->ip_tos;
		ip4->hdr.time_to_live = c->ip_ttl;
		m4->hdr.type_of_service = 0xff;
		m4->hdr.time_to_live = 0xff;
		ip6->hdr.vtc_flow = rte_cpu_to_be_32((uint32_t)c->ip_tos << RTE_IPV6_HDR_TC_SHIFT);
		ip6->hdr.hop_limits = c->ip_ttl;
		m6->hdr.vtc_flow |= RTE_BE32(0xffu << RTE_IPV6_HDR_TC_SHIFT);
		m6->hdr.hop_limits = 0xff;
	}
	udp->hdr.src_port = rte_cpu_to_be_16(c->udp_src);
	udp->hdr.dst_port = rte_cpu_to_be_16(c->udp_dst);
	vx->vni[0] = (uint8_t)(c->vni >> 16);
	vx->vni[1] = (uint8_t)(c->vni >> 8);
	vx->vni[2] = (uint8_t)c->vni;
	it[0] = (struct rte_flow_item){ RTE_FLOW_ITEM_TYPE_ETH, eth, NULL,
					&rte_flow_item_eth_mask };
	it[1] = (struct rte_flow_item){ c->with_vlan ? RTE_FLOW_ITEM_TYPE_VLAN :
					RTE_FLOW_ITEM_TYPE_VOID, vlan, NULL,
					&rte_flow_item_vlan_mask };
	if (c->ipv6)
		it[2] = (struct rte_flow_item){ RTE_FLOW_ITEM_TYPE_IPV6, ip6, NULL, m6 };
	else
		it[2] = (struct rte_flow_item){ RTE_FLOW_ITEM_TYPE_IPV4, ip4, NULL, m4 };
	it[3] = (struct rte_flow_item){ RTE_FLOW_ITEM_TYPE_UDP, udp, NULL,
					&rte_flow_item_udp_mask };
	it[4] = (struct rte_flow_item){ RTE_FLOW_ITEM_TYPE_VXLAN, vx, NULL,
					&rte_flow_item_vxlan_mask };
	it[5].type = RTE_FLOW_ITEM_TYPE_END;
	conf->definition = it;
	return 0;
}
