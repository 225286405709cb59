#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5dm authors
"""The PMD's telemetry endpoints (/mlx5dm/...) as dpdk-telemetry.py shows them.

The stock testpmd runs a net_mlx5dm port; rules are created and flushed in
steps, and after each step dpdk-telemetry.py (Debian's, from dpdk-dev) asks
the running process. The numbers must be what the step did: flows and rules
count what was created, per domain and per group, ICM in use grows and goes
back to what it was after the flush, the rule queue took the WQEs, counters
are in use while counting rules live.
"""

import argparse
import json
import os
import subprocess
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import testpmd_harness as h  # noqa: E402


class Testpmd:
    """An interactive testpmd fed step by step: each step returns once it was executed."""

    def __init__(self, argv, env):
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, env=env, universal_newlines=True,
                                  errors='replace')
        self.out = []
        self.marks = 0
        self.cond = threading.Condition()
        self.t = threading.Thread(target=self.reader, daemon=True)
        self.t.start()

    def reader(self):
        for line in self.p.stdout:
            with self.cond:
                self.out.append(line)
                if h.MARK_LINE in line:
                    self.marks += 1
                    self.cond.notify_all()
        with self.cond:
            self.marks = float('inf')
            self.cond.notify_all()

    def step(self, commands, timeout=120):
        with self.cond:
            want = self.marks + 1
        self.p.stdin.write(''.join(c + '\n' for c in commands + [h.MARK_CMD]))
        self.p.stdin.flush()
        with self.cond:
            self.cond.wait_for(lambda: self.marks >= want, timeout)
            if self.marks == float('inf') or self.marks < want:
                fail('testpmd did not execute %s' % commands, self.output())

    def output(self):
        with self.cond:
            return ''.join(self.out)

    def quit(self):
        try:
            self.p.stdin.write('quit\n')
            self.p.stdin.close()
        except BrokenPipeError:
            pass
        try:
            self.p.wait(60)
        finally:
            if self.p.poll() is None:
                self.p.kill()
        self.t.join(5)
        return self.p.returncode


def fail(msg, output=''):
    sys.stdout.write(output)
    sys.exit('FAIL: ' + msg)


def telemetry(tool, prefix, commands):
    """Each command's reply, as dpdk-telemetry.py prints it (one JSON line each)."""
    p = subprocess.run([sys.executable, tool, '-f', prefix], input=''.join(
        c + '\n' for c in commands), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        universal_newlines=True, timeout=60)
    replies = [json.loads(line) for line in p.stdout.splitlines() if line.startswith('{')]
    if p.returncode != 0 or len(replies) != len(commands):
        fail('dpdk-telemetry.py %s: %s' % (commands, p.stdout))
    return [r[c.split(',')[0]] for r, c in zip(replies, commands)]


def query(tool, prefix, port):
    names = ['icm', 'rules', 'tables', 'send', 'counters']
    replies = telemetry(tool, prefix, ['/mlx5dm/%s,%d' % (n, port) for n in names])
    return dict(zip(names, replies))


def expect(cond, msg, facts):
    if not cond:
        fail(msg + '\n' + json.dumps(facts, indent=1) + '\n')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--testpmd', required=True)
    ap.add_argument('--pmd', required=True)
    ap.add_argument('--telemetry', required=True, help="DPDK's dpdk-telemetry.py")
    args = ap.parse_args()

    env = dict(os.environ)
    eal = h.pmd_load_args(args.pmd, env, line_buffered=True)
    prefix = 'mlx5dm_tel_%d' % os.getpid()
    # Telemetry needs the runtime directory (no --no-shconf).
    argv = [args.testpmd, '--no-huge', '--no-pci', '-m', '256', '-l', '0-1',
            '--file-prefix=' + prefix, '--log-level=lib.eal:error',
            '--vdev', 'net_mlx5dm0'] + eal + [
        '--', '-i', '--no-mlockall', '--total-num-mbufs=8192', '--rxq=2', '--txq=2']
    tp = Testpmd(argv, env)
    try:
        run(args, tp, prefix)
    except BaseException:
        tp.quit()
        sys.stdout.write(tp.output())
        raise
    rc = tp.quit()
    if rc != 0:
        fail('testpmd exited with %s' % rc, tp.output())
    print('telemetry test passed')


N0 = 20      # ingress rules in group 0
N1 = 6       # ingress rules in group 1, counting
NE = 3       # egress rules


