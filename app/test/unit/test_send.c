/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * lib/send against a fake device written in this file from the PRM/WQE
 * layouts (literal offsets): it decodes the CREATE_CQ/CREATE_QP mailboxes
 * and, as a device does, runs beside the caller on a thread of its own that
 * watches memory: the doorbell register in its UAR page (counted) and the
 * QP's doorbell record, then executes the posted WQEs and writes CQEs, so
 * the tests check the exact bytes the ring produces and its flow control.
 * What it finds wrong it records (fd->bad, the line) for the test thread.
 */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "mlx5dm_prm_bits.h"
#include "mlx5dm_send_priv.h"

#define FAKE_ICM_SIZE (256u * 1024u)
#define FAKE_RKEY 0x1234u
#define FAKE_QPN 0x2a5u
#define FAKE_CQN 0x77u

struct fake_umem {
	struct mlx5dv_devx_umem u;
	uint8_t *addr;
	size_t size;
};

struct fake_dev {
	struct ibv_context ctx;
	struct ibv_pd pd;
	struct mlx5dv_devx_uar uar;
	struct fake_umem umems[8];
	unsigned int n_umems;
	struct ibv_mr mr;
	uint8_t *mr_addr;
	size_t mr_len;
	int objs;
	/* Decoded at create time. */
	uint32_t cq_log, cq_umem, cq_dbr_umem, qp_log_sq, qp_umem, qp_dbr_umem, qp_pd, qp_cqn;
	uint64_t cq_dbr_off, qp_dbr_off;
	uint32_t qp_state_steps;
	uint32_t remote_qpn;
	uint8_t init2rtr[272];
	/* Execution state. */
	uint32_t sq_ci;   /* WQEBBs executed */
	uint32_t cq_pi;
	uint8_t icm[FAKE_ICM_SIZE];
	unsigned int doorbells;
	unsigned int wqes;
	unsigned int cqes;
	bool hold;        /* do not execute on doorbell (to test back-pressure) */
	unsigned int wqe_us; /* time the device takes per WQE (a slow device) */
	bool fail_next_write; /* next WRITE gets an error CQE (bad rkey) */
	uint32_t last_arg_id;
	uint8_t last_arg[64];
	uint8_t first_wqe[128];
	bool have_first;
	/* The device thread. */
	uint64_t uar_page[512];       /* the doorbell register at byte 0x800 */
	uint64_t last_db;
	pthread_t th;
	pthread_mutex_t mu;           /* held by the thread while it works */
	bool stop;
	bool running;
	int bad;                      /* first line of a failed check, 0: none */
};

/* A check made on the device thread: cmocka's asserts belong to the test thread. */
#define FAKE_CHECK(cond) do { \
		if (!(cond) && fd->bad == 0) \
			fd->bad = __LINE__; \
	} while (0)

static struct fake_dev *fd;

static uint8_t *
umem_ptr(uint32_t id, uint64_t off)
{
	FAKE_CHECK(id >= 1 && id <= fd->n_umems);
	return fd->umems[id >= 1 && id <= fd->n_umems ? id - 1 : 0].addr + off;
}

static struct mlx5dv_devx_umem *
fake_umem_reg(struct ibv_context *ctx, void *addr, size_t size, uint32_t access)
{
	struct fake_umem *u = &fd->umems[fd->n_umems++];

	(void)ctx;
	(void)access;
	u->u.umem_id = fd->n_umems;
	u->addr = addr;
	u->size = size;
	return &u->u;
}

static int
fake_umem_dereg(struct mlx5dv_devx_umem *umem)
{
	(void)umem;
	return 0;
}

static struct mlx5dv_devx_uar *
fake_alloc_uar(struct ibv_context *ctx, uint32_t flags)
{
	(void)ctx;
	(void)flags;
	fd->uar.page_id = 9;
	fd->uar.base_addr = fd->uar_page;
	fd->uar.reg_addr = (uint8_t *)fd->uar_page + 0x800;
	return &fd->uar;
}

static void
fake_free_uar(struct mlx5dv_devx_uar *uar)
{
	(void)uar;
}

static struct ibv_mr *
fake_reg_mr(struct ibv_pd *pd, void *addr, size_t len, int access)
{
	(void)pd;
	(void)access;
	fd->mr.addr = addr;
	fd->mr.length = len;
	fd->mr.lkey = 0x55aa;
	fd->mr_addr = addr;
	fd->mr_len = len;
	return &fd->mr;
}

static int
fake_dereg_mr(struct ibv_mr *mr)
{
	(void)mr;
	return 0;
}

