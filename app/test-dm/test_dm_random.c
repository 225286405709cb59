/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The random mode's driver (test_dm_random.h): install, send, compare,
 * report. The reference sees the same rules in the same order and every
 * packet the runner was given, so counters compare too.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "test_dm_cmp.h"
#include "test_dm_gen.h"
#include "test_dm_pcap.h"
#include "test_dm_random.h"
#include "test_dm_ref.h"
#include "test_dm_topo.h"
#include "test_dm_vec.h"

#define TEST_DM_RANDOM_TEXT 1024
/*
 * --templates: how long a push's results may take, flow queues per port,
 * their size, rules per push.
 */
#define TEST_DM_RANDOM_PULL_MS 2000
#define TEST_DM_RANDOM_QUEUES 2u
#define TEST_DM_RANDOM_QUEUE_SIZE 64u
#define TEST_DM_RANDOM_BATCH 16u
/* --templates: a shared table's shape key at most, and the rules it is sized for. */
#define TEST_DM_RANDOM_KEY 512u
#define TEST_DM_RANDOM_SHARED 4u

/*
 * A rule's templates and table (--templates), kept while the rule is: its
 * own, or (a rule whose actions the rule gives) those of an earlier rule
 * of the same shape, attributes and action types, whose table it shares.
 */
struct test_dm_random_tmpl {
	struct test_dm_flow_cmd cmd[3];	/**< Pattern template, actions template, table. */
	void *handle[3];		/**< Made by this rule (NULL: not). */
	void *table;			/**< Where the rule is (NULL: not through a table). */
	unsigned int owner;		/**< The rule that made the table (the reproducer's ids). */
	uint32_t queue;			/**< The flow queue of its creation. */
	uint32_t destroy_queue;		/**< --churn: that of its destruction. */
	size_t key_len;			/**< Its shape's key (0: the table is not shared). */
	uint8_t key[TEST_DM_RANDOM_KEY];
	struct rte_flow_action *masks;	/**< The actions template's (after items). */
	struct rte_flow_item items[];	/**< The pattern template's. */
};

/* One generated rule and what became of it. */
struct test_dm_random_rule {
	char *text;
	struct test_dm_flow_cmd *cmd;
	void *handle;			/**< On the runner (NULL: not installed). */
	struct test_dm_random_tmpl *tmpl;	/**< --templates: its templates and table. */
	struct test_dm_ref_rule *ref;
	bool destroyed;			/**< By --churn, on both. */
	char refused[256];		/**< Why the runner refused it ("" if it did not). */
};

/* A rule of the reference and its number among the generated rules. */
struct test_dm_random_ref {
	const struct test_dm_ref_rule *ref;
	unsigned int index;
};

/* A packet whose fate differed, kept for the reproducer. */
struct test_dm_random_miss {
	uint64_t index;
	uint16_t port;			/**< Where it was sent. */
	uint8_t *data;
	uint32_t len;
	uint8_t *got_data;		/**< What arrived (NULL: nothing). */
	uint32_t got_len;
	struct test_dm_fate *fate;
	char got[160];
	char why[512];
};

struct test_dm_random_state {
	const struct test_dm_runner_ops *ops;
	void *ctx;
	const struct test_dm_random_cfg *cfg;
	struct test_dm_random_result *res;
	uint16_t port;			/**< The sending port (--transfer: the PF). */
	uint16_t peer;
	struct test_dm_gen *gen;
	struct test_dm_ref *ref;
	struct test_dm_flow_ctx fctx;
	struct test_dm_random_rule *rules;
	unsigned int nb_rules;
	unsigned int cap_rules;
	struct test_dm_random_miss *miss;
	unsigned int nb_miss;
	unsigned int cap_miss;
	struct test_dm_fate fate;
	unsigned int logged;		/**< Problem lines printed. */
	/**
	 * Installed rules of the reference sorted by address (with their rule
	 * number, the line of the reproducer), and whether a packet met them.
	 */
	struct test_dm_random_ref *sorted;
	uint8_t *hit;
	unsigned int nb_sorted;
	/* --templates: the ports' flow queues are configured; creations waiting per queue. */
	uint8_t configured[TEST_DM_REF_MAX_PORTS];
	unsigned int waiting[TEST_DM_REF_MAX_PORTS][TEST_DM_RANDOM_QUEUES];
	unsigned int nb_tmpl;		/**< Rules given to the template API so far. */
	bool churning;			/**< The results pulled are destructions'. */
};

static void
test_dm_random_first(struct test_dm_random_state *st, const char *fmt, ...)
	__rte_format_printf(2, 3);

static void
test_dm_random_first(struct test_dm_random_state *st, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (st->res->first[0] == '\0')
		snprintf(st->res->first, sizeof(st->res->first), "%s", line);
	if (st->cfg->log == NULL)
		return;
	if (st->cfg->verbose || st->logged < st->cfg->max_report) {
		test_dm_progress_clear(st->cfg->progress);
		fprintf(st->cfg->log, "  MISMATCH %s\n", line);
	} else if (st->logged == st->cfg->max_report) {
		fprintf(st->cfg->log, "  (more mismatches not shown)\n");
	}
	st->logged++;
}

/* ---- rules ---- */

static int
test_dm_random_parse(struct test_dm_random_state *st, const char *text,
		     struct test_dm_flow_cmd **cmd)
{
	struct test_dm_err err;
	int ret = test_dm_flow_parse_str(&st->fctx, text, "random", 1, cmd, &err);

	if (ret < 0)
		snprintf(st->res->first, sizeof(st->res->first), "generator wrote a command the "
			 "parser refuses: %s: %s", err.msg, text);
	return ret;
}

static int
test_dm_random_preamble(struct test_dm_random_state *st)
{
	struct test_dm_flow_cmd *cmd;
	unsigned int i;
	int ret;

	for (i = 0; test_dm_gen_preamble[i] != NULL; i++) {
		ret = test_dm_random_parse(st, test_dm_gen_preamble[i], &cmd);
		if (ret < 0)
			return ret;
		test_dm_flow_cmd_free(cmd);
	}
	return 0;
}

static uint64_t
test_dm_random_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/*
 * The rule's pattern as a pattern template: each item's mask (its default
 * one under a spec without a mask, none without a spec), no value. False
 * for a range, which a template cannot have, and for what a port sends
 * (PORT_REPRESENTOR), which net_mlx5dm's transfer templates do not take.
 */
static bool
test_dm_random_tmpl_pattern(const struct test_dm_flow_cmd *r, struct rte_flow_item *items)
{
	unsigned int i;

	for (i = 0; i < r->nb_items; i++) {
		const struct rte_flow_item *it = &r->pattern[i];

		if (it->last != NULL || it->type == RTE_FLOW_ITEM_TYPE_PORT_REPRESENTOR)
			return false;
		items[i] = (struct rte_flow_item){
			.type = it->type,
			.mask = it->spec == NULL ? NULL : it->mask != NULL ? it->mask :
				test_dm_flow_item_default_mask(it->type),
		};
	}
	return true;
}

