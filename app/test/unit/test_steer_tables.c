/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Tables, priorities and jumps on the device model: matchers of different
 * priorities in one table (lower first, whatever the creation order),
 * shadowing, matcher removal from any position of the list, jumps across
 * levels (with metadata and header changes carried along), multi-level
 * matchers whose rules share lookup entries, collision chains, and
 * thousands of random rules with random deletion and re-insertion, every
 * rule's frame checked each time.
 */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <cmocka.h>

#include "mlx5dm_steer_priv.h"
#include "steer_test_env.h"
#include "test_util.h"

#define F(sec, name) MLX5DM_FTE(sec, name)

#define MAC_X 0x020000000aaaull
#define MAC_Y 0x020000000bbbull
#define DIP_D 0x0a0000ddu
#define DIP_E 0x0a0000eeu

static void
send_expect(struct senv *e, uint64_t dmac, uint32_t dip, int q)
{
	struct frame f;
	struct pkt p;
	int got;

	pkt_udp4(&p);
	p.o.dmac = dmac;
	p.o.dip = dip;
	frame_build(&f, &p);
	got = senv_send(e, &f, NULL);
	if (got != q)
		fail_msg("dmac %012llx dip %08x: queue %d, expected %d", (unsigned long long)dmac,
			 dip, got, q);
}

/* ---- priorities ---- */

/*
 * Three matchers: A (dmac) priority 1 -> queue 1, B (dmac + dip) priority
 * 0 -> queue 2, C (everything) priority 2 -> queue 3.
 */
struct prio_set {
	struct mlx5dm_matcher *m[3];
	struct mlx5dm_rule *r[3];
};

static const uint16_t prio_of[3] = { 1, 0, 2 };

static void
prio_mask_value(unsigned int k, uint8_t *mask, uint8_t *v, uint8_t *crit)
{
	memset(mask, 0, MP_SIZE);
	memset(v, 0, MP_SIZE);
	*crit = k == 2 ? 0 : CRIT(outer);
	if (k == 2)
		return;
	mp_mac(mask, F(outer, dmac_47_16), 0xffffffffffffull);
	mp_mac(v, F(outer, dmac_47_16), MAC_X);
	if (k == 1) {
		mp_set(mask, F(outer, ip_version), 4);
		mp_set(mask, F(outer, dst_ip_31_0), 0xffffffff);
		mp_set(v, F(outer, ip_version), 4);
		mp_set(v, F(outer, dst_ip_31_0), DIP_D);
	}
}

static void
prio_add(struct senv *e, struct prio_set *s, unsigned int k)
{
	uint8_t mask[MP_SIZE], v[MP_SIZE], crit;

	prio_mask_value(k, mask, v, &crit);
	s->m[k] = senv_matcher(e->tbl, prio_of[k], crit, mask, 0);
	s->r[k] = senv_rule(s->m[k], 0, v, 1, &e->to_q[k + 1]);
}

static void
prio_del(struct prio_set *s, unsigned int k)
{
	if (s->r[k] != NULL)
		assert_int_equal(mlx5dm_rule_destroy(s->r[k], 0), 0);
	assert_int_equal(mlx5dm_matcher_destroy(s->m[k]), 0);
	s->r[k] = NULL;
	s->m[k] = NULL;
}

static void
test_priorities_any_order(void **state)
{
	static const uint8_t orders[6][3] = {
		{ 0, 1, 2 }, { 0, 2, 1 }, { 1, 0, 2 }, { 1, 2, 0 }, { 2, 0, 1 }, { 2, 1, 0 },
	};
	struct senv *e = senv_open(1);
	unsigned int o, k;

	(void)state;
	for (o = 0; o < 6; o++) {
		struct prio_set s;

		memset(&s, 0, sizeof(s));
		for (k = 0; k < 3; k++)
			prio_add(e, &s, orders[o][k]);
		/* B (priority 0) shadows A for its destination; A shadows C. */
		send_expect(e, MAC_X, DIP_D, 2);
		send_expect(e, MAC_X, DIP_E, 1);
		send_expect(e, MAC_Y, DIP_D, 3);
		for (k = 0; k < 3; k++)
			prio_del(&s, orders[o][(k + o) % 3]);
		send_expect(e, MAC_X, DIP_D, RX_DROPPED);
	}
	senv_close(e);
}

