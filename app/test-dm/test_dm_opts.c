/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>

#include "test_dm_mutant.h"
#include "test_dm_opts.h"

#define TEST_DM_MAX_LIST 256

static void
test_dm_usage(const char *prog)
{
	printf("Usage: %s [EAL options] -- [--packets N] [--verbose]\n"
	       "       %s [EAL options] -- [--check|--run] [SELECTION] [OPTIONS]\n"
	       "Without a selection: the loopback check on every net_mlx5dm port.\n"
	       "Selection (any mix):\n"
	       "  --suite NAME|all  a built-in suite, or all of them (repeatable)\n"
	       "  --case FILE       a case file (repeatable; FILE... works too)\n"
	       "  --random N        N random packets over random rules, compared with\n"
	       "                    the reference classifier\n"
	       "  --list            list the built-in suites and their cases\n"
	       "Where:\n"
	       "  --run             on the net_mlx5dm ports (the default)\n"
	       "  --check           on the reference classifier (checks the cases)\n"
	       "  --backend sim|hw  device model (default) or a NIC (backend=hw ports)\n"
	       "  --cabled A:B      hw: ports A and B are cabled to each other (repeatable;\n"
	       "                    a hw port not named loops back to itself)\n"
	       "  --switch-port ROLE=ID  the switch topology's port ROLE (pf, rep0, rep1,\n"
	       "                    vf0, vf1, wire) is port ID (repeatable; default: by name)\n"
	       "Options:\n"
	       "  --suite-dir DIR   where the suites are (default: installed or source tree)\n"
	       "  --repeat N        run the selection N times (soak)\n"
	       "  --seed S          random mode seed (default: time; printed)\n"
	       "  --rules N         random mode rules (default 300)\n"
	       "  --templates       random mode: each rule through a template table of its\n"
	       "                    own and flow queues (rules with a range: rte_flow_create)\n"
	       "  --churn           random mode: then every other rule destroyed, as many\n"
	       "                    packets again\n"
	       "  --tuples          random mode: half the rules 5-tuple rules of one matcher\n"
	       "  --transfer        random mode: on the switch topology, 40%% of the rules\n"
	       "                    transfer rules; bursts from the wire, VFs, representors\n"
	       "  --out-dir DIR     pcaps, dumps and random-mode reproducers of failures\n"
	       "                    (DIR is created with its parents)\n"
	       "  --json FILE       JSON report      --tap FILE   TAP report\n"
	       "  --wait-us N       --run: time a case packet has to arrive (default 20000)\n"
	       "  --quiet-us N      --run: burst ends after N us without arrivals (default 2000)\n"
	       "  --skip-without-flow  skip cases needing rte_flow when the PMD has none\n"
	       "  --no-device-limits   reference: rte_flow's rules only, not net_mlx5dm's\n"
	       "  --mutate KIND     run on a deliberately broken runner (%s)\n"
	       "  --packets N       loopback check: packets per port (default 256)\n"
	       "  --verbose         every passed check / packet\n",
	       prog, prog, TEST_DM_MUTANT_KINDS);
}

