/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Actions supported by net_mlx5dm, with testpmd's action and argument
 * names (DPDK 22.11). Most take "<argument> <value>" pairs read by the
 * generic loop; RSS and the raw encap/decap actions have their own syntax.
 */

#include <assert.h>
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include <rte_common.h>
#include <rte_ethdev.h>
#include <rte_flow.h>

#include "test_dm_flow_priv.h"
#include "test_dm_value.h"

#define TEST_DM_F(n, st, m, k, h) { \
	.name = (n), .off = offsetof(st, m), .size = sizeof(((st *)0)->m), \
	.kind = (k), .hton = (h) }
#define TEST_DM_ENUMF(n, st, m, e) { \
	.name = (n), .off = offsetof(st, m), .size = sizeof(((st *)0)->m), \
	.kind = TEST_DM_FK_ENUM, .names = (e) }
#define TEST_DM_ACT(n, t, st, f) { \
	.name = (n), .type = RTE_FLOW_ACTION_TYPE_##t, .conf_size = sizeof(st), \
	.fields = (f), .nb_fields = RTE_DIM(f) }
#define TEST_DM_ACT0(n, t) { .name = (n), .type = RTE_FLOW_ACTION_TYPE_##t }

static const struct test_dm_fdesc test_dm_a_queue[] = {
	TEST_DM_F("index", struct rte_flow_action_queue, index, TEST_DM_FK_UINT, 0),
};
static const struct test_dm_fdesc test_dm_a_jump[] = {
	TEST_DM_F("group", struct rte_flow_action_jump, group, TEST_DM_FK_UINT, 0),
};
static const struct test_dm_fdesc test_dm_a_mark[] = {
	TEST_DM_F("id", struct rte_flow_action_mark, id, TEST_DM_FK_UINT, 0),
};
static const struct test_dm_fdesc test_dm_a_count[] = {
	TEST_DM_F("identifier", struct rte_flow_action_count, id, TEST_DM_FK_UINT, 0),
};
static const struct test_dm_fdesc test_dm_a_set_mac[] = {
	TEST_DM_F("mac_addr", struct rte_flow_action_set_mac, mac_addr, TEST_DM_FK_MAC, 0),
};
static const struct test_dm_fdesc test_dm_a_set_ipv4[] = {
	TEST_DM_F("ipv4_addr", struct rte_flow_action_set_ipv4, ipv4_addr, TEST_DM_FK_IPV4, 0),
};
static const struct test_dm_fdesc test_dm_a_set_ipv6[] = {
	TEST_DM_F("ipv6_addr", struct rte_flow_action_set_ipv6, ipv6_addr, TEST_DM_FK_IPV6, 0),
};
static const struct test_dm_fdesc test_dm_a_set_tp[] = {
	TEST_DM_F("port", struct rte_flow_action_set_tp, port, TEST_DM_FK_UINT, 1),
};
static const struct test_dm_fdesc test_dm_a_set_ttl[] = {
	TEST_DM_F("ttl_value", struct rte_flow_action_set_ttl, ttl_value, TEST_DM_FK_UINT, 1),
};
static const struct test_dm_fdesc test_dm_a_tcp_seq_ack[] = {
	{ .name = "value", .off = 0, .size = 4, .kind = TEST_DM_FK_UINT, .hton = 1 },
};
static const struct test_dm_fdesc test_dm_a_set_dscp[] = {
	TEST_DM_F("dscp_value", struct rte_flow_action_set_dscp, dscp, TEST_DM_FK_UINT, 0),
};
static const struct test_dm_fdesc test_dm_a_set_tag[] = {
	TEST_DM_F("data", struct rte_flow_action_set_tag, data, TEST_DM_FK_UINT, 0),
	TEST_DM_F("index", struct rte_flow_action_set_tag, index, TEST_DM_FK_UINT, 0),
	TEST_DM_F("mask", struct rte_flow_action_set_tag, mask, TEST_DM_FK_UINT, 0),
};
static const struct test_dm_fdesc test_dm_a_set_meta[] = {
	TEST_DM_F("data", struct rte_flow_action_set_meta, data, TEST_DM_FK_UINT, 0),
	TEST_DM_F("mask", struct rte_flow_action_set_meta, mask, TEST_DM_FK_UINT, 0),
};
static const struct test_dm_fdesc test_dm_a_push_vlan[] = {
	TEST_DM_F("ethertype", struct rte_flow_action_of_push_vlan, ethertype,
		  TEST_DM_FK_UINT, 1),
};
static const struct test_dm_fdesc test_dm_a_set_vid[] = {
	TEST_DM_F("vlan_vid", struct rte_flow_action_of_set_vlan_vid, vlan_vid,
		  TEST_DM_FK_UINT, 1),
};
static const struct test_dm_fdesc test_dm_a_set_pcp[] = {
	TEST_DM_F("vlan_pcp", struct rte_flow_action_of_set_vlan_pcp, vlan_pcp,
		  TEST_DM_FK_UINT, 1),
};
static const struct test_dm_fdesc test_dm_a_represented_port[] = {
	TEST_DM_F("ethdev_port_id", struct rte_flow_action_ethdev, port_id, TEST_DM_FK_PORT, 0),
};
static const struct test_dm_fdesc test_dm_a_port_representor[] = {
	TEST_DM_F("port_id", struct rte_flow_action_ethdev, port_id, TEST_DM_FK_PORT, 0),
};
static void
test_dm_probe_port_id_original(void *o)
{
	((struct rte_flow_action_port_id *)o)->original = 1;
}
static const struct test_dm_fdesc test_dm_a_port_id[] = {
	{ .name = "original", .kind = TEST_DM_FK_BOOL, .probe = test_dm_probe_port_id_original },
	TEST_DM_F("id", struct rte_flow_action_port_id, id, TEST_DM_FK_PORT, 0),
};

