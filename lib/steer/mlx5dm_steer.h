/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The steering library's public API: software-owned steering of a ConnectX
 * through its device boundary (struct mlx5dm_dev), identical on the device
 * model and on hardware.
 *
 * Object model (as rdma-core's SW steering): a context owns the device
 * resources (capabilities, ICM pools of the four SW ICM types, send rings);
 * a domain (NIC RX, NIC TX, or the FDB of an E-Switch manager, whose every
 * object has an RX and a TX side inside) holds tables; a table (level >= 1, a SW-owned
 * flow table object) holds matchers sorted by priority; a matcher (one
 * match mask) holds rules; rules reference actions, which are shared and
 * refcounted. Handles are opaque.
 *
 * Errors: creators return NULL and set errno; other functions return 0 or
 * a negative errno. A failed call leaves no state behind.
 *
 * Threading: object creation/destruction (domains, tables, matchers,
 * actions) is serialised by a context lock and may be called from any
 * thread. Rule insertion/deletion takes a queue index: each queue has its
 * own send ring and must be used by one thread at a time; different queues
 * may be used concurrently, into the same matcher too: with several
 * queues a matcher is split in shards by hash slot, and rules of different
 * shards share no lock (doc/guides/steering.rst, Queues).
 */

#ifndef _MLX5DM_STEER_H_
#define _MLX5DM_STEER_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "mlx5dm_dev.h"

struct mlx5dm_ctx;
struct mlx5dm_domain;
struct mlx5dm_table;
struct mlx5dm_matcher;
struct mlx5dm_rule;
struct mlx5dm_action;
struct mlx5dm_tir;
struct mlx5dm_rq;
struct mlx5dm_counters;

/* ---- context ---- */

struct mlx5dm_ctx_attr {
	uint16_t nb_queues;          /* rule queues (send rings); 0: 1 */
	uint32_t log_queue_wqebb;    /* send ring size, log2 WQEBBs; 0: default, grown */
	bool reclaim_icm;            /* free DMs that become empty after a sync */
	bool allow_duplicate_rules;  /* false: a rule equal to an existing one -> EEXIST */
	/*
	 * Doorbell batching of rule queues. 0 or 1: every rule create/destroy
	 * rings its queue's doorbell, so the rule is in the device's ICM when
	 * the call returns. N > 1: the doorbell is rung once N or more WQEs
	 * wait (and whenever the ring needs room); writes of the last
	 * operations reach the device at the next mlx5dm_queue_flush() or
	 * mlx5dm_queue_drain() (as rte_flow's postponed operations do at
	 * rte_flow_push()). Saves a doorbell (an MMIO write on hardware, a
	 * model run) per operation.
	 */
	uint32_t doorbell_batch;
};

/* Query capabilities, pick the STE format, create ICM pools and send rings. */
struct mlx5dm_ctx *mlx5dm_ctx_open(struct mlx5dm_dev *dev, const struct mlx5dm_ctx_attr *attr);
/* -EBUSY while domains exist. */
int mlx5dm_ctx_close(struct mlx5dm_ctx *ctx);

/* The device's port as its NIC vport reports it. */
struct mlx5dm_port_attr {
	uint8_t mac[6];      /* permanent address (nic_vport_context) */
	uint16_t mtu;        /* the netdev's MTU: the vport's less the Ethernet overhead */
	bool link_up;        /* vport state UP (QUERY_VPORT_STATE) */
};

/* QUERY_NIC_VPORT_CONTEXT and QUERY_VPORT_STATE; 0 or -errno after one log line. */
int mlx5dm_port_attr_query(struct mlx5dm_dev *dev, struct mlx5dm_port_attr *attr);

/* ---- domains ---- */

enum mlx5dm_domain_type {
	MLX5DM_DOMAIN_NIC_RX = 0,
	MLX5DM_DOMAIN_NIC_TX = 1,
	/*
	 * The E-Switch (ENOTSUP unless the device manages one with SW-owned
	 * FDB tables). Frames from the wire walk its RX side, frames of the
	 * functions its TX side; a rule matching misc.source_port (a vport
	 * number, MLX5DM_VPORT_UPLINK = 0xffff the wire; matched whole) goes
	 * into the one side such frames walk, any other rule into both.
	 * Unmatched frames go to the manager's vport.
	 */
	MLX5DM_DOMAIN_FDB = 2,
};

struct mlx5dm_domain *mlx5dm_domain_create(struct mlx5dm_ctx *ctx, enum mlx5dm_domain_type type);
int mlx5dm_domain_destroy(struct mlx5dm_domain *dom);

#define MLX5DM_SYNC_SW  (1u << 0) /* all queued writes reached ICM (drain rings) */
#define MLX5DM_SYNC_HW  (1u << 1) /* SYNC_STEERING: the device dropped stale cached entries */
#define MLX5DM_SYNC_MEM (1u << 2) /* return hot (freed) ICM to the pools */
int mlx5dm_domain_sync(struct mlx5dm_domain *dom, uint32_t flags);

/* ---- tables ---- */

/* A SW-owned flow table at level >= 1 (levels order jumps: lower to higher). */
struct mlx5dm_table *mlx5dm_table_create(struct mlx5dm_domain *dom, uint32_t level);
/* -EBUSY while it has matchers, is the root target, or is a jump target. */
int mlx5dm_table_destroy(struct mlx5dm_table *tbl);

/*
 * Make tbl the domain's entry point: one match-all rule in the root
 * (firmware-owned) table forwards every packet of the domain to tbl.
 * Replaces the previous entry table; NULL removes it (RX: default drop,
 * TX: straight to the wire).
 */
int mlx5dm_domain_set_root(struct mlx5dm_domain *dom, struct mlx5dm_table *tbl);

/* ---- matchers ---- */

/* The PRM match parameter: 7 sections of 64 bytes (outer, misc, inner, misc2-5). */
#define MLX5DM_MATCH_PARAM_SIZE 448

struct mlx5dm_matcher_attr {
	uint16_t priority;           /* lower first inside the table */
	uint8_t criteria;            /* match_criteria_enable: bit i = section i present */
	const uint8_t *mask;         /* MLX5DM_MATCH_PARAM_SIZE bytes */
	uint32_t log_rules_hint;     /* expected rules, log2; sizes the last level's first table */
	/*
	 * Rules whose host records are reserved with the matcher (0: none), so
	 * that inserting up to that many takes no record from the allocator.
	 * Capped by the rules the device's STE ICM can hold.
	 */
	uint32_t rules_reserve;
};

/*
 * Create a matcher. A mask the device cannot match fails with EOPNOTSUPP
 * and *err_field (if not NULL) names the first unsupported field, e.g.
 * "outer.ip_ttl_hoplimit".
 */
struct mlx5dm_matcher *mlx5dm_matcher_create(struct mlx5dm_table *tbl,
					     const struct mlx5dm_matcher_attr *attr,
					     const char **err_field);
int mlx5dm_matcher_destroy(struct mlx5dm_matcher *matcher);
/*
 * Would a matcher with this mask be accepted on dom? The builder selection
 * of mlx5dm_matcher_create() (with the device's facts, such as the flex
 * parsers it reports), nothing created; for validating ahead of creation.
 * Return: 0; -EOPNOTSUPP with *err_field (if not NULL) naming the field;
 * -ENOSPC (more lookups than a matcher chains); -EINVAL.
 */
int mlx5dm_matcher_check(struct mlx5dm_domain *dom, const struct mlx5dm_matcher_attr *attr,
			 const char **err_field);
/*
 * Would a rule of this value (NULL: none) under a matcher of attr's mask be
 * accepted? mlx5dm_matcher_check() on dom, then the rule's value against
 * the mask (no value bit outside it, ip_version equal to the mask's). With
 * dom NULL, ahead of any device: the builder selection of STE format 1 on
 * a device without flex-parser protocols, in the direction of type.
 * Return: as mlx5dm_matcher_check(); -EINVAL with *err_field for a value.
 */
int mlx5dm_match_check(struct mlx5dm_domain *dom, enum mlx5dm_domain_type type,
		       const struct mlx5dm_matcher_attr *attr, const uint8_t *value,
		       const char **err_field);

/* ---- rules ---- */

/*
 * Insert a rule: value (MLX5DM_MATCH_PARAM_SIZE bytes, no bit outside the
 * matcher mask: EINVAL) and up to MLX5DM_RULE_MAX_ACTIONS actions, on queue.
 * EEXIST for a duplicate when duplicates are not allowed; EOPNOTSUPP (and a
 * log line naming the cause) for an impossible action combination; EIO when
 * the queue's send ring is (or is found) in error before the rule's writes
 * executed: the rule is undone, and every later create on the queue fails
 * the same way until mlx5dm_queue_recover() (doc/guides/steering.rst,
 * Errors). ETIMEDOUT when another queue's writes into the rule's slot
 * chain did not complete for the send ring's stall limit: they may still
 * execute, so nothing was written (the call may be made again).
 */
#define MLX5DM_RULE_MAX_ACTIONS 16
struct mlx5dm_rule *mlx5dm_rule_create(struct mlx5dm_matcher *matcher, uint16_t queue,
				       const uint8_t *value, size_t nb_actions,
				       struct mlx5dm_action *const actions[]);

/*
 * mlx5dm_rule_create() in two steps. mlx5dm_rule_prepare() checks the value
 * (EINVAL as above), builds the rule's entries and starts loading the table
 * lines inserting them will touch (random lines of tables sized by the rule
 * count), so the caller's work before mlx5dm_rule_create_prepared() (action
 * lookups, allocations) overlaps that memory latency. It never waits for
 * another queue: while one inserts into the same part of the matcher, the
 * prep starts no load and the create predicts for itself. The prep lives
 * on the caller's stack and serves one create (EINVAL after); rules
 * created in between, on any queue, are fine. Fields are the library's.
 */
#define MLX5DM_RULE_PREP_BYTES (28 * 64)
struct mlx5dm_rule_prep {
	struct mlx5dm_matcher *matcher;	/* NULL: nothing prepared, or used */
	const void *root;		/* the last level's chain as predicted, or NULL */
	uint32_t hash;			/* its slot hash, before the table's mask */
	uint8_t ste[MLX5DM_RULE_PREP_BYTES];	/* the entries (match, then action) */
};
int mlx5dm_rule_prepare(struct mlx5dm_matcher *matcher, const uint8_t *value,
			struct mlx5dm_rule_prep *prep);
struct mlx5dm_rule *mlx5dm_rule_create_prepared(struct mlx5dm_rule_prep *prep, uint16_t queue,
						size_t nb_actions,
						struct mlx5dm_action *const actions[]);
/*
 * mlx5dm_rule_create_prepared() with an argument per action: args[i] is the
 * counter index (in its bulk) of an mlx5dm_action_counters() action, the
 * tag of an mlx5dm_action_flow_tags() action, the data of an
 * mlx5dm_action_modify_set() action (EINVAL when args is NULL or the index
 * is outside the bulk, the tag wider than 24 bits), ignored for the other
 * kinds. args may be NULL when no action takes one.
 */
struct mlx5dm_rule *mlx5dm_rule_create_prepared_args(struct mlx5dm_rule_prep *prep,
						     uint16_t queue, size_t nb_actions,
						     struct mlx5dm_action *const actions[],
						     const uint32_t args[]);
/*
 * Tag templates: the rules of a matcher whose values are one example value
 * but for whole bytes the caller moves in from its own sources (a rule's
 * items), compiled once, so that a rule's entries are built from those
 * sources with no value built, checked or read (mlx5dm_rule_prepare_tag()),
 * as DPDK mlx5 HWS builds a rule's tag from its items through the
 * matcher's definer (mlx5dr_definer_create_tag()). A move is len bytes at
 * byte from of source src, to byte to of the match parameter.
 * The template does not hold the matcher, which must outlive it; it is
 * read-only once created: rules of any queue use it at the same time.
 * NULL + errno: EINVAL (bad arguments, an example outside the mask),
 * EOPNOTSUPP (an FDB matcher; a moved byte not wholly in the mask, or
 * that the matcher reads otherwise than as a whole byte of a tag; more
 * moves than the template keeps), ENOMEM.
 */
struct mlx5dm_match_move {
	uint16_t from;
	uint16_t to;
	uint8_t src;
	uint8_t len;
};
struct mlx5dm_tag_tmpl;
struct mlx5dm_tag_tmpl *mlx5dm_tag_tmpl_create(struct mlx5dm_matcher *matcher,
					       const uint8_t *value,
					       const struct mlx5dm_match_move *moves,
					       unsigned int nb_moves);
void mlx5dm_tag_tmpl_destroy(struct mlx5dm_tag_tmpl *tmpl);
/*
 * mlx5dm_rule_prepare() for the rule of tmpl whose moved bytes are at
 * src[i] for the moves of source i. 0, or -EINVAL (bad arguments).
 */
int mlx5dm_rule_prepare_tag(const struct mlx5dm_tag_tmpl *tmpl, const void *const src[],
			    struct mlx5dm_rule_prep *prep);

/*
 * Action templates (as DPDK mlx5 HWS's action templates): the placement of
 * one action list in the rules of one matcher, computed once. The template
 * keeps the control bytes of the rule's last match entry, the image of the
 * action entries it needs and where the per-rule fields are: the counter id
 * (the list's counter position takes any counter action of the domain, a
 * bulk's with its index as argument), the flow tag (any flow tag action of
 * the domain; the tags action with the tag as argument) and a modify-set's
 * data (its argument). Every other position is the template's own action.
 * A rule created from it copies the image and patches those fields only.
 *
 * Ownership: the template holds a reference on each of its actions but
 * the counters and flow tags (the rules' own) until it is destroyed (so
 * they cannot be destroyed before it: EBUSY); it does not hold the
 * matcher, which must outlive it. Rules created from a
 * template hold their own references and do not need it afterwards. A
 * template is read-only once created: rules of any queue may use it at
 * the same time. A list whose per-rule fields cannot be told apart in the
 * image (or an FDB matcher, whose sides place their actions apart) is
 * placed in full for each rule, with the same results.
 * NULL + errno: EINVAL (bad arguments, an action of another domain, a jump
 * to a level not below the matcher's), EOPNOTSUPP (an impossible
 * combination, with a log line naming it), ENOMEM.
 */
struct mlx5dm_action_tmpl;
struct mlx5dm_action_tmpl *mlx5dm_action_tmpl_create(struct mlx5dm_matcher *matcher,
						     size_t nb_actions,
						     struct mlx5dm_action *const actions[]);
void mlx5dm_action_tmpl_destroy(struct mlx5dm_action_tmpl *tmpl);
/*
 * mlx5dm_rule_create_prepared_args() through a template of the prep's
 * matcher: actions has the template's length, with the template's action
 * at every position but the per-rule ones (EINVAL otherwise; NULL: the
 * template's own, for a list without counter or tag), and args as there.
 */
struct mlx5dm_rule *mlx5dm_rule_create_tmpl(struct mlx5dm_rule_prep *prep, uint16_t queue,
					    const struct mlx5dm_action_tmpl *tmpl,
					    struct mlx5dm_action *const actions[],
					    const uint32_t args[]);
/*
 * 0: the rule is released and its unlink posted. -EIO when the queue's
 * ring is known to be in error, or -EIO/-ETIMEDOUT when it fails while
 * the destroy waits for room for the unlink: nothing is written and the
 * rule is left as it was, steering (destroy it again once
 * mlx5dm_queue_recover() has brought the queue back). A ring found in
 * error by the destroy's writes after the unlink is a deletion lost
 * after the call (0): the queue keeps the unlink,
 * mlx5dm_queue_recover() writes it again, and what the rule held in ICM
 * goes back to its pool only then (doc/guides/steering.rst, Errors).
 * -ETIMEDOUT when another queue's writes into its slot chain did not
 * complete for the stall limit: the rule is left as it was (destroy
 * again).
 */
int mlx5dm_rule_destroy(struct mlx5dm_rule *rule, uint16_t queue);

/*
 * WQEBBs a rule create or destroy posts on its queue's ring in the usual
 * case: its entry and a neighbour's, 64-byte inline writes of 2 WQEBBs
 * each, and a share of the moves out of a table being emptied. A ring of
 * ops times that lets ops operations wait for their completions without
 * the next one waiting for room, as DPDK mlx5 HWS sizes a flow queue's
 * send queue from rte_flow_configure()'s queue size (mlx5dr_send_queue_open()).
 */
#define MLX5DM_QUEUE_OP_WQEBB 8u
/* The largest ring (2^15 WQEBBs) in operations. */
#define MLX5DM_QUEUE_MAX_OPS ((1u << 15) / MLX5DM_QUEUE_OP_WQEBB)
/*
 * A rule queue sized neither by the context (log_queue_wqebb) nor by
 * mlx5dm_queue_resize() starts with the default ring size
 * (MLX5DM_SEND_LOG_SQ_WQEBB); each time a rule operation on it waits for
 * room in the ring's SQ, the ring doubles, up to 2^this WQEBBs (or the
 * device's largest QP or CQ, if smaller).
 */
#define MLX5DM_QUEUE_LOG_WQEBB_GROWN 14u

/*
 * Size rule queue's send ring for ops operations: ops times
 * MLX5DM_QUEUE_OP_WQEBB WQEBBs, to the next power of two (64 at least).
 * The queue's writes are drained, a new QP and CQ replace the old ones;
 * positions taken before are done (mlx5dm_queue_done()). 0; -EINVAL
 * (queue, ops 0 or above MLX5DM_QUEUE_MAX_OPS); -EIO (the ring is in
 * error: mlx5dm_queue_recover() first); -ETIMEDOUT (the drain); or what
 * the device refused (the queue keeps its ring). Sized so, the ring no
 * longer grows (MLX5DM_QUEUE_LOG_WQEBB_GROWN).
 */
int mlx5dm_queue_resize(struct mlx5dm_ctx *ctx, uint16_t queue, uint32_t ops);

/* Ring the doorbells of / wait for the writes queued on a queue. */
int mlx5dm_queue_flush(struct mlx5dm_ctx *ctx, uint16_t queue);
/*
 * The doorbell batching of one queue, as mlx5dm_ctx_attr.doorbell_batch
 * sets it for all: wqes 0 or 1 rings per operation, N once N WQEs wait;
 * UINT32_MAX leaves the writes to mlx5dm_queue_flush() (and to the ring's
 * need for room), as DPDK mlx5 HWS leaves a flow queue's postponed rules
 * to rte_flow_push(). 0 or -EINVAL.
 */
int mlx5dm_queue_doorbell_batch(struct mlx5dm_ctx *ctx, uint16_t queue, uint32_t wqes);
int mlx5dm_queue_drain(struct mlx5dm_ctx *ctx, uint16_t queue);

/*
 * Where the writes posted on a queue so far end: a caller that records it
 * after an operation asks mlx5dm_queue_lost() about that operation later.
 */
uint32_t mlx5dm_queue_pos(struct mlx5dm_ctx *ctx, uint16_t queue);

/*
 * How far a queue's writes have executed, from mlx5dm_queue_poll(): a
 * caller that recorded mlx5dm_queue_pos() after an operation asks
 * mlx5dm_queue_done() whether the device executed the operation's writes.
 * A write of the operation that waited for another queue's writes (rules
 * of two queues in one slot chain, doc/guides/steering.rst, Threading
 * contract) was posted only once those had executed: they are done too.
 */
struct mlx5dm_queue_progress {
	uint32_t done;               /* every write posted before it has executed or was lost */
	uint64_t recoveries;         /* as mlx5dm_queue_stats.recoveries */
};

/*
 * Poll a queue once, without waiting (as DPDK mlx5 HWS polls a queue's CQ):
 * ring its doorbell for what was posted, ask for a completion behind its
 * last write when none would come, and reap the completions there into
 * *p. 0; -EIO when the ring is in error (*p is set: the writes before the
 * failure executed, mlx5dm_queue_lost() tells the others; see
 * mlx5dm_queue_recover()); -EINVAL.
 */
int mlx5dm_queue_poll(struct mlx5dm_ctx *ctx, uint16_t queue, struct mlx5dm_queue_progress *p);

/*
 * True when every write posted on the queue before pos (a value of
 * mlx5dm_queue_pos()) executed, or never will (mlx5dm_queue_lost()), as
 * of the mlx5dm_queue_poll() that set p.
 */
bool mlx5dm_queue_done(const struct mlx5dm_queue_progress *p, uint32_t pos);

/*
 * True when some write posted on the queue before pos (a value of
 * mlx5dm_queue_pos()) never executed: the queue's ring is in error past
 * it, or its last mlx5dm_queue_recover() dropped it.
 */
bool mlx5dm_queue_lost(struct mlx5dm_ctx *ctx, uint16_t queue, uint32_t pos);

/*
 * Bring a queue whose ring is in error back into use: once the device has
 * flushed what it was told of, its QP is reset and connected again (the
 * statistics count it), and rule operations on the queue work again. The
 * unlinks of deletions that did not execute are written again and drained
 * before it returns (mlx5dm_queue_stats.unlinks_redone), so those rules
 * stop steering; until then no ICM sync completes. The other writes that
 * did not execute are not posted again: the creations they belong to
 * (mlx5dm_queue_lost()) are the caller's to undo (a rule whose creation
 * was lost is destroyed as any other; doc/guides/steering.rst, Errors).
 * 0 (also on a queue not in error), -EINVAL, -ETIMEDOUT (the device did
 * not flush: still in error, call again), -EIO (the ring failed again
 * under the unlinks written again: call again), or what the device
 * refused.
 */
int mlx5dm_queue_recover(struct mlx5dm_ctx *ctx, uint16_t queue);

/* ---- device resources the actions point at ---- */

/*
 * A receive queue of the device with its CQ, ready (RDY): 2^log_size
 * single-segment WQEs, log_size 1..16. Destroy fails (the device refuses)
 * while a TIR uses it.
 */
struct mlx5dm_rq *mlx5dm_rq_create(struct mlx5dm_ctx *ctx, uint32_t log_size);
int mlx5dm_rq_destroy(struct mlx5dm_rq *rq);
uint32_t mlx5dm_rq_number(const struct mlx5dm_rq *rq);

/*
 * ---- datapath queues ----
 * A poll-mode datapath drives its queues itself, as DPDK's mlx5 PMD does:
 * it writes WQEs into the rings, updates the doorbell records, rings the
 * SQ's UAR register (mlx5dm_dev_doorbell) and polls 64-byte CQEs. Formats
 * are the PRM's (rdma-core mlx5dv.h struct mlx5_wqe_ctrl_seg/_eth_seg/
 * _data_seg, DPDK mlx5_prm.h struct mlx5_cqe).
 */
struct mlx5dm_wq_info {
	uint32_t qn;                 /* SQ or RQ number */
	uint32_t cqn;
	uint8_t *wqes;               /* SQ: 64-byte WQEBBs; RQ: 16-byte WQEs (one data segment) */
	uint32_t log_wqes;
	volatile uint32_t *dbrec;    /* big-endian counters: RQ [0] received, SQ [1] sent */
	uint8_t *cqes;               /* 64-byte CQEs, all invalid (opcode 0xf, owner 0) at start */
	uint32_t log_cqes;
	volatile uint32_t *cq_dbrec; /* [0]: CQ consumer index, big-endian, 24 bits */
	struct mlx5dv_devx_uar *uar; /* SQ: doorbell register at uar->reg_addr; RQ: NULL */
	uint32_t inline_min;         /* SQ: header bytes each Ethernet segment must inline */
};

void mlx5dm_rq_info(const struct mlx5dm_rq *rq, struct mlx5dm_wq_info *info);

struct mlx5dm_sq;

/*
 * A send queue for Ethernet frames on the context's TIS, ready (RDY), with
 * its own CQ: 2^log_size WQEBBs and CQEs, log_size 6..15.
 */
struct mlx5dm_sq *mlx5dm_sq_create(struct mlx5dm_ctx *ctx, uint32_t log_size);
int mlx5dm_sq_destroy(struct mlx5dm_sq *sq);
void mlx5dm_sq_info(const struct mlx5dm_sq *sq, struct mlx5dm_wq_info *info);

/*
 * After an error CQE the device has moved the queue to ERR and flushed it:
 * back to RDY (ERR -> RST -> RDY) with the device's counters at zero (the
 * queue's doorbell record is zeroed too). The caller restarts its own WQ
 * counters from zero and reposts; the CQ is not reset (as on hardware): its
 * consumer index goes on. 0 or -errno.
 */
int mlx5dm_sq_recover(struct mlx5dm_sq *sq);
int mlx5dm_rq_recover(struct mlx5dm_rq *rq);

struct mlx5dm_mr;

/* Host memory the datapath's WQEs point at (lkey), in the context's PD. */
struct mlx5dm_mr *mlx5dm_mr_reg(struct mlx5dm_ctx *ctx, void *addr, size_t len);
int mlx5dm_mr_dereg(struct mlx5dm_mr *mr);
uint32_t mlx5dm_mr_lkey(const struct mlx5dm_mr *mr);

#define MLX5DM_RSS_SRC_IP   (1u << 0)
#define MLX5DM_RSS_DST_IP   (1u << 1)
#define MLX5DM_RSS_L4_SPORT (1u << 2)
#define MLX5DM_RSS_L4_DPORT (1u << 3)

struct mlx5dm_rss_attr {
	bool ipv6;                   /* hash IPv6 (else IPv4) headers */
	bool udp;                    /* hash UDP (else TCP) ports, if ports selected */
	bool inner;                  /* hash the inner headers of a tunnel */
	bool symmetric;
	uint32_t fields;             /* MLX5DM_RSS_* */
	uint8_t key[40];             /* Toeplitz key */
};

/*
 * A TIR delivering to one RQ (rss NULL, nb_rqns 1), or spreading over
 * 1..256 RQs by Toeplitz RSS (an RQ table rounded up to a power of two by
 * repeating the RQs in order). ENOTSUP if the device reports no ICM address
 * for the TIR (SW steering could not deliver to it).
 */
struct mlx5dm_tir *mlx5dm_tir_create(struct mlx5dm_ctx *ctx, const uint32_t *rqns,
				     uint32_t nb_rqns, const struct mlx5dm_rss_attr *rss);
int mlx5dm_tir_destroy(struct mlx5dm_tir *tir);

/*
 * Flow counters, allocated in bulk (2^log_n, log_n <= 23; a device without
 * log-size bulks gets the smallest 128-multiple bulk holding them, else
 * ENOTSUP) and read back through the device; index < 2^log_n.
 */
struct mlx5dm_counters *mlx5dm_counters_alloc(struct mlx5dm_ctx *ctx, uint32_t log_n);
int mlx5dm_counters_free(struct mlx5dm_counters *c);
int mlx5dm_counters_query(struct mlx5dm_counters *c, uint32_t index, uint64_t *packets,
			  uint64_t *bytes);

/* ---- actions (shared; refcounted by the rules using them) ---- */

struct mlx5dm_action *mlx5dm_action_drop(struct mlx5dm_domain *dom);
struct mlx5dm_action *mlx5dm_action_default_miss(struct mlx5dm_domain *dom);
struct mlx5dm_action *mlx5dm_action_dest_table(struct mlx5dm_domain *dom,
					       struct mlx5dm_table *tbl);
struct mlx5dm_action *mlx5dm_action_dest_tir(struct mlx5dm_domain *dom, struct mlx5dm_tir *tir);
/*
 * FDB: forward to a vport of the e-switch (0 the manager, 1 + i VF i;
 * 0xffff the uplink, i.e. the wire: from the wire's own frames, on the RX
 * side, that is a drop on the device). EOPNOTSUPP on a NIC domain, EINVAL
 * for a vport the e-switch does not have.
 */
struct mlx5dm_action *mlx5dm_action_dest_vport(struct mlx5dm_domain *dom, uint16_t vport);
struct mlx5dm_action *mlx5dm_action_counter(struct mlx5dm_domain *dom, struct mlx5dm_counters *c,
					    uint32_t index);
/*
 * One counter action for every counter of bulk c: a rule using it names its
 * counter by its index in c, as the action's argument in
 * mlx5dm_rule_create_prepared_args(). Where mlx5dm_action_counter() costs
 * an action object per counter, this costs one per bulk and domain.
 */
struct mlx5dm_action *mlx5dm_action_counters(struct mlx5dm_domain *dom, struct mlx5dm_counters *c);
#define MLX5DM_FLOW_TAG_MAX 0xffffffu /* the CQE's 24-bit flow tag */
struct mlx5dm_action *mlx5dm_action_flow_tag(struct mlx5dm_domain *dom, uint32_t tag);
/*
 * One flow tag action for every tag: a rule using it gives its tag (at most
 * MLX5DM_FLOW_TAG_MAX) as the action's argument in
 * mlx5dm_rule_create_prepared_args(). The tag is a value in the rule's
 * entries, not a device object: where mlx5dm_action_flow_tag() costs an
 * action object per tag, this costs one per domain.
 */
struct mlx5dm_action *mlx5dm_action_flow_tags(struct mlx5dm_domain *dom);
/* PRM set/add/copy_action_in entries (8 bytes each, big-endian, as the PRM lays them out). */
struct mlx5dm_action *mlx5dm_action_modify_header(struct mlx5dm_domain *dom, size_t nb,
						  const uint8_t *prm_actions);
/*
 * One modify-header action for every value of one PRM set_action_in entry
 * (its data ignored): a rule using it gives the data as
 * the action's argument in mlx5dm_rule_create_prepared_args() (EINVAL when
 * missing). The device applies one set action from the rule's STE, so the
 * value is the rule's, as an argument is with DPDK mlx5 HWS: one action
 * object per field instead of one per value. ENOTSUP when the entry does
 * not give one HW action whose data word is the entry's on this device.
 */
#define MLX5DM_MODIFY_ARG_SIZE 4
struct mlx5dm_action *mlx5dm_action_modify_set(struct mlx5dm_domain *dom,
					       const uint8_t *prm_action);
/*
 * The data rule gave its modify-set action a (read back from its entries,
 * for dumps); 0, -EINVAL if a is no such action, -ENOENT if not told apart.
 */
int mlx5dm_rule_modify_data(const struct mlx5dm_rule *rule, const struct mlx5dm_action *a,
			    uint32_t *data);

enum mlx5dm_reformat_type {
	MLX5DM_REFORMAT_L2_TO_L2_TUNNEL,  /* encap: prepend data (e.g. Eth/IP/UDP/VXLAN) */
	MLX5DM_REFORMAT_L2_TO_L3_TUNNEL,  /* encap: replace L2 with data */
	MLX5DM_REFORMAT_L2_TUNNEL_TO_L2,  /* decap up to the inner Ethernet header */
	MLX5DM_REFORMAT_L3_TUNNEL_TO_L2,  /* decap up to inner L3, prepend data (new L2) */
};
struct mlx5dm_action *mlx5dm_action_reformat(struct mlx5dm_domain *dom,
					     enum mlx5dm_reformat_type type, size_t len,
					     const void *data);
/* vlan_hdr = TPID << 16 | TCI (TPID 0x8100 or 0x88a8). */
struct mlx5dm_action *mlx5dm_action_push_vlan(struct mlx5dm_domain *dom, uint32_t vlan_hdr);
struct mlx5dm_action *mlx5dm_action_pop_vlan(struct mlx5dm_domain *dom);
/* -EBUSY while rules use it. */
int mlx5dm_action_destroy(struct mlx5dm_action *action);

/*
 * ---- a growable hash index (mlx5dm_steer_index.c) ----
 *
 * Records (any pointer) by a 32-bit hash, compared on a hash hit by the
 * caller's function; what every lookup on the rule path uses (the
 * library's entries and modify patterns, the PMD's caches), so none of
 * them slows down as it fills. It doubles incrementally: a few buckets
 * move per operation, no call rehashes everything. Not thread-safe: the
 * owner serialises. A zeroed struct is an empty index (tables are
 * allocated on the first insert) with no socket (MLX5DM_SOCKET_ANY):
 * mlx5dm_index_set_socket() says where its tables go.
 */
struct mlx5dm_index_bucket;
struct mlx5dm_index {
	struct mlx5dm_index_bucket *b;     /* buckets, mask + 1 (NULL: empty) */
	struct mlx5dm_index_bucket *old;   /* buckets still to move while growing */
	uint32_t mask;
	uint32_t old_mask;
	uint32_t move_pos;
	uint32_t count;
	int socket1;                       /* the tables' socket + 1: zeroed is none */
};

/* Allocate x's tables on socket (MLX5DM_SOCKET_ANY: no preference) from now on. */
static inline void
mlx5dm_index_set_socket(struct mlx5dm_index *x, int socket)
{
	x->socket1 = socket + 1;
}

/* A full avalanche of h (MurmurHash3's finaliser): buckets come from the low bits. */
static inline uint32_t
mlx5dm_index_mix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	h ^= h >> 33;
	return (uint32_t)h;
}

