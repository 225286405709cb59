#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5dm authors
#
# Benchmark (never part of the test suites): rte_flow insertion and deletion
# rates of net_mlx5dm on the device model, measured by the stock
# dpdk-test-flow-perf on one core, next to the harness floor measured in the
# same run: the same flow-perf command on the driver's handle-only path
# (devarg flow_engine=null: create/destroy only take/return a handle). Each
# scenario runs with EAL hugepages (when enough are free: devtools/setup.sh
# reserves them) and with --no-huge, in the same run: the driver's memory is
# the DPDK heap's. An unmeasured hugepage run comes first (warm-up).
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
# translation, the steering library's rule create/destroy and, inside the
# create, the moves of entries from grown tables to their new heads; the
# send ring flush inside each; last, the device model's thread (which
# executes the WQEs beside the caller) per operation, creates and destroys.
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
	printf '%-24s %8s %8s %8s %8s %8s %8s | %8s %8s %8s %8s | %8s\n' scenario \
		create pmd xlate lib moves flush destroy pmd lib flush device
	for extra in "" --count --mark "--count --mark" --group=1; do
		name=${extra:-queue}
		# shellcheck disable=SC2086
		valgrind --tool=callgrind --callgrind-out-file="$out/cg" \
			dpdk-test-flow-perf --no-huge --no-pci --no-shconf -m 1024 -l 0-1 \
			--log-level=lib.eal:error $load --vdev net_mlx5dm0 -- --ingress --ipv4 \
			--queue --rules-count="$rules" --rules-batch="$((rules / 2))" \
			--deletion-rate --total-mbuf-count=4096 $extra >/dev/null 2>&1 ||
			{ echo "$name: flow-perf failed"; continue; }
		# Outside the tree: run from it, callgrind_annotate splits each
		# function between its build/.. and its absolute path.
		(cd "$out" && callgrind_annotate --tree=calling --inclusive=yes cg) 2>/dev/null |
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

# The EAL memory options of a run: hugepages (the heap grows as it needs), or
# --no-huge with a heap large enough for the rules' records and handles.
eal_mem() {
	if [ "$1" = huge ]; then
		echo "--in-memory"
	else
		echo "--no-huge --no-shconf -m $((512 + rules / 500))"
	fi
}

# run MEM VDEV ARGS...: prints "insert_krate delete_krate peak_rss_kib" (rates in K rules/s).
run() {
	mem=$1
	vdev=$2
	shift 2
	# shellcheck disable=SC2046,SC2086
	out=$(with_rss dpdk-test-flow-perf $(eal_mem "$mem") --no-pci -l 0-1 \
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

# Free hugepages for the DPDK heap and the model's ICM (some 700 MiB at a million rules).
hp=$(cat /sys/kernel/mm/hugepages/hugepages-2048kB/free_hugepages 2>/dev/null || echo 0)
huge=1
[ "$hp" -ge 512 ] || huge=0
echo "flow-perf, $rules rules, 1 core, net_mlx5dm on the device model"
echo "rates in M rules/s: huge = with EAL hugepages, no-huge = with --no-huge;"
echo "  floor = the same command with flow_engine=null (handles only), --no-huge"
[ $huge = 1 ] ||
	echo "  ($hp free hugepages of 2 MiB, fewer than 512: no hugepage runs; see devtools/setup.sh)"
echo "B/rule = (peak RSS of the no-huge run - peak RSS of the floor) / rules: host memory the"
echo "  rules took"
printf '%-20s %11s %9s %9s %11s %9s %9s %7s\n' scenario insert:huge no-huge floor \
	delete:huge no-huge floor B/rule
# One unmeasured hugepage run first: on a VM the host backs a hugepage only
# when the guest first touches it, and the reserved pages stay the guest's
# after that, so the first scenario would pay what none of the others does.
[ $huge = 0 ] || run huge "net_mlx5dm0$vdev_args" --group=0 >/dev/null
for group in 0 1; do
	for extra in "" --count --mark; do
		name="group $group${extra:+ $extra}"
		set -- "--group=$group"
		[ -z "$extra" ] || set -- "$@" "$extra"
		hr="- - -"
		[ $huge = 0 ] || hr=$(run huge "net_mlx5dm0$vdev_args" "$@")
		nr=$(run nohuge "net_mlx5dm0$vdev_args" "$@")
		floor=$(run nohuge net_mlx5dm0,flow_engine=null "$@")
		echo "$hr $nr $floor" | awk -v n="$name" -v r="$rules" '
			function m(k) { return k == "-" ? "-" : sprintf("%.3f", k / 1000) }
			function b(x, y) { return x == "-" || y == "-" ? "-" : sprintf("%d", (x - y) * 1024 / r) }
			{ printf "%-20s %11s %9s %9s %11s %9s %9s %7s\n", n, m($1), m($4), m($7),
			  m($2), m($5), m($8), b($6, $9) }'
	done
done
echo "targets (issue 22): with hugepages, insertion >= 2 M/s, deletion >= 3 M/s"
# Context: every byte of new state costs a first touch (kernel page clearing,
# and on a VM with free page reporting a host fault per page).
python3 "$top/devtools/mem-touch-rate.py" 256 | awk '{ printf "memory first touch on this machine: %s GB/s fresh, %s GB/s just-freed pages\n", $1, $2 }'
