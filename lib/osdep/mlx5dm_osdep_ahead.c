/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Populate-ahead: one thread of the process backing ranges of anonymous
 * mappings before their users reach them.
 *
 * Where a guest hands idle pages back to its host, the first touch of a
 * page costs a host fault: a million rules grow hundreds of MB of
 * records, tables and ICM, so a core inserting them spends more time
 * faulting than inserting. Populating everything at start costs that
 * memory whether rules come or not; this thread keeps each range backed
 * only some way past what its user has taken, on a CPU other than its
 * starter's, at idle priority: the faults move off the inserting core
 * without taking CPU time from busy ones.
 *
 * One thread for all ranges, because it is usually the slower side: it
 * always works on the range whose next unit to back is nearest to (or
 * furthest behind) its use, so the library's records and the model's ICM,
 * growing together, are served by urgency rather than in turns. What is
 * wanted is kept per 2 MiB unit, not as one backed prefix: a region filled
 * where it is written (the model's ICM, whose DM ranges are allocated large
 * and written in places) asks for the units after each place written
 * (near), and the thread skips what nobody writes.
 *
 * A caller that is about to need the memory and would idle otherwise (a
 * port start, before the rules come) can lend its CPU (settle): on a VM
 * that backs guest memory lazily, two CPUs fault pages in twice as fast.
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
#include <time.h>
#include <unistd.h>

#include "mlx5dm_osdep.h"

/* Backed per turn, and the unit of the range's maps: one huge page, so urgency is weighed often. */
#define MLX5DM_AHEAD_UNIT MLX5DM_HUGE_SIZE
/* Backed past use: half as much again as is used, between 1 and 8 leads. */
#define MLX5DM_AHEAD_LEAD_MAX 8

/*
 * A range and its maps, a bit per unit, set under the lock: want (to be
 * backed: add, use, near), claimed (a worker took it) and backed (its
 * worker is through). Users read want and backed without the lock (atomic
 * words): a stale bit only sends near() to the lock or backed() to the
 * safe side.
 */
struct mlx5dm_ahead {
	struct mlx5dm_ahead *next;
	uint8_t *base;
	size_t size;
	size_t lead;
	size_t used;                      /* use: highest end; near: where the last window began */
	size_t high_want;                 /* use: units wanted from base on */
	uint32_t units;
	uint32_t first;                   /* no unit below is wanted and not claimed */
	uint32_t busy;                    /* workers backing a unit of it, lock dropped */
	uint64_t *want;
	uint64_t *claimed;                /* want + words */
	uint64_t *backed;                 /* claimed + words */
};

/*
 * life: held across starting and stopping the thread (add, remove); lock:
 * the ranges, their maps and the thread's state. A worker (the thread, or
 * a caller of settle() lending its CPU) backs a unit with the lock dropped,
 * counted in its range's busy: remove waits for them to leave the range.
 */
static pthread_mutex_t mlx5dm_ahead_life = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t mlx5dm_ahead_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t mlx5dm_ahead_work = PTHREAD_COND_INITIALIZER;
static pthread_cond_t mlx5dm_ahead_left = PTHREAD_COND_INITIALIZER;
static struct mlx5dm_ahead *mlx5dm_ahead_ranges;
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

static bool
mlx5dm_ahead_bit(const uint64_t *map, uint32_t i)
{
	return (__atomic_load_n(&map[i / 64], __ATOMIC_RELAXED) >> (i % 64)) & 1;
}

static void
mlx5dm_ahead_set(uint64_t *map, uint32_t i)
{
	__atomic_fetch_or(&map[i / 64], 1ull << (i % 64), __ATOMIC_RELEASE);
}

/* First unit from g->first on that is wanted and not claimed (lock held), or units. */
static uint32_t
mlx5dm_ahead_next(struct mlx5dm_ahead *g)
{
	uint32_t w;

	for (w = g->first / 64; w < (g->units + 63) / 64; w++) {
		uint64_t todo = g->want[w] & ~g->claimed[w];

		if (w == g->first / 64)
			todo &= ~0ull << (g->first % 64);
		if (todo != 0) {
			g->first = w * 64 + (uint32_t)__builtin_ctzll(todo);
			return g->first;
		}
	}
	g->first = g->units;
	return g->units;
}

/*
 * The range to work on and its unit (lock held): the one whose next unit
 * to back lies least far beyond its use; NULL if none has work.
 */
