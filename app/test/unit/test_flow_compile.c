/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Compiled templates: every translation through a template of the rule's
 * shape must equal, field for field and error for error, the same
 * translation without one. Targeted cases check that the template is used
 * where it may be (hits counted) and not where a value matters; a random
 * run over patterns, masks, `last`s and actions compares both on thousands
 * of rules, most of them replays.
 */

#include <stdlib.h>

#include "test_flow_common.h"

#define ITEM(t, s, m) { .type = RTE_FLOW_ITEM_TYPE_##t, .spec = (s), .mask = (m) }
#define ITEM_L(t, s, l, m) { .type = RTE_FLOW_ITEM_TYPE_##t, .spec = (s), .last = (l), .mask = (m) }
#define END_ITEM { .type = RTE_FLOW_ITEM_TYPE_END }
#define ACT(t, c) { .type = RTE_FLOW_ACTION_TYPE_##t, .conf = (c) }
#define END_ACT { .type = RTE_FLOW_ACTION_TYPE_END }
#define IP4(a, b, c, d) RTE_BE32(((uint32_t)(a) << 24) | ((b) << 16) | ((c) << 8) | (d))

static const struct mlx5dm_flow_xctx t_plain = { .nb_rx_queues = 8 };

/* One translation's outcome. */
struct t_res {
	int ret;
	struct rte_flow_error err;
	struct mlx5dm_flow_spec spec;
};

static struct mlx5dm_flow_compiled *
t_shape_new(void)
{
	struct mlx5dm_flow_compiled *sh = calloc(1, sizeof(*sh));

	assert_non_null(sh);
	return sh;
}

#define T_ID_AT offsetof(struct mlx5dm_flow_spec, compiled)
#define T_ID_END offsetof(struct mlx5dm_flow_spec, layers)

/*
 * Equal translations, but for the cache's ids; without the values the
 * cache copies (match value, queue index, tag, jump group) if !values.
 */
static void
t_spec_same_(const struct mlx5dm_flow_spec *a, const struct mlx5dm_flow_spec *b, bool values)
{
	struct mlx5dm_flow_spec ha, hb;
	unsigned int i;

	memcpy(&ha, a, T_ID_AT);
	memcpy(&hb, b, T_ID_AT);
	if (!values) {
		hb.tag_value = ha.tag_value;
		hb.jump_group = ha.jump_group;
	}
	assert_memory_equal(&ha, &hb, T_ID_AT);
	assert_memory_equal((const uint8_t *)a + T_ID_END, (const uint8_t *)b + T_ID_END,
			    offsetof(struct mlx5dm_flow_spec, value) - T_ID_END);
	if (values)
		assert_memory_equal(a->value, b->value, sizeof(a->value));
	assert_int_equal(a->nb_queues, b->nb_queues);
	for (i = values ? 0 : 1; i < a->nb_queues; i++)
		assert_int_equal(a->queues[i], b->queues[i]);
	if (a->rss_types != 0)
		assert_memory_equal(a->rss_key, b->rss_key, sizeof(a->rss_key));
	for (i = 0; i < a->nb_sub; i++)
		assert_memory_equal(&a->sub[i], &b->sub[i], offsetof(struct mlx5dm_flow_sub, hint));
	assert_memory_equal(a->push, b->push, a->nb_push * sizeof(a->push[0]));
	assert_memory_equal(a->decap_data, b->decap_data, a->decap_len);
	assert_memory_equal(a->encap_data, b->encap_data, a->encap_len);
	assert_memory_equal(a->modify, b->modify, a->nb_modify * MLX5DM_MODIFY_ACTION_SIZE);
}

static void
t_spec_same(const struct mlx5dm_flow_spec *a, const struct mlx5dm_flow_spec *b)
{
	t_spec_same_(a, b, true);
}

/*
 * The promise of whole results (mlx5dm_flow.h): a whole result of a
 * template equals the first one since its last compile but for the values
 * a replay copies, and one with act_same has the same copied values too,
 * but for the MARK tag (the rule's argument, not an action parameter).
 */
static void
t_id_check(const struct mlx5dm_flow_spec *got, const struct mlx5dm_flow_compiled *ct)
{
	static struct mlx5dm_flow_spec kept;
	static const struct mlx5dm_flow_compiled *kept_ct;
	static uint64_t kept_compiles;

	assert_true(!got->act_same || got->whole);
	if (!got->whole)
		return;
	assert_ptr_equal(got->compiled, ct);
	if (kept_ct != ct || kept_compiles != ct->compiles) {
		mlx5dm_flow_spec_copy(&kept, got);
		kept_ct = ct;
		kept_compiles = ct->compiles;
		return;
	}
	t_spec_same_(got, &kept, false);
	if (got->act_same) {
		assert_int_equal(got->jump_group, kept.jump_group);
		if (got->nb_queues != 0)
			assert_int_equal(got->queues[0], kept.queues[0]);
	}
}

/* The port's Rx queue count of the next translations. */
static uint16_t t_rxq = 8;
/* Whether the last t_both() replayed the whole rule (the actions too). */
static bool t_rule;

/*
 * The pattern part of the shape key (all of it but the action types, which
 * an action replay compares itself) of the rule the template was last
 * compiled from (t_key_of: that template, NULL: none). As in the PMD, a
 * template only serves rules of its pattern shape: a rule of another one
 * gets a new template (sh forgotten).
 */
static uint8_t t_key[MLX5DM_FLOW_SHAPE_MAX] __rte_aligned(8);
static size_t t_key_len;
static const struct mlx5dm_flow_compiled *t_key_of;
static unsigned int t_known;    /* translations through a template of their shape */

/*
 * Translate with the cache (into its own output buffer when in_out, else
 * into a buffer of ours) and without; both must agree. Returns whether the
 * cache replayed the pattern (t_rule: the whole rule).
 */
