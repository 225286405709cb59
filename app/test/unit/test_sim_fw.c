/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Firmware objects of the model through DEVX mailboxes built with literal
 * PRM offsets: flow tables (SW- and FW-owned), flow groups/entries, root
 * rules, transport domains, RQs, RQTs, TIRs (and the TIR ICM address
 * encoding), flow counters, modify-header arguments, packet reformat
 * contexts; error statuses.
 */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "test_sim_util.h"

static struct mlx5dv_devx_obj *
create(struct tsim *t, uint8_t *in, size_t inlen, uint8_t *out)
{
	memset(out, 0, 16);
	return t->ops->devx_obj_create(t->ctx, in, inlen, out, 16);
}

static struct mlx5dv_devx_obj *
create_ft(struct tsim *t, unsigned int type, bool sw, uint64_t root, uint32_t *id, uint8_t *out)
{
	uint8_t in[64] = { 0 };
	struct mlx5dv_devx_obj *o;

	SET(in, 0x00, 16, 0x930);
	SET(in, 0x80, 8, type);                 /* table_type */
	SET(in, 0xc0 + 0x02, 1, sw);            /* ctx.sw_owner */
	SET(in, 0xc0 + 0x08, 8, 63);            /* ctx.level = max_ft_level - 1 */
	SET(in, 0xc0 + 0x18, 8, 4);             /* ctx.log_size */
	SET(in, 0xc0 + 0x100, 64, root);        /* ctx.sw_owner_icm_root_0 */
	o = create(t, in, sizeof(in), out);
	*id = (uint32_t)GET(out, 0x48, 24);
	return o;
}

static void
test_flow_tables(void **state)
{
	uint8_t in[1024], out[64];
	struct mlx5dv_devx_obj *ft, *fwft;
	struct tdm ste;
	uint32_t id, fwid;
	uint64_t fwroot;
	struct tsim t;

	(void)state;
	assert_int_equal(tsim_open(&t, NULL), 0);
	assert_int_equal(tdm_alloc(&t, &ste, MLX5DV_DM_TYPE_STEERING_SW_ICM, 4096), 0);
	/* SW-owned NIC RX table rooted in allocated steering ICM. */
	ft = create_ft(&t, 0, true, ste.icm + 64, &id, out);
	assert_non_null(ft);
	assert_int_equal(tsim_status(out), 0);
	assert_int_not_equal(id, 0);
	/* QUERY_FLOW_TABLE returns the root. */
	memset(in, 0, 64);
	SET(in, 0x00, 16, 0x932);
	SET(in, 0x80, 8, 0);
	SET(in, 0xa8, 24, id);
	assert_int_equal(t.ops->devx_obj_query(ft, in, 64, out, 64), 0);
	assert_true(GET(out, 0xc0 + 0x100, 64) == ste.icm + 64);
	assert_int_equal(GET(out, 0xc0 + 0x02, 1), 1);
	assert_int_equal(GET(out, 0xc0 + 0x08, 8), 63);
	/* Query with the wrong table_type: firmware refuses. */
	SET(in, 0x80, 8, 1);
	assert_int_equal(t.ops->devx_obj_query(ft, in, 64, out, 64), EREMOTEIO);
	assert_int_equal(tsim_status(out), 0x03);
	/* Query naming another table on this handle: rejected by the DEVX layer. */
	SET(in, 0x80, 8, 0);
	SET(in, 0xa8, 24, id + 1);
	assert_int_equal(t.ops->devx_obj_query(ft, in, 64, out, 64), EINVAL);
	/* Root outside allocated ICM, FDB, level above max: BAD_PARAM. */
	assert_null(create_ft(&t, 0, true, ste.icm + 8192, &id, out));
	assert_int_equal(errno, EREMOTEIO);
	assert_int_equal(tsim_status(out), 0x03);
	assert_null(create_ft(&t, 4, true, ste.icm, &id, out));
	assert_int_equal(tsim_status(out), 0x03);
	/* FW-owned table: its root address comes back in the output and from QUERY. */
	fwft = create_ft(&t, 0, false, 0, &fwid, out);
	assert_non_null(fwft);
	fwroot = (GET(out, 0x08, 24) << 40) | (GET(out, 0x40, 8) << 32) | GET(out, 0x60, 32);
	assert_true(fwroot != 0);
	memset(in, 0, 64);
	SET(in, 0x00, 16, 0x932);
	SET(in, 0xa8, 24, fwid);
	assert_int_equal(t.ops->devx_obj_query(fwft, in, 64, out, 64), 0);
	assert_true(GET(out, 0xc0 + 0x100, 64) == fwroot);
	/* No entry yet: the FW root resolves to nothing. */
	assert_int_equal(mlx5dm_sim_terminal_lookup(t.sim, fwroot, NULL), MLX5DM_SIM_TERM_NONE);
	/* The ICM under a live table can go (the device does not check); the table stays. */
	assert_int_equal(t.ops->devx_obj_destroy(fwft), 0);
	assert_int_equal(t.ops->devx_obj_destroy(ft), 0);
	tdm_free(&t, &ste);
	tsim_close(&t);
}

