/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Resource context, SW-owned flow tables, the root-table connection and
 * SYNC_STEERING against the fake device: exact mailbox images (expected
 * bytes written here at literal mlx5_ifc.h offsets), device answers
 * decoded, errors turned into -errno with a log line, nothing leaked.
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

#define ROOT_RX 0x0001000000004000ull
#define ROOT_TX 0x0001000000084000ull

static void
test_ctx_init_fini(void **state)
{
	struct mlx5dm_res_ctx res;
	uint8_t exp[16] = { 0 };

	(void)state;
	fres_init();
	fres_ctx(&res);
	assert_int_equal(fres.pd_allocs, 1);
	assert_int_equal(mlx5dm_res_pdn(&res), FAKE_PDN);
	assert_int_equal(res.tdn, FAKE_TDN);
	/* ALLOC_TRANSPORT_DOMAIN: the opcode and nothing else. */
	fres_put(exp, 0x00, 16, 0x816);
	fres_assert_mbox(fres_last(0x816), exp, sizeof(exp));
	assert_int_equal(fres_last(0x816)->outlen, 16);
	assert_int_equal(fres.live_objs, 1);
	fres_ctx_fini(&res);
	assert_int_equal(fres.pd_frees, 1);
	assert_int_equal(fres.live_objs, 0);
	fres_fini();
}

static void
test_ctx_given_pd(void **state)
{
	struct mlx5dm_res_attr a;
	struct mlx5dm_res_ctx res;
	struct ibv_pd *pd;

	(void)state;
	fres_init();
	/* A PD given by the caller is neither allocated nor freed by the context. */
	pd = fres.dev.ops->alloc_pd(fres.dev.ctx);
	a = fres_attr();
	a.pd = pd;
	assert_int_equal(mlx5dm_res_ctx_init(&res, &a), 0);
	assert_ptr_equal(mlx5dm_res_pd(&res), pd);
	assert_int_equal(mlx5dm_res_pdn(&res), FAKE_PDN);
	fres_ctx_fini(&res);
	assert_int_equal(fres.pd_allocs, 1);
	assert_int_equal(fres.pd_frees, 0);
	fres.dev.ops->dealloc_pd(pd);
	fres_fini();
}

static void
test_ctx_errors(void **state)
{
	struct mlx5dm_res_attr a = { 0 };
	struct mlx5dm_res_ctx res;

	(void)state;
	fres_init();
	assert_int_equal(mlx5dm_res_ctx_init(&res, &a), -EINVAL);
	assert_int_equal(mlx5dm_res_ctx_init(NULL, &a), -EINVAL);
	test_log_start();
	fres.fail_pd = true;
	a = fres_attr();
	assert_int_equal(mlx5dm_res_ctx_init(&res, &a), -ENOMEM);
	fres.fail_pd = false;
	fres.fail_init_obj = true;
	assert_int_equal(mlx5dm_res_ctx_init(&res, &a), -EOPNOTSUPP);
	assert_non_null(strstr(test_log_last(), "init_obj"));
	fres.fail_init_obj = false;
	/* Firmware refuses the transport domain: NO_RESOURCES -> ENOSPC, syndrome logged. */
	fres_fail(0x816, 1, 0x0f, 0x00c0ffee);
	assert_int_equal(mlx5dm_res_ctx_init(&res, &a), -ENOSPC);
	assert_non_null(strstr(test_log_last(), "ALLOC_TRANSPORT_DOMAIN"));
	assert_non_null(strstr(test_log_last(), "status 0xf"));
	assert_non_null(strstr(test_log_last(), "syndrome 0xc0ffee"));
	assert_int_equal(test_log_errors(), 3);
	test_log_stop();
	assert_int_equal(fres.pd_allocs, 2);
	assert_int_equal(fres.pd_frees, 2);
	fres_fini();
}

/* The expected CREATE_FLOW_TABLE image (create_flow_table_in, mlx5_ifc.h). */
static void
exp_ft(uint8_t *exp, unsigned int type, unsigned int level, uint64_t root0, uint64_t root1)
{
	memset(exp, 0, 64);
	fres_put(exp, 0x00, 16, 0x930);    /* opcode */
	fres_put(exp, 0x80, 8, type);      /* table_type */
	fres_put(exp, 0xc2, 1, 1);         /* flow_table_context.sw_owner */
	fres_put(exp, 0xc8, 8, level);     /* flow_table_context.level */
	fres_put(exp, 0x180, 64, root1);   /* flow_table_context.sw_owner_icm_root_1 */
	fres_put(exp, 0x1c0, 64, root0);   /* flow_table_context.sw_owner_icm_root_0 */
}

