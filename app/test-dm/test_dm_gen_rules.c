/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Random rules: a pattern (outer L2/L3/L4, maybe a VXLAN or GRE tunnel with
 * inner headers, maybe MPLS after ETH, GRE or UDP, maybe metadata items in
 * later groups), then actions: COUNT first, header changes in the order
 * net_mlx5dm applies them (decap, VLAN pop, field changes -- SET_*, TTL, TCP
 * seq/ack arithmetic, MODIFY_FIELD -- VLAN push, encap), then mark/flag and
 * register writes, and a fate: QUEUE, RSS, DROP (only without header changes) or JUMP to a
 * higher group; egress rules may have no fate (the packet goes on to the
 * wire). Every header change refers to a header the pattern names.
 * Transfer rules (cfg.transfer) match what a port of the switch sent (or
 * anything), change headers, and go to a port of the switch, are dropped or
 * jump; only a rule matching what a VF or a representor sent may send to
 * the uplink, which is looped: no frame goes round the wire for ever.
 */

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "test_dm_gen_priv.h"

/* The headers a pattern names, at the level header changes apply to. */
struct test_dm_shape {
	int ingress;
	int transfer;		/**< A transfer rule (ingress is 0). */
	int from_vf;		/**< Transfer: matches what a VF or a representor sent. */
	const char *port;	/**< With the switch's rules: the port's name ("pf", "vf0"...). */
	int rep;		/**< A representor's rule (group 0, QUEUE or DROP, MARK). */
	uint32_t group;
	int eth;		/**< Outer ETH. */
	int vlan;
	int l3;			/**< 0, 4 or 6 */
	int l4;			/**< 0, 'T'cp, 'U'dp, 'I'cmp */
	int vxlan;
	int gre;
	int in_eth;		/**< Inner ETH (after VXLAN). */
	int in_l3;
	int in_l4;
	int mpls;
	int decap;		/**< VXLAN_DECAP: changes apply to the inner headers. */
	int changes;		/**< Header changes in the action list. */
	int regs;		/**< Register writes (SET_TAG, SET_META). */
	unsigned int narrow;	/**< test_dm_gen_narrowness() of the pattern. */
};

/* Priority bands by narrowness, and room for a rule's pattern and actions. */
#define TEST_DM_GEN_BANDS 32u
#define TEST_DM_GEN_BODY 1024
/* Narrowness a pattern needs to drop packets (broad drops would eat the traffic). */
#define TEST_DM_GEN_DROP_NARROW 5u

const char *const test_dm_gen_preamble[] = {
	"set vxlan ip-version ipv4 vni 42 udp-src 4000 udp-dst 4789 ip-src 10.9.0.1 "
	"ip-dst 10.9.0.2 eth-src 02:00:00:00:00:0a eth-dst 02:00:00:00:00:0b",
	NULL,
};

/* ---- pattern ---- */

/* @return 1 when the item matches IPv4 fragments only: nothing can follow it. */
static int
test_dm_gen_l3(struct test_dm_gen *g, struct test_dm_string *sb, int v)
{
	struct test_dm_rng *r = &g->rules;
	int frag = 0;

	if (v == 4) {
		test_dm_string_add(sb, "ipv4");
		/* Fragments, or no fragment, matched explicitly. */
		if (test_dm_rng_pct(r, 6)) {
			frag = test_dm_rng_pct(r, 50);
			test_dm_string_add(sb,
					   " fragment_offset spec %d%s fragment_offset mask 0x3fff",
					   frag, frag ? " fragment_offset last 0x3fff" : "");
		}
		if (test_dm_rng_pct(r, 30))
			test_dm_string_add(sb, " src is %s", test_dm_pick(r, &test_dm_pool_ip4));
		if (test_dm_rng_pct(r, 15))
			test_dm_string_add(sb, " dst spec 10.0.0.0 dst prefix %u",
					   test_dm_rng_pct(r, 50) ? 24 : 30);
		else if (test_dm_rng_pct(r, 30))
			test_dm_string_add(sb, " dst is %s", test_dm_pick(r, &test_dm_pool_ip4));
		if (test_dm_rng_pct(r, 15))
			test_dm_string_add(sb, " ttl is %s", test_dm_pick(r, &test_dm_pool_ttl));
	} else {
		test_dm_string_add(sb, "ipv6");
		if (test_dm_rng_pct(r, 30))
			test_dm_string_add(sb, " src is %s", test_dm_pick(r, &test_dm_pool_ip6));
		if (test_dm_rng_pct(r, 30))
			test_dm_string_add(sb, " dst is %s", test_dm_pick(r, &test_dm_pool_ip6));
	}
	test_dm_string_add(sb, " / ");
	return frag;
}

