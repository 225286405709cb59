#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5dm authors
"""rte_flow VLAN actions through the stock testpmd: OF_PUSH_VLAN (C-tag, S-tag, two
pushes), OF_SET_VLAN_VID (after a push, or rewriting the packet's tag), OF_SET_VLAN_PCP,
OF_POP_VLAN (one and two tags), on ingress and egress.

A pushed tag becomes the outermost one (OpenFlow semantics): two pushes leave the second
one outside. Expected frames are built here tag by tag. See testpmd_pcap.py for the
topology.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from testpmd_pcap import Case, chain, main, rewrite_case, rule_of, setf  # noqa: E402

from scapy.all import IP, UDP, Dot1AD, Dot1Q, Ether  # noqa: E402

E = Ether(dst='00:11:22:33:44:55')
L3 = IP(src='10.0.0.1', dst='10.0.0.2') / UDP(sport=1111, dport=2222)


def untagged(dst='10.0.0.2'):
    return E / IP(src='10.0.0.1', dst=dst) / UDP(sport=1111, dport=2222)


def tagged(*tags, dst='10.0.0.2'):
    """tags outermost first: (tpid, pcp, vid)."""
    p = E.copy()
    for tpid, pcp, vid in tags:
        p = p / (Dot1AD if tpid == 0x88a8 else Dot1Q)(prio=pcp, vlan=vid)
    return p / IP(src='10.0.0.1', dst=dst) / UDP(sport=1111, dport=2222)


def retag(*tags):
    """Expected output: the input's Ethernet header and L3 payload with exactly `tags`."""
    def apply(p):
        eth = Ether(dst=p[Ether].dst, src=p[Ether].src)
        out = eth
        for tpid, pcp, vid in tags:
            out = out / (Dot1AD if tpid == 0x88a8 else Dot1Q)(prio=pcp, vlan=vid)
        return out / p[IP]
    return apply


def cases(egress=False):
    t = ' (egress)' if egress else ''
    return [
        rewrite_case('push C-tag vid+pcp' + t, 'eth / ipv4 dst is 10.0.0.2',
            'of_push_vlan ethertype 0x8100 / of_set_vlan_vid vlan_vid 100 / '
            'of_set_vlan_pcp vlan_pcp 3', untagged(), [untagged('10.0.0.3')],
            retag((0x8100, 3, 100)), egress),
        rewrite_case('push S-tag' + t, 'eth / ipv4 dst is 10.0.0.2',
            'of_push_vlan ethertype 0x88a8 / of_set_vlan_vid vlan_vid 4094',
            untagged(), [untagged('10.0.0.3')], retag((0x88a8, 0, 4094)), egress),
        rewrite_case('push onto a tagged packet' + t, 'eth / vlan vid is 5 / ipv4',
            'of_push_vlan ethertype 0x88a8 / of_set_vlan_vid vlan_vid 77 / '
            'of_set_vlan_pcp vlan_pcp 7', tagged((0x8100, 2, 5)),
            [tagged((0x8100, 2, 6)), untagged()], retag((0x88a8, 7, 77), (0x8100, 2, 5)),
            egress),
        rewrite_case('two pushes' + t, 'eth / ipv4 dst is 10.0.0.2',
            'of_push_vlan ethertype 0x8100 / of_set_vlan_vid vlan_vid 20 / '
            'of_push_vlan ethertype 0x88a8 / of_set_vlan_vid vlan_vid 10 / '
            'of_set_vlan_pcp vlan_pcp 1', untagged(), [untagged('10.0.0.3')],
            retag((0x88a8, 1, 10), (0x8100, 0, 20)), egress),
        rewrite_case('push with the VID of the matched tag' + t, 'eth / vlan vid is 300 / ipv4',
            'of_push_vlan ethertype 0x88a8', tagged((0x8100, 0, 300)),
            [tagged((0x8100, 0, 301))], retag((0x88a8, 0, 300), (0x8100, 0, 300)), egress),
        rewrite_case('set vid of the packet tag' + t, 'eth / vlan vid is 5 / ipv4',
            'of_set_vlan_vid vlan_vid 6', tagged((0x8100, 4, 5)), [tagged((0x8100, 4, 7))],
            retag((0x8100, 4, 6)), egress),
        rewrite_case('pop' + t, 'eth / vlan vid is 5 / ipv4', 'of_pop_vlan', tagged((0x8100, 4, 5)),
            [tagged((0x8100, 4, 7)), untagged()], retag(), egress),
        rewrite_case('pop S-tag of QinQ' + t, 'eth type is 0x88a8 / vlan vid is 40 / vlan / ipv4',
            'of_pop_vlan', tagged((0x88a8, 0, 40), (0x8100, 1, 50)),
            [tagged((0x88a8, 0, 41), (0x8100, 1, 50))], retag((0x8100, 1, 50)), egress),
        rewrite_case('pop two' + t, 'eth / vlan / vlan / ipv4', 'of_pop_vlan / of_pop_vlan',
            tagged((0x8100, 0, 40), (0x8100, 1, 50)), [tagged((0x8100, 0, 40)), untagged()],
            retag(), egress),
        rewrite_case('pop, field change, push' + t, 'eth / vlan vid is 9 / ipv4',
            'of_pop_vlan / set_mac_dst mac_addr 00:11:22:33:44:66 / '
            'of_push_vlan ethertype 0x8100 / of_set_vlan_vid vlan_vid 900 / '
            'of_set_vlan_pcp vlan_pcp 6', tagged((0x8100, 0, 9)), [tagged((0x8100, 0, 8))],
            chain(retag((0x8100, 6, 900)), setf(Ether, dst='00:11:22:33:44:66')), egress),
    ] + ([
        # Egress takes a push right after a pop (NIC RX does not: see refusals()).
        rewrite_case('pop then push (replace the tag)' + t, 'eth / vlan vid is 9 / ipv4',
            'of_pop_vlan / of_push_vlan ethertype 0x8100 / of_set_vlan_vid vlan_vid 900 / '
            'of_set_vlan_pcp vlan_pcp 6', tagged((0x8100, 0, 9)), [tagged((0x8100, 0, 8))],
            retag((0x8100, 6, 900)), egress)] if egress else [])


