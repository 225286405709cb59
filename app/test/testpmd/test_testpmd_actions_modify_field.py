#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5dm authors
"""rte_flow MODIFY_FIELD through the stock testpmd: SET from an immediate value, from a
pointer and from another field (whole fields and bit ranges), ADD/SUB on TTL, hop limit
and TCP sequence/acknowledgment numbers, the DSCP/ECN/flags/EtherType/VLAN fields, and
TAG/META registers (written, then matched in a later group, or copied into the packet).

testpmd's `src_value 0x...` puts the hex bytes at the start of the 16-byte value; the
PMD reads a header field from the first ceil(bits / 8) bytes in network order (TAG and
META as a host-order 32-bit word), the bits at the destination's offset
(doc/guides/nics/mlx5dm.rst). Expected frames are the input with the fields set by hand.
See testpmd_pcap.py for the topology.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from testpmd_pcap import Case, P, main, refresh, rewrite_case, setf  # noqa: E402

from scapy.all import IP, TCP, UDP, Dot1Q, Ether, IPv6  # noqa: E402

E = Ether(dst='00:11:22:33:44:55')
TCP_PKT = TCP(sport=1111, dport=2222, seq=0xfffff000, ack=0x100, flags='S')


def v4(l4=None, **kw):
    kw.setdefault('src', '10.0.0.1')
    kw.setdefault('dst', '10.0.0.2')
    return E / IP(**kw) / (l4 if l4 is not None else UDP(sport=1111, dport=2222))


def v6(l4=None, **kw):
    kw.setdefault('src', '2001:db8::1')
    kw.setdefault('dst', '2001:db8::2')
    return E / IPv6(**kw) / (l4 if l4 is not None else UDP(sport=1111, dport=2222))


def mf(op, dst, src, width):
    """A MODIFY_FIELD action: dst/src are testpmd's words after dst_type/src_type."""
    return 'modify_field op %s dst_type %s src_type %s width %d' % (op, dst, src, width)


def add(layer, field, n, bits):
    def apply(p):
        refresh(p)
        setattr(p[layer], field, (getattr(p[layer], field) + n) % (1 << bits))
        return p
    return apply


def copy(layer, dst, src):
    def apply(p):
        refresh(p)
        setattr(p[layer], dst, getattr(p[layer], src))
        return p
    return apply


def tos(layer, field, dscp=None, ecn=None):
    def apply(p):
        refresh(p)
        v = getattr(p[layer], field)
        if dscp is not None:
            v = (dscp << 2) | (v & 3)
        if ecn is not None:
            v = (v & 0xfc) | ecn
        setattr(p[layer], field, v)
        return p
    return apply


