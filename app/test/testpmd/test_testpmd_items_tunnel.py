#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5dm authors
"""rte_flow tunnel items through the stock testpmd: VXLAN (VNI; inner ETH, IPV4, IPV6, TCP,
UDP), GRE (C/K/S bits, protocol; inner IPV4/IPV6/TCP/UDP), GRE_KEY, MPLS after GRE and
after UDP (the device's flex-parser lookups).

Matching packets go to queue 1; packets that differ only in the matched field, or carry
the field in the other header level (outer instead of inner), go to the catch-all (queue
0). All arrive unchanged. See testpmd_pcap.py for the topology.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from testpmd_pcap import Case, P, main  # noqa: E402

from scapy.all import GRE, IP, TCP, UDP, VXLAN, Dot1Q, Ether, IPv6  # noqa: E402
from scapy.contrib.mpls import MPLS  # noqa: E402

E = Ether(dst='00:11:22:33:44:55')
IN_E = Ether(dst='00:00:00:00:00:aa', src='00:00:00:00:00:bb')


def o4(**kw):
    kw.setdefault('src', '10.0.0.1')
    kw.setdefault('dst', '10.0.0.2')
    return E / IP(**kw)


def o6():
    return E / IPv6(src='2001:db8::1', dst='2001:db8::2')


def vx(vni=42, sport=50000, dport=4789):
    return UDP(sport=sport, dport=dport) / VXLAN(vni=vni)


def in4(dst='192.168.0.1', l4=None):
    return IP(src='192.168.0.9', dst=dst) / (l4 if l4 is not None else UDP(sport=7, dport=8))


def q1(rule):
    return ['ingress group {g} pattern %s / end actions queue index 1 / end' % rule]


def vxlan_cases():
    return [
        Case('vxlan vni', q1('eth / ipv4 / udp / vxlan vni is 42'),
             [P(o4() / vx(42) / IN_E / in4(), 1), P(o4() / vx(43) / IN_E / in4(), 0),
              P(o4() / vx(42, dport=4790) / IN_E / in4(), 0),
              P(o4() / UDP(sport=1, dport=2), 0)]),
        Case('vxlan over ipv6', q1('eth / ipv6 / udp / vxlan vni is 7'),
             [P(o6() / vx(7) / IN_E / in4(), 1), P(o4() / vx(7) / IN_E / in4(), 0),
              P(o6() / vx(8) / IN_E / in4(), 0)]),
        Case('vxlan inner eth', q1('eth / ipv4 / udp / vxlan / eth dst is 00:00:00:00:00:aa'),
             [P(o4() / vx() / IN_E / in4(), 1),
              P(o4() / vx() / Ether(dst='00:00:00:00:00:ab') / in4(), 0),
              P(Ether(dst='00:00:00:00:00:aa') / IP() / vx() / Ether() / in4(), 0)]),
        Case('vxlan inner ipv4', q1('eth / ipv4 / udp / vxlan vni is 42 / eth / '
                                    'ipv4 dst is 192.168.0.1'),
             [P(o4() / vx() / IN_E / in4(), 1),
              P(o4() / vx() / IN_E / in4(dst='192.168.0.2'), 0),
              P(o4(dst='192.168.0.1') / vx() / IN_E / in4(dst='10.0.0.2'), 0),
              P(o4(dst='192.168.0.1') / UDP(), 0)]),
        Case('vxlan inner ipv6', q1('eth / ipv4 / udp / vxlan / eth / ipv6 src is 2001:db8::77'),
             [P(o4() / vx() / IN_E / IPv6(src='2001:db8::77') / UDP(), 1),
              P(o4() / vx() / IN_E / IPv6(src='2001:db8::78') / UDP(), 0),
              P(o4() / vx() / IN_E / in4(), 0),
              P(E / IPv6(src='2001:db8::77') / UDP(), 0)]),
        # The inner ETH item may be left out (the inner frame is Ethernet all the same).
        Case('vxlan inner ipv4, no inner eth item', q1('eth / ipv4 / udp / vxlan / '
                                                      'ipv4 src is 192.168.0.9'),
             [P(o4() / vx() / IN_E / in4(), 1),
              P(o4() / vx() / IN_E / IP(src='192.168.0.8') / UDP(), 0),
              P(o4(src='192.168.0.9') / vx() / IN_E / IP(src='1.1.1.1') / UDP(), 0)]),
        Case('vxlan inner tcp', q1('eth / ipv4 / udp / vxlan / eth / ipv4 / tcp dst is 80'),
             [P(o4() / vx() / IN_E / in4(l4=TCP(dport=80)), 1),
              P(o4() / vx() / IN_E / in4(l4=TCP(dport=81)), 0),
              P(o4() / vx() / IN_E / in4(l4=UDP(dport=80)), 0),
              P(o4() / TCP(dport=80), 0)]),
        Case('vxlan inner udp', q1('eth / ipv4 / udp / vxlan / eth / ipv4 / udp src is 5353'),
             [P(o4() / vx() / IN_E / in4(l4=UDP(sport=5353, dport=1)), 1),
              P(o4() / vx() / IN_E / in4(l4=UDP(sport=5354, dport=1)), 0),
              P(o4() / vx(sport=5353) / IN_E / in4(l4=UDP(sport=1, dport=1)), 0)]),
        Case('vxlan inner vlan', q1('eth / ipv4 / udp / vxlan / eth / vlan vid is 12'),
             [P(o4() / vx() / IN_E / Dot1Q(vlan=12) / in4(), 1),
              P(o4() / vx() / IN_E / Dot1Q(vlan=13) / in4(), 0),
              P(E / Dot1Q(vlan=12) / IP() / vx() / IN_E / in4(), 0)]),
    ]


def gre_cases():
    g4 = GRE(proto=0x0800)
    return [
        Case('gre', q1('eth / ipv4 / gre'),
             [P(o4() / g4 / in4(), 1), P(o4() / UDP(), 0), P(o6() / g4 / in4(), 0)]),
        Case('gre over ipv6', q1('eth / ipv6 / gre'),
             [P(o6() / g4 / in4(), 1), P(o4() / g4 / in4(), 0)]),
        Case('gre protocol', q1('eth / ipv4 / gre protocol is 0x86dd'),
             [P(o4() / GRE(proto=0x86dd) / IPv6() / UDP(), 1), P(o4() / g4 / in4(), 0)]),
        Case('gre k bit', q1('eth / ipv4 / gre k_bit is 1'),
             [P(o4() / GRE(proto=0x0800, key_present=1, key=9) / in4(), 1),
              P(o4() / g4 / in4(), 0)]),
        Case('gre c bit', q1('eth / ipv4 / gre c_bit is 1'),
             [P(o4() / GRE(proto=0x0800, chksum_present=1) / in4(), 1),
              P(o4() / g4 / in4(), 0)]),
        Case('gre s bit', q1('eth / ipv4 / gre s_bit is 1'),
             [P(o4() / GRE(proto=0x0800, seqnum_present=1, seqence_number=3) / in4(), 1),
              P(o4() / g4 / in4(), 0)]),
        Case('gre_key', q1('eth / ipv4 / gre / gre_key value is 0x1234'),
             [P(o4() / GRE(proto=0x0800, key_present=1, key=0x1234) / in4(), 1),
              P(o4() / GRE(proto=0x0800, key_present=1, key=0x1235) / in4(), 0),
              P(o4() / g4 / in4(), 0),
              P(o4() / GRE(proto=0x0800, key_present=1, chksum_present=1, key=0x1234) /
                in4(), 1, what='key after a checksum')]),
        Case('gre inner ipv4/udp', q1('eth / ipv4 / gre / ipv4 dst is 192.168.1.1 / '
                                      'udp dst is 53'),
             [P(o4() / g4 / in4('192.168.1.1', UDP(dport=53)), 1),
              P(o4() / g4 / in4('192.168.1.2', UDP(dport=53)), 0),
              P(o4() / g4 / in4('192.168.1.1', UDP(dport=54)), 0),
              P(o4(dst='192.168.1.1') / UDP(dport=53), 0)]),
        Case('gre inner ipv6/tcp', q1('eth / ipv4 / gre / ipv6 dst is 2001:db8::5 / '
                                      'tcp src is 22'),
             [P(o4() / GRE(proto=0x86dd) / IPv6(dst='2001:db8::5') / TCP(sport=22), 1),
              P(o4() / GRE(proto=0x86dd) / IPv6(dst='2001:db8::5') / TCP(sport=23), 0),
              P(o4() / GRE(proto=0x86dd) / IPv6(dst='2001:db8::6') / TCP(sport=22), 0)]),
        # The L3 item after GRE implies GRE's protocol: an IP header behind MPLS labels
        # (or behind any other GRE payload) is no match.
        Case('gre inner ipv4 implies protocol', q1('eth / ipv4 / gre / ipv4 ttl is 2'),
             [P(o4() / g4 / IP(src='192.168.0.9', dst='192.168.0.1', ttl=2) / UDP(), 1),
              P(o4() / GRE(proto=0x8847) / MPLS(label=16, s=1) /
                IP(src='192.168.0.9', dst='192.168.0.1', ttl=2) / UDP(), 0,
                what='IPv4 behind an MPLS label'),
              P(o4() / GRE(proto=0x6558) / IP(src='192.168.0.9', ttl=2) / UDP(), 0,
                what='GRE protocol 0x6558')]),
    ]


def mpls_cases():
    """MPLS after GRE (GRE protocol 0x8847) and after UDP (destination port 6635): the first
    label is read by the device's flex parsers (STE lookups FLEX_PARSER_0/1)."""
    gm = GRE(proto=0x8847)

    def m(label, **kw):
        kw.setdefault('s', 1)
        kw.setdefault('ttl', 64)
        return MPLS(label=label, **kw)

    def um(label, dport=6635, **kw):
        return UDP(sport=40000, dport=dport) / m(label, **kw)

    def q(n, rule):
        return 'ingress group {g} pattern %s / end actions queue index %d / end' % (rule, n)

    return [
        Case('mpls over gre and over udp',
             [q(1, 'eth / ipv4 / gre / mpls label is 100'),
              q(2, 'eth / ipv4 / udp / mpls label is 200')],
             [P(o4() / gm / m(100) / in4(), 1),
              P(o4() / gm / m(101) / in4(), 0, what='other label after GRE'),
              P(o4() / GRE(proto=0x0800) / in4(), 0, what='GRE without MPLS'),
              P(o4() / gm / m(200) / in4(), 0, what="the UDP rule's label after GRE"),
              P(o4() / um(200) / in4(), 2),
              P(o4() / um(201) / in4(), 0, what='other label after UDP'),
              P(o4() / um(200, dport=6636) / in4(), 0, what='UDP port 6636'),
              P(o4() / um(100) / in4(), 0, what="the GRE rule's label after UDP"),
              P(Ether(dst='00:11:22:33:44:55', type=0x8847) / m(100) / in4(), 0,
                what='MPLS right after ETH')]),
        # testpmd 22.11 has no token for the MPLS TTL.
        Case('mpls over gre label+tc+s',
             [q(1, 'eth / ipv4 / gre / mpls label is 77 tc is 5 s is 0')],
             [P(o4() / gm / m(77, cos=5, s=0) / m(3) / in4(), 1),
              P(o4() / gm / m(77, cos=5, s=1) / in4(), 0),
              P(o4() / gm / m(77, cos=4, s=0) / m(3) / in4(), 0),
              P(o4() / gm / m(78, cos=5, s=0) / m(3) / in4(), 0)]),
        Case('mpls over udp label+tc',
             [q(3, 'eth / ipv6 / udp / mpls label is 0xfffff tc is 7')],
             [P(o6() / um(0xfffff, cos=7) / in4(), 3),
              P(o6() / um(0xfffff, cos=6) / in4(), 0),
              P(o4() / um(0xfffff, cos=7) / in4(), 0, what='over IPv4')]),
    ]


