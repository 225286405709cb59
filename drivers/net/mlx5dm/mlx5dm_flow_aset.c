/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Action sets: the shared actions of a library rule, in device order, as
 * one cached object. Rules with the same actions (the common case: many
 * rules, few action lists) take one reference on one set with one key
 * lookup, instead of a lookup and a reference per action, and keep one
 * pointer instead of one per action. A set holds a reference on each of
 * its entries (mlx5dm_flow_cache.c) and the library action array a rule
 * is inserted with. Callers hold fp->lock.
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_flow.h"
#include "mlx5dm_osdep.h"

/* Room for the largest list: every parameter kind at its largest. */
#define MLX5DM_FLOW_ASET_KEY_MAX 2048u

struct mlx5dm_flow_aset {
	struct mlx5dm_flow_kobj k;      /* first: the cache's view */
	uint8_t nb;
	struct mlx5dm_flow_ent *ents[MLX5DM_FLOW_RULE_MAX_ENTS];
	struct mlx5dm_action *acts[MLX5DM_FLOW_RULE_MAX_ENTS];
	uint8_t key[];
};

/* The key: each entry's key, in order (each starts with its kind and length). */
static size_t
mlx5dm_flow_aset_key(const struct mlx5dm_flow_ent_param *p, unsigned int n, uint8_t *key)
{
	size_t len = 0, k;
	unsigned int i;

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
	while (s->nb > 0)
		mlx5dm_flow_ent_put(fp, s->ents[--s->nb]);
	mlx5dm_free(s);
}

struct mlx5dm_flow_aset *
mlx5dm_flow_aset_get(struct mlx5dm_flow_priv *fp, const struct mlx5dm_flow_ent_param *p,
		     unsigned int n)
{
	uint8_t key[MLX5DM_FLOW_ASET_KEY_MAX];
	size_t len = mlx5dm_flow_aset_key(p, n, key);
	struct mlx5dm_flow_aset *s;
	unsigned int i;
	uint32_t h;
	int err;

	if (n > MLX5DM_FLOW_RULE_MAX_ENTS || (n != 0 && len == 0)) {
		errno = EINVAL;
		return NULL;
	}
	s = (struct mlx5dm_flow_aset *)mlx5dm_flow_kcache_find(fp->asets, key, len, &h);
	if (s != NULL)
		return s;
	s = mlx5dm_zmalloc(sizeof(*s) + len);
	if (s == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	for (i = 0; i < n; i++) {
		s->ents[i] = mlx5dm_flow_ent_get(fp, &p[i]);
		if (s->ents[i] == NULL) {
			err = errno;
			mlx5dm_flow_aset_drop(fp, s);
			errno = err;
			return NULL;
		}
		s->nb++;
		s->acts[i] = mlx5dm_flow_ent_action(s->ents[i]);
	}
	mlx5dm_flow_kcache_insert(fp->asets, &s->k, h, key, len, s->key);
	fp->st.asets++;
	return s;
}

void
mlx5dm_flow_aset_put(struct mlx5dm_flow_priv *fp, struct mlx5dm_flow_aset *s)
{
	if (!mlx5dm_flow_kcache_put(&s->k))
		return;
	mlx5dm_flow_aset_drop(fp, s);
	fp->st.asets--;
}

struct mlx5dm_action *const *
mlx5dm_flow_aset_actions(const struct mlx5dm_flow_aset *s, unsigned int *n)
{
	*n = s->nb;
	return s->acts;
}