def field_cases():
    return [
        rewrite_case('set ipv4_dst from a value', 'eth / ipv4 dst is 10.0.0.2',
            mf('set', 'ipv4_dst', 'value src_value 0xc0a80101', 32),
            v4(), [v4(dst='10.0.0.3')], setf(IP, dst='192.168.1.1')),
        rewrite_case('set the last byte of ipv4_src (offset 24, width 8)', 'eth / ipv4 dst is 10.0.0.2',
            mf('set', 'ipv4_src dst_offset 24', 'value src_value 0x000000fe', 8),
            v4(), [v4(dst='10.0.0.3')], setf(IP, src='10.0.0.254')),
        rewrite_case('set ipv4_dst from a pointer', 'eth / ipv4 dst is 10.0.0.2',
            mf('set', 'ipv4_dst', 'pointer src_ptr 0xc0a80202', 32),
            v4(), [v4(dst='10.0.0.3')], setf(IP, dst='192.168.2.2')),
        rewrite_case('copy mac_src to mac_dst', 'eth / ipv4 dst is 10.0.0.2',
            mf('set', 'mac_dst', 'mac_src', 48), v4(), [v4(dst='10.0.0.3')],
            copy(Ether, 'dst', 'src')),
        rewrite_case('copy ipv4_src to ipv4_dst', 'eth / ipv4 dst is 10.0.0.2',
            mf('set', 'ipv4_dst', 'ipv4_src', 32), v4(), [v4(dst='10.0.0.3')],
            copy(IP, 'dst', 'src')),
        rewrite_case('copy 8 bits between offsets (ipv4_src[0..7] -> ipv4_dst[24..31])',
            'eth / ipv4 dst is 10.0.0.2', mf('set', 'ipv4_dst dst_offset 24',
                                              'ipv4_src src_offset 0', 8),
            v4(src='172.0.0.1'), [v4(dst='10.0.0.3')], setf(IP, dst='10.0.0.172')),
        rewrite_case('copy udp_port_src to udp_port_dst', 'eth / ipv4 / udp src is 1111',
            mf('set', 'udp_port_dst', 'udp_port_src', 16), v4(), [v4(UDP(sport=1, dport=2))],
            copy(UDP, 'dport', 'sport')),
        rewrite_case('set tcp_port_src from a value', 'eth / ipv4 / tcp',
            mf('set', 'tcp_port_src', 'value src_value 0x0050', 16), v4(TCP_PKT), [v4()],
            setf(TCP, sport=80)),
        rewrite_case('copy ipv6_src to ipv6_dst', 'eth / ipv6 src is 2001:db8::1',
            mf('set', 'ipv6_dst', 'ipv6_src', 128), v6(), [v6(src='2001:db8::7')],
            copy(IPv6, 'dst', 'src')),
        rewrite_case('set the low 32 bits of ipv6_dst', 'eth / ipv6',
            mf('set', 'ipv6_dst dst_offset 96', 'value src_value '
               '0x000000000000000000000000c0000201', 32), v6(), [v4()],
            setf(IPv6, dst='2001:db8::c000:201')),
        rewrite_case('add to ipv4_ttl', 'eth / ipv4 dst is 10.0.0.2',
            mf('add', 'ipv4_ttl', 'value src_value 0x05', 8), v4(ttl=20),
            [v4(dst='10.0.0.3', ttl=20)], add(IP, 'ttl', 5, 8)),
        rewrite_case('sub from ipv6_hoplimit', 'eth / ipv6',
            mf('sub', 'ipv6_hoplimit', 'value src_value 0x03', 8), v6(hlim=10), [v4()],
            add(IPv6, 'hlim', -3, 8)),
        rewrite_case('add to tcp_seq_num (wraps)', 'eth / ipv4 / tcp',
            mf('add', 'tcp_seq_num', 'value src_value 0x00002000', 32), v4(TCP_PKT), [v4()],
            add(TCP, 'seq', 0x2000, 32)),
        rewrite_case('sub from tcp_ack_num', 'eth / ipv6 / tcp',
            mf('sub', 'tcp_ack_num', 'value src_value 0x00000101', 32), v6(TCP_PKT), [v6()],
            add(TCP, 'ack', -0x101, 32)),
        rewrite_case('set ipv4_dscp', 'eth / ipv4 dst is 10.0.0.2',
            mf('set', 'ipv4_dscp', 'value src_value 0x2e', 6), v4(tos=0x01),
            [v4(dst='10.0.0.3', tos=0x01)], tos(IP, 'tos', dscp=46)),
        rewrite_case('set ipv4_ecn', 'eth / ipv4 dst is 10.0.0.2',
            mf('set', 'ipv4_ecn', 'value src_value 0x03', 2), v4(tos=0xb8),
            [v4(dst='10.0.0.3', tos=0xb8)], tos(IP, 'tos', ecn=3)),
        rewrite_case('set ipv6_dscp', 'eth / ipv6', mf('set', 'ipv6_dscp', 'value src_value 0x0a', 6),
            v6(tc=0x02), [v4()], tos(IPv6, 'tc', dscp=10)),
        rewrite_case('set ipv6_ecn', 'eth / ipv6', mf('set', 'ipv6_ecn', 'value src_value 0x01', 2),
            v6(tc=0xb8), [v4()], tos(IPv6, 'tc', ecn=1)),
        rewrite_case('set tcp_flags (SYN -> SYN+ACK)', 'eth / ipv4 / tcp',
            mf('set', 'tcp_flags', 'value src_value 0x0012', 9), v4(TCP_PKT), [v4()],
            setf(TCP, flags='SA')),
        rewrite_case('set mac_type', 'eth type is 0x0800',
            mf('set', 'mac_type', 'value src_value 0x88b5', 16), v4(), [v6()],
            setf(Ether, type=0x88b5)),
        rewrite_case('set vlan_id', 'eth / vlan vid is 100',
            mf('set', 'vlan_id', 'value src_value 0x0123', 12),
            E / Dot1Q(vlan=100, prio=5) / IP() / UDP(), [E / Dot1Q(vlan=101) / IP() / UDP()],
            setf(Dot1Q, vlan=0x123)),
        rewrite_case('set ipv4_src (egress)', 'eth / ipv4 dst is 10.0.0.2',
            mf('set', 'ipv4_src', 'value src_value 0x0a0a0a0a', 32), v4(),
            [v4(dst='10.0.0.3')], setf(IP, src='10.10.10.10'), egress=True),
        rewrite_case('add to ipv4_ttl (egress)', 'eth / ipv4 dst is 10.0.0.2',
            mf('add', 'ipv4_ttl', 'value src_value 0xff', 8), v4(ttl=7),
            [v4(dst='10.0.0.3')], add(IP, 'ttl', -1, 8), egress=True),
    ]


