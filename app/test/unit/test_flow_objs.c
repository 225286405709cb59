/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The rte_flow object layer (tables per group, shared matchers and actions,
 * counters, rules in device action order, start/stop) on a fake steering
 * library that counts and checks every object: sharing, release on destroy,
 * and no object left behind by a flow whose creation fails at any step.
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE             /* fopencookie() */
#endif
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>

#include "test_flow_common.h"
#include "flow_fake_steer.h"
#include "test_util.h"
#include "mlx5dm_osdep.h"

#define ITEM(t, s, m) { .type = RTE_FLOW_ITEM_TYPE_##t, .spec = (s), .mask = (m) }
#define END_ITEM { .type = RTE_FLOW_ITEM_TYPE_END }
#define ACT(t, c) { .type = RTE_FLOW_ACTION_TYPE_##t, .conf = (c) }
#define END_ACT { .type = RTE_FLOW_ACTION_TYPE_END }

static int dummy_ctx;

static int
t_rqn(void *arg, uint16_t q, uint32_t *rqn)
{
	(void)arg;
	*rqn = 100u + q;
	return 0;
}

/* The port's live counts, its rule queues' included. */
static struct mlx5dm_flow_stats
t_stats(const struct mlx5dm_flow_priv *fp)
{
	struct mlx5dm_flow_stats s;

	mlx5dm_flow_objs_stats(fp, &s);
	return s;
}

/* Flow state as a port allocates it: its rule queues' lanes are a cache line each. */
static struct mlx5dm_flow_priv *
t_fp_alloc(void)
{
	return aligned_alloc(alignof(struct mlx5dm_flow_priv),
			     RTE_ALIGN(sizeof(struct mlx5dm_flow_priv), RTE_CACHE_LINE_SIZE));
}

static struct mlx5dm_flow_priv *
t_fp_start(void)
{
	struct mlx5dm_flow_priv *fp = t_fp_alloc();
	const struct mlx5dm_flow_port port = {
		.ctx = (struct mlx5dm_ctx *)&dummy_ctx,
		.dom = { fake_domain(0), fake_domain(1) },
		.rqn = t_rqn,
	};

	assert_non_null(fp);
	fake_reset();
	mlx5dm_flow_priv_init(fp, MLX5DM_SOCKET_ANY);
	assert_int_equal(mlx5dm_flow_objs_start(fp, &port), 0);
	return fp;
}

static void
t_fp_stop(struct mlx5dm_flow_priv *fp)
{
	struct fake_live l;

	mlx5dm_flow_objs_stop(fp);
	fake_live_get(&l);
	assert_int_equal(l.tables + l.matchers + l.rules + l.actions + l.tirs + l.counters, 0);
	assert_null(fake_domain(0)->root);
	assert_null(fake_domain(1)->root);
	free(fp);
}

static struct rte_flow *
t_create(struct mlx5dm_flow_priv *fp, const struct rte_flow_attr *attr,
	 const struct rte_flow_item *items, const struct rte_flow_action *actions)
{
	struct rte_flow_error err = { .message = NULL };
	struct mlx5dm_flow_spec spec;
	struct rte_flow *flow;

	t_translate_ok(attr, items, actions, &spec);
	flow = mlx5dm_flow_objs_create(fp, &spec, true, &err);
	if (flow == NULL)
		fprintf(stderr, "create failed: %s\n", err.message);
	return flow;
}

static void
t_destroy(struct mlx5dm_flow_priv *fp, struct rte_flow *flow)
{
	assert_true(mlx5dm_flow_objs_owns(fp, flow));
	assert_int_equal(mlx5dm_flow_objs_destroy(fp, flow, NULL), 0);
}

/* Flow f's counter: its device counters, index in them through *index. */
static struct mlx5dm_counters *
t_cnt(struct mlx5dm_flow_priv *fp, const struct rte_flow *f, uint32_t *index)
{
	assert_int_not_equal(f->cnt, 0);
	return mlx5dm_flow_cnt_counters(fp, f->cnt, index);
}

/* Flow f's counter index (in its bulk). */
static uint32_t
t_cnt_index(struct mlx5dm_flow_priv *fp, const struct rte_flow *f)
{
	uint32_t index;

	t_cnt(fp, f, &index);
	return index;
}

/* Flow f's COUNT query (without reset) answers hits and bytes. */
static void
t_query_is(struct mlx5dm_flow_priv *fp, struct rte_flow *f, uint64_t hits, uint64_t bytes)
{
	struct rte_flow_query_count q = { .reset = 0 };

	assert_int_equal(mlx5dm_flow_objs_query_count(fp, f, &q, NULL), 0);
	assert_true(q.hits_set && q.bytes_set);
	assert_int_equal(q.hits, hits);
	assert_int_equal(q.bytes, bytes);
}

static const struct rte_flow_item p_eth[] = { ITEM(ETH, NULL, NULL), END_ITEM };
static const struct rte_flow_action_queue q1 = { .index = 1 };

static void
test_start_stop(void **state)
{
	struct mlx5dm_flow_priv *fp;
	struct fake_live l;

	(void)state;
	fp = t_fp_start();
	fake_live_get(&l);
	assert_int_equal(l.tables, 2);
	/* Group 0 of each domain is level 1 and the domain's entry table. */
	assert_non_null(fake_domain(0)->root);
	assert_int_equal(fake_domain(0)->root->level, 1);
	assert_int_equal(fake_domain(1)->root->level, 1);
	assert_int_equal(fp->st.tables, 2);
	t_fp_stop(fp);
}

static void
test_drop_rule(void **state)
{
	const struct rte_flow_item_ipv4 ip = { .hdr.dst_addr = RTE_BE32(0x0a000001) };
	const struct rte_flow_item items[] = { ITEM(ETH, NULL, NULL), ITEM(IPV4, &ip, NULL),
					       END_ITEM };
	const struct rte_flow_attr attr = { .ingress = 1, .priority = 3 };
	struct mlx5dm_flow_priv *fp = t_fp_start();
	const struct mlx5dm_rule *r;
	struct rte_flow *flow;
	struct fake_live l;

	(void)state;
	flow = t_create(fp, &attr, items, t_act_drop);
	assert_non_null(flow);
	r = fake_last_rule();
	assert_non_null(r);
	assert_int_equal(r->n, 1);
	assert_int_equal(r->acts[0]->kind, FAKE_DROP);
	/* Group 0 table, matcher priority 3 * 4 + 0, IPv4 mask. */
	assert_ptr_equal(r->m->tbl, fake_domain(0)->root);
	assert_int_equal(r->m->attr.priority, 12);
	assert_int_equal(r->m->attr.criteria, C_OUTER);
	assert_int_equal(mlx5dm_prm_get(r->m->mask, T_AT(S_DST_IP_31_0)), 0xffffffff);
	assert_int_equal(mlx5dm_prm_get(r->value, T_AT(S_DST_IP_31_0)), 0x0a000001);
	fake_live_get(&l);
	assert_int_equal(l.matchers, 1);
	assert_int_equal(l.rules, 1);
	assert_int_equal(l.actions, 1);
	t_destroy(fp, flow);
	fake_live_get(&l);
	assert_int_equal(l.matchers + l.rules + l.actions, 0);
	assert_int_equal(l.tables, 2);
	t_fp_stop(fp);
}

/* Same mask: one matcher; same actions: one action object; all go with the last user. */
static void
test_sharing(void **state)
{
	const struct rte_flow_item_ipv4 ip1 = { .hdr.dst_addr = RTE_BE32(1) };
	const struct rte_flow_item_ipv4 ip2 = { .hdr.dst_addr = RTE_BE32(2) };
	const struct rte_flow_item i1[] = { ITEM(IPV4, &ip1, NULL), END_ITEM };
	const struct rte_flow_item i2[] = { ITEM(IPV4, &ip2, NULL), END_ITEM };
	const struct rte_flow_action_mark m5 = { .id = 5 }, m6 = { .id = 6 };
	const struct rte_flow_action a5[] = { ACT(MARK, &m5), ACT(QUEUE, &q1), END_ACT };
	const struct rte_flow_action a6[] = { ACT(MARK, &m6), ACT(QUEUE, &q1), END_ACT };
	struct mlx5dm_flow_priv *fp = t_fp_start();
	struct rte_flow *f1, *f2, *f3;
	struct fake_live l;

	(void)state;
	f1 = t_create(fp, &t_attr_in, i1, a5);
	f2 = t_create(fp, &t_attr_in, i2, a5);
	assert_non_null(f1);
	assert_non_null(f2);
	fake_live_get(&l);
	assert_int_equal(l.matchers, 1);
	assert_int_equal(l.rules, 2);
	assert_int_equal(l.actions, 2); /* the tags, one dest_tir */
	assert_int_equal(l.tirs, 1);
	f3 = t_create(fp, &t_attr_in, i2, a6);
	assert_non_null(f3);
	fake_live_get(&l);
	/* Another MARK id is the rule's argument to the same tags action, not an action. */
	assert_int_equal(l.actions, 2);
	assert_ptr_equal(f3->rules[0].rule->acts[0], f1->rules[0].rule->acts[0]);
	assert_int_equal(f1->rules[0].rule->args[0], 6);
	assert_int_equal(f3->rules[0].rule->args[0], 7);
	t_destroy(fp, f1);
	fake_live_get(&l);
	assert_int_equal(l.matchers, 1);
	assert_int_equal(l.actions, 2);
	t_destroy(fp, f2);
	fake_live_get(&l);
	assert_int_equal(l.actions, 2);
	assert_int_equal(mlx5dm_flow_objs_flush(fp, NULL), 0);
	fake_live_get(&l);
	assert_int_equal(l.matchers + l.rules + l.actions + l.tirs, 0);
	assert_int_equal(t_stats(fp).flows, 0);
	t_fp_stop(fp);
}

static void
test_jump(void **state)
{
	const struct rte_flow_action_jump j3 = { .group = 3 };
	const struct rte_flow_action aj[] = { ACT(JUMP, &j3), END_ACT };
	const struct rte_flow_attr g3 = { .group = 3, .ingress = 1 };
	struct mlx5dm_flow_priv *fp = t_fp_start();
	const struct mlx5dm_rule *r;
	struct rte_flow *f1, *f2, *f3;
	struct fake_live l;

	(void)state;
	f1 = t_create(fp, &t_attr_in, p_eth, aj);
	assert_non_null(f1);
	r = fake_last_rule();
	assert_int_equal(r->acts[0]->kind, FAKE_DEST_TABLE);
	assert_int_equal(r->acts[0]->tbl->level, 4); /* group 3 = level 4 */
	f2 = t_create(fp, &t_attr_in_g1, p_eth, aj);
	assert_non_null(f2);
	f3 = t_create(fp, &g3, p_eth, t_act_drop);
	assert_non_null(f3);
	/* The rule of group 3 lives in the table the jumps go to. */
	assert_ptr_equal(fake_last_rule()->m->tbl, r->acts[0]->tbl);
	fake_live_get(&l);
	assert_int_equal(l.tables, 4); /* roots, group 1, group 3 */
	assert_int_equal(l.actions, 2); /* one dest_table (shared), one drop */
	t_destroy(fp, f1);
	t_destroy(fp, f3);
	fake_live_get(&l);
	assert_int_equal(l.tables, 4);
	t_destroy(fp, f2);
	fake_live_get(&l);
	assert_int_equal(l.tables, 2);
	t_fp_stop(fp);
}

