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
#include <string.h>
#include <time.h>
#include <arpa/inet.h>

#include "mlx5dm_osdep.h"
#include "mlx5dm_prm_queue.h"
#include "mlx5dm_send_priv.h"

#define MLX5DM_SEND_WAIT_NS 5000000000ull /* give up on a silent device after 5 s */

static inline uint64_t
mlx5dm_send_htobe64(uint64_t v)
{
	return ((uint64_t)htonl((uint32_t)v) << 32) | htonl((uint32_t)(v >> 32));
}

/* A cursor over the SQ buffer that wraps at its end. */
struct mlx5dm_wqe_cur {
	uint8_t *base;
	uint32_t size;
	uint32_t off;
};

static inline void
mlx5dm_wqe_put(struct mlx5dm_wqe_cur *c, const void *src, uint32_t len)
{
	uint32_t first = c->size - c->off;

	if (len <= first) {
		memcpy(c->base + c->off, src, len);
	} else {
		memcpy(c->base + c->off, src, first);
		memcpy(c->base, (const uint8_t *)src + first, len - first);
	}
	c->off = (c->off + len) & (c->size - 1);
}

static inline void
mlx5dm_wqe_zero(struct mlx5dm_wqe_cur *c, uint32_t len)
{
	static const uint8_t zeros[64];

	while (len > 0) {
		uint32_t n = MLX5DM_MIN(len, (uint32_t)sizeof(zeros));

		mlx5dm_wqe_put(c, zeros, n);
		len -= n;
	}
}

static uint64_t
mlx5dm_send_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int
mlx5dm_send_ring_db(struct mlx5dm_send_ring *ring)
{
	uint32_t *qp_dbr = (uint32_t *)(ring->dbr_buf + MLX5DM_SEND_QP_DBR_OFF);
	uint64_t first8;

	if (ring->unrung == 0)
		return 0;
	/* WQE stores before the doorbell record, the record before the MMIO write. */
	mlx5dm_wmb();
	__atomic_store_n(&qp_dbr[MLX5_SND_DBR], htonl(ring->pi & 0xffff), __ATOMIC_RELAXED);
	mlx5dm_wmb();
	memcpy(&first8, ring->last_ctrl, sizeof(first8));
	ring->dev->ops->doorbell(ring->uar, 0, first8);
	ring->unrung = 0;
	ring->stats.doorbells++;
	return 0;
}

int
mlx5dm_send_poll(struct mlx5dm_send_ring *ring)
{
	uint32_t mask = (1u << ring->log_ncqe) - 1;
	uint32_t *cq_dbr = (uint32_t *)(ring->dbr_buf + MLX5DM_SEND_CQ_DBR_OFF);
	int n = 0;

	for (;;) {
		const struct mlx5_cqe64 *cqe =
			(const void *)(ring->cq_buf + (size_t)(ring->cq_ci & mask) * 64);
		uint8_t op_own = __atomic_load_n(&cqe->op_own, __ATOMIC_ACQUIRE);
		uint8_t opcode = op_own >> 4;
		uint32_t slot;

		if (opcode == MLX5_CQE_INVALID ||
		    (op_own & MLX5_CQE_OWNER_MASK) != ((ring->cq_ci >> ring->log_ncqe) & 1))
			break;
		mlx5dm_rmb();
		if (opcode == MLX5_CQE_REQ_ERR || opcode == MLX5_CQE_RESP_ERR) {
			const struct mlx5_err_cqe *e = (const void *)cqe;

			if (ring->err == 0) {
				ring->stats.err_syndrome = e->syndrome;
				MLX5DM_LOG(ERR, "send", "qpn 0x%x: error CQE opcode %u "
					   "syndrome 0x%x vendor 0x%x at WQE %u", ring->qpn,
					   opcode, e->syndrome, e->vendor_err_synd,
					   ntohs(e->wqe_counter));
			}
			ring->err = -EIO;
		}
		slot = ntohs(cqe->wqe_counter) & ((1u << ring->log_nbb) - 1);
		ring->ci = ring->wqe_end[slot];
		ring->data_tail = ring->wqe_data_end[slot];
		ring->cq_ci++;
		n++;
	}
	if (n > 0) {
		ring->stats.cqes += (uint64_t)n;
		mlx5dm_wmb();
		__atomic_store_n(&cq_dbr[0], htonl(ring->cq_ci & 0xffffff), __ATOMIC_RELAXED);
	}
	return ring->err != 0 ? ring->err : n;
}