/* testpmd's names for enum rte_flow_modify_op and enum rte_flow_field_id (22.11 order). */
static const char *const test_dm_modify_ops[] = { "set", "add", "sub", NULL };
static const char *const test_dm_modify_ids[] = {
	"start", "mac_dst", "mac_src", "vlan_type", "vlan_id", "mac_type",
	"ipv4_dscp", "ipv4_ttl", "ipv4_src", "ipv4_dst",
	"ipv6_dscp", "ipv6_hoplimit", "ipv6_src", "ipv6_dst",
	"tcp_port_src", "tcp_port_dst", "tcp_seq_num", "tcp_ack_num", "tcp_flags",
	"udp_port_src", "udp_port_dst", "vxlan_vni", "geneve_vni", "gtp_teid",
	"tag", "mark", "meta", "pointer", "value",
	"ipv4_ecn", "ipv6_ecn", "gtp_psc_qfi", "meter_color", NULL
};
static_assert(RTE_FLOW_FIELD_METER_COLOR == 32, "rte_flow_field_id names out of date");

static const struct test_dm_fdesc test_dm_a_modify[] = {
	TEST_DM_ENUMF("op", struct rte_flow_action_modify_field, operation, test_dm_modify_ops),
	TEST_DM_ENUMF("dst_type", struct rte_flow_action_modify_field, dst.field,
		      test_dm_modify_ids),
	TEST_DM_F("dst_level", struct rte_flow_action_modify_field, dst.level,
		  TEST_DM_FK_UINT, 0),
	TEST_DM_F("dst_offset", struct rte_flow_action_modify_field, dst.offset,
		  TEST_DM_FK_UINT, 0),
	TEST_DM_ENUMF("src_type", struct rte_flow_action_modify_field, src.field,
		      test_dm_modify_ids),
	TEST_DM_F("src_level", struct rte_flow_action_modify_field, src.level,
		  TEST_DM_FK_UINT, 0),
	TEST_DM_F("src_offset", struct rte_flow_action_modify_field, src.offset,
		  TEST_DM_FK_UINT, 0),
	TEST_DM_F("src_value", struct rte_flow_action_modify_field, src.value,
		  TEST_DM_FK_HEX, 0),
	TEST_DM_F("src_ptr", struct rte_flow_action_modify_field, src.pvalue,
		  TEST_DM_FK_HEXPTR, 0),
	TEST_DM_F("width", struct rte_flow_action_modify_field, width, TEST_DM_FK_UINT, 0),
};