static bool
t_both(struct mlx5dm_flow_compiled *sh, bool in_out, bool internal,
       const struct rte_flow_attr *attr, const struct rte_flow_item *items,
       const struct rte_flow_action *actions, int *ret)
{
	static struct t_res ref, got;
	struct mlx5dm_flow_xctx xc = t_plain;
	struct mlx5dm_flow_spec *out = in_out ? &sh->out : &got.spec;
	uint64_t hits = sh->hits, rule_hits = sh->rule_hits;
	uint8_t key[MLX5DM_FLOW_SHAPE_MAX] __rte_aligned(8);
	size_t len, n;
	uint32_t h;

	xc.internal = internal;
	xc.nb_rx_queues = t_rxq;
	len = mlx5dm_flow_shape_key(&xc, attr, items, actions, key, &h);
	for (n = 0; len != 0 && actions[n].type != RTE_FLOW_ACTION_TYPE_END; n++)
		len -= sizeof(uint32_t);
	memset(&ref, 0xa5, sizeof(ref));
	memset(&got.err, 0xa5, sizeof(got.err));
	ref.ret = mlx5dm_flow_translate(&xc, attr, items, actions, &ref.spec, &ref.err);
	/* No shape (no list, a range...): no template, as in the PMD. */
	xc.compiled = len != 0 ? sh : NULL;
	if (len == 0)
		out = &got.spec;
	else if (t_key_of == sh && len == t_key_len && memcmp(key, t_key, len) == 0)
		t_known++;
	else
		sh->valid = false;
	got.ret = mlx5dm_flow_translate(&xc, attr, items, actions, out, &got.err);
	/* Walked: compiled from this rule if valid (forgotten before, unless of its shape). */
	if (len != 0 && sh->hits == hits) {
		t_key_of = sh->valid && len != 0 ? sh : NULL;
		memcpy(t_key, key, len);
		t_key_len = len;
	}
	if (got.ret != ref.ret)
		fprintf(stderr, "cache %d (%s), none %d (%s)\n", got.ret,
			got.ret != 0 ? got.err.message : "", ref.ret,
			ref.ret != 0 ? ref.err.message : "");
	assert_int_equal(got.ret, ref.ret);
	assert_null(ref.spec.compiled);
	if (ref.ret == 0) {
		t_spec_same(out, &ref.spec);
		t_id_check(out, sh);
	} else {
		assert_int_equal(got.err.type, ref.err.type);
		assert_ptr_equal(got.err.cause, ref.err.cause);
		assert_ptr_equal(got.err.message, ref.err.message);
	}
	if (ret != NULL)
		*ret = ref.ret;
	t_rule = sh->rule_hits != rule_hits;
	/* A whole rule replayed is a pattern replayed. */
	assert_true(!t_rule || sh->hits != hits);
	return sh->hits != hits;
}

/* ---- targeted cases ---- */

static const struct rte_flow_item_ipv4 v4_dst_mask = { .hdr.dst_addr = RTE_BE32(0xffffffff) };
static const struct rte_flow_item_ipv4 v4_src_mask = { .hdr.src_addr = RTE_BE32(0xffffffff) };
static const struct rte_flow_action_queue q1 = { .index = 1 }, q100 = { .index = 100 };
static const struct rte_flow_action acts_q1[] = { ACT(QUEUE, &q1), END_ACT };
static const struct rte_flow_action acts_q100[] = { ACT(QUEUE, &q100), END_ACT };

/* flow-perf's pattern: ETH / IPV4 matching the destination, t_fp_v4. */
static struct rte_flow_item_ipv4 t_fp_v4;
static const struct rte_flow_item t_fp_items[] = {
	ITEM(ETH, NULL, NULL), ITEM(IPV4, &t_fp_v4, &v4_dst_mask), END_ITEM };

/* The pattern's IPv4 spec, back to destination 10.0.0.1 only. */
static struct rte_flow_item_ipv4 *
t_fp_reset(void)
{
	t_fp_v4 = (struct rte_flow_item_ipv4){ .hdr.dst_addr = IP4(10, 0, 0, 1) };
	return &t_fp_v4;
}

/* flow-perf's shape: ETH / IPV4 dst; only the address changes. */
static void
test_same_shape_replays(void **state)
{
	struct mlx5dm_flow_compiled *sh = t_shape_new();
	struct rte_flow_item_ipv4 *v4 = t_fp_reset();
	const struct rte_flow_item *items = t_fp_items;
	unsigned int i;
	int ret;

	(void)state;
	assert_false(t_both(sh, true, false, &t_attr_in, items, acts_q1, &ret));
	assert_int_equal(ret, 0);
	/* Into the cache's buffer (in place) or another one (a copy of the walk). */
	for (i = 0; i < 4; i++) {
		v4->hdr.dst_addr = IP4(10, 0, i, 2 + i);
		v4->hdr.src_addr = IP4(1, 2, 3, i); /* not matched: still the same shape */
		t_known = 0;
		assert_true(t_both(sh, i % 2 == 0, false, &t_attr_in, items, acts_q1, &ret));
		assert_int_equal(t_known, 1); /* as the PMD's implicit template of the shape */
		assert_int_equal(ret, 0);
		if (i % 2 == 0)
			assert_int_equal(mlx5dm_prm_get(sh->out.value, T_AT(S_DST_IP_31_0)),
					 (10u << 24) | (i << 8) | (2 + i));
	}
	free(sh);
}

