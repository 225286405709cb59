/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Reference classifier: rte_flow decisions (priorities, shadowing, groups,
 * jumps, ranges, masks, VLAN handling, tunnels, metadata), the packet bytes
 * actions produce, counters, egress, and what it rejects.
 *
 * Rules are written as testpmd commands and packets in the description
 * language; expected output bytes are written as descriptions of the packet
 * that should come out.
 */

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <rte_byteorder.h>
#include <rte_common.h>

#include "test_dm_flow.h"
#include "test_dm_ref.h"

#define MAX_CMDS 64

static struct test_dm_flow_ctx fctx;
static struct test_dm_ref *ref;
static struct test_dm_flow_cmd *cmds[MAX_CMDS];
static unsigned int nb_cmds;
static struct test_dm_fate fate;
static uint8_t buf[TEST_DM_PKT_MAX];

static int
setup_ports(uint16_t nb_ports, const uint16_t *peer)
{
	struct test_dm_ref_cfg cfg;
	uint16_t p;

	test_dm_flow_ctx_init(&fctx);
	fctx.nb_rxq = 8;
	test_dm_ref_cfg_init(&cfg, nb_ports, 8);
	for (p = 0; peer != NULL && p < nb_ports; p++)
		cfg.peer[p] = peer[p];
	ref = test_dm_ref_new(&cfg);
	nb_cmds = 0;
	return ref == NULL;
}

static int
setup(void **state)
{
	(void)state;
	return setup_ports(1, NULL);
}

static int
setup_crossed(void **state)
{
	static const uint16_t peer[2] = { 1, 0 };

	(void)state;
	return setup_ports(2, peer);
}

static int
teardown(void **state)
{
	(void)state;
	test_dm_ref_free(ref);
	while (nb_cmds > 0)
		test_dm_flow_cmd_free(cmds[--nb_cmds]);
	return 0;
}

static struct test_dm_flow_cmd *
parse(const char *text)
{
	struct test_dm_flow_cmd *c = NULL;
	struct test_dm_err err;

	if (test_dm_flow_parse_str(&fctx, text, "t", 1, &c, &err) != 0)
		print_error("%s\n", err.msg);
	assert_non_null(c);
	assert_true(nb_cmds < MAX_CMDS);
	cmds[nb_cmds++] = c;
	return c;
}

static struct test_dm_ref_rule *
add(const char *text)
{
	struct test_dm_flow_cmd *c = parse(text);
	struct rte_flow_error e = { 0 };
	struct test_dm_ref_rule *r;

	r = test_dm_ref_rule_add(ref, c->port, &c->attr, c->pattern, c->actions, &e);
	if (r == NULL)
		print_error("rejected: %s\n", e.message);
	assert_non_null(r);
	return r;
}

/* The error type the classifier rejects a rule with (-1 if it accepts it). */
static int
reject(const char *text)
{
	struct test_dm_flow_cmd *c = parse(text);
	struct rte_flow_error e = { 0 };

	if (test_dm_ref_rule_add(ref, c->port, &c->attr, c->pattern, c->actions, &e) != NULL)
		return -1;
	assert_non_null(e.message);
	return e.type;
}

static int
mk(const char *desc, uint32_t index, uint8_t *out)
{
	struct test_dm_pkt_tmpl *t = NULL;
	struct test_dm_err err;
	int n;

	if (test_dm_pkt_parse_str(desc, "p", 1, &t, &err) != 0)
		print_error("%s\n", err.msg);
	assert_non_null(t);
	n = test_dm_pkt_build(t, index, out, TEST_DM_PKT_MAX);
	test_dm_pkt_tmpl_free(t);
	assert_true(n > 0);
	return n;
}

/* A "set raw_encap|raw_decap|vxlan" command: it only changes the parser's state. */
static void
set_cmd(const char *text)
{
	parse(text);
}

static const struct test_dm_fate *
send_on(uint16_t port, const char *desc, uint32_t index)
{
	int n = mk(desc, index, buf);

	assert_int_equal(test_dm_ref_send(ref, port, buf, (size_t)n, &fate), 0);
	return &fate;
}

static const struct test_dm_fate *
send_pkt(const char *desc)
{
	return send_on(0, desc, 0);
}

/* Queue of a QUEUE fate, -1 when dropped, -2 for RSS. */
static int
queue_of(const char *desc)
{
	const struct test_dm_fate *f = send_pkt(desc);

	if (f->kind == TEST_DM_FATE_DROP)
		return -1;
	return f->kind == TEST_DM_FATE_QUEUE ? f->queue : -2;
}

static void
assert_bytes(const struct test_dm_fate *f, const char *desc)
{
	uint8_t want[TEST_DM_PKT_MAX];
	int n = mk(desc, 0, want);

	assert_int_equal(f->len, n);
	assert_memory_equal(f->data, want, (size_t)n);
}

/* ---- decisions ---- */

static void
test_default_rss(void **state)
{
	const struct test_dm_fate *f;
	unsigned int q;

	(void)state;
	f = send_pkt("eth/ipv4/udp");
	assert_int_equal(f->kind, TEST_DM_FATE_RSS);
	assert_int_equal(f->default_rss, 1);
	assert_int_equal(f->nb_queues, 8);
	for (q = 0; q < 8; q++)
		assert_int_equal(f->queues[q], q);
	assert_int_equal(f->nb_chain, 0);
	assert_int_equal(f->fdir, 0);
	assert_bytes(f, "eth/ipv4/udp");
}

static void
test_priority(void **state)
{
	struct test_dm_ref_rule *lo, *hi;

	(void)state;
	lo = add("flow create 0 priority 1 ingress pattern eth / ipv4 / end "
		 "actions queue index 1 / end");
	hi = add("flow create 0 priority 0 ingress pattern eth / ipv4 / udp / end "
		 "actions queue index 2 / end");
	/* Lower value first, whatever the creation order. */
	assert_int_equal(queue_of("eth/ipv4/udp"), 2);
	assert_true(fate.chain[0] == hi);
	assert_int_equal(fate.ambiguous, 0);
	assert_int_equal(queue_of("eth/ipv4/tcp"), 1);
	assert_true(fate.chain[0] == lo);
	assert_int_equal(queue_of("eth/ipv6/udp"), -2);
	assert_int_equal(fate.default_rss, 1);
}

