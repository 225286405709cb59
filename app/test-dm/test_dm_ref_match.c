/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Pattern matching of the reference classifier: items against decoded
 * headers with spec/mask/last, following rte_flow's item definitions.
 *
 * An item's spec structure starts with the header it matches, so header
 * bytes are compared with spec & mask directly. Ranges ("last") are
 * compared per protocol field, as numbers: the unit tables below list the
 * fields of each header.
 */

#include <errno.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_common.h>

#include "test_dm_flow.h"
#include "test_dm_ref_priv.h"

struct test_dm_unit {
	uint8_t off;
	uint8_t len;
};

struct test_dm_item_match {
	enum rte_flow_item_type type;
	const struct test_dm_unit *units;
	unsigned int nb_units;
};

#define TEST_DM_IM(t, u) { RTE_FLOW_ITEM_TYPE_##t, (u), RTE_DIM(u) }

static const struct test_dm_unit test_dm_u_eth[] = { { 0, 6 }, { 6, 6 }, { 12, 2 } };
static const struct test_dm_unit test_dm_u_vlan[] = { { 0, 2 }, { 2, 2 } };
static const struct test_dm_unit test_dm_u_ipv4[] = {
	{ 0, 1 }, { 1, 1 }, { 2, 2 }, { 4, 2 }, { 6, 2 }, { 8, 1 }, { 9, 1 }, { 10, 2 },
	{ 12, 4 }, { 16, 4 },
};
static const struct test_dm_unit test_dm_u_ipv6[] = {
	{ 0, 4 }, { 4, 2 }, { 6, 1 }, { 7, 1 }, { 8, 16 }, { 24, 16 },
};
static const struct test_dm_unit test_dm_u_icmp[] = {
	{ 0, 1 }, { 1, 1 }, { 2, 2 }, { 4, 2 }, { 6, 2 },
};
static const struct test_dm_unit test_dm_u_udp[] = { { 0, 2 }, { 2, 2 }, { 4, 2 }, { 6, 2 } };
static const struct test_dm_unit test_dm_u_tcp[] = {
	{ 0, 2 }, { 2, 2 }, { 4, 4 }, { 8, 4 }, { 12, 1 }, { 13, 1 }, { 14, 2 }, { 16, 2 },
	{ 18, 2 },
};
static const struct test_dm_unit test_dm_u_vxlan[] = { { 0, 1 }, { 1, 3 }, { 4, 3 }, { 7, 1 } };
static const struct test_dm_unit test_dm_u_gre[] = { { 0, 2 }, { 2, 2 } };
static const struct test_dm_unit test_dm_u_mpls[] = { { 0, 3 }, { 3, 1 } };
static const struct test_dm_unit test_dm_u_icmp6[] = { { 0, 1 }, { 1, 1 }, { 2, 2 } };
/* GRE_KEY, META, TAG data, MARK: one 32-bit field (host order for the last three). */
static const struct test_dm_unit test_dm_u_word[] = { { 0, 4 } };
/* REPRESENTED_PORT, PORT_REPRESENTOR: a host-order 16-bit port id. */
static const struct test_dm_unit test_dm_u_half[] = { { 0, 2 } };

static const struct test_dm_item_match test_dm_item_match[] = {
	TEST_DM_IM(ETH, test_dm_u_eth),
	TEST_DM_IM(VLAN, test_dm_u_vlan),
	TEST_DM_IM(IPV4, test_dm_u_ipv4),
	TEST_DM_IM(IPV6, test_dm_u_ipv6),
	TEST_DM_IM(ICMP, test_dm_u_icmp),
	TEST_DM_IM(UDP, test_dm_u_udp),
	TEST_DM_IM(TCP, test_dm_u_tcp),
	TEST_DM_IM(VXLAN, test_dm_u_vxlan),
	TEST_DM_IM(GRE, test_dm_u_gre),
	TEST_DM_IM(MPLS, test_dm_u_mpls),
	TEST_DM_IM(ICMP6, test_dm_u_icmp6),
	TEST_DM_IM(GRE_KEY, test_dm_u_word),
	TEST_DM_IM(META, test_dm_u_word),
	TEST_DM_IM(TAG, test_dm_u_word),
	TEST_DM_IM(MARK, test_dm_u_word),
	TEST_DM_IM(REPRESENTED_PORT, test_dm_u_half),
	TEST_DM_IM(PORT_REPRESENTOR, test_dm_u_half),
	TEST_DM_IM(PORT_ID, test_dm_u_word),
};

