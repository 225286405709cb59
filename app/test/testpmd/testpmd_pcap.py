# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5dm authors
"""Crafted packets through the stock dpdk-testpmd and net_mlx5dm, checked byte by byte.

testpmd's own generator (txonly) sends one kind of packet only, so these
scenarios feed testpmd from a net_pcap port instead:

  port 0 net_pcap  Rx queue 0 reads in.pcap (its other Rx queues read an empty file)
     | fwd io, --port-topology=paired
  port 1 net_mlx5dm Tx queue 0 -> NIC TX steering -> loopback wire -> NIC RX steering
     -> the Rx queue N the steering chose
     | fwd io
  port 0 net_pcap  Tx queue N writes outN.pcap

so each output file holds what arrived on one Rx queue of the mlx5dm port, after the
device's rewrites, and a dropped packet is in none of them.

Why one `start` / `stop` is enough: testpmd runs its forwarding streams in the order
(port 0, q0), (port 1, q0), (port 0, q1), (port 1, q1), ... and an lcore always completes
at least one pass over them before it looks at the stop flag. net_mlx5dm's Tx burst walks
each frame through the device synchronously, so in that first pass the pcap burst is sent,
steered and delivered before the streams of the mlx5dm Rx queues poll. `--no-flush-rx`
keeps testpmd from draining (and discarding) the pcap input at `start`, and the burst size
covers every input packet.

A scenario is a list of Case objects. Each case gets its own groups: a group-0 rule
matching the case's source MAC prefix (02:00:00:00:kk:xx, kk = case number, xx = packet
number) jumps to the case's first group, where the case's rules and, for ingress cases, a
lowest-priority catch-all to a fallback queue sit. So the case's rules see only its own
packets, and a packet that must not match arrives unchanged on the fallback queue. Every
packet carries a marker at the end of its payload, which finds it in the output files; its
verbose Rx line (mark, RSS hash) is the one at the same position of the same queue (io
forwarding keeps the order), checked against its source MAC and length.
"""

import os
import re
import struct
import tempfile

from testpmd_harness import parse_xstats, run_testpmd

# Expected queue values other than a queue number.
ANY = 'any'            # delivered, on whichever queue (e.g. spread by RSS)
# Expected mark values (verbose Rx output).
NOMARK = 'none'        # no RTE_MBUF_F_RX_FDIR
FLAG = 'flag'          # RTE_MBUF_F_RX_FDIR without an id
NOHASH = 'no hash'     # no RTE_MBUF_F_RX_RSS_HASH

MLX5DM_PORT = 1
MAX_PACKETS = 512      # testpmd's largest burst: every packet in the first pass
GROUP_STRIDE = 10      # groups g .. g + 9 per case

PCAP_HDR = struct.pack('<IHHiIII', 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1)


def write_pcap(path, frames):
    with open(path, 'wb') as f:
        f.write(PCAP_HDR)
        for i, fr in enumerate(frames):
            f.write(struct.pack('<IIII', i, 0, len(fr), len(fr)))
            f.write(fr)


def read_pcap(path):
    """The frames of a little-endian pcap file (net_pcap writes nanosecond timestamps)."""
    with open(path, 'rb') as f:
        data = f.read()
    if len(data) < 24 or struct.unpack('<I', data[:4])[0] not in (0xa1b2c3d4, 0xa1b23c4d):
        raise ValueError('%s: not a little-endian pcap file' % path)
    frames, off = [], 24
    while off + 16 <= len(data):
        incl = struct.unpack('<IIII', data[off:off + 16])[2]
        frames.append(data[off + 16:off + 16 + incl])
        off += 16 + incl
    return frames


def hexdump(b):
    return ' '.join('%02x' % x for x in b)


def first_diff(a, b):
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return i
    return min(len(a), len(b))


def refresh(p):
    """Clear the length and checksum fields of the IP, IPv6, UDP, TCP, ICMP and GRE headers
    of a packet so scapy recomputes them (only those: scapy dissects payloads of well-known
    ports as other protocols, whose fields must stay as they are)."""
    from scapy.all import GRE, ICMP, IP, TCP, UDP, IPv6
    from scapy.layers.inet6 import _ICMPv6
    redo = {IP: ('len', 'chksum'), IPv6: ('plen',), UDP: ('len', 'chksum'), TCP: ('chksum',),
            ICMP: ('chksum',), _ICMPv6: ('cksum',), GRE: ('chksum',)}
    for layer in p.iterpayloads():
        for cls, names in redo.items():
            if isinstance(layer, cls):
                for f in names:
                    if f in layer.fields:
                        delattr(layer, f)   # not fields[f]: delattr drops scapy's raw cache
    return p