static void
test_shadowing_and_removal(void **state)
{
	struct senv *e = senv_open(1);
	uint8_t mask[MP_SIZE], v[MP_SIZE], crit;
	struct prio_set s;
	unsigned int k;

	(void)state;
	memset(&s, 0, sizeof(s));
	for (k = 0; k < 3; k++)
		prio_add(e, &s, k);
	/* A matcher with rules cannot go. */
	assert_int_equal(mlx5dm_matcher_destroy(s.m[0]), -EBUSY);
	/* Shadowing rule removed: its frames fall to the next matcher, then the next. */
	assert_int_equal(mlx5dm_rule_destroy(s.r[1], 0), 0);
	assert_int_equal(mlx5dm_domain_sync(e->rx, MLX5DM_SYNC_SW | MLX5DM_SYNC_HW), 0);
	send_expect(e, MAC_X, DIP_D, 1);
	assert_int_equal(mlx5dm_rule_destroy(s.r[0], 0), 0);
	assert_int_equal(mlx5dm_domain_sync(e->rx, MLX5DM_SYNC_SW | MLX5DM_SYNC_HW), 0);
	send_expect(e, MAC_X, DIP_D, 3);
	/* And back. */
	prio_mask_value(1, mask, v, &crit);
	s.r[1] = senv_rule(s.m[1], 0, v, 1, &e->to_q[2]);
	send_expect(e, MAC_X, DIP_D, 2);
	prio_mask_value(0, mask, v, &crit);
	s.r[0] = senv_rule(s.m[0], 0, v, 1, &e->to_q[1]);
	send_expect(e, MAC_X, DIP_E, 1);

	/* List order B(0) A(1) C(2): remove the middle one, traffic falls through to C. */
	prio_del(&s, 0);
	send_expect(e, MAC_X, DIP_E, 3);
	send_expect(e, MAC_X, DIP_D, 2);
	/* A new matcher goes back into the middle. */
	prio_add(e, &s, 0);
	send_expect(e, MAC_X, DIP_E, 1);
	/* Remove the first one. */
	prio_del(&s, 1);
	send_expect(e, MAC_X, DIP_D, 1);
	send_expect(e, MAC_Y, DIP_D, 3);
	/* Remove the last one; then the only one. */
	prio_del(&s, 2);
	send_expect(e, MAC_Y, DIP_D, RX_DROPPED);
	send_expect(e, MAC_X, DIP_D, 1);
	prio_del(&s, 0);
	send_expect(e, MAC_X, DIP_D, RX_DROPPED);
	senv_close(e);
}

/* Equal priorities: the matcher created first is looked up first. */
static void
test_equal_priorities(void **state)
{
	struct senv *e = senv_open(1);
	unsigned int first;

	(void)state;
	for (first = 0; first < 2; first++) {
		struct mlx5dm_matcher *m[2];
		struct mlx5dm_rule *r[2];
		unsigned int i;

		for (i = 0; i < 2; i++) {
			unsigned int k = (first + i) % 2;
			uint8_t mask[MP_SIZE] = { 0 }, v[MP_SIZE] = { 0 };

			if (k == 0) {
				mp_mac(mask, F(outer, dmac_47_16), 0xffffffffffffull);
				mp_mac(v, F(outer, dmac_47_16), MAC_X);
			} else {
				mp_set(mask, F(outer, ip_version), 4);
				mp_set(mask, F(outer, dst_ip_31_0), 0xffffffff);
				mp_set(v, F(outer, ip_version), 4);
				mp_set(v, F(outer, dst_ip_31_0), DIP_D);
			}
			m[k] = senv_matcher(e->tbl, 5, CRIT(outer), mask, 0);
			r[k] = senv_rule(m[k], 0, v, 1, &e->to_q[k]);
		}
		send_expect(e, MAC_X, DIP_D, (int)first);
		send_expect(e, MAC_X, DIP_E, 0);
		send_expect(e, MAC_Y, DIP_D, 1);
		for (i = 0; i < 2; i++) {
			assert_int_equal(mlx5dm_rule_destroy(r[i], 0), 0);
			assert_int_equal(mlx5dm_matcher_destroy(m[i]), 0);
		}
	}
	senv_close(e);
}

/* ---- jumps ---- */

