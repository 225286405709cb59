/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The match parameter (PRM fte_match_param): one place that catches
 * contradictions, remembers which item wrote a field (to blame it) and
 * turns `last` ranges into masks where a mask can express them. Also
 * the refusal texts that name an item or action type, for every step of
 * the translation.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "mlx5dm_flow.h"

/* Refusal texts made here: rte_flow_error keeps only a pointer. */
static __thread char mlx5dm_flow_msg_buf[160];

/* DPDK's name of an item or action type (testpmd's names), NULL for a type it does not name. */
static const char *
mlx5dm_flow_type_name(bool action, int type)
{
	const char *name = NULL;

	if (rte_flow_conv(action ? RTE_FLOW_CONV_OP_ACTION_NAME_PTR :
			  RTE_FLOW_CONV_OP_ITEM_NAME_PTR, &name, sizeof(name),
			  (const void *)(intptr_t)type, NULL) < 0)
		return NULL;
	return name;
}

const char *
mlx5dm_flow_type_msg(bool action, int type)
{
	const char *what = action ? "action" : "item";
	const char *name = mlx5dm_flow_type_name(action, type);

	if (name == NULL)
		snprintf(mlx5dm_flow_msg_buf, sizeof(mlx5dm_flow_msg_buf),
			 "%s type %d not supported", what, type);
	else
		snprintf(mlx5dm_flow_msg_buf, sizeof(mlx5dm_flow_msg_buf),
			 "%s type %s not supported", what, name);
	return mlx5dm_flow_msg_buf;
}

const char *
mlx5dm_flow_named_msg(bool action, int type, const char *msg)
{
	const char *name = mlx5dm_flow_type_name(action, type);

	if (name == NULL)
		snprintf(mlx5dm_flow_msg_buf, sizeof(mlx5dm_flow_msg_buf), "%s type %d: %s",
			 action ? "action" : "item", type, msg);
	else
		snprintf(mlx5dm_flow_msg_buf, sizeof(mlx5dm_flow_msg_buf), "%s: %s", name, msg);
	return mlx5dm_flow_msg_buf;
}

/* A recorded field read by the walk: never copied by a template (mlx5dm_flow_compile.c). */
#define MLX5DM_FLOW_COMPILED_PINNED UINT8_MAX

static uint32_t
mlx5dm_flow_field_ones(enum mlx5dm_fte_field f)
{
	unsigned int w = mlx5dm_fte_fields[f].f.width;

	return w >= 32 ? UINT32_MAX : (1u << w) - 1;
}

uint32_t
mlx5dm_flow_match_mask(const struct mlx5dm_flow_translation *x, enum mlx5dm_fte_field f)
{
	return mlx5dm_fte_get(x->spec->mask, f);
}

/* The one reader of match values during a walk: a field read is no mere copy (templates). */
uint32_t
mlx5dm_flow_match_value(const struct mlx5dm_flow_translation *x, enum mlx5dm_fte_field f)
{
	if (x->rec != NULL)
		x->rec->use[f] = MLX5DM_FLOW_COMPILED_PINNED;
	return mlx5dm_fte_get(x->spec->value, f);
}

/* Write mask and value of a field as they are, with the bookkeeping of every write. */
static void
mlx5dm_flow_match_write(struct mlx5dm_flow_translation *x, enum mlx5dm_fte_field f, uint32_t mask,
			uint32_t value)
{
	struct mlx5dm_flow_spec *spec = x->spec;

	mlx5dm_fte_set(spec->mask, f, mask);
	mlx5dm_fte_set(spec->value, f, value);
	/* The compiler copies a field written once: count writes, short of PINNED. */
	if (x->rec != NULL && x->rec->use[f] < MLX5DM_FLOW_COMPILED_PINNED - 1)
		x->rec->use[f]++;
	/* The one writer of the mask keeps its criteria: no scan of it afterwards. */
	spec->criteria |= (uint8_t)(1u << mlx5dm_fte_fields[f].section);
	if (x->item != NULL)
		x->owner[f] = (uint16_t)(x->item - x->items + 1);
}

/* The current item contradicts what the match holds (tests assert the text). */
static int
mlx5dm_flow_match_contradicts(const struct mlx5dm_flow_translation *x, struct rte_flow_error *error)
{
	return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ITEM, x->item,
				  mlx5dm_flow_named_msg(false, x->item->type,
				  "item contradicts a previous item or what it implies"));
}

