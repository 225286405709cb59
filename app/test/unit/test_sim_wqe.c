/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The model's send queues: WQEs built byte by byte (ctrl 16 B, raddr 16 B,
 * inline 0x80000000|len or 16-byte data pointer segments; FLOW_TBL_ACCESS
 * argument update), executed on the doorbell against ICM and host MRs,
 * with 64-byte CQEs checked byte by byte: RDMA WRITE/READ round trips,
 * SQ and CQ wrap-around, error CQEs and the QP's error state.
 */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <unistd.h>
#include <cmocka.h>

#include "mlx5dm_sim_core.h"
#include "test_sim_util.h"

struct tctx {
	struct tsim t;
	struct tring r;
	struct tdm ste;
	struct ibv_mr *hmr;
	uint8_t host[4096];
};

static int
setup_ring_cfg(struct tctx *c, unsigned int rre_rwe, const struct mlx5dm_sim_config *cfg)
{
	if (tsim_open(&c->t, cfg) != 0 || tring_create(&c->t, &c->r, 3, 2, rre_rwe) != 0 ||
	    tdm_alloc(&c->t, &c->ste, MLX5DV_DM_TYPE_STEERING_SW_ICM, 4096) != 0)
		return -1;
	c->hmr = c->t.ops->reg_mr(c->t.pd, c->host, sizeof(c->host), IBV_ACCESS_LOCAL_WRITE |
				  IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ);
	return c->hmr == NULL ? -1 : 0;
}

static int
setup_ring(struct tctx *c, unsigned int rre_rwe)
{
	return setup_ring_cfg(c, rre_rwe, NULL);
}

static int
setup(void **state)
{
	struct tctx *c = calloc(1, sizeof(*c));

	*state = c;
	return c == NULL ? -1 : setup_ring(c, 3);
}

/* The same device with default configuration (its device thread runs the queues). */
static int
setup_async(void **state)
{
	struct tctx *c = calloc(1, sizeof(*c));
	struct mlx5dm_sim_config cfg;

	*state = c;
	if (c == NULL)
		return -1;
	mlx5dm_sim_config_default(&cfg);
	return setup_ring_cfg(c, 3, &cfg);
}

static int
teardown(void **state)
{
	struct tctx *c = *state;

	c->t.ops->dereg_mr(c->hmr);
	tdm_free(&c->t, &c->ste);
	tring_destroy(&c->r);
	tsim_close(&c->t);
	free(c);
	return 0;
}

/* RDMA WRITE of len bytes inline to remote (va, rkey); returns the WQE index. */
static uint16_t
post_write_inline(struct tring *r, uint64_t va, uint32_t rkey, const uint8_t *data,
		  uint32_t len, bool signal)
{
	uint8_t w[11 * 16] = { 0 };
	uint8_t ds = (uint8_t)((32 + 4 + len + 15) / 16);
	uint16_t idx = r->pi;

	tring_ctrl(r, w, 0, 0x08, ds, signal, 0);
	SET(w + 16, 0x00, 64, va);              /* raddr */
	SET(w + 16, 0x40, 32, rkey);            /* rkey */
	SET(w + 32, 0x00, 32, 0x80000000u | len);
	memcpy(w + 36, data, len);
	tring_put(r, w, ds * 16u);
	tring_ring(r, w);
	return idx;
}

/* RDMA WRITE or READ with n pointer segments (len, lkey, addr). */
static uint16_t
post_ptr(struct tring *r, uint8_t opcode, uint64_t va, uint32_t rkey, unsigned int n,
	 const uint32_t *len, uint32_t lkey, const uint64_t *addr, bool signal)
{
	uint8_t w[16 + 16 + 16 * 4] = { 0 };
	uint8_t ds = (uint8_t)(2 + n);
	uint16_t idx = r->pi;
	unsigned int i;

	tring_ctrl(r, w, 0, opcode, ds, signal, 0);
	SET(w + 16, 0x00, 64, va);
	SET(w + 16, 0x40, 32, rkey);
	for (i = 0; i < n; i++) {
		SET(w + 32 + 16 * i, 0x00, 32, len[i]);
		SET(w + 32 + 16 * i, 0x20, 32, lkey);
		SET(w + 32 + 16 * i, 0x40, 64, addr[i]);
	}
	tring_put(r, w, ds * 16u);
	tring_ring(r, w);
	return idx;
}

