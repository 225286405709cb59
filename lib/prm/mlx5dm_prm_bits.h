/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Big-endian bit-field access in PRM bit order: a device structure is a
 * bit stream whose bit 0 is the MSB of byte 0, exactly as the PRM and
 * mlx5_ifc.h number it. Every layout in the project is expressed as
 * (bit offset, width) pairs and read/written only through these helpers,
 * so there are no hand-rolled shifts scattered over the code.
 */

#ifndef _MLX5DM_PRM_BITS_H_
#define _MLX5DM_PRM_BITS_H_

#include <stdint.h>
#include <string.h>

/* One field of a PRM layout, declared as data. */
struct mlx5dm_prm_field {
	uint16_t bit;   /* offset of the field's MSB from the start of the struct */
	uint8_t width;  /* 1..64 */
};

#define MLX5DM_PRM_FIELD(b, w) ((struct mlx5dm_prm_field){ .bit = (b), .width = (w) })
/* The same as a constant initializer, for layout tables declared as data. */
#define MLX5DM_PRM_FIELD_INIT(b, w) { .bit = (b), .width = (w) }

static inline uint32_t
mlx5dm_prm_be32(const uint8_t *p)
{
	uint32_t v;

	/* One load and a byte swap: byte-wise assembly compiles to a shuffle per byte. */
	memcpy(&v, p, sizeof(v));
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	v = __builtin_bswap32(v);
#endif
	return v;
}

static inline void
mlx5dm_prm_put_be32(uint8_t *p, uint32_t v)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	v = __builtin_bswap32(v);
#endif
	memcpy(p, &v, sizeof(v));
}

/* Read a field of up to 64 bits at (bit, width). */
static inline uint64_t
mlx5dm_prm_get64(const void *buf, unsigned int bit, unsigned int width)
{
	const uint8_t *b = buf;
	unsigned int pos = bit + width; /* one past the field's LSB */
	unsigned int shift = 0;
	uint64_t v = 0;

	/* Fast path: the field sits inside one aligned big-endian dword. */
	if ((bit & ~31u) == ((pos - 1) & ~31u)) {
		uint32_t dw = mlx5dm_prm_be32(b + (bit / 32) * 4);

		if (width == 32)
			return dw;
		return (dw >> (31 - (pos - 1) % 32)) & ((1u << width) - 1);
	}
	/* A 64-bit word on a dword boundary (addresses): two dwords. */
	if (width == 64 && (bit & 31u) == 0)
		return (uint64_t)mlx5dm_prm_be32(b + bit / 8) << 32 |
		       mlx5dm_prm_be32(b + bit / 8 + 4);
	/* Whole bytes: one byte per step, no bit shuffling. */
	if ((bit & 7u) == 0 && (width & 7u) == 0) {
		const uint8_t *p = b + bit / 8;
		unsigned int i;

		for (i = 0; i < width / 8; i++)
			v = v << 8 | p[i];
		return v;
	}
	/* Generic path: gather from the LSB end, one byte piece at a time. */
	while (width > 0) {
		unsigned int byte = (pos - 1) / 8;
		unsigned int lsb_in_byte = 7 - (pos - 1) % 8;
		unsigned int n = 8 - lsb_in_byte;

		if (n > width)
			n = width;
		v |= (uint64_t)((b[byte] >> lsb_in_byte) & ((1u << n) - 1)) << shift;
		shift += n;
		width -= n;
		pos -= n;
	}
	return v;
}

static inline uint32_t
mlx5dm_prm_get(const void *buf, unsigned int bit, unsigned int width)
{
	return (uint32_t)mlx5dm_prm_get64(buf, bit, width);
}

/* Write a field of up to 64 bits at (bit, width); bits of v above width are ignored. */
static inline void
mlx5dm_prm_set64(void *buf, unsigned int bit, unsigned int width, uint64_t v)
{
	uint8_t *b = buf;
	unsigned int pos = bit + width; /* one past the field's LSB */

	/* Fast path: the field sits inside one aligned big-endian dword. */
	if (width < 32 && (bit & ~31u) == ((pos - 1) & ~31u)) {
		uint8_t *p = b + (bit / 32) * 4;
		unsigned int shift = 31 - (pos - 1) % 32;
		uint32_t m = ((1u << width) - 1) << shift;
		uint32_t dw = mlx5dm_prm_be32(p);

		mlx5dm_prm_put_be32(p, (dw & ~m) | (((uint32_t)v << shift) & m));
		return;
	}
	if (width == 32 && (bit & 31u) == 0) {
		mlx5dm_prm_put_be32(b + bit / 8, (uint32_t)v);
		return;
	}
	if (width == 64 && (bit & 31u) == 0) {
		mlx5dm_prm_put_be32(b + bit / 8, (uint32_t)(v >> 32));
		mlx5dm_prm_put_be32(b + bit / 8 + 4, (uint32_t)v);
		return;
	}
	if ((bit & 7u) == 0 && (width & 7u) == 0) {
		uint8_t *p = b + bit / 8;
		unsigned int i;

		for (i = width / 8; i-- > 0; v >>= 8)
			p[i] = (uint8_t)v;
		return;
	}
	if (width < 64)
		v &= (1ull << width) - 1;
	while (width > 0) {
		unsigned int byte = (pos - 1) / 8;
		/* Bit index (0 = LSB) of the field's LSB inside this byte. */
		unsigned int lsb_in_byte = 7 - (pos - 1) % 8;
		unsigned int n = 8 - lsb_in_byte;
		uint8_t m;

		if (n > width)
			n = width;
		m = (uint8_t)(((1u << n) - 1) << lsb_in_byte);
		b[byte] = (uint8_t)((b[byte] & ~m) | (((unsigned int)v << lsb_in_byte) & m));
		v >>= n;
		width -= n;
		pos -= n;
	}
}

static inline void
mlx5dm_prm_set(void *buf, unsigned int bit, unsigned int width, uint32_t v)
{
	mlx5dm_prm_set64(buf, bit, width, v);
}

static inline uint64_t
mlx5dm_prm_fget(const void *buf, struct mlx5dm_prm_field f)
{
	return mlx5dm_prm_get64(buf, f.bit, f.width);
}

static inline void
mlx5dm_prm_fset(void *buf, struct mlx5dm_prm_field f, uint64_t v)
{
	mlx5dm_prm_set64(buf, f.bit, f.width, v);
}

#endif /* _MLX5DM_PRM_BITS_H_ */
