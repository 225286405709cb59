/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Packet reformat contexts (ALLOC/DEALLOC_PACKET_REFORMAT_CONTEXT). The
 * firmware keeps the header bytes of an encapsulation and hands out a
 * packet_reformat_id, which is what an STE's INSERT_POINTER carries when
 * the library could not have ENCAP SW ICM of its own (rdma-core's
 * dr_action_create_reformat_action falls back to it). On a device with
 * encap ICM the firmware keeps the bytes in that memory, as a ConnectX
 * does, and the id is their line index: the walk resolves an insert
 * pointer the same way whoever wrote the header. The firmware's lines
 * follow the SW ICM the capabilities report (the region is mapped twice
 * that size, its upper half marked allocated, so alloc_dm never hands it
 * out).
 * Without encap ICM the id names the context and the engine reads the
 * bytes with mlx5dm_sim_reformat_read().
 *
 * Only the inserting types are modelled (L2 to VXLAN/NVGRE/L2 tunnel/L3
 * tunnel): L3_TUNNEL_TO_L2 rewrites rather than inserts and SW steering
 * builds it from its own action list instead. The data is limited by the
 * max_encap_header_size capability, as the firmware limits it.
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_sim_core.h"

struct mlx5dm_sim_prc {
	struct mlx5dm_sim_obj h;      /* aux[0]: packet_reformat_id */
	uint8_t type;
	uint16_t size;
	uint8_t data[];
};

int
mlx5dm_sim_prc_init(struct mlx5dm_sim *sim)
{
	struct mlx5dm_sim_region *g = &sim->region[MLX5DM_SIM_REGION_ENCAP];
	unsigned int log_objs = sim->cfg.log_max_objects != 0 ? sim->cfg.log_max_objects : 16;
	uint64_t blocks, fw, most;

	if (g->size == 0)
		return 0;
	blocks = g->size >> g->log_block;
	fw = blocks / 2;
	mlx5dm_sim_bitmap_set(&g->blocks, blocks - fw, fw, true);
	sim->prc_first_line = ((blocks - fw) << g->log_block) / MLX5DM_SIM_LINE;
	/* No more lines than the most contexts the firmware holds can use. */
	most = ((uint64_t)1 << log_objs) *
	       ((sim->cfg.max_encap_header_size + MLX5DM_SIM_LINE - 1u) / MLX5DM_SIM_LINE);
	sim->prc_lines = (uint32_t)MLX5DM_MIN((fw << g->log_block) / MLX5DM_SIM_LINE, most);
	sim->prc_line_owner = mlx5dm_calloc_socket(sim->prc_lines + 1u, sizeof(uint32_t),
						   sim->socket);
	return sim->prc_line_owner != NULL ? 0 : -ENOMEM;
}

void
mlx5dm_sim_prc_fini(struct mlx5dm_sim *sim)
{
	mlx5dm_free(sim->prc_line_owner);
	sim->prc_line_owner = NULL;
	sim->prc_lines = 0;
}

/* First fit of n free firmware lines: their index in the firmware range, or -1. */
static int64_t
mlx5dm_sim_prc_lines_find(const struct mlx5dm_sim *sim, uint32_t n)
{
	uint32_t i, run = 0;

	for (i = 0; i < sim->prc_lines; i++) {
		run = sim->prc_line_owner[i] == 0 ? run + 1 : 0;
		if (run == n)
			return (int64_t)i + 1 - n;
	}
	return -1;
}

static uint32_t
mlx5dm_sim_prc_nlines(const struct mlx5dm_sim_prc *p)
{
	return (p->size + MLX5DM_SIM_LINE - 1) / MLX5DM_SIM_LINE;
}

static bool
mlx5dm_sim_prc_type_ok(uint64_t type)
{
	return type == MLX5DM_SIM_REFORMAT_L2_TO_VXLAN ||
	       type == MLX5DM_SIM_REFORMAT_L2_TO_NVGRE ||
	       type == MLX5DM_SIM_REFORMAT_L2_TO_L2_TUNNEL ||
	       type == MLX5DM_SIM_REFORMAT_L2_TO_L3_TUNNEL;
}

