/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/* Case file parser (format in test_dm_case.h and doc/guides/tools/testdm.rst). */

#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "test_dm_case.h"
#include "test_dm_pcap.h"
#include "test_dm_value.h"
#include "test_dm_vec.h"

#define TEST_DM_CASE_DEFAULT_QUEUES 4
/** Most packets one send may make. */
#define TEST_DM_SEND_MAX 65536

struct test_dm_case_parser {
	struct test_dm_case *c;
	struct test_dm_flow_ctx fctx;
	struct test_dm_toks toks;
	unsigned int i;			/**< Next token of the current line. */
	int last_send;			/**< Step index of the last send, -1 before any. */
	int flows_seen;
	/** Open repeat blocks: step indexes of their REPEAT, innermost last. */
	unsigned int open[TEST_DM_CASE_MAX_DEPTH];
	unsigned int depth;
	struct test_dm_pos open_pos[TEST_DM_CASE_MAX_DEPTH];
	struct test_dm_err *err;
};

typedef int (*test_dm_stmt_fn)(struct test_dm_case_parser *cp);

static const struct test_dm_tok *
test_dm_case_parse_next(struct test_dm_case_parser *cp)
{
	return cp->i < cp->toks.n ? &cp->toks.v[cp->i++] : NULL;
}

static int
test_dm_case_parse_error(struct test_dm_case_parser *cp, const struct test_dm_tok *t,
			 const char *fmt, ...)
	__rte_format_printf(3, 4);

static int
test_dm_case_parse_error(struct test_dm_case_parser *cp, const struct test_dm_tok *t,
			 const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = test_dm_tok_verror(cp->err, t, &cp->toks.end, "line", fmt, ap);
	va_end(ap);
	return ret;
}

static int
test_dm_case_parse_uint(struct test_dm_case_parser *cp, uint64_t max, const char *what, uint64_t *v)
{
	return test_dm_tok_uint(cp->err, test_dm_case_parse_next(cp), &cp->toks.end, "line", max,
				what, v);
}

static int
test_dm_case_parse_port(struct test_dm_case_parser *cp, uint64_t *v)
{
	return test_dm_tok_port(cp->err, test_dm_case_parse_next(cp), &cp->toks.end, "line", v);
}

static int
test_dm_case_parse_word(struct test_dm_case_parser *cp, const char *word)
{
	const struct test_dm_tok *t = test_dm_case_parse_next(cp);

	if (t == NULL || !test_dm_tok_is(t, word))
		return test_dm_case_parse_error(cp, t, "expected '%s'", word);
	return 0;
}

static int
test_dm_case_parse_end(struct test_dm_case_parser *cp)
{
	const struct test_dm_tok *t = test_dm_case_parse_next(cp);

	if (t != NULL)
		return test_dm_case_parse_error(cp, t,
						"unexpected '%.*s' at the end of the statement",
						(int)t->len, t->s);
	return 0;
}

static int
test_dm_case_parse_peek_is(const struct test_dm_case_parser *cp, const char *word)
{
	return cp->i < cp->toks.n && test_dm_tok_is(&cp->toks.v[cp->i], word);
}

static struct test_dm_step *
test_dm_case_parse_step(struct test_dm_case_parser *cp, enum test_dm_step_type type)
{
	struct test_dm_case *c = cp->c;
	struct test_dm_step *s;

	if (test_dm_vec_grow((void **)&c->steps, &c->cap_steps, c->nb_steps, sizeof(*s)) < 0)
		return NULL;
	s = &c->steps[c->nb_steps++];
	memset(s, 0, sizeof(*s));
	s->type = type;
	s->pos = cp->toks.v[0].pos;
	return s;
}

/* The rest of the line as raw text (for packet descriptions). */
static void
test_dm_case_parse_rest(struct test_dm_case_parser *cp, const char **s, size_t *len,
			struct test_dm_pos *pos)
{
	const struct test_dm_tok *first = &cp->toks.v[cp->i], *last = &cp->toks.v[cp->toks.n - 1];

	*s = first->s;
	*len = (size_t)(last->s + last->len - first->s);
	*pos = first->pos;
	cp->i = cp->toks.n;
}

/* ---- statements ---- */

static int
test_dm_step_case(struct test_dm_case_parser *cp)
{
	const struct test_dm_tok *t = test_dm_case_parse_next(cp);

	if (t == NULL)
		return test_dm_case_parse_error(cp, t, "expected a case name");
	free(cp->c->name);
	cp->c->name = strndup(t->s, t->len);
	if (cp->c->name == NULL)
		return -ENOMEM;
	return test_dm_case_parse_end(cp);
}