static void
test_equal_priority_earliest_wins(void **state)
{
	(void)state;
	add("flow create 0 ingress pattern eth / ipv4 / end actions queue index 4 / end");
	add("flow create 0 ingress pattern eth / ipv4 / udp / end actions queue index 5 / end");
	add("flow create 0 ingress pattern eth / ipv6 / end actions queue index 6 / end");
	assert_int_equal(queue_of("eth/ipv4/udp"), 4);
	/* rte_flow leaves this undefined: the fate says so. */
	assert_int_equal(fate.ambiguous, 1);
	assert_int_equal(queue_of("eth/ipv4/tcp"), 4);
	assert_int_equal(fate.ambiguous, 0);
	assert_int_equal(queue_of("eth/ipv6/tcp"), 6);
	assert_int_equal(fate.ambiguous, 0);
}

static void
test_shadowing_and_delete(void **state)
{
	struct test_dm_ref_rule *broad;

	(void)state;
	broad = add("flow create 0 ingress pattern eth / end actions drop / end");
	add("flow create 0 priority 3 ingress pattern eth / ipv4 dst is 10.0.0.2 / end "
	    "actions queue index 7 / end");
	assert_int_equal(queue_of("eth/ipv4(dst=10.0.0.2)"), -1);
	assert_int_equal(test_dm_ref_count(ref, 0), 2);
	assert_int_equal(test_dm_ref_rule_del(ref, broad), 0);
	assert_int_equal(test_dm_ref_rule_del(ref, broad), -ENOENT);
	assert_int_equal(queue_of("eth/ipv4(dst=10.0.0.2)"), 7);
	assert_int_equal(queue_of("eth/ipv4(dst=10.0.0.3)"), -2);
	test_dm_ref_flush(ref, 0);
	assert_int_equal(test_dm_ref_count(ref, 0), 0);
	assert_int_equal(queue_of("eth/ipv4(dst=10.0.0.2)"), -2);
}

static void
test_groups_and_jumps(void **state)
{
	struct test_dm_ref_rule *j, *q;

	(void)state;
	j = add("flow create 0 ingress pattern eth / ipv4 / end actions jump group 5 / end");
	q = add("flow create 0 group 5 ingress pattern eth / ipv4 / udp dst is 53 / end "
		"actions queue index 3 / end");
	/* Group 5 is reached only by the jump. */
	add("flow create 0 group 6 ingress pattern eth / end actions drop / end");
	assert_int_equal(queue_of("eth/ipv4/udp(dport=53)"), 3);
	assert_int_equal(fate.nb_chain, 2);
	assert_true(fate.chain[0] == j);
	assert_true(fate.chain[1] == q);
	/* A miss in group 5: the port's default. */
	assert_int_equal(queue_of("eth/ipv4/udp(dport=54)"), -2);
	assert_int_equal(fate.default_rss, 1);
	assert_int_equal(fate.nb_chain, 1);
	/* Not IPv4: no jump, group 0 misses, group 6 is never looked at. */
	assert_int_equal(queue_of("eth/ipv6/udp(dport=53)"), -2);
	assert_int_equal(fate.nb_chain, 0);
}

static void
test_jump_chain_and_loop(void **state)
{
	(void)state;
	add("flow create 0 ingress pattern eth / end actions jump group 1 / end");
	add("flow create 0 group 1 ingress pattern eth / end actions jump group 2 / end");
	add("flow create 0 group 2 ingress pattern eth / ipv4 / end actions jump group 1 / end");
	add("flow create 0 group 2 priority 1 ingress pattern eth / end "
	    "actions queue index 2 / end");
	assert_int_equal(queue_of("eth/ipv6"), 2);
	assert_int_equal(fate.nb_chain, 3);
	assert_int_equal(queue_of("eth/ipv4"), -1);
	assert_int_equal(fate.loop, 1);
}

static void
test_last_ranges(void **state)
{
	(void)state;
	/* With "spec" the default mask applies: it covers the IPv4 source too, whose spec
	 * is 0, so only packets from 0.0.0.0 could match. */
	add("flow create 0 ingress pattern eth / ipv4 dst spec 10.0.0.1 dst last 10.0.0.9 / "
	    "end actions queue index 1 / end");
	assert_int_equal(queue_of("eth/ipv4(dst=10.0.0.1)"), -2);
	assert_int_equal(queue_of("eth/ipv4(src=0.0.0.0,dst=10.0.0.5)"), 1);
	test_dm_ref_flush(ref, 0);

	add("flow create 0 ingress pattern eth / ipv4 dst spec 10.0.0.1 dst last 10.0.0.9 "
	    "dst mask 255.255.255.255 / udp dst spec 1000 dst last 2000 dst mask 0xffff / end "
	    "actions queue index 1 / end");
	assert_int_equal(queue_of("eth/ipv4(dst=10.0.0.1)/udp(dport=1000)"), 1);
	assert_int_equal(queue_of("eth/ipv4(dst=10.0.0.5)/udp(dport=1500)"), 1);
	assert_int_equal(queue_of("eth/ipv4(dst=10.0.0.9)/udp(dport=2000)"), 1);
	assert_int_equal(queue_of("eth/ipv4(dst=10.0.0.0)/udp(dport=1500)"), -2);
	assert_int_equal(queue_of("eth/ipv4(dst=10.0.0.10)/udp(dport=1500)"), -2);
	assert_int_equal(queue_of("eth/ipv4(dst=10.0.0.5)/udp(dport=999)"), -2);
	assert_int_equal(queue_of("eth/ipv4(dst=10.0.0.5)/udp(dport=2001)"), -2);
	test_dm_ref_flush(ref, 0);

	/* The range applies to the masked value: the third byte ranges over 1..3. */
	add("flow create 0 ingress pattern eth / ipv4 src spec 10.0.1.0 src last 10.0.3.0 "
	    "src mask 255.255.255.0 / end actions queue index 2 / end");
	assert_int_equal(queue_of("eth/ipv4(src=10.0.2.77)"), 2);
	assert_int_equal(queue_of("eth/ipv4(src=10.0.3.255)"), 2);
	assert_int_equal(queue_of("eth/ipv4(src=10.0.4.0)"), -2);
	test_dm_ref_flush(ref, 0);

	/* last equal to spec (or zero) is not a range. */
	add("flow create 0 ingress pattern eth / ipv4 ttl spec 9 ttl last 9 ttl mask 0xff / "
	    "tcp src spec 5 src last 0 src mask 0xffff / end actions queue index 3 / end");
	assert_int_equal(queue_of("eth/ipv4(ttl=9)/tcp(sport=5)"), 3);
	assert_int_equal(queue_of("eth/ipv4(ttl=9)/tcp(sport=6)"), -2);
	assert_int_equal(queue_of("eth/ipv4(ttl=10)/tcp(sport=5)"), -2);
}