/* A UDP item before VXLAN or MPLS: the tunnel implies its destination port. */
static void
test_dm_gen_vxlan_udp(struct test_dm_gen *g, struct test_dm_string *sb)
{
	struct test_dm_rng *r = &g->rules;

	test_dm_string_add(sb, "udp");
	if (test_dm_rng_pct(r, 20))
		test_dm_string_add(sb, " src is %s", test_dm_pick(r, &test_dm_pool_port));
	test_dm_string_add(sb, " / ");
}

/* An L4 item for an L3 of version @p v: 'T', 'U', 'I' or 0 (none). */
static int
test_dm_gen_l4(struct test_dm_gen *g, struct test_dm_string *sb, int v, int allow_icmp)
{
	struct test_dm_rng *r = &g->rules;
	unsigned int k = test_dm_rng_below(r, allow_icmp ? 10 : 9);

	if (k < 3)
		return 0;
	if (k == 9) {
		test_dm_string_add(sb, "%s", v == 4 ? "icmp" : "icmp6");
		/* Echo request/reply, or destination unreachable with a code. */
		if (test_dm_rng_pct(r, 50)) {
			int echo_request = test_dm_rng_pct(r, 50);

			test_dm_string_add(sb, " type is %u", v == 4 ? (echo_request ? 8 : 0) :
					   (echo_request ? 128 : 129));
		}
		if (test_dm_rng_pct(r, 20))
			test_dm_string_add(sb, " code is %u", test_dm_rng_below(r, 4));
		test_dm_string_add(sb, " / ");
		return 'I';
	}
	if (k < 6) {
		test_dm_string_add(sb, "tcp");
		if (test_dm_rng_pct(r, 20))
			test_dm_string_add(sb, " flags is %s",
					   test_dm_pick(r, &test_dm_pool_tcpflags));
	} else {
		test_dm_string_add(sb, "udp");
	}
	if (test_dm_rng_pct(r, 30))
		test_dm_string_add(sb, " src is %s", test_dm_pick(r, &test_dm_pool_port));
	/* A range a mask can express: 1024..1039. */
	if (test_dm_rng_pct(r, 10))
		test_dm_string_add(sb, " dst spec 1024 dst last 1039 dst mask 0xffff");
	else if (test_dm_rng_pct(r, 35))
		test_dm_string_add(sb, " dst is %s", test_dm_pick(r, &test_dm_pool_port));
	test_dm_string_add(sb, " / ");
	return k < 6 ? 'T' : 'U';
}

static void
test_dm_gen_tunnel(struct test_dm_gen *g, struct test_dm_string *sb, struct test_dm_shape *s)
{
	struct test_dm_rng *r = &g->rules;

	if (s->vxlan) {
		test_dm_string_add(sb, "vxlan");
		if (test_dm_rng_pct(r, 60))
			test_dm_string_add(sb, " vni is %s", test_dm_pick(r, &test_dm_pool_vni));
		test_dm_string_add(sb, " / ");
		if (!test_dm_rng_pct(r, 60))
			return;
		s->in_eth = 1;
		test_dm_string_add(sb, "eth");
		if (test_dm_rng_pct(r, 30))
			test_dm_string_add(sb, " src is %s", test_dm_pick(r, &test_dm_pool_mac));
		test_dm_string_add(sb, " / ");
	} else {
		test_dm_string_add(sb, "gre / ");
		if (test_dm_rng_pct(r, 30))
			test_dm_string_add(sb, "gre_key value is %s / ",
					   test_dm_pick(r, &test_dm_pool_grekey));
		/* MPLS over GRE: the label right behind GRE, nothing after it. */
		if (test_dm_rng_pct(r, 25)) {
			s->mpls = 1;
			test_dm_string_add(sb, "mpls label is %s / ",
					   test_dm_pick(r, &test_dm_pool_label));
			return;
		}
	}
	if (!test_dm_rng_pct(r, 60))
		return;
	s->in_l3 = test_dm_rng_pct(r, 70) ? 4 : 6;
	if (!test_dm_gen_l3(g, sb, s->in_l3))
		s->in_l4 = test_dm_gen_l4(g, sb, s->in_l3, 0);
}