static void
test_root_rules(void **state)
{
	struct mlx5dv_flow_match_parameters *mask, *val;
	struct mlx5dv_flow_matcher_attr ma;
	struct mlx5dv_flow_matcher *m0, *m1, *mtx;
	struct mlx5dv_flow_action_attr act;
	struct mlx5dv_devx_obj *ft, *fttx;
	struct ibv_flow *f0, *f1;
	const struct mlx5dm_sim_caps *caps;
	struct tdm ste;
	uint8_t out[16];
	uint32_t id;
	uint64_t root;
	struct tsim t;

	(void)state;
	assert_int_equal(tsim_open(&t, NULL), 0);
	caps = mlx5dm_sim_caps(t.sim);
	assert_int_equal(tdm_alloc(&t, &ste, MLX5DV_DM_TYPE_STEERING_SW_ICM, 4096), 0);
	ft = create_ft(&t, 0, true, ste.icm, &id, out);
	fttx = create_ft(&t, 1, true, ste.icm + 64, &id, out);
	assert_non_null(ft);
	assert_non_null(fttx);
	assert_int_equal(mlx5dm_sim_root_lookup(t.sim, MLX5DM_SIM_DIR_RX, &root), -ENOENT);
	mask = calloc(1, sizeof(*mask) + 64);
	val = calloc(1, sizeof(*val) + 64);
	mask->match_sz = 64;
	val->match_sz = 64;
	memset(&ma, 0, sizeof(ma));
	ma.type = IBV_FLOW_ATTR_NORMAL;
	ma.priority = 5;
	ma.match_mask = mask;
	ma.comp_mask = MLX5DV_FLOW_MATCHER_MASK_FT_TYPE;
	ma.ft_type = MLX5DV_FLOW_TABLE_TYPE_NIC_RX;
	m0 = t.ops->create_flow_matcher(t.ctx, &ma);
	assert_non_null(m0);
	act.type = MLX5DV_FLOW_ACTION_DEST_DEVX;
	act.obj = ft;
	f0 = t.ops->create_flow(m0, val, 1, &act);
	assert_non_null(f0);
	assert_int_equal(mlx5dm_sim_root_lookup(t.sim, MLX5DM_SIM_DIR_RX, &root), 0);
	assert_true(root == ste.icm);
	assert_int_equal(mlx5dm_sim_root_lookup(t.sim, MLX5DM_SIM_DIR_TX, &root), -ENOENT);
	/* The TX table is not a destination of an RX rule. */
	act.obj = fttx;
	assert_null(t.ops->create_flow(m0, val, 1, &act));
	assert_int_equal(errno, EINVAL);
	/* A higher-precedence (lower value) DROP rule takes over, and gives way when gone. */
	ma.priority = 1;
	m1 = t.ops->create_flow_matcher(t.ctx, &ma);
	act.type = MLX5DV_FLOW_ACTION_DROP;
	f1 = t.ops->create_flow(m1, val, 1, &act);
	assert_non_null(f1);
	assert_int_equal(mlx5dm_sim_root_lookup(t.sim, MLX5DM_SIM_DIR_RX, &root), 0);
	assert_true(root == caps->nic_rx_drop_icm_addr);
	assert_int_equal(t.ops->destroy_flow_matcher(m1), EBUSY);
	assert_int_equal(t.ops->destroy_flow(f1), 0);
	assert_int_equal(mlx5dm_sim_root_lookup(t.sim, MLX5DM_SIM_DIR_RX, &root), 0);
	assert_true(root == ste.icm);
	/* A table a root rule points at cannot be destroyed. */
	assert_int_equal(t.ops->devx_obj_destroy(ft), EBUSY);
	/* TX root rule. */
	ma.ft_type = MLX5DV_FLOW_TABLE_TYPE_NIC_TX;
	mtx = t.ops->create_flow_matcher(t.ctx, &ma);
	act.type = MLX5DV_FLOW_ACTION_DEST_DEVX;
	act.obj = fttx;
	f1 = t.ops->create_flow(mtx, val, 1, &act);
	assert_non_null(f1);
	assert_int_equal(mlx5dm_sim_root_lookup(t.sim, MLX5DM_SIM_DIR_TX, &root), 0);
	assert_true(root == ste.icm + 64);
	/* A non-empty mask is not modelled. */
	((uint8_t *)mask->match_buf)[3] = 0xff;
	assert_null(t.ops->create_flow_matcher(t.ctx, &ma));
	assert_int_equal(errno, EOPNOTSUPP);
	assert_int_equal(t.ops->destroy_flow(f1), 0);
	assert_int_equal(t.ops->destroy_flow(f0), 0);
	assert_int_equal(t.ops->destroy_flow_matcher(m0), 0);
	assert_int_equal(t.ops->destroy_flow_matcher(m1), 0);
	assert_int_equal(t.ops->destroy_flow_matcher(mtx), 0);
	assert_int_equal(t.ops->devx_obj_destroy(ft), 0);
	assert_int_equal(t.ops->devx_obj_destroy(fttx), 0);
	free(mask);
	free(val);
	tdm_free(&t, &ste);
	tsim_close(&t);
}

