/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * What growth costs the packets: a matcher grown from a one-entry table
 * keeps at most two tables per level on the lookup path while the older
 * one's entries move to the new head, and none once they have moved; its
 * ICM per rule is then that of a table of its size. Measured on the device
 * model, whose walk trace shows the tables a packet's walk enters.
 */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "steer_test_env.h"

#define F(sec, name) MLX5DM_FTE(sec, name)

/*
 * Rule key kinds: a 1-lookup matcher (dmac) and a 2-lookup one (l3 type |
 * destination address and port). The keys spread over all bits of the
 * fields: the device hash is a CRC (linear), so keys differing in k bits
 * only would land in at most 2^k slots of any table.
 */
enum key_kind {
	KEY_DMAC,
	KEY_TUPLE,
};

static void
key_mask(enum key_kind kind, uint8_t *m)
{
	memset(m, 0, MP_SIZE);
	if (kind == KEY_DMAC) {
		mp_mac(m, F(outer, dmac_47_16), 0xffffffffffffull);
		return;
	}
	mp_set(m, F(outer, ip_version), 4);
	mp_set(m, F(outer, dst_ip_31_0), 0xffffffff);
	mp_set(m, F(outer, udp_dport), 0xffff);
}

static uint64_t
key_mac(uint32_t i)
{
	return 0x020000000000ull | (uint64_t)(i * 2654435761u);
}

static uint32_t
key_dip(uint32_t i)
{
	return (i >> 4) * 2654435761u;
}

static uint16_t
key_dport(uint32_t i)
{
	return (uint16_t)(5000 + (i & 15));
}

static void
key_value(enum key_kind kind, uint32_t i, uint8_t *v)
{
	memset(v, 0, MP_SIZE);
	if (kind == KEY_DMAC) {
		mp_mac(v, F(outer, dmac_47_16), key_mac(i));
		return;
	}
	mp_set(v, F(outer, ip_version), 4);
	mp_set(v, F(outer, dst_ip_31_0), key_dip(i));
	mp_set(v, F(outer, udp_dport), key_dport(i));
}

static void
key_frame(enum key_kind kind, uint32_t i, struct frame *f)
{
	struct pkt p;

	pkt_udp4(&p);
	if (kind == KEY_DMAC) {
		p.o.dmac = key_mac(i);
	} else {
		p.o.dip = key_dip(i);
		p.o.dport = key_dport(i);
	}
	frame_build(f, &p);
}

/*
 * What a packet pays: the model's walk trace names every table the walk
 * enters through a hit pointer (a matcher level's head, an older table of
 * its chain behind the head's miss anchor, ...). Counted on the RX walk.
 */
struct lookups {
	bool rx;
	unsigned int n;
};

static void
lookups_trace(void *arg, const char *line)
{
	struct lookups *l = arg;

	if (strncmp(line, "rx:", 3) == 0 || strncmp(line, "tx:", 3) == 0) {
		__atomic_store_n(&l->rx, line[0] == 'r', __ATOMIC_RELAXED);
		return;
	}
	if (__atomic_load_n(&l->rx, __ATOMIC_RELAXED) && strstr(line, "(hit)") != NULL &&
	    strstr(line, "terminal") == NULL)
		__atomic_fetch_add(&l->n, 1, __ATOMIC_RELAXED);
}

/* Send key i's frame: it must reach its queue in at most max_lookups; returns the lookups. */
static unsigned int
lookups_send(struct senv *e, struct lookups *l, enum key_kind kind, uint32_t i,
	     unsigned int max_lookups)
{
	struct frame f;
	unsigned int n;
	int q;

	__atomic_store_n(&l->n, 0, __ATOMIC_RELAXED);
	key_frame(kind, i, &f);
	q = senv_send(e, &f, NULL);
	n = __atomic_load_n(&l->n, __ATOMIC_RELAXED);
	if (q != (int)(i % SENV_NB_RQ))
		fail_msg("key %u: queue %d, expected %u", i, q, i % SENV_NB_RQ);
	if (n > max_lookups)
		fail_msg("key %u: %u hash lookups, at most %u expected", i, n, max_lookups);
	return n;
}

