#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5dm authors
#
# Benchmarks (never part of the test suites): rule insertion/deletion in the
# steering library on the device model, next to an rte_hash baseline
# measured in the same run.
#
#   devtools/bench.sh [RULES...]     default: 100000 1000000 4000000
#   BENCH_BATCH=32 devtools/bench.sh doorbell every 32 WQEs (default: every operation)
#   devtools/bench.sh --instr [RULES...]
#                                    instructions per rule create/destroy under
#                                    callgrind (deterministic; default 100000)
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
bench="$top/build/app/bench/mlx5dm-bench-steer"
eal="--no-huge --no-pci --no-shconf -m 1024 --log-level=lib.eal:error"
instr=0
if [ "${1:-}" = "--instr" ]; then
	instr=1
	shift
	[ $# -gt 0 ] || set -- 100000
fi
"$top/devtools/setup.sh" build >/dev/null
ninja -C "$top/build" >/dev/null
[ $# -gt 0 ] || set -- 100000 1000000 4000000
batch=""
[ -z "${BENCH_BATCH:-}" ] || batch="--batch $BENCH_BATCH"
for n in "$@"; do
	for kind in ipv4dst 5tuple; do
		if [ $instr = 0 ]; then
			echo "==== $n rules, $kind"
			# shellcheck disable=SC2086
			"$bench" $eal -- --rules "$n" --kind "$kind" $batch 2>/dev/null
			continue
		fi
		out=$(mktemp)
		# The bench inserts and deletes every rule four times (see bench_steer.c).
		# shellcheck disable=SC2086
		valgrind --tool=callgrind --callgrind-out-file="$out" \
			--toggle-collect=mlx5dm_rule_create --toggle-collect=mlx5dm_rule_destroy \
			"$bench" $eal -- --rules "$n" --kind "$kind" $batch >/dev/null 2>&1
		callgrind_annotate --inclusive=yes "$out" 2>/dev/null | awk -v n="$n" -v k="$kind" '
			/mlx5dm_rule_create \[/ { gsub(",", "", $1); c = $1 }
			/mlx5dm_rule_destroy \[/ { gsub(",", "", $1); d = $1 }
			END { printf "%s rules, %s: %.0f instructions per create, %.0f per destroy\n",
			      n, k, c / (4 * n), d / (4 * n) }'
		rm -f "$out"
	done
done