static void
test_jumps(void **state)
{
	struct senv *e = senv_open(1);
	struct mlx5dm_action *to_t2, *to_t3, *tag, *mod, *acts[3];
	struct mlx5dm_table *t2, *t3;
	struct mlx5dm_matcher *m1, *m2, *m3;
	struct mlx5dm_rule *r1[2], *r2[2], *r3;
	uint8_t mask[MP_SIZE] = { 0 }, v[MP_SIZE] = { 0 }, list[MOD_SIZE];
	struct frame f, want;
	struct rx got;
	struct pkt p;

	(void)state;
	t2 = mlx5dm_table_create(e->rx, 2);
	t3 = mlx5dm_table_create(e->rx, 3);
	assert_non_null(t2);
	assert_non_null(t3);
	to_t2 = mlx5dm_action_dest_table(e->rx, t2);
	to_t3 = mlx5dm_action_dest_table(e->rx, t3);
	tag = mlx5dm_action_flow_tag(e->rx, 0x5151);
	mod_set(list, 0x16 /* DIPV4 */, 0, 0, DIP_E);
	mod = mlx5dm_action_modify_header(e->rx, 1, list);
	assert_non_null(to_t2);
	assert_non_null(to_t3);
	assert_non_null(tag);
	assert_non_null(mod);
	/* Another domain's table is no destination. */
	assert_null(mlx5dm_action_dest_table(e->tx, t2));
	assert_int_equal(errno, EINVAL);

	/* Table 1 on the MAC: X tags and goes to table 2, Y rewrites its dip and skips to 3. */
	mp_mac(mask, F(outer, dmac_47_16), 0xffffffffffffull);
	m1 = senv_matcher(e->tbl, 0, CRIT(outer), mask, 0);
	mp_mac(v, F(outer, dmac_47_16), MAC_X);
	acts[0] = tag;
	acts[1] = to_t2;
	r1[0] = senv_rule(m1, 0, v, 2, acts);
	mp_mac(v, F(outer, dmac_47_16), MAC_Y);
	acts[0] = mod;
	acts[1] = to_t3;
	r1[1] = senv_rule(m1, 0, v, 2, acts);
	/* Table 2 on the destination address: D to queue 1, E on to table 3. */
	memset(mask, 0, sizeof(mask));
	memset(v, 0, sizeof(v));
	mp_set(mask, F(outer, ip_version), 4);
	mp_set(mask, F(outer, dst_ip_31_0), 0xffffffff);
	m2 = senv_matcher(t2, 0, CRIT(outer), mask, 0);
	mp_set(v, F(outer, ip_version), 4);
	mp_set(v, F(outer, dst_ip_31_0), DIP_D);
	r2[0] = senv_rule(m2, 0, v, 1, &e->to_q[1]);
	mp_set(v, F(outer, dst_ip_31_0), DIP_E);
	r2[1] = senv_rule(m2, 0, v, 1, &to_t3);
	/* Table 3 on the destination address again: only E, to queue 3. */
	m3 = senv_matcher(t3, 0, CRIT(outer), mask, 0);
	r3 = senv_rule(m3, 0, v, 1, &e->to_q[3]);

	send_expect(e, MAC_X, DIP_D, 1);
	/* X, E: table 1 -> 2 -> 3; the tag of table 1 is delivered. */
	pkt_udp4(&p);
	p.o.dmac = MAC_X;
	p.o.dip = DIP_E;
	frame_build(&f, &p);
	assert_int_equal(senv_send(e, &f, &got), 3);
	assert_true(got.flags & MLX5DM_SIM_PKT_F_FLOW_TAG);
	assert_int_equal(got.flow_tag, 0x5151);
	rx_assert_bytes(&got, &f);
	/* Y, D: the address rewritten in table 1 is what table 3 matches. */
	p.o.dmac = MAC_Y;
	p.o.dip = DIP_D;
	frame_build(&f, &p);
	p.o.dip = DIP_E;
	frame_build(&want, &p);
	assert_int_equal(senv_send(e, &f, &got), 3);
	assert_false(got.flags & MLX5DM_SIM_PKT_F_FLOW_TAG);
	rx_assert_bytes(&got, &want);
	/* A miss in a jumped-to table is the domain default (drop). */
	send_expect(e, MAC_X, 0x01010101, RX_DROPPED);

	/* Tables in use cannot go. */
	assert_int_equal(mlx5dm_table_destroy(t3), -EBUSY);
	assert_int_equal(mlx5dm_action_destroy(to_t3), -EBUSY);
	assert_int_equal(mlx5dm_rule_destroy(r1[1], 0), 0);
	assert_int_equal(mlx5dm_rule_destroy(r2[1], 0), 0);
	assert_int_equal(mlx5dm_rule_destroy(r3, 0), 0);
	assert_int_equal(mlx5dm_matcher_destroy(m3), 0);
	/* No rules, no matchers, but the jump action still names table 3. */
	assert_int_equal(mlx5dm_table_destroy(t3), -EBUSY);
	assert_int_equal(mlx5dm_action_destroy(to_t3), 0);
	assert_int_equal(mlx5dm_table_destroy(t3), 0);
	send_expect(e, MAC_X, DIP_D, 1);
	assert_int_equal(mlx5dm_rule_destroy(r1[0], 0), 0);
	assert_int_equal(mlx5dm_rule_destroy(r2[0], 0), 0);
	assert_int_equal(mlx5dm_matcher_destroy(m1), 0);
	assert_int_equal(mlx5dm_matcher_destroy(m2), 0);
	DESTROY_ACTIONS(to_t2, tag, mod);
	assert_int_equal(mlx5dm_table_destroy(t2), 0);
	senv_close(e);
}

/* A jump must go to a deeper level: backwards or to itself would loop. */
static void
test_jump_levels(void **state)
{
	struct senv *e = senv_open(1);
	struct mlx5dm_action *to_t1, *to_t2;
	struct mlx5dm_matcher *m;
	struct mlx5dm_table *t2;
	uint8_t zero[MP_SIZE] = { 0 };

	(void)state;
	t2 = mlx5dm_table_create(e->rx, 2);
	assert_non_null(t2);
	to_t1 = mlx5dm_action_dest_table(e->rx, e->tbl);
	to_t2 = mlx5dm_action_dest_table(e->rx, t2);
	assert_non_null(to_t1);
	assert_non_null(to_t2);
	m = senv_matcher(t2, 0, 0, zero, 0);
	test_log_start();
	assert_null(mlx5dm_rule_create(m, 0, zero, 1, &to_t1));
	assert_int_equal(errno, EINVAL);
	assert_string_equal(test_log_last(), "steer: action 0 jumps from level 2 to level 1");
	assert_null(mlx5dm_rule_create(m, 0, zero, 1, &to_t2));
	assert_int_equal(errno, EINVAL);
	assert_string_equal(test_log_last(), "steer: action 0 jumps from level 2 to level 2");
	test_log_stop();
	assert_int_equal(senv_stats(e).rules, 0);
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	assert_int_equal(mlx5dm_action_destroy(to_t1), 0);
	assert_int_equal(mlx5dm_action_destroy(to_t2), 0);
	assert_int_equal(mlx5dm_table_destroy(t2), 0);
	senv_close(e);
}

/* ---- multi-level matchers ---- */

/* Rules and their expected outcome (tag = index + 1, queue = index % 4). */
struct rset {
	void (*value)(const struct fkey *k, uint8_t *v);
	unsigned int n;
	struct fkey *k;
	struct mlx5dm_rule **r;
	struct mlx5dm_action **tag;
	uint32_t *tagv;
};