/* Check a good requester CQE byte by byte. */
static void
check_cqe(const struct tring *r, const uint8_t *cqe, uint8_t opcode, uint16_t idx,
	  uint32_t byte_cnt, unsigned int owner)
{
	assert_non_null(cqe);
	assert_int_equal(cqe[63] >> 4, 0x0);            /* MLX5_CQE_REQ */
	assert_int_equal(cqe[63] & 1, owner);
	assert_int_equal(cqe[56], opcode);              /* s_wqe_opcode */
	assert_int_equal(GET(cqe, 0x1c8, 24), r->qpn);  /* qpn */
	assert_int_equal(GET(cqe, 0x1e0, 16), idx);     /* wqe_counter */
	assert_int_equal(GET(cqe, 0x160, 32), byte_cnt);
}

/*
 * The next CQE (its owner bit must be the current pass), checked. A device
 * with a send-queue thread completes asynchronously: wait for it (up to 5 s).
 */
static void
poll_good(struct tring *r, uint8_t opcode, uint16_t idx, uint32_t byte_cnt)
{
	unsigned int owner = (r->ci >> r->cq_log) & 1;
	const uint8_t *cqe;
	unsigned int tries;

	for (tries = 0; (cqe = tring_poll(r)) == NULL && tries < 5000; tries++)
		usleep(1000);
	check_cqe(r, cqe, opcode, idx, byte_cnt, owner);
}

static void
check_err_cqe(const struct tring *r, const uint8_t *cqe, uint8_t opcode, uint16_t idx,
	      uint8_t synd, uint8_t vendor)
{
	assert_non_null(cqe);
	assert_int_equal(cqe[63] >> 4, 13);             /* MLX5_CQE_REQ_ERR */
	assert_int_equal(cqe[55], synd);
	assert_int_equal(cqe[54], vendor);
	assert_int_equal(cqe[56], opcode);
	assert_int_equal(GET(cqe, 0x1c8, 24), r->qpn);
	assert_int_equal(GET(cqe, 0x1e0, 16), idx);
}

static uint32_t
qp_state(struct tring *r)
{
	uint8_t in[16] = { 0 }, out[272];

	SET(in, 0x00, 16, 0x50b);
	SET(in, 0x48, 24, r->qpn);
	assert_int_equal(r->t->ops->devx_obj_query(r->qp, in, 16, out, sizeof(out)), 0);
	return (uint32_t)GET(out + 24, 0x00, 4);
}

static void
test_write_read_roundtrip(void **state)
{
	struct tctx *c = *state;
	struct tring *r = &c->r;
	uint8_t line[64], back[64];
	uint32_t lens[2] = { 40, 24 };
	uint64_t addr[2];
	unsigned int i, round;
	uint16_t idx;

	/* SQ of 4 WQEBBs: inline (2 BB) + read (1) + inline (2, wraps) + read (1) ... */
	for (round = 0; round < 6; round++) {
		for (i = 0; i < 64; i++)
			line[i] = (uint8_t)(round * 31 + i);
		idx = post_write_inline(r, 64 * round, c->ste.mr->rkey, line, 64, true);
		poll_good(r, 0x08, idx, 0);
		memset(back, 0, sizeof(back));
		assert_int_equal(mlx5dm_sim_icm_read(c->t.sim, c->ste.icm + 64 * round, back,
						     64), 0);
		assert_memory_equal(back, line, 64);
		/* Read it back into host memory through the real READ path. */
		addr[0] = (uintptr_t)c->host + 128;
		idx = post_ptr(r, 0x10, 64 * round, c->ste.mr->rkey, 1, &lens[0], c->hmr->lkey,
			       addr, true);
		poll_good(r, 0x10, idx, 40);
		assert_memory_equal(c->host + 128, line, 40);
	}
	/* The SQ wrapped (pi > 4 WQEBBs several times) and so did the CQ (12 CQEs > 8). */
	assert_true(r->pi > 8);
	assert_true(r->ci > 8);
	/* Gather from two host pointer segments into one ICM line. */
	for (i = 0; i < 64; i++)
		c->host[1024 + i] = (uint8_t)(0xc0 ^ i);
	addr[0] = (uintptr_t)c->host + 1024;
	addr[1] = (uintptr_t)c->host + 1024 + 40;
	idx = post_ptr(r, 0x08, 512, c->ste.mr->rkey, 2, lens, c->hmr->lkey, addr, true);
	poll_good(r, 0x08, idx, 0);
	assert_int_equal(mlx5dm_sim_icm_read(c->t.sim, c->ste.icm + 512, back, 64), 0);
	assert_memory_equal(back, c->host + 1024, 64);
	/* Scatter a READ of 64 bytes into two host pieces; byte_cnt reports 64. */
	addr[0] = (uintptr_t)c->host + 2048;
	addr[1] = (uintptr_t)c->host + 3072;
	idx = post_ptr(r, 0x10, 512, c->ste.mr->rkey, 2, lens, c->hmr->lkey, addr, true);
	poll_good(r, 0x10, idx, 64);
	assert_memory_equal(c->host + 2048, back, 40);
	assert_memory_equal(c->host + 3072, back + 40, 24);
	/* Unsignalled: executed (by the time a walk could look), no CQE. */
	post_write_inline(r, 0, c->ste.mr->rkey, line, 16, false);
	mlx5dm_sim_sq_catch_up(c->t.sim);
	assert_null(tring_poll(r));
	assert_int_equal(mlx5dm_sim_icm_read(c->t.sim, c->ste.icm, back, 16), 0);
	assert_memory_equal(back, line, 16);
	assert_int_equal(qp_state(r), 3);               /* still RTS */
}

