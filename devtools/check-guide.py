#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5dm authors
"""The NIC guide (doc/guides/nics/mlx5dm.rst) must stay a reference guide:
each section within its line budget, the whole guide within its total, and
prose lines within 100 columns (so that a budget in lines means something;
code blocks may be wider). A section is counted from its title to the next
title of the same or a higher level, its subsections included; the title
and the text before the first section count as "(title)". A section without
a budget, or a budget without its section, fails too: a new section is
budgeted when it is written. The other guides under doc/guides/ and the
README must keep their prose lines within 100 columns too (the README's
code fences and table rows may be wider). Prints the sections and exits 1
on any problem. --selftest checks that a few broken guides are caught.
"""

import glob
import os
import re
import sys

from guide_check import GUIDE, read_guide, run, tally

MAX_COLS = 100

# Lines, at the density of DPDK 22.11's mlx5.rst for our features (derivation: git log).
BUDGETS = {
    '(title)': 14,
    'Design': 12,
    'Features': 20,
    'Prerequisites': 8,
    'Compilation': 11,
    'Runtime configuration': 70,
    'Usage with testpmd': 60,
    'Statistics': 22,
    'Telemetry and private dump': 28,
    'rte_flow': 135,
    'Attributes': 10,
    'Pattern items': 35,
    'Actions': 40,
    'RSS': 10,
    'Default rule and isolated mode': 7,
    'Errors': 15,
    'Lcores and rule queues': 10,
    'Template API': 58,
    'E-Switch': 78,
    'Limitations': 40,
    'Hardware': 30,
    'Benchmarks': 45,
}
TOTAL = 615

UNDERLINE = re.compile(r'([=\-~^"\'`#*+.:_])\1{2,}$')


def headings(lines):
    """[(line index of the title, level, title)]; levels in order of first use, as RST."""
    order, out = [], []
    for i in range(1, len(lines)):
        m = UNDERLINE.match(lines[i])
        title = lines[i - 1]
        if m is None or not title.strip() or title[0].isspace() or len(lines[i]) < len(title):
            continue
        if UNDERLINE.match(title):
            continue
        if m.group(1) not in order:
            order.append(m.group(1))
        out.append((i - 1, order.index(m.group(1)), title.strip()))
    return out


def sections(lines):
    """[(title, lines)]: the preamble as "(title)", then each section below the title."""
    heads = [h for h in headings(lines) if h[1] > 0]
    out = [('(title)', heads[0][0] if heads else len(lines))]
    for k, (i, level, title) in enumerate(heads):
        end = next((j for j, lv, _ in heads[k + 1:] if lv <= level), len(lines))
        out.append((title, end - i))
    return out


def wide_lines(lines):
    """Line numbers of prose lines over MAX_COLS (code blocks and literal blocks exempt)."""
    bad, block = [], None
    for n, line in enumerate(lines, 1):
        indent = len(line) - len(line.lstrip())
        if block is not None and line.strip() and indent <= block:
            block = None
        if block is None and (line.lstrip().startswith('.. code-block::') or
                              line.rstrip().endswith('::')):
            block = indent
            continue
        if block is None and len(line) > MAX_COLS:
            bad.append(n)
    return bad


def check(text, budgets=None, total=None):
    budgets = BUDGETS if budgets is None else budgets
    total = TOTAL if total is None else total
    lines = text.split('\n')
    if lines and lines[-1] == '':
        lines.pop()
    bad, seen = [], set()
    for title, n in sections(lines):
        if title in seen:
            bad.append('section %r: twice (budgets go by title)' % title)
        seen.add(title)
        if title not in budgets:
            bad.append('section %r: %d lines, no budget (add one to %s)'
                       % (title, n, os.path.basename(__file__)))
        elif n > budgets[title]:
            bad.append('section %r: %d lines, budget %d' % (title, n, budgets[title]))
    for title in sorted(set(budgets) - seen):
        bad.append('budget %r: no such section' % title)
    if len(lines) > total:
        bad.append('guide: %d lines, budget %d' % (len(lines), total))
    for n in wide_lines(lines):
        bad.append('line %d: longer than %d columns outside a code block' % (n, MAX_COLS))
    return bad


def other_guides(root):
    """{path: text} of the guides under doc/guides/ but the NIC guide."""
    out = {}
    for path in sorted(glob.glob(os.path.join(root, 'doc', 'guides', '**', '*.rst'),
                              recursive=True)):
        rel = os.path.relpath(path, root)
        if rel != GUIDE:
            with open(path, encoding='utf-8') as f:
                out[rel] = f.read()
    return out


