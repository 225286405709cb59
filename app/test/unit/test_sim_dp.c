/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The model's datapath queues driven through raw DEVX mailboxes and WQE
 * bytes written here from the PRM layouts (kernel mlx5_ifc.h sqc/tisc/rqc/
 * wq, rdma-core mlx5dv.h struct mlx5_wqe_ctrl_seg/_eth_seg/_data_seg, DPDK
 * mlx5_prm.h struct mlx5_cqe / mlx5_err_cqe), not by library code: a frame
 * posted on an SQ arrives in a posted RQ buffer with the CQE bytes the
 * datapath contract gives, then the Tx CQE; multi-segment and wrapping
 * WQEs; inline header sizes; each protocol error (syndrome, queue state,
 * flush) and recovery; a CQ overrun; two cabled devices; an idle device
 * thread that sleeps.
 */

#include <dirent.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>
#include <cmocka.h>

#include "mlx5dm_sim_queue.h"
#include "test_sim_util.h"

#define LOG_SQ 6                       /* 64 WQEBBs */
#define LOG_RQ 7                       /* 128 receive WQEs */
#define RXBUF 256
#define DATA_BYTES (64 * 1024)

/* One device with an SQ (own CQ), an RQ (own CQ), a TIR and a root rule to it. */
struct dpx {
	struct tsim t;
	struct mlx5dv_devx_uar *uar;
	struct mlx5dv_devx_obj *td, *tis, *scq, *sq, *rcq, *rq, *tir;
	struct mlx5dv_flow_matcher *m;
	struct ibv_flow *f;
	struct ibv_mr *mr;
	uint8_t *mem;                      /* rings, records, then data */
	uint8_t *scqe, *sdb, *swq, *sqdb, *rcqe, *rdb, *rwq, *rqdb, *data;
	uint32_t tdn, tisn, scqn, sqn, rcqn, rqn, tirn;
	uint32_t rcq_log;
	uint16_t pi;                       /* SQ WQEBBs posted */
	uint16_t rpi;                      /* RQ WQEs posted */
	uint32_t sci, rci;                 /* CQ consumer indexes */
};

static struct mlx5dv_devx_umem *
reg(struct dpx *d, uint8_t *p, size_t len)
{
	struct mlx5dv_devx_umem *u = d->t.ops->devx_umem_reg(d->t.ctx, p, len,
							      IBV_ACCESS_LOCAL_WRITE);

	assert_non_null(u);
	return u;
}

static struct mlx5dv_devx_obj *
obj(struct dpx *d, const uint8_t *in, size_t inlen, uint32_t *id)
{
	uint8_t out[16] = { 0 };
	struct mlx5dv_devx_obj *o = d->t.ops->devx_obj_create(d->t.ctx, in, inlen, out,
							       sizeof(out));

	assert_non_null(o);
	*id = (uint32_t)GET(out, 0x48, 24);
	return o;
}

/* CREATE_CQ of 2^log 64-byte CQEs (cq_context at bit 0x80). */
static struct mlx5dv_devx_obj *
make_cq(struct dpx *d, uint8_t *buf, uint8_t *db, uint32_t log, uint32_t *cqn)
{
	uint8_t in[272] = { 0 };
	uint32_t i, eqn;

	for (i = 0; i < (1u << log); i++)
		buf[i * 64 + 63] = 0xf0;
	assert_int_equal(d->t.ops->devx_query_eqn(d->t.ctx, 0, &eqn), 0);
	SET(in, 0x00, 16, 0x400);
	SET(in, 0x80 + 0xb8, 8, eqn);
	SET(in, 0x80 + 0x20, 32, reg(d, db, 64)->umem_id);   /* dbr_umem_id */
	SET(in, 0x80 + 0x63, 5, log);
	SET(in, 0x80 + 0x68, 24, d->uar->page_id);
	SET(in, 0x2c0, 32, reg(d, buf, (size_t)64 << log)->umem_id);
	return obj(d, in, sizeof(in), cqn);
}

/* MODIFY_SQ (0x905) or MODIFY_RQ (0x909) from cur to next; 0 or the errno. */
static int
modify(struct dpx *d, struct mlx5dv_devx_obj *o, uint16_t op, uint32_t qn, uint32_t cur,
       uint32_t next)
{
	uint8_t in[272] = { 0 }, out[16] = { 0 };

	SET(in, 0x00, 16, op);
	SET(in, 0x40, 4, cur);
	SET(in, 0x48, 24, qn);
	SET(in, 0x100 + 0x08, 4, next);
	return d->t.ops->devx_obj_modify(o, in, sizeof(in), out, sizeof(out));
}

/* QUERY_SQ (0x907) / QUERY_RQ (0x90b): the state in the context at bit 0x100. */
static uint32_t
qstate(struct dpx *d, struct mlx5dv_devx_obj *o, uint16_t op, uint32_t qn)
{
	uint8_t in[16] = { 0 }, out[272] = { 0 };

	SET(in, 0x00, 16, op);
	SET(in, 0x48, 24, qn);
	assert_int_equal(d->t.ops->devx_obj_query(o, in, sizeof(in), out, sizeof(out)), 0);
	return (uint32_t)GET(out, 0x100 + 0x08, 4);
}

static void
put32(uint8_t *p, uint32_t v)
{
	mlx5dm_prm_put_be32(p, v);
}

static void
put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)(v >> 32));
	put32(p + 4, (uint32_t)v);
}

/* Post receive WQE rpi: one data segment (length, lkey, address). */
static void
rq_post_key(struct dpx *d, uint32_t len, uint32_t lkey, uint64_t addr)
{
	uint8_t *w = d->rwq + (size_t)(d->rpi & ((1u << LOG_RQ) - 1)) * 16;

	put32(w, len);
	put32(w + 4, lkey);
	put64(w + 8, addr);
	d->rpi++;
	__atomic_thread_fence(__ATOMIC_RELEASE);
	put32(d->rqdb, d->rpi);
}

static uint8_t *
rxbuf(struct dpx *d, uint16_t idx)
{
	return d->data + DATA_BYTES / 2 + (size_t)(idx % 128) * RXBUF;
}

static void
rq_post(struct dpx *d)
{
	rq_post_key(d, RXBUF, d->mr->lkey, (uintptr_t)rxbuf(d, d->rpi));
}

