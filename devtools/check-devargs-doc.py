#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5dm authors
"""The devargs the PMD parses (drivers/net/mlx5dm/mlx5dm_devargs.c) must be
exactly those of the "Runtime configuration" section of
doc/guides/nics/mlx5dm.rst, one entry each:

   - ``key`` [optional, default VALUE, ``sim`` only]

and each entry must agree with the code: the default the parser starts from,
the range of an integer devarg ("MIN to MAX"), the words of a keyword devarg,
and the backend a devarg is refused without. Prints the differences and exits
1 if there are any. --selftest checks that a few broken guides are caught.
"""

import os
import re
import sys

from guide_check import read_guide, run, tally

DEVARGS_C = os.path.join('drivers', 'net', 'mlx5dm', 'mlx5dm_devargs.c')
DRIVER_DIR = os.path.join('drivers', 'net', 'mlx5dm')
SECTION = 'Runtime configuration'


def c_block(src, name):
    """The text between the '{' after NAME and its closing '};'."""
    m = re.search(r'\b%s\b[^{;]*=\s*\{' % re.escape(name), src)
    if m is None:
        return ''
    end = src.find('\n};', m.end())
    return src[m.end():end]


def macros(root):
    """#define NAME VALUE of the driver's headers and the devargs file."""
    out = {}
    for name in sorted(os.listdir(os.path.join(root, DRIVER_DIR))):
        if name.endswith(('.h', '.c')):
            with open(os.path.join(root, DRIVER_DIR, name), encoding='utf-8') as f:
                for m in re.finditer(r'^#define\s+(\w+)\s+(\S+)\s*$', f.read(), re.M):
                    out[m.group(1)] = m.group(2)
    return out


def resolve(value, defs):
    seen = 0
    while value in defs and seen < 8:
        value, seen = defs[value], seen + 1
    return value.strip('"').rstrip('uUlL') if re.match(r'^\d+[uUlL]*$', value) else \
        value.strip('"')


def code_devargs(root):
    """{key: {'default', 'range', 'words', 'backend'}} from the parser's tables."""
    with open(os.path.join(root, DEVARGS_C), encoding='utf-8') as f:
        src = f.read()
    defs = macros(root)
    key = {m: resolve(m, defs) for m in re.findall(r'\bMLX5DM_ARG_\w+', src)}
    args = {}
    for m in re.findall(r'\bMLX5DM_ARG_\w+', c_block(src, 'mlx5dm_valid_args')):
        args[key[m]] = {'default': None, 'range': None, 'words': None, 'backend': None}
    for table, backend in (('mlx5dm_sim_only_args', 'sim'), ('mlx5dm_hw_only_args', 'hw')):
        for m in re.findall(r'\bMLX5DM_ARG_\w+', c_block(src, table)):
            args[key[m]]['backend'] = backend
    # The values the parser starts from: *args = (struct mlx5dm_devargs){ ... };
    init = re.search(r'\*args = \(struct mlx5dm_devargs\)\{(.*?)\};', src, re.S)
    init = dict(re.findall(r'\.(\w+)\s*=\s*(\w+)', init.group(1) if init else ''))
    field_of = {}
    for entry in c_block(src, 'mlx5dm_arg_uints').split('},')[:-1]:
        m = re.search(r'(MLX5DM_ARG_\w+),\s*(\w+),\s*(\w+),\s*offsetof\([^,]+,\s*(\w+)\)',
                      entry)
        if m is not None:
            args[key[m.group(1)]]['range'] = (resolve(m.group(2), defs),
                                             resolve(m.group(3), defs))
            field_of[key[m.group(1)]] = (m.group(4), None)
    for entry in re.split(r'(?=\{\s*MLX5DM_ARG_)', c_block(src, 'mlx5dm_arg_enums'))[1:]:
        m = re.search(r'(MLX5DM_ARG_\w+).*offsetof\([^,]+,\s*(\w+)\)', entry, re.S)
        words = re.findall(r'\{\s*"([^"]+)",\s*(\w+)\s*\}', entry)
        args[key[m.group(1)]]['words'] = [w for w, _ in words]
        field_of[key[m.group(1)]] = (m.group(2), dict((v, w) for w, v in words))
    for k, (field, value_words) in field_of.items():
        if field in init:
            v = init[field]
            args[k]['default'] = value_words.get(v, v) if value_words else resolve(v, defs)
    return args


