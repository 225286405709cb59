/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Flow counter bulks against the fake device: ALLOC_FLOW_COUNTER sizing
 * (log size, or the 128-multiple bitmap), the STE counter id, and
 * QUERY_FLOW_COUNTER decoding for one counter and for ranges (4-aligned
 * starts, chunks), with the fake answering 64-bit values per id.
 */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <cmocka.h>

#include "mlx5dm_prm_bits.h"
#include "test_res_fake.h"

static void
ctx_fc(struct mlx5dm_res_ctx *res, uint8_t log_max, uint8_t bitmap)
{
	struct mlx5dm_res_attr a = fres_attr();

	a.log_max_fc_bulk = log_max;
	a.fc_bulk_bitmap = bitmap;
	fres.fc_log_size = log_max != 0;
	assert_int_equal(mlx5dm_res_ctx_init(res, &a), 0);
}

/* alloc_flow_counter_in: 16 bytes, bulk_log_size at 0x73, bulk (x128) at 0x78. */
static void
assert_alloc_mbox(unsigned int log, unsigned int bulk)
{
	uint8_t exp[16] = { 0 };

	fres_put(exp, 0x00, 16, 0x939);
	fres_put(exp, 0x73, 5, log);
	fres_put(exp, 0x78, 8, bulk);
	fres_assert_mbox(fres_last(0x939), exp, sizeof(exp));
	assert_int_equal(fres_last(0x939)->outlen, 16);
}

static void
test_counter_alloc(void **state)
{
	struct mlx5dm_counters *c, *d, *e, *s;
	struct mlx5dm_res_ctx res;
	struct mlx5dm_res_stats st;

	(void)state;
	fres_init();
	ctx_fc(&res, 15, 0x0f);
	/* Log-size bulks where the device has them. */
	c = mlx5dm_res_counters_alloc(&res, 4);
	assert_non_null(c);
	assert_alloc_mbox(4, 0);
	assert_int_equal(mlx5dm_res_counters_size(c), 16);
	assert_int_equal(mlx5dm_res_counter_id(c, 0), FAKE_FC_ID0);
	assert_int_equal(mlx5dm_res_counter_id(c, 5), FAKE_FC_ID0 + 5);
	assert_int_equal(fres_obj(0x939, FAKE_FC_ID0)->range, 16);
	/* log 0 with log support: both fields 0, one counter. */
	s = mlx5dm_counters_alloc((struct mlx5dm_ctx *)(void *)&res, 0);
	assert_non_null(s);
	assert_alloc_mbox(0, 0);
	assert_int_equal(fres_obj(0x939, mlx5dm_res_counter_id(s, 0))->range, 1);
	mlx5dm_res_stats_get(&res, &st);
	assert_int_equal(st.counter_bulks, 2);
	assert_int_equal(mlx5dm_counters_free(c), 0);
	assert_int_equal(mlx5dm_counters_free(s), 0);
	fres_ctx_fini(&res);
	assert_int_equal(fres.live_objs, 0);
	/* Beyond the log maximum (8): the 128-multiple field; 2^9 = 4 x 128. */
	ctx_fc(&res, 8, 0x0f);
	d = mlx5dm_res_counters_alloc(&res, 9);
	assert_non_null(d);
	assert_alloc_mbox(0, 4);
	assert_int_equal(mlx5dm_res_counters_size(d), 512);
	assert_int_equal(mlx5dm_counters_free(d), 0);
	fres_ctx_fini(&res);
	/* No log sizes: small requests round up to 128, 2^10 -> 8 x 128. */
	ctx_fc(&res, 0, 0x0f);
	d = mlx5dm_res_counters_alloc(&res, 3);
	assert_non_null(d);
	assert_alloc_mbox(0, 1);
	assert_int_equal(mlx5dm_res_counters_size(d), 8);
	assert_int_equal(fres_obj(0x939, mlx5dm_res_counter_id(d, 0))->range, 128);
	e = mlx5dm_res_counters_alloc(&res, 10);
	assert_non_null(e);
	assert_alloc_mbox(0, 8);
	/* The fake aligns bulk bases to their size, like the model: ids follow that. */
	assert_int_equal(mlx5dm_res_counter_id(e, 0) % 1024, 0);
	s = mlx5dm_res_counters_alloc(&res, 0);
	assert_non_null(s);
	assert_alloc_mbox(0, 0);
	/* 2^11 = 16 x 128: not in the bitmap (128..1024). */
	test_log_start();
	assert_null(mlx5dm_res_counters_alloc(&res, 11));
	assert_int_equal(errno, ENOTSUP);
	assert_non_null(strstr(test_log_last(), "no flow counter bulk of 2^11"));
	test_log_stop();
	assert_int_equal(fres_count(0x939), 6); /* 2 + 1 + 3 bulks over the three contexts */
	assert_int_equal(mlx5dm_counters_free(d), 0);
	assert_int_equal(mlx5dm_counters_free(e), 0);
	assert_int_equal(mlx5dm_counters_free(s), 0);
	/* DEALLOC through devx_obj_destroy: 6 bulks, plus 2 transport domains. */
	assert_int_equal(fres.destroys, 8);
	fres_ctx_fini(&res);
	fres_fini();
}

