/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * mlx5dm_rule_prefetch() is a hint: whatever was prefetched, and on
 * whichever matcher, every rule created afterwards must steer its frames
 * and only its frames, and a duplicate must still be refused. The create
 * reuses the prefetch's hashes only when the tag and the chain match, so a
 * reuse where they do not (or hashes computed wrongly) puts the entry where
 * the device's walk and the host index cannot find it: frames are lost,
 * duplicates get in, destroys fail.
 *
 * Both matcher shapes the hint predicts: one lookup (the chain is the
 * matcher's), and two lookups where eight consecutive keys share the
 * level-0 tag (the chain is predicted from the level-0 hint), with a few
 * thousand rules so that the tables grow while the hints are in use.
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
};

static uint64_t
key_dmac(enum shape s, uint32_t k)
{
	/* Two levels: keys i, GHOST(i), OTHER(i) and the 8-aligned run around i share one. */
	if (s == TWO_LEVELS)
		return 0x02aa00000000ull | ((k % NB) >> 3);
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
	if (s == TWO_LEVELS) {
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
	if (s == TWO_LEVELS) {
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
	if (s == TWO_LEVELS) {
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

static void
prefetch_key(struct pf_run *t, struct mlx5dm_matcher *m, uint32_t k)
{
	uint8_t v[MP_SIZE];

	shape_value(t->s, k, v);
	mlx5dm_rule_prefetch(m, v);
}

static struct mlx5dm_rule *
create_key(struct pf_run *t, struct mlx5dm_matcher *m, uint32_t k, unsigned int q)
{
	uint8_t v[MP_SIZE];

	shape_value(t->s, k, v);
	return mlx5dm_rule_create(m, 0, v, 1, &t->e->to_q[q % SENV_NB_RQ]);
}

/*
 * Rule i of m, after a hint chosen by i: of its own value, of another
 * value of the same matcher (same level-0 tag when there are two levels),
 * of its value on the other matcher, of its value with a rule of the other
 * matcher created in between, of its value then another one (the last
 * hint counts).
 */
static void
insert_one(struct pf_run *t, uint32_t i)
{
	switch (i % 5) {
	case 0:
		prefetch_key(t, t->m, i);
		break;
	case 1:
		prefetch_key(t, t->m, GHOST(i));
		break;
	case 2:
		prefetch_key(t, t->m2, i);
		break;
	case 3:
		prefetch_key(t, t->m, i);
		prefetch_key(t, t->m2, OTHER(i));
		t->r2[i] = create_key(t, t->m2, OTHER(i), i + 1);
		if (t->r2[i] == NULL)
			fail_msg("rule of m2 for key %u refused: errno %d", i, errno);
		break;
	default:
		prefetch_key(t, t->m, i);
		prefetch_key(t, t->m, GHOST(i));
		break;
	}
	t->r[i] = create_key(t, t->m, i, i);
	if (t->r[i] == NULL)
		fail_msg("rule %u refused after its hint (case %u): errno %d", i, i % 5, errno);
}

/*
 * Two levels, keys i, i + 1, i + 2 (the first of level-0 group B). Rule i
 * opens chain B and becomes the level-0 hint. A hint of the previous
 * group's level-0 tag with key i + 2's last-level tag predicts nothing
 * (that tag is not the level-0 hint's). A hint of key i + 2's own value
 * predicts chain B; rule i + 1, another value, ignores it and clears it
 * (a hint serves the next create only), so rule i + 2 computes its own
 * hashes.
 */
static void
insert_cross(struct pf_run *t, uint32_t i)
{
	uint8_t v[MP_SIZE];

	t->r[i] = create_key(t, t->m, i, i);
	assert_non_null(t->r[i]);
	shape_value(t->s, i + 2, v);
	mp_mac(v, F(outer, dmac_47_16), key_dmac(t->s, i - 1));
	mlx5dm_rule_prefetch(t->m, v);
	assert_null(t->m->pf.root);
	shape_value(t->s, i + 2, v);
	mlx5dm_rule_prefetch(t->m, v);
	assert_non_null(t->m->pf.root);
	t->r[i + 1] = create_key(t, t->m, i + 1, i + 1);
	assert_non_null(t->r[i + 1]);
	assert_null(t->m->pf.root);
	t->r[i + 2] = create_key(t, t->m, i + 2, i + 2);
	assert_non_null(t->r[i + 2]);
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

			/* The key of the cross hint (group before, dip of i + 2). */
			pkt_udp4(&p);
			p.o.dmac = key_dmac(t->s, i - 1);
			p.o.dip = key_dip(i + 2);
			p.o.dport = key_dport(i + 2);
			frame_build(&f, &p);
			q = senv_send(t->e, &f, NULL);
			if (q != RX_DROPPED)
				fail_msg("cross hint of key %u matched (queue %d)", i, q);
		}
		if (i % 5 == 1 || i % 5 == 4) {
			shape_frame(t->s, GHOST(i), &f);
			q = senv_send(t->e, &f, NULL);
			if (q != RX_DROPPED)
				fail_msg("prefetched-only key %u matched (queue %d)", GHOST(i), q);
		}
	}
}

static void
prefetch_run(enum shape s)
{
	struct pf_run *t = calloc(1, sizeof(*t));
	struct mlx5dm_ctx_stats st0, st1;
	uint8_t mask[MP_SIZE], v[MP_SIZE];
	struct frame f;
	uint32_t i, d;

	assert_non_null(t);
	t->e = senv_open(1);
	t->s = s;
	st0 = senv_stats(t->e);
	shape_mask(s, mask);
	t->m = senv_matcher(t->e->tbl, 0, CRIT(outer), mask, 0);
	t->m2 = senv_matcher(t->e->tbl, 1, CRIT(outer), mask, 0);
	/* The shapes the hint predicts a chain for (more levels: it never does). */
	assert_int_equal(t->m->nb_builders, s == TWO_LEVELS ? 2 : 1);
	/* Hints the create cannot use are harmless: a value outside the mask, no matcher. */
	shape_value(s, 0, v);
	v[MP_SIZE - 1] = 0xff;
	mlx5dm_rule_prefetch(t->m, v);
	mlx5dm_rule_prefetch(NULL, v);
	for (i = 0; i < NB; i++) {
		if (s == TWO_LEVELS && i % 8 == 0 && i > 0) {
			insert_cross(t, i);
			i += 2;
		} else {
			insert_one(t, i);
		}
		/*
		 * A duplicate is refused after a hint of its value (the hint's
		 * hashes): one of the last 7 keys, in the group of i (two levels).
		 */
		if (i % 16 == 15) {
			d = i - 1 - (i / 16) % 7;
			prefetch_key(t, t->m, d);
			assert_null(create_key(t, t->m, d, 0));
			assert_int_equal(errno, EEXIST);
		}
	}
	/* The last rule's group: a hint of another key of it predicts the chain. */
	prefetch_key(t, t->m, GHOST(NB - 1));
	assert_non_null(t->m->pf.root);
	st1 = senv_stats(t->e);
	/* The tables grew while the hints were used. */
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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_prefetch_one_level),
		cmocka_unit_test(test_prefetch_two_levels),
	};

	return cmocka_run_group_tests_name("steer_prefetch", tests, NULL, NULL);
}
