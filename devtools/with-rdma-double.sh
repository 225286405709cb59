#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5dm authors
#
# Run a command with the rdma-core test double preloaded: backend=hw then
# opens device-model instances presented as mlx5 devices, e.g.
#
#   devtools/with-rdma-double.sh build/app/test-dm/dpdk-test-dm --no-huge --no-pci \
#       -m 256 --vdev net_mlx5dm0,backend=hw -- --backend hw --suite items
#
# MLX5DM_RDMA_DOUBLE configures the devices (default: mlx5_0 looped, mlx5_1
# cabled to mlx5_2; doc/guides/testing.rst); MLX5DM_RDMA_DOUBLE_LIB names the
# library (default: the one built in build/).
set -eu

if [ $# -eq 0 ] || [ "$1" = -h ] || [ "$1" = --help ]; then
	sed -n '5,12p' "$0"
	[ $# -eq 0 ] && exit 2
	exit 0
fi
top=$(cd "$(dirname "$0")/.." && pwd)
lib=${MLX5DM_RDMA_DOUBLE_LIB:-$top/build/app/test/rdma_double/libmlx5dm_rdma_double.so}
if [ ! -f "$lib" ]; then
	echo "with-rdma-double.sh: $lib not found: build the tests (ninja -C build)" >&2
	exit 2
fi
# A sanitizer runtime (MLX5DM_ASAN_PRELOAD, set by the ASan build's tests) must come first.
asan=${MLX5DM_ASAN_PRELOAD:-}
LD_PRELOAD="${asan:+$asan }${LD_PRELOAD:+$LD_PRELOAD }$lib"
export LD_PRELOAD
exec "$@"
