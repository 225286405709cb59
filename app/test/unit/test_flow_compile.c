/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Compiled templates: a rule the setters of its template take must have,
 * field for field, the translation's result, and a rule they refuse must
 * be refused by the translation. Targeted cases check which templates are
 * compiled; a random run over patterns, masks, `last`s and actions
 * compares both on thousands of rules.
 */

#include <stdlib.h>

#include "test_flow_common.h"

#define ITEM(t, s, m) { .type = RTE_FLOW_ITEM_TYPE_##t, .spec = (s), .mask = (m) }
#define END_ITEM { .type = RTE_FLOW_ITEM_TYPE_END }
#define ACT(t, c) { .type = RTE_FLOW_ACTION_TYPE_##t, .conf = (c) }
#define END_ACT { .type = RTE_FLOW_ACTION_TYPE_END }
#define IP4(a, b, c, d) RTE_BE32(((uint32_t)(a) << 24) | ((b) << 16) | ((c) << 8) | (d))

static const struct mlx5dm_flow_context t_plain = { .nb_rx_queues = 8 };
static uint16_t t_rxq = 8;

/* One translation's outcome. */
struct t_res {
	int ret;
	struct rte_flow_error err;
	struct mlx5dm_flow_spec spec;
};

/* A template compiled from a rule (fixed: its actions that are the template's). */
static struct mlx5dm_flow_compiled *
t_compile(const struct rte_flow_attr *attr, const struct rte_flow_item *items,
	  const struct rte_flow_action *actions, uint32_t fixed, int *ret)
{
	struct mlx5dm_flow_compiled *ct = calloc(1, sizeof(*ct));
	static struct t_res res;
	struct mlx5dm_flow_context ctx = t_plain;

	assert_non_null(ct);
	ctx.nb_rx_queues = t_rxq;
	*ret = mlx5dm_flow_compile(ct, &ctx, attr, items, actions, fixed, &res.spec, &res.err);
	return ct;
}

/* The rule's result is the template's but for the match value, queues[0] and the tag. */
static void
t_spec_same(const struct mlx5dm_flow_spec *a, const struct mlx5dm_flow_spec *b)
{
	struct mlx5dm_flow_spec ha, hb;
	unsigned int i;

	memcpy(&ha, a, offsetof(struct mlx5dm_flow_spec, value));
	memcpy(&hb, b, offsetof(struct mlx5dm_flow_spec, value));
	hb.tag_value = ha.tag_value;
	assert_memory_equal(&ha, &hb, offsetof(struct mlx5dm_flow_spec, value));
	for (i = 1; i < a->nb_queues; i++)
		assert_int_equal(a->queues[i], b->queues[i]);
	if (a->rss_types != 0)
		assert_memory_equal(a->rss_key, b->rss_key, sizeof(a->rss_key));
	assert_memory_equal(a->sub, b->sub, a->nb_sub * sizeof(a->sub[0]));
	assert_memory_equal(a->push, b->push, a->nb_push * sizeof(a->push[0]));
	assert_memory_equal(a->decap_data, b->decap_data, a->decap_len);
	assert_memory_equal(a->encap_data, b->encap_data, a->encap_len);
	assert_memory_equal(a->modify, b->modify, a->nb_modify * MLX5DM_MODIFY_ACTION_SIZE);
}

/*
 * The rule through ct's setters and through the translation: both take
 * it with the same result, or the setters leave it to a translation.
 * Returns whether the setters took it.
 */
static bool
t_both(const struct mlx5dm_flow_compiled *ct, const struct rte_flow_attr *attr,
       const struct rte_flow_item *items, const struct rte_flow_action *actions, int *ret)
{
	static struct t_res ref;
	struct mlx5dm_flow_context ctx = t_plain;
	uint8_t value[MLX5DM_MATCH_PARAM_SIZE];
	struct mlx5dm_flow_rule_values r;

	ctx.nb_rx_queues = t_rxq;
	memset(&ref, 0xa5, sizeof(ref));
	ref.ret = mlx5dm_flow_translate(&ctx, attr, items, actions, &ref.spec, &ref.err);
	if (ret != NULL)
		*ret = ref.ret;
	if (!ct->fast)
		return false;
	memset(value, 0x5a, sizeof(value));
	if (!mlx5dm_flow_compiled_rule(ct, t_rxq, items, actions, &r)) {
		/* A value the translation refuses (it says why). */
		assert_int_not_equal(ref.ret, 0);
		return false;
	}
	if (ref.ret != 0)
		fprintf(stderr, "setters took a rule the translation refuses: %s\n",
			ref.err.message);
	assert_int_equal(ref.ret, 0);
	mlx5dm_flow_compiled_value(ct, &r, value);
	assert_memory_equal(value, ref.spec.value, sizeof(value));
	assert_int_equal(r.queue, ct->queue_at != 0 ? ref.spec.queues[0] : 0);
	assert_int_equal(r.tag, ct->mark_at != 0 ? ref.spec.tag_value : 0);
	t_spec_same(&ref.spec, &ct->res);
	return true;
}

