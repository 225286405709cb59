/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Actions on the device model: drop, TIR (single queue and RSS), default
 * miss, counters, flow tags, modify header (every supported field, with
 * checksums), VLAN push/pop (RX and TX), L2 and L3 decap, L2->L2 and
 * L2->L3 encap on NIC TX (the frame then crosses the wire back into RX),
 * combinations, and the combinations the library must refuse.
 *
 * Expected frames are built by the test's own frame builder from the
 * header values the action should produce (checksums computed from
 * scratch), never by running the library's encoders.
 */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <cmocka.h>

#include "mlx5dm_res.h"
#include "mlx5dm_steer_priv.h"
#include "steer_test_env.h"
#include "test_util.h"

#define F(sec, name) MLX5DM_FTE(sec, name)

/* Modify-header field ids (MLX5_ACTION_IN_FIELD_OUT_*, PRM). */
enum {
	FLD_SMAC_47_16 = 0x01,
	FLD_SMAC_15_0 = 0x02,
	FLD_DMAC_47_16 = 0x04,
	FLD_DMAC_15_0 = 0x05,
	FLD_IP_DSCP = 0x06,
	FLD_TCP_FLAGS = 0x07,
	FLD_TCP_SPORT = 0x08,
	FLD_TCP_DPORT = 0x09,
	FLD_IP_TTL = 0x0a,
	FLD_UDP_SPORT = 0x0b,
	FLD_UDP_DPORT = 0x0c,
	FLD_SIPV6_127_96 = 0x0d,
	FLD_DIPV6_127_96 = 0x11,
	FLD_SIPV4 = 0x15,
	FLD_DIPV4 = 0x16,
	FLD_FIRST_VID = 0x17,
	FLD_IPV6_HOPLIMIT = 0x47,
	FLD_REG_A = 0x49,
	FLD_REG_C_0 = 0x51,
	FLD_TCP_SEQ = 0x59,
	FLD_TCP_ACK = 0x5b,
	FLD_GTPU_TEID = 0x6e,
	FLD_IP_ECN = 0x73,
};

/* A match-all matcher in tbl with one rule carrying acts. */
struct catch_all {
	struct mlx5dm_matcher *m;
	struct mlx5dm_rule *r;
};

static void
catch_all_add(struct catch_all *c, struct mlx5dm_table *tbl, size_t n,
	      struct mlx5dm_action *const acts[])
{
	uint8_t zero[MP_SIZE] = { 0 };

	c->m = senv_matcher(tbl, 0, 0, zero, 0);
	c->r = senv_rule(c->m, 0, zero, n, acts);
}

static void
catch_all_del(struct catch_all *c)
{
	assert_int_equal(mlx5dm_rule_destroy(c->r, 0), 0);
	assert_int_equal(mlx5dm_matcher_destroy(c->m), 0);
}

/* Install acts for every RX frame, send in, expect queue q and (if want) these bytes. */
static void
expect_rx(struct senv *e, size_t n, struct mlx5dm_action *const acts[], const struct frame *in,
	  int q, const struct frame *want)
{
	struct catch_all c;
	struct rx got;

	catch_all_add(&c, e->tbl, n, acts);
	assert_int_equal(senv_send(e, in, &got), q);
	if (want != NULL)
		rx_assert_bytes(&got, want);
	catch_all_del(&c);
}

/* NIC TX: an entry table for the TX domain; RX delivers everything to queue 0. */
struct tx_path {
	struct mlx5dm_table *ttbl;
	struct catch_all rx_all;
};

static void
tx_path_open(struct senv *e, struct tx_path *t)
{
	t->ttbl = mlx5dm_table_create(e->tx, 1);
	assert_non_null(t->ttbl);
	assert_int_equal(mlx5dm_domain_set_root(e->tx, t->ttbl), 0);
	catch_all_add(&t->rx_all, e->tbl, 1, &e->to_q[0]);
}

static void
tx_path_close(struct senv *e, struct tx_path *t)
{
	catch_all_del(&t->rx_all);
	assert_int_equal(mlx5dm_domain_set_root(e->tx, NULL), 0);
	assert_int_equal(mlx5dm_table_destroy(t->ttbl), 0);
}

/* A matcher of tbl on the outer IPv4 UDP destination port. */
static struct mlx5dm_matcher *
udp_dport_matcher(struct mlx5dm_table *tbl)
{
	uint8_t mask[MP_SIZE] = { 0 };

	mp_set(mask, MLX5DM_FTE(outer, ip_version), 4);
	mp_set(mask, MLX5DM_FTE(outer, udp_dport), 0xffff);
	return senv_matcher(tbl, 0, CRIT(outer), mask, 0);
}

/* Its rule value for port. */
static void
udp_dport_value(uint8_t *v, uint16_t port)
{
	memset(v, 0, MP_SIZE);
	mp_set(v, MLX5DM_FTE(outer, ip_version), 4);
	mp_set(v, MLX5DM_FTE(outer, udp_dport), port);
}

/* ---- drop, default miss, counters, flow tag ---- */

/*
 * Rules of one matcher with the same action list but each its own counter
 * (how rte_flow COUNT rules come): the matcher reuses the placed actions
 * of the previous rule and writes the new counter id in. Each flow must
 * count into its own counter only, including after a delete in between
 * and with the counter behind a flow tag (another list shape).
 */
static void
test_counter_per_rule(void **state)
{
	struct senv *e = senv_open(1);
	struct mlx5dm_action *cnt[4], *tag, *acts[3];
	uint8_t v[MP_SIZE];
	struct mlx5dm_rule *r[4];
	struct mlx5dm_counters *c;
	struct mlx5dm_matcher *m;
	uint64_t pk, by;
	unsigned int i, k;
	struct frame f;
	struct pkt p;

	(void)state;
	c = mlx5dm_counters_alloc(e->ctx, 2);
	assert_non_null(c);
	for (i = 0; i < 4; i++) {
		cnt[i] = mlx5dm_action_counter(e->rx, c, i);
		assert_non_null(cnt[i]);
	}
	tag = mlx5dm_action_flow_tag(e->rx, 0x77);
	assert_non_null(tag);
	m = udp_dport_matcher(e->tbl);
	for (i = 0; i < 4; i++) {
		udp_dport_value(v, (uint16_t)(7000 + i));
		/* Rules 0-2: counter + queue; rule 3: counter + tag + queue. */
		acts[0] = cnt[i];
		acts[1] = i < 3 ? e->to_q[1] : tag;
		acts[2] = e->to_q[1];
		r[i] = senv_rule(m, 0, v, i < 3 ? 2 : 3, acts);
		if (i == 1) {
			/* A delete between two creates: the next still counts on its own. */
			assert_int_equal(mlx5dm_rule_destroy(r[0], 0), 0);
			r[0] = NULL;
		}
	}
	/* Flow k gets k + 1 frames (flow 0's rule is gone: none counted). */
	for (k = 0; k < 4; k++) {
		for (i = 0; i <= k; i++) {
			pkt_udp4(&p);
			p.o.dport = (uint16_t)(7000 + k);
			frame_build(&f, &p);
			assert_int_equal(senv_send(e, &f, NULL), k == 0 ? RX_DROPPED : 1);
		}
	}
	for (k = 0; k < 4; k++) {
		assert_int_equal(mlx5dm_counters_query(c, k, &pk, &by), 0);
		assert_int_equal(pk, k == 0 ? 0 : k + 1);
		assert_int_equal(by, k == 0 ? 0 : (k + 1) * (uint64_t)f.len);
	}
	for (i = 1; i < 4; i++)
		assert_int_equal(mlx5dm_rule_destroy(r[i], 0), 0);
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	for (i = 0; i < 4; i++)
		assert_int_equal(mlx5dm_action_destroy(cnt[i]), 0);
	assert_int_equal(mlx5dm_action_destroy(tag), 0);
	assert_int_equal(mlx5dm_counters_free(c), 0);
	senv_close(e);
}

/* A rule of m for value with actions and their arguments, through prepare. */
static struct mlx5dm_rule *
rule_args(struct mlx5dm_matcher *m, const uint8_t *v, size_t n, struct mlx5dm_action *const acts[],
	  const uint32_t args[])
{
	struct mlx5dm_rule_prep prep;

	assert_int_equal(mlx5dm_rule_prepare(m, v, &prep), 0);
	return mlx5dm_rule_create_prepared_args(&prep, 0, n, acts, args);
}

/* The counter id rule r's dump gives its counter action (3406 record), and that record's id. */
static uint32_t
dumped_counter(struct mlx5dm_rule *r, uint64_t *rec_id)
{
	char *buf = NULL, *line;
	unsigned int id = 0;
	unsigned long long rid = 0, rule = 0;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(mlx5dm_rule_dump(r, f), 0);
	fclose(f);
	line = strstr(buf, "\n3406,");
	assert_non_null(line);
	assert_int_equal(sscanf(line + 1, "3406,0x%llx,0x%llx,0x%x", &rid, &rule, &id), 3);
	free(buf);
	*rec_id = rid;
	return id;
}

/*
 * One action for a whole bulk: each rule names its counter by its argument.
 * Forty rules of one list (the first placed, the others copied from the
 * matcher's memo with their own counter written in) count into forty
 * counters, each only its own frames, counter 0 included (its id may be 0,
 * which the memo cannot patch: such a list is not kept). A missing or
 * out-of-bulk argument is refused on both paths and steers nothing; two
 * counters in one rule are refused; a dump names each rule's own counter.
 */
static void
test_counter_bulk_action(void **state)
{
	enum { N = 40 };
	struct senv *e = senv_open(1);
	struct mlx5dm_action *bulk, *acts[3];
	struct mlx5dm_rule *r[N];
	struct mlx5dm_counters *c;
	struct mlx5dm_matcher *m;
	uint32_t args[3], idx;
	uint8_t v[MP_SIZE];
	uint64_t pk, by, rid;
	unsigned int i, k;
	struct frame f;
	struct pkt p;

	(void)state;
	c = mlx5dm_counters_alloc(e->ctx, 7);
	assert_non_null(c);
	bulk = mlx5dm_action_counters(e->rx, c);
	assert_non_null(bulk);
	m = udp_dport_matcher(e->tbl);
	acts[0] = bulk;
	acts[1] = e->to_q[2];
	for (i = 0; i < N; i++) {
		udp_dport_value(v, (uint16_t)(8000 + i));
		args[0] = (i * 37) % 128; /* forty distinct indexes */
		args[1] = 0xdead;         /* the queue takes none: ignored */
		r[i] = rule_args(m, v, 2, acts, args);
		if (r[i] == NULL)
			fail_msg("rule %u refused: errno %d", i, errno);
	}
	/* Refused, memo path (the list is known) and first placement alike. */
	udp_dport_value(v, 9000);
	args[0] = 128;
	assert_null(rule_args(m, v, 2, acts, args));
	assert_int_equal(errno, EINVAL);
	assert_null(rule_args(m, v, 2, acts, NULL));
	assert_int_equal(errno, EINVAL);
	acts[2] = e->to_q[2];
	acts[1] = bulk;
	assert_null(rule_args(m, v, 3, acts, NULL));
	assert_int_equal(errno, EINVAL);
	/* Two counters in one rule: the encoder refuses them (one counter per entry). */
	udp_dport_value(v, 9100);
	args[0] = 100;
	args[1] = 101;
	assert_null(rule_args(m, v, 3, acts, args));
	assert_int_equal(errno, EOPNOTSUPP);
	/* Rule i gets i % 3 + 1 frames; the refused rules' ports none of theirs. */
	for (k = 0; k < N; k++) {
		for (i = 0; i <= k % 3; i++) {
			pkt_udp4(&p);
			p.o.dport = (uint16_t)(8000 + k);
			frame_build(&f, &p);
			assert_int_equal(senv_send(e, &f, NULL), 2);
		}
	}
	for (k = 0; k < 2; k++) {
		pkt_udp4(&p);
		p.o.dport = (uint16_t)(9000 + 100 * k);
		frame_build(&f, &p);
		assert_int_equal(senv_send(e, &f, NULL), RX_DROPPED);
	}
	for (idx = 0; idx < 128; idx++) {
		uint64_t want = 0;

		for (k = 0; k < N; k++)
			if ((k * 37) % 128 == idx)
				want = k % 3 + 1;
		assert_int_equal(mlx5dm_counters_query(c, idx, &pk, &by), 0);
		if (pk != want)
			fail_msg("counter %u: %" PRIu64 " packets, %" PRIu64 " expected", idx, pk,
				 want);
		assert_int_equal(by, want * f.len);
	}
	/* The dump: each rule's own counter, under an id of its own. */
	assert_int_equal(dumped_counter(r[5], &rid), mlx5dm_res_counter_id(c, (5 * 37) % 128));
	assert_int_equal(rid, 1ull << 63 | mlx5dm_res_counter_id(c, (5 * 37) % 128));
	assert_int_equal(mlx5dm_action_dump_id(bulk, (5 * 37) % 128), rid);
	assert_int_equal(dumped_counter(r[6], &rid), mlx5dm_res_counter_id(c, (6 * 37) % 128));
	for (i = 0; i < N; i++)
		assert_int_equal(mlx5dm_rule_destroy(r[i], 0), 0);
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	assert_int_equal(mlx5dm_action_destroy(bulk), 0);
	assert_int_equal(mlx5dm_counters_free(c), 0);
	senv_close(e);
}

