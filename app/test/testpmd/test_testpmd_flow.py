#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5dm authors
"""Stock dpdk-testpmd driving net_mlx5dm's rte_flow end to end (loop topology).

Each scenario is one testpmd run: rules are created on the started port, one
burst per stream is sent with `start tx_first` in rxonly mode (testpmd's
txonly packets: Ether / IPv4 198.18.0.1 -> 198.18.0.2 / UDP 9 -> 9), and the
outcome is read from the per-queue delivery counters (`show port xstats`),
`flow query ... count`, the verbose Rx log (MARK) and testpmd's error lines.
Crafted packets for every item and action: test_testpmd_items_*.py and
test_testpmd_actions_*.py (testpmd_pcap.py). By hand:
  python3 app/test/testpmd/test_testpmd_flow.py --testpmd dpdk-testpmd \
      --pmd build/drivers/net/mlx5dm/librte_net_mlx5dm.so [scenario ...]
"""

import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from testpmd_harness import Checker, parse_xstats, run_testpmd  # noqa: E402
import test_backend  # noqa: E402

TX_DST = '198.18.0.2'  # testpmd's default txonly destination
# The device works beside testpmd: give it time before stopping the Rx polls.
SEND = ['set fwd rxonly', 'start tx_first', 'sleep 0.5', 'stop', 'show port xstats 0']
# A frame walking thousands of matchers takes the device longer: Rx polls until every frame
# sent came back (all match on the looped wire), or a minute went by.
SEND_ALL = ['set fwd rxonly', 'start tx_first', 'wait_rx 0 60', 'stop', 'show port xstats 0']


def rxq(xs, q):
    return xs.get('rx_q%d_packets' % q, 0)


def last_xstats(c, out):
    blocks = parse_xstats(out)
    c.check('an xstats block', len(blocks) >= 1, 'got %d' % len(blocks))
    return blocks[-1][1] if blocks else {}


def sc_queue_count(c, run):
    """A matched UDP/IPv4 flow lands on queue 2 and is counted."""
    out = run(['flow create 0 ingress pattern eth / ipv4 dst is %s / udp / end '
               'actions count / queue index 2 / end' % TX_DST] + SEND +
              ['flow query 0 0 count', 'flow destroy 0 rule 0'], ['--rxq=4', '--txq=4'])
    c.check('flow created', 'Flow rule #0 created' in out)
    xs = last_xstats(c, out)
    tx = xs.get('tx_good_packets', 0)
    c.check('packets sent', tx > 0, 'tx=%d' % tx)
    c.check('all on rx_q2', rxq(xs, 2) == tx, 'rx_q2=%d tx=%d' % (rxq(xs, 2), tx))
    c.check('nothing elsewhere', rxq(xs, 0) + rxq(xs, 1) + rxq(xs, 3) == 0)
    c.check('COUNT hits == tx', 'hits: %d' % tx in out)
    c.check('flow destroyed', 'Flow rule #0 destroyed' in out)


def sc_drop(c, run):
    """A DROP rule above the default rule: nothing is received."""
    out = run(['flow create 0 ingress pattern eth / ipv4 / udp dst is 9 / end '
               'actions drop / end'] + SEND, ['--rxq=2', '--txq=2'])
    xs = last_xstats(c, out)
    c.check('packets sent', xs.get('tx_good_packets', 0) > 0)
    c.check('nothing received', xs.get('rx_good_packets', -1) == 0,
            'rx=%s' % xs.get('rx_good_packets'))


def sc_default_rss(c, run):
    """No rule: the default rule spreads multi-flow traffic over the 4 queues."""
    out = run(SEND, ['--rxq=4', '--txq=4', '--txonly-multi-flow'])
    xs = last_xstats(c, out)
    tx = xs.get('tx_good_packets', 0)
    used = [q for q in range(4) if rxq(xs, q) > 0]
    c.check('all delivered', sum(rxq(xs, q) for q in range(4)) == tx)
    c.check('spread over >= 2 queues', len(used) >= 2, 'used %s' % used)


