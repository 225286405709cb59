#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5dm authors
"""The tree's module boundaries, read from the sources.

A module is a folder of lib/ or drivers/net/mlx5dm. Checks:
  * the device boundary is closed: lib/dev includes no header of lib/sim;
  * the PMD stands on lib/steer and lib/dev: drivers/net/mlx5dm includes no
    header of lib/sim or lib/ste;
  * no include cycle between the files of a module, a .c and the .h of the
    same name counting as one file;
  * no cycle either through the functions one .c file calls and another
    .c file of the module defines, but in the modules of CALLS_BOTH_WAYS.
Prints one line per violation and a summary; exit 1 on any violation.

    usage: check-deps.py ROOT
"""

import os
import re
import sys

# (module, modules whose headers it must not include)
FORBIDDEN = [
    ('lib/dev', ('lib/sim',)),
    ('drivers/net/mlx5dm', ('lib/sim', 'lib/ste')),
]
# Modules whose files may call each other in a cycle: in lib/steer and lib/sim
# files are the halves of objects (a matcher and its hash tables, the model's
# core and its engine).
CALLS_BOTH_WAYS = ('lib/sim', 'lib/steer')

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
COMMENT = re.compile(r'/\*.*?\*/|//[^\n]*', re.S)
STRING = re.compile(r'"(?:\\.|[^"\\\n])*"')
# DPDK style: the name of a defined function starts its line.
DEFINITION = re.compile(r'^([A-Za-z_]\w*)\(', re.M)
CALL = re.compile(r'\b([A-Za-z_]\w*)\s*\(')


def modules(root):
    """{module: [file names]} for lib/* and the PMD."""
    mods = {}
    lib = os.path.join(root, 'lib')
    dirs = ['lib/' + d for d in sorted(os.listdir(lib)) if os.path.isdir(os.path.join(lib, d))]
    for d in dirs + ['drivers/net/mlx5dm']:
        mods[d] = sorted(f for f in os.listdir(os.path.join(root, d)) if f.endswith(('.c', '.h')))
    return mods


def code(text):
    """The text without comments and string literals, lines kept in place."""
    text = COMMENT.sub(lambda m: '\n' * m.group(0).count('\n'), text)
    return STRING.sub('""', text)


def cycles(nodes, edges):
    """The strongly connected components of more than one node (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def stem(name):
    return name.rsplit('.', 1)[0]


def check(root):
    mods = modules(root)
    owner = {f: m for m, files in mods.items() for f in files if f.endswith('.h')}
    text = {}
    for m, files in mods.items():
        for f in files:
            with open(os.path.join(root, m, f), encoding='utf-8', errors='replace') as fh:
                text[(m, f)] = fh.read()
    bad = []
    for m, banned in FORBIDDEN:
        for f in mods[m]:
            for inc in INCLUDE.findall(text[(m, f)]):
                if owner.get(inc) in banned:
                    bad.append('%s/%s: includes %s of %s' % (m, f, inc, owner[inc]))
    for m, files in mods.items():
        names = set(files)
        edges = {}
        for f in files:
            for inc in INCLUDE.findall(text[(m, f)]):
                if inc in names and stem(inc) != stem(f):
                    edges.setdefault(stem(f), set()).add(stem(inc))
        for comp in cycles({stem(f) for f in files}, edges):
            bad.append('%s: include cycle between %s' % (m, ', '.join(comp)))
        if m in CALLS_BOTH_WAYS:
            continue
        sources = [f for f in files if f.endswith('.c')]
        body = {f: code(text[(m, f)]) for f in sources}
        defined = {}
        for f in sources:
            for d in DEFINITION.finditer(body[f]):
                line = body[f].rfind('\n', 0, d.start() - 1)
                # A macro that makes a function (RTE_INIT) defines nothing callable.
                if d.group(1).isupper():
                    continue
                if not body[f][line + 1:d.start()].lstrip().startswith('static'):
                    defined[d.group(1)] = stem(f)
        calls = {}
        for f in sources:
            for name in set(CALL.findall(body[f])):
                if defined.get(name, stem(f)) != stem(f):
                    calls.setdefault(stem(f), set()).add(defined[name])
        for comp in cycles({stem(f) for f in sources}, calls):
            bad.append('%s: call cycle between %s' % (m, ', '.join(comp)))
    return bad


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    bad = check(sys.argv[1])
    for line in bad:
        print(line)
    print('deps: %d violation%s' % (len(bad), '' if len(bad) == 1 else 's'))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
