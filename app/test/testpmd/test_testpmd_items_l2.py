#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5dm authors
"""rte_flow L2 items through the stock testpmd: ETH, VLAN (one and two tags, C- and S-tags), MPLS,
VOID.

Each case matches a field and sends a packet that has it (-> queue 1) and packets that
differ only in that field (-> the catch-all, queue 0), all arriving unchanged.
See testpmd_pcap.py for the topology.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from testpmd_pcap import Case, P, main  # noqa: E402

from scapy.all import ARP, IP, IPv6, UDP, Dot1AD, Dot1Q, Ether  # noqa: E402
from scapy.contrib.mpls import MPLS  # noqa: E402

DST = '00:11:22:33:44:55'


def eth(**kw):
    kw.setdefault('dst', DST)
    return Ether(**kw)


def ip4():
    return IP(src='10.0.0.1', dst='10.0.0.2') / UDP(sport=1000, dport=2000)


def cases():
    return [
        Case('eth dst', ['ingress group {g} pattern eth dst is 00:11:22:33:44:66 / end '
                         'actions queue index 1 / end'],
             [P(eth(dst='00:11:22:33:44:66') / ip4(), 1),
              P(eth(dst='00:11:22:33:44:67') / ip4(), 0),
              P(eth(dst='01:11:22:33:44:66') / ip4(), 0)]),
        Case('eth src', ['ingress group {g} pattern eth src is {src[1]} / end '
                         'actions queue index 1 / end'],
             [P(eth() / ip4(), 0), P(eth() / ip4(), 1), P(eth() / ip4(), 0)]),
        Case('eth type', ['ingress group {g} pattern eth type is 0x0806 / end '
                          'actions queue index 1 / end'],
             [P(eth() / ARP(pdst='10.0.0.2'), 1), P(eth() / ip4(), 0),
              P(eth() / IPv6() / UDP(), 0)]),
        Case('eth dst+type', ['ingress group {g} pattern eth dst is 00:11:22:33:44:66 '
                              'type is 0x86dd / end actions queue index 1 / end'],
             [P(eth(dst='00:11:22:33:44:66') / IPv6() / UDP(), 1),
              P(eth(dst='00:11:22:33:44:66') / ip4(), 0),
              P(eth() / IPv6() / UDP(), 0)]),
        Case('eth has_vlan 1', ['ingress group {g} pattern eth has_vlan is 1 / end '
                                'actions queue index 1 / end'],
             [P(eth() / Dot1Q(vlan=5) / ip4(), 1), P(eth() / ip4(), 0),
              P(eth() / Dot1AD(vlan=5) / ip4(), 1),
              P(eth() / Dot1AD(vlan=5) / Dot1Q(vlan=6) / ip4(), 1)]),
        Case('eth has_vlan 0', ['ingress group {g} pattern eth has_vlan is 0 / end '
                                'actions queue index 1 / end'],
             [P(eth() / ip4(), 1), P(eth() / Dot1Q(vlan=5) / ip4(), 0),
              P(eth() / Dot1AD(vlan=5) / ip4(), 0)]),
        Case('eth type 0x8100 = C-tag', ['ingress group {g} pattern eth type is 0x8100 / end '
                                         'actions queue index 1 / end'],
             [P(eth() / Dot1Q(vlan=7) / ip4(), 1), P(eth() / ip4(), 0),
              P(eth() / Dot1AD(vlan=7) / ip4(), 0)]),
        Case('vlan vid', ['ingress group {g} pattern eth / vlan vid is 100 / end '
                          'actions queue index 1 / end'],
             [P(eth() / Dot1Q(vlan=100) / ip4(), 1),
              P(eth() / Dot1Q(vlan=100, prio=6) / IPv6() / UDP(), 1),
              P(eth() / Dot1Q(vlan=101) / ip4(), 0), P(eth() / ip4(), 0),
              P(eth() / Dot1AD(vlan=100) / ip4(), 1)]),
        Case('vlan pcp+dei', ['ingress group {g} pattern eth / vlan pcp is 5 dei is 1 / end '
                              'actions queue index 1 / end'],
             [P(eth() / Dot1Q(vlan=3, prio=5, id=1) / ip4(), 1),
              P(eth() / Dot1Q(vlan=3, prio=5, id=0) / ip4(), 0),
              P(eth() / Dot1Q(vlan=3, prio=4, id=1) / ip4(), 0)]),
        Case('vlan inner_type', ['ingress group {g} pattern eth / vlan inner_type is 0x86dd / end '
                                 'actions queue index 1 / end'],
             [P(eth() / Dot1Q(vlan=9) / IPv6() / UDP(), 1),
              P(eth() / Dot1Q(vlan=9) / ip4(), 0), P(eth() / IPv6() / UDP(), 0)]),
        Case('vlan then ipv4', ['ingress group {g} pattern eth / vlan vid is 9 / '
                                'ipv4 dst is 10.0.0.2 / end actions queue index 1 / end'],
             [P(eth() / Dot1Q(vlan=9) / ip4(), 1), P(eth() / ip4(), 0),
              P(eth() / Dot1Q(vlan=9) / IP(dst='10.0.0.3') / UDP(), 0)]),
        Case('vlan has_more_vlan', ['ingress group {g} pattern eth / vlan vid is 20 '
                                    'has_more_vlan is 1 / end actions queue index 1 / end'],
             [P(eth() / Dot1Q(vlan=20) / Dot1Q(vlan=30) / ip4(), 1),
              P(eth() / Dot1AD(vlan=20) / Dot1Q(vlan=30) / ip4(), 1),
              P(eth() / Dot1Q(vlan=20) / ip4(), 0), P(eth() / Dot1AD(vlan=20) / ip4(), 0)]),
        Case('two vlans (QinQ)', ['ingress group {g} pattern eth / vlan vid is 20 / '
                                  'vlan vid is 30 / end actions queue index 1 / end'],
             [P(eth() / Dot1Q(vlan=20) / Dot1Q(vlan=30) / ip4(), 1),
              P(eth() / Dot1Q(vlan=20) / Dot1Q(vlan=31) / ip4(), 0),
              P(eth() / Dot1Q(vlan=30) / Dot1Q(vlan=20) / ip4(), 0),
              P(eth() / Dot1Q(vlan=20) / ip4(), 0)]),
        Case('S-tag then C-tag', ['ingress group {g} pattern eth type is 0x88a8 / vlan vid is 40 '
                                  '/ vlan vid is 50 / ipv4 / end actions queue index 1 / end'],
             [P(eth() / Dot1AD(vlan=40) / Dot1Q(vlan=50) / ip4(), 1),
              P(eth() / Dot1Q(vlan=40) / Dot1Q(vlan=50) / ip4(), 0),
              P(eth() / Dot1AD(vlan=40) / Dot1Q(vlan=50) / IPv6() / UDP(), 0)]),
        Case('mpls label', ['ingress group {g} pattern eth / mpls label is 0x123 / end '
                            'actions queue index 1 / end'],
             [P(eth(type=0x8847) / MPLS(label=0x123, s=1, ttl=64) / ip4(), 1),
              P(eth(type=0x8847) / MPLS(label=0x124, s=1, ttl=64) / ip4(), 0),
              P(eth() / ip4(), 0)]),
        # testpmd 22.11 has no token for the MPLS TTL.
        Case('mpls label+tc+s', ['ingress group {g} pattern eth / mpls label is 77 tc is 5 '
                                     's is 0 / end actions queue index 1 / end'],
             [P(eth(type=0x8847) / MPLS(label=77, cos=5, s=0, ttl=9) /
                MPLS(label=3, s=1, ttl=9) / ip4(), 1),
              P(eth(type=0x8847) / MPLS(label=77, cos=5, s=1, ttl=9) / ip4(), 0),
              P(eth(type=0x8847) / MPLS(label=77, cos=4, s=0, ttl=9) /
                MPLS(label=3, s=1, ttl=9) / ip4(), 0),
              P(eth(type=0x8847) / MPLS(label=78, cos=5, s=0, ttl=9) /
                MPLS(label=3, s=1, ttl=9) / ip4(), 0)]),
        Case('mpls after vlan', ['ingress group {g} pattern eth / vlan vid is 4 / '
                                 'mpls label is 16 / end actions queue index 1 / end'],
             [P(eth() / Dot1Q(vlan=4, type=0x8847) / MPLS(label=16, s=1) / ip4(), 1),
              P(eth(type=0x8847) / MPLS(label=16, s=1) / ip4(), 0)]),
        Case('void items', ['ingress group {g} pattern void / eth / void / ipv4 dst is 10.0.0.2 '
                            '/ void / end actions void / queue index 1 / void / end'],
             [P(eth() / ip4(), 1), P(eth() / IP(dst='10.0.0.3') / UDP(), 0)]),
    ]


def refusals():
    """MPLS is matched after L2, GRE or UDP only (MPLS over GRE/UDP: items_tunnel), and
    nothing after it."""
    return [Case('mpls refusals', [], [], refused=[
        ('ingress group {g} pattern eth / ipv4 / mpls label is 5 / end '
         'actions queue index 1 / end', 'specific pattern item',
         'MPLS is supported after ETH/VLAN, GRE or UDP only'),
        ('ingress group {g} pattern eth / ipv4 / udp / vxlan / mpls label is 5 / end '
         'actions queue index 1 / end', 'specific pattern item',
         'MPLS after VXLAN is not supported'),
        ('ingress group {g} pattern eth / mpls label is 5 / ipv4 / end '
         'actions queue index 1 / end', 'specific pattern item',
         'no header item can follow MPLS'),
    ])]


def body(s):
    s.run(cases() + refusals())


if __name__ == '__main__':
    main('testpmd_items_l2', body, __doc__)
