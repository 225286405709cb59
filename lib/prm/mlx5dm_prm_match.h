/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The PRM match parameter (fte_match_param, 448 bytes): the user-facing
 * mask/value blob. Seven 64-byte sections, enabled per match_criteria_enable
 * bit 0..6 in this order: outer, misc, inner, misc2, misc3, misc4, misc5.
 *
 * Every field is declared once in the X-lists below (name, bit offset inside
 * its section, width). They expand into an enum (MLX5DM_FTE(sec, name)) and a
 * descriptor table with absolute offsets and printable names such as
 * "outer.ip_ttl_hoplimit", so code can both address a field and name it.
 */

#ifndef _MLX5DM_PRM_MATCH_H_
#define _MLX5DM_PRM_MATCH_H_

#include <stdint.h>

#include "mlx5dm_prm_bits.h"

enum {
	MLX5DM_FTE_PARAM_SIZE = 448,
	MLX5DM_FTE_SECTION_SIZE = 64,
	MLX5DM_FTE_NUM_SECTIONS = 7,
};

/* Section index = bit of match_criteria_enable. */
enum mlx5dm_fte_section {
	MLX5DM_FTE_SEC_outer = 0,
	MLX5DM_FTE_SEC_misc = 1,
	MLX5DM_FTE_SEC_inner = 2,
	MLX5DM_FTE_SEC_misc2 = 3,
	MLX5DM_FTE_SEC_misc3 = 4,
	MLX5DM_FTE_SEC_misc4 = 5,
	MLX5DM_FTE_SEC_misc5 = 6,
};

#define MLX5DM_FTE_CRITERIA(sec) (1u << MLX5DM_FTE_SEC_##sec)
#define MLX5DM_FTE_CRITERIA_ALL 0x7fu

/* fte_match_set_lyr_2_4 (dr_match_spec): outer and inner headers. */
#define MLX5DM_FTE_SPEC_FIELDS(X, sec) \
	X(sec, smac_47_16, 0x000, 32) \
	X(sec, smac_15_0, 0x020, 16) \
	X(sec, ethertype, 0x030, 16) \
	X(sec, dmac_47_16, 0x040, 32) \
	X(sec, dmac_15_0, 0x060, 16) \
	X(sec, first_prio, 0x070, 3) \
	X(sec, first_cfi, 0x073, 1) \
	X(sec, first_vid, 0x074, 12) \
	X(sec, ip_protocol, 0x080, 8) \
	X(sec, ip_dscp, 0x088, 6) \
	X(sec, ip_ecn, 0x08e, 2) \
	X(sec, cvlan_tag, 0x090, 1) \
	X(sec, svlan_tag, 0x091, 1) \
	X(sec, frag, 0x092, 1) \
	X(sec, ip_version, 0x093, 4) \
	X(sec, tcp_flags, 0x097, 9) \
	X(sec, tcp_sport, 0x0a0, 16) \
	X(sec, tcp_dport, 0x0b0, 16) \
	X(sec, ipv4_ihl, 0x0d0, 4) \
	X(sec, l3_ok, 0x0d4, 1) \
	X(sec, l4_ok, 0x0d5, 1) \
	X(sec, ipv4_checksum_ok, 0x0d6, 1) \
	X(sec, l4_checksum_ok, 0x0d7, 1) \
	X(sec, ip_ttl_hoplimit, 0x0d8, 8) \
	X(sec, udp_sport, 0x0e0, 16) \
	X(sec, udp_dport, 0x0f0, 16) \
	X(sec, src_ip_127_96, 0x100, 32) \
	X(sec, src_ip_95_64, 0x120, 32) \
	X(sec, src_ip_63_32, 0x140, 32) \
	X(sec, src_ip_31_0, 0x160, 32) \
	X(sec, dst_ip_127_96, 0x180, 32) \
	X(sec, dst_ip_95_64, 0x1a0, 32) \
	X(sec, dst_ip_63_32, 0x1c0, 32) \
	X(sec, dst_ip_31_0, 0x1e0, 32)

