/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The FDB domain on the device model's E-Switch: a PF (the manager) with
 * two VFs, each function a device with its own context, NIC RX entry table
 * and a match-all rule to its RQ 0, and a fourth device cabled to the PF's
 * uplink (the wire). FDB rules are inserted through the library into the
 * PF's FDB; frames sent by each function or by the wire show where the
 * device's walk of those bytes takes them.
 */

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "mlx5dm_prm_vport.h"
#include "mlx5dm_send_priv.h"
#include "mlx5dm_steer_priv.h"
#include "steer_test_env.h"

#define VFS 2
#define UPLINK MLX5DM_VPORT_UPLINK

struct fenv {
	struct senv *pf, *vf[VFS], *wire;
	struct mlx5dm_matcher *all[2 + VFS];    /* each device's match-all NIC RX matcher */
	struct mlx5dm_rule *all_r[2 + VFS];
	struct mlx5dm_domain *fdb;
	struct mlx5dm_table *tbl;
};

static struct senv *
fenv_dev(struct fenv *e, unsigned int i)
{
	return i == 0 ? e->pf : i <= VFS ? e->vf[i - 1] : e->wire;
}

static void
fenv_open(struct fenv *e)
{
	struct mlx5dm_sim_config cfg;
	uint8_t zero[MP_SIZE] = { 0 };
	unsigned int i;

	memset(e, 0, sizeof(*e));
	mlx5dm_sim_config_default(&cfg);
	cfg.num_vfs = VFS;
	e->pf = senv_open_cfg(1, &cfg);
	for (i = 0; i < VFS; i++) {
		mlx5dm_sim_config_default(&cfg);
		cfg.esw_pf = mlx5dm_sim_of(e->pf->dev);
		cfg.vf = (uint16_t)i;
		e->vf[i] = senv_open_cfg(1, &cfg);
	}
	e->wire = senv_open(1);
	assert_int_equal(mlx5dm_dev_wire_connect(e->wire->dev, e->pf->dev), 0);
	/* Whatever reaches a function's NIC RX lands on its RQ 0. */
	for (i = 0; i < 2 + VFS; i++) {
		struct senv *d = fenv_dev(e, i);

		e->all[i] = senv_matcher(d->tbl, 0, 0, zero, 0);
		e->all_r[i] = senv_rule(e->all[i], 0, zero, 1, &d->to_q[0]);
	}
	e->fdb = mlx5dm_domain_create(e->pf->ctx, MLX5DM_DOMAIN_FDB);
	assert_non_null(e->fdb);
	e->tbl = mlx5dm_table_create(e->fdb, 1);
	assert_non_null(e->tbl);
	assert_int_equal(mlx5dm_domain_set_root(e->fdb, e->tbl), 0);
}

static void
fenv_close(struct fenv *e)
{
	unsigned int i;

	assert_int_equal(mlx5dm_domain_set_root(e->fdb, NULL), 0);
	assert_int_equal(mlx5dm_table_destroy(e->tbl), 0);
	assert_int_equal(mlx5dm_domain_destroy(e->fdb), 0);
	for (i = 0; i < 2 + VFS; i++) {
		assert_int_equal(mlx5dm_rule_destroy(e->all_r[i], 0), 0);
		assert_int_equal(mlx5dm_matcher_destroy(e->all[i]), 0);
	}
	senv_close(e->wire);
	for (i = 0; i < VFS; i++)
		senv_close(e->vf[i]);
	senv_close(e->pf);
}

/* Send f from device from; the device that received it (unchanged), NULL if none did. */
static struct senv *
fenv_send(struct fenv *e, struct senv *from, const struct frame *f)
{
	static struct dp_rx r;
	struct senv *got = NULL;
	unsigned int i;
	int q;

	/* The sender first: the model delivers before the sender's Tx CQE. */
	for (i = 0; i <= 2 + VFS; i++) {
		struct senv *d = i == 0 ? from : fenv_dev(e, i - 1);

		if (i > 0 && d == from)
			continue;
		q = i == 0 ? dp_send(&d->dp, f->b, f->len, &r) : dp_recv(&d->dp, &r);
		assert_true(q >= -1);
		if (q < 0)
			continue;
		assert_null(got);
		assert_int_equal(r.len, f->len);
		assert_memory_equal(r.b, f->b, f->len);
		got = d;
	}
	return got;
}

