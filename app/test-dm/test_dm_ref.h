/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#ifndef _TEST_DM_REF_H_
#define _TEST_DM_REF_H_

/*
 * Reference classifier: what rte_flow says should happen to a packet,
 * computed in software from the same rte_flow structures given to the PMD.
 * It is the oracle the app compares the device against.
 *
 * Semantics (rte_flow of DPDK 22.11, plus the project's tie-break):
 *  - a packet sent on port P first meets P's egress rules, then crosses the
 *    wire to peer(P) and meets its ingress rules; each direction starts in
 *    group 0;
 *  - within a group the matching rule with the lowest priority value wins,
 *    among equal priorities the earliest created one (the fate records that
 *    such a tie happened: rte_flow leaves it undefined);
 *  - actions run in list order on the packet as modified so far; JUMP
 *    continues in the target group with the modified packet; QUEUE, RSS and
 *    DROP decide the fate; COUNT counts the packet's length at that point
 *    (with TEST_DM_REF_LIMITS_MLX5DM where the device counts: on ingress
 *    after the rule's decapsulation and VLAN pops, before its VLAN pushes;
 *    on egress before its header changes);
 *  - a miss (in any group) ends the direction: egress sends the packet to
 *    the wire, ingress delivers it by the port's default RSS over all its
 *    queues; modifications and marks made so far are kept. With
 *    TEST_DM_REF_LIMITS_MLX5DM an ingress miss in a group above 0 drops the
 *    packet: net_mlx5dm's default rule is in group 0, and the tables of the
 *    other groups miss to NIC RX's default, drop;
 *  - patterns match from the outermost header; VLAN tags not named by the
 *    pattern are skipped after ETH, and a pattern not starting with ETH
 *    skips the outer L2; `last` gives inclusive ranges per field; a NULL
 *    mask means the item's default mask;
 *  - the E-Switch (cfg.role: a PF, VF representors, VF functions): a frame
 *    a VF function sends (after its egress rules), a frame from the wire of
 *    the PF (after the sending port's egress rules) and a frame a representor
 *    sends meet the transfer rules of the switch, whatever port they were
 *    created on, from group 0. REPRESENTED_PORT and PORT_ID match the port
 *    representing the source (a VF's representor; the PF for the uplink),
 *    PORT_REPRESENTOR the representor that sent it. REPRESENTED_PORT and
 *    PORT_ID actions send to what the port represents (a VF's function and
 *    its ingress rules; the PF: the uplink, the wire), PORT_REPRESENTOR to
 *    the port itself (its ingress rules). A miss in any group delivers to
 *    the source's representor (from the wire: the PF), a representor's own
 *    frame to what it represents;
 *  - header rewrites leave valid IPv4 header checksums and TCP/UDP/ICMP
 *    checksums (a zero UDP checksum stays zero); encapsulation fills in the
 *    outer lengths and IPv4 checksum (cfg.fix_cksum = 0 turns this off).
 */

#include <stdint.h>
#include <stdio.h>

#include <rte_flow.h>

#include "test_dm_pkt.h"

#define TEST_DM_REF_MAX_PORTS 16
#define TEST_DM_REF_MAX_QUEUES 128
#define TEST_DM_REF_TAGS 8
/** Longest chain of JUMPs followed before a packet is declared looping. */
#define TEST_DM_REF_MAX_JUMPS 32
/** Most rules recorded in a fate's hit chain. */
#define TEST_DM_REF_CHAIN 16

/** Whose limits the classifier applies on top of rte_flow's rules. */
enum test_dm_ref_limits {
	TEST_DM_REF_LIMITS_NONE,	/**< rte_flow only. */
	/**
	 * Also refuse what net_mlx5dm documents it refuses (rte_flow section of
	 * doc/guides/nics/mlx5dm.rst), with the error type it gives; checked
	 * before rte_flow's rules of the same stage (attributes, each item, the
	 * actions), as the PMD checks them, so a rule gets the PMD's error type.
	 */
	TEST_DM_REF_LIMITS_MLX5DM,
};

/** No port (a packet that did not come through the E-Switch). */
#define TEST_DM_REF_NO_PORT UINT16_MAX

/** What a port is to the E-Switch (the switch topology, test_dm_topo.h). */
enum test_dm_ref_role {
	TEST_DM_REF_NIC,	/**< Not on the E-Switch (its wire may lead to the PF). */
	TEST_DM_REF_PF,		/**< The PF: e-switch manager, uplink representor. */
	TEST_DM_REF_REP,	/**< The representor of VF vf[port]. */
	TEST_DM_REF_VF,		/**< VF vf[port]'s own function (the VM's view). */
};

struct test_dm_ref_cfg {
	uint16_t nb_ports;
	/** The wire: what is sent on port p arrives on peer[p]. */
	uint16_t peer[TEST_DM_REF_MAX_PORTS];
	/** Rx queues of every port (default RSS spreads over all of them). */
	uint16_t nb_rxq;
	/** Keep checksums and encapsulation lengths valid (as the NIC does). */
	uint8_t fix_cksum;
	/** enum test_dm_ref_limits */
	uint8_t limits;
	/** enum test_dm_ref_role of each port (all NIC by default: no E-Switch). */
	uint8_t role[TEST_DM_REF_MAX_PORTS];
	uint8_t vf[TEST_DM_REF_MAX_PORTS];
};

