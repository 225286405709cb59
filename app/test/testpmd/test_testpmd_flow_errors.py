#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5dm authors
"""Invalid rte_flow rules through the stock testpmd: each is refused with a precise error
and leaves the steering state exactly as it was.

One testpmd run: valid rules of several kinds are created (ingress and egress, jumps,
RSS, counters, marks, rewrites, decap), then `flow dump` writes the steering dump of both
domains, then every bad rule below goes through `flow validate` and `flow create`; both
must fail with the rte_flow error type and message listed here. A second dump must be
byte-for-byte the first one (it holds object addresses, stable within a run), and the
traffic sent afterwards must still be steered by the valid rules alone.
See testpmd_pcap.py for the topology.
"""

import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from testpmd_pcap import (ANY, MLX5DM_PORT, Case, P, describe_error,  # noqa: E402
                          error_matches, main, setf)

from scapy.all import IP, TCP, UDP, VXLAN, Ether, IPv6  # noqa: E402

# rte_flow error types as testpmd names them.
ATTR, GROUP, PRIO, INGRESS, EGRESS, TRANSFER = ('attributes structure', 'group field',
                                                'priority field', 'ingress field',
                                                'egress field', 'transfer field')
ITEM, SPEC, LAST, MASK = ('specific pattern item', 'item specification',
                          'item specification range', 'item specification mask')
ACT, CONF = 'specific action', 'action configuration'

ORDER = ('header changes must come in the order the device applies them: decap, VLAN pop, '
         'field changes, VLAN push, encap')
ONLY_V4 = 'IPV4: only IHL, DSCP/ECN, fragment_offset, TTL, protocol and addresses can be matched'
MF_WIDTH = 'MODIFY_FIELD: width is 0 or offset + width exceeds the destination field'


def i(pattern, actions='queue index 1'):
    return 'ingress group 7 pattern %s / end actions %s / end' % (pattern, actions)


def e(pattern, actions):
    return 'egress group 7 pattern %s / end actions %s / end' % (pattern, actions)


def mf(op, dst, src, width):
    return 'modify_field op %s dst_type %s src_type %s width %d' % (op, dst, src, width)


# The testpmd `set` commands the bad rules below refer to (raw headers 4 to 7).
SETUP = [
    'set vxlan ip-version ipv4 vni 1 udp-src 1 udp-dst 4789 ip-src 1.1.1.1 ip-dst 2.2.2.2 '
    'eth-src 0a:00:00:00:00:01 eth-dst 0a:00:00:00:00:02',
    'set raw_encap 4 eth / ipv6 / ipv6 / ipv6 / end_set',
    'set raw_encap 5 eth src is 0a:00:00:00:00:01 / ipv4 / udp / vxlan / end_set',
    'set raw_decap 5 eth / end_set',
    'set raw_encap 6 eth / end_set',
    'set raw_decap 6 eth / ipv4 / udp / vxlan / end_set',
]

