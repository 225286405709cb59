#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5dm authors
"""`flow dump <port> all <file>` from the stock testpmd: the steering dump of both domains.

Rules using every action the dump has a record for (doc/guides/steering_dump.rst) are
created and traffic goes through them; then testpmd writes the dump, which must:
  * pass app/test/steer/check_dump_format.py (the format as rdma-core writes it and
    mlx_steering_dump reads it: record types and field counts, nesting, RX/TX sides,
    lookup types of each rule's STEs, jump targets), including its self test;
  * hold one NIC RX and one NIC TX domain, a table per group used (level = group + 1), and
    the records of each action kind used (encap L2/L3, modify header, drop, jump, counter,
    flow tag, decap L2/L3, TIR, push and pop VLAN);
  * carry the PMD's records as DPDK's mlx5 writes them: each VXLAN_ENCAP header (4410:
    over IPv4, behind a VLAN tag, over IPv6) under the id of its encap action, byte for
    byte as scapy builds it, none for the GRE
    encap (the parser reads VXLAN headers only), the modify-header actions (4420) in
    PRM format (SET DIPV4 = 0x1016_0000, then the address), and each counted rule's
    counter (4430): the one packet it matched, with that packet's length;
  * with MLX_STEERING_DUMP_SWS=<mlx_steering_dump/sws> in the environment, be read by
    NVIDIA's parser (rule and tree views) without an error.
`flow dump <port> rule N <file>` (the first ingress rules) dumps one flow as DPDK's mlx5 does:
the PMD records of what it uses (the counted rule's 4430, the rewrite's 4420), then its rules
(3300), their STEs and actions, each line as in the full dump.
See testpmd_pcap.py for the topology.
"""

import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from testpmd_pcap import (ANY, MLX5DM_PORT, Case, P, describe_error,  # noqa: E402
                          error_matches, main, setf)

from scapy.all import GRE, IP, UDP, VXLAN, Dot1AD, Dot1Q, Ether, IPv6  # noqa: E402

CHECKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'steer',
                       'check_dump_format.py')
E = Ether(dst='00:11:22:33:44:55')
OUTER = 'eth-src 0a:00:00:00:00:01 eth-dst 0a:00:00:00:00:02'

# Action record type -> what produces it below.
ACTION_RECORDS = {
    '3400': 'encap L2 (VXLAN_ENCAP)', '3401': 'encap L3 (RAW_DECAP + RAW_ENCAP, egress)',
    '3402': 'modify header', '3403': 'drop', '3405': 'jump', '3406': 'counter',
    '3407': 'flow tag (MARK)', '3409': 'L2 decap (VXLAN_DECAP)',
    '3410': 'L3 decap (RAW_DECAP + RAW_ENCAP, ingress)', '3411': 'TIR (QUEUE, RSS)',
    '3412': 'push VLAN', '3413': 'pop VLAN',
}


def to(dst):
    return E / IP(src='10.0.0.1', dst=dst) / UDP(sport=1, dport=2)