/* The device, its SQ and, with rx_objs, an RQ whose CQ has 2^rcq_log CQEs. */
static void
dpx_open_cfg(struct dpx *d, const struct mlx5dm_sim_config *cfg, bool rx_objs,
	     uint32_t rcq_log)
{
	struct mlx5dv_flow_match_parameters *mask, *val;
	struct mlx5dv_flow_matcher_attr ma;
	struct mlx5dv_flow_action_attr act;
	uint8_t in[272];

	memset(d, 0, sizeof(*d));
	assert_int_equal(tsim_open(&d->t, cfg), 0);
	d->uar = d->t.ops->devx_alloc_uar(d->t.ctx, MLX5DV_UAR_ALLOC_TYPE_NC);
	assert_non_null(d->uar);
	assert_int_equal(posix_memalign((void **)&d->mem, 4096, 16 * 4096 + DATA_BYTES), 0);
	memset(d->mem, 0, 16 * 4096 + DATA_BYTES);
	d->scqe = d->mem;                  /* 64 CQEs */
	d->sdb = d->mem + 4096;
	d->swq = d->mem + 2 * 4096;        /* 64 WQEBBs */
	d->sqdb = d->mem + 3 * 4096;
	d->rcqe = d->mem + 4 * 4096;       /* up to 128 CQEs */
	d->rdb = d->mem + 6 * 4096;
	d->rwq = d->mem + 7 * 4096;        /* 128 x 16 bytes */
	d->rqdb = d->mem + 8 * 4096;
	d->data = d->mem + 16 * 4096;
	d->mr = d->t.ops->reg_mr(d->t.pd, d->data, DATA_BYTES, IBV_ACCESS_LOCAL_WRITE);
	assert_non_null(d->mr);
	memset(in, 0, 16);
	SET(in, 0x00, 16, 0x816);          /* ALLOC_TRANSPORT_DOMAIN */
	d->td = obj(d, in, 16, &d->tdn);
	memset(in, 0, sizeof(in));
	SET(in, 0x00, 16, 0x912);          /* CREATE_TIS: tisc at bit 0x100 */
	SET(in, 0x100 + 0x128, 24, d->tdn);
	d->tis = obj(d, in, sizeof(in), &d->tisn);
	d->scq = make_cq(d, d->scqe, d->sdb, LOG_SQ, &d->scqn);
	memset(in, 0, sizeof(in));
	SET(in, 0x00, 16, 0x904);          /* CREATE_SQ: sqc at bit 0x100, wq at 0x280 */
	SET(in, 0x100 + 0x03, 1, 1);       /* flush_in_error_en */
	SET(in, 0x100 + 0x05, 3, 1);       /* min_wqe_inline_mode: L2 */
	SET(in, 0x100 + 0x48, 24, d->scqn);
	SET(in, 0x100 + 0x100, 16, 1);     /* tis_lst_sz */
	SET(in, 0x100 + 0x168, 24, d->tisn);
	SET(in, 0x280 + 0x00, 4, 1);       /* wq_type cyclic */
	SET(in, 0x280 + 0x48, 24, d->t.pdn);
	SET(in, 0x280 + 0x10c, 4, 6);      /* log_wq_stride: 64 bytes */
	SET(in, 0x280 + 0x11b, 5, LOG_SQ);
	SET(in, 0x280 + 0x140, 32, reg(d, d->sqdb, 64)->umem_id);
	SET(in, 0x280 + 0x160, 32, reg(d, d->swq, (size_t)64 << LOG_SQ)->umem_id);
	d->sq = obj(d, in, sizeof(in), &d->sqn);
	assert_int_equal(qstate(d, d->sq, 0x907, d->sqn), 0);
	assert_int_equal(modify(d, d->sq, 0x905, d->sqn, 0, 1), 0);
	assert_int_equal(qstate(d, d->sq, 0x907, d->sqn), 1);
	if (!rx_objs)
		return;
	d->rcq_log = rcq_log;
	d->rcq = make_cq(d, d->rcqe, d->rdb, d->rcq_log, &d->rcqn);
	memset(in, 0, sizeof(in));
	SET(in, 0x00, 16, 0x908);          /* CREATE_RQ: rqc at bit 0x100, wq at 0x280 */
	SET(in, 0x100 + 0x48, 24, d->rcqn);
	SET(in, 0x280 + 0x00, 4, 1);
	SET(in, 0x280 + 0x48, 24, d->t.pdn);
	SET(in, 0x280 + 0x10c, 4, 4);      /* 16-byte WQEs */
	SET(in, 0x280 + 0x11b, 5, LOG_RQ);
	SET(in, 0x280 + 0x140, 32, reg(d, d->rqdb, 64)->umem_id);
	SET(in, 0x280 + 0x160, 32, reg(d, d->rwq, (size_t)16 << LOG_RQ)->umem_id);
	d->rq = obj(d, in, sizeof(in), &d->rqn);
	assert_int_equal(modify(d, d->rq, 0x909, d->rqn, 0, 1), 0);
	memset(in, 0, sizeof(in));
	SET(in, 0x00, 16, 0x900);          /* CREATE_TIR direct to the RQ */
	SET(in, 0x100 + 0xe8, 24, d->rqn);
	SET(in, 0x100 + 0x128, 24, d->tdn);
	d->tir = obj(d, in, sizeof(in), &d->tirn);
	mask = calloc(1, sizeof(*mask) + 64);
	val = calloc(1, sizeof(*val) + 64);
	mask->match_sz = 64;
	val->match_sz = 64;
	memset(&ma, 0, sizeof(ma));
	ma.type = IBV_FLOW_ATTR_NORMAL;
	ma.match_mask = mask;
	ma.comp_mask = MLX5DV_FLOW_MATCHER_MASK_FT_TYPE;
	ma.ft_type = MLX5DV_FLOW_TABLE_TYPE_NIC_RX;
	d->m = d->t.ops->create_flow_matcher(d->t.ctx, &ma);
	assert_non_null(d->m);
	act.type = MLX5DV_FLOW_ACTION_DEST_DEVX;
	act.obj = d->tir;
	d->f = d->t.ops->create_flow(d->m, val, 1, &act);
	assert_non_null(d->f);
	free(mask);
	free(val);
}

static void
dpx_open(struct dpx *d)
{
	dpx_open_cfg(d, NULL, true, LOG_RQ);
}

static void
dpx_close(struct dpx *d)
{
	const struct mlx5dm_dev_ops *ops = d->t.ops;

	if (d->f != NULL) {
		assert_int_equal(ops->destroy_flow(d->f), 0);
		assert_int_equal(ops->destroy_flow_matcher(d->m), 0);
		assert_int_equal(ops->devx_obj_destroy(d->tir), 0);
		assert_int_equal(ops->devx_obj_destroy(d->rq), 0);
		assert_int_equal(ops->devx_obj_destroy(d->rcq), 0);
	}
	/* The TIS is refused while the SQ sends through it. */
	assert_int_equal(ops->devx_obj_destroy(d->tis), EBUSY);
	assert_int_equal(ops->devx_obj_destroy(d->sq), 0);
	assert_int_equal(ops->devx_obj_destroy(d->tis), 0);
	assert_int_equal(ops->devx_obj_destroy(d->scq), 0);
	assert_int_equal(ops->devx_obj_destroy(d->td), 0);
	assert_int_equal(ops->dereg_mr(d->mr), 0);
	tsim_close(&d->t);
	free(d->mem);
}

/* Ethernet + IPv4 + UDP, checksums right, len bytes in all (>= 42). */
static void
udp_frame(uint8_t *f, uint16_t len, uint16_t seq)
{
	uint32_t sum = 0;
	unsigned int i;

	memset(f, 0, len);
	memcpy(f, (uint8_t[]){ 0x02, 0, 0, 0, 0, 2, 0x02, 0, 0, 0, 0, 1, 0x08, 0x00 }, 14);
	f[14] = 0x45;
	f[16] = (uint8_t)((len - 14) >> 8);
	f[17] = (uint8_t)(len - 14);
	f[22] = 64;
	f[23] = 17;
	memcpy(f + 26, (uint8_t[]){ 10, 0, 0, 1, 10, 0, 0, 2 }, 8);
	for (i = 0; i < 20; i += 2)
		sum += (uint32_t)f[14 + i] << 8 | f[15 + i];
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	f[24] = (uint8_t)(~sum >> 8);
	f[25] = (uint8_t)~sum;
	f[34] = 0x04;                       /* sport 1234, dport 5678 */
	f[35] = 0xd2;
	f[36] = 0x16;
	f[37] = 0x2e;
	f[38] = (uint8_t)((len - 34) >> 8);
	f[39] = (uint8_t)(len - 34);
	for (i = 42; i < len; i++)
		f[i] = (uint8_t)(i + seq);
	f[42] = (uint8_t)(seq >> 8);
	f[43] = (uint8_t)seq;
	/* UDP checksum 0: none (allowed over IPv4). */
}

/* Copy a WQE of len bytes to WQEBB counter pi of the ring, wrapping. */
static void
sq_put(struct dpx *d, uint16_t pi, const uint8_t *w, size_t len)
{
	size_t bytes = (size_t)64 << LOG_SQ, off = (size_t)(pi & ((1u << LOG_SQ) - 1)) * 64, i;

	for (i = 0; i < len; i++)
		d->swq[(off + i) % bytes] = w[i];
}

/*
 * A SEND WQE at the SQ's counter: inline header of inl bytes of the frame
 * (2 in the Ethernet segment, the rest in the next units), then the rest
 * split over nseg data segments of the data area. Returns its WQEBBs.
 */
