#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5dm authors
"""Style check of the mlx5dm tree: the DPDK coding-style essentials.

Checks every tracked (or, outside git, every) source file:
  * SPDX-License-Identifier in the first lines of C, meson, python and shell files;
  * C: lines <= 100 columns (tabs count 8), tab indentation, no trailing
    whitespace, and in lib/ and drivers/ none of the forbidden tokens
    (printf family, rte_panic, rte_exit, rte_atomicNN_*, rte_smp_*mb,
    __sync_*, raw __attribute__ outside osdep, %l[dux] formats, plain RTE_LOG_REGISTER);
  * C comments in lib/, drivers/ and app/: no measurements (rates such as
    Mpps or M/s, "x faster", approximate or fractional times): figures
    belong in benchmark output and commit messages;
  * no file cites a document outside the repository (the project's
    reference notes): cite the PRM or the rdma-core/DPDK source instead;
  * meson.build: no tabs, 4-space indentation;
  * no DPDK driver-SDK header committed.
Prints one line per violation and a summary; exit 1 on any violation.
"""

import os
import re
import subprocess
import sys

MAX_COLS = 100
C_EXT = ('.c', '.h')
FORBIDDEN = [
    (re.compile(r'\b(printf|fprintf|vfprintf|puts|perror)\s*\('), 'printf-family output'),
    (re.compile(r'\brte_panic\s*\('), 'rte_panic'),
    (re.compile(r'\brte_exit\s*\('), 'rte_exit'),
    (re.compile(r'\brte_atomic(16|32|64)_'), 'rte_atomicNN_* (use __atomic builtins)'),
    (re.compile(r'\brte_smp_[rw]?mb\s*\('), 'rte_smp_*mb'),
    (re.compile(r'\b__sync_'), '__sync_* builtins'),
    (re.compile(r'%l+[dux]'), '%l[dux] format (use PRI*64 or %zu)'),
    (re.compile(r'\bRTE_LOG_REGISTER\s*\('), 'plain RTE_LOG_REGISTER (use _DEFAULT/_SUFFIX)'),
]
ATTRIBUTE = re.compile(r'__attribute__\s*\(')
SDK_HEADERS = {'ethdev_driver.h', 'ethdev_vdev.h', 'bus_vdev_driver.h', 'dev_driver.h'}
# The OS shim is the one place allowed to print (its default log sink) and to
# spell attributes (it defines the project's macros for them).
EXEMPT_OUTPUT = {'lib/osdep/mlx5dm_osdep.c', 'lib/osdep/mlx5dm_osdep.h'}
TIME = r'(?:ns|us|\u00b5s|ms)\b'
MEASUREMENT = re.compile('|'.join([
    r'\d\s*[KMG]?(?:pps|rules/s|lookups/s|insertions/s|deletions/s)\b',
    r'\d\s*M(?:pps|lookups/s)\b',
    r'\d\s*[KMG]B?/s\b',
    r'\d\s*(?:x|times) (?:faster|slower)\b',
    r'\d\s*% (?:faster|slower|fewer|more)\b',
    r'(?:~|\babout |\bsome )\d[\d.]*\s*' + TIME,
    r'\d\s*-\s*\d[\d.]*\s*' + TIME,
    r'\d\.\d+\s*' + TIME,
    r'\d\s+instructions (?:per|a)\b',
]))
# The project's reference notes live outside the repository: a reader cannot open them.
OUTSIDE_DOCS = re.compile(r'\b(?:SWS_REFERENCE|STE_LAYOUTS|PERF_ANCHORS|DPDK_OOT_FACTS|'
                          r'STYLE_ANCHORS)\b')
TEXT_EXT = C_EXT + ('.py', '.sh', '.rst', '.md', '.txt', '.build', '.ini', '.case')


def tracked_files(root):
    try:
        out = subprocess.run(['git', '-C', root, 'ls-files', '-co', '--exclude-standard'],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                             check=True, universal_newlines=True).stdout
        files = [f for f in out.splitlines() if f]
        if files:
            return files
    except (OSError, subprocess.CalledProcessError):
        pass
    files = []
    for d, dirs, names in os.walk(root):
        dirs[:] = [x for x in dirs if not x.startswith('.') and not x.startswith('build')]
        files += [os.path.relpath(os.path.join(d, n), root) for n in names]
    return files


