/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * ICM pools: steering memory of the four SW ICM types, carved into chunks.
 *
 * A pool owns device-memory allocations (DMs) of one type, obtained through
 * the device boundary (mlx5dv_alloc_dm shape) and registered zero-based for
 * RDMA (rkey). Each DM is managed by one buddy allocator whose unit is one
 * entry of the type. Chunks are 2^order entries.
 *
 * Freed chunks are not reusable at once: the device may still walk the old
 * STEs/actions, and writes to them may still sit in send rings. They go to
 * a "hot" list; when the pool's hot bytes reach its threshold (or on an
 * explicit sync) the pool calls the owner's sync callback, which must drain
 * every send ring that may target this memory and issue SYNC_STEERING, and
 * only then returns the hot chunks to their buddies.
 *
 * Thread-safety contract:
 *  - Every function on a pool may be called concurrently from any thread
 *    (several inserting cores share one pool); one spinlock per pool guards
 *    the buddies and lists. mlx5dm_icm_pool_destroy() and
 *    mlx5dm_icm_set_destroy() are the exception: no other call may run.
 *  - The lock is never held while calling out: not across the sync
 *    callback, nor across DM allocation/registration (a system call and a
 *    firmware command on hardware) - a pool growing in one thread does not
 *    stall the others' allocations from existing DMs.
 *  - mlx5dm_icm_chunk_free() may run the sync callback in the calling
 *    thread. The caller must therefore not hold any lock the callback takes
 *    (e.g. a send-ring lock) when freeing a chunk. Allocation never syncs.
 *  - The callback may free chunks (they stay hot until the next sync) and
 *    allocate chunks; it must not sync a pool itself (-EDEADLK).
 *  - A chunk's public fields are constant from alloc to free; reading them
 *    needs no lock.
 */

#ifndef _MLX5DM_ICM_H_
#define _MLX5DM_ICM_H_

#include <stdbool.h>
#include <stdint.h>

#include "mlx5dm_dev.h"

enum mlx5dm_icm_type {
	MLX5DM_ICM_STE = 0,     /* STEERING_SW_ICM: STEs and hash tables, 64 B entries */
	MLX5DM_ICM_MODIFY = 1,  /* HEADER_MODIFY_SW_ICM: modify-header lists, 8 B */
	MLX5DM_ICM_PATTERN = 2, /* HEADER_MODIFY_PATTERN_SW_ICM: patterns, 8 B */
	MLX5DM_ICM_ENCAP = 3,   /* ENCAP_SW_ICM: SW encap data, 64 B */
	MLX5DM_ICM_TYPE_NUM
};

/* The smallest device ICM of a type a pool can use, log2 bytes (one block of its least order). */
unsigned int mlx5dm_icm_min_log_size(enum mlx5dm_icm_type type);

/* The sync callback: drain all send rings, then SYNC_STEERING; 0 or -errno. */
typedef int (*mlx5dm_icm_sync_fn)(void *arg);

struct mlx5dm_icm_pool_attr {
	enum mlx5dm_icm_type type;
	struct mlx5dm_dev *dev;    /* alloc_dm, init_obj, reg_dm_mr, dereg_mr, free_dm */
	struct ibv_pd *pd;         /* PD of the MRs (the domain's) */
	/* log2 of the device's ICM bytes of this type (DEVICE_MEMORY cap log_*_size). */
	uint8_t log_icm_size;
	/*
	 * Base for line indexes (MODIFY: header_modify_sw_icm_start_address,
	 * PATTERN: header_modify_pattern_sw_icm_start_address, ENCAP:
	 * indirect_encap_icm_base). Ignored for STE.
	 */
	uint64_t index_base;
	mlx5dm_icm_sync_fn sync;   /* required */
	void *sync_arg;
	bool reclaim;              /* free DMs left empty by a sync */
};

