/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The template API's "flow" commands in testpmd's syntax (DPDK 22.11
 * app/test-pmd/cmdline_flow.c): configure, pattern_template,
 * actions_template, template_table, queue create|destroy, push, pull.
 */

#include <errno.h>
#include <string.h>

#include "test_dm_flow_priv.h"
#include "test_dm_value.h"

static int
test_dm_flow_parser_word(struct test_dm_flow_parser *p, const char *word)
{
	const struct test_dm_tok *t = test_dm_flow_parser_next(p);

	if (t == NULL || !test_dm_tok_is(t, word))
		return test_dm_flow_parser_error_at(p, t, "expected '%s'", word);
	return 0;
}

static int
test_dm_flow_parser_bool(struct test_dm_flow_parser *p, int *v)
{
	const struct test_dm_tok *t = test_dm_flow_parser_next(p);

	if (t == NULL || test_dm_parse_bool(t->s, t->len, v) < 0)
		return test_dm_flow_parser_error_at(p, t, "expected yes or no");
	return 0;
}

static int
test_dm_flow_parser_u32(struct test_dm_flow_parser *p, const char *what, uint32_t *v)
{
	uint64_t x;
	int ret = test_dm_flow_parser_uint(p, UINT32_MAX, what, &x);

	*v = (uint32_t)x;
	return ret;
}

/* queues_number N queues_size N [counters_number N], in any order */
static int
test_dm_parse_configure(struct test_dm_flow_parser *p)
{
	struct test_dm_flow_cmd *cmd = p->cmd;
	const struct test_dm_tok *t;
	uint32_t v;
	int ret;

	ret = test_dm_flow_parse_port(p);
	while (ret == 0 && (t = test_dm_flow_parser_next(p)) != NULL) {
		if (test_dm_tok_is(t, "queues_number")) {
			ret = test_dm_flow_parser_u32(p, "a number of flow queues", &v);
			if (ret == 0 && (v == 0 || v > UINT16_MAX))
				ret = test_dm_flow_parser_error_at(p, t + 1, "1 to %u flow queues",
								   UINT16_MAX);
			cmd->nb_queues = (uint16_t)v;
		} else if (test_dm_tok_is(t, "queues_size")) {
			ret = test_dm_flow_parser_u32(p, "a flow queue size", &cmd->queue_size);
		} else if (test_dm_tok_is(t, "counters_number")) {
			ret = test_dm_flow_parser_u32(p, "a number of counters", &cmd->nb_counters);
		} else {
			ret = test_dm_flow_parser_error_at(p, t, "expected queues_number, "
							   "queues_size or counters_number");
		}
	}
	if (ret == 0 && (cmd->nb_queues == 0 || cmd->queue_size == 0))
		ret = test_dm_flow_parser_error(p, "'flow configure' needs queues_number and "
						"queues_size");
	return ret;
}

/*
 * Attributes and options before "template" (@p id_word names the id).
 * @return 1 when @p t was "template", 0 when taken, <0.
 */
static int
test_dm_parse_tmpl_opt(struct test_dm_flow_parser *p, const struct test_dm_tok *t,
		       const char *id_word, bool relaxed)
{
	struct test_dm_flow_cmd *cmd = p->cmd;
	int ret;

	if (test_dm_tok_is(t, "template"))
		return 1;
	if (test_dm_tok_is(t, id_word))
		return test_dm_flow_parser_u32(p, "an id", &cmd->id);
	if (relaxed && test_dm_tok_is(t, "relaxed"))
		return test_dm_flow_parser_bool(p, &cmd->relaxed);
	ret = test_dm_flow_parse_attr(p, t, &cmd->attr, false);
	if (ret != 0)
		return ret < 0 ? ret : 0;
	return test_dm_flow_parser_error_at(p, t,
					    "expected %s,%s ingress, egress, transfer or template",
					    id_word, relaxed ? " relaxed," : "");
}