/* Anything but the copied bits differs: the full walk, with its own result. */
static void
test_other_shapes_walk(void **state)
{
	struct mlx5dm_flow_compiled *sh = t_shape_new();
	struct rte_flow_item_ipv4 v4 = { .hdr.dst_addr = IP4(10, 0, 0, 1) };
	const struct rte_flow_item_ipv4 v4_last = { .hdr.dst_addr = IP4(10, 0, 0, 255) };
	const struct rte_flow_item_ipv4 net_mask = { .hdr.dst_addr = RTE_BE32(0xffffff00) };
	const struct rte_flow_item base[] = {
		ITEM(ETH, NULL, NULL), ITEM(IPV4, &v4, &v4_dst_mask), END_ITEM };
	const struct rte_flow_item other_mask[] = {
		ITEM(ETH, NULL, NULL), ITEM(IPV4, &v4, &v4_src_mask), END_ITEM };
	const struct rte_flow_item narrower[] = {
		ITEM(ETH, NULL, NULL), ITEM(IPV4, &v4, &net_mask), END_ITEM };
	const struct rte_flow_item ranged[] = {
		ITEM(ETH, NULL, NULL), ITEM_L(IPV4, &v4, &v4_last, &v4_dst_mask), END_ITEM };
	const struct rte_flow_item longer[] = {
		ITEM(ETH, NULL, NULL), ITEM(IPV4, &v4, &v4_dst_mask), ITEM(UDP, NULL, NULL),
		END_ITEM };
	const struct rte_flow_item no_spec[] = {
		ITEM(ETH, NULL, NULL), ITEM(IPV4, NULL, NULL), END_ITEM };
	const struct rte_flow_item mask_no_spec[] = {
		ITEM(ETH, NULL, &v4_dst_mask), ITEM(IPV4, NULL, NULL), END_ITEM };
	const struct rte_flow_item voided[] = {
		ITEM(ETH, NULL, NULL), ITEM(VOID, NULL, NULL), ITEM(IPV4, &v4, &v4_dst_mask),
		END_ITEM };
	const struct rte_flow_attr in_p1 = { .ingress = 1, .priority = 1 };

	(void)state;
	assert_false(t_both(sh, true, false, &t_attr_in, base, acts_q1, NULL));
	assert_false(t_both(sh, true, false, &t_attr_in, other_mask, acts_q1, NULL));
	assert_false(t_both(sh, true, false, &t_attr_in, base, acts_q1, NULL));
	assert_false(t_both(sh, true, false, &t_attr_in, narrower, acts_q1, NULL));
	assert_false(t_both(sh, true, false, &t_attr_in, base, acts_q1, NULL));
	/* A range is no shape: translated without a template, which stays as it was. */
	assert_false(t_both(sh, true, false, &t_attr_in, ranged, acts_q1, NULL));
	assert_false(t_both(sh, true, false, &t_attr_in, ranged, acts_q1, NULL));
	assert_true(t_both(sh, false, false, &t_attr_in, base, acts_q1, NULL));
	assert_false(t_both(sh, false, false, &t_attr_in, longer, acts_q1, NULL));
	assert_false(t_both(sh, false, false, &t_attr_in, base, acts_q1, NULL));
	assert_false(t_both(sh, false, false, &t_attr_in, no_spec, acts_q1, NULL));
	assert_false(t_both(sh, false, false, &t_attr_in, mask_no_spec, acts_q1, NULL));
	assert_false(t_both(sh, true, false, &t_attr_in, voided, acts_q1, NULL));
	assert_true(t_both(sh, true, false, &t_attr_in, voided, acts_q1, NULL));
	/* Attributes and the internal flag are part of the shape. */
	assert_false(t_both(sh, true, false, &t_attr_in_g1, voided, acts_q1, NULL));
	assert_false(t_both(sh, true, false, &in_p1, voided, acts_q1, NULL));
	assert_false(t_both(sh, true, true, &in_p1, voided, acts_q1, NULL));
	assert_true(t_both(sh, true, true, &in_p1, voided, acts_q1, NULL));
	assert_false(t_both(sh, true, false, &in_p1, voided, acts_q1, NULL));
	free(sh);
}

/* Actions always run: another list, or a refused one, after a kept pattern. */
static void
test_actions_after_replay(void **state)
{
	struct mlx5dm_flow_compiled *sh = t_shape_new();
	struct rte_flow_item_ipv4 *v4 = t_fp_reset();
	const struct rte_flow_item *items = t_fp_items;
	const struct rte_flow_action_mark mark = { .id = 7 }, bad_mark = { .id = 0xffffff };
	const struct rte_flow_action acts_mark[] = {
		ACT(COUNT, NULL), ACT(MARK, &mark), ACT(QUEUE, &q1), END_ACT };
	const struct rte_flow_action acts_bad_mark[] = {
		ACT(MARK, &bad_mark), ACT(QUEUE, &q1), END_ACT };
	const struct rte_flow_action acts_drop[] = { ACT(DROP, NULL), END_ACT };
	int ret;

	(void)state;
	assert_false(t_both(sh, true, false, &t_attr_in, items, acts_q1, &ret));
	v4->hdr.dst_addr = IP4(10, 0, 0, 2);
	assert_true(t_both(sh, true, false, &t_attr_in, items, acts_q100, &ret));
	assert_int_equal(ret, -EINVAL);
	assert_true(t_both(sh, true, false, &t_attr_in, items, acts_mark, &ret));
	assert_int_equal(ret, 0);
	assert_true(t_both(sh, true, false, &t_attr_in, items, acts_bad_mark, &ret));
	assert_int_equal(ret, -ENOTSUP);
	assert_true(t_both(sh, false, false, &t_attr_in, items, acts_drop, &ret));
	assert_int_equal(ret, 0);
	/* No action list: no shape, so no template. */
	assert_false(t_both(sh, true, false, &t_attr_in, items, NULL, &ret));
	assert_int_equal(ret, -EINVAL);
	/* Attribute errors come first, and keep the shape. */
	assert_false(t_both(sh, true, false, NULL, items, acts_q1, &ret));
	assert_int_equal(ret, -EINVAL);
	assert_true(t_both(sh, true, false, &t_attr_in, items, acts_q1, &ret));
	free(sh);
}

