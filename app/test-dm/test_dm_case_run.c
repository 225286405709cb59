/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The case executor: runs a case's steps through a runner and checks each
 * expectation. Rule ids are given as testpmd gives them (per port: one more
 * than the newest rule's id, 0 when the port has none), so "flow destroy 0
 * rule 1" in a case means what it means in testpmd.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_common.h>

#include "test_dm_pcap.h"
#include "test_dm_runner.h"
#include "test_dm_vec.h"

struct test_dm_rule_id {
	uint16_t port;
	uint32_t id;
	void *handle;
};

/* A pattern template, actions template or template table of the case. */
struct test_dm_tobj {
	enum test_dm_flow_cmd_type type;
	uint16_t port;
	uint32_t id;
	void *handle;
};

/* An operation on a flow queue whose result was not pulled yet. */
struct test_dm_op {
	uint16_t port;
	uint32_t queue;
	uint32_t seq;			/**< Its user data. */
	int pushed;			/**< Its result may be pulled. */
	const struct test_dm_pos *pos;
	char what[48];
};

struct test_dm_exec {
	const struct test_dm_case *c;
	const struct test_dm_runner_ops *ops;
	void *ctx;
	const struct test_dm_run_opts *opts;
	struct test_dm_case_result *res;
	struct test_dm_rule_id *ids;
	unsigned int nb_ids;
	unsigned int cap_ids;
	unsigned int logged;		/**< Failure lines logged so far. */
	uint8_t *pcap_done;		/**< Per step: its pcaps were written. */
	uint32_t iter;			/**< Run of the innermost repeat block (from 1). */
	struct test_dm_tobj *tobjs;
	unsigned int nb_tobjs;
	unsigned int cap_tobjs;
	struct test_dm_op *qops;
	unsigned int nb_qops;
	unsigned int cap_qops;
	uint32_t seq;
	uint8_t port_used[UINT16_MAX + 1];
};

static void test_dm_write_dump(struct test_dm_exec *x);

static void
test_dm_fail(struct test_dm_exec *x, const struct test_dm_pos *pos, const char *fmt, ...)
	__rte_format_printf(3, 4);

static void
test_dm_fail(struct test_dm_exec *x, const struct test_dm_pos *pos, const char *fmt, ...)
{
	char text[400], run[32] = "";
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (x->iter != 0)
		snprintf(run, sizeof(run), " (run %u)", x->iter);
	x->res->checks++;
	x->res->failed++;
	if (x->res->first_failure[0] == '\0') {
		snprintf(x->res->first_failure, sizeof(x->res->first_failure), "%s:%u:%u: %s%s",
			 pos->file, pos->line, pos->col, text, run);
		/* The rules that made the first failure are still in place: dump them now. */
		if (x->opts->out_dir != NULL)
			test_dm_write_dump(x);
	}
	if (x->opts->log == NULL)
		return;
	if (x->opts->max_log == 0 || x->logged < x->opts->max_log)
		fprintf(x->opts->log, "  FAIL %s:%u:%u: %s%s\n", pos->file, pos->line, pos->col,
			text, run);
	else if (x->logged == x->opts->max_log)
		fprintf(x->opts->log, "  (more failures not shown)\n");
	x->logged++;
}

static void
test_dm_note(struct test_dm_exec *x, const char *fmt, ...) __rte_format_printf(2, 3);

/* Append to the case's list of evidence ("; "-separated). */
static void
test_dm_note(struct test_dm_exec *x, const char *fmt, ...)
{
	size_t n = strlen(x->res->artifacts);
	va_list ap;

	if (n != 0 && n + 2 < sizeof(x->res->artifacts)) {
		memcpy(x->res->artifacts + n, "; ", 3);
		n += 2;
	}
	va_start(ap, fmt);
	vsnprintf(x->res->artifacts + n, sizeof(x->res->artifacts) - n, fmt, ap);
	va_end(ap);
}

/* <out_dir>/<case>-dump.txt: each port's steering as the runner shows it. */
static void
test_dm_write_dump(struct test_dm_exec *x)
{
	char path[1024], why[256] = "the runner has no dump";
	unsigned int p, ok = 0, tried = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s-dump.txt", x->opts->out_dir, x->c->name);
	f = fopen(path, "w");
	if (f == NULL) {
		test_dm_note(x, "dump unavailable: %s: %s", path, strerror(errno));
		return;
	}
	for (p = 0; p <= UINT16_MAX; p++) {
		if (!x->port_used[p])
			continue;
		tried++;
		fprintf(f, "# port %u on %s\n", p, x->ops->name);
		if (x->ops->dump != NULL && x->ops->dump(x->ctx, (uint16_t)p, f, why,
							 sizeof(why)) == 0) {
			ok++;
			continue;
		}
		fprintf(f, "dump unavailable: %s\n", why);
	}
	fclose(f);
	if (tried != 0 && ok == 0)
		test_dm_note(x, "dump unavailable: %s", why);
	else
		test_dm_note(x, "%s", path);
}

static void
test_dm_pass(struct test_dm_exec *x, const struct test_dm_pos *pos, const char *what)
{
	x->res->checks++;
	if (x->opts->log != NULL && x->opts->verbose)
		fprintf(x->opts->log, "  ok   %s:%u: %s\n", pos->file, pos->line, what);
}

static const char *
test_dm_errmsg(const struct rte_flow_error *e)
{
	return e->message != NULL ? e->message : "(no message)";
}

/* ---- rule ids ---- */

static struct test_dm_rule_id *
test_dm_id_find(struct test_dm_exec *x, uint16_t port, uint32_t id)
{
	unsigned int i;

	for (i = 0; i < x->nb_ids; i++)
		if (x->ids[i].port == port && x->ids[i].id == id)
			return &x->ids[i];
	return NULL;
}

static int
test_dm_id_add(struct test_dm_exec *x, uint16_t port, void *handle)
{
	uint32_t id = 0;
	unsigned int i;

	for (i = x->nb_ids; i > 0; i--) {
		if (x->ids[i - 1].port == port) {
			id = x->ids[i - 1].id + 1;
			break;
		}
	}
	if (test_dm_vec_grow((void **)&x->ids, &x->cap_ids, x->nb_ids, sizeof(*x->ids)) < 0)
		return -ENOMEM;
	x->ids[x->nb_ids++] = (struct test_dm_rule_id){ port, id, handle };
	x->port_used[port] = 1;
	return 0;
}

static void
test_dm_id_del(struct test_dm_exec *x, struct test_dm_rule_id *r)
{
	unsigned int i = (unsigned int)(r - x->ids);

	memmove(r, r + 1, (x->nb_ids - i - 1) * sizeof(*r));
	x->nb_ids--;
}

/* ---- flow steps ---- */

static int
test_dm_run_create(struct test_dm_exec *x, const struct test_dm_step *s)
{
	struct rte_flow_error e = { 0 };
	void *h = NULL;

	if (x->ops->flow_create(x->ctx, s->flow, &h, &e) < 0) {
		test_dm_fail(x, &s->pos, "flow create failed: %s: %s",
			     test_dm_flow_error_type_name(e.type), test_dm_errmsg(&e));
		return 0;
	}
	test_dm_pass(x, &s->pos, "flow create");
	return test_dm_id_add(x, s->flow->port, h);
}

static void
test_dm_run_destroy(struct test_dm_exec *x, const struct test_dm_step *s)
{
	const struct test_dm_flow_cmd *cmd = s->flow;
	struct rte_flow_error e = { 0 };
	struct test_dm_rule_id *r;
	unsigned int i;

	for (i = 0; i < cmd->nb_rules; i++) {
		r = test_dm_id_find(x, cmd->port, cmd->rules[i]);
		if (r == NULL) {
			test_dm_fail(x, &s->pos, "flow destroy: no rule %u on port %u",
				     cmd->rules[i], cmd->port);
			continue;
		}
		if (x->ops->flow_destroy(x->ctx, cmd->port, r->handle, &e) < 0)
			test_dm_fail(x, &s->pos, "flow destroy of rule %u failed: %s: %s",
				     r->id, test_dm_flow_error_type_name(e.type),
				     test_dm_errmsg(&e));
		else
			test_dm_pass(x, &s->pos, "flow destroy");
		test_dm_id_del(x, r);
	}
}

static void
test_dm_run_flush(struct test_dm_exec *x, uint16_t port, const struct test_dm_pos *pos)
{
	struct rte_flow_error e = { 0 };
	unsigned int i, k = 0;

	if (x->ops->flow_flush(x->ctx, port, &e) < 0 && pos != NULL)
		test_dm_fail(x, pos, "flow flush failed: %s: %s",
			     test_dm_flow_error_type_name(e.type), test_dm_errmsg(&e));
	else if (pos != NULL)
		test_dm_pass(x, pos, "flow flush");
	for (i = 0; i < x->nb_ids; i++)
		if (x->ids[i].port != port)
			x->ids[k++] = x->ids[i];
	x->nb_ids = k;
}

static int
test_dm_run_query(struct test_dm_exec *x, const struct test_dm_pos *pos, uint16_t port,
		  uint32_t id, struct rte_flow_query_count *q)
{
	struct test_dm_rule_id *r = test_dm_id_find(x, port, id);
	struct rte_flow_error e = { 0 };

	memset(q, 0, sizeof(*q));
	if (r == NULL) {
		test_dm_fail(x, pos, "no rule %u on port %u to query", id, port);
		return -ENOENT;
	}
	if (x->ops->flow_query_count(x->ctx, port, r->handle, q, &e) < 0) {
		test_dm_fail(x, pos, "query of rule %u failed: %s: %s", id,
			     test_dm_flow_error_type_name(e.type), test_dm_errmsg(&e));
		return -EIO;
	}
	return 0;
}

/* ---- template API ---- */

/*
 * How long a pull waits for the results of pushed operations: the device
 * finishes them, but a loaded machine may leave its thread waiting.
 */
#define TEST_DM_PULL_WAIT_MS 2000
#define TEST_DM_PULL_BURST 32

static const char *
test_dm_tobj_name(enum test_dm_flow_cmd_type type)
{
	return type == TEST_DM_FLOW_PATTERN_TEMPLATE ? "pattern template" :
	       type == TEST_DM_FLOW_ACTIONS_TEMPLATE ? "actions template" : "template table";
}

static struct test_dm_tobj *
test_dm_tobj_find(struct test_dm_exec *x, enum test_dm_flow_cmd_type type, uint16_t port,
		  uint32_t id)
{
	unsigned int i;

	for (i = 0; i < x->nb_tobjs; i++)
		if (x->tobjs[i].type == type && x->tobjs[i].port == port && x->tobjs[i].id == id)
			return &x->tobjs[i];
	return NULL;
}

static int
test_dm_has_tmpl(struct test_dm_exec *x, const struct test_dm_step *s)
{
	if (x->ops->async_create != NULL)
		return 1;
	test_dm_fail(x, &s->pos, "the %s runner has no template API", x->ops->name);
	return 0;
}

static void
test_dm_run_configure(struct test_dm_exec *x, const struct test_dm_step *s)
{
	struct rte_flow_error e = { 0 };

	if (!test_dm_has_tmpl(x, s))
		return;
	if (x->ops->flow_configure(x->ctx, s->flow, &e) < 0)
		test_dm_fail(x, &s->pos, "flow configure failed: %s: %s",
			     test_dm_flow_error_type_name(e.type), test_dm_errmsg(&e));
	else
		test_dm_pass(x, &s->pos, "flow configure");
}

/* A template or table; a table refers to its templates by their ids. */
static int
test_dm_run_template(struct test_dm_exec *x, const struct test_dm_step *s)
{
	const struct test_dm_flow_cmd *cmd = s->flow;
	void *refs[2 * TEST_DM_TABLE_TEMPLATES], *h = NULL;
	struct rte_flow_error e = { 0 };
	const struct test_dm_tobj *o;
	unsigned int i, n = 0;
	uint32_t id = cmd->id;

	if (!test_dm_has_tmpl(x, s))
		return 0;
	/* As testpmd: without an id, one more than the port's highest of the kind. */
	if (id == TEST_DM_ID_AUTO)
		for (i = 0, id = 0; i < x->nb_tobjs; i++)
			if (x->tobjs[i].type == cmd->type && x->tobjs[i].port == cmd->port)
				id = RTE_MAX(id, x->tobjs[i].id + 1);
	if (test_dm_tobj_find(x, cmd->type, cmd->port, id) != NULL) {
		test_dm_fail(x, &s->pos, "%s %u exists on port %u", test_dm_tobj_name(cmd->type),
			     id, cmd->port);
		return 0;
	}
	for (i = 0; i < cmd->nb_pattern_templates + cmd->nb_actions_templates; i++) {
		int pt = i < cmd->nb_pattern_templates;
		uint32_t ref = pt ? cmd->pattern_templates[i] :
			       cmd->actions_templates[i - cmd->nb_pattern_templates];

		o = test_dm_tobj_find(x, pt ? TEST_DM_FLOW_PATTERN_TEMPLATE :
				      TEST_DM_FLOW_ACTIONS_TEMPLATE, cmd->port, ref);
		if (o == NULL) {
			test_dm_fail(x, &s->pos, "no %s template %u on port %u",
				     pt ? "pattern" : "actions", ref, cmd->port);
			return 0;
		}
		refs[n++] = o->handle;
	}
	if (x->ops->template_create(x->ctx, cmd, refs, &h, &e) < 0) {
		test_dm_fail(x, &s->pos, "%s create failed: %s: %s", test_dm_tobj_name(cmd->type),
			     test_dm_flow_error_type_name(e.type), test_dm_errmsg(&e));
		return 0;
	}
	test_dm_pass(x, &s->pos, test_dm_tobj_name(cmd->type));
	if (test_dm_vec_grow((void **)&x->tobjs, &x->cap_tobjs, x->nb_tobjs,
			     sizeof(*x->tobjs)) < 0) {
		x->ops->template_destroy(x->ctx, cmd->type, cmd->port, h, &e);
		return -ENOMEM;
	}
	x->tobjs[x->nb_tobjs++] = (struct test_dm_tobj){ cmd->type, cmd->port, id, h };
	return 0;
}

static void
test_dm_tobj_destroy(struct test_dm_exec *x, struct test_dm_tobj *o,
		     const struct test_dm_pos *pos)
{
	struct rte_flow_error e = { 0 };
	unsigned int i = (unsigned int)(o - x->tobjs);

	if (x->ops->template_destroy(x->ctx, o->type, o->port, o->handle, &e) < 0 &&
	    pos != NULL)
		test_dm_fail(x, pos, "destroy of %s %u failed: %s: %s", test_dm_tobj_name(o->type),
			     o->id, test_dm_flow_error_type_name(e.type), test_dm_errmsg(&e));
	else if (pos != NULL)
		test_dm_pass(x, pos, "template destroy");
	memmove(o, o + 1, (x->nb_tobjs - i - 1) * sizeof(*o));
	x->nb_tobjs--;
}

static void
test_dm_run_template_destroy(struct test_dm_exec *x, const struct test_dm_step *s)
{
	const struct test_dm_flow_cmd *cmd = s->flow;
	enum test_dm_flow_cmd_type type = cmd->type - TEST_DM_FLOW_PATTERN_TEMPLATE_DESTROY +
					  TEST_DM_FLOW_PATTERN_TEMPLATE;
	struct test_dm_tobj *o;
	unsigned int i;

	if (!test_dm_has_tmpl(x, s))
		return;
	for (i = 0; i < cmd->nb_rules; i++) {
		o = test_dm_tobj_find(x, type, cmd->port, cmd->rules[i]);
		if (o == NULL)
			test_dm_fail(x, &s->pos, "no %s %u on port %u", test_dm_tobj_name(type),
				     cmd->rules[i], cmd->port);
		else
			test_dm_tobj_destroy(x, o, &s->pos);
	}
}

static int
test_dm_op_add(struct test_dm_exec *x, const struct test_dm_step *s, const char *what,
	       uint32_t rule)
{
	struct test_dm_op *op;

	if (test_dm_vec_grow((void **)&x->qops, &x->cap_qops, x->nb_qops, sizeof(*op)) < 0)
		return -ENOMEM;
	op = &x->qops[x->nb_qops++];
	*op = (struct test_dm_op){ s->flow->port, s->flow->queue, x->seq++, !s->flow->postpone,
				   &s->pos, "" };
	snprintf(op->what, sizeof(op->what), "%s of rule %u", what, rule);
	return 0;
}

static int
test_dm_run_queue_create(struct test_dm_exec *x, const struct test_dm_step *s)
{
	const struct test_dm_flow_cmd *cmd = s->flow;
	const struct test_dm_rule_id *r;
	struct rte_flow_error e = { 0 };
	struct test_dm_tobj *t;
	void *h = NULL;
	int ret;

	if (!test_dm_has_tmpl(x, s))
		return 0;
	t = test_dm_tobj_find(x, TEST_DM_FLOW_TABLE, cmd->port, cmd->id);
	if (t == NULL) {
		test_dm_fail(x, &s->pos, "no template table %u on port %u", cmd->id, cmd->port);
		return 0;
	}
	if (x->ops->async_create(x->ctx, cmd, t->handle, (void *)(uintptr_t)x->seq, &h,
				 &e) < 0) {
		test_dm_fail(x, &s->pos, "flow queue create failed: %s: %s",
			     test_dm_flow_error_type_name(e.type), test_dm_errmsg(&e));
		return 0;
	}
	test_dm_pass(x, &s->pos, "flow queue create");
	ret = test_dm_id_add(x, cmd->port, h);
	if (ret < 0)
		return ret;
	r = &x->ids[x->nb_ids - 1];
	return test_dm_op_add(x, s, "creation", r->id);
}

static int
test_dm_run_queue_destroy(struct test_dm_exec *x, const struct test_dm_step *s)
{
	const struct test_dm_flow_cmd *cmd = s->flow;
	struct rte_flow_error e = { 0 };
	struct test_dm_rule_id *r;
	unsigned int i;
	int ret;

	if (!test_dm_has_tmpl(x, s))
		return 0;
	for (i = 0; i < cmd->nb_rules; i++) {
		r = test_dm_id_find(x, cmd->port, cmd->rules[i]);
		if (r == NULL) {
			test_dm_fail(x, &s->pos, "flow queue destroy: no rule %u on port %u",
				     cmd->rules[i], cmd->port);
			continue;
		}
		if (x->ops->async_destroy(x->ctx, cmd->port, cmd->queue, cmd->postpone, r->handle,
					  (void *)(uintptr_t)x->seq, &e) < 0) {
			test_dm_fail(x, &s->pos, "flow queue destroy of rule %u failed: %s: %s",
				     r->id, test_dm_flow_error_type_name(e.type),
				     test_dm_errmsg(&e));
			continue;
		}
		test_dm_pass(x, &s->pos, "flow queue destroy");
		ret = test_dm_op_add(x, s, "destruction", r->id);
		test_dm_id_del(x, r);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static void
test_dm_run_push(struct test_dm_exec *x, uint16_t port, uint32_t queue,
		 const struct test_dm_pos *pos)
{
	struct rte_flow_error e = { 0 };
	unsigned int i;

	if (x->ops->push(x->ctx, port, queue, &e) < 0) {
		if (pos != NULL)
			test_dm_fail(x, pos, "flow push failed: %s: %s",
				     test_dm_flow_error_type_name(e.type), test_dm_errmsg(&e));
		return;
	}
	if (pos != NULL)
		test_dm_pass(x, pos, "flow push");
	for (i = 0; i < x->nb_qops; i++)
		if (x->qops[i].port == port && x->qops[i].queue == queue)
			x->qops[i].pushed = 1;
}

static uint64_t
test_dm_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* Pushed operations of the queue still without a result. */
static unsigned int
test_dm_pushed_left(const struct test_dm_exec *x, uint16_t port, uint32_t queue)
{
	unsigned int i, n = 0;

	for (i = 0; i < x->nb_qops; i++)
		n += x->qops[i].port == port && x->qops[i].queue == queue && x->qops[i].pushed;
	return n;
}

/* One result: it must be a pending operation's of this queue, and a success. */
static void
test_dm_pull_result(struct test_dm_exec *x, uint16_t port, uint32_t queue,
		    const struct rte_flow_op_result *r, const struct test_dm_pos *pos)
{
	uint32_t seq = (uint32_t)(uintptr_t)r->user_data;
	struct test_dm_op *op = NULL;
	unsigned int i;

	for (i = 0; i < x->nb_qops; i++) {
		if (x->qops[i].seq == seq && x->qops[i].port == port && x->qops[i].queue == queue) {
			op = &x->qops[i];
			break;
		}
	}
	if (pos == NULL)
		;
	else if (op == NULL)
		test_dm_fail(x, pos, "flow pull: a result with user data %u, which no pending "
			     "operation of queue %u has", seq, queue);
	else if (r->status != RTE_FLOW_OP_SUCCESS)
		test_dm_fail(x, pos, "flow pull: the %s (line %u) failed", op->what,
			     op->pos->line);
	else
		test_dm_pass(x, pos, op->what);
	if (op != NULL) {
		memmove(op, op + 1, (x->nb_qops - i - 1) * sizeof(*op));
		x->nb_qops--;
	}
}

/*
 * Pull until every pushed operation of the queue has its result (each one
 * checked), or the wait is over. @p pos NULL: drain quietly.
 */
static void
test_dm_run_pull(struct test_dm_exec *x, uint16_t port, uint32_t queue,
		 const struct test_dm_pos *pos)
{
	struct rte_flow_op_result res[TEST_DM_PULL_BURST];
	uint64_t deadline = test_dm_now_ms() + TEST_DM_PULL_WAIT_MS;
	struct rte_flow_error e = { 0 };
	unsigned int i;
	int n;

	do {
		n = x->ops->pull(x->ctx, port, queue, res, TEST_DM_PULL_BURST, &e);
		if (n < 0) {
			if (pos != NULL)
				test_dm_fail(x, pos, "flow pull failed: %s: %s",
					     test_dm_flow_error_type_name(e.type),
					     test_dm_errmsg(&e));
			return;
		}
		for (i = 0; i < (unsigned int)n; i++)
			test_dm_pull_result(x, port, queue, &res[i], pos);
	} while ((n != 0 || test_dm_pushed_left(x, port, queue) != 0) &&
		 test_dm_now_ms() < deadline);
	if (pos == NULL)
		return;
	for (i = 0; i < x->nb_qops; i++) {
		const struct test_dm_op *op = &x->qops[i];

		if (op->port == port && op->queue == queue && op->pushed)
			test_dm_fail(x, pos, "flow pull: no result for the %s (line %u) after "
				     "%u ms", op->what, op->pos->line, TEST_DM_PULL_WAIT_MS);
	}
	if (test_dm_pushed_left(x, port, queue) == 0)
		test_dm_pass(x, pos, "flow pull");
}

/* The case's operations left without a result are pushed and their results drained. */
static void
test_dm_queues_drain(struct test_dm_exec *x)
{
	struct test_dm_op op;
	unsigned int i, k;

	while (x->nb_qops != 0) {
		op = x->qops[0];
		test_dm_run_push(x, op.port, op.queue, NULL);
		test_dm_run_pull(x, op.port, op.queue, NULL);
		/* Whatever the runner did not report is forgotten. */
		for (i = 0, k = 0; i < x->nb_qops; i++)
			if (x->qops[i].port != op.port || x->qops[i].queue != op.queue)
				x->qops[k++] = x->qops[i];
		x->nb_qops = k;
	}
}

/* Tables first, then the templates they use. */
static void
test_dm_tobjs_destroy(struct test_dm_exec *x)
{
	enum test_dm_flow_cmd_type order[] = { TEST_DM_FLOW_TABLE, TEST_DM_FLOW_ACTIONS_TEMPLATE,
					       TEST_DM_FLOW_PATTERN_TEMPLATE };
	unsigned int k, i;

	for (k = 0; k < RTE_DIM(order); k++)
		for (i = x->nb_tobjs; i > 0; i--)
			if (x->tobjs[i - 1].type == order[k])
				test_dm_tobj_destroy(x, &x->tobjs[i - 1], NULL);
}

static int
test_dm_run_flow(struct test_dm_exec *x, const struct test_dm_step *s)
{
	struct rte_flow_query_count q;
	struct rte_flow_error e = { 0 };

	x->port_used[s->flow->port] = 1;
	switch (s->flow->type) {
	case TEST_DM_FLOW_CREATE:
		return test_dm_run_create(x, s);
	case TEST_DM_FLOW_VALIDATE:
		if (x->ops->flow_validate(x->ctx, s->flow, &e) < 0)
			test_dm_fail(x, &s->pos, "flow validate failed: %s: %s",
				     test_dm_flow_error_type_name(e.type), test_dm_errmsg(&e));
		else
			test_dm_pass(x, &s->pos, "flow validate");
		return 0;
	case TEST_DM_FLOW_DESTROY:
		test_dm_run_destroy(x, s);
		return 0;
	case TEST_DM_FLOW_FLUSH:
		test_dm_run_flush(x, s->flow->port, &s->pos);
		return 0;
	case TEST_DM_FLOW_CONFIGURE:
		test_dm_run_configure(x, s);
		return 0;
	case TEST_DM_FLOW_PATTERN_TEMPLATE:
	case TEST_DM_FLOW_ACTIONS_TEMPLATE:
	case TEST_DM_FLOW_TABLE:
		return test_dm_run_template(x, s);
	case TEST_DM_FLOW_PATTERN_TEMPLATE_DESTROY:
	case TEST_DM_FLOW_ACTIONS_TEMPLATE_DESTROY:
	case TEST_DM_FLOW_TABLE_DESTROY:
		test_dm_run_template_destroy(x, s);
		return 0;
	case TEST_DM_FLOW_QUEUE_CREATE:
		return test_dm_run_queue_create(x, s);
	case TEST_DM_FLOW_QUEUE_DESTROY:
		return test_dm_run_queue_destroy(x, s);
	case TEST_DM_FLOW_PUSH:
		if (test_dm_has_tmpl(x, s))
			test_dm_run_push(x, s->flow->port, s->flow->queue, &s->pos);
		return 0;
	case TEST_DM_FLOW_PULL:
		if (test_dm_has_tmpl(x, s))
			test_dm_run_pull(x, s->flow->port, s->flow->queue, &s->pos);
		return 0;
	default:
		if (test_dm_run_query(x, &s->pos, s->flow->port, s->flow->rule, &q) == 0 &&
		    x->opts->log != NULL)
			fprintf(x->opts->log, "  query rule %u: %" PRIu64 " packets, %" PRIu64
				" bytes\n", s->flow->rule, q.hits, q.bytes);
		return 0;
	}
}

static void
test_dm_run_reject(struct test_dm_exec *x, const struct test_dm_step *s)
{
	struct rte_flow_error e = { 0 };
	void *h = NULL;
	int ret;

	x->port_used[s->flow->port] = 1;
	if (s->flow->type == TEST_DM_FLOW_VALIDATE)
		ret = x->ops->flow_validate(x->ctx, s->flow, &e);
	else
		ret = x->ops->flow_create(x->ctx, s->flow, &h, &e);
	if (ret == 0) {
		test_dm_fail(x, &s->pos, "rule accepted, expected rejection with %s",
			     test_dm_flow_error_type_name(s->error_type));
		if (s->flow->type == TEST_DM_FLOW_CREATE)
			x->ops->flow_destroy(x->ctx, s->flow->port, h, &e);
		return;
	}
	if ((int)e.type != s->error_type) {
		test_dm_fail(x, &s->pos, "rule rejected with %s (%s), expected %s",
			     test_dm_flow_error_type_name(e.type), test_dm_errmsg(&e),
			     test_dm_flow_error_type_name(s->error_type));
		return;
	}
	test_dm_pass(x, &s->pos, "rejected as expected");
}

static void
test_dm_run_require(struct test_dm_exec *x, const struct test_dm_step *s)
{
	struct rte_flow_error e = { 0 };

	x->port_used[s->flow->port] = 1;
	if (x->ops->flow_validate(x->ctx, s->flow, &e) == 0)
		return;
	snprintf(x->res->skipped, sizeof(x->res->skipped), "%s:%u: the runner refuses a rule "
		 "the case requires: %s: %s", x->c->file, s->pos.line,
		 test_dm_flow_error_type_name(e.type), test_dm_errmsg(&e));
}

static void
test_dm_run_count(struct test_dm_exec *x, const struct test_dm_step *s)
{
	struct rte_flow_query_count q;
	char want[32];

	if (test_dm_run_query(x, &s->pos, s->port, s->rule, &q) < 0)
		return;
	snprintf(want, sizeof(want), "%" PRIu64 " bytes", s->bytes);
	if (q.hits != s->packets || (s->has_bytes && q.bytes != s->bytes))
		test_dm_fail(x, &s->pos, "rule %u counted %" PRIu64 " packets %" PRIu64
			     " bytes, expected %" PRIu64 " packets %s", s->rule, q.hits, q.bytes,
			     s->packets, s->has_bytes ? want : "(bytes not checked)");
	else
		test_dm_pass(x, &s->pos, "count");
}

/* ---- send ---- */

static void
test_dm_rx_desc(const struct test_dm_rx *rx, char *buf, size_t size)
{
	if (!rx->received)
		snprintf(buf, size, "dropped");
	else
		snprintf(buf, size, "port %u queue %u", rx->port, rx->queue);
}

/* Does packet k meet expectation e? On failure, say why in why[]. */
static int
test_dm_check_one(struct test_dm_exec *x, const struct test_dm_send *snd,
		  const struct test_dm_expect *e, unsigned int k, const struct test_dm_rx *rx,
		  char *why, size_t size)
{
	uint16_t port = e->port >= 0 ? (uint16_t)e->port : x->ops->peer(x->ctx, snd->port);
	uint8_t buf[TEST_DM_PKT_MAX];
	const uint8_t *want = buf;
	struct test_dm_pkt_info info;
	struct test_dm_fval got;
	char a[64], b[64];
	int n, eq;
	uint32_t i;

	test_dm_rx_desc(rx, a, sizeof(a));
	if (e->type == TEST_DM_EXPECT_DROP) {
		snprintf(why, size, "expected drop, got %s", a);
		return !rx->received;
	}
	if (!rx->received) {
		snprintf(why, size, "dropped");
		return 0;
	}
	switch (e->type) {
	case TEST_DM_EXPECT_QUEUE:
		snprintf(why, size, "expected port %u queue %u, got %s", port, e->value, a);
		return rx->port == port && rx->queue == e->value;
	case TEST_DM_EXPECT_PORT:
		snprintf(why, size, "expected port %u, got %s", port, a);
		return rx->port == port;
	case TEST_DM_EXPECT_RSS:
	case TEST_DM_EXPECT_RSS_SPREAD:
		snprintf(why, size, "expected port %u and a queue of the set, got %s", port, a);
		return rx->port == port && rx->queue < TEST_DM_CASE_MAX_QUEUES &&
		       e->qset[rx->queue];
	case TEST_DM_EXPECT_MARK:
		snprintf(why, size, "expected mark %u, got %s%u", e->value,
			 rx->fdir_id ? "" : "no mark, value ", rx->mark);
		return rx->fdir_id && rx->mark == e->value;
	case TEST_DM_EXPECT_NO_MARK:
		snprintf(why, size, "expected no mark, got mark %u", rx->mark);
		return !rx->fdir_id;
	case TEST_DM_EXPECT_FLAG:
	case TEST_DM_EXPECT_NO_FLAG:
		snprintf(why, size, "expected the FDIR flag %s", e->type == TEST_DM_EXPECT_FLAG ?
			 "set, it is not" : "clear, it is set");
		return rx->fdir == (e->type == TEST_DM_EXPECT_FLAG);
	case TEST_DM_EXPECT_BYTES:
		if (e->tmpl != NULL) {
			n = test_dm_pkt_build(e->tmpl, k, buf, sizeof(buf));
		} else {
			n = (int)e->hex.len;
			want = e->hex.data;
		}
		for (i = 0; n >= 0 && i < rx->len && i < (uint32_t)n && rx->data[i] == want[i]; i++)
			;
		snprintf(why, size, "bytes differ: got %u bytes, expected %d, first difference "
			 "at offset %u", rx->len, n, i);
		return n >= 0 && rx->len == (uint32_t)n && i == rx->len;
	case TEST_DM_EXPECT_FIELD:
		test_dm_pkt_decode(rx->data, rx->len, &info);
		if (test_dm_pkt_field_read(rx->data, &info, &e->fref, &got) < 0) {
			snprintf(why, size, "no %s[%u] header (or field) in the packet",
				 e->fref.layer->name, e->fref.nth);
			return 0;
		}
		eq = got.kind == TEST_DM_PK_IPV6 ? memcmp(got.bytes, e->fval.bytes, 16) == 0 :
			got.v == e->fval.v;
		test_dm_fval_format(&got, a, sizeof(a));
		test_dm_fval_format(&e->fval, b, sizeof(b));
		snprintf(why, size, "%s.%s is %s, expected %s%s", e->fref.layer->name,
			 e->fref.field->name, a, e->negate ? "anything but " : "", b);
		return eq != e->negate;
	default:
		return 1;
	}
}

static int
test_dm_check_group(struct test_dm_exec *x, const struct test_dm_send *snd,
		    const struct test_dm_expect *e, const struct test_dm_rx *rx, char *why,
		    size_t size)
{
	unsigned int k, q, got = 0, hit[TEST_DM_CASE_MAX_QUEUES] = { 0 };

	for (k = 0; k < snd->pkts.n; k++) {
		got += rx[k].received;
		if (rx[k].received && rx[k].queue < TEST_DM_CASE_MAX_QUEUES)
			hit[rx[k].queue]++;
	}
	if (e->type == TEST_DM_EXPECT_RECEIVED) {
		snprintf(why, size, "%u of %u packets received, expected %u", got, snd->pkts.n,
			 e->value);
		return got == e->value;
	}
	/* rss spread: all in the set (checked per packet too), every queue of it used. */
	for (k = 0; k < snd->pkts.n; k++)
		if (!test_dm_check_one(x, snd, e, k, &rx[k], why, size))
			return 0;
	for (q = 0; q < TEST_DM_CASE_MAX_QUEUES; q++) {
		if (e->qset[q] && hit[q] == 0) {
			snprintf(why, size, "queue %u of the set received none of the %u "
				 "packets", q, snd->pkts.n);
			return 0;
		}
	}
	return 1;
}

static void
test_dm_write_pcaps(struct test_dm_exec *x, const struct test_dm_step *s,
		    const struct test_dm_rx *rx)
{
	struct test_dm_pktlist recv = { 0 };
	char path[1024], errbuf[TEST_DM_PCAP_ERR];
	unsigned int k;

	snprintf(path, sizeof(path), "%s/%s-l%u-sent.pcap", x->opts->out_dir, x->c->name,
		 s->pos.line);
	if (test_dm_pcap_write_file(path, &s->send.pkts, errbuf) < 0)
		test_dm_note(x, "pcap unavailable: %s", errbuf);
	else
		test_dm_note(x, "%s", path);
	for (k = 0; k < s->send.pkts.n; k++)
		if (rx[k].received && test_dm_pktlist_add(&recv, rx[k].data, rx[k].len) < 0)
			break;
	snprintf(path, sizeof(path), "%s/%s-l%u-recv.pcap", x->opts->out_dir, x->c->name,
		 s->pos.line);
	if (test_dm_pcap_write_file(path, &recv, errbuf) < 0)
		test_dm_note(x, "pcap unavailable: %s", errbuf);
	else
		test_dm_note(x, "%s", path);
	test_dm_pktlist_free(&recv);
}

static int
test_dm_run_send(struct test_dm_exec *x, const struct test_dm_step *s)
{
	const struct test_dm_send *snd = &s->send;
	unsigned int failed = x->res->failed, i, k, bad, first;
	struct test_dm_rx *rx;
	char why[256];
	int ret;

	rx = calloc(snd->pkts.n, sizeof(*rx));
	if (rx == NULL)
		return -ENOMEM;
	x->port_used[snd->port] = 1;
	x->port_used[x->ops->peer(x->ctx, snd->port)] = 1;
	ret = x->ops->send(x->ctx, snd->port, &snd->pkts, rx);
	if (ret < 0) {
		test_dm_fail(x, &s->pos, "send failed: %s", strerror(-ret));
		goto free_rx;
	}
	x->res->packets += snd->pkts.n;
	for (k = 0, bad = 0; k < snd->pkts.n; k++) {
		x->res->received += rx[k].received;
		bad += rx[k].ambiguous;
	}
	/* A case must not depend on what rte_flow leaves undefined. */
	if (bad != 0)
		test_dm_fail(x, &s->pos, "%u packet(s) matched two rules of the same group and "
			     "priority: rte_flow does not say which one wins", bad);
	for (i = 0; i < snd->nb_exp; i++) {
		const struct test_dm_expect *e = &snd->exp[i];

		if (e->type == TEST_DM_EXPECT_RECEIVED || e->type == TEST_DM_EXPECT_RSS_SPREAD) {
			if (test_dm_check_group(x, snd, e, rx, why, sizeof(why)))
				test_dm_pass(x, &e->pos, "expectation");
			else
				test_dm_fail(x, &e->pos, "%s", why);
			continue;
		}
		bad = 0;
		first = 0;
		for (k = e->packet >= 0 ? (unsigned int)e->packet : 0; k < snd->pkts.n; k++) {
			char w[256];

			if (!test_dm_check_one(x, snd, e, k, &rx[k], w, sizeof(w))) {
				if (bad++ == 0) {
					first = k;
					snprintf(why, sizeof(why), "%s", w);
				}
			}
			if (e->packet >= 0)
				break;
		}
		if (bad == 0)
			test_dm_pass(x, &e->pos, "expectation");
		else
			test_dm_fail(x, &e->pos, "packet %u%s: %s", first,
				     bad > 1 ? " (and others)" : "", why);
	}
	/* One pair of pcaps per failing send line, not per run of a repeat block. */
	if (x->res->failed != failed && x->opts->out_dir != NULL &&
	    !x->pcap_done[s - x->c->steps]) {
		x->pcap_done[s - x->c->steps] = 1;
		test_dm_write_pcaps(x, s, rx);
	}
	ret = 0;
free_rx:
	for (k = 0; k < snd->pkts.n; k++)
		free(rx[k].data);
	free(rx);
	return ret;
}

int
test_dm_case_run(const struct test_dm_case *c, const struct test_dm_runner_ops *ops,
		 void *ctx, const struct test_dm_run_opts *opts, struct test_dm_case_result *res)
{
	uint32_t left[TEST_DM_CASE_MAX_DEPTH], iters[TEST_DM_CASE_MAX_DEPTH];
	struct test_dm_exec *x;
	unsigned int i, depth = 0;
	char msg[256] = "";
	int ret = 0;

	memset(res, 0, sizeof(*res));
	if (ops->case_begin(ctx, c, msg, sizeof(msg)) < 0) {
		snprintf(res->first_failure, sizeof(res->first_failure), "%s: cannot start: %s",
			 c->file, msg);
		return -EIO;
	}
	x = calloc(1, sizeof(*x));
	if (x != NULL)
		x->pcap_done = calloc(c->nb_steps + 1, 1);
	if (x == NULL || x->pcap_done == NULL) {
		free(x);
		ops->case_end(ctx);
		return -ENOMEM;
	}
	*x = (struct test_dm_exec){ .c = c, .ops = ops, .ctx = ctx, .opts = opts, .res = res,
				    .pcap_done = x->pcap_done };
	for (i = 0; i < c->nb_steps && ret == 0 && res->skipped[0] == '\0'; i++) {
		const struct test_dm_step *s = &c->steps[i];

		switch (s->type) {
		case TEST_DM_STEP_REPEAT:
			left[depth] = s->repeat;
			iters[depth++] = x->iter;
			x->iter = 1;
			break;
		case TEST_DM_STEP_END:
			if (--left[depth - 1] != 0) {
				x->iter++;
				i = s->block;
			} else {
				x->iter = iters[--depth];
			}
			break;
		case TEST_DM_STEP_FLOW:
			ret = test_dm_run_flow(x, s);
			break;
		case TEST_DM_STEP_REJECT:
			test_dm_run_reject(x, s);
			break;
		case TEST_DM_STEP_COUNT:
			test_dm_run_count(x, s);
			break;
		case TEST_DM_STEP_REQUIRE:
			test_dm_run_require(x, s);
			break;
		case TEST_DM_STEP_SEND:
			ret = test_dm_run_send(x, s);
			break;
		}
	}
	/* Leave no rule, template or queued result behind for the next case. */
	test_dm_queues_drain(x);
	for (i = 0; i <= UINT16_MAX; i++)
		if (x->port_used[i])
			test_dm_run_flush(x, (uint16_t)i, NULL);
	test_dm_tobjs_destroy(x);
	ops->case_end(ctx);
	free(x->pcap_done);
	free(x->qops);
	free(x->tobjs);
	free(x->ids);
	free(x);
	return ret;
}