/* An RQ of 2^log 16-byte WQEs: WQ and doorbell record in umems of their own. */
static struct mlx5dv_devx_obj *
create_rq(struct tsim *t, uint32_t cqn, uint32_t log, uint32_t *rqn)
{
	static uint8_t mem[8][4096] __attribute__((aligned(4096)));
	static unsigned int next;
	uint8_t in[272] = { 0 }, out[16];
	struct mlx5dv_devx_umem *wq, *db;
	struct mlx5dv_devx_obj *o;
	uint8_t *m = mem[next++ % 8];

	memset(m, 0, 4096);
	wq = t->ops->devx_umem_reg(t->ctx, m, 2048, IBV_ACCESS_LOCAL_WRITE);
	db = t->ops->devx_umem_reg(t->ctx, m + 2048, 64, IBV_ACCESS_LOCAL_WRITE);
	assert_non_null(wq);
	assert_non_null(db);
	SET(in, 0x00, 16, 0x908);
	SET(in, 0x100 + 0x48, 24, cqn);         /* ctx.cqn */
	SET(in, 0x280 + 0x00, 4, 1);            /* ctx.wq.wq_type: cyclic */
	SET(in, 0x280 + 0x48, 24, t->pdn);      /* ctx.wq.pd */
	SET(in, 0x280 + 0x80, 64, 0);           /* ctx.wq.dbr_addr */
	SET(in, 0x280 + 0x10c, 4, 4);           /* ctx.wq.log_wq_stride: 16 bytes */
	SET(in, 0x280 + 0x11b, 5, log);         /* ctx.wq.log_wq_sz */
	SET(in, 0x280 + 0x140, 32, db->umem_id); /* ctx.wq.dbr_umem_id */
	SET(in, 0x280 + 0x160, 32, wq->umem_id); /* ctx.wq.wq_umem_id */
	o = create(t, in, sizeof(in), out);
	*rqn = (uint32_t)GET(out, 0x48, 24);
	return o;
}

static int
modify_rq(struct tsim *t, struct mlx5dv_devx_obj *rq, uint32_t rqn, uint32_t cur, uint32_t next,
	  uint8_t *out)
{
	uint8_t in[272] = { 0 };

	SET(in, 0x00, 16, 0x909);
	SET(in, 0x40, 4, cur);                  /* rq_state */
	SET(in, 0x48, 24, rqn);
	SET(in, 0x100 + 0x08, 4, next);         /* ctx.state */
	return t->ops->devx_obj_modify(rq, in, sizeof(in), out, 16);
}


/* One frame to an RQ, as a burst of the engine hands it over. */
static int
deliver(struct mlx5dm_sim *sim, uint32_t rqn, const struct mlx5dm_sim_pkt *p)
{
	struct mlx5dm_sim_hold h;
	int ret;

	mlx5dm_sim_hold(&h, sim, NULL);
	ret = mlx5dm_sim_rq_deliver(&h, sim, rqn, p);
	mlx5dm_sim_release(&h);
	return ret;
}