/* ---- targeted cases ---- */

static const struct rte_flow_attr t_in = { .ingress = 1 };
static const struct rte_flow_item_ipv4 v4_addr_mask = {
	.hdr.src_addr = RTE_BE32(0xffffffff), .hdr.dst_addr = RTE_BE32(0xffffff00) };
static const struct rte_flow_item_ipv4 v4_frag_mask = {
	.hdr.dst_addr = RTE_BE32(0xffffffff), .hdr.fragment_offset = RTE_BE16(0x3fff) };
static const struct rte_flow_item_udp udp_mask = {
	.hdr.src_port = RTE_BE16(0xffff), .hdr.dst_port = RTE_BE16(0x0fff) };
static struct rte_flow_item_ipv4 t_v4;
static struct rte_flow_item_udp t_udp;
static const struct rte_flow_item t_5t[] = {
	ITEM(ETH, NULL, NULL), ITEM(IPV4, &t_v4, &v4_addr_mask), ITEM(UDP, &t_udp, &udp_mask),
	END_ITEM,
};
static const struct rte_flow_item t_ports[] = {
	ITEM(ETH, NULL, NULL), ITEM(IPV4, NULL, NULL), ITEM(UDP, &t_udp, &rte_flow_item_udp_mask),
	END_ITEM,
};
static const struct rte_flow_item t_frag[] = {
	ITEM(ETH, NULL, NULL), ITEM(IPV4, &t_v4, &v4_frag_mask), END_ITEM,
};
static struct rte_flow_action_queue t_q;
static struct rte_flow_action_mark t_mark;
static const struct rte_flow_action_jump t_jump = { .group = 3 };
static const uint16_t t_rss_queues[] = { 0, 1, 2 };
static const struct rte_flow_action_rss t_rss = {
	.types = RTE_ETH_RSS_IP, .queue_num = 3, .queue = t_rss_queues };
static const struct rte_flow_action t_count_mark_queue[] = {
	ACT(COUNT, NULL), ACT(MARK, &t_mark), ACT(QUEUE, &t_q), END_ACT,
};
static const struct rte_flow_action t_mark_jump[] = {
	ACT(MARK, &t_mark), ACT(JUMP, &t_jump), END_ACT,
};
static const struct rte_flow_action t_rss_acts[] = { ACT(RSS, &t_rss), END_ACT };

/*
 * A 5-tuple with QUEUE and MARK of the rule's own is compiled: each rule's
 * addresses, ports, queue and id are set, the rest is the example's.
 */
static void
test_five_tuple_setters(void **state)
{
	struct mlx5dm_flow_compiled *ct;
	unsigned int i;
	int ret;

	(void)state;
	t_v4.hdr.src_addr = IP4(10, 0, 0, 1);
	t_q.index = 1;
	ct = t_compile(&t_in, t_5t, t_count_mark_queue, 0, &ret);
	assert_int_equal(ret, 0);
	assert_true(ct->fast);
	assert_int_equal(ct->queue_at, 3);
	assert_int_equal(ct->mark_at, 2);
	/* Fields under a full mask move as bytes; the masked part of the others is copied. */
	assert_int_equal(ct->nb_moves, 2);
	assert_int_equal(ct->nb_copies, 2);
	for (i = 0; i < 200; i++) {
		t_v4.hdr.src_addr = rte_cpu_to_be_32(i * 0x01010101u);
		t_v4.hdr.dst_addr = rte_cpu_to_be_32(0xc0a80000u + i * 7);
		t_udp.hdr.src_port = rte_cpu_to_be_16((uint16_t)(i * 331));
		t_udp.hdr.dst_port = rte_cpu_to_be_16((uint16_t)(0xffff - i));
		t_q.index = (uint16_t)(i % 10); /* 8 queues: some refused */
		t_mark.id = i % 50 == 0 ? 0xffffff : i;
		assert_int_equal(t_both(ct, &t_in, t_5t, t_count_mark_queue, &ret),
				 i % 10 < 8 && i % 50 != 0);
	}
	free(ct);
}

/* Both UDP ports are one move (adjacent in the item and in the match). */
static void
test_adjacent_moves(void **state)
{
	static const struct rte_flow_action queue[] = { ACT(QUEUE, &t_q), END_ACT };
	struct mlx5dm_flow_compiled *ct;
	unsigned int i;
	int ret;

	(void)state;
	t_q.index = 0;
	ct = t_compile(&t_in, t_ports, queue, 0, &ret);
	assert_int_equal(ret, 0);
	assert_true(ct->fast);
	assert_int_equal(ct->nb_moves, 1);
	assert_int_equal(ct->move[0].len, 4);
	assert_int_equal(ct->nb_copies, 0);
	for (i = 0; i < 100; i++) {
		t_udp.hdr.src_port = rte_cpu_to_be_16((uint16_t)(i * 613));
		t_udp.hdr.dst_port = rte_cpu_to_be_16((uint16_t)(i * 97 + 1));
		assert_true(t_both(ct, &t_in, t_ports, queue, NULL));
	}
	free(ct);
}

