#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5dm authors
"""The template and asynchronous rte_flow API through the stock testpmd: flow configure,
pattern_template, actions_template, template_table, flow queue create/destroy, push, pull.

A template table of 10 000 rules (UDP to one IPv4 address each, the MARK id and the queue
per rule: unmasked actions) is filled through two flow queues, a push and a pull every 32
operations; one packet per rule must arrive on the rule's queue with the rule's mark. A
relaxed table next to it matches a TCP packet its non-relaxed twin does not; the rules of a
third table share an indirect COUNT (flow queue indirect_action create, query; destroy
refused while in use). Destroying
every rule through the queues takes the library's rules back to what they were, and
destroying the table gives its ICM back (the steer_* xstats). Topology: testpmd_pcap.py.
"""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from testpmd_harness import parse_xstats, pulled, run_testpmd  # noqa: E402
from testpmd_pcap import (ANY, MLX5DM_PORT, NOMARK, main, mark_of, read_pcap,  # noqa: E402
                          verbose_rx, write_pcap)

N = int(os.environ.get('MLX5DM_TEMPLATE_RULES', 10000))
BATCH = 32
P = MLX5DM_PORT


def dst(i):
    return '10.%d.%d.1' % (i >> 8, i & 255)


def frame(i, pkt):
    from scapy.all import Ether, Raw
    pkt = pkt.copy()
    pkt[Ether].src = '02:00:00:00:%02x:%02x' % (i >> 8, i & 255)
    return bytes(pkt / Raw(b'<mlx5dm %03d.%03d>' % (i // 1000 + 1, i % 1000)))


def commands():
    # Results waiting per flow queue: a pull hands out only what the device executed, so
    # the harness pulls until they all came (its `pull` command, testpmd_harness.py).
    waiting = [0, 0]

    def push_pull(q):
        cmds.extend(['flow push %d queue %d' % (P, q), 'pull %d %d %d 60' % (P, q, waiting[q])])
        waiting[q] = 0

    cmds = ['port stop %d' % P,
            'flow configure %d queues_number 2 queues_size 256 counters_number 0' % P,
            'port start %d' % P,
            'show port xstats %d' % P,
            'flow pattern_template %d create pattern_template_id 0 ingress template '
            'eth / ipv4 dst mask 255.255.255.255 / udp / end' % P,
            'flow pattern_template %d create pattern_template_id 1 relaxed yes ingress '
            'template eth / ipv4 dst mask 255.255.255.255 / udp / end' % P,
            'flow actions_template %d create actions_template_id 0 template '
            'mark / queue / end mask mark / queue / end' % P,
            'flow actions_template %d create actions_template_id 1 template '
            'mark id 0x777 / queue index 3 / end mask mark id 0xffffffff / queue index 0xffff / '
            'end' % P,
            'flow template_table %d create table_id 0 group 0 priority 0 ingress rules_number %d '
            'pattern_template 0 actions_template 0' % (P, N),
            'flow template_table %d create table_id 1 group 0 priority 0 ingress rules_number 4 '
            'pattern_template 1 actions_template 1' % P,
            'show port xstats %d' % P,
            # An indirect COUNT shared by the rules of a third table.
            'flow queue %d indirect_action 0 create action_id 5 ingress postpone no '
            'action count / end' % P,
            'flow actions_template %d create actions_template_id 2 template indirect 5 / '
            'queue index 1 / end mask indirect 5 / queue index 0xffff / end' % P,
            'flow template_table %d create table_id 2 group 0 priority 0 ingress rules_number 4 '
            'pattern_template 0 actions_template 2' % P]
    waiting[0] += 1
    for i in range(N):
        q = i % 2
        cmds.append('flow queue %d create %d template_table 0 pattern_template 0 '
                    'actions_template 0 postpone yes pattern eth / ipv4 dst is %s / udp / end '
                    'actions mark id %d / queue index %d / end' % (P, q, dst(i), i, i % 4))
        waiting[q] += 1
        if i % (2 * BATCH) >= 2 * BATCH - 2:
            push_pull(q)
    # The relaxed table: UDP is not matched (the rule's own action values are ignored).
    cmds.append('flow queue %d create 0 template_table 1 pattern_template 0 actions_template 0 '
                'postpone no pattern eth / ipv4 dst is 11.0.0.1 / udp / end '
                'actions mark id 1 / queue index 1 / end' % P)
    for d in ('12.0.0.1', '12.0.0.2'):
        cmds.append('flow queue %d create 0 template_table 2 pattern_template 0 '
                    'actions_template 0 postpone no pattern eth / ipv4 dst is %s / udp / end '
                    'actions indirect 5 / queue index 1 / end' % (P, d))
    waiting[0] += 3
    for q in (0, 1):
        push_pull(q)
    # io with retry: a burst that finds the Tx ring full (the model's thread is behind on a
    # loaded machine) waits for room instead of being dropped, as a real application would.
    cmds += ['show port xstats %d' % P, 'set fwd io retry', 'set burst tx delay 100 retry 1000',
             'set verbose 1', 'start', 'sleep 3', 'stop',
             'set verbose 0',
             'flow queue %d indirect_action 0 query 5' % P]
    waiting[0] += 1
    push_pull(0)
    # In use: refused.
    cmds.append('flow queue %d indirect_action 0 destroy action_id 5' % P)
    # Rule ids: testpmd numbers them 0 .. N + 2 in creation order.
    for base in range(0, N + 3, 20):
        ids = range(base, min(base + 20, N + 3))
        q = (base // 20) % 2
        cmds.append('flow queue %d destroy %d postpone yes %s' %
                    (P, q, ' '.join('rule %d' % r for r in ids)))
        waiting[q] += len(ids)
        push_pull(q)
    cmds += ['show port xstats %d' % P,
             'flow queue %d indirect_action 0 destroy action_id 5' % P]
    waiting[0] += 1
    push_pull(0)
    cmds += ['flow template_table %d destroy table 0 table 1 table 2' % P,
             'show port xstats %d' % P]
    return cmds


def run(s, frames, queues=4):
    """testpmd on the commands and frames: (output, {frame number: [(queue, n)]})."""
    import tempfile
    with tempfile.TemporaryDirectory(prefix='mlx5dm_tp_') as d:
        write_pcap(os.path.join(d, 'in.pcap'), frames)
        write_pcap(os.path.join(d, 'empty.pcap'), [])
        args = ['rx_pcap=%s' % os.path.join(d, 'in.pcap')]
        args += ['rx_pcap=%s' % os.path.join(d, 'empty.pcap')] * (queues - 1)
        args += ['tx_pcap=%s' % os.path.join(d, 'out%d.pcap' % q) for q in range(queues)]
        # Ten thousand flow commands take testpmd's parser a while on a loaded machine.
        rc, out = run_testpmd(s.testpmd, s.pmd, ['net_pcap0,' + ','.join(args), 'net_mlx5dm0'],
                              commands(), timeout=1200, line_buffered=True,
                              app_args=['--port-topology=paired', '--no-flush-rx',
                                        '--burst=512', '--rxq=%d' % queues,
                                        '--txq=%d' % queues])
        s.outputs.append(out)
        s.c.check('testpmd exited with status 0', rc == 0, 'status %d' % rc)
        received = {}
        for q in range(queues):
            path = os.path.join(d, 'out%d.pcap' % q)
            for n, fr in enumerate(read_pcap(path) if os.path.exists(path) else []):
                m = re.search(rb'<mlx5dm (\d{3})\.(\d{3})>$', fr)
                if m:
                    i = (int(m.group(1)) - 1) * 1000 + int(m.group(2))
                    received.setdefault(i, []).append((q, n))
    return out, received


def body(s):
    from scapy.all import IP, TCP, UDP, Ether
    e = Ether(dst='00:11:22:33:44:55')
    frames, want = [], []
    for i in range(N):
        frames.append(frame(i, e / IP(src='10.200.0.1', dst=dst(i)) / UDP(sport=7, dport=9)))
        want.append((i % 4, i))
    extra = [
        # Not a rule's address, and a rule's address but TCP: no rule.
        (e / IP(dst='10.250.0.1') / UDP(), ANY, NOMARK),
        (e / IP(dst=dst(5)) / TCP(), ANY, NOMARK),
        # The relaxed table: UDP and TCP alike.
        (e / IP(dst='11.0.0.1') / UDP(), 3, 0x777),
        (e / IP(dst='11.0.0.1') / TCP(), 3, 0x777),
        # The indirect COUNT's rules: five packets counted.
    ] + [(e / IP(dst='12.0.0.%d' % (1 + k % 2)) / UDP(), 1, NOMARK) for k in range(5)]
    for k, (pkt, q, mark) in enumerate(extra):
        frames.append(frame(N + k, pkt))
        want.append((q, mark))
    c = s.c
    out, received = run(s, frames)
    enq = len(re.findall(r'^Flow rule #\d+ creation enqueued', out, re.M))
    c.check('%d rules enqueued' % (N + 3), enq == N + 3, 'got %d' % enq)
    results, failed = pulled(out)
    # Rules made and destroyed, the indirect COUNT made, queried and destroyed.
    c.check('every operation pulled, none failed',
            results == 2 * (N + 3) + 3 and failed == 0,
            'pulled %d, failed %d' % (results, failed))
    m = re.search(r'Indirect COUNT action:\n hits_set: 1\n bytes_set: 1\n hits: (\d+)', out)
    c.check('the indirect COUNT counted its rules\' 5 packets', m and int(m.group(1)) == 5,
            m.group(0) if m else 'no query output')
    c.check('an indirect COUNT in use is not destroyed',
            'the indirect action is used by flow rules' in out)
    seen = verbose_rx(out, P)
    bad = []
    for i, (q, mark) in enumerate(want):
        got = received.get(i, [])
        if len(got) != 1:
            bad.append((i, 'arrived %d times' % len(got)))
            continue
        gq, n = got[0]
        line = seen.get(gq, [])[n:n + 1]
        gmark = mark_of(line[0]) if line else None
        if (q != ANY and gq != q) or gmark != mark:
            bad.append((i, 'queue %d mark %s, want %s %s' % (gq, gmark, q, mark)))
    c.check('each rule steers its packet to its queue with its mark (%d packets)' % len(want),
            not bad, '%d wrong, first %s' % (len(bad), bad[:5]))
    xs = [x for port, x in parse_xstats(out) if port == P]
    c.check('five xstats blocks', len(xs) == 5, 'got %d' % len(xs))
    if len(xs) != 5:
        return
    start, tables, full, emptied, gone = xs
    c.check('the tables made their matchers up front',
            tables['steer_matchers'] == start['steer_matchers'] + 2,
            '%d -> %d' % (start['steer_matchers'], tables['steer_matchers']))
    c.check('%d rules in the library' % (N + 3),
            full['steer_rules'] == tables['steer_rules'] + N + 3,
            '%d -> %d' % (tables['steer_rules'], full['steer_rules']))
    c.check('destroyed through the queues: the rules are gone',
            emptied['steer_rules'] == tables['steer_rules'],
            '%d, want %d' % (emptied['steer_rules'], tables['steer_rules']))
    c.check('rules\' ICM back in the pool', emptied['steer_icm_used_bytes'] ==
            tables['steer_icm_used_bytes'],
            '%d, want %d' % (emptied['steer_icm_used_bytes'], tables['steer_icm_used_bytes']))
    c.check('tables destroyed: their matchers and ICM back in the pool',
            gone['steer_matchers'] == start['steer_matchers'] and
            gone['steer_icm_used_bytes'] == start['steer_icm_used_bytes'],
            '%d matchers, %d bytes; want %d, %d' % (
                gone['steer_matchers'], gone['steer_icm_used_bytes'],
                start['steer_matchers'], start['steer_icm_used_bytes']))


if __name__ == '__main__':
    main('testpmd_template', body, __doc__)
