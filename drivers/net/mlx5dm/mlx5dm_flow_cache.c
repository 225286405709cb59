/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Objects rules share, made on first use and gone with their last user:
 * tables per (domain, group), matchers per (table, priority, criteria,
 * mask), actions ("entries") per parameters, each in a growable hash
 * index. Callers hold fp->lock.
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_flow.h"
#include "mlx5dm_osdep.h"

#define MLX5DM_FLOW_LOG "flow"

struct mlx5dm_flow_tbl {
	struct mlx5dm_flow_cached k;    /* first: the cache's view */
	unsigned int dom;
	uint32_t group;
	struct mlx5dm_table *t;
	uint64_t key;                   /* group << 8 | domain */
};

/* Key hash, multiply-xorshift per 64-bit word (keys are masks of hundreds of bytes). */
static uint32_t
mlx5dm_flow_hash(const uint8_t *p, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull, w;

	for (; len >= sizeof(w); p += sizeof(w), len -= sizeof(w)) {
		memcpy(&w, p, sizeof(w));
		h = (h ^ w) * 0x9e3779b97f4a7c15ull;
		h ^= h >> 29;
	}
	if (len != 0) {
		w = 0;
		memcpy(&w, p, len);
		h = (h ^ w) * 0x9e3779b97f4a7c15ull;
		h ^= h >> 29;
	}
	return mlx5dm_index_mix(h);
}

/* ---- keyed caches ---- */

void
mlx5dm_flow_cache_insert(struct mlx5dm_index *cache, struct mlx5dm_flow_cached *o,
			 uint32_t hash, const uint8_t *key, size_t len, uint8_t *key_store)
{
	memcpy(key_store, key, len);
	o->key = key_store;
	o->key_len = (uint16_t)len;
	o->hash = hash;
	o->refcnt = 1;
	(void)mlx5dm_index_insert(cache, o, hash); /* reserved by the caller */
}

struct mlx5dm_flow_cached *
mlx5dm_flow_cache_get(struct mlx5dm_flow_priv *fp, struct mlx5dm_index *cache,
		      const uint8_t *key, size_t len, mlx5dm_flow_cache_make make, const void *arg)
{
	uint32_t h = mlx5dm_flow_hash(key, len);
	struct mlx5dm_flow_cached *o = mlx5dm_flow_cache_find(cache, key, len, h);
	uint8_t *key_store;

	if (o != NULL)
		return o;
	if (mlx5dm_index_reserve(cache, 1) < 0) {
		errno = ENOMEM;
		return NULL;
	}
	o = make(fp, arg, len, &key_store);
	if (o != NULL)
		mlx5dm_flow_cache_insert(cache, o, h, key, len, key_store);
	return o;
}

/* ---- tables ---- */

struct mlx5dm_table *
mlx5dm_flow_tbl_table(const struct mlx5dm_flow_tbl *t)
{
	return t->t;
}