static void
test_ft_mailboxes(void **state)
{
	struct mlx5dm_res_ft *rx, *tx, *fdb;
	struct mlx5dm_res_ctx res;
	struct mlx5dm_res_stats st;
	uint8_t exp[64];
	uint64_t r0, r1;

	(void)state;
	fres_init();
	fres_ctx(&res);
	assert_int_equal(mlx5dm_res_ft_create(&res, MLX5DM_DOMAIN_NIC_RX, 3, ROOT_RX, 0, &rx), 0);
	exp_ft(exp, 0, 3, ROOT_RX, 0);
	fres_assert_mbox(fres_last(0x930), exp, 64);
	assert_int_equal(fres_last(0x930)->outlen, 16);
	assert_int_equal(mlx5dm_res_ft_id(rx), FAKE_FT_ID0);
	/* NIC TX: the TX anchor goes into root_0; a root_1 given is not sent. */
	assert_int_equal(mlx5dm_res_ft_create(&res, MLX5DM_DOMAIN_NIC_TX, 254, ROOT_TX, ROOT_RX,
					      &tx), 0);
	exp_ft(exp, 1, 254, ROOT_TX, 0);
	fres_assert_mbox(fres_last(0x930), exp, 64);
	assert_int_equal(mlx5dm_res_ft_id(tx), FAKE_FT_ID0 + 1);
	/* FDB: RX anchor in root_0, TX anchor in root_1. */
	assert_int_equal(mlx5dm_res_ft_create(&res, MLX5DM_DOMAIN_FDB, 1, ROOT_RX, ROOT_TX, &fdb),
			 0);
	exp_ft(exp, 4, 1, ROOT_RX, ROOT_TX);
	fres_assert_mbox(fres_last(0x930), exp, 64);
	/* QUERY_FLOW_TABLE reads back what the device holds. */
	assert_int_equal(mlx5dm_res_ft_query(fdb, &r0, &r1), 0);
	assert_true(r0 == ROOT_RX && r1 == ROOT_TX);
	memset(exp, 0, sizeof(exp));
	fres_put(exp, 0x00, 16, 0x932);
	fres_put(exp, 0x80, 8, 4);
	fres_put(exp, 0xa8, 24, mlx5dm_res_ft_id(fdb));
	fres_assert_mbox(fres_last(0x932), exp, 64);
	assert_int_equal(fres_last(0x932)->how, 'q');
	assert_int_equal(fres_last(0x932)->outlen, 64);
	assert_int_equal(mlx5dm_res_ft_query(tx, &r0, &r1), 0);
	assert_true(r0 == ROOT_TX && r1 == 0);
	mlx5dm_res_stats_get(&res, &st);
	assert_int_equal(st.fts, 3);
	/* The context does not close under live tables. */
	test_log_start();
	assert_int_equal(mlx5dm_res_ctx_fini(&res), -EBUSY);
	assert_non_null(strstr(test_log_last(), "3 tables"));
	test_log_stop();
	assert_int_equal(mlx5dm_res_ft_destroy(rx), 0);
	assert_int_equal(mlx5dm_res_ft_destroy(tx), 0);
	assert_int_equal(mlx5dm_res_ft_destroy(fdb), 0);
	assert_null(fres_obj(0x930, FAKE_FT_ID0));
	fres_ctx_fini(&res);
	fres_fini();
}

