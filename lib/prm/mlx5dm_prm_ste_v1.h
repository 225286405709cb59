/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * STE format v1 (ConnectX-6 Dx; v2/v3 reuse it): the 32-byte control part of
 * a steering table entry and the action slots that live inside it.
 *
 * Two entry kinds share DW0..DW4: the legacy "BWC" entry (16-byte tag and
 * 16-byte bit mask in the data half, two 4-byte action slots in DW6..DW7)
 * and the MATCH entry (32-byte definer tag, 12 bytes of actions in DW5..DW7).
 * The positions are declared once, here, as data.
 *
 * BWC: rdma-core's name for the legacy entry (ste_match_bwc_v1 in mlx5_ifc.h,
 * DR_STE_V1_TYPE_BWC_* in dr_ste_v1.c); names here keep it.
 */

#ifndef _MLX5DM_PRM_STE_V1_H_
#define _MLX5DM_PRM_STE_V1_H_

#include "mlx5dm_prm_bits.h"

/* STE geometry (bytes). Software keeps BWC entries as ctrl|tag|mask. */
enum {
	MLX5DM_STE_SIZE = 64,
	MLX5DM_STE_CTRL_SIZE = 32,
	MLX5DM_STE_TAG_SIZE = 16,
	MLX5DM_STE_MASK_SIZE = 16,
	MLX5DM_STE_MATCH_TAG_SIZE = 32,
	MLX5DM_STE_TAG_OFF = 32,
	MLX5DM_STE_MASK_OFF = 48,
};

/* DW0[31:24] entry_format. */
enum mlx5dm_ste_v1_entry_format {
	MLX5DM_STE_V1_FMT_BWC_BYTE = 0x0,
	MLX5DM_STE_V1_FMT_BWC_DW = 0x1,
	MLX5DM_STE_V1_FMT_MATCH_AND_MASK_BYTE = 0x2,
	MLX5DM_STE_V1_FMT_MATCH_AND_MASK_DW = 0x3,
	MLX5DM_STE_V1_FMT_MATCH = 0x4,
};

/*
 * v1 lookup types: (mode << 8) | index. The mode goes to entry_format
 * (next_entry_format for the next table), the index to
 * match_definer_ctx_idx (hash_definer_ctx_idx for the next table).
 * _O = outer headers, _I = inner headers.
 */
