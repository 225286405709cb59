/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Modify-header translation, format neutral: user actions (PRM
 * set/add/copy_action_in) -> the device's HW actions, using the format's
 * field map (ctx->modify_map) and encoder (ctx->modify_encode).
 *
 * The device reads HW actions two at a time and executes a pair together,
 * so two actions of one pair must not touch the same HW field: such an
 * action is pushed to the next pair behind an all-zero NOP.
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_ste_priv.h"

#define IN mlx5dm_prm_modify_in

static const char *const mlx5dm_ste_l3_names[] = { "", "IPv4", "IPv6" };
static const char *const mlx5dm_ste_l4_names[] = { "", "TCP", "UDP" };

static const struct mlx5dm_ste_modify_field *
mlx5dm_ste_modify_lookup(const struct mlx5dm_ste_ctx *ctx, uint32_t field)
{
	if (field >= ctx->modify_map_size || !ctx->modify_map[field].valid)
		return NULL;
	return &ctx->modify_map[field];
}

/* Metadata register A is written on the TX path only, register B on RX only. */
static int
mlx5dm_ste_modify_check_reg(const struct mlx5dm_ste_actions_attr *attr, uint32_t field,
			    int i, struct mlx5dm_ste_action_err *err)
{
	bool nic = attr->domain == MLX5DM_STE_DOMAIN_NIC;

	if (field == MLX5DM_MODIFY_FLD_METADATA_REG_A &&
	    !(nic && attr->dir == MLX5DM_STE_DIR_TX)) {
		mlx5dm_ste_action_err_set(err, i, "REG_A can only be modified on NIC_TX");
		return -EINVAL;
	}
	if (field == MLX5DM_MODIFY_FLD_METADATA_REG_B &&
	    !(nic && attr->dir == MLX5DM_STE_DIR_RX)) {
		mlx5dm_ste_action_err_set(err, i, "REG_B can only be modified on NIC_RX");
		return -EINVAL;
	}
	return 0;
}

/* offset + length must stay inside the field; 0 means 32 bits. */
static int
mlx5dm_ste_modify_check_range(const struct mlx5dm_ste_modify_field *f, uint32_t field,
			      uint32_t offset, uint32_t length, int i,
			      struct mlx5dm_ste_action_err *err)
{
	uint32_t width = (uint32_t)f->end - f->start + 1;

	if (offset + length > width) {
		mlx5dm_ste_action_err_set(err, i,
					  "field 0x%x: offset %u + length %u exceeds %u bits",
					  field, offset, length, width);
		return -EINVAL;
	}
	return 0;
}

static bool
mlx5dm_ste_modify_add_allowed(uint32_t field)
{
	return field == MLX5DM_MODIFY_FLD_IP_TTL || field == MLX5DM_MODIFY_FLD_IPV6_HOPLIMIT ||
	       field == MLX5DM_MODIFY_FLD_TCP_SEQ_NUM || field == MLX5DM_MODIFY_FLD_TCP_ACK_NUM;
}

/* Translated form of one user action. */
struct mlx5dm_ste_modify_hw {
	uint8_t type;
	const struct mlx5dm_ste_modify_field *dst;
	const struct mlx5dm_ste_modify_field *src;	/* COPY only */
	uint8_t dst_bit;
	uint8_t src_bit;
	uint8_t length;
	uint32_t data;
};

static int
mlx5dm_ste_modify_parse(const struct mlx5dm_ste_ctx *ctx,
			const struct mlx5dm_ste_actions_attr *attr, const uint8_t *sw, int i,
			struct mlx5dm_ste_modify_hw *hw, struct mlx5dm_ste_action_err *err)
{
	uint32_t type = (uint32_t)mlx5dm_prm_fget(sw, IN.action_type);
	uint32_t field = (uint32_t)mlx5dm_prm_fget(sw, IN.field);
	uint32_t offset = (uint32_t)mlx5dm_prm_fget(sw, IN.offset);
	uint32_t length = (uint32_t)mlx5dm_prm_fget(sw, IN.length);
	uint32_t dst_field = (uint32_t)mlx5dm_prm_fget(sw, IN.dst_field);
	uint32_t dst_offset = (uint32_t)mlx5dm_prm_fget(sw, IN.dst_offset);
	uint32_t src_field = field, src_offset = offset;
	int ret;