static void
test_ft_errors(void **state)
{
	struct mlx5dm_res_ft *ft = NULL;
	struct mlx5dm_res_ctx res;
	unsigned int sent;
	uint64_t r0, r1;

	(void)state;
	fres_init();
	fres_ctx(&res);
	sent = fres.nrecs;
	/* Bad arguments never reach the device. */
	assert_int_equal(mlx5dm_res_ft_create(&res, MLX5DM_DOMAIN_NIC_RX, 0, ROOT_RX, 0, &ft),
			 -EINVAL);
	assert_int_equal(mlx5dm_res_ft_create(&res, MLX5DM_DOMAIN_NIC_RX, 256, ROOT_RX, 0, &ft),
			 -EINVAL);
	assert_int_equal(mlx5dm_res_ft_create(&res, MLX5DM_DOMAIN_NIC_RX, 1, 0, 0, &ft), -EINVAL);
	assert_int_equal(mlx5dm_res_ft_create(&res, MLX5DM_DOMAIN_FDB, 1, ROOT_RX, 0, &ft),
			 -EINVAL);
	assert_int_equal(mlx5dm_res_ft_create(&res, (enum mlx5dm_domain_type)7, 1, ROOT_RX, 0,
					      &ft), -EINVAL);
	assert_int_equal(fres.nrecs, sent);
	/* Host allocation failure: nothing sent either. */
	mlx5dm_alloc_fail_at(1);
	assert_int_equal(mlx5dm_res_ft_create(&res, MLX5DM_DOMAIN_NIC_RX, 1, ROOT_RX, 0, &ft),
			 -ENOMEM);
	mlx5dm_alloc_fail_at(0);
	assert_int_equal(fres.nrecs, sent);
	test_log_start();
	/* Firmware: BAD_PARAM -> EINVAL, with the command, status and syndrome logged. */
	fres_fail(0x930, 1, 0x03, 0x1234abcd);
	assert_int_equal(mlx5dm_res_ft_create(&res, MLX5DM_DOMAIN_NIC_RX, 1, ROOT_RX, 0, &ft),
			 -EINVAL);
	assert_string_equal(test_log_last(), "res: CREATE_FLOW_TABLE failed: Invalid argument "
			    "(status 0x3, syndrome 0x1234abcd)");
	/* A transport error without a firmware status keeps its errno. */
	fres_fail(0x930, 1, 0, 0);
	fres.fail_errno = ENOSPC;
	assert_int_equal(mlx5dm_res_ft_create(&res, MLX5DM_DOMAIN_NIC_RX, 1, ROOT_RX, 0, &ft),
			 -ENOSPC);
	assert_non_null(strstr(test_log_last(), "status 0x0"));
	/* Unknown firmware status: EIO. */
	fres_fail(0x930, 1, 0x42, 7);
	assert_int_equal(mlx5dm_res_ft_create(&res, MLX5DM_DOMAIN_NIC_RX, 1, ROOT_RX, 0, &ft),
			 -EIO);
	assert_int_equal(fres.live_objs, 1); /* the transport domain only */
	/* Query failure. */
	assert_int_equal(mlx5dm_res_ft_create(&res, MLX5DM_DOMAIN_NIC_RX, 1, ROOT_RX, 0, &ft), 0);
	fres_fail(0x932, 1, 0x05, 0x77);
	assert_int_equal(mlx5dm_res_ft_query(ft, &r0, &r1), -EINVAL);
	assert_non_null(strstr(test_log_last(), "QUERY_FLOW_TABLE"));
	assert_int_equal(test_log_errors(), 4);
	test_log_stop();
	assert_int_equal(mlx5dm_res_ft_destroy(ft), 0);
	assert_int_equal(mlx5dm_res_ft_destroy(NULL), -EINVAL);
	fres_ctx_fini(&res);
	fres_fini();
}

/* The one live root rule's matcher and flow, asserted. */
static void
assert_root_rule(enum mlx5dv_flow_table_type ft_type, uint16_t prio, uint32_t ft_id)
{
	unsigned int i, n = 0;

	for (i = 0; i < FAKE_MAX_FLOWS; i++) {
		const struct fake_flow *f = &fres.flows[i];

		if (!f->live)
			continue;
		n++;
		assert_int_equal(f->m->attr.type, IBV_FLOW_ATTR_NORMAL);
		assert_int_equal(f->m->attr.ft_type, ft_type);
		assert_int_equal(f->m->attr.comp_mask, MLX5DV_FLOW_MATCHER_MASK_FT_TYPE);
		assert_int_equal(f->m->attr.priority, prio);
		assert_int_equal(f->m->attr.match_criteria_enable, 0);
		assert_int_equal(f->m->attr.flags, 0);
		assert_int_equal(f->m->mask_sz, 512);   /* sizeof(fte_match_param) */
		assert_true(f->m->mask_zero);
		assert_int_equal(f->value_sz, 512);
		assert_true(f->value_zero);
		assert_int_equal(f->nactions, 1);
		assert_int_equal(f->action_type, MLX5DV_FLOW_ACTION_DEST_DEVX);
		assert_int_equal(f->dest->id, ft_id);
	}
	assert_int_equal(n, 1);
	assert_int_equal(fres.live_matchers, 1);
}

