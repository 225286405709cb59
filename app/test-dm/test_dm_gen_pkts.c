/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Random packets, from the value pools the rules use: Ethernet (maybe a
 * VLAN tag, maybe MPLS), IPv4 or IPv6, TCP/UDP/ICMP, sometimes a VXLAN or
 * GRE tunnel with inner headers. The payload (56 bytes or more) makes every
 * frame at least 64 bytes (no device padding to guess) and ends with the
 * packet's tag.
 */

#include <errno.h>

#include "test_dm_gen_priv.h"
#include "test_dm_tag.h"

static void
test_dm_pkt_l3(struct test_dm_rng *r, struct test_dm_sb *sb, int v)
{
	const struct test_dm_pool *ip = v == 4 ? &test_dm_pool_ip4 : &test_dm_pool_ip6;

	test_dm_sb_add(sb, "/ipv%d(src=%s,dst=%s,%s=%s)", v, test_dm_pick(r, ip),
		       test_dm_pick(r, ip), v == 4 ? "ttl" : "hlim",
		       test_dm_pick(r, &test_dm_pool_ttl));
}

/* @return 'U' when a UDP header was written (a VXLAN may follow). */
static int
test_dm_pkt_l4(struct test_dm_rng *r, struct test_dm_sb *sb, int v, int icmp)
{
	unsigned int k = test_dm_rng_below(r, icmp ? 10 : 9);

	if (k == 9) {
		/* The types and codes the rules pick from (test_dm_gen_l4), and one they do not. */
		static const unsigned int t4[] = { 8, 0, 3 }, t6[] = { 128, 129, 1 };
		unsigned int t = (v == 4 ? t4 : t6)[test_dm_rng_below(r, 3)];

		test_dm_sb_add(sb, "/%s(type=%u,code=%u)", v == 4 ? "icmp" : "icmp6", t,
			       test_dm_rng_below(r, 5));
		return 'I';
	}
	if (k == 8)
		return 0;
	if (k < 4) {
		test_dm_sb_add(sb, "/tcp(sport=%s,dport=%s,flags=%s)",
			       test_dm_pick(r, &test_dm_pool_port),
			       test_dm_pick(r, &test_dm_pool_port),
			       test_dm_pick(r, &test_dm_pool_tcpflags));
		return 'T';
	}
	/* Ports 1024..1039 are a rule range: hit it and miss it. */
	if (test_dm_rng_pct(r, 15))
		test_dm_sb_add(sb, "/udp(sport=%s,dport=%u)", test_dm_pick(r, &test_dm_pool_port),
			       1020 + test_dm_rng_below(r, 24));
	else
		test_dm_sb_add(sb, "/udp(sport=%s,dport=%s)", test_dm_pick(r, &test_dm_pool_port),
			       test_dm_pick(r, &test_dm_pool_port));
	return 'U';
}

static void
test_dm_pkt_eth(struct test_dm_rng *r, struct test_dm_sb *sb, const char *sep)
{
	test_dm_sb_add(sb, "%seth(dst=%s,src=%s)", sep, test_dm_pick(r, &test_dm_pool_mac),
		       test_dm_pick(r, &test_dm_pool_mac));
}

static void
test_dm_pkt_tunnel(struct test_dm_rng *r, struct test_dm_sb *sb)
{
	int in;

	if (test_dm_rng_pct(r, 60)) {
		test_dm_sb_add(sb, "/udp(sport=%s,dport=4789)/vxlan(vni=%s)",
			       test_dm_pick(r, &test_dm_pool_port),
			       test_dm_pick(r, &test_dm_pool_vni));
		test_dm_pkt_eth(r, sb, "/");
	} else if (test_dm_rng_pct(r, 20)) {
		/* MPLS over UDP (port 6635), an IP packet behind the label. */
		test_dm_sb_add(sb, "/udp(sport=%s,dport=6635)/mpls(label=%s)",
			       test_dm_pick(r, &test_dm_pool_port),
			       test_dm_pick(r, &test_dm_pool_label));
	} else {
		if (test_dm_rng_pct(r, 50))
			test_dm_sb_add(sb, "/gre(key=%s)", test_dm_pick(r, &test_dm_pool_grekey));
		else
			test_dm_sb_add(sb, "/gre()");
		/* MPLS over GRE. */
		if (test_dm_rng_pct(r, 25))
			test_dm_sb_add(sb, "/mpls(label=%s)",
				       test_dm_pick(r, &test_dm_pool_label));
	}
	in = test_dm_rng_pct(r, 70) ? 4 : 6;
	test_dm_pkt_l3(r, sb, in);
	test_dm_pkt_l4(r, sb, in, 0);
}

int
test_dm_gen_packet(struct test_dm_gen *g, uint32_t index, char *buf, size_t size)
{
	struct test_dm_rng *r = &g->pkts;
	unsigned int pad = 56 + test_dm_rng_below(r, 32), i;
	uint8_t tag[TEST_DM_TAG_LEN];
	struct test_dm_sb sb;
	int v;

	test_dm_sb_init(&sb, buf, size);
	test_dm_pkt_eth(r, &sb, "");
	if (test_dm_rng_pct(r, 20))
		test_dm_sb_add(&sb, "/vlan(vid=%s)", test_dm_pick(r, &test_dm_pool_vid));
	if (test_dm_rng_pct(r, 4)) {
		test_dm_sb_add(&sb, "/mpls(label=%s)", test_dm_pick(r, &test_dm_pool_label));
		test_dm_pkt_l3(r, &sb, 4);
		test_dm_pkt_l4(r, &sb, 4, 0);
	} else if (test_dm_rng_pct(r, 95)) {
		v = test_dm_rng_pct(r, 70) ? 4 : 6;
		test_dm_pkt_l3(r, &sb, v);
		if (test_dm_rng_pct(r, 25))
			test_dm_pkt_tunnel(r, &sb);
		else
			test_dm_pkt_l4(r, &sb, v, 1);
	}
	/* Zero padding, then the tag: part of the payload, so checksums cover it. */
	test_dm_tag_write(tag + TEST_DM_TAG_LEN, index);
	test_dm_sb_add(&sb, "/payload(hex=");
	for (i = 0; i < pad - TEST_DM_TAG_LEN; i++)
		test_dm_sb_add(&sb, "00");
	for (i = 0; i < TEST_DM_TAG_LEN; i++)
		test_dm_sb_add(&sb, "%02x", tag[i]);
	test_dm_sb_add(&sb, ")");
	return test_dm_sb_end(&sb);
}
