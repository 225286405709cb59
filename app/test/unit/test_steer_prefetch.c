/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * mlx5dm_rule_prepare() + mlx5dm_rule_create_prepared(): the prep carries
 * the built entries and the hashes of the chain predicted at prepare time.
 * Whatever happened in between (rules of the same or another matcher,
 * other preps, tables growing), every rule created from a prep must steer
 * its frames and only its frames, and a duplicate must still be refused.
 * The create reuses the prep's hash only when it predicts the same chain,
 * so a reuse where it should not (or a hash computed wrongly) puts the
 * entry where the device's walk and the duplicate search cannot find it:
 * frames are lost, duplicates get in, destroys fail.
 *
 * Both matcher shapes the prediction covers: one lookup (the chain is the
 * matcher's), and two lookups where eight consecutive keys share the
 * level-0 tag (the chain is predicted from the level-0 hint). Keys are
 * prepared a block at a time, so tables grow while preps are outstanding.
 *
 * The hint and the duplicate search also meet the keys of destroyed
 * entries: keys are re-created right after their destroy. Duplicates are
 * looked for in the slot chains a rule's entry would join: they are tried
 * wherever the original is (a grown chain's older table, a collision
 * entry), refused or, when allowed, placed behind the original.
 *
 * A tag template's preps (mlx5dm_rule_prepare_tag()) must be the value's.
 */

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "mlx5dm_steer_priv.h"
#include "steer_test_env.h"

#define F(sec, name) MLX5DM_FTE(sec, name)

/* Keys [0, NB) are rules of m, [NB, 2 NB) only ever prefetched, [2 NB, 3 NB) rules of m2. */
#define NB 4096u
#define GHOST(i) ((i) + NB)
#define OTHER(i) ((i) + 2 * NB)

enum shape {
	ONE_LEVEL,              /* dmac */
	TWO_LEVELS,             /* dmac, IP version | IPv4 dip, UDP dport */
	TWO_LEVELS_WIDE,        /* the same, 512 keys under a level-0 entry instead of 8 */
};

static uint64_t
key_dmac(enum shape s, uint32_t k)
{
	/* Two levels: keys i, GHOST(i), OTHER(i) and the 8-aligned run around i share one. */
	if (s == TWO_LEVELS)
		return 0x02aa00000000ull | ((k % NB) >> 3);
	if (s == TWO_LEVELS_WIDE)
		return 0x02cc00000000ull | ((k % NB) >> 9);
	return 0x02bb00000000ull | (uint64_t)(k * 0x9e3779b1u);
}

static uint32_t
key_dip(uint32_t k)
{
	return 0x0a000000u | k;
}

static uint16_t
key_dport(uint32_t k)
{
	return (uint16_t)(7000 + (k & 7));
}

static void
shape_mask(enum shape s, uint8_t *m)
{
	memset(m, 0, MP_SIZE);
	mp_mac(m, F(outer, dmac_47_16), 0xffffffffffffull);
	if (s != ONE_LEVEL) {
		mp_set(m, F(outer, ip_version), 4);
		mp_set(m, F(outer, dst_ip_31_0), 0xffffffff);
		mp_set(m, F(outer, udp_dport), 0xffff);
	}
}

static void
shape_value(enum shape s, uint32_t k, uint8_t *v)
{
	memset(v, 0, MP_SIZE);
	mp_mac(v, F(outer, dmac_47_16), key_dmac(s, k));
	if (s != ONE_LEVEL) {
		mp_set(v, F(outer, ip_version), 4);
		mp_set(v, F(outer, dst_ip_31_0), key_dip(k));
		mp_set(v, F(outer, udp_dport), key_dport(k));
	}
}

/* Eth/IPv4/UDP frame of key k (pkt_udp4 otherwise). */
static void
shape_frame(enum shape s, uint32_t k, struct frame *f)
{
	struct pkt p;

	pkt_udp4(&p);
	p.o.dmac = key_dmac(s, k);
	if (s != ONE_LEVEL) {
		p.o.dip = key_dip(k);
		p.o.dport = key_dport(k);
	}
	frame_build(f, &p);
}

struct pf_run {
	struct senv *e;
	enum shape s;
	struct mlx5dm_matcher *m;    /* priority 0: keys [0, NB) */
	struct mlx5dm_matcher *m2;   /* priority 1, same mask: keys OTHER(i) */
	struct mlx5dm_rule *r[NB];
	struct mlx5dm_rule *r2[NB];  /* NULL where no rule of m2 */
};

#define BLOCK 64u

static void
prepare_key(struct pf_run *t, struct mlx5dm_matcher *m, uint32_t k, struct mlx5dm_rule_prep *p)
{
	uint8_t v[MP_SIZE];

	shape_value(t->s, k, v);
	assert_int_equal(mlx5dm_rule_prepare(m, v, p), 0);
	assert_ptr_equal(p->matcher, m);
}

static struct mlx5dm_rule *
create_key(struct pf_run *t, struct mlx5dm_matcher *m, uint32_t k, unsigned int q)
{
	uint8_t v[MP_SIZE];

	shape_value(t->s, k, v);
	return mlx5dm_rule_create(m, 0, v, 1, &t->e->to_q[q % SENV_NB_RQ]);
}

static struct mlx5dm_rule *
create_prepared(struct pf_run *t, struct mlx5dm_rule_prep *p, unsigned int q)
{
	return mlx5dm_rule_create_prepared(p, 0, 1, &t->e->to_q[q % SENV_NB_RQ]);
}

/*
 * Keys [base, base + n) of m, all prepared first, then created in order,
 * each in a way chosen by its key: from its prep; from its prep after a
 * rule of m2 created from a prep made in between; from its prep after a
 * prep of a key never created (dropped); without a prep (its prep
 * dropped); from its prep, then that prep again (refused: used up).
 */
static void
insert_block(struct pf_run *t, struct mlx5dm_rule_prep *preps, uint32_t base, uint32_t n)
{
	struct mlx5dm_rule_prep other;
	uint32_t k, i;

	for (k = 0; k < n; k++)
		prepare_key(t, t->m, base + k, &preps[k]);
	for (k = 0; k < n; k++) {
		i = base + k;
		switch (i % 5) {
		case 1:
			prepare_key(t, t->m2, OTHER(i), &other);
			t->r2[i] = create_prepared(t, &other, i + 1);
			if (t->r2[i] == NULL)
				fail_msg("rule of m2 for key %u refused: errno %d", i, errno);
			break;
		case 2:
			prepare_key(t, t->m, GHOST(i), &other);
			break;
		default:
			break;
		}
		if (i % 5 == 3)
			t->r[i] = create_key(t, t->m, i, i);
		else
			t->r[i] = create_prepared(t, &preps[k], i);
		if (t->r[i] == NULL)
			fail_msg("rule %u refused (case %u): errno %d", i, i % 5, errno);
		if (i % 5 == 4) {
			assert_null(preps[k].matcher);
			assert_null(create_prepared(t, &preps[k], i));
			assert_int_equal(errno, EINVAL);
		}
	}
}

/*
 * Two levels, after a block whose last eight keys (from i) form level-0
 * group B: the last rule made B's entry the level-0 hint, so a prep of a
 * group-B key predicts B's chain, while a prep with the previous group's
 * level-0 tag and a group-B last-level tag predicts nothing.
 */
static void
check_prediction(struct pf_run *t, uint32_t i)
{
	struct mlx5dm_rule_prep p;
	uint8_t v[MP_SIZE];

	shape_value(t->s, i + 2, v);
	mp_mac(v, F(outer, dmac_47_16), key_dmac(t->s, i - 1));
	assert_int_equal(mlx5dm_rule_prepare(t->m, v, &p), 0);
	assert_null(p.root);
	prepare_key(t, t->m, GHOST(i + 2), &p);
	assert_non_null(p.root);
}

/* Every rule's frame on its queue, the prefetched-only keys on none. */
static void
check_traffic(struct pf_run *t)
{
	struct frame f;
	uint32_t i;
	int q;

	for (i = 0; i < NB; i++) {
		shape_frame(t->s, i, &f);
		q = senv_send(t->e, &f, NULL);
		if (q != (int)(i % SENV_NB_RQ))
			fail_msg("key %u: queue %d, expected %u", i, q, i % SENV_NB_RQ);
		if (t->r2[i] != NULL) {
			shape_frame(t->s, OTHER(i), &f);
			q = senv_send(t->e, &f, NULL);
			if (q != (int)((i + 1) % SENV_NB_RQ))
				fail_msg("key %u of m2: queue %d, expected %u", OTHER(i), q,
					 (i + 1) % SENV_NB_RQ);
		}
		if (t->s == TWO_LEVELS && i % 8 == 0 && i > 0) {
			struct pkt p;

			/* The key of the cross prep (group before, dip of i + 2). */
			pkt_udp4(&p);
			p.o.dmac = key_dmac(t->s, i - 1);
			p.o.dip = key_dip(i + 2);
			p.o.dport = key_dport(i + 2);
			frame_build(&f, &p);
			q = senv_send(t->e, &f, NULL);
			if (q != RX_DROPPED)
				fail_msg("cross prep of key %u matched (queue %d)", i, q);
		}
		if (i % 5 == 2 || (t->s == TWO_LEVELS && i % 8 == 2 && i > 8)) {
			shape_frame(t->s, GHOST(i), &f);
			q = senv_send(t->e, &f, NULL);
			if (q != RX_DROPPED)
				fail_msg("prepared-only key %u matched (queue %d)", GHOST(i), q);
		}
	}
}

static void
prefetch_run(enum shape s)
{
	struct pf_run *t = calloc(1, sizeof(*t));
	struct mlx5dm_rule_prep *preps = calloc(BLOCK, sizeof(*preps));
	struct mlx5dm_ctx_stats st0, st1;
	uint8_t mask[MP_SIZE], v[MP_SIZE];
	struct frame f;
	uint32_t i, d;

	assert_non_null(t);
	assert_non_null(preps);
	t->e = senv_open(1);
	t->s = s;
	st0 = senv_stats(t->e);
	shape_mask(s, mask);
	t->m = senv_matcher(t->e->tbl, 0, CRIT(outer), mask, 0);
	t->m2 = senv_matcher(t->e->tbl, 1, CRIT(outer), mask, 0);
	/* The shapes a chain is predicted for (more levels: never). */
	assert_int_equal(t->m->nb_builders, s == TWO_LEVELS ? 2 : 1);
	/* A value outside the mask, no matcher, no value: refused, and the prep unusable. */
	shape_value(s, 0, v);
	mp_mac(v, F(outer, smac_47_16), 1);
	assert_int_equal(mlx5dm_rule_prepare(t->m, v, &preps[0]), -EINVAL);
	assert_null(create_prepared(t, &preps[0], 0));
	assert_int_equal(errno, EINVAL);
	assert_int_equal(mlx5dm_rule_prepare(NULL, v, &preps[0]), -EINVAL);
	assert_int_equal(mlx5dm_rule_prepare(t->m, NULL, &preps[0]), -EINVAL);
	assert_null(mlx5dm_rule_create_prepared(NULL, 0, 0, NULL));
	for (i = 0; i < NB; i += BLOCK) {
		insert_block(t, preps, i, BLOCK);
		if (s == TWO_LEVELS)
			check_prediction(t, i + BLOCK - 8);
		/* A duplicate is refused from a prep: one of the last keys. */
		d = i + BLOCK - 1 - (i / BLOCK) % 7;
		prepare_key(t, t->m, d, &preps[0]);
		assert_null(create_prepared(t, &preps[0], 0));
		assert_int_equal(errno, EEXIST);
		if (s == ONE_LEVEL)
			assert_non_null(preps[0].root);
	}
	st1 = senv_stats(t->e);
	/* The tables grew while preps were outstanding. */
	assert_true(st1.rehash - st0.rehash >= 4);
	assert_int_equal(mlx5dm_queue_drain(t->e->ctx, 0), 0);
	check_traffic(t);
	/* Each rule is found again by its destroy (the host index had the right hash). */
	for (i = 0; i < NB; i++) {
		assert_int_equal(mlx5dm_rule_destroy(t->r[i], 0), 0);
		if (t->r2[i] != NULL)
			assert_int_equal(mlx5dm_rule_destroy(t->r2[i], 0), 0);
	}
	senv_sync(t->e);
	for (i = 0; i < NB; i += 97) {
		shape_frame(s, i, &f);
		assert_int_equal(senv_send(t->e, &f, NULL), RX_DROPPED);
	}
	assert_int_equal(mlx5dm_matcher_destroy(t->m), 0);
	assert_int_equal(mlx5dm_matcher_destroy(t->m2), 0);
	senv_sync(t->e);
	st1 = senv_stats(t->e);
	assert_icm_equal(&st0, &st1);
	senv_close(t->e);
	free(preps);
	free(t);
}

static void
test_prefetch_one_level(void **state)
{
	(void)state;
	prefetch_run(ONE_LEVEL);
}

static void
test_prefetch_two_levels(void **state)
{
	(void)state;
	prefetch_run(TWO_LEVELS);
}

/*
 * Two levels: a prep whose predicted chain is gone by the create. Key 0
 * (level-0 group 0) is prepared while group 0's chain X exists; then every
 * rule of group 0 goes (X is freed), group 1 is filled, and group 0 comes
 * back with key 1 (a new chain Y). The create of key 0 must see that its
 * prep predicted another chain and hash for Y: with X's index hash the
 * host index would file the entry where no lookup of Y finds it, and a
 * duplicate of key 0 would get in.
 */
static void
test_prepare_stale_chain(void **state)
{
	struct pf_run *t = calloc(1, sizeof(*t));
	struct mlx5dm_rule_prep p;
	uint8_t mask[MP_SIZE];
	struct mlx5dm_rule *dup;
	struct frame f;
	uint32_t k;

	(void)state;
	assert_non_null(t);
	t->e = senv_open(1);
	t->s = TWO_LEVELS;
	shape_mask(t->s, mask);
	t->m = senv_matcher(t->e->tbl, 0, CRIT(outer), mask, 0);
	for (k = 2; k < 8; k++)
		assert_non_null(t->r[k] = create_key(t, t->m, k, k));
	prepare_key(t, t->m, 0, &p);
	assert_non_null(p.root);
	for (k = 2; k < 8; k++)
		assert_int_equal(mlx5dm_rule_destroy(t->r[k], 0), 0);
	for (k = 8; k < 16; k++)
		assert_non_null(t->r[k] = create_key(t, t->m, k, k));
	assert_non_null(t->r[1] = create_key(t, t->m, 1, 1));
	assert_non_null(t->r[0] = create_prepared(t, &p, 0));
	dup = create_key(t, t->m, 0, 3);
	if (dup != NULL)
		fail_msg("a duplicate of the rule created from a stale prep got in");
	assert_int_equal(errno, EEXIST);
	assert_int_equal(mlx5dm_queue_drain(t->e->ctx, 0), 0);
	for (k = 0; k < 16; k++) {
		if (k >= 2 && k < 8)
			continue;
		shape_frame(t->s, k, &f);
		assert_int_equal(senv_send(t->e, &f, NULL), (int)(k % SENV_NB_RQ));
	}
	for (k = 0; k < 16; k++)
		if (k < 2 || k >= 8)
			assert_int_equal(mlx5dm_rule_destroy(t->r[k], 0), 0);
	assert_int_equal(mlx5dm_matcher_destroy(t->m), 0);
	senv_close(t->e);
	free(t);
}

/* Every key of [0, n) with a live rule (r[k] != NULL) lands on queue q[k]; its duplicate fails. */
static void
check_live(struct pf_run *t, uint32_t n, const unsigned int *q)
{
	struct frame f;
	uint32_t k;

	assert_int_equal(mlx5dm_queue_drain(t->e->ctx, 0), 0);
	for (k = 0; k < n; k++) {
		if (t->r[k] == NULL)
			continue;
		shape_frame(t->s, k, &f);
		assert_int_equal(senv_send(t->e, &f, NULL), (int)(q[k] % SENV_NB_RQ));
		if (create_key(t, t->m, k, q[k] + 1) != NULL)
			fail_msg("a duplicate of live key %u got in", k);
		assert_int_equal(errno, EEXIST);
	}
}

/* Destroy rules r[0, n) and the matcher of t, then t. */
static void
run_close(struct pf_run *t, unsigned int n)
{
	unsigned int k;

	for (k = 0; k < n; k++)
		assert_int_equal(mlx5dm_rule_destroy(t->r[k], 0), 0);
	assert_int_equal(mlx5dm_matcher_destroy(t->m), 0);
	senv_close(t->e);
	free(t);
}

/*
 * A destroyed entry leaves its slot chain (and, above the last level, the
 * index) and its record goes. The same key must be insertable again at
 * once, a freed level-0 entry must not be shared by the next rule (the
 * hint lets go of it), and live keys must still be refused as
 * duplicates. Rounds destroy and re-create runs of keys with new queues;
 * under ASan, a search or hint reading a freed record is caught.
 */
static void
run_reinsert(enum shape s)
{
	enum { N = 64 };
	struct pf_run *t = calloc(1, sizeof(*t));
	unsigned int q[N];
	uint8_t mask[MP_SIZE];
	uint32_t k, round;

	assert_non_null(t);
	t->e = senv_open(1);
	t->s = s;
	shape_mask(t->s, mask);
	t->m = senv_matcher(t->e->tbl, 0, CRIT(outer), mask, 0);
	for (k = 0; k < N; k++) {
		q[k] = k;
		assert_non_null(t->r[k] = create_key(t, t->m, k, q[k]));
	}
	check_live(t, N, q);
	for (round = 0; round < 24; round++) {
		/*
		 * A run of 1 to 23 keys (two levels: whole level-0 groups of
		 * eight now and then). Round 0 takes the last group, whose
		 * entry check_live()'s lookups left as the level-0 hint.
		 */
		uint32_t first = round == 0 ? N - 8 : (round * 13) % N;
		uint32_t len = round == 0 ? 8 : 1 + (round * 7) % 23;

		for (k = first; k < first + len && k < N; k++) {
			assert_int_equal(mlx5dm_rule_destroy(t->r[k], 0), 0);
			t->r[k] = NULL;
		}
		/* Round 0 re-creates at once: the hint was the freed group entry. */
		if (round != 0)
			check_live(t, N, q);
		for (k = first; k < first + len && k < N; k++) {
			q[k] = q[k] + 1;
			t->r[k] = create_key(t, t->m, k, q[k]);
			if (t->r[k] == NULL)
				fail_msg("round %u: key %u refused after its destroy: errno %d",
					 round, k, errno);
		}
		check_live(t, N, q);
	}
	run_close(t, N);
}

static void
test_reinsert_one_level(void **state)
{
	(void)state;
	run_reinsert(ONE_LEVEL);
}

static void
test_reinsert_two_levels(void **state)
{
	(void)state;
	run_reinsert(TWO_LEVELS);
}

/* A rule's bytes as a caller keeps them: its destination MAC, address and port. */
struct tag_src {
	uint8_t dmac[6];
	uint8_t dip[4];
	uint8_t dport[2];
};

static void
tag_src_of(enum shape s, uint32_t k, struct tag_src *src)
{
	uint64_t mac = key_dmac(s, k);
	uint32_t dip = key_dip(k);
	uint16_t dport = key_dport(k);
	unsigned int i;

	for (i = 0; i < 6; i++)
		src->dmac[i] = (uint8_t)(mac >> (40 - 8 * i));
	for (i = 0; i < 4; i++)
		src->dip[i] = (uint8_t)(dip >> (24 - 8 * i));
	src->dport[0] = (uint8_t)(dport >> 8);
	src->dport[1] = (uint8_t)dport;
}

/*
 * A tag template of the two-level matcher (the MAC from one source, the
 * address and the port from another): its preps are the value's, entries,
 * predicted chain and hash alike, whichever rules exist meanwhile; rules
 * made from them steer their frames and are found by their destroys.
 * Moves it cannot take are refused.
 */
static void
test_prepare_tag(void **state)
{
	enum { N = 512 };
	struct pf_run *t = calloc(1, sizeof(*t));
	const struct mlx5dm_match_move moves[] = {
		{ .src = 0, .from = 0, .to = 0x40 / 8, .len = 6 },
		{ .src = 1, .from = 6, .to = 0x1e0 / 8, .len = 4 },
		{ .src = 1, .from = 10, .to = 0xf0 / 8, .len = 2 },
	};
	const struct mlx5dm_match_move ttl = { .src = 0, .from = 0, .to = 0xd8 / 8, .len = 1 };
	struct mlx5dm_rule_prep by_value, by_tag;
	struct mlx5dm_ctx_stats st0, st1;
	uint8_t mask[MP_SIZE], v[MP_SIZE];
	struct mlx5dm_tag_tmpl *tag;
	struct tag_src src;
	struct frame f;
	uint32_t k;

	(void)state;
	assert_non_null(t);
	t->e = senv_open(1);
	t->s = TWO_LEVELS;
	st0 = senv_stats(t->e);
	shape_mask(t->s, mask);
	t->m = senv_matcher(t->e->tbl, 0, CRIT(outer), mask, 0);
	shape_value(t->s, 0, v);
	tag = mlx5dm_tag_tmpl_create(t->m, v, moves, 3);
	assert_non_null(tag);
	for (k = 0; k < N; k++) {
		const void *const from[] = { src.dmac, &src };

		tag_src_of(t->s, k, &src);
		shape_value(t->s, k, v);
		assert_int_equal(mlx5dm_rule_prepare(t->m, v, &by_value), 0);
		assert_int_equal(mlx5dm_rule_prepare_tag(tag, from, &by_tag), 0);
		assert_ptr_equal(by_tag.matcher, t->m);
		assert_memory_equal(by_tag.ste, by_value.ste, 2 * MLX5DM_STE_SIZE);
		assert_ptr_equal(by_tag.root, by_value.root);
		if (by_value.root != NULL)
			assert_int_equal(by_tag.hash, by_value.hash);
		t->r[k] = create_prepared(t, &by_tag, k);
		if (t->r[k] == NULL)
			fail_msg("rule %u from its tag refused: errno %d", k, errno);
	}
	assert_int_equal(mlx5dm_queue_drain(t->e->ctx, 0), 0);
	for (k = 0; k < N; k++) {
		shape_frame(t->s, k, &f);
		assert_int_equal(senv_send(t->e, &f, NULL), (int)(k % SENV_NB_RQ));
	}
	/* A byte outside the mask; no matcher, no value, no sources. */
	assert_null(mlx5dm_tag_tmpl_create(t->m, v, &ttl, 1));
	assert_int_equal(errno, EOPNOTSUPP);
	assert_null(mlx5dm_tag_tmpl_create(NULL, v, moves, 3));
	assert_int_equal(errno, EINVAL);
	assert_null(mlx5dm_tag_tmpl_create(t->m, NULL, moves, 3));
	assert_int_equal(errno, EINVAL);
	assert_int_equal(mlx5dm_rule_prepare_tag(tag, NULL, &by_tag), -EINVAL);
	mlx5dm_tag_tmpl_destroy(tag);
	for (k = 0; k < N; k++)
		assert_int_equal(mlx5dm_rule_destroy(t->r[k], 0), 0);
	senv_sync(t->e);
	shape_frame(t->s, 7, &f);
	assert_int_equal(senv_send(t->e, &f, NULL), RX_DROPPED);
	assert_int_equal(mlx5dm_matcher_destroy(t->m), 0);
	senv_sync(t->e);
	st1 = senv_stats(t->e);
	assert_icm_equal(&st0, &st1);
	senv_close(t->e);
	free(t);
}

/* Where rule r's last-level entry is: an older table of its chain, a collision entry. */
static void
where_last(const struct mlx5dm_rule *r, bool *older, bool *collision)
{
	*older = mlx5dm_rule_last(r)->htbl->chain_prev != NULL;
	*collision = mlx5dm_rule_last(r)->collision;
}

/* d's last-level entry is behind o's in o's slot chain (the device reaches o's first). */
static bool
behind(const struct mlx5dm_rule *o, const struct mlx5dm_rule *d)
{
	const struct mlx5dm_ste *s;

	for (s = mlx5dm_rule_last(o)->next_col; s != NULL; s = s->next_col)
		if (s == mlx5dm_rule_last(d))
			return true;
	return false;
}

/*
 * A rule's own tag is looked for in the slot chains it would join (the
 * head's, then the older table's of a grown chain), not in an index:
 * rules are inserted into a matcher that starts at one slot and grows
 * many times, and after each one the duplicates of the key just inserted
 * and of an earlier one are tried, wherever the original is: in the head
 * or in an older table not yet emptied, in its slot or a collision entry.
 * Without duplicates allowed each is refused (EEXIST) and changes
 * nothing; allowed, it goes behind its original in the original's slot
 * chain, the original keeps its frames and the duplicate takes them over
 * once the original is destroyed.
 */
static void
run_duplicates(enum shape s, bool allow)
{
	struct mlx5dm_ctx_attr cattr = { .nb_queues = 1, .allow_duplicate_rules = allow };
	struct pf_run *t = calloc(1, sizeof(*t));
	unsigned int q[NB], nb_older = 0, nb_collision = 0, c;
	uint8_t mask[MP_SIZE];
	struct frame f;
	uint32_t k, j;

	assert_non_null(t);
	t->e = senv_open_ex(&cattr, NULL);
	t->s = s;
	shape_mask(t->s, mask);
	t->m = senv_matcher(t->e->tbl, 0, CRIT(outer), mask, 0);
	for (k = 0; k < NB; k++) {
		q[k] = k;
		t->r[k] = create_key(t, t->m, k, q[k]);
		if (t->r[k] == NULL)
			fail_msg("key %u refused: errno %d", k, errno);
		for (c = 0; c < 2; c++) {
			struct mlx5dm_rule *d;
			bool older, collision;

			j = c == 0 ? k : (k * 2654435761u) % (k + 1);
			where_last(t->r[j], &older, &collision);
			nb_older += older;
			nb_collision += collision;
			d = create_key(t, t->m, j, q[j] + 1);
			if (!allow) {
				if (d != NULL)
					fail_msg("duplicate of %u got in (older %d, col %d)",
						 j, older, collision);
				assert_int_equal(errno, EEXIST);
				continue;
			}
			if (d == NULL)
				fail_msg("duplicate of key %u refused: errno %d", j, errno);
			if (!behind(t->r[j], d))
				fail_msg("duplicate of %u not behind it (older %d, col %d)",
					 j, older, collision);
			if (!older && !collision && k % 16 != 0) {
				assert_int_equal(mlx5dm_rule_destroy(d, 0), 0);
				continue;
			}
			assert_int_equal(mlx5dm_queue_drain(t->e->ctx, 0), 0);
			shape_frame(t->s, j, &f);
			assert_int_equal(senv_send(t->e, &f, NULL), (int)(q[j] % SENV_NB_RQ));
			assert_int_equal(mlx5dm_rule_destroy(t->r[j], 0), 0);
			assert_int_equal(mlx5dm_queue_drain(t->e->ctx, 0), 0);
			assert_int_equal(senv_send(t->e, &f, NULL), (int)((q[j] + 1) % SENV_NB_RQ));
			t->r[j] = d;
			q[j]++;
		}
	}
	/* Both places were met (the table shapes make them certain, not likely). */
	assert_true(nb_older > 0);
	assert_true(nb_collision > 0);
	if (!allow)
		check_live(t, NB, q);
	run_close(t, NB);
}

static void
test_duplicates_one_level(void **state)
{
	(void)state;
	run_duplicates(ONE_LEVEL, false);
	run_duplicates(ONE_LEVEL, true);
}

static void
test_duplicates_two_levels(void **state)
{
	(void)state;
	run_duplicates(TWO_LEVELS_WIDE, false);
	run_duplicates(TWO_LEVELS_WIDE, true);
}

/*
 * A prepare never waits for a shard lock (the PMD prepares under a lock of
 * its own): with every shard of the matcher held, it returns at once with
 * the entries built and no prediction, and the create from it, made once
 * the shards are free, steers the key's frames and refuses a duplicate.
 * A prepare that waited would never return here.
 */
static void
test_prepare_busy_shard(void **state)
{
	struct pf_run *t = calloc(1, sizeof(*t));
	struct mlx5dm_rule_prep p;
	uint8_t mask[MP_SIZE], v[MP_SIZE];
	struct mlx5dm_rule *r;
	struct frame f;
	unsigned int i;

	(void)state;
	assert_non_null(t);
	t->e = senv_open(1);
	t->s = ONE_LEVEL;
	shape_mask(t->s, mask);
	t->m = senv_matcher(t->e->tbl, 0, CRIT(outer), mask, 0);
	for (i = 0; i < t->m->nb_shards; i++)
		mlx5dm_spinlock_lock(&t->m->shards[i].lock);
	shape_value(t->s, 5, v);
	assert_int_equal(mlx5dm_rule_prepare(t->m, v, &p), 0);
	assert_ptr_equal(p.matcher, t->m);
	assert_null(p.root);
	for (i = 0; i < t->m->nb_shards; i++)
		mlx5dm_spinlock_unlock(&t->m->shards[i].lock);
	r = create_prepared(t, &p, 3);
	assert_non_null(r);
	/* The shard free: the same key predicts its chain, and is a duplicate. */
	prepare_key(t, t->m, 5, &p);
	assert_non_null(p.root);
	assert_null(create_prepared(t, &p, 3));
	assert_int_equal(errno, EEXIST);
	assert_int_equal(mlx5dm_queue_drain(t->e->ctx, 0), 0);
	shape_frame(t->s, 5, &f);
	assert_int_equal(senv_send(t->e, &f, NULL), 3 % SENV_NB_RQ);
	assert_int_equal(mlx5dm_rule_destroy(r, 0), 0);
	senv_sync(t->e);
	assert_int_equal(senv_send(t->e, &f, NULL), RX_DROPPED);
	assert_int_equal(mlx5dm_matcher_destroy(t->m), 0);
	senv_close(t->e);
	free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_prefetch_one_level),
		cmocka_unit_test(test_prefetch_two_levels),
		cmocka_unit_test(test_prepare_stale_chain),
		cmocka_unit_test(test_prepare_busy_shard),
		cmocka_unit_test(test_reinsert_one_level),
		cmocka_unit_test(test_reinsert_two_levels),
		cmocka_unit_test(test_prepare_tag),
		cmocka_unit_test(test_duplicates_one_level),
		cmocka_unit_test(test_duplicates_two_levels),
	};

	return cmocka_run_group_tests_name("steer_prefetch", tests, NULL, NULL);
}
