/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#ifndef _TEST_DM_FLOW_PRIV_H_
#define _TEST_DM_FLOW_PRIV_H_

/*
 * Internals of the flow command parser: the item and action tables (what
 * testpmd calls tokens) and the parser state they are driven by.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "test_dm_flow.h"
#include "test_dm_pkt.h"

/** How a field's value is written. */
enum test_dm_fkind {
	TEST_DM_FK_UINT,	/**< Integer, host or network order, maybe a bit range. */
	TEST_DM_FK_BOOL,	/**< Integer 0/1 also spelt true/false/on/off. */
	TEST_DM_FK_MAC,		/**< 6 bytes. */
	TEST_DM_FK_IPV4,	/**< 4 bytes, network order. */
	TEST_DM_FK_IPV6,	/**< 16 bytes. */
	TEST_DM_FK_ENUM,	/**< Integer given by name from @p names. */
	TEST_DM_FK_HEX,		/**< Byte string of at most @p size bytes. */
	TEST_DM_FK_HEXPTR,	/**< Byte string stored aside; its address at @p off. */
	TEST_DM_FK_PORT,	/**< Host-order port id, also by role name (test_dm_topo.h). */
};

/** A named field of an item spec or an action configuration. */
struct test_dm_fdesc {
	const char *name;
	uint16_t off;
	uint8_t size;
	uint8_t kind;		/**< enum test_dm_fkind */
	/** Integer in network order; else host order (sizes 2, 4, 8; 1 and 3 are bytes). */
	uint8_t hton;
	/** Bits of the integer this name covers (0: all), e.g. 0x0fff for a VID. */
	uint64_t bits;
	/** For a C bit-field: sets it to 1 in a zeroed object so it can be found. */
	void (*probe)(void *obj);
	/** For TEST_DM_FK_ENUM: names, index = value, NULL-terminated. */
	const char *const *names;
};

/** A field with its bit-field location resolved. */
struct test_dm_field {
	const struct test_dm_fdesc *d;
	uint16_t off;
	uint8_t size;
	uint8_t hton;
	uint64_t bits;
};

/** A pattern item as testpmd names it. */
struct test_dm_idesc {
	const char *name;
	enum rte_flow_item_type type;
	/** Packet header it matches (TEST_DM_L_COUNT: none, e.g. META or GRE_KEY). */
	enum test_dm_layer layer;
	uint16_t size;
	const void *default_mask;
	const struct test_dm_fdesc *fields;
	unsigned int nb_fields;
};

struct test_dm_flow_parser;

/** An action as testpmd names it. */
struct test_dm_adesc {
	const char *name;
	enum rte_flow_action_type type;
	uint16_t conf_size;
	const struct test_dm_fdesc *fields;
	unsigned int nb_fields;
	/** Set the configuration's defaults before its arguments are read. */
	int (*init)(struct test_dm_flow_parser *p, void *conf);
	/** Read arguments itself instead of the generic <field> <value> loop. */
	int (*parse)(struct test_dm_flow_parser *p, struct rte_flow_action *a);
	/** Complete the configuration once the arguments are read. */
	int (*finish)(struct test_dm_flow_parser *p, struct rte_flow_action *a);
};

/** Parser state over one command's tokens. */
struct test_dm_flow_parser {
	struct test_dm_flow_ctx *ctx;
	const struct test_dm_toks *toks;
	unsigned int i;
	struct test_dm_flow_cmd *cmd;
	struct test_dm_err *err;
	/** Token of the action being parsed (for errors found at its end). */
	const struct test_dm_tok *action_tok;
	/** An actions template's mask list: "<action> none" leaves it to the rules. */
	bool mask_list;
	/** Token of each pattern item (for errors found after the pattern). */
	const struct test_dm_tok *item_tok[TEST_DM_FLOW_MAX_ITEMS];
};

const struct test_dm_idesc *test_dm_idesc_find(const char *s, size_t len);
const struct test_dm_idesc *test_dm_idesc_by_type(enum rte_flow_item_type type);
const struct test_dm_adesc *test_dm_adesc_find(const char *s, size_t len);
const struct test_dm_adesc *test_dm_adesc_by_type(enum rte_flow_action_type type);
const struct test_dm_fdesc *test_dm_fdesc_find(const struct test_dm_fdesc *f, unsigned int n,
					       const char *s, size_t len);

