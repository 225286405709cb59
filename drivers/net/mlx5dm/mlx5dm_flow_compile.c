/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Compiled templates (mlx5dm_flow.h). A replay is exact because it copies
 * only bits that the walk wrote once into one match field, under that
 * field's mask, and that nothing read: no item hook (hook_spec), no
 * contradiction check, no match value read (mlx5dm_flow_match_value()
 * pins the field). Everything else the walk reads is the same for every
 * rule of the shape (mlx5dm_flow_shape_key()) or compared (the spec bits
 * that matter). Ranges (`last`) are not compiled.
 */

#include <string.h>

#include "mlx5dm_flow_item.h"

/*
 * The action half of a compiled template: the list and the whole result.
 * The walk of the kept kinds reads the types, the attributes, the Rx queue
 * count and one value of QUEUE, JUMP, MARK, which lands as it is in
 * queues[0], jump_group, tag_value (id + 1) once it passes the walk's own
 * check; MARK with JUMP also writes a modify entry, so its id is compared.
 * Any other value or list takes the walk, with its verdict.
 */

/* What a replay does with a kept kind's configuration; -1: the kind is not kept. */
static int
mlx5dm_flow_compiled_aop(enum rte_flow_action_type type, bool jump)
{
	switch (type) {
	case RTE_FLOW_ACTION_TYPE_VOID:
	case RTE_FLOW_ACTION_TYPE_DROP:
	case RTE_FLOW_ACTION_TYPE_COUNT:
	case RTE_FLOW_ACTION_TYPE_FLAG:
		return MLX5DM_FLOW_CT_A_TYPE;
	case RTE_FLOW_ACTION_TYPE_QUEUE:
		return MLX5DM_FLOW_CT_A_QUEUE;
	case RTE_FLOW_ACTION_TYPE_JUMP:
		return MLX5DM_FLOW_CT_A_JUMP;
	case RTE_FLOW_ACTION_TYPE_MARK:
		return jump ? MLX5DM_FLOW_CT_A_MARK_SAME : MLX5DM_FLOW_CT_A_MARK;
	default:
		return -1;
	}
}

/* The value the walk reads of a kept action's configuration conf (op not A_TYPE). */
static inline uint32_t
mlx5dm_flow_compiled_aval(const void *conf, uint8_t op)
{
	switch (op) {
	case MLX5DM_FLOW_CT_A_QUEUE:
		return ((const struct rte_flow_action_queue *)conf)->index;
	case MLX5DM_FLOW_CT_A_JUMP:
		return ((const struct rte_flow_action_jump *)conf)->group;
	default:
		return ((const struct rte_flow_action_mark *)conf)->id;
	}
}

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

/* Forget the kept list (the pattern is compiled anew). */
static void
mlx5dm_flow_compiled_act_forget(struct mlx5dm_flow_compiled *ct)
{
	ct->act.valid = false;
	ct->out_full = false;
	/* Its objects were found for the results being forgotten (the object layer lets go). */
	ct->objs_stale = true;
	ct->compiles++;
}

void
mlx5dm_flow_compiled_keep_actions(struct mlx5dm_flow_compiled *ct,
				  const struct rte_flow_action actions[],
				  struct mlx5dm_flow_spec *spec)
{
	struct mlx5dm_flow_ct_act *m = &ct->act;
	bool jump = false;
	unsigned int n;
	int op;