static const uint16_t queues4[] = { 0, 1, 2, 3 };

static void
test_rss_rules(void **state)
{
	const struct rte_flow_action_rss rss = { .queue_num = 4, .queue = queues4 };
	const struct rte_flow_action acts[] = { ACT(RSS, &rss), END_ACT };
	struct mlx5dm_flow_priv *fp = t_fp_start();
	const struct mlx5dm_rule *r;
	struct rte_flow *flow;
	struct fake_live l;

	(void)state;
	flow = t_create(fp, &t_attr_in, p_eth, acts);
	assert_non_null(flow);
	assert_int_equal(flow->nb_rules, 3);
	fake_live_get(&l);
	assert_int_equal(l.rules, 3);
	assert_int_equal(l.matchers, 3);
	assert_int_equal(l.tirs, 3);
	/* IPv4 (matcher priority 1) hashed over the 4 RQs, addresses only. */
	r = flow->rules[0].rule;
	assert_int_equal(r->m->attr.priority, 1);
	assert_int_equal(mlx5dm_prm_get(r->m->mask, T_OUTER(0x093), 4), 4);
	assert_int_equal(r->acts[0]->kind, FAKE_DEST_TIR);
	assert_true(r->acts[0]->tir->hash);
	assert_int_equal(r->acts[0]->tir->nb, 4);
	assert_int_equal(r->acts[0]->tir->rqns[3], 103);
	assert_false(r->acts[0]->tir->rss.ipv6);
	assert_int_equal(r->acts[0]->tir->rss.fields, MLX5DM_RSS_SRC_IP | MLX5DM_RSS_DST_IP);
	r = flow->rules[1].rule;
	assert_true(r->acts[0]->tir->rss.ipv6);
	/* The rest: priority 2, no hash, queue 0's RQ. */
	r = flow->rules[2].rule;
	assert_int_equal(r->m->attr.priority, 2);
	assert_int_equal(r->m->attr.criteria, 0);
	assert_false(r->acts[0]->tir->hash);
	assert_int_equal(r->acts[0]->tir->nb, 1);
	assert_int_equal(r->acts[0]->tir->rqns[0], 100);
	t_destroy(fp, flow);
	t_fp_stop(fp);
}

static void
test_counter(void **state)
{
	const struct rte_flow_action acts[] = { ACT(COUNT, NULL), ACT(DROP, NULL), END_ACT };
	struct mlx5dm_flow_priv *fp = t_fp_start();
	struct rte_flow_query_count q = { .reset = 0 };
	struct mlx5dm_counters *c;
	struct rte_flow *f1, *f2;
	struct fake_live l;
	uint32_t idx;

	(void)state;
	f1 = t_create(fp, &t_attr_in, p_eth, acts);
	f2 = t_create(fp, &t_attr_in, p_eth, acts);
	assert_non_null(f1);
	assert_non_null(f2);
	fake_live_get(&l);
	assert_int_equal(l.counters, 1); /* one bulk */
	assert_int_equal(t_cnt_index(fp, f1), 0);
	assert_int_equal(t_cnt_index(fp, f2), 1);
	/* The counter comes first in the rule: its bulk's action, its index as the argument. */
	assert_int_equal(f2->rules[0].rule->acts[0]->kind, FAKE_COUNTERS);
	assert_ptr_equal(f2->rules[0].rule->acts[0], f1->rules[0].rule->acts[0]);
	assert_int_equal(f1->rules[0].rule->args[0], 0);
	assert_int_equal(f2->rules[0].rule->args[0], 1);
	assert_int_equal(fp->st.cnt_actions, 1);
	c = t_cnt(fp, f1, &idx);
	c->packets[0] = 10;
	c->bytes[0] = 640;
	t_query_is(fp, f1, 10, 640);
	q.reset = 1;
	assert_int_equal(mlx5dm_flow_objs_query_count(fp, f1, &q, NULL), 0);
	c->packets[0] = 13;
	c->bytes[0] = 832;
	t_query_is(fp, f1, 3, 192);
	t_destroy(fp, f1);
	fake_live_get(&l);
	assert_int_equal(l.counters, 1);
	t_destroy(fp, f2);
	fake_live_get(&l);
	assert_int_equal(l.counters, 0);
	assert_int_equal(fp->st.counters + fp->st.cnt_bulks, 0);
	t_fp_stop(fp);
}

/* The library gets a rule's actions in the order the device applies them. */
static void
test_action_order(void **state)
{
	const struct rte_flow_item_vlan vlan = { .hdr.vlan_tci = RTE_BE16(7) };
	const struct rte_flow_item in_items[] = {
		ITEM(ETH, NULL, NULL), ITEM(IPV4, NULL, NULL), ITEM(UDP, NULL, NULL),
		ITEM(VXLAN, NULL, NULL), ITEM(ETH, NULL, NULL), ITEM(VLAN, &vlan, NULL),
		END_ITEM,
	};
	const struct rte_flow_action_mark mark = { .id = 9 };
	const struct rte_flow_action_set_mac mac = { .mac_addr = { 2, 0, 0, 0, 0, 1 } };
	const struct rte_flow_action_of_push_vlan push = { .ethertype = RTE_BE16(0x8100) };
	const struct rte_flow_action_of_set_vlan_vid vid = { .vlan_vid = RTE_BE16(42) };
	const struct rte_flow_action_jump jump = { .group = 2 };
	const struct rte_flow_action in_acts[] = {
		ACT(COUNT, NULL), ACT(MARK, &mark), ACT(VXLAN_DECAP, NULL), ACT(OF_POP_VLAN, NULL),
		ACT(SET_MAC_SRC, &mac), ACT(OF_PUSH_VLAN, &push), ACT(OF_SET_VLAN_VID, &vid),
		ACT(JUMP, &jump), END_ACT,
	};
	static const enum fake_act_kind in_order[] = {
		FAKE_COUNTERS, FAKE_TAGS, FAKE_REFORMAT, FAKE_POP, FAKE_MODIFY, FAKE_PUSH,
		FAKE_DEST_TABLE,
	};
	const struct rte_flow_item_vxlan vx = { .hdr.vx_vni = RTE_BE32(0x100) };
	struct rte_flow_item def[] = {
		ITEM(ETH, &(struct rte_flow_item_eth){ .has_vlan = 0 }, NULL),
		ITEM(IPV4, &(struct rte_flow_item_ipv4){ .hdr.time_to_live = 9 }, NULL),
		ITEM(UDP, &(struct rte_flow_item_udp){ .hdr.src_port = 1 }, NULL),
		ITEM(VXLAN, &vx, NULL), END_ITEM,
	};
	const struct rte_flow_action_vxlan_encap enc = { .definition = def };
	const struct rte_flow_action out_acts[] = {
		ACT(COUNT, NULL), ACT(SET_MAC_SRC, &mac), ACT(VXLAN_ENCAP, &enc), END_ACT,
	};
	static const enum fake_act_kind out_order[] = { FAKE_COUNTERS, FAKE_MODIFY, FAKE_REFORMAT };
	struct mlx5dm_flow_priv *fp = t_fp_start();
	const struct mlx5dm_rule *r;
	struct rte_flow *f;
	unsigned int i;

	(void)state;
	f = t_create(fp, &t_attr_in, in_items, in_acts);
	assert_non_null(f);
	r = f->rules[0].rule;
	assert_int_equal(r->n, RTE_DIM(in_order));
	for (i = 0; i < RTE_DIM(in_order); i++)
		assert_int_equal(r->acts[i]->kind, in_order[i]);
	assert_int_equal(r->args[1], 10); /* MARK 9 -> tag 10 */
	assert_int_equal(r->acts[2]->u32, MLX5DM_REFORMAT_L2_TUNNEL_TO_L2);
	assert_int_equal(r->acts[5]->u32, 0x8100u << 16 | 42);
	/* The modify list: SMAC (2 entries) and, jumping, the mark into reg_c_0. */
	assert_int_equal(r->acts[4]->len, 3 * 8);
	f = t_create(fp, &t_attr_out, p_eth, out_acts);
	assert_non_null(f);
	r = f->rules[0].rule;
	assert_int_equal(r->n, RTE_DIM(out_order));
	for (i = 0; i < RTE_DIM(out_order); i++)
		assert_int_equal(r->acts[i]->kind, out_order[i]);
	assert_ptr_equal(r->acts[0]->dom, fake_domain(1));
	assert_int_equal(r->acts[2]->u32, MLX5DM_REFORMAT_L2_TO_L2_TUNNEL);
	assert_int_equal(r->acts[2]->len, 50);
	t_fp_stop(fp);
}

/*
 * The same objects as before, but for the actions kept on free counters of
 * a live bulk (mlx5dm_flow_cnt.c): a failed flow may leave its counter's
 * action for the next user of the counter, nothing else.
 */
static void
t_assert_same_state(struct mlx5dm_flow_priv *fp, const struct fake_live *l0,
		    const struct mlx5dm_flow_stats *s0)
{
	struct mlx5dm_flow_stats s = t_stats(fp);
	struct fake_live l;

	fake_live_get(&l);
	assert_true(s.cnt_actions >= s0->cnt_actions);
	l.actions -= (int)(s.cnt_actions - s0->cnt_actions);
	s.cnt_actions = s0->cnt_actions;
	assert_memory_equal(&l, l0, sizeof(l));
	assert_memory_equal(&s, s0, sizeof(*s0));
}

/*
 * A flow touching every kind of object, failed at each library call and at
 * each allocation in turn: every failure leaves exactly the state before.
 */
