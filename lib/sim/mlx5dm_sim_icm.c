/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * ICM of the model: one host mapping per SW ICM type (and one for the
 * modify-header argument store). With config icm_populate the SW ICM is
 * device memory: resident from the instance's creation on, mapped and
 * faulted in once (mlx5dm_resident_map), so rule writes never pay a page
 * fault. Otherwise (and for the argument store) it is reserved with
 * MAP_NORESERVE: a large configured ICM costs nothing until it is written.
 *
 * Visibility rule (what a packet walk can observe): memory is written one
 * aligned 64-byte line at a time, each line under a seqlock stripe, and a
 * reader (mlx5dm_sim_icm_read, mlx5dm_sim_arg_read) copies each line as
 * one snapshot. A walker therefore sees every 64-byte line (one STE, one
 * argument unit, one line of a modify list) either entirely before or
 * entirely after a write, never torn; a write spanning several lines
 * becomes visible line by line in increasing address order while the
 * WQE executes, and all of it before that WQE's CQE is written.
 *
 * The line bytes are accessed with relaxed 8-byte atomics on both sides,
 * so the seqlock is race-free in the C11 sense, not only in practice.
 */

#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include "mlx5dm_sim_line.h"

#define MLX5DM_SIM_ARG_LOG_UNITS 22

uint64_t
mlx5dm_sim_region_start(enum mlx5dm_sim_region_kind r)
{
	if (r >= MLX5DM_SIM_REGION_ARG)
		return 0;
	return (uint64_t)(r + 1) << MLX5DM_SIM_WINDOW_SHIFT;
}

static unsigned int
mlx5dm_sim_region_log_size(const struct mlx5dm_sim *sim, enum mlx5dm_sim_region_kind r)
{
	switch (r) {
	case MLX5DM_SIM_REGION_STE:
		return sim->cfg.log_steering_sw_icm_size;
	case MLX5DM_SIM_REGION_MODIFY:
		return sim->cfg.log_header_modify_sw_icm_size;
	case MLX5DM_SIM_REGION_PATTERN:
		return sim->cfg.log_header_modify_pattern_sw_icm_size;
	case MLX5DM_SIM_REGION_ENCAP:
		/* Twice the SW ICM: the upper half holds firmware reformat contexts. */
		if (sim->cfg.log_indirect_encap_sw_icm_size == 0)
			return 0;
		return MLX5DM_MIN(sim->cfg.log_indirect_encap_sw_icm_size + 1u,
				  (unsigned int)MLX5DM_SIM_WINDOW_SHIFT);
	case MLX5DM_SIM_REGION_ARG:
		return sim->cfg.header_modify_argument ? MLX5DM_SIM_ARG_LOG_UNITS + 6 : 0;
	default:
		return 0;
	}
}