static void
test_masks(void **state)
{
	(void)state;
	add("flow create 0 ingress pattern eth / ipv4 src spec 10.1.0.0 src mask 255.255.0.0 / "
	    "end actions queue index 1 / end");
	assert_int_equal(queue_of("eth/ipv4(src=10.1.200.3)"), 1);
	assert_int_equal(queue_of("eth/ipv4(src=10.2.0.0)"), -2);
	test_dm_ref_flush(ref, 0);

	/* "spec" without mask: the item's default mask (ETH: addresses, not type). */
	add("flow create 0 ingress pattern eth type spec 0x86dd dst spec 02:00:00:00:00:02 "
	    "src spec 02:00:00:00:00:01 / end actions queue index 2 / end");
	assert_int_equal(queue_of("eth/ipv4"), 2);
	assert_int_equal(queue_of("eth(dst=02:00:00:00:00:03)/ipv4"), -2);
	test_dm_ref_flush(ref, 0);

	/* VLAN's default mask is the VID: PCP differences do not matter. */
	add("flow create 0 ingress pattern eth / vlan tci spec 0x2005 / end "
	    "actions queue index 3 / end");
	assert_int_equal(queue_of("eth/vlan(vid=5,pcp=0)/ipv4"), 3);
	assert_int_equal(queue_of("eth/vlan(vid=6,pcp=1)/ipv4"), -2);
	test_dm_ref_flush(ref, 0);

	/* TCP flags under a mask: SYN set, ACK clear. */
	add("flow create 0 ingress pattern eth / ipv4 / tcp flags spec 0x02 flags mask 0x12 / "
	    "end actions queue index 4 / end");
	assert_int_equal(queue_of("eth/ipv4/tcp(flags=S)"), 4);
	assert_int_equal(queue_of("eth/ipv4/tcp(flags=SP)"), 4);
	assert_int_equal(queue_of("eth/ipv4/tcp(flags=SA)"), -2);
}

static void
test_vlan_rules(void **state)
{
	(void)state;
	add("flow create 0 ingress pattern eth / ipv4 / end actions queue index 1 / end");
	/* Tags the pattern does not name are skipped after ETH. */
	assert_int_equal(queue_of("eth/ipv4"), 1);
	assert_int_equal(queue_of("eth/vlan/ipv4"), 1);
	assert_int_equal(queue_of("eth/vlan/vlan/ipv4"), 1);
	test_dm_ref_flush(ref, 0);

	/* An EtherType given in ETH decides: only untagged IPv4. */
	add("flow create 0 ingress pattern eth type is 0x0800 / ipv4 / end "
	    "actions queue index 2 / end");
	assert_int_equal(queue_of("eth/ipv4"), 2);
	assert_int_equal(queue_of("eth/vlan/ipv4"), -2);
	test_dm_ref_flush(ref, 0);

	add("flow create 0 ingress pattern eth has_vlan is 1 / end actions queue index 3 / end");
	add("flow create 0 ingress pattern eth has_vlan is 0 / end actions queue index 4 / end");
	assert_int_equal(queue_of("eth/vlan/ipv4"), 3);
	assert_int_equal(queue_of("eth/ipv4"), 4);
	test_dm_ref_flush(ref, 0);

	/* One VLAN item: any tagged packet; has_more_vlan tells single from double tags. */
	add("flow create 0 ingress pattern eth / vlan vid is 10 has_more_vlan is 1 / end "
	    "actions queue index 5 / end");
	add("flow create 0 ingress pattern eth / vlan vid is 10 / vlan vid is 20 / ipv4 / end "
	    "actions queue index 6 / end");
	add("flow create 0 priority 1 ingress pattern eth / vlan vid is 10 / end "
	    "actions queue index 7 / end");
	assert_int_equal(queue_of("eth/vlan(vid=10)/vlan(vid=20)/ipv4"), 5);
	assert_int_equal(queue_of("eth/vlan(vid=10)/ipv4"), 7);
	assert_int_equal(queue_of("eth/ipv4"), -2);
}

static void
test_tunnels_and_layers(void **state)
{
	(void)state;
	/* A pattern starting above L2 skips the outer Ethernet and tags. */
	add("flow create 0 ingress pattern ipv4 / udp dst is 9 / end actions queue index 1 / end");
	assert_int_equal(queue_of("eth/vlan/ipv4/udp(dport=9)"), 1);
	test_dm_ref_flush(ref, 0);

	add("flow create 0 ingress pattern eth / ipv4 / udp / vxlan vni is 42 / eth / ipv6 / "
	    "tcp dst is 80 / end actions queue index 2 / end");
	assert_int_equal(queue_of("eth/ipv4/udp/vxlan(vni=42)/eth/ipv6/tcp(dport=80)"), 2);
	assert_int_equal(queue_of("eth/ipv4/udp/vxlan(vni=43)/eth/ipv6/tcp(dport=80)"), -2);
	assert_int_equal(queue_of("eth/ipv4/udp/vxlan(vni=42)/eth/ipv4/tcp(dport=80)"), -2);
	test_dm_ref_flush(ref, 0);

	add("flow create 0 ingress pattern eth / ipv4 / gre / gre_key value is 5 / end "
	    "actions queue index 3 / end");
	assert_int_equal(queue_of("eth/ipv4/gre(key=5)/ipv4"), 3);
	assert_int_equal(queue_of("eth/ipv4/gre(c=1,key=5)/ipv4"), 3);
	assert_int_equal(queue_of("eth/ipv4/gre(key=6)/ipv4"), -2);
	assert_int_equal(queue_of("eth/ipv4/gre/ipv4"), -2);
	test_dm_ref_flush(ref, 0);

	add("flow create 0 ingress pattern eth / mpls label is 100 / mpls label is 200 / "
	    "ipv4 / end actions queue index 4 / end");
	assert_int_equal(queue_of("eth/mpls(label=100)/mpls(label=200)/ipv4"), 4);
	assert_int_equal(queue_of("eth/mpls(label=100)/ipv4"), -2);
	test_dm_ref_flush(ref, 0);

	add("flow create 0 ingress pattern eth / ipv4 / icmp type is 0 / end "
	    "actions queue index 5 / end");
	add("flow create 0 ingress pattern eth / ipv6 / icmp6 type is 135 / end "
	    "actions queue index 6 / end");
	assert_int_equal(queue_of("eth/ipv4/icmp(type=0)"), 5);
	assert_int_equal(queue_of("eth/ipv4/icmp(type=8)"), -2);
	assert_int_equal(queue_of("eth/ipv6/icmp6(type=135)"), 6);
}