static void
test_failure_leaves_nothing(void **state)
{
	const struct rte_flow_action_rss rss = {
		.types = RTE_ETH_RSS_IPV4 | RTE_ETH_RSS_NONFRAG_IPV4_TCP,
		.queue_num = 4, .queue = queues4,
	};
	const struct rte_flow_action_mark mark = { .id = 1 };
	const struct rte_flow_action_set_meta meta = { .data = 1, .mask = 0xff };
	const struct rte_flow_action_jump jump = { .group = 5 };
	const struct rte_flow_action a_rss[] = { ACT(COUNT, NULL), ACT(MARK, &mark),
						 ACT(SET_META, &meta), ACT(RSS, &rss), END_ACT };
	const struct rte_flow_action a_jump[] = { ACT(COUNT, NULL), ACT(MARK, &mark),
						  ACT(JUMP, &jump), END_ACT };
	const struct rte_flow_action *lists[] = { a_rss, a_jump };
	struct mlx5dm_flow_priv *fp = t_fp_start();
	struct rte_flow_error err;
	struct mlx5dm_flow_spec spec;
	struct mlx5dm_flow_stats s0;
	struct rte_flow *keep, *f;
	struct fake_live l0;
	unsigned int k, n, mode, failures = 0;

	(void)state;
	/* Something already there, so shared objects are both found and created. */
	keep = t_create(fp, &t_attr_in, p_eth, a_jump);
	assert_non_null(keep);
	for (k = 0; k < RTE_DIM(lists); k++) {
		t_translate_ok(&t_attr_in, p_eth, lists[k], &spec);
		for (mode = 0; mode < 2; mode++) {
			for (n = 1;; n++) {
				fake_live_get(&l0);
				s0 = t_stats(fp);
				if (mode == 0)
					fake_fail_at(n);
				else
					mlx5dm_alloc_fail_at(n);
				memset(&err, 0, sizeof(err));
				f = mlx5dm_flow_objs_create(fp, &spec, true, &err);
				fake_fail_at(0);
				mlx5dm_alloc_fail_at(0);
				if (f != NULL)
					break;
				failures++;
				assert_non_null(err.message);
				assert_int_equal(err.type, RTE_FLOW_ERROR_TYPE_UNSPECIFIED);
				t_assert_same_state(fp, &l0, &s0);
			}
			t_destroy(fp, f);
			t_assert_same_state(fp, &l0, &s0);
		}
	}
	fprintf(stderr, "%u injected failures, none left state behind\n", failures);
	/* (Actions and sets come from slabs the first flow grew: no allocation of their own.) */
	assert_true(failures > 15);
	t_destroy(fp, keep);
	t_fp_stop(fp);
}

/* The largest modify list (64 entries) is one shared action like any other. */
static void
test_largest_modify_list(void **state)
{
	const struct rte_flow_action_set_meta meta = { .data = 0, .mask = 0x55555555 };
	const struct rte_flow_action acts[] = { ACT(SET_META, &meta), ACT(SET_META, &meta),
						ACT(SET_META, &meta), ACT(SET_META, &meta),
						END_ACT };
	struct mlx5dm_flow_priv *fp = t_fp_start();
	struct rte_flow *f1, *f2;
	struct fake_live l;

	(void)state;
	f1 = t_create(fp, &t_attr_out, p_eth, acts);
	f2 = t_create(fp, &t_attr_out, p_eth, acts);
	assert_non_null(f1);
	assert_non_null(f2);
	assert_int_equal(f1->rules[0].rule->acts[0]->kind, FAKE_MODIFY);
	assert_int_equal(f1->rules[0].rule->acts[0]->len, 64 * 8);
	fake_live_get(&l);
	assert_int_equal(l.actions, 1);
	t_destroy(fp, f1);
	t_destroy(fp, f2);
	t_fp_stop(fp);
}

static void
test_duplicate_rule(void **state)
{
	struct mlx5dm_flow_priv *fp = t_fp_start();
	struct rte_flow_error err = { .message = NULL };
	struct mlx5dm_flow_spec spec;
	struct rte_flow *f;

	(void)state;
	fake_allow_duplicates(false);
	t_translate_ok(&t_attr_in, p_eth, t_act_drop, &spec);
	f = mlx5dm_flow_objs_create(fp, &spec, true, &err);
	assert_non_null(f);
	assert_null(mlx5dm_flow_objs_create(fp, &spec, true, &err));
	assert_int_equal(rte_errno, EEXIST);
	assert_string_equal(err.message, "an identical rule exists (same group, priority and "
			    "match)");
	t_destroy(fp, f);
	t_fp_stop(fp);
}


/* n ingress flows matching IPv4 destinations base .. base + n - 1, with actions acts. */
static void
t_create_many(struct mlx5dm_flow_priv *fp, struct rte_flow **f, unsigned int n, uint32_t base,
	      const struct rte_flow_action *acts)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		const struct rte_flow_item_ipv4 ip = {
			.hdr.dst_addr = rte_cpu_to_be_32(base + i),
		};
		const struct rte_flow_item items[] = { ITEM(IPV4, &ip, NULL), END_ITEM };

		f[i] = t_create(fp, &t_attr_in, items, acts);
		assert_non_null(f[i]);
	}
}

/* Rules with the same action list share one action set, which holds the entries. */
static void
test_action_sets(void **state)
{
	const struct rte_flow_action_mark m5 = { .id = 5 };
	const struct rte_flow_action_queue q2 = { .index = 2 };
	const struct rte_flow_action a5[] = { ACT(MARK, &m5), ACT(QUEUE, &q1), END_ACT };
	const struct rte_flow_action a6[] = { ACT(MARK, &m5), ACT(QUEUE, &q2), END_ACT };
	struct mlx5dm_flow_priv *fp = t_fp_start();
	struct rte_flow *f[3];
	struct fake_live l;

	(void)state;
	t_create_many(fp, f, 2, 1, a5);
	assert_ptr_equal(f[0]->rules[0].action_set, f[1]->rules[0].action_set);
	assert_int_equal(fp->st.action_sets, 1);
	assert_int_equal(fp->st.entries, 2);
	t_create_many(fp, &f[2], 1, 3, a6);
	assert_ptr_not_equal(f[2]->rules[0].action_set, f[0]->rules[0].action_set);
	assert_int_equal(fp->st.action_sets, 2);
	assert_int_equal(fp->st.entries, 3); /* the tags entry is in both sets */
	t_destroy(fp, f[0]);
	assert_int_equal(fp->st.action_sets, 2);
	t_destroy(fp, f[1]);
	assert_int_equal(fp->st.action_sets, 1);
	assert_int_equal(fp->st.entries, 2);
	t_destroy(fp, f[2]);
	assert_int_equal(fp->st.action_sets + fp->st.entries, 0);
	fake_live_get(&l);
	assert_int_equal(l.actions + l.tirs, 0);
	t_fp_stop(fp);
}

/*
 * A set is per matcher; the set used last is reused only for the very same
 * parameters: a rule differing only in a queue, an RSS key byte or its
 * matcher gets its own set, and going back to an earlier list finds its set.
 */
static void
test_action_set_memo(void **state)
{
	static const uint16_t qa[] = { 0, 1, 2, 3 }, qb[] = { 0, 1, 3, 2 };
	static const uint8_t key_a[40] = { 1 }, key_b[40] = { 1, [39] = 2 };
	enum { N = 5 };
	const struct rte_flow_action_queue q2 = { .index = 2 };
	/* Each differs from the one before in one thing: queue, RSS key, RSS queues. */
	const struct rte_flow_action_rss r[] = {
		{ .types = RTE_ETH_RSS_IPV4, .queue_num = 4, .queue = qa, .key = key_a,
		  .key_len = 40 },
		{ .types = RTE_ETH_RSS_IPV4, .queue_num = 4, .queue = qa, .key = key_b,
		  .key_len = 40 },
		{ .types = RTE_ETH_RSS_IPV4, .queue_num = 4, .queue = qb, .key = key_b,
		  .key_len = 40 },
	};
	const struct rte_flow_action lists[N][2] = {
		{ ACT(QUEUE, &q1), END_ACT }, { ACT(QUEUE, &q2), END_ACT },
		{ ACT(RSS, &r[0]), END_ACT }, { ACT(RSS, &r[1]), END_ACT },
		{ ACT(RSS, &r[2]), END_ACT },
	};
	const struct rte_flow_item_udp udp = { .hdr.dst_port = RTE_BE16(7) };
	const struct rte_flow_item p_udp[] = { ITEM(IPV4, NULL, NULL), ITEM(UDP, &udp, NULL),
					       END_ITEM };
	struct mlx5dm_flow_priv *fp = t_fp_start();
	struct rte_flow *f[3 * N + 1];
	unsigned int i, k;

	(void)state;
	/* Each list twice in a row, then each once more. */
	for (i = 0; i < 3 * N; i++) {
		k = i < 2 * N ? i / 2 : i - 2 * N;
		t_create_many(fp, &f[i], 1, 100 + i, lists[k]);
		assert_int_equal(fp->st.action_sets, RTE_MIN(i / 2 + 1, (unsigned int)N));
	}
	for (k = 0; k < N; k++) {
		assert_ptr_equal(f[2 * k]->rules[0].action_set, f[2 * k + 1]->rules[0].action_set);
		assert_ptr_equal(f[2 * N + k]->rules[0].action_set, f[2 * k]->rules[0].action_set);
		for (i = 0; i < k; i++)
			assert_ptr_not_equal(f[2 * k]->rules[0].action_set,
					     f[2 * i]->rules[0].action_set);
	}
	/* The first list in another matcher: another set, the same entries. */
	f[3 * N] = t_create(fp, &t_attr_in, p_udp, lists[0]);
	assert_non_null(f[3 * N]);
	assert_ptr_not_equal(f[3 * N]->rules[0].action_set, f[0]->rules[0].action_set);
	assert_ptr_equal(f[3 * N]->rules[0].rule->acts[0], f[0]->rules[0].rule->acts[0]);
	assert_int_equal(fp->st.action_sets, N + 1);
	assert_int_equal(fp->st.matchers, 2);
	for (i = 0; i <= 3 * N; i++)
		t_destroy(fp, f[i]);
	assert_int_equal(fp->st.action_sets + fp->st.entries + fp->st.matchers, 0);
	t_fp_stop(fp);
}

/*
 * A MARK id is a value of the rule, not an object: rules marked with as
 * many ids as rules share one action set and one tags action, each rule
 * giving its tag (id + 1) as that action's argument.
 */
static void
test_mark_is_argument(void **state)
{
	enum { N = 300 };
	struct mlx5dm_flow_priv *fp = t_fp_start();
	static struct rte_flow *f[N];
	struct rte_flow_action_mark mk;
	const struct rte_flow_action acts[] = { ACT(MARK, &mk), ACT(QUEUE, &q1), END_ACT };
	const struct mlx5dm_rule *r;
	struct fake_live l;
	unsigned int i;

	(void)state;
	for (i = 0; i < N; i++) {
		mk.id = i;
		t_create_many(fp, &f[i], 1, i, acts);
		r = f[i]->rules[0].rule;
		assert_int_equal(r->acts[0]->kind, FAKE_TAGS);
		assert_int_equal(r->args[0], i + 1); /* MARK id -> tag id + 1 */
		assert_ptr_equal(f[i]->rules[0].action_set, f[0]->rules[0].action_set);
	}
	assert_int_equal(fp->st.action_sets, 1);
	assert_int_equal(fp->st.entries, 2); /* the tags, the TIR */
	fake_live_get(&l);
	assert_int_equal(l.actions, 2);
	for (i = 0; i < N; i++)
		t_destroy(fp, f[i]);
	assert_int_equal(fp->st.action_sets + fp->st.entries, 0);
	t_fp_stop(fp);
}

