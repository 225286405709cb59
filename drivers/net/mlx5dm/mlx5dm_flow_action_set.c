/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Action sets: a matcher and the shared actions of its rules, in device
 * order, so a rule takes one reference and keeps one pointer for both.
 * A set holds the library's action templates of its list (without and
 * with a counter in front: each rule brings its counter and flow tag).
 * Callers hold fp->lock.
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_flow.h"
#include "mlx5dm_osdep.h"

/* Room for the largest list: every parameter kind at its largest. */
#define MLX5DM_FLOW_ACTION_SET_KEY_MAX 2048u

/* The key: the matcher, then each entry's key in order (each starts with its kind). */
static size_t
mlx5dm_flow_action_set_key(const struct mlx5dm_flow_matcher *m,
			   const struct mlx5dm_flow_entry_param *p, unsigned int n, uint8_t *key)
{
	size_t len = sizeof(m), k;
	unsigned int i;

	memcpy(key, &m, sizeof(m));
	for (i = 0; i < n; i++) {
		k = mlx5dm_flow_entry_key(&p[i], key + len, MLX5DM_FLOW_ACTION_SET_KEY_MAX - len);
		if (k == 0)
			return 0;
		len += k;
	}
	return len;
}

static void
mlx5dm_flow_action_set_drop(struct mlx5dm_flow_priv *fp, struct mlx5dm_flow_action_set *s)
{
	/* Before the entries: a template holds their actions. */
	mlx5dm_action_tmpl_destroy(s->tmpl[0]);
	mlx5dm_action_tmpl_destroy(s->tmpl[1]);
	while (s->nb > 0)
		mlx5dm_flow_entry_put(fp, s->entries[--s->nb]);
	mlx5dm_flow_matcher_put(fp, s->matcher);
	mlx5dm_flow_obj_free(fp, s, s->k.cls);
}

struct mlx5dm_flow_action_set_arg {
	struct mlx5dm_flow_matcher *m;
	const struct mlx5dm_flow_entry_param *p;
	unsigned int n;
};

static struct mlx5dm_flow_cached *
mlx5dm_flow_action_set_new(struct mlx5dm_flow_priv *fp, const void *arg, size_t len,
			   uint8_t **key_store)
{
	const struct mlx5dm_flow_action_set_arg *a = arg;
	const struct mlx5dm_flow_entry_param *p = a->p;
	unsigned int i, n = a->n;
	struct mlx5dm_flow_action_set *s;
	uint8_t cls;
	int err;

	s = mlx5dm_flow_obj_alloc(fp, sizeof(*s) + n * (sizeof(*s->entries) + sizeof(*s->acts)) +
				  len, &cls);
	if (s == NULL)
		return NULL;
	s->k.cls = cls;
	s->entries = (struct mlx5dm_flow_entry **)s->mem;
	s->acts = (struct mlx5dm_action **)(s->entries + n);
	s->matcher = a->m;
	mlx5dm_flow_cached_ref(&a->m->k);
	for (i = 0; i < n; i++) {
		s->entries[i] = mlx5dm_flow_entry_get(fp, &p[i]);
		if (s->entries[i] == NULL) {
			err = errno;
			mlx5dm_flow_action_set_drop(fp, s);
			errno = err;
			return NULL;
		}
		s->nb++;
		s->acts[i] = s->entries[i]->act;
	}
	*key_store = (uint8_t *)(s->acts + n);
	fp->st.action_sets++;
	return &s->k;
}

/* The set of m and p from the keyed cache, or a new one. */
struct mlx5dm_flow_action_set *
mlx5dm_flow_action_set_get(struct mlx5dm_flow_priv *fp, struct mlx5dm_flow_matcher *m,
			   const struct mlx5dm_flow_entry_param *p, unsigned int n)
{
	const struct mlx5dm_flow_action_set_arg a = { .m = m, .p = p, .n = n };
	uint8_t key[MLX5DM_FLOW_ACTION_SET_KEY_MAX];
	struct mlx5dm_flow_cached *o;
	size_t len;

	len = n <= MLX5DM_FLOW_RULE_MAX_ENTRIES ? mlx5dm_flow_action_set_key(m, p, n, key) : 0;
	if (len == 0) {
		errno = EINVAL;
		return NULL;
	}
	o = mlx5dm_flow_cache_get(fp, &fp->action_sets, key, len, mlx5dm_flow_action_set_new, &a);
	return (struct mlx5dm_flow_action_set *)o;
}

void
mlx5dm_flow_action_set_put(struct mlx5dm_flow_priv *fp, struct mlx5dm_flow_action_set *s)
{
	if (!mlx5dm_flow_cache_unref(&fp->action_sets, &s->k))
		return;
	mlx5dm_flow_action_set_drop(fp, s);
	fp->st.action_sets--;
}