enum mlx5dm_ste_v1_lu_type {
	MLX5DM_STE_V1_LU_NOP = 0x0000,
	MLX5DM_STE_V1_LU_ETHL2_TNL = 0x0002,
	MLX5DM_STE_V1_LU_ETHL2_O = 0x0003,
	MLX5DM_STE_V1_LU_ETHL2_I = 0x0004,
	MLX5DM_STE_V1_LU_ETHL2_SRC_O = 0x0005,
	MLX5DM_STE_V1_LU_ETHL2_SRC_I = 0x0006,
	MLX5DM_STE_V1_LU_ETHL3_IPV4_5_TUPLE_O = 0x0007,
	MLX5DM_STE_V1_LU_ETHL3_IPV4_5_TUPLE_I = 0x0008,
	MLX5DM_STE_V1_LU_ETHL4_O = 0x0009,
	MLX5DM_STE_V1_LU_ETHL4_I = 0x000a,
	MLX5DM_STE_V1_LU_ETHL2_SRC_DST_O = 0x000b,
	MLX5DM_STE_V1_LU_ETHL2_SRC_DST_I = 0x000c,
	MLX5DM_STE_V1_LU_ETHL3_IPV4_MISC_O = 0x000d,
	MLX5DM_STE_V1_LU_FLEX_PARSER_TNL_HEADER = 0x000e,
	/* Same number as DONT_CARE: anchors and action STEs use it. */
	MLX5DM_STE_V1_LU_ETHL3_IPV4_MISC_I = 0x000f,
	MLX5DM_STE_V1_LU_DONT_CARE = 0x000f,
	MLX5DM_STE_V1_LU_FLEX_PARSER_OK = 0x0011,
	MLX5DM_STE_V1_LU_INVALID = 0x00ff,
	MLX5DM_STE_V1_LU_IBL3_EXT = 0x0102,
	MLX5DM_STE_V1_LU_IBL4 = 0x0103,
	MLX5DM_STE_V1_LU_SRC_QP_GVMI = 0x0104,
	MLX5DM_STE_V1_LU_ETHL2_HEADERS_O = 0x0105,
	MLX5DM_STE_V1_LU_ETHL2_HEADERS_I = 0x0106,
	MLX5DM_STE_V1_LU_IPV6_DES_O = 0x0107,
	MLX5DM_STE_V1_LU_IPV6_DES_I = 0x0108,
	MLX5DM_STE_V1_LU_IPV6_SRC_O = 0x0109,
	MLX5DM_STE_V1_LU_IPV6_SRC_I = 0x010a,
	MLX5DM_STE_V1_LU_MPLS_O = 0x010b,
	MLX5DM_STE_V1_LU_MPLS_I = 0x010c,
	MLX5DM_STE_V1_LU_GRE = 0x010d,
	MLX5DM_STE_V1_LU_GENERAL_PURPOSE = 0x010e,
	MLX5DM_STE_V1_LU_STEERING_REGISTERS_0 = 0x010f,
	MLX5DM_STE_V1_LU_STEERING_REGISTERS_1 = 0x0110,
	MLX5DM_STE_V1_LU_FLEX_PARSER_0 = 0x0111,
	MLX5DM_STE_V1_LU_FLEX_PARSER_1 = 0x0112,
	MLX5DM_STE_V1_LU_ETHL4_MISC_O = 0x0113,
	MLX5DM_STE_V1_LU_ETHL4_MISC_I = 0x0114,
	MLX5DM_STE_V1_LU_TNL_HEADER = 0x0117,
	/* Definer-based MATCH lookups: MATCH | definer object id. */
	MLX5DM_STE_V1_LU_MATCH = 0x0400,
};

/*
 * Control part of a v1 STE (ste_match_bwc_v1 / ste_mask_and_match_v1).
 * Fields marked BWC exist only in legacy entries; in a MATCH entry the
 * same bits belong to the 12-byte action area.
 */
struct mlx5dm_prm_ste_v1_ctrl {
	struct mlx5dm_prm_field entry_format;
	struct mlx5dm_prm_field counter_id;
	struct mlx5dm_prm_field miss_address_63_48;	/* miss GVMI */
	struct mlx5dm_prm_field match_definer_ctx_idx;	/* own lookup index */
	struct mlx5dm_prm_field miss_address_39_32;
	struct mlx5dm_prm_field miss_address_31_6;
	struct mlx5dm_prm_field match_polarity;
	struct mlx5dm_prm_field reparse;
	struct mlx5dm_prm_field next_table_base_63_48;	/* hit GVMI */
	struct mlx5dm_prm_field hash_definer_ctx_idx;	/* next lookup index */
	struct mlx5dm_prm_field next_table_base_39_32_size;
	struct mlx5dm_prm_field next_table_base_31_5_size;
	struct mlx5dm_prm_field hash_type;
	struct mlx5dm_prm_field hash_after_actions;
	struct mlx5dm_prm_field byte_mask;		/* BWC */
	struct mlx5dm_prm_field next_entry_format;	/* BWC */
	struct mlx5dm_prm_field mask_mode;		/* BWC */
	struct mlx5dm_prm_field gvmi;			/* BWC */
	struct mlx5dm_prm_field bwc_action;		/* BWC: 8 bytes at DW6 */
	struct mlx5dm_prm_field match_action;		/* MATCH: 12 bytes at DW5 */
};
extern const struct mlx5dm_prm_ste_v1_ctrl mlx5dm_prm_ste_v1;

/*
 * The positions themselves (PRM bit offset, width), as a constant
 * initializer: mlx5dm_prm_ste_v1 is made of it, and code on a hot path may
 * keep a static copy so its compiler sees constant fields.
 */