static void
test_drop_counter_default_miss(void **state)
{
	struct senv *e = senv_open(1);
	struct mlx5dm_action *drop, *miss, *cnt[2], *acts[2];
	struct mlx5dm_dev_port_stats s0, s1;
	struct mlx5dm_counters *c;
	uint64_t pk, by, want_bytes = 0;
	struct tx_path t;
	unsigned int i;
	struct frame f;
	struct pkt p;

	(void)state;
	c = mlx5dm_counters_alloc(e->ctx, 1);
	assert_non_null(c);
	drop = mlx5dm_action_drop(e->rx);
	miss = mlx5dm_action_default_miss(e->rx);
	cnt[0] = mlx5dm_action_counter(e->rx, c, 0);
	cnt[1] = mlx5dm_action_counter(e->rx, c, 1);
	assert_non_null(drop);
	assert_non_null(miss);
	assert_non_null(cnt[0]);
	assert_non_null(cnt[1]);
	/* Counter index beyond the bulk. */
	assert_null(mlx5dm_action_counter(e->rx, c, 2));
	assert_int_equal(errno, EINVAL);

	/* Counted drop: the frames are dropped by steering and counted. */
	acts[0] = cnt[0];
	acts[1] = drop;
	s0 = senv_port_stats(e);
	{
		struct catch_all ca;

		catch_all_add(&ca, e->tbl, 2, acts);
		for (i = 0; i < 5; i++) {
			pkt_udp4(&p);
			p.payload = (uint16_t)(18 + 100 * i);
			frame_build(&f, &p);
			want_bytes += f.len;
			assert_int_equal(senv_send(e, &f, NULL), RX_DROPPED);
		}
		catch_all_del(&ca);
	}
	s1 = senv_port_stats(e);
	assert_int_equal(s1.drops.steering_drop - s0.drops.steering_drop, 5);
	assert_int_equal(mlx5dm_counters_query(c, 0, &pk, &by), 0);
	assert_int_equal(pk, 5);
	assert_int_equal(by, want_bytes);

	/* Counted delivery; the counter keeps counting across rules. */
	acts[0] = cnt[1];
	acts[1] = e->to_q[2];
	pkt_udp4(&p);
	frame_build(&f, &p);
	expect_rx(e, 2, acts, &f, 2, &f);
	assert_int_equal(mlx5dm_counters_query(c, 1, &pk, &by), 0);
	assert_int_equal(pk, 1);
	assert_int_equal(by, f.len);
	acts[0] = cnt[1];
	acts[1] = e->to_q[3];
	expect_rx(e, 2, acts, &f, 3, &f);
	assert_int_equal(mlx5dm_counters_query(c, 1, &pk, &by), 0);
	assert_int_equal(pk, 2);
	assert_int_equal(by, 2u * f.len);
	/* Counter 0 did not move. */
	assert_int_equal(mlx5dm_counters_query(c, 0, &pk, &by), 0);
	assert_int_equal(pk, 5);

	/* RX default miss: the NIC RX default, i.e. dropped. */
	expect_rx(e, 1, &miss, &f, RX_DROPPED, NULL);

	/* TX default miss: the TX default, i.e. the wire (then RX queue 0). */
	tx_path_open(e, &t);
	{
		struct mlx5dm_action *txmiss = mlx5dm_action_default_miss(e->tx);
		struct mlx5dm_action *txdrop = mlx5dm_action_drop(e->tx);
		struct catch_all tc;
		struct rx got;

		assert_non_null(txmiss);
		assert_non_null(txdrop);
		catch_all_add(&tc, t.ttbl, 1, &txmiss);
		assert_int_equal(senv_send(e, &f, &got), 0);
		rx_assert_bytes(&got, &f);
		catch_all_del(&tc);
		/* TX drop: never reaches the wire. */
		s0 = senv_port_stats(e);
		catch_all_add(&tc, t.ttbl, 1, &txdrop);
		assert_int_equal(senv_send(e, &f, NULL), RX_DROPPED);
		catch_all_del(&tc);
		s1 = senv_port_stats(e);
		assert_int_equal(s1.wire_packets, s0.wire_packets);
		assert_int_equal(mlx5dm_action_destroy(txmiss), 0);
		assert_int_equal(mlx5dm_action_destroy(txdrop), 0);
	}
	tx_path_close(e, &t);

	DESTROY_ACTIONS(drop, miss, cnt[0], cnt[1]);
	assert_int_equal(mlx5dm_counters_free(c), 0);
	senv_close(e);
}

static void
test_flow_tag(void **state)
{
	static const uint32_t tags[] = { 0, 1, 0x800000, 0xffffff };
	struct senv *e = senv_open(1);
	struct mlx5dm_action *acts[2];
	unsigned int i;
	struct frame f;
	struct rx got;
	struct pkt p;

	(void)state;
	pkt_udp4(&p);
	frame_build(&f, &p);
	for (i = 0; i < sizeof(tags) / sizeof(tags[0]); i++) {
		struct catch_all c;

		acts[0] = mlx5dm_action_flow_tag(e->rx, tags[i]);
		assert_non_null(acts[0]);
		acts[1] = e->to_q[i];
		catch_all_add(&c, e->tbl, 2, acts);
		assert_int_equal(senv_send(e, &f, &got), (int)i);
		/* A CQE carries the tag in sop_drop_qpn: tag 0 reads as no tag. */
		assert_true(tags[i] == 0 || (got.flags & MLX5DM_SIM_PKT_F_FLOW_TAG));
		assert_int_equal(got.flow_tag, tags[i]);
		catch_all_del(&c);
		assert_int_equal(mlx5dm_action_destroy(acts[0]), 0);
	}
	/* 24 bits at most. */
	assert_null(mlx5dm_action_flow_tag(e->rx, 0x1000000));
	assert_int_equal(errno, EINVAL);
	senv_close(e);
}

/*
 * Rules of one matcher, each marked with its own flow tag, in two list
 * shapes (tag + queue in the match entry; tag + counter + modify + queue,
 * which takes an action entry), cycling through more tags than the
 * matcher keeps lists: after the first rule of a shape the placement is
 * copied and the rule's tag written in. Each frame must carry its own
 * rule's tag, including tags whose bits look like nothing else (0,
 * 0xffffff) and after a delete in between.
 */
static void
test_flow_tag_per_rule(void **state)
{
	enum { N = 24 };
	struct senv *e = senv_open(1);
	struct mlx5dm_action *tag[N], *cnt, *mod, *acts[4];
	uint8_t v[MP_SIZE], prm[8];
	struct mlx5dm_rule *r[N];
	uint32_t tv[N];
	struct mlx5dm_counters *c;
	struct mlx5dm_matcher *m;
	unsigned int i;
	struct frame f;
	struct rx got;
	struct pkt p;

	(void)state;
	c = mlx5dm_counters_alloc(e->ctx, 0);
	assert_non_null(c);
	cnt = mlx5dm_action_counter(e->rx, c, 0);
	assert_non_null(cnt);
	/* Set the IPv4 TTL to 9: one modify action. */
	mod_set(prm, FLD_IP_TTL, 0, 8, 9);
	mod = mlx5dm_action_modify_header(e->rx, 1, prm);
	assert_non_null(mod);
	m = udp_dport_matcher(e->tbl);
	for (i = 0; i < N; i++) {
		tv[i] = i == 0 ? 0 : i == 1 ? 0xffffff : (i * 0x10101u) & 0xffffff;
		tag[i] = mlx5dm_action_flow_tag(e->rx, tv[i]);
		assert_non_null(tag[i]);
		udp_dport_value(v, (uint16_t)(6000 + i));
		acts[0] = tag[i];
		if (i % 2 == 0) {
			acts[1] = e->to_q[3];
			r[i] = senv_rule(m, 0, v, 2, acts);
		} else {
			acts[1] = cnt;
			acts[2] = mod;
			acts[3] = e->to_q[3];
			r[i] = senv_rule(m, 0, v, 4, acts);
		}
		if (i == 5) {
			assert_int_equal(mlx5dm_rule_destroy(r[4], 0), 0);
			r[4] = NULL;
		}
	}
	for (i = 0; i < N; i++) {
		pkt_udp4(&p);
		p.o.dport = (uint16_t)(6000 + i);
		frame_build(&f, &p);
		if (r[i] == NULL) {
			assert_int_equal(senv_send(e, &f, &got), RX_DROPPED);
			continue;
		}
		assert_int_equal(senv_send(e, &f, &got), 3);
		assert_true(tv[i] == 0 || (got.flags & MLX5DM_SIM_PKT_F_FLOW_TAG));
		if (got.flow_tag != tv[i])
			fail_msg("rule %u: flow tag 0x%x, 0x%x expected", i, got.flow_tag, tv[i]);
	}
	for (i = 0; i < N; i++)
		if (r[i] != NULL)
			assert_int_equal(mlx5dm_rule_destroy(r[i], 0), 0);
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	for (i = 0; i < N; i++)
		assert_int_equal(mlx5dm_action_destroy(tag[i]), 0);
	DESTROY_ACTIONS(cnt, mod);
	assert_int_equal(mlx5dm_counters_free(c), 0);
	senv_close(e);
}

/* The tag rule r's dump gives its flow tag action (3407 record). */
static uint32_t
dumped_tag(struct mlx5dm_rule *r)
{
	char *buf = NULL, *line;
	unsigned long long rid = 0, rule = 0, tag = 0;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(mlx5dm_rule_dump(r, f), 0);
	fclose(f);
	line = strstr(buf, "\n3407,");
	assert_non_null(line);
	assert_int_equal(sscanf(line + 1, "3407,0x%llx,0x%llx,0x%llx", &rid, &rule, &tag), 3);
	free(buf);
	return (uint32_t)tag;
}

/*
 * One flow tag action for every tag: each rule gives its tag as the
 * action's argument, in the two list shapes of test_flow_tag_per_rule()
 * (the first rule of a shape placed, the others copied from the matcher's
 * memo with their own tag written in). Each frame carries its own rule's
 * tag; a missing tag or one wider than 24 bits is refused on both paths;
 * a dump names each rule's own tag.
 */
static void
test_flow_tags_action(void **state)
{
	enum { N = 24 };
	struct senv *e = senv_open(1);
	struct mlx5dm_action *tags, *cnt, *mod, *acts[4];
	uint8_t v[MP_SIZE], prm[8];
	uint32_t tv[N], args[4] = { 0 };
	struct mlx5dm_rule *r[N];
	struct mlx5dm_counters *c;
	struct mlx5dm_matcher *m;
	unsigned int i, k;
	struct frame f;
	struct rx got;
	struct pkt p;

	(void)state;
	c = mlx5dm_counters_alloc(e->ctx, 0);
	assert_non_null(c);
	cnt = mlx5dm_action_counter(e->rx, c, 0);
	assert_non_null(cnt);
	mod_set(prm, FLD_IP_TTL, 0, 8, 9);
	mod = mlx5dm_action_modify_header(e->rx, 1, prm);
	assert_non_null(mod);
	tags = mlx5dm_action_flow_tags(e->rx);
	assert_non_null(tags);
	m = udp_dport_matcher(e->tbl);
	acts[0] = tags;
	for (i = 0; i < N; i++) {
		tv[i] = i == 0 ? 1 : i == 1 ? 0xffffff : (i * 0x10101u) & 0xffffff;
		udp_dport_value(v, (uint16_t)(6000 + i));
		args[0] = tv[i];
		if (i % 2 == 0) {
			acts[1] = e->to_q[3];
			r[i] = rule_args(m, v, 2, acts, args);
		} else {
			acts[1] = cnt;
			acts[2] = mod;
			acts[3] = e->to_q[3];
			r[i] = rule_args(m, v, 4, acts, args);
		}
		if (r[i] == NULL)
			fail_msg("rule %u refused: errno %d", i, errno);
	}
	/* Refused on the memo path (the lists are known) and on a first placement. */
	for (k = 0; k < 3; k++) {
		udp_dport_value(v, 7000);
		acts[1] = e->to_q[k == 2 ? 2 : 3];
		args[0] = 0x1000000;
		assert_null(rule_args(m, v, 2, acts, k == 1 ? NULL : args));
		assert_int_equal(errno, EINVAL);
	}
	for (i = 0; i < N; i++) {
		pkt_udp4(&p);
		p.o.dport = (uint16_t)(6000 + i);
		frame_build(&f, &p);
		assert_int_equal(senv_send(e, &f, &got), 3);
		assert_true(tv[i] == 0 || (got.flags & MLX5DM_SIM_PKT_F_FLOW_TAG));
		if (got.flow_tag != tv[i])
			fail_msg("rule %u: flow tag 0x%x, 0x%x expected", i, got.flow_tag, tv[i]);
	}
	pkt_udp4(&p);
	p.o.dport = 7000;
	frame_build(&f, &p);
	assert_int_equal(senv_send(e, &f, NULL), RX_DROPPED);
	assert_int_equal(dumped_tag(r[2]), tv[2]);
	assert_int_equal(dumped_tag(r[7]), tv[7]);
	for (i = 0; i < N; i++)
		assert_int_equal(mlx5dm_rule_destroy(r[i], 0), 0);
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	DESTROY_ACTIONS(tags, cnt, mod);
	assert_int_equal(mlx5dm_counters_free(c), 0);
	senv_close(e);
}

