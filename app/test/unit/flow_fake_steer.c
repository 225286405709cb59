/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/* The fake steering library of the rte_flow object tests (see flow_fake_steer.h). */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flow_fake_steer.h"
#include "mlx5dm_ste.h"

#define FAKE_MAX_RULES 4096

static struct fake_live live;
static unsigned int fail_at;
static bool failed;
static bool allow_dup = true;
static struct mlx5dm_domain domains[2];
static const struct mlx5dm_rule *last_rule;
static struct mlx5dm_rule *rules[FAKE_MAX_RULES];

void
fake_reset(void)
{
	memset(&live, 0, sizeof(live));
	memset(rules, 0, sizeof(rules));
	fail_at = 0;
	failed = false;
	allow_dup = true;
	last_rule = NULL;
	domains[0] = (struct mlx5dm_domain){ .id = 0 };
	domains[1] = (struct mlx5dm_domain){ .id = 1 };
}

void
fake_live_get(struct fake_live *l)
{
	*l = live;
}

void
fake_fail_at(unsigned int n)
{
	fail_at = n;
	failed = false;
}

bool
fake_failed(void)
{
	return failed;
}

void
fake_allow_duplicates(bool allow)
{
	allow_dup = allow;
}

struct mlx5dm_domain *
fake_domain(int id)
{
	return &domains[id];
}

const struct mlx5dm_rule *
fake_last_rule(void)
{
	return last_rule;
}

/* Every creating call goes through here: the armed one fails. */
static bool
fake_fail(void)
{
	if (fail_at == 0)
		return false;
	if (--fail_at != 0)
		return false;
	failed = true;
	errno = ENOMEM;
	return true;
}

struct mlx5dm_table *
mlx5dm_table_create(struct mlx5dm_domain *dom, uint32_t level)
{
	struct mlx5dm_table *t;

	if (dom == NULL || level == 0) {
		errno = EINVAL;
		return NULL;
	}
	if (fake_fail())
		return NULL;
	t = calloc(1, sizeof(*t));
	t->dom = dom;
	t->level = level;
	live.tables++;
	return t;
}

int
mlx5dm_table_destroy(struct mlx5dm_table *t)
{
	if (t->matchers != 0 || t->refs != 0)
		return -EBUSY;
	free(t);
	live.tables--;
	return 0;
}

int
mlx5dm_domain_set_root(struct mlx5dm_domain *dom, struct mlx5dm_table *t)
{
	if (t != NULL && t->dom != dom)
		return -EINVAL;
	if (t != NULL && fake_fail())
		return -ENOMEM;
	if (t != NULL)
		t->refs++;
	if (dom->root != NULL)
		dom->root->refs--;
	dom->root = t;
	return 0;
}

struct mlx5dm_matcher *
mlx5dm_matcher_create(struct mlx5dm_table *t, const struct mlx5dm_matcher_attr *attr,
		      const char **err_field)
{
	struct mlx5dm_matcher *m;

	if (err_field != NULL)
		*err_field = NULL;
	if (fake_fail())
		return NULL;
	m = calloc(1, sizeof(*m));
	m->tbl = t;
	m->attr = *attr;
	memcpy(m->mask, attr->mask, sizeof(m->mask));
	m->attr.mask = m->mask;
	t->matchers++;
	live.matchers++;
	return m;
}

/* The real check's verdict for a format-1 device without flex-parser protocols. */
int
mlx5dm_matcher_check(struct mlx5dm_domain *dom, const struct mlx5dm_matcher_attr *attr,
		     const char **err_field)
{
	struct mlx5dm_ste_builder b[MLX5DM_STE_MAX_BUILDERS];
	unsigned int n;

	(void)dom;
	return mlx5dm_ste_build_matcher(mlx5dm_ste_ctx_get(1), NULL, attr->mask, attr->criteria,
					MLX5DM_STE_DIR_RX, b, MLX5DM_STE_MAX_BUILDERS, &n,
					err_field);
}

