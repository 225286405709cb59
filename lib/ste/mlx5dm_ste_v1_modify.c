/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * STE v1 modify-header encodings: where each user field lives in the
 * device's field space (code + bit range), the 8-byte SET/ADD/COPY
 * actions, and the action list of an L3-tunnel decap.
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_ste_priv.h"

#define HW(f) MLX5DM_MODIFY_V1_HW_##f
#define FLD(sw, hw, s, e, l3c, l4c) \
	[MLX5DM_MODIFY_FLD_##sw] = { .valid = 1, .hw_field = HW(hw), .start = (s), .end = (e), \
				     .l3_class = (l3c), .l4_class = (l4c) }
#define IPV4 1
#define IPV6 2
#define TCP 1
#define UDP 2

/* GTPU_TEID is absent: it needs the device's flex-parser ids (not wired yet). */
const struct mlx5dm_ste_modify_field mlx5dm_ste_v1_modify_map[MLX5DM_MODIFY_FLD_MAX] = {
	FLD(SMAC_47_16, SRC_L2_OUT_0, 0, 31, 0, 0),
	FLD(SMAC_15_0, SRC_L2_OUT_1, 16, 31, 0, 0),
	FLD(ETHERTYPE, L2_OUT_1, 0, 15, 0, 0),
	FLD(DMAC_47_16, L2_OUT_0, 0, 31, 0, 0),
	FLD(DMAC_15_0, L2_OUT_1, 16, 31, 0, 0),
	FLD(IP_DSCP, L3_OUT_0, 18, 23, 0, 0),
	FLD(IP_ECN, L3_OUT_0, 16, 17, 0, 0),
	FLD(TCP_FLAGS, L4_OUT_1, 16, 24, 0, TCP),
	FLD(TCP_SPORT, L4_OUT_0, 16, 31, 0, TCP),
	FLD(TCP_DPORT, L4_OUT_0, 0, 15, 0, TCP),
	FLD(IP_TTL, L3_OUT_0, 8, 15, IPV4, 0),
	FLD(IPV6_HOPLIMIT, L3_OUT_0, 8, 15, IPV6, 0),
	FLD(UDP_SPORT, L4_OUT_0, 16, 31, 0, UDP),
	FLD(UDP_DPORT, L4_OUT_0, 0, 15, 0, UDP),
	FLD(SIPV6_127_96, IPV6_SRC_OUT_0, 0, 31, IPV6, 0),
	FLD(SIPV6_95_64, IPV6_SRC_OUT_1, 0, 31, IPV6, 0),
	FLD(SIPV6_63_32, IPV6_SRC_OUT_2, 0, 31, IPV6, 0),
	FLD(SIPV6_31_0, IPV6_SRC_OUT_3, 0, 31, IPV6, 0),
	FLD(DIPV6_127_96, IPV6_DST_OUT_0, 0, 31, IPV6, 0),
	FLD(DIPV6_95_64, IPV6_DST_OUT_1, 0, 31, IPV6, 0),
	FLD(DIPV6_63_32, IPV6_DST_OUT_2, 0, 31, IPV6, 0),
	FLD(DIPV6_31_0, IPV6_DST_OUT_3, 0, 31, IPV6, 0),
	FLD(SIPV4, IPV4_OUT_0, 0, 31, IPV4, 0),
	FLD(DIPV4, IPV4_OUT_1, 0, 31, IPV4, 0),
	FLD(METADATA_REG_A, GNRL_PURPOSE, 0, 31, 0, 0),
	FLD(METADATA_REG_B, METADATA_2_CQE, 0, 31, 0, 0),
	FLD(METADATA_REG_C_0, REGISTER_0_0, 0, 31, 0, 0),
	FLD(METADATA_REG_C_1, REGISTER_0_1, 0, 31, 0, 0),
	FLD(METADATA_REG_C_2, REGISTER_1_0, 0, 31, 0, 0),
	FLD(METADATA_REG_C_3, REGISTER_1_1, 0, 31, 0, 0),
	FLD(METADATA_REG_C_4, REGISTER_2_0, 0, 31, 0, 0),
	FLD(METADATA_REG_C_5, REGISTER_2_1, 0, 31, 0, 0),
	FLD(TCP_SEQ_NUM, TCP_MISC_0, 0, 31, 0, 0),
	FLD(TCP_ACK_NUM, TCP_MISC_1, 0, 31, 0, 0),
	FLD(FIRST_VID, L2_OUT_2, 0, 15, 0, 0),
};

