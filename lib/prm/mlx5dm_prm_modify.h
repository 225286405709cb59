/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Modify-header actions, 8 bytes each, in their two shapes:
 *  - the user (PRM) format set/add/copy_action_in, naming header fields by
 *    MLX5_ACTION_IN_FIELD_OUT_* ids;
 *  - the v1 hardware format (SET/ADD/COPY "double" actions) that the device
 *    executes from modify-header ICM, an STE action slot or an argument.
 */

#ifndef _MLX5DM_PRM_MODIFY_H_
#define _MLX5DM_PRM_MODIFY_H_

#include "mlx5dm_prm_bits.h"

enum {
	MLX5DM_MODIFY_ACTION_SIZE = 8,
};

/* set/add/copy_action_in action_type. */
enum mlx5dm_modify_action_type {
	MLX5DM_MODIFY_ACTION_SET = 0x1,
	MLX5DM_MODIFY_ACTION_ADD = 0x2,
	MLX5DM_MODIFY_ACTION_COPY = 0x3,
};

/* Header field ids of the user format (MLX5_ACTION_IN_FIELD_OUT_*). */
enum mlx5dm_modify_field {
	MLX5DM_MODIFY_FLD_SMAC_47_16 = 0x01,
	MLX5DM_MODIFY_FLD_SMAC_15_0 = 0x02,
	MLX5DM_MODIFY_FLD_ETHERTYPE = 0x03,
	MLX5DM_MODIFY_FLD_DMAC_47_16 = 0x04,
	MLX5DM_MODIFY_FLD_DMAC_15_0 = 0x05,
	MLX5DM_MODIFY_FLD_IP_DSCP = 0x06,
	MLX5DM_MODIFY_FLD_TCP_FLAGS = 0x07,
	MLX5DM_MODIFY_FLD_TCP_SPORT = 0x08,
	MLX5DM_MODIFY_FLD_TCP_DPORT = 0x09,
	MLX5DM_MODIFY_FLD_IP_TTL = 0x0a,
	MLX5DM_MODIFY_FLD_UDP_SPORT = 0x0b,
	MLX5DM_MODIFY_FLD_UDP_DPORT = 0x0c,
	MLX5DM_MODIFY_FLD_SIPV6_127_96 = 0x0d,
	MLX5DM_MODIFY_FLD_SIPV6_95_64 = 0x0e,
	MLX5DM_MODIFY_FLD_SIPV6_63_32 = 0x0f,
	MLX5DM_MODIFY_FLD_SIPV6_31_0 = 0x10,
	MLX5DM_MODIFY_FLD_DIPV6_127_96 = 0x11,
	MLX5DM_MODIFY_FLD_DIPV6_95_64 = 0x12,
	MLX5DM_MODIFY_FLD_DIPV6_63_32 = 0x13,
	MLX5DM_MODIFY_FLD_DIPV6_31_0 = 0x14,
	MLX5DM_MODIFY_FLD_SIPV4 = 0x15,
	MLX5DM_MODIFY_FLD_DIPV4 = 0x16,
	MLX5DM_MODIFY_FLD_FIRST_VID = 0x17,
	MLX5DM_MODIFY_FLD_IPV6_HOPLIMIT = 0x47,
	MLX5DM_MODIFY_FLD_METADATA_REG_A = 0x49,
	MLX5DM_MODIFY_FLD_METADATA_REG_B = 0x50,
	MLX5DM_MODIFY_FLD_METADATA_REG_C_0 = 0x51,
	MLX5DM_MODIFY_FLD_METADATA_REG_C_1 = 0x52,
	MLX5DM_MODIFY_FLD_METADATA_REG_C_2 = 0x53,
	MLX5DM_MODIFY_FLD_METADATA_REG_C_3 = 0x54,
	MLX5DM_MODIFY_FLD_METADATA_REG_C_4 = 0x55,
	MLX5DM_MODIFY_FLD_METADATA_REG_C_5 = 0x56,
	MLX5DM_MODIFY_FLD_TCP_SEQ_NUM = 0x59,
	MLX5DM_MODIFY_FLD_TCP_ACK_NUM = 0x5b,
	MLX5DM_MODIFY_FLD_GTPU_TEID = 0x6e,
	MLX5DM_MODIFY_FLD_IP_ECN = 0x73,
	MLX5DM_MODIFY_FLD_MAX = 0x74,
};

/*
 * set_action_in / add_action_in / copy_action_in share DW0[31:16]; the
 * other fields are used by the shapes noted (for COPY, field/offset are the
 * source). A length of 0 means 32 bits.
 */