#define MLX5DM_PRM_STE_V1_CTRL_INIT { \
	.entry_format = MLX5DM_PRM_FIELD_INIT(0x000, 8), \
	.counter_id = MLX5DM_PRM_FIELD_INIT(0x008, 24), \
	.miss_address_63_48 = MLX5DM_PRM_FIELD_INIT(0x020, 16), \
	.match_definer_ctx_idx = MLX5DM_PRM_FIELD_INIT(0x030, 8), \
	.miss_address_39_32 = MLX5DM_PRM_FIELD_INIT(0x038, 8), \
	.miss_address_31_6 = MLX5DM_PRM_FIELD_INIT(0x040, 26), \
	.match_polarity = MLX5DM_PRM_FIELD_INIT(0x05b, 1), \
	.reparse = MLX5DM_PRM_FIELD_INIT(0x05c, 1), \
	.next_table_base_63_48 = MLX5DM_PRM_FIELD_INIT(0x060, 16), \
	.hash_definer_ctx_idx = MLX5DM_PRM_FIELD_INIT(0x070, 8), \
	.next_table_base_39_32_size = MLX5DM_PRM_FIELD_INIT(0x078, 8), \
	.next_table_base_31_5_size = MLX5DM_PRM_FIELD_INIT(0x080, 27), \
	.hash_type = MLX5DM_PRM_FIELD_INIT(0x09b, 2), \
	.hash_after_actions = MLX5DM_PRM_FIELD_INIT(0x09d, 1), \
	.byte_mask = MLX5DM_PRM_FIELD_INIT(0x0a0, 16), \
	.next_entry_format = MLX5DM_PRM_FIELD_INIT(0x0b0, 1), \
	.mask_mode = MLX5DM_PRM_FIELD_INIT(0x0b1, 1), \
	.gvmi = MLX5DM_PRM_FIELD_INIT(0x0b2, 14), \
	.bwc_action = MLX5DM_PRM_FIELD_INIT(0x0c0, 64), \
	.match_action = MLX5DM_PRM_FIELD_INIT(0x0a0, 96), \
}

/* Size of the action area of each entry kind and of the action encodings. */
enum {
	MLX5DM_STE_V1_ACTION_SINGLE_SIZE = 4,
	MLX5DM_STE_V1_ACTION_DOUBLE_SIZE = 8,
	MLX5DM_STE_V1_ACTION_TRIPLE_SIZE = 12,
	MLX5DM_STE_V1_BWC_ACTION_OFF = 24,
	MLX5DM_STE_V1_MATCH_ACTION_OFF = 20,
};

/* First byte of every action slot. */
enum mlx5dm_ste_v1_action_id {
	MLX5DM_STE_V1_ACT_NOP = 0x00,
	MLX5DM_STE_V1_ACT_COPY = 0x05,
	MLX5DM_STE_V1_ACT_SET = 0x06,
	MLX5DM_STE_V1_ACT_ADD = 0x07,
	MLX5DM_STE_V1_ACT_REMOVE_BY_SIZE = 0x08,
	MLX5DM_STE_V1_ACT_REMOVE_HEADER_TO_HEADER = 0x09,
	MLX5DM_STE_V1_ACT_INSERT_INLINE = 0x0a,
	MLX5DM_STE_V1_ACT_INSERT_POINTER = 0x0b,
	MLX5DM_STE_V1_ACT_FLOW_TAG = 0x0c,
	MLX5DM_STE_V1_ACT_QUEUE_ID_SEL = 0x0d,
	MLX5DM_STE_V1_ACT_ACCELERATED_LIST = 0x0e,
	MLX5DM_STE_V1_ACT_MODIFY_LIST = 0x0f,
	MLX5DM_STE_V1_ACT_ASO = 0x12,
};

/* Packet header anchors used by insert/remove actions. */
enum mlx5dm_ste_v1_anchor {
	MLX5DM_STE_V1_ANCHOR_PACKET_START = 0x00,
	MLX5DM_STE_V1_ANCHOR_FIRST_VLAN = 0x02,
	MLX5DM_STE_V1_ANCHOR_OUTER_L3 = 0x07,
	MLX5DM_STE_V1_ANCHOR_INNER_MAC = 0x13,
	MLX5DM_STE_V1_ANCHOR_INNER_L3 = 0x19,
};