def cases():
    vx = (Ether(src='0a:00:00:00:00:01', dst='0a:00:00:00:00:02') / IP(dst='172.16.0.2') /
          UDP(sport=5000, dport=4789) / VXLAN(vni=9) / to('10.0.0.2'))
    gre = (Ether(src='0a:00:00:00:00:01', dst='0a:00:00:00:00:02') / IP(dst='172.16.0.2') /
           GRE(proto=0x0800) / IP(src='10.0.0.1', dst='10.0.0.2') / UDP())
    return [
        Case('ingress kinds', [
            'ingress group {g} pattern eth / ipv4 dst is 10.0.0.2 / end '
            'actions count / mark id 3 / queue index 1 / end',
            'ingress group {g} pattern eth / ipv4 dst is 10.0.0.3 / end actions drop / end',
            'ingress group {g} pattern eth / ipv4 dst is 10.0.0.4 / end '
            'actions set_ipv4_dst ipv4_addr 10.9.9.9 / jump group {g1} / end',
            'ingress group {g1} pattern eth / ipv4 / udp / end '
            'actions rss types ipv4-udp end queues 2 3 end / end',
            'ingress group {g} pattern eth / vlan vid is 5 / ipv4 / end '
            'actions of_pop_vlan / queue index 2 / end',
            'ingress group {g} pattern eth / ipv4 dst is 10.0.0.6 / end actions '
            'of_push_vlan ethertype 0x8100 / of_set_vlan_vid vlan_vid 7 / queue index 3 / end',
            'ingress group {g} pattern eth / ipv4 / udp / vxlan vni is 9 / end '
            'actions vxlan_decap / queue index 1 / end',
            'set raw_decap 3 eth / ipv4 / gre / end_set',
            'set raw_encap 3 eth src is 0e:00:00:00:00:01 dst is 0e:00:00:00:00:02 '
            'type is 0x0800 / end_set',
            'ingress group {g} pattern eth / ipv4 / gre / end '
            'actions raw_decap index 3 / raw_encap index 3 / queue index 2 / end'],
            [P(to('10.0.0.2'), 1, mark=3), P(to('10.0.0.3'), None),
             P(to('10.0.0.4'), ANY, out=setf(IP, dst='10.9.9.9')),
             P(E / Dot1Q(vlan=5) / IP() / UDP(), 2,
               out=lambda p: Ether(dst=p.dst, src=p.src) / p[IP]),
             P(to('10.0.0.6'), 3, out=lambda p: Ether(dst=p.dst, src=p.src) / Dot1Q(vlan=7) /
               p[IP]),
             P(vx, 1, out=lambda p: p[VXLAN].payload),
             P(gre, 2, out=lambda p: Ether(src='0e:00:00:00:00:01', dst='0e:00:00:00:00:02') /
               p[GRE].payload),
             P(to('10.0.0.9'), 0)], counts={0: [0]}),
        Case('egress kinds', [
            'set vxlan ip-version ipv4 vni 4 udp-src 4000 udp-dst 4789 ip-src 172.16.0.1 '
            'ip-dst 172.16.0.2 ' + OUTER,
            'egress group {g} pattern eth / ipv4 dst is 10.0.0.2 / end '
            'actions count / vxlan_encap / end',
            'set raw_decap 2 eth / end_set',
            'set raw_encap 2 eth src is 0a:00:00:00:00:01 dst is 0a:00:00:00:00:02 / ipv4 '
            'src is 172.16.0.1 dst is 172.16.0.2 ttl is 64 / gre protocol is 0x0800 / end_set',
            'egress group {g} pattern eth / ipv4 dst is 10.0.0.3 / end '
            'actions raw_decap index 2 / raw_encap index 2 / end',
            'egress group {g} pattern eth / ipv4 dst is 10.0.0.4 / end '
            'actions of_push_vlan ethertype 0x88a8 / of_set_vlan_vid vlan_vid 8 / '
            'jump group {g2} / end',
            'egress group {g2} pattern eth / end actions set_mac_dst mac_addr '
            '00:11:22:33:44:66 / end',
            'egress group {g} pattern eth / ipv4 dst is 10.0.0.5 / end actions drop / end'],
            [P(to('10.0.0.2'), ANY, out=lambda p: Ether(src='0a:00:00:00:00:01',
                                                       dst='0a:00:00:00:00:02') /
               IP(src='172.16.0.1', dst='172.16.0.2', id=0, flags=0, ttl=64) /
               UDP(sport=4000, dport=4789, chksum=0) / VXLAN(vni=4, flags=0x08) / p),
             P(to('10.0.0.3'), ANY, out=lambda p: Ether(src='0a:00:00:00:00:01',
                                                       dst='0a:00:00:00:00:02') /
               IP(src='172.16.0.1', dst='172.16.0.2', id=0, flags=0, ttl=64) /
               GRE(proto=0x0800) / p[IP]),
             P(to('10.0.0.4'), ANY, out=lambda p: Ether(dst='00:11:22:33:44:66', src=p.src) /
               Dot1AD(vlan=8) / p[IP]),
             P(to('10.0.0.5'), None), P(to('10.0.0.6'), ANY)], egress=True, counts={1: [0]}),
        # The 4410 record's VXLAN header behind a VLAN tag and over IPv6 (testpmd keeps one
        # VXLAN definition: each rule takes the one set before it).
        Case('egress vxlan behind a vlan and over ipv6', [
            'set vxlan-with-vlan ip-version ipv4 vni 5 udp-src 5001 udp-dst 4789 '
            'ip-src 172.16.0.1 ip-dst 172.16.0.2 vlan-tci 0x6064 ' + OUTER,
            'egress group {g} pattern eth / ipv4 dst is 10.0.0.2 / end actions vxlan_encap / end',
            'set vxlan ip-version ipv6 vni 77 udp-src 6000 udp-dst 4789 ip-src 2001:db8::a '
            'ip-dst 2001:db8::b ' + OUTER,
            'egress group {g} pattern eth / ipv4 dst is 10.0.0.3 / end actions vxlan_encap / end'],
            [P(to('10.0.0.2'), ANY, out=lambda p: VLAN_HDR_PKT / p),
             P(to('10.0.0.3'), ANY, out=lambda p: VXLAN6_HDR_PKT / p)], egress=True),
    ]