static void
rset_init(struct rset *s, unsigned int n)
{
	s->value = fkey_value;
	s->n = n;
	s->k = calloc(n, sizeof(*s->k));
	s->r = calloc(n, sizeof(*s->r));
	s->tag = calloc(n, sizeof(*s->tag));
	s->tagv = calloc(n, sizeof(*s->tagv));
	assert_non_null(s->k);
	assert_non_null(s->r);
	assert_non_null(s->tag);
	assert_non_null(s->tagv);
}

static void
rset_insert(struct senv *e, struct rset *s, struct mlx5dm_matcher *m, unsigned int i,
	    uint32_t tagv)
{
	struct mlx5dm_action *acts[2];
	uint8_t v[MP_SIZE];

	s->tag[i] = mlx5dm_action_flow_tag(e->rx, tagv);
	assert_non_null(s->tag[i]);
	s->tagv[i] = tagv;
	acts[0] = s->tag[i];
	acts[1] = e->to_q[i % SENV_NB_RQ];
	s->value(&s->k[i], v);
	s->r[i] = senv_rule(m, 0, v, 2, acts);
}

static void
rset_delete(struct rset *s, unsigned int i)
{
	assert_int_equal(mlx5dm_rule_destroy(s->r[i], 0), 0);
	assert_int_equal(mlx5dm_action_destroy(s->tag[i]), 0);
	s->r[i] = NULL;
}

/* Every frame: installed rules deliver with their tag, deleted ones are dropped. */
static void
rset_check(struct senv *e, const struct rset *s)
{
	unsigned int i;

	assert_int_equal(mlx5dm_domain_sync(e->rx, MLX5DM_SYNC_SW | MLX5DM_SYNC_HW), 0);
	for (i = 0; i < s->n; i++) {
		struct frame f;
		struct rx got;
		int q;

		fkey_frame(&s->k[i], &f);
		q = senv_send(e, &f, &got);
		if (s->r[i] == NULL) {
			if (q != RX_DROPPED)
				fail_msg("deleted rule %u still matches (queue %d)", i, q);
			continue;
		}
		if (q != (int)(i % SENV_NB_RQ) || got.flow_tag != s->tagv[i])
			fail_msg("rule %u: queue %d tag 0x%x, expected %u 0x%x", i, q, got.flow_tag,
				 i % SENV_NB_RQ, s->tagv[i]);
	}
}

static void
rset_free(struct rset *s)
{
	free(s->k);
	free(s->r);
	free(s->tag);
	free(s->tagv);
}

/* Rules sharing their first two lookups, deleted in an interleaved order. */
static void
test_shared_prefixes(void **state)
{
	struct senv *e = senv_open(1);
	struct mlx5dm_ctx_stats st0, st1;
	struct mlx5dm_matcher *m;
	uint8_t mask[MP_SIZE];
	struct rset s;
	unsigned int i;

	(void)state;
	st0 = senv_stats(e);
	fkey_mask(mask);
	m = senv_matcher(e->tbl, 0, CRIT(outer), mask, 0);
	/* 2 MACs x 2 TTLs x 60 five-tuples. */
	rset_init(&s, 240);
	for (i = 0; i < s.n; i++) {
		s.k[i].dmac = MAC_X + (i % 2);
		s.k[i].ttl = (uint8_t)(64 + (i / 2) % 2);
		s.k[i].tcp = (i / 4) % 2;
		s.k[i].sip = 0x0a000001;
		s.k[i].dip = 0x0a000100 + i / 4;
		s.k[i].sport = 1000;
		s.k[i].dport = 2000;
		rset_insert(e, &s, m, i, i + 1);
	}
	rset_check(e, &s);
	/* A frame that shares the first two lookups with rules but not the third. */
	{
		struct fkey k = s.k[0];
		struct frame f;

		k.dport = 2001;
		fkey_frame(&k, &f);
		assert_int_equal(senv_send(e, &f, NULL), RX_DROPPED);
		k = s.k[0];
		k.ttl = 65 + 1;
		fkey_frame(&k, &f);
		assert_int_equal(senv_send(e, &f, NULL), RX_DROPPED);
	}
	/* Every second rule of each prefix, then all but one of each prefix. */
	for (i = 0; i < s.n; i += 8)
		rset_delete(&s, i);
	rset_check(e, &s);
	for (i = 0; i < s.n; i++)
		if (s.r[i] != NULL && i >= 4)
			rset_delete(&s, i);
	rset_check(e, &s);
	/* Re-insert into the surviving prefixes and into emptied ones. */
	for (i = 4; i < s.n; i += 3)
		rset_insert(e, &s, m, i, 0x10000 + i);
	rset_check(e, &s);
	for (i = 0; i < s.n; i++)
		if (s.r[i] != NULL)
			rset_delete(&s, i);
	rset_check(e, &s);
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	rset_free(&s);
	senv_sync(e);
	st1 = senv_stats(e);
	assert_icm_equal(&st0, &st1);
	senv_close(e);
}

/*
 * Collision chains: a mask with no fully-masked byte hashes nothing, so
 * every entry of a lookup shares slot 0 (and such a table never grows).
 */
#define COLL_MASK 0x7f7f7f7fu

static void
coll_value(const struct fkey *k, uint8_t *v)
{
	memset(v, 0, MP_SIZE);
	mp_set(v, F(outer, ip_version), 4);
	mp_set(v, F(outer, dst_ip_31_0), k->dip & COLL_MASK);
}

static void
dmac_value(const struct fkey *k, uint8_t *v)
{
	memset(v, 0, MP_SIZE);
	mp_mac(v, F(outer, dmac_47_16), k->dmac);
}

