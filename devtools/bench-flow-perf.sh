#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5dm authors
#
# Benchmark (never part of the test suites): rte_flow insertion and deletion
# rates of net_mlx5dm on the device model, measured by the stock
# dpdk-test-flow-perf on one core, next to the harness floor measured in the
# same run: the same flow-perf command on the driver's handle-only path
# (devarg flow_engine=null: create/destroy only take/return a handle).
#
#   devtools/bench-flow-perf.sh [RULES]        default: 1000000
#
# Scenarios: --ingress --ipv4 --queue in groups 0 and 1 (flow-perf inserts
# group 1 rules after a group 0 rule jumping there), each plain, with
# --count and with --mark. One run per figure: on a shared machine, repeat
# the script rather than trusting one line.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
rules=${1:-1000000}
batch=$((rules / 10))
[ "$batch" -gt 0 ] || batch=$rules
"$top/devtools/setup.sh" build >/dev/null
ninja -C "$top/build" >/dev/null
pmd=$top/build/drivers/net/mlx5dm/librte_net_mlx5dm.so
command -v dpdk-test-flow-perf >/dev/null || { echo "dpdk-test-flow-perf not found (dpdk-dev)"; exit 1; }

# run VDEV ARGS...: prints "insert_krate delete_krate bytes" (rates in K rules/s).
run() {
	vdev=$1
	shift
	out=$(dpdk-test-flow-perf --no-huge --no-pci --no-shconf -m 1024 -l 0-1 \
		--log-level=lib.eal:error -d "$pmd" --vdev "$vdev" -- \
		--ingress --ipv4 --queue --rules-count="$rules" --rules-batch="$batch" \
		--deletion-rate --total-mbuf-count=4096 "$@" 2>&1) || {
		echo "$out" | tail -5 >&2
		echo "- - -"
		return
	}
	ins=$(echo "$out" | sed -n 's/.*Core 0 :: Rules insertion rate -> \([0-9.]*\) K.*/\1/p')
	del=$(echo "$out" | sed -n 's/.*Core 0 :: Rules deletion rate -> \([0-9.]*\) K.*/\1/p')
	mem=$(echo "$out" | sed -n 's/.*rte_flow size in DPDK layer: \([0-9]*\) Bytes.*/\1/p')
	echo "${ins:--} ${del:--} ${mem:--}"
}

echo "flow-perf, $rules rules, 1 core, net_mlx5dm on the device model"
echo "rates in M rules/s; floor = the same command with flow_engine=null (handles only)"
printf '%-24s %9s %9s %9s %9s\n' scenario insert floor delete floor
for group in 0 1; do
	for extra in "" --count --mark; do
		name="group $group${extra:+ $extra}"
		set -- "--group=$group"
		[ -z "$extra" ] || set -- "$@" "$extra"
		real=$(run net_mlx5dm0 "$@")
		floor=$(run net_mlx5dm0,flow_engine=null "$@")
		echo "$real $floor" | awk -v n="$name" '
			function m(k) { return k == "-" ? "-" : sprintf("%.3f", k / 1000) }
			{ printf "%-24s %9s %9s %9s %9s\n", n, m($1), m($4), m($2), m($5) }'
	done
done
echo "targets (issue 6): insertion >= 2 M/s, deletion >= 3 M/s"
