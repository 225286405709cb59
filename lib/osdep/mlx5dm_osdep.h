/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The tiny OS shim under the DPDK-free library (lib/): allocation, logging
 * and locking go through here so unit tests run without EAL, the PMD can
 * plug rte_malloc/rte_log in, and tests can inject allocation failures.
 */

#ifndef _MLX5DM_OSDEP_H_
#define _MLX5DM_OSDEP_H_

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <pthread.h>
#include <sched.h>

#include "mlx5dm_build_config.h"

#define MLX5DM_LIKELY(x) __builtin_expect(!!(x), 1)
#define MLX5DM_UNLIKELY(x) __builtin_expect(!!(x), 0)
/* Inlined even where the compiler would not: for per-call-site constants. */
#define MLX5DM_ALWAYS_INLINE inline __attribute__((always_inline))
/* Start loading the line at p (read), so that a later miss overlaps other work. */
#define MLX5DM_PREFETCH(p) __builtin_prefetch((p), 0, 3)
/*
 * Start taking the line at p for writing (from another core's cache, say),
 * so that the store finds it owned. x86: prefetchw whatever -march says
 * (a no-op on CPUs without it, as the 0f 0d opcodes have long been).
 */
#if defined(__x86_64__) || defined(__i386__)
#define MLX5DM_PREFETCH_W(p) __asm__ volatile("prefetchw %0" : : "m"(*(const char *)(p)))
#else
#define MLX5DM_PREFETCH_W(p) __builtin_prefetch((p), 1, 3)
#endif
/* A spin-wait iteration: lets the sibling hardware thread run, saves power. */
#if defined(__x86_64__) || defined(__i386__)
#define MLX5DM_PAUSE() __builtin_ia32_pause()
#elif defined(__aarch64__)
#define MLX5DM_PAUSE() __asm__ volatile("yield")
#else
#define MLX5DM_PAUSE() do { } while (0)
#endif
#define MLX5DM_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define MLX5DM_MIN(a, b) ((a) < (b) ? (a) : (b))
#define MLX5DM_MAX(a, b) ((a) > (b) ? (a) : (b))
#define MLX5DM_ALIGN_UP(v, a) (((v) + (a) - 1) & ~((__typeof__(v))(a) - 1))
#define MLX5DM_IS_POW2(v) ((v) != 0 && ((v) & ((v) - 1)) == 0)
#define MLX5DM_FORMAT(f, a) __attribute__((format(printf, f, a)))
/* A function compiled for CPU features the build target does not assume (checked at run time). */
#define MLX5DM_TARGET(features) __attribute__((target(features)))
/* A function run when the program or library is loaded, before main(). */
#define MLX5DM_CONSTRUCTOR __attribute__((constructor))

/* Log levels, numerically equal to DPDK's RTE_LOG_* so the PMD maps 1:1. */
enum mlx5dm_log_level {
	MLX5DM_LOG_ERR = 4,
	MLX5DM_LOG_WARNING = 5,
	MLX5DM_LOG_NOTICE = 6,
	MLX5DM_LOG_INFO = 7,
	MLX5DM_LOG_DEBUG = 8,
};

/* Where library log lines go; NULL restores the default (stderr, >= NOTICE). */
typedef void (*mlx5dm_log_fn)(enum mlx5dm_log_level level, const char *module,
			      const char *fmt, va_list ap);
void mlx5dm_log_set_hook(mlx5dm_log_fn fn);
void mlx5dm_log_set_level(enum mlx5dm_log_level level);
void mlx5dm_log(enum mlx5dm_log_level level, const char *module, const char *fmt, ...)
	MLX5DM_FORMAT(3, 4);

