/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The "flow ..." command grammar (testpmd's, DPDK 22.11). Items and
 * actions are driven by the tables in test_dm_flow_items.c and
 * test_dm_flow_actions.c.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_dm_flow_priv.h"
#include "test_dm_value.h"

#define TEST_DM_FLOW_MAX_DESTROY 64

const struct test_dm_tok *
test_dm_flow_parser_peek(const struct test_dm_flow_parser *p)
{
	return p->i < p->toks->n ? &p->toks->v[p->i] : NULL;
}

const struct test_dm_tok *
test_dm_flow_parser_next(struct test_dm_flow_parser *p)
{
	const struct test_dm_tok *t = test_dm_flow_parser_peek(p);

	if (t != NULL)
		p->i++;
	return t;
}

int
test_dm_flow_parser_peek_is(const struct test_dm_flow_parser *p, const char *word)
{
	const struct test_dm_tok *t = test_dm_flow_parser_peek(p);

	return t != NULL && test_dm_tok_is(t, word);
}

int
test_dm_flow_parser_error_at(struct test_dm_flow_parser *p, const struct test_dm_tok *t,
			     const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = test_dm_tok_verror(p->err, t, &p->toks->end, "command", fmt, ap);
	va_end(ap);
	return ret;
}

int
test_dm_flow_parser_error(struct test_dm_flow_parser *p, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = test_dm_tok_verror(p->err, test_dm_flow_parser_peek(p), &p->toks->end, "command", fmt,
				 ap);
	va_end(ap);
	return ret;
}

int
test_dm_flow_parser_uint(struct test_dm_flow_parser *p, uint64_t max, const char *what, uint64_t *v)
{
	return test_dm_tok_uint(p->err, test_dm_flow_parser_next(p), &p->toks->end, "command", max,
				what, v);
}

/* Lazily allocated spec (0), last (1) or mask (2) of the item being parsed. */
static void *
test_dm_item_obj(struct test_dm_flow_parser *p, struct rte_flow_item *item, size_t size,
		 unsigned int which)
{
	const void **slot[] = { &item->spec, &item->last, &item->mask };
	void *obj;

	if (*slot[which] != NULL)
		return (void *)(uintptr_t)*slot[which];
	obj = test_dm_arena_zalloc(&p->cmd->arena, size);
	*slot[which] = obj;
	return obj;
}

static void
test_dm_field_names(const struct test_dm_fdesc *f, unsigned int n, char *buf, size_t size)
{
	size_t used = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < n && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used, "%s, ", f[i].name);
}

/* <field> is|spec|last|mask|prefix <value> */
static int
test_dm_parse_item_field(struct test_dm_flow_parser *p, const struct test_dm_idesc *d,
			 struct rte_flow_item *item)
{
	static const char *const params[] = { "spec", "last", "mask", "is", "prefix" };
	const struct test_dm_tok *t = test_dm_flow_parser_next(p), *pt;
	const struct test_dm_fdesc *fd;
	struct test_dm_field f;
	unsigned int which;
	char names[256];
	uint64_t n;
	void *obj;
	int ret;