static void
test_collision_chain(void **state)
{
	static const unsigned int del_order[] = { 0, 63, 31, 1, 62, 32, 30 };
	struct senv *e = senv_open(1);
	struct mlx5dm_ctx_stats st0, st1;
	struct mlx5dm_matcher *m;
	uint8_t mask[MP_SIZE] = { 0 };
	struct rset s;
	unsigned int i;

	(void)state;
	st0 = senv_stats(e);
	mp_set(mask, F(outer, ip_version), 4);
	mp_set(mask, F(outer, dst_ip_31_0), COLL_MASK);
	m = senv_matcher(e->tbl, 0, CRIT(outer), mask, 4);
	rset_init(&s, 64);
	s.value = coll_value;
	for (i = 0; i < s.n; i++) {
		s.k[i].dmac = 0x020000000001ull;
		s.k[i].ttl = 64;
		s.k[i].sip = 0x0a000001;
		s.k[i].dip = 0x01010101 * (i % 4 + 1) + (i / 4) * 0x00000200;
		s.k[i].sport = 1000;
		s.k[i].dport = 2000;
		rset_insert(e, &s, m, i, 0x300 + i);
	}
	assert_int_equal(senv_stats(e).rehash, st0.rehash);
	rset_check(e, &s);
	/* Head, tail, middle, neighbours of removed entries. */
	for (i = 0; i < sizeof(del_order) / sizeof(del_order[0]); i++) {
		rset_delete(&s, del_order[i]);
		rset_check(e, &s);
	}
	/* Back at the tail of the chain. */
	rset_insert(e, &s, m, 0, 0x400);
	rset_insert(e, &s, m, 31, 0x401);
	rset_check(e, &s);
	for (i = 0; i < s.n; i++)
		if (s.r[i] != NULL)
			rset_delete(&s, i);
	rset_check(e, &s);
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	rset_free(&s);
	senv_sync(e);
	st1 = senv_stats(e);
	assert_icm_equal(&st0, &st1);
	senv_close(e);
}

static void
fkey_random(struct fkey *k, uint64_t *seed)
{
	uint64_t r = rnd_next(seed);

	k->dmac = 0x020000000000ull + (r & 3);
	k->ttl = (uint8_t)(64 + (r >> 2) % 3);
	k->tcp = (r >> 4) & 1;
	k->sip = 0x0a000000 + (uint32_t)((r >> 5) & 3);
	k->dip = 0x0a010000 + (uint32_t)((r >> 8) & 0xfff);
	k->sport = (uint16_t)((r >> 20) & 63);
	k->dport = (uint16_t)(1000 + ((r >> 26) & 63));
}

static bool
fkey_equal(const struct fkey *a, const struct fkey *b)
{
	return a->dmac == b->dmac && a->ttl == b->ttl && a->tcp == b->tcp && a->sip == b->sip &&
	       a->dip == b->dip && a->sport == b->sport && a->dport == b->dport;
}

/* Thousands of random rules; random deletes and re-inserts; every frame checked each time. */
static void
test_random_rules(void **state)
{
	struct senv *e = senv_open(1);
	struct mlx5dm_ctx_stats st0, st1;
	struct mlx5dm_matcher *m;
	uint64_t seed = 0x5eed1234abcdull;
	uint8_t mask[MP_SIZE];
	struct rset s;
	unsigned int i, j, round;

	(void)state;
	st0 = senv_stats(e);
	fkey_mask(mask);
	m = senv_matcher(e->tbl, 0, CRIT(outer), mask, 0);
	rset_init(&s, 3000);
	for (i = 0; i < s.n; i++) {
		do {
			fkey_random(&s.k[i], &seed);
			for (j = 0; j < i && !fkey_equal(&s.k[i], &s.k[j]); j++)
				;
		} while (j < i);
		rset_insert(e, &s, m, i, i + 1);
	}
	assert_int_equal(senv_stats(e).rules, st0.rules + s.n);
	/* The per-prefix tables had to grow. */
	assert_true(senv_stats(e).rehash > st0.rehash);
	rset_check(e, &s);
	for (round = 0; round < 2; round++) {
		for (i = 0; i < s.n; i++)
			if (s.r[i] != NULL && rnd_next(&seed) % 2 == 0)
				rset_delete(&s, i);
		rset_check(e, &s);
		for (i = 0; i < s.n; i++)
			if (s.r[i] == NULL && rnd_next(&seed) % 3 == 0)
				rset_insert(e, &s, m, i, 0x100000 * (round + 1) + i);
		rset_check(e, &s);
	}
	for (i = 0; i < s.n; i++)
		if (s.r[i] != NULL)
			rset_delete(&s, i);
	rset_check(e, &s);
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	rset_free(&s);
	senv_sync(e);
	st1 = senv_stats(e);
	assert_int_equal(st1.rules, st0.rules);
	assert_icm_equal(&st0, &st1);
	senv_close(e);
}

/* ---- duplicates, empty action lists, queues, sizing ---- */

