/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Modify-header argument pools against the fake device: the
 * CREATE_GENERAL_OBJECT image and log_obj_range policy, slot sizes per
 * action count, carving of objects into slots (argument id = object id +
 * unit offset), free-list reuse, destruction of emptied objects with one
 * kept per pool, errors, and concurrent use from several threads.
 */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <pthread.h>
#include <cmocka.h>

#include "mlx5dm_prm_bits.h"
#include "test_res_fake.h"

static void
ctx_arg(struct mlx5dm_res_ctx *res, bool supported, uint8_t gran, uint8_t max_alloc)
{
	struct mlx5dm_res_attr a = fres_attr();

	a.arg_supported = supported;
	a.log_arg_granularity = gran;
	a.log_arg_max_alloc = max_alloc;
	assert_int_equal(mlx5dm_res_ctx_init(res, &a), 0);
}

static struct mlx5dm_res_arg *
arg_new(struct mlx5dm_res_ctx *res, uint32_t nb_actions)
{
	struct mlx5dm_res_arg *a = NULL;

	assert_int_equal(mlx5dm_res_arg_alloc(res, nb_actions, &a), 0);
	assert_non_null(a);
	return a;
}

/* The log_obj_range sent in the last CREATE_GENERAL_OBJECT. */
static unsigned int
last_range(void)
{
	return (unsigned int)mlx5dm_prm_get(fres_last(0xa00)->in, 0x63, 5);
}

static void
test_arg_mailbox_range(void **state)
{
	struct mlx5dm_res_ctx res;
	struct mlx5dm_res_stats st;
	struct mlx5dm_res_arg *a;
	uint8_t exp[36] = { 0 };

	(void)state;
	fres_init();
	ctx_arg(&res, true, 0, 23);
	a = arg_new(&res, 1);
	/* general_obj_in_cmd_hdr + modify_header_arg: 36 bytes. */
	fres_put(exp, 0x00, 16, 0xa00);            /* opcode */
	fres_put(exp, 0x30, 16, 0x23);             /* obj_type: header modify argument */
	fres_put(exp, 0x40, 32, 0);                /* obj_id */
	fres_put(exp, 0x63, 5, 12);                /* log_obj_range: max(granularity, 12) */
	fres_put(exp, 0x80 + 0x88, 24, FAKE_PDN);  /* access_pd */
	fres_assert_mbox(fres_last(0xa00), exp, sizeof(exp));
	assert_int_equal(fres_last(0xa00)->outlen, 16);
	assert_int_equal(mlx5dm_res_arg_id(a), FAKE_ARG_ID0);
	assert_int_equal(mlx5dm_res_arg_units(a), 1);
	mlx5dm_res_arg_free(a);
	/* The only empty object of its pool stays until the context goes. */
	mlx5dm_res_stats_get(&res, &st);
	assert_true(st.arg_objs == 1 && st.args == 0);
	assert_int_equal(fres.live_objs, 2);
	fres_ctx_fini(&res);
	/* Granularity above 12 wins; max_alloc caps. */
	ctx_arg(&res, true, 14, 23);
	mlx5dm_res_arg_free(arg_new(&res, 8));
	assert_int_equal(last_range(), 14);
	fres_ctx_fini(&res);
	ctx_arg(&res, true, 0, 10);
	mlx5dm_res_arg_free(arg_new(&res, 8));
	assert_int_equal(last_range(), 10);
	fres_ctx_fini(&res);
	fres_fini();
}

static void
test_arg_classes(void **state)
{
	static const struct {
		uint32_t nb;
		uint32_t units;
	} cases[] = {
		{ 1, 1 }, { 8, 1 }, { 9, 2 }, { 16, 2 }, { 17, 4 }, { 32, 4 }, { 33, 8 }, { 64, 8 },
	};
	struct mlx5dm_res_arg *a[MLX5DM_ARRAY_SIZE(cases)];
	struct mlx5dm_res_ctx res;
	struct mlx5dm_res_arg *bad = NULL;
	unsigned int i;

	(void)state;
	fres_init();
	ctx_arg(&res, true, 0, 5);               /* objects of 32 units */
	for (i = 0; i < MLX5DM_ARRAY_SIZE(cases); i++) {
		struct fake_obj *o;
		uint32_t id;

		a[i] = arg_new(&res, cases[i].nb);
		assert_int_equal(mlx5dm_res_arg_units(a[i]), cases[i].units);
		id = mlx5dm_res_arg_id(a[i]);
		/* One object per pool here; the fake aligns objects to 32 units. */
		o = fres_obj(0xa00, id & ~31u);
		assert_non_null(o);
		assert_int_equal(o->range, 32);
		/* The two requests of a class: first and second slot of that object. */
		assert_int_equal(id - o->id, (i % 2) * cases[i].units);
	}
	assert_int_equal(fres_count(0xa00), 4);
	assert_int_equal(mlx5dm_res_arg_alloc(&res, 0, &bad), -EINVAL);
	assert_int_equal(mlx5dm_res_arg_alloc(&res, 65, &bad), -EINVAL);
	assert_int_equal(mlx5dm_res_arg_alloc(NULL, 1, &bad), -EINVAL);
	assert_null(bad);
	test_log_start();
	assert_int_equal(mlx5dm_res_ctx_fini(&res), -EBUSY); /* slots in use */
	assert_non_null(strstr(test_log_last(), "8 arguments"));
	test_log_stop();
	for (i = 0; i < MLX5DM_ARRAY_SIZE(cases); i++)
		mlx5dm_res_arg_free(a[i]);
	mlx5dm_res_arg_free(NULL);
	fres_ctx_fini(&res);
	fres_fini();
}

