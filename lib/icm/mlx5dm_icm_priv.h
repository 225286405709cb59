/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/* ICM module internals shared by its files (types, DMs, chunks, sync). */

#ifndef _MLX5DM_ICM_PRIV_H_
#define _MLX5DM_ICM_PRIV_H_

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/queue.h>

#include "mlx5dm_osdep.h"
#include "mlx5dm_buddy.h"
#include "mlx5dm_icm.h"

#define MLX5DM_ICM_LOG "icm"

/* Per-type policy, as data (rdma-core dr_icm_pool.c, dr_domain.c). */
struct mlx5dm_icm_type_info {
	const char *name;
	uint32_t dm_type;       /* MLX5DV_DM_TYPE_* */
	uint8_t log_entry;      /* log2 of the entry (buddy unit) size */
	/* The device must hold one DM of 2^min_order entries (log_icm >= min + entry). */
	uint8_t min_order;
	uint8_t order_cap;      /* max_order never above this */
	/*
	 * max_order also limited to 1/8 of the device's ICM of the type, so
	 * that a domain of each kind can be opened on one device.
	 */
	bool eighth_of_device;
	/*
	 * STE: a hit pointer carries the table size in the low bits of the
	 * table address (§4.1), so a table must be aligned to its byte size;
	 * buddy blocks are aligned relative to the DM start, hence the DM
	 * start is aligned to the whole DM. Other types: one 64-byte line.
	 */
	bool align_whole;
	uint8_t sync_percent;   /* hot bytes >= this % of one DM trigger a sync */
};

extern const struct mlx5dm_icm_type_info mlx5dm_icm_types[MLX5DM_ICM_TYPE_NUM];

/* Alignment of the non-STE types: one 64-byte ICM line. */
#define MLX5DM_ICM_LINE_LOG 6

struct mlx5dm_icm_dm;

struct mlx5dm_icm_chunk_priv {
	struct mlx5dm_icm_chunk pub;     /* first: the user's handle */
	struct mlx5dm_icm_dm *dm;        /* owner */
	uint32_t seg;                    /* first entry inside the DM's buddy */
	TAILQ_ENTRY(mlx5dm_icm_chunk_priv) next; /* on dm->used or dm->hot (or a snapshot) */
};
TAILQ_HEAD(mlx5dm_icm_chunk_list, mlx5dm_icm_chunk_priv);

static inline struct mlx5dm_icm_chunk_priv *
mlx5dm_icm_chunk_priv(struct mlx5dm_icm_chunk *chunk)
{
	return (struct mlx5dm_icm_chunk_priv *)chunk;
}

/* One device-memory allocation, its MR and the buddy carving it. */
struct mlx5dm_icm_dm {
	TAILQ_ENTRY(mlx5dm_icm_dm) next;
	struct mlx5dm_icm_pool *pool;
	struct mlx5dm_buddy *buddy;
	struct ibv_dm *dm;
	struct ibv_mr *mr;
	uint64_t icm_start;       /* aligned ICM address of entry 0 */
	uint64_t dm_length;       /* bytes asked from the device (L or 2L) */
	uint64_t offset_in_dm;    /* icm_start - DM address; the MR starts there */
	uint64_t size;            /* usable bytes: 2^max_order entries */
	uint64_t busy;            /* bytes in live + hot chunks; 0 = reclaimable */
	unsigned int max_order;
	struct mlx5dm_icm_chunk_list used;
	struct mlx5dm_icm_chunk_list hot;
};
TAILQ_HEAD(mlx5dm_icm_dm_list, mlx5dm_icm_dm);

struct mlx5dm_icm_pool {
	struct mlx5dm_spinlock lock;
	enum mlx5dm_icm_type type;
	const struct mlx5dm_icm_type_info *info;
	struct mlx5dm_dev *dev;
	struct ibv_pd *pd;
	uint8_t log_icm_size;
	uint64_t index_base;
	mlx5dm_icm_sync_fn sync;
	void *sync_arg;
	/* Everything below is guarded by lock. */
	bool reclaim;
	bool syncing;             /* a sync callback is running (re-entry guard) */
	bool growing;             /* a thread is creating a DM outside the lock */
	pthread_t sync_thread;    /* valid while syncing */
	unsigned int max_order;
	uint64_t threshold;
	struct mlx5dm_icm_dm_list dms; /* newest first: searched in that order */
	uint64_t used_bytes;
	uint64_t hot_bytes;
	uint64_t live_chunks;
	uint64_t syncs;
	uint64_t sync_errors;
};

/* DM life (mlx5dm_icm_dm.c). Called without the pool lock. NULL + errno. */
struct mlx5dm_icm_dm *mlx5dm_icm_dm_create(struct mlx5dm_icm_pool *pool,
					   unsigned int max_order);
/* Frees the chunk structs still on its lists, the MR, the DM and the buddy. */
void mlx5dm_icm_dm_destroy(struct mlx5dm_icm_dm *dm);

/* What a sync took from the pool, released once the pool lock is dropped. */
struct mlx5dm_icm_snap {
	struct mlx5dm_icm_chunk_list chunks;
	struct mlx5dm_icm_dm_list reclaimed;
};

/* Sync phases (mlx5dm_icm_sync.c); begin/end with the pool lock held. */
int mlx5dm_icm_sync_wait(struct mlx5dm_icm_pool *pool);
void mlx5dm_icm_sync_begin(struct mlx5dm_icm_pool *pool, struct mlx5dm_icm_snap *snap);
void mlx5dm_icm_sync_end(struct mlx5dm_icm_pool *pool, struct mlx5dm_icm_snap *snap, int err);
void mlx5dm_icm_sync_release(struct mlx5dm_icm_snap *snap);
/* begin + callback (unlocked) + end; lock held on entry and exit. */
int mlx5dm_icm_sync_run(struct mlx5dm_icm_pool *pool, struct mlx5dm_icm_snap *snap);

/* Hot-bytes threshold of a pool at a given max order. */
uint64_t mlx5dm_icm_threshold(const struct mlx5dm_icm_type_info *info, unsigned int max_order);

#endif /* _MLX5DM_ICM_PRIV_H_ */
