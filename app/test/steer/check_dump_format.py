#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5dm authors
"""Validate a steering dump (mlx5dm_domain_dump, rdma-core's dr_dbg CSV format).

Checks what a reader of the format (such as the mlx_steering_dump "sws"
parser) relies on, written from the format itself:
  * every line is a known record type with the field count rdma-core prints
    (the table record 3100 has one more: the flow table object id);
  * ids are hex numbers, STE data 64 bytes of hex, mask sections empty or
    64 bytes of hex;
  * nesting: each record names the object it belongs to, which is the last
    domain / table / matcher / rule before it;
  * RX/TX consistency with the domain type (3101/3202/3303 vs 3102/3203/3304,
    the builders' is_rx); an FDB domain (type 2) has both sides: tables of
    type 4 with both anchors, matchers with both side records (each followed
    by its builders), rules with the entries of one or both sides;
  * each matcher has as many builder records as its side record says, each
    rule at least that many STEs, and the lookup type of a rule's STE at
    level k (entry_format << 8 | match_definer_ctx_idx) is builder k's; the
    STEs after the match levels are action (MATCH, 0x04) entries;
  * a jump (3405) names a table of the domain and that table's FT id; a
    shared action keeps one record type;
  * the PMD's records (DPDK mlx5's `flow dump` ones), before the first
    domain (the sws parser prints each domain before reading on): 4410
    (encap header) names an encap action (3400/3401) of the dump and holds
    a VXLAN tunnel header (what the parser decodes), 4420 names a
    modify-header action (3402) and holds as many 8-byte actions as it says,
    4430 names a counter action (3406) and holds decimal hits and bytes.

Usage:
  check_dump_format.py FILE...
  check_dump_format.py --run TEST_BINARY    run the dump unit test with
        MLX5DM_STEER_DUMP_OUT set and check what it wrote.
  --self-test: also corrupt copies of the dump and require each to fail.
With MLX_STEERING_DUMP_SWS=<dir of mlx_steering_dump_parser.py> in the
environment, the dump is also fed to that parser (rule and tree views),
which must exit 0 without a traceback.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

FIELDS = {
    '3000': 12, '3001': 4, '3002': 5, '3003': 6, '3004': 8, '3005': 5,
    '3100': 6, '3101': 3, '3102': 3,
    '3200': 4, '3202': 7, '3203': 7, '3204': 6,
    '3300': 3, '3303': 4, '3304': 4,
    '3400': 4, '3401': 4, '3403': 3, '3405': 5, '3406': 4, '3407': 4,
    '3408': 4, '3409': 3, '3410': 4, '3411': 4, '3412': 4, '3413': 3, '3423': 3,
    '4410': 3, '4420': 4, '4430': 4,
}
HEX_ID = re.compile(r'^0x[0-9a-f]+$')
HEX_DATA = re.compile(r'^[0-9a-f]*$')
STE_HEX = 128
MASK_HEX = 128
MODIFY_HDR = '3402'
MASK = '3205'
ENTRY_MATCH = 0x04


class DumpError(Exception):
    pass


def vxlan_header(h):
    """Ethernet [/ VLAN] / IPv4 (no options) or IPv6 / UDP / VXLAN, exactly."""
    off = 14
    if len(h) < off:
        return False
    etype = int.from_bytes(h[off - 2:off], 'big')
    if etype in (0x8100, 0x88a8):
        off += 4
        if len(h) < off:
            return False
        etype = int.from_bytes(h[off - 2:off], 'big')
    if etype == 0x0800 and len(h) >= off + 20 and h[off] == 0x45:
        proto, off = h[off + 9], off + 20
    elif etype == 0x86dd and len(h) >= off + 40 and h[off] >> 4 == 6:
        proto, off = h[off + 6], off + 40
    else:
        return False
    return proto == 17 and len(h) == off + 16


class Checker:
    def __init__(self):
        self.errors = []
        self.counts = {}
        self.all_actions = {}       # action id -> record type, every domain
        self.pmd_refs = []          # (line, record, action id) of the PMD records
        self.reset_domain()

    def reset_domain(self):
        self.dom = None
        self.rx = None
        self.fdb = False
        self.tbl = self.mat = self.rule = None
        self.tables = {}            # id -> FT id
        self.jumps = []             # (line, table id, ft id)
        self.actions = {}           # action id -> record type
        self.builders = {}          # (matcher id, is_rx) -> [lu_type]
        self.nb_builders = {}       # (matcher id, is_rx) -> from the side record
        self.rule_stes = {}         # is_rx -> the rule's STEs of that side
        self.mat_rx = True          # the side of the last matcher side record

    def err(self, ln, msg):
        self.errors.append('line %d: %s' % (ln, msg))

    def need(self, ln, cond, msg):
        if not cond:
            self.err(ln, msg)
        return cond

    def end_rule(self, ln):
        """Check the STEs of the rule that just ended against its matcher's lookups."""
        if self.rule is None:
            return
        self.need(ln, len(self.rule_stes) > 0, 'rule %s without STEs' % self.rule)
        for is_rx, stes in self.rule_stes.items():
            lus = self.builders.get((self.mat, is_rx), [])
            self.need(ln, len(stes) >= len(lus),
                      'rule %s: %d STEs for %d lookups' % (self.rule, len(stes), len(lus)))
            for k, ste in enumerate(stes):
                lu = ste[0] << 8 | ste[6]
                if k < len(lus):
                    self.need(ln, lu == lus[k], 'rule %s STE %d: lookup 0x%x, builder 0x%x'
                              % (self.rule, k, lu, lus[k]))
                else:
                    self.need(ln, ste[0] == ENTRY_MATCH,
                              'rule %s STE %d: action STE of format 0x%x'
                              % (self.rule, k, ste[0]))
        self.rule = None
        self.rule_stes = {}

    def end_domain(self, ln):
        self.end_rule(ln)
        for m, lus in self.builders.items():
            if m in self.nb_builders:
                self.need(ln, len(lus) == self.nb_builders[m],
                          'matcher %s: %d builder records, side record says %d'
                          % (m, len(lus), self.nb_builders[m]))
        for jl, tid, ft in self.jumps:
            if self.need(jl, tid in self.tables, 'jump to unknown table %s' % tid):
                self.need(jl, self.tables[tid] == ft, 'jump FT id %s, table has %s'
                          % (ft, self.tables[tid]))
        self.reset_domain()

    def side(self, rx_type, tx_type):
        """The record types of the domain's sides (both in an FDB domain)."""
        if self.fdb:
            return (rx_type, tx_type)
        return (rx_type,) if self.rx else (tx_type,)

    def record(self, ln, f):
        t = f[0]
        self.counts[t] = self.counts.get(t, 0) + 1
        if t == MASK:
            ok = len(f) == 9 or (len(f) == 10 and f[9] == '')
            self.need(ln, ok, '3205 with %d fields' % len(f))
        elif t == MODIFY_HDR:
            # Pattern mode appends its actions, as many as field 5 says.
            ok = len(f) >= 8 and HEX_ID.match(f[5])
            self.need(ln, ok and len(f) == 8 + int(f[5], 16), '3402 with %d fields' % len(f))
        elif not self.need(ln, t in FIELDS, 'unknown record type %s' % t):
            return
        else:
            if not self.need(ln, len(f) == FIELDS[t], '%s with %d fields, expected %d'
                             % (t, len(f), FIELDS[t])):
                return
        if t != '3001':
            self.need(ln, HEX_ID.match(f[1]) is not None, 'id %r is not hex' % f[1])
        getattr(self, 'rec_' + t[:2] + 'xx')(ln, t, f)

    # ---- domain ----
    def rec_30xx(self, ln, t, f):
        if t == '3000':
            if self.dom is not None:
                self.end_domain(ln)
            self.dom = f[1]
            # NIC RX, NIC TX or FDB (both sides).
            self.need(ln, f[2] in ('0', '1', '2'), 'domain type %s' % f[2])
            self.rx = f[2] == '0'
            self.fdb = f[2] == '2'
            self.need(ln, f[11] in ('0', '1', '2'), 'steering format %s' % f[11])
            return
        if not self.need(ln, self.dom is not None, '%s before any domain' % t):
            return
        dom_field = 2 if t == '3005' else 1
        self.need(ln, f[dom_field] == self.dom, '%s names domain %s, not %s'
                  % (t, f[dom_field], self.dom))

    # ---- tables ----
    def rec_31xx(self, ln, t, f):
        if t == '3100':
            self.end_rule(ln)
            self.need(ln, f[2] == self.dom, 'table of domain %s in domain %s' % (f[2], self.dom))
            want = '4' if self.fdb else '0' if self.rx else '1'
            self.need(ln, f[3] == want, 'table type %s in this domain' % f[3])
            self.need(ln, int(f[4]) >= 1, 'SW table at level %s' % f[4])
            self.tbl = f[1]
            self.mat = None
            self.tables[f[1]] = f[5]
            return
        self.need(ln, t in self.side('3101', '3102'), '%s in this domain' % t)
        self.need(ln, f[1] == self.tbl, '%s names table %s, not %s' % (t, f[1], self.tbl))
        self.need(ln, HEX_ID.match(f[2]) is not None, 'anchor index %r' % f[2])

    # ---- matchers ----
    def rec_32xx(self, ln, t, f):
        if t == '3200':
            self.end_rule(ln)
            self.need(ln, f[2] == self.tbl, 'matcher of table %s under %s' % (f[2], self.tbl))
            self.mat = f[1]
            return
        mid = f[2] if t in ('3202', '3203') else f[1]
        self.need(ln, mid == self.mat and self.rule is None,
                  '%s names matcher %s, not %s' % (t, mid, self.mat))
        if t == MASK:
            for sec in f[2:]:
                self.need(ln, sec == '' or (len(sec) == MASK_HEX and HEX_DATA.match(sec)),
                          'mask section of %d characters' % len(sec))
        elif t == '3204':
            key = (mid, self.mat_rx)
            self.need(ln, f[3] == ('1' if self.mat_rx else '0'), 'builder is_rx %s' % f[3])
            self.need(ln, int(f[2]) == len(self.builders.get(key, [])),
                      'builder index %s out of order' % f[2])
            self.builders.setdefault(key, []).append(int(f[4], 16))
        else:
            self.need(ln, t in self.side('3202', '3203'), '%s in this domain' % t)
            self.mat_rx = t == '3202'
            self.builders[(mid, self.mat_rx)] = []
            self.nb_builders[(mid, self.mat_rx)] = int(f[3])
            for x in (f[4], f[5]):
                self.need(ln, HEX_ID.match(x) is not None, 'ICM index %r' % x)

    # ---- rules ----
    def rec_33xx(self, ln, t, f):
        if t == '3300':
            self.end_rule(ln)
            self.need(ln, f[2] == self.mat, 'rule of matcher %s under %s' % (f[2], self.mat))
            self.rule = f[1]
            return
        self.need(ln, t in self.side('3303', '3304'), '%s in this domain' % t)
        self.need(ln, f[2] == self.rule, 'entry of rule %s under %s' % (f[2], self.rule))
        if self.need(ln, len(f[3]) == STE_HEX and HEX_DATA.match(f[3]),
                     'STE data of %d characters' % len(f[3])):
            self.rule_stes.setdefault(t == '3303', []).append(bytes.fromhex(f[3]))

    # ---- actions ----
    def rec_34xx(self, ln, t, f):
        self.need(ln, self.rule is not None and f[2] == self.rule,
                  'action of rule %s under %s' % (f[2], self.rule))
        known = self.actions.setdefault(f[1], t)
        self.need(ln, known == t, 'action %s dumped as %s and %s' % (f[1], known, t))
        self.all_actions[f[1]] = t
        if t == '3405':
            self.jumps.append((ln, f[4], f[3]))

    # ---- PMD records ----
    def rec_44xx(self, ln, t, f):
        self.need(ln, self.dom is None, '%s after a domain record' % t)
        self.pmd_refs.append((ln, t, f[1]))
        if t == '4430':
            self.need(ln, f[2].isdigit() and f[3].isdigit(), '4430 counts %r %r' % (f[2], f[3]))
            return
        data = f[-1]
        if not self.need(ln, len(data) % 2 == 0 and HEX_DATA.match(data), '%s data %r'
                         % (t, data[:16])):
            return
        if t == '4420':
            self.need(ln, f[2].isdigit() and len(data) == 16 * int(f[2]),
                      '4420: %s actions in %d hex digits' % (f[2], len(data)))
        else:
            self.need(ln, vxlan_header(bytes.fromhex(data)), '4410: not a VXLAN tunnel header')

    def check(self, path):
        with open(path, encoding='ascii') as fh:
            lines = fh.read().split('\n')
        if lines and lines[-1] == '':
            lines.pop()
        else:
            self.err(len(lines), 'no newline at the end')
        for ln, line in enumerate(lines, 1):
            self.need(ln, line.startswith(('3000', '44')) or self.dom is not None,
                      'the dump does not start with a domain record')
            self.record(ln, line.split(','))
        self.end_domain(len(lines))
        for ln, t, aid in self.pmd_refs:
            kinds = {'4410': ('3400', '3401'), '4420': (MODIFY_HDR,), '4430': ('3406',)}[t]
            self.need(ln, self.all_actions.get(aid) in kinds,
                      '%s names action %s, not an action of type %s'
                      % (t, aid, ' or '.join(kinds)))