static struct mlx5dv_devx_obj *
fake_obj_create(struct ibv_context *ctx, const void *in, size_t inlen, void *out, size_t outlen)
{
	uint32_t op = mlx5dm_prm_get(in, 0, 16);

	(void)ctx;
	memset(out, 0, outlen);
	assert_int_equal(inlen, 272);
	if (op == 0x400) {
		/* cq_context at byte 16: log_cq_size at bit 0x80+0x63, uar_page 0x80+0x68. */
		fd->cq_log = mlx5dm_prm_get(in, 0x80 + 0x63, 5);
		assert_int_equal(mlx5dm_prm_get(in, 0x80 + 0x68, 24), 9);
		assert_int_equal(mlx5dm_prm_get(in, 0x80 + 0x08, 3), 0); /* 64 B CQEs */
		assert_int_equal(mlx5dm_prm_get(in, 0x80 + 0x06, 1), 1); /* dbr umem valid */
		fd->cq_dbr_umem = mlx5dm_prm_get(in, 0x80 + 0x20, 32);
		fd->cq_dbr_off = mlx5dm_prm_get64(in, 0x80 + 0x1c0, 64);
		assert_int_equal(mlx5dm_prm_get(in, 0x2e0, 1), 1);
		fd->cq_umem = mlx5dm_prm_get(in, 0x2c0, 32);
		mlx5dm_prm_set(out, 0x48, 24, FAKE_CQN);
	} else if (op == 0x500) {
		/* qpc at byte 24; offsets below are absolute bits of create_qp_in (mlx5_ifc.h). */
		assert_int_equal(mlx5dm_prm_get(in, 0xc0 + 0x08, 8), 0);       /* RC */
		assert_int_equal(mlx5dm_prm_get(in, 0xc0 + 0x13, 2), 3);       /* migrated */
		fd->qp_pd = mlx5dm_prm_get(in, 0xc0 + 0x28, 24);
		fd->qp_log_sq = mlx5dm_prm_get(in, 0xc0 + 0x51, 4);
		assert_int_equal(mlx5dm_prm_get(in, 0x625, 3), 3);      /* zero-len RQ */
		fd->qp_cqn = mlx5dm_prm_get(in, 0x4a8, 24);
		assert_int_equal(mlx5dm_prm_get(in, 0x5a8, 24), fd->qp_cqn);
		fd->qp_dbr_umem = mlx5dm_prm_get(in, 0x7e0, 32);
		fd->qp_dbr_off = mlx5dm_prm_get64(in, 0x5c0, 64);
		assert_int_equal(mlx5dm_prm_get(in, 0x860, 1), 1);
		fd->qp_umem = mlx5dm_prm_get(in, 0x840, 32);
		mlx5dm_prm_set(out, 0x48, 24, FAKE_QPN);
	} else {
		fail_msg("unexpected create opcode 0x%x", op);
	}
	fd->objs++;
	return (struct mlx5dv_devx_obj *)(uintptr_t)(0x1000 + op);
}

static int
fake_obj_modify(struct mlx5dv_devx_obj *obj, const void *in, size_t inlen, void *out,
		size_t outlen)
{
	uint32_t op = mlx5dm_prm_get(in, 0, 16);

	(void)obj;
	(void)inlen;
	memset(out, 0, outlen);
	assert_int_equal(mlx5dm_prm_get(in, 0x48, 24), FAKE_QPN);
	/* The transitions must come in order: RST2INIT, INIT2RTR, RTR2RTS. */
	assert_int_equal(op, 0x502 + fd->qp_state_steps);
	if (op == 0x503) {
		fd->remote_qpn = mlx5dm_prm_get(in, 0xc0 + 0xa8, 24);
		memcpy(fd->init2rtr, in, sizeof(fd->init2rtr));
	}
	fd->qp_state_steps++;
	return 0;
}

/*
 * DESTROY_QP returns once the device stopped using the QP's memory, which
 * the caller frees next: the device thread forgets the queue under its lock.
 */
static int
fake_obj_destroy(struct mlx5dv_devx_obj *obj)
{
	pthread_mutex_lock(&fd->mu);
	if (obj == (struct mlx5dv_devx_obj *)(uintptr_t)(0x1000 + 0x500))
		fd->qp_dbr_umem = 0;
	fd->objs--;
	pthread_mutex_unlock(&fd->mu);
	return 0;
}

static void
fake_write_cqe(uint8_t opcode, uint16_t wqe_counter, uint8_t syndrome)
{
	uint32_t n = 1u << fd->cq_log;
	uint8_t *cqe = umem_ptr(fd->cq_umem, (size_t)(fd->cq_pi & (n - 1)) * 64);

	/*
	 * All but op_own first: zeroing it too would show the host a valid
	 * CQE of WQE 0 (opcode 0, owner 0) until the real one is stored.
	 */
	memset(cqe, 0, 63);
	cqe[55] = syndrome;                 /* mlx5_err_cqe.syndrome */
	cqe[60] = (uint8_t)(wqe_counter >> 8);
	cqe[61] = (uint8_t)wqe_counter;
	/* Counted before it is published: the test reads the count once it polled the CQE. */
	fd->cqes++;
	__atomic_store_n(&cqe[63], (uint8_t)((opcode << 4) | ((fd->cq_pi >> fd->cq_log) & 1)),
			 __ATOMIC_RELEASE);
	fd->cq_pi++;
}

