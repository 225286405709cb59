#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5dm authors
"""The testpmd sessions of doc/guides/nics/mlx5dm.rst ("Usage with testpmd"), run as written.

Each `.. code-block:: console` block there is a dpdk-testpmd command line followed by
`testpmd>` commands. This runs each block (the PMD path replaced by the built one, plus a
file prefix and the command file) and checks that every flow command in it succeeds and
that the session shows what the text around it says:
  1. txonly loopback: every packet sent is received;
  2. flow rules on txonly traffic: all of it on Rx queue 2 with mark 7, counted by rule 0,
     and a dump written;
  3. net_pcap in and out: out.pcap holds the packets of in.pcap with the rewrite applied.
"""

import argparse
import os
import re
import shlex
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from testpmd_harness import Checker, parse_xstats, pmd_load_args, run_commands  # noqa: E402
import test_backend  # noqa: E402
from testpmd_pcap import read_pcap, write_pcap  # noqa: E402

DOC = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', 'doc',
                   'guides', 'nics', 'mlx5dm.rst')
DOC_PMD = 'build/drivers/net/mlx5dm/librte_net_mlx5dm.so'


def console_blocks(text):
    """[(command line, [testpmd commands])] of the console code blocks."""
    lines = text.splitlines()
    blocks = []
    i = 0
    while i < len(lines):
        if lines[i].strip() != '.. code-block:: console':
            i += 1
            continue
        body = []
        i += 1
        while i < len(lines) and (not lines[i].strip() or lines[i].startswith('   ')):
            body.append(lines[i][3:])
            i += 1
        cmdline, cmds = '', []
        for line in body:
            if not line.strip():
                continue
            if line.startswith('testpmd> '):
                cmds.append(line[len('testpmd> '):].strip())
            elif cmds:
                cmds[-1] += ' ' + line.strip()      # a command wrapped onto more lines
            else:
                cmdline += ' ' + line.strip().rstrip('\\')
        blocks.append((cmdline.strip(), cmds))
    return blocks


def run_block(testpmd, cmdline, cmds, pmd, cwd):
    env = dict(os.environ)
    argv = shlex.split(cmdline)
    argv[0] = testpmd
    k = argv.index('-d')
    del argv[k:k + 2]
    sep = argv.index('--')
    # The guide's ports, on the run's backend (test_backend.py).
    vdevs = [argv[i + 1] for i in range(1, sep - 1) if argv[i] == '--vdev']
    ports = test_backend.ports(vdevs)
    env.update(ports.env)
    for i in range(1, sep - 1):
        if argv[i] == '--vdev':
            argv[i + 1] = ports.vdevs.pop(0)
    argv[sep:sep] = ['--vdev=' + v for v in ports.vdevs]
    sep = argv.index('--')
    eal = pmd_load_args(pmd, env) + ['--file-prefix=mlx5dm_doc_%d' % os.getpid(),
                                     '--no-shconf', '--log-level=lib.eal:error']
    # As a person at the prompt would, give the device time between start and stop.
    timed = []
    for cmd in cmds + ['quit']:
        timed.append(cmd)
        if cmd.startswith('start'):
            timed.append('sleep 1')
    if len(timed) > len(cmds) + 1:
        pmd_load_args(pmd, env, line_buffered=True)
    return run_commands(argv[:sep] + eal + argv[sep:], timed, env, cwd=cwd)


def check_flows(c, tag, cmds, out):
    creates = [x for x in cmds if x.startswith('flow create')]
    created = re.findall(r'^Flow rule #\d+ created', out, re.M)
    c.check('%s: %d flow rules created' % (tag, len(creates)), len(created) == len(creates),
            'created %d' % len(created))
    c.check('%s: no flow error' % tag, 'Caught PMD error' not in out)
    c.check('%s: testpmd said Bye' % tag, 'Bye...' in out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--testpmd', required=True)
    ap.add_argument('--pmd', required=True)
    a = ap.parse_args()
    from scapy.all import IP, UDP, Ether
    c = Checker('testpmd_doc')
    with open(DOC) as f:
        blocks = console_blocks(f.read())
    c.check('three testpmd sessions in the guide', len(blocks) == 3, 'found %d' % len(blocks))
    outputs = []
    pmd = os.path.abspath(a.pmd)
    for n, (cmdline, cmds) in enumerate(blocks[:3], start=1):
        tag = 'session %d' % n
        c.check('%s: the command line loads %s' % (tag, DOC_PMD),
                cmdline.startswith('dpdk-testpmd ') and ('-d ' + DOC_PMD) in cmdline)
        with tempfile.TemporaryDirectory(prefix='mlx5dm_doc_') as d:
            sent = [bytes(Ether(dst='00:11:22:33:44:55') / IP(src='10.0.0.1',
                                                               dst='10.0.0.%d' % (i + 2),
                                                               ttl=64) / UDP(sport=1, dport=2))
                    for i in range(4)]
            write_pcap(os.path.join(d, 'in.pcap'), sent)
            rc, out = run_block(a.testpmd, cmdline, cmds, pmd, d)
            outputs.append(out)
            c.check('%s: testpmd exited with status 0' % tag, rc == 0, 'status %d' % rc)
            check_flows(c, tag, cmds, out)
            xs = [x for _, x in parse_xstats(out)]
            if n == 1:
                # io forwarding sends on what it receives; at the stop the device may still
                # hold some of the 32 frames tx_first injected.
                rx = xs[-1].get('rx_good_packets', -1) if xs else -1
                tx = xs[-1].get('tx_good_packets', -1) if xs else -1
                c.check('%s: sent packets received' % tag, rx > 0 and 0 <= tx - rx <= 32,
                        'rx=%d tx=%d' % (rx, tx))
            elif n == 2:
                tx = xs[-1].get('tx_good_packets', -1) if xs else -1
                c.check('%s: all on rx_q2' % tag, tx > 0 and xs[-1].get('rx_q2_packets') == tx)
                c.check('%s: mark 7 reported' % tag, 'FDIR matched ID=0x7' in out)
                c.check('%s: rule 0 counted them' % tag, ' hits: %d' % tx in out)
                dump = os.path.join(d, 'mlx5dm_dump.csv')
                # The PMD's records (44xx) first, then the domains.
                c.check('%s: dump written' % tag, os.path.exists(dump) and
                        re.match(r'(44[0-9][0-9],[^\n]*\n)*3000,', open(dump).read()) is not None)
            elif n == 3:
                path = os.path.join(d, 'out.pcap')
                got = read_pcap(path) if os.path.exists(path) else []
                want = []
                for raw in sent:
                    p = Ether(raw)
                    p[IP].dst = '10.9.9.9'
                    p[IP].ttl = 63
                    del p[IP].chksum
                    del p[UDP].chksum
                    want.append(bytes(p))
                c.check('%s: out.pcap holds the rewritten packets' % tag, got == want,
                        'got %d frames' % len(got))
    c.done('\n'.join(outputs))


if __name__ == '__main__':
    main()