/* With duplicates allowed, equal rules queue up: the oldest one wins. */
static void
test_duplicates(void **state)
{
	struct mlx5dm_ctx_attr cattr = { .nb_queues = 1, .allow_duplicate_rules = true };
	struct senv *e = senv_open_ex(&cattr, NULL);
	uint8_t mask[MP_SIZE] = { 0 }, v[MP_SIZE] = { 0 };
	struct mlx5dm_rule *r[4], *other;
	struct mlx5dm_matcher *m;
	unsigned int i;

	(void)state;
	fkey_mask(mask);
	m = senv_matcher(e->tbl, 0, CRIT(outer), mask, 0);
	{
		struct fkey k = {
			.dmac = MAC_X, .ttl = 64, .sip = 0x0a000001, .dip = DIP_D,
			.sport = 1000, .dport = 2000,
		};
		struct frame f;

		fkey_value(&k, v);
		fkey_frame(&k, &f);
		/* A rule sharing the first two lookups, to keep the prefix busy. */
		k.dport = 2001;
		{
			uint8_t v2[MP_SIZE];

			fkey_value(&k, v2);
			other = senv_rule(m, 0, v2, 1, &e->to_q[0]);
		}
		for (i = 0; i < 3; i++)
			r[i] = senv_rule(m, 0, v, 1, &e->to_q[i + 1]);
		assert_int_equal(senv_send(e, &f, NULL), 1);
		/* The oldest goes: the next one in line takes over. */
		assert_int_equal(mlx5dm_rule_destroy(r[0], 0), 0);
		assert_int_equal(senv_send(e, &f, NULL), 2);
		/* A new equal rule goes to the back of the line. */
		r[3] = senv_rule(m, 0, v, 1, &e->to_q[0]);
		assert_int_equal(senv_send(e, &f, NULL), 2);
		/* One from the middle. */
		assert_int_equal(mlx5dm_rule_destroy(r[2], 0), 0);
		assert_int_equal(senv_send(e, &f, NULL), 2);
		assert_int_equal(mlx5dm_rule_destroy(r[1], 0), 0);
		assert_int_equal(senv_send(e, &f, NULL), 0);
		assert_int_equal(mlx5dm_rule_destroy(r[3], 0), 0);
		assert_int_equal(mlx5dm_domain_sync(e->rx, MLX5DM_SYNC_SW | MLX5DM_SYNC_HW), 0);
		assert_int_equal(senv_send(e, &f, NULL), RX_DROPPED);
		fkey_frame(&k, &f);
		assert_int_equal(senv_send(e, &f, NULL), 0);
	}
	assert_int_equal(mlx5dm_rule_destroy(other, 0), 0);
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	senv_close(e);
}

/* No actions: the domain default (RX drop, TX wire). */
static void
test_no_actions(void **state)
{
	struct senv *e = senv_open(1);
	uint8_t zero[MP_SIZE] = { 0 };
	struct mlx5dm_matcher *m, *mt, *mall;
	struct mlx5dm_rule *r, *rt, *rall;
	struct mlx5dm_table *tt;
	struct frame f;
	struct rx got;
	struct pkt p;

	(void)state;
	pkt_udp4(&p);
	frame_build(&f, &p);
	/* RX: an empty rule ahead of a catch-all to queue 2 still drops. */
	m = senv_matcher(e->tbl, 0, 0, zero, 0);
	r = senv_rule(m, 0, zero, 0, NULL);
	mall = senv_matcher(e->tbl, 1, 0, zero, 0);
	rall = senv_rule(mall, 0, zero, 1, &e->to_q[2]);
	assert_int_equal(senv_send(e, &f, NULL), RX_DROPPED);
	assert_int_equal(mlx5dm_rule_destroy(r, 0), 0);
	assert_int_equal(senv_send(e, &f, NULL), 2);
	/* TX: an empty rule lets the frame go. */
	tt = mlx5dm_table_create(e->tx, 1);
	assert_non_null(tt);
	assert_int_equal(mlx5dm_domain_set_root(e->tx, tt), 0);
	mt = senv_matcher(tt, 0, 0, zero, 0);
	rt = senv_rule(mt, 0, zero, 0, NULL);
	assert_int_equal(senv_send(e, &f, &got), 2);
	rx_assert_bytes(&got, &f);
	assert_int_equal(mlx5dm_rule_destroy(rt, 0), 0);
	assert_int_equal(mlx5dm_matcher_destroy(mt), 0);
	assert_int_equal(mlx5dm_domain_set_root(e->tx, NULL), 0);
	assert_int_equal(mlx5dm_table_destroy(tt), 0);
	assert_int_equal(mlx5dm_rule_destroy(rall, 0), 0);
	assert_int_equal(mlx5dm_matcher_destroy(mall), 0);
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	senv_close(e);
}

/* Rules written on one queue and removed on another (one thread). */
static void
test_cross_queue(void **state)
{
	struct senv *e = senv_open(3);
	struct mlx5dm_matcher *m;
	uint8_t mask[MP_SIZE];
	struct rset s;
	unsigned int i;

	(void)state;
	fkey_mask(mask);
	m = senv_matcher(e->tbl, 0, CRIT(outer), mask, 0);
	rset_init(&s, 300);
	for (i = 0; i < s.n; i++) {
		struct mlx5dm_action *acts[2];
		uint8_t v[MP_SIZE];

		s.k[i].dmac = MAC_X + i % 3;
		s.k[i].ttl = 64;
		s.k[i].sip = 0x0a000001;
		s.k[i].dip = 0x0a000100 + i;
		s.k[i].sport = 1000;
		s.k[i].dport = 2000;
		s.tagv[i] = i + 1;
		s.tag[i] = mlx5dm_action_flow_tag(e->rx, s.tagv[i]);
		assert_non_null(s.tag[i]);
		acts[0] = s.tag[i];
		acts[1] = e->to_q[i % SENV_NB_RQ];
		fkey_value(&s.k[i], v);
		s.r[i] = senv_rule(m, (uint16_t)(i % 3), v, 2, acts);
	}
	rset_check(e, &s);
	for (i = 0; i < s.n; i += 2) {
		assert_int_equal(mlx5dm_rule_destroy(s.r[i], (uint16_t)((i + 1) % 3)), 0);
		assert_int_equal(mlx5dm_action_destroy(s.tag[i]), 0);
		s.r[i] = NULL;
	}
	rset_check(e, &s);
	for (i = 1; i < s.n; i += 2) {
		assert_int_equal(mlx5dm_rule_destroy(s.r[i], (uint16_t)((i + 2) % 3)), 0);
		assert_int_equal(mlx5dm_action_destroy(s.tag[i]), 0);
		s.r[i] = NULL;
	}
	rset_check(e, &s);
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	rset_free(&s);
	senv_close(e);
}

