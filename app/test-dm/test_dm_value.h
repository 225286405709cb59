/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#ifndef _TEST_DM_VALUE_H_
#define _TEST_DM_VALUE_H_

/*
 * Scalar value syntax shared by the flow, packet and case parsers.
 * None of these need a NUL-terminated string: they take (s, len).
 */

#include <stddef.h>
#include <stdint.h>

/**
 * Unsigned integer: decimal or 0x-prefixed hexadecimal (a leading 0 does
 * not mean octal).
 *
 * @return 0, -EINVAL (not a number), -ERANGE (greater than @p max).
 */
int test_dm_parse_uint(const char *s, size_t len, uint64_t max, uint64_t *v);

/** Boolean: 0/1, true/false, on/off, yes/no. @return 0 or -EINVAL. */
int test_dm_parse_bool(const char *s, size_t len, int *v);

/** MAC address xx:xx:xx:xx:xx:xx. @return 0 or -EINVAL. */
int test_dm_parse_mac(const char *s, size_t len, uint8_t mac[6]);

/** Dotted-quad IPv4 address, in network byte order. @return 0 or -EINVAL. */
int test_dm_parse_ipv4(const char *s, size_t len, uint8_t ip[4]);

/** IPv6 address in any RFC 4291 text form. @return 0 or -EINVAL. */
int test_dm_parse_ipv6(const char *s, size_t len, uint8_t ip[16]);

/**
 * Byte string as hexadecimal digits (optional 0x prefix, even number of
 * digits), first byte first.
 *
 * @return 0, -EINVAL (bad digit or odd count), -E2BIG (more than @p cap).
 */
int test_dm_parse_hex(const char *s, size_t len, uint8_t *buf, size_t cap, size_t *n);

/** Does (s, len) spell @p word? */
int test_dm_word_is(const char *s, size_t len, const char *word);

#endif /* _TEST_DM_VALUE_H_ */
