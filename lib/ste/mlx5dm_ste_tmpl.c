/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Rule templates: a matcher's builder chain compiled once, so that turning a
 * rule value into STEs costs a copy of the prepared entries and a handful of
 * byte copies instead of one bit-field read and write per map entry.
 *
 * What a map entry becomes:
 *  - a byte copy when it is a plain copy between whole, byte-aligned fields
 *    of equal width (addresses, ports, protocol, ethertype...);
 *  - a constant in the prepared tag when the mask decides its value (the
 *    l3_type of the matcher's IP version: a value must carry exactly that
 *    version, see mlx5dm_ste_check_value());
 *  - otherwise, or when its tag bits overlap another active entry (the TCP
 *    and UDP ports share a field), the generic map code at build time, in
 *    map order, on tag bits the template leaves zero.
 * Any of the three produces the bytes the generic builder would.
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_ste_priv.h"

static bool
mlx5dm_ste_tmpl_overlap(const struct mlx5dm_prm_field *a, const struct mlx5dm_prm_field *b)
{
	return a->bit < b->bit + b->width && b->bit < a->bit + a->width;
}

/* Does map entry j of builder b share tag bits with another active entry? */
static bool
mlx5dm_ste_tmpl_shared(const struct mlx5dm_ste_builder *b, unsigned int j)
{
	const struct mlx5dm_ste_lookup_def *def = b->def;
	unsigned int k;

	for (k = 0; k < def->n_map; k++) {
		if (k != j && (b->active & (1u << k)) &&
		    mlx5dm_ste_tmpl_overlap(def->map[j].dst, def->map[k].dst))
			return true;
	}
	return false;
}

/* A copy entry the template can do with bytes: whole bytes, same width on both sides. */
static bool
mlx5dm_ste_tmpl_bytewise(const struct mlx5dm_ste_field_map *m, bool inner)
{
	const struct mlx5dm_prm_field *src = &mlx5dm_fte_fields[m->src.id[inner]].f;

	return m->kind == MLX5DM_STE_FIELD_MAP_COPY && src->bit % 8 == 0 && src->width % 8 == 0 &&
	       m->dst->bit % 8 == 0 && m->dst->width == src->width;
}

/* The l3_type of the matcher's own ip_version, which every value repeats. */
static bool
mlx5dm_ste_tmpl_fixed(const struct mlx5dm_ste_field_map *m, bool inner)
{
	enum mlx5dm_fte_field ipv = inner ? MLX5DM_FTE(inner, ip_version) :
					    MLX5DM_FTE(outer, ip_version);

	return m->kind == MLX5DM_STE_FIELD_MAP_L3_TYPE && m->src.id[inner] == ipv;
}

static int
mlx5dm_ste_tmpl_add_copy(struct mlx5dm_ste_tmpl *t, unsigned int src, unsigned int dst,
			 unsigned int len)
{
	struct mlx5dm_ste_tmpl_copy *c = t->n_copy > 0 ? &t->copy[t->n_copy - 1] : NULL;

	/* Neighbours on both sides become one run (source and destination addresses). */
	if (c != NULL && c->src + c->len == src && c->dst + c->len == dst &&
	    c->len + len <= UINT8_MAX) {
		c->len = (uint8_t)(c->len + len);
		return 0;
	}
	if (t->n_copy == MLX5DM_STE_TMPL_MAX_COPIES)
		return -ENOSPC;
	t->copy[t->n_copy++] = (struct mlx5dm_ste_tmpl_copy){
		.src = (uint16_t)src, .dst = (uint16_t)dst, .len = (uint8_t)len,
	};
	return 0;
}

