/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#ifndef _TEST_DM_OPTS_H_
#define _TEST_DM_OPTS_H_

/* dpdk-test-dm's command line (after the EAL's "--"). */

#include <stdint.h>

#include "test_dm_topo.h"

/** Exit status: some check failed. */
#define TEST_DM_EXIT_FAIL 1
/** Exit status: nothing could be run (bad options, no device, no suite). */
#define TEST_DM_EXIT_SETUP 2
/** --cabled pairs at most. */
#define TEST_DM_MAX_CABLES 16

struct test_dm_config {
	/* loopback check (the mode without cases) */
	unsigned int packets;
	int verbose;
	/* where cases run */
	int check;			/**< On the reference classifier. */
	int run;			/**< On the net_mlx5dm ports (the default with cases). */
	unsigned int wait_us;
	unsigned int quiet_us;
	const char *out_dir;
	/* what runs */
	const char **suites;
	unsigned int nb_suites;
	const char *suite_dir;
	const char **cases;
	unsigned int nb_cases;
	int list;
	unsigned int repeat;
	uint64_t random;		/**< Random packets (0: no random mode). */
	uint64_t seed;
	int seed_given;
	unsigned int rules;
	int templates;			/**< Random mode: rules through the template API. */
	int churn;			/**< Random mode: half the rules destroyed, resent. */
	int tuples;			/**< Random mode: half the rules in one matcher. */
	int transfer;			/**< Random mode: transfer rules on the switch topology. */
	/* reports */
	const char *json;
	const char *tap;
	/* device */
	int backend_hw;			/**< --backend hw, or backend=hw in the EAL's devargs. */
	int hw_devargs;			/**< backend=hw came from the EAL's devargs. */
	int backend_given;
	/** --cabled A:B: hardware ports A and B are wired to each other (others loop). */
	uint16_t cable[TEST_DM_MAX_CABLES][2];
	unsigned int nb_cables;
	/**
	 * --switch-port ROLE=ID: the port of a role of the switch topology
	 * (TEST_DM_TOPO_NONE: found by name), for ports named otherwise (a NIC's VFs).
	 */
	uint16_t switch_port[TEST_DM_TOPO_ROLES];
	int skip_without_flow;
	int no_limits;
	const char *mutate;
};

/** Defaults, and backend=hw when an EAL devargs string (before "--") asks for it. */
void test_dm_opts_init(struct test_dm_config *cfg, int argc, char **argv);

/** Parse the application's options. @return 0, 1 (--help shown), -1 (message printed). */
int test_dm_opts_parse(int argc, char **argv, struct test_dm_config *cfg);

/** Cases, suites or the random mode were asked for (else: the loopback check). */
static inline int
test_dm_opts_has_work(const struct test_dm_config *cfg)
{
	return cfg->nb_suites != 0 || cfg->nb_cases != 0 || cfg->random != 0;
}

#endif /* _TEST_DM_OPTS_H_ */
