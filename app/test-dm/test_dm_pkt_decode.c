/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Packet decoder: the header layout of received (or expected) bytes, and
 * field access by name ("ipv4.ttl", "udp[1].dport") for expectations and
 * for the reference classifier's rewrites.
 */

#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_ether.h>
#include <rte_ip.h>

#include "test_dm_bits.h"
#include "test_dm_pkt.h"
#include "test_dm_value.h"

struct test_dm_dec {
	const uint8_t *p;
	size_t len;
	size_t off;
	struct test_dm_pkt_info *info;
};

static int
test_dm_dec_push(struct test_dm_dec *d, enum test_dm_layer type, size_t hlen)
{
	struct test_dm_pkt_info *info = d->info;

	if (d->off + hlen > d->len) {
		info->truncated = 1;
		return -1;
	}
	if (info->n == TEST_DM_HDRS_MAX)
		return -1;
	info->h[info->n].type = type;
	info->h[info->n].off = (uint16_t)d->off;
	info->h[info->n].len = (uint16_t)hlen;
	info->n++;
	d->off += hlen;
	return 0;
}

static enum test_dm_layer
test_dm_by_ethertype(uint16_t et)
{
	switch (et) {
	case RTE_ETHER_TYPE_VLAN:
	case RTE_ETHER_TYPE_QINQ:
	case RTE_ETHER_TYPE_QINQ1:
		return TEST_DM_L_VLAN;
	case RTE_ETHER_TYPE_IPV4:
		return TEST_DM_L_IPV4;
	case RTE_ETHER_TYPE_IPV6:
		return TEST_DM_L_IPV6;
	case RTE_ETHER_TYPE_MPLS:
	case RTE_ETHER_TYPE_MPLSM:
		return TEST_DM_L_MPLS;
	case RTE_ETHER_TYPE_TEB:
		return TEST_DM_L_ETH;
	default:
		return TEST_DM_L_PAYLOAD;
	}
}

static enum test_dm_layer
test_dm_by_ipproto(uint8_t proto, int v6)
{
	switch (proto) {
	case IPPROTO_TCP:
		return TEST_DM_L_TCP;
	case IPPROTO_UDP:
		return TEST_DM_L_UDP;
	case IPPROTO_ICMP:
		return v6 ? TEST_DM_L_PAYLOAD : TEST_DM_L_ICMP;
	case IPPROTO_ICMPV6:
		return v6 ? TEST_DM_L_ICMP6 : TEST_DM_L_PAYLOAD;
	case IPPROTO_GRE:
		return TEST_DM_L_GRE;
	case IPPROTO_IPIP:
		return TEST_DM_L_IPV4;
	case IPPROTO_IPV6:
		return TEST_DM_L_IPV6;
	case IPPROTO_MPLS:
		return TEST_DM_L_MPLS;
	default:
		return TEST_DM_L_PAYLOAD;
	}
}

/* What an MPLS stack carries: guessed from the IP version nibble. */
static enum test_dm_layer
test_dm_after_mpls(const struct test_dm_dec *d)
{
	if (d->off >= d->len)
		return TEST_DM_L_PAYLOAD;
	switch (d->p[d->off] >> 4) {
	case 4:
		return TEST_DM_L_IPV4;
	case 6:
		return TEST_DM_L_IPV6;
	default:
		return TEST_DM_L_PAYLOAD;
	}
}

