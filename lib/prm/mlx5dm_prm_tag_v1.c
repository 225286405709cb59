/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/* v1 16-byte tag positions (ste_*_v1 of rdma-core's mlx5_ifc.h). */

#include "mlx5dm_prm_tag_v1.h"

#define F MLX5DM_PRM_FIELD_INIT

const struct mlx5dm_prm_tag_v1_eth_l2_src_dst mlx5dm_prm_tag_v1_eth_l2_src_dst = {
	.dmac_47_16 = F(0x000, 32),
	.smac_47_16 = F(0x020, 32),
	.dmac_15_0 = F(0x040, 16),
	.functional_lb = F(0x052, 1),
	.port = F(0x058, 2),
	.l3_type = F(0x05a, 2),
	.first_vlan_qualifier = F(0x05e, 2),
	.first_priority = F(0x060, 3),
	.first_cfi = F(0x063, 1),
	.first_vlan_id = F(0x064, 12),
	.smac_15_0 = F(0x070, 16),
};

const struct mlx5dm_prm_tag_v1_eth_l2 mlx5dm_prm_tag_v1_eth_l2 = {
	.sx_sniffer = F(0x001, 1),
	.functional_lb = F(0x002, 1),
	.ip_fragmented = F(0x003, 1),
	.qp_type = F(0x004, 2),
	.encapsulation_type = F(0x006, 2),
	.port = F(0x008, 2),
	.l3_type = F(0x00a, 2),
	.l4_type = F(0x00c, 2),
	.first_vlan_qualifier = F(0x00e, 2),
	.first_priority = F(0x010, 3),
	.first_cfi = F(0x013, 1),
	.first_vlan_id = F(0x014, 12),
	.mac_47_16 = F(0x020, 32),
	.mac_15_0 = F(0x040, 16),
	.l3_ethertype = F(0x050, 16),
	.tcp_syn = F(0x066, 1),
	.force_lb = F(0x06a, 1),
	.l2_ok = F(0x06b, 1),
	.l3_ok = F(0x06c, 1),
	.l4_ok = F(0x06d, 1),
	.second_vlan_qualifier = F(0x06e, 2),
	.second_priority = F(0x070, 3),
	.second_cfi = F(0x073, 1),
	.second_vlan_id = F(0x074, 12),
};

const struct mlx5dm_prm_tag_v1_eth_l2_tnl mlx5dm_prm_tag_v1_eth_l2_tnl = {
	.l2_tunneling_network_id = F(0x000, 32),
	.vni = F(0x000, 24),
	.dmac_47_16 = F(0x020, 32),
	.dmac_15_0 = F(0x040, 16),
	.l3_ethertype = F(0x050, 16),
	.ip_fragmented = F(0x063, 1),
	.encp_type = F(0x066, 2),
	.l3_type = F(0x06a, 2),
	.l4_type = F(0x06c, 2),
	.first_vlan_qualifier = F(0x06e, 2),
	.first_priority = F(0x070, 3),
	.first_cfi = F(0x073, 1),
	.first_vlan_id = F(0x074, 12),
};

/* Both layouts with TCP flags keep them and the ok bits in DW3[27:16]. */
#define L4_FLAGS_DW3 \
	.l4_ok = F(0x064, 1), \
	.l3_ok = F(0x065, 1), \
	.fragmented = F(0x066, 1), \
	.tcp_ns = F(0x067, 1), \
	.tcp_cwr = F(0x068, 1), \
	.tcp_ece = F(0x069, 1), \
	.tcp_urg = F(0x06a, 1), \
	.tcp_ack = F(0x06b, 1), \
	.tcp_psh = F(0x06c, 1), \
	.tcp_rst = F(0x06d, 1), \
	.tcp_syn = F(0x06e, 1), \
	.tcp_fin = F(0x06f, 1), \
	.tcp_flags = F(0x067, 9)

const struct mlx5dm_prm_tag_v1_eth_l3_ipv4_5_tuple mlx5dm_prm_tag_v1_eth_l3_ipv4_5_tuple = {
	.source_address = F(0x000, 32),
	.destination_address = F(0x020, 32),
	.source_port = F(0x040, 16),
	.destination_port = F(0x050, 16),
	L4_FLAGS_DW3,
	.dscp = F(0x070, 6),
	.ecn = F(0x076, 2),
	.protocol = F(0x078, 8),
};

