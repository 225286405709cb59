/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * TCP, UDP, ICMP and ICMP6 items: each needs the L3 item of its header
 * level before it (the device matches L4 fields and the IP protocol only
 * together with the IP version) and implies the IP protocol.
 */

#include <errno.h>

#include <rte_byteorder.h>
#include <rte_ip.h>

#include "mlx5dm_flow_item.h"

#define TCP_BIT(m) MLX5DM_FLOW_BIT(struct rte_flow_item_tcp, hdr.m)
#define UDP_BIT(m) MLX5DM_FLOW_BIT(struct rte_flow_item_udp, hdr.m)
#define ICMP_BIT(m) MLX5DM_FLOW_BIT(struct rte_flow_item_icmp, hdr.m)
#define ICMP6_BIT(m) MLX5DM_FLOW_BIT(struct rte_flow_item_icmp6, m)
#define MISC3(f) MLX5DM_FTE(misc3, f)
#define NONE MLX5DM_FLOW_NONE

/* The L4 item needs one of the L3 kinds `l3` of its level, and no other L4. */
static int
mlx5dm_flow_l4_order(struct mlx5dm_flow_xlate *x, uint64_t l3, const char *msg,
		     struct rte_flow_error *error)
{
	if (mlx5dm_flow_has(x, mlx5dm_flow_lvl(x, MLX5DM_FLOW_L_L4)))
		return mlx5dm_flow_item_err(x, ENOTSUP, "only one L4 item per header level",
					    error);
	if (!mlx5dm_flow_has(x, mlx5dm_flow_lvl(x, l3)))
		return mlx5dm_flow_item_err(x, ENOTSUP, msg, error);
	return 0;
}

static int
mlx5dm_flow_l4_proto(struct mlx5dm_flow_xlate *x, uint32_t proto, struct rte_flow_error *error)
{
	return mlx5dm_flow_match_imply(x, MLX5DM_FLOW_IO(x, ip_protocol), proto, error);
}

/* ---- TCP ---- */

static const struct rte_flow_item_tcp mlx5dm_flow_nic_tcp = {
	.hdr = {
		.src_port = RTE_BE16(0xffff),
		.dst_port = RTE_BE16(0xffff),
		.sent_seq = RTE_BE32(0xffffffff),
		.recv_ack = RTE_BE32(0xffffffff),
		.tcp_flags = 0xff,
	},
};

static const struct mlx5dm_flow_fmap mlx5dm_flow_map_tcp[] = {
	MLX5DM_FLOW_FMAP_IO(TCP_BIT(src_port), 16, 0, tcp_sport),
	MLX5DM_FLOW_FMAP_IO(TCP_BIT(dst_port), 16, 0, tcp_dport),
	MLX5DM_FLOW_FMAP_V(TCP_BIT(sent_seq), 32, 0, MISC3(outer_tcp_seq_num),
			   MISC3(inner_tcp_seq_num), NONE, NONE),
	MLX5DM_FLOW_FMAP_V(TCP_BIT(recv_ack), 32, 0, MISC3(outer_tcp_ack_num),
			   MISC3(inner_tcp_ack_num), NONE, NONE),
	MLX5DM_FLOW_FMAP_IO(TCP_BIT(tcp_flags), 8, 0, tcp_flags),
};

static int
mlx5dm_flow_tcp_order(struct mlx5dm_flow_xlate *x, struct rte_flow_error *error)
{
	return mlx5dm_flow_l4_order(x, MLX5DM_FLOW_L_L3, "TCP needs an IPV4 or IPV6 item before "
				    "it", error);
}

static int
mlx5dm_flow_tcp_post(struct mlx5dm_flow_xlate *x, const uint8_t *spec, const uint8_t *mask,
		     struct rte_flow_error *error)
{
	RTE_SET_USED(spec);
	RTE_SET_USED(mask);
	return mlx5dm_flow_l4_proto(x, IPPROTO_TCP, error);
}

const struct mlx5dm_flow_item_def mlx5dm_flow_item_tcp = {
	.name = "TCP",
	.size = sizeof(struct rte_flow_item_tcp),
	.default_mask = &rte_flow_item_tcp_mask,
	.nic_mask = &mlx5dm_flow_nic_tcp,
	.mask_msg = "TCP: only ports, sequence and acknowledgment numbers and flags can be "
		    "matched",
	.map = mlx5dm_flow_map_tcp,
	.n_map = RTE_DIM(mlx5dm_flow_map_tcp),
	.layer = MLX5DM_FLOW_L_TCP,
	.order = mlx5dm_flow_tcp_order,
	.post = mlx5dm_flow_tcp_post,
};

/* ---- UDP ---- */

static const struct rte_flow_item_udp mlx5dm_flow_nic_udp = {
	.hdr = {
		.src_port = RTE_BE16(0xffff),
		.dst_port = RTE_BE16(0xffff),
	},
};

static const struct mlx5dm_flow_fmap mlx5dm_flow_map_udp[] = {
	MLX5DM_FLOW_FMAP_IO(UDP_BIT(src_port), 16, 0, udp_sport),
	MLX5DM_FLOW_FMAP_IO(UDP_BIT(dst_port), 16, 0, udp_dport),
};

static int
mlx5dm_flow_udp_order(struct mlx5dm_flow_xlate *x, struct rte_flow_error *error)
{
	return mlx5dm_flow_l4_order(x, MLX5DM_FLOW_L_L3, "UDP needs an IPV4 or IPV6 item before "
				    "it", error);
}