/* arg: the key, group << 8 | domain. */
static struct mlx5dm_flow_cached *
mlx5dm_flow_tbl_make(struct mlx5dm_flow_priv *fp, const void *arg, size_t len __rte_unused,
		     uint8_t **key_store)
{
	const uint64_t key = *(const uint64_t *)arg;
	unsigned int dom = (uint8_t)key;
	uint32_t group = (uint32_t)(key >> 8);
	struct mlx5dm_flow_tbl *t = mlx5dm_zmalloc_socket(sizeof(*t), fp->socket);
	int err;

	if (t == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	t->t = mlx5dm_table_create(fp->port.dom[dom <= MLX5DM_FLOW_DOM_FDB ? dom : 0], group + 1);
	if (t->t == NULL) {
		err = errno;
		MLX5DM_LOG(ERR, MLX5DM_FLOW_LOG, "table of group %u: %d", group, err);
		mlx5dm_free(t);
		errno = err;
		return NULL;
	}
	t->dom = dom;
	t->group = group;
	*key_store = (uint8_t *)&t->key;
	fp->st.tables++;
	return &t->k;
}

struct mlx5dm_flow_tbl *
mlx5dm_flow_tbl_get(struct mlx5dm_flow_priv *fp, unsigned int dom, uint32_t group)
{
	const uint64_t key = (uint64_t)group << 8 | dom;

	return (struct mlx5dm_flow_tbl *)mlx5dm_flow_cache_get(fp, &fp->tbls,
								 (const uint8_t *)&key,
								 sizeof(key),
								 mlx5dm_flow_tbl_make, &key);
}

void
mlx5dm_flow_tbl_put(struct mlx5dm_flow_priv *fp, struct mlx5dm_flow_tbl *t)
{
	int ret;

	if (!mlx5dm_flow_cache_unref(&fp->tbls, &t->k))
		return;
	ret = mlx5dm_table_destroy(t->t);
	if (ret < 0)
		MLX5DM_LOG(ERR, MLX5DM_FLOW_LOG, "table of group %u not destroyed: %d", t->group,
			   ret);
	mlx5dm_free(t);
	fp->st.tables--;
}

struct mlx5dm_flow_tbl_walk {
	mlx5dm_flow_tbl_cb cb;
	void *arg;
};

static void
mlx5dm_flow_tbl_visit(void *arg, void *rec)
{
	struct mlx5dm_flow_tbl_walk *w = arg;
	const struct mlx5dm_flow_tbl *t = rec;

	/* A representor's table is its port's to show. */
	if (t->dom <= MLX5DM_FLOW_DOM_FDB)
		w->cb(w->arg, t->dom, t->group, t->t);
}

void
mlx5dm_flow_tbl_foreach(struct mlx5dm_flow_priv *fp, mlx5dm_flow_tbl_cb cb, void *arg)
{
	struct mlx5dm_flow_tbl_walk w = { .cb = cb, .arg = arg };

	mlx5dm_index_foreach(&fp->tbls, mlx5dm_flow_tbl_visit, &w);
}

/* ---- matchers ---- */

struct mlx5dm_flow_matcher_arg {
	unsigned int dom;
	uint32_t group;
	struct mlx5dm_matcher_attr attr;
	const char **err_field;
};

static struct mlx5dm_flow_cached *
mlx5dm_flow_matcher_make(struct mlx5dm_flow_priv *fp, const void *arg, size_t len,
			 uint8_t **key_store)
{
	const struct mlx5dm_flow_matcher_arg *a = arg;
	struct mlx5dm_flow_matcher *m;
	struct mlx5dm_flow_tbl *t;
	int err;

	t = mlx5dm_flow_tbl_get(fp, a->dom, a->group);
	if (t == NULL)
		return NULL;
	m = mlx5dm_zmalloc_socket(sizeof(*m) + len, fp->socket);
	if (m == NULL) {
		err = ENOMEM;
		goto put_tbl;
	}
	m->m = mlx5dm_matcher_create(t->t, &a->attr, a->err_field);
	if (m->m == NULL) {
		err = errno;
		goto free_m;
	}
	m->tbl = t;
	*key_store = m->key;
	fp->st.matchers++;
	return &m->k;
free_m:
	mlx5dm_free(m);
put_tbl:
	mlx5dm_flow_tbl_put(fp, t);
	errno = err;
	return NULL;
}

struct mlx5dm_flow_matcher *
mlx5dm_flow_matcher_get(struct mlx5dm_flow_priv *fp, unsigned int dom, uint32_t group,
			uint16_t prio, uint8_t criteria, const uint8_t *mask, uint32_t rules,
			const char **err_field)
{
	const struct mlx5dm_flow_matcher_arg a = {
		.dom = dom,
		.group = group,
		.attr = {
			.priority = prio,
			.criteria = criteria,
			.mask = mask,
			.log_rules_hint = mlx5dm_log2_ceil(rules),
			.rules_reserve = rules,
		},
		.err_field = err_field,
	};
	/* The key: domain, group, priority, criteria and the mask's enabled sections. */
	uint8_t key[12 + MLX5DM_FTE_NUM_SECTIONS * MLX5DM_FTE_SECTION_SIZE];
	const uint32_t head[3] = { dom, group, (uint32_t)prio << 8 | criteria };
	size_t len = sizeof(head);
	unsigned int c, off;

	memcpy(key, head, sizeof(head));
	for (c = criteria & ((1u << MLX5DM_FTE_NUM_SECTIONS) - 1); c != 0; c &= c - 1) {
		off = (unsigned int)__builtin_ctz(c) * MLX5DM_FTE_SECTION_SIZE;
		memcpy(key + len, mask + off, MLX5DM_FTE_SECTION_SIZE);
		len += MLX5DM_FTE_SECTION_SIZE;
	}
	return (struct mlx5dm_flow_matcher *)mlx5dm_flow_cache_get(fp, &fp->matchers, key, len,
								     mlx5dm_flow_matcher_make,
								     &a);
}

void
mlx5dm_flow_matcher_put(struct mlx5dm_flow_priv *fp, struct mlx5dm_flow_matcher *m)
{
	int ret;

	if (!mlx5dm_flow_cache_unref(&fp->matchers, &m->k))
		return;
	ret = mlx5dm_matcher_destroy(m->m);
	if (ret < 0)
		MLX5DM_LOG(ERR, MLX5DM_FLOW_LOG, "matcher not destroyed: %d", ret);
	mlx5dm_flow_tbl_put(fp, m->tbl);
	mlx5dm_free(m);
	fp->st.matchers--;
}

/* ---- shared actions ---- */

/* The class of an object too large for the slabs: from the heap. */
#define MLX5DM_FLOW_OBJ_HEAP 0xffu

void *
mlx5dm_flow_obj_alloc(struct mlx5dm_flow_priv *fp, size_t size, uint8_t *cls)
{
	unsigned int c = size <= 64 ? 0 : mlx5dm_log2_ceil(size) - 6;
	void *o;

	if (c >= MLX5DM_FLOW_OBJ_CLASSES) {
		*cls = MLX5DM_FLOW_OBJ_HEAP;
		o = mlx5dm_zmalloc_socket(size, fp->socket);
	} else {
		*cls = (uint8_t)c;
		if (fp->objs[c].obj_size == 0)
			mlx5dm_slab_init(&fp->objs[c], 64u << c, fp->socket);
		o = mlx5dm_slab_alloc(&fp->objs[c]);
	}
	if (o == NULL)
		errno = ENOMEM;
	return o;
}

void
mlx5dm_flow_obj_free(struct mlx5dm_flow_priv *fp, void *o, uint8_t cls)
{
	if (cls == MLX5DM_FLOW_OBJ_HEAP)
		mlx5dm_free(o);
	else
		mlx5dm_slab_free(&fp->objs[cls], o);
}

/* The cache key: every parameter, serialised field by field (no padding). */
size_t
mlx5dm_flow_entry_key(const struct mlx5dm_flow_entry_param *p, uint8_t *key, size_t max)
{
	size_t n = 0;

#define KEY_PUT(ptr, len) do { \
		if (n + (len) > max) \
			return 0; \
		memcpy(key + n, (ptr), (len)); \
		n += (len); \
	} while (0)
	KEY_PUT(&p->kind, sizeof(p->kind));
	KEY_PUT(&p->dom, sizeof(p->dom));
	KEY_PUT(&p->u32, sizeof(p->u32));
	KEY_PUT(&p->nb_queues, sizeof(p->nb_queues));
	if (p->nb_queues != 0)
		KEY_PUT(p->queues, p->nb_queues * sizeof(p->queues[0]));
	if (p->rss != NULL) {
		uint8_t flags = (uint8_t)(1u | p->rss->ipv6 << 1 | p->rss->udp << 2 |
					  p->rss->inner << 3 | p->rss->symmetric << 4);

		KEY_PUT(&flags, sizeof(flags));
		KEY_PUT(&p->rss->fields, sizeof(p->rss->fields));
		KEY_PUT(p->rss->key, sizeof(p->rss->key));
	}
	KEY_PUT(&p->len, sizeof(p->len));
	if (p->len != 0)
		KEY_PUT(p->data, p->len);
#undef KEY_PUT
	return n;
}

