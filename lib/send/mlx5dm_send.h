/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Send rings: how the library writes ICM. A ring is a CQ plus an RC QP
 * connected to itself, both created through DEVX on the device boundary,
 * with the queue buffers in host memory registered as umems. The library
 * builds real mlx5 WQEs (RDMA WRITE, RDMA READ, FLOW_TBL_ACCESS) in the SQ
 * buffer, rings the doorbell and polls 64-byte CQEs itself: poll mode, no
 * interrupts, no kernel on the data path.
 *
 * Ordering: WQEs of one ring execute in posting order (RC). A caller that
 * needs earlier writes to be visible to the device's steering engine (before
 * SYNC_STEERING, before reusing ICM, before another ring depends on them)
 * calls mlx5dm_send_drain(), which posts an RDMA READ fence behind the
 * writes and waits for its completion.
 *
 * Threading: a ring is owned by one thread at a time; it takes no lock.
 * Use one ring per polling core.
 */

#ifndef _MLX5DM_SEND_H_
#define _MLX5DM_SEND_H_

#include <stdbool.h>
#include <stdint.h>

#include "mlx5dm_dev.h"

struct mlx5dm_send_ring;

/*
 * How the ring's RC QP reaches itself (INIT2RTR's primary address path),
 * as rdma-core's DR rings do: force-loopback when the device allows it,
 * else through the port's RoCE address (GID index 0 of port 1, from
 * QUERY_ROCE_ADDRESS), with a UDP source port for RoCE v2.
 */
struct mlx5dm_send_path {
	bool fl;
	uint8_t rgid[16];
	uint8_t rmac[6];
	bool roce_v2;
};

/* The UDP source port of a RoCE v2 ring (rdma-core's DR uses this one). */
#define MLX5DM_SEND_ROCE_UDP_SPORT 49999

/* SQ size of a ring, log2 of 64-byte WQEBBs, when the caller gives none; its CQ's as well. */
#define MLX5DM_SEND_LOG_SQ_WQEBB 10

struct mlx5dm_send_attr {
	struct mlx5dm_dev *dev;
	struct ibv_pd *pd;            /* protection domain of the MRs and the QP */
	uint32_t pdn;                 /* its PRM number (mlx5dv_init_obj MLX5DV_OBJ_PD) */
	struct mlx5dv_devx_uar *uar;  /* doorbell page; NULL: the ring allocates one */
	uint32_t log_sq_wqebb;        /* SQ size, log2 of 64-byte WQEBBs; 0: the default */
	uint32_t signal_th;           /* request a CQE every N WQEs; 0: 64 */
	/* Waits fail after this long without a CQE, wall and CPU time; 0: 5000. */
	uint32_t stall_ms;
	uint32_t data_buf_size;       /* staging for writes > 64 B; 0: 1 MiB */
	uint32_t eqn;                 /* completion EQ of the CQ (mlx5dv_devx_query_eqn) */
	struct mlx5dm_send_path path; /* how the QP connects to itself */
};

/* Create a ring; NULL with errno set (ENOMEM, or what the device refused). */
struct mlx5dm_send_ring *mlx5dm_send_ring_create(const struct mlx5dm_send_attr *attr);

/*
 * Give a ring the queues of attr (its size, log_sq_wqebb, above all): the
 * ring is drained, then a new QP and CQ with their buffers replace the old
 * ones, which are destroyed. The ring stays where it is (another thread may
 * ask mlx5dm_send_done() meanwhile), its statistics go on, and so do its
 * positions: they jump to the next multiple of 2^16, as a recovery's do,
 * so every position taken before is done. 0; -EIO (the ring is in error:
 * recover it first), -ETIMEDOUT (the drain), or errno of
 * mlx5dm_send_ring_create() (the ring keeps its queues).
 */
int mlx5dm_send_ring_resize(struct mlx5dm_send_ring *ring, const struct mlx5dm_send_attr *attr);

/* Drain, then destroy the QP, CQ, umems and buffers. */
void mlx5dm_send_ring_destroy(struct mlx5dm_send_ring *ring);

/* Largest single write; larger writes must be split by the caller. */
#define MLX5DM_SEND_MAX_WRITE (64u * 1024u)
/* Writes up to this size are inlined in the WQE (no staging copy). */
#define MLX5DM_SEND_MAX_INLINE 64u

/*
 * Post an RDMA WRITE of len bytes to (remote_addr, rkey). The data is
 * copied (into the WQE or the staging buffer) before the call returns, so
 * the caller may reuse it. The doorbell is rung lazily: by the next
 * mlx5dm_send_flush()/drain(), or when the SQ needs room.
 * Returns 0, -EINVAL (len 0 or > MLX5DM_SEND_MAX_WRITE), -EIO if the ring
 * saw an error completion, also one found while it waited for room (the
 * ring is then unusable and nothing was posted), or -ETIMEDOUT if it
 * waited for room and the device completed nothing for the stall limit
 * (attr.stall_ms; the ring is then unusable too). Waits never fail on a
 * device that keeps completing, however long it takes.
 */