/* Wait until nbb WQEBBs and data_len contiguous staging bytes are free. */
int
mlx5dm_send_wait_room(struct mlx5dm_send_ring *ring, uint32_t nbb, uint32_t data_len)
{
	uint32_t size = 1u << ring->log_nbb;
	uint64_t deadline = 0;

	for (;;) {
		uint64_t head = ring->data_head;
		uint32_t pos = (uint32_t)(head % ring->data_size);

		if (data_len != 0 && pos + data_len > ring->data_size)
			head += ring->data_size - pos; /* the reservation skips the tail end */
		if (ring->pi + nbb - ring->ci <= size &&
		    head + data_len - ring->data_tail <= ring->data_size)
			return 0;
		if (ring->err != 0)
			return ring->err;
		if (deadline == 0) {
			ring->stats.full_waits++;
			mlx5dm_send_ring_db(ring);
			deadline = mlx5dm_send_now_ns() + MLX5DM_SEND_WAIT_NS;
		} else if (mlx5dm_send_now_ns() > deadline) {
			MLX5DM_LOG(ERR, "send", "qpn 0x%x: no completion for 5 s (pi %u ci %u)",
				   ring->qpn, ring->pi, ring->ci);
			ring->err = -EIO;
			return -ETIMEDOUT;
		}
		mlx5dm_send_poll(ring);
	}
}

/* Write the control segment and account the WQE; returns a cursor after ctrl. */
static struct mlx5dm_wqe_cur
mlx5dm_send_begin(struct mlx5dm_send_ring *ring, uint8_t opcode, uint8_t opmod,
		  uint32_t ds, bool signal, uint32_t imm)
{
	struct mlx5dm_wqe_cur c = {
		.base = ring->sq_buf,
		.size = 64u << ring->log_nbb,
		.off = (ring->pi & ((1u << ring->log_nbb) - 1)) * 64,
	};
	struct mlx5_wqe_ctrl_seg ctrl;
	uint32_t nbb = (ds * 16 + 63) / 64;
	uint32_t slot = ring->pi & ((1u << ring->log_nbb) - 1);

	memset(&ctrl, 0, sizeof(ctrl));
	ctrl.opmod_idx_opcode = htonl(((uint32_t)opmod << 24) | ((ring->pi & 0xffff) << 8) |
				      opcode);
	ctrl.qpn_ds = htonl((ring->qpn << 8) | ds);
	ctrl.fm_ce_se = signal ? MLX5_WQE_CTRL_CQ_UPDATE : 0;
	ctrl.imm = htonl(imm);
	ring->last_ctrl = ring->sq_buf + c.off;
	mlx5dm_wqe_put(&c, &ctrl, sizeof(ctrl));
	ring->pi += nbb;
	ring->wqe_end[slot] = ring->pi;
	ring->wqe_data_end[slot] = ring->data_head;
	ring->unrung++;
	ring->stats.wqes++;
	if (signal) {
		ring->since_signal = 0;
		ring->data_unsignaled = 0;
	} else {
		ring->since_signal++;
	}
	return c;
}

static bool
mlx5dm_send_want_signal(struct mlx5dm_send_ring *ring, uint32_t staged)
{
	return ring->since_signal + 1 >= ring->signal_th ||
	       ring->data_unsignaled + staged > ring->data_size / 4;
}

static void
mlx5dm_send_raddr(struct mlx5dm_wqe_cur *c, uint64_t raddr, uint32_t rkey)
{
	struct mlx5_wqe_raddr_seg r;

	memset(&r, 0, sizeof(r));
	r.raddr = mlx5dm_send_htobe64(raddr);
	r.rkey = htonl(rkey);
	mlx5dm_wqe_put(c, &r, sizeof(r));
}

static void
mlx5dm_send_dptr(struct mlx5dm_wqe_cur *c, uint64_t addr, uint32_t lkey, uint32_t len)
{
	struct mlx5_wqe_data_seg d;

	d.byte_count = htonl(len);
	d.lkey = htonl(lkey);
	d.addr = mlx5dm_send_htobe64(addr);
	mlx5dm_wqe_put(c, &d, sizeof(d));
}