/* QUERY_FLOW_COUNTER image: 32 bytes, flow_counter_id at 0xe0, num_of_counters at 0xc2. */
static void
assert_query_mbox(const struct fake_rec *r, uint32_t id, uint32_t num)
{
	uint8_t exp[32] = { 0 };

	fres_put(exp, 0x00, 16, 0x93b);
	fres_put(exp, 0xc2, 30, num);
	fres_put(exp, 0xe0, 32, id);
	fres_assert_mbox(r, exp, sizeof(exp));
	assert_int_equal(r->how, 'q');
	assert_int_equal(r->outlen, 16 + 16 * (num == 0 ? 1 : num));
}

/* The i-th most recent recorded command (1 = last). */
static const struct fake_rec *
rec_back(unsigned int i)
{
	return &fres.recs[(fres.nrecs - i) % FAKE_REC_MAX];
}

static void
test_counter_query(void **state)
{
	uint64_t pk[300], by[300];
	struct mlx5dm_res_ctx res;
	struct mlx5dm_counters *c;
	uint32_t base;
	unsigned int i, before;

	(void)state;
	fres_init();
	ctx_fc(&res, 15, 0x0f);
	c = mlx5dm_res_counters_alloc(&res, 9);
	assert_non_null(c);
	base = mlx5dm_res_counter_id(c, 0);
	/* One counter: num_of_counters 0, values decoded as 64-bit. */
	assert_int_equal(mlx5dm_counters_query(c, 5, &pk[0], &by[0]), 0);
	assert_query_mbox(fres_last(0x93b), base + 5, 0);
	assert_true(pk[0] == FAKE_FC_PACKETS(base + 5));
	assert_true(by[0] == FAKE_FC_BYTES(base + 5));
	assert_true(by[0] > UINT32_MAX);
	/* A range from an unaligned index: read from the 4-aligned id below it. */
	before = fres.nrecs;
	assert_int_equal(mlx5dm_res_counters_query(c, 5, 10, pk, by), 0);
	assert_int_equal(fres.nrecs - before, 1);
	assert_query_mbox(fres_last(0x93b), base + 4, 11);
	for (i = 0; i < 10; i++) {
		assert_true(pk[i] == FAKE_FC_PACKETS(base + 5 + i));
		assert_true(by[i] == FAKE_FC_BYTES(base + 5 + i));
	}
	/* 300 counters from index 3: chunks of at most 128 read, each 4-aligned. */
	before = fres.nrecs;
	assert_int_equal(mlx5dm_res_counters_query(c, 3, 300, pk, by), 0);
	assert_int_equal(fres.nrecs - before, 3);
	assert_query_mbox(rec_back(3), base + 0, 128);
	assert_query_mbox(rec_back(2), base + 128, 128);
	assert_query_mbox(rec_back(1), base + 256, 47);
	for (i = 0; i < 300; i++) {
		assert_true(pk[i] == FAKE_FC_PACKETS(base + 3 + i));
		assert_true(by[i] == FAKE_FC_BYTES(base + 3 + i));
	}
	/* The last counter alone, and a range ending at the bulk's end. */
	assert_int_equal(mlx5dm_res_counters_query(c, 511, 1, pk, by), 0);
	assert_true(pk[0] == FAKE_FC_PACKETS(base + 511));
	assert_int_equal(mlx5dm_res_counters_query(c, 509, 3, pk, by), 0);
	assert_query_mbox(fres_last(0x93b), base + 508, 4);
	assert_true(pk[2] == FAKE_FC_PACKETS(base + 511));
	/* Out of range: nothing sent. */
	before = fres.nrecs;
	assert_int_equal(mlx5dm_res_counters_query(c, 512, 1, pk, by), -EINVAL);
	assert_int_equal(mlx5dm_res_counters_query(c, 500, 13, pk, by), -EINVAL);
	assert_int_equal(mlx5dm_res_counters_query(c, 0, 0, pk, by), -EINVAL);
	assert_int_equal(mlx5dm_res_counters_query(c, 0, 1, NULL, by), -EINVAL);
	assert_int_equal(mlx5dm_res_counters_query(NULL, 0, 1, pk, by), -EINVAL);
	assert_int_equal(fres.nrecs, before);
	assert_int_equal(mlx5dm_counters_free(c), 0);
	/* A bulk of 2: ranges are read one counter at a time. */
	c = mlx5dm_res_counters_alloc(&res, 1);
	assert_non_null(c);
	base = mlx5dm_res_counter_id(c, 0);
	before = fres.nrecs;
	assert_int_equal(mlx5dm_res_counters_query(c, 0, 2, pk, by), 0);
	assert_int_equal(fres.nrecs - before, 2);
	assert_query_mbox(rec_back(2), base, 0);
	assert_query_mbox(rec_back(1), base + 1, 0);
	assert_true(pk[1] == FAKE_FC_PACKETS(base + 1) && by[1] == FAKE_FC_BYTES(base + 1));
	assert_int_equal(mlx5dm_counters_free(c), 0);
	fres_ctx_fini(&res);
	fres_fini();
}

