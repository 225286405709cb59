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

#include "steer_test_env.h"

static void
dmac_frame(struct frame *f, uint64_t dmac)
{
	struct pkt p;

	pkt_udp4(&p);
	p.o.dmac = dmac;
	frame_build(f, &p);
}

static void
test_dmac_rules_steer_and_tag(void **state)
{
	uint8_t mask[MP_SIZE] = { 0 }, v[MP_SIZE] = { 0 };
	struct mlx5dm_action *tag, *acts[2];
	struct mlx5dm_rule *r[2];
	struct mlx5dm_matcher *m;
	struct senv *e = senv_open(1);
	struct frame f;
	struct rx got;

	(void)state;
	mp_mac(mask, MLX5DM_FTE(outer, dmac_47_16), 0xffffffffffffull);
	m = senv_matcher(e->tbl, 0, CRIT(outer), mask, 0);
	tag = mlx5dm_action_flow_tag(e->rx, 0x1234);
	assert_non_null(tag);
	mp_mac(v, MLX5DM_FTE(outer, dmac_47_16), 0x020000000001ull);
	acts[0] = tag;
	acts[1] = e->to_q[1];
	r[0] = senv_rule(m, 0, v, 2, acts);
	mp_mac(v, MLX5DM_FTE(outer, dmac_47_16), 0x020000000002ull);
	r[1] = senv_rule(m, 0, v, 1, &e->to_q[2]);
	/* Same value again: a duplicate. */
	mp_mac(v, MLX5DM_FTE(outer, dmac_47_16), 0x020000000001ull);
	assert_null(mlx5dm_rule_create(m, 0, v, 1, &e->to_q[3]));
	assert_int_equal(errno, EEXIST);

	dmac_frame(&f, 0x020000000001ull);
	assert_int_equal(senv_send(e, &f, &got), 1);
	assert_true(got.flags & MLX5DM_SIM_PKT_F_FLOW_TAG);
	assert_int_equal(got.flow_tag, 0x1234);
	dmac_frame(&f, 0x020000000002ull);
	assert_int_equal(senv_send(e, &f, &got), 2);
	assert_false(got.flags & MLX5DM_SIM_PKT_F_FLOW_TAG);
	/* No rule: NIC RX default is drop. */
	dmac_frame(&f, 0x020000000003ull);
	assert_int_equal(senv_send(e, &f, NULL), RX_DROPPED);

	/* Delete: the frame stops matching. */
	assert_int_equal(mlx5dm_rule_destroy(r[0], 0), 0);
	dmac_frame(&f, 0x020000000001ull);
	assert_int_equal(senv_send(e, &f, NULL), RX_DROPPED);
	dmac_frame(&f, 0x020000000002ull);
	assert_int_equal(senv_send(e, &f, NULL), 2);
	assert_int_equal(mlx5dm_rule_destroy(r[1], 0), 0);
	assert_int_equal(senv_send(e, &f, NULL), RX_DROPPED);
	assert_int_equal(mlx5dm_action_destroy(tag), 0);
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	senv_close(e);
}

/*
 * Doorbell batching: rule writes wait in the send ring until enough WQEs
 * are posted or the queue is flushed; the model sees nothing before.
 */
