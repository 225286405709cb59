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
