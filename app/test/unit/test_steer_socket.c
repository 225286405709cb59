/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The socket of a device's memory: every allocation the library makes for
 * a device's objects (the model's own state, the steering context, its
 * domains, tables, matchers, rules, resources, send rings, ICM pools and a
 * dump) names the socket the device was opened with, and no socket when it
 * was opened without one. Operations that record what they are asked for
 * (and allocate from libc, whatever the socket) see it.
 */

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "mlx5dm_osdep.h"
#include "steer_test_env.h"

#define SOCKET 3
#define NB_RULES 3000 /* past a slab's heap blocks and the hint's table: growth */

/* Allocations asked for with socket want, with another, and the first other one. */
static int want_socket;
static uint64_t nb_want, nb_other;
static int other_socket;

static void *
record_alloc(size_t size, size_t align, int socket)
{
	void *p = NULL;

	if (socket == want_socket) {
		__atomic_add_fetch(&nb_want, 1, __ATOMIC_RELAXED);
	} else if (__atomic_fetch_add(&nb_other, 1, __ATOMIC_RELAXED) == 0) {
		other_socket = socket;
	}
	if (posix_memalign(&p, align > sizeof(void *) ? align : sizeof(void *), size) != 0)
		return NULL;
	return p;
}

static const struct mlx5dm_alloc_ops record_ops = {
	.alloc = record_alloc,
	.free = free,
};

static void
record_start(int socket)
{
	want_socket = socket;
	nb_want = 0;
	nb_other = 0;
	other_socket = 0;
	mlx5dm_alloc_set_ops(&record_ops);
}

static void
record_check(void)
{
	mlx5dm_alloc_set_ops(NULL);
	assert_true(nb_want > 0);
	if (nb_other != 0)
		fail_msg("%" PRIu64 " of %" PRIu64 " allocations named another socket than %d "
			 "(the first: %d)", nb_other, nb_other + nb_want, want_socket,
			 other_socket);
}

/*
 * A device and everything on it: a context with two rule queues (matcher
 * shards, their indexes), both NIC domains, RQs, TIRs and an SQ (the test
 * environment's), counters, a matcher of three levels, rules enough to
 * grow its tables and slabs, a dump; all destroyed again.
 */
static void
device_objects(const struct mlx5dm_dev_attr *dattr, int want)
{
	struct mlx5dm_ctx_attr cattr = { .nb_queues = 2 };
	static struct mlx5dm_rule *rules[NB_RULES];
	uint8_t mask[MP_SIZE], value[MP_SIZE];
	struct mlx5dm_action *acts[3];
	struct mlx5dm_counters *cnt;
	struct mlx5dm_matcher *m;
	struct senv *e;
	struct fkey k = { .dmac = 0x020000000001ull, .sip = 0x0a000001, .dip = 0x0a000002,
			  .sport = 1000 };
	FILE *f;
	int i;

	e = senv_open_dev(dattr, &cattr);
	assert_int_equal(e->dev->socket, want);
	cnt = mlx5dm_counters_alloc(e->ctx, 0);
	assert_non_null(cnt);
	acts[0] = mlx5dm_action_counter(e->rx, cnt, 0);
	acts[1] = mlx5dm_action_flow_tag(e->rx, 7);
	acts[2] = e->to_q[0];
	assert_non_null(acts[0]);
	assert_non_null(acts[1]);
	fkey_mask(mask);
	m = senv_matcher(e->tbl, 0, CRIT(outer), mask, 0);
	for (i = 0; i < NB_RULES; i++) {
		/* Rules share their first levels in groups: indexed entries above the last. */
		k.ttl = (uint8_t)(i % 7);
		k.dport = (uint16_t)i;
		fkey_value(&k, value);
		rules[i] = senv_rule(m, (uint16_t)(i % 2), value, 3, acts);
	}
	f = fopen("/dev/null", "w");
	assert_non_null(f);
	assert_int_equal(mlx5dm_domain_dump(e->rx, f), 0);
	fclose(f);
	for (i = 0; i < NB_RULES; i++)
		assert_int_equal(mlx5dm_rule_destroy(rules[i], (uint16_t)(i % 2)), 0);
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	DESTROY_ACTIONS(acts[0], acts[1]);
	assert_int_equal(mlx5dm_counters_free(cnt), 0);
	senv_close(e);
}

/* A device opened on a socket: all of its memory is asked for on that socket. */
static void
test_device_socket(void **state)
{
	struct mlx5dm_dev_attr dattr = {
		.transport = "sim", .has_socket = true, .socket = SOCKET,
	};

	(void)state;
	record_start(SOCKET);
	device_objects(&dattr, SOCKET);
	record_check();
}

/* Attributes that say no socket (zeroed, or a negative one): no preference. */
static void
test_device_no_socket(void **state)
{
	struct mlx5dm_dev_attr dattr = { .transport = "sim" };

	(void)state;
	record_start(MLX5DM_SOCKET_ANY);
	device_objects(&dattr, MLX5DM_SOCKET_ANY);
	record_check();
	/* socket without has_socket is not looked at; has_socket with -2 is none. */
	dattr.socket = SOCKET;
	record_start(MLX5DM_SOCKET_ANY);
	mlx5dm_dev_close(mlx5dm_dev_open(&dattr));
	record_check();
	dattr.has_socket = true;
	dattr.socket = -2;
	record_start(MLX5DM_SOCKET_ANY);
	mlx5dm_dev_close(mlx5dm_dev_open(&dattr));
	record_check();
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_device_socket),
		cmocka_unit_test(test_device_no_socket),
	};

	return cmocka_run_group_tests_name("steer_socket", tests, NULL, NULL);
}
