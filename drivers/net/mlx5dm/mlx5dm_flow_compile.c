/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Compiled templates: a template table's pair of templates, or the
 * implicit template of a synchronous rule's shape, made once from the
 * translation of the template's example: which spec bits of which item go
 * where in the match value (the setters), which action values are the
 * rule's, and the result every rule of the template shares but for them,
 * as DPDK mlx5 HWS makes its tag setters once per matcher
 * (drivers/net/mlx5/hws/mlx5dr_definer.c, mlx5dr_definer_create_tag()).
 * The setters are exact because the example's walk wrote each copied
 * field once, under its mask, and read no spec bit besides (no item hook,
 * no contradiction check, no match value read: mlx5dm_flow_match_value()
 * pins the field): whatever the values, the walk does the same, so a
 * rule's result is the example's with its own bits in the copied fields.
 * A template whose walk reads a value (an item hook, a field written
 * twice, an action it cannot set) translates each of its rules instead.
 * Ranges (`last`) are not compiled.
 */

#include <string.h>

#include "mlx5dm_flow_item.h"

void
mlx5dm_flow_spec_copy(struct mlx5dm_flow_spec *dst, const struct mlx5dm_flow_spec *src)
{
	memcpy(dst, src, MLX5DM_FLOW_SPEC_ZEROED);
	memcpy(dst->queues, src->queues, src->nb_queues * sizeof(src->queues[0]));
	if (src->rss_types != 0)
		memcpy(dst->rss_key, src->rss_key, sizeof(dst->rss_key));
	memcpy(dst->sub, src->sub, src->nb_sub * sizeof(src->sub[0]));
	memcpy(dst->push, src->push, src->nb_push * sizeof(src->push[0]));
	memcpy(dst->decap_data, src->decap_data, src->decap_len);
	memcpy(dst->encap_data, src->encap_data, src->encap_len);
	memcpy(dst->modify, src->modify, (size_t)src->nb_modify * MLX5DM_MODIFY_ACTION_SIZE);
}

/* Copied bytes as a move, or the previous one's end on both sides (UDP ports) grown. */
static void
mlx5dm_flow_compiled_keep_move(struct mlx5dm_flow_compiled *ct,
			       const struct mlx5dm_flow_compiled_copy *cp)
{
	struct mlx5dm_match_move *prev = ct->nb_moves != 0 ? &ct->move[ct->nb_moves - 1] : NULL;

	if (prev != NULL && prev->src == cp->item && prev->from + prev->len == cp->bit / 8 &&
	    prev->to + prev->len == cp->dst) {
		prev->len = (uint8_t)(prev->len + cp->bytes);
		return;
	}
	ct->move[ct->nb_moves++] = (struct mlx5dm_match_move){
		.src = cp->item, .len = cp->bytes, .from = (uint16_t)(cp->bit / 8), .to = cp->dst };
}

/* Bits [bit, bit + width) of a spec, reading none of the caller's bytes beyond them. */
static uint32_t
mlx5dm_flow_compiled_bits(const uint8_t *p, unsigned int bit, unsigned int width)
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

/* The pattern's masks into rec (zeroed); false if it cannot be compiled. */
static bool
mlx5dm_flow_compiled_keep_items(struct mlx5dm_flow_recording *rec,
				const struct rte_flow_item items[])
{
	const struct mlx5dm_flow_item_def *def;
	unsigned int n;

	for (n = 0; items[n].type != RTE_FLOW_ITEM_TYPE_END; n++) {
		const struct rte_flow_item *it = &items[n];

		if (n == MLX5DM_FLOW_COMPILED_ITEMS || it->last != NULL)
			return false;
		if (it->type == RTE_FLOW_ITEM_TYPE_VOID || it->spec == NULL)
			continue;
		def = mlx5dm_flow_item_def_get(it->type);
		if (def->size > MLX5DM_FLOW_ITEM_MAX_SIZE)
			return false;
		memcpy(rec->mask[n], it->mask != NULL ? it->mask : def->default_mask, def->size);
	}
	return true;
}