/*
 * A representor's NIC rule: its template API is its manager's (whose
 * tables' rules are the manager's), so it is made with rte_flow_create().
 */
static bool
test_dm_random_tmpl_rep(const struct test_dm_flow_cmd *r)
{
	int role = test_dm_topo_role_of(r->port);

	return !r->attr.transfer && (role == TEST_DM_TOPO_REP0 || role == TEST_DM_TOPO_REP1);
}

/* The port's flow queues, before its first rule (configuring stops the port). */
static int
test_dm_random_tmpl_configure(struct test_dm_random_state *st, uint16_t port,
			      struct rte_flow_error *e)
{
	const struct test_dm_flow_cmd c = {
		.type = TEST_DM_FLOW_CONFIGURE, .port = port, .nb_queues = TEST_DM_RANDOM_QUEUES,
		.queue_size = TEST_DM_RANDOM_QUEUE_SIZE, .nb_counters = st->cfg->rules,
	};
	int ret;

	if (st->configured[port])
		return 0;
	ret = st->ops->flow_configure(st->ctx, &c, e);
	st->configured[port] = ret == 0;
	return ret;
}

/*
 * Push flow queue q of the port and pull until every creation waiting on
 * it has its result. A creation that failed there leaves no rule: it is
 * the runner's refusal, taken out of the reference too. 0, or a negative
 * errno (no result in time, or the pull failed) with the reason in
 * res->first.
 */
static int
test_dm_random_tmpl_settle(struct test_dm_random_state *st, uint16_t port, uint32_t q)
{
	struct rte_flow_op_result res[TEST_DM_RANDOM_BATCH];
	struct rte_flow_error e = { 0 };
	struct test_dm_random_rule *rr;
	uint64_t deadline;
	int i, n;

	if (st->waiting[port][q] == 0)
		return 0;
	n = st->ops->push(st->ctx, port, q, &e);
	deadline = test_dm_random_now_ms() + TEST_DM_RANDOM_PULL_MS;
	while (n >= 0 && st->waiting[port][q] != 0 && test_dm_random_now_ms() < deadline) {
		n = st->ops->pull(st->ctx, port, q, res, RTE_DIM(res), &e);
		for (i = 0; i < n; i++) {
			st->waiting[port][q]--;
			if (res[i].status == RTE_FLOW_OP_SUCCESS)
				continue;
			/* The user data is the rule's number + 1 (the vector moves). */
			rr = &st->rules[(uintptr_t)res[i].user_data - 1];
			if (st->churning) {
				st->res->destroy_failures++;
				test_dm_random_first(st, "flow queue %u: the destruction of %s "
						     "failed", q, rr->text);
				continue;
			}
			rr->handle = NULL;
			(void)test_dm_ref_rule_del(st->ref, rr->ref);
			rr->ref = NULL;
			st->res->rules--;
			st->res->via_templates--;
			st->res->runner_refused++;
			snprintf(rr->refused, sizeof(rr->refused), "%s: flow queue %u: the "
				 "creation's result is an error", st->ops->name, q);
			test_dm_random_first(st, "rule refused by %s, accepted by the reference: "
					     "%s (%s)", st->ops->name, rr->text, rr->refused);
		}
	}
	if (n < 0 || st->waiting[port][q] != 0) {
		snprintf(st->res->first, sizeof(st->res->first), "port %u flow queue %u: %s",
			 port, q, n >= 0 ? "no result of a push in time" :
			 e.message != NULL ? e.message : "the pull failed");
		return n < 0 ? n : -ETIMEDOUT;
	}
	return 0;
}

/* Every flow queue settled (the end of the install). */
static int
test_dm_random_tmpl_settle_all(struct test_dm_random_state *st)
{
	unsigned int p, q;
	int ret = 0;

	for (p = 0; ret == 0 && p < TEST_DM_REF_MAX_PORTS; p++)
		for (q = 0; ret == 0 && q < TEST_DM_RANDOM_QUEUES; q++)
			ret = test_dm_random_tmpl_settle(st, (uint16_t)p, q);
	return ret;
}

/*
 * The key of a rule whose table rules of its shape share: its port and
 * attributes, its items' types and template masks, its actions' types.
 * 0 when it does not fit.
 */
static size_t
test_dm_random_tmpl_key(const struct test_dm_flow_cmd *r, const struct test_dm_random_tmpl *t,
			uint8_t *key)
{
	size_t len = 0, n;
	unsigned int i;

#define TEST_DM_RKEY(p, size) do { \
		if (len + (size) > TEST_DM_RANDOM_KEY) \
			return 0; \
		memcpy(key + len, (p), (size)); \
		len += (size); \
	} while (0)
	memset(key, 0, TEST_DM_RANDOM_KEY);
	TEST_DM_RKEY(&r->port, sizeof(r->port));
	TEST_DM_RKEY(&r->attr, sizeof(r->attr));
	for (i = 0; i < r->nb_items; i++) {
		n = t->items[i].mask != NULL ? test_dm_flow_item_size(t->items[i].type) : 0;
		TEST_DM_RKEY(&t->items[i].type, sizeof(t->items[i].type));
		TEST_DM_RKEY(&n, sizeof(n));
		if (n != 0)
			TEST_DM_RKEY(t->items[i].mask, n);
	}
	for (i = 0; i < r->nb_actions; i++)
		TEST_DM_RKEY(&r->actions[i].type, sizeof(r->actions[i].type));
#undef TEST_DM_RKEY
	return len;
}

/* The templates of an earlier rule with this key, NULL if none. */
static const struct test_dm_random_tmpl *
test_dm_random_tmpl_find(const struct test_dm_random_state *st, const struct test_dm_random_tmpl *t)
{
	const struct test_dm_random_tmpl *o;
	unsigned int i;

	for (i = 0; i < st->nb_rules; i++) {
		o = st->rules[i].tmpl;
		if (o != NULL && o != t && o->table != NULL && o->key_len == t->key_len &&
		    memcmp(o->key, t->key, t->key_len) == 0)
			return o;
	}
	return NULL;
}

/*
 * rr's rule through the template API (--templates): a pattern template of
 * its items' masks, an actions template of its actions (every other rule's
 * masked by themselves, fixed; the others' unmasked, given by the rule), a
 * table at its group, priority and direction (of one rule; of a few, which
 * the later rules of the same shape and action types whose actions are
 * theirs share, so it grows), then a postponed create on one of the port's
 * flow queues (in turn), pushed and pulled every TEST_DM_RANDOM_BATCH
 * creations of the queue. 0, 1 when the rule cannot be a template's
 * (rte_flow_create() makes it), or a negative errno with e set.
 */
