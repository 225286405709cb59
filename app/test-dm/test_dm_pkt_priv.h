/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#ifndef _TEST_DM_PKT_PRIV_H_
#define _TEST_DM_PKT_PRIV_H_

/* A parsed packet description, shared by its parser and the builder. */

#include "test_dm_pkt.h"

/** More than any header has fields. */
#define TEST_DM_PFIELDS_MAX 20
/** Most headers in one description. */
#define TEST_DM_PLAYERS_MAX 24

/** A field value given in the description. */
struct test_dm_pval {
	uint8_t set;
	uint8_t range;
	uint64_t lo;		/**< Integer (MAC and IPv4 as integers too). */
	uint64_t hi;		/**< End of a range. */
	uint8_t bytes[16];	/**< IPv6 address. */
};

struct test_dm_player {
	enum test_dm_layer type;
	struct test_dm_pval v[TEST_DM_PFIELDS_MAX];	/**< Indexed like the layer's fields. */
	/* payload() only */
	uint32_t pay_len;
	int pay_fill;		/**< Byte to repeat, -1 for the counting pattern. */
	uint8_t *pay_bytes;	/**< hex= bytes, or NULL. */
};

struct test_dm_pkt_tmpl {
	struct test_dm_player l[TEST_DM_PLAYERS_MAX];
	unsigned int n;
};

#endif /* _TEST_DM_PKT_PRIV_H_ */