static void
test_dm_gen_l2(struct test_dm_gen *g, struct test_dm_string *sb, struct test_dm_shape *s)
{
	struct test_dm_rng *r = &g->rules;

	s->eth = 1;
	s->vlan = test_dm_rng_pct(r, 20);
	test_dm_string_add(sb, "eth");
	if (test_dm_rng_pct(r, 20))
		test_dm_string_add(sb, " dst is %s", test_dm_pick(r, &test_dm_pool_mac));
	if (test_dm_rng_pct(r, 15))
		test_dm_string_add(sb, " src is %s", test_dm_pick(r, &test_dm_pool_mac));
	/* A tag of either kind (C 0x8100 or S 0x88a8), or one named by its TPID; or none. */
	if (s->vlan && test_dm_rng_pct(r, 25))
		test_dm_string_add(sb, " type is %s", test_dm_rng_pct(r, 50) ? "0x88a8" : "0x8100");
	if (test_dm_rng_pct(r, 10))
		test_dm_string_add(sb, " has_vlan is %d", s->vlan || test_dm_rng_pct(r, 50));
	test_dm_string_add(sb, " / ");
	if (s->vlan) {
		test_dm_string_add(sb, "vlan");
		if (test_dm_rng_pct(r, 70))
			test_dm_string_add(sb, " vid is %s", test_dm_pick(r, &test_dm_pool_vid));
		if (test_dm_rng_pct(r, 15))
			test_dm_string_add(sb, " has_more_vlan is %d", test_dm_rng_pct(r, 50));
		test_dm_string_add(sb, " / ");
	}
}

/* Metadata items, meaningful in groups after the rules that set them. */
static void
test_dm_gen_meta_items(struct test_dm_gen *g, struct test_dm_string *sb,
		       const struct test_dm_shape *s)
{
	struct test_dm_rng *r = &g->rules;

	if (s->group == 0 || !test_dm_rng_pct(r, 40))
		return;
	switch (test_dm_rng_below(r, s->ingress ? 3 : 1)) {
	case 0:
		test_dm_string_add(sb, "meta data is %s / ", test_dm_pick(r, &test_dm_pool_data));
		break;
	case 1:
		test_dm_string_add(sb, "tag data is %s index is %u / ",
				   test_dm_pick(r, &test_dm_pool_data), test_dm_rng_below(r, 4));
		break;
	default:
		test_dm_string_add(sb, "mark id is %s / ", test_dm_pick(r, &test_dm_pool_data));
		break;
	}
}

/* The switch's ports a transfer rule names. */
static const char *const test_dm_gen_switch_ports[] = { "pf", "rep0", "rep1" };

/*
 * A transfer rule's traffic source: what the uplink (pf) or a VF (its
 * representor) sent, what a representor port sent, or any traffic.
 */
static void
test_dm_gen_source(struct test_dm_gen *g, struct test_dm_string *sb, struct test_dm_shape *s)
{
	struct test_dm_rng *r = &g->rules;
	unsigned int k = test_dm_rng_below(r, 100);

	if (k < 70) {
		k = test_dm_rng_below(r, 10);
		test_dm_string_add(sb, "represented_port ethdev_port_id is %s / ",
				   test_dm_gen_switch_ports[k < 4 ? 0 : k < 7 ? 1 : 2]);
		s->from_vf = k >= 4;
	} else if (k < 80) {
		test_dm_string_add(sb, "port_representor port_id is rep%u / ",
				   test_dm_rng_below(r, 2));
		s->from_vf = 1;
	}
}