int
mlx5dm_matcher_destroy(struct mlx5dm_matcher *m)
{
	if (m->rules != 0)
		return -EBUSY;
	m->tbl->matchers--;
	free(m);
	live.matchers--;
	return 0;
}

static int
fake_rule_slot(void)
{
	int i;

	for (i = 0; i < FAKE_MAX_RULES; i++)
		if (rules[i] == NULL)
			return i;
	return -1;
}

/*
 * The fake's action template: its matcher and actions (a reference on
 * each), as the library's: at a counter or tag position it keeps only
 * the kind (per_rule), since the rules bring their own and the template's
 * may be gone before it.
 */
enum { FAKE_OWN, FAKE_ANY_COUNTER, FAKE_ANY_TAG };
struct mlx5dm_action_tmpl {
	struct mlx5dm_matcher *m;
	size_t n;
	struct mlx5dm_action *acts[MLX5DM_RULE_MAX_ACTIONS];
	uint8_t per_rule[MLX5DM_RULE_MAX_ACTIONS];
};

static bool
fake_is_counter(const struct mlx5dm_action *a)
{
	return a->kind == FAKE_COUNTER || a->kind == FAKE_COUNTERS;
}

static bool
fake_is_tag(const struct mlx5dm_action *a)
{
	return a->kind == FAKE_TAG || a->kind == FAKE_TAGS;
}

struct mlx5dm_action_tmpl *
mlx5dm_action_tmpl_create(struct mlx5dm_matcher *m, size_t n, struct mlx5dm_action *const acts[])
{
	struct mlx5dm_action_tmpl *t;
	size_t i;

	if (m == NULL || n > MLX5DM_RULE_MAX_ACTIONS) {
		errno = EINVAL;
		return NULL;
	}
	for (i = 0; i < n; i++)
		if (acts[i] == NULL || acts[i]->dom != m->tbl->dom) {
			errno = EINVAL;
			return NULL;
		}
	t = calloc(1, sizeof(*t));
	t->m = m;
	t->n = n;
	for (i = 0; i < n; i++) {
		if (fake_is_counter(acts[i])) {
			t->per_rule[i] = FAKE_ANY_COUNTER;
		} else if (fake_is_tag(acts[i])) {
			t->per_rule[i] = FAKE_ANY_TAG;
		} else {
			t->acts[i] = acts[i];
			acts[i]->refs++;
		}
	}
	return t;
}

void
mlx5dm_action_tmpl_destroy(struct mlx5dm_action_tmpl *t)
{
	size_t i;

	if (t == NULL)
		return;
	for (i = 0; i < t->n; i++)
		if (t->acts[i] != NULL)
			t->acts[i]->refs--;
	free(t);
}

/* As the library: the template's actions, but any counter or tag where it has one. */
struct mlx5dm_rule *
mlx5dm_rule_create_tmpl(struct mlx5dm_rule_prep *prep, uint16_t queue,
			const struct mlx5dm_action_tmpl *t, struct mlx5dm_action *const actions[],
			const uint32_t args[])
{
	size_t i;

	if (t == NULL || prep->matcher != t->m) {
		errno = EINVAL;
		return NULL;
	}
	if (actions == NULL)
		actions = t->acts;
	for (i = 0; i < t->n; i++)
		if (t->per_rule[i] == FAKE_OWN ? actions[i] != t->acts[i] :
		    actions[i] == NULL ||
		    (t->per_rule[i] == FAKE_ANY_COUNTER ? !fake_is_counter(actions[i]) :
							  !fake_is_tag(actions[i]))) {
			errno = EINVAL;
			return NULL;
		}
	return mlx5dm_rule_create_prepared_args(prep, queue, t->n, actions, args);
}

/* The fake's prep: the matcher and the value (its array is large enough). */
int
mlx5dm_rule_prepare(struct mlx5dm_matcher *m, const uint8_t *value,
		    struct mlx5dm_rule_prep *prep)
{
	size_t i;

	prep->matcher = NULL;
	for (i = 0; i < MLX5DM_MATCH_PARAM_SIZE; i++)
		if (value[i] & ~m->mask[i])
			return -EINVAL;
	prep->matcher = m;
	memcpy(prep->ste, value, MLX5DM_MATCH_PARAM_SIZE);
	return 0;
}