def refusals():
    act = 'specific action'
    conf = 'action configuration'

    return [Case('vlan refusals', [], [], refused=[
        (rule_of('eth / ipv4', 'of_pop_vlan'), act,
         'OF_POP_VLAN needs a VLAN item per popped tag in the pattern'),
        (rule_of('eth / vlan / ipv4', 'of_pop_vlan / of_pop_vlan'), act,
         'OF_POP_VLAN needs a VLAN item per popped tag in the pattern'),
        (rule_of('eth / ipv4', 'of_set_vlan_pcp vlan_pcp 3'), act,
         'OF_SET_VLAN_PCP is supported only after OF_PUSH_VLAN'),
        (rule_of('eth / ipv4', 'of_push_vlan ethertype 0x9100 / of_set_vlan_vid vlan_vid 1'), conf,
         'OF_PUSH_VLAN EtherType must be 0x8100 or 0x88a8'),
        (rule_of('eth / ipv4', 'of_push_vlan ethertype 0x8100'), act,
         'OF_PUSH_VLAN needs OF_SET_VLAN_VID or a VLAN item with a fully masked VID'),
        (rule_of('eth / ipv4', 'of_push_vlan ethertype 0x8100 / of_set_vlan_vid vlan_vid 4095'), conf,
         'VLAN VID must be at most 0xffe'),
        (rule_of('eth / ipv4', 'of_push_vlan ethertype 0x8100 / of_set_vlan_vid vlan_vid 1 / '
           'of_set_vlan_pcp vlan_pcp 8'), conf, 'VLAN PCP must be 0 to 7'),
        (rule_of('eth / ipv4', 'of_push_vlan ethertype 0x8100 / of_set_vlan_vid vlan_vid 1 / '
           'of_push_vlan ethertype 0x8100 / of_set_vlan_vid vlan_vid 2 / '
           'of_push_vlan ethertype 0x8100 / of_set_vlan_vid vlan_vid 3'), act,
         'at most two OF_PUSH_VLAN actions per rule'),
        (rule_of('eth / vlan / ipv4', 'of_push_vlan ethertype 0x8100 / of_set_vlan_vid vlan_vid 1 / '
           'of_pop_vlan'), act,
         'header changes must come in the order the device applies them: decap, VLAN pop, '
         'field changes, VLAN push, encap'),
        (rule_of('eth / vlan / ipv4', 'of_pop_vlan / of_push_vlan ethertype 0x8100 / '
           'of_set_vlan_vid vlan_vid 1'), act,
         'on ingress, OF_PUSH_VLAN cannot follow OF_POP_VLAN without a field change between '
         'them'),
        (rule_of('eth / ipv4', 'of_push_vlan ethertype 0x8100 / of_set_vlan_vid vlan_vid 1 / '
           'set_ipv4_dst ipv4_addr 1.1.1.1'), act,
         'header changes must come in the order the device applies them: decap, VLAN pop, '
         'field changes, VLAN push, encap'),
    ])]


def body(s):
    s.run(cases() + cases(egress=True) + refusals())


if __name__ == '__main__':
    main('testpmd_actions_vlan', body, __doc__)