/* Spec bits hooks read, or that meet another item's writes, are compared, not copied. */
static void
test_values_that_matter(void **state)
{
	struct mlx5dm_flow_compiled *sh = t_shape_new();
	const struct rte_flow_item_eth eth_type_mask = { .hdr.ether_type = RTE_BE16(0xffff) };
	struct rte_flow_item_eth eth = { .hdr.ether_type = RTE_BE16(RTE_ETHER_TYPE_IPV4) };
	const struct rte_flow_item_ipv4 proto_mask = { .hdr.next_proto_id = 0xff };
	const struct rte_flow_item_ipv4 frag_mask = { .hdr.fragment_offset = RTE_BE16(0x3fff) };
	struct rte_flow_item_ipv4 v4 = { .hdr.next_proto_id = IPPROTO_TCP };
	const struct rte_flow_item with_type[] = {
		ITEM(ETH, &eth, &eth_type_mask), ITEM(IPV4, NULL, NULL), END_ITEM };
	const struct rte_flow_item with_tcp[] = {
		ITEM(ETH, NULL, NULL), ITEM(IPV4, &v4, &proto_mask), ITEM(TCP, NULL, NULL),
		END_ITEM };
	const struct rte_flow_item with_frag[] = {
		ITEM(ETH, NULL, NULL), ITEM(IPV4, &v4, &frag_mask), END_ITEM };
	int ret;

	(void)state;
	/* EtherType: read by the ETH hook, then checked against IPV4. */
	assert_false(t_both(sh, true, false, &t_attr_in, with_type, acts_q1, &ret));
	assert_int_equal(ret, 0);
	eth.hdr.ether_type = RTE_BE16(RTE_ETHER_TYPE_IPV6);
	assert_false(t_both(sh, true, false, &t_attr_in, with_type, acts_q1, &ret));
	assert_int_equal(ret, -EINVAL);
	eth.hdr.ether_type = RTE_BE16(RTE_ETHER_TYPE_VLAN);
	assert_false(t_both(sh, true, false, &t_attr_in, with_type, acts_q1, &ret));
	/* ip_protocol: written by IPV4 and implied by TCP, so a contradiction counts. */
	assert_false(t_both(sh, true, false, &t_attr_in, with_tcp, acts_q1, &ret));
	assert_int_equal(ret, 0);
	v4.hdr.next_proto_id = IPPROTO_UDP;
	assert_false(t_both(sh, true, false, &t_attr_in, with_tcp, acts_q1, &ret));
	assert_int_equal(ret, -EINVAL);
	/* fragment_offset: read by the IPV4 hook, spec 0 or 1 only. */
	v4.hdr.fragment_offset = 0;
	assert_false(t_both(sh, true, false, &t_attr_in, with_frag, acts_q1, &ret));
	assert_int_equal(ret, 0);
	v4.hdr.fragment_offset = RTE_BE16(2);
	assert_false(t_both(sh, true, false, &t_attr_in, with_frag, acts_q1, &ret));
	assert_int_equal(ret, -ENOTSUP);
	v4.hdr.fragment_offset = 0;
	assert_false(t_both(sh, true, false, &t_attr_in, with_frag, acts_q1, &ret));
	/* DF (beyond the mask) is ignored: still "not a fragment", and no replay of 0. */
	v4.hdr.fragment_offset = RTE_BE16(0x4000);
	assert_false(t_both(sh, true, false, &t_attr_in, with_frag, acts_q1, &ret));
	assert_int_equal(ret, 0);
	free(sh);
}

/* Copied fields the actions read (RSS kinds, pushed VLAN ID) get the new values. */
static void
test_copies_actions_read(void **state)
{
	struct mlx5dm_flow_compiled *sh = t_shape_new();
	const uint16_t queues[] = { 0, 1, 2, 3 };
	const struct rte_flow_action_rss rss = {
		.types = RTE_ETH_RSS_IP | RTE_ETH_RSS_NONFRAG_IPV4_TCP, .queue_num = 4,
		.queue = queues };
	const struct rte_flow_action acts_rss[] = { ACT(RSS, &rss), END_ACT };
	const struct rte_flow_item_ipv4 proto_mask = { .hdr.next_proto_id = 0xff };
	struct rte_flow_item_ipv4 v4 = { .hdr.next_proto_id = IPPROTO_TCP };
	const struct rte_flow_item with_proto[] = {
		ITEM(ETH, NULL, NULL), ITEM(IPV4, &v4, &proto_mask), END_ITEM };
	const struct rte_flow_item_vlan vid_mask = { .hdr.vlan_tci = RTE_BE16(0x0fff) };
	struct rte_flow_item_vlan vlan = { .hdr.vlan_tci = RTE_BE16(0x0123) };
	const struct rte_flow_item with_vlan[] = {
		ITEM(ETH, NULL, NULL), ITEM(VLAN, &vlan, &vid_mask), END_ITEM };
	const struct rte_flow_action_of_push_vlan push = {
		.ethertype = RTE_BE16(RTE_ETHER_TYPE_VLAN) };
	const struct rte_flow_action_jump jump = { .group = 2 };
	const struct rte_flow_action acts_push[] = {
		ACT(OF_PUSH_VLAN, &push), ACT(JUMP, &jump), END_ACT };
	int ret;

	(void)state;
	assert_false(t_both(sh, true, false, &t_attr_in, with_proto, acts_rss, &ret));
	assert_int_equal(ret, 0);
	assert_int_equal(sh->out.nb_sub, 1);
	assert_true(sh->out.sub[0].hash);
	v4.hdr.next_proto_id = IPPROTO_UDP;
	assert_true(t_both(sh, true, false, &t_attr_in, with_proto, acts_rss, &ret));
	assert_int_equal(ret, 0);
	assert_true(sh->out.sub[0].hash);
	assert_int_equal(sh->out.sub[0].rss.fields, MLX5DM_RSS_SRC_IP | MLX5DM_RSS_DST_IP);
	assert_false(t_both(sh, true, false, &t_attr_out, with_vlan, acts_push, &ret));
	assert_int_equal(ret, 0);
	vlan.hdr.vlan_tci = RTE_BE16(0x0456);
	assert_true(t_both(sh, true, false, &t_attr_out, with_vlan, acts_push, &ret));
	assert_int_equal(ret, 0);
	assert_int_equal(sh->out.push[0].tci, 0x456);
	free(sh);
}

