/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * A rule's actions in its STEs. Validating and placing an action list costs
 * far more than the rest of building a rule, and rules of one matcher mostly
 * repeat the same few lists (one queue, one counter set, one jump...), so
 * an action template (mlx5dm_action_tmpl_create(), as DPDK mlx5 HWS's
 * mlx5dr_action_template) places its list once and keeps the placed bytes
 * (struct mlx5dm_act_patch); a rule of the template copies them. A counter
 * differs from rule to rule (one per rule) but never changes where the
 * actions go: any counter of the domain takes the template's counter's
 * place, its id written where the template's was. A bulk's counter action
 * (MLX5DM_ACT_COUNTERS) is the same object for every rule of the bulk; the
 * counter comes from the rule's argument. A flow tag is handled like a
 * counter: rules marked with many values (rte_flow MARK ids) share the
 * placement, each patching its own tag in; with the domain's tags action
 * (MLX5DM_ACT_FLOW_TAGS) the tag is the rule's argument, so marking with
 * many values costs no object per value. A modify-set action
 * (MLX5DM_ACT_MODIFY_SET, one HW set action in the entry) is the
 * template's own, the rule's data patched into it. Rules without a
 * template place their list in full.
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_steer_priv.h"

static inline bool
mlx5dm_act_is_counter(const struct mlx5dm_action *a)
{
	return a->kind == MLX5DM_ACT_COUNTER || a->kind == MLX5DM_ACT_COUNTERS;
}

static inline bool
mlx5dm_act_is_tag(const struct mlx5dm_action *a)
{
	return a->kind == MLX5DM_ACT_FLOW_TAG || a->kind == MLX5DM_ACT_FLOW_TAGS;
}

static inline bool
mlx5dm_act_is_modify_set(const struct mlx5dm_action *a)
{
	return a->kind == MLX5DM_ACT_MODIFY_SET;
}

/* The index of the list's one action that is() holds for; -1 if none or several. */
static int8_t
mlx5dm_act_find_one(size_t n, struct mlx5dm_action *const acts[],
		    bool (*is)(const struct mlx5dm_action *a))
{
	int8_t found = -1;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!is(acts[i]))
			continue;
		if (found >= 0)
			return -1;
		found = (int8_t)i;
	}
	return found;
}

/* Action i's argument is fit for it (a bulk's counter action and the tags action take one). */
static bool
mlx5dm_act_arg_ok(const struct mlx5dm_action *a, const uint32_t args[], size_t i)
{
	if (a->kind == MLX5DM_ACT_COUNTERS) {
		if (args != NULL && args[i] < mlx5dm_res_counters_size(a->counters))
			return true;
		MLX5DM_LOG(ERR, MLX5DM_STEER_LOG, "action %zu: counter index %s", i,
			   args == NULL ? "missing" : "outside the bulk");
		return false;
	}
	if (a->kind == MLX5DM_ACT_MODIFY_SET) {
		if (args != NULL)
			return true;
		MLX5DM_LOG(ERR, MLX5DM_STEER_LOG, "action %zu: modify data missing", i);
		return false;
	}
	if (a->kind == MLX5DM_ACT_FLOW_TAGS) {
		if (args != NULL && args[i] <= MLX5DM_FLOW_TAG_MAX)
			return true;
		MLX5DM_LOG(ERR, MLX5DM_STEER_LOG, "action %zu: flow tag %s", i,
			   args == NULL ? "missing" : "wider than 24 bits");
		return false;
	}
	return true;
}

/* The tag action i (a flow tag action) puts in the rule's entries. */
static inline uint32_t
mlx5dm_act_tag(const struct mlx5dm_action *a, const uint32_t args[], size_t i)
{
	return a->kind == MLX5DM_ACT_FLOW_TAGS ? args[i] : a->ste.flow_tag;
}