/* Execute WQEs up to the producer index in the doorbell record. */
static void
fake_execute(void)
{
	uint8_t *sq = umem_ptr(fd->qp_umem, 0);
	uint32_t nbb = 1u << fd->qp_log_sq, size = nbb * 64;
	uint32_t pi = mlx5dm_prm_be32(umem_ptr(fd->qp_dbr_umem, fd->qp_dbr_off + 4)) & 0xffff;

	while ((fd->sq_ci & 0xffff) != pi) {
		uint8_t w[63 * 16];
		uint32_t off = (fd->sq_ci & (nbb - 1)) * 64, i;
		uint32_t opcode, idx, ds, qpn;
		bool ce;

		for (i = 0; i < sizeof(w); i++)
			w[i] = sq[(off + i) % size];
		opcode = w[3];
		idx = mlx5dm_prm_get(w, 8, 16);
		qpn = mlx5dm_prm_get(w, 32, 24);
		ds = w[7] & 0x3f;
		ce = (w[11] & 0x0c) == 0x08;
		FAKE_CHECK(idx == (fd->sq_ci & 0xffff));
		FAKE_CHECK(qpn == FAKE_QPN);
		FAKE_CHECK(ds != 0);
		if (ds == 0)
			return; /* a device would fail the QP: executing on would not advance */
		if (!fd->have_first) {
			memcpy(fd->first_wqe, w, sizeof(fd->first_wqe));
			fd->have_first = true;
		}
		if (opcode == 0x08 || opcode == 0x10) {
			uint64_t raddr = mlx5dm_prm_get64(w, 128, 64);
			uint32_t rkey = mlx5dm_prm_get(w, 192, 32);
			uint32_t bc = mlx5dm_prm_be32(w + 32);
			const uint8_t *src;
			uint8_t *dst;
			uint32_t len;

			if (rkey != FAKE_RKEY || fd->fail_next_write) {
				fd->fail_next_write = false;
				fake_write_cqe(13, (uint16_t)idx, 0x13);
				fd->sq_ci += (ds * 16 + 63) / 64;
				continue;
			}
			if (bc & 0x80000000u) {
				FAKE_CHECK(opcode == 0x08);
				len = bc & 0x3ff;
				FAKE_CHECK(ds == 2 + (4 + len + 15) / 16);
				src = w + 36;
			} else {
				uint64_t a = mlx5dm_prm_get64(w, 320, 64);

				len = bc;
				FAKE_CHECK(ds == 3 || (opcode == 0x08 && ds > 3));
				FAKE_CHECK(mlx5dm_prm_get(w, 288, 32) == 0x55aa);
				FAKE_CHECK(a >= (uintptr_t)fd->mr_addr &&
					   a + len <= (uintptr_t)fd->mr_addr + fd->mr_len);
				src = (const uint8_t *)(uintptr_t)a;
			}
			/* A gather list: the segments after the first land behind it. */
			for (i = 3; opcode == 0x08 && !(bc & 0x80000000u) && i < ds; i++) {
				uint32_t sl = mlx5dm_prm_be32(w + 16 * i);
				uint64_t a = mlx5dm_prm_get64(w, 128 * i + 64, 64);

				FAKE_CHECK(mlx5dm_prm_get(w, 128 * i + 32, 32) == 0x55aa);
				FAKE_CHECK(a >= (uintptr_t)fd->mr_addr &&
					   a + sl <= (uintptr_t)fd->mr_addr + fd->mr_len);
				FAKE_CHECK(raddr + len + sl <= FAKE_ICM_SIZE);
				if (raddr + len + sl > FAKE_ICM_SIZE)
					return;
				memcpy(fd->icm + raddr + len, (const void *)(uintptr_t)a, sl);
				len += sl;
			}
			if (opcode == 0x08 && !(bc & 0x80000000u) && ds > 3) {
				/* The first segment, now that the range is known good. */
				memcpy(fd->icm + raddr, src, bc);
				goto executed;
			}
			FAKE_CHECK(raddr + len <= FAKE_ICM_SIZE);
			if (raddr + len > FAKE_ICM_SIZE)
				return;
			if (opcode == 0x08) {
				memcpy(fd->icm + raddr, src, len);
			} else {
				dst = (uint8_t *)(uintptr_t)mlx5dm_prm_get64(w, 320, 64);
				memcpy(dst, fd->icm + raddr, len);
			}
		} else if (opcode == 0x2c) {
			FAKE_CHECK(w[0] == 1); /* opmod: header-modify argument update */
			FAKE_CHECK(ds == 8);
			fd->last_arg_id = mlx5dm_prm_be32(w + 12);
			for (i = 16; i < 64; i++)
				FAKE_CHECK(w[i] == 0);
			memcpy(fd->last_arg, w + 64, 64);
		} else if (opcode == 0x00) {
			FAKE_CHECK(ds == 1); /* NOP */
		} else {
			FAKE_CHECK(!"unexpected WQE opcode");
		}
executed:
		if (fd->wqe_us != 0)
			usleep(fd->wqe_us);
		if (ce)
			fake_write_cqe(opcode == 0x10 ? 0 : 0, (uint16_t)idx, 0);
		fd->sq_ci += (ds * 16 + 63) / 64;
		fd->wqes++;
	}
}

/* The device thread: a new doorbell value is counted; work comes from the record. */
static void *
fake_thread(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&fd->stop, __ATOMIC_ACQUIRE)) {
		uint64_t v;

		pthread_mutex_lock(&fd->mu);
		v = __atomic_load_n(&fd->uar_page[0x800 / 8], __ATOMIC_ACQUIRE);
		if (v != fd->last_db) {
			uint8_t b[8];

			memcpy(b, &v, 8);
			FAKE_CHECK(mlx5dm_prm_get(b, 32, 24) == FAKE_QPN);
			fd->last_db = v;
			fd->doorbells++;
		}
		if (!__atomic_load_n(&fd->hold, __ATOMIC_ACQUIRE) && fd->qp_dbr_umem != 0)
			fake_execute();
		pthread_mutex_unlock(&fd->mu);
		usleep(10);
	}
	return NULL;
}

