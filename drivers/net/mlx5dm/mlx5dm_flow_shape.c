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
	mlx5dm_flow_shape_act_forget(sh);
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
		sh->item[n].kind = MLX5DM_FLOW_SHAPE_VOID;
		if (it->type == RTE_FLOW_ITEM_TYPE_VOID)
			continue;
		if (it->last != NULL)
			return false;
		def = mlx5dm_flow_item_def_get(it->type);
		sh->item[n].kind = MLX5DM_FLOW_SHAPE_NO_SPEC;
		sh->item[n].default_mask = def->default_mask;
		if (it->spec == NULL)
			continue;
		/* Compared in words of 8 (or 4) bytes, the last one overlapping. */
		if (def->size < 4 || def->size % 4 != 0)
			return false;
		sh->item[n].kind = MLX5DM_FLOW_SHAPE_SPEC;
		sh->item[n].word_len = def->size >= 8 ? 8 : 4;
		sh->item[n].nb_words = (uint8_t)((def->size + sh->item[n].word_len - 1) /
						 sh->item[n].word_len);
		memcpy(sh->mask[n], it->mask != NULL ? it->mask : def->default_mask, def->size);
		memcpy(sh->ispec[n], it->spec, def->size);
		memset(sh->sel[n], 0, def->size); /* the copied bits, for now */
	}
	sh->nb_items = (uint8_t)n;
	return true;
}

/* Copied bytes as moves of 8, 4, 2 or 1; false if they do not fit. */
static bool
mlx5dm_flow_shape_keep_move(struct mlx5dm_flow_shape *sh, const struct mlx5dm_flow_shape_copy *cp)
{
	unsigned int done = 0, len;

	while (done < cp->bytes) {
		len = cp->bytes - done;
		len = len >= 8 ? 8 : len >= 4 ? 4 : len >= 2 ? 2 : 1;
		if (sh->nb_moves == MLX5DM_FLOW_SHAPE_MOVES)
			return false;
		sh->move[sh->nb_moves++] = (struct mlx5dm_flow_shape_move){
			.item = cp->item, .len = (uint8_t)len,
			.src = (uint16_t)(cp->bit / 8 + done), .dst = (uint16_t)(cp->dst + done) };
		done += len;
	}
	return true;
}

/* The candidates that are copies; false if another map entry reads their bits. */
static bool
mlx5dm_flow_shape_keep_copies(struct mlx5dm_flow_shape *sh, const struct mlx5dm_flow_spec *spec)
{
	unsigned int c, b;

	sh->nb_copies = 0;
	sh->nb_moves = 0;
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
		if (cp->bytes != 0) {
			if (!mlx5dm_flow_shape_keep_move(sh, cp))
				return false;
			continue;
		}
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
		const struct mlx5dm_flow_item_def *def;
		const uint8_t *hook;

		if (sh->item[c].kind != MLX5DM_FLOW_SHAPE_SPEC)
			continue;
		def = mlx5dm_flow_item_def_get(sh->item[c].type);
		hook = def->hook_spec;
		for (b = 0; b < def->size; b++) {
			sh->sel[c][b] = (uint8_t)((sh->mask[c][b] | (hook != NULL ? hook[b] : 0)) &
						  ~sh->sel[c][b]);
			sh->ispec[c][b] &= sh->sel[c][b];
		}
	}
	return true;
}

/* n bytes at p as a number (n constant once inlined). */
static inline uint64_t
mlx5dm_flow_shape_ld(const uint8_t *p, size_t n)
{
	uint64_t w = 0;

	memcpy(&w, p, n);
	return w;
}

/*
 * The words the replay compares: an item of size s in words of 8 bytes (4
 * below 8) at 0, 8, ... and s - 8 for the rest, so no word reaches beyond
 * the item and every byte is in one.
 */
static void
mlx5dm_flow_shape_keep_words(struct mlx5dm_flow_shape *sh)
{
	unsigned int i, k, off, nw = 0;

	for (i = 0; i < sh->nb_items; i++) {
		unsigned int len = sh->item[i].word_len, size;

		if (sh->item[i].kind != MLX5DM_FLOW_SHAPE_SPEC)
			continue;
		size = mlx5dm_flow_item_def_get(sh->item[i].type)->size;
		sh->item[i].first = (uint8_t)nw;
		for (k = 0; k < sh->item[i].nb_words; k++) {
			struct mlx5dm_flow_shape_word *w = &sh->word[nw++];

			off = RTE_MIN(k * len, size - len);
			w->off = (uint16_t)off;
			w->mask = mlx5dm_flow_shape_ld(sh->mask[i] + off, len);
			w->sel = mlx5dm_flow_shape_ld(sh->sel[i] + off, len);
			w->val = mlx5dm_flow_shape_ld(sh->ispec[i] + off, len);
		}
	}
}

