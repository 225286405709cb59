/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#include <errno.h>
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
	a = mlx5dm_zmalloc_socket(16, MLX5DM_SOCKET_ANY);
	b = mlx5dm_zmalloc_socket(16, MLX5DM_SOCKET_ANY);
	c = mlx5dm_zmalloc_socket(16, MLX5DM_SOCKET_ANY);
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
	p = mlx5dm_aligned_zmalloc_socket(4096, 4096, MLX5DM_SOCKET_ANY);
	assert_non_null(p);
	assert_int_equal((uintptr_t)p % 4096, 0);
	for (i = 0; i < 4096; i++)
		assert_int_equal(p[i], 0);
	mlx5dm_free(p);
	assert_null(mlx5dm_calloc_socket(SIZE_MAX / 2, 4, MLX5DM_SOCKET_ANY));
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

static void
assert_zero(const void *p, size_t len)
{
	const uint64_t *w = p;
	size_t i;

	for (i = 0; i < len / sizeof(*w); i++)
		if (w[i] != 0)
			fail_msg("byte %zu of a zeroed region is not zero", i * sizeof(*w));
}

/* Operations that count their calls and hand out memory that is not zero. */
static unsigned int nb_alloc, nb_zalloc, nb_free;
static size_t last_size, last_align;
static int last_socket;

static void *
dirty_alloc(size_t size, size_t align, int socket)
{
	void *p = NULL;

	nb_alloc++;
	last_size = size;
	last_align = align;
	last_socket = socket;
	if (posix_memalign(&p, align < sizeof(void *) ? sizeof(void *) : align, size) != 0)
		return NULL;
	memset(p, 0xa5, size);
	return p;
}

static void *
counted_zalloc(size_t size, size_t align, int socket)
{
	void *p;

	p = dirty_alloc(size, align, socket);
	nb_alloc--;
	nb_zalloc++;
	if (p != NULL)
		memset(p, 0, size);
	return p;
}

static void
counted_free(void *p)
{
	nb_free++;
	free(p);
}

static void
ops_reset(void)
{
	nb_alloc = 0;
	nb_zalloc = 0;
	nb_free = 0;
}

/*
 * With operations set (the PMD's rte_malloc family), every allocation of
 * the shim goes to them, the huge regions too: zeroed ones to zalloc, so
 * a heap that knows its memory is zero does not clear it twice.
 */
static void
test_ops_route_all(void **state)
{
	static const struct mlx5dm_alloc_ops ops = {
		.alloc = dirty_alloc,
		.zalloc = counted_zalloc,
		.free = counted_free,
	};
	uint64_t held = mlx5dm_huge_bytes();
	void *a, *z, *h;

	(void)state;
	mlx5dm_alloc_set_ops(&ops);
	ops_reset();
	a = mlx5dm_malloc_socket(100, 2);
	assert_non_null(a);
	assert_int_equal(nb_alloc, 1);
	assert_int_equal(last_socket, 2);
	z = mlx5dm_zmalloc_socket(100, MLX5DM_SOCKET_ANY);
	assert_non_null(z);
	assert_int_equal(nb_zalloc, 1);
	assert_int_equal(nb_alloc, 1);
	assert_int_equal(last_socket, MLX5DM_SOCKET_ANY);
	assert_zero(z, 96);
	/* The huge regions' socket reaches the operations too. */
	h = mlx5dm_huge_alloc(2 * HUGE, true, 1);
	assert_non_null(h);
	assert_int_equal(nb_zalloc, 2);
	assert_int_equal(last_socket, 1);
	assert_true(last_size == 2 * HUGE);
	assert_int_equal((uintptr_t)h % 4096, 0);
	assert_zero(h, 2 * HUGE);
	assert_true(mlx5dm_huge_bytes() == held + 2 * HUGE);
	mlx5dm_huge_free(h, 2 * HUGE);
	assert_true(mlx5dm_huge_bytes() == held);
	mlx5dm_free(a);
	mlx5dm_free(z);
	assert_int_equal(nb_free, 3);
	/* A failure injected applies to the operations' allocations as to libc's. */
	mlx5dm_alloc_fail_at(1);
	assert_null(mlx5dm_huge_alloc(HUGE, false, MLX5DM_SOCKET_ANY));
	mlx5dm_alloc_fail_at(0);
	assert_int_equal(nb_zalloc, 2);
	mlx5dm_alloc_set_ops(NULL);
}

