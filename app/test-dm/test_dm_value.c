/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#include <arpa/inet.h>
#include <errno.h>
#include <string.h>

#include <rte_common.h>

#include "test_dm_value.h"

static int
test_dm_hexdigit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int
test_dm_word_is(const char *s, size_t len, const char *word)
{
	size_t n = strlen(word);

	return len == n && memcmp(s, word, n) == 0;
}

int
test_dm_parse_uint(const char *s, size_t len, uint64_t max, uint64_t *v)
{
	unsigned int base = 10;
	uint64_t acc = 0;
	size_t i = 0;
	int overflow = 0;

	if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		i = 2;
	}
	if (i == len)
		return -EINVAL;
	for (; i < len; i++) {
		int d = test_dm_hexdigit(s[i]);

		if (d < 0 || (unsigned int)d >= base)
			return -EINVAL;
		if (acc > (UINT64_MAX - (uint64_t)d) / base)
			overflow = 1;
		acc = acc * base + (uint64_t)d;
	}
	if (overflow || acc > max)
		return -ERANGE;
	*v = acc;
	return 0;
}

int
test_dm_parse_bool(const char *s, size_t len, int *v)
{
	static const char *const yes[] = { "1", "true", "on", "yes" };
	static const char *const no[] = { "0", "false", "off", "no" };
	unsigned int i;

	for (i = 0; i < RTE_DIM(yes); i++) {
		if (test_dm_word_is(s, len, yes[i])) {
			*v = 1;
			return 0;
		}
		if (test_dm_word_is(s, len, no[i])) {
			*v = 0;
			return 0;
		}
	}
	return -EINVAL;
}

int
test_dm_parse_mac(const char *s, size_t len, uint8_t mac[6])
{
	unsigned int i;

	/* Exactly six groups of two hex digits separated by ':'. */
	if (len != 17)
		return -EINVAL;
	for (i = 0; i < 6; i++) {
		int hi = test_dm_hexdigit(s[i * 3]);
		int lo = test_dm_hexdigit(s[i * 3 + 1]);

		if (hi < 0 || lo < 0 || (i < 5 && s[i * 3 + 2] != ':'))
			return -EINVAL;
		mac[i] = (uint8_t)(hi << 4 | lo);
	}
	return 0;
}

static int
test_dm_pton(int af, const char *s, size_t len, void *out)
{
	char buf[64];

	if (len == 0 || len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, len);
	buf[len] = '\0';
	return inet_pton(af, buf, out) == 1 ? 0 : -EINVAL;
}

int
test_dm_parse_ipv4(const char *s, size_t len, uint8_t ip[4])
{
	return test_dm_pton(AF_INET, s, len, ip);
}

int
test_dm_parse_ipv6(const char *s, size_t len, uint8_t ip[16])
{
	return test_dm_pton(AF_INET6, s, len, ip);
}

int
test_dm_parse_hex(const char *s, size_t len, uint8_t *buf, size_t cap, size_t *n)
{
	size_t i;

	if (len >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		len -= 2;
	}
	if (len == 0 || len % 2 != 0)
		return -EINVAL;
	if (len / 2 > cap)
		return -E2BIG;
	for (i = 0; i < len; i += 2) {
		int hi = test_dm_hexdigit(s[i]);
		int lo = test_dm_hexdigit(s[i + 1]);

		if (hi < 0 || lo < 0)
			return -EINVAL;
		buf[i / 2] = (uint8_t)(hi << 4 | lo);
	}
	*n = len / 2;
	return 0;
}
