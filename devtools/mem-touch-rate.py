#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5dm authors
"""Print how fast this machine hands out fresh memory: GB/s of the first
touch of a new 2 MiB-huge-page-advised mapping (what the kernel's page
clearing costs an inserting core), then of a second mapping made right
after the first was unmapped (pages the guest just freed).

On a VM whose host backs guest pages lazily (free page reporting), the
first touch of memory the guest freed a while ago costs one host fault per
page: benchmarks that grow to hundreds of MB pay it per byte of new state.
Used by devtools/bench-flow-perf.sh to put rates in context; not a test.
"""
import mmap
import sys
import time

PAGE = 4096


def touch_new(size):
    m = mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    m.madvise(mmap.MADV_HUGEPAGE)
    t = time.perf_counter()
    for off in range(0, size, PAGE):
        m[off] = 1
    rate = size / (time.perf_counter() - t) / 1e9
    m.close()
    return rate


def main():
    size = (int(sys.argv[1]) if len(sys.argv) > 1 else 256) << 20
    first = touch_new(size)
    recycled = touch_new(size)
    print("%.2f %.2f" % (first, recycled))


if __name__ == "__main__":
    main()