static void
test_dm_gen_pattern(struct test_dm_gen *g, struct test_dm_string *sb, struct test_dm_shape *s)
{
	struct test_dm_rng *r = &g->rules;

	test_dm_string_add(sb, "pattern ");
	if (s->transfer)
		test_dm_gen_source(g, sb, s);
	if (test_dm_rng_pct(r, 80))
		test_dm_gen_l2(g, sb, s);
	if (s->eth && !s->vlan && test_dm_rng_pct(r, 4)) {
		s->mpls = 1;
		test_dm_string_add(sb, "mpls label is %s / ", test_dm_pick(r, &test_dm_pool_label));
	} else if (!s->eth || test_dm_rng_pct(r, 85)) {
		s->l3 = test_dm_rng_pct(r, 70) ? 4 : 6;
		if (test_dm_gen_l3(g, sb, s->l3)) {
			/* Fragments only: no L4 header to match, no tunnel. */
		} else if (test_dm_rng_pct(r, 10)) {
			s->gre = 1;
		} else if (test_dm_rng_pct(r, 12)) {
			s->vxlan = 1;
			s->l4 = 'U';
			test_dm_gen_vxlan_udp(g, sb);
		} else if (test_dm_rng_pct(r, 5)) {
			/* MPLS over UDP: the label implies destination port 6635. */
			s->mpls = 1;
			s->l4 = 'U';
			test_dm_gen_vxlan_udp(g, sb);
			test_dm_string_add(sb, "mpls label is %s / ",
					   test_dm_pick(r, &test_dm_pool_label));
		} else {
			s->l4 = test_dm_gen_l4(g, sb, s->l3, 1);
		}
		if (s->vxlan || s->gre)
			test_dm_gen_tunnel(g, sb, s);
	}
	if (!s->transfer)
		test_dm_gen_meta_items(g, sb, s);
	test_dm_string_add(sb, "end ");
}

/* ---- actions ---- */

/* Field changes of the headers at the level the actions see. */
static void
test_dm_gen_modify(struct test_dm_gen *g, struct test_dm_string *sb, struct test_dm_shape *s)
{
	struct test_dm_rng *r = &g->rules;
	int eth = s->decap ? s->in_eth : s->eth;
	int l3 = s->decap ? s->in_l3 : s->l3, l4 = s->decap ? s->in_l4 : s->l4;
	unsigned int n = 1 + test_dm_rng_below(r, 3), i, kind, done = 0;

	/* Up to n changes of different kinds (one write per field). */
	for (i = 0; i < n; i++) {
		kind = test_dm_rng_below(r, 6);
		if (done & 1u << kind)
			continue;
		done |= 1u << kind;
		switch (kind) {
		case 0:
			if (!eth)
				continue;
			/* MODIFY_FIELD only where its level 0 (outermost) is the level changed. */
			if (!s->decap && test_dm_rng_pct(r, 25))
				test_dm_string_add(sb, "modify_field op set dst_type mac_dst "
						   "src_type mac_src width 48 / ");
			else
				test_dm_string_add(sb, "set_mac_%s mac_addr %s / ",
						   test_dm_rng_pct(r, 50) ? "src" : "dst",
						   test_dm_pick(r, &test_dm_pool_mac));
			break;
		case 1:
		case 2:
			if (l3 == 0)
				continue;
			test_dm_string_add(sb, "set_ipv%d_%s ipv%d_addr %s / ", l3,
					   kind == 1 ? "src" : "dst", l3,
					   test_dm_pick(r, l3 == 4 ? &test_dm_pool_ip4 :
							&test_dm_pool_ip6));
			break;
		case 3:
			if (l3 == 0)
				continue;
			if (!s->decap && test_dm_rng_pct(r, 25))
				test_dm_string_add(sb, "modify_field op %s dst_type %s src_type "
						   "value src_value %02x width 8 / ",
						   test_dm_rng_pct(r, 50) ? "add" : "sub",
						   l3 == 4 ? "ipv4_ttl" : "ipv6_hoplimit",
						   1 + test_dm_rng_below(r, 16));
			else if (test_dm_rng_pct(r, 50))
				test_dm_string_add(sb, "dec_ttl / ");
			else
				test_dm_string_add(sb, "set_ttl ttl_value %s / ",
						   test_dm_pick(r, &test_dm_pool_ttl));
			break;
		case 4:
			if (l4 != 'T' && l4 != 'U')
				continue;
			if (l4 == 'T' && test_dm_rng_pct(r, 25))
				/* TCP sequence/acknowledgement arithmetic (wraps). */
				test_dm_string_add(sb, "%s_tcp_%s value %u / ",
						   test_dm_rng_pct(r, 50) ? "inc" : "dec",
						   test_dm_rng_pct(r, 50) ? "seq" : "ack",
						   test_dm_rng_below(r, 0x20000));
			else if (!s->decap && test_dm_rng_pct(r, 20))
				test_dm_string_add(sb, "modify_field op set dst_type %s_port_dst "
						   "src_type %s_port_src width 16 / ",
						   l4 == 'T' ? "tcp" : "udp",
						   l4 == 'T' ? "tcp" : "udp");
			else
				test_dm_string_add(sb, "set_tp_%s port %s / ",
						   test_dm_rng_pct(r, 50) ? "src" : "dst",
						   test_dm_pick(r, &test_dm_pool_port));
			break;
		default:
			if (l3 != 4)
				continue;
			test_dm_string_add(sb, "set_ipv4_dscp dscp_value %u / ",
					   test_dm_rng_below(r, 64));
			break;
		}
		s->changes = 1;
	}
}