void
test_dm_opts_init(struct test_dm_config *cfg, int argc, char **argv)
{
	int i;

	memset(cfg, 0, sizeof(*cfg));
	cfg->packets = 256;
	cfg->wait_us = 20000;
	cfg->quiet_us = 2000;
	cfg->repeat = 1;
	cfg->rules = 300;
	cfg->seed = (uint64_t)time(NULL);
	for (i = 0; i < TEST_DM_TOPO_ROLES; i++)
		cfg->switch_port[i] = TEST_DM_TOPO_NONE;
	/* A hardware run may be asked for in the devargs: --vdev net_mlx5dm0,backend=hw. */
	for (i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		if (strstr(argv[i], "net_mlx5dm") != NULL && strstr(argv[i], "backend=hw") != NULL)
			cfg->hw_devargs = 1;
	cfg->backend_hw = cfg->hw_devargs;
}

static int
test_dm_opt_u64(const char *opt, const char *arg, uint64_t min, uint64_t max, uint64_t *v)
{
	char *end;

	*v = strtoull(arg, &end, 0);
	if (*arg == '\0' || *end != '\0' || *v < min || *v > max) {
		fprintf(stderr, "test-dm: --%s %s: expected %" PRIu64 "..%" PRIu64 "\n", opt, arg,
			min, max);
		return -1;
	}
	return 0;
}

static int
test_dm_opt_uint(const char *opt, const char *arg, unsigned int min, unsigned int max,
		 unsigned int *v)
{
	uint64_t x;

	if (test_dm_opt_u64(opt, arg, min, max, &x) < 0)
		return -1;
	*v = (unsigned int)x;
	return 0;
}

static int
test_dm_opt_push(const char ***list, unsigned int *n, const char *v)
{
	if (*list == NULL)
		*list = calloc(TEST_DM_MAX_LIST, sizeof(**list));
	if (*list == NULL || *n == TEST_DM_MAX_LIST) {
		fprintf(stderr, "test-dm: at most %u suites and cases\n", TEST_DM_MAX_LIST);
		return -1;
	}
	(*list)[(*n)++] = v;
	return 0;
}

/* A:B, two distinct ports, each in one cable at most. */
static int
test_dm_opt_cable(const char *arg, struct test_dm_config *cfg)
{
	unsigned int a, b, i, j;
	char end;

	if (sscanf(arg, "%u:%u%c", &a, &b, &end) != 2 || a == b || a >= UINT16_MAX ||
	    b >= UINT16_MAX) {
		fprintf(stderr, "test-dm: --cabled %s: expected two different port ids A:B\n",
			arg);
		return -1;
	}
	for (i = 0; i < cfg->nb_cables; i++) {
		for (j = 0; j < 2; j++) {
			if (cfg->cable[i][j] == a || cfg->cable[i][j] == b) {
				fprintf(stderr, "test-dm: --cabled %s: port %u is already cabled\n",
					arg, cfg->cable[i][j]);
				return -1;
			}
		}
	}
	if (cfg->nb_cables == TEST_DM_MAX_CABLES) {
		fprintf(stderr, "test-dm: at most %u --cabled pairs\n", TEST_DM_MAX_CABLES);
		return -1;
	}
	cfg->cable[cfg->nb_cables][0] = (uint16_t)a;
	cfg->cable[cfg->nb_cables][1] = (uint16_t)b;
	cfg->nb_cables++;
	return 0;
}

/* ROLE=ID: a port of the switch topology given by hand. */
static int
test_dm_opt_switch_port(const char *arg, struct test_dm_config *cfg)
{
	const char *eq = strchr(arg, '=');
	unsigned int id, r, o;
	char end;

	for (r = 0; eq != NULL && r < TEST_DM_TOPO_ROLES; r++)
		if (strlen(test_dm_topo_name(r)) == (size_t)(eq - arg) &&
		    strncmp(arg, test_dm_topo_name(r), (size_t)(eq - arg)) == 0)
			break;
	if (eq == NULL || r == TEST_DM_TOPO_ROLES || sscanf(eq + 1, "%u%c", &id, &end) != 1 ||
	    id >= UINT16_MAX) {
		fprintf(stderr, "test-dm: --switch-port %s: expected ROLE=ID, ROLE one of pf, "
			"rep0, rep1, vf0, vf1, wire\n", arg);
		return -1;
	}
	for (o = 0; o < TEST_DM_TOPO_ROLES; o++) {
		if (o != r && cfg->switch_port[o] == id) {
			fprintf(stderr, "test-dm: --switch-port %s: port %u is already %s\n", arg,
				id, test_dm_topo_name(o));
			return -1;
		}
	}
	cfg->switch_port[r] = (uint16_t)id;
	return 0;
}

enum {
	OPT_PACKETS = 256, OPT_VERBOSE, OPT_CHECK, OPT_RUN, OPT_WAIT, OPT_QUIET, OPT_OUT,
	OPT_SUITE, OPT_SUITE_DIR, OPT_CASE, OPT_LIST, OPT_REPEAT, OPT_RANDOM, OPT_SEED,
	OPT_RULES, OPT_JSON, OPT_TAP, OPT_BACKEND, OPT_CABLED, OPT_SKIP, OPT_NO_LIMITS, OPT_MUTATE,
	OPT_SWITCH_PORT, OPT_TEMPLATES, OPT_CHURN, OPT_TUPLES, OPT_TRANSFER,
	OPT_HELP,
};

static const struct option test_dm_long_opts[] = {
	{ "packets", required_argument, NULL, OPT_PACKETS },
	{ "verbose", no_argument, NULL, OPT_VERBOSE },
	{ "check", no_argument, NULL, OPT_CHECK },
	{ "run", no_argument, NULL, OPT_RUN },
	{ "wait-us", required_argument, NULL, OPT_WAIT },
	{ "quiet-us", required_argument, NULL, OPT_QUIET },
	{ "out-dir", required_argument, NULL, OPT_OUT },
	{ "pcap-dir", required_argument, NULL, OPT_OUT },
	{ "suite", required_argument, NULL, OPT_SUITE },
	{ "suite-dir", required_argument, NULL, OPT_SUITE_DIR },
	{ "case", required_argument, NULL, OPT_CASE },
	{ "list", no_argument, NULL, OPT_LIST },
	{ "repeat", required_argument, NULL, OPT_REPEAT },
	{ "random", required_argument, NULL, OPT_RANDOM },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "rules", required_argument, NULL, OPT_RULES },
	{ "templates", no_argument, NULL, OPT_TEMPLATES },
	{ "churn", no_argument, NULL, OPT_CHURN },
	{ "tuples", no_argument, NULL, OPT_TUPLES },
	{ "transfer", no_argument, NULL, OPT_TRANSFER },
	{ "json", required_argument, NULL, OPT_JSON },
	{ "tap", required_argument, NULL, OPT_TAP },
	{ "backend", required_argument, NULL, OPT_BACKEND },
	{ "cabled", required_argument, NULL, OPT_CABLED },
	{ "switch-port", required_argument, NULL, OPT_SWITCH_PORT },
	{ "skip-without-flow", no_argument, NULL, OPT_SKIP },
	{ "no-device-limits", no_argument, NULL, OPT_NO_LIMITS },
	{ "mutate", required_argument, NULL, OPT_MUTATE },
	{ "help", no_argument, NULL, OPT_HELP },
	{ NULL, 0, NULL, 0 },
};