	memset(hw, 0, sizeof(*hw));
	hw->type = (uint8_t)type;
	hw->data = (uint32_t)mlx5dm_prm_fget(sw, IN.data);
	if (type != MLX5DM_MODIFY_ACTION_SET && type != MLX5DM_MODIFY_ACTION_ADD &&
	    type != MLX5DM_MODIFY_ACTION_COPY) {
		mlx5dm_ste_action_err_set(err, i, "unknown modify action type %u", type);
		return -EOPNOTSUPP;
	}
	/* For COPY, field/offset are the source and the destination is dst_*. */
	if (type == MLX5DM_MODIFY_ACTION_COPY) {
		hw->src = mlx5dm_ste_modify_lookup(ctx, field);
		ret = mlx5dm_ste_modify_check_reg(attr, field, i, err);
		if (ret < 0)
			return ret;
		if (hw->src == NULL) {
			mlx5dm_ste_action_err_set(err, i, "unsupported modify field 0x%x", field);
			return -EINVAL;
		}
		hw->src_bit = (uint8_t)(hw->src->start + offset);
		field = dst_field;
		offset = dst_offset;
	}
	hw->dst = mlx5dm_ste_modify_lookup(ctx, field);
	if (hw->dst == NULL) {
		mlx5dm_ste_action_err_set(err, i, "unsupported modify field 0x%x", field);
		return -EINVAL;
	}
	ret = mlx5dm_ste_modify_check_reg(attr, field, i, err);
	if (ret < 0)
		return ret;
	if (type == MLX5DM_MODIFY_ACTION_ADD) {
		/* The adder only exists for the counters the device decrements/advances. */
		if (!mlx5dm_ste_modify_add_allowed(field)) {
			mlx5dm_ste_action_err_set(err, i, "ADD on field 0x%x (only TTL, hop limit,"
						  " TCP seq/ack)", field);
			return -EINVAL;
		}
		hw->dst_bit = hw->dst->start;
		hw->length = (uint8_t)(hw->dst->end - hw->dst->start + 1);
		return 0;
	}
	length = length != 0 ? length : 32;
	ret = mlx5dm_ste_modify_check_range(hw->dst, field, offset, length, i, err);
	if (ret == 0 && hw->src != NULL)
		ret = mlx5dm_ste_modify_check_range(hw->src, src_field, src_offset, length, i, err);
	hw->dst_bit = (uint8_t)(hw->dst->start + offset);
	hw->length = (uint8_t)length;
	return ret;
}

int
mlx5dm_ste_modify_translate(const struct mlx5dm_ste_ctx *ctx,
			    const struct mlx5dm_ste_actions_attr *attr,
			    const uint8_t *sw, unsigned int n_sw,
			    uint8_t *hw, unsigned int max_hw, unsigned int *n_hw,
			    struct mlx5dm_ste_action_err *err)
{
	uint8_t l3 = 0, l4 = 0;
	int prev_hw_field = -1;
	unsigned int i, idx = 0;
	int ret;

