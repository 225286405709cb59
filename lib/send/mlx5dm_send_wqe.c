/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * WQE construction, doorbell and completion polling.
 *
 * WQE shapes (16-byte data segments, "DS"):
 *   RDMA WRITE inline : ctrl | raddr | inline hdr + data (<= 64 B)  -> <= 7 DS, 2 WQEBBs
 *   RDMA WRITE pointer: ctrl | raddr | data ptr (lkey of staging)   -> 3 DS, 1 WQEBB
 *   RDMA READ fence   : ctrl | raddr | data ptr (sync area)         -> 3 DS, 1 WQEBB
 *   FLOW_TBL_ACCESS   : ctrl | flow-update ctrl (48) | 64 B data     -> 8 DS, 2 WQEBBs
 *   NOP               : ctrl                                        -> 1 DS, 1 WQEBB
 * A WQE may wrap from the end of the SQ buffer to its start.
 */

#include <errno.h>
#include <sched.h>
#include <string.h>
#include <time.h>
#include <arpa/inet.h>

#include "mlx5dm_osdep.h"
#include "mlx5dm_prm_queue.h"
#include "mlx5dm_send_priv.h"


static inline uint64_t
mlx5dm_send_htobe64(uint64_t v)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* The remote address segment is big-endian: one swap of the whole word. */
	return __builtin_bswap64(v);
#else
	return v;
#endif
}

/* Largest WQE the ring posts (FLOW_TBL_ACCESS, inline RDMA WRITE of 64 bytes): 2 WQEBBs. */
#define MLX5DM_SEND_WQE_MAX 128u
/* How far ahead of the producer index WQEBBs are taken for writing: some WQEs. */
#define MLX5DM_SEND_PREFETCH_NBB 8u

/*
 * WQEBBs the posts may fill: the SQ keeps those of a kept write free for
 * one posted on the ring in error (mlx5dm_send_write_kept()), and for one
 * more per hold (mlx5dm_send_kept_hold()).
 */
static inline uint32_t
mlx5dm_send_room(const struct mlx5dm_send_ring *ring)
{
	return (1u << ring->queues.log_nbb) - MLX5DM_SEND_KEPT_NBB * (1 + ring->kept_holds);
}

/* The SQ slot (WQEBB index) of position pos. */
static inline uint32_t
mlx5dm_send_slot(const struct mlx5dm_send_ring *ring, uint32_t pos)
{
	return pos & ((1u << ring->queues.log_nbb) - 1);
}

/* The WQE of len bytes at w, begun (mlx5dm_send_begin()), is in the SQ. */
static inline void
mlx5dm_send_commit(struct mlx5dm_send_ring *ring, const uint8_t *w, uint32_t len,
		   const uint8_t *tmp)
{
	uint32_t start, first;

	if (w != tmp)
		return;
	start = mlx5dm_send_slot(ring, ring->pi - (len + 63) / 64);
	first = ((1u << ring->queues.log_nbb) - start) * 64;
	memcpy(ring->queues.sq_buf + (size_t)start * 64, tmp, first);
	memcpy(ring->queues.sq_buf, tmp + first, len - first);
}

static uint64_t
mlx5dm_send_clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Where a ring wait's current run of polls without a completion began. */
struct mlx5dm_send_idle {
	uint64_t wall;  /* monotonic clock; 0: the last poll reaped (or none yet) */
	uint64_t cpu;   /* the waiting thread's CPU clock */
};

/*
 * A wait gives up only on a device that completed nothing for the ring's
 * stall limit: a slow device (a loaded host, the model under valgrind)
 * still progresses, however long the whole backlog takes. The limit must
 * pass on the waiting thread's CPU clock as well as the wall's: a host too
 * loaded to run a device thread (the model's) runs this loop as little,
 * so only a device that had the host's time and completed nothing fails
 * the wait. reaped: CQEs the last poll consumed. An idle poll yields: the
 * device may share the core with this (control path) loop, and valgrind
 * runs one thread at a time.
 */
static bool
mlx5dm_send_stalled(const struct mlx5dm_send_ring *ring, int reaped,
		    struct mlx5dm_send_idle *idle)
{
	uint64_t now;

	if (reaped > 0) {
		idle->wall = 0;
		return false;
	}
	sched_yield();
	now = mlx5dm_send_clock_ns(CLOCK_MONOTONIC);
	if (idle->wall == 0) {
		idle->wall = now;
		idle->cpu = mlx5dm_send_clock_ns(CLOCK_THREAD_CPUTIME_ID);
		return false;
	}
	/* The CPU clock is a system call: read only once the wall says so. */
	return now - idle->wall > ring->queues.stall_ns &&
	       mlx5dm_send_clock_ns(CLOCK_THREAD_CPUTIME_ID) - idle->cpu > ring->queues.stall_ns;
}

