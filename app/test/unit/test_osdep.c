/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cmocka.h>

#include "mlx5dm_osdep.h"
#include "test_rss.h"

static char last_line[256];
static enum mlx5dm_log_level last_level;

static void
capture_log(enum mlx5dm_log_level level, const char *module, const char *fmt, va_list ap)
{
	int n = snprintf(last_line, sizeof(last_line), "%s: ", module);

	vsnprintf(last_line + n, sizeof(last_line) - (size_t)n, fmt, ap);
	last_level = level;
}

static void
test_log_hook(void **state)
{
	(void)state;
	mlx5dm_log_set_hook(capture_log);
	MLX5DM_LOG(ERR, "icm", "pool %s: %d bytes", "ste", 64);
	assert_string_equal(last_line, "icm: pool ste: 64 bytes");
	assert_int_equal(last_level, MLX5DM_LOG_ERR);
	mlx5dm_log_set_hook(NULL);
}

static unsigned int nb_lines;

static void
count_log(enum mlx5dm_log_level level, const char *module, const char *fmt, va_list ap)
{
	capture_log(level, module, fmt, ap);
	nb_lines++;
}

/* The same call site, as a per-rule path logs. */
static void
log_per_rule(unsigned int i)
{
	MLX5DM_LOG_LIMITED(WARNING, "steer", "rule %u took the fallback", i);
}

/* A per-rule line: the first, then one a second saying how many were left out. */
static void
test_log_limited(void **state)
{
	unsigned int i;

	(void)state;
	mlx5dm_log_set_hook(count_log);
	for (i = 0; i < 1000; i++)
		log_per_rule(i);
	assert_int_equal(nb_lines, 1);
	assert_string_equal(last_line, "steer: rule 0 took the fallback");
	assert_int_equal(last_level, MLX5DM_LOG_WARNING);
	usleep(1100 * 1000);
	log_per_rule(1000);
	log_per_rule(1001);
	assert_int_equal(nb_lines, 2);
	assert_string_equal(last_line,
			    "steer: rule 1000 took the fallback [999 like lines left out]");
	/* Another site has a limit of its own. */
	MLX5DM_LOG_LIMITED(ERR, "icm", "other site");
	assert_int_equal(nb_lines, 3);
	mlx5dm_log_set_hook(NULL);
}

static void
test_alloc_fail_injection(void **state)
{
	void *a, *b, *c;

	(void)state;
	mlx5dm_alloc_fail_at(2);
	a = mlx5dm_zmalloc(16);
	b = mlx5dm_zmalloc(16);
	c = mlx5dm_zmalloc(16);
	assert_non_null(a);
	assert_null(b);
	assert_non_null(c);
	assert_int_equal(mlx5dm_alloc_count(), 3);
	mlx5dm_alloc_fail_at(0);
	mlx5dm_free(a);
	mlx5dm_free(c);
}

static void
test_aligned_and_calloc(void **state)
{
	uint8_t *p;
	size_t i;

	(void)state;
	p = mlx5dm_aligned_zmalloc(4096, 4096);
	assert_non_null(p);
	assert_int_equal((uintptr_t)p % 4096, 0);
	for (i = 0; i < 4096; i++)
		assert_int_equal(p[i], 0);
	mlx5dm_free(p);
	assert_null(mlx5dm_calloc(SIZE_MAX / 2, 4));
	assert_int_equal(mlx5dm_log2_ceil(1), 0);
	assert_int_equal(mlx5dm_log2_ceil(2), 1);
	assert_int_equal(mlx5dm_log2_ceil(3), 2);
	assert_int_equal(mlx5dm_log2_ceil(1024), 10);
	assert_int_equal(mlx5dm_log2_ceil(1025), 11);
}

#define HUGE MLX5DM_HUGE_SIZE

/* Pages of [p, p + len) resident (mincore), -1 when the range is not mapped at all. */
static long
resident_pages(const void *p, size_t len)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE), n = len / pg, i;
	unsigned char *v = malloc(n);
	long c = 0;

	assert_non_null(v);
	if (mincore((void *)(uintptr_t)p, len, v) != 0) {
		assert_int_equal(errno, ENOMEM);
		c = -1;
	} else {
		for (i = 0; i < n; i++)
			c += v[i] & 1;
	}
	free(v);
	return c;
}