static int
test_dm_step_queues(struct test_dm_case_parser *cp)
{
	const struct test_dm_tok *t = cp->i < cp->toks.n ? &cp->toks.v[cp->i] : NULL;
	uint64_t v;
	int ret;

	if (cp->flows_seen)
		return test_dm_case_parse_error(cp, &cp->toks.v[0], "'queues' must come before the "
						"first flow command");
	ret = test_dm_case_parse_uint(cp, TEST_DM_CASE_MAX_QUEUES, "a number of queues", &v);
	if (ret == 0 && v == 0)
		ret = test_dm_case_parse_error(cp, t, "a port needs at least one queue");
	if (ret < 0)
		return ret;
	cp->c->nb_queues = (uint16_t)v;
	cp->fctx.nb_rxq = (uint16_t)v;
	return test_dm_case_parse_end(cp);
}

static int
test_dm_step_port(struct test_dm_case_parser *cp)
{
	uint64_t v;
	int ret = test_dm_case_parse_port(cp, &v);

	if (ret < 0)
		return ret;
	cp->c->port = (uint16_t)v;
	return test_dm_case_parse_end(cp);
}

/* topology switch: the case runs on the E-Switch's ports (test_dm_topo.h). */
static int
test_dm_step_topology(struct test_dm_case_parser *cp)
{
	const struct test_dm_tok *t;

	if (cp->flows_seen || cp->last_send >= 0)
		return test_dm_case_parse_error(cp, &cp->toks.v[0], "'topology' must come before "
						"the first flow command and send");
	t = test_dm_case_parse_next(cp);
	if (t == NULL || !test_dm_tok_is(t, "switch"))
		return test_dm_case_parse_error(cp, t, "expected 'switch' after 'topology' (the "
						"only topology a case can ask for)");
	cp->c->needs_switch = 1;
	return test_dm_case_parse_end(cp);
}

/*
 * require flow validate ...: what the case needs of the device; a device
 * refusing it skips the case (with its reason) instead of failing it.
 */
static int
test_dm_step_require(struct test_dm_case_parser *cp)
{
	struct test_dm_step *s;
	int ret;

	if (cp->flows_seen || cp->last_send >= 0)
		return test_dm_case_parse_error(cp, &cp->toks.v[0], "'require' must come before "
						"the first flow command and send");
	if (cp->i >= cp->toks.n || !test_dm_tok_is(&cp->toks.v[cp->i], "flow"))
		return test_dm_case_parse_error(cp, cp->i < cp->toks.n ? &cp->toks.v[cp->i] : NULL,
						"expected 'flow validate ...' after 'require'");
	s = test_dm_case_parse_step(cp, TEST_DM_STEP_REQUIRE);
	if (s == NULL)
		return -ENOMEM;
	ret = test_dm_flow_parse(&cp->fctx, &cp->toks, cp->i, &s->flow, cp->err);
	if (ret < 0)
		return ret;
	if (s->flow->type != TEST_DM_FLOW_VALIDATE)
		return test_dm_case_parse_error(cp, &cp->toks.v[cp->i + 1],
						"only 'flow validate' can " "be required");
	cp->i = cp->toks.n;
	return 0;
}

static int
test_dm_step_flow(struct test_dm_case_parser *cp)
{
	struct test_dm_flow_cmd *cmd;
	struct test_dm_step *s;
	int ret;

	ret = test_dm_flow_parse(&cp->fctx, &cp->toks, 0, &cmd, cp->err);
	if (ret < 0)
		return ret;
	cp->flows_seen = 1;
	/* "set" commands did their work at parse time. */
	if (cmd->type >= TEST_DM_SET_RAW_ENCAP) {
		test_dm_flow_cmd_free(cmd);
		return 0;
	}
	s = test_dm_case_parse_step(cp, TEST_DM_STEP_FLOW);
	if (s == NULL) {
		test_dm_flow_cmd_free(cmd);
		return -ENOMEM;
	}
	s->flow = cmd;
	return 0;
}

static int
test_dm_case_dirname(const char *file, char *dir, size_t size)
{
	char tmp[1024];

	snprintf(tmp, sizeof(tmp), "%s", file);
	snprintf(dir, size, "%s", dirname(tmp));
	return 0;
}