	mlx5dm_flow_compiled_act_forget(ct);
	for (n = 0; actions[n].type != RTE_FLOW_ACTION_TYPE_END; n++)
		jump |= actions[n].type == RTE_FLOW_ACTION_TYPE_JUMP;
	if (n > MLX5DM_FLOW_CT_ACTIONS)
		return;
	m->has = 0;
	for (n = 0; actions[n].type != RTE_FLOW_ACTION_TYPE_END; n++) {
		op = mlx5dm_flow_compiled_aop(actions[n].type, jump);
		if (op < 0)
			return;
		m->a[n].type = actions[n].type;
		m->a[n].op = (uint8_t)op;
		/* The walk succeeded: an action that needs a configuration has one. */
		m->a[n].val = op != MLX5DM_FLOW_CT_A_TYPE ?
			      mlx5dm_flow_compiled_aval(actions[n].conf, op) : 0;
		if (op != MLX5DM_FLOW_CT_A_MARK_SAME)
			m->has |= 1u << op;
	}
	m->nb = (uint8_t)n;
	spec->whole = true;
	spec->act_same = true;
	mlx5dm_flow_spec_copy(&m->res, spec);
	m->valid = true;
	ct->out_full = spec == &ct->out;
}

void
mlx5dm_flow_compiled_rec_begin(struct mlx5dm_flow_compiled *ct)
{
	ct->valid = false;
	ct->out_kept = false;
	mlx5dm_flow_compiled_act_forget(ct);
	ct->nb_cand = 0;
	memset(ct->use, 0, sizeof(ct->use));
}

static int8_t
mlx5dm_flow_compiled_index(const struct rte_flow_item items[], const struct rte_flow_item *it)
{
	return it == NULL ? -1 : (int8_t)(it - items);
}

/* The pattern's items into ct (masks, specs); false if it cannot be kept. */
static bool
mlx5dm_flow_compiled_keep_items(struct mlx5dm_flow_compiled *ct, const struct rte_flow_item items[])
{
	const struct mlx5dm_flow_item_def *def;
	unsigned int n;

	for (n = 0; items[n].type != RTE_FLOW_ITEM_TYPE_END; n++) {
		const struct rte_flow_item *it = &items[n];

		if (n == MLX5DM_FLOW_CT_ITEMS || it->last != NULL)
			return false;
		ct->item[n].type = it->type;
		ct->item[n].size = 0;
		if (it->type == RTE_FLOW_ITEM_TYPE_VOID || it->spec == NULL)
			continue;
		def = mlx5dm_flow_item_def_get(it->type);
		/* Compared in words of 8 (or 4) bytes, the last one overlapping. */
		if (def->size < 4 || def->size % 4 != 0)
			return false;
		ct->item[n].size = (uint8_t)def->size;
		memcpy(ct->mask[n], it->mask != NULL ? it->mask : def->default_mask, def->size);
		memcpy(ct->ispec[n], it->spec, def->size);
		memset(ct->sel[n], 0, def->size); /* the copied bits, for now */
	}
	ct->nb_items = (uint8_t)n;
	return true;
}

/* Copied bytes as moves of 8, 4, 2 or 1; false if they do not fit. */
static bool
mlx5dm_flow_compiled_keep_move(struct mlx5dm_flow_compiled *ct,
			       const struct mlx5dm_flow_ct_copy *cp)
{
	unsigned int done = 0, len;

	while (done < cp->bytes) {
		len = cp->bytes - done;
		len = len >= 8 ? 8 : len >= 4 ? 4 : len >= 2 ? 2 : 1;
		if (ct->nb_moves == MLX5DM_FLOW_CT_MOVES)
			return false;
		ct->move[ct->nb_moves++] = (struct mlx5dm_flow_ct_move){
			.item = cp->item, .len = (uint8_t)len,
			.src = (uint16_t)(cp->bit / 8 + done), .dst = (uint16_t)(cp->dst + done) };
		done += len;
	}
	return true;
}