	fd = test_dm_fdesc_find(d->fields, d->nb_fields, t->s, t->len);
	if (fd == NULL) {
		test_dm_field_names(d->fields, d->nb_fields, names, sizeof(names));
		return test_dm_flow_parser_error_at(p, t, "unknown field '%.*s' of item '%s'; "
						    "expected %sor '/'", (int)t->len, t->s, d->name,
						    names);
	}
	pt = test_dm_flow_parser_next(p);
	for (which = 0; pt != NULL && which < RTE_DIM(params); which++)
		if (test_dm_tok_is(pt, params[which]))
			break;
	if (pt == NULL || which == RTE_DIM(params))
		return test_dm_flow_parser_error_at(p, pt, "expected is, spec, last, mask or "
						    "prefix after field '%s'", fd->name);
	test_dm_field_resolve(fd, d->size, &f);
	if (which == 4) {
		ret = test_dm_flow_parser_uint(p, test_dm_field_width(&f), "a prefix length", &n);
		if (ret < 0)
			return ret;
		obj = test_dm_item_obj(p, item, d->size, 2);
		if (obj == NULL)
			return -ENOMEM;
		test_dm_field_prefix(&f, obj, (unsigned int)n);
		return 0;
	}
	/* "is" is spec plus a full mask of the field. */
	obj = test_dm_item_obj(p, item, d->size, which == 3 ? 0 : which);
	if (obj == NULL)
		return -ENOMEM;
	ret = test_dm_field_parse(p, &f, obj);
	if (ret < 0 || which != 3)
		return ret;
	obj = test_dm_item_obj(p, item, d->size, 2);
	if (obj == NULL)
		return -ENOMEM;
	test_dm_field_fill(&f, obj);
	return 0;
}

/* What a list element is, for test_dm_flow_parser_element(). */
struct test_dm_list_kind {
	const char *what;	/**< "a pattern item" */
	const char *many;	/**< "pattern items" */
	unsigned int max;
	const void *(*find)(const char *s, size_t len);
};

static const void *
test_dm_find_item(const char *s, size_t len)
{
	return test_dm_idesc_find(s, len);
}

static const void *
test_dm_find_action(const char *s, size_t len)
{
	return test_dm_adesc_find(s, len);
}

static const struct test_dm_list_kind test_dm_items_kind = {
	"a pattern item", "pattern items", TEST_DM_FLOW_MAX_ITEMS - 1, test_dm_find_item,
};
static const struct test_dm_list_kind test_dm_actions_kind = {
	"an action", "actions", TEST_DM_FLOW_MAX_ACTIONS - 1, test_dm_find_action,
};

/*
 * The next element (number @p n) of a list ended by @p end_word.
 *
 * @return 1 with *desc (and *tok) set, 0 at the end word, <0 on error.
 */
static int
test_dm_flow_parser_element(struct test_dm_flow_parser *p, const struct test_dm_list_kind *k,
			    const char *end_word, unsigned int n, const void **desc,
			    const struct test_dm_tok **tok)
{
	const struct test_dm_tok *t = test_dm_flow_parser_next(p);

	if (t == NULL || test_dm_tok_is(t, "/"))
		return test_dm_flow_parser_error_at(p, t, "expected %s or '%s'", k->what, end_word);
	if (test_dm_tok_is(t, end_word))
		return 0;
	*desc = k->find(t->s, t->len);
	if (*desc == NULL)
		return test_dm_flow_parser_error_at(p, t, "expected %s or '%s', got '%.*s'",
						    k->what, end_word, (int)t->len, t->s);
	if (n == k->max)
		return test_dm_flow_parser_error_at(p, t, "too many %s (max %u)", k->many, k->max);
	*tok = t;
	return 1;
}

int
test_dm_flow_parse_items(struct test_dm_flow_parser *p, const char *end_word)
{
	struct rte_flow_item *items;
	const struct test_dm_idesc *d;
	const struct test_dm_tok *t;
	unsigned int n = 0;
	int ret;

	items = test_dm_arena_zalloc(&p->cmd->arena, sizeof(*items) * TEST_DM_FLOW_MAX_ITEMS);
	if (items == NULL)
		return -ENOMEM;
	p->cmd->pattern = items;
	while ((ret = test_dm_flow_parser_element(p, &test_dm_items_kind, end_word, n,
						  (const void **)&d, &t)) > 0) {
		items[n].type = d->type;
		p->item_tok[n] = t;
		for (;;) {
			t = test_dm_flow_parser_peek(p);
			if (t == NULL)
				return test_dm_flow_parser_error(p,
								 "expected a field of '%s' or '/'",
								 d->name);
			if (test_dm_tok_is(t, "/")) {
				p->i++;
				break;
			}
			ret = test_dm_parse_item_field(p, d, &items[n]);
			if (ret < 0)
				return ret;
		}
		n++;
	}
	if (ret < 0)
		return ret;
	items[n].type = RTE_FLOW_ITEM_TYPE_END;
	p->cmd->nb_items = n + 1;
	return 0;
}

