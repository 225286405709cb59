/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * mlx5dm_domain_dump() on the device model: a mixed rule set (several
 * tables, matchers and priorities, a two-level matcher with shared and
 * colliding entries, every action kind of an RX and a TX domain) is dumped
 * to a memory stream, parsed back as CSV and checked: record counts per
 * type, field counts, that every id a record names resolves, that every
 * dumped STE is the entry in the model's ICM (read back at the dumped
 * address), and values derived by hand from the layouts (mask words,
 * dmac in the tag, miss pointers of unused slots, the table root).
 *
 * With MLX5DM_STEER_DUMP_OUT set, both dumps are also written to that file
 * (app/test/steer/check_dump_format.py and mlx_steering_dump read it).
 */

#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <cmocka.h>

#include "mlx5dm_dev.h"
#include "mlx5dm_prm_match.h"
#include "mlx5dm_prm_modify.h"
#include "mlx5dm_res.h"
#include "mlx5dm_sim.h"
#include "mlx5dm_sim_priv.h"
#include "mlx5dm_steer.h"

#define NB_QUEUES 2
#define MAX_RECS 4096
#define MAX_FIELDS 16

/* ---- the rule set ---- */

enum { RX_A_RULES = 10, RX_B_RULES = 4, TX_RULES = 5 };

struct env {
	struct mlx5dm_dev *dev;
	struct mlx5dm_sim *sim;
	struct mlx5dm_ctx *ctx;
	struct mlx5dm_domain *rx, *tx;
	struct mlx5dm_table *t1, *t2, *tt;
	struct mlx5dm_rq *rq;
	uint32_t rqn;
	struct mlx5dm_tir *tir;
	struct mlx5dm_counters *cnt;
	struct mlx5dm_matcher *ma, *mb, *mc, *mt;
	struct mlx5dm_action *acts[32];
	unsigned int nb_acts;
	struct mlx5dm_rule *ra[RX_A_RULES], *rb[RX_B_RULES], *rc, *rt[TX_RULES];
	/* Expected action records of each rule (same order as its actions). */
	struct exp_rule {
		const struct mlx5dm_rule *rule;
		bool tx;
		unsigned int nb;
		unsigned int rec[4];
	} exp[32];
	unsigned int nb_exp;
};

static struct mlx5dm_action *
keep(struct env *e, struct mlx5dm_action *a)
{
	assert_non_null(a);
	e->acts[e->nb_acts++] = a;
	return a;
}

static void
mask_dmac(uint8_t *m)
{
	mlx5dm_fte_set(m, MLX5DM_FTE(outer, dmac_47_16), 0xffffffff);
	mlx5dm_fte_set(m, MLX5DM_FTE(outer, dmac_15_0), 0xffff);
}

static void
value_dmac(uint8_t *v, uint64_t mac)
{
	mlx5dm_fte_set(v, MLX5DM_FTE(outer, dmac_47_16), (uint32_t)(mac >> 16));
	mlx5dm_fte_set(v, MLX5DM_FTE(outer, dmac_15_0), (uint32_t)(mac & 0xffff));
}

static struct mlx5dm_matcher *
matcher(struct mlx5dm_table *t, uint16_t prio, const uint8_t *mask, uint32_t log_hint)
{
	struct mlx5dm_matcher_attr ma = {
		.priority = prio, .criteria = MLX5DM_FTE_CRITERIA(outer), .mask = mask,
		.log_rules_hint = log_hint,
	};
	const char *err = NULL;
	struct mlx5dm_matcher *m = mlx5dm_matcher_create(t, &ma, &err);

	if (m == NULL)
		fail_msg("matcher: %d, field %s", errno, err != NULL ? err : "-");
	return m;
}

/* Insert a rule and remember which action records its dump must carry. */
static struct mlx5dm_rule *
rule(struct env *e, struct mlx5dm_matcher *m, uint16_t q, const uint8_t *v, unsigned int n,
     struct mlx5dm_action *a0, unsigned int rec0, struct mlx5dm_action *a1, unsigned int rec1)
{
	struct mlx5dm_action *acts[2] = { a0, a1 };
	struct exp_rule *x = &e->exp[e->nb_exp++];
	struct mlx5dm_rule *r = mlx5dm_rule_create(m, q, v, n, acts);

	assert_non_null(r);
	x->rule = r;
	x->tx = m == e->mt;
	x->nb = n;
	x->rec[0] = rec0;
	x->rec[1] = rec1;
	return r;
}

/* PRM set_action_in: action_type 1, field, length (0 = 32 bits), data. */
static void
set_action(uint8_t *a, unsigned int field, unsigned int len, uint32_t data)
{
	memset(a, 0, MLX5DM_MODIFY_ACTION_SIZE);
	mlx5dm_prm_set(a, 0x000, 4, MLX5DM_MODIFY_ACTION_SET);
	mlx5dm_prm_set(a, 0x004, 12, field);
	mlx5dm_prm_set(a, 0x01b, 5, len);
	mlx5dm_prm_set(a, 0x020, 32, data);
}

/* Eth / IPv4 / UDP(4789) / VXLAN: 50 bytes for the L2 encap, the L2 strip for L3. */
static const uint8_t vxlan_hdr[50] = {
	0x02, 0, 0, 0, 0, 0xaa, 0x02, 0, 0, 0, 0, 0xbb, 0x08, 0x00,
	0x45, 0, 0, 0, 0, 0, 0x40, 0, 64, 17, 0, 0, 10, 1, 1, 1, 10, 2, 2, 2,
	0x12, 0x34, 0x12, 0xb5, 0, 0, 0, 0,
	0x08, 0, 0, 0, 0, 0, 0x2a, 0,
};