/* The library action of a new entry (zeroed), with its TIR or table. */
static int
mlx5dm_flow_entry_make(struct mlx5dm_flow_priv *fp, const struct mlx5dm_flow_entry_param *p,
		       struct mlx5dm_flow_entry *e)
{
	struct mlx5dm_domain *dom = fp->port.dom[p->dom];
	uint32_t rqns[MLX5DM_FLOW_MAX_QUEUES];
	unsigned int i;
	int ret;

	switch (p->kind) {
	case MLX5DM_FLOW_ENTRY_TIR:
		for (i = 0; i < p->nb_queues; i++) {
			ret = fp->port.rqn(fp->port.rqn_arg, p->queues[i], &rqns[i]);
			if (ret < 0)
				return ret;
		}
		e->tir = mlx5dm_tir_create(fp->port.ctx, rqns, p->nb_queues, p->rss);
		if (e->tir == NULL)
			return -errno;
		e->act = mlx5dm_action_dest_tir(dom, e->tir);
		break;
	case MLX5DM_FLOW_ENTRY_JUMP:
		e->jump = mlx5dm_flow_tbl_get(fp, p->dom, p->u32);
		if (e->jump == NULL)
			return -errno;
		e->act = mlx5dm_action_dest_table(dom, e->jump->t);
		break;
	case MLX5DM_FLOW_ENTRY_DROP:
		e->act = mlx5dm_action_drop(dom);
		break;
	case MLX5DM_FLOW_ENTRY_TAG:
		/* The domain's one tag action: each rule gives its tag. */
		e->act = mlx5dm_action_flow_tags(dom);
		break;
	case MLX5DM_FLOW_ENTRY_MODIFY_SET: {
		/* The entry's field, its data each rule's (mlx5dm_flow_rule_params()). */
		uint8_t prm[MLX5DM_MODIFY_ACTION_SIZE] = { 0 };

		memcpy(prm, p->data, p->len);
		e->act = mlx5dm_action_modify_set(dom, prm);
		break;
	}
	case MLX5DM_FLOW_ENTRY_MODIFY:
		e->act = mlx5dm_action_modify_header(dom, p->len / MLX5DM_MODIFY_ACTION_SIZE,
						     p->data);
		break;
	case MLX5DM_FLOW_ENTRY_REFORMAT:
		e->act = mlx5dm_action_reformat(dom, (enum mlx5dm_reformat_type)p->u32, p->len,
						p->data);
		break;
	case MLX5DM_FLOW_ENTRY_PUSH:
		e->act = mlx5dm_action_push_vlan(dom, p->u32);
		break;
	case MLX5DM_FLOW_ENTRY_POP:
		e->act = mlx5dm_action_pop_vlan(dom);
		break;
	case MLX5DM_FLOW_ENTRY_VPORT:
		e->act = mlx5dm_action_dest_vport(dom, (uint16_t)p->u32);
		break;
	default:
		return -EINVAL;
	}
	if (e->act != NULL)
		return 0;
	ret = -errno;
	if (e->tir != NULL)
		mlx5dm_tir_destroy(e->tir);
	if (e->jump != NULL)
		mlx5dm_flow_tbl_put(fp, e->jump);
	return ret;
}