/* Decode one header of type @p t at d->off; returns the type of the next one. */
static enum test_dm_layer
test_dm_dec_one(struct test_dm_dec *d, enum test_dm_layer t)
{
	const uint8_t *h = d->p + d->off;
	size_t avail = d->len - d->off;
	size_t hlen;

	switch (t) {
	case TEST_DM_L_ETH:
	case TEST_DM_L_VLAN:
		hlen = t == TEST_DM_L_ETH ? 14 : 4;
		if (test_dm_dec_push(d, t, hlen) < 0)
			return TEST_DM_L_COUNT;
		return test_dm_by_ethertype((uint16_t)(h[hlen - 2] << 8 | h[hlen - 1]));
	case TEST_DM_L_IPV4:
		hlen = avail > 0 ? (size_t)(h[0] & 0xf) * 4 : 20;
		if (hlen < 20 || test_dm_dec_push(d, t, hlen) < 0)
			return TEST_DM_L_COUNT;
		/* Only the first fragment carries the upper-layer header. */
		if ((h[6] & 0x1f) != 0 || h[7] != 0)
			return TEST_DM_L_PAYLOAD;
		return test_dm_by_ipproto(h[9], 0);
	case TEST_DM_L_IPV6:
		if (test_dm_dec_push(d, t, 40) < 0)
			return TEST_DM_L_COUNT;
		return test_dm_by_ipproto(h[6], 1);
	case TEST_DM_L_TCP:
		hlen = avail >= 13 ? (size_t)(h[12] >> 4) * 4 : 20;
		if (hlen < 20 || test_dm_dec_push(d, t, hlen) < 0)
			return TEST_DM_L_COUNT;
		return TEST_DM_L_PAYLOAD;
	case TEST_DM_L_UDP:
		if (test_dm_dec_push(d, t, 8) < 0)
			return TEST_DM_L_COUNT;
		if (h[2] == 0x12 && h[3] == 0xb5)	/* 4789 */
			return TEST_DM_L_VXLAN;
		if (h[2] == 0x19 && h[3] == 0xeb)	/* 6635, MPLS over UDP */
			return TEST_DM_L_MPLS;
		return TEST_DM_L_PAYLOAD;
	case TEST_DM_L_ICMP:
	case TEST_DM_L_ICMP6:
		if (test_dm_dec_push(d, t, 8) < 0)
			return TEST_DM_L_COUNT;
		return TEST_DM_L_PAYLOAD;
	case TEST_DM_L_VXLAN:
		if (test_dm_dec_push(d, t, 8) < 0)
			return TEST_DM_L_COUNT;
		return TEST_DM_L_ETH;
	case TEST_DM_L_GRE:
		hlen = avail > 0 ? 4u + 4u * ((h[0] >> 7 & 1) + (h[0] >> 5 & 1) +
					      (h[0] >> 4 & 1)) : 4;
		if (test_dm_dec_push(d, t, hlen) < 0)
			return TEST_DM_L_COUNT;
		return test_dm_by_ethertype((uint16_t)(h[2] << 8 | h[3]));
	case TEST_DM_L_MPLS:
		if (test_dm_dec_push(d, t, 4) < 0)
			return TEST_DM_L_COUNT;
		return (h[2] & 1) ? test_dm_after_mpls(d) : TEST_DM_L_MPLS;
	default:
		return TEST_DM_L_COUNT;
	}
}

void
test_dm_pkt_decode(const uint8_t *p, size_t len, struct test_dm_pkt_info *info)
{
	struct test_dm_dec d = { .p = p, .len = len, .info = info };
	enum test_dm_layer t = TEST_DM_L_ETH;

	memset(info, 0, sizeof(*info));
	while (t != TEST_DM_L_PAYLOAD && t != TEST_DM_L_COUNT)
		t = test_dm_dec_one(&d, t);
	info->payload_off = (uint16_t)d.off;
}

int
test_dm_pkt_find(const struct test_dm_pkt_info *info, enum test_dm_layer type,
		 unsigned int nth)
{
	unsigned int i;

	for (i = 0; i < info->n; i++)
		if (info->h[i].type == type && nth-- == 0)
			return (int)i;
	return -1;
}