void
mlx5dm_flow_shape_rec_end(struct mlx5dm_flow_shape *sh, const struct mlx5dm_flow_xctx *xc,
			  const struct rte_flow_attr *attr, const struct rte_flow_item items[],
			  const struct mlx5dm_flow_xlate *x)
{
	if (sh->nb_cand > MLX5DM_FLOW_SHAPE_COPIES || !mlx5dm_flow_shape_keep_items(sh, items) ||
	    !mlx5dm_flow_shape_keep_copies(sh, x->spec))
		return;
	mlx5dm_flow_shape_keep_words(sh);
	sh->attr = *attr;
	sh->internal = xc->internal;
	sh->relaxed = xc->relaxed;
	sh->x = *x;
	sh->x.rec = NULL;
	memcpy(sh->owner, x->owner, sizeof(sh->owner));
	sh->prev = mlx5dm_flow_shape_index(items, x->prev);
	sh->vlan_item = mlx5dm_flow_shape_index(items, x->vlan_item);
	memcpy(sh->spec_head, x->spec, MLX5DM_FLOW_SPEC_ZEROED);
	sh->out_kept = x->spec == &sh->out;
	sh->valid = true;
}

/* What differs in a word: the mask, or the spec bits that matter. */
static inline uint64_t
mlx5dm_flow_shape_diff(const struct mlx5dm_flow_shape_word *w, const uint8_t *spec,
		       const uint8_t *mask, size_t n)
{
	return (mlx5dm_flow_shape_ld(mask + w->off, n) ^ w->mask) |
	       ((mlx5dm_flow_shape_ld(spec + w->off, n) & w->sel) ^ w->val);
}

