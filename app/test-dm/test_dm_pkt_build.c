/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Packet builder: headers from the layer tables, then what the description
 * left to compute — next-protocol fields (outer to inner), lengths, and
 * checksums (inner to outer, so an outer UDP checksum covers final inner
 * bytes).
 */

#include <errno.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_vxlan.h>

#include "test_dm_bits.h"
#include "test_dm_cksum.h"
#include "test_dm_pkt_priv.h"

struct test_dm_bld {
	const struct test_dm_pkt_tmpl *t;
	uint8_t *p;
	uint16_t off[TEST_DM_PLAYERS_MAX];
	uint16_t len[TEST_DM_PLAYERS_MAX];
	size_t total;
};

static const struct test_dm_pval *
test_dm_given(const struct test_dm_player *l, const char *name)
{
	const struct test_dm_layer_desc *d = test_dm_layer_get(l->type);
	const struct test_dm_pfield *f = test_dm_pfield_find(d, name, strlen(name));

	return l->v[f - d->fields].set ? &l->v[f - d->fields] : NULL;
}

/* GRE's C, K, S bits: explicit, or implied by the optional field being given. */
static void
test_dm_gre_bits(const struct test_dm_player *l, unsigned int *c, unsigned int *k,
		 unsigned int *s)
{
	const struct test_dm_pval *v;

	v = test_dm_given(l, "c");
	*c = v != NULL ? (unsigned int)v->lo : test_dm_given(l, "csum") != NULL;
	v = test_dm_given(l, "k");
	*k = v != NULL ? (unsigned int)v->lo : test_dm_given(l, "key") != NULL;
	v = test_dm_given(l, "s");
	*s = v != NULL ? (unsigned int)v->lo : test_dm_given(l, "seq") != NULL;
}

static size_t
test_dm_layer_len(const struct test_dm_player *l)
{
	unsigned int c, k, s;

	if (l->type == TEST_DM_L_PAYLOAD)
		return l->pay_len;
	if (l->type == TEST_DM_L_GRE) {
		test_dm_gre_bits(l, &c, &k, &s);
		return 4u + 4u * (c + k + s);
	}
	return test_dm_layer_get(l->type)->len;
}

static uint64_t
test_dm_pval_at(const struct test_dm_pval *v, uint32_t index)
{
	if (!v->range)
		return v->lo;
	return v->lo + index % (v->hi - v->lo + 1);
}

static void
test_dm_put_field(uint8_t *h, int bit, const struct test_dm_pfield *f, uint64_t v,
		  const uint8_t *bytes)
{
	if (f->kind == TEST_DM_PK_IPV6)
		memcpy(h + bit / 8, bytes, 16);
	else
		test_dm_bits_set(h, (unsigned int)bit, f->width, v);
}

static uint64_t
test_dm_def_value(const struct test_dm_pfield *f)
{
	uint64_t v = f->def;
	unsigned int i;

	if (f->def_bytes != NULL && f->kind != TEST_DM_PK_IPV6)
		for (v = 0, i = 0; i < f->width / 8; i++)
			v = v << 8 | f->def_bytes[i];
	return v;
}

/* Defaults, then given values. */
static void
test_dm_write_fields(struct test_dm_bld *b, unsigned int i, uint32_t index)
{
	const struct test_dm_player *l = &b->t->l[i];
	const struct test_dm_layer_desc *d = test_dm_layer_get(l->type);
	struct test_dm_hdr h = { .type = l->type, .off = b->off[i], .len = b->len[i] };
	uint8_t *p = b->p + b->off[i];
	unsigned int j, c, k, s;
	int bit;

	if (l->type == TEST_DM_L_GRE) {
		/* Flags first: they place the optional fields. */
		test_dm_gre_bits(l, &c, &k, &s);
		p[0] = (uint8_t)(c << 7 | k << 5 | s << 4);
	}
	for (j = 0; j < d->nb_fields; j++) {
		const struct test_dm_pfield *f = &d->fields[j];

		if (l->v[j].set || (f->flags & (TEST_DM_PF_ALIAS | TEST_DM_PF_GRE_OPT)))
			continue;
		if (l->type == TEST_DM_L_GRE && f->bit < 4)
			continue;
		test_dm_put_field(p, f->bit, f, test_dm_def_value(f), f->def_bytes);
	}
	for (j = 0; j < d->nb_fields; j++) {
		const struct test_dm_pfield *f = &d->fields[j];

		if (!l->v[j].set)
			continue;
		bit = test_dm_pfield_bit(b->p, &h, f);
		if (bit >= 0)
			test_dm_put_field(p, bit, f, test_dm_pval_at(&l->v[j], index),
					  l->v[j].bytes);
	}
}

static void
test_dm_write_payload(struct test_dm_bld *b, unsigned int i)
{
	const struct test_dm_player *l = &b->t->l[i];
	uint8_t *p = b->p + b->off[i];
	uint32_t j;

	if (l->pay_bytes != NULL)
		memcpy(p, l->pay_bytes, l->pay_len);
	else if (l->pay_fill >= 0)
		memset(p, l->pay_fill, l->pay_len);
	else
		for (j = 0; j < l->pay_len; j++)
			p[j] = (uint8_t)j;
}

