#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5dm authors
"""The E-Switch through the stock testpmd: transfer rules between the uplink and the VFs.

testpmd runs with --vdev net_mlx5dm0,representor=vf[0-1],vf_ports=1: port 0 is the
manager (the uplink's representor, its wire looped), 1 and 2 the representors of VF0
and VF1, 3 and 4 the VF functions (the VMs). Every port sends one burst (tx_first) and
receives in rxonly mode. Without rules a VF's frames reach its representor, the wire's
the manager and a representor's its VF; with the rules below they go where the rules say, and `flow query`
counts them:
  VF0 -> VF1 (rule on representor 1);
  the uplink -> VF0 (what port 0 sends leaves by the wire and comes back);
  VF1 -> the uplink (then back from the wire to VF0).
A port_representor item naming representor 1 takes what it sends (its send queues) to
VF1. Bad transfer rules are refused with a message naming the item or action. Rules on a
representor without transfer are NIC rules of that port: they see its VF's missed frames.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from testpmd_harness import Checker, parse_xstats, run_testpmd  # noqa: E402

VDEV = 'net_mlx5dm0,representor=vf[0-1],vf_ports=1'
BURST = 32
NAMES = ['net_mlx5dm0', 'net_mlx5dm0_representor_vf0', 'net_mlx5dm0_representor_vf1',
         'net_mlx5dm0_vf0', 'net_mlx5dm0_vf1']


CHECK_DUMP = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'steer',
                          'check_dump_format.py')


def session(testpmd, pmd, rules, dump=None):
    """tx_first on every port with the rules; the rx of each port and the counters."""
    cmds = ['set fwd rxonly'] + ['flow create %s' % r for r in rules] + [
        'start tx_first', 'sleep 0.5', 'stop', 'show port xstats all']
    if dump is not None:
        cmds.append('flow dump 0 all %s' % dump)
    cmds += ['flow query %d %d count' % (p, i) for p, i in counted(rules)]
    cmds += ['show port info 1', 'quit']
    rc, out = run_testpmd(testpmd, pmd, VDEV, cmds, app_args=['--port-topology=loop'])
    rx = {port: xs.get('rx_good_packets') for port, xs in parse_xstats(out)}
    hits = [int(h) for h in re.findall(r'^\s*hits: (\d+)', out, re.M)]
    return rc, out, rx, hits


def counted(rules):
    """(port, rule id) of the rules with a COUNT action, ids per port as testpmd gives."""
    ids, res = {}, []
    for r in rules:
        port = int(r.split()[0])
        ids[port] = ids.get(port, -1) + 1
        if ' count /' in r:
            res.append((port, ids[port]))
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--testpmd', required=True)
    ap.add_argument('--pmd', required=True)
    a = ap.parse_args()
    c = Checker('testpmd_esw')

    # Misses: a VF's burst to its representor, the manager's leaves by the wire and comes
    # back from the uplink to the manager; a representor's burst goes to its VF.
    rc, out, rx, hits = session(a.testpmd, a.pmd, [])
    c.check('misses: testpmd exited with status 0', rc == 0, 'status %d' % rc)
    for i, name in enumerate(NAMES):
        c.check('port %d is %s' % (i, name), re.search(r'^%d\s+\S+\s+%s\s' % (i, name), out,
                                                       re.M) is not None)
    want = {0: BURST, 1: BURST, 2: BURST, 3: BURST, 4: BURST}
    c.check('misses: rx per port %s' % want, rx == want, 'got %s' % rx)
    c.check('representor switch info', 'Switch domain Id: 0' in out and
            'Switch Port Id: 0' in out, '')

    rules = [
        '1 transfer pattern represented_port ethdev_port_id is 1 / end '
        'actions count / represented_port ethdev_port_id 2 / end',
        '0 transfer pattern represented_port ethdev_port_id is 0 / end '
        'actions count / represented_port ethdev_port_id 1 / end',
        '0 transfer pattern represented_port ethdev_port_id is 2 / eth / end '
        'actions count / port_id id 0 / end',
        # Refused: a port outside the switch domain, an action the FDB does not take here.
        '0 transfer pattern represented_port ethdev_port_id is 3 / end actions drop / end',
        '0 transfer pattern eth / end actions mark id 1 / represented_port ethdev_port_id 0 '
        '/ end',
    ]
    with tempfile.TemporaryDirectory() as tmp:
        dump = os.path.join(tmp, 'esw.csv')
        rc, out, rx, hits = session(a.testpmd, a.pmd, rules, dump)
        # The manager's dump: its NIC domains, then the FDB, in rdma-core's format.
        chk = subprocess.run([sys.executable, CHECK_DUMP, dump], stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, universal_newlines=True)
        c.check('FDB dump in rdma-core format', chk.returncode == 0 and
                re.search(r'\b3000:3\b', chk.stdout) is not None, chk.stdout[-500:])
    c.check('rules: testpmd exited with status 0', rc == 0, 'status %d' % rc)
    c.check('three rules created', len(re.findall(r'Flow rule #\d+ created', out)) == 3)
    c.check('a port of no switch domain refused',
            "REPRESENTED_PORT: the port is not in this port's switch domain" in out)
    c.check('MARK refused', 'MARK: not supported in transfer rules' in out)
    # VF0 -> VF1; the uplink (bursts of port 0 and VF1's through the wire) -> VF0; the
    # representors' bursts to their VFs.
    want = {0: 0, 1: 0, 2: 0, 3: 3 * BURST, 4: 2 * BURST}
    c.check('rules: rx per port %s' % want, rx == want, 'got %s' % rx)
    c.check('counters VF0->VF1, uplink->VF0, VF1->uplink', hits == [BURST, 2 * BURST, BURST],
            'got %s' % hits)

    # PORT_REPRESENTOR of representor 1: what it sends (its send queues) goes to VF1, not
    # VF0; the other ports' bursts take their default paths.
    rules = ['0 transfer pattern port_representor port_id is 1 / end '
             'actions count / represented_port ethdev_port_id 2 / end']
    rc, out, rx, hits = session(a.testpmd, a.pmd, rules)
    c.check('port_representor: testpmd exited with status 0', rc == 0, 'status %d' % rc)
    want = {0: BURST, 1: BURST, 2: BURST, 3: 0, 4: 2 * BURST}
    c.check('port_representor: rx per port %s' % want, rx == want, 'got %s' % rx)
    c.check('port_representor: counter', hits == [BURST], 'got %s' % hits)

    # Rules of the representors without transfer: NIC rules on their VF's missed frames.
    rules = ['1 ingress pattern eth / end actions count / drop / end',
             '2 ingress pattern eth / end actions count / queue index 0 / end']
    rc, out, rx, hits = session(a.testpmd, a.pmd, rules)
    c.check('representor rules: testpmd exited with status 0', rc == 0, 'status %d' % rc)
    want = {0: BURST, 1: 0, 2: BURST, 3: BURST, 4: BURST}
    c.check('representor rules: rx per port %s' % want, rx == want, 'got %s' % rx)
    c.check('representor rules: counters', hits == [BURST, BURST], 'got %s' % hits)
    c.done(out)


if __name__ == '__main__':
    main()