/* Templates whose translation reads a value translate each rule. */
static void
test_values_read_not_compiled(void **state)
{
	static const struct rte_flow_action queue[] = { ACT(QUEUE, &t_q), END_ACT };
	static const struct rte_flow_item ranged[] = {
		ITEM(ETH, NULL, NULL),
		{ .type = RTE_FLOW_ITEM_TYPE_IPV4, .spec = &t_v4, .last = &t_v4,
		  .mask = &v4_addr_mask },
		END_ITEM,
	};
	struct mlx5dm_flow_compiled *ct;
	int ret;

	(void)state;
	t_q.index = 0;
	/* The fragment flag is decided by a hook. */
	ct = t_compile(&t_in, t_frag, queue, 0, &ret);
	assert_int_equal(ret, 0);
	assert_false(ct->fast);
	free(ct);
	/* A range. */
	ct = t_compile(&t_in, ranged, queue, 0, &ret);
	assert_int_equal(ret, 0);
	assert_false(ct->fast);
	free(ct);
	/* MARK with JUMP writes the id in a modify entry; RSS reads its configuration. */
	ct = t_compile(&t_in, t_5t, t_mark_jump, 0, &ret);
	assert_int_equal(ret, 0);
	assert_false(ct->fast);
	free(ct);
	ct = t_compile(&t_in, t_5t, t_rss_acts, 0, &ret);
	assert_int_equal(ret, 0);
	assert_false(ct->fast);
	free(ct);
	/* Both are fine when the template fixes them (masked actions). */
	ct = t_compile(&t_in, t_5t, t_mark_jump, 3, &ret);
	assert_int_equal(ret, 0);
	assert_true(ct->fast);
	assert_true(t_both(ct, &t_in, t_5t, t_mark_jump, NULL));
	free(ct);
	ct = t_compile(&t_in, t_5t, t_rss_acts, 1, &ret);
	assert_int_equal(ret, 0);
	assert_true(ct->fast);
	assert_true(t_both(ct, &t_in, t_5t, t_rss_acts, NULL));
	free(ct);
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

/*
 * The shape key's template: compiled from the first rule of a shape that
 * translates (as an implicit template is), then every rule of the shape
 * goes through both.
 */
static struct mlx5dm_flow_compiled *
t_shape_template(struct mlx5dm_flow_compiled *ct, const struct rte_flow_attr *attr,
		 const struct rte_flow_item *items, const struct rte_flow_action *actions)
{
	static uint8_t cur[MLX5DM_FLOW_SHAPE_MAX] __rte_aligned(8);
	static size_t cur_len;
	uint8_t key[MLX5DM_FLOW_SHAPE_MAX] __rte_aligned(8);
	struct mlx5dm_flow_context ctx = t_plain;
	size_t len;
	uint32_t h;
	int ret;

	ctx.nb_rx_queues = t_rxq;
	len = mlx5dm_flow_shape_key(&ctx, attr, items, actions, key, &h);
	if (ct != NULL && len == cur_len && memcmp(key, cur, len) == 0)
		return ct;
	free(ct);
	if (len == 0)
		return NULL;
	ct = t_compile(attr, items, actions, 0, &ret);
	if (ret != 0) {
		free(ct);
		return NULL;
	}
	memcpy(cur, key, len);
	cur_len = len;
	return ct;
}

static void
test_random_rules(void **state)
{
	struct mlx5dm_flow_compiled *ct = NULL;
	static struct t_res none;
	static struct t_rule r;
	unsigned int n, tmpl = 0, which = 0, acts = 0, ok = 0, fast = 0, shapes = 0;
	int ret;

	(void)state;
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
		t_actions(&r, t_rand(3) == 0 ? t_rand(8) : acts, t_rand(3) == 0);
		t_rxq = t_rand(10) == 0 ? 3 : 8;
		ct = t_shape_template(ct, &r.attr, r.items, r.actions);
		if (ct == NULL) {
			/* No template (a range, an untranslatable first rule): translations. */
			ok += mlx5dm_flow_translate(&t_plain, &r.attr, r.items, r.actions,
						    &none.spec, &none.err) == 0;
			continue;
		}
		shapes += ct->fast;
		fast += t_both(ct, &r.attr, r.items, r.actions, &ret);
		ok += ret == 0;
	}
	free(ct);
	t_rxq = 8;
	fprintf(stderr, "%u rules: %u translated, %u through setters, %u of a compiled shape\n",
		n, ok, fast, shapes);
	/* Both outcomes are common, and so are rules the setters take. */
	assert_true(ok > 800 && ok < 7200);
	assert_true(fast > 1000);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_five_tuple_setters),
		cmocka_unit_test(test_adjacent_moves),
		cmocka_unit_test(test_values_read_not_compiled),
		cmocka_unit_test(test_random_rules),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