/* The counter id action i (a counter action) puts in the rule's entries. */
static inline uint32_t
mlx5dm_act_counter_id(const struct mlx5dm_action *a, const uint32_t args[], size_t i)
{
	return a->kind == MLX5DM_ACT_COUNTERS ? a->ste.counter_id + args[i] : a->ste.counter_id;
}

/* Write a modify-set's data (the rule's argument) into its 8-byte HW action. */
static inline void
mlx5dm_act_set_data(uint8_t *hw, uint32_t data)
{
	hw += MLX5DM_MODIFY_ACTION_SIZE - MLX5DM_MODIFY_ARG_SIZE;
	hw[0] = (uint8_t)(data >> 24);
	hw[1] = (uint8_t)(data >> 16);
	hw[2] = (uint8_t)(data >> 8);
	hw[3] = (uint8_t)data;
}

/* Convert the rule's action objects to what the STE encoder takes. */
static int
mlx5dm_rule_actions(struct mlx5dm_matcher *m, size_t n, struct mlx5dm_action *const acts[],
		    const uint32_t args[], struct mlx5dm_ste_action *out)
{
	struct mlx5dm_domain *dom = m->tbl->dom;
	size_t i;

	for (i = 0; i < n; i++) {
		if (acts[i] == NULL || acts[i]->dom != mlx5dm_domain_top(dom)) {
			MLX5DM_LOG(ERR, MLX5DM_STEER_LOG, "action %zu %s", i,
				   acts[i] == NULL ? "is NULL" : "belongs to another domain");
			return -EINVAL;
		}
		/* Levels order jumps: a jump back (or to itself) could loop forever. */
		if (acts[i]->kind == MLX5DM_ACT_DEST_TABLE &&
		    acts[i]->dest_tbl->level <= m->tbl->level) {
			MLX5DM_LOG(ERR, MLX5DM_STEER_LOG,
				   "action %zu jumps from level %u to level %u", i,
				   m->tbl->level, acts[i]->dest_tbl->level);
			return -EINVAL;
		}
		if (!mlx5dm_act_arg_ok(acts[i], args, i))
			return -EINVAL;
		if (dom->top != NULL)
			mlx5dm_fdb_action_side(acts[i], dom->dir, &out[i]);
		else
			out[i] = acts[i]->ste;
		if (acts[i]->kind == MLX5DM_ACT_COUNTERS)
			out[i].counter_id = mlx5dm_act_counter_id(acts[i], args, i);
		if (acts[i]->kind == MLX5DM_ACT_FLOW_TAGS)
			out[i].flow_tag = mlx5dm_act_tag(acts[i], args, i);
		if (acts[i]->kind == MLX5DM_ACT_MODIFY_SET)
			mlx5dm_act_set_data(out[i].modify.inline_action, args[i]);
	}
	return 0;
}

/*
 * The counter action of a list and the entry its id went into, into p;
 * false if none, or the entry cannot be told apart.
 */
static bool
mlx5dm_act_patch_counter(const struct mlx5dm_matcher *m, size_t n,
			 struct mlx5dm_action *const acts[], const uint32_t args[],
			 const uint8_t *last, unsigned int n_extra, struct mlx5dm_act_patch *p)
{
	const struct mlx5dm_ste_ctx *ste = m->tbl->dom->ctx->ste;
	unsigned int k, at = 0, found = 0;
	int8_t ctr_action = -1;
	uint32_t id = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!mlx5dm_act_is_counter(acts[i]))
			continue;
		if (ctr_action >= 0)
			return false; /* two counters: exact lists only */
		ctr_action = (int8_t)i;
		id = mlx5dm_act_counter_id(acts[i], args, i);
	}
	if (ctr_action < 0 || id == 0)
		return false;
	/* Exactly one entry may carry the id, or the patch could not be placed. */
	for (k = 0; k <= n_extra; k++) {
		if (mlx5dm_ste_get_counter_id(ste, last + (size_t)k * MLX5DM_STE_SIZE) == id) {
			at = k;
			found++;
		}
	}
	if (found != 1)
		return false;
	p->ctr_action = ctr_action;
	p->ctr_ste = (uint8_t)at;
	return true;
}

