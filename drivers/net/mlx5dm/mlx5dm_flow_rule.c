/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * A spec -> rte_flow handle: a library rule per sub-rule, its actions in
 * device order (counter, tag, decap, pops, modify, pushes, encap, fate).
 * Objects are found under fp->lock, rules inserted without it on the
 * caller's rule queue. A failure leaves nothing behind.
 */

#include <errno.h>
#include <string.h>

#include <rte_pause.h>

#include "mlx5dm_flow.h"
#include "mlx5dm_osdep.h"

void
mlx5dm_flow_priv_init(struct mlx5dm_flow_priv *fp, int socket)
{
	/* The caches' indexes are empty when zeroed. */
	memset(fp, 0, sizeof(*fp));
	rte_spinlock_init(&fp->lock);
	rte_spinlock_init(&fp->any_lock);
	fp->socket = socket;
	mlx5dm_index_set_socket(&fp->tbls, socket);
	mlx5dm_index_set_socket(&fp->matchers, socket);
	mlx5dm_index_set_socket(&fp->entries, socket);
	mlx5dm_index_set_socket(&fp->action_sets, socket);
	mlx5dm_index_set_socket(&fp->shapes, socket);
	mlx5dm_flow_pool_init(&fp->pool, socket);
	LIST_INIT(&fp->bulks);
}

int
mlx5dm_flow_not_started(struct rte_flow_error *error)
{
	/* Not a retry: rules exist on a started port only (ENODEV, as DPDK's mlx5 says). */
	return rte_flow_error_set(error, ENODEV, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
				  "the port is not started: create flows after starting it");
}

static int
mlx5dm_flow_lib_err(struct rte_flow_error *error, int err, const char *msg)
{
	return rte_flow_error_set(error, err != 0 ? err : EIO, RTE_FLOW_ERROR_TYPE_UNSPECIFIED,
				  NULL, msg);
}

/* The domain of the caches (0 NIC RX, 1 NIC TX, the FDB) a rule's objects are of. */
static inline unsigned int
mlx5dm_flow_spec_dom(const struct mlx5dm_flow_spec *spec)
{
	return MLX5DM_UNLIKELY(spec->transfer) ? MLX5DM_FLOW_DOM_FDB : spec->egress;
}

/*
 * The shared actions of sub-rule i, in device order, and their arguments
 * (zeroed by the caller): the tag, a 32-bit set's data.
 */
static unsigned int
mlx5dm_flow_rule_params(const struct mlx5dm_flow_spec *spec, unsigned int i,
			struct mlx5dm_flow_entry_param *p, uint32_t *args)
{
	const struct mlx5dm_flow_sub *s = &spec->sub[i];
	unsigned int dom = mlx5dm_flow_spec_dom(spec), n = 0, k;

#define PARAM(k, ...) (p[n++] = (struct mlx5dm_flow_entry_param){ \
		.kind = MLX5DM_FLOW_ENTRY_##k, .dom = dom, __VA_ARGS__ })
	/* The tag is the rule's argument, not a parameter: many ids share one set. */
	if (spec->tag) {
		args[n] = spec->tag_value;
		PARAM(TAG);
	}
	if (spec->decap)
		PARAM(REFORMAT, .u32 = spec->decap_type, .data = spec->decap_data,
		      .len = spec->decap_len);
	for (k = 0; k < spec->nb_pop; k++)
		PARAM(POP);
	/* One 32-bit set: its field only (the data is the rule's argument). */
	if (spec->nb_modify == 1 && mlx5dm_flow_modify_is_set32(spec->modify, &args[n]))
		PARAM(MODIFY_SET, .data = spec->modify,
		      .len = MLX5DM_MODIFY_ACTION_SIZE - MLX5DM_MODIFY_ARG_SIZE);
	else if (spec->nb_modify != 0)
		PARAM(MODIFY, .data = spec->modify,
		      .len = (size_t)spec->nb_modify * MLX5DM_MODIFY_ACTION_SIZE);
	for (k = 0; k < spec->nb_push; k++)
		PARAM(PUSH, .u32 = (uint32_t)spec->push[k].tpid << 16 | spec->push[k].tci);
	if (spec->encap)
		PARAM(REFORMAT, .u32 = spec->encap_type, .data = spec->encap_data,
		      .len = spec->encap_len);
	if (spec->fate == MLX5DM_FLOW_FATE_DROP)
		PARAM(DROP);
	else if (spec->fate == MLX5DM_FLOW_FATE_JUMP)
		PARAM(JUMP, .u32 = spec->jump_group);
	else if (spec->fate == MLX5DM_FLOW_FATE_VPORT)
		PARAM(VPORT, .u32 = spec->dest_vport);
	else if (spec->fate == MLX5DM_FLOW_FATE_QUEUE) /* no hash: to the first queue */
		PARAM(TIR, .queues = spec->queues, .nb_queues = s->hash ? spec->nb_queues : 1,
		      .rss = s->hash ? &s->rss : NULL);
#undef PARAM
	return n;
}

/*
 * 0, or a negative errno with the rule kept by the library, steering:
 * -ETIMEDOUT (another queue's writes pending), -EIO (the rule queue is in
 * error: mlx5dm_queue_recover() first).
 */
static int
mlx5dm_flow_rule_remove(struct mlx5dm_flow_rule *r, uint16_t queue)
{
	int ret = r->rule != NULL ? mlx5dm_rule_destroy(r->rule, queue) : 0;

	if (ret == 0)
		r->rule = NULL;
	return ret;
}

int
mlx5dm_flow_queue_recover(struct mlx5dm_flow_priv *fp, uint16_t queue)
{
	int ret = mlx5dm_queue_recover(fp->port.ctx, queue);

	if (ret < 0)
		MLX5DM_LOG(ERR, "flow", "rule queue %u in error not brought back: %d", queue, ret);
	return ret;
}

/*
 * A created sub-rule of a flow whose creation failed goes. The failure
 * may be the rule queue's (EIO), which refuses the destroy: the queue is
 * brought back first (the rule's own writes may be lost: the destroy
 * writes its slot chain as the library holds it).
 */