/*
 * Every page of [p, p + len) resident. A fresh mapping is not (until
 * written), a reserve's regions are (populated when it was made): that is
 * how the tests tell where a region came from without the reserve's
 * internals. -1 when the range is not mapped at all.
 */
static int
resident(const void *p, size_t len)
{
	long c = resident_pages(p, len);

	return c < 0 ? -1 : c == (long)(len / (size_t)sysconf(_SC_PAGESIZE));
}

static bool
in_range(const void *p, const uint8_t *base, unsigned int units)
{
	return (const uint8_t *)p >= base && (const uint8_t *)p < base + units * HUGE;
}

/* Write a pattern over [p, p + len) and read it back (the region is mapped and ours). */
static void
assert_usable(void *p, size_t len, uint8_t pat)
{
	uint8_t *b = p;
	size_t i;

	memset(b, pat, len);
	for (i = 0; i < len; i += 4093)
		assert_int_equal(b[i], pat);
	assert_int_equal(b[len - 1], pat);
}

static void
assert_zero(const void *p, size_t len)
{
	const uint64_t *w = p;
	size_t i;

	for (i = 0; i < len / sizeof(*w); i++)
		if (w[i] != 0)
			fail_msg("byte %zu of a region taken again is not zero", i * sizeof(*w));
}

/*
 * Map a reserve of units and learn where it is: its first region of all
 * units is the whole reserve (first fit, nothing else taken), populated.
 */
static uint8_t *
reserve_open(unsigned int units, struct mlx5dm_reserve **r)
{
	uint64_t bytes0 = mlx5dm_huge_bytes();
	uint8_t *base;

	assert_int_equal(mlx5dm_huge_reserve(units * HUGE, r), 0);
	assert_non_null(*r);
	/* Mapped by the reserve, not handed out: not counted yet. */
	assert_true(mlx5dm_huge_bytes() == bytes0);
	base = mlx5dm_huge_alloc(units * HUGE, false);
	assert_non_null(base);
	assert_int_equal((uintptr_t)base % HUGE, 0);
	assert_int_equal(resident(base, units * HUGE), 1);
	assert_true(mlx5dm_huge_bytes() == bytes0 + units * HUGE);
	mlx5dm_huge_free(base, units * HUGE);
	assert_true(mlx5dm_huge_bytes() == bytes0);
	return base;
}

static void
test_huge_reserve_first_fit(void **state)
{
	struct mlx5dm_reserve *r;
	uint8_t *base, *a, *b, *c, *d, *e;

	(void)state;
	/* No reserve: nothing to take, nothing is given back to one. */
	assert_null(mlx5dm_reserve_take(HUGE));
	base = reserve_open(4, &r);
	/* First fit in 2 MiB units: 1 + 2 (contiguous) + 1 fill it in order. */
	a = mlx5dm_huge_alloc(HUGE, false);
	assert_ptr_equal(a, base);
	b = mlx5dm_huge_alloc(2 * HUGE, false);
	assert_ptr_equal(b, base + HUGE);
	assert_usable(b, 2 * HUGE, 0x3c);
	c = mlx5dm_huge_alloc(HUGE, true);
	assert_ptr_equal(c, base + 3 * HUGE);
	/* Full: the next region is a fresh mapping, aligned, outside, usable. */
	d = mlx5dm_huge_alloc(HUGE, false);
	assert_non_null(d);
	assert_false(in_range(d, base, 4));
	assert_int_equal((uintptr_t)d % HUGE, 0);
	assert_int_equal(resident(d, HUGE), 0);
	assert_usable(d, HUGE, 0x77);
	/* Units 0 and 3 free but not adjacent: a 2-unit region cannot come from them. */
	assert_usable(a, HUGE, 0xa5);
	mlx5dm_huge_free(a, HUGE);
	mlx5dm_huge_free(c, HUGE);
	e = mlx5dm_huge_alloc(2 * HUGE, false);
	assert_non_null(e);
	assert_false(in_range(e, base, 4));
	assert_usable(e, 2 * HUGE, 0x11);
	mlx5dm_huge_free(e, 2 * HUGE);
	/* A region written, freed and taken again reads zero (as a fresh mapping). */
	a = mlx5dm_huge_alloc(HUGE, false);
	assert_ptr_equal(a, base);
	assert_zero(a, HUGE);
	/* b went back too: units 1-3 are one free run again. */
	mlx5dm_huge_free(b, 2 * HUGE);
	c = mlx5dm_huge_alloc(3 * HUGE, false);
	assert_ptr_equal(c, base + HUGE);
	assert_zero(c, 3 * HUGE);
	mlx5dm_huge_free(a, HUGE);
	mlx5dm_huge_free(c, 3 * HUGE);
	mlx5dm_huge_free(d, HUGE);
	/* Nothing out: unreserve unmaps it at once. */
	mlx5dm_huge_unreserve(r);
	assert_null(mlx5dm_reserve_take(HUGE));
	assert_int_equal(resident(base, HUGE), -1);
	a = mlx5dm_huge_alloc(HUGE, false);
	assert_non_null(a);
	assert_int_equal(resident(a, HUGE), 0);
	mlx5dm_huge_free(a, HUGE);
}