/* The images (64 bytes each, as written) of rule r's entries, from its dump; their number. */
static unsigned int
dumped_images(struct mlx5dm_rule *r, uint8_t img[][64], unsigned int max)
{
	char *buf = NULL, *line;
	size_t len = 0;
	unsigned int n = 0, k;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(mlx5dm_rule_dump(r, f), 0);
	fclose(f);
	for (line = strstr(buf, "\n3303,"); line != NULL; line = strstr(line + 1, "\n3303,")) {
		char *hex = strchr(strchr(strchr(line + 1, ',') + 1, ',') + 1, ',') + 1;

		assert_true(n < max);
		for (k = 0; k < 64; k++) {
			unsigned int b;

			assert_int_equal(sscanf(hex + 2 * k, "%2x", &b), 1);
			img[n][k] = (uint8_t)b;
		}
		n++;
	}
	free(buf);
	return n;
}

/* The byte offset of a v1 flow_tag single action (id 0x0c) carrying tag in image, or -1. */
static int
image_tag_at(const uint8_t *img, uint32_t tag)
{
	unsigned int off;

	/* Actions are dword-aligned in the entry's control part (STE v1 layouts). */
	for (off = 20; off + 4 <= 32; off += 4)
		if (img[off] == 0x0c && img[off + 1] == (uint8_t)(tag >> 16) &&
		    img[off + 2] == (uint8_t)(tag >> 8) && img[off + 3] == (uint8_t)tag)
			return (int)off;
	return -1;
}

/* A bulk of 2^log counters, its action and the tags action of e's RX domain. */
static struct mlx5dm_counters *
bulk_and_tags(struct senv *e, uint32_t log, struct mlx5dm_action **bulk,
	      struct mlx5dm_action **tags)
{
	struct mlx5dm_counters *c = mlx5dm_counters_alloc(e->ctx, log);

	assert_non_null(c);
	*bulk = mlx5dm_action_counters(e->rx, c);
	*tags = mlx5dm_action_flow_tags(e->rx);
	assert_non_null(*bulk);
	assert_non_null(*tags);
	return c;
}

/*
 * An action template (mlx5dm_action_tmpl_create()): two rules of one
 * template, each with its own counter of a bulk and its own flow tag,
 * write the template's image with only their own fields in it. By hand
 * from the PRM's STE v1 layouts: counter_id is the low 24 bits of the
 * last match entry's first dword (ste_match_bwc_v1), the tag a 4-byte
 * flow_tag action (action_id 0x0c, tag in the low 24 bits) among its
 * actions. Apart from those, the miss addresses (each rule's own chain)
 * and the match tag, the images are the same bytes. Traffic
 * confirms each rule counts into its counter and marks with its tag.
 * An action not the template's, a template of another matcher, an
 * argument out of range and a rule without its counter are refused. The
 * template holds no reference on the counter and tag actions.
 */
static void
test_action_tmpl_values(void **state)
{
	const uint32_t tag[2] = { 0x123456, 0x00abcd }, idx[2] = { 1, 6 };
	struct senv *e = senv_open(1);
	struct mlx5dm_action *bulk, *tags, *acts[3];
	struct mlx5dm_matcher *m, *m2;
	struct mlx5dm_action_tmpl *t;
	struct mlx5dm_rule_prep prep;
	struct mlx5dm_counters *c;
	struct mlx5dm_rule *r[2];
	uint8_t v[MP_SIZE], img[2][8][64];
	const uint8_t *last;
	unsigned int i, k, n[2];
	uint64_t pk, by;
	uint32_t args[3];
	struct frame f;
	struct rx got;
	struct pkt p;
	int at;

	(void)state;
	c = bulk_and_tags(e, 3, &bulk, &tags);
	m = udp_dport_matcher(e->tbl);
	m2 = udp_dport_matcher(e->tbl);
	acts[0] = bulk;
	acts[1] = tags;
	acts[2] = e->to_q[1];
	t = mlx5dm_action_tmpl_create(m, 3, acts);
	assert_non_null(t);
	for (i = 0; i < 2; i++) {
		udp_dport_value(v, (uint16_t)(5000 + i));
		args[0] = idx[i];
		args[1] = tag[i];
		args[2] = 0;
		assert_int_equal(mlx5dm_rule_prepare(m, v, &prep), 0);
		r[i] = mlx5dm_rule_create_tmpl(&prep, 0, t, acts, args);
		if (r[i] == NULL)
			fail_msg("rule %u refused: errno %d", i, errno);
	}
	/* Refused: another queue in the queue's place, a counter outside the bulk, m2. */
	udp_dport_value(v, 5100);
	acts[2] = e->to_q[2];
	assert_int_equal(mlx5dm_rule_prepare(m, v, &prep), 0);
	assert_null(mlx5dm_rule_create_tmpl(&prep, 0, t, acts, args));
	assert_int_equal(errno, EINVAL);
	acts[2] = e->to_q[1];
	args[0] = 8;
	assert_int_equal(mlx5dm_rule_prepare(m, v, &prep), 0);
	assert_null(mlx5dm_rule_create_tmpl(&prep, 0, t, acts, args));
	assert_int_equal(errno, EINVAL);
	args[0] = idx[0];
	assert_int_equal(mlx5dm_rule_prepare(m2, v, &prep), 0);
	assert_null(mlx5dm_rule_create_tmpl(&prep, 0, t, acts, args));
	assert_int_equal(errno, EINVAL);
	/* The bytes. */
	for (i = 0; i < 2; i++) {
		uint32_t id = mlx5dm_res_counter_id(c, idx[i]);

		n[i] = dumped_images(r[i], img[i], 8);
		assert_true(n[i] >= 1);
		last = img[i][n[i] - 1];
		assert_int_equal(last[1], (uint8_t)(id >> 16));
		assert_int_equal(last[2], (uint8_t)(id >> 8));
		assert_int_equal(last[3], (uint8_t)id);
		at = image_tag_at(last, tag[i]);
		if (at < 0)
			fail_msg("rule %u: no flow tag action with 0x%x", i, tag[i]);
	}
	/* The level-0 entry (IPv4) is shared; the list fits in the last match entry. */
	assert_int_equal(n[0], 2);
	assert_int_equal(n[1], 2);
	for (i = 0; i < 2; i++) {
		for (k = 0; k < 64; k++) {
			bool own = (k >= 4 && k <= 11) || (i == 1 && ((k >= 1 && k <= 3) ||
				   (k >= (unsigned int)at && k < (unsigned int)at + 4) || k >= 32));

			if (!own && img[0][i][k] != img[1][i][k])
				fail_msg("entry %u byte %u differs: 0x%02x, 0x%02x", i, k,
					 img[0][i][k], img[1][i][k]);
		}
	}
	for (i = 0; i < 2; i++) {
		pkt_udp4(&p);
		p.o.dport = (uint16_t)(5000 + i);
		frame_build(&f, &p);
		assert_int_equal(senv_send(e, &f, &got), 1);
		assert_int_equal(got.flow_tag, tag[i]);
	}
	for (k = 0; k < 8; k++) {
		assert_int_equal(mlx5dm_counters_query(c, k, &pk, &by), 0);
		assert_int_equal(pk, k == idx[0] || k == idx[1] ? 1 : 0);
	}
	/* Without the rule's counter and tag: refused. The template does not hold them. */
	assert_int_equal(mlx5dm_rule_prepare(m, v, &prep), 0);
	assert_null(mlx5dm_rule_create_tmpl(&prep, 0, t, NULL, args));
	assert_int_equal(errno, EINVAL);
	for (i = 0; i < 2; i++)
		assert_int_equal(mlx5dm_rule_destroy(r[i], 0), 0);
	DESTROY_ACTIONS(bulk, tags);
	assert_int_equal(mlx5dm_counters_free(c), 0);
	mlx5dm_action_tmpl_destroy(t);
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	assert_int_equal(mlx5dm_matcher_destroy(m2), 0);
	senv_close(e);
}

/*
 * A rule's last-level entry keeps no control part: one slab record holds
 * the entry and the rule (80 bytes with one action), and the matcher takes
 * no other record per rule. Its writes place the rule's actions again (in
 * full, or a template's image patched). From a table of one slot (entries
 * moved to grown tables, appended behind others, the neighbours of
 * deleted ones rewritten), every rule still goes to its queue; every rule
 * of a template still counts into its own counter of a bulk and marks
 * with its own tag, the same as a rule placed in full; a deleted rule
 * matches no more; the device holds the image each entry is written with.
 */
#define LEAN_RULES 200

/*
 * The device holds what rule's last entry would be written with now (its
 * control part placed again, its pointers from its links).
 */
static void
assert_last_written(struct senv *e, const struct mlx5dm_rule *rule)
{
	const struct mlx5dm_matcher *m = rule->matcher;
	const struct mlx5dm_ste *s = mlx5dm_rule_last(rule);
	uint8_t img[MLX5DM_STE_SIZE], was[MLX5DM_STE_SIZE];

	mlx5dm_ste_image(s, m->builders[m->nb_builders - 1].bit_mask, img);
	mlx5dm_ste_to_hw(e->ctx->ste, img, MLX5DM_STE_SIZE);
	assert_int_equal(mlx5dm_sim_icm_read(mlx5dm_sim_of(e->dev), mlx5dm_ste_icm(s), was,
					     sizeof(was)), 0);
	assert_memory_equal(was, img, sizeof(img));
}

/* Send the IPv4 UDP frame to port: the RQ it arrived on (or RX_DROPPED) and what. */
static int
send_udp_dport(struct senv *e, uint16_t port, struct rx *got)
{
	struct frame f;
	struct pkt p;

	pkt_udp4(&p);
	p.o.dport = port;
	frame_build(&f, &p);
	return senv_send(e, &f, got);
}

static void
test_last_level_records(void **state)
{
	struct senv *e = senv_open(1);
	struct mlx5dm_action *bulk, *tags, *acts[3];
	struct mlx5dm_rule *r[LEAN_RULES];
	struct mlx5dm_action_tmpl *t;
	struct mlx5dm_rule_prep prep;
	struct mlx5dm_counters *c;
	struct mlx5dm_matcher *m;
	struct mlx5dm_shard *sh;
	uint8_t v[MP_SIZE];
	uint32_t args[3];
	uint64_t pk, by;
	struct rx got;
	unsigned int i;
	int q;

	(void)state;
	m = udp_dport_matcher(e->tbl);
	sh = &m->shards[0];
	for (i = 0; i < LEAN_RULES; i++) {
		udp_dport_value(v, (uint16_t)(1000 + i));
		r[i] = mlx5dm_rule_create(m, 0, v, 1, &e->to_q[1]);
		assert_non_null(r[i]);
	}
	assert_int_equal(sh->rule_slab[0].obj_size, 80);
	assert_int_equal(sh->rule_slab[0].live, LEAN_RULES);
	/* The shared IPv4 entry, miss anchors of grown tables. */
	if (sh->ste_slab.live > 8)
		fail_msg("%" PRIu64 " entry records for %u rules", sh->ste_slab.live, LEAN_RULES);
	/* Without a template: the list placed in full again. */
	for (i = 0; i < LEAN_RULES; i += 2)
		assert_int_equal(mlx5dm_rule_destroy(r[i], 0), 0);
	for (i = 0; i < LEAN_RULES; i++) {
		q = send_udp_dport(e, (uint16_t)(1000 + i), &got);
		if ((q == 1) != (i % 2 == 1))
			fail_msg("rule %u (%s): queue %d", i, i % 2 ? "kept" : "deleted", q);
	}
	assert_int_equal(mlx5dm_queue_drain(e->ctx, 0), 0);
	for (i = 1; i < LEAN_RULES; i += 2)
		assert_last_written(e, r[i]);
	for (i = 1; i < LEAN_RULES; i += 2)
		assert_int_equal(mlx5dm_rule_destroy(r[i], 0), 0);
	assert_int_equal(sh->rule_slab[0].live, 0);

	c = bulk_and_tags(e, 8, &bulk, &tags);
	acts[0] = bulk;
	acts[1] = tags;
	acts[2] = e->to_q[2];
	t = mlx5dm_action_tmpl_create(m, 3, acts);
	assert_non_null(t);
	for (i = 0; i < LEAN_RULES; i++) {
		udp_dport_value(v, (uint16_t)(2000 + i));
		args[0] = i;
		args[1] = 0x4000 + i;
		args[2] = 0;
		assert_int_equal(mlx5dm_rule_prepare(m, v, &prep), 0);
		/* One in four placed in full: the same bytes as the template's. */
		if (i % 4 == 3)
			r[i] = mlx5dm_rule_create_prepared_args(&prep, 0, 3, acts, args);
		else
			r[i] = mlx5dm_rule_create_tmpl(&prep, 0, t, acts, args);
		if (r[i] == NULL)
			fail_msg("rule %u refused: errno %d", i, errno);
	}
	for (i = 0; i < LEAN_RULES; i += 3)
		assert_int_equal(mlx5dm_rule_destroy(r[i], 0), 0);
	for (i = 0; i < LEAN_RULES; i++) {
		q = send_udp_dport(e, (uint16_t)(2000 + i), &got);
		if (i % 3 == 0) {
			if (q == 2)
				fail_msg("deleted rule %u still matches", i);
			continue;
		}
		if (q != 2 || got.flow_tag != 0x4000 + i)
			fail_msg("rule %u: queue %d, tag 0x%x", i, q, got.flow_tag);
	}
	assert_int_equal(mlx5dm_queue_drain(e->ctx, 0), 0);
	for (i = 0; i < LEAN_RULES; i++)
		if (i % 3 != 0)
			assert_last_written(e, r[i]);
	for (i = 0; i < LEAN_RULES; i++) {
		assert_int_equal(mlx5dm_counters_query(c, i, &pk, &by), 0);
		if (pk != (i % 3 == 0 ? 0 : 1))
			fail_msg("counter %u: %" PRIu64 " packets", i, pk);
	}
	for (i = 0; i < LEAN_RULES; i++)
		if (i % 3 != 0)
			assert_int_equal(mlx5dm_rule_destroy(r[i], 0), 0);
	mlx5dm_action_tmpl_destroy(t);
	DESTROY_ACTIONS(bulk, tags);
	assert_int_equal(mlx5dm_counters_free(c), 0);
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	senv_close(e);
}