const struct mlx5dm_prm_tag_v1_eth_l3_ipv4_misc mlx5dm_prm_tag_v1_eth_l3_ipv4_misc = {
	.identification = F(0x000, 16),
	.flags = F(0x010, 3),
	.fragment_offset = F(0x013, 13),
	.total_length = F(0x020, 16),
	.checksum = F(0x030, 16),
	.version = F(0x040, 4),
	.ihl = F(0x044, 4),
	.time_to_live = F(0x048, 8),
	.voq_internal_prio = F(0x07c, 4),
};

const struct mlx5dm_prm_tag_v1_eth_l4 mlx5dm_prm_tag_v1_eth_l4 = {
	.ipv6_version = F(0x000, 4),
	.dscp = F(0x008, 6),
	.ecn = F(0x00e, 2),
	.ipv6_hop_limit = F(0x010, 8),
	.protocol = F(0x018, 8),
	.src_port = F(0x020, 16),
	.dst_port = F(0x030, 16),
	.first_fragment = F(0x040, 1),
	.flow_label = F(0x04c, 20),
	.tcp_data_offset = F(0x060, 4),
	L4_FLAGS_DW3,
	.ipv6_paylen = F(0x070, 16),
};

const struct mlx5dm_prm_tag_v1_eth_l4_misc mlx5dm_prm_tag_v1_eth_l4_misc = {
	.window_size = F(0x000, 16),
	.urgent_pointer = F(0x010, 16),
	.ack_num = F(0x020, 32),
	.seq_num = F(0x040, 32),
	.length = F(0x060, 16),
	.checksum = F(0x070, 16),
};

const struct mlx5dm_prm_tag_v1_icmp mlx5dm_prm_tag_v1_icmp = {
	.icmp_payload_data = F(0x000, 32),
	.icmp_header_data = F(0x020, 32),
	.icmp_type = F(0x040, 8),
	.icmp_code = F(0x048, 8),
};

const struct mlx5dm_prm_tag_v1_mpls mlx5dm_prm_tag_v1_mpls = {
	.mpls_ok = F(0x015, 1),
	.mpls0_s_bit = F(0x01e, 1),
	.mpls0_qualifier = F(0x01f, 1),
	.mpls0_label = F(0x020, 20),
	.mpls0_exp = F(0x034, 3),
	.mpls0_s_bos = F(0x037, 1),
	.mpls0_ttl = F(0x038, 8),
	.mpls1_label = F(0x040, 32),
	.mpls2_label = F(0x060, 32),
};

/* Bit offset of parser p's dword in the tag of its lookup. */
#define FLEX_DW(p) (32 * (MLX5DM_PRM_FLEX_PARSERS_PER_LOOKUP - 1 - \
			  (p) % MLX5DM_PRM_FLEX_PARSERS_PER_LOOKUP))

#define FLEX_MPLS(p) { \
	.label = F(FLEX_DW(p), 20), \
	.exp = F(FLEX_DW(p) + 20, 3), \
	.s_bos = F(FLEX_DW(p) + 23, 1), \
	.ttl = F(FLEX_DW(p) + 24, 8), \
}

const struct mlx5dm_prm_tag_v1_flex_mpls mlx5dm_prm_tag_v1_flex_mpls[MLX5DM_PRM_FLEX_PARSERS] = {
	FLEX_MPLS(0), FLEX_MPLS(1), FLEX_MPLS(2), FLEX_MPLS(3),
	FLEX_MPLS(4), FLEX_MPLS(5), FLEX_MPLS(6), FLEX_MPLS(7),
};

const struct mlx5dm_prm_tag_v1_gre mlx5dm_prm_tag_v1_gre = {
	.gre_c_present = F(0x000, 1),
	.gre_k_present = F(0x002, 1),
	.gre_s_present = F(0x003, 1),
	.strict_src_route = F(0x004, 1),
	.recur = F(0x005, 3),
	.flags = F(0x008, 5),
	.version = F(0x00d, 3),
	.gre_protocol = F(0x010, 16),
	.gre_key_h = F(0x040, 24),
	.gre_key_l = F(0x058, 8),
};

const struct mlx5dm_prm_tag_dw4 mlx5dm_prm_tag_dw4 = {
	.dw = { F(0x000, 32), F(0x020, 32), F(0x040, 32), F(0x060, 32) },
};

const struct mlx5dm_prm_tag_general_purpose mlx5dm_prm_tag_general_purpose = {
	.general_purpose_lookup_field = F(0x000, 32),
};

const struct mlx5dm_prm_tag_v1_src_gvmi_qp mlx5dm_prm_tag_v1_src_gvmi_qp = {
	.source_gvmi = F(0x010, 16),
	.source_qp = F(0x028, 24),
};