/*
 * A value a rule writes into one 32-bit field is the rule's too: rules
 * setting as many IPv4 sources as rules share one set and one modify-set
 * action (its entry without the data), each rule giving its address as
 * the action's argument; a list of two entries stays a list.
 */
static void
test_modify_set_is_argument(void **state)
{
	enum { N = 300 };
	struct mlx5dm_flow_priv *fp = t_fp_start();
	static struct rte_flow *f[2 * N + 1];
	struct rte_flow_action_set_ipv4 set;
	const struct rte_flow_action acts[] = {
		ACT(SET_IPV4_SRC, &set), ACT(QUEUE, &q1), END_ACT };
	const struct rte_flow_action two[] = {
		ACT(SET_IPV4_SRC, &set), ACT(SET_IPV4_DST, &set), ACT(QUEUE, &q1), END_ACT };
	const struct mlx5dm_rule *r;
	unsigned int i;

	(void)state;
	for (i = 0; i < N; i++) {
		set.ipv4_addr = rte_cpu_to_be_32(0xc0000000 + i);
		t_create_many(fp, &f[i], 1, i, acts);
		r = f[i]->rules[0].rule;
		assert_int_equal(r->acts[0]->kind, FAKE_MODIFY_SET);
		assert_int_equal(r->args[0], 0xc0000000 + i);
		assert_memory_equal(r->acts[0]->data + 4, "\0\0\0\0", 4);
		assert_ptr_equal(f[i]->rules[0].action_set, f[0]->rules[0].action_set);
	}
	assert_int_equal(fp->st.action_sets, 1);
	assert_int_equal(fp->st.entries, 2); /* the modify-set, the TIR */
	t_create_many(fp, &f[N], 1, N, two);
	assert_int_equal(f[N]->rules[0].rule->acts[0]->kind, FAKE_MODIFY);
	assert_int_equal(f[N]->rules[0].rule->acts[0]->len, 16);
	for (i = 0; i <= N; i++)
		t_destroy(fp, f[i]);
	assert_int_equal(fp->st.action_sets + fp->st.entries, 0);
	t_fp_stop(fp);
}

/* Flows as the PMD creates them: through the implicit template of their shape. */
static struct rte_flow *
t_create_cached(struct mlx5dm_flow_priv *fp, const struct rte_flow_attr *attr,
		const struct rte_flow_item *items, const struct rte_flow_action *actions)
{
	struct mlx5dm_flow_context ctx = { .nb_rx_queues = 8 };
	struct rte_flow_error err = { .message = NULL };
	struct rte_flow *f;

	f = mlx5dm_flow_objs_make(fp, &ctx, NULL, attr, items, actions, &err);
	if (f == NULL)
		fail_msg("create: %s", err.message);
	return f;
}

/* The template a flow holds. */
static struct mlx5dm_flow_compiled *
t_ct(const struct mlx5dm_flow_priv *fp, const struct rte_flow *f)
{
	assert_int_not_equal(f->ct, 0);
	return fp->compiled[f->ct];
}

/* The port's templates, and the rules the setters of those the flows hold made. */
/* Rules a template's setters made so far. */
static uint32_t
t_fast(const struct mlx5dm_flow_priv *fp)
{
	return t_stats(fp).fast;
}

static const struct rte_flow_item_ipv4 t_dst_mask = { .hdr.dst_addr = RTE_BE32(0xffffffff) };
static const struct rte_flow_item_ipv4 t_src_mask = { .hdr.src_addr = RTE_BE32(0xffffffff) };

/*
 * Templates tell keys apart: rules alternating between two masks land
 * each in its matcher, rules alternating between two queues of one
 * matcher each in its set (and TIR); each shape has its implicit
 * template, whose setters make all but its first rule.
 */
static void
t_id_keys(struct mlx5dm_flow_priv *fp)
{
	const struct rte_flow_item_ipv4 ip = {
		.hdr.src_addr = RTE_BE32(0x01020304), .hdr.dst_addr = RTE_BE32(0x0a0b0c0d) };
	const struct rte_flow_item p_dst[] = {
		ITEM(ETH, NULL, NULL), ITEM(IPV4, &ip, &t_dst_mask), END_ITEM };
	const struct rte_flow_item p_src[] = {
		ITEM(ETH, NULL, NULL), ITEM(IPV4, &ip, &t_src_mask), END_ITEM };
	const struct rte_flow_action_queue q2 = { .index = 2 };
	const struct rte_flow_action a_q1[] = { ACT(QUEUE, &q1), END_ACT };
	const struct rte_flow_action a_q2[] = { ACT(QUEUE, &q2), END_ACT };
	struct rte_flow *f[8];
	const struct mlx5dm_rule *r;
	unsigned int i;
	uint32_t fast = t_fast(fp);
	bool src;

	for (i = 0; i < RTE_DIM(f); i++) {
		src = i % 2 == 1;
		f[i] = t_create_cached(fp, &t_attr_in, src ? p_src : p_dst,
				       i % 4 >= 2 ? a_q2 : a_q1);
		assert_non_null(f[i]);
		r = fake_last_rule();
		assert_int_equal(mlx5dm_prm_get(r->m->mask, T_AT(S_DST_IP_31_0)), src ? 0 : ~0u);
		assert_int_equal(mlx5dm_prm_get(r->m->mask, T_AT(S_SRC_IP_31_0)), src ? ~0u : 0);
		assert_int_equal(r->n, 1);
		assert_int_equal(r->acts[0]->tir->rqns[0], 100u + 1 + (i % 4 >= 2));
	}
	assert_int_equal(fp->st.matchers, 2);
	assert_int_equal(fp->st.action_sets, 4);
	assert_int_equal(fp->st.templates, 2);
	/* All but the first rule of each shape (queues are copied). */
	assert_int_equal(t_fast(fp) - fast, RTE_DIM(f) - 2);
	for (i = 0; i < RTE_DIM(f); i++)
		t_destroy(fp, f[i]);
	assert_int_equal(fp->st.templates, 0);
}

/*
 * Rules their implicit template's setters make share the matcher and action
 * set the template took: each rule still gets its own value, in the one
 * matcher and set, on which the template holds a reference; once the
 * flows are gone, the template goes, and with it the matcher and set; the
 * next rules make them anew.
 */
static void
test_template_memos(void **state)
{
	struct rte_flow_item_ipv4 ip = { .hdr.dst_addr = 0 };
	const struct rte_flow_item items[] = {
		ITEM(ETH, NULL, NULL), ITEM(IPV4, &ip, &t_dst_mask), END_ITEM };
	const struct rte_flow_action acts[] = { ACT(QUEUE, &q1), END_ACT };
	struct mlx5dm_flow_priv *fp = t_fp_start();
	struct mlx5dm_flow_compiled *ct;
	const struct mlx5dm_rule *r;
	struct rte_flow *f[4];
	struct fake_live l;
	unsigned int round, i;
	uint32_t fast;

	(void)state;
	for (round = 0; round < 2; round++) {
		fast = t_fast(fp);
		for (i = 0; i < RTE_DIM(f); i++) {
			uint32_t dst = 0x0a000001 + i;

			ip.hdr.dst_addr = rte_cpu_to_be_32(dst);
			f[i] = t_create_cached(fp, &t_attr_in, items, acts);
			assert_non_null(f[i]);
			r = fake_last_rule();
			assert_int_equal(mlx5dm_prm_get(r->value, T_AT(S_DST_IP_31_0)), dst);
			assert_ptr_equal(f[i]->rules[0].action_set, f[0]->rules[0].action_set);
			assert_ptr_equal(r->m, f[i]->rules[0].action_set->matcher->m);
		}
		/* One template for every rule of the round, knowing the set. */
		assert_int_equal(fp->st.templates, 1);
		assert_int_equal(t_fast(fp) - fast, RTE_DIM(f) - 1);
		ct = t_ct(fp, f[0]);
		assert_int_equal(ct->k.refcnt, RTE_DIM(f));
		assert_ptr_equal(ct->sets[q1.index], f[0]->rules[0].action_set);
		assert_int_equal(fp->st.matchers, 1);
		assert_int_equal(fp->st.action_sets, 1);
		fake_live_get(&l);
		assert_int_equal(l.matchers, 1);
		assert_int_equal(l.rules, RTE_DIM(f));
		for (i = 0; i < RTE_DIM(f); i++)
			t_destroy(fp, f[i]);
		assert_int_equal(fp->st.matchers + fp->st.action_sets + fp->st.entries, 0);
		assert_int_equal(fp->st.templates, 0);
		assert_null(fp->compiled);
	}
	t_id_keys(fp);
	assert_int_equal(fp->st.matchers + fp->st.action_sets + fp->st.entries, 0);
	t_fp_stop(fp);
}

/*
 * Implicit templates are found by the shape's content: rules whose masks
 * come each in a buffer of its own (freed after the call) take one
 * template, whose setters make them; another mask is another template. A rule
 * the device refuses leaves no template behind.
 */
static void
test_template_by_content(void **state)
{
	struct rte_flow_item_ipv4 ip = { .hdr.dst_addr = 0 };
	struct rte_flow_item items[] = {
		ITEM(ETH, NULL, NULL), ITEM(IPV4, &ip, NULL), END_ITEM };
	const struct rte_flow_action acts[] = { ACT(QUEUE, &q1), END_ACT };
	const struct rte_flow_action_queue bad_q = { .index = 99 };
	const struct rte_flow_action bad_acts[] = { ACT(QUEUE, &bad_q), END_ACT };
	struct mlx5dm_flow_context ctx = { .nb_rx_queues = 8 };
	struct rte_flow_error err = { .message = NULL };
	struct mlx5dm_flow_priv *fp = t_fp_start();
	struct rte_flow_item_ipv4 *mask;
	uint32_t fast = t_fast(fp);
	struct rte_flow *f[6];
	unsigned int i;

	(void)state;
	for (i = 0; i < RTE_DIM(f); i++) {
		mask = malloc(sizeof(*mask));
		assert_non_null(mask);
		*mask = i < 4 ? t_dst_mask : t_src_mask;
		items[1].mask = mask;
		ip.hdr.dst_addr = rte_cpu_to_be_32(0x0a000001 + i);
		ip.hdr.src_addr = ip.hdr.dst_addr;
		f[i] = t_create_cached(fp, &t_attr_in, items, acts);
		free(mask);
		assert_int_equal(fp->st.templates, i < 4 ? 1 : 2);
		assert_ptr_equal(t_ct(fp, f[i]), t_ct(fp, f[i < 4 ? 0 : 4]));
		/* The setters made every rule but each template's first. */
		assert_int_equal(t_fast(fp) - fast, i - (i >= 4));
	}
	assert_true(t_ct(fp, f[0]) != t_ct(fp, f[4]));
	assert_true(t_ct(fp, f[0])->fast);
	/* Refused (queue out of range): the existing template stays as it was, no new one. */
	items[1].mask = &t_dst_mask;
	assert_null(mlx5dm_flow_objs_make(fp, &ctx, NULL, &t_attr_in, items, bad_acts, &err));
	assert_int_equal(fp->st.templates, 2);
	assert_int_equal(t_ct(fp, f[0])->k.refcnt, 4);
	items[1].mask = &t_src_mask;
	items[0].mask = &rte_flow_item_eth_mask;
	assert_null(mlx5dm_flow_objs_make(fp, &ctx, NULL, &t_attr_in, items, bad_acts, &err));
	assert_int_equal(fp->st.templates, 2);
	for (i = 0; i < RTE_DIM(f); i++)
		t_destroy(fp, f[i]);
	assert_int_equal(fp->st.templates + fp->st.matchers + fp->st.action_sets, 0);
	t_fp_stop(fp);
}

