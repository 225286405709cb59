/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Rule insertion and deletion (rdma-core providers/mlx5/dr_rule.c), one matcher at a time.
 *
 * Insert: build the rule's STEs (one per builder, then action STEs), walk
 * the levels: reuse an entry with the same tag (non-last level), or place a
 * new one in the chain head (slot, or collision entry appended to the slot's
 * chain). A new non-last entry gets a fresh one-entry table, written before
 * anything points at it. All entry writes are queued and flushed deepest
 * first, so the rule becomes reachable with its level-0 entry last.
 *
 * Delete: walk back to level 0, drop references from the top; the first
 * entry whose count reaches zero is unlinked with one write (slot rewritten
 * as always-miss, or a follower copied into the slot, or the predecessor's
 * miss pointer moved on), which detaches everything below it.
 *
 * Queues: each queue has its own ring. On a context with several queues a
 * matcher is in shards (struct mlx5dm_shard): a rule takes the lock of its
 * shard only, and before its first write waits for another queue's writes
 * into the same slot chain (its last level's, and the structure recorded
 * at its level-0 slot) that may not have executed yet, so writes to the
 * same entries are never reordered across rings (doc/guides/steering.rst).
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_steer_priv.h"

#define MLX5DM_RULE_MAX_STES (MLX5DM_STE_MAX_BUILDERS + MLX5DM_STE_MAX_ACTION_STES)
_Static_assert(MLX5DM_RULE_PREP_BYTES == MLX5DM_RULE_MAX_STES * MLX5DM_STE_SIZE,
	       "a prep holds a rule's largest entry array");
#define MLX5DM_RULE_MAX_WRITES (2 * MLX5DM_STE_MAX_BUILDERS + MLX5DM_STE_MAX_ACTION_STES)

/* References a rule record of each size class holds (action STEs, actions, arguments). */
static const uint8_t mlx5dm_rule_class_refs[MLX5DM_RULE_CLASSES] = {
	1, 3, 8, MLX5DM_RULE_MAX_ACTIONS + MLX5DM_STE_MAX_ACTION_STES +
		 (MLX5DM_RULE_MAX_ACTIONS + 1) / 2,
};

void
mlx5dm_rule_slabs_init(struct mlx5dm_shard *sh, int socket)
{
	unsigned int c;

	for (c = 0; c < MLX5DM_RULE_CLASSES; c++)
		mlx5dm_slab_init(&sh->rule_slab[c], sizeof(struct mlx5dm_ste) +
				 sizeof(struct mlx5dm_rule) +
				 mlx5dm_rule_class_refs[c] * sizeof(void *), socket);
}

void
mlx5dm_rule_slabs_destroy(struct mlx5dm_shard *sh)
{
	unsigned int c;

	for (c = 0; c < MLX5DM_RULE_CLASSES; c++)
		mlx5dm_slab_destroy(&sh->rule_slab[c]);
}

static struct mlx5dm_rule *
mlx5dm_rule_alloc(struct mlx5dm_shard *sh, unsigned int nb_refs)
{
	struct mlx5dm_ste *last;
	struct mlx5dm_rule *rule;
	uint8_t c = 0;

	while (mlx5dm_rule_class_refs[c] < nb_refs)
		c++;
	/*
	 * Not zeroed: the caller sets the header, references are set as they
	 * are placed. The last match entry's record is zeroed (lean).
	 */
	last = mlx5dm_slab_alloc_raw(&sh->rule_slab[c]);
	if (last == NULL)
		return NULL;
	memset(last, 0, sizeof(*last));
	last->lean = 1;
	rule = (struct mlx5dm_rule *)(last + 1);
	rule->size_class = c;
	return rule;
}

static void
mlx5dm_rule_free(struct mlx5dm_shard *sh, struct mlx5dm_rule *rule)
{
	mlx5dm_slab_free(&sh->rule_slab[rule->size_class], mlx5dm_rule_last(rule));
}

/*
 * Action references. Every rule holds a reference on each of its actions,
 * and the shared ones (a queue, a bulk's counter action) take a locked add
 * per rule and per deletion, each waiting for the core's store buffer.
 * A matcher's action-reference ways hold one reference for all its rules that count
 * there. The action's count stays (rules of m that did not count in a way)
 * + (1 per way in use), so it is 0 exactly when no rule uses it: a rule is
 * released from a way if its action has one in use, however it was taken.
 * With every way in use, a new action takes the one of fewest rules: they
 * move to the action's count, one locked add for them all. The ways keep
 * the actions most rules share (a queue) and follow the new ones (a new
 * counter bulk's action every 2^16 counted rules of flow-perf).
 * Shard lock held (a rule is released in the shard it was created in).
 */
static inline void
mlx5dm_rule_act_ref(struct mlx5dm_shard *sh, struct mlx5dm_action *a)
{
	struct mlx5dm_matcher_action_ref *r, *way = &sh->action_refs[0];
	unsigned int i;

	for (i = 0; i < MLX5DM_MATCHER_ACTION_REFS; i++) {
		r = &sh->action_refs[i];
		if (r->n != 0 && r->a == a) {
			r->n++;
			return;
		}
		if (r->n < way->n)
			way = r;
	}
	if (way->n > 1)
		mlx5dm_action_ref(way->a, way->n - 1);
	/* The way's reference. */
	mlx5dm_action_ref(a, 1);
	way->a = a;
	way->n = 1;
}

/* True when a's reference is left for the caller to drop (after unlocking). */
static inline bool
mlx5dm_rule_act_unref(struct mlx5dm_shard *sh, struct mlx5dm_action *a)
{
	unsigned int i;

	for (i = 0; i < MLX5DM_MATCHER_ACTION_REFS; i++) {
		struct mlx5dm_matcher_action_ref *r = &sh->action_refs[i];

		if (r->n != 0 && r->a == a)
			return --r->n == 0;
	}
	return true;
}

struct mlx5dm_rule_write {
	struct mlx5dm_ste *ste;
	const uint8_t *bit_mask;    /* full write with this mask; NULL + ctrl = control only */
	const uint8_t *placed;      /* the rule's own lean entry: its placed control part */
	bool ctrl;
};

/* The shard of a rule whose entries (level 0 first) are arr: its level-0 slot hash. */
static inline unsigned int
mlx5dm_rule_shard_of(const struct mlx5dm_matcher *m, const uint8_t *arr)
{
	if (m->nb_shards == 1)
		return 0;
	return mlx5dm_ste_hash_bwc(arr + MLX5DM_STE_CTRL_SIZE, m->builders[0].byte_mask) &
	       (m->nb_shards - 1);
}

/*
 * Lock shard si of m for a rule on queue qi. With one shard the queue is
 * locked too; with several, mlx5dm_rule_order() locks it once the rule's
 * slot chain is known and another queue's writes into it have executed.
 */
static struct mlx5dm_shard *
mlx5dm_rule_lock(struct mlx5dm_matcher *m, unsigned int si, uint16_t qi,
		 struct mlx5dm_queue **qp)
{
	struct mlx5dm_shard *sh = &m->shards[si];