def sc_rss_action(c, run):
    """RSS action on IPv4/UDP ports over queues 1..3 (never 0)."""
    out = run(['flow create 0 ingress pattern eth / ipv4 / udp / end actions rss queues 1 2 3 '
               'end types ipv4-udp end / end'] + SEND,
              ['--rxq=4', '--txq=4', '--txonly-multi-flow'])
    xs = last_xstats(c, out)
    tx = xs.get('tx_good_packets', 0)
    c.check('all on queues 1..3', rxq(xs, 1) + rxq(xs, 2) + rxq(xs, 3) == tx)
    c.check('queue 0 empty', rxq(xs, 0) == 0)
    c.check('spread', len([q for q in (1, 2, 3) if rxq(xs, q) > 0]) >= 2)


def sc_isolate(c, run):
    """Isolated: nothing without rules; a rule brings its traffic only."""
    out = run(SEND + ['flow create 0 ingress pattern eth / ipv4 / udp / end '
                      'actions queue index 1 / end'] + SEND,
              ['--rxq=2', '--txq=2', '--flow-isolate-all'])
    blocks = parse_xstats(out)
    c.check('two xstats blocks', len(blocks) == 2)
    if len(blocks) == 2:
        first, second = blocks[0][1], blocks[1][1]
        c.check('isolated: nothing received', first.get('rx_good_packets', -1) == 0)
        c.check('then all on rx_q1', rxq(second, 1) == second.get('tx_good_packets', -1) -
                first.get('tx_good_packets', 0))


def sc_jump_mark(c, run):
    """Group 0 jumps to group 1, which marks and queues: MARK id seen by the Rx path."""
    out = run(['flow create 0 ingress group 0 pattern eth / end actions jump group 1 / end',
               'flow create 0 ingress group 1 pattern eth / ipv4 / udp / end '
               'actions mark id 7 / queue index 1 / end', 'set verbose 1'] + SEND,
              # Two Tx queues: testpmd then polls every Rx queue (with one it polls only q0).
              ['--rxq=2', '--txq=2'])
    xs = last_xstats(c, out)
    c.check('all on rx_q1', rxq(xs, 1) == xs.get('tx_good_packets', -1))
    c.check('FDIR id 0x7 reported', 'FDIR matched ID=0x7' in out)


def sc_egress_modify(c, run):
    """Egress SET_IPV4_DST, then an ingress rule on the new address."""
    out = run(['flow create 0 egress pattern eth / ipv4 / udp / end '
               'actions set_ipv4_dst ipv4_addr 198.18.5.5 / end',
               'flow create 0 ingress pattern eth / ipv4 dst is 198.18.5.5 / end '
               'actions queue index 3 / end'] + SEND, ['--rxq=4', '--txq=4'])
    xs = last_xstats(c, out)
    c.check('rewritten packets on rx_q3', rxq(xs, 3) == xs.get('tx_good_packets', -1))


def sc_errors(c, run):
    """Refused rules: testpmd prints the PMD's message."""
    out = run(['flow validate 0 transfer pattern eth / end actions drop / end',
               'flow validate 0 ingress pattern eth / ipv4 / udp / vxlan / mpls label is 5 / '
               'end actions drop / end',
               'flow validate 0 ingress pattern eth / end actions queue index 9 / end',
               'flow validate 0 egress pattern eth / end actions queue index 0 / end',
               'flow validate 0 ingress pattern eth / ipv4 / udp / end actions '
               'set_ipv4_src ipv4_addr 1.1.1.1 / drop / end'], ['--rxq=2'])
    for msg in ('transfer (FDB) rules need an E-Switch: a port of a vdev with representor=vf[...]',
                'MPLS after VXLAN is not supported',
                'QUEUE index is beyond the configured Rx queues',
                'QUEUE is an ingress action',
                'DROP cannot be combined with header changes'):
        c.check('error: %s' % msg, msg in out)


