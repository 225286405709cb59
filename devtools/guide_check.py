# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5dm authors
"""What the checkers of the NIC guide share (check-devargs-doc.py,
check-guide.py): the guide's path, their command line and the tally of
their self-tests.
"""

import os
import sys

GUIDE = os.path.join('doc', 'guides', 'nics', 'mlx5dm.rst')


def read_guide(root):
    with open(os.path.join(root, GUIDE), encoding='utf-8') as f:
        return f.read()


def run(name, check, selftest):
    """`checker [--selftest] [ROOT]`: selftest(ROOT), or the problems of check(ROOT)
    printed with a summary line. Returns the exit status."""
    argv = sys.argv[1:]
    args = [a for a in argv if a != '--selftest']
    root = args[0] if args else '.'
    if '--selftest' in argv:
        return selftest(root)
    bad = check(root)
    for line in bad:
        print(line)
    print('%s: %d passed, %d failed' % (name, 0 if bad else 1, 1 if bad else 0))
    return 1 if bad else 0


def tally(name, check, text, broken, more=None):
    """Self-test: check(t) must find problems in every guide t of broken
    ({what: t}) and none in text; more: {what: True when it failed} of
    further self-test steps. Prints the misses and a summary line; returns
    the exit status."""
    failed = ['%s not caught' % what for what, t in broken.items() if not check(t)]
    if check(text):
        failed.append('the guide itself fails the check')
    failed += [what for what, bad in (more or {}).items() if bad]
    for what in failed:
        print('selftest: %s' % what)
    total = len(broken) + 1 + len(more or {})
    print('%s selftest: %d passed, %d failed' % (name, total - len(failed), len(failed)))
    return 1 if failed else 0
