/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The random mode's parts: the seeded generator (same seed, same rules and
 * packets; rules within what net_mlx5dm supports; tagged packets), the
 * comparison of a runner's report with the reference's fate, the driver
 * (reference against itself: no mismatch; against a broken runner: the
 * mismatches found and a reproducer that replays them), and the reports.
 */

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "test_dm_case.h"
#include "test_dm_cmp.h"
#include "test_dm_gen.h"
#include "test_dm_mutant.h"
#include "test_dm_pcap.h"
#include "test_dm_random.h"
#include "test_dm_ref.h"
#include "test_dm_report.h"
#include "test_dm_rng.h"
#include "test_dm_runner.h"
#include "test_dm_tag.h"
#include "test_dm_topo.h"

static const struct test_dm_gen_cfg gen_cfg = {
	.tx_port = 0, .rx_port = 1, .nb_queues = 8, .in_groups = 4, .out_groups = 2,
};

static void
test_rng(void **state)
{
	struct test_dm_rng a, b, c, d;
	unsigned int i, same = 0, hist[4] = { 0 };

	(void)state;
	test_dm_rng_seed(&a, 42);
	test_dm_rng_seed(&b, 42);
	test_dm_rng_seed(&c, 43);
	test_dm_rng_seed(&d, 44);
	for (i = 0; i < 1000; i++) {
		uint64_t x = test_dm_rng_next(&a);

		assert_int_equal(x, test_dm_rng_next(&b));
		same += x == test_dm_rng_next(&c);
		hist[test_dm_rng_below(&d, 4)]++;
	}
	assert_int_equal(same, 0);
	/* Roughly uniform: each of 4 values about 250 times in 1000. */
	for (i = 0; i < 4; i++)
		assert_true(hist[i] > 180 && hist[i] < 320);
}

/* Same seed, same texts; another seed, other texts. */
static void
test_gen_reproducible(void **state)
{
	struct test_dm_gen *a = test_dm_gen_new(&gen_cfg, 7), *b = test_dm_gen_new(&gen_cfg, 7);
	struct test_dm_gen *c = test_dm_gen_new(&gen_cfg, 8);
	char x[1024], y[1024], z[1024];
	unsigned int i, same = 0;

	(void)state;
	assert_non_null(a);
	assert_non_null(b);
	assert_non_null(c);
	for (i = 0; i < 200; i++) {
		assert_int_equal(test_dm_gen_rule(a, x, sizeof(x)), 0);
		assert_int_equal(test_dm_gen_rule(b, y, sizeof(y)), 0);
		assert_int_equal(test_dm_gen_rule(c, z, sizeof(z)), 0);
		assert_string_equal(x, y);
		same += strcmp(x, z) == 0;
		assert_int_equal(test_dm_gen_packet(a, i, x, sizeof(x)), 0);
		assert_int_equal(test_dm_gen_packet(b, i, y, sizeof(y)), 0);
		assert_string_equal(x, y);
	}
	assert_true(same < 5);
	/* Too small a buffer is an error, not a truncated rule. */
	assert_int_equal(test_dm_gen_rule(a, x, 40), -E2BIG);
	test_dm_gen_free(a);
	test_dm_gen_free(b);
	test_dm_gen_free(c);
}

/* A parser context of nb_queues Rx queues that has read the generator's preamble. */
static void
preamble_parsed(struct test_dm_flow_ctx *fctx, unsigned int nb_queues)
{
	struct test_dm_flow_cmd *cmd;
	struct test_dm_err err;
	unsigned int i;

	test_dm_flow_ctx_init(fctx);
	fctx->nb_rxq = (uint16_t)nb_queues;
	for (i = 0; test_dm_gen_preamble[i] != NULL; i++) {
		assert_int_equal(test_dm_flow_parse_str(fctx, test_dm_gen_preamble[i], "p", 1,
							&cmd, &err), 0);
		test_dm_flow_cmd_free(cmd);
	}
}

/*
 * Every generated rule parses and is accepted by the reference with
 * net_mlx5dm's limits; priorities never tie within a group; the rules use
 * the supported items and actions broadly.
 */