/* Wait until the device has seen every doorbell and executed what it may. */
static void
fake_settle(void)
{
	int i;

	for (i = 0; i < 100000; i++) {
		bool done;

		pthread_mutex_lock(&fd->mu);
		done = fd->last_db == __atomic_load_n(&fd->uar_page[0x800 / 8], __ATOMIC_ACQUIRE) &&
		       (fd->hold || fd->qp_dbr_umem == 0 ||
			(fd->sq_ci & 0xffff) == (mlx5dm_prm_be32(umem_ptr(fd->qp_dbr_umem,
							fd->qp_dbr_off + 4)) & 0xffff));
		pthread_mutex_unlock(&fd->mu);
		if (done)
			return;
		usleep(10);
	}
	fail_msg("the fake device did not settle");
}

static const struct mlx5dm_dev_ops fake_ops = {
	.name = "fake",
	.reg_mr = fake_reg_mr,
	.dereg_mr = fake_dereg_mr,
	.devx_obj_create = fake_obj_create,
	.devx_obj_modify = fake_obj_modify,
	.devx_obj_destroy = fake_obj_destroy,
	.devx_umem_reg = fake_umem_reg,
	.devx_umem_dereg = fake_umem_dereg,
	.devx_alloc_uar = fake_alloc_uar,
	.devx_free_uar = fake_free_uar,
};

static struct mlx5dm_dev dev = { .ops = &fake_ops };

static const struct mlx5dm_send_path path_fl = { .fl = true };

static struct mlx5dm_send_ring *
make_ring_path(uint32_t log_sq, uint32_t signal_th, uint32_t data,
	       const struct mlx5dm_send_path *path, uint32_t stall_ms)
{
	struct mlx5dm_send_attr attr = {
		.dev = &dev, .pd = NULL, .pdn = 0x33, .log_sq_wqebb = log_sq,
		.signal_th = signal_th, .data_buf_size = data, .path = *path,
		.stall_ms = stall_ms,
	};
	struct mlx5dm_send_ring *r;

	fd = calloc(1, sizeof(*fd));
	assert_non_null(fd);
	pthread_mutex_init(&fd->mu, NULL);
	dev.ctx = &fd->ctx;
	attr.pd = &fd->pd;
	r = mlx5dm_send_ring_create(&attr);
	assert_non_null(r);
	/* The device runs from the moment its queues exist. */
	assert_int_equal(pthread_create(&fd->th, NULL, fake_thread, NULL), 0);
	fd->running = true;
	return r;
}

static struct mlx5dm_send_ring *
make_ring(uint32_t log_sq, uint32_t signal_th, uint32_t data)
{
	return make_ring_path(log_sq, signal_th, data, &path_fl, 0);
}

static void
free_ring(struct mlx5dm_send_ring *r)
{
	mlx5dm_send_ring_destroy(r);
	__atomic_store_n(&fd->stop, true, __ATOMIC_RELEASE);
	pthread_join(fd->th, NULL);
	pthread_mutex_destroy(&fd->mu);
	assert_int_equal(fd->bad, 0);
	assert_int_equal(fd->objs, 0);
	free(fd);
	fd = NULL;
}

static void
test_create_and_connect(void **state)
{
	struct mlx5dm_send_ring *r;

	(void)state;
	r = make_ring(6, 4, 0);
	assert_int_equal(fd->qp_log_sq, 6);
	assert_int_equal(fd->qp_pd, 0x33);
	assert_int_equal(fd->qp_cqn, FAKE_CQN);
	assert_int_equal(fd->qp_state_steps, 3);
	assert_int_equal(fd->remote_qpn, FAKE_QPN);
	assert_int_equal(mlx5dm_send_ring_qpn(r), FAKE_QPN);
	assert_int_equal(mlx5dm_send_ring_cqn(r), FAKE_CQN);
	assert_true(fd->cq_log >= 6);
	/* Force-loopback: primary_address_path.fl, no address. */
	assert_int_equal(mlx5dm_prm_get(fd->init2rtr, 0xc0 + 0xc0, 1), 1);
	assert_int_equal(mlx5dm_prm_get(fd->init2rtr, 0xc0 + 0xc0 + 0x110, 16), 0);
	free_ring(r);
}

/*
 * Without force-loopback the QP reaches itself through the port's RoCE
 * address: rgid and rmac of GID index 0 in primary_address_path, and the
 * UDP source port for RoCE v2 (ads in qpc at bit 0xc0 of the mailbox).
 */
static void
test_connect_through_gid(void **state)
{
	struct mlx5dm_send_path p = {
		.rgid = { 0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xfe, 0, 0, 1 },
		.rmac = { 0x02, 0, 0, 0, 0, 1 }, .roce_v2 = true,
	};
	const unsigned int ads = 0xc0 + 0xc0;
	struct mlx5dm_send_ring *r;
	uint8_t d[16] = { 1 };

	(void)state;
	r = make_ring_path(6, 4, 0, &p, 0);
	assert_int_equal(mlx5dm_prm_get(fd->init2rtr, ads, 1), 0);            /* fl */
	assert_int_equal(mlx5dm_prm_get(fd->init2rtr, ads + 0x48, 8), 0);     /* src_addr_index */
	assert_memory_equal(fd->init2rtr + (ads + 0x80) / 8, p.rgid, 16);    /* rgid_rip */
	assert_int_equal(mlx5dm_prm_get(fd->init2rtr, ads + 0x110, 16), 49999); /* udp_sport */
	assert_int_equal(mlx5dm_prm_get(fd->init2rtr, ads + 0x128, 8), 1);    /* vhca_port_num */
	assert_memory_equal(fd->init2rtr + (ads + 0x130) / 8, p.rmac, 6);    /* rmac */
	assert_int_equal(fd->remote_qpn, FAKE_QPN);
	assert_int_equal(mlx5dm_send_write(r, 0, FAKE_RKEY, d, sizeof(d)), 0);
	assert_int_equal(mlx5dm_send_drain(r), 0);
	assert_memory_equal(fd->icm, d, sizeof(d));
	free_ring(r);
	/* RoCE v1: no UDP source port. */
	p.roce_v2 = false;
	r = make_ring_path(6, 4, 0, &p, 0);
	assert_int_equal(mlx5dm_prm_get(fd->init2rtr, ads + 0x110, 16), 0);
	free_ring(r);
}