/*
 * The flow tag action of a list and where its tag went (entry, byte
 * offset), into p; false if none, or the slot cannot be told apart.
 */
static bool
mlx5dm_act_patch_tag(const struct mlx5dm_matcher *m, size_t n, struct mlx5dm_action *const acts[],
		     const uint32_t args[], const uint8_t *last, unsigned int n_extra,
		     struct mlx5dm_act_patch *p)
{
	const struct mlx5dm_ste_ctx *ste = m->tbl->dom->ctx->ste;
	int8_t tag_action = mlx5dm_act_find_one(n, acts, mlx5dm_act_is_tag);
	unsigned int k, found = 0;
	int off;

	if (tag_action < 0)
		return false;
	for (k = 0; k <= n_extra; k++) {
		off = mlx5dm_ste_flow_tag_slot(ste, last + (size_t)k * MLX5DM_STE_SIZE,
					       mlx5dm_act_tag(acts[tag_action], args,
							      (size_t)tag_action));
		if (off < 0)
			continue;
		p->tag_ste = (uint8_t)k;
		p->tag_off = (uint8_t)off;
		found++;
	}
	if (found != 1)
		return false;
	p->tag_action = tag_action;
	return true;
}

/*
 * The modify-set action of a list and where its HW action went (entry,
 * byte offset), into p; false if none, or the bytes read so at more than
 * one place.
 */
static bool
mlx5dm_act_patch_set(size_t n, struct mlx5dm_action *const acts[], const uint32_t args[],
		     const uint8_t *last, unsigned int n_extra, struct mlx5dm_act_patch *p)
{
	int8_t set_action = mlx5dm_act_find_one(n, acts, mlx5dm_act_is_modify_set);
	uint8_t hw[MLX5DM_MODIFY_ACTION_SIZE];
	unsigned int k, off, len, found = 0;

	if (set_action < 0)
		return false;
	memcpy(hw, acts[set_action]->ste.modify.inline_action, sizeof(hw));
	mlx5dm_act_set_data(hw, args[set_action]);
	/* The image keeps the control part of the match entry and whole action entries. */
	for (k = 0; k <= n_extra; k++) {
		len = k == 0 ? MLX5DM_STE_CTRL_SIZE : MLX5DM_STE_SIZE;
		for (off = 0; off + sizeof(hw) <= len; off++) {
			if (memcmp(last + (size_t)k * MLX5DM_STE_SIZE + off, hw, sizeof(hw)) != 0)
				continue;
			p->set_ste = (uint8_t)k;
			p->set_off = (uint8_t)off;
			found++;
		}
	}
	if (found != 1)
		return false;
	p->set_action = set_action;
	return true;
}

/* True when the list holds an action of kind. */
static bool
mlx5dm_act_has(size_t n, struct mlx5dm_action *const acts[], enum mlx5dm_action_kind kind)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (acts[i]->kind == kind)
			return true;
	return false;
}

/*
 * The image of a placed list (last: its match entry, then n_extra action
 * entries) and its per-rule fields, into p; false when a field that takes
 * the rule's argument cannot be told apart (the list is then placed in
 * full for every rule). Any counter or tag must be patchable: a
 * template's rules bring their own.
 */
