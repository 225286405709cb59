/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The datapath queue objects of lib/steer on the model: mlx5dm_sq_create
 * gives an SQ in RDY whose state, CQ, TIS, size and inline minimum the
 * device agrees with; mlx5dm_sq_info/mlx5dm_rq_info describe rings that
 * work; recovery after an error CQE brings a queue back to RDY with the
 * counters at zero; a failed create and the teardown leave no object.
 */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "dp_test_util.h"
#include "mlx5dm_prm_bits.h"
#include "mlx5dm_res.h"
#include "mlx5dm_sim_queue.h"
#include "steer_test_env.h"

static struct mlx5dm_sim *
sim_of(struct senv *e)
{
	return mlx5dm_sim_of(e->dev);
}

static uint32_t
sim_count(struct senv *e, enum mlx5dm_sim_kind k)
{
	return sim_of(e)->tab[k].count;
}

/* Write a one-WQEBB SEND WQE at the SQ's counter pi (18 inline bytes, one segment). */
static void
sq_post(struct mlx5dm_wq_info *wi, uint16_t pi, uint32_t lkey, const uint8_t *f, uint16_t len,
	uint8_t ds)
{
	uint8_t *w = wi->wqes + (size_t)(pi & ((1u << wi->log_wqes) - 1)) * 64;
	uint64_t v;

	memset(w, 0, 64);
	mlx5dm_prm_put_be32(w, (uint32_t)pi << 8 | 0x0a);
	mlx5dm_prm_put_be32(w + 4, wi->qn << 8 | ds);
	w[11] = 0x08;
	w[28] = 0;
	w[29] = 18;
	memcpy(w + 30, f, 18);
	mlx5dm_prm_put_be32(w + 48, (uint32_t)(len - 18));
	mlx5dm_prm_put_be32(w + 52, lkey);
	mlx5dm_prm_put_be32(w + 56, (uint32_t)((uintptr_t)(f + 18) >> 32));
	mlx5dm_prm_put_be32(w + 60, (uint32_t)(uintptr_t)(f + 18));
	__atomic_thread_fence(__ATOMIC_RELEASE);
	wi->dbrec[1] = __builtin_bswap32((uint32_t)(uint16_t)(pi + 1));
	memcpy(&v, w, 8);
	mlx5dm_dev_doorbell(wi->uar, 0, v);
}

static const uint8_t *
cqe_wait(struct mlx5dm_wq_info *wi, uint32_t *ci)
{
	const uint8_t *c = NULL;
	int i;

	for (i = 0; i < 200000 && c == NULL; i++) {
		c = dp_cqe(wi->cqes, wi->log_cqes, ci, wi->cq_dbrec);
		if (c == NULL)
			usleep(10);
	}
	return c;
}

static void
test_sq_create_matches_device(void **state)
{
	struct senv *e = senv_open(1);
	uint32_t cqs = sim_count(e, MLX5DM_SIM_K_CQ), i;
	struct mlx5dm_wq_info a, b;
	struct mlx5dm_sim_sq *s;
	struct mlx5dm_sq *sq, *sq2;
	struct mlx5dm_res_stats rs;

	(void)state;
	/* log_size 6..15. */
	errno = 0;
	assert_null(mlx5dm_sq_create(e->ctx, 5));
	assert_int_equal(errno, EINVAL);
	assert_null(mlx5dm_sq_create(e->ctx, 16));
	assert_int_equal(errno, EINVAL);
	sq = mlx5dm_sq_create(e->ctx, 8);
	assert_non_null(sq);
	mlx5dm_sq_info(sq, &a);
	assert_int_equal(a.log_wqes, 8);
	assert_int_equal(a.log_cqes, 8);
	assert_int_equal(a.inline_min, 18);    /* the model's vport demands L2 */
	assert_non_null(a.uar);
	assert_non_null(a.wqes);
	assert_non_null(a.dbrec);
	for (i = 0; i < 256; i++)
		assert_int_equal(a.cqes[i * 64 + 63], 0xf0);
	/* The device's view: RDY, this CQ, the context's TIS, the sizes. */
	s = mlx5dm_sim_obj_get(sim_of(e), MLX5DM_SIM_K_SQ, a.qn);
	assert_non_null(s);
	assert_int_equal(s->state, 1);
	assert_int_equal(s->cq->h.id, a.cqn);
	assert_int_equal(s->log_size, 8);
	assert_int_equal(s->inline_min, 18);
	assert_int_equal(s->tis->td->id, mlx5dm_ctx_res(e->ctx)->tdn);
	assert_int_equal(s->tis->h.id, mlx5dm_ctx_res(e->ctx)->tisn);
	assert_ptr_equal(s->wq, a.wqes);
	/* A second SQ: its own CQ, the same TIS. */
	sq2 = mlx5dm_sq_create(e->ctx, 6);
	assert_non_null(sq2);
	mlx5dm_sq_info(sq2, &b);
	assert_int_not_equal(b.qn, a.qn);
	assert_int_not_equal(b.cqn, a.cqn);
	assert_ptr_equal(((struct mlx5dm_sim_sq *)mlx5dm_sim_obj_get(sim_of(e), MLX5DM_SIM_K_SQ,
								       b.qn))->tis, s->tis);
	mlx5dm_res_stats_get(mlx5dm_ctx_res(e->ctx), &rs);
	assert_int_equal(rs.sqs, 3);           /* and the environment's own */
	assert_int_equal(mlx5dm_sq_destroy(sq2), 0);
	assert_int_equal(mlx5dm_sq_destroy(sq), 0);
	assert_null(mlx5dm_sim_obj_get(sim_of(e), MLX5DM_SIM_K_SQ, a.qn));
	assert_int_equal(sim_count(e, MLX5DM_SIM_K_CQ), cqs);
	mlx5dm_res_stats_get(mlx5dm_ctx_res(e->ctx), &rs);
	assert_int_equal(rs.sqs, 1);
	senv_close(e);
}