static int
test_dm_parse_action_args(struct test_dm_flow_parser *p, const struct test_dm_adesc *d,
			  struct rte_flow_action *a)
{
	const struct test_dm_fdesc *fd;
	const struct test_dm_tok *t;
	struct test_dm_field f;
	char names[256];
	int ret;

	for (;;) {
		t = test_dm_flow_parser_next(p);
		if (t == NULL)
			return test_dm_flow_parser_error_at(p, t,
							    "expected an argument of '%s' or '/'",
							    d->name);
		if (test_dm_tok_is(t, "/"))
			return 0;
		fd = test_dm_fdesc_find(d->fields, d->nb_fields, t->s, t->len);
		if (fd == NULL) {
			test_dm_field_names(d->fields, d->nb_fields, names, sizeof(names));
			return test_dm_flow_parser_error_at(p, t, "unknown argument '%.*s' of "
							    "action '%s'; expected %sor '/'",
							    (int)t->len, t->s, d->name, names);
		}
		test_dm_field_resolve(fd, d->conf_size, &f);
		ret = test_dm_field_parse(p, &f, (void *)(uintptr_t)a->conf);
		if (ret < 0)
			return ret;
	}
}

int
test_dm_flow_parse_actions(struct test_dm_flow_parser *p, struct rte_flow_action **out,
			   unsigned int *nb)
{
	struct rte_flow_action *actions;
	const struct test_dm_adesc *d;
	const struct test_dm_tok *t;
	unsigned int n = 0;
	int ret;

	actions = test_dm_arena_zalloc(&p->cmd->arena,
				       sizeof(*actions) * TEST_DM_FLOW_MAX_ACTIONS);
	if (actions == NULL)
		return -ENOMEM;
	*out = actions;
	while ((ret = test_dm_flow_parser_element(p, &test_dm_actions_kind, "end", n,
						  (const void **)&d, &t)) > 0) {
		p->action_tok = t;
		actions[n].type = d->type;
		/* No configuration (NULL): an unmasked action, whatever its kind. */
		if (p->mask_list && test_dm_flow_parser_peek_is(p, "none")) {
			p->i++;
			t = test_dm_flow_parser_next(p);
			if (t == NULL || !test_dm_tok_is(t, "/"))
				return test_dm_flow_parser_error_at(p, t, "expected '/' after "
								    "none");
			n++;
			continue;
		}
		if (d->conf_size != 0) {
			actions[n].conf = test_dm_arena_zalloc(&p->cmd->arena, d->conf_size);
			if (actions[n].conf == NULL)
				return -ENOMEM;
		}
		ret = d->init != NULL ?
			d->init(p, (void *)(uintptr_t)actions[n].conf) : 0;
		if (ret == 0)
			ret = d->parse != NULL ? d->parse(p, &actions[n]) :
				test_dm_parse_action_args(p, d, &actions[n]);
		if (ret == 0 && d->finish != NULL)
			ret = d->finish(p, &actions[n]);
		if (ret < 0)
			return ret;
		n++;
	}
	if (ret < 0)
		return ret;
	actions[n].type = RTE_FLOW_ACTION_TYPE_END;
	*nb = n + 1;
	return 0;
}

int
test_dm_flow_parse_port(struct test_dm_flow_parser *p)
{
	uint64_t v;
	int ret = test_dm_tok_port(p->err, test_dm_flow_parser_next(p), &p->toks->end, "command",
				   &v);

	p->cmd->port = (uint16_t)v;
	return ret;
}

int
test_dm_flow_parse_attr(struct test_dm_flow_parser *p, const struct test_dm_tok *t,
			struct rte_flow_attr *attr, bool group)
{
	uint64_t v;
	int ret;

