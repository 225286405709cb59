/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The packet description language:
 *
 *   packet := header ( "/" header )*
 *   header := name [ "(" [ arg ( "," arg )* ] ")" ]
 *   arg    := field "=" value | value           (the bare value: payload length)
 *   value  := single | single ".." single       (a range, see test_dm_pkt.h)
 *
 * Blanks may appear between any two symbols, and a line may be continued
 * with a backslash.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_dm_pkt_priv.h"
#include "test_dm_value.h"

struct test_dm_word {
	const char *s;
	size_t len;
	struct test_dm_pos pos;
};

static int
test_dm_is_stop(char c)
{
	return c == '\0' || c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ',' ||
	       c == '(' || c == ')' || c == '/' || c == '=' || c == '\\';
}

static void
test_dm_cursor_word(struct test_dm_cursor *c, struct test_dm_word *w)
{
	test_dm_cursor_skip_blanks(c);
	w->s = c->p;
	w->pos = c->pos;
	while (!test_dm_is_stop(test_dm_cursor_peek(c)))
		test_dm_cursor_next(c);
	w->len = (size_t)(c->p - w->s);
}

static uint64_t
test_dm_width_max(unsigned int width)
{
	return width >= 64 ? UINT64_MAX : (UINT64_C(1) << width) - 1;
}

static int
test_dm_tcpflags_parse(const char *s, size_t len, uint64_t *v)
{
	static const char letters[] = "FSRPAUEC";
	const char *l;
	size_t i;

	*v = 0;
	for (i = 0; i < len; i++) {
		l = strchr(letters, s[i]);
		if (l == NULL || s[i] == '\0')
			return -EINVAL;
		*v |= 1u << (l - letters);
	}
	return len > 0 ? 0 : -EINVAL;
}

/* One value (no range) of field @p f: integers in *v, IPv6 in bytes. */
static int
test_dm_pval_one(const struct test_dm_pfield *f, const char *s, size_t len, uint64_t *v,
		 uint8_t bytes[16])
{
	uint8_t b[6];
	unsigned int i;

	switch (f->kind) {
	case TEST_DM_PK_MAC:
		if (test_dm_parse_mac(s, len, b) < 0)
			return -EINVAL;
		for (*v = 0, i = 0; i < 6; i++)
			*v = *v << 8 | b[i];
		return 0;
	case TEST_DM_PK_IPV4:
		if (test_dm_parse_ipv4(s, len, b) < 0)
			return -EINVAL;
		for (*v = 0, i = 0; i < 4; i++)
			*v = *v << 8 | b[i];
		return 0;
	case TEST_DM_PK_IPV6:
		return test_dm_parse_ipv6(s, len, bytes);
	case TEST_DM_PK_TCPFLAGS:
		if (len > 0 && s[0] >= 'A' && s[0] <= 'Z')
			return test_dm_tcpflags_parse(s, len, v);
		/* fall through */
	default:
		return test_dm_parse_uint(s, len, test_dm_width_max(f->width), v);
	}
}

int
test_dm_fval_parse(const struct test_dm_pfield *f, const char *s, size_t len,
		   struct test_dm_fval *out)
{
	memset(out, 0, sizeof(*out));
	out->kind = f->kind;
	out->nbytes = f->kind == TEST_DM_PK_IPV6 ? 16 : 0;
	return test_dm_pval_one(f, s, len, &out->v, out->bytes) < 0 ? -EINVAL : 0;
}

static const char *
test_dm_kind_what(const struct test_dm_pfield *f)
{
	static const char *const what[] = {
		[TEST_DM_PK_UINT] = "an unsigned integer",
		[TEST_DM_PK_MAC] = "a MAC address",
		[TEST_DM_PK_IPV4] = "an IPv4 address",
		[TEST_DM_PK_IPV6] = "an IPv6 address",
		[TEST_DM_PK_TCPFLAGS] = "TCP flags (letters FSRPAUEC or a number)",
	};

	return what[f->kind];
}

static int
test_dm_pval_parse(const struct test_dm_pfield *f, const struct test_dm_word *w,
		   struct test_dm_pval *v, struct test_dm_err *err)
{
	const char *dots = NULL;
	size_t i;
	int ret;