static const struct test_dm_item_match *
test_dm_item_match_get(enum rte_flow_item_type type)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(test_dm_item_match); i++)
		if (test_dm_item_match[i].type == type)
			return &test_dm_item_match[i];
	return NULL;
}

/* Compare a and b (len bytes, big-endian numbers) after masking: <0, 0, >0. */
static int
test_dm_masked_cmp(const uint8_t *a, const uint8_t *b, const uint8_t *m, unsigned int len)
{
	unsigned int i;

	for (i = 0; i < len; i++) {
		uint8_t x = a[i] & m[i], y = b[i] & m[i];

		if (x != y)
			return x < y ? -1 : 1;
	}
	return 0;
}

static int
test_dm_masked_zero(const uint8_t *a, const uint8_t *m, unsigned int len)
{
	unsigned int i;

	for (i = 0; i < len; i++)
		if ((a[i] & m[i]) != 0)
			return 0;
	return 1;
}

/*
 * Does value v (bytes in the spec's layout) match the item on unit u?
 * A last field that is 0 or equal to spec does not make a range.
 */
static int
test_dm_unit_match(const uint8_t *v, const uint8_t *spec, const uint8_t *last,
		   const uint8_t *mask, const struct test_dm_unit *u, int host_order)
{
	uint8_t a[16], s[16], l[16], m[16];
	unsigned int i, n = u->len;

	/* Host-order words (META, TAG, MARK) compare as numbers: make them big-endian. */
	for (i = 0; i < n; i++) {
		unsigned int j = host_order && RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN ? n - 1 - i : i;

		a[i] = v[u->off + j];
		s[i] = spec[u->off + j];
		m[i] = mask[u->off + j];
		l[i] = last != NULL ? last[u->off + j] : 0;
	}
	if (last == NULL || test_dm_masked_zero(l, m, n) || test_dm_masked_cmp(l, s, m, n) == 0)
		return test_dm_masked_cmp(a, s, m, n) == 0;
	return test_dm_masked_cmp(a, s, m, n) >= 0 && test_dm_masked_cmp(a, l, m, n) <= 0;
}

static int
test_dm_units_match(const struct test_dm_item_match *im, const struct rte_flow_item *item,
		    const uint8_t *v, int host_order)
{
	const uint8_t *mask = item->mask != NULL ? item->mask :
		test_dm_flow_item_default_mask(item->type);
	unsigned int i;

	for (i = 0; i < im->nb_units; i++)
		if (!test_dm_unit_match(v, item->spec, item->last, mask, &im->units[i],
					host_order))
			return 0;
	return 1;
}

/* A 1-bit "has_*" attribute: matches when not masked or equal to the fact. */
static int
test_dm_flag_match(int mask_bit, int spec_bit, int fact)
{
	return !mask_bit || spec_bit == fact;
}

static int
test_dm_attr_bits_match(const struct rte_flow_item *item, const struct test_dm_ref_pkt *pkt,
			int h)
{
	const struct test_dm_pkt_info *info = &pkt->info;
	int next_vlan = h + 1 < (int)info->n && info->h[h + 1].type == TEST_DM_L_VLAN;

	switch (item->type) {
	case RTE_FLOW_ITEM_TYPE_ETH: {
		const struct rte_flow_item_eth *s = item->spec, *m = item->mask;

		return m == NULL || test_dm_flag_match(m->has_vlan, s->has_vlan, next_vlan);
	}
	case RTE_FLOW_ITEM_TYPE_VLAN: {
		const struct rte_flow_item_vlan *s = item->spec, *m = item->mask;

		return m == NULL ||
		       test_dm_flag_match(m->has_more_vlan, s->has_more_vlan, next_vlan);
	}
	case RTE_FLOW_ITEM_TYPE_IPV6: {
		const struct rte_flow_item_ipv6 *s = item->spec, *m = item->mask;
		int frag = pkt->data[info->h[h].off + 6] == IPPROTO_FRAGMENT;

		return m == NULL || test_dm_flag_match(m->has_frag_ext, s->has_frag_ext, frag);
	}
	default:
		return 1;
	}
}