/* rec (a record whose hash hit) is the one key names. */
typedef bool (*mlx5dm_index_eq)(const void *rec, const void *key);

/* Free the tables; the index is empty (and usable, on its socket) again. */
void mlx5dm_index_fini(struct mlx5dm_index *x);
/* The record with hash h that eq says is key's, or NULL. */
void *mlx5dm_index_find(const struct mlx5dm_index *x, uint32_t h, mlx5dm_index_eq eq,
			const void *key);
/* Start loading the home bucket of hash h (for a lookup a little later). */
void mlx5dm_index_prefetch(const struct mlx5dm_index *x, uint32_t h);
/*
 * Index rec under h (records are distinct pointers; equal keys are the
 * caller's business). -ENOMEM only when the index could not grow and is
 * nearly full; never right after a removal, nor after a successful
 * mlx5dm_index_reserve() for it.
 */
int mlx5dm_index_insert(struct mlx5dm_index *x, void *rec, uint32_t h);
/* Room for n more records (growing if due): their inserts cannot fail. 0 or -ENOMEM. */
int mlx5dm_index_reserve(struct mlx5dm_index *x, uint32_t n);
/* Remove rec, indexed under h; false if it is not there. */
bool mlx5dm_index_remove(struct mlx5dm_index *x, const void *rec, uint32_t h);
/* Call cb for every record (the index must not change meanwhile). */
void mlx5dm_index_foreach(const struct mlx5dm_index *x, void (*cb)(void *arg, void *rec),
			  void *arg);