static void
dmac_frame(struct frame *f, uint64_t dmac)
{
	struct pkt p;

	pkt_udp4(&p);
	p.o.dmac = dmac;
	frame_build(f, &p);
}

/* source_port + outer dmac. */
static void
port_dmac(uint8_t *v, uint16_t port, uint64_t dmac)
{
	memset(v, 0, MP_SIZE);
	mp_set(v, MLX5DM_FTE(misc, source_port), port);
	mp_mac(v, MLX5DM_FTE(outer, dmac_47_16), dmac);
}

/* Lines of text starting with "rec," (a record type). */
static unsigned int
count_recs(const char *text, const char *rec)
{
	size_t n = strlen(rec);
	unsigned int c = 0;
	const char *l;

	for (l = text; *l != '\0'; l++) {
		if (strncmp(l, rec, n) == 0 && l[n] == ',')
			c++;
		l = strchr(l, '\n');
		if (l == NULL)
			break;
	}
	return c;
}

/*
 * The FDB domain's dump (and, with MLX5DM_STEER_DUMP_OUT set, appended to
 * that file for check_dump_format.py); the text, to be freed.
 */
static char *
fdb_dump(struct mlx5dm_domain *dom)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	assert_int_equal(mlx5dm_domain_dump(dom, f), 0);
	assert_int_equal(fclose(f), 0);
	if (getenv("MLX5DM_STEER_DUMP_OUT") != NULL) {
		FILE *o = fopen(getenv("MLX5DM_STEER_DUMP_OUT"), "a");

		assert_non_null(o);
		assert_int_equal(fwrite(text, 1, len, o), len);
		assert_int_equal(fclose(o), 0);
	}
	return text;
}

#define D1 0x020000000011ull
#define D2 0x020000000022ull
#define D3 0x020000000033ull
#define D4 0x020000000044ull
#define D5 0x020000000055ull

/*
 * Uplink -> VF, VF -> uplink, VF -> VF, drop, and the misses to the
 * manager's vport; a rule without source_port on both sides, counted.
 */
