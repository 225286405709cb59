/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#ifndef _TEST_DM_RUNNER_H_
#define _TEST_DM_RUNNER_H_

/*
 * Running a case against something that forwards packets: the runner
 * interface (a table of operations) and the case executor that drives it and
 * checks every expectation.
 *
 * Two runners are meant to exist: the reference classifier
 * (test_dm_ref_runner.c, the oracle) and net_mlx5dm ports through ethdev and
 * rte_flow (once the PMD supports flows). The random mode runs both on the
 * same rules and packets and compares.
 */

#include <stdint.h>
#include <stdio.h>

#include <rte_flow.h>

#include "test_dm_case.h"

/** What became of one sent packet. */
struct test_dm_rx {
	uint8_t received;
	uint16_t port;
	uint16_t queue;
	uint8_t fdir;		/**< RTE_MBUF_F_RX_FDIR */
	uint8_t fdir_id;	/**< RTE_MBUF_F_RX_FDIR_ID: mark is valid */
	uint32_t mark;		/**< mbuf hash.fdir.hi */
	/** Reference only: two rules of one group and priority matched (undefined winner). */
	uint8_t ambiguous;
	/** Received bytes, malloc'ed by the runner and freed by the caller. */
	uint8_t *data;
	uint32_t len;
};

struct test_dm_runner_ops {
	const char *name;
	/** Get ready for a case (ports up with c->nb_queues Rx queues, no rules). */
	int (*case_begin)(void *ctx, const struct test_dm_case *c, char *msg, size_t size);
	/** Remove whatever the case left (rules on every port). */
	void (*case_end)(void *ctx);
	/** Create a rule; *handle identifies it to destroy/query. */
	int (*flow_create)(void *ctx, const struct test_dm_flow_cmd *cmd, void **handle,
			   struct rte_flow_error *error);
	int (*flow_validate)(void *ctx, const struct test_dm_flow_cmd *cmd,
			     struct rte_flow_error *error);
	int (*flow_destroy)(void *ctx, uint16_t port, void *handle, struct rte_flow_error *error);
	int (*flow_flush)(void *ctx, uint16_t port, struct rte_flow_error *error);
	int (*flow_query_count)(void *ctx, uint16_t port, void *handle,
				struct rte_flow_query_count *q, struct rte_flow_error *error);
	/*
	 * The template API (NULL: the runner has none). Templates and tables are
	 * made from their commands; a table's @p refs are the handles of its
	 * pattern templates then of its actions templates, in the command's order.
	 */
	int (*flow_configure)(void *ctx, const struct test_dm_flow_cmd *cmd,
			      struct rte_flow_error *error);
	int (*template_create)(void *ctx, const struct test_dm_flow_cmd *cmd, void *const *refs,
			       void **handle, struct rte_flow_error *error);
	/** @p type: TEST_DM_FLOW_PATTERN_TEMPLATE, _ACTIONS_TEMPLATE or _TABLE. */
	int (*template_destroy)(void *ctx, enum test_dm_flow_cmd_type type, uint16_t port,
				void *handle, struct rte_flow_error *error);
	/** rte_flow_async_create() of @p cmd (TEST_DM_FLOW_QUEUE_CREATE) into @p table. */
	int (*async_create)(void *ctx, const struct test_dm_flow_cmd *cmd, void *table,
			    void *user_data, void **handle, struct rte_flow_error *error);
	int (*async_destroy)(void *ctx, uint16_t port, uint32_t queue, int postpone,
			     void *handle, void *user_data, struct rte_flow_error *error);
	int (*push)(void *ctx, uint16_t port, uint32_t queue, struct rte_flow_error *error);
	/** rte_flow_pull(): the number of results written, or <0. */
	int (*pull)(void *ctx, uint16_t port, uint32_t queue, struct rte_flow_op_result *res,
		    uint16_t n, struct rte_flow_error *error);
	/** Send packets on @p port and report each one's fate in rx[i]. */
	int (*send)(void *ctx, uint16_t port, const struct test_dm_pktlist *pkts,
		    struct test_dm_rx *rx);
	/** Port where packets sent on @p port arrive. */
	uint16_t (*peer)(void *ctx, uint16_t port);
	/**
	 * Optional (NULL: send() is used). Like send(), for packets that end with
	 * consecutive tags (test_dm_tag.h), pkts[i] carrying the tag of pkts[0]
	 * plus i: the runner may send them in bursts and pair what arrives with
	 * what was sent by the tag, instead of waiting for each packet in turn.
	 * Callers number on across calls, so a late packet of an earlier call is
	 * told apart (and ignored: its packet was reported dropped).
	 */
	int (*send_tagged)(void *ctx, uint16_t port, const struct test_dm_pktlist *pkts,
			   struct test_dm_rx *rx);
	/**
	 * Optional. Write the steering state of @p port to @p f (for a failing
	 * case). @return 0, or <0 with the reason in @p why.
	 */
	int (*dump)(void *ctx, uint16_t port, FILE *f, char *why, size_t size);
};

struct test_dm_run_opts {
	FILE *log;		/**< Failures (and with verbose, every step); NULL for none. */
	int verbose;
	/**
	 * Where a failing case leaves its evidence (NULL: nowhere):
	 * <case>-l<line>-sent.pcap / -recv.pcap of failing sends and
	 * <case>-dump.txt, the steering dump of its ports at the first failure.
	 */
	const char *out_dir;
	/** Most failure lines logged per case (0: no limit); all are counted. */
	unsigned int max_log;
};

struct test_dm_case_result {
	unsigned int checks;	/**< Expectations and steps checked. */
	unsigned int failed;
	unsigned int packets;	/**< Packets sent. */
	unsigned int received;	/**< Of which arrived somewhere. */
	/** First failure, "file:line:col: what" (empty when none). */
	char first_failure[512];
	/** Evidence written (pcap/dump paths), or why the dump is missing. */
	char artifacts[512];
	/** Not run: the runner refused a "require" rule, why (empty when it ran). */
	char skipped[512];
};

/**
 * Run every step of @p c through @p ops, then remove its rules.
 *
 * @return 0 when the case ran (passed or not: see @p res), negative when the
 *   runner could not run it at all.
 */
int test_dm_case_run(const struct test_dm_case *c, const struct test_dm_runner_ops *ops,
		     void *ctx, const struct test_dm_run_opts *opts,
		     struct test_dm_case_result *res);

/* The reference classifier as a runner (test_dm_ref_runner.c). */
struct test_dm_ref;
extern const struct test_dm_runner_ops test_dm_ref_runner_ops;

/**
 * Runner context over the reference classifier (nb_ports ports, peers as
 * given, NULL: each port looped to itself), applying net_mlx5dm's limits
 * (TEST_DM_REF_LIMITS_MLX5DM) unless told otherwise.
 */
struct test_dm_ref_runner;
struct test_dm_ref_runner *test_dm_ref_runner_new(uint16_t nb_ports, const uint16_t *peer);
/** Port @p port's enum test_dm_ref_role on the E-Switch (VF @p vf for REP and VF). */
void test_dm_ref_runner_set_role(struct test_dm_ref_runner *rr, uint16_t port, int role,
				 uint8_t vf);
/** enum test_dm_ref_limits for the next cases. */
void test_dm_ref_runner_set_limits(struct test_dm_ref_runner *rr, int limits);
void test_dm_ref_runner_free(struct test_dm_ref_runner *rr);
/** The classifier behind the runner (for inspection in tests). */
struct test_dm_ref *test_dm_ref_runner_ref(struct test_dm_ref_runner *rr);

#endif /* _TEST_DM_RUNNER_H_ */
