#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5dm authors
"""rte_flow header-rewrite actions through the stock testpmd: SET_MAC_SRC/DST,
SET_IPV4_SRC/DST, SET_IPV6_SRC/DST, SET_TP_SRC/DST (TCP and UDP), SET_TTL and DEC_TTL
(IPv4 TTL and IPv6 hop limit), INC/DEC_TCP_SEQ/ACK, SET_IPV4_DSCP; on ingress and egress.

The expected frame is the input with the rewritten fields set by hand and its checksums
recomputed by scapy (the device recomputes the IPv4 header checksum and updates TCP/UDP
checksums incrementally, which must come to the same bytes). Packets the rule must not
match arrive unchanged on the catch-all queue. See testpmd_pcap.py for the topology.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from testpmd_pcap import (Case, chain, main, refresh, rewrite_case, rule_of,  # noqa: E402
                          setf)

from scapy.all import IP, TCP, UDP, Ether, IPv6  # noqa: E402

E = Ether(dst='00:11:22:33:44:55')
V6 = IPv6(src='2001:db8::1', dst='2001:db8::2', hlim=64)


def v4(l4=None, **kw):
    kw.setdefault('src', '10.0.0.1')
    kw.setdefault('dst', '10.0.0.2')
    return E / IP(**kw) / (l4 if l4 is not None else UDP(sport=1000, dport=2000))


def v6(l4=None, **kw):
    ip = V6.copy()
    for k, v in kw.items():
        setattr(ip, k, v)
    return E / ip / (l4 if l4 is not None else UDP(sport=1000, dport=2000))


def dec_ttl(layer, field):
    def apply(p):
        setattr(p[layer], field, getattr(p[layer], field) - 1)
        return refresh(p)
    return apply


def add_tcp(field, n):
    def apply(p):
        setattr(p[TCP], field, (getattr(p[TCP], field) + n) % (1 << 32))
        return refresh(p)
    return apply


def set_dscp(dscp, layer=IP):
    def apply(p):
        p[layer].tos = (dscp << 2) | (p[layer].tos & 3)
        return refresh(p)
    return apply


TCP_PKT = TCP(sport=1000, dport=2000, seq=0x10, ack=0xfffffff0, flags='A')


def cases(egress=False):
    t = ' (egress)' if egress else ''
    return [
        rewrite_case('set_mac_src' + t, 'eth / ipv4 dst is 10.0.0.2', 'set_mac_src mac_addr 0a:0b:0c:0d:0e:0f',
            v4(), [v4(dst='10.0.0.3')], setf(Ether, src='0a:0b:0c:0d:0e:0f'), egress),
        rewrite_case('set_mac_dst' + t, 'eth / ipv4 dst is 10.0.0.2', 'set_mac_dst mac_addr 0a:0b:0c:0d:0e:01',
            v4(), [v4(dst='10.0.0.3')], setf(Ether, dst='0a:0b:0c:0d:0e:01'), egress),
        rewrite_case('set_ipv4_src' + t, 'eth / ipv4 dst is 10.0.0.2', 'set_ipv4_src ipv4_addr 172.16.0.9',
            v4(), [v4(dst='10.0.0.3')], setf(IP, src='172.16.0.9'), egress),
        rewrite_case('set_ipv4_dst (tcp)' + t, 'eth / ipv4 dst is 10.0.0.2 / tcp',
            'set_ipv4_dst ipv4_addr 172.16.9.9', v4(TCP_PKT), [v4(dst='10.0.0.3', l4=TCP_PKT),
                                                               v4()],
            setf(IP, dst='172.16.9.9'), egress),
        rewrite_case('set_ipv6_src' + t, 'eth / ipv6 dst is 2001:db8::2', 'set_ipv6_src ipv6_addr fd00::a:b',
            v6(), [v6(dst='2001:db8::3')], setf(IPv6, src='fd00::a:b'), egress),
        rewrite_case('set_ipv6_dst' + t, 'eth / ipv6 dst is 2001:db8::2 / tcp',
            'set_ipv6_dst ipv6_addr fd00::1:2:3', v6(TCP_PKT), [v6(dst='2001:db8::3', l4=TCP_PKT)],
            setf(IPv6, dst='fd00::1:2:3'), egress),
        rewrite_case('set_tp_src (udp)' + t, 'eth / ipv4 / udp dst is 2000', 'set_tp_src port 4242',
            v4(), [v4(UDP(sport=1000, dport=2001))], setf(UDP, sport=4242), egress),
        rewrite_case('set_tp_dst (udp, zero checksum)' + t, 'eth / ipv4 / udp src is 1000',
            'set_tp_dst port 5353', v4(UDP(sport=1000, dport=53, chksum=0)),
            [v4(UDP(sport=1001, dport=53))],
            setf(UDP, dport=5353, chksum=0), egress),
        rewrite_case('set_tp_src (tcp)' + t, 'eth / ipv6 / tcp', 'set_tp_src port 1',
            v6(TCP_PKT), [v6()], setf(TCP, sport=1), egress),
        rewrite_case('set_tp_dst (tcp)' + t, 'eth / ipv4 / tcp', 'set_tp_dst port 65535',
            v4(TCP_PKT), [v4()], setf(TCP, dport=65535), egress),
        rewrite_case('set_ttl (ipv4)' + t, 'eth / ipv4 dst is 10.0.0.2', 'set_ttl ttl_value 3',
            v4(ttl=200), [v4(dst='10.0.0.3', ttl=200)], setf(IP, ttl=3), egress),
        rewrite_case('set_ttl (ipv6)' + t, 'eth / ipv6', 'set_ttl ttl_value 255', v6(), [v4()],
            setf(IPv6, hlim=255), egress),
        rewrite_case('dec_ttl (ipv4)' + t, 'eth / ipv4 dst is 10.0.0.2', 'dec_ttl', v4(ttl=64),
            [v4(dst='10.0.0.3')], dec_ttl(IP, 'ttl'), egress),
        rewrite_case('dec_ttl (ipv6)' + t, 'eth / ipv6', 'dec_ttl', v6(hlim=9), [v4()],
            dec_ttl(IPv6, 'hlim'), egress),
        rewrite_case('inc_tcp_seq' + t, 'eth / ipv4 / tcp', 'inc_tcp_seq value 0x100', v4(TCP_PKT), [v4()],
            add_tcp('seq', 0x100), egress),
        rewrite_case('dec_tcp_seq (wraps)' + t, 'eth / ipv4 / tcp', 'dec_tcp_seq value 0x20', v4(TCP_PKT),
            [v4()], add_tcp('seq', -0x20), egress),
        rewrite_case('inc_tcp_ack (wraps)' + t, 'eth / ipv6 / tcp', 'inc_tcp_ack value 0x30', v6(TCP_PKT),
            [v6()], add_tcp('ack', 0x30), egress),
        rewrite_case('dec_tcp_ack' + t, 'eth / ipv4 / tcp', 'dec_tcp_ack value 7', v4(TCP_PKT), [v4()],
            add_tcp('ack', -7), egress),
        rewrite_case('set_ipv4_dscp' + t, 'eth / ipv4 dst is 10.0.0.2', 'set_ipv4_dscp dscp_value 46',
            v4(tos=0x03), [v4(dst='10.0.0.3', tos=0x03)], set_dscp(46), egress),
        rewrite_case('several rewrites in one rule' + t, 'eth / ipv4 dst is 10.0.0.2 / tcp',
            'set_mac_dst mac_addr 00:00:5e:00:53:01 / set_ipv4_src ipv4_addr 192.0.2.1 / '
            'set_ipv4_dst ipv4_addr 198.51.100.1 / set_tp_src port 1 / set_tp_dst port 2 / '
            'dec_ttl / set_ipv4_dscp dscp_value 10 / inc_tcp_seq value 1',
            v4(TCP_PKT, ttl=10), [v4(TCP_PKT, dst='10.0.0.3'), v4()],
            chain(setf(Ether, dst='00:00:5e:00:53:01'),
                  setf(IP, src='192.0.2.1', dst='198.51.100.1', ttl=9),
                  setf(TCP, sport=1, dport=2), set_dscp(10), add_tcp('seq', 1)), egress),
    ]


def refusals():
    act = 'specific action'
    return [Case('modify refusals', [], [], refused=[
        (rule_of('eth / ipv4', 'set_tp_src port 1'), act,
         'SET_TP_SRC/DST needs a TCP or UDP item in the pattern'),
        (rule_of('eth', 'set_ttl ttl_value 1'), act,
         'SET_TTL/DEC_TTL needs an IPV4 or IPV6 item in the pattern'),
        (rule_of('eth / ipv6', 'set_ipv4_src ipv4_addr 1.1.1.1'), act,
         'SET_IPV4_SRC needs an IPV4 item in the pattern'),
        (rule_of('eth / ipv4', 'set_ipv6_dst ipv6_addr ::1'), act,
         'SET_IPV6_DST needs an IPV6 item in the pattern'),
        (rule_of('eth / ipv4 / udp', 'inc_tcp_seq value 1'), act,
         'INC/DEC_TCP_SEQ/ACK needs a TCP item in the pattern'),
        (rule_of('eth / ipv4', 'set_ipv4_dscp dscp_value 64'), 'action configuration',
         'value out of range (DSCP is 0 to 63)'),
        ('ingress group {g} pattern eth / ipv4 / end actions set_ipv4_src ipv4_addr 1.1.1.1 / '
         'drop / end', act, 'DROP cannot be combined with header changes'),
    ])]


def body(s):
    s.run(cases() + cases(egress=True) + refusals())


if __name__ == '__main__':
    main('testpmd_actions_modify', body, __doc__)