static void
test_arg_carving(void **state)
{
	struct mlx5dm_res_arg *a[9], *again;
	struct mlx5dm_res_ctx res;
	struct mlx5dm_res_stats st;
	uint32_t obj[3];
	unsigned int i, j, destroys;

	(void)state;
	fres_init();
	ctx_arg(&res, true, 0, 5);
	/* 8-unit slots of a 32-unit object: 4 per object; 9 slots take 3 objects. */
	for (i = 0; i < 9; i++) {
		a[i] = arg_new(&res, 64);
		if (i % 4 == 0)
			obj[i / 4] = mlx5dm_res_arg_id(a[i]);
		assert_int_equal(mlx5dm_res_arg_id(a[i]), obj[i / 4] + (i % 4) * 8);
		for (j = 0; j < i; j++)
			assert_int_not_equal(mlx5dm_res_arg_id(a[i]), mlx5dm_res_arg_id(a[j]));
	}
	assert_int_equal(fres_count(0xa00), 3);
	mlx5dm_res_stats_get(&res, &st);
	assert_true(st.arg_objs == 3 && st.args == 9);
	/* Free list: a slot given back is the next one handed out. */
	mlx5dm_res_arg_free(a[5]);
	a[5] = arg_new(&res, 40);
	assert_int_equal(mlx5dm_res_arg_id(a[5]), obj[1] + 8);
	assert_int_equal(fres_count(0xa00), 3);
	/* The third object empties: kept, as the pool's only empty object. */
	destroys = fres.destroys;
	mlx5dm_res_arg_free(a[8]);
	assert_int_equal(fres.destroys, destroys);
	/* The first empties too: destroyed (one empty object is enough). */
	for (i = 0; i < 4; i++)
		mlx5dm_res_arg_free(a[i]);
	assert_int_equal(fres.destroys, destroys + 1);
	assert_null(fres_obj(0xa00, obj[0]));
	mlx5dm_res_stats_get(&res, &st);
	assert_true(st.arg_objs == 2 && st.args == 4);
	/* The kept object serves the next request: no new object. */
	again = arg_new(&res, 33);
	assert_int_equal(mlx5dm_res_arg_id(again), obj[2]);
	assert_int_equal(fres_count(0xa00), 3);
	mlx5dm_res_arg_free(again);
	for (i = 4; i < 8; i++)
		mlx5dm_res_arg_free(a[i]);
	/* Two empty objects cannot both stay: the second one to empty goes. */
	assert_int_equal(fres.destroys, destroys + 2);
	mlx5dm_res_stats_get(&res, &st);
	assert_true(st.arg_objs == 1 && st.args == 0);
	fres_ctx_fini(&res);
	assert_int_equal(fres.destroys, destroys + 4); /* the kept object and the TD */
	fres_fini();
}

static void
test_arg_unsupported(void **state)
{
	struct mlx5dm_res_ctx res;
	struct mlx5dm_res_arg *a = NULL;

	(void)state;
	fres_init();
	ctx_arg(&res, false, 0, 23);
	test_log_start();
	assert_int_equal(mlx5dm_res_arg_alloc(&res, 1, &a), -ENOTSUP);
	assert_non_null(strstr(test_log_last(), "unsupported"));
	fres_ctx_fini(&res);
	/* Objects of 4 units: no 8-unit slot; 4-unit slots one per object. */
	ctx_arg(&res, true, 0, 2);
	assert_int_equal(mlx5dm_res_arg_alloc(&res, 33, &a), -ENOTSUP);
	assert_int_equal(fres_count(0xa00), 0);
	test_log_stop();
	a = arg_new(&res, 32);
	assert_int_equal(last_range(), 2);
	/* A second object; emptied while no other object is empty: kept. */
	mlx5dm_res_arg_free(arg_new(&res, 32));
	assert_int_equal(fres_count(0xa00), 2);
	assert_int_equal(fres.live_objs, 3);
	/* The first one empties as well: destroyed. */
	mlx5dm_res_arg_free(a);
	assert_int_equal(fres.live_objs, 2);
	fres_ctx_fini(&res);
	fres_fini();
}

