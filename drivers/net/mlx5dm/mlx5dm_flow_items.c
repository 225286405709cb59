/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The pattern walk: for each item, rte_flow's spec/last/mask rules (default
 * mask, mask within what the device matches, `last` only as a range a mask
 * can express), layer order through the item's rules and hook, then the
 * item's fields into the match parameter through its map and hooks.
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_flow_item.h"

static const struct mlx5dm_flow_item_def *const mlx5dm_flow_item_defs[] = {
	[RTE_FLOW_ITEM_TYPE_ETH] = &mlx5dm_flow_item_eth,
	[RTE_FLOW_ITEM_TYPE_VLAN] = &mlx5dm_flow_item_vlan,
	[RTE_FLOW_ITEM_TYPE_IPV4] = &mlx5dm_flow_item_ipv4,
	[RTE_FLOW_ITEM_TYPE_IPV6] = &mlx5dm_flow_item_ipv6,
	[RTE_FLOW_ITEM_TYPE_TCP] = &mlx5dm_flow_item_tcp,
	[RTE_FLOW_ITEM_TYPE_UDP] = &mlx5dm_flow_item_udp,
	[RTE_FLOW_ITEM_TYPE_ICMP] = &mlx5dm_flow_item_icmp,
	[RTE_FLOW_ITEM_TYPE_ICMP6] = &mlx5dm_flow_item_icmp6,
	[RTE_FLOW_ITEM_TYPE_VXLAN] = &mlx5dm_flow_item_vxlan,
	[RTE_FLOW_ITEM_TYPE_GRE] = &mlx5dm_flow_item_gre,
	[RTE_FLOW_ITEM_TYPE_GRE_KEY] = &mlx5dm_flow_item_gre_key,
	[RTE_FLOW_ITEM_TYPE_MPLS] = &mlx5dm_flow_item_mpls,
	[RTE_FLOW_ITEM_TYPE_META] = &mlx5dm_flow_item_meta,
	[RTE_FLOW_ITEM_TYPE_TAG] = &mlx5dm_flow_item_tag,
	[RTE_FLOW_ITEM_TYPE_MARK] = &mlx5dm_flow_item_mark,
};

const struct mlx5dm_flow_item_def *
mlx5dm_flow_item_def_get(enum rte_flow_item_type type)
{
	/* PMD-private types are negative: out of the table as unsigned. */
	if ((unsigned int)type >= RTE_DIM(mlx5dm_flow_item_defs))
		return NULL;
	return mlx5dm_flow_item_defs[type];
}

int
mlx5dm_flow_item_err(struct mlx5dm_flow_translation *x, int code, const char *msg,
		     struct rte_flow_error *error)
{
	return rte_flow_error_set(error, code, RTE_FLOW_ERROR_TYPE_ITEM, x->item, msg);
}

static int
mlx5dm_flow_item_range_err(struct mlx5dm_flow_translation *x, int ret, struct rte_flow_error *error)
{
	if (ret == -ERANGE)
		return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ITEM_LAST, x->item,
					  mlx5dm_flow_named_msg(false, x->item->type,
					  "empty range: last is below spec"));
	return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM_LAST, x->item,
				  "range cannot be matched: only ranges a mask expresses "
				  "(spec ends in zeros, last in ones) are supported");
}

int
mlx5dm_flow_item_range_u32(struct mlx5dm_flow_translation *x, uint32_t spec, uint32_t last,
			   uint32_t *mask, struct rte_flow_error *error)
{
	uint8_t s[4], l[4], m[4];
	int ret;

	mlx5dm_prm_put_be32(s, spec);
	mlx5dm_prm_put_be32(l, last);
	mlx5dm_prm_put_be32(m, *mask);
	ret = mlx5dm_flow_range_to_mask(s, l, m, 0, 32);
	if (ret < 0)
		return mlx5dm_flow_item_range_err(x, ret, error);
	*mask = mlx5dm_prm_be32(m);
	return 0;
}

