/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Malformed input to test-dm's parsers (flow commands, packet descriptions,
 * case files), each with the exact "file:line:col: message" it must give:
 * the position of the offending token and what was expected there.
 */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <rte_common.h>

#include "test_dm_case.h"
#include "test_dm_flow.h"
#include "test_dm_pkt.h"

enum test_dm_input {
	TEST_DM_IN_FLOW,	/**< A command line, file "r.cmd" line 1. */
	TEST_DM_IN_PKT,		/**< A packet description, file "p" line 1. */
	TEST_DM_IN_CASE,	/**< A case file named "c.case". */
};

static const struct {
	enum test_dm_input kind;
	const char *input;
	const char *msg;
} bad[] = {
	{ TEST_DM_IN_FLOW,
	  "flow",
	  "r.cmd:1:5: unexpected end of command: expected create, validate, destroy, flush, "
	  "query, configure, pattern_template, actions_template, template_table, queue, push or "
	  "pull after 'flow'" },
	{ TEST_DM_IN_FLOW,
	  "flow make 0",
	  "r.cmd:1:6: expected create, validate, destroy, flush, query, configure, "
	  "pattern_template, actions_template, template_table, queue, push or pull after "
	  "'flow'" },
	{ TEST_DM_IN_FLOW,
	  "flow create",
	  "r.cmd:1:12: unexpected end of command: expected a port number" },
	{ TEST_DM_IN_FLOW,
	  "flow create x",
	  "r.cmd:1:13: expected a port number or a switch port name (pf, rep0, rep1, vf0, vf1, "
	  "wire), got 'x'" },
	{ TEST_DM_IN_FLOW,
	  "flow create 70000 ingress pattern end actions end",
	  "r.cmd:1:13: a port number '70000' out of range (max 65535)" },
	{ TEST_DM_IN_FLOW,
	  "flow create 0 ingres pattern end actions end",
	  "r.cmd:1:15: expected group, priority, ingress, egress, transfer or pattern, got "
	  "'ingres'" },
	{ TEST_DM_IN_FLOW,
	  "flow create 0 group pattern end actions end",
	  "r.cmd:1:21: expected a group number, got 'pattern'" },
	{ TEST_DM_IN_FLOW,
	  "flow create 0 priority 5000000000 pattern end actions end",
	  "r.cmd:1:24: a priority level '5000000000' out of range (max 4294967295)" },
	{ TEST_DM_IN_FLOW,
	  "flow create 0 ingress",
	  "r.cmd:1:22: unexpected end of command: expected group, priority, ingress, "
	  "egress, transfer or pattern" },
	{ TEST_DM_IN_FLOW,
	  "flow create 0 ingress pattern",
	  "r.cmd:1:30: unexpected end of command: expected a pattern item or 'end'" },
	{ TEST_DM_IN_FLOW,
	  "flow create 0 ingress pattern eht / end actions drop / end",
	  "r.cmd:1:31: expected a pattern item or 'end', got 'eht'" },
	{ TEST_DM_IN_FLOW,
	  "flow create 0 ingress pattern eth",
	  "r.cmd:1:34: unexpected end of command: expected a field of 'eth' or '/'" },
	{ TEST_DM_IN_FLOW,
	  "flow create 0 ingress pattern eth dst",
	  "r.cmd:1:38: unexpected end of command: expected is, spec, last, mask or prefix "
	  "after field 'dst'" },
	{ TEST_DM_IN_FLOW,
	  "flow create 0 ingress pattern eth dst 02:00:00:00:00:01 / end actions drop / end",
	  "r.cmd:1:39: expected is, spec, last, mask or prefix after field 'dst'" },
	{ TEST_DM_IN_FLOW,
	  "flow create 0 ingress pattern eth dst is / end actions drop / end",
	  "r.cmd:1:42: expected a value for 'dst'" },
	{ TEST_DM_IN_FLOW,
	  "flow create 0 ingress pattern eth dst is 02:00:00:00:01 / end actions drop / end",
	  "r.cmd:1:42: expected a MAC address for 'dst', got '02:00:00:00:01'" },
	{ TEST_DM_IN_FLOW,
	  "flow create 0 ingress pattern eth foo is 1 / end actions drop / end",
	  "r.cmd:1:35: unknown field 'foo' of item 'eth'; expected dst, src, type, "
	  "has_vlan, or '/'" },
	{ TEST_DM_IN_FLOW,
	  "flow create 0 ingress pattern eth type is 0x10000 / end actions drop / end",
	  "r.cmd:1:43: value '0x10000' out of range for 'type' (max 65535)" },
	{ TEST_DM_IN_FLOW,
	  "flow create 0 ingress pattern eth type is abc / end actions drop / end",
	  "r.cmd:1:43: expected an unsigned integer for 'type', got 'abc'" },
	{ TEST_DM_IN_FLOW,
	  "flow create 0 ingress pattern vlan vid is 4096 / end actions drop / end",
	  "r.cmd:1:43: value '4096' out of range for 'vid' (max 4095)" },
	{ TEST_DM_IN_FLOW,
	  "flow create 0 ingress pattern vlan pcp is 8 / end actions drop / end",
	  "r.cmd:1:43: value '8' out of range for 'pcp' (max 7)" },
	{ TEST_DM_IN_FLOW,
	  "flow create 0 ingress pattern ipv4 src is 10.0.0 / end actions drop / end",
	  "r.cmd:1:43: expected an IPv4 address for 'src', got '10.0.0'" },
	{ TEST_DM_IN_FLOW,
	  "flow create 0 ingress pattern ipv4 src is 10.0.0.1 src prefix 33 / end actions "
	  "drop / end",
	  "r.cmd:1:63: a prefix length '33' out of range (max 32)" },
	{ TEST_DM_IN_FLOW,
	  "flow create 0 ingress pattern ipv6 dst is 10.0.0.1 / end actions drop / end",
	  "r.cmd:1:43: expected an IPv6 address for 'dst', got '10.0.0.1'" },
	{ TEST_DM_IN_FLOW,
	  "flow create 0 ingress pattern ipv6 dst prefix 129 / end actions drop / end",
	  "r.cmd:1:47: a prefix length '129' out of range (max 128)" },
	{ TEST_DM_IN_FLOW,
	  "flow create 0 ingress pattern tcp flags is S / end actions drop / end",
	  "r.cmd:1:44: expected an unsigned integer for 'flags', got 'S'" },
	{ TEST_DM_IN_FLOW,
	  "flow create 0 ingress pattern gre k_bit is 2 / end actions drop / end",
	  "r.cmd:1:44: expected 0 or 1 for 'k_bit', got '2'" },
	{ TEST_DM_IN_FLOW,
	  "flow create 0 ingress pattern mpls label is 0x100000 / end actions drop / end",
	  "r.cmd:1:45: value '0x100000' out of range for 'label' (max 1048575)" },
	{ TEST_DM_IN_FLOW,
	  "flow create 0 ingress pattern vxlan vni is 0x1000000 / end actions drop / end",
	  "r.cmd:1:44: value '0x1000000' out of range for 'vni' (max 16777215)" },
	{ TEST_DM_IN_FLOW,
	  "flow create 0 ingress pattern eth / end",
	  "r.cmd:1:40: unexpected end of command: expected 'actions' after the pattern" },
	{ TEST_DM_IN_FLOW,
	  "flow create 0 ingress pattern eth / end drop / end",
	  "r.cmd:1:41: expected 'actions' after the pattern" },
	{ TEST_DM_IN_FLOW,
	  "flow create 0 ingress pattern eth / end actions",
	  "r.cmd:1:48: unexpected end of command: expected an action or 'end'" },
	{ TEST_DM_IN_FLOW,
	  "flow create 0 ingress pattern eth / end actions queue",
	  "r.cmd:1:54: unexpected end of command: expected an argument of 'queue' or '/'" },
	{ TEST_DM_IN_FLOW,
	  "flow create 0 ingress pattern eth / end actions queue index / end",
	  "r.cmd:1:61: expected a value for 'index'" },
	{ TEST_DM_IN_FLOW,
	  "flow create 0 ingress pattern eth / end actions queue idx 1 / end",
	  "r.cmd:1:55: unknown argument 'idx' of action 'queue'; expected index, or '/'" },
	{ TEST_DM_IN_FLOW,
	  "flow create 0 ingress pattern eth / end actions queue index 1 end",
	  "r.cmd:1:63: unknown argument 'end' of action 'queue'; expected index, or '/'" },
	{ TEST_DM_IN_FLOW,
	  "flow create 0 ingress pattern eth / end actions forward / end",
	  "r.cmd:1:49: expected an action or 'end', got 'forward'" },
	{ TEST_DM_IN_FLOW,
	  "flow create 0 ingress pattern eth / end actions drop 1 / end",
	  "r.cmd:1:54: expected '/' after 'drop' (it takes no argument)" },
	{ TEST_DM_IN_FLOW,
	  "flow create 0 ingress pattern eth / end actions / end",
	  "r.cmd:1:49: expected an action or 'end'" },
	{ TEST_DM_IN_FLOW,
	  "flow create 0 ingress pattern eth / end actions drop / end extra",
	  "r.cmd:1:60: unexpected 'extra' after the end of the command" },
	{ TEST_DM_IN_FLOW,
	  "flow create 0 ingress pattern eth / end actions rss types ipv9 end / end",
	  "r.cmd:1:59: expected an RSS type or 'end', got 'ipv9'" },
	{ TEST_DM_IN_FLOW,
	  "flow create 0 ingress pattern eth / end actions rss queues 0 x end / end",
	  "r.cmd:1:62: expected a queue index or 'end', got 'x'" },
	{ TEST_DM_IN_FLOW,
	  "flow create 0 ingress pattern eth / end actions rss key 0x123 / end",
	  "r.cmd:1:57: expected an RSS key in hexadecimal, got '0x123'" },
	{ TEST_DM_IN_FLOW,
	  "flow create 0 ingress pattern eth / end actions rss func fast / end",
	  "r.cmd:1:58: expected default, toeplitz, simple_xor or symmetric_toeplitz" },
	{ TEST_DM_IN_FLOW,
	  "flow create 0 ingress pattern eth / end actions rss hash / end",
	  "r.cmd:1:53: unknown argument 'hash' of action 'rss'; expected func, level, "
	  "types, key, key_len, queues or '/'" },
	{ TEST_DM_IN_FLOW,
	  "flow create 0 ingress pattern eth / end actions set_ipv4_src ipv4_addr "
	  "1.2.3.4.5 / end",
	  "r.cmd:1:72: expected an IPv4 address for 'ipv4_addr', got '1.2.3.4.5'" },
	{ TEST_DM_IN_FLOW,
	  "flow create 0 ingress pattern eth / end actions raw_encap index 8 / end",
	  "r.cmd:1:65: a raw data index '8' out of range (max 7)" },
	{ TEST_DM_IN_FLOW,
	  "flow create 0 ingress pattern eth / end actions raw_decap index 3 / end",
	  "r.cmd:1:49: raw_decap index 3 is not defined (use 'set raw_decap 3 ...' first)" },
	{ TEST_DM_IN_FLOW,
	  "flow create 0 ingress pattern eth / end actions modify_field op mul / end",
	  "r.cmd:1:65: expected one of set, add, sub for 'op', got 'mul'" },
	{ TEST_DM_IN_FLOW,
	  "flow create 0 ingress pattern eth / end actions modify_field dst_type ipv9_ttl "
	  "/ end",
	  "r.cmd:1:71: expected one of start, mac_dst, mac_src, vlan_type, vlan_id, "
	  "mac_type, ipv4_dscp, ipv4_ttl, ipv4_src, ipv4_dst, ipv6_dscp, ipv6_hoplimit, "
	  "ipv6_src, ipv6_dst, tcp_port_src, tcp_port_dst, tcp_seq_num, tcp_ack_num, "
	  "tcp_flags, udp_port_src, udp_port_dst, vxlan_vni, geneve_vni, gtp_teid, tag, "
	  "mark, meta, pointer, value, ipv4_ecn, ipv6_ecn, gtp_psc_qfi, meter_color for "
	  "'dst_type', got 'ipv9_ttl'" },
	{ TEST_DM_IN_FLOW,
	  "flow destroy 0",
	  "r.cmd:1:15: unexpected end of command: expected 'rule'" },
	{ TEST_DM_IN_FLOW,
	  "flow destroy 0 rule",
	  "r.cmd:1:20: unexpected end of command: expected a rule id" },
	{ TEST_DM_IN_FLOW,
	  "flow destroy 0 rule 1 2",
	  "r.cmd:1:23: expected 'rule'" },
	{ TEST_DM_IN_FLOW,
	  "flow query 0 1 drop",
	  "r.cmd:1:16: expected 'count' (the action to query)" },
	{ TEST_DM_IN_FLOW,
	  "flow flush",
	  "r.cmd:1:11: unexpected end of command: expected a port number" },
	{ TEST_DM_IN_FLOW,
	  "set raw_encap 9 eth / end_set",
	  "r.cmd:1:15: a raw data index '9' out of range (max 7)" },
	{ TEST_DM_IN_FLOW,
	  "set raw_encap eth / meta / end_set",
	  "r.cmd:1:21: item 'meta' is not a header and cannot be part of raw data" },
	{ TEST_DM_IN_FLOW,
	  "set raw_encap eth / ipv4",
	  "r.cmd:1:25: unexpected end of command: expected a field of 'ipv4' or '/'" },
	{ TEST_DM_IN_FLOW,
	  "set vxlan ip-version ipv5",
	  "r.cmd:1:22: expected one of ipv4, ipv6 for 'ip-version', got 'ipv5'" },
	{ TEST_DM_IN_FLOW,
	  "set vxlan vlan-tci 3",
	  "r.cmd:1:11: 'vlan-tci' is only accepted by 'set vxlan-with-vlan'" },
	{ TEST_DM_IN_FLOW,
	  "set vxlan ip-version ipv4 ip-src fd00::1",
	  "r.cmd:1:34: address family does not match ip-version ipv4" },
	{ TEST_DM_IN_FLOW,
	  "set geneve",
	  "r.cmd:1:5: expected raw_encap, raw_decap, vxlan, vxlan-with-vlan or "
	  "vxlan-tos-ttl after 'set'" },
	{ TEST_DM_IN_FLOW,
	  "show port 0",
	  "r.cmd:1:1: expected 'flow' or 'set'" },
	{ TEST_DM_IN_PKT,
	  "",
	  "p:1:1: expected a header (eth, vlan, ipv4, ipv6, tcp, udp, icmp, icmp6, vxlan, "
	  "gre, mpls, payload)" },
	{ TEST_DM_IN_PKT,
	  "eth()/",
	  "p:1:7: expected a header (eth, vlan, ipv4, ipv6, tcp, udp, icmp, icmp6, vxlan, "
	  "gre, mpls, payload)" },
	{ TEST_DM_IN_PKT,
	  "eth()/ipv5()",
	  "p:1:7: unknown header 'ipv5'; expected eth, vlan, ipv4, ipv6, tcp, udp, icmp, "
	  "icmp6, vxlan, gre, mpls, payload" },
	{ TEST_DM_IN_PKT,
	  "eth(dst=1)",
	  "p:1:9: expected a MAC address for 'dst', got '1'" },
	{ TEST_DM_IN_PKT,
	  "eth(dest=02:00:00:00:00:01)",
	  "p:1:5: unknown field 'dest' of 'eth'; expected dst, src, type" },
	{ TEST_DM_IN_PKT,
	  "ipv4(ttl=256)",
	  "p:1:10: value '256' out of range for 'ttl' (8 bits)" },
	{ TEST_DM_IN_PKT,
	  "ipv4(ttl)",
	  "p:1:9: expected '=' after 'ttl'" },
	{ TEST_DM_IN_PKT,
	  "ipv4(ttl=)",
	  "p:1:10: expected a value for 'ttl'" },
	{ TEST_DM_IN_PKT,
	  "ipv4(ttl=1 ttl=2)",
	  "p:1:12: expected ',' or ')' in 'ipv4(...)'" },
	{ TEST_DM_IN_PKT,
	  "ipv4(ttl=1,ttl=2)",
	  "p:1:12: field 'ttl' given twice" },
	{ TEST_DM_IN_PKT,
	  "ipv4(ttl=5..1)",
	  "p:1:10: empty range '5..1' for 'ttl'" },
	{ TEST_DM_IN_PKT,
	  "ipv6(src=fd00::1..fd00::9)",
	  "p:1:10: ranges are not supported for IPv6 field 'src'" },
	{ TEST_DM_IN_PKT,
	  "tcp(flags=SX)",
	  "p:1:11: expected TCP flags (letters FSRPAUEC or a number) for 'flags', got 'SX'" },
	{ TEST_DM_IN_PKT,
	  "eth() ipv4()",
	  "p:1:7: expected '/' or the end of the packet, got 'i'" },
	{ TEST_DM_IN_PKT,
	  "payload(len=100000)",
	  "p:1:13: expected a payload length up to 9216, got '100000'" },
	{ TEST_DM_IN_PKT,
	  "payload(size=3)",
	  "p:1:9: unknown argument 'size' of 'payload'; expected len, fill or hex" },
	{ TEST_DM_IN_PKT,
	  "payload(hex=abc)",
	  "p:1:13: expected hexadecimal bytes for 'hex', got 'abc'" },
	{ TEST_DM_IN_CASE,
	  "bogus 1",
	  "c.case:1:1: expected case, queues, port, topology, require, flow, set, send, expect, "
	  "repeat or end, got 'bogus'" },
	{ TEST_DM_IN_CASE,
	  "queues 0",
	  "c.case:1:8: a port needs at least one queue" },
	{ TEST_DM_IN_CASE,
	  "queues 129",
	  "c.case:1:8: a number of queues '129' out of range (max 128)" },
	{ TEST_DM_IN_CASE,
	  "expect queue 1",
	  "c.case:1:8: 'expect queue' needs a 'send' before it" },
	{ TEST_DM_IN_CASE,
	  "send",
	  "c.case:1:5: unexpected end of line: expected a packet description, 'hex' or "
	  "'from'" },
	{ TEST_DM_IN_CASE,
	  "send count 0 eth()",
	  "c.case:1:12: a send needs at least one packet" },
	{ TEST_DM_IN_CASE,
	  "send port eth()",
	  "c.case:1:11: expected a port number or a switch port name (pf, rep0, rep1, vf0, "
	  "vf1, wire), got 'eth()'" },
	{ TEST_DM_IN_CASE,
	  "send port wire eth()",
	  "c.case:1:11: no 'wire' port in this switch topology (the PF's uplink is looped)" },
	{ TEST_DM_IN_CASE,
	  "topology ring",
	  "c.case:1:10: expected 'switch' after 'topology' (the only topology a case can "
	  "ask for)" },
	{ TEST_DM_IN_CASE,
	  "send eth()\ntopology switch",
	  "c.case:2:1: 'topology' must come before the first flow command and send" },
	{ TEST_DM_IN_CASE,
	  "require flow create 0 ingress pattern end actions drop / end",
	  "c.case:1:14: only 'flow validate' can be required" },
	{ TEST_DM_IN_CASE,
	  "require send eth()",
	  "c.case:1:9: expected 'flow validate ...' after 'require'" },
	{ TEST_DM_IN_CASE,
	  "send count 2 from x.pcap",
	  "c.case:1:14: 'count' does not apply to 'from'" },
	{ TEST_DM_IN_CASE,
	  "send from missing.pcap",
	  "c.case:1:11: cannot read packets: ./missing.pcap: No such file or directory" },
	{ TEST_DM_IN_CASE,
	  "send eth()/ipv4()\nexpect queue x",
	  "c.case:2:14: expected a queue index, got 'x'" },
	{ TEST_DM_IN_CASE,
	  "send eth()/ipv4()\nexpect packet 3 queue 1",
	  "c.case:2:15: packet 3 out of range: the send has 1 packet(s)" },
	{ TEST_DM_IN_CASE,
	  "send eth()/ipv4()\nexpect packet 0 received 1",
	  "c.case:2:17: 'received' applies to all the packets of a send, not to one" },
	{ TEST_DM_IN_CASE,
	  "send eth()/ipv4()\nexpect fate 1",
	  "c.case:2:8: expected queue, port, drop, received, bytes, field, mark, flag, no, "
	  "rss, count or reject after 'expect'" },
	{ TEST_DM_IN_CASE,
	  "send eth()/ipv4()\nexpect field ipv4.tll == 1",
	  "c.case:2:14: expected a field such as ipv4.ttl or udp[1].dport" },
	{ TEST_DM_IN_CASE,
	  "send eth()/ipv4()\nexpect field ipv4.ttl = 1",
	  "c.case:2:23: expected == or !=" },
	{ TEST_DM_IN_CASE,
	  "send eth()/ipv4()\nexpect field ipv4.ttl == x",
	  "c.case:2:26: expected a value for ipv4.ttl" },
	{ TEST_DM_IN_CASE,
	  "send eth()/ipv4()\nexpect rss spread queues 0-3",
	  "c.case:2:19: expected 'over'" },
	{ TEST_DM_IN_CASE,
	  "send eth()/ipv4()\nexpect rss queues 3-1",
	  "c.case:2:19: expected a queue set such as 0-3 or 0,2,5 (queues below 128), got "
	  "'3-1'" },
	{ TEST_DM_IN_CASE,
	  "send eth()/ipv4()\nexpect mark",
	  "c.case:2:12: unexpected end of line: expected a mark value or 'none'" },
	{ TEST_DM_IN_CASE,
	  "send eth()/ipv4()\nexpect queue 1 2",
	  "c.case:2:16: unexpected '2' at the end of the statement" },
	{ TEST_DM_IN_CASE,
	  "send eth()/ipv4()\nexpect bytes hex 0g",
	  "c.case:2:18: expected packet bytes in hexadecimal" },
	{ TEST_DM_IN_CASE,
	  "expect count rule 0 packets",
	  "c.case:1:28: unexpected end of line: expected a packet count" },
	{ TEST_DM_IN_CASE,
	  "expect count 0 packets 1",
	  "c.case:1:14: expected 'rule'" },
	{ TEST_DM_IN_CASE,
	  "expect reject flow create 0 ingress pattern end actions end",
	  "c.case:1:60: unexpected end of line: expected 'error <RTE_FLOW_ERROR_TYPE_...>' "
	  "at the end" },
	{ TEST_DM_IN_CASE,
	  "expect reject flow create 0 ingress pattern end actions end error ITEMS",
	  "c.case:1:67: unknown error type 'ITEMS' (expected RTE_FLOW_ERROR_TYPE_...)" },
	{ TEST_DM_IN_CASE,
	  "expect reject flow flush 0 error ITEM",
	  "c.case:1:15: only 'flow create' and 'flow validate' can be expected to fail" },
	{ TEST_DM_IN_CASE,
	  "flow create 0 ingress pattern eth / end actions drop / end\nqueues 2",
	  "c.case:2:1: 'queues' must come before the first flow command" },
	{ TEST_DM_IN_CASE,
	  "case",
	  "c.case:1:5: unexpected end of line: expected a case name" },
	{ TEST_DM_IN_CASE,
	  "send hex 0102 03",
	  "c.case:1:15: unexpected '03' at the end of the statement" },
	{ TEST_DM_IN_CASE,
	  "send eth()/ipv4()\nexpect no marks",
	  "c.case:2:11: expected 'flag' or 'mark' after 'no'" },
};

