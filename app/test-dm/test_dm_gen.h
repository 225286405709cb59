/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#ifndef _TEST_DM_GEN_H_
#define _TEST_DM_GEN_H_

/*
 * Random rules and packets for the random mode, as text: rules as testpmd
 * "flow create" commands, packets as packet descriptions. Both draw header
 * values from the same small pools so that packets hit rules often, and
 * stay within what net_mlx5dm supports (its items and actions, the order
 * it applies header changes, jumps to higher groups only). Priorities are
 * distinct within a group, so every packet has exactly one first match.
 *
 * Everything comes from a seed (xoshiro256**): the same seed gives the same
 * rules and packets anywhere.
 */

#include <stddef.h>
#include <stdint.h>

struct test_dm_gen_cfg {
	uint16_t tx_port;		/**< Port that sends: egress rules go there. */
	uint16_t rx_port;		/**< Where packets arrive: ingress rules. */
	uint16_t nb_queues;		/**< Rx queues of rx_port. */
	unsigned int in_groups;		/**< Ingress groups 0..in_groups-1 (default 4). */
	unsigned int out_groups;	/**< Egress groups (default 2). */
	unsigned int rules;		/**< Rules the run asks for (sizes the priorities). */
	/**
	 * Percent of the rules that are 5-tuple rules of one matcher: ingress
	 * group 1 at priority 0 (which no other rule takes), IPv4 and UDP
	 * addresses and ports matched whole, each tuple once (no packet meets
	 * two of them). 0: none.
	 */
	unsigned int tuples;
	/**
	 * Percent of the rules that are transfer rules of the switch topology's
	 * E-Switch (test_dm_topo.h; 0: none): made on "pf", matching what one
	 * port of the switch sent or any traffic, changing headers, then to a
	 * port of the switch (represented_port, port_representor), dropped or
	 * on to a later transfer group. The other rules are then NIC rules of
	 * the switch's ports, by name: the PF's ingress rules, a VF's either
	 * way, a representor's (tx_port and rx_port are not used).
	 */
	unsigned int transfer;
	unsigned int fdb_groups;	/**< Transfer groups 0..fdb_groups-1 (default 3). */
};

struct test_dm_gen;

/** NULL on a bad configuration or no memory. */
struct test_dm_gen *test_dm_gen_new(const struct test_dm_gen_cfg *cfg, uint64_t seed);
void test_dm_gen_free(struct test_dm_gen *g);

/** "set ..." commands the rules rely on (VXLAN_ENCAP's headers), NULL-terminated. */
extern const char *const test_dm_gen_preamble[];

/** The next random rule. @return 0, or -E2BIG when @p size is too small. */
int test_dm_gen_rule(struct test_dm_gen *g, char *buf, size_t size);

/**
 * The next random packet: a description whose payload ends with the tag of
 * @p index (test_dm_tag.h). @return 0 or -E2BIG.
 */
int test_dm_gen_packet(struct test_dm_gen *g, uint32_t index, char *buf, size_t size);

#endif /* _TEST_DM_GEN_H_ */
