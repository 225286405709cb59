/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Packet reformat contexts against the fake device: the
 * ALLOC_PACKET_REFORMAT_CONTEXT mailbox byte for byte (mlx5_ifc offsets:
 * context at byte 28, reformat_type DW0[7:5], reformat_data_size DW0[9:0],
 * data from byte 34, length 36 + size - 2 rounded up to 4), the id, the
 * firmware's refusal mapped to an errno with nothing left behind, destroy.
 */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <cmocka.h>

#include "test_res_fake.h"

static void
assert_prc_mbox(unsigned int type, const uint8_t *data, unsigned int size, size_t inlen)
{
	uint8_t exp[256] = { 0 };
	const struct fake_rec *r = fres_last(0x93d);

	fres_put(exp, 0x00, 16, 0x93d);
	fres_put(exp, 0xe5, 3, type);
	fres_put(exp, 0xf6, 10, size);
	memcpy(exp + 34, data, size);
	assert_int_equal(r->inlen, inlen);
	fres_assert_mbox(r, exp, inlen);
	assert_int_equal(r->outlen, 16);
}

static void
test_reformat_alloc(void **state)
{
	struct mlx5dm_res_reformat *a, *b;
	struct mlx5dm_res_stats st;
	struct mlx5dm_res_ctx res;
	uint8_t hdr[130];
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(hdr); i++)
		hdr[i] = (uint8_t)(i * 7 + 1);
	fres_init();
	fres_ctx(&res);
	assert_int_equal(mlx5dm_res_reformat_alloc(&res, 2, hdr, 50, &a), 0);
	assert_prc_mbox(2, hdr, 50, 84);
	assert_int_equal(mlx5dm_res_reformat_id(a), FAKE_PRC_ID0);
	assert_int_equal(fres_obj(0x93d, FAKE_PRC_ID0)->range, 50);
	/* Two bytes fit the fixed part; 39 rounds the mailbox up to 76. */
	assert_int_equal(mlx5dm_res_reformat_alloc(&res, 4, hdr + 3, 2, &b), 0);
	assert_prc_mbox(4, hdr + 3, 2, 36);
	assert_int_equal(mlx5dm_res_reformat_free(b), 0);
	assert_int_equal(mlx5dm_res_reformat_alloc(&res, 4, hdr, 39, &b), 0);
	assert_prc_mbox(4, hdr, 39, 76);
	assert_int_equal(mlx5dm_res_reformat_id(b), FAKE_PRC_ID0 + 2);
	mlx5dm_res_stats_get(&res, &st);
	assert_int_equal(st.reformats, 2);
	/* The context refuses to close while they live. */
	assert_int_equal(mlx5dm_res_ctx_fini(&res), -EBUSY);
	assert_int_equal(mlx5dm_res_reformat_free(a), 0);
	assert_int_equal(mlx5dm_res_reformat_free(b), 0);
	assert_null(fres_obj(0x93d, FAKE_PRC_ID0));
	mlx5dm_res_stats_get(&res, &st);
	assert_int_equal(st.reformats, 0);
	assert_int_equal(mlx5dm_res_reformat_free(NULL), 0);
	fres_ctx_fini(&res);
	assert_int_equal(fres.live_objs, 0);
	fres_fini();
}

static void
test_reformat_errors(void **state)
{
	struct mlx5dm_res_reformat *a = NULL;
	struct mlx5dm_res_stats st;
	struct mlx5dm_res_ctx res;
	uint8_t hdr[64] = { 0 };

	(void)state;
	fres_init();
	fres_ctx(&res);
	/* Sizes the mailbox cannot carry. */
	assert_int_equal(mlx5dm_res_reformat_alloc(&res, 2, hdr, 1, &a), -EINVAL);
	assert_int_equal(mlx5dm_res_reformat_alloc(&res, 2, hdr, 1024, &a), -EINVAL);
	assert_int_equal(mlx5dm_res_reformat_alloc(&res, 2, NULL, 50, &a), -EINVAL);
	assert_int_equal(fres_count(0x93d), 0);
	/* The firmware's refusal: status -> errno, nothing allocated or counted. */
	fres_fail(0x93d, 1, 0x08, 0x1234);
	assert_int_equal(mlx5dm_res_reformat_alloc(&res, 2, hdr, 50, &a), -ENOMEM);
	assert_null(a);
	assert_int_equal(mlx5dm_res_reformat_alloc(&res, 3, hdr, 50, &a), -EINVAL);
	mlx5dm_res_stats_get(&res, &st);
	assert_int_equal(st.reformats, 0);
	assert_int_equal(fres.live_objs, 1);        /* the transport domain only */
	fres_ctx_fini(&res);
	fres_fini();
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reformat_alloc),
		cmocka_unit_test(test_reformat_errors),
	};

	return cmocka_run_group_tests_name("res_reformat", tests, NULL, NULL);
}