static int
test_dm_opt_one(int c, const char *arg, struct test_dm_config *cfg)
{
	switch (c) {
	case OPT_PACKETS:
		return test_dm_opt_uint("packets", arg, 1, 1000000, &cfg->packets);
	case OPT_VERBOSE:
		cfg->verbose = 1;
		return 0;
	case OPT_CHECK:
		cfg->check = 1;
		return 0;
	case OPT_RUN:
		cfg->run = 1;
		return 0;
	case OPT_WAIT:
		return test_dm_opt_uint("wait-us", arg, 1, 10000000, &cfg->wait_us);
	case OPT_QUIET:
		return test_dm_opt_uint("quiet-us", arg, 1, 10000000, &cfg->quiet_us);
	case OPT_OUT:
		cfg->out_dir = arg;
		return 0;
	case OPT_SUITE:
		return test_dm_opt_push(&cfg->suites, &cfg->nb_suites, arg);
	case OPT_SUITE_DIR:
		cfg->suite_dir = arg;
		return 0;
	case OPT_CASE:
		return test_dm_opt_push(&cfg->cases, &cfg->nb_cases, arg);
	case OPT_LIST:
		cfg->list = 1;
		return 0;
	case OPT_REPEAT:
		return test_dm_opt_uint("repeat", arg, 1, 1000000, &cfg->repeat);
	case OPT_RANDOM:
		return test_dm_opt_u64("random", arg, 1, UINT64_C(1) << 40, &cfg->random);
	case OPT_SEED:
		cfg->seed_given = 1;
		return test_dm_opt_u64("seed", arg, 0, UINT64_MAX, &cfg->seed);
	case OPT_RULES:
		return test_dm_opt_uint("rules", arg, 1, 50000, &cfg->rules);
	case OPT_TEMPLATES:
		cfg->templates = 1;
		return 0;
	case OPT_CHURN:
		cfg->churn = 1;
		return 0;
	case OPT_TUPLES:
		cfg->tuples = 1;
		return 0;
	case OPT_TRANSFER:
		cfg->transfer = 1;
		return 0;
	case OPT_JSON:
		cfg->json = arg;
		return 0;
	case OPT_TAP:
		cfg->tap = arg;
		return 0;
	case OPT_BACKEND:
		if (strcmp(arg, "sim") != 0 && strcmp(arg, "hw") != 0) {
			fprintf(stderr, "test-dm: --backend %s: expected sim or hw\n", arg);
			return -1;
		}
		cfg->backend_given = 1;
		cfg->backend_hw = strcmp(arg, "hw") == 0;
		return 0;
	case OPT_CABLED:
		return test_dm_opt_cable(arg, cfg);
	case OPT_SWITCH_PORT:
		return test_dm_opt_switch_port(arg, cfg);
	case OPT_SKIP:
		cfg->skip_without_flow = 1;
		return 0;
	case OPT_NO_LIMITS:
		cfg->no_limits = 1;
		return 0;
	case OPT_MUTATE:
		cfg->mutate = arg;
		return 0;
	default:
		return -1;
	}
}

