/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#ifndef _TEST_DM_FLOW_H_
#define _TEST_DM_FLOW_H_

/*
 * Flow rule commands in testpmd's syntax, parsed into the real rte_flow
 * structures (attr, item and action arrays with their spec/last/mask/conf
 * objects) so they can be handed to rte_flow_create() as they are.
 *
 *   flow create|validate <port> [group N] [priority N] [ingress|egress|transfer]
 *        pattern <item> [<field> is|spec|last|mask|prefix <value>]... / ... / end
 *        actions <action> [<arg> <value>]... / ... / end
 *   flow destroy <port> rule <id> [rule <id>]...
 *   flow flush <port>
 *   flow query <port> <id> count
 *   flow configure <port> queues_number N queues_size N [counters_number N]
 *   flow pattern_template <port> create [pattern_template_id N] [relaxed yes|no]
 *        [ingress|egress|transfer] template <item> ... / end
 *   flow actions_template <port> create [actions_template_id N] [ingress|egress|transfer]
 *        template <action> ... / end mask <action> ... / end
 *   flow template_table <port> create [table_id N] [group N] [priority N]
 *        [ingress|egress|transfer] rules_number N pattern_template <id>...
 *        actions_template <id>...
 *   flow pattern_template|actions_template|template_table <port> destroy
 *        pattern_template|actions_template|table <id>...
 *   flow queue <port> create <queue> template_table <id> pattern_template <index>
 *        actions_template <index> [postpone yes|no] pattern ... / end actions ... / end
 *   flow queue <port> destroy <queue> [postpone yes|no] rule <id> [rule <id>]...
 *   flow push|pull <port> queue <queue>
 *   set raw_encap|raw_decap [<index>] <item> [fields] / ... / end_set
 *   set vxlan|vxlan-with-vlan|vxlan-tos-ttl ip-version ipv4|ipv6 vni N ...
 */

#include <stdint.h>

#include <rte_flow.h>

#include "test_dm_arena.h"
#include "test_dm_pkt.h"
#include "test_dm_text.h"

/* Longest pattern / action list of one rule (END included). */
#define TEST_DM_FLOW_MAX_ITEMS 32
#define TEST_DM_FLOW_MAX_ACTIONS 32
/** Number of raw_encap / raw_decap slots (as in testpmd). */
#define TEST_DM_RAW_SLOTS 8
/** Largest raw encapsulation header (as in testpmd). */
#define TEST_DM_RAW_MAX 512
/** Largest RSS queue list (as in testpmd). */
#define TEST_DM_RSS_QUEUES_MAX 128
/** Most pattern or actions templates of one template table (as in testpmd). */
#define TEST_DM_TABLE_TEMPLATES 8
/** A template or table id left out: the executor picks one, as testpmd does. */
#define TEST_DM_ID_AUTO UINT32_MAX
/** Largest RSS key accepted. */
#define TEST_DM_RSS_KEY_MAX 64

enum test_dm_flow_cmd_type {
	TEST_DM_FLOW_CREATE,
	TEST_DM_FLOW_VALIDATE,
	TEST_DM_FLOW_DESTROY,
	TEST_DM_FLOW_FLUSH,
	TEST_DM_FLOW_QUERY,
	TEST_DM_FLOW_CONFIGURE,
	TEST_DM_FLOW_PATTERN_TEMPLATE,	/**< Create one; destroy: the DESTROY kinds. */
	TEST_DM_FLOW_ACTIONS_TEMPLATE,
	TEST_DM_FLOW_TABLE,
	TEST_DM_FLOW_PATTERN_TEMPLATE_DESTROY,
	TEST_DM_FLOW_ACTIONS_TEMPLATE_DESTROY,
	TEST_DM_FLOW_TABLE_DESTROY,
	TEST_DM_FLOW_QUEUE_CREATE,
	TEST_DM_FLOW_QUEUE_DESTROY,
	TEST_DM_FLOW_PUSH,
	TEST_DM_FLOW_PULL,
	TEST_DM_SET_RAW_ENCAP,
	TEST_DM_SET_RAW_DECAP,
	TEST_DM_SET_VXLAN,
};

/** Header bytes defined by "set raw_encap|raw_decap". */
struct test_dm_raw_conf {
	uint8_t data[TEST_DM_RAW_MAX];
	size_t size;
	int defined;
};

/** Outer headers for VXLAN_ENCAP, defined by "set vxlan..." (testpmd's defaults). */
struct test_dm_vxlan_conf {
	int ipv6;
	int with_vlan;
	int with_tos_ttl;
	uint32_t vni;
	uint16_t udp_src;
	uint16_t udp_dst;
	uint8_t ipv4_src[4];
	uint8_t ipv4_dst[4];
	uint8_t ipv6_src[16];
	uint8_t ipv6_dst[16];
	uint16_t vlan_tci;
	uint8_t ip_tos;
	uint8_t ip_ttl;
	uint8_t eth_src[6];
	uint8_t eth_dst[6];
};

/** State kept between commands, as testpmd keeps it between command lines. */
struct test_dm_flow_ctx {
	struct test_dm_raw_conf raw_encap[TEST_DM_RAW_SLOTS];
	struct test_dm_raw_conf raw_decap[TEST_DM_RAW_SLOTS];
	struct test_dm_vxlan_conf vxlan;
	/** RSS without "queues" spreads over 0..nb_rxq-1 (testpmd: the port's queues). */
	uint16_t nb_rxq;
	/** RSS without "types" uses these (testpmd: the port's rss_hf, RTE_ETH_RSS_IP). */
	uint64_t rss_types;
};

