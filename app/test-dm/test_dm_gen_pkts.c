/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Random packets, from the value pools the rules use: Ethernet (maybe a
 * C-tag, an S-tag, an S-tag then a C-tag or two C-tags; maybe MPLS), IPv4
 * (sometimes a first, middle or last fragment) or IPv6 (sometimes with a
 * fragment header), TCP/UDP/ICMP, sometimes a VXLAN or GRE tunnel with
 * inner headers. The payload (56 bytes or more) makes every frame at
 * least 64 bytes (no device padding to guess) and ends with the packet's
 * tag.
 */

#include <errno.h>

#include "test_dm_gen_priv.h"
#include "test_dm_tag.h"

/* The IP header, frag its extra fields (a fragment: test_dm_pkt_frag(), ",nh=44"). */
static void
test_dm_pkt_l3(struct test_dm_rng *r, struct test_dm_string *sb, int v, const char *frag)
{
	const struct test_dm_pool *ip = v == 4 ? &test_dm_pool_ip4 : &test_dm_pool_ip6;

	test_dm_string_add(sb, "/ipv%d(src=%s,dst=%s,%s=%s%s)", v, test_dm_pick(r, ip),
			   test_dm_pick(r, ip), v == 4 ? "ttl" : "hlim",
			   test_dm_pick(r, &test_dm_pool_ttl), frag);
}

/*
 * IPv4 fragment fields: "" (no fragment), a first fragment (an L4 header
 * follows, *later = 0) or a middle or last one (*later = 1: the protocol is
 * given, payload follows).
 */
static const char *
test_dm_pkt_frag(struct test_dm_rng *r, int *later)
{
	static const char *const first = ",mf=1";
	static const char *const rest[] = {
		",mf=1,frag=185,proto=17", ",frag=370,proto=17", ",mf=1,frag=3,proto=6",
		",frag=1480,proto=6", ",frag=100,proto=1",
	};

	*later = 0;
	if (!test_dm_rng_pct(r, 8))
		return "";
	if (test_dm_rng_pct(r, 40))
		return first;
	*later = 1;
	return rest[test_dm_rng_below(r, RTE_DIM(rest))];
}

/* @return 'U' when a UDP header was written (a VXLAN may follow). */
static int
test_dm_pkt_l4(struct test_dm_rng *r, struct test_dm_string *sb, int v, int icmp)
{
	unsigned int k = test_dm_rng_below(r, icmp ? 10 : 9);

	if (k == 9) {
		/* The types and codes the rules pick from (test_dm_gen_l4), and one they do not. */
		static const unsigned int t4[] = { 8, 0, 3 }, t6[] = { 128, 129, 1 };
		unsigned int t = (v == 4 ? t4 : t6)[test_dm_rng_below(r, 3)];

		test_dm_string_add(sb, "/%s(type=%u,code=%u)", v == 4 ? "icmp" : "icmp6", t,
				   test_dm_rng_below(r, 5));
		return 'I';
	}
	if (k == 8)
		return 0;
	if (k < 4) {
		test_dm_string_add(sb, "/tcp(sport=%s,dport=%s,flags=%s)",
				   test_dm_pick(r, &test_dm_pool_port),
				   test_dm_pick(r, &test_dm_pool_port),
				   test_dm_pick(r, &test_dm_pool_tcpflags));
		return 'T';
	}
	/* Ports 1024..1039 are a rule range: hit it and miss it. */
	if (test_dm_rng_pct(r, 15))
		test_dm_string_add(sb, "/udp(sport=%s,dport=%u)",
				   test_dm_pick(r, &test_dm_pool_port),
				   1020 + test_dm_rng_below(r, 24));
	else
		test_dm_string_add(sb, "/udp(sport=%s,dport=%s)",
				   test_dm_pick(r, &test_dm_pool_port),
				   test_dm_pick(r, &test_dm_pool_port));
	return 'U';
}

static void
test_dm_pkt_eth(struct test_dm_rng *r, struct test_dm_string *sb, const char *sep)
{
	test_dm_string_add(sb, "%seth(dst=%s,src=%s)", sep, test_dm_pick(r, &test_dm_pool_mac),
			   test_dm_pick(r, &test_dm_pool_mac));
}