def records(text):
    return [line.split(',') for line in text.splitlines() if line]


# The egress VXLAN_ENCAP header of 'egress kinds' (lengths and checksums left 0 for the device).
VXLAN_HDR = bytes(Ether(src='0a:00:00:00:00:01', dst='0a:00:00:00:00:02') /
                  IP(src='172.16.0.1', dst='172.16.0.2', id=0, flags=0, ttl=64, len=0,
                     chksum=0) /
                  UDP(sport=4000, dport=4789, len=0, chksum=0) / VXLAN(vni=4, flags=0x08))
# The third case's: behind a VLAN tag, and over IPv6 (testpmd leaves the hop limit 0: the
# PMD's default is 255). As sent: lengths and checksums filled by scapy; in the record: 0.
O_ETH = Ether(src='0a:00:00:00:00:01', dst='0a:00:00:00:00:02')
VLAN_HDR_PKT = (O_ETH / Dot1Q(prio=3, vlan=100) /
                IP(src='172.16.0.1', dst='172.16.0.2', ttl=64, id=0, flags=0) /
                UDP(sport=5001, dport=4789, chksum=0) / VXLAN(vni=5, flags=0x08))
VXLAN6_HDR_PKT = (O_ETH / IPv6(src='2001:db8::a', dst='2001:db8::b', hlim=255) /
                  UDP(sport=6000, dport=4789, chksum=0) / VXLAN(vni=77, flags=0x08))
VLAN_HDR = bytes(O_ETH / Dot1Q(prio=3, vlan=100) /
                 IP(src='172.16.0.1', dst='172.16.0.2', ttl=64, id=0, flags=0, len=0,
                    chksum=0) /
                 UDP(sport=5001, dport=4789, len=0, chksum=0) / VXLAN(vni=5, flags=0x08))
VXLAN6_HDR = bytes(O_ETH / IPv6(src='2001:db8::a', dst='2001:db8::b', hlim=255, plen=0) /
                   UDP(sport=6000, dport=4789, len=0, chksum=0) / VXLAN(vni=77, flags=0x08))
# set_ipv4_dst 10.9.9.9: SET (1) of DIPV4 (0x16), all 32 bits (length 0).
SET_DIPV4 = bytes.fromhex('10160000') + bytes([10, 9, 9, 9])


def check_pmd_records(s, recs, counted):
    encap = {r[1] for r in recs if r[0] == '3400'}
    encap_l3 = {r[1] for r in recs if r[0] == '3401'}
    modify = {r[1] for r in recs if r[0] == '3402'}
    hdrs = {r[1]: bytes.fromhex(r[2]) for r in recs if r[0] == '4410'}
    mods = {r[1]: (int(r[2]), bytes.fromhex(r[3])) for r in recs if r[0] == '4420'}
    s.c.check('4410 record of the VXLAN encap action', sorted(hdrs) == sorted(encap),
              '4410 ids %s, 3400 ids %s' % (sorted(hdrs), sorted(encap)))
    want = [VXLAN_HDR, VLAN_HDR, VXLAN6_HDR]
    s.c.check('4410 holds each VXLAN header (IPv4, behind a VLAN tag, over IPv6)',
              sorted(hdrs.values()) == sorted(want),
              'got %s, expected %s' % ([h.hex() for h in hdrs.values()],
                                       [h.hex() for h in want]))
    s.c.check('no 4410 record of the GRE encap', not encap_l3 & set(hdrs), sorted(hdrs))
    s.c.check('a 4420 record per modify-header action', sorted(mods) == sorted(modify),
              '4420 ids %s, 3402 ids %s' % (sorted(mods), sorted(modify)))
    s.c.check('4420 holds SET DIPV4 10.9.9.9', (1, SET_DIPV4) in mods.values(),
              '%s' % [(n, d.hex()) for n, d in mods.values()])
    ctrs = {r[1] for r in recs if r[0] == '3406'}
    cnts = {r[1]: (int(r[2]), int(r[3])) for r in recs if r[0] == '4430'}
    s.c.check('a 4430 record per counter action', sorted(cnts) == sorted(ctrs),
              '4430 ids %s, 3406 ids %s' % (sorted(cnts), sorted(ctrs)))
    s.c.check('4430 counts: one packet per counted rule, its bytes',
              sorted(cnts.values()) == sorted(counted),
              'got %s, expected %s' % (sorted(cnts.values()), sorted(counted)))


