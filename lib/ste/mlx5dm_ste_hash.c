/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The device's STE hash: reflected CRC-32 (polynomial 0xEDB88320) with seed
 * 0 and no final xor, byte-swapped, over the hashed tag bytes. Software
 * must reproduce it bit for bit: an entry written at any other index is
 * never found by the hardware.
 *
 * Slice-by-8: one table lookup per input byte, eight independent lookups
 * per 64-bit step, so a 16-byte tag costs two steps.
 */

#include <pthread.h>
#include <string.h>

#include "mlx5dm_ste_priv.h"

#define MLX5DM_STE_CRC_POLY 0xedb88320u

/* crc_tab[k][b]: CRC contribution of byte b followed by k zero bytes. */
static uint32_t mlx5dm_ste_crc_tab[8][256];
static pthread_once_t mlx5dm_ste_crc_once = PTHREAD_ONCE_INIT;

static void
mlx5dm_ste_crc_init_tables(void)
{
	unsigned int i, k;

	for (i = 0; i < 256; i++) {
		uint32_t c = i;

		for (k = 0; k < 8; k++)
			c = (c & 1) ? (c >> 1) ^ MLX5DM_STE_CRC_POLY : c >> 1;
		mlx5dm_ste_crc_tab[0][i] = c;
	}
	for (k = 1; k < 8; k++)
		for (i = 0; i < 256; i++) {
			uint32_t prev = mlx5dm_ste_crc_tab[k - 1][i];

			mlx5dm_ste_crc_tab[k][i] = (prev >> 8) ^ mlx5dm_ste_crc_tab[0][prev & 0xff];
		}
}

/* Little-endian load: the reflected CRC consumes the lowest byte first. */
static inline uint32_t
mlx5dm_ste_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
	       ((uint32_t)p[3] << 24);
}

uint32_t
mlx5dm_ste_crc32(const uint8_t *buf, size_t len)
{
	const uint32_t (*t)[256] = mlx5dm_ste_crc_tab;
	uint32_t crc = 0;

	pthread_once(&mlx5dm_ste_crc_once, mlx5dm_ste_crc_init_tables);
	for (; len >= 8; len -= 8, buf += 8) {
		uint32_t lo = mlx5dm_ste_le32(buf) ^ crc;
		uint32_t hi = mlx5dm_ste_le32(buf + 4);

		crc = t[7][lo & 0xff] ^ t[6][(lo >> 8) & 0xff] ^
		      t[5][(lo >> 16) & 0xff] ^ t[4][lo >> 24] ^
		      t[3][hi & 0xff] ^ t[2][(hi >> 8) & 0xff] ^
		      t[1][(hi >> 16) & 0xff] ^ t[0][hi >> 24];
	}
	for (; len > 0; len--, buf++)
		crc = (crc >> 8) ^ t[0][(crc ^ *buf) & 0xff];
	return crc;
}

uint32_t
mlx5dm_ste_hash(const uint8_t *buf, size_t len)
{
	return __builtin_bswap32(mlx5dm_ste_crc32(buf, len));
}

/*
 * Nibble of a byte mask (bit 3 = first byte) -> 32-bit mask over those four
 * tag bytes as a little-endian load sees them.
 */
static const uint32_t mlx5dm_ste_nibble_mask[16] = {
	0x00000000, 0xff000000, 0x00ff0000, 0xffff0000,
	0x0000ff00, 0xff00ff00, 0x00ffff00, 0xffffff00,
	0x000000ff, 0xff0000ff, 0x00ff00ff, 0xffff00ff,
	0x0000ffff, 0xff00ffff, 0x00ffffff, 0xffffffff,
};

uint32_t
mlx5dm_ste_hash_bwc(const uint8_t *tag, uint16_t byte_mask)
{
	uint32_t w[MLX5DM_STE_TAG_SIZE / 4];
	unsigned int i;

	if (byte_mask == 0)
		return 0;
	/* Only bytes whose mask byte is all-ones take part (bit 15 = byte 0). */
	memcpy(w, tag, sizeof(w));
	for (i = 0; i < MLX5DM_ARRAY_SIZE(w); i++)
		w[i] &= mlx5dm_ste_nibble_mask[(byte_mask >> (12 - 4 * i)) & 0xf];
	return mlx5dm_ste_hash((const uint8_t *)w, sizeof(w));
}

uint32_t
mlx5dm_ste_hash_index_bwc(const uint8_t *tag, uint16_t byte_mask, uint32_t num_entries)
{
	/* Nothing to hash: the device indexes entry 0. */
	if (num_entries <= 1 || byte_mask == 0)
		return 0;
	return mlx5dm_ste_hash_bwc(tag, byte_mask) % num_entries;
}

uint32_t
mlx5dm_ste_hash_index_match(const uint8_t *tag, uint32_t num_entries)
{
	if (num_entries <= 1)
		return 0;
	return mlx5dm_ste_hash(tag, MLX5DM_STE_MATCH_TAG_SIZE) % num_entries;
}
