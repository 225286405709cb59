/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * IPV4 and IPV6 items imply ip_version (the device's L3 lookups split by
 * it). IPv4 fragment_offset is the frag bit: spec 0 mask 0x3fff "not a
 * fragment", spec 1 last 0x3fff "a fragment".
 */

#include <errno.h>

#include <rte_byteorder.h>

#include "mlx5dm_flow_item.h"

#define V4_BIT(m) MLX5DM_FLOW_BIT(struct rte_flow_item_ipv4, hdr.m)
#define V6_BIT(m) MLX5DM_FLOW_BIT(struct rte_flow_item_ipv6, hdr.m)
#define MISC(f) MLX5DM_FTE(misc, f)
#define NONE MLX5DM_FLOW_FTE_NONE

#define L3_ORDER \
	.rule = { { MLX5DM_FLOW_L_L3, MLX5DM_FLOW_O_LEVEL, ENOTSUP, \
		    "only one L3 item per header level" }, \
		  { MLX5DM_FLOW_L_L4, MLX5DM_FLOW_O_LEVEL, EINVAL, \
		    "L3 item after an L4 item of the same header level" } }

/* A fully matched EtherType field f (what carries the L3 header) must be this version's. */
static bool
mlx5dm_flow_l3_carried_ok(const struct mlx5dm_flow_translation *x, enum mlx5dm_fte_field f)
{
	return mlx5dm_flow_match_mask(x, f) != 0xffff ||
	       mlx5dm_flow_match_value(x, f) == x->def->ethertype;
}

/* ip_version, and the EtherType (if matched) must be this version's. */
static int
mlx5dm_flow_l3_post(struct mlx5dm_flow_translation *x, struct rte_flow_error *error)
{
	int ret;

	if (!mlx5dm_flow_l3_carried_ok(x, MLX5DM_FLOW_IO(x->inner, ethertype)))
		return mlx5dm_flow_item_err(x, EINVAL, "L3 item does not match the EtherType "
					    "given before it", error);
	/* Right behind GRE, the L3 item is GRE's protocol (as mlx5 implies it). */
	if (x->inner && mlx5dm_flow_has(x, MLX5DM_FLOW_L_GRE)) {
		if (!mlx5dm_flow_l3_carried_ok(x, MISC(gre_protocol)))
			return mlx5dm_flow_item_err(x, EINVAL, "L3 item does not match the GRE "
						    "protocol given before it", error);
		ret = mlx5dm_flow_match_default(x, MISC(gre_protocol), x->def->ethertype, error);
		if (ret < 0)
			return ret;
	}
	return mlx5dm_flow_match_ip_version(x, MLX5DM_FLOW_IO(x->inner, ip_version),
					    x->def->ip_version, error);
}

/* ---- IPV4 ---- */

static const struct rte_flow_item_ipv4 mlx5dm_flow_nic_ipv4 = {
	.hdr = {
		.version_ihl = 0x0f,
		.type_of_service = 0xff,
		.fragment_offset = RTE_BE16(0x3fff),
		.time_to_live = 0xff,
		.next_proto_id = 0xff,
		.src_addr = RTE_BE32(0xffffffff),
		.dst_addr = RTE_BE32(0xffffffff),
	},
};

static const struct mlx5dm_flow_field_map mlx5dm_flow_map_ipv4[] = {
	MLX5DM_FLOW_FMAP_IO(V4_BIT(version_ihl) + 4, 4, 0, ipv4_ihl),
	MLX5DM_FLOW_FMAP_IO(V4_BIT(type_of_service), 6, 0, ip_dscp),
	MLX5DM_FLOW_FMAP_IO(V4_BIT(type_of_service) + 6, 2, 0, ip_ecn),
	MLX5DM_FLOW_FMAP_IO(V4_BIT(time_to_live), 8, 0, ip_ttl_hoplimit),
	MLX5DM_FLOW_FMAP_IO(V4_BIT(next_proto_id), 8, 0, ip_protocol),
	MLX5DM_FLOW_FMAP_IO(V4_BIT(src_addr), 32, 0, src_ip_31_0),
	MLX5DM_FLOW_FMAP_IO(V4_BIT(dst_addr), 32, 0, dst_ip_31_0),
};