def check_dump(s, text, path, counted):
    recs = records(text)
    kinds = {r[0] for r in recs}
    domains = [r for r in recs if r[0] == '3000']
    s.c.check('two domains: NIC RX and NIC TX',
              sorted(r[2] for r in domains) == ['0', '1'], '%s' % [r[:3] for r in domains])
    for rec, what in sorted(ACTION_RECORDS.items()):
        s.c.check('dump has %s records (%s)' % (rec, what), rec in kinds)
    # A table per group: case 1 uses ingress groups 10 and 11, case 2 egress 20 and 22.
    tables = {(r[3], int(r[4])) for r in recs if r[0] == '3100'}
    for dom, group in (('0', 0), ('0', 10), ('0', 11), ('1', 0), ('1', 20), ('1', 22)):
        s.c.check('table of %s group %d (level %d)' % ('RX' if dom == '0' else 'TX', group,
                                                       group + 1),
                  (dom, group + 1) in tables, 'tables: %s' % sorted(tables))
    check_pmd_records(s, recs, counted)
    p = subprocess.run([sys.executable, CHECKER, '--self-test', path], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, universal_newlines=True, check=False)
    s.c.check('check_dump_format.py accepts the dump', p.returncode == 0, '\n' + p.stdout)
    print(p.stdout.strip())
    if os.environ.get('MLX_STEERING_DUMP_SWS'):
        s.c.check('mlx_steering_dump read it', 'mlx_steering_dump:' in p.stdout, p.stdout)
    else:
        print('(MLX_STEERING_DUMP_SWS not set: NVIDIA\'s mlx_steering_dump not run)')


# Flows 0.. of the port: the ingress case's dispatch and catch-all rules, then its rules.
ONE_FLOWS = 8


def check_one_flow(s, n, one, full):
    """A single flow's dump: its rules' lines are the full dump's, PMD records first."""
    recs = records(one)
    rules = {r[1] for r in recs if r[0] == '3300'}
    steering = [line for line in one.splitlines() if line[:2] in ('33', '34')]
    pmd = [r for r in recs if r[0].startswith('44')]
    s.c.check('flow %d: at least one rule record' % n, len(rules) >= 1, one[:300])
    s.c.check('flow %d: only PMD, rule, STE and action records' % n,
              all(r[0][:2] in ('33', '34', '44') for r in recs), one[:300])
    s.c.check('flow %d: PMD records first' % n,
              [r[0][:2] for r in recs] == sorted([r[0][:2] for r in recs], key=lambda t: t != '44'),
              one[:300])
    s.c.check('flow %d: STEs and actions name its rules' % n,
              all(r[2] in rules for r in recs if r[0] in ('3303', '3304') or r[0][:2] == '34'),
              one[:300])
    s.c.check('flow %d: each STE record per rule, at least one' % n,
              all(any(r[0] in ('3303', '3304') and r[2] == x for r in recs) for x in rules))
    full_lines = set(full.splitlines())
    s.c.check('flow %d: its rule lines are those of the full dump' % n,
              all(line in full_lines for line in steering),
              [line for line in steering if line not in full_lines][:3])
    acts = {r[1] for r in recs if r[0][:2] == '34'}
    s.c.check('flow %d: PMD records name its actions' % n, all(r[1] in acts for r in pmd),
              '%s / %s' % ([r[:2] for r in pmd], sorted(acts)))


def body(s):
    fd, path = tempfile.mkstemp(prefix='mlx5dm_dump_', suffix='.csv')
    os.close(fd)
    singles = ['%s.%d' % (path, n) for n in range(ONE_FLOWS)]
    try:
        cs = cases()
        _, after = s.run(cs, dump=path,
                         after=['flow dump %d rule %d %s' % (MLX5DM_PORT, n, f)
                                for n, f in enumerate(singles)])
        s.c.check('flow dump all: no error', s.dump_result['kind'] == 'silent',
                  describe_error(s.dump_result))
        with open(path) as f:
            text = f.read()
        # The counted rules: packet 0 of each case (ingress: before any rewrite; egress:
        # before the encap, counters counting what the rule matched).
        check_dump(s, text, path, [(1, len(c.sent[0])) for c in cs if c.counts])
        kinds = set()
        for n, f in enumerate(singles):
            s.c.check('flow dump rule %d: no error' % n, after[n]['kind'] == 'silent',
                      describe_error(after[n]))
            one = open(f).read() if os.path.exists(f) else ''
            check_one_flow(s, n, one, text)
            kinds |= {r[0] for r in records(one)}
        s.c.check('single-flow dumps: a counter (4430) and a modify header (4420) among them',
                  {'4430', '4420'} <= kinds, sorted(kinds))
    finally:
        for f in [path] + singles:
            if os.path.exists(f):
                os.unlink(f)


if __name__ == '__main__':
    main('testpmd_flow_dump', body, __doc__)