static void
test_fdb_forward(void **state)
{
	uint8_t mask[MP_SIZE], v[MP_SIZE];
	struct mlx5dm_action *to_vf0, *to_vf1, *to_wire, *drop, *ctr;
	struct mlx5dm_rule *r[5];
	struct mlx5dm_matcher *m, *m2;
	struct mlx5dm_dev_port_stats st;
	struct mlx5dm_counters *c;
	struct mlx5dm_domain_stats ds;
	struct mlx5dm_ctx_stats cs;
	struct mlx5dm_matcher_stats ms;
	uint64_t pkts, bytes;
	struct frame f;
	struct fenv e;
	unsigned int i;

	(void)state;
	fenv_open(&e);
	to_vf0 = mlx5dm_action_dest_vport(e.fdb, 1);
	to_vf1 = mlx5dm_action_dest_vport(e.fdb, 2);
	to_wire = mlx5dm_action_dest_vport(e.fdb, UPLINK);
	drop = mlx5dm_action_drop(e.fdb);
	c = mlx5dm_counters_alloc(e.pf->ctx, 0);
	assert_non_null(c);
	ctr = mlx5dm_action_counter(e.fdb, c, 0);
	assert_non_null(to_vf0);
	assert_non_null(to_vf1);
	assert_non_null(to_wire);
	assert_non_null(drop);
	assert_non_null(ctr);
	port_dmac(mask, 0xffff, 0xffffffffffffull);
	m = senv_matcher(e.tbl, 0, CRIT(outer) | CRIT(misc), mask, 4);
	port_dmac(v, UPLINK, D1);
	r[0] = senv_rule(m, 0, v, 1, &to_vf1);
	port_dmac(v, 1, D1);
	r[1] = senv_rule(m, 0, v, 1, &to_wire);
	port_dmac(v, 1, D2);
	r[2] = senv_rule(m, 0, v, 1, &to_vf1);
	port_dmac(v, 2, D3);
	r[3] = senv_rule(m, 0, v, 1, &drop);
	port_dmac(mask, 0, 0xffffffffffffull);
	m2 = senv_matcher(e.tbl, 1, CRIT(outer), mask, 0);
	port_dmac(v, 0, D4);
	r[4] = senv_rule(m2, 0, v, 2, (struct mlx5dm_action *[]){ ctr, to_vf0 });
	/* A source port takes one side: the wire's the RX side, a function's the TX side. */
	assert_non_null(mlx5dm_fdb_rule_side(r[0], 0));
	assert_null(mlx5dm_fdb_rule_side(r[0], 1));
	for (i = 1; i < 4; i++) {
		assert_null(mlx5dm_fdb_rule_side(r[i], 0));
		assert_non_null(mlx5dm_fdb_rule_side(r[i], 1));
	}
	assert_non_null(mlx5dm_fdb_rule_side(r[4], 0));
	assert_non_null(mlx5dm_fdb_rule_side(r[4], 1));

	/* Uplink -> VF1, VF0 -> uplink, VF0 -> VF1. */
	dmac_frame(&f, D1);
	assert_ptr_equal(fenv_send(&e, e.wire, &f), e.vf[1]);
	assert_ptr_equal(fenv_send(&e, e.vf[0], &f), e.wire);
	dmac_frame(&f, D2);
	assert_ptr_equal(fenv_send(&e, e.vf[0], &f), e.vf[1]);
	/* VF1's D3 is dropped by the FDB, on VF1's side of the switch. */
	dmac_frame(&f, D3);
	assert_null(fenv_send(&e, e.vf[1], &f));
	st = senv_port_stats(e.vf[1]);
	assert_int_equal(st.drops.steering_drop, 1);
	/* Misses go to the manager's vport: D2 from the wire, D1 from VF1, D5 from anyone. */
	dmac_frame(&f, D2);
	assert_ptr_equal(fenv_send(&e, e.wire, &f), e.pf);
	dmac_frame(&f, D1);
	assert_ptr_equal(fenv_send(&e, e.vf[1], &f), e.pf);
	dmac_frame(&f, D5);
	assert_ptr_equal(fenv_send(&e, e.vf[0], &f), e.pf);
	assert_ptr_equal(fenv_send(&e, e.wire, &f), e.pf);
	/* D4 from every source to VF0 (a VF's own frame too), counted on both sides. */
	dmac_frame(&f, D4);
	assert_ptr_equal(fenv_send(&e, e.wire, &f), e.vf[0]);
	assert_ptr_equal(fenv_send(&e, e.vf[1], &f), e.vf[0]);
	assert_ptr_equal(fenv_send(&e, e.pf, &f), e.vf[0]);
	assert_int_equal(mlx5dm_counters_query(c, 0, &pkts, &bytes), 0);
	assert_int_equal(pkts, 3);
	assert_int_equal(bytes, 3ull * f.len);

	/* An FDB rule counts once; its sides' tables are the matcher's. */
	assert_int_equal(mlx5dm_domain_stats_get(e.fdb, &ds), 0);
	assert_int_equal(ds.tables, 1);
	assert_int_equal(ds.matchers, 2);
	assert_int_equal(ds.rules, 5);
	assert_int_equal(mlx5dm_matcher_stats_get(m, &ms), 0);
	assert_int_equal(ms.rules, 4);
	/* A first table per side, a second level per source: the wire's, VF0's, VF1's. */
	assert_int_equal(ms.tables, 2 + 3);
	/* The device's figures count an FDB object once too: the NIC RX set-up's, then FDB's. */
	assert_int_equal(mlx5dm_ctx_stats_get(e.pf->ctx, &cs), 0);
	assert_int_equal(cs.tables, 1 + 1);
	assert_int_equal(cs.matchers, 1 + 2);
	assert_int_equal(cs.rules, 1 + 5);
	/*
	 * The dump, as rdma-core's: the vports it knows (the manager, VF0, VF1,
	 * the uplink), the table with both anchors, each matcher with both
	 * sides, each rule once with the entries of its sides (two levels on
	 * m, one on m2), the vport actions.
	 */
	{
		char *text = fdb_dump(e.fdb);

		assert_int_equal(count_recs(text, "3003"), 4);
		assert_int_equal(count_recs(text, "3100"), 1);
		assert_int_equal(count_recs(text, "3101"), 1);
		assert_int_equal(count_recs(text, "3102"), 1);
		assert_int_equal(count_recs(text, "3200"), 2);
		assert_int_equal(count_recs(text, "3202"), 2);
		assert_int_equal(count_recs(text, "3203"), 2);
		assert_int_equal(count_recs(text, "3300"), 5);
		assert_int_equal(count_recs(text, "3303"), 2 + 1);
		assert_int_equal(count_recs(text, "3304"), 3 * 2 + 1);
		assert_int_equal(count_recs(text, "3408"), 4);
		assert_int_equal(count_recs(text, "3403"), 1);
		assert_int_equal(count_recs(text, "3406"), 1);
		assert_non_null(strstr(text, ",4,1,"));   /* table type FS_FT_FDB, level 1 */
		free(text);
		text = NULL;
		{
			size_t len = 0;
			FILE *f = open_memstream(&text, &len);

			assert_non_null(f);
			assert_int_equal(mlx5dm_rule_dump(r[4], f), 0);
			assert_int_equal(fclose(f), 0);
		}
		assert_int_equal(count_recs(text, "3300"), 1);
		assert_int_equal(count_recs(text, "3303"), 1);
		assert_int_equal(count_recs(text, "3304"), 1);
		free(text);
	}
	/* Busy while used. */
	assert_int_equal(mlx5dm_matcher_destroy(m), -EBUSY);
	assert_int_equal(mlx5dm_action_destroy(to_vf1), -EBUSY);
	assert_int_equal(mlx5dm_table_destroy(e.tbl), -EBUSY);

	for (i = 0; i < 5; i++)
		assert_int_equal(mlx5dm_rule_destroy(r[i], 0), 0);
	/* Gone: D1 from the wire misses to the PF again. */
	dmac_frame(&f, D1);
	assert_ptr_equal(fenv_send(&e, e.wire, &f), e.pf);
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	assert_int_equal(mlx5dm_matcher_destroy(m2), 0);
	DESTROY_ACTIONS(to_vf0, to_vf1, to_wire, drop, ctr);
	assert_int_equal(mlx5dm_counters_free(c), 0);
	fenv_close(&e);
}