def setf(layer_cls, nth=1, **fields):
    """Expected output: the input with fields of its nth layer_cls set and the lengths and
    checksums recomputed (a checksum given in fields is kept as given)."""
    def apply(p):
        refresh(p)
        layer = p.getlayer(layer_cls, nth)
        for k, v in fields.items():
            setattr(layer, k, v)
        return p
    return apply


def chain(*fns):
    def apply(p):
        for fn in fns:
            p = fn(p)
        return p
    return apply


def toeplitz(key, data):
    """The Toeplitz hash (Microsoft RSS specification): for each set bit i of the input,
    xor in the 32 key bits starting at key bit i."""
    k = int.from_bytes(key, 'big')
    kbits = 8 * len(key)
    h = 0
    for i, byte in enumerate(data):
        for b in range(8):
            if byte & (0x80 >> b):
                h ^= (k >> (kbits - 32 - (8 * i + b))) & 0xffffffff
    return h


def rss_hash(key, fields, inner=False):
    """Expected hash of a packet: Toeplitz over the selected fields in the order source
    address, destination address, source port, destination port (each as on the wire).
    fields: a subset of ('src', 'dst', 'sport', 'dport'); inner: hash the headers after
    the tunnel."""
    from scapy.all import IP, TCP, UDP, IPv6

    def fn(p):
        l3s = [lay for lay in p.iterpayloads() if isinstance(lay, (IP, IPv6))]
        l3 = l3s[-1] if inner else l3s[0]
        l4 = l3.payload if isinstance(l3.payload, (TCP, UDP)) else None
        raw = bytes(l3)
        alen, off = (4, 12) if isinstance(l3, IP) else (16, 8)
        data = b''
        if 'src' in fields:
            data += raw[off:off + alen]
        if 'dst' in fields:
            data += raw[off + alen:off + 2 * alen]
        if 'sport' in fields:
            data += bytes(l4)[0:2]
        if 'dport' in fields:
            data += bytes(l4)[2:4]
        return toeplitz(key, data)
    return fn


def rss_queue(hash_fn, queues):
    """Expected queue of an RSS action over `queues`: the device's indirection table holds
    the queues in order and is indexed by (hash mod 2^ceil(log2 n)) mod n."""
    def fn(p):
        n = len(queues)
        return queues[(hash_fn(p) & ((1 << (n - 1).bit_length()) - 1)) % n]
    return fn


class P:
    """One crafted packet of a case and what must become of it.

    pkt: a scapy packet starting with Ether (the harness sets its source MAC and
         appends the payload marker);
    queue: the Rx queue it must arrive on, ANY, or None (dropped);
    out: None (must arrive unchanged) or a function of the input packet (a scapy copy)
         returning the expected output packet;
    mark: None (not checked), NOMARK, FLAG or the MARK id reported on Rx;
    rss: None (not checked), NOHASH or the RSS hash reported on Rx (a function of the input
         packet, a scapy copy, may compute it);
    queue may also be such a function (e.g. of the RSS hash).
    """

    def __init__(self, pkt, queue=0, out=None, mark=None, rss=None, what=''):
        self.pkt = pkt
        self.queue = queue
        self.out = out
        self.mark = mark
        self.rss = rss
        self.what = what


class Case:
    """Rules and the packets that must (and must not) match them.

    rules: rte_flow rules as testpmd spells them after `flow create <port>`; `{g}` is the
        case's first group, `{g1}` .. `{g9}` the next ones, `{src[i]}` packet i's source MAC.
        An entry starting with `set ` or `flow ` is a testpmd command run in its place
        (`set vxlan`, `set raw_encap`, ... define what the following rules' encap/decap
        actions use, `flow indirect_action` the handles of their INDIRECT actions).
    egress: the case's packets enter NIC TX at the case's group (dispatch on egress);
        otherwise on ingress, with a catch-all to `fallback` at the lowest priority of `{g}`
        (fallback=None: no catch-all, an unmatched packet misses the group).
    counts: {rule index: [packet indices]} — `flow query` of that rule must count exactly
        those packets (hits, and bytes of the frames as sent); {rule index: ([packet
        indices], 'delivered')}: bytes of the frames as delivered.
    refused: [(rule, error type text, message)] — `flow create` must fail with that error.
    """

    def __init__(self, name, rules, pkts, egress=False, fallback=0, counts=None, refused=()):
        self.name = name
        self.rules = list(rules)
        self.pkts = list(pkts)
        self.egress = egress
        self.fallback = fallback
        self.counts = counts or {}
        self.refused = list(refused)