static int
test_dm_send_pcap(struct test_dm_case_parser *cp, struct test_dm_send *snd)
{
	const struct test_dm_tok *t = test_dm_case_parse_next(cp);
	char path[1024], dir[1024], errbuf[TEST_DM_PCAP_ERR];
	int ret;

	if (t == NULL)
		return test_dm_case_parse_error(cp, t, "expected a pcap file name");
	test_dm_case_dirname(cp->c->file, dir, sizeof(dir));
	if (t->s[0] == '/')
		snprintf(path, sizeof(path), "%.*s", (int)t->len, t->s);
	else
		snprintf(path, sizeof(path), "%s/%.*s", dir, (int)t->len, t->s);
	ret = test_dm_pcap_read_file(path, &snd->pkts, errbuf);
	if (ret < 0)
		return test_dm_case_parse_error(cp, t, "cannot read packets: %s", errbuf);
	if (ret == 0)
		return test_dm_case_parse_error(cp, t, "%s holds no packet", path);
	return test_dm_case_parse_end(cp);
}

static int
test_dm_send_desc(struct test_dm_case_parser *cp, struct test_dm_send *snd, uint64_t count)
{
	struct test_dm_pkt_tmpl *tmpl;
	uint8_t buf[TEST_DM_PKT_MAX];
	struct test_dm_pos pos;
	const char *s;
	uint64_t k;
	size_t len;
	int ret;

	test_dm_case_parse_rest(cp, &s, &len, &pos);
	ret = test_dm_pkt_parse(s, len, &pos, &tmpl, cp->err);
	if (ret < 0)
		return ret;
	for (k = 0; k < count && ret >= 0; k++) {
		ret = test_dm_pkt_build(tmpl, (uint32_t)k, buf, sizeof(buf));
		if (ret == -E2BIG)
			ret = test_dm_err_at(cp->err, &pos, "packet longer than %u bytes",
					     TEST_DM_PKT_MAX);
		else if (ret >= 0)
			ret = test_dm_pktlist_add(&snd->pkts, buf, (size_t)ret);
	}
	test_dm_pkt_tmpl_free(tmpl);
	return ret < 0 ? ret : 0;
}

static int
test_dm_send_hex(struct test_dm_case_parser *cp, struct test_dm_send *snd, uint64_t count)
{
	const struct test_dm_tok *t = test_dm_case_parse_next(cp);
	uint8_t buf[TEST_DM_PKT_MAX];
	uint64_t k;
	size_t n;
	int ret = 0;

	if (t == NULL || test_dm_parse_hex(t->s, t->len, buf, sizeof(buf), &n) < 0)
		return test_dm_case_parse_error(cp, t, "expected packet bytes in hexadecimal");
	for (k = 0; k < count && ret == 0; k++)
		ret = test_dm_pktlist_add(&snd->pkts, buf, n);
	return ret < 0 ? ret : test_dm_case_parse_end(cp);
}

/* send [port P] [count N] <packet> | hex <bytes> | from <file.pcap> */
static int
test_dm_step_send(struct test_dm_case_parser *cp)
{
	struct test_dm_step *s = test_dm_case_parse_step(cp, TEST_DM_STEP_SEND);
	uint64_t port = cp->c->port, count = 1;
	int ret = 0, has_count = 0;

	if (s == NULL)
		return -ENOMEM;
	cp->last_send = (int)(s - cp->c->steps);
	for (;;) {
		if (test_dm_case_parse_peek_is(cp, "port")) {
			cp->i++;
			ret = test_dm_case_parse_port(cp, &port);
		} else if (test_dm_case_parse_peek_is(cp, "count")) {
			cp->i++;
			ret = test_dm_case_parse_uint(cp, TEST_DM_SEND_MAX, "a packet count",
						      &count);
			if (ret == 0 && count == 0)
				ret = test_dm_case_parse_error(cp, &cp->toks.v[cp->i - 1],
							       "a send needs at least one packet");
			has_count = 1;
		} else {
			break;
		}
		if (ret < 0)
			return ret;
	}
	/* The index in the step array may move as steps are added: keep going with s. */
	s->send.port = (uint16_t)port;
	if (cp->i >= cp->toks.n)
		return test_dm_case_parse_error(cp, NULL, "expected a packet description, 'hex' or "
						"'from'");
	if (test_dm_case_parse_peek_is(cp, "from")) {
		cp->i++;
		if (has_count)
			return test_dm_case_parse_error(cp, &cp->toks.v[cp->i - 1],
							"'count' does not apply to 'from'");
		return test_dm_send_pcap(cp, &s->send);
	}
	if (test_dm_case_parse_peek_is(cp, "hex")) {
		cp->i++;
		return test_dm_send_hex(cp, &s->send, count);
	}
	return test_dm_send_desc(cp, &s->send, count);
}