static void
test_metadata_across_groups(void **state)
{
	(void)state;
	add("flow create 0 ingress pattern eth / ipv4 / udp / end actions "
	    "set_tag data 0x55 index 2 mask 0xff / set_meta data 0xa0 mask 0xf0 / "
	    "mark id 7 / jump group 1 / end");
	add("flow create 0 group 1 ingress pattern tag data is 0x55 index is 2 / "
	    "meta data spec 0xa0 data mask 0xf0 / mark id is 7 / end actions queue index 1 / end");
	add("flow create 0 group 1 priority 1 ingress pattern eth / end actions "
	    "queue index 2 / end");
	assert_int_equal(queue_of("eth/ipv4/udp"), 1);
	assert_int_equal(fate.mark, 7);
	assert_int_equal(fate.fdir_id, 1);
	assert_int_equal(fate.tags[2], 0x55);
	assert_int_equal(fate.meta, 0xa0);
	test_dm_ref_flush(ref, 0);

	add("flow create 0 ingress pattern eth / end actions set_tag data 3 index 1 mask 0xff / "
	    "jump group 1 / end");
	add("flow create 0 group 1 ingress pattern tag data is 4 index is 1 / end "
	    "actions queue index 1 / end");
	assert_int_equal(queue_of("eth/ipv4/udp"), -2);
}

static void
test_mark_and_flag(void **state)
{
	(void)state;
	add("flow create 0 ingress pattern eth / ipv4 / end actions mark id 0x1234 / "
	    "queue index 1 / end");
	add("flow create 0 ingress pattern eth / ipv6 / end actions flag / queue index 2 / end");
	add("flow create 0 ingress pattern eth / vlan / end actions mark id 9 / jump group 1 / "
	    "end");
	assert_int_equal(queue_of("eth/ipv4"), 1);
	assert_int_equal(fate.fdir, 1);
	assert_int_equal(fate.fdir_id, 1);
	assert_int_equal(fate.mark, 0x1234);
	assert_int_equal(queue_of("eth/ipv6"), 2);
	assert_int_equal(fate.fdir, 1);
	assert_int_equal(fate.fdir_id, 0);
	/* Marked, then a miss in group 1: delivered by default RSS, mark kept. */
	assert_int_equal(queue_of("eth/vlan"), -2);
	assert_int_equal(fate.fdir_id, 1);
	assert_int_equal(fate.mark, 9);
}

/* ---- output bytes ---- */

static void
test_header_rewrites(void **state)
{
	(void)state;
	add("flow create 0 ingress pattern eth / ipv4 / udp / end actions dec_ttl / "
	    "set_ipv4_src ipv4_addr 1.2.3.4 / set_tp_dst port 99 / "
	    "set_mac_dst mac_addr 0a:00:00:00:00:0b / set_ipv4_dscp dscp_value 10 / "
	    "queue index 0 / end");
	assert_bytes(send_pkt("eth/ipv4(ttl=64,tos=1)/udp(dport=5)/payload(10)"),
		     "eth(dst=0a:00:00:00:00:0b)/ipv4(ttl=63,src=1.2.3.4,dscp=10,ecn=1)/"
		     "udp(dport=99)/payload(10)");
	/* A zero UDP checksum stays zero. */
	assert_bytes(send_pkt("eth/ipv4/udp(cksum=0)"),
		     "eth(dst=0a:00:00:00:00:0b)/ipv4(ttl=63,src=1.2.3.4,dscp=10)/"
		     "udp(dport=99,cksum=0)");
	test_dm_ref_flush(ref, 0);

	add("flow create 0 ingress pattern eth / ipv6 / tcp / end actions set_ttl ttl_value 3 / "
	    "set_ipv6_dst ipv6_addr fd00::99 / inc_tcp_seq value 10 / dec_tcp_ack value 1 / "
	    "set_tp_src port 7 / queue index 0 / end");
	assert_bytes(send_pkt("eth/ipv6/tcp(seq=0xfffffff8,ack=0)"),
		     "eth/ipv6(hlim=3,dst=fd00::99)/tcp(sport=7,seq=2,ack=0xffffffff)");
	test_dm_ref_flush(ref, 0);

	/* TTL 0 wraps. */
	add("flow create 0 ingress pattern eth / ipv4 / end actions dec_ttl / queue index 0 / "
	    "end");
	assert_bytes(send_pkt("eth/ipv4(ttl=0)/icmp"), "eth/ipv4(ttl=255)/icmp");
}

static void
test_vlan_actions(void **state)
{
	(void)state;
	add("flow create 0 ingress pattern eth / ipv4 / end actions "
	    "of_push_vlan ethertype 0x8100 / of_set_vlan_vid vlan_vid 100 / "
	    "of_set_vlan_pcp vlan_pcp 5 / queue index 0 / end");
	assert_bytes(send_pkt("eth/ipv4/udp"), "eth/vlan(vid=100,pcp=5)/ipv4/udp");
	/* Pushing on a tagged packet copies the outer tag (OpenFlow). */
	assert_bytes(send_pkt("eth/vlan(vid=7,pcp=1)/ipv4/udp"),
		     "eth/vlan(vid=100,pcp=5)/vlan(vid=7,pcp=1)/ipv4/udp");
	test_dm_ref_flush(ref, 0);

	add("flow create 0 ingress pattern eth / vlan / end actions of_pop_vlan / "
	    "queue index 0 / end");
	assert_bytes(send_pkt("eth/vlan(vid=3)/ipv6/udp"), "eth/ipv6/udp");
	assert_bytes(send_pkt("eth/vlan(vid=3)/vlan(vid=4)/ipv6/udp"), "eth/vlan(vid=4)/ipv6/udp");
}

static void
test_vxlan_decap_encap(void **state)
{
	(void)state;
	add("flow create 0 ingress pattern eth / ipv4 / udp / vxlan / eth / end actions "
	    "vxlan_decap / queue index 1 / end");
	assert_bytes(send_pkt("eth/ipv4/udp/vxlan(vni=5)/eth(src=00:00:00:00:00:99)/ipv6/tcp"),
		     "eth(src=00:00:00:00:00:99)/ipv6/tcp");
	test_dm_ref_flush(ref, 0);

	set_cmd("set vxlan ip-version ipv4 vni 42 udp-src 1000 udp-dst 4789 "
				"ip-src 1.1.1.1 ip-dst 2.2.2.2 eth-src 00:00:00:00:00:0a "
				"eth-dst 00:00:00:00:00:0b");
	add("flow create 0 ingress pattern eth / end actions vxlan_encap / queue index 2 / end");
	/* Outer lengths and checksum filled in, TTL 64 by default, UDP checksum 0. */
	assert_bytes(send_pkt("eth/ipv6/udp/payload(4)"),
		     "eth(dst=00:00:00:00:00:0b,src=00:00:00:00:00:0a)/"
		     "ipv4(src=1.1.1.1,dst=2.2.2.2,ttl=64)/udp(sport=1000,cksum=0)/vxlan(vni=42)/"
		     "eth/ipv6/udp/payload(4)");
	test_dm_ref_flush(ref, 0);

	/* raw_decap then raw_encap: L3 tunnel to L2 (list order). */
	set_cmd("set raw_decap 1 eth / ipv4 / udp / vxlan / eth / end_set");
	set_cmd("set raw_encap 1 eth dst is 00:00:00:00:00:01 "
				"src is 00:00:00:00:00:02 type is 0x0800 / end_set");
	add("flow create 0 ingress pattern eth / ipv4 / udp / vxlan / end actions "
	    "raw_decap index 1 / raw_encap index 1 / queue index 3 / end");
	assert_bytes(send_pkt("eth/ipv4/udp/vxlan/eth/ipv4(ttl=9)/udp"),
		     "eth(dst=00:00:00:00:00:01,src=00:00:00:00:00:02)/ipv4(ttl=9)/udp");
}

