/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Case files and the case executor: parsing into steps and expectations,
 * the example cases of app/test-dm/cases passing on the reference
 * classifier, failures reported with their position and pcap files, and the
 * pcap reader/writer.
 */

#include <dirent.h>
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

#include <pcap/pcap.h>

#include "test_dm_case.h"
#include "test_dm_pcap.h"
#include "test_dm_ref.h"
#include "test_dm_runner.h"

#ifndef TEST_DM_CASES_DIR
#error "TEST_DM_CASES_DIR must name app/test-dm/cases"
#endif

static struct test_dm_case *
parse_case(const char *text, const char *file)
{
	struct test_dm_case *c = NULL;
	struct test_dm_err err;

	if (test_dm_case_parse(text, strlen(text), file, &c, &err) != 0)
		print_error("%s\n", err.msg);
	assert_non_null(c);
	return c;
}

static void
test_parse_structure(void **state)
{
	static const char text[] =
		"queues 2\n"
		"port 1\n"
		"set raw_encap eth / end_set   # no step\n"
		"flow create 1 ingress pattern eth / end actions queue index 1 / end\n"
		"send count 3 eth()/ipv4(ttl=1..3)\n"
		"expect queue 1\n"
		"expect packet 2 port 0 queue 1\n"
		"expect packet 1 field ipv4.ttl != 7\n"
		"expect mark 0x10\n"
		"expect rss spread over queues 0,1\n"
		"expect bytes hex 0102\n"
		"send port 0 hex 00112233\n"
		"expect drop\n"
		"expect count rule 0 port 1 packets 3 bytes 102\n"
		"expect reject flow create 1 ingress pattern end actions end error ACTION\n"
		"flow destroy 1 rule 0\n";
	const struct test_dm_expect *e;
	const struct test_dm_step *s;
	struct test_dm_case *c;

	(void)state;
	c = parse_case(text, "some/dir/structure.case");
	assert_string_equal(c->name, "structure");
	assert_int_equal(c->nb_queues, 2);
	assert_int_equal(c->port, 1);
	assert_int_equal(c->nb_steps, 6);
	s = c->steps;
	assert_int_equal(s[0].type, TEST_DM_STEP_FLOW);
	assert_int_equal(s[0].flow->type, TEST_DM_FLOW_CREATE);
	assert_int_equal(s[0].pos.line, 4);
	/* The send: 3 packets on the default port, ttl 1, 2, 3. */
	assert_int_equal(s[1].type, TEST_DM_STEP_SEND);
	assert_int_equal(s[1].send.port, 1);
	assert_int_equal(s[1].send.pkts.n, 3);
	assert_int_equal(s[1].send.pkts.v[2].len, 34);
	assert_int_equal(s[1].send.pkts.v[2].data[22], 3);
	assert_int_equal(s[1].send.nb_exp, 6);
	e = s[1].send.exp;
	assert_int_equal(e[0].type, TEST_DM_EXPECT_QUEUE);
	assert_int_equal(e[0].packet, -1);
	assert_int_equal(e[0].port, -1);
	assert_int_equal(e[0].value, 1);
	assert_int_equal(e[1].packet, 2);
	assert_int_equal(e[1].port, 0);
	assert_int_equal(e[2].type, TEST_DM_EXPECT_FIELD);
	assert_int_equal(e[2].negate, 1);
	assert_int_equal(e[2].fval.v, 7);
	assert_int_equal(e[3].type, TEST_DM_EXPECT_MARK);
	assert_int_equal(e[3].value, 16);
	assert_int_equal(e[4].type, TEST_DM_EXPECT_RSS_SPREAD);
	assert_int_equal(e[4].qset[0] + e[4].qset[1] + e[4].qset[2], 2);
	assert_int_equal(e[5].type, TEST_DM_EXPECT_BYTES);
	assert_int_equal(e[5].hex.len, 2);
	assert_int_equal(e[5].pos.line, 11);
	assert_int_equal(e[5].pos.col, 8);
	assert_int_equal(s[2].send.port, 0);
	assert_int_equal(s[2].send.pkts.v[0].len, 4);
	assert_int_equal(s[2].send.exp[0].type, TEST_DM_EXPECT_DROP);
	assert_int_equal(s[3].type, TEST_DM_STEP_COUNT);
	assert_int_equal(s[3].port, 1);
	assert_int_equal(s[3].rule, 0);
	assert_int_equal(s[3].packets, 3);
	assert_int_equal(s[3].has_bytes, 1);
	assert_int_equal(s[3].bytes, 102);
	assert_int_equal(s[4].type, TEST_DM_STEP_REJECT);
	assert_int_equal(s[4].error_type, RTE_FLOW_ERROR_TYPE_ACTION);
	assert_int_equal(s[4].flow->type, TEST_DM_FLOW_CREATE);
	assert_int_equal(s[5].flow->type, TEST_DM_FLOW_DESTROY);
	test_dm_case_free(c);
}

