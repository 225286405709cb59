/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The steering library on the device model, end to end: rules written into
 * the model's ICM through send rings, frames sent through the model's port,
 * outcomes read back from its receive queues, drop counters and ICM usage.
 * The model decides every fate from the bytes lib/steer wrote.
 */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <cmocka.h>

#include "mlx5dm_dev.h"
#include "mlx5dm_prm_match.h"
#include "mlx5dm_sim.h"
#include "mlx5dm_steer.h"

struct env {
	struct mlx5dm_dev *dev;
	struct mlx5dm_ctx *ctx;
	struct mlx5dm_domain *rx;
	struct mlx5dm_domain *tx;
	struct mlx5dm_table *tbl;
	struct mlx5dm_rq *rq[4];
	uint32_t rqn[4];
	struct mlx5dm_tir *tir[4];
	struct mlx5dm_action *to_q[4];
	struct mlx5dm_ctx_stats start;
};

static void
trace_print(void *arg, const char *line)
{
	(void)arg;
	fprintf(stderr, "trace: %s\n", line);
}

static struct env *
env_open(uint16_t nb_queues)
{
	struct mlx5dm_dev_attr dattr = { .backend = MLX5DM_DEV_BACKEND_SIM };
	struct mlx5dm_ctx_attr cattr = { .nb_queues = nb_queues };
	struct env *e = calloc(1, sizeof(*e));
	unsigned int i;

	assert_non_null(e);
	e->dev = mlx5dm_dev_open(&dattr);
	assert_non_null(e->dev);
	if (getenv("SIM_TRACE") != NULL)
		mlx5dm_sim_trace_set(e->dev->transport, trace_print, NULL);
	e->ctx = mlx5dm_ctx_open(e->dev, &cattr);
	assert_non_null(e->ctx);
	assert_int_equal(mlx5dm_ctx_stats_get(e->ctx, &e->start), 0);
	e->rx = mlx5dm_domain_create(e->ctx, MLX5DM_DOMAIN_NIC_RX);
	e->tx = mlx5dm_domain_create(e->ctx, MLX5DM_DOMAIN_NIC_TX);
	assert_non_null(e->rx);
	assert_non_null(e->tx);
	e->tbl = mlx5dm_table_create(e->rx, 1);
	assert_non_null(e->tbl);
	assert_int_equal(mlx5dm_domain_set_root(e->rx, e->tbl), 0);
	for (i = 0; i < 4; i++) {
		e->rq[i] = mlx5dm_rq_create(e->ctx, 10);
		assert_non_null(e->rq[i]);
		e->rqn[i] = mlx5dm_rq_number(e->rq[i]);
		e->tir[i] = mlx5dm_tir_create(e->ctx, &e->rqn[i], 1, NULL);
		assert_non_null(e->tir[i]);
		e->to_q[i] = mlx5dm_action_dest_tir(e->rx, e->tir[i]);
		assert_non_null(e->to_q[i]);
	}
	return e;
}

static void
env_close(struct env *e)
{
	unsigned int i;

	for (i = 0; i < 4; i++) {
		assert_int_equal(mlx5dm_action_destroy(e->to_q[i]), 0);
		assert_int_equal(mlx5dm_tir_destroy(e->tir[i]), 0);
		assert_int_equal(mlx5dm_rq_destroy(e->rq[i]), 0);
	}
	assert_int_equal(mlx5dm_domain_set_root(e->rx, NULL), 0);
	assert_int_equal(mlx5dm_table_destroy(e->tbl), 0);
	assert_int_equal(mlx5dm_domain_destroy(e->rx), 0);
	assert_int_equal(mlx5dm_domain_destroy(e->tx), 0);
	assert_int_equal(mlx5dm_ctx_close(e->ctx), 0);
	mlx5dm_dev_close(e->dev);
	free(e);
}

/* An Ethernet/IPv4/UDP frame. */
struct frame {
	uint8_t buf[256];
	uint16_t len;
};

static void
frame_udp4(struct frame *f, uint64_t dmac, uint32_t sip, uint32_t dip, uint16_t sport,
	   uint16_t dport)
{
	uint8_t *p = f->buf + 64; /* headroom in front */
	unsigned int i;

	memset(f->buf, 0, sizeof(f->buf));
	for (i = 0; i < 6; i++)
		p[i] = (uint8_t)(dmac >> (40 - 8 * i));
	memcpy(p + 6, (uint8_t[]){ 0x02, 0, 0, 0, 0, 0x99 }, 6);
	p[12] = 0x08;
	p[13] = 0x00;
	p[14] = 0x45;
	p[17] = 46;          /* total length: 20 + 8 + 18 */
	p[22] = 64;          /* TTL */
	p[23] = 17;          /* UDP */
	mlx5dm_prm_put_be32(p + 26, sip);
	mlx5dm_prm_put_be32(p + 30, dip);
	p[34] = (uint8_t)(sport >> 8);
	p[35] = (uint8_t)sport;
	p[36] = (uint8_t)(dport >> 8);
	p[37] = (uint8_t)dport;
	p[39] = 26;          /* UDP length */
	f->len = 14 + 46;
}