/* Inlined into the flush, which rings once per rule operation. */
static MLX5DM_ALWAYS_INLINE void
mlx5dm_send_ring_db(struct mlx5dm_send_ring *ring)
{
	uint32_t *qp_dbr = (uint32_t *)(ring->queues.dbr_buf + MLX5DM_SEND_QP_DBR_OFF);
	uint64_t first8;

	if (ring->unrung == 0)
		return;
	/* WQE stores before the doorbell record, the record before the MMIO write. */
	mlx5dm_wmb();
	__atomic_store_n(&qp_dbr[MLX5_SND_DBR], htonl(ring->pi & 0xffff), __ATOMIC_RELAXED);
	mlx5dm_wmb();
	memcpy(&first8, ring->last_ctrl, sizeof(first8));
	mlx5dm_dev_doorbell(ring->queues.uar, 0, first8);
	ring->rung_pi = ring->pi;
	ring->unrung = 0;
	ring->stats.doorbells++;
}

/* The ring is unusable from WQE position pos on (the first failure counts). */
static void
mlx5dm_send_fail(struct mlx5dm_send_ring *ring, uint32_t pos)
{
	if (ring->err != 0)
		return;
	ring->err = -EIO;
	ring->err_pos = pos;
}

/* The CQE at the consumer index when the device has written it, else NULL. */
static MLX5DM_ALWAYS_INLINE const struct mlx5_cqe64 *
mlx5dm_send_cqe(const struct mlx5dm_send_ring *ring)
{
	const struct mlx5_cqe64 *cqe = (const void *)(ring->queues.cq_buf +
		(size_t)(ring->queues.cq_ci & ((1u << ring->queues.log_ncqe) - 1)) * 64);
	uint8_t op_own = __atomic_load_n(&cqe->op_own, __ATOMIC_ACQUIRE);

	if ((op_own >> 4) == MLX5_CQE_INVALID ||
	    (op_own & MLX5_CQE_OWNER_MASK) != ((ring->queues.cq_ci >> ring->queues.log_ncqe) & 1))
		return NULL;
	return cqe;
}

/* Consume the completions there; how many. */
static int
mlx5dm_send_reap(struct mlx5dm_send_ring *ring)
{
	uint32_t *cq_dbr = (uint32_t *)(ring->queues.dbr_buf + MLX5DM_SEND_CQ_DBR_OFF);
	const struct mlx5_cqe64 *cqe;
	int n = 0;

	while ((cqe = mlx5dm_send_cqe(ring)) != NULL) {
		uint8_t opcode = cqe->op_own >> 4;
		uint32_t slot;

		mlx5dm_rmb();
		if (opcode == MLX5_CQE_REQ_ERR || opcode == MLX5_CQE_RESP_ERR) {
			const struct mlx5_err_cqe *e = (const void *)cqe;

			if (ring->err == 0) {
				ring->stats.err_syndrome = e->syndrome;
				MLX5DM_LOG(ERR, "send", "qpn 0x%x: error CQE opcode %u "
					   "syndrome 0x%x vendor 0x%x at WQE %u", ring->queues.qpn,
					   opcode, e->syndrome, e->vendor_err_synd,
					   ntohs(e->wqe_counter));
				/*
				 * The QP is in error from this WQE on: it did not write,
				 * the ones before it did (RC executes in order).
				 */
				mlx5dm_send_fail(ring, ring->ci + (uint16_t)(ntohs(e->wqe_counter) -
								 (uint16_t)ring->ci));
			}
		}
		slot = mlx5dm_send_slot(ring, ntohs(cqe->wqe_counter));
		/* Read by other threads (mlx5dm_send_done()). */
		__atomic_store_n(&ring->ci, ring->queues.wqe_end[slot], __ATOMIC_RELEASE);
		ring->data_tail = ring->queues.wqe_data_end[slot];
		ring->queues.cq_ci++;
		n++;
	}
	if (n > 0) {
		ring->stats.cqes += (uint64_t)n;
		mlx5dm_wmb();
		__atomic_store_n(&cq_dbr[0], htonl(ring->queues.cq_ci & 0xffffff),
				 __ATOMIC_RELAXED);
	}
	return n;
}