/* Token access. */
const struct test_dm_tok *test_dm_flow_parser_peek(const struct test_dm_flow_parser *p);
const struct test_dm_tok *test_dm_flow_parser_next(struct test_dm_flow_parser *p);
int test_dm_flow_parser_peek_is(const struct test_dm_flow_parser *p, const char *word);
/** Error at the current token, or at the end of the command if none is left. */
int test_dm_flow_parser_error(struct test_dm_flow_parser *p, const char *fmt,
			      ...) __rte_format_printf(2, 3);
/** Error at a given token. */
int test_dm_flow_parser_error_at(struct test_dm_flow_parser *p, const struct test_dm_tok *t,
				 const char *fmt, ...) __rte_format_printf(3, 4);
/** Read an unsigned integer token in [0, max]; @p what names it in errors. */
int test_dm_flow_parser_uint(struct test_dm_flow_parser *p, uint64_t max, const char *what,
			     uint64_t *v);

/* Field access. */
void test_dm_field_resolve(const struct test_dm_fdesc *d, size_t obj_size,
			   struct test_dm_field *f);
/** Largest integer a field accepts. */
uint64_t test_dm_field_max(const struct test_dm_field *f);
/** Number of value bits of a field (for "prefix"). */
unsigned int test_dm_field_width(const struct test_dm_field *f);
/** Read the value token of a field and store it into @p obj. */
int test_dm_field_parse(struct test_dm_flow_parser *p, const struct test_dm_field *f, void *obj);
/** Set every bit of the field in @p obj (the mask half of "is"). */
void test_dm_field_fill(const struct test_dm_field *f, void *obj);
/** Set the first @p n bits of the field in @p obj ("prefix"). */
void test_dm_field_prefix(const struct test_dm_field *f, void *obj, unsigned int n);
/** Integer store/load at a field (respecting order and bit range). */
void test_dm_field_store(const struct test_dm_field *f, void *obj, uint64_t v);
uint64_t test_dm_field_load(const struct test_dm_field *f, const void *obj);

/* Pieces of the "flow" grammar (test_dm_flow_parse.c). */
int test_dm_flow_parse_port(struct test_dm_flow_parser *p);
/**
 * One attribute token @p t already read: ingress, egress, transfer, and with
 * @p group also "group N" and "priority N". @return 1 taken, 0 not an attribute, <0.
 */
int test_dm_flow_parse_attr(struct test_dm_flow_parser *p, const struct test_dm_tok *t,
			    struct rte_flow_attr *attr, bool group);
/** Actions up to "end" into a new array *out of *nb entries (END included). */
int test_dm_flow_parse_actions(struct test_dm_flow_parser *p, struct rte_flow_action **out,
			       unsigned int *nb);
/** "<kind> <id> [<kind> <id>]..." to the end, into the command's rules[] (ids). */
int test_dm_flow_parse_ids(struct test_dm_flow_parser *p, const char *kind);
/** "<items> / end actions <actions> / end" into the command's pattern and actions. */
int test_dm_flow_parse_rule(struct test_dm_flow_parser *p);
/**
 * The template API's commands (test_dm_flow_tmpl.c), @p t the word after
 * "flow" (NULL at the end): configure, pattern_template, actions_template,
 * template_table, queue, push, pull; anything else is an error.
 */
int test_dm_flow_parse_tmpl(struct test_dm_flow_parser *p, const struct test_dm_tok *t);

/* Special action parsers (test_dm_flow_actions.c). */
int test_dm_flow_vxlan_encap_conf(struct test_dm_flow_parser *p, struct rte_flow_action *a);

/* "set" commands (test_dm_flow_set.c). */
int test_dm_flow_parse_set(struct test_dm_flow_parser *p);
/** Items of a pattern, up to "end" or "end_set" (@p end_word). */
int test_dm_flow_parse_items(struct test_dm_flow_parser *p, const char *end_word);
/** test_dm_flow_items_to_bytes() that also tells which item was not a header. */
int test_dm_flow_items_bytes(const struct rte_flow_item *items, uint8_t *buf, size_t cap,
			     unsigned int *bad);

#endif /* _TEST_DM_FLOW_PRIV_H_ */