/* create [<id_word> N] [relaxed B] [ingress|egress|transfer] template ... | destroy ... */
static int
test_dm_parse_template(struct test_dm_flow_parser *p, bool pattern)
{
	const char *id_word = pattern ? "pattern_template_id" : "actions_template_id";
	struct test_dm_flow_cmd *cmd = p->cmd;
	const struct test_dm_tok *t;
	unsigned int nb_masks;
	int ret;

	ret = test_dm_flow_parse_port(p);
	if (ret < 0)
		return ret;
	t = test_dm_flow_parser_next(p);
	if (t != NULL && test_dm_tok_is(t, "destroy")) {
		cmd->type = pattern ? TEST_DM_FLOW_PATTERN_TEMPLATE_DESTROY :
			    TEST_DM_FLOW_ACTIONS_TEMPLATE_DESTROY;
		return test_dm_flow_parse_ids(p, pattern ? "pattern_template" : "actions_template");
	}
	if (t == NULL || !test_dm_tok_is(t, "create"))
		return test_dm_flow_parser_error_at(p, t, "expected create or destroy");
	cmd->type = pattern ? TEST_DM_FLOW_PATTERN_TEMPLATE : TEST_DM_FLOW_ACTIONS_TEMPLATE;
	cmd->id = TEST_DM_ID_AUTO;
	do {
		t = test_dm_flow_parser_next(p);
		if (t == NULL)
			return test_dm_flow_parser_error_at(p, t, "expected template");
		ret = test_dm_parse_tmpl_opt(p, t, id_word, pattern);
	} while (ret == 0);
	if (ret < 0)
		return ret;
	if (pattern)
		return test_dm_flow_parse_items(p, "end");
	ret = test_dm_flow_parse_actions(p, &cmd->actions, &cmd->nb_actions);
	if (ret == 0)
		ret = test_dm_flow_parser_word(p, "mask");
	if (ret == 0) {
		p->mask_list = true;
		ret = test_dm_flow_parse_actions(p, &cmd->masks, &nb_masks);
		p->mask_list = false;
	}
	if (ret < 0)
		return ret;
	/* rte_flow_actions_template_create() pairs them one by one. */
	for (unsigned int i = 0; i < cmd->nb_actions; i++)
		if (i >= nb_masks || cmd->masks[i].type != cmd->actions[i].type)
			return test_dm_flow_parser_error_at(p, p->action_tok, "the mask list must "
							    "have the action list's types, in its "
							    "order");
	if (nb_masks != cmd->nb_actions)
		return test_dm_flow_parser_error_at(p, p->action_tok, "the mask list must have the "
						    "action list's types, in its order");
	return 0;
}

/* template_table: create [table_id N] [attrs] rules_number N pattern_template <id>... ... */
static int
test_dm_parse_table(struct test_dm_flow_parser *p)
{
	struct test_dm_flow_cmd *cmd = p->cmd;
	const struct test_dm_tok *t;
	uint32_t *list;
	unsigned int *nb;
	int ret;

	ret = test_dm_flow_parse_port(p);
	if (ret < 0)
		return ret;
	t = test_dm_flow_parser_next(p);
	if (t != NULL && test_dm_tok_is(t, "destroy")) {
		cmd->type = TEST_DM_FLOW_TABLE_DESTROY;
		return test_dm_flow_parse_ids(p, "table");
	}
	if (t == NULL || !test_dm_tok_is(t, "create"))
		return test_dm_flow_parser_error_at(p, t, "expected create or destroy");
	cmd->type = TEST_DM_FLOW_TABLE;
	cmd->id = TEST_DM_ID_AUTO;
	while ((t = test_dm_flow_parser_next(p)) != NULL) {
		if (test_dm_tok_is(t, "table_id")) {
			ret = test_dm_flow_parser_u32(p, "a table id", &cmd->id);
		} else if (test_dm_tok_is(t, "rules_number")) {
			ret = test_dm_flow_parser_u32(p, "a number of rules", &cmd->rules_number);
		} else if (test_dm_tok_is(t, "pattern_template") ||
			   test_dm_tok_is(t, "actions_template")) {
			list = t->s[0] == 'p' ? cmd->pattern_templates : cmd->actions_templates;
			nb = t->s[0] == 'p' ? &cmd->nb_pattern_templates :
			     &cmd->nb_actions_templates;
			if (*nb == TEST_DM_TABLE_TEMPLATES)
				return test_dm_flow_parser_error_at(p, t,
								    "too many templates (max %u)",
								    TEST_DM_TABLE_TEMPLATES);
			ret = test_dm_flow_parser_u32(p, "a template id", &list[(*nb)++]);
		} else {
			ret = test_dm_flow_parse_attr(p, t, &cmd->attr, true);
			if (ret == 0)
				ret = test_dm_flow_parser_error_at(p, t, "expected table_id, "
								   "group, priority, ingress, "
								   "egress, transfer, "
								   "rules_number, pattern_template "
								   "or actions_template");
			ret = ret < 0 ? ret : 0;
		}
		if (ret < 0)
			return ret;
	}
	if (cmd->rules_number == 0 || cmd->nb_pattern_templates == 0 ||
	    cmd->nb_actions_templates == 0)
		return test_dm_flow_parser_error(p, "a template table needs rules_number, a "
						 "pattern_template and an actions_template");
	return 0;
}