/* A refused mask after a replay blames the item of the new pattern. */
static void
test_check_error_after_replay(void **state)
{
	struct mlx5dm_flow_compiled *sh = t_shape_new();
	const struct rte_flow_item_mpls mpls1 = { .label_tc_s = { 0, 0x10, 0 } };
	const struct rte_flow_item_mpls mpls2 = { .label_tc_s = { 0, 0x20, 0 } };
	const struct rte_flow_item a[] = {
		ITEM(ETH, NULL, NULL), ITEM(IPV4, NULL, NULL), ITEM(GRE, NULL, NULL),
		ITEM(MPLS, &mpls1, NULL), END_ITEM };
	const struct rte_flow_item b[] = {
		ITEM(ETH, NULL, NULL), ITEM(IPV4, NULL, NULL), ITEM(GRE, NULL, NULL),
		ITEM(MPLS, &mpls2, NULL), END_ITEM };
	const struct rte_flow_action drop[] = { ACT(DROP, NULL), END_ACT };
	struct mlx5dm_flow_xctx xc = { .nb_rx_queues = 8, .compiled = sh };
	struct rte_flow_error err;
	int ret;

	(void)state;
	assert_false(t_both(sh, true, false, &t_attr_in, a, drop, &ret));
	assert_int_equal(ret, -ENOTSUP);
	assert_true(t_both(sh, true, false, &t_attr_in, b, drop, &ret));
	assert_int_equal(ret, -ENOTSUP);
	assert_int_equal(mlx5dm_flow_translate(&xc, &t_attr_in, b, drop, &sh->out, &err),
			 -ENOTSUP);
	assert_ptr_equal(err.cause, &b[3]);
	free(sh);
}

/*
 * A rule of the kept shape with an action list of the kept kinds is
 * replayed whole: its own match value and action values (queue, mark,
 * jump group), the kept result otherwise, one id for all of them. Values
 * the walk refuses, another list (or a missing configuration) take the
 * walk again, with its verdict.
 */
static void
test_rule_replays(void **state)
{
	struct mlx5dm_flow_compiled *sh = t_shape_new();
	struct rte_flow_item_ipv4 *v4 = t_fp_reset();
	const struct rte_flow_item *items = t_fp_items;
	struct rte_flow_action_queue q = { .index = 1 };
	struct rte_flow_action_mark mark = { .id = 5 };
	struct rte_flow_action_jump jump = { .group = 3 };
	const struct rte_flow_action acts[] = {
		ACT(COUNT, NULL), ACT(MARK, &mark), ACT(QUEUE, &q), END_ACT };
	const struct rte_flow_action acts_jump[] = {
		ACT(VOID, NULL), ACT(MARK, &mark), ACT(JUMP, &jump), END_ACT };
	const struct rte_flow_action acts_flag[] = { ACT(FLAG, NULL), ACT(DROP, NULL), END_ACT };
	const struct rte_flow_action acts_short[] = { ACT(COUNT, NULL), ACT(MARK, &mark), END_ACT };
	const struct rte_flow_action acts_long[] = {
		ACT(COUNT, NULL), ACT(MARK, &mark), ACT(QUEUE, &q), ACT(COUNT, NULL), END_ACT };
	const struct rte_flow_action acts_no_conf[] = {
		ACT(COUNT, NULL), ACT(MARK, &mark), ACT(QUEUE, NULL), END_ACT };
	uint64_t id;
	unsigned int i;
	int ret;

	(void)state;
	assert_false(t_both(sh, true, false, &t_attr_in, items, acts, &ret));
	assert_int_equal(ret, 0);
	assert_ptr_equal(sh->out.compiled, sh);
	assert_true(sh->out.whole && sh->out.act_same);
	id = sh->compiles;
	for (i = 0; i < 6; i++) {
		v4->hdr.dst_addr = IP4(10, 1, i, 7);
		assert_true(t_both(sh, i % 2 == 0, false, &t_attr_in, items, acts, &ret));
		assert_true(t_rule);
		assert_int_equal(ret, 0);
		if (i % 2 == 0) {
			assert_int_equal(sh->compiles, id);
			assert_int_equal(mlx5dm_prm_get(sh->out.value, T_AT(S_DST_IP_31_0)),
					 (10u << 24) | (1u << 16) | (i << 8) | 7);
		}
	}
	/* Another queue and mark: their values, other action parameters (not act_same). */
	q.index = 2;
	assert_true(t_both(sh, true, false, &t_attr_in, items, acts, &ret));
	assert_true(t_rule);
	assert_int_equal(sh->out.queues[0], 2);
	assert_int_equal(sh->compiles, id);
	assert_true(sh->out.whole);
	assert_false(sh->out.act_same);
	mark.id = 6;
	assert_true(t_both(sh, true, false, &t_attr_in, items, acts, &ret));
	assert_true(t_rule);
	assert_int_equal(sh->out.tag_value, 7);
	assert_false(sh->out.act_same);
	/* Only the mark new: the kept parameters (the tag is the rule's argument). */
	q.index = 1;
	assert_true(t_both(sh, true, false, &t_attr_in, items, acts, &ret));
	assert_true(t_rule);
	assert_int_equal(sh->out.tag_value, 7);
	assert_true(sh->out.act_same);
	/* Back to the kept values: the kept parameters. */
	q.index = 1;
	mark.id = 5;
	assert_true(t_both(sh, true, false, &t_attr_in, items, acts, &ret));
	assert_true(t_rule);
	assert_true(sh->out.act_same);
	assert_int_equal(sh->out.queues[0], 1);
	assert_int_equal(sh->out.tag_value, 6);
	/* Values the walk refuses (queue beyond the port's count, mark too large): its verdict. */
	t_rxq = 1;
	assert_true(t_both(sh, true, false, &t_attr_in, items, acts, &ret));
	assert_false(t_rule);
	assert_int_equal(ret, -EINVAL);
	t_rxq = 8;
	q.index = 8;
	assert_true(t_both(sh, true, false, &t_attr_in, items, acts, &ret));
	assert_false(t_rule);
	assert_int_equal(ret, -EINVAL);
	q.index = 7;
	mark.id = 0xfffffe;
	assert_true(t_both(sh, true, false, &t_attr_in, items, acts, &ret));
	assert_false(t_rule);
	assert_int_equal(ret, -ENOTSUP);
	mark.id = 0xfffffd;
	assert_true(t_both(sh, false, false, &t_attr_in, items, acts, &ret));
	assert_true(t_rule);
	assert_true(t_both(sh, true, false, &t_attr_in, items, acts, &ret));
	assert_true(t_rule);
	assert_int_equal(sh->compiles, id);
	/* Shorter, longer, a missing configuration: their own walks and verdicts. */
	assert_true(t_both(sh, true, false, &t_attr_in, items, acts_short, &ret));
	assert_false(t_rule);
	assert_int_equal(ret, -EINVAL);
	assert_true(t_both(sh, true, false, &t_attr_in, items, acts_long, &ret));
	assert_false(t_rule);
	assert_int_equal(ret, -ENOTSUP);
	assert_true(t_both(sh, true, false, &t_attr_in, items, acts_no_conf, &ret));
	assert_false(t_rule);
	assert_int_equal(ret, -EINVAL);
	assert_true(t_both(sh, true, false, &t_attr_in, items, acts, &ret));
	assert_true(t_rule);
	/* MARK with JUMP (the id in a modify entry: compared), then other groups; FLAG, DROP. */
	for (i = 0; i < 2; i++) {
		assert_true(t_both(sh, true, false, &t_attr_in, items, acts_jump, &ret));
		assert_int_equal(t_rule, i == 1);
		assert_int_equal(sh->out.nb_modify, 1);
	}
	jump.group = 4;
	assert_true(t_both(sh, true, false, &t_attr_in, items, acts_jump, &ret));
	assert_true(t_rule);
	assert_int_equal(sh->out.jump_group, 4);
	mark.id = 9;
	assert_true(t_both(sh, true, false, &t_attr_in, items, acts_jump, &ret));
	assert_false(t_rule);
	assert_true(t_both(sh, true, false, &t_attr_in, items, acts_jump, &ret));
	assert_true(t_rule);
	jump.group = 0; /* not above the rule's group */
	assert_true(t_both(sh, true, false, &t_attr_in, items, acts_jump, &ret));
	assert_false(t_rule);
	assert_int_equal(ret, -ENOTSUP);
	jump.group = UINT32_MAX; /* beyond the last group */
	assert_true(t_both(sh, true, false, &t_attr_in, items, acts_jump, &ret));
	assert_false(t_rule);
	assert_int_equal(ret, -ENOTSUP);
	for (i = 0; i < 2; i++) {
		assert_true(t_both(sh, i == 0, false, &t_attr_in, items, acts_flag, &ret));
		assert_int_equal(t_rule, i == 1);
	}
	/* Egress: the same list is refused (QUEUE, MARK are ingress actions). */
	assert_false(t_both(sh, true, false, &t_attr_out, items, acts, &ret));
	assert_int_equal(ret, -ENOTSUP);
	free(sh);
}

