/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#ifndef _TEST_DM_BITS_H_
#define _TEST_DM_BITS_H_

/*
 * Network-order bit fields: bit 0 is the most significant bit of byte 0,
 * as header diagrams number them. Widths up to 64 bits.
 */

#include <stdint.h>

static inline uint64_t
test_dm_bits_get(const uint8_t *b, unsigned int bit, unsigned int width)
{
	uint64_t v = 0;
	unsigned int i;

	for (i = bit; i < bit + width; i++)
		v = v << 1 | ((b[i / 8] >> (7 - i % 8)) & 1u);
	return v;
}

static inline void
test_dm_bits_set(uint8_t *b, unsigned int bit, unsigned int width, uint64_t v)
{
	unsigned int i;

	for (i = bit + width; i > bit; i--, v >>= 1) {
		uint8_t m = (uint8_t)(0x80u >> ((i - 1) % 8));

		if (v & 1)
			b[(i - 1) / 8] |= m;
		else
			b[(i - 1) / 8] &= (uint8_t)~m;
	}
}

#endif /* _TEST_DM_BITS_H_ */