/*
 * One modify-set action (the IPv4 source address) for every value: each
 * rule gives its address as the action's argument, alone and with a
 * counter (the first rule of a list placed, the others copied from the
 * matcher's memo with their own data written in). Each frame leaves with
 * its own rule's address; missing data is refused on both paths; an entry
 * without data (a copy) is ENOTSUP.
 */
static void
test_modify_set_action(void **state)
{
	enum { N = 24 };
	struct senv *e = senv_open(1);
	struct mlx5dm_action *set, *cnt, *acts[3];
	uint8_t v[MP_SIZE], prm[8];
	uint32_t sv[N], args[3] = { 0 };
	struct mlx5dm_rule *r[N];
	struct mlx5dm_counters *c;
	struct mlx5dm_matcher *m;
	struct frame f, want;
	unsigned int i, k;
	struct rx got;
	struct pkt p;

	(void)state;
	mod_copy(prm, FLD_DIPV4, 0, FLD_SIPV4, 0, 0);
	assert_null(mlx5dm_action_modify_set(e->rx, prm));
	assert_int_equal(errno, ENOTSUP);
	c = mlx5dm_counters_alloc(e->ctx, 0);
	assert_non_null(c);
	cnt = mlx5dm_action_counter(e->rx, c, 0);
	assert_non_null(cnt);
	mod_set(prm, FLD_SIPV4, 0, 0, 0x01020304); /* the data is the rules' */
	set = mlx5dm_action_modify_set(e->rx, prm);
	assert_non_null(set);
	m = udp_dport_matcher(e->tbl);
	for (i = 0; i < N; i++) {
		sv[i] = i == 0 ? 0 : i == 1 ? 0xffffffff : 0xc0a80000u + i * 0x10101u;
		udp_dport_value(v, (uint16_t)(6000 + i));
		if (i % 2 == 0) {
			acts[0] = set;
			acts[1] = e->to_q[3];
			args[0] = sv[i];
		} else {
			acts[0] = cnt;
			acts[1] = set;
			acts[2] = e->to_q[3];
			args[1] = sv[i];
		}
		r[i] = rule_args(m, v, i % 2 == 0 ? 2 : 3, acts, args);
		if (r[i] == NULL)
			fail_msg("rule %u refused: errno %d", i, errno);
	}
	/* Refused on the memo path (the list is known) and on a first placement. */
	for (k = 0; k < 2; k++) {
		udp_dport_value(v, 7000);
		acts[0] = set;
		acts[1] = e->to_q[k == 0 ? 3 : 2];
		assert_null(rule_args(m, v, 2, acts, NULL));
		assert_int_equal(errno, EINVAL);
	}
	for (i = 0; i < N; i++) {
		pkt_udp4(&p);
		p.o.dport = (uint16_t)(6000 + i);
		frame_build(&f, &p);
		p.o.sip = sv[i];
		frame_build(&want, &p);
		assert_int_equal(senv_send(e, &f, &got), 3);
		rx_assert_bytes(&got, &want);
	}
	/* What dumps read back: each rule's own data. */
	for (i = 2; i < N; i += 5) {
		uint32_t data = 0;

		assert_int_equal(mlx5dm_rule_modify_data(r[i], set, &data), 0);
		assert_int_equal(data, sv[i]);
	}
	assert_int_equal(mlx5dm_rule_modify_data(r[2], cnt, &sv[0]), -EINVAL);
	for (i = 0; i < N; i++)
		assert_int_equal(mlx5dm_rule_destroy(r[i], 0), 0);
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	DESTROY_ACTIONS(set, cnt);
	assert_int_equal(mlx5dm_counters_free(c), 0);
	senv_close(e);
}

/* ---- RSS ---- */

/* Toeplitz hash, one input bit at a time (RSS specification). */
static uint32_t
ref_toeplitz(const uint8_t key[40], const uint8_t *in, unsigned int len)
{
	uint32_t r = 0;
	unsigned int bit, j;

	for (bit = 0; bit < len * 8; bit++) {
		uint32_t w = 0;

		if (!(in[bit / 8] & (0x80u >> (bit % 8))))
			continue;
		for (j = 0; j < 32; j++) {
			unsigned int k = bit + j;

			w = w << 1 | ((key[k / 8] >> (7 - k % 8)) & 1u);
		}
		r ^= w;
	}
	return r;
}

/* One RSS configuration and the hash input the RSS specification gives for a frame. */
struct rss_case {
	const char *name;
	struct mlx5dm_rss_attr attr;
	void (*pkt)(struct pkt *p, unsigned int i);
	/* Toeplitz input for frame f built from p; returns its length. */
	unsigned int (*input)(const struct pkt *p, uint8_t *in);
};

static void
rss_pkt_udp4(struct pkt *p, unsigned int i)
{
	pkt_udp4(p);
	p->o.sip = 0x0a000000 + i * 7919;
	p->o.sport = (uint16_t)(1024 + i * 131);
}

static void
be32(uint8_t *b, uint32_t v)
{
	b[0] = (uint8_t)(v >> 24);
	b[1] = (uint8_t)(v >> 16);
	b[2] = (uint8_t)(v >> 8);
	b[3] = (uint8_t)v;
}

static unsigned int
rss_in_4tuple(const struct pkt *p, uint8_t *in)
{
	be32(in, p->o.sip);
	be32(in + 4, p->o.dip);
	be32(in + 8, (uint32_t)p->o.sport << 16 | p->o.dport);
	return 12;
}

static void
rss_pkt_tcp6(struct pkt *p, unsigned int i)
{
	pkt_udp6(p);
	pkt_tcp(&p->o);
	ipv6_addr(p->o.dip6, 0x20010db8, i * 0x10001, 0, i);
	p->o.dport = (uint16_t)(80 + i * 3);
}

/* Destination address and port only. */
static unsigned int
rss_in_dst6(const struct pkt *p, uint8_t *in)
{
	memcpy(in, p->o.dip6, 16);
	in[16] = (uint8_t)(p->o.dport >> 8);
	in[17] = (uint8_t)p->o.dport;
	return 18;
}

static void
rss_pkt_vxlan(struct pkt *p, unsigned int i)
{
	pkt_udp4(p);
	pkt_vxlan(p, 9);
	/* Same outer flow for all: only the inner headers can spread them. */
	p->in.sip = 0xc0a80000 + i * 977;
	p->in.sport = (uint16_t)(2000 + i * 17);
}

static unsigned int
rss_in_inner(const struct pkt *p, uint8_t *in)
{
	be32(in, p->in.sip);
	be32(in + 4, p->in.dip);
	be32(in + 8, (uint32_t)p->in.sport << 16 | p->in.dport);
	return 12;
}

static const struct rss_case rss_cases[] = {
	{ "ipv4/udp 4-tuple", { .udp = true, .fields = MLX5DM_RSS_SRC_IP | MLX5DM_RSS_DST_IP |
				MLX5DM_RSS_L4_SPORT | MLX5DM_RSS_L4_DPORT },
	  rss_pkt_udp4, rss_in_4tuple },
	{ "ipv6/tcp destination", { .ipv6 = true, .fields = MLX5DM_RSS_DST_IP |
				     MLX5DM_RSS_L4_DPORT },
	  rss_pkt_tcp6, rss_in_dst6 },
	{ "vxlan inner ipv4/udp", { .udp = true, .inner = true, .fields = MLX5DM_RSS_SRC_IP |
				    MLX5DM_RSS_DST_IP | MLX5DM_RSS_L4_SPORT |
				    MLX5DM_RSS_L4_DPORT },
	  rss_pkt_vxlan, rss_in_inner },
};

static void
rss_run(struct senv *e, const struct rss_case *c)
{
	struct mlx5dm_rss_attr rss = c->attr;
	struct mlx5dm_action *to_rss, *acts[2];
	unsigned int i, seen[SENV_NB_RQ] = { 0 };
	struct mlx5dm_tir *tir;
	struct catch_all ca;

	for (i = 0; i < 40; i++)
		rss.key[i] = (uint8_t)(0x6d + i * 0x5a);
	tir = mlx5dm_tir_create(e->ctx, e->rqn, SENV_NB_RQ, &rss);
	assert_non_null(tir);
	to_rss = mlx5dm_action_dest_tir(e->rx, tir);
	assert_non_null(to_rss);
	acts[0] = mlx5dm_action_flow_tag(e->rx, 0xabc);
	assert_non_null(acts[0]);
	acts[1] = to_rss;
	catch_all_add(&ca, e->tbl, 2, acts);
	for (i = 0; i < 64; i++) {
		uint8_t in[40];
		struct frame f;
		struct rx got;
		unsigned int n;
		uint32_t h;
		struct pkt p;
		int q;

		c->pkt(&p, i);
		frame_build(&f, &p);
		n = c->input(&p, in);
		h = ref_toeplitz(rss.key, in, n);
		q = senv_send(e, &f, &got);
		assert_true(got.flags & MLX5DM_SIM_PKT_F_RSS_HASH);
		if (got.rss_hash != h)
			fail_msg("%s: frame %u hash 0x%08x, expected 0x%08x", c->name, i,
				 got.rss_hash, h);
		/* Four RQs: the table index is the hash's two low bits. */
		assert_int_equal(q, (int)(h & 3));
		assert_int_equal(got.flow_tag, 0xabc);
		rx_assert_bytes(&got, &f);
		/* The same flow again lands on the same queue. */
		assert_int_equal(senv_send(e, &f, NULL), q);
		seen[q]++;
	}
	for (i = 0; i < SENV_NB_RQ; i++)
		assert_true(seen[i] > 0);
	catch_all_del(&ca);
	DESTROY_ACTIONS(acts[0], to_rss);
	assert_int_equal(mlx5dm_tir_destroy(tir), 0);
}

static void
test_rss(void **state)
{
	struct senv *e = senv_open(1);
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(rss_cases) / sizeof(rss_cases[0]); i++) {
		fprintf(stderr, "rss: %s\n", rss_cases[i].name);
		rss_run(e, &rss_cases[i]);
	}
	senv_close(e);
}