/* The first WQE of a 64-byte inline write, byte for byte. */
static void
test_inline_write_bytes(void **state)
{
	struct mlx5dm_send_ring *r;
	uint8_t ste[64], expect[112];
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(ste); i++)
		ste[i] = (uint8_t)(i * 7 + 1);
	r = make_ring(6, 4, 0);
	assert_int_equal(mlx5dm_send_write(r, 0x1c0, FAKE_RKEY, ste, 64), 0);
	fake_settle();
	assert_int_equal(fd->doorbells, 0); /* lazily rung */
	assert_int_equal(mlx5dm_send_flush(r), 0);
	fake_settle();
	assert_int_equal(fd->doorbells, 1);
	memset(expect, 0, sizeof(expect));
	/* ctrl: opmod 0, wqe index 0, opcode 0x08; qpn << 8 | ds 7; no CQE request. */
	memcpy(expect, (uint8_t[]){ 0x00, 0x00, 0x00, 0x08, 0x00, 0x02, 0xa5, 0x07 }, 8);
	/* raddr seg: remote address 0x1c0, rkey 0x1234. */
	memcpy(expect + 16, (uint8_t[]){ 0, 0, 0, 0, 0, 0, 0x01, 0xc0, 0, 0, 0x12, 0x34 }, 12);
	/* inline seg: 0x80000000 | 64, then the data. */
	memcpy(expect + 32, (uint8_t[]){ 0x80, 0x00, 0x00, 0x40 }, 4);
	memcpy(expect + 36, ste, 64);
	assert_memory_equal(fd->first_wqe, expect, sizeof(expect));
	assert_memory_equal(fd->icm + 0x1c0, ste, 64);
	free_ring(r);
}

/*
 * A repeated unit lands at every place of the range (gather WQEs of one
 * staged copy each), across SQ and staging wrap-around, and nothing
 * beyond it changes; the staged copy is a fraction of the bytes written.
 */
static void
test_write_repeat(void **state)
{
	static const uint32_t counts[] = { 2, 15, 16, 17, 255, 256, 257, 1000, 1500 };
	struct mlx5dm_send_ring *r;
	struct mlx5dm_send_stats st0, st1;
	uint8_t unit[64];
	unsigned int round, i;

	(void)state;
	r = make_ring(6, 4, 128 * 1024); /* 64 WQEBBs, staging 128 KiB */
	for (round = 0; round < 40; round++) {
		uint32_t count = counts[round % (sizeof(counts) / sizeof(counts[0]))];
		uint32_t len = round % 2 == 0 ? 64 : 16 + round;
		uint64_t addr = (uint64_t)(round * 4096) % (FAKE_ICM_SIZE / 2);

		for (i = 0; i < len; i++)
			unit[i] = (uint8_t)(round * 31 + i);
		memset(fd->icm + addr, 0xcc, (size_t)count * len + 64);
		mlx5dm_send_stats_get(r, &st0);
		assert_int_equal(mlx5dm_send_write_repeat(r, addr, FAKE_RKEY, unit, len, count), 0);
		memset(unit, 0xee, sizeof(unit)); /* copied: no longer needed */
		assert_int_equal(mlx5dm_send_drain(r), 0);
		mlx5dm_send_stats_get(r, &st1);
		for (i = 0; i < count * len; i++)
			if (fd->icm[addr + i] != (uint8_t)(round * 31 + i % len))
				fail_msg("round %u: byte %u of %u x %u wrong", round, i, count,
					 len);
		for (i = 0; i < 64; i++)
			assert_int_equal(fd->icm[addr + (size_t)count * len + i], 0xcc);
		assert_int_equal(st1.write_bytes - st0.write_bytes, (uint64_t)count * len);
		/* One WQE per MLX5DM_SEND_REPEAT_UNITS * _SEGS units, and the fence READ. */
		assert_int_equal(st1.wqes - st0.wqes,
				 (count + MLX5DM_SEND_REPEAT_UNITS * MLX5DM_SEND_REPEAT_SEGS - 1) /
				 (MLX5DM_SEND_REPEAT_UNITS * MLX5DM_SEND_REPEAT_SEGS) + 1);
	}
	assert_int_equal(fd->bad, 0);
	free_ring(r);
}