/* Bit region of range unit k: its own bits, or its whole group's. */
static bool
mlx5dm_flow_item_unit(const struct mlx5dm_flow_item_def *def, unsigned int k,
		      unsigned int *bit, unsigned int *width)
{
	const struct mlx5dm_flow_field_map *f = &def->map[k];
	unsigned int i, lo = f->bit, hi = f->bit + f->width;

	for (i = 0; f->group != 0 && i < def->n_map; i++) {
		const struct mlx5dm_flow_field_map *g = &def->map[i];

		if (g->group != f->group)
			continue;
		if (i < k)
			return false; /* the group was handled at its first field */
		lo = RTE_MIN(lo, (unsigned int)g->bit);
		hi = RTE_MAX(hi, (unsigned int)g->bit + g->width);
	}
	*bit = lo;
	*width = hi - lo;
	return true;
}

/* A map entry wrote its field: a copy candidate (no room: nothing is compiled). */
static void
mlx5dm_flow_item_note_copy(struct mlx5dm_flow_translation *x, const struct mlx5dm_flow_field_map *f,
			   uint16_t fte)
{
	struct mlx5dm_flow_recording *ct = x->rec;

	if (ct->nb_cand >= MLX5DM_FLOW_COMPILED_COPIES ||
	    x->item - x->items >= MLX5DM_FLOW_COMPILED_ITEMS) {
		ct->nb_cand = MLX5DM_FLOW_COMPILED_COPIES + 1;
		return;
	}
	ct->cand[ct->nb_cand++] = (struct mlx5dm_flow_compiled_copy){
		.item = (uint8_t)(x->item - x->items), .width = f->width, .bit = f->bit,
		.fte = fte };
}

static int
mlx5dm_flow_item_fields(struct mlx5dm_flow_translation *x, const struct mlx5dm_flow_item_def *def,
			const uint8_t *spec, uint8_t *mask, const uint8_t *last,
			struct rte_flow_error *error)
{
	unsigned int k, bit, width;
	uint8_t uses;
	int ret;

	if (last != NULL) {
		for (k = 0; k < def->n_map; k++) {
			if (!mlx5dm_flow_item_unit(def, k, &bit, &width))
				continue;
			ret = mlx5dm_flow_range_to_mask(spec, last, mask, bit, width);
			if (ret < 0)
				return mlx5dm_flow_item_range_err(x, ret, error);
		}
	}
	for (k = 0; k < def->n_map; k++) {
		const struct mlx5dm_flow_field_map *f = &def->map[k];
		uint32_t m = mlx5dm_prm_get(mask, f->bit, f->width);
		uint16_t fte = f->fte[x->variant];

		if (m == 0)
			continue;
		if (fte == MLX5DM_FLOW_FTE_NONE)
			return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM_MASK,
						  x->item, "this field cannot be matched at this "
						  "position of the pattern");
		uses = x->rec != NULL ? x->rec->use[fte] : 0;
		ret = mlx5dm_flow_match_set(x, (enum mlx5dm_fte_field)fte, m,
					    mlx5dm_prm_get(spec, f->bit, f->width), error);
		if (ret < 0)
			return ret;
		if (x->rec != NULL && x->rec->use[fte] != uses)
			mlx5dm_flow_item_note_copy(x, f, fte);
	}
	return 0;
}

/* No bit of mask outside nic (a word at a time: every rule pays it per item). */
static bool
mlx5dm_flow_within(const uint8_t *mask, const uint8_t *nic, unsigned int size)
{
	uint64_t m, n, acc = 0;
	unsigned int i;

	for (i = 0; i + sizeof(m) <= size; i += sizeof(m)) {
		memcpy(&m, mask + i, sizeof(m));
		memcpy(&n, nic + i, sizeof(n));
		acc |= m & ~n;
	}
	for (; i < size; i++)
		acc |= (uint64_t)(mask[i] & ~nic[i]);
	return acc == 0;
}