/* The attributes and items are those of the kept shape but for the copied bits. */
static inline bool
mlx5dm_flow_shape_same(const struct mlx5dm_flow_shape *sh, const struct mlx5dm_flow_xctx *xc,
		       const struct rte_flow_attr *attr, const struct rte_flow_item items[])
{
	uint64_t acc = 0;
	unsigned int i;

	if (!sh->valid || attr == NULL || items == NULL || xc->internal != sh->internal ||
	    xc->relaxed != sh->relaxed ||
	    memcmp(attr, &sh->attr, sizeof(*attr)) != 0)
		return false;
	for (i = 0; i < sh->nb_items; i++) {
		const struct rte_flow_item *it = &items[i];
		const struct mlx5dm_flow_shape_word *w, *end;
		const uint8_t *spec, *mask;

		if (it->type != sh->item[i].type)
			return false;
		if (sh->item[i].kind == MLX5DM_FLOW_SHAPE_VOID)
			continue;
		if (it->last != NULL)
			return false;
		if (sh->item[i].kind == MLX5DM_FLOW_SHAPE_NO_SPEC) {
			if (it->spec != NULL || it->mask != NULL)
				return false;
			continue;
		}
		spec = it->spec;
		if (spec == NULL)
			return false;
		mask = it->mask != NULL ? it->mask : sh->item[i].default_mask;
		w = &sh->word[sh->item[i].first];
		end = w + sh->item[i].nb_words;
		if (sh->item[i].word_len == 8)
			for (; w < end; w++)
				acc |= mlx5dm_flow_shape_diff(w, spec, mask, 8);
		else
			for (; w < end; w++)
				acc |= mlx5dm_flow_shape_diff(w, spec, mask, 4);
	}
	return acc == 0 && items[i].type == RTE_FLOW_ITEM_TYPE_END;
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

/* The copied bits of the items into the match value. */
static inline void
mlx5dm_flow_shape_copy_values(const struct mlx5dm_flow_shape *sh,
			      const struct rte_flow_item items[], uint8_t *value)
{
	unsigned int i;

	for (i = 0; i < sh->nb_moves; i++) {
		const struct mlx5dm_flow_shape_move *mv = &sh->move[i];
		const uint8_t *from = (const uint8_t *)items[mv->item].spec + mv->src;
		uint8_t *to = value + mv->dst;

		switch (mv->len) {
		case 8:
			memcpy(to, from, 8);
			break;
		case 4:
			memcpy(to, from, 4);
			break;
		case 2:
			memcpy(to, from, 2);
			break;
		default:
			*to = *from;
			break;
		}
	}
	for (i = 0; i < sh->nb_copies; i++) {
		const struct mlx5dm_flow_shape_copy *cp = &sh->copy[i];

		mlx5dm_fte_set(value, (enum mlx5dm_fte_field)cp->fte,
			       mlx5dm_flow_shape_bits(items[cp->item].spec, cp->bit, cp->width) &
			       cp->mask);
	}
}

/* The walk's spec, but for the copied values. */
static void
mlx5dm_flow_shape_head(struct mlx5dm_flow_shape *sh, struct mlx5dm_flow_spec *spec)
{
	if (spec == &sh->out) {
		sh->out_full = false; /* the action walk writes the head */
		if (sh->out_kept) {
			/* Only the walk writes the match (and the copies all of their fields). */
			memcpy(spec, sh->spec_head, offsetof(struct mlx5dm_flow_spec, mask));
			return;
		}
		sh->out_kept = true;
	}
	memcpy(spec, sh->spec_head, MLX5DM_FLOW_SPEC_ZEROED);
}

/* The walk's translation state, for the action walk. */
static void
mlx5dm_flow_shape_x(const struct mlx5dm_flow_shape *sh, const struct rte_flow_item items[],
		    struct mlx5dm_flow_xlate *x)
{
	*x = sh->x;
	x->prev = sh->prev >= 0 ? &items[sh->prev] : NULL;
	x->vlan_item = sh->vlan_item >= 0 ? &items[sh->vlan_item] : NULL;
}

/* v passes the walk's check of kept action i's value (MARK with JUMP: it is the kept one). */
static inline bool
mlx5dm_flow_shape_aval_ok(const struct mlx5dm_flow_shape_act *m, unsigned int i,
			  const struct mlx5dm_flow_xctx *xc, uint32_t v)
{
	switch (m->a[i].op) {
	case MLX5DM_FLOW_SHAPE_A_QUEUE:
		return v < xc->nb_rx_queues;
	case MLX5DM_FLOW_SHAPE_A_MARK:
		return v <= MLX5DM_FLOW_MARK_MAX;
	case MLX5DM_FLOW_SHAPE_A_JUMP:
		return v > m->res.group && v <= MLX5DM_FLOW_MAX_GROUP;
	default:
		return v == m->a[i].val;
	}
}

/*
 * The action list has the kinds of the one kept with the shape, and values
 * that pass the walk's checks (mlx5dm_flow_shape_act.c): then spec holds the
 * kept result with those values (but for the copied match values).
 */
static inline bool
mlx5dm_flow_shape_act_replay(struct mlx5dm_flow_shape *sh, const struct mlx5dm_flow_xctx *xc,
			     const struct rte_flow_action actions[], struct mlx5dm_flow_spec *spec)
{
	const struct mlx5dm_flow_shape_act *m = &sh->act;
	uint32_t v, val[MLX5DM_FLOW_SHAPE_A_JUMP + 1];
	bool same = true;
	unsigned int i;
	uint8_t op;

	if (!m->valid || actions == NULL)
		return false;
	for (i = 0; i < m->nb; i++) {
		const struct rte_flow_action *a = &actions[i];

		op = m->a[i].op;
		if (a->type != m->a[i].type)
			return false;
		if (op == MLX5DM_FLOW_SHAPE_A_TYPE)
			continue;
		if (a->conf == NULL)
			return false;
		v = mlx5dm_flow_shape_aval(a->conf, op);
		/* A MARK id is the rule's argument, not a parameter of its actions. */
		same &= v == m->a[i].val || op == MLX5DM_FLOW_SHAPE_A_MARK;
		val[op] = v;
		if (!mlx5dm_flow_shape_aval_ok(m, i, xc, v))
			return false;
	}
	if (actions[i].type != RTE_FLOW_ACTION_TYPE_END)
		return false;
	if (spec != &sh->out || !sh->out_full) {
		mlx5dm_flow_spec_copy(spec, &m->res);
		if (spec == &sh->out) {
			sh->out_kept = true;
			sh->out_full = true;
		}
	}
	/* The action values, where the walk would have put them (the kept ones when same). */
	if (m->has & (1u << MLX5DM_FLOW_SHAPE_A_QUEUE))
		spec->queues[0] = (uint16_t)val[MLX5DM_FLOW_SHAPE_A_QUEUE];
	if (m->has & (1u << MLX5DM_FLOW_SHAPE_A_MARK))
		spec->tag_value = val[MLX5DM_FLOW_SHAPE_A_MARK] + 1;
	if (m->has & (1u << MLX5DM_FLOW_SHAPE_A_JUMP))
		spec->jump_group = val[MLX5DM_FLOW_SHAPE_A_JUMP];
	spec->act_id = same ? spec->shape_id : 0;
	sh->rule_hits++;
	return true;
}

enum mlx5dm_flow_replay
mlx5dm_flow_shape_replay(struct mlx5dm_flow_shape *sh, const struct mlx5dm_flow_xctx *xc,
			 const struct rte_flow_attr *attr, const struct rte_flow_item items[],
			 const struct rte_flow_action actions[], struct mlx5dm_flow_xlate *x,
			 struct mlx5dm_flow_spec *spec)
{
	enum mlx5dm_flow_replay what = MLX5DM_FLOW_REPLAY_RULE;

	if (!mlx5dm_flow_shape_same(sh, xc, attr, items))
		return MLX5DM_FLOW_REPLAY_NONE;
	if (!mlx5dm_flow_shape_act_replay(sh, xc, actions, spec)) {
		what = MLX5DM_FLOW_REPLAY_PATTERN;
		mlx5dm_flow_shape_x(sh, items, x);
		mlx5dm_flow_shape_head(sh, spec);
	}
	/* What the mask check reads (everything, after a pattern replay). */
	x->xc = xc;
	x->spec = spec;
	x->items = items;
	x->owner = sh->owner;
	mlx5dm_flow_shape_copy_values(sh, items, spec->value);
	sh->hits++;
	return what;
}
