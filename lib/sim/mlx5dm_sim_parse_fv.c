/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Field vectors: what the device extracts from a packet for one lookup
 * type, in that lookup's 16-byte tag layout. The layouts are declared
 * here as data, read independently off the ste_*_v1 tags of rdma-core's mlx5_ifc.h
 * (v1 tags; IPv6 addresses, registers and general purpose use the layouts
 * shared with v0), as (bit offset, width, packet field) triples. A vector
 * is built by one loop over the layout, so adding a lookup type is adding
 * a table.
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_prm_bits.h"
#include "mlx5dm_sim_engine_priv.h"

/* Packet fields a layout can carry. */
enum mlx5dm_sim_pf {
	MLX5DM_SIM_PF_DMAC_47_16,
	MLX5DM_SIM_PF_DMAC_15_0,
	MLX5DM_SIM_PF_SMAC_47_16,
	MLX5DM_SIM_PF_SMAC_15_0,
	MLX5DM_SIM_PF_ETHERTYPE,
	MLX5DM_SIM_PF_L3_TYPE,
	MLX5DM_SIM_PF_L4_TYPE,
	MLX5DM_SIM_PF_FRAG,
	MLX5DM_SIM_PF_FIRST_FRAG,
	MLX5DM_SIM_PF_VLAN0_QUAL,
	MLX5DM_SIM_PF_VLAN0_PRIO,
	MLX5DM_SIM_PF_VLAN0_CFI,
	MLX5DM_SIM_PF_VLAN0_VID,
	MLX5DM_SIM_PF_VLAN1_QUAL,
	MLX5DM_SIM_PF_VLAN1_PRIO,
	MLX5DM_SIM_PF_VLAN1_CFI,
	MLX5DM_SIM_PF_VLAN1_VID,
	MLX5DM_SIM_PF_L2_OK,
	MLX5DM_SIM_PF_L3_OK,
	MLX5DM_SIM_PF_L4_OK,
	MLX5DM_SIM_PF_IP_VERSION,
	MLX5DM_SIM_PF_IHL,
	MLX5DM_SIM_PF_DSCP,
	MLX5DM_SIM_PF_ECN,
	MLX5DM_SIM_PF_TTL,
	MLX5DM_SIM_PF_PROTO,
	MLX5DM_SIM_PF_IP4_VERSION, /* IPv4-only views for the IPV4_MISC lookup */
	MLX5DM_SIM_PF_IP4_TTL,
	MLX5DM_SIM_PF_IP4_ID,
	MLX5DM_SIM_PF_IP4_FLAGS,
	MLX5DM_SIM_PF_IP4_FRAG_OFF,
	MLX5DM_SIM_PF_IP4_TOTAL_LEN,
	MLX5DM_SIM_PF_IP4_CSUM,
	MLX5DM_SIM_PF_IP4_SRC,
	MLX5DM_SIM_PF_IP4_DST,
	MLX5DM_SIM_PF_IP6_SRC_0, /* bits 127..96, then 95..64, 63..32, 31..0 */
	MLX5DM_SIM_PF_IP6_SRC_1,
	MLX5DM_SIM_PF_IP6_SRC_2,
	MLX5DM_SIM_PF_IP6_SRC_3,
	MLX5DM_SIM_PF_IP6_DST_0,
	MLX5DM_SIM_PF_IP6_DST_1,
	MLX5DM_SIM_PF_IP6_DST_2,
	MLX5DM_SIM_PF_IP6_DST_3,
	MLX5DM_SIM_PF_IP6_FLOW_LABEL,
	MLX5DM_SIM_PF_IP6_PAYLEN,
	MLX5DM_SIM_PF_SPORT,
	MLX5DM_SIM_PF_DPORT,
	MLX5DM_SIM_PF_TCP_FLAGS, /* 9 bits ns..fin */
	MLX5DM_SIM_PF_TCP_SYN,
	MLX5DM_SIM_PF_TCP_DOFF,
	MLX5DM_SIM_PF_L4MISC_0,  /* ETHL4_MISC dwords, by L4 protocol */
	MLX5DM_SIM_PF_L4MISC_1,
	MLX5DM_SIM_PF_L4MISC_2,
	MLX5DM_SIM_PF_L4MISC_3,
	MLX5DM_SIM_PF_TNL_NET_ID, /* VXLAN VNI << 8 */
	MLX5DM_SIM_PF_GRE_DW0,
	MLX5DM_SIM_PF_GRE_KEY,
	MLX5DM_SIM_PF_MPLS_QUALS,
	MLX5DM_SIM_PF_MPLS_0,
	MLX5DM_SIM_PF_MPLS_1,
	MLX5DM_SIM_PF_MPLS_2,
	MLX5DM_SIM_PF_REG_A,
	MLX5DM_SIM_PF_SRC_GVMI,
	MLX5DM_SIM_PF_SRC_QP,
	MLX5DM_SIM_PF_REG_C0,
	MLX5DM_SIM_PF_REG_C1,
	MLX5DM_SIM_PF_REG_C2,
	MLX5DM_SIM_PF_REG_C3,
	MLX5DM_SIM_PF_REG_C4,
	MLX5DM_SIM_PF_REG_C5,
	MLX5DM_SIM_PF_REG_C6,
	MLX5DM_SIM_PF_REG_C7,
	MLX5DM_SIM_PF_FLEX_0, /* flex parser 0 .. 7 */
	MLX5DM_SIM_PF_FLEX_1,
	MLX5DM_SIM_PF_FLEX_2,
	MLX5DM_SIM_PF_FLEX_3,
	MLX5DM_SIM_PF_FLEX_4,
	MLX5DM_SIM_PF_FLEX_5,
	MLX5DM_SIM_PF_FLEX_6,
	MLX5DM_SIM_PF_FLEX_7,
};

