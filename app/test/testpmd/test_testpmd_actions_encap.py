#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5dm authors
"""rte_flow tunnel actions through the stock testpmd: VXLAN_ENCAP (IPv4, IPv6, with a VLAN,
with TOS/TTL), VXLAN_DECAP (alone and with an inner rewrite), RAW_ENCAP (L2 tunnel),
RAW_DECAP (L2 tunnel), RAW_DECAP + RAW_ENCAP (L3 tunnel decap on ingress, L2 to L3 tunnel
encap on egress), and an egress encap undone by an ingress decap.

The encap headers are defined with testpmd's `set vxlan...` / `set raw_encap` commands;
the expected outer headers are written here field by field from those definitions (the
device fills the IPv4 total length and checksum, the IPv6 payload length and the UDP
length; a raw header is otherwise copied as given). See testpmd_pcap.py for the topology.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from testpmd_pcap import ANY, Case, P, main, setf  # noqa: E402

from scapy.all import GRE, IP, TCP, UDP, VXLAN, Dot1Q, Ether, IPv6  # noqa: E402

E = Ether(dst='00:11:22:33:44:55')
OUTER_MACS = 'eth-src 0a:00:00:00:00:01 eth-dst 0a:00:00:00:00:02'
O_ETH = Ether(src='0a:00:00:00:00:01', dst='0a:00:00:00:00:02')


def inner(dst='10.0.0.2'):
    return E / IP(src='10.0.0.1', dst=dst) / UDP(sport=1111, dport=2222)


def wrapped(outer):
    """Expected output: `outer` (scapy headers) in front of the whole input frame."""
    return lambda p: outer / p


def vxlan_in(vni=0x1234, l3=None, dst='10.0.0.2'):
    """A VXLAN packet as it arrives from the wire."""
    l3 = l3 if l3 is not None else IP(src='172.16.0.1', dst='172.16.0.2')
    return (Ether(src='0a:00:00:00:00:01', dst='0a:00:00:00:00:02') / l3 /
            UDP(sport=5000, dport=4789) / VXLAN(vni=vni) / inner(dst))


def decapped(p):
    """Expected output of an L2 tunnel decap: the inner Ethernet frame."""
    return p[VXLAN].payload


def vxlan_encap_cases():
    egress_v4 = 'egress group {g} pattern eth / ipv4 dst is 10.0.0.2 / end actions vxlan_encap / end'
    return [
        Case('vxlan_encap ipv4', [
            'set vxlan ip-version ipv4 vni 4660 udp-src 5000 udp-dst 4789 ip-src 172.16.0.1 '
            'ip-dst 172.16.0.2 ' + OUTER_MACS, egress_v4],
            [P(inner(), ANY, out=wrapped(O_ETH / IP(src='172.16.0.1', dst='172.16.0.2', ttl=64,
                                                   id=0, flags=0) /
                                         UDP(sport=5000, dport=4789, chksum=0) /
                                         VXLAN(vni=4660, flags=0x08))),
             P(inner('10.0.0.3'), ANY)], egress=True),
        Case('vxlan_encap ipv6', [
            'set vxlan ip-version ipv6 vni 77 udp-src 6000 udp-dst 4789 ip-src 2001:db8::a '
            'ip-dst 2001:db8::b ' + OUTER_MACS,
            'egress group {g} pattern eth / ipv4 dst is 10.0.0.2 / end actions vxlan_encap / end'],
            # testpmd leaves the hop limit 0: the PMD's default for IPv6 is 255.
            [P(inner(), ANY, out=wrapped(O_ETH / IPv6(src='2001:db8::a', dst='2001:db8::b',
                                                     hlim=255) /
                                         UDP(sport=6000, dport=4789, chksum=0) /
                                         VXLAN(vni=77, flags=0x08))),
             P(inner('10.0.0.3'), ANY)], egress=True),
        Case('vxlan_encap with a vlan', [
            'set vxlan-with-vlan ip-version ipv4 vni 5 udp-src 5001 udp-dst 4789 '
            'ip-src 172.16.0.1 ip-dst 172.16.0.2 vlan-tci 0x6064 ' + OUTER_MACS, egress_v4],
            [P(inner(), ANY, out=wrapped(O_ETH / Dot1Q(prio=3, vlan=100) /
                                         IP(src='172.16.0.1', dst='172.16.0.2', ttl=64, id=0,
                                            flags=0) /
                                         UDP(sport=5001, dport=4789, chksum=0) /
                                         VXLAN(vni=5, flags=0x08)))], egress=True),
        Case('vxlan_encap with tos and ttl', [
            'set vxlan-tos-ttl ip-version ipv4 vni 6 udp-src 5002 udp-dst 4789 ip-tos 0x28 '
            'ip-ttl 9 ip-src 172.16.0.1 ip-dst 172.16.0.2 ' + OUTER_MACS, egress_v4],
            [P(inner(), ANY, out=wrapped(O_ETH / IP(src='172.16.0.1', dst='172.16.0.2', ttl=9,
                                                   tos=0x28, id=0, flags=0) /
                                         UDP(sport=5002, dport=4789, chksum=0) /
                                         VXLAN(vni=6, flags=0x08)))], egress=True),
    ]


def decap_cases():
    return [
        Case('vxlan_decap', ['ingress group {g} pattern eth / ipv4 / udp / vxlan vni is 0x1234 '
                             '/ end actions vxlan_decap / queue index 1 / end'],
             [P(vxlan_in(), 1, out=decapped),
              P(vxlan_in(l3=IPv6(src='2001:db8::a', dst='2001:db8::b')), 0),
              P(vxlan_in(vni=0x1235), 0), P(inner(), 0)]),
        Case('vxlan_decap over ipv6', ['ingress group {g} pattern eth / ipv6 / udp / vxlan / end '
                                       'actions vxlan_decap / queue index 2 / end'],
             [P(vxlan_in(l3=IPv6(src='2001:db8::a', dst='2001:db8::b')), 2, out=decapped),
              P(vxlan_in(), 0)]),
        Case('vxlan_decap and an inner rewrite', [
            'ingress group {g} pattern eth / ipv4 / udp / vxlan / eth / ipv4 dst is 10.0.0.2 / '
            'end actions vxlan_decap / set_ipv4_dst ipv4_addr 10.9.9.9 / dec_ttl / '
            'queue index 1 / end'],
            [P(vxlan_in(), 1, out=lambda p: setf(IP, dst='10.9.9.9', ttl=63)(decapped(p))),
             P(vxlan_in(dst='10.0.0.3'), 0)]),
        Case('vxlan_decap, count and mark', [
            'ingress group {g} pattern eth / ipv4 / udp / vxlan vni is 0x1234 / end '
            'actions count / vxlan_decap / mark id 0x77 / queue index 3 / end'],
            [P(vxlan_in(), 3, out=decapped, mark=0x77), P(vxlan_in(), 3, out=decapped, mark=0x77),
             P(vxlan_in(vni=1), 0, mark=None)],
            # NIC RX counts after the decap (the counter sits in an STE after it).
            counts={0: ([0, 1], 'delivered')}),
        Case('raw_decap (L2 tunnel)', [
            'set raw_decap 0 eth / ipv4 / udp / vxlan / end_set',
            'ingress group {g} pattern eth / ipv4 / udp / vxlan / end '
            'actions raw_decap index 0 / queue index 1 / end'],
            [P(vxlan_in(), 1, out=decapped), P(inner(), 0)]),
    ]


def gre_in(l3_inner=None):
    l3_inner = l3_inner if l3_inner is not None else IP(src='10.0.0.1', dst='10.0.0.2') / UDP(
        sport=1111, dport=2222)
    proto = 0x86dd if isinstance(l3_inner, IPv6) else 0x0800
    return (Ether(src='0a:00:00:00:00:01', dst='0a:00:00:00:00:02') /
            IP(src='172.16.0.1', dst='172.16.0.2') / GRE(proto=proto) / l3_inner)


def raw_cases():
    return [
        Case('raw_encap (L2 tunnel, VXLAN)', [
            'set raw_encap 0 eth src is 0a:00:00:00:00:01 dst is 0a:00:00:00:00:02 / '
            'ipv4 src is 172.16.0.1 dst is 172.16.0.2 ttl is 64 / udp src is 5000 dst is 4789 / '
            'vxlan vni is 1234 / end_set',
            'egress group {g} pattern eth / ipv4 dst is 10.0.0.2 / end '
            'actions raw_encap index 0 / end'],
            [P(inner(), ANY, out=wrapped(O_ETH / IP(src='172.16.0.1', dst='172.16.0.2', ttl=64,
                                                   id=0, flags=0) /
                                         UDP(sport=5000, dport=4789, chksum=0) /
                                         VXLAN(vni=1234, flags=0x08))),
             P(inner('10.0.0.3'), ANY)], egress=True),
        Case('raw_encap (L2 tunnel, GRE)', [
            'set raw_encap 1 eth src is 0a:00:00:00:00:01 dst is 0a:00:00:00:00:02 / '
            'ipv4 src is 172.16.0.1 dst is 172.16.0.2 ttl is 30 / gre protocol is 0x6558 / '
            'end_set',
            'egress group {g} pattern eth / ipv4 / tcp / end actions raw_encap index 1 / end'],
            [P(E / IP() / TCP(), ANY, out=wrapped(O_ETH / IP(src='172.16.0.1', dst='172.16.0.2',
                                                            ttl=30, id=0, flags=0) /
                                                  GRE(proto=0x6558))),
             P(inner(), ANY)], egress=True),
        Case('raw_decap + raw_encap (L2 to L3 tunnel encap)', [
            'set raw_decap 2 eth / end_set',
            'set raw_encap 2 eth src is 0a:00:00:00:00:01 dst is 0a:00:00:00:00:02 / '
            'ipv6 src is 2001:db8::a dst is 2001:db8::b hop is 64 / gre protocol is 0x0800 / '
            'end_set',
            'egress group {g} pattern eth / ipv4 dst is 10.0.0.2 / end '
            'actions raw_decap index 2 / raw_encap index 2 / end'],
            [P(inner(), ANY, out=lambda p: O_ETH / IPv6(src='2001:db8::a', dst='2001:db8::b',
                                                       hlim=64) / GRE(proto=0x0800) / p[IP]),
             P(inner('10.0.0.3'), ANY)], egress=True),
        Case('raw_decap + raw_encap (L3 tunnel decap)', [
            'set raw_decap 3 eth / ipv4 / gre / end_set',
            'set raw_encap 3 eth src is 0e:00:00:00:00:01 dst is 0e:00:00:00:00:02 '
            'type is 0x0800 / end_set',
            'ingress group {g} pattern eth / ipv4 / gre / ipv4 / end '
            'actions raw_decap index 3 / raw_encap index 3 / queue index 2 / end'],
            [P(gre_in(), 2, out=lambda p: Ether(src='0e:00:00:00:00:01', dst='0e:00:00:00:00:02',
                                               type=0x0800) / p[GRE].payload),
             P(gre_in(IPv6() / UDP()), 0), P(inner(), 0)]),
    ]


def round_trip():
    """Egress VXLAN_ENCAP, then an ingress rule in group 0 decapsulates what comes back:
    the frame arrives as it was sent."""
    return Case('encap on egress, decap on ingress', [
        'set vxlan ip-version ipv4 vni 999 udp-src 5003 udp-dst 4789 ip-src 172.16.0.1 '
        'ip-dst 172.16.0.9 ' + OUTER_MACS,
        'egress group {g} pattern eth / ipv4 dst is 10.0.0.2 / end actions vxlan_encap / end',
        'ingress group 0 priority 0 pattern eth / ipv4 dst is 172.16.0.9 / udp / vxlan vni is 999 '
        '/ end actions vxlan_decap / count / queue index 3 / end'],
        [P(inner(), 3), P(inner(), 3), P(inner('10.0.0.3'), ANY)], egress=True,
        counts={2: [0, 1]})


def refusals():
    act = 'specific action'
    conf = 'action configuration'

    def r(d, pattern, actions):
        fate = ' / queue index 1' if d == 'ingress' else ''
        return '%s group {g} pattern %s / end actions %s%s / end' % (d, pattern, actions, fate)
    return [Case('encap refusals', [
        'set vxlan ip-version ipv4 vni 1 udp-src 1 udp-dst 4789 ip-src 1.1.1.1 ip-dst 2.2.2.2 '
        + OUTER_MACS,
        'set raw_encap 4 eth / ipv6 / ipv6 / ipv6 / end_set',
        'set raw_encap 5 eth src is 0a:00:00:00:00:01 / ipv4 / udp / vxlan / end_set',
        'set raw_decap 5 eth / end_set',
        'set raw_encap 6 eth / end_set',
        'set raw_decap 6 eth / ipv4 / udp / vxlan / end_set'], [], refused=[
        (r('ingress', 'eth / ipv4', 'vxlan_encap'), act,
         'VXLAN_ENCAP is an egress action (NIC RX cannot encapsulate)'),
        (r('egress', 'eth / ipv4 / udp / vxlan', 'vxlan_decap'), act,
         'VXLAN_DECAP is an ingress action (NIC TX cannot decapsulate)'),
        (r('ingress', 'eth / ipv4 / udp', 'vxlan_decap'), act,
         'VXLAN_DECAP needs a VXLAN item in the pattern'),
        (r('ingress', 'eth / ipv4', 'raw_encap index 5'), act,
         'RAW_ENCAP on ingress is only supported after RAW_DECAP (L3 tunnel decap)'),
        (r('ingress', 'eth / ipv4 / udp', 'raw_decap index 6'), act,
         'RAW_DECAP needs a tunnel item in the pattern'),
        (r('egress', 'eth / ipv4', 'raw_decap index 5'), act,
         'RAW_DECAP on egress is only supported before RAW_ENCAP (L2 to L3 tunnel encap)'),
        (r('egress', 'eth / ipv4', 'raw_encap index 4'), conf,
         'RAW_ENCAP header must be an even number of bytes, at most 126'),
        (r('ingress', 'eth / ipv4 / udp / vxlan', 'raw_decap index 5 / raw_encap index 5'),
         conf, 'RAW_DECAP + RAW_ENCAP on ingress: an L3 tunnel decap needs a tunnel header '
         'over 34 bytes and a new L2 header of 14 or 18 bytes'),
        (r('egress', 'eth / ipv4', 'raw_decap index 6 / raw_encap index 5'), conf,
         'RAW_DECAP + RAW_ENCAP on egress: an L2 to L3 tunnel encap needs an L2 header of at '
         'most 34 bytes and a tunnel header over 34 bytes'),
        (r('egress', 'eth / ipv4', 'raw_encap index 5 / raw_decap index 5'), act,
         'RAW_DECAP must come before RAW_ENCAP'),
        (r('egress', 'eth / ipv4', 'vxlan_encap / set_ipv4_dst ipv4_addr 1.1.1.1'), act,
         'header changes must come in the order the device applies them: decap, VLAN pop, '
         'field changes, VLAN push, encap'),
    ])]


def body(s):
    s.run(vxlan_encap_cases() + decap_cases() + raw_cases() + [round_trip()] + refusals())


if __name__ == '__main__':
    main('testpmd_actions_encap', body, __doc__)