int
mlx5dm_send_poll(struct mlx5dm_send_ring *ring)
{
	int n;

	/*
	 * Right after a rule's doorbell the device has usually completed
	 * nothing yet: one look at the next CQE, not a reap.
	 */
	if (mlx5dm_send_cqe(ring) == NULL)
		return ring->err;
	n = mlx5dm_send_reap(ring);
	return ring->err != 0 ? ring->err : n;
}

/*
 * Wait until nbb WQEBBs and data_len contiguous staging bytes are free.
 * The ring's error first: the flush of a QP that failed meanwhile frees
 * room too, yet nothing may be posted behind it.
 */
int
mlx5dm_send_wait_room(struct mlx5dm_send_ring *ring, uint32_t nbb, uint32_t data_len)
{
	uint32_t size = mlx5dm_send_room(ring);
	struct mlx5dm_send_idle idle = { 0, 0 };
	bool rung = false;
	int reaped = 0;

	for (;;) {
		uint64_t head = ring->data_head;

		if (ring->err != 0)
			return ring->err;
		if (data_len != 0) {
			uint32_t pos = (uint32_t)(head % ring->queues.data_size);

			/* The reservation skips the tail end. */
			if (pos + data_len > ring->queues.data_size)
				head += ring->queues.data_size - pos;
		}
		if (ring->pi + nbb - ring->ci <= size &&
		    head + data_len - ring->data_tail <= ring->queues.data_size)
			return 0;
		if (!rung) {
			ring->stats.full_waits++;
			if (ring->pi + nbb - ring->ci > size)
				ring->stats.sq_full_waits++;
			mlx5dm_send_ring_db(ring);
			rung = true;
		} else if (mlx5dm_send_stalled(ring, reaped, &idle)) {
			MLX5DM_LOG(ERR, "send", "qpn 0x%x: no completion for %u ms (pi %u ci %u)",
				   ring->queues.qpn,
				   (unsigned int)(ring->queues.stall_ns / 1000000), ring->pi,
				   ring->ci);
			mlx5dm_send_fail(ring, ring->ci);
			return -ETIMEDOUT;
		}
		reaped = mlx5dm_send_poll(ring);
	}
}

/*
 * Begin a WQE of ds segments at the producer index: write its control
 * segment and account it. It is built straight in the SQ when it does
 * not wrap past the buffer's end (nearly always), else in tmp, which
 * mlx5dm_send_commit() then copies in two pieces. Returns where.
 */
static inline uint8_t *
mlx5dm_send_begin(struct mlx5dm_send_ring *ring, uint8_t *tmp, uint8_t opcode, uint8_t opmod,
		  uint32_t ds, bool signal, uint32_t imm)
{
	uint32_t nbb = (ds * 16 + 63) / 64;
	uint32_t slot = mlx5dm_send_slot(ring, ring->pi), i;
	uint8_t *w = slot + nbb <= (1u << ring->queues.log_nbb) ?
		     ring->queues.sq_buf + (size_t)slot * 64 : tmp;
	struct mlx5_wqe_ctrl_seg *ctrl = (struct mlx5_wqe_ctrl_seg *)(void *)w;

	ctrl->opmod_idx_opcode = htonl(((uint32_t)opmod << 24) | ((ring->pi & 0xffff) << 8) |
				       opcode);
	ctrl->qpn_ds = htonl((ring->queues.qpn << 8) | ds);
	ctrl->signature = 0;
	ctrl->dci_stream_channel_id = 0;
	ctrl->fm_ce_se = signal ? MLX5_WQE_CTRL_CQ_UPDATE : 0;
	ctrl->imm = htonl(imm);
	ring->last_ctrl = ring->queues.sq_buf + (size_t)slot * 64;
	/*
	 * The WQEBBs a few WQEs on: the device read them a lap ago, so
	 * each store there would first wait to take the line back.
	 */
	for (i = MLX5DM_SEND_PREFETCH_NBB; i < MLX5DM_SEND_PREFETCH_NBB + nbb; i++)
		MLX5DM_PREFETCH_W(ring->queues.sq_buf +
				  (size_t)mlx5dm_send_slot(ring, ring->pi + i) * 64);
	ring->pi += nbb;
	ring->queues.wqe_end[slot] = ring->pi;
	ring->queues.wqe_data_end[slot] = ring->data_head;
	ring->queues.wqe_kept[slot] = 0;
	ring->unrung++;
	ring->stats.wqes++;
	if (signal) {
		ring->since_signal = 0;
		ring->data_unsignaled = 0;
	} else {
		ring->since_signal++;
	}
	return w;
}

static inline bool
mlx5dm_send_want_signal(struct mlx5dm_send_ring *ring, uint32_t staged)
{
	return ring->since_signal + 1 >= ring->queues.signal_th ||
	       ring->data_unsignaled + staged > ring->queues.data_size / 4;
}