static void
test_root_connect(void **state)
{
	struct mlx5dm_res_ft *a, *b, *t;
	struct mlx5dm_res_root rx, tx;
	struct mlx5dm_res_ctx res;
	struct mlx5dm_res_stats st;
	const uint32_t seq[] = { FAKE_FT_ID0, FAKE_FT_ID0, FAKE_FT_ID0 + 1, FAKE_FT_ID0,
				 FAKE_FT_ID0, 0 };
	unsigned int i;

	(void)state;
	fres_init();
	fres_ctx(&res);
	assert_int_equal(mlx5dm_res_ft_create(&res, MLX5DM_DOMAIN_NIC_RX, 1, ROOT_RX, 0, &a), 0);
	assert_int_equal(mlx5dm_res_ft_create(&res, MLX5DM_DOMAIN_NIC_RX, 1, ROOT_RX + 64, 0, &b),
			 0);
	mlx5dm_res_root_init(&rx, &res, MLX5DM_DOMAIN_NIC_RX, 5);
	assert_int_equal(mlx5dm_res_root_set(&rx, a), 0);
	assert_root_rule(MLX5DV_FLOW_TABLE_TYPE_NIC_RX, 5, FAKE_FT_ID0);
	/* The device will not destroy a table a root rule forwards to. */
	test_log_start();
	assert_int_equal(mlx5dm_res_ft_destroy(a), -EREMOTEIO);
	assert_non_null(strstr(test_log_last(), "flow table 0x10 destroy failed"));
	test_log_stop();
	/* Replace: the new rule (priority 6) is in before the old one (5) goes. */
	assert_int_equal(mlx5dm_res_root_set(&rx, b), 0);
	assert_root_rule(MLX5DV_FLOW_TABLE_TYPE_NIC_RX, 6, FAKE_FT_ID0 + 1);
	/* Back to a: priority 5 wins at once, then the rule at 6 goes. */
	assert_int_equal(mlx5dm_res_root_set(&rx, a), 0);
	assert_root_rule(MLX5DV_FLOW_TABLE_TYPE_NIC_RX, 5, FAKE_FT_ID0);
	/* Same target: nothing to do. */
	i = fres.nroot_active;
	assert_int_equal(mlx5dm_res_root_set(&rx, a), 0);
	assert_int_equal(fres.nroot_active, i);
	mlx5dm_res_stats_get(&res, &st);
	assert_int_equal(st.roots, 1);
	assert_int_equal(mlx5dm_res_root_set(&rx, NULL), 0);
	assert_int_equal(mlx5dm_res_root_set(&rx, NULL), 0);
	assert_int_equal(fres.live_flows, 0);
	assert_int_equal(fres.live_matchers, 0);
	/* Entry table after every rule change: never none while switching. */
	assert_int_equal(fres.nroot_active, MLX5DM_ARRAY_SIZE(seq));
	for (i = 0; i < MLX5DM_ARRAY_SIZE(seq); i++)
		assert_int_equal(fres.root_active[i], seq[i]);
	assert_int_equal(fres.same_prio, 0);
	/* NIC TX maps to the NIC TX root. */
	assert_int_equal(mlx5dm_res_ft_create(&res, MLX5DM_DOMAIN_NIC_TX, 1, ROOT_TX, 0, &t), 0);
	mlx5dm_res_root_init(&tx, &res, MLX5DM_DOMAIN_NIC_TX, 0);
	assert_int_equal(mlx5dm_res_root_set(&tx, t), 0);
	assert_root_rule(MLX5DV_FLOW_TABLE_TYPE_NIC_TX, 0, mlx5dm_res_ft_id(t));
	assert_int_equal(mlx5dm_res_root_set(&tx, NULL), 0);
	mlx5dm_res_stats_get(&res, &st);
	assert_int_equal(st.roots, 0);
	assert_int_equal(mlx5dm_res_ft_destroy(a), 0);
	assert_int_equal(mlx5dm_res_ft_destroy(b), 0);
	assert_int_equal(mlx5dm_res_ft_destroy(t), 0);
	fres_ctx_fini(&res);
	fres_fini();
}

