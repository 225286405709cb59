#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5dm authors
"""The rte_flow items and actions named in the driver's sources must be
exactly those listed in the [rte_flow items] / [rte_flow actions] sections
of doc/guides/nics/features/mlx5dm.ini (the check DPDK runs on its drivers:
a type is named in the code only if it is supported). VOID and END are not
listed. Prints the differences and exits 1 if there are any.
"""

import os
import re
import sys

IGNORED = {'void', 'end', 'indirect'}


def code_types(driver_dir, kind):
    pattern = re.compile(r'\bRTE_FLOW_%s_TYPE_([A-Z0-9_]+)' % kind)
    found = set()
    for name in sorted(os.listdir(driver_dir)):
        if not name.endswith(('.c', '.h')):
            continue
        with open(os.path.join(driver_dir, name), encoding='utf-8') as f:
            found.update(m.lower() for m in pattern.findall(f.read()))
    return found - IGNORED


def ini_section(ini, section):
    names, inside = set(), False
    with open(ini, encoding='utf-8') as f:
        for line in f:
            line = line.strip()
            if line.startswith('['):
                inside = line == '[%s]' % section
                continue
            if inside and '=' in line and not line.startswith(';'):
                names.add(line.split('=')[0].strip())
    return names


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else '.'
    driver = os.path.join(root, 'drivers', 'net', 'mlx5dm')
    ini = os.path.join(root, 'doc', 'guides', 'nics', 'features', 'mlx5dm.ini')
    bad = 0
    for kind, section in (('ITEM', 'rte_flow items'), ('ACTION', 'rte_flow actions')):
        code, doc = code_types(driver, kind), ini_section(ini, section)
        for n in sorted(code - doc):
            print('%s %s: in the code, not in %s' % (kind.lower(), n, ini))
            bad += 1
        for n in sorted(doc - code):
            print('%s %s: in %s, not in the code' % (kind.lower(), n, ini))
            bad += 1
    print('flow doc: %d passed, %d failed' % (1 if bad == 0 else 0, 1 if bad else 0))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