/* RSS types by testpmd's names (app/test-pmd/config.c rss_type_table of 22.11). */
static const struct {
	const char *name;
	uint64_t types;
} test_dm_rss_types[] = {
	{ "all", RTE_ETH_RSS_ETH | RTE_ETH_RSS_VLAN | RTE_ETH_RSS_IP | RTE_ETH_RSS_TCP |
		 RTE_ETH_RSS_UDP | RTE_ETH_RSS_SCTP | RTE_ETH_RSS_L2_PAYLOAD |
		 RTE_ETH_RSS_L2TPV3 | RTE_ETH_RSS_ESP | RTE_ETH_RSS_AH | RTE_ETH_RSS_PFCP |
		 RTE_ETH_RSS_GTPU | RTE_ETH_RSS_ECPRI | RTE_ETH_RSS_MPLS | RTE_ETH_RSS_L2TPV2 },
	{ "none", 0 },
	{ "ip", RTE_ETH_RSS_IP },
	{ "udp", RTE_ETH_RSS_UDP },
	{ "tcp", RTE_ETH_RSS_TCP },
	{ "sctp", RTE_ETH_RSS_SCTP },
	{ "tunnel", RTE_ETH_RSS_TUNNEL },
	{ "vlan", RTE_ETH_RSS_VLAN },
	{ "ipv4", RTE_ETH_RSS_IPV4 },
	{ "ipv4-frag", RTE_ETH_RSS_FRAG_IPV4 },
	{ "ipv4-tcp", RTE_ETH_RSS_NONFRAG_IPV4_TCP },
	{ "ipv4-udp", RTE_ETH_RSS_NONFRAG_IPV4_UDP },
	{ "ipv4-sctp", RTE_ETH_RSS_NONFRAG_IPV4_SCTP },
	{ "ipv4-other", RTE_ETH_RSS_NONFRAG_IPV4_OTHER },
	{ "ipv6", RTE_ETH_RSS_IPV6 },
	{ "ipv6-frag", RTE_ETH_RSS_FRAG_IPV6 },
	{ "ipv6-tcp", RTE_ETH_RSS_NONFRAG_IPV6_TCP },
	{ "ipv6-udp", RTE_ETH_RSS_NONFRAG_IPV6_UDP },
	{ "ipv6-sctp", RTE_ETH_RSS_NONFRAG_IPV6_SCTP },
	{ "ipv6-other", RTE_ETH_RSS_NONFRAG_IPV6_OTHER },
	{ "l2-payload", RTE_ETH_RSS_L2_PAYLOAD },
	{ "ipv6-ex", RTE_ETH_RSS_IPV6_EX },
	{ "ipv6-tcp-ex", RTE_ETH_RSS_IPV6_TCP_EX },
	{ "ipv6-udp-ex", RTE_ETH_RSS_IPV6_UDP_EX },
	{ "port", RTE_ETH_RSS_PORT },
	{ "vxlan", RTE_ETH_RSS_VXLAN },
	{ "geneve", RTE_ETH_RSS_GENEVE },
	{ "nvgre", RTE_ETH_RSS_NVGRE },
	{ "gtpu", RTE_ETH_RSS_GTPU },
	{ "eth", RTE_ETH_RSS_ETH },
	{ "s-vlan", RTE_ETH_RSS_S_VLAN },
	{ "c-vlan", RTE_ETH_RSS_C_VLAN },
	{ "esp", RTE_ETH_RSS_ESP },
	{ "ah", RTE_ETH_RSS_AH },
	{ "l2tpv3", RTE_ETH_RSS_L2TPV3 },
	{ "pfcp", RTE_ETH_RSS_PFCP },
	{ "pppoe", RTE_ETH_RSS_PPPOE },
	{ "ecpri", RTE_ETH_RSS_ECPRI },
	{ "mpls", RTE_ETH_RSS_MPLS },
	{ "ipv4-chksum", RTE_ETH_RSS_IPV4_CHKSUM },
	{ "l4-chksum", RTE_ETH_RSS_L4_CHKSUM },
	{ "l2tpv2", RTE_ETH_RSS_L2TPV2 },
	{ "l3-pre96", RTE_ETH_RSS_L3_PRE96 },
	{ "l3-pre64", RTE_ETH_RSS_L3_PRE64 },
	{ "l3-pre56", RTE_ETH_RSS_L3_PRE56 },
	{ "l3-pre48", RTE_ETH_RSS_L3_PRE48 },
	{ "l3-pre40", RTE_ETH_RSS_L3_PRE40 },
	{ "l3-pre32", RTE_ETH_RSS_L3_PRE32 },
	{ "l2-dst-only", RTE_ETH_RSS_L2_DST_ONLY },
	{ "l2-src-only", RTE_ETH_RSS_L2_SRC_ONLY },
	{ "l4-dst-only", RTE_ETH_RSS_L4_DST_ONLY },
	{ "l4-src-only", RTE_ETH_RSS_L4_SRC_ONLY },
	{ "l3-dst-only", RTE_ETH_RSS_L3_DST_ONLY },
	{ "l3-src-only", RTE_ETH_RSS_L3_SRC_ONLY },
};

