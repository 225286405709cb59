/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The images of STE writes. Records keep the software layout; the device
 * image is produced right before each write. Full writes carry the 64-byte
 * entry (with the table's bit mask); pointer flips are 32-byte control-only
 * writes, so the device sees the old or the new pointer, never a mix (as
 * rdma-core's dr_rule.c updates a live STE).
 *
 * A last-level entry (lean) keeps no control part: its rule's actions are
 * placed again (mlx5dm_rule_last_ctrl()), its miss pointer is where its
 * slot chain goes on (the next entry, or the table's miss target) and its
 * hit pointer, when the rule has action entries, the first of them: what
 * linking it into its chain and placing the action entries set.
 */

#include <string.h>

#include "mlx5dm_steer_priv.h"

/* The pointers of lean entry ste into ctrl, its rule's placed control part. */
static void
mlx5dm_ste_lean_pointers(const struct mlx5dm_ste *ste, uint8_t *ctrl)
{
	const struct mlx5dm_rule *rule = ste->rule;
	const struct mlx5dm_ste_ctx *sctx = rule->matcher->tbl->dom->ctx->ste;

	mlx5dm_ste_set_miss_addr(sctx, ctrl, ste->next_col != NULL ?
				 mlx5dm_ste_icm(ste->next_col) :
				 mlx5dm_htbl_miss_target(ste->htbl));
	if (rule->nb_act_stes > 0)
		mlx5dm_ste_set_hit_addr(sctx, ctrl,
					mlx5dm_ste_icm(mlx5dm_rule_act_stes(rule)[0]), 1);
}

void
mlx5dm_ste_ctrl_get(const struct mlx5dm_ste *ste, uint8_t *ctrl)
{
	if (!ste->lean) {
		memcpy(ctrl, ste->ctrl, MLX5DM_STE_CTRL_SIZE);
		return;
	}
	/*
	 * Placed when the rule was made: placing the same list again does not
	 * fail. If it did, the entry would miss rather than hold stale bytes.
	 */
	if (mlx5dm_rule_last_ctrl(ste->rule, ste->tag, ctrl) < 0) {
		const struct mlx5dm_matcher *m = ste->rule->matcher;

		MLX5DM_LOG(ERR, MLX5DM_STEER_LOG, "a rule's actions no longer place");
		memcpy(ctrl, m->miss_img[m->nb_builders - 1], MLX5DM_STE_CTRL_SIZE);
	}
	mlx5dm_ste_lean_pointers(ste, ctrl);
}

/* The 64-byte software image of a full write (also what a dump shows). */
void
mlx5dm_ste_image(const struct mlx5dm_ste *ste, const uint8_t *bit_mask, uint8_t *img)
{
	mlx5dm_ste_ctrl_get(ste, img);
	memcpy(img + MLX5DM_STE_TAG_OFF, ste->tag, MLX5DM_STE_TAG_SIZE);
	if (bit_mask != NULL)
		memcpy(img + MLX5DM_STE_MASK_OFF, bit_mask, MLX5DM_STE_MASK_SIZE);
	else
		memset(img + MLX5DM_STE_MASK_OFF, 0, MLX5DM_STE_MASK_SIZE);
}

/* Post the full write of ste whose software image is hw. */
static int
mlx5dm_ste_post_full(struct mlx5dm_ctx *ctx, struct mlx5dm_queue *q,
		     const struct mlx5dm_ste *ste, uint8_t *hw)
{
	mlx5dm_ste_to_hw(ctx->ste, hw, MLX5DM_STE_SIZE);
	return mlx5dm_send_write(q->ring,
				 mlx5dm_icm_chunk_entry_mr(ste->chunk, mlx5dm_ste_index(ste)),
				 ste->chunk->rkey, hw, MLX5DM_STE_SIZE);
}

int
mlx5dm_ste_write_full(struct mlx5dm_ctx *ctx, struct mlx5dm_queue *q,
		      const struct mlx5dm_ste *ste, const uint8_t *bit_mask)
{
	uint8_t hw[MLX5DM_STE_SIZE];

	mlx5dm_ste_image(ste, bit_mask, hw);
	return mlx5dm_ste_post_full(ctx, q, ste, hw);
}

int
mlx5dm_ste_write_placed(struct mlx5dm_ctx *ctx, struct mlx5dm_queue *q,
			const struct mlx5dm_ste *ste, const uint8_t *bit_mask,
			const uint8_t *placed)
{
	uint8_t hw[MLX5DM_STE_SIZE];

	memcpy(hw, placed, MLX5DM_STE_CTRL_SIZE);
	mlx5dm_ste_lean_pointers(ste, hw);
	memcpy(hw + MLX5DM_STE_TAG_OFF, ste->tag, MLX5DM_STE_TAG_SIZE);
	memcpy(hw + MLX5DM_STE_MASK_OFF, bit_mask, MLX5DM_STE_MASK_SIZE);
	return mlx5dm_ste_post_full(ctx, q, ste, hw);
}

int
mlx5dm_ste_write_ctrl(struct mlx5dm_ctx *ctx, struct mlx5dm_queue *q,
		      const struct mlx5dm_ste *ste)
{
	uint8_t hw[MLX5DM_STE_CTRL_SIZE];

	mlx5dm_ste_ctrl_get(ste, hw);
	mlx5dm_ste_to_hw(ctx->ste, hw, MLX5DM_STE_CTRL_SIZE);
	return mlx5dm_send_write(q->ring,
				 mlx5dm_icm_chunk_entry_mr(ste->chunk, mlx5dm_ste_index(ste)),
				 ste->chunk->rkey, hw, MLX5DM_STE_CTRL_SIZE);
}