/* The fake's tag template: the example value and the moves, applied as a value. */
struct mlx5dm_tag_tmpl {
	struct mlx5dm_matcher *m;
	uint8_t value[MLX5DM_MATCH_PARAM_SIZE];
	unsigned int n;
	struct mlx5dm_match_move moves[64];
};

struct mlx5dm_tag_tmpl *
mlx5dm_tag_tmpl_create(struct mlx5dm_matcher *m, const uint8_t *value,
		       const struct mlx5dm_match_move *moves, unsigned int nb_moves)
{
	struct mlx5dm_tag_tmpl *t;
	unsigned int i;

	for (i = 0; i < MLX5DM_MATCH_PARAM_SIZE; i++)
		if (value[i] & ~m->mask[i]) {
			errno = EINVAL;
			return NULL;
		}
	for (i = 0; i < nb_moves; i++)
		if (moves[i].to + moves[i].len > MLX5DM_MATCH_PARAM_SIZE) {
			errno = EINVAL;
			return NULL;
		}
	if (nb_moves > 64) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	t = calloc(1, sizeof(*t));
	if (t == NULL)
		return NULL;
	t->m = m;
	memcpy(t->value, value, sizeof(t->value));
	t->n = nb_moves;
	memcpy(t->moves, moves, nb_moves * sizeof(moves[0]));
	live.tags++;
	return t;
}

void
mlx5dm_tag_tmpl_destroy(struct mlx5dm_tag_tmpl *t)
{
	if (t != NULL)
		live.tags--;
	free(t);
}

int
mlx5dm_rule_prepare_tag(const struct mlx5dm_tag_tmpl *t, const void *const src[],
			struct mlx5dm_rule_prep *prep)
{
	unsigned int i;

	memcpy(prep->ste, t->value, MLX5DM_MATCH_PARAM_SIZE);
	for (i = 0; i < t->n; i++)
		memcpy(prep->ste + t->moves[i].to,
		       (const uint8_t *)src[t->moves[i].src] + t->moves[i].from, t->moves[i].len);
	prep->matcher = t->m;
	return 0;
}

struct mlx5dm_rule *
mlx5dm_rule_create_prepared(struct mlx5dm_rule_prep *prep, uint16_t queue, size_t nb_actions,
			    struct mlx5dm_action *const actions[])
{
	return mlx5dm_rule_create_prepared_args(prep, queue, nb_actions, actions, NULL);
}

struct mlx5dm_rule *
mlx5dm_rule_create_prepared_args(struct mlx5dm_rule_prep *prep, uint16_t queue,
				 size_t nb_actions, struct mlx5dm_action *const actions[],
				 const uint32_t args[])
{
	struct mlx5dm_matcher *m = prep->matcher;
	const uint8_t *value = prep->ste;
	struct mlx5dm_rule *r;
	size_t i;
	int slot;

	if (m == NULL || queue != 0 || nb_actions > MLX5DM_RULE_MAX_ACTIONS) {
		errno = EINVAL;
		return NULL;
	}
	prep->matcher = NULL;
	for (i = 0; i < nb_actions; i++)
		if (actions[i] == NULL || actions[i]->dom != m->tbl->dom ||
		    (actions[i]->kind == FAKE_COUNTERS &&
		     (args == NULL || args[i] >= actions[i]->cnt->n)) ||
		    (actions[i]->kind == FAKE_TAGS && (args == NULL || args[i] > 0xffffff)) ||
		    (actions[i]->kind == FAKE_MODIFY_SET && args == NULL)) {
			errno = EINVAL;
			return NULL;
		}
	for (i = 0; !allow_dup && i < FAKE_MAX_RULES; i++)
		if (rules[i] != NULL && rules[i]->m == m &&
		    memcmp(rules[i]->value, value, MLX5DM_MATCH_PARAM_SIZE) == 0) {
			errno = EEXIST;
			return NULL;
		}
	if (fake_fail())
		return NULL;
	slot = fake_rule_slot();
	if (slot < 0) {
		errno = ENOSPC;
		return NULL;
	}
	r = calloc(1, sizeof(*r));
	r->m = m;
	memcpy(r->value, value, sizeof(r->value));
	r->n = nb_actions;
	for (i = 0; i < nb_actions; i++) {
		r->acts[i] = actions[i];
		r->args[i] = args != NULL ? args[i] : 0;
		actions[i]->refs++;
	}
	m->rules++;
	rules[slot] = r;
	live.rules++;
	last_rule = r;
	return r;
}