/* ---- expectations ---- */

static struct test_dm_expect *
test_dm_case_parse_expect(struct test_dm_case_parser *cp, enum test_dm_expect_type type, int packet)
{
	struct test_dm_send *snd = &cp->c->steps[cp->last_send].send;
	struct test_dm_expect *e;

	if (test_dm_vec_grow((void **)&snd->exp, &snd->cap_exp, snd->nb_exp, sizeof(*e)) < 0)
		return NULL;
	e = &snd->exp[snd->nb_exp++];
	memset(e, 0, sizeof(*e));
	e->type = type;
	e->packet = packet;
	e->port = -1;
	e->pos = cp->toks.v[0].pos;
	return e;
}

/* A queue set: "3", "0-3", "0,2,5-7". */
static int
test_dm_case_parse_qset(struct test_dm_case_parser *cp, uint8_t *qset)
{
	const struct test_dm_tok *t = test_dm_case_parse_next(cp);
	const char *p, *end, *comma, *dash;
	uint64_t lo, hi, q;

	if (t == NULL)
		return test_dm_case_parse_error(cp, t, "expected a queue set such as 0-3 or 0,2,5");
	for (p = t->s, end = t->s + t->len; p < end; p = comma + 1) {
		comma = memchr(p, ',', (size_t)(end - p));
		if (comma == NULL)
			comma = end;
		dash = memchr(p, '-', (size_t)(comma - p));
		if (test_dm_parse_uint(p, (size_t)((dash != NULL ? dash : comma) - p),
				       TEST_DM_CASE_MAX_QUEUES - 1, &lo) < 0 ||
		    test_dm_parse_uint(dash != NULL ? dash + 1 : p,
				       (size_t)(comma - (dash != NULL ? dash + 1 : p)),
				       TEST_DM_CASE_MAX_QUEUES - 1, &hi) < 0 || hi < lo)
			return test_dm_case_parse_error(cp, t, "expected a queue set such as 0-3 "
							"or 0,2,5 (queues below %u), got '%.*s'",
							TEST_DM_CASE_MAX_QUEUES, (int)t->len, t->s);
		for (q = lo; q <= hi; q++)
			qset[q] = 1;
	}
	return 0;
}

static int
test_dm_expect_value(struct test_dm_case_parser *cp, struct test_dm_expect *e, uint64_t max,
		     const char *what)
{
	uint64_t v;
	int ret = test_dm_case_parse_uint(cp, max, what, &v);

	e->value = (uint32_t)v;
	return ret;
}

static int
test_dm_expect_queue(struct test_dm_case_parser *cp, struct test_dm_expect *e)
{
	return test_dm_expect_value(cp, e, UINT16_MAX, "a queue index");
}

static int
test_dm_expect_port(struct test_dm_case_parser *cp, struct test_dm_expect *e)
{
	uint64_t v;
	int ret = test_dm_case_parse_port(cp, &v);

	if (ret < 0)
		return ret;
	e->port = (int)v;
	if (!test_dm_case_parse_peek_is(cp, "queue")) {
		e->type = TEST_DM_EXPECT_PORT;
		return 0;
	}
	e->type = TEST_DM_EXPECT_QUEUE;
	ret = test_dm_case_parse_word(cp, "queue");
	return ret < 0 ? ret : test_dm_expect_queue(cp, e);
}

static int
test_dm_expect_none(struct test_dm_case_parser *cp, struct test_dm_expect *e)
{
	RTE_SET_USED(cp);
	RTE_SET_USED(e);
	return 0;
}

static int
test_dm_expect_received(struct test_dm_case_parser *cp, struct test_dm_expect *e)
{
	return test_dm_expect_value(cp, e, TEST_DM_SEND_MAX, "a number of packets");
}

