#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5dm authors
#
# Benchmark (never part of the test suites): packets per second through
# the device model on a looped port with 0, 1 K and 1 M ipv4/udp 5-tuple
# rules in group 1, forwarded as testpmd's io mode does on one lcore
# (the model's device thread runs beside it), next to rte_hash bulk
# lookups of the same keys measured in the same run.
#
#   devtools/bench-datapath.sh [RULES...]      default: 0 1000 1000000
#   devtools/bench-datapath.sh --callgrind [RULES...]   default: 0 1000
#
# BASELINE_PMD=path/to/librte_net_mlx5dm.so measures that build of the PMD
# (e.g. one of an earlier revision) in the same run, with the same program.
# First line of each: the stock dpdk-testpmd, io forwarding after
# `start tx_first 64`, no rules. Each configuration runs with EAL hugepages when some are reserved and
# with --no-huge. SECONDS_PER_RUN (default 3) sets the forwarding time.
# One run per figure: on a shared machine repeat the script rather than
# trusting one line.
#
# --callgrind: instructions per frame instead of rates (valgrind, stable on
# a loaded machine), FRAMES (default 100000) forwarded with --no-huge: the
# device thread's datapath (SQ to Tx CQE), inside it the steering of both
# directions and the delivery into the receive queue, and the PMD thread's
# Rx and Tx bursts. PMD=path/to/librte_net_mlx5dm.so measures another build.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
mode=rates
if [ "${1:-}" = --callgrind ]; then
	mode=callgrind
	shift
fi
"$top/devtools/setup.sh" build >/dev/null
ninja -C "$top/build" >/dev/null
bench="$top/build/app/bench/mlx5dm-bench-datapath"
secs=${SECONDS_PER_RUN:-3}

if [ $mode = callgrind ]; then
	[ $# -gt 0 ] || set -- 0 1000
	command -v valgrind >/dev/null || { echo "valgrind not found"; exit 1; }
	pmd=${PMD:-$top/build/drivers/net/mlx5dm/librte_net_mlx5dm.so}
	. "$top/devtools/pmd-load.sh"
	out=$(mktemp -d)
	trap 'rm -rf "$out"' EXIT
	frames=${FRAMES:-100000}
	echo "mlx5dm-bench-datapath under callgrind, $frames frames: instructions per frame"
	printf '%-9s %9s %9s %9s %9s | %9s %9s\n' rules frames device steer deliver \
		rx_burst tx_burst
	for n in "$@"; do
		# shellcheck disable=SC2086
		valgrind --tool=callgrind --callgrind-out-file="$out/cg" \
			"$bench" --no-huge -m 2048 --no-pci --no-shconf -l 0 --file-prefix bench-dp \
			--log-level=lib.eal:error --log-level=pmd.*:crit $load --vdev net_mlx5dm0 \
			-- --rules "$n" --frames "$frames" --seconds 0.1 >/dev/null 2>&1 ||
			{ echo "$n: the bench failed"; continue; }
		# Every function (the default threshold leaves out the small ones).
		callgrind_annotate --tree=calling --inclusive=yes --threshold=100 "$out/cg" 2>/dev/null |
			python3 "$top/devtools/callgrind-datapath.py" "$n"
	done
	exit 0
fi

[ $# -gt 0 ] || set -- 0 1000 1000000
pmds="$top/build/drivers/net/mlx5dm/librte_net_mlx5dm.so"
[ -z "${BASELINE_PMD:-}" ] || pmds="$pmds $BASELINE_PMD"
mems="--no-huge"
hp=$(cat /sys/kernel/mm/hugepages/hugepages-2048kB/free_hugepages 2>/dev/null || echo 0)
[ "$hp" -lt 1024 ] || mems="hugepages --no-huge"

# dpdk-testpmd --forward-mode=io after `start tx_first 64` on a looped port, no
# rules: Rx Mpps between two `show port stats` (the second one counts). $m, $load.
testpmd_io() {
	# shellcheck disable=SC2086
	out=$( (echo "start tx_first 64"; sleep 2; echo "show port stats 0"; sleep "$secs"
		echo "show port stats 0"; echo "stop"; echo "quit") |
		dpdk-testpmd $m --no-pci --no-shconf -l 0-1 --file-prefix bench-dp \
		--log-level=lib.eal:error --log-level=pmd.*:crit $load --vdev net_mlx5dm0 \
		-- -i --no-mlockall --forward-mode=io --port-topology=loop \
		--total-num-mbufs=16384 2>&1) || true
	echo "$out" | sed -n 's/.*Rx-pps: *\([0-9]*\).*/\1/p' | tail -1 |
		awk '{ printf "%.2f", $1 / 1e6 }'
}

printf '%-10s %-9s %9s %7s %10s %16s\n' pmd memory rules flows "fwd Mpps" "rte_hash Mlook/s"
for pmd in $pmds; do
	. "$top/devtools/pmd-load.sh"
	[ "$pmd" = "${BASELINE_PMD:-}" ] && name=baseline || name=this
	for mem in $mems; do
		# --in-memory: no hugepage files are left behind for the next run.
		[ "$mem" = hugepages ] && m="--in-memory -m 2048" || m="--no-huge -m 2048"
		printf '%-10s %-9s %9s %7s %10s %16s\n' "$name" "$mem" testpmd - "$(testpmd_io)" -
		for n in "$@"; do
			# shellcheck disable=SC2086
			line=$("$bench" $m --no-pci --no-shconf -l 0 --file-prefix bench-dp \
				--log-level=lib.eal:error --log-level=pmd.*:crit $load \
				--vdev net_mlx5dm0 -- --rules "$n" --seconds "$secs" 2>/dev/null |
				tail -1) || line="$n - failed -"
			echo "$line" | awk -v p="$name" -v m="$mem" '{
				printf "%-10s %-9s %9s %7s %10s %16s\n", p, m, $1, $2, $3, $4 }'
		done
	done
	unset LD_PRELOAD
done