/*
 * The cache's own buffer holds a whole result only while nothing else was
 * written into it: a list kept from another buffer, or a translation into
 * it that failed after clearing it, make the next replay rewrite it.
 */
static void
test_rule_replay_buffers(void **state)
{
	struct mlx5dm_flow_compiled *sh = t_shape_new();
	struct rte_flow_item_ipv4 *v4 = t_fp_reset();
	const struct rte_flow_item *items = t_fp_items;
	const struct rte_flow_action_queue q2 = { .index = 2 };
	const struct rte_flow_action acts_q2[] = { ACT(COUNT, NULL), ACT(QUEUE, &q2), END_ACT };
	int ret;

	(void)state;
	assert_false(t_both(sh, true, false, &t_attr_in, items, acts_q1, &ret));
	/* Another list kept from another buffer: the cache's still holds the first. */
	assert_true(t_both(sh, false, false, &t_attr_in, items, acts_q2, &ret));
	assert_false(t_rule);
	assert_false(sh->out.count);
	assert_true(t_both(sh, true, false, &t_attr_in, items, acts_q2, &ret));
	assert_true(t_rule);
	assert_true(sh->out.count);
	assert_int_equal(sh->out.queues[0], 2);
	/* A translation into it that fails on its attributes keeps shape and list. */
	assert_false(t_both(sh, true, false, NULL, items, acts_q2, &ret));
	assert_int_equal(ret, -EINVAL);
	v4->hdr.dst_addr = IP4(10, 0, 0, 9);
	assert_true(t_both(sh, true, false, &t_attr_in, items, acts_q2, &ret));
	assert_true(t_rule);
	assert_int_equal(ret, 0);
	/* One that fails in its actions after a pattern replay. */
	assert_true(t_both(sh, true, false, &t_attr_in, items, acts_q100, &ret));
	assert_int_equal(ret, -EINVAL);
	assert_true(t_both(sh, true, false, &t_attr_in, items, acts_q2, &ret));
	assert_true(t_rule);
	/* Another shape and back: everything again. */
	assert_false(t_both(sh, true, false, &t_attr_in_g1, items, acts_q2, &ret));
	assert_false(t_both(sh, true, false, &t_attr_in, items, acts_q2, &ret));
	assert_true(t_both(sh, true, false, &t_attr_in, items, acts_q2, &ret));
	assert_true(t_rule);
	free(sh);
}

/* ---- random rules ---- */

static uint64_t t_rng = 0x9e3779b97f4a7c15ull;

static unsigned int
t_rand(unsigned int n)
{
	t_rng ^= t_rng << 13;
	t_rng ^= t_rng >> 7;
	t_rng ^= t_rng << 17;
	return (unsigned int)(t_rng >> 33) % n;
}

/* Storage of one random rule. */
struct t_rule {
	struct rte_flow_attr attr;
	struct rte_flow_item items[10];
	struct rte_flow_action actions[5];
	struct rte_flow_item_eth eth, eth_m, eth2;
	struct rte_flow_item_vlan vlan, vlan_m;
	struct rte_flow_item_ipv4 v4, v4_m, v4_l, v4i;
	struct rte_flow_item_ipv6 v6, v6_m;
	struct rte_flow_item_udp udp, udp_m;
	struct rte_flow_item_tcp tcp, tcp_m;
	struct rte_flow_item_vxlan vxlan;
	struct rte_flow_item_meta meta, meta_m;
	struct rte_flow_item_mark mark_i;
	struct rte_flow_action_queue queue;
	struct rte_flow_action_rss rss;
	struct rte_flow_action_mark mark;
	struct rte_flow_action_jump jump;
	struct rte_flow_action_of_push_vlan push;
	struct rte_flow_action_of_set_vlan_vid vid;
};

static const uint16_t t_queues[] = { 0, 1, 2, 3 };

static uint32_t
t_pick32(const uint32_t *v, unsigned int n)
{
	return v[t_rand(n)];
}

