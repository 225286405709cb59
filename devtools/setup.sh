#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5dm authors
#
# Set up a Debian 12 machine to build and test mlx5dm, then configure the
# build. Idempotent: packages already present are not reinstalled, the SDK
# headers are provisioned once per DPDK version, an existing build directory
# is reused.
#
#   devtools/setup.sh [BUILD_DIR] [meson options...]   (default build dir: build)
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
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

cd "$top"
if [ -f "$builddir/build.ninja" ]; then
	if [ $# -gt 0 ]; then
		meson configure "$builddir" "$@" >/dev/null
	fi
else
	meson setup "$builddir" "$@" >/dev/null
fi
echo "setup: build directory $top/$builddir configured"