static int
test_dm_random_tmpl_create(struct test_dm_random_state *st, struct test_dm_random_rule *rr,
			   struct rte_flow_error *e)
{
	const struct test_dm_flow_cmd *r = rr->cmd;
	struct test_dm_flow_cmd q = *r;
	struct test_dm_random_tmpl *t;
	unsigned int i;
	int ret;

	t = calloc(1, sizeof(*t) + r->nb_items * sizeof(t->items[0]) +
		   r->nb_actions * sizeof(t->masks[0]));
	if (t == NULL)
		return rte_flow_error_set(e, ENOMEM, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
					  "out of memory");
	rr->tmpl = t;
	if (!test_dm_random_tmpl_pattern(r, t->items) || test_dm_random_tmpl_rep(r))
		return 1;
	t->masks = (struct rte_flow_action *)(void *)(t->items + r->nb_items);
	for (i = 0; i < r->nb_actions; i++)
		t->masks[i] = (struct rte_flow_action){ .type = r->actions[i].type,
			.conf = (st->nb_rules & 1) ? NULL : r->actions[i].conf };
	t->owner = (unsigned int)(rr - st->rules);
	if (st->nb_rules & 1) {
		const struct test_dm_random_tmpl *o;

		t->key_len = test_dm_random_tmpl_key(r, t, t->key);
		o = t->key_len != 0 ? test_dm_random_tmpl_find(st, t) : NULL;
		if (o != NULL) {
			t->table = o->table;
			t->owner = o->owner;
		}
	}
	t->cmd[0] = (struct test_dm_flow_cmd){ .type = TEST_DM_FLOW_PATTERN_TEMPLATE,
		.port = r->port, .attr = r->attr, .pattern = t->items, .nb_items = r->nb_items };
	t->cmd[1] = (struct test_dm_flow_cmd){ .type = TEST_DM_FLOW_ACTIONS_TEMPLATE,
		.port = r->port, .attr = r->attr, .actions = r->actions,
		.nb_actions = r->nb_actions, .masks = t->masks };
	t->cmd[2] = (struct test_dm_flow_cmd){ .type = TEST_DM_FLOW_TABLE, .port = r->port,
		.attr = r->attr, .rules_number = t->key_len != 0 ? TEST_DM_RANDOM_SHARED : 1,
		.nb_pattern_templates = 1, .nb_actions_templates = 1 };
	ret = test_dm_random_tmpl_configure(st, r->port, e);
	/* The table's references: its pattern template, then its actions template. */
	for (i = 0; ret == 0 && t->table == NULL && i < RTE_DIM(t->cmd); i++)
		ret = st->ops->template_create(st->ctx, &t->cmd[i], t->handle, &t->handle[i], e);
	if (ret < 0)
		return ret;
	if (t->table == NULL) {
		t->table = t->handle[2];
		st->res->tables++;
	}
	q.type = TEST_DM_FLOW_QUEUE_CREATE;
	q.queue = st->nb_tmpl++ % TEST_DM_RANDOM_QUEUES;
	t->queue = q.queue;
	q.postpone = 1;
	q.pattern_index = 0;
	q.actions_index = 0;
	ret = st->ops->async_create(st->ctx, &q, t->table,
				    (void *)(uintptr_t)(rr - st->rules + 1), &rr->handle, e);
	if (ret < 0)
		return ret;
	st->res->via_templates++;
	st->waiting[r->port][q.queue]++;
	return 0;
}

/* rr's rule on the runner: through the template API with --templates, where it can be. */
static int
test_dm_random_create(struct test_dm_random_state *st, struct test_dm_random_rule *rr,
		      struct rte_flow_error *e)
{
	int ret = st->cfg->templates ? test_dm_random_tmpl_create(st, rr, e) : 1;

	return ret <= 0 ? ret : st->ops->flow_create(st->ctx, rr->cmd, &rr->handle, e);
}

/* Generate, validate on the reference, install on both. 1: installed, 0: not, <0: fault. */
static int
test_dm_random_add_rule(struct test_dm_random_state *st)
{
	struct rte_flow_error e = { 0 };
	struct test_dm_random_rule *rr;
	char text[TEST_DM_RANDOM_TEXT];
	int ret;

	if (test_dm_gen_rule(st->gen, text, sizeof(text)) < 0) {
		snprintf(st->res->first, sizeof(st->res->first), "generated rule too long");
		return -E2BIG;
	}
	if (test_dm_vec_grow((void **)&st->rules, &st->cap_rules, st->nb_rules,
			     sizeof(*st->rules)) < 0)
		return -ENOMEM;
	rr = &st->rules[st->nb_rules];
	memset(rr, 0, sizeof(*rr));
	ret = test_dm_random_parse(st, text, &rr->cmd);
	if (ret < 0)
		return ret;
	rr->text = strdup(text);
	if (rr->text == NULL) {
		test_dm_flow_cmd_free(rr->cmd);
		return -ENOMEM;
	}
	st->nb_rules++;
	/* The generator stays within the supported set; what the reference refuses is skipped. */
	if (test_dm_ref_validate(st->ref, rr->cmd->port, &rr->cmd->attr, rr->cmd->pattern,
				 rr->cmd->actions, &e) < 0) {
		st->res->gen_refused++;
		snprintf(rr->refused, sizeof(rr->refused), "reference: %s: %s",
			 test_dm_flow_error_type_name(e.type), e.message != NULL ? e.message : "");
		return 0;
	}
	if (test_dm_random_create(st, rr, &e) < 0) {
		st->res->runner_refused++;
		snprintf(rr->refused, sizeof(rr->refused), "%s: %s: %s", st->ops->name,
			 test_dm_flow_error_type_name(e.type), e.message != NULL ? e.message : "");
		test_dm_random_first(st, "rule refused by %s, accepted by the reference: %s (%s)",
				     st->ops->name, text, rr->refused);
		return 0;
	}
	rr->ref = test_dm_ref_rule_add(st->ref, rr->cmd->port, &rr->cmd->attr, rr->cmd->pattern,
				       rr->cmd->actions, &e);
	if (rr->ref == NULL)
		return -ENOMEM;
	return 1;
}

/* A full batch of creations on a flow queue: pushed and pulled. */
static int
test_dm_random_tmpl_batch(struct test_dm_random_state *st)
{
	unsigned int p, q;

	for (p = 0; p < TEST_DM_REF_MAX_PORTS; p++)
		for (q = 0; q < TEST_DM_RANDOM_QUEUES; q++)
			if (st->waiting[p][q] >= TEST_DM_RANDOM_BATCH)
				return test_dm_random_tmpl_settle(st, (uint16_t)p, q);
	return 0;
}

/*
 * --templates: the flow queues of every port the rules go to, before the
 * first rule: configuring stops a port, and a stopped E-Switch manager
 * loses the rules it has. 0, or the failure with the reason in res->first.
 */
