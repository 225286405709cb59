#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5dm authors
"""rte_flow metadata items through the stock testpmd: MARK, TAG and META.

The values these items match are written by an earlier rule: MARK, SET_TAG or SET_META in
the case's first group, which then jumps to a second group holding the MARK / TAG / META
rules (one queue per rule, a catch-all on queue 3); on egress the same with rewrites in
place of queues. Egress META also matches the Tx metadata testpmd attaches to every packet
(`port config <port> tx_metadata <value>`); a second run without it shows the same rules
leave the packets alone.
See testpmd_pcap.py for the topology.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from testpmd_pcap import ANY, NOMARK, Case, P, main, setf  # noqa: E402

from scapy.all import IP, UDP, Ether  # noqa: E402

E = Ether(dst='00:11:22:33:44:55')


def to(dst):
    return E / IP(src='10.0.0.1', dst=dst) / UDP(sport=1, dport=2)


def first_group(actions):
    """Rules of group {g}: packets to 10.0.0.<n> get actions[n] and jump to group {g1}."""
    return ['ingress group {g} pattern eth / ipv4 dst is 10.0.0.%d / end actions %s'
            'jump group {g1} / end' % (n, a) for n, a in sorted(actions.items())]


def second_group(rules):
    """Rules of group {g1}: (pattern, queue) by priority, then a catch-all to queue 3."""
    return (['ingress group {g1} priority %d pattern %s / end actions queue index %d / end' %
             (prio, pat, q) for prio, (pat, q) in enumerate(rules)] +
            ['ingress group {g1} priority 100 pattern end actions queue index 3 / end'])


def ingress_cases():
    return [
        Case('mark item', first_group({2: 'mark id 0x55 / ', 3: 'mark id 0x66 / ', 4: '',
                                       5: 'mark id 0 / '}) +
             second_group([('mark id is 0x55', 1), ('mark', 2)]),
             [P(to('10.0.0.2'), 1, mark=0x55), P(to('10.0.0.3'), 2, mark=0x66),
              P(to('10.0.0.4'), 3, mark=NOMARK), P(to('10.0.0.5'), 2, mark=0),
              P(to('10.0.0.6'), 0, mark=NOMARK)]),
        Case('mark item range', first_group({2: 'mark id 0x120 / ', 3: 'mark id 0x13f / ',
                                             4: 'mark id 0x140 / '}) +
             second_group([('mark id spec 0x120 id last 0x13f', 1)]),
             [P(to('10.0.0.2'), 1), P(to('10.0.0.3'), 1), P(to('10.0.0.4'), 3)]),
        Case('tag item', first_group({2: 'set_tag data 0x1234 mask 0xffffffff index 0 / ',
                                      3: 'set_tag data 0xabcd mask 0xffff index 2 / ',
                                      4: 'set_tag data 0xabcd mask 0xffff index 0 / ', 5: '',
                                      6: 'set_tag data 0x1234 mask 0xffffffff index 3 / '}) +
             second_group([('tag data is 0x1234 index is 0', 1),
                           ('tag data is 0xabcd index is 2', 2)]),
             [P(to('10.0.0.2'), 1), P(to('10.0.0.3'), 2), P(to('10.0.0.4'), 3),
              P(to('10.0.0.5'), 3), P(to('10.0.0.6'), 3), P(to('10.0.0.7'), 0)]),
        Case('tag item masked', first_group({2: 'set_tag data 0x00ab0000 mask 0x00ff0000 '
                                                'index 1 / ',
                                             3: 'set_tag data 0x00ac0000 mask 0x00ff0000 '
                                                'index 1 / '}) +
             second_group([('tag data spec 0x00ab0000 data mask 0x00ff0000 index is 1', 1)]),
             [P(to('10.0.0.2'), 1), P(to('10.0.0.3'), 3)]),
        Case('meta item (ingress)', first_group({2: 'set_meta data 0x77 mask 0xffffffff / ',
                                                 3: 'set_meta data 0x78 mask 0xffffffff / ', 4: '',
                                                 5: 'set_meta data 0xf0f0 mask 0xff00 / '}) +
             second_group([('meta data is 0x77', 1),
                           ('meta data spec 0xf000 data mask 0xff00', 2)]),
             [P(to('10.0.0.2'), 1), P(to('10.0.0.3'), 3), P(to('10.0.0.4'), 3),
              P(to('10.0.0.5'), 2)]),
    ]


def egress_meta(tx_meta):
    """META on egress: the rule whose value equals the Tx metadata rewrites the packet."""
    rules = ['egress group {g} pattern eth / ipv4 dst is 10.0.0.2 / meta data is 0x11223344 / '
             'end actions set_ipv4_dst ipv4_addr 10.1.1.1 / end',
             'egress group {g} pattern eth / ipv4 dst is 10.0.0.3 / meta data spec 0x11000000 '
             'data mask 0xff000000 / end actions set_mac_dst mac_addr 00:11:22:33:44:66 / end',
             'egress group {g} pattern eth / ipv4 / meta data is 0x44332211 / end '
             'actions set_ipv4_dst ipv4_addr 10.2.2.2 / end']
    pkts = [to('10.0.0.2'), to('10.0.0.3'), to('10.0.0.4')]
    if tx_meta:
        return Case('meta item (egress, Tx metadata 0x11223344)', rules,
                    [P(pkts[0], ANY, out=setf(IP, dst='10.1.1.1')),
                     P(pkts[1], ANY, out=setf(Ether, dst='00:11:22:33:44:66')),
                     P(pkts[2], ANY)], egress=True)
    return Case('meta item (egress, no Tx metadata)', rules, [P(p, ANY) for p in pkts],
                egress=True)


def egress_registers():
    """SET_META / SET_TAG on egress, matched by META / TAG items in a later egress group."""
    return Case('meta and tag items after SET_META / SET_TAG (egress)', [
        'egress group {g} pattern eth / ipv4 dst is 10.0.0.2 / end actions '
        'set_meta data 0x55 mask 0xffffffff / jump group {g1} / end',
        'egress group {g} pattern eth / ipv4 dst is 10.0.0.3 / end actions '
        'set_tag data 0x66 mask 0xff index 2 / jump group {g1} / end',
        'egress group {g} pattern eth / ipv4 dst is 10.0.0.4 / end actions jump group {g1} / end',
        'egress group {g1} pattern eth / ipv4 / meta data is 0x55 / end '
        'actions set_ipv4_dst ipv4_addr 10.5.5.5 / end',
        'egress group {g1} pattern eth / ipv4 / tag data is 0x66 index is 2 / end '
        'actions set_ipv4_dst ipv4_addr 10.6.6.6 / end'],
        [P(to('10.0.0.2'), ANY, out=setf(IP, dst='10.5.5.5')),
         P(to('10.0.0.3'), ANY, out=setf(IP, dst='10.6.6.6')),
         P(to('10.0.0.4'), ANY), P(to('10.0.0.5'), ANY)], egress=True)


def refusals():
    return [Case('metadata item refusals', [], [], refused=[
        ('ingress group {g} pattern tag data is 1 index is 4 / end actions queue index 1 / end',
         'item specification', 'TAG index must be 0 to 3'),
        ('ingress group {g} pattern mark id is 0xfffffe / end actions queue index 1 / end',
         'item specification', 'MARK id must be at most 0xfffffd'),
        ('egress group {g} pattern mark id is 1 / end actions drop / end',
         'specific pattern item', 'MARK item is supported on ingress only'),
        # testpmd leaves the mask of SET_TAG / SET_META at 0 unless told.
        ('ingress group {g} pattern eth / end actions set_tag data 1 index 0 / '
         'queue index 1 / end', 'action configuration', 'mask is zero: nothing to set'),
        ('ingress group {g} pattern eth / end actions set_meta data 1 / queue index 1 / end',
         'action configuration', 'mask is zero: nothing to set'),
    ])]


def body(s):
    s.run(ingress_cases() + [egress_meta(True), egress_registers()] + refusals(),
          before_start=['port config 1 tx_metadata 0x11223344'])
    s.run([egress_meta(False)])


if __name__ == '__main__':
    main('testpmd_items_meta', body, __doc__)