static struct mlx5dm_ahead *
mlx5dm_ahead_pick(uint32_t *unit)
{
	struct mlx5dm_ahead *g, *best = NULL;
	int64_t best_slack = INT64_MAX;

	for (g = mlx5dm_ahead_ranges; g != NULL; g = g->next) {
		uint32_t u = mlx5dm_ahead_next(g);
		int64_t slack = (int64_t)u * (int64_t)MLX5DM_AHEAD_UNIT - (int64_t)g->used;

		if (u < g->units && slack < best_slack) {
			best = g;
			best_slack = slack;
			*unit = u;
		}
	}
	return best;
}

/*
 * Back one unit, the most urgent (lock held, dropped while backing); false
 * if no range has work.
 */
static bool
mlx5dm_ahead_step(void)
{
	uint32_t u = 0;
	struct mlx5dm_ahead *g = mlx5dm_ahead_pick(&u);
	size_t at, len;

	if (g == NULL)
		return false;
	at = (size_t)u * MLX5DM_AHEAD_UNIT;
	len = MLX5DM_MIN(MLX5DM_AHEAD_UNIT, g->size - at);
	mlx5dm_ahead_set(g->claimed, u);
	g->busy++;
	pthread_mutex_unlock(&mlx5dm_ahead_lock);
	mlx5dm_ahead_touch(g->base + at, len);
	pthread_mutex_lock(&mlx5dm_ahead_lock);
	mlx5dm_ahead_set(g->backed, u);
	if (--g->busy == 0)
		pthread_cond_broadcast(&mlx5dm_ahead_left);
	return true;
}

