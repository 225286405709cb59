/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#ifndef _TEST_DM_GEN_PRIV_H_
#define _TEST_DM_GEN_PRIV_H_

/* Internals of the random generator: text building and the value pools. */

#include <rte_common.h>

#include "test_dm_gen.h"
#include "test_dm_rng.h"

/** Bounded text being built; overflow is sticky and reported at the end. */
struct test_dm_string {
	char *buf;
	size_t size;
	size_t len;
	int overflow;
};

void test_dm_string_init(struct test_dm_string *sb, char *buf, size_t size);
void test_dm_string_add(struct test_dm_string *sb, const char *fmt, ...) __rte_format_printf(2, 3);
/** 0, or -E2BIG when something did not fit. */
int test_dm_string_end(const struct test_dm_string *sb);

/** A pool of values of one field, as the rule and packet languages write them. */
struct test_dm_pool {
	const char *const *v;
	unsigned int n;
};

extern const struct test_dm_pool test_dm_pool_mac, test_dm_pool_ip4, test_dm_pool_ip6,
	test_dm_pool_port, test_dm_pool_vid, test_dm_pool_vni, test_dm_pool_ttl,
	test_dm_pool_tcpflags, test_dm_pool_grekey, test_dm_pool_label, test_dm_pool_data;

static inline const char *
test_dm_pick(struct test_dm_rng *r, const struct test_dm_pool *p)
{
	return p->v[test_dm_rng_below(r, p->n)];
}

struct test_dm_gen {
	struct test_dm_gen_cfg cfg;
	struct test_dm_rng rules;	/**< Stream of the rules... */
	struct test_dm_rng pkts;	/**< ...and of the packets, independent of it. */
	/** Priorities used so far, per direction (0 egress, 1 ingress, 2 transfer) and group. */
	uint8_t *used[3];
	unsigned int nb_prio;		/**< Priorities drawn from 0..nb_prio-1. */
	unsigned int nb_rules;
	uint8_t *tuple_used;		/**< cfg.tuples: the tuples taken (test_dm_gen_rules.c). */
};

#endif /* _TEST_DM_GEN_PRIV_H_ */