/* Template ct as a template table holds its pair's: owned, its objects kept. */
static void
t_own(struct mlx5dm_flow_compiled *ct)
{
	mlx5dm_flow_cached_ref(&ct->k);
	ct->owned = true;
}

static void
t_disown(struct mlx5dm_flow_priv *fp, struct mlx5dm_flow_compiled *ct)
{
	ct->owned = false;
	mlx5dm_flow_compiled_put(fp, ct);
}

/*
 * A rule of a template whose objects another rule holds is begun without
 * the port lock on a rule queue's own handles (the lock held meanwhile by
 * this thread: a begin taking it would never return), counted pending
 * until it ends, and it is a flow like any other; a queue without
 * handles (or counters, for a counted rule) and a stopping port go to the
 * locked begin. The lane's counters count no flow until a rule takes one.
 */
static void
test_quick_begin(void **state)
{
	struct rte_flow_item_ipv4 ip = { .hdr.dst_addr = RTE_BE32(0x0a000001) };
	const struct rte_flow_item items[] = {
		ITEM(ETH, NULL, NULL), ITEM(IPV4, &ip, &t_dst_mask), END_ITEM };
	const struct rte_flow_action acts[] = { ACT(QUEUE, &q1), END_ACT };
	const struct rte_flow_action counted[] = { ACT(COUNT, NULL), ACT(QUEUE, &q1), END_ACT };
	struct mlx5dm_flow_priv *fp = t_fp_start();
	struct rte_flow_error err = { .message = NULL };
	struct mlx5dm_flow_compiled *ct, *ct_cnt;
	struct mlx5dm_flow_rule_values r;
	struct mlx5dm_flow_build b;
	struct rte_flow *f0, *f1, *c0, *c1;
	uint32_t live, id, refs;

	(void)state;
	/* The second rule of a shape takes the setters: the template holds its objects. */
	t_create_cached(fp, &t_attr_in, items, acts);
	ip.hdr.dst_addr = RTE_BE32(0x0a000003);
	f0 = t_create_cached(fp, &t_attr_in, items, acts);
	c0 = t_create_cached(fp, &t_attr_in, items, counted);
	ct = t_ct(fp, f0);
	ct_cnt = t_ct(fp, c0);
	/* As a template table's pairs; their objects exist (the rules above made them). */
	t_own(ct);
	t_own(ct_cnt);
	refs = ct->k.refcnt;
	ip.hdr.dst_addr = RTE_BE32(0x0a000002);
	mlx5dm_flow_build_init(&b);
	assert_true(mlx5dm_flow_compiled_rule(ct, 8, items, acts, &r));
	/* No handles of its own yet. */
	assert_int_equal(mlx5dm_flow_objs_quick(fp, ct, &r, &b, 0), -EAGAIN);
	mlx5dm_flow_lock(&fp->lock);
	mlx5dm_flow_lane_fill(fp, 0, ct);
	live = fp->pool.live;
	assert_true(fp->lanes[0].nb_handles > 0);
	/* No counters of its own for a counted rule, a stopping port: the locked begin's. */
	assert_int_equal(fp->lanes[0].nb_cnts, 0);
	assert_true(mlx5dm_flow_compiled_rule(ct_cnt, 8, items, counted, &r));
	assert_int_equal(mlx5dm_flow_objs_quick(fp, ct_cnt, &r, &b, 0), -EAGAIN);
	assert_true(mlx5dm_flow_compiled_rule(ct, 8, items, acts, &r));
	fp->quiescing = true;
	assert_int_equal(mlx5dm_flow_objs_quick(fp, ct, &r, &b, 0), -EAGAIN);
	fp->quiescing = false;
	assert_int_equal(fp->nb_lanes, 1);
	assert_int_equal(fp->inflight + fp->lanes[0].begun - fp->lanes[0].ended, 0);
	/* The lock still held: the begin takes none. */
	assert_int_equal(mlx5dm_flow_objs_quick(fp, ct, &r, &b, 0), 0);
	assert_int_equal(fp->inflight + fp->lanes[0].begun - fp->lanes[0].ended, 1);
	rte_spinlock_unlock(&fp->lock);
	assert_int_equal(mlx5dm_flow_objs_insert(fp, &b, 0, &err), 0);
	mlx5dm_flow_objs_commit(fp, &b, 0);
	f1 = b.flow;
	/* Ended, listed, counted; its handle came from the queue's, not the pool's. */
	assert_int_equal(fp->inflight + fp->lanes[0].begun - fp->lanes[0].ended, 0);
	assert_true(mlx5dm_flow_objs_owns(fp, f1));
	assert_ptr_equal(t_ct(fp, f1), ct);
	/* It borrows the table's objects: no reference taken on the template or the set. */
	assert_true(f1->borrowed);
	assert_int_equal(ct->k.refcnt, refs);
	assert_int_equal(t_stats(fp).flows, 4);
	assert_int_equal(fp->pool.live, live);
	assert_int_equal(mlx5dm_prm_get(fake_last_rule()->value, T_AT(S_DST_IP_31_0)), 0x0a000002);
	assert_ptr_equal(fake_last_rule()->m, f0->rules[0].action_set->matcher->m);
	/* A counted rule: its counter is the lane's last, first in the rule's actions. */
	ip.hdr.dst_addr = RTE_BE32(0x0a000005);
	c1 = t_create_cached(fp, &t_attr_in, items, counted);
	assert_non_null(c1);
	ip.hdr.dst_addr = RTE_BE32(0x0a000006);
	mlx5dm_flow_build_init(&b);
	assert_true(mlx5dm_flow_compiled_rule(ct_cnt, 8, items, counted, &r));
	mlx5dm_flow_lock(&fp->lock);
	mlx5dm_flow_lane_fill(fp, 0, ct_cnt);
	assert_int_equal(fp->lanes[0].nb_cnts, MLX5DM_FLOW_LANE_TAKE);
	assert_int_equal(t_stats(fp).counters, 2);
	id = fp->lanes[0].cnts[MLX5DM_FLOW_LANE_TAKE - 1];
	assert_int_equal(mlx5dm_flow_objs_quick(fp, ct_cnt, &r, &b, 0), 0);
	rte_spinlock_unlock(&fp->lock);
	assert_int_equal(mlx5dm_flow_objs_insert(fp, &b, 0, &err), 0);
	mlx5dm_flow_objs_commit(fp, &b, 0);
	assert_int_equal(b.flow->cnt, id);
	assert_int_equal(fp->lanes[0].nb_cnts, MLX5DM_FLOW_LANE_TAKE - 1);
	assert_int_equal(t_stats(fp).counters, 3);
	assert_int_equal(fake_last_rule()->acts[0]->kind, FAKE_COUNTERS);
	assert_ptr_equal(fake_last_rule()->acts[0], c1->rules[0].rule->acts[0]);
	assert_int_equal(fake_last_rule()->args[0], id & 0xffff);
	assert_int_equal(mlx5dm_prm_get(fake_last_rule()->value, T_AT(S_DST_IP_31_0)), 0x0a000006);
	assert_int_equal(mlx5dm_flow_objs_flush(fp, NULL), 0);
	assert_int_equal(t_stats(fp).flows, 0);
	assert_int_equal(t_stats(fp).counters, 0);
	/* With every rule gone the owned templates keep their objects, until they go. */
	assert_non_null(ct->sets[q1.index]);
	assert_int_equal(fp->st.templates, 2);
	t_disown(fp, ct);
	t_disown(fp, ct_cnt);
	assert_int_equal(fp->st.templates + fp->st.action_sets + fp->st.matchers, 0);
	/* The queue's handles and counters go back with the stop. */
	t_fp_stop(fp);
}

/*
 * An indirect COUNT is pinned by a rule begun without the port lock (held
 * meanwhile by this thread), which counts with its counter and keeps it
 * (a free is refused while a rule pins it); one of the other direction, a
 * destroyed one and a stale handle of its place go to the locked begin.
 * The rule's destroy lets the pin go without the lock; the place then
 * serves a new COUNT under another handle.
 */