static void
build_rx(struct env *e)
{
	uint8_t mask[MLX5DM_MATCH_PARAM_SIZE] = { 0 }, v[MLX5DM_MATCH_PARAM_SIZE];
	uint8_t mod[2 * MLX5DM_MODIFY_ACTION_SIZE];
	struct mlx5dm_action *tir, *tag, *ctr, *drop, *mod2, *mod1, *pop, *dec2, *dec3, *jump;
	struct mlx5dm_action *miss;
	unsigned int i;

	e->t1 = mlx5dm_table_create(e->rx, 1);
	e->t2 = mlx5dm_table_create(e->rx, 2);
	assert_non_null(e->t1);
	assert_non_null(e->t2);
	assert_int_equal(mlx5dm_domain_set_root(e->rx, e->t1), 0);
	tir = keep(e, mlx5dm_action_dest_tir(e->rx, e->tir));
	tag = keep(e, mlx5dm_action_flow_tag(e->rx, 0x1234));
	ctr = keep(e, mlx5dm_action_counter(e->rx, e->cnt, 3));
	drop = keep(e, mlx5dm_action_drop(e->rx));
	set_action(mod, MLX5DM_MODIFY_FLD_IP_TTL, 8, 0x20);
	set_action(mod + MLX5DM_MODIFY_ACTION_SIZE, MLX5DM_MODIFY_FLD_DMAC_15_0, 16, 0x4242);
	mod2 = keep(e, mlx5dm_action_modify_header(e->rx, 2, mod));
	mod1 = keep(e, mlx5dm_action_modify_header(e->rx, 1, mod));
	pop = keep(e, mlx5dm_action_pop_vlan(e->rx));
	dec2 = keep(e, mlx5dm_action_reformat(e->rx, MLX5DM_REFORMAT_L2_TUNNEL_TO_L2, 0, NULL));
	dec3 = keep(e, mlx5dm_action_reformat(e->rx, MLX5DM_REFORMAT_L3_TUNNEL_TO_L2, 14,
					       vxlan_hdr));
	jump = keep(e, mlx5dm_action_dest_table(e->rx, e->t2));
	miss = keep(e, mlx5dm_action_default_miss(e->rx));

	/* Matcher A: dmac, 16 slots, one rule per action kind. */
	mask_dmac(mask);
	e->ma = matcher(e->t1, 0, mask, 4);
	memset(v, 0, sizeof(v));
	for (i = 0; i < RX_A_RULES; i++) {
		static const unsigned int recs[RX_A_RULES][2] = {
			{ 3407, 3411 }, { 3406, 3411 }, { 3403, 0 }, { 3402, 3411 },
			{ 3402, 3411 }, { 3413, 3411 }, { 3409, 3411 }, { 3410, 3411 },
			{ 3405, 0 }, { 3423, 0 },
		};
		struct mlx5dm_action *first[RX_A_RULES] = {
			tag, ctr, drop, mod2, mod1, pop, dec2, dec3, jump, miss,
		};

		value_dmac(v, 0x020000000001ull + i);
		e->ra[i] = rule(e, e->ma, (uint16_t)(i % NB_QUEUES), v, recs[i][1] != 0 ? 2 : 1,
				first[i], recs[i][0], tir, recs[i][1]);
	}

	/*
	 * Matcher B: dmac + IPv4 5-tuple (two lookups), one slot to start
	 * with: rules share a level-0 entry, collide, and make it grow.
	 */
	/* The mask's ip_version is the matcher's IP version. */
	mlx5dm_fte_set(mask, MLX5DM_FTE(outer, ip_version), 4);
	mlx5dm_fte_set(mask, MLX5DM_FTE(outer, src_ip_31_0), 0xffffffff);
	mlx5dm_fte_set(mask, MLX5DM_FTE(outer, dst_ip_31_0), 0xffffffff);
	e->mb = matcher(e->t1, 1, mask, 0);
	mlx5dm_fte_set(v, MLX5DM_FTE(outer, ip_version), 4);
	for (i = 0; i < RX_B_RULES; i++) {
		value_dmac(v, i < 2 ? 0x0200000000b0ull : 0x0200000000b0ull + i);
		mlx5dm_fte_set(v, MLX5DM_FTE(outer, src_ip_31_0), 0x0a000001 + i);
		mlx5dm_fte_set(v, MLX5DM_FTE(outer, dst_ip_31_0), 0x0a0000ff);
		e->rb[i] = rule(e, e->mb, 0, v, 1, tir, 3411, NULL, 0);
	}

	/* Matcher C in the jump target: dmac again, tag + TIR. */
	memset(mask, 0, sizeof(mask));
	mask_dmac(mask);
	e->mc = matcher(e->t2, 5, mask, 2);
	memset(v, 0, sizeof(v));
	value_dmac(v, 0x020000000009ull);
	e->rc = rule(e, e->mc, 1, v, 2, tag, 3407, tir, 3411);
}

static void
build_tx(struct env *e)
{
	uint8_t mask[MLX5DM_MATCH_PARAM_SIZE] = { 0 }, v[MLX5DM_MATCH_PARAM_SIZE] = { 0 };
	uint8_t mod[MLX5DM_MODIFY_ACTION_SIZE * 2];
	struct mlx5dm_action *enc2, *enc3, *push, *drop, *ctr, *mod2;

	e->tt = mlx5dm_table_create(e->tx, 1);
	assert_non_null(e->tt);
	enc2 = keep(e, mlx5dm_action_reformat(e->tx, MLX5DM_REFORMAT_L2_TO_L2_TUNNEL,
					      sizeof(vxlan_hdr), vxlan_hdr));
	enc3 = keep(e, mlx5dm_action_reformat(e->tx, MLX5DM_REFORMAT_L2_TO_L3_TUNNEL,
					      sizeof(vxlan_hdr), vxlan_hdr));
	push = keep(e, mlx5dm_action_push_vlan(e->tx, 0x8100u << 16 | 0x0064));
	drop = keep(e, mlx5dm_action_drop(e->tx));
	ctr = keep(e, mlx5dm_action_counter(e->tx, e->cnt, 5));
	set_action(mod, MLX5DM_MODIFY_FLD_IP_TTL, 8, 0x11);
	set_action(mod + MLX5DM_MODIFY_ACTION_SIZE, MLX5DM_MODIFY_FLD_SIPV4, 0, 0x0a0a0a0a);
	mod2 = keep(e, mlx5dm_action_modify_header(e->tx, 2, mod));
	mask_dmac(mask);
	e->mt = matcher(e->tt, 0, mask, 3);
	value_dmac(v, 0x0200000000c1ull);
	e->rt[0] = rule(e, e->mt, 0, v, 2, ctr, 3406, enc2, 3400);
	value_dmac(v, 0x0200000000c2ull);
	e->rt[1] = rule(e, e->mt, 0, v, 1, enc3, 3401, NULL, 0);
	value_dmac(v, 0x0200000000c3ull);
	e->rt[2] = rule(e, e->mt, 1, v, 1, push, 3412, NULL, 0);
	value_dmac(v, 0x0200000000c4ull);
	e->rt[3] = rule(e, e->mt, 1, v, 1, drop, 3403, NULL, 0);
	value_dmac(v, 0x0200000000c5ull);
	e->rt[4] = rule(e, e->mt, 0, v, 1, mod2, 3402, NULL, 0);
}

