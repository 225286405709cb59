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
	assert_true(got.flags & MLX5DM_DEV_PKT_F_FLOW_TAG);
	assert_int_equal(got.flow_tag, 0x5151);
	rx_assert_bytes(&got, &f);
	/* Y, D: the address rewritten in table 1 is what table 3 matches. */
	p.o.dmac = MAC_Y;
	p.o.dip = DIP_D;
	frame_build(&f, &p);
	p.o.dip = DIP_E;
	frame_build(&want, &p);
	assert_int_equal(senv_send(e, &f, &got), 3);
	assert_false(got.flags & MLX5DM_DEV_PKT_F_FLOW_TAG);
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
	assert_int_equal(mlx5dm_action_destroy(to_t2), 0);
	assert_int_equal(mlx5dm_action_destroy(tag), 0);
	assert_int_equal(mlx5dm_action_destroy(mod), 0);
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

/* dmac | TTL | 5-tuple: three lookups (ETHL2, IPV4_MISC, IPV4_5_TUPLE). */
static void
ml_mask(uint8_t *m)
{
	memset(m, 0, MP_SIZE);
	mp_mac(m, F(outer, dmac_47_16), 0xffffffffffffull);
	mp_set(m, F(outer, ip_version), 4);
	mp_set(m, F(outer, ip_ttl_hoplimit), 0xff);
	mp_set(m, F(outer, src_ip_31_0), 0xffffffff);
	mp_set(m, F(outer, dst_ip_31_0), 0xffffffff);
	mp_set(m, F(outer, ip_protocol), 0xff);
	mp_set(m, F(outer, udp_sport), 0xffff);
	mp_set(m, F(outer, udp_dport), 0xffff);
	mp_set(m, F(outer, tcp_sport), 0xffff);
	mp_set(m, F(outer, tcp_dport), 0xffff);
}

struct rkey {
	uint64_t dmac;
	uint8_t ttl;
	bool tcp;
	uint32_t sip, dip;
	uint16_t sport, dport;
};

static void
rkey_value(const struct rkey *k, uint8_t *v)
{
	memset(v, 0, MP_SIZE);
	mp_mac(v, F(outer, dmac_47_16), k->dmac);
	mp_set(v, F(outer, ip_version), 4);
	mp_set(v, F(outer, ip_ttl_hoplimit), k->ttl);
	mp_set(v, F(outer, src_ip_31_0), k->sip);
	mp_set(v, F(outer, dst_ip_31_0), k->dip);
	mp_set(v, F(outer, ip_protocol), k->tcp ? 6 : 17);
	mp_set(v, k->tcp ? F(outer, tcp_sport) : F(outer, udp_sport), k->sport);
	mp_set(v, k->tcp ? F(outer, tcp_dport) : F(outer, udp_dport), k->dport);
}

static void
rkey_frame(const struct rkey *k, struct frame *f)
{
	struct pkt p;

	pkt_udp4(&p);
	if (k->tcp)
		pkt_tcp(&p.o);
	p.o.dmac = k->dmac;
	p.o.ttl = k->ttl;
	p.o.sip = k->sip;
	p.o.dip = k->dip;
	p.o.sport = k->sport;
	p.o.dport = k->dport;
	frame_build(f, &p);
}

/* Rules and their expected outcome (tag = index + 1, queue = index % 4). */
struct rset {
	void (*value)(const struct rkey *k, uint8_t *v);
	unsigned int n;
	struct rkey *k;
	struct mlx5dm_rule **r;
	struct mlx5dm_action **tag;
	uint32_t *tagv;
};

static void
rset_init(struct rset *s, unsigned int n)
{
	s->value = rkey_value;
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

		rkey_frame(&s->k[i], &f);
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
	ml_mask(mask);
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
		struct rkey k = s.k[0];
		struct frame f;

		k.dport = 2001;
		rkey_frame(&k, &f);
		assert_int_equal(senv_send(e, &f, NULL), RX_DROPPED);
		k = s.k[0];
		k.ttl = 65 + 1;
		rkey_frame(&k, &f);
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
coll_value(const struct rkey *k, uint8_t *v)
{
	memset(v, 0, MP_SIZE);
	mp_set(v, F(outer, ip_version), 4);
	mp_set(v, F(outer, dst_ip_31_0), k->dip & COLL_MASK);
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
rkey_random(struct rkey *k, uint64_t *seed)
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
rkey_equal(const struct rkey *a, const struct rkey *b)
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
	ml_mask(mask);
	m = senv_matcher(e->tbl, 0, CRIT(outer), mask, 0);
	rset_init(&s, 3000);
	for (i = 0; i < s.n; i++) {
		do {
			rkey_random(&s.k[i], &seed);
			for (j = 0; j < i && !rkey_equal(&s.k[i], &s.k[j]); j++)
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
	};

	return cmocka_run_group_tests_name("steer_tables", tests, NULL, NULL);
}
