/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * One rule: attributes, pattern, actions, then the library's check of the
 * masks. With a compiled template (xc->compiled) a rule of its shape
 * replays what the template holds (mlx5dm_flow_compile.c) and walks the
 * rest, which then compiles the template anew.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "mlx5dm_flow.h"

/* rte_flow attributes -> domain, table level (group), matcher priority band. */
static int
mlx5dm_flow_xlate_attr(struct mlx5dm_flow_xlate *x, const struct rte_flow_attr *attr,
		       struct rte_flow_error *error)
{
	struct mlx5dm_flow_spec *spec = x->spec;
	uint32_t max_prio;

	if (attr == NULL)
		return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ATTR, NULL,
					  "attributes are missing");
	if (attr->transfer)
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ATTR_TRANSFER, attr,
					  "transfer (FDB) rules need an E-Switch: a port of a "
					  "vdev with representor=vf[...]");
	if (attr->reserved != 0)
		return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ATTR, attr,
					  "reserved attribute bits must be zero");
	if (attr->ingress && attr->egress)
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ATTR_EGRESS, attr,
					  "a rule is either ingress or egress, not both");
	if (!attr->ingress && !attr->egress)
		return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ATTR_INGRESS, attr,
					  "ingress or egress must be set");
	if (attr->group > MLX5DM_FLOW_MAX_GROUP)
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ATTR_GROUP, attr,
					  "group must be below 4294967295");
	/* The last band is reserved for the PMD's default rule. */
	max_prio = x->xc->internal ? MLX5DM_FLOW_DEFAULT_PRIORITY : MLX5DM_FLOW_MAX_PRIORITY;
	if (attr->priority > max_prio)
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ATTR_PRIORITY, attr,
					  "priority must be at most 16382");
	spec->egress = attr->egress;
	spec->group = attr->group;
	spec->priority = attr->priority;
	return 0;
}

/*
 * The library's verdict on the masks before anything is made
 * (mlx5dm_match_check(), the builder selection of matcher creation): a
 * field no lookup covers is blamed on the item that wrote it.
 */
