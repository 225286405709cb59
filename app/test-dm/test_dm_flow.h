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
 *   set raw_encap|raw_decap [<index>] <item> [fields] / ... / end_set
 *   set vxlan|vxlan-with-vlan|vxlan-tos-ttl ip-version ipv4|ipv6 vni N ...
 */

#include <stdint.h>

#include <rte_flow.h>

#include "test_dm_arena.h"
#include "test_dm_pkt.h"
#include "test_dm_text.h"

/** Number of raw_encap / raw_decap slots (as in testpmd). */
#define TEST_DM_RAW_SLOTS 8
/** Largest raw encapsulation header (as in testpmd). */
#define TEST_DM_RAW_MAX 512
/** Largest RSS queue list (as in testpmd). */
#define TEST_DM_RSS_QUEUES_MAX 128
/** Largest RSS key accepted. */
#define TEST_DM_RSS_KEY_MAX 64

enum test_dm_flow_cmd_type {
	TEST_DM_FLOW_CREATE,
	TEST_DM_FLOW_VALIDATE,
	TEST_DM_FLOW_DESTROY,
	TEST_DM_FLOW_FLUSH,
	TEST_DM_FLOW_QUERY,
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
	/* destroy */
	uint32_t *rules;
	unsigned int nb_rules;
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
