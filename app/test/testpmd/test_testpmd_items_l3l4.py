#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5dm authors
"""rte_flow L3/L4 items through the stock testpmd: IPV4, IPV6, TCP (ports, flags), UDP,
ICMP (type, code, identifier, sequence number) and ICMP6 (type, code).

Each case matches a field and sends a packet that has it (-> queue 1) and packets that
differ only in that field (-> the catch-all, queue 0), all arriving unchanged.
See testpmd_pcap.py for the topology.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from testpmd_pcap import Case, P, main  # noqa: E402

from scapy.all import (ARP, ICMP, IP, TCP, UDP, Ether, ICMPv6DestUnreach,  # noqa: E402
                       ICMPv6EchoReply, ICMPv6EchoRequest, IPv6)

E = Ether(dst='00:11:22:33:44:55')
V6A = '2001:db8::1'
V6B = '2001:db8::2'


def ip4(**kw):
    kw.setdefault('src', '10.0.0.1')
    kw.setdefault('dst', '10.0.0.2')
    return E / IP(**kw)


def ip6(**kw):
    kw.setdefault('src', V6A)
    kw.setdefault('dst', V6B)
    return E / IPv6(**kw)


def q1(rule):
    return ['ingress group {g} pattern %s / end actions queue index 1 / end' % rule]


def ipv4_cases():
    u = UDP(sport=1, dport=2)
    return [
        Case('ipv4 src', q1('eth / ipv4 src is 10.0.0.1'),
             [P(ip4() / u, 1), P(ip4(src='10.0.0.9') / u, 0), P(ip6() / u, 0)]),
        Case('ipv4 dst prefix (mask)', q1('eth / ipv4 dst spec 10.1.0.0 dst mask 255.255.0.0'),
             [P(ip4(dst='10.1.2.3') / u, 1), P(ip4(dst='10.1.255.0') / u, 1),
              P(ip4(dst='10.2.0.1') / u, 0)]),
        # With no mask the item's default mask applies (both addresses): give one.
        Case('ipv4 dst range (last)', q1('eth / ipv4 dst spec 10.0.0.0 dst last 10.0.0.255 '
                                         'dst mask 255.255.255.255'),
             [P(ip4(dst='10.0.0.7') / u, 1), P(ip4(dst='10.0.0.255') / u, 1),
              P(ip4(dst='10.0.1.0') / u, 0)]),
        Case('ipv4 no l3 fields', q1('eth / ipv4'),
             [P(ip4() / u, 1), P(ip6() / u, 0), P(E / ARP(), 0)]),
        Case('ipv4 tos (DSCP+ECN)', q1('eth / ipv4 tos is 0xb9'),
             [P(ip4(tos=0xb9) / u, 1), P(ip4(tos=0xb8) / u, 0), P(ip4(tos=0x01) / u, 0)]),
        Case('ipv4 dscp only (mask)', q1('eth / ipv4 tos spec 0x28 tos mask 0xfc'),
             [P(ip4(tos=0x28) / u, 1), P(ip4(tos=0x2b) / u, 1), P(ip4(tos=0x2c) / u, 0)]),
        Case('ipv4 ttl', q1('eth / ipv4 ttl is 3'),
             [P(ip4(ttl=3) / u, 1), P(ip4(ttl=4) / u, 0)]),
        Case('ipv4 proto', q1('eth / ipv4 proto is 6'),
             [P(ip4() / TCP(), 1), P(ip4() / u, 0), P(ip4() / ICMP(), 0)]),
        # The version is implied by the item; only the IHL nibble can be masked.
        Case('ipv4 ihl', q1('eth / ipv4 version_ihl spec 0x06 version_ihl mask 0x0f'),
             [P(ip4(options=b'\x01\x01\x01\x00') / u, 1), P(ip4() / u, 0)]),
        Case('ipv4 not a fragment', q1('eth / ipv4 fragment_offset spec 0 '
                                       'fragment_offset mask 0x3fff'),
             [P(ip4() / u, 1), P(ip4(flags='DF') / u, 1), P(ip4(flags='MF') / u, 0),
              P(ip4(frag=100) / u, 0)]),
        Case('ipv4 a fragment', q1('eth / ipv4 fragment_offset spec 1 fragment_offset last '
                                   '0x3fff fragment_offset mask 0x3fff'),
             [P(ip4(flags='MF') / u, 1), P(ip4(frag=100) / u, 1), P(ip4() / u, 0),
              P(ip4(flags='DF') / u, 0)]),
    ]


def ipv6_cases():
    u = UDP(sport=1, dport=2)
    return [
        Case('ipv6 src', q1('eth / ipv6 src is %s' % V6A),
             [P(ip6() / u, 1), P(ip6(src='2001:db8::9') / u, 0), P(ip4() / u, 0)]),
        Case('ipv6 dst prefix', q1('eth / ipv6 dst spec 2001:db8:aa:: dst mask ffff:ffff:ffff::'),
             [P(ip6(dst='2001:db8:aa::5') / u, 1), P(ip6(dst='2001:db8:ab::5') / u, 0)]),
        Case('ipv6 tc', q1('eth / ipv6 tc is 0x2e'),
             [P(ip6(tc=0x2e) / u, 1), P(ip6(tc=0x2f) / u, 0)]),
        Case('ipv6 flow label', q1('eth / ipv6 flow is 0x12345'),
             [P(ip6(fl=0x12345) / u, 1), P(ip6(fl=0x12344) / u, 0)]),
        Case('ipv6 next header', q1('eth / ipv6 proto is 17'),
             [P(ip6() / u, 1), P(ip6() / TCP(), 0), P(ip4() / u, 0)]),
        Case('ipv6 hop limit', q1('eth / ipv6 hop is 7'),
             [P(ip6(hlim=7) / u, 1), P(ip6(hlim=8) / u, 0)]),
    ]


def l4_cases():
    return [
        Case('udp dst', q1('eth / ipv4 / udp dst is 4000'),
             [P(ip4() / UDP(sport=5, dport=4000), 1), P(ip4() / UDP(sport=4000, dport=5), 0),
              P(ip4() / TCP(sport=5, dport=4000), 0)]),
        Case('udp src+dst over ipv6', q1('eth / ipv6 / udp src is 53 dst is 1053'),
             [P(ip6() / UDP(sport=53, dport=1053), 1), P(ip6() / UDP(sport=53, dport=1054), 0),
              P(ip4() / UDP(sport=53, dport=1053), 0)]),
        Case('tcp src', q1('eth / ipv4 / tcp src is 8080'),
             [P(ip4() / TCP(sport=8080, dport=1), 1), P(ip4() / TCP(sport=8081, dport=1), 0),
              P(ip4() / UDP(sport=8080, dport=1), 0)]),
        Case('tcp dst over ipv6', q1('eth / ipv6 / tcp dst is 443'),
             [P(ip6() / TCP(dport=443), 1), P(ip6() / TCP(dport=444), 0),
              P(ip4() / TCP(dport=443), 0)]),
        # No L4 header in a fragment, the first one included: L4 items miss them all, also
        # when their fields are matched as 0 (what an absent header would read).
        Case('udp dst 0 on fragments', q1('eth / ipv4 / udp dst is 0'),
             [P(ip4() / UDP(sport=5, dport=0), 1),
              P(ip4(flags='MF', proto=17) / UDP(sport=5, dport=0), 0),
              P(ip4(flags='MF', frag=100, proto=17) / bytes(24), 0),
              P(ip4(frag=200, proto=17) / bytes(24), 0)]),
        Case('tcp flags 0 on fragments', q1('eth / ipv4 / tcp flags is 0'),
             [P(ip4() / TCP(flags=0), 1), P(ip4(flags='MF', proto=6) / TCP(flags=0), 0),
              P(ip4(frag=200, proto=6) / bytes(24), 0)]),
        Case('tcp flags SYN only', q1('eth / ipv4 / tcp flags is 0x02'),
             [P(ip4() / TCP(flags='S'), 1), P(ip4() / TCP(flags='SA'), 0),
              P(ip4() / TCP(flags='A'), 0)]),
        Case('tcp flags SYN set (mask)', q1('eth / ipv4 / tcp flags spec 0x02 flags mask 0x02'),
             [P(ip4() / TCP(flags='S'), 1), P(ip4() / TCP(flags='SA'), 1),
              P(ip4() / TCP(flags='A'), 0), P(ip4() / TCP(flags='F'), 0)]),
        Case('5-tuple', q1('eth / ipv4 src is 10.0.0.1 dst is 10.0.0.2 proto is 6 / '
                           'tcp src is 1 dst is 2'),
             [P(ip4() / TCP(sport=1, dport=2), 1), P(ip4(src='10.0.0.3') / TCP(sport=1, dport=2), 0),
              P(ip4() / TCP(sport=1, dport=3), 0), P(ip4() / UDP(sport=1, dport=2), 0)]),
        Case('icmp (protocol)', q1('eth / ipv4 / icmp'),
             [P(ip4() / ICMP(type=8), 1), P(ip4() / ICMP(type=0), 1),
              P(ip4() / UDP(), 0), P(ip6() / ICMPv6EchoRequest(), 0)]),
        Case('icmp6 (protocol)', q1('eth / ipv6 / icmp6'),
             [P(ip6() / ICMPv6EchoRequest(), 1), P(ip6() / UDP(), 0),
              P(ip4() / ICMP(), 0)]),
        Case('icmp type', q1('eth / ipv4 / icmp type is 8'),
             [P(ip4() / ICMP(type=8), 1), P(ip4() / ICMP(type=0), 0),
              P(ip4() / ICMP(type=3, code=8), 0), P(ip4() / UDP(), 0)]),
        Case('icmp type and code', q1('eth / ipv4 / icmp type is 3 code is 1'),
             [P(ip4() / ICMP(type=3, code=1), 1), P(ip4() / ICMP(type=3, code=0), 0),
              P(ip4() / ICMP(type=1, code=1), 0)]),
        Case('icmp identifier and sequence', q1('eth / ipv4 / icmp ident is 7 seq is 9'),
             [P(ip4() / ICMP(type=8, id=7, seq=9), 1), P(ip4() / ICMP(type=8, id=7, seq=8), 0),
              P(ip4() / ICMP(type=8, id=6, seq=9), 0)]),
        Case('icmp6 type', q1('eth / ipv6 / icmp6 type is 128'),
             [P(ip6() / ICMPv6EchoRequest(), 1), P(ip6() / ICMPv6EchoReply(), 0),
              P(ip4() / ICMP(type=128), 0)]),
        Case('icmp6 code', q1('eth / ipv6 / icmp6 type is 1 code is 4'),
             [P(ip6() / ICMPv6DestUnreach(code=4), 1), P(ip6() / ICMPv6DestUnreach(code=3), 0)]),
    ]


def refusals():
    mask = 'item specification mask'
    only_v4 = ('IPV4: only IHL, DSCP/ECN, fragment_offset, TTL, protocol and addresses can be '
               'matched')

    return [Case('l3/l4 refusals', [], [], refused=[
        ('ingress group {g} pattern eth / ipv4 / udp / vxlan / eth / ipv4 / icmp type is 8 / '
         'end actions queue index 1 / end', mask,
         'this field cannot be matched at this position of the pattern'),
        ('ingress group {g} pattern eth / ipv4 packet_id is 5 / end actions queue index 1 / end',
         mask, only_v4),
        ('ingress group {g} pattern eth / ipv4 version_ihl is 0x45 / end '
         'actions queue index 1 / end', mask, only_v4),
        ('ingress group {g} pattern eth / ipv4 dst spec 10.0.0.1 dst last 10.0.0.5 '
         'dst mask 255.255.255.255 / end actions queue index 1 / end', 'item specification range',
         'range cannot be matched: only ranges a mask expresses (spec ends in zeros, last in '
         'ones) are supported'),
        ('ingress group {g} pattern eth / ipv4 dst spec 10.0.0.9 dst last 10.0.0.1 '
         'dst mask 255.255.255.255 / end actions queue index 1 / end', 'item specification range',
         'IPV4: empty range: last is below spec'),
        ('ingress group {g} pattern eth / ipv4 fragment_offset spec 0 fragment_offset mask '
         '0x1fff / end actions queue index 1 / end', mask,
         'IPV4 fragment_offset can only be matched with mask 0x3fff'),
        ('ingress group {g} pattern eth / ipv4 fragment_offset spec 2 fragment_offset mask '
         '0x3fff / end actions queue index 1 / end', 'item specification',
         'IPV4 fragment_offset: only spec 0 (not a fragment) or spec 1 with last 0x3fff '
         '(a fragment) can be matched'),
        ('ingress group {g} pattern eth / ipv6 / ipv4 / end actions queue index 1 / end',
         'specific pattern item', 'only one L3 item per header level'),
        ('ingress group {g} pattern eth / ipv4 proto is 17 / tcp / end '
         'actions queue index 1 / end', 'specific pattern item',
         'TCP: item contradicts a previous item or what it implies'),
        ('ingress group {g} pattern eth type is 0x86dd / ipv4 / end actions queue index 1 / end',
         'specific pattern item', 'L3 item does not match the EtherType given before it'),
        ('ingress group {g} pattern eth / tcp / end actions queue index 1 / end',
         'specific pattern item', 'TCP needs an IPV4 or IPV6 item before it'),
        ('ingress group {g} pattern eth / ipv6 has_frag_ext is 1 / end '
         'actions queue index 1 / end', mask,
         'IPV6: only traffic class, flow label, next header, hop limit and addresses can be '
         'matched'),
    ])]


def body(s):
    s.run(ipv4_cases() + ipv6_cases() + l4_cases() + refusals())


if __name__ == '__main__':
    main('testpmd_items_l3l4', body, __doc__)