/* Host bytes of the tables. */
size_t mlx5dm_index_bytes(const struct mlx5dm_index *x);

/* Shape of an index (tests, debugging): what stays bounded as it fills. */
struct mlx5dm_index_shape {
	uint32_t count;                    /* records */
	uint32_t buckets;                  /* of the current table (and the old one) */
	uint64_t reads;                    /* buckets read by finding every record once */
};
void mlx5dm_index_shape(const struct mlx5dm_index *x, struct mlx5dm_index_shape *sh);

/*
 * ---- record slabs (mlx5dm_steer_slab.c) ----
 *
 * Fixed-size records, allocated under the owner's lock: the first blocks
 * from the heap, then 2 MiB huge regions (mlx5dm_huge_alloc) populated at
 * once, so a million records cost a few hundred page faults, not a fault
 * per 4 KiB page. Freed records are reused first;
 * blocks go back only with the slab. A slab given an arena (memory
 * reserved for a matcher's rules) cuts its blocks from it first.
 */
struct mlx5dm_slab_arena;
struct mlx5dm_slab {
	size_t obj_size;
	void *free;                       /* freed records, linked through their first word */
	uint8_t *bump;                    /* never-used records of the newest block ... */
	uint8_t *end;                     /* ... up to here */
	void *blocks;
	uint32_t nb_blocks;
	bool bump_zero;                   /* the newest block came zeroed (a huge region) */
	uint64_t live;
	struct mlx5dm_slab_arena *arena;  /* blocks are cut from it first; NULL: none */
	int socket;                       /* of its blocks and arena */
};
/* Its blocks on socket (MLX5DM_SOCKET_ANY: no preference). */
void mlx5dm_slab_init(struct mlx5dm_slab *s, size_t obj_size, int socket);
/* A zeroed record; NULL without memory. */
void *mlx5dm_slab_alloc(struct mlx5dm_slab *s);
void mlx5dm_slab_free(struct mlx5dm_slab *s, void *o);
/* Free every block (no record may be in use any more). */
void mlx5dm_slab_destroy(struct mlx5dm_slab *s);
size_t mlx5dm_slab_bytes(const struct mlx5dm_slab *s);