static uint16_t
sq_send(struct dpx *d, const uint8_t *f, uint16_t len, uint16_t inl, unsigned int nseg,
	bool ce)
{
	uint8_t w[1024] = { 0 };
	size_t at, left = len - inl, per, off = 0;
	uint8_t *src = d->data + (size_t)(d->pi % 64) * 512;
	unsigned int s;
	uint16_t bb;

	memcpy(src, f + inl, left);
	memcpy(w + 30, f, inl);
	at = 32 + (inl > 2 ? (size_t)(inl - 2 + 15) / 16 * 16 : 0);
	per = nseg != 0 ? (left + nseg - 1) / nseg : 0;
	for (s = 0; s < nseg && off < left; s++) {
		size_t n = MLX5DM_MIN(per, left - off);

		put32(w + at, (uint32_t)n);
		put32(w + at + 4, d->mr->lkey);
		put64(w + at + 8, (uintptr_t)(src + off));
		off += n;
		at += 16;
	}
	put32(w, (uint32_t)d->pi << 8 | 0x0a);       /* wqe_index, opcode SEND */
	put32(w + 4, d->sqn << 8 | (uint32_t)(at / 16));
	w[11] = ce ? 0x08 : 0;                        /* fm_ce_se: CQ_UPDATE */
	w[16 + 12] = (uint8_t)(inl >> 8);             /* inline_hdr_sz */
	w[16 + 13] = (uint8_t)inl;
	sq_put(d, d->pi, w, at);
	bb = (uint16_t)((at + 63) / 64);
	d->pi = (uint16_t)(d->pi + bb);
	return bb;
}

/* Doorbell record word 1, then the doorbell: the control segment's first 8 bytes. */
static void
sq_ring_at(struct dpx *d, uint16_t pi, uint16_t last)
{
	uint64_t v;

	__atomic_thread_fence(__ATOMIC_RELEASE);
	put32(d->sqdb + 4, pi);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	memcpy(&v, d->swq + (size_t)(last & ((1u << LOG_SQ) - 1)) * 64, 8);
	mlx5dm_dev_doorbell(d->uar, 0, v);
}

static void
sq_ring(struct dpx *d, uint16_t last)
{
	sq_ring_at(d, d->pi, last);
}

/* Next CQE of a CQ (consumed), waiting up to two seconds; NULL if none came. */
static const uint8_t *
cqe_wait(uint8_t *ring, uint8_t *db, uint32_t log, uint32_t *ci, bool wait)
{
	int i;

	for (i = 0; i < (wait ? 200000 : 1); i++) {
		const uint8_t *c = ring + (size_t)(*ci & ((1u << log) - 1)) * 64;
		uint8_t op_own = __atomic_load_n(&c[63], __ATOMIC_ACQUIRE);

		if ((op_own >> 4) != 0xf && (op_own & 1) == ((*ci >> log) & 1)) {
			(*ci)++;
			put32(db, *ci & 0xffffff);
			return c;
		}
		if (wait)
			usleep(10);
	}
	return NULL;
}

static const uint8_t *
tx_cqe(struct dpx *d)
{
	return cqe_wait(d->scqe, d->sdb, LOG_SQ, &d->sci, true);
}

/* The Rx CQE is written before the Tx CQE: no waiting for it. */
static const uint8_t *
rx_cqe(struct dpx *d)
{
	return cqe_wait(d->rcqe, d->rdb, d->rcq_log, &d->rci, false);
}

static uint16_t
be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

/* An error CQE: opcode, syndrome (byte 55, mlx5_err_cqe), wqe_counter. */
static void
assert_err_cqe(const uint8_t *c, uint8_t opcode, uint8_t synd, uint16_t idx)
{
	assert_non_null(c);
	assert_int_equal(c[63] >> 4, opcode);
	assert_int_equal(c[55], synd);
	assert_int_equal(be16(c + 60), idx);
}

static void
test_frame_and_cqes(void **state)
{
	uint8_t f[60];
	const uint8_t *tx, *rx;
	struct dpx d;

	(void)state;
	dpx_open(&d);
	rq_post(&d);
	udp_frame(f, sizeof(f), 7);
	sq_send(&d, f, sizeof(f), 18, 1, true);
	sq_ring(&d, 0);
	tx = tx_cqe(&d);
	assert_non_null(tx);
	/* Tx CQE: opcode REQ, owner 0 (first pass), wqe_counter 0, the SQ's number. */
	assert_int_equal(tx[63], 0x00);
	assert_int_equal(be16(tx + 60), 0);
	assert_int_equal(GET(tx, 0x1c8, 24), d.sqn);
	/* The Rx CQE was written before it. */
	rx = rx_cqe(&d);
	assert_non_null(rx);
	assert_int_equal(rx[63], 0x20);                /* RESP_SEND, owner 0 */
	assert_int_equal(mlx5dm_prm_be32(rx + 44), 60); /* byte_cnt */
	assert_int_equal(be16(rx + 60), 0);            /* wqe_counter */
	assert_int_equal(rx[28], 0x06);                /* L3_OK | L4_OK */
	assert_int_equal(rx[29], 2 << 4 | 2 << 2);     /* UDP, IPv4, not a fragment */
	assert_int_equal(rx[0], 0);                    /* not tunneled */
	assert_int_equal(GET(rx, 0x1c8, 24), 0);       /* no flow tag */
	assert_int_equal(mlx5dm_prm_be32(rx + 12), 0); /* no TIR hash */
	assert_int_equal(rx[16], 0);
	assert_memory_equal(rxbuf(&d, 0), f, sizeof(f));
	/* A bad IPv4 header checksum clears L3_OK; a bad UDP checksum L4_OK. */
	rq_post(&d);
	f[24] ^= 0xff;
	f[40] = 0x12;
	sq_send(&d, f, sizeof(f), 18, 1, true);
	sq_ring(&d, 1);
	assert_non_null(tx_cqe(&d));
	rx = rx_cqe(&d);
	assert_non_null(rx);
	assert_int_equal(rx[28], 0);
	assert_int_equal(be16(rx + 60), 1);
	dpx_close(&d);
}

/* Unsignalled WQEs complete with the next signalled one; WQEs of several WQEBBs wrap. */
static void
test_multi_segment_and_wrap(void **state)
{
	uint8_t f[200], g[200];
	const uint8_t *rx, *tx;
	struct dpx d;
	unsigned int i;
	uint16_t last = 0;

	(void)state;
	dpx_open(&d);
	for (i = 0; i < 100; i++)
		rq_post(&d);
	/* 63 one-WQEBB WQEs (ctrl, eseg, 16 inline bytes, one segment), one CQE for all. */
	for (i = 0; i < 63; i++) {
		udp_frame(f, 100, (uint16_t)i);
		last = d.pi;
		sq_send(&d, f, 100, 18, 1, i == 62);
	}
	sq_ring(&d, last);
	tx = tx_cqe(&d);
	assert_non_null(tx);
	assert_int_equal(be16(tx + 60), 62);
	assert_null(cqe_wait(d.scqe, d.sdb, LOG_SQ, &d.sci, false));
	for (i = 0; i < 63; i++) {
		rx = rx_cqe(&d);
		assert_non_null(rx);
		assert_int_equal(be16(rx + 60), i);
		udp_frame(f, 100, (uint16_t)i);
		assert_memory_equal(rxbuf(&d, (uint16_t)i), f, 100);
	}
	/*
	 * Three segments and a 50-byte inline header: 2 + 3 + 3 units in
	 * WQEBBs 63 and 64, the ring's last and first; then four segments in
	 * WQEBBs 65 and 66.
	 */
	udp_frame(g, 200, 500);
	assert_int_equal(sq_send(&d, g, 200, 50, 3, true), 2);
	udp_frame(f, 180, 501);
	assert_int_equal(sq_send(&d, f, 180, 18, 4, true), 2);
	sq_ring(&d, 65);
	tx = tx_cqe(&d);
	assert_non_null(tx);
	assert_int_equal(be16(tx + 60), 63);
	tx = tx_cqe(&d);
	assert_non_null(tx);
	assert_int_equal(be16(tx + 60), 65);
	rx = rx_cqe(&d);
	assert_non_null(rx);
	assert_int_equal(mlx5dm_prm_be32(rx + 44), 200);
	assert_memory_equal(rxbuf(&d, 63), g, 200);
	rx = rx_cqe(&d);
	assert_non_null(rx);
	assert_int_equal(mlx5dm_prm_be32(rx + 44), 180);
	assert_memory_equal(rxbuf(&d, 64), f, 180);
	dpx_close(&d);
}