static const char *const test_dm_rss_funcs[] = {
	[RTE_ETH_HASH_FUNCTION_DEFAULT] = "default",
	[RTE_ETH_HASH_FUNCTION_TOEPLITZ] = "toeplitz",
	[RTE_ETH_HASH_FUNCTION_SIMPLE_XOR] = "simple_xor",
	[RTE_ETH_HASH_FUNCTION_SYMMETRIC_TOEPLITZ] = "symmetric_toeplitz",
};

/* Defaults as testpmd sets them: the port's RSS types over all its queues. */
static int
test_dm_rss_init(struct test_dm_flow_parser *p, void *conf)
{
	struct rte_flow_action_rss *rss = conf;
	uint16_t *queue;
	unsigned int i, n = RTE_MIN(p->ctx->nb_rxq, (uint16_t)TEST_DM_RSS_QUEUES_MAX);

	queue = test_dm_arena_zalloc(&p->cmd->arena, sizeof(*queue) * TEST_DM_RSS_QUEUES_MAX);
	if (queue == NULL)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		queue[i] = (uint16_t)i;
	rss->func = RTE_ETH_HASH_FUNCTION_DEFAULT;
	rss->types = p->ctx->rss_types;
	rss->queue_num = n;
	rss->queue = queue;
	return 0;
}

static int
test_dm_rss_types_parse(struct test_dm_flow_parser *p, struct rte_flow_action_rss *rss)
{
	const struct test_dm_tok *t;
	unsigned int i;

	rss->types = 0;
	for (;;) {
		t = test_dm_flow_parser_next(p);
		if (t == NULL || test_dm_tok_is(t, "/"))
			return test_dm_flow_parser_error_at(p, t, "expected an RSS type or 'end'");
		if (test_dm_tok_is(t, "end"))
			return 0;
		for (i = 0; i < RTE_DIM(test_dm_rss_types); i++)
			if (test_dm_tok_is(t, test_dm_rss_types[i].name))
				break;
		if (i == RTE_DIM(test_dm_rss_types))
			return test_dm_flow_parser_error_at(p, t, "expected an RSS type or 'end', "
							    "got '%.*s'", (int)t->len, t->s);
		rss->types |= test_dm_rss_types[i].types;
	}
}

static int
test_dm_rss_queues_parse(struct test_dm_flow_parser *p, struct rte_flow_action_rss *rss)
{
	uint16_t *queue = (uint16_t *)(uintptr_t)rss->queue;
	uint64_t v;
	int ret;

	rss->queue_num = 0;
	while (!test_dm_flow_parser_peek_is(p, "end")) {
		if (rss->queue_num == TEST_DM_RSS_QUEUES_MAX)
			return test_dm_flow_parser_error(p, "too many RSS queues (max %u)",
							 TEST_DM_RSS_QUEUES_MAX);
		ret = test_dm_flow_parser_uint(p, UINT16_MAX, "a queue index or 'end'", &v);
		if (ret < 0)
			return ret;
		queue[rss->queue_num++] = (uint16_t)v;
	}
	p->i++;
	if (rss->queue_num == 0)
		rss->queue = NULL;
	return 0;
}