/*
 * The bytes of an FDB rule, derived here from the PRM layouts: its first
 * lookup is SRC_QP_GVMI (ste_src_gvmi_qp_v1: source_gvmi at bits 0x10-0x1f
 * of the tag) with the vport's vhca_id; its last entry is in the slot the
 * device's hash of its tag gives and ends at the vport's entry of its side
 * (v1 next_table_base, size 1) with the manager's GVMI.
 */
static void
test_fdb_bytes(void **state)
{
	uint8_t mask[MP_SIZE], v[MP_SIZE], tag[16] = { 0 }, img[64];
	struct mlx5dm_vport_caps vc[3];
	struct mlx5dm_action *to[2];
	struct mlx5dm_rule *r[2], *side;
	struct mlx5dm_ste *l0, *l1;
	struct mlx5dm_matcher *m;
	uint64_t want, idx;
	uint32_t slot;
	struct fenv e;
	unsigned int i, s;

	(void)state;
	fenv_open(&e);
	for (i = 0; i < 3; i++)
		assert_int_equal(mlx5dm_caps_vport(e.pf->dev, &e.pf->ctx->caps, (uint16_t)i,
						   &vc[i]), 0);
	to[0] = mlx5dm_action_dest_vport(e.fdb, 2);
	to[1] = mlx5dm_action_dest_vport(e.fdb, 1);
	port_dmac(mask, 0xffff, 0xffffffffffffull);
	m = senv_matcher(e.tbl, 0, CRIT(outer) | CRIT(misc), mask, 4);
	port_dmac(v, 1, D1);                 /* VF0: the TX side */
	r[0] = senv_rule(m, 0, v, 1, &to[0]);
	port_dmac(v, UPLINK, D1);            /* the wire: the RX side */
	r[1] = senv_rule(m, 0, v, 1, &to[1]);
	for (i = 0; i < 2; i++) {
		s = i == 0 ? 1 : 0;
		side = mlx5dm_fdb_rule_side(r[i], s);
		assert_non_null(side);
		l1 = mlx5dm_rule_last(side);
		l0 = l1->htbl->pointing_ste;
		assert_non_null(l0);
		/* Level 0: SRC_QP_GVMI (0x0104) of VF0's vhca_id; the wire's is 0. */
		memset(tag, 0, sizeof(tag));
		if (i == 0) {
			tag[2] = (uint8_t)(vc[1].vport_gvmi >> 8);
			tag[3] = (uint8_t)vc[1].vport_gvmi;
		}
		assert_int_equal(l0->ctrl[0], 0x01);
		assert_int_equal(l0->ctrl[6], 0x04);
		assert_memory_equal(l0->tag, tag, 16);
		/* The hint sizes the last level: level 0 is one slot. */
		assert_int_equal(l0->htbl->num_entries, 1);
		assert_false(l0->collision);
		assert_int_equal(mlx5dm_ste_icm(l0), mlx5dm_htbl_icm(l0->htbl));
		/* The last entry's slot: the device's hash of its tag (only masked bytes set). */
		/* The last level keeps no control part: the image its writes carry. */
		assert_true(l1->lean);
		mlx5dm_ste_image(l1, NULL, img);
		slot = mlx5dm_ste_hash(l1->tag, 16) & (l1->htbl->num_entries - 1);
		assert_int_equal(l1->htbl->num_entries, 16);
		assert_false(l1->collision);
		assert_int_equal(mlx5dm_ste_icm(l1), mlx5dm_htbl_icm(l1->htbl) + 64ull * slot);
		/* The last entry ends at the vport's entry of its side, GVMI of the manager. */
		want = s == 0 ? vc[1].icm_rx : vc[2].icm_tx;
		idx = (want >> 5) | 1;
		assert_int_equal(img[12], (uint8_t)(vc[0].vhca_gvmi >> 8));
		assert_int_equal(img[13], (uint8_t)vc[0].vhca_gvmi);
		assert_int_equal(img[15], (uint8_t)(idx >> 27));
		assert_int_equal(mlx5dm_prm_be32(img + 16) >> 5,
				 (uint32_t)(idx & 0x7ffffff));
	}
	/* The wire's frame to VF0, VF0's to VF1. */
	{
		struct frame f;

		dmac_frame(&f, D1);
		assert_ptr_equal(fenv_send(&e, e.wire, &f), e.vf[0]);
		assert_ptr_equal(fenv_send(&e, e.vf[0], &f), e.vf[1]);
	}
	for (i = 0; i < 2; i++)
		assert_int_equal(mlx5dm_rule_destroy(r[i], 0), 0);
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	DESTROY_ACTIONS(to[0], to[1]);
	fenv_close(&e);
}