/* Writes of every size land intact, across SQ and staging-buffer wrap-around. */
static void
test_writes_wrap_and_land(void **state)
{
	static uint8_t big[MLX5DM_SEND_MAX_WRITE];
	struct mlx5dm_send_ring *r;
	struct mlx5dm_send_stats st;
	unsigned int i, round;

	(void)state;
	r = make_ring(6, 4, 128 * 1024); /* 64 WQEBBs, staging 128 KiB */
	srand(7);
	for (round = 0; round < 600; round++) {
		uint32_t len = round % 5 == 0 ? 1 + (uint32_t)rand() % 8192 :
			       1 + (uint32_t)rand() % 64;
		uint64_t addr = ((uint64_t)rand() % (FAKE_ICM_SIZE - 8192)) & ~7ull;

		if (round % 97 == 0)
			len = MLX5DM_SEND_MAX_WRITE;
		if (addr + len > FAKE_ICM_SIZE)
			addr = FAKE_ICM_SIZE - len;
		for (i = 0; i < len; i++)
			big[i] = (uint8_t)(round + i * 13);
		assert_int_equal(mlx5dm_send_write(r, addr, FAKE_RKEY, big, len), 0);
		/* The ring copied the data: scribbling on it must not matter. */
		memset(big, 0xee, len);
		assert_int_equal(mlx5dm_send_drain(r), 0);
		for (i = 0; i < len; i++)
			if (fd->icm[addr + i] != (uint8_t)(round + i * 13))
				fail_msg("round %u: byte %u of %u at 0x%lx wrong", round, i, len,
					 (unsigned long)addr);
	}
	mlx5dm_send_stats_get(r, &st);
	assert_int_equal(st.writes, 600);
	assert_true(st.inline_writes > 0 && st.inline_writes < 600);
	assert_int_equal(st.reads, 600);
	assert_true(st.err_syndrome == 0);
	free_ring(r);
}

/* Without drains the ring recycles the SQ by CQEs requested every signal_th WQEs. */
static void
test_backpressure_and_signalling(void **state)
{
	struct mlx5dm_send_ring *r;
	struct mlx5dm_send_stats st;
	uint8_t d[64];
	unsigned int i;

	(void)state;
	r = make_ring(6, 4, 0);
	for (i = 0; i < 1000; i++) {
		memset(d, (int)i, sizeof(d));
		assert_int_equal(mlx5dm_send_write(r, (i % 100) * 64, FAKE_RKEY, d, 64), 0);
	}
	assert_int_equal(mlx5dm_send_drain(r), 0);
	mlx5dm_send_stats_get(r, &st);
	/* 64 WQEBBs hold 32 two-WQEBB writes: the ring must have waited for room. */
	assert_true(st.full_waits > 0);
	/* Inline writes stage nothing: every wait was for the SQ. */
	assert_int_equal(st.sq_full_waits, st.full_waits);
	assert_int_equal(mlx5dm_send_sq_full_waits(r), st.sq_full_waits);
	/* One CQE request per 4 WQEs plus the drain's READ. */
	assert_int_equal(fd->cqes, 1000 / 4 + 1);
	assert_int_equal(st.cqes, fd->cqes);
	for (i = 900; i < 1000; i++)
		assert_int_equal(fd->icm[(i % 100) * 64], (uint8_t)i);
	free_ring(r);
}

static void
test_arg_update_wqe(void **state)
{
	struct mlx5dm_send_ring *r;
	uint8_t arg[64];
	unsigned int i;

	(void)state;
	for (i = 0; i < 64; i++)
		arg[i] = (uint8_t)(0xa0 + i);
	r = make_ring(6, 4, 0);
	assert_int_equal(mlx5dm_send_arg_update(r, 0x10203, arg), 0);
	/* Already rung before the drain: the drain must still complete. */
	assert_int_equal(mlx5dm_send_flush(r), 0);
	assert_int_equal(mlx5dm_send_drain(r), 0);
	assert_int_equal(fd->cqes, 1);
	assert_int_equal(fd->last_arg_id, 0x10203);
	assert_memory_equal(fd->last_arg, arg, 64);
	/* ctrl: opmod 1, index 0, opcode 0x2c; ds 8; no CQE (the drain's NOP asks for one). */
	assert_memory_equal(fd->first_wqe, ((uint8_t[]){ 0x01, 0x00, 0x00, 0x2c,
						       0x00, 0x02, 0xa5, 0x08 }), 8);
	free_ring(r);
}

static void
test_error_cqe_makes_ring_fail(void **state)
{
	struct mlx5dm_send_ring *r;
	struct mlx5dm_send_stats st;
	uint8_t d[16] = { 1 };

	(void)state;
	r = make_ring(6, 4, 0);
	assert_int_equal(mlx5dm_send_write(r, 0, 0x9999, d, sizeof(d)), 0);
	assert_int_equal(mlx5dm_send_drain(r), -EIO);
	mlx5dm_send_stats_get(r, &st);
	assert_int_equal(st.err_syndrome, 0x13);
	assert_int_equal(mlx5dm_send_write(r, 0, FAKE_RKEY, d, sizeof(d)), -EIO);
	free_ring(r);
}

/*
 * Where a ring failed: the WQE before the failed one executed, the failed
 * one and those after it did not. The reap after the doorbell learns of
 * the error CQE, and from then on nothing is posted.
 */
