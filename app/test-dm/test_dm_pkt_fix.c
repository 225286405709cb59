/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Length and checksum repair, as a NIC does after rewriting headers or
 * inserting encapsulation headers (used by the reference classifier).
 */

#include <string.h>

#include <rte_ip.h>

#include "test_dm_bits.h"
#include "test_dm_cksum.h"
#include "test_dm_pkt.h"

void
test_dm_pkt_fix_ipv4_cksum(uint8_t *ip)
{
	size_t hlen = (size_t)(ip[0] & 0xf) * 4;

	ip[10] = 0;
	ip[11] = 0;
	test_dm_bits_set(ip, 80, 16, test_dm_cksum_fold(test_dm_cksum_add(0, ip, hlen)));
}

/* Bytes from @p off to the end of what IP header @p ip carries (bounded by len). */
static size_t
test_dm_ip_payload_end(const uint8_t *p, size_t len, const struct test_dm_hdr *ip)
{
	const uint8_t *h = p + ip->off;
	size_t end;

	if (ip->type == TEST_DM_L_IPV4)
		end = ip->off + (size_t)(h[2] << 8 | h[3]);
	else
		end = ip->off + 40 + (size_t)(h[4] << 8 | h[5]);
	return end < len ? end : len;
}

void
test_dm_pkt_fix_l4_cksum(uint8_t *p, size_t len, const struct test_dm_pkt_info *info,
			 unsigned int ip, unsigned int l4)
{
	const struct test_dm_hdr *h = &info->h[l4];
	uint8_t *l = p + h->off;
	size_t end = test_dm_ip_payload_end(p, len, &info->h[ip]), seg;
	unsigned int ck;
	uint8_t proto;
	uint16_t sum;

	if (end <= h->off)
		return;
	seg = end - h->off;
	switch (h->type) {
	case TEST_DM_L_TCP:
		ck = 16;
		proto = IPPROTO_TCP;
		break;
	case TEST_DM_L_UDP:
		/* Zero means the sender did not compute one: keep it so. */
		if (l[6] == 0 && l[7] == 0)
			return;
		ck = 6;
		proto = IPPROTO_UDP;
		break;
	case TEST_DM_L_ICMP6:
		ck = 2;
		proto = IPPROTO_ICMPV6;
		break;
	case TEST_DM_L_ICMP:
		l[2] = 0;
		l[3] = 0;
		test_dm_bits_set(l, 16, 16, test_dm_cksum_fold(test_dm_cksum_add(0, l, seg)));
		return;
	default:
		return;
	}
	l[ck] = 0;
	l[ck + 1] = 0;
	sum = test_dm_cksum_l4(p + info->h[ip].off, l, seg, proto);
	if (sum == 0 && h->type == TEST_DM_L_UDP)
		sum = 0xffff;
	test_dm_bits_set(l, ck * 8, 16, sum);
}

void
test_dm_pkt_fix_lengths(uint8_t *p, size_t len, const struct test_dm_pkt_info *info,
			unsigned int first, unsigned int last)
{
	unsigned int i;

	for (i = first; i <= last && i < info->n; i++) {
		const struct test_dm_hdr *h = &info->h[i];
		uint8_t *b = p + h->off;
		size_t rest = len - h->off;

		switch (h->type) {
		case TEST_DM_L_IPV4:
			test_dm_bits_set(b, 16, 16, rest);
			test_dm_pkt_fix_ipv4_cksum(b);
			break;
		case TEST_DM_L_IPV6:
			test_dm_bits_set(b, 32, 16, rest - 40);
			break;
		case TEST_DM_L_UDP:
			test_dm_bits_set(b, 32, 16, rest);
			break;
		default:
			break;
		}
	}
}