static int
test_dm_random_tmpl_configure_ports(struct test_dm_random_state *st)
{
	const enum test_dm_topo_role roles[] = {
		TEST_DM_TOPO_PF, TEST_DM_TOPO_VF0, TEST_DM_TOPO_VF1,
	};
	uint16_t ports[RTE_DIM(roles)] = { st->port, st->peer };
	unsigned int i, n = 2;
	struct rte_flow_error e;
	int ret;

	if (!st->cfg->templates)
		return 0;
	for (i = 0; st->cfg->transfer && i < RTE_DIM(roles); i++)
		ports[i] = test_dm_topo_port(roles[i]);
	n = st->cfg->transfer ? RTE_DIM(roles) : n;
	for (i = 0; i < n; i++) {
		memset(&e, 0, sizeof(e));
		ret = test_dm_random_tmpl_configure(st, ports[i], &e);
		if (ret < 0) {
			snprintf(st->res->first, sizeof(st->res->first), "--templates: "
				 "rte_flow_configure() of port %u: %s", ports[i],
				 e.message != NULL ? e.message : strerror(-ret));
			return ret;
		}
	}
	return 0;
}

static int
test_dm_random_install(struct test_dm_random_state *st)
{
	unsigned int tries = 0;
	int ret;

	ret = test_dm_random_tmpl_configure_ports(st);
	if (ret < 0)
		return ret;
	/* A rule the runner refuses takes its place: the run ends after "rules" tries on it. */
	while (st->res->rules + st->res->runner_refused < st->cfg->rules &&
	       tries++ < 10 * st->cfg->rules) {
		ret = test_dm_random_add_rule(st);
		if (ret < 0)
			return ret;
		st->res->rules += (unsigned int)ret;
		ret = test_dm_random_tmpl_batch(st);
		if (ret < 0)
			return ret;
		test_dm_progress_show(st->cfg->progress, 0, "random: %u/%u rules",
				      st->res->rules, st->cfg->rules);
	}
	return test_dm_random_tmpl_settle_all(st);
}

/* ---- packets ---- */

static int
test_dm_random_build(struct test_dm_random_state *st, uint32_t index, struct test_dm_pktlist *l)
{
	char text[TEST_DM_RANDOM_TEXT];
	struct test_dm_pkt_tmpl *t;
	uint8_t buf[TEST_DM_PKT_MAX];
	struct test_dm_err err;
	int n;

	if (test_dm_gen_packet(st->gen, index, text, sizeof(text)) < 0 ||
	    test_dm_pkt_parse_str(text, "random", 1, &t, &err) < 0) {
		snprintf(st->res->first, sizeof(st->res->first), "generator wrote a bad packet: %s",
			 text);
		return -EINVAL;
	}
	n = test_dm_pkt_build(t, 0, buf, sizeof(buf));
	test_dm_pkt_tmpl_free(t);
	return n < 0 ? n : test_dm_pktlist_add(l, buf, (size_t)n);
}

static void
test_dm_random_keep(struct test_dm_random_state *st, uint64_t index, uint16_t port,
		    const struct test_dm_bytes *pkt, const struct test_dm_rx *rx, const char *why)
{
	struct test_dm_random_miss *m;

	if (st->nb_miss >= st->cfg->max_report ||
	    test_dm_vec_grow((void **)&st->miss, &st->cap_miss, st->nb_miss, sizeof(*m)) < 0)
		return;
	m = &st->miss[st->nb_miss];
	memset(m, 0, sizeof(*m));
	m->data = malloc(pkt->len);
	m->fate = malloc(sizeof(*m->fate));
	if (m->data == NULL || m->fate == NULL) {
		free(m->data);
		free(m->fate);
		return;
	}
	memcpy(m->data, pkt->data, pkt->len);
	m->len = pkt->len;
	if (rx->received && rx->len != 0) {
		m->got_data = malloc(rx->len);
		if (m->got_data != NULL) {
			memcpy(m->got_data, rx->data, rx->len);
			m->got_len = rx->len;
		}
	}
	*m->fate = st->fate;
	m->index = index;
	m->port = port;
	test_dm_rx_format(rx, m->got, sizeof(m->got));
	snprintf(m->why, sizeof(m->why), "%s", why);
	st->nb_miss++;
}

static int
test_dm_random_ptr_cmp(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)((const struct test_dm_random_ref *)a)->ref;
	uintptr_t y = (uintptr_t)((const struct test_dm_random_ref *)b)->ref;

	return x < y ? -1 : x > y;
}

static const struct test_dm_random_ref *
test_dm_random_find(const struct test_dm_random_state *st, const struct test_dm_ref_rule *rule)
{
	struct test_dm_random_ref key = { .ref = rule };

	return bsearch(&key, st->sorted, st->nb_sorted, sizeof(*st->sorted),
		       test_dm_random_ptr_cmp);
}

/* "rule 12 -> rule 40": the rules the reference walked through (numbers of the reproducer). */
static void
test_dm_random_path(const struct test_dm_random_state *st, char *buf, size_t size)
{
	const struct test_dm_random_ref *r;
	size_t n = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < st->fate.nb_chain && n + 16 < size; i++) {
		r = test_dm_random_find(st, st->fate.chain[i]);
		n += (size_t)snprintf(buf + n, size - n, "%srule %d", i == 0 ? "" : " -> ",
				      r != NULL ? (int)r->index : -1);
	}
	if (st->fate.nb_chain == 0)
		snprintf(buf, size, "no rule");
}

static int
test_dm_random_coverage_init(struct test_dm_random_state *st)
{
	unsigned int i;

	st->sorted = calloc(st->nb_rules + 1, sizeof(*st->sorted));
	st->hit = calloc(st->nb_rules + 1, 1);
	if (st->sorted == NULL || st->hit == NULL)
		return -ENOMEM;
	for (i = 0; i < st->nb_rules; i++)
		if (st->rules[i].ref != NULL)
			st->sorted[st->nb_sorted++] = (struct test_dm_random_ref){
				st->rules[i].ref, i };
	qsort(st->sorted, st->nb_sorted, sizeof(*st->sorted), test_dm_random_ptr_cmp);
	return 0;
}

/* What the reference did with a packet: its fate and the rules it met. */
static void
test_dm_random_coverage(struct test_dm_random_state *st)
{
	const struct test_dm_fate *f = &st->fate;
	const struct test_dm_random_ref *p;
	unsigned int i;

	if (f->kind == TEST_DM_FATE_DROP)
		st->res->dropped++;
	else if (f->kind == TEST_DM_FATE_QUEUE)
		st->res->queued++;
	else if (f->default_rss && f->switched)
		st->res->switched++;
	else if (f->default_rss)
		st->res->missed++;
	else
		st->res->spread++;
	for (i = 0; i < f->nb_chain; i++) {
		p = test_dm_random_find(st, f->chain[i]);
		if (p != NULL && !st->hit[p - st->sorted]) {
			st->hit[p - st->sorted] = 1;
			st->res->rules_hit++;
		}
	}
}