/* A DROP action, a matcher on dmac and its rule dropping D1 on both sides (e opened). */
static struct mlx5dm_rule *
drop_rule_open(struct fenv *e, struct mlx5dm_matcher **m, struct mlx5dm_action **drop)
{
	uint8_t mask[MP_SIZE], v[MP_SIZE];
	struct mlx5dm_rule *r;

	fenv_open(e);
	*drop = mlx5dm_action_drop(e->fdb);
	assert_non_null(*drop);
	port_dmac(mask, 0, 0xffffffffffffull);
	*m = senv_matcher(e->tbl, 0, CRIT(outer), mask, 0);
	port_dmac(v, 0, D1);
	r = senv_rule(*m, 0, v, 1, drop);
	assert_non_null(mlx5dm_fdb_rule_side(r, 0));
	assert_non_null(mlx5dm_fdb_rule_side(r, 1));
	return r;
}

/* Post a write the device fails (past the end of the DM its key names). */
static void
ring_bad_write(struct mlx5dm_send_ring *ring)
{
	uint8_t line[64];

	memset(line, 0xee, sizeof(line));
	assert_int_equal(mlx5dm_send_write(ring, ring->last_raddr + (1ull << 40), ring->last_rkey,
					   line, sizeof(line)), 0);
}

/*
 * An FDB rule on both sides holds room on its queue's ring for the undo of
 * its first side while it is made (mlx5dm_send_kept_hold()), and gives it
 * back once made or refused. On a ring in error it is refused before
 * anything is written; once the queue is recovered it is made and steers.
 */