static int
mlx5dm_flow_item_one(struct mlx5dm_flow_translation *x, const struct rte_flow_item *item,
		     struct rte_flow_error *error)
{
	uint8_t spec[MLX5DM_FLOW_ITEM_MAX_SIZE], mask[MLX5DM_FLOW_ITEM_MAX_SIZE];
	uint8_t last_buf[MLX5DM_FLOW_ITEM_MAX_SIZE];
	const struct mlx5dm_flow_item_def *def = mlx5dm_flow_item_def_get(item->type);
	const uint8_t *last = NULL;
	unsigned int k;
	int ret;

	x->item = item;
	x->def = def;
	if (def == NULL)
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM, item,
					  mlx5dm_flow_type_msg(false, item->type));
	RTE_BUILD_BUG_ON(sizeof(struct rte_flow_item_ipv6) > MLX5DM_FLOW_ITEM_MAX_SIZE);
	if (item->spec == NULL && (item->mask != NULL || item->last != NULL))
		return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ITEM, item,
					  mlx5dm_flow_named_msg(false, item->type,
					  "mask or last given without spec"));
	/* Everything after a tunnel item belongs to the inner headers. */
	x->inner = mlx5dm_flow_has(x, MLX5DM_FLOW_L_TUNNEL);
	x->variant = x->inner ? MLX5DM_FLOW_V_INNER : MLX5DM_FLOW_V_OUTER;
	/* The device does not parse beyond the (first) MPLS label. */
	if (mlx5dm_flow_has(x, MLX5DM_FLOW_L_MPLS) && !def->metadata)
		return mlx5dm_flow_item_err(x, ENOTSUP, "no header item can follow MPLS", error);
	for (k = 0; k < RTE_DIM(def->rule) && def->rule[k].layers != 0; k++) {
		const struct mlx5dm_flow_order *o = &def->rule[k];
		uint64_t l = o->flags & MLX5DM_FLOW_O_LEVEL ? mlx5dm_flow_level(x, o->layers) :
			     o->layers;

		if (mlx5dm_flow_has(x, l) == !(o->flags & MLX5DM_FLOW_O_ABSENT))
			return mlx5dm_flow_item_err(x, o->err, o->msg, error);
	}
	if (def->order != NULL) {
		ret = def->order(x, error);
		if (ret < 0)
			return ret;
	}
	if (item->spec != NULL) {
		memcpy(spec, item->spec, def->size);
		memcpy(mask, item->mask != NULL ? item->mask : def->default_mask, def->size);
		if (item->last != NULL)
			last = memcpy(last_buf, item->last, def->size);
		if (!mlx5dm_flow_within(mask, def->nic_mask, def->size))
			return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM_MASK,
						  item, def->mask_msg);
		if (def->pre != NULL) {
			ret = def->pre(x, spec, mask, last, error);
			if (ret < 0)
				return ret;
		}
		ret = mlx5dm_flow_item_fields(x, def, spec, mask, last, error);
		if (ret < 0)
			return ret;
	}
	if (def->post != NULL) {
		ret = def->post(x, error);
		if (ret < 0)
			return ret;
	}
	x->spec->layers |= def->level_free ? def->layer : mlx5dm_flow_level(x, def->layer);
	return 0;
}

int
mlx5dm_flow_translate_items(struct mlx5dm_flow_translation *x, const struct rte_flow_item items[],
			    struct rte_flow_error *error)
{
	const struct rte_flow_item *item;
	int ret;

	if (items == NULL)
		return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ITEM_NUM, NULL,
					  "pattern is missing");
	x->items = items;
	for (item = items; item->type != RTE_FLOW_ITEM_TYPE_END; item++) {
		if (item->type == RTE_FLOW_ITEM_TYPE_VOID)
			continue;
		ret = mlx5dm_flow_item_one(x, item, error);
		if (ret < 0)
			return ret;
		x->prev = item;
	}
	x->item = NULL;
	return 0;
}

uint32_t
mlx5dm_flow_action_layers(const struct mlx5dm_flow_translation *x)
{
	uint64_t l = x->spec->layers;

	if (x->spec->decap)
		return (uint32_t)(l >> 16) & 0xffffu;
	return (uint32_t)l & 0xffffu;
}
