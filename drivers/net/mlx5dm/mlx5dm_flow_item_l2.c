/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * ETH and VLAN items. The first VLAN of a level is in the header set, the
 * second in misc. A fully masked TPID EtherType announces a C- or S-tag;
 * any other matches the L3 EtherType after the tags, as the parser reports
 * it. A tag without a TPID is of either kind: the rule matches the C-tag,
 * a sub-rule the S-tag (the device has one qualifier for the kind).
 */

#include <errno.h>

#include <rte_byteorder.h>

#include "mlx5dm_flow_item.h"

#define ETH_BIT(m) MLX5DM_FLOW_BIT(struct rte_flow_item_eth, m)
#define VLAN_BIT(m) MLX5DM_FLOW_BIT(struct rte_flow_item_vlan, m)
#define L(n) MLX5DM_FLOW_L_##n
#define LVL MLX5DM_FLOW_O_LEVEL
#define ABSENT MLX5DM_FLOW_O_ABSENT

static bool
mlx5dm_flow_is_tpid(uint32_t mask, uint32_t v)
{
	return mask == 0xffff && (v == RTE_ETHER_TYPE_VLAN || v == RTE_ETHER_TYPE_QINQ);
}

static bool
mlx5dm_flow_vlan_second(const struct mlx5dm_flow_translation *x)
{
	return x->variant == MLX5DM_FLOW_V_OUTER2 || x->variant == MLX5DM_FLOW_V_INNER2;
}

/* What the pattern says of one tag: nothing yet, absent, either kind, a C-tag, an S-tag. */
enum mlx5dm_flow_tag {
	MLX5DM_FLOW_TAG_UNSET,
	MLX5DM_FLOW_TAG_NONE,
	MLX5DM_FLOW_TAG_EITHER,
	MLX5DM_FLOW_TAG_C,
	MLX5DM_FLOW_TAG_S,
};

/* The kind the match holds for the first or second tag of the level. */
static enum mlx5dm_flow_tag
mlx5dm_flow_tag_get(struct mlx5dm_flow_translation *x, bool second)
{
	enum mlx5dm_fte_field c = mlx5dm_flow_vlan_tag_field(x->inner, second, false);
	enum mlx5dm_fte_field s = mlx5dm_flow_vlan_tag_field(x->inner, second, true);

	if (mlx5dm_flow_match_mask(x, c) == 0)
		return MLX5DM_FLOW_TAG_UNSET;
	if (mlx5dm_flow_match_value(x, s) != 0)
		return MLX5DM_FLOW_TAG_S;
	if (mlx5dm_flow_match_value(x, c) == 0)
		return MLX5DM_FLOW_TAG_NONE;
	return (x->spec->vlan_either & MLX5DM_FLOW_TAG_BIT(x->inner, second)) ?
	       MLX5DM_FLOW_TAG_EITHER : MLX5DM_FLOW_TAG_C;
}

/*
 * "Either kind" and one kind make that kind, anything else must agree. Both
 * qualifier bits are matched (one matcher for all kinds), C for "either".
 */
static int
mlx5dm_flow_tag_set(struct mlx5dm_flow_translation *x, bool second, enum mlx5dm_flow_tag kind,
		    struct rte_flow_error *error)
{
	enum mlx5dm_flow_tag cur = mlx5dm_flow_tag_get(x, second);
	uint8_t bit = (uint8_t)MLX5DM_FLOW_TAG_BIT(x->inner, second);

	if (cur == kind || (kind == MLX5DM_FLOW_TAG_EITHER && cur >= MLX5DM_FLOW_TAG_C))
		return 0;
	if (cur != MLX5DM_FLOW_TAG_UNSET &&
	    !(cur == MLX5DM_FLOW_TAG_EITHER && kind >= MLX5DM_FLOW_TAG_C))
		return mlx5dm_flow_item_err(x, EINVAL, "item contradicts what a previous item "
					    "says of this VLAN tag", error);
	mlx5dm_flow_match_replace(x, mlx5dm_flow_vlan_tag_field(x->inner, second, false),
				  kind == MLX5DM_FLOW_TAG_C || kind == MLX5DM_FLOW_TAG_EITHER);
	mlx5dm_flow_match_replace(x, mlx5dm_flow_vlan_tag_field(x->inner, second, true),
				  kind == MLX5DM_FLOW_TAG_S);
	if (kind == MLX5DM_FLOW_TAG_EITHER)
		x->spec->vlan_either |= bit;
	else
		x->spec->vlan_either &= (uint8_t)~bit;
	return 0;
}

