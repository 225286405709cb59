/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * QUERY_HCA_CAP: the command, the capability types and the capability
 * fields the steering library reads (rdma-core dr_domain.c, dr_devx.c). Field positions
 * are offsets inside the whole QUERY_HCA_CAP *output* mailbox (the
 * capability union starts at byte 16), so a caller can read a field straight
 * from the output buffer the device returned.
 */

#ifndef _MLX5DM_PRM_CAPS_H_
#define _MLX5DM_PRM_CAPS_H_

#include "mlx5dm_prm_bits.h"

enum {
	MLX5DM_CMD_QUERY_HCA_CAP = 0x100,
	/* Output: 16-byte header + 4 KiB capability union. */
	MLX5DM_QUERY_HCA_CAP_OUT_SIZE = 16 + 4096,
	MLX5DM_QUERY_HCA_CAP_CAP_OFF = 16,
};

/* op_mod = (cap_type << 1) | 1 (1 = current values). */
enum mlx5dm_hca_cap_type {
	MLX5DM_HCA_CAP_GENERAL = 0x0,
	MLX5DM_HCA_CAP_ROCE = 0x4,
	MLX5DM_HCA_CAP_NIC_FLOW_TABLE = 0x7,
	MLX5DM_HCA_CAP_ESW_FLOW_TABLE = 0x8,
	MLX5DM_HCA_CAP_ESW = 0x9,
	MLX5DM_HCA_CAP_DEVICE_MEMORY = 0xf,
};
#define MLX5DM_HCA_CAP_OPMOD(type) ((uint16_t)(((type) << 1) | 1))

/* query_hca_cap_in. */
struct mlx5dm_prm_query_hca_cap_in {
	struct mlx5dm_prm_field opcode;
	struct mlx5dm_prm_field op_mod;
	struct mlx5dm_prm_field other_function;
	struct mlx5dm_prm_field function_id;
};
extern const struct mlx5dm_prm_query_hca_cap_in mlx5dm_prm_query_hca_cap_in;

/* Bits of general_obj_types / flex_parser_protocols the library tests. */
enum {
	MLX5DM_GENERAL_OBJ_TYPE_HEADER_MODIFY_ARGUMENT = 0x23,
	MLX5DM_FLEX_PARSER_GENEVE_ENABLED = 1u << 3,
	MLX5DM_FLEX_PARSER_MPLS_OVER_GRE_ENABLED = 1u << 4,
	MLX5DM_FLEX_PARSER_MPLS_OVER_UDP_ENABLED = 1u << 5,
	MLX5DM_FLEX_PARSER_VXLAN_GPE_ENABLED = 1u << 7,
	MLX5DM_FLEX_PARSER_ICMP_V4_ENABLED = 1u << 8,
	MLX5DM_FLEX_PARSER_ICMP_V6_ENABLED = 1u << 9,
	MLX5DM_FLEX_PARSER_GENEVE_OPT_0_ENABLED = 1u << 10,
	MLX5DM_FLEX_PARSER_GTPU_ENABLED = 1u << 11,
	MLX5DM_FLEX_PARSER_GTPU_DW_2_ENABLED = 1u << 16,
	MLX5DM_FLEX_PARSER_GTPU_FIRST_EXT_DW_0_ENABLED = 1u << 17,
	MLX5DM_FLEX_PARSER_GTPU_DW_0_ENABLED = 1u << 18,
	MLX5DM_FLEX_PARSER_GTPU_TEID_ENABLED = 1u << 19,
};

/* General device capabilities (cmd_hca_cap, op_mod cap type 0). */
struct mlx5dm_prm_caps_general {
	struct mlx5dm_prm_field vhca_id;
	struct mlx5dm_prm_field log_max_qp_sz;
	struct mlx5dm_prm_field log_max_cq_sz;
	struct mlx5dm_prm_field isolate_vl_tc_new;
	struct mlx5dm_prm_field prio_tag_required;
	struct mlx5dm_prm_field eswitch_manager;
	struct mlx5dm_prm_field roce;
	struct mlx5dm_prm_field fl_rc_qp_when_roce_disabled;
	struct mlx5dm_prm_field general_obj_types;		/* 64 bits */
	struct mlx5dm_prm_field sq_ts_format;
	struct mlx5dm_prm_field steering_format_version;
	struct mlx5dm_prm_field flex_parser_protocols;
	struct mlx5dm_prm_field flex_parser_header_modify;
	struct mlx5dm_prm_field flex_parser_id_gtpu_dw_0;
	struct mlx5dm_prm_field flex_parser_id_gtpu_teid;
	struct mlx5dm_prm_field sf;
	struct mlx5dm_prm_field flex_parser_id_geneve_opt_0;
	struct mlx5dm_prm_field flex_parser_id_icmp_dw1;
	struct mlx5dm_prm_field flex_parser_id_icmp_dw0;
	struct mlx5dm_prm_field flex_parser_id_icmpv6_dw1;
	struct mlx5dm_prm_field flex_parser_id_icmpv6_dw0;
	struct mlx5dm_prm_field flex_parser_id_outer_first_mpls_over_gre;
	struct mlx5dm_prm_field flex_parser_id_outer_first_mpls_over_udp_label;
	struct mlx5dm_prm_field flex_parser_id_gtpu_dw_2;
	struct mlx5dm_prm_field flex_parser_id_gtpu_first_ext_dw_0;
	struct mlx5dm_prm_field log_header_modify_argument_granularity;
	struct mlx5dm_prm_field log_header_modify_argument_max_alloc;
	struct mlx5dm_prm_field match_definer_format_supported;	/* 64 bits */
	struct mlx5dm_prm_field flow_counter_bulk_alloc;	/* bit k: bulks of 128 << k */
	struct mlx5dm_prm_field log_max_flow_counter_bulk;
	struct mlx5dm_prm_field rq_ts_format;
};
extern const struct mlx5dm_prm_caps_general mlx5dm_prm_caps_general;

