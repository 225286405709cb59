/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Receive objects against the fake device: RQ (CREATE_CQ, CREATE_RQ,
 * MODIFY_RQ RST->RDY), RQT and TIR (direct and RSS, outer and inner hash),
 * the TIR ICM address decoded from CREATE_TIR's output, references the
 * device enforces, and every error path leaving nothing behind. Expected
 * mailboxes are written here at literal offsets (DPDK mlx5_prm.h: rqc,
 * wq, rqtc, tirc; mlx5_ifc.h: cqc).
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

#define EQN 7

static void
ctx_with_eqn(struct mlx5dm_res_ctx *res, uint8_t ts_cap)
{
	struct mlx5dm_res_attr a = fres_attr();

	a.eqn = EQN;
	a.rq_ts_format = ts_cap;
	assert_int_equal(mlx5dm_res_ctx_init(res, &a), 0);
}

/* create_cq_in: cq_context at 0x80, umem fields at 0x280. */
static void
exp_cq(uint8_t *exp, uint32_t log, uint32_t buf_umem, uint32_t dbr_umem)
{
	memset(exp, 0, 272);
	fres_put(exp, 0x00, 16, 0x400);
	fres_put(exp, 0x80 + 0x06, 1, 1);          /* dbr_umem_valid */
	fres_put(exp, 0x80 + 0x08, 3, 0);          /* cqe_sz: 64 bytes */
	fres_put(exp, 0x80 + 0x20, 32, dbr_umem);  /* dbr_umem_id */
	fres_put(exp, 0x80 + 0x63, 5, log);        /* log_cq_size */
	fres_put(exp, 0x80 + 0x68, 24, FAKE_UAR_PAGE);
	fres_put(exp, 0x80 + 0xb8, 8, EQN);        /* c_eqn */
	fres_put(exp, 0x80 + 0x1c0, 64, 0);        /* dbr_addr: offset 0 in the dbr umem */
	fres_put(exp, 0x280, 64, 0);               /* cq_umem_offset */
	fres_put(exp, 0x2c0, 32, buf_umem);        /* cq_umem_id */
	fres_put(exp, 0x2e0, 1, 1);                /* cq_umem_valid */
}

/* create_rq_in: rqc at 0x100, wq at 0x280. */
static void
exp_rq(uint8_t *exp, uint32_t log, uint32_t cqn, uint32_t ts, uint32_t wq_umem,
       uint32_t dbr_umem)
{
	memset(exp, 0, 272);
	fres_put(exp, 0x00, 16, 0x908);
	fres_put(exp, 0x103, 1, 1);                /* vsd: no VLAN stripping */
	fres_put(exp, 0x104, 4, 0);                /* mem_rq_type: inline */
	fres_put(exp, 0x108, 4, 0);                /* state: RST */
	fres_put(exp, 0x10d, 1, 1);                /* flush_in_error_en */
	fres_put(exp, 0x11a, 2, ts);               /* ts_format */
	fres_put(exp, 0x148, 24, cqn);
	fres_put(exp, 0x280 + 0x000, 4, 1);        /* wq_type: cyclic */
	fres_put(exp, 0x280 + 0x048, 24, FAKE_PDN);
	fres_put(exp, 0x280 + 0x080, 64, 64);      /* dbr_addr */
	fres_put(exp, 0x280 + 0x10c, 4, 4);        /* log_wq_stride: 16 B */
	fres_put(exp, 0x280 + 0x113, 5, 0);        /* log_wq_pg_sz: 4 KiB */
	fres_put(exp, 0x280 + 0x11b, 5, log);      /* log_wq_sz */
	fres_put(exp, 0x280 + 0x120, 1, 1);        /* dbr_umem_valid */
	fres_put(exp, 0x280 + 0x121, 1, 1);        /* wq_umem_valid */
	fres_put(exp, 0x280 + 0x140, 32, dbr_umem);
	fres_put(exp, 0x280 + 0x160, 32, wq_umem);
	fres_put(exp, 0x280 + 0x180, 64, 0);       /* wq_umem_offset */
}

