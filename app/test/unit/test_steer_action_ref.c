/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Action references held for a matcher's rules by its action-reference ways
 * (mlx5dm_steer_rule.c): more distinct actions than ways (the way of fewest
 * rules is given up to a new action, its rules' references moving to it),
 * rules created and destroyed in random order, two matchers sharing
 * actions. Whatever way a rule's reference took, an action must be busy
 * (mlx5dm_action_destroy() refuses it) exactly while a rule uses it, and
 * the rules must keep forwarding to their own action.
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

#define TAGS 7u
#define RULES 160u
#define DMAC_BASE 0x020000000000ull

struct trule {
	struct mlx5dm_rule *r;
	unsigned int tag;
};

static unsigned int
users(const struct trule *t, unsigned int tag)
{
	unsigned int i, n = 0;

	for (i = 0; i < RULES; i++)
		n += t[i].r != NULL && t[i].tag == tag;
	return n;
}

/* Every action without users goes; every one with users is refused. */
static void
check_busy(const struct trule *t, struct mlx5dm_action **tags)
{
	unsigned int k;

	for (k = 0; k < TAGS; k++) {
		if (tags[k] == NULL)
			continue;
		if (users(t, k) != 0) {
			assert_int_equal(mlx5dm_action_destroy(tags[k]), -EBUSY);
		} else {
			assert_int_equal(mlx5dm_action_destroy(tags[k]), 0);
			tags[k] = NULL;
		}
	}
}

static void
test_action_ref_random(void **state)
{
	static struct trule t[RULES];
	struct mlx5dm_action *tags[TAGS];
	struct mlx5dm_matcher *m[2];
	uint8_t mask[MP_SIZE] = { 0 }, v[MP_SIZE] = { 0 };
	struct senv *e = senv_open(1);
	uint64_t rnd = 5;
	unsigned int i, k;
	struct rx got;
	struct frame f;
	struct pkt p;

	(void)state;
	mp_mac(mask, MLX5DM_FTE(outer, dmac_47_16), 0xffffffffffffull);
	m[0] = senv_matcher(e->tbl, 0, CRIT(outer), mask, 0);
	m[1] = senv_matcher(e->tbl, 1, CRIT(outer), mask, 0);
	for (k = 0; k < TAGS; k++) {
		tags[k] = mlx5dm_action_flow_tag(e->rx, 0x100 + k);
		assert_non_null(tags[k]);
	}
	memset(t, 0, sizeof(t));
	for (i = 0; i < RULES; i++) {
		struct mlx5dm_action *acts[2];

		/* Skewed: a few tags take most rules, so ways fill, free and refill. */
		t[i].tag = (unsigned int)(rnd_next(&rnd) % 3 == 0 ? rnd_next(&rnd) % TAGS : i % 2);
		acts[0] = tags[t[i].tag];
		acts[1] = e->to_q[1];
		mp_mac(v, MLX5DM_FTE(outer, dmac_47_16), DMAC_BASE + i);
		t[i].r = senv_rule(m[i % 2], 0, v, 2, acts);
		if (rnd_next(&rnd) % 3 == 0) {
			unsigned int j = (unsigned int)(rnd_next(&rnd) % (i + 1));

			if (t[j].r != NULL) {
				assert_int_equal(mlx5dm_rule_destroy(t[j].r, 0), 0);
				t[j].r = NULL;
			}
		}
	}
	/* Still used: refused; the survivors forward with their own tag. */
	for (k = 0; k < TAGS; k++)
		if (users(t, k) != 0)
			assert_int_equal(mlx5dm_action_destroy(tags[k]), -EBUSY);
	assert_int_equal(mlx5dm_queue_flush(e->ctx, 0), 0);
	for (i = 0; i < RULES; i++) {
		pkt_udp4(&p);
		p.o.dmac = DMAC_BASE + i;
		frame_build(&f, &p);
		if (t[i].r == NULL) {
			assert_int_equal(senv_send(e, &f, NULL), RX_DROPPED);
			continue;
		}
		assert_int_equal(senv_send(e, &f, &got), 1);
		assert_int_equal(got.flow_tag, 0x100 + t[i].tag);
	}
	/* Down to none, in random order: each action goes as its last user does. */
	for (k = RULES; k > 0; k--) {
		i = (unsigned int)(rnd_next(&rnd) % RULES);
		while (t[i].r == NULL && k > 0)
			i = (i + 1) % RULES;
		if (t[i].r == NULL)
			break;
		assert_int_equal(mlx5dm_rule_destroy(t[i].r, 0), 0);
		t[i].r = NULL;
		check_busy(t, tags);
		if (users(t, 0) + users(t, 1) + users(t, 2) + users(t, 3) + users(t, 4) +
		    users(t, 5) + users(t, 6) == 0)
			break;
	}
	check_busy(t, tags);
	for (k = 0; k < TAGS; k++)
		assert_null(tags[k]);
	assert_int_equal(mlx5dm_matcher_destroy(m[0]), 0);
	assert_int_equal(mlx5dm_matcher_destroy(m[1]), 0);
	senv_close(e);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_action_ref_random),
	};

	return cmocka_run_group_tests_name("steer_action_ref", tests, NULL, NULL);
}