static void
test_fdb_ring_in_error(void **state)
{
	struct mlx5dm_send_stats st, st2;
	struct mlx5dm_send_ring *ring;
	struct mlx5dm_rule *r, *r2;
	struct mlx5dm_action *drop;
	struct mlx5dm_matcher *m;
	uint8_t v[MP_SIZE];
	struct frame f;
	struct fenv e;

	(void)state;
	r = drop_rule_open(&e, &m, &drop);
	ring = e.pf->ctx->queues[0].ring;
	assert_int_equal(ring->kept_holds, 0);
	ring_bad_write(ring);
	assert_int_equal(mlx5dm_queue_drain(e.pf->ctx, 0), -EIO);
	mlx5dm_send_stats_get(ring, &st);
	port_dmac(v, 0, D2);
	errno = 0;
	assert_null(mlx5dm_rule_create(m, 0, v, 1, &drop));
	assert_int_equal(errno, EIO);
	mlx5dm_send_stats_get(ring, &st2);
	assert_int_equal(st2.wqes, st.wqes);
	assert_int_equal(ring->kept_holds, 0);
	assert_int_equal(mlx5dm_queue_recover(e.pf->ctx, 0), 0);
	r2 = senv_rule(m, 0, v, 1, &drop);
	assert_int_equal(ring->kept_holds, 0);
	assert_int_equal(mlx5dm_queue_drain(e.pf->ctx, 0), 0);
	dmac_frame(&f, D2);
	assert_null(fenv_send(&e, e.wire, &f));
	assert_null(fenv_send(&e, e.vf[0], &f));
	assert_int_equal(mlx5dm_rule_destroy(r2, 0), 0);
	assert_int_equal(mlx5dm_rule_destroy(r, 0), 0);
	assert_int_equal(mlx5dm_queue_drain(e.pf->ctx, 0), 0);
	assert_ptr_equal(fenv_send(&e, e.wire, &f), e.pf);
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	DESTROY_ACTIONS(drop);
	fenv_close(&e);
}

/*
 * An FDB rule whose destroy meets its queue's ring in error is kept whole
 * (both sides, in the dump, still steering) for another destroy, which
 * succeeds once the queue is recovered.
 */
