/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Decoding of a 64-byte v1 STE as the device reads it from ICM. The
 * control layout is rdma-core mlx5_ifc.h's ste_match_bwc_v1 /
 * ste_mask_and_match_v1 (fixed offsets, below); the pointer arithmetic is
 * rdma-core's dr_ste.c:
 *   hit:  raw = next_table_base_39_32_size << 27 | next_table_base_31_5_size
 *         = (base >> 5) | entries; the lowest set bit is the table size
 *         (tables are aligned to their size), the rest is the base.
 *   miss: address = (miss_address_39_32 << 26 | miss_address_31_6) << 6.
 * The upper 16 bits of both addresses are the GVMI fields.
 */

#include <string.h>

#include "mlx5dm_prm_bits.h"
#include "mlx5dm_sim_engine_priv.h"

/*
 * The control fields, at fixed places in the first six dwords (big endian,
 * PRM bit offsets as in ste_match_bwc_v1):
 *   dw0 0x000: entry_format 31:24, counter_id 23:0
 *   dw1 0x020: miss_address_63_48 31:16, match_definer_ctx_idx 15:8,
 *              miss_address_39_32 7:0
 *   dw2 0x040: miss_address_31_6 31:6, reparse (0x05c) 3
 *   dw3 0x060: next_table_base_63_48 31:16, hash_definer_ctx_idx 15:8,
 *              next_table_base_39_32_size 7:0
 *   dw4 0x080: next_table_base_31_5_size 31:5
 *   dw5 0x0a0: byte_mask 31:16, next_entry_format (0x0b0) 15 (BWC only)
 * Read as six loads: the walk decodes every STE it reads.
 */

/* Byte offsets of the action area and match data per entry format. */
#define MLX5DM_SIM_STE_BWC_ACT 24u
#define MLX5DM_SIM_STE_MATCH_ACT 20u
#define MLX5DM_SIM_STE_DATA 32u

/* Bit 7 - i set for each non-zero byte i of the 8 at b. */
static unsigned int
mlx5dm_sim_ste_nonzero(const uint8_t *b)
{
	uint64_t x, y;

	memcpy(&x, b, sizeof(x));
	y = ((x & 0x7f7f7f7f7f7f7f7full) + 0x7f7f7f7f7f7f7f7full) | x;
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	y = __builtin_bswap64(y);
#endif
	/* The high bit of each byte, gathered into the top byte (no two products meet). */
	return (unsigned int)((((y >> 7) & 0x0101010101010101ull) * 0x8040201008040201ull) >> 56);
}