static int
read_text(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (f == NULL)
		return -1;
	n = fread(buf, 1, size - 1, f);
	buf[n] = '\0';
	fclose(f);
	return 0;
}

static int
run_case(struct test_dm_case *c, const char *pcap_dir, struct test_dm_case_result *res)
{
	struct test_dm_ref_runner *rr = test_dm_ref_runner_new(2, NULL);
	struct test_dm_run_opts opts = { .log = stderr, .out_dir = pcap_dir };
	int ret;

	assert_non_null(rr);
	ret = test_dm_case_run(c, &test_dm_ref_runner_ops, rr, &opts, res);
	/* The executor removes what the case installed. */
	assert_int_equal(test_dm_ref_count(test_dm_ref_runner_ref(rr), 0), 0);
	assert_int_equal(test_dm_ref_count(test_dm_ref_runner_ref(rr), 1), 0);
	test_dm_ref_runner_free(rr);
	return ret;
}

static void
test_example_cases_pass(void **state)
{
	struct test_dm_case_result res;
	struct test_dm_case *c;
	struct test_dm_err err;
	char path[1024];
	struct dirent *d;
	unsigned int n = 0;
	DIR *dir;

	(void)state;
	dir = opendir(TEST_DM_CASES_DIR);
	assert_non_null(dir);
	while ((d = readdir(dir)) != NULL) {
		size_t len = strlen(d->d_name);

		if (len < 5 || strcmp(d->d_name + len - 5, ".case") != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", TEST_DM_CASES_DIR, d->d_name);
		if (test_dm_case_load(path, &c, &err) != 0)
			print_error("%s\n", err.msg);
		assert_non_null(c);
		assert_int_equal(run_case(c, NULL, &res), 0);
		if (res.failed != 0)
			print_error("%s: %s\n", path, res.first_failure);
		assert_int_equal(res.failed, 0);
		assert_true(res.checks >= 5);
		test_dm_case_free(c);
		n++;
	}
	closedir(dir);
	assert_true(n >= 6);
}

static void
test_failures_reported(void **state)
{
	static const char text[] =
		"queues 4\n"
		"flow create 0 ingress pattern eth / ipv4 / end actions mark id 5 / "
		"queue index 1 / end\n"
		"flow create 0 ingress pattern eth / ipv4 / end actions queue index 9 / end\n"
		"send count 2 eth()/ipv4(ttl=7)/udp()\n"
		"expect queue 2\n"
		"expect mark 6\n"
		"expect packet 1 field ipv4.ttl == 8\n"
		"expect bytes eth()/ipv4(ttl=7)/udp()/payload(1)\n"
		"expect received 2\n"
		"expect drop\n"
		"expect count rule 0 packets 2\n"
		"flow destroy 0 rule 9\n"
		"expect reject flow create 0 ingress pattern eth / end actions drop / end "
		"error ITEM\n";
	char dir[] = "/tmp/test_dm_case_XXXXXX", path[256], errbuf[TEST_DM_PCAP_ERR];
	struct test_dm_pktlist l = { 0 };
	char dump[2048];
	struct test_dm_case_result res;
	struct test_dm_case *c;

	(void)state;
	assert_non_null(mkdtemp(dir));
	c = parse_case(text, "fail.case");
	assert_int_equal(run_case(c, dir, &res), 0);
	/* ok: rule 0, received; failed: rule 1 (queue 9), queue, mark, field, bytes, drop,
	 * count (no COUNT action), destroy of rule 9, reject (accepted). */
	assert_int_equal(res.failed, 9);
	assert_int_equal(res.checks, 11);
	assert_string_equal(res.first_failure, "fail.case:3:1: flow create failed: "
			    "RTE_FLOW_ERROR_TYPE_ACTION_CONF: QUEUE index is beyond the "
			    "configured Rx queues");
	/* What was sent and received, for a look in wireshark. */
	snprintf(path, sizeof(path), "%s/fail-l4-sent.pcap", dir);
	assert_int_equal(test_dm_pcap_read_file(path, &l, errbuf), 2);
	assert_int_equal(l.v[0].len, 42);
	test_dm_pktlist_free(&l);
	unlink(path);
	snprintf(path, sizeof(path), "%s/fail-l4-recv.pcap", dir);
	assert_int_equal(test_dm_pcap_read_file(path, &l, errbuf), 2);
	test_dm_pktlist_free(&l);
	unlink(path);
	/* The rules in place at the first failure, as the runner dumps them. */
	snprintf(path, sizeof(path), "%s/fail-dump.txt", dir);
	assert_non_null(strstr(res.artifacts, path));
	assert_non_null(strstr(res.artifacts, "fail-l4-sent.pcap"));
	assert_int_equal(read_text(path, dump, sizeof(dump)), 0);
	assert_non_null(strstr(dump, "# port 0 on reference\n1 rule(s)"));
	assert_non_null(strstr(dump, "rule 0: ingress group 0 priority 0 pattern eth / ipv4 / "
			       "end actions mark / queue / end\n"));
	unlink(path);
	assert_int_equal(res.packets, 2);
	assert_int_equal(res.received, 2);
	assert_int_equal(rmdir(dir), 0);
	test_dm_case_free(c);
}

/* repeat blocks: nested runs, rule ids reused as testpmd reuses them, failures say the run. */
static void
test_repeat(void **state)
{
	static const char text[] =
		"queues 4\n"
		"flow create 0 ingress priority 1 pattern eth / ipv4 / end actions count / \\\n"
		"    queue index 1 / end\n"
		"repeat 3\n"
		"  flow create 0 ingress priority 0 pattern eth / ipv4 / udp / end actions \\\n"
		"      count / queue index 2 / end\n"
		"  repeat 2\n"
		"    send eth()/ipv4()/udp()\n"
		"    expect queue 2\n"
		"  end\n"
		"  expect count rule 1 packets 2\n"
		"  flow destroy 0 rule 1\n"
		"  send eth()/ipv4()/udp()\n"
		"  expect queue 1\n"
		"end\n"
		"expect count rule 0 packets 3\n";
	static const char bad[] =
		"repeat 4\n"
		"send eth()/ipv4(ttl=1..4)\n"
		"end\n"
		"repeat 5\n"
		"flow create 0 ingress pattern eth / ipv4 ttl is 3 / end actions drop / end\n"
		"send eth()/ipv4(ttl=3)\n"
		"expect rss queues 0-3\n"
		"flow flush 0\n"
		"end\n";
	struct test_dm_case_result res;
	struct test_dm_case *c;
	struct test_dm_err err;

	(void)state;
	c = parse_case(text, "repeat.case");
	assert_int_equal(c->steps[1].type, TEST_DM_STEP_REPEAT);
	assert_int_equal(c->steps[1].repeat, 3);
	assert_int_equal(c->steps[c->steps[1].block].type, TEST_DM_STEP_END);
	assert_int_equal(c->steps[c->steps[1].block].block, 1);
	assert_int_equal(run_case(c, NULL, &res), 0);
	if (res.failed != 0)
		print_error("%s\n", res.first_failure);
	assert_int_equal(res.failed, 0);
	/* 1 create; 3 x (create, 2 x (send + expect), count, destroy, send + expect); count */
	assert_int_equal(res.checks, 1 + 3 * (1 + 2 * 1 + 1 + 1 + 1) + 1);
	assert_int_equal(res.packets, 9);
	test_dm_case_free(c);

	c = parse_case(bad, "bad.case");
	assert_int_equal(run_case(c, NULL, &res), 0);
	assert_int_equal(res.packets, 9);
	assert_int_equal(res.failed, 5);
	assert_string_equal(res.first_failure, "bad.case:7:8: packet 0: dropped (run 1)");
	test_dm_case_free(c);

	assert_int_equal(test_dm_case_parse("repeat 2\nsend eth()\n", 20, "x", &c, &err),
			 -EINVAL);
	assert_string_equal(err.msg, "x:1:1: 'repeat' without 'end'");
	assert_int_equal(test_dm_case_parse("end\n", 4, "x", &c, &err), -EINVAL);
	assert_string_equal(err.msg, "x:1:1: 'end' without 'repeat'");
	assert_int_equal(test_dm_case_parse("send eth()\nrepeat 2\nexpect drop\nend\n", 35,
					    "x", &c, &err), -EINVAL);
	assert_string_equal(err.msg, "x:3:8: 'expect drop' needs a 'send' before it");
	assert_int_equal(test_dm_case_parse("repeat 0\nend\n", 13, "x", &c, &err), -EINVAL);
	assert_string_equal(err.msg, "x:1:8: a repeat block runs at least once");
}

/* A case relying on an undefined winner (same group and priority) fails on the reference. */
static void
test_ambiguous(void **state)
{
	static const char text[] =
		"flow create 0 ingress pattern eth / ipv4 / end actions queue index 1 / end\n"
		"flow create 0 ingress pattern eth / ipv4 / udp / end actions queue index 2 / end\n"
		"send eth()/ipv4()/tcp()\n"
		"send count 2 eth()/ipv4()/udp()\n";
	struct test_dm_case_result res;
	struct test_dm_case *c;

	(void)state;
	c = parse_case(text, "tie.case");
	assert_int_equal(run_case(c, NULL, &res), 0);
	assert_int_equal(res.failed, 1);
	assert_string_equal(res.first_failure, "tie.case:4:1: 2 packet(s) matched two rules of "
			    "the same group and priority: rte_flow does not say which one wins");
	test_dm_case_free(c);
}

static void
test_pcap(void **state)
{
	char dir[] = "/tmp/test_dm_pcap_XXXXXX", path[256], errbuf[TEST_DM_PCAP_ERR];
	struct test_dm_pktlist in = { 0 }, out = { 0 };
	struct pcap_pkthdr h = { .caplen = 4, .len = 4 };
	uint8_t p[300];
	unsigned int i;
	pcap_dumper_t *dump;
	pcap_t *dead;

	(void)state;
	assert_non_null(mkdtemp(dir));
	for (i = 0; i < sizeof(p); i++)
		p[i] = (uint8_t)(i * 7);
	assert_int_equal(test_dm_pktlist_add(&in, p, 60), 0);
	assert_int_equal(test_dm_pktlist_add(&in, p + 1, 299), 0);
	assert_int_equal(test_dm_pktlist_add(&in, p + 2, 14), 0);
	snprintf(path, sizeof(path), "%s/x.pcap", dir);
	assert_int_equal(test_dm_pcap_write_file(path, &in, errbuf), 0);
	assert_int_equal(test_dm_pcap_read_file(path, &out, errbuf), 3);
	for (i = 0; i < 3; i++) {
		assert_int_equal(out.v[i].len, in.v[i].len);
		assert_memory_equal(out.v[i].data, in.v[i].data, in.v[i].len);
	}
	/* Appends to what the list holds. */
	assert_int_equal(test_dm_pcap_read_file(path, &out, errbuf), 3);
	assert_int_equal(out.n, 6);
	unlink(path);

	assert_int_equal(test_dm_pcap_read_file(path, &out, errbuf), -EINVAL);
	assert_non_null(strstr(errbuf, "No such file"));
	assert_null(test_dm_pcap_create("/nonexistent/dir/y.pcap", errbuf));

	/* Not an Ethernet capture. */
	dead = pcap_open_dead(DLT_LINUX_SLL, 65535);
	dump = pcap_dump_open(dead, path);
	assert_non_null(dump);
	pcap_dump((u_char *)dump, &h, p);
	pcap_dump_close(dump);
	pcap_close(dead);
	assert_int_equal(test_dm_pcap_read_file(path, &out, errbuf), -EINVAL);
	assert_non_null(strstr(errbuf, "is not Ethernet"));
	unlink(path);
	assert_int_equal(rmdir(dir), 0);
	test_dm_pktlist_free(&in);
	test_dm_pktlist_free(&out);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_structure),
		cmocka_unit_test(test_example_cases_pass),
		cmocka_unit_test(test_failures_reported),
		cmocka_unit_test(test_repeat),
		cmocka_unit_test(test_ambiguous),
		cmocka_unit_test(test_pcap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