	if (ctx == NULL || attr == NULL || sw == NULL || hw == NULL || n_hw == NULL ||
	    n_sw == 0) {
		mlx5dm_ste_action_err_set(err, -1, "invalid arguments");
		return -EINVAL;
	}
	for (i = 0; i < n_sw; i++) {
		struct mlx5dm_ste_modify_hw a;

		ret = mlx5dm_ste_modify_parse(ctx, attr, sw + (size_t)i * MLX5DM_MODIFY_ACTION_SIZE,
					      (int)i, &a, err);
		if (ret < 0)
			return ret;
		/* The device rewrites one L3 and one L4 header kind per list. */
		if (a.dst->l3_class != 0 && l3 != 0 && a.dst->l3_class != l3) {
			mlx5dm_ste_action_err_set(err, (int)i, "%s and %s fields in one list",
						  mlx5dm_ste_l3_names[l3],
						  mlx5dm_ste_l3_names[a.dst->l3_class]);
			return -EINVAL;
		}
		if (a.dst->l4_class != 0 && l4 != 0 && a.dst->l4_class != l4) {
			mlx5dm_ste_action_err_set(err, (int)i, "%s and %s fields in one list",
						  mlx5dm_ste_l4_names[l4],
						  mlx5dm_ste_l4_names[a.dst->l4_class]);
			return -EINVAL;
		}
		if (a.dst->l3_class != 0)
			l3 = a.dst->l3_class;
		if (a.dst->l4_class != 0)
			l4 = a.dst->l4_class;
		/* Second of a pair touching the field of the first: NOP, next pair. */
		if ((idx % 2) == 1 &&
		    (prev_hw_field == a.dst->hw_field ||
		     (a.src != NULL && prev_hw_field == a.src->hw_field))) {
			memset(hw + (size_t)idx * MLX5DM_MODIFY_ACTION_SIZE, 0,
			       MLX5DM_MODIFY_ACTION_SIZE);
			idx++;
		}
		if (idx + (n_sw - i) > max_hw) {
			mlx5dm_ste_action_err_set(err, (int)i,
						  "modify list needs more than %u HW actions",
						  max_hw);
			return -EINVAL;
		}
		memset(hw + (size_t)idx * MLX5DM_MODIFY_ACTION_SIZE, 0, MLX5DM_MODIFY_ACTION_SIZE);
		ctx->modify_encode(hw + (size_t)idx * MLX5DM_MODIFY_ACTION_SIZE, a.type,
				   a.dst->hw_field, a.dst_bit, a.length, a.data,
				   a.src != NULL ? a.src->hw_field : 0, a.src_bit);
		prev_hw_field = a.dst->hw_field;
		idx++;
	}
	*n_hw = idx;
	return 0;
}

int
mlx5dm_ste_modify_pattern(const struct mlx5dm_ste_ctx *ctx, const uint8_t *hw, unsigned int n,
			  uint8_t *pattern)
{
	unsigned int i;

	if (ctx == NULL || hw == NULL || pattern == NULL)
		return -EINVAL;
	if (pattern != hw)
		memcpy(pattern, hw, (size_t)n * MLX5DM_MODIFY_ACTION_SIZE);
	for (i = 0; i < n; i++)
		ctx->modify_pattern(pattern + (size_t)i * MLX5DM_MODIFY_ACTION_SIZE);
	return 0;
}

bool
mlx5dm_ste_modify_pattern_equal(const struct mlx5dm_ste_ctx *ctx, const uint8_t *a,
				const uint8_t *b, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		size_t off = (size_t)i * MLX5DM_MODIFY_ACTION_SIZE;

		if (memcmp(a + off, b + off, ctx->modify_pattern_key(a + off)) != 0)
			return false;
	}
	return true;
}

uint32_t
mlx5dm_ste_modify_pattern_hash(const struct mlx5dm_ste_ctx *ctx, const uint8_t *pattern,
			       unsigned int n)
{
	uint64_t h = 0xcbf29ce484222325ull ^ n;
	unsigned int i;
	size_t k;

	/* FNV-1a over the compared bytes, folded. */
	for (i = 0; i < n; i++) {
		const uint8_t *a = pattern + (size_t)i * MLX5DM_MODIFY_ACTION_SIZE;
		size_t len = ctx->modify_pattern_key(a);

		for (k = 0; k < len; k++)
			h = (h ^ a[k]) * 0x100000001b3ull;
	}
	return (uint32_t)(h ^ h >> 32);
}

int
mlx5dm_ste_decap_l3_list(const struct mlx5dm_ste_ctx *ctx, const uint8_t *l2_hdr, size_t len,
			 uint8_t *hw, unsigned int max_hw, unsigned int *n_hw)
{
	if (ctx == NULL || l2_hdr == NULL || hw == NULL || n_hw == NULL)
		return -EINVAL;
	return ctx->decap_l3_list(l2_hdr, len, hw, max_hw, n_hw);
}