static int
parse(enum test_dm_input kind, const char *input, struct test_dm_err *err)
{
	struct test_dm_flow_ctx ctx;
	struct test_dm_flow_cmd *cmd;
	struct test_dm_pkt_tmpl *t;
	struct test_dm_case *c;
	int ret;

	switch (kind) {
	case TEST_DM_IN_FLOW:
		test_dm_flow_ctx_init(&ctx);
		ret = test_dm_flow_parse_str(&ctx, input, "r.cmd", 1, &cmd, err);
		if (ret == 0)
			test_dm_flow_cmd_free(cmd);
		return ret;
	case TEST_DM_IN_PKT:
		ret = test_dm_pkt_parse_str(input, "p", 1, &t, err);
		if (ret == 0)
			test_dm_pkt_tmpl_free(t);
		return ret;
	default:
		ret = test_dm_case_parse(input, strlen(input), "c.case", &c, err);
		if (ret == 0)
			test_dm_case_free(c);
		return ret;
	}
}

static void
test_malformed(void **state)
{
	struct test_dm_err err;
	unsigned int i, failed = 0;
	int ret;

	(void)state;
	for (i = 0; i < RTE_DIM(bad); i++) {
		memset(&err, 0, sizeof(err));
		ret = parse(bad[i].kind, bad[i].input, &err);
		if (ret != -EINVAL || strcmp(err.msg, bad[i].msg) != 0) {
			print_error("input %u: \"%s\"\n  got      (%d) %s\n  expected %s\n", i,
				    bad[i].input, ret, err.msg, bad[i].msg);
			failed++;
		}
	}
	assert_int_equal(failed, 0);
	/* The brief asks for at least 50 of them. */
	assert_true(RTE_DIM(bad) >= 50);
}

