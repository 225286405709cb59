/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Tunnel items: VXLAN (UDP port 4789 unless matched), GRE (+ GRE_KEY) and
 * MPLS, in the PRM field of what precedes it (after GRE or UDP: flex-parser
 * lookups the device may not have). Items after VXLAN or GRE are inner.
 */

#include <errno.h>

#include <rte_byteorder.h>
#include <rte_ip.h>
#include <rte_vxlan.h>

#include "mlx5dm_flow_item.h"

#define MISC(f) MLX5DM_FTE(misc, f)
#define MISC2(f) MLX5DM_FTE(misc2, f)
#define NONE MLX5DM_FLOW_FTE_NONE
#define MLX5DM_FLOW_MPLS_UDP_PORT 6635
#define MLX5DM_FLOW_ETHER_TYPE_MPLS 0x8847

/* ---- VXLAN ---- */

static const struct rte_flow_item_vxlan mlx5dm_flow_nic_vxlan = {
	.hdr.vx_vni = RTE_BE32(0xffffff00),
};

static const struct mlx5dm_flow_field_map mlx5dm_flow_map_vxlan[] = {
	MLX5DM_FLOW_FMAP_V(MLX5DM_FLOW_BIT(struct rte_flow_item_vxlan, hdr.vx_vni), 24, 0,
			   MISC(vxlan_vni), NONE, NONE, NONE),
};

#define ONE_TUNNEL \
	{ MLX5DM_FLOW_L_TUNNEL, 0, ENOTSUP, "only one tunnel item per pattern" }

static int
mlx5dm_flow_vxlan_post(struct mlx5dm_flow_translation *x, struct rte_flow_error *error)
{
	return mlx5dm_flow_match_default(x, MLX5DM_FTE(outer, udp_dport), RTE_VXLAN_DEFAULT_PORT,
					 error);
}

const struct mlx5dm_flow_item_def mlx5dm_flow_item_vxlan = {
	MLX5DM_FLOW_ITEM_MAP(vxlan),
	.mask_msg = "VXLAN: only the VNI can be matched",
	.layer = MLX5DM_FLOW_L_VXLAN,
	.level_free = true,
	.rule = { ONE_TUNNEL, { MLX5DM_FLOW_L_UDP, MLX5DM_FLOW_O_ABSENT, EINVAL,
				"VXLAN needs an outer UDP item before it" } },
	.post = mlx5dm_flow_vxlan_post,
};

/* ---- GRE ---- */

#define GRE_BIT(m) MLX5DM_FLOW_BIT(struct rte_flow_item_gre, m)

static const struct rte_flow_item_gre mlx5dm_flow_nic_gre = {
	.c_rsvd0_ver = RTE_BE16(0xb000), /* C, K and S bits */
	.protocol = RTE_BE16(0xffff),
};

/* The one GRE header of a packet, whether its item is outer (GRE) or inner (GRE_KEY). */
#define GRE_FIELD(b, w, g, f) MLX5DM_FLOW_FMAP_V(b, w, g, MISC(f), MISC(f), NONE, NONE)

static const struct mlx5dm_flow_field_map mlx5dm_flow_map_gre[] = {
	GRE_FIELD(GRE_BIT(c_rsvd0_ver), 1, 0, gre_c_present),
	GRE_FIELD(GRE_BIT(c_rsvd0_ver) + 2, 1, 0, gre_k_present),
	GRE_FIELD(GRE_BIT(c_rsvd0_ver) + 3, 1, 0, gre_s_present),
	GRE_FIELD(GRE_BIT(protocol), 16, 0, gre_protocol),
};

/* IP protocol 47, no fragment: the device parses no GRE header in one (as no L4 header). */
static int
mlx5dm_flow_gre_post(struct mlx5dm_flow_translation *x, struct rte_flow_error *error)
{
	int ret;

	ret = mlx5dm_flow_match_imply(x, MLX5DM_FTE(outer, frag), 0, error);
	if (ret < 0)
		return ret;
	return mlx5dm_flow_match_imply(x, MLX5DM_FTE(outer, ip_protocol), IPPROTO_GRE, error);
}

const struct mlx5dm_flow_item_def mlx5dm_flow_item_gre = {
	MLX5DM_FLOW_ITEM_MAP(gre),
	.mask_msg = "GRE: only the C, K and S bits and the protocol can be matched",
	.layer = MLX5DM_FLOW_L_GRE,
	.level_free = true,
	.rule = { ONE_TUNNEL,
		  { MLX5DM_FLOW_L_L3, MLX5DM_FLOW_O_ABSENT, EINVAL, "GRE needs an outer IPV4 or "
		    "IPV6 item before it" },
		  { MLX5DM_FLOW_L_L4, 0, EINVAL, "GRE cannot follow an L4 item" } },
	.post = mlx5dm_flow_gre_post,
};

/* ---- GRE_KEY ---- */

/* rte_flow's documented default (DPDK 22.11 has no rte_flow_item_gre_key_mask). */
static const rte_be32_t mlx5dm_flow_gre_key_mask = RTE_BE32(UINT32_MAX);