/* INSERT_POINTER attributes. */
enum mlx5dm_ste_v1_insert_attr {
	MLX5DM_STE_V1_INSERT_ATTR_NONE = 0,
	MLX5DM_STE_V1_INSERT_ATTR_ENCAP = 1,
	MLX5DM_STE_V1_INSERT_ATTR_ESP = 2,
};

/* Action slot layouts (mlx5_ifc.h ste_*_action_*_v1), offsets from the slot start. */
struct mlx5dm_prm_ste_v1_act_flow_tag {
	struct mlx5dm_prm_field action_id;
	struct mlx5dm_prm_field flow_tag;
};
extern const struct mlx5dm_prm_ste_v1_act_flow_tag mlx5dm_prm_ste_v1_act_flow_tag;
/* As MLX5DM_PRM_STE_V1_CTRL_INIT: every rule with a MARK or FLAG action writes its tag. */
#define MLX5DM_PRM_STE_V1_ACT_FLOW_TAG_INIT { \
	.action_id = MLX5DM_PRM_FIELD_INIT(0x00, 8), \
	.flow_tag = MLX5DM_PRM_FIELD_INIT(0x08, 24), \
}

struct mlx5dm_prm_ste_v1_act_modify_list {
	struct mlx5dm_prm_field action_id;
	struct mlx5dm_prm_field num_of_modify_actions;
	struct mlx5dm_prm_field modify_actions_ptr;
};
extern const struct mlx5dm_prm_ste_v1_act_modify_list mlx5dm_prm_ste_v1_act_modify_list;

struct mlx5dm_prm_ste_v1_act_remove_header {
	struct mlx5dm_prm_field action_id;
	struct mlx5dm_prm_field start_anchor;
	struct mlx5dm_prm_field end_anchor;
	struct mlx5dm_prm_field decap;
	struct mlx5dm_prm_field vni_to_cqe;
	struct mlx5dm_prm_field qos_profile;
};
extern const struct mlx5dm_prm_ste_v1_act_remove_header mlx5dm_prm_ste_v1_act_remove_header;

/* Offsets and sizes in 2-byte words. */
struct mlx5dm_prm_ste_v1_act_remove_size {
	struct mlx5dm_prm_field action_id;
	struct mlx5dm_prm_field start_anchor;
	struct mlx5dm_prm_field outer_l4_remove;
	struct mlx5dm_prm_field start_offset;
	struct mlx5dm_prm_field remove_size;
};
extern const struct mlx5dm_prm_ste_v1_act_remove_size mlx5dm_prm_ste_v1_act_remove_size;

struct mlx5dm_prm_ste_v1_act_insert_inline {
	struct mlx5dm_prm_field action_id;
	struct mlx5dm_prm_field start_anchor;
	struct mlx5dm_prm_field start_offset;	/* words */
	struct mlx5dm_prm_field inline_data;
};
extern const struct mlx5dm_prm_ste_v1_act_insert_inline mlx5dm_prm_ste_v1_act_insert_inline;

struct mlx5dm_prm_ste_v1_act_insert_ptr {
	struct mlx5dm_prm_field action_id;
	struct mlx5dm_prm_field start_anchor;
	struct mlx5dm_prm_field start_offset;	/* words */
	struct mlx5dm_prm_field size;		/* words */
	struct mlx5dm_prm_field attributes;
	struct mlx5dm_prm_field pointer;
};
extern const struct mlx5dm_prm_ste_v1_act_insert_ptr mlx5dm_prm_ste_v1_act_insert_ptr;

struct mlx5dm_prm_ste_v1_act_accel_list {
	struct mlx5dm_prm_field action_id;
	struct mlx5dm_prm_field modify_actions_pattern_pointer;
	struct mlx5dm_prm_field number_of_modify_actions;
	struct mlx5dm_prm_field modify_actions_argument_pointer;
};
extern const struct mlx5dm_prm_ste_v1_act_accel_list mlx5dm_prm_ste_v1_act_accel_list;

#endif /* _MLX5DM_PRM_STE_V1_H_ */