static struct env *
env_open(void)
{
	struct mlx5dm_dev_attr dattr = { .transport = "sim" };
	struct mlx5dm_ctx_attr cattr = { .nb_queues = NB_QUEUES };
	struct env *e = calloc(1, sizeof(*e));

	assert_non_null(e);
	e->dev = mlx5dm_dev_open(&dattr);
	assert_non_null(e->dev);
	e->sim = mlx5dm_sim_of(e->dev);
	e->ctx = mlx5dm_ctx_open(e->dev, &cattr);
	assert_non_null(e->ctx);
	e->rx = mlx5dm_domain_create(e->ctx, MLX5DM_DOMAIN_NIC_RX);
	e->tx = mlx5dm_domain_create(e->ctx, MLX5DM_DOMAIN_NIC_TX);
	assert_non_null(e->rx);
	assert_non_null(e->tx);
	e->rq = mlx5dm_rq_create(e->ctx, 6);
	assert_non_null(e->rq);
	e->rqn = mlx5dm_rq_number(e->rq);
	e->tir = mlx5dm_tir_create(e->ctx, &e->rqn, 1, NULL);
	assert_non_null(e->tir);
	e->cnt = mlx5dm_counters_alloc(e->ctx, 4);
	assert_non_null(e->cnt);
	build_rx(e);
	build_tx(e);
	/* Every queued write in ICM before the dump is compared with it. */
	assert_int_equal(mlx5dm_domain_sync(e->rx, MLX5DM_SYNC_SW), 0);
	return e;
}

static void
env_close(struct env *e)
{
	unsigned int i;

	for (i = 0; i < RX_A_RULES; i++)
		assert_int_equal(mlx5dm_rule_destroy(e->ra[i], 0), 0);
	for (i = 0; i < RX_B_RULES; i++)
		assert_int_equal(mlx5dm_rule_destroy(e->rb[i], 1), 0);
	assert_int_equal(mlx5dm_rule_destroy(e->rc, 0), 0);
	for (i = 0; i < TX_RULES; i++)
		assert_int_equal(mlx5dm_rule_destroy(e->rt[i], 0), 0);
	assert_int_equal(mlx5dm_matcher_destroy(e->ma), 0);
	assert_int_equal(mlx5dm_matcher_destroy(e->mb), 0);
	assert_int_equal(mlx5dm_matcher_destroy(e->mc), 0);
	assert_int_equal(mlx5dm_matcher_destroy(e->mt), 0);
	for (i = 0; i < e->nb_acts; i++)
		assert_int_equal(mlx5dm_action_destroy(e->acts[i]), 0);
	assert_int_equal(mlx5dm_domain_set_root(e->rx, NULL), 0);
	assert_int_equal(mlx5dm_table_destroy(e->t1), 0);
	assert_int_equal(mlx5dm_table_destroy(e->t2), 0);
	assert_int_equal(mlx5dm_table_destroy(e->tt), 0);
	assert_int_equal(mlx5dm_counters_free(e->cnt), 0);
	assert_int_equal(mlx5dm_tir_destroy(e->tir), 0);
	assert_int_equal(mlx5dm_rq_destroy(e->rq), 0);
	assert_int_equal(mlx5dm_domain_destroy(e->rx), 0);
	assert_int_equal(mlx5dm_domain_destroy(e->tx), 0);
	assert_int_equal(mlx5dm_ctx_close(e->ctx), 0);
	mlx5dm_dev_close(e->dev);
	free(e);
}

/* ---- the dump, parsed back ---- */

struct rec {
	unsigned int type;
	unsigned int nf;
	char *f[MAX_FIELDS];
};

struct dump {
	char *text;
	size_t len;
	struct rec r[MAX_RECS];
	unsigned int n;
};

/* Dump dom into memory and split it into records (empty fields kept). */
static struct dump *
dump_domain(struct mlx5dm_domain *dom, bool save)
{
	struct dump *d = calloc(1, sizeof(*d));
	char *line, *next;
	FILE *f;

	assert_non_null(d);
	f = open_memstream(&d->text, &d->len);
	assert_non_null(f);
	assert_int_equal(mlx5dm_domain_dump(dom, f), 0);
	assert_int_equal(fclose(f), 0);
	if (save && getenv("MLX5DM_STEER_DUMP_OUT") != NULL) {
		FILE *o = fopen(getenv("MLX5DM_STEER_DUMP_OUT"), "a");

		assert_non_null(o);
		assert_int_equal(fwrite(d->text, 1, d->len, o), d->len);
		assert_int_equal(fclose(o), 0);
	}
	assert_true(d->len > 0 && d->text[d->len - 1] == '\n');
	for (line = d->text; *line != '\0'; line = next) {
		struct rec *r = &d->r[d->n++];
		char *p = line;

		assert_true(d->n <= MAX_RECS);
		next = strchr(line, '\n');
		assert_non_null(next);
		*next++ = '\0';
		for (;;) {
			char *c = strchr(p, ',');

			assert_true(r->nf < MAX_FIELDS);
			r->f[r->nf++] = p;
			if (c == NULL)
				break;
			*c = '\0';
			p = c + 1;
		}
		r->type = (unsigned int)strtoul(r->f[0], NULL, 10);
	}
	return d;
}

static void
dump_free(struct dump *d)
{
	free(d->text);
	free(d);
}

static unsigned int
count(const struct dump *d, unsigned int type)
{
	unsigned int i, n = 0;

	for (i = 0; i < d->n; i++)
		n += d->r[i].type == type;
	return n;
}

/* The record of type whose field 1 (its own id) is id, or NULL. */
static const struct rec *
find(const struct dump *d, unsigned int type, const char *id)
{
	unsigned int i;

	for (i = 0; i < d->n; i++) {
		if (d->r[i].type == type && strcmp(d->r[i].f[1], id) == 0)
			return &d->r[i];
	}
	return NULL;
}

static void
id_str(char *buf, size_t n, const void *obj)
{
	snprintf(buf, n, "0x%" PRIx64, (uint64_t)(uintptr_t)obj);
}

static uint64_t
num(const char *s)
{
	char *end;
	uint64_t v = strtoull(s, &end, 0);

	assert_true(*s != '\0' && *end == '\0');
	return v;
}