static void
test_gen_rules_valid(void **state)
{
	static const char *const words[] = {
		"ingress", "egress", "group 1", "group 3", " eth", " vlan", " ipv4", " ipv6",
		" tcp", " udp", " icmp ", " icmp6", " vxlan ", " gre ", " gre_key", " mpls",
		" meta", " tag", " mark id is", "queue index", "rss queues", "drop", "jump",
		"count", "mark id", "flag", "set_tag", "set_meta", "set_mac_", "set_ipv4_src",
		"set_ipv4_dst", "set_ipv6_", "set_tp_", "set_ttl", "dec_ttl", "set_ipv4_dscp",
		"of_push_vlan", "of_pop_vlan", "vxlan_decap", "vxlan_encap", "last 1039",
		"prefix",
	};
	unsigned int seen[RTE_DIM(words)] = { 0 }, i, k, seed;
	struct test_dm_flow_ctx fctx;
	struct test_dm_ref_cfg rc;
	struct test_dm_flow_cmd *cmd;
	struct rte_flow_error e;
	struct test_dm_err err;
	struct test_dm_ref *ref;
	char text[1024];

	(void)state;
	test_dm_ref_cfg_init(&rc, 2, gen_cfg.nb_queues);
	rc.limits = TEST_DM_REF_LIMITS_MLX5DM;
	ref = test_dm_ref_new(&rc);
	assert_non_null(ref);
	for (seed = 1; seed <= 5; seed++) {
		struct test_dm_gen *g = test_dm_gen_new(&gen_cfg, seed);

		preamble_parsed(&fctx, gen_cfg.nb_queues);
		for (i = 0; i < 400; i++) {
			assert_int_equal(test_dm_gen_rule(g, text, sizeof(text)), 0);
			if (test_dm_flow_parse_str(&fctx, text, "r", 1, &cmd, &err) != 0)
				fail_msg("%s: %s", text, err.msg);
			if (test_dm_ref_validate(ref, cmd->port, &cmd->attr, cmd->pattern,
						 cmd->actions, &e) != 0)
				fail_msg("refused (%s): %s", e.message, text);
			for (k = 0; k < RTE_DIM(words); k++)
				seen[k] += strstr(text, words[k]) != NULL;
			test_dm_flow_cmd_free(cmd);
		}
		test_dm_gen_free(g);
	}
	for (k = 0; k < RTE_DIM(words); k++)
		if (seen[k] == 0)
			fail_msg("no generated rule has '%s'", words[k]);
	test_dm_ref_free(ref);
}

/*
 * The reference's switch: the topology's fixed ports with their roles
 * (test_dm_topo_set_default()), as the app sets them for --check.
 */
static void
switch_roles(struct test_dm_ref_cfg *rc, struct test_dm_ref_runner *rr)
{
	static const int roles[] = { TEST_DM_REF_PF, TEST_DM_REF_REP, TEST_DM_REF_REP,
				     TEST_DM_REF_VF, TEST_DM_REF_VF };
	unsigned int r;
	uint16_t p;

	test_dm_topo_set_default();
	for (r = 0; r < RTE_DIM(roles); r++) {
		p = test_dm_topo_port((enum test_dm_topo_role)r);
		if (rc != NULL) {
			rc->role[p] = (uint8_t)roles[r];
			rc->vf[p] = (uint8_t)(r == 0 ? 0 : (r - 1) % 2);
		}
		if (rr != NULL)
			test_dm_ref_runner_set_role(rr, p, roles[r], (uint8_t)(r == 0 ? 0 :
						    (r - 1) % 2));
	}
}

/*
 * Transfer rules (test_dm_gen_cfg.transfer): made on the PF by name, all
 * of them valid on the reference's switch, every source and fate drawn,
 * none with what the E-Switch has no place for (queues, marks, registers);
 * a rule to the uplink matches what a VF or a representor sent, so no
 * frame goes round the looped wire for ever. The other rules: the PF's
 * and the VFs' either way, the representors' in group 0 to a queue or
 * dropped.
 */
static void
test_gen_transfer_rules(void **state)
{
	static const char *const words[] = {
		" transfer ", "represented_port ethdev_port_id is pf",
		"represented_port ethdev_port_id is rep0", "port_representor port_id is rep1",
		"represented_port ethdev_port_id pf /", "represented_port ethdev_port_id rep1 /",
		"port_representor port_id pf /", "port_representor port_id rep0 /",
		"jump group 2", "drop", "count", "vxlan_decap", "vxlan_encap", "of_pop_vlan",
		"set_ipv4_dst", " ingress ", " egress ", "flow create vf0 group 1 ",
		"flow create vf1 ", "flow create rep0 group 0 ", "flow create rep1 group 0 ",
	};
	static const char *const rep_never[] = {
		"rss queues", "jump", "set_", "of_", "vxlan_", "modify_field", "dec_ttl",
	};
	static const char *const never[] = {
		"egress", "queue index", "rss queues", "mark id", "/ flag /", "set_tag",
		"set_meta", " meta ", " tag ",
	};
	struct test_dm_gen_cfg cfg = gen_cfg;
	unsigned int seen[RTE_DIM(words)] = { 0 }, i, k, transfer = 0, pf_egress = 0;
	struct test_dm_flow_ctx fctx;
	struct test_dm_ref_cfg rc;
	struct test_dm_flow_cmd *cmd;
	struct rte_flow_error e;
	struct test_dm_err err;
	struct test_dm_ref *ref;
	struct test_dm_gen *g;
	char text[1024], port[8];
	uint16_t id;

	(void)state;
	test_dm_ref_cfg_init(&rc, TEST_DM_REF_MAX_PORTS, cfg.nb_queues);
	rc.limits = TEST_DM_REF_LIMITS_MLX5DM;
	switch_roles(&rc, NULL);
	ref = test_dm_ref_new(&rc);
	assert_non_null(ref);
	cfg.transfer = 60;
	cfg.fdb_groups = 3;
	g = test_dm_gen_new(&cfg, 5);
	assert_non_null(g);
	cfg.fdb_groups = 0;
	assert_null(test_dm_gen_new(&cfg, 5));
	preamble_parsed(&fctx, cfg.nb_queues);
	for (i = 0; i < 1000; i++) {
		assert_int_equal(test_dm_gen_rule(g, text, sizeof(text)), 0);
		if (test_dm_flow_parse_str(&fctx, text, "r", 1, &cmd, &err) != 0)
			fail_msg("%s: %s", text, err.msg);
		if (sscanf(text, "flow create %7s ", port) != 1 ||
		    test_dm_topo_lookup(port, strlen(port), &id) != 0 || id != cmd->port)
			fail_msg("not on a port of the switch by name: %s", text);
		if ((cmd->attr.transfer && strcmp(port, "pf") != 0) ||
		    (cmd->attr.egress && strncmp(port, "rep", 3) == 0))
			fail_msg("transfer rules are the PF's, no egress rule a representor's: %s",
				 text);
		pf_egress += cmd->attr.egress && strcmp(port, "pf") == 0;
		for (k = 0; strncmp(port, "rep", 3) == 0 && k < RTE_DIM(rep_never); k++)
			if (strstr(text, rep_never[k]) != NULL || cmd->attr.group != 0)
				fail_msg("not a representor's rule: %s", text);
		if (strstr(text, "represented_port ethdev_port_id pf /") != NULL &&
		    strstr(text, "represented_port ethdev_port_id is rep") == NULL &&
		    strstr(text, "port_representor port_id is") == NULL)
			fail_msg("to the looped uplink, whatever the source: %s", text);
		/* Decapsulation (FDB RX side) only with frames from the wire: some refused. */
		if (test_dm_ref_validate(ref, cmd->port, &cmd->attr, cmd->pattern, cmd->actions,
					 &e) != 0 && strstr(text, "vxlan_decap") == NULL)
			fail_msg("refused (%s): %s", e.message, text);
		if (cmd->attr.transfer) {
			transfer++;
			for (k = 0; k < RTE_DIM(never); k++)
				if (strstr(text, never[k]) != NULL)
					fail_msg("'%s' in a transfer rule: %s", never[k], text);
		}
		for (k = 0; k < RTE_DIM(words); k++)
			seen[k] += strstr(text, words[k]) != NULL;
		test_dm_flow_cmd_free(cmd);
	}
	for (k = 0; k < RTE_DIM(words); k++)
		if (seen[k] == 0)
			fail_msg("no generated rule has '%s'", words[k]);
	assert_true(transfer > 500 && transfer < 700);
	assert_true(pf_egress > 0);
	test_dm_gen_free(g);
	test_dm_ref_free(ref);
}