static struct mlx5dm_flow_cached *
mlx5dm_flow_entry_new(struct mlx5dm_flow_priv *fp, const void *arg, size_t len,
		      uint8_t **key_store)
{
	const struct mlx5dm_flow_entry_param *p = arg;
	struct mlx5dm_flow_entry *e;
	uint8_t cls;
	int ret;

	e = mlx5dm_flow_obj_alloc(fp, sizeof(*e) + len, &cls);
	if (e == NULL)
		return NULL;
	ret = mlx5dm_flow_entry_make(fp, p, e);
	if (ret < 0) {
		/* Per rule while a device resource is full. */
		MLX5DM_LOG_LIMITED(ERR, MLX5DM_FLOW_LOG, "action of kind %d not created: %d",
				   p->kind, ret);
		mlx5dm_flow_obj_free(fp, e, cls);
		errno = -ret;
		return NULL;
	}
	e->k.cls = cls;
	e->kind = p->kind;
	e->u32 = p->u32;
	e->data_len = (uint16_t)p->len;
	*key_store = e->key;
	fp->st.entries++;
	return &e->k;
}

struct mlx5dm_flow_entry *
mlx5dm_flow_entry_get(struct mlx5dm_flow_priv *fp, const struct mlx5dm_flow_entry_param *p)
{
	/* Room for the largest key: 64 queues + RSS, or a full 64-entry modify list. */
	uint8_t key[1024];
	size_t len = mlx5dm_flow_entry_key(p, key, sizeof(key));

	if (len == 0) {
		errno = EINVAL;
		return NULL;
	}
	return (struct mlx5dm_flow_entry *)mlx5dm_flow_cache_get(fp, &fp->entries, key, len,
								 mlx5dm_flow_entry_new, p);
}

void
mlx5dm_flow_entry_put(struct mlx5dm_flow_priv *fp, struct mlx5dm_flow_entry *e)
{
	unsigned int q;
	int ret;

	if (!mlx5dm_flow_cache_unref(&fp->entries, &e->k))
		return;
	/* Rule writes that still reach the action (doorbell batching) go first, on every queue. */
	for (q = 0; fp->port.ctx != NULL && q < RTE_MAX(fp->port.nb_queues, 1u); q++)
		(void)mlx5dm_queue_flush(fp->port.ctx, (uint16_t)q);
	ret = mlx5dm_action_destroy(e->act);
	if (ret < 0)
		MLX5DM_LOG(ERR, MLX5DM_FLOW_LOG, "action not destroyed: %d", ret);
	if (e->tir != NULL)
		mlx5dm_tir_destroy(e->tir);
	if (e->jump != NULL)
		mlx5dm_flow_tbl_put(fp, e->jump);
	mlx5dm_flow_obj_free(fp, e, e->k.cls);
	fp->st.entries--;
}