/* The error position is the offending token's, on whichever line it is. */
static void
test_positions_in_case_files(void **state)
{
	static const char text[] =
		"# a comment line\n"
		"case positions\n"
		"\n"
		"flow create 0 ingress pattern eth / \\\n"
		"    ipv4 ttl is 64 / \\\n"
		"    udp dst is 99999 / end actions drop / end\n";
	struct test_dm_case *c;
	struct test_dm_err err;

	(void)state;
	assert_int_equal(test_dm_case_parse(text, strlen(text), "dir/x.case", &c, &err), -EINVAL);
	assert_string_equal(err.msg, "dir/x.case:6:16: value '99999' out of range for 'dst' "
			    "(max 65535)");
	assert_int_equal(err.pos.line, 6);
	assert_int_equal(err.pos.col, 16);
}

/* Valid inputs close to the malformed ones are accepted (the table is not vacuous). */
static void
test_near_misses_accepted(void **state)
{
	static const struct {
		enum test_dm_input kind;
		const char *input;
	} good[] = {
		{ TEST_DM_IN_FLOW, "flow create 0 ingress pattern eth / end actions drop / end" },
		{ TEST_DM_IN_FLOW, "flow create 0 ingress pattern vlan vid is 4095 / end "
				   "actions drop / end" },
		{ TEST_DM_IN_FLOW, "flow create 0 ingress pattern ipv4 src is 10.0.0.1 "
				   "src prefix 32 / end actions drop / end" },
		{ TEST_DM_IN_FLOW, "flow destroy 0 rule 1 rule 2" },
		{ TEST_DM_IN_FLOW, "set vxlan-with-vlan vlan-tci 3" },
		{ TEST_DM_IN_PKT, "eth()/ipv4(ttl=255)" },
		{ TEST_DM_IN_PKT, "ipv4(ttl=1..5)" },
		{ TEST_DM_IN_PKT, "tcp(flags=SA)" },
		{ TEST_DM_IN_PKT, "eth / ipv4 / payload(len=9000)" },
		{ TEST_DM_IN_CASE, "queues 128" },
		{ TEST_DM_IN_CASE, "send eth()/ipv4()\nexpect packet 0 queue 1" },
		{ TEST_DM_IN_CASE, "send eth()/ipv4()\nexpect no mark\nexpect no flag" },
		{ TEST_DM_IN_CASE, "expect reject flow create 0 ingress pattern end actions end "
				   "error ITEM" },
	};
	struct test_dm_err err;
	unsigned int i;

	(void)state;
	for (i = 0; i < RTE_DIM(good); i++) {
		if (parse(good[i].kind, good[i].input, &err) != 0)
			print_error("input %u: \"%s\": %s\n", i, good[i].input, err.msg);
		assert_int_equal(parse(good[i].kind, good[i].input, &err), 0);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_positions_in_case_files),
		cmocka_unit_test(test_near_misses_accepted),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