/* Place one active map entry: copy, constant or generic. */
static int
mlx5dm_ste_tmpl_entry(struct mlx5dm_ste_tmpl *t, unsigned int i, unsigned int j,
		      const uint8_t *mask)
{
	const struct mlx5dm_ste_builder *b = &t->b[i];
	const struct mlx5dm_ste_field_map *m = &b->def->map[j];
	uint8_t *tag = t->image + (size_t)i * MLX5DM_STE_SIZE + MLX5DM_STE_TAG_OFF;

	if (!mlx5dm_ste_tmpl_shared(b, j)) {
		if (mlx5dm_ste_tmpl_fixed(m, b->inner))
			return mlx5dm_ste_field_map_value(m, b->inner, mask, tag);
		if (mlx5dm_ste_tmpl_bytewise(m, b->inner) &&
		    mlx5dm_ste_tmpl_add_copy(t, mlx5dm_fte_fields[m->src.id[b->inner]].f.bit / 8,
					     i * MLX5DM_STE_SIZE + MLX5DM_STE_TAG_OFF +
					     m->dst->bit / 8, m->dst->width / 8) == 0)
			return 0;
	}
	if (t->n_slow == MLX5DM_STE_TMPL_MAX_SLOW)
		return -ENOSPC;
	t->slow[t->n_slow++] = (struct mlx5dm_ste_tmpl_slow){
		.ste = (uint8_t)i, .map = (uint8_t)j,
	};
	return 0;
}

int
mlx5dm_ste_tmpl_compile(const struct mlx5dm_ste_ctx *ctx, const struct mlx5dm_ste_builder *b,
			unsigned int n, const uint8_t *mask, uint8_t criteria,
			enum mlx5dm_ste_dir dir, uint16_t gvmi, struct mlx5dm_ste_tmpl *t)
{
	unsigned int i, j, s;
	int ret;

	if (ctx == NULL || b == NULL || mask == NULL || t == NULL || n == 0 ||
	    n > MLX5DM_STE_MAX_BUILDERS || (criteria & ~MLX5DM_FTE_CRITERIA_ALL) != 0)
		return -EINVAL;
	memset(t, 0, sizeof(*t));
	t->b = b;
	t->n = n;
	t->criteria = criteria;
	/* Everything of the entries but the value-dependent tag bits. */
	for (i = 0; i < n; i++) {
		uint8_t *ste = t->image + (size_t)i * MLX5DM_STE_SIZE;

		ctx->init(ste, b[i].lu_type, dir, gvmi);
		memcpy(ste + MLX5DM_STE_MASK_OFF, b[i].bit_mask, MLX5DM_STE_MASK_SIZE);
		if (i + 1 < n)
			mlx5dm_ste_set_next_lookup(ctx, ste, b[i + 1].lu_type, b[i + 1].byte_mask);
	}
	for (i = 0; i < n; i++) {
		for (j = 0; j < b[i].def->n_map; j++) {
			if (!(b[i].active & (1u << j)))
				continue;
			ret = mlx5dm_ste_tmpl_entry(t, i, j, mask);
			if (ret < 0)
				return ret;
		}
	}
	/* The value check: no bit outside the mask in the enabled sections... */
	for (s = 0; s < MLX5DM_FTE_NUM_SECTIONS; s++) {
		if (!(criteria & (1u << s)))
			continue;
		t->sec[t->n_sec++] = (uint8_t)s;
		for (j = 0; j < MLX5DM_FTE_SECTION_SIZE / 8; j++) {
			unsigned int w = s * MLX5DM_FTE_SECTION_SIZE / 8 + j;
			uint64_t m;

			memcpy(&m, mask + (size_t)w * 8, 8);
			t->outside[w] = ~m;
		}
	}
	/* ...and the matcher's IP version repeated. */
	if (criteria & MLX5DM_FTE_CRITERIA(outer))
		t->ipv[0] = (uint8_t)mlx5dm_fte_get(mask, MLX5DM_FTE(outer, ip_version));
	if (criteria & MLX5DM_FTE_CRITERIA(inner))
		t->ipv[1] = (uint8_t)mlx5dm_fte_get(mask, MLX5DM_FTE(inner, ip_version));
	return 0;
}