/* Packets: they parse and build, end with their tag, and are at least 64 bytes. */
static void
test_gen_packets(void **state)
{
	struct test_dm_gen *g = test_dm_gen_new(&gen_cfg, 3);
	uint8_t buf[TEST_DM_PKT_MAX];
	struct test_dm_pkt_info info;
	unsigned int i, tunnels = 0, vlans = 0;
	struct test_dm_pkt_tmpl *t;
	struct test_dm_err err;
	char text[1024];
	int n;

	(void)state;
	for (i = 0; i < 2000; i++) {
		assert_int_equal(test_dm_gen_packet(g, i * 3, text, sizeof(text)), 0);
		if (test_dm_pkt_parse_str(text, "p", 1, &t, &err) != 0)
			fail_msg("%s: %s", text, err.msg);
		n = test_dm_pkt_build(t, 0, buf, sizeof(buf));
		test_dm_pkt_tmpl_free(t);
		assert_true(n >= 64);
		assert_int_equal(test_dm_tag_read(buf, (size_t)n), i * 3);
		test_dm_pkt_decode(buf, (size_t)n, &info);
		tunnels += test_dm_pkt_find(&info, TEST_DM_L_VXLAN, 0) >= 0 ||
			   test_dm_pkt_find(&info, TEST_DM_L_GRE, 0) >= 0;
		vlans += test_dm_pkt_find(&info, TEST_DM_L_VLAN, 0) >= 0;
	}
	assert_true(tunnels > 100);
	assert_true(vlans > 100);
	/* A packet without a tag, or with a damaged one. */
	memset(buf, 0, 64);
	assert_int_equal(test_dm_tag_read(buf, 64), -1);
	assert_int_equal(test_dm_tag_read(buf, 4), -1);
	test_dm_gen_free(g);
}

/* ---- comparison ---- */

static void
fate_queue(struct test_dm_fate *f, uint16_t q)
{
	memset(f, 0, offsetof(struct test_dm_fate, data));
	f->kind = TEST_DM_FATE_QUEUE;
	f->queue = q;
	f->len = 4;
	memcpy(f->data, "\x01\x02\x03\x04", 4);
}

static struct test_dm_rx
rx_got(uint16_t q, uint8_t *data, uint32_t len)
{
	struct test_dm_rx rx = { .received = 1, .queue = q, .data = data, .len = len };

	return rx;
}