/* The kind a TPID names (0: none named, either kind). */
static enum mlx5dm_flow_tag
mlx5dm_flow_tag_of_tpid(uint16_t tpid)
{
	if (tpid == RTE_ETHER_TYPE_QINQ)
		return MLX5DM_FLOW_TAG_S;
	return tpid == RTE_ETHER_TYPE_VLAN ? MLX5DM_FLOW_TAG_C : MLX5DM_FLOW_TAG_EITHER;
}

/* An EtherType field (ETH type, VLAN inner_type): a TPID announces a tag, else L3. */
static int
mlx5dm_flow_l2_type(struct mlx5dm_flow_translation *x, const uint8_t *spec, uint8_t *mask,
		    const uint8_t *last, unsigned int bit, bool in_vlan,
		    struct rte_flow_error *error)
{
	uint32_t mv, v;
	int ret;

	if (last != NULL) {
		ret = mlx5dm_flow_range_to_mask(spec, last, mask, bit, 16);
		if (ret < 0)
			return rte_flow_error_set(error, ret == -ERANGE ? EINVAL : ENOTSUP,
						  RTE_FLOW_ERROR_TYPE_ITEM_LAST, x->item,
						  "EtherType range cannot be matched");
	}
	mv = mlx5dm_prm_get(mask, bit, 16);
	v = mlx5dm_prm_get(spec, bit, 16) & mv;
	if (!mlx5dm_flow_is_tpid(mv, v))
		return mlx5dm_flow_match_set(x, MLX5DM_FLOW_IO(x->inner, ethertype), mv, v, error);
	if (in_vlan && mlx5dm_flow_vlan_second(x))
		return mlx5dm_flow_item_err(x, ENOTSUP, "a third VLAN tag cannot be matched",
					    error);
	x->next_tpid[x->inner] = (uint16_t)v;
	return mlx5dm_flow_tag_set(x, in_vlan, mlx5dm_flow_tag_of_tpid((uint16_t)v), error);
}

/* A 1-bit "has (more) VLAN" flag: the first (second) tag is absent or of either kind. */
static int
mlx5dm_flow_l2_flag(struct mlx5dm_flow_translation *x, uint32_t s, uint32_t l, uint32_t m,
		    bool has_last, bool second, struct rte_flow_error *error)
{
	int ret;

	if (has_last) {
		ret = mlx5dm_flow_item_range_u32(x, s, l, &m, error);
		if (ret < 0)
			return ret;
	}
	if (m == 0)
		return 0;
	return mlx5dm_flow_tag_set(x, second, (s & m) ? MLX5DM_FLOW_TAG_EITHER :
				   MLX5DM_FLOW_TAG_NONE, error);
}

/* ---- ETH ---- */

static const struct rte_flow_item_eth mlx5dm_flow_nic_eth = {
	.hdr.dst_addr.addr_bytes = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },
	.hdr.src_addr.addr_bytes = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },
	.hdr.ether_type = RTE_BE16(0xffff),
	.has_vlan = 1,
};

static const struct mlx5dm_flow_field_map mlx5dm_flow_map_eth[] = {
	MLX5DM_FLOW_FMAP_IO(ETH_BIT(hdr.dst_addr), 32, 1, dmac_47_16),
	MLX5DM_FLOW_FMAP_IO(ETH_BIT(hdr.dst_addr) + 32, 16, 1, dmac_15_0),
	MLX5DM_FLOW_FMAP_IO(ETH_BIT(hdr.src_addr), 32, 2, smac_47_16),
	MLX5DM_FLOW_FMAP_IO(ETH_BIT(hdr.src_addr) + 32, 16, 2, smac_15_0),
};

static int
mlx5dm_flow_eth_pre(struct mlx5dm_flow_translation *x, const uint8_t *spec, uint8_t *mask,
		    const uint8_t *last, struct rte_flow_error *error)
{
	const struct rte_flow_item_eth *s = (const void *)spec;
	const struct rte_flow_item_eth *m = (const void *)mask;
	const struct rte_flow_item_eth *l = (const void *)last;
	int ret;

	ret = mlx5dm_flow_l2_type(x, spec, mask, last, ETH_BIT(hdr.ether_type), false, error);
	if (ret < 0)
		return ret;
	return mlx5dm_flow_l2_flag(x, s->has_vlan, l != NULL ? l->has_vlan : 0, m->has_vlan,
				   l != NULL, false, error);
}

const struct mlx5dm_flow_item_def mlx5dm_flow_item_eth = {
	MLX5DM_FLOW_ITEM_MAP(eth),
	.mask_msg = "ETH: only destination, source, EtherType and has_vlan can be matched",
	.layer = MLX5DM_FLOW_L_L2,
	/* After GRE, the only tunnel item besides VXLAN, no ETH is parsed. */
	.rule = { { L(L2), LVL, ENOTSUP, "ETH cannot follow another ETH of the same header level" },
		  { L(L3) | L(L4), LVL, EINVAL, "ETH must come before the L3/L4 items of its "
		    "header level" },
		  { L(GRE), 0, ENOTSUP, "an inner ETH is only supported after VXLAN" } },
	.pre = mlx5dm_flow_eth_pre,
};