/* Symmetric RSS: both directions of a flow land on the same queue. */
static void
test_rss_symmetric(void **state)
{
	struct mlx5dm_rss_attr rss = {
		.udp = true, .symmetric = true,
		.fields = MLX5DM_RSS_SRC_IP | MLX5DM_RSS_DST_IP | MLX5DM_RSS_L4_SPORT |
			  MLX5DM_RSS_L4_DPORT,
	};
	struct senv *e = senv_open(1);
	struct mlx5dm_action *to_rss;
	struct mlx5dm_tir *tir;
	struct catch_all ca;
	unsigned int i, seen[SENV_NB_RQ] = { 0 };

	(void)state;
	for (i = 0; i < 40; i++)
		rss.key[i] = (uint8_t)(i * 37 + 1);
	tir = mlx5dm_tir_create(e->ctx, e->rqn, SENV_NB_RQ, &rss);
	assert_non_null(tir);
	to_rss = mlx5dm_action_dest_tir(e->rx, tir);
	assert_non_null(to_rss);
	catch_all_add(&ca, e->tbl, 1, &to_rss);
	for (i = 0; i < 64; i++) {
		struct rx a, b;
		struct frame f;
		struct pkt p;
		uint32_t t32;
		uint16_t t16;
		int q;

		rss_pkt_udp4(&p, i);
		frame_build(&f, &p);
		q = senv_send(e, &f, &a);
		t32 = p.o.sip;
		p.o.sip = p.o.dip;
		p.o.dip = t32;
		t16 = p.o.sport;
		p.o.sport = p.o.dport;
		p.o.dport = t16;
		frame_build(&f, &p);
		assert_int_equal(senv_send(e, &f, &b), q);
		assert_int_equal(a.rss_hash, b.rss_hash);
		seen[q]++;
	}
	for (i = 0; i < SENV_NB_RQ; i++)
		assert_true(seen[i] > 0);
	catch_all_del(&ca);
	assert_int_equal(mlx5dm_action_destroy(to_rss), 0);
	assert_int_equal(mlx5dm_tir_destroy(tir), 0);
	senv_close(e);
}

/* ---- modify header ---- */

struct mod_case {
	const char *name;
	void (*in)(struct pkt *p);                         /* input, from pkt_udp4 */
	unsigned int (*acts)(uint8_t *a);                  /* modify list; returns its length */
	void (*out)(struct pkt *p);                        /* input spec -> expected spec */
};

static void
in_udp4(struct pkt *p)
{
	(void)p;
}

static void
in_tcp4(struct pkt *p)
{
	pkt_tcp(&p->o);
}

static void
in_udp6(struct pkt *p)
{
	pkt_udp6(p);
}

static void
in_tcp6(struct pkt *p)
{
	pkt_udp6(p);
	pkt_tcp(&p->o);
}

static void
in_vlan_tcp4(struct pkt *p)
{
	in_tcp4(p);
	p->o.nb_vlan = 1;
	p->o.vlan_tci[0] = 0x6005;
}

static unsigned int
a_macs(uint8_t *a)
{
	mod_set(a, FLD_DMAC_47_16, 0, 0, 0x0a0b0c0d);
	mod_set(a + 8, FLD_DMAC_15_0, 0, 16, 0x0e0f);
	mod_set(a + 16, FLD_SMAC_47_16, 0, 0, 0x12345678);
	mod_set(a + 24, FLD_SMAC_15_0, 0, 16, 0x9abc);
	return 4;
}

static void
o_macs(struct pkt *p)
{
	p->o.dmac = 0x0a0b0c0d0e0full;
	p->o.smac = 0x123456789abcull;
}

static unsigned int
a_ip4_addrs(uint8_t *a)
{
	mod_set(a, FLD_SIPV4, 0, 0, 0xc0a80a01);
	mod_set(a + 8, FLD_DIPV4, 0, 0, 0x08080404);
	return 2;
}

static void
o_ip4_addrs(struct pkt *p)
{
	p->o.sip = 0xc0a80a01;
	p->o.dip = 0x08080404;
}

static unsigned int
a_set_ttl(uint8_t *a)
{
	mod_set(a, FLD_IP_TTL, 0, 8, 7);
	return 1;
}

static void
o_set_ttl(struct pkt *p)
{
	p->o.ttl = 7;
}

static unsigned int
a_dec_ttl(uint8_t *a)
{
	mod_add(a, FLD_IP_TTL, 0xff);
	return 1;
}

static unsigned int
a_dec_hop(uint8_t *a)
{
	mod_add(a, FLD_IPV6_HOPLIMIT, 0xff);
	return 1;
}

static void
o_dec_ttl(struct pkt *p)
{
	p->o.ttl--;
}

static unsigned int
a_udp_ports(uint8_t *a)
{
	mod_set(a, FLD_UDP_SPORT, 0, 16, 0xbeef);
	mod_set(a + 8, FLD_UDP_DPORT, 0, 16, 53);
	return 2;
}

static unsigned int
a_tcp_ports(uint8_t *a)
{
	mod_set(a, FLD_TCP_SPORT, 0, 16, 0xbeef);
	mod_set(a + 8, FLD_TCP_DPORT, 0, 16, 53);
	return 2;
}

static void
o_ports(struct pkt *p)
{
	p->o.sport = 0xbeef;
	p->o.dport = 53;
}

static unsigned int
a_ip6_addrs(uint8_t *a)
{
	static const uint32_t s[4] = { 0xfd00aaaa, 0x11112222, 0x33334444, 0x55556666 };
	static const uint32_t d[4] = { 0xfd00bbbb, 0x77778888, 0x9999aaaa, 0xbbbbcccc };
	unsigned int i;

	for (i = 0; i < 4; i++) {
		mod_set(a + 8 * i, (uint16_t)(FLD_SIPV6_127_96 + i), 0, 0, s[i]);
		mod_set(a + 32 + 8 * i, (uint16_t)(FLD_DIPV6_127_96 + i), 0, 0, d[i]);
	}
	return 8;
}

static void
o_ip6_addrs(struct pkt *p)
{
	ipv6_addr(p->o.sip6, 0xfd00aaaa, 0x11112222, 0x33334444, 0x55556666);
	ipv6_addr(p->o.dip6, 0xfd00bbbb, 0x77778888, 0x9999aaaa, 0xbbbbcccc);
}

/* A long list (two 64-byte lines): both addresses, both ports, hop limit. */
static unsigned int
a_ip6_all(uint8_t *a)
{
	unsigned int n = a_ip6_addrs(a);

	n += a_tcp_ports(a + 8 * n);
	n += a_dec_hop(a + 8 * n);
	return n;
}

static void
o_ip6_all(struct pkt *p)
{
	o_ip6_addrs(p);
	o_ports(p);
	o_dec_ttl(p);
}

static unsigned int
a_dscp_ecn(uint8_t *a)
{
	mod_set(a, FLD_IP_DSCP, 0, 6, 46);
	mod_set(a + 8, FLD_IP_ECN, 0, 2, 3);
	return 2;
}

static void
o_dscp_ecn(struct pkt *p)
{
	p->o.tos = 46 << 2 | 3;
}

static unsigned int
a_seq_ack(uint8_t *a)
{
	mod_add(a, FLD_TCP_SEQ, 1000);
	mod_add(a + 8, FLD_TCP_ACK, 0xffffffff);
	return 2;
}

static void
o_seq_ack(struct pkt *p)
{
	p->o.seq += 1000;
	p->o.ack -= 1;
}

static unsigned int
a_tcp_flags(uint8_t *a)
{
	mod_set(a, FLD_TCP_FLAGS, 0, 9, 0x104);
	return 1;
}

static void
o_tcp_flags(struct pkt *p)
{
	p->o.tcp_flags = 0x104;
}

static unsigned int
a_copy_dip_sip(uint8_t *a)
{
	mod_copy(a, FLD_DIPV4, 0, FLD_SIPV4, 0, 0);
	return 1;
}

static void
o_copy_dip_sip(struct pkt *p)
{
	p->o.sip = p->o.dip;
}

static unsigned int
a_copy_ports(uint8_t *a)
{
	/* Low byte of the destination port into the high byte of the source port. */
	mod_copy(a, FLD_UDP_DPORT, 0, FLD_UDP_SPORT, 8, 8);
	return 1;
}

static void
o_copy_ports(struct pkt *p)
{
	p->o.sport = (uint16_t)((p->o.dport & 0xff) << 8 | (p->o.sport & 0xff));
}

static unsigned int
a_vid(uint8_t *a)
{
	mod_set(a, FLD_FIRST_VID, 0, 12, 0xabc);
	return 1;
}

static void
o_vid(struct pkt *p)
{
	p->o.vlan_tci[0] = (uint16_t)((p->o.vlan_tci[0] & 0xf000) | 0xabc);
}

/* Several fields of different headers in one list. */
static unsigned int
a_mixed(uint8_t *a)
{
	unsigned int n = a_macs(a);

	n += a_dec_ttl(a + 8 * n);
	n += a_ip4_addrs(a + 8 * n);
	n += a_tcp_ports(a + 8 * n);
	n += a_seq_ack(a + 8 * n);
	return n;
}

static void
o_mixed(struct pkt *p)
{
	o_macs(p);
	o_dec_ttl(p);
	o_ip4_addrs(p);
	o_ports(p);
	o_seq_ack(p);
}

static const struct mod_case mod_cases[] = {
	{ "set macs", in_udp4, a_macs, o_macs },
	{ "set ipv4 addresses (udp)", in_udp4, a_ip4_addrs, o_ip4_addrs },
	{ "set ipv4 addresses (tcp)", in_tcp4, a_ip4_addrs, o_ip4_addrs },
	{ "set ttl", in_udp4, a_set_ttl, o_set_ttl },
	{ "dec ttl", in_tcp4, a_dec_ttl, o_dec_ttl },
	{ "dec hop limit", in_udp6, a_dec_hop, o_dec_ttl },
	{ "set udp ports", in_udp4, a_udp_ports, o_ports },
	{ "set tcp ports", in_tcp4, a_tcp_ports, o_ports },
	{ "set ipv6 addresses", in_udp6, a_ip6_addrs, o_ip6_addrs },
	{ "ipv6 long list", in_tcp6, a_ip6_all, o_ip6_all },
	{ "dscp/ecn ipv4", in_udp4, a_dscp_ecn, o_dscp_ecn },
	{ "dscp/ecn ipv6", in_udp6, a_dscp_ecn, o_dscp_ecn },
	{ "tcp seq/ack add", in_tcp4, a_seq_ack, o_seq_ack },
	{ "tcp flags", in_tcp4, a_tcp_flags, o_tcp_flags },
	{ "copy dip -> sip", in_tcp4, a_copy_dip_sip, o_copy_dip_sip },
	{ "copy port bits", in_udp4, a_copy_ports, o_copy_ports },
	{ "set vlan id", in_vlan_tcp4, a_vid, o_vid },
	{ "mixed list", in_vlan_tcp4, a_mixed, o_mixed },
};

static void
test_modify_header(void **state)
{
	struct senv *e = senv_open(1);
	struct mlx5dm_ctx_stats st0, st1;
	unsigned int i;

	(void)state;
	st0 = senv_stats(e);
	for (i = 0; i < sizeof(mod_cases) / sizeof(mod_cases[0]); i++) {
		const struct mod_case *c = &mod_cases[i];
		struct mlx5dm_action *acts[2];
		uint8_t list[32 * MOD_SIZE];
		struct frame in, want;
		struct pkt p;
		unsigned int n;

		fprintf(stderr, "modify: %s\n", c->name);
		pkt_udp4(&p);
		c->in(&p);
		frame_build(&in, &p);
		c->out(&p);
		frame_build(&want, &p);
		n = c->acts(list);
		acts[0] = mlx5dm_action_modify_header(e->rx, n, list);
		if (acts[0] == NULL)
			fail_msg("%s: modify header refused (errno %d)", c->name, errno);
		acts[1] = e->to_q[i % SENV_NB_RQ];
		expect_rx(e, 2, acts, &in, (int)(i % SENV_NB_RQ), &want);
		assert_int_equal(mlx5dm_action_destroy(acts[0]), 0);
	}
	senv_sync(e);
	st1 = senv_stats(e);
	assert_icm_equal(&st0, &st1);
	senv_close(e);
}

/*
 * Lists of every length 1..64 (one to eight 64-byte lines, inline for one
 * action), alternating source and destination address: the last write of
 * each wins. 65 actions are too many.
 */
static void
test_modify_list_lengths(void **state)
{
	struct senv *e = senv_open(1);
	uint8_t list[65 * MOD_SIZE];
	struct frame in, want;
	unsigned int n, i;
	struct pkt p;

	(void)state;
	pkt_udp4(&p);
	pkt_tcp(&p.o);
	frame_build(&in, &p);
	for (n = 1; n <= 64; n++) {
		struct mlx5dm_action *acts[2];

		for (i = 0; i < n; i++)
			mod_set(list + i * MOD_SIZE, i % 2 ? FLD_DIPV4 : FLD_SIPV4, 0, 0,
				0xc6120000 + i * 0x10001);
		pkt_udp4(&p);
		pkt_tcp(&p.o);
		p.o.sip = 0xc6120000 + ((n - 1) & ~1u) * 0x10001;
		if (n > 1)
			p.o.dip = 0xc6120000 + ((n - 2) | 1u) * 0x10001;
		frame_build(&want, &p);
		acts[0] = mlx5dm_action_modify_header(e->rx, n, list);
		if (acts[0] == NULL)
			fail_msg("list of %u refused", n);
		acts[1] = e->to_q[n % SENV_NB_RQ];
		expect_rx(e, 2, acts, &in, (int)(n % SENV_NB_RQ), &want);
		assert_int_equal(mlx5dm_action_destroy(acts[0]), 0);
	}
	mod_set(list + 64 * MOD_SIZE, FLD_SIPV4, 0, 0, 1);
	assert_null(mlx5dm_action_modify_header(e->rx, 65, list));
	assert_int_equal(errno, EINVAL);
	senv_close(e);
}