/* ---- observability ---- */

/*
 * CSV dump in the format of rdma-core's mlx5dv_dump_dr_domain (records
 * 3000-3424; doc/guides/steering_dump.rst). Safe while rules are inserted
 * on other threads (a matcher's inserts wait while it is dumped); writes
 * nothing to the device. Return: 0, -EINVAL, -ENOMEM, -EIO (write error).
 */
int mlx5dm_domain_dump(struct mlx5dm_domain *dom, FILE *f);
/*
 * One rule's records, as rdma-core's mlx5dv_dump_dr_rule writes them: the
 * rule (3300), its STEs (3303/3304) and its actions (34xx), ids as in the
 * domain dump. The rule must stay alive during the call (its matcher's
 * inserts and deletes wait). Return: 0, -EINVAL, -ENOMEM, -EIO.
 */
int mlx5dm_rule_dump(struct mlx5dm_rule *rule, FILE *f);
/*
 * The id dumps give action a (its address), so that a caller's own records
 * can name it (DPDK's 4420/4430). A bulk's counter action stands for one
 * counter per rule: arg (the rule's argument, its index) picks it, and the
 * id is the counter's: the device counter id with bit 63 set (no address
 * has it).
 */
uint64_t mlx5dm_action_dump_id(const struct mlx5dm_action *a, uint32_t arg);