static int
test_dm_meta_match(const struct test_dm_item_match *im, const struct rte_flow_item *item,
		   const struct test_dm_ref_pkt *pkt)
{
	uint16_t port;
	uint32_t v;

	switch (item->type) {
	case RTE_FLOW_ITEM_TYPE_REPRESENTED_PORT:
	case RTE_FLOW_ITEM_TYPE_PORT_REPRESENTOR:
		/* Where the traffic came from: the port representing it, or the sender. */
		port = item->type == RTE_FLOW_ITEM_TYPE_REPRESENTED_PORT ?
		       pkt->src_represented : pkt->src_ethdev;
		return port != TEST_DM_REF_NO_PORT &&
		       test_dm_units_match(im, item, (const uint8_t *)&port, 1);
	case RTE_FLOW_ITEM_TYPE_PORT_ID:
		/* The deprecated item means REPRESENTED_PORT (DPDK mlx5 and rte_flow.rst). */
		if (pkt->src_represented == TEST_DM_REF_NO_PORT)
			return 0;
		v = pkt->src_represented;
		break;
	case RTE_FLOW_ITEM_TYPE_META:
		v = pkt->meta;
		break;
	case RTE_FLOW_ITEM_TYPE_MARK:
		v = pkt->mark;
		break;
	default: {
		const struct rte_flow_item_tag *tag = item->spec;

		if (tag->index >= TEST_DM_REF_TAGS)
			return 0;
		v = pkt->tags[tag->index];
		break;
	}
	}
	return test_dm_units_match(im, item, (const uint8_t *)&v, 1);
}

/* The GRE key of GRE header @p g, if it has one. */
static int
test_dm_gre_key(const struct test_dm_ref_pkt *pkt, int g, uint8_t key[4])
{
	const uint8_t *h;

	if (g < 0)
		return 0;
	h = pkt->data + pkt->info.h[g].off;
	if (!(h[0] & 0x20))
		return 0;
	memcpy(key, h + 4 + ((h[0] & 0x80) ? 4 : 0), 4);
	return 1;
}

int
test_dm_ref_match(const struct rte_flow_item *pattern, const struct test_dm_ref_pkt *pkt)
{
	const struct test_dm_pkt_info *info = &pkt->info;
	enum test_dm_layer prev = TEST_DM_L_COUNT;
	const struct test_dm_item_match *im;
	const struct rte_flow_item *item;
	enum test_dm_layer layer;
	unsigned int cur = 0;
	int gre = -1;
	uint8_t key[4];

	for (item = pattern; item->type != RTE_FLOW_ITEM_TYPE_END; item++) {
		if (item->type == RTE_FLOW_ITEM_TYPE_VOID)
			continue;
		im = test_dm_item_match_get(item->type);
		if (im == NULL)
			return 0;
		layer = test_dm_flow_item_layer(item->type);
		if (item->type == RTE_FLOW_ITEM_TYPE_GRE_KEY) {
			if (prev != TEST_DM_L_GRE || !test_dm_gre_key(pkt, gre, key))
				return 0;
			if (item->spec != NULL && !test_dm_units_match(im, item, key, 0))
				return 0;
			continue;
		}
		if (layer == TEST_DM_L_COUNT) {
			if (item->spec != NULL && !test_dm_meta_match(im, item, pkt))
				return 0;
			/* MARK without spec: any packet a MARK action marked. */
			if (item->spec == NULL && item->type == RTE_FLOW_ITEM_TYPE_MARK &&
			    !pkt->marked)
				return 0;
			continue;
		}
		/* Lower layers the pattern leaves out: outer L2, and VLAN tags after L2. */
		if (prev == TEST_DM_L_COUNT && layer != TEST_DM_L_ETH)
			while (cur < info->n && (info->h[cur].type == TEST_DM_L_ETH ||
						 info->h[cur].type == TEST_DM_L_VLAN))
				cur++;
		if ((prev == TEST_DM_L_ETH || prev == TEST_DM_L_VLAN) &&
		    layer != TEST_DM_L_VLAN)
			while (cur < info->n && info->h[cur].type == TEST_DM_L_VLAN)
				cur++;
		if (cur >= info->n || info->h[cur].type != layer)
			return 0;
		if (item->spec != NULL &&
		    (!test_dm_units_match(im, item, pkt->data + info->h[cur].off, 0) ||
		     !test_dm_attr_bits_match(item, pkt, (int)cur)))
			return 0;
		if (layer == TEST_DM_L_GRE)
			gre = (int)cur;
		prev = layer;
		cur++;
	}
	return 1;
}

