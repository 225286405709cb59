/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * A fake device boundary for the ICM tests: alloc_dm hands out addresses
 * from one fake ICM range per DM type, init_obj reports them, reg_dm_mr
 * returns MRs with fresh rkeys. Knobs make it misalign or fail; counters
 * and a record of every DM let tests check what the pools did. Plus a
 * counting host allocator (leak checks independent of ASan), a sync probe
 * and a log capture.
 */

#ifndef _TEST_ICM_FAKE_H_
#define _TEST_ICM_FAKE_H_

#include <stdbool.h>
#include <stdint.h>

#include "mlx5dm_osdep.h"
#include "mlx5dm_icm.h"

/* Fake ICM ranges: high bits set like a real vhca_id would; 1 TiB each. */
#define FAKE_ICM_BASE(dm_type) (0x0001000000000000ull + ((uint64_t)(dm_type) << 40))
/* The first DM of a type starts this far into its range (non-zero line indexes). */
#define FAKE_ICM_FIRST_OFFSET 0x10000ull
#define FAKE_RKEY_FIRST 0x1000u
#define FAKE_MAX_DMS 256
#define FAKE_DM_TYPES 5

struct fake_dm {
	struct ibv_dm ibv;     /* first: what the pool sees */
	uint32_t type;
	uint64_t addr;
	uint64_t length;
	bool live;
	struct fake_mr *mr;    /* last MR registered on it */
};

struct fake_mr {
	struct ibv_mr ibv;     /* first */
	struct fake_dm *dm;
	uint64_t dm_offset;
	unsigned int access;
};

struct fake_dev {
	struct mlx5dm_dev dev;
	struct ibv_pd *pd;
	uint64_t next[FAKE_DM_TYPES];  /* bump pointer per type */
	/* Knobs. */
	unsigned int misalign_calls;   /* the next N alloc_dm results are misaligned ... */
	uint64_t misalign_by;          /* ... by this many bytes */
	unsigned int fail_alloc_at;    /* n-th alloc_dm call from now fails (ENOMEM), 0 = never */
	bool fail_alloc_always;
	bool fail_reg;                 /* reg_dm_mr fails with EACCES */
	bool no_remote_va;             /* init_obj does not report the ICM address */
	/* Counters. */
	unsigned int alloc_calls;
	unsigned int free_calls;
	unsigned int reg_calls;
	unsigned int dereg_calls;
	unsigned int init_obj_calls;
	unsigned int live_dms;
	unsigned int live_mrs;
	uint32_t next_rkey;
	/* Every DM handed out since fake_init, in order. */
	struct fake_dm *dms[FAKE_MAX_DMS];
	unsigned int ndms;
};

extern struct fake_dev fake;

/* (Re)initialise the fake device and install the counting allocator. */
void fake_init(void);
/* Free the fake's records; asserts no DM or MR is left alive. */
void fake_fini(void);
/* Host allocations (through the mlx5dm shim) currently alive. */
long fake_live_allocs(void);

/* Sync callback probe. */
struct sync_probe {
	int calls;
	int ret;                          /* what the callback returns */
	struct mlx5dm_icm_pool *pool;     /* stats of this pool are taken inside */
	struct mlx5dm_icm_stats in_sync;  /* ... at the last call */
	int (*hook)(struct sync_probe *p); /* extra work inside the callback */
	int hook_ret;
	void *ctx;
};

int probe_sync(void *arg);

/* Log capture: number of lines at ERR seen since the last reset. */
void log_capture_start(void);
void log_capture_stop(void);
int log_errors(void);
const char *log_last(void);

/* A pool attr for the fake device. */
struct mlx5dm_icm_pool_attr fake_pool_attr(enum mlx5dm_icm_type type, uint8_t log_icm_size,
					   struct sync_probe *probe);

/* A pool on the fake device (asserted non-NULL); probe->pool is set to it. */
struct mlx5dm_icm_pool *fake_pool_new(enum mlx5dm_icm_type type, uint8_t log_icm_size,
				      uint64_t index_base, struct sync_probe *probe);

#endif /* _TEST_ICM_FAKE_H_ */