bool
mlx5dm_ste_tmpl_value_ok(const struct mlx5dm_ste_tmpl *t, const uint8_t *value)
{
	uint64_t acc = 0;
	unsigned int k, w;

	for (k = 0; k < t->n_sec; k++) {
		const uint64_t *out = t->outside + t->sec[k] * MLX5DM_FTE_SECTION_SIZE / 8;
		const uint8_t *v = value + t->sec[k] * MLX5DM_FTE_SECTION_SIZE;

		for (w = 0; w < MLX5DM_FTE_SECTION_SIZE / 8; w++) {
			uint64_t x;

			memcpy(&x, v + w * 8, 8);
			acc |= x & out[w];
		}
	}
	if (acc != 0)
		return false;
	if (t->ipv[0] != 0 && mlx5dm_fte_get(value, MLX5DM_FTE(outer, ip_version)) != t->ipv[0])
		return false;
	return t->ipv[1] == 0 || mlx5dm_fte_get(value, MLX5DM_FTE(inner, ip_version)) == t->ipv[1];
}

/* A short copy in word-sized moves (a field run is 1 to a few dozen bytes). */
static inline void
mlx5dm_ste_tmpl_move(uint8_t *d, const uint8_t *s, unsigned int len)
{
	for (; len >= 8; len -= 8, d += 8, s += 8)
		memcpy(d, s, 8);
	if (len >= 4) {
		memcpy(d, s, 4);
		d += 4;
		s += 4;
		len -= 4;
	}
	if (len >= 2) {
		memcpy(d, s, 2);
		d += 2;
		s += 2;
		len -= 2;
	}
	if (len != 0)
		*d = *s;
}