def rule_of(pattern, actions, egress=False):
    """One rule in the case's group: ingress ones end with QUEUE 1, egress ones go to the wire."""
    if egress:
        return 'egress group {g} pattern %s / end actions %s / end' % (pattern, actions)
    return 'ingress group {g} pattern %s / end actions %s / queue index 1 / end' % (pattern,
                                                                                 actions)


def rewrite_case(name, pattern, actions, hit, miss, out, egress=False):
    """A case of one rule with `actions` on `pattern`: packet `hit` comes out rewritten by
    `out` (on queue 1 when ingress), the `miss` packets unchanged (catch-all queue 0)."""
    q_hit, q_miss = (ANY, ANY) if egress else (1, 0)
    return Case(name, [rule_of(pattern, actions, egress)],
                [P(hit, q_hit, out=out)] + [P(m, q_miss) for m in miss], egress=egress)


RESULT = re.compile(r'^(Flow rule #(\d+) (created|destroyed)|Flow rule validated'
                    r'|port_flow_complain\(\): Caught PMD error type (\d+) \((.*?)\): '
                    r'(?:cause: 0x[0-9a-f]+, )?(.*)|COUNT:)')
COUNT_FIELD = re.compile(r'^\s+(hits|bytes): (\d+)')
# testpmd reads a command file silently: a command it cannot parse prints nothing at all.
# So every flow command is followed by this one, whose line delimits its output.
SEP_CMD = 'set fwd io'
SEP_LINE = 'Set io packet forwarding mode'
# The main thread prints "Telling cores to stop..." without a newline while the lcore may
# still print packets: a verbose line can start anywhere in a line.
VERBOSE_RX = re.compile(r'port (\d+)/queue (\d+): received (\d+) packets')
VERBOSE_PKT = re.compile(r'\bsrc=([0-9A-F:]{17}) - dst=')


class Script:
    """A testpmd command file in which each flow command's output can be told apart."""

    def __init__(self):
        self.cmds = [SEP_CMD]
        self.flows = []         # (chunk number, flow command)

    def plain(self, cmd):
        self.cmds.append(cmd)

    def flow(self, cmd):
        """Add a flow command; returns its index in results()."""
        self.flows.append((self.cmds.count(SEP_CMD), cmd))
        self.cmds += [cmd, SEP_CMD]
        return len(self.flows) - 1

    def results(self, output):
        """The result of each flow command, in order: a dict with kind 'created' (id),
        'destroyed' (id), 'validated', 'error' (etype, etext, message), 'count' (hits,
        bytes) or 'silent' (no result line: a syntax error, or a command such as
        `flow dump` that prints nothing when it works)."""
        chunks = {0: []}
        n = 0
        for line in output.splitlines():
            if line == SEP_LINE:
                n += 1
                chunks[n] = []
            else:
                chunks[n].append(line)
        return [parse_result(chunks.get(j, [])) for j, _ in self.flows]


def parse_result(lines):
    for i, line in enumerate(lines):
        m = RESULT.match(line)
        if not m:
            continue
        if m.group(2):
            return {'kind': m.group(3), 'id': int(m.group(2))}
        if line.startswith('Flow rule validated'):
            return {'kind': 'validated'}
        if m.group(4):
            return {'kind': 'error', 'etype': int(m.group(4)), 'etext': m.group(5),
                    'message': m.group(6)}
        r = {'kind': 'count'}
        for follow in lines[i + 1:i + 6]:
            cm = COUNT_FIELD.match(follow)
            if cm:
                r[cm.group(1)] = int(cm.group(2))
        return r
    return {'kind': 'silent'}


def verbose_rx(output, port):
    """{queue: [verbose line of each packet, in order]} of what `port` received.

    io forwarding sends each burst on in the order received, so the n-th line of a queue
    belongs to the n-th frame of that queue's output file.
    """
    seen = {}
    cur = None
    for line in output.splitlines():
        m = VERBOSE_RX.search(line)
        if m:
            cur = int(m.group(2)) if int(m.group(1)) == port else None
            continue
        # The main thread's lines may come in between (the lcore prints while it stops).
        m = VERBOSE_PKT.search(line)
        if m and cur is not None:
            seen.setdefault(cur, []).append(line)
    return seen