static const struct mlx5dm_flow_field_map mlx5dm_flow_map_gre_key[] = {
	GRE_FIELD(0, 24, 1, gre_key_h),
	GRE_FIELD(24, 8, 1, gre_key_l),
};

static int
mlx5dm_flow_gre_key_order(struct mlx5dm_flow_translation *x, struct rte_flow_error *error)
{
	if (x->prev == NULL || x->prev->type != RTE_FLOW_ITEM_TYPE_GRE)
		return mlx5dm_flow_item_err(x, EINVAL, "GRE_KEY must directly follow GRE", error);
	return 0;
}

static int
mlx5dm_flow_gre_key_post(struct mlx5dm_flow_translation *x, struct rte_flow_error *error)
{
	return mlx5dm_flow_match_imply(x, MISC(gre_k_present), 1, error);
}

const struct mlx5dm_flow_item_def mlx5dm_flow_item_gre_key = {
	.size = sizeof(rte_be32_t),
	.default_mask = &mlx5dm_flow_gre_key_mask,
	.nic_mask = &mlx5dm_flow_gre_key_mask,
	.mask_msg = "GRE_KEY: mask wider than the key",
	.map = mlx5dm_flow_map_gre_key,
	.n_map = RTE_DIM(mlx5dm_flow_map_gre_key),
	.layer = MLX5DM_FLOW_L_GRE_KEY,
	.level_free = true,
	.order = mlx5dm_flow_gre_key_order,
	.post = mlx5dm_flow_gre_key_post,
};

/* ---- MPLS ---- */

/* Variants: 0 plain (after L2), 1 over GRE, 2 over UDP. */
#define MPLS_FIELD(b, w, f) \
	MLX5DM_FLOW_FMAP_V(b, w, 0, MISC2(outer_first_mpls_##f), \
			   MISC2(outer_first_mpls_over_gre_##f), \
			   MISC2(outer_first_mpls_over_udp_##f), NONE)

static const struct rte_flow_item_mpls mlx5dm_flow_nic_mpls = {
	.label_tc_s = { 0xff, 0xff, 0xff },
	.ttl = 0xff,
};

static const struct mlx5dm_flow_field_map mlx5dm_flow_map_mpls[] = {
	MPLS_FIELD(0, 20, label),
	MPLS_FIELD(20, 3, exp),
	MPLS_FIELD(23, 1, s_bos),
	MPLS_FIELD(24, 8, ttl),
};

static int
mlx5dm_flow_mpls_order(struct mlx5dm_flow_translation *x, struct rte_flow_error *error)
{
	if (mlx5dm_flow_has(x, MLX5DM_FLOW_L_VXLAN))
		return mlx5dm_flow_item_err(x, ENOTSUP, "MPLS after VXLAN is not supported",
					    error);
	/* The label read after GRE is the one right behind it: no inner header in between. */
	if (mlx5dm_flow_has(x, MLX5DM_FLOW_L_GRE) &&
	    mlx5dm_flow_has(x, MLX5DM_FLOW_INNER(MLX5DM_FLOW_L_L2 | MLX5DM_FLOW_L_VLAN |
						 MLX5DM_FLOW_L_L3 | MLX5DM_FLOW_L_L4)))
		return mlx5dm_flow_item_err(x, ENOTSUP,
					    "MPLS over GRE must follow GRE (or GRE_KEY) directly",
					    error);
	if (mlx5dm_flow_has(x, MLX5DM_FLOW_L_GRE))
		x->variant = 1;
	else if (mlx5dm_flow_has(x, MLX5DM_FLOW_L_UDP))
		x->variant = 2;
	else if (mlx5dm_flow_has(x, MLX5DM_FLOW_L_L3 | MLX5DM_FLOW_L_L4))
		return mlx5dm_flow_item_err(x, ENOTSUP, "MPLS is supported after ETH/VLAN, GRE or "
					    "UDP only", error);
	return 0; /* plain: the outer variant, there being no tunnel */
}

static int
mlx5dm_flow_mpls_post(struct mlx5dm_flow_translation *x, struct rte_flow_error *error)
{
	switch (x->variant) {
	case 1:
		return mlx5dm_flow_match_default(x, MISC(gre_protocol),
						 MLX5DM_FLOW_ETHER_TYPE_MPLS, error);
	case 2:
		return mlx5dm_flow_match_default(x, MLX5DM_FTE(outer, udp_dport),
						 MLX5DM_FLOW_MPLS_UDP_PORT, error);
	default:
		return mlx5dm_flow_match_default(x, MLX5DM_FTE(outer, ethertype),
						 MLX5DM_FLOW_ETHER_TYPE_MPLS, error);
	}
}

const struct mlx5dm_flow_item_def mlx5dm_flow_item_mpls = {
	MLX5DM_FLOW_ITEM_MAP(mpls),
	.mask_msg = "MPLS: mask wider than label, TC, S and TTL",
	.layer = MLX5DM_FLOW_L_MPLS,
	.level_free = true,
	.order = mlx5dm_flow_mpls_order,
	.post = mlx5dm_flow_mpls_post,
};