static bool
mlx5dm_act_patch_make(const struct mlx5dm_matcher *m, size_t n, struct mlx5dm_action *const acts[],
		      const uint32_t args[], const uint8_t *last, unsigned int n_extra,
		      struct mlx5dm_act_patch *p)
{
	p->tag_ste = 0;
	p->tag_off = 0;
	if (!mlx5dm_act_patch_tag(m, n, acts, args, last, n_extra, p)) {
		if (mlx5dm_act_has(n, acts, MLX5DM_ACT_FLOW_TAGS) ||
		    mlx5dm_act_has(n, acts, MLX5DM_ACT_FLOW_TAG))
			return false;
		p->tag_action = -1;
	}
	p->set_ste = 0;
	p->set_off = 0;
	if (!mlx5dm_act_patch_set(n, acts, args, last, n_extra, p)) {
		if (mlx5dm_act_has(n, acts, MLX5DM_ACT_MODIFY_SET))
			return false;
		p->set_action = -1;
	}
	p->ctr_ste = 0;
	if (!mlx5dm_act_patch_counter(m, n, acts, args, last, n_extra, p)) {
		if (mlx5dm_act_has(n, acts, MLX5DM_ACT_COUNTERS) ||
		    mlx5dm_act_has(n, acts, MLX5DM_ACT_COUNTER))
			return false;
		p->ctr_action = -1;
	}
	p->n_extra = (uint8_t)n_extra;
	memcpy(p->ctrl, last, sizeof(p->ctrl));
	memcpy(p->extra, last + MLX5DM_STE_SIZE, (size_t)n_extra * MLX5DM_STE_SIZE);
	return true;
}

/* Copy p's image behind the rule's match entries and patch the rule's values in. */
static int
mlx5dm_act_patch_apply(const struct mlx5dm_matcher *m, const struct mlx5dm_act_patch *p,
		       struct mlx5dm_action *const acts[], const uint32_t args[], uint8_t *arr,
		       unsigned int *n_extra)
{
	const struct mlx5dm_ste_ctx *ste = m->tbl->dom->ctx->ste;
	uint8_t *last = mlx5dm_matcher_last_entry(m, arr);
	size_t c = (size_t)p->ctr_action, t = (size_t)p->tag_action, s = (size_t)p->set_action;

	if ((p->ctr_action >= 0 && !mlx5dm_act_arg_ok(acts[c], args, c)) ||
	    (p->tag_action >= 0 && !mlx5dm_act_arg_ok(acts[t], args, t)) ||
	    (p->set_action >= 0 && !mlx5dm_act_arg_ok(acts[s], args, s)))
		return -EINVAL;
	memcpy(last, p->ctrl, sizeof(p->ctrl));
	memcpy(last + MLX5DM_STE_SIZE, p->extra, (size_t)p->n_extra * MLX5DM_STE_SIZE);
	*n_extra = p->n_extra;
	if (p->ctr_action >= 0)
		mlx5dm_ste_set_counter_id(ste, last + (size_t)p->ctr_ste * MLX5DM_STE_SIZE,
					  mlx5dm_act_counter_id(acts[c], args, c));
	if (p->tag_action >= 0)
		mlx5dm_ste_set_flow_tag(ste, last + (size_t)p->tag_ste * MLX5DM_STE_SIZE +
					p->tag_off, mlx5dm_act_tag(acts[t], args, t));
	if (p->set_action >= 0)
		mlx5dm_act_set_data(last + (size_t)p->set_ste * MLX5DM_STE_SIZE + p->set_off,
				    args[s]);
	return 0;
}

/*
 * Place a list in full: validate it, encode its actions into the control
 * part of the last match entry and the action entries behind it. *kept:
 * the placement left the rule's tag alone (an image of it serves others).
 */