static void
test_rq_mailboxes(void **state)
{
	struct fake_umem *cqb, *wqb, *dbr;
	struct mlx5dm_res_ctx res;
	struct mlx5dm_res_stats st;
	struct mlx5dm_rq *rq;
	uint8_t exp[272];
	unsigned int i;

	(void)state;
	fres_init();
	ctx_with_eqn(&res, 2);
	rq = mlx5dm_res_rq_create(&res, 9);
	assert_non_null(rq);
	/* Sizes tell the umems apart: CQEs 64 << 9, WQEs 16 << 9, one doorbell page. */
	cqb = fres_umem_by_size(32768);
	wqb = fres_umem_by_size(8192);
	dbr = fres_umem_by_size(4096);
	assert_int_equal(fres.uar_allocs, 1);
	exp_cq(exp, 9, cqb->u.umem_id, dbr->u.umem_id);
	fres_assert_mbox(fres_last(0x400), exp, 272);
	/* CQEs start invalid (opcode 0xf, owner 0). */
	for (i = 0; i < 512; i++)
		assert_int_equal(((uint8_t *)cqb->addr)[i * 64 + 63], 0xf0);
	/* rq_ts_format cap 2 (free running and real time): default format. */
	exp_rq(exp, 9, FAKE_CQ_ID0, 1, wqb->u.umem_id, dbr->u.umem_id);
	fres_assert_mbox(fres_last(0x908), exp, 272);
	/* modify_rq_in: rq_state RST (current), rqn, bitmask 0, rqc.state RDY. */
	memset(exp, 0, sizeof(exp));
	fres_put(exp, 0x00, 16, 0x909);
	fres_put(exp, 0x40, 4, 0);
	fres_put(exp, 0x48, 24, FAKE_RQ_ID0);
	fres_put(exp, 0x80, 64, 0);
	fres_put(exp, 0x108, 4, 1);
	fres_assert_mbox(fres_last(0x909), exp, 272);
	assert_int_equal(fres_last(0x909)->how, 'm');
	assert_int_equal(fres_obj(0x908, FAKE_RQ_ID0)->state, 1);
	assert_int_equal(mlx5dm_rq_number(rq), FAKE_RQ_ID0);
	assert_int_equal(mlx5dm_res_rq_cqn(rq), FAKE_CQ_ID0);
	mlx5dm_res_stats_get(&res, &st);
	assert_int_equal(st.rqs, 1);
	assert_int_equal(mlx5dm_rq_destroy(rq), 0);
	assert_int_equal(fres.live_umems, 0);
	assert_int_equal(fres.live_objs, 1); /* the transport domain */
	fres_ctx_fini(&res);
	fres_fini();
	/* A device with free-running timestamps only: ts_format 0; smallest ring. */
	fres_init();
	ctx_with_eqn(&res, 0);
	rq = mlx5dm_res_rq_create(&res, 1);
	assert_non_null(rq);
	assert_int_equal(mlx5dm_prm_get(fres_last(0x908)->in, 0x11a, 2), 0);
	assert_int_equal(mlx5dm_prm_get(fres_last(0x908)->in, 0x280 + 0x11b, 5), 1);
	assert_int_equal(mlx5dm_prm_get(fres_last(0x400)->in, 0x80 + 0x63, 5), 1);
	assert_int_equal(mlx5dm_rq_destroy(rq), 0);
	fres_ctx_fini(&res);
	fres_fini();
}