static void
test_fate_cmp(void **state)
{
	uint8_t same[4] = { 1, 2, 3, 4 }, other[4] = { 1, 2, 9, 4 };
	struct test_dm_fate *f = malloc(sizeof(*f));
	struct test_dm_rx rx;
	char why[256];

	(void)state;
	assert_non_null(f);
	fate_queue(f, 3);
	rx = rx_got(3, same, 4);
	assert_int_equal(test_dm_fate_cmp(f, &rx, why, sizeof(why)), 0);
	rx.queue = 2;
	assert_int_equal(test_dm_fate_cmp(f, &rx, why, sizeof(why)), 1);
	assert_string_equal(why, "expected port 0 queue 3, got port 0 queue 2");
	rx.queue = 3;
	rx.port = 1;
	assert_int_equal(test_dm_fate_cmp(f, &rx, why, sizeof(why)), 1);
	/* Bytes: content and length. */
	rx = rx_got(3, other, 4);
	assert_int_equal(test_dm_fate_cmp(f, &rx, why, sizeof(why)), 1);
	assert_string_equal(why, "bytes differ: got 4 bytes, expected 4, first difference at "
			    "offset 2");
	rx = rx_got(3, same, 3);
	assert_int_equal(test_dm_fate_cmp(f, &rx, why, sizeof(why)), 1);
	/* Mark and flag. */
	rx = rx_got(3, same, 4);
	f->fdir = 1;
	f->fdir_id = 1;
	f->mark = 7;
	assert_int_equal(test_dm_fate_cmp(f, &rx, why, sizeof(why)), 1);
	assert_string_equal(why, "expected port 0 queue 3, mark 7, got port 0 queue 3");
	rx.fdir = 1;
	rx.fdir_id = 1;
	rx.mark = 8;
	assert_int_equal(test_dm_fate_cmp(f, &rx, why, sizeof(why)), 1);
	rx.mark = 7;
	assert_int_equal(test_dm_fate_cmp(f, &rx, why, sizeof(why)), 0);
	f->fdir_id = 0;
	rx.fdir_id = 0;
	assert_int_equal(test_dm_fate_cmp(f, &rx, why, sizeof(why)), 0);
	/* RSS: any queue of the set. */
	f->fdir = 0;
	rx.fdir = 0;
	f->kind = TEST_DM_FATE_RSS;
	f->nb_queues = 2;
	f->queues[0] = 5;
	f->queues[1] = 1;
	rx.queue = 1;
	assert_int_equal(test_dm_fate_cmp(f, &rx, why, sizeof(why)), 0);
	rx.queue = 3;
	assert_int_equal(test_dm_fate_cmp(f, &rx, why, sizeof(why)), 1);
	assert_string_equal(why, "expected port 0 one of queues 5,1 (rss), got port 0 queue 3");
	/* Dropped or not. */
	f->kind = TEST_DM_FATE_DROP;
	assert_int_equal(test_dm_fate_cmp(f, &rx, why, sizeof(why)), 1);
	assert_string_equal(why, "expected dropped, got port 0 queue 3");
	rx.received = 0;
	assert_int_equal(test_dm_fate_cmp(f, &rx, why, sizeof(why)), 0);
	f->kind = TEST_DM_FATE_QUEUE;
	assert_int_equal(test_dm_fate_cmp(f, &rx, why, sizeof(why)), 1);
	free(f);
}

/* ---- the driver ---- */

/* The runs here: 150 rules, 3000 packets, reproducers into dir. */
static struct test_dm_random_cfg
run_cfg(uint64_t seed, const char *dir)
{
	return (struct test_dm_random_cfg){
		.seed = seed, .packets = 3000, .rules = 150, .port = 0, .nb_queues = 8,
		.batch = 100, .out_dir = dir, .max_report = 5,
	};
}

static void
random_run(const struct test_dm_runner_ops *ops, void *ctx, uint64_t seed, const char *dir,
	   struct test_dm_random_result *res)
{
	struct test_dm_random_cfg cfg = run_cfg(seed, dir);

	assert_int_equal(test_dm_random_run(ops, ctx, &cfg, res), 0);
}

/* The reproducer of seed 11 (a case and two pcaps) and dir removed. */
static void
reproducer_remove(const char *dir)
{
	static const char *const files[] = { "case", "sent.pcap", "recv.pcap" };
	char path[512];
	unsigned int i;

	for (i = 0; i < RTE_DIM(files); i++) {
		snprintf(path, sizeof(path), "%s/random-seed11%s%s", dir, i == 0 ? "." : "-",
			 files[i]);
		unlink(path);
	}
	assert_int_equal(rmdir(dir), 0);
}

static void
test_random_self(void **state)
{
	struct test_dm_ref_runner *rr = test_dm_ref_runner_new(2, NULL);
	struct test_dm_random_result res;

	(void)state;
	random_run(&test_dm_ref_runner_ops, rr, 11, NULL, &res);
	assert_int_equal(res.rules, 150);
	assert_int_equal(res.gen_refused, 0);
	assert_int_equal(res.packets, 3000);
	assert_int_equal(test_dm_random_failures(&res), 0);
	assert_string_equal(res.first, "");
	/* The traffic meets the rules: every kind of fate, most rules. */
	assert_int_equal(res.dropped + res.queued + res.spread + res.missed, 3000);
	assert_true(res.dropped > 0 && res.queued > 0 && res.spread > 0);
	assert_true(res.rules_hit > 60);
	assert_int_equal(res.received, 3000 - res.dropped);
	/* The runner is left without rules. */
	assert_int_equal(test_dm_ref_count(test_dm_ref_runner_ref(rr), 0), 0);
	test_dm_ref_runner_free(rr);
}