static void
test_dm_gen_changes(struct test_dm_gen *g, struct test_dm_string *sb, struct test_dm_shape *s)
{
	struct test_dm_rng *r = &g->rules;
	int popped = 0;

	if (s->rep)
		return;
	if ((s->ingress || s->transfer) && s->vxlan && test_dm_rng_pct(r, 30)) {
		test_dm_string_add(sb, "vxlan_decap / ");
		s->decap = 1;
		s->changes = 1;
	}
	if (!s->decap && s->vlan && test_dm_rng_pct(r, 20)) {
		test_dm_string_add(sb, "of_pop_vlan / ");
		popped = 1;
		s->changes = 1;
	}
	if (test_dm_rng_pct(r, 40))
		test_dm_gen_modify(g, sb, s);
	if (!popped && (s->decap ? s->in_eth : s->eth) && test_dm_rng_pct(r, 8)) {
		test_dm_string_add(sb, "of_push_vlan ethertype 0x8100 / of_set_vlan_vid vlan_vid "
				   "%s / of_set_vlan_pcp vlan_pcp %u / ",
				   test_dm_pick(r, &test_dm_pool_vid), test_dm_rng_below(r, 8));
		s->changes = 1;
	}
	if (!s->ingress && s->eth && test_dm_rng_pct(r, 10)) {
		test_dm_string_add(sb, "vxlan_encap / ");
		s->changes = 1;
	}
}

static void
test_dm_gen_extras(struct test_dm_gen *g, struct test_dm_string *sb, struct test_dm_shape *s)
{
	struct test_dm_rng *r = &g->rules;

	/* The E-Switch has no flow tag nor registers a transfer rule may write. */
	if (s->transfer)
		return;
	if (s->ingress && test_dm_rng_pct(r, 30)) {
		if (test_dm_rng_pct(r, 75))
			test_dm_string_add(sb, "mark id %s / ",
					   test_dm_pick(r, &test_dm_pool_data));
		else
			test_dm_string_add(sb, "flag / ");
	}
	if (s->rep)
		return;
	if (s->ingress && test_dm_rng_pct(r, 15)) {
		test_dm_string_add(sb, "set_tag data %s index %u mask 0xffffffff / ",
				   test_dm_pick(r, &test_dm_pool_data), test_dm_rng_below(r, 4));
		s->regs = 1;
	}
	if (test_dm_rng_pct(r, 15)) {
		test_dm_string_add(sb, "set_meta data %s mask 0xffffffff / ",
				   test_dm_pick(r, &test_dm_pool_data));
		s->regs = 1;
	}
}

static void
test_dm_gen_rss(struct test_dm_gen *g, struct test_dm_string *sb)
{
	struct test_dm_rng *r = &g->rules;
	unsigned int q, nq = g->cfg.nb_queues, want = 2 + test_dm_rng_below(r, 3), taken = 0;

	test_dm_string_add(sb, "rss queues");
	for (q = 0; q < nq; q++) {
		/* Each remaining queue with the probability that leaves "want" on average. */
		if (taken < want && test_dm_rng_below(r, nq - q) < want - taken) {
			test_dm_string_add(sb, " %u", q);
			taken++;
		}
	}
	test_dm_string_add(sb, " end / ");
}

/* Rules of a direction: egress, ingress, transfer (the index of test_dm_gen.used). */
static unsigned int
test_dm_gen_dir(const struct test_dm_shape *s)
{
	return s->transfer ? 2 : (unsigned int)s->ingress;
}

static unsigned int
test_dm_gen_groups(const struct test_dm_gen *g, const struct test_dm_shape *s)
{
	if (s->rep)
		return 1;
	if (s->transfer)
		return g->cfg.fdb_groups;
	return s->ingress ? g->cfg.in_groups : g->cfg.out_groups;
}

/*
 * A transfer rule's port: a representor port (port_representor), or the
 * function a port represents (represented_port), the uplink (pf) only for
 * what a VF or a representor sent.
 */