static int
test_dm_random_compare(struct test_dm_random_state *st, uint64_t first, uint16_t port,
		       const struct test_dm_pktlist *l, const struct test_dm_rx *rx)
{
	char why[256], path[128], line[400];
	unsigned int k;
	int ret;

	for (k = 0; k < l->n; k++) {
		ret = test_dm_ref_send(st->ref, port, l->v[k].data, l->v[k].len, &st->fate);
		if (ret < 0) {
			snprintf(st->res->first, sizeof(st->res->first), "reference cannot send "
				 "packet %" PRIu64 ": %s", first + k, strerror(-ret));
			return ret;
		}
		st->res->received += rx[k].received;
		test_dm_random_coverage(st);
		if (test_dm_fate_cmp(&st->fate, &rx[k], why, sizeof(why)) == 0)
			continue;
		test_dm_random_path(st, path, sizeof(path));
		snprintf(line, sizeof(line), "%s (reference: %s)", why, path);
		test_dm_random_first(st, "packet %" PRIu64 ": %s", first + k, line);
		st->res->mismatches++;
		test_dm_random_keep(st, first + k, port, &l->v[k], &rx[k], line);
	}
	return 0;
}

/*
 * The port burst k is sent from: the sending port, or with the switch
 * (--transfer) the wire (sent by the PF), a VF and a representor in turn.
 */
static uint16_t
test_dm_random_source(const struct test_dm_random_state *st, uint64_t k)
{
	static const enum test_dm_topo_role from[] = {
		TEST_DM_TOPO_PF, TEST_DM_TOPO_VF0, TEST_DM_TOPO_PF, TEST_DM_TOPO_VF1,
		TEST_DM_TOPO_REP0, TEST_DM_TOPO_PF, TEST_DM_TOPO_VF0, TEST_DM_TOPO_REP1,
	};

	return st->cfg->transfer ? test_dm_topo_port(from[k % RTE_DIM(from)]) : st->port;
}

static int
test_dm_random_batch(struct test_dm_random_state *st, uint64_t first, unsigned int n)
{
	int (*send)(void *ctx, uint16_t port, const struct test_dm_pktlist *pkts,
		    struct test_dm_rx *rx) = st->ops->send_tagged != NULL ?
		st->ops->send_tagged : st->ops->send;
	uint16_t port = test_dm_random_source(st, first / st->cfg->batch);
	struct test_dm_pktlist l = { 0 };
	struct test_dm_rx *rx;
	unsigned int k;
	int ret = 0;

	rx = calloc(n, sizeof(*rx));
	if (rx == NULL)
		return -ENOMEM;
	/* Tags number packets across batches: a late one is not taken for another. */
	for (k = 0; k < n && ret == 0; k++)
		ret = test_dm_random_build(st, (uint32_t)(first + k), &l);
	if (ret == 0) {
		ret = send(st->ctx, port, &l, rx);
		if (ret < 0)
			snprintf(st->res->first, sizeof(st->res->first), "%s could not send: %s",
				 st->ops->name, strerror(-ret));
	}
	if (ret == 0)
		ret = test_dm_random_compare(st, first, port, &l, rx);
	for (k = 0; k < n; k++)
		free(rx[k].data);
	free(rx);
	test_dm_pktlist_free(&l);
	return ret;
}

/* Packets first .. first + packets - 1 sent and compared. */
static int
test_dm_random_traffic(struct test_dm_random_state *st, uint64_t first)
{
	uint64_t sent = 0;
	unsigned int n;
	int ret;

	while (sent < st->cfg->packets) {
		n = (unsigned int)RTE_MIN((uint64_t)st->cfg->batch, st->cfg->packets - sent);
		ret = test_dm_random_batch(st, first + sent, n);
		if (ret < 0)
			return ret;
		sent += n;
		st->res->packets = first + sent;
		test_dm_progress_show(st->cfg->progress, 0, "random: %" PRIu64 "/%" PRIu64
				      " packets, %" PRIu64 " mismatches", sent, st->cfg->packets,
				      st->res->mismatches);
	}
	return 0;
}

static void
test_dm_random_counters(struct test_dm_random_state *st)
{
	struct rte_flow_query_count a, b;
	struct rte_flow_error e;
	unsigned int i;

	for (i = 0; i < st->nb_rules; i++) {
		const struct test_dm_random_rule *rr = &st->rules[i];

		memset(&a, 0, sizeof(a));
		memset(&b, 0, sizeof(b));
		if (rr->ref == NULL || test_dm_ref_query(st->ref, rr->ref, &a, &e) < 0)
			continue;
		if (st->ops->flow_query_count(st->ctx, rr->cmd->port, rr->handle, &b, &e) < 0) {
			st->res->count_mismatches++;
			test_dm_random_first(st, "counter of rule %u cannot be read: %s: %s", i,
					     test_dm_flow_error_type_name(e.type),
					     e.message != NULL ? e.message : "");
		} else if (a.hits != b.hits || a.bytes != b.bytes) {
			st->res->count_mismatches++;
			test_dm_random_first(st, "counter of rule %u: %" PRIu64 " packets %"
					     PRIu64 " bytes, the reference counted %" PRIu64
					     " and %" PRIu64 ": %s", i, b.hits, b.bytes, a.hits,
					     a.bytes, rr->text);
		}
	}
}

/*
 * --churn: every other installed rule destroyed, on the runner (a rule a
 * template table holds through a flow queue, postponed, settled in
 * batches) and on the reference.
 */
static int
test_dm_random_churn(struct test_dm_random_state *st)
{
	struct rte_flow_error e;
	struct test_dm_random_rule *rr;
	unsigned int i, k = 0;
	uint32_t q;
	int ret;

	st->churning = true;
	for (i = 0; i < st->nb_rules; i++) {
		rr = &st->rules[i];
		if (rr->ref == NULL || k++ % 2 == 0)
			continue;
		memset(&e, 0, sizeof(e));
		q = k / 2 % TEST_DM_RANDOM_QUEUES;
		if (rr->tmpl != NULL && rr->tmpl->table != NULL) {
			rr->tmpl->destroy_queue = q;
			ret = st->ops->async_destroy(st->ctx, rr->cmd->port, q, 1, rr->handle,
						     (void *)(uintptr_t)(i + 1), &e);
		} else {
			ret = st->ops->flow_destroy(st->ctx, rr->cmd->port, rr->handle, &e);
		}
		if (ret < 0) {
			/* Kept: the teardown destroys it again. */
			st->res->destroy_failures++;
			test_dm_random_first(st, "destruction refused by %s: %s: %s: %s",
					     st->ops->name,
					     test_dm_flow_error_type_name(e.type),
					     e.message != NULL ? e.message : "", rr->text);
			continue;
		}
		(void)test_dm_ref_rule_del(st->ref, rr->ref);
		rr->ref = NULL;
		rr->handle = NULL;
		rr->destroyed = true;
		st->res->destroyed++;
		if (rr->tmpl != NULL && rr->tmpl->table != NULL &&
		    ++st->waiting[rr->cmd->port][q] >= TEST_DM_RANDOM_BATCH) {
			ret = test_dm_random_tmpl_settle(st, rr->cmd->port, q);
			if (ret < 0)
				return ret;
		}
	}
	return test_dm_random_tmpl_settle_all(st);
}

