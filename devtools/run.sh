#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5dm authors
#
# The main job on the device model: set up (idempotent), build, then
#   1. dpdk-test-dm validates loopback delivery on net_mlx5dm ports
#      (one looped port and a cabled pair);
#   2. the stock dpdk-testpmd loads the PMD with -d, forwards loopback
#      traffic, and its per-queue counters are printed.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
build="$top/build"
"$top/devtools/setup.sh" build >/dev/null
ninja -C "$build" >/dev/null
pmd="$build/drivers/net/mlx5dm/librte_net_mlx5dm.so"
eal="--no-huge --no-pci --no-shconf -m 256 --log-level=lib.eal:error"

echo "== dpdk-test-dm: loopback validation (net_mlx5dm0 looped, net_mlx5dm1 = cabled pair)"
# shellcheck disable=SC2086
"$build/app/test-dm/dpdk-test-dm" $eal --vdev net_mlx5dm0 \
	--vdev net_mlx5dm1,ports=2,topology=pair -- --packets 4096 2>/dev/null && status=0 || status=$?

echo
echo "== dpdk-testpmd -d $pmd --vdev net_mlx5dm0: start tx_first / stop"
cmds=$(mktemp)
trap 'rm -f "$cmds"' EXIT
printf '%s\n' 'set fwd io' 'start tx_first' 'stop' 'show port xstats 0' 'quit' > "$cmds"
# shellcheck disable=SC2086
dpdk-testpmd $eal -l 0-1 -d "$pmd" --vdev net_mlx5dm0 -- -i --no-mlockall \
	--total-num-mbufs=8192 --port-topology=loop --cmdline-file="$cmds" </dev/null 2>&1 |
	grep -E 'Driver|^ *(rx|tx)_(good_packets|q[0-9]+_packets|q[0-9]+_full_drops)|Forward statistics|RX-packets|TX-packets' |
	grep -v '^ *$' | sed 's/^ */   /'
exit $status