def mark_of(line):
    m = re.search(r'FDIR matched ID=0x([0-9a-f]+)', line)
    if m:
        return int(m.group(1), 16)
    if 'FDIR matched hash=' in line:
        return FLAG
    return NOMARK


def rss_of(line):
    m = re.search(r'RSS hash=0x([0-9a-f]+)', line)
    return int(m.group(1), 16) if m else NOHASH


def describe_error(r):
    if r['kind'] == 'error':
        return 'error type %d (%s): %s' % (r['etype'], r['etext'], r['message'])
    if r['kind'] == 'silent':
        return 'no output (a testpmd syntax error?)'
    return '%s %s' % (r['kind'], r.get('id', ''))


def error_matches(r, etext, message):
    """A refusal with the given rte_flow error type text and message (errno text after it)."""
    return (r['kind'] == 'error' and r['etext'] == etext and
            (r['message'] == message or r['message'].startswith(message + ': ')))


class Scenario:
    """Runs Cases through testpmd (one testpmd process per run()) and checks them."""

    def __init__(self, checker, testpmd, pmd, workdir=None):
        self.c = checker
        self.testpmd = testpmd
        self.pmd = pmd
        self.workdir = workdir
        self.outputs = []

    def _mac(self, k, i):
        return '02:00:00:00:%02x:%02x' % (k, i)

    def run(self, cases, queues=4, before_start=(), after=(), verbose=None, dump=None,
            app_args=(), first=()):
        """Run the cases in one testpmd; return (output, results of the `after` commands).

        first: testpmd commands run before any rule (`flow configure` on a stopped port);
        before_start: testpmd commands run after the rules, before forwarding starts (the
            results of the flow commands among them are left in self.before_results);
        after: flow commands run at the end (their results are returned, not checked);
        dump: a file for `flow dump <port> all` after the traffic.
        """
        from scapy.all import Ether, Raw  # scapy is slow to import: only when needed
        sc = Script()
        for cmd in first:
            sc.plain(cmd)
        frames, checks, queries = [], [], []
        nrules = []         # one entry per rule created so far: testpmd's rule ids
        for k, case in enumerate(cases, start=1):
            g = k * GROUP_STRIDE
            fmt = {'g': g, 'src': [self._mac(k, i) for i in range(len(case.pkts))]}
            fmt.update({'g%d' % d: g + d for d in range(1, GROUP_STRIDE)})
            direction = 'egress' if case.egress else 'ingress'

            def create(rule, what):
                checks.append((sc.flow('flow create %d %s' % (MLX5DM_PORT, rule)), case, what,
                               None))
                nrules.append(rule)
            create('%s group 0 pattern eth src spec %s src mask ff:ff:ff:ff:ff:00 / end '
                   'actions jump group %d / end' % (direction, self._mac(k, 0), g), 'dispatch')
            if not case.egress and case.fallback is not None:
                create('ingress group %d priority 16382 pattern end actions queue index %d / '
                       'end' % (g, case.fallback), 'catch-all')
            case.rule_ids = []
            for r in case.rules:
                if r.startswith(('set ', 'flow ')):
                    # testpmd keeps one encap/decap definition of each kind; a rule
                    # takes the one set before it.
                    sc.plain(r.format(**fmt))
                    case.rule_ids.append(None)
                    continue
                create(r.format(**fmt), r.format(**fmt))
                case.rule_ids.append(len(nrules) - 1)
            for r, etext, msg in case.refused:
                i = sc.flow('flow create %d %s' % (MLX5DM_PORT, r.format(**fmt)))
                checks.append((i, case, r.format(**fmt), (etext, msg)))
            case.sent = []
            for i, p in enumerate(case.pkts):
                pkt = p.pkt.copy()
                pkt[Ether].src = self._mac(k, i)
                raw = bytes(pkt / Raw(b'<mlx5dm %03d.%03d>' % (k, i)))
                case.sent.append(raw)
                frames.append(raw)
        if len(frames) > MAX_PACKETS:
            raise ValueError('%d packets: at most %d per run' % (len(frames), MAX_PACKETS))
        if verbose is None:
            verbose = any(p.mark is not None or p.rss is not None
                          for case in cases for p in case.pkts)
        before_ids = [sc.flow(cmd) if cmd.startswith('flow ') else sc.plain(cmd)
                      for cmd in before_start]
        if verbose:
            sc.plain('set verbose 1')
        # The device works beside testpmd: time to forward everything before the stop.
        for cmd in ('start', 'sleep 1', 'stop', 'show port xstats %d' % MLX5DM_PORT):
            sc.plain(cmd)
        for case in cases:
            for ri, idx in sorted(case.counts.items()):
                cmd = 'flow query %d %d count' % (MLX5DM_PORT, case.rule_ids[ri])
                queries.append((sc.flow(cmd), case, ri, idx))
        if dump:
            self.dump_result = sc.flow('flow dump %d all %s' % (MLX5DM_PORT, dump))
        after_ids = [sc.flow(cmd) for cmd in after]
        sc.plain('quit')

        out, per_queue, received = self._testpmd(sc.cmds, frames, queues, app_args)
        results = sc.results(out)
        # testpmd numbers the rules it created from 0 on, in order.
        created = 0
        for i, case, what, refusal in checks:
            r = results[i]
            if refusal is None:
                ok = r['kind'] == 'created' and r['id'] == created
                self.c.check('%s: rule created: %s' % (case.name, what), ok, describe_error(r))
                created += r['kind'] == 'created'
            else:
                self.c.check('%s: refused: %s -> %s: %s' % ((case.name, what) + refusal),
                             error_matches(r, *refusal), describe_error(r))
        for i, case, ri, idx in queries:
            if isinstance(idx, tuple):
                # bytes as delivered (a counter placed after a decap counts the inner frame)
                idx = idx[0]
                want = (len(idx), sum(len(self._expected(case, x)) for x in idx))
            else:
                want = (len(idx), sum(len(case.sent[x]) for x in idx))
            got = (results[i].get('hits'), results[i].get('bytes'))
            self.c.check('%s: rule %d counted %d packets, %d bytes' % ((case.name, ri) + want),
                         got == want, 'got %s' % (got,))
        self._check_packets(cases, received, out, verbose)
        self._check_counters(cases, out, per_queue)
        if dump:
            self.dump_result = results[self.dump_result]
        self.before_results = [results[i] for i in before_ids if i is not None]
        return out, [results[i] for i in after_ids]

    def _testpmd(self, cmds, frames, queues, app_args):
        """Run testpmd on the frames; (output, frames per queue, {(case, pkt): [(q, frame)]})."""
        with tempfile.TemporaryDirectory(prefix='mlx5dm_tp_', dir=self.workdir) as d:
            write_pcap(os.path.join(d, 'in.pcap'), frames)
            write_pcap(os.path.join(d, 'empty.pcap'), [])
            args = ['rx_pcap=%s' % os.path.join(d, 'in.pcap')]
            args += ['rx_pcap=%s' % os.path.join(d, 'empty.pcap')] * (queues - 1)
            args += ['tx_pcap=%s' % os.path.join(d, 'out%d.pcap' % q) for q in range(queues)]
            vdevs = ['net_pcap0,' + ','.join(args), 'net_mlx5dm0']
            rc, out = run_testpmd(self.testpmd, self.pmd, vdevs, cmds,
                                  app_args=['--port-topology=paired', '--no-flush-rx',
                                            '--burst=%d' % MAX_PACKETS,
                                            '--rxq=%d' % queues, '--txq=%d' % queues] +
                                  list(app_args), line_buffered=True)
            self.outputs.append(out)
            self.c.check('testpmd exited with status 0', rc == 0, 'status %d' % rc)
            received = {}
            per_queue = []
            for q in range(queues):
                path = os.path.join(d, 'out%d.pcap' % q)
                frames_q = read_pcap(path) if os.path.exists(path) else []
                per_queue.append(len(frames_q))
                for n, fr in enumerate(frames_q):
                    m = re.search(rb'<mlx5dm (\d{3})\.(\d{3})>$', fr)
                    key = (int(m.group(1)), int(m.group(2))) if m else None
                    received.setdefault(key, []).append((q, n, fr))
        return out, per_queue, received

    @staticmethod
    def _expected(case, i):
        from scapy.all import Ether
        p = case.pkts[i]
        return case.sent[i] if p.out is None else bytes(p.out(Ether(case.sent[i])))

    def _check_packets(self, cases, received, out, verbose):
        from scapy.all import Ether
        seen = verbose_rx(out, MLX5DM_PORT) if verbose else {}
        stray = received.pop(None, [])
        self.c.check('every received frame carries a marker', not stray,
                     '%d unmarked frames' % len(stray))
        for k, case in enumerate(cases, start=1):
            case.got = {}   # packet -> (queue, frame, verbose line or None) as delivered
            for i, p in enumerate(case.pkts):
                tag = '%s: packet %d%s' % (case.name, i, ' (%s)' % p.what if p.what else '')
                got = received.pop((k, i), [])
                if p.queue is None:
                    self.c.check('%s dropped' % tag, not got,
                                 'arrived on queue(s) %s' % [x[0] for x in got])
                    continue
                if len(got) != 1:
                    self.c.check('%s delivered once' % tag, False,
                                 'arrived %d times %s' % (len(got), [x[0] for x in got]))
                    continue
                q, n, fr = got[0]
                sent = Ether(case.sent[i])
                want_q = p.queue(sent.copy()) if callable(p.queue) else p.queue
                if want_q != ANY:
                    self.c.check('%s on queue %d' % (tag, want_q), q == want_q,
                                 'on queue %d' % q)
                want = self._expected(case, i)
                ok = fr == want
                detail = ''
                if not ok:
                    off = first_diff(fr, want)
                    detail = ('\n  first difference at byte %d\n  got:  %s\n  want: %s' %
                              (off, hexdump(fr), hexdump(want)))
                self.c.check('%s bytes %s' % (tag, 'unchanged' if p.out is None else 'rewritten'),
                             ok, detail)
                lines = seen.get(q, [])[n:n + 1]
                if lines and not (VERBOSE_PKT.search(lines[0]).group(1).lower() ==
                                  Ether(fr).src.lower() and
                                  'length=%d ' % len(fr) in lines[0]):
                    lines = []
                case.got[i] = (q, fr, lines[0] if lines else None)
                if (p.mark is not None or p.rss is not None) and not lines:
                    self.c.check('%s verbose line found' % tag, False, 'queue %d #%d' % (q, n))
                    continue
                if p.mark is not None:
                    marks = [mark_of(line) for line in lines]
                    self.c.check('%s mark %s' % (tag, p.mark if p.mark in (NOMARK, FLAG)
                                                 else '0x%x' % p.mark),
                                 marks == [p.mark], 'verbose says %s' % marks)
                if p.rss is not None:
                    want = p.rss(sent.copy()) if callable(p.rss) else p.rss
                    hashes = [rss_of(line) for line in lines]
                    self.c.check('%s RSS hash %s' % (tag, want if want == NOHASH
                                                     else '0x%x' % want),
                                 hashes == [want], 'verbose says %s' %
                                 ['0x%x' % h if h != NOHASH else h for h in hashes])
        self.c.check('no unexpected frames', not received,
                     'frames of %s' % sorted(received))

    def _check_counters(self, cases, out, per_queue):
        blocks = [xs for port, xs in parse_xstats(out) if port == MLX5DM_PORT]
        self.c.check('an xstats block of the mlx5dm port', len(blocks) == 1)
        if not blocks:
            return
        xs = blocks[0]
        for q, n in enumerate(per_queue):
            self.c.check('rx_q%d_packets == frames written for queue %d (%d)' % (q, q, n),
                         xs.get('rx_q%d_packets' % q, -1) == n,
                         'rx_q%d_packets=%s' % (q, xs.get('rx_q%d_packets' % q)))
        sent = sum(len(case.pkts) for case in cases)
        dropped = sum(1 for case in cases for p in case.pkts if p.queue is None)
        self.c.check('tx_q0_packets == frames sent (%d)' % sent,
                     xs.get('tx_q0_packets', -1) == sent, 'tx_q0_packets=%s' %
                     xs.get('tx_q0_packets'))
        received = sum(xs.get('rx_q%d_packets' % q, 0) for q in range(len(per_queue)))
        self.c.check('frames received == frames sent - packets that must drop (%d)' % dropped,
                     received == sent - dropped, 'received %d' % received)


def main(name, body, doc=''):
    """Command line of a scenario script: --testpmd, --pmd; body(scenario) runs the cases."""
    import argparse
    import sys
    from testpmd_harness import Checker
    ap = argparse.ArgumentParser(description=doc)
    ap.add_argument('--testpmd', required=True)
    ap.add_argument('--pmd', required=True)
    ap.add_argument('-v', '--verbose', action='store_true', help='print testpmd output')
    a = ap.parse_args()
    import importlib.util
    if importlib.util.find_spec('scapy') is None:
        print('%s: python3-scapy is needed (devtools/setup.sh installs it)' % name)
        sys.exit(1)
    c = Checker(name)
    s = Scenario(c, a.testpmd, a.pmd)
    body(s)
    if a.verbose:
        print('\n'.join(s.outputs))
    c.done('\n'.join(s.outputs))