def sc_dump(c, run):
    """dev_dump of both domains in rdma-core's dump format (records 3000+)."""
    fd, path = tempfile.mkstemp(prefix='mlx5dm_dump_', dir=os.getcwd())
    os.close(fd)
    try:
        run(['flow create 0 ingress pattern eth / end actions drop / end',
             'flow dump 0 all %s' % path], ['--rxq=1'])
        with open(path) as f:
            text = f.read()
        c.check('dump has domain records', any(line.startswith('3000,')
                                               for line in text.splitlines()))
    finally:
        os.unlink(path)


def sc_long_chain(c, run):
    """A rule behind thousands of non-matching matchers still steers.

    Each priority (and mask) of a group is a matcher, and a packet that misses
    them walks every one in turn: the issue's 2047 `eth src` rules in front
    (the first count the model used to drop at), then 1000 RSS rules that
    expand into 5000 matchers.
    """
    src = 'eth src is 06:00:00:00:%02x:%02x / end actions '
    fronts = (('2047 queue rules', 2047, src + 'queue index 2 / end'),
              ('1000 RSS rules', 1000, src + 'rss queues 2 3 end types ipv4-udp ipv4-tcp '
               'ipv6-udp ipv6-tcp end / end'))
    for name, n, action in fronts:
        rules = ['flow create 0 ingress priority %d pattern ' % i + action % (i >> 8, i & 0xff)
                 for i in range(n)]
        out = run(rules + ['flow create 0 ingress priority %d pattern eth / ipv4 / udp / end '
                           'actions mark id 5 / queue index 1 / end' % (n + 1),
                           'set verbose 1'] + SEND_ALL, ['--rxq=4', '--txq=4'])
        c.check('%s: all created' % name, 'Flow rule #%d created' % n in out)
        xs = last_xstats(c, out)
        tx = xs.get('tx_good_packets', 0)
        c.check('%s: packets sent' % name, tx > 0)
        c.check('%s: all on rx_q1' % name, rxq(xs, 1) == tx,
                'rx_q1=%d tx=%d' % (rxq(xs, 1), tx))
        c.check('%s: MARK 5 reported' % name, 'FDIR matched ID=0x5' in out)
        # The model's own counters: a NIC (backend=hw, the test double) has none.
        if test_backend.backend() == 'hw':
            continue
        for drops in ('dev_walk_error_drops', 'dev_loop_drops'):
            c.check('%s: %s 0' % (name, drops), xs.get(drops, -1) == 0,
                    '%s=%s' % (drops, xs.get(drops)))


SCENARIOS = {
    'queue_count': sc_queue_count,
    'drop': sc_drop,
    'default_rss': sc_default_rss,
    'rss_action': sc_rss_action,
    'isolate': sc_isolate,
    'jump_mark': sc_jump_mark,
    'egress_modify': sc_egress_modify,
    'errors': sc_errors,
    'dump': sc_dump,
    'long_chain': sc_long_chain,
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--testpmd', required=True)
    ap.add_argument('--pmd', required=True)
    ap.add_argument('scenario', nargs='*', help='default: all of %s' % ', '.join(SCENARIOS))
    a = ap.parse_args()
    unknown = [s for s in a.scenario if s not in SCENARIOS]
    if unknown:
        ap.error('unknown scenario(s): %s' % ', '.join(unknown))
    c = Checker('testpmd_flow')
    outputs = []

    def run(cmds, app_args):
        rc, out = run_testpmd(a.testpmd, a.pmd, 'net_mlx5dm0', cmds + ['quit'],
                              app_args=['--port-topology=loop', '--burst=32'] + app_args)
        c.check('testpmd exited with status 0', rc == 0, 'status %d' % rc)
        outputs.append(out)
        return out

    for name in a.scenario or sorted(SCENARIOS):
        print('== %s' % name)
        SCENARIOS[name](c, run)
    c.done('\n'.join(outputs))


if __name__ == '__main__':
    main()