static void
test_error_position(void **state)
{
	struct mlx5dm_send_ring *r;
	uint8_t d[16] = { 1 };
	uint32_t a, b;
	unsigned int doorbells;

	(void)state;
	r = make_ring(6, 4, 0);
	assert_int_equal(mlx5dm_send_write(r, 0, FAKE_RKEY, d, sizeof(d)), 0);
	a = mlx5dm_send_pos(r);
	assert_int_equal(mlx5dm_send_write(r, 64, 0x9999, d, sizeof(d)), 0);
	b = mlx5dm_send_pos(r);
	assert_int_equal(mlx5dm_send_write(r, 128, FAKE_RKEY, d, sizeof(d)), 0);
	assert_int_equal(mlx5dm_send_error(r), 0);
	assert_false(mlx5dm_send_lost(r, b));
	/* The device reports the error after the doorbell; the next reap learns it. */
	mlx5dm_send_flush(r);
	fake_settle();
	assert_int_equal(mlx5dm_send_flush(r) == 0 ? mlx5dm_send_drain(r) : -EIO, -EIO);
	assert_int_equal(mlx5dm_send_error(r), -EIO);
	assert_false(mlx5dm_send_lost(r, a));
	assert_true(mlx5dm_send_lost(r, b));
	fake_settle(); /* the drain's doorbell may still be on its way */
	doorbells = fd->doorbells;
	assert_int_equal(mlx5dm_send_write(r, 0, FAKE_RKEY, d, sizeof(d)), -EIO);
	assert_int_equal(mlx5dm_send_arg_update(r, 1, fd->icm), -EIO);
	assert_int_equal(mlx5dm_send_flush(r), -EIO);
	assert_int_equal(mlx5dm_send_drain(r), -EIO);
	assert_int_equal(fd->doorbells, doorbells);
	free_ring(r);
}

/*
 * A write that waits for room behind a failing one: its doorbell starts
 * the failing write, whose error CQE (and the completions behind it) free
 * the room it waited for. It is refused (-EIO) and posts nothing: a WQE
 * built behind the failed one would never be rung.
 */
static void
test_wait_for_room_meets_error(void **state)
{
	struct mlx5dm_send_stats st, st2;
	struct mlx5dm_send_ring *r;
	uint8_t d[64];

	(void)state;
	r = make_ring(6, 4, 0);
	memset(d, 0x3c, sizeof(d));
	assert_int_equal(mlx5dm_send_write(r, 0, 0x9999, d, sizeof(d)), 0);
	for (;;) {
		mlx5dm_send_stats_get(r, &st);
		/* Two WQEBBs each; the SQ keeps two for a kept write of a ring in error. */
		if (st.outstanding + 4 > st.size)
			break;
		assert_int_equal(mlx5dm_send_write(r, 64, FAKE_RKEY, d, sizeof(d)), 0);
	}
	assert_int_equal(st.doorbells, 0);
	assert_int_equal(st.err, 0);
	assert_int_equal(mlx5dm_send_write(r, 128, FAKE_RKEY, d, sizeof(d)), -EIO);
	mlx5dm_send_stats_get(r, &st2);
	assert_int_equal(st2.err, -EIO);
	assert_int_equal(st2.wqes, st.wqes);
	assert_int_equal(st2.full_waits, st.full_waits + 1);
	assert_int_equal(mlx5dm_send_arg_update(r, 1, d), -EIO);
	assert_int_equal(mlx5dm_send_write_repeat(r, 0, FAKE_RKEY, d, 8, 64), -EIO);
	mlx5dm_send_stats_get(r, &st2);
	assert_int_equal(st2.wqes, st.wqes);
	fake_settle();
	assert_int_equal(fd->icm[128], 0);
	free_ring(r);
}

/*
 * Kept writes on a ring in error, its SQ full: with the device stopped, the
 * posts fill what they may, and the next write waits for room until the
 * stall limit puts the ring in error. Kept writes are then built where
 * the next WQEs go, never rung: the ring keeps room for one, and one more
 * per hold taken before (mlx5dm_send_kept_hold()); past that they are
 * dropped. Every one built is among the lost WQEs a recovery posts again.
 */
static unsigned int
kept_on_full_error(unsigned int holds, unsigned int posts)
{
	struct mlx5dm_send_stats st, st2;
	struct mlx5dm_send_ring *r;
	unsigned int i, kept;
	uint8_t d[64];

	r = make_ring_path(6, 4, 0, &path_fl, 200);
	for (i = 0; i < holds; i++)
		assert_int_equal(mlx5dm_send_kept_hold(r), 0);
	__atomic_store_n(&fd->hold, true, __ATOMIC_RELEASE);
	memset(d, 0x6b, sizeof(d));
	for (;;) {
		mlx5dm_send_stats_get(r, &st);
		if (st.outstanding + 2 > st.size - 2 * (1 + holds))
			break;
		assert_int_equal(mlx5dm_send_write(r, 0, FAKE_RKEY, d, sizeof(d)), 0);
	}
	assert_int_equal(mlx5dm_send_write(r, 0, FAKE_RKEY, d, sizeof(d)), -ETIMEDOUT);
	assert_int_equal(mlx5dm_send_error(r), -EIO);
	assert_int_equal(mlx5dm_send_kept_hold(r), -EIO);
	for (i = 0; i < posts; i++)
		assert_true(mlx5dm_send_write_kept(r, 64 * (i + 1), FAKE_RKEY, d, sizeof(d)) < 0);
	for (i = 0; i < holds; i++)
		mlx5dm_send_kept_release(r);
	mlx5dm_send_stats_get(r, &st2);
	kept = mlx5dm_send_lost_kept(r, NULL, 64);
	assert_int_equal(st2.wqes - st.wqes, kept);
	assert_true(mlx5dm_send_kept_due(r));
	free_ring(r);
	return kept;
}

static void
test_kept_holds(void **state)
{
	(void)state;
	assert_int_equal(kept_on_full_error(0, 3), 1);
	assert_int_equal(kept_on_full_error(2, 3), 3);
	assert_int_equal(kept_on_full_error(2, 4), 3);
}