static void
mlx5dm_flow_rule_undo(struct mlx5dm_flow_priv *fp, struct mlx5dm_flow_rule *r, uint16_t queue)
{
	int ret = mlx5dm_flow_rule_remove(r, queue);

	if (ret == -EIO && mlx5dm_flow_queue_recover(fp, queue) == 0)
		ret = mlx5dm_flow_rule_remove(r, queue);
	if (ret < 0)
		MLX5DM_LOG(ERR, "flow", "rule of a failed flow not destroyed: %d", ret);
}

/* Sub-rule i's matcher, of its mask and criteria; NULL with error. */
static struct mlx5dm_flow_matcher *
mlx5dm_flow_rule_matcher(struct mlx5dm_flow_priv *fp, const struct mlx5dm_flow_spec *spec,
			 unsigned int i, const uint8_t *mask, uint8_t criteria,
			 struct rte_flow_error *error)
{
	const char *err_field = NULL;
	struct mlx5dm_flow_matcher *m;
	int err;

	m = mlx5dm_flow_matcher_get(fp, MLX5DM_UNLIKELY(spec->table_dom != 0) ?
				    spec->table_dom : mlx5dm_flow_spec_dom(spec), spec->group,
				    mlx5dm_flow_sub_priority(spec, i), criteria, mask, 0,
				    &err_field);
	if (m == NULL) {
		err = errno;
		if (err_field != NULL)
			MLX5DM_LOG(ERR, "flow", "matcher refused field %s", err_field);
		mlx5dm_flow_lib_err(error, err, err == EOPNOTSUPP ?
				    "steering library: the device cannot match this pattern" :
				    "steering library: table or matcher creation failed");
	}
	return m;
}

/*
 * Library rule i's action list into b: the flow's counter first, then set
 * s's actions with their arguments set_args (counter, tag and a 32-bit
 * set take one; the others ignore theirs). 0 or -rte_errno with error.
 */
static int
mlx5dm_flow_rule_list(struct mlx5dm_flow_priv *fp, struct rte_flow *flow,
		      struct mlx5dm_flow_action_set *s, const uint32_t *set_args, unsigned int i,
		      struct mlx5dm_flow_build *b, struct rte_flow_error *error)
{
	struct mlx5dm_action **acts = b->acts[i];
	uint32_t *args = b->args[i];
	unsigned int k, n = 0;

	if (flow->cnt != 0)
		acts[n++] = mlx5dm_flow_cnt_action(fp, flow->cnt, flow->dom, &args[0]);
	memcpy(&args[n], set_args, (RTE_DIM(b->args[i]) - n) * sizeof(args[0]));
	for (k = 0; k < s->nb; k++)
		acts[n++] = s->acts[k];
	b->n[i] = (uint8_t)n;
	/*
	 * The set's library template, made by its first rule (a counter first:
	 * the other); released, for mlx5dm_flow_objs_quick() reads it unlocked.
	 */
	k = flow->cnt != 0;
	if (MLX5DM_UNLIKELY(s->tmpl[k] == NULL))
		__atomic_store_n(&s->tmpl[k], mlx5dm_action_tmpl_create(s->matcher->m, n, acts),
				 __ATOMIC_RELEASE);
	b->tmpl[i] = s->tmpl[k];
	if (b->tmpl[i] == NULL)
		return mlx5dm_flow_lib_err(error, errno, "steering library: action template "
					   "creation failed");
	return 0;
}

/*
 * Sub-rule i into the flow's rule i and b: its matcher (b->m[i]) and a
 * copy of its value (the prepare comes with the insert, as a caller may
 * still add to the value: the FDB's source SQ), its action set, and the
 * actions and arguments of its library rule.
 */
static int
mlx5dm_flow_rule_acts(struct mlx5dm_flow_priv *fp, const struct mlx5dm_flow_spec *spec,
		      unsigned int i, struct rte_flow *flow, struct mlx5dm_flow_build *b,
		      struct rte_flow_error *error)
{
	struct mlx5dm_flow_entry_param p[MLX5DM_FLOW_RULE_MAX_ENTRIES];
	uint32_t set_args[MLX5DM_RULE_MAX_ACTIONS] = { 0 };
	struct mlx5dm_flow_rule *r = &flow->rules[i];
	const uint8_t *mask = spec->mask;
	uint8_t criteria = spec->criteria;
	struct mlx5dm_flow_matcher *m;
	int err;

	/* The value straight into b; the mask of a sub-rule with an extra match too. */
	if (MLX5DM_LIKELY(mlx5dm_flow_sub_plain(&spec->sub[i]))) {
		memcpy(b->value[i], spec->value, MLX5DM_MATCH_PARAM_SIZE);
	} else {
		mlx5dm_flow_sub_match(spec, i, b->mask, b->value[i], &criteria);
		mask = b->mask;
	}
	m = mlx5dm_flow_rule_matcher(fp, spec, i, mask, criteria, error);
	if (m == NULL)
		return -rte_errno;
	b->m[i] = m->m;
	r->rule = NULL;
	r->action_set = mlx5dm_flow_action_set_get(fp, m, p,
						   mlx5dm_flow_rule_params(spec, i, p, set_args));
	err = errno;
	/* The set holds its matcher: ours goes (with the matcher if the set failed). */
	mlx5dm_flow_matcher_put(fp, m);
	if (r->action_set == NULL)
		return mlx5dm_flow_lib_err(error, err, "steering library: action creation failed");
	if (mlx5dm_flow_rule_list(fp, flow, r->action_set, set_args, i, b, error) < 0) {
		/* Not counted in flow->nb_rules yet: the release would not put the set. */
		mlx5dm_flow_action_set_put(fp, r->action_set);
		r->action_set = NULL;
		return -rte_errno;
	}
	return 0;
}

/* The objects of a flow whose library rules are gone (or never were); fp->lock held. */
static void
mlx5dm_flow_release(struct mlx5dm_flow_priv *fp, struct rte_flow *flow)
{
	struct mlx5dm_flow_rule *r;

	while (flow->nb_rules > 0) {
		r = &flow->rules[--flow->nb_rules];
		if (r->action_set != NULL && !flow->borrowed)
			mlx5dm_flow_action_set_put(fp, r->action_set);
		r->action_set = NULL;
	}
	if (flow->ct != 0 && !flow->borrowed)
		mlx5dm_flow_compiled_put(fp, fp->compiled[flow->ct]);
	if (flow->cnt_shared)
		mlx5dm_flow_shared_unpin(fp, flow->cnt);
	else if (flow->cnt != 0)
		mlx5dm_flow_cnt_free(fp, flow->cnt);
	mlx5dm_flow_pool_put(&fp->pool, flow);
}