/* A broken runner is caught, and the reproducer replays the mismatch. */
static void
test_random_mutants(void **state)
{
	static const char *const kinds[] = { "priority", "mark", "lose" };
	char dir[] = "/tmp/test_dm_random_XXXXXX", path[512];
	struct test_dm_ref_runner *rr = test_dm_ref_runner_new(2, NULL);
	struct test_dm_run_opts opts = { .log = NULL };
	struct test_dm_random_result res;
	struct test_dm_case_result cr;
	char errbuf[TEST_DM_PCAP_ERR];
	struct test_dm_pktlist l = { 0 };
	struct test_dm_mutant *m;
	struct test_dm_case *c;
	struct test_dm_err err;
	unsigned int i;
	int ret;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_null(test_dm_mutant_new(&test_dm_ref_runner_ops, rr, "nonsense"));
	for (i = 0; i < RTE_DIM(kinds); i++) {
		m = test_dm_mutant_new(&test_dm_ref_runner_ops, rr, kinds[i]);
		assert_non_null(m);
		random_run(&test_dm_mutant_ops, m, 11, dir, &res);
		assert_true(res.mismatches > 0);
		snprintf(path, sizeof(path), "%s/random-seed11.case; %s/random-seed11-sent.pcap; "
			 "%s/random-seed11-recv.pcap", dir, dir, dir);
		assert_string_equal(res.reproducer, path);
		/* The mismatching packets as sent (and what arrived, for "lose" fewer). */
		snprintf(path, sizeof(path), "%s/random-seed11-sent.pcap", dir);
		assert_int_equal(test_dm_pcap_read_file(path, &l, errbuf), 5);
		test_dm_pktlist_free(&l);
		unlink(path);
		snprintf(path, sizeof(path), "%s/random-seed11-recv.pcap", dir);
		ret = test_dm_pcap_read_file(path, &l, errbuf);
		assert_true(ret == 5 || (strcmp(kinds[i], "lose") == 0 && ret < 5 && ret >= 0));
		test_dm_pktlist_free(&l);
		unlink(path);
		snprintf(path, sizeof(path), "%s/random-seed11.case", dir);
		/* The reproducer is a case: it passes on the reference, fails on the mutant. */
		if (test_dm_case_load(path, &c, &err) != 0)
			fail_msg("%s", err.msg);
		assert_int_equal(test_dm_case_run(c, &test_dm_ref_runner_ops, rr, &opts, &cr), 0);
		if (cr.failed != 0)
			fail_msg("%s: %s", kinds[i], cr.first_failure);
		assert_true(cr.checks > 150);
		/* (A lost packet is lost by count, not by content: not replayable.) */
		assert_int_equal(test_dm_case_run(c, &test_dm_mutant_ops, m, &opts, &cr), 0);
		assert_true(cr.failed > 0 || strcmp(kinds[i], "lose") == 0);
		test_dm_case_free(c);
		test_dm_mutant_free(m);
		unlink(path);
	}
	assert_int_equal(rmdir(dir), 0);
	test_dm_ref_runner_free(rr);
}

/* The reference runner, but every fifth flow queue result it pulls is an error. */
static struct test_dm_runner_ops failing_ops;
static unsigned int failing_pulled;

static int
failing_pull(void *ctx, uint16_t port, uint32_t queue, struct rte_flow_op_result *res,
	     uint16_t n, struct rte_flow_error *error)
{
	int got = test_dm_ref_runner_ops.pull(ctx, port, queue, res, n, error), i;

	for (i = 0; i < got; i++)
		if (++failing_pulled % 5 == 0)
			res[i].status = RTE_FLOW_OP_ERROR;
	return got;
}

/*
 * --templates: most rules go through template tables and flow queues (on
 * the reference runner: no mismatch), each its own table but (--tuples)
 * those of one shape and action types whose actions are theirs; a
 * creation whose pulled result is an error is the runner's refusal, named.
 */
static void
test_random_templates(void **state)
{
	char dir[] = "/tmp/test_dm_random_XXXXXX";
	struct test_dm_ref_runner *rr = test_dm_ref_runner_new(2, NULL);
	struct test_dm_random_cfg cfg = run_cfg(11, dir);
	struct test_dm_random_result res;

	(void)state;
	assert_non_null(mkdtemp(dir));
	cfg.templates = 1;
	assert_int_equal(test_dm_random_run(&test_dm_ref_runner_ops, rr, &cfg, &res), 0);
	assert_int_equal(test_dm_random_failures(&res), 0);
	assert_true(res.via_templates > res.rules / 2);
	assert_int_equal(res.tables, res.via_templates);
	/* The 5-tuple rules whose actions are theirs share tables. */
	cfg.tuples = 1;
	assert_int_equal(test_dm_random_run(&test_dm_ref_runner_ops, rr, &cfg, &res), 0);
	assert_int_equal(test_dm_random_failures(&res), 0);
	assert_true(res.tables < res.via_templates);
	cfg.tuples = 0;
	failing_ops = test_dm_ref_runner_ops;
	failing_ops.pull = failing_pull;
	failing_pulled = 0;
	assert_int_equal(test_dm_random_run(&failing_ops, rr, &cfg, &res), 0);
	assert_int_equal(res.runner_refused, failing_pulled / 5);
	assert_true(res.runner_refused > 0);
	assert_non_null(strstr(res.first, "flow queue"));
	assert_non_null(strstr(res.first, "the creation's result is an error"));
	/* A runner without the template API: refused by name, nothing run. */
	failing_ops.flow_configure = NULL;
	assert_int_equal(test_dm_random_run(&failing_ops, rr, &cfg, &res), -ENOTSUP);
	assert_string_equal(res.first, "--templates: reference has no template API");
	assert_int_equal(res.rules, 0);
	reproducer_remove(dir);
	test_dm_ref_runner_free(rr);
}

