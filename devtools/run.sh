#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5dm authors
#
# The main job on the device model: set up (idempotent), build, then
#   1. dpdk-test-dm runs every built-in suite (app/test-dm/suites) on
#      net_mlx5dm ports - net_mlx5dm0 looped, net_mlx5dm1 a cabled pair,
#      net_mlx5dm2 an E-Switch with two VFs (the transfer suite) - and
#      prints its summary; when the PMD has no rte_flow yet it says so and
#      skips the cases that need it (--skip-without-flow);
#   2. dpdk-test-dm's loopback check on the first two;
#   3. the stock dpdk-testpmd loads the PMD with -d, forwards loopback
#      traffic, and its per-queue counters are printed.
# Exit status: non-zero when either dpdk-test-dm run failed (skipped cases are
# not failures: the summary says they were skipped, and why).
#
# TEST_DM_ARGS replaces the suite run's arguments (default below), e.g.
#   TEST_DM_ARGS="--suite all" devtools/run.sh        fail instead of skipping
#   TEST_DM_ARGS="--suite items --random 100000" devtools/run.sh
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
build="$top/build"
"$top/devtools/setup.sh" build >/dev/null
ninja -C "$build" >/dev/null
pmd="$build/drivers/net/mlx5dm/librte_net_mlx5dm.so"
testdm="$build/app/test-dm/dpdk-test-dm"
eal="--no-huge --no-pci --no-shconf -m 256 --log-level=lib.eal:error"
ports="--vdev net_mlx5dm0 --vdev net_mlx5dm1,ports=2,topology=pair"
switch="net_mlx5dm2,representor=vf[0-1],vf_ports=1"
args=${TEST_DM_ARGS:-"--suite all --skip-without-flow"}

out=$(mktemp)
cmds=$(mktemp)
trap 'rm -f "$out" "$cmds"' EXIT

echo "== dpdk-test-dm $args (net_mlx5dm0 looped, net_mlx5dm1 = cabled pair," \
	"net_mlx5dm2 = E-Switch)"
# shellcheck disable=SC2086
"$testdm" $eal $ports --vdev "$switch" -- $args 2>/dev/null | tee "$out"
suites=$(tail -n 1 "$out" | sed -n 's/^[0-9]* passed, \([0-9]*\) failed$/\1/p')
suites=${suites:-"no summary"}
if grep -q '^rte_flow not available in this PMD build; suites skipped' "$out"; then
	verdict="SKIPPED: rte_flow not available in this PMD build"
elif [ "$suites" = 0 ]; then
	verdict=PASS
else
	verdict="FAIL ($suites failed)"
fi

echo
echo "== dpdk-test-dm: loopback check"
# shellcheck disable=SC2086
"$testdm" $eal $ports -- --packets 4096 2>/dev/null && loopback=0 || loopback=$?

echo
echo "== dpdk-testpmd -d $pmd --vdev net_mlx5dm0: start tx_first / stop"
printf '%s\n' 'set fwd io' 'start tx_first' 'stop' 'show port xstats 0' 'quit' > "$cmds"
# shellcheck disable=SC2086
dpdk-testpmd $eal -l 0-1 -d "$pmd" --vdev net_mlx5dm0 -- -i --no-mlockall \
	--total-num-mbufs=8192 --port-topology=loop --cmdline-file="$cmds" </dev/null 2>&1 |
	grep -E 'Driver|^ *(rx|tx)_(good_packets|q[0-9]+_packets|q[0-9]+_full_drops)|Forward statistics|RX-packets|TX-packets' |
	grep -v '^ *$' | sed 's/^ */   /'

echo
echo "== summary: suites $verdict; loopback $( [ "$loopback" = 0 ] && echo PASS ||
	echo "FAIL (exit status $loopback)" )"
[ "$suites" = 0 ] && [ "$loopback" = 0 ]