void
mlx5dm_sim_ste_decode(const uint8_t raw[MLX5DM_SIM_STE_SIZE], struct mlx5dm_sim_ste *s)
{
	uint32_t dw[6];
	const uint8_t *r;
	uint64_t hit, miss;
	unsigned int i;
	uint8_t ctx;

	/* The walk reads the STE into s->raw itself. */
	if (raw != s->raw)
		memcpy(s->raw, raw, MLX5DM_SIM_STE_SIZE);
	r = s->raw;
#pragma GCC unroll 6
	for (i = 0; i < MLX5DM_ARRAY_SIZE(dw); i++)
		dw[i] = mlx5dm_prm_be32(r + 4 * i);
	s->entry_format = (uint8_t)(dw[0] >> 24);
	s->counter_id = dw[0] & 0xffffff;
	ctx = (uint8_t)(dw[1] >> 8);
	s->reparse = (dw[2] >> 3) & 1;
	miss = (uint64_t)(dw[1] & 0xff) << 26 | dw[2] >> 6;
	s->miss_addr = (uint64_t)(dw[1] >> 16) << 48 | miss << 6;
	hit = (uint64_t)(dw[3] & 0xff) << 27 | dw[4] >> 5;
	s->hit_size = 0;
	s->hit_addr = 0;
	if (hit != 0 && (hit & (0 - hit)) <= (1u << 24)) {
		s->hit_size = (uint32_t)(hit & (0 - hit));
		s->hit_addr = (hit & ~(uint64_t)s->hit_size) << 5;
	}
	s->hit_addr |= (uint64_t)(dw[3] >> 16) << 48;
	s->next_lu = (uint8_t)(dw[3] >> 8);
	s->byte_mask = 0;
	switch (s->entry_format) {
	case 0: /* BWC_BYTE */
	case 1: /* BWC_DW */
		s->fmt = MLX5DM_SIM_STE_BWC;
		s->next_lu |= (uint16_t)(((dw[5] >> 15) & 1) << 8);
		s->byte_mask = (uint16_t)(dw[5] >> 16);
		s->actions = r + MLX5DM_SIM_STE_BWC_ACT;
		s->actions_len = 8;
		s->mask = r + MLX5DM_SIM_STE_DATA;
		s->tag = r + MLX5DM_SIM_STE_DATA + MLX5DM_SIM_FV_LEN;
		s->lu = (uint16_t)(s->entry_format << 8 | ctx);
		break;
	case 2: /* MATCH_AND_MASK (rdma-core's action-only "MATCH" STEs) */
	case 3:
		s->fmt = MLX5DM_SIM_STE_MASK_MATCH;
		s->actions = r + MLX5DM_SIM_STE_MATCH_ACT;
		s->actions_len = 12;
		s->mask = r + MLX5DM_SIM_STE_DATA;
		s->tag = r + MLX5DM_SIM_STE_DATA + MLX5DM_SIM_FV_LEN;
		s->lu = (uint16_t)((s->entry_format - 2) << 8 | ctx);
		break;
	case 4: /* MATCH: definer-based 32-byte tag */
		s->fmt = MLX5DM_SIM_STE_DEFINER;
		s->actions = r + MLX5DM_SIM_STE_MATCH_ACT;
		s->actions_len = 12;
		s->mask = NULL;
		s->tag = r + MLX5DM_SIM_STE_DATA;
		s->lu = (uint16_t)(0x0400 | ctx);
		break;
	default:
		s->fmt = MLX5DM_SIM_STE_UNKNOWN;
		s->actions = r + MLX5DM_SIM_STE_MATCH_ACT;
		s->actions_len = 0;
		s->mask = NULL;
		s->tag = NULL;
		s->lu = (uint16_t)(s->entry_format << 8 | ctx);
		break;
	}
	s->hit_may_end = true;
	s->miss_may_end = true;
	/* A NOP takes 4 bytes: slots start at 0, 4 and 8 while they are NOPs. */
	s->no_actions = s->actions_len == 0 ||
			(s->actions[0] | s->actions[4] |
			 (s->actions_len > 8 ? s->actions[8] : 0)) == 0;
	s->mask_bytes = s->mask == NULL ? 0 :
			(uint16_t)(mlx5dm_sim_ste_nonzero(s->mask) << 8 |
				   mlx5dm_sim_ste_nonzero(s->mask + 8));
}

size_t
mlx5dm_sim_lines_bytes(void)
{
	return sizeof(struct mlx5dm_sim_lines);
}

const struct mlx5dm_sim_ste *
mlx5dm_sim_ste_fetch(struct mlx5dm_sim *sim, struct mlx5dm_sim_lines *c, uint64_t icm_addr,
		     struct mlx5dm_sim_ste *own)
{
	uint64_t slot = (icm_addr >> 6 ^ icm_addr >> (6 + MLX5DM_SIM_LINES_LOG)) &
			((1u << MLX5DM_SIM_LINES_LOG) - 1);
	struct mlx5dm_sim_line_ent *e;
	struct mlx5dm_sim_line_ver ver;

	if (c == NULL) {
		if (mlx5dm_sim_icm_read(sim, icm_addr, own->raw, MLX5DM_SIM_STE_SIZE) != 0)
			return NULL;
		mlx5dm_sim_ste_decode(own->raw, own);
		return own;
	}
	/* The cached decoding also says which pointers cannot end a walk (the instance's). */
	e = &c->e[slot];
	if (e->sim == sim && e->addr == icm_addr) {
		/* The line's version now; the ICM may also have been freed since. */
		if (mlx5dm_sim_icm_line_ver(sim, icm_addr, &ver) != 0)
			return NULL;
		if (ver.seq == e->ver.seq && ver.epoch == e->ver.epoch)
			return &e->ste;
	}
	e->sim = NULL;
	if (mlx5dm_sim_icm_read_line(sim, icm_addr, e->ste.raw, &e->ver) != 0)
		return NULL;
	mlx5dm_sim_ste_decode(e->ste.raw, &e->ste);
	e->ste.hit_may_end = mlx5dm_sim_terminal_possible(sim, e->ste.hit_addr);
	e->ste.miss_may_end = mlx5dm_sim_terminal_possible(sim, e->ste.miss_addr);
	e->sim = sim;
	e->addr = icm_addr;
	return &e->ste;
}