static void read_all(const char *path, char *buf, size_t size);

/*
 * Broken in the template API only (the reference otherwise), so that a
 * reproducer replaying with rte_flow_create() and rte_flow_destroy() would
 * pass on it: its pattern templates lose the mask of their last masked
 * item (widened), or its flow queue destructions keep the rule and report
 * success at the next pull (kept).
 */
static struct test_dm_runner_ops broken_ops;
static struct test_dm_flow_cmd *widened[4096];
static unsigned int nb_widened;
static void *kept[2][2][64];
static unsigned int nb_kept[2][2];

static int
widened_template_create(void *ctx, const struct test_dm_flow_cmd *cmd, void *const *refs,
			void **handle, struct rte_flow_error *error)
{
	struct test_dm_flow_cmd *w;
	struct rte_flow_item *items;
	unsigned int i;

	if (cmd->type != TEST_DM_FLOW_PATTERN_TEMPLATE)
		return test_dm_ref_runner_ops.template_create(ctx, cmd, refs, handle, error);
	assert_true(nb_widened < RTE_DIM(widened));
	/* Kept until the test ends: the runner keeps the command. */
	w = malloc(sizeof(*w) + cmd->nb_items * sizeof(*items));
	assert_non_null(w);
	widened[nb_widened++] = w;
	*w = *cmd;
	items = (struct rte_flow_item *)(w + 1);
	memcpy(items, cmd->pattern, cmd->nb_items * sizeof(*items));
	for (i = cmd->nb_items - 1; i-- > 0;)
		if (items[i].mask != NULL) {
			items[i].mask = NULL;
			break;
		}
	w->pattern = items;
	return test_dm_ref_runner_ops.template_create(ctx, w, refs, handle, error);
}

static int
kept_async_destroy(void *ctx, uint16_t port, uint32_t queue, int postpone, void *handle,
		   void *user_data, struct rte_flow_error *error)
{
	RTE_SET_USED(ctx);
	RTE_SET_USED(postpone);
	RTE_SET_USED(handle);
	RTE_SET_USED(error);
	assert_true(port < 2 && queue < 2 && nb_kept[port][queue] < RTE_DIM(kept[0][0]));
	kept[port][queue][nb_kept[port][queue]++] = user_data;
	return 0;
}

static int
kept_pull(void *ctx, uint16_t port, uint32_t queue, struct rte_flow_op_result *res,
	  uint16_t n, struct rte_flow_error *error)
{
	int got = test_dm_ref_runner_ops.pull(ctx, port, queue, res, n, error);

	while (got >= 0 && got < n && port < 2 && queue < 2 && nb_kept[port][queue] > 0)
		res[got++] = (struct rte_flow_op_result){ .status = RTE_FLOW_OP_SUCCESS,
			.user_data = kept[port][queue][--nb_kept[port][queue]] };
	return got;
}

/* The reference runner of cfg's ports: two, or the switch's (--transfer). */
static struct test_dm_ref_runner *
runner_of(const struct test_dm_random_cfg *cfg)
{
	struct test_dm_ref_runner *rr;

	rr = test_dm_ref_runner_new(cfg->transfer ? TEST_DM_REF_MAX_PORTS : 2, NULL);
	assert_non_null(rr);
	if (cfg->transfer)
		switch_roles(NULL, rr);
	return rr;
}

/*
 * Runs cfg on broken_ops (mismatches), and its reproducer: through
 * template tables and flow queues of port (what contains names), it passes
 * on the reference and fails on broken_ops again.
 */
static void
templates_reproduced(struct test_dm_random_cfg *cfg, const char *port, const char *contains)
{
	struct test_dm_ref_runner *rr = runner_of(cfg);
	struct test_dm_run_opts opts = { .log = NULL };
	char path[512], want[128], text[1 << 17];
	struct test_dm_random_result res;
	struct test_dm_case_result cr;
	struct test_dm_case *c;
	struct test_dm_err err;

	assert_int_equal(test_dm_random_run(&broken_ops, rr, cfg, &res), 0);
	assert_true(res.mismatches > 0);
	assert_true(res.via_templates > res.rules / 3);
	snprintf(path, sizeof(path), "%s/random-seed11.case", cfg->out_dir);
	read_all(path, text, sizeof(text));
	snprintf(want, sizeof(want), "\nflow configure %s queues_number 2 ", port);
	assert_non_null(strstr(text, want));
	snprintf(want, sizeof(want), "\nflow template_table %s create table_id ", port);
	assert_non_null(strstr(text, want));
	snprintf(want, sizeof(want), "\nflow push %s queue 1\nflow pull %s queue 1\n", port,
		 port);
	assert_non_null(strstr(text, want));
	assert_non_null(strstr(text, " none / "));
	assert_non_null(strstr(text, contains));
	if (test_dm_case_load(path, &c, &err) != 0)
		fail_msg("%s", err.msg);
	test_dm_ref_runner_free(rr);
	rr = runner_of(cfg);
	assert_int_equal(test_dm_case_run(c, &test_dm_ref_runner_ops, rr, &opts, &cr), 0);
	if (cr.failed != 0)
		fail_msg("the reproducer fails on the reference: %s", cr.first_failure);
	test_dm_ref_runner_free(rr);
	rr = runner_of(cfg);
	assert_int_equal(test_dm_case_run(c, &broken_ops, rr, &opts, &cr), 0);
	assert_true(cr.failed > 0);
	test_dm_case_free(c);
	test_dm_ref_runner_free(rr);
}