/* Modify lists the library refuses, with the cause in the log. */
static void
test_modify_refused(void **state)
{
	static const struct {
		const char *msg;
	} want[] = {
		{ "steer: modify header rejected: ADD on field 0x1 (only TTL, hop limit, TCP "
		  "seq/ack) (action 0)" },
		{ "steer: modify header rejected: IPv4 and IPv6 fields in one list (action 1)" },
		{ "steer: modify header rejected: REG_A can only be modified on NIC_TX "
		  "(action 0)" },
		{ "steer: modify header rejected: field 0x5: offset 8 + length 16 exceeds 16 bits "
		  "(action 0)" },
		{ "steer: modify header rejected: unsupported modify field 0x6e (action 0)" },
		{ "steer: modify header rejected: unknown modify action type 4 (action 0)" },
		{ "steer: modify header rejected: TCP and UDP fields in one list (action 1)" },
	};
	struct senv *e = senv_open(1);
	uint8_t a[2 * MOD_SIZE];
	unsigned int i;

	(void)state;
	test_log_start();
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		unsigned int n = 1;

		memset(a, 0, sizeof(a));
		switch (i) {
		case 0:
			mod_add(a, FLD_SMAC_47_16, 1);
			break;
		case 1:
			mod_set(a, FLD_SIPV4, 0, 0, 1);
			mod_set(a + 8, FLD_SIPV6_127_96, 0, 0, 1);
			n = 2;
			break;
		case 2:
			mod_set(a, FLD_REG_A, 0, 0, 1);
			break;
		case 3:
			mod_set(a, FLD_DMAC_15_0, 8, 16, 1);
			break;
		case 4:
			mod_set(a, FLD_GTPU_TEID, 0, 0, 1);
			break;
		case 5:
			mod_set(a, FLD_IP_TTL, 0, 8, 1);
			a[0] = (uint8_t)((a[0] & 0x0f) | 0x40);
			break;
		default:
			mod_set(a, FLD_TCP_SPORT, 0, 16, 1);
			mod_set(a + 8, FLD_UDP_DPORT, 0, 16, 1);
			n = 2;
			break;
		}
		errno = 0;
		assert_null(mlx5dm_action_modify_header(e->rx, n, a));
		assert_true(errno == EINVAL || errno == EOPNOTSUPP);
		if (strcmp(test_log_last(), want[i].msg) != 0)
			fail_msg("case %u logged '%s'", i, test_log_last());
	}
	test_log_stop();
	senv_close(e);
}

/* ---- VLAN push/pop ---- */

static void
test_vlan_push_pop(void **state)
{
	struct senv *e = senv_open(1);
	struct mlx5dm_action *push[2], *pop, *acts[4];
	struct frame in, want;
	struct tx_path t;
	struct pkt p;

	(void)state;
	push[0] = mlx5dm_action_push_vlan(e->rx, 0x8100u << 16 | 0x2064);
	push[1] = mlx5dm_action_push_vlan(e->rx, 0x88a8u << 16 | 0x000a);
	pop = mlx5dm_action_pop_vlan(e->rx);
	assert_non_null(push[0]);
	assert_non_null(push[1]);
	assert_non_null(pop);
	assert_null(mlx5dm_action_push_vlan(e->rx, 0x9100u << 16 | 1));
	assert_int_equal(errno, EINVAL);

	/* RX push: the tag goes right after the MACs. */
	pkt_udp4(&p);
	pkt_tcp(&p.o);
	frame_build(&in, &p);
	p.o.nb_vlan = 1;
	p.o.vlan_tpid[0] = 0x8100;
	p.o.vlan_tci[0] = 0x2064;
	frame_build(&want, &p);
	acts[0] = push[0];
	acts[1] = e->to_q[1];
	expect_rx(e, 2, acts, &in, 1, &want);

	/* Two pushes: the second tag becomes the outer one (QinQ). */
	p.o.nb_vlan = 2;
	p.o.vlan_tpid[0] = 0x88a8;
	p.o.vlan_tci[0] = 0x000a;
	p.o.vlan_tpid[1] = 0x8100;
	p.o.vlan_tci[1] = 0x2064;
	frame_build(&want, &p);
	acts[0] = push[0];
	acts[1] = push[1];
	acts[2] = e->to_q[2];
	expect_rx(e, 3, acts, &in, 2, &want);

	/* A push onto a tagged frame: the new tag goes in front of the old one. */
	p.o.nb_vlan = 1;
	p.o.vlan_tpid[0] = 0x8100;
	p.o.vlan_tci[0] = 0x0777;
	frame_build(&in, &p);
	p.o.nb_vlan = 2;
	p.o.vlan_tpid[0] = 0x8100;
	p.o.vlan_tci[0] = 0x2064;
	p.o.vlan_tpid[1] = 0x8100;
	p.o.vlan_tci[1] = 0x0777;
	frame_build(&want, &p);
	acts[0] = push[0];
	acts[1] = e->to_q[1];
	expect_rx(e, 2, acts, &in, 1, &want);

	/* Pop one, then two tags. */
	acts[0] = pop;
	acts[1] = e->to_q[3];
	p.o.nb_vlan = 1;
	p.o.vlan_tci[0] = 0x0fff;
	frame_build(&in, &p);
	p.o.nb_vlan = 0;
	frame_build(&want, &p);
	expect_rx(e, 2, acts, &in, 3, &want);
	p.o.nb_vlan = 2;
	p.o.vlan_tpid[0] = 0x88a8;
	p.o.vlan_tci[0] = 0x0005;
	p.o.vlan_tpid[1] = 0x8100;
	p.o.vlan_tci[1] = 0x0006;
	frame_build(&in, &p);
	acts[1] = pop;
	acts[2] = e->to_q[0];
	expect_rx(e, 3, acts, &in, 0, &want);
	/* Pop on an untagged frame: nothing to remove. */
	p.o.nb_vlan = 0;
	frame_build(&in, &p);
	acts[1] = e->to_q[0];
	expect_rx(e, 2, acts, &in, 0, &in);

	/* TX push: the tagged frame crosses the wire. */
	tx_path_open(e, &t);
	{
		struct mlx5dm_action *txpush = mlx5dm_action_push_vlan(e->tx,
								       0x8100u << 16 | 0xe123);
		struct mlx5dm_action *txpop = mlx5dm_action_pop_vlan(e->tx);
		struct catch_all tc;
		struct rx got;

		assert_non_null(txpush);
		assert_non_null(txpop);
		pkt_udp4(&p);
		frame_build(&in, &p);
		p.o.nb_vlan = 1;
		p.o.vlan_tci[0] = 0xe123;
		frame_build(&want, &p);
		catch_all_add(&tc, t.ttbl, 1, &txpush);
		assert_int_equal(senv_send(e, &in, &got), 0);
		rx_assert_bytes(&got, &want);
		catch_all_del(&tc);
		/* TX pop. */
		catch_all_add(&tc, t.ttbl, 1, &txpop);
		assert_int_equal(senv_send(e, &want, &got), 0);
		rx_assert_bytes(&got, &in);
		catch_all_del(&tc);
		assert_int_equal(mlx5dm_action_destroy(txpush), 0);
		assert_int_equal(mlx5dm_action_destroy(txpop), 0);
	}
	tx_path_close(e, &t);
	DESTROY_ACTIONS(push[0], push[1], pop);
	senv_close(e);
}

/* ---- decap ---- */

static void
test_decap_l2(void **state)
{
	struct senv *e = senv_open(1);
	struct mlx5dm_action *decap, *acts[2];
	struct frame in, want;
	struct pkt p, inner;

	(void)state;
	decap = mlx5dm_action_reformat(e->rx, MLX5DM_REFORMAT_L2_TUNNEL_TO_L2, 0, NULL);
	assert_non_null(decap);
	pkt_udp4(&p);
	pkt_vxlan(&p, 0x123456);
	pkt_tcp(&p.in);
	p.payload = 100;
	frame_build(&in, &p);
	/* What remains is the inner Ethernet frame, byte for byte. */
	memset(&inner, 0, sizeof(inner));
	inner.o = p.in;
	inner.payload = p.payload;
	frame_build(&want, &inner);
	acts[0] = decap;
	acts[1] = e->to_q[2];
	expect_rx(e, 2, acts, &in, 2, &want);
	/* Inner IPv6 with a VLAN. */
	p.in.l3 = 6;
	ipv6_addr(p.in.sip6, 0xfe800000, 0, 0, 0x11);
	ipv6_addr(p.in.dip6, 0xfe800000, 0, 0, 0x22);
	p.in.nb_vlan = 1;
	p.in.vlan_tci[0] = 42;
	frame_build(&in, &p);
	inner.o = p.in;
	frame_build(&want, &inner);
	expect_rx(e, 2, acts, &in, 2, &want);
	/* Refused: data for an L2 decap, decap on TX. */
	assert_null(mlx5dm_action_reformat(e->rx, MLX5DM_REFORMAT_L2_TUNNEL_TO_L2, 4, "abcd"));
	assert_int_equal(errno, EINVAL);
	assert_null(mlx5dm_action_reformat(e->tx, MLX5DM_REFORMAT_L2_TUNNEL_TO_L2, 0, NULL));
	assert_int_equal(errno, EOPNOTSUPP);
	assert_int_equal(mlx5dm_action_destroy(decap), 0);
	senv_close(e);
}

static void
test_decap_l3(void **state)
{
	struct senv *e = senv_open(1);
	struct mlx5dm_action *decap[2], *acts[2];
	uint8_t l2[18];
	struct frame in, want;
	struct pkt p, inner;

	(void)state;
	/* New L2: 02:aa:..:01 <- 02:aa:..:02, IPv4; then the same with a C-tag. */
	memcpy(l2, (const uint8_t[]){ 0x02, 0xaa, 0, 0, 0, 0x01, 0x02, 0xaa, 0, 0, 0, 0x02,
				       0x08, 0x00 }, 14);
	decap[0] = mlx5dm_action_reformat(e->rx, MLX5DM_REFORMAT_L3_TUNNEL_TO_L2, 14, l2);
	assert_non_null(decap[0]);
	memcpy(l2 + 12, (const uint8_t[]){ 0x81, 0x00, 0x00, 0x99, 0x08, 0x00 }, 6);
	decap[1] = mlx5dm_action_reformat(e->rx, MLX5DM_REFORMAT_L3_TUNNEL_TO_L2, 18, l2);
	assert_non_null(decap[1]);

	/* IPv4 over GRE with a key. */
	pkt_udp4(&p);
	p.tnl = TNL_GRE;
	p.gre_key_present = true;
	p.gre_key = 0x55aa55aa;
	p.in = p.o;
	p.in.no_l2 = true;
	p.in.sip = 0xac100001;
	p.in.dip = 0xac100002;
	pkt_tcp(&p.in);
	p.payload = 33;
	frame_build(&in, &p);
	memset(&inner, 0, sizeof(inner));
	inner.o = p.in;
	inner.o.no_l2 = false;
	inner.o.dmac = 0x02aa00000001ull;
	inner.o.smac = 0x02aa00000002ull;
	inner.payload = p.payload;
	frame_build(&want, &inner);
	acts[0] = decap[0];
	acts[1] = e->to_q[1];
	expect_rx(e, 2, acts, &in, 1, &want);
	inner.o.nb_vlan = 1;
	inner.o.vlan_tci[0] = 0x99;
	frame_build(&want, &inner);
	acts[0] = decap[1];
	expect_rx(e, 2, acts, &in, 1, &want);

	/* Refused: an L2 header of another size, no data, on TX. */
	test_log_start();
	assert_null(mlx5dm_action_reformat(e->rx, MLX5DM_REFORMAT_L3_TUNNEL_TO_L2, 16, l2));
	assert_int_equal(errno, EINVAL);
	assert_string_equal(test_log_last(), "steer: L3 decap needs a 14 or 18-byte L2 header, "
			    "got 16");
	test_log_stop();
	assert_null(mlx5dm_action_reformat(e->rx, MLX5DM_REFORMAT_L3_TUNNEL_TO_L2, 0, NULL));
	assert_int_equal(errno, EINVAL);
	assert_null(mlx5dm_action_reformat(e->tx, MLX5DM_REFORMAT_L3_TUNNEL_TO_L2, 14, l2));
	assert_int_equal(errno, EOPNOTSUPP);
	assert_int_equal(mlx5dm_action_destroy(decap[0]), 0);
	assert_int_equal(mlx5dm_action_destroy(decap[1]), 0);
	senv_close(e);
}

/* ---- encap on NIC TX ---- */