/* mkdir -p: the evidence of a long run must not be lost to a missing directory. */
static int
test_dm_mkdir_p(const char *dir)
{
	char path[4096];
	size_t i, len = strlen(dir);

	if (len == 0 || len >= sizeof(path)) {
		fprintf(stderr, "test-dm: --out-dir: bad directory name\n");
		return -1;
	}
	memcpy(path, dir, len + 1);
	for (i = 1; i <= len; i++) {
		if (path[i] != '/' && path[i] != '\0')
			continue;
		path[i] = '\0';
		if (mkdir(path, 0777) != 0 && errno != EEXIST) {
			fprintf(stderr, "test-dm: --out-dir: cannot create %s: %s\n", path,
				strerror(errno));
			return -1;
		}
		path[i] = dir[i];
	}
	return 0;
}

static int
test_dm_opts_check(struct test_dm_config *cfg)
{
	unsigned int i;

	if (cfg->check && cfg->run) {
		fprintf(stderr, "test-dm: --check and --run exclude each other\n");
		return -1;
	}
	if ((cfg->check || cfg->run) && !test_dm_opts_has_work(cfg)) {
		fprintf(stderr, "test-dm: --check and --run need --suite, --case or --random\n");
		return -1;
	}
	if (cfg->nb_cables != 0 && !cfg->backend_hw) {
		fprintf(stderr, "test-dm: --cabled describes hardware ports (the model's ports "
			"know their cabling): it needs --backend hw\n");
		return -1;
	}
	for (i = 0; cfg->check && i < TEST_DM_TOPO_ROLES; i++) {
		if (cfg->switch_port[i] != TEST_DM_TOPO_NONE) {
			fprintf(stderr, "test-dm: --switch-port describes ports: --check's switch "
				"has fixed port ids\n");
			return -1;
		}
	}
	if (cfg->check && cfg->backend_hw) {
		fprintf(stderr, "test-dm: --check runs on the reference classifier, not on a "
			"device: backend=hw does not apply\n");
		return -1;
	}
	if (test_dm_opts_has_work(cfg) && !cfg->check)
		cfg->run = 1;
	if (cfg->out_dir != NULL && test_dm_mkdir_p(cfg->out_dir) < 0)
		return -1;
	return 0;
}

int
test_dm_opts_parse(int argc, char **argv, struct test_dm_config *cfg)
{
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "", test_dm_long_opts, NULL)) != -1) {
		if (c == OPT_HELP) {
			test_dm_usage(argv[0]);
			return 1;
		}
		if (test_dm_opt_one(c, optarg, cfg) < 0) {
			if (c == '?')
				test_dm_usage(argv[0]);
			return -1;
		}
	}
	if (cfg->hw_devargs && cfg->backend_given && !cfg->backend_hw) {
		fprintf(stderr, "test-dm: --backend sim, but the devargs say backend=hw\n");
		return -1;
	}
	for (; optind < argc; optind++)
		if (test_dm_opt_push(&cfg->cases, &cfg->nb_cases, argv[optind]) < 0)
			return -1;
	return test_dm_opts_check(cfg);
}