/* The candidates that are copies; false if another map entry reads their bits. */
static bool
mlx5dm_flow_compiled_keep_copies(struct mlx5dm_flow_compiled *ct,
				 const struct mlx5dm_flow_spec *spec)
{
	unsigned int c, b;

	ct->nb_copies = 0;
	ct->nb_moves = 0;
	for (c = 0; c < ct->nb_cand; c++) {
		struct mlx5dm_flow_ct_copy *cp = &ct->cand[c];
		const struct mlx5dm_prm_field *f = &mlx5dm_fte_fields[cp->fte].f;
		uint32_t all = cp->width >= 32 ? UINT32_MAX : (1u << cp->width) - 1;
		uint8_t *copied = ct->sel[cp->item];

		if (ct->use[cp->fte] != 1)
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
			if (!mlx5dm_flow_compiled_keep_move(ct, cp))
				return false;
			continue;
		}
		ct->copy[ct->nb_copies++] = *cp;
	}
	for (c = 0; c < ct->nb_cand; c++) {
		const struct mlx5dm_flow_ct_copy *cp = &ct->cand[c];

		if (ct->use[cp->fte] != 1 &&
		    mlx5dm_prm_get(ct->sel[cp->item], cp->bit, cp->width) != 0)
			return false;
	}
	/* What matters: under the mask or read by a hook, and not copied. */
	for (c = 0; c < ct->nb_items; c++) {
		const uint8_t *hook;

		if (ct->item[c].size == 0)
			continue;
		hook = mlx5dm_flow_item_def_get(ct->item[c].type)->hook_spec;
		for (b = 0; b < ct->item[c].size; b++) {
			ct->sel[c][b] = (uint8_t)((ct->mask[c][b] | (hook != NULL ? hook[b] : 0)) &
						  ~ct->sel[c][b]);
			ct->ispec[c][b] &= ct->sel[c][b];
		}
	}
	return true;
}

/* n bytes at p as a number (n constant once inlined). */
static inline uint64_t
mlx5dm_flow_compiled_ld(const uint8_t *p, size_t n)
{
	uint64_t w = 0;

	memcpy(&w, p, n);
	return w;
}

/*
 * The words the replay compares: an item of size s in words of 8 bytes (4
 * below 8) at 0, 8, ... and s - 8 for the rest, so no word reaches beyond
 * the item and every byte is in one; a word in which no bit matters is
 * left out.
 */
static void
mlx5dm_flow_compiled_keep_words(struct mlx5dm_flow_compiled *ct)
{
	unsigned int i, k, off, len, size, nw = 0;

	for (i = 0; i < ct->nb_items; i++) {
		size = ct->item[i].size;
		len = size >= 8 ? 8 : 4;
		for (k = 0; size != 0 && k < (size + len - 1) / len; k++) {
			struct mlx5dm_flow_ct_word *w = &ct->word[nw];

			off = RTE_MIN(k * len, size - len);
			w->off = (uint16_t)off;
			w->item = (uint8_t)i;
			w->len = (uint8_t)len;
			w->sel = mlx5dm_flow_compiled_ld(ct->sel[i] + off, len);
			w->val = mlx5dm_flow_compiled_ld(ct->ispec[i] + off, len);
			nw += w->sel != 0;
		}
	}
	ct->nb_words = (uint8_t)nw;
}

void
mlx5dm_flow_compiled_rec_end(struct mlx5dm_flow_compiled *ct, const struct rte_flow_item items[],
			     const struct mlx5dm_flow_xlate *x)
{
	if (ct->nb_cand > MLX5DM_FLOW_CT_COPIES || !mlx5dm_flow_compiled_keep_items(ct, items) ||
	    !mlx5dm_flow_compiled_keep_copies(ct, x->spec))
		return;
	mlx5dm_flow_compiled_keep_words(ct);
	ct->x = *x;
	ct->x.rec = NULL;
	memcpy(ct->owner, x->owner, sizeof(ct->owner));
	ct->prev = mlx5dm_flow_compiled_index(items, x->prev);
	ct->vlan_item = mlx5dm_flow_compiled_index(items, x->vlan_item);
	x->spec->compiled = ct;
	memcpy(ct->spec_head, x->spec, MLX5DM_FLOW_SPEC_ZEROED);
	ct->out_kept = x->spec == &ct->out;
	ct->valid = true;
}

