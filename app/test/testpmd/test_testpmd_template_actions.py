#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5dm authors
"""Template tables whose rules the setters cannot make, through the stock testpmd: each
rule of such a pair of templates is translated on its own (the NIC guide's `Template API`),
and must steer as the same rule of rte_flow_create() does.

One template table per case, in the case's group: RSS over two packet kinds (two device
rules per rule), a field rewrite and a JUMP whose values are the rule's, MARK with JUMP, a
VLAN item of either tag kind (two device rules), and a VLAN push on egress with the rule's
VID. The rules go through flow queue 0 after every case's tables are made, then one pull
must return each of them, successful. A rule whose QUEUE the port does not have, in a pair
the setters do make, is refused by the translation with its message and leaves no result.
See testpmd_pcap.py for the topology and how each packet is checked.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from testpmd_harness import pulled  # noqa: E402
from testpmd_pcap import (ANY, GROUP_STRIDE, MLX5DM_PORT, NOMARK, Case, P,  # noqa: E402
                          error_matches, describe_error, main, rss_hash, rss_queue, setf)

from scapy.all import IP, TCP, UDP, Dot1AD, Dot1Q, Ether  # noqa: E402

E = Ether(dst='00:11:22:33:44:55')
PORT = MLX5DM_PORT
KEY = bytes(range(1, 41))
KEY_ARG = 'key %s key_len 40' % KEY.hex()
DST = 'eth / ipv4 dst mask 255.255.255.255 / end'


def to(dst, l4=None):
    return E / IP(src='10.0.0.1', dst=dst) / (l4 if l4 is not None else UDP(sport=1, dport=2))


def tables(k, pattern, actions, masks, direction='ingress'):
    """The commands making case k's templates and table (ids k) in its group."""
    return ['flow pattern_template %d create pattern_template_id %d %s template %s' %
            (PORT, k, direction, pattern),
            # testpmd 22.11 takes the direction before an actions template's id.
            'flow actions_template %d create %s actions_template_id %d template %s / end '
            'mask %s / end' % (PORT, direction, k, actions, masks),
            'flow template_table %d create table_id %d group {g} priority 0 %s rules_number 8 '
            'pattern_template %d actions_template %d' % (PORT, k, direction, k, k)]


def rule(k, pattern, actions):
    return ('flow queue %d create 0 template_table %d pattern_template 0 actions_template 0 '
            'postpone no pattern %s / end actions %s / end' % (PORT, k, pattern, actions))


def vlan_push(vid):
    def apply(p):
        out = Ether(dst=p[Ether].dst, src=p[Ether].src) / Dot1Q(vlan=vid) / p[Ether].payload
        return Ether(bytes(out))
    return apply