static int
mlx5dm_flow_udp_post(struct mlx5dm_flow_xlate *x, const uint8_t *spec, const uint8_t *mask,
		     struct rte_flow_error *error)
{
	RTE_SET_USED(spec);
	RTE_SET_USED(mask);
	return mlx5dm_flow_l4_proto(x, IPPROTO_UDP, error);
}

const struct mlx5dm_flow_item_def mlx5dm_flow_item_udp = {
	.name = "UDP",
	.size = sizeof(struct rte_flow_item_udp),
	.default_mask = &rte_flow_item_udp_mask,
	.nic_mask = &mlx5dm_flow_nic_udp,
	.mask_msg = "UDP: only ports can be matched",
	.map = mlx5dm_flow_map_udp,
	.n_map = RTE_DIM(mlx5dm_flow_map_udp),
	.layer = MLX5DM_FLOW_L_UDP,
	.order = mlx5dm_flow_udp_order,
	.post = mlx5dm_flow_udp_post,
};

/* ---- ICMP ---- */

static const struct rte_flow_item_icmp mlx5dm_flow_nic_icmp = {
	.hdr = {
		.icmp_type = 0xff,
		.icmp_code = 0xff,
		.icmp_ident = RTE_BE16(0xffff),
		.icmp_seq_nb = RTE_BE16(0xffff),
	},
};

/* misc3 has ICMP fields for the outer headers only. */
static const struct mlx5dm_flow_fmap mlx5dm_flow_map_icmp[] = {
	MLX5DM_FLOW_FMAP_V(ICMP_BIT(icmp_type), 8, 0, MISC3(icmp_type), NONE, NONE, NONE),
	MLX5DM_FLOW_FMAP_V(ICMP_BIT(icmp_code), 8, 0, MISC3(icmp_code), NONE, NONE, NONE),
	MLX5DM_FLOW_FMAP_V(ICMP_BIT(icmp_ident), 32, 0, MISC3(icmp_header_data), NONE, NONE,
			   NONE),
};

static int
mlx5dm_flow_icmp_order(struct mlx5dm_flow_xlate *x, struct rte_flow_error *error)
{
	return mlx5dm_flow_l4_order(x, MLX5DM_FLOW_L_IPV4, "ICMP needs an IPV4 item before it",
				    error);
}

static int
mlx5dm_flow_icmp_post(struct mlx5dm_flow_xlate *x, const uint8_t *spec, const uint8_t *mask,
		      struct rte_flow_error *error)
{
	RTE_SET_USED(spec);
	RTE_SET_USED(mask);
	return mlx5dm_flow_l4_proto(x, IPPROTO_ICMP, error);
}

const struct mlx5dm_flow_item_def mlx5dm_flow_item_icmp = {
	.name = "ICMP",
	.size = sizeof(struct rte_flow_item_icmp),
	.default_mask = &rte_flow_item_icmp_mask,
	.nic_mask = &mlx5dm_flow_nic_icmp,
	.mask_msg = "ICMP: only type, code, identifier and sequence number can be matched",
	.map = mlx5dm_flow_map_icmp,
	.n_map = RTE_DIM(mlx5dm_flow_map_icmp),
	.layer = MLX5DM_FLOW_L_ICMP,
	.order = mlx5dm_flow_icmp_order,
	.post = mlx5dm_flow_icmp_post,
};

/* ---- ICMP6 ---- */

static const struct rte_flow_item_icmp6 mlx5dm_flow_nic_icmp6 = {
	.type = 0xff,
	.code = 0xff,
};

static const struct mlx5dm_flow_fmap mlx5dm_flow_map_icmp6[] = {
	MLX5DM_FLOW_FMAP_V(ICMP6_BIT(type), 8, 0, MISC3(icmpv6_type), NONE, NONE, NONE),
	MLX5DM_FLOW_FMAP_V(ICMP6_BIT(code), 8, 0, MISC3(icmpv6_code), NONE, NONE, NONE),
};

static int
mlx5dm_flow_icmp6_order(struct mlx5dm_flow_xlate *x, struct rte_flow_error *error)
{
	return mlx5dm_flow_l4_order(x, MLX5DM_FLOW_L_IPV6, "ICMP6 needs an IPV6 item before it",
				    error);
}

static int
mlx5dm_flow_icmp6_post(struct mlx5dm_flow_xlate *x, const uint8_t *spec, const uint8_t *mask,
		       struct rte_flow_error *error)
{
	RTE_SET_USED(spec);
	RTE_SET_USED(mask);
	return mlx5dm_flow_l4_proto(x, IPPROTO_ICMPV6, error);
}

const struct mlx5dm_flow_item_def mlx5dm_flow_item_icmp6 = {
	.name = "ICMP6",
	.size = sizeof(struct rte_flow_item_icmp6),
	.default_mask = &rte_flow_item_icmp6_mask,
	.nic_mask = &mlx5dm_flow_nic_icmp6,
	.mask_msg = "ICMP6: only type and code can be matched",
	.map = mlx5dm_flow_map_icmp6,
	.n_map = RTE_DIM(mlx5dm_flow_map_icmp6),
	.layer = MLX5DM_FLOW_L_ICMP6,
	.order = mlx5dm_flow_icmp6_order,
	.post = mlx5dm_flow_icmp6_post,
};