static int
test_dm_rss_key_parse(struct test_dm_flow_parser *p, struct rte_flow_action_rss *rss)
{
	const struct test_dm_tok *t = test_dm_flow_parser_next(p);
	uint8_t key[TEST_DM_RSS_KEY_MAX];
	size_t n;
	int ret;

	if (t == NULL)
		return test_dm_flow_parser_error_at(p, t, "expected an RSS key in hexadecimal");
	ret = test_dm_parse_hex(t->s, t->len, key, sizeof(key), &n);
	if (ret == -E2BIG)
		return test_dm_flow_parser_error_at(p, t, "RSS key longer than %u bytes",
						    TEST_DM_RSS_KEY_MAX);
	if (ret < 0)
		return test_dm_flow_parser_error_at(p, t, "expected an RSS key in hexadecimal, got "
						    "'%.*s'", (int)t->len, t->s);
	rss->key = test_dm_arena_memdup(&p->cmd->arena, key, n);
	if (rss->key == NULL)
		return -ENOMEM;
	rss->key_len = (uint32_t)n;
	return 0;
}

/* rss [func F] [level N] [types T... end] [key HEX] [key_len N] [queues Q... end] / */
static int
test_dm_rss_parse(struct test_dm_flow_parser *p, struct rte_flow_action *a)
{
	struct rte_flow_action_rss *rss = (struct rte_flow_action_rss *)(uintptr_t)a->conf;
	const struct test_dm_tok *t;
	unsigned int i;
	uint64_t v;
	int ret = 0;

	for (;;) {
		t = test_dm_flow_parser_next(p);
		if (t == NULL)
			return test_dm_flow_parser_error_at(p, t, "expected an argument of 'rss' "
							    "or '/'");
		if (test_dm_tok_is(t, "/"))
			return 0;
		if (test_dm_tok_is(t, "types")) {
			ret = test_dm_rss_types_parse(p, rss);
		} else if (test_dm_tok_is(t, "queues")) {
			ret = test_dm_rss_queues_parse(p, rss);
		} else if (test_dm_tok_is(t, "key")) {
			ret = test_dm_rss_key_parse(p, rss);
		} else if (test_dm_tok_is(t, "key_len")) {
			ret = test_dm_flow_parser_uint(p, TEST_DM_RSS_KEY_MAX, "a key length", &v);
			rss->key_len = (uint32_t)v;
		} else if (test_dm_tok_is(t, "level")) {
			ret = test_dm_flow_parser_uint(p, UINT32_MAX, "an encapsulation level", &v);
			rss->level = (uint32_t)v;
		} else if (test_dm_tok_is(t, "func")) {
			t = test_dm_flow_parser_next(p);
			for (i = 0; t != NULL && i < RTE_DIM(test_dm_rss_funcs); i++)
				if (test_dm_tok_is(t, test_dm_rss_funcs[i]))
					break;
			if (t == NULL || i == RTE_DIM(test_dm_rss_funcs))
				return test_dm_flow_parser_error_at(p, t, "expected default, "
								    "toeplitz, simple_xor or "
								    "symmetric_toeplitz");
			rss->func = (enum rte_eth_hash_function)i;
		} else {
			return test_dm_flow_parser_error_at(p, t, "unknown argument '%.*s' of "
							    "action 'rss'; expected func, level, "
							    "types, key, key_len, queues or '/'",
							    (int)t->len, t->s);
		}
		if (ret < 0)
			return ret;
	}
}