static void
unhex(const char *s, uint8_t *out, size_t n)
{
	size_t i;

	assert_int_equal(strlen(s), 2 * n);
	for (i = 0; i < n; i++) {
		unsigned int b;

		assert_int_equal(sscanf(s + 2 * i, "%2x", &b), 1);
		out[i] = (uint8_t)b;
	}
}

/* Full ICM address of a dumped line index (idx = addr >> 6, 32 bits). */
static uint64_t
icm_of(struct env *e, uint64_t idx)
{
	uint64_t base = mlx5dm_sim_caps(e->sim)->steering_sw_icm_start;

	return (base & ~((1ull << 38) - 1)) | idx << 6;
}

/* Field counts of each record type we emit (rdma-core's, 3100: + FT id). */
static unsigned int
nb_fields(unsigned int type)
{
	static const struct { unsigned int type, nf; } t[] = {
		{ 3000, 12 }, { 3001, 4 }, { 3004, 8 }, { 3005, 5 },
		{ 3100, 6 }, { 3101, 3 }, { 3102, 3 },
		{ 3200, 4 }, { 3202, 7 }, { 3203, 7 }, { 3204, 6 },
		{ 3300, 3 }, { 3303, 4 }, { 3304, 4 },
		{ 3400, 4 }, { 3401, 4 }, { 3402, 8 }, { 3403, 3 }, { 3405, 5 },
		{ 3406, 4 }, { 3407, 4 }, { 3409, 3 }, { 3410, 4 }, { 3411, 4 },
		{ 3412, 4 }, { 3413, 3 }, { 3423, 3 },
	};
	unsigned int i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		if (t[i].type == type)
			return t[i].nf;
	}
	fail_msg("unexpected record type %u", type);
	return 0;
}

/*
 * Structure: field counts, and every record names an object of the right
 * type that came before it (domain, table, matcher, rule).
 */
static void
check_structure(const struct dump *d, bool rx)
{
	const char *dom = NULL, *tbl = NULL, *mat = NULL, *rul = NULL;
	unsigned int i;

	assert_int_equal(d->r[0].type, 3000);
	for (i = 0; i < d->n; i++) {
		const struct rec *r = &d->r[i];
		unsigned int t = r->type;

		if (t == 3205) {
			/* 9 fields, or 10 when misc5 is absent (rdma-core's extra comma). */
			assert_true(r->nf == 9 || (r->nf == 10 && r->f[9][0] == '\0'));
		} else {
			assert_int_equal(r->nf, nb_fields(t));
		}
		if (t >= 3001 && t <= 3004)
			assert_string_equal(r->f[1], dom);
		switch (t) {
		case 3000:
			dom = r->f[1];
			assert_int_equal(num(r->f[2]), rx ? 0 : 1);
			assert_int_equal(num(r->f[11]), 1); /* STE format v1 */
			break;
		case 3001:
		case 3004:
			break;
		case 3005:
			assert_string_equal(r->f[2], dom);
			break;
		case 3100:
			tbl = r->f[1];
			mat = NULL;
			assert_string_equal(r->f[2], dom);
			assert_int_equal(num(r->f[3]), rx ? 0 : 1);
			break;
		case 3101:
		case 3102:
			assert_int_equal(t, rx ? 3101 : 3102);
			assert_string_equal(r->f[1], tbl);
			break;
		case 3200:
			mat = r->f[1];
			rul = NULL;
			assert_string_equal(r->f[2], tbl);
			break;
		case 3202:
		case 3203:
			assert_int_equal(t, rx ? 3202 : 3203);
			assert_string_equal(r->f[2], mat);
			break;
		case 3204:
			assert_string_equal(r->f[1], mat);
			assert_int_equal(num(r->f[3]), rx ? 1 : 0);
			assert_string_equal(r->f[5], "-1");
			break;
		case 3205:
			assert_string_equal(r->f[1], mat);
			break;
		case 3300:
			rul = r->f[1];
			assert_string_equal(r->f[2], mat);
			break;
		case 3303:
		case 3304:
			assert_int_equal(t, rx ? 3303 : 3304);
			assert_string_equal(r->f[2], rul);
			assert_int_equal(strlen(r->f[3]), 128);
			break;
		default:
			assert_true(t >= 3400 && t <= 3424);
			assert_non_null(rul);
			assert_string_equal(r->f[2], rul);
			break;
		}
	}
}

/* Every STE of every rule is, byte for byte, the entry in ICM. */
static unsigned int
check_entries_in_icm(struct env *e, const struct dump *d)
{
	unsigned int i, n = 0;

	for (i = 0; i < d->n; i++) {
		const struct rec *r = &d->r[i];
		uint8_t sw[64], icm[64];

		if (r->type != 3303 && r->type != 3304)
			continue;
		unhex(r->f[3], sw, sizeof(sw));
		assert_int_equal(mlx5dm_sim_icm_read(e->sim, icm_of(e, num(r->f[1])), icm,
						     sizeof(icm)), 0);
		assert_memory_equal(icm, sw, 32);
		/* entry_format 4 (MATCH): tag 32..63; BWC: ICM has mask 32..47, tag 48..63. */
		if (sw[0] == 0x04) {
			assert_memory_equal(icm + 32, sw + 32, 32);
		} else {
			assert_memory_equal(icm + 32, sw + 48, 16);
			assert_memory_equal(icm + 48, sw + 32, 16);
		}
		n++;
	}
	return n;
}

/* The records of the rule with this id: its index, entries and actions. */
static unsigned int
rule_recs(const struct dump *d, const void *rule, unsigned int *nb_entries,
	  unsigned int *nb_actions)
{
	char id[32];
	unsigned int i, at = d->n;

	id_str(id, sizeof(id), rule);
	for (i = 0; i < d->n; i++) {
		if (d->r[i].type == 3300 && strcmp(d->r[i].f[1], id) == 0) {
			assert_int_equal(at, d->n); /* dumped once */
			at = i;
		}
	}
	assert_true(at < d->n);
	*nb_entries = 0;
	*nb_actions = 0;
	for (i = at + 1; i < d->n && d->r[i].type > 3300; i++) {
		if (d->r[i].type < 3400)
			(*nb_entries)++;
		else
			(*nb_actions)++;
	}
	return at;
}


