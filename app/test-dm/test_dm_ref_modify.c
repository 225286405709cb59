/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * MODIFY_FIELD in the reference classifier (rte_flow.rst of 22.11):
 * dst bits [dst.offset, dst.offset + width) of a field, counted from the
 * field's most significant bit, are set to / added with / subtracted by the
 * same number of bits of the source: another field's bits from src.offset,
 * or an immediate value laid out like the destination field in its item
 * (network order, right-aligned in whole bytes; META/TAG/MARK in host order),
 * taken at the destination's offset.
 */

#include <errno.h>
#include <string.h>

#include <rte_common.h>

#include "test_dm_bits.h"
#include "test_dm_ref_priv.h"

enum test_dm_mf_kind {
	TEST_DM_MF_HDR,
	TEST_DM_MF_L3TYPE,	/**< EtherType of the last L2 header. */
	TEST_DM_MF_META,
	TEST_DM_MF_TAG,
	TEST_DM_MF_MARK,
};

struct test_dm_mf_field {
	enum rte_flow_field_id id;
	uint8_t kind;
	enum test_dm_layer layer;
	uint16_t bit;
	uint16_t width;
};

#define TEST_DM_MF(id, l, b, w) { RTE_FLOW_FIELD_##id, TEST_DM_MF_HDR, (l), (b), (w) }
#define TEST_DM_MFM(id, k) { RTE_FLOW_FIELD_##id, (k), TEST_DM_L_COUNT, 0, 32 }

static const struct test_dm_mf_field test_dm_mf_fields[] = {
	TEST_DM_MF(MAC_DST, TEST_DM_L_ETH, 0, 48),
	TEST_DM_MF(MAC_SRC, TEST_DM_L_ETH, 48, 48),
	TEST_DM_MF(VLAN_TYPE, TEST_DM_L_ETH, 96, 16),
	TEST_DM_MF(VLAN_ID, TEST_DM_L_VLAN, 4, 12),
	{ RTE_FLOW_FIELD_MAC_TYPE, TEST_DM_MF_L3TYPE, TEST_DM_L_ETH, 96, 16 },
	TEST_DM_MF(IPV4_DSCP, TEST_DM_L_IPV4, 8, 6),
	TEST_DM_MF(IPV4_ECN, TEST_DM_L_IPV4, 14, 2),
	TEST_DM_MF(IPV4_TTL, TEST_DM_L_IPV4, 64, 8),
	TEST_DM_MF(IPV4_SRC, TEST_DM_L_IPV4, 96, 32),
	TEST_DM_MF(IPV4_DST, TEST_DM_L_IPV4, 128, 32),
	TEST_DM_MF(IPV6_DSCP, TEST_DM_L_IPV6, 4, 6),
	TEST_DM_MF(IPV6_ECN, TEST_DM_L_IPV6, 10, 2),
	TEST_DM_MF(IPV6_HOPLIMIT, TEST_DM_L_IPV6, 56, 8),
	TEST_DM_MF(IPV6_SRC, TEST_DM_L_IPV6, 64, 128),
	TEST_DM_MF(IPV6_DST, TEST_DM_L_IPV6, 192, 128),
	TEST_DM_MF(TCP_PORT_SRC, TEST_DM_L_TCP, 0, 16),
	TEST_DM_MF(TCP_PORT_DST, TEST_DM_L_TCP, 16, 16),
	TEST_DM_MF(TCP_SEQ_NUM, TEST_DM_L_TCP, 32, 32),
	TEST_DM_MF(TCP_ACK_NUM, TEST_DM_L_TCP, 64, 32),
	/* NS..FIN: the 9 flag bits. */
	TEST_DM_MF(TCP_FLAGS, TEST_DM_L_TCP, 103, 9),
	TEST_DM_MF(UDP_PORT_SRC, TEST_DM_L_UDP, 0, 16),
	TEST_DM_MF(UDP_PORT_DST, TEST_DM_L_UDP, 16, 16),
	TEST_DM_MF(VXLAN_VNI, TEST_DM_L_VXLAN, 32, 24),
	TEST_DM_MFM(META, TEST_DM_MF_META),
	TEST_DM_MFM(TAG, TEST_DM_MF_TAG),
	TEST_DM_MFM(MARK, TEST_DM_MF_MARK),
};

