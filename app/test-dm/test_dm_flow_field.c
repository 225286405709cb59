/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Reading and writing one named field of an item spec/last/mask or of an
 * action configuration, the way testpmd stores it.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_debug.h>

#include "test_dm_flow_priv.h"
#include "test_dm_value.h"

/* Big enough for every item spec and action configuration we describe. */
#define TEST_DM_PROBE_MAX 128

void
test_dm_field_resolve(const struct test_dm_fdesc *d, size_t obj_size, struct test_dm_field *f)
{
	uint8_t tmp[TEST_DM_PROBE_MAX];
	unsigned int i;
	uint32_t word;

	f->d = d;
	f->off = d->off;
	f->size = d->size;
	f->hton = d->hton;
	f->bits = d->bits;
	if (d->probe == NULL)
		return;
	/* A C bit-field has no address: set it and see which bit moved. */
	RTE_VERIFY(obj_size <= sizeof(tmp));
	memset(tmp, 0, sizeof(tmp));
	d->probe(tmp);
	for (i = 0; i < obj_size && tmp[i] == 0; i++)
		;
	RTE_VERIFY(i < obj_size);
	f->off = (uint16_t)(i & ~3u);
	memcpy(&word, tmp + f->off, sizeof(word));
	f->size = 4;
	f->hton = 0;
	f->bits = word;
}

/* Host-order integers of the sizes C has; network order of any size. */
static uint64_t
test_dm_raw_load(const struct test_dm_field *f, const void *obj)
{
	const uint8_t *b = (const uint8_t *)obj + f->off;
	uint64_t v = 0;
	uint32_t v32;
	uint16_t v16;
	unsigned int i;

	if (f->hton || f->size == 1 || f->size == 3) {
		for (i = 0; i < f->size; i++)
			v = v << 8 | b[i];
		return v;
	}
	switch (f->size) {
	case 2:
		memcpy(&v16, b, 2);
		return v16;
	case 4:
		memcpy(&v32, b, 4);
		return v32;
	default:
		memcpy(&v, b, 8);
		return v;
	}
}

static void
test_dm_raw_store(const struct test_dm_field *f, void *obj, uint64_t v)
{
	uint8_t *b = (uint8_t *)obj + f->off;
	uint32_t v32 = (uint32_t)v;
	uint16_t v16 = (uint16_t)v;
	unsigned int i;

	if (f->hton || f->size == 1 || f->size == 3) {
		for (i = f->size; i > 0; i--, v >>= 8)
			b[i - 1] = (uint8_t)v;
		return;
	}
	switch (f->size) {
	case 2:
		memcpy(b, &v16, 2);
		break;
	case 4:
		memcpy(b, &v32, 4);
		break;
	default:
		memcpy(b, &v, 8);
		break;
	}
}

uint64_t
test_dm_field_max(const struct test_dm_field *f)
{
	if (f->bits != 0)
		return f->bits >> __builtin_ctzll(f->bits);
	if (f->size >= 8)
		return UINT64_MAX;
	return (UINT64_C(1) << (8 * f->size)) - 1;
}

unsigned int
test_dm_field_width(const struct test_dm_field *f)
{
	if (f->bits != 0)
		return (unsigned int)__builtin_popcountll(f->bits);
	return 8u * f->size;
}

void
test_dm_field_store(const struct test_dm_field *f, void *obj, uint64_t v)
{
	uint64_t raw;

	if (f->bits == 0) {
		test_dm_raw_store(f, obj, v);
		return;
	}
	raw = test_dm_raw_load(f, obj);
	raw = (raw & ~f->bits) | ((v << __builtin_ctzll(f->bits)) & f->bits);
	test_dm_raw_store(f, obj, raw);
}

uint64_t
test_dm_field_load(const struct test_dm_field *f, const void *obj)
{
	uint64_t raw = test_dm_raw_load(f, obj);

	if (f->bits == 0)
		return raw;
	return (raw & f->bits) >> __builtin_ctzll(f->bits);
}

static int
test_dm_field_is_bytes(const struct test_dm_field *f)
{
	return f->d->kind == TEST_DM_FK_MAC || f->d->kind == TEST_DM_FK_IPV4 ||
	       f->d->kind == TEST_DM_FK_IPV6 || f->d->kind == TEST_DM_FK_HEX;
}

void
test_dm_field_fill(const struct test_dm_field *f, void *obj)
{
	if (test_dm_field_is_bytes(f) || f->bits == 0)
		memset((uint8_t *)obj + f->off, 0xff, f->size);
	else
		test_dm_field_store(f, obj, test_dm_field_max(f));
}

void
test_dm_field_prefix(const struct test_dm_field *f, void *obj, unsigned int n)
{
	unsigned int w = test_dm_field_width(f), i;
	uint8_t *b = (uint8_t *)obj + f->off;

	if (test_dm_field_is_bytes(f)) {
		memset(b, 0, f->size);
		for (i = 0; i < n; i++)
			b[i / 8] |= (uint8_t)(0x80 >> (i % 8));
		return;
	}
	if (n == 0)
		test_dm_field_store(f, obj, 0);
	else
		test_dm_field_store(f, obj, (test_dm_field_max(f) >> (w - n)) << (w - n));
}