/* SET/ADD/COPY differ only in the id and in DW1: data, addend or source. */
void
mlx5dm_ste_v1_modify_encode(uint8_t *hw, uint8_t sw_type, uint8_t dst_hw_field,
			    uint8_t dst_bit, uint8_t length, uint32_t data,
			    uint8_t src_hw_field, uint8_t src_bit)
{
	static const uint8_t ids[] = {
		[MLX5DM_MODIFY_ACTION_SET] = MLX5DM_STE_V1_ACT_SET,
		[MLX5DM_MODIFY_ACTION_ADD] = MLX5DM_STE_V1_ACT_ADD,
		[MLX5DM_MODIFY_ACTION_COPY] = MLX5DM_STE_V1_ACT_COPY,
	};
	const struct mlx5dm_prm_modify_v1 *l = &mlx5dm_prm_modify_v1;

	mlx5dm_prm_fset(hw, l->action_id, ids[sw_type]);
	mlx5dm_prm_fset(hw, l->destination_dw_offset, dst_hw_field);
	mlx5dm_prm_fset(hw, l->destination_left_shifter, dst_bit + MLX5DM_MODIFY_V1_SHIFTER_BASE);
	mlx5dm_prm_fset(hw, l->destination_length, length);
	if (sw_type == MLX5DM_MODIFY_ACTION_COPY) {
		mlx5dm_prm_fset(hw, l->source_dw_offset, src_hw_field);
		mlx5dm_prm_fset(hw, l->source_right_shifter,
				src_bit + MLX5DM_MODIFY_V1_SHIFTER_BASE);
	} else {
		mlx5dm_prm_fset(hw, l->inline_data, data);
	}
}

/*
 * Pattern of one HW action: the inline data of SET, ADD and INSERT_INLINE
 * is per rule (it comes from the argument); COPY and removals have none.
 */
void
mlx5dm_ste_v1_modify_pattern(uint8_t *action)
{
	uint32_t id = (uint32_t)mlx5dm_prm_fget(action, mlx5dm_prm_modify_v1.action_id);

	if (id == MLX5DM_STE_V1_ACT_SET || id == MLX5DM_STE_V1_ACT_ADD)
		mlx5dm_prm_fset(action, mlx5dm_prm_modify_v1.inline_data, 0);
	else if (id == MLX5DM_STE_V1_ACT_INSERT_INLINE)
		mlx5dm_prm_fset(action, mlx5dm_prm_ste_v1_act_insert_inline.inline_data, 0);
}

/*
 * A COPY is all pattern (source and destination); any other action's
 * second dword is per-rule data or unused, so only its first one counts.
 */
unsigned int
mlx5dm_ste_v1_modify_pattern_key(const uint8_t *action)
{
	uint32_t id = (uint32_t)mlx5dm_prm_fget(action, mlx5dm_prm_modify_v1.action_id);

	return id == MLX5DM_STE_V1_ACT_COPY ? MLX5DM_MODIFY_ACTION_SIZE : 4u;
}

/*
 * L3 decap: (1) remove everything up to the inner L3 header; (2) insert the
 * new L2 header 4 bytes at a time at the packet start, last dword first, so
 * it ends up in order - the header (14 or 18 bytes) is first left-padded
 * with 2 zero bytes to a multiple of 4; (3) remove the 2 padding bytes.
 * Every action takes an 8-byte slot of the list.
 */
int
mlx5dm_ste_v1_decap_l3_list(const uint8_t *l2_hdr, size_t len, uint8_t *hw,
			    unsigned int max_hw, unsigned int *n_hw)
{
	uint8_t padded[20] = { 0 };
	unsigned int n_dw, n, i;
	size_t pad;

	if (len != 14 && len != 18)
		return -EINVAL;
	pad = len % 4;
	n_dw = (unsigned int)((len + pad) / 4);
	n = n_dw + 2;
	if (max_hw < n)
		return -ENOSPC;
	memcpy(padded + pad, l2_hdr, len);
	memset(hw, 0, (size_t)n * MLX5DM_MODIFY_ACTION_SIZE);
	mlx5dm_ste_v1_write_remove_header(hw, MLX5DM_STE_V1_ANCHOR_INNER_L3, true);
	for (i = 0; i < n_dw; i++)
		mlx5dm_ste_v1_write_insert_inline(hw + (size_t)(1 + i) * MLX5DM_MODIFY_ACTION_SIZE,
						  0, mlx5dm_prm_be32(padded + 4 * (n_dw - 1 - i)));
	mlx5dm_ste_v1_write_remove_size(hw + (size_t)(1 + n_dw) * MLX5DM_MODIFY_ACTION_SIZE,
					MLX5DM_STE_V1_ANCHOR_PACKET_START, 0, (uint8_t)(pad / 2));
	*n_hw = n;
	return 0;
}