static inline void
mlx5dm_send_raddr(uint8_t *at, uint64_t raddr, uint32_t rkey)
{
	struct mlx5_wqe_raddr_seg *r = (struct mlx5_wqe_raddr_seg *)(void *)at;

	r->raddr = mlx5dm_send_htobe64(raddr);
	r->rkey = htonl(rkey);
	r->reserved = 0;
}

static inline void
mlx5dm_send_dptr(uint8_t *at, uint64_t addr, uint32_t lkey, uint32_t len)
{
	struct mlx5_wqe_data_seg *d = (struct mlx5_wqe_data_seg *)(void *)at;

	d->byte_count = htonl(len);
	d->lkey = htonl(lkey);
	d->addr = mlx5dm_send_htobe64(addr);
}

/* WQEBBs of an inline RDMA WRITE of len bytes. */
#define MLX5DM_SEND_INLINE_NBB(len) ((2 * 16 + (4 + (len) + 15) / 16 * 16 + 63) / 64)

/*
 * Build an RDMA WRITE with the data inline in the WQE (len <=
 * MLX5DM_SEND_MAX_INLINE), where the caller found room for it. Inlined into
 * mlx5dm_send_write() once per STE write size (a full entry, its control
 * half) and once for the rest: the segment count, the WQEBBs and the
 * copies are constants of the two STE sizes.
 */
static MLX5DM_ALWAYS_INLINE void
mlx5dm_send_inline_wqe(struct mlx5dm_send_ring *ring, uint64_t remote_addr, uint32_t rkey,
		       const void *data, uint32_t len)
{
	uint64_t tmp[MLX5DM_SEND_WQE_MAX / 8];
	uint32_t inl = (4 + len + 15) & ~15u;
	uint32_t ds = 2 + inl / 16;
	uint32_t hdr;
	uint8_t *w;

	/*
	 * Unsignaled staged bytes stay within the bound that
	 * mlx5dm_send_stage() signals past: an inline write only counts WQEs.
	 */
	w = mlx5dm_send_begin(ring, (uint8_t *)tmp, MLX5_OPCODE_RDMA_WRITE, 0, ds,
			      ring->since_signal + 1 >= ring->queues.signal_th, 0);
	mlx5dm_send_raddr(w + 16, remote_addr, rkey);
	hdr = htonl(MLX5_INLINE_SEG | len);
	memcpy(w + 32, &hdr, sizeof(hdr));
	memcpy(w + 36, data, len);
	memset(w + 36 + len, 0, inl - 4 - len);
	mlx5dm_send_commit(ring, w, ds * 16, (uint8_t *)tmp);
	ring->stats.inline_writes++;
}

static MLX5DM_ALWAYS_INLINE int
mlx5dm_send_write_inline(struct mlx5dm_send_ring *ring, uint64_t remote_addr, uint32_t rkey,
			 const void *data, uint32_t len)
{
	uint32_t nbb = MLX5DM_SEND_INLINE_NBB(len);
	int ret;

	/* Usually there is room: the wait (and its clock) only when the SQ is full. */
	if (MLX5DM_UNLIKELY(ring->pi + nbb - ring->ci > mlx5dm_send_room(ring))) {
		ret = mlx5dm_send_wait_room(ring, nbb, 0);
		if (ret < 0)
			return ret;
	}
	mlx5dm_send_inline_wqe(ring, remote_addr, rkey, data, len);
	return 0;
}

/*
 * Room for a WQE of nbb WQEBBs and len contiguous staging bytes, taken:
 * where the bytes go in the staging buffer, or a negative errno. Whether
 * the WQE asks for a completion is in *signal.
 */
static int
mlx5dm_send_stage(struct mlx5dm_send_ring *ring, uint32_t nbb, uint32_t len, bool *signal)
{
	uint32_t pos;
	int ret;

	ret = mlx5dm_send_wait_room(ring, nbb, len);
	if (ret < 0)
		return ret;
	pos = (uint32_t)(ring->data_head % ring->queues.data_size);
	if (pos + len > ring->queues.data_size) {
		ring->data_head += ring->queues.data_size - pos;
		pos = 0;
	}
	ring->data_head += len;
	*signal = mlx5dm_send_want_signal(ring, len);
	ring->data_unsignaled += len;
	return (int)pos;
}