static void
test_huge_reserve_bad_size(void **state)
{
	static const size_t bad[] = { 0, 4096, HUGE / 2, HUGE + 4096, 3 * HUGE - 1 };
	struct mlx5dm_reserve *r = (struct mlx5dm_reserve *)&r;
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(mlx5dm_huge_reserve(bad[i], &r), -EINVAL);
		assert_null(r);
	}
	assert_null(mlx5dm_reserve_take(HUGE));
	mlx5dm_huge_unreserve(NULL);
}

/* Unreserve while a region is out: that region lives on, the rest is no longer offered. */
static void
test_huge_unreserve_busy(void **state)
{
	struct mlx5dm_reserve *r;
	uint8_t *base, *a, *b;

	(void)state;
	base = reserve_open(4, &r);
	a = mlx5dm_huge_alloc(HUGE, false);
	assert_ptr_equal(a, base);
	mlx5dm_huge_unreserve(r);
	assert_int_equal(resident(a, HUGE), 1);
	assert_usable(a, HUGE, 0xee);
	/* Three units are free, yet nothing new comes from a reserve being released. */
	assert_null(mlx5dm_reserve_take(HUGE));
	b = mlx5dm_huge_alloc(HUGE, false);
	assert_non_null(b);
	assert_false(in_range(b, base, 4));
	mlx5dm_huge_free(b, HUGE);
	assert_usable(a, HUGE, 0x21);
	/* The last region back: the reserve is unmapped, and no reserve is left. */
	mlx5dm_huge_free(a, HUGE);
	assert_int_equal(resident(base, 4 * HUGE), -1);
	assert_null(mlx5dm_reserve_take(HUGE));
}

/* An injected failure fails a region that the reserve could give, and takes nothing from it. */
static void
test_huge_reserve_fail_injection(void **state)
{
	struct mlx5dm_reserve *r;
	uint8_t *base, *a, *b;

	(void)state;
	base = reserve_open(1, &r);
	mlx5dm_alloc_fail_at(1);
	assert_null(mlx5dm_huge_alloc(HUGE, false));
	a = mlx5dm_huge_alloc(HUGE, false);
	assert_int_equal(mlx5dm_alloc_count(), 2);
	mlx5dm_alloc_fail_at(0);
	assert_ptr_equal(a, base);
	b = mlx5dm_huge_alloc(HUGE, false);
	assert_non_null(b);
	assert_false(in_range(b, base, 1));
	mlx5dm_huge_free(a, HUGE);
	mlx5dm_huge_free(b, HUGE);
	mlx5dm_huge_unreserve(r);
	assert_null(mlx5dm_reserve_take(HUGE));
}

static void
assert_all_resident(const void *p, size_t len)
{
	long n = resident_pages(p, len);

	if (n != (long)(len / (size_t)sysconf(_SC_PAGESIZE)))
		fail_msg("%ld of %zu pages resident", n, len / (size_t)sysconf(_SC_PAGESIZE));
}

static void
assert_none_resident(const void *p, size_t len)
{
	long n = resident_pages(p, len);

	if (n != 0)
		fail_msg("%ld pages resident past the goal", n);
}

/*
 * Wait for the thread to back a range to want. It runs at idle priority:
 * on a loaded machine that may take a while, hence the long limit.
 */
