/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * test-dm flow command parser: testpmd commands into rte_flow structures,
 * checked field by field against values written out by hand.
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
#include <rte_ethdev.h>
#include <rte_flow.h>

#include "test_dm_flow.h"

/* RTE_IPV4() shifts an int: 192 << 24 overflows (UBSan says so). */
#define IP4(a, b, c, d) \
	((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (uint32_t)(d))

static struct test_dm_flow_ctx ctx;

static struct test_dm_flow_cmd *
parse_ok(const char *text)
{
	struct test_dm_flow_cmd *cmd = NULL;
	struct test_dm_err err = { 0 };
	int ret = test_dm_flow_parse_str(&ctx, text, "t", 1, &cmd, &err);

	if (ret != 0)
		print_error("parse failed: %s\n", err.msg);
	assert_int_equal(ret, 0);
	assert_non_null(cmd);
	return cmd;
}

static int
setup(void **state)
{
	(void)state;
	test_dm_flow_ctx_init(&ctx);
	ctx.nb_rxq = 4;
	return 0;
}

static void
test_attributes(void **state)
{
	struct test_dm_flow_cmd *c;

	(void)state;
	c = parse_ok("flow create 3 group 7 priority 2 ingress pattern end actions drop / end");
	assert_int_equal(c->type, TEST_DM_FLOW_CREATE);
	assert_int_equal(c->port, 3);
	assert_int_equal(c->attr.group, 7);
	assert_int_equal(c->attr.priority, 2);
	assert_int_equal(c->attr.ingress, 1);
	assert_int_equal(c->attr.egress, 0);
	assert_int_equal(c->attr.transfer, 0);
	assert_int_equal(c->nb_items, 1);
	assert_int_equal(c->pattern[0].type, RTE_FLOW_ITEM_TYPE_END);
	assert_int_equal(c->nb_actions, 2);
	assert_int_equal(c->actions[0].type, RTE_FLOW_ACTION_TYPE_DROP);
	assert_null(c->actions[0].conf);
	assert_int_equal(c->actions[1].type, RTE_FLOW_ACTION_TYPE_END);
	test_dm_flow_cmd_free(c);

	c = parse_ok("flow validate 0 egress transfer priority 0x10 pattern end actions end");
	assert_int_equal(c->type, TEST_DM_FLOW_VALIDATE);
	assert_int_equal(c->attr.priority, 16);
	assert_int_equal(c->attr.group, 0);
	assert_int_equal(c->attr.ingress, 0);
	assert_int_equal(c->attr.egress, 1);
	assert_int_equal(c->attr.transfer, 1);
	assert_int_equal(c->nb_actions, 1);
	test_dm_flow_cmd_free(c);
}

static void
test_items_without_fields(void **state)
{
	struct test_dm_flow_cmd *c;
	unsigned int i;
	static const enum rte_flow_item_type want[] = {
		RTE_FLOW_ITEM_TYPE_ETH, RTE_FLOW_ITEM_TYPE_VLAN, RTE_FLOW_ITEM_TYPE_IPV4,
		RTE_FLOW_ITEM_TYPE_UDP, RTE_FLOW_ITEM_TYPE_VXLAN, RTE_FLOW_ITEM_TYPE_ETH,
		RTE_FLOW_ITEM_TYPE_IPV6, RTE_FLOW_ITEM_TYPE_TCP, RTE_FLOW_ITEM_TYPE_VOID,
		RTE_FLOW_ITEM_TYPE_END,
	};

	(void)state;
	c = parse_ok("flow create 0 ingress pattern eth / vlan / ipv4 / udp / vxlan / eth / "
		     "ipv6 / tcp / void / end actions queue index 0 / end");
	assert_int_equal(c->nb_items, RTE_DIM(want));
	for (i = 0; i < RTE_DIM(want); i++) {
		assert_int_equal(c->pattern[i].type, want[i]);
		/* No field given: match any header of that type. */
		assert_null(c->pattern[i].spec);
		assert_null(c->pattern[i].last);
		assert_null(c->pattern[i].mask);
	}
	test_dm_flow_cmd_free(c);
}

static void
test_eth(void **state)
{
	static const uint8_t dst[6] = { 0x02, 0, 0, 0, 0, 0x01 };
	static const uint8_t src[6] = { 0x11, 0x22, 0x33, 0x44, 0x55, 0x66 };
	static const uint8_t ones[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	static const uint8_t zero[6] = { 0 };
	const struct rte_flow_item_eth *s, *m;
	struct test_dm_flow_cmd *c;

	(void)state;
	c = parse_ok("flow create 0 ingress pattern eth dst is 02:00:00:00:00:01 "
		     "src spec 11:22:33:44:55:66 type is 0x0800 has_vlan is 0 / end "
		     "actions drop / end");
	s = c->pattern[0].spec;
	m = c->pattern[0].mask;
	assert_non_null(s);
	assert_non_null(m);
	assert_null(c->pattern[0].last);
	assert_memory_equal(s->dst.addr_bytes, dst, 6);
	assert_memory_equal(m->dst.addr_bytes, ones, 6);
	assert_memory_equal(s->src.addr_bytes, src, 6);
	/* "spec" alone leaves the mask alone. */
	assert_memory_equal(m->src.addr_bytes, zero, 6);
	assert_int_equal(s->type, RTE_BE16(0x0800));
	assert_int_equal(m->type, RTE_BE16(0xffff));
	assert_int_equal(s->has_vlan, 0);
	assert_int_equal(m->has_vlan, 1);
	test_dm_flow_cmd_free(c);
}

static void
test_vlan_subfields(void **state)
{
	const struct rte_flow_item_vlan *s, *m;
	struct test_dm_flow_cmd *c;

	(void)state;
	/* pcp = 3 in bits 15..13, dei = 1 in bit 12, vid = 5 in bits 11..0. */
	c = parse_ok("flow create 0 ingress pattern eth / vlan vid is 5 pcp is 3 dei spec 1 "
		     "inner_type is 0x86dd / vlan vid is 20 has_more_vlan is 0 / end "
		     "actions drop / end");
	assert_int_equal(c->nb_items, 4);
	s = c->pattern[1].spec;
	m = c->pattern[1].mask;
	assert_int_equal(s->tci, RTE_BE16(0x7005));
	assert_int_equal(m->tci, RTE_BE16(0xefff));
	assert_int_equal(s->inner_type, RTE_BE16(0x86dd));
	assert_int_equal(m->inner_type, RTE_BE16(0xffff));
	s = c->pattern[2].spec;
	m = c->pattern[2].mask;
	assert_int_equal(s->tci, RTE_BE16(20));
	assert_int_equal(m->tci, RTE_BE16(0x0fff));
	assert_int_equal(s->has_more_vlan, 0);
	assert_int_equal(m->has_more_vlan, 1);
	test_dm_flow_cmd_free(c);

	/* tci covers all 16 bits; vid mask given as a value of its 12 bits. */
	c = parse_ok("flow create 0 ingress pattern eth / vlan tci spec 0xe00a vid mask 0xff0 / "
		     "end actions drop / end");
	s = c->pattern[1].spec;
	m = c->pattern[1].mask;
	assert_int_equal(s->tci, RTE_BE16(0xe00a));
	assert_int_equal(m->tci, RTE_BE16(0x0ff0));
	test_dm_flow_cmd_free(c);
}

static void
test_ipv4(void **state)
{
	const struct rte_flow_item_ipv4 *s, *l, *m;
	struct test_dm_flow_cmd *c;

	(void)state;
	c = parse_ok("flow create 0 ingress pattern eth / ipv4 src is 10.1.2.3 src prefix 16 "
		     "dst spec 192.168.0.1 dst mask 255.255.255.0 ttl is 64 tos spec 4 "
		     "proto is 17 packet_id is 0x1234 fragment_offset spec 0x2000 "
		     "version_ihl is 0x45 / end actions drop / end");
	s = c->pattern[1].spec;
	m = c->pattern[1].mask;
	assert_null(c->pattern[1].last);
	assert_int_equal(s->hdr.src_addr, RTE_BE32(IP4(10, 1, 2, 3)));
	/* "prefix" after "is" replaces the full mask. */
	assert_int_equal(m->hdr.src_addr, RTE_BE32(0xffff0000));
	assert_int_equal(s->hdr.dst_addr, RTE_BE32(IP4(192, 168, 0, 1)));
	assert_int_equal(m->hdr.dst_addr, RTE_BE32(0xffffff00));
	assert_int_equal(s->hdr.time_to_live, 64);
	assert_int_equal(m->hdr.time_to_live, 0xff);
	assert_int_equal(s->hdr.type_of_service, 4);
	assert_int_equal(m->hdr.type_of_service, 0);
	assert_int_equal(s->hdr.next_proto_id, 17);
	assert_int_equal(m->hdr.next_proto_id, 0xff);
	assert_int_equal(s->hdr.packet_id, RTE_BE16(0x1234));
	assert_int_equal(m->hdr.packet_id, RTE_BE16(0xffff));
	assert_int_equal(s->hdr.fragment_offset, RTE_BE16(0x2000));
	assert_int_equal(m->hdr.fragment_offset, 0);
	assert_int_equal(s->hdr.version_ihl, 0x45);
	assert_int_equal(m->hdr.version_ihl, 0xff);
	test_dm_flow_cmd_free(c);

	c = parse_ok("flow create 0 ingress pattern ipv4 dst spec 10.0.0.1 dst last 10.0.0.9 "
		     "dst mask 255.255.255.255 / end actions drop / end");
	s = c->pattern[0].spec;
	l = c->pattern[0].last;
	m = c->pattern[0].mask;
	assert_non_null(l);
	assert_int_equal(s->hdr.dst_addr, RTE_BE32(IP4(10, 0, 0, 1)));
	assert_int_equal(l->hdr.dst_addr, RTE_BE32(IP4(10, 0, 0, 9)));
	assert_int_equal(l->hdr.src_addr, 0);
	assert_int_equal(m->hdr.dst_addr, RTE_BE32(0xffffffff));
	test_dm_flow_cmd_free(c);
}

static void
test_ipv6(void **state)
{
	static const uint8_t src[16] = { 0xfd, [15] = 0x01 };
	static const uint8_t pfx[16] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	static const uint8_t ones[16] = {
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	};
	const struct rte_flow_item_ipv6 *s, *m;
	struct test_dm_flow_cmd *c;

	(void)state;
	c = parse_ok("flow create 0 ingress pattern eth / ipv6 src is fd00::1 dst spec 2001:db8::9 "
		     "dst prefix 64 tc is 0x12 flow is 0xabcde proto is 6 hop spec 10 / end "
		     "actions drop / end");
	s = c->pattern[1].spec;
	m = c->pattern[1].mask;
	assert_memory_equal(s->hdr.src_addr, src, 16);
	assert_memory_equal(m->hdr.src_addr, ones, 16);
	assert_int_equal(s->hdr.dst_addr[0], 0x20);
	assert_int_equal(s->hdr.dst_addr[1], 0x01);
	assert_int_equal(s->hdr.dst_addr[15], 0x09);
	assert_memory_equal(m->hdr.dst_addr, pfx, 16);
	/* version 4 bits | tc 8 bits | flow label 20 bits */
	assert_int_equal(s->hdr.vtc_flow, RTE_BE32(0x012abcde));
	assert_int_equal(m->hdr.vtc_flow, RTE_BE32(0x0fffffff));
	assert_int_equal(s->hdr.proto, 6);
	assert_int_equal(m->hdr.proto, 0xff);
	assert_int_equal(s->hdr.hop_limits, 10);
	assert_int_equal(m->hdr.hop_limits, 0);
	test_dm_flow_cmd_free(c);
}

static void
test_l4(void **state)
{
	const struct rte_flow_item_tcp *ts, *tm;
	const struct rte_flow_item_udp *us, *um;
	const struct rte_flow_item_icmp *is, *im;
	const struct rte_flow_item_icmp6 *i6s, *i6m;
	struct test_dm_flow_cmd *c;

	(void)state;
	c = parse_ok("flow create 0 ingress pattern eth / ipv4 / tcp src is 1000 dst spec 80 "
		     "flags spec 0x02 flags mask 0x12 / end actions drop / end");
	ts = c->pattern[2].spec;
	tm = c->pattern[2].mask;
	assert_int_equal(ts->hdr.src_port, RTE_BE16(1000));
	assert_int_equal(tm->hdr.src_port, RTE_BE16(0xffff));
	assert_int_equal(ts->hdr.dst_port, RTE_BE16(80));
	assert_int_equal(tm->hdr.dst_port, 0);
	assert_int_equal(ts->hdr.tcp_flags, 0x02);
	assert_int_equal(tm->hdr.tcp_flags, 0x12);
	test_dm_flow_cmd_free(c);

	c = parse_ok("flow create 0 ingress pattern eth / ipv4 / udp src is 53 dst is 4789 / "
		     "end actions drop / end");
	us = c->pattern[2].spec;
	um = c->pattern[2].mask;
	assert_int_equal(us->hdr.src_port, RTE_BE16(53));
	assert_int_equal(us->hdr.dst_port, RTE_BE16(4789));
	assert_int_equal(um->hdr.src_port, RTE_BE16(0xffff));
	assert_int_equal(um->hdr.dgram_len, 0);
	test_dm_flow_cmd_free(c);

	c = parse_ok("flow create 0 ingress pattern eth / ipv4 / icmp type is 8 code is 0 "
		     "ident is 5 seq spec 7 / end actions drop / end");
	is = c->pattern[2].spec;
	im = c->pattern[2].mask;
	assert_int_equal(is->hdr.icmp_type, 8);
	assert_int_equal(im->hdr.icmp_type, 0xff);
	assert_int_equal(im->hdr.icmp_code, 0xff);
	assert_int_equal(is->hdr.icmp_ident, RTE_BE16(5));
	assert_int_equal(is->hdr.icmp_seq_nb, RTE_BE16(7));
	assert_int_equal(im->hdr.icmp_seq_nb, 0);
	test_dm_flow_cmd_free(c);

	c = parse_ok("flow create 0 ingress pattern eth / ipv6 / icmp6 type is 128 code spec 1 / "
		     "end actions drop / end");
	i6s = c->pattern[2].spec;
	i6m = c->pattern[2].mask;
	assert_int_equal(i6s->type, 128);
	assert_int_equal(i6m->type, 0xff);
	assert_int_equal(i6s->code, 1);
	assert_int_equal(i6m->code, 0);
	test_dm_flow_cmd_free(c);
}

static void
test_tunnels(void **state)
{
	static const uint8_t vni[3] = { 0x12, 0x34, 0x56 };
	const struct rte_flow_item_vxlan *vs, *vm;
	const struct rte_flow_item_gre *gs, *gm;
	const struct rte_flow_item_mpls *ms, *mm;
	struct test_dm_flow_cmd *c;

	(void)state;
	c = parse_ok("flow create 0 ingress pattern eth / ipv4 / udp / vxlan vni is 0x123456 "
		     "last_rsvd spec 1 / eth / end actions drop / end");
	vs = c->pattern[3].spec;
	vm = c->pattern[3].mask;
	assert_memory_equal(vs->vni, vni, 3);
	assert_int_equal(vm->vni[0] & vm->vni[1] & vm->vni[2], 0xff);
	assert_int_equal(vs->rsvd1, 1);
	assert_int_equal(vm->rsvd1, 0);
	assert_int_equal(vs->flags, 0);
	test_dm_flow_cmd_free(c);

	c = parse_ok("flow create 0 ingress pattern eth / ipv4 / gre protocol is 0x0800 "
		     "k_bit is 1 c_bit spec 0 / gre_key value is 0x1234 / ipv4 / end "
		     "actions drop / end");
	gs = c->pattern[2].spec;
	gm = c->pattern[2].mask;
	assert_int_equal(gs->protocol, RTE_BE16(0x0800));
	assert_int_equal(gm->protocol, RTE_BE16(0xffff));
	/* K is bit 13 of the first 16 bits (RFC 2890). */
	assert_int_equal(gs->c_rsvd0_ver, RTE_BE16(0x2000));
	assert_int_equal(gm->c_rsvd0_ver, RTE_BE16(0x2000));
	assert_int_equal(c->pattern[3].type, RTE_FLOW_ITEM_TYPE_GRE_KEY);
	assert_int_equal(*(const rte_be32_t *)c->pattern[3].spec, RTE_BE32(0x1234));
	assert_int_equal(*(const rte_be32_t *)c->pattern[3].mask, RTE_BE32(0xffffffff));
	test_dm_flow_cmd_free(c);

	/* label 100 << 4 | tc 3 << 1 | s 1 over 24 bits */
	c = parse_ok("flow create 0 ingress pattern eth / mpls label is 100 tc spec 3 s is 1 / "
		     "ipv4 / end actions drop / end");
	ms = c->pattern[1].spec;
	mm = c->pattern[1].mask;
	assert_int_equal(ms->label_tc_s[0], 0x00);
	assert_int_equal(ms->label_tc_s[1], 0x06);
	assert_int_equal(ms->label_tc_s[2], 0x47);
	assert_int_equal(mm->label_tc_s[0], 0xff);
	assert_int_equal(mm->label_tc_s[1], 0xff);
	assert_int_equal(mm->label_tc_s[2], 0xf1);
	test_dm_flow_cmd_free(c);
}

static void
test_meta_items(void **state)
{
	const struct rte_flow_item_meta *meta;
	const struct rte_flow_item_tag *tag, *tagm;
	const struct rte_flow_item_mark *mark;
	struct test_dm_flow_cmd *c;

	(void)state;
	c = parse_ok("flow create 0 group 1 ingress pattern meta data is 0xabc / tag data is 5 "
		     "index is 2 / mark id spec 9 / end actions drop / end");
	meta = c->pattern[0].spec;
	assert_int_equal(meta->data, 0xabc);
	assert_int_equal(((const struct rte_flow_item_meta *)c->pattern[0].mask)->data,
			 0xffffffff);
	tag = c->pattern[1].spec;
	tagm = c->pattern[1].mask;
	assert_int_equal(tag->data, 5);
	assert_int_equal(tag->index, 2);
	assert_int_equal(tagm->data, 0xffffffff);
	assert_int_equal(tagm->index, 0xff);
	mark = c->pattern[2].spec;
	assert_int_equal(mark->id, 9);
	assert_null(c->pattern[2].mask);
	test_dm_flow_cmd_free(c);
}

static void
test_simple_actions(void **state)
{
	static const uint8_t mac[6] = { 0x02, 0xaa, 0xbb, 0xcc, 0xdd, 0xee };
	const struct rte_flow_action *a;
	struct test_dm_flow_cmd *c;

	(void)state;
	c = parse_ok("flow create 0 ingress pattern eth / ipv4 / tcp / end actions "
		     "void / count identifier 3 / mark id 0x1234 / flag / "
		     "set_mac_src mac_addr 02:aa:bb:cc:dd:ee / set_ipv4_dst ipv4_addr 1.2.3.4 / "
		     "set_tp_src port 5000 / set_ttl ttl_value 9 / dec_ttl / "
		     "inc_tcp_seq value 100 / dec_tcp_ack value 0x10000 / "
		     "set_ipv4_dscp dscp_value 46 / set_tag data 7 index 1 mask 0xff / "
		     "set_meta data 0x55 mask 0xf0 / jump group 2 / end");
	a = c->actions;
	assert_int_equal(c->nb_actions, 16);
	assert_int_equal(a[0].type, RTE_FLOW_ACTION_TYPE_VOID);
	assert_null(a[0].conf);
	assert_int_equal(a[1].type, RTE_FLOW_ACTION_TYPE_COUNT);
	assert_int_equal(((const struct rte_flow_action_count *)a[1].conf)->id, 3);
	assert_int_equal(a[2].type, RTE_FLOW_ACTION_TYPE_MARK);
	assert_int_equal(((const struct rte_flow_action_mark *)a[2].conf)->id, 0x1234);
	assert_int_equal(a[3].type, RTE_FLOW_ACTION_TYPE_FLAG);
	assert_null(a[3].conf);
	assert_int_equal(a[4].type, RTE_FLOW_ACTION_TYPE_SET_MAC_SRC);
	assert_memory_equal(((const struct rte_flow_action_set_mac *)a[4].conf)->mac_addr, mac, 6);
	assert_int_equal(a[5].type, RTE_FLOW_ACTION_TYPE_SET_IPV4_DST);
	assert_int_equal(((const struct rte_flow_action_set_ipv4 *)a[5].conf)->ipv4_addr,
			 RTE_BE32(IP4(1, 2, 3, 4)));
	assert_int_equal(a[6].type, RTE_FLOW_ACTION_TYPE_SET_TP_SRC);
	assert_int_equal(((const struct rte_flow_action_set_tp *)a[6].conf)->port,
			 RTE_BE16(5000));
	assert_int_equal(a[7].type, RTE_FLOW_ACTION_TYPE_SET_TTL);
	assert_int_equal(((const struct rte_flow_action_set_ttl *)a[7].conf)->ttl_value, 9);
	assert_int_equal(a[8].type, RTE_FLOW_ACTION_TYPE_DEC_TTL);
	assert_int_equal(a[9].type, RTE_FLOW_ACTION_TYPE_INC_TCP_SEQ);
	assert_int_equal(*(const rte_be32_t *)a[9].conf, RTE_BE32(100));
	assert_int_equal(a[10].type, RTE_FLOW_ACTION_TYPE_DEC_TCP_ACK);
	assert_int_equal(*(const rte_be32_t *)a[10].conf, RTE_BE32(0x10000));
	assert_int_equal(a[11].type, RTE_FLOW_ACTION_TYPE_SET_IPV4_DSCP);
	assert_int_equal(((const struct rte_flow_action_set_dscp *)a[11].conf)->dscp, 46);
	assert_int_equal(a[12].type, RTE_FLOW_ACTION_TYPE_SET_TAG);
	assert_int_equal(((const struct rte_flow_action_set_tag *)a[12].conf)->data, 7);
	assert_int_equal(((const struct rte_flow_action_set_tag *)a[12].conf)->index, 1);
	assert_int_equal(((const struct rte_flow_action_set_tag *)a[12].conf)->mask, 0xff);
	assert_int_equal(a[13].type, RTE_FLOW_ACTION_TYPE_SET_META);
	assert_int_equal(((const struct rte_flow_action_set_meta *)a[13].conf)->data, 0x55);
	assert_int_equal(((const struct rte_flow_action_set_meta *)a[13].conf)->mask, 0xf0);
	assert_int_equal(a[14].type, RTE_FLOW_ACTION_TYPE_JUMP);
	assert_int_equal(((const struct rte_flow_action_jump *)a[14].conf)->group, 2);
	assert_int_equal(a[15].type, RTE_FLOW_ACTION_TYPE_END);
	test_dm_flow_cmd_free(c);
}

static void
test_vlan_and_ipv6_actions(void **state)
{
	static const uint8_t v6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 0x05 };
	const struct rte_flow_action *a;
	struct test_dm_flow_cmd *c;

	(void)state;
	c = parse_ok("flow create 0 egress pattern eth / ipv6 / udp / end actions "
		     "of_push_vlan ethertype 0x8100 / of_set_vlan_vid vlan_vid 100 / "
		     "of_set_vlan_pcp vlan_pcp 5 / set_ipv6_src ipv6_addr 2001:db8::5 / "
		     "set_tp_dst port 53 / end");
	a = c->actions;
	assert_int_equal(a[0].type, RTE_FLOW_ACTION_TYPE_OF_PUSH_VLAN);
	assert_int_equal(((const struct rte_flow_action_of_push_vlan *)a[0].conf)->ethertype,
			 RTE_BE16(0x8100));
	assert_int_equal(a[1].type, RTE_FLOW_ACTION_TYPE_OF_SET_VLAN_VID);
	assert_int_equal(((const struct rte_flow_action_of_set_vlan_vid *)a[1].conf)->vlan_vid,
			 RTE_BE16(100));
	assert_int_equal(a[2].type, RTE_FLOW_ACTION_TYPE_OF_SET_VLAN_PCP);
	assert_int_equal(((const struct rte_flow_action_of_set_vlan_pcp *)a[2].conf)->vlan_pcp,
			 5);
	assert_int_equal(a[3].type, RTE_FLOW_ACTION_TYPE_SET_IPV6_SRC);
	assert_memory_equal(((const struct rte_flow_action_set_ipv6 *)a[3].conf)->ipv6_addr,
			    v6, 16);
	assert_int_equal(a[4].type, RTE_FLOW_ACTION_TYPE_SET_TP_DST);
	test_dm_flow_cmd_free(c);

	c = parse_ok("flow create 0 ingress pattern eth / vlan / ipv4 / udp / vxlan / end actions "
		     "of_pop_vlan / vxlan_decap / queue index 3 / end");
	a = c->actions;
	assert_int_equal(a[0].type, RTE_FLOW_ACTION_TYPE_OF_POP_VLAN);
	assert_null(a[0].conf);
	assert_int_equal(a[1].type, RTE_FLOW_ACTION_TYPE_VXLAN_DECAP);
	assert_null(a[1].conf);
	assert_int_equal(((const struct rte_flow_action_queue *)a[2].conf)->index, 3);
	test_dm_flow_cmd_free(c);
}

static void
test_rss(void **state)
{
	static const uint8_t key[4] = { 0x01, 0x02, 0xab, 0xcd };
	const struct rte_flow_action_rss *r;
	struct test_dm_flow_cmd *c;

	(void)state;
	/* testpmd's defaults: the port's RSS types over all its Rx queues. */
	c = parse_ok("flow create 0 ingress pattern end actions rss / end");
	r = c->actions[0].conf;
	assert_int_equal(r->func, RTE_ETH_HASH_FUNCTION_DEFAULT);
	assert_int_equal(r->level, 0);
	assert_true(r->types == RTE_ETH_RSS_IP);
	assert_int_equal(r->queue_num, 4);
	assert_int_equal(r->queue[0], 0);
	assert_int_equal(r->queue[3], 3);
	assert_null(r->key);
	assert_int_equal(r->key_len, 0);
	test_dm_flow_cmd_free(c);

	c = parse_ok("flow create 0 ingress pattern end actions rss func toeplitz level 1 "
		     "types ipv4-tcp ipv6-udp end queues 3 1 end key 0x0102abcd / end");
	r = c->actions[0].conf;
	assert_int_equal(r->func, RTE_ETH_HASH_FUNCTION_TOEPLITZ);
	assert_int_equal(r->level, 1);
	assert_true(r->types == (RTE_ETH_RSS_NONFRAG_IPV4_TCP | RTE_ETH_RSS_NONFRAG_IPV6_UDP));
	assert_int_equal(r->queue_num, 2);
	assert_int_equal(r->queue[0], 3);
	assert_int_equal(r->queue[1], 1);
	assert_int_equal(r->key_len, 4);
	assert_memory_equal(r->key, key, 4);
	test_dm_flow_cmd_free(c);

	c = parse_ok("flow create 0 ingress pattern end actions rss types none end queues end "
		     "key_len 40 / end");
	r = c->actions[0].conf;
	assert_true(r->types == 0);
	assert_int_equal(r->queue_num, 0);
	assert_null(r->queue);
	assert_int_equal(r->key_len, 40);
	test_dm_flow_cmd_free(c);
}

static void
test_modify_field(void **state)
{
	const struct rte_flow_action_modify_field *mf;
	struct test_dm_flow_cmd *c;

	(void)state;
	c = parse_ok("flow create 0 ingress pattern eth / ipv4 / end actions modify_field op add "
		     "dst_type ipv4_ttl dst_level 1 dst_offset 2 src_type value src_value 05 "
		     "width 6 / queue index 0 / end");
	mf = c->actions[0].conf;
	assert_int_equal(mf->operation, RTE_FLOW_MODIFY_ADD);
	assert_int_equal(mf->dst.field, RTE_FLOW_FIELD_IPV4_TTL);
	assert_int_equal(mf->dst.level, 1);
	assert_int_equal(mf->dst.offset, 2);
	assert_int_equal(mf->src.field, RTE_FLOW_FIELD_VALUE);
	assert_int_equal(mf->src.value[0], 5);
	assert_int_equal(mf->src.value[1], 0);
	assert_int_equal(mf->width, 6);
	test_dm_flow_cmd_free(c);

	c = parse_ok("flow create 0 ingress pattern eth / ipv4 / end actions modify_field op set "
		     "dst_type tag dst_level 3 src_type ipv4_src src_offset 16 width 16 / "
		     "queue index 0 / end");
	mf = c->actions[0].conf;
	assert_int_equal(mf->operation, RTE_FLOW_MODIFY_SET);
	assert_int_equal(mf->dst.field, RTE_FLOW_FIELD_TAG);
	assert_int_equal(mf->dst.level, 3);
	assert_int_equal(mf->src.field, RTE_FLOW_FIELD_IPV4_SRC);
	assert_int_equal(mf->src.offset, 16);
	test_dm_flow_cmd_free(c);

	c = parse_ok("flow create 0 ingress pattern eth / end actions modify_field op sub "
		     "dst_type mac_dst src_type pointer src_ptr 0x0a0b0c0d0e0f width 48 / "
		     "queue index 0 / end");
	mf = c->actions[0].conf;
	assert_int_equal(mf->operation, RTE_FLOW_MODIFY_SUB);
	assert_int_equal(mf->src.field, RTE_FLOW_FIELD_POINTER);
	assert_non_null(mf->src.pvalue);
	assert_int_equal(((const uint8_t *)mf->src.pvalue)[0], 0x0a);
	assert_int_equal(((const uint8_t *)mf->src.pvalue)[5], 0x0f);
	test_dm_flow_cmd_free(c);
}

static void
test_raw_encap_decap(void **state)
{
	/* eth: dst 0, src 10:11:22:33:44:55, type 0x0800 (filled from the next item) */
	/* ipv4: version/ihl 0x45 (filled), proto 17 (filled), the rest 0 */
	/* udp: dport 4789 (filled before vxlan), the rest 0 */
	/* vxlan: flags 0x08 (filled), vni 7 */
	static const uint8_t want[50] = {
		0, 0, 0, 0, 0, 0, 0x10, 0x11, 0x22, 0x33, 0x44, 0x55, 0x08, 0x00,
		0x45, 0, 0, 0, 0, 0, 0, 0, 0, 17, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0x12, 0xb5, 0, 0, 0, 0,
		0x08, 0, 0, 0, 0, 0, 0x07, 0,
	};
	const struct rte_flow_action_raw_encap *e;
	const struct rte_flow_action_raw_decap *d;
	struct test_dm_flow_cmd *c;

	(void)state;
	c = parse_ok("set raw_encap 2 eth src is 10:11:22:33:44:55 / ipv4 / udp / "
		     "vxlan vni is 7 / end_set");
	assert_int_equal(c->type, TEST_DM_SET_RAW_ENCAP);
	assert_int_equal(c->slot, 2);
	test_dm_flow_cmd_free(c);
	assert_true(ctx.raw_encap[2].defined);
	assert_int_equal(ctx.raw_encap[2].size, sizeof(want));
	assert_memory_equal(ctx.raw_encap[2].data, want, sizeof(want));

	c = parse_ok("set raw_decap eth / ipv4 / udp / vxlan / end_set");
	assert_int_equal(c->slot, 0);
	test_dm_flow_cmd_free(c);
	assert_int_equal(ctx.raw_decap[0].size, 50);

	c = parse_ok("flow create 0 egress pattern eth / end actions raw_encap index 2 / end");
	e = c->actions[0].conf;
	assert_int_equal(e->size, sizeof(want));
	assert_memory_equal(e->data, want, sizeof(want));
	assert_null(e->preserve);
	/* The action owns a copy: redefining the slot does not change it. */
	test_dm_flow_cmd_free(parse_ok("set raw_encap 2 eth / end_set"));
	assert_memory_equal(e->data, want, sizeof(want));
	test_dm_flow_cmd_free(c);

	c = parse_ok("flow create 0 ingress pattern eth / ipv4 / udp / vxlan / end actions "
		     "raw_decap / queue index 0 / end");
	d = c->actions[0].conf;
	assert_int_equal(d->size, 50);
	test_dm_flow_cmd_free(c);
}

static void
test_raw_bytes_chaining(void **state)
{
	/* eth type 0x8100, vlan (tci 5, type 0x86dd), ipv6 (version 6, nh 47), gre with
	 * K set and protocol 0x6558 (what follows the key), key 9, inner eth. */
	struct rte_flow_item_vlan vlan = { .tci = RTE_BE16(5) };
	rte_be32_t key = RTE_BE32(9);
	struct rte_flow_item items[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_VLAN, .spec = &vlan },
		{ .type = RTE_FLOW_ITEM_TYPE_IPV6 },
		{ .type = RTE_FLOW_ITEM_TYPE_VOID },
		{ .type = RTE_FLOW_ITEM_TYPE_GRE },
		{ .type = RTE_FLOW_ITEM_TYPE_GRE_KEY, .spec = &key },
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	uint8_t buf[128];
	int n;

	(void)state;
	n = test_dm_flow_items_to_bytes(items, buf, sizeof(buf));
	assert_int_equal(n, 14 + 4 + 40 + 4 + 4 + 14);
	assert_int_equal(buf[12], 0x81);
	assert_int_equal(buf[13], 0x00);
	assert_int_equal(buf[14], 0x00);
	assert_int_equal(buf[15], 0x05);
	assert_int_equal(buf[16], 0x86);
	assert_int_equal(buf[17], 0xdd);
	assert_int_equal(buf[18], 0x60);
	assert_int_equal(buf[18 + 6], 47);
	assert_int_equal(buf[58], 0x20);
	assert_int_equal(buf[60], 0x65);
	assert_int_equal(buf[61], 0x58);
	assert_int_equal(buf[65], 9);
	assert_int_equal(n, 80);
	assert_int_equal(test_dm_flow_items_to_bytes(items, buf, 20), -E2BIG);
}

static void
test_vxlan_encap(void **state)
{
	const struct rte_flow_action_vxlan_encap *v;
	const struct rte_flow_item_eth *eth;
	const struct rte_flow_item_ipv4 *ip;
	const struct rte_flow_item_ipv6 *ip6;
	const struct rte_flow_item_udp *udp;
	const struct rte_flow_item_vxlan *vx;
	const struct rte_flow_item_vlan *vlan;
	struct test_dm_flow_cmd *c;

	(void)state;
	test_dm_flow_cmd_free(parse_ok("set vxlan ip-version ipv4 vni 42 udp-src 1000 "
				       "udp-dst 4789 ip-src 1.1.1.1 ip-dst 2.2.2.2 "
				       "eth-src 00:00:00:00:00:0a eth-dst 00:00:00:00:00:0b"));
	c = parse_ok("flow create 0 egress pattern eth / end actions vxlan_encap / end");
	v = c->actions[0].conf;
	assert_int_equal(v->definition[0].type, RTE_FLOW_ITEM_TYPE_ETH);
	assert_int_equal(v->definition[1].type, RTE_FLOW_ITEM_TYPE_VOID);
	assert_int_equal(v->definition[2].type, RTE_FLOW_ITEM_TYPE_IPV4);
	assert_int_equal(v->definition[3].type, RTE_FLOW_ITEM_TYPE_UDP);
	assert_int_equal(v->definition[4].type, RTE_FLOW_ITEM_TYPE_VXLAN);
	assert_int_equal(v->definition[5].type, RTE_FLOW_ITEM_TYPE_END);
	eth = v->definition[0].spec;
	assert_int_equal(eth->dst.addr_bytes[5], 0x0b);
	assert_int_equal(eth->src.addr_bytes[5], 0x0a);
	ip = v->definition[2].spec;
	assert_int_equal(ip->hdr.src_addr, RTE_BE32(IP4(1, 1, 1, 1)));
	assert_int_equal(ip->hdr.dst_addr, RTE_BE32(IP4(2, 2, 2, 2)));
	udp = v->definition[3].spec;
	assert_int_equal(udp->hdr.src_port, RTE_BE16(1000));
	assert_int_equal(udp->hdr.dst_port, RTE_BE16(4789));
	vx = v->definition[4].spec;
	assert_int_equal(vx->vni[2], 42);
	test_dm_flow_cmd_free(c);

	test_dm_flow_cmd_free(parse_ok("set vxlan-with-vlan ip-version ipv6 vni 5 "
				       "ip-src fd00::1 ip-dst fd00::2 vlan-tci 34"));
	c = parse_ok("flow create 0 egress pattern eth / end actions vxlan_encap / end");
	v = c->actions[0].conf;
	assert_int_equal(v->definition[1].type, RTE_FLOW_ITEM_TYPE_VLAN);
	vlan = v->definition[1].spec;
	assert_int_equal(vlan->tci, RTE_BE16(34));
	assert_int_equal(v->definition[2].type, RTE_FLOW_ITEM_TYPE_IPV6);
	ip6 = v->definition[2].spec;
	assert_int_equal(ip6->hdr.dst_addr[15], 2);
	/* Not given: testpmd's default UDP destination port. */
	assert_int_equal(((const struct rte_flow_item_udp *)v->definition[3].spec)->hdr.dst_port,
			 RTE_BE16(4789));
	test_dm_flow_cmd_free(c);

	test_dm_flow_cmd_free(parse_ok("set vxlan-tos-ttl ip-version ipv4 vni 1 ip-tos 0x10 "
				       "ip-ttl 7"));
	c = parse_ok("flow create 0 egress pattern eth / end actions vxlan_encap / end");
	v = c->actions[0].conf;
	ip = v->definition[2].spec;
	assert_int_equal(ip->hdr.type_of_service, 0x10);
	assert_int_equal(ip->hdr.time_to_live, 7);
	assert_int_equal(((const struct rte_flow_item_ipv4 *)v->definition[2].mask)
			 ->hdr.time_to_live, 0xff);
	test_dm_flow_cmd_free(c);
}

static void
test_other_commands(void **state)
{
	struct test_dm_flow_cmd *c;

	(void)state;
	c = parse_ok("flow destroy 1 rule 4 rule 0x10");
	assert_int_equal(c->type, TEST_DM_FLOW_DESTROY);
	assert_int_equal(c->port, 1);
	assert_int_equal(c->nb_rules, 2);
	assert_int_equal(c->rules[0], 4);
	assert_int_equal(c->rules[1], 16);
	test_dm_flow_cmd_free(c);
	c = parse_ok("flow flush 2");
	assert_int_equal(c->type, TEST_DM_FLOW_FLUSH);
	assert_int_equal(c->port, 2);
	test_dm_flow_cmd_free(c);
	c = parse_ok("flow query 0 7 count");
	assert_int_equal(c->type, TEST_DM_FLOW_QUERY);
	assert_int_equal(c->rule, 7);
	assert_int_equal(c->query_action, RTE_FLOW_ACTION_TYPE_COUNT);
	test_dm_flow_cmd_free(c);
}

static void
test_template_commands(void **state)
{
	const struct rte_flow_item_ipv4 *m;
	const struct rte_flow_action_mark *mk;
	struct test_dm_flow_cmd *c = NULL;
	struct test_dm_err err;

	(void)state;
	c = parse_ok("flow configure 1 queues_number 2 queues_size 64 counters_number 8");
	assert_int_equal(c->type, TEST_DM_FLOW_CONFIGURE);
	assert_int_equal(c->port, 1);
	assert_int_equal(c->nb_queues, 2);
	assert_int_equal(c->queue_size, 64);
	assert_int_equal(c->nb_counters, 8);
	test_dm_flow_cmd_free(c);
	c = parse_ok("flow pattern_template 0 create pattern_template_id 3 relaxed yes ingress "
		     "template eth / ipv4 dst mask 255.255.0.0 / udp / end");
	assert_int_equal(c->type, TEST_DM_FLOW_PATTERN_TEMPLATE);
	assert_int_equal(c->id, 3);
	assert_int_equal(c->relaxed, 1);
	assert_int_equal(c->attr.ingress, 1);
	assert_int_equal(c->nb_items, 4);
	m = c->pattern[1].mask;
	assert_null(c->pattern[1].spec);
	assert_int_equal(m->hdr.dst_addr, rte_cpu_to_be_32(IP4(255, 255, 0, 0)));
	test_dm_flow_cmd_free(c);
	c = parse_ok("flow actions_template 0 create egress template mark id 5 / queue / end "
		     "mask mark id 0xff / queue / end");
	assert_int_equal(c->type, TEST_DM_FLOW_ACTIONS_TEMPLATE);
	assert_int_equal(c->id, TEST_DM_ID_AUTO);
	assert_int_equal(c->attr.egress, 1);
	assert_int_equal(c->nb_actions, 3);
	mk = c->masks[0].conf;
	assert_int_equal(mk->id, 0xff);
	assert_int_equal(c->masks[1].type, RTE_FLOW_ACTION_TYPE_QUEUE);
	test_dm_flow_cmd_free(c);
	/* In a mask list "none" leaves an action to the rules (no conf); a bare rss fixes it. */
	c = parse_ok("flow actions_template 0 create template rss queues 1 2 end / mark id 3 / "
		     "rss / end mask rss none / mark none / rss / end");
	assert_int_equal(c->masks[0].type, RTE_FLOW_ACTION_TYPE_RSS);
	assert_null(c->masks[0].conf);
	assert_int_equal(c->masks[1].type, RTE_FLOW_ACTION_TYPE_MARK);
	assert_null(c->masks[1].conf);
	assert_non_null(c->masks[2].conf);
	assert_non_null(c->actions[0].conf);
	test_dm_flow_cmd_free(c);
	assert_int_equal(test_dm_flow_parse_str(&ctx, "flow actions_template 0 create template "
						"mark id 3 / end mask mark none id 3 / end", "t", 1,
						&c, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "expected '/' after none"));
	assert_int_equal(test_dm_flow_parse_str(&ctx, "flow actions_template 0 create template "
						"mark none / end mask mark none / end", "t", 1,
						&c, &err), -EINVAL);
	c = parse_ok("flow template_table 0 create table_id 2 group 1 priority 3 ingress "
		     "rules_number 100 pattern_template 3 pattern_template 4 actions_template 0");
	assert_int_equal(c->type, TEST_DM_FLOW_TABLE);
	assert_int_equal(c->id, 2);
	assert_int_equal(c->attr.group, 1);
	assert_int_equal(c->attr.priority, 3);
	assert_int_equal(c->rules_number, 100);
	assert_int_equal(c->nb_pattern_templates, 2);
	assert_int_equal(c->pattern_templates[1], 4);
	assert_int_equal(c->nb_actions_templates, 1);
	test_dm_flow_cmd_free(c);
	c = parse_ok("flow queue 0 create 1 template_table 2 pattern_template 1 "
		     "actions_template 0 postpone yes pattern eth / end actions drop / end");
	assert_int_equal(c->type, TEST_DM_FLOW_QUEUE_CREATE);
	assert_int_equal(c->queue, 1);
	assert_int_equal(c->id, 2);
	assert_int_equal(c->pattern_index, 1);
	assert_int_equal(c->actions_index, 0);
	assert_int_equal(c->postpone, 1);
	assert_int_equal(c->nb_items, 2);
	assert_int_equal(c->actions[0].type, RTE_FLOW_ACTION_TYPE_DROP);
	test_dm_flow_cmd_free(c);
	c = parse_ok("flow queue 0 destroy 1 postpone no rule 4 rule 5");
	assert_int_equal(c->type, TEST_DM_FLOW_QUEUE_DESTROY);
	assert_int_equal(c->postpone, 0);
	assert_int_equal(c->nb_rules, 2);
	assert_int_equal(c->rules[1], 5);
	test_dm_flow_cmd_free(c);
	c = parse_ok("flow template_table 0 destroy table 2 table 3");
	assert_int_equal(c->type, TEST_DM_FLOW_TABLE_DESTROY);
	assert_int_equal(c->nb_rules, 2);
	test_dm_flow_cmd_free(c);
	c = parse_ok("flow pull 2 queue 1");
	assert_int_equal(c->type, TEST_DM_FLOW_PULL);
	assert_int_equal(c->port, 2);
	assert_int_equal(c->queue, 1);
	test_dm_flow_cmd_free(c);
	c = parse_ok("flow push 2 queue 0");
	assert_int_equal(c->type, TEST_DM_FLOW_PUSH);
	test_dm_flow_cmd_free(c);
	/* The mask list must pair with the actions. */
	assert_int_equal(test_dm_flow_parse_str(&ctx, "flow actions_template 0 create template "
						"mark / queue / end mask queue / end", "t", 1,
						&c, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "the mask list must have the action list's types"));
	assert_int_equal(test_dm_flow_parse_str(&ctx, "flow template_table 0 create "
						"rules_number 4 pattern_template 0", "t", 1,
						&c, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "needs rules_number, a pattern_template and an "
			       "actions_template"));
}

/* The synchronous rule a table's rule stands for: masks, relaxed, masked actions. */
static void
test_template_rule(void **state)
{
	struct rte_flow_item items[TEST_DM_FLOW_MAX_ITEMS];
	struct rte_flow_action acts[TEST_DM_FLOW_MAX_ACTIONS];
	struct test_dm_flow_cmd *pt, *rpt, *at, *r, *bad;
	struct rte_flow_error e = { 0 };
	const struct rte_flow_item_ipv4 *ip;

	(void)state;
	pt = parse_ok("flow pattern_template 0 create template eth / ipv4 dst mask 255.0.0.0 / "
		      "udp / end");
	rpt = parse_ok("flow pattern_template 0 create relaxed yes template eth / "
		       "ipv4 dst mask 255.0.0.0 / udp / end");
	at = parse_ok("flow actions_template 0 create template mark id 7 / queue index 1 / end "
		      "mask mark id 0xffffffff / queue / end");
	r = parse_ok("flow queue 0 create 0 template_table 0 pattern_template 0 actions_template 0 "
		     "pattern eth / ipv4 dst is 10.1.2.3 / udp src is 9 / end "
		     "actions mark id 1 / queue index 2 / end");
	assert_int_equal(test_dm_flow_tmpl_rule(pt, at, r, items, acts, &e), 0);
	assert_int_equal(items[2].type, RTE_FLOW_ITEM_TYPE_UDP);
	/* The rule's UDP spec goes: the template has no mask for it. */
	assert_null(items[2].spec);
	assert_null(items[2].mask);
	assert_null(items[0].mask);
	ip = items[1].spec;
	assert_int_equal(ip->hdr.dst_addr, rte_cpu_to_be_32(IP4(10, 1, 2, 3)));
	assert_ptr_equal(items[1].mask, pt->pattern[1].mask);
	assert_int_equal(items[3].type, RTE_FLOW_ITEM_TYPE_END);
	/* MARK from the template (masked), QUEUE from the rule. */
	assert_ptr_equal(acts[0].conf, at->actions[0].conf);
	assert_ptr_equal(acts[1].conf, r->actions[1].conf);
	assert_int_equal(acts[2].type, RTE_FLOW_ACTION_TYPE_END);
	/* Relaxed: UDP (no mask, last) implies nothing. */
	assert_int_equal(test_dm_flow_tmpl_rule(rpt, at, r, items, acts, &e), 0);
	assert_int_equal(items[2].type, RTE_FLOW_ITEM_TYPE_END);
	bad = parse_ok("flow queue 0 create 0 template_table 0 pattern_template 0 "
		       "actions_template 0 pattern eth / ipv4 / tcp / end "
		       "actions mark id 1 / queue index 2 / end");
	assert_int_equal(test_dm_flow_tmpl_rule(pt, at, bad, items, acts, &e), -EINVAL);
	assert_int_equal(e.type, RTE_FLOW_ERROR_TYPE_ITEM);
	test_dm_flow_cmd_free(bad);
	test_dm_flow_cmd_free(r);
	test_dm_flow_cmd_free(at);
	test_dm_flow_cmd_free(rpt);
	test_dm_flow_cmd_free(pt);
}

static void
test_continuation_and_positions(void **state)
{
	struct test_dm_flow_cmd *c = NULL;
	struct test_dm_err err;

	(void)state;
	c = parse_ok("flow create 0 ingress pattern eth / \\\n   ipv4 ttl is 3 / end \\\n"
		     "actions queue index 1 / end");
	assert_int_equal(c->nb_items, 3);
	assert_int_equal(((const struct rte_flow_item_ipv4 *)c->pattern[1].spec)->hdr.time_to_live,
			 3);
	test_dm_flow_cmd_free(c);
	/* An error on the continued line is reported on that line. */
	assert_int_equal(test_dm_flow_parse_str(&ctx, "flow create 0 ingress pattern eth / \\\n"
						"  ipv4 tll is 3 / end actions drop / end",
						"f.case", 10, &c, &err), -EINVAL);
	assert_int_equal(err.pos.line, 11);
	assert_int_equal(err.pos.col, 8);
}

static void
test_names(void **state)
{
	(void)state;
	assert_string_equal(test_dm_flow_item_name(RTE_FLOW_ITEM_TYPE_GRE_KEY), "gre_key");
	assert_string_equal(test_dm_flow_action_name(RTE_FLOW_ACTION_TYPE_OF_SET_VLAN_PCP),
			    "of_set_vlan_pcp");
	assert_null(test_dm_flow_item_name(RTE_FLOW_ITEM_TYPE_GENEVE));
	assert_int_equal(test_dm_flow_error_type_parse("ITEM_SPEC", 9),
			 RTE_FLOW_ERROR_TYPE_ITEM_SPEC);
	assert_int_equal(test_dm_flow_error_type_parse("RTE_FLOW_ERROR_TYPE_ACTION", 26),
			 RTE_FLOW_ERROR_TYPE_ACTION);
	assert_int_equal(test_dm_flow_error_type_parse("ACTIONS", 7), -1);
	assert_string_equal(test_dm_flow_error_type_name(RTE_FLOW_ERROR_TYPE_ATTR_GROUP),
			    "RTE_FLOW_ERROR_TYPE_ATTR_GROUP");
	/* rte_flow.h's masks are per-file statics: compare contents. */
	assert_memory_equal(test_dm_flow_item_default_mask(RTE_FLOW_ITEM_TYPE_ETH),
			    &rte_flow_item_eth_mask, sizeof(rte_flow_item_eth_mask));
	assert_int_equal(test_dm_flow_item_size(RTE_FLOW_ITEM_TYPE_IPV6),
			 sizeof(struct rte_flow_item_ipv6));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_attributes, setup),
		cmocka_unit_test_setup(test_items_without_fields, setup),
		cmocka_unit_test_setup(test_eth, setup),
		cmocka_unit_test_setup(test_vlan_subfields, setup),
		cmocka_unit_test_setup(test_ipv4, setup),
		cmocka_unit_test_setup(test_ipv6, setup),
		cmocka_unit_test_setup(test_l4, setup),
		cmocka_unit_test_setup(test_tunnels, setup),
		cmocka_unit_test_setup(test_meta_items, setup),
		cmocka_unit_test_setup(test_simple_actions, setup),
		cmocka_unit_test_setup(test_vlan_and_ipv6_actions, setup),
		cmocka_unit_test_setup(test_rss, setup),
		cmocka_unit_test_setup(test_modify_field, setup),
		cmocka_unit_test_setup(test_raw_encap_decap, setup),
		cmocka_unit_test_setup(test_raw_bytes_chaining, setup),
		cmocka_unit_test_setup(test_vxlan_encap, setup),
		cmocka_unit_test_setup(test_other_commands, setup),
		cmocka_unit_test_setup(test_template_commands, setup),
		cmocka_unit_test_setup(test_template_rule, setup),
		cmocka_unit_test_setup(test_continuation_and_positions, setup),
		cmocka_unit_test_setup(test_names, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