static void
test_quick_shared(void **state)
{
	struct rte_flow_item_ipv4 ip = { .hdr.dst_addr = RTE_BE32(0x0a000001) };
	const struct rte_flow_item items[] = {
		ITEM(ETH, NULL, NULL), ITEM(IPV4, &ip, &t_dst_mask), END_ITEM };
	const struct rte_flow_action counted[] = { ACT(COUNT, NULL), ACT(QUEUE, &q1), END_ACT };
	struct mlx5dm_flow_priv *fp = t_fp_start();
	struct rte_flow_action_handle *h, *tx, *gone, *again, *stranger;
	struct mlx5dm_flow_priv *other;
	struct rte_flow_error err = { .message = NULL };
	struct mlx5dm_flow_compiled *ct;
	struct mlx5dm_flow_rule_values r;
	struct mlx5dm_flow_build b;
	struct rte_flow *c0, *f;
	uint32_t cnt;

	(void)state;
	c0 = t_create_cached(fp, &t_attr_in, items, counted);
	ip.hdr.dst_addr = RTE_BE32(0x0a000002);
	t_create_cached(fp, &t_attr_in, items, counted);
	ct = t_ct(fp, c0);
	t_own(ct);
	mlx5dm_flow_lock(&fp->lock);
	assert_int_equal(mlx5dm_flow_shared_new(fp, 0, &h), 0);
	assert_int_equal(mlx5dm_flow_shared_new(fp, 1, &tx), 0);
	assert_int_equal(mlx5dm_flow_shared_new(fp, 0, &gone), 0);
	assert_int_equal(mlx5dm_flow_shared_free(fp, gone), 0);
	assert_int_equal(t_stats(fp).counters, 2 + 2);
	cnt = mlx5dm_flow_shared_find(fp, h)->cnt;
	mlx5dm_flow_lane_fill(fp, 0, ct);
	ip.hdr.dst_addr = RTE_BE32(0x0a000003);
	assert_true(mlx5dm_flow_compiled_rule(ct, 8, items, counted, &r));
	/* Of NIC TX, destroyed: refused here, the locked begin says why. */
	mlx5dm_flow_build_init(&b);
	b.shared = tx;
	assert_int_equal(mlx5dm_flow_objs_quick(fp, ct, &r, &b, 0), -EAGAIN);
	b.shared = gone;
	assert_int_equal(mlx5dm_flow_objs_quick(fp, ct, &r, &b, 0), -EAGAIN);
	assert_int_equal(fp->inflight + fp->lanes[0].begun - fp->lanes[0].ended, 0);
	/* The lock still held: the begin takes none, nor a counter of the lane's. */
	b.shared = h;
	assert_int_equal(mlx5dm_flow_objs_quick(fp, ct, &r, &b, 0), 0);
	f = b.flow;
	assert_int_equal(f->cnt, cnt);
	assert_true(f->cnt_shared);
	assert_int_equal(fp->lanes[0].nb_cnts, MLX5DM_FLOW_LANE_TAKE);
	assert_int_equal(mlx5dm_flow_shared_free(fp, h), -EBUSY);
	rte_spinlock_unlock(&fp->lock);
	assert_int_equal(mlx5dm_flow_objs_insert(fp, &b, 0, &err), 0);
	mlx5dm_flow_objs_commit(fp, &b, 0);
	assert_int_equal(fake_last_rule()->acts[0]->kind, FAKE_COUNTERS);
	assert_int_equal(fake_last_rule()->args[0], cnt & 0xffff);
	/* Its destroy unpins without the lock: the COUNT may go, and its place is reused. */
	mlx5dm_flow_lock(&fp->lock);
	assert_int_equal(mlx5dm_flow_objs_quick_destroy(fp, f, 0), 0);
	assert_int_equal(fp->lanes[0].nb_spent, 0);
	assert_int_equal(mlx5dm_flow_shared_free(fp, h), 0);
	assert_null(mlx5dm_flow_shared_find(fp, h));
	assert_int_equal(mlx5dm_flow_shared_free(fp, h), -EINVAL);
	assert_int_equal(mlx5dm_flow_shared_new(fp, 0, &again), 0);
	assert_true((uint32_t)(uintptr_t)again == (uint32_t)(uintptr_t)h);
	assert_ptr_not_equal(again, h);
	assert_null(mlx5dm_flow_shared_find(fp, h));
	assert_int_equal(mlx5dm_flow_shared_pin(fp, h, 0), 0);
	assert_non_null(mlx5dm_flow_shared_find(fp, again));
	/* Another port's second COUNT, at the place of this one's tx: not tx. */
	other = t_fp_alloc();
	assert_non_null(other);
	mlx5dm_flow_priv_init(other, MLX5DM_SOCKET_ANY);
	other->port = fp->port;
	assert_int_equal(mlx5dm_flow_shared_new(other, 0, &h), 0);
	assert_int_equal(mlx5dm_flow_shared_new(other, 1, &stranger), 0);
	assert_true((uint32_t)(uintptr_t)stranger == (uint32_t)(uintptr_t)tx);
	assert_null(mlx5dm_flow_shared_find(other, tx));
	assert_null(mlx5dm_flow_shared_find(fp, stranger));
	assert_int_equal(mlx5dm_flow_shared_free(fp, stranger), -EINVAL);
	assert_int_equal(mlx5dm_flow_shared_free(other, stranger), 0);
	assert_int_equal(mlx5dm_flow_shared_free(other, h), 0);
	mlx5dm_flow_shared_fini(other);
	free(other);
	assert_int_equal(mlx5dm_flow_objs_flush(fp, NULL), 0);
	/* A stop takes the counters; the handles stay known, their counters gone. */
	mlx5dm_flow_shared_stop(fp);
	assert_int_equal(mlx5dm_flow_shared_find(fp, again)->cnt, 0);
	assert_int_equal(mlx5dm_flow_shared_pin(fp, again, 0), 0);
	assert_int_equal(mlx5dm_flow_shared_free(fp, again), 0);
	assert_int_equal(mlx5dm_flow_shared_free(fp, tx), 0);
	rte_spinlock_unlock(&fp->lock);
	assert_int_equal(t_stats(fp).counters, 0);
	t_disown(fp, ct);
	mlx5dm_flow_shared_fini(fp);
	t_fp_stop(fp);
}

/*
 * A flow of one template rule is destroyed without the port lock (held
 * meanwhile by this thread: a destroy taking it would never return): its
 * rule goes, it is no longer the application's, its handle and counter go
 * to the rule queue's lane; a handle not listed (destroyed already), a
 * flow without a template and a stopping port go to the locked destroy.
 */
static void
test_quick_destroy(void **state)
{
	struct rte_flow_item_ipv4 ip = { .hdr.dst_addr = RTE_BE32(0x0a000001) };
	const struct rte_flow_item items[] = {
		ITEM(ETH, NULL, NULL), ITEM(IPV4, &ip, &t_dst_mask), END_ITEM };
	const struct rte_flow_action counted[] = { ACT(COUNT, NULL), ACT(QUEUE, &q1), END_ACT };
	const struct rte_flow_action acts[] = { ACT(QUEUE, &q1), END_ACT };
	struct mlx5dm_flow_priv *fp = t_fp_start();
	struct rte_flow *f0, *f1, *plain;
	struct mlx5dm_flow_action_set *s;
	struct fake_live live, after;
	uint32_t refs;

	(void)state;
	f0 = t_create_cached(fp, &t_attr_in, items, counted);
	ip.hdr.dst_addr = RTE_BE32(0x0a000002);
	f1 = t_create_cached(fp, &t_attr_in, items, counted);
	plain = t_create(fp, &t_attr_in, items, acts);
	assert_non_null(f0);
	assert_non_null(f1);
	assert_non_null(plain);
	assert_int_not_equal(f1->ct, 0);
	assert_int_equal(plain->ct, 0);
	s = f1->rules[0].action_set;
	refs = s->k.refcnt;
	fake_live_get(&live);
	mlx5dm_flow_lock(&fp->lock);
	/* A stopping port, a flow without a template: the locked destroy's. */
	fp->quiescing = true;
	assert_int_equal(mlx5dm_flow_objs_quick_destroy(fp, f1, 0), -EAGAIN);
	fp->quiescing = false;
	assert_int_equal(mlx5dm_flow_objs_quick_destroy(fp, plain, 0), -EAGAIN);
	assert_int_equal(fp->inflight + fp->lanes[0].begun - fp->lanes[0].ended, 0);
	/* The lock still held: the destroy takes none. */
	assert_int_equal(mlx5dm_flow_objs_quick_destroy(fp, f1, 0), 0);
	assert_int_equal(fp->inflight + fp->lanes[0].begun - fp->lanes[0].ended, 0);
	assert_false(mlx5dm_flow_objs_owns(fp, f1));
	assert_int_equal(s->k.refcnt, refs - 1);
	assert_int_equal(fp->lanes[0].nb_handles, 1);
	assert_ptr_equal(fp->lanes[0].handles[0], f1);
	assert_int_equal(fp->lanes[0].nb_spent, 1);
	assert_int_equal(t_stats(fp).flows, 2);
	assert_int_equal(t_stats(fp).counters, 1);
	assert_int_equal(mlx5dm_flow_objs_listed(fp), 2);
	/* Destroyed already: the locked destroy says it is not the port's. */
	assert_int_equal(mlx5dm_flow_objs_quick_destroy(fp, f1, 0), -EAGAIN);
	rte_spinlock_unlock(&fp->lock);
	fake_live_get(&after);
	assert_int_equal(after.rules, live.rules - 1);
	assert_false(mlx5dm_flow_objs_owns(fp, f1));
	/* The last flow of its template too: its put is the locked one. */
	assert_int_equal(mlx5dm_flow_objs_quick_destroy(fp, f0, 0), 0);
	assert_int_equal(fp->lanes[0].nb_spent, 2);
	t_destroy(fp, plain);
	assert_int_equal(t_stats(fp).flows, 0);
	assert_int_equal(t_stats(fp).counters, 0);
	assert_int_equal(fp->st.templates + fp->st.action_sets + fp->st.matchers, 0);
	/* The lane's handles and spent counters go back with the stop. */
	t_fp_stop(fp);
}

/*
 * The dump of every flow takes each flow while it reads its records: an
 * unlocked destroy of that flow meanwhile goes to the locked destroy
 * (-EAGAIN), one of a flow not yet dumped goes on. The destroys run from
 * the dump's own writes (an unbuffered stream of this test's).
 */
struct dump_race {
	struct mlx5dm_flow_priv *fp;
	struct rte_flow *flows[2];
	int ret[2];
	unsigned int writes;
	unsigned int counters;
};

static ssize_t
dump_race_write(void *cookie, const char *buf, size_t size)
{
	struct dump_race *r = cookie;
	unsigned int i;

	if (size >= 4 && memcmp(buf, "4430", 4) == 0)
		r->counters++;
	if (r->writes++ == 0)
		for (i = 0; i < RTE_DIM(r->flows); i++)
			r->ret[i] = mlx5dm_flow_objs_quick_destroy(r->fp, r->flows[i], 0);
	return (ssize_t)size;
}

/* A synchronous flow to IPv4 destination dst, counted, to queue 1 (an implicit template's). */
static struct rte_flow *
t_counted(struct mlx5dm_flow_priv *fp, uint32_t dst)
{
	struct rte_flow_item_ipv4 ip = { .hdr.dst_addr = rte_cpu_to_be_32(dst) };
	const struct rte_flow_item items[] = {
		ITEM(ETH, NULL, NULL), ITEM(IPV4, &ip, &t_dst_mask), END_ITEM };
	const struct rte_flow_action counted[] = { ACT(COUNT, NULL), ACT(QUEUE, &q1), END_ACT };

	return t_create_cached(fp, &t_attr_in, items, counted);
}