/* Values from small sets, special ones (TPIDs, protocols, fragment flags) included. */
static void
t_values(struct t_rule *r)
{
	static const uint32_t types[] = { 0x0800, 0x86dd, 0x8100, 0x88a8, 0x1234 };
	static const uint32_t protos[] = { 6, 17, 1, 47 };
	static const uint32_t frags[] = { 0, 1, 2, 0x3fff };
	unsigned int i;

	for (i = 0; i < 6; i++)
		r->eth.hdr.dst_addr.addr_bytes[i] = (uint8_t)t_rand(3);
	r->eth.hdr.ether_type = rte_cpu_to_be_16((uint16_t)t_pick32(types, RTE_DIM(types)));
	r->eth.has_vlan = t_rand(2);
	r->vlan.hdr.vlan_tci = rte_cpu_to_be_16((uint16_t)t_rand(0x10000));
	r->vlan.hdr.eth_proto = rte_cpu_to_be_16((uint16_t)t_pick32(types, RTE_DIM(types)));
	r->v4.hdr.dst_addr = rte_cpu_to_be_32(0x0a000000u | t_rand(1u << 24));
	r->v4.hdr.src_addr = rte_cpu_to_be_32(t_rand(4));
	r->v4.hdr.next_proto_id = (uint8_t)t_pick32(protos, RTE_DIM(protos));
	r->v4.hdr.fragment_offset = rte_cpu_to_be_16((uint16_t)t_pick32(frags, RTE_DIM(frags)));
	r->v4.hdr.type_of_service = (uint8_t)t_rand(256);
	r->v4.hdr.time_to_live = (uint8_t)t_rand(3);
	r->v4_l = r->v4;
	r->v4_l.hdr.dst_addr |= t_rand(2) ? RTE_BE32(0xff) : 0;
	r->v4_l.hdr.fragment_offset = t_rand(2) ? RTE_BE16(0x3fff) : 0;
	r->v4i = r->v4;
	r->v4i.hdr.dst_addr = rte_cpu_to_be_32(0xc0a80000u | t_rand(256));
	r->v6.hdr.dst_addr[15] = (uint8_t)t_rand(256);
	r->v6.hdr.proto = (uint8_t)t_pick32(protos, RTE_DIM(protos));
	r->v6.hdr.vtc_flow = rte_cpu_to_be_32(0x60000000u | t_rand(1u << 20));
	r->udp.hdr.dst_port = rte_cpu_to_be_16(t_rand(2) ? 4789 : (uint16_t)t_rand(65536));
	r->udp.hdr.src_port = rte_cpu_to_be_16((uint16_t)t_rand(4));
	r->tcp.hdr.dst_port = rte_cpu_to_be_16((uint16_t)t_rand(65536));
	r->tcp.hdr.tcp_flags = (uint8_t)t_rand(4);
	r->vxlan.hdr.vx_vni = rte_cpu_to_be_32(t_rand(1u << 24) << 8);
	r->meta.data = t_rand(8);
	r->mark_i.id = t_rand(3) == 0 ? 0xffffff : t_rand(100);
}

/* One of a few masks per item; `which` is part of the shape the run repeats. */
static void
t_masks(struct t_rule *r, unsigned int which)
{
	memset(&r->eth_m, 0, sizeof(r->eth_m));
	memset(&r->vlan_m, 0, sizeof(r->vlan_m));
	memset(&r->v4_m, 0, sizeof(r->v4_m));
	memset(&r->v6_m, 0, sizeof(r->v6_m));
	memset(&r->udp_m, 0, sizeof(r->udp_m));
	memset(&r->tcp_m, 0, sizeof(r->tcp_m));
	memset(&r->meta_m, 0, sizeof(r->meta_m));
	switch (which % 5) {
	case 0:
		r->v4_m.hdr.dst_addr = RTE_BE32(0xffffffff);
		r->eth_m.hdr.ether_type = RTE_BE16(0xffff);
		r->v6_m.hdr.dst_addr[15] = 0xff;
		r->tcp_m.hdr.dst_port = RTE_BE16(0xffff);
		r->udp_m.hdr.dst_port = RTE_BE16(0xffff);
		break;
	case 1:
		r->v4_m.hdr.dst_addr = RTE_BE32(0xffffff00);
		r->v4_m.hdr.next_proto_id = 0xff;
		memset(r->eth_m.hdr.dst_addr.addr_bytes, 0xff, 6);
		r->v6_m.hdr.proto = 0xff;
		r->v6_m.hdr.vtc_flow = RTE_BE32(0x000fffff);
		r->tcp_m.hdr.tcp_flags = 0xff;
		break;
	case 2:
		r->v4_m.hdr.fragment_offset = RTE_BE16(0x3fff);
		r->v4_m.hdr.type_of_service = 0xfc;
		r->eth_m.has_vlan = 1;
		r->udp_m.hdr.src_port = RTE_BE16(0xffff);
		break;
	case 3:
		r->v4_m.hdr.src_addr = RTE_BE32(0xffffffff);
		r->v4_m.hdr.time_to_live = 0xff;
		r->vlan_m.hdr.vlan_tci = RTE_BE16(0x0fff);
		r->vlan_m.hdr.eth_proto = RTE_BE16(0xffff);
		break;
	default:
		r->vlan_m.hdr.vlan_tci = RTE_BE16(0xefff);
		r->v4_m.hdr.dst_addr = RTE_BE32(0xffffffff);
		r->v4_m.hdr.next_proto_id = 0xff;
		break;
	}
	r->meta_m.data = which & 1 ? 0xffff : 0xff00ff;
}