	*qp = &m->tbl->dom->ctx->queues[qi];
	if (!mlx5dm_spinlock_trylock(&sh->lock)) {
		/* Only qi's user writes it; mlx5dm_queue_stats_get() reads it. */
		__atomic_store_n(&(*qp)->n_shard_busy, (*qp)->n_shard_busy + 1,
				 __ATOMIC_RELAXED);
		mlx5dm_spinlock_lock(&sh->lock);
	}
	if (m->nb_shards == 1)
		mlx5dm_spinlock_lock(&(*qp)->lock);
	/* The next free records: a rule takes some (a freed one's link is read first). */
	MLX5DM_PREFETCH(mlx5dm_slab_peek(&sh->ste_slab));
	MLX5DM_PREFETCH(mlx5dm_slab_peek(&sh->rule_slab[0]));
	return sh;
}

/*
 * Link s (s->hash set) into its slot of t behind tail, the chain's last
 * entry (NULL: the slot is unused and s takes it; the caller reserved its
 * page: mlx5dm_htbl_slot_reserve()). A
 * collision entry has its own ICM entry already. The records' miss
 * pointers are set: s's where the chain used to end, the old end's to s
 * (a lean entry's follow from its links: mlx5dm_ste_ctrl_get()).
 */
void
mlx5dm_rule_link(struct mlx5dm_shard *sh, struct mlx5dm_htbl *t, struct mlx5dm_ste *s,
		 struct mlx5dm_ste *tail)
{
	struct mlx5dm_ctx *ctx = sh->m->tbl->dom->ctx;

	s->htbl = t;
	if (tail == NULL) {
		s->chunk = t->chunk;
		mlx5dm_htbl_slot_replace(t, mlx5dm_ste_slot(s), s);
		mlx5dm_htbl_count_used(sh, t, 1);
	} else {
		s->collision = true;
		tail->next_col = s;
		mlx5dm_htbl_count_collision(sh, t, 1);
	}
	if (!s->lean)
		mlx5dm_ste_set_miss_addr(ctx->ste, s->ctrl, mlx5dm_htbl_miss_target(t));
	if (tail != NULL && !tail->lean)
		mlx5dm_ste_set_miss_addr(ctx->ste, tail->ctrl, mlx5dm_ste_icm(s));
}

/*
 * A new entry in table t for its tag's hash: the slot itself if unused, else
 * a collision entry appended to the slot's chain (*prev_tail = the entry
 * whose miss pointer must then move to it), from its image ent. The
 * record's miss pointer is set. lean: a last-level entry's record (its
 * rule's), else one is allocated.
 */
static struct mlx5dm_ste *
mlx5dm_rule_place(struct mlx5dm_shard *sh, struct mlx5dm_htbl *t, uint32_t hash,
		  const uint8_t *ent, struct mlx5dm_ste *lean, struct mlx5dm_ste **prev_tail)
{
	uint32_t slot = hash & (t->num_entries - 1);
	struct mlx5dm_ste *s;

	*prev_tail = mlx5dm_htbl_slot_tail(t, slot);
	if (lean != NULL) {
		s = lean;
		if (*prev_tail == NULL ? mlx5dm_htbl_slot_reserve(t, slot) < 0 :
		    mlx5dm_entry_pool_get(&sh->entry_pool, sh->m->tbl->dom->ctx, s) < 0)
			return NULL;
	} else if (*prev_tail == NULL) {
		s = mlx5dm_ste_rec_alloc(sh);
		if (s == NULL)
			return NULL;
		if (mlx5dm_htbl_slot_reserve(t, slot) < 0) {
			mlx5dm_slab_free(&sh->ste_slab, s);
			return NULL;
		}
	} else {
		s = mlx5dm_ste_entry_alloc(sh);
		if (s == NULL)
			return NULL;
	}
	s->hash = hash;
	mlx5dm_ste_set_image(s, ent);
	mlx5dm_rule_link(sh, t, s, *prev_tail);
	return s;
}

/*
 * An entry above the last level leaves its shard's index: its table names
 * its chain (the key does not depend on which table of the chain).
 */
static void
mlx5dm_rule_unindex(struct mlx5dm_shard *sh, struct mlx5dm_ste *s)
{
	mlx5dm_tag_index_remove(&sh->index, s, mlx5dm_tag_index_hash(s->htbl->root, s->tag));
}

/* Undo mlx5dm_rule_place() for an entry nothing was written for yet. */
static void
mlx5dm_rule_unplace(struct mlx5dm_shard *sh, struct mlx5dm_ste *s, struct mlx5dm_ste *prev_tail,
		    struct mlx5dm_defer *d)
{
	struct mlx5dm_ctx *ctx = sh->m->tbl->dom->ctx;
	struct mlx5dm_htbl *t = s->htbl;

	if (!s->ends_rule)
		mlx5dm_rule_unindex(sh, s);
	if (prev_tail == NULL) {
		mlx5dm_htbl_slot_clear(t, mlx5dm_ste_slot(s));
		mlx5dm_htbl_count_used(sh, t, -1);
	} else {
		prev_tail->next_col = NULL;
		if (!prev_tail->lean)
			mlx5dm_ste_set_miss_addr(ctx->ste, prev_tail->ctrl,
						 mlx5dm_htbl_miss_target(t));
		mlx5dm_htbl_count_collision(sh, t, -1);
	}
	mlx5dm_ste_rec_free(sh, s, d);
}

/* Free a subtree: the chain below a dead entry, all of whose entries are dead too. */
static void
mlx5dm_rule_free_subtree(struct mlx5dm_shard *sh, struct mlx5dm_htbl *head,
			 struct mlx5dm_defer *d)
{
	struct mlx5dm_matcher *m = sh->m;
	struct mlx5dm_htbl *t;
	uint32_t i;

	for (t = head; t != NULL; t = t->chain_next) {
		for (i = 0; i < t->num_entries; i++) {
			struct mlx5dm_ste *s, *n;

			/* A page never used holds nothing. */
			if (t->pages[i >> MLX5DM_HTBL_PAGE_LOG] == NULL) {
				i |= MLX5DM_HTBL_PAGE - 1;
				continue;
			}
			s = mlx5dm_htbl_slot(t, i);
			if (s == NULL)
				continue;
			while (s != NULL) {
				n = s->next_col;
				if (mlx5dm_ste_next_htbl(s) != NULL) {
					mlx5dm_rule_free_subtree(sh, s->next_htbl, d);
					mlx5dm_rule_unindex(sh, s);
				}
				mlx5dm_ste_rec_free(sh, s, d);
				s = n;
			}
			mlx5dm_htbl_slot_clear(t, i);
		}
	}
	mlx5dm_htbl_chain_free(m, head, d);
}

struct mlx5dm_rule_ctx {
	struct mlx5dm_ctx *ctx;
	struct mlx5dm_matcher *m;
	struct mlx5dm_shard *sh;
	struct mlx5dm_queue *q;
	uint16_t qi;
	bool q_locked;
	struct mlx5dm_order *order;       /* the slot record to update when done, or NULL */
	/*
	 * Several levels: the record of the level-0 slot above the rule, for
	 * writes other than its own last-level entry (new chains, growth,
	 * moves, unlinks above the last level). Updated when done only if the
	 * operation wrote such (structural), or anything after its own
	 * writes ended at end (ended: mlx5dm_rule_ended()).
	 */
	struct mlx5dm_order *top;
	bool structural;
	bool ended;
	uint32_t end;
	struct mlx5dm_defer d;
	struct mlx5dm_rule_write w[MLX5DM_RULE_MAX_WRITES];
	unsigned int nw;
	/* Undo log for a failed insert (before any write). */
	struct mlx5dm_ste *path[MLX5DM_STE_MAX_BUILDERS];
	struct mlx5dm_ste *tails[MLX5DM_STE_MAX_BUILDERS];
	bool created[MLX5DM_STE_MAX_BUILDERS];
	struct mlx5dm_htbl *placed_in[MLX5DM_STE_MAX_BUILDERS];
	unsigned int depth;
	/* The shared level-0 entry (or NULL), set before the walk. */
	struct mlx5dm_ste *l0;
	/* The last level's chain as predicted (or NULL), and its slot hash. */
	const struct mlx5dm_htbl *pf_head;
	uint32_t pf_hash;
};