/* Inline header sizes: the minimum, more, all of the frame; below the minimum is an error. */
static void
test_inline_sizes(void **state)
{
	static const uint16_t ok[] = { 18, 19, 34, 60 };
	uint8_t f[60];
	const uint8_t *c;
	struct dpx d;
	unsigned int i;

	(void)state;
	dpx_open(&d);
	for (i = 0; i < MLX5DM_ARRAY_SIZE(ok); i++) {
		uint16_t at = d.pi;

		rq_post(&d);
		udp_frame(f, 60, (uint16_t)i);
		sq_send(&d, f, 60, ok[i], ok[i] == 60 ? 0 : 2, true);
		sq_ring(&d, at);
		c = tx_cqe(&d);
		assert_non_null(c);
		assert_int_equal(c[63] >> 4, 0x0);
		assert_non_null(rx_cqe(&d));
		assert_memory_equal(rxbuf(&d, (uint16_t)i), f, 60);
	}
	/* 16 bytes: below the SQ's 18. */
	udp_frame(f, 60, 9);
	sq_send(&d, f, 60, 16, 1, true);
	sq_ring(&d, (uint16_t)(d.pi - 1));
	assert_err_cqe(tx_cqe(&d), 0xd, 0x02, (uint16_t)(d.pi - 1));
	assert_int_equal(qstate(&d, d.sq, 0x907, d.sqn), 3);
	dpx_close(&d);
}

/*
 * Each send-side protocol error: the error CQE (REQ_ERR, syndrome,
 * wqe_counter), the SQ in ERR, the next posted WQE flushed; then recovery
 * (ERR->RST->RDY, counters from 0) and a good frame.
 */
static void
tx_error_case(unsigned int kind)
{
	uint8_t f[60];
	const uint8_t *c;
	struct dpx d;
	uint8_t synd = 0x04;
	uint16_t bad;

	dpx_open(&d);
	rq_post(&d);
	udp_frame(f, 60, 1);
	sq_send(&d, f, 60, 18, 1, true);       /* a good one first */
	bad = d.pi;
	sq_send(&d, f, 60, 18, 1, true);
	switch (kind) {
	case 0: /* lkey of no MR */
		put32(d.swq + 64 * bad + 48 + 4, d.mr->lkey + 0x100);
		break;
	case 1: /* address past the MR's end */
		put64(d.swq + 64 * bad + 48 + 8, (uintptr_t)d.data + DATA_BYTES - 8);
		break;
	case 2: /* wqe_index not the device's counter */
		put32(d.swq + 64 * bad, 7u << 8 | 0x0a);
		synd = 0x02;
		break;
	case 3: /* ds 0 */
		d.swq[64 * bad + 7] = 0;
		synd = 0x02;
		break;
	case 4: /* opcode not SEND (RDMA WRITE) */
		d.swq[64 * bad + 3] = 0x08;
		synd = 0x02;
		break;
	case 5: /* a data segment of 0 bytes */
		put32(d.swq + 64 * bad + 48, 0);
		synd = 0x01;
		break;
	}
	sq_send(&d, f, 60, 18, 1, false);      /* flushed, CQE or not */
	sq_ring(&d, (uint16_t)(d.pi - 1));
	c = tx_cqe(&d);
	assert_non_null(c);
	assert_int_equal(c[63] >> 4, 0x0);
	assert_non_null(rx_cqe(&d));
	assert_err_cqe(tx_cqe(&d), 0xd, synd, bad);
	assert_err_cqe(tx_cqe(&d), 0xd, 0x05, (uint16_t)(bad + 1));
	assert_int_equal(qstate(&d, d.sq, 0x907, d.sqn), 3);
	/* Posted while in ERR: flushed too. */
	sq_send(&d, f, 60, 18, 1, false);
	sq_ring(&d, (uint16_t)(d.pi - 1));
	assert_err_cqe(tx_cqe(&d), 0xd, 0x05, (uint16_t)(bad + 2));
	assert_null(rx_cqe(&d));
	/* Recovery: RDY -> ... is refused from ERR; ERR -> RST -> RDY, from counter 0. */
	assert_int_equal(modify(&d, d.sq, 0x905, d.sqn, 3, 1), EREMOTEIO);
	assert_int_equal(modify(&d, d.sq, 0x905, d.sqn, 3, 0), 0);
	put32(d.sqdb + 4, 0);
	assert_int_equal(modify(&d, d.sq, 0x905, d.sqn, 0, 1), 0);
	d.pi = 0;
	rq_post(&d);
	udp_frame(f, 60, 2);
	sq_send(&d, f, 60, 18, 1, true);
	sq_ring(&d, 0);
	c = tx_cqe(&d);
	assert_non_null(c);
	assert_int_equal(c[63] >> 4, 0x0);
	assert_int_equal(be16(c + 60), 0);
	c = rx_cqe(&d);
	assert_non_null(c);
	assert_memory_equal(rxbuf(&d, be16(c + 60)), f, 60);
	dpx_close(&d);
}

static void
test_tx_errors(void **state)
{
	unsigned int k;

	(void)state;
	for (k = 0; k < 6; k++)
		tx_error_case(k);
}

/* A send counter more than a ring ahead of the device: LOCAL_QP_OP at the device's counter. */
static void
test_tx_record_ahead(void **state)
{
	struct dpx d;

	(void)state;
	dpx_open(&d);
	sq_ring_at(&d, (uint16_t)(65), 0);
	assert_err_cqe(tx_cqe(&d), 0xd, 0x02, 0);
	assert_int_equal(qstate(&d, d.sq, 0x907, d.sqn), 3);
	assert_null(cqe_wait(d.scqe, d.sdb, LOG_SQ, &d.sci, false));
	dpx_close(&d);
}

/*
 * Receive-side errors: the RQ's error CQE (RESP_ERR, syndrome, the WQE's
 * counter), the RQ in ERR, the rest of its posted WQEs flushed and those
 * posted later too; the frame is dropped, the Tx CQE still comes.
 */
static void
rx_error_case(unsigned int kind)
{
	struct mlx5dm_dev_port_stats st;
	uint8_t f[120];
	const uint8_t *c;
	struct dpx d;
	uint8_t synd;

	dpx_open(&d);
	switch (kind) {
	case 0: /* the buffer's lkey names no MR */
		rq_post_key(&d, RXBUF, d.mr->lkey ^ 0x300, (uintptr_t)rxbuf(&d, 0));
		synd = 0x04;
		break;
	case 1: /* the buffer runs past the MR */
		rq_post_key(&d, RXBUF, d.mr->lkey, (uintptr_t)d.data + DATA_BYTES - 64);
		synd = 0x04;
		break;
	default: /* a frame longer than the buffer */
		rq_post_key(&d, 100, d.mr->lkey, (uintptr_t)rxbuf(&d, 0));
		synd = 0x01;
		break;
	}
	rq_post(&d);
	udp_frame(f, sizeof(f), 3);
	sq_send(&d, f, sizeof(f), 18, 1, true);
	sq_ring(&d, 0);
	c = tx_cqe(&d);
	assert_non_null(c);
	assert_int_equal(c[63] >> 4, 0x0);
	assert_err_cqe(rx_cqe(&d), 0xe, synd, 0);
	assert_err_cqe(rx_cqe(&d), 0xe, 0x05, 1);
	assert_int_equal(qstate(&d, d.rq, 0x90b, d.rqn), 3);
	assert_int_equal(mlx5dm_sim_port_stats_get(d.t.sim, 0, &st), 0);
	assert_int_equal(st.delivered, 0);
	/* Posted while in ERR: the device thread flushes it. */
	rq_post(&d);
	assert_err_cqe(cqe_wait(d.rcqe, d.rdb, d.rcq_log, &d.rci, true), 0xe, 0x05, 2);
	/* Recovery, counter from 0. */
	assert_int_equal(modify(&d, d.rq, 0x909, d.rqn, 3, 0), 0);
	put32(d.rqdb, 0);
	d.rpi = 0;
	assert_int_equal(modify(&d, d.rq, 0x909, d.rqn, 0, 1), 0);
	rq_post(&d);
	sq_send(&d, f, sizeof(f), 18, 1, true);
	sq_ring(&d, 1);
	assert_non_null(tx_cqe(&d));
	c = rx_cqe(&d);
	assert_non_null(c);
	assert_int_equal(c[63] >> 4, 0x2);
	assert_int_equal(be16(c + 60), 0);
	assert_memory_equal(rxbuf(&d, 0), f, sizeof(f));
	dpx_close(&d);
}