/*
 * Grow a matcher from a one-entry table to n rules; between inserts, frames
 * of rules spread over those installed (older tables are being emptied
 * then); at the end a frame for every rule. None may take more than two
 * lookups per matcher level, and the ICM per rule (library statistics,
 * after the sync that lets freed tables go) must stay within 96 bytes.
 * GROWTH_RULES=1048576 in the environment runs it at a million rules.
 */
static void
lookups_run(enum key_kind kind, unsigned int levels, uint32_t n)
{
	struct senv *e = senv_open(1);
	struct mlx5dm_rule **r = calloc(n, sizeof(*r));
	unsigned int max = 2 * levels, worst = 0, k;
	struct lookups l = { .rx = false };
	struct mlx5dm_ctx_stats st0, st1;
	struct mlx5dm_matcher_stats ms;
	struct mlx5dm_matcher *m;
	uint8_t mask[MP_SIZE], v[MP_SIZE];
	uint64_t icm, total = 0;
	uint32_t i, moving = 0;

	assert_non_null(r);
	senv_sync(e);
	st0 = senv_stats(e);
	key_mask(kind, mask);
	m = senv_matcher(e->tbl, 0, CRIT(outer), mask, 0);
	mlx5dm_sim_trace_set(mlx5dm_sim_of(e->dev), lookups_trace, &l);
	for (i = 0; i < n; i++) {
		key_value(kind, i, v);
		r[i] = senv_rule(m, 0, v, 1, &e->to_q[i % SENV_NB_RQ]);
		if ((i + 1) % 509 != 0)
			continue;
		/* Rules from the oldest to the newest, 16 of them; some while entries move. */
		assert_int_equal(mlx5dm_queue_drain(e->ctx, 0), 0);
		for (k = 0; k < 16; k++)
			(void)lookups_send(e, &l, kind, (uint32_t)((uint64_t)i * k / 15), max);
		assert_int_equal(mlx5dm_matcher_stats_get(m, &ms), 0);
		if (ms.chained_tables != 0)
			moving++;
	}
	/* Some samples were taken with an older table still on the lookup path. */
	assert_true(moving > 0);
	assert_int_equal(mlx5dm_queue_drain(e->ctx, 0), 0);
	for (i = 0; i < n; i++) {
		k = lookups_send(e, &l, kind, i, max);
		if (k > worst)
			worst = k;
		total += k;
	}
	mlx5dm_sim_trace_set(mlx5dm_sim_of(e->dev), NULL, NULL);
	senv_sync(e);
	st1 = senv_stats(e);
	icm = st1.icm[0].used_bytes - st0.icm[0].used_bytes;
	fprintf(stderr, "%u rules, %u level(s): lookups per frame max %u, mean %.2f; "
		"STEERING ICM %.1f bytes per rule; %u of %u samples while entries moved\n", n,
		levels, worst, (double)total / n, (double)icm / n, moving, n / 509);
	assert_true(icm <= 96ull * n);
	for (i = 0; i < n; i++)
		assert_int_equal(mlx5dm_rule_destroy(r[i], 0), 0);
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	senv_sync(e);
	st1 = senv_stats(e);
	assert_icm_equal(&st0, &st1);
	free(r);
	senv_close(e);
}

static uint32_t
lookups_rules(void)
{
	const char *s = getenv("GROWTH_RULES");

	return s != NULL ? (uint32_t)strtoul(s, NULL, 0) : 16384;
}

static void
test_growth_lookups_level0(void **state)
{
	(void)state;
	lookups_run(KEY_DMAC, 1, lookups_rules());
}

static void
test_growth_lookups_deep_level(void **state)
{
	(void)state;
	lookups_run(KEY_TUPLE, 2, lookups_rules());
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_growth_lookups_level0),
		cmocka_unit_test(test_growth_lookups_deep_level),
	};

	return cmocka_run_group_tests_name("steer_lookups", tests, NULL, NULL);
}