int
mlx5dm_send_write(struct mlx5dm_send_ring *ring, uint64_t remote_addr, uint32_t rkey,
		  const void *data, uint32_t len)
{
	struct mlx5dm_wqe_cur c;
	uint32_t ds;
	int ret;

	if (len == 0 || len > MLX5DM_SEND_MAX_WRITE || data == NULL)
		return -EINVAL;
	if (ring->err != 0)
		return ring->err;
	if (len <= MLX5DM_SEND_MAX_INLINE) {
		uint32_t hdr = htonl(MLX5_INLINE_SEG | len);
		uint32_t inl = (4 + len + 15) & ~15u;

		ds = 2 + inl / 16;
		ret = mlx5dm_send_wait_room(ring, (ds * 16 + 63) / 64, 0);
		if (ret < 0)
			return ret;
		c = mlx5dm_send_begin(ring, MLX5_OPCODE_RDMA_WRITE, 0, ds,
				      mlx5dm_send_want_signal(ring, 0), 0);
		mlx5dm_send_raddr(&c, remote_addr, rkey);
		mlx5dm_wqe_put(&c, &hdr, sizeof(hdr));
		mlx5dm_wqe_put(&c, data, len);
		mlx5dm_wqe_zero(&c, inl - 4 - len);
		ring->stats.inline_writes++;
	} else {
		uint32_t pos;
		bool sig;

		ret = mlx5dm_send_wait_room(ring, 1, len);
		if (ret < 0)
			return ret;
		pos = (uint32_t)(ring->data_head % ring->data_size);
		if (pos + len > ring->data_size) {
			ring->data_head += ring->data_size - pos;
			pos = 0;
		}
		memcpy(ring->data_buf + pos, data, len);
		ring->data_head += len;
		sig = mlx5dm_send_want_signal(ring, len);
		ring->data_unsignaled += len;
		c = mlx5dm_send_begin(ring, MLX5_OPCODE_RDMA_WRITE, 0, 3, sig, 0);
		mlx5dm_send_raddr(&c, remote_addr, rkey);
		mlx5dm_send_dptr(&c, (uint64_t)(uintptr_t)(ring->data_buf + pos),
				 ring->data_mr->lkey, len);
	}
	ring->last_raddr = remote_addr;
	ring->last_rkey = rkey;
	ring->last_len = MLX5DM_MIN(len, 64u);
	ring->stats.writes++;
	ring->stats.write_bytes += len;
	return 0;
}

int
mlx5dm_send_arg_update(struct mlx5dm_send_ring *ring, uint32_t arg_id, const void *data64)
{
	struct mlx5dm_wqe_cur c;
	const uint32_t ds = (16 + MLX5DM_WQE_FLOW_UPDATE_CTRL_BYTES +
			     MLX5DM_WQE_ARG_UPDATE_BYTES) / 16;
	int ret;

	if (data64 == NULL)
		return -EINVAL;
	if (ring->err != 0)
		return ring->err;
	ret = mlx5dm_send_wait_room(ring, (ds * 16 + 63) / 64, 0);
	if (ret < 0)
		return ret;
	c = mlx5dm_send_begin(ring, MLX5DM_OPCODE_FLOW_TBL_ACCESS,
			      MLX5DM_OPMOD_UPDATE_HEADER_MODIFY_ARGUMENT, ds,
			      mlx5dm_send_want_signal(ring, 0), arg_id);
	mlx5dm_wqe_zero(&c, MLX5DM_WQE_FLOW_UPDATE_CTRL_BYTES);
	mlx5dm_wqe_put(&c, data64, MLX5DM_WQE_ARG_UPDATE_BYTES);
	ring->stats.arg_updates++;
	return 0;
}

int
mlx5dm_send_flush(struct mlx5dm_send_ring *ring)
{
	if (ring->err != 0)
		return ring->err;
	return mlx5dm_send_ring_db(ring);
}

int
mlx5dm_send_drain(struct mlx5dm_send_ring *ring)
{
	struct mlx5dm_wqe_cur c;
	uint32_t target;
	uint64_t deadline;
	int ret;

	if (ring->err != 0)
		return ring->err;
	if (ring->ci == ring->pi)
		return 0;
	if (ring->last_len != 0) {
		/* READ back the last written range: on RC it completes after every prior WRITE. */
		ret = mlx5dm_send_wait_room(ring, 1, 0);
		if (ret < 0)
			return ret;
		c = mlx5dm_send_begin(ring, MLX5_OPCODE_RDMA_READ, 0, 3, true, 0);
		mlx5dm_send_raddr(&c, ring->last_raddr, ring->last_rkey);
		mlx5dm_send_dptr(&c, (uint64_t)(uintptr_t)(ring->data_buf + ring->data_size),
				 ring->data_mr->lkey, ring->last_len);
		ring->stats.reads++;
	} else {
		/* Only argument updates are outstanding: a signalled NOP completes after them. */
		ret = mlx5dm_send_wait_room(ring, 1, 0);
		if (ret < 0)
			return ret;
		mlx5dm_send_begin(ring, MLX5_OPCODE_NOP, 0, 1, true, 0);
	}
	mlx5dm_send_ring_db(ring);
	target = ring->pi;
	deadline = mlx5dm_send_now_ns() + MLX5DM_SEND_WAIT_NS;
	while (ring->ci != target) {
		ret = mlx5dm_send_poll(ring);
		if (ret < 0)
			return ret;
		if (ret == 0 && mlx5dm_send_now_ns() > deadline) {
			MLX5DM_LOG(ERR, "send", "qpn 0x%x: drain timed out (pi %u ci %u)",
				   ring->qpn, ring->pi, ring->ci);
			ring->err = -EIO;
			return -ETIMEDOUT;
		}
	}
	return 0;
}