struct mlx5dm_icm_usage {
	uint64_t used_bytes;
	uint64_t hot_bytes;          /* freed, awaiting sync before reuse */
	uint64_t dm_bytes;           /* allocated from the device */
};

struct mlx5dm_ctx_stats {
	struct mlx5dm_icm_usage icm[4]; /* STEERING, HEADER_MODIFY, HEADER_MODIFY_PATTERN, ENCAP */
	uint64_t rules;
	uint64_t tables;
	uint64_t matchers;
	uint64_t wqes;
	uint64_t write_bytes;
	uint64_t rehash;             /* hash tables grown */
	uint64_t modify_patterns;    /* distinct modify-header patterns in pattern ICM */
	uint64_t modify_args;        /* modify-header argument slots in use */
	uint64_t reformat_contexts;  /* firmware reformat contexts (encap without ENCAP ICM) */
	uint64_t counter_bulks;      /* flow counter bulks allocated from the device */
	uint64_t queues;             /* rule queues (mlx5dm_queue_stats_get) */
	/*
	 * Rule operations that found another queue's writes into their slot
	 * chain possibly not executed yet and made them execute first (rules
	 * of two queues meeting in one hash slot: doc/guides/steering.rst).
	 */
	uint64_t queue_waits;
};
int mlx5dm_ctx_stats_get(struct mlx5dm_ctx *ctx, struct mlx5dm_ctx_stats *st);