static void
wait_done(const struct mlx5dm_ahead *g, size_t want)
{
	unsigned int i;

	for (i = 0; i < 60000 && mlx5dm_ahead_done(g) < want; i++)
		usleep(1000);
	if (mlx5dm_ahead_done(g) != want)
		fail_msg("backed to %zu bytes, expected %zu", mlx5dm_ahead_done(g), want);
}

/* Wait until every page of [p, p + len) is resident (a reserve's thread has no done()). */
static void
wait_resident(const void *p, size_t len)
{
	unsigned int i;

	for (i = 0; i < 60000 && resident(p, len) != 1; i++)
		usleep(1000);
	assert_all_resident(p, len);
}

/* Threads of this process (entries of /proc/self/task). */
static unsigned int
task_count(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	unsigned int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)) != NULL)
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

/* A fresh huge mapping of size bytes (at *p) added as a range: first and lead as add()'s. */
static struct mlx5dm_ahead *
ahead_range(size_t size, size_t first, size_t lead, uint8_t **p)
{
	struct mlx5dm_ahead *g;

	*p = mlx5dm_huge_map(size);
	assert_non_null(*p);
	g = mlx5dm_ahead_add(*p, size, first, lead);
	assert_non_null(g);
	return g;
}

/*
 * A range is backed to its lead at once and no further; use(end) moves the
 * goal to end plus half as much again (at least a lead, at most 8 leads),
 * never past the range; use below the mark changes nothing. Bytes the user
 * wrote, before or after the thread got there, stay; the rest reads zero.
 */
static void
test_ahead_backs_past_use(void **state)
{
	const size_t size = 64 * HUGE, lead = 4 * HUGE;
	struct mlx5dm_ahead *g;
	uint8_t *p;
	size_t i;

	(void)state;
	g = ahead_range(size, lead, lead, &p);
	wait_done(g, lead);
	usleep(50000);
	assert_true(mlx5dm_ahead_done(g) == lead);
	assert_all_resident(p, lead);
	assert_none_resident(p + lead, size - lead);
	/* Written before and while the thread backs on: 10 used -> goal 15. */
	memset(p + HUGE, 0xa5, HUGE);
	mlx5dm_ahead_use(g, 10 * HUGE);
	memset(p + 12 * HUGE, 0x5a, 4096);
	wait_done(g, 15 * HUGE);
	usleep(50000);
	assert_true(mlx5dm_ahead_done(g) == 15 * HUGE);
	assert_all_resident(p, 15 * HUGE);
	assert_none_resident(p + 15 * HUGE, size - 15 * HUGE);
	for (i = 0; i < HUGE; i++)
		if (p[HUGE + i] != 0xa5)
			fail_msg("byte %zu of the first write changed", i);
	for (i = 0; i < 4096; i++)
		assert_int_equal(p[12 * HUGE + i], 0x5a);
	assert_zero(p + 12 * HUGE + 4096, 3 * HUGE - 4096);
	/* Below the mark: nothing. 40 used: the lead is capped at 8 leads (60). */
	mlx5dm_ahead_use(g, 5 * HUGE);
	usleep(50000);
	assert_true(mlx5dm_ahead_done(g) == 15 * HUGE);
	mlx5dm_ahead_use(g, 40 * HUGE);
	wait_done(g, 60 * HUGE);
	usleep(50000);
	assert_true(mlx5dm_ahead_done(g) == 60 * HUGE);
	assert_none_resident(p + 60 * HUGE, size - 60 * HUGE);
	/* Near the end: up to the end, not past it. */
	mlx5dm_ahead_use(g, 62 * HUGE);
	wait_done(g, size);
	assert_all_resident(p, size);
	mlx5dm_ahead_remove(g);
	munmap(p, size);
}

/*
 * near(off): backed from the unit after off's for a lead, nothing below it
 * but what add() asked for (first, apart from lead); a second write in the
 * same unit asks for nothing new; backed() answers per unit. settle() lends
 * the caller to the work: it returns true with every wanted unit backed,
 * and at once when there is nothing to do.
 */