/* A number of up to 128 bits, big-endian, right-aligned in 16 bytes. */
struct test_dm_wide {
	uint8_t b[16];
};

static const struct test_dm_mf_field *
test_dm_mf_get(enum rte_flow_field_id id)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(test_dm_mf_fields); i++)
		if (test_dm_mf_fields[i].id == id)
			return &test_dm_mf_fields[i];
	return NULL;
}

static void
test_dm_wide_get(const uint8_t *src, unsigned int bit, unsigned int width,
		 struct test_dm_wide *w)
{
	unsigned int i;

	memset(w, 0, sizeof(*w));
	for (i = 0; i < width; i++)
		test_dm_bits_set(w->b, 128 - width + i, 1, test_dm_bits_get(src, bit + i, 1));
}

static void
test_dm_wide_put(uint8_t *dst, unsigned int bit, unsigned int width,
		 const struct test_dm_wide *w)
{
	unsigned int i;

	for (i = 0; i < width; i++)
		test_dm_bits_set(dst, bit + i, 1, test_dm_bits_get(w->b, 128 - width + i, 1));
}

/* a = a + b (sub: a - b), modulo 2^128; callers keep only their width. */
static void
test_dm_wide_add(struct test_dm_wide *a, const struct test_dm_wide *b, int sub)
{
	unsigned int i, carry = sub ? 1 : 0;

	for (i = 16; i > 0; i--) {
		unsigned int y = sub ? (uint8_t)~b->b[i - 1] : b->b[i - 1];
		unsigned int s = a->b[i - 1] + y + carry;

		a->b[i - 1] = (uint8_t)s;
		carry = s >> 8;
	}
}

/* Where a field lives: a pointer to its bytes and its first bit. NULL if absent. */
struct test_dm_mf_loc {
	uint8_t *base;
	unsigned int bit;
	uint8_t word[4];	/**< Metadata, as big-endian bytes. */
	uint32_t *meta;
};

static int
test_dm_mf_locate(struct test_dm_ref_pkt *pkt, const struct test_dm_mf_field *f,
		  uint32_t level, struct test_dm_mf_loc *loc)
{
	unsigned int nth = level > 1 ? level - 1 : 0;
	int h;

	memset(loc, 0, sizeof(*loc));
	switch (f->kind) {
	case TEST_DM_MF_META:
		loc->meta = &pkt->meta;
		break;
	case TEST_DM_MF_MARK:
		loc->meta = &pkt->mark;
		break;
	case TEST_DM_MF_TAG:
		if (level >= TEST_DM_REF_TAGS)
			return -ENOENT;
		loc->meta = &pkt->tags[level];
		break;
	case TEST_DM_MF_L3TYPE:
		h = test_dm_pkt_find(&pkt->info, TEST_DM_L_ETH, nth);
		if (h < 0)
			return -ENOENT;
		while (h + 1 < (int)pkt->info.n && pkt->info.h[h + 1].type == TEST_DM_L_VLAN)
			h++;
		loc->base = pkt->data + pkt->info.h[h].off;
		loc->bit = pkt->info.h[h].type == TEST_DM_L_VLAN ? 16 : 96;
		return 0;
	default:
		h = test_dm_pkt_find(&pkt->info, f->layer, nth);
		if (h < 0)
			return -ENOENT;
		loc->base = pkt->data + pkt->info.h[h].off;
		loc->bit = f->bit;
		return 0;
	}
	test_dm_bits_set(loc->word, 0, 32, *loc->meta);
	loc->base = loc->word;
	return 0;
}

static int
test_dm_mf_hdr_index(const struct test_dm_ref_pkt *pkt, const uint8_t *base)
{
	unsigned int i;

	for (i = 0; i < pkt->info.n; i++)
		if (pkt->data + pkt->info.h[i].off == base)
			return (int)i;
	return -1;
}