/* The context's TIS goes with the context: nothing of the datapath is left on the device. */
static void
test_teardown_leaves_nothing(void **state)
{
	struct mlx5dm_dev_attr dattr = { .transport = "sim" };
	struct mlx5dm_ctx_attr cattr = { .nb_queues = 1 };
	struct mlx5dm_dev *dev = mlx5dm_dev_open(&dattr);
	struct mlx5dm_sim *sim;
	struct mlx5dm_ctx *ctx;
	struct mlx5dm_sq *sq;
	uint32_t umems;

	(void)state;
	assert_non_null(dev);
	sim = mlx5dm_sim_of(dev);
	ctx = mlx5dm_ctx_open(dev, &cattr);
	assert_non_null(ctx);
	umems = sim->tab[MLX5DM_SIM_K_UMEM].count;
	sq = mlx5dm_sq_create(ctx, 6);
	assert_non_null(sq);
	assert_int_equal(sim->tab[MLX5DM_SIM_K_TIS].count, 1);
	assert_int_equal(mlx5dm_sq_destroy(sq), 0);
	assert_int_equal(sim->tab[MLX5DM_SIM_K_SQ].count, 0);
	assert_int_equal(sim->tab[MLX5DM_SIM_K_UMEM].count, umems);
	assert_int_equal(mlx5dm_ctx_close(ctx), 0);
	assert_int_equal(sim->tab[MLX5DM_SIM_K_TIS].count, 0);
	assert_int_equal(sim->tab[MLX5DM_SIM_K_CQ].count, 0);
	assert_int_equal(sim->tab[MLX5DM_SIM_K_TD].count, 0);
	mlx5dm_dev_close(dev);
}

/* A create the device refuses part-way (out of SQs) leaves nothing behind. */
static void
test_failed_create_unwinds(void **state)
{
	struct mlx5dm_sim_config cfg;
	struct mlx5dm_sq *sq[80];
	uint32_t cqs, umems;
	unsigned int n, i;
	struct senv *e;

	(void)state;
	mlx5dm_sim_config_default(&cfg);
	cfg.log_max_objects = 6;               /* 64 SQs (and CQs, umems...) at most */
	e = senv_open_cfg(1, &cfg);
	for (n = 0; n < 80; n++) {
		cqs = sim_count(e, MLX5DM_SIM_K_CQ);
		umems = sim_count(e, MLX5DM_SIM_K_UMEM);
		errno = 0;
		sq[n] = mlx5dm_sq_create(e->ctx, 6);
		if (sq[n] == NULL)
			break;
	}
	assert_true(n < 80);
	assert_int_equal(errno, ENOSPC);
	assert_int_equal(sim_count(e, MLX5DM_SIM_K_CQ), cqs);
	assert_int_equal(sim_count(e, MLX5DM_SIM_K_UMEM), umems);
	for (i = 0; i < n; i++)
		assert_int_equal(mlx5dm_sq_destroy(sq[i]), 0);
	senv_close(e);
}

