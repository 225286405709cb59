/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_dm_text.h"
#include "test_dm_topo.h"
#include "test_dm_value.h"
#include "test_dm_vec.h"

int
test_dm_err_at(struct test_dm_err *err, const struct test_dm_pos *pos, const char *fmt, ...)
{
	char text[TEST_DM_ERR_LEN];
	va_list ap;

	if (err == NULL)
		return -EINVAL;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	err->pos = *pos;
	snprintf(err->msg, sizeof(err->msg), "%s:%u:%u: %s",
		 pos->file != NULL ? pos->file : "<input>", pos->line, pos->col, text);
	return -EINVAL;
}

void
test_dm_reader_init(struct test_dm_reader *r, const char *text, size_t len,
		    const char *file, unsigned int line, unsigned int col)
{
	r->p = text;
	r->end = text + len;
	r->pos.file = file;
	r->pos.line = line;
	r->pos.col = col;
}

static int
test_dm_toks_push(struct test_dm_toks *t, const char *s, unsigned int len,
		  const struct test_dm_pos *pos)
{
	if (test_dm_vec_grow((void **)&t->v, &t->cap, t->n, sizeof(*t->v)) < 0)
		return -ENOMEM;
	t->v[t->n].s = s;
	t->v[t->n].len = len;
	t->v[t->n].pos = *pos;
	t->n++;
	return 0;
}

static inline int
test_dm_is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/* Is the reader at a backslash that continues the line? */
static int
test_dm_at_continuation(const char *p, const char *end)
{
	if (p >= end || *p != '\\')
		return 0;
	p++;
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
		p++;
	return p >= end || *p == '\n';
}

static void
test_dm_advance(const char **p, struct test_dm_pos *pos)
{
	if (**p == '\n') {
		pos->line++;
		pos->col = 1;
	} else {
		pos->col++;
	}
	(*p)++;
}

/*
 * Tokenize from r up to the end of the logical line (or of the text when
 * one_line is 0). Leaves r after the terminating newline.
 */
static int
test_dm_scan(struct test_dm_reader *r, struct test_dm_toks *out, int one_line)
{
	int ret;

	out->n = 0;
	while (r->p < r->end) {
		char c = *r->p;

		if (test_dm_is_blank(c)) {
			test_dm_advance(&r->p, &r->pos);
		} else if (c == '\n') {
			test_dm_advance(&r->p, &r->pos);
			if (one_line && out->n > 0)
				break;
		} else if (test_dm_at_continuation(r->p, r->end)) {
			while (r->p < r->end && *r->p != '\n')
				test_dm_advance(&r->p, &r->pos);
			if (r->p < r->end)
				test_dm_advance(&r->p, &r->pos);
		} else if (c == '#') {
			while (r->p < r->end && *r->p != '\n')
				test_dm_advance(&r->p, &r->pos);
		} else {
			const char *s = r->p;
			struct test_dm_pos pos = r->pos;

			while (r->p < r->end && !test_dm_is_blank(*r->p) && *r->p != '\n' &&
			       !test_dm_at_continuation(r->p, r->end))
				test_dm_advance(&r->p, &r->pos);
			ret = test_dm_toks_push(out, s, (unsigned int)(r->p - s), &pos);
			if (ret < 0)
				return ret;
			out->end = r->pos;
		}
	}
	return out->n > 0 ? 1 : 0;
}

int
test_dm_reader_line(struct test_dm_reader *r, struct test_dm_toks *out)
{
	return test_dm_scan(r, out, 1);
}

int
test_dm_tokenize(const char *text, size_t len, const char *file, unsigned int line,
		 unsigned int col, struct test_dm_toks *out)
{
	struct test_dm_reader r;
	int ret;

	test_dm_reader_init(&r, text, len, file, line, col);
	out->end = r.pos;
	ret = test_dm_scan(&r, out, 0);
	return ret < 0 ? ret : 0;
}

void
test_dm_toks_free(struct test_dm_toks *t)
{
	free(t->v);
	t->v = NULL;
	t->n = 0;
	t->cap = 0;
}

int
test_dm_tok_is(const struct test_dm_tok *t, const char *word)
{
	size_t n = strlen(word);

	return t->len == n && memcmp(t->s, word, n) == 0;
}

void
test_dm_cursor_next(struct test_dm_cursor *c)
{
	if (c->p < c->end)
		test_dm_advance(&c->p, &c->pos);
}

void
test_dm_cursor_skip_blanks(struct test_dm_cursor *c)
{
	while (c->p < c->end) {
		if (test_dm_is_blank(*c->p) || *c->p == '\n') {
			test_dm_advance(&c->p, &c->pos);
		} else if (test_dm_at_continuation(c->p, c->end)) {
			while (c->p < c->end && *c->p != '\n')
				test_dm_advance(&c->p, &c->pos);
			if (c->p < c->end)
				test_dm_advance(&c->p, &c->pos);
		} else {
			break;
		}
	}
}

int
test_dm_tok_verror(struct test_dm_err *err, const struct test_dm_tok *t,
		   const struct test_dm_pos *end, const char *where, const char *fmt, va_list ap)
{
	char text[TEST_DM_ERR_LEN];

	vsnprintf(text, sizeof(text), fmt, ap);
	if (t == NULL)
		return test_dm_err_at(err, end, "unexpected end of %s: %s", where, text);
	return test_dm_err_at(err, &t->pos, "%s", text);
}

static int
test_dm_tok_error(struct test_dm_err *err, const struct test_dm_tok *t,
		  const struct test_dm_pos *end, const char *where, const char *fmt, ...)
	__rte_format_printf(5, 6);

static int
test_dm_tok_error(struct test_dm_err *err, const struct test_dm_tok *t,
		  const struct test_dm_pos *end, const char *where, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = test_dm_tok_verror(err, t, end, where, fmt, ap);
	va_end(ap);
	return ret;
}

int
test_dm_tok_uint(struct test_dm_err *err, const struct test_dm_tok *t,
		 const struct test_dm_pos *end, const char *where, uint64_t max, const char *what,
		 uint64_t *v)
{
	int ret;

	if (t == NULL)
		return test_dm_tok_error(err, t, end, where, "expected %s", what);
	ret = test_dm_parse_uint(t->s, t->len, max, v);
	if (ret == -ERANGE)
		return test_dm_tok_error(err, t, end, where, "%s '%.*s' out of range (max %" PRIu64
					 ")", what, (int)t->len, t->s, max);
	if (ret < 0)
		return test_dm_tok_error(err, t, end, where, "expected %s, got '%.*s'", what,
					 (int)t->len, t->s);
	return 0;
}

int
test_dm_tok_port(struct test_dm_err *err, const struct test_dm_tok *t,
		 const struct test_dm_pos *end, const char *where, uint64_t *v)
{
	uint16_t port = 0;
	int ret = t != NULL ? test_dm_topo_lookup(t->s, t->len, &port) : -ENOENT;

	if (ret == 0) {
		*v = port;
		return 0;
	}
	if (ret == -ENODEV)
		return test_dm_tok_error(err, t, end, where, "no '%.*s' port in this switch "
					 "topology (the PF's uplink is looped)", (int)t->len, t->s);
	if (t != NULL && test_dm_parse_uint(t->s, t->len, UINT64_MAX, v) == -EINVAL)
		return test_dm_tok_error(err, t, end, where, "expected a port number or a switch "
					 "port name (pf, rep0, rep1, vf0, vf1, wire), got '%.*s'",
					 (int)t->len, t->s);
	return test_dm_tok_uint(err, t, end, where, UINT16_MAX, "a port number", v);
}