#define MLX5DM_LOG(level, module, ...) \
	mlx5dm_log(MLX5DM_LOG_ ## level, module, __VA_ARGS__)

/*
 * Lines on a path taken per rule (a fallback, a full resource) would
 * repeat for every rule: such a line is written the first time, then at
 * most once a second, saying how many like lines were left out since.
 * One limit per call site (MLX5DM_LOG_LIMITED keeps it in a static).
 */
struct mlx5dm_log_limit {
	uint64_t next_ns;       /* monotonic time before which lines are left out */
	uint64_t suppressed;    /* lines left out since the last one written */
};
#define MLX5DM_LOG_LIMIT_NS 1000000000ull

/* true: write the line (*suppressed: how many were left out before it). */
bool mlx5dm_log_limit_take(struct mlx5dm_log_limit *l, uint64_t *suppressed);

#define MLX5DM_LOG_LIMITED(level, module, fmt, ...) do { \
	static struct mlx5dm_log_limit mlx5dm_lim_; \
	uint64_t mlx5dm_n_; \
	if (!mlx5dm_log_limit_take(&mlx5dm_lim_, &mlx5dm_n_)) \
		break; \
	if (mlx5dm_n_ == 0) \
		mlx5dm_log(MLX5DM_LOG_ ## level, module, fmt, ## __VA_ARGS__); \
	else \
		mlx5dm_log(MLX5DM_LOG_ ## level, module, fmt " [%" PRIu64 " like lines left out]", \
			   ## __VA_ARGS__, mlx5dm_n_); \
} while (0)

/*
 * Allocation shim. Memory from here is host memory (never DMA-visible).
 * Without operations set it comes from libc; the PMD sets rte_malloc-family
 * operations, as DPDK's mlx5 does with mlx5_malloc, so under EAL hugepages
 * the library's memory is hugepage-backed (resident) and NUMA-local; tests
 * set counting or failing ones. Set them once, before the first
 * allocation: memory goes back to the operations that are set when it is
 * freed. zalloc may be NULL (alloc, then zeroed here): the DPDK heap knows
 * which of its memory is zero already.
 *
 * Every allocation names the NUMA socket (node) it is for, as mlx5_malloc
 * does: memory for a device's objects is on the device's socket (struct
 * mlx5dm_dev's socket), so ports on two sockets keep their memory apart;
 * MLX5DM_SOCKET_ANY is no preference (the DPDK heap's SOCKET_ID_ANY; for
 * libc and the huge regions, the calling CPU's node), for memory tied to
 * no device. The operations are given it; libc's does not use it (its
 * memory is where the first touch is).
 */
#define MLX5DM_SOCKET_ANY (-1)

struct mlx5dm_alloc_ops {
	void *(*alloc)(size_t size, size_t align, int socket);  /* align 0: malloc's */
	void *(*zalloc)(size_t size, size_t align, int socket); /* zeroed, or NULL */
	void (*free)(void *ptr);
};
void mlx5dm_alloc_set_ops(const struct mlx5dm_alloc_ops *ops);
void *mlx5dm_malloc_socket(size_t size, int socket);
void *mlx5dm_zmalloc_socket(size_t size, int socket);
void *mlx5dm_calloc_socket(size_t n, size_t size, int socket);
void *mlx5dm_aligned_zmalloc_socket(size_t size, size_t align, int socket);
void mlx5dm_free(void *ptr);

/*
 * Large zeroed regions for bulk records, size a multiple of
 * MLX5DM_HUGE_SIZE, for socket (MLX5DM_SOCKET_ANY: no preference). With
 * operations set, from them (page aligned). Without, an anonymous mapping
 * aligned to MLX5DM_HUGE_SIZE, advised for transparent huge pages (a fault
 * per 2 MiB instead of one per 4 KiB) and bound to node socket (any: the
 * caller's node) where the build has libnuma; populate: fault it all in now
 * (memory used soon anyway), else as it is touched. Counted by the fault
 * injection like every other allocation.
 */
#define MLX5DM_HUGE_SIZE ((size_t)2 << 20)
void *mlx5dm_huge_alloc(size_t size, bool populate, int socket);
void mlx5dm_huge_free(void *ptr, size_t size);
/* Bytes currently held by mlx5dm_huge_alloc() regions (heap statistics do not see mappings). */
uint64_t mlx5dm_huge_bytes(void);
/*
 * The region size for a table of bytes that should take one (1 MiB or more,
 * rounded up to MLX5DM_HUGE_SIZE), else 0: smaller ones belong on the heap.
 */
size_t mlx5dm_huge_fit(size_t bytes);

/*
 * Memory that stays resident, as a device's is: size bytes (rounded up to
 * MLX5DM_HUGE_SIZE), zeroed, mapped and faulted in now on NUMA node socket
 * (MLX5DM_SOCKET_ANY: the caller's). From the kernel's huge page pool
 * (hugetlbfs pages, which stay resident from one process to the next) when
 * it has room, else anonymous memory advised for transparent huge pages.
 * NULL (errno ENOMEM) when the machine cannot back it. Not counted by the
 * fault injection.
 */
void *mlx5dm_resident_map(size_t size, int socket);
void mlx5dm_resident_unmap(void *ptr, size_t size);

/*
 * Fault injection for tests: the n-th allocation from now (1-based) fails;
 * 0 disables. Returns the number of allocations made since the last arm.
 */
void mlx5dm_alloc_fail_at(uint64_t n);
uint64_t mlx5dm_alloc_count(void);

/*
 * A spinlock for short critical sections (a rule insertion takes three):
 * test-and-test-and-set inline, where a pthread spinlock costs a library
 * call per operation.
 */
struct mlx5dm_spinlock {
	uint32_t locked;
};

static inline void
mlx5dm_spinlock_init(struct mlx5dm_spinlock *l)
{
	__atomic_store_n(&l->locked, 0, __ATOMIC_RELAXED);
}

static inline void
mlx5dm_spinlock_destroy(struct mlx5dm_spinlock *l)
{
	(void)l;
}

/*
 * Spins between two yields of a waiter. A holder may be off its core
 * (more threads than cores: the device's own thread, a holder waiting for
 * the device to free send-ring room): past a bound the waiter gives its
 * core away instead of burning the time slice the holder needs.
 */
#define MLX5DM_SPIN_YIELD 1024

static inline void
mlx5dm_spinlock_lock(struct mlx5dm_spinlock *l)
{
	unsigned int spins = 0;

	while (__atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE) != 0) {
		/* Wait reading, not writing: the line stays shared until it is free. */
		while (__atomic_load_n(&l->locked, __ATOMIC_RELAXED) != 0) {
			if (++spins % MLX5DM_SPIN_YIELD == 0)
				sched_yield();
			else
				MLX5DM_PAUSE();
		}
	}
}

/* Take l if it is free: false, at once, if another thread holds it. */
static inline bool
mlx5dm_spinlock_trylock(struct mlx5dm_spinlock *l)
{
	return __atomic_load_n(&l->locked, __ATOMIC_RELAXED) == 0 &&
	       __atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE) == 0;
}

static inline void
mlx5dm_spinlock_unlock(struct mlx5dm_spinlock *l)
{
	__atomic_store_n(&l->locked, 0, __ATOMIC_RELEASE);
}

/*
 * Ordering of stores/loads shared with the device (WQEs, doorbell records,
 * CQEs). Release/acquire fences: a compiler barrier on x86, dmb on Arm.
 */
static inline void
mlx5dm_wmb(void)
{
	__atomic_thread_fence(__ATOMIC_RELEASE);
}

static inline void
mlx5dm_rmb(void)
{
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
}

static inline unsigned int
mlx5dm_log2_ceil(uint64_t v)
{
	return v <= 1 ? 0 : 64 - (unsigned int)__builtin_clzll(v - 1);
}

#endif /* _MLX5DM_OSDEP_H_ */
