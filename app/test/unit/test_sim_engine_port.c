/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Ports and the wire: two instances cabled together, loopback after
 * disconnect, a cable to a destroyed instance, per-port counters, no
 * allocation per packet, and port_tx from two threads at once.
 */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "mlx5dm_dev.h"
#include "mlx5dm_osdep.h"
#include "sim_test_env.h"

static struct mlx5dm_sim *
mk_sim(unsigned int tir)
{
	struct mlx5dm_sim *sim = fake_create();
	struct mlx5dm_sim_tir_info ti = { .inline_rqn = RQN(tir) };

	fake_icm_map(sim, FAKE_STE_BASE, 1u << 16);
	fake_terminal_add(sim, TIR_ADDR(tir), MLX5DM_SIM_TERM_TIR, tir);
	fake_tir_add(sim, tir, &ti);
	fake_rq_add(sim, RQN(tir), FAKE_RQ_DEPTH, true);
	fake_root_set(sim, MLX5DM_SIM_DIR_RX, STE(0));
	t_ste_put_hit(sim, STE(0), GVMI(TIR_ADDR(tir)), 1, 0x000f, 0);
	return sim;
}

static struct mlx5dm_sim_pkt *
frame(struct tpkt *t, uint16_t sport)
{
	tp_init(t);
	tp_eth(t, 1, 2, 0x0800);
	tp_ipv4(t, 0x0a000001, 0x0a000002, 17, 64, 0);
	tp_udp(t, sport, 9, true);
	tp_payload(t, 10);
	return tp_finish(t);
}

static struct mlx5dm_dev_port_stats
stats(struct mlx5dm_sim *sim)
{
	struct mlx5dm_dev_port_stats st;

	assert_int_equal(mlx5dm_sim_engine_port_stats(fake_engine(sim), 0, &st), 0);
	return st;
}

static void
test_cable(void **state)
{
	struct mlx5dm_sim *a = mk_sim(1), *b = mk_sim(2);
	struct mlx5dm_dev_port_stats sa, sb;
	struct tpkt t;

	(void)state;
	assert_int_equal(mlx5dm_sim_engine_wire_connect(fake_engine(a), 0, fake_engine(b), 0), 0);
	/* A -> B */
	assert_int_equal(mlx5dm_sim_engine_port_tx(fake_engine(a), 0, frame(&t, 1), 1), 1);
	assert_int_equal(t.pkt.fate, MLX5DM_SIM_PKT_DELIVERED);
	assert_int_equal(fake_rq_count(b, RQN(2)), 1);
	assert_int_equal(fake_rq_count(a, RQN(1)), 0);
	sa = stats(a);
	sb = stats(b);
	assert_int_equal(sa.tx_packets, 1);
	assert_int_equal(sa.wire_packets, 1);
	assert_int_equal(sa.wire_bytes, t.len);
	assert_int_equal(sa.rx_packets, 0);
	assert_int_equal(sb.tx_packets, 0);
	assert_int_equal(sb.rx_packets, 1);
	assert_int_equal(sb.rx_bytes, t.len);
	assert_int_equal(sb.delivered, 1);
	/* B -> A */
	mlx5dm_sim_engine_port_tx(fake_engine(b), 0, frame(&t, 2), 1);
	assert_int_equal(fake_rq_count(a, RQN(1)), 1);
	/* Unplugged: both loop back to themselves. */
	mlx5dm_sim_engine_wire_disconnect(fake_engine(b));
	mlx5dm_sim_engine_port_tx(fake_engine(a), 0, frame(&t, 3), 1);
	assert_int_equal(fake_rq_count(a, RQN(1)), 2);
	mlx5dm_sim_engine_port_tx(fake_engine(b), 0, frame(&t, 4), 1);
	assert_int_equal(fake_rq_count(b, RQN(2)), 2);
	/* Cabled again, then B goes away: A's frames find no live port. */
	mlx5dm_sim_engine_wire_connect(fake_engine(b), 0, fake_engine(a), 0);
	fake_destroy(b);
	mlx5dm_sim_engine_port_tx(fake_engine(a), 0, frame(&t, 5), 1);
	assert_int_equal(t.pkt.fate, MLX5DM_SIM_PKT_DROPPED);
	sa = stats(a);
	assert_int_equal(sa.drops.no_peer, 1);
	assert_int_equal(sa.wire_packets, 3);
	/* Connecting an engine to itself is the loopback. */
	assert_int_equal(mlx5dm_sim_engine_wire_connect(fake_engine(a), 0, fake_engine(a), 0), 0);
	mlx5dm_sim_engine_port_tx(fake_engine(a), 0, frame(&t, 6), 1);
	assert_int_equal(fake_rq_count(a, RQN(1)), 3);
	fake_destroy(a);
}

static void
test_bad_args(void **state)
{
	struct mlx5dm_sim *a = mk_sim(1);
	struct mlx5dm_dev_port_stats st;
	struct tpkt t;

	(void)state;
	assert_int_equal(mlx5dm_sim_engine_port_tx(fake_engine(a), 1, frame(&t, 1), 1), -EINVAL);
	assert_int_equal(mlx5dm_sim_engine_port_tx(NULL, 0, frame(&t, 1), 1), -EINVAL);
	assert_int_equal(mlx5dm_sim_engine_port_tx(fake_engine(a), 0, NULL, 0), 0);
	assert_int_equal(mlx5dm_sim_engine_port_stats(fake_engine(a), 1, &st), -EINVAL);
	assert_int_equal(mlx5dm_sim_engine_wire_connect(fake_engine(a), 2, fake_engine(a), 0),
			 -EINVAL);
	assert_null(mlx5dm_sim_engine_create(NULL, MLX5DM_SOCKET_ANY));
	fake_destroy(a);
}