/* [postpone B] */
static int
test_dm_parse_postpone(struct test_dm_flow_parser *p)
{
	if (!test_dm_flow_parser_peek_is(p, "postpone"))
		return 0;
	p->i++;
	return test_dm_flow_parser_bool(p, &p->cmd->postpone);
}

/*
 * queue <port> create <queue> template_table <id> pattern_template <index>
 *   actions_template <index> [postpone B] pattern ... actions ...
 * queue <port> destroy <queue> [postpone B] rule <id>...
 */
static int
test_dm_parse_queue(struct test_dm_flow_parser *p)
{
	struct test_dm_flow_cmd *cmd = p->cmd;
	const struct test_dm_tok *t;
	uint64_t v;
	int ret;

	ret = test_dm_flow_parse_port(p);
	if (ret < 0)
		return ret;
	t = test_dm_flow_parser_next(p);
	if (t == NULL || (!test_dm_tok_is(t, "create") && !test_dm_tok_is(t, "destroy")))
		return test_dm_flow_parser_error_at(p, t, "expected create or destroy");
	cmd->type = t->s[0] == 'c' ? TEST_DM_FLOW_QUEUE_CREATE : TEST_DM_FLOW_QUEUE_DESTROY;
	ret = test_dm_flow_parser_u32(p, "a flow queue", &cmd->queue);
	if (ret < 0)
		return ret;
	if (cmd->type == TEST_DM_FLOW_QUEUE_DESTROY) {
		ret = test_dm_parse_postpone(p);
		return ret < 0 ? ret : test_dm_flow_parse_ids(p, "rule");
	}
	ret = test_dm_flow_parser_word(p, "template_table");
	if (ret == 0)
		ret = test_dm_flow_parser_u32(p, "a table id", &cmd->id);
	if (ret == 0)
		ret = test_dm_flow_parser_word(p, "pattern_template");
	if (ret == 0)
		ret = test_dm_flow_parser_uint(p, TEST_DM_TABLE_TEMPLATES - 1,
					       "a pattern template index", &v);
	cmd->pattern_index = (uint8_t)v;
	if (ret == 0)
		ret = test_dm_flow_parser_word(p, "actions_template");
	if (ret == 0)
		ret = test_dm_flow_parser_uint(p, TEST_DM_TABLE_TEMPLATES - 1,
					       "an actions template index", &v);
	cmd->actions_index = (uint8_t)v;
	if (ret == 0)
		ret = test_dm_parse_postpone(p);
	if (ret == 0)
		ret = test_dm_flow_parser_word(p, "pattern");
	return ret < 0 ? ret : test_dm_flow_parse_rule(p);
}