/*
 * A handle for a flow of spec with nb rules (none yet): its domain,
 * template (ct, unless NULL) and counter (indirect COUNT shared's, unless
 * NULL); NULL with error.
 */
static struct rte_flow *
mlx5dm_flow_handle(struct mlx5dm_flow_priv *fp, const struct mlx5dm_flow_spec *spec,
		   struct mlx5dm_flow_compiled *ct, unsigned int nb,
		   const struct rte_flow_action_handle *shared, struct rte_flow_error *error)
{
	struct rte_flow *flow = mlx5dm_flow_pool_get(&fp->pool, nb);
	int ret;

	if (flow == NULL) {
		mlx5dm_flow_lib_err(error, ENOMEM, "no memory for the flow");
		return NULL;
	}
	flow->dom = (uint8_t)mlx5dm_flow_spec_dom(spec);
	if (ct != NULL) {
		flow->ct = ct->id;
		mlx5dm_flow_cached_ref(&ct->k);
	}
	if (spec->count && shared != NULL) {
		flow->cnt = mlx5dm_flow_shared_pin(fp, shared, flow->dom);
		if (flow->cnt == 0) {
			mlx5dm_flow_lib_err(error, EINVAL, "unknown indirect action handle");
			mlx5dm_flow_release(fp, flow);
			return NULL;
		}
		flow->cnt_shared = true;
	} else if (spec->count) {
		ret = mlx5dm_flow_cnt_alloc(fp, flow->dom, &flow->cnt);
		if (ret < 0) {
			mlx5dm_flow_lib_err(error, -ret, "steering library: counter allocation "
					    "failed");
			mlx5dm_flow_release(fp, flow);
			return NULL;
		}
	}
	return flow;
}

int
mlx5dm_flow_objs_begin(struct mlx5dm_flow_priv *fp, const struct mlx5dm_flow_spec *spec,
		       struct mlx5dm_flow_compiled *ct, bool listed, struct mlx5dm_flow_build *b,
		       struct rte_flow_error *error)
{
	struct rte_flow *flow;
	unsigned int i;

	/*
	 * A stop (or start) waiting for operations between their phases lets
	 * no user rule begin (the caller may have let fp->lock go meanwhile).
	 */
	if (listed && (!fp->started || fp->quiescing))
		return mlx5dm_flow_not_started(error);
	flow = mlx5dm_flow_handle(fp, spec, ct, spec->nb_sub + spec->nb_extra, b->shared,
				  error);
	if (flow == NULL)
		return -rte_errno;
	for (i = 0; i < spec->nb_sub; i++) {
		if (mlx5dm_flow_rule_acts(fp, spec, i, flow, b, error) < 0)
			goto release;
		flow->nb_rules++;
	}
	b->flow = flow;
	b->listed = listed;
	fp->inflight++;
	return 0;
release:
	mlx5dm_flow_release(fp, flow);
	return -rte_errno;
}

int
mlx5dm_flow_objs_insert(struct mlx5dm_flow_priv *fp, struct mlx5dm_flow_build *b,
			uint16_t queue, struct rte_flow_error *error)
{
	struct rte_flow *flow = b->flow;
	unsigned int i;
	int err;

	for (i = 0; i < flow->nb_rules; i++) {
		/* A prepare that failed early fails again here, and says why. */
		err = i == 0 && b->prepared ? 0 :
		      -mlx5dm_rule_prepare(b->m[i], b->value[i], &b->prep);
		if (err != 0)
			goto undo;
		flow->rules[i].rule = mlx5dm_rule_create_tmpl(&b->prep, queue, b->tmpl[i],
							      b->acts[i], b->args[i]);
		if (flow->rules[i].rule == NULL) {
			err = errno;
			goto undo;
		}
	}
	return 0;
undo:
	while (i-- > 0)
		mlx5dm_flow_rule_undo(fp, &flow->rules[i], queue);
	return mlx5dm_flow_lib_err(error, err, err == EEXIST ?
				   "an identical rule exists (same group, priority and "
				   "match)" : err == EIO ? "steering library: the device "
				   "failed a rule write (the rule queue is in error)" :
				   "steering library: rule insertion failed");
}

void
mlx5dm_flow_objs_abandon(struct mlx5dm_flow_priv *fp, struct mlx5dm_flow_build *b)
{
	fp->inflight--;
	mlx5dm_flow_release(fp, b->flow);
}

/* Insert and commit under fp->lock, on the caller's queue. */
static struct rte_flow *
mlx5dm_flow_objs_finish(struct mlx5dm_flow_priv *fp, struct mlx5dm_flow_build *b,
			struct rte_flow_error *error)
{
	rte_spinlock_t *qlock;
	uint16_t q = mlx5dm_flow_queue_of(fp, &qlock);
	int ret;

	mlx5dm_flow_queue_lock(qlock);
	ret = mlx5dm_flow_objs_insert(fp, b, q, error);
	if (ret == 0)
		mlx5dm_flow_objs_commit(fp, b, q);
	mlx5dm_flow_queue_unlock(qlock);
	if (ret < 0) {
		mlx5dm_flow_objs_abandon(fp, b);
		return NULL;
	}
	return b->flow;
}

struct rte_flow *
mlx5dm_flow_objs_create(struct mlx5dm_flow_priv *fp, const struct mlx5dm_flow_spec *spec,
			bool listed, struct rte_flow_error *error)
{
	struct mlx5dm_flow_build b;

	mlx5dm_flow_build_init(&b);
	if (mlx5dm_flow_objs_begin(fp, spec, NULL, listed, &b, error) < 0)
		return NULL;
	return mlx5dm_flow_objs_finish(fp, &b, error);
}

/* ---- compiled templates ---- */

/* Let go of the objects ct's rules took (its last rule went). */
static void
mlx5dm_flow_compiled_release(struct mlx5dm_flow_priv *fp, struct mlx5dm_flow_compiled *ct)
{
	unsigned int q;

	for (q = 0; q < RTE_DIM(ct->sets); q++) {
		if (ct->sets[q] != NULL)
			mlx5dm_flow_action_set_put(fp, ct->sets[q]);
		__atomic_store_n(&ct->sets[q], NULL, __ATOMIC_RELAXED);
	}
	if (ct->tag != NULL) {
		mlx5dm_tag_tmpl_destroy(ct->tag);
		fp->st.tags--;
	}
	ct->tag = NULL;
	if (ct->m != NULL)
		mlx5dm_flow_matcher_put(fp, ct->m);
	ct->m = NULL;
}