/*
 * Tables removed while they grow: n rules inserted then all deleted, for
 * many n, so that some deletions (and matcher removals) catch a bigger
 * table half filled.
 */
static void
test_growth_interrupted(void **state)
{
	struct senv *e = senv_open(1);
	struct mlx5dm_ctx_stats st0, st1;
	unsigned int n, i, deep;
	uint64_t grown = 0;

	(void)state;
	st0 = senv_stats(e);
	for (deep = 0; deep < 2; deep++) {
		for (n = 200; n < 2600; n += 211) {
			struct mlx5dm_ctx_stats a, b;
			struct mlx5dm_matcher *m;
			uint8_t mask[MP_SIZE];
			struct rset s;

			a = senv_stats(e);
			/* deep: dmac fixed, so the 5-tuple level grows; else the dmac level. */
			fkey_mask(mask);
			m = senv_matcher(e->tbl, 0, CRIT(outer), mask, 0);
			rset_init(&s, n);
			for (i = 0; i < n; i++) {
				s.k[i].dmac = deep ? MAC_X : MAC_X + i * 0x1000;
				s.k[i].ttl = 64;
				s.k[i].sip = 0x0a000001;
				s.k[i].dip = 0x0a100000 + i;
				s.k[i].sport = 1000;
				s.k[i].dport = 2000;
				rset_insert(e, &s, m, i, i + 1);
			}
			b = senv_stats(e);
			grown += b.rehash - a.rehash;
			rset_check(e, &s);
			for (i = 0; i < n; i++)
				rset_delete(&s, i);
			/* Everything deleted: in again with other keys, then out. */
			for (i = 0; i < n; i += 2) {
				s.k[i].dip += 0x10000;
				rset_insert(e, &s, m, i, i + 1);
			}
			rset_check(e, &s);
			for (i = 0; i < n; i += 2)
				rset_delete(&s, i);
			assert_int_equal(mlx5dm_matcher_destroy(m), 0);
			rset_free(&s);
		}
	}
	assert_true(grown > 0);
	senv_sync(e);
	st1 = senv_stats(e);
	assert_icm_equal(&st0, &st1);
	senv_close(e);
}

/* A size hint pre-sizes the first table: no growth up to it. */
static void
test_size_hint(void **state)
{
	static const uint32_t hints[] = { 12, 40 };
	struct senv *e = senv_open(1);
	unsigned int h, i;

	(void)state;
	for (h = 0; h < 2; h++) {
		struct mlx5dm_ctx_stats a, b;
		struct mlx5dm_matcher *m;
		uint8_t mask[MP_SIZE] = { 0 };
		struct rset s;

		mp_mac(mask, F(outer, dmac_47_16), 0xffffffffffffull);
		a = senv_stats(e);
		m = senv_matcher(e->tbl, 0, CRIT(outer), mask, hints[h]);
		rset_init(&s, 1500);
		s.value = dmac_value;
		for (i = 0; i < s.n; i++) {
			s.k[i].dmac = 0x020000000000ull + i * 0x10001;
			s.k[i].ttl = 64;
			s.k[i].sip = 0x0a000001;
			s.k[i].dip = 0x0a000002;
			s.k[i].sport = 1000;
			s.k[i].dport = 2000;
			rset_insert(e, &s, m, i, i + 1);
		}
		b = senv_stats(e);
		assert_int_equal(b.rehash, a.rehash);
		rset_check(e, &s);
		for (i = 0; i < s.n; i++)
			rset_delete(&s, i);
		assert_int_equal(mlx5dm_matcher_destroy(m), 0);
		rset_free(&s);
	}
	senv_close(e);
}

/*
 * NIC TX tables: table 1 writes register A (TX only) and jumps; table 2
 * matches it: drop, rewrite the TTL, or miss (the TX default: the wire).
 */
