#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5dm authors
#
# Benchmark (never part of the test suites): the template and asynchronous
# rte_flow API of net_mlx5dm on the device model. mlx5dm-bench-flow-async
# (app/bench/bench_flow_async.c) inserts RULES 5-tuple rules into one
# template table of group 1 sized for them, on 1 and on 2 lcores (one flow
# queue of 1024 each), then destroys them the same way, keeping the queue
# deep as an asynchronous application does: a push every 32 operations and
# one pull of what the device has executed, more pulls only when the queue
# could not take the next batch. Per line: insertion and deletion rates,
# the latency of one rte_flow_async_create() call (p50, p99, p99.9, the
# worst), the mean and worst push + pulls, ICM and host bytes per rule,
# and the floor of the same run: rte_hash inserts and deletes of the same
# keys, bytes per key.
# Each size runs with EAL hugepages (when 1024 are free: devtools/setup.sh
# reserves them) and with --no-huge. The machine's load (uptime) is printed
# first: figures from a loaded machine say little. The port's STE ICM
# (devarg log_steering_icm_size) is sized for the rules. The script exits 1
# when a run failed its checks.
#
#   devtools/bench-flow-async.sh [RULES...]      default: 1000000 4000000
#   devtools/bench-flow-async.sh --callgrind [RULES]  default: 20000
#
# PUSH=N pushes every N operations instead of 32; COUNT=1 adds COUNT to
# every rule (--count), INDIRECT=1 an indirect COUNT of its flow queue
# (--indirect). SLOW=US also says where
# the time of each create over US microseconds went (waiting for a CPU, on
# its CPU, neither: mlx5dm-bench-flow-async --slow). One run per figure: on
# a shared machine repeat the script rather than trusting one line.
#
# --callgrind: instructions per operation instead of rates (valgrind, stable
# on a loaded machine), one lcore, --no-huge, by layer as
# devtools/bench-flow-perf.sh --callgrind prints them: the ethdev call, the
# PMD's share, its translation, the steering library's rule create/destroy
# (with the moves from grown tables) and the send ring flush inside it;
# then push plus pull and the device model's thread per operation.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
"$top/devtools/setup.sh" build >/dev/null
ninja -C "$top/build" >/dev/null
bench="$top/build/app/bench/mlx5dm-bench-flow-async"
push=${PUSH:-32}
slow=${SLOW:+--slow $SLOW}
count=
[ "${COUNT:-0}" = 0 ] || count=--count
[ "${INDIRECT:-0}" = 0 ] || count=--indirect

if [ "${1:-}" = --callgrind ]; then
	command -v valgrind >/dev/null || { echo "valgrind not found"; exit 1; }
	rules=${2:-20000}
	out=$(mktemp -d)
	trap 'rm -rf "$out"' EXIT
	echo "async rte_flow under callgrind, $rules rules, push every $push: instructions"
	printf '%-24s %8s %8s %8s %8s %8s %8s | %8s %8s %8s %8s | %8s | %8s\n' \
		per-operation create pmd xlate lib moves flush destroy pmd lib flush push+pull \
		device
	valgrind --tool=callgrind --callgrind-out-file="$out/cg" "$bench" --no-huge -m 1024 \
		--no-pci --no-shconf -l 0-1 --file-prefix bench-async-cg \
		--log-level=lib.eal:error --log-level=pmd.*:crit --vdev net_mlx5dm0 \
		-- --rules "$rules" --lcores 1 --push "$push" $count >/dev/null 2>&1 ||
		{ echo "mlx5dm-bench-flow-async failed"; exit 1; }
	# Outside the tree: run from it, callgrind_annotate splits each function
	# between its build/.. and its absolute path.
	(cd "$out" && callgrind_annotate --threshold=100 --tree=calling --inclusive=yes cg) \
		2>/dev/null | python3 "$top/devtools/callgrind-layers.py" --async "1 lcore" "$rules"
	exit 0
fi
[ $# -gt 0 ] || set -- 1000000 4000000

echo "load: $(uptime)"
status=0
for n in "$@"; do
	# Host memory grows with the rules (handles, latencies, the rte_hash floor).
	mb=$((1024 + n / 1000))
	# STE ICM for 128 bytes per rule (the target is 96, growth needs room),
	# 2^28 at the least: the port's default.
	icm=28
	while [ $((1 << icm)) -lt $((n * 128)) ]; do
		icm=$((icm + 1))
	done
	hp=$(cat /sys/kernel/mm/hugepages/hugepages-2048kB/free_hugepages 2>/dev/null || echo 0)
	for mem in hugepages --no-huge; do
		if [ "$mem" = hugepages ]; then
			if [ "$hp" -lt 1024 ]; then
				echo "== $n rules, hugepages: skipped ($hp free 2 MiB pages, 1024 needed)"
				continue
			fi
			# --in-memory: no hugepage files are left behind for the next run.
			m="--in-memory -m 2048"
		else
			m="--no-huge -m $mb"
		fi
		echo "== $n rules, $mem, log_steering_icm_size=$icm"
		# shellcheck disable=SC2086
		if ! "$bench" $m --no-pci --no-shconf -l 0-1 --file-prefix bench-async \
			--log-level=lib.eal:error --log-level=pmd.*:crit \
			--vdev "net_mlx5dm0,log_steering_icm_size=$icm" \
			-- --rules "$n" --push "$push" $slow $count 2>/dev/null; then
			echo "(run failed)"
			status=1
		fi
	done
done
exit $status