int
mlx5dm_rule_destroy(struct mlx5dm_rule *r, uint16_t queue)
{
	size_t i;

	if (queue != 0)
		return -EINVAL;
	for (i = 0; i < FAKE_MAX_RULES; i++)
		if (rules[i] == r)
			rules[i] = NULL;
	for (i = 0; i < r->n; i++)
		r->acts[i]->refs--;
	r->m->rules--;
	if (last_rule == r)
		last_rule = NULL;
	free(r);
	live.rules--;
	return 0;
}

static struct mlx5dm_action *
fake_action(struct mlx5dm_domain *dom, enum fake_act_kind kind)
{
	struct mlx5dm_action *a;

	if (dom == NULL) {
		errno = EINVAL;
		return NULL;
	}
	if (fake_fail())
		return NULL;
	a = calloc(1, sizeof(*a));
	a->dom = dom;
	a->kind = kind;
	live.actions++;
	return a;
}

struct mlx5dm_action *
mlx5dm_action_drop(struct mlx5dm_domain *dom)
{
	return fake_action(dom, FAKE_DROP);
}

struct mlx5dm_action *
mlx5dm_action_default_miss(struct mlx5dm_domain *dom)
{
	return fake_action(dom, FAKE_DEFAULT_MISS);
}

struct mlx5dm_action *
mlx5dm_action_dest_vport(struct mlx5dm_domain *dom, uint16_t vport)
{
	(void)vport;
	return fake_action(dom, FAKE_VPORT);
}

struct mlx5dm_action *
mlx5dm_action_dest_table(struct mlx5dm_domain *dom, struct mlx5dm_table *t)
{
	struct mlx5dm_action *a;

	if (t == NULL || t->dom != dom) {
		errno = EINVAL;
		return NULL;
	}
	a = fake_action(dom, FAKE_DEST_TABLE);
	if (a != NULL) {
		a->tbl = t;
		t->refs++;
	}
	return a;
}

struct mlx5dm_action *
mlx5dm_action_dest_tir(struct mlx5dm_domain *dom, struct mlx5dm_tir *tir)
{
	struct mlx5dm_action *a = fake_action(dom, FAKE_DEST_TIR);

	if (a != NULL) {
		a->tir = tir;
		tir->refs++;
	}
	return a;
}

struct mlx5dm_action *
mlx5dm_action_counters(struct mlx5dm_domain *dom, struct mlx5dm_counters *c)
{
	struct mlx5dm_action *a = fake_action(dom, FAKE_COUNTERS);

	if (a != NULL) {
		a->cnt = c;
		c->refs++;
	}
	return a;
}

/* As the library's: the address, and for a bulk's action the counter with bit 63. */
uint64_t
mlx5dm_action_dump_id(const struct mlx5dm_action *a, uint32_t arg)
{
	if (a->kind == FAKE_COUNTERS)
		return 1ull << 63 | arg;
	return (uint64_t)(uintptr_t)a;
}

struct mlx5dm_action *
mlx5dm_action_counter(struct mlx5dm_domain *dom, struct mlx5dm_counters *c, uint32_t index)
{
	struct mlx5dm_action *a;

	if (index >= c->n) {
		errno = EINVAL;
		return NULL;
	}
	a = fake_action(dom, FAKE_COUNTER);
	if (a != NULL) {
		a->cnt = c;
		a->u32 = index;
		c->refs++;
	}
	return a;
}