static void
test_dm_gen_transfer_fate(struct test_dm_gen *g, struct test_dm_string *sb,
			  const struct test_dm_shape *s)
{
	struct test_dm_rng *r = &g->rules;

	if (test_dm_rng_pct(r, 25))
		test_dm_string_add(sb, "port_representor port_id %s / ",
				   test_dm_gen_switch_ports[test_dm_rng_below(r, 3)]);
	else
		test_dm_string_add(sb, "represented_port ethdev_port_id %s / ",
				   test_dm_gen_switch_ports[test_dm_rng_below(r, s->from_vf ? 3 : 2)
							    + !s->from_vf]);
}

static void
test_dm_gen_fate(struct test_dm_gen *g, struct test_dm_string *sb, const struct test_dm_shape *s)
{
	struct test_dm_rng *r = &g->rules;
	unsigned int groups = test_dm_gen_groups(g, s);
	unsigned int k = test_dm_rng_below(r, 100);

	if (s->group + 1 < groups && k < 30) {
		test_dm_string_add(sb, "jump group %u / ", s->group + 1 +
				   test_dm_rng_below(r, groups - s->group - 1));
		return;
	}
	/* DROP goes with no header change nor register write (net_mlx5dm refuses those). */
	if (!s->changes && !s->regs && k < 45 && s->narrow >= TEST_DM_GEN_DROP_NARROW) {
		test_dm_string_add(sb, "drop / ");
		return;
	}
	if (s->transfer) {
		test_dm_gen_transfer_fate(g, sb, s);
		return;
	}
	if (!s->ingress)
		return;
	if (k < 60 && g->cfg.nb_queues > 1 && !s->rep)
		test_dm_gen_rss(g, sb);
	else
		test_dm_string_add(sb, "queue index %u / ", test_dm_rng_below(r, g->cfg.nb_queues));
}

/* How narrow a pattern is: two points per matched field, one per item. */
static unsigned int
test_dm_gen_narrowness(const char *pattern)
{
	static const char *const marks[] = { " is ", " spec ", " / " };
	unsigned int score = 0, i;
	const char *p;

	for (i = 0; i < RTE_DIM(marks); i++)
		for (p = strstr(pattern, marks[i]); p != NULL; p = strstr(p + 1, marks[i]))
			score += i < 2 ? 2 : 1;
	return score;
}

/*
 * A priority not used yet in the rule's group (a tie has no defined winner).
 * Narrower patterns get the lower values, as in real rule sets: specific
 * rules are looked at first and broad ones catch the rest, so most rules
 * get to see packets.
 */
static unsigned int
test_dm_gen_prio(struct test_dm_gen *g, const struct test_dm_shape *s, unsigned int narrow)
{
	uint8_t *used = g->used[test_dm_gen_dir(s)] + (size_t)s->group * g->nb_prio;
	unsigned int band = g->nb_prio / TEST_DM_GEN_BANDS, p, k;

	narrow = RTE_MIN(narrow, TEST_DM_GEN_BANDS - 1u);
	p = (TEST_DM_GEN_BANDS - 1 - narrow) * band + test_dm_rng_below(&g->rules, band);
	for (k = 0; k < g->nb_prio && used[p]; k++)
		p = (p + 1) % g->nb_prio;
	used[p] = 1;
	return p;
}

/* The port of a rule of direction ingress: by name (port) with the switch's rules. */
static void
test_dm_gen_port(const struct test_dm_gen *g, struct test_dm_string *sb, const char *port,
		 int ingress)
{
	if (g->cfg.transfer != 0)
		test_dm_string_add(sb, "%s", port != NULL ? port : "pf");
	else
		test_dm_string_add(sb, "%u", ingress ? g->cfg.rx_port : g->cfg.tx_port);
}

/*
 * With the switch's rules, a NIC rule's port: the PF's or a VF's own
 * rules either way, a representor's (on what its VF sent past the FDB).
 */
static void
test_dm_gen_switch_port(struct test_dm_gen *g, struct test_dm_shape *s)
{
	unsigned int k = test_dm_rng_below(&g->rules, 100);

	if (k < 40) {
		s->port = "pf";
	} else if (k < 80) {
		s->port = k < 60 ? "vf0" : "vf1";
	} else {
		s->port = k < 90 ? "rep0" : "rep1";
		s->ingress = 1;
		s->rep = 1;
	}
}