/*
 * --templates: a reproducer replays the rules through template tables and
 * flow queues, so a runner broken there is caught by it again: its pattern
 * templates (rule creation, NIC and switch rules) or its flow queue
 * destructions (--churn).
 */
static void
test_random_templates_reproducer(void **state)
{
	char dir[] = "/tmp/test_dm_random_XXXXXX";
	struct test_dm_random_cfg cfg = run_cfg(11, dir);

	(void)state;
	assert_non_null(mkdtemp(dir));
	cfg.templates = 1;
	cfg.tuples = 1;
	broken_ops = test_dm_ref_runner_ops;
	broken_ops.template_create = widened_template_create;
	templates_reproduced(&cfg, "0", "\nflow queue 0 create 0 template_table ");
	cfg.transfer = 1;
	templates_reproduced(&cfg, "pf", "\nflow queue pf create 0 template_table ");
	cfg.transfer = 0;
	while (nb_widened > 0)
		free(widened[--nb_widened]);
	broken_ops = test_dm_ref_runner_ops;
	broken_ops.async_destroy = kept_async_destroy;
	broken_ops.pull = kept_pull;
	cfg.churn = 1;
	templates_reproduced(&cfg, "0", "\nflow queue 0 destroy 1 postpone yes rule ");
	reproducer_remove(dir);
}

/* A runner whose rte_flow_destroy() says it destroyed the rule, and keeps it. */
static int
lying_destroy(void *ctx, uint16_t port, void *handle, struct rte_flow_error *error)
{
	RTE_SET_USED(ctx);
	RTE_SET_USED(port);
	RTE_SET_USED(handle);
	RTE_SET_USED(error);
	return 0;
}

/*
 * --churn: half the rules destroyed, as many packets again; a runner that
 * keeps destroyed rules is caught, and the reproducer (the rules, their
 * destructions, the packets) passes on the reference.
 */
static void
test_random_churn(void **state)
{
	char dir[] = "/tmp/test_dm_random_XXXXXX", path[512];
	struct test_dm_ref_runner *rr = test_dm_ref_runner_new(2, NULL);
	struct test_dm_random_cfg cfg = run_cfg(11, dir);
	struct test_dm_run_opts opts = { .log = NULL };
	struct test_dm_random_result res;
	struct test_dm_case_result cr;
	struct test_dm_case *c;
	struct test_dm_err err;

	(void)state;
	assert_non_null(mkdtemp(dir));
	cfg.churn = 1;
	assert_int_equal(test_dm_random_run(&test_dm_ref_runner_ops, rr, &cfg, &res), 0);
	assert_int_equal(test_dm_random_failures(&res), 0);
	assert_int_equal(res.destroyed, res.rules / 2);
	assert_int_equal(res.packets, 6000);
	test_dm_ref_runner_free(rr);
	rr = test_dm_ref_runner_new(2, NULL);
	failing_ops = test_dm_ref_runner_ops;
	failing_ops.flow_destroy = lying_destroy;
	assert_int_equal(test_dm_random_run(&failing_ops, rr, &cfg, &res), 0);
	assert_true(res.mismatches > 0);
	snprintf(path, sizeof(path), "%s/random-seed11.case", dir);
	if (test_dm_case_load(path, &c, &err) != 0)
		fail_msg("%s", err.msg);
	test_dm_ref_runner_free(rr);
	rr = test_dm_ref_runner_new(2, NULL);
	assert_int_equal(test_dm_case_run(c, &test_dm_ref_runner_ops, rr, &opts, &cr), 0);
	if (cr.failed != 0)
		fail_msg("the reproducer fails on the reference: %s", cr.first_failure);
	test_dm_ref_runner_free(rr);
	rr = test_dm_ref_runner_new(2, NULL);
	assert_int_equal(test_dm_case_run(c, &failing_ops, rr, &opts, &cr), 0);
	assert_true(cr.failed > 0);
	test_dm_case_free(c);
	reproducer_remove(dir);
	test_dm_ref_runner_free(rr);
}

/*
 * --transfer on the reference runner's switch: no mismatch against itself;
 * against a broken one, the reproducer names the switch's ports (topology
 * switch, send port vf0), passes on the reference and fails on it again.
 */