/* Only what an operation reads before writing it: the write list and undo log stay as they are. */
static void
mlx5dm_rule_ctx_init(struct mlx5dm_rule_ctx *rc, struct mlx5dm_matcher *m)
{
	rc->ctx = m->tbl->dom->ctx;
	rc->m = m;
	rc->sh = NULL;
	rc->q = NULL;
	rc->q_locked = false;
	rc->order = NULL;
	rc->top = NULL;
	rc->structural = false;
	rc->ended = false;
	rc->d.n = 0;
	rc->d.cap = 0;
	rc->d.want_sync = false;
	rc->d.more = NULL;
	rc->d.sync_pool = rc->ctx->ste_pool;
	rc->nw = 0;
	rc->depth = 0;
	rc->pf_head = NULL;
	rc->l0 = NULL;
}

/*
 * Several shards: another queue's writes recorded in o, if they may not
 * have executed, are made to first (the wait takes the other queue's
 * lock: no queue lock is held while it runs). 0, or -ETIMEDOUT (they may
 * still execute: nothing may be written after them).
 */
static int
mlx5dm_rule_wait(struct mlx5dm_rule_ctx *rc, const struct mlx5dm_order *o)
{
	if (o->queue == rc->qi || o->queue == UINT16_MAX)
		return 0;
	return mlx5dm_steer_queue_wait(rc->ctx, o->queue, o->pos, false);
}

/* The rule's writes are ordered by record o (or, NULL, need none): lock the queue. */
static int
mlx5dm_rule_order_lock(struct mlx5dm_rule_ctx *rc, struct mlx5dm_order *o)
{
	rc->order = o;
	mlx5dm_spinlock_lock(&rc->q->lock);
	rc->q_locked = true;
	return mlx5dm_send_error(rc->q->ring);
}

/*
 * Several shards: the rule's writes go into the slot chain of table t at
 * slot. Another queue's writes into it are made to execute first, then
 * the queue is locked. Nothing is written before this. 0, -EIO (a ring
 * in error), or -ETIMEDOUT (the queue is not locked).
 */
static int
mlx5dm_rule_order(struct mlx5dm_rule_ctx *rc, const struct mlx5dm_htbl *t, uint32_t slot)
{
	struct mlx5dm_order *o;
	int ret;

	if (rc->q_locked)
		return 0;
	o = mlx5dm_htbl_order(t, slot);
	ret = mlx5dm_rule_wait(rc, o);
	if (ret < 0)
		return ret;
	return mlx5dm_rule_order_lock(rc, o);
}

/*
 * Several shards, at level 0 (slot of table t): a one-level rule writes
 * that slot chain (mlx5dm_rule_order()). A deeper rule's chains hang from
 * it: their structure (new chains, growth, moves) is recorded there and
 * is made to execute first; the queue is locked once the rule knows what
 * it writes (its last-level slot chain, or a new chain).
 */
static int
mlx5dm_rule_order_top(struct mlx5dm_rule_ctx *rc, const struct mlx5dm_htbl *t, uint32_t slot)
{
	if (rc->q_locked)
		return 0;
	if (rc->m->nb_builders == 1)
		return mlx5dm_rule_order(rc, t, slot);
	rc->top = mlx5dm_htbl_order(t, slot);
	return mlx5dm_rule_wait(rc, rc->top);
}

/*
 * The rule's own writes end here (ok: all posted): its slot record names
 * them now, since what follows (growth, moves) may free the table that
 * holds the record; anything written after them is structure.
 */
static void
mlx5dm_rule_ended(struct mlx5dm_rule_ctx *rc, bool ok)
{
	rc->end = mlx5dm_send_pos(rc->q->ring);
	rc->ended = ok;
	if (rc->order != NULL) {
		rc->order->queue = rc->qi;
		rc->order->pos = rc->end;
		rc->order = NULL;
	}
}

/* Unlock the queue (recording where the rule's writes end) and the shard. */
static void
mlx5dm_rule_unlock(struct mlx5dm_rule_ctx *rc)
{
	if (rc->order != NULL) {
		rc->order->queue = rc->qi;
		rc->order->pos = mlx5dm_send_pos(rc->q->ring);
	}
	if (rc->top != NULL && rc->q_locked &&
	    (rc->structural || !rc->ended || mlx5dm_send_pos(rc->q->ring) != rc->end)) {
		rc->top->queue = rc->qi;
		rc->top->pos = mlx5dm_send_pos(rc->q->ring);
	}
	if (rc->q_locked)
		mlx5dm_spinlock_unlock(&rc->q->lock);
	mlx5dm_spinlock_unlock(&rc->sh->lock);
}

static void
mlx5dm_rule_lock_ctx(struct mlx5dm_rule_ctx *rc, unsigned int si, uint16_t qi)
{
	rc->qi = qi;
	rc->sh = mlx5dm_rule_lock(rc->m, si, qi, &rc->q);
	rc->q_locked = rc->m->nb_shards == 1;
}

/*
 * The shard's level-0 hint when the rule's level-0 tag is the hint's (the
 * rule shares that entry), else NULL. Shard lock held (the hint changes
 * under it).
 */
static inline struct mlx5dm_ste *
mlx5dm_rule_l0_shared(const struct mlx5dm_shard *sh, const uint8_t *arr)
{
	const struct mlx5dm_matcher *m = sh->m;
	struct mlx5dm_ste *hint = sh->l0_hint;

	if (m->nb_builders < 2 || hint == NULL || hint->htbl->root != m->first->root ||
	    memcmp(hint->tag, arr + MLX5DM_STE_CTRL_SIZE, MLX5DM_STE_TAG_SIZE) != 0)
		return NULL;
	return hint;
}

/*
 * The chain a rule's last level goes to, when it can be told before the
 * walk: the matcher's first chain for a one-level matcher, the child of the
 * shared level-0 entry l0 (from mlx5dm_rule_l0_shared()) for a two-level
 * one. NULL otherwise.
 */
static inline const struct mlx5dm_htbl *
mlx5dm_rule_predict(const struct mlx5dm_matcher *m, const struct mlx5dm_ste *l0)
{
	if (m->nb_builders == 1)
		return m->first;
	if (m->nb_builders > 2 || l0 == NULL)
		return NULL;
	return l0->next_htbl;
}

/* The last level's tag within a rule's entry array. */
static inline const uint8_t *
mlx5dm_rule_last_tag(const struct mlx5dm_matcher *m, const uint8_t *arr)
{
	return mlx5dm_matcher_last_entry(m, arr) + MLX5DM_STE_CTRL_SIZE;
}

/*
 * Predict the last level's chain and compute its slot hash into prep,
 * starting the load of its slot head: a random line in a structure sized
 * by the rule count (megabytes at a million rules), a memory miss per
 * rule if loaded at lookup time. Shard lock held.
 */
