/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Populate-ahead: one thread of the process backing ranges of anonymous
 * mappings before their users reach them.
 *
 * Where a guest hands idle pages back to its host, the first touch of a
 * page costs a host fault (0.3-0.5 GB/s here): a million rules grow some
 * 350 MB of records, tables and ICM, so a core inserting them spends more
 * time faulting than inserting. Populating everything at start costs that
 * memory whether rules come or not; this thread keeps each range backed
 * only some way past what its user has taken, on a CPU other than its
 * starter's, at idle priority: the faults move off the inserting core
 * without taking CPU time from busy ones.
 *
 * One thread for all ranges, because it is usually the slower side: it
 * always works on the range whose backing is nearest to (or furthest
 * behind) its use, so the library's records and the model's ICM, growing
 * together, are served by urgency rather than in turns.
 *
 * It backs a page by writing it without changing it: an atomic "or 0" on
 * its first word. A page not yet backed reads zero and stays zero; a page
 * the user already writes keeps every byte (the locked read-modify-write
 * cannot interleave with the user's store to that word). Faulting pages in
 * rather than asking the kernel to populate (MADV_POPULATE_WRITE) matters:
 * the madvise holds the process's mmap lock for each huge page it backs,
 * and the user's mmap, munmap and brk (the heap growing) wait behind it,
 * the longer as this thread runs at idle priority and may be preempted
 * holding it; faults take only the lock of their own mapping (per-VMA
 * locks, Linux 6.4 and later).
 *
 * Memory backed ahead is memory the process holds: where the machine is
 * short of it, the thread may be what meets the shortage first (a fault
 * cannot fail softly as an madvise would).
 */

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "mlx5dm_osdep.h"

/* Backed per turn: one huge page, so urgency is weighed often. */
#define MLX5DM_AHEAD_STEP MLX5DM_HUGE_SIZE
/* Backed past use: half as much again as is used, between 1 and 8 leads. */
#define MLX5DM_AHEAD_LEAD_MAX 8

struct mlx5dm_ahead {
	struct mlx5dm_ahead *next;
	uint8_t *base;
	size_t size;
	size_t lead;
	size_t used;                      /* highest end reported by the user (atomic) */
	size_t want;                      /* the thread's goal */
	size_t done;                      /* backed from base up to here (atomic) */
};

/*
 * life: held across starting and stopping the thread (add, remove); lock:
 * the ranges and the thread's state. busy is the range being populated
 * with lock dropped: remove waits for the thread to leave it.
 */
static pthread_mutex_t mlx5dm_ahead_life = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t mlx5dm_ahead_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t mlx5dm_ahead_work = PTHREAD_COND_INITIALIZER;
static pthread_cond_t mlx5dm_ahead_left = PTHREAD_COND_INITIALIZER;
static struct mlx5dm_ahead *mlx5dm_ahead_ranges;
static struct mlx5dm_ahead *mlx5dm_ahead_busy;
static pthread_t mlx5dm_ahead_thread;
static bool mlx5dm_ahead_running;
static bool mlx5dm_ahead_stop;

/*
 * Back [p, p + len) without changing a byte (see the top of the file).
 * Under ThreadSanitizer the kernel populates instead: the "or 0" racing a
 * user's plain store is harmless on the hardware but a race to the tool.
 */
static void
mlx5dm_ahead_touch(uint8_t *p, size_t len)
{
#if defined(__SANITIZE_THREAD__) && defined(MADV_POPULATE_WRITE)
	(void)madvise(p, len, MADV_POPULATE_WRITE);
#else
	size_t off;

	for (off = 0; off < len; off += 4096) {
#if defined(__x86_64__)
		__asm__ volatile("lock orq $0, (%0)" : : "r"(p + off) : "memory");
#else
		__atomic_fetch_or((uint64_t *)(void *)(p + off), 0, __ATOMIC_RELAXED);
#endif
	}
#endif
}

/* The range to work on (lock held): least backed beyond its use; NULL if none. */
static struct mlx5dm_ahead *
mlx5dm_ahead_pick(void)
{
	struct mlx5dm_ahead *g, *best = NULL;
	int64_t best_slack = INT64_MAX;

	for (g = mlx5dm_ahead_ranges; g != NULL; g = g->next) {
		int64_t slack = (int64_t)g->done - (int64_t)g->used;

		if (g->done < g->want && slack < best_slack) {
			best = g;
			best_slack = slack;
		}
	}
	return best;
}

static void *
mlx5dm_ahead_main(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&mlx5dm_ahead_lock);
	while (!mlx5dm_ahead_stop) {
		struct mlx5dm_ahead *g = mlx5dm_ahead_pick();
		size_t at, len;

		if (g == NULL) {
			pthread_cond_wait(&mlx5dm_ahead_work, &mlx5dm_ahead_lock);
			continue;
		}
		/*
		 * From where it stopped, even below what the user took: a region
		 * taken is filled over time (a slab, a hash table), the rest of it
		 * is still worth backing here.
		 */
		at = g->done;
		len = MLX5DM_MIN(MLX5DM_AHEAD_STEP, g->want - at);
		mlx5dm_ahead_busy = g;
		pthread_mutex_unlock(&mlx5dm_ahead_lock);
		mlx5dm_ahead_touch(g->base + at, len);
		pthread_mutex_lock(&mlx5dm_ahead_lock);
		mlx5dm_ahead_busy = NULL;
		pthread_cond_broadcast(&mlx5dm_ahead_left);
		__atomic_store_n(&g->done, at + len, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&mlx5dm_ahead_lock);
	return NULL;
}

/*
 * Where the thread runs: any online CPU its starter is not bound to (the
 * starter is typically an EAL lcore, pinned to one), at idle priority so a
 * polling thread there always comes first. With no such CPU, the starter's.
 */
static void
mlx5dm_ahead_place(pthread_t t)
{
	struct sched_param sp = { .sched_priority = 0 };
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t mine, set;
	long c;

	(void)pthread_setschedparam(t, SCHED_IDLE, &sp);
	(void)pthread_setname_np(t, "mlx5dm-ahead");
	if (pthread_getaffinity_np(pthread_self(), sizeof(mine), &mine) != 0)
		return;
	CPU_ZERO(&set);
	for (c = 0; c < ncpu && c < CPU_SETSIZE; c++)
		if (!CPU_ISSET(c, &mine))
			CPU_SET(c, &set);
	if (CPU_COUNT(&set) > 0)
		(void)pthread_setaffinity_np(t, sizeof(set), &set);
}

/* Next goal for a range used up to end (lock held). */
static size_t
mlx5dm_ahead_goal(const struct mlx5dm_ahead *g, size_t end)
{
	size_t extra = MLX5DM_MIN(MLX5DM_MAX(g->lead, end / 2), g->lead * MLX5DM_AHEAD_LEAD_MAX);

	return MLX5DM_MIN(g->size, MLX5DM_ALIGN_UP(end + extra, MLX5DM_AHEAD_STEP));
}

struct mlx5dm_ahead *
mlx5dm_ahead_add(void *base, size_t size, size_t lead)
{
	struct mlx5dm_ahead *g;

	if (base == NULL || size == 0 || (uintptr_t)base % 4096 != 0 || size % 4096 != 0)
		return NULL;
	g = calloc(1, sizeof(*g));
	if (g == NULL)
		return NULL;
	g->base = base;
	g->size = size;
	g->lead = lead;
	g->want = mlx5dm_ahead_goal(g, 0);
	pthread_mutex_lock(&mlx5dm_ahead_life);
	if (!mlx5dm_ahead_running) {
		if (pthread_create(&mlx5dm_ahead_thread, NULL, mlx5dm_ahead_main, NULL) != 0) {
			pthread_mutex_unlock(&mlx5dm_ahead_life);
			free(g);
			return NULL;
		}
		mlx5dm_ahead_place(mlx5dm_ahead_thread);
		mlx5dm_ahead_running = true;
	}
	pthread_mutex_lock(&mlx5dm_ahead_lock);
	g->next = mlx5dm_ahead_ranges;
	mlx5dm_ahead_ranges = g;
	pthread_cond_signal(&mlx5dm_ahead_work);
	pthread_mutex_unlock(&mlx5dm_ahead_lock);
	pthread_mutex_unlock(&mlx5dm_ahead_life);
	return g;
}

void
mlx5dm_ahead_use(struct mlx5dm_ahead *g, size_t end)
{
	size_t want;

	/* The common case (a region below the mark) takes no lock. */
	if (end <= __atomic_load_n(&g->used, __ATOMIC_RELAXED))
		return;
	pthread_mutex_lock(&mlx5dm_ahead_lock);
	if (end > g->used) {
		__atomic_store_n(&g->used, end, __ATOMIC_RELAXED);
		want = mlx5dm_ahead_goal(g, end);
		if (want > g->want) {
			g->want = want;
			pthread_cond_signal(&mlx5dm_ahead_work);
		}
	}
	pthread_mutex_unlock(&mlx5dm_ahead_lock);
}

size_t
mlx5dm_ahead_done(const struct mlx5dm_ahead *g)
{
	return __atomic_load_n(&g->done, __ATOMIC_ACQUIRE);
}

void
mlx5dm_ahead_remove(struct mlx5dm_ahead *g)
{
	struct mlx5dm_ahead **pp;
	bool last;

	if (g == NULL)
		return;
	pthread_mutex_lock(&mlx5dm_ahead_life);
	pthread_mutex_lock(&mlx5dm_ahead_lock);
	while (mlx5dm_ahead_busy == g)
		pthread_cond_wait(&mlx5dm_ahead_left, &mlx5dm_ahead_lock);
	for (pp = &mlx5dm_ahead_ranges; *pp != NULL; pp = &(*pp)->next) {
		if (*pp == g) {
			*pp = g->next;
			break;
		}
	}
	last = mlx5dm_ahead_ranges == NULL;
	if (last) {
		mlx5dm_ahead_stop = true;
		pthread_cond_signal(&mlx5dm_ahead_work);
	}
	pthread_mutex_unlock(&mlx5dm_ahead_lock);
	/* The last range gone, so is the thread: a process without ranges has none. */
	if (last) {
		pthread_join(mlx5dm_ahead_thread, NULL);
		mlx5dm_ahead_stop = false;
		mlx5dm_ahead_running = false;
	}
	pthread_mutex_unlock(&mlx5dm_ahead_life);
	free(g);
}