static void
test_doorbell_batch(void **state)
{
	struct mlx5dm_ctx_attr cattr = { .nb_queues = 1, .doorbell_batch = 8 };
	uint8_t mask[MP_SIZE] = { 0 }, v[MP_SIZE] = { 0 };
	struct mlx5dm_rule *r[17];
	struct mlx5dm_matcher *m;
	struct senv *e = senv_open_ex(&cattr, NULL);
	struct frame f;
	unsigned int i;

	(void)state;
	mp_mac(mask, MLX5DM_FTE(outer, dmac_47_16), 0xffffffffffffull);
	m = senv_matcher(e->tbl, 0, CRIT(outer), mask, 0);
	mp_mac(v, MLX5DM_FTE(outer, dmac_47_16), 0x020000000100ull);
	r[0] = senv_rule(m, 0, v, 1, &e->to_q[1]);
	/* Posted, not rung: the device does not have the rule yet. */
	dmac_frame(&f, 0x020000000100ull);
	assert_int_equal(senv_send(e, &f, NULL), RX_DROPPED);
	assert_int_equal(mlx5dm_queue_flush(e->ctx, 0), 0);
	assert_int_equal(senv_send(e, &f, NULL), 1);
	/* Sixteen more rules post at least sixteen WQEs: the doorbell rang on its own. */
	for (i = 1; i < 17; i++) {
		mp_mac(v, MLX5DM_FTE(outer, dmac_47_16), 0x020000000100ull + i);
		r[i] = senv_rule(m, 0, v, 1, &e->to_q[2]);
	}
	dmac_frame(&f, 0x020000000101ull);
	assert_int_equal(senv_send(e, &f, NULL), 2);
	assert_int_equal(mlx5dm_queue_flush(e->ctx, 0), 0);
	for (i = 1; i < 17; i++) {
		dmac_frame(&f, 0x020000000100ull + i);
		assert_int_equal(senv_send(e, &f, NULL), 2);
	}
	/* A deletion waits for the doorbell too. */
	assert_int_equal(mlx5dm_rule_destroy(r[0], 0), 0);
	dmac_frame(&f, 0x020000000100ull);
	assert_int_equal(senv_send(e, &f, NULL), 1);
	assert_int_equal(mlx5dm_queue_drain(e->ctx, 0), 0);
	assert_int_equal(senv_send(e, &f, NULL), RX_DROPPED);
	for (i = 1; i < 17; i++)
		assert_int_equal(mlx5dm_rule_destroy(r[i], 0), 0);
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	senv_close(e);
}

/* A dmac rule to queue 2 and a frame that hits it: the rule ring wrote the ICM. */
static void
ring_works(struct senv *e)
{
	uint8_t mask[MP_SIZE] = { 0 }, v[MP_SIZE] = { 0 };
	struct mlx5dm_matcher *m;
	struct mlx5dm_rule *r;
	struct frame f;

	mp_mac(mask, MLX5DM_FTE(outer, dmac_47_16), 0xffffffffffffull);
	m = senv_matcher(e->tbl, 0, CRIT(outer), mask, 0);
	mp_mac(v, MLX5DM_FTE(outer, dmac_47_16), 0x020000000007ull);
	r = senv_rule(m, 0, v, 1, &e->to_q[2]);
	dmac_frame(&f, 0x020000000007ull);
	assert_int_equal(senv_send(e, &f, NULL), 2);
	assert_int_equal(mlx5dm_rule_destroy(r, 0), 0);
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
}

/*
 * How the send rings' RC QPs connect to themselves follows the device, as
 * in rdma-core: force-loopback when allowed in the port's RoCE state, else
 * through the port's GID. The model refuses a force-loopback QP it does
 * not allow, and an address path that is not its port's GID index 0 (or
 * any address path with RoCE off), so a ring that works took the path
 * the device wants.
 */
static void
test_ring_connection(void **state)
{
	static const struct {
		bool roce, no_fl, works;
	} modes[] = {
		{ false, false, true },  /* force-loopback (the default) */
		{ true, false, true },   /* RoCE on, force-loopback allowed */
		{ true, true, true },    /* RoCE on, no force-loopback: the port's GID */
		{ false, true, false },  /* neither: no way to connect */
	};
	struct mlx5dm_sim_config cfg;
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		struct mlx5dm_dev_attr dattr = { .transport = "sim", .config = &cfg };
		struct mlx5dm_dev *dev;
		struct senv *e;

		mlx5dm_sim_config_default(&cfg);
		cfg.roce = modes[i].roce;
		cfg.no_force_loopback = modes[i].no_fl;
		if (modes[i].works) {
			e = senv_open_cfg(1, &cfg);
			ring_works(e);
			senv_close(e);
			continue;
		}
		dev = mlx5dm_dev_open(&dattr);
		assert_non_null(dev);
		errno = 0;
		assert_null(mlx5dm_ctx_open(dev, NULL));
		assert_true(errno != 0);
		mlx5dm_dev_close(dev);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dmac_rules_steer_and_tag),
		cmocka_unit_test(test_doorbell_batch),
		cmocka_unit_test(test_ring_connection),
	};

	return cmocka_run_group_tests_name("steer_model", tests, NULL, NULL);
}