/* The candidates into setters; false if a masked bit is not one's to write. */
static bool
mlx5dm_flow_compiled_keep_copies(struct mlx5dm_flow_compiled *ct, struct mlx5dm_flow_recording *rec,
				 const struct mlx5dm_flow_spec *spec)
{
	unsigned int c, i, b;

	ct->nb_copies = 0;
	ct->nb_moves = 0;
	ct->nb_items = 0;
	for (c = 0; c < rec->nb_cand; c++) {
		struct mlx5dm_flow_compiled_copy *cp = &rec->cand[c];
		const struct mlx5dm_prm_field *f = &mlx5dm_fte_fields[cp->fte].f;
		uint32_t all = cp->width >= 32 ? UINT32_MAX : (1u << cp->width) - 1;

		/* Written twice or read: the value decides what the walk does. */
		if (rec->use[cp->fte] != 1)
			return false;
		/* One write: the field's mask is this entry's, its value these bits. */
		cp->mask = mlx5dm_fte_get(spec->mask, cp->fte);
		cp->bytes = 0;
		if (cp->bit % 8 == 0 && cp->width % 8 == 0 && f->bit % 8 == 0 &&
		    f->width == cp->width && cp->mask == all) {
			/* Both sides are big-endian bit streams: the same bytes. */
			cp->bytes = cp->width / 8;
			cp->dst = f->bit / 8;
		}
		mlx5dm_prm_set(rec->sel[cp->item], cp->bit, cp->width,
			       mlx5dm_prm_get(rec->sel[cp->item], cp->bit, cp->width) | cp->mask);
		if (cp->bytes == 0)
			ct->copy[ct->nb_copies++] = *cp;
		else
			mlx5dm_flow_compiled_keep_move(ct, cp);
		ct->nb_items = RTE_MAX(ct->nb_items, (uint8_t)(cp->item + 1));
	}
	/* Every masked bit is copied (another one would be a value the walk read). */
	for (i = 0; i < MLX5DM_FLOW_COMPILED_ITEMS; i++)
		for (b = 0; b < MLX5DM_FLOW_ITEM_MAX_SIZE; b++)
			if ((rec->mask[i][b] & ~rec->sel[i][b]) != 0)
				return false;
	return true;
}

/*
 * The actions' parts; false if a value of the rule's is read. QUEUE and
 * MARK values are set per rule; a masked (fixed) action is the template's;
 * the kinds without configuration are the same in every rule.
 */
static bool
mlx5dm_flow_compiled_keep_actions(struct mlx5dm_flow_compiled *ct,
				  const struct rte_flow_action actions[], uint32_t fixed)
{
	unsigned int n, k;

	ct->queue_at = 0;
	ct->mark_at = 0;
	for (n = 0; actions[n].type != RTE_FLOW_ACTION_TYPE_END; n++) {
		if (n == MLX5DM_FLOW_COMPILED_ACTIONS)
			return false;
		if (fixed & (1u << n))
			continue;
		switch (actions[n].type) {
		case RTE_FLOW_ACTION_TYPE_VOID:
		case RTE_FLOW_ACTION_TYPE_DROP:
		case RTE_FLOW_ACTION_TYPE_COUNT:
		case RTE_FLOW_ACTION_TYPE_FLAG:
			break;
		case RTE_FLOW_ACTION_TYPE_QUEUE:
			ct->queue_at = (uint8_t)(n + 1);
			break;
		case RTE_FLOW_ACTION_TYPE_MARK:
			/* With JUMP a modify entry writes the id too (mlx5dm_flow_actions.c). */
			for (k = 0; actions[k].type != RTE_FLOW_ACTION_TYPE_END; k++)
				if (actions[k].type == RTE_FLOW_ACTION_TYPE_JUMP)
					return false;
			ct->mark_at = (uint8_t)(n + 1);
			break;
		default:
			return false;
		}
	}
	return true;
}

int
mlx5dm_flow_compile(struct mlx5dm_flow_compiled *ct, const struct mlx5dm_flow_context *ctx,
		    const struct rte_flow_attr *attr, const struct rte_flow_item items[],
		    const struct rte_flow_action actions[], uint32_t fixed,
		    struct mlx5dm_flow_spec *spec, struct rte_flow_error *error)
{
	struct mlx5dm_flow_recording rec = { .nb_cand = 0 };
	int ret;

	ct->fast = false;
	ret = mlx5dm_flow_translate_record(ctx, &rec, attr, items, actions, spec, error);
	if (ret < 0)
		return ret;
	mlx5dm_flow_spec_copy(&ct->res, spec);
	/* One plain library rule of the port's own tables: the objects are the template's. */
	ct->fast = rec.nb_cand <= MLX5DM_FLOW_COMPILED_COPIES && spec->nb_sub == 1 &&
		   spec->nb_extra == 0 && mlx5dm_flow_sub_plain(&spec->sub[0]) &&
		   !spec->transfer && spec->table_dom == 0 &&
		   mlx5dm_flow_compiled_keep_items(&rec, items) &&
		   mlx5dm_flow_compiled_keep_copies(ct, &rec, spec) &&
		   mlx5dm_flow_compiled_keep_actions(ct, actions, fixed);
	return 0;
}