static int
mlx5dm_flow_field_by_name(const char *name)
{
	unsigned int i;

	for (i = 0; i < MLX5DM_FTE_NUM_FIELDS; i++)
		if (strcmp(mlx5dm_fte_fields[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* Blame the item that wrote the field (or the pattern as a whole). */
static int
mlx5dm_flow_check_err(struct mlx5dm_flow_xlate *x, int ret, const char *err_field,
		      struct rte_flow_error *error)
{
	int f = err_field != NULL ? mlx5dm_flow_field_by_name(err_field) : -1;
	const struct rte_flow_item *cause = x->items;
	static __thread char msg[128];

	if (ret == -ENOSPC)
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM, cause,
					  "pattern needs more lookups than a matcher can chain");
	if (f < 0)
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM, cause,
					  "the device cannot match this pattern");
	if (x->owner[f] != 0)
		cause = &x->items[x->owner[f] - 1];
	/* Kept after the return: rte_flow_error holds a pointer. */
	snprintf(msg, sizeof(msg), "the device cannot match %s (in this combination of fields)",
		 mlx5dm_fte_fields[f].name);
	return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM, cause, msg);
}

/* One mask through the library's builder selection (its value through the library's check). */
static int
mlx5dm_flow_check_mask(struct mlx5dm_flow_xlate *x, const uint8_t *mask, const uint8_t *value,
		       uint8_t criteria, struct rte_flow_error *error)
{
	struct mlx5dm_domain *dom = x->xc->dom[x->spec->egress ? 1 : 0];
	const struct mlx5dm_matcher_attr ma = { .criteria = criteria, .mask = mask };
	const char *err_field;
	int ret;

	ret = mlx5dm_match_check(dom, x->spec->egress ? MLX5DM_DOMAIN_NIC_TX : MLX5DM_DOMAIN_NIC_RX,
				 &ma, value, &err_field);
	if (ret < 0)
		return mlx5dm_flow_check_err(x, ret, err_field, error);
	return 0;
}

/*
 * Unless a matcher with the key exists (its mask was checked): the check
 * costs as much as the rest of the translation. Values are written under
 * their masks only, and the library checks them against the matcher.
 */
static int
mlx5dm_flow_check_subs(struct mlx5dm_flow_xlate *x, struct rte_flow_error *error)
{
	uint8_t buf[2 * MLX5DM_MATCH_PARAM_SIZE];
	const struct mlx5dm_flow_xctx *xc = x->xc;
	struct mlx5dm_flow_spec *spec = x->spec;
	const uint8_t *mask, *value;
	unsigned int i;
	uint8_t criteria;
	int ret;

	for (i = 0; i < spec->nb_sub; i++) {
		criteria = mlx5dm_flow_sub_match_ref(spec, i, buf, &mask, &value);
		spec->sub[i].hint = xc->match_known != NULL ?
				    xc->match_known(xc->arg, spec, i, mask, criteria) : NULL;
		if (spec->sub[i].hint != NULL)
			continue;
		ret = mlx5dm_flow_check_mask(x, mask, value, criteria, error);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/* Most rules are one sub-rule without a match of its own: that one inline, without a loop. */
static inline int
mlx5dm_flow_check_masks(struct mlx5dm_flow_xlate *x, struct rte_flow_error *error)
{
	const struct mlx5dm_flow_xctx *xc = x->xc;
	struct mlx5dm_flow_spec *spec = x->spec;
	struct mlx5dm_flow_sub *s = &spec->sub[0];

	if (spec->nb_sub != 1 || !mlx5dm_flow_sub_plain(s))
		return mlx5dm_flow_check_subs(x, error);
	s->hint = xc->match_known != NULL ?
		  xc->match_known(xc->arg, spec, 0, spec->mask, spec->criteria) : NULL;
	if (s->hint != NULL)
		return 0;
	return mlx5dm_flow_check_mask(x, spec->mask, spec->value, spec->criteria, error);
}

static int
mlx5dm_flow_translate_pattern(struct mlx5dm_flow_xlate *x, const struct mlx5dm_flow_xctx *xc,
			      const struct rte_flow_attr *attr,
			      const struct rte_flow_item items[], struct mlx5dm_flow_spec *spec,
			      uint16_t *owner, struct rte_flow_error *error)
{
	struct mlx5dm_flow_compiled *ct = xc->compiled;
	int ret;

	if (ct != NULL && spec == &ct->out) {
		/* Cleared below, whatever follows. */
		ct->out_kept = false;
		ct->out_full = false;
	}
	memset(spec, 0, MLX5DM_FLOW_SPEC_ZEROED);
	memset(x, 0, sizeof(*x));
	memset(owner, 0, MLX5DM_FTE_NUM_FIELDS * sizeof(*owner));
	x->xc = xc;
	x->spec = spec;
	x->owner = owner;
	ret = mlx5dm_flow_xlate_attr(x, attr, error);
	if (ret < 0)
		return ret;
	if (ct != NULL) {
		mlx5dm_flow_compiled_rec_begin(ct);
		x->rec = ct;
	}
	ret = mlx5dm_flow_xlate_items(x, items, error);
	x->rec = NULL;
	if (ret == 0 && ct != NULL)
		mlx5dm_flow_compiled_rec_end(ct, items, x);
	return ret;
}

/* What the replay left to walk (the pattern unless replayed), then the mask check. */
static int
mlx5dm_flow_translate_walk(const struct mlx5dm_flow_xctx *xc, enum mlx5dm_flow_replay replayed,
			   const struct rte_flow_attr *attr, const struct rte_flow_item items[],
			   const struct rte_flow_action actions[], struct mlx5dm_flow_xlate *x,
			   struct mlx5dm_flow_spec *spec, struct rte_flow_error *error)
{
	uint16_t owner[MLX5DM_FTE_NUM_FIELDS];
	struct mlx5dm_flow_compiled *ct = xc->compiled;
	int ret;

	if (replayed == MLX5DM_FLOW_REPLAY_NONE) {
		ret = mlx5dm_flow_translate_pattern(x, xc, attr, items, spec, owner, error);
		if (ret < 0)
			return ret;
	}
	ret = mlx5dm_flow_xlate_actions(x, actions, error);
	if (ret < 0)
		return ret;
	if (ct != NULL && ct->valid)
		mlx5dm_flow_compiled_keep_actions(ct, actions, spec);
	return mlx5dm_flow_check_masks(x, error);
}

static int
mlx5dm_flow_compiled_translate(const struct mlx5dm_flow_xctx *xc, const struct rte_flow_attr *attr,
			       const struct rte_flow_item items[],
			       const struct rte_flow_action actions[],
			       struct mlx5dm_flow_spec *spec, struct rte_flow_error *error)
{
	struct mlx5dm_flow_xlate x;
	enum mlx5dm_flow_replay replayed;

	replayed = mlx5dm_flow_compiled_replay(xc->compiled, xc, items, actions, &x, spec);
	if (replayed == MLX5DM_FLOW_REPLAY_RULE)
		return mlx5dm_flow_check_masks(&x, error);
	return mlx5dm_flow_translate_walk(xc, replayed, attr, items, actions, &x, spec, error);
}

/* Apart: the template's path has a translation state of its own. */
static __rte_noinline int
mlx5dm_flow_translate_plain(const struct mlx5dm_flow_xctx *xc, const struct rte_flow_attr *attr,
			    const struct rte_flow_item items[],
			    const struct rte_flow_action actions[],
			    struct mlx5dm_flow_spec *spec, struct rte_flow_error *error)
{
	struct mlx5dm_flow_xlate x;

	return mlx5dm_flow_translate_walk(xc, MLX5DM_FLOW_REPLAY_NONE, attr, items, actions, &x,
					  spec, error);
}

int
mlx5dm_flow_translate(const struct mlx5dm_flow_xctx *xc, const struct rte_flow_attr *attr,
		      const struct rte_flow_item items[], const struct rte_flow_action actions[],
		      struct mlx5dm_flow_spec *spec, struct rte_flow_error *error)
{
	if (xc->compiled != NULL)
		return mlx5dm_flow_compiled_translate(xc, attr, items, actions, spec, error);
	return mlx5dm_flow_translate_plain(xc, attr, items, actions, spec, error);
}