int
mlx5dm_sim_cmd_alloc_prc(struct mlx5dm_sim_cmd *c)
{
	uint64_t type = mlx5dm_sim_in(c, MLX5DM_SIM_PRC_IN_TYPE);
	uint32_t size = (uint32_t)mlx5dm_sim_in(c, MLX5DM_SIM_PRC_IN_SIZE);
	struct mlx5dm_sim_prc *p;

	if (!mlx5dm_sim_prc_type_ok(type))
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "reformat type not supported");
	if (size == 0)
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "reformat_data_size is 0");
	if (size > c->sim->cfg.max_encap_header_size)
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "reformat data above max_encap_header_size");
	/* The data runs on past the fixed part of the mailbox. */
	if (c->inlen < MLX5DM_SIM_PRC_IN_DATA_BYTE + (size_t)size)
		return MLX5DM_SIM_FAIL(c, BAD_INPUT_LEN, "input shorter than reformat_data_size");
	p = mlx5dm_sim_obj_new(c->sim, MLX5DM_SIM_K_PRC, sizeof(*p) + size);
	if (p == NULL)
		return MLX5DM_SIM_FAIL(c, NO_RES, "out of packet reformat contexts");
	p->type = (uint8_t)type;
	p->size = (uint16_t)size;
	memcpy(p->data, c->in + MLX5DM_SIM_PRC_IN_DATA_BYTE, size);
	p->h.aux[0] = p->h.id;
	if (c->sim->prc_line_owner != NULL) {
		uint32_t n = mlx5dm_sim_prc_nlines(p), i;
		int64_t at = mlx5dm_sim_prc_lines_find(c->sim, n);

		if (at < 0) {
			mlx5dm_sim_obj_free(c->sim, &p->h);
			return MLX5DM_SIM_FAIL(c, NO_RES, "encap memory of reformat contexts full");
		}
		for (i = 0; i < n; i++)
			c->sim->prc_line_owner[at + i] = p->h.id;
		p->h.aux[0] = (uint32_t)(c->sim->prc_first_line + (uint64_t)at);
		mlx5dm_sim_region_write(c->sim, MLX5DM_SIM_REGION_ENCAP,
					(uint64_t)p->h.aux[0] * MLX5DM_SIM_LINE, p->data, size);
	}
	mlx5dm_sim_out(c, MLX5DM_SIM_PRC_OUT_ID, p->h.aux[0]);
	c->obj = &p->h;
	return MLX5DM_SIM_ST_OK;
}

int
mlx5dm_sim_cmd_dealloc_prc(struct mlx5dm_sim_cmd *c)
{
	struct mlx5dm_sim_prc *p = (struct mlx5dm_sim_prc *)c->obj;
	struct mlx5dm_sim *sim = c->sim;

	if (p == NULL || mlx5dm_sim_in(c, MLX5DM_SIM_PRC_DEALLOC_ID) != p->h.aux[0])
		return MLX5DM_SIM_FAIL(c, BAD_RES, "no such packet reformat context");
	if (sim->prc_line_owner != NULL) {
		uint32_t n = mlx5dm_sim_prc_nlines(p);

		memset(&sim->prc_line_owner[p->h.aux[0] - sim->prc_first_line], 0,
		       n * sizeof(uint32_t));
		mlx5dm_sim_region_discard(sim, MLX5DM_SIM_REGION_ENCAP,
					  (uint64_t)p->h.aux[0] * MLX5DM_SIM_LINE,
					  (uint64_t)n * MLX5DM_SIM_LINE);
	}
	mlx5dm_sim_obj_free(sim, &p->h);
	return MLX5DM_SIM_ST_OK;
}

/* The context a packet_reformat_id names, or NULL. */
static struct mlx5dm_sim_prc *
mlx5dm_sim_prc_get(struct mlx5dm_sim *sim, uint32_t id)
{
	struct mlx5dm_sim_prc *p;

	if (sim->prc_line_owner == NULL)
		return mlx5dm_sim_obj_get(sim, MLX5DM_SIM_K_PRC, id);
	if (id < sim->prc_first_line || id - sim->prc_first_line >= sim->prc_lines)
		return NULL;
	p = mlx5dm_sim_obj_get(sim, MLX5DM_SIM_K_PRC,
			       sim->prc_line_owner[id - sim->prc_first_line]);
	return p != NULL && p->h.aux[0] == id ? p : NULL;
}

int
mlx5dm_sim_reformat_read(struct mlx5dm_sim *sim, uint32_t id, void *dst, size_t len)
{
	/* Inside a hold (mlx5dm_sim_hold): the context stays. */
	struct mlx5dm_sim_prc *p = mlx5dm_sim_prc_get(sim, id);

	if (p == NULL)
		return -ENOENT;
	if (len > p->size)
		return -ERANGE;
	memcpy(dst, p->data, len);
	return 0;
}