int
mlx5dm_sim_icm_init(struct mlx5dm_sim *sim)
{
	unsigned int r;

	for (r = 0; r < MLX5DM_SIM_REGION_NUM; r++) {
		struct mlx5dm_sim_region *g = &sim->region[r];
		unsigned int log = mlx5dm_sim_region_log_size(sim, r);
		void *p;

		if (log == 0)
			continue;
		g->size = 1ull << log;
		g->icm_start = mlx5dm_sim_region_start(r);
		g->log_block = r == MLX5DM_SIM_REGION_ARG ? 6 :
			       sim->cfg.log_sw_icm_alloc_granularity;
		g->resident = sim->cfg.icm_populate && r != MLX5DM_SIM_REGION_ARG;
		if (g->resident) {
			p = mlx5dm_resident_map(g->size, sim->socket);
		} else {
			p = mmap(NULL, g->size, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
			/*
			 * Huge pages where the host offers them (a hint):
			 * rule writes land all over a large hash table, and
			 * with 4 KiB pages nearly every one is a TLB miss.
			 */
			if (p != MAP_FAILED)
				(void)madvise(p, g->size, MADV_HUGEPAGE);
			else
				p = NULL;
		}
		if (p == NULL) {
			MLX5DM_LOG(ERR, MLX5DM_SIM_LOG, "cannot %s %" PRIu64 " bytes of ICM",
				   g->resident ? "map and populate" : "reserve", g->size);
			g->size = 0;
			return -ENOMEM;
		}
		g->base = p;
		if (mlx5dm_sim_bitmap_init(&g->blocks, g->size >> g->log_block, sim->socket) != 0)
			return -ENOMEM;
	}
	return 0;
}

void
mlx5dm_sim_icm_fini(struct mlx5dm_sim *sim)
{
	unsigned int r;

	for (r = 0; r < MLX5DM_SIM_REGION_NUM; r++) {
		struct mlx5dm_sim_region *g = &sim->region[r];

		if (g->resident)
			mlx5dm_resident_unmap(g->base, g->size);
		else if (g->base != NULL)
			munmap(g->base, g->size);
		mlx5dm_sim_bitmap_fini(&g->blocks);
		memset(g, 0, sizeof(*g));
	}
}

void
mlx5dm_sim_icm_store(struct mlx5dm_sim *sim, uint8_t *dst, const void *src, size_t len)
{
	unsigned int at = (unsigned int)((uintptr_t)dst % MLX5DM_SIM_LINE);
	const uint8_t *s = src;

	if (at != 0 && len > 0) {
		unsigned int n = (unsigned int)MLX5DM_MIN(len, (size_t)(MLX5DM_SIM_LINE - at));

		mlx5dm_sim_line_store(sim, dst - at, at, s, n);
		dst += n;
		s += n;
		len -= n;
	}
	/* Whole lines (a table written in one go): no merge, no partial words. */
	for (; len >= MLX5DM_SIM_LINE; len -= MLX5DM_SIM_LINE) {
		mlx5dm_sim_line_store(sim, dst, 0, s, MLX5DM_SIM_LINE);
		dst += MLX5DM_SIM_LINE;
		s += MLX5DM_SIM_LINE;
	}
	if (len > 0)
		mlx5dm_sim_line_store(sim, dst, 0, s, (unsigned int)len);
}

void
mlx5dm_sim_region_write(struct mlx5dm_sim *sim, enum mlx5dm_sim_region_kind r, uint64_t off,
			const void *src, size_t len)
{
	mlx5dm_sim_icm_store(sim, sim->region[r].base + off, src, len);
}

void
mlx5dm_sim_region_read(struct mlx5dm_sim *sim, enum mlx5dm_sim_region_kind r, uint64_t off,
		       void *dst, size_t len)
{
	uint8_t *d = dst;

	while (len > 0) {
		unsigned int at = (unsigned int)(off % MLX5DM_SIM_LINE);
		unsigned int n = MLX5DM_SIM_LINE - at;
		uint64_t img[MLX5DM_SIM_LINE / 8];

		if (n > len)
			n = (unsigned int)len;
		mlx5dm_sim_line_load(sim, sim->region[r].base + (off - at), img);
		/* A whole line (an STE) is a fixed-size copy. */
		if (n == MLX5DM_SIM_LINE)
			memcpy(d, img, MLX5DM_SIM_LINE);
		else
			memcpy(d, (uint8_t *)img + at, n);
		off += n;
		d += n;
		len -= n;
	}
}

bool
mlx5dm_sim_region_live(const struct mlx5dm_sim *sim, enum mlx5dm_sim_region_kind r, uint64_t off,
		       uint64_t len)
{
	const struct mlx5dm_sim_region *g = &sim->region[r];
	uint64_t first, last;

	if (g->size == 0 || off >= g->size || len > g->size - off)
		return false;
	if (len == 0)
		return true;
	first = off >> g->log_block;
	last = (off + len - 1) >> g->log_block;
	return mlx5dm_sim_bitmap_all_set(&g->blocks, first, last - first + 1);
}

void
mlx5dm_sim_region_discard(struct mlx5dm_sim *sim, enum mlx5dm_sim_region_kind r, uint64_t off,
			  uint64_t len)
{
	struct mlx5dm_sim_region *g = &sim->region[r];
	uint64_t page = 4096;
	uint64_t a = MLX5DM_ALIGN_UP(off, page);
	uint64_t e = (off + len) & ~(page - 1);

	/*
	 * Whole pages are zeroed in place where the ICM is resident, else go
	 * back to the OS (reading zero); partial pages are zeroed line by line.
	 */
	if (e > a && g->resident)
		memset(g->base + a, 0, e - a);
	else if (e > a)
		madvise(g->base + a, e - a, MADV_DONTNEED);
	if (a > off || e < off + len) {
		static const uint8_t zero[MLX5DM_SIM_LINE];
		uint64_t o;

		for (o = off; o < off + len; o += MLX5DM_SIM_LINE)
			if (o < a || o >= e)
				mlx5dm_sim_region_write(sim, r, o, zero, MLX5DM_SIM_LINE);
	}
	/* The whole pages changed without a line write: every line version moves. */
	__atomic_fetch_add(&sim->icm_epoch, 1, __ATOMIC_RELEASE);
}

static bool
mlx5dm_sim_icm_decode(const struct mlx5dm_sim *sim, uint64_t local, enum mlx5dm_sim_region_kind *r,
		      uint64_t *off)
{
	uint64_t win = local >> MLX5DM_SIM_WINDOW_SHIFT;

	if (win < 1 || win > MLX5DM_SIM_REGION_ENCAP + 1)
		return false;
	*r = (enum mlx5dm_sim_region_kind)(win - 1);
	*off = local & ((1ull << MLX5DM_SIM_WINDOW_SHIFT) - 1);
	return sim->region[*r].size != 0;
}

/* The host address of the aligned line at icm_addr in an allocated block; NULL if none. */
static const uint8_t *
mlx5dm_sim_icm_line_at(struct mlx5dm_sim *sim, uint64_t icm_addr)
{
	const struct mlx5dm_sim_region *g;
	enum mlx5dm_sim_region_kind r;
	uint64_t local, off;

	if (!mlx5dm_sim_icm_local(sim, icm_addr, &local) ||
	    !mlx5dm_sim_icm_decode(sim, local, &r, &off))
		return NULL;
	g = &sim->region[r];
	if (off % MLX5DM_SIM_LINE != 0 || off >= g->size ||
	    !mlx5dm_sim_bitmap_test(&g->blocks, off >> g->log_block))
		return NULL;
	return g->base + off;
}

int
mlx5dm_sim_icm_read(struct mlx5dm_sim *sim, uint64_t icm_addr, void *dst, size_t len)
{
	enum mlx5dm_sim_region_kind r;
	uint64_t local, off;

	if (len == MLX5DM_SIM_LINE && icm_addr % MLX5DM_SIM_LINE == 0) {
		/* One aligned line (an STE, the walk's every step): one block, one load. */
		struct mlx5dm_sim_line_ver ver;

		return mlx5dm_sim_icm_read_line(sim, icm_addr, dst, &ver);
	}
	if (!mlx5dm_sim_icm_local(sim, icm_addr, &local) ||
	    !mlx5dm_sim_icm_decode(sim, local, &r, &off) ||
	    !mlx5dm_sim_region_live(sim, r, off, len))
		return -EFAULT;
	mlx5dm_sim_region_read(sim, r, off, dst, len);
	return 0;
}

int
mlx5dm_sim_icm_read_line(struct mlx5dm_sim *sim, uint64_t icm_addr, void *dst,
			 struct mlx5dm_sim_line_ver *ver)
{
	const uint8_t *line = mlx5dm_sim_icm_line_at(sim, icm_addr);
	uint64_t img[MLX5DM_SIM_LINE / 8];

	if (line == NULL)
		return -EFAULT;
	/* The epoch first: a discard that moves it after the snapshot makes the version old. */
	ver->epoch = __atomic_load_n(&sim->icm_epoch, __ATOMIC_ACQUIRE);
	ver->seq = mlx5dm_sim_line_load(sim, line, img);
	memcpy(dst, img, MLX5DM_SIM_LINE);
	return 0;
}

int
mlx5dm_sim_icm_line_ver(struct mlx5dm_sim *sim, uint64_t icm_addr,
			struct mlx5dm_sim_line_ver *ver)
{
	const uint8_t *line = mlx5dm_sim_icm_line_at(sim, icm_addr);

	if (line == NULL)
		return -EFAULT;
	ver->epoch = __atomic_load_n(&sim->icm_epoch, __ATOMIC_ACQUIRE);
	ver->seq = __atomic_load_n(mlx5dm_sim_line_seq(sim, line), __ATOMIC_ACQUIRE);
	return 0;
}

uint64_t
mlx5dm_sim_icm_lines(struct mlx5dm_sim *sim)
{
	uint64_t n = 0;
	unsigned int r;

	/* The regions mlx5dm_sim_icm_read reads (not the argument store). */
	for (r = MLX5DM_SIM_REGION_STE; r <= MLX5DM_SIM_REGION_ENCAP; r++)
		n += (__atomic_load_n(&sim->region[r].live, __ATOMIC_RELAXED) <<
		      sim->region[r].log_block) / MLX5DM_SIM_LINE;
	return n;
}
