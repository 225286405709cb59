/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#ifndef _TEST_DM_CASE_H_
#define _TEST_DM_CASE_H_

/*
 * Case files: one test case per file, a script of statements run in order
 * (doc/guides/tools/testdm.rst has the full description):
 *
 *   case <name>                        queues <n>           port <p>
 *   topology switch                    (the E-Switch's ports, test_dm_topo.h)
 *   require flow validate ...          (else the case is skipped, with the reason)
 *   flow create|validate|destroy|flush|query ...   (testpmd syntax)
 *   flow configure|pattern_template|actions_template|template_table|queue|push|pull ...
 *   set raw_encap|raw_decap|vxlan ...              (testpmd syntax)
 *   send [port <p>] [count <n>] <packet> | hex <bytes> | from <file.pcap>
 *   expect [packet <k>] queue <q> | port <p> [queue <q>] | drop | received <n>
 *   expect [packet <k>] bytes <packet> | bytes hex <bytes>
 *   expect [packet <k>] field <layer[.n].field> ==|!= <value>
 *   expect [packet <k>] mark <v> | mark none | flag | no flag
 *   expect rss queues <set> [port <p>] | rss spread over queues <set> [port <p>]
 *   expect count rule <id> [port <p>] packets <n> [bytes <m>]
 *   expect reject <flow create|validate ...> error <RTE_FLOW_ERROR_TYPE_*>
 *   repeat <n> ... end                 (the statements between run n times)
 *
 * Expectations without "count"/"reject" apply to the packets of the
 * "send" before them. Lines continue with a backslash; '#' comments.
 */

#include <stdint.h>

#include "test_dm_flow.h"
#include "test_dm_pkt.h"
#include "test_dm_pktlist.h"
#include "test_dm_text.h"

#define TEST_DM_CASE_MAX_QUEUES 128

enum test_dm_expect_type {
	TEST_DM_EXPECT_QUEUE,	/**< Arrived on (port,) queue. */
	TEST_DM_EXPECT_PORT,	/**< Arrived on a port, any queue. */
	TEST_DM_EXPECT_DROP,
	TEST_DM_EXPECT_RECEIVED,	/**< So many packets of the send arrived (group only). */
	TEST_DM_EXPECT_BYTES,
	TEST_DM_EXPECT_FIELD,
	TEST_DM_EXPECT_MARK,
	TEST_DM_EXPECT_NO_MARK,
	TEST_DM_EXPECT_FLAG,
	TEST_DM_EXPECT_NO_FLAG,
	TEST_DM_EXPECT_RSS,	/**< Arrived on a queue of the set. */
	/** ... and every queue of the set got some (group only). */
	TEST_DM_EXPECT_RSS_SPREAD,
};

struct test_dm_expect {
	enum test_dm_expect_type type;
	struct test_dm_pos pos;
	int packet;		/**< Index in the send, -1 for all its packets. */
	int port;		/**< -1: where the sending port's wire leads. */
	uint32_t value;		/**< Queue, mark, or count of received packets. */
	/* bytes */
	struct test_dm_pkt_tmpl *tmpl;	/**< Built with the packet's index, or NULL... */
	struct test_dm_bytes hex;	/**< ...for literal bytes. */
	/* field */
	struct test_dm_fref fref;
	struct test_dm_fval fval;
	int negate;
	/* rss */
	uint8_t qset[TEST_DM_CASE_MAX_QUEUES];
};

struct test_dm_send {
	uint16_t port;
	struct test_dm_pktlist pkts;
	struct test_dm_expect *exp;
	unsigned int nb_exp;
	unsigned int cap_exp;
};

enum test_dm_step_type {
	TEST_DM_STEP_FLOW,	/**< A flow command to run; failure fails the case. */
	TEST_DM_STEP_SEND,	/**< Send packets, check expectations. */
	TEST_DM_STEP_COUNT,	/**< Query a rule's counter. */
	TEST_DM_STEP_REJECT,	/**< A flow command that must fail. */
	TEST_DM_STEP_REPEAT,	/**< Start of a block run @p repeat times. */
	TEST_DM_STEP_END,	/**< End of the block: back to @p block if runs remain. */
	/** A rule the runner must accept (flow validate), else the case is skipped. */
	TEST_DM_STEP_REQUIRE,
};

/** Deepest nesting of repeat blocks. */
#define TEST_DM_CASE_MAX_DEPTH 4
/** Most runs of one repeat block. */
#define TEST_DM_CASE_MAX_REPEAT 100000

struct test_dm_step {
	enum test_dm_step_type type;
	struct test_dm_pos pos;
	struct test_dm_flow_cmd *flow;	/**< FLOW, REJECT, REQUIRE */
	int error_type;			/**< REJECT: RTE_FLOW_ERROR_TYPE_* */
	struct test_dm_send send;	/**< SEND */
	/* COUNT */
	uint16_t port;
	uint32_t rule;
	uint64_t packets;
	uint64_t bytes;
	int has_bytes;
	/* REPEAT / END */
	uint32_t repeat;		/**< REPEAT: number of runs. */
	unsigned int block;		/**< REPEAT: index of its END; END: of its REPEAT. */
};

struct test_dm_case {
	char *name;
	char *file;		/**< Positions point into this string. */
	uint16_t nb_queues;	/**< Rx queues per port the case expects (default 4). */
	uint16_t port;		/**< Default sending port (default 0). */
	/** Needs the switch topology ("topology switch"): its ports, named by role. */
	uint8_t needs_switch;
	struct test_dm_step *steps;
	unsigned int nb_steps;
	unsigned int cap_steps;
};

/**
 * Parse a case from @p text. @p file names it in errors and locates the
 * pcap files it reads (relative to its directory).
 *
 * @return 0 and *out (free with test_dm_case_free()), -EINVAL with @p err,
 *   -ENOMEM.
 */
int test_dm_case_parse(const char *text, size_t len, const char *file,
		       struct test_dm_case **out, struct test_dm_err *err);

/** Read and parse a case file. */
int test_dm_case_load(const char *path, struct test_dm_case **out, struct test_dm_err *err);

void test_dm_case_free(struct test_dm_case *c);

/** Does the case use rte_flow (flow commands, rejections, counters)? */
int test_dm_case_uses_flow(const struct test_dm_case *c);

#endif /* _TEST_DM_CASE_H_ */