static void
test_root_errors(void **state)
{
	struct mlx5dm_res_ft *a, *b;
	struct mlx5dm_res_root rx;
	struct mlx5dm_res_ctx res;

	(void)state;
	fres_init();
	fres_ctx(&res);
	assert_int_equal(mlx5dm_res_ft_create(&res, MLX5DM_DOMAIN_NIC_RX, 1, ROOT_RX, 0, &a), 0);
	assert_int_equal(mlx5dm_res_ft_create(&res, MLX5DM_DOMAIN_NIC_RX, 1, ROOT_TX, 0, &b), 0);
	mlx5dm_res_root_init(&rx, &res, MLX5DM_DOMAIN_NIC_RX, 0xffff);
	assert_int_equal(mlx5dm_res_root_set(&rx, a), -EINVAL);
	mlx5dm_res_root_init(&rx, &res, MLX5DM_DOMAIN_NIC_RX, 0);
	test_log_start();
	/* Matcher refused: no rule, errno kept, logged. */
	fres.fail_matcher = EOPNOTSUPP;
	assert_int_equal(mlx5dm_res_root_set(&rx, a), -EOPNOTSUPP);
	assert_non_null(strstr(test_log_last(), "root matcher"));
	fres.fail_matcher = 0;
	/* Rule refused: the matcher goes again. */
	fres.fail_flow = EINVAL;
	assert_int_equal(mlx5dm_res_root_set(&rx, a), -EINVAL);
	assert_int_equal(fres.live_matchers, 0);
	assert_null(rx.ft);
	/* Host allocation (the zero match blob). */
	mlx5dm_alloc_fail_at(1);
	assert_int_equal(mlx5dm_res_root_set(&rx, a), -ENOMEM);
	mlx5dm_alloc_fail_at(0);
	assert_int_equal(mlx5dm_res_root_set(&rx, a), 0);
	/* A failed replacement keeps the old entry. */
	fres.fail_flow = EINVAL;
	assert_int_equal(mlx5dm_res_root_set(&rx, b), -EINVAL);
	assert_root_rule(MLX5DV_FLOW_TABLE_TYPE_NIC_RX, 0, FAKE_FT_ID0);
	/* Old rule not removable: the new one is taken out again, a stays. */
	fres.fail_destroy_flow = EIO;
	assert_int_equal(mlx5dm_res_root_set(&rx, b), -EIO);
	assert_root_rule(MLX5DV_FLOW_TABLE_TYPE_NIC_RX, 0, FAKE_FT_ID0);
	assert_ptr_equal(rx.ft, a);
	/* Removal refused: still connected. */
	fres.fail_destroy_flow = EIO;
	assert_int_equal(mlx5dm_res_root_set(&rx, NULL), -EIO);
	assert_ptr_equal(rx.ft, a);
	assert_int_equal(test_log_errors(), 5);
	test_log_stop();
	assert_int_equal(mlx5dm_res_root_set(&rx, b), 0);
	assert_root_rule(MLX5DV_FLOW_TABLE_TYPE_NIC_RX, 1, FAKE_FT_ID0 + 1);
	assert_int_equal(mlx5dm_res_root_set(&rx, NULL), 0);
	assert_int_equal(fres.same_prio, 0);
	assert_int_equal(mlx5dm_res_ft_destroy(a), 0);
	assert_int_equal(mlx5dm_res_ft_destroy(b), 0);
	fres_ctx_fini(&res);
	fres_fini();
}

static void
test_sync_steering(void **state)
{
	struct mlx5dm_res_ctx res;
	uint8_t exp[32] = { 0 };

	(void)state;
	fres_init();
	fres_ctx(&res);
	assert_int_equal(mlx5dm_res_sync_steering(&res), 0);
	assert_int_equal(fres.syncs, 1);
	/* sync_steering_in: 32 bytes, only the opcode; through the general command. */
	fres_put(exp, 0x00, 16, 0xb00);
	fres_assert_mbox(fres_last(0xb00), exp, sizeof(exp));
	assert_int_equal(fres_last(0xb00)->how, 'g');
	assert_int_equal(fres_last(0xb00)->outlen, 16);
	test_log_start();
	fres_fail(0xb00, 1, 0x01, 0xabc);      /* INTERNAL_ERR -> EIO */
	assert_int_equal(mlx5dm_res_sync_steering(&res), -EIO);
	assert_string_equal(test_log_last(), "res: SYNC_STEERING failed: Input/output error "
			    "(status 0x1, syndrome 0xabc)");
	fres_fail(0xb00, 1, 0, 0);
	fres.fail_errno = ETIMEDOUT;
	assert_int_equal(mlx5dm_res_sync_steering(&res), -ETIMEDOUT);
	test_log_stop();
	assert_int_equal(fres.syncs, 1);
	fres_ctx_fini(&res);
	fres_fini();
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ctx_init_fini),
		cmocka_unit_test(test_ctx_given_pd),
		cmocka_unit_test(test_ctx_errors),
		cmocka_unit_test(test_ft_mailboxes),
		cmocka_unit_test(test_ft_errors),
		cmocka_unit_test(test_root_connect),
		cmocka_unit_test(test_root_errors),
		cmocka_unit_test(test_sync_steering),
	};

	return cmocka_run_group_tests_name("res_ft", tests, NULL, NULL);
}