/*
 * Create a pool (no DM yet: the first allocation brings one). Sizing per
 * type (rdma-core DR policy): one DM = one buddy of 2^max_order entries,
 * STE: max_order = min(20, log_icm_size - 9), needs log_icm_size >= 26;
 * MODIFY: min(20, log_icm_size - 6), needs >= 15; PATTERN: 12, needs >= 15;
 * ENCAP: 12, needs >= 18. A device below the minimum gives ENOMEM (ENOTSUP
 * when log_icm_size is 0: type not supported), a bad attr EINVAL; one log
 * line says which. NULL + errno on failure.
 */
struct mlx5dm_icm_pool *mlx5dm_icm_pool_create(const struct mlx5dm_icm_pool_attr *attr);

/*
 * Free every chunk (live or hot), deregister and free every DM. The caller
 * must have made sure the device no longer uses the memory (drain + sync)
 * and that no chunk of this pool is used afterwards. NULL is a no-op.
 */
void mlx5dm_icm_pool_destroy(struct mlx5dm_icm_pool *pool);

enum mlx5dm_icm_type mlx5dm_icm_pool_type(const struct mlx5dm_icm_pool *pool);
/* Largest chunk order this pool hands out (= order of the DMs it creates now). */
unsigned int mlx5dm_icm_pool_max_order(const struct mlx5dm_icm_pool *pool);

/* Enable/disable freeing DMs left empty by a sync (domain "reclaim device memory"). */
void mlx5dm_icm_pool_set_reclaim(struct mlx5dm_icm_pool *pool, bool reclaim);

/* A piece of ICM of 2^order entries; all fields are read-only for the user. */
struct mlx5dm_icm_chunk {
	uint64_t icm_addr;     /* device ICM address: what STE pointers carry */
	uint64_t mr_addr;      /* RDMA remote address (zero-based MR of the DM) */
	uint64_t byte_size;    /* num_entries << log_entry_size */
	uint32_t rkey;         /* rkey for RDMA WRITE/READ to mr_addr */
	uint32_t num_entries;  /* 2^order */
	uint8_t order;
	uint8_t log_entry_size; /* 6 (STE, ENCAP) or 3 (MODIFY, PATTERN) */
};

/* ICM address and RDMA address of entry i of a chunk (i < num_entries). */
static inline uint64_t
mlx5dm_icm_chunk_entry_icm(const struct mlx5dm_icm_chunk *chunk, uint32_t i)
{
	return chunk->icm_addr + ((uint64_t)i << chunk->log_entry_size);
}

static inline uint64_t
mlx5dm_icm_chunk_entry_mr(const struct mlx5dm_icm_chunk *chunk, uint32_t i)
{
	return chunk->mr_addr + ((uint64_t)i << chunk->log_entry_size);
}

/*
 * Allocate a chunk of 2^order entries: first fit in the newest DM first;
 * when none fits, a new DM is allocated. NULL + errno: EINVAL (order >
 * max order), ENOMEM (host memory or device memory exhausted) or the
 * device's errno. Contents of the ICM are undefined (never assume zero).
 */
struct mlx5dm_icm_chunk *mlx5dm_icm_chunk_alloc(struct mlx5dm_icm_pool *pool,
						unsigned int order);

/*
 * Release a chunk: it becomes hot (not reusable) until the next sync. If
 * this brings the pool's hot bytes to its threshold (STE, PATTERN, ENCAP:
 * 50 % of one DM; MODIFY: 90 %) the sync runs now, in this thread. Returns
 * 0, or the sync callback's error (the chunk is released anyway; the
 * snapshot stays hot and is retried at the next sync). The chunk must not
 * be touched after this call. NULL is a no-op.
 */
int mlx5dm_icm_chunk_free(struct mlx5dm_icm_chunk *chunk);

/*
 * Line index of a MODIFY/PATTERN/ENCAP chunk, the value written into STE
 * action fields: (icm_addr - index_base) / 64. -EINVAL for an STE chunk,
 * -ERANGE if the address is below the base, not 64-byte aligned relative
 * to it or the index does not fit 32 bits.
 */
int mlx5dm_icm_chunk_line_index(const struct mlx5dm_icm_chunk *chunk, uint32_t *index);

