/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#ifndef _TEST_DM_RANDOM_H_
#define _TEST_DM_RANDOM_H_

/*
 * The random mode: a few hundred random rules (test_dm_gen.h) installed on
 * a runner and on the reference classifier, then random packets sent
 * through the runner in tagged bursts; each packet's fate on the runner is
 * compared with the reference's (test_dm_cmp.h), and so are the counters of
 * the rules that count. Mismatches are reported with the packet and the
 * rule set, as a case file that replays them.
 */

#include <stdint.h>
#include <stdio.h>

#include "test_dm_progress.h"
#include "test_dm_runner.h"

struct test_dm_random_cfg {
	uint64_t seed;
	uint64_t packets;
	unsigned int rules;		/**< Rules to install (default 300). */
	uint16_t port;			/**< Sending port; its peer receives. */
	uint16_t nb_queues;		/**< Rx queues per port (default 8). */
	unsigned int batch;		/**< Packets per send (default 256). */
	/** Where the reproducer goes when something mismatches (NULL: the current directory). */
	const char *out_dir;
	unsigned int max_report;	/**< Mismatching packets written out (default 20). */
	/**
	 * Each rule through the template API: a table of its own (its group,
	 * priority and direction, its templates made of its items' masks and
	 * its actions), a postponed create on one of two flow queues, pushed
	 * and pulled in batches.
	 */
	int templates;
	/**
	 * After the packets and the counters: every other installed rule is
	 * destroyed (through the flow queues with templates), then as many new
	 * packets are sent and compared, and the counters again.
	 */
	int churn;
	/**
	 * Half the rules 5-tuple rules of one matcher (test_dm_gen_cfg.tuples):
	 * many rules in one hash table; with templates, those of one shape and
	 * actions share a small table, which grows.
	 */
	int tuples;
	/**
	 * The switch topology's E-Switch (test_dm_topo.h, port unused): 40% of
	 * the rules are transfer rules (test_dm_gen_cfg.transfer), the others
	 * NIC rules of the switch's ports, and each burst comes from one port
	 * of the switch in turn: the wire (sent by the PF, whose uplink is
	 * looped), a VF, a representor.
	 */
	int transfer;
	FILE *log;			/**< Mismatch lines; NULL for none. */
	int verbose;
	struct test_dm_progress *progress;
};

struct test_dm_random_result {
	unsigned int rules;		/**< Installed on both. */
	unsigned int gen_refused;	/**< Generated rules the reference refused (not used). */
	unsigned int runner_refused;	/**< Accepted by the reference, refused by the runner. */
	unsigned int via_templates;	/**< Installed through the template API (templates). */
	unsigned int tables;		/**< Template tables they went into (templates). */
	unsigned int destroyed;		/**< Rules destroyed on both (churn). */
	unsigned int destroy_failures;	/**< Destructions the runner refused or failed. */
	uint64_t packets;
	uint64_t received;
	uint64_t mismatches;		/**< Packets whose fate differs. */
	unsigned int count_mismatches;	/**< Rules whose counters differ. */
	/* Coverage, from the reference: fates of the packets and rules they met. */
	uint64_t dropped;
	uint64_t queued;		/**< By a QUEUE action. */
	uint64_t spread;		/**< By an RSS action. */
	uint64_t missed;		/**< No rule decided: the port's default RSS. */
	/** A transfer rule sent it to a port of the switch (its default RSS there). */
	uint64_t switched;
	unsigned int rules_hit;		/**< Installed rules at least one packet met. */
	char first[512];		/**< First problem (empty when none). */
	/** The case file written ("; " its -sent.pcap and -recv.pcap), or why none. */
	char reproducer[1024];
};

/** Failures of a random run (mismatching packets, counters and refused rules). */
static inline uint64_t
test_dm_random_failures(const struct test_dm_random_result *res)
{
	return res->mismatches + res->count_mismatches + res->runner_refused +
	       res->destroy_failures;
}

/**
 * @return 0 when the run happened (see @p res for its verdict), <0 when it
 *   could not (runner not ready, generator fault, no memory) with the reason
 *   in res->first.
 */
int test_dm_random_run(const struct test_dm_runner_ops *ops, void *ctx,
		       const struct test_dm_random_cfg *cfg, struct test_dm_random_result *res);

#endif /* _TEST_DM_RANDOM_H_ */
