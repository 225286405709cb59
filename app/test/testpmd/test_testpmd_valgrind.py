# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5dm authors
"""Stock dpdk-testpmd with net_mlx5dm under valgrind memcheck.

Runs traffic, reconfigures the port, closes it and quits; fails on any
memcheck error or definite leak whose stack passes through net_mlx5dm. The
steering library and the device model allocate with malloc, so every rule,
table, RQ and ICM arena they leak is visible here.
"""

import argparse
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from testpmd_harness import Checker, run_testpmd  # noqa: E402


def ours(block):
    return 'mlx5dm' in block


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--testpmd', required=True)
    ap.add_argument('--pmd', required=True)
    ap.add_argument('--valgrind', default='valgrind')
    a = ap.parse_args()

    cmds = [
        'set fwd io',
        'start tx_first',
        'stop',
        'port stop 0',
        'port config all rxq 2',
        'port config all txq 2',
        'port start 0',
        'start tx_first',
        'stop',
        'port stop 0',
        'port close 0',
        'quit',
    ]
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, 'vg.log')
        # Fair scheduling: the model's device thread must not starve behind
        # a thread polling for its completions (valgrind runs one at a time).
        wrapper = [a.valgrind, '--error-exitcode=0', '--leak-check=full', '--fair-sched=try',
                   '--show-leak-kinds=definite', '--num-callers=40',
                   '--log-file=' + log]
        rc, out = run_testpmd(a.testpmd, a.pmd, 'net_mlx5dm0', cmds,
                              app_args=['--port-topology=loop'], wrapper=wrapper,
                              timeout=600)
        with open(log, errors='replace') as f:
            vg = f.read()
    c = Checker('testpmd_valgrind')
    c.check('testpmd exited with status 0', rc == 0, 'status %d' % rc)
    c.check('valgrind ran to the end', 'ERROR SUMMARY' in vg)
    # valgrind blocks are separated by lines holding only the pid prefix.
    blocks = re.split(r'\n==\d+== \n', vg)
    errors = [b for b in blocks if re.search(r'Invalid (read|write)|uninitialised|'
                                             r'Invalid free|Mismatched free', b)]
    leaks = [b for b in blocks if 'definitely lost in loss record' in b]
    c.check('no memcheck error inside net_mlx5dm', not any(ours(b) for b in errors),
            '\n'.join(b for b in errors if ours(b)))
    c.check('no definite leak from net_mlx5dm', not any(ours(b) for b in leaks),
            '\n'.join(b for b in leaks if ours(b)))
    c.check('port close ran', 'Port 0 is closed' in out)
    c.check('the port forwarded traffic', re.search(r'RX-packets: [1-9]', out) is not None)
    c.done(out if c.failed else None)


if __name__ == '__main__':
    main()
