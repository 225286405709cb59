/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The hash the device uses to index a steering hash table (rdma-core
 * dr_ste.c, dr_ste_calc_hash_index()): reflected CRC-32 with polynomial
 * 0xEDB88320, initial value 0 and no final xor, over the 16-byte field
 * vector with the bytes not selected by the pointing STE's byte_mask
 * zeroed, then byte-swapped. The index is that value modulo the
 * (power-of-two) table size.
 */

#include <pthread.h>
#include <string.h>

#include "mlx5dm_sim_engine_priv.h"

/* CRC of one byte through the reflected polynomial, 8 shifts. */
static uint32_t
mlx5dm_sim_crc32_byte(uint32_t crc)
{
	unsigned int k;

	for (k = 0; k < 8; k++)
		crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
	return crc;
}

/*
 * Tables filled once on first use from any thread: the CRC of a byte
 * followed by k zero bytes in [k] (slicing by 8: eight bytes a step, the
 * field vector in two), and in expand[m] the 8-byte mask of byte-mask bits
 * m (bit 7 = the first byte).
 */
static uint32_t mlx5dm_sim_crc_tbl[8][256];
static uint64_t mlx5dm_sim_crc_expand[256];
static pthread_once_t mlx5dm_sim_crc_once = PTHREAD_ONCE_INIT;

static void
mlx5dm_sim_crc32_init(void)
{
	unsigned int i, k;

	for (i = 0; i < 256; i++) {
		uint64_t m = 0;

		mlx5dm_sim_crc_tbl[0][i] = mlx5dm_sim_crc32_byte(i);
		for (k = 0; k < 8; k++)
			if (i & (0x80u >> k))
				m |= (uint64_t)0xff << (8 * k);
		mlx5dm_sim_crc_expand[i] = m;
	}
	for (k = 1; k < 8; k++)
		for (i = 0; i < 256; i++)
			mlx5dm_sim_crc_tbl[k][i] = (mlx5dm_sim_crc_tbl[k - 1][i] >> 8) ^
				mlx5dm_sim_crc_tbl[0][mlx5dm_sim_crc_tbl[k - 1][i] & 0xffu];
}

/* crc through the 8 bytes whose little-endian value is x (the first byte lowest). */
static uint32_t
mlx5dm_sim_crc32_word(uint32_t crc, uint64_t x)
{
	const uint32_t (*t)[256] = mlx5dm_sim_crc_tbl;

	x ^= crc;
	return t[7][x & 0xff] ^ t[6][(x >> 8) & 0xff] ^ t[5][(x >> 16) & 0xff] ^
	       t[4][(x >> 24) & 0xff] ^ t[3][(x >> 32) & 0xff] ^ t[2][(x >> 40) & 0xff] ^
	       t[1][(x >> 48) & 0xff] ^ t[0][x >> 56];
}

static uint64_t
mlx5dm_sim_le64(const uint8_t *b)
{
	uint64_t x;

	memcpy(&x, b, sizeof(x));
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	x = __builtin_bswap64(x);
#endif
	return x;
}

uint32_t
mlx5dm_sim_crc32(const uint8_t *buf, unsigned int len)
{
	uint32_t crc = 0; /* seed 0, no final xor */
	unsigned int i = 0;

	pthread_once(&mlx5dm_sim_crc_once, mlx5dm_sim_crc32_init);
	for (; i + 8 <= len; i += 8)
		crc = mlx5dm_sim_crc32_word(crc, mlx5dm_sim_le64(buf + i));
	for (; i < len; i++)
		crc = (crc >> 8) ^ mlx5dm_sim_crc_tbl[0][(crc ^ buf[i]) & 0xffu];
	return crc;
}

uint32_t
mlx5dm_sim_hash(const uint8_t v[MLX5DM_SIM_FV_LEN], uint16_t byte_mask)
{
	uint32_t crc;

	/* Every hashed table lookup of a walk comes here: the vector's two words, masked. */
	pthread_once(&mlx5dm_sim_crc_once, mlx5dm_sim_crc32_init);
	crc = mlx5dm_sim_crc32_word(0, mlx5dm_sim_le64(v) & mlx5dm_sim_crc_expand[byte_mask >> 8]);
	crc = mlx5dm_sim_crc32_word(crc, mlx5dm_sim_le64(v + 8) &
				    mlx5dm_sim_crc_expand[byte_mask & 0xffu]);
	return __builtin_bswap32(crc);
}
