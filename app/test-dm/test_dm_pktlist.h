/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#ifndef _TEST_DM_PKTLIST_H_
#define _TEST_DM_PKTLIST_H_

/* A growable list of packets (owned copies of their bytes). */

#include <stddef.h>
#include <stdint.h>

struct test_dm_bytes {
	uint8_t *data;
	uint32_t len;
};

struct test_dm_pktlist {
	struct test_dm_bytes *v;
	unsigned int n;
	unsigned int cap;
};

/** Append a copy of @p len bytes. @return 0 or -ENOMEM. */
int test_dm_pktlist_add(struct test_dm_pktlist *l, const uint8_t *p, size_t len);

void test_dm_pktlist_free(struct test_dm_pktlist *l);

#endif /* _TEST_DM_PKTLIST_H_ */