static void
test_rx_errors(void **state)
{
	unsigned int k;

	(void)state;
	for (k = 0; k < 3; k++)
		rx_error_case(k);
}

/* Nothing posted: dropped and counted; a receive counter a ring ahead: LOCAL_QP_OP. */
static void
test_rx_out_of_buffer_and_ahead(void **state)
{
	struct mlx5dm_dev_port_stats st;
	uint8_t f[60];
	struct dpx d;

	(void)state;
	dpx_open(&d);
	udp_frame(f, 60, 1);
	sq_send(&d, f, 60, 18, 1, true);
	sq_ring(&d, 0);
	assert_non_null(tx_cqe(&d));
	assert_null(rx_cqe(&d));
	assert_int_equal(mlx5dm_sim_port_stats_get(d.t.sim, 0, &st), 0);
	assert_int_equal(st.drops.queue_full, 1);
	assert_int_equal(qstate(&d, d.rq, 0x90b, d.rqn), 1);
	put32(d.rqdb, 1u << LOG_RQ | 1);
	sq_send(&d, f, 60, 18, 1, true);
	sq_ring(&d, 1);
	assert_non_null(tx_cqe(&d));
	assert_err_cqe(rx_cqe(&d), 0xe, 0x02, 0);
	assert_null(rx_cqe(&d));
	assert_int_equal(qstate(&d, d.rq, 0x90b, d.rqn), 3);
	dpx_close(&d);
}

/* A CQ the consumer does not release overruns: it goes to error and counts the loss. */
static void
test_cq_overrun(void **state)
{
	struct mlx5dm_sim_cq *cq;
	uint8_t f[60];
	struct dpx d;
	unsigned int i;

	(void)state;
	dpx_open_cfg(&d, NULL, true, 1);
	for (i = 0; i < 4; i++)
		rq_post(&d);
	udp_frame(f, 60, 1);
	for (i = 0; i < 3; i++)
		sq_send(&d, f, 60, 18, 1, i == 2);
	sq_ring(&d, 2);
	assert_non_null(tx_cqe(&d));
	/*
	 * Two CQEs fit a CQ of two; the third would overwrite the first: lost,
	 * the RQ in ERR, and the flush CQE of the fourth WQE is lost too.
	 */
	assert_int_equal(qstate(&d, d.rq, 0x90b, d.rqn), 3);
	usleep(100000);
	cq = mlx5dm_sim_obj_get(d.t.sim, MLX5DM_SIM_K_CQ, d.rcqn);
	assert_non_null(cq);
	assert_true(cq->overrun);
	assert_int_equal(cq->overruns, 2);
	assert_int_equal(be16(d.rcqe + 60), 0);
	assert_int_equal(be16(d.rcqe + 64 + 60), 1);
	dpx_close(&d);
}

/*
 * Two devices cabled through the boundary's optional operation, as the PMD
 * cables a port pair: what a's SQ sends arrives in b's RQ, all of it and in
 * order (a's device thread walks the journey and writes b's RQ), and the
 * boundary's port counters say so.
 */
static void
test_two_devices(void **state)
{
	struct mlx5dm_dev_port_stats sa, sb;
	struct dpx a, b;
	uint8_t f[64];
	unsigned int i, got = 0;

	(void)state;
	dpx_open_cfg(&a, NULL, false, 0);
	dpx_open(&b);
	assert_int_equal(mlx5dm_dev_wire_connect(a.t.dev, b.t.dev), 0);
	for (i = 0; i < 120; i++)
		rq_post(&b);
	for (i = 0; i < 120; i++) {
		uint16_t at = a.pi;

		udp_frame(f, 64, (uint16_t)i);
		sq_send(&a, f, 64, 18, 1, (i % 8) == 7);
		if ((i % 8) == 7) {
			sq_ring(&a, at);
			assert_non_null(tx_cqe(&a));
		}
	}
	for (;;) {
		const uint8_t *c = rx_cqe(&b);

		if (c == NULL)
			break;
		assert_int_equal(c[63] >> 4, 0x2);
		assert_int_equal(be16(c + 60), got);
		udp_frame(f, 64, (uint16_t)got);
		assert_memory_equal(rxbuf(&b, (uint16_t)got), f, 64);
		got++;
	}
	assert_int_equal(got, 120);
	assert_int_equal(mlx5dm_dev_port_stats(a.t.dev, &sa), 0);
	assert_int_equal(mlx5dm_dev_port_stats(b.t.dev, &sb), 0);
	assert_int_equal(sa.wire_packets, 120);
	assert_int_equal(sa.rx_packets, 0);
	assert_int_equal(sb.rx_packets, 120);
	assert_int_equal(sb.delivered, 120);
	dpx_close(&a);
	dpx_close(&b);
}

/*
 * ---- The E-Switch: a PF with two VFs, each function a device of its own ----
 *
 * FDB STEs are hand-built here (mlx5_ifc.h ste_match_bwc_v1, the v1
 * pointer encodings of rdma-core dr_ste_v1.c) and written into the PF's
 * STEERING ICM by RDMA WRITE; the addresses they end at are what the PF's
 * firmware reports (ESW_FLOW_TABLE caps, QUERY_ESW_VPORT_CONTEXT).
 */

#define ESW_VFS 2
#define ESW_STES 64

struct esw {
	struct dpx pf, vf[ESW_VFS], wire;  /* wire: a device cabled to the PF's uplink */
	struct tdm dm;                     /* the PF's STE ICM */
	struct tring r;                    /* the PF's ring that writes it */
	struct mlx5dv_devx_obj *ft;
	uint32_t ftn;
	struct mlx5dv_flow_matcher *root_m;  /* an FDB root rule to ft */
	struct ibv_flow *root_f;
	uint64_t drop[2], uplink[2];       /* FDB drop and uplink entries, RX and TX */
	uint64_t vport_rx[1 + ESW_VFS], vport_tx[1 + ESW_VFS];
	uint16_t vhca;                     /* the PF's */
};

/* QUERY_HCA_CAP (current) of type, of this function or (other) of vport function. */
static int
esw_cap(struct dpx *d, unsigned int type, bool other, uint16_t function, uint8_t *cap)
{
	uint8_t in[16] = { 0 }, out[16 + 4096] = { 0 };
	int rc;

	SET(in, 0x00, 16, 0x100);
	SET(in, 0x30, 16, type << 1 | 1);
	SET(in, 0x40, 1, other);
	SET(in, 0x50, 16, function);
	rc = d->t.ops->devx_general_cmd(d->t.ctx, in, sizeof(in), out, sizeof(out));
	memcpy(cap, out + 16, 4096);
	return rc;
}