static void
test_argument_update(void **state)
{
	struct tctx *c = *state;
	struct tring *r = &c->r;
	uint8_t in[36] = { 0 }, out[16], w[128], back[64];
	struct mlx5dv_devx_obj *arg;
	uint32_t id;
	uint16_t idx;
	unsigned int i;

	SET(in, 0x00, 16, 0xa00);
	SET(in, 0x30, 16, 0x23);
	SET(in, 0x63, 5, 3);
	SET(in, 0x80 + 0x88, 24, c->t.pdn);
	arg = c->t.ops->devx_obj_create(c->t.ctx, in, sizeof(in), out, sizeof(out));
	assert_non_null(arg);
	id = (uint32_t)GET(out, 0x40, 32);
	/* ctrl (imm = argument id + 5) + 48-byte flow update ctrl + 64 bytes of data. */
	memset(w, 0, sizeof(w));
	idx = r->pi;
	tring_ctrl(r, w, 1, 0x2c, 8, true, id + 5);
	for (i = 0; i < 64; i++)
		w[64 + i] = (uint8_t)(0x11 * (i & 7) + i);
	tring_put(r, w, sizeof(w));
	tring_ring(r, w);
	poll_good(r, 0x2c, idx, 0);
	assert_int_equal(mlx5dm_sim_arg_read(c->t.sim, id + 5, back, 64), 0);
	assert_memory_equal(back, w + 64, 64);
	/* An argument id outside any object: error CQE, QP to error. */
	memset(w, 0, 64);
	idx = r->pi;
	tring_ctrl(r, w, 1, 0x2c, 8, false, id + 8);
	tring_put(r, w, sizeof(w));
	tring_ring(r, w);
	check_err_cqe(r, tring_poll(r), 0x2c, idx, 0x02, 11);
	assert_int_equal(qp_state(r), 6);
	assert_int_equal(c->t.ops->devx_obj_destroy(arg), 0);
}

