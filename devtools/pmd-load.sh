# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5dm authors
#
# Sourced by the benchmark scripts: sets $load to the EAL arguments that load
# the PMD at $pmd. EAL refuses -d under a world-writable directory: the PMD
# is preloaded there instead ($load empty, LD_PRELOAD exported).
# $load is read by the scripts that source this one.
# shellcheck shell=sh disable=SC2034
case "$pmd" in
/*) ;;
"") echo "pmd-load.sh: \$pmd is not set" >&2; exit 1 ;;
*) pmd="$(pwd)/$pmd" ;;
esac
load="-d $pmd"
d=$(dirname "$pmd")
while [ "$d" != / ]; do
	if [ -n "$(find "$d" -maxdepth 0 -perm -0002)" ]; then
		load=""
		export LD_PRELOAD="$pmd"
		break
	fi
	d=$(dirname "$d")
done