/* QUERY_ESW_VPORT_CONTEXT: sw_steering_vport_icm_address_rx/_tx (context at bit 0x80). */
static int
esw_vport_ctx(struct dpx *d, bool other, uint16_t vport, uint64_t *rx, uint64_t *tx)
{
	uint8_t in[16] = { 0 }, out[272] = { 0 };
	int rc;

	SET(in, 0x00, 16, 0x752);
	SET(in, 0x40, 1, other);
	SET(in, 0x50, 16, vport);
	rc = d->t.ops->devx_general_cmd(d->t.ctx, in, sizeof(in), out, sizeof(out));
	*rx = GET(out, 0x80 + 0x780, 64);
	*tx = GET(out, 0x80 + 0x7c0, 64);
	return rc;
}

/* SET_FLOW_TABLE_ROOT of the FDB (table_type 4) to table id (0: none). */
static int
esw_set_root(struct dpx *d, uint32_t id)
{
	uint8_t in[64] = { 0 }, out[16] = { 0 };

	SET(in, 0x00, 16, 0x92f);
	SET(in, 0x80, 8, 4);
	SET(in, 0xa8, 24, id);
	return d->t.ops->devx_general_cmd(d->t.ctx, in, sizeof(in), out, sizeof(out));
}

/* CREATE_FLOW_TABLE of type, SW-owned with roots 0 and 1 (flow_table_context at byte 24). */
static struct mlx5dv_devx_obj *
esw_ft(struct dpx *d, unsigned int type, uint64_t root0, uint64_t root1, uint32_t *id)
{
	uint8_t in[64] = { 0 }, out[16] = { 0 };
	struct mlx5dv_devx_obj *o;

	SET(in, 0x00, 16, 0x930);
	SET(in, 0x80, 8, type);
	SET(in, 24 * 8 + 0x002, 1, 1);           /* sw_owner */
	SET(in, 24 * 8 + 0x008, 8, 63);          /* level */
	SET(in, 24 * 8 + 0x100, 64, root0);      /* sw_owner_icm_root_0 */
	SET(in, 24 * 8 + 0xc0, 64, root1);       /* sw_owner_icm_root_1 */
	o = d->t.ops->devx_obj_create(d->t.ctx, in, sizeof(in), out, sizeof(out));
	*id = (uint32_t)GET(out, 0x48, 24);
	return o;
}

/*
 * A v1 BWC STE of lookup lu: match (mask, tag) or, both NULL, always hit;
 * on a miss go to miss; on a hit to hit, a table of hit_size entries
 * (1 for a final address) looked up with DONT_CARE.
 */
static void
esw_ste(uint8_t img[64], uint16_t lu, const uint8_t *mask, const uint8_t *tag, uint64_t miss,
	uint64_t hit, uint32_t hit_size, uint16_t gvmi)
{
	uint64_t mi = (miss & 0xffffffffffull) >> 6;
	uint64_t hi = ((hit & 0xffffffffffull) >> 5) | hit_size;

	memset(img, 0, 64);
	SET(img, 0x000, 8, lu >> 8);             /* entry_format */
	SET(img, 0x020, 16, miss >> 48);         /* miss_address_63_48 */
	SET(img, 0x030, 8, lu & 0xff);           /* match_definer_ctx_idx */
	SET(img, 0x038, 8, mi >> 26);            /* miss_address_39_32 */
	SET(img, 0x040, 26, mi);                 /* miss_address_31_6 */
	SET(img, 0x060, 16, hit >> 48);          /* next_table_base_63_48 */
	SET(img, 0x070, 8, 0x0f);                /* hash_definer_ctx_idx: DONT_CARE */
	SET(img, 0x078, 8, hi >> 27);            /* next_table_base_39_32_size */
	SET(img, 0x080, 27, hi);                 /* next_table_base_31_5_size */
	SET(img, 0x0b2, 14, gvmi);
	if (mask != NULL)
		memcpy(img + 32, mask, 16);      /* HW image: mask, then tag */
	if (tag != NULL)
		memcpy(img + 48, tag, 16);
}

/* RDMA WRITE of STE idx of the PF's ICM (inline data), waiting for its CQE. */
static void
esw_put(struct esw *e, unsigned int idx, const uint8_t img[64])
{
	uint8_t w[7 * 16] = { 0 };
	const uint8_t *c = NULL;
	int i;

	tring_ctrl(&e->r, w, 0, 0x08, 7, true, 0);
	SET(w + 16, 0x00, 64, 64ull * idx);      /* raddr: the MR is zero-based */
	SET(w + 16, 0x40, 32, e->dm.mr->rkey);
	SET(w + 32, 0x00, 32, 0x80000000u | 64);
	memcpy(w + 36, img, 64);
	tring_put(&e->r, w, sizeof(w));
	tring_ring(&e->r, w);
	for (i = 0; i < 100000 && c == NULL; i++)
		c = tring_poll(&e->r);
	assert_non_null(c);
	assert_int_equal(c[63] >> 4, 0x0);
}

static uint64_t
esw_icm(const struct esw *e, unsigned int idx)
{
	return (uint64_t)e->vhca << 48 | (e->dm.icm + 64ull * idx);
}

static void
esw_open(struct esw *e)
{
	struct mlx5dm_sim_config cfg;
	uint8_t cap[4096];
	unsigned int i;

	memset(e, 0, sizeof(*e));
	mlx5dm_sim_config_default(&cfg);
	cfg.num_vfs = ESW_VFS;
	dpx_open_cfg(&e->pf, &cfg, true, LOG_RQ);
	e->vhca = cfg.vhca_id;
	for (i = 0; i < ESW_VFS; i++) {
		mlx5dm_sim_config_default(&cfg);
		cfg.esw_pf = e->pf.t.sim;
		cfg.vf = (uint16_t)i;
		dpx_open_cfg(&e->vf[i], &cfg, true, LOG_RQ);
	}
	dpx_open(&e->wire);
	assert_int_equal(mlx5dm_dev_wire_connect(e->wire.t.dev, e->pf.t.dev), 0);
	/* What rdma-core's FDB domain reads: ESW_FLOW_TABLE (type 8) and the vports. */
	assert_int_equal(esw_cap(&e->pf, 0x8, false, 0, cap), 0);
	e->drop[0] = GET(cap, 0x1800, 64);
	e->drop[1] = GET(cap, 0x1840, 64);
	e->uplink[0] = GET(cap, 0x1880, 64);
	e->uplink[1] = GET(cap, 0x18c0, 64);
	for (i = 0; i <= ESW_VFS; i++)
		assert_int_equal(esw_vport_ctx(&e->pf, i != 0, (uint16_t)i, &e->vport_rx[i],
					       &e->vport_tx[i]), 0);
	assert_int_equal(tdm_alloc(&e->pf.t, &e->dm, MLX5DV_DM_TYPE_STEERING_SW_ICM,
				   64 * ESW_STES), 0);
	assert_int_equal(tring_create(&e->pf.t, &e->r, 4, 4, 3), 0);
}

static void
esw_close(struct esw *e)
{
	unsigned int i;

	tring_destroy(&e->r);
	tdm_free(&e->pf.t, &e->dm);
	dpx_close(&e->wire);
	for (i = 0; i < ESW_VFS; i++)
		dpx_close(&e->vf[i]);
	dpx_close(&e->pf);
}