struct mlx5dm_sim_fv_field {
	uint8_t bit;    /* offset of the field's MSB in the 16-byte tag */
	uint8_t width;
	uint8_t pf;     /* enum mlx5dm_sim_pf */
	uint16_t bytes; /* the tag bytes it touches, bit 15 = byte 0 (a hash byte mask) */
};

/* Bytes a .. z of the tag as a byte mask (bit 15 = byte 0). */
#define MLX5DM_SIM_FV_BYTES(a, z) ((uint16_t)(((1u << ((z) - (a) + 1)) - 1) << (15 - (z))))
#define MLX5DM_SIM_FVF(b, w, f) { .bit = (b), .width = (w), .pf = MLX5DM_SIM_PF_ ## f, \
	.bytes = MLX5DM_SIM_FV_BYTES((b) / 8, ((b) + (w) - 1) / 8) }

/* ste_eth_l2_dst_v1 / ste_eth_l2_src_v1: identical but for which MAC sits at 0x020. */
#define MLX5DM_SIM_FV_ETHL2(mac) \
	MLX5DM_SIM_FVF(0x003, 1, FRAG), \
	MLX5DM_SIM_FVF(0x00a, 2, L3_TYPE), \
	MLX5DM_SIM_FVF(0x00c, 2, L4_TYPE), \
	MLX5DM_SIM_FVF(0x00e, 2, VLAN0_QUAL), \
	MLX5DM_SIM_FVF(0x010, 3, VLAN0_PRIO), \
	MLX5DM_SIM_FVF(0x013, 1, VLAN0_CFI), \
	MLX5DM_SIM_FVF(0x014, 12, VLAN0_VID), \
	MLX5DM_SIM_FVF(0x020, 32, mac ## _47_16), \
	MLX5DM_SIM_FVF(0x040, 16, mac ## _15_0), \
	MLX5DM_SIM_FVF(0x050, 16, ETHERTYPE), \
	MLX5DM_SIM_FVF(0x066, 1, TCP_SYN), \
	MLX5DM_SIM_FVF(0x06b, 1, L2_OK), \
	MLX5DM_SIM_FVF(0x06c, 1, L3_OK), \
	MLX5DM_SIM_FVF(0x06d, 1, L4_OK), \
	MLX5DM_SIM_FVF(0x06e, 2, VLAN1_QUAL), \
	MLX5DM_SIM_FVF(0x070, 3, VLAN1_PRIO), \
	MLX5DM_SIM_FVF(0x073, 1, VLAN1_CFI), \
	MLX5DM_SIM_FVF(0x074, 12, VLAN1_VID)

static const struct mlx5dm_sim_fv_field mlx5dm_sim_fv_ethl2_dst[] = {
	MLX5DM_SIM_FV_ETHL2(DMAC),
};

static const struct mlx5dm_sim_fv_field mlx5dm_sim_fv_ethl2_src[] = {
	MLX5DM_SIM_FV_ETHL2(SMAC),
};

/* ste_eth_l2_src_dst_v1 */
static const struct mlx5dm_sim_fv_field mlx5dm_sim_fv_ethl2_src_dst[] = {
	MLX5DM_SIM_FVF(0x000, 32, DMAC_47_16),
	MLX5DM_SIM_FVF(0x020, 32, SMAC_47_16),
	MLX5DM_SIM_FVF(0x040, 16, DMAC_15_0),
	MLX5DM_SIM_FVF(0x05a, 2, L3_TYPE),
	MLX5DM_SIM_FVF(0x05e, 2, VLAN0_QUAL),
	MLX5DM_SIM_FVF(0x060, 3, VLAN0_PRIO),
	MLX5DM_SIM_FVF(0x063, 1, VLAN0_CFI),
	MLX5DM_SIM_FVF(0x064, 12, VLAN0_VID),
	MLX5DM_SIM_FVF(0x070, 16, SMAC_15_0),
};

/* ste_eth_l3_ipv4_5_tuple_v1 (tcp_ns..tcp_fin = one 9-bit run at 0x067) */
static const struct mlx5dm_sim_fv_field mlx5dm_sim_fv_ipv4_5_tuple[] = {
	MLX5DM_SIM_FVF(0x000, 32, IP4_SRC),
	MLX5DM_SIM_FVF(0x020, 32, IP4_DST),
	MLX5DM_SIM_FVF(0x040, 16, SPORT),
	MLX5DM_SIM_FVF(0x050, 16, DPORT),
	MLX5DM_SIM_FVF(0x064, 1, L4_OK),
	MLX5DM_SIM_FVF(0x065, 1, L3_OK),
	MLX5DM_SIM_FVF(0x066, 1, FRAG),
	MLX5DM_SIM_FVF(0x067, 9, TCP_FLAGS),
	MLX5DM_SIM_FVF(0x070, 6, DSCP),
	MLX5DM_SIM_FVF(0x076, 2, ECN),
	MLX5DM_SIM_FVF(0x078, 8, PROTO),
};

/* ste_eth_l2_tnl_v1: the VXLAN network id and the inner L2 */
static const struct mlx5dm_sim_fv_field mlx5dm_sim_fv_ethl2_tnl[] = {
	MLX5DM_SIM_FVF(0x000, 32, TNL_NET_ID),
	MLX5DM_SIM_FVF(0x020, 32, DMAC_47_16),
	MLX5DM_SIM_FVF(0x040, 16, DMAC_15_0),
	MLX5DM_SIM_FVF(0x050, 16, ETHERTYPE),
	MLX5DM_SIM_FVF(0x063, 1, FRAG),
	MLX5DM_SIM_FVF(0x06a, 2, L3_TYPE),
	MLX5DM_SIM_FVF(0x06c, 2, L4_TYPE),
	MLX5DM_SIM_FVF(0x06e, 2, VLAN0_QUAL),
	MLX5DM_SIM_FVF(0x070, 3, VLAN0_PRIO),
	MLX5DM_SIM_FVF(0x073, 1, VLAN0_CFI),
	MLX5DM_SIM_FVF(0x074, 12, VLAN0_VID),
};

/* ste_eth_l3_ipv4_misc_v1 */
static const struct mlx5dm_sim_fv_field mlx5dm_sim_fv_ipv4_misc[] = {
	MLX5DM_SIM_FVF(0x000, 16, IP4_ID),
	MLX5DM_SIM_FVF(0x010, 3, IP4_FLAGS),
	MLX5DM_SIM_FVF(0x013, 13, IP4_FRAG_OFF),
	MLX5DM_SIM_FVF(0x020, 16, IP4_TOTAL_LEN),
	MLX5DM_SIM_FVF(0x030, 16, IP4_CSUM),
	MLX5DM_SIM_FVF(0x040, 4, IP4_VERSION),
	MLX5DM_SIM_FVF(0x044, 4, IHL),
	MLX5DM_SIM_FVF(0x048, 8, IP4_TTL),
};

/* ste_eth_l4_v1 (IPv6 L3 fields and L4 ports) */
static const struct mlx5dm_sim_fv_field mlx5dm_sim_fv_ethl4[] = {
	MLX5DM_SIM_FVF(0x000, 4, IP_VERSION),
	MLX5DM_SIM_FVF(0x008, 6, DSCP),
	MLX5DM_SIM_FVF(0x00e, 2, ECN),
	MLX5DM_SIM_FVF(0x010, 8, TTL),
	MLX5DM_SIM_FVF(0x018, 8, PROTO),
	MLX5DM_SIM_FVF(0x020, 16, SPORT),
	MLX5DM_SIM_FVF(0x030, 16, DPORT),
	MLX5DM_SIM_FVF(0x040, 1, FIRST_FRAG),
	MLX5DM_SIM_FVF(0x04c, 20, IP6_FLOW_LABEL),
	MLX5DM_SIM_FVF(0x060, 4, TCP_DOFF),
	MLX5DM_SIM_FVF(0x064, 1, L4_OK),
	MLX5DM_SIM_FVF(0x065, 1, L3_OK),
	MLX5DM_SIM_FVF(0x066, 1, FRAG),
	MLX5DM_SIM_FVF(0x067, 9, TCP_FLAGS),
	MLX5DM_SIM_FVF(0x070, 16, IP6_PAYLEN),
};

/* Four whole dwords: ste_eth_l3_ipv6_dst/src, ste_register_0/1, ste_eth_l4_misc_v1. */
#define MLX5DM_SIM_FV_4DW(a, b, c, d) \
	MLX5DM_SIM_FVF(0x000, 32, a), \
	MLX5DM_SIM_FVF(0x020, 32, b), \
	MLX5DM_SIM_FVF(0x040, 32, c), \
	MLX5DM_SIM_FVF(0x060, 32, d)

static const struct mlx5dm_sim_fv_field mlx5dm_sim_fv_ipv6_dst[] = {
	MLX5DM_SIM_FV_4DW(IP6_DST_0, IP6_DST_1, IP6_DST_2, IP6_DST_3),
};

static const struct mlx5dm_sim_fv_field mlx5dm_sim_fv_ipv6_src[] = {
	MLX5DM_SIM_FV_4DW(IP6_SRC_0, IP6_SRC_1, IP6_SRC_2, IP6_SRC_3),
};

static const struct mlx5dm_sim_fv_field mlx5dm_sim_fv_regs_0[] = {
	MLX5DM_SIM_FV_4DW(REG_C0, REG_C1, REG_C2, REG_C3),
};

static const struct mlx5dm_sim_fv_field mlx5dm_sim_fv_regs_1[] = {
	MLX5DM_SIM_FV_4DW(REG_C4, REG_C5, REG_C6, REG_C7),
};

/*
 * ste_eth_l4_misc_v1 for TCP/UDP and ste_icmp_v1 for ICMP share the
 * ETHL4_MISC lookup: which dwords are filled depends on the L4 protocol.
 */
static const struct mlx5dm_sim_fv_field mlx5dm_sim_fv_ethl4_misc[] = {
	MLX5DM_SIM_FV_4DW(L4MISC_0, L4MISC_1, L4MISC_2, L4MISC_3),
};

/* ste_mpls_v1: 11 qualifier/S bits, label stack entries 0..2 */
static const struct mlx5dm_sim_fv_field mlx5dm_sim_fv_mpls[] = {
	MLX5DM_SIM_FVF(0x015, 11, MPLS_QUALS),
	MLX5DM_SIM_FVF(0x020, 32, MPLS_0),
	MLX5DM_SIM_FVF(0x040, 32, MPLS_1),
	MLX5DM_SIM_FVF(0x060, 32, MPLS_2),
};

/* ste_gre_v1: c, k, s, strict, recur, flags, version, protocol; key */
static const struct mlx5dm_sim_fv_field mlx5dm_sim_fv_gre[] = {
	MLX5DM_SIM_FVF(0x000, 32, GRE_DW0),
	MLX5DM_SIM_FVF(0x040, 32, GRE_KEY),
};

/* ste_flex_parser_0 / _1: parser 3 (7) in dword 0 down to parser 0 (4) in dword 3 */
static const struct mlx5dm_sim_fv_field mlx5dm_sim_fv_flex_0[] = {
	MLX5DM_SIM_FV_4DW(FLEX_3, FLEX_2, FLEX_1, FLEX_0),
};

static const struct mlx5dm_sim_fv_field mlx5dm_sim_fv_flex_1[] = {
	MLX5DM_SIM_FV_4DW(FLEX_7, FLEX_6, FLEX_5, FLEX_4),
};

/* ste_src_gvmi_qp_v1: what the E-Switch stamps (loopback and requestor bits stay 0) */
static const struct mlx5dm_sim_fv_field mlx5dm_sim_fv_src_gvmi_qp[] = {
	MLX5DM_SIM_FVF(0x010, 16, SRC_GVMI),
	MLX5DM_SIM_FVF(0x028, 24, SRC_QP),
};

/* ste_general_purpose */
static const struct mlx5dm_sim_fv_field mlx5dm_sim_fv_general_purpose[] = {
	MLX5DM_SIM_FVF(0x000, 32, REG_A),
};

struct mlx5dm_sim_fv_layout {
	const char *name;
	const struct mlx5dm_sim_fv_field *f;
	uint8_t nb;
	uint8_t inner;
};

#define MLX5DM_SIM_FVL(n, tbl, in) { .name = (n), .f = (tbl), \
	.nb = MLX5DM_ARRAY_SIZE(tbl), .inner = (in) }

/* Indexed by [mode][index] of the v1 lookup type. */
static const struct mlx5dm_sim_fv_layout mlx5dm_sim_fv_layouts[2][0x15] = {
	[0][0x02] = MLX5DM_SIM_FVL("ETHL2_TNL", mlx5dm_sim_fv_ethl2_tnl, 1),
	[0][0x03] = MLX5DM_SIM_FVL("ETHL2_O", mlx5dm_sim_fv_ethl2_dst, 0),
	[0][0x04] = MLX5DM_SIM_FVL("ETHL2_I", mlx5dm_sim_fv_ethl2_dst, 1),
	[0][0x05] = MLX5DM_SIM_FVL("ETHL2_SRC_O", mlx5dm_sim_fv_ethl2_src, 0),
	[0][0x06] = MLX5DM_SIM_FVL("ETHL2_SRC_I", mlx5dm_sim_fv_ethl2_src, 1),
	[0][0x07] = MLX5DM_SIM_FVL("IPV4_5_TUPLE_O", mlx5dm_sim_fv_ipv4_5_tuple, 0),
	[0][0x08] = MLX5DM_SIM_FVL("IPV4_5_TUPLE_I", mlx5dm_sim_fv_ipv4_5_tuple, 1),
	[0][0x09] = MLX5DM_SIM_FVL("ETHL4_O", mlx5dm_sim_fv_ethl4, 0),
	[0][0x0a] = MLX5DM_SIM_FVL("ETHL4_I", mlx5dm_sim_fv_ethl4, 1),
	[0][0x0b] = MLX5DM_SIM_FVL("ETHL2_SRC_DST_O", mlx5dm_sim_fv_ethl2_src_dst, 0),
	[0][0x0c] = MLX5DM_SIM_FVL("ETHL2_SRC_DST_I", mlx5dm_sim_fv_ethl2_src_dst, 1),
	[0][0x0d] = MLX5DM_SIM_FVL("IPV4_MISC_O", mlx5dm_sim_fv_ipv4_misc, 0),
	[0][0x0f] = MLX5DM_SIM_FVL("IPV4_MISC_I/DONT_CARE", mlx5dm_sim_fv_ipv4_misc, 1),
	[1][0x04] = MLX5DM_SIM_FVL("SRC_QP_GVMI", mlx5dm_sim_fv_src_gvmi_qp, 0),
	[1][0x07] = MLX5DM_SIM_FVL("IPV6_DES_O", mlx5dm_sim_fv_ipv6_dst, 0),
	[1][0x08] = MLX5DM_SIM_FVL("IPV6_DES_I", mlx5dm_sim_fv_ipv6_dst, 1),
	[1][0x09] = MLX5DM_SIM_FVL("IPV6_SRC_O", mlx5dm_sim_fv_ipv6_src, 0),
	[1][0x0a] = MLX5DM_SIM_FVL("IPV6_SRC_I", mlx5dm_sim_fv_ipv6_src, 1),
	[1][0x0b] = MLX5DM_SIM_FVL("MPLS_O", mlx5dm_sim_fv_mpls, 0),
	[1][0x0c] = MLX5DM_SIM_FVL("MPLS_I", mlx5dm_sim_fv_mpls, 1),
	[1][0x0d] = MLX5DM_SIM_FVL("GRE", mlx5dm_sim_fv_gre, 0),
	[1][0x0e] = MLX5DM_SIM_FVL("GENERAL_PURPOSE", mlx5dm_sim_fv_general_purpose, 0),
	[1][0x0f] = MLX5DM_SIM_FVL("STEERING_REGISTERS_0", mlx5dm_sim_fv_regs_0, 0),
	[1][0x10] = MLX5DM_SIM_FVL("STEERING_REGISTERS_1", mlx5dm_sim_fv_regs_1, 0),
	[1][0x11] = MLX5DM_SIM_FVL("FLEX_PARSER_0", mlx5dm_sim_fv_flex_0, 0),
	[1][0x12] = MLX5DM_SIM_FVL("FLEX_PARSER_1", mlx5dm_sim_fv_flex_1, 0),
	[1][0x13] = MLX5DM_SIM_FVL("ETHL4_MISC_O", mlx5dm_sim_fv_ethl4_misc, 0),
	[1][0x14] = MLX5DM_SIM_FVL("ETHL4_MISC_I", mlx5dm_sim_fv_ethl4_misc, 1),
};

static const struct mlx5dm_sim_fv_layout *
mlx5dm_sim_fv_layout(uint16_t lu)
{
	unsigned int mode = lu >> 8, idx = lu & 0xffu;

	if (mode > 1 || idx >= MLX5DM_ARRAY_SIZE(mlx5dm_sim_fv_layouts[0]) ||
	    mlx5dm_sim_fv_layouts[mode][idx].f == NULL)
		return NULL;
	return &mlx5dm_sim_fv_layouts[mode][idx];
}

const char *
mlx5dm_sim_fv_name(uint16_t lu)
{
	const struct mlx5dm_sim_fv_layout *l = mlx5dm_sim_fv_layout(lu);

	return l != NULL ? l->name : "unmodelled";
}

/* Where a field's value comes from: one header stack plus the walk metadata. */
struct mlx5dm_sim_fv_src {
	const struct mlx5dm_sim_parse *p;
	const struct mlx5dm_sim_hdrs *h;
	const struct mlx5dm_sim_meta *m;
};

/* Big-endian read of n (<= 4) bytes at off, 0 where the header copy ends. */
static uint32_t
mlx5dm_sim_fv_rd(const struct mlx5dm_sim_parse *p, unsigned int off, unsigned int n)
{
	uint32_t v = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		v = (v << 8) | (off + i < p->len ? p->hdr[off + i] : 0);
	return v;
}

static uint32_t
mlx5dm_sim_fv_vlan(const struct mlx5dm_sim_fv_src *s, unsigned int k, unsigned int what)
{
	const struct mlx5dm_sim_hdrs *h = s->h;
	uint32_t tci;

	if (k >= h->nb_vlan)
		return 0;
	tci = mlx5dm_sim_fv_rd(s->p, h->vlan[k] + 2u, 2);
	switch (what) {
	case 0:
		return h->vlan_qual[k];
	case 1:
		return tci >> 13;
	case 2:
		return (tci >> 12) & 1u;
	default:
		return tci & 0xfffu;
	}
}

/* IPv4 TOS or IPv6 traffic class. */
static uint32_t
mlx5dm_sim_fv_tos(const struct mlx5dm_sim_fv_src *s)
{
	const struct mlx5dm_sim_hdrs *h = s->h;

	if (h->l3_type == MLX5DM_SIM_L3_IPV4)
		return mlx5dm_sim_fv_rd(s->p, h->l3 + 1u, 1);
	if (h->l3_type == MLX5DM_SIM_L3_IPV6)
		return (mlx5dm_sim_fv_rd(s->p, h->l3, 2) >> 4) & 0xffu;
	return 0;
}

/* Fields of the IP header; offsets into IPv4 (v4) or IPv6 (v6), 0 if absent. */
static uint32_t
mlx5dm_sim_fv_ip(const struct mlx5dm_sim_fv_src *s, unsigned int l3_type, unsigned int off,
		 unsigned int n)
{
	if (s->h->l3_type != l3_type)
		return 0;
	return mlx5dm_sim_fv_rd(s->p, s->h->l3 + off, n);
}

static uint32_t
mlx5dm_sim_fv_l4(const struct mlx5dm_sim_fv_src *s, unsigned int l4_mask, unsigned int off,
		 unsigned int n)
{
	if (((1u << s->h->l4_type) & l4_mask) == 0)
		return 0;
	return mlx5dm_sim_fv_rd(s->p, s->h->l4 + off, n);
}

#define MLX5DM_SIM_TCP (1u << MLX5DM_SIM_L4_TCP)
#define MLX5DM_SIM_UDP (1u << MLX5DM_SIM_L4_UDP)
#define MLX5DM_SIM_ICMP (1u << MLX5DM_SIM_L4_ICMP)

/*
 * ETHL4_MISC dword k: TCP window|urgent, ack, seq, checksum; UDP length|
 * checksum in dword 3; ICMP first payload dword, header data (bytes 4..7)
 * and type|code (ste_icmp_v1).
 */
static uint32_t
mlx5dm_sim_fv_l4misc(const struct mlx5dm_sim_fv_src *s, unsigned int k)
{
	const unsigned int all = MLX5DM_SIM_TCP | MLX5DM_SIM_UDP | MLX5DM_SIM_ICMP;

	switch (s->h->l4_type << 2 | k) {
	case MLX5DM_SIM_L4_TCP << 2 | 0: /* window | urgent pointer */
		return mlx5dm_sim_fv_l4(s, all, 14, 2) << 16 | mlx5dm_sim_fv_l4(s, all, 18, 2);
	case MLX5DM_SIM_L4_TCP << 2 | 1: /* ack */
		return mlx5dm_sim_fv_l4(s, all, 8, 4);
	case MLX5DM_SIM_L4_TCP << 2 | 2: /* seq */
		return mlx5dm_sim_fv_l4(s, all, 4, 4);
	case MLX5DM_SIM_L4_TCP << 2 | 3: /* checksum */
		return mlx5dm_sim_fv_l4(s, all, 16, 2);
	case MLX5DM_SIM_L4_UDP << 2 | 3: /* length | checksum */
		return mlx5dm_sim_fv_l4(s, all, 4, 4);
	case MLX5DM_SIM_L4_ICMP << 2 | 0: /* first payload dword */
		return mlx5dm_sim_fv_l4(s, all, 8, 4);
	case MLX5DM_SIM_L4_ICMP << 2 | 1: /* header data */
		return mlx5dm_sim_fv_l4(s, all, 4, 4);
	case MLX5DM_SIM_L4_ICMP << 2 | 2: /* type | code */
		return mlx5dm_sim_fv_l4(s, all, 0, 2) << 16;
	default:
		return 0;
	}
}

static uint32_t
mlx5dm_sim_fv_mpls_get(const struct mlx5dm_sim_fv_src *s, int k)
{
	const struct mlx5dm_sim_hdrs *h = s->h;
	uint32_t q = 0;
	unsigned int i;

	if (k >= 0)
		return k < h->nb_mpls ? mlx5dm_sim_fv_rd(s->p, h->mpls + 4u * k, 4) : 0;
	/* mpls_ok, then (s_bit, qualifier) for entries 4..0, entry 0 in the LSBs. */
	for (i = 0; i < h->nb_mpls; i++) {
		uint32_t e = mlx5dm_sim_fv_rd(s->p, h->mpls + 4u * i, 4);

		q |= (((e >> 8) & 1u) << 1 | 1u) << (2 * i);
	}
	return h->nb_mpls ? q | (1u << 10) : 0;
}

static uint32_t
mlx5dm_sim_fv_tnl(const struct mlx5dm_sim_fv_src *s, enum mlx5dm_sim_pf pf)
{
	const struct mlx5dm_sim_parse *p = s->p;
	uint32_t dw0;

	if (pf == MLX5DM_SIM_PF_TNL_NET_ID)
		return p->tnl == MLX5DM_SIM_TNL_VXLAN ?
		       mlx5dm_sim_fv_rd(p, p->tnl_off + 4u, 4) & 0xffffff00u : 0;
	if (p->tnl != MLX5DM_SIM_TNL_GRE)
		return 0;
	dw0 = mlx5dm_sim_fv_rd(p, p->tnl_off, 4);
	if (pf == MLX5DM_SIM_PF_GRE_DW0)
		return dw0 & 0xbfffffffu; /* the tag has no R bit */
	if ((dw0 & 0x20000000u) == 0) /* K */
		return 0;
	return mlx5dm_sim_fv_rd(p, p->tnl_off + ((dw0 & 0x80000000u) ? 8u : 4u), 4);
}

_Static_assert(MLX5DM_SIM_FLEX_ID_MPLS_O_GRE < 8 && MLX5DM_SIM_FLEX_ID_MPLS_O_UDP < 8 &&
	       MLX5DM_SIM_FLEX_ID_MPLS_O_GRE != MLX5DM_SIM_FLEX_ID_MPLS_O_UDP,
	       "the FLEX_PARSER_0/1 lookups carry parsers 0..7, one dword each");

/*
 * Flex parser k: the device's MPLS-over-GRE parser holds the first MPLS
 * header after a GRE header of protocol 0x8847, its MPLS-over-UDP parser
 * the first one after a UDP header to port 6635 (in both, the label stack
 * is the inner stack's); no other parser is enabled, so they read 0.
 */
static uint32_t
mlx5dm_sim_fv_flex(const struct mlx5dm_sim_parse *p, unsigned int k)
{
	uint8_t tnl;

	if (k == MLX5DM_SIM_FLEX_ID_MPLS_O_GRE)
		tnl = MLX5DM_SIM_TNL_GRE;
	else if (k == MLX5DM_SIM_FLEX_ID_MPLS_O_UDP)
		tnl = MLX5DM_SIM_TNL_MPLS_UDP;
	else
		return 0;
	if (p->tnl != tnl || p->i.nb_mpls == 0)
		return 0;
	if (tnl == MLX5DM_SIM_TNL_GRE &&
	    mlx5dm_sim_fv_rd(p, p->tnl_off + 2u, 2) != MLX5DM_SIM_ETH_P_MPLS_UC)
		return 0; /* multicast MPLS (0x8848) is not what this parser follows */
	return mlx5dm_sim_fv_rd(p, p->i.mpls, 4);
}

static uint32_t
mlx5dm_sim_fv_get(const struct mlx5dm_sim_fv_src *s, enum mlx5dm_sim_pf pf)
{
	const struct mlx5dm_sim_hdrs *h = s->h;
	unsigned int l2 = h->l2;

	switch (pf) {
	case MLX5DM_SIM_PF_DMAC_47_16:
	case MLX5DM_SIM_PF_DMAC_15_0:
	case MLX5DM_SIM_PF_SMAC_47_16:
	case MLX5DM_SIM_PF_SMAC_15_0:
		if (l2 == MLX5DM_SIM_NOHDR)
			return 0;
		/* dmac at 0, smac at 6; the 47_16 halves are 4 bytes, the 15_0 halves 2. */
		return mlx5dm_sim_fv_rd(s->p, l2 + (pf - MLX5DM_SIM_PF_DMAC_47_16) / 2u * 6u +
					(pf & 1u) * 4u, (pf & 1u) ? 2 : 4);
	case MLX5DM_SIM_PF_ETHERTYPE:
		return h->ethertype;
	case MLX5DM_SIM_PF_L3_TYPE:
		return h->l3_type;
	case MLX5DM_SIM_PF_L4_TYPE:
		return h->l4_type == MLX5DM_SIM_L4_ICMP ? 0 : h->l4_type;
	case MLX5DM_SIM_PF_FRAG:
		return h->frag;
	case MLX5DM_SIM_PF_FIRST_FRAG:
		return h->first_frag;
	case MLX5DM_SIM_PF_VLAN0_QUAL:
	case MLX5DM_SIM_PF_VLAN0_PRIO:
	case MLX5DM_SIM_PF_VLAN0_CFI:
	case MLX5DM_SIM_PF_VLAN0_VID:
		return mlx5dm_sim_fv_vlan(s, 0, pf - MLX5DM_SIM_PF_VLAN0_QUAL);
	case MLX5DM_SIM_PF_VLAN1_QUAL:
	case MLX5DM_SIM_PF_VLAN1_PRIO:
	case MLX5DM_SIM_PF_VLAN1_CFI:
	case MLX5DM_SIM_PF_VLAN1_VID:
		return mlx5dm_sim_fv_vlan(s, 1, pf - MLX5DM_SIM_PF_VLAN1_QUAL);
	case MLX5DM_SIM_PF_L2_OK:
		return l2 != MLX5DM_SIM_NOHDR;
	case MLX5DM_SIM_PF_L3_OK:
		return h->l3_ok;
	case MLX5DM_SIM_PF_L4_OK:
		return h->l4_ok;
	case MLX5DM_SIM_PF_IP_VERSION:
		return h->l3_type == MLX5DM_SIM_L3_NONE ? 0 : mlx5dm_sim_fv_rd(s->p, h->l3, 1) >> 4;
	case MLX5DM_SIM_PF_IHL:
		return mlx5dm_sim_fv_ip(s, MLX5DM_SIM_L3_IPV4, 0, 1) & 0xfu;
	case MLX5DM_SIM_PF_DSCP:
		return mlx5dm_sim_fv_tos(s) >> 2;
	case MLX5DM_SIM_PF_ECN:
		return mlx5dm_sim_fv_tos(s) & 3u;
	case MLX5DM_SIM_PF_TTL:
		return mlx5dm_sim_fv_ip(s, MLX5DM_SIM_L3_IPV4, 8, 1) |
		       mlx5dm_sim_fv_ip(s, MLX5DM_SIM_L3_IPV6, 7, 1);
	case MLX5DM_SIM_PF_PROTO:
		return h->l3_type == MLX5DM_SIM_L3_NONE ? 0 : h->proto;
	case MLX5DM_SIM_PF_IP4_VERSION:
		return mlx5dm_sim_fv_ip(s, MLX5DM_SIM_L3_IPV4, 0, 1) >> 4;
	case MLX5DM_SIM_PF_IP4_TTL:
		return mlx5dm_sim_fv_ip(s, MLX5DM_SIM_L3_IPV4, 8, 1);
	case MLX5DM_SIM_PF_IP4_ID:
		return mlx5dm_sim_fv_ip(s, MLX5DM_SIM_L3_IPV4, 4, 2);
	case MLX5DM_SIM_PF_IP4_FLAGS:
		return mlx5dm_sim_fv_ip(s, MLX5DM_SIM_L3_IPV4, 6, 1) >> 5;
	case MLX5DM_SIM_PF_IP4_FRAG_OFF:
		return mlx5dm_sim_fv_ip(s, MLX5DM_SIM_L3_IPV4, 6, 2) & 0x1fffu;
	case MLX5DM_SIM_PF_IP4_TOTAL_LEN:
		return mlx5dm_sim_fv_ip(s, MLX5DM_SIM_L3_IPV4, 2, 2);
	case MLX5DM_SIM_PF_IP4_CSUM:
		return mlx5dm_sim_fv_ip(s, MLX5DM_SIM_L3_IPV4, 10, 2);
	case MLX5DM_SIM_PF_IP4_SRC:
		return mlx5dm_sim_fv_ip(s, MLX5DM_SIM_L3_IPV4, 12, 4);
	case MLX5DM_SIM_PF_IP4_DST:
		return mlx5dm_sim_fv_ip(s, MLX5DM_SIM_L3_IPV4, 16, 4);
	case MLX5DM_SIM_PF_IP6_SRC_0:
	case MLX5DM_SIM_PF_IP6_SRC_1:
	case MLX5DM_SIM_PF_IP6_SRC_2:
	case MLX5DM_SIM_PF_IP6_SRC_3:
		return mlx5dm_sim_fv_ip(s, MLX5DM_SIM_L3_IPV6,
					8 + 4 * (pf - MLX5DM_SIM_PF_IP6_SRC_0), 4);
	case MLX5DM_SIM_PF_IP6_DST_0:
	case MLX5DM_SIM_PF_IP6_DST_1:
	case MLX5DM_SIM_PF_IP6_DST_2:
	case MLX5DM_SIM_PF_IP6_DST_3:
		return mlx5dm_sim_fv_ip(s, MLX5DM_SIM_L3_IPV6,
					24 + 4 * (pf - MLX5DM_SIM_PF_IP6_DST_0), 4);
	case MLX5DM_SIM_PF_IP6_FLOW_LABEL:
		return mlx5dm_sim_fv_ip(s, MLX5DM_SIM_L3_IPV6, 0, 4) & 0xfffffu;
	case MLX5DM_SIM_PF_IP6_PAYLEN:
		return mlx5dm_sim_fv_ip(s, MLX5DM_SIM_L3_IPV6, 4, 2);
	case MLX5DM_SIM_PF_SPORT:
		return mlx5dm_sim_fv_l4(s, MLX5DM_SIM_TCP | MLX5DM_SIM_UDP, 0, 2);
	case MLX5DM_SIM_PF_DPORT:
		return mlx5dm_sim_fv_l4(s, MLX5DM_SIM_TCP | MLX5DM_SIM_UDP, 2, 2);
	case MLX5DM_SIM_PF_TCP_FLAGS:
		return mlx5dm_sim_fv_l4(s, MLX5DM_SIM_TCP, 12, 2) & 0x1ffu;
	case MLX5DM_SIM_PF_TCP_SYN:
		return (mlx5dm_sim_fv_l4(s, MLX5DM_SIM_TCP, 13, 1) >> 1) & 1u;
	case MLX5DM_SIM_PF_TCP_DOFF:
		return mlx5dm_sim_fv_l4(s, MLX5DM_SIM_TCP, 12, 1) >> 4;
	case MLX5DM_SIM_PF_L4MISC_0:
	case MLX5DM_SIM_PF_L4MISC_1:
	case MLX5DM_SIM_PF_L4MISC_2:
	case MLX5DM_SIM_PF_L4MISC_3:
		return mlx5dm_sim_fv_l4misc(s, pf - MLX5DM_SIM_PF_L4MISC_0);
	case MLX5DM_SIM_PF_TNL_NET_ID:
	case MLX5DM_SIM_PF_GRE_DW0:
	case MLX5DM_SIM_PF_GRE_KEY:
		return mlx5dm_sim_fv_tnl(s, pf);
	case MLX5DM_SIM_PF_MPLS_QUALS:
		return mlx5dm_sim_fv_mpls_get(s, -1);
	case MLX5DM_SIM_PF_MPLS_0:
	case MLX5DM_SIM_PF_MPLS_1:
	case MLX5DM_SIM_PF_MPLS_2:
		return mlx5dm_sim_fv_mpls_get(s, pf - MLX5DM_SIM_PF_MPLS_0);
	case MLX5DM_SIM_PF_REG_A:
		return s->m->reg_a;
	case MLX5DM_SIM_PF_SRC_GVMI:
		return s->m->source_gvmi;
	case MLX5DM_SIM_PF_SRC_QP:
		return s->m->source_qp;
	case MLX5DM_SIM_PF_REG_C0:
	case MLX5DM_SIM_PF_REG_C1:
	case MLX5DM_SIM_PF_REG_C2:
	case MLX5DM_SIM_PF_REG_C3:
	case MLX5DM_SIM_PF_REG_C4:
	case MLX5DM_SIM_PF_REG_C5:
	case MLX5DM_SIM_PF_REG_C6:
	case MLX5DM_SIM_PF_REG_C7:
		return s->m->reg_c[pf - MLX5DM_SIM_PF_REG_C0];
	case MLX5DM_SIM_PF_FLEX_0:
	case MLX5DM_SIM_PF_FLEX_1:
	case MLX5DM_SIM_PF_FLEX_2:
	case MLX5DM_SIM_PF_FLEX_3:
	case MLX5DM_SIM_PF_FLEX_4:
	case MLX5DM_SIM_PF_FLEX_5:
	case MLX5DM_SIM_PF_FLEX_6:
	case MLX5DM_SIM_PF_FLEX_7:
		return mlx5dm_sim_fv_flex(s->p, pf - MLX5DM_SIM_PF_FLEX_0);
	}
	return 0;
}

int
mlx5dm_sim_fv_build_part(uint16_t lu, const struct mlx5dm_sim_parse *p,
			 const struct mlx5dm_sim_meta *m, uint8_t v[MLX5DM_SIM_FV_LEN],
			 uint16_t need, uint64_t *have)
{
	const struct mlx5dm_sim_fv_layout *l = mlx5dm_sim_fv_layout(lu);
	struct mlx5dm_sim_fv_src s;
	unsigned int k;

	if (l == NULL)
		return -ENOTSUP;
	s.p = p;
	s.h = l->inner ? &p->i : &p->o;
	s.m = m;
	for (k = 0; k < l->nb; k++) {
		/* Fields past the 64 that *have tracks are built every time. */
		uint64_t bit = k < 64 ? (uint64_t)1 << k : 0;

		if ((l->f[k].bytes & need) == 0 || (*have & bit) != 0)
			continue;
		mlx5dm_prm_set(v, l->f[k].bit, l->f[k].width,
			       mlx5dm_sim_fv_get(&s, (enum mlx5dm_sim_pf)l->f[k].pf));
		*have |= bit;
	}
	return 0;
}

int
mlx5dm_sim_fv_build(uint16_t lu, const struct mlx5dm_sim_parse *p,
		    const struct mlx5dm_sim_meta *m, uint8_t v[MLX5DM_SIM_FV_LEN])
{
	uint64_t have = 0;

	memset(v, 0, MLX5DM_SIM_FV_LEN);
	return mlx5dm_sim_fv_build_part(lu, p, m, v, 0xffff, &have);
}