BAD = [
    # attributes
    ('transfer pattern eth / end actions drop / end', TRANSFER,
     'transfer (FDB) rules need an E-Switch: a port of a vdev with representor=vf[...]'),
    ('ingress egress pattern eth / end actions drop / end', EGRESS,
     'a rule is either ingress or egress, not both'),
    ('pattern eth / end actions drop / end', INGRESS, 'ingress or egress must be set'),
    ('ingress group 4294967295 pattern eth / end actions drop / end', GROUP,
     'group must be below 4294967295'),
    ('ingress priority 16383 pattern eth / end actions drop / end', PRIO,
     'priority must be at most 16382'),
    (i('eth', 'jump group 7'), CONF, "JUMP target group must be higher than the rule's group"),
    (i('eth', 'jump group 3'), CONF, "JUMP target group must be higher than the rule's group"),
    (i('eth', 'jump group 4294967295'), CONF, 'JUMP target group must be below 4294967295'),
    # items
    (i('eth / ipv4 / udp / geneve'), ITEM, 'item type GENEVE not supported'),
    (i('eth / ipv4 / sctp'), ITEM, 'item type SCTP not supported'),
    (i('eth dst mask ff:ff:ff:ff:ff:ff'), ITEM, 'ETH: mask or last given without spec'),
    (i('eth type spec 0x0800 type last 0x0806 type mask 0xffff'), LAST,
     'EtherType range cannot be matched'),
    (i('vlan'), ITEM, 'VLAN must follow an ETH item'),
    (i('eth / vlan / vlan / vlan'), ITEM,
     'at most two VLAN items per header level can be matched'),
    (i('eth / ipv4 packet_id is 5'), MASK, ONLY_V4),
    (i('eth / ipv4 version_ihl is 0x45'), MASK, ONLY_V4),
    (i('eth / ipv4 dst spec 10.0.0.1 dst last 10.0.0.5 dst mask 255.255.255.255'), LAST,
     'range cannot be matched: only ranges a mask expresses (spec ends in zeros, last in ones) '
     'are supported'),
    (i('eth / ipv4 dst spec 10.0.0.9 dst last 10.0.0.1 dst mask 255.255.255.255'), LAST,
     'IPV4: empty range: last is below spec'),
    (i('eth / ipv4 fragment_offset spec 0 fragment_offset mask 0x1fff'), MASK,
     'IPV4 fragment_offset can only be matched with mask 0x3fff'),
    (i('eth / ipv4 fragment_offset spec 2 fragment_offset mask 0x3fff'), SPEC,
     'IPV4 fragment_offset: only spec 0 (not a fragment) or spec 1 with last 0x3fff '
     '(a fragment) can be matched'),
    (i('eth / ipv6 has_frag_ext is 1'), MASK,
     'IPV6: only traffic class, flow label, next header, hop limit and addresses can be '
     'matched'),
    (i('eth / ipv4 / ipv6'), ITEM, 'only one L3 item per header level'),
    (i('eth type is 0x86dd / ipv4'), ITEM, 'L3 item does not match the EtherType given before it'),
    (i('eth / tcp'), ITEM, 'TCP needs an IPV4 or IPV6 item before it'),
    (i('eth / udp'), ITEM, 'UDP needs an IPV4 or IPV6 item before it'),
    (i('eth / ipv4 / tcp / udp'), ITEM, 'only one L4 item per header level'),
    (i('eth / ipv4 proto is 17 / tcp'), ITEM,
     'TCP: item contradicts a previous item or what it implies'),
    (i('eth / ipv6 / icmp'), ITEM, 'ICMP needs an IPV4 item before it'),
    (i('eth / ipv4 / icmp6'), ITEM, 'ICMP6 needs an IPV6 item before it'),
    (i('eth / ipv4 / udp / vxlan / eth / ipv4 / icmp type is 8'), MASK,
     'this field cannot be matched at this position of the pattern'),
    (i('eth / ipv4 / udp / vxlan / eth / ipv6 / icmp6 code is 1'), MASK,
     'this field cannot be matched at this position of the pattern'),
    (i('eth / ipv4 / vxlan'), ITEM, 'VXLAN needs an outer UDP item before it'),
    (i('eth / gre'), ITEM, 'GRE needs an outer IPV4 or IPV6 item before it'),
    (i('eth / ipv6 / udp / gre'), ITEM, 'GRE cannot follow an L4 item'),
    (i('eth / ipv4 / udp / gre_key value is 1'), ITEM, 'GRE_KEY must directly follow GRE'),
    (i('eth / ipv4 / gre k_bit is 0 / gre_key value is 1'), ITEM,
     'GRE_KEY: item contradicts a previous item or what it implies'),
    (i('eth / ipv4 / gre / eth'), ITEM, 'an inner ETH is only supported after VXLAN'),
    (i('eth / ipv4 / udp / vxlan / eth / ipv4 / udp / gre'), ITEM,
     'only one tunnel item per pattern'),
    (i('eth / ipv4 / udp / vxlan / mpls label is 5'), ITEM, 'MPLS after VXLAN is not supported'),
    (i('eth / ipv4 / gre protocol is 0x86dd / ipv4'), ITEM,
     'L3 item does not match the GRE protocol given before it'),
    (i('eth / ipv4 / gre / ipv4 / mpls label is 5'), ITEM,
     'MPLS over GRE must follow GRE (or GRE_KEY) directly'),
    (i('eth / ipv6 / tcp / mpls label is 5'), ITEM,
     'MPLS is supported after ETH/VLAN, GRE or UDP only'),
    (i('eth / mpls / ipv4'), ITEM, 'no header item can follow MPLS'),
    (i('tag data is 1 index is 4'), SPEC, 'TAG index must be 0 to 3'),
    (i('mark id is 0xfffffe'), SPEC, 'MARK id must be at most 0xfffffd'),
    (e('mark id is 1', 'drop'), ITEM, 'MARK item is supported on ingress only'),
    # fate, mark, count
    (i('eth', 'count'), ACT, 'ingress rules need a fate action: QUEUE, RSS, DROP or JUMP'),
    (i('eth', 'queue index 1 / drop'), ACT, 'only one fate action (QUEUE, RSS, DROP, JUMP) per rule'),
    (i('eth', 'count / count / drop'), ACT, 'only one COUNT action per rule'),
    (i('eth', 'queue index 9'), CONF, 'QUEUE index is beyond the configured Rx queues'),
    (e('eth', 'queue index 0'), ACT, 'QUEUE is an ingress action'),
    (e('eth', 'rss'), ACT, 'RSS is an ingress action'),
    (e('eth', 'mark id 1'), ACT, 'MARK is an ingress action'),
    (e('eth', 'flag'), ACT, 'FLAG is an ingress action'),
    (i('eth', 'mark id 1 / flag / drop'), ACT, 'only one MARK or FLAG action per rule'),
    (i('eth', 'mark id 0xfffffe / drop'), CONF, 'MARK id must be at most 0xfffffd'),
    (i('eth', 'age timeout 10 / drop'), ACT, 'action type AGE not supported'),
    (i('eth', 'port_id id 0'), ACT, 'action type PORT_ID not supported'),
    (i('eth', 'send_to_kernel'), ACT, 'action type SEND_TO_KERNEL not supported'),
    # RSS
    (i('eth', 'rss queues end'), CONF, 'RSS needs at least one queue'),
    (i('eth', 'rss queues 1 1 end'), CONF, 'RSS queue list has duplicates'),
    (i('eth', 'rss queues 1 9 end'), CONF, 'RSS queue index is beyond the configured Rx queues'),
    (i('eth', 'rss key 6d5a56da255b0ec24167253d43a38fb0d0ca2bcbae7b30b477cb2da38030f20c6a42b7'
              '3bbeac01 key_len 39 queues 0 1 end'), CONF, 'RSS key must be 40 bytes'),
    (i('eth', 'rss level 3 queues 0 1 end'), CONF, 'RSS level must be 0 or 1 (outer) or 2 (inner)'),
    (i('eth / ipv4', 'rss level 2 queues 0 1 end'), CONF,
     'inner RSS (level 2) needs a tunnel item in the pattern'),
    (i('eth', 'rss types l2-payload end queues 0 1 end'), CONF,
     'RSS types contain hash types the device cannot compute (IPv4/IPv6 addresses and TCP/UDP '
     'ports only)'),
    (i('eth', 'rss types ipv4 l3-src-only l3-dst-only end queues 0 1 end'), CONF,
     'RSS types L3_SRC_ONLY and L3_DST_ONLY together'),
    (i('eth', 'rss types ipv4-udp l4-src-only l4-dst-only end queues 0 1 end'), CONF,
     'RSS types L4_SRC_ONLY and L4_DST_ONLY together'),
    (i('eth', 'rss func simple_xor queues 0 1 end'), CONF,
     'RSS hash function not supported: Toeplitz or symmetric Toeplitz only'),
    # header rewrites
    (i('eth / ipv4', 'set_ipv4_src ipv4_addr 1.1.1.1 / drop'), ACT,
     'DROP cannot be combined with header changes'),
    (i('eth / ipv4', 'set_tp_src port 1 / queue index 1'), ACT,
     'SET_TP_SRC/DST needs a TCP or UDP item in the pattern'),
    (i('eth', 'set_ttl ttl_value 1 / queue index 1'), ACT,
     'SET_TTL/DEC_TTL needs an IPV4 or IPV6 item in the pattern'),
    (i('eth / ipv6', 'set_ipv4_src ipv4_addr 1.1.1.1 / queue index 1'), ACT,
     'SET_IPV4_SRC needs an IPV4 item in the pattern'),
    (i('eth / ipv4', 'set_ipv6_dst ipv6_addr ::1 / queue index 1'), ACT,
     'SET_IPV6_DST needs an IPV6 item in the pattern'),
    (i('eth / ipv6', 'set_ipv4_dscp dscp_value 3 / queue index 1'), ACT,
     'SET_IPV4_DSCP needs an IPV4 item in the pattern'),
    (i('eth / ipv4 / udp', 'inc_tcp_ack value 1 / queue index 1'), ACT,
     'INC/DEC_TCP_SEQ/ACK needs a TCP item in the pattern'),
    (i('eth / ipv4', 'set_ipv4_dscp dscp_value 64 / queue index 1'), CONF,
     'value out of range (DSCP is 0 to 63)'),
    (i('eth', 'set_tag data 1 index 0 / queue index 1'), CONF, 'mask is zero: nothing to set'),
    (i('eth', 'set_tag data 1 mask 1 index 4 / queue index 1'), CONF,
     'SET_TAG index must be 0 to 3'),
    (i('eth', 'set_meta data 1 / queue index 1'), CONF, 'mask is zero: nothing to set'),
    (i('eth / ipv4 / udp', mf('set', 'vxlan_vni', 'value src_value 0x000001', 24) +
       ' / queue index 1'), CONF, 
     'MODIFY_FIELD: destination field 21 (enum rte_flow_field_id) not supported'),
    (i('eth / ipv4', mf('set', 'ipv4_dst dst_level 2', 'value src_value 0x01020304', 32) +
       ' / queue index 1'), CONF,
     'MODIFY_FIELD: only outermost headers (level 0 or 1) can be modified'),
    (i('eth', mf('set', 'tag dst_level 4', 'value src_value 0x01', 32) + ' / queue index 1'), CONF,
     'MODIFY_FIELD: TAG index (level) must be 0 to 3'),
    (i('eth / ipv4 / udp', mf('set', 'tcp_port_dst', 'value src_value 0x0050', 16) +
       ' / queue index 1'), ACT,
     'MODIFY_FIELD: the pattern has no item for the header of this field'),
    (i('eth / ipv4', mf('add', 'ipv4_dst', 'value src_value 0x01', 32) + ' / queue index 1'), CONF,
     'MODIFY_FIELD ADD/SUB: only whole TTL, hop limit, TCP sequence or acknowledgment fields'),
    (i('eth / ipv4', mf('add', 'ipv4_ttl', 'ipv4_dscp', 8) + ' / queue index 1'), CONF,
     'MODIFY_FIELD ADD/SUB: the source must be an immediate value'),
    (i('eth / ipv4', mf('set', 'ipv4_ttl', 'value src_value 0x01', 9) + ' / queue index 1'), CONF,
     MF_WIDTH),
    (i('eth / ipv4', mf('set', 'ipv4_ttl', 'value src_value 0x01', 0) + ' / queue index 1'), CONF,
     MF_WIDTH),
    (i('eth / ipv4', mf('set', 'ipv4_dst', 'ipv4_ttl', 32) + ' / queue index 1'), CONF,
     'MODIFY_FIELD: offset + width exceeds the source field'),
    # VLAN
    (i('eth / ipv4', 'of_pop_vlan / queue index 1'), ACT,
     'OF_POP_VLAN needs a VLAN item per popped tag in the pattern'),
    (i('eth / vlan', 'of_pop_vlan / of_pop_vlan / queue index 1'), ACT,
     'OF_POP_VLAN needs a VLAN item per popped tag in the pattern'),
    (i('eth', 'of_set_vlan_pcp vlan_pcp 3 / queue index 1'), ACT,
     'OF_SET_VLAN_PCP is supported only after OF_PUSH_VLAN'),
    (i('eth', 'of_push_vlan ethertype 0x9100 / of_set_vlan_vid vlan_vid 1 / queue index 1'), CONF,
     'OF_PUSH_VLAN EtherType must be 0x8100 or 0x88a8'),
    (i('eth', 'of_push_vlan ethertype 0x8100 / queue index 1'), ACT,
     'OF_PUSH_VLAN needs OF_SET_VLAN_VID or a VLAN item with a fully masked VID'),
    (i('eth', 'of_push_vlan ethertype 0x8100 / of_set_vlan_vid vlan_vid 4095 / queue index 1'),
     CONF, 'VLAN VID must be at most 0xffe'),
    (i('eth', 'of_push_vlan ethertype 0x8100 / of_set_vlan_vid vlan_vid 1 / '
              'of_set_vlan_pcp vlan_pcp 8 / queue index 1'), CONF, 'VLAN PCP must be 0 to 7'),
    (i('eth', 'of_push_vlan ethertype 0x8100 / of_set_vlan_vid vlan_vid 1 / '
              'of_push_vlan ethertype 0x8100 / of_set_vlan_vid vlan_vid 2 / '
              'of_push_vlan ethertype 0x8100 / of_set_vlan_vid vlan_vid 3 / queue index 1'), ACT,
     'at most two OF_PUSH_VLAN actions per rule'),
    (i('eth / vlan', 'of_push_vlan ethertype 0x8100 / of_set_vlan_vid vlan_vid 1 / of_pop_vlan / '
                     'queue index 1'), ACT, ORDER),
    (i('eth / ipv4', 'of_push_vlan ethertype 0x8100 / of_set_vlan_vid vlan_vid 1 / '
                     'set_ipv4_dst ipv4_addr 1.1.1.1 / queue index 1'), ACT, ORDER),
    (i('eth / vlan', 'of_pop_vlan / of_push_vlan ethertype 0x8100 / of_set_vlan_vid vlan_vid 1 / '
                     'queue index 1'), ACT,
     'on ingress, OF_PUSH_VLAN cannot follow OF_POP_VLAN without a field change between them'),
    # encap / decap
    (i('eth / ipv4', 'vxlan_encap / queue index 1'), ACT,
     'VXLAN_ENCAP is an egress action (NIC RX cannot encapsulate)'),
    (e('eth / ipv4 / udp / vxlan', 'vxlan_decap'), ACT,
     'VXLAN_DECAP is an ingress action (NIC TX cannot decapsulate)'),
    (i('eth / ipv4 / udp', 'vxlan_decap / queue index 1'), ACT,
     'VXLAN_DECAP needs a VXLAN item in the pattern'),
    (i('eth / ipv4', 'raw_encap index 5 / queue index 1'), ACT,
     'RAW_ENCAP on ingress is only supported after RAW_DECAP (L3 tunnel decap)'),
    (i('eth / ipv4 / udp', 'raw_decap index 6 / queue index 1'), ACT,
     'RAW_DECAP needs a tunnel item in the pattern'),
    (e('eth / ipv4', 'raw_decap index 5'), ACT,
     'RAW_DECAP on egress is only supported before RAW_ENCAP (L2 to L3 tunnel encap)'),
    (e('eth / ipv4', 'raw_encap index 4'), CONF,
     'RAW_ENCAP header must be an even number of bytes, at most 126'),
    (i('eth / ipv4 / udp / vxlan', 'raw_decap index 5 / raw_encap index 5 / queue index 1'), CONF,
     'RAW_DECAP + RAW_ENCAP on ingress: an L3 tunnel decap needs a tunnel header over 34 bytes '
     'and a new L2 header of 14 or 18 bytes'),
    (e('eth / ipv4', 'raw_decap index 6 / raw_encap index 5'), CONF,
     'RAW_DECAP + RAW_ENCAP on egress: an L2 to L3 tunnel encap needs an L2 header of at most '
     '34 bytes and a tunnel header over 34 bytes'),
    (e('eth / ipv4', 'raw_encap index 5 / raw_decap index 5'), ACT,
     'RAW_DECAP must come before RAW_ENCAP'),
    (e('eth / ipv4', 'vxlan_encap / set_ipv4_dst ipv4_addr 1.1.1.1'), ACT, ORDER),
]

