/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Host memory of the library: the allocation shim (libc, or the operations
 * the PMD sets: the DPDK heap), large regions for bulk records and the
 * resident mappings the device model keeps its ICM in.
 */

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "mlx5dm_osdep.h"

#if MLX5DM_HAVE_LIBNUMA
#include <numa.h>
#endif

/* libc's memory is on the node of the thread that first touches it: socket is not used. */
static void *
mlx5dm_libc_alloc(size_t size, size_t align, int socket)
{
	void *p = NULL;

	(void)socket;
	if (align <= sizeof(void *))
		return malloc(size);
	if (posix_memalign(&p, align, size) != 0)
		return NULL;
	return p;
}

/*
 * libc's calloc knows fresh mmap'd memory is already zero: large tables
 * then fault in page by page as they are used, not all in this call.
 */
static void *
mlx5dm_libc_zalloc(size_t size, size_t align, int socket)
{
	void *p;

	if (align <= sizeof(void *))
		return calloc(1, size);
	p = mlx5dm_libc_alloc(size, align, socket);
	if (p != NULL)
		memset(p, 0, size);
	return p;
}

static const struct mlx5dm_alloc_ops mlx5dm_libc_ops = {
	.alloc = mlx5dm_libc_alloc,
	.zalloc = mlx5dm_libc_zalloc,
	.free = free,
};

static const struct mlx5dm_alloc_ops *mlx5dm_alloc_ops = &mlx5dm_libc_ops;
static uint64_t mlx5dm_alloc_fail_n;
static uint64_t mlx5dm_alloc_n;
static uint64_t mlx5dm_huge_held;

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

/* One more allocation; false when the fault injection fails this one. */
static bool
mlx5dm_alloc_take(void)
{
	uint64_t n = __atomic_add_fetch(&mlx5dm_alloc_n, 1, __ATOMIC_RELAXED);
	uint64_t fail = __atomic_load_n(&mlx5dm_alloc_fail_n, __ATOMIC_RELAXED);

	return MLX5DM_LIKELY(fail == 0 || n != fail);
}

static void *
mlx5dm_do_alloc(size_t size, size_t align, bool zero, int socket)
{
	const struct mlx5dm_alloc_ops *ops = mlx5dm_alloc_ops;
	void *p;

	if (!mlx5dm_alloc_take())
		return NULL;
	if (size == 0)
		size = 1;
	if (zero && ops->zalloc != NULL)
		return ops->zalloc(size, align, socket);
	p = ops->alloc(size, align, socket);
	if (p != NULL && zero)
		memset(p, 0, size);
	return p;
}

void *
mlx5dm_malloc_socket(size_t size, int socket)
{
	return mlx5dm_do_alloc(size, 0, false, socket);
}

void *
mlx5dm_zmalloc_socket(size_t size, int socket)
{
	return mlx5dm_do_alloc(size, 0, true, socket);
}

void *
mlx5dm_calloc_socket(size_t n, size_t size, int socket)
{
	if (size != 0 && n > SIZE_MAX / size)
		return NULL;
	return mlx5dm_zmalloc_socket(n * size, socket);
}

void *
mlx5dm_aligned_zmalloc_socket(size_t size, size_t align, int socket)
{
	return mlx5dm_do_alloc(size, align, true, socket);
}

void
mlx5dm_free(void *ptr)
{
	if (ptr != NULL)
		mlx5dm_alloc_ops->free(ptr);
}

/*
 * Bind [p, p + len) to node socket (MLX5DM_SOCKET_ANY: the calling CPU's),
 * where there is a choice. A node this process cannot allocate on is none.
 */
static void
mlx5dm_numa_place(void *p, size_t len, int socket)
{
#if MLX5DM_HAVE_LIBNUMA
	int cpu, node = socket;

	if (numa_available() < 0 || numa_max_node() == 0)
		return;
	if (node == MLX5DM_SOCKET_ANY) {
		cpu = sched_getcpu();
		node = cpu < 0 ? -1 : numa_node_of_cpu(cpu);
	}
	if (node >= 0 && node <= numa_max_node() && numa_bitmask_isbitset(numa_all_nodes_ptr, node))
		numa_tonode_memory(p, len, node);
#else
	(void)p;
	(void)len;
	(void)socket;
#endif
}

/* Back [p, p + len) now: the kernel's populate where it has one, else a write per page. */
static int
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

/* An anonymous mapping of size bytes aligned to MLX5DM_HUGE_SIZE, advised for huge pages. */
static void *
mlx5dm_huge_map(size_t size, int socket)
{
	uint8_t *p, *a;

	/* Twice the size, then keep the aligned part: huge pages need 2 MiB alignment. */
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
	mlx5dm_numa_place(a, size, socket);
	return a;
}

size_t
mlx5dm_huge_fit(size_t bytes)
{
	return bytes >= MLX5DM_HUGE_SIZE / 2 ? MLX5DM_ALIGN_UP(bytes, MLX5DM_HUGE_SIZE) : 0;
}

void *
mlx5dm_huge_alloc(size_t size, bool populate, int socket)
{
	const struct mlx5dm_alloc_ops *ops = mlx5dm_alloc_ops;
	void *a;

	if (!mlx5dm_alloc_take() || size == 0 || size % MLX5DM_HUGE_SIZE != 0)
		return NULL;
	if (ops != &mlx5dm_libc_ops) {
		/* The operations' memory is what the application chose (hugepages under EAL). */
		a = ops->zalloc != NULL ? ops->zalloc(size, 4096, socket) :
					  ops->alloc(size, 4096, socket);
		if (a != NULL && ops->zalloc == NULL)
			memset(a, 0, size);
	} else {
		a = mlx5dm_huge_map(size, socket);
		/* Best effort: what is not populated now faults in as it is used. */
		if (a != NULL && populate)
			(void)mlx5dm_populate(a, size);
	}
	if (a != NULL)
		__atomic_add_fetch(&mlx5dm_huge_held, size, __ATOMIC_RELAXED);
	return a;
}

void
mlx5dm_huge_free(void *ptr, size_t size)
{
	if (ptr == NULL)
		return;
	if (mlx5dm_alloc_ops != &mlx5dm_libc_ops)
		mlx5dm_alloc_ops->free(ptr);
	else
		munmap(ptr, size);
	__atomic_sub_fetch(&mlx5dm_huge_held, size, __ATOMIC_RELAXED);
}

uint64_t
mlx5dm_huge_bytes(void)
{
	return __atomic_load_n(&mlx5dm_huge_held, __ATOMIC_RELAXED);
}

void *
mlx5dm_resident_map(size_t size, int socket)
{
	void *p;

	size = MLX5DM_ALIGN_UP(size, MLX5DM_HUGE_SIZE);
	/*
	 * Pool pages are reserved whole by the mmap (it fails, not a later
	 * fault) and stay with the pool between processes: on a VM they do
	 * not pay the host's first touch that fresh pages may.
	 */
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB,
		 -1, 0);
	if (p == MAP_FAILED)
		p = mlx5dm_huge_map(size, socket);
	else
		mlx5dm_numa_place(p, size, socket);
	if (p == NULL || mlx5dm_populate(p, size) < 0) {
		if (p != NULL)
			munmap(p, size);
		errno = ENOMEM;
		return NULL;
	}
	return p;
}

void
mlx5dm_resident_unmap(void *ptr, size_t size)
{
	if (ptr != NULL)
		munmap(ptr, MLX5DM_ALIGN_UP(size, MLX5DM_HUGE_SIZE));
}