bool
mlx5dm_flow_compiled_rule(const struct mlx5dm_flow_compiled *ct, uint16_t nb_rx_queues,
			  const struct rte_flow_item items[],
			  const struct rte_flow_action actions[], struct mlx5dm_flow_rule_values *r)
{
	const struct rte_flow_action_queue *q;
	const struct rte_flow_action_mark *m;
	unsigned int i;

	r->queue = 0;
	r->tag = 0;
	/* The translation's checks of the values; it refuses (and says why) the others. */
	if (ct->queue_at != 0) {
		q = actions[ct->queue_at - 1].conf;
		if (q == NULL || q->index >= nb_rx_queues || q->index >= MLX5DM_FLOW_MAX_QUEUES)
			return false;
		r->queue = q->index;
	}
	if (ct->mark_at != 0) {
		m = actions[ct->mark_at - 1].conf;
		if (m == NULL || m->id > MLX5DM_FLOW_MARK_MAX)
			return false;
		r->tag = m->id + 1;
	}
	for (i = 0; i < ct->nb_items; i++)
		r->spec[i] = items[i].spec;
	return true;
}

/* The setters: the copied bits of the items into the template's match value. */
void
mlx5dm_flow_compiled_value(const struct mlx5dm_flow_compiled *ct,
			   const struct mlx5dm_flow_rule_values *r, uint8_t *value)
{
	unsigned int i;

	memcpy(value, ct->res.value, MLX5DM_MATCH_PARAM_SIZE);
	for (i = 0; i < ct->nb_moves; i++) {
		const struct mlx5dm_match_move *mv = &ct->move[i];

		memcpy(value + mv->to, (const uint8_t *)r->spec[mv->src] + mv->from, mv->len);
	}
	for (i = 0; i < ct->nb_copies; i++) {
		const struct mlx5dm_flow_compiled_copy *cp = &ct->copy[i];

		mlx5dm_fte_set(value, (enum mlx5dm_fte_field)cp->fte,
			       mlx5dm_flow_compiled_bits(r->spec[cp->item], cp->bit, cp->width) &
			       cp->mask);
	}
}

/* Appends len bytes to a shape key. */
static inline uint8_t *
mlx5dm_flow_shape_put(uint8_t *k, const void *p, size_t len)
{
	memcpy(k, p, len);
	return k + len;
}

/*
 * What an implicit template is compiled for: attributes, item types and
 * masks, action types. Spec bits and action values are the rule's.
 */
size_t
mlx5dm_flow_shape_key(const struct mlx5dm_flow_context *ctx, const struct rte_flow_attr *attr,
		      const struct rte_flow_item items[], const struct rte_flow_action actions[],
		      uint8_t *key, uint32_t *hash)
{
	const struct mlx5dm_flow_item_def *def;
	uint8_t *k = key;
	unsigned int i;
	uint32_t type;
	uint64_t h, w;
	size_t len;

	if (attr == NULL || items == NULL || actions == NULL)
		return 0;
	k = mlx5dm_flow_shape_put(k, attr, sizeof(*attr));
	*k++ = (uint8_t)(ctx->relaxed | ctx->internal << 1);
	for (i = 0; items[i].type != RTE_FLOW_ITEM_TYPE_END; i++) {
		const struct rte_flow_item *it = &items[i];

		if (i == MLX5DM_FLOW_COMPILED_ITEMS || it->last != NULL)
			return 0;
		type = (uint32_t)it->type;
		k = mlx5dm_flow_shape_put(k, &type, sizeof(type));
		if (it->type == RTE_FLOW_ITEM_TYPE_VOID)
			continue;
		def = mlx5dm_flow_item_def_get(it->type);
		if (def == NULL || def->size > MLX5DM_FLOW_ITEM_MAX_SIZE)
			return 0;
		*k++ = (uint8_t)((it->spec != NULL) | (it->mask != NULL) << 1);
		if (it->spec != NULL)
			k = mlx5dm_flow_shape_put(k, it->mask != NULL ? it->mask :
						  def->default_mask, def->size);
	}
	/* END ends the items: no list of items is the start of another. */
	type = RTE_FLOW_ITEM_TYPE_END;
	k = mlx5dm_flow_shape_put(k, &type, sizeof(type));
	for (i = 0; actions[i].type != RTE_FLOW_ACTION_TYPE_END; i++) {
		if (i == MLX5DM_FLOW_COMPILED_ACTIONS)
			return 0;
		type = (uint32_t)actions[i].type;
		k = mlx5dm_flow_shape_put(k, &type, sizeof(type));
	}
	/*
	 * Hashed in words, the last one zero-padded (the key has room for it),
	 * each mixed in by a multiply: the final mix spreads them.
	 */
	len = (size_t)(k - key);
	memset(k, 0, 7);
	h = len;
	for (i = 0; i < len; i += 8) {
		memcpy(&w, key + i, sizeof(w));
		h = (h ^ w) * 0x9e3779b97f4a7c15ull;
	}
	*hash = mlx5dm_index_mix(h);
	return len;
}
