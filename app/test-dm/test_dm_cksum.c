/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#include "test_dm_cksum.h"

uint32_t
test_dm_cksum_add(uint32_t sum, const uint8_t *p, size_t len)
{
	size_t i;

	for (i = 0; i + 1 < len; i += 2) {
		sum += (uint32_t)(p[i] << 8 | p[i + 1]);
		/* Fold as we go so long segments cannot overflow. */
		sum = (sum & 0xffff) + (sum >> 16);
	}
	if (len & 1)
		sum += (uint32_t)p[len - 1] << 8;
	return sum;
}

uint16_t
test_dm_cksum_fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

uint16_t
test_dm_cksum_l4(const uint8_t *ip, const uint8_t *l4, size_t len, uint8_t proto)
{
	uint8_t tail[8] = { 0 };
	uint32_t sum = 0;

	if ((ip[0] >> 4) == 4) {
		/* src, dst, zero, protocol, length */
		sum = test_dm_cksum_add(sum, ip + 12, 8);
		tail[1] = proto;
		tail[2] = (uint8_t)(len >> 8);
		tail[3] = (uint8_t)len;
		sum = test_dm_cksum_add(sum, tail, 4);
	} else {
		/* src, dst, 32-bit length, 3 zero bytes, next header */
		sum = test_dm_cksum_add(sum, ip + 8, 32);
		tail[2] = (uint8_t)(len >> 8);
		tail[3] = (uint8_t)len;
		tail[7] = proto;
		sum = test_dm_cksum_add(sum, tail, 8);
	}
	return test_dm_cksum_fold(test_dm_cksum_add(sum, l4, len));
}