/* An RDMA WRITE from the staging buffer (the data is copied there first). */
static int
mlx5dm_send_write_staged(struct mlx5dm_send_ring *ring, uint64_t remote_addr, uint32_t rkey,
			 const void *data, uint32_t len)
{
	uint64_t tmp[MLX5DM_SEND_WQE_MAX / 8];
	uint8_t *w;
	bool sig;
	int pos;

	pos = mlx5dm_send_stage(ring, 1, len, &sig);
	if (pos < 0)
		return pos;
	memcpy(ring->queues.data_buf + pos, data, len);
	w = mlx5dm_send_begin(ring, (uint8_t *)tmp, MLX5_OPCODE_RDMA_WRITE, 0, 3, sig, 0);
	mlx5dm_send_raddr(w + 16, remote_addr, rkey);
	mlx5dm_send_dptr(w + 32, (uint64_t)(uintptr_t)(ring->queues.data_buf + pos),
			 ring->queues.data_mr->lkey, len);
	mlx5dm_send_commit(ring, w, 48, (uint8_t *)tmp);
	return 0;
}

/*
 * One WQE of mlx5dm_send_write_repeat(): up to MLX5DM_SEND_REPEAT_UNITS
 * copies of the unit staged, gathered by up to MLX5DM_SEND_REPEAT_SEGS data
 * segments. Each WQE stages its own copy: staging space is released per
 * completed WQE. Returns the units written, or a negative errno.
 */
static int
mlx5dm_send_repeat_wqe(struct mlx5dm_send_ring *ring, uint64_t remote_addr, uint32_t rkey,
		       const uint8_t *unit, uint32_t unit_len, uint32_t count)
{
	uint64_t tmp[(2 + MLX5DM_SEND_REPEAT_SEGS) * 16 / 8];
	uint32_t units = MLX5DM_MIN(count, MLX5DM_SEND_REPEAT_UNITS);
	uint32_t n = MLX5DM_MIN(count, units * MLX5DM_SEND_REPEAT_SEGS);
	uint32_t stage = units * unit_len, nseg = (n + units - 1) / units;
	uint32_t ds = 2 + nseg, nbb = (ds * 16 + 63) / 64;
	uint32_t i, left;
	uint8_t *w, *data;
	bool sig;
	int pos;

	pos = mlx5dm_send_stage(ring, nbb, stage, &sig);
	if (pos < 0)
		return pos;
	data = ring->queues.data_buf + pos;
	for (i = 0; i < units; i++)
		memcpy(data + (size_t)i * unit_len, unit, unit_len);
	w = mlx5dm_send_begin(ring, (uint8_t *)tmp, MLX5_OPCODE_RDMA_WRITE, 0, ds, sig, 0);
	mlx5dm_send_raddr(w + 16, remote_addr, rkey);
	for (i = 0, left = n * unit_len; i < nseg; i++, left -= stage)
		mlx5dm_send_dptr(w + 32 + 16 * i, (uint64_t)(uintptr_t)data,
				 ring->queues.data_mr->lkey, MLX5DM_MIN(left, stage));
	mlx5dm_send_commit(ring, w, ds * 16, (uint8_t *)tmp);
	return (int)n;
}

int
mlx5dm_send_write_repeat(struct mlx5dm_send_ring *ring, uint64_t remote_addr, uint32_t rkey,
			 const void *unit, uint32_t unit_len, uint32_t count)
{
	uint64_t raddr = remote_addr;
	uint32_t left = count;
	int n;

	if (count == 0 || unit == NULL || unit_len == 0 || unit_len > MLX5DM_SEND_MAX_INLINE)
		return -EINVAL;
	if (ring->err != 0)
		return ring->err;
	while (left > 0) {
		n = mlx5dm_send_repeat_wqe(ring, raddr, rkey, unit, unit_len, left);
		if (n < 0)
			return n;
		raddr += (uint64_t)n * unit_len;
		left -= (uint32_t)n;
		ring->stats.writes++;
	}
	ring->last_raddr = raddr - unit_len;
	ring->last_rkey = rkey;
	ring->last_len = unit_len;
	ring->stats.write_bytes += (uint64_t)count * unit_len;
	return 0;
}