def guide_devargs(text):
    """{key: (bracket, body)} of the entries of the devargs section, and problems."""
    m = re.search(r'^%s\n-+\n(.*?)(?=^\S[^\n]*\n[-=~]+\n|\Z)' % re.escape(SECTION), text,
                  re.M | re.S)
    if m is None:
        return {}, ['no "%s" section' % SECTION]
    entries, problems = {}, []
    for e in re.split(r'^(?=- ``)', m.group(1), flags=re.M)[1:]:
        head = re.match(r'- ``(\w+)`` \[([^\]]*)\]', e)
        if head is None:
            problems.append('entry %r: not "- ``key`` [...]"' % e.splitlines()[0])
            continue
        body = re.split(r'\n\n(?=\S)', e, maxsplit=1)[0]
        if head.group(1) in entries:
            problems.append('devarg %s: documented twice' % head.group(1))
        entries[head.group(1)] = (head.group(2), ' '.join(body.split()))
    return entries, problems


def compare(code, doc):
    bad = []
    for k in sorted(set(code) - set(doc)):
        bad.append('devarg %s: parsed by the PMD, not in the guide' % k)
    for k in sorted(set(doc) - set(code)):
        bad.append('devarg %s: in the guide, not parsed by the PMD' % k)
    for k in sorted(set(code) & set(doc)):
        c, (bracket, body) = code[k], doc[k]
        parts = [p.strip() for p in bracket.split(',')]
        dflt = [p[len('default '):].strip('`') for p in parts if p.startswith('default ')]
        if c['default'] is not None and dflt != [str(c['default'])]:
            bad.append('devarg %s: default %s in the code, %s in the guide'
                       % (k, c['default'], dflt[0] if dflt else 'none'))
        only = [p[2:p.index('`` only')] for p in parts if p.endswith('`` only')]
        if only != ([c['backend']] if c['backend'] else []):
            bad.append('devarg %s: %s in the code, %s in the guide'
                       % (k, c['backend'] + ' only' if c['backend'] else 'any backend',
                          only[0] + ' only' if only else 'any backend'))
        if c['range'] is not None and '%s to %s' % c['range'] not in body:
            bad.append('devarg %s: range %s to %s not stated' % ((k,) + c['range']))
        for w in c['words'] or []:
            if '``%s``' % w not in body:
                bad.append('devarg %s: value ``%s`` not described' % (k, w))
    return bad


def check(code, text):
    doc, problems = guide_devargs(text)
    return problems + compare(code, doc)


def selftest(root):
    """Broken guides the check must catch."""
    code = code_devargs(root)
    text = read_guide(root)

    def entry(k):
        return re.search(r'^- ``%s`` \[[^\]]*\]' % k, text, re.M).group(0)

    key = sorted(code)[0]
    dflt = sorted(k for k in code if code[k]['default'] is not None)[0]
    scoped = sorted(k for k in code if code[k]['backend'] is not None)[0]
    cases = {
        'an entry missing': text.replace(entry(key), '- ``%s_x`` [optional]' % key),
        'a key not in the code': text.replace(entry(key),
                                              entry(key) + '\n\n- ``no_such`` [optional]'),
        'a default changed': text.replace(entry(dflt), entry(dflt).replace(
            'default ', 'default x')),
        'a backend scope dropped': text.replace(entry(scoped), entry(scoped).replace(
            ', ``%s`` only' % code[scoped]['backend'], '')),
        'no section': text.replace(SECTION, 'Options'),
    }
    # Integer and keyword devargs start from a value the parser sets.
    no_defaults = not code or any(v['default'] is None for v in code.values()
                                  if v['range'] is not None or v['words'] is not None)
    return tally('devargs doc', lambda t: check(code, t), text, cases,
                 {'defaults not read from the code: %s' % code: no_defaults})


if __name__ == '__main__':
    sys.exit(run('devargs doc', lambda root: check(code_devargs(root), read_guide(root)),
                 selftest))