static void
test_quick_destroy_dump(void **state)
{
	const cookie_io_functions_t io = { .write = dump_race_write };
	struct mlx5dm_flow_priv *fp = t_fp_start();
	struct dump_race r = { .fp = fp, .ret = { 1, 1 } };
	unsigned int dumped;
	FILE *f;

	(void)state;
	r.flows[0] = t_counted(fp, 0x0a000001);
	r.flows[1] = t_counted(fp, 0x0a000002);
	assert_non_null(r.flows[0]);
	assert_non_null(r.flows[1]);
	f = fopencookie(&r, "w", io);
	assert_non_null(f);
	assert_int_equal(setvbuf(f, NULL, _IONBF, 0), 0);
	/* The first write is the first flow's counter record, read while it is taken. */
	assert_int_equal(mlx5dm_flow_dump_pmd(fp, f), 0);
	assert_int_equal(fclose(f), 0);
	assert_int_not_equal(r.writes, 0);
	dumped = r.ret[0] == -EAGAIN ? 0 : 1;
	assert_int_equal(r.ret[dumped], -EAGAIN);
	assert_int_equal(r.ret[1 - dumped], 0);
	/* The dumped flow is the application's again; the other went before its turn. */
	assert_true(mlx5dm_flow_objs_owns(fp, r.flows[dumped]));
	assert_false(mlx5dm_flow_objs_owns(fp, r.flows[1 - dumped]));
	assert_int_equal(r.counters, 1);
	assert_int_equal(mlx5dm_flow_objs_listed(fp), 1);
	assert_int_equal(mlx5dm_flow_objs_quick_destroy(fp, r.flows[dumped], 0), 0);
	assert_int_equal(t_stats(fp).flows, 0);
	t_fp_stop(fp);
}

/*
 * Marked rules their template's setters make with a new mark id each take
 * the one set the template holds (no parameters built), each rule with its
 * own tag.
 */
static void
test_mark_id_memos(void **state)
{
	struct rte_flow_item_ipv4 ip = { .hdr.dst_addr = 0 };
	struct rte_flow_action_mark mark = { .id = 0 };
	const struct rte_flow_item items[] = {
		ITEM(ETH, NULL, NULL), ITEM(IPV4, &ip, &t_dst_mask), END_ITEM };
	const struct rte_flow_action acts[] = { ACT(MARK, &mark), ACT(QUEUE, &q1), END_ACT };
	struct mlx5dm_flow_priv *fp = t_fp_start();
	struct rte_flow *f[12];
	unsigned int i;

	(void)state;
	for (i = 0; i < RTE_DIM(f); i++) {
		ip.hdr.dst_addr = rte_cpu_to_be_32(0x0a000001 + i);
		mark.id = 40 + i % 3;
		f[i] = t_create_cached(fp, &t_attr_in, items, acts);
		assert_non_null(f[i]);
		assert_ptr_equal(f[i]->rules[0].action_set, f[0]->rules[0].action_set);
		assert_int_equal(f[i]->rules[0].rule->args[0], 41 + i % 3);
		/* The set is the one the template holds. */
		assert_true(f[i]->rules[0].action_set != NULL);
		if (i > 0)
			assert_ptr_equal(t_ct(fp, f[i])->sets[q1.index], f[0]->rules[0].action_set);
	}
	assert_int_equal(fp->st.action_sets, 1);
	for (i = 0; i < RTE_DIM(f); i++)
		t_destroy(fp, f[i]);
	assert_int_equal(fp->st.matchers + fp->st.action_sets + fp->st.entries, 0);
	t_fp_stop(fp);
}

/* An index on the create path grew with its contents: lookups read about one bucket. */
static void
t_check_grown(const struct mlx5dm_index *x, uint32_t count)
{
	struct mlx5dm_index_shape sh;

	mlx5dm_index_shape(x, &sh);
	assert_int_equal(sh.count, count);
	assert_true(sh.buckets * 4u >= count); /* at most 4 of the 5 ways of a bucket taken */
	assert_true(sh.reads <= 2u * count);
}

/*
 * Distinct action values (a MARK id, a modified address and a jump target
 * per rule) and many priorities: the caches of actions, action sets,
 * groups and matchers grow, so no lookup walks a long chain.
 */
static void
test_caches_grow(void **state)
{
	enum { N = 4000, PRIOS = 400 }; /* the fake library holds 4096 rules */
	struct rte_flow_item_ipv4 ip = { .hdr.dst_addr = 0 };
	struct rte_flow_action_mark mark = { .id = 0 };
	struct rte_flow_action_set_ipv4 set = { .ipv4_addr = 0 };
	struct rte_flow_action_jump jump = { .group = 0 };
	const struct rte_flow_item items[] = {
		ITEM(ETH, NULL, NULL), ITEM(IPV4, &ip, &t_dst_mask), END_ITEM };
	const struct rte_flow_action acts[] = {
		ACT(MARK, &mark), ACT(SET_IPV4_SRC, &set), ACT(JUMP, &jump), END_ACT };
	struct rte_flow_attr attr = t_attr_in;
	struct mlx5dm_flow_priv *fp = t_fp_start();
	static struct rte_flow *f[N];
	uint32_t tables;
	unsigned int i;

	(void)state;
	tables = fp->st.tables;
	for (i = 0; i < N; i++) {
		ip.hdr.dst_addr = rte_cpu_to_be_32(0x0a000000 + i);
		mark.id = i + 1;
		set.ipv4_addr = rte_cpu_to_be_32(0xc0000000 + i);
		jump.group = i + 1;
		attr.priority = i % PRIOS;
		f[i] = t_create(fp, &attr, items, acts);
		assert_non_null(f[i]);
	}
	assert_int_equal(fp->st.tables, tables + N);
	assert_int_equal(fp->st.matchers, PRIOS);
	/* Per rule: a modify list and a jump (the tables' root actions aside); one tags. */
	assert_true(fp->st.entries >= 2 * N + 1);
	assert_int_equal(fp->st.action_sets, N);
	t_check_grown(&fp->entries, fp->st.entries);
	t_check_grown(&fp->action_sets, fp->st.action_sets);
	t_check_grown(&fp->tbls, fp->st.tables);
	t_check_grown(&fp->matchers, fp->st.matchers);
	for (i = 0; i < N; i++)
		t_destroy(fp, f[i]);
	assert_int_equal(fp->st.matchers + fp->st.action_sets + fp->st.entries, 0);
	assert_int_equal(fp->entries.count + fp->action_sets.count + fp->matchers.count, 0);
	t_fp_stop(fp);
}

/*
 * A handle is 16 bytes and 16 per library rule (handed out in address
 * order, so the next handle of a class is that far on).
 */
static void
test_handle_size(void **state)
{
	struct mlx5dm_flow_priv *fp = t_fp_start();
	struct rte_flow *f[2];

	(void)state;
	t_create_many(fp, f, 2, 1, t_act_drop);
	assert_int_equal(f[0]->nb_rules, 1);
	assert_int_equal((uintptr_t)f[1] - (uintptr_t)f[0], 16 + 16);
	assert_int_equal(sizeof(struct rte_flow), 16);
	assert_int_equal(sizeof(struct mlx5dm_flow_rule), 16);
	t_destroy(fp, f[0]);
	t_destroy(fp, f[1]);
	t_fp_stop(fp);
}

/* A counter used before starts the new flow from its current device value. */
static void
test_counter_reuse(void **state)
{
	const struct rte_flow_action acts[] = { ACT(COUNT, NULL), ACT(DROP, NULL), END_ACT };
	struct mlx5dm_flow_priv *fp = t_fp_start();
	struct mlx5dm_counters *c;
	struct rte_flow *f[3];
	uint32_t idx;

	(void)state;
	t_create_many(fp, f, 2, 1, acts);
	assert_int_equal(t_cnt_index(fp, f[1]), 1);
	c = t_cnt(fp, f[1], &idx);
	c->packets[1] = 7;
	c->bytes[1] = 700;
	t_destroy(fp, f[1]);
	t_create_many(fp, &f[2], 1, 5, acts);
	assert_int_equal(t_cnt_index(fp, f[2]), 1);
	t_query_is(fp, f[2], 0, 0);
	c->packets[1] = 9;
	c->bytes[1] = 900;
	t_query_is(fp, f[2], 2, 200);
	t_destroy(fp, f[0]);
	t_destroy(fp, f[2]);
	assert_int_equal(fp->st.counters + fp->st.cnt_bulks, 0);
	t_fp_stop(fp);
}

/*
 * A bulk has one library action per domain for all its counters, created
 * on the bulk's first use in that domain: flows taking its counters (used
 * before or not) create no action and still count from zero; the counters
 * are told apart by the rules' arguments. The bulk's last counter takes
 * the actions along.
 */
static void
test_counter_kept_action(void **state)
{
	const struct rte_flow_action acts[] = { ACT(COUNT, NULL), ACT(DROP, NULL), END_ACT };
	struct mlx5dm_flow_priv *fp = t_fp_start();
	struct mlx5dm_action *a0;
	struct mlx5dm_counters *c;
	struct rte_flow *f[4];
	struct fake_live l;
	unsigned int actions;
	uint32_t idx;

	(void)state;
	t_create_many(fp, f, 2, 1, acts);
	c = t_cnt(fp, f[0], &idx);
	assert_int_equal(idx, 0);
	a0 = f[0]->rules[0].rule->acts[0];
	assert_int_equal(a0->kind, FAKE_COUNTERS);
	assert_ptr_equal(a0->cnt, c);
	assert_int_equal(f[0]->rules[0].rule->args[0], 0);
	assert_ptr_equal(f[1]->rules[0].rule->acts[0], a0);
	assert_int_equal(f[1]->rules[0].rule->args[0], 1);
	assert_int_equal(fp->st.cnt_actions, 1);
	c->packets[0] = 4;
	c->bytes[0] = 400;
	fake_live_get(&l);
	actions = l.actions;
	t_destroy(fp, f[0]);
	fake_live_get(&l);
	assert_int_equal(l.actions, actions); /* kept: the bulk lives */
	assert_int_equal(a0->refs, 1);
	t_create_many(fp, &f[2], 1, 10, acts);
	assert_int_equal(t_cnt_index(fp, f[2]), 0);
	assert_ptr_equal(f[2]->rules[0].rule->acts[0], a0);
	assert_int_equal(f[2]->rules[0].rule->args[0], 0);
	fake_live_get(&l);
	assert_int_equal(l.actions, actions);
	t_query_is(fp, f[2], 0, 0);
	c->packets[0] = 6;
	c->bytes[0] = 650;
	t_query_is(fp, f[2], 2, 250);
	/* Counter 0 again, now for an egress rule: the bulk's action of NIC TX. */
	t_destroy(fp, f[2]);
	f[3] = t_create(fp, &t_attr_out, p_eth, acts);
	assert_non_null(f[3]);
	assert_int_equal(t_cnt_index(fp, f[3]), 0);
	assert_ptr_equal(f[3]->rules[0].rule->acts[0]->dom, fake_domain(1));
	assert_int_equal(f[3]->rules[0].rule->acts[0]->kind, FAKE_COUNTERS);
	assert_ptr_equal(f[3]->rules[0].rule->acts[0]->cnt, c);
	assert_int_equal(f[3]->rules[0].rule->args[0], 0);
	assert_int_equal(fp->st.cnt_actions, 2);
	t_query_is(fp, f[3], 0, 0);
	t_destroy(fp, f[1]);
	t_destroy(fp, f[3]);
	assert_int_equal(fp->st.counters + fp->st.cnt_bulks + fp->st.cnt_actions, 0);
	assert_null(fp->cnt_tab);
	fake_live_get(&l);
	assert_int_equal(l.counters, 0);
	t_fp_stop(fp);
}

