#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5dm authors
"""The guide's list of built-in suites against the suites themselves.

    check_suite_doc.py GUIDE SUITES_DIR

Every suite directory must be in the guide's table as ``name`` (N) with N
its number of .case files, no suite the table names may be missing, and
the status line's "All N cases of the M built-in suites" must add up.
Prints each difference; exits 1 when there is one.
"""

import os
import re
import sys


def main():
    guide, suites_dir = sys.argv[1], sys.argv[2]
    with open(guide, encoding='utf-8') as f:
        text = f.read()
    listed = {m.group(1): int(m.group(2))
              for m in re.finditer(r'^``([a-z_]+)`` \((\d+)\)', text, re.M)}
    actual = {}
    for name in sorted(os.listdir(suites_dir)):
        path = os.path.join(suites_dir, name)
        if os.path.isdir(path):
            actual[name] = len([f for f in os.listdir(path) if f.endswith('.case')])
    problems = []
    for name, n in actual.items():
        if name not in listed:
            problems.append('suite %s (%d cases) is not in the guide' % (name, n))
        elif listed[name] != n:
            problems.append('suite %s: the guide says %d cases, it has %d' %
                            (name, listed[name], n))
    for name in listed:
        if name not in actual:
            problems.append('the guide lists suite %s, which does not exist' % name)
    m = re.search(r'All (\d+) cases of the (\d+) built-in suites', text)
    total = sum(actual.values())
    if m is None:
        problems.append('no "All N cases of the M built-in suites" in the guide')
    elif (int(m.group(1)), int(m.group(2))) != (total, len(actual)):
        problems.append('the guide says %s cases of %s suites, there are %d of %d' %
                        (m.group(1), m.group(2), total, len(actual)))
    for p in problems:
        print(p)
    if not problems:
        print('%d suites, %d cases, as the guide says' % (len(actual), total))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