static int
test_dm_field_parse_enum(struct test_dm_flow_parser *p, const struct test_dm_field *f,
			 const struct test_dm_tok *t, void *obj)
{
	char list[400];
	size_t used = 0;
	unsigned int i;

	for (i = 0; f->d->names[i] != NULL; i++) {
		if (test_dm_tok_is(t, f->d->names[i])) {
			test_dm_field_store(f, obj, i);
			return 0;
		}
	}
	list[0] = '\0';
	for (i = 0; f->d->names[i] != NULL && used < sizeof(list); i++)
		used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s",
					 i != 0 ? ", " : "", f->d->names[i]);
	return test_dm_flow_parser_error_at(p, t, "expected one of %s for '%s', got '%.*s'", list,
					    f->d->name, (int)t->len, t->s);
}

static int
test_dm_field_parse_hex(struct test_dm_flow_parser *p, const struct test_dm_field *f,
			const struct test_dm_tok *t, void *obj)
{
	uint8_t buf[TEST_DM_RAW_MAX];
	size_t n, cap = f->d->kind == TEST_DM_FK_HEX ? f->size : sizeof(buf);
	void *copy;
	int ret;

	ret = test_dm_parse_hex(t->s, t->len, buf, cap, &n);
	if (ret == -E2BIG)
		return test_dm_flow_parser_error_at(p, t, "'%s' takes at most %zu bytes",
						    f->d->name, cap);
	if (ret < 0)
		return test_dm_flow_parser_error_at(p, t, "expected hexadecimal bytes for '%s', "
						    "got '%.*s'", f->d->name, (int)t->len, t->s);
	if (f->d->kind == TEST_DM_FK_HEX) {
		memcpy((uint8_t *)obj + f->off, buf, n);
		return 0;
	}
	copy = test_dm_arena_memdup(&p->cmd->arena, buf, n);
	if (copy == NULL)
		return -ENOMEM;
	memcpy((uint8_t *)obj + f->off, &copy, sizeof(copy));
	return 0;
}

int
test_dm_field_parse(struct test_dm_flow_parser *p, const struct test_dm_field *f, void *obj)
{
	static const char *const what[] = {
		[TEST_DM_FK_MAC] = "a MAC address",
		[TEST_DM_FK_IPV4] = "an IPv4 address",
		[TEST_DM_FK_IPV6] = "an IPv6 address",
	};
	const struct test_dm_tok *t = test_dm_flow_parser_next(p);
	uint8_t *dst = (uint8_t *)obj + f->off;
	uint64_t v;
	int b, ret;

	if (t == NULL || test_dm_tok_is(t, "/"))
		return test_dm_flow_parser_error_at(p, t, "expected a value for '%s'", f->d->name);
	switch (f->d->kind) {
	case TEST_DM_FK_PORT:
		ret = test_dm_tok_port(p->err, t, &p->toks->end, "command", &v);
		if (ret < 0)
			return ret;
		if (v > test_dm_field_max(f))
			return test_dm_flow_parser_error_at(p, t,
							    "port '%.*s' out of range for '%s'",
							    (int)t->len, t->s, f->d->name);
		test_dm_field_store(f, obj, v);
		return 0;
	case TEST_DM_FK_UINT:
		ret = test_dm_parse_uint(t->s, t->len, test_dm_field_max(f), &v);
		if (ret == -ERANGE)
			return test_dm_flow_parser_error_at(p, t,
							    "value '%.*s' out of range for '%s' "
							    "(max %" PRIu64 ")",
							    (int)t->len, t->s, f->d->name,
							    test_dm_field_max(f));
		if (ret < 0)
			return test_dm_flow_parser_error_at(p, t, "expected an unsigned integer "
							    "for '%s', got '%.*s'", f->d->name,
							    (int)t->len, t->s);
		test_dm_field_store(f, obj, v);
		return 0;
	case TEST_DM_FK_BOOL:
		if (test_dm_parse_bool(t->s, t->len, &b) < 0)
			return test_dm_flow_parser_error_at(p, t,
							    "expected 0 or 1 for '%s', got '%.*s'",
							    f->d->name, (int)t->len, t->s);
		test_dm_field_store(f, obj, (uint64_t)b);
		return 0;
	case TEST_DM_FK_MAC:
		ret = test_dm_parse_mac(t->s, t->len, dst);
		break;
	case TEST_DM_FK_IPV4:
		ret = test_dm_parse_ipv4(t->s, t->len, dst);
		break;
	case TEST_DM_FK_IPV6:
		ret = test_dm_parse_ipv6(t->s, t->len, dst);
		break;
	case TEST_DM_FK_ENUM:
		return test_dm_field_parse_enum(p, f, t, obj);
	default:
		return test_dm_field_parse_hex(p, f, t, obj);
	}
	if (ret < 0)
		return test_dm_flow_parser_error_at(p, t, "expected %s for '%s', got '%.*s'",
						    what[f->d->kind], f->d->name, (int)t->len,
						    t->s);
	return 0;
}