/* Each expected rule of the side: dumped once, with its entries and actions in order. */
static void
check_rules(struct env *e, const struct dump *d, bool tx)
{
	unsigned int i, j, n_rules = 0;

	for (i = 0; i < e->nb_exp; i++) {
		const struct exp_rule *x = &e->exp[i];
		unsigned int at, ne, na, nb_builders = 0;

		if (x->tx != tx)
			continue;
		n_rules++;
		at = rule_recs(d, x->rule, &ne, &na);
		assert_non_null(find(d, 3200, d->r[at].f[2]));
		for (j = 0; j < d->n; j++) {
			if ((d->r[j].type == 3202 || d->r[j].type == 3203) &&
			    strcmp(d->r[j].f[2], d->r[at].f[2]) == 0)
				nb_builders = (unsigned int)num(d->r[j].f[3]);
		}
		/* Match levels, then the action STEs if the actions needed more room. */
		assert_true(nb_builders >= 1);
		assert_true(ne >= nb_builders);
		assert_int_equal(na, x->nb);
		for (j = 0; j < x->nb; j++)
			assert_int_equal(d->r[at + 1 + ne + j].type, x->rec[j]);
	}
	assert_int_equal(n_rules, count(d, 3300));
}

/* The ICM line index of entry k of a rule (0 = level 0). */
static uint64_t
rule_entry_idx(const struct dump *d, const void *rule, unsigned int k, uint8_t *sw)
{
	unsigned int ne, na, at = rule_recs(d, rule, &ne, &na);

	assert_true(k < ne);
	if (sw != NULL)
		unhex(d->r[at + 1 + k].f[3], sw, 64);
	return num(d->r[at + 1 + k].f[1]);
}

/* Field f of the first action record of type of this rule. */
static const char *
rule_action_field(const struct dump *d, const void *rule, unsigned int type, unsigned int f)
{
	unsigned int ne, na, at = rule_recs(d, rule, &ne, &na), i;

	for (i = at + 1 + ne; i < at + 1 + ne + na; i++) {
		if (d->r[i].type == type)
			return d->r[i].f[f];
	}
	fail_msg("rule has no action record %u", type);
	return NULL;
}

static const struct rec *
matcher_rec(const struct dump *d, unsigned int type, const void *m)
{
	char id[32];
	unsigned int i;

	id_str(id, sizeof(id), m);
	if (type == 3200)
		return find(d, 3200, id);
	for (i = 0; i < d->n; i++) {
		if (d->r[i].type == type && strcmp(d->r[i].f[type >= 3204 ? 1 : 2], id) == 0)
			return &d->r[i];
	}
	fail_msg("no record %u for matcher %s", type, id);
	return NULL;
}

/* Section bytes of a mask record (rdma-core's little-endian words), all-zero if absent. */
static void
mask_section(const struct rec *r, unsigned int field, uint8_t *out)
{
	memset(out, 0, 64);
	if (r->f[field][0] != '\0')
		unhex(r->f[field], out, 64);
}

static void
check_masks(struct env *e, const struct dump *d)
{
	uint8_t sec[64], exp[64];
	const struct rec *r;
	unsigned int i;

	/* Matcher A, outer only: dmac_47_16 is word 2; dmac_15_0 bits 0-15 of word 3. */
	r = matcher_rec(d, 3205, e->ma);
	assert_int_equal(r->nf, 10);
	mask_section(r, 2, sec);
	memset(exp, 0, sizeof(exp));
	memset(exp + 8, 0xff, 6);
	assert_memory_equal(sec, exp, 64);
	for (i = 3; i < 10; i++)
		assert_string_equal(r->f[i], "");
	/* Matcher B adds ip_version 4 (word 4, bits 19-22), src_ip_31_0 (word 11), dst (15). */
	r = matcher_rec(d, 3205, e->mb);
	mask_section(r, 2, sec);
	exp[16 + 2] = 4 << 3;
	memset(exp + 44, 0xff, 4);
	memset(exp + 60, 0xff, 4);
	assert_memory_equal(sec, exp, 64);
}

/* Words of an STE control (big-endian bit layout, mlx5_ifc.h ste_match_bwc_v1). */
static uint64_t
ctrl_miss_addr(const uint8_t *ste)
{
	return (uint64_t)ste[7] << 32 | (uint64_t)(mlx5dm_prm_get(ste, 0x40, 26)) << 6;
}

/* Unused slots of matcher A's first table miss to its end anchor; the root is table 1. */
static void
check_anchors(struct env *e, const struct dump *d)
{
	const struct rec *side = matcher_rec(d, 3202, e->ma);
	uint64_t s_htbl = icm_of(e, num(side->f[4])), e_anchor = icm_of(e, num(side->f[5]));
	unsigned int i, j, unused = 0;
	char id[32];
	uint64_t root;

	for (i = 0; i < 16; i++) {
		uint64_t idx = (s_htbl >> 6) + i;
		bool used = false;
		uint8_t ste[64];

		for (j = 0; j < d->n; j++)
			used |= d->r[j].type == 3303 && num(d->r[j].f[1]) == (idx & 0xffffffff);
		if (used)
			continue;
		assert_int_equal(mlx5dm_sim_icm_read(e->sim, s_htbl + 64u * i, ste, 64), 0);
		assert_int_equal(ctrl_miss_addr(ste), e_anchor & ((1ull << 40) - 1));
		unused++;
	}
	assert_true(unused >= 16 - RX_A_RULES);
	assert_int_equal(mlx5dm_sim_root_lookup(e->sim, MLX5DM_SIM_DIR_RX, &root), 0);
	id_str(id, sizeof(id), e->t1);
	for (i = 0; i < d->n; i++) {
		if (d->r[i].type == 3101 && strcmp(d->r[i].f[1], id) == 0)
			assert_int_equal(num(d->r[i].f[2]), (root >> 6) & 0xffffffff);
	}
}

/* Record count per type. */
static void
check_counts_rx(const struct dump *d)
{
	assert_int_equal(count(d, 3000), 1);
	assert_int_equal(count(d, 3001), 6);
	assert_int_equal(count(d, 3004), 1);
	assert_int_equal(count(d, 3005), NB_QUEUES + 1);
	assert_int_equal(count(d, 3100), 2);
	assert_int_equal(count(d, 3101), 2);
	assert_int_equal(count(d, 3102), 0);
	assert_int_equal(count(d, 3200), 3);
	assert_int_equal(count(d, 3205), 3);
	assert_int_equal(count(d, 3202), 3);
	/* dmac: one lookup (ETHL2); dmac + IPv4 addresses: two. */
	assert_int_equal(count(d, 3204), 1 + 2 + 1);
	assert_int_equal(count(d, 3300), RX_A_RULES + RX_B_RULES + 1);
	assert_int_equal(count(d, 3407), 2);
	assert_int_equal(count(d, 3411), 7 + RX_B_RULES + 1);
	assert_int_equal(count(d, 3406), 1);
	assert_int_equal(count(d, 3403), 1);
	assert_int_equal(count(d, 3402), 2);
	assert_int_equal(count(d, 3413), 1);
	assert_int_equal(count(d, 3409), 1);
	assert_int_equal(count(d, 3410), 1);
	assert_int_equal(count(d, 3405), 1);
	assert_int_equal(count(d, 3423), 1);
	/* Every rule lists all its STEs, shared ones included (B: two levels). */
	assert_true(count(d, 3303) >= RX_A_RULES + 2 * RX_B_RULES + 1);
}