def check_lines(lines):
    """Errors of a dump given as lines (for the self test)."""
    with tempfile.NamedTemporaryFile('w', suffix='.csv', delete=False) as fh:
        fh.write('\n'.join(lines) + '\n')
    try:
        c = Checker()
        c.check(fh.name)
        return c.errors
    finally:
        os.unlink(fh.name)


def first(lines, rec):
    return next(i for i, line in enumerate(lines) if line.startswith(rec + ','))


def first_line(lines, rec):
    return lines[first(lines, rec)]


def self_test(path):
    """Corrupt a good dump in ways a reader would trip on: each must be reported."""
    with open(path, encoding='ascii') as fh:
        good = fh.read().splitlines()
    if check_lines(good):
        raise DumpError('self test: the good dump does not pass')

    def drop_field(ls, rec):
        i = first(ls, rec)
        ls[i] = ls[i].rsplit(',', 1)[0]

    def retarget(ls, rec, field):
        i = first(ls, rec)
        f = ls[i].split(',')
        f[field] = '0x1'
        ls[i] = ','.join(f)

    def short_ste(ls):
        i = first(ls, '3303')
        ls[i] = ls[i][:-2]

    def wrong_lookup(ls):
        i = first(ls, '3303')
        f = ls[i].split(',')
        f[3] = f[3][:12] + '%02x' % (int(f[3][12:14], 16) ^ 1) + f[3][14:]
        ls[i] = ','.join(f)

    def drop_line(ls, rec):
        del ls[first(ls, rec)]

    cases = {
        'entry without its STE data': lambda ls: drop_field(ls, '3303'),
        'action of another rule': lambda ls: retarget(ls, '3411', 2),
        'rule of another matcher': lambda ls: retarget(ls, '3300', 2),
        'matcher of another table': lambda ls: retarget(ls, '3200', 2),
        'jump to an unknown table': lambda ls: retarget(ls, '3405', 4),
        'STE of 63 bytes': short_ste,
        'STE lookup not the builder\'s': wrong_lookup,
        'a builder record missing': lambda ls: drop_line(ls, '3204'),
        'no domain record first': lambda ls: drop_line(ls, '3000'),
        'unknown record type': lambda ls: ls.append('3999,0x1'),
    }
    if any(line.startswith('4410,') for line in good):
        cases['encap header of an unknown action'] = lambda ls: retarget(ls, '4410', 1)
        cases['encap header that is no VXLAN tunnel'] = \
            lambda ls: ls.__setitem__(first(ls, '4410'), first_line(ls, '4410')[:-2])
    if any(line.startswith('4420,') for line in good):
        cases['modify actions of an unknown action'] = lambda ls: retarget(ls, '4420', 1)
        cases['modify action count wrong'] = lambda ls: retarget(ls, '4420', 2)
        cases['modify actions after a domain'] = \
            lambda ls: ls.append(ls.pop(first(ls, '4420')))
    if any(line.startswith('4430,') for line in good):
        cases['counts of an unknown action'] = lambda ls: retarget(ls, '4430', 1)
    for name, corrupt in cases.items():
        lines = list(good)
        corrupt(lines)
        if not check_lines(lines):
            raise DumpError('self test: %s not detected' % name)
    return len(cases)