static void
mlx5dm_rule_prep_hint(struct mlx5dm_shard *sh, struct mlx5dm_rule_prep *prep)
{
	struct mlx5dm_matcher *m = sh->m;
	const struct mlx5dm_ste *l0 = mlx5dm_rule_l0_shared(sh, prep->ste);
	const struct mlx5dm_htbl *head = mlx5dm_rule_predict(m, l0);
	const uint8_t *tag = mlx5dm_rule_last_tag(m, prep->ste);

	prep->root = NULL;
	if (head == NULL)
		return;
	prep->root = head->root;
	prep->hash = mlx5dm_ste_hash_bwc(tag, head->byte_mask);
	mlx5dm_htbl_slot_prefetch(head, prep->hash & (head->num_entries - 1));
}

/*
 * At create time (lock held): the prediction again; the prepare's hash
 * serves when it saw the same chain (same tag: same array), else it is
 * computed now. Done before the rule record is taken, the loads overlap
 * it; done by mlx5dm_rule_prepare() they also overlap the caller's work
 * and the action placement. A wrong guess costs useless prefetches.
 */
static void
mlx5dm_rule_prefetch_ctx(struct mlx5dm_rule_ctx *rc, struct mlx5dm_rule_prep *prep)
{
	struct mlx5dm_matcher *m = rc->m;
	const struct mlx5dm_htbl *head;
	const struct mlx5dm_ste *first;

	/* rc->l0: the shared level-0 entry the create found (the walk takes it from there). */
	head = mlx5dm_rule_predict(m, rc->l0);
	if (head == NULL)
		return;
	if (prep->root != head->root)
		mlx5dm_rule_prep_hint(rc->sh, prep);
	rc->pf_head = head;
	rc->pf_hash = prep->hash;
	/*
	 * An occupied slot: its chain is searched for the tag and the new
	 * entry goes behind it; its first record (both lines: tag and links,
	 * then the control bytes rewritten) is one more miss that could only
	 * start once the slot head is known.
	 */
	first = mlx5dm_htbl_slot(head, rc->pf_hash & (head->num_entries - 1));
	if (first != NULL) {
		MLX5DM_PREFETCH(first);
		MLX5DM_PREFETCH(&first->next_col);
	}
}

/* Check the value and build the entries: a prep without hints. */
static int
mlx5dm_rule_prep_build(struct mlx5dm_matcher *m, const uint8_t *value,
		       struct mlx5dm_rule_prep *prep)
{
	const char *field = NULL;
	int ret;

	if (m == NULL || value == NULL || prep == NULL)
		return -EINVAL;
	prep->matcher = NULL;
	/* The template's quick check; the full one names the field at fault. */
	if (!mlx5dm_ste_tmpl_value_ok(&m->tmpl, value)) {
		ret = mlx5dm_ste_check_value(m->mask, value, m->criteria, &field);
		if (ret < 0) {
			MLX5DM_LOG(ERR, MLX5DM_STEER_LOG, "rule value outside the matcher mask: %s",
				   field != NULL ? field : "?");
			return ret;
		}
	}
	ret = mlx5dm_ste_tmpl_build(&m->tmpl, value, prep->ste);
	if (ret < 0)
		return ret;
	prep->matcher = m;
	prep->root = NULL;
	return 0;
}

/* The hint of a NIC rule's prep (its entries built). */
static void
mlx5dm_rule_prep_shard_hint(struct mlx5dm_matcher *m, struct mlx5dm_rule_prep *prep)
{
	struct mlx5dm_shard *sh = &m->shards[mlx5dm_rule_shard_of(m, prep->ste)];

	/* Never a wait (callers prepare under locks of their own): a busy shard gives no hint. */
	if (mlx5dm_spinlock_trylock(&sh->lock)) {
		mlx5dm_rule_prep_hint(sh, prep);
		mlx5dm_spinlock_unlock(&sh->lock);
	}
}

int
mlx5dm_rule_prepare(struct mlx5dm_matcher *m, const uint8_t *value,
		    struct mlx5dm_rule_prep *prep)
{
	int ret = mlx5dm_rule_prep_build(m, value, prep);

	if (ret < 0)
		return ret;
	if (m->half[MLX5DM_STE_DIR_RX] != NULL)
		return mlx5dm_fdb_rule_prepare(m, value, prep);
	mlx5dm_rule_prep_shard_hint(m, prep);
	return 0;
}

struct mlx5dm_tag_tmpl {
	struct mlx5dm_matcher *matcher;
	struct mlx5dm_ste_tag tag;
};