static void
test_random_transfer(void **state)
{
	char dir[] = "/tmp/test_dm_random_XXXXXX", path[512];
	struct test_dm_ref_runner *rr = test_dm_ref_runner_new(TEST_DM_REF_MAX_PORTS, NULL);
	struct test_dm_random_cfg cfg = run_cfg(11, dir);
	struct test_dm_run_opts opts = { .log = NULL };
	struct test_dm_random_result res;
	struct test_dm_case_result cr;
	struct test_dm_mutant *m;
	struct test_dm_case *c;
	struct test_dm_err err;
	char text[1 << 16];

	(void)state;
	assert_non_null(mkdtemp(dir));
	switch_roles(NULL, rr);
	cfg.transfer = 1;
	cfg.churn = 1;
	assert_int_equal(test_dm_random_run(&test_dm_ref_runner_ops, rr, &cfg, &res), 0);
	if (test_dm_random_failures(&res) != 0)
		fail_msg("%s", res.first);
	assert_int_equal(res.packets, 6000);
	assert_true(res.dropped > 0 && res.switched > 0 && res.rules_hit > 50);
	assert_int_equal(res.dropped + res.queued + res.spread + res.switched + res.missed, 6000);
	m = test_dm_mutant_new(&test_dm_ref_runner_ops, rr, "priority");
	assert_non_null(m);
	cfg.churn = 0;
	assert_int_equal(test_dm_random_run(&test_dm_mutant_ops, m, &cfg, &res), 0);
	assert_true(res.mismatches > 0);
	snprintf(path, sizeof(path), "%s/random-seed11.case", dir);
	read_all(path, text, sizeof(text));
	assert_non_null(strstr(text, "\ntopology switch\n"));
	assert_non_null(strstr(text, "\nflow create pf group "));
	assert_non_null(strstr(text, "\nsend port "));
	assert_null(strstr(text, "\nsend port 0 "));
	if (test_dm_case_load(path, &c, &err) != 0)
		fail_msg("%s", err.msg);
	assert_int_equal(test_dm_case_run(c, &test_dm_ref_runner_ops, rr, &opts, &cr), 0);
	if (cr.failed != 0)
		fail_msg("the reproducer fails on the reference: %s", cr.first_failure);
	assert_int_equal(test_dm_case_run(c, &test_dm_mutant_ops, m, &opts, &cr), 0);
	assert_true(cr.failed > 0);
	test_dm_case_free(c);
	test_dm_mutant_free(m);
	reproducer_remove(dir);
	test_dm_ref_runner_free(rr);
}

/* ---- reports ---- */

static void
read_all(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, size - 1, f);
	buf[n] = '\0';
	fclose(f);
}

static void
test_reports(void **state)
{
	char dir[] = "/tmp/test_dm_report_XXXXXX", path[512], text[4096];
	struct test_dm_record a = {
		.suite = "items", .name = "eth", .file = "items/eth.case", .run = 1,
		.verdict = TEST_DM_PASS, .checks = 5, .packets = 3, .received = 3,
	};
	struct test_dm_record b = {
		.suite = "items", .name = "vlan", .file = "items/vlan.case", .run = 2,
		.verdict = TEST_DM_FAIL, .checks = 4, .failed = 1, .packets = 2,
		.reason = "vlan.case:3:8: it's \"wrong\"", .artifacts = "x.pcap",
	};
	struct test_dm_record s = {
		.suite = "random", .name = "seed-1", .verdict = TEST_DM_SKIP, .run = 1,
		.reason = "no rte_flow",
	};
	unsigned int p, f, k;
	struct test_dm_report r;

	(void)state;
	assert_non_null(mkdtemp(dir));
	test_dm_report_init(&r, "reference");
	assert_int_equal(test_dm_report_add(&r, &a), 0);
	assert_int_equal(test_dm_report_add(&r, &b), 0);
	assert_int_equal(test_dm_report_add(&r, &s), 0);
	test_dm_report_counts(&r, &p, &f, &k);
	assert_int_equal(p, 1);
	assert_int_equal(f, 1);
	assert_int_equal(k, 1);
	snprintf(path, sizeof(path), "%s/r.json", dir);
	assert_int_equal(test_dm_report_json(&r, path), 0);
	read_all(path, text, sizeof(text));
	unlink(path);
	assert_non_null(strstr(text, "\"runner\": \"reference\",\n  \"passed\": 1,\n"
			       "  \"failed\": 1,\n  \"skipped\": 1,\n"));
	assert_non_null(strstr(text, "{\"suite\": \"items\", \"case\": \"vlan\", \"file\": "
			       "\"items/vlan.case\", \"run\": 2, \"result\": \"fail\", "
			       "\"checks\": 4, \"failed_checks\": 1, \"packets\": 2"));
	assert_non_null(strstr(text, "\"reason\": \"vlan.case:3:8: it's \\\"wrong\\\"\", "
			       "\"artifacts\": \"x.pcap\"}"));
	snprintf(path, sizeof(path), "%s/r.tap", dir);
	assert_int_equal(test_dm_report_tap(&r, path), 0);
	read_all(path, text, sizeof(text));
	unlink(path);
	assert_string_equal(text, "TAP version 13\n1..3\nok 1 - items/eth\n"
			    "not ok 2 - items/vlan (run 2)\n  ---\n"
			    "  message: 'vlan.case:3:8: it''s \"wrong\"'\n  checks: 4\n"
			    "  failed_checks: 1\n  packets: 2\n  artifacts: 'x.pcap'\n  ...\n"
			    "ok 3 - random/seed-1 # SKIP no rte_flow\n");
	test_dm_report_free(&r);
	assert_int_equal(rmdir(dir), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rng),
		cmocka_unit_test(test_gen_reproducible),
		cmocka_unit_test(test_gen_rules_valid),
		cmocka_unit_test(test_gen_transfer_rules),
		cmocka_unit_test(test_gen_packets),
		cmocka_unit_test(test_fate_cmp),
		cmocka_unit_test(test_random_self),
		cmocka_unit_test(test_random_mutants),
		cmocka_unit_test(test_random_templates),
		cmocka_unit_test(test_random_templates_reproducer),
		cmocka_unit_test(test_random_churn),
		cmocka_unit_test(test_random_transfer),
		cmocka_unit_test(test_reports),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