static void
test_raw_encap_lengths(void **state)
{
	(void)state;
	set_cmd("set raw_encap 0 eth / ipv6 / udp / vxlan vni is 3 / end_set");
	add("flow create 0 egress pattern eth / end actions raw_encap / end");
	/* Sent on port 0, encapsulated on egress, received on port 0 (loop). */
	assert_bytes(send_pkt("eth/ipv4/tcp/payload(20)"),
		     "eth(dst=00:00:00:00:00:00,src=00:00:00:00:00:00)/"
		     "ipv6(src=::,dst=::,hlim=0)/udp(sport=0,dport=4789,cksum=0)/vxlan(vni=3)/"
		     "eth/ipv4/tcp/payload(20)");
	assert_int_equal(fate.default_rss, 1);
}

static void
test_modify_field(void **state)
{
	(void)state;
	/* TTL += 5 (value laid out like the field: one byte). */
	add("flow create 0 ingress pattern eth / ipv4 / end actions modify_field op add "
	    "dst_type ipv4_ttl src_type value src_value 05 width 8 / queue index 0 / end");
	assert_bytes(send_pkt("eth/ipv4(ttl=10)/udp"), "eth/ipv4(ttl=15)/udp");
	test_dm_ref_flush(ref, 0);

	/* Third byte of the destination MAC := 0x85 (rte_flow.rst's example). */
	add("flow create 0 ingress pattern eth / end actions modify_field op set "
	    "dst_type mac_dst dst_offset 16 src_type value src_value 0x000085000000 width 8 / "
	    "queue index 0 / end");
	assert_bytes(send_pkt("eth(dst=11:22:33:44:55:66)/ipv4"),
		     "eth(dst=11:22:85:44:55:66)/ipv4");
	test_dm_ref_flush(ref, 0);

	/* Copy the low 16 bits of the IPv4 source into the UDP destination port. */
	add("flow create 0 ingress pattern eth / ipv4 / udp / end actions modify_field op set "
	    "dst_type udp_port_dst src_type ipv4_src src_offset 16 width 16 / queue index 0 / end");
	assert_bytes(send_pkt("eth/ipv4(src=10.0.1.2)/udp(dport=7)"),
		     "eth/ipv4(src=10.0.1.2)/udp(dport=0x0102)");
	test_dm_ref_flush(ref, 0);

	/* VLAN ID -= 1 (12-bit arithmetic wraps), then into a tag used in group 1. */
	add("flow create 0 ingress pattern eth / vlan / end actions modify_field op sub "
	    "dst_type vlan_id src_type value src_value 0001 width 12 / modify_field op set "
	    "dst_type tag dst_level 1 dst_offset 20 src_type vlan_id width 12 / "
	    "jump group 1 / end");
	add("flow create 0 group 1 ingress pattern tag data is 0xfff index is 1 / end "
	    "actions queue index 6 / end");
	assert_int_equal(queue_of("eth/vlan(vid=0)/ipv4"), 6);
	assert_bytes(&fate, "eth/vlan(vid=4095)/ipv4");
	assert_int_equal(queue_of("eth/vlan(vid=1)/ipv4"), -2);
	assert_int_equal(fate.tags[1], 0);
}

/* ---- counters ---- */

static void
test_counters(void **state)
{
	struct rte_flow_query_count q = { 0 };
	struct test_dm_ref_rule *c, *nc;
	struct rte_flow_error e;

	(void)state;
	c = add("flow create 0 ingress pattern eth / ipv4 / end actions count / "
		"queue index 1 / end");
	nc = add("flow create 0 ingress pattern eth / ipv6 / end actions queue index 2 / end");
	send_pkt("eth/ipv4/udp/payload(10)");
	send_pkt("eth/ipv4/tcp");
	send_pkt("eth/ipv6/tcp");
	assert_int_equal(test_dm_ref_query(ref, c, &q, &e), 0);
	assert_int_equal(q.hits, 2);
	assert_int_equal(q.bytes, (14 + 20 + 8 + 10) + (14 + 20 + 20));
	assert_int_equal(q.hits_set, 1);
	q.reset = 1;
	assert_int_equal(test_dm_ref_query(ref, c, &q, &e), 0);
	q.reset = 0;
	assert_int_equal(test_dm_ref_query(ref, c, &q, &e), 0);
	assert_int_equal(q.hits, 0);
	assert_int_equal(test_dm_ref_query(ref, nc, &q, &e), -ENOTSUP);
	assert_int_equal(e.type, RTE_FLOW_ERROR_TYPE_ACTION);
	test_dm_ref_flush(ref, 0);

	/* COUNT counts the packet as it is at that point of the list. */
	c = add("flow create 0 ingress pattern eth / ipv4 / udp / vxlan / end actions "
		"vxlan_decap / count / queue index 0 / end");
	send_pkt("eth/ipv4/udp/vxlan/eth/ipv6/payload(2)");
	assert_int_equal(test_dm_ref_query(ref, c, &q, &e), 0);
	assert_int_equal(q.hits, 1);
	assert_int_equal(q.bytes, 14 + 40 + 2);
}

/* ---- egress and the wire ---- */