static void
test_errors(void **state)
{
	struct tctx *c = *state;
	struct tring *r = &c->r;
	uint8_t line[64], back[64];
	uint32_t len = 64;
	uint64_t addr = (uintptr_t)c->host;
	uint16_t idx;

	memset(line, 0x3c, sizeof(line));
	/* Bad rkey: error CQE REMOTE_ACCESS (0x13), though the WQE was unsignalled. */
	idx = post_write_inline(r, 0, 0x00abcdef, line, 64, false);
	check_err_cqe(r, tring_poll(r), 0x08, idx, 0x13, 1);
	assert_int_equal(qp_state(r), 6);
	/* In error, everything after is flushed (0x05) and nothing reaches ICM. */
	idx = post_write_inline(r, 0, c->ste.mr->rkey, line, 64, false);
	check_err_cqe(r, tring_poll(r), 0x08, idx, 0x05, 0);
	assert_int_equal(mlx5dm_sim_icm_read(c->t.sim, c->ste.icm, back, 64), 0);
	assert_true(back[0] != 0x3c);
	tring_destroy(r);
	/* Out of the MR's range. */
	assert_int_equal(tring_create(&c->t, r, 3, 2, 3), 0);
	idx = post_write_inline(r, 4096 - 32, c->ste.mr->rkey, line, 64, true);
	check_err_cqe(r, tring_poll(r), 0x08, idx, 0x13, 2);
	tring_destroy(r);
	/* A READ scattering through a bad lkey: LOCAL_PROT (0x04). */
	assert_int_equal(tring_create(&c->t, r, 3, 2, 3), 0);
	idx = post_ptr(r, 0x10, 0, c->ste.mr->rkey, 1, &len, c->hmr->lkey ^ 0x100, &addr, true);
	check_err_cqe(r, tring_poll(r), 0x10, idx, 0x04, 5);
	tring_destroy(r);
	/* The responder (itself) was brought up with rre only: WRITE is refused. */
	assert_int_equal(tring_create(&c->t, r, 3, 2, 1), 0);
	idx = post_write_inline(r, 0, c->ste.mr->rkey, line, 64, true);
	check_err_cqe(r, tring_poll(r), 0x08, idx, 0x13, 3);
	tring_destroy(r);
	/* A WQE whose ctrl names another QP; an opcode that is not modelled. */
	assert_int_equal(tring_create(&c->t, r, 3, 2, 3), 0);
	memset(back, 0, sizeof(back));
	idx = r->pi;
	tring_ctrl(r, back, 0, 0x0a, 1, true, 0);       /* SEND */
	tring_put(r, back, 16);
	tring_ring(r, back);
	check_err_cqe(r, tring_poll(r), 0x0a, idx, 0x02, 9);
	tring_destroy(r);
	/*
	 * An injected failure: the second WQE from now fails as an unknown key
	 * does (0x13, reason 14) though it is valid; the first executes, the
	 * third is flushed.
	 */
	assert_int_equal(tring_create(&c->t, r, 3, 2, 3), 0);
	mlx5dm_sim_sq_fail_at(c->t.sim, 2);
	post_write_inline(r, 0, c->ste.mr->rkey, line, 64, false);
	memset(line, 0x4d, sizeof(line));
	idx = post_write_inline(r, 64, c->ste.mr->rkey, line, 64, false);
	check_err_cqe(r, tring_poll(r), 0x08, idx, 0x13, 14);
	idx = post_write_inline(r, 128, c->ste.mr->rkey, line, 64, false);
	check_err_cqe(r, tring_poll(r), 0x08, idx, 0x05, 0);
	assert_int_equal(mlx5dm_sim_icm_read(c->t.sim, c->ste.icm, back, 64), 0);
	assert_int_equal(back[0], 0x3c);
	assert_int_equal(mlx5dm_sim_icm_read(c->t.sim, c->ste.icm + 64, back, 64), 0);
	assert_true(back[0] != 0x4d);
	tring_destroy(r);
	/* Leave a working ring for teardown. */
	assert_int_equal(tring_create(&c->t, r, 3, 2, 3), 0);
}

/* An EQ number the device did not give out: the model's completion EQs only. */
static int
eqn_zero(struct ibv_context *context, uint32_t vector, uint32_t *eqn)
{
	(void)context;
	(void)vector;
	*eqn = 0;
	return 0;
}

/*
 * The model's completion EQs, as mlx5dv_devx_query_eqn() reports them:
 * one per completion vector; CREATE_CQ accepts those and no other.
 */
static void
test_cq_eqn(void **state)
{
	struct tctx *c = *state;
	struct mlx5dm_dev_ops ops = *c->t.ops;
	const struct mlx5dm_dev_ops *real = c->t.ops;
	struct tring r2;
	uint32_t v, eqn, seen = 0;

	assert_int_equal(c->t.ctx->num_comp_vectors, 4);
	for (v = 0; v < 4; v++) {
		assert_int_equal(real->devx_query_eqn(c->t.ctx, v, &eqn), 0);
		assert_true(eqn < 256 && !(seen & (1u << (eqn & 31))));
		seen |= 1u << (eqn & 31);
	}
	assert_int_equal(real->devx_query_eqn(c->t.ctx, 4, &eqn), EINVAL);
	/* tring_create() asks for vector 0's EQ; with EQ 0 instead the CQ is refused. */
	ops.devx_query_eqn = eqn_zero;
	c->t.ops = &ops;
	errno = 0;
	assert_true(tring_create(&c->t, &r2, 3, 2, 3) < 0);
	assert_int_equal(errno, EREMOTEIO);
	assert_null(r2.cq);
	c->t.ops = real;
	tring_destroy(&r2);
}

/* Next CQE of r, waiting up to two seconds for the device thread. */
static const uint8_t *
wait_cqe(struct tring *r)
{
	const uint8_t *cqe;
	int i;

	for (i = 0; i < 200000; i++) {
		cqe = tring_poll(r);
		if (cqe != NULL)
			return cqe;
		usleep(10);
	}
	return NULL;
}

/*
 * The device learns of work from memory only: a NOP whose doorbell record
 * is written and whose doorbell is stored into the UAR page completes with
 * no call into the model, and so after the UAR was freed (its page stays
 * while the QP uses it). The device watches the page: a value that names
 * no queue of it is counted.
 */