/* Send one frame; return the queue index it arrived on, -1 if dropped. */
static int
send_one(struct env *e, struct frame *f, struct mlx5dm_dev_pkt *got)
{
	struct mlx5dm_dev_pkt pkt = {
		.cookie = f, .data = f->buf + 64, .len = f->len, .headroom = 64,
		.tailroom = (uint16_t)(sizeof(f->buf) - 64 - f->len),
	};
	unsigned int q;

	assert_int_equal(e->dev->ops->port_tx(e->dev, 0, &pkt, 1), 1);
	if (pkt.fate == MLX5DM_DEV_PKT_DROPPED)
		return -1;
	assert_int_equal(pkt.fate, MLX5DM_DEV_PKT_DELIVERED);
	for (q = 0; q < 4; q++) {
		struct mlx5dm_dev_pkt r;

		if (e->dev->ops->rq_poll(e->dev, e->rqn[q], &r, 1) == 1) {
			assert_ptr_equal(r.cookie, f);
			if (got != NULL)
				*got = r;
			return (int)q;
		}
	}
	fail_msg("delivered frame found in no RQ");
	return -2;
}

static void
mask_dmac(uint8_t *mask)
{
	mlx5dm_fte_set(mask, MLX5DM_FTE(outer, dmac_47_16), 0xffffffff);
	mlx5dm_fte_set(mask, MLX5DM_FTE(outer, dmac_15_0), 0xffff);
}

static void
value_dmac(uint8_t *v, uint64_t mac)
{
	mlx5dm_fte_set(v, MLX5DM_FTE(outer, dmac_47_16), (uint32_t)(mac >> 16));
	mlx5dm_fte_set(v, MLX5DM_FTE(outer, dmac_15_0), (uint32_t)(mac & 0xffff));
}

static void
test_dmac_rules_steer_and_tag(void **state)
{
	uint8_t mask[MLX5DM_MATCH_PARAM_SIZE] = { 0 }, v[MLX5DM_MATCH_PARAM_SIZE];
	struct mlx5dm_matcher_attr ma = { .criteria = 1, .mask = mask };
	struct mlx5dm_rule *r[3];
	struct mlx5dm_action *tag, *acts[2];
	struct mlx5dm_dev_pkt got;
	struct mlx5dm_matcher *m;
	struct env *e = env_open(1);
	struct frame f;

	(void)state;
	mask_dmac(mask);
	m = mlx5dm_matcher_create(e->tbl, &ma, NULL);
	assert_non_null(m);
	tag = mlx5dm_action_flow_tag(e->rx, 0x1234);
	assert_non_null(tag);
	memset(v, 0, sizeof(v));
	value_dmac(v, 0x020000000001ull);
	acts[0] = tag;
	acts[1] = e->to_q[1];
	r[0] = mlx5dm_rule_create(m, 0, v, 2, acts);
	assert_non_null(r[0]);
	value_dmac(v, 0x020000000002ull);
	r[1] = mlx5dm_rule_create(m, 0, v, 1, &e->to_q[2]);
	assert_non_null(r[1]);
	/* Same value again: a duplicate. */
	value_dmac(v, 0x020000000001ull);
	assert_null(mlx5dm_rule_create(m, 0, v, 1, &e->to_q[3]));
	assert_int_equal(errno, EEXIST);

	frame_udp4(&f, 0x020000000001ull, 0x0a000001, 0x0a000002, 1000, 2000);
	assert_int_equal(send_one(e, &f, &got), 1);
	assert_true(got.flags & MLX5DM_DEV_PKT_F_FLOW_TAG);
	assert_int_equal(got.flow_tag, 0x1234);
	frame_udp4(&f, 0x020000000002ull, 0x0a000001, 0x0a000002, 1000, 2000);
	assert_int_equal(send_one(e, &f, &got), 2);
	assert_false(got.flags & MLX5DM_DEV_PKT_F_FLOW_TAG);
	/* No rule: NIC RX default is drop. */
	frame_udp4(&f, 0x020000000003ull, 0x0a000001, 0x0a000002, 1000, 2000);
	assert_int_equal(send_one(e, &f, NULL), -1);

	/* Delete: the frame stops matching. */
	assert_int_equal(mlx5dm_rule_destroy(r[0], 0), 0);
	frame_udp4(&f, 0x020000000001ull, 0x0a000001, 0x0a000002, 1000, 2000);
	assert_int_equal(send_one(e, &f, NULL), -1);
	frame_udp4(&f, 0x020000000002ull, 0x0a000001, 0x0a000002, 1000, 2000);
	assert_int_equal(send_one(e, &f, NULL), 2);
	assert_int_equal(mlx5dm_rule_destroy(r[1], 0), 0);
	assert_int_equal(send_one(e, &f, NULL), -1);
	assert_int_equal(mlx5dm_action_destroy(tag), 0);
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	env_close(e);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dmac_rules_steer_and_tag),
	};

	return cmocka_run_group_tests_name("steer_model", tests, NULL, NULL);
}