static void
test_egress(void **state)
{
	struct test_dm_ref_rule *eg;
	struct rte_flow_query_count q = { 0 };
	struct rte_flow_error e;

	(void)state;
	/* Port 0 and 1 are wired to each other. */
	eg = add("flow create 0 egress pattern eth / ipv4 / udp dst is 7 / end actions count / "
		 "drop / end");
	add("flow create 1 ingress pattern eth / ipv4 / end actions queue index 5 / end");
	add("flow create 0 ingress pattern eth / ipv4 / end actions queue index 6 / end");
	send_on(0, "eth/ipv4/udp(dport=7)", 0);
	assert_int_equal(fate.kind, TEST_DM_FATE_DROP);
	assert_int_equal(fate.dropped_on_egress, 1);
	send_on(0, "eth/ipv4/udp(dport=8)", 0);
	assert_int_equal(fate.kind, TEST_DM_FATE_QUEUE);
	assert_int_equal(fate.port, 1);
	assert_int_equal(fate.queue, 5);
	send_on(1, "eth/ipv4/udp(dport=7)", 0);
	assert_int_equal(fate.port, 0);
	assert_int_equal(fate.queue, 6);
	assert_int_equal(test_dm_ref_query(ref, eg, &q, &e), 0);
	assert_int_equal(q.hits, 1);

	/* Egress rewrite seen by the peer's ingress rules. */
	test_dm_ref_flush(ref, 0);
	add("flow create 1 egress pattern eth / ipv4 / end actions set_ipv4_dst "
	    "ipv4_addr 9.9.9.9 / end");
	add("flow create 0 ingress priority 0 pattern eth / ipv4 dst is 9.9.9.9 / end "
	    "actions queue index 7 / end");
	send_on(1, "eth/ipv4/udp", 0);
	assert_int_equal(fate.queue, 7);
	assert_bytes(&fate, "eth/ipv4(dst=9.9.9.9)/udp");
	assert_int_equal(test_dm_ref_send(ref, 2, buf, 60, &fate), -EINVAL);
}

/*
 * An E-Switch (ports by number, as test_dm_topo.h's roles are for cases):
 * 0 the PF, 1 and 2 VF 0's and VF 1's representors, 3 and 4 their
 * functions, 5 the wire cabled to the PF.
 */
static int
setup_switch(void **state)
{
	static const uint16_t peer[6] = { 5, 1, 2, 3, 4, 0 };
	struct test_dm_ref_cfg cfg;

	(void)state;
	test_dm_flow_ctx_init(&fctx);
	fctx.nb_rxq = 8;
	test_dm_ref_cfg_init(&cfg, 6, 8);
	memcpy(cfg.peer, peer, sizeof(peer));
	cfg.role[0] = TEST_DM_REF_PF;
	cfg.role[1] = TEST_DM_REF_REP;
	cfg.role[2] = TEST_DM_REF_REP;
	cfg.vf[2] = 1;
	cfg.role[3] = TEST_DM_REF_VF;
	cfg.role[4] = TEST_DM_REF_VF;
	cfg.vf[4] = 1;
	ref = test_dm_ref_new(&cfg);
	nb_cmds = 0;
	return ref == NULL;
}

static void
test_switch(void **state)
{
	struct rte_flow_query_count q = { 0 };
	struct test_dm_ref_rule *counted;
	struct rte_flow_error e;

	(void)state;
	/* Misses: to the source's representor, the PF for the wire. */
	send_on(3, "eth/ipv4/udp", 0);
	assert_int_equal(fate.fdb_miss, 1);
	assert_int_equal(fate.port, 1);
	send_on(4, "eth/ipv4/udp", 0);
	assert_int_equal(fate.port, 2);
	send_on(5, "eth/ipv4/udp", 0);
	assert_int_equal(fate.port, 0);
	/* VF 0 to the wire (rule made on a representor: one FDB), wire to VF 1, VF 1 dropped. */
	counted = add("flow create 1 transfer pattern represented_port ethdev_port_id is 1 / eth / "
		      "end actions count / represented_port ethdev_port_id 0 / end");
	add("flow create 0 transfer pattern represented_port ethdev_port_id is 0 / eth / ipv4 / "
	    "udp / vxlan / end actions vxlan_decap / represented_port ethdev_port_id 2 / end");
	add("flow create 0 transfer pattern port_id id is 2 / eth / end actions drop / end");
	send_on(3, "eth/ipv4/udp", 0);
	assert_int_equal(fate.fdb_miss, 0);
	assert_int_equal(fate.port, 5);
	assert_bytes(&fate, "eth/ipv4/udp");
	send_on(5, "eth/ipv4/udp/vxlan/eth(src=02:00:00:00:00:99)/ipv6/tcp", 0);
	assert_int_equal(fate.port, 4);
	assert_bytes(&fate, "eth(src=02:00:00:00:00:99)/ipv6/tcp");
	send_on(4, "eth/ipv4/udp", 0);
	assert_int_equal(fate.kind, TEST_DM_FATE_DROP);
	assert_int_equal(fate.dropped_in_fdb, 1);
	assert_int_equal(test_dm_ref_query(ref, counted, &q, &e), 0);
	assert_int_equal(q.hits, 1);
	/* PORT_REPRESENTOR: the port itself; the representor's own frame goes to its VF. */
	add("flow create 0 transfer priority 1 pattern eth / end actions port_representor "
	    "port_id 2 / end");
	send_on(5, "eth/ipv6/udp", 0);
	assert_int_equal(fate.port, 2);
	send_on(2, "eth/ipv6/udp", 0);
	assert_int_equal(fate.port, 2);
	test_dm_ref_flush(ref, 0);
	test_dm_ref_flush(ref, 1);
	send_on(2, "eth/ipv6/udp", 0);
	assert_int_equal(fate.port, 4);
	/* Refused: not a switch port, another switch's port, NIC-only actions, no fate. */
	assert_int_equal(reject("flow create 3 transfer pattern eth / end actions drop / end"),
			 RTE_FLOW_ERROR_TYPE_ATTR_TRANSFER);
	assert_int_equal(reject("flow create 0 transfer pattern represented_port ethdev_port_id "
				"is 5 / end actions drop / end"), RTE_FLOW_ERROR_TYPE_ITEM_SPEC);
	assert_int_equal(reject("flow create 0 transfer pattern eth / end actions "
				"represented_port ethdev_port_id 3 / end"),
			 RTE_FLOW_ERROR_TYPE_ACTION_CONF);
	assert_int_equal(reject("flow create 0 transfer pattern eth / end actions queue index 0 / "
				"end"), RTE_FLOW_ERROR_TYPE_ACTION);
	assert_int_equal(reject("flow create 0 transfer pattern eth / end actions count / end"),
			 RTE_FLOW_ERROR_TYPE_ACTION);
	assert_int_equal(reject("flow create 1 ingress pattern represented_port ethdev_port_id "
				"is 1 / end actions drop / end"), RTE_FLOW_ERROR_TYPE_ITEM);
}

/* ---- validation ---- */