static void
test_tx_metadata(void **state)
{
	struct senv *e = senv_open(1);
	struct mlx5dm_action *setreg[3], *jump, *drop, *ttl, *acts[2];
	struct mlx5dm_matcher *m1, *m2, *mrx;
	struct mlx5dm_rule *r1[3], *r2[2], *rrx;
	struct mlx5dm_table *t1, *t2;
	uint8_t mask[MP_SIZE] = { 0 }, v[MP_SIZE], list[MOD_SIZE];
	unsigned int i;

	(void)state;
	t1 = mlx5dm_table_create(e->tx, 1);
	t2 = mlx5dm_table_create(e->tx, 2);
	assert_non_null(t1);
	assert_non_null(t2);
	assert_int_equal(mlx5dm_domain_set_root(e->tx, t1), 0);
	jump = mlx5dm_action_dest_table(e->tx, t2);
	drop = mlx5dm_action_drop(e->tx);
	mod_set(list, 0x0a, 0, 8, 3);
	ttl = mlx5dm_action_modify_header(e->tx, 1, list);
	assert_non_null(jump);
	assert_non_null(drop);
	assert_non_null(ttl);
	memset(v, 0, sizeof(v));
	mrx = senv_matcher(e->tbl, 0, 0, v, 0);
	rrx = senv_rule(mrx, 0, v, 1, &e->to_q[1]);
	mp_mac(mask, F(outer, dmac_47_16), 0xffffffffffffull);
	m1 = senv_matcher(t1, 0, CRIT(outer), mask, 0);
	memset(mask, 0, sizeof(mask));
	mp_set(mask, F(misc2, metadata_reg_a), 0xffffffff);
	m2 = senv_matcher(t2, 0, CRIT(misc2), mask, 0);
	for (i = 0; i < 3; i++) {
		mod_set(list, 0x49 /* REG_A */, 0, 0, 0xa0000 + i);
		setreg[i] = mlx5dm_action_modify_header(e->tx, 1, list);
		assert_non_null(setreg[i]);
		memset(v, 0, sizeof(v));
		mp_mac(v, F(outer, dmac_47_16), MAC_X + i);
		acts[0] = setreg[i];
		acts[1] = jump;
		r1[i] = senv_rule(m1, 0, v, 2, acts);
		if (i == 2)
			continue;
		memset(v, 0, sizeof(v));
		mp_set(v, F(misc2, metadata_reg_a), 0xa0000 + i);
		r2[i] = senv_rule(m2, 0, v, 1, i == 0 ? &drop : &ttl);
	}
	for (i = 0; i < 3; i++) {
		struct frame f, want;
		struct rx got;
		struct pkt p;

		pkt_udp4(&p);
		p.o.dmac = MAC_X + i;
		frame_build(&f, &p);
		if (i == 1)
			p.o.ttl = 3;
		frame_build(&want, &p);
		if (i == 0) {
			assert_int_equal(senv_send(e, &f, NULL), RX_DROPPED);
			continue;
		}
		assert_int_equal(senv_send(e, &f, &got), 1);
		rx_assert_bytes(&got, &want);
	}
	for (i = 0; i < 3; i++) {
		assert_int_equal(mlx5dm_rule_destroy(r1[i], 0), 0);
		if (i < 2)
			assert_int_equal(mlx5dm_rule_destroy(r2[i], 0), 0);
		assert_int_equal(mlx5dm_action_destroy(setreg[i]), 0);
	}
	assert_int_equal(mlx5dm_rule_destroy(rrx, 0), 0);
	assert_int_equal(mlx5dm_matcher_destroy(m1), 0);
	assert_int_equal(mlx5dm_matcher_destroy(m2), 0);
	assert_int_equal(mlx5dm_matcher_destroy(mrx), 0);
	DESTROY_ACTIONS(jump, drop, ttl);
	assert_int_equal(mlx5dm_domain_set_root(e->tx, NULL), 0);
	assert_int_equal(mlx5dm_table_destroy(t1), 0);
	assert_int_equal(mlx5dm_table_destroy(t2), 0);
	senv_close(e);
}

/*
 * An operation defers its ICM frees until its locks are let go (struct
 * mlx5dm_defer): past the 32 it keeps inline they go to a list that grows
 * (twice here); running it frees every one, and the ICM is back.
 */
static void
test_defer_many_frees(void **state)
{
	enum { N = 600 };
	struct senv *e = senv_open(1);
	struct mlx5dm_defer d = { .n = 0 };
	struct mlx5dm_ctx_stats st0, st1;
	struct mlx5dm_icm_chunk *c;
	unsigned int i;

	(void)state;
	senv_sync(e);
	st0 = senv_stats(e);
	for (i = 0; i < N; i++) {
		c = mlx5dm_icm_chunk_alloc(e->ctx->ste_pool, 0);
		assert_non_null(c);
		mlx5dm_defer_chunk(&d, c);
	}
	assert_int_equal(d.n, N);
	assert_true(d.cap >= N - MLX5DM_ARRAY_SIZE(d.chunks));
	st1 = senv_stats(e);
	assert_true(st1.icm[0].used_bytes > st0.icm[0].used_bytes);
	mlx5dm_defer_run(&d);
	assert_int_equal(d.n, 0);
	assert_null(d.more);
	senv_sync(e);
	st1 = senv_stats(e);
	assert_icm_equal(&st0, &st1);
	senv_close(e);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_priorities_any_order),
		cmocka_unit_test(test_shadowing_and_removal),
		cmocka_unit_test(test_equal_priorities),
		cmocka_unit_test(test_jumps),
		cmocka_unit_test(test_jump_levels),
		cmocka_unit_test(test_shared_prefixes),
		cmocka_unit_test(test_collision_chain),
		cmocka_unit_test(test_random_rules),
		cmocka_unit_test(test_duplicates),
		cmocka_unit_test(test_no_actions),
		cmocka_unit_test(test_cross_queue),
		cmocka_unit_test(test_growth_interrupted),
		cmocka_unit_test(test_size_hint),
		cmocka_unit_test(test_tx_metadata),
		cmocka_unit_test(test_defer_many_frees),
	};

	return cmocka_run_group_tests_name("steer_tables", tests, NULL, NULL);
}