static void
test_rq_uar(void **state)
{
	struct mlx5dm_rq *rq1, *rq2;
	struct mlx5dm_res_attr a;
	struct mlx5dm_res_ctx res;
	struct mlx5dv_devx_uar own = { .page_id = FAKE_UAR_PAGE };

	(void)state;
	fres_init();
	fres_ctx(&res);
	/* No UAR until an RQ needs one; NC refused -> BF; then shared by every RQ. */
	assert_int_equal(fres.uar_allocs, 0);
	fres.fail_uar_nc = true;
	rq1 = mlx5dm_res_rq_create(&res, 4);
	rq2 = mlx5dm_res_rq_create(&res, 4);
	assert_true(rq1 != NULL && rq2 != NULL);
	assert_int_equal(fres.uar_allocs, 1);
	assert_int_not_equal(mlx5dm_rq_number(rq1), mlx5dm_rq_number(rq2));
	assert_int_equal(mlx5dm_rq_destroy(rq1), 0);
	assert_int_equal(mlx5dm_rq_destroy(rq2), 0);
	fres_ctx_fini(&res);
	assert_int_equal(fres.uar_frees, 1);
	/* No UAR at all: the RQ fails before anything is created. */
	fres_ctx(&res);
	fres.fail_uar_all = true;
	test_log_start();
	assert_null(mlx5dm_res_rq_create(&res, 4));
	assert_int_equal(errno, ENOMEM);
	assert_non_null(strstr(test_log_last(), "UAR"));
	test_log_stop();
	fres.fail_uar_all = false;
	fres_ctx_fini(&res);
	/* A UAR given by the caller is used and not freed. */
	a = fres_attr();
	a.uar = &own;
	assert_int_equal(mlx5dm_res_ctx_init(&res, &a), 0);
	rq1 = mlx5dm_res_rq_create(&res, 4);
	assert_non_null(rq1);
	assert_int_equal(mlx5dm_prm_get(fres_last(0x400)->in, 0x80 + 0x68, 24), FAKE_UAR_PAGE);
	assert_int_equal(mlx5dm_rq_destroy(rq1), 0);
	fres_ctx_fini(&res);
	assert_int_equal(fres.uar_allocs, 1);
	fres_fini();
}

static void
assert_rq_fails(struct mlx5dm_res_ctx *res, int err, const char *cmd)
{
	test_log_start();
	assert_null(mlx5dm_res_rq_create(res, 5));
	assert_int_equal(errno, err);
	if (cmd != NULL)
		assert_non_null(strstr(test_log_last(), cmd));
	test_log_stop();
	/* Nothing left: no CQ/RQ object, no umem. */
	assert_int_equal(fres.live_objs, 1);
	assert_int_equal(fres.live_umems, 0);
}

static void
test_rq_errors(void **state)
{
	struct mlx5dm_res_ctx res;
	struct mlx5dm_rq *rq;
	uint64_t n;

	(void)state;
	fres_init();
	fres_ctx(&res);
	assert_null(mlx5dm_res_rq_create(&res, 0));
	assert_int_equal(errno, EINVAL);
	assert_null(mlx5dm_res_rq_create(&res, 17));
	assert_int_equal(errno, EINVAL);
	assert_null(mlx5dm_rq_create(NULL, 4));
	assert_int_equal(errno, EINVAL);
	assert_int_equal(mlx5dm_rq_destroy(NULL), -EINVAL);
	fres_fail(0x400, 1, 0x08, 0x4001);               /* LIMITS_EXCEEDED -> ENOMEM */
	assert_rq_fails(&res, ENOMEM, "CREATE_CQ (RQ) failed: Cannot allocate memory "
			"(status 0x8, syndrome 0x4001)");
	fres_fail(0x908, 1, 0x03, 0x9081);
	assert_rq_fails(&res, EINVAL, "CREATE_RQ failed");
	fres_fail(0x909, 1, 0x09, 0x9091);              /* BAD_RES_STATE -> EINVAL */
	assert_rq_fails(&res, EINVAL, "MODIFY_RQ (RST->RDY) failed");
	fres.fail_umem = true;
	assert_rq_fails(&res, ENOSPC, "umem registration");
	fres.fail_umem = false;
	/* Every host allocation of the path, in turn. */
	for (n = 1;; n++) {
		mlx5dm_alloc_fail_at(n);
		rq = mlx5dm_res_rq_create(&res, 5);
		if (rq != NULL)
			break;
		assert_int_equal(errno, ENOMEM);
		assert_int_equal(fres.live_objs, 1);
		assert_int_equal(fres.live_umems, 0);
	}
	mlx5dm_alloc_fail_at(0);
	assert_int_equal(n, 5); /* rq + three buffers fail; the fifth call succeeds */
	assert_int_equal(mlx5dm_rq_destroy(rq), 0);
	fres_ctx_fini(&res);
	fres_fini();
}