/* The outer headers of the tunnels (lengths and checksums left to the device). */
static void
outer_hdrs(struct hdrs *o)
{
	memset(o, 0, sizeof(*o));
	o->dmac = 0x0c0000000001ull;
	o->smac = 0x0c0000000002ull;
	o->l3 = 4;
	o->sip = 0x64400001;
	o->dip = 0x64400002;
	o->ttl = 255;
	o->ip_id = 0;
	o->udp_csum_zero = true;
}

/* Zero the IPv4 total length/checksum and UDP length of an encap header. */
static void
clear_lengths(uint8_t *h, unsigned int l3, bool udp)
{
	memset(h + l3 + 2, 0, 2);
	memset(h + l3 + 10, 0, 2);
	if (udp)
		memset(h + l3 + 20 + 4, 0, 2);
}

static void
test_encap(void **state)
{
	struct senv *e = senv_open(1);
	struct mlx5dm_action *encap[2], *acts[2];
	struct mlx5dm_ctx_stats st0, st1;
	struct pkt p, tun;
	uint8_t hdr[128], vx[8] = { 0x08, 0, 0, 0, 0x00, 0x12, 0x34, 0 };
	struct frame in, want;
	struct tx_path t;
	uint16_t n;

	(void)state;
	st0 = senv_stats(e);
	/* L2 -> L2 tunnel: Eth/IPv4/UDP(4789)/VXLAN(VNI 0x1234) in front of the frame. */
	outer_hdrs(&tun.o);
	tun.o.proto = 17;
	tun.o.sport = 12345;
	tun.o.dport = 4789;
	n = stack_build(hdr, &tun.o, vx, sizeof(vx));
	assert_int_equal(n, 50);
	clear_lengths(hdr, 14, true);
	encap[0] = mlx5dm_action_reformat(e->tx, MLX5DM_REFORMAT_L2_TO_L2_TUNNEL, n, hdr);
	assert_non_null(encap[0]);
	/* L2 -> L3 tunnel: Eth/IPv4/GRE(IPv4) replaces the frame's Ethernet header. */
	outer_hdrs(&tun.o);
	tun.o.proto = 47;
	n = stack_build(hdr, &tun.o, (const uint8_t[]){ 0, 0, 0x08, 0x00 }, 4);
	assert_int_equal(n, 38);
	clear_lengths(hdr, 14, false);
	encap[1] = mlx5dm_action_reformat(e->tx, MLX5DM_REFORMAT_L2_TO_L3_TUNNEL, n, hdr);
	assert_non_null(encap[1]);

	tx_path_open(e, &t);
	pkt_udp4(&p);
	pkt_tcp(&p.o);
	p.payload = 64;
	frame_build(&in, &p);
	memset(&tun, 0, sizeof(tun));
	outer_hdrs(&tun.o);
	tun.o.sport = 12345;
	tun.tnl = TNL_VXLAN;
	tun.vni = 0x1234;
	tun.in = p.o;
	tun.payload = p.payload;
	frame_build(&want, &tun);
	{
		struct catch_all tc;
		struct rx got;

		acts[0] = encap[0];
		catch_all_add(&tc, t.ttbl, 1, acts);
		assert_int_equal(senv_send(e, &in, &got), 0);
		rx_assert_bytes(&got, &want);
		catch_all_del(&tc);

		tun.tnl = TNL_GRE;
		tun.in.no_l2 = true;
		frame_build(&want, &tun);
		acts[0] = encap[1];
		catch_all_add(&tc, t.ttbl, 1, acts);
		assert_int_equal(senv_send(e, &in, &got), 0);
		rx_assert_bytes(&got, &want);
		catch_all_del(&tc);
	}
	tx_path_close(e, &t);

	/* Refused: encap on RX, odd or oversized headers. */
	assert_null(mlx5dm_action_reformat(e->rx, MLX5DM_REFORMAT_L2_TO_L2_TUNNEL, 50, hdr));
	assert_int_equal(errno, EOPNOTSUPP);
	assert_null(mlx5dm_action_reformat(e->tx, MLX5DM_REFORMAT_L2_TO_L2_TUNNEL, 51, hdr));
	assert_int_equal(errno, EINVAL);
	assert_null(mlx5dm_action_reformat(e->tx, MLX5DM_REFORMAT_L2_TO_L2_TUNNEL, 128, hdr));
	assert_int_equal(errno, EINVAL);
	assert_null(mlx5dm_action_reformat(e->tx, MLX5DM_REFORMAT_L2_TO_L3_TUNNEL, 0, hdr));
	assert_int_equal(errno, EINVAL);
	assert_int_equal(mlx5dm_action_destroy(encap[0]), 0);
	assert_int_equal(mlx5dm_action_destroy(encap[1]), 0);
	senv_sync(e);
	st1 = senv_stats(e);
	assert_icm_equal(&st0, &st1);
	senv_close(e);
}

/* Encap headers of many sizes (one to two ENCAP lines), prepended verbatim. */
static void
test_encap_sizes(void **state)
{
	static const uint16_t sizes[] = { 14, 16, 18, 62, 64, 66, 100, 126 };
	struct senv *e = senv_open(1);
	struct frame in, want;
	struct tx_path t;
	unsigned int s, i;
	struct pkt p;

	(void)state;
	pkt_udp4(&p);
	frame_build(&in, &p);
	tx_path_open(e, &t);
	for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		struct mlx5dm_action *encap;
		struct catch_all tc;
		uint8_t hdr[126];
		struct rx got;

		/* MACs, an ethertype no parser follows, then a pattern. */
		for (i = 0; i < sizes[s]; i++)
			hdr[i] = (uint8_t)(i * 13 + sizes[s]);
		hdr[0] = 0x02;
		hdr[12] = 0x88;
		hdr[13] = 0xb5;
		encap = mlx5dm_action_reformat(e->tx, MLX5DM_REFORMAT_L2_TO_L2_TUNNEL, sizes[s],
					       hdr);
		assert_non_null(encap);
		memcpy(want.b, hdr, sizes[s]);
		memcpy(want.b + sizes[s], in.b, in.len);
		want.len = (uint16_t)(sizes[s] + in.len);
		catch_all_add(&tc, t.ttbl, 1, &encap);
		assert_int_equal(senv_send(e, &in, &got), 0);
		rx_assert_bytes(&got, &want);
		catch_all_del(&tc);
		assert_int_equal(mlx5dm_action_destroy(encap), 0);
	}
	tx_path_close(e, &t);
	senv_close(e);
}

/* Encapsulated on NIC TX, decapsulated on NIC RX: the frame comes back as it was. */
static void
test_tunnel_round_trip(void **state)
{
	struct senv *e = senv_open(1);
	struct mlx5dm_action *encap[2], *decap[2], *acts[2];
	struct mlx5dm_matcher *mtx, *mrx;
	struct mlx5dm_rule *rtx[2], *rrx[2];
	struct mlx5dm_table *ttbl;
	uint8_t hdr[64], vx[8] = { 0x08, 0, 0, 0, 0, 0x0a, 0xbc, 0 }, l2[14];
	uint8_t mask[MP_SIZE] = { 0 }, v[MP_SIZE];
	struct hdrs o;
	unsigned int i;
	uint16_t n;

	(void)state;
	outer_hdrs(&o);
	o.proto = 17;
	o.sport = 999;
	o.dport = 4789;
	n = stack_build(hdr, &o, vx, sizeof(vx));
	clear_lengths(hdr, 14, true);
	encap[0] = mlx5dm_action_reformat(e->tx, MLX5DM_REFORMAT_L2_TO_L2_TUNNEL, n, hdr);
	outer_hdrs(&o);
	o.proto = 47;
	n = stack_build(hdr, &o, (const uint8_t[]){ 0, 0, 0x08, 0x00 }, 4);
	clear_lengths(hdr, 14, false);
	encap[1] = mlx5dm_action_reformat(e->tx, MLX5DM_REFORMAT_L2_TO_L3_TUNNEL, n, hdr);
	decap[0] = mlx5dm_action_reformat(e->rx, MLX5DM_REFORMAT_L2_TUNNEL_TO_L2, 0, NULL);
	/* The L3 decap restores the original Ethernet header of the test frames. */
	{
		struct pkt p;
		struct frame f;

		pkt_udp4(&p);
		frame_build(&f, &p);
		memcpy(l2, f.b, 14);
	}
	decap[1] = mlx5dm_action_reformat(e->rx, MLX5DM_REFORMAT_L3_TUNNEL_TO_L2, 14, l2);
	assert_non_null(encap[0]);
	assert_non_null(encap[1]);
	assert_non_null(decap[0]);
	assert_non_null(decap[1]);
	ttbl = mlx5dm_table_create(e->tx, 1);
	assert_non_null(ttbl);
	assert_int_equal(mlx5dm_domain_set_root(e->tx, ttbl), 0);
	/* TX: by destination port, VXLAN or GRE. */
	mtx = udp_dport_matcher(ttbl);
	/* RX: by tunnel, VNI 0xabc or GRE carrying IPv4. */
	memset(mask, 0, sizeof(mask));
	mp_set(mask, MLX5DM_FTE(misc, vxlan_vni), 0xffffff);
	mp_set(mask, MLX5DM_FTE(misc, gre_protocol), 0xffff);
	mrx = senv_matcher(e->tbl, 0, CRIT(misc), mask, 0);
	for (i = 0; i < 2; i++) {
		udp_dport_value(v, (uint16_t)(6000 + i));
		rtx[i] = senv_rule(mtx, 0, v, 1, &encap[i]);
		memset(v, 0, sizeof(v));
		if (i == 0)
			mp_set(v, MLX5DM_FTE(misc, vxlan_vni), 0xabc);
		else
			mp_set(v, MLX5DM_FTE(misc, gre_protocol), 0x0800);
		acts[0] = decap[i];
		acts[1] = e->to_q[1 + i];
		rrx[i] = senv_rule(mrx, 0, v, 2, acts);
	}
	for (i = 0; i < 2; i++) {
		struct frame f;
		struct rx got;
		struct pkt p;

		pkt_udp4(&p);
		p.o.dport = (uint16_t)(6000 + i);
		p.payload = 77;
		frame_build(&f, &p);
		assert_int_equal(senv_send(e, &f, &got), 1 + (int)i);
		rx_assert_bytes(&got, &f);
	}
	for (i = 0; i < 2; i++) {
		assert_int_equal(mlx5dm_rule_destroy(rtx[i], 0), 0);
		assert_int_equal(mlx5dm_rule_destroy(rrx[i], 0), 0);
	}
	assert_int_equal(mlx5dm_matcher_destroy(mtx), 0);
	assert_int_equal(mlx5dm_matcher_destroy(mrx), 0);
	assert_int_equal(mlx5dm_domain_set_root(e->tx, NULL), 0);
	assert_int_equal(mlx5dm_table_destroy(ttbl), 0);
	DESTROY_ACTIONS(encap[0], encap[1], decap[0], decap[1]);
	senv_close(e);
}

/* ---- combinations ---- */