static void
test_doorbell_rules(void **state)
{
	struct tctx *c = *state;
	struct tring *r = &c->r;
	const uint8_t *cqe;
	uint8_t w[64] = { 0 };
	uint64_t v;
	int i;

	tring_ctrl(r, w, 0, 0x00, 1, true, 0);
	tring_put(r, w, 16);
	mlx5dm_prm_put_be32(r->qpdb + 4, r->pi);
	memcpy(&v, w, 8);
	mlx5dm_dev_doorbell(r->uar, 0, v);
	cqe = wait_cqe(r);
	assert_non_null(cqe);
	assert_int_equal(cqe[63] >> 4, 0);                       /* REQ */
	assert_int_equal(mlx5dm_prm_get(cqe, 0x1e0, 16), (uint16_t)(r->pi - 1));
	/* A doorbell value naming no queue of the page: seen and counted, nothing runs. */
	SET(w, 0x20, 24, 0x7654);
	memcpy(&v, w, 8);
	mlx5dm_dev_doorbell(r->uar, 0, v);
	for (i = 0; i < 100000 && c->t.sim->dt.stray_doorbells == 0; i++)
		usleep(10);
	assert_int_equal(c->t.sim->dt.stray_doorbells, 1);
	assert_null(tring_poll(r));
	c->t.ops->devx_free_uar(r->uar);
	tring_ctrl(r, w, 0, 0x00, 1, true, 0);
	tring_put(r, w, 16);
	mlx5dm_prm_put_be32(r->qpdb + 4, r->pi);
	memcpy(&v, w, 8);
	mlx5dm_dev_doorbell(r->uar, 0, v);
	assert_non_null(wait_cqe(r));
	r->uar = NULL;
}

static void
post_nop(struct tring *r)
{
	uint8_t w[64] = { 0 };

	tring_ctrl(r, w, 0, 0x00, 1, true, 0);
	tring_put(r, w, 16);
	tring_ring(r, w);
}

static void
test_cq_overrun_and_reset(void **state)
{
	struct tctx *c = *state;
	struct tring *r = &c->r;
	uint8_t in[272] = { 0 }, out[16], line[64], back[64];
	uint16_t idx;

	/* A CQ of 2 that is never consumed: the third completion overruns it. */
	tring_destroy(r);
	assert_int_equal(tring_create(&c->t, r, 1, 2, 3), 0);
	post_nop(r);
	post_nop(r);
	post_nop(r);
	assert_int_equal(qp_state(r), 6);
	poll_good(r, 0x00, 0, 0);
	poll_good(r, 0x00, 1, 0);
	assert_null(tring_poll(r));
	tring_destroy(r);
	/* A QP in error comes back through 2RST and the bring-up, counters from 0. */
	assert_int_equal(tring_create(&c->t, r, 3, 2, 3), 0);
	memset(line, 0x77, sizeof(line));
	post_write_inline(r, 0, 0x00abcdef, line, 64, true);
	assert_non_null(tring_poll(r));
	assert_int_equal(qp_state(r), 6);
	SET(in, 0x00, 16, 0x50a);               /* 2RST_QP */
	SET(in, 0x48, 24, r->qpn);
	assert_int_equal(c->t.ops->devx_obj_modify(r->qp, in, 16, out, sizeof(out)), 0);
	assert_int_equal(qp_state(r), 0);
	/*
	 * The send counter restarts at 0 with the device's: the doorbell record
	 * goes back with it before the QP leaves RST, or the device thread
	 * would execute the old WQE again.
	 */
	__atomic_store_n((uint32_t *)(void *)(r->qpdb + 4), 0, __ATOMIC_RELEASE);
	/* RTR2RTS from RST is refused: BAD_RES_STATE. */
	assert_int_equal(tring_modify(r, 0x504, 0), EREMOTEIO);
	assert_int_equal(tring_modify(r, 0x502, 3), 0);
	assert_int_equal(tring_modify(r, 0x503, 0), 0);
	assert_int_equal(tring_modify(r, 0x504, 0), 0);
	r->pi = 0;
	idx = post_write_inline(r, 128, c->ste.mr->rkey, line, 64, true);
	poll_good(r, 0x08, idx, 0);
	assert_int_equal(mlx5dm_sim_icm_read(c->t.sim, c->ste.icm + 128, back, 64), 0);
	assert_memory_equal(back, line, 64);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_write_read_roundtrip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_write_read_roundtrip, setup_async, teardown),
		cmocka_unit_test_setup_teardown(test_argument_update, setup, teardown),
		cmocka_unit_test_setup_teardown(test_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_doorbell_rules, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cq_overrun_and_reset, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cq_eqn, setup, teardown),
	};

	return cmocka_run_group_tests_name("sim_wqe", tests, NULL, NULL);
}
