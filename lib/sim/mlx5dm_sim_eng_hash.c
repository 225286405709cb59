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

#include "mlx5dm_sim_eng_priv.h"

/* CRC of one byte through the reflected polynomial, 8 shifts. */
static uint32_t
mlx5dm_sim_crc32_byte(uint32_t crc)
{
	unsigned int k;

	for (k = 0; k < 8; k++)
		crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
	return crc;
}

/* Byte-at-a-time table, filled once on first use from any thread. */
static uint32_t mlx5dm_sim_crc_tbl[256];
static pthread_once_t mlx5dm_sim_crc_once = PTHREAD_ONCE_INIT;

static void
mlx5dm_sim_crc32_init(void)
{
	unsigned int i;

	for (i = 0; i < 256; i++)
		mlx5dm_sim_crc_tbl[i] = mlx5dm_sim_crc32_byte(i);
}

uint32_t
mlx5dm_sim_crc32(const uint8_t *buf, unsigned int len)
{
	uint32_t crc = 0; /* seed 0, no final xor */
	unsigned int i;

	pthread_once(&mlx5dm_sim_crc_once, mlx5dm_sim_crc32_init);
	for (i = 0; i < len; i++)
		crc = (crc >> 8) ^ mlx5dm_sim_crc_tbl[(crc ^ buf[i]) & 0xffu];
	return crc;
}

uint32_t
mlx5dm_sim_hash(const uint8_t v[MLX5DM_SIM_FV_LEN], uint16_t byte_mask)
{
	uint8_t buf[MLX5DM_SIM_FV_LEN];
	unsigned int i;

	for (i = 0; i < MLX5DM_SIM_FV_LEN; i++)
		buf[i] = (byte_mask & (0x8000u >> i)) ? v[i] : 0;
	return __builtin_bswap32(mlx5dm_sim_crc32(buf, MLX5DM_SIM_FV_LEN));
}
