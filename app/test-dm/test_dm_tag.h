/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#ifndef _TEST_DM_TAG_H_
#define _TEST_DM_TAG_H_

/*
 * Packet tags: the last 8 bytes of a packet sent in bursts say which packet
 * it is (a magic word and its number, counted across bursts). Rules change headers at
 * the front (rewrites, encap, decap, VLAN push/pop), never the tail, so the
 * tag survives whatever the steering does and pairs each received packet
 * with the one sent, without waiting for packets one by one.
 */

#include <stddef.h>
#include <stdint.h>

#define TEST_DM_TAG_LEN 8
#define TEST_DM_TAG_MAGIC 0x7e57d07aU

static inline void
test_dm_tag_write(uint8_t *end, uint32_t index)
{
	uint8_t *t = end - TEST_DM_TAG_LEN;
	unsigned int i;

	for (i = 0; i < 4; i++) {
		t[i] = (uint8_t)(TEST_DM_TAG_MAGIC >> (24 - 8 * i));
		t[4 + i] = (uint8_t)(index >> (24 - 8 * i));
	}
}

/** Index carried by the packet's tag, or -1 when it has none. */
static inline int64_t
test_dm_tag_read(const uint8_t *p, size_t len)
{
	const uint8_t *t = p + len - TEST_DM_TAG_LEN;
	uint32_t magic = 0, index = 0;
	unsigned int i;

	if (len < TEST_DM_TAG_LEN)
		return -1;
	for (i = 0; i < 4; i++) {
		magic = magic << 8 | t[i];
		index = index << 8 | t[4 + i];
	}
	return magic == TEST_DM_TAG_MAGIC ? (int64_t)index : -1;
}

#endif /* _TEST_DM_TAG_H_ */