static void
test_ahead_near_and_settle(void **state)
{
	const size_t size = 64 * HUGE, lead = 3 * HUGE;
	struct mlx5dm_ahead *g;
	uint8_t *p;

	(void)state;
	g = ahead_range(size, HUGE, lead, &p);
	assert_true(mlx5dm_ahead_settle(60000));
	assert_true(mlx5dm_ahead_done(g) == HUGE);
	assert_all_resident(p, HUGE);
	assert_none_resident(p + HUGE, size - HUGE);
	/* A write in unit 20: units 21-23 wanted; 2-19 and 24 on are not. */
	p[20 * HUGE + 100] = 7;
	mlx5dm_ahead_near(g, 20 * HUGE + 100);
	assert_true(mlx5dm_ahead_settle(60000));
	assert_all_resident(p + 21 * HUGE, 3 * HUGE);
	assert_true(mlx5dm_ahead_backed(g, 21 * HUGE, 3 * HUGE));
	assert_true(mlx5dm_ahead_backed(g, 0, HUGE));
	assert_false(mlx5dm_ahead_backed(g, 20 * HUGE, HUGE)); /* the user's, not the thread's */
	assert_false(mlx5dm_ahead_backed(g, 23 * HUGE, 2 * HUGE));
	assert_false(mlx5dm_ahead_backed(g, size - HUGE, 2 * HUGE)); /* past the end */
	assert_true(mlx5dm_ahead_done(g) == HUGE);
	assert_none_resident(p + HUGE, 19 * HUGE - 4096);
	assert_none_resident(p + 24 * HUGE, size - 24 * HUGE);
	assert_int_equal(p[20 * HUGE + 100], 7);
	mlx5dm_ahead_near(g, 20 * HUGE + 5000);
	usleep(50000);
	assert_none_resident(p + 24 * HUGE, size - 24 * HUGE);
	/* At the end: up to it, no further; then nothing left to do. */
	mlx5dm_ahead_near(g, size - 2 * HUGE);
	assert_true(mlx5dm_ahead_settle(60000));
	assert_all_resident(p + size - HUGE, HUGE);
	assert_true(mlx5dm_ahead_settle(0));
	mlx5dm_ahead_remove(g);
	munmap(p, size);
}

/*
 * settle() is bounded: with 128 MiB just asked for, no time to help gives
 * false (work is left); given the time, true with all of it backed.
 */
static void
test_ahead_settle_bounded(void **state)
{
	const size_t size = 64 * HUGE;
	struct mlx5dm_ahead *g;
	uint8_t *p;

	(void)state;
	g = ahead_range(size, size, HUGE, &p);
	assert_false(mlx5dm_ahead_settle(0));
	assert_true(mlx5dm_ahead_settle(60000));
	assert_true(mlx5dm_ahead_done(g) == size);
	assert_all_resident(p, size);
	mlx5dm_ahead_remove(g);
	munmap(p, size);
}

/*
 * One thread for all ranges, named, at idle priority, off its starter's
 * CPU (when there is another); gone with the last range, back with the
 * next. Bad ranges are refused.
 */
static void
test_ahead_thread(void **state)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned int tasks = task_count();
	struct mlx5dm_ahead *a, *b;
	cpu_set_t saved, one, got;
	uint8_t *p;
	pid_t tid;

	(void)state;
	p = mlx5dm_huge_map(4 * HUGE);
	assert_non_null(p);
	assert_null(mlx5dm_ahead_add(NULL, HUGE, HUGE, HUGE));
	assert_null(mlx5dm_ahead_add(p + 1, HUGE, HUGE, HUGE));
	assert_null(mlx5dm_ahead_add(p, 0, HUGE, HUGE));
	assert_null(mlx5dm_ahead_add(p, HUGE + 1, HUGE, HUGE));
	mlx5dm_ahead_remove(NULL);
	assert_int_equal(task_count(), tasks);
	assert_int_equal(pthread_getaffinity_np(pthread_self(), sizeof(saved), &saved), 0);
	CPU_ZERO(&one);
	CPU_SET(0, &one);
	if (ncpu > 1)
		assert_int_equal(pthread_setaffinity_np(pthread_self(), sizeof(one), &one), 0);
	a = mlx5dm_ahead_add(p, 2 * HUGE, HUGE, HUGE);
	b = mlx5dm_ahead_add(p + 2 * HUGE, 2 * HUGE, HUGE, HUGE);
	assert_non_null(a);
	assert_non_null(b);
	assert_int_equal(task_count(), tasks + 1);
	tid = test_thread_tid("mlx5dm-ahead");
	assert_true(tid > 0);
	assert_int_equal(sched_getscheduler(tid), SCHED_IDLE);
	assert_int_equal(sched_getaffinity(tid, sizeof(got), &got), 0);
	if (ncpu > 1)
		assert_false(CPU_ISSET(0, &got));
	wait_done(a, HUGE);
	wait_done(b, HUGE);
	mlx5dm_ahead_remove(a);
	assert_int_equal(task_count(), tasks + 1);
	mlx5dm_ahead_remove(b);
	assert_true(test_thread_gone("mlx5dm-ahead"));
	assert_int_equal(task_count(), tasks);
	a = mlx5dm_ahead_add(p, 4 * HUGE, HUGE, HUGE);
	assert_non_null(a);
	assert_int_equal(task_count(), tasks + 1);
	wait_done(a, HUGE);
	mlx5dm_ahead_remove(a);
	assert_true(test_thread_gone("mlx5dm-ahead"));
	assert_int_equal(task_count(), tasks);
	assert_int_equal(pthread_setaffinity_np(pthread_self(), sizeof(saved), &saved), 0);
	munmap(p, 4 * HUGE);
}

