#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5dm authors
"""rte_flow fate and tagging actions through the stock testpmd: QUEUE, DROP, JUMP, COUNT
(also indirect), MARK, FLAG and RSS (types, key, queue list, L3/L4 *_ONLY, inner level, symmetric).

Queues come from the output files, MARK/FLAG and the RSS hash from testpmd's verbose Rx
lines, counters from `flow query`. RSS hashes are computed here with Toeplitz over the
fields the types select (key given in the rule), and the queue from the hash.
See testpmd_pcap.py for the topology.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from testpmd_pcap import (ANY, FLAG, MLX5DM_PORT, NOHASH, NOMARK, Case, P, main,  # noqa: E402
                          rss_hash, rss_queue)

from scapy.all import ARP, IP, TCP, UDP, VXLAN, Ether, IPv6  # noqa: E402

E = Ether(dst='00:11:22:33:44:55')
KEY = bytes((0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2, 0x41, 0x67, 0x25, 0x3d, 0x43,
             0xa3, 0x8f, 0xb0, 0xd0, 0xca, 0x2b, 0xcb, 0xae, 0x7b, 0x30, 0xb4, 0x77, 0xcb,
             0x2d, 0xa3, 0x80, 0x30, 0xf2, 0x0c, 0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01,
             0xfa))
KEY_ARG = 'key %s key_len 40' % KEY.hex()


def to(dst, l4=None, src='10.0.0.1'):
    return E / IP(src=src, dst=dst) / (l4 if l4 is not None else UDP(sport=1, dport=2))


def basic_cases():
    return [
        Case('queue', ['ingress group {g} pattern eth / ipv4 dst is 10.0.0.2 / end '
                       'actions queue index 2 / end',
                       'ingress group {g} pattern eth / ipv4 dst is 10.0.0.3 / end '
                       'actions queue index 3 / end'],
             [P(to('10.0.0.2'), 2), P(to('10.0.0.3'), 3), P(to('10.0.0.4'), 0)]),
        Case('drop', ['ingress group {g} pattern eth / ipv4 / udp dst is 9 / end '
                      'actions drop / end'],
             [P(to('10.0.0.2', UDP(dport=9)), None), P(to('10.0.0.2', UDP(dport=10)), 0),
              P(to('10.0.0.2', TCP(dport=9)), 0)]),
        Case('count', ['ingress group {g} pattern eth / ipv4 dst is 10.0.0.2 / end '
                       'actions count / queue index 1 / end',
                       'ingress group {g} pattern eth / ipv4 dst is 10.0.0.3 / end '
                       'actions count / drop / end',
                       'ingress group {g} pattern eth / ipv6 / end actions count / '
                       'jump group {g1} / end',
                       'ingress group {g1} pattern end actions queue index 2 / end'],
             [P(to('10.0.0.2'), 1), P(to('10.0.0.2', TCP()), 1), P(to('10.0.0.3'), None),
              P(E / IPv6() / UDP(), 2), P(E / IPv6() / TCP(), 2), P(E / IPv6() / TCP(), 2),
              P(to('10.0.0.4'), 0)],
             counts={0: [0, 1], 1: [2], 2: [3, 4, 5]}),
        # Two rules of one indirect COUNT (the synchronous API): each query reads it.
        Case('count (indirect)', ['flow indirect_action %d create action_id 9 ingress '
                                  'action count / end' % MLX5DM_PORT,
                                  'ingress group {g} pattern eth / ipv4 dst is 10.0.0.2 / end '
                                  'actions indirect 9 / queue index 1 / end',
                                  'ingress group {g} pattern eth / ipv4 dst is 10.0.0.3 / end '
                                  'actions indirect 9 / queue index 2 / end'],
             [P(to('10.0.0.2'), 1), P(to('10.0.0.3'), 2), P(to('10.0.0.4'), 0)],
             counts={1: [0, 1], 2: [0, 1]}),
        Case('count (egress)', ['egress group {g} pattern eth / ipv4 / udp / end '
                                'actions count / end'],
             [P(to('10.0.0.2'), ANY), P(to('10.0.0.2'), ANY), P(to('10.0.0.2', TCP()), ANY)],
             egress=True, counts={0: [0, 1]}),
        Case('jump', ['ingress group {g} pattern eth / ipv4 / end actions jump group {g2} / end',
                      'ingress group {g2} pattern eth / ipv4 dst is 10.0.0.2 / end '
                      'actions queue index 3 / end',
                      'ingress group {g2} priority 1 pattern eth / end '
                      'actions queue index 1 / end'],
             [P(to('10.0.0.2'), 3), P(to('10.0.0.3'), 1), P(E / IPv6() / UDP(), 0)]),
        # A group nobody populated: the packet misses there, which drops it.
        Case('jump to an empty group', ['ingress group {g} pattern eth / ipv4 / end '
                                        'actions jump group {g5} / end'],
             [P(to('10.0.0.2'), None), P(E / IPv6() / UDP(), 0)]),
        Case('jump chain and priorities', [
            'ingress group {g} pattern eth / ipv4 / end actions jump group {g1} / end',
            'ingress group {g1} priority 2 pattern eth / ipv4 / end actions jump group {g3} / end',
            'ingress group {g1} priority 1 pattern eth / ipv4 / tcp / end '
            'actions jump group {g2} / end',
            'ingress group {g2} pattern eth / end actions queue index 2 / end',
            'ingress group {g3} pattern eth / end actions queue index 3 / end'],
             [P(to('10.0.0.2', TCP()), 2), P(to('10.0.0.2'), 3), P(E / ARP(), 0)]),
        Case('mark', ['ingress group {g} pattern eth / ipv4 dst is 10.0.0.2 / end '
                      'actions mark id 0x1234 / queue index 1 / end',
                      'ingress group {g} pattern eth / ipv4 dst is 10.0.0.3 / end '
                      'actions queue index 2 / mark id 0xfffffd / end',
                      'ingress group {g} pattern eth / ipv4 dst is 10.0.0.4 / end '
                      'actions mark id 0 / queue index 1 / end'],
             [P(to('10.0.0.2'), 1, mark=0x1234), P(to('10.0.0.3'), 2, mark=0xfffffd),
              P(to('10.0.0.4'), 1, mark=0), P(to('10.0.0.5'), 0, mark=NOMARK)]),
        Case('flag', ['ingress group {g} pattern eth / ipv4 dst is 10.0.0.2 / end '
                      'actions flag / queue index 1 / end'],
             [P(to('10.0.0.2'), 1, mark=FLAG), P(to('10.0.0.5'), 0, mark=NOMARK)]),
        Case('mark survives a jump', ['ingress group {g} pattern eth / ipv4 / end '
                                      'actions mark id 9 / jump group {g1} / end',
                                      'ingress group {g1} pattern eth / end '
                                      'actions queue index 2 / end'],
             [P(to('10.0.0.2'), 2, mark=9), P(E / ARP(), 0, mark=NOMARK)]),
    ]


def rss(rule, types, queues, extra=''):
    return ['ingress group {g} pattern %s / end actions rss %stypes %s end %s queues %s end / '
            'end' % (rule, extra, types, KEY_ARG, ' '.join('%d' % q for q in queues))]


def flows(mk, n):
    return [mk(i) for i in range(n)]


def rss_cases():
    four = (0, 1, 2, 3)
    h_udp = rss_hash(KEY, ('src', 'dst', 'sport', 'dport'))
    h_ip = rss_hash(KEY, ('src', 'dst'))
    # *_ONLY narrows its own layer only: the other layer is still hashed in full.
    h_src = rss_hash(KEY, ('src', 'sport', 'dport'))
    h_dport = rss_hash(KEY, ('src', 'dst', 'dport'))
    h_inner = rss_hash(KEY, ('src', 'dst', 'sport', 'dport'), inner=True)

    def pk(h, queues):
        return lambda p: P(p, rss_queue(h, queues), rss=h)
    return [
        Case('rss ipv4-udp over queues 1 2 3', rss('eth / ipv4 / udp', 'ipv4-udp', (1, 2, 3)),
             flows(lambda i: pk(h_udp, (1, 2, 3))(to('10.0.0.2', UDP(sport=1000 + i, dport=53))),
                   12) +
             [P(to('10.0.0.2', TCP()), 0, rss=NOHASH)]),
        Case('rss ipv4 (addresses only)', rss('eth / ipv4', 'ipv4', four),
             flows(lambda i: pk(h_ip, four)(to('10.0.%d.2' % i, UDP(sport=i, dport=i))), 8) +
             [pk(h_ip, four)(to('10.0.0.2', TCP(sport=5, dport=6)))]),
        Case('rss l3-src-only', rss('eth / ipv4 / udp', 'ipv4-udp l3-src-only', four),
             flows(lambda i: pk(h_src, four)(to('10.0.0.%d' % (i + 2), src='10.9.%d.1' % i)), 8)),
        Case('rss ipv6-udp l4-dst-only', rss('eth / ipv6 / udp', 'ipv6-udp l4-dst-only', four),
             flows(lambda i: pk(h_dport, four)(E / IPv6(src='2001:db8::%x' % i) /
                                               UDP(sport=7 + 3 * i, dport=3000 + i)), 8)),
        Case('rss several kinds', rss('eth', 'ipv4-tcp ipv4', (2, 3)),
             flows(lambda i: pk(h_udp, (2, 3))(to('10.0.0.2', TCP(sport=40 + i, dport=80))), 6) +
             flows(lambda i: pk(h_ip, (2, 3))(to('10.0.%d.2' % i, UDP(sport=40, dport=80))), 6) +
             [P(E / IPv6() / UDP(), 2, rss=NOHASH), P(E / ARP(), 2, rss=NOHASH)]),
        Case('rss inner (level 2)', rss('eth / ipv4 / udp / vxlan', 'ipv4-udp', four,
                                        'level 2 '),
             flows(lambda i: pk(h_inner, four)(
                 to('10.0.0.2', UDP(sport=50000, dport=4789)) / VXLAN(vni=1) /
                 Ether() / IP(src='192.168.0.%d' % i, dst='192.168.1.1') / UDP(sport=i + 9,
                                                                                 dport=99)), 8)),
    ]


def symmetric():
    """Symmetric Toeplitz: both directions of a flow get the same hash and queue."""
    pk = []
    for i in range(6):
        a, b = '10.0.%d.1' % i, '10.1.%d.2' % i
        pk += [P(to(b, TCP(sport=1000 + i, dport=80), src=a), ANY, rss=None),
               P(to(a, TCP(sport=80, dport=1000 + i), src=b), ANY, rss=None)]
    return Case('rss symmetric toeplitz', rss('eth / ipv4 / tcp', 'ipv4-tcp', (0, 1, 2, 3),
                                              'func symmetric_toeplitz '), pk)


def body(s):
    s.run(basic_cases() + rss_cases())
    case = symmetric()
    out, _ = s.run([case], verbose=True)
    check_symmetric(s, case, out)


def check_symmetric(s, case, out):
    from testpmd_pcap import rss_of
    got = []
    for i in range(len(case.pkts)):
        q, _, line = case.got.get(i, (None, None, None))
        got.append([(q, rss_of(line))] if line is not None else [])
    for i in range(0, len(got), 2):
        s.c.check('symmetric: flow %d both ways on one queue with one hash %s' % (i // 2,
                                                                                 got[i]),
                  len(got[i]) == 1 and got[i] == got[i + 1] and got[i][0][1] != NOHASH,
                  'reverse %s' % got[i + 1])
    s.c.check('symmetric: flows spread over several queues',
              len(set(x[0][0] for x in got if x)) > 1)


if __name__ == '__main__':
    main('testpmd_actions_fate', body, __doc__)
