/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The line protocol of the model's memory (ICM and argument store), shared
 * by the region accessors (mlx5dm_sim_icm.c) and the WQE executor, which
 * stores a WQE's one-line payload without a call.
 *
 * Every aligned 64-byte line is covered by a seqlock stripe (sim->seq,
 * chosen by the line's address). A writer makes the stripe odd with a CAS
 * (writers of one stripe exclude each other), stores the changed 8-byte
 * words with relaxed atomics, and makes it even again with a release
 * store; a reader loads the stripe (acquire), the eight words (relaxed),
 * fences (acquire) and retries if the stripe was odd or has moved. Both
 * sides access the words atomically, so the protocol is race-free in the
 * C11 sense, not only in practice.
 */

#ifndef _MLX5DM_SIM_LINE_H_
#define _MLX5DM_SIM_LINE_H_

#include <string.h>

#include "mlx5dm_sim_core.h"

static inline uint32_t *
mlx5dm_sim_line_seq(struct mlx5dm_sim *sim, const uint8_t *line)
{
	uint64_t n = (uintptr_t)line / MLX5DM_SIM_LINE;

	/* Neighbouring lines land on different stripes; distant ones may share. */
	return &sim->seq[(n ^ (n >> 12)) & (MLX5DM_SIM_SEQ_STRIPES - 1)];
}

/* Take a line's stripe for writing: writers of one stripe exclude each other by making it odd. */
static inline uint32_t
mlx5dm_sim_seq_enter(uint32_t *seq)
{
	uint32_t s = __atomic_load_n(seq, __ATOMIC_RELAXED);

	while ((s & 1) != 0 || !__atomic_compare_exchange_n(seq, &s, s + 1, false,
							     __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
		MLX5DM_PAUSE();
		s = __atomic_load_n(seq, __ATOMIC_RELAXED);
	}
	/* The odd value is visible before any byte of the line changes. */
	__atomic_thread_fence(__ATOMIC_RELEASE);
	return s;
}

static inline void
mlx5dm_sim_seq_leave(uint32_t *seq, uint32_t s)
{
	__atomic_store_n(seq, s + 2, __ATOMIC_RELEASE);
}

/* Source word i of a copy (any alignment). */
static inline uint64_t
mlx5dm_sim_src_word(const uint8_t *src, unsigned int i)
{
	uint64_t v;

	memcpy(&v, src + 8 * i, sizeof(v));
	return v;
}

/* Write n bytes from src at byte at of one line, under its stripe. */
static inline void
mlx5dm_sim_line_store(struct mlx5dm_sim *sim, uint8_t *line, unsigned int at,
		      const uint8_t *src, unsigned int n)
{
	uint32_t *seq = mlx5dm_sim_line_seq(sim, line);
	uint64_t *w = (uint64_t *)(void *)line;
	uint32_t s = mlx5dm_sim_seq_enter(seq);
	unsigned int i;

	if (n == MLX5DM_SIM_LINE) {
		/* A whole line (an STE): eight word stores, no merge with what was there. */
#pragma GCC unroll 8
		for (i = 0; i < MLX5DM_SIM_LINE / 8; i++)
			__atomic_store_n(&w[i], mlx5dm_sim_src_word(src, i), __ATOMIC_RELAXED);
	} else if (((at | n) & 7) == 0) {
		/* Whole words (a control half): only those change. */
		for (i = 0; i < n / 8; i++)
			__atomic_store_n(&w[at / 8 + i], mlx5dm_sim_src_word(src, i),
					 __ATOMIC_RELAXED);
	} else {
		/* Part words: merge into the words touched (the stripe keeps other writers out). */
		unsigned int first = at / 8, last = (at + n - 1) / 8;
		uint64_t img[MLX5DM_SIM_LINE / 8];

		for (i = first; i <= last; i++)
			img[i] = __atomic_load_n(&w[i], __ATOMIC_RELAXED);
		memcpy((uint8_t *)img + at, src, n);
		for (i = first; i <= last; i++)
			__atomic_store_n(&w[i], img[i], __ATOMIC_RELAXED);
	}
	mlx5dm_sim_seq_leave(seq, s);
}

/* Returns the line's sequence the snapshot was taken under. */
static inline uint32_t
mlx5dm_sim_line_load(struct mlx5dm_sim *sim, const uint8_t *line, uint64_t img[8])
{
	const uint32_t *seq = mlx5dm_sim_line_seq(sim, line);
	const uint64_t *w = (const uint64_t *)(const void *)line;
	uint32_t s1, s2;
	unsigned int i;

	do {
		s1 = __atomic_load_n(seq, __ATOMIC_ACQUIRE);
		if (s1 & 1)
			continue;
#pragma GCC unroll 8
		for (i = 0; i < MLX5DM_SIM_LINE / 8; i++)
			img[i] = __atomic_load_n(&w[i], __ATOMIC_RELAXED);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		s2 = __atomic_load_n(seq, __ATOMIC_RELAXED);
		if (s1 == s2)
			return s1;
	} while (1);
}

/*
 * Line-atomic copy of len bytes to dst (a host address inside a region's
 * mapping): one line without a call, more through mlx5dm_sim_icm_store().
 */
static inline void
mlx5dm_sim_icm_put(struct mlx5dm_sim *sim, uint8_t *dst, const void *src, size_t len)
{
	unsigned int at = (unsigned int)((uintptr_t)dst % MLX5DM_SIM_LINE);

	if (len == MLX5DM_SIM_LINE && at == 0)
		mlx5dm_sim_line_store(sim, dst, 0, src, MLX5DM_SIM_LINE); /* an STE */
	else if (len != 0 && at + len <= MLX5DM_SIM_LINE)
		mlx5dm_sim_line_store(sim, dst - at, at, src, (unsigned int)len);
	else
		mlx5dm_sim_icm_store(sim, dst, src, len);
}

#endif /* _MLX5DM_SIM_LINE_H_ */
