/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The FDB domain of an E-Switch manager (rdma-core providers/mlx5/
 * dr_domain.c, dr_table.c, dr_matcher.c, dr_rule.c with their rx / tx nic
 * parts). The device walks an FDB flow table from two roots: frames from
 * the wire enter its RX side, frames a function sends its TX side. So
 * every FDB object is a pair of side objects, each an ordinary object of
 * its side's domain (struct mlx5dm_domain.half[]), with the side's
 * direction, default (the manager's vport entry) and drop address:
 *
 *   FDB table   = one flow table object (sw_owner_icm_root_0 = the RX
 *                 side's start anchor, _1 = the TX side's) + two side tables
 *   FDB matcher = a matcher on each side table
 *   FDB rule    = a rule on each side its source port allows: matching
 *                 source_port of the uplink, a frame can only come from
 *                 the wire (RX side); of another vport, only from a
 *                 function (TX side) (rdma-core dr_rule_skip())
 *
 * source_port is matched as the device stamps the frame: the SRC_QP_GVMI
 * lookup compares source_gvmi with the vhca_id of the vport's function
 * (0 for the wire), read with QUERY_ESW_VPORT_CONTEXT / QUERY_HCA_CAP
 * other_function (rdma-core dr_ste_v1_build_src_gvmi_qpn_tag()). The
 * rule's value is translated before its side matchers see it.
 *
 * Actions belong to the FDB domain; the destinations differ per side (the
 * RX or TX address of a drop, a vport, a table's anchor), the rest is
 * shared (mlx5dm_fdb_action_side()).
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_prm_match.h"
#include "mlx5dm_prm_vport.h"
#include "mlx5dm_steer_priv.h"

/* Vport numbers whose capabilities an FDB domain keeps once looked up. */
#define MLX5DM_FDB_VPORT_CACHE 256

struct mlx5dm_fdb_vports {
	uint8_t known[MLX5DM_FDB_VPORT_CACHE];   /* atomic: caps[i] is filled */
	struct mlx5dm_vport_caps caps[MLX5DM_FDB_VPORT_CACHE];
};

static const enum mlx5dm_ste_dir mlx5dm_fdb_dirs[2] = { MLX5DM_STE_DIR_RX, MLX5DM_STE_DIR_TX };

int
mlx5dm_fdb_vport_get(struct mlx5dm_domain *dom, uint16_t num, struct mlx5dm_vport_caps *vc)
{
	struct mlx5dm_ctx *ctx = dom->ctx;
	struct mlx5dm_fdb_vports *v = dom->vports;
	int ret;

	if (num == MLX5DM_VPORT_UPLINK) {
		*vc = ctx->caps.fdb.uplink;
		return 0;
	}
	if (num < MLX5DM_FDB_VPORT_CACHE && __atomic_load_n(&v->known[num], __ATOMIC_ACQUIRE)) {
		*vc = v->caps[num];
		return 0;
	}
	ret = mlx5dm_caps_vport(ctx->dev, &ctx->caps, num, vc);
	if (ret < 0) {
		MLX5DM_LOG(ERR, MLX5DM_STEER_LOG, "FDB: vport %u is no vport of the e-switch (%d)",
			   num, ret);
		return ret == -EIO ? -EINVAL : ret;
	}
	if (num < MLX5DM_FDB_VPORT_CACHE) {
		mlx5dm_spinlock_lock(&ctx->lock);
		v->caps[num] = *vc;
		__atomic_store_n(&v->known[num], 1, __ATOMIC_RELEASE);
		mlx5dm_spinlock_unlock(&ctx->lock);
	}
	return 0;
}

unsigned int
mlx5dm_fdb_vports_each(struct mlx5dm_domain *dom,
		       void (*cb)(void *arg, const struct mlx5dm_vport_caps *vc), void *arg)
{
	const struct mlx5dm_fdb_caps *fdb = &dom->ctx->caps.fdb;
	struct mlx5dm_fdb_vports *v = dom->vports;
	unsigned int i, n = 2;

	if (cb != NULL)
		cb(arg, &fdb->manager);
	for (i = 0; i < MLX5DM_FDB_VPORT_CACHE; i++) {
		if (i == fdb->manager.num || !__atomic_load_n(&v->known[i], __ATOMIC_ACQUIRE))
			continue;
		if (cb != NULL)
			cb(arg, &v->caps[i]);
		n++;
	}
	if (cb != NULL)
		cb(arg, &fdb->uplink);
	return n;
}

/* ---- domain ---- */

static void
mlx5dm_fdb_domain_free(struct mlx5dm_domain *dom)
{
	unsigned int i;

	for (i = 0; i < 2; i++)
		mlx5dm_free(dom->half[i]);
	mlx5dm_free(dom->vports);
	mlx5dm_free(dom);
}

struct mlx5dm_domain *
mlx5dm_fdb_domain_create(struct mlx5dm_ctx *ctx)
{
	const struct mlx5dm_fdb_caps *fdb = &ctx->caps.fdb;
	struct mlx5dm_domain *dom, *side;
	unsigned int i;

	if (!fdb->sw_owner) {
		MLX5DM_LOG(ERR, MLX5DM_STEER_LOG,
			   "FDB: the device manages no e-switch with SW-owned FDB tables");
		errno = ENOTSUP;
		return NULL;
	}
	dom = mlx5dm_zmalloc_socket(sizeof(*dom), ctx->dev->socket);
	if (dom == NULL)
		goto nomem;
	dom->vports = mlx5dm_zmalloc_socket(sizeof(*dom->vports), ctx->dev->socket);
	if (dom->vports == NULL)
		goto nomem;
	dom->ctx = ctx;
	dom->type = MLX5DM_DOMAIN_FDB;
	dom->ste_caps = ctx->caps.ste;
	dom->ste_caps.source_gvmi = true;
	LIST_INIT(&dom->tables);
	for (i = 0; i < 2; i++) {
		side = mlx5dm_zmalloc_socket(sizeof(*side), ctx->dev->socket);
		if (side == NULL)
			goto nomem;
		dom->half[i] = side;
		side->ctx = ctx;
		side->type = MLX5DM_DOMAIN_FDB;
		side->dir = mlx5dm_fdb_dirs[i];
		side->ste_caps = dom->ste_caps;
		side->top = dom;
		LIST_INIT(&side->tables);
		/* A frame that misses the FDB goes to the manager's vport (SWS 1.2). */
		side->default_icm = i == 0 ? fdb->manager.icm_rx : fdb->manager.icm_tx;
		side->drop_icm = i == 0 ? fdb->drop_icm_rx : fdb->drop_icm_tx;
	}
	/* Its own addresses and direction are its RX side's (modify lists are shared). */
	dom->dir = MLX5DM_STE_DIR_RX;
	dom->default_icm = dom->half[0]->default_icm;
	dom->drop_icm = dom->half[0]->drop_icm;
	mlx5dm_res_root_init(&dom->root, &ctx->res, MLX5DM_DOMAIN_FDB, 0);
	mlx5dm_spinlock_lock(&ctx->lock);
	LIST_INSERT_HEAD(&ctx->domains, dom, next);
	mlx5dm_spinlock_unlock(&ctx->lock);
	return dom;
nomem:
	if (dom != NULL)
		mlx5dm_fdb_domain_free(dom);
	errno = ENOMEM;
	return NULL;
}

int
mlx5dm_fdb_domain_destroy(struct mlx5dm_domain *dom)
{
	int ret = mlx5dm_domain_unlist(dom);

	if (ret == 0)
		mlx5dm_fdb_domain_free(dom);
	return ret;
}

/* ---- tables ---- */

void
mlx5dm_fdb_table_free(struct mlx5dm_table *tbl)
{
	unsigned int i;

	for (i = 0; i < 2; i++)
		if (tbl->half[i] != NULL)
			mlx5dm_table_side_free(tbl->half[i]);
	mlx5dm_spinlock_destroy(&tbl->anchor_lock);
	mlx5dm_free(tbl);
}

struct mlx5dm_table *
mlx5dm_fdb_table_new(struct mlx5dm_domain *dom, uint32_t level)
{
	struct mlx5dm_ctx *ctx = dom->ctx;
	struct mlx5dm_table *tbl;
	unsigned int i;
	int ret;

	tbl = mlx5dm_zmalloc_socket(sizeof(*tbl), ctx->dev->socket);
	if (tbl == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	tbl->dom = dom;
	tbl->level = level;
	TAILQ_INIT(&tbl->matchers);
	mlx5dm_spinlock_init(&tbl->anchor_lock);
	/* Both anchors written and drained before the firmware learns of them. */
	for (i = 0; i < 2; i++) {
		tbl->half[i] = mlx5dm_table_side_new(dom->half[i], level);
		if (tbl->half[i] == NULL) {
			ret = -errno;
			goto free_tbl;
		}
	}
	ret = mlx5dm_res_ft_create(&ctx->res, MLX5DM_DOMAIN_FDB, ctx->caps.fdb.max_ft_level - 1u,
				   mlx5dm_ste_icm(tbl->half[0]->s_anchor),
				   mlx5dm_ste_icm(tbl->half[1]->s_anchor), &tbl->ft);
	if (ret < 0)
		goto free_tbl;
	tbl->ft_id = mlx5dm_res_ft_id(tbl->ft);
	for (i = 0; i < 2; i++)
		tbl->half[i]->ft_id = tbl->ft_id;
	return tbl;
free_tbl:
	mlx5dm_fdb_table_free(tbl);
	errno = -ret;
	return NULL;
}

/* ---- matchers ---- */

int
mlx5dm_fdb_mask_check(const uint8_t *mask, uint8_t criteria, const char **err_field)
{
	uint32_t port;

	if (!(criteria & MLX5DM_FTE_CRITERIA(misc)))
		return 0;
	port = mlx5dm_fte_get(mask, MLX5DM_FTE(misc, source_port));
	if (port == 0 || port == 0xffff)
		return 0;
	MLX5DM_LOG(ERR, MLX5DM_STEER_LOG, "FDB: source_port mask 0x%x: a port is matched whole",
		   port);
	if (err_field != NULL)
		*err_field = "misc.source_port";
	return -EOPNOTSUPP;
}

struct mlx5dm_matcher *
mlx5dm_fdb_matcher_create(struct mlx5dm_table *tbl, const struct mlx5dm_matcher_attr *attr,
			  const char **err_field)
{
	struct mlx5dm_ctx *ctx = tbl->dom->ctx;
	struct mlx5dm_matcher *m, *pos;
	unsigned int i;
	int ret;

	ret = mlx5dm_fdb_mask_check(attr->mask, attr->criteria, err_field);
	if (ret < 0) {
		errno = -ret;
		return NULL;
	}
	m = mlx5dm_matcher_alloc(tbl, attr);
	if (m == NULL)
		return NULL;
	mlx5dm_spinlock_init(&m->fdb_lock);
	for (i = 0; i < 2; i++) {
		m->half[i] = mlx5dm_matcher_create(tbl->half[i], attr, err_field);
		if (m->half[i] == NULL) {
			ret = -errno;
			goto undo;
		}
	}
	m->nb_builders = m->half[0]->nb_builders;
	mlx5dm_spinlock_lock(&ctx->lock);
	TAILQ_FOREACH(pos, &tbl->matchers, next) {
		if (pos->priority > m->priority)
			break;
	}
	if (pos != NULL)
		TAILQ_INSERT_BEFORE(pos, m, next);
	else
		TAILQ_INSERT_TAIL(&tbl->matchers, m, next);
	ctx->n_matchers++;
	mlx5dm_spinlock_unlock(&ctx->lock);
	return m;
undo:
	while (i-- > 0)
		(void)mlx5dm_matcher_destroy(m->half[i]);
	mlx5dm_spinlock_destroy(&m->fdb_lock);
	mlx5dm_free(m);
	errno = -ret;
	return NULL;
}

int
mlx5dm_fdb_matcher_destroy(struct mlx5dm_matcher *m)
{
	struct mlx5dm_ctx *ctx = m->tbl->dom->ctx;
	int ret;

	if (__atomic_load_n(&m->cnt.rules, __ATOMIC_ACQUIRE) != 0)
		return -EBUSY;
	/* TX first: a matcher whose TX side is gone still is an FDB matcher (half[RX]). */
	if (m->half[1] != NULL) {
		ret = mlx5dm_matcher_destroy(m->half[1]);
		if (ret < 0)
			return ret;
		m->half[1] = NULL;
	}
	ret = mlx5dm_matcher_destroy(m->half[0]);
	if (ret < 0)
		return ret;
	mlx5dm_spinlock_lock(&ctx->lock);
	TAILQ_REMOVE(&m->tbl->matchers, m, next);
	ctx->n_matchers--;
	mlx5dm_spinlock_unlock(&ctx->lock);
	mlx5dm_spinlock_destroy(&m->fdb_lock);
	mlx5dm_free(m);
	return 0;
}

int
mlx5dm_fdb_matcher_stats(struct mlx5dm_matcher *m, struct mlx5dm_matcher_stats *st)
{
	struct mlx5dm_matcher_stats s;
	unsigned int i;
	int ret;

	memset(st, 0, sizeof(*st));
	for (i = 0; i < 2; i++) {
		if (m->half[i] == NULL)
			continue;
		ret = mlx5dm_matcher_stats_get(m->half[i], &s);
		if (ret < 0)
			return ret;
		st->tables += s.tables;
		st->entries += s.entries;
		st->used += s.used;
		st->collisions += s.collisions;
		st->chained_tables += s.chained_tables;
		st->growing += s.growing;
		st->growths += s.growths;
		st->shards = s.shards;
		st->shard_rules_max = MLX5DM_MAX(st->shard_rules_max, s.shard_rules_max);
	}
	st->rules = __atomic_load_n(&m->cnt.rules, __ATOMIC_ACQUIRE);
	return 0;
}

/* ---- rules ---- */

/*
 * The sides a rule of value goes into (rdma-core dr_rule_skip()) and its
 * value for them, v: source_port made the vport's vhca_id.
 */
static int
mlx5dm_fdb_rule_sides(struct mlx5dm_matcher *m, const uint8_t *value, uint8_t *v, bool side[2])
{
	struct mlx5dm_vport_caps vc;
	uint32_t port;
	int ret;

	memcpy(v, value, MLX5DM_MATCH_PARAM_SIZE);
	side[0] = true;
	side[1] = true;
	if (!(m->criteria & MLX5DM_FTE_CRITERIA(misc)) ||
	    mlx5dm_fte_get(m->mask, MLX5DM_FTE(misc, source_port)) == 0)
		return 0;
	port = mlx5dm_fte_get(value, MLX5DM_FTE(misc, source_port));
	side[0] = port == MLX5DM_VPORT_UPLINK;
	side[1] = !side[0];
	ret = mlx5dm_fdb_vport_get(m->tbl->dom, (uint16_t)port, &vc);
	if (ret < 0)
		return ret;
	mlx5dm_fte_set(v, MLX5DM_FTE(misc, source_port), vc.vport_gvmi);
	return 0;
}

int
mlx5dm_fdb_rule_prepare(struct mlx5dm_matcher *m, const uint8_t *value,
			struct mlx5dm_rule_prep *prep)
{
	_Static_assert(sizeof(prep->ste) >= MLX5DM_MATCH_PARAM_SIZE, "an FDB prep keeps the value");
	/* Nothing to load ahead: the sides' preparation comes with the create. */
	memcpy(prep->ste, value, MLX5DM_MATCH_PARAM_SIZE);
	prep->matcher = m;
	prep->root = NULL;
	return 0;
}

/* An FDB rule counts once, in its matcher and on the queue that inserted it. */
static void
mlx5dm_fdb_queue_count(struct mlx5dm_matcher *m, uint16_t queue, int delta)
{
	struct mlx5dm_queue *q = &m->tbl->dom->ctx->queues[queue];

	__atomic_fetch_add(&m->cnt.rules, delta, __ATOMIC_RELEASE);
	mlx5dm_spinlock_lock(&q->lock);
	q->n_rules += delta;
	mlx5dm_spinlock_unlock(&q->lock);
}

/* Hold (hold false: release) room for a kept write on queue's ring (mlx5dm_send_kept_hold()). */
static int
mlx5dm_fdb_kept_hold(struct mlx5dm_matcher *m, uint16_t queue, bool hold)
{
	struct mlx5dm_queue *q = &m->tbl->dom->ctx->queues[queue];
	int ret = 0;

	mlx5dm_spinlock_lock(&q->lock);
	if (hold)
		ret = mlx5dm_send_kept_hold(q->ring);
	else
		mlx5dm_send_kept_release(q->ring);
	mlx5dm_spinlock_unlock(&q->lock);
	return ret;
}

struct mlx5dm_rule *
mlx5dm_fdb_rule_create(struct mlx5dm_matcher *m, uint16_t queue, const uint8_t *value,
		       size_t nb_actions, struct mlx5dm_action *const actions[],
		       const uint32_t args[])
{
	uint8_t v[MLX5DM_MATCH_PARAM_SIZE];
	struct mlx5dm_rule_prep prep;
	struct mlx5dm_rule *rule;
	const char *field = NULL;
	bool side[2], held;
	unsigned int i;
	int ret;

	if (value == NULL || queue >= m->tbl->dom->ctx->nb_queues) {
		errno = EINVAL;
		return NULL;
	}
	ret = mlx5dm_ste_check_value(m->mask, value, m->criteria, &field);
	if (ret == 0)
		ret = mlx5dm_fdb_rule_sides(m, value, v, side);
	if (ret < 0) {
		if (field != NULL)
			MLX5DM_LOG(ERR, MLX5DM_STEER_LOG, "rule value: %s outside the mask",
				   field);
		errno = -ret;
		return NULL;
	}
	rule = mlx5dm_zmalloc_socket(sizeof(*rule) + 4 * sizeof(rule->refs[0]),
				     m->tbl->dom->ctx->dev->socket);
	if (rule == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	rule->matcher = m;
	/*
	 * Two sides: should the second fail, the first is undone with a kept
	 * write, maybe on a ring in error where other such undos took the
	 * room the ring keeps: room for this one is held from the start.
	 */
	held = side[0] && side[1];
	if (held) {
		ret = mlx5dm_fdb_kept_hold(m, queue, true);
		if (ret < 0) {
			mlx5dm_free(rule);
			errno = -ret;
			return NULL;
		}
	}
	for (i = 0; i < 2; i++) {
		if (!side[i])
			continue;
		ret = mlx5dm_rule_prepare(m->half[i], v, &prep);
		if (ret == 0) {
			rule->refs[i] = mlx5dm_rule_create_prepared_args(&prep, queue, nb_actions,
									 actions, args);
			if (rule->refs[i] == NULL)
				ret = -errno;
		}
		if (ret < 0)
			goto undo;
	}
	mlx5dm_spinlock_lock(&m->fdb_lock);
	rule->refs[3] = m->fdb_rules;
	if (m->fdb_rules != NULL)
		m->fdb_rules->refs[2] = rule;
	m->fdb_rules = rule;
	mlx5dm_spinlock_unlock(&m->fdb_lock);
	mlx5dm_fdb_queue_count(m, queue, 1);
	if (held)
		(void)mlx5dm_fdb_kept_hold(m, queue, false);
	return rule;
undo:
	while (i-- > 0)
		if (rule->refs[i] != NULL)
			mlx5dm_rule_discard(rule->refs[i], queue);
	if (held)
		(void)mlx5dm_fdb_kept_hold(m, queue, false);
	mlx5dm_free(rule);
	errno = -ret;
	return NULL;
}

int
mlx5dm_fdb_rule_destroy(struct mlx5dm_rule *rule, uint16_t queue)
{
	struct mlx5dm_rule *prev = rule->refs[2], *next = rule->refs[3];
	struct mlx5dm_matcher *m = rule->matcher;
	unsigned int i;
	int ret = 0, r;

	if (queue >= m->tbl->dom->ctx->nb_queues)
		return -EINVAL;
	/* Out of the list first: a dump holding the list sees whole rules only. */
	mlx5dm_spinlock_lock(&m->fdb_lock);
	if (prev != NULL)
		prev->refs[3] = next;
	else
		m->fdb_rules = next;
	if (next != NULL)
		next->refs[2] = prev;
	mlx5dm_spinlock_unlock(&m->fdb_lock);
	/*
	 * A side left as it was (-ETIMEDOUT; -EIO, its ring known to be in
	 * error) keeps the rule, listed again with the side that is left, for
	 * another destroy.
	 */
	for (i = 0; i < 2; i++) {
		if (rule->refs[i] == NULL)
			continue;
		r = mlx5dm_rule_destroy(rule->refs[i], queue);
		if (r == 0)
			rule->refs[i] = NULL;
		else if (ret == 0)
			ret = r;
	}
	if (ret < 0) {
		mlx5dm_spinlock_lock(&m->fdb_lock);
		rule->refs[2] = NULL;
		rule->refs[3] = m->fdb_rules;
		if (m->fdb_rules != NULL)
			m->fdb_rules->refs[2] = rule;
		m->fdb_rules = rule;
		mlx5dm_spinlock_unlock(&m->fdb_lock);
		return ret;
	}
	mlx5dm_fdb_queue_count(m, queue, -1);
	mlx5dm_free(rule);
	return ret;
}

/* ---- actions ---- */

void
mlx5dm_fdb_action_init(struct mlx5dm_action *a)
{
	struct mlx5dm_domain *dom = a->dom;

	switch (a->kind) {
	case MLX5DM_ACT_DROP:
		a->fdb_icm_tx = dom->half[1]->drop_icm;
		break;
	case MLX5DM_ACT_DEFAULT_MISS:
		a->fdb_icm_tx = dom->half[1]->default_icm;
		break;
	case MLX5DM_ACT_DEST_TABLE:
		a->ste.icm_addr = mlx5dm_ste_icm(a->dest_tbl->half[0]->s_anchor);
		a->fdb_icm_tx = mlx5dm_ste_icm(a->dest_tbl->half[1]->s_anchor);
		break;
	default:
		/* A vport's addresses are its creator's; the other kinds are the same on both. */
		break;
	}
}

void
mlx5dm_fdb_action_side(const struct mlx5dm_action *a, enum mlx5dm_ste_dir dir,
		       struct mlx5dm_ste_action *out)
{
	*out = a->ste;
	if (dir != MLX5DM_STE_DIR_TX)
		return;
	switch (a->kind) {
	case MLX5DM_ACT_DROP:
	case MLX5DM_ACT_DEFAULT_MISS:
	case MLX5DM_ACT_DEST_TABLE:
		out->icm_addr = a->fdb_icm_tx;
		break;
	case MLX5DM_ACT_DEST_VPORT:
		out->vport.icm_addr = a->fdb_icm_tx;
		break;
	default:
		break;
	}
}