int mlx5dm_send_write(struct mlx5dm_send_ring *ring, uint64_t remote_addr, uint32_t rkey,
		      const void *data, uint32_t len);

/*
 * Post RDMA WRITEs of count copies of the unit_len bytes at unit (1 to
 * MLX5DM_SEND_MAX_INLINE) to consecutive places from (remote_addr, rkey):
 * how a table's unused slots, all alike, are written. The unit is copied
 * MLX5DM_SEND_REPEAT_UNITS times into the staging buffer, and each WQE
 * gathers that copy up to MLX5DM_SEND_REPEAT_SEGS times (one data segment
 * each), so the copy is a fraction of the bytes written. Returns as
 * mlx5dm_send_write() (-EINVAL: count 0, unit NULL or unit_len out of range).
 */
#define MLX5DM_SEND_REPEAT_UNITS 16u
#define MLX5DM_SEND_REPEAT_SEGS 16u
int mlx5dm_send_write_repeat(struct mlx5dm_send_ring *ring, uint64_t remote_addr, uint32_t rkey,
			     const void *unit, uint32_t unit_len, uint32_t count);

/*
 * A write that must reach the device even when the ring fails before it
 * executed, as a rule's unlink must: the device would otherwise keep
 * steering by an entry whose ICM went back to its pool. Posted as
 * mlx5dm_send_write() (len 1 to MLX5DM_SEND_MAX_INLINE, inline), with the
 * WQE marked: the SQ keeps its bytes until the slot is reused, which is
 * after its completion, so no copy is made. Should the ring lose it (the
 * QP failed at or before it), mlx5dm_send_recover() posts it again, in
 * posting order, behind the reset QP. On a ring in error (-EIO, or
 * -ETIMEDOUT when its wait for room made it so) the WQE is built all the
 * same and not rung, to be lost with the QP's: the other posts leave the
 * SQ room for one such write between two recoveries, and one more per
 * hold (mlx5dm_send_kept_hold()); a caller that would post more makes
 * room with mlx5dm_send_kept_room() first, which refuses on a ring in
 * error. Past that room it is dropped, logged.
 */
int mlx5dm_send_write_kept(struct mlx5dm_send_ring *ring, uint64_t remote_addr, uint32_t rkey,
			   const void *data, uint32_t len);

/*
 * Make room for one mlx5dm_send_write_kept(): when 0, the next one
 * succeeds if nothing else is posted before it. -EIO (the ring is in
 * error) or -ETIMEDOUT (the wait for room, as mlx5dm_send_write()'s).
 */
int mlx5dm_send_kept_room(struct mlx5dm_send_ring *ring);

/*
 * Hold room for one more kept write on the ring in error: until
 * mlx5dm_send_kept_release(), the other posts leave the SQ room for it
 * besides the ring's own one, so an operation that may have to undo
 * itself with a kept write (undoing a half-made rule) can, even when
 * others posted theirs on the ring in error meanwhile. What is posted
 * already leaves that room when it returns 0 (it may wait for it).
 * -EIO (the ring is in error: nothing may start), -ETIMEDOUT (the wait
 * for room, as mlx5dm_send_write()'s), or -EBUSY (the holds would take
 * more than a quarter of the SQ).
 */
int mlx5dm_send_kept_hold(struct mlx5dm_send_ring *ring);

/* Give up a hold (the write it held room for was posted, or is not needed). */
void mlx5dm_send_kept_release(struct mlx5dm_send_ring *ring);

/*
 * True when the ring is in error and a kept write did not execute: the
 * device may still reach what it was meant to cut off until
 * mlx5dm_send_recover() posts it again.
 */
bool mlx5dm_send_kept_due(const struct mlx5dm_send_ring *ring);

/*
 * Post a FLOW_TBL_ACCESS WQE updating modify-header argument data: 64 bytes
 * (8 actions) into argument unit arg_id (argument object id + unit offset).
 */
int mlx5dm_send_arg_update(struct mlx5dm_send_ring *ring, uint32_t arg_id,
			   const void *data64);

/*
 * Ring the doorbell for everything posted so far, then reap the completions
 * already there (no wait): 0, or -EIO when the ring is (or is found) in error.
 */
int mlx5dm_send_flush(struct mlx5dm_send_ring *ring);

/* Ring the doorbell only if at least min_wqes WQEs wait for it (0, or -EIO as flush). */
int mlx5dm_send_flush_batch(struct mlx5dm_send_ring *ring, uint32_t min_wqes);

/*
 * Error state. A WQE that completes in error (an error CQE: its syndrome
 * is in the statistics) moves the QP to the error state, as on a
 * ConnectX: that WQE wrote nothing, the WQEs before it executed, and every
 * later one is flushed unexecuted. The ring then stays in error until
 * mlx5dm_send_recover(): every call returns -EIO (nothing is posted, but
 * a kept write, and nothing is retried). A ring that waited the stall
 * limit for room without any completion is in error too (a WQE of an
 * operation may then be missing).
 * A drain that waited that long is not: it returns -ETIMEDOUT with every
 * write still posted, and a later drain waits for them again.
 */