	if (group && (test_dm_tok_is(t, "group") || test_dm_tok_is(t, "priority"))) {
		ret = test_dm_flow_parser_uint(p, UINT32_MAX, t->s[0] == 'g' ? "a group number" :
					       "a priority level", &v);
		if (ret < 0)
			return ret;
		if (t->s[0] == 'g')
			attr->group = (uint32_t)v;
		else
			attr->priority = (uint32_t)v;
	} else if (test_dm_tok_is(t, "ingress")) {
		attr->ingress = 1;
	} else if (test_dm_tok_is(t, "egress")) {
		attr->egress = 1;
	} else if (test_dm_tok_is(t, "transfer")) {
		attr->transfer = 1;
	} else {
		return 0;
	}
	return 1;
}

/* [group N] [priority N] [ingress|egress|transfer]... pattern ... actions ... */
static int
test_dm_parse_create(struct test_dm_flow_parser *p)
{
	const struct test_dm_tok *t;
	int ret;

	ret = test_dm_flow_parse_port(p);
	if (ret < 0)
		return ret;
	for (;;) {
		t = test_dm_flow_parser_next(p);
		if (t == NULL)
			return test_dm_flow_parser_error_at(p, t, "expected group, priority, "
							    "ingress, egress, transfer or pattern");
		if (test_dm_tok_is(t, "pattern"))
			break;
		ret = test_dm_flow_parse_attr(p, t, &p->cmd->attr, true);
		if (ret < 0)
			return ret;
		if (ret == 0)
			return test_dm_flow_parser_error_at(p, t, "expected group, priority, "
							    "ingress, egress, transfer or pattern, "
							    "got '%.*s'", (int)t->len, t->s);
	}
	return test_dm_flow_parse_rule(p);
}

int
test_dm_flow_parse_rule(struct test_dm_flow_parser *p)
{
	const struct test_dm_tok *t;
	int ret;

	ret = test_dm_flow_parse_items(p, "end");
	if (ret < 0)
		return ret;
	t = test_dm_flow_parser_next(p);
	if (t == NULL || !test_dm_tok_is(t, "actions"))
		return test_dm_flow_parser_error_at(p, t, "expected 'actions' after the pattern");
	return test_dm_flow_parse_actions(p, &p->cmd->actions, &p->cmd->nb_actions);
}

int
test_dm_flow_parse_ids(struct test_dm_flow_parser *p, const char *kind)
{
	struct test_dm_flow_cmd *cmd = p->cmd;
	const struct test_dm_tok *t;
	char what[32];
	uint64_t v;
	int ret;

	snprintf(what, sizeof(what), "a %s id", kind);
	cmd->rules = test_dm_arena_zalloc(&cmd->arena,
					  sizeof(*cmd->rules) * TEST_DM_FLOW_MAX_DESTROY);
	if (cmd->rules == NULL)
		return -ENOMEM;
	do {
		t = test_dm_flow_parser_next(p);
		if (t == NULL || !test_dm_tok_is(t, kind))
			return test_dm_flow_parser_error_at(p, t, "expected '%s'", kind);
		if (cmd->nb_rules == TEST_DM_FLOW_MAX_DESTROY)
			return test_dm_flow_parser_error_at(p, t, "too many %ss (max %u)", kind,
							    TEST_DM_FLOW_MAX_DESTROY);
		ret = test_dm_flow_parser_uint(p, UINT32_MAX, what, &v);
		if (ret < 0)
			return ret;
		cmd->rules[cmd->nb_rules++] = (uint32_t)v;
	} while (test_dm_flow_parser_peek(p) != NULL);
	return 0;
}

static int
test_dm_parse_destroy(struct test_dm_flow_parser *p)
{
	int ret = test_dm_flow_parse_port(p);

	return ret < 0 ? ret : test_dm_flow_parse_ids(p, "rule");
}