static int
test_dm_expect_bytes(struct test_dm_case_parser *cp, struct test_dm_expect *e)
{
	const struct test_dm_tok *t;
	uint8_t buf[TEST_DM_PKT_MAX];
	struct test_dm_pos pos;
	const char *s;
	size_t len, n;

	if (cp->i >= cp->toks.n)
		return test_dm_case_parse_error(cp, NULL, "expected a packet description or 'hex'");
	if (!test_dm_case_parse_peek_is(cp, "hex")) {
		test_dm_case_parse_rest(cp, &s, &len, &pos);
		return test_dm_pkt_parse(s, len, &pos, &e->tmpl, cp->err);
	}
	cp->i++;
	t = test_dm_case_parse_next(cp);
	if (t == NULL || test_dm_parse_hex(t->s, t->len, buf, sizeof(buf), &n) < 0)
		return test_dm_case_parse_error(cp, t, "expected packet bytes in hexadecimal");
	e->hex.data = malloc(n);
	if (e->hex.data == NULL)
		return -ENOMEM;
	memcpy(e->hex.data, buf, n);
	e->hex.len = (uint32_t)n;
	return 0;
}

static int
test_dm_expect_field(struct test_dm_case_parser *cp, struct test_dm_expect *e)
{
	const struct test_dm_tok *t = test_dm_case_parse_next(cp), *op, *v;

	if (t == NULL || test_dm_fref_parse(t->s, t->len, &e->fref) < 0 || e->fref.field == NULL)
		return test_dm_case_parse_error(cp, t, "expected a field such as ipv4.ttl or "
						"udp[1].dport");
	op = test_dm_case_parse_next(cp);
	if (op == NULL || (!test_dm_tok_is(op, "==") && !test_dm_tok_is(op, "!=")))
		return test_dm_case_parse_error(cp, op, "expected == or !=");
	e->negate = op->s[0] == '!';
	v = test_dm_case_parse_next(cp);
	if (v == NULL || test_dm_fval_parse(e->fref.field, v->s, v->len, &e->fval) < 0)
		return test_dm_case_parse_error(cp, v, "expected a value for %.*s", (int)t->len,
						t->s);
	return 0;
}

static int
test_dm_expect_mark(struct test_dm_case_parser *cp, struct test_dm_expect *e)
{
	if (test_dm_case_parse_peek_is(cp, "none")) {
		cp->i++;
		e->type = TEST_DM_EXPECT_NO_MARK;
		return 0;
	}
	return test_dm_expect_value(cp, e, UINT32_MAX, "a mark value or 'none'");
}

/* no flag | no mark */
static int
test_dm_expect_no(struct test_dm_case_parser *cp, struct test_dm_expect *e)
{
	const struct test_dm_tok *t = test_dm_case_parse_next(cp);

	if (t != NULL && test_dm_tok_is(t, "flag"))
		e->type = TEST_DM_EXPECT_NO_FLAG;
	else if (t != NULL && test_dm_tok_is(t, "mark"))
		e->type = TEST_DM_EXPECT_NO_MARK;
	else
		return test_dm_case_parse_error(cp, t, "expected 'flag' or 'mark' after 'no'");
	return 0;
}

/* rss queues <set> [port <p>] | rss spread over queues <set> [port <p>] */
static int
test_dm_expect_rss(struct test_dm_case_parser *cp, struct test_dm_expect *e)
{
	uint64_t v;
	int ret;

	if (test_dm_case_parse_peek_is(cp, "spread")) {
		cp->i++;
		e->type = TEST_DM_EXPECT_RSS_SPREAD;
		ret = test_dm_case_parse_word(cp, "over");
		if (ret < 0)
			return ret;
	}
	ret = test_dm_case_parse_word(cp, "queues");
	if (ret == 0)
		ret = test_dm_case_parse_qset(cp, e->qset);
	/* Another port than where the sending port's frames arrive (a switch's). */
	if (ret == 0 && test_dm_case_parse_peek_is(cp, "port")) {
		cp->i++;
		ret = test_dm_case_parse_port(cp, &v);
		e->port = (int)v;
	}
	return ret;
}