/* fte_match_set_misc. */
#define MLX5DM_FTE_MISC_FIELDS(X, sec) \
	X(sec, gre_c_present, 0x000, 1) \
	X(sec, bth_a, 0x001, 1) \
	X(sec, gre_k_present, 0x002, 1) \
	X(sec, gre_s_present, 0x003, 1) \
	X(sec, source_vhca_port, 0x004, 4) \
	X(sec, source_sqn, 0x008, 24) \
	X(sec, source_eswitch_owner_vhca_id, 0x020, 16) \
	X(sec, source_port, 0x030, 16) \
	X(sec, outer_second_prio, 0x040, 3) \
	X(sec, outer_second_cfi, 0x043, 1) \
	X(sec, outer_second_vid, 0x044, 12) \
	X(sec, inner_second_prio, 0x050, 3) \
	X(sec, inner_second_cfi, 0x053, 1) \
	X(sec, inner_second_vid, 0x054, 12) \
	X(sec, outer_second_cvlan_tag, 0x060, 1) \
	X(sec, inner_second_cvlan_tag, 0x061, 1) \
	X(sec, outer_second_svlan_tag, 0x062, 1) \
	X(sec, inner_second_svlan_tag, 0x063, 1) \
	X(sec, outer_emd_tag, 0x064, 1) \
	X(sec, gre_protocol, 0x070, 16) \
	X(sec, gre_key_h, 0x080, 24) \
	X(sec, gre_key_l, 0x098, 8) \
	X(sec, vxlan_vni, 0x0a0, 24) \
	X(sec, bth_opcode, 0x0b8, 8) \
	X(sec, geneve_vni, 0x0c0, 24) \
	X(sec, geneve_tlv_option_0_exist, 0x0de, 1) \
	X(sec, geneve_oam, 0x0df, 1) \
	X(sec, outer_ipv6_flow_label, 0x0ec, 20) \
	X(sec, inner_ipv6_flow_label, 0x10c, 20) \
	X(sec, geneve_opt_len, 0x12a, 6) \
	X(sec, geneve_protocol_type, 0x130, 16) \
	X(sec, bth_dst_qp, 0x148, 24) \
	X(sec, inner_esp_spi, 0x160, 32) \
	X(sec, outer_esp_spi, 0x180, 32)

/* fte_match_set_misc2: MPLS and metadata registers. */
#define MLX5DM_FTE_MISC2_FIELDS(X, sec) \
	X(sec, outer_first_mpls_label, 0x000, 20) \
	X(sec, outer_first_mpls_exp, 0x014, 3) \
	X(sec, outer_first_mpls_s_bos, 0x017, 1) \
	X(sec, outer_first_mpls_ttl, 0x018, 8) \
	X(sec, inner_first_mpls_label, 0x020, 20) \
	X(sec, inner_first_mpls_exp, 0x034, 3) \
	X(sec, inner_first_mpls_s_bos, 0x037, 1) \
	X(sec, inner_first_mpls_ttl, 0x038, 8) \
	X(sec, outer_first_mpls_over_gre_label, 0x040, 20) \
	X(sec, outer_first_mpls_over_gre_exp, 0x054, 3) \
	X(sec, outer_first_mpls_over_gre_s_bos, 0x057, 1) \
	X(sec, outer_first_mpls_over_gre_ttl, 0x058, 8) \
	X(sec, outer_first_mpls_over_udp_label, 0x060, 20) \
	X(sec, outer_first_mpls_over_udp_exp, 0x074, 3) \
	X(sec, outer_first_mpls_over_udp_s_bos, 0x077, 1) \
	X(sec, outer_first_mpls_over_udp_ttl, 0x078, 8) \
	X(sec, metadata_reg_c_7, 0x080, 32) \
	X(sec, metadata_reg_c_6, 0x0a0, 32) \
	X(sec, metadata_reg_c_5, 0x0c0, 32) \
	X(sec, metadata_reg_c_4, 0x0e0, 32) \
	X(sec, metadata_reg_c_3, 0x100, 32) \
	X(sec, metadata_reg_c_2, 0x120, 32) \
	X(sec, metadata_reg_c_1, 0x140, 32) \
	X(sec, metadata_reg_c_0, 0x160, 32) \
	X(sec, metadata_reg_a, 0x180, 32)

/* fte_match_set_misc3: TCP seq/ack, tunnels over flex parsers, ICMP, GTP-U. */
#define MLX5DM_FTE_MISC3_FIELDS(X, sec) \
	X(sec, inner_tcp_seq_num, 0x000, 32) \
	X(sec, outer_tcp_seq_num, 0x020, 32) \
	X(sec, inner_tcp_ack_num, 0x040, 32) \
	X(sec, outer_tcp_ack_num, 0x060, 32) \
	X(sec, outer_vxlan_gpe_vni, 0x088, 24) \
	X(sec, outer_vxlan_gpe_next_protocol, 0x0a0, 8) \
	X(sec, outer_vxlan_gpe_flags, 0x0a8, 8) \
	X(sec, icmp_header_data, 0x0c0, 32) \
	X(sec, icmpv6_header_data, 0x0e0, 32) \
	X(sec, icmp_type, 0x100, 8) \
	X(sec, icmp_code, 0x108, 8) \
	X(sec, icmpv6_type, 0x110, 8) \
	X(sec, icmpv6_code, 0x118, 8) \
	X(sec, geneve_tlv_option_0_data, 0x120, 32) \
	X(sec, gtpu_teid, 0x140, 32) \
	X(sec, gtpu_msg_type, 0x160, 8) \
	X(sec, gtpu_msg_flags, 0x168, 8) \
	X(sec, gtpu_dw_2, 0x180, 32) \
	X(sec, gtpu_first_ext_dw_0, 0x1a0, 32) \
	X(sec, gtpu_dw_0, 0x1c0, 32)