/** One parsed command. All pointers are owned by @p arena. */
struct test_dm_flow_cmd {
	enum test_dm_flow_cmd_type type;
	uint16_t port;
	struct test_dm_pos pos;
	/* create / validate */
	struct rte_flow_attr attr;
	struct rte_flow_item *pattern;	/**< Ends with RTE_FLOW_ITEM_TYPE_END. */
	unsigned int nb_items;		/**< Including END. */
	struct rte_flow_action *actions; /**< Ends with RTE_FLOW_ACTION_TYPE_END. */
	unsigned int nb_actions;	/**< Including END. */
	/* destroy (and the template and table ids of their destroy commands) */
	uint32_t *rules;
	unsigned int nb_rules;
	/* template API: configure */
	uint16_t nb_queues;
	uint32_t queue_size;
	uint32_t nb_counters;
	/* pattern template, actions template, table: its id; queue create: the table's */
	uint32_t id;
	int relaxed;
	/** Actions template: the mask list (same length as @p actions). */
	struct rte_flow_action *masks;
	/* table */
	uint32_t rules_number;
	uint32_t pattern_templates[TEST_DM_TABLE_TEMPLATES];
	uint32_t actions_templates[TEST_DM_TABLE_TEMPLATES];
	unsigned int nb_pattern_templates;
	unsigned int nb_actions_templates;
	/* queue create / destroy, push, pull */
	uint32_t queue;
	int postpone;
	uint8_t pattern_index;	/**< Of the table's pattern templates. */
	uint8_t actions_index;
	/* query */
	uint32_t rule;
	enum rte_flow_action_type query_action;
	/* set raw_encap / raw_decap */
	unsigned int slot;
	struct test_dm_arena arena;
};

/** Context with testpmd's defaults (one Rx queue, RSS types "ip", default vxlan). */
void test_dm_flow_ctx_init(struct test_dm_flow_ctx *ctx);

/**
 * Parse one command from tokens @p toks starting at index @p first (which
 * must be "flow" or "set"); all tokens up to the end are consumed.
 * "set" commands also update @p ctx.
 *
 * @return 0 and *out (free with test_dm_flow_cmd_free()), -EINVAL with
 *   @p err filled, -ENOMEM.
 */
int test_dm_flow_parse(struct test_dm_flow_ctx *ctx, const struct test_dm_toks *toks,
		       unsigned int first, struct test_dm_flow_cmd **out,
		       struct test_dm_err *err);

/** Same on a string (positions start at @p file:@p line:1). */
int test_dm_flow_parse_str(struct test_dm_flow_ctx *ctx, const char *text, const char *file,
			   unsigned int line, struct test_dm_flow_cmd **out,
			   struct test_dm_err *err);

void test_dm_flow_cmd_free(struct test_dm_flow_cmd *cmd);

/**
 * The synchronous rule a template table's rule stands for: the items of
 * pattern template @p pt with @p rule's specs under the template's masks (an
 * item without a mask matches its protocol only; in a relaxed template the
 * items after the last masked one are left out, implying nothing), and the
 * actions of @p rule with the configuration of @p at where its mask is not
 * zero. @p items and @p actions hold TEST_DM_FLOW_MAX_ITEMS / _ACTIONS
 * entries and point into the three commands.
 *
 * @return 0, or -EINVAL with @p error when the rule has not its templates' types.
 */
int test_dm_flow_tmpl_rule(const struct test_dm_flow_cmd *pt, const struct test_dm_flow_cmd *at,
			   const struct test_dm_flow_cmd *rule, struct rte_flow_item *items,
			   struct rte_flow_action *actions, struct rte_flow_error *error);

/** testpmd name of an item type ("eth", ...) or NULL when unsupported. */
const char *test_dm_flow_item_name(enum rte_flow_item_type type);
/** testpmd name of an action type ("queue", ...) or NULL when unsupported. */
const char *test_dm_flow_action_name(enum rte_flow_action_type type);

/** Default mask of an item type (rte_flow's rte_flow_item_*_mask), or NULL. */
const void *test_dm_flow_item_default_mask(enum rte_flow_item_type type);
/** Size of an item type's spec structure, 0 when it has none or is unknown. */
size_t test_dm_flow_item_size(enum rte_flow_item_type type);
/** The packet header an item type matches (TEST_DM_L_COUNT: none, e.g. META, GRE_KEY). */
enum test_dm_layer test_dm_flow_item_layer(enum rte_flow_item_type type);

/** RTE_FLOW_ERROR_TYPE_* from its name (with or without the prefix); -1 if unknown. */
int test_dm_flow_error_type_parse(const char *s, size_t len);
/** Name of an RTE_FLOW_ERROR_TYPE_* value ("RTE_FLOW_ERROR_TYPE_ITEM"). */
const char *test_dm_flow_error_type_name(int type);

/**
 * Header bytes that a list of items describes, the way "set raw_encap"
 * turns items into bytes: each item's spec (zeros without one) with the
 * next-protocol fields and version fields filled in when left at zero.
 *
 * @return number of bytes, -EINVAL for an item that is not a header, -E2BIG.
 */
int test_dm_flow_items_to_bytes(const struct rte_flow_item *items, uint8_t *buf, size_t cap);

#endif /* _TEST_DM_FLOW_H_ */