/*
 * Bulks grow with the counters in use, down to the largest the device takes
 * (the fake: 1024); a full bulk is skipped, a freed counter reused.
 */
static void
test_counter_bulks(void **state)
{
	enum { N = 128 + 256 + 512 + 1024 + 1 };
	const struct rte_flow_action acts[] = { ACT(COUNT, NULL), ACT(DROP, NULL), END_ACT };
	struct mlx5dm_flow_priv *fp = t_fp_start();
	static struct rte_flow *f[2 * N + 1];
	struct fake_live l;
	unsigned int i;
	uint32_t idx;

	(void)state;
	t_create_many(fp, f, N, 1, acts);
	assert_int_equal(fp->st.cnt_bulks, 5);
	assert_int_equal(t_cnt(fp, f[0], &idx)->n, 128);
	assert_int_equal(t_cnt(fp, f[128], &idx)->n, 256);
	assert_int_equal(t_cnt(fp, f[128 + 256], &idx)->n, 512);
	/* 2048 refused: the fifth bulk is 1024 again, and so are the next ones. */
	assert_int_equal(t_cnt(fp, f[N - 1], &idx)->n, 1024);
	assert_int_equal(fp->cnt_log_max, 10);
	fake_live_get(&l);
	assert_int_equal(l.counters, 5);
	/* A counter freed in the full first bulk is the next one taken. */
	t_destroy(fp, f[70]);
	t_create_many(fp, &f[N], 1, 100000, acts);
	assert_ptr_equal(t_cnt(fp, f[N], &idx), t_cnt(fp, f[0], &idx));
	assert_int_equal(t_cnt_index(fp, f[N]), 70);
	f[70] = f[N];
	for (i = 0; i < N; i++)
		t_destroy(fp, f[i]);
	assert_int_equal(fp->st.counters + fp->st.cnt_bulks, 0);
	fake_live_get(&l);
	assert_int_equal(l.counters + l.actions, 0);
	t_fp_stop(fp);
}

/*
 * Handles come from chunks: every live handle is recognised, anything else
 * (a pointer into a chunk that is not a slot, memory the pool does not own,
 * a destroyed handle) is not; stop returns the chunks.
 */
static void
test_handles(void **state)
{
	enum { N = 2500 };
	struct mlx5dm_flow_priv *fp = t_fp_start();
	static struct rte_flow *f[N];
	struct rte_flow local;
	unsigned int i;

	(void)state;
	memset(&local, 0, sizeof(local));
	t_create_many(fp, f, N, 1, t_act_drop);
	assert_true(fp->pool.nb_chunks >= 2); /* 64 KiB chunks of 32-byte handles */
	assert_int_equal(fp->pool.live, N);
	for (i = 0; i < N; i++)
		assert_true(mlx5dm_flow_objs_owns(fp, f[i]));
	assert_false(mlx5dm_flow_objs_owns(fp, (struct rte_flow *)((uint8_t *)f[7] + 8)));
	assert_false(mlx5dm_flow_objs_owns(fp, &local));
	assert_false(mlx5dm_flow_objs_owns(fp, NULL));
	t_destroy(fp, f[7]);
	assert_false(mlx5dm_flow_objs_owns(fp, f[7]));
	/* The slot is the next handle of its size. */
	t_create_many(fp, &f[7], 1, 100000, t_act_drop);
	assert_true(mlx5dm_flow_objs_owns(fp, f[7]));
	assert_int_equal(mlx5dm_flow_objs_flush(fp, NULL), 0);
	for (i = 0; i < N; i++)
		assert_false(mlx5dm_flow_objs_owns(fp, f[i]));
	mlx5dm_flow_objs_stop(fp);
	assert_int_equal(fp->pool.nb_chunks + fp->pool.live, 0);
	t_fp_stop(fp);
}

/* The osdep allocations of handle chunks (their alignment tells them), counted. */
static unsigned int pool_allocs, pool_frees;
static size_t pool_bytes;
static struct {
	void *p;
	size_t size;
} pool_chunks[64];

static void *
pool_count_alloc(size_t size, size_t align, int socket)
{
	void *p = NULL;
	unsigned int i;

	(void)socket;
	if (posix_memalign(&p, align > sizeof(void *) ? align : sizeof(void *), size) != 0)
		return NULL;
	memset(p, 0, size);
	if (align != MLX5DM_FLOW_POOL_CHUNK)
		return p;
	for (i = 0; pool_chunks[i].p != NULL; i++)
		;
	pool_chunks[i].p = p;
	pool_chunks[i].size = size;
	pool_allocs++;
	pool_bytes += size;
	return p;
}

static void
pool_count_free(void *p)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(pool_chunks); i++)
		if (pool_chunks[i].p == p && p != NULL) {
			pool_frees++;
			pool_bytes -= pool_chunks[i].size;
			pool_chunks[i].p = NULL;
		}
	free(p);
}

/*
 * Handles reserved for a template table's nb_flows are made at once, in
 * few allocations of several chunks: taking all of them allocates nothing,
 * the one after them a chunk; the release returns every allocation whole.
 */
static void
test_handles_reserved(void **state)
{
	static const struct mlx5dm_alloc_ops ops = {
		.alloc = pool_count_alloc,
		.zalloc = pool_count_alloc,
		.free = pool_count_free,
	};
	enum { N = 10000 };
	static struct rte_flow *f[2 * N + 2048];
	struct mlx5dm_flow_pool pool;
	unsigned int i, allocs, made;

	(void)state;
	pool_allocs = pool_frees = 0;
	pool_bytes = 0;
	mlx5dm_alloc_set_ops(&ops);
	mlx5dm_flow_pool_init(&pool, MLX5DM_SOCKET_ANY);
	assert_int_equal(mlx5dm_flow_pool_reserve(&pool, 1, N), 0);
	assert_true(pool.nb_chunks >= 4); /* 64 KiB chunks of 32-byte handles */
	assert_int_equal(pool_allocs, 1);
	/* Promised already: a second table of the class needs its own. */
	assert_int_equal(mlx5dm_flow_pool_reserve(&pool, 1, N), 0);
	allocs = pool_allocs;
	assert_true(allocs >= 2);
	mlx5dm_flow_pool_unreserve(&pool, 1, N);
	assert_int_equal(mlx5dm_flow_pool_reserve(&pool, 1, N), 0);
	assert_int_equal(pool_allocs, allocs);
	/* Both promises, 2 * N handles and the rest of their chunks, take no allocation. */
	made = pool.made[1];
	assert_true(made >= 2 * N && made < 2 * N + 2048);
	for (i = 0; i < made; i++) {
		f[i] = mlx5dm_flow_pool_get(&pool, 1);
		assert_non_null(f[i]);
		assert_true(mlx5dm_flow_pool_owns(&pool, f[i]));
	}
	assert_int_equal(pool_allocs, allocs);
	f[made] = mlx5dm_flow_pool_get(&pool, 1);
	assert_non_null(f[made]);
	assert_int_equal(pool_allocs, allocs + 1);
	for (i = 0; i <= made; i++)
		mlx5dm_flow_pool_put(&pool, f[i]);
	mlx5dm_flow_pool_release(&pool);
	mlx5dm_alloc_set_ops(NULL);
	assert_int_equal(pool_frees, pool_allocs);
	assert_int_equal(pool_bytes, 0);
}

/* A port start failed at each library call and allocation in turn leaves nothing behind. */
static void
test_start_failure_leaves_nothing(void **state)
{
	const struct mlx5dm_flow_port port = {
		.ctx = (struct mlx5dm_ctx *)&dummy_ctx,
		.dom = { fake_domain(0), fake_domain(1) },
		.rqn = t_rqn,
	};
	struct mlx5dm_flow_priv *fp;
	unsigned int n, mode, failures = 0;
	struct fake_live l;
	long live;
	int ret;

	(void)state;
	test_alloc_count_install();
	for (mode = 0; mode < 2; mode++) {
		for (n = 1;; n++) {
			fp = t_fp_alloc();
			assert_non_null(fp);
			fake_reset();
			mlx5dm_flow_priv_init(fp, MLX5DM_SOCKET_ANY);
			live = test_alloc_live();
			if (mode == 0)
				fake_fail_at(n);
			else
				mlx5dm_alloc_fail_at(n);
			ret = mlx5dm_flow_objs_start(fp, &port);
			fake_fail_at(0);
			mlx5dm_alloc_fail_at(0);
			if (ret == 0) {
				t_fp_stop(fp);
				break;
			}
			failures++;
			fake_live_get(&l);
			assert_int_equal(l.tables + l.matchers + l.rules + l.actions, 0);
			assert_null(fake_domain(0)->root);
			assert_null(fake_domain(1)->root);
			assert_int_equal(test_alloc_live(), live);
			free(fp);
		}
	}
	assert_true(failures >= 4);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_start_stop),
		cmocka_unit_test(test_handles_reserved),
		cmocka_unit_test(test_drop_rule),
		cmocka_unit_test(test_sharing),
		cmocka_unit_test(test_jump),
		cmocka_unit_test(test_rss_rules),
		cmocka_unit_test(test_counter),
		cmocka_unit_test(test_action_order),
		cmocka_unit_test(test_failure_leaves_nothing),
		cmocka_unit_test(test_start_failure_leaves_nothing),
		cmocka_unit_test(test_largest_modify_list),
		cmocka_unit_test(test_duplicate_rule),
		cmocka_unit_test(test_action_sets),
		cmocka_unit_test(test_counter_reuse),
		cmocka_unit_test(test_counter_bulks),
		cmocka_unit_test(test_counter_kept_action),
		cmocka_unit_test(test_action_set_memo),
		cmocka_unit_test(test_mark_is_argument),
		cmocka_unit_test(test_modify_set_is_argument),
		cmocka_unit_test(test_template_memos),
		cmocka_unit_test(test_template_by_content),
		cmocka_unit_test(test_quick_begin),
		cmocka_unit_test(test_quick_shared),
		cmocka_unit_test(test_quick_destroy),
		cmocka_unit_test(test_quick_destroy_dump),
		cmocka_unit_test(test_mark_id_memos),
		cmocka_unit_test(test_handle_size),
		cmocka_unit_test(test_handles),
		cmocka_unit_test(test_caches_grow),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