/*
 * After an error CQE (ds 0: LOCAL_QP_OP) the SQ is in ERR; mlx5dm_sq_recover
 * brings it to RDY with the device's counter and the record at 0, and a
 * WQE at counter 0 is sent.
 */
static void
test_sq_recover(void **state)
{
	struct senv *e = senv_open(1);
	struct mlx5dm_wq_info wi;
	struct mlx5dm_sim_sq *s;
	struct mlx5dm_sq *sq;
	uint8_t f[64] = { 0x02, 0, 0, 0, 0, 2, 0x02, 0, 0, 0, 0, 1, 0x88, 0xb5 };
	const uint8_t *c;
	uint32_t ci = 0;

	(void)state;
	sq = mlx5dm_sq_create(e->ctx, 6);
	assert_non_null(sq);
	mlx5dm_sq_info(sq, &wi);
	s = mlx5dm_sim_obj_get(sim_of(e), MLX5DM_SIM_K_SQ, wi.qn);
	assert_int_equal(mlx5dm_sq_recover(sq), -EINVAL); /* not in ERR: the device refuses */
	sq_post(&wi, 0, e->dp.mr->lkey, f, sizeof(f), 0);
	c = cqe_wait(&wi, &ci);
	assert_non_null(c);
	assert_int_equal(c[63] >> 4, 0xd);
	assert_int_equal(c[55], 0x02);
	assert_int_equal(s->state, 3);
	assert_int_equal(mlx5dm_sq_recover(sq), 0);
	assert_int_equal(s->state, 1);
	assert_int_equal(s->ctr, 0);
	assert_int_equal(wi.dbrec[1], 0);
	/* The frame's bytes must be in the MR: the environment's data area. */
	memcpy(e->dp.mem, f, sizeof(f));
	sq_post(&wi, 0, e->dp.mr->lkey, e->dp.mem, sizeof(f), 4);
	c = cqe_wait(&wi, &ci);
	assert_non_null(c);
	assert_int_equal(c[63] >> 4, 0x0);
	assert_int_equal(c[60] << 8 | c[61], 0);
	assert_int_equal(mlx5dm_sq_destroy(sq), 0);
	senv_close(e);
}

/* An RQ in ERR after a receive error comes back with mlx5dm_rq_recover. */
static void
test_rq_recover(void **state)
{
	struct senv *e = senv_open(1);
	struct mlx5dm_action *acts[1];
	struct mlx5dm_matcher *m;
	struct mlx5dm_rule *r;
	struct mlx5dm_wq_info ri;
	struct mlx5dm_sim_rq *s;
	uint8_t zero[MP_SIZE] = { 0 };
	struct dp_rx got;
	struct frame f;
	struct pkt p;
	uint8_t *w;

	(void)state;
	acts[0] = e->to_q[0];
	m = senv_matcher(e->tbl, 0, 0, zero, 0);
	r = senv_rule(m, 0, zero, 1, acts);
	pkt_udp4(&p);
	frame_build(&f, &p);
	assert_int_equal(dp_send(&e->dp, f.b, f.len, &got), 0);
	/* Spoil the next posted receive WQE's lkey: LOCAL_PROT, the RQ to ERR. */
	mlx5dm_rq_info(e->rq[0], &ri);
	assert_int_equal(ri.qn, e->rqn[0]);
	assert_null(ri.uar);
	w = ri.wqes + (size_t)(1 & ((1u << ri.log_wqes) - 1)) * 16;
	mlx5dm_prm_put_be32(w + 4, e->dp.mr->lkey ^ 0x700);
	assert_int_equal(dp_send(&e->dp, f.b, f.len, &got), -4);
	s = mlx5dm_sim_obj_get(sim_of(e), MLX5DM_SIM_K_RQ, ri.qn);
	assert_int_equal(s->state, 3);
	assert_int_equal(mlx5dm_rq_recover(e->rq[0]), 0);
	assert_int_equal(s->state, 1);
	assert_int_equal(s->ctr, 0);
	assert_int_equal(ri.dbrec[0], 0);
	assert_int_equal(mlx5dm_rule_destroy(r, 0), 0);
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	senv_close(e);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sq_create_matches_device),
		cmocka_unit_test(test_teardown_leaves_nothing),
		cmocka_unit_test(test_failed_create_unwinds),
		cmocka_unit_test(test_sq_recover),
		cmocka_unit_test(test_rq_recover),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