static int
mlx5dm_act_place_full(struct mlx5dm_matcher *m, size_t nb_actions,
		      struct mlx5dm_action *const actions[], const uint32_t args[],
		      uint8_t *last, unsigned int *n_extra, bool *kept)
{
	struct mlx5dm_ste_action sacts[MLX5DM_RULE_MAX_ACTIONS];
	struct mlx5dm_domain *dom = m->tbl->dom;
	uint8_t data[MLX5DM_STE_SIZE - MLX5DM_STE_CTRL_SIZE];
	struct mlx5dm_ste_actions_attr aattr;
	struct mlx5dm_ste_action_err aerr;
	int ret;

	ret = mlx5dm_rule_actions(m, nb_actions, actions, args, sacts);
	if (ret < 0)
		return ret;
	memset(&aattr, 0, sizeof(aattr));
	aattr.domain = dom->top != NULL ? MLX5DM_STE_DOMAIN_FDB : MLX5DM_STE_DOMAIN_NIC;
	aattr.dir = dom->dir;
	aattr.gvmi = dom->ctx->caps.vhca_id;
	aattr.default_icm_addr = dom->default_icm;
	memcpy(data, last + MLX5DM_STE_CTRL_SIZE, sizeof(data));
	ret = mlx5dm_ste_set_actions(dom->ctx->ste, &aattr, sacts, (unsigned int)nb_actions,
				     last, MLX5DM_STE_MAX_ACTION_STES, n_extra, &aerr);
	if (ret < 0) {
		MLX5DM_LOG(ERR, MLX5DM_STEER_LOG, "actions rejected: %s (action %d)", aerr.msg,
			   aerr.index);
		return ret;
	}
	*kept = memcmp(data, last + MLX5DM_STE_CTRL_SIZE, sizeof(data)) == 0;
	return 0;
}

int
mlx5dm_rule_place_actions(struct mlx5dm_matcher *m, size_t nb_actions,
			  struct mlx5dm_action *const actions[], const uint32_t args[],
			  uint8_t *arr, unsigned int *n_extra)
{
	bool kept;

	return mlx5dm_act_place_full(m, nb_actions, actions, args,
				     mlx5dm_matcher_last_entry(m, arr), n_extra, &kept);
}

/*
 * Arguments a template is placed with: values its per-rule fields are
 * found by (a bulk's last counter, whose id is not 0; a tag and data
 * unlikely elsewhere).
 */
#define MLX5DM_ACT_TMPL_PROBE_TAG 0xa5c3e1u
#define MLX5DM_ACT_TMPL_PROBE_DATA 0xa5c3e17bu

struct mlx5dm_action_tmpl *
mlx5dm_action_tmpl_create(struct mlx5dm_matcher *m, size_t nb_actions,
			  struct mlx5dm_action *const actions[])
{
	uint8_t value[MLX5DM_MATCH_PARAM_SIZE], arr[MLX5DM_RULE_PREP_BYTES];
	uint32_t args[MLX5DM_RULE_MAX_ACTIONS];
	struct mlx5dm_action_tmpl *t;
	unsigned int n_extra = 0;
	bool kept = false;
	size_t i;
	int ret;