/** Defaults: every port looped to itself, checksums fixed, rte_flow's rules only. */
void test_dm_ref_cfg_init(struct test_dm_ref_cfg *cfg, uint16_t nb_ports, uint16_t nb_rxq);

enum test_dm_fate_kind {
	TEST_DM_FATE_DROP,
	TEST_DM_FATE_QUEUE,
	TEST_DM_FATE_RSS,	/**< One of queues[] (an RSS rule or the default). */
};

struct test_dm_ref_rule;

/** What happens to one packet. */
struct test_dm_fate {
	enum test_dm_fate_kind kind;
	uint16_t port;			/**< Receiving port (not meaningful when dropped). */
	uint16_t queue;			/**< TEST_DM_FATE_QUEUE */
	uint16_t queues[TEST_DM_REF_MAX_QUEUES]; /**< TEST_DM_FATE_RSS candidates. */
	uint16_t nb_queues;
	uint64_t rss_types;
	uint8_t default_rss;		/**< No rule decided: the port's default RSS. */
	uint8_t dropped_on_egress;
	uint8_t loop;			/**< Dropped: JUMP chain did not end. */
	uint8_t group_miss;		/**< Dropped: missed in an ingress group above 0. */
	uint8_t ambiguous;		/**< Two rules of one group and priority matched. */
	uint8_t dropped_in_fdb;		/**< Dropped by a transfer rule. */
	uint8_t fdb_miss;		/**< No transfer rule decided: source's representor. */
	uint8_t switched;		/**< A transfer rule sent it to a port of the switch. */
	uint8_t fdir;			/**< RTE_MBUF_F_RX_FDIR (MARK or FLAG). */
	uint8_t fdir_id;		/**< RTE_MBUF_F_RX_FDIR_ID (MARK): mark is valid. */
	uint32_t mark;
	uint32_t meta;
	uint32_t tags[TEST_DM_REF_TAGS];
	const struct test_dm_ref_rule *chain[TEST_DM_REF_CHAIN]; /**< Rules hit, in order. */
	unsigned int nb_chain;
	uint32_t len;
	uint8_t data[TEST_DM_PKT_MAX];	/**< The packet as delivered. */
};

struct test_dm_ref;

struct test_dm_ref *test_dm_ref_new(const struct test_dm_ref_cfg *cfg);
void test_dm_ref_free(struct test_dm_ref *r);

/**
 * Check a rule against what rte_flow defines (not against device limits).
 *
 * @return 0, or a negative errno with @p error set (type and message).
 */
int test_dm_ref_validate(const struct test_dm_ref *r, uint16_t port,
			 const struct rte_flow_attr *attr, const struct rte_flow_item *pattern,
			 const struct rte_flow_action *actions, struct rte_flow_error *error);

/**
 * Add a rule (after validation). The pattern and action arrays (and what
 * they point to) are not copied: they must outlive the rule.
 *
 * @return the rule, or NULL with @p error set.
 */
struct test_dm_ref_rule *test_dm_ref_rule_add(struct test_dm_ref *r, uint16_t port,
					      const struct rte_flow_attr *attr,
					      const struct rte_flow_item *pattern,
					      const struct rte_flow_action *actions,
					      struct rte_flow_error *error);

/** Remove a rule. @return 0 or -ENOENT. */
int test_dm_ref_rule_del(struct test_dm_ref *r, struct test_dm_ref_rule *rule);

/** Remove every rule of @p port. */
void test_dm_ref_flush(struct test_dm_ref *r, uint16_t port);

/** Write the rules of @p port (both directions) and their counters, one per line. */
void test_dm_ref_dump(const struct test_dm_ref *r, uint16_t port, FILE *f);

/** Number of rules installed on @p port. */
unsigned int test_dm_ref_count(const struct test_dm_ref *r, uint16_t port);

/**
 * Counter of a rule with a COUNT action (q->reset clears it after reading).
 *
 * @return 0, or -ENOTSUP with @p error when the rule does not count.
 */
int test_dm_ref_query(struct test_dm_ref *r, struct test_dm_ref_rule *rule,
		      struct rte_flow_query_count *q, struct rte_flow_error *error);

/**
 * A packet sent on @p tx_port: egress rules of tx_port, the wire, ingress
 * rules of its peer. Updates counters.
 *
 * @return 0, -EINVAL (bad port), -E2BIG (packet grows past TEST_DM_PKT_MAX).
 */
int test_dm_ref_send(struct test_dm_ref *r, uint16_t tx_port, const uint8_t *p, size_t len,
		     struct test_dm_fate *fate);

/** A packet arriving from the wire on @p rx_port (ingress rules only). */
int test_dm_ref_receive(struct test_dm_ref *r, uint16_t rx_port, const uint8_t *p, size_t len,
			struct test_dm_fate *fate);

#endif /* _TEST_DM_REF_H_ */