int
test_dm_fref_parse(const char *s, size_t len, struct test_dm_fref *ref)
{
	const char *dot = memchr(s, '.', len), *br;
	size_t llen = dot != NULL ? (size_t)(dot - s) : len;
	uint64_t nth = 0;

	memset(ref, 0, sizeof(*ref));
	br = memchr(s, '[', llen);
	if (br != NULL) {
		if (s[llen - 1] != ']' ||
		    test_dm_parse_uint(br + 1, (size_t)(s + llen - 1 - (br + 1)),
				       TEST_DM_HDRS_MAX, &nth) < 0)
			return -EINVAL;
		llen = (size_t)(br - s);
	}
	ref->layer = test_dm_layer_find(s, llen);
	ref->nth = (unsigned int)nth;
	if (ref->layer == NULL || ref->layer->type == TEST_DM_L_PAYLOAD)
		return -EINVAL;
	if (dot == NULL)
		return 0;
	ref->field = test_dm_pfield_find(ref->layer, dot + 1, len - (size_t)(dot + 1 - s));
	return ref->field != NULL ? 0 : -EINVAL;
}

static int
test_dm_fref_locate(const uint8_t *p, const struct test_dm_pkt_info *info,
		    const struct test_dm_fref *ref, const struct test_dm_hdr **h)
{
	int i = test_dm_pkt_find(info, ref->layer->type, ref->nth);

	if (i < 0 || ref->field == NULL)
		return -ENOENT;
	*h = &info->h[i];
	return test_dm_pfield_bit(p, *h, ref->field);
}

int
test_dm_pkt_field_read(const uint8_t *p, const struct test_dm_pkt_info *info,
		       const struct test_dm_fref *ref, struct test_dm_fval *out)
{
	const struct test_dm_hdr *h;
	int bit = test_dm_fref_locate(p, info, ref, &h);

	if (bit < 0)
		return bit;
	memset(out, 0, sizeof(*out));
	out->kind = ref->field->kind;
	if (out->kind == TEST_DM_PK_IPV6) {
		memcpy(out->bytes, p + h->off + bit / 8, 16);
		out->nbytes = 16;
	} else {
		out->v = test_dm_bits_get(p + h->off, (unsigned int)bit, ref->field->width);
	}
	return 0;
}

int
test_dm_pkt_field_write(uint8_t *p, const struct test_dm_pkt_info *info,
			const struct test_dm_fref *ref, const struct test_dm_fval *val)
{
	const struct test_dm_hdr *h;
	int bit = test_dm_fref_locate(p, info, ref, &h);

	if (bit < 0)
		return bit;
	if (ref->field->kind == TEST_DM_PK_IPV6)
		memcpy(p + h->off + bit / 8, val->bytes, 16);
	else
		test_dm_bits_set(p + h->off, (unsigned int)bit, ref->field->width, val->v);
	return 0;
}

void
test_dm_fval_format(const struct test_dm_fval *v, char *buf, size_t size)
{
	const uint64_t x = v->v;

	switch (v->kind) {
	case TEST_DM_PK_MAC:
		snprintf(buf, size, "%02x:%02x:%02x:%02x:%02x:%02x",
			 (unsigned int)(x >> 40 & 0xff), (unsigned int)(x >> 32 & 0xff),
			 (unsigned int)(x >> 24 & 0xff), (unsigned int)(x >> 16 & 0xff),
			 (unsigned int)(x >> 8 & 0xff), (unsigned int)(x & 0xff));
		break;
	case TEST_DM_PK_IPV4:
		snprintf(buf, size, "%u.%u.%u.%u", (unsigned int)(x >> 24 & 0xff),
			 (unsigned int)(x >> 16 & 0xff), (unsigned int)(x >> 8 & 0xff),
			 (unsigned int)(x & 0xff));
		break;
	case TEST_DM_PK_IPV6:
		if (inet_ntop(AF_INET6, v->bytes, buf, (socklen_t)size) == NULL)
			snprintf(buf, size, "?");
		break;
	default:
		snprintf(buf, size, "%" PRIu64 " (0x%" PRIx64 ")", x, x);
		break;
	}
}