def run(args, tp, prefix):
    tp.step([])
    ports = telemetry(args.telemetry, prefix, ['/mlx5dm/ports'])[0]
    if ports != [0]:
        fail('/mlx5dm/ports: %s' % ports, tp.output())
    base = query(args.telemetry, prefix, 0)
    expect(base['rules']['flows'] == 0, 'flows before any rule', base)
    # The default rule (RSS) is the port's own.
    expect(base['rules']['rx']['rules'] > 0, 'the default rule', base)
    expect(base['icm']['steering']['used_bytes'] > 0, 'root tables use ICM', base)

    cmds = ['flow create 0 ingress group 0 pattern eth / ipv4 dst is 10.0.0.%d / end '
            'actions queue index 1 / end' % (i + 1) for i in range(N0)]
    cmds += ['flow create 0 ingress group 1 pattern eth / ipv4 src is 10.1.0.%d / end '
             'actions count / queue index 0 / end' % (i + 1) for i in range(N1)]
    cmds += ['flow create 0 egress pattern eth / ipv4 dst is 10.2.0.%d / end '
             'actions drop / end' % (i + 1) for i in range(NE)]
    tp.step(cmds)
    created = tp.output().count('Flow rule #')
    if created != N0 + N1 + NE:
        fail('testpmd created %d rules' % created, tp.output())
    now = query(args.telemetry, prefix, 0)
    print(json.dumps(now))
    r, b = now['rules'], base['rules']
    expect(r['flows'] == N0 + N1 + NE, 'flows = rules created', now)
    # One implicit template per rule shape (group 0 dst, group 1 src + count, egress dst).
    expect(r['templates'] - b['templates'] == 3, 'templates: one per shape', now)
    # Whole addresses: each template's rules build their tags from the items.
    expect(r['tag_templates'] - b['tag_templates'] == 3, 'tag templates', now)
    expect(r['rx']['rules'] - b['rx']['rules'] == N0 + N1, 'rx rules', now)
    expect(r['tx']['rules'] - b['tx']['rules'] == NE, 'tx rules', now)
    expect(r['rules'] - b['rules'] == N0 + N1 + NE, 'steering rules', now)
    expect(r['rx']['tables'] - b['rx']['tables'] == 1, 'group 1 is a table', now)
    t, tb = now['tables'], base['tables']
    expect(t['rx_group_1']['rules'] == N1, 'group 1 rules', now)
    expect(t['rx_group_0']['rules'] - tb['rx_group_0']['rules'] == N0, 'group 0 rules', now)
    expect(t['tx_group_0']['rules'] - tb['tx_group_0']['rules'] == NE, 'tx group 0 rules', now)
    used = now['icm']['steering']['used_bytes']
    expect(used > base['icm']['steering']['used_bytes'], 'rules use steering ICM', now)
    q, qb = now['send']['queue_0'], base['send']['queue_0']
    expect(q['rules'] - qb['rules'] == N0 + N1 + NE, 'rules through queue 0', now)
    expect(q['wqes'] > qb['wqes'] and q['write_bytes'] > qb['write_bytes'], 'queue 0 WQEs', now)
    expect(q['error'] == 0 and q['err_syndrome'] == 0 and q['size'] > 0, 'queue 0 state', now)
    expect(now['send']['wqes'] >= q['wqes'], 'WQEs of all queues', now)
    c = now['counters']
    expect(c['counters'] == N1 and c['bulks'] >= 1 and c['device_bulks'] >= 1,
           'counters in use', now)

    tp.step(['flow flush 0'])
    after = query(args.telemetry, prefix, 0)
    for k in ('flows', 'templates', 'tag_templates', 'rules', 'matchers', 'tables'):
        expect(after['rules'][k] == base['rules'][k], 'after flush: %s as before' % k, after)
    expect(after['rules']['rx'] == base['rules']['rx'], 'after flush: rx as before', after)
    expect(after['rules']['tx'] == base['rules']['tx'], 'after flush: tx as before', after)
    expect('rx_group_1' not in after['tables'], 'after flush: group 1 gone', after)
    expect(after['icm']['steering']['used_bytes'] == base['icm']['steering']['used_bytes'],
           'after flush: steering ICM in use as before', after)
    expect(after['counters']['counters'] == 0, 'after flush: no counter in use', after)
    expect(after['send']['queue_0']['rules'] == base['send']['queue_0']['rules'],
           'after flush: queue 0 rules as before', after)
    # A port that is not there.
    bad = telemetry(args.telemetry, prefix, ['/mlx5dm/rules,7', '/mlx5dm/icm'])
    if bad != [None, None]:
        fail('a bad port: %s' % bad)


if __name__ == '__main__':
    main()