def cases():
    """(cases, flow queue rules), case k (from 1) of group k * GROUP_STRIDE."""
    h_udp = rss_hash(KEY, ('src', 'dst', 'sport', 'dport'))
    h_tcp = rss_hash(KEY, ('src', 'dst', 'sport', 'dport'))
    g = [k * GROUP_STRIDE for k in range(7)]
    rss = 'rss types ipv4-udp ipv4-tcp end %s queues 1 2 3 end' % KEY_ARG
    out = [
        Case('rss over two kinds (fixed)', tables(1, DST, rss, rss),
             [P(to('10.0.0.2', UDP(sport=1000 + i, dport=53)), rss_queue(h_udp, (1, 2, 3)),
                rss=h_udp) for i in range(6)] +
             [P(to('10.0.0.2', TCP(sport=2000 + i, dport=80)), rss_queue(h_tcp, (1, 2, 3)),
                rss=h_tcp) for i in range(6)] +
             [P(to('10.0.0.3'), 0)]),
        Case('set_ipv4_dst (the rule\'s)',
             tables(2, DST, 'set_ipv4_dst ipv4_addr 0.0.0.0 / queue index 0',
                    'set_ipv4_dst ipv4_addr 0.0.0.0 / queue index 0'),
             [P(to('10.0.0.2'), 1, out=setf(IP, dst='10.9.9.9')),
              P(to('10.0.0.3'), 2, out=setf(IP, dst='10.8.8.8')), P(to('10.0.0.4'), 0)]),
        Case('jump (the rule\'s)', tables(3, DST, 'jump group 0', 'jump group 0') +
             ['ingress group {g1} pattern eth / end actions queue index 2 / end',
              'ingress group {g2} pattern eth / end actions queue index 3 / end'],
             [P(to('10.0.0.2'), 2), P(to('10.0.0.3'), 3), P(to('10.0.0.4'), 0)]),
        Case('mark (the rule\'s) with jump (fixed)',
             tables(4, DST, 'mark id 0 / jump group %d' % (g[4] + 1),
                    'mark id 0 / jump group 0xffffffff') +
             ['ingress group {g1} pattern eth / end actions queue index 3 / end'],
             [P(to('10.0.0.2'), 3, mark=5), P(to('10.0.0.3'), 3, mark=6),
              P(to('10.0.0.4'), 0, mark=NOMARK)]),
        Case('vlan of either kind', tables(5, 'eth / vlan vid mask 0xfff / end', 'queue index 0',
                                           'queue index 0'),
             [P(E / Dot1Q(vlan=5) / IP(dst='10.0.0.2') / UDP(), 2),
              P(E / Dot1AD(vlan=5) / IP(dst='10.0.0.2') / UDP(), 2),
              P(E / Dot1Q(vlan=6) / IP(dst='10.0.0.2') / UDP(), 3),
              P(E / Dot1Q(vlan=7) / IP(dst='10.0.0.2') / UDP(), 0),
              P(to('10.0.0.2'), 0)]),
        Case('push vlan (the rule\'s VID) on egress',
             tables(6, DST, 'of_push_vlan ethertype 0x8100 / of_set_vlan_vid vlan_vid 0',
                    'of_push_vlan ethertype 0xffff / of_set_vlan_vid vlan_vid 0', 'egress'),
             [P(to('10.0.0.2'), ANY, out=vlan_push(33)), P(to('10.0.0.3'), ANY)], egress=True),
    ]
    rules = [
        rule(1, 'eth / ipv4 dst is 10.0.0.2', 'rss'),
        rule(2, 'eth / ipv4 dst is 10.0.0.2', 'set_ipv4_dst ipv4_addr 10.9.9.9 / '
             'queue index 1'),
        rule(2, 'eth / ipv4 dst is 10.0.0.3', 'set_ipv4_dst ipv4_addr 10.8.8.8 / '
             'queue index 2'),
        rule(3, 'eth / ipv4 dst is 10.0.0.2', 'jump group %d' % (g[3] + 1)),
        rule(3, 'eth / ipv4 dst is 10.0.0.3', 'jump group %d' % (g[3] + 2)),
        rule(4, 'eth / ipv4 dst is 10.0.0.2', 'mark id 5 / jump group 0'),
        rule(4, 'eth / ipv4 dst is 10.0.0.3', 'mark id 6 / jump group 0'),
        rule(5, 'eth / vlan vid is 5', 'queue index 2'),
        rule(5, 'eth / vlan vid is 6', 'queue index 3'),
        rule(6, 'eth / ipv4 dst is 10.0.0.2', 'of_push_vlan ethertype 0x8100 / '
             'of_set_vlan_vid vlan_vid 33'),
    ]
    return out, rules


def body(s):
    cs, rules = cases()
    # A pair the setters make (QUEUE the rule's): a queue the port lacks is the translation's.
    refused = tables(7, DST, 'queue index 0', 'queue index 0')
    refused = [c.format(g=7 * GROUP_STRIDE) for c in refused]
    bad = rule(7, 'eth / ipv4 dst is 10.0.0.9', 'queue index 9')
    first = ['port stop %d' % PORT,
             'flow configure %d queues_number 1 queues_size 64 counters_number 0' % PORT,
             'port start %d' % PORT]
    before = rules + refused + [bad, 'pull %d 0 %d 30' % (PORT, len(rules))]
    out, _ = s.run(cs, first=first, before_start=before, verbose=True)
    res = s.before_results
    errors = [(i, describe_error(r)) for i, r in enumerate(res[:len(rules)])
              if r['kind'] == 'error']
    s.c.check('every flow queue rule enqueued', not errors, 'refused: %s' % errors)
    r = res[len(rules) + len(refused)]
    s.c.check('a QUEUE the port lacks is refused by name',
              error_matches(r, 'action configuration', 'QUEUE index is beyond the configured Rx queues'),
              describe_error(r))
    results, failed = pulled(out)
    s.c.check('one pull result per rule, all successful (%d)' % len(rules),
              results == len(rules) and failed == 0,
              'pulled %d, failed %d' % (results, failed))


if __name__ == '__main__':
    main('testpmd_template_actions', body, __doc__)