/* The source bits: an immediate value at the destination's offset, or a field's. */
static int
test_dm_mf_source(struct test_dm_ref_pkt *pkt, const struct rte_flow_action_modify_field *mf,
		  const struct test_dm_mf_field *dst, struct test_dm_wide *w)
{
	const struct test_dm_mf_field *src;
	struct test_dm_mf_loc loc;
	const uint8_t *val;
	uint8_t word[4];
	unsigned int nbytes;

	if (mf->src.field == RTE_FLOW_FIELD_VALUE || mf->src.field == RTE_FLOW_FIELD_POINTER) {
		val = mf->src.field == RTE_FLOW_FIELD_VALUE ? mf->src.value : mf->src.pvalue;
		if (dst->kind == TEST_DM_MF_META || dst->kind == TEST_DM_MF_TAG ||
		    dst->kind == TEST_DM_MF_MARK) {
			uint32_t host;

			memcpy(&host, val, sizeof(host));
			test_dm_bits_set(word, 0, 32, host);
			val = word;
		}
		nbytes = (dst->width + 7u) / 8u;
		test_dm_wide_get(val, nbytes * 8 - dst->width + mf->dst.offset, mf->width, w);
		return 0;
	}
	src = test_dm_mf_get(mf->src.field);
	if (test_dm_mf_locate(pkt, src, mf->src.level, &loc) < 0)
		return -ENOENT;
	test_dm_wide_get(loc.base, loc.bit + mf->src.offset, mf->width, w);
	return 0;
}

void
test_dm_ref_modify(const struct test_dm_ref *r, struct test_dm_ref_pkt *pkt,
		   const struct rte_flow_action_modify_field *mf)
{
	const struct test_dm_mf_field *dst = test_dm_mf_get(mf->dst.field);
	struct test_dm_wide cur, src;
	struct test_dm_mf_loc loc;

	if (test_dm_mf_locate(pkt, dst, mf->dst.level, &loc) < 0 ||
	    test_dm_mf_source(pkt, mf, dst, &src) < 0)
		return;
	if (mf->operation != RTE_FLOW_MODIFY_SET) {
		test_dm_wide_get(loc.base, loc.bit + mf->dst.offset, mf->width, &cur);
		test_dm_wide_add(&cur, &src, mf->operation == RTE_FLOW_MODIFY_SUB);
		src = cur;
	}
	test_dm_wide_put(loc.base, loc.bit + mf->dst.offset, mf->width, &src);
	if (loc.meta != NULL)
		*loc.meta = (uint32_t)test_dm_bits_get(loc.word, 0, 32);
	else
		test_dm_ref_touch(r, pkt, test_dm_mf_hdr_index(pkt, loc.base));
}

int
test_dm_ref_modify_field_layer(enum rte_flow_field_id id)
{
	const struct test_dm_mf_field *f = test_dm_mf_get(id);

	return f != NULL && f->kind != TEST_DM_MF_META && f->kind != TEST_DM_MF_TAG &&
	       f->kind != TEST_DM_MF_MARK ? (int)f->layer : -1;
}

int
test_dm_ref_modify_check(const struct rte_flow_action_modify_field *mf,
			 struct rte_flow_error *e)
{
	const struct test_dm_mf_field *dst = test_dm_mf_get(mf->dst.field), *src = NULL;
	const char *why = NULL;

	if (mf->src.field != RTE_FLOW_FIELD_VALUE && mf->src.field != RTE_FLOW_FIELD_POINTER)
		src = test_dm_mf_get(mf->src.field);
	if (mf->operation > RTE_FLOW_MODIFY_SUB)
		why = "unknown operation";
	else if (dst == NULL)
		why = "destination field not supported";
	else if (src == NULL && mf->src.field != RTE_FLOW_FIELD_VALUE &&
		 mf->src.field != RTE_FLOW_FIELD_POINTER)
		why = "source field not supported";
	else if (mf->src.field == RTE_FLOW_FIELD_POINTER && mf->src.pvalue == NULL)
		why = "source pointer is NULL";
	else if (mf->width == 0 || mf->dst.offset + mf->width > dst->width)
		why = "width and offset do not fit the destination field";
	else if (src != NULL && mf->src.offset + mf->width > src->width)
		why = "width and offset do not fit the source field";
	else if ((dst->kind == TEST_DM_MF_TAG && mf->dst.level >= TEST_DM_REF_TAGS) ||
		 (src != NULL && src->kind == TEST_DM_MF_TAG && mf->src.level >= TEST_DM_REF_TAGS))
		why = "tag index out of range";
	if (why != NULL)
		return test_dm_ref_err(e, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_CONF, mf, why);
	return 0;
}
