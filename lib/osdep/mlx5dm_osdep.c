/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>

#include "mlx5dm_osdep.h"

static mlx5dm_log_fn mlx5dm_log_hook;
static enum mlx5dm_log_level mlx5dm_log_max = MLX5DM_LOG_NOTICE;

void
mlx5dm_log_set_hook(mlx5dm_log_fn fn)
{
	mlx5dm_log_hook = fn;
}

void
mlx5dm_log_set_level(enum mlx5dm_log_level level)
{
	mlx5dm_log_max = level;
}

void
mlx5dm_log(enum mlx5dm_log_level level, const char *module, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (mlx5dm_log_hook != NULL) {
		mlx5dm_log_hook(level, module, fmt, ap);
	} else if (level <= mlx5dm_log_max) {
		fprintf(stderr, "mlx5dm.%s: ", module);
		vfprintf(stderr, fmt, ap);
		fputc('\n', stderr);
	}
	va_end(ap);
}

bool
mlx5dm_log_limit_take(struct mlx5dm_log_limit *l, uint64_t *suppressed)
{
	struct timespec t;
	uint64_t now, next = __atomic_load_n(&l->next_ns, __ATOMIC_RELAXED);

	clock_gettime(CLOCK_MONOTONIC, &t);
	now = (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
	/* One thread wins the second; the others count themselves out. */
	if (now < next || !__atomic_compare_exchange_n(&l->next_ns, &next,
						       now + MLX5DM_LOG_LIMIT_NS, false,
						       __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
		__atomic_fetch_add(&l->suppressed, 1, __ATOMIC_RELAXED);
		return false;
	}
	*suppressed = __atomic_exchange_n(&l->suppressed, 0, __ATOMIC_RELAXED);
	return true;
}

static void *
mlx5dm_libc_alloc(size_t size, size_t align)
{
	void *p = NULL;

	if (align <= sizeof(void *))
		return malloc(size);
	if (posix_memalign(&p, align, size) != 0)
		return NULL;
	return p;
}

static const struct mlx5dm_alloc_ops mlx5dm_libc_ops = {
	.alloc = mlx5dm_libc_alloc,
	.free = free,
};

static const struct mlx5dm_alloc_ops *mlx5dm_alloc_ops = &mlx5dm_libc_ops;
static uint64_t mlx5dm_alloc_fail_n;
static uint64_t mlx5dm_alloc_n;

void
mlx5dm_alloc_set_ops(const struct mlx5dm_alloc_ops *ops)
{
	mlx5dm_alloc_ops = ops != NULL ? ops : &mlx5dm_libc_ops;
}

void
mlx5dm_alloc_fail_at(uint64_t n)
{
	__atomic_store_n(&mlx5dm_alloc_n, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&mlx5dm_alloc_fail_n, n, __ATOMIC_RELAXED);
}

uint64_t
mlx5dm_alloc_count(void)
{
	return __atomic_load_n(&mlx5dm_alloc_n, __ATOMIC_RELAXED);
}

static void *
mlx5dm_do_alloc(size_t size, size_t align)
{
	uint64_t n = __atomic_add_fetch(&mlx5dm_alloc_n, 1, __ATOMIC_RELAXED);
	uint64_t fail = __atomic_load_n(&mlx5dm_alloc_fail_n, __ATOMIC_RELAXED);

	if (MLX5DM_UNLIKELY(fail != 0 && n == fail))
		return NULL;
	return mlx5dm_alloc_ops->alloc(size == 0 ? 1 : size, align);
}

void *
mlx5dm_malloc(size_t size)
{
	return mlx5dm_do_alloc(size, 0);
}

void *
mlx5dm_zmalloc(size_t size)
{
	void *p;

	/*
	 * libc's calloc knows fresh mmap'd memory is already zero: large
	 * tables then fault in page by page as they are used, instead of all
	 * at once in the allocating call.
	 */
	if (mlx5dm_alloc_ops == &mlx5dm_libc_ops) {
		uint64_t n = __atomic_add_fetch(&mlx5dm_alloc_n, 1, __ATOMIC_RELAXED);
		uint64_t fail = __atomic_load_n(&mlx5dm_alloc_fail_n, __ATOMIC_RELAXED);

		if (MLX5DM_UNLIKELY(fail != 0 && n == fail))
			return NULL;
		return calloc(1, size == 0 ? 1 : size);
	}
	p = mlx5dm_do_alloc(size, 0);
	if (p != NULL)
		memset(p, 0, size);
	return p;
}

void *
mlx5dm_calloc(size_t n, size_t size)
{
	if (size != 0 && n > SIZE_MAX / size)
		return NULL;
	return mlx5dm_zmalloc(n * size);
}

void *
mlx5dm_aligned_zmalloc(size_t size, size_t align)
{
	void *p = mlx5dm_do_alloc(size, align);

	if (p != NULL)
		memset(p, 0, size);
	return p;
}

void
mlx5dm_free(void *ptr)
{
	if (ptr != NULL)
		mlx5dm_alloc_ops->free(ptr);
}

static uint64_t mlx5dm_huge_mapped;

int
mlx5dm_populate(void *p, size_t len)
{
	size_t off;

#ifdef MADV_POPULATE_WRITE
	if (madvise(p, len, MADV_POPULATE_WRITE) == 0)
		return 0;
	if (errno != EINVAL)
		return -ENOMEM;
#endif
	for (off = 0; off < len; off += 4096)
		((volatile uint8_t *)p)[off] = 0;
	return 0;
}

size_t
mlx5dm_huge_fit(size_t bytes)
{
	return bytes >= MLX5DM_HUGE_SIZE / 2 ? MLX5DM_ALIGN_UP(bytes, MLX5DM_HUGE_SIZE) : 0;
}

void *
mlx5dm_huge_map(size_t size)
{
	uint8_t *p, *a;

	/*
	 * Twice the size, then keep the aligned part: huge pages need 2 MiB
	 * alignment. No swap reservation: a large ahead reserve is address
	 * space, backed only where it is used.
	 */
	p = mmap(NULL, size + MLX5DM_HUGE_SIZE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	a = (uint8_t *)MLX5DM_ALIGN_UP((uintptr_t)p, MLX5DM_HUGE_SIZE);
	if (a != p)
		munmap(p, (size_t)(a - p));
	if (a + size != p + size + MLX5DM_HUGE_SIZE)
		munmap(a + size, (size_t)(p + size + MLX5DM_HUGE_SIZE - (a + size)));
	/* Advice only: without THP (or an old kernel) the region works the same. */
	(void)madvise(a, size, MADV_HUGEPAGE);
	return a;
}

void *
mlx5dm_huge_alloc(size_t size, bool populate)
{
	uint64_t n = __atomic_add_fetch(&mlx5dm_alloc_n, 1, __ATOMIC_RELAXED);
	uint64_t fail = __atomic_load_n(&mlx5dm_alloc_fail_n, __ATOMIC_RELAXED);
	uint8_t *a;

	if (MLX5DM_UNLIKELY(fail != 0 && n == fail) || size == 0 ||
	    size % MLX5DM_HUGE_SIZE != 0)
		return NULL;
	a = mlx5dm_reserve_take(size);
	if (a == NULL) {
		a = mlx5dm_huge_map(size);
		if (a == NULL)
			return NULL;
		/* Best effort: what is not populated now faults in as it is used. */
		if (populate)
			(void)mlx5dm_populate(a, size);
	}
	__atomic_add_fetch(&mlx5dm_huge_mapped, size, __ATOMIC_RELAXED);
	return a;
}

void
mlx5dm_huge_free(void *ptr, size_t size)
{
	if (ptr == NULL)
		return;
	if (!mlx5dm_reserve_give(ptr, size))
		munmap(ptr, size);
	__atomic_sub_fetch(&mlx5dm_huge_mapped, size, __ATOMIC_RELAXED);
}

uint64_t
mlx5dm_huge_bytes(void)
{
	return __atomic_load_n(&mlx5dm_huge_mapped, __ATOMIC_RELAXED);
}
