/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The executor of the datapath SQs: Ethernet SEND WQEs (rdma-core mlx5dv.h
 * struct mlx5_wqe_ctrl_seg, mlx5_wqe_eth_seg, mlx5_wqe_data_seg; DPDK
 * mlx5_prm.h struct mlx5_wqe_cseg/eseg/dseg), run by the device thread
 * when an SQ's send counter (doorbell record word 1) moves past the
 * device's counter.
 *
 * A WQE: control segment (wqe_index = the WQEBB counter, opcode SEND,
 * sqn, ds = 16-byte units, fm_ce_se CQ_UPDATE when it wants a CQE), an
 * Ethernet segment (flow_table_metadata: reg_a of the NIC TX walk;
 * inline_hdr_sz >= the SQ's inline minimum, the header's first 2 bytes at
 * its end and the rest in the following units), then data segments whose
 * lkey must name an MR of the SQ's PD covering [addr, addr + byte_count).
 * It spans ceil(ds / 4) WQEBBs and may wrap around the ring's end.
 *
 * The frame is gathered into a device buffer (with head and tailroom for
 * the steering's inserting actions), batches of frames go through NIC TX
 * steering, the wire and the receiving device's NIC RX steering into an
 * RQ (mlx5dm_sim_engine_port_tx, the engine's one entry), and only then are
 * the Tx CQEs written: a Tx completion means the frame was delivered or
 * dropped. A CQE completes every WQE up to the one it names.
 *
 * Errors, as a ConnectX reports them (error CQE REQ_ERR with syndrome and
 * the WQE's counter; the SQ goes to ERR and every later WQE completes
 * with WR_FLUSH): lkey unknown, of another PD or the range outside the MR
 * (LOCAL_PROT); wqe_index not the device's counter, opcode not SEND, sqn
 * not this SQ, ds 0 or too short for the segments, inline header below
 * the minimum, a WQE the counter ends inside of, or a send counter more
 * than a ring ahead of the device (LOCAL_QP_OP); a frame longer than the
 * device's buffer or a zero-length segment (LOCAL_LENGTH).
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_sim_queue.h"

#define MLX5DM_SIM_TX_BURST 32
#define MLX5DM_SIM_TX_HEADROOM 256
#define MLX5DM_SIM_TX_FRAME_MAX 9728  /* a 9216-byte jumbo MTU and its headers */
#define MLX5DM_SIM_TX_TAILROOM 256
#define MLX5DM_SIM_TX_BUF (MLX5DM_SIM_TX_HEADROOM + MLX5DM_SIM_TX_FRAME_MAX + \
			   MLX5DM_SIM_TX_TAILROOM)
#define MLX5DM_SIM_TX_WQE_MAX (63 * MLX5DM_SIM_WQE_DS)

/*
 * The device's frame buffers for one burst, and the device thread's decoded
 * STEs (after it, in the same memory). Every frame lands in a buffer of
 * its own and a walk visits cache entries all over: on 4 KiB pages that
 * is a TLB miss or two per frame, so this is device memory, on huge pages
 * whatever the host's allocator gives (EAL --no-huge).
 */
struct mlx5dm_sim_tx {
	struct mlx5dm_sim_lines *lines;
	size_t bytes;                        /* resident mapping; 0: from the heap */
	struct mlx5dm_sim_pkt pkt[MLX5DM_SIM_TX_BURST];
	uint16_t idx[MLX5DM_SIM_TX_BURST];   /* WQE counter of each frame's WQE */
	bool ce[MLX5DM_SIM_TX_BURST];        /* its WQE asked for a CQE */
	uint8_t wqe[MLX5DM_SIM_TX_WQE_MAX];  /* the WQE being read, when it wraps */
	uint8_t buf[MLX5DM_SIM_TX_BURST][MLX5DM_SIM_TX_BUF];
};

struct mlx5dm_sim_tx *
mlx5dm_sim_tx_create(int socket)
{
	size_t head = MLX5DM_ALIGN_UP(sizeof(struct mlx5dm_sim_tx), 64);
	size_t bytes = head + mlx5dm_sim_lines_bytes();
	struct mlx5dm_sim_tx *tx = mlx5dm_resident_map(bytes, socket);

	/* Zeroed either way: an empty cache. */
	if (tx == NULL) {
		tx = mlx5dm_aligned_zmalloc_socket(bytes, 64, socket);
		bytes = 0;
	}
	if (tx == NULL)
		return NULL;
	tx->bytes = bytes;
	tx->lines = (struct mlx5dm_sim_lines *)(void *)((uint8_t *)tx + head);
	return tx;
}

void
mlx5dm_sim_tx_free(struct mlx5dm_sim_tx *tx)
{
	if (tx == NULL)
		return;
	if (tx->bytes != 0)
		mlx5dm_resident_unmap(tx, tx->bytes);
	else
		mlx5dm_free(tx);
}

/* A Tx CQE for the WQE at idx: synd 0 for a good one (REQ), else REQ_ERR. */
static int
mlx5dm_sim_tx_cqe(struct mlx5dm_sim_sq *sq, uint16_t idx, uint8_t synd)
{
	uint8_t img[MLX5DM_SIM_CQE_BYTES];

	memset(img, 0, sizeof(img));
	mlx5dm_prm_fset(img, MLX5DM_SIM_CQE_SOP_OPCODE, MLX5DM_SIM_WQE_SEND);
	mlx5dm_prm_fset(img, MLX5DM_SIM_CQE_QPN, sq->h.id);
	mlx5dm_prm_fset(img, MLX5DM_SIM_CQE_WQE_COUNTER, idx);
	if (synd != 0) {
		mlx5dm_prm_fset(img, MLX5DM_SIM_CQE_SYNDROME, synd);
		mlx5dm_prm_fset(img, MLX5DM_SIM_CQE_OPCODE, MLX5DM_SIM_CQE_REQ_ERR);
	} else {
		mlx5dm_prm_fset(img, MLX5DM_SIM_CQE_OPCODE, MLX5DM_SIM_CQE_REQ);
	}
	return mlx5dm_sim_cq_push(sq->cq, img);
}

static void
mlx5dm_sim_tx_to_err(struct mlx5dm_sim_sq *sq)
{
	__atomic_store_n(&sq->state, MLX5DM_SIM_SQ_ERR, __ATOMIC_RELEASE);
}

/* Copy len bytes of the ring from WQEBB counter ctr on, across the ring's end. */
static void
mlx5dm_sim_tx_copy(const struct mlx5dm_sim_sq *sq, uint16_t ctr, uint8_t *dst, uint32_t len)
{
	uint32_t bytes = MLX5DM_SIM_WQEBB << sq->log_size;
	uint32_t off = (uint32_t)(ctr & ((1u << sq->log_size) - 1)) * MLX5DM_SIM_WQEBB;

	while (len > 0) {
		uint32_t n = MLX5DM_MIN(len, bytes - off);

		memcpy(dst, sq->wq + off, n);
		dst += n;
		len -= n;
		off = 0;
	}
}

/* The len bytes of the ring at ctr: in place, or put together in buf when they wrap. */
static const uint8_t *
mlx5dm_sim_tx_read(const struct mlx5dm_sim_sq *sq, uint16_t ctr, uint8_t *buf, uint32_t len)
{
	uint32_t off = (uint32_t)(ctr & ((1u << sq->log_size) - 1)) * MLX5DM_SIM_WQEBB;

	if (off + len <= (uint32_t)MLX5DM_SIM_WQEBB << sq->log_size)
		return sq->wq + off;
	mlx5dm_sim_tx_copy(sq, ctr, buf, len);
	return buf;
}

/*
 * Gather the frame of the WQE at w (ds units) into p: its inline
 * header, then its data segments by lkey. sim->lock read-held. 0 or the
 * syndrome.
 */
static uint8_t
mlx5dm_sim_tx_gather(struct mlx5dm_sim *sim, const struct mlx5dm_sim_sq *sq,
		     const uint8_t *w, uint32_t ds, struct mlx5dm_sim_pkt *p)
{
	const uint8_t *es = w + MLX5DM_SIM_WQE_DS;
	uint32_t inl = (uint32_t)mlx5dm_prm_fget(es, MLX5DM_SIM_ESEG_INLINE_HDR_SZ);
	uint32_t end = ds * MLX5DM_SIM_WQE_DS, at, len = 0;

	if (ds < 2 || inl < sq->inline_min)
		return MLX5DM_SIM_SYND_LOCAL_QP_OP;
	/* The inline header: 2 bytes in the Ethernet segment, the rest in the next units. */
	at = 2 * MLX5DM_SIM_WQE_DS + (inl > 2 ? MLX5DM_ALIGN_UP(inl - 2, MLX5DM_SIM_WQE_DS) : 0);
	if (at > end)
		return MLX5DM_SIM_SYND_LOCAL_QP_OP;
	if (inl > MLX5DM_SIM_TX_FRAME_MAX)
		return MLX5DM_SIM_SYND_LOCAL_LENGTH;
	memcpy(p->data, es + MLX5DM_SIM_ESEG_INLINE_BYTE, inl);
	len = inl;
	for (; at + MLX5DM_SIM_WQE_DS <= end; at += MLX5DM_SIM_WQE_DS) {
		const uint8_t *s = w + at;
		uint32_t n = (uint32_t)mlx5dm_prm_fget(s, MLX5DM_SIM_DSEG_BYTE_COUNT);
		struct mlx5dm_sim_mr *mr = mlx5dm_sim_mr_lookup(sim,
				(uint32_t)mlx5dm_prm_fget(s, MLX5DM_SIM_DSEG_LKEY));
		uint64_t addr = mlx5dm_prm_fget(s, MLX5DM_SIM_DSEG_ADDR), start;

		if (n == 0 || n > MLX5DM_SIM_TX_FRAME_MAX - len)
			return MLX5DM_SIM_SYND_LOCAL_LENGTH;
		if (mr == NULL || mr->pd != sq->pd || mr->dm != NULL)
			return MLX5DM_SIM_SYND_LOCAL_PROT;
		start = (uintptr_t)mr->mr.addr;
		if (addr < start || addr - start > mr->mr.length ||
		    n > mr->mr.length - (addr - start))
			return MLX5DM_SIM_SYND_LOCAL_PROT;
		memcpy(p->data + len, (const void *)(uintptr_t)addr, n);
		len += n;
	}
	p->len = (uint16_t)len;
	p->tailroom = (uint16_t)(MLX5DM_SIM_TX_FRAME_MAX + MLX5DM_SIM_TX_TAILROOM - len);
	p->metadata = (uint32_t)mlx5dm_prm_fget(es, MLX5DM_SIM_ESEG_METADATA);
	return 0;
}

/*
 * Read and check the WQE at the device's counter, gather its frame into
 * slot n of tx (sim->lock read-held). 0 (bb set) or the syndrome (bb:
 * WQEBBs to step over).
 */
static uint8_t
mlx5dm_sim_tx_wqe(struct mlx5dm_sim *sim, struct mlx5dm_sim_tx *tx, struct mlx5dm_sim_sq *sq,
		  uint16_t pi, unsigned int n, uint16_t *bb)
{
	const uint8_t *w;
	uint32_t c[3], ds;
	uint8_t synd;

	/* The control segment: the first 16 bytes of a WQEBB never wrap. */
	w = mlx5dm_sim_tx_read(sq, sq->ctr, tx->wqe, MLX5DM_SIM_WQE_DS);
	mlx5dm_sim_dw_load(c, w, MLX5DM_ARRAY_SIZE(c));
	ds = mlx5dm_sim_dw_get(c, MLX5DM_SIM_CTRL_DS);
	*bb = mlx5dm_sim_wqe_bbs(ds);
	if (*bb > (uint16_t)(pi - sq->ctr)) {
		*bb = (uint16_t)(pi - sq->ctr);
		return MLX5DM_SIM_SYND_LOCAL_QP_OP; /* the counter ends inside the WQE */
	}
	if (ds == 0 || mlx5dm_sim_dw_get(c, MLX5DM_SIM_CTRL_OPCODE) != MLX5DM_SIM_WQE_SEND ||
	    mlx5dm_sim_dw_get(c, MLX5DM_SIM_CTRL_WQE_INDEX) != sq->ctr ||
	    mlx5dm_sim_dw_get(c, MLX5DM_SIM_CTRL_QPN) != sq->h.id)
		return MLX5DM_SIM_SYND_LOCAL_QP_OP;
	w = mlx5dm_sim_tx_read(sq, sq->ctr, tx->wqe, ds * MLX5DM_SIM_WQE_DS);
	tx->pkt[n] = (struct mlx5dm_sim_pkt){
		.data = tx->buf[n] + MLX5DM_SIM_TX_HEADROOM,
		.headroom = MLX5DM_SIM_TX_HEADROOM,
		.sqn = sq->h.id,
	};
	synd = mlx5dm_sim_tx_gather(sim, sq, w, ds, &tx->pkt[n]);
	tx->idx[n] = sq->ctr;
	tx->ce[n] = (mlx5dm_sim_dw_get(c, MLX5DM_SIM_CTRL_FM_CE_SE) &
		     MLX5DM_SIM_CTRL_CE_CQ_UPDATE) != 0;
	return synd;
}

/*
 * Send the gathered frames, then write the CQEs their WQEs asked for.
 * Called with sim->lock read-held, which the walks must not nest in (they
 * take it themselves): released meanwhile, held again on return.
 */
static void
mlx5dm_sim_tx_burst(struct mlx5dm_sim *sim, struct mlx5dm_sim_tx *tx, struct mlx5dm_sim_sq *sq,
		    unsigned int n)
{
	uint32_t epoch;
	unsigned int i;

	if (n == 0)
		return;
	pthread_rwlock_unlock(&sim->lock);
	epoch = mlx5dm_sim_walk_enter(sim);
	mlx5dm_sim_engine_port_tx_lines(sim->engine, 0, tx->pkt, (uint16_t)n, tx->lines);
	mlx5dm_sim_walk_exit(sim, epoch);
	for (i = 0; i < n; i++)
		if (tx->ce[i] && mlx5dm_sim_tx_cqe(sq, tx->idx[i], 0) != 0)
			mlx5dm_sim_tx_to_err(sq);
	pthread_rwlock_rdlock(&sim->lock);
}

/*
 * Start loading what the next burst reads: its WQEBBs, then the frame
 * data their first data segments point at. Both were written by another
 * core; loaded one by one, each would be a wait. Only a hint: nothing is
 * checked or decided here (the WQE is checked when it executes, and a
 * prefetch of a bad address cannot fault).
 */
static void
mlx5dm_sim_tx_prefetch(const struct mlx5dm_sim_sq *sq, uint16_t pi)
{
	uint16_t mask = (uint16_t)((1u << sq->log_size) - 1);
	uint16_t left = (uint16_t)MLX5DM_MIN((uint16_t)(pi - sq->ctr), 2u * MLX5DM_SIM_TX_BURST);
	uint16_t ctr, i;
	unsigned int n;

	for (i = 0; i < left; i++)
		MLX5DM_PREFETCH(sq->wq + (size_t)((sq->ctr + i) & mask) * MLX5DM_SIM_WQEBB);
	for (ctr = sq->ctr, n = 0; left > 0 && n < MLX5DM_SIM_TX_BURST; n++) {
		const uint8_t *w = sq->wq + (size_t)(ctr & mask) * MLX5DM_SIM_WQEBB;
		uint32_t ds = (uint32_t)mlx5dm_prm_fget(w, MLX5DM_SIM_CTRL_DS);
		uint32_t inl = (uint32_t)mlx5dm_prm_fget(w + MLX5DM_SIM_WQE_DS,
							 MLX5DM_SIM_ESEG_INLINE_HDR_SZ);
		uint32_t at = 2 + (inl > 2 ? MLX5DM_ALIGN_UP(inl - 2, MLX5DM_SIM_WQE_DS) /
				   MLX5DM_SIM_WQE_DS : 0);
		uint16_t bb = mlx5dm_sim_wqe_bbs(ds);

		/* The first data segment, when it lies in the WQE's first WQEBB. */
		if (at < ds && at < MLX5DM_SIM_WQEBB / MLX5DM_SIM_WQE_DS)
			MLX5DM_PREFETCH((const void *)(uintptr_t)mlx5dm_prm_fget(w +
					at * MLX5DM_SIM_WQE_DS, MLX5DM_SIM_DSEG_ADDR));
		if (bb >= left)
			break;
		left = (uint16_t)(left - bb);
		ctr = (uint16_t)(ctr + bb);
	}
}

/* In ERR: every WQE posted completes with a flush error. */
static void
mlx5dm_sim_tx_flush(struct mlx5dm_sim_sq *sq, uint16_t pi)
{
	while (sq->ctr != pi) {
		uint8_t ctrl[MLX5DM_SIM_WQE_DS];
		uint32_t c[2];
		uint16_t bb;

		mlx5dm_sim_tx_copy(sq, sq->ctr, ctrl, sizeof(ctrl));
		mlx5dm_sim_dw_load(c, ctrl, MLX5DM_ARRAY_SIZE(c));
		bb = MLX5DM_MIN(mlx5dm_sim_wqe_bbs(mlx5dm_sim_dw_get(c, MLX5DM_SIM_CTRL_DS)),
				(uint16_t)(pi - sq->ctr));
		mlx5dm_sim_tx_cqe(sq, sq->ctr, MLX5DM_SIM_SYND_WR_FLUSH);
		sq->ctr = (uint16_t)(sq->ctr + bb);
	}
}

bool
mlx5dm_sim_sq_run(struct mlx5dm_sim *sim, struct mlx5dm_sim_tx *tx, struct mlx5dm_sim_sq *sq)
{
	uint32_t state = __atomic_load_n(&sq->state, __ATOMIC_ACQUIRE);
	unsigned int n = 0;
	uint16_t pi;

	if (state == MLX5DM_SIM_SQ_RST)
		return false;
	pi = (uint16_t)mlx5dm_sim_dbr_get(sq->dbr + 4);
	if (pi == sq->ctr)
		return false;
	if ((uint16_t)(pi - sq->ctr) > (1u << sq->log_size)) {
		/* More than a ring ahead: nothing is known to be posted. */
		if (state == MLX5DM_SIM_SQ_RDY)
			mlx5dm_sim_tx_cqe(sq, sq->ctr, MLX5DM_SIM_SYND_LOCAL_QP_OP);
		mlx5dm_sim_tx_to_err(sq);
		sq->ctr = pi;
		return true;
	}
	if (state == MLX5DM_SIM_SQ_ERR) {
		mlx5dm_sim_tx_flush(sq, pi);
		return true;
	}
	/* One read hold for the gathering of a whole batch (MR lookups, data copies). */
	pthread_rwlock_rdlock(&sim->lock);
	while (sq->ctr != pi) {
		uint16_t bb;
		uint8_t synd;

		if (n == 0)
			mlx5dm_sim_tx_prefetch(sq, pi);
		synd = mlx5dm_sim_tx_wqe(sim, tx, sq, pi, n, &bb);

		if (synd != 0) {
			/* What came before the bad WQE goes out first, in order. */
			mlx5dm_sim_tx_burst(sim, tx, sq, n);
			mlx5dm_sim_tx_cqe(sq, sq->ctr, synd);
			mlx5dm_sim_tx_to_err(sq);
			sq->ctr = (uint16_t)(sq->ctr + bb);
			mlx5dm_sim_tx_flush(sq, pi);
			pthread_rwlock_unlock(&sim->lock);
			return true;
		}
		sq->ctr = (uint16_t)(sq->ctr + bb);
		if (++n == MLX5DM_SIM_TX_BURST) {
			mlx5dm_sim_tx_burst(sim, tx, sq, n);
			n = 0;
			if (__atomic_load_n(&sq->state, __ATOMIC_ACQUIRE) != MLX5DM_SIM_SQ_RDY) {
				mlx5dm_sim_tx_flush(sq, pi);
				break;
			}
		}
	}
	mlx5dm_sim_tx_burst(sim, tx, sq, n);
	pthread_rwlock_unlock(&sim->lock);
	return true;
}
