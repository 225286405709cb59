# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5dm authors
"""Stock dpdk-testpmd with net_mlx5dm: start tx_first, stop, reconfigure, quit.

Every Tx'd packet must be delivered to Rx queue 0 of the same port (loop
topology), counted at delivery time: rx_good_packets == tx_good_packets and
all of it on rx_q0, for each configuration.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from testpmd_harness import Checker, parse_xstats, run_testpmd  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--testpmd', required=True)
    ap.add_argument('--pmd', required=True)
    a = ap.parse_args()

    cmds = [
        'set fwd io',
        'start tx_first',
        'sleep 0.5',
        'stop',
        'show port xstats 0',
        'port stop 0',
        'port config all rxq 2',
        'port config all txq 2',
        'port start 0',
        'start tx_first 2',
        'sleep 0.5',
        'stop',
        'show port xstats 0',
        'port stop 0',
        'port config all rxq 1',
        'port config all txq 1',
        'port config all rxd 64',
        'port start 0',
        'start tx_first',
        'sleep 0.5',
        'stop',
        'show port xstats 0',
        'show port info 0',
        'quit',
    ]
    rc, out = run_testpmd(a.testpmd, a.pmd, 'net_mlx5dm0', cmds,
                          app_args=['--port-topology=loop', '--burst=32',
                                    '--txonly-multi-flow'])
    c = Checker('testpmd_loopback')
    c.check('testpmd exited with status 0', rc == 0, 'status %d' % rc)
    c.check('driver name reported', 'Driver name: net_mlx5dm' in out)
    blocks = parse_xstats(out)
    c.check('three xstats blocks', len(blocks) == 3, 'got %d' % len(blocks))
    expect_min = [32, 64, 32]  # tx_first bursts: 1, 2, 1 per queue-stream
    injected = [32, 128, 32]   # frames tx_first put in circulation: 1, 2 x 2, 1 bursts
    for i, (port, xs) in enumerate(blocks[:3]):
        tag = 'run %d:' % (i + 1)
        tx = xs.get('tx_good_packets', -1)
        rx = xs.get('rx_good_packets', -2)
        c.check('%s port 0' % tag, port == 0)
        c.check('%s tx_good_packets >= %d' % (tag, expect_min[i]), tx >= expect_min[i],
                'tx=%d' % tx)
        # io forwarding sends on what it receives: what tx_first injected circulates, and
        # at the stop some of it is still with the device (sent, not yet received).
        c.check('%s 0 <= tx_good_packets - rx_good_packets <= %d' % (tag, injected[i]),
                0 <= tx - rx <= injected[i], 'rx=%d tx=%d' % (rx, tx))
        per_q = [xs.get('rx_q%d_packets' % q, 0) for q in range(2)]
        c.check('%s Rx queues account for every packet' % tag, sum(per_q) == rx,
                'rx_q=%s rx=%d' % (per_q, rx))
        c.check('%s no frame without an Rx buffer' % tag, xs.get('rx_missed_errors') == 0)
        c.check('%s bytes match' % tag,
                xs.get('tx_good_bytes', -1) - xs.get('rx_good_bytes', -2) == 64 * (tx - rx))
        if i == 1:
            # The default rule is RSS over all Rx queues; multi-flow txonly
            # varies the source address, so both queues get traffic.
            c.check('%s default RSS used both Rx queues' % tag,
                    per_q[0] > 0 and per_q[1] > 0, 'rx_q=%s' % per_q)
            c.check('%s both tx queues sent' % tag,
                    xs.get('tx_q0_packets', 0) > 0 and xs.get('tx_q1_packets', 0) > 0,
                    'tx_q0=%s tx_q1=%s' % (xs.get('tx_q0_packets'), xs.get('tx_q1_packets')))
    c.check('testpmd said Bye', 'Bye...' in out)
    c.done(out)


if __name__ == '__main__':
    main()