/* Masked bits of x and y: equal down to some bit, then all 0 in x and all 1 in y. */
static int
test_dm_range_is_prefix(const uint8_t *x, const uint8_t *y, const uint8_t *m, unsigned int n)
{
	unsigned int bit, split = 0;

	for (bit = 0; bit < n * 8; bit++) {
		unsigned int k = bit / 8, b = 0x80u >> (bit % 8);
		int xb = (x[k] & b) != 0, yb = (y[k] & b) != 0;

		if (!(m[k] & b))
			continue;
		if (!split && xb == yb)
			continue;
		split = 1;
		if (xb || !yb)
			return 0;
	}
	return 1;
}

/* Unit @p u of item bytes @p p as big-endian bytes (META/TAG/MARK words are host order). */
static void
test_dm_unit_bytes(const struct rte_flow_item *item, const uint8_t *p,
		   const struct test_dm_unit *u, uint8_t *out)
{
	int host = test_dm_flow_item_layer(item->type) == TEST_DM_L_COUNT &&
		   item->type != RTE_FLOW_ITEM_TYPE_GRE_KEY;
	unsigned int j;

	for (j = 0; j < u->len; j++)
		out[j] = p[u->off + (host && RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN ?
				     u->len - 1u - j : j)];
}

int
test_dm_ref_item_range_off(const struct rte_flow_item *item)
{
	const struct test_dm_item_match *im = test_dm_item_match_get(item->type);
	const uint8_t *mask;
	unsigned int i;

	if (im == NULL || item->spec == NULL || item->last == NULL)
		return -1;
	mask = item->mask != NULL ? item->mask : test_dm_flow_item_default_mask(item->type);
	for (i = 0; i < im->nb_units; i++) {
		const struct test_dm_unit *u = &im->units[i];
		uint8_t s[16], l[16], m[16];

		test_dm_unit_bytes(item, item->spec, u, s);
		test_dm_unit_bytes(item, item->last, u, l);
		test_dm_unit_bytes(item, mask, u, m);
		if (test_dm_masked_zero(l, m, u->len) || test_dm_masked_cmp(l, s, m, u->len) == 0)
			continue;
		if (!test_dm_range_is_prefix(s, l, m, u->len))
			return u->off;
	}
	return -1;
}

int
test_dm_ref_item_check(const struct rte_flow_item *item, struct rte_flow_error *e)
{
	const struct test_dm_item_match *im = test_dm_item_match_get(item->type);
	const uint8_t *mask, *s = item->spec, *l = item->last;
	unsigned int i;

	if (item->type == RTE_FLOW_ITEM_TYPE_VOID)
		return 0;
	if (im == NULL)
		return test_dm_ref_err(e, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM, item,
				       "item type not supported");
	if (item->spec == NULL && (item->last != NULL || item->mask != NULL))
		return test_dm_ref_err(e, EINVAL, item->last != NULL ?
				       RTE_FLOW_ERROR_TYPE_ITEM_LAST :
				       RTE_FLOW_ERROR_TYPE_ITEM_MASK, item,
				       "mask or last without spec");
	if (item->type == RTE_FLOW_ITEM_TYPE_TAG && item->spec != NULL &&
	    ((const struct rte_flow_item_tag *)item->spec)->index >= TEST_DM_REF_TAGS)
		return test_dm_ref_err(e, EINVAL, RTE_FLOW_ERROR_TYPE_ITEM_SPEC, item,
				       "tag index out of range");
	if (l == NULL)
		return 0;
	mask = item->mask != NULL ? item->mask : test_dm_flow_item_default_mask(item->type);
	for (i = 0; i < im->nb_units; i++) {
		/* A range whose upper bound is below its lower bound matches nothing. */
		uint8_t a[16], b[16], m[16];
		unsigned int n = im->units[i].len;

		test_dm_unit_bytes(item, l, &im->units[i], a);
		test_dm_unit_bytes(item, s, &im->units[i], b);
		test_dm_unit_bytes(item, mask, &im->units[i], m);
		if (!test_dm_masked_zero(a, m, n) && test_dm_masked_cmp(a, b, m, n) < 0)
			return test_dm_ref_err(e, EINVAL, RTE_FLOW_ERROR_TYPE_ITEM_LAST, item,
					       "last is below spec");
	}
	return 0;
}
