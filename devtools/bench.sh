#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5dm authors
#
# Benchmarks (never part of the test suites): rule insertion/deletion in the
# steering library on the device model, next to an rte_hash baseline
# measured in the same run.
#
#   devtools/bench.sh [RULES...]     default: 100000 1000000 4000000
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
"$top/devtools/setup.sh" build >/dev/null
ninja -C "$top/build" >/dev/null
[ $# -gt 0 ] || set -- 100000 1000000 4000000
for n in "$@"; do
	for kind in ipv4dst 5tuple; do
		echo "==== $n rules, $kind"
		"$top/build/app/bench/mlx5dm-bench-steer" --no-huge --no-pci --no-shconf -m 1024 \
			--log-level=lib.eal:error -- --rules "$n" --kind "$kind" 2>/dev/null
	done
done