static void
test_dump_rx(void **state)
{
	struct env *e = env_open();
	struct dump *d = dump_domain(e->rx, true);
	struct mlx5dm_ctx_stats st;
	uint8_t sw[64], sw1[64];
	const struct rec *r;
	char id[32];
	unsigned int i;
	const char *tir_id = NULL;

	(void)state;
	check_structure(d, true);
	check_counts_rx(d);
	check_rules(e, d, false);
	assert_int_equal(check_entries_in_icm(e, d), count(d, 3303));
	check_masks(e, d);
	check_anchors(e, d);

	/* Matcher A: one ETHL2 (0x0003) lookup; rule 0's tag holds its dmac. */
	r = matcher_rec(d, 3204, e->ma);
	assert_int_equal(num(r->f[4]), 0x0003);
	rule_entry_idx(d, e->ra[0], 0, sw);
	assert_int_equal(sw[0] << 8 | sw[6], 0x0003);
	assert_memory_equal(sw + 32 + 4, ((uint8_t[]){ 0x02, 0, 0, 0, 0, 0x01 }), 6);
	assert_memory_equal(sw + 48 + 4, ((uint8_t[]){ 0xff, 0xff, 0xff, 0xff, 0xff, 0xff }),
			    6);
	/* Matcher B's one-slot table grew: its older table is walked through the chain. */
	assert_int_equal(mlx5dm_ctx_stats_get(e->ctx, &st), 0);
	assert_true(st.rehash >= 1);
	/* Matcher B: rules 0 and 1 share level 0 and part at level 1. */
	assert_int_equal(rule_entry_idx(d, e->rb[0], 0, NULL),
			 rule_entry_idx(d, e->rb[1], 0, NULL));
	assert_int_not_equal(rule_entry_idx(d, e->rb[0], 1, sw),
			     rule_entry_idx(d, e->rb[1], 1, sw1));
	assert_int_not_equal(rule_entry_idx(d, e->rb[0], 0, NULL),
			     rule_entry_idx(d, e->rb[2], 0, NULL));

	/* Action values. */
	assert_int_equal(num(rule_action_field(d, e->ra[0], 3407, 3)), 0x1234);
	assert_int_equal(num(rule_action_field(d, e->ra[0], 3411, 3)),
			 mlx5dm_res_tir_icm_addr(e->tir));
	assert_int_equal(num(rule_action_field(d, e->ra[1], 3406, 3)),
			 mlx5dm_res_counter_id(e->cnt, 3));
	id_str(id, sizeof(id), e->t2);
	r = find(d, 3100, id);
	assert_non_null(r);
	assert_int_equal(num(r->f[4]), 2);
	assert_string_equal(rule_action_field(d, e->ra[8], 3405, 3), r->f[5]);
	assert_string_equal(rule_action_field(d, e->ra[8], 3405, 4), id);
	/* Inline single modify action vs a list in ICM. */
	assert_string_equal(rule_action_field(d, e->ra[4], 3402, 4), "1");
	assert_string_equal(rule_action_field(d, e->ra[3], 3402, 4), "0");
	/* The shared TIR action has one id everywhere. */
	for (i = 0; i < d->n; i++) {
		if (d->r[i].type != 3411)
			continue;
		if (tir_id == NULL)
			tir_id = d->r[i].f[1];
		assert_string_equal(d->r[i].f[1], tir_id);
	}
	/* The counter is in the control of one of the rule's STEs (bits 8..31). */
	{
		unsigned int ne, na, at = rule_recs(d, e->ra[1], &ne, &na), found = 0;

		for (i = 0; i < ne; i++) {
			unhex(d->r[at + 1 + i].f[3], sw, 64);
			found += mlx5dm_prm_get(sw, 8, 24) == mlx5dm_res_counter_id(e->cnt, 3);
		}
		assert_int_equal(found, 1);
	}
	dump_free(d);
	env_close(e);
}

static void
test_dump_tx(void **state)
{
	struct env *e = env_open();
	struct dump *d = dump_domain(e->tx, true);

	(void)state;
	check_structure(d, false);
	assert_int_equal(count(d, 3100), 1);
	assert_int_equal(count(d, 3102), 1);
	assert_int_equal(count(d, 3101), 0);
	assert_int_equal(count(d, 3203), 1);
	assert_int_equal(count(d, 3300), TX_RULES);
	assert_int_equal(count(d, 3303), 0);
	assert_true(count(d, 3304) >= TX_RULES);
	check_rules(e, d, true);
	assert_int_equal(check_entries_in_icm(e, d), count(d, 3304));
	assert_int_equal(num(rule_action_field(d, e->rt[2], 3412, 3)), 0x81000064);
	assert_int_equal(num(rule_action_field(d, e->rt[0], 3406, 3)),
			 mlx5dm_res_counter_id(e->cnt, 5));
	/* Encap data in ENCAP ICM: an index, different for the two actions. */
	assert_string_not_equal(rule_action_field(d, e->rt[0], 3400, 3),
				rule_action_field(d, e->rt[1], 3401, 3));
	dump_free(d);
	env_close(e);
}

/* A dump writes nothing to the device and leaves the state as it was. */
static void
test_dump_is_read_only(void **state)
{
	struct env *e = env_open();
	struct mlx5dm_ctx_stats before, after;
	struct dump *d1, *d2;

	(void)state;
	assert_int_equal(mlx5dm_ctx_stats_get(e->ctx, &before), 0);
	d1 = dump_domain(e->rx, false);
	d2 = dump_domain(e->rx, false);
	assert_int_equal(mlx5dm_ctx_stats_get(e->ctx, &after), 0);
	assert_int_equal(before.wqes, after.wqes);
	assert_int_equal(before.write_bytes, after.write_bytes);
	assert_int_equal(before.rules, after.rules);
	assert_int_equal(d1->len, d2->len);
	assert_memory_equal(d1->text, d2->text, d1->len);
	dump_free(d1);
	dump_free(d2);
	env_close(e);
}

