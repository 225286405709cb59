#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5dm authors
"""Transfer templates through the stock testpmd: flow configure, pattern_template,
actions_template and template_table with transfer on the E-Switch manager, flow queue
create / destroy, push and pull.

Ports as in test_testpmd_esw.py (--vdev net_mlx5dm0,representor=vf[0-1],vf_ports=1: 0 the
manager, its wire looped; 1 and 2 the representors; 3 and 4 the VFs). A transfer table
whose rules name their source port and target port takes, through flow queue 0: VF0 ->
VF1 and the uplink -> VF0. Every port sends one burst (tx_first): the frames go where the
rules say and `flow query` counts them; destroying the rules through the queue takes the
library's rules back (steer_rules), the table's destroy its matcher (steer_matchers).
Templates a transfer table cannot take are refused, naming the item or action.

A second run: a group-0 transfer table whose rule jumps (fixed in its actions template) to
a group-1 table that drops VF1's frames. What the manager's vport sends and misses in
group 1 goes on by the group's tail: the representors' bursts to their VFs, the manager's
to the wire (back from the uplink to its Rx), not to the manager's Rx directly.
"""

import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from testpmd_harness import Checker, parse_xstats, pulled, run_testpmd  # noqa: E402

VDEV = 'net_mlx5dm0,representor=vf[0-1],vf_ports=1'
BURST = 32


def commands():
    rule = ('flow queue 0 create 0 template_table 0 pattern_template 0 actions_template 0 '
            'postpone %s pattern represented_port ethdev_port_id is %d / end actions count / '
            'represented_port ethdev_port_id %d / end')
    return [
        'set fwd rxonly',
        'port stop 0',
        'flow configure 0 queues_number 1 queues_size 64 counters_number 0',
        'port start 0',
        # Refused: what a transfer template cannot take.
        'flow pattern_template 0 create pattern_template_id 5 transfer template '
        'mark id mask 0xff / end',
        'flow actions_template 0 create transfer actions_template_id 5 template '
        'queue index 0 / end mask queue index 0xffff / end',
        'flow pattern_template 0 create pattern_template_id 0 transfer template '
        'represented_port ethdev_port_id mask 0xffff / end',
        # The port is each rule's (a zero mask), COUNT the template's.
        'flow actions_template 0 create transfer actions_template_id 0 template '
        'count / represented_port / end mask count / represented_port / end',
        'show port xstats 0',
        'flow template_table 0 create table_id 0 group 0 priority 0 transfer rules_number 64 '
        'pattern_template 0 actions_template 0',
        rule % ('yes', 1, 2),
        rule % ('yes', 0, 1),
        'flow push 0 queue 0',
        'pull 0 0 2 30',
        'show port xstats 0',
        'start tx_first', 'sleep 0.5', 'stop',
        'show port xstats all',
        'flow query 0 0 count',
        'flow query 0 1 count',
        'flow queue 0 destroy 0 postpone no rule 0 rule 1',
        'pull 0 0 2 30',
        'show port xstats 0',
        'flow template_table 0 destroy table 0',
        'show port xstats 0',
        'quit',
    ]


def tail_commands():
    return [
        'set fwd rxonly',
        'port stop 0',
        'flow configure 0 queues_number 1 queues_size 64 counters_number 0',
        'port start 0',
        'flow pattern_template 0 create pattern_template_id 0 transfer template eth / end',
        'flow actions_template 0 create transfer actions_template_id 0 template '
        'jump group 1 / end mask jump group 0xffffffff / end',
        'flow pattern_template 0 create pattern_template_id 1 transfer template '
        'represented_port ethdev_port_id mask 0xffff / end',
        'flow actions_template 0 create transfer actions_template_id 1 template '
        'drop / end mask drop / end',
        'flow template_table 0 create table_id 1 group 1 priority 0 transfer rules_number 4 '
        'pattern_template 1 actions_template 1',
        'flow template_table 0 create table_id 0 group 0 priority 0 transfer rules_number 4 '
        'pattern_template 0 actions_template 0',
        'flow queue 0 create 0 template_table 0 pattern_template 0 actions_template 0 '
        'postpone yes pattern eth / end actions jump group 1 / end',
        'flow queue 0 create 0 template_table 1 pattern_template 0 actions_template 0 '
        'postpone yes pattern represented_port ethdev_port_id is 2 / end actions drop / end',
        'flow push 0 queue 0',
        'pull 0 0 2 30',
        'start tx_first', 'sleep 0.5', 'stop',
        'show port xstats all',
        'quit',
    ]