static void
test_rq_rqt_tir(void **state)
{
	static const uint8_t key[40] = { 0x2c, 0xc6, 0x81, 0xd1, 0x5b, 0xdb, 0xf4, 0xf7 };
	struct mlx5dv_devx_obj *rq[3], *td, *rqt, *tir, *tir2;
	struct mlx5dm_sim_tir_info ti;
	struct mlx5dm_sim_pkt p;
	uint32_t rqn[3], tdn, rqtn, tirn, tirn2, n;
	uint8_t in[1024], out[272];
	uint64_t icm;
	struct tring r;
	struct tsim t;
	unsigned int i;

	(void)state;
	assert_int_equal(tsim_open(&t, NULL), 0);
	assert_int_equal(tring_create(&t, &r, 4, 4, 3), 0);
	for (i = 0; i < 3; i++) {
		rq[i] = create_rq(&t, r.cqn, 1, &rqn[i]);
		assert_non_null(rq[i]);
	}
	assert_null(create_rq(&t, 0x7fffff, 1, &n)); /* no such CQ */
	/* RST: no delivery. Wrong current state: BAD_RES_STATE. Then RST -> RDY. */
	memset(&p, 0, sizeof(p));
	p.len = 60;
	assert_int_equal(deliver(t.sim, rqn[0], &p), -ENOENT);
	assert_int_equal(modify_rq(&t, rq[0], rqn[0], 1, 1, out), EREMOTEIO);
	assert_int_equal(tsim_status(out), 0x09);
	assert_int_equal(modify_rq(&t, rq[0], rqn[1], 0, 1, out), EINVAL);
	for (i = 0; i < 3; i++)
		assert_int_equal(modify_rq(&t, rq[i], rqn[i], 0, 1, out), 0);
	memset(in, 0, 16);
	SET(in, 0x00, 16, 0x90b);
	SET(in, 0x48, 24, rqn[0]);
	assert_int_equal(t.ops->devx_obj_query(rq[0], in, 16, out, 272), 0);
	assert_int_equal(GET(out, 0x100 + 0x08, 4), 1);
	/* RDY but nothing posted: the frame is dropped (out of buffer). */
	assert_int_equal(deliver(t.sim, rqn[0], &p), -ENOSPC);
	/* Transport domain, RQT of three RQs. */
	memset(in, 0, 16);
	SET(in, 0x00, 16, 0x816);
	td = create(&t, in, 16, out);
	assert_non_null(td);
	tdn = (uint32_t)GET(out, 0x48, 24);
	memset(in, 0, sizeof(in));
	SET(in, 0x00, 16, 0x916);
	SET(in, 0x100 + 0xb0, 16, 4);           /* rqt_max_size */
	SET(in, 0x100 + 0xd0, 16, 3);           /* rqt_actual_size */
	for (i = 0; i < 3; i++)
		SET(in, (272 + 4 * i) * 8 + 8, 24, rqn[i]);
	rqt = create(&t, in, 272 + 12, out);
	assert_non_null(rqt);
	rqtn = (uint32_t)GET(out, 0x48, 24);
	SET(in, (272 + 8) * 8 + 8, 24, 0x7fffff);
	assert_null(create(&t, in, 272 + 12, out));
	assert_int_equal(tsim_status(out), 0x05);
	/* Indirect TIR: Toeplitz, symmetric, outer IPv6/UDP src+dst IP + ports. */
	memset(in, 0, sizeof(in));
	SET(in, 0x00, 16, 0x900);
	SET(in, 0x120, 4, 1);                   /* disp_type indirect */
	SET(in, 0x200, 1, 1);                   /* rx_hash_symmetric */
	SET(in, 0x208, 24, rqtn);               /* indirect_table */
	SET(in, 0x220, 4, 2);                   /* rx_hash_fn Toeplitz */
	SET(in, 0x228, 24, tdn);                /* transport_domain */
	memcpy(in + 72, key, sizeof(key));      /* rx_hash_toeplitz_key */
	SET(in, 0x380, 1, 1);                   /* outer l3_prot_type IPv6 */
	SET(in, 0x381, 1, 1);                   /* outer l4_prot_type UDP */
	SET(in, 0x382, 30, 0xf);                /* outer selected_fields */
	tir = create(&t, in, 272, out);
	assert_non_null(tir);
	tirn = (uint32_t)GET(out, 0x48, 24);
	icm = (GET(out, 0x08, 24) << 40) | (GET(out, 0x40, 8) << 32) | GET(out, 0x60, 32);
	assert_int_equal(icm >> 48, 1);         /* GVMI of the device */
	assert_int_equal(mlx5dm_sim_terminal_lookup(t.sim, icm, &n), MLX5DM_SIM_TERM_TIR);
	assert_int_equal(n, tirn);
	assert_int_equal(mlx5dm_sim_tir_info(t.sim, tirn, &ti), 0);
	assert_true(ti.indirect && ti.toeplitz && ti.symmetric && !ti.inner);
	assert_int_equal(ti.nb_rqs, 3);
	assert_int_equal(ti.rqns[2], rqn[2]);
	assert_memory_equal(ti.key, key, sizeof(key));
	assert_int_equal(ti.l3_ipv6, 1);
	assert_int_equal(ti.l4_udp, 1);
	assert_int_equal(ti.fields, MLX5DM_SIM_HASH_SRC_IP | MLX5DM_SIM_HASH_DST_IP |
			 MLX5DM_SIM_HASH_L4_SPORT | MLX5DM_SIM_HASH_L4_DPORT);
	/* Direct TIR: a second, distinct ICM address. */
	memset(in, 0, sizeof(in));
	SET(in, 0x00, 16, 0x900);
	SET(in, 0x1e8, 24, rqn[1]);             /* inline_rqn */
	SET(in, 0x228, 24, tdn);
	tir2 = create(&t, in, 272, out);
	assert_non_null(tir2);
	tirn2 = (uint32_t)GET(out, 0x48, 24);
	assert_true(((GET(out, 0x08, 24) << 40) | (GET(out, 0x40, 8) << 32) |
		     GET(out, 0x60, 32)) != icm);
	assert_int_equal(mlx5dm_sim_tir_info(t.sim, tirn2, &ti), 0);
	assert_false(ti.indirect);
	assert_int_equal(ti.inline_rqn, rqn[1]);
	SET(in, 0x1e8, 24, 0x7fffff);
	assert_null(create(&t, in, 272, out));
	assert_int_equal(tsim_status(out), 0x05);
	/* In use: RQs by the RQT/TIR, the RQT by a TIR, the TD by TIRs. */
	assert_int_equal(t.ops->devx_obj_destroy(rq[1]), EBUSY);
	assert_int_equal(t.ops->devx_obj_destroy(rqt), EBUSY);
	assert_int_equal(t.ops->devx_obj_destroy(td), EBUSY);
	assert_int_equal(t.ops->devx_obj_destroy(tir2), 0);
	assert_int_equal(t.ops->devx_obj_destroy(tir), 0);
	/* A destroyed TIR's address is still a TIR address, but tir_info fails. */
	assert_int_equal(mlx5dm_sim_terminal_lookup(t.sim, icm, &n), MLX5DM_SIM_TERM_TIR);
	assert_int_equal(mlx5dm_sim_tir_info(t.sim, tirn, &ti), -ENOENT);
	assert_int_equal(t.ops->devx_obj_destroy(rqt), 0);
	assert_int_equal(t.ops->devx_obj_destroy(td), 0);
	for (i = 0; i < 3; i++)
		assert_int_equal(t.ops->devx_obj_destroy(rq[i]), 0);
	tring_destroy(&r);
	tsim_close(&t);
}

