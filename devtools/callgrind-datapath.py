#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5dm authors
"""Instructions per frame of the datapath, by thread, from a callgrind tree.

Reads `callgrind_annotate --tree=calling --inclusive=yes` on stdin (an
mlx5dm-bench-datapath run on net_mlx5dm) and prints one line: the rules,
the frames the device delivered (calls of mlx5dm_sim_rq_deliver), then per
frame the device thread's datapath (mlx5dm_sim_sq_run: SQ WQEs in, Tx
CQEs out), inside it the steering of both directions
(mlx5dm_sim_engine_port_tx or _tx_lines, without the delivery) and the
delivery (receive buffer and CQE), and the PMD thread's Rx and Tx bursts.
Used by devtools/bench-datapath.sh --callgrind.

    usage: callgrind-datapath.py RULES < tree
"""

import importlib.util
import os
import sys


def layers():
    """The tree parser of callgrind-layers.py (one parser for both scripts)."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'callgrind-layers.py')
    spec = importlib.util.spec_from_file_location('callgrind_layers', path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def main():
    rules = sys.argv[1]
    incl, _, calls = layers().parse(sys.stdin)
    frames = calls.get('mlx5dm_sim_rq_deliver', 0)
    if frames == 0:
        print('%-9s no frame was delivered' % rules)
        return 1
    deliver = incl.get('mlx5dm_sim_rq_deliver', 0)
    row = [
        incl.get('mlx5dm_sim_sq_run', 0),
        # The device thread's entry passes its cache of decoded STEs.
        max(incl.get('mlx5dm_sim_engine_port_tx', 0),
            incl.get('mlx5dm_sim_engine_port_tx_lines', 0)) - deliver,
        deliver,
        incl.get('mlx5dm_rx_burst', 0),
        incl.get('mlx5dm_tx_burst', 0),
    ]
    print('%-9s %9d %9.0f %9.0f %9.0f | %9.0f %9.0f'
          % ((rules, frames) + tuple(c / frames for c in row)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