/*
 * A datapath MR is ibv_reg_mr in the context's PD with local write (the
 * device writes received frames through it), its lkey is the verbs MR's,
 * the context refuses to close while it lives, and failures leave nothing.
 */
static void
test_mr(void **state)
{
	static uint8_t buf[4096];
	struct mlx5dm_res_ctx res;
	struct mlx5dm_mr *mr;

	(void)state;
	fres_init();
	fres_ctx(&res);
	mr = mlx5dm_res_mr_reg(&res, buf + 64, 1000);
	assert_non_null(mr);
	assert_int_equal(fres.live_mrs, 1);
	assert_ptr_equal(fres.mrs[0].pd, res.pd);
	assert_int_equal(fres.mrs[0].access, IBV_ACCESS_LOCAL_WRITE);
	assert_ptr_equal(fres.mrs[0].mr.addr, buf + 64);
	assert_int_equal(fres.mrs[0].mr.length, 1000);
	assert_int_equal(mlx5dm_mr_lkey(mr), FAKE_LKEY0);
	assert_int_equal(mlx5dm_res_ctx_fini(&res), -EBUSY);
	assert_int_equal(mlx5dm_mr_dereg(mr), 0);
	assert_int_equal(fres.live_mrs, 0);
	assert_int_equal(mlx5dm_mr_dereg(NULL), -EINVAL);
	assert_null(mlx5dm_res_mr_reg(&res, NULL, 10));
	assert_int_equal(errno, EINVAL);
	assert_null(mlx5dm_res_mr_reg(&res, buf, 0));
	assert_int_equal(errno, EINVAL);
	fres.fail_mr = true;
	assert_null(mlx5dm_res_mr_reg(&res, buf, sizeof(buf)));
	assert_int_equal(errno, EFAULT);
	fres.fail_mr = false;
	mlx5dm_alloc_fail_at(1);
	assert_null(mlx5dm_res_mr_reg(&res, buf, sizeof(buf)));
	assert_int_equal(errno, ENOMEM);
	mlx5dm_alloc_fail_at(0);
	assert_int_equal(fres.live_mrs, 0);
	fres_ctx_fini(&res);
	fres_fini();
}

/* create_tir_in, tirc at 0x100: everything but the hash part. */
static void
exp_tir(uint8_t *exp, unsigned int disp, uint32_t rqn_or_rqt)
{
	memset(exp, 0, 272);
	fres_put(exp, 0x00, 16, 0x900);
	fres_put(exp, 0x100 + 0x020, 4, disp);
	if (disp == 0)
		fres_put(exp, 0x100 + 0x0e8, 24, rqn_or_rqt);  /* inline_rqn */
	else
		fres_put(exp, 0x100 + 0x108, 24, rqn_or_rqt);  /* indirect_table */
	fres_put(exp, 0x100 + 0x128, 24, FAKE_TDN);        /* transport_domain */
}