int
mlx5dm_send_write(struct mlx5dm_send_ring *ring, uint64_t remote_addr, uint32_t rkey,
		  const void *data, uint32_t len)
{
	int ret;

	if (MLX5DM_UNLIKELY(data == NULL))
		return -EINVAL;
	if (MLX5DM_UNLIKELY(ring->err != 0))
		return ring->err;
	/* The two STE write sizes first: one compare each. */
	if (MLX5DM_LIKELY(len == MLX5DM_SEND_MAX_INLINE))
		ret = mlx5dm_send_write_inline(ring, remote_addr, rkey, data,
					       MLX5DM_SEND_MAX_INLINE);
	else if (len == MLX5DM_SEND_MAX_INLINE / 2)
		ret = mlx5dm_send_write_inline(ring, remote_addr, rkey, data,
					       MLX5DM_SEND_MAX_INLINE / 2);
	else if (len == 0 || len > MLX5DM_SEND_MAX_WRITE)
		return -EINVAL;
	else if (len < MLX5DM_SEND_MAX_INLINE)
		ret = mlx5dm_send_write_inline(ring, remote_addr, rkey, data, len);
	else
		ret = mlx5dm_send_write_staged(ring, remote_addr, rkey, data, len);
	if (ret < 0)
		return ret;
	ring->last_raddr = remote_addr;
	ring->last_rkey = rkey;
	ring->last_len = MLX5DM_MIN(len, 64u);
	ring->stats.writes++;
	ring->stats.write_bytes += len;
	return 0;
}

int
mlx5dm_send_kept_room(struct mlx5dm_send_ring *ring)
{
	int ret = 0;

	if (MLX5DM_UNLIKELY(ring->pi + MLX5DM_SEND_KEPT_NBB - ring->ci > mlx5dm_send_room(ring)))
		ret = mlx5dm_send_wait_room(ring, MLX5DM_SEND_KEPT_NBB, 0);
	return ret < 0 ? ret : ring->err;
}

int
mlx5dm_send_kept_hold(struct mlx5dm_send_ring *ring)
{
	int ret;

	if (ring->err != 0)
		return ring->err;
	/* The ring's own room, and one hold's, stay below a quarter of the SQ. */
	if (MLX5DM_SEND_KEPT_NBB * (2 + ring->kept_holds) > (1u << ring->queues.log_nbb) / 4)
		return -EBUSY;
	/* What is posted already leaves the room the hold takes. */
	ret = mlx5dm_send_wait_room(ring, MLX5DM_SEND_KEPT_NBB, 0);
	if (ret < 0)
		return ret;
	ring->kept_holds++;
	return 0;
}

void
mlx5dm_send_kept_release(struct mlx5dm_send_ring *ring)
{
	if (ring->kept_holds > 0)
		ring->kept_holds--;
}

void
mlx5dm_send_kept_post(struct mlx5dm_send_ring *ring, uint64_t remote_addr, uint32_t rkey,
		      const void *data, uint32_t len)
{
	uint32_t start = ring->pi;

	/* A table slot's whole image, as most unlinks write: its sizes are constants. */
	if (MLX5DM_LIKELY(len == MLX5DM_SEND_MAX_INLINE))
		mlx5dm_send_inline_wqe(ring, remote_addr, rkey, data, MLX5DM_SEND_MAX_INLINE);
	else
		mlx5dm_send_inline_wqe(ring, remote_addr, rkey, data, len);
	ring->queues.wqe_kept[mlx5dm_send_slot(ring, start)] = 1;
	ring->last_raddr = remote_addr;
	ring->last_rkey = rkey;
	ring->last_len = len;
	ring->stats.writes++;
	ring->stats.write_bytes += len;
}

int
mlx5dm_send_write_kept(struct mlx5dm_send_ring *ring, uint64_t remote_addr, uint32_t rkey,
		       const void *data, uint32_t len)
{
	int ret;

	if (data == NULL || len == 0 || len > MLX5DM_SEND_MAX_INLINE)
		return -EINVAL;
	ret = mlx5dm_send_kept_room(ring);
	/*
	 * On a ring in error the write is built where the next WQE goes and
	 * never rung: lost with those the failed QP flushes, the recovery
	 * finds it among them. The posts left room for one.
	 */
	if (ret < 0 && ring->pi + MLX5DM_SEND_KEPT_NBB - ring->ci > 1u << ring->queues.log_nbb) {
		MLX5DM_LOG(ERR, "send", "qpn 0x%x: no room for a kept write on the ring in error",
			   ring->queues.qpn);
		return ret;
	}
	mlx5dm_send_kept_post(ring, remote_addr, rkey, data, len);
	return ret;
}

/* The write of the inline RDMA WRITE of nbb WQEBBs at slot, which may wrap past the SQ's end. */
static void
mlx5dm_send_kept_read(const struct mlx5dm_send_ring *ring, uint32_t slot, uint32_t nbb,
		      struct mlx5dm_send_kept *k)
{
	uint32_t mask = (1u << ring->queues.log_nbb) - 1;
	uint8_t w[MLX5DM_SEND_WQE_MAX];
	uint32_t i, hdr, raddr[2], rkey;