/* Templates of a port at most (ids in the rules' handles, 0: none). */
#define MLX5DM_FLOW_COMPILED_IDS 4096u

struct mlx5dm_flow_compiled *
mlx5dm_flow_compiled_new(struct mlx5dm_flow_priv *fp)
{
	struct mlx5dm_flow_compiled *ct = mlx5dm_aligned_zmalloc_socket(sizeof(*ct), 64,
									 fp->socket);
	uint32_t id = 1;

	/* The id table is made with the port's first template. */
	if (ct != NULL && fp->compiled == NULL)
		fp->compiled = mlx5dm_calloc_socket(MLX5DM_FLOW_COMPILED_IDS, sizeof(*fp->compiled),
						    fp->socket);
	if (ct == NULL || fp->compiled == NULL) {
		mlx5dm_free(ct);
		errno = ENOMEM;
		return NULL;
	}
	/* A template is made once per shape: a scan is cheap next to the walk compiling it. */
	while (id < MLX5DM_FLOW_COMPILED_IDS && fp->compiled[id] != NULL)
		id++;
	if (id == MLX5DM_FLOW_COMPILED_IDS) {
		mlx5dm_free(ct);
		errno = ENOSPC;
		return NULL;
	}
	fp->compiled[id] = ct;
	ct->id = (uint16_t)id;
	ct->k.refcnt = 1;
	fp->st.templates++;
	return ct;
}

void
mlx5dm_flow_compiled_put(struct mlx5dm_flow_priv *fp, struct mlx5dm_flow_compiled *ct)
{
	/* A table's template keeps its objects (its rules take no reference) until it goes. */
	if (__atomic_sub_fetch(&ct->k.refcnt, 1, __ATOMIC_ACQ_REL) != 0)
		return;
	mlx5dm_flow_compiled_release(fp, ct);
	if (ct->k.key_len != 0)
		(void)mlx5dm_index_remove(&fp->shapes, ct, ct->k.hash);
	fp->compiled[ct->id] = NULL;
	mlx5dm_free(ct);
	if (--fp->st.templates == 0) {
		mlx5dm_free(fp->compiled);
		fp->compiled = NULL;
	}
}

/*
 * A new implicit template under the rule's shape (key, len, h), compiled
 * from the rule, whose translation goes into spec (*ct: the template with
 * one reference, NULL without one).
 */
static int
mlx5dm_flow_implicit_new(struct mlx5dm_flow_priv *fp, const struct mlx5dm_flow_context *ctx,
			 const struct rte_flow_attr *attr, const struct rte_flow_item items[],
			 const struct rte_flow_action actions[], const uint8_t *key, size_t len,
			 uint32_t h, struct mlx5dm_flow_spec *spec,
			 struct mlx5dm_flow_compiled **ct, struct rte_flow_error *error)
{
	int ret;

	*ct = NULL;
	if (len != 0 && mlx5dm_index_reserve(&fp->shapes, 1) == 0)
		*ct = mlx5dm_flow_compiled_new(fp);
	if (*ct == NULL)
		return mlx5dm_flow_translate(ctx, attr, items, actions, spec, error);
	/* Every action value is the rule's: none is fixed. */
	ret = mlx5dm_flow_compile(*ct, ctx, attr, items, actions, 0, spec, error);
	if (ret < 0) {
		mlx5dm_flow_compiled_put(fp, *ct);
		*ct = NULL;
		return ret;
	}
	mlx5dm_flow_cache_insert(&fp->shapes, &(*ct)->k, h, key, len, (*ct)->shape);
	return 0;
}

/* ct's objects for its rules to queue (the one set without a QUEUE of the rule's). */
static struct mlx5dm_flow_action_set *
mlx5dm_flow_compiled_set(struct mlx5dm_flow_priv *fp, struct mlx5dm_flow_compiled *ct,
			 uint16_t queue, struct rte_flow_error *error)
{
	struct mlx5dm_flow_entry_param p[MLX5DM_FLOW_RULE_MAX_ENTRIES];
	unsigned int n, k;

	if (ct->m == NULL) {
		ct->m = mlx5dm_flow_rule_matcher(fp, &ct->res, 0, ct->res.mask, ct->res.criteria,
						 error);
		if (ct->m == NULL)
			return NULL;
		/* Whole-byte setters: the library may take them to the tags (else the value). */
		if (ct->nb_copies == 0)
			ct->tag = mlx5dm_tag_tmpl_create(ct->m->m, ct->res.value, ct->move,
							 ct->nb_moves);
		fp->st.tags += ct->tag != NULL;
	}
	memset(ct->args, 0, sizeof(ct->args));
	n = mlx5dm_flow_rule_params(&ct->res, 0, p, ct->args);
	for (k = 0; k < n; k++)
		if (p[k].kind == MLX5DM_FLOW_ENTRY_TIR && ct->queue_at != 0)
			p[k].queues = &queue;
	/* Released: a quick begin that loads the set sees it made. */
	__atomic_store_n(&ct->sets[queue], mlx5dm_flow_action_set_get(fp, ct->m, p, n),
			 __ATOMIC_RELEASE);
	if (ct->sets[queue] == NULL)
		mlx5dm_flow_lib_err(error, errno, "steering library: action creation failed");
	return ct->sets[queue];
}

/*
 * Rule r of fast template ct prepared (its slot starts loading while the
 * handle and the action list are made): from its items straight into the
 * tags, else through its match value.
 */
static inline void
mlx5dm_flow_compiled_prepare(const struct mlx5dm_flow_compiled *ct,
			     const struct mlx5dm_flow_rule_values *r, struct mlx5dm_flow_build *b)
{
	b->m[0] = ct->m->m;
	if (ct->tag != NULL) {
		b->prepared = mlx5dm_rule_prepare_tag(ct->tag, r->spec, &b->prep) == 0;
		if (b->prepared)
			return;
	}
	mlx5dm_flow_compiled_value(ct, r, b->value[0]);
	b->prepared = mlx5dm_rule_prepare(b->m[0], b->value[0], &b->prep) == 0;
}

