#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5dm authors
#
# Set up a Debian 12 machine to build and test mlx5dm, then configure the
# build. Idempotent: packages already present are not reinstalled, the SDK
# headers are provisioned once per DPDK version, an existing build directory
# is reused, hugepages are reserved only when none are.
#
#   devtools/setup.sh [--no-hugepages] [BUILD_DIR] [meson options...]
#
# Hugepages: as DPDK's Linux guide says ("Use of Hugepages in the Linux
# Environment"), HUGEPAGES (default 1024) 2 MiB pages are reserved through
# /sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages and hugetlbfs is
# mounted on /dev/hugepages, when no 2 MiB page is reserved yet. Skipped with
# --no-hugepages or HUGEPAGES=0 (tests run with --no-huge either way).
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
hugepages=${HUGEPAGES:-1024}
if [ "${1:-}" = --no-hugepages ]; then
	hugepages=0
	shift
fi
builddir=${1:-build}
[ $# -gt 0 ] && shift

# Everything the build, the tests and the tools use.
PACKAGES="
	meson ninja-build pkg-config gcc libc6-dev
	libdpdk-dev dpdk-dev
	libibverbs-dev ibverbs-providers
	libnuma-dev libcmocka-dev libpcap-dev
	python3 python3-scapy
	dpkg-dev xz-utils
	valgrind
"

missing=""
for p in $PACKAGES; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
		missing="$missing $p"
	fi
done
if [ -n "$missing" ]; then
	if [ "$(id -u)" != 0 ]; then
		echo "setup: missing packages:$missing (run as root, or install them)" >&2
		exit 1
	fi
	echo "setup: installing$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

"$top/devtools/sdk-headers.sh" >/dev/null

# Reserve 2 MiB hugepages and mount hugetlbfs, unless some are reserved already.
reserve_hugepages() {
	nr=/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages
	[ -w "$nr" ] || { echo "setup: hugepages not reserved (no $nr, or not root)" >&2; return 0; }
	if [ "$(cat "$nr")" -eq 0 ]; then
		echo "$hugepages" >"$nr" 2>/dev/null || true
		echo "setup: $(cat "$nr") hugepages of 2 MiB reserved (asked $hugepages)"
	fi
	if ! grep -qs ' /dev/hugepages hugetlbfs ' /proc/mounts; then
		mkdir -p /dev/hugepages
		mount -t hugetlbfs nodev /dev/hugepages 2>/dev/null ||
			echo "setup: cannot mount hugetlbfs on /dev/hugepages" >&2
	fi
}
[ "$hugepages" -eq 0 ] || reserve_hugepages

cd "$top"
if [ -f "$builddir/build.ninja" ]; then
	if [ $# -gt 0 ]; then
		meson configure "$builddir" "$@" >/dev/null
	fi
else
	meson setup "$builddir" "$@" >/dev/null
fi
echo "setup: build directory $top/$builddir configured"