static void
test_fw_table_entry(void **state)
{
	uint8_t in[1024], out[64];
	struct mlx5dv_devx_obj *ft, *fg, *fte, *td, *rq, *tir;
	uint32_t ftid, fgid, tdn, rqn, tirn, n;
	uint64_t root;
	struct tring r;
	struct tsim t;

	(void)state;
	assert_int_equal(tsim_open(&t, NULL), 0);
	assert_int_equal(tring_create(&t, &r, 2, 2, 3), 0);
	rq = create_rq(&t, r.cqn, 2, &rqn);
	memset(in, 0, 16);
	SET(in, 0x00, 16, 0x816);
	td = create(&t, in, 16, out);
	tdn = (uint32_t)GET(out, 0x48, 24);
	memset(in, 0, 272);
	SET(in, 0x00, 16, 0x900);
	SET(in, 0x1e8, 24, rqn);
	SET(in, 0x228, 24, tdn);
	tir = create(&t, in, 272, out);
	assert_non_null(tir);
	tirn = (uint32_t)GET(out, 0x48, 24);
	ft = create_ft(&t, 0, false, 0, &ftid, out);
	root = (GET(out, 0x08, 24) << 40) | (GET(out, 0x40, 8) << 32) | GET(out, 0x60, 32);
	/* Always-hit group (no criteria) over entries 0..15. */
	memset(in, 0, sizeof(in));
	SET(in, 0x00, 16, 0x933);
	SET(in, 0xa8, 24, ftid);
	SET(in, 0xe0, 32, 0);                   /* start_flow_index */
	SET(in, 0x120, 32, 15);                 /* end_flow_index */
	fg = create(&t, in, 1024, out);
	assert_non_null(fg);
	fgid = (uint32_t)GET(out, 0x48, 24);
	/* Entry 0: forward to the TIR. */
	memset(in, 0, sizeof(in));
	SET(in, 0x00, 16, 0x936);
	SET(in, 0xa8, 24, ftid);
	SET(in, 0x100, 32, 0);                  /* flow_index */
	SET(in, 0x200 + 0x20, 32, fgid);        /* group_id */
	SET(in, 0x200 + 0x70, 16, 0x4);         /* action FWD_DEST */
	SET(in, 0x200 + 0x88, 24, 1);           /* destination_list_size */
	SET(in, 832 * 8, 8, 2);                 /* destination_type TIR */
	SET(in, 832 * 8 + 8, 24, tirn);
	fte = create(&t, in, 840, out);
	assert_non_null(fte);
	assert_int_equal(mlx5dm_sim_terminal_lookup(t.sim, root, &n), MLX5DM_SIM_TERM_TIR);
	assert_int_equal(n, tirn);
	/* Same index twice; an index outside the group. */
	assert_null(create(&t, in, 840, out));
	assert_int_equal(tsim_status(out), 0x03);
	SET(in, 0x100, 32, 16);
	assert_null(create(&t, in, 840, out));
	assert_int_equal(tsim_status(out), 0x03);
	/* Teardown order is enforced. */
	assert_int_equal(t.ops->devx_obj_destroy(fg), EBUSY);
	assert_int_equal(t.ops->devx_obj_destroy(tir), EBUSY);
	assert_int_equal(t.ops->devx_obj_destroy(fte), 0);
	assert_int_equal(mlx5dm_sim_terminal_lookup(t.sim, root, &n), MLX5DM_SIM_TERM_NONE);
	assert_int_equal(t.ops->devx_obj_destroy(ft), EBUSY);
	assert_int_equal(t.ops->devx_obj_destroy(fg), 0);
	assert_int_equal(t.ops->devx_obj_destroy(ft), 0);
	assert_int_equal(t.ops->devx_obj_destroy(tir), 0);
	assert_int_equal(t.ops->devx_obj_destroy(td), 0);
	assert_int_equal(t.ops->devx_obj_destroy(rq), 0);
	tring_destroy(&r);
	tsim_close(&t);
}