/* Flow's rule r of fast template ct with set s, its list into b: the end of either begin. */
static __rte_always_inline int
mlx5dm_flow_fast_rule(struct mlx5dm_flow_priv *fp, struct mlx5dm_flow_compiled *ct,
		      struct mlx5dm_flow_action_set *s, const struct mlx5dm_flow_rule_values *r,
		      struct rte_flow *flow, struct mlx5dm_flow_build *b,
		      struct rte_flow_error *error)
{
	if (mlx5dm_flow_rule_list(fp, flow, s, ct->args, 0, b, error) < 0)
		return -rte_errno;
	/* The tag is the set's first argument, after the counter's. */
	if (ct->mark_at != 0)
		b->args[0][flow->cnt != 0] = r->tag;
	flow->rules[0] = (struct mlx5dm_flow_rule){ .action_set = s };
	if (!flow->borrowed)
		mlx5dm_flow_cached_ref(&s->k);
	flow->nb_rules = 1;
	b->flow = flow;
	b->listed = true;
	b->fast = true;
	return 0;
}

int
mlx5dm_flow_objs_fast(struct mlx5dm_flow_priv *fp, struct mlx5dm_flow_compiled *ct,
		      const struct mlx5dm_flow_rule_values *r, struct mlx5dm_flow_build *b,
		      struct rte_flow_error *error)
{
	const struct mlx5dm_flow_spec *res = &ct->res;
	struct mlx5dm_flow_action_set *s = ct->sets[r->queue];
	struct rte_flow *flow;

	/* A stop (or start) waiting for operations between their phases lets none begin. */
	if (MLX5DM_UNLIKELY(!fp->started || fp->quiescing))
		return mlx5dm_flow_not_started(error);
	if (MLX5DM_UNLIKELY(s == NULL)) {
		s = mlx5dm_flow_compiled_set(fp, ct, r->queue, error);
		if (s == NULL)
			return -rte_errno;
	}
	mlx5dm_flow_compiled_prepare(ct, r, b);
	flow = mlx5dm_flow_handle(fp, res, ct->owned ? NULL : ct, 1, b->shared, error);
	if (flow == NULL)
		return -rte_errno;
	if (ct->owned) {
		flow->ct = ct->id;
		flow->borrowed = true;
	}
	if (mlx5dm_flow_fast_rule(fp, ct, s, r, flow, b, error) < 0) {
		mlx5dm_flow_release(fp, flow);
		return -rte_errno;
	}
	fp->inflight++;
	return 0;
}

/* The lane's spent counters back to their bulks (fp->lock held). */
static void
mlx5dm_flow_lane_spend(struct mlx5dm_flow_priv *fp, struct mlx5dm_flow_lane *l)
{
	while (l->nb_spent != 0) {
		mlx5dm_flow_cnt_free(fp, l->spent[l->nb_spent - 1]);
		__atomic_store_n(&l->nb_spent, l->nb_spent - 1, __ATOMIC_RELAXED);
	}
}

void
mlx5dm_flow_lane_fill(struct mlx5dm_flow_priv *fp, uint16_t queue,
		      const struct mlx5dm_flow_compiled *ct)
{
	struct mlx5dm_flow_lane *l = &fp->lanes[queue];
	unsigned int dom = mlx5dm_flow_spec_dom(&ct->res), i;
	struct rte_flow *f;

	while (l->nb_handles < MLX5DM_FLOW_LANE_TAKE &&
	       (f = mlx5dm_flow_pool_get(&fp->pool, 1)) != NULL) {
		/* Out of the pool (counted live there), not a flow until a quick begin makes it. */
		f->live = 0;
		l->handles[l->nb_handles++] = f;
	}
	mlx5dm_flow_lane_spend(fp, l);
	if (!ct->res.count)
		return;
	/* The lane's counters may have been taken for the other direction's rules. */
	for (i = 0; i < l->nb_cnts; i++)
		if (mlx5dm_flow_cnt_ready(fp, l->cnts[i], dom) < 0)
			return;
	while (l->nb_cnts < MLX5DM_FLOW_LANE_TAKE &&
	       mlx5dm_flow_cnt_alloc(fp, dom, &l->cnts[l->nb_cnts]) == 0)
		__atomic_store_n(&l->nb_cnts, l->nb_cnts + 1, __ATOMIC_RELAXED);
}

/* The lanes' handles and counters back (fp->lock held, no operation pending). */
static void
mlx5dm_flow_lanes_drain(struct mlx5dm_flow_priv *fp)
{
	struct mlx5dm_flow_lane *l;

	for (l = fp->lanes; l < fp->lanes + fp->nb_lanes; l++) {
		while (l->nb_handles != 0)
			mlx5dm_flow_pool_put(&fp->pool, l->handles[--l->nb_handles]);
		while (l->nb_cnts != 0)
			mlx5dm_flow_cnt_free(fp, l->cnts[--l->nb_cnts]);
		mlx5dm_flow_lane_spend(fp, l);
	}
}