def refusals():
    item = 'specific pattern item'
    return [Case('tunnel refusals', [], [], refused=[
        ('ingress group {g} pattern eth / ipv4 / gre / eth / end actions queue index 1 / end',
         item, 'an inner ETH is only supported after VXLAN'),
        ('ingress group {g} pattern eth / gre / end actions queue index 1 / end', item,
         'GRE needs an outer IPV4 or IPV6 item before it'),
        ('ingress group {g} pattern eth / ipv4 / vxlan / end actions queue index 1 / end',
         item, 'VXLAN needs an outer UDP item before it'),
        ('ingress group {g} pattern eth / ipv4 / udp / gre_key value is 1 / end '
         'actions queue index 1 / end', item, 'GRE_KEY must directly follow GRE'),
        ('ingress group {g} pattern eth / ipv4 / gre k_bit is 0 / gre_key value is 1 / end '
         'actions queue index 1 / end', item,
         'GRE_KEY: item contradicts a previous item or what it implies'),
        ('ingress group {g} pattern eth / ipv4 / udp / vxlan / eth / ipv4 / udp / vxlan / end '
         'actions queue index 1 / end', item, 'only one tunnel item per pattern'),
        ('ingress group {g} pattern eth / ipv4 / udp / vxlan / mpls label is 5 / end '
         'actions queue index 1 / end', item, 'MPLS after VXLAN is not supported'),
    ])]


def body(s):
    s.run(vxlan_cases() + gre_cases() + mpls_cases() + refusals())


if __name__ == '__main__':
    main('testpmd_items_tunnel', body, __doc__)