static void
test_dm_pkt_tunnel(struct test_dm_rng *r, struct test_dm_string *sb)
{
	int in;

	if (test_dm_rng_pct(r, 60)) {
		test_dm_string_add(sb, "/udp(sport=%s,dport=4789)/vxlan(vni=%s)",
				   test_dm_pick(r, &test_dm_pool_port),
				   test_dm_pick(r, &test_dm_pool_vni));
		test_dm_pkt_eth(r, sb, "/");
	} else if (test_dm_rng_pct(r, 20)) {
		/* MPLS over UDP (port 6635), an IP packet behind the label. */
		test_dm_string_add(sb, "/udp(sport=%s,dport=6635)/mpls(label=%s)",
				   test_dm_pick(r, &test_dm_pool_port),
				   test_dm_pick(r, &test_dm_pool_label));
	} else {
		if (test_dm_rng_pct(r, 50))
			test_dm_string_add(sb, "/gre(key=%s)",
					   test_dm_pick(r, &test_dm_pool_grekey));
		else
			test_dm_string_add(sb, "/gre()");
		/* MPLS over GRE. */
		if (test_dm_rng_pct(r, 25))
			test_dm_string_add(sb, "/mpls(label=%s)",
					   test_dm_pick(r, &test_dm_pool_label));
	}
	in = test_dm_rng_pct(r, 70) ? 4 : 6;
	test_dm_pkt_l3(r, sb, in, "");
	test_dm_pkt_l4(r, sb, in, 0);
}

/* No tag, a C-tag, an S-tag, an S-tag then a C-tag, or two C-tags. */
static void
test_dm_pkt_vlans(struct test_dm_rng *r, struct test_dm_string *sb)
{
	unsigned int k = test_dm_rng_below(r, 100);

	test_dm_string_add(sb, "eth(dst=%s,src=%s%s)", test_dm_pick(r, &test_dm_pool_mac),
			   test_dm_pick(r, &test_dm_pool_mac),
			   k >= 12 && k < 20 ? ",type=0x88a8" : "");
	if (k < 22)
		test_dm_string_add(sb, "/vlan(vid=%s)", test_dm_pick(r, &test_dm_pool_vid));
	if (k >= 17 && k < 22)
		test_dm_string_add(sb, "/vlan(vid=%s)", test_dm_pick(r, &test_dm_pool_vid));
}

int
test_dm_gen_packet(struct test_dm_gen *g, uint32_t index, char *buf, size_t size)
{
	struct test_dm_rng *r = &g->pkts;
	unsigned int pad = 56 + test_dm_rng_below(r, 32), i;
	uint8_t tag[TEST_DM_TAG_LEN];
	const char *frag = "";
	struct test_dm_string sb;
	int v, later = 0, frag6 = 0;

	test_dm_string_init(&sb, buf, size);
	test_dm_pkt_vlans(r, &sb);
	if (test_dm_rng_pct(r, 4)) {
		test_dm_string_add(&sb, "/mpls(label=%s)", test_dm_pick(r, &test_dm_pool_label));
		test_dm_pkt_l3(r, &sb, 4, "");
		test_dm_pkt_l4(r, &sb, 4, 0);
	} else if (test_dm_rng_pct(r, 95)) {
		v = test_dm_rng_pct(r, 70) ? 4 : 6;
		if (v == 4)
			frag = test_dm_pkt_frag(r, &later);
		else
			frag6 = test_dm_rng_pct(r, 5);
		test_dm_pkt_l3(r, &sb, v, frag6 ? ",nh=44" : frag);
		/* A later fragment carries the rest of the datagram: payload. */
		if (!later && !frag6) {
			if (frag[0] == '\0' && test_dm_rng_pct(r, 25))
				test_dm_pkt_tunnel(r, &sb);
			else
				test_dm_pkt_l4(r, &sb, v, 1);
		}
	}
	/* Zero padding, then the tag: part of the payload, so checksums cover it. */
	test_dm_tag_write(tag + TEST_DM_TAG_LEN, index);
	test_dm_string_add(&sb, "/payload(hex=");
	/* An IPv6 fragment header (next header UDP, first fragment or at offset 1480). */
	if (frag6)
		test_dm_string_add(&sb, "1100%s00000007", test_dm_rng_pct(r, 50) ? "0001" : "05c8");
	for (i = 0; i < pad - TEST_DM_TAG_LEN; i++)
		test_dm_string_add(&sb, "00");
	for (i = 0; i < TEST_DM_TAG_LEN; i++)
		test_dm_string_add(&sb, "%02x", tag[i]);
	test_dm_string_add(&sb, ")");
	return test_dm_string_end(&sb);
}