def rx_per_port(out):
    """rx_good_packets of ports 0 to 4 in the first `show port xstats all` block."""
    rx = {}
    for port, xs in parse_xstats(out):
        rx[port] = xs.get('rx_good_packets')
        if port == 4:
            break
    return rx


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--testpmd', required=True)
    ap.add_argument('--pmd', required=True)
    a = ap.parse_args()
    c = Checker('testpmd_esw_template')

    rc, out = run_testpmd(a.testpmd, a.pmd, VDEV, commands(),
                          app_args=['--port-topology=loop'])
    c.check('testpmd exited with status 0', rc == 0, 'status %d' % rc)
    c.check('MARK refused in a transfer pattern template',
            'MARK: not supported in transfer templates' in out)
    c.check('QUEUE refused in a transfer actions template',
            'QUEUE: not supported in transfer templates' in out)
    c.check('transfer templates and table created',
            'Pattern template #0 created' in out and 'Actions template #0 created' in out and
            'Template table #0 created' in out, '')
    c.check('creations and destructions pulled, all succeeded',
            pulled(out) == (4, 0), 'got %s' % (pulled(out),))
    blocks = parse_xstats(out)
    mgr = [xs for port, xs in blocks if port == 0]
    # Before the table, with its rules, (the burst's,) after their destroy, after the table's.
    c.check('five xstats blocks of port 0', len(mgr) >= 5, 'got %d' % len(mgr))
    if len(mgr) >= 5:
        before, made, after, gone = mgr[0], mgr[1], mgr[-2], mgr[-1]
        c.check('two library rules made through the queue',
                made['steer_rules'] == before['steer_rules'] + 2,
                '%d -> %d' % (before['steer_rules'], made['steer_rules']))
        c.check('the table holds one matcher',
                made['steer_matchers'] == before['steer_matchers'] + 1,
                '%d -> %d' % (before['steer_matchers'], made['steer_matchers']))
        c.check('destroy through the queue takes the rules back',
                after['steer_rules'] == before['steer_rules'], '%d' % after['steer_rules'])
        c.check('the table destroyed, its matcher goes',
                gone['steer_matchers'] == before['steer_matchers'],
                '%d' % gone['steer_matchers'])
    # The burst: the `show port xstats all` block, one entry per port.
    rx = rx_per_port(out)
    # VF0 -> VF1; the uplink (port 0's burst through the wire) -> VF0; the representors'
    # bursts to their VFs; VF1's misses to its representor.
    want = {0: 0, 1: 0, 2: BURST, 3: 2 * BURST, 4: 2 * BURST}
    c.check('rx per port %s' % want, rx == want, 'got %s' % rx)
    hits = [int(h) for h in re.findall(r'^\s*hits: (\d+)', out, re.M)]
    c.check('counters VF0->VF1, uplink->VF0', hits == [BURST, BURST], 'got %s' % hits)

    rc, tail_out = run_testpmd(a.testpmd, a.pmd, VDEV, tail_commands(),
                               app_args=['--port-topology=loop'])
    c.check('tails run: testpmd exited with status 0', rc == 0, 'status %d' % rc)
    c.check('tails run: both rules pulled',
            pulled(tail_out) == (2, 0), 'got %s' % (pulled(tail_out),))
    # The manager's burst by the wire back to its Rx, the representors' to their VFs,
    # VF0's miss to its representor, VF1's dropped in group 1.
    want = {0: BURST, 1: BURST, 2: 0, 3: BURST, 4: BURST}
    rx = rx_per_port(tail_out)
    c.check('misses in group 1 rx per port %s' % want, rx == want, 'got %s' % rx)
    c.done(out + tail_out)


if __name__ == '__main__':
    main()