/*
 * Whether @p rules more rules can be placed: each takes one STE at the least
 * (its last match level's entry), so they need rules STEs of the STE ICM
 * the device reports (log_steering_sw_icm_size) that is not in use. 0, or
 * -ENOMEM when it is short; -EINVAL (NULL). A check, not a reservation.
 */
int mlx5dm_ctx_ste_room(struct mlx5dm_ctx *ctx, uint64_t rules);

/* A rule queue and its send ring. */
struct mlx5dm_queue_stats {
	int64_t rules;               /* created minus destroyed through it (may be < 0) */
	uint64_t wqes;               /* WQEs posted */
	uint64_t write_bytes;
	uint64_t doorbells;
	uint64_t cqes;
	uint64_t full_waits;         /* times the ring or its staging buffer was full */
	uint32_t size;               /* ring size in WQEBBs */
	uint32_t outstanding;        /* WQEBBs posted and not completed yet */
	uint32_t unrung;             /* WQEs posted the device was not told of (doorbell batch) */
	int error;                   /* 0, or -EIO: the ring is in error (mlx5dm_rule_create) */
	uint32_t err_syndrome;       /* of the first error CQE, 0 if none */
	uint64_t recoveries;         /* times mlx5dm_queue_recover() brought its QP back */
	uint64_t unlinks_redone;     /* deletions' unlinks it lost and wrote again then */
	/*
	 * Rule creates and destroys on it that found their matcher shard's
	 * lock held (by another queue's rule, or a dump or statistics call)
	 * and waited for it.
	 */
	uint64_t shard_busy;
};
/* 0; -EINVAL (queue >= the context's queues, NULL). */
int mlx5dm_queue_stats_get(struct mlx5dm_ctx *ctx, uint16_t queue, struct mlx5dm_queue_stats *st);