/* flow_table_prop_layout fields, for one direction of a flow table cap. */
struct mlx5dm_prm_caps_ft_props {
	struct mlx5dm_prm_field ft_support;
	struct mlx5dm_prm_field reformat;
	struct mlx5dm_prm_field decap;
	struct mlx5dm_prm_field pop_vlan;
	struct mlx5dm_prm_field push_vlan;
	struct mlx5dm_prm_field pop_vlan_2;
	struct mlx5dm_prm_field push_vlan_2;
	struct mlx5dm_prm_field sw_owner;
	struct mlx5dm_prm_field reformat_l3_tunnel_to_l2;
	struct mlx5dm_prm_field reformat_l2_to_l3_tunnel;
	struct mlx5dm_prm_field sw_owner_v2;
	struct mlx5dm_prm_field log_max_ft_size;
	struct mlx5dm_prm_field max_modify_header_actions;
	struct mlx5dm_prm_field max_ft_level;
};

/* NIC flow table capabilities (flow_table_nic_cap, cap type 7). */
struct mlx5dm_prm_caps_nic_ft {
	struct mlx5dm_prm_field max_encap_header_size;
	struct mlx5dm_prm_caps_ft_props rx;	/* flow_table_properties_nic_receive */
	struct mlx5dm_prm_caps_ft_props tx;	/* flow_table_properties_nic_transmit */
	/* ft_field_bitmask_support_2_nic_receive */
	struct mlx5dm_prm_field rx_bitmask2_tunnel_header_2_3;
	struct mlx5dm_prm_field rx_bitmask2_tunnel_header_0_1;
	struct mlx5dm_prm_field rx_bitmask2_outer_l4_checksum_ok;
	struct mlx5dm_prm_field sw_steering_nic_rx_action_drop_icm_address;
	struct mlx5dm_prm_field sw_steering_nic_tx_action_drop_icm_address;
	struct mlx5dm_prm_field sw_steering_nic_tx_action_allow_icm_address;
};
extern const struct mlx5dm_prm_caps_nic_ft mlx5dm_prm_caps_nic_ft;

/* E-switch flow table capabilities (flow_table_eswitch_cap, cap type 8). */
struct mlx5dm_prm_caps_esw_ft {
	struct mlx5dm_prm_caps_ft_props fdb;	/* flow_table_properties_nic_esw_fdb */
	struct mlx5dm_prm_field sw_steering_fdb_action_drop_icm_address_rx;
	struct mlx5dm_prm_field sw_steering_fdb_action_drop_icm_address_tx;
	struct mlx5dm_prm_field sw_steering_uplink_icm_address_rx;
	struct mlx5dm_prm_field sw_steering_uplink_icm_address_tx;
};
extern const struct mlx5dm_prm_caps_esw_ft mlx5dm_prm_caps_esw_ft;

/* RoCE capabilities (roce_cap, cap type 4): force-loopback QPs. */
struct mlx5dm_prm_caps_roce {
	struct mlx5dm_prm_field fl_rc_qp_when_roce_disabled;
	struct mlx5dm_prm_field fl_rc_qp_when_roce_enabled;
	struct mlx5dm_prm_field qp_ts_format;
};
extern const struct mlx5dm_prm_caps_roce mlx5dm_prm_caps_roce;

/* Device memory capabilities (device_mem_cap, cap type 0xf): SW ICM. */
struct mlx5dm_prm_caps_dev_mem {
	struct mlx5dm_prm_field steering_sw_icm_start_address;
	struct mlx5dm_prm_field log_header_modify_sw_icm_size;
	struct mlx5dm_prm_field log_sw_icm_alloc_granularity;
	struct mlx5dm_prm_field log_steering_sw_icm_size;
	struct mlx5dm_prm_field log_indirect_encap_sw_icm_size;
	struct mlx5dm_prm_field log_header_modify_pattern_sw_icm_size;
	struct mlx5dm_prm_field header_modify_sw_icm_start_address;
	struct mlx5dm_prm_field header_modify_pattern_sw_icm_start_address;
	struct mlx5dm_prm_field indirect_encap_sw_icm_start_address;
	struct mlx5dm_prm_field indirect_encap_icm_base;
};
extern const struct mlx5dm_prm_caps_dev_mem mlx5dm_prm_caps_dev_mem;

#endif /* _MLX5DM_PRM_CAPS_H_ */
