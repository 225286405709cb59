#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5dm authors
"""dpdk-test-dm's reports and evidence, checked from the outside.

    check_reports.py TEST_DM PASSING.case WRONG.case BROKEN.case -- [EAL ARGS]

Runs the three cases on the reference classifier with --json, --tap and
--out-dir (a directory that does not exist yet), and checks: exit status 1;
the JSON document (counts, one entry per case with its verdict, first
failure and evidence); the TAP stream; the pcap files and the steering dump
the failing case left, in the --out-dir; the summary table and the last
line.
"""

import json
import os
import subprocess
import sys
import tempfile


def check(cond, what, problems):
    if not cond:
        problems.append(what)


def main():
    test_dm, good, wrong, broken = sys.argv[1:5]
    eal = sys.argv[6:] if len(sys.argv) > 5 and sys.argv[5] == '--' else []
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        js, tap = os.path.join(tmp, 'r.json'), os.path.join(tmp, 'r.tap')
        # --out-dir makes the directory and its parents, as mkdir -p does.
        out_dir = os.path.join(tmp, 'evidence', 'run1')
        cmd = [test_dm] + eal + ['--', '--check', '--out-dir', out_dir, '--json', js,
                                 '--tap', tap, '--case', good, '--case', wrong, broken]
        res = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             universal_newlines=True, check=False)
        out = res.stdout
        lines = [l for l in out.splitlines() if l.strip()]
        check(res.returncode == 1, 'exit status %d, expected 1' % res.returncode, problems)
        check(lines and lines[-1] == '1 passed, 2 failed', 'last line %r' %
              (lines[-1] if lines else ''), problems)
        check(any(l.startswith('total ') for l in lines), 'no summary table', problems)
        doc = json.load(open(js))
        check(doc['passed'] == 1 and doc['failed'] == 2 and doc['skipped'] == 0,
              'JSON counts %r' % [doc['passed'], doc['failed'], doc['skipped']], problems)
        check(doc['runner'] == 'reference', 'JSON runner %r' % doc['runner'], problems)
        cases = doc['cases']
        check([c['result'] for c in cases] == ['pass', 'fail', 'error'],
              'JSON results %r' % [c['result'] for c in cases], problems)
        bad = cases[1]
        check(bad['failed_checks'] == 1 and bad['packets'] == 1,
              'JSON failing case %r' % bad, problems)
        check('expected port 0 queue 1, got port 0 queue 2' in bad['reason'],
              'JSON reason %r' % bad['reason'], problems)
        check('unknown field' in cases[2]['reason'], 'JSON parse error %r' % cases[2],
              problems)
        evidence = bad['artifacts'].split('; ')
        check(len(evidence) == 3, 'evidence %r' % evidence, problems)
        for path in evidence:
            check(os.path.exists(path), 'missing %s' % path, problems)
            check(os.path.dirname(path) == out_dir, '%s not in --out-dir' % path, problems)
            if path.endswith('.pcap') and os.path.exists(path):
                magic = open(path, 'rb').read(4)
                check(magic in (b'\xd4\xc3\xb2\xa1', b'\xa1\xb2\xc3\xd4'),
                      '%s is not a pcap file' % path, problems)
            if path.endswith('-dump.txt') and os.path.exists(path):
                dump = open(path).read()
                check('# port 0 on reference' in dump and 'rule 0: ingress' in dump,
                      'dump %r' % dump, problems)
        t = open(tap).read().splitlines()
        check(t[:2] == ['TAP version 13', '1..3'], 'TAP header %r' % t[:2], problems)
        check(t[2].startswith('ok 1 - cases/'), 'TAP line %r' % t[2], problems)
        check(sum(l.startswith('not ok ') for l in t) == 2, 'TAP not ok count', problems)
    if problems:
        print(out)
        print('\n'.join('check_reports: ' + p for p in problems))
        return 1
    print('reports, evidence and exit status as expected')
    return 0


if __name__ == '__main__':
    sys.exit(main())
