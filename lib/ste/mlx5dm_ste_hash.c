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
 *
 * The 16-byte tag of a rule insertion (mlx5dm_ste_hash_bwc) takes a
 * carry-less multiply path on x86 CPUs that have one: four multiplies
 * instead of 16 table lookups, a tenth of an insertion's hashing cost.
 */

#include <pthread.h>
#include <string.h>

#include "mlx5dm_ste_priv.h"

#if defined(__x86_64__)
#include <wmmintrin.h>
#define MLX5DM_STE_HASH_CLMUL 1
#endif

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
mlx5dm_ste_hash_bwc_tables(const uint8_t *tag, uint16_t byte_mask)
{
	uint32_t w[MLX5DM_STE_TAG_SIZE / 4];
	unsigned int i;

	/* Only bytes whose mask byte is all-ones take part (bit 15 = byte 0). */
	memcpy(w, tag, sizeof(w));
	for (i = 0; i < MLX5DM_ARRAY_SIZE(w); i++)
		w[i] &= mlx5dm_ste_nibble_mask[(byte_mask >> (12 - 4 * i)) & 0xf];
	return mlx5dm_ste_hash((const uint8_t *)w, sizeof(w));
}

#ifdef MLX5DM_STE_HASH_CLMUL
/*
 * Constants of the reduction, P(x) the CRC-32 polynomial, each written
 * bit-reflected (x^0 in the top bit) over 32 bits, or 33 for the last two:
 * x^96 mod P and x^64 mod P fold the 128-bit message, then a Barrett step
 * with floor(x^64 / P) and P itself reduces the 64-bit remainder to 32 bits.
 */
#define MLX5DM_STE_CRC_X96 0x6655004full
#define MLX5DM_STE_CRC_X64 0xb1e6b092ull
#define MLX5DM_STE_CRC_MU 0x1f7011641ull
#define MLX5DM_STE_CRC_P 0x1db710641ull

/* 1: the CPU has PCLMULQDQ; -1: it has not; 0: unknown. */
static int mlx5dm_ste_clmul_state;

/*
 * byte_mask8[b]: 64-bit mask over eight tag bytes (little-endian load), bit 7
 * of b = byte 0. A constant: a table filled on first use is written by every
 * thread that races to the first hash while others already read it.
 */
#define MLX5DM_STE_BYTE_MASK(b) \
	((((b) >> 7) & 1) * 0xffull | (((b) >> 6) & 1) * 0xff00ull | \
	 (((b) >> 5) & 1) * 0xff0000ull | (((b) >> 4) & 1) * 0xff000000ull | \
	 (((b) >> 3) & 1) * 0xff00000000ull | (((b) >> 2) & 1) * 0xff0000000000ull | \
	 (((b) >> 1) & 1) * 0xff000000000000ull | ((b) & 1) * 0xff00000000000000ull)
#define MLX5DM_STE_BYTE_MASK4(b) MLX5DM_STE_BYTE_MASK(b), MLX5DM_STE_BYTE_MASK((b) + 1), \
	MLX5DM_STE_BYTE_MASK((b) + 2), MLX5DM_STE_BYTE_MASK((b) + 3)
#define MLX5DM_STE_BYTE_MASK16(b) MLX5DM_STE_BYTE_MASK4(b), MLX5DM_STE_BYTE_MASK4((b) + 4), \
	MLX5DM_STE_BYTE_MASK4((b) + 8), MLX5DM_STE_BYTE_MASK4((b) + 12)
#define MLX5DM_STE_BYTE_MASK64(b) MLX5DM_STE_BYTE_MASK16(b), MLX5DM_STE_BYTE_MASK16((b) + 16), \
	MLX5DM_STE_BYTE_MASK16((b) + 32), MLX5DM_STE_BYTE_MASK16((b) + 48)
static const uint64_t mlx5dm_ste_byte_mask8[256] = {
	MLX5DM_STE_BYTE_MASK64(0), MLX5DM_STE_BYTE_MASK64(64),
	MLX5DM_STE_BYTE_MASK64(128), MLX5DM_STE_BYTE_MASK64(192),
};

MLX5DM_TARGET("pclmul") static inline uint64_t
mlx5dm_ste_clmul_lo(uint64_t a, uint64_t b)
{
	return (uint64_t)_mm_cvtsi128_si64(_mm_clmulepi64_si128(
		_mm_cvtsi64_si128((long long)a), _mm_cvtsi64_si128((long long)b), 0x00));
}

/*
 * CRC-32 (reflected, seed 0, no final xor) of 16 bytes loaded little-endian
 * as lo (bytes 0-7) and hi (bytes 8-15). lo carries the highest powers:
 * lo * (x^96 mod P), aligned to hi * x^32, leaves 96 bits; their top 32
 * times (x^64 mod P) leave 64; Barrett turns those into the remainder.
 * Each product of reflected operands lands one bit low, hence the shifts.
 */
MLX5DM_TARGET("pclmul") static uint32_t
mlx5dm_ste_crc32_16_clmul(uint64_t lo, uint64_t hi)
{
	__m128i p = _mm_clmulepi64_si128(_mm_cvtsi64_si128((long long)lo),
					 _mm_cvtsi64_si128((long long)MLX5DM_STE_CRC_X96), 0x00);
	uint64_t p_lo = (uint64_t)_mm_cvtsi128_si64(p);
	uint64_t p_hi = (uint64_t)_mm_cvtsi128_si64(_mm_srli_si128(p, 8));
	uint64_t t_lo = (p_lo << 1) ^ hi;
	uint64_t t_hi = (p_hi << 1) | (p_lo >> 63);
	uint64_t u, q;

	u = (mlx5dm_ste_clmul_lo(t_lo & 0xffffffffu, MLX5DM_STE_CRC_X64) << 1) ^
	    ((t_lo >> 32) | (t_hi << 32));
	q = mlx5dm_ste_clmul_lo(u & 0xffffffffu, MLX5DM_STE_CRC_MU);
	q = mlx5dm_ste_clmul_lo(q & 0xffffffffu, MLX5DM_STE_CRC_P);
	return (uint32_t)((u ^ q) >> 32);
}

static int
mlx5dm_ste_clmul_probe(void)
{
	int state = __builtin_cpu_supports("pclmul") ? 1 : -1;

	/* Two threads probing at once store the same answer. */
	__atomic_store_n(&mlx5dm_ste_clmul_state, state, __ATOMIC_RELAXED);
	return state;
}
#endif

uint32_t
mlx5dm_ste_hash_bwc(const uint8_t *tag, uint16_t byte_mask)
{
	if (byte_mask == 0)
		return 0;
#ifdef MLX5DM_STE_HASH_CLMUL
	int state = __atomic_load_n(&mlx5dm_ste_clmul_state, __ATOMIC_RELAXED);

	if (MLX5DM_UNLIKELY(state == 0))
		state = mlx5dm_ste_clmul_probe();
	if (MLX5DM_LIKELY(state > 0)) {
		uint64_t lo, hi;

		memcpy(&lo, tag, sizeof(lo));
		memcpy(&hi, tag + 8, sizeof(hi));
		lo &= mlx5dm_ste_byte_mask8[byte_mask >> 8];
		hi &= mlx5dm_ste_byte_mask8[byte_mask & 0xff];
		return __builtin_bswap32(mlx5dm_ste_crc32_16_clmul(lo, hi));
	}
#endif
	return mlx5dm_ste_hash_bwc_tables(tag, byte_mask);
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