struct mlx5dm_action *
mlx5dm_action_flow_tag(struct mlx5dm_domain *dom, uint32_t tag)
{
	struct mlx5dm_action *a;

	if (tag > 0xffffff || dom->id != 0) {
		errno = EINVAL;
		return NULL;
	}
	a = fake_action(dom, FAKE_TAG);
	if (a != NULL)
		a->u32 = tag;
	return a;
}

struct mlx5dm_action *
mlx5dm_action_flow_tags(struct mlx5dm_domain *dom)
{
	if (dom->id != 0) {
		errno = EINVAL;
		return NULL;
	}
	return fake_action(dom, FAKE_TAGS);
}

struct mlx5dm_action *
mlx5dm_action_modify_header(struct mlx5dm_domain *dom, size_t nb, const uint8_t *prm)
{
	struct mlx5dm_action *a;

	if (nb == 0 || nb > 64) {
		errno = EINVAL;
		return NULL;
	}
	a = fake_action(dom, FAKE_MODIFY);
	if (a != NULL) {
		a->len = nb * 8;
		memcpy(a->data, prm, a->len);
	}
	return a;
}

struct mlx5dm_action *
mlx5dm_action_modify_set(struct mlx5dm_domain *dom, const uint8_t *prm)
{
	struct mlx5dm_action *a = fake_action(dom, FAKE_MODIFY_SET);

	if (a != NULL) {
		a->len = 8;
		memcpy(a->data, prm, 4);
		memset(a->data + 4, 0, 4);
	}
	return a;
}

int
mlx5dm_rule_modify_data(const struct mlx5dm_rule *rule, const struct mlx5dm_action *a,
			uint32_t *data)
{
	size_t i;

	for (i = 0; i < rule->n; i++)
		if (rule->acts[i] == a && a->kind == FAKE_MODIFY_SET) {
			*data = rule->args[i];
			return 0;
		}
	return -EINVAL;
}

struct mlx5dm_action *
mlx5dm_action_reformat(struct mlx5dm_domain *dom, enum mlx5dm_reformat_type type, size_t len,
		       const void *data)
{
	struct mlx5dm_action *a;

	if (len > sizeof(a->data) || (len != 0 && data == NULL)) {
		errno = EINVAL;
		return NULL;
	}
	a = fake_action(dom, FAKE_REFORMAT);
	if (a != NULL) {
		a->u32 = type;
		a->len = len;
		if (len != 0)
			memcpy(a->data, data, len);
	}
	return a;
}

struct mlx5dm_action *
mlx5dm_action_push_vlan(struct mlx5dm_domain *dom, uint32_t vlan_hdr)
{
	struct mlx5dm_action *a = fake_action(dom, FAKE_PUSH);

	if (a != NULL)
		a->u32 = vlan_hdr;
	return a;
}

struct mlx5dm_action *
mlx5dm_action_pop_vlan(struct mlx5dm_domain *dom)
{
	return fake_action(dom, FAKE_POP);
}

int
mlx5dm_action_destroy(struct mlx5dm_action *a)
{
	if (a->refs != 0)
		return -EBUSY;
	if (a->tbl != NULL)
		a->tbl->refs--;
	if (a->tir != NULL)
		a->tir->refs--;
	if (a->cnt != NULL)
		a->cnt->refs--;
	free(a);
	live.actions--;
	return 0;
}

struct mlx5dm_tir *
mlx5dm_tir_create(struct mlx5dm_ctx *ctx, const uint32_t *rqns, uint32_t nb,
		  const struct mlx5dm_rss_attr *rss)
{
	struct mlx5dm_tir *t;

	(void)ctx;
	if (nb == 0 || nb > 64 || (rss == NULL && nb != 1)) {
		errno = EINVAL;
		return NULL;
	}
	if (fake_fail())
		return NULL;
	t = calloc(1, sizeof(*t));
	t->nb = nb;
	memcpy(t->rqns, rqns, nb * sizeof(*rqns));
	t->hash = rss != NULL;
	if (rss != NULL)
		t->rss = *rss;
	live.tirs++;
	return t;
}