/* Dump one rule into memory (NUL-terminated text). */
static char *
dump_rule_text(struct mlx5dm_rule *rule, size_t *len)
{
	char *text = NULL;
	FILE *f = open_memstream(&text, len);

	assert_non_null(f);
	assert_int_equal(mlx5dm_rule_dump(rule, f), 0);
	assert_int_equal(fclose(f), 0);
	return text;
}

/*
 * One rule's dump is the block of the domain dump that starts at its rule
 * record: the same lines (3300, its STEs, its actions), nothing else.
 */
static void
test_rule_dump(void **state)
{
	struct env *e = env_open();
	struct mlx5dm_rule *rules[] = { e->ra[1], e->rb[0], e->ra[8] };
	struct dump *d = dump_domain(e->rx, false);
	char *full = NULL, *one, head[64];
	size_t flen = 0, olen, k;
	unsigned int i, ne, na, lines;
	FILE *f;

	(void)state;
	f = open_memstream(&full, &flen);
	assert_non_null(f);
	assert_int_equal(mlx5dm_domain_dump(e->rx, f), 0);
	assert_int_equal(fclose(f), 0);
	for (i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		rule_recs(d, rules[i], &ne, &na);
		one = dump_rule_text(rules[i], &olen);
		snprintf(head, sizeof(head), "3300,0x%" PRIx64 ",", (uint64_t)(uintptr_t)rules[i]);
		assert_true(strncmp(one, head, strlen(head)) == 0);
		lines = 0;
		for (k = 0; k < olen; k++)
			lines += one[k] == '\n';
		assert_int_equal(lines, 1 + ne + na);
		assert_non_null(strstr(full, one));
		free(one);
	}
	f = fopen("/dev/null", "w");
	assert_non_null(f);
	assert_int_equal(mlx5dm_rule_dump(NULL, f), -EINVAL);
	assert_int_equal(mlx5dm_rule_dump(e->ra[1], NULL), -EINVAL);
	assert_int_equal(fclose(f), 0);
	free(full);
	dump_free(d);
	env_close(e);
}

static void
test_dump_errors(void **state)
{
	struct env *e = env_open();
	char small[256];
	FILE *f;

	(void)state;
	f = fopen("/dev/null", "w");
	assert_non_null(f);
	assert_int_equal(mlx5dm_domain_dump(NULL, f), -EINVAL);
	assert_int_equal(mlx5dm_domain_dump(e->rx, NULL), -EINVAL);
	assert_int_equal(fclose(f), 0);
	/* A stream that refuses writes, and one that fills up. */
	f = fopen("/dev/null", "r");
	assert_non_null(f);
	assert_int_equal(mlx5dm_domain_dump(e->rx, f), -EIO);
	assert_int_equal(fclose(f), 0);
	f = fmemopen(small, sizeof(small), "w");
	assert_non_null(f);
	assert_int_equal(mlx5dm_domain_dump(e->rx, f), -EIO);
	fclose(f);
	env_close(e);
}

/* A domain without tables: the domain and its info records only. */
static void
test_dump_empty(void **state)
{
	struct mlx5dm_dev_attr dattr = { .transport = "sim" };
	struct mlx5dm_dev *dev = mlx5dm_dev_open(&dattr);
	struct mlx5dm_ctx *ctx;
	struct mlx5dm_domain *dom;
	struct dump *d;
	static const char *const flex[][2] = {
		{ "icmp_dw0", "0x0" }, { "icmp_dw1", "0x0" }, { "icmpv6_dw0", "0x0" },
		{ "icmpv6_dw1", "0x0" },
		/* The model's flex parsers of MPLS over GRE / over UDP. */
		{ "mpls_over_gre", "0x3" }, { "mpls_over_udp", "0x4" },
	};
	unsigned int i, k = 0;

	(void)state;
	assert_non_null(dev);
	ctx = mlx5dm_ctx_open(dev, NULL);
	assert_non_null(ctx);
	dom = mlx5dm_domain_create(ctx, MLX5DM_DOMAIN_NIC_TX);
	assert_non_null(dom);
	d = dump_domain(dom, false);
	check_structure(d, false);
	assert_int_equal(d->n, 1 + 1 + 6 + 2);
	assert_int_equal(count(d, 3005), 2);
	/* 3001: name, parser id, in this order. */
	for (i = 0; i < d->n; i++) {
		if (d->r[i].type != 3001)
			continue;
		assert_true(k < sizeof(flex) / sizeof(flex[0]));
		assert_string_equal(d->r[i].f[2], flex[k][0]);
		assert_string_equal(d->r[i].f[3], flex[k][1]);
		k++;
	}
	assert_int_equal(k, 6);
	dump_free(d);
	assert_int_equal(mlx5dm_domain_destroy(dom), 0);
	assert_int_equal(mlx5dm_ctx_close(ctx), 0);
	mlx5dm_dev_close(dev);
}

/* Rules inserted and deleted on another thread while dumps run. */
struct churn {
	struct env *e;
	bool stop;                       /* atomic */
	unsigned int rounds;             /* atomic */
};

static void *
churn_thread(void *arg)
{
	struct churn *c = arg;
	uint8_t v[MLX5DM_MATCH_PARAM_SIZE] = { 0 };
	struct mlx5dm_action *drop = c->e->acts[3];
	struct mlx5dm_rule *r[8];
	unsigned int i;

	while (!__atomic_load_n(&c->stop, __ATOMIC_ACQUIRE)) {
		for (i = 0; i < 8; i++) {
			value_dmac(v, 0x020000001000ull + i);
			r[i] = mlx5dm_rule_create(c->e->ma, 1, v, 1, &drop);
			if (r[i] == NULL)
				abort();
		}
		for (i = 0; i < 8; i++) {
			if (mlx5dm_rule_destroy(r[i], 1) != 0)
				abort();
		}
		__atomic_fetch_add(&c->rounds, 1, __ATOMIC_RELEASE);
	}
	return NULL;
}

