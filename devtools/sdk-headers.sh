#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5dm authors
#
# Provision the four DPDK driver-SDK headers that Debian's libdpdk-dev does
# not install (ethdev_driver.h, ethdev_vdev.h, bus_vdev_driver.h,
# dev_driver.h), taken from the distribution's source package of exactly the
# installed DPDK version, into a cache outside the git tree.
#
#   sdk-headers.sh                 provision (idempotent); prints the directory
#   sdk-headers.sh --print-dir [V] print the cache directory only
#
# Cache: $MLX5DM_CACHE_DIR, else ${XDG_CACHE_HOME:-$HOME/.cache}/mlx5dm.
set -eu

HEADERS="lib/ethdev/ethdev_driver.h lib/ethdev/ethdev_vdev.h drivers/bus/vdev/bus_vdev_driver.h lib/eal/include/dev_driver.h"

cache_root() {
	if [ -n "${MLX5DM_CACHE_DIR:-}" ]; then
		echo "$MLX5DM_CACHE_DIR"
	else
		echo "${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/mlx5dm"
	fi
}

dpdk_version() {
	pkg-config --modversion libdpdk
}

sdk_dir() {
	echo "$(cache_root)/dpdk-sdk-$1"
}

if [ "${1:-}" = "--print-dir" ]; then
	sdk_dir "${2:-$(dpdk_version)}"
	exit 0
fi

ver=$(dpdk_version)
dir=$(sdk_dir "$ver")
debver=$(dpkg-query -W -f='${Version}' libdpdk-dev 2>/dev/null || true)

# Already provisioned for this exact package version?
if [ -f "$dir/.source" ] && [ "$(cat "$dir/.source")" = "dpdk=$debver" ]; then
	echo "$dir"
	exit 0
fi

# The installed DPDK may ship them (built with -Denable_driver_sdk=true).
incdir=$(pkg-config --variable=includedir libdpdk)
all=1
for h in $HEADERS; do
	[ -f "$incdir/dpdk/$(basename "$h")" ] || [ -f "$incdir/$(basename "$h")" ] || all=0
done
if [ $all = 1 ]; then
	echo "driver-SDK headers are installed with DPDK; nothing to provision" >&2
	exit 0
fi

if [ -z "$debver" ]; then
	echo "sdk-headers: libdpdk-dev is not installed as a Debian package; install it or pass -Dsdk_headers_dir=" >&2
	exit 1
fi

# apt-get source needs a deb-src entry: derive one from the existing sources.
if ! apt-get source --print-uris "dpdk=$debver" >/dev/null 2>&1; then
	if [ "$(id -u)" != 0 ]; then
		echo "sdk-headers: no deb-src entry for dpdk and not root: cannot add one" >&2
		exit 1
	fi
	if [ -f /etc/apt/sources.list.d/debian.sources ]; then
		sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources \
			> /etc/apt/sources.list.d/mlx5dm-deb-src.sources
	elif [ -f /etc/apt/sources.list ]; then
		sed -n 's/^deb \(.*\)/deb-src \1/p' /etc/apt/sources.list \
			> /etc/apt/sources.list.d/mlx5dm-deb-src.list
	else
		echo "sdk-headers: no apt sources found to derive a deb-src entry from" >&2
		exit 1
	fi
	apt-get update -qq
fi

work=$(mktemp -d)
chmod 755 "$work" # let apt's sandbox user write the download
trap 'rm -rf "$work"' EXIT
(cd "$work" && apt-get source -qq --download-only "dpdk=$debver") >&2
dsc=$(ls "$work"/dpdk_*.dsc)
# Unpack with the distribution's patches applied, exactly as the binaries were built.
dpkg-source --no-check -x "$dsc" "$work/src" >/dev/null
mkdir -p "$dir.tmp"
for h in $HEADERS; do
	cp "$work/src/$h" "$dir.tmp/"
done
echo "dpdk=$debver" > "$dir.tmp/.source"
rm -rf "$dir"
mv "$dir.tmp" "$dir"
echo "$dir"