	if (m == NULL || nb_actions > MLX5DM_RULE_MAX_ACTIONS ||
	    (nb_actions > 0 && actions == NULL)) {
		errno = EINVAL;
		return NULL;
	}
	for (i = 0; i < nb_actions; i++) {
		if (actions[i] == NULL) {
			MLX5DM_LOG(ERR, MLX5DM_STEER_LOG, "template action %zu is NULL", i);
			errno = EINVAL;
			return NULL;
		}
		args[i] = actions[i]->kind == MLX5DM_ACT_FLOW_TAGS ? MLX5DM_ACT_TMPL_PROBE_TAG :
			  actions[i]->kind == MLX5DM_ACT_MODIFY_SET ? MLX5DM_ACT_TMPL_PROBE_DATA :
			  actions[i]->kind == MLX5DM_ACT_COUNTERS ?
			  mlx5dm_res_counters_size(actions[i]->counters) - 1 : 0;
	}
	t = mlx5dm_zmalloc_socket(sizeof(*t), m->tbl->dom->ctx->dev->socket);
	if (t == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	/* A rule of value 0 (within any mask): its control bytes are the matcher's. */
	memset(value, 0, sizeof(value));
	/* An FDB matcher's sides place the list each their own way: each rule does. */
	if (m->half[MLX5DM_STE_DIR_RX] != NULL) {
		struct mlx5dm_ste_action sacts[MLX5DM_RULE_MAX_ACTIONS];

		ret = mlx5dm_rule_actions(m, nb_actions, actions, args, sacts);
	} else {
		ret = mlx5dm_ste_tmpl_build(&m->tmpl, value, arr);
		if (ret == 0)
			ret = mlx5dm_act_place_full(m, nb_actions, actions, args,
						    mlx5dm_matcher_last_entry(m, arr), &n_extra,
						    &kept);
	}
	if (ret < 0) {
		mlx5dm_free(t);
		errno = -ret;
		return NULL;
	}
	t->full = !kept || !mlx5dm_act_patch_make(m, nb_actions, actions, args,
						   mlx5dm_matcher_last_entry(m, arr), n_extra,
						   &t->p);
	t->matcher = m;
	t->dom = mlx5dm_domain_top(m->tbl->dom);
	t->nb_actions = (uint8_t)nb_actions;
	for (i = 0; i < nb_actions; i++) {
		/* A counter's or tag's place is the rule's: no reference on the one given. */
		t->per_rule[i] = mlx5dm_act_is_counter(actions[i]) ? MLX5DM_ACT_TMPL_COUNTER :
				 mlx5dm_act_is_tag(actions[i]) ? MLX5DM_ACT_TMPL_TAG : 0;
		if (t->per_rule[i] != 0)
			continue;
		t->actions[i] = actions[i];
		mlx5dm_action_ref(actions[i], 1);
	}
	if (!t->full) {
		mlx5dm_matcher_lock_all(m);
		LIST_INSERT_HEAD(&m->tmpls, t, next);
		mlx5dm_matcher_unlock_all(m);
	}
	return t;
}

void
mlx5dm_action_tmpl_destroy(struct mlx5dm_action_tmpl *t)
{
	unsigned int i;

	if (t == NULL)
		return;
	if (!t->full) {
		mlx5dm_matcher_lock_all(t->matcher);
		LIST_REMOVE(t, next);
		mlx5dm_matcher_unlock_all(t->matcher);
	}
	for (i = 0; i < t->nb_actions; i++)
		if (t->actions[i] != NULL)
			mlx5dm_action_unref(t->actions[i]);
	mlx5dm_free(t);
}

/* Action i of a rule may stand at position i of template t. */
static inline bool
mlx5dm_act_tmpl_fits(const struct mlx5dm_action_tmpl *t, size_t i, const struct mlx5dm_action *a)
{
	if (t->per_rule[i] == 0)
		return a == t->actions[i];
	if (a == NULL || a->dom != t->dom)
		return false;
	return t->per_rule[i] == MLX5DM_ACT_TMPL_COUNTER ? mlx5dm_act_is_counter(a) :
							     mlx5dm_act_is_tag(a);
}

int
mlx5dm_action_tmpl_check(const struct mlx5dm_action_tmpl *t, struct mlx5dm_action *const acts[])
{
	size_t i;

	for (i = 0; i < t->nb_actions; i++) {
		if (!mlx5dm_act_tmpl_fits(t, i, acts[i])) {
			MLX5DM_LOG(ERR, MLX5DM_STEER_LOG,
				   "action %zu is not the template's", i);
			return -EINVAL;
		}
	}
	return 0;
}

int
mlx5dm_action_tmpl_apply(const struct mlx5dm_action_tmpl *t,
			 struct mlx5dm_action *const actions[], const uint32_t args[],
			 uint8_t *arr, unsigned int *n_extra)
{
	bool kept;

	if (t->full)
		return mlx5dm_act_place_full(t->matcher, t->nb_actions, actions, args,
					     mlx5dm_matcher_last_entry(t->matcher, arr), n_extra,
					     &kept);
	return mlx5dm_act_patch_apply(t->matcher, &t->p, actions, args, arr, n_extra);
}

bool
mlx5dm_rule_args_kept(size_t nb_actions, struct mlx5dm_action *const actions[],
		      const uint32_t args[])
{
	size_t i;

	if (args == NULL)
		return false;
	for (i = 0; i < nb_actions; i++)
		if (actions[i]->kind == MLX5DM_ACT_COUNTERS || actions[i]->kind ==
		    MLX5DM_ACT_FLOW_TAGS || actions[i]->kind == MLX5DM_ACT_MODIFY_SET)
			return true;
	return false;
}

/*
 * The software image of rule's entry k for its action fields: 0 its last
 * match entry, its actions placed again (pointers left as the placement
 * gives them: read without the rule's lock, its links may change), k its
 * action entry k - 1.
 */
static void
mlx5dm_rule_entry_image(const struct mlx5dm_rule *rule, unsigned int k, uint8_t *img)
{
	const struct mlx5dm_ste *s = mlx5dm_rule_last(rule);

	if (k > 0) {
		mlx5dm_ste_image(mlx5dm_rule_act_stes(rule)[k - 1], NULL, img);
		return;
	}
	if (mlx5dm_rule_last_ctrl(rule, s->tag, img) < 0)
		memset(img, 0, MLX5DM_STE_CTRL_SIZE);
	memcpy(img + MLX5DM_STE_TAG_OFF, s->tag, MLX5DM_STE_TAG_SIZE);
	memset(img + MLX5DM_STE_MASK_OFF, 0, MLX5DM_STE_MASK_SIZE);
}

/*
 * The counter id a rule's bulk counter action a put in its entries (the
 * rule kept its actions, not their arguments): the one id within a's bulk
 * among the rule's last match entry and action entries.
 */
uint32_t
mlx5dm_rule_bulk_counter_id(const struct mlx5dm_rule *rule, const struct mlx5dm_action *a)
{
	const struct mlx5dm_ste_ctx *ste = a->dom->ctx->ste;
	uint32_t base = a->ste.counter_id, n = mlx5dm_res_counters_size(a->counters), id;
	uint8_t img[MLX5DM_STE_SIZE];
	unsigned int i;

	mlx5dm_rule_entry_image(rule, 0, img);
	id = mlx5dm_ste_get_counter_id(ste, img);
	for (i = 0; (id < base || id - base >= n) && i < rule->nb_act_stes; i++) {
		mlx5dm_rule_entry_image(rule, i + 1, img);
		id = mlx5dm_ste_get_counter_id(ste, img);
	}
	return id;
}

/*
 * The tag a rule's tags action (MLX5DM_ACT_FLOW_TAGS) put in its entries
 * (the rule kept its actions, not their arguments): the one flow tag among
 * the rule's last match entry and action entries; 0 if not found.
 */
uint32_t
mlx5dm_rule_flow_tag(const struct mlx5dm_rule *rule, const struct mlx5dm_action *a)
{
	const struct mlx5dm_ste_ctx *ste = a->dom->ctx->ste;
	uint8_t img[MLX5DM_STE_SIZE];
	uint32_t tag = 0;
	unsigned int i;

	mlx5dm_rule_entry_image(rule, 0, img);
	if (mlx5dm_ste_get_flow_tag(ste, img, &tag) == 0)
		return tag;
	for (i = 0; i < rule->nb_act_stes; i++) {
		mlx5dm_rule_entry_image(rule, i + 1, img);
		if (mlx5dm_ste_get_flow_tag(ste, img, &tag) == 0)
			return tag;
	}
	return 0;
}

int
mlx5dm_rule_modify_data(const struct mlx5dm_rule *rule, const struct mlx5dm_action *a,
			uint32_t *data)
{
	const uint8_t *hw = a->ste.modify.inline_action;
	const unsigned int head = MLX5DM_MODIFY_ACTION_SIZE - MLX5DM_MODIFY_ARG_SIZE;
	unsigned int i, off, len, found = 0;
	uint8_t img[MLX5DM_STE_SIZE], at[MLX5DM_MODIFY_ARG_SIZE];

	if (a->kind != MLX5DM_ACT_MODIFY_SET)
		return -EINVAL;
	/* Where placement put the HW action: its first bytes, the rule's data after. */
	for (i = 0; i <= rule->nb_act_stes; i++) {
		mlx5dm_rule_entry_image(rule, i, img);
		len = i == 0 ? MLX5DM_STE_CTRL_SIZE : MLX5DM_STE_SIZE;
		for (off = 0; off + MLX5DM_MODIFY_ACTION_SIZE <= len; off++)
			if (memcmp(img + off, hw, head) == 0) {
				memcpy(at, img + off + head, sizeof(at));
				found++;
			}
	}
	if (found != 1)
		return -ENOENT;
	*data = (uint32_t)at[0] << 24 | (uint32_t)at[1] << 16 | (uint32_t)at[2] << 8 | at[3];
	return 0;
}

/* Template t's list is acts (n actions): the rule's placement was t's image, patched. */
static bool
mlx5dm_act_tmpl_fits_list(const struct mlx5dm_action_tmpl *t, size_t n,
			  struct mlx5dm_action *const acts[])
{
	size_t i;