static const uint8_t rss_key[40] = {
	0x2c, 0xc6, 0x81, 0xd1, 0x5b, 0xdb, 0xf4, 0xf7, 0xfc, 0xa2,
	0x83, 0x19, 0xdb, 0x1a, 0x3e, 0x94, 0x6b, 0x9e, 0x38, 0xd9,
	0x2c, 0x9c, 0x03, 0xd1, 0xad, 0x99, 0x44, 0xa7, 0xd9, 0x56,
	0x3d, 0x59, 0x06, 0x3c, 0x25, 0xf3, 0xfc, 0x1f, 0xdc, 0x2a,
};

static void
test_tir_direct(void **state)
{
	struct mlx5dm_res_ctx res;
	struct mlx5dm_tir *tir;
	struct mlx5dm_rq *rq;
	uint8_t exp[272];
	uint32_t rqn;

	(void)state;
	fres_init();
	fres_ctx(&res);
	rq = mlx5dm_res_rq_create(&res, 4);
	assert_non_null(rq);
	rqn = mlx5dm_rq_number(rq);
	/* Through the public API: the context pointer leads to the resource context. */
	tir = mlx5dm_tir_create((struct mlx5dm_ctx *)(void *)&res, &rqn, 1, NULL);
	assert_non_null(tir);
	exp_tir(exp, 0, rqn);
	fres_assert_mbox(fres_last(0x900), exp, 272);
	assert_int_equal(fres_count(0x916), 0); /* no RQT for a direct TIR */
	assert_int_equal(mlx5dm_res_tir_number(tir), FAKE_TIR_ID0);
	/* The three pieces of create_tir_out put back together. */
	assert_true(mlx5dm_res_tir_icm_addr(tir) == FAKE_TIR_ICM(FAKE_TIR_ID0));
	/* The device keeps the RQ while the TIR names it. */
	test_log_start();
	assert_int_equal(mlx5dm_rq_destroy(rq), -EREMOTEIO);
	assert_non_null(strstr(test_log_last(), "RQ 0x1100 destroy failed"));
	test_log_stop();
	assert_non_null(fres_obj(0x908, rqn));
	assert_int_equal(mlx5dm_tir_destroy(tir), 0);
	assert_int_equal(mlx5dm_rq_destroy(rq), 0);
	fres_ctx_fini(&res);
	fres_fini();
}