/* count rule <id> [port <p>] packets <n> [bytes <m>] */
static int
test_dm_expect_count(struct test_dm_case_parser *cp)
{
	struct test_dm_step *s = test_dm_case_parse_step(cp, TEST_DM_STEP_COUNT);
	uint64_t v;
	int ret;

	if (s == NULL)
		return -ENOMEM;
	s->port = cp->c->port;
	ret = test_dm_case_parse_word(cp, "rule");
	if (ret == 0)
		ret = test_dm_case_parse_uint(cp, UINT32_MAX, "a rule id", &v);
	if (ret < 0)
		return ret;
	s->rule = (uint32_t)v;
	if (test_dm_case_parse_peek_is(cp, "port")) {
		cp->i++;
		ret = test_dm_case_parse_port(cp, &v);
		if (ret < 0)
			return ret;
		s->port = (uint16_t)v;
	}
	ret = test_dm_case_parse_word(cp, "packets");
	if (ret == 0)
		ret = test_dm_case_parse_uint(cp, UINT64_MAX, "a packet count", &s->packets);
	if (ret == 0 && test_dm_case_parse_peek_is(cp, "bytes")) {
		cp->i++;
		s->has_bytes = 1;
		ret = test_dm_case_parse_uint(cp, UINT64_MAX, "a byte count", &s->bytes);
	}
	return ret < 0 ? ret : test_dm_case_parse_end(cp);
}

/* reject <flow create|validate ...> error <TYPE> */
static int
test_dm_expect_reject(struct test_dm_case_parser *cp)
{
	struct test_dm_toks sub = cp->toks;
	const struct test_dm_tok *et;
	struct test_dm_step *s;
	unsigned int k;
	int ret;

	for (k = cp->toks.n; k > cp->i; k--)
		if (test_dm_tok_is(&cp->toks.v[k - 1], "error"))
			break;
	if (k == cp->i || k + 1 != cp->toks.n)
		return test_dm_case_parse_error(cp, k == cp->i ? NULL : &cp->toks.v[k],
						"expected 'error <RTE_FLOW_ERROR_TYPE_...>' at the "
						"end");
	et = &cp->toks.v[k];
	s = test_dm_case_parse_step(cp, TEST_DM_STEP_REJECT);
	if (s == NULL)
		return -ENOMEM;
	s->error_type = test_dm_flow_error_type_parse(et->s, et->len);
	if (s->error_type < 0)
		return test_dm_case_parse_error(cp, et, "unknown error type '%.*s' (expected "
						"RTE_FLOW_ERROR_TYPE_...)", (int)et->len, et->s);
	/* The flow command ends where "error" starts. */
	sub.n = k - 1;
	sub.end = cp->toks.v[k - 1].pos;
	ret = test_dm_flow_parse(&cp->fctx, &sub, cp->i, &s->flow, cp->err);
	if (ret < 0)
		return ret;
	cp->i = cp->toks.n;
	if (s->flow->type != TEST_DM_FLOW_CREATE && s->flow->type != TEST_DM_FLOW_VALIDATE)
		return test_dm_case_parse_error(cp, &cp->toks.v[2], "only 'flow create' and "
						"'flow validate' can be expected to fail");
	return 0;
}

static const struct {
	const char *word;
	enum test_dm_expect_type type;
	int (*parse)(struct test_dm_case_parser *cp, struct test_dm_expect *e);
	int per_packet;
} test_dm_exps[] = {
	{ "queue", TEST_DM_EXPECT_QUEUE, test_dm_expect_queue, 1 },
	{ "port", TEST_DM_EXPECT_QUEUE, test_dm_expect_port, 1 },
	{ "drop", TEST_DM_EXPECT_DROP, test_dm_expect_none, 1 },
	{ "received", TEST_DM_EXPECT_RECEIVED, test_dm_expect_received, 0 },
	{ "bytes", TEST_DM_EXPECT_BYTES, test_dm_expect_bytes, 1 },
	{ "field", TEST_DM_EXPECT_FIELD, test_dm_expect_field, 1 },
	{ "mark", TEST_DM_EXPECT_MARK, test_dm_expect_mark, 1 },
	{ "flag", TEST_DM_EXPECT_FLAG, test_dm_expect_none, 1 },
	{ "no", TEST_DM_EXPECT_NO_FLAG, test_dm_expect_no, 1 },
	{ "rss", TEST_DM_EXPECT_RSS, test_dm_expect_rss, 1 },
};