/* Set an automatic field unless the description gave it and @p v is known. */
static void
test_dm_auto(struct test_dm_bld *b, unsigned int i, const char *name, uint64_t v)
{
	const struct test_dm_player *l = &b->t->l[i];
	const struct test_dm_layer_desc *d = test_dm_layer_get(l->type);
	const struct test_dm_pfield *f = test_dm_pfield_find(d, name, strlen(name));

	if (!l->v[f - d->fields].set)
		test_dm_bits_set(b->p + b->off[i], f->bit, f->width, v);
}

static void
test_dm_chain(struct test_dm_bld *b, unsigned int i)
{
	enum test_dm_layer next = i + 1 < b->t->n ? b->t->l[i + 1].type : TEST_DM_L_PAYLOAD;
	uint16_t et = test_dm_layer_ethertype(next);
	uint8_t proto = test_dm_layer_ipproto(next);

	switch (b->t->l[i].type) {
	case TEST_DM_L_ETH:
	case TEST_DM_L_VLAN:
		if (et != 0 && next != TEST_DM_L_ETH)
			test_dm_auto(b, i, "type", et);
		break;
	case TEST_DM_L_IPV4:
		if (proto != 0)
			test_dm_auto(b, i, "proto", proto);
		break;
	case TEST_DM_L_IPV6:
		if (proto != 0)
			test_dm_auto(b, i, "nh", proto);
		break;
	case TEST_DM_L_UDP:
		if (next == TEST_DM_L_VXLAN)
			test_dm_auto(b, i, "dport", RTE_VXLAN_DEFAULT_PORT);
		else if (next == TEST_DM_L_MPLS)
			test_dm_auto(b, i, "dport", 6635);
		break;
	case TEST_DM_L_GRE:
		if (et != 0)
			test_dm_auto(b, i, "proto", et);
		break;
	case TEST_DM_L_MPLS:
		test_dm_auto(b, i, "s", next != TEST_DM_L_MPLS);
		break;
	default:
		break;
	}
}

static void
test_dm_lengths(struct test_dm_bld *b, unsigned int i)
{
	size_t rest = b->total - b->off[i];

	switch (b->t->l[i].type) {
	case TEST_DM_L_IPV4:
		test_dm_auto(b, i, "len", rest);
		break;
	case TEST_DM_L_IPV6:
		test_dm_auto(b, i, "plen", rest - 40);
		break;
	case TEST_DM_L_UDP:
		test_dm_auto(b, i, "len", rest);
		break;
	default:
		break;
	}
}

/* Nearest IP header before layer i, or -1. */
static int
test_dm_enclosing_ip(const struct test_dm_bld *b, unsigned int i)
{
	while (i-- > 0)
		if (b->t->l[i].type == TEST_DM_L_IPV4 || b->t->l[i].type == TEST_DM_L_IPV6)
			return (int)i;
	return -1;
}

static void
test_dm_checksum(struct test_dm_bld *b, unsigned int i)
{
	const struct test_dm_player *l = &b->t->l[i];
	uint8_t *h = b->p + b->off[i];
	size_t rest = b->total - b->off[i];
	int ip = test_dm_enclosing_ip(b, i);
	unsigned int c, k, s;
	uint16_t sum;

	switch (l->type) {
	case TEST_DM_L_IPV4:
		if (test_dm_given(l, "cksum") == NULL)
			test_dm_pkt_fix_ipv4_cksum(h);
		break;
	case TEST_DM_L_TCP:
	case TEST_DM_L_UDP:
	case TEST_DM_L_ICMP6:
		if (test_dm_given(l, "cksum") != NULL || ip < 0)
			break;
		sum = test_dm_cksum_l4(b->p + b->off[ip], h, rest,
				       l->type == TEST_DM_L_TCP ? IPPROTO_TCP :
				       l->type == TEST_DM_L_UDP ? IPPROTO_UDP : IPPROTO_ICMPV6);
		/* In UDP, zero means "no checksum": a computed zero is sent as 0xffff. */
		if (sum == 0 && l->type == TEST_DM_L_UDP)
			sum = 0xffff;
		test_dm_auto(b, i, "cksum", sum);
		break;
	case TEST_DM_L_ICMP:
		test_dm_auto(b, i, "cksum", test_dm_cksum_fold(test_dm_cksum_add(0, h, rest)));
		break;
	case TEST_DM_L_GRE:
		test_dm_gre_bits(l, &c, &k, &s);
		if (c && test_dm_given(l, "csum") == NULL)
			test_dm_bits_set(h, 32, 16,
					 test_dm_cksum_fold(test_dm_cksum_add(0, h, rest)));
		break;
	default:
		break;
	}
}

int
test_dm_pkt_build(const struct test_dm_pkt_tmpl *t, uint32_t index, uint8_t *buf, size_t cap)
{
	struct test_dm_bld b = { .t = t, .p = buf };
	unsigned int i;

	for (i = 0; i < t->n; i++) {
		b.off[i] = (uint16_t)b.total;
		b.len[i] = (uint16_t)test_dm_layer_len(&t->l[i]);
		b.total += b.len[i];
		if (b.total > cap)
			return -E2BIG;
	}
	memset(buf, 0, b.total);
	for (i = 0; i < t->n; i++) {
		if (t->l[i].type == TEST_DM_L_PAYLOAD)
			test_dm_write_payload(&b, i);
		else
			test_dm_write_fields(&b, i, index);
	}
	for (i = 0; i < t->n; i++) {
		test_dm_chain(&b, i);
		test_dm_lengths(&b, i);
	}
	for (i = t->n; i > 0; i--)
		test_dm_checksum(&b, i - 1);
	return (int)b.total;
}