int
mlx5dm_flow_match_set(struct mlx5dm_flow_translation *x, enum mlx5dm_fte_field f, uint32_t mask,
		      uint32_t value, struct rte_flow_error *error)
{
	uint32_t old_m = mlx5dm_fte_get(x->spec->mask, f);
	uint32_t old_v = mlx5dm_fte_get(x->spec->value, f);

	mask &= mlx5dm_flow_field_ones(f);
	value &= mask;
	if (mask == 0)
		return 0;
	if (((old_v ^ value) & old_m & mask) != 0)
		return mlx5dm_flow_match_contradicts(x, error);
	mlx5dm_flow_match_write(x, f, old_m | mask, old_v | value);
	return 0;
}

void
mlx5dm_flow_match_replace(struct mlx5dm_flow_translation *x, enum mlx5dm_fte_field f,
			  uint32_t value)
{
	mlx5dm_flow_match_write(x, f, mlx5dm_flow_field_ones(f), value);
}

/* A relaxed template's item without a mask: it implies nothing (mlx5dm_flow_context). */
static bool
mlx5dm_flow_match_relaxed(const struct mlx5dm_flow_translation *x)
{
	return x->ctx->relaxed && x->item != NULL && x->item->mask == NULL;
}

int
mlx5dm_flow_match_imply(struct mlx5dm_flow_translation *x, enum mlx5dm_fte_field f, uint32_t value,
			struct rte_flow_error *error)
{
	if (mlx5dm_flow_match_relaxed(x))
		return 0;
	return mlx5dm_flow_match_set(x, f, mlx5dm_flow_field_ones(f), value, error);
}

/* SW steering's ip_version (rdma-core DR): mask = value = 4 or 6, which picks lookups. */
int
mlx5dm_flow_match_ip_version(struct mlx5dm_flow_translation *x, enum mlx5dm_fte_field f,
			     uint32_t version, struct rte_flow_error *error)
{
	uint32_t m = mlx5dm_fte_get(x->spec->mask, f);

	if (mlx5dm_flow_match_relaxed(x))
		return 0;
	if (m != 0 && m != version)
		return mlx5dm_flow_match_contradicts(x, error);
	return mlx5dm_flow_match_set(x, f, version, version, error);
}

int
mlx5dm_flow_match_default(struct mlx5dm_flow_translation *x, enum mlx5dm_fte_field f,
			  uint32_t value, struct rte_flow_error *error)
{
	if (mlx5dm_fte_get(x->spec->mask, f) != 0)
		return 0;
	return mlx5dm_flow_match_imply(x, f, value, error);
}

/*
 * The device compares under a mask only: a range is a prefix range (after
 * the first masked bit where spec and last differ, spec all 0, last all 1),
 * whose varying bits leave the mask. A masked `last` of 0 is no range.
 * 0, -ERANGE (spec > last) or -EINVAL (not expressible).
 */
int
mlx5dm_flow_range_to_mask(const uint8_t *spec, const uint8_t *last, uint8_t *mask,
			  unsigned int bit, unsigned int width)
{
	bool differ = false, any = false;
	unsigned int i;

	for (i = bit; i < bit + width && !any; i++)
		any = mlx5dm_prm_get(mask, i, 1) != 0 && mlx5dm_prm_get(last, i, 1) != 0;
	if (!any)
		return 0;
	for (i = bit; i < bit + width; i++) {
		uint32_t s, l;

		if (mlx5dm_prm_get(mask, i, 1) == 0)
			continue;
		s = mlx5dm_prm_get(spec, i, 1);
		l = mlx5dm_prm_get(last, i, 1);
		if (!differ) {
			if (s == l)
				continue;
			if (s > l)
				return -ERANGE;
			differ = true;
		} else if (s != 0 || l != 1) {
			return -EINVAL;
		}
		mlx5dm_prm_set(mask, i, 1, 0);
	}
	return 0;
}

/* A section is enabled when any of its bytes is: OR it together a word at a time. */
uint8_t
mlx5dm_flow_match_criteria(const uint8_t *mask)
{
	uint8_t criteria = 0;
	unsigned int s, w;

	for (s = 0; s < MLX5DM_FTE_NUM_SECTIONS; s++) {
		const uint8_t *sec = mask + s * MLX5DM_FTE_SECTION_SIZE;
		uint64_t acc = 0, v;

		for (w = 0; w < MLX5DM_FTE_SECTION_SIZE; w += sizeof(v)) {
			memcpy(&v, sec + w, sizeof(v));
			acc |= v;
		}
		if (acc != 0)
			criteria |= (uint8_t)(1u << s);
	}
	return criteria;
}