int
mlx5dm_ste_tmpl_build(const struct mlx5dm_ste_tmpl *t, const uint8_t *value, uint8_t *ste_arr)
{
	unsigned int i;
	int ret;

	memcpy(ste_arr, t->image, (size_t)t->n * MLX5DM_STE_SIZE);
	for (i = 0; i < t->n_copy; i++) {
		const struct mlx5dm_ste_tmpl_copy *c = &t->copy[i];

		mlx5dm_ste_tmpl_move(ste_arr + c->dst, value + c->src, c->len);
	}
	for (i = 0; i < t->n_slow; i++) {
		const struct mlx5dm_ste_tmpl_slow *sl = &t->slow[i];
		const struct mlx5dm_ste_builder *b = &t->b[sl->ste];

		ret = mlx5dm_ste_field_map_value(&b->def->map[sl->map], b->inner, value,
						 ste_arr + (size_t)sl->ste * MLX5DM_STE_SIZE +
						 MLX5DM_STE_TAG_OFF);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/* Do bytes [lo, hi) of the value hold bits of field f? */
static bool
mlx5dm_ste_tag_touches(enum mlx5dm_fte_field f, unsigned int lo, unsigned int hi)
{
	const struct mlx5dm_prm_field *pf = &mlx5dm_fte_fields[f].f;

	return pf->bit / 8 < hi && lo <= (pf->bit + pf->width - 1u) / 8;
}

/* Does a generic map entry of t (or a fixed ip_version) read value bytes [lo, hi)? */
static bool
mlx5dm_ste_tag_read(const struct mlx5dm_ste_tmpl *t, unsigned int lo, unsigned int hi)
{
	unsigned int i;

	for (i = 0; i < t->n_slow; i++) {
		const struct mlx5dm_ste_builder *b = &t->b[t->slow[i].ste];
		const struct mlx5dm_ste_field_map *m = &b->def->map[t->slow[i].map];

		if (mlx5dm_ste_tag_touches(m->src.id[b->inner], lo, hi) ||
		    (m->kind == MLX5DM_STE_FIELD_MAP_VLAN_QUAL &&
		     mlx5dm_ste_tag_touches(m->src2.id[b->inner], lo, hi)))
			return true;
	}
	return (t->ipv[0] != 0 && mlx5dm_ste_tag_touches(MLX5DM_FTE(outer, ip_version), lo, hi)) ||
	       (t->ipv[1] != 0 && mlx5dm_ste_tag_touches(MLX5DM_FTE(inner, ip_version), lo, hi));
}

static int
mlx5dm_ste_tag_add(struct mlx5dm_ste_tag *tag, const struct mlx5dm_ste_move *mv)
{
	struct mlx5dm_ste_move *prev = tag->n_move > 0 ? &tag->move[tag->n_move - 1] : NULL;

	/* Neighbours on both sides become one move. */
	if (prev != NULL && prev->src == mv->src && prev->from + prev->len == mv->from &&
	    prev->to + prev->len == mv->to && prev->len + mv->len <= UINT8_MAX) {
		prev->len = (uint8_t)(prev->len + mv->len);
		return 0;
	}
	if (tag->n_move == MLX5DM_STE_TAG_MAX_MOVES)
		return -EOPNOTSUPP;
	tag->move[tag->n_move++] = *mv;
	return 0;
}

/* Move mv's part that copy c takes, if any; its bytes are marked in placed. */
static int
mlx5dm_ste_tag_compose(struct mlx5dm_ste_tag *tag, const struct mlx5dm_ste_move *mv,
		       const struct mlx5dm_ste_tmpl_copy *c, bool placed[])
{
	unsigned int lo = MLX5DM_MAX((unsigned int)mv->to, (unsigned int)c->src);
	unsigned int hi = MLX5DM_MIN((unsigned int)mv->to + mv->len,
				     (unsigned int)c->src + c->len);

	if (lo >= hi)
		return 0;
	memset(placed + lo - mv->to, true, hi - lo);
	return mlx5dm_ste_tag_add(tag, &(struct mlx5dm_ste_move){
		.src = mv->src, .len = (uint8_t)(hi - lo),
		.from = (uint16_t)(mv->from + lo - mv->to),
		.to = (uint16_t)(c->dst + lo - c->src) });
}

int
mlx5dm_ste_tag_compile(const struct mlx5dm_ste_tmpl *t, const uint8_t *value,
		       const struct mlx5dm_ste_move *moves, unsigned int n,
		       struct mlx5dm_ste_tag *tag)
{
	bool placed[UINT8_MAX];
	const uint8_t *outside;
	unsigned int i, k, b;
	int ret;

	if (t == NULL || value == NULL || (moves == NULL && n != 0) || tag == NULL)
		return -EINVAL;
	outside = (const uint8_t *)t->outside;
	if (!mlx5dm_ste_tmpl_value_ok(t, value))
		return -EINVAL;
	memset(tag, 0, sizeof(*tag));
	tag->n = t->n;
	ret = mlx5dm_ste_tmpl_build(t, value, tag->image);
	if (ret < 0)
		return ret;
	for (i = 0; i < n; i++) {
		const struct mlx5dm_ste_move *mv = &moves[i];

		if (mv->len == 0 || mv->to + mv->len > MLX5DM_FTE_PARAM_SIZE)
			return -EINVAL;
		/* Wholly in the mask of an enabled section: any byte passes the check. */
		for (b = mv->to; b < mv->to + mv->len; b++)
			if (!(t->criteria & (1u << (b / MLX5DM_FTE_SECTION_SIZE))) ||
			    outside[b] != 0)
				return -EOPNOTSUPP;
		if (mlx5dm_ste_tag_read(t, mv->to, mv->to + mv->len))
			return -EOPNOTSUPP;
		/* Every byte to the entries by the copies (a byte no copy takes: refused). */
		memset(placed, false, mv->len);
		for (k = 0; k < t->n_copy; k++) {
			ret = mlx5dm_ste_tag_compose(tag, mv, &t->copy[k], placed);
			if (ret < 0)
				return ret;
		}
		if (memchr(placed, false, mv->len) != NULL)
			return -EOPNOTSUPP;
	}
	return 0;
}

void
mlx5dm_ste_tag_build(const struct mlx5dm_ste_tag *tag, const void *const src[], uint8_t *ste_arr)
{
	unsigned int i;

	memcpy(ste_arr, tag->image, (size_t)tag->n * MLX5DM_STE_SIZE);
	for (i = 0; i < tag->n_move; i++) {
		const struct mlx5dm_ste_move *mv = &tag->move[i];

		mlx5dm_ste_tmpl_move(ste_arr + mv->to, (const uint8_t *)src[mv->src] + mv->from,
				     mv->len);
	}
}