static void
test_counter_errors(void **state)
{
	struct mlx5dm_res_ctx res;
	struct mlx5dm_counters *c;
	uint64_t p = 0, b = 0;

	(void)state;
	fres_init();
	ctx_fc(&res, 15, 0x0f);
	assert_null(mlx5dm_res_counters_alloc(&res, 24));
	assert_int_equal(errno, EINVAL);
	assert_null(mlx5dm_counters_alloc(NULL, 1));
	assert_int_equal(errno, EINVAL);
	assert_int_equal(mlx5dm_counters_free(NULL), -EINVAL);
	test_log_start();
	fres_fail(0x939, 1, 0x08, 0x3901);                      /* LIMITS -> ENOMEM */
	assert_null(mlx5dm_res_counters_alloc(&res, 4));
	assert_int_equal(errno, ENOMEM);
	assert_string_equal(test_log_last(), "res: ALLOC_FLOW_COUNTER failed: Cannot allocate "
			    "memory (status 0x8, syndrome 0x3901)");
	mlx5dm_alloc_fail_at(1);
	assert_null(mlx5dm_res_counters_alloc(&res, 4));
	assert_int_equal(errno, ENOMEM);
	mlx5dm_alloc_fail_at(0);
	assert_int_equal(fres.live_objs, 1);
	c = mlx5dm_res_counters_alloc(&res, 4);
	assert_non_null(c);
	fres_fail(0x93b, 1, 0x03, 0x3b01);
	assert_int_equal(mlx5dm_counters_query(c, 1, &p, &b), -EINVAL);
	assert_non_null(strstr(test_log_last(), "QUERY_FLOW_COUNTER failed"));
	assert_non_null(strstr(test_log_last(), "syndrome 0x3b01"));
	/* A failed chunk fails the range. */
	fres_fail(0x93b, 2, 0x01, 0x3b02);
	{
		uint64_t pk[16], by[16];

		assert_int_equal(mlx5dm_res_counters_query(c, 0, 16, pk, by), 0);
		assert_int_equal(mlx5dm_res_counters_query(c, 0, 16, pk, by), -EIO);
	}
	assert_int_equal(test_log_errors(), 3);
	test_log_stop();
	assert_int_equal(mlx5dm_counters_free(c), 0);
	fres_ctx_fini(&res);
	fres_fini();
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counter_alloc),
		cmocka_unit_test(test_counter_query),
		cmocka_unit_test(test_counter_errors),
	};

	return cmocka_run_group_tests_name("res_counter", tests, NULL, NULL);
}