struct mlx5dm_tag_tmpl *
mlx5dm_tag_tmpl_create(struct mlx5dm_matcher *m, const uint8_t *value,
		       const struct mlx5dm_match_move *moves, unsigned int nb_moves)
{
	struct mlx5dm_ste_move mv[MLX5DM_STE_TAG_MAX_MOVES];
	struct mlx5dm_tag_tmpl *t;
	unsigned int i;
	int ret;

	if (m == NULL || value == NULL || (moves == NULL && nb_moves != 0)) {
		errno = EINVAL;
		return NULL;
	}
	/* An FDB rule's two sides are built apart (mlx5dm_fdb_rule_prepare()). */
	if (m->half[MLX5DM_STE_DIR_RX] != NULL || nb_moves > MLX5DM_STE_TAG_MAX_MOVES) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	for (i = 0; i < nb_moves; i++)
		mv[i] = (struct mlx5dm_ste_move){ .from = moves[i].from, .to = moves[i].to,
						  .src = moves[i].src, .len = moves[i].len };
	t = mlx5dm_zmalloc_socket(sizeof(*t), m->tbl->dom->ctx->dev->socket);
	if (t == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	t->matcher = m;
	ret = mlx5dm_ste_tag_compile(&m->tmpl, value, mv, nb_moves, &t->tag);
	if (ret < 0) {
		mlx5dm_free(t);
		errno = -ret;
		return NULL;
	}
	return t;
}

void
mlx5dm_tag_tmpl_destroy(struct mlx5dm_tag_tmpl *t)
{
	mlx5dm_free(t);
}

int
mlx5dm_rule_prepare_tag(const struct mlx5dm_tag_tmpl *t, const void *const src[],
			struct mlx5dm_rule_prep *prep)
{
	if (t == NULL || src == NULL || prep == NULL)
		return -EINVAL;
	mlx5dm_ste_tag_build(&t->tag, src, prep->ste);
	prep->matcher = t->matcher;
	prep->root = NULL;
	mlx5dm_rule_prep_shard_hint(t->matcher, prep);
	return 0;
}

static void
mlx5dm_rule_undo(struct mlx5dm_rule_ctx *rc)
{
	while (rc->depth-- > 0) {
		struct mlx5dm_ste *s = rc->path[rc->depth];

		if (!rc->created[rc->depth]) {
			s->refcount--;
			continue;
		}
		if (mlx5dm_ste_next_htbl(s) != NULL)
			mlx5dm_htbl_chain_free(rc->m, s->next_htbl, &rc->d);
		mlx5dm_rule_unplace(rc->sh, s, rc->tails[rc->depth], &rc->d);
	}
}

/*
 * The entry with this tag in the chain of head (hash: the tag's slot hash),
 * or NULL: its slot's collision chain in the head, then in the older table
 * while one remains. An entry leaves its slot chain when its last rule
 * goes, so only live entries are found; duplicates of a tag share a slot
 * chain (a duplicate goes behind the one found), the oldest first.
 */
static struct mlx5dm_ste *
mlx5dm_rule_chain_find(const struct mlx5dm_htbl *head, const uint8_t *tag, uint32_t hash)
{
	const struct mlx5dm_htbl *t;
	struct mlx5dm_ste *s;

	for (t = head; t != NULL; t = t->chain_next)
		for (s = mlx5dm_htbl_slot(t, hash & (t->num_entries - 1)); s != NULL;
		     s = s->next_col)
			if (memcmp(s->tag, tag, MLX5DM_STE_TAG_SIZE) == 0)
				return s;
	return NULL;
}

/* Walk the levels for the rule's STE array; fills rc->path and the write list. */
static int
mlx5dm_rule_walk(struct mlx5dm_rule_ctx *rc, struct mlx5dm_rule *rule, uint8_t *arr)
{
	struct mlx5dm_matcher *m = rc->m;
	struct mlx5dm_ctx *ctx = rc->ctx;
	struct mlx5dm_htbl *head = m->first;
	struct mlx5dm_shard *shd = rc->sh;
	unsigned int lvl, n = m->nb_builders;
	int ret;

	for (lvl = 0; lvl < n; lvl++) {
		uint8_t *ent = arr + (size_t)lvl * MLX5DM_STE_SIZE;
		const uint8_t *tag = ent + MLX5DM_STE_CTRL_SIZE;
		bool last = lvl == n - 1;
		struct mlx5dm_htbl *t = head;
		struct mlx5dm_ste *found, *s, *tail;
		uint32_t hash = 0, ihash = 0;

		/* The shared first level of the previous rule: no index lookup. */
		if (lvl == 0 && rc->l0 != NULL) {
			ret = mlx5dm_rule_order_top(rc, rc->l0->htbl, mlx5dm_ste_slot(rc->l0));
			if (ret < 0)
				return ret;
			rc->l0->refcount++;
			rc->path[0] = rc->l0;
			rc->created[0] = false;
			rc->depth = 1;
			head = rc->l0->next_htbl;
			continue;
		}
		/*
		 * The last level: an entry of its own, whose tag is looked for
		 * in the slot chains it would join (the slot was loaded already
		 * when mlx5dm_rule_prefetch_ctx() guessed this chain). Above it,
		 * an entry shared by many rules: the index answers in one probe.
		 */
		if (last) {
			hash = head == rc->pf_head ? rc->pf_hash :
						     mlx5dm_ste_hash_bwc(tag, head->byte_mask);
			found = mlx5dm_rule_chain_find(head, tag, hash);
		} else {
			ihash = mlx5dm_tag_index_hash(head->root, tag);
			found = mlx5dm_tag_index_find(&shd->index, head->root, tag, ihash);
		}
		if (lvl == 0) {
			/* Level 0 decides the slot chains the rule may write into. */
			if (found != NULL)
				ret = mlx5dm_rule_order_top(rc, found->htbl,
							    mlx5dm_ste_slot(found));
			else
				ret = mlx5dm_rule_order_top(rc, head,
					mlx5dm_ste_hash_bwc(tag, head->byte_mask) &
					(head->num_entries - 1));
			if (ret < 0)
				return ret;
		}
		if (found != NULL && !last) {
			found->refcount++;
			rc->path[lvl] = found;
			rc->created[lvl] = false;
			rc->depth = lvl + 1;
			head = found->next_htbl;
			if (lvl == 0)
				shd->l0_hint = found;
			continue;
		}
		if (found != NULL && !ctx->allow_dup)
			return -EEXIST;
		/* A duplicate goes behind the original: the first inserted keeps winning. */
		if (found != NULL) {
			t = found->htbl;
			hash = found->hash;
		} else if (!last) {
			hash = mlx5dm_ste_hash_bwc(tag, head->byte_mask);
		}
		/*
		 * The first write: a new chain below a new entry (recorded at
		 * level 0), or the rule's own last-level slot chain.
		 */
		if (!rc->q_locked) {
			rc->structural = !last;
			ret = last ? mlx5dm_rule_order(rc, t, hash & (t->num_entries - 1)) :
				     mlx5dm_rule_order_lock(rc, rc->top);
			if (ret < 0)
				return ret;
		}
		s = mlx5dm_rule_place(shd, t, hash, ent, last ? mlx5dm_rule_last(rule) : NULL,
				      &tail);
		if (s == NULL)
			return -ENOMEM;
		if (!last && mlx5dm_tag_index_insert(&shd->index, s, ihash) < 0) {
			/* Not indexed: the index's removal in the undo finds nothing. */
			mlx5dm_rule_unplace(shd, s, tail, &rc->d);
			return -ENOMEM;
		}
		s->refcount = 1;
		rc->path[lvl] = s;
		rc->tails[lvl] = tail;
		rc->created[lvl] = true;
		rc->placed_in[lvl] = t;
		rc->depth = lvl + 1;
		if (!last) {
			struct mlx5dm_htbl *child;

			child = mlx5dm_htbl_chain_create(m, shd, rc->q, (uint8_t)(lvl + 1), s,
							 &rc->d);
			if (child == NULL)
				return -ENOMEM;
			s->next_htbl = child;
			mlx5dm_htbl_point(ctx, child, s->ctrl);
			head = child;
			/* The next rules usually share it (an undo clears it with the record). */
			if (lvl == 0)
				shd->l0_hint = s;
		} else {
			s->rule = rule;
			s->ends_rule = 1;
		}
		/* Reversed at flush time: the predecessor's pointer goes after the entry. */
		if (tail != NULL)
			rc->w[rc->nw++] = (struct mlx5dm_rule_write){ .ste = tail, .ctrl = true };
		rc->w[rc->nw++] = (struct mlx5dm_rule_write){
			.ste = s, .bit_mask = m->builders[lvl].bit_mask,
			.placed = last ? ent : NULL,
		};
	}
	return 0;
}

/* Place the action STEs after the last match entry, chained by hit pointers. */
static int
mlx5dm_rule_action_stes(struct mlx5dm_rule_ctx *rc, struct mlx5dm_rule *rule,
			const uint8_t *arr, unsigned int n_extra)
{
	struct mlx5dm_ctx *ctx = rc->ctx;
	struct mlx5dm_ste *prev = mlx5dm_rule_last(rule);
	unsigned int i;

	for (i = 0; i < n_extra; i++) {
		struct mlx5dm_ste *a = mlx5dm_ste_entry_alloc(rc->sh);

		if (a == NULL)
			return -ENOMEM;
		mlx5dm_ste_set_image(a, arr + (size_t)(rc->m->nb_builders + i) * MLX5DM_STE_SIZE);
		a->rule = rule;
		a->ends_rule = 1;
		rule->refs[rule->nb_act_stes++] = a;
		/* The last match entry's hit is its first action entry (lean: by its rule). */
		if (!prev->lean)
			mlx5dm_ste_set_hit_addr(ctx->ste, prev->ctrl, mlx5dm_ste_icm(a), 1);
		rc->w[rc->nw++] = (struct mlx5dm_rule_write){ .ste = a };
		prev = a;
	}
	return 0;
}

static int
mlx5dm_rule_flush(struct mlx5dm_rule_ctx *rc)
{
	unsigned int i;
	int ret;

	for (i = rc->nw; i-- > 0;) {
		struct mlx5dm_rule_write *w = &rc->w[i];

		if (w->ctrl)
			ret = mlx5dm_ste_write_ctrl(rc->ctx, rc->q, w->ste);
		else if (w->placed != NULL)
			ret = mlx5dm_ste_write_placed(rc->ctx, rc->q, w->ste, w->bit_mask,
						      w->placed);
		else
			ret = mlx5dm_ste_write_full(rc->ctx, rc->q, w->ste, w->bit_mask);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/*
 * After an operation's own writes and doorbell: its share of emptying the
 * older tables of grown chains (mlx5dm_htbl_drain_step; own: those of the
 * shard's, on insertion). The moves are rung with the next operation's
 * writes (or a flush, drain or sync): until then the device finds the
 * entries where they were. Not the operation's failure when it fails: the
 * entries stay where they are, reachable.
 */
static void
mlx5dm_rule_drain(struct mlx5dm_rule_ctx *rc, bool own)
{
	int ret;

	/* Nothing to empty, or (several shards) no write of the operation locked the queue. */
	if (((!own || TAILQ_EMPTY(&rc->sh->drain)) && (rc->m->nb_shards == 1 ||
						      rc->m->first->chain_next == NULL ||
						      rc->sh->l0_drained)) || !rc->q_locked)
		return;
	ret = mlx5dm_htbl_drain_step(rc->sh, rc->q, rc->qi, own, &rc->d);
	if (ret < 0)
		MLX5DM_LOG(WARNING, MLX5DM_STEER_LOG, "moving entries to a grown table: %d", ret);
}

struct mlx5dm_rule *
mlx5dm_rule_create(struct mlx5dm_matcher *m, uint16_t queue, const uint8_t *value,
		   size_t nb_actions, struct mlx5dm_action *const actions[])
{
	struct mlx5dm_rule_prep prep;
	int ret;

	if (m != NULL && m->half[MLX5DM_STE_DIR_RX] != NULL)
		return mlx5dm_fdb_rule_create(m, queue, value, nb_actions, actions, NULL);
	ret = mlx5dm_rule_prep_build(m, value, &prep);
	if (ret < 0) {
		errno = -ret;
		return NULL;
	}
	return mlx5dm_rule_create_prepared(&prep, queue, nb_actions, actions);
}

struct mlx5dm_rule *
mlx5dm_rule_create_prepared(struct mlx5dm_rule_prep *prep, uint16_t queue, size_t nb_actions,
			    struct mlx5dm_action *const actions[])
{
	return mlx5dm_rule_create_prepared_args(prep, queue, nb_actions, actions, NULL);
}

static struct mlx5dm_rule *
mlx5dm_rule_insert(struct mlx5dm_rule_prep *prep, uint16_t queue, size_t nb_actions,
		   struct mlx5dm_action *const actions[], const uint32_t args[],
		   const struct mlx5dm_action_tmpl *tmpl);

struct mlx5dm_rule *
mlx5dm_rule_create_prepared_args(struct mlx5dm_rule_prep *prep, uint16_t queue,
				 size_t nb_actions, struct mlx5dm_action *const actions[],
				 const uint32_t args[])
{
	return mlx5dm_rule_insert(prep, queue, nb_actions, actions, args, NULL);
}

struct mlx5dm_rule *
mlx5dm_rule_create_tmpl(struct mlx5dm_rule_prep *prep, uint16_t queue,
			const struct mlx5dm_action_tmpl *tmpl,
			struct mlx5dm_action *const actions[],
			const uint32_t args[])
{
	if (tmpl == NULL || prep == NULL || prep->matcher != tmpl->matcher) {
		MLX5DM_LOG(ERR, MLX5DM_STEER_LOG, "rule: %s",
			   tmpl == NULL ? "no template" : "the template is of another matcher");
		errno = EINVAL;
		return NULL;
	}
	if (actions == NULL)
		actions = tmpl->actions;
	if (mlx5dm_action_tmpl_check(tmpl, actions) < 0) {
		errno = EINVAL;
		return NULL;
	}
	return mlx5dm_rule_insert(prep, queue, tmpl->nb_actions, actions, args, tmpl);
}

static struct mlx5dm_rule *
mlx5dm_rule_insert(struct mlx5dm_rule_prep *prep, uint16_t queue, size_t nb_actions,
		   struct mlx5dm_action *const actions[], const uint32_t args[],
		   const struct mlx5dm_action_tmpl *tmpl)
{
	const struct mlx5dm_ste *moved_first[MLX5DM_HTBL_MOVE_ENTRIES];
	unsigned int n_extra = 0, lvl, nb_moved_first;
	struct mlx5dm_rule_ctx rc;
	struct mlx5dm_rule *rule;
	bool grow0 = false, has_args;
	struct mlx5dm_matcher *m;
	uint32_t end;
	struct mlx5dm_ctx *ctx;
	uint8_t *arr;
	size_t i;
	int ret;

	if (prep == NULL || prep->matcher == NULL || nb_actions > MLX5DM_RULE_MAX_ACTIONS ||
	    (nb_actions > 0 && actions == NULL)) {
		errno = EINVAL;
		return NULL;
	}
	m = prep->matcher;
	if (m->half[MLX5DM_STE_DIR_RX] != NULL) {
		prep->matcher = NULL;
		return mlx5dm_fdb_rule_create(m, queue, prep->ste, nb_actions, actions, args);
	}
	ctx = m->tbl->dom->ctx;
	if (queue >= ctx->nb_queues) {
		errno = EINVAL;
		return NULL;
	}
	/* Used up: the actions are placed into its array (no lock: nothing shared is read). */
	prep->matcher = NULL;
	arr = prep->ste;
	ret = tmpl != NULL ? mlx5dm_action_tmpl_apply(tmpl, actions, args, arr, &n_extra) :
			     mlx5dm_rule_place_actions(m, nb_actions, actions, args, arr, &n_extra);
	if (ret < 0) {
		errno = -ret;
		return NULL;
	}
	mlx5dm_rule_ctx_init(&rc, m);
	mlx5dm_rule_lock_ctx(&rc, mlx5dm_rule_shard_of(m, arr), queue);
	/*
	 * A ring in error takes nothing more (as DPDK mlx5 HWS refuses rules on
	 * such a queue); with several shards mlx5dm_rule_order() checks it.
	 */
	ret = rc.q_locked ? mlx5dm_send_error(rc.q->ring) : 0;
	if (ret < 0) {
		mlx5dm_rule_unlock(&rc);
		errno = -ret;
		return NULL;
	}
	/* One tag compare per rule. */
	rc.l0 = mlx5dm_rule_l0_shared(rc.sh, prep->ste);
	/*
	 * What the insert's drain step moves at its end (mlx5dm_rule_drain()),
	 * first: the rule's own slot is loaded next and usually misses.
	 */
	nb_moved_first = MLX5DM_LIKELY(TAILQ_EMPTY(&rc.sh->drain)) ? 0 :
			 mlx5dm_htbl_drain_prefetch(rc.sh, moved_first);
	mlx5dm_rule_prefetch_ctx(&rc, prep);
	has_args = mlx5dm_rule_args_kept(nb_actions, actions, args);
	rule = mlx5dm_rule_alloc(rc.sh, n_extra + (unsigned int)nb_actions +
				 (has_args ? ((unsigned int)nb_actions + 1) / 2 : 0));
	if (rule == NULL) {
		mlx5dm_rule_unlock(&rc);
		errno = ENOMEM;
		return NULL;
	}
	rule->matcher = m;
	rule->shard = (uint8_t)(rc.sh - m->shards);
	rule->nb_act_stes = 0;
	/*
	 * The actions and their arguments go in first: the last match entry's
	 * control part is placed again from them when written (its references
	 * are taken once the rule is made).
	 */
	rule->nb_actions = (uint8_t)nb_actions;
	rule->has_args = has_args;
	for (i = 0; i < nb_actions; i++)
		rule->refs[n_extra + i] = actions[i];
	if (has_args)
		memcpy(rule->refs + n_extra + nb_actions, args, nb_actions * sizeof(*args));
	ret = mlx5dm_rule_walk(&rc, rule, arr);
	if (ret == 0)
		ret = mlx5dm_rule_action_stes(&rc, rule, arr, n_extra);
	if (ret < 0)
		goto undo;
	/* The drain's first records have arrived meanwhile: what follows them. */
	if (nb_moved_first != 0)
		mlx5dm_htbl_drain_prefetch_next(rc.sh, moved_first, nb_moved_first);
	ret = mlx5dm_rule_flush(&rc);
	/* The rule's writes end here; the last one makes it reachable. */
	end = mlx5dm_send_pos(rc.q->ring);
	mlx5dm_rule_ended(&rc, ret == 0);
	/*
	 * Growth bookkeeping for every table that received an entry; a shared
	 * first level's once every lock is released (mlx5dm_htbl_l0_grow()).
	 */
	for (lvl = 0; ret == 0 && lvl < rc.depth; lvl++) {
		if (!rc.created[lvl])
			continue;
		if (rc.placed_in[lvl]->shard == NULL && m->nb_shards > 1)
			grow0 = mlx5dm_htbl_l0_due(rc.sh, true);
		else
			ret = mlx5dm_htbl_after_insert(m, rc.q, rc.placed_in[lvl], &rc.d);
	}
	if (!grow0 && m->nb_shards > 1)
		grow0 = mlx5dm_htbl_l0_due(rc.sh, false);
	if (ret == 0)
		ret = mlx5dm_send_flush_batch(rc.q->ring, rc.q->db_batch);
	if (ret < 0 && mlx5dm_send_lost(rc.q->ring, end)) {
		/*
		 * The ring failed before the rule's last write executed: the
		 * device never reached it (what it did write hangs from nothing
		 * reachable). Undone as a rule refused before any write.
		 */
		MLX5DM_LOG(ERR, MLX5DM_STEER_LOG, "rule write failed: %d", ret);
		goto undo;
	}
	if (ret == 0)
		mlx5dm_rule_drain(&rc, true);
	/* Under the matcher lock: a concurrent dump may already see the rule. */
	for (i = 0; i < nb_actions; i++)
		mlx5dm_rule_act_ref(rc.sh, actions[i]);
	rc.sh->cnt.rules++;
	/* An FDB side is counted as its FDB rule (mlx5dm_fdb_rule_create). */
	if (m->tbl->dom->top == NULL)
		rc.q->n_rules++;
	if (rc.q_locked)
		mlx5dm_queue_check_room(ctx, rc.q);
	mlx5dm_rule_unlock(&rc);
	if (grow0 && ret == 0)
		ret = mlx5dm_htbl_l0_grow(m, queue, &rc.d);
	mlx5dm_defer_run(&rc.d);
	if (ret < 0) {
		/* The rule is on the device; the ring's error is for the calls that follow. */
		MLX5DM_LOG(ERR, MLX5DM_STEER_LOG, "ring failed after a rule was written: %d", ret);
	}
	return rule;
undo:
	for (i = 0; i < rule->nb_act_stes; i++)
		mlx5dm_ste_rec_free(rc.sh, mlx5dm_rule_act_stes(rule)[i], &rc.d);
	mlx5dm_rule_undo(&rc);
	mlx5dm_rule_free(rc.sh, rule);
	mlx5dm_rule_unlock(&rc);
	mlx5dm_defer_run(&rc.d);
	errno = -ret;
	return NULL;
}

/*
 * s (refcount 0) has left its slot chain: an entry above the last level
 * leaves the index, and its record goes (the level-0 hint lets go of it).
 */
static void
mlx5dm_rule_forget(struct mlx5dm_rule_ctx *rc, struct mlx5dm_ste *s)
{
	if (!s->ends_rule)
		mlx5dm_rule_unindex(rc->sh, s);
	mlx5dm_ste_rec_free(rc->sh, s, &rc->d);
}

/*
 * Remove entry s (count reached zero) from its slot chain with one write:
 * the slot becomes always-miss, or takes over its follower, or the
 * predecessor's miss pointer skips it. Returns the chain below s to free.
 */
static int
mlx5dm_rule_unlink(struct mlx5dm_rule_ctx *rc, struct mlx5dm_ste *s,
		   struct mlx5dm_htbl **subtree)
{
	struct mlx5dm_ctx *ctx = rc->ctx;
	struct mlx5dm_htbl *t = s->htbl;
	uint8_t hw[MLX5DM_STE_SIZE];
	struct mlx5dm_ste *f, *prev;

	*subtree = mlx5dm_ste_next_htbl(s);
	/* (!collision <=> s is the slot itself: the slot array is not read, only cleared.) */
	if (!s->collision && s->next_col == NULL) {
		uint32_t slot = mlx5dm_ste_slot(s);

		mlx5dm_htbl_slot_clear(t, slot);
		mlx5dm_htbl_count_used(rc->sh, t, -1);
		mlx5dm_rule_forget(rc, s);
		return mlx5dm_redo_unlink(rc->q, t->chunk, slot,
					  mlx5dm_htbl_miss_image_of(rc->sh, t), MLX5DM_STE_SIZE);
	}
	if (!s->collision) {
		/*
		 * The follower's record becomes the slot's: it takes the slot's
		 * ICM entry and s takes the follower's pooled one, released with
		 * s's record. The follower keeps its identity, so its index way,
		 * its rule and the tables pointing at it stay as they are; one
		 * write puts its image in the slot.
		 */
		struct mlx5dm_icm_chunk *chunk = s->chunk;

		f = s->next_col;
		s->chunk = f->chunk;
		s->pool_index = f->pool_index;
		s->pooled = 1;
		s->collision = true;
		f->chunk = chunk;
		f->pooled = 0;
		f->collision = false;
		mlx5dm_htbl_slot_replace(t, mlx5dm_ste_slot(f), f);
		mlx5dm_htbl_count_collision(rc->sh, t, -1);
		mlx5dm_rule_forget(rc, s);
		mlx5dm_ste_image(f, rc->m->builders[t->level].bit_mask, hw);
		mlx5dm_ste_to_hw(ctx->ste, hw, MLX5DM_STE_SIZE);
		return mlx5dm_redo_unlink(rc->q, f->chunk, mlx5dm_ste_index(f), hw,
					  MLX5DM_STE_SIZE);
	}
	for (prev = mlx5dm_htbl_slot(t, mlx5dm_ste_slot(s)); prev->next_col != s;
	     prev = prev->next_col)
		;
	prev->next_col = s->next_col;
	/* A lean entry's miss pointer follows next_col. */
	if (!prev->lean)
		mlx5dm_ste_set_miss_addr(ctx->ste, prev->ctrl,
					 mlx5dm_ste_get_miss_addr(ctx->ste, s->ctrl));
	mlx5dm_htbl_count_collision(rc->sh, t, -1);
	mlx5dm_rule_forget(rc, s);
	mlx5dm_ste_ctrl_get(prev, hw);
	mlx5dm_ste_to_hw(ctx->ste, hw, MLX5DM_STE_CTRL_SIZE);
	return mlx5dm_redo_unlink(rc->q, prev->chunk, mlx5dm_ste_index(prev), hw,
				  MLX5DM_STE_CTRL_SIZE);
}

/*
 * Remove rule on queue. refuse: a ring known to be in error leaves it as
 * it was (-EIO); else its unlink is posted all the same, to be lost with
 * the ring (what undoing a half-made FDB rule needs).
 */
static int
mlx5dm_rule_remove(struct mlx5dm_rule *rule, uint16_t queue, bool refuse)
{
	struct mlx5dm_action *actions[MLX5DM_RULE_MAX_ACTIONS];
	struct mlx5dm_ste *path[MLX5DM_STE_MAX_BUILDERS];
	struct mlx5dm_htbl *subtree = NULL, *from = NULL;
	struct mlx5dm_rule_ctx rc;
	unsigned int nb_actions;
	struct mlx5dm_matcher *m;
	struct mlx5dm_ste *s, *top;
	unsigned int lvl, i;
	bool grow0;
	int ret = 0;

	m = rule->matcher;
	if (queue >= m->tbl->dom->ctx->nb_queues)
		return -EINVAL;
	mlx5dm_rule_ctx_init(&rc, m);
	mlx5dm_rule_lock_ctx(&rc, rule->shard, queue);
	/*
	 * Usually the last entry is the one unlinked: the entry, its slot
	 * and, when it is the slot's record, its follower (which takes the
	 * slot over) are needed, so the loads start together rather than one
	 * after the other.
	 */
	s = mlx5dm_rule_last(rule);
	if (!s->collision) {
		const uint8_t *f = (const uint8_t *)s->next_col;

		mlx5dm_htbl_slot_prefetch(s->htbl, mlx5dm_ste_slot(s));
		if (f != NULL) {
			MLX5DM_PREFETCH(f);
			MLX5DM_PREFETCH(f + 64);
			MLX5DM_PREFETCH(f + sizeof(struct mlx5dm_ste) - 1);
		}
	}
	/* The path, level 0 first: each table's pointing entry is the level above. */
	top = s;
	for (lvl = m->nb_builders; lvl-- > 0;) {
		path[lvl] = s;
		top = s;
		s = s->htbl->pointing_ste;
	}
	/*
	 * The unlink is a write into the last level's slot chain, unless an
	 * entry above it goes with the rule (recorded at level 0). Another
	 * queue's writes into those chains that did not get there, or a ring
	 * in error, known or found while room is made for the unlink (as a
	 * create, a destroy is refused there: the device would not see the
	 * unlink): nothing changed. With that room the unlink is never
	 * refused once the chain changes.
	 */
	for (lvl = 0; lvl + 1 < m->nb_builders && path[lvl]->refcount > 1; lvl++)
		;
	ret = mlx5dm_rule_order_top(&rc, top->htbl, mlx5dm_ste_slot(top));
	if (ret == 0 && !rc.q_locked) {
		rc.structural = lvl + 1 < m->nb_builders;
		ret = rc.structural ? mlx5dm_rule_order_lock(&rc, rc.top) :
				      mlx5dm_rule_order(&rc, mlx5dm_rule_last(rule)->htbl,
							mlx5dm_ste_slot(mlx5dm_rule_last(rule)));
	}
	if (ret == 0)
		ret = mlx5dm_send_kept_room(rc.q->ring);
	if (!refuse && ret < 0 && rc.q_locked && mlx5dm_send_error(rc.q->ring) != 0)
		ret = 0;
	if (ret < 0) {
		mlx5dm_rule_unlock(&rc);
		mlx5dm_defer_run(&rc.d);
		return ret;
	}
	for (lvl = 0; lvl < m->nb_builders; lvl++) {
		s = path[lvl];
		if (--s->refcount > 0)
			continue;
		from = s->htbl;
		ret = mlx5dm_rule_unlink(&rc, s, &subtree);
		break;
	}
	mlx5dm_rule_ended(&rc, ret == 0);
	if (subtree != NULL)
		mlx5dm_rule_free_subtree(rc.sh, subtree, &rc.d);
	for (i = 0; i < rule->nb_act_stes; i++)
		mlx5dm_ste_rec_free(rc.sh, mlx5dm_rule_act_stes(rule)[i], &rc.d);
	if (ret == 0)
		ret = mlx5dm_send_flush_batch(rc.q->ring, rc.q->db_batch);
	/*
	 * The ring failed under the unlink: the rule is gone from the library
	 * as if the ring had failed just after the call, not refused, as the
	 * unlink changed the chain. The queue keeps the unlink: its recovery
	 * writes it again, and what the rule freed stays hot until then.
	 */
	if (ret < 0) {
		ret = 0;
	} else if (from != NULL && rc.q_locked &&
		   mlx5dm_htbl_after_delete(rc.sh, rc.q, from, &rc.d) < 0) {
		MLX5DM_LOG(WARNING, MLX5DM_STEER_LOG, "freeing an emptied older table failed");
	}
	if (ret == 0 && mlx5dm_send_error(rc.q->ring) == 0)
		mlx5dm_rule_drain(&rc, false);
	/* The references to drop, once unlocked. */
	nb_actions = 0;
	for (i = 0; i < rule->nb_actions; i++) {
		struct mlx5dm_action *a = mlx5dm_rule_action_list(rule)[i];

		if (mlx5dm_rule_act_unref(rc.sh, a))
			actions[nb_actions++] = a;
	}
	mlx5dm_rule_free(rc.sh, rule);
	rc.sh->cnt.rules--;
	if (m->tbl->dom->top == NULL)
		rc.q->n_rules--;
	grow0 = ret == 0 && m->nb_shards > 1 && mlx5dm_send_error(rc.q->ring) == 0 &&
		mlx5dm_htbl_l0_due(rc.sh, false);
	if (rc.q_locked)
		mlx5dm_queue_check_room(rc.ctx, rc.q);
	mlx5dm_rule_unlock(&rc);
	/* The rule is gone whatever the growth meets: its error is for the calls that follow. */
	if (grow0 && mlx5dm_htbl_l0_grow(m, queue, &rc.d) < 0)
		MLX5DM_LOG(WARNING, MLX5DM_STEER_LOG, "first-level growth after a delete failed");
	mlx5dm_defer_run(&rc.d);
	for (i = 0; i < nb_actions; i++)
		mlx5dm_action_unref(actions[i]);
	return 0;
}

int
mlx5dm_rule_destroy(struct mlx5dm_rule *rule, uint16_t queue)
{
	if (rule == NULL)
		return -EINVAL;
	if (rule->matcher->half[MLX5DM_STE_DIR_RX] != NULL)
		return mlx5dm_fdb_rule_destroy(rule, queue);
	return mlx5dm_rule_remove(rule, queue, true);
}

void
mlx5dm_rule_discard(struct mlx5dm_rule *rule, uint16_t queue)
{
	if (mlx5dm_rule_remove(rule, queue, false) < 0)
		MLX5DM_LOG(ERR, MLX5DM_STEER_LOG, "a half-made rule was not removed");
}