static void
test_counters(void **state)
{
	uint8_t in[32], out[16 + 4 * 16];
	struct mlx5dv_devx_obj *fc, *fc1;
	uint32_t base, one;
	uint64_t dump[8];
	struct ibv_mr *mr;
	struct tsim t;

	(void)state;
	assert_int_equal(tsim_open(&t, NULL), 0);
	memset(in, 0, sizeof(in));
	SET(in, 0x00, 16, 0x939);
	SET(in, 0x73, 5, 2);                    /* flow_counter_bulk_log_size: 4 */
	fc = create(&t, in, 16, out);
	assert_non_null(fc);
	base = (uint32_t)GET(out, 0x40, 32);
	assert_int_equal(base % 4, 0);
	SET(in, 0x73, 5, 0);
	fc1 = create(&t, in, 16, out);
	one = (uint32_t)GET(out, 0x40, 32);
	assert_true(one < base || one >= base + 4);
	mlx5dm_sim_counter_add(t.sim, base + 1, 100);
	mlx5dm_sim_counter_add(t.sim, base + 1, 60);
	mlx5dm_sim_counter_add(t.sim, base + 3, 1500);
	mlx5dm_sim_counter_add(t.sim, 0xfffff, 1); /* unknown: ignored */
	/* One counter. */
	memset(in, 0, sizeof(in));
	SET(in, 0x00, 16, 0x93b);
	SET(in, 0xe0, 32, base + 1);
	assert_int_equal(t.ops->devx_obj_query(fc, in, 32, out, 32), 0);
	assert_true(GET(out, 0x80, 64) == 2);   /* packets */
	assert_true(GET(out, 0xc0, 64) == 160); /* octets */
	/* The whole bulk, then clear on read. */
	SET(in, 0xe0, 32, base);
	SET(in, 0xc2, 30, 4);
	SET(in, 0xc0, 1, 1);
	assert_int_equal(t.ops->devx_obj_query(fc, in, 32, out, sizeof(out)), 0);
	assert_true(GET(out + 16 + 16 * 3, 0, 64) == 1);
	assert_true(GET(out + 16 + 16 * 3, 64, 64) == 1500);
	assert_true(GET(out + 16, 0, 64) == 0);
	SET(in, 0xc0, 1, 0);
	assert_int_equal(t.ops->devx_obj_query(fc, in, 32, out, sizeof(out)), 0);
	assert_true(GET(out + 16 + 16, 0, 64) == 0);
	/* Dump to memory through an mkey. */
	mlx5dm_sim_counter_add(t.sim, base + 2, 64);
	mr = t.ops->reg_mr(t.pd, dump, sizeof(dump), IBV_ACCESS_LOCAL_WRITE);
	SET(in, 0xc1, 1, 1);
	SET(in, 0x60, 32, mr->lkey);
	SET(in, 0x80, 64, (uintptr_t)dump);
	assert_int_equal(t.ops->devx_obj_query(fc, in, 32, out, 16), 0);
	assert_true(GET(dump, 2 * 128, 64) == 1);
	assert_true(GET(dump, 2 * 128 + 64, 64) == 64);
	assert_int_equal(t.ops->dereg_mr(mr), 0);
	/* Outside the bulk; output too short. */
	memset(in, 0, sizeof(in));
	SET(in, 0x00, 16, 0x93b);
	SET(in, 0xe0, 32, base + 4);
	assert_int_equal(t.ops->devx_obj_query(fc, in, 32, out, 32), EREMOTEIO);
	assert_int_equal(tsim_status(out), 0x03);
	SET(in, 0xe0, 32, base);
	SET(in, 0xc2, 30, 4);
	assert_int_equal(t.ops->devx_obj_query(fc, in, 32, out, 32), EREMOTEIO);
	assert_int_equal(tsim_status(out), 0x11);
	/* After dealloc the ids no longer count. */
	assert_int_equal(t.ops->devx_obj_destroy(fc), 0);
	mlx5dm_sim_counter_add(t.sim, base + 1, 100);
	SET(in, 0x00, 16, 0x939);
	SET(in, 0x73, 5, 2);
	SET(in, 0xc2, 30, 0);
	fc = create(&t, in, 16, out);
	assert_int_equal(GET(out, 0x40, 32), base); /* the same bulk comes back, zeroed */
	memset(in, 0, sizeof(in));
	SET(in, 0x00, 16, 0x93b);
	SET(in, 0xe0, 32, base + 1);
	assert_int_equal(t.ops->devx_obj_query(fc, in, 32, out, 32), 0);
	assert_true(GET(out, 0x80, 64) == 0);
	assert_int_equal(t.ops->devx_obj_destroy(fc), 0);
	assert_int_equal(t.ops->devx_obj_destroy(fc1), 0);
	tsim_close(&t);
}