int
test_dm_flow_parse_tmpl(struct test_dm_flow_parser *p, const struct test_dm_tok *t)
{
	int ret;

	if (t != NULL && test_dm_tok_is(t, "configure")) {
		p->cmd->type = TEST_DM_FLOW_CONFIGURE;
		return test_dm_parse_configure(p);
	}
	if (t != NULL && (test_dm_tok_is(t, "pattern_template") ||
			  test_dm_tok_is(t, "actions_template")))
		return test_dm_parse_template(p, t->s[0] == 'p');
	if (t != NULL && test_dm_tok_is(t, "template_table"))
		return test_dm_parse_table(p);
	if (t != NULL && test_dm_tok_is(t, "queue"))
		return test_dm_parse_queue(p);
	if (t != NULL && (test_dm_tok_is(t, "push") || test_dm_tok_is(t, "pull"))) {
		p->cmd->type = t->s[1] == 'u' && t->s[2] == 's' ? TEST_DM_FLOW_PUSH :
			       TEST_DM_FLOW_PULL;
		ret = test_dm_flow_parse_port(p);
		if (ret == 0)
			ret = test_dm_flow_parser_word(p, "queue");
		return ret < 0 ? ret : test_dm_flow_parser_u32(p, "a flow queue", &p->cmd->queue);
	}
	return test_dm_flow_parser_error_at(p, t, "expected create, validate, destroy, flush, "
					    "query, configure, pattern_template, actions_template, "
					    "template_table, queue, push or pull after 'flow'");
}

static bool
test_dm_zero(const void *p, size_t size)
{
	const uint8_t *b = p;
	size_t i;

	for (i = 0; i < size; i++)
		if (b[i] != 0)
			return false;
	return true;
}

static int
test_dm_tmpl_err(struct rte_flow_error *error, enum rte_flow_error_type type, const char *msg)
{
	error->type = type;
	error->message = msg;
	error->cause = NULL;
	return -EINVAL;
}

int
test_dm_flow_tmpl_rule(const struct test_dm_flow_cmd *pt, const struct test_dm_flow_cmd *at,
		       const struct test_dm_flow_cmd *rule, struct rte_flow_item *items,
		       struct rte_flow_action *actions, struct rte_flow_error *error)
{
	static const uint8_t zero[TEST_DM_RAW_MAX];
	const struct test_dm_adesc *d;
	unsigned int i, n = 0, keep = 0;

	if (rule->nb_items != pt->nb_items)
		return test_dm_tmpl_err(error, RTE_FLOW_ERROR_TYPE_ITEM_NUM,
					"the rule's pattern does not have its template's items");
	for (i = 0; i + 1 < pt->nb_items; i++) {
		const struct rte_flow_item *ti = &pt->pattern[i], *ri = &rule->pattern[i];
		size_t size = test_dm_flow_item_size(ti->type);

		if (ri->type != ti->type)
			return test_dm_tmpl_err(error, RTE_FLOW_ERROR_TYPE_ITEM,
						"the rule's pattern does not have its template's "
						"items");
		items[n] = (struct rte_flow_item){ .type = ti->type };
		/* A template's mask of zeros matches nothing, as none. */
		if (ti->mask != NULL && !test_dm_zero(ti->mask, size)) {
			items[n].spec = ri->spec != NULL ? ri->spec : zero;
			items[n].mask = ti->mask;
			keep = n + 1;
		}
		n++;
	}
	/* Relaxed: an item without a mask implies nothing; the last masked one ends it. */
	if (pt->relaxed)
		n = keep;
	items[n] = (struct rte_flow_item){ .type = RTE_FLOW_ITEM_TYPE_END };
	if (rule->nb_actions != at->nb_actions)
		return test_dm_tmpl_err(error, RTE_FLOW_ERROR_TYPE_ACTION_NUM,
					"the rule's actions are not its template's");
	for (i = 0; i < at->nb_actions; i++) {
		const struct rte_flow_action *ta = &at->actions[i], *ra = &rule->actions[i];

		if (ra->type != ta->type)
			return test_dm_tmpl_err(error, RTE_FLOW_ERROR_TYPE_ACTION,
						"the rule's actions are not its template's");
		d = test_dm_adesc_by_type(ta->type);
		actions[i] = *ra;
		/* A non-zero mask configuration: the template fixes the action. */
		if (d != NULL && at->masks[i].conf != NULL &&
		    !test_dm_zero(at->masks[i].conf, d->conf_size))
			actions[i].conf = ta->conf;
	}
	return 0;
}