static void
test_arg_errors(void **state)
{
	struct mlx5dm_res_ctx res;
	struct mlx5dm_res_stats st;
	struct mlx5dm_res_arg *a = NULL;

	(void)state;
	fres_init();
	ctx_arg(&res, true, 0, 5);
	test_log_start();
	fres_fail(0xa00, 1, 0x0f, 0xa0a0);
	assert_int_equal(mlx5dm_res_arg_alloc(&res, 3, &a), -ENOSPC);
	assert_string_equal(test_log_last(), "res: CREATE_GENERAL_OBJECT (modify-header argument)"
			    " failed: No space left on device"
			    " (status 0xf, syndrome 0xa0a0)");
	test_log_stop();
	/* The object's host memory: nothing sent. */
	mlx5dm_alloc_fail_at(1);
	assert_int_equal(mlx5dm_res_arg_alloc(&res, 3, &a), -ENOMEM);
	mlx5dm_alloc_fail_at(0);
	assert_int_equal(fres_count(0xa00), 1);
	assert_null(a);
	mlx5dm_res_stats_get(&res, &st);
	assert_true(st.arg_objs == 0 && st.args == 0);
	/* The pool still works. */
	a = arg_new(&res, 3);
	mlx5dm_res_arg_free(a);
	fres_ctx_fini(&res);
	fres_fini();
}

#define THREADS 4
#define ROUNDS 2000
#define HOLD 12
#define ID_SPACE (1u << 22) /* ids only grow in the fake */

static struct mlx5dm_res_ctx thr_res;
static uint8_t in_use[ID_SPACE];
static unsigned int dup_ids;

/* Claim/release every unit of a slot; a unit claimed twice is a bug. */
static void
mark(const struct mlx5dm_res_arg *a, uint8_t v)
{
	uint32_t i, first = mlx5dm_res_arg_id(a) - FAKE_ARG_ID0;

	/* No cmocka assertion in a thread: count the problem instead. */
	if (first + mlx5dm_res_arg_units(a) > ID_SPACE) {
		__atomic_add_fetch(&dup_ids, 1000000, __ATOMIC_RELAXED);
		return;
	}
	for (i = 0; i < mlx5dm_res_arg_units(a); i++)
		if (__atomic_exchange_n(&in_use[first + i], v, __ATOMIC_ACQ_REL) == v)
			__atomic_add_fetch(&dup_ids, 1, __ATOMIC_RELAXED);
}

static void *
thr_run(void *arg)
{
	struct mlx5dm_res_arg *held[HOLD] = { NULL };
	unsigned int seed = (unsigned int)(uintptr_t)arg;
	unsigned int r, k;

	for (r = 0; r < ROUNDS; r++) {
		k = (unsigned int)rand_r(&seed) % HOLD;
		if (held[k] != NULL) {
			mark(held[k], 0);
			mlx5dm_res_arg_free(held[k]);
			held[k] = NULL;
		} else if (mlx5dm_res_arg_alloc(&thr_res, 1 + (uint32_t)rand_r(&seed) % 64,
						&held[k]) == 0) {
			mark(held[k], 1);
		} else {
			__atomic_add_fetch(&dup_ids, 1000, __ATOMIC_RELAXED);
		}
	}
	for (k = 0; k < HOLD; k++) {
		if (held[k] != NULL) {
			mark(held[k], 0);
			mlx5dm_res_arg_free(held[k]);
		}
	}
	return NULL;
}

static void
test_arg_threads(void **state)
{
	pthread_t t[THREADS];
	struct mlx5dm_res_stats st;
	unsigned int i;

	(void)state;
	fres_init();
	ctx_arg(&thr_res, true, 0, 5);
	memset(in_use, 0, sizeof(in_use));
	dup_ids = 0;
	for (i = 0; i < THREADS; i++)
		assert_int_equal(pthread_create(&t[i], NULL, thr_run, (void *)(uintptr_t)(i + 1)),
				 0);
	for (i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	assert_int_equal(dup_ids, 0);
	mlx5dm_res_stats_get(&thr_res, &st);
	assert_int_equal(st.args, 0);
	/* At most one empty object per pool survives. */
	assert_true(st.arg_objs <= MLX5DM_RES_ARG_CLASSES);
	assert_int_equal(fres.live_objs, st.arg_objs + 1);
	fres_ctx_fini(&thr_res);
	fres_fini();
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arg_mailbox_range),
		cmocka_unit_test(test_arg_classes),
		cmocka_unit_test(test_arg_carving),
		cmocka_unit_test(test_arg_unsupported),
		cmocka_unit_test(test_arg_errors),
		cmocka_unit_test(test_arg_threads),
	};

	return cmocka_run_group_tests_name("res_arg", tests, NULL, NULL);
}