static void
test_fdb_destroy_ring_in_error(void **state)
{
	struct mlx5dm_action *drop;
	struct mlx5dm_matcher *m;
	struct mlx5dm_rule *r;
	unsigned int rules;
	struct frame f;
	struct fenv e;
	char *text;

	(void)state;
	r = drop_rule_open(&e, &m, &drop);
	assert_int_equal(mlx5dm_queue_drain(e.pf->ctx, 0), 0);
	dmac_frame(&f, D1);
	assert_null(fenv_send(&e, e.wire, &f));
	text = fdb_dump(e.fdb);
	rules = count_recs(text, "3300");
	free(text);
	assert_true(rules >= 1);
	ring_bad_write(e.pf->ctx->queues[0].ring);
	assert_int_equal(mlx5dm_queue_drain(e.pf->ctx, 0), -EIO);
	assert_int_equal(mlx5dm_rule_destroy(r, 0), -EIO);
	assert_non_null(mlx5dm_fdb_rule_side(r, 0));
	assert_non_null(mlx5dm_fdb_rule_side(r, 1));
	text = fdb_dump(e.fdb);
	assert_int_equal(count_recs(text, "3300"), rules);
	free(text);
	assert_int_equal(mlx5dm_queue_recover(e.pf->ctx, 0), 0);
	assert_null(fenv_send(&e, e.wire, &f));
	assert_int_equal(mlx5dm_rule_destroy(r, 0), 0);
	assert_int_equal(mlx5dm_queue_drain(e.pf->ctx, 0), 0);
	text = fdb_dump(e.fdb);
	assert_int_equal(count_recs(text, "3300"), 0);
	free(text);
	assert_ptr_equal(fenv_send(&e, e.wire, &f), e.pf);
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	DESTROY_ACTIONS(drop);
	fenv_close(&e);
}

/* Bad FDB input is refused and changes nothing. */
static void
test_fdb_refused(void **state)
{
	uint8_t mask[MP_SIZE], v[MP_SIZE];
	struct mlx5dm_matcher_attr ma = { .criteria = CRIT(outer) | CRIT(misc), .mask = mask };
	struct mlx5dm_action *tag, *to_vf0;
	struct mlx5dm_matcher *m;
	struct mlx5dm_domain_stats ds;
	const char *field = NULL;
	struct fenv e;

	(void)state;
	fenv_open(&e);
	/* A vport the switch does not have; a vport on a NIC domain. */
	assert_null(mlx5dm_action_dest_vport(e.fdb, 7));
	assert_int_equal(errno, EINVAL);
	assert_null(mlx5dm_action_dest_vport(e.pf->rx, 1));
	assert_int_equal(errno, EOPNOTSUPP);
	/* Part of a source port. */
	port_dmac(mask, 0x00ff, 0);
	assert_null(mlx5dm_matcher_create(e.tbl, &ma, &field));
	assert_int_equal(errno, EOPNOTSUPP);
	assert_string_equal(field, "misc.source_port");
	assert_int_equal(mlx5dm_matcher_check(e.fdb, &ma, &field), -EOPNOTSUPP);
	/* The NIC domains do not match source ports. */
	port_dmac(mask, 0xffff, 0);
	assert_int_equal(mlx5dm_matcher_check(e.pf->rx, &ma, &field), -EOPNOTSUPP);
	assert_int_equal(mlx5dm_matcher_check(e.fdb, &ma, &field), 0);
	m = senv_matcher(e.tbl, 0, ma.criteria, mask, 0);
	/* A source vport the switch does not have; a flow tag (NIC RX's). */
	to_vf0 = mlx5dm_action_dest_vport(e.fdb, 1);
	tag = mlx5dm_action_flow_tag(e.fdb, 5);
	assert_non_null(tag);
	port_dmac(v, 9, 0);
	assert_null(mlx5dm_rule_create(m, 0, v, 1, &to_vf0));
	assert_int_equal(errno, EINVAL);
	port_dmac(v, UPLINK, 0);
	assert_null(mlx5dm_rule_create(m, 0, v, 2, (struct mlx5dm_action *[]){ tag, to_vf0 }));
	assert_int_equal(errno, EOPNOTSUPP);
	assert_int_equal(mlx5dm_domain_stats_get(e.fdb, &ds), 0);
	assert_int_equal(ds.rules, 0);
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	DESTROY_ACTIONS(tag, to_vf0);
	fenv_close(&e);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fdb_forward),
		cmocka_unit_test(test_fdb_bytes),
		cmocka_unit_test(test_fdb_refused),
		cmocka_unit_test(test_fdb_ring_in_error),
		cmocka_unit_test(test_fdb_destroy_ring_in_error),
	};

	return cmocka_run_group_tests_name("steer_fdb", tests, NULL, NULL);
}