static void
test_tir_rss(void **state)
{
	struct mlx5dm_rss_attr rss;
	struct mlx5dm_res_ctx res;
	struct mlx5dm_tir *tir;
	struct mlx5dm_rq *rq[3];
	uint8_t exp[288];
	uint32_t rqn[3];
	unsigned int i;

	(void)state;
	fres_init();
	fres_ctx(&res);
	for (i = 0; i < 3; i++) {
		rq[i] = mlx5dm_res_rq_create(&res, 4);
		assert_non_null(rq[i]);
		rqn[i] = mlx5dm_rq_number(rq[i]);
	}
	memset(&rss, 0, sizeof(rss));
	rss.symmetric = true;
	rss.fields = MLX5DM_RSS_SRC_IP | MLX5DM_RSS_DST_IP | MLX5DM_RSS_L4_SPORT |
		     MLX5DM_RSS_L4_DPORT;
	memcpy(rss.key, rss_key, sizeof(rss_key));
	tir = mlx5dm_res_tir_create(&res, rqn, 3, &rss);
	assert_non_null(tir);
	/* RQT: rounded up to 4 entries, the RQs repeated in order. */
	memset(exp, 0, sizeof(exp));
	fres_put(exp, 0x00, 16, 0x916);
	fres_put(exp, 0x100 + 0xb0, 16, 4);        /* rqt_max_size */
	fres_put(exp, 0x100 + 0xd0, 16, 4);        /* rqt_actual_size */
	for (i = 0; i < 4; i++)
		fres_put(exp, 0x100 + 0x780 + 32 * i + 8, 24, rqn[i % 3]);
	fres_assert_mbox(fres_last(0x916), exp, 288);
	/* TIR: indirect, Toeplitz, symmetric, key, outer IPv4/TCP 4-tuple. */
	exp_tir(exp, 1, FAKE_RQT_ID0);
	fres_put(exp, 0x100 + 0x100, 1, 1);        /* rx_hash_symmetric */
	fres_put(exp, 0x100 + 0x120, 4, 2);        /* rx_hash_fn: Toeplitz */
	memcpy(exp + (0x100 + 0x140) / 8, rss_key, 40);
	fres_put(exp, 0x100 + 0x280, 1, 0);        /* outer l3_prot_type IPv4 */
	fres_put(exp, 0x100 + 0x281, 1, 0);        /* outer l4_prot_type TCP */
	fres_put(exp, 0x100 + 0x282, 30, 0xf);     /* src ip, dst ip, sport, dport */
	fres_assert_mbox(fres_last(0x900), exp, 272);
	assert_true(mlx5dm_res_tir_icm_addr(tir) == FAKE_TIR_ICM(mlx5dm_res_tir_number(tir)));
	assert_int_equal(mlx5dm_tir_destroy(tir), 0);
	assert_null(fres_obj(0x916, FAKE_RQT_ID0)); /* the RQT went with the TIR */
	/* Inner IPv6/UDP ports only: tunnel offload on, the inner selector. */
	memset(&rss, 0, sizeof(rss));
	rss.ipv6 = true;
	rss.udp = true;
	rss.inner = true;
	rss.fields = MLX5DM_RSS_L4_SPORT | MLX5DM_RSS_L4_DPORT;
	tir = mlx5dm_res_tir_create(&res, rqn, 2, &rss);
	assert_non_null(tir);
	memset(exp, 0, sizeof(exp));
	fres_put(exp, 0x00, 16, 0x916);
	fres_put(exp, 0x100 + 0xb0, 16, 2);
	fres_put(exp, 0x100 + 0xd0, 16, 2);
	fres_put(exp, 0x100 + 0x780 + 8, 24, rqn[0]);
	fres_put(exp, 0x100 + 0x780 + 32 + 8, 24, rqn[1]);
	fres_assert_mbox(fres_last(0x916), exp, 280);
	exp_tir(exp, 1, FAKE_RQT_ID0 + 1);
	fres_put(exp, 0x100 + 0x102, 1, 1);        /* tunneled_offload_en */
	fres_put(exp, 0x100 + 0x120, 4, 2);
	fres_put(exp, 0x100 + 0x2a0, 1, 1);        /* inner l3: IPv6 */
	fres_put(exp, 0x100 + 0x2a1, 1, 1);        /* inner l4: UDP */
	fres_put(exp, 0x100 + 0x2a2, 30, 0xc);
	fres_assert_mbox(fres_last(0x900), exp, 272);
	assert_int_equal(mlx5dm_tir_destroy(tir), 0);
	/* RSS over one RQ still hashes: an RQT of one. */
	tir = mlx5dm_res_tir_create(&res, rqn, 1, &rss);
	assert_non_null(tir);
	assert_int_equal(mlx5dm_prm_get(fres_last(0x916)->in, 0x100 + 0xd0, 16), 1);
	assert_int_equal(mlx5dm_prm_get(fres_last(0x900)->in, 0x100 + 0x20, 4), 1);
	assert_int_equal(mlx5dm_tir_destroy(tir), 0);
	for (i = 0; i < 3; i++)
		assert_int_equal(mlx5dm_rq_destroy(rq[i]), 0);
	fres_ctx_fini(&res);
	fres_fini();
}

static void
assert_tir_fails(struct mlx5dm_res_ctx *res, const uint32_t *rqns, uint32_t n,
		 const struct mlx5dm_rss_attr *rss, int err, const char *log)
{
	unsigned int objs = fres.live_objs;

	test_log_start();
	assert_null(mlx5dm_res_tir_create(res, rqns, n, rss));
	assert_int_equal(errno, err);
	if (log != NULL)
		assert_non_null(strstr(test_log_last(), log));
	test_log_stop();
	assert_int_equal(fres.live_objs, objs);
}

