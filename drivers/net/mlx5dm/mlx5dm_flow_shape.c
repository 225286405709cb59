/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The shape cache (mlx5dm_flow.h): applications insert rules in runs of
 * one pattern shape with different values (flow-perf: one address per
 * rule), and the pattern walk is most of a translation.
 *
 * Why a replay is exact. A walk is a function of the attributes,
 * xc->internal and the items: types, masks, `last`s, and of a spec only the
 * bits under its mask and those its hooks read anyway (the item's
 * hook_spec). A replay needs all of them equal, except the copied bits.
 * Those are bits of a map entry that wrote its match field, where
 *  - no item hook reads bits a map covers (mlx5dm_flow_item.h),
 *  - the walk wrote the field once (no contradiction check saw its value),
 *  - the walk read no match value of the field (mlx5dm_flow_match_value()
 *    pins it),
 *  - no other map entry that wrote reads the same bits.
 * So they reach nothing but that field's value, under its mask: the walk
 * could neither fail nor differ anywhere else because of them. Patterns with
 * a `last` are not kept (a range turns spec bits into mask bits); a
 * recording that ran out of room keeps nothing.
 */

#include <string.h>

#include "mlx5dm_flow_item.h"

void
mlx5dm_flow_shape_rec_begin(struct mlx5dm_flow_shape *sh)
{
	sh->valid = false;
	sh->out_kept = false;
	sh->nb_cand = 0;
	memset(sh->use, 0, sizeof(sh->use));
}

static int8_t
mlx5dm_flow_shape_index(const struct rte_flow_item items[], const struct rte_flow_item *it)
{
	return it == NULL ? -1 : (int8_t)(it - items);
}

/* The pattern's items into sh (types, masks, specs); false if it cannot be kept. */
static bool
mlx5dm_flow_shape_keep_items(struct mlx5dm_flow_shape *sh, const struct rte_flow_item items[])
{
	unsigned int n;

	for (n = 0; items[n].type != RTE_FLOW_ITEM_TYPE_END; n++) {
		const struct rte_flow_item *it = &items[n];
		const struct mlx5dm_flow_item_def *def;

		if (n == MLX5DM_FLOW_SHAPE_ITEMS)
			return false;
		sh->item[n].type = it->type;
		sh->item[n].has_spec = false;
		if (it->type == RTE_FLOW_ITEM_TYPE_VOID)
			continue;
		if (it->last != NULL)
			return false;
		def = mlx5dm_flow_item_def_get(it->type);
		sh->item[n].def = def;
		if (it->spec == NULL)
			continue;
		sh->item[n].has_spec = true;
		memcpy(sh->mask[n], it->mask != NULL ? it->mask : def->default_mask, def->size);
		memcpy(sh->ispec[n], it->spec, def->size);
		memset(sh->sel[n], 0, def->size); /* the copied bits, for now */
	}
	sh->nb_items = (uint8_t)n;
	return true;
}

/* The candidates that are copies; false if another map entry reads their bits. */
static bool
mlx5dm_flow_shape_keep_copies(struct mlx5dm_flow_shape *sh, const struct mlx5dm_flow_spec *spec)
{
	unsigned int c, b;

	sh->nb_copies = 0;
	for (c = 0; c < sh->nb_cand; c++) {
		struct mlx5dm_flow_shape_copy *cp = &sh->cand[c];
		const struct mlx5dm_prm_field *f = &mlx5dm_fte_fields[cp->fte].f;
		uint32_t all = cp->width >= 32 ? UINT32_MAX : (1u << cp->width) - 1;
		uint8_t *copied = sh->sel[cp->item];

		if (sh->use[cp->fte] != 1)
			continue;
		/* One write: the field's mask is this entry's, its value these bits. */
		cp->mask = mlx5dm_fte_get(spec->mask, cp->fte);
		cp->bytes = 0;
		if (cp->bit % 8 == 0 && cp->width % 8 == 0 && f->bit % 8 == 0 &&
		    f->width == cp->width && cp->mask == all) {
			/* Both sides are big-endian bit streams: the same bytes. */
			cp->bytes = cp->width / 8;
			cp->dst = f->bit / 8;
		}
		mlx5dm_prm_set(copied, cp->bit, cp->width,
			       mlx5dm_prm_get(copied, cp->bit, cp->width) | cp->mask);
		sh->copy[sh->nb_copies++] = *cp;
	}
	for (c = 0; c < sh->nb_cand; c++) {
		const struct mlx5dm_flow_shape_copy *cp = &sh->cand[c];

		if (sh->use[cp->fte] != 1 &&
		    mlx5dm_prm_get(sh->sel[cp->item], cp->bit, cp->width) != 0)
			return false;
	}
	/* What matters: under the mask or read by a hook, and not copied. */
	for (c = 0; c < sh->nb_items; c++) {
		const struct mlx5dm_flow_item_def *def = sh->item[c].def;
		const uint8_t *hook = def != NULL ? def->hook_spec : NULL;

		for (b = 0; sh->item[c].has_spec && b < def->size; b++) {
			sh->sel[c][b] = (uint8_t)((sh->mask[c][b] | (hook != NULL ? hook[b] : 0)) &
						  ~sh->sel[c][b]);
			sh->ispec[c][b] &= sh->sel[c][b];
		}
	}
	return true;
}

