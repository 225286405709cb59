/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * TCP, UDP, ICMP and ICMP6 items: each needs its level's L3 item (L4 fields
 * are matched with the IP version) and implies the IP protocol and "not a
 * fragment" (the device parses nothing behind a fragment's IP header: DPDK
 * doc/guides/nics/mlx5.rst, Limitations).
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
#define NONE MLX5DM_FLOW_FTE_NONE

/* The IP protocol of the item, in a packet that is no fragment. */
static int
mlx5dm_flow_l4_post(struct mlx5dm_flow_translation *x, struct rte_flow_error *error)
{
	int ret;

	if (mlx5dm_flow_match_mask(x, MLX5DM_FLOW_IO(x->inner, frag)) != 0 &&
	    mlx5dm_flow_match_value(x, MLX5DM_FLOW_IO(x->inner, frag)) != 0)
		return mlx5dm_flow_item_err(x, EINVAL, "L4 item after a fragment match: the "
					    "device parses no L4 header in IP fragments", error);
	ret = mlx5dm_flow_match_imply(x, MLX5DM_FLOW_IO(x->inner, frag), 0, error);
	if (ret < 0)
		return ret;
	return mlx5dm_flow_match_imply(x, MLX5DM_FLOW_IO(x->inner, ip_protocol), x->def->ip_proto,
				       error);
}

/* The L4 item needs one of the L3 kinds l3 at its level, and no other L4. */
#define L4_DEF(n, l3, msg, proto) \
	MLX5DM_FLOW_ITEM_MAP(n), .ip_proto = (proto), .post = mlx5dm_flow_l4_post, \
	.rule = { { MLX5DM_FLOW_L_L4, MLX5DM_FLOW_O_LEVEL, ENOTSUP, \
		    "only one L4 item per header level" }, \
		  { (l3), MLX5DM_FLOW_O_LEVEL | MLX5DM_FLOW_O_ABSENT, ENOTSUP, (msg) } }

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

static const struct mlx5dm_flow_field_map mlx5dm_flow_map_tcp[] = {
	MLX5DM_FLOW_FMAP_IO(TCP_BIT(src_port), 16, 0, tcp_sport),
	MLX5DM_FLOW_FMAP_IO(TCP_BIT(dst_port), 16, 0, tcp_dport),
	MLX5DM_FLOW_FMAP_V(TCP_BIT(sent_seq), 32, 0, MISC3(outer_tcp_seq_num),
			   MISC3(inner_tcp_seq_num), NONE, NONE),
	MLX5DM_FLOW_FMAP_V(TCP_BIT(recv_ack), 32, 0, MISC3(outer_tcp_ack_num),
			   MISC3(inner_tcp_ack_num), NONE, NONE),
	MLX5DM_FLOW_FMAP_IO(TCP_BIT(tcp_flags), 8, 0, tcp_flags),
};

const struct mlx5dm_flow_item_def mlx5dm_flow_item_tcp = {
	L4_DEF(tcp, MLX5DM_FLOW_L_L3, "TCP needs an IPV4 or IPV6 item before it", IPPROTO_TCP),
	.mask_msg = "TCP: only ports, sequence and acknowledgment numbers and flags can be "
		    "matched",
	.layer = MLX5DM_FLOW_L_TCP,
};

/* ---- UDP ---- */

static const struct rte_flow_item_udp mlx5dm_flow_nic_udp = {
	.hdr = {
		.src_port = RTE_BE16(0xffff),
		.dst_port = RTE_BE16(0xffff),
	},
};

static const struct mlx5dm_flow_field_map mlx5dm_flow_map_udp[] = {
	MLX5DM_FLOW_FMAP_IO(UDP_BIT(src_port), 16, 0, udp_sport),
	MLX5DM_FLOW_FMAP_IO(UDP_BIT(dst_port), 16, 0, udp_dport),
};

const struct mlx5dm_flow_item_def mlx5dm_flow_item_udp = {
	L4_DEF(udp, MLX5DM_FLOW_L_L3, "UDP needs an IPV4 or IPV6 item before it", IPPROTO_UDP),
	.mask_msg = "UDP: only ports can be matched",
	.layer = MLX5DM_FLOW_L_UDP,
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
static const struct mlx5dm_flow_field_map mlx5dm_flow_map_icmp[] = {
	MLX5DM_FLOW_FMAP_V(ICMP_BIT(icmp_type), 8, 0, MISC3(icmp_type), NONE, NONE, NONE),
	MLX5DM_FLOW_FMAP_V(ICMP_BIT(icmp_code), 8, 0, MISC3(icmp_code), NONE, NONE, NONE),
	MLX5DM_FLOW_FMAP_V(ICMP_BIT(icmp_ident), 32, 0, MISC3(icmp_header_data), NONE, NONE,
			   NONE),
};

const struct mlx5dm_flow_item_def mlx5dm_flow_item_icmp = {
	L4_DEF(icmp, MLX5DM_FLOW_L_IPV4, "ICMP needs an IPV4 item before it", IPPROTO_ICMP),
	.mask_msg = "ICMP: only type, code, identifier and sequence number can be matched",
	.layer = MLX5DM_FLOW_L_ICMP,
};

/* ---- ICMP6 ---- */

static const struct rte_flow_item_icmp6 mlx5dm_flow_nic_icmp6 = {
	.type = 0xff,
	.code = 0xff,
};

static const struct mlx5dm_flow_field_map mlx5dm_flow_map_icmp6[] = {
	MLX5DM_FLOW_FMAP_V(ICMP6_BIT(type), 8, 0, MISC3(icmpv6_type), NONE, NONE, NONE),
	MLX5DM_FLOW_FMAP_V(ICMP6_BIT(code), 8, 0, MISC3(icmpv6_code), NONE, NONE, NONE),
};

const struct mlx5dm_flow_item_def mlx5dm_flow_item_icmp6 = {
	L4_DEF(icmp6, MLX5DM_FLOW_L_IPV6, "ICMP6 needs an IPV6 item before it", IPPROTO_ICMPV6),
	.mask_msg = "ICMP6: only type and code can be matched",
	.layer = MLX5DM_FLOW_L_ICMP6,
};