	if (t->nb_actions != n)
		return false;
	for (i = 0; i < n; i++)
		if (!mlx5dm_act_tmpl_fits(t, i, acts[i]))
			return false;
	return true;
}

/* The control part of a rule of template image p: its per-rule values patched in. */
static void
mlx5dm_act_patch_ctrl(const struct mlx5dm_ste_ctx *ste, const struct mlx5dm_act_patch *p,
		      struct mlx5dm_action *const acts[], const uint32_t args[], uint8_t *ctrl)
{
	size_t c = (size_t)p->ctr_action, t = (size_t)p->tag_action, s = (size_t)p->set_action;

	memcpy(ctrl, p->ctrl, sizeof(p->ctrl));
	if (p->ctr_action >= 0 && p->ctr_ste == 0)
		mlx5dm_ste_set_counter_id(ste, ctrl, mlx5dm_act_counter_id(acts[c], args, c));
	if (p->tag_action >= 0 && p->tag_ste == 0)
		mlx5dm_ste_set_flow_tag(ste, ctrl + p->tag_off, mlx5dm_act_tag(acts[t], args, t));
	if (p->set_action >= 0 && p->set_ste == 0)
		mlx5dm_act_set_data(ctrl + p->set_off, args[s]);
}

/*
 * A last-level entry keeps no control part (mlx5dm_ste_ctrl_get()): the
 * rule's actions placed again give it, as placing them made it. A template
 * of the matcher whose list the rule's fits has them placed already (a
 * template's rules and rules placed in full with the same list get the
 * same bytes): its image, patched. The pointers the placement does not
 * set (miss, hit of an action entry) are the caller's. The rule's shard
 * lock held (the matcher's templates).
 */
int
mlx5dm_rule_last_ctrl(const struct mlx5dm_rule *rule, const uint8_t *tag, uint8_t *ctrl)
{
	struct mlx5dm_action *const *acts = mlx5dm_rule_action_list(rule);
	struct mlx5dm_matcher *m = rule->matcher;
	uint8_t ents[(1 + MLX5DM_STE_MAX_ACTION_STES) * MLX5DM_STE_SIZE];
	const struct mlx5dm_action_tmpl *t;
	unsigned int n_extra;
	bool kept;
	int ret;

	LIST_FOREACH(t, &m->tmpls, next) {
		if (mlx5dm_act_tmpl_fits_list(t, rule->nb_actions, acts)) {
			mlx5dm_act_patch_ctrl(m->tbl->dom->ctx->ste, &t->p, acts,
					      mlx5dm_rule_args(rule), ctrl);
			return 0;
		}
	}
	memcpy(ents, mlx5dm_matcher_last_entry(m, m->tmpl.image), MLX5DM_STE_SIZE);
	memcpy(ents + MLX5DM_STE_CTRL_SIZE, tag, MLX5DM_STE_TAG_SIZE);
	ret = mlx5dm_act_place_full(m, rule->nb_actions, acts, mlx5dm_rule_args(rule), ents,
				    &n_extra, &kept);
	if (ret < 0)
		return ret;
	memcpy(ctrl, ents, MLX5DM_STE_CTRL_SIZE);
	return 0;
}
