/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#ifndef _TEST_DM_TEXT_H_
#define _TEST_DM_TEXT_H_

/*
 * Source positions, error messages and the tokenizer shared by every
 * test-dm parser (flow commands, packet descriptions, case files).
 *
 * Every error names "file:line:col" of the offending character and says
 * what was expected, so a case author can jump straight to it.
 */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_common.h>

/** A position in a source text (line and column count from 1). */
struct test_dm_pos {
	const char *file;
	unsigned int line;
	unsigned int col;
};

#define TEST_DM_ERR_LEN 512

/** A parse error: where and what. */
struct test_dm_err {
	struct test_dm_pos pos;
	/** "file:line:col: message". */
	char msg[TEST_DM_ERR_LEN];
};

/**
 * Record an error at @p pos (when @p err is not NULL).
 *
 * @return -EINVAL always, so callers can `return test_dm_err_at(...)`.
 */
int test_dm_err_at(struct test_dm_err *err, const struct test_dm_pos *pos,
		   const char *fmt, ...) __rte_format_printf(3, 4);

/** A whitespace-separated token. Points into the source text. */
struct test_dm_tok {
	const char *s;
	unsigned int len;
	struct test_dm_pos pos;
};

/** A logical line split into tokens. */
struct test_dm_toks {
	struct test_dm_tok *v;
	unsigned int n;
	unsigned int cap;
	/** Position just after the last token (for "unexpected end" errors). */
	struct test_dm_pos end;
};

/**
 * A cursor over a text. Lines may be continued with a backslash right
 * before the newline; '#' starts a comment up to the end of the line when it
 * begins a token.
 */
struct test_dm_reader {
	const char *p;
	const char *end;
	struct test_dm_pos pos;
};

void test_dm_reader_init(struct test_dm_reader *r, const char *text, size_t len,
			 const char *file, unsigned int line, unsigned int col);

/**
 * Read the next non-empty logical line into @p out (previous content is
 * discarded).
 *
 * @return 1 when a line was read, 0 at end of text, -ENOMEM.
 */
int test_dm_reader_line(struct test_dm_reader *r, struct test_dm_toks *out);

/** Tokenize a whole text as if it were one logical line (newlines are blanks). */
int test_dm_tokenize(const char *text, size_t len, const char *file, unsigned int line,
		     unsigned int col, struct test_dm_toks *out);

void test_dm_toks_free(struct test_dm_toks *t);

/** Does token @p t spell exactly @p word? */
int test_dm_tok_is(const struct test_dm_tok *t, const char *word);

/**
 * An error at token @p t; when @p t is NULL (the tokens ran out) at @p end,
 * prefixed "unexpected end of <where>: ".
 *
 * @return -EINVAL
 */
int test_dm_tok_verror(struct test_dm_err *err, const struct test_dm_tok *t,
		       const struct test_dm_pos *end, const char *where, const char *fmt,
		       va_list ap) __rte_format_printf(5, 0);

/**
 * Read an unsigned integer in [0, @p max] from token @p t (NULL: none left);
 * errors name the value @p what.
 *
 * @return 0 or -EINVAL with @p err filled.
 */
int test_dm_tok_uint(struct test_dm_err *err, const struct test_dm_tok *t,
		     const struct test_dm_pos *end, const char *where, uint64_t max,
		     const char *what, uint64_t *v);

/**
 * Read a port from token @p t: a number up to UINT16_MAX or the name of a
 * role of the switch topology (test_dm_topo.h).
 *
 * @return 0 or -EINVAL with @p err filled.
 */
int test_dm_tok_port(struct test_dm_err *err, const struct test_dm_tok *t,
		     const struct test_dm_pos *end, const char *where, uint64_t *v);

/**
 * A character cursor used by the packet description parser: the same
 * position bookkeeping as the reader, but character by character.
 */
struct test_dm_cursor {
	const char *p;
	const char *end;
	struct test_dm_pos pos;
};

/** Skip blanks, newlines and backslash-newline continuations. */
void test_dm_cursor_skip_blanks(struct test_dm_cursor *c);
/** Advance one character, keeping line and column right. */
void test_dm_cursor_next(struct test_dm_cursor *c);
/** Current character, or 0 at the end. */
static inline char
test_dm_cursor_peek(const struct test_dm_cursor *c)
{
	return c->p < c->end ? *c->p : '\0';
}

#endif /* _TEST_DM_TEXT_H_ */