/* Operations without zalloc: the shim zeroes what alloc returns. */
static void
test_ops_without_zalloc(void **state)
{
	static const struct mlx5dm_alloc_ops ops = {
		.alloc = dirty_alloc,
		.free = counted_free,
	};
	uint8_t *z, *h;

	(void)state;
	mlx5dm_alloc_set_ops(&ops);
	ops_reset();
	z = mlx5dm_aligned_zmalloc_socket(256, 64, 3);
	assert_non_null(z);
	assert_int_equal(last_align, 64);
	assert_int_equal(last_socket, 3);
	assert_zero(z, 256);
	h = mlx5dm_huge_alloc(HUGE, false, 3);
	assert_non_null(h);
	assert_int_equal(last_socket, 3);
	assert_zero(h, HUGE);
	assert_int_equal(nb_alloc, 2);
	mlx5dm_huge_free(h, HUGE);
	mlx5dm_free(z);
	assert_int_equal(nb_free, 2);
	mlx5dm_alloc_set_ops(NULL);
}

/*
 * Without operations a huge region is a mapping of its own: aligned to
 * MLX5DM_HUGE_SIZE, zero, resident at once when populated, unmapped when
 * freed; counted by mlx5dm_huge_bytes().
 */
static void
test_huge_libc(void **state)
{
	uint64_t held = mlx5dm_huge_bytes();
	uint8_t *a;

	(void)state;
	assert_null(mlx5dm_huge_alloc(HUGE + 4096, false, MLX5DM_SOCKET_ANY));
	assert_null(mlx5dm_huge_alloc(0, false, MLX5DM_SOCKET_ANY));
	a = mlx5dm_huge_alloc(3 * HUGE, true, MLX5DM_SOCKET_ANY);
	assert_non_null(a);
	assert_int_equal((uintptr_t)a % HUGE, 0);
	assert_true(resident_pages(a, 3 * HUGE) == (long)(3 * HUGE / 4096));
	assert_zero(a, 3 * HUGE);
	assert_true(mlx5dm_huge_bytes() == held + 3 * HUGE);
	mlx5dm_huge_free(a, 3 * HUGE);
	assert_int_equal(resident_pages(a, 3 * HUGE), -1);
	assert_true(mlx5dm_huge_bytes() == held);
	/* On a node (bound there where libnuma has a choice), or one the machine lacks (none). */
	a = mlx5dm_huge_alloc(HUGE, true, 0);
	assert_non_null(a);
	assert_true(resident_pages(a, HUGE) == (long)(HUGE / 4096));
	assert_zero(a, HUGE);
	mlx5dm_huge_free(a, HUGE);
	a = mlx5dm_huge_alloc(HUGE, true, 4095);
	assert_non_null(a);
	assert_true(resident_pages(a, HUGE) == (long)(HUGE / 4096));
	assert_zero(a, HUGE);
	mlx5dm_huge_free(a, HUGE);
	assert_true(mlx5dm_huge_bytes() == held);
	assert_int_equal(mlx5dm_huge_fit(HUGE / 2 - 1), 0);
	assert_true(mlx5dm_huge_fit(HUGE / 2) == HUGE);
	assert_true(mlx5dm_huge_fit(HUGE + 1) == 2 * HUGE);
}

/*
 * Resident memory (the model's ICM): rounded up to MLX5DM_HUGE_SIZE, every
 * page resident as soon as it is returned, zero; gone when unmapped.
 */
static void
test_resident_map(void **state)
{
	size_t len = 5 * HUGE / 2;
	uint8_t *p;

	(void)state;
	p = mlx5dm_resident_map(len, MLX5DM_SOCKET_ANY);
	assert_non_null(p);
	assert_true(resident_pages(p, 3 * HUGE) == (long)(3 * HUGE / 4096));
	assert_zero(p, 3 * HUGE);
	p[len - 1] = 1;
	mlx5dm_resident_unmap(p, len);
	assert_int_equal(resident_pages(p, 3 * HUGE), -1);
	p = mlx5dm_resident_map(HUGE, 0);
	assert_non_null(p);
	assert_true(resident_pages(p, HUGE) == (long)(HUGE / 4096));
	mlx5dm_resident_unmap(p, HUGE);
	mlx5dm_resident_unmap(NULL, len);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_log_hook),
		cmocka_unit_test(test_log_limited),
		cmocka_unit_test(test_alloc_fail_injection),
		cmocka_unit_test(test_aligned_and_calloc),
		cmocka_unit_test(test_ops_route_all),
		cmocka_unit_test(test_ops_without_zalloc),
		cmocka_unit_test(test_huge_libc),
		cmocka_unit_test(test_resident_map),
	};

	return cmocka_run_group_tests_name("osdep", tests, NULL, NULL);
}