static int
test_dm_step_expect(struct test_dm_case_parser *cp)
{
	const struct test_dm_tok *t, *pkt_tok = NULL;
	struct test_dm_expect *e;
	int packet = -1, ret;
	unsigned int k;
	uint64_t v;

	if (test_dm_case_parse_peek_is(cp, "count")) {
		cp->i++;
		return test_dm_expect_count(cp);
	}
	if (test_dm_case_parse_peek_is(cp, "reject")) {
		cp->i++;
		return test_dm_expect_reject(cp);
	}
	if (test_dm_case_parse_peek_is(cp, "packet")) {
		cp->i++;
		pkt_tok = cp->i < cp->toks.n ? &cp->toks.v[cp->i] : NULL;
		ret = test_dm_case_parse_uint(cp, TEST_DM_SEND_MAX, "a packet index", &v);
		if (ret < 0)
			return ret;
		packet = (int)v;
	}
	t = test_dm_case_parse_next(cp);
	for (k = 0; t != NULL && k < RTE_DIM(test_dm_exps); k++)
		if (test_dm_tok_is(t, test_dm_exps[k].word))
			break;
	if (t == NULL || k == RTE_DIM(test_dm_exps))
		return test_dm_case_parse_error(cp, t, "expected queue, port, drop, received, "
						"bytes, field, mark, flag, no, rss, count or "
						"reject after 'expect'");
	if (cp->last_send < 0)
		return test_dm_case_parse_error(cp, t, "'expect %s' needs a 'send' before it",
						test_dm_exps[k].word);
	if (packet >= 0 && !test_dm_exps[k].per_packet)
		return test_dm_case_parse_error(cp, t, "'%s' applies to all the packets of a send, "
						"not to one", test_dm_exps[k].word);
	if (packet >= (int)cp->c->steps[cp->last_send].send.pkts.n)
		return test_dm_case_parse_error(cp, pkt_tok, "packet %d out of range: the send has "
						"%u packet(s)", packet,
						cp->c->steps[cp->last_send].send.pkts.n);
	e = test_dm_case_parse_expect(cp, test_dm_exps[k].type, packet);
	if (e == NULL)
		return -ENOMEM;
	e->pos = t->pos;
	ret = test_dm_exps[k].parse(cp, e);
	if (ret == 0 && e->type == TEST_DM_EXPECT_RSS_SPREAD && packet >= 0)
		ret = test_dm_case_parse_error(cp, t, "'rss spread' applies to all the packets of "
					       "a send");
	return ret < 0 ? ret : test_dm_case_parse_end(cp);
}

/*
 * repeat <n> ... end: an expectation belongs to the send before it in the
 * same block, so a block boundary forgets the last send.
 */
static int
test_dm_step_repeat(struct test_dm_case_parser *cp)
{
	struct test_dm_step *s;
	uint64_t n;
	int ret;

	if (cp->depth == TEST_DM_CASE_MAX_DEPTH)
		return test_dm_case_parse_error(cp, &cp->toks.v[0],
						"repeat blocks nest at most %u deep",
						TEST_DM_CASE_MAX_DEPTH);
	ret = test_dm_case_parse_uint(cp, TEST_DM_CASE_MAX_REPEAT, "a number of runs", &n);
	if (ret == 0 && n == 0)
		ret = test_dm_case_parse_error(cp, &cp->toks.v[1], "a repeat block runs at least "
					       "once");
	if (ret == 0)
		ret = test_dm_case_parse_end(cp);
	if (ret < 0)
		return ret;
	s = test_dm_case_parse_step(cp, TEST_DM_STEP_REPEAT);
	if (s == NULL)
		return -ENOMEM;
	s->repeat = (uint32_t)n;
	cp->open_pos[cp->depth] = s->pos;
	cp->open[cp->depth++] = cp->c->nb_steps - 1;
	cp->last_send = -1;
	return 0;
}

static int
test_dm_step_end(struct test_dm_case_parser *cp)
{
	struct test_dm_step *s;
	unsigned int start;

	if (cp->depth == 0)
		return test_dm_case_parse_error(cp, &cp->toks.v[0], "'end' without 'repeat'");
	s = test_dm_case_parse_step(cp, TEST_DM_STEP_END);
	if (s == NULL)
		return -ENOMEM;
	start = cp->open[--cp->depth];
	s->block = start;
	cp->c->steps[start].block = cp->c->nb_steps - 1;
	cp->last_send = -1;
	return test_dm_case_parse_end(cp);
}

static const struct {
	const char *word;
	test_dm_stmt_fn fn;
} test_dm_stmts[] = {
	{ "case", test_dm_step_case },
	{ "queues", test_dm_step_queues },
	{ "port", test_dm_step_port },
	{ "topology", test_dm_step_topology },
	{ "require", test_dm_step_require },
	{ "flow", test_dm_step_flow },
	{ "set", test_dm_step_flow },
	{ "send", test_dm_step_send },
	{ "expect", test_dm_step_expect },
	{ "repeat", test_dm_step_repeat },
	{ "end", test_dm_step_end },
};