int
mlx5dm_tir_destroy(struct mlx5dm_tir *t)
{
	if (t->refs != 0)
		return -EBUSY;
	free(t);
	live.tirs--;
	return 0;
}

/* The fake writes nothing through queues: a doorbell has nothing to ring. */
int
mlx5dm_queue_flush(struct mlx5dm_ctx *ctx, uint16_t queue)
{
	(void)ctx;
	return queue == 0 ? 0 : -EINVAL;
}

int
mlx5dm_queue_resize(struct mlx5dm_ctx *ctx, uint16_t queue, uint32_t ops)
{
	return ops == 0 || ops > MLX5DM_QUEUE_MAX_OPS ? -EINVAL : mlx5dm_queue_flush(ctx, queue);
}

int
mlx5dm_queue_drain(struct mlx5dm_ctx *ctx, uint16_t queue)
{
	return mlx5dm_queue_flush(ctx, queue);
}

int
mlx5dm_queue_doorbell_batch(struct mlx5dm_ctx *ctx, uint16_t queue, uint32_t wqes)
{
	(void)wqes;
	return mlx5dm_queue_flush(ctx, queue);
}

/* Nor does a queue fail: nothing is ever lost, nothing to bring back. */
uint32_t
mlx5dm_queue_pos(struct mlx5dm_ctx *ctx, uint16_t queue)
{
	(void)ctx;
	(void)queue;
	return 0;
}

/* Everything it was asked to write is done at once. */
int
mlx5dm_queue_poll(struct mlx5dm_ctx *ctx, uint16_t queue, struct mlx5dm_queue_progress *p)
{
	p->done = 0;
	p->recoveries = 0;
	return mlx5dm_queue_flush(ctx, queue);
}

bool
mlx5dm_queue_done(const struct mlx5dm_queue_progress *p, uint32_t pos)
{
	return (int32_t)(p->done - pos) >= 0;
}

bool
mlx5dm_queue_lost(struct mlx5dm_ctx *ctx, uint16_t queue, uint32_t pos)
{
	(void)ctx;
	(void)queue;
	(void)pos;
	return false;
}

int
mlx5dm_queue_recover(struct mlx5dm_ctx *ctx, uint16_t queue)
{
	return mlx5dm_queue_flush(ctx, queue);
}

int
mlx5dm_queue_stats_get(struct mlx5dm_ctx *ctx, uint16_t queue, struct mlx5dm_queue_stats *st)
{
	memset(st, 0, sizeof(*st));
	return mlx5dm_queue_flush(ctx, queue);
}

/* The fake has no ICM to run out of. */
int
mlx5dm_ctx_ste_room(struct mlx5dm_ctx *ctx, uint64_t rules)
{
	(void)ctx;
	(void)rules;
	return 0;
}

struct mlx5dm_counters *
mlx5dm_counters_alloc(struct mlx5dm_ctx *ctx, uint32_t log_n)
{
	struct mlx5dm_counters *c;

	(void)ctx;
	if ((1u << log_n) > 1024) {
		errno = EINVAL;
		return NULL;
	}
	if (fake_fail())
		return NULL;
	c = calloc(1, sizeof(*c));
	c->n = 1u << log_n;
	live.counters++;
	return c;
}

int
mlx5dm_counters_free(struct mlx5dm_counters *c)
{
	if (c->refs != 0)
		return -EBUSY;
	free(c);
	live.counters--;
	return 0;
}

int
mlx5dm_counters_query(struct mlx5dm_counters *c, uint32_t index, uint64_t *packets,
		      uint64_t *bytes)
{
	if (index >= c->n)
		return -EINVAL;
	*packets = c->packets[index];
	*bytes = c->bytes[index];
	return 0;
}

int
mlx5dm_domain_dump(struct mlx5dm_domain *dom, FILE *f)
{
	return fprintf(f, "fake domain %d\n", dom->id) < 0 ? -EIO : 0;
}

int
mlx5dm_rule_dump(struct mlx5dm_rule *rule, FILE *f)
{
	return fprintf(f, "fake rule %zu actions\n", rule->n) < 0 ? -EIO : 0;
}
