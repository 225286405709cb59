/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/* The random generator's state, text builder and value pools. */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "test_dm_gen_priv.h"

/*
 * Distinct priorities per group: 4096 up to 4000 rules (the rule sets seeds
 * have always given), beyond that every priority net_mlx5dm takes (0..16382),
 * which keeps the busiest group's rules apart up to 50000 (more: reuse).
 */
#define TEST_DM_GEN_PRIOS 4096
#define TEST_DM_GEN_PRIOS_ALL 16383
#define TEST_DM_POOL(name, ...) \
	static const char *const name##_v[] = { __VA_ARGS__ }; \
	const struct test_dm_pool name = { name##_v, RTE_DIM(name##_v) }

TEST_DM_POOL(test_dm_pool_mac, "02:00:00:00:00:01", "02:00:00:00:00:02", "02:00:00:00:00:03",
	     "0a:00:00:00:00:0b");
TEST_DM_POOL(test_dm_pool_ip4, "10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.1.1", "192.168.0.9",
	     "172.16.5.4");
TEST_DM_POOL(test_dm_pool_ip6, "fd00::1", "fd00::2", "fd00::3", "2001:db8::7");
TEST_DM_POOL(test_dm_pool_port, "53", "80", "443", "1024", "1030", "4000", "8080");
TEST_DM_POOL(test_dm_pool_vid, "5", "10", "100");
TEST_DM_POOL(test_dm_pool_vni, "1", "42", "1000");
TEST_DM_POOL(test_dm_pool_ttl, "1", "2", "63", "64", "128");
TEST_DM_POOL(test_dm_pool_tcpflags, "0x02", "0x12", "0x10", "0x01");
TEST_DM_POOL(test_dm_pool_grekey, "0x10", "0x20");
TEST_DM_POOL(test_dm_pool_label, "16", "100");
TEST_DM_POOL(test_dm_pool_data, "1", "2", "3");

void
test_dm_string_init(struct test_dm_string *sb, char *buf, size_t size)
{
	sb->buf = buf;
	sb->size = size;
	sb->len = 0;
	sb->overflow = size == 0;
	if (size != 0)
		buf[0] = '\0';
}

void
test_dm_string_add(struct test_dm_string *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (sb->overflow)
		return;
	va_start(ap, fmt);
	n = vsnprintf(sb->buf + sb->len, sb->size - sb->len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sb->size - sb->len) {
		sb->overflow = 1;
		return;
	}
	sb->len += (size_t)n;
}

int
test_dm_string_end(const struct test_dm_string *sb)
{
	return sb->overflow ? -E2BIG : 0;
}

struct test_dm_gen *
test_dm_gen_new(const struct test_dm_gen_cfg *cfg, uint64_t seed)
{
	struct test_dm_gen *g;

	if (cfg->nb_queues == 0 || cfg->in_groups == 0 || cfg->out_groups == 0 ||
	    cfg->transfer > 100 || (cfg->transfer != 0 && cfg->fdb_groups == 0))
		return NULL;
	g = calloc(1, sizeof(*g));
	if (g == NULL)
		return NULL;
	g->cfg = *cfg;
	g->nb_prio = cfg->rules > 4000 ? TEST_DM_GEN_PRIOS_ALL : TEST_DM_GEN_PRIOS;
	g->used[0] = calloc((size_t)cfg->out_groups * g->nb_prio, 1);
	g->used[1] = calloc((size_t)cfg->in_groups * g->nb_prio, 1);
	g->used[2] = calloc((size_t)RTE_MAX(cfg->fdb_groups, 1u) * g->nb_prio, 1);
	if (cfg->tuples != 0)
		g->tuple_used = calloc((size_t)test_dm_pool_ip4.n * test_dm_pool_ip4.n *
				       test_dm_pool_port.n * test_dm_pool_port.n, 1);
	if (g->used[0] == NULL || g->used[1] == NULL || g->used[2] == NULL || (cfg->tuples != 0 &&
	    (g->tuple_used == NULL || cfg->in_groups < 2 || cfg->tuples > 100))) {
		test_dm_gen_free(g);
		return NULL;
	}
	/* The tuples' priority in ingress group 1 is theirs alone. */
	if (cfg->tuples != 0)
		g->used[1][g->nb_prio] = 1;
	test_dm_rng_seed(&g->rules, seed);
	/* The packet stream: a different seed of the same generator. */
	test_dm_rng_seed(&g->pkts, seed ^ 0x5851f42d4c957f2dULL);
	return g;
}

void
test_dm_gen_free(struct test_dm_gen *g)
{
	if (g == NULL)
		return;
	free(g->used[0]);
	free(g->used[1]);
	free(g->used[2]);
	free(g->tuple_used);
	free(g);
}