static void
test_combinations(void **state)
{
	struct senv *e = senv_open(1);
	struct mlx5dm_action *decap, *mod, *cnt, *tag, *push, *pop, *acts[6];
	struct mlx5dm_counters *c;
	uint8_t list[3 * MOD_SIZE];
	struct frame in, want;
	struct pkt p, inner;
	uint64_t pk, by;

	(void)state;
	c = mlx5dm_counters_alloc(e->ctx, 0);
	assert_non_null(c);
	cnt = mlx5dm_action_counter(e->rx, c, 0);
	tag = mlx5dm_action_flow_tag(e->rx, 0x77);
	decap = mlx5dm_action_reformat(e->rx, MLX5DM_REFORMAT_L2_TUNNEL_TO_L2, 0, NULL);
	/* Applies to the headers the frame has when it runs (the inner ones after decap). */
	mod_add(list, FLD_IP_TTL, 0xff);
	mod_set(list + 8, FLD_DIPV4, 0, 0, 0x0a0a0a0a);
	mod_set(list + 16, FLD_DMAC_47_16, 0, 0, 0x02bbbbbb);
	mod = mlx5dm_action_modify_header(e->rx, 3, list);
	push = mlx5dm_action_push_vlan(e->rx, 0x8100u << 16 | 0x0123);
	pop = mlx5dm_action_pop_vlan(e->rx);
	assert_non_null(cnt);
	assert_non_null(tag);
	assert_non_null(decap);
	assert_non_null(mod);
	assert_non_null(push);
	assert_non_null(pop);

	/* decap + modify + counter + tag + queue. */
	pkt_udp4(&p);
	pkt_vxlan(&p, 5);
	frame_build(&in, &p);
	memset(&inner, 0, sizeof(inner));
	inner.o = p.in;
	inner.payload = p.payload;
	inner.o.ttl--;
	inner.o.dip = 0x0a0a0a0a;
	inner.o.dmac = (inner.o.dmac & 0xffff) | 0x02bbbbbbull << 16;
	frame_build(&want, &inner);
	acts[0] = cnt;
	acts[1] = decap;
	acts[2] = mod;
	acts[3] = tag;
	acts[4] = e->to_q[3];
	expect_rx(e, 5, acts, &in, 3, &want);
	assert_int_equal(mlx5dm_counters_query(c, 0, &pk, &by), 0);
	assert_int_equal(pk, 1);
	/* On RX the counter sits after the decap (SWS placement): the inner frame is counted. */
	assert_int_equal(by, want.len);

	/* modify + push VLAN. */
	pkt_udp4(&p);
	frame_build(&in, &p);
	p.o.ttl--;
	p.o.dip = 0x0a0a0a0a;
	p.o.dmac = (p.o.dmac & 0xffff) | 0x02bbbbbbull << 16;
	p.o.nb_vlan = 1;
	p.o.vlan_tci[0] = 0x0123;
	frame_build(&want, &p);
	acts[0] = mod;
	acts[1] = push;
	acts[2] = e->to_q[1];
	expect_rx(e, 3, acts, &in, 1, &want);

	/* pop + modify: the modify sees the untagged frame. */
	pkt_udp4(&p);
	p.o.nb_vlan = 1;
	p.o.vlan_tci[0] = 0x0456;
	frame_build(&in, &p);
	p.o.nb_vlan = 0;
	p.o.ttl--;
	p.o.dip = 0x0a0a0a0a;
	p.o.dmac = (p.o.dmac & 0xffff) | 0x02bbbbbbull << 16;
	frame_build(&want, &p);
	acts[0] = pop;
	acts[1] = mod;
	acts[2] = e->to_q[2];
	expect_rx(e, 3, acts, &in, 2, &want);

	/* decap + push VLAN on the inner frame. */
	pkt_udp4(&p);
	pkt_vxlan(&p, 6);
	frame_build(&in, &p);
	inner.o = p.in;
	inner.o.nb_vlan = 1;
	inner.o.vlan_tci[0] = 0x0123;
	frame_build(&want, &inner);
	acts[0] = decap;
	acts[1] = push;
	acts[2] = e->to_q[0];
	expect_rx(e, 3, acts, &in, 0, &want);

	DESTROY_ACTIONS(cnt, tag, decap, mod, push, pop);
	assert_int_equal(mlx5dm_counters_free(c), 0);
	senv_close(e);
}

/* NIC TX: counter + modify + push VLAN + encap, in one rule; then over the wire. */
static void
test_tx_combination(void **state)
{
	struct senv *e = senv_open(1);
	struct mlx5dm_action *cnt, *mod, *push, *encap, *acts[4];
	uint8_t list[2 * MOD_SIZE], hdr[64], vx[8] = { 0x08, 0, 0, 0, 0, 0, 0x42, 0 };
	struct mlx5dm_counters *c;
	struct frame in, want;
	struct catch_all tc;
	struct pkt p, tun;
	struct tx_path t;
	uint64_t pk, by;
	struct rx got;
	uint16_t n;

	(void)state;
	c = mlx5dm_counters_alloc(e->ctx, 0);
	assert_non_null(c);
	cnt = mlx5dm_action_counter(e->tx, c, 0);
	mod_add(list, FLD_IP_TTL, 0xff);
	mod_set(list + MOD_SIZE, FLD_UDP_DPORT, 0, 16, 4242);
	mod = mlx5dm_action_modify_header(e->tx, 2, list);
	push = mlx5dm_action_push_vlan(e->tx, 0x8100u << 16 | 0x0321);
	memset(&tun, 0, sizeof(tun));
	outer_hdrs(&tun.o);
	tun.o.proto = 17;
	tun.o.sport = 777;
	tun.o.dport = 4789;
	n = stack_build(hdr, &tun.o, vx, sizeof(vx));
	clear_lengths(hdr, 14, true);
	encap = mlx5dm_action_reformat(e->tx, MLX5DM_REFORMAT_L2_TO_L2_TUNNEL, n, hdr);
	assert_non_null(cnt);
	assert_non_null(mod);
	assert_non_null(push);
	assert_non_null(encap);
	tx_path_open(e, &t);
	acts[0] = cnt;
	acts[1] = mod;
	acts[2] = push;
	acts[3] = encap;
	catch_all_add(&tc, t.ttbl, 4, acts);
	pkt_udp4(&p);
	frame_build(&in, &p);
	tun.tnl = TNL_VXLAN;
	tun.vni = 0x42;
	tun.in = p.o;
	tun.in.ttl--;
	tun.in.dport = 4242;
	tun.in.nb_vlan = 1;
	tun.in.vlan_tci[0] = 0x0321;
	tun.payload = p.payload;
	frame_build(&want, &tun);
	assert_int_equal(senv_send(e, &in, &got), 0);
	rx_assert_bytes(&got, &want);
	/* On TX the counter runs before the header changes: the frame as sent. */
	assert_int_equal(mlx5dm_counters_query(c, 0, &pk, &by), 0);
	assert_int_equal(pk, 1);
	assert_int_equal(by, in.len);
	catch_all_del(&tc);
	tx_path_close(e, &t);
	DESTROY_ACTIONS(cnt, mod, push, encap);
	assert_int_equal(mlx5dm_counters_free(c), 0);
	senv_close(e);
}

/* RX: L3 decap, then a rewrite of the new headers. */
static void
test_decap_l3_modify(void **state)
{
	static const uint8_t l2[14] = { 2, 0xaa, 0, 0, 0, 1, 2, 0xaa, 0, 0, 0, 2, 0x08, 0x00 };
	struct senv *e = senv_open(1);
	struct mlx5dm_action *decap, *mod, *acts[3];
	uint8_t list[2 * MOD_SIZE];
	struct frame in, want;
	struct pkt p, inner;

	(void)state;
	decap = mlx5dm_action_reformat(e->rx, MLX5DM_REFORMAT_L3_TUNNEL_TO_L2, 14, l2);
	mod_set(list, FLD_DMAC_47_16, 0, 0, 0x0abbccdd);
	mod_add(list + MOD_SIZE, FLD_IP_TTL, 0xff);
	mod = mlx5dm_action_modify_header(e->rx, 2, list);
	assert_non_null(decap);
	assert_non_null(mod);
	pkt_udp4(&p);
	p.tnl = TNL_GRE;
	p.in = p.o;
	p.in.no_l2 = true;
	p.in.dip = 0xac100009;
	frame_build(&in, &p);
	memset(&inner, 0, sizeof(inner));
	inner.o = p.in;
	inner.o.no_l2 = false;
	inner.o.dmac = 0x0abbccdd0001ull;
	inner.o.smac = 0x02aa00000002ull;
	inner.o.ttl--;
	inner.payload = p.payload;
	frame_build(&want, &inner);
	acts[0] = decap;
	acts[1] = mod;
	acts[2] = e->to_q[2];
	expect_rx(e, 3, acts, &in, 2, &want);
	DESTROY_ACTIONS(decap, mod);
	senv_close(e);
}

/* Action lists the device cannot execute: refused with the cause, nothing left behind. */
static void
test_refused_combinations(void **state)
{
	struct senv *e = senv_open(1);
	struct mlx5dm_action *drop, *mod, *decap, *push, *tag, *cnt, *txtag, *txdecap;
	struct mlx5dm_ctx_stats st0, st1;
	struct mlx5dm_counters *c;
	struct mlx5dm_matcher *m;
	uint8_t zero[MP_SIZE] = { 0 }, list[MOD_SIZE];
	struct tx_path t;
	unsigned int i;
	struct {
		struct mlx5dm_action *a[4];
		size_t n;
		bool tx;
		const char *msg;
	} bad[12];
	unsigned int nb = 0;

	(void)state;
	c = mlx5dm_counters_alloc(e->ctx, 0);
	assert_non_null(c);
	drop = mlx5dm_action_drop(e->rx);
	mod_set(list, FLD_IP_TTL, 0, 8, 9);
	mod = mlx5dm_action_modify_header(e->rx, 1, list);
	decap = mlx5dm_action_reformat(e->rx, MLX5DM_REFORMAT_L2_TUNNEL_TO_L2, 0, NULL);
	push = mlx5dm_action_push_vlan(e->rx, 0x8100u << 16 | 1);
	tag = mlx5dm_action_flow_tag(e->rx, 1);
	cnt = mlx5dm_action_counter(e->rx, c, 0);
	txtag = mlx5dm_action_flow_tag(e->tx, 1);
	assert_non_null(drop);
	assert_non_null(mod);
	assert_non_null(decap);
	assert_non_null(push);
	assert_non_null(tag);
	assert_non_null(cnt);
	assert_non_null(txtag);
	/* Decap and TIR actions cannot even be made on NIC TX. */
	txdecap = mlx5dm_action_reformat(e->tx, MLX5DM_REFORMAT_L2_TUNNEL_TO_L2, 0, NULL);
	assert_null(txdecap);
	assert_null(mlx5dm_action_dest_tir(e->tx, e->tir[0]));
	assert_int_equal(errno, EOPNOTSUPP);

#define BAD(msg_, tx_, n_, ...) do { \
	struct mlx5dm_action *l_[] = { __VA_ARGS__ }; \
	memcpy(bad[nb].a, l_, sizeof(l_)); \
	bad[nb].n = (n_); \
	bad[nb].tx = (tx_); \
	bad[nb].msg = (msg_); \
	nb++; \
} while (0)
	BAD("steer: actions rejected: two terminating actions (action 1)", false, 2,
	    drop, e->to_q[0]);
	BAD("steer: actions rejected: modify_header after push_vlan on NIC_RX (action 1)", false,
	    3, push, mod, e->to_q[0]);
	BAD("steer: actions rejected: decap_l2 after modify_header on NIC_RX (action 1)", false,
	    3, mod, decap, e->to_q[0]);
	BAD("steer: actions rejected: flow_tag after a terminating action on NIC_RX (action 1)",
	    false, 2, e->to_q[0], tag);
	BAD("steer: actions rejected: two counter actions (action 1)", false, 3, cnt, cnt, drop);
	BAD("steer: actions rejected: two modify_header actions (action 1)", false, 3, mod, mod,
	    drop);
	BAD("steer: actions rejected: more than two push_vlan actions (action 2)", false, 4,
	    push, push, push, drop);
	BAD("steer: actions rejected: two decap actions (action 1)", false, 3, decap, decap,
	    drop);
	BAD("steer: actions rejected: flow_tag on NIC_TX", true, 1, txtag);
	BAD("steer: action 0 belongs to another domain", true, 1, drop);
#undef BAD
	st0 = senv_stats(e);
	tx_path_open(e, &t);
	m = senv_matcher(e->tbl, 0, 0, zero, 0);
	{
		struct mlx5dm_matcher *tm = senv_matcher(t.ttbl, 0, 0, zero, 0);

		test_log_start();
		for (i = 0; i < nb; i++) {
			errno = 0;
			assert_null(mlx5dm_rule_create(bad[i].tx ? tm : m, 0, zero, bad[i].n,
						       bad[i].a));
			assert_true(errno == EOPNOTSUPP || errno == EINVAL);
			if (strncmp(test_log_last(), bad[i].msg, strlen(bad[i].msg)) != 0)
				fail_msg("case %u logged '%s'", i, test_log_last());
		}
		test_log_stop();
		assert_int_equal(mlx5dm_matcher_destroy(tm), 0);
	}
	/* No rule was left behind: every action is free to go, the ICM is back. */
	assert_int_equal(senv_stats(e).rules, st0.rules + 1);
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	tx_path_close(e, &t);
	senv_sync(e);
	st1 = senv_stats(e);
	assert_icm_equal(&st0, &st1);
	DESTROY_ACTIONS(drop, mod, decap, push, tag, cnt, txtag);
	assert_int_equal(mlx5dm_counters_free(c), 0);
	senv_close(e);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counter_per_rule),
		cmocka_unit_test(test_counter_bulk_action),
		cmocka_unit_test(test_drop_counter_default_miss),
		cmocka_unit_test(test_flow_tag),
		cmocka_unit_test(test_flow_tag_per_rule),
		cmocka_unit_test(test_flow_tags_action),
		cmocka_unit_test(test_action_tmpl_values),
		cmocka_unit_test(test_last_level_records),
		cmocka_unit_test(test_modify_set_action),
		cmocka_unit_test(test_rss),
		cmocka_unit_test(test_rss_symmetric),
		cmocka_unit_test(test_modify_header),
		cmocka_unit_test(test_modify_list_lengths),
		cmocka_unit_test(test_modify_refused),
		cmocka_unit_test(test_vlan_push_pop),
		cmocka_unit_test(test_decap_l2),
		cmocka_unit_test(test_decap_l3),
		cmocka_unit_test(test_encap),
		cmocka_unit_test(test_encap_sizes),
		cmocka_unit_test(test_tunnel_round_trip),
		cmocka_unit_test(test_combinations),
		cmocka_unit_test(test_tx_combination),
		cmocka_unit_test(test_decap_l3_modify),
		cmocka_unit_test(test_refused_combinations),
	};

	return cmocka_run_group_tests_name("steer_actions", tests, NULL, NULL);
}