/* A burst and its statistics allocate nothing. */
static void
test_no_alloc_per_packet(void **state)
{
	struct mlx5dm_sim *a = mk_sim(1);
	struct mlx5dm_sim_pkt pkts[16];
	struct tpkt t[16];
	uint64_t before;
	unsigned int i;

	(void)state;
	for (i = 0; i < 16; i++)
		pkts[i] = *frame(&t[i], (uint16_t)i);
	before = mlx5dm_alloc_count();
	assert_int_equal(mlx5dm_sim_engine_port_tx(fake_engine(a), 0, pkts, 16), 16);
	assert_int_equal(mlx5dm_alloc_count(), before);
	for (i = 0; i < 16; i++)
		assert_int_equal(pkts[i].fate, MLX5DM_SIM_PKT_DELIVERED);
	assert_int_equal(stats(a).delivered, 16);
	fake_destroy(a);
}

#define MT_PKTS 20000
#define MT_BURST 32

struct mt_arg {
	struct mlx5dm_sim *sim;
	unsigned int delivered;
};

/*
 * RX of both instances: count (counter 7), set reg_c0, match it, drop.
 * Walks contend on the counters and statistics only.
 */
static struct mlx5dm_sim *
mk_counting_sim(void)
{
	struct mlx5dm_sim *sim = fake_create();
	uint8_t mask[16] = { 0 }, tag[16] = { 0 };
	struct t_ste s;

	fake_icm_map(sim, FAKE_STE_BASE, 1u << 16);
	fake_counter_add(sim, 7);
	fake_root_set(sim, MLX5DM_SIM_DIR_RX, STE(0));
	t_ste_init(&s, 0x000f);
	s.counter = 7;
	t_act_set(s.act, 0x90, 0, 32, 0xfeed);
	s.reparse = true;
	s.hit = GVMI(STE(0x40));
	s.hit_size = 1;
	t_ste_put(sim, STE(0), &s);
	/* STEERING_REGISTERS_0, reg_c0 at 0x000 */
	t_ste_init(&s, 0x010f);
	mlx5dm_prm_set(mask, 0x000, 32, 0xffffffff);
	mlx5dm_prm_set(tag, 0x000, 32, 0xfeed);
	memcpy(s.mask, mask, 16);
	memcpy(s.tag, tag, 16);
	s.miss = GVMI(STE(0x80));
	s.hit = GVMI(FAKE_RX_DROP);
	s.hit_size = 1;
	t_ste_put(sim, STE(0x40), &s);
	return sim;
}

static void *
mt_sender(void *p)
{
	struct mt_arg *arg = p;
	struct mlx5dm_sim_pkt pkts[MT_BURST];
	static __thread struct tpkt t[MT_BURST];
	unsigned int i, k;

	for (i = 0; i < MT_PKTS / MT_BURST; i++) {
		for (k = 0; k < MT_BURST; k++)
			pkts[k] = *frame(&t[k], (uint16_t)(i + k));
		mlx5dm_sim_engine_port_tx(fake_engine(arg->sim), 0, pkts, MT_BURST);
		for (k = 0; k < MT_BURST; k++)
			arg->delivered += pkts[k].fate == MLX5DM_SIM_PKT_DELIVERED;
	}
	return NULL;
}

static void
test_two_threads(void **state)
{
	struct mlx5dm_sim *a = mk_counting_sim(), *b = mk_counting_sim();
	struct mt_arg args[3] = { { .sim = a }, { .sim = b }, { .sim = a } };
	const unsigned int n = MT_PKTS / MT_BURST * MT_BURST;
	struct mlx5dm_dev_port_stats sa, sb;
	pthread_t th[3];
	uint64_t pk, by;
	unsigned int i;

	(void)state;
	mlx5dm_sim_engine_wire_connect(fake_engine(a), 0, fake_engine(b), 0);
	/* A -> B and B -> A at once, plus a second sender on A's port. */
	for (i = 0; i < 3; i++)
		assert_int_equal(pthread_create(&th[i], NULL, mt_sender, &args[i]), 0);
	for (i = 0; i < 3; i++)
		pthread_join(th[i], NULL);
	sa = stats(a);
	sb = stats(b);
	assert_int_equal(sa.tx_packets, 2 * n);
	assert_int_equal(sa.wire_packets, 2 * n);
	assert_int_equal(sb.rx_packets, 2 * n);
	assert_int_equal(sb.drops.steering_drop, 2 * n);
	assert_int_equal(sb.tx_packets, n);
	assert_int_equal(sa.rx_packets, n);
	assert_int_equal(sa.drops.steering_drop, n);
	assert_int_equal(sa.drops.walk_error + sb.drops.walk_error, 0);
	fake_counter_get(b, 7, &pk, &by);
	assert_int_equal(pk, 2 * n);
	assert_int_equal(by, 2ull * n * 52);
	fake_counter_get(a, 7, &pk, &by);
	assert_int_equal(pk, n);
	for (i = 0; i < 3; i++)
		assert_int_equal(args[i].delivered, 0);
	fake_destroy(a);
	fake_destroy(b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cable),
		cmocka_unit_test(test_bad_args),
		cmocka_unit_test(test_no_alloc_per_packet),
		cmocka_unit_test(test_two_threads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