/* The functions are told apart and the PF alone manages the switch. */
static void
test_esw_caps(void **state)
{
	uint8_t cap[4096], fn[4096];
	uint64_t rx, tx;
	uint32_t id;
	struct esw e;
	unsigned int i;

	(void)state;
	esw_open(&e);
	assert_int_equal(esw_cap(&e.pf, 0x0, false, 0, cap), 0);
	assert_int_equal(GET(cap, 0x1a7, 1), 1);                 /* eswitch_manager */
	for (i = 0; i < ESW_VFS; i++) {
		/* A VF: its own vhca_id, the one the PF reports for its vport. */
		assert_int_equal(esw_cap(&e.vf[i], 0x0, false, 0, cap), 0);
		assert_int_equal(GET(cap, 0x1a7, 1), 0);
		assert_int_equal(GET(cap, 0x030, 16), e.vhca + 1 + i);
		assert_int_equal(esw_cap(&e.pf, 0x0, true, (uint16_t)(1 + i), fn), 0);
		assert_int_equal(GET(fn, 0x030, 16), e.vhca + 1 + i);
		/* Only the manager answers for the switch. */
		assert_int_equal(esw_cap(&e.vf[i], 0x0, true, 0, fn), EREMOTEIO);
		assert_int_equal(esw_vport_ctx(&e.vf[i], false, 0, &rx, &tx), EREMOTEIO);
		assert_int_equal(esw_cap(&e.vf[i], 0x8, false, 0, fn), 0);
		assert_int_equal(GET(fn, 0x1800, 64), 0);
	}
	/* A VF has no uplink to cable. */
	assert_int_equal(mlx5dm_dev_wire_connect(e.vf[0].t.dev, e.wire.t.dev), -EINVAL);
	assert_int_equal(mlx5dm_dev_wire_connect(e.wire.t.dev, e.vf[1].t.dev), -EINVAL);
	assert_int_equal(esw_cap(&e.pf, 0x0, true, ESW_VFS + 1, fn), EREMOTEIO);
	assert_int_equal(esw_vport_ctx(&e.pf, true, ESW_VFS + 1, &rx, &tx), EREMOTEIO);
	/* FDB: SW-owned (sw_owner_v2 on STE v1), E_SWITCH: the manager is vport 0. */
	assert_int_equal(esw_cap(&e.pf, 0x8, false, 0, cap), 0);
	assert_int_equal(GET(cap, 0x200 + 0x1e, 1), 1);
	assert_int_equal(esw_cap(&e.pf, 0x9, false, 0, cap), 0);
	assert_int_equal(GET(cap, 0x60, 1), 1);
	assert_int_equal(GET(cap, 0x70, 16), 0);
	/* Every FDB address is a distinct one of the manager's (GVMI in 63:48). */
	for (i = 0; i < 2; i++) {
		assert_int_equal(e.drop[i] >> 48, e.vhca);
		assert_int_equal(e.uplink[i] >> 48, e.vhca);
		assert_true(e.drop[i] != e.uplink[i]);
	}
	for (i = 0; i <= ESW_VFS; i++) {
		assert_int_equal(e.vport_rx[i] >> 48, e.vhca);
		assert_true(e.vport_rx[i] != e.vport_tx[i]);
		assert_true(i == 0 || e.vport_rx[i] != e.vport_rx[i - 1]);
	}
	/* FDB tables: the manager's, both roots in steering ICM; a VF has none. */
	assert_null(esw_ft(&e.vf[0], 4, esw_icm(&e, 0), esw_icm(&e, 1), &id));
	assert_null(esw_ft(&e.pf, 4, esw_icm(&e, 0), 0x1000, &id));
	e.ft = esw_ft(&e.pf, 4, esw_icm(&e, 0), esw_icm(&e, 1), &e.ftn);
	assert_non_null(e.ft);
	assert_int_equal(esw_set_root(&e.vf[0], e.ftn), EREMOTEIO);
	assert_int_equal(esw_set_root(&e.pf, e.ftn), 0);
	/* The root is referenced: the table stays until the root moves off it. */
	assert_int_equal(e.pf.t.ops->devx_obj_destroy(e.ft), EBUSY);
	assert_int_equal(esw_set_root(&e.pf, 0), 0);
	assert_int_equal(e.pf.t.ops->devx_obj_destroy(e.ft), 0);
	esw_close(&e);
}

/*
 * An FDB root rule forwarding everything to the FDB table (on), or its
 * removal (off); a VF may not make one.
 */
static void
esw_root_rule(struct esw *e, bool on)
{
	struct mlx5dv_flow_match_parameters *mp = calloc(1, sizeof(*mp) + 64);
	struct mlx5dv_flow_matcher_attr ma = { 0 };
	struct mlx5dv_flow_action_attr act = { 0 };
	const struct mlx5dm_dev_ops *ops = e->pf.t.ops;

	if (!on) {
		assert_int_equal(ops->destroy_flow(e->root_f), 0);
		assert_int_equal(ops->destroy_flow_matcher(e->root_m), 0);
		free(mp);
		return;
	}
	assert_non_null(mp);
	mp->match_sz = 64;
	ma.type = IBV_FLOW_ATTR_NORMAL;
	ma.match_mask = mp;
	ma.comp_mask = MLX5DV_FLOW_MATCHER_MASK_FT_TYPE;
	ma.ft_type = MLX5DV_FLOW_TABLE_TYPE_FDB;
	assert_null(ops->create_flow_matcher(e->vf[0].t.ctx, &ma));
	assert_int_equal(errno, EOPNOTSUPP);
	e->root_m = ops->create_flow_matcher(e->pf.t.ctx, &ma);
	assert_non_null(e->root_m);
	act.type = MLX5DV_FLOW_ACTION_DEST_DEVX;
	act.obj = e->pf.tir;               /* a TIR is no FDB destination */
	assert_null(ops->create_flow(e->root_m, mp, 1, &act));
	act.obj = e->ft;
	e->root_f = ops->create_flow(e->root_m, mp, 1, &act);
	assert_non_null(e->root_f);
	free(mp);
}

/* Send f from d and say which device's RQ got it (NULL: none). */
static struct dpx *
esw_send(struct esw *e, struct dpx *d, const uint8_t *f, uint16_t len)
{
	struct dpx *all[] = { &e->pf, &e->vf[0], &e->vf[1], &e->wire };
	struct dpx *got = NULL;
	unsigned int i;

	for (i = 0; i < MLX5DM_ARRAY_SIZE(all); i++)
		rq_post(all[i]);
	sq_send(d, f, len, 18, 1, true);
	sq_ring(d, (uint16_t)(d->pi - 1));
	assert_non_null(tx_cqe(d));
	for (i = 0; i < MLX5DM_ARRAY_SIZE(all); i++) {
		const uint8_t *c = rx_cqe(all[i]);

		if (c == NULL)
			continue;
		assert_null(got);
		assert_int_equal(mlx5dm_prm_be32(c + 44), len);
		assert_memory_equal(rxbuf(all[i], (uint16_t)(all[i]->rpi - 1)), f, len);
		got = all[i];
	}
	/* What nobody took stays posted for the next frame. */
	for (i = 0; i < MLX5DM_ARRAY_SIZE(all); i++)
		if (all[i] != got)
			all[i]->rpi--;
	return got;
}

static void
esw_frame(uint8_t *f, uint8_t dmac_last)
{
	udp_frame(f, 64, 1);
	f[5] = dmac_last;
}

/*
 * The FDB steers: from the wire by destination MAC to VF1 or a drop, a
 * miss to the manager's vport (the PF's NIC RX); from the functions by
 * source GVMI (VF0 to the wire, then to VF1) and by the reg_c_0 the switch
 * stamps (VF1 dropped), a miss (the PF) back to the PF's own NIC RX.
 */
