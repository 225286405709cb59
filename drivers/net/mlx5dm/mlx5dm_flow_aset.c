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
#define MLX5DM_FLOW_ASET_KEY_MAX 2048u

/* The key: the matcher, then each entry's key in order (each starts with its kind). */
static size_t
mlx5dm_flow_aset_key(const struct mlx5dm_flow_matcher *m, const struct mlx5dm_flow_ent_param *p,
		     unsigned int n, uint8_t *key)
{
	size_t len = sizeof(m), k;
	unsigned int i;

	memcpy(key, &m, sizeof(m));
	for (i = 0; i < n; i++) {
		k = mlx5dm_flow_ent_key(&p[i], key + len, MLX5DM_FLOW_ASET_KEY_MAX - len);
		if (k == 0)
			return 0;
		len += k;
	}
	return len;
}

static void
mlx5dm_flow_aset_drop(struct mlx5dm_flow_priv *fp, struct mlx5dm_flow_aset *s)
{
	/* Before the entries: a template holds their actions. */
	mlx5dm_action_tmpl_destroy(s->tmpl[0]);
	mlx5dm_action_tmpl_destroy(s->tmpl[1]);
	while (s->nb > 0)
		mlx5dm_flow_ent_put(fp, s->ents[--s->nb]);
	mlx5dm_flow_matcher_put(fp, s->matcher);
	mlx5dm_flow_obj_free(fp, s, s->k.cls);
}

struct mlx5dm_flow_aset_arg {
	struct mlx5dm_flow_matcher *m;
	const struct mlx5dm_flow_ent_param *p;
	unsigned int n;
};

static struct mlx5dm_flow_kobj *
mlx5dm_flow_aset_new(struct mlx5dm_flow_priv *fp, const void *arg, size_t len,
		     uint8_t **key_store)
{
	const struct mlx5dm_flow_aset_arg *a = arg;
	const struct mlx5dm_flow_ent_param *p = a->p;
	unsigned int i, n = a->n;
	struct mlx5dm_flow_aset *s;
	uint8_t cls;
	int err;

	s = mlx5dm_flow_obj_alloc(fp, sizeof(*s) + n * (sizeof(*s->ents) + sizeof(*s->acts)) +
				  len, &cls);
	if (s == NULL)
		return NULL;
	s->k.cls = cls;
	s->ents = (struct mlx5dm_flow_ent **)s->mem;
	s->acts = (struct mlx5dm_action **)(s->ents + n);
	s->matcher = a->m;
	mlx5dm_flow_kobj_ref(&a->m->k);
	for (i = 0; i < n; i++) {
		s->ents[i] = mlx5dm_flow_ent_get(fp, &p[i]);
		if (s->ents[i] == NULL) {
			err = errno;
			mlx5dm_flow_aset_drop(fp, s);
			errno = err;
			return NULL;
		}
		s->nb++;
		s->acts[i] = s->ents[i]->act;
	}
	*key_store = (uint8_t *)(s->acts + n);
	fp->st.asets++;
	return &s->k;
}

/* The set of m and p from the keyed cache, or a new one. */
struct mlx5dm_flow_aset *
mlx5dm_flow_aset_get(struct mlx5dm_flow_priv *fp, struct mlx5dm_flow_matcher *m,
		     const struct mlx5dm_flow_ent_param *p, unsigned int n)
{
	const struct mlx5dm_flow_aset_arg a = { .m = m, .p = p, .n = n };
	uint8_t key[MLX5DM_FLOW_ASET_KEY_MAX];
	size_t len;

	len = n <= MLX5DM_FLOW_RULE_MAX_ENTS ? mlx5dm_flow_aset_key(m, p, n, key) : 0;
	if (len == 0) {
		errno = EINVAL;
		return NULL;
	}
	return (struct mlx5dm_flow_aset *)mlx5dm_flow_kcache_get(fp, &fp->asets, key, len,
								  mlx5dm_flow_aset_new, &a);
}

void
mlx5dm_flow_aset_put(struct mlx5dm_flow_priv *fp, struct mlx5dm_flow_aset *s)
{
	if (!mlx5dm_flow_kcache_unref(&fp->asets, &s->k))
		return;
	mlx5dm_flow_aset_drop(fp, s);
	fp->st.asets--;
}