static void
test_arguments(void **state)
{
	uint8_t in[36], out[16], data[64];
	struct mlx5dv_devx_obj *arg;
	uint32_t id;
	struct tsim t;

	(void)state;
	assert_int_equal(tsim_open(&t, NULL), 0);
	memset(in, 0, sizeof(in));
	SET(in, 0x00, 16, 0xa00);
	SET(in, 0x30, 16, 0x23);                /* obj_type: modify-header argument */
	SET(in, 0x63, 5, 4);                    /* log_obj_range: 16 units */
	SET(in, 0x80 + 0x88, 24, t.pdn);        /* arg.access_pd */
	arg = create(&t, in, sizeof(in), out);
	assert_non_null(arg);
	id = (uint32_t)GET(out, 0x40, 32);
	assert_int_equal(id % 16, 0);
	assert_int_equal(mlx5dm_sim_arg_read(t.sim, id + 15, data, 64), 0);
	assert_int_equal(mlx5dm_sim_arg_read(t.sim, id + 16, data, 64), -ENOENT);
	/* Unknown object type, range above max_alloc, PD that does not exist. */
	SET(in, 0x30, 16, 0x18);
	assert_null(create(&t, in, sizeof(in), out));
	assert_int_equal(tsim_status(out), 0x03);
	SET(in, 0x30, 16, 0x23);
	SET(in, 0x63, 5, 17);
	assert_null(create(&t, in, sizeof(in), out));
	assert_int_equal(tsim_status(out), 0x03);
	SET(in, 0x63, 5, 0);
	SET(in, 0x80 + 0x88, 24, 0x7ffff);
	assert_null(create(&t, in, sizeof(in), out));
	assert_int_equal(tsim_status(out), 0x05);
	/* The PD is held by the object. */
	assert_int_equal(t.ops->dealloc_pd(t.pd), EBUSY);
	assert_int_equal(t.ops->devx_obj_destroy(arg), 0);
	assert_int_equal(mlx5dm_sim_arg_read(t.sim, id, data, 64), -ENOENT);
	tsim_close(&t);
}