static int
mlx5dm_flow_ipv4_pre(struct mlx5dm_flow_translation *x, const uint8_t *spec, uint8_t *mask,
		     const uint8_t *last, struct rte_flow_error *error)
{
	uint32_t m = mlx5dm_prm_get(mask, V4_BIT(fragment_offset), 16);
	uint32_t s = mlx5dm_prm_get(spec, V4_BIT(fragment_offset), 16);
	uint32_t l = last != NULL ? mlx5dm_prm_get(last, V4_BIT(fragment_offset), 16) : s;

	if (m == 0)
		return 0;
	mlx5dm_prm_set(mask, V4_BIT(fragment_offset), 16, 0);
	if (m != 0x3fff)
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM_MASK, x->item,
					  "IPV4 fragment_offset can only be matched with mask "
					  "0x3fff");
	/* Bits outside the mask (DF, the reserved flag) do not count, as rte_flow says. */
	s &= m;
	l &= m;
	if (s == 0 && l == 0)
		return mlx5dm_flow_match_set(x, MLX5DM_FLOW_IO(x->inner, frag), 1, 0, error);
	if (s == 1 && l == 0x3fff)
		return mlx5dm_flow_match_set(x, MLX5DM_FLOW_IO(x->inner, frag), 1, 1, error);
	return rte_flow_error_set(error, ENOTSUP, last != NULL ? RTE_FLOW_ERROR_TYPE_ITEM_LAST :
				  RTE_FLOW_ERROR_TYPE_ITEM_SPEC, x->item,
				  "IPV4 fragment_offset: only spec 0 (not a fragment) or spec 1 "
				  "with last 0x3fff (a fragment) can be matched");
}

const struct mlx5dm_flow_item_def mlx5dm_flow_item_ipv4 = {
	MLX5DM_FLOW_ITEM_MAP(ipv4),
	.mask_msg = "IPV4: only IHL, DSCP/ECN, fragment_offset, TTL, protocol and addresses "
		    "can be matched",
	.layer = MLX5DM_FLOW_L_IPV4,
	.ip_version = 4,
	.ethertype = RTE_ETHER_TYPE_IPV4,
	L3_ORDER,
	.pre = mlx5dm_flow_ipv4_pre,
	.post = mlx5dm_flow_l3_post,
};

/* ---- IPV6 ---- */

static const struct rte_flow_item_ipv6 mlx5dm_flow_nic_ipv6 = {
	.hdr = {
		.vtc_flow = RTE_BE32(0x0fffffff),
		.proto = 0xff,
		.hop_limits = 0xff,
		.src_addr = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
			      0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },
		.dst_addr = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
			      0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },
	},
};

static const struct mlx5dm_flow_field_map mlx5dm_flow_map_ipv6[] = {
	MLX5DM_FLOW_FMAP_IO(V6_BIT(vtc_flow) + 4, 6, 0, ip_dscp),
	MLX5DM_FLOW_FMAP_IO(V6_BIT(vtc_flow) + 10, 2, 0, ip_ecn),
	MLX5DM_FLOW_FMAP_V(V6_BIT(vtc_flow) + 12, 20, 0, MISC(outer_ipv6_flow_label),
			   MISC(inner_ipv6_flow_label), NONE, NONE),
	MLX5DM_FLOW_FMAP_IO(V6_BIT(proto), 8, 0, ip_protocol),
	MLX5DM_FLOW_FMAP_IO(V6_BIT(hop_limits), 8, 0, ip_ttl_hoplimit),
	MLX5DM_FLOW_FMAP_IO(V6_BIT(src_addr), 32, 1, src_ip_127_96),
	MLX5DM_FLOW_FMAP_IO(V6_BIT(src_addr) + 32, 32, 1, src_ip_95_64),
	MLX5DM_FLOW_FMAP_IO(V6_BIT(src_addr) + 64, 32, 1, src_ip_63_32),
	MLX5DM_FLOW_FMAP_IO(V6_BIT(src_addr) + 96, 32, 1, src_ip_31_0),
	MLX5DM_FLOW_FMAP_IO(V6_BIT(dst_addr), 32, 2, dst_ip_127_96),
	MLX5DM_FLOW_FMAP_IO(V6_BIT(dst_addr) + 32, 32, 2, dst_ip_95_64),
	MLX5DM_FLOW_FMAP_IO(V6_BIT(dst_addr) + 64, 32, 2, dst_ip_63_32),
	MLX5DM_FLOW_FMAP_IO(V6_BIT(dst_addr) + 96, 32, 2, dst_ip_31_0),
};

const struct mlx5dm_flow_item_def mlx5dm_flow_item_ipv6 = {
	MLX5DM_FLOW_ITEM_MAP(ipv6),
	.mask_msg = "IPV6: only traffic class, flow label, next header, hop limit and "
		    "addresses can be matched",
	.layer = MLX5DM_FLOW_L_IPV6,
	.ip_version = 6,
	.ethertype = RTE_ETHER_TYPE_IPV6,
	L3_ORDER,
	.post = mlx5dm_flow_l3_post,
};