/* ---- the reproducer ---- */

static void
test_dm_random_hex(FILE *f, const uint8_t *p, uint32_t len)
{
	uint32_t i;

	for (i = 0; i < len; i++)
		fprintf(f, "%02x", p[i]);
}

/* A port as the reproducer names it: by its role in the switch (--transfer), else its id. */
static const char *
test_dm_random_port(const struct test_dm_random_state *st, uint16_t port, char *buf, size_t size)
{
	int role = test_dm_topo_role_of(port);

	if (st->cfg->transfer && role >= 0)
		return test_dm_topo_name((enum test_dm_topo_role)role);
	snprintf(buf, size, "%u", port);
	return buf;
}

static void
test_dm_random_expect(const struct test_dm_random_state *st, FILE *f,
		      const struct test_dm_fate *fate)
{
	unsigned int i;
	char name[8];

	if (fate->kind == TEST_DM_FATE_DROP) {
		fprintf(f, "expect drop\n");
		return;
	}
	if (fate->kind == TEST_DM_FATE_QUEUE) {
		fprintf(f, "expect port %s queue %u\n",
			test_dm_random_port(st, fate->port, name, sizeof(name)), fate->queue);
	} else {
		fprintf(f, "expect rss queues ");
		for (i = 0; i < fate->nb_queues && i < st->cfg->nb_queues; i++)
			fprintf(f, "%s%u", i == 0 ? "" : ",", fate->queues[i]);
		/* The switch delivers to any of its ports. */
		if (st->cfg->transfer)
			fprintf(f, " port %s",
				test_dm_random_port(st, fate->port, name, sizeof(name)));
		fprintf(f, "\n");
	}
	if (fate->fdir_id)
		fprintf(f, "expect mark %u\n", fate->mark);
	else
		fprintf(f, "expect no mark\nexpect %sflag\n", fate->fdir ? "" : "no ");
	fprintf(f, "expect bytes hex ");
	test_dm_random_hex(f, fate->data, fate->len);
	fprintf(f, "\n");
}

/* <reproducer>-sent.pcap / -recv.pcap: the mismatching packets, and what arrived of them. */
static void
test_dm_random_pcaps(struct test_dm_random_state *st, const char *base)
{
	struct test_dm_pktlist sent = { 0 }, recv = { 0 };
	char path[600], errbuf[TEST_DM_PCAP_ERR];
	size_t n = strlen(base) - strlen(".case"), len;
	unsigned int i, k;
	int ret = 0;

	for (i = 0; i < st->nb_miss && ret == 0; i++) {
		ret = test_dm_pktlist_add(&sent, st->miss[i].data, st->miss[i].len);
		if (ret == 0 && st->miss[i].got_data != NULL)
			ret = test_dm_pktlist_add(&recv, st->miss[i].got_data,
						  st->miss[i].got_len);
	}
	for (k = 0; k < 2 && ret == 0; k++) {
		snprintf(path, sizeof(path), "%.*s-%s.pcap", (int)n, base,
			 k == 0 ? "sent" : "recv");
		if (test_dm_pcap_write_file(path, k == 0 ? &sent : &recv, errbuf) < 0)
			break;
		len = strlen(st->res->reproducer);
		snprintf(st->res->reproducer + len, sizeof(st->res->reproducer) - len, "; %s",
			 path);
	}
	test_dm_pktlist_free(&sent);
	test_dm_pktlist_free(&recv);
}

/*
 * --templates: flow queue operations waiting per port and queue in the
 * reproducer; a push and a pull where the run settled them (every
 * TEST_DM_RANDOM_BATCH on a queue, all of them at the end: all true).
 */
static void
test_dm_random_write_settle(const struct test_dm_random_state *st, FILE *f,
			    unsigned int waiting[][TEST_DM_RANDOM_QUEUES], bool all)
{
	unsigned int p, q;
	const char *port;
	char name[8];

	for (p = 0; p < TEST_DM_REF_MAX_PORTS; p++)
		for (q = 0; q < TEST_DM_RANDOM_QUEUES; q++) {
			if (waiting[p][q] == 0 || (!all && waiting[p][q] < TEST_DM_RANDOM_BATCH))
				continue;
			port = test_dm_random_port(st, (uint16_t)p, name, sizeof(name));
			fprintf(f, "flow push %s queue %u\nflow pull %s queue %u\n", port, q,
				port, q);
			waiting[p][q] = 0;
		}
}

/*
 * The --churn destructions, by the case's rule ids: per port, in creation
 * order, of the rules the case makes (the churn runs after a clean first
 * half: what mismatched did so after it).
 */
static void
test_dm_random_write_destroys(const struct test_dm_random_state *st, FILE *f)
{
	unsigned int waiting[TEST_DM_REF_MAX_PORTS][TEST_DM_RANDOM_QUEUES] = { { 0 } };
	uint32_t next[TEST_DM_REF_MAX_PORTS] = { 0 };
	const struct test_dm_random_rule *rr;
	unsigned int i, q;
	const char *port;
	char name[8];

	fprintf(f, "# --churn: destroyed before the packets below\n");
	for (i = 0; i < st->nb_rules; i++) {
		rr = &st->rules[i];
		if (rr->refused[0] != '\0')
			continue;
		port = test_dm_random_port(st, rr->cmd->port, name, sizeof(name));
		if (rr->destroyed && rr->tmpl != NULL && rr->tmpl->table != NULL) {
			q = rr->tmpl->destroy_queue;
			fprintf(f, "flow queue %s destroy %u postpone yes rule %u\n", port, q,
				next[rr->cmd->port]);
			waiting[rr->cmd->port][q]++;
			test_dm_random_write_settle(st, f, waiting, false);
		} else if (rr->destroyed) {
			fprintf(f, "flow destroy %s rule %u\n", port, next[rr->cmd->port]);
		}
		next[rr->cmd->port]++;
	}
	test_dm_random_write_settle(st, f, waiting, true);
}

/*
 * The flow queues the run configured before its first rule
 * (test_dm_random_tmpl_configure_ports()).
 */
static void
test_dm_random_write_configure(const struct test_dm_random_state *st, FILE *f)
{
	unsigned int p;
	char name[8];

	for (p = 0; p < TEST_DM_REF_MAX_PORTS; p++)
		if (st->configured[p])
			fprintf(f, "flow configure %s queues_number %u queues_size %u "
				"counters_number %u\n",
				test_dm_random_port(st, (uint16_t)p, name, sizeof(name)),
				TEST_DM_RANDOM_QUEUES, TEST_DM_RANDOM_QUEUE_SIZE, st->cfg->rules);
}