static void
test_dump_concurrent(void **state)
{
	struct churn c = { .e = env_open() };
	unsigned int i, n, seen = 0, start;
	pthread_t th;

	(void)state;
	assert_int_equal(pthread_create(&th, NULL, churn_thread, &c), 0);
	while (__atomic_load_n(&c.rounds, __ATOMIC_ACQUIRE) == 0)
		sched_yield();
	/* At least 50 dumps, and until the other thread did a few rounds meanwhile. */
	start = __atomic_load_n(&c.rounds, __ATOMIC_ACQUIRE);
	for (i = 0; i < 50 || __atomic_load_n(&c.rounds, __ATOMIC_ACQUIRE) < start + 3; i++) {
		struct dump *d = dump_domain(c.e->rx, false);

		check_structure(d, true);
		n = count(d, 3300);
		assert_true(n >= RX_A_RULES + RX_B_RULES + 1 && n <= RX_A_RULES + RX_B_RULES + 9);
		seen += n > RX_A_RULES + RX_B_RULES + 1;
		dump_free(d);
		assert_true(i < 100000);
	}
	__atomic_store_n(&c.stop, true, __ATOMIC_RELEASE);
	assert_int_equal(pthread_join(th, NULL), 0);
	print_message("%u dumps (%u saw churn rules) during %u insert/delete rounds\n", i, seen,
		      c.rounds - start);
	env_close(c.e);
}

/*
 * The flex-parser lookups in a dump: a matcher on MPLS over GRE (the model's
 * parser 3: FLEX_PARSER_0, tag bytes 0..3) and one on MPLS over UDP (parser
 * 4: FLEX_PARSER_1, tag bytes 12..15; one matcher cannot have both, as in
 * rdma-core); builder records carry the lookup types, the rules' entries
 * the header dwords. Saved for check_dump_format.py (and mlx_steering_dump)
 * like the other domains.
 */
static void
test_dump_flex(void **state)
{
	struct mlx5dm_dev_attr dattr = { .transport = "sim" };
	struct mlx5dm_dev *dev = mlx5dm_dev_open(&dattr);
	uint8_t mask[2][MLX5DM_MATCH_PARAM_SIZE] = { { 0 } }, v[MLX5DM_MATCH_PARAM_SIZE];
	/* label 0x12345, ttl 0x40 | label 0xabcde: the MPLS header dwords, big-endian. */
	const uint8_t tag0[16] = { 0x12, 0x34, 0x50, 0x40 };
	const uint8_t tag1[16] = { [12] = 0xab, [13] = 0xcd, [14] = 0xe0 };
	const uint16_t lu[2] = { 0x0111, 0x0112 };
	unsigned int i, k, nb = 0, seen[2] = { 0, 0 };
	struct mlx5dm_matcher *m[2];
	struct mlx5dm_rule *r[2];
	struct mlx5dm_action *drop;
	struct mlx5dm_domain *dom;
	struct mlx5dm_table *tbl;
	struct mlx5dm_ctx *ctx;
	struct dump *d;

	(void)state;
	assert_non_null(dev);
	ctx = mlx5dm_ctx_open(dev, NULL);
	assert_non_null(ctx);
	dom = mlx5dm_domain_create(ctx, MLX5DM_DOMAIN_NIC_RX);
	assert_non_null(dom);
	tbl = mlx5dm_table_create(dom, 1);
	assert_non_null(tbl);
	drop = mlx5dm_action_drop(dom);
	assert_non_null(drop);
	mlx5dm_fte_set(mask[0], MLX5DM_FTE(misc2, outer_first_mpls_over_gre_label), 0xfffff);
	mlx5dm_fte_set(mask[0], MLX5DM_FTE(misc2, outer_first_mpls_over_gre_ttl), 0xff);
	mlx5dm_fte_set(mask[1], MLX5DM_FTE(misc2, outer_first_mpls_over_udp_label), 0xfffff);
	for (k = 0; k < 2; k++) {
		struct mlx5dm_matcher_attr ma = {
			.priority = (uint16_t)k, .criteria = MLX5DM_FTE_CRITERIA(misc2),
			.mask = mask[k],
		};

		m[k] = mlx5dm_matcher_create(tbl, &ma, NULL);
		assert_non_null(m[k]);
		memset(v, 0, sizeof(v));
		if (k == 0) {
			mlx5dm_fte_set(v, MLX5DM_FTE(misc2, outer_first_mpls_over_gre_label),
				       0x12345);
			mlx5dm_fte_set(v, MLX5DM_FTE(misc2, outer_first_mpls_over_gre_ttl), 0x40);
		} else {
			mlx5dm_fte_set(v, MLX5DM_FTE(misc2, outer_first_mpls_over_udp_label),
				       0xabcde);
		}
		r[k] = mlx5dm_rule_create(m[k], 0, v, 1, &drop);
		assert_non_null(r[k]);
	}
	assert_int_equal(mlx5dm_queue_drain(ctx, 0), 0);
	d = dump_domain(dom, true);
	check_structure(d, true);
	for (i = 0; i < d->n; i++) {
		const struct rec *rc = &d->r[i];
		uint8_t sw[64];

		if (rc->type == 3204) {
			/* The matchers in priority order: GRE's lookup, then UDP's. */
			assert_true(nb < 2);
			assert_int_equal(num(rc->f[4]), lu[nb]);
			nb++;
		} else if (rc->type == 3303) {
			/* Software layout: control | tag | mask; the tag at 32. */
			unhex(rc->f[3], sw, sizeof(sw));
			seen[0] += memcmp(sw + 32, tag0, 16) == 0;
			seen[1] += memcmp(sw + 32, tag1, 16) == 0;
		}
	}
	assert_int_equal(nb, 2);
	assert_int_equal(seen[0], 1);
	assert_int_equal(seen[1], 1);
	dump_free(d);
	for (k = 0; k < 2; k++) {
		assert_int_equal(mlx5dm_rule_destroy(r[k], 0), 0);
		assert_int_equal(mlx5dm_matcher_destroy(m[k]), 0);
	}
	assert_int_equal(mlx5dm_action_destroy(drop), 0);
	assert_int_equal(mlx5dm_table_destroy(tbl), 0);
	assert_int_equal(mlx5dm_domain_destroy(dom), 0);
	assert_int_equal(mlx5dm_ctx_close(ctx), 0);
	mlx5dm_dev_close(dev);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dump_rx),
		cmocka_unit_test(test_dump_tx),
		cmocka_unit_test(test_dump_is_read_only),
		cmocka_unit_test(test_dump_errors),
		cmocka_unit_test(test_rule_dump),
		cmocka_unit_test(test_dump_empty),
		cmocka_unit_test(test_dump_flex),
		cmocka_unit_test(test_dump_concurrent),
	};

	return cmocka_run_group_tests_name("steer_dump", tests, NULL, NULL);
}