static uint64_t
clock_ms(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static uint64_t
now_ms(void)
{
	return clock_ms(CLOCK_MONOTONIC);
}

/*
 * The stall limit bounds the time without a completion, not the whole
 * wait: a device that takes at least 3 ms per WQE (a CQE every 4) drains
 * a backlog longer than the limit; a drain on one that executes nothing
 * gives up after it, with the ring usable: once the device resumes, the
 * next drain finds the write done, and later writes work. The first
 * limit is a second: a loaded host may leave the device thread
 * unscheduled for a few hundred milliseconds between completions. The
 * stuck drain's limit passes on the wall and on this thread's CPU clock:
 * it polls (its CPU time) for the ring's limit, not the default one,
 * however long a loaded host makes it wait on the wall.
 */
static void
test_slow_device_drains_stuck_one_fails(void **state)
{
	struct mlx5dm_send_stats st;
	struct mlx5dm_send_ring *r;
	uint8_t d[64];
	uint64_t t0, c0, waited, polled;
	unsigned int i;

	(void)state;
	/* 1024 WQEBBs hold the whole backlog: the drain's doorbell starts all of it. */
	r = make_ring_path(10, 4, 0, &path_fl, 1000);
	fd->wqe_us = 3000;
	t0 = now_ms();
	for (i = 0; i < 400; i++) {
		memset(d, (int)i, sizeof(d));
		assert_int_equal(mlx5dm_send_write(r, i * 64, FAKE_RKEY, d, 64), 0);
	}
	assert_int_equal(fd->doorbells, 0);
	assert_int_equal(mlx5dm_send_drain(r), 0);
	assert_true(now_ms() - t0 > 1000);
	for (i = 0; i < 400; i++)
		assert_int_equal(fd->icm[i * 64 + 63], (uint8_t)i);
	free_ring(r);

	r = make_ring_path(6, 4, 0, &path_fl, 300);
	__atomic_store_n(&fd->hold, true, __ATOMIC_RELEASE);
	memset(d, 0x77, sizeof(d));
	assert_int_equal(mlx5dm_send_write(r, 0, FAKE_RKEY, d, 64), 0);
	t0 = now_ms();
	c0 = clock_ms(CLOCK_THREAD_CPUTIME_ID);
	assert_int_equal(mlx5dm_send_drain(r), -ETIMEDOUT);
	waited = now_ms() - t0;
	polled = clock_ms(CLOCK_THREAD_CPUTIME_ID) - c0;
	assert_true(waited >= 300 && polled >= 300 && polled < 5000);
	assert_int_equal(mlx5dm_send_error(r), 0);
	assert_int_equal(fd->wqes, 0);
	mlx5dm_send_stats_get(r, &st);
	assert_int_equal(st.drain_timeouts, 1);
	__atomic_store_n(&fd->hold, false, __ATOMIC_RELEASE);
	assert_int_equal(mlx5dm_send_drain(r), 0);
	assert_int_equal(fd->icm[63], 0x77);
	memset(d, 0x5a, sizeof(d));
	assert_int_equal(mlx5dm_send_write(r, 64, FAKE_RKEY, d, 64), 0);
	assert_int_equal(mlx5dm_send_drain(r), 0);
	assert_int_equal(fd->icm[127], 0x5a);
	assert_int_equal(mlx5dm_send_error(r), 0);
	free_ring(r);
}

static void
test_bad_arguments(void **state)
{
	struct mlx5dm_send_ring *r;
	struct mlx5dm_send_attr attr = { 0 };
	uint8_t d[8] = { 0 };

	(void)state;
	errno = 0;
	assert_null(mlx5dm_send_ring_create(&attr));
	assert_int_equal(errno, EINVAL);
	r = make_ring(6, 4, 0);
	assert_int_equal(mlx5dm_send_write(r, 0, FAKE_RKEY, d, 0), -EINVAL);
	assert_int_equal(mlx5dm_send_write(r, 0, FAKE_RKEY, d, MLX5DM_SEND_MAX_WRITE + 1),
			 -EINVAL);
	assert_int_equal(mlx5dm_send_arg_update(r, 1, NULL), -EINVAL);
	assert_int_equal(mlx5dm_send_write_repeat(r, 0, FAKE_RKEY, d, 8, 0), -EINVAL);
	assert_int_equal(mlx5dm_send_write_repeat(r, 0, FAKE_RKEY, NULL, 8, 2), -EINVAL);
	assert_int_equal(mlx5dm_send_write_repeat(r, 0, FAKE_RKEY, d, 0, 2), -EINVAL);
	assert_int_equal(mlx5dm_send_write_repeat(r, 0, FAKE_RKEY, d,
						  MLX5DM_SEND_MAX_INLINE + 1, 2), -EINVAL);
	free_ring(r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_create_and_connect),
		cmocka_unit_test(test_connect_through_gid),
		cmocka_unit_test(test_inline_write_bytes),
		cmocka_unit_test(test_writes_wrap_and_land),
		cmocka_unit_test(test_write_repeat),
		cmocka_unit_test(test_backpressure_and_signalling),
		cmocka_unit_test(test_arg_update_wqe),
		cmocka_unit_test(test_error_cqe_makes_ring_fail),
		cmocka_unit_test(test_error_position),
		cmocka_unit_test(test_wait_for_room_meets_error),
		cmocka_unit_test(test_kept_holds),
		cmocka_unit_test(test_slow_device_drains_stuck_one_fails),
		cmocka_unit_test(test_bad_arguments),
	};

	return cmocka_run_group_tests_name("send", tests, NULL, NULL);
}
