#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5dm authors
"""Run a command that must fail, and check how it fails.

    expect_fail.py [--exit N] [--failed N] [--expect REGEX]... [--reject REGEX]...
                   -- COMMAND [ARG]...

Passes when COMMAND exits with status N (default: any non-zero), its last
output line is "P passed, F failed" with F == --failed (when given), every
--expect regular expression matches some line of its output (stdout and
stderr) and no --reject one does. Prints the output when it does not pass.
"""

import argparse
import re
import subprocess
import sys


def main():
    argv = sys.argv[1:]
    if '--' not in argv:
        print('expect_fail.py: missing -- COMMAND', file=sys.stderr)
        return 2
    cut = argv.index('--')
    ap = argparse.ArgumentParser()
    ap.add_argument('--exit', type=int, default=None)
    ap.add_argument('--failed', type=int, default=None)
    ap.add_argument('--expect', action='append', default=[])
    ap.add_argument('--reject', action='append', default=[])
    opts = ap.parse_args(argv[:cut])
    cmd = argv[cut + 1:]
    res = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         universal_newlines=True, check=False)
    out = res.stdout
    lines = [l for l in out.splitlines() if l.strip()]
    problems = []
    if opts.exit is None and res.returncode == 0:
        problems.append('exit status 0, expected a failure')
    if opts.exit is not None and res.returncode != opts.exit:
        problems.append('exit status %d, expected %d' % (res.returncode, opts.exit))
    if opts.failed is not None:
        m = re.fullmatch(r'(\d+) passed, (\d+) failed', lines[-1] if lines else '')
        if m is None or int(m.group(2)) != opts.failed:
            problems.append('last line %r, expected "... passed, %d failed"' %
                            (lines[-1] if lines else '', opts.failed))
    for rx in opts.expect:
        if not any(re.search(rx, l) for l in lines):
            problems.append('no line matches %r' % rx)
    for rx in opts.reject:
        bad = [l for l in lines if re.search(rx, l)]
        if bad:
            problems.append('line %r matches %r' % (bad[0], rx))
    if problems:
        print(out)
        print('\n'.join('expect_fail: ' + p for p in problems))
        return 1
    print('failed as expected (exit status %d): %s' % (res.returncode,
                                                        lines[-1] if lines else ''))
    return 0


if __name__ == '__main__':
    sys.exit(main())
