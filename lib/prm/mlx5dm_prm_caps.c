/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Capability field positions. CAP(b, w) takes the offset inside the
 * capability structure as mlx5_ifc numbers it and adds the 16-byte output
 * header, so the numbers below can be checked against the PRM directly.
 */

#include "mlx5dm_prm_caps.h"

#define F MLX5DM_PRM_FIELD_INIT
#define CAP(b, w) F(MLX5DM_QUERY_HCA_CAP_CAP_OFF * 8 + (b), (w))

const struct mlx5dm_prm_query_hca_cap_in mlx5dm_prm_query_hca_cap_in = {
	.opcode = F(0x000, 16),
	.op_mod = F(0x030, 16),
	.other_function = F(0x040, 1),
	.function_id = F(0x050, 16),
};

const struct mlx5dm_prm_caps_general mlx5dm_prm_caps_general = {
	.vhca_id = CAP(0x030, 16),
	.log_max_qp_sz = CAP(0x088, 8),
	.log_max_cq_sz = CAP(0x0c8, 8),
	.isolate_vl_tc_new = CAP(0x093, 1),
	.prio_tag_required = CAP(0x098, 1),
	.eswitch_manager = CAP(0x1a7, 1),
	.roce = CAP(0x21d, 1),
	.fl_rc_qp_when_roce_disabled = CAP(0x248, 1),
	.general_obj_types = CAP(0x400, 64),
	.sq_ts_format = CAP(0x440, 2),
	.steering_format_version = CAP(0x444, 4),
	.flex_parser_protocols = CAP(0x540, 32),
	.flex_parser_header_modify = CAP(0x570, 1),
	.flex_parser_id_gtpu_dw_0 = CAP(0x5e8, 4),
	.flex_parser_id_gtpu_teid = CAP(0x618, 4),
	.sf = CAP(0x680, 1),
	.flex_parser_id_geneve_opt_0 = CAP(0x6c4, 4),
	.flex_parser_id_icmp_dw1 = CAP(0x6c8, 4),
	.flex_parser_id_icmp_dw0 = CAP(0x6cc, 4),
	.flex_parser_id_icmpv6_dw1 = CAP(0x6d0, 4),
	.flex_parser_id_icmpv6_dw0 = CAP(0x6d4, 4),
	.flex_parser_id_outer_first_mpls_over_gre = CAP(0x6d8, 4),
	.flex_parser_id_outer_first_mpls_over_udp_label = CAP(0x6dc, 4),
	.flex_parser_id_gtpu_dw_2 = CAP(0x700, 4),
	.flex_parser_id_gtpu_first_ext_dw_0 = CAP(0x704, 4),
	.log_header_modify_argument_granularity = CAP(0x76c, 4),
	.log_header_modify_argument_max_alloc = CAP(0x773, 5),
	.match_definer_format_supported = CAP(0x7c0, 64),
	.flow_counter_bulk_alloc = CAP(0x310, 8),
	.log_max_flow_counter_bulk = CAP(0x348, 8),
	.rq_ts_format = CAP(0x442, 2),
};

/* flow_table_prop_layout placed at bit offset base of its capability. */
#define FT_PROPS(base) { \
	.ft_support = CAP((base) + 0x000, 1), \
	.reformat = CAP((base) + 0x007, 1), \
	.decap = CAP((base) + 0x008, 1), \
	.pop_vlan = CAP((base) + 0x00a, 1), \
	.push_vlan = CAP((base) + 0x00b, 1), \
	.pop_vlan_2 = CAP((base) + 0x00d, 1), \
	.push_vlan_2 = CAP((base) + 0x00e, 1), \
	.sw_owner = CAP((base) + 0x011, 1), \
	.reformat_l3_tunnel_to_l2 = CAP((base) + 0x012, 1), \
	.reformat_l2_to_l3_tunnel = CAP((base) + 0x013, 1), \
	.sw_owner_v2 = CAP((base) + 0x01e, 1), \
	.log_max_ft_size = CAP((base) + 0x022, 6), \
	.max_modify_header_actions = CAP((base) + 0x030, 8), \
	.max_ft_level = CAP((base) + 0x038, 8), \
}

const struct mlx5dm_prm_caps_nic_ft mlx5dm_prm_caps_nic_ft = {
	.max_encap_header_size = CAP(0x036, 10),
	.rx = FT_PROPS(0x200),
	.tx = FT_PROPS(0x800),
	.rx_bitmask2_tunnel_header_2_3 = CAP(0x1480 + 0x00f, 1),
	.rx_bitmask2_tunnel_header_0_1 = CAP(0x1480 + 0x010, 1),
	.rx_bitmask2_outer_l4_checksum_ok = CAP(0x1480 + 0x01f, 1),
	.sw_steering_nic_rx_action_drop_icm_address = CAP(0x2000, 64),
	.sw_steering_nic_tx_action_drop_icm_address = CAP(0x2040, 64),
	.sw_steering_nic_tx_action_allow_icm_address = CAP(0x2080, 64),
};

const struct mlx5dm_prm_caps_esw_ft mlx5dm_prm_caps_esw_ft = {
	.fdb = FT_PROPS(0x200),
	.sw_steering_fdb_action_drop_icm_address_rx = CAP(0x1800, 64),
	.sw_steering_fdb_action_drop_icm_address_tx = CAP(0x1840, 64),
	.sw_steering_uplink_icm_address_rx = CAP(0x1880, 64),
	.sw_steering_uplink_icm_address_tx = CAP(0x18c0, 64),
};

const struct mlx5dm_prm_caps_roce mlx5dm_prm_caps_roce = {
	.fl_rc_qp_when_roce_disabled = CAP(0x005, 1),
	.fl_rc_qp_when_roce_enabled = CAP(0x006, 1),
	.qp_ts_format = CAP(0x01e, 2),
};

const struct mlx5dm_prm_caps_dev_mem mlx5dm_prm_caps_dev_mem = {
	.steering_sw_icm_start_address = CAP(0x0c0, 64),
	.log_header_modify_sw_icm_size = CAP(0x108, 8),
	.log_sw_icm_alloc_granularity = CAP(0x112, 6),
	.log_steering_sw_icm_size = CAP(0x118, 8),
	.log_indirect_encap_sw_icm_size = CAP(0x120, 8),
	.log_header_modify_pattern_sw_icm_size = CAP(0x138, 8),
	.header_modify_sw_icm_start_address = CAP(0x140, 64),
	.header_modify_pattern_sw_icm_start_address = CAP(0x1c0, 64),
	.indirect_encap_sw_icm_start_address = CAP(0x240, 64),
	.indirect_encap_icm_base = CAP(0x280, 64),
};