static void
test_esw_walk(void **state)
{
	uint8_t img[64], mask[16] = { 0 }, tag[16] = { 0 }, f[64];
	struct mlx5dm_dev_port_stats st;
	uint16_t g;
	struct esw e;

	(void)state;
	esw_open(&e);
	g = e.vhca;
	/* RX root (STE 0) -> STE 8: dmac ..:21 -> vport 2 (VF1); miss -> STE 9. */
	esw_ste(img, 0x000f, NULL, NULL, 0, esw_icm(&e, 8), 1, g);
	esw_put(&e, 0, img);
	memset(mask + 4, 0xff, 6);                          /* ste_eth_l2_dst_v1 dmac */
	memcpy(tag + 4, (uint8_t[]){ 0x02, 0, 0, 0, 0, 0x21 }, 6);
	esw_ste(img, 0x0003, mask, tag, esw_icm(&e, 9), e.vport_rx[2], 1, g);
	esw_put(&e, 8, img);
	/* STE 9: dmac ..:99 -> FDB RX drop; miss -> the manager's vport (the default). */
	tag[9] = 0x99;
	esw_ste(img, 0x0003, mask, tag, e.vport_rx[0], e.drop[0], 1, g);
	esw_put(&e, 9, img);
	/* TX root (STE 1) -> STE 16: source_gvmi VF0 -> uplink; miss -> STE 17. */
	esw_ste(img, 0x000f, NULL, NULL, 0, esw_icm(&e, 16), 1, g);
	esw_put(&e, 1, img);
	memset(mask, 0, sizeof(mask));
	memset(tag, 0, sizeof(tag));
	SET(mask, 0x010, 16, 0xffff);                        /* ste_src_gvmi_qp_v1 */
	SET(tag, 0x010, 16, g + 1);
	esw_ste(img, 0x0104, mask, tag, esw_icm(&e, 17), e.uplink[1], 1, g);
	esw_put(&e, 16, img);
	/* STE 17: reg_c_0 of vport 2 (VF1) -> FDB TX drop; miss -> the manager's vport. */
	memset(mask, 0, sizeof(mask));
	memset(tag, 0, sizeof(tag));
	SET(mask, 0x000, 32, 0xffff0000);                    /* register_0_h: reg_c_0 */
	SET(tag, 0x000, 32, mlx5dm_sim_esw_reg_c0(2));
	esw_ste(img, 0x010f, mask, tag, e.vport_tx[0], e.drop[1], 1, g);
	esw_put(&e, 17, img);
	e.ft = esw_ft(&e.pf, 4, esw_icm(&e, 0), esw_icm(&e, 1), &e.ftn);
	assert_non_null(e.ft);

	/* No FDB root yet: the wire's frames reach the PF, VF0's go to the wire. */
	esw_frame(f, 0x21);
	assert_ptr_equal(esw_send(&e, &e.wire, f, 64), &e.pf);
	assert_ptr_equal(esw_send(&e, &e.vf[0], f, 64), &e.wire);
	assert_int_equal(esw_set_root(&e.pf, e.ftn), 0);
	/* From the wire: to VF1, dropped, or (miss) to the PF. */
	assert_ptr_equal(esw_send(&e, &e.wire, f, 64), &e.vf[1]);
	esw_frame(f, 0x99);
	assert_null(esw_send(&e, &e.wire, f, 64));
	assert_int_equal(mlx5dm_dev_port_stats(e.pf.t.dev, &st), 0);
	assert_int_equal(st.drops.steering_drop, 1);
	esw_frame(f, 0x42);
	assert_ptr_equal(esw_send(&e, &e.wire, f, 64), &e.pf);
	/* From the functions: VF0 to the wire, VF1 dropped, the PF's miss back to it. */
	assert_ptr_equal(esw_send(&e, &e.vf[0], f, 64), &e.wire);
	assert_null(esw_send(&e, &e.vf[1], f, 64));
	assert_int_equal(mlx5dm_dev_port_stats(e.vf[1].t.dev, &st), 0);
	assert_int_equal(st.drops.steering_drop, 1);
	assert_int_equal(st.delivered, 1);
	assert_ptr_equal(esw_send(&e, &e.pf, f, 64), &e.pf);
	/* An FDB root rule (rdma-core's level-0 rules) is an entry too: no root, then the rule. */
	esw_frame(f, 0x21);
	assert_int_equal(esw_set_root(&e.pf, 0), 0);
	assert_ptr_equal(esw_send(&e, &e.wire, f, 64), &e.pf);
	esw_root_rule(&e, true);
	assert_ptr_equal(esw_send(&e, &e.wire, f, 64), &e.vf[1]);
	assert_ptr_equal(esw_send(&e, &e.vf[0], f, 64), &e.wire);
	assert_int_equal(e.pf.t.ops->devx_obj_destroy(e.ft), EBUSY);
	esw_root_rule(&e, false);
	assert_ptr_equal(esw_send(&e, &e.wire, f, 64), &e.pf);
	assert_int_equal(esw_set_root(&e.pf, e.ftn), 0);
	/* VF to VF through the switch: VF0's frames to vport 2's TX entry reach VF1. */
	memset(mask, 0, sizeof(mask));
	memset(tag, 0, sizeof(tag));
	SET(mask, 0x010, 16, 0xffff);
	SET(tag, 0x010, 16, g + 1);
	esw_ste(img, 0x0104, mask, tag, esw_icm(&e, 17), e.vport_tx[2], 1, g);
	esw_put(&e, 16, img);
	assert_ptr_equal(esw_send(&e, &e.vf[0], f, 64), &e.vf[1]);
	/* A vport's TX entry on the RX side is no entry: a walk error, not a delivery. */
	memset(mask, 0, sizeof(mask));
	memset(tag, 0, sizeof(tag));
	memset(mask + 4, 0xff, 6);
	memcpy(tag + 4, (uint8_t[]){ 0x02, 0, 0, 0, 0, 0x21 }, 6);
	esw_ste(img, 0x0003, mask, tag, esw_icm(&e, 9), e.vport_tx[2], 1, g);
	esw_put(&e, 8, img);
	assert_null(esw_send(&e, &e.wire, f, 64));
	assert_int_equal(mlx5dm_dev_port_stats(e.pf.t.dev, &st), 0);
	assert_int_equal(st.drops.walk_error, 1);
	assert_int_equal(esw_set_root(&e.pf, 0), 0);
	assert_int_equal(e.pf.t.ops->devx_obj_destroy(e.ft), 0);
	esw_close(&e);
}

/* CPU time (utime + stime, clock ticks) of the device thread, found by name. */
static long
dev_thread_ticks(void)
{
	struct dirent *de;
	long ticks = -1;
	DIR *dir = opendir("/proc/self/task");

	assert_non_null(dir);
	while ((de = readdir(dir)) != NULL) {
		char path[128], comm[64] = "", line[1024];
		unsigned long ut, st;
		FILE *fp;
		char *p;

		snprintf(path, sizeof(path), "/proc/self/task/%s/comm", de->d_name);
		fp = fopen(path, "r");
		if (fp == NULL)
			continue;
		if (fgets(comm, sizeof(comm), fp) == NULL)
			comm[0] = '\0';
		fclose(fp);
		if (strncmp(comm, "mlx5dm-sim-dev", 14) != 0)
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/stat", de->d_name);
		fp = fopen(path, "r");
		assert_non_null(fp);
		assert_non_null(fgets(line, sizeof(line), fp));
		fclose(fp);
		p = strrchr(line, ')');
		assert_non_null(p);
		/* Fields after the name: state, ..., utime is the 12th, stime the 13th. */
		assert_int_equal(sscanf(p + 2,
					"%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu",
					&ut, &st), 2);
		ticks = (long)(ut + st);
	}
	closedir(dir);
	return ticks;
}

/* An idle device thread sleeps: over a second of idleness it uses a few ticks at most. */
static void
test_idle_sleeps(void **state)
{
	long t0, t1, hz = sysconf(_SC_CLK_TCK);
	struct tsim t;

	(void)state;
	assert_int_equal(tsim_open(&t, NULL), 0);
	usleep(100000);
	t0 = dev_thread_ticks();
	assert_true(t0 >= 0);
	sleep(1);
	t1 = dev_thread_ticks();
	/* A spinning thread would use about hz ticks in that second. */
	assert_true(t1 - t0 <= hz / 10);
	tsim_close(&t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_frame_and_cqes),
		cmocka_unit_test(test_multi_segment_and_wrap),
		cmocka_unit_test(test_inline_sizes),
		cmocka_unit_test(test_tx_errors),
		cmocka_unit_test(test_tx_record_ahead),
		cmocka_unit_test(test_rx_errors),
		cmocka_unit_test(test_rx_out_of_buffer_and_ahead),
		cmocka_unit_test(test_cq_overrun),
		cmocka_unit_test(test_two_devices),
		cmocka_unit_test(test_esw_caps),
		cmocka_unit_test(test_esw_walk),
		cmocka_unit_test(test_idle_sleeps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