	for (i = 0; i < nbb && i < MLX5DM_SEND_WQE_MAX / 64; i++)
		memcpy(w + i * 64, ring->queues.sq_buf + (size_t)((slot + i) & mask) * 64, 64);
	memcpy(raddr, w + 16, sizeof(raddr));
	memcpy(&rkey, w + 24, sizeof(rkey));
	memcpy(&hdr, w + 32, sizeof(hdr));
	k->addr = (uint64_t)ntohl(raddr[0]) << 32 | ntohl(raddr[1]);
	k->rkey = ntohl(rkey);
	k->len = ntohl(hdr) & ~MLX5_INLINE_SEG;
	memcpy(k->data, w + 36, k->len);
}

/*
 * The kept writes among the WQEs the failed QP did not execute (from
 * err_pos to pi), copied to out (NULL: counted) in their order: at most
 * max. The QP is flushed: their slots stay as they were until the next
 * post.
 */
uint32_t
mlx5dm_send_lost_kept(const struct mlx5dm_send_ring *ring, struct mlx5dm_send_kept *out,
		      uint32_t max)
{
	uint32_t mask = (1u << ring->queues.log_nbb) - 1;
	const uint32_t *end = ring->queues.wqe_end;
	uint32_t pos, n = 0;

	for (pos = ring->err_pos; pos != ring->pi && n < max; pos = end[pos & mask]) {
		if (!ring->queues.wqe_kept[pos & mask])
			continue;
		if (out != NULL)
			mlx5dm_send_kept_read(ring, pos & mask, end[pos & mask] - pos, &out[n]);
		n++;
	}
	return n;
}

bool
mlx5dm_send_kept_due(const struct mlx5dm_send_ring *ring)
{
	return ring->err != 0 && mlx5dm_send_lost_kept(ring, NULL, 1) != 0;
}

int
mlx5dm_send_arg_update(struct mlx5dm_send_ring *ring, uint32_t arg_id, const void *data64)
{
	uint64_t tmp[MLX5DM_SEND_WQE_MAX / 8];
	const uint32_t ds = (16 + MLX5DM_WQE_FLOW_UPDATE_CTRL_BYTES +
			     MLX5DM_WQE_ARG_UPDATE_BYTES) / 16;
	const uint32_t nbb = (ds * 16 + 63) / 64;
	uint8_t *w;
	int ret;

	if (data64 == NULL)
		return -EINVAL;
	if (ring->err != 0)
		return ring->err;
	ret = mlx5dm_send_wait_room(ring, nbb, 0);
	if (ret < 0)
		return ret;
	w = mlx5dm_send_begin(ring, (uint8_t *)tmp, MLX5DM_OPCODE_FLOW_TBL_ACCESS,
			      MLX5DM_OPMOD_UPDATE_HEADER_MODIFY_ARGUMENT, ds,
			      mlx5dm_send_want_signal(ring, 0), arg_id);
	memset(w + 16, 0, MLX5DM_WQE_FLOW_UPDATE_CTRL_BYTES);
	memcpy(w + 16 + MLX5DM_WQE_FLOW_UPDATE_CTRL_BYTES, data64, MLX5DM_WQE_ARG_UPDATE_BYTES);
	mlx5dm_send_commit(ring, w, ds * 16, (uint8_t *)tmp);
	ring->stats.arg_updates++;
	return 0;
}

int
mlx5dm_send_flush(struct mlx5dm_send_ring *ring)
{
	return mlx5dm_send_flush_batch(ring, 1);
}

/*
 * Ring the doorbell, then reap what has completed already without waiting:
 * an error the device reported meanwhile reaches the caller now.
 */
int
mlx5dm_send_flush_batch(struct mlx5dm_send_ring *ring, uint32_t min_wqes)
{
	if (ring->err != 0)
		return ring->err;
	if (ring->unrung < min_wqes || ring->unrung == 0)
		return 0;
	mlx5dm_send_ring_db(ring);
	/* Right after the doorbell the device has usually completed nothing: one look. */
	if (mlx5dm_send_cqe(ring) != NULL)
		mlx5dm_send_reap(ring);
	return ring->err;
}

int
mlx5dm_send_quiesce(struct mlx5dm_send_ring *ring)
{
	struct mlx5dm_send_idle idle = { 0, 0 };
	int ret;

	ret = ring->err == 0 ? mlx5dm_send_drain(ring) : ring->err;
	if (ret != -EIO)
		return ret;
	/* The QP flushes what followed the failed WQE: one error CQE each. */
	while (ring->ci != ring->rung_pi) {
		if (mlx5dm_send_stalled(ring, mlx5dm_send_reap(ring), &idle)) {
			MLX5DM_LOG(ERR, "send", "qpn 0x%x: failed QP not flushed (pi %u ci %u)",
				   ring->queues.qpn, ring->rung_pi, ring->ci);
			return -ETIMEDOUT;
		}
	}
	return 0;
}