	for (i = 0; i + 1 < w->len; i++)
		if (w->s[i] == '.' && w->s[i + 1] == '.')
			dots = w->s + i;
	if (dots != NULL && f->kind == TEST_DM_PK_IPV6)
		return test_dm_err_at(err, &w->pos, "ranges are not supported for IPv6 field "
				      "'%s'", f->name);
	ret = test_dm_pval_one(f, w->s, dots != NULL ? (size_t)(dots - w->s) : w->len, &v->lo,
			       v->bytes);
	if (ret == 0 && dots != NULL) {
		v->range = 1;
		ret = test_dm_pval_one(f, dots + 2, w->len - (size_t)(dots + 2 - w->s), &v->hi,
				       v->bytes);
	}
	if (ret == -ERANGE)
		return test_dm_err_at(err, &w->pos, "value '%.*s' out of range for '%s' (%u bits)",
				      (int)w->len, w->s, f->name, f->width);
	if (ret < 0)
		return test_dm_err_at(err, &w->pos, "expected %s for '%s', got '%.*s'",
				      test_dm_kind_what(f), f->name, (int)w->len, w->s);
	if (v->range && v->hi < v->lo)
		return test_dm_err_at(err, &w->pos, "empty range '%.*s' for '%s'", (int)w->len,
				      w->s, f->name);
	v->set = 1;
	return 0;
}

static int
test_dm_payload_arg(struct test_dm_player *l, const struct test_dm_word *key,
		    const struct test_dm_word *val, struct test_dm_err *err)
{
	uint8_t buf[TEST_DM_PKT_MAX];
	uint64_t v;
	size_t n;

	if (key == NULL || test_dm_word_is(key->s, key->len, "len")) {
		if (test_dm_parse_uint(val->s, val->len, TEST_DM_PKT_MAX, &v) < 0)
			return test_dm_err_at(err, &val->pos, "expected a payload length up to %u, "
					      "got '%.*s'", TEST_DM_PKT_MAX, (int)val->len,
					      val->s);
		l->pay_len = (uint32_t)v;
		return 0;
	}
	if (test_dm_word_is(key->s, key->len, "fill")) {
		if (test_dm_parse_uint(val->s, val->len, UINT8_MAX, &v) < 0)
			return test_dm_err_at(err, &val->pos, "expected a byte value for 'fill', "
					      "got '%.*s'", (int)val->len, val->s);
		l->pay_fill = (int)v;
		return 0;
	}
	if (test_dm_word_is(key->s, key->len, "hex")) {
		if (test_dm_parse_hex(val->s, val->len, buf, sizeof(buf), &n) < 0)
			return test_dm_err_at(err, &val->pos, "expected hexadecimal bytes for "
					      "'hex', got '%.*s'", (int)val->len, val->s);
		free(l->pay_bytes);
		l->pay_bytes = malloc(n);
		if (l->pay_bytes == NULL)
			return -ENOMEM;
		memcpy(l->pay_bytes, buf, n);
		l->pay_len = (uint32_t)n;
		return 0;
	}
	return test_dm_err_at(err, &key->pos, "unknown argument '%.*s' of 'payload'; expected "
			      "len, fill or hex", (int)key->len, key->s);
}

static void
test_dm_names(const struct test_dm_layer_desc *d, char *buf, size_t size)
{
	size_t used = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < d->nb_fields && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used, "%s%s", i != 0 ? ", " : "",
					 d->fields[i].name);
}

static int
test_dm_layer_arg(struct test_dm_cursor *c, const struct test_dm_layer_desc *d,
		  struct test_dm_player *l, struct test_dm_err *err)
{
	const struct test_dm_pfield *f;
	struct test_dm_word key, val;
	char names[256];

	test_dm_cursor_word(c, &key);
	if (key.len == 0)
		return test_dm_err_at(err, &key.pos, "expected a field name of '%s'", d->name);
	test_dm_cursor_skip_blanks(c);
	if (test_dm_cursor_peek(c) != '=') {
		if (d->type == TEST_DM_L_PAYLOAD)
			return test_dm_payload_arg(l, NULL, &key, err);
		return test_dm_err_at(err, &c->pos, "expected '=' after '%.*s'", (int)key.len,
				      key.s);
	}
	test_dm_cursor_next(c);
	test_dm_cursor_word(c, &val);
	if (val.len == 0)
		return test_dm_err_at(err, &val.pos, "expected a value for '%.*s'", (int)key.len,
				      key.s);
	if (d->type == TEST_DM_L_PAYLOAD)
		return test_dm_payload_arg(l, &key, &val, err);
	f = test_dm_pfield_find(d, key.s, key.len);
	if (f == NULL) {
		test_dm_names(d, names, sizeof(names));
		return test_dm_err_at(err, &key.pos, "unknown field '%.*s' of '%s'; expected %s",
				      (int)key.len, key.s, d->name, names);
	}
	if (l->v[f - d->fields].set)
		return test_dm_err_at(err, &key.pos, "field '%s' given twice", f->name);
	return test_dm_pval_parse(f, &val, &l->v[f - d->fields], err);
}