/* raw_encap|raw_decap [index N] / : the bytes "set raw_encap|raw_decap N" defined. */
static int
test_dm_raw_parse(struct test_dm_flow_parser *p, struct rte_flow_action *a)
{
	int encap = a->type == RTE_FLOW_ACTION_TYPE_RAW_ENCAP;
	const char *name = encap ? "raw_encap" : "raw_decap";
	const struct test_dm_raw_conf *slot;
	const struct test_dm_tok *at = p->action_tok, *t;
	uint64_t v = 0;
	uint8_t *data;
	int ret;

	t = test_dm_flow_parser_next(p);
	if (t != NULL && test_dm_tok_is(t, "index")) {
		ret = test_dm_flow_parser_uint(p, TEST_DM_RAW_SLOTS - 1, "a raw data index", &v);
		if (ret < 0)
			return ret;
		t = test_dm_flow_parser_next(p);
	}
	if (t == NULL || !test_dm_tok_is(t, "/"))
		return test_dm_flow_parser_error_at(p, t, "expected 'index' or '/' after '%s'",
						    name);
	slot = encap ? &p->ctx->raw_encap[v] : &p->ctx->raw_decap[v];
	if (!slot->defined)
		return test_dm_flow_parser_error_at(p, at, "%s index %u is not defined (use 'set "
						    "%s %u ...' first)", name, (unsigned int)v,
						    name, (unsigned int)v);
	data = test_dm_arena_memdup(&p->cmd->arena, slot->data, slot->size);
	if (data == NULL)
		return -ENOMEM;
	if (encap) {
		struct rte_flow_action_raw_encap *c = (void *)(uintptr_t)a->conf;

		c->data = data;
		c->size = slot->size;
	} else {
		struct rte_flow_action_raw_decap *c = (void *)(uintptr_t)a->conf;

		c->data = data;
		c->size = slot->size;
	}
	return 0;
}

static int
test_dm_no_args(struct test_dm_flow_parser *p, struct rte_flow_action *a)
{
	const struct test_dm_tok *t = test_dm_flow_parser_next(p);

	if (t == NULL || !test_dm_tok_is(t, "/"))
		return test_dm_flow_parser_error_at(p, t, "expected '/' after '%s' (it takes no "
						    "argument)", test_dm_flow_action_name(a->type));
	return 0;
}