int
mlx5dm_flow_objs_quick(struct mlx5dm_flow_priv *fp, struct mlx5dm_flow_compiled *ct,
		       const struct mlx5dm_flow_rule_values *r, struct mlx5dm_flow_build *b,
		       uint16_t queue)
{
	struct mlx5dm_flow_lane *l = &fp->lanes[queue];
	unsigned int dom = mlx5dm_flow_spec_dom(&ct->res);
	bool count = ct->res.count, own = count && b->shared == NULL;
	struct mlx5dm_flow_action_set *s;
	struct rte_flow *flow;
	uint32_t arg, cnt = 0;

	if (!ct->owned || l->nb_handles == 0 || (own && l->nb_cnts == 0))
		return -EAGAIN;
	/* Counted before the port's state is read: a stop beginning now waits for it. */
	__atomic_store_n(&l->begun, l->begun + 1, __ATOMIC_SEQ_CST);
	if (!__atomic_load_n(&fp->started, __ATOMIC_SEQ_CST) ||
	    __atomic_load_n(&fp->quiescing, __ATOMIC_SEQ_CST))
		goto busy;
	/* The table's: made by a locked begin, they stay until the table goes or a stop. */
	s = __atomic_load_n(&ct->sets[r->queue], __ATOMIC_ACQUIRE);
	if (s == NULL || __atomic_load_n(&s->tmpl[count], __ATOMIC_ACQUIRE) == NULL ||
	    (own && mlx5dm_flow_cnt_action(fp, l->cnts[l->nb_cnts - 1], dom, &arg) == NULL))
		goto busy;
	/* Last: a pinned indirect COUNT (its action made with it) stays the rule's. */
	if (count && !own) {
		cnt = mlx5dm_flow_shared_pin(fp, b->shared, dom);
		if (cnt == 0)
			goto busy;
	}
	mlx5dm_flow_compiled_prepare(ct, r, b);
	flow = l->handles[--l->nb_handles];
	/* Template and borrowing before live: a walker under the lock reads them (busy). */
	mlx5dm_flow_handle_init(flow, 1, ct->id, true);
	flow->dom = (uint8_t)dom;
	flow->cnt = cnt;
	flow->cnt_shared = cnt != 0;
	if (own) {
		flow->cnt = l->cnts[l->nb_cnts - 1];
		__atomic_store_n(&l->nb_cnts, l->nb_cnts - 1, __ATOMIC_RELAXED);
	}
	/* The counter's action and the set's template made: the list cannot fail. */
	(void)mlx5dm_flow_fast_rule(fp, ct, s, r, flow, b, NULL);
	return 0;
busy:
	__atomic_store_n(&l->ended, l->ended + 1, __ATOMIC_RELEASE);
	return -EAGAIN;
}

/* One reference on o less, unless it is one of the floor + 1 last (false). */
static bool
mlx5dm_flow_cached_put_held(struct mlx5dm_flow_cached *o, uint32_t floor)
{
	uint32_t refs = __atomic_load_n(&o->refcnt, __ATOMIC_RELAXED);

	do {
		if (refs <= floor + 1)
			return false;
	} while (!__atomic_compare_exchange_n(&o->refcnt, &refs, refs - 1, true,
					      __ATOMIC_RELEASE, __ATOMIC_RELAXED));
	return true;
}

/* Take fp->lock once for the rest of a quick destroy. */
static void
mlx5dm_flow_lock_once(struct mlx5dm_flow_priv *fp, bool *locked)
{
	if (!*locked)
		mlx5dm_flow_lock(&fp->lock);
	*locked = true;
}

int
mlx5dm_flow_objs_quick_destroy(struct mlx5dm_flow_priv *fp, struct rte_flow *flow,
			       uint16_t queue)
{
	struct mlx5dm_flow_lane *l = &fp->lanes[queue];
	struct mlx5dm_flow_compiled *ct;
	struct mlx5dm_flow_action_set *s;
	bool locked = false;
	int ret = -EAGAIN;

	/* Counted before the port's state is read, as a quick begin. */
	__atomic_store_n(&l->begun, l->begun + 1, __ATOMIC_SEQ_CST);
	if (!__atomic_load_n(&fp->started, __ATOMIC_SEQ_CST) ||
	    __atomic_load_n(&fp->quiescing, __ATOMIC_SEQ_CST) ||
	    !mlx5dm_flow_pool_owns(&fp->pool, flow))
		goto end;
	/*
	 * The application's flow: its fields do not change until it is taken
	 * below. A NIC rule: an E-Switch rule may hold its group's tail.
	 */
	if (flow->cls != 1 || flow->nb_rules != 1 || flow->ct == 0 ||
	    flow->dom >= MLX5DM_FLOW_DOM_FDB ||
	    flow->rules[0].action_set == NULL || !mlx5dm_flow_take(flow))
		goto end;
	mlx5dm_flow_lane_add(&l->listed, (uint32_t)-1);
	ret = mlx5dm_flow_objs_remove(flow, queue);
	if (ret < 0) {
		mlx5dm_flow_lane_add(&l->listed, 1);
		mlx5dm_flow_give(flow);
		goto end;
	}
	mlx5dm_flow_lane_add(&l->flows, (uint32_t)-1);
	mlx5dm_flow_lane_add(&l->rules, (uint32_t)-1);
	/* References of a flow not borrowing: a put that would release an object is locked. */
	if (!flow->borrowed) {
		ct = fp->compiled[flow->ct];
		s = flow->rules[0].action_set;
		if (!mlx5dm_flow_cached_put_held(&s->k, 0)) {
			mlx5dm_flow_lock_once(fp, &locked);
			mlx5dm_flow_action_set_put(fp, s);
		}
		if (!mlx5dm_flow_cached_put_held(&ct->k, 0)) {
			mlx5dm_flow_lock_once(fp, &locked);
			mlx5dm_flow_compiled_put(fp, ct);
		}
	}
	if (flow->cnt_shared) {
		mlx5dm_flow_shared_unpin(fp, flow->cnt);
	} else if (flow->cnt != 0) {
		if (l->nb_spent == MLX5DM_FLOW_LANE_TAKE) {
			mlx5dm_flow_lock_once(fp, &locked);
			mlx5dm_flow_lane_spend(fp, l);
		}
		l->spent[l->nb_spent] = flow->cnt;
		__atomic_store_n(&l->nb_spent, l->nb_spent + 1, __ATOMIC_RELAXED);
	}
	/* The handle to the lane, not its free list: a walker under the lock may read it. */
	__atomic_store_n(&flow->live, 0, __ATOMIC_RELEASE);
	if (l->nb_handles == MLX5DM_FLOW_LANE_TAKE) {
		mlx5dm_flow_lock_once(fp, &locked);
		while (l->nb_handles > MLX5DM_FLOW_LANE_TAKE / 2)
			mlx5dm_flow_pool_put(&fp->pool, l->handles[--l->nb_handles]);
	}
	l->handles[l->nb_handles++] = flow;
	if (locked)
		rte_spinlock_unlock(&fp->lock);
end:
	__atomic_store_n(&l->ended, l->ended + 1, __ATOMIC_RELEASE);
	return ret;
}

int
mlx5dm_flow_objs_prepare(struct mlx5dm_flow_priv *fp, struct mlx5dm_flow_context *ctx,
			 struct mlx5dm_flow_compiled *ct, const struct rte_flow_attr *attr,
			 const struct rte_flow_item items[], const struct rte_flow_action actions[],
			 struct mlx5dm_flow_build *b, struct rte_flow_error *error)
{
	uint8_t key[MLX5DM_FLOW_SHAPE_MAX] __rte_aligned(8);
	struct mlx5dm_flow_spec spec;
	struct mlx5dm_flow_rule_values r;
	uint32_t h = 0;
	size_t len = 0;
	int ret;