static int
test_dm_layer_args(struct test_dm_cursor *c, const struct test_dm_layer_desc *d,
		   struct test_dm_player *l, struct test_dm_err *err)
{
	int ret;
	char ch;

	test_dm_cursor_skip_blanks(c);
	if (test_dm_cursor_peek(c) == ')') {
		test_dm_cursor_next(c);
		return 0;
	}
	for (;;) {
		ret = test_dm_layer_arg(c, d, l, err);
		if (ret < 0)
			return ret;
		test_dm_cursor_skip_blanks(c);
		ch = test_dm_cursor_peek(c);
		if (ch != ',' && ch != ')')
			return test_dm_err_at(err, &c->pos, "expected ',' or ')' in '%s(...)'",
					      d->name);
		test_dm_cursor_next(c);
		if (ch == ')')
			return 0;
	}
}

static void
test_dm_layer_list(char *buf, size_t size)
{
	size_t used = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < TEST_DM_L_COUNT && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used, "%s%s", i != 0 ? ", " : "",
					 test_dm_layer_get(i)->name);
}

int
test_dm_pkt_parse(const char *text, size_t len, const struct test_dm_pos *pos,
		  struct test_dm_pkt_tmpl **out, struct test_dm_err *err)
{
	struct test_dm_cursor c = { .p = text, .end = text + len, .pos = *pos };
	const struct test_dm_layer_desc *d;
	struct test_dm_pkt_tmpl *t;
	struct test_dm_player *l;
	struct test_dm_word w;
	char names[256];
	int ret = 0;

	t = calloc(1, sizeof(*t));
	if (t == NULL)
		return -ENOMEM;
	for (;;) {
		test_dm_cursor_word(&c, &w);
		d = w.len != 0 ? test_dm_layer_find(w.s, w.len) : NULL;
		if (d == NULL) {
			test_dm_layer_list(names, sizeof(names));
			ret = w.len == 0 ?
				test_dm_err_at(err, &w.pos, "expected a header (%s)", names) :
				test_dm_err_at(err, &w.pos, "unknown header '%.*s'; expected %s",
					       (int)w.len, w.s, names);
			break;
		}
		if (t->n == TEST_DM_PLAYERS_MAX) {
			ret = test_dm_err_at(err, &w.pos, "too many headers (max %u)",
					     TEST_DM_PLAYERS_MAX);
			break;
		}
		l = &t->l[t->n++];
		l->type = d->type;
		l->pay_fill = -1;
		test_dm_cursor_skip_blanks(&c);
		if (test_dm_cursor_peek(&c) == '(') {
			test_dm_cursor_next(&c);
			ret = test_dm_layer_args(&c, d, l, err);
			if (ret < 0)
				break;
		}
		test_dm_cursor_skip_blanks(&c);
		if (c.p >= c.end)
			break;
		if (test_dm_cursor_peek(&c) != '/') {
			ret = test_dm_err_at(err, &c.pos, "expected '/' or the end of the packet, "
					     "got '%c'", test_dm_cursor_peek(&c));
			break;
		}
		test_dm_cursor_next(&c);
	}
	if (ret < 0) {
		test_dm_pkt_tmpl_free(t);
		return ret;
	}
	*out = t;
	return 0;
}

int
test_dm_pkt_parse_str(const char *text, const char *file, unsigned int line,
		      struct test_dm_pkt_tmpl **out, struct test_dm_err *err)
{
	struct test_dm_pos pos = { .file = file, .line = line, .col = 1 };

	return test_dm_pkt_parse(text, strlen(text), &pos, out, err);
}

void
test_dm_pkt_tmpl_free(struct test_dm_pkt_tmpl *t)
{
	unsigned int i;

	if (t == NULL)
		return;
	for (i = 0; i < t->n; i++)
		free(t->l[i].pay_bytes);
	free(t);
}

uint64_t
test_dm_pkt_variants(const struct test_dm_pkt_tmpl *t)
{
	uint64_t n = 1;
	unsigned int i, j;

	for (i = 0; i < t->n; i++)
		for (j = 0; j < TEST_DM_PFIELDS_MAX; j++)
			if (t->l[i].v[j].range && t->l[i].v[j].hi - t->l[i].v[j].lo + 1 > n)
				n = t->l[i].v[j].hi - t->l[i].v[j].lo + 1;
	return n;
}