def to(dst):
    return E / IP(src='10.0.0.1', dst=dst) / UDP(sport=1111, dport=2222)


def register_cases():
    return [
        # TAG 1 <- a value / a header field, then matched by a TAG item in the next group.
        Case('modify_field into tag (value and field)', [
            'ingress group {g} pattern eth / ipv4 dst is 10.0.0.2 / end actions '
            + mf('set', 'tag dst_level 1', 'value src_value 0x44332211', 32) +
            ' / jump group {g1} / end',
            'ingress group {g} pattern eth / ipv4 dst is 10.0.0.3 / end actions '
            + mf('set', 'tag dst_level 1', 'ipv4_dst', 32) + ' / jump group {g1} / end',
            'ingress group {g1} pattern tag data is 0x11223344 index is 1 / end '
            'actions queue index 1 / end',
            'ingress group {g1} pattern tag data is 0x0a000003 index is 1 / end '
            'actions queue index 2 / end',
            'ingress group {g1} priority 1 pattern end actions queue index 3 / end'],
            [P(to('10.0.0.2'), 1), P(to('10.0.0.3'), 2), P(to('10.0.0.4'), 0)]),
        # META <- a value, matched in the next group; TAG 3 -> ipv4_dst of the packet.
        Case('modify_field into meta, and from tag into the packet', [
            'ingress group {g} pattern eth / ipv4 dst is 10.0.0.2 / end actions '
            + mf('set', 'meta', 'value src_value 0x78563412', 32) + ' / jump group {g1} / end',
            'ingress group {g} pattern eth / ipv4 dst is 10.0.0.3 / end actions '
            'set_tag data 0xc0a80063 mask 0xffffffff index 3 / jump group {g1} / end',
            'ingress group {g1} pattern meta data is 0x12345678 / end '
            'actions queue index 1 / end',
            'ingress group {g1} pattern eth / ipv4 / end actions '
            + mf('set', 'ipv4_dst', 'tag src_level 3', 32) + ' / queue index 2 / end'],
            [P(to('10.0.0.2'), 1), P(to('10.0.0.3'), 2, out=setf(IP, dst='192.168.0.99')),
             P(to('10.0.0.4'), 0)]),
    ]


def refusals():
    conf = 'action configuration'
    act = 'specific action'

    def r(action, pattern='eth / ipv4 / udp'):
        return ('ingress group {g} pattern %s / end actions %s / queue index 1 / end' %
                (pattern, action))
    return [Case('modify_field refusals', [], [], refused=[
        (r(mf('set', 'vxlan_vni', 'value src_value 0x000001', 24)), conf,
         'MODIFY_FIELD: destination field 21 (enum rte_flow_field_id) not supported'),
        (r(mf('set', 'ipv4_dst dst_level 2', 'value src_value 0x01020304', 32)), conf,
         'MODIFY_FIELD: only outermost headers (level 0 or 1) can be modified'),
        (r(mf('set', 'tag dst_level 4', 'value src_value 0x01', 32)), conf,
         'MODIFY_FIELD: TAG index (level) must be 0 to 3'),
        (r(mf('set', 'tcp_port_dst', 'value src_value 0x0050', 16)), act,
         'MODIFY_FIELD: the pattern has no item for the header of this field'),
        (r(mf('add', 'ipv4_dst', 'value src_value 0x01', 32)), conf,
         'MODIFY_FIELD ADD/SUB: only whole TTL, hop limit, TCP sequence or acknowledgment '
         'fields'),
        (r(mf('add', 'ipv4_ttl', 'ipv4_dscp', 8)), conf,
         'MODIFY_FIELD ADD/SUB: the source must be an immediate value'),
        (r(mf('set', 'ipv4_ttl', 'value src_value 0x01', 9)), conf,
         'MODIFY_FIELD: width is 0 or offset + width exceeds the destination field'),
        (r(mf('set', 'ipv4_ttl', 'value src_value 0x01', 0)), conf,
         'MODIFY_FIELD: width is 0 or offset + width exceeds the destination field'),
        (r(mf('set', 'ipv4_dst', 'ipv4_ttl', 32)), conf,
         'MODIFY_FIELD: offset + width exceeds the source field'),
    ])]


def body(s):
    s.run(field_cases() + register_cases() + refusals())


if __name__ == '__main__':
    main('testpmd_actions_modify_field', body, __doc__)