	/*
	 * The rule has the template's shape: a table's rules are built from its
	 * templates, an implicit one is found by it (and made by its first
	 * rule). The translation holds a reference: a found template outlives
	 * a failure of its rule.
	 */
	if (ct != NULL) {
		mlx5dm_flow_cached_ref(&ct->k);
	} else {
		len = mlx5dm_flow_shape_key(ctx, attr, items, actions, key, &h);
		if (len != 0)
			ct = (struct mlx5dm_flow_compiled *)mlx5dm_flow_cache_find(&fp->shapes,
										   key, len, h);
	}
	if (ct != NULL && ct->fast &&
	    mlx5dm_flow_compiled_rule(ct, ctx->nb_rx_queues, items, actions, &r)) {
		ret = mlx5dm_flow_objs_fast(fp, ct, &r, b, error);
		mlx5dm_flow_compiled_put(fp, ct);
		return ret;
	}
	if (ct == NULL && len != 0)
		ret = mlx5dm_flow_implicit_new(fp, ctx, attr, items, actions, key, len, h, &spec,
					       &ct, error);
	else
		ret = mlx5dm_flow_translate(ctx, attr, items, actions, &spec, error);
	if (ret == 0)
		ret = mlx5dm_flow_objs_begin(fp, &spec, ct, true, b, error);
	if (ct != NULL)
		mlx5dm_flow_compiled_put(fp, ct);
	return ret;
}

struct rte_flow *
mlx5dm_flow_objs_make(struct mlx5dm_flow_priv *fp, struct mlx5dm_flow_context *ctx,
		      struct mlx5dm_flow_compiled *ct, const struct rte_flow_attr *attr,
		      const struct rte_flow_item items[], const struct rte_flow_action actions[],
		      struct rte_flow_error *error)
{
	struct mlx5dm_flow_build b;

	mlx5dm_flow_build_init(&b);
	if (mlx5dm_flow_objs_prepare(fp, ctx, ct, attr, items, actions, &b, error) < 0)
		return NULL;
	return mlx5dm_flow_objs_finish(fp, &b, error);
}

/* A flow the library kept whole or in part: destroy it again. */
int
mlx5dm_flow_remove_err(struct rte_flow *flow, int ret, struct rte_flow_error *error)
{
	return rte_flow_error_set(error, -ret, RTE_FLOW_ERROR_TYPE_HANDLE, flow,
				  ret == -EIO ? "steering library: the rule queue is in error; "
				  "the flow is kept: destroy it again" :
				  "steering library: another rule queue's writes into the rule's "
				  "hash slot did not complete; destroy it again");
}

int
mlx5dm_flow_objs_remove(struct rte_flow *flow, uint16_t queue)
{
	unsigned int i;
	int ret;

	for (i = 0; i < flow->nb_rules; i++) {
		ret = mlx5dm_flow_rule_remove(&flow->rules[i], queue);
		if (ret < 0)
			return ret;
	}
	return 0;
}

void
mlx5dm_flow_objs_relist(struct mlx5dm_flow_priv *fp, struct rte_flow *flow, bool listed)
{
	/* Stored atomically: an unlocked destroy may be taking it (mlx5dm_flow_take()). */
	__atomic_store_n(&flow->listed, listed, __ATOMIC_RELEASE);
	fp->nb_listed += listed;
	fp->inflight--;
}

void
mlx5dm_flow_objs_reap(struct mlx5dm_flow_priv *fp, struct rte_flow *flow)
{
	fp->inflight--;
	fp->st.rules -= flow->nb_rules;
	mlx5dm_flow_release(fp, flow);
	fp->st.flows--;
}

/* The rest of a destroy under fp->lock, of a flow unlisted (listed: it was). */
static int
mlx5dm_flow_objs_end(struct mlx5dm_flow_priv *fp, struct rte_flow *flow, bool listed,
		     struct rte_flow_error *error)
{
	rte_spinlock_t *qlock;
	uint16_t q = mlx5dm_flow_queue_of(fp, &qlock);
	int ret;

	mlx5dm_flow_queue_lock(qlock);
	ret = mlx5dm_flow_objs_remove(flow, q);
	/* The PMD's own destroys (flush, stop) bring a queue in error back and go on. */
	if (ret == -EIO && mlx5dm_flow_queue_recover(fp, q) == 0)
		ret = mlx5dm_flow_objs_remove(flow, q);
	mlx5dm_flow_queue_unlock(qlock);
	if (ret < 0) {
		mlx5dm_flow_objs_relist(fp, flow, listed);
		return mlx5dm_flow_remove_err(flow, ret, error);
	}
	mlx5dm_flow_objs_reap(fp, flow);
	return 0;
}

int
mlx5dm_flow_objs_destroy(struct mlx5dm_flow_priv *fp, struct rte_flow *flow,
			 struct rte_flow_error *error)
{
	return mlx5dm_flow_objs_end(fp, flow, mlx5dm_flow_objs_unlist(fp, flow), error);
}

/* Operations between their phases (fp->lock held). */
static uint32_t
mlx5dm_flow_objs_pending(const struct mlx5dm_flow_priv *fp)
{
	uint32_t n = fp->inflight;
	unsigned int i;

	/* Ended before begun: an operation seen to end was seen to begin (never too few). */
	for (i = 0; i < fp->nb_lanes; i++) {
		n -= __atomic_load_n(&fp->lanes[i].ended, __ATOMIC_ACQUIRE);
		n += __atomic_load_n(&fp->lanes[i].begun, __ATOMIC_SEQ_CST);
	}
	return n;
}

void
mlx5dm_flow_objs_quiesce(struct mlx5dm_flow_priv *fp)
{
	/* Before the count is read: a quick begin sees it or is counted (both seq_cst). */
	__atomic_store_n(&fp->quiescing, true, __ATOMIC_SEQ_CST);
	while (mlx5dm_flow_objs_pending(fp) != 0) {
		rte_spinlock_unlock(&fp->lock);
		rte_pause();
		mlx5dm_flow_lock(&fp->lock);
	}
}