/*
 * A rule's text in its parts: "flow create <port> <attributes> pattern
 * ... end actions ... end". False if it is not of that form.
 */
struct test_dm_random_text {
	int attr_len;
	const char *attr;
	int pattern_len;
	const char *pattern;	/**< "pattern ... end" */
	const char *actions;	/**< "actions ... end", to the end */
};

static bool
test_dm_random_split(const char *text, struct test_dm_random_text *t)
{
	const char *word = text;
	unsigned int i;

	if (strncmp(text, "flow create ", strlen("flow create ")) != 0)
		return false;
	/* The attributes follow the third word: "flow", "create", the port. */
	for (i = 0; i < 3 && word != NULL; i++)
		word = strchr(word + (i != 0), ' ');
	t->attr = word;
	t->pattern = strstr(text, " pattern ");
	t->actions = t->pattern != NULL ? strstr(t->pattern, " actions ") : NULL;
	if (t->attr == NULL || t->actions == NULL || t->attr > t->pattern)
		return false;
	t->attr_len = (int)(t->pattern - t->attr);
	t->pattern++;
	t->pattern_len = (int)(t->actions - t->pattern);
	t->actions++;
	return true;
}

/*
 * The templates and table rule rr made (--templates), with its rule's
 * number as their ids: the pattern template its pattern (a template keeps
 * the masks), the actions template its actions, masked by themselves or
 * each "none" (given by the rules) as in the run.
 */
static void
test_dm_random_write_table(const struct test_dm_random_state *st, FILE *f,
			   const struct test_dm_random_rule *rr,
			   const struct test_dm_random_text *t)
{
	const struct test_dm_random_tmpl *tm = rr->tmpl;
	const struct test_dm_flow_cmd *r = rr->cmd;
	const char *dir = r->attr.transfer ? "transfer" : r->attr.egress ? "egress" : "ingress";
	bool masked = false;
	const char *port;
	unsigned int i;
	char name[8];

	port = test_dm_random_port(st, r->port, name, sizeof(name));
	fprintf(f, "flow pattern_template %s create pattern_template_id %u %s template %.*s\n",
		port, tm->owner, dir, t->pattern_len - (int)strlen("pattern "),
		t->pattern + strlen("pattern "));
	for (i = 0; i + 1 < r->nb_actions; i++)
		masked |= tm->masks[i].conf != NULL;
	fprintf(f, "flow actions_template %s create actions_template_id %u %s template %s mask ",
		port, tm->owner, dir, t->actions + strlen("actions "));
	for (i = 0; !masked && i + 1 < r->nb_actions; i++)
		fprintf(f, "%s none / ", test_dm_flow_action_name(r->actions[i].type));
	fprintf(f, "%s\n", masked ? t->actions + strlen("actions ") : "end");
	fprintf(f, "flow template_table %s create table_id %u%.*s rules_number %u "
		"pattern_template %u actions_template %u\n", port, tm->owner, t->attr_len, t->attr,
		tm->key_len != 0 ? TEST_DM_RANDOM_SHARED : 1, tm->owner, tm->owner);
}

static void
test_dm_random_write(struct test_dm_random_state *st)
{
	unsigned int waiting[TEST_DM_REF_MAX_PORTS][TEST_DM_RANDOM_QUEUES] = { { 0 } };
	const struct test_dm_random_cfg *cfg = st->cfg;
	char path[512], name[8];
	unsigned int i;
	FILE *f;

	snprintf(path, sizeof(path), "%s/random-seed%" PRIu64 ".case",
		 cfg->out_dir != NULL ? cfg->out_dir : ".", cfg->seed);
	f = fopen(path, "w");
	if (f == NULL) {
		snprintf(st->res->reproducer, sizeof(st->res->reproducer), "no reproducer: %s: %s",
			 path, strerror(errno));
		return;
	}
	fprintf(f, "# dpdk-test-dm --random %" PRIu64 " --seed %" PRIu64 " on %s: %u rules, "
		"%" PRIu64 " mismatching packets, %u refused rules, %u counters differ.\n"
		"# The rules and the first mismatching packets, with what the reference "
		"expects;\n# replay with: dpdk-test-dm [EAL options] -- --case %s\n",
		cfg->packets, cfg->seed, st->ops->name, st->res->rules, st->res->mismatches,
		st->res->runner_refused, st->res->count_mismatches, path);
	if (cfg->templates)
		fprintf(f, "# As the run (--templates), the rules go through template tables and "
			"flow queues\n# (ids: the number of the rule that made them).\n");
	fprintf(f, "case random_seed%" PRIu64 "\n%squeues %u\n", cfg->seed,
		cfg->transfer ? "topology switch\n" : "", cfg->nb_queues);
	for (i = 0; test_dm_gen_preamble[i] != NULL; i++)
		fprintf(f, "%s\n", test_dm_gen_preamble[i]);
	test_dm_random_write_configure(st, f);
	for (i = 0; i < st->nb_rules; i++) {
		const struct test_dm_random_rule *rr = &st->rules[i];
		struct test_dm_random_text t;
		bool queued = rr->tmpl != NULL && rr->tmpl->table != NULL &&
			      test_dm_random_split(rr->text, &t);

		/* A table outlives a refusal of its first rule: later rules may share it. */
		if (queued && rr->tmpl->owner == i)
			test_dm_random_write_table(st, f, rr, &t);
		if (rr->refused[0] != '\0') {
			fprintf(f, "# rule %u, refused by %s\n# %s\n", i, rr->refused, rr->text);
		} else if (queued) {
			fprintf(f, "# rule %u\nflow queue %s create %u template_table %u "
				"pattern_template 0 actions_template 0 postpone yes %s\n", i,
				test_dm_random_port(st, rr->cmd->port, name, sizeof(name)),
				rr->tmpl->queue, rr->tmpl->owner, t.pattern);
			waiting[rr->cmd->port][rr->tmpl->queue]++;
			test_dm_random_write_settle(st, f, waiting, false);
		} else {
			fprintf(f, "# rule %u\n%s\n", i, rr->text);
		}
	}
	test_dm_random_write_settle(st, f, waiting, true);
	if (st->churning)
		test_dm_random_write_destroys(st, f);
	for (i = 0; i < st->nb_miss; i++) {
		const struct test_dm_random_miss *m = &st->miss[i];

		fprintf(f, "\n# packet %" PRIu64 ": %s said %s; %s\nsend port %s hex ", m->index,
			st->ops->name, m->got, m->why, test_dm_random_port(st, m->port, name,
									   sizeof(name)));
		test_dm_random_hex(f, m->data, m->len);
		fprintf(f, "\n");
		test_dm_random_expect(st, f, m->fate);
	}
	fclose(f);
	snprintf(st->res->reproducer, sizeof(st->res->reproducer), "%s", path);
	test_dm_random_pcaps(st, path);
}