/* The items have ct's values wherever the walk read them (the shape is ct's). */
static inline bool
mlx5dm_flow_compiled_same(const struct mlx5dm_flow_compiled *ct,
			  const struct rte_flow_item items[])
{
	uint64_t acc = 0;
	unsigned int i;

	if (!ct->valid)
		return false;
	for (i = 0; i < ct->nb_words; i++) {
		const struct mlx5dm_flow_ct_word *w = &ct->word[i];
		const uint8_t *spec = items[w->item].spec;

		acc |= w->len == 8 ?
		       (mlx5dm_flow_compiled_ld(spec + w->off, 8) & w->sel) ^ w->val :
		       (mlx5dm_flow_compiled_ld(spec + w->off, 4) & w->sel) ^ w->val;
	}
	return acc == 0;
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

/* The copied bits of the items into the match value. */
static inline void
mlx5dm_flow_compiled_copy_values(const struct mlx5dm_flow_compiled *ct,
				 const struct rte_flow_item items[], uint8_t *value)
{
	unsigned int i;

	for (i = 0; i < ct->nb_moves; i++) {
		const struct mlx5dm_flow_ct_move *mv = &ct->move[i];
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
	for (i = 0; i < ct->nb_copies; i++) {
		const struct mlx5dm_flow_ct_copy *cp = &ct->copy[i];

		mlx5dm_fte_set(value, (enum mlx5dm_fte_field)cp->fte,
			       mlx5dm_flow_compiled_bits(items[cp->item].spec, cp->bit, cp->width) &
			       cp->mask);
	}
}

/* The walk's spec, but for the copied values. */
static void
mlx5dm_flow_compiled_head(struct mlx5dm_flow_compiled *ct, struct mlx5dm_flow_spec *spec)
{
	if (spec == &ct->out) {
		ct->out_full = false; /* the action walk writes the head */
		if (ct->out_kept) {
			/* Only the walk writes the match (and the copies all of their fields). */
			memcpy(spec, ct->spec_head, offsetof(struct mlx5dm_flow_spec, mask));
			return;
		}
		ct->out_kept = true;
	}
	memcpy(spec, ct->spec_head, MLX5DM_FLOW_SPEC_ZEROED);
}

/* The walk's translation state, for the action walk. */
static void
mlx5dm_flow_compiled_x(const struct mlx5dm_flow_compiled *ct, const struct rte_flow_item items[],
		       struct mlx5dm_flow_xlate *x)
{
	*x = ct->x;
	x->prev = ct->prev >= 0 ? &items[ct->prev] : NULL;
	x->vlan_item = ct->vlan_item >= 0 ? &items[ct->vlan_item] : NULL;
}

/* v passes the walk's check of kept action i's value (MARK with JUMP: it is the kept one). */
static inline bool
mlx5dm_flow_compiled_aval_ok(const struct mlx5dm_flow_ct_act *m, unsigned int i,
			     const struct mlx5dm_flow_xctx *xc, uint32_t v)
{
	switch (m->a[i].op) {
	case MLX5DM_FLOW_CT_A_QUEUE:
		return v < xc->nb_rx_queues;
	case MLX5DM_FLOW_CT_A_MARK:
		return v <= MLX5DM_FLOW_MARK_MAX;
	case MLX5DM_FLOW_CT_A_JUMP:
		return v > m->res.group && v <= MLX5DM_FLOW_MAX_GROUP;
	default:
		return v == m->a[i].val;
	}
}

/* The kept list with values that pass the walk's checks: spec is the kept result. */
static inline bool
mlx5dm_flow_compiled_act_replay(struct mlx5dm_flow_compiled *ct, const struct mlx5dm_flow_xctx *xc,
				const struct rte_flow_action actions[],
				struct mlx5dm_flow_spec *spec)
{
	const struct mlx5dm_flow_ct_act *m = &ct->act;
	uint32_t v, val[MLX5DM_FLOW_CT_A_JUMP + 1];
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
		if (op == MLX5DM_FLOW_CT_A_TYPE)
			continue;
		if (a->conf == NULL)
			return false;
		v = mlx5dm_flow_compiled_aval(a->conf, op);
		/* A MARK id is the rule's argument, not a parameter of its actions. */
		same &= v == m->a[i].val || op == MLX5DM_FLOW_CT_A_MARK;
		val[op] = v;
		if (!mlx5dm_flow_compiled_aval_ok(m, i, xc, v))
			return false;
	}
	if (actions[i].type != RTE_FLOW_ACTION_TYPE_END)
		return false;
	if (spec != &ct->out || !ct->out_full) {
		mlx5dm_flow_spec_copy(spec, &m->res);
		if (spec == &ct->out) {
			ct->out_kept = true;
			ct->out_full = true;
		}
	}
	/* The action values, where the walk would have put them (the kept ones when same). */
	if (m->has & (1u << MLX5DM_FLOW_CT_A_QUEUE))
		spec->queues[0] = (uint16_t)val[MLX5DM_FLOW_CT_A_QUEUE];
	if (m->has & (1u << MLX5DM_FLOW_CT_A_MARK))
		spec->tag_value = val[MLX5DM_FLOW_CT_A_MARK] + 1;
	if (m->has & (1u << MLX5DM_FLOW_CT_A_JUMP))
		spec->jump_group = val[MLX5DM_FLOW_CT_A_JUMP];
	spec->act_same = same;
	ct->rule_hits++;
	return true;
}

enum mlx5dm_flow_replay
mlx5dm_flow_compiled_replay(struct mlx5dm_flow_compiled *ct, const struct mlx5dm_flow_xctx *xc,
			    const struct rte_flow_item items[],
			    const struct rte_flow_action actions[], struct mlx5dm_flow_xlate *x,
			    struct mlx5dm_flow_spec *spec)
{
	enum mlx5dm_flow_replay what = MLX5DM_FLOW_REPLAY_RULE;

	if (!mlx5dm_flow_compiled_same(ct, items))
		return MLX5DM_FLOW_REPLAY_NONE;
	if (!mlx5dm_flow_compiled_act_replay(ct, xc, actions, spec)) {
		what = MLX5DM_FLOW_REPLAY_PATTERN;
		mlx5dm_flow_compiled_x(ct, items, x);
		mlx5dm_flow_compiled_head(ct, spec);
	}
	/* What the mask check reads (everything, after a pattern replay). */
	x->xc = xc;
	x->spec = spec;
	x->items = items;
	x->owner = ct->owner;
	mlx5dm_flow_compiled_copy_values(ct, items, spec->value);
	ct->hits++;
	return what;
}

/* Appends len bytes to a shape key. */
static inline uint8_t *
mlx5dm_flow_shape_put(uint8_t *k, const void *p, size_t len)
{
	memcpy(k, p, len);
	return k + len;
}

/*
 * What a replay takes as given: attributes, item types and masks, action
 * types. Spec bits and action values are compared or copied by the replay.
 */
size_t
mlx5dm_flow_shape_key(const struct mlx5dm_flow_xctx *xc, const struct rte_flow_attr *attr,
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
	*k++ = (uint8_t)(xc->relaxed | xc->internal << 1);
	for (i = 0; items[i].type != RTE_FLOW_ITEM_TYPE_END; i++) {
		const struct rte_flow_item *it = &items[i];

		if (i == MLX5DM_FLOW_CT_ITEMS || it->last != NULL)
			return 0;
		type = (uint32_t)it->type;
		k = mlx5dm_flow_shape_put(k, &type, sizeof(type));
		if (it->type == RTE_FLOW_ITEM_TYPE_VOID)
			continue;
		def = mlx5dm_flow_item_def_get(it->type);
		if (def == NULL || def->size > MLX5DM_FLOW_ITEM_MAX_SIZE ||
		    (it->mask == NULL && def->default_mask == NULL))
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
		if (i == MLX5DM_FLOW_CT_ACTIONS)
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
