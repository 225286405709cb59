/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Format registry and the format-neutral helpers built on the operations
 * table: complete always-hit / always-miss images and error reports.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "mlx5dm_ste_priv.h"

/* Indexed by steering_format_version; NULL = not implemented (yet). */
static const struct mlx5dm_ste_ctx *const mlx5dm_ste_formats[] = {
	[0] = NULL,			/* ConnectX-5: STE v0 */
	[1] = &mlx5dm_ste_ctx_v1,	/* ConnectX-6 Dx */
	[2] = NULL,			/* ConnectX-7: v1 with other register ids */
	[3] = NULL,			/* ConnectX-8: v2 with new remove/insert layouts */
};

const struct mlx5dm_ste_ctx *
mlx5dm_ste_ctx_get(uint8_t steering_format_version)
{
	if (steering_format_version >= MLX5DM_ARRAY_SIZE(mlx5dm_ste_formats) ||
	    mlx5dm_ste_formats[steering_format_version] == NULL) {
		errno = ENOTSUP;
		return NULL;
	}
	return mlx5dm_ste_formats[steering_format_version];
}

void
mlx5dm_ste_build_always_miss(const struct mlx5dm_ste_ctx *ctx, uint8_t *ste, uint16_t lu_type,
			     enum mlx5dm_ste_dir dir, uint16_t gvmi, uint64_t miss_icm_addr)
{
	memset(ste, 0, MLX5DM_STE_SIZE);
	ctx->init(ste, lu_type, dir, gvmi);
	ctx->set_ctrl_always_miss(ste, miss_icm_addr, gvmi);
	/*
	 * A tag byte the zero mask can never produce: (packet & 0) != 0xdc,
	 * so the entry never matches, whatever lookup it is.
	 */
	ste[MLX5DM_STE_TAG_OFF] = 0xdc;
	ste[MLX5DM_STE_MASK_OFF] = 0;
}

void
mlx5dm_ste_build_always_hit(const struct mlx5dm_ste_ctx *ctx, uint8_t *ste, uint16_t lu_type,
			    enum mlx5dm_ste_dir dir, uint16_t gvmi, uint16_t next_lu_type,
			    uint16_t next_byte_mask, uint64_t next_icm_addr,
			    uint32_t next_num_entries)
{
	/* Zero tag and mask: everything matches. */
	memset(ste, 0, MLX5DM_STE_SIZE);
	ctx->init(ste, lu_type, dir, gvmi);
	ctx->set_ctrl_always_hit(ste, next_lu_type, next_byte_mask, next_icm_addr,
				 next_num_entries, gvmi);
}

void
mlx5dm_ste_action_err_set(struct mlx5dm_ste_action_err *err, int index, const char *fmt, ...)
{
	va_list ap;

	if (err == NULL)
		return;
	err->index = index;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
}