def wide_markdown(lines):
    """Line numbers of Markdown prose lines over MAX_COLS (fenced code and table rows exempt)."""
    bad, fenced = [], False
    for n, line in enumerate(lines, 1):
        if line.lstrip().startswith('```'):
            fenced = not fenced
        elif not fenced and not line.lstrip().startswith('|') and len(line) > MAX_COLS:
            bad.append(n)
    return bad


def check_other(path, text):
    wide = wide_markdown if path.endswith('.md') else wide_lines
    return ['%s line %d: longer than %d columns outside a code block' % (path, n, MAX_COLS)
            for n in wide(text.split('\n'))]


def report(text):
    lines = text.split('\n')
    if lines and lines[-1] == '':
        lines.pop()
    for title, n in sections(lines):
        print('%-32s %4d / %s' % (title, n, BUDGETS.get(title, '-')))
    print('%-32s %4d / %d' % ('total', len(lines), TOTAL))


def selftest(root):
    """Broken guides the check must catch."""
    text = read_guide(root)
    lines = text.split('\n')
    heads = headings(lines)
    # A subsection, so that its parent grows too.
    i, _, title = max(heads, key=lambda h: h[1])
    pad = '\n'.join(['Padding.'] * (BUDGETS[title] + 1))
    at = text.index(title + '\n' + lines[i + 1] + '\n') + len(title + lines[i + 1]) + 2
    top = heads[[h[1] for h in heads].index(1)]
    prose = next(x for x in lines[top[0] + 2:] if x and not x[0].isspace() and x[0] != '.')
    # Each broken guide, and the problem it must be reported for.
    cases = {
        'a section over its budget': (text[:at] + '\n' + pad + '\n' + text[at:],
                                      "section '%s': " % title),
        'a section without a budget': (text + '\nMore\n----\n\nText.\n', 'no budget'),
        'a budgeted section gone': (text.replace(top[2] + '\n', top[2] + ' x\n', 1)
                                    .replace('`%s`_' % top[2], '`%s x`_' % top[2]),
                                    "budget '%s': no such section" % top[2]),
        'a wide prose line': (text.replace(prose, prose + ' more' * 20, 1), 'columns'),
    }
    expect = {t: problem for t, problem in cases.values()}

    def caught(t):
        return [p for p in check(t) if expect.get(t, '') in p]

    n = len(lines) - (1 if lines[-1] == '' else 0)
    wide = '\n.. code-block:: none\n\n   ' + 'x' * (MAX_COLS + 10) + '\n\nAfter.\n'
    # Another guide, a line in the middle of one of its paragraphs made wide.
    path, other = next(iter(other_guides(root).items()))
    olines = other.split('\n')
    k = next(k for k in range(len(olines) - 1)
             if olines[k][:1].isalpha() and olines[k + 1][:1].isalpha())
    olines[k] += ' more' * 20
    readme = read_readme(root).split('\n')
    r = next(k for k in range(len(readme)) if readme[k][:1].isalpha())
    fence = ['```sh', 'x' * (MAX_COLS + 10), '```', '| ' + 'x' * MAX_COLS + ' |']
    return tally('guide', caught, text, {what: t for what, (t, _) in cases.items()}, {
        'a guide over its total not caught': not check(text, total=n - 1),
        'a wide line in a code block refused': bool(wide_lines((text + wide).split('\n'))),
        'a wide prose line in another guide not caught':
            '%s line %d:' % (path, k + 1) not in ' '.join(check_other(path, '\n'.join(olines))),
        'a wide prose line in the README not caught':
            'README.md line %d:' % (r + 1) not in ' '.join(check_other(
                'README.md', '\n'.join(readme[:r] + [readme[r] + ' more' * 20] + readme[r + 1:]))),
        'a wide README code fence or table row refused':
            bool(check_other('README.md', '\n'.join(fence))),
    })


def read_readme(root):
    with open(os.path.join(root, 'README.md'), encoding='utf-8') as f:
        return f.read()


def check_root(root):
    text = read_guide(root)
    report(text)
    bad = check(text)
    for path, other in other_guides(root).items():
        bad += check_other(path, other)
    return bad + check_other('README.md', read_readme(root))


if __name__ == '__main__':
    sys.exit(run('guide', check_root, selftest))
