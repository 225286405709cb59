/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#ifndef _TEST_DM_CKSUM_H_
#define _TEST_DM_CKSUM_H_

/* The Internet checksum (RFC 1071) and the TCP/UDP/ICMPv6 pseudo-headers. */

#include <stddef.h>
#include <stdint.h>

/** Add @p len bytes to a running 32-bit one's complement sum. */
uint32_t test_dm_cksum_add(uint32_t sum, const uint8_t *p, size_t len);

/** Fold a running sum and complement it: the value to store in a header. */
uint16_t test_dm_cksum_fold(uint32_t sum);

/**
 * Checksum of an upper-layer segment with its pseudo-header.
 *
 * @param ip  the IPv4 or IPv6 header (version read from its first nibble)
 * @param l4  the segment (its checksum field must be zero or excluded by the caller)
 * @param proto  upper-layer protocol number
 */
uint16_t test_dm_cksum_l4(const uint8_t *ip, const uint8_t *l4, size_t len, uint8_t proto);

#endif /* _TEST_DM_CKSUM_H_ */