static int
test_dm_parse_query(struct test_dm_flow_parser *p)
{
	const struct test_dm_tok *t;
	uint64_t v;
	int ret;

	ret = test_dm_flow_parse_port(p);
	if (ret < 0)
		return ret;
	ret = test_dm_flow_parser_uint(p, UINT32_MAX, "a rule id", &v);
	if (ret < 0)
		return ret;
	p->cmd->rule = (uint32_t)v;
	t = test_dm_flow_parser_next(p);
	if (t == NULL || !test_dm_tok_is(t, "count"))
		return test_dm_flow_parser_error_at(p, t, "expected 'count' (the action to query)");
	p->cmd->query_action = RTE_FLOW_ACTION_TYPE_COUNT;
	return 0;
}

static int
test_dm_parse_flow(struct test_dm_flow_parser *p)
{
	const struct test_dm_tok *t = test_dm_flow_parser_next(p);

	if (t != NULL && (test_dm_tok_is(t, "create") || test_dm_tok_is(t, "validate"))) {
		p->cmd->type = t->s[0] == 'c' ? TEST_DM_FLOW_CREATE : TEST_DM_FLOW_VALIDATE;
		return test_dm_parse_create(p);
	}
	if (t != NULL && test_dm_tok_is(t, "destroy")) {
		p->cmd->type = TEST_DM_FLOW_DESTROY;
		return test_dm_parse_destroy(p);
	}
	if (t != NULL && test_dm_tok_is(t, "flush")) {
		p->cmd->type = TEST_DM_FLOW_FLUSH;
		return test_dm_flow_parse_port(p);
	}
	if (t != NULL && test_dm_tok_is(t, "query")) {
		p->cmd->type = TEST_DM_FLOW_QUERY;
		return test_dm_parse_query(p);
	}
	return test_dm_flow_parse_tmpl(p, t);
}

int
test_dm_flow_parse(struct test_dm_flow_ctx *ctx, const struct test_dm_toks *toks,
		   unsigned int first, struct test_dm_flow_cmd **out, struct test_dm_err *err)
{
	struct test_dm_flow_parser p = {
		.ctx = ctx,
		.toks = toks,
		.i = first,
		.err = err,
	};
	const struct test_dm_tok *t;
	int ret;

	p.cmd = calloc(1, sizeof(*p.cmd));
	if (p.cmd == NULL)
		return -ENOMEM;
	t = test_dm_flow_parser_next(&p);
	if (t != NULL)
		p.cmd->pos = t->pos;
	if (t != NULL && test_dm_tok_is(t, "flow"))
		ret = test_dm_parse_flow(&p);
	else if (t != NULL && test_dm_tok_is(t, "set"))
		ret = test_dm_flow_parse_set(&p);
	else
		ret = test_dm_flow_parser_error_at(&p, t, "expected 'flow' or 'set'");
	if (ret == 0 && (t = test_dm_flow_parser_peek(&p)) != NULL)
		ret = test_dm_flow_parser_error_at(&p, t,
						   "unexpected '%.*s' after the end of the command",
						   (int)t->len, t->s);
	if (ret < 0) {
		test_dm_flow_cmd_free(p.cmd);
		return ret;
	}
	*out = p.cmd;
	return 0;
}

int
test_dm_flow_parse_str(struct test_dm_flow_ctx *ctx, const char *text, const char *file,
		       unsigned int line, struct test_dm_flow_cmd **out, struct test_dm_err *err)
{
	struct test_dm_toks toks = { 0 };
	int ret;

	ret = test_dm_tokenize(text, strlen(text), file, line, 1, &toks);
	if (ret == 0)
		ret = test_dm_flow_parse(ctx, &toks, 0, out, err);
	test_dm_toks_free(&toks);
	return ret;
}

void
test_dm_flow_cmd_free(struct test_dm_flow_cmd *cmd)
{
	if (cmd == NULL)
		return;
	test_dm_arena_free(&cmd->arena);
	free(cmd);
}