static void *
mlx5dm_ahead_main(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&mlx5dm_ahead_lock);
	while (!mlx5dm_ahead_stop) {
		if (!mlx5dm_ahead_step())
			pthread_cond_wait(&mlx5dm_ahead_work, &mlx5dm_ahead_lock);
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

/* Want units [from, to) of g backed (lock held); wakes the thread if any is new. */
static void
mlx5dm_ahead_want(struct mlx5dm_ahead *g, uint32_t from, uint32_t to)
{
	bool more = false;
	uint32_t i;

	to = MLX5DM_MIN(to, g->units);
	for (i = from; i < to; i++) {
		if (!mlx5dm_ahead_bit(g->want, i)) {
			mlx5dm_ahead_set(g->want, i);
			more = true;
		}
	}
	if (more) {
		g->first = MLX5DM_MIN(g->first, from);
		pthread_cond_signal(&mlx5dm_ahead_work);
	}
}

/* Units to want for a range used up to end: end plus half as much again, in [1, 8] leads. */
static uint32_t
mlx5dm_ahead_goal(const struct mlx5dm_ahead *g, size_t end)
{
	size_t extra = MLX5DM_MIN(MLX5DM_MAX(g->lead, end / 2), g->lead * MLX5DM_AHEAD_LEAD_MAX);
	size_t goal = MLX5DM_MIN(g->size, end + extra);

	return (uint32_t)((goal + MLX5DM_AHEAD_UNIT - 1) / MLX5DM_AHEAD_UNIT);
}

struct mlx5dm_ahead *
mlx5dm_ahead_add(void *base, size_t size, size_t first, size_t lead)
{
	struct mlx5dm_ahead *g;
	size_t units = (size + MLX5DM_AHEAD_UNIT - 1) / MLX5DM_AHEAD_UNIT;
	size_t words = (units + 63) / 64;

	if (base == NULL || size == 0 || (uintptr_t)base % 4096 != 0 || size % 4096 != 0 ||
	    units > UINT32_MAX / 2)
		return NULL;
	g = calloc(1, sizeof(*g) + 3 * words * sizeof(uint64_t));
	if (g == NULL)
		return NULL;
	g->want = (uint64_t *)(g + 1);
	g->claimed = g->want + words;
	g->backed = g->claimed + words;
	g->base = base;
	g->size = size;
	g->lead = lead;
	g->units = (uint32_t)units;
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
	g->high_want = (MLX5DM_MIN(first, size) + MLX5DM_AHEAD_UNIT - 1) / MLX5DM_AHEAD_UNIT;
	mlx5dm_ahead_want(g, 0, (uint32_t)g->high_want);
	g->next = mlx5dm_ahead_ranges;
	mlx5dm_ahead_ranges = g;
	pthread_mutex_unlock(&mlx5dm_ahead_lock);
	pthread_mutex_unlock(&mlx5dm_ahead_life);
	return g;
}

void
mlx5dm_ahead_use(struct mlx5dm_ahead *g, size_t end)
{
	uint32_t goal;

	/* The common case (a region below the mark) takes no lock. */
	if (end <= __atomic_load_n(&g->used, __ATOMIC_RELAXED))
		return;
	pthread_mutex_lock(&mlx5dm_ahead_lock);
	if (end > g->used) {
		__atomic_store_n(&g->used, end, __ATOMIC_RELAXED);
		goal = mlx5dm_ahead_goal(g, end);
		if (goal > g->high_want) {
			mlx5dm_ahead_want(g, (uint32_t)g->high_want, goal);
			g->high_want = goal;
		}
	}
	pthread_mutex_unlock(&mlx5dm_ahead_lock);
}

void
mlx5dm_ahead_near(struct mlx5dm_ahead *g, size_t off)
{
	uint32_t u = (uint32_t)(off / MLX5DM_AHEAD_UNIT);
	uint32_t to = u + 1 + (uint32_t)((g->lead + MLX5DM_AHEAD_UNIT - 1) / MLX5DM_AHEAD_UNIT);

	/* Writes go on where they were: the window's far end already wanted, no lock. */
	if (off >= g->size || u + 1 >= g->units || to == u + 1 ||
	    mlx5dm_ahead_bit(g->want, MLX5DM_MIN(to, g->units) - 1))
		return;
	pthread_mutex_lock(&mlx5dm_ahead_lock);
	__atomic_store_n(&g->used, off, __ATOMIC_RELAXED);
	mlx5dm_ahead_want(g, u + 1, to);
	pthread_mutex_unlock(&mlx5dm_ahead_lock);
}

/* Whether a worker is backing a unit of some range now (lock held). */
static bool
mlx5dm_ahead_any_busy(void)
{
	const struct mlx5dm_ahead *g;

	for (g = mlx5dm_ahead_ranges; g != NULL; g = g->next)
		if (g->busy != 0)
			return true;
	return false;
}

static uint64_t
mlx5dm_ahead_ms(clockid_t clock)
{
	struct timespec t;

	clock_gettime(clock, &t);
	return (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000;
}

bool
mlx5dm_ahead_settle(unsigned int ms)
{
	uint64_t until = mlx5dm_ahead_ms(CLOCK_MONOTONIC) + ms;
	bool more = true;

	pthread_mutex_lock(&mlx5dm_ahead_lock);
	while (more && mlx5dm_ahead_ms(CLOCK_MONOTONIC) < until)
		more = mlx5dm_ahead_step();
	if (more)
		more = mlx5dm_ahead_pick(&(uint32_t){ 0 }) != NULL;
	/* Nothing left to start: wait for the units other workers are backing. */
	while (!more && mlx5dm_ahead_any_busy()) {
		uint64_t now = mlx5dm_ahead_ms(CLOCK_MONOTONIC);
		uint64_t at = mlx5dm_ahead_ms(CLOCK_REALTIME) + (until > now ? until - now : 0);
		struct timespec ts = {
			.tv_sec = (time_t)(at / 1000),
			.tv_nsec = (long)(at % 1000) * 1000000,
		};

		if (now >= until ||
		    pthread_cond_timedwait(&mlx5dm_ahead_left, &mlx5dm_ahead_lock, &ts) != 0)
			more = mlx5dm_ahead_any_busy();
	}
	pthread_mutex_unlock(&mlx5dm_ahead_lock);
	return !more;
}

size_t
mlx5dm_ahead_done(const struct mlx5dm_ahead *g)
{
	uint32_t u = 0;

	while (u < g->units && mlx5dm_ahead_bit(g->backed, u))
		u++;
	return MLX5DM_MIN(g->size, (size_t)u * MLX5DM_AHEAD_UNIT);
}

bool
mlx5dm_ahead_backed(const struct mlx5dm_ahead *g, size_t off, size_t len)
{
	size_t u;

	if (len == 0)
		return true;
	if (off >= g->size || len > g->size - off)
		return false;
	for (u = off / MLX5DM_AHEAD_UNIT; u <= (off + len - 1) / MLX5DM_AHEAD_UNIT; u++)
		if (!mlx5dm_ahead_bit(g->backed, (uint32_t)u))
			return false;
	return true;
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
	while (g->busy != 0)
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