/* fte_match_set_misc4: programmable (flex parser) sample fields. */
#define MLX5DM_FTE_MISC4_FIELDS(X, sec) \
	X(sec, prog_sample_field_value_0, 0x000, 32) \
	X(sec, prog_sample_field_id_0, 0x020, 32) \
	X(sec, prog_sample_field_value_1, 0x040, 32) \
	X(sec, prog_sample_field_id_1, 0x060, 32) \
	X(sec, prog_sample_field_value_2, 0x080, 32) \
	X(sec, prog_sample_field_id_2, 0x0a0, 32) \
	X(sec, prog_sample_field_value_3, 0x0c0, 32) \
	X(sec, prog_sample_field_id_3, 0x0e0, 32) \
	X(sec, prog_sample_field_value_4, 0x100, 32) \
	X(sec, prog_sample_field_id_4, 0x120, 32) \
	X(sec, prog_sample_field_value_5, 0x140, 32) \
	X(sec, prog_sample_field_id_5, 0x160, 32) \
	X(sec, prog_sample_field_value_6, 0x180, 32) \
	X(sec, prog_sample_field_id_6, 0x1a0, 32) \
	X(sec, prog_sample_field_value_7, 0x1c0, 32) \
	X(sec, prog_sample_field_id_7, 0x1e0, 32)

/*
 * fte_match_set_misc5: no builder consumes it yet (the section is reserved
 * for us); its fields are listed so a mask using them is rejected by name.
 */
#define MLX5DM_FTE_MISC5_FIELDS(X, sec) \
	X(sec, macsec_tag_0, 0x000, 32) \
	X(sec, macsec_tag_1, 0x020, 32) \
	X(sec, macsec_tag_2, 0x040, 32) \
	X(sec, macsec_tag_3, 0x060, 32) \
	X(sec, tunnel_header_0, 0x080, 32) \
	X(sec, tunnel_header_1, 0x0a0, 32) \
	X(sec, tunnel_header_2, 0x0c0, 32) \
	X(sec, tunnel_header_3, 0x0e0, 32)

#define MLX5DM_FTE_ALL_FIELDS(X) \
	MLX5DM_FTE_SPEC_FIELDS(X, outer) \
	MLX5DM_FTE_MISC_FIELDS(X, misc) \
	MLX5DM_FTE_SPEC_FIELDS(X, inner) \
	MLX5DM_FTE_MISC2_FIELDS(X, misc2) \
	MLX5DM_FTE_MISC3_FIELDS(X, misc3) \
	MLX5DM_FTE_MISC4_FIELDS(X, misc4) \
	MLX5DM_FTE_MISC5_FIELDS(X, misc5)

/* Field identifiers: MLX5DM_FTE(outer, ip_protocol) etc. */
#define MLX5DM_FTE(sec, name) MLX5DM_FTE_##sec##_##name
#define MLX5DM_FTE_X_ENUM(sec, name, bit, width) MLX5DM_FTE(sec, name),
enum mlx5dm_fte_field {
	MLX5DM_FTE_ALL_FIELDS(MLX5DM_FTE_X_ENUM)
	MLX5DM_FTE_NUM_FIELDS
};
#undef MLX5DM_FTE_X_ENUM

/* Descriptor of one fte_match_param field; bit is absolute in the blob. */
struct mlx5dm_fte_field_desc {
	struct mlx5dm_prm_field f;
	uint8_t section;	/* enum mlx5dm_fte_section */
	const char *name;	/* "section.field" */
};
extern const struct mlx5dm_fte_field_desc mlx5dm_fte_fields[MLX5DM_FTE_NUM_FIELDS];

static inline uint32_t
mlx5dm_fte_get(const uint8_t *param, enum mlx5dm_fte_field id)
{
	return (uint32_t)mlx5dm_prm_fget(param, mlx5dm_fte_fields[id].f);
}

static inline void
mlx5dm_fte_set(uint8_t *param, enum mlx5dm_fte_field id, uint32_t v)
{
	mlx5dm_prm_fset(param, mlx5dm_fte_fields[id].f, v);
}

#endif /* _MLX5DM_PRM_MATCH_H_ */