def run_parser(sws_dir, path):
    """Feed the dump to mlx_steering_dump's sws parser (rule and tree views).

    -vvvv makes it read the PMD records: then an encap action with a 4410
    record must be shown with its VXLAN header.
    """
    parser = os.path.join(sws_dir, 'mlx_steering_dump_parser.py')
    out = ''
    with open(path, encoding='ascii') as fh:
        has_4410 = any(line.startswith('4410,') for line in fh)
    for extra in ([], ['-t', '-vv'], ['-vvvv']):
        p = subprocess.run([sys.executable, parser, '-f', path] + extra, cwd=sws_dir,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True, check=False)
        if p.returncode != 0 or 'Traceback' in p.stdout:
            raise DumpError('parser failed (%d):\n%s' % (p.returncode, p.stdout[-2000:]))
        if extra == ['-vvvv'] and has_4410 and 'tnl_push(' not in p.stdout:
            raise DumpError('parser -vvvv shows no encap header of the 4410 records')
        out += p.stdout
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--run', help='dump unit test binary to run first')
    ap.add_argument('--self-test', action='store_true',
                    help='also check that corrupted copies of the dump are rejected')
    ap.add_argument('files', nargs='*')
    args = ap.parse_args()
    files = list(args.files)
    tmp = None
    if args.run:
        tmp = tempfile.NamedTemporaryFile(prefix='mlx5dm_dump_', suffix='.csv', delete=False)
        tmp.close()
        env = dict(os.environ, MLX5DM_STEER_DUMP_OUT=tmp.name)
        p = subprocess.run([args.run], env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, universal_newlines=True, check=False)
        if p.returncode != 0:
            print(p.stdout)
            print('FAIL: %s exited with %d' % (args.run, p.returncode))
            return 1
        files.append(tmp.name)
    if not files:
        ap.error('no dump to check')
    status = 0
    try:
        for path in files:
            c = Checker()
            c.check(path)
            summary = ', '.join('%s:%d' % kv for kv in sorted(c.counts.items()))
            if not c.counts.get('3300'):
                c.errors.append('no rule in the dump')
            if c.errors:
                status = 1
                print('FAIL %s (%d errors)' % (path, len(c.errors)))
                for e in c.errors[:50]:
                    print('  ' + e)
            else:
                print('OK %s: %s' % (path, summary))
            if args.self_test:
                print('self test: %d corruptions detected' % self_test(path))
            sws = os.environ.get('MLX_STEERING_DUMP_SWS')
            if sws:
                out = run_parser(sws, path)
                print('mlx_steering_dump: %d lines of output, no error' % len(out.splitlines()))
    except DumpError as e:
        print('FAIL: %s' % e)
        status = 1
    finally:
        if tmp is not None:
            os.unlink(tmp.name)
    return status


if __name__ == '__main__':
    sys.exit(main())
