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
#   devtools/bench-flow-perf.sh [RULES]              default: 1000000
#   devtools/bench-flow-perf.sh --callgrind [RULES]  default: 20000
#
# Scenarios: --ingress --ipv4 --queue in groups 0 and 1 (flow-perf inserts
# group 1 rules after a group 0 rule jumping there), each plain, with
# --count and with --mark. One run per figure: on a shared machine, repeat
# the script rather than trusting one line. VDEV_ARGS=",k=v,..." adds
# devargs to the measured runs (not to the floor), e.g. ",doorbell_batch=1".
#
# --callgrind: instructions per rule instead of rates (valgrind, stable on a
# loaded machine), by layer: the ethdev call, the PMD entry, its
# translation, the steering library's rule create/destroy and, inside it,
# the send ring flush (the device model executing the rule's WQEs).
# PMD=path/to/librte_net_mlx5dm.so measures another build of the driver.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
mode=rates
if [ "${1:-}" = --callgrind ]; then
	mode=callgrind
	shift
fi
if [ $mode = callgrind ]; then
	rules=${1:-20000}
else
	rules=${1:-1000000}
fi
batch=$((rules / 10))
[ "$batch" -gt 0 ] || batch=$rules
"$top/devtools/setup.sh" build >/dev/null
ninja -C "$top/build" >/dev/null
pmd=${PMD:-$top/build/drivers/net/mlx5dm/librte_net_mlx5dm.so}
vdev_args=${VDEV_ARGS:-}
command -v dpdk-test-flow-perf >/dev/null || { echo "dpdk-test-flow-perf not found (dpdk-dev)"; exit 1; }
. "$top/devtools/pmd-load.sh"

if [ $mode = callgrind ]; then
	command -v valgrind >/dev/null || { echo "valgrind not found"; exit 1; }
	out=$(mktemp -d)
	trap 'rm -rf "$out"' EXIT
	echo "flow-perf under callgrind, $rules rules: instructions per rule"
	printf '%-24s %8s %8s %8s %8s %8s | %8s %8s %8s %8s\n' scenario \
		create pmd xlate lib flush destroy pmd lib flush
	for extra in "" --count --mark "--count --mark" --group=1; do
		name=${extra:-queue}
		# shellcheck disable=SC2086
		valgrind --tool=callgrind --callgrind-out-file="$out/cg" \
			dpdk-test-flow-perf --no-huge --no-pci --no-shconf -m 512 -l 0-1 \
			--log-level=lib.eal:error $load --vdev net_mlx5dm0 -- --ingress --ipv4 \
			--queue --rules-count="$rules" --rules-batch="$((rules / 2))" \
			--deletion-rate --total-mbuf-count=4096 $extra >/dev/null 2>&1 ||
			{ echo "$name: flow-perf failed"; continue; }
		callgrind_annotate --tree=calling --inclusive=yes "$out/cg" 2>/dev/null |
			python3 "$top/devtools/callgrind-layers.py" "$name" "$rules"
	done
	exit 0
fi

# Run a command, then print its peak RSS (KiB) on a line of its own.
with_rss() {
	python3 -c 'import resource, subprocess, sys
r = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
sys.stdout.write(r.stdout)
print("peak_rss_kib %d" % resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
sys.exit(r.returncode)' "$@"
}

# run VDEV ARGS...: prints "insert_krate delete_krate peak_rss_kib" (rates in K rules/s).
run() {
	vdev=$1
	shift
	out=$(with_rss dpdk-test-flow-perf --no-huge --no-pci --no-shconf -m 1024 -l 0-1 \
		--log-level=lib.eal:error $load --vdev "$vdev" -- \
		--ingress --ipv4 --queue --rules-count="$rules" --rules-batch="$batch" \
		--deletion-rate --total-mbuf-count=4096 "$@" 2>&1) || {
		echo "$out" | tail -5 >&2
		echo "- - -"
		return
	}
	ins=$(echo "$out" | sed -n 's/.*Core 0 :: Rules insertion rate -> \([0-9.]*\) K.*/\1/p')
	del=$(echo "$out" | sed -n 's/.*Core 0 :: Rules deletion rate -> \([0-9.]*\) K.*/\1/p')
	rss=$(echo "$out" | sed -n 's/^peak_rss_kib \([0-9]*\)$/\1/p')
	echo "${ins:--} ${del:--} ${rss:--}"
}

# The warm runs: memory for the rules' state populated at probe (about 800
# bytes per rule, at least 64 MiB) and the model's ICM resident from the start.
reserve_mb=$((rules * 800 / 1048576))
[ "$reserve_mb" -ge 64 ] || reserve_mb=64
warm_args=",mem_reserve=$reserve_mb,sim_icm_populate=1"
echo "flow-perf, $rules rules, 1 core, net_mlx5dm on the device model"
echo "rates in M rules/s; floor = the same command with flow_engine=null (handles only)"
echo "warm = the same command with devargs $warm_args"
echo "B/rule = (peak RSS - peak RSS of the floor without populate-ahead) / rules: host memory"
echo "  the rules took (default devargs: with what the populate-ahead thread backed past their"
echo "  use; the floor's own run holds its mem_ahead_start memory too, unused)"
printf '%-24s %9s %9s %9s %9s %9s %9s %7s\n' scenario insert warm floor delete warm floor \
	B/rule
for group in 0 1; do
	for extra in "" --count --mark; do
		name="group $group${extra:+ $extra}"
		set -- "--group=$group"
		[ -z "$extra" ] || set -- "$@" "$extra"
		real=$(run "net_mlx5dm0$vdev_args" "$@")
		warm=$(run "net_mlx5dm0$vdev_args$warm_args" "$@")
		floor=$(run net_mlx5dm0,flow_engine=null "$@")
		bare=$(run net_mlx5dm0,flow_engine=null,mem_ahead=0,sim_icm_populate=0 "$@")
		echo "$real $warm $floor $bare" | awk -v n="$name" -v r="$rules" '
			function m(k) { return k == "-" ? "-" : sprintf("%.3f", k / 1000) }
			function b(x, y) { return x == "-" || y == "-" ? "-" : sprintf("%d", (x - y) * 1024 / r) }
			{ printf "%-24s %9s %9s %9s %9s %9s %9s %7s\n", n, m($1), m($4), m($7),
			  m($2), m($5), m($8), b($3, $12) }'
	done
done
echo "targets (issue 6): insertion >= 2 M/s, deletion >= 3 M/s"
# Context: every byte of new state costs a first touch (kernel page clearing,
# and on a VM with free page reporting a host fault per page).
python3 "$top/devtools/mem-touch-rate.py" 256 | awk '{ printf "memory first touch on this machine: %s GB/s fresh, %s GB/s just-freed pages\n", $1, $2 }'