static void
test_tir_errors(void **state)
{
	uint32_t many[MLX5DM_RES_RQT_MAX + 1];
	struct mlx5dm_rss_attr rss;
	struct mlx5dm_res_ctx res;
	struct mlx5dm_res_stats st;
	struct mlx5dm_tir *tir;
	struct mlx5dm_rq *rq;
	uint32_t rqn[2];
	uint64_t n;

	(void)state;
	fres_init();
	fres_ctx(&res);
	rq = mlx5dm_res_rq_create(&res, 4);
	assert_non_null(rq);
	rqn[0] = rqn[1] = mlx5dm_rq_number(rq);
	memset(&rss, 0, sizeof(rss));
	rss.fields = MLX5DM_RSS_SRC_IP;
	memset(many, 0, sizeof(many));
	assert_tir_fails(&res, rqn, 0, NULL, EINVAL, NULL);
	assert_tir_fails(&res, rqn, 2, NULL, EINVAL, NULL);     /* several RQs need RSS */
	assert_tir_fails(&res, many, MLX5DM_RES_RQT_MAX + 1, &rss, EINVAL, NULL);
	rss.fields = 1u << 4;                                  /* IPsec SPI: not offered */
	assert_tir_fails(&res, rqn, 1, &rss, EINVAL, NULL);
	rss.fields = MLX5DM_RSS_SRC_IP;
	assert_null(mlx5dm_tir_create(NULL, rqn, 1, NULL));
	assert_int_equal(mlx5dm_tir_destroy(NULL), -EINVAL);
	/* Firmware errors: RQT refused; TIR refused after the RQT (which goes again). */
	fres_fail(0x916, 1, 0x05, 0x9161);
	assert_tir_fails(&res, rqn, 2, &rss, EINVAL, "CREATE_RQT failed");
	fres_fail(0x900, 1, 0x0f, 0x9001);
	assert_tir_fails(&res, rqn, 2, &rss, ENOSPC, "CREATE_TIR failed: No space left on "
			 "device (status 0xf, syndrome 0x9001)");
	fres_fail(0x900, 1, 0x03, 0x9002);
	assert_tir_fails(&res, rqn, 1, NULL, EINVAL, "syndrome 0x9002");
	/* A device that reports no TIR ICM address cannot be steered to. */
	fres.tir_no_icm = true;
	assert_tir_fails(&res, rqn, 2, &rss, ENOTSUP, "no ICM address");
	fres.tir_no_icm = false;
	/* Host allocations: the TIR struct, the RQT mailbox. */
	for (n = 1;; n++) {
		mlx5dm_alloc_fail_at(n);
		tir = mlx5dm_res_tir_create(&res, rqn, 2, &rss);
		if (tir != NULL)
			break;
		assert_int_equal(errno, ENOMEM);
	}
	mlx5dm_alloc_fail_at(0);
	assert_int_equal(n, 3);
	mlx5dm_res_stats_get(&res, &st);
	assert_int_equal(st.tirs, 1);
	assert_int_equal(mlx5dm_tir_destroy(tir), 0);
	mlx5dm_res_stats_get(&res, &st);
	assert_int_equal(st.tirs, 0);
	assert_int_equal(mlx5dm_rq_destroy(rq), 0);
	fres_ctx_fini(&res);
	fres_fini();
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rq_mailboxes),
		cmocka_unit_test(test_rq_uar),
		cmocka_unit_test(test_rq_errors),
		cmocka_unit_test(test_mr),
		cmocka_unit_test(test_tir_direct),
		cmocka_unit_test(test_tir_rss),
		cmocka_unit_test(test_tir_errors),
	};

	return cmocka_run_group_tests_name("res_rx", tests, NULL, NULL);
}
