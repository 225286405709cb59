#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5dm authors
"""Run the stock dpdk-test-flow-perf on net_mlx5dm to completion.

One scenario per call: it must insert and delete every rule (flow-perf exits
on the first rule the driver refuses) and report both phases for the rule
count asked. Timing is printed, never asserted (benchmarks are
devtools/bench-flow-perf.sh).
"""

import argparse
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'testpmd'))
from testpmd_harness import pmd_load_args  # noqa: E402

SCENARIOS = {
    'group0': [],
    'group1': ['--group=1'],
    'count': ['--count'],
    'mark': ['--mark'],
    'count_mark_group1': ['--count', '--mark', '--group=1'],
    'null_engine': [],
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--flow-perf', required=True)
    ap.add_argument('--pmd', required=True)
    ap.add_argument('--scenario', required=True, choices=sorted(SCENARIOS))
    ap.add_argument('--rules', type=int, default=20000)
    args = ap.parse_args()

    env = dict(os.environ)
    vdev = 'net_mlx5dm0'
    if args.scenario == 'null_engine':
        vdev += ',flow_engine=null'
    batch = args.rules // 2
    cmd = [
        args.flow_perf, '--no-huge', '--no-pci', '--no-shconf', '-m', '256', '-l', '0-1',
        '--log-level=lib.eal:error', '--vdev', vdev,
    ] + pmd_load_args(args.pmd, env) + [
        '--', '--ingress', '--ipv4', '--queue', '--rules-count=%d' % args.rules,
        '--rules-batch=%d' % batch, '--deletion-rate', '--total-mbuf-count=4096',
    ] + SCENARIOS[args.scenario]
    print('$ ' + ' '.join(cmd), flush=True)
    p = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, env=env, timeout=300, check=False)
    out = p.stdout.decode(errors='replace')
    checks = [
        ('exit status 0', p.returncode == 0),
        ('rules per port', re.search(r'Rules Count per port: %d\b' % args.rules, out)),
        ('insertion of every rule',
         re.search(r'Core 0 :: The time for creating %d in rules' % args.rules, out)),
        # With --group=N flow-perf also deletes the group 0 rule jumping to group N.
        ('deletion of every rule',
         re.search(r'Core 0 :: The time for deleting (%d|%d) rules' %
                   (args.rules, args.rules + 1), out)),
        ('insertion rate', re.search(r'Core 0 :: Rules insertion rate -> [0-9.]+ K', out)),
        ('deletion rate', re.search(r'Core 0 :: Rules deletion rate -> [0-9.]+ K', out)),
        ('no refused rule', 'Error in creating flow' not in out and
         'Error in deleting flow' not in out),
    ]
    failed = [name for name, ok in checks if not ok]
    for line in out.splitlines():
        if 'Core 0 :: Rules' in line or 'rte_flow size' in line or failed:
            print(line)
    for name, ok in checks:
        print('%s: %s' % ('ok' if ok else 'FAILED', name))
    print('%d passed, %d failed' % (len(checks) - len(failed), len(failed)))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