/*
 * An ahead reserve: regions come first fit as from any reserve, usable at
 * once; the thread backs past the highest unit taken (1 taken, lead 2: to
 * 3; 6 taken: to 9); given back zeroed; unreserved with its thread.
 */
static void
test_huge_reserve_ahead(void **state)
{
	unsigned int tasks = task_count();
	struct mlx5dm_reserve *r;
	uint8_t *a, *b, *c;

	(void)state;
	assert_int_equal(mlx5dm_huge_reserve_ahead(HUGE + 4096, HUGE, HUGE, &r), -EINVAL);
	assert_null(r);
	assert_int_equal(mlx5dm_huge_reserve_ahead(32 * HUGE, 2 * HUGE, 2 * HUGE, &r), 0);
	assert_non_null(r);
	a = mlx5dm_huge_alloc(HUGE, false);
	assert_non_null(a);
	wait_resident(a, 3 * HUGE);
	usleep(50000);
	assert_none_resident(a + 3 * HUGE, 29 * HUGE);
	b = mlx5dm_huge_alloc(5 * HUGE, false);
	assert_ptr_equal(b, a + HUGE);
	assert_usable(b, 5 * HUGE, 0x3c);
	wait_resident(a, 9 * HUGE);
	usleep(50000);
	assert_none_resident(a + 9 * HUGE, 23 * HUGE);
	assert_int_equal(b[5 * HUGE - 1], 0x3c);
	assert_int_equal(b[0], 0x3c);
	mlx5dm_huge_free(b, 5 * HUGE);
	c = mlx5dm_huge_alloc(2 * HUGE, false);
	assert_ptr_equal(c, a + HUGE);
	assert_zero(c, 2 * HUGE);
	mlx5dm_huge_free(c, 2 * HUGE);
	/* Unreserved with a region out: the thread goes, the region lives on. */
	mlx5dm_huge_unreserve(r);
	assert_true(test_thread_gone("mlx5dm-ahead"));
	assert_int_equal(task_count(), tasks);
	assert_usable(a, HUGE, 0x42);
	mlx5dm_huge_free(a, HUGE);
	assert_int_equal(resident(a, HUGE), -1);
	assert_null(mlx5dm_reserve_take(HUGE));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_log_hook),
		cmocka_unit_test(test_log_limited),
		cmocka_unit_test(test_alloc_fail_injection),
		cmocka_unit_test(test_aligned_and_calloc),
		cmocka_unit_test(test_huge_reserve_first_fit),
		cmocka_unit_test(test_huge_reserve_bad_size),
		cmocka_unit_test(test_huge_unreserve_busy),
		cmocka_unit_test(test_huge_reserve_fail_injection),
		cmocka_unit_test(test_ahead_backs_past_use),
		cmocka_unit_test(test_ahead_near_and_settle),
		cmocka_unit_test(test_ahead_settle_bounded),
		cmocka_unit_test(test_ahead_thread),
		cmocka_unit_test(test_huge_reserve_ahead),
	};

	return cmocka_run_group_tests_name("osdep", tests, NULL, NULL);
}
