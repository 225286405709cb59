#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5dm authors
#
# Benchmark (never part of the test suites): rte_flow insertion with a
# unique action value per rule next to the same rules sharing one value,
# on the device model, one core. Caches of actions, action sets or groups
# that do not grow with their contents make the unique runs slow down with
# the square of the rule count; the ratio shared / unique shows it (the
# target is at most 2 at every size).
#
#   devtools/bench-unique.sh [RULES...]     default: 10000 100000 1000000
#
# Per size:
#  - mlx5dm-bench-flow-unique (app/bench/bench_flow_unique.c): ingress
#    `eth / ipv4 src is i` rules with a MARK id (the OVS offload pattern,
#    mark = flow id), a set_ipv4_src value, an egress VXLAN encap header
#    (65536 distinct at most) or a jump to a group (40 000 distinct at
#    most) per rule, next to one value for all; dpdk-test-flow-perf cannot
#    vary MARK ids (they cycle through 1..255 with or without --unique-data);
#  - the stock dpdk-test-flow-perf, `--egress --ipv4 --set-src-ipv4`, with
#    and without --unique-data (the modified address is the rule's counter
#    plus one, or 1).
# Rates in rules/s. One run per figure: on a shared machine repeat the
# script rather than trusting one line.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
"$top/devtools/setup.sh" build >/dev/null
ninja -C "$top/build" >/dev/null
bench="$top/build/app/bench/mlx5dm-bench-flow-unique"
pmd=${PMD:-$top/build/drivers/net/mlx5dm/librte_net_mlx5dm.so}
[ $# -gt 0 ] || set -- 10000 100000 1000000
command -v dpdk-test-flow-perf >/dev/null || { echo "dpdk-test-flow-perf not found (dpdk-dev)"; exit 1; }
. "$top/devtools/pmd-load.sh"
eal="--no-huge --no-pci --no-shconf -m 1024 -l 0-1 --log-level=lib.eal:error --log-level=pmd.*:crit"

# flow-perf insertion rate (rules/s) of its egress set_ipv4_src rules; extra flags in $@.
flowperf() {
	n=$1
	shift
	# shellcheck disable=SC2086
	out=$(dpdk-test-flow-perf $eal $load --vdev net_mlx5dm0 -- --egress --ipv4 \
		--set-src-ipv4 --rules-count="$n" --rules-batch="$n" \
		--total-mbuf-count=4096 "$@" 2>&1) || { echo "-"; return; }
	k=$(echo "$out" | sed -n 's/.*Core 0 :: Rules insertion rate -> \([0-9.]*\) K.*/\1/p')
	[ -n "$k" ] && awk -v k="$k" 'BEGIN { printf "%.0f", k * 1000 }' || echo "-"
}

echo "rte_flow insertion, unique action value per rule vs one shared value (net_mlx5dm, model)"
printf '%-16s %9s %12s %12s %7s\n' kind rules shared/s unique/s ratio
for n in "$@"; do
	# shellcheck disable=SC2086
	"$bench" $eal $load --vdev net_mlx5dm0 -- --rules "$n" 2>/dev/null | tail -n +2
	shared=$(flowperf "$n")
	unique=$(flowperf "$n" --unique-data)
	echo "$shared $unique" | awk -v n="$n" '{
		r = ($1 == "-" || $2 == "-" || $2 == 0) ? "-" : sprintf("%.2f", $1 / $2)
		printf "%-16s %9s %12s %12s %7s\n", "flow-perf modify", n, $1, $2, r }'
done
echo "target: ratio <= 2 at every size"