static unsigned int
t_pattern(struct t_rule *r, unsigned int tmpl, unsigned int which)
{
	struct rte_flow_item *it = r->items;
	bool null_mask = which >= 5, ranged = which == 7, spec_less = which == 8;

#define PUT(t, s, m) (*it++ = (struct rte_flow_item){ .type = RTE_FLOW_ITEM_TYPE_##t, \
		.spec = (s), .mask = null_mask ? NULL : (m) })
	switch (tmpl) {
	case 0: /* flow-perf */
		PUT(ETH, NULL, NULL);
		PUT(IPV4, &r->v4, &r->v4_m);
		break;
	case 1:
		PUT(ETH, &r->eth, &r->eth_m);
		PUT(IPV4, spec_less ? NULL : &r->v4, spec_less ? NULL : &r->v4_m);
		PUT(TCP, &r->tcp, &r->tcp_m);
		break;
	case 2:
		PUT(ETH, &r->eth, &r->eth_m);
		PUT(VLAN, &r->vlan, &r->vlan_m);
		PUT(IPV4, &r->v4, &r->v4_m);
		break;
	case 3:
		PUT(ETH, NULL, NULL);
		PUT(IPV6, &r->v6, &r->v6_m);
		PUT(UDP, &r->udp, &r->udp_m);
		break;
	case 4:
		PUT(ETH, NULL, NULL);
		PUT(IPV4, &r->v4, &r->v4_m);
		PUT(UDP, &r->udp, &r->udp_m);
		PUT(VXLAN, &r->vxlan, NULL);
		PUT(ETH, NULL, NULL);
		PUT(IPV4, &r->v4i, &r->v4_m);
		break;
	default:
		PUT(META, &r->meta, &r->meta_m);
		PUT(VOID, NULL, NULL);
		PUT(MARK, &r->mark_i, NULL);
		PUT(ETH, &r->eth, &r->eth_m);
		break;
	}
#undef PUT
	if (ranged && r->items[1].type == RTE_FLOW_ITEM_TYPE_IPV4)
		r->items[1].last = &r->v4_l;
	*it = (struct rte_flow_item){ .type = RTE_FLOW_ITEM_TYPE_END };
	return (unsigned int)(it - r->items);
}

/* Configurations: new values when vary, else those of the rule before. */
static void
t_actions(struct t_rule *r, unsigned int kind, bool vary)
{
	static const uint64_t rss_types[] = {
		0, RTE_ETH_RSS_IP, RTE_ETH_RSS_IP | RTE_ETH_RSS_UDP | RTE_ETH_RSS_TCP,
		RTE_ETH_RSS_NONFRAG_IPV4_TCP };
	struct rte_flow_action *a = r->actions;

	if (vary) {
		r->queue.index = (uint16_t)t_rand(10); /* 8 queues (3 at times): some refused */
		r->mark.id = t_rand(8) == 0 ? 0xffffff : t_rand(1000);
		r->jump.group = t_rand(3);
		r->rss = (struct rte_flow_action_rss){
			.types = rss_types[t_rand(RTE_DIM(rss_types))],
			.queue_num = 1 + t_rand(4), .queue = t_queues,
			.level = t_rand(3) == 0 ? 2 : 0 };
		r->vid.vlan_vid = rte_cpu_to_be_16((uint16_t)t_rand(0x1000));
	}
	r->push.ethertype = RTE_BE16(RTE_ETHER_TYPE_VLAN);
#define PUT(t, c) (*a++ = (struct rte_flow_action){ .type = RTE_FLOW_ACTION_TYPE_##t, \
		.conf = (c) })
	switch (kind) {
	case 0:
		PUT(QUEUE, &r->queue);
		break;
	case 1:
		PUT(COUNT, NULL);
		PUT(MARK, &r->mark);
		PUT(QUEUE, &r->queue);
		break;
	case 2:
		PUT(RSS, &r->rss);
		break;
	case 3:
		PUT(OF_PUSH_VLAN, &r->push);
		if (t_rand(2))
			PUT(OF_SET_VLAN_VID, &r->vid);
		PUT(JUMP, &r->jump);
		break;
	case 4:
		PUT(DROP, NULL);
		break;
	case 5:
		PUT(JUMP, &r->jump);
		break;
	case 6:
		PUT(FLAG, NULL);
		PUT(COUNT, NULL);
		PUT(QUEUE, &r->queue);
		break;
	default:
		PUT(VOID, NULL);
		PUT(MARK, &r->mark);
		PUT(JUMP, &r->jump);
		break;
	}
#undef PUT
	*a = (struct rte_flow_action){ .type = RTE_FLOW_ACTION_TYPE_END };
}

static void
test_random_rules(void **state)
{
	struct mlx5dm_flow_compiled *sh = t_shape_new();
	static struct t_rule r;
	unsigned int n, tmpl = 0, which = 0, acts = 0, ok = 0, replays = 0, rules = 0;
	int ret;

	(void)state;
	t_known = 0;
	for (n = 0; n < 8000; n++) {
		/* Mostly the shape of the rule before, with new values. */
		if (t_rand(4) == 0) {
			tmpl = t_rand(6);
			which = t_rand(9);
			acts = t_rand(8);
			r.attr = (struct rte_flow_attr){ .group = t_rand(2), .priority = t_rand(2),
							  .ingress = t_rand(8) != 0 };
			r.attr.egress = !r.attr.ingress;
		}
		memset(&r.eth, 0, offsetof(struct t_rule, queue) - offsetof(struct t_rule, eth));
		t_values(&r);
		t_masks(&r, which);
		t_pattern(&r, tmpl, which);
		/* ... and mostly the action list before, configurations included. */
		t_actions(&r, t_rand(3) == 0 ? t_rand(8) : acts, t_rand(3) == 0);
		t_rxq = t_rand(10) == 0 ? 3 : 8;
		replays += t_both(sh, n % 3 != 0, false, &r.attr, r.items, r.actions, &ret);
		rules += t_rule;
		ok += ret == 0;
	}
	t_rxq = 8;
	fprintf(stderr, "%u rules: %u translated, %u replays, %u whole, %u of a known shape\n",
		n, ok, replays, rules, t_known);
	/* Both outcomes, and replays (whole ones too), are common; known shapes too. */
	assert_true(ok > 800 && ok < 7200);
	assert_true(replays > 1300);
	assert_true(rules > 150);
	assert_true(t_known > 500);
	free(sh);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_shape_replays),
		cmocka_unit_test(test_other_shapes_walk),
		cmocka_unit_test(test_actions_after_replay),
		cmocka_unit_test(test_values_that_matter),
		cmocka_unit_test(test_copies_actions_read),
		cmocka_unit_test(test_check_error_after_replay),
		cmocka_unit_test(test_rule_replays),
		cmocka_unit_test(test_rule_replay_buffers),
		cmocka_unit_test(test_random_rules),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