/*
 * Bring a ring in error back: wait until the device has flushed what it
 * was told of (as mlx5dm_send_quiesce()), reset the QP and connect it
 * again (RST, INIT, RTR, RTS). The WQEs that did not execute are dropped:
 * mlx5dm_send_lost() keeps answering for them until the next recovery.
 * The kept writes among them are posted again in their order
 * (mlx5dm_send_stats.rewrites counts them), not waited for.
 * 0 (also on a ring not in error), -ETIMEDOUT (the device did not flush:
 * the ring stays in error, and a later call tries again), or what the
 * device refused.
 */
int mlx5dm_send_recover(struct mlx5dm_send_ring *ring);

/*
 * Wait until no WQE posted on the ring can still execute: a drain on a
 * working ring; on a ring in error, until the device has flushed what it
 * was told of. 0, or -ETIMEDOUT (the device is silent: nothing is sure).
 * Freed ICM may then be reused even when the ring failed.
 */
int mlx5dm_send_quiesce(struct mlx5dm_send_ring *ring);

/* 0, or -EIO once the ring is in error (nothing is polled). */
int mlx5dm_send_error(const struct mlx5dm_send_ring *ring);

/* Position of the next WQE to be posted (the WQEs posted so far end there). */
uint32_t mlx5dm_send_pos(const struct mlx5dm_send_ring *ring);

/*
 * True when every WQE posted before pos (a value of mlx5dm_send_pos()) is
 * known to have completed. Another thread than the ring's user may ask:
 * it reads the completion counter the user last reaped, nothing else.
 */
bool mlx5dm_send_done(const struct mlx5dm_send_ring *ring, uint32_t pos);

/*
 * True when a WQE posted before pos (a value of mlx5dm_send_pos()) did not
 * execute: the ring is in error and pos is past the failed WQE, or pos is
 * among the positions the last mlx5dm_send_recover() dropped. Writes
 * posted before pos are on the device when it is false and the ring has
 * reaped their completions.
 */
bool mlx5dm_send_lost(const struct mlx5dm_send_ring *ring, uint32_t pos);

/*
 * Make every write posted so far complete: post an RDMA READ of the last
 * written ICM range behind them (a completion fence on an RC QP), ring the
 * doorbell and poll until it completes. 0, -EIO, or -ETIMEDOUT (no
 * completion for the stall limit: the writes stay posted, the ring usable,
 * and a later drain waits for them again).
 */
int mlx5dm_send_drain(struct mlx5dm_send_ring *ring);

/*
 * Where the ring's completions have reached, without waiting: ring the
 * doorbell for what was posted, ask for a completion behind the last WQE
 * when it asked for none (the drain's fence, posted and not waited for),
 * reap the completions there, and set *done: every WQE posted before it
 * has completed (mlx5dm_send_done() is true for it). As DPDK mlx5 HWS's
 * queue poll, which hands out the rules whose completions arrived.
 * 0, or -EIO when the ring is in error (*done is set all the same).
 */
int mlx5dm_send_progress(struct mlx5dm_send_ring *ring, uint32_t *done);

/* Reap completions without waiting; returns how many CQEs were consumed or -EIO. */
int mlx5dm_send_poll(struct mlx5dm_send_ring *ring);

struct mlx5dm_send_stats {
	uint64_t wqes;         /* WQEs posted */
	uint64_t writes;       /* RDMA WRITEs */
	uint64_t write_bytes;  /* bytes written */
	uint64_t inline_writes;
	uint64_t reads;        /* fence READs */
	uint64_t arg_updates;  /* FLOW_TBL_ACCESS WQEs */
	uint64_t doorbells;
	uint64_t cqes;
	uint64_t full_waits;   /* times the SQ or the staging buffer was full */
	uint64_t sq_full_waits; /* of those, times the SQ was full */
	uint64_t drain_timeouts; /* drains that gave up on a silent device */
	uint64_t recoveries;   /* times mlx5dm_send_recover() brought the QP back */
	uint64_t rewrites;     /* kept writes a recovery posted again */
	uint32_t err_syndrome; /* syndrome of the first error CQE, 0 if none */
	/* The ring's state when read. */
	uint32_t size;         /* WQEBBs */
	uint32_t outstanding;  /* WQEBBs posted and not completed */
	uint32_t unrung;       /* WQEs posted since the last doorbell */
	int err;               /* mlx5dm_send_error() */
};

void mlx5dm_send_stats_get(const struct mlx5dm_send_ring *ring, struct mlx5dm_send_stats *st);

/* mlx5dm_send_stats.sq_full_waits alone: cheap enough to ask after every operation. */
uint64_t mlx5dm_send_sq_full_waits(const struct mlx5dm_send_ring *ring);

/* The QP and CQ numbers (for logs and dumps). */
uint32_t mlx5dm_send_ring_qpn(const struct mlx5dm_send_ring *ring);
uint32_t mlx5dm_send_ring_cqn(const struct mlx5dm_send_ring *ring);

#endif /* _MLX5DM_SEND_H_ */