/*
 * A 5-tuple rule (cfg.tuples) into sb: a tuple no other one took (false
 * when every one is taken), its fate DROP, RSS or QUEUE, maybe counted and
 * marked.
 */
static bool
test_dm_gen_tuple(struct test_dm_gen *g, struct test_dm_string *sb)
{
	const unsigned int ni = test_dm_pool_ip4.n, np = test_dm_pool_port.n;
	const unsigned int n = ni * ni * np * np;
	struct test_dm_rng *r = &g->rules;
	unsigned int t = test_dm_rng_below(r, n), k, f;

	for (k = 0; k < n && g->tuple_used[t]; k++)
		t = (t + 1) % n;
	if (k == n)
		return false;
	g->tuple_used[t] = 1;
	test_dm_string_add(sb, "flow create ");
	test_dm_gen_port(g, sb, NULL, 1);
	test_dm_string_add(sb, " group 1 priority 0 ingress pattern eth / ipv4 src is %s "
			   "dst is %s / udp src is %s dst is %s / end actions ",
			   test_dm_pool_ip4.v[t % ni], test_dm_pool_ip4.v[t / ni % ni],
			   test_dm_pool_port.v[t / ni / ni % np],
			   test_dm_pool_port.v[t / ni / ni / np]);
	if (test_dm_rng_pct(r, 30))
		test_dm_string_add(sb, "count / ");
	f = test_dm_rng_below(r, 100);
	if (f >= 20 && test_dm_rng_pct(r, 40))
		test_dm_string_add(sb, "mark id %s / ", test_dm_pick(r, &test_dm_pool_data));
	if (f < 20)
		test_dm_string_add(sb, "drop / ");
	else if (f < 45 && g->cfg.nb_queues > 1)
		test_dm_gen_rss(g, sb);
	else
		test_dm_string_add(sb, "queue index %u / ", test_dm_rng_below(r, g->cfg.nb_queues));
	test_dm_string_add(sb, "end");
	return true;
}

int
test_dm_gen_rule(struct test_dm_gen *g, char *buf, size_t size)
{
	struct test_dm_rng *r = &g->rules;
	struct test_dm_shape s = { .ingress = test_dm_rng_pct(r, 75) };
	char body[TEST_DM_GEN_BODY];
	struct test_dm_string sb, bb;
	unsigned int groups, k, narrow;

	/* Drawn after the direction: without tuples the stream is what it always was. */
	if (g->cfg.tuples != 0 && test_dm_rng_pct(r, g->cfg.tuples)) {
		test_dm_string_init(&sb, buf, size);
		if (test_dm_gen_tuple(g, &sb)) {
			g->nb_rules++;
			return test_dm_string_end(&sb);
		}
	}

	/* Drawn only with transfer rules: without them the stream is what it always was. */
	if (g->cfg.transfer != 0) {
		s.transfer = test_dm_rng_pct(r, g->cfg.transfer);
		if (s.transfer)
			s.ingress = 0;
		else
			test_dm_gen_switch_port(g, &s);
	}
	groups = test_dm_gen_groups(g, &s);
	/* Lower groups are busier: group k with weight groups - k. */
	s.group = test_dm_rng_below(r, groups * (groups + 1) / 2);
	for (k = groups; s.group >= k; k--)
		s.group -= k;
	s.group = groups - k;
	test_dm_string_init(&bb, body, sizeof(body));
	test_dm_gen_pattern(g, &bb, &s);
	narrow = test_dm_gen_narrowness(body);
	s.narrow = narrow;
	test_dm_string_add(&bb, "actions ");
	/* First in the list (the device counts where it counts anyway: see the reference). */
	if (test_dm_rng_pct(r, 30))
		test_dm_string_add(&bb, "count / ");
	test_dm_gen_changes(g, &bb, &s);
	test_dm_gen_extras(g, &bb, &s);
	test_dm_gen_fate(g, &bb, &s);
	test_dm_string_add(&bb, "end");
	test_dm_string_init(&sb, buf, size);
	test_dm_string_add(&sb, "flow create ");
	test_dm_gen_port(g, &sb, s.port, s.ingress || s.transfer);
	test_dm_string_add(&sb, " group %u priority %u %s %s", s.group,
			   test_dm_gen_prio(g, &s, narrow),
			   s.transfer ? "transfer" : s.ingress ? "ingress" : "egress", body);
	g->nb_rules++;
	return test_dm_string_end(&bb) < 0 ? -E2BIG : test_dm_string_end(&sb);
}
