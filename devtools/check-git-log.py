#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5dm authors
"""Check commit messages the DPDK way (as DPDK's devtools/check-git-log.sh).

  check-git-log.py SRCDIR [--base REV]   the commits REV..HEAD (default REV:
                                         devtools/git-log-base, the last commit
                                         before the rules applied)
  check-git-log.py --selftest            the rules on built-in good and bad messages

Rules: a subject of at most 60 characters, "area: summary" with areas from
AREAS (several: "area1, area2: summary"), the summary not starting with a
plain capitalised word ("Fix ...": acronyms and identifiers are fine) and
not ending in a period; a body after one blank line, its lines at most 75
characters unless indented (quoted commands and output); no merge commits.
Prints one line per problem and a summary; exit 1 on any problem, 77
(skipped) outside a git checkout or when the base is not in the history.
"""

import os
import re
import subprocess
import sys

AREAS = ('ste', 'steer', 'sim', 'dev', 'icm', 'send', 'prm', 'osdep', 'pmd', 'test-dm',
         'tests', 'bench', 'docs', 'devtools', 'build', 'ci')
MAX_SUBJECT = 60
MAX_BODY = 75
SUBJECT = re.compile(r'^([a-z-]+(?:, [a-z-]+)*): (\S.*)$')
CAPITALISED = re.compile(r'^[A-Z][a-z]+$')


def check_message(subject, body, parents=1):
    """Problems of one commit message, as strings (empty: none)."""
    problems = []
    if parents > 1:
        problems.append('merge commit (history is linear)')
    if len(subject) > MAX_SUBJECT:
        problems.append('subject longer than %d characters' % MAX_SUBJECT)
    m = SUBJECT.match(subject)
    if m is None:
        problems.append('subject is not "area: summary"')
    else:
        for area in m.group(1).split(', '):
            if area not in AREAS:
                problems.append('unknown area "%s" (areas: %s)' % (area, ', '.join(AREAS)))
        summary = m.group(2)
        if CAPITALISED.match(summary.split()[0]):
            problems.append('summary starts with a capitalised word')
        if summary.endswith('.'):
            problems.append('summary ends with a period')
    lines = body.split('\n')
    if not body.strip():
        problems.append('no body saying why')
    for line in lines:
        if len(line) > MAX_BODY and not line.startswith((' ', '\t')):
            problems.append('body line longer than %d characters' % MAX_BODY)
            break
    return problems


def commits(src, base):
    """(hash, parents, subject, body) of base..HEAD, oldest first."""
    out = subprocess.run(['git', '-C', src, 'log', '--reverse', '--format=%H%x00%P%x00%B%x01',
                          base + '..HEAD'], check=True, capture_output=True, text=True).stdout
    for rec in out.split('\x01'):
        rec = rec.strip('\n')
        if not rec:
            continue
        sha, parents, msg = rec.split('\x00', 2)
        subject, _, rest = msg.partition('\n')
        # The body follows one blank line; a second subject line leaves none.
        body = rest.strip('\n') if rest.startswith('\n') or not rest else ''
        yield sha, len(parents.split()), subject, body


def selftest():
    good = ('pmd: S-tags are VLANs, L4 items miss IP fragments', 'Why it was wrong.')
    cases = [
        (good, 1, []),
        (('steer, sim: CQs use the EQ that query_eqn reports', 'Why.'), 1, []),
        (('pmd: ' + 'x' * 60, 'Why.'), 1, ['subject longer']),
        (('Fix the walk', 'Why.'), 1, ['not "area: summary"']),
        (('walker: fix the walk', 'Why.'), 1, ['unknown area']),
        (('sim: Fix the walk', 'Why.'), 1, ['capitalised']),
        (('sim: fix the walk.', 'Why.'), 1, ['period']),
        (('sim: fix the walk', ''), 1, ['no body']),
        (('sim: fix the walk', 'w' * 76), 1, ['body line longer']),
        (('sim: fix the walk', 'Why:\n    ' + 'o' * 90), 1, []),
        (good, 2, ['merge commit']),
    ]
    bad = 0
    for (subject, body), parents, want in cases:
        got = check_message(subject, body, parents)
        ok = len(got) == len(want) and all(w in g for w, g in zip(want, got))
        if not ok:
            print('selftest: %r: got %r, want %r' % (subject, got, want))
            bad += 1
    print('git-log selftest: %d cases, %d wrong' % (len(cases), bad))
    return 1 if bad else 0


def main(argv):
    if argv[1:] == ['--selftest']:
        return selftest()
    if len(argv) not in (2, 4) or (len(argv) == 4 and argv[2] != '--base'):
        print(__doc__)
        return 2
    src = argv[1]
    if len(argv) == 4:
        base = argv[3]
    else:
        with open(os.path.join(src, 'devtools', 'git-log-base')) as f:
            base = f.read().split()[0]
    try:
        subprocess.run(['git', '-C', src, 'merge-base', '--is-ancestor', base, 'HEAD'],
                       check=True, capture_output=True)
    except (OSError, subprocess.CalledProcessError):
        print('git-log: skipped: %s is no git checkout holding %s' % (src, base))
        return 77
    n = problems = 0
    for sha, parents, subject, body in commits(src, base):
        n += 1
        for p in check_message(subject, body, parents):
            print('%s %s: %s' % (sha[:12], subject, p))
            problems += 1
    print('git-log: %d commits checked, %d problems' % (n, problems))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