void
mlx5dm_flow_shape_rec_end(struct mlx5dm_flow_shape *sh, const struct mlx5dm_flow_xctx *xc,
			  const struct rte_flow_attr *attr, const struct rte_flow_item items[],
			  const struct mlx5dm_flow_xlate *x)
{
	if (sh->nb_cand > MLX5DM_FLOW_SHAPE_COPIES || !mlx5dm_flow_shape_keep_items(sh, items) ||
	    !mlx5dm_flow_shape_keep_copies(sh, x->spec))
		return;
	sh->attr = *attr;
	sh->internal = xc->internal;
	sh->x = *x;
	sh->x.rec = NULL;
	memcpy(sh->owner, x->owner, sizeof(sh->owner));
	sh->prev = mlx5dm_flow_shape_index(items, x->prev);
	sh->vlan_item = mlx5dm_flow_shape_index(items, x->vlan_item);
	memcpy(sh->spec_head, x->spec, MLX5DM_FLOW_SPEC_ZEROED);
	sh->out_kept = x->spec == &sh->out;
	sh->valid = true;
}

/* n bytes at p as a number (n constant once inlined). */
static inline uint64_t
mlx5dm_flow_shape_ld(const uint8_t *p, size_t n)
{
	uint64_t w = 0;

	memcpy(&w, p, n);
	return w;
}

/* What differs in n bytes at b: the masks, or the spec under sel. */
static inline uint64_t
mlx5dm_flow_shape_diff(const struct mlx5dm_flow_shape *sh, unsigned int i, const uint8_t *spec,
		       const uint8_t *mask, unsigned int b, size_t n)
{
	return (mlx5dm_flow_shape_ld(mask + b, n) ^ mlx5dm_flow_shape_ld(sh->mask[i] + b, n)) |
	       ((mlx5dm_flow_shape_ld(spec + b, n) & mlx5dm_flow_shape_ld(sh->sel[i] + b, n)) ^
		mlx5dm_flow_shape_ld(sh->ispec[i] + b, n));
}

/* Same mask, same spec bits that matter (a word at a time). */
static bool
mlx5dm_flow_shape_same(const struct mlx5dm_flow_shape *sh, unsigned int i, const uint8_t *spec,
		       const uint8_t *mask, unsigned int size)
{
	uint64_t acc = 0;
	unsigned int b;

	for (b = 0; b + 8 <= size; b += 8)
		acc |= mlx5dm_flow_shape_diff(sh, i, spec, mask, b, 8);
	if (b + 4 <= size) {
		acc |= mlx5dm_flow_shape_diff(sh, i, spec, mask, b, 4);
		b += 4;
	}
	for (; b < size; b++)
		acc |= mlx5dm_flow_shape_diff(sh, i, spec, mask, b, 1);
	return acc == 0;
}

/* Bits [bit, bit + width) of a spec, reading none of the caller's bytes beyond them. */
static uint32_t
mlx5dm_flow_shape_bits(const uint8_t *p, unsigned int bit, unsigned int width)
{
	unsigned int b, end = bit + width - 1;
	uint64_t v = 0;

	if (end / 8 - bit / 8 == 3) /* four bytes: addresses, most fields */
		v = mlx5dm_prm_be32(p + bit / 8);
	else
		for (b = bit / 8; b <= end / 8; b++)
			v = v << 8 | p[b];
	v >>= 7 - end % 8;
	return (uint32_t)(v & ((1ull << width) - 1));
}

bool
mlx5dm_flow_shape_replay(struct mlx5dm_flow_shape *sh, const struct mlx5dm_flow_xctx *xc,
			 const struct rte_flow_attr *attr, const struct rte_flow_item items[],
			 struct mlx5dm_flow_xlate *x, struct mlx5dm_flow_spec *spec)
{
	unsigned int i;

	if (!sh->valid || attr == NULL || items == NULL || xc->internal != sh->internal ||
	    memcmp(attr, &sh->attr, sizeof(*attr)) != 0)
		return false;
	for (i = 0; i < sh->nb_items; i++) {
		const struct rte_flow_item *it = &items[i];
		const struct mlx5dm_flow_item_def *def = sh->item[i].def;

		if (it->type != sh->item[i].type)
			return false;
		if (it->type == RTE_FLOW_ITEM_TYPE_VOID)
			continue;
		if (it->last != NULL || (it->spec != NULL) != sh->item[i].has_spec)
			return false;
		if (it->spec == NULL) {
			if (it->mask != NULL)
				return false;
			continue;
		}
		if (!mlx5dm_flow_shape_same(sh, i, it->spec,
					    it->mask != NULL ? it->mask : def->default_mask,
					    def->size))
			return false;
	}
	if (items[i].type != RTE_FLOW_ITEM_TYPE_END)
		return false;
	*x = sh->x;
	x->xc = xc;
	x->spec = spec;
	x->items = items;
	x->prev = sh->prev >= 0 ? &items[sh->prev] : NULL;
	x->vlan_item = sh->vlan_item >= 0 ? &items[sh->vlan_item] : NULL;
	x->owner = sh->owner;
	if (spec == &sh->out && sh->out_kept) {
		/* Only the walk writes the match (and the copies all of their fields). */
		memcpy(spec, sh->spec_head, offsetof(struct mlx5dm_flow_spec, mask));
	} else {
		memcpy(spec, sh->spec_head, MLX5DM_FLOW_SPEC_ZEROED);
		sh->out_kept = spec == &sh->out;
	}
	for (i = 0; i < sh->nb_copies; i++) {
		const struct mlx5dm_flow_shape_copy *cp = &sh->copy[i];
		const uint8_t *from = items[cp->item].spec;
		unsigned int b;

		if (cp->bytes != 0) {
			for (b = 0; b < cp->bytes; b++)
				spec->value[cp->dst + b] = from[cp->bit / 8 + b];
			continue;
		}
		mlx5dm_fte_set(spec->value, (enum mlx5dm_fte_field)cp->fte,
			       mlx5dm_flow_shape_bits(from, cp->bit, cp->width) & cp->mask);
	}
	sh->hits++;
	return true;
}
