/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Metadata items in registers (doc/guides/nics/mlx5dm.rst): META reg_c_1
 * (egress: reg_a), TAG i reg_c_(2 + i), MARK reg_c_0 (bit 24: marked).
 * Host-order values: hooks, not a map.
 */

#include <errno.h>

#include "mlx5dm_flow_item.h"

#define MISC2(f) MLX5DM_FTE(misc2, f)

static const enum mlx5dm_fte_field mlx5dm_flow_tag_regs[MLX5DM_FLOW_NB_TAGS] = {
	MISC2(metadata_reg_c_2), MISC2(metadata_reg_c_3),
	MISC2(metadata_reg_c_4), MISC2(metadata_reg_c_5),
};

/* A 32-bit register from a host-order spec/mask/last. */
static int
mlx5dm_flow_reg_match(struct mlx5dm_flow_translation *x, enum mlx5dm_fte_field reg, uint32_t s,
		      uint32_t m, const uint32_t *l, struct rte_flow_error *error)
{
	int ret;

	if (l != NULL) {
		ret = mlx5dm_flow_item_range_u32(x, s, *l, &m, error);
		if (ret < 0)
			return ret;
	}
	return mlx5dm_flow_match_set(x, reg, m, s, error);
}

/* ---- META ---- */

static const struct rte_flow_item_meta mlx5dm_flow_nic_meta = {
	.data = UINT32_MAX,
};

static int
mlx5dm_flow_meta_pre(struct mlx5dm_flow_translation *x, const uint8_t *spec, uint8_t *mask,
		     const uint8_t *last, struct rte_flow_error *error)
{
	const struct rte_flow_item_meta *s = (const void *)spec;
	const struct rte_flow_item_meta *m = (const void *)mask;
	const struct rte_flow_item_meta *l = (const void *)last;

	return mlx5dm_flow_reg_match(x, x->spec->egress ? MISC2(metadata_reg_a) :
				     MISC2(metadata_reg_c_1), s->data, m->data,
				     l != NULL ? &l->data : NULL, error);
}

const struct mlx5dm_flow_item_def mlx5dm_flow_item_meta = {
	MLX5DM_FLOW_ITEM(meta),
	.mask_msg = "META: mask wider than the data",
	.layer = MLX5DM_FLOW_L_META,
	.level_free = true,
	.metadata = true,
	.pre = mlx5dm_flow_meta_pre,
};

/* ---- TAG ---- */

static const struct rte_flow_item_tag mlx5dm_flow_nic_tag = {
	.data = UINT32_MAX,
	.index = 0xff,
};

static int
mlx5dm_flow_tag_pre(struct mlx5dm_flow_translation *x, const uint8_t *spec, uint8_t *mask,
		    const uint8_t *last, struct rte_flow_error *error)
{
	const struct rte_flow_item_tag *s = (const void *)spec;
	const struct rte_flow_item_tag *m = (const void *)mask;
	const struct rte_flow_item_tag *l = (const void *)last;

	if (m->index != 0xff)
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM_MASK, x->item,
					  "TAG index must be fully masked");
	if (s->index >= MLX5DM_FLOW_NB_TAGS)
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM_SPEC, x->item,
					  "TAG index must be 0 to 3");
	if (l != NULL && l->index != s->index)
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM_LAST, x->item,
					  "TAG index cannot be a range");
	x->spec->layers |= MLX5DM_FLOW_L_TAG(s->index);
	return mlx5dm_flow_reg_match(x, mlx5dm_flow_tag_regs[s->index], s->data, m->data,
				     l != NULL ? &l->data : NULL, error);
}

const struct mlx5dm_flow_item_def mlx5dm_flow_item_tag = {
	MLX5DM_FLOW_ITEM(tag),
	.mask_msg = "TAG: mask wider than data and index",
	.level_free = true,
	.metadata = true,
	.pre = mlx5dm_flow_tag_pre,
};

/* ---- MARK ---- */

/* Bits above the 24-bit id are accepted in the mask (the default has them). */
static const struct rte_flow_item_mark mlx5dm_flow_nic_mark = {
	.id = UINT32_MAX,
};

static int
mlx5dm_flow_mark_order(struct mlx5dm_flow_translation *x, struct rte_flow_error *error)
{
	if (x->spec->egress)
		return mlx5dm_flow_item_err(x, ENOTSUP, "MARK item is supported on ingress only",
					    error);
	return 0;
}

static int
mlx5dm_flow_mark_pre(struct mlx5dm_flow_translation *x, const uint8_t *spec, uint8_t *mask,
		     const uint8_t *last, struct rte_flow_error *error)
{
	const struct rte_flow_item_mark *s = (const void *)spec;
	const struct rte_flow_item_mark *m = (const void *)mask;
	const struct rte_flow_item_mark *l = (const void *)last;
	uint32_t id_mask = m->id & 0xffffffu;
	uint32_t lid;
	int ret;

	if ((s->id & m->id) > MLX5DM_FLOW_MARK_MAX)
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM_SPEC, x->item,
					  "MARK id must be at most 0xfffffd");
	if (l != NULL) {
		/* Ids above the maximum never occur: clip, so "up to ~0" stays a prefix. */
		lid = RTE_MIN(l->id, 0xffffffu);
		ret = mlx5dm_flow_item_range_u32(x, s->id, lid, &id_mask, error);
		if (ret < 0)
			return ret;
	}
	return mlx5dm_flow_match_set(x, MISC2(metadata_reg_c_0),
				     id_mask | MLX5DM_FLOW_MARK_REG_FLAG,
				     (s->id & id_mask) | MLX5DM_FLOW_MARK_REG_FLAG, error);
}

/* Without spec: any marked packet. */
static int
mlx5dm_flow_mark_post(struct mlx5dm_flow_translation *x, struct rte_flow_error *error)
{
	if (x->item->spec != NULL)
		return 0;
	return mlx5dm_flow_match_set(x, MISC2(metadata_reg_c_0), MLX5DM_FLOW_MARK_REG_FLAG,
				     MLX5DM_FLOW_MARK_REG_FLAG, error);
}

const struct mlx5dm_flow_item_def mlx5dm_flow_item_mark = {
	MLX5DM_FLOW_ITEM(mark),
	.mask_msg = "MARK: mask wider than the id",
	.layer = MLX5DM_FLOW_L_MARK,
	.level_free = true,
	.metadata = true,
	.order = mlx5dm_flow_mark_order,
	.pre = mlx5dm_flow_mark_pre,
	.post = mlx5dm_flow_mark_post,
};