def strip_comments_and_strings(line, in_comment):
    """Split off comment and string-literal text: (code, in_comment, comment)."""
    out, comment = [], []
    i = 0
    while i < len(line):
        if in_comment:
            j = line.find('*/', i)
            if j < 0:
                comment.append(line[i:])
                return ''.join(out), True, ' '.join(comment)
            comment.append(line[i:j])
            i = j + 2
            in_comment = False
        elif line.startswith('/*', i):
            in_comment = True
            i += 2
        elif line.startswith('//', i):
            comment.append(line[i + 2:])
            break
        elif line[i] == '"':
            j = i + 1
            while j < len(line) and line[j] != '"':
                j += 2 if line[j] == '\\' else 1
            out.append('""')
            i = j + 1
        else:
            out.append(line[i])
            i += 1
    return ''.join(out), in_comment, ' '.join(comment)


def check_c(path, rel, errs):
    in_lib = rel.startswith('lib/') or rel.startswith('drivers/')
    measured = in_lib or rel.startswith('app/')
    in_comment = False
    with open(path, encoding='utf-8', errors='replace') as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip('\n')
            where = '%s:%d' % (rel, n)
            if len(line.expandtabs(8)) > MAX_COLS:
                errs.append('%s: line longer than %d columns' % (where, MAX_COLS))
            if line != line.rstrip():
                errs.append('%s: trailing whitespace' % where)
            lead = line[:len(line) - len(line.lstrip(' \t'))]
            if lead.startswith('        ') or re.match(r'^\t* {8,}', lead):
                errs.append('%s: indentation with spaces (use tabs)' % where)
            code, in_comment, comment = strip_comments_and_strings(line, in_comment)
            m = MEASUREMENT.search(comment) if measured else None
            if m is not None:
                errs.append('%s: measurement in a comment (%r): figures go in benchmark '
                            'output and commit messages' % (where, m.group(0)))
            if not in_lib:
                continue
            if rel not in EXEMPT_OUTPUT:
                for rx, what in FORBIDDEN:
                    if rx.search(code):
                        errs.append('%s: forbidden in lib/drivers: %s' % (where, what))
                if ATTRIBUTE.search(code):
                    errs.append('%s: raw __attribute__ (use the __rte_*/MLX5DM_* macros)'
                                % where)


def check_meson(path, rel, errs):
    with open(path, encoding='utf-8', errors='replace') as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip('\n')
            if '\t' in line:
                errs.append('%s:%d: tab in meson file' % (rel, n))
            ind = len(line) - len(line.lstrip(' '))
            if line.strip() and ind % 4 != 0:
                errs.append('%s:%d: meson indentation not a multiple of 4' % (rel, n))
            if line != line.rstrip():
                errs.append('%s:%d: trailing whitespace' % (rel, n))


def needs_spdx(rel):
    base = os.path.basename(rel)
    return (rel.endswith(C_EXT) or rel.endswith('.py') or rel.endswith('.sh')
            or base in ('meson.build', 'meson_options.txt') or rel == '.ci/run')


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else '.')
    errs = []
    files = tracked_files(root)
    for rel in files:
        path = os.path.join(root, rel)
        if not os.path.isfile(path):
            continue
        if os.path.basename(rel) in SDK_HEADERS:
            errs.append('%s: DPDK driver-SDK header must not be committed' % rel)
            continue
        if needs_spdx(rel):
            with open(path, encoding='utf-8', errors='replace') as f:
                head = ''.join(f.readline() for _ in range(3))
            if 'SPDX-License-Identifier' not in head:
                errs.append('%s:1: missing SPDX-License-Identifier' % rel)
        if rel.endswith(TEXT_EXT) and rel != 'devtools/check-style.py':
            with open(path, encoding='utf-8', errors='replace') as f:
                for n, line in enumerate(f, 1):
                    m = OUTSIDE_DOCS.search(line)
                    if m is not None:
                        errs.append('%s:%d: cites %s, a document outside the repository: '
                                    'cite the PRM or the rdma-core/DPDK source' % (rel, n,
                                                                                 m.group(0)))
        if rel.endswith(C_EXT):
            check_c(path, rel, errs)
        elif os.path.basename(rel) in ('meson.build', 'meson_options.txt'):
            check_meson(path, rel, errs)
    for e in errs:
        print(e)
    print('style: %d files checked, %d violations' % (len(files), len(errs)))
    return 1 if errs else 0


if __name__ == '__main__':
    sys.exit(main())