int
mlx5dm_send_error(const struct mlx5dm_send_ring *ring)
{
	return ring->err;
}

uint32_t
mlx5dm_send_pos(const struct mlx5dm_send_ring *ring)
{
	return ring->pi;
}

bool
mlx5dm_send_lost(const struct mlx5dm_send_ring *ring, uint32_t pos)
{
	/* Positions wrap at 2^32; those compared are less than 2^31 apart. */
	if (ring->err != 0)
		return (int32_t)(pos - ring->err_pos) > 0;
	return (int32_t)(pos - ring->lost_from) > 0 && (int32_t)(pos - ring->lost_to) <= 0;
}

bool
mlx5dm_send_done(const struct mlx5dm_send_ring *ring, uint32_t pos)
{
	return (int32_t)(__atomic_load_n(&ring->ci, __ATOMIC_ACQUIRE) - pos) >= 0;
}

/*
 * Post a WQE that asks for a completion behind every write posted so far
 * and ring the doorbell (room permitting: it may wait for some). 0, or
 * what the wait for room returned.
 */
static int
mlx5dm_send_fence(struct mlx5dm_send_ring *ring)
{
	uint64_t tmp[MLX5DM_SEND_WQE_MAX / 8];
	uint8_t *w;
	int ret;

	ret = mlx5dm_send_wait_room(ring, 1, 0);
	if (ret < 0)
		return ret;
	if (ring->last_len != 0) {
		/* READ back the last written range: on RC it completes after every prior WRITE. */
		w = mlx5dm_send_begin(ring, (uint8_t *)tmp, MLX5_OPCODE_RDMA_READ, 0, 3, true, 0);
		mlx5dm_send_raddr(w + 16, ring->last_raddr, ring->last_rkey);
		mlx5dm_send_dptr(w + 32, (uint64_t)(uintptr_t)(ring->queues.data_buf +
							       ring->queues.data_size),
				 ring->queues.data_mr->lkey, ring->last_len);
		mlx5dm_send_commit(ring, w, 48, (uint8_t *)tmp);
		ring->stats.reads++;
	} else {
		/* Only argument updates are outstanding: a signalled NOP completes after them. */
		w = mlx5dm_send_begin(ring, (uint8_t *)tmp, MLX5_OPCODE_NOP, 0, 1, true, 0);
		mlx5dm_send_commit(ring, w, 16, (uint8_t *)tmp);
	}
	mlx5dm_send_ring_db(ring);
	return 0;
}

int
mlx5dm_send_progress(struct mlx5dm_send_ring *ring, uint32_t *done)
{
	int ret;

	if (ring->err == 0)
		mlx5dm_send_ring_db(ring);
	/*
	 * Completions are asked for every few WQEs: when the last WQE asked
	 * for none, nothing would tell its end but a later one. The fence is
	 * posted once; until more is posted the next calls only poll.
	 */
	if (ring->err == 0 && ring->since_signal != 0)
		/* A fence that found no room left the ring in error: the poll says so. */
		(void)mlx5dm_send_fence(ring);
	ret = mlx5dm_send_poll(ring);
	*done = ring->ci;
	return ret < 0 ? ret : 0;
}

int
mlx5dm_send_drain(struct mlx5dm_send_ring *ring)
{
	uint32_t target;
	struct mlx5dm_send_idle idle = { 0, 0 };
	int ret;

	if (ring->err != 0)
		return ring->err;
	if (ring->ci == ring->pi)
		return 0;
	ret = mlx5dm_send_fence(ring);
	if (ret < 0)
		return ret;
	target = ring->pi;
	while (ring->ci != target) {
		ret = mlx5dm_send_poll(ring);
		if (ret < 0)
			return ret;
		/*
		 * Every write is posted and none is lost: a device that is only
		 * slow executes them later, and a later drain waits again. The
		 * ring stays usable; the caller reports the wait as failed.
		 */
		if (mlx5dm_send_stalled(ring, ret, &idle)) {
			MLX5DM_LOG(ERR, "send", "qpn 0x%x: drain timed out (pi %u ci %u), "
				   "the ring stays usable", ring->queues.qpn, ring->pi, ring->ci);
			ring->stats.drain_timeouts++;
			return -ETIMEDOUT;
		}
	}
	return 0;
}
