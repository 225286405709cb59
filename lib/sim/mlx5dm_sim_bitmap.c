/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Allocation bitmaps of the model: DM blocks per ICM type, flow counter
 * ids, argument ids. The search is the kernel's (bitmap_find_next_zero_area):
 * first fit from index 0 with the start aligned to `align` bits, which is
 * what makes the model hand out the same ICM addresses a real device does
 * for the same sequence of requests.
 *
 * Words are updated with atomics (under the instance lock) because the
 * datapath tests bits without the lock (mlx5dm_sim_icm_read).
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_sim_core.h"

int
mlx5dm_sim_bitmap_init(struct mlx5dm_sim_bitmap *bm, uint64_t nbits, int socket)
{
	bm->nbits = nbits;
	bm->w = mlx5dm_calloc_socket((size_t)((nbits + 63) / 64) + 1, sizeof(uint64_t), socket);
	return bm->w == NULL ? -ENOMEM : 0;
}

void
mlx5dm_sim_bitmap_fini(struct mlx5dm_sim_bitmap *bm)
{
	mlx5dm_free(bm->w);
	bm->w = NULL;
	bm->nbits = 0;
}

/*
 * First index in [from, end) whose bit equals want, or end (end <= nbits).
 * Bounded: a search for the busy bit ending a free area need not look
 * past the area (a bulk counter id search would otherwise scan the whole
 * 2^24-bit map each time).
 */
static uint64_t
mlx5dm_sim_bitmap_next(const struct mlx5dm_sim_bitmap *bm, uint64_t from, uint64_t end,
		       bool want)
{
	while (from < end) {
		uint64_t w = __atomic_load_n(&bm->w[from / 64], __ATOMIC_RELAXED);

		if (!want)
			w = ~w;
		w &= ~0ull << (from % 64);
		if (w != 0) {
			from = (from & ~63ull) + (uint64_t)__builtin_ctzll(w);
			return from < end ? from : end;
		}
		from = (from & ~63ull) + 64;
	}
	return end;
}

int64_t
mlx5dm_sim_bitmap_find_area(const struct mlx5dm_sim_bitmap *bm, uint64_t n, uint64_t align)
{
	uint64_t start = 0;

	if (n == 0 || n > bm->nbits || align == 0)
		return -1;
	for (;;) {
		uint64_t busy;

		start = mlx5dm_sim_bitmap_next(bm, start, bm->nbits, false);
		start = MLX5DM_ALIGN_UP(start, align);
		if (start + n > bm->nbits)
			return -1;
		busy = mlx5dm_sim_bitmap_next(bm, start, start + n, true);
		if (busy >= start + n)
			return (int64_t)start;
		start = busy + 1;
	}
}

/* Bits [start, start + n) on or off, a word at a time (a counter bulk is up to 2^16 bits). */
void
mlx5dm_sim_bitmap_set(struct mlx5dm_sim_bitmap *bm, uint64_t start, uint64_t n, bool on)
{
	uint64_t i = start, end = start + n;

	while (i < end) {
		uint64_t lo = i % 64, cnt = MLX5DM_MIN(64 - lo, end - i);
		uint64_t m = (cnt == 64 ? ~0ull : ((1ull << cnt) - 1)) << lo;

		if (on)
			__atomic_fetch_or(&bm->w[i / 64], m, __ATOMIC_RELEASE);
		else
			__atomic_fetch_and(&bm->w[i / 64], ~m, __ATOMIC_RELEASE);
		i += cnt;
	}
}

bool
mlx5dm_sim_bitmap_all_set(const struct mlx5dm_sim_bitmap *bm, uint64_t start, uint64_t n)
{
	uint64_t i;

	if (start >= bm->nbits || n > bm->nbits - start)
		return false;
	for (i = start; i < start + n; i++)
		if (!mlx5dm_sim_bitmap_test(bm, i))
			return false;
	return true;
}