E = Ether(dst='00:11:22:33:44:55')


def to(dst, l4=None):
    return E / IP(src='10.0.0.1', dst=dst) / (l4 if l4 is not None else UDP(sport=1, dport=2))


def valid_cases():
    """Rules of many kinds, so the dump has tables, matchers, rules and actions of each."""
    vx = (Ether(src='0a:00:00:00:00:01', dst='0a:00:00:00:00:02') / IP(dst='172.16.0.2') /
          UDP(sport=5000, dport=4789) / VXLAN(vni=9) / to('10.0.0.2'))
    return [
        Case('valid: queue, count, mark, jump', [
            'ingress group {g} pattern eth / ipv4 dst is 10.0.0.2 / end '
            'actions count / mark id 3 / queue index 1 / end',
            'ingress group {g} pattern eth / ipv4 dst is 10.0.0.3 / end '
            'actions jump group {g1} / end',
            'ingress group {g1} pattern eth / ipv4 / tcp / end actions drop / end',
            'ingress group {g1} pattern eth / ipv4 / udp / end actions rss queues 2 3 end / end'],
            [P(to('10.0.0.2'), 1, mark=3), P(to('10.0.0.3', TCP()), None),
             P(to('10.0.0.3'), ANY), P(to('10.0.0.4'), 0)], counts={0: [0]}),
        Case('valid: rewrites and decap', [
            'ingress group {g} pattern eth / ipv6 / udp / end actions set_ipv6_dst ipv6_addr '
            '2001:db8::9 / dec_ttl / queue index 2 / end',
            'ingress group {g} pattern eth / ipv4 / udp / vxlan vni is 9 / end '
            'actions vxlan_decap / queue index 3 / end'],
            [P(E / IPv6(dst='2001:db8::1') / UDP(), 2, out=setf(IPv6, dst='2001:db8::9',
                                                              hlim=63)),
             P(vx, 3, out=lambda p: p[VXLAN].payload), P(to('10.0.0.2'), 0)]),
        Case('valid: egress', [
            'egress group {g} pattern eth / ipv4 dst is 10.0.0.2 / udp / end '
            'actions set_tp_dst port 99 / count / end'],
            [P(to('10.0.0.2'), ANY, out=setf(UDP, dport=99)), P(to('10.0.0.3'), ANY)],
            egress=True, counts={0: [0]}),
    ]


