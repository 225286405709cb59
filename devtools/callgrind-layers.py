#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5dm authors
"""Instructions per rte_flow create/destroy by layer, from a callgrind tree.

Reads `callgrind_annotate --tree=calling --inclusive=yes` on stdin (a
dpdk-test-flow-perf run on net_mlx5dm) and prints one line: per create the
ethdev call, the PMD's share (everything under mlx5dm_flow_create except the
library's rule create: mlx5dm_rule_prepare and mlx5dm_rule_create*),
translation (full or replayed from a compiled template), the library's rule
create, the part of it that moves entries of grown tables to their new heads
(moves) and the send ring flush inside it; the same for destroy; last, the
model's device thread, which executes the WQEs beside the caller (not under
any of those calls), per operation, creates and destroys together. Used by
devtools/bench-flow-perf.sh --callgrind.

With --async (a mlx5dm-bench-flow-async run, devtools/bench-flow-async.sh
--callgrind), the same layers of rte_flow_async_create/_destroy (under
mlx5dm_flow_async_create/_destroy), and the push and pull per operation.

    usage: callgrind-layers.py [--async] NAME RULES < tree
"""

import re
import sys

LINE = re.compile(r'^\s*([0-9,]+)\s+\(\s*[0-9.]+%\)\s+([*>])\s+\S*:([A-Za-z_][A-Za-z0-9_.]*)'
                  r'(?: \(([0-9,]+)x\))?')


def parse(lines):
    """{function: inclusive}, {(parent, child): inclusive}, {function: calls}."""
    incl, edge, calls = {}, {}, {}
    parent = None
    for line in lines:
        m = LINE.match(line)
        if not m:
            continue
        cost = int(m.group(1).replace(',', ''))
        name = m.group(3).split('.')[0]  # drop .isra/.constprop suffixes
        if m.group(2) == '*':
            parent = name
            incl[name] = max(incl.get(name, 0), cost)
        elif parent is not None:
            key = (parent, name)
            edge[key] = max(edge.get(key, 0), cost)
            if m.group(4):
                calls[name] = max(calls.get(name, 0), int(m.group(4).replace(',', '')))
    return incl, edge, calls


def main():
    args = sys.argv[1:]
    asynchronous = args[:1] == ['--async']
    if asynchronous:
        args = args[1:]
    name, rules = args[0], int(args[1])
    incl, edge, calls = parse(sys.stdin)
    create, destroy = 'mlx5dm_flow_create', 'mlx5dm_flow_destroy'
    ethdev_create, ethdev_destroy = 'rte_flow_create', 'rte_flow_destroy'
    if asynchronous:
        create, destroy = 'mlx5dm_flow_async_create', 'mlx5dm_flow_async_destroy'
        ethdev_create, ethdev_destroy = 'rte_flow_async_create', 'rte_flow_async_destroy'

    def per(fn, n=None):
        c = n if n is not None else calls.get(fn, rules)
        return incl.get(fn, 0) / c if c else 0

    creates = calls.get(create, rules)
    destroys = calls.get(destroy, rules)
    def from_pmd(callee):
        # Whichever PMD function calls it (the compiler may inline the caller);
        # a prefix, as the library's create has variants (_prepared, _prepared_args).
        return sum(c for (p, f), c in edge.items()
                   if f.startswith(callee) and p.startswith('mlx5dm_flow_'))

    def flush(caller):
        # The send ring flush (its name has changed: mlx5dm_send_flush, _batch).
        return sum(c for (p, f), c in edge.items()
                   if p.startswith(caller) and f.startswith('mlx5dm_send_flush'))

    lib_c = (from_pmd('mlx5dm_rule_prepare') + from_pmd('mlx5dm_rule_create_tmpl') +
             from_pmd('mlx5dm_rule_create_prepared'))
    lib_d = from_pmd('mlx5dm_rule_destroy')
    # Emptying older tables of grown chains inside the library's create
    # (mlx5dm_rule_drain: entries moved to their chain's new head).
    moves = sum(c for (p, f), c in edge.items()
                if p.startswith('mlx5dm_rule_insert') and f.startswith('mlx5dm_rule_drain'))
    ops = creates + destroys
    row = [
        per(ethdev_create, creates),
        (incl.get(create, 0) - lib_c) / creates,
        per('mlx5dm_flow_translate', creates) + per('mlx5dm_flow_compiled_replay', creates),
        lib_c / creates,
        moves / creates,
        (flush('mlx5dm_rule_insert') + flush('mlx5dm_rule_create')) / creates,
        per(ethdev_destroy, destroys),
        (incl.get(destroy, 0) - lib_d) / destroys,
        lib_d / destroys,
        (flush('mlx5dm_rule_destroy') + flush('mlx5dm_rule_remove')) / destroys,
    ]
    fmt = '%-24s %8.0f %8.0f %8.0f %8.0f %8.0f %8.0f | %8.0f %8.0f %8.0f %8.0f'
    if asynchronous:
        # Push and pull serve both kinds of operation: per operation.
        row.append((incl.get('rte_flow_push', 0) + incl.get('rte_flow_pull', 0)) / ops)
        fmt += ' | %8.0f'
    # The model's device thread runs beside the caller: per operation.
    row.append(incl.get('mlx5dm_sim_thread_main', 0) / ops if ops else 0)
    fmt += ' | %8.0f'
    print(fmt % ((name,) + tuple(row)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