struct mlx5dm_prm_modify_in {
	struct mlx5dm_prm_field action_type;
	struct mlx5dm_prm_field field;		/* SET/ADD: field; COPY: src_field */
	struct mlx5dm_prm_field offset;		/* SET; COPY: src_offset */
	struct mlx5dm_prm_field length;		/* SET, COPY */
	struct mlx5dm_prm_field data;		/* SET: value; ADD: addend */
	struct mlx5dm_prm_field dst_field;	/* COPY */
	struct mlx5dm_prm_field dst_offset;	/* COPY */
};
extern const struct mlx5dm_prm_modify_in mlx5dm_prm_modify_in;

/*
 * v1 hardware SET/ADD/COPY (ste_double_action_set/add/copy_v1). Shifters
 * carry the bit position plus 0x20 (MLX5DM_MODIFY_V1_SHIFTER_BASE); the
 * length is 6 bits wide so 32 is written as 32.
 */
struct mlx5dm_prm_modify_v1 {
	struct mlx5dm_prm_field action_id;
	struct mlx5dm_prm_field destination_dw_offset;
	struct mlx5dm_prm_field destination_left_shifter;
	struct mlx5dm_prm_field destination_length;
	struct mlx5dm_prm_field inline_data;		/* SET data, ADD value */
	struct mlx5dm_prm_field source_dw_offset;	/* COPY */
	struct mlx5dm_prm_field source_right_shifter;	/* COPY */
};
extern const struct mlx5dm_prm_modify_v1 mlx5dm_prm_modify_v1;

enum {
	MLX5DM_MODIFY_V1_SHIFTER_BASE = 0x20,
};

/* v1 hardware field codes (the "dw_offset" of a modify action). */
enum mlx5dm_modify_v1_hw_field {
	MLX5DM_MODIFY_V1_HW_L2_OUT_0 = 0x00,
	MLX5DM_MODIFY_V1_HW_L2_OUT_1 = 0x01,
	MLX5DM_MODIFY_V1_HW_L2_OUT_2 = 0x02,
	MLX5DM_MODIFY_V1_HW_SRC_L2_OUT_0 = 0x08,
	MLX5DM_MODIFY_V1_HW_SRC_L2_OUT_1 = 0x09,
	MLX5DM_MODIFY_V1_HW_L3_OUT_0 = 0x0e,
	MLX5DM_MODIFY_V1_HW_L4_OUT_0 = 0x18,
	MLX5DM_MODIFY_V1_HW_L4_OUT_1 = 0x19,
	MLX5DM_MODIFY_V1_HW_IPV4_OUT_0 = 0x40,
	MLX5DM_MODIFY_V1_HW_IPV4_OUT_1 = 0x41,
	MLX5DM_MODIFY_V1_HW_IPV6_DST_OUT_0 = 0x44,
	MLX5DM_MODIFY_V1_HW_IPV6_DST_OUT_1 = 0x45,
	MLX5DM_MODIFY_V1_HW_IPV6_DST_OUT_2 = 0x46,
	MLX5DM_MODIFY_V1_HW_IPV6_DST_OUT_3 = 0x47,
	MLX5DM_MODIFY_V1_HW_IPV6_SRC_OUT_0 = 0x4c,
	MLX5DM_MODIFY_V1_HW_IPV6_SRC_OUT_1 = 0x4d,
	MLX5DM_MODIFY_V1_HW_IPV6_SRC_OUT_2 = 0x4e,
	MLX5DM_MODIFY_V1_HW_IPV6_SRC_OUT_3 = 0x4f,
	MLX5DM_MODIFY_V1_HW_TCP_MISC_0 = 0x5e,
	MLX5DM_MODIFY_V1_HW_TCP_MISC_1 = 0x5f,
	MLX5DM_MODIFY_V1_HW_METADATA_2_CQE = 0x7b,
	MLX5DM_MODIFY_V1_HW_GNRL_PURPOSE = 0x7c,
	/* Flex parser k is 0x89 - k (k = 0..7). */
	MLX5DM_MODIFY_V1_HW_FLEX_PARSER_0 = 0x89,
	MLX5DM_MODIFY_V1_HW_REGISTER_2_0 = 0x8c,
	MLX5DM_MODIFY_V1_HW_REGISTER_2_1 = 0x8d,
	MLX5DM_MODIFY_V1_HW_REGISTER_1_0 = 0x8e,
	MLX5DM_MODIFY_V1_HW_REGISTER_1_1 = 0x8f,
	MLX5DM_MODIFY_V1_HW_REGISTER_0_0 = 0x90,
	MLX5DM_MODIFY_V1_HW_REGISTER_0_1 = 0x91,
};

#endif /* _MLX5DM_PRM_MODIFY_H_ */