/*
 * Sync now: every chunk freed before this call is back in its buddy when
 * it returns 0 (waits for a sync already running in another thread, then
 * runs its own). -EDEADLK from inside the sync callback. On a callback
 * error the hot chunks stay hot and the error is returned.
 */
int mlx5dm_icm_pool_sync(struct mlx5dm_icm_pool *pool);

struct mlx5dm_icm_stats {
	uint64_t dm_count;      /* DMs held */
	uint64_t dm_bytes;      /* bytes allocated from the device (incl. alignment slack) */
	uint64_t total_bytes;   /* usable bytes (sum of buddy sizes) */
	uint64_t used_bytes;    /* in live chunks */
	uint64_t hot_bytes;     /* freed, waiting for a sync */
	uint64_t free_bytes;    /* total - used - hot */
	uint64_t largest_free;  /* bytes of the largest free block in any DM, 0 if none */
	uint64_t live_chunks;   /* allocated and not freed */
	uint64_t syncs;         /* sync callbacks that succeeded */
	uint64_t sync_errors;   /* sync callbacks that failed */
	uint64_t threshold;     /* hot bytes that trigger a sync */
	uint32_t max_order;
};

/* A consistent snapshot (taken under the pool lock). */
void mlx5dm_icm_pool_stats(struct mlx5dm_icm_pool *pool, struct mlx5dm_icm_stats *stats);

/*
 * Syncs completed so far (stats.syncs without the snapshot, no lock): a
 * chunk freed when this read n is reusable once it reads more than n.
 */
uint64_t mlx5dm_icm_pool_syncs(const struct mlx5dm_icm_pool *pool);

/*
 * The pool set: the pools of one steering domain, sized from the device's
 * DEVICE_MEMORY caps (fields named as in the PRM), with one sync callback.
 */
struct mlx5dm_icm_caps {
	uint8_t steering_format_version;            /* 0 = ConnectX-5, 1 = ConnectX-6 Dx, ... */
	uint8_t log_steering_sw_icm_size;
	uint8_t log_header_modify_sw_icm_size;
	uint8_t log_header_modify_pattern_sw_icm_size;
	uint8_t log_indirect_encap_sw_icm_size;     /* 0: no SW encap */
	uint64_t header_modify_sw_icm_start_address;
	uint64_t header_modify_pattern_sw_icm_start_address;
	uint64_t indirect_encap_icm_base;
};

struct mlx5dm_icm_set_attr {
	struct mlx5dm_dev *dev;
	struct ibv_pd *pd;
	const struct mlx5dm_icm_caps *caps;
	mlx5dm_icm_sync_fn sync;    /* required */
	void *sync_arg;
	bool reclaim;
	/*
	 * Create the PATTERN pool (pattern + argument modify-header mode: the
	 * caller has checked fmt >= 1 and argument object support).
	 */
	bool modify_pattern;
};

/*
 * STE and MODIFY pools always; PATTERN when asked; ENCAP when the device
 * has SW encap ICM. Like rdma-core, the pattern ICM size is checked on
 * fmt >= 1 devices even when the pattern pool is not wanted. NULL + errno.
 */
struct mlx5dm_icm_set *mlx5dm_icm_set_create(const struct mlx5dm_icm_set_attr *attr);
void mlx5dm_icm_set_destroy(struct mlx5dm_icm_set *set);
/* The pool of a type, NULL if this set has none. */
struct mlx5dm_icm_pool *mlx5dm_icm_set_pool(const struct mlx5dm_icm_set *set,
					    enum mlx5dm_icm_type type);
/* Sync all pools with a single callback run (one drain + SYNC_STEERING). */
int mlx5dm_icm_set_sync(struct mlx5dm_icm_set *set);
/*
 * Per-type stats (zeroed for absent pools) and, if total != NULL, the sum of
 * every counter over the pools (largest_free, max_order: the largest).
 */
void mlx5dm_icm_set_stats(struct mlx5dm_icm_set *set,
			  struct mlx5dm_icm_stats stats[MLX5DM_ICM_TYPE_NUM],
			  struct mlx5dm_icm_stats *total);

#endif /* _MLX5DM_ICM_H_ */