static void
test_rejections(void **state)
{
	(void)state;
	assert_int_equal(reject("flow create 0 transfer pattern end actions drop / end"),
			 RTE_FLOW_ERROR_TYPE_ATTR_TRANSFER);
	assert_int_equal(reject("flow create 0 pattern end actions drop / end"),
			 RTE_FLOW_ERROR_TYPE_ATTR);
	assert_int_equal(reject("flow create 0 ingress egress pattern end actions drop / end"),
			 RTE_FLOW_ERROR_TYPE_ATTR_EGRESS);
	assert_int_equal(reject("flow create 1 ingress pattern end actions drop / end"),
			 RTE_FLOW_ERROR_TYPE_UNSPECIFIED);
	assert_int_equal(reject("flow create 0 ingress pattern eth / end actions count / end"),
			 RTE_FLOW_ERROR_TYPE_ACTION);
	assert_int_equal(reject("flow create 0 ingress pattern eth / end actions drop / "
				"queue index 1 / end"), RTE_FLOW_ERROR_TYPE_ACTION);
	assert_int_equal(reject("flow create 0 ingress pattern eth / end actions "
				"queue index 8 / end"), RTE_FLOW_ERROR_TYPE_ACTION_CONF);
	assert_int_equal(reject("flow create 0 ingress pattern eth / end actions "
				"rss queues 1 9 end / end"), RTE_FLOW_ERROR_TYPE_ACTION_CONF);
	assert_int_equal(reject("flow create 0 ingress pattern eth / end actions "
				"rss queues end / end"), RTE_FLOW_ERROR_TYPE_ACTION_CONF);
	assert_int_equal(reject("flow create 0 group 2 ingress pattern eth / end actions "
				"jump group 2 / end"), RTE_FLOW_ERROR_TYPE_ACTION_CONF);
	assert_int_equal(reject("flow create 0 ingress pattern eth / end actions "
				"set_ipv4_src ipv4_addr 1.1.1.1 / drop / end"),
			 RTE_FLOW_ERROR_TYPE_ACTION);
	assert_int_equal(reject("flow create 0 ingress pattern eth / ipv4 / end actions "
				"vxlan_decap / drop / end"), RTE_FLOW_ERROR_TYPE_ACTION);
	assert_int_equal(reject("flow create 0 ingress pattern eth / ipv4 / end actions "
				"of_set_vlan_vid vlan_vid 5 / drop / end"),
			 RTE_FLOW_ERROR_TYPE_ACTION);
	assert_int_equal(reject("flow create 0 ingress pattern eth / vlan / end actions "
				"of_set_vlan_vid vlan_vid 5000 / drop / end"),
			 RTE_FLOW_ERROR_TYPE_ACTION_CONF);
	assert_int_equal(reject("flow create 0 egress pattern eth / end actions "
				"queue index 1 / end"), RTE_FLOW_ERROR_TYPE_ACTION);
	assert_int_equal(reject("flow create 0 egress pattern eth / end actions mark id 1 / end"),
			 RTE_FLOW_ERROR_TYPE_ACTION);
	assert_int_equal(reject("flow create 0 ingress pattern eth / ipv4 dst mask 1.2.3.4 / end "
				"actions drop / end"), RTE_FLOW_ERROR_TYPE_ITEM_MASK);
	assert_int_equal(reject("flow create 0 ingress pattern eth / ipv4 ttl spec 9 "
				"ttl last 3 ttl mask 0xff / end actions drop / end"),
			 RTE_FLOW_ERROR_TYPE_ITEM_LAST);
	assert_int_equal(reject("flow create 0 ingress pattern eth / ipv4 / gre_key value is 1 / "
				"end actions drop / end"), RTE_FLOW_ERROR_TYPE_ITEM);
	assert_int_equal(reject("flow create 0 ingress pattern tag data is 1 index is 9 / end "
				"actions drop / end"), RTE_FLOW_ERROR_TYPE_ITEM_SPEC);
	assert_int_equal(reject("flow create 0 ingress pattern eth / ipv4 / end actions "
				"modify_field op set dst_type ipv4_ttl src_type value "
				"src_value 01 width 9 / drop / end"),
			 RTE_FLOW_ERROR_TYPE_ACTION_CONF);
	assert_int_equal(reject("flow create 0 ingress pattern eth / end actions "
				"modify_field op set dst_type gtp_teid src_type value width 8 / "
				"drop / end"), RTE_FLOW_ERROR_TYPE_ACTION_CONF);
	assert_int_equal(reject("flow create 0 ingress pattern eth / end actions "
				"set_tag data 1 index 8 mask 1 / drop / end"),
			 RTE_FLOW_ERROR_TYPE_ACTION_CONF);
	assert_int_equal(reject("flow create 0 ingress pattern eth / end actions "
				"of_push_vlan ethertype 0x0800 / drop / end"),
			 RTE_FLOW_ERROR_TYPE_ACTION_CONF);
	/* Nothing was added by the rejected rules. */
	assert_int_equal(test_dm_ref_count(ref, 0), 0);
	/* Accepted: egress without a fate goes to the wire; a fate-less push on a VLAN. */
	assert_int_equal(reject("flow create 0 egress pattern eth / end actions count / end"), -1);
	assert_int_equal(reject("flow create 0 ingress pattern eth / end actions of_push_vlan "
				"ethertype 0x88a8 / of_set_vlan_vid vlan_vid 5 / drop / end"), -1);
}


/* ---- random rule sets against a plain evaluation ---- */

struct r5 {
	uint32_t prio;
	uint32_t src, src_mask;
	uint32_t dst_lo, dst_hi;
	uint16_t dport, dport_mask;
	uint16_t queue;
	struct rte_flow_item_ipv4 ip[3];	/* spec, last, mask */
	struct rte_flow_item_udp udp[2];	/* spec, mask */
	struct rte_flow_action_queue q;
	struct rte_flow_item pattern[4];
	struct rte_flow_action actions[2];
	struct rte_flow_attr attr;
};

static uint64_t rnd_state = 0x9e3779b97f4a7c15ULL;

static uint32_t
rnd(uint32_t n)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return (uint32_t)(rnd_state % n);
}

static uint32_t
rnd_mask32(void)
{
	uint32_t len = rnd(33);

	return len == 0 ? 0 : UINT32_MAX << (32 - len);
}