static char *
test_dm_case_default_name(const char *file)
{
	const char *base = strrchr(file, '/'), *dot;

	base = base != NULL ? base + 1 : file;
	dot = strrchr(base, '.');
	return strndup(base, dot != NULL && dot != base ? (size_t)(dot - base) : strlen(base));
}

int
test_dm_case_parse(const char *text, size_t len, const char *file, struct test_dm_case **out,
		   struct test_dm_err *err)
{
	struct test_dm_case_parser cp = { .last_send = -1, .err = err };
	struct test_dm_reader rd;
	const struct test_dm_tok *t;
	unsigned int k;
	int ret;

	cp.c = calloc(1, sizeof(*cp.c));
	if (cp.c == NULL)
		return -ENOMEM;
	cp.c->file = strdup(file);
	cp.c->name = test_dm_case_default_name(file);
	cp.c->nb_queues = TEST_DM_CASE_DEFAULT_QUEUES;
	if (cp.c->file == NULL || cp.c->name == NULL) {
		ret = -ENOMEM;
		goto fail;
	}
	test_dm_flow_ctx_init(&cp.fctx);
	cp.fctx.nb_rxq = cp.c->nb_queues;
	test_dm_reader_init(&rd, text, len, cp.c->file, 1, 1);
	while ((ret = test_dm_reader_line(&rd, &cp.toks)) > 0) {
		t = &cp.toks.v[0];
		for (k = 0; k < RTE_DIM(test_dm_stmts); k++)
			if (test_dm_tok_is(t, test_dm_stmts[k].word))
				break;
		if (k == RTE_DIM(test_dm_stmts)) {
			ret = test_dm_err_at(err, &t->pos, "expected case, queues, port, topology, "
					     "require, flow, set, send, expect, repeat or end, "
					     "got '%.*s'", (int)t->len, t->s);
			break;
		}
		cp.i = test_dm_stmts[k].fn == test_dm_step_flow ? 0 : 1;
		ret = test_dm_stmts[k].fn(&cp);
		if (ret < 0)
			break;
	}
	test_dm_toks_free(&cp.toks);
	if (ret == 0 && cp.depth != 0)
		ret = test_dm_err_at(err, &cp.open_pos[cp.depth - 1], "'repeat' without 'end'");
	if (ret < 0)
		goto fail;
	*out = cp.c;
	return 0;
fail:
	test_dm_case_free(cp.c);
	return ret;
}

int
test_dm_case_load(const char *path, struct test_dm_case **out, struct test_dm_err *err)
{
	struct test_dm_pos pos = { .file = path, .line = 0, .col = 0 };
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	int ret;

	f = fopen(path, "r");
	if (f == NULL)
		return test_dm_err_at(err, &pos, "cannot open: %s", strerror(errno));
	if (fseek(f, 0, SEEK_END) == 0) {
		long n = ftell(f);

		if (n >= 0 && fseek(f, 0, SEEK_SET) == 0) {
			text = malloc((size_t)n + 1);
			if (text != NULL)
				len = fread(text, 1, (size_t)n, f);
		}
	}
	fclose(f);
	if (text == NULL)
		return -ENOMEM;
	ret = test_dm_case_parse(text, len, path, out, err);
	free(text);
	return ret;
}

int
test_dm_case_uses_flow(const struct test_dm_case *c)
{
	enum test_dm_step_type t;
	unsigned int i;

	for (i = 0; i < c->nb_steps; i++) {
		t = c->steps[i].type;
		if (t == TEST_DM_STEP_FLOW || t == TEST_DM_STEP_REJECT || t == TEST_DM_STEP_COUNT ||
		    t == TEST_DM_STEP_REQUIRE)
			return 1;
	}
	return 0;
}

void
test_dm_case_free(struct test_dm_case *c)
{
	unsigned int i, k;

	if (c == NULL)
		return;
	for (i = 0; i < c->nb_steps; i++) {
		struct test_dm_step *s = &c->steps[i];

		test_dm_flow_cmd_free(s->flow);
		test_dm_pktlist_free(&s->send.pkts);
		for (k = 0; k < s->send.nb_exp; k++) {
			test_dm_pkt_tmpl_free(s->send.exp[k].tmpl);
			free(s->send.exp[k].hex.data);
		}
		free(s->send.exp);
	}
	free(c->steps);
	free(c->name);
	free(c->file);
	free(c);
}
