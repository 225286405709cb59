/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Packet reformat contexts (ALLOC/DEALLOC_PACKET_REFORMAT_CONTEXT). The
 * firmware keeps the header bytes of an encapsulation and hands out a
 * packet_reformat_id; on a device without ENCAP SW ICM, that id is what an
 * STE's INSERT_POINTER action carries (SWS_REFERENCE 8.1), and the engine
 * reads the bytes back with mlx5dm_sim_reformat_read().
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
	struct mlx5dm_sim_obj h;
	uint8_t type;
	uint16_t size;
	uint8_t data[];
};

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
	mlx5dm_sim_out(c, MLX5DM_SIM_PRC_OUT_ID, p->h.id);
	c->obj = &p->h;
	return MLX5DM_SIM_ST_OK;
}

int
mlx5dm_sim_cmd_dealloc_prc(struct mlx5dm_sim_cmd *c)
{
	struct mlx5dm_sim_obj *o = mlx5dm_sim_obj_get(c->sim, MLX5DM_SIM_K_PRC,
				(uint32_t)mlx5dm_sim_in(c, MLX5DM_SIM_PRC_DEALLOC_ID));

	if (o == NULL || o != c->obj)
		return MLX5DM_SIM_FAIL(c, BAD_RES, "no such packet reformat context");
	mlx5dm_sim_obj_free(c->sim, o);
	return MLX5DM_SIM_ST_OK;
}

int
mlx5dm_sim_reformat_read(struct mlx5dm_sim *sim, uint32_t id, void *dst, size_t len)
{
	struct mlx5dm_sim_prc *p;
	int ret = 0;

	pthread_rwlock_rdlock(&sim->lock);
	p = mlx5dm_sim_obj_get(sim, MLX5DM_SIM_K_PRC, id);
	if (p == NULL)
		ret = -ENOENT;
	else if (len > p->size)
		ret = -ERANGE;
	else
		memcpy(dst, p->data, len);
	pthread_rwlock_unlock(&sim->lock);
	return ret;
}