/* Rules built as rte_flow structures directly (not through the parser). */
static void
r5_make(struct r5 *r)
{
	memset(r, 0, sizeof(*r));
	r->prio = rnd(4);
	r->src = 0x0a000000 | rnd(16) << 8 | rnd(16);
	r->src_mask = rnd(3) == 0 ? 0 : (rnd(2) ? 0xffffffff : 0xffff0000 | rnd_mask32() >> 16);
	r->dst_lo = 0x0a000100 + rnd(16);
	r->dst_hi = r->dst_lo + rnd(8);
	r->dport = (uint16_t)(1000 + rnd(8));
	r->dport_mask = rnd(2) ? 0xffff : (rnd(2) ? 0xfffc : 0);
	r->queue = (uint16_t)rnd(8);
	r->ip[0].hdr.src_addr = rte_cpu_to_be_32(r->src);
	r->ip[0].hdr.dst_addr = rte_cpu_to_be_32(r->dst_lo);
	r->ip[1].hdr.dst_addr = rte_cpu_to_be_32(r->dst_hi);
	r->ip[2].hdr.src_addr = rte_cpu_to_be_32(r->src_mask);
	r->ip[2].hdr.dst_addr = RTE_BE32(0xffffffff);
	r->udp[0].hdr.dst_port = rte_cpu_to_be_16(r->dport);
	r->udp[1].hdr.dst_port = rte_cpu_to_be_16(r->dport_mask);
	r->q.index = r->queue;
	r->pattern[0].type = RTE_FLOW_ITEM_TYPE_ETH;
	r->pattern[1] = (struct rte_flow_item){ RTE_FLOW_ITEM_TYPE_IPV4, &r->ip[0], &r->ip[1],
						&r->ip[2] };
	r->pattern[2] = (struct rte_flow_item){ RTE_FLOW_ITEM_TYPE_UDP, &r->udp[0], NULL,
						&r->udp[1] };
	r->pattern[3].type = RTE_FLOW_ITEM_TYPE_END;
	r->actions[0] = (struct rte_flow_action){ RTE_FLOW_ACTION_TYPE_QUEUE, &r->q };
	r->actions[1].type = RTE_FLOW_ACTION_TYPE_END;
	r->attr.priority = r->prio;
	r->attr.ingress = 1;
}

static int
r5_match(const struct r5 *r, uint32_t src, uint32_t dst, uint16_t dport)
{
	return (src & r->src_mask) == (r->src & r->src_mask) &&
	       dst >= r->dst_lo && dst <= r->dst_hi &&
	       (dport & r->dport_mask) == (r->dport & r->dport_mask);
}

static void
test_random_rule_sets(void **state)
{
	enum { RULES = 24, PACKETS = 400, ROUNDS = 8 };
	static struct r5 rules[RULES];
	struct rte_flow_error e;
	unsigned int round, i, k, best, ties, hits = 0;
	uint8_t p[42];

	(void)state;
	for (round = 0; round < ROUNDS; round++) {
		test_dm_ref_flush(ref, 0);
		for (i = 0; i < RULES; i++) {
			r5_make(&rules[i]);
			assert_non_null(test_dm_ref_rule_add(ref, 0, &rules[i].attr,
							     rules[i].pattern, rules[i].actions,
							     &e));
		}
		for (k = 0; k < PACKETS; k++) {
			uint32_t src = 0x0a000000 | rnd(16) << 8 | rnd(16);
			uint32_t dst = 0x0a000100 + rnd(24);
			uint16_t dport = (uint16_t)(1000 + rnd(8));

			/* eth / ipv4 / udp; checksums do not matter to matching. */
			memset(p, 0, sizeof(p));
			p[12] = 0x08;
			p[14] = 0x45;
			p[23] = 17;
			p[26] = (uint8_t)(src >> 24);
			p[27] = (uint8_t)(src >> 16);
			p[28] = (uint8_t)(src >> 8);
			p[29] = (uint8_t)src;
			p[30] = (uint8_t)(dst >> 24);
			p[31] = (uint8_t)(dst >> 16);
			p[32] = (uint8_t)(dst >> 8);
			p[33] = (uint8_t)dst;
			p[36] = (uint8_t)(dport >> 8);
			p[37] = (uint8_t)dport;
			assert_int_equal(test_dm_ref_send(ref, 0, p, sizeof(p), &fate), 0);
			/* Lowest priority value, then creation order. */
			best = RULES;
			ties = 0;
			for (i = 0; i < RULES; i++) {
				if (!r5_match(&rules[i], src, dst, dport))
					continue;
				if (best == RULES || rules[i].prio < rules[best].prio) {
					best = i;
					ties = 0;
				} else if (rules[i].prio == rules[best].prio) {
					ties++;
				}
			}
			if (best == RULES) {
				assert_int_equal(fate.kind, TEST_DM_FATE_RSS);
				assert_int_equal(fate.default_rss, 1);
				continue;
			}
			hits++;
			assert_int_equal(fate.kind, TEST_DM_FATE_QUEUE);
			assert_int_equal(fate.queue, rules[best].queue);
			assert_int_equal(fate.ambiguous, ties != 0);
		}
	}
	/* The sets are dense enough for the comparison to mean something. */
	assert_true(hits > ROUNDS * PACKETS / 10);
	assert_true(hits < ROUNDS * PACKETS);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_default_rss, setup, teardown),
		cmocka_unit_test_setup_teardown(test_priority, setup, teardown),
		cmocka_unit_test_setup_teardown(test_equal_priority_earliest_wins, setup, teardown),
		cmocka_unit_test_setup_teardown(test_shadowing_and_delete, setup, teardown),
		cmocka_unit_test_setup_teardown(test_groups_and_jumps, setup, teardown),
		cmocka_unit_test_setup_teardown(test_jump_chain_and_loop, setup, teardown),
		cmocka_unit_test_setup_teardown(test_last_ranges, setup, teardown),
		cmocka_unit_test_setup_teardown(test_masks, setup, teardown),
		cmocka_unit_test_setup_teardown(test_vlan_rules, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tunnels_and_layers, setup, teardown),
		cmocka_unit_test_setup_teardown(test_metadata_across_groups, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mark_and_flag, setup, teardown),
		cmocka_unit_test_setup_teardown(test_header_rewrites, setup, teardown),
		cmocka_unit_test_setup_teardown(test_vlan_actions, setup, teardown),
		cmocka_unit_test_setup_teardown(test_vxlan_decap_encap, setup, teardown),
		cmocka_unit_test_setup_teardown(test_raw_encap_lengths, setup, teardown),
		cmocka_unit_test_setup_teardown(test_modify_field, setup, teardown),
		cmocka_unit_test_setup_teardown(test_counters, setup, teardown),
		cmocka_unit_test_setup_teardown(test_egress, setup_crossed, teardown),
		cmocka_unit_test_setup_teardown(test_switch, setup_switch, teardown),
		cmocka_unit_test_setup_teardown(test_rejections, setup, teardown),
		cmocka_unit_test_setup_teardown(test_random_rule_sets, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