/*
 * A matcher's rules and hash tables. Each level of a matcher is a chain of
 * tables that grows at its head (a new table four times larger, whose
 * entries then move over from the old head a few per rule insert, until
 * the old one is freed): "chained" tables are those in a chain of two,
 * "growing" ones are being filled and not yet reachable. A consistent
 * snapshot of this matcher (taken under its lock); O(1) plus the growths
 * in progress.
 */
struct mlx5dm_matcher_stats {
	uint64_t rules;
	uint64_t tables;             /* hash tables, every level, growing ones included */
	uint64_t entries;            /* slots of those tables (the sum of their sizes) */
	uint64_t used;               /* slots holding an entry */
	uint64_t collisions;         /* entries hanging off a used slot (own ICM entry each) */
	uint64_t chained_tables;     /* tables in growth chains of two (one being emptied) */
	uint64_t growing;            /* tables being filled for a growth in progress */
	uint64_t growths;            /* growths completed (this matcher's share of ctx rehash) */
	/*
	 * Shards its rules are split in (1 on a context with one rule queue)
	 * and the rules of the fullest one: rules of one shard take one lock,
	 * whichever queue inserts them (doc/guides/steering.rst, Threading
	 * contract). An FDB matcher: the larger of its sides'.
	 */
	uint32_t shards;
	uint64_t shard_rules_max;
};
int mlx5dm_matcher_stats_get(struct mlx5dm_matcher *matcher, struct mlx5dm_matcher_stats *st);

/* Sums over a table's matchers (each read under its own lock). */
struct mlx5dm_table_stats {
	uint64_t matchers;
	uint64_t rules;
};
int mlx5dm_table_stats_get(struct mlx5dm_table *tbl, struct mlx5dm_table_stats *st);

/* Sums over a domain's tables; actions = actions created on the domain and not destroyed. */
struct mlx5dm_domain_stats {
	uint64_t tables;
	uint64_t matchers;
	uint64_t rules;
	uint64_t actions;
};
int mlx5dm_domain_stats_get(struct mlx5dm_domain *dom, struct mlx5dm_domain_stats *st);

#endif /* _MLX5DM_STEER_H_ */
