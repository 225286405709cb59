#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5dm authors
#
# Set up (idempotent), build and run every test suite, twice: a normal build
# (build/) and an ASan+UBSan build (build-san/); then the suite "tsan" (the
# tests of several threads on the library) in a ThreadSanitizer build
# (build-tsan/, only those tests built). In the normal build the suite "hw"
# runs a second time with backend=hw on the rdma-core test double (meson
# test --setup hw). Ends with "N passed, N failed".
#
#   devtools/test.sh              everything
#   devtools/test.sh --quick      normal build only
#   devtools/test.sh --suite S    only meson suite S (unit, pmd, testpmd, flowperf, dm, style;
#                                 hw: only the backend=hw run)
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
quick=0
suite=""
while [ $# -gt 0 ]; do
	case "$1" in
	--quick) quick=1 ;;
	--suite) shift; suite="--suite ${1:?--suite needs a name}" ;;
	-h|--help) sed -n '3,13p' "$0"; exit 0 ;;
	*) echo "test.sh: unknown option $1" >&2; exit 2 ;;
	esac
	shift
done

jobs=$(nproc 2>/dev/null || echo 2)

# The executables of the meson suite "tsan" (app/test/unit/meson.build,
# app/test/pmd/meson.build): only they are built with ThreadSanitizer
# (model-side accesses: tsan.supp).
tsan_targets="app/test/unit/test_steer_queues app/test/pmd/test_pmd_lcores"
builds="build"
[ $quick = 1 ] || builds="build build-san build-tsan"
setup_failed=0

for b in $builds; do
	opts=""
	targets=""
	[ "$b" = build-san ] && opts="-Db_sanitize=address,undefined -Db_lundef=false"
	if [ "$b" = build-tsan ]; then
		[ -z "$suite" ] || [ "$suite" = "--suite tsan" ] || continue
		# GCC does not model fences under TSan: it warns (-Wtsan), the build is -Werror.
		opts="-Db_sanitize=thread -Db_lundef=false -Dc_args=-Wno-tsan"
		targets=$tsan_targets
	fi
	echo "==> $b: set up and build"
	# shellcheck disable=SC2086
	if ! "$top/devtools/setup.sh" "$b" $opts ||
	   ! ninja -C "$top/$b" -j "$jobs" $targets >/dev/null; then
		echo "==> $b: set-up or build FAILED" >&2
		ninja -C "$top/$b" -j "$jobs" 2>&1 | tail -30 >&2
		setup_failed=$((setup_failed + 1))
		continue
	fi
	rm -f "$top/$b/meson-logs/testlog.json" "$top/$b/meson-logs/testlog-hw.json"
	if [ "$suite" != "--suite hw" ]; then
		echo "==> $b: tests"
		if [ "$b" = build-tsan ]; then
			sup="$top/app/test/unit/tsan.supp"
			TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$sup" \
				meson test -C "$top/$b" --no-rebuild --print-errorlogs \
				--num-processes "$jobs" --suite tsan
			continue
		fi
		# shellcheck disable=SC2086
		meson test -C "$top/$b" --print-errorlogs --num-processes "$jobs" $suite
	fi
	if [ "$b" = build ] && { [ -z "$suite" ] || [ "$suite" = "--suite hw" ]; }; then
		echo "==> $b: tests with backend=hw on the rdma-core test double"
		meson test -C "$top/$b" --setup hw --suite hw --print-errorlogs \
			--num-processes "$jobs"
	fi
done

# Count per test from meson's JSON logs (meson's own summary is not a format CI reads).
# shellcheck disable=SC2086 # one argument per build directory
python3 - "$top" "$setup_failed" $builds <<'PY'
import json, os, sys
top, setup_failed, builds = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
passed = failed = skipped = 0
runs = [(b, 'testlog.json', b) for b in builds]
runs.append(('build', 'testlog-hw.json', 'build (backend=hw)'))
for b, log, label in runs:
    path = os.path.join(top, b, 'meson-logs', log)
    if not os.path.exists(path):
        continue
    bp = bf = 0
    with open(path) as f:
        for line in f:
            r = json.loads(line).get('result')
            if r in ('OK', 'EXPECTEDFAIL'):
                bp += 1
            elif r == 'SKIP':
                skipped += 1
            else:
                bf += 1
    print('%s: %d passed, %d failed' % (label, bp, bf))
    passed += bp
    failed += bf
failed += setup_failed
if skipped:
    print('%d skipped' % skipped)
print('%d passed, %d failed' % (passed, failed))
sys.exit(1 if failed or passed == 0 else 0)
PY
