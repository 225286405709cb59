/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#ifndef _TEST_DM_REF_PRIV_H_
#define _TEST_DM_REF_PRIV_H_

/* Internals of the reference classifier, shared by its files. */

#include "test_dm_ref.h"

struct test_dm_ref_rule {
	uint16_t port;
	uint64_t seq;			/**< Creation order (tie-break). */
	struct rte_flow_attr attr;
	const struct rte_flow_item *pattern;
	const struct rte_flow_action *actions;
	uint8_t counted;		/**< Has a COUNT action. */
	uint64_t hits;
	uint64_t bytes;
};

struct test_dm_ref {
	struct test_dm_ref_cfg cfg;
	struct test_dm_ref_rule **rules;	/**< In creation order. */
	unsigned int n;
	unsigned int cap;
	uint64_t seq;
};

/** A packet being classified: its bytes (in the fate) and metadata. */
struct test_dm_ref_pkt {
	uint8_t *data;
	uint32_t len;
	struct test_dm_pkt_info info;
	uint32_t meta;
	uint32_t tags[TEST_DM_REF_TAGS];
	uint32_t mark;
	uint8_t marked;			/**< A MARK action ran (for a MARK item without spec). */
	/** VLAN tags the device parses in a row (0: any number); what follows more is payload. */
	uint8_t max_vlans;
	/** No header behind the IP header of an IPv4 fragment, the first one included. */
	uint8_t frag_stops;
	uint8_t fdir;
	uint8_t fdir_id;
	/*
	 * Where a frame entering the E-Switch came from (TEST_DM_REF_NO_PORT:
	 * not so): the port representing its source (a VF's representor, the PF
	 * for the uplink), or the representor port that sent it.
	 */
	uint16_t src_represented;
	uint16_t src_ethdev;
	/* A port action of a transfer rule: its type and port. */
	enum rte_flow_action_type fwd;
	uint16_t fwd_port;
};

/** Outcome of one rule's actions. */
struct test_dm_ref_verdict {
	uint8_t fate;		/**< QUEUE, RSS or DROP ran: fate->kind is set. */
	uint8_t jump;
	uint32_t group;
	uint8_t forward;	/**< A port action ran: pkt->fwd, pkt->fwd_port. */
};

/** Fill @p e (when not NULL) and return -code. */
int test_dm_ref_err(struct rte_flow_error *e, int code, enum rte_flow_error_type type,
		    const void *cause, const char *msg);

/** Is @p port the PF or a representor of the E-Switch? 0, or -EINVAL with @p e set. */
int test_dm_ref_switch_port(const struct test_dm_ref *r, uint32_t port, struct rte_flow_error *e,
			    enum rte_flow_error_type type, const void *cause);

/* test_dm_ref_match.c */
/** Does the pattern match the packet (headers and metadata)? */
int test_dm_ref_match(const struct rte_flow_item *pattern, const struct test_dm_ref_pkt *pkt);
/** rte_flow rules for one item: spec present with mask/last, ranges not empty. */
int test_dm_ref_item_check(const struct rte_flow_item *item, struct rte_flow_error *e);

/* test_dm_ref_actions.c */
int test_dm_ref_apply(struct test_dm_ref *r, struct test_dm_ref_rule *rule,
		      struct test_dm_ref_pkt *pkt, struct test_dm_fate *fate,
		      struct test_dm_ref_verdict *v);
int test_dm_ref_action_check(const struct test_dm_ref *r, const struct rte_flow_attr *attr,
			     const struct rte_flow_item *pattern,
			     const struct rte_flow_action *actions, struct rte_flow_error *e);
/** Decode again after the packet's bytes changed (the device parses again too). */
void test_dm_ref_redecode(struct test_dm_ref_pkt *pkt);
/** Make checksums right after header @p h was rewritten. */
void test_dm_ref_touch(const struct test_dm_ref *r, struct test_dm_ref_pkt *pkt, int h);

/**
 * Can every range ("last") of the item be written as spec/mask (the
 * field's top bits equal, the rest 0 in spec and 1 in last)? @return -1 if
 * so, else the byte offset in the spec of the first field that cannot.
 */
int test_dm_ref_item_range_off(const struct rte_flow_item *item);

/* test_dm_ref_limits_*.c: TEST_DM_REF_LIMITS_MLX5DM (see test_dm_ref.h) */
int test_dm_ref_limits_attr(const struct test_dm_ref *r, const struct rte_flow_attr *attr,
			    struct rte_flow_error *e);
int test_dm_ref_limits_items(const struct test_dm_ref *r, const struct rte_flow_attr *attr,
			     const struct rte_flow_item *pattern, struct rte_flow_error *e);
int test_dm_ref_limits_actions(const struct test_dm_ref *r, const struct rte_flow_attr *attr,
			       const struct rte_flow_item *pattern,
			       const struct rte_flow_action *actions, struct rte_flow_error *e);

/* test_dm_ref_modify.c */
/** The header layer a MODIFY_FIELD field is in, -1 for metadata and unknown fields. */
int test_dm_ref_modify_field_layer(enum rte_flow_field_id id);
int test_dm_ref_modify_check(const struct rte_flow_action_modify_field *mf,
			     struct rte_flow_error *e);
void test_dm_ref_modify(const struct test_dm_ref *r, struct test_dm_ref_pkt *pkt,
			const struct rte_flow_action_modify_field *mf);

#endif /* _TEST_DM_REF_PRIV_H_ */