static const struct test_dm_adesc test_dm_actions[] = {
	{ .name = "void", .type = RTE_FLOW_ACTION_TYPE_VOID, .parse = test_dm_no_args },
	{ .name = "drop", .type = RTE_FLOW_ACTION_TYPE_DROP, .parse = test_dm_no_args },
	{ .name = "flag", .type = RTE_FLOW_ACTION_TYPE_FLAG, .parse = test_dm_no_args },
	{ .name = "dec_ttl", .type = RTE_FLOW_ACTION_TYPE_DEC_TTL, .parse = test_dm_no_args },
	{ .name = "of_pop_vlan", .type = RTE_FLOW_ACTION_TYPE_OF_POP_VLAN,
	  .parse = test_dm_no_args },
	{ .name = "vxlan_decap", .type = RTE_FLOW_ACTION_TYPE_VXLAN_DECAP,
	  .parse = test_dm_no_args },
	TEST_DM_ACT("queue", QUEUE, struct rte_flow_action_queue, test_dm_a_queue),
	TEST_DM_ACT("jump", JUMP, struct rte_flow_action_jump, test_dm_a_jump),
	TEST_DM_ACT("represented_port", REPRESENTED_PORT, struct rte_flow_action_ethdev,
		    test_dm_a_represented_port),
	TEST_DM_ACT("port_representor", PORT_REPRESENTOR, struct rte_flow_action_ethdev,
		    test_dm_a_port_representor),
	TEST_DM_ACT("port_id", PORT_ID, struct rte_flow_action_port_id, test_dm_a_port_id),
	TEST_DM_ACT("mark", MARK, struct rte_flow_action_mark, test_dm_a_mark),
	TEST_DM_ACT("count", COUNT, struct rte_flow_action_count, test_dm_a_count),
	TEST_DM_ACT("set_mac_src", SET_MAC_SRC, struct rte_flow_action_set_mac, test_dm_a_set_mac),
	TEST_DM_ACT("set_mac_dst", SET_MAC_DST, struct rte_flow_action_set_mac, test_dm_a_set_mac),
	TEST_DM_ACT("set_ipv4_src", SET_IPV4_SRC, struct rte_flow_action_set_ipv4,
		    test_dm_a_set_ipv4),
	TEST_DM_ACT("set_ipv4_dst", SET_IPV4_DST, struct rte_flow_action_set_ipv4,
		    test_dm_a_set_ipv4),
	TEST_DM_ACT("set_ipv6_src", SET_IPV6_SRC, struct rte_flow_action_set_ipv6,
		    test_dm_a_set_ipv6),
	TEST_DM_ACT("set_ipv6_dst", SET_IPV6_DST, struct rte_flow_action_set_ipv6,
		    test_dm_a_set_ipv6),
	TEST_DM_ACT("set_tp_src", SET_TP_SRC, struct rte_flow_action_set_tp, test_dm_a_set_tp),
	TEST_DM_ACT("set_tp_dst", SET_TP_DST, struct rte_flow_action_set_tp, test_dm_a_set_tp),
	TEST_DM_ACT("set_ttl", SET_TTL, struct rte_flow_action_set_ttl, test_dm_a_set_ttl),
	TEST_DM_ACT("inc_tcp_seq", INC_TCP_SEQ, rte_be32_t, test_dm_a_tcp_seq_ack),
	TEST_DM_ACT("dec_tcp_seq", DEC_TCP_SEQ, rte_be32_t, test_dm_a_tcp_seq_ack),
	TEST_DM_ACT("inc_tcp_ack", INC_TCP_ACK, rte_be32_t, test_dm_a_tcp_seq_ack),
	TEST_DM_ACT("dec_tcp_ack", DEC_TCP_ACK, rte_be32_t, test_dm_a_tcp_seq_ack),
	TEST_DM_ACT("set_ipv4_dscp", SET_IPV4_DSCP, struct rte_flow_action_set_dscp,
		    test_dm_a_set_dscp),
	TEST_DM_ACT("set_tag", SET_TAG, struct rte_flow_action_set_tag, test_dm_a_set_tag),
	TEST_DM_ACT("set_meta", SET_META, struct rte_flow_action_set_meta, test_dm_a_set_meta),
	TEST_DM_ACT("of_push_vlan", OF_PUSH_VLAN, struct rte_flow_action_of_push_vlan,
		    test_dm_a_push_vlan),
	TEST_DM_ACT("of_set_vlan_vid", OF_SET_VLAN_VID, struct rte_flow_action_of_set_vlan_vid,
		    test_dm_a_set_vid),
	TEST_DM_ACT("of_set_vlan_pcp", OF_SET_VLAN_PCP, struct rte_flow_action_of_set_vlan_pcp,
		    test_dm_a_set_pcp),
	TEST_DM_ACT("modify_field", MODIFY_FIELD, struct rte_flow_action_modify_field,
		    test_dm_a_modify),
	{ .name = "rss", .type = RTE_FLOW_ACTION_TYPE_RSS,
	  .conf_size = sizeof(struct rte_flow_action_rss),
	  .init = test_dm_rss_init, .parse = test_dm_rss_parse },
	{ .name = "raw_encap", .type = RTE_FLOW_ACTION_TYPE_RAW_ENCAP,
	  .conf_size = sizeof(struct rte_flow_action_raw_encap), .parse = test_dm_raw_parse },
	{ .name = "raw_decap", .type = RTE_FLOW_ACTION_TYPE_RAW_DECAP,
	  .conf_size = sizeof(struct rte_flow_action_raw_decap), .parse = test_dm_raw_parse },
	{ .name = "vxlan_encap", .type = RTE_FLOW_ACTION_TYPE_VXLAN_ENCAP,
	  .conf_size = sizeof(struct rte_flow_action_vxlan_encap), .parse = test_dm_no_args,
	  .finish = test_dm_flow_vxlan_encap_conf },
};

const struct test_dm_adesc *
test_dm_adesc_find(const char *s, size_t len)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(test_dm_actions); i++)
		if (test_dm_word_is(s, len, test_dm_actions[i].name))
			return &test_dm_actions[i];
	return NULL;
}

const struct test_dm_adesc *
test_dm_adesc_by_type(enum rte_flow_action_type type)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(test_dm_actions); i++)
		if (test_dm_actions[i].type == type)
			return &test_dm_actions[i];
	return NULL;
}

const char *
test_dm_flow_action_name(enum rte_flow_action_type type)
{
	const struct test_dm_adesc *d;

	if (type == RTE_FLOW_ACTION_TYPE_END)
		return "end";
	d = test_dm_adesc_by_type(type);
	return d != NULL ? d->name : NULL;
}