/* alloc_packet_reformat_context_in at literal mlx5_ifc offsets; returns the mailbox length. */
static size_t
prc_in(uint8_t *in, unsigned int type, unsigned int size, const uint8_t *data)
{
	size_t len = (36 + (size_t)size - 2 + 3) & ~(size_t)3;

	memset(in, 0, 256);
	SET(in, 0x00, 16, 0x93d);
	SET(in, 0xe0 + 0x05, 3, type);          /* packet_reformat_context.reformat_type */
	SET(in, 0xe0 + 0x16, 10, size);         /* reformat_data_size */
	memcpy(in + 34, data, size);            /* reformat_data[2], more_reformat_data */
	return len < 36 ? 36 : len;
}

static void
test_packet_reformat(void **state)
{
	uint8_t in[256], out[16], hdr[130], got[130];
	struct mlx5dv_devx_obj *prc, *prc2;
	unsigned int i;
	uint32_t id, id2;
	size_t len;
	struct tsim t;

	(void)state;
	for (i = 0; i < sizeof(hdr); i++)
		hdr[i] = (uint8_t)(0x30 + i);
	assert_int_equal(tsim_open(&t, NULL), 0);
	len = prc_in(in, 2, 50, hdr);           /* L2_TO_L2_TUNNEL, 50 bytes */
	assert_int_equal(len, 84);
	prc = create(&t, in, len, out);
	assert_non_null(prc);
	assert_int_equal(tsim_status(out), 0);
	id = (uint32_t)GET(out, 0x40, 32);       /* packet_reformat_id */
	assert_int_equal(mlx5dm_sim_reformat_read(t.sim, id, got, 50), 0);
	assert_memory_equal(got, hdr, 50);
	assert_int_equal(mlx5dm_sim_reformat_read(t.sim, id, got, 52), -ERANGE);
	/* An L2_TO_L3_TUNNEL context of 2 bytes: all data in reformat_data[2]. */
	len = prc_in(in, 4, 2, hdr + 10);
	prc2 = create(&t, in, len, out);
	assert_non_null(prc2);
	id2 = (uint32_t)GET(out, 0x40, 32);
	assert_int_not_equal(id2, id);
	assert_int_equal(mlx5dm_sim_reformat_read(t.sim, id2, got, 2), 0);
	assert_memory_equal(got, hdr + 10, 2);

	/* L3_TUNNEL_TO_L2, no data, data above max_encap_header_size (128): BAD_PARAM. */
	len = prc_in(in, 3, 14, hdr);
	assert_null(create(&t, in, len, out));
	assert_int_equal(errno, EREMOTEIO);
	assert_int_equal(tsim_status(out), 0x03);
	len = prc_in(in, 2, 0, hdr);
	assert_null(create(&t, in, len, out));
	assert_int_equal(tsim_status(out), 0x03);
	len = prc_in(in, 2, 130, hdr);
	assert_null(create(&t, in, len, out));
	assert_int_equal(tsim_status(out), 0x03);
	/* The mailbox ends before the data does: BAD_INPUT_LEN. */
	prc_in(in, 2, 50, hdr);
	assert_null(create(&t, in, 60, out));
	assert_int_equal(tsim_status(out), 0x10);
	/* Through the general-command entry point: the DEVX layer refuses. */
	len = prc_in(in, 2, 50, hdr);
	assert_int_equal(t.ops->devx_general_cmd(t.ctx, in, len, out, sizeof(out)), EINVAL);

	/* Destroy: DEALLOC with the id; the context is gone. */
	assert_int_equal(t.ops->devx_obj_destroy(prc), 0);
	assert_int_equal(mlx5dm_sim_reformat_read(t.sim, id, got, 50), -ENOENT);
	assert_int_equal(mlx5dm_sim_reformat_read(t.sim, id2, got, 2), 0);
	/* A DEALLOC mailbox sent as a general command is refused as well. */
	memset(in, 0, 16);
	SET(in, 0x00, 16, 0x93e);
	SET(in, 0x40, 32, id2);
	assert_int_equal(t.ops->devx_general_cmd(t.ctx, in, 16, out, sizeof(out)), EINVAL);
	assert_int_equal(t.ops->devx_obj_destroy(prc2), 0);
	tsim_close(&t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flow_tables),
		cmocka_unit_test(test_root_rules),
		cmocka_unit_test(test_rq_rqt_tir),
		cmocka_unit_test(test_fw_table_entry),
		cmocka_unit_test(test_counters),
		cmocka_unit_test(test_arguments),
		cmocka_unit_test(test_packet_reformat),
	};

	return cmocka_run_group_tests_name("sim_fw", tests, NULL, NULL);
}