/* ---- VLAN ---- */

static const struct rte_flow_item_vlan mlx5dm_flow_nic_vlan = {
	.hdr.vlan_tci = RTE_BE16(0xffff),
	.hdr.eth_proto = RTE_BE16(0xffff),
	.has_more_vlan = 1,
};

#define MISC(f) MLX5DM_FTE(misc, f)
static const struct mlx5dm_flow_field_map mlx5dm_flow_map_vlan[] = {
	MLX5DM_FLOW_FMAP_V(VLAN_BIT(hdr.vlan_tci), 3, 0, MLX5DM_FTE(outer, first_prio),
			   MLX5DM_FTE(inner, first_prio), MISC(outer_second_prio),
			   MISC(inner_second_prio)),
	MLX5DM_FLOW_FMAP_V(VLAN_BIT(hdr.vlan_tci) + 3, 1, 0, MLX5DM_FTE(outer, first_cfi),
			   MLX5DM_FTE(inner, first_cfi), MISC(outer_second_cfi),
			   MISC(inner_second_cfi)),
	MLX5DM_FLOW_FMAP_V(VLAN_BIT(hdr.vlan_tci) + 4, 12, 0, MLX5DM_FTE(outer, first_vid),
			   MLX5DM_FTE(inner, first_vid), MISC(outer_second_vid),
			   MISC(inner_second_vid)),
};
#undef MISC

static int
mlx5dm_flow_vlan_order(struct mlx5dm_flow_translation *x, struct rte_flow_error *error)
{
	RTE_SET_USED(error);
	if (mlx5dm_flow_has(x, mlx5dm_flow_level(x, MLX5DM_FLOW_L_VLAN)))
		x->variant = x->inner ? MLX5DM_FLOW_V_INNER2 : MLX5DM_FLOW_V_OUTER2;
	/* This tag's kind was announced by the previous EtherType (either kind if none). */
	x->cur_tpid = x->next_tpid[x->inner];
	x->next_tpid[x->inner] = 0;
	return 0;
}

static int
mlx5dm_flow_vlan_pre(struct mlx5dm_flow_translation *x, const uint8_t *spec, uint8_t *mask,
		     const uint8_t *last, struct rte_flow_error *error)
{
	const struct rte_flow_item_vlan *s = (const void *)spec;
	const struct rte_flow_item_vlan *m = (const void *)mask;
	const struct rte_flow_item_vlan *l = (const void *)last;
	bool second = mlx5dm_flow_vlan_second(x);
	int ret;

	ret = mlx5dm_flow_l2_type(x, spec, mask, last, VLAN_BIT(hdr.eth_proto), true, error);
	if (ret < 0)
		return ret;
	if (m->has_more_vlan && second)
		return mlx5dm_flow_item_err(x, ENOTSUP, "has_more_vlan cannot be matched on "
					    "the second VLAN", error);
	return mlx5dm_flow_l2_flag(x, s->has_more_vlan, l != NULL ? l->has_more_vlan : 0,
				   m->has_more_vlan, l != NULL, true, error);
}

static int
mlx5dm_flow_vlan_post(struct mlx5dm_flow_translation *x, struct rte_flow_error *error)
{
	bool second = mlx5dm_flow_vlan_second(x);

	if (second)
		x->spec->layers |= mlx5dm_flow_level(x, MLX5DM_FLOW_L_VLAN2);
	return mlx5dm_flow_tag_set(x, second, mlx5dm_flow_tag_of_tpid(x->cur_tpid), error);
}

const struct mlx5dm_flow_item_def mlx5dm_flow_item_vlan = {
	MLX5DM_FLOW_ITEM_MAP(vlan),
	.mask_msg = "VLAN: only TCI (PCP, DEI, VID), inner EtherType and has_more_vlan can be "
		    "matched",
	.layer = MLX5DM_FLOW_L_VLAN,
	.rule = { { L(L2), LVL | ABSENT, EINVAL, "VLAN must follow an ETH item" },
		  { L(L3) | L(L4), LVL, EINVAL, "VLAN must come before the L3/L4 items of its "
		    "header level" },
		  { L(VLAN2), LVL, ENOTSUP, "at most two VLAN items per header level can be "
		    "matched" } },
	.order = mlx5dm_flow_vlan_order,
	.pre = mlx5dm_flow_vlan_pre,
	.post = mlx5dm_flow_vlan_post,
};