/* ---- the run ---- */

static int
test_dm_random_setup(struct test_dm_random_state *st)
{
	const struct test_dm_random_cfg *cfg = st->cfg;
	struct test_dm_gen_cfg gc = {
		.tx_port = st->port, .rx_port = st->peer, .nb_queues = cfg->nb_queues,
		.in_groups = 4, .out_groups = 2, .rules = cfg->rules,
		.tuples = cfg->tuples ? 50 : 0,
		.transfer = cfg->transfer ? 40 : 0, .fdb_groups = 3,
	};
	struct test_dm_ref_cfg rc;
	unsigned int r;
	uint16_t p;

	for (r = 0; cfg->transfer && r < TEST_DM_TOPO_WIRE; r++)
		if (test_dm_topo_port((enum test_dm_topo_role)r) >= TEST_DM_REF_MAX_PORTS) {
			snprintf(st->res->first, sizeof(st->res->first), "--transfer: the switch "
				 "topology's %s has no port the reference models",
				 test_dm_topo_name((enum test_dm_topo_role)r));
			return -EINVAL;
		}
	if (st->port >= TEST_DM_REF_MAX_PORTS || st->peer >= TEST_DM_REF_MAX_PORTS) {
		snprintf(st->res->first, sizeof(st->res->first), "ports %u and %u: the reference "
			 "models ports below %u", st->port, st->peer, TEST_DM_REF_MAX_PORTS);
		return -EINVAL;
	}
	test_dm_ref_cfg_init(&rc, TEST_DM_REF_MAX_PORTS, cfg->nb_queues);
	rc.peer[st->port] = st->peer;
	rc.limits = TEST_DM_REF_LIMITS_MLX5DM;
	/* The switch as the runner's: the PF, and each VF's representor and function. */
	for (r = 0; cfg->transfer && r < TEST_DM_TOPO_WIRE; r++) {
		p = test_dm_topo_port((enum test_dm_topo_role)r);
		rc.role[p] = r == TEST_DM_TOPO_PF ? TEST_DM_REF_PF :
			     r < TEST_DM_TOPO_VF0 ? TEST_DM_REF_REP : TEST_DM_REF_VF;
		rc.vf[p] = (uint8_t)(r == TEST_DM_TOPO_PF ? 0 :
				     (r - TEST_DM_TOPO_REP0) % TEST_DM_TOPO_VFS);
	}
	st->ref = test_dm_ref_new(&rc);
	st->gen = test_dm_gen_new(&gc, cfg->seed);
	if (st->ref == NULL || st->gen == NULL) {
		snprintf(st->res->first, sizeof(st->res->first), "out of memory");
		return -ENOMEM;
	}
	test_dm_flow_ctx_init(&st->fctx);
	st->fctx.nb_rxq = cfg->nb_queues;
	return test_dm_random_preamble(st);
}

static void
test_dm_random_teardown(struct test_dm_random_state *st)
{
	struct rte_flow_error e;
	unsigned int i;

	/* Every rule first: a table may hold the rules of others. */
	for (i = 0; i < st->nb_rules; i++)
		if (st->rules[i].handle != NULL)
			st->ops->flow_destroy(st->ctx, st->rules[i].cmd->port,
					      st->rules[i].handle, &e);
	for (i = 0; i < st->nb_rules; i++) {
		struct test_dm_random_tmpl *t = st->rules[i].tmpl;
		unsigned int k;

		/* The table, then its templates. */
		for (k = RTE_DIM(t->cmd); t != NULL && k-- > 0;)
			if (t->handle[k] != NULL)
				st->ops->template_destroy(st->ctx, t->cmd[k].type, t->cmd[k].port,
							  t->handle[k], &e);
		free(t);
		test_dm_flow_cmd_free(st->rules[i].cmd);
		free(st->rules[i].text);
	}
	free(st->rules);
	for (i = 0; i < st->nb_miss; i++) {
		free(st->miss[i].data);
		free(st->miss[i].got_data);
		free(st->miss[i].fate);
	}
	free(st->miss);
	free(st->sorted);
	free(st->hit);
	test_dm_ref_free(st->ref);
	test_dm_gen_free(st->gen);
}

int
test_dm_random_run(const struct test_dm_runner_ops *ops, void *ctx,
		   const struct test_dm_random_cfg *cfg, struct test_dm_random_result *res)
{
	struct test_dm_case c = { .name = (char *)(uintptr_t)"random",
				  .file = (char *)(uintptr_t)"random",
				  .nb_queues = cfg->nb_queues, .port = cfg->port,
				  .needs_switch = cfg->transfer != 0 };
	struct test_dm_random_state st = { .ops = ops, .ctx = ctx, .cfg = cfg, .res = res,
				     .port = cfg->port };
	char msg[256] = "";
	int ret;

	memset(res, 0, sizeof(*res));
	if (cfg->transfer) {
		st.port = test_dm_topo_port(TEST_DM_TOPO_PF);
		c.port = st.port;
		if (st.port == TEST_DM_TOPO_NONE) {
			snprintf(res->first, sizeof(res->first), "--transfer: no switch topology "
				 "(a vdev with representor=vf[0-1],vf_ports=1)");
			return -ENODEV;
		}
	}
	if (cfg->templates && (ops->flow_configure == NULL || ops->template_create == NULL ||
			       ops->async_create == NULL || ops->async_destroy == NULL ||
			       ops->push == NULL || ops->pull == NULL)) {
		snprintf(res->first, sizeof(res->first), "--templates: %s has no template API",
			 ops->name);
		return -ENOTSUP;
	}
	if (ops->case_begin(ctx, &c, msg, sizeof(msg)) < 0) {
		snprintf(res->first, sizeof(res->first), "%s not ready: %s", ops->name, msg);
		return -EIO;
	}
	st.peer = ops->peer(ctx, st.port);
	ret = test_dm_random_setup(&st);
	if (ret == 0)
		ret = test_dm_random_install(&st);
	if (ret == 0)
		ret = test_dm_random_coverage_init(&st);
	if (ret == 0)
		ret = test_dm_random_traffic(&st, 0);
	if (ret == 0)
		test_dm_random_counters(&st);
	/* After a clean first half only: a reproducer replays one state of the rules. */
	if (ret == 0 && cfg->churn && test_dm_random_failures(res) == 0) {
		ret = test_dm_random_churn(&st);
		if (ret == 0)
			ret = test_dm_random_traffic(&st, cfg->packets);
		if (ret == 0)
			test_dm_random_counters(&st);
	}
	test_dm_progress_clear(cfg->progress);
	if (ret == 0 && test_dm_random_failures(res) != 0)
		test_dm_random_write(&st);
	test_dm_random_teardown(&st);
	ops->case_end(ctx);
	return ret;
}