def body(s):
    d = tempfile.mkdtemp(prefix='mlx5dm_dump_')
    before, after = os.path.join(d, 'before.csv'), os.path.join(d, 'after.csv')
    cmds = SETUP + ['flow dump %d all %s' % (MLX5DM_PORT, before)]
    for rule, _, _ in BAD:
        cmds += ['flow validate %d %s' % (MLX5DM_PORT, rule),
                 'flow create %d %s' % (MLX5DM_PORT, rule)]
    cmds += ['flow dump %d all %s' % (MLX5DM_PORT, after)]
    s.c.check('at least 50 bad rules (%d)' % len(BAD), len(BAD) >= 50)
    try:
        s.run(valid_cases(), before_start=cmds)
        res = s.before_results
        s.c.check('a result for every command', len(res) == 2 * len(BAD) + 2,
                  'got %d' % len(res))
        res += [{'kind': 'silent'}] * (2 * len(BAD) + 2)
        s.c.check('both dumps written without an error',
                  res[0]['kind'] == 'silent' and res[2 * len(BAD) + 1]['kind'] == 'silent',
                  '%s / %s' % (describe_error(res[0]), describe_error(res[2 * len(BAD) + 1])))
        for n, (rule, etype, msg) in enumerate(BAD):
            v, c = res[1 + 2 * n], res[2 + 2 * n]
            s.c.check('validate refused: %s -> %s: %s' % (rule, etype, msg),
                      error_matches(v, etype, msg), describe_error(v))
            s.c.check('create refused the same way: %s' % rule,
                      error_matches(c, etype, msg), describe_error(c))
        dumps = []
        for path in (before, after):
            with open(path, 'rb') as f:
                dumps.append(f.read())
        s.c.check('the dump lists the valid rules (%d bytes, %d lines)' %
                  (len(dumps[0]), dumps[0].count(b'\n')),
                  dumps[0].count(b'\n') > 20 and
                  re.match(rb'(44[0-9][0-9],[^\n]*\n)*3000,', dumps[0]) is not None)
        s.c.check('the dump after the bad rules is byte-for-byte the one before',
                  dumps[0] == dumps[1], first_line_diff(dumps[0], dumps[1]))
    finally:
        for path in (before, after):
            if os.path.exists(path):
                os.unlink(path)
        os.rmdir(d)


def first_line_diff(a, b):
    la, lb = a.decode().splitlines(), b.decode().splitlines()
    for n, (x, y) in enumerate(zip(la, lb)):
        if x != y:
            return 'line %d:\n  before: %s\n  after:  %s' % (n + 1, x, y)
    return 'lengths %d and %d lines' % (len(la), len(lb))


if __name__ == '__main__':
    main('testpmd_flow_errors', body, __doc__)