int
mlx5dm_flow_objs_flush(struct mlx5dm_flow_priv *fp, struct rte_flow_error *error)
{
	struct rte_flow *flow = NULL;
	int ret = 0;

	/* In creation order (as far as handles were not reused); next() copes with the put. */
	while ((flow = mlx5dm_flow_pool_next(&fp->pool, flow)) != NULL) {
		int r;

		/* Taken first: a destroy without the lock may take it meanwhile. */
		if (!mlx5dm_flow_objs_unlist(fp, flow)) {
			fp->inflight--;
			continue;
		}
		/* A maker's flow is the maker's to destroy. */
		if (mlx5dm_flow_extra(flow) != NULL) {
			mlx5dm_flow_objs_relist(fp, flow, true);
			continue;
		}
		r = mlx5dm_flow_objs_end(fp, flow, true, error);
		if (ret == 0)
			ret = r;
	}
	return ret;
}

int
mlx5dm_flow_objs_query_count(struct mlx5dm_flow_priv *fp, struct rte_flow *flow,
			     struct rte_flow_query_count *q, struct rte_flow_error *error)
{
	int ret;

	if (flow->cnt == 0)
		return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION, NULL,
					  "the flow has no COUNT action");
	ret = mlx5dm_flow_cnt_query(fp, flow->cnt, q);
	if (ret < 0)
		return mlx5dm_flow_lib_err(error, -ret, "steering library: counter query "
					   "failed");
	return 0;
}

/* The caches' tables go with their contents (a start grows them again). */
static void
mlx5dm_flow_caches_fini(struct mlx5dm_flow_priv *fp)
{
	unsigned int i;

	mlx5dm_index_fini(&fp->tbls);
	mlx5dm_index_fini(&fp->matchers);
	mlx5dm_index_fini(&fp->entries);
	mlx5dm_index_fini(&fp->action_sets);
	/* Implicit templates went with their rules. */
	mlx5dm_index_fini(&fp->shapes);
	for (i = 0; i < MLX5DM_FLOW_OBJ_CLASSES; i++)
		mlx5dm_slab_destroy(&fp->objs[i]);
}

uint32_t
mlx5dm_flow_objs_listed(const struct mlx5dm_flow_priv *fp)
{
	uint32_t n = fp->nb_listed;
	unsigned int i;

	for (i = 0; i < fp->nb_lanes; i++)
		n += __atomic_load_n(&fp->lanes[i].listed, __ATOMIC_RELAXED);
	return n;
}

void
mlx5dm_flow_objs_stats(const struct mlx5dm_flow_priv *fp, struct mlx5dm_flow_stats *st)
{
	unsigned int i;

	*st = fp->st;
	for (i = 0; i < fp->nb_lanes; i++) {
		st->flows += __atomic_load_n(&fp->lanes[i].flows, __ATOMIC_RELAXED);
		st->rules += __atomic_load_n(&fp->lanes[i].rules, __ATOMIC_RELAXED);
		st->fast += __atomic_load_n(&fp->lanes[i].fast, __ATOMIC_RELAXED);
		/* Those a lane holds count no flow (yet or any more). */
		st->counters -= __atomic_load_n(&fp->lanes[i].nb_cnts, __ATOMIC_RELAXED) +
				__atomic_load_n(&fp->lanes[i].nb_spent, __ATOMIC_RELAXED);
	}
}

int
mlx5dm_flow_objs_start(struct mlx5dm_flow_priv *fp, const struct mlx5dm_flow_port *port)
{
	unsigned int dom, nb_lanes;
	int ret;

	fp->port = *port;
	nb_lanes = RTE_MAX(port->nb_queues, port->any + 1u);
	if (nb_lanes > MLX5DM_FLOW_LANES)
		return -EINVAL;
	fp->nb_lanes = (uint16_t)RTE_MAX(fp->nb_lanes, nb_lanes);
	for (dom = 0; dom < 2; dom++) {
		fp->root[dom] = mlx5dm_flow_tbl_get(fp, dom, 0);
		if (fp->root[dom] == NULL) {
			ret = -errno;
			goto unwind;
		}
		ret = mlx5dm_domain_set_root(port->dom[dom], mlx5dm_flow_tbl_table(fp->root[dom]));
		if (ret < 0) {
			mlx5dm_flow_tbl_put(fp, fp->root[dom]);
			fp->root[dom] = NULL;
			goto unwind;
		}
	}
	__atomic_store_n(&fp->started, true, __ATOMIC_RELEASE);
	return 0;
unwind:
	while (dom-- > 0) {
		mlx5dm_domain_set_root(port->dom[dom], NULL);
		mlx5dm_flow_tbl_put(fp, fp->root[dom]);
		fp->root[dom] = NULL;
	}
	mlx5dm_flow_caches_fini(fp);
	return ret;
}

void
mlx5dm_flow_objs_stop(struct mlx5dm_flow_priv *fp)
{
	unsigned int dom, id;

	if (!fp->started)
		return;
	mlx5dm_flow_objs_flush(fp, NULL);
	if (fp->default_flow != NULL) {
		mlx5dm_flow_objs_destroy(fp, fp->default_flow, NULL);
		fp->default_flow = NULL;
	}
	/* The tables' templates' objects, which their rules borrowed: the next rules make them. */
	for (id = 1; fp->compiled != NULL && id < MLX5DM_FLOW_COMPILED_IDS; id++)
		if (fp->compiled[id] != NULL)
			mlx5dm_flow_compiled_release(fp, fp->compiled[id]);
	for (dom = 0; dom < 2; dom++) {
		mlx5dm_domain_set_root(fp->port.dom[dom], NULL);
		mlx5dm_flow_tbl_put(fp, fp->root[dom]);
		fp->root[dom] = NULL;
	}
	mlx5dm_flow_lanes_drain(fp);
	mlx5dm_flow_pool_release(&fp->pool);
	if (fp->st.tables != 0 || fp->st.matchers != 0 || fp->st.entries != 0 ||
	    fp->st.action_sets != 0 || fp->st.counters != 0)
		MLX5DM_LOG(ERR, "flow", "objects left after stop: %u tables, %u matchers, "
			   "%u actions, %u action sets, %u counters", fp->st.tables,
			   fp->st.matchers, fp->st.entries, fp->st.action_sets, fp->st.counters);
	mlx5dm_flow_caches_fini(fp);
	__atomic_store_n(&fp->started, false, __ATOMIC_RELEASE);
}
