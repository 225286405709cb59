/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Internal state of the steering library (lib/steer).
 *
 * What the device walks, per domain side:
 *
 *   FT root -> table.s_anchor -hit-> M1 first table ... -> M1.e_anchor -hit-> M2 first table
 *                                   (misses)                                  ... -> default
 *
 * Every hash table of a matcher (its first table and the per-prefix deeper
 * tables) is a *chain* of at most two tables, the head and an older one:
 *
 *   parent -hit-> T_new [slots; misses -> T_new.miss_anchor] -hit-> T_old -> e_anchor
 *
 * Growth allocates a table four times the head's size, fills it with
 * always-miss entries (incrementally, a slice per later insert, when it is
 * large), then flips the parent's hit pointer with one control write. The
 * old head's entries then move to the new head a few per later insert
 * (mlx5dm_htbl_drain_step); once it is empty, the miss anchor stops
 * leading into it and it is freed. No insert ever copies a table, and the
 * next growth of a chain waits until its older table is gone.
 */

#ifndef _MLX5DM_STEER_PRIV_H_
#define _MLX5DM_STEER_PRIV_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/queue.h>

#include "mlx5dm_icm.h"
#include "mlx5dm_res.h"
#include "mlx5dm_osdep.h"
#include "mlx5dm_send.h"
#include "mlx5dm_ste.h"
#include "mlx5dm_steer.h"

#define MLX5DM_STEER_LOG "steer"

/* Tables at least this large are filled a slice at a time. */
#define MLX5DM_HTBL_LOG_SYNC_FILL 12
/* Bytes of always-miss image written per insert while a table fills. */
#define MLX5DM_HTBL_FILL_SLICE (16u * 1024u)
/* Entries an older table of a chain gives to its head per rule insert (whole slot chains). */
#define MLX5DM_HTBL_MOVE_ENTRIES 4
/* Entries of one slot chain moved in one go (a longer chain moves in parts). */
#define MLX5DM_HTBL_MOVE_CHAIN 16
/* Unused slots (or never used pages of slots) passed over per rule insert. */
#define MLX5DM_HTBL_MOVE_SCAN 64

/* Size classes of rule records (mlx5dm_steer_rule.c). */
#define MLX5DM_RULE_CLASSES 4

/* The record the next allocation returns (NULL if it needs a new block), for prefetching. */
static inline const void *
mlx5dm_slab_peek(const struct mlx5dm_slab *s)
{
	return s->free != NULL ? s->free : (s->bump < s->end ? s->bump : NULL);
}

/*
 * Host memory reserved for the rule records of a matcher (its attribute
 * rules_reserve), taken when the matcher is created: the DPDK way of sizing
 * a template table up front (the heap grows, and pages are faulted, then),
 * so inserts within that count take their records without the allocator.
 * Its shards' rule slabs cut blocks from it in turn; once it is used up
 * they go to the heap as other slabs do.
 */
struct mlx5dm_slab_arena {
	uint8_t *base;
	size_t size;
	size_t next;                      /* atomic: offset of the next block */
};
/*
 * Room for records of slabs like s, cut by nb_slabs of them; 0 or -ENOMEM.
 * Fewer records than half a huge page holds get none (base NULL): a small
 * template table does not take 2 MiB of host memory per matcher.
 */
int mlx5dm_slab_arena_init(struct mlx5dm_slab_arena *a, const struct mlx5dm_slab *s,
			   uint64_t records, unsigned int nb_slabs);
void mlx5dm_slab_arena_fini(struct mlx5dm_slab_arena *a);

/* Single ICM entries for collision/action entries, reused after a sync. */
#define MLX5DM_ENTRY_POOL_BLOCK 64 /* a record's pool_index has 6 bits */
struct mlx5dm_entry_pool_block;
struct mlx5dm_entry_pool {
	LIST_HEAD(, mlx5dm_entry_pool_block) all;
	LIST_HEAD(, mlx5dm_entry_pool_block) avail;
	TAILQ_HEAD(, mlx5dm_entry_pool_block) hot;
	uint32_t n_hot;                   /* entries freed since the last ICM sync */
	uint64_t hot_epoch;               /* the ICM sync count n_hot was counted at */
	bool init;
};

/* Device capabilities the library reads (decoded QUERY_HCA_CAP). */
/*
 * A vport of the E-Switch as an FDB domain sees it (rdma-core
 * dr_domain_query_vport, dr_domain_fill_uplink_caps): where a rule sends a
 * frame into it on each FDB side, and its function's vhca_id.
 */
struct mlx5dm_vport_caps {
	uint16_t num;                     /* vport number, MLX5DM_VPORT_UPLINK: the wire */
	uint16_t vport_gvmi;              /* its function's vhca_id (source_gvmi); 0: the wire */
	uint16_t vhca_gvmi;               /* owner of the ICM addresses: the manager */
	uint64_t icm_rx;                  /* sw_steering_vport_icm_address_rx */
	uint64_t icm_tx;                  /* sw_steering_vport_icm_address_tx */
};

/* The FDB, on an E-Switch manager (rdma-core dr_domain_query_fdb_caps). */
struct mlx5dm_fdb_caps {
	bool sw_owner;                    /* FDB tables may be SW-owned (3.2, rule 3) */
	uint8_t max_ft_level;
	uint64_t drop_icm_rx;             /* sw_steering_fdb_action_drop_icm_address_rx */
	uint64_t drop_icm_tx;
	struct mlx5dm_vport_caps manager; /* the FDB domain's default on both sides */
	struct mlx5dm_vport_caps uplink;
};

struct mlx5dm_caps {
	uint16_t vhca_id;
	uint8_t fmt;                      /* steering_format_version */
	bool rx_sw_owner;
	bool tx_sw_owner;
	uint8_t max_ft_level;             /* the lower of NIC RX's and NIC TX's */
	uint8_t log_max_qp_sz;            /* WQEs of a QP, log2 */
	uint8_t log_max_cq_sz;            /* CQEs of a CQ, log2 */
	uint64_t rx_drop_icm;
	uint64_t tx_drop_icm;
	uint64_t tx_allow_icm;
	uint16_t max_encap_header_size;
	bool modify_argument;             /* general object 0x23 */
	uint8_t log_arg_granularity;
	uint8_t log_arg_max_alloc;
	uint8_t fc_bulk_bitmap;
	uint8_t log_max_fc_bulk;
	uint8_t rq_ts_format;
	struct mlx5dm_icm_caps icm;
	bool roce_en;                     /* RoCE enabled on the port (NIC vport context) */
	struct mlx5dm_send_path send_path; /* how the send rings' QPs connect */
	/* flex_parser_protocols and the flex parser ids the STE builders use. */
	struct mlx5dm_ste_dev_caps ste;
	/* Reported (domain dump info records); with it, the FDB's capabilities. */
	bool eswitch_manager;
	struct mlx5dm_fdb_caps fdb;
	uint8_t flex_id_icmp[4];          /* flex parser ids: ICMP dw0, dw1, ICMPv6 dw0, dw1 */
};

/* A rule queue: one send ring, used by one thread at a time (a line of its own). */
struct mlx5dm_queue {
	_Alignas(64) struct mlx5dm_spinlock lock; /* owner + threads waiting for its writes */
	struct mlx5dm_send_ring *ring;
	/* Rules created minus destroyed through it (under its lock: no locked add per rule). */
	int64_t n_rules;
	uint64_t n_shard_busy;            /* its rule operations that found their shard locked */
	uint64_t sq_full_waits;           /* the ring's when last looked at (mlx5dm_queue_grow()) */
	uint32_t db_batch;                /* WQEs per doorbell (>= 1) */
	bool sized;                       /* by mlx5dm_queue_resize(): never grown */
};

struct mlx5dm_ctx {
	/* First: the resource layer finds its context at the ctx pointer. */
	struct mlx5dm_res_ctx res;
	struct mlx5dm_dev *dev;
	struct ibv_pd *pd;
	uint32_t pdn;
	uint32_t eqn;                         /* completion EQ of the CQs (vector 0) */
	struct mlx5dv_devx_uar *uar;
	const struct mlx5dm_ste_ctx *ste;
	struct mlx5dm_caps caps;
	struct mlx5dm_icm_set *icm;
	struct mlx5dm_icm_pool *ste_pool;
	struct mlx5dm_icm_pool *modify_pool;
	struct mlx5dm_icm_pool *encap_pool;   /* NULL without ENCAP SW ICM */
	struct mlx5dm_icm_pool *pattern_pool; /* NULL without argument objects */
	struct mlx5dm_pattern_cache *patterns; /* modify patterns, with pattern_pool */
	uint16_t nb_queues;
	struct mlx5dm_queue *queues;          /* nb_queues + 1: the last is the control queue */
	struct mlx5dm_spinlock lock;          /* control objects */
	struct mlx5dm_slab act_slab;          /* struct mlx5dm_action records (under lock) */
	bool allow_dup;
	bool res_ready;                       /* res initialised */
	uint32_t queue_log_grown;             /* rule queues' rings grow up to 2^this WQEBBs */
	LIST_HEAD(, mlx5dm_domain) domains;
	uint64_t n_tables;
	uint64_t n_matchers;
	uint64_t n_rehash;                    /* atomic */
	uint64_t n_order_waits;               /* atomic: rules that waited for another queue */
};

/* STE entries the device's steering ICM holds: rules a context can hold at most. */
static inline uint64_t
mlx5dm_ctx_ste_entries(const struct mlx5dm_ctx *ctx)
{
	return (1ull << ctx->caps.icm.log_steering_sw_icm_size) / MLX5DM_STE_SIZE;
}

/* Queue q's bit in a set of queues (one word: queues 64 apart share a bit). */
static inline uint64_t
mlx5dm_steer_queue_bit(const struct mlx5dm_ctx *ctx, const struct mlx5dm_queue *q)
{
	return 1ull << ((unsigned int)(q - ctx->queues) % 64u);
}

struct mlx5dm_table;

struct mlx5dm_fdb_vports;

/*
 * A domain. An FDB domain (rdma-core's info.rx / info.tx) is two sides in
 * one: every table, matcher and rule of it is a pair of side objects, each
 * a NIC-like object of its side's domain (half[]), which is listed nowhere
 * and walked by the device from the FDB table's RX or TX root
 * (mlx5dm_steer_fdb.c). The FDB domain's own default and drop are its RX
 * side's.
 */
struct mlx5dm_domain {
	LIST_ENTRY(mlx5dm_domain) next;
	struct mlx5dm_ctx *ctx;
	enum mlx5dm_domain_type type;
	enum mlx5dm_ste_dir dir;
	uint64_t default_icm;             /* where unmatched traffic goes */
	uint64_t drop_icm;
	struct mlx5dm_table *root_tbl;    /* entry table, or NULL */
	struct mlx5dm_res_root root;      /* the root-table rule forwarding to root_tbl */
	LIST_HEAD(, mlx5dm_table) tables;
	uint32_t refcnt;                  /* actions created on it */
	struct mlx5dm_ste_dev_caps ste_caps; /* builder facts (an FDB's: source_port matched) */
	struct mlx5dm_domain *top;        /* an FDB side: its FDB domain; else NULL */
	struct mlx5dm_domain *half[2];    /* an FDB domain: its sides by direction; else NULL */
	struct mlx5dm_fdb_vports *vports; /* an FDB domain: the vports it has looked up */
};

/* The domain actions and callers know: an FDB side's FDB domain, else dom. */
static inline struct mlx5dm_domain *
mlx5dm_domain_top(struct mlx5dm_domain *dom)
{
	return dom->top != NULL ? dom->top : dom;
}

/* dom is an FDB domain (its objects are pairs of side objects). */
static inline bool
mlx5dm_domain_is_fdb(const struct mlx5dm_domain *dom)
{
	return dom->half[MLX5DM_STE_DIR_RX] != NULL;
}

struct mlx5dm_htbl;

/*
 * Software record of one STE in ICM. Slot entries live in a table's chunk;
 * collision, action and miss-anchor entries in a block of the matcher's
 * entry pool; anchors of tables and matchers have an order-0 chunk each.
 *
 * A tag search of a slot chain reads one line per entry: the link and the
 * tag come first, the table bookkeeping after them. A hit of an upper
 * level continues in a table, a last-level entry ends a rule: one word for
 * both. A pooled entry's chunk is the copy of the ICM chunk its block
 * keeps, so the record names its block without a pointer of its own
 * (mlx5dm_ste_block()). Where the entry is in its chunk is kept for a
 * pooled entry only: a slot entry's is its slot (mlx5dm_ste_index()), so
 * the hash, that place and the counts share a word.
 *
 * The control part of the entry (ctrl) follows, except in a last-level
 * entry (lean: one per rule, 56 bytes, the start of its rule's record:
 * mlx5dm_rule_last()): its rule places its actions again
 * when it is written, and its pointers are where its chain goes
 * (mlx5dm_ste_ctrl_get()), as DPDK mlx5 HWS keeps no STE copy at all
 * (mlx5dr_rule.c).
 */
#define MLX5DM_STE_HASH_BITS 26           /* a table has 2^20 slots at most (the STE pool's) */
struct mlx5dm_ste {
	struct mlx5dm_ste *next_col;      /* next entry of the slot's collision chain */
	uint8_t tag[MLX5DM_STE_TAG_SIZE];
	struct mlx5dm_htbl *htbl;         /* the hash table whose slot chain holds it */
	union {
		/* Match levels < last: where a hit continues (mlx5dm_ste_next_htbl()). */
		struct mlx5dm_htbl *next_htbl;
		struct mlx5dm_rule *rule; /* ends_rule: the rule */
	};
	struct mlx5dm_icm_chunk *chunk;   /* ICM holding the entry */
	/* Its tag's hash (low bits): the slot in any table of the chain. */
	uint64_t hash : MLX5DM_STE_HASH_BITS;
	uint64_t pool_index : 6;          /* pooled: its entry in the block's chunk */
	uint64_t refcount : 28;           /* rules through this entry */
	uint64_t lean : 1;                /* a last-level entry: no ctrl kept */
	uint64_t collision : 1;           /* not the slot itself */
	uint64_t pooled : 1;              /* chunk is a block's of the matcher's entry pool */
	uint64_t ends_rule : 1;           /* a last-level or action entry: rule, no next_htbl */
	uint8_t ctrl[];                   /* not lean: the control part, software layout */
};

/* Bytes of a record with its control part (every one but a lean one). */
#define MLX5DM_STE_REC_FULL (sizeof(struct mlx5dm_ste) + MLX5DM_STE_CTRL_SIZE)

/* Record s takes the control part (unless lean) and the tag of a 64-byte image. */
static inline void
mlx5dm_ste_set_image(struct mlx5dm_ste *s, const uint8_t *img)
{
	if (!s->lean)
		memcpy(s->ctrl, img, MLX5DM_STE_CTRL_SIZE);
	memcpy(s->tag, img + MLX5DM_STE_TAG_OFF, MLX5DM_STE_TAG_SIZE);
}

_Static_assert(sizeof(struct mlx5dm_ste) == 56, "STE record size (one per rule at least)");

struct mlx5dm_matcher;

/*
 * The slot heads of a table come in pages of 512 (4 KiB), a page allocated
 * when a slot of it is first used: growing a table to 2^20 slots costs a
 * 16 KiB directory, not 8 MiB of zeroed pointers in the inserting call.
 * A table of one page or less has its heads inline, behind the structure.
 * A table of half MLX5DM_HUGE_SIZE of heads or more takes its pages from one
 * huge-page region instead of the heap: a page fault per 2 MiB, not per
 * 4 KiB page (faults, not zeroing, dominate where faults are costly, as in
 * a VM).
 */
#define MLX5DM_HTBL_PAGE_LOG 9
#define MLX5DM_HTBL_PAGE (1u << MLX5DM_HTBL_PAGE_LOG)

/* A hash table of STEs (2^log_size entries), a link of a growth chain. */
struct mlx5dm_htbl {
	struct mlx5dm_matcher *matcher;
	/* The shard owning it; NULL: the first level, shared by several shards. */
	struct mlx5dm_shard *shard;
	struct mlx5dm_icm_chunk *chunk;
	struct mlx5dm_ste ***pages;       /* per page of slots: its heads (NULL = all unused) */
	struct mlx5dm_ste **page0;        /* the inline page of a small table (pages = &page0) */
	struct mlx5dm_ste **slot_mem;     /* a large table's pages, one huge region (or NULL) */
	uint32_t num_entries;
	uint8_t log_size;
	uint8_t level;                    /* builder index of its entries */
	uint16_t lu_type;                 /* lookup of its entries */
	uint16_t byte_mask;               /* hashed tag bytes (from the pointing entry) */
	bool sizing;                      /* (growing table) the size of the hint, not a growth */
	uint32_t used;                    /* slots in use */
	uint32_t collisions;              /* collision entries hanging off its slots */
	struct mlx5dm_ste *pointing_ste;  /* parent whose hit pointer reaches the chain */
	struct mlx5dm_htbl *chain_next;   /* older table, reached through miss_anchor */
	struct mlx5dm_htbl *chain_prev;   /* newer table */
	/*
	 * Names the chain in the matcher's index: its pointing entry, or the
	 * matcher for the first level; both outlive every table of the chain.
	 */
	const void *root;
	struct mlx5dm_ste *miss_anchor;   /* always-hit to chain_next, else always-miss to end */
	struct mlx5dm_htbl *growing;      /* bigger table being filled, not yet reachable */
	uint32_t fill_pos;                /* (growing table) entries already written */
	/* (growing table) the queues that wrote it, anchor and slices (mlx5dm_steer_queue_bit()) */
	uint64_t writers;
	struct mlx5dm_htbl *grow_next;    /* (growing table) next head of the matcher's list */
	uint32_t move_pos;                /* (older table) next slot whose entries move */
	TAILQ_ENTRY(mlx5dm_htbl) drain_link; /* (older table) in its shard's drain list */
	/*
	 * Several shards: the queue that last wrote each slot chain (slots
	 * folded into at most MLX5DM_HTBL_ORDERS records; NULL with one
	 * shard). A shared first-level table has a block of 2^order_block
	 * records per shard, lines of their own: its shards write no common
	 * line.
	 */
	struct mlx5dm_order *order;
	uint32_t order_mask;
	uint8_t order_block;
};

struct mlx5dm_table {
	LIST_ENTRY(mlx5dm_table) next;
	struct mlx5dm_domain *dom;
	uint32_t level;
	struct mlx5dm_ste *s_anchor;      /* the FT root: always-hit to the first matcher */
	struct mlx5dm_res_ft *ft;         /* SW-owned flow table object */
	uint32_t ft_id;
	TAILQ_HEAD(mlx5dm_matcher_list, mlx5dm_matcher) matchers; /* by priority */
	uint32_t refcnt;                  /* jump actions and the domain root pointing here */
	struct mlx5dm_spinlock anchor_lock; /* writes of anchors shared by matchers */
	struct mlx5dm_table *half[2];     /* an FDB table: its sides (s_anchor NULL); else NULL */
};

/*
 * Where a placed action list's per-rule fields are: a rule with the same
 * list but for those fields copies the control part of the last match STE
 * (placement writes only that part of it) and the action STEs, then
 * patches its own values in (mlx5dm_steer_rule_act.c).
 */
struct mlx5dm_act_patch {
	uint8_t n_extra;
	/*
	 * The list's counter action (-1: none): any counter action of the
	 * domain takes its place, its counter id is patched into entry ctr_ste
	 * (0: the match entry's control, k: action entry k - 1).
	 */
	int8_t ctr_action;
	uint8_t ctr_ste;
	/*
	 * The list's flow tag action (-1: none, or its slot not told apart):
	 * any flow tag action of the domain takes its place, its tag is
	 * patched into the slot at byte tag_off of entry tag_ste.
	 */
	int8_t tag_action;
	uint8_t tag_ste;
	uint8_t tag_off;
	/*
	 * The list's modify-set action (-1: none, or its HW action not told
	 * apart): the rule's data is patched into the HW action at byte
	 * set_off of entry set_ste.
	 */
	int8_t set_action;
	uint8_t set_ste;
	uint8_t set_off;
	uint8_t ctrl[MLX5DM_STE_CTRL_SIZE];
	uint8_t extra[MLX5DM_STE_MAX_ACTION_STES * MLX5DM_STE_SIZE];
};

/*
 * An action template (mlx5dm_action_tmpl_create()). Every counter and flow
 * tag of its list is the rule's: patched into the image, unless full.
 */
enum {
	MLX5DM_ACT_TMPL_COUNTER = 1,      /* any counter action of the domain */
	MLX5DM_ACT_TMPL_TAG,              /* any flow tag action of the domain */
};
struct mlx5dm_action_tmpl {
	/* Unless full: in its matcher's list (every shard lock held to change it). */
	LIST_ENTRY(mlx5dm_action_tmpl) next;
	struct mlx5dm_matcher *matcher;
	struct mlx5dm_domain *dom;        /* the actions' */
	uint8_t nb_actions;
	bool full;                        /* placed in full for each rule */
	uint8_t per_rule[MLX5DM_RULE_MAX_ACTIONS]; /* 0: actions[i] itself */
	struct mlx5dm_action *actions[MLX5DM_RULE_MAX_ACTIONS]; /* referenced; NULL per rule */
	struct mlx5dm_act_patch p;        /* unless full */
};

#define MLX5DM_MATCHER_ACTION_REFS 4

/* An action and how many rules of a matcher count on the reference this entry holds. */
struct mlx5dm_matcher_action_ref {
	struct mlx5dm_action *a;
	uint32_t n;                       /* 0: free (no reference held) */
};

/* A matcher's figures, kept where they change (its statistics are the sums). */
struct mlx5dm_matcher_counts {
	uint64_t rules;
	uint64_t tables;
	uint64_t entries;                 /* slots of its tables */
	uint64_t used;                    /* slots in use, over its tables */
	uint64_t collisions;              /* collision entries, over its tables */
	uint64_t chained;                 /* tables in growth chains of two */
	uint64_t growths;                 /* growths completed */
};

/*
 * Shards of a matcher on a context with several rule queues. A rule's
 * shard is given by its level-0 tag (the low bits of the slot hash) and
 * level-0 tables have at least as many slots as there are shards, so all
 * the rules of one slot chain, and every table hanging off it, are in one
 * shard: a shard's lock orders the rules that meet, and rules of other
 * shards touch none of its lines. The first-level chain (its head, its
 * growth) is shared: changed only with every shard lock held.
 *
 * Rules of two queues meeting in one slot chain write the same entries
 * through different rings, which the device executes in no particular
 * order. Each shard remembers, per slot (hashed), which queue wrote it
 * last and where that queue's writes ended; a rule on another queue makes
 * those writes execute before it posts its own (what rdma-core gets by
 * choosing a rule's lock and send ring by its first-level hash index:
 * dr_rule_lock() in providers/mlx5/dr_rule.c). A rule of several levels
 * records its last-level slot; the structure of the chains below a
 * level-0 slot (new chains, growth, moves, unlinks above the last level)
 * is recorded at that slot, which every such rule waits for. Moving a
 * slot chain of an older table to the grown head (mlx5dm_htbl_drain_step)
 * writes the old slot and the entries' new slots and keeps all their
 * records (and the structure's) the same way. An entry and its copy are
 * in the same shard (both tables have a slot per shard at least), so a
 * shard's rules empty its share of an older table under its own lock.
 */
#define MLX5DM_MATCHER_SHARDS 16

struct mlx5dm_order {
	uint32_t pos;                     /* the end of the writes on that queue's ring */
	uint16_t queue;                   /* UINT16_MAX: no writes recorded */
};

/* Slot records of a table at most (one per slot below). */
#define MLX5DM_HTBL_ORDERS 1024

struct mlx5dm_shard {
	_Alignas(64) struct mlx5dm_spinlock lock; /* a line of its own: shards share none */
	struct mlx5dm_matcher *m;
	struct mlx5dm_index index;        /* entries above the last level by (chain, tag) */
	struct mlx5dm_slab ste_slab;      /* struct mlx5dm_ste records with their ctrl */
	struct mlx5dm_slab rule_slab[MLX5DM_RULE_CLASSES]; /* rules, by size class */
	struct mlx5dm_entry_pool entry_pool; /* ICM of collision, action and miss-anchor entries */
	/*
	 * The level-0 entry the last rule went through (non-last levels only).
	 * Consecutive rules usually share it (e.g. the same EtherType/IP
	 * version before a per-rule address): a tag compare replaces the index
	 * lookup. Cleared when that record is freed (mlx5dm_ste_rec_free).
	 */
	struct mlx5dm_ste *l0_hint;
	/*
	 * The actions its rules share, each holding one reference of the
	 * action for all of them (mlx5dm_steer_rule.c): a rule counts here,
	 * under the lock, instead of a locked add on the shared action.
	 */
	struct mlx5dm_matcher_action_ref action_refs[MLX5DM_MATCHER_ACTION_REFS];
	struct mlx5dm_htbl *grow_list;    /* its chain heads whose growth is in progress */
	/*
	 * The last unused-slot image built (mlx5dm_htbl_miss_image_of()): the
	 * matcher's always-miss entry of a level aimed at one miss target.
	 * Consecutive deletions and moves clear slots of the same table.
	 */
	bool miss_valid;
	uint8_t miss_level;
	uint64_t miss_target;
	uint8_t miss_hw[MLX5DM_STE_SIZE];
	/*
	 * Slot pages of freed tables, kept for the next ones: a burst of page
	 * frees followed by one allocation makes malloc sort them all in that
	 * call, a pause that grows with the table; a page here costs a memset.
	 */
	void *page_cache;
	TAILQ_HEAD(, mlx5dm_htbl) drain;  /* older tables of its chains being emptied */
	/*
	 * Its share of the shared first level (several shards): slots used and
	 * collision entries of the head [0] and of the older table being
	 * emptied [1], the next of its slots (one in nb_shards) of that older
	 * table to empty, and whether it found them all empty.
	 */
	uint32_t l0_used[2];
	uint32_t l0_collisions[2];
	uint32_t l0_move_pos;
	bool l0_drained;                  /* atomic: read by other shards' operations */
	struct mlx5dm_matcher_counts cnt;
};

struct mlx5dm_matcher {
	TAILQ_ENTRY(mlx5dm_matcher) next;
	struct mlx5dm_table *tbl;
	uint16_t priority;
	uint8_t criteria;
	uint8_t mask[MLX5DM_MATCH_PARAM_SIZE];
	struct mlx5dm_ste_builder builders[MLX5DM_STE_MAX_BUILDERS];
	unsigned int nb_builders;
	struct mlx5dm_ste_tmpl tmpl;      /* rule STEs, compiled from the builders */
	/* Per level: an unused slot's shadow image, miss address left 0. */
	uint8_t miss_img[MLX5DM_STE_MAX_BUILDERS][MLX5DM_STE_SIZE];
	struct mlx5dm_htbl *first;        /* head of the level-0 chain */
	/* Its action templates placed once: a lean entry's writes patch their image. */
	LIST_HEAD(, mlx5dm_action_tmpl) tmpls;
	struct mlx5dm_ste *e_anchor;      /* end: next matcher or default */
	uint8_t log_hint;                 /* the rules hint: each level's first chain's size */
	uint8_t log_first;                /* level-0 table size (the hint, a slot per shard) */
	uint32_t n_chains[MLX5DM_STE_MAX_BUILDERS]; /* chains below level-0 entries (atomic) */
	bool written;
	unsigned int nb_shards;           /* 1, or MLX5DM_MATCHER_SHARDS with several queues */
	struct mlx5dm_shard *shards;
	struct mlx5dm_slab_arena arena;   /* its shards' rule records (rules_reserve) */
	/*
	 * The shared first-level chain with several shards: its growth list,
	 * its head and older table change with l0_lock and every shard lock
	 * held. l0_lock alone (taken before any shard lock) lets one operation
	 * at a time write a slice of a growth, which no rule reaches yet, or
	 * empty another shard's share of the older table under that shard's
	 * lock: the other queues' rules go on meanwhile (l0_lock is last, away
	 * from the fields every rule reads).
	 */
	struct mlx5dm_htbl *grow_list;
	struct mlx5dm_matcher_counts cnt;
	/* An FDB matcher: its sides (its rules count in cnt.rules, atomic); else NULL. */
	struct mlx5dm_matcher *half[2];
	/* An FDB matcher's rules (dumps), under fdb_lock (taken before its sides' locks). */
	struct mlx5dm_rule *fdb_rules;
	struct mlx5dm_spinlock fdb_lock;
	uint16_t queue_idx;               /* for logs */
	struct mlx5dm_spinlock l0_lock;   /* see grow_list */
};

/*
 * The record of the queue that last wrote the slot chain of table t at
 * slot (several shards). In a shared first-level table the slot's low
 * bits name its shard, which picks the block.
 */
static inline struct mlx5dm_order *
mlx5dm_htbl_order(const struct mlx5dm_htbl *t, uint32_t slot)
{
	unsigned int nb = t->matcher->nb_shards;

	if (t->shard != NULL)
		return &t->order[slot & t->order_mask];
	return &t->order[((slot & (nb - 1)) << t->order_block) |
			 ((slot / nb) & ((1u << t->order_block) - 1))];
}

/* Lock every shard of m, in order (first-level chain changes, dumps, statistics). */
static inline void
mlx5dm_matcher_lock_all(struct mlx5dm_matcher *m)
{
	unsigned int i;

	for (i = 0; i < m->nb_shards; i++)
		mlx5dm_spinlock_lock(&m->shards[i].lock);
}

static inline void
mlx5dm_matcher_unlock_all(struct mlx5dm_matcher *m)
{
	unsigned int i;

	for (i = m->nb_shards; i-- > 0;)
		mlx5dm_spinlock_unlock(&m->shards[i].lock);
}

/* m's rules (every shard lock held, for an exact figure). */
static inline uint64_t
mlx5dm_matcher_rules(const struct mlx5dm_matcher *m)
{
	uint64_t n = m->cnt.rules;
	unsigned int i;

	for (i = 0; i < m->nb_shards; i++)
		n += m->shards[i].cnt.rules;
	return n;
}

/* Counters of table h: its shard's, or the matcher's for the shared first level. */
static inline struct mlx5dm_matcher_counts *
mlx5dm_htbl_cnt(const struct mlx5dm_htbl *h)
{
	return h->shard != NULL ? &h->shard->cnt : &h->matcher->cnt;
}

/* The shard whose records h's chain objects use (shard 0 for the shared first level). */
static inline struct mlx5dm_shard *
mlx5dm_htbl_owner(const struct mlx5dm_htbl *h)
{
	return h->shard != NULL ? h->shard : &h->matcher->shards[0];
}

/*
 * The page of h's slots holding slot i, NULL if never used. A page of a
 * shared first-level table may be installed by another shard at any time
 * (mlx5dm_htbl_slot_reserve()): every access to the directory is atomic.
 */
static inline struct mlx5dm_ste **
mlx5dm_htbl_page(const struct mlx5dm_htbl *h, uint32_t i)
{
	return __atomic_load_n(&h->pages[i >> MLX5DM_HTBL_PAGE_LOG], __ATOMIC_ACQUIRE);
}

/* Head record of slot i of h, NULL when unused. */
static inline struct mlx5dm_ste *
mlx5dm_htbl_slot(const struct mlx5dm_htbl *h, uint32_t i)
{
	struct mlx5dm_ste **p = mlx5dm_htbl_page(h, i);

	return p != NULL ? p[i & (MLX5DM_HTBL_PAGE - 1)] : NULL;
}

/* Last record of slot i's collision chain in h, NULL when the slot is unused. */
static inline struct mlx5dm_ste *
mlx5dm_htbl_slot_tail(const struct mlx5dm_htbl *h, uint32_t i)
{
	struct mlx5dm_ste *s = mlx5dm_htbl_slot(h, i);

	while (s != NULL && s->next_col != NULL)
		s = s->next_col;
	return s;
}

/*
 * A block of MLX5DM_ENTRY_POOL_BLOCK entries (one ICM chunk) with a bit per
 * entry: free (cool, reusable), hot (freed, waiting for a sync), or in use
 * (mlx5dm_steer_slab.c).
 */
struct mlx5dm_entry_pool_block {
	LIST_ENTRY(mlx5dm_entry_pool_block) all;
	LIST_ENTRY(mlx5dm_entry_pool_block) avail;   /* has free entries */
	TAILQ_ENTRY(mlx5dm_entry_pool_block) hot;    /* has hot entries; by time of freeing */
	struct mlx5dm_icm_chunk *chunk;       /* the ICM pool's, freed with the block */
	/* A copy of *chunk (immutable): the chunk of its entries' records. */
	struct mlx5dm_icm_chunk icm;
	uint64_t free;
	uint64_t busy;
	uint64_t hot_epoch;                   /* ICM syncs completed at the latest freeing */
	bool in_avail;
	bool in_hot;
};

/* The block of pooled entry s. */
static inline struct mlx5dm_entry_pool_block *
mlx5dm_ste_block(const struct mlx5dm_ste *s)
{
	return (struct mlx5dm_entry_pool_block *)(uintptr_t)((const uint8_t *)s->chunk -
		offsetof(struct mlx5dm_entry_pool_block, icm));
}

/* Where a hit on match entry s continues: NULL for the last level (s ends a rule). */
static inline struct mlx5dm_htbl *
mlx5dm_ste_next_htbl(const struct mlx5dm_ste *s)
{
	return s->ends_rule ? NULL : s->next_htbl;
}

/* Slot of htbl whose chain holds s: its hash within the table's size. */
static inline uint32_t
mlx5dm_ste_slot(const struct mlx5dm_ste *s)
{
	return (uint32_t)s->hash & (s->htbl->num_entries - 1);
}

/*
 * Entry of s in its chunk: a pooled entry's place in its block, a slot
 * entry's slot, 0 in the order-0 chunk of an anchor (no table).
 */
static inline uint32_t
mlx5dm_ste_index(const struct mlx5dm_ste *s)
{
	if (s->pooled)
		return s->pool_index;
	return s->htbl != NULL ? mlx5dm_ste_slot(s) : 0;
}

/* Clear slot i of h (it is in use, so its page exists). */
static inline void
mlx5dm_htbl_slot_clear(struct mlx5dm_htbl *h, uint32_t i)
{
	mlx5dm_htbl_page(h, i)[i & (MLX5DM_HTBL_PAGE - 1)] = NULL;
}

/* Slot i of h (in use: its page exists) gets head record s. */
static inline void
mlx5dm_htbl_slot_replace(struct mlx5dm_htbl *h, uint32_t i, struct mlx5dm_ste *s)
{
	mlx5dm_htbl_page(h, i)[i & (MLX5DM_HTBL_PAGE - 1)] = s;
}

/*
 * A table's slot / collision-entry count changed, by a rule of shard sh
 * (its lock held). A shared first-level table is not written: the shard
 * counts its share of it instead (mlx5dm_htbl_load()).
 */
static inline void
mlx5dm_htbl_count_used(struct mlx5dm_shard *sh, struct mlx5dm_htbl *t, int delta)
{
	sh->cnt.used += (uint64_t)(int64_t)delta;
	if (t->shard != NULL)
		t->used += (uint32_t)delta;
	else
		sh->l0_used[t->chain_prev != NULL] += (uint32_t)delta;
}

static inline void
mlx5dm_htbl_count_collision(struct mlx5dm_shard *sh, struct mlx5dm_htbl *t, int delta)
{
	sh->cnt.collisions += (uint64_t)(int64_t)delta;
	if (t->shard != NULL)
		t->collisions += (uint32_t)delta;
	else
		sh->l0_collisions[t->chain_prev != NULL] += (uint32_t)delta;
}

/*
 * A rule record is sized for its references (action STEs, then actions):
 * a rule with one action takes 24 bytes, with three 40, not the 216 the
 * largest one needs. It follows the lean record of its last match entry
 * (mlx5dm_rule_last(), which carries the actions): one slab record of 80
 * bytes for a rule with one action, no pointer from one to the other.
 * Records of each size class come from their own slab.
 */
struct mlx5dm_rule {
	struct mlx5dm_matcher *matcher;
	uint8_t nb_act_stes;
	uint8_t nb_actions;
	uint8_t size_class;               /* slab it came from */
	uint8_t shard;                    /* of its matcher */
	bool has_args;                    /* its actions' arguments follow them */
	/* nb_act_stes action STEs, nb_actions actions, then their arguments (has_args) */
	void *refs[];
};

_Static_assert(sizeof(struct mlx5dm_rule) == 16, "rule header size (one per rule)");

/* The rule's last match entry: the lean record its record follows. */
static inline struct mlx5dm_ste *
mlx5dm_rule_last(const struct mlx5dm_rule *r)
{
	return (struct mlx5dm_ste *)(uintptr_t)r - 1;
}

/*
 * The last level's entry in an array of one entry per level (a rule's
 * entries, a template's image).
 */
static inline uint8_t *
mlx5dm_matcher_last_entry(const struct mlx5dm_matcher *m, const uint8_t *arr)
{
	return (uint8_t *)(uintptr_t)arr + (size_t)(m->nb_builders - 1) * MLX5DM_STE_SIZE;
}

static inline struct mlx5dm_ste *const *
mlx5dm_rule_act_stes(const struct mlx5dm_rule *r)
{
	return (struct mlx5dm_ste *const *)r->refs;
}

/* Valid once every action STE is placed (the actions follow them). */
static inline struct mlx5dm_action *const *
mlx5dm_rule_action_list(const struct mlx5dm_rule *r)
{
	return (struct mlx5dm_action *const *)(r->refs + r->nb_act_stes);
}

/*
 * The arguments the rule's actions were placed with (one per action), NULL
 * when none takes one. Valid once every action STE is placed.
 */
static inline const uint32_t *
mlx5dm_rule_args(const struct mlx5dm_rule *r)
{
	return r->has_args ? (const uint32_t *)(r->refs + r->nb_act_stes + r->nb_actions) : NULL;
}

enum mlx5dm_action_kind {
	MLX5DM_ACT_DROP,
	MLX5DM_ACT_DEFAULT_MISS,
	MLX5DM_ACT_DEST_TABLE,
	MLX5DM_ACT_DEST_TIR,
	MLX5DM_ACT_COUNTER,
	MLX5DM_ACT_COUNTERS,              /* a bulk: the rule's argument names the counter */
	MLX5DM_ACT_FLOW_TAG,
	MLX5DM_ACT_FLOW_TAGS,             /* the rule's argument is the tag */
	MLX5DM_ACT_MODIFY,
	MLX5DM_ACT_MODIFY_SET,            /* one inline set: the rule's argument is its data */
	MLX5DM_ACT_REFORMAT,
	MLX5DM_ACT_PUSH_VLAN,
	MLX5DM_ACT_POP_VLAN,
	MLX5DM_ACT_DEST_VPORT,
};

struct mlx5dm_action {
	enum mlx5dm_action_kind kind;
	struct mlx5dm_tir *tir;           /* DEST_TIR */
	struct mlx5dm_counters *counters; /* COUNTER */
	struct mlx5dm_domain *dom;
	uint32_t refcnt;                  /* rules using it (atomic) */
	struct mlx5dm_ste_action ste;     /* what the STE encoder needs */
	struct mlx5dm_table *dest_tbl;
	struct mlx5dm_icm_chunk *chunk;   /* modify list / encap data in ICM */
	enum mlx5dm_reformat_type reformat;
	struct mlx5dm_pattern *pattern;   /* pattern mode: the shared pattern... */
	struct mlx5dm_res_arg *arg;       /* ...and this action's argument slot */
	struct mlx5dm_res_reformat *fw_reformat; /* encap data kept by the firmware */
	/* FDB: the TX side's address of a drop, default miss, jump or vport (ste: the RX's). */
	uint64_t fdb_icm_tx;
	uint16_t vport;                   /* DEST_VPORT: its number */
};

/*
 * ICM chunks freed while locks are held. Freeing a chunk may run the ICM
 * sync (drain every ring, SYNC_STEERING), which takes the queue locks, so
 * frees are collected and run once the operation has released its locks.
 */
struct mlx5dm_defer {
	unsigned int n;
	unsigned int cap;                 /* of more, 0 while only inline is used */
	bool want_sync;                   /* run an ICM sync once unlocked */
	struct mlx5dm_icm_pool *sync_pool;
	struct mlx5dm_icm_chunk **more;   /* grows past the inline room */
	struct mlx5dm_icm_chunk *chunks[32];
};


/* ---- mlx5dm_steer_rule.c ---- */
/* Link s (s->hash set) into its slot of t behind tail (NULL: s takes the unused slot). */
void mlx5dm_rule_link(struct mlx5dm_shard *sh, struct mlx5dm_htbl *t, struct mlx5dm_ste *s,
		      struct mlx5dm_ste *tail);
void mlx5dm_rule_slabs_init(struct mlx5dm_shard *sh, int socket);
void mlx5dm_rule_slabs_destroy(struct mlx5dm_shard *sh);
/*
 * A rule's deletion is one write, its unlink (the slot's new image, the
 * follower's image in the slot, or the predecessor's control part). The
 * rule leaves the library when the call returns, yet the device executes
 * that write later. Should the ring fail first (an error CQE: the QP
 * flushes every later WQE unexecuted, PRM "Error Handling" of send queues),
 * the device keeps steering by the rule, and the ICM it reaches was handed
 * back to its pool. So an unlink is a kept write (mlx5dm_send_write_kept()):
 * mlx5dm_queue_recover() has the ring post the lost ones again behind the
 * reset QP and drains them, and until then the ICM sync fails (the pools
 * keep freed ICM hot, mlx5dm_icm.h), so no freed entry is reused while the
 * device may still reach it. The bytes written again are those of the
 * lost write: nothing later on that queue changed the entry (the ring
 * refuses everything until it is back), and a creation lost with it is
 * destroyed by its caller after the recovery, which writes the slot chain
 * again as the library holds it. Queue lock held.
 */
static inline int
mlx5dm_redo_unlink(struct mlx5dm_queue *q, const struct mlx5dm_icm_chunk *chunk, uint32_t i,
		   const uint8_t *image, uint8_t len)
{
	return mlx5dm_send_write_kept(q->ring, mlx5dm_icm_chunk_entry_mr(chunk, i), chunk->rkey,
				      image, len);
}

/*
 * mlx5dm_rule_destroy() of a half-made rule (one side of an FDB rule whose
 * other side failed), on a ring in error too: it goes, its unlink lost
 * with the ring (ICM kept as for any deletion the ring lost) and posted
 * again by its recovery. The caller held room for that unlink on the
 * queue's ring before making the rule (mlx5dm_send_kept_hold()).
 */
void mlx5dm_rule_discard(struct mlx5dm_rule *rule, uint16_t queue);

/* ---- mlx5dm_steer_slab.c ---- */
void *mlx5dm_slab_alloc_raw(struct mlx5dm_slab *s);
int mlx5dm_entry_pool_get(struct mlx5dm_entry_pool *p, struct mlx5dm_ctx *ctx,
			  struct mlx5dm_ste *s);
void mlx5dm_entry_pool_put(struct mlx5dm_entry_pool *p, struct mlx5dm_ctx *ctx,
			   struct mlx5dm_ste *s, struct mlx5dm_defer *d);
void mlx5dm_entry_pool_destroy(struct mlx5dm_entry_pool *p, struct mlx5dm_defer *d);

/* ---- mlx5dm_steer_index.c: a matcher's index of its entries by (chain, tag) ---- */
uint32_t mlx5dm_tag_index_hash(const void *chain, const uint8_t *tag);
struct mlx5dm_ste *mlx5dm_tag_index_find(struct mlx5dm_index *x, const void *chain,
				    const uint8_t *tag, uint32_t hash);

/* Index s (its htbl and tag are set; h: the hash of its chain and tag). */
static inline int
mlx5dm_tag_index_insert(struct mlx5dm_index *x, struct mlx5dm_ste *s, uint32_t h)
{
	return mlx5dm_index_insert(x, s, h);
}

/* s leaves the index (h: the hash it was indexed with). */
static inline void
mlx5dm_tag_index_remove(struct mlx5dm_index *x, struct mlx5dm_ste *s, uint32_t h)
{
	(void)mlx5dm_index_remove(x, s, h);
}

/* ---- mlx5dm_steer_caps.c ---- */
int mlx5dm_caps_read(struct mlx5dm_dev *dev, struct mlx5dm_caps *caps);
/*
 * Vport num of the E-Switch that dev manages (caps read from it): queried
 * with QUERY_ESW_VPORT_CONTEXT and QUERY_HCA_CAP other_function; the
 * uplink and the manager from caps. -ENOTSUP on no manager, -EIO when the
 * device knows no such vport.
 */
int mlx5dm_caps_vport(struct mlx5dm_dev *dev, const struct mlx5dm_caps *caps, uint16_t num,
		      struct mlx5dm_vport_caps *vc);

/* ---- mlx5dm_steer_ctx.c ---- */
int mlx5dm_steer_sync_rings(struct mlx5dm_ctx *ctx);
int mlx5dm_steer_quiesce_rings(struct mlx5dm_ctx *ctx);
int mlx5dm_steer_hw_sync(struct mlx5dm_ctx *ctx);
struct mlx5dm_queue *mlx5dm_steer_ctrl_queue(struct mlx5dm_ctx *ctx);
int mlx5dm_steer_queue_wait(struct mlx5dm_ctx *ctx, uint16_t qi, uint32_t pos, bool try);
int mlx5dm_steer_wait_others(struct mlx5dm_ctx *ctx, const struct mlx5dm_queue *q,
			     uint64_t queues);
void mlx5dm_queue_grow(struct mlx5dm_ctx *ctx, struct mlx5dm_queue *q);

/*
 * After a rule operation on q (its lock held): when the operation waited
 * for room in the SQ of q's ring, the ring grows (mlx5dm_queue_grow()).
 */
static inline void
mlx5dm_queue_check_room(struct mlx5dm_ctx *ctx, struct mlx5dm_queue *q)
{
	if (MLX5DM_UNLIKELY(mlx5dm_send_sq_full_waits(q->ring) != q->sq_full_waits))
		mlx5dm_queue_grow(ctx, q);
}

/* ---- mlx5dm_steer_write.c ---- */
/* ste's control part into ctrl: its own, or a lean entry's from its rule. */
void mlx5dm_ste_ctrl_get(const struct mlx5dm_ste *ste, uint8_t *ctrl);
void mlx5dm_ste_image(const struct mlx5dm_ste *ste, const uint8_t *bit_mask, uint8_t *img);
int mlx5dm_ste_write_full(struct mlx5dm_ctx *ctx, struct mlx5dm_queue *q,
			  const struct mlx5dm_ste *ste, const uint8_t *bit_mask);
/* The full write of a rule's lean entry whose actions were just placed (placed: their ctrl). */
int mlx5dm_ste_write_placed(struct mlx5dm_ctx *ctx, struct mlx5dm_queue *q,
			    const struct mlx5dm_ste *ste, const uint8_t *bit_mask,
			    const uint8_t *placed);
int mlx5dm_ste_write_ctrl(struct mlx5dm_ctx *ctx, struct mlx5dm_queue *q,
			  const struct mlx5dm_ste *ste);
int mlx5dm_ste_write_image(struct mlx5dm_ctx *ctx, struct mlx5dm_queue *q,
			   const struct mlx5dm_icm_chunk *chunk, uint32_t first, uint32_t count,
			   const uint8_t *hw_image);
uint64_t mlx5dm_ste_icm(const struct mlx5dm_ste *ste);
struct mlx5dm_ste *mlx5dm_ste_alloc_single(struct mlx5dm_ctx *ctx);
void mlx5dm_ste_free_single(struct mlx5dm_ste *ste, struct mlx5dm_defer *d);
struct mlx5dm_ste *mlx5dm_ste_rec_alloc(struct mlx5dm_shard *sh);
struct mlx5dm_ste *mlx5dm_ste_entry_alloc(struct mlx5dm_shard *sh);
void mlx5dm_ste_rec_free(struct mlx5dm_shard *sh, struct mlx5dm_ste *s, struct mlx5dm_defer *d);
void mlx5dm_defer_chunk(struct mlx5dm_defer *d, struct mlx5dm_icm_chunk *chunk);
void mlx5dm_defer_run(struct mlx5dm_defer *d);

/* ---- mlx5dm_steer_rule_act.c ---- */
/*
 * Put a rule's actions into its STE array (arr: the match STEs from the
 * template, room for the extra action STEs behind them), in full.
 */
int mlx5dm_rule_place_actions(struct mlx5dm_matcher *m, size_t nb_actions,
			      struct mlx5dm_action *const actions[], const uint32_t args[],
			      uint8_t *arr, unsigned int *n_extra);
/* The rule's actions stand where template t allows (-EINVAL, logged, if not). */
int mlx5dm_action_tmpl_check(const struct mlx5dm_action_tmpl *t,
			     struct mlx5dm_action *const actions[]);
/* mlx5dm_rule_place_actions() through template t (actions checked against it). */
int mlx5dm_action_tmpl_apply(const struct mlx5dm_action_tmpl *t,
			     struct mlx5dm_action *const actions[], const uint32_t args[],
			     uint8_t *arr, unsigned int *n_extra);
uint32_t mlx5dm_rule_bulk_counter_id(const struct mlx5dm_rule *rule,
				     const struct mlx5dm_action *a);
uint32_t mlx5dm_rule_flow_tag(const struct mlx5dm_rule *rule, const struct mlx5dm_action *a);
/* Whether an action list with these arguments keeps them in its rule (one takes its own). */
bool mlx5dm_rule_args_kept(size_t nb_actions, struct mlx5dm_action *const actions[],
			   const uint32_t args[]);
/* The control part of rule's last match entry of tag, its actions placed again. */
int mlx5dm_rule_last_ctrl(const struct mlx5dm_rule *rule, const uint8_t *tag, uint8_t *ctrl);

/* ---- mlx5dm_steer_htbl.c ---- */
uint64_t mlx5dm_htbl_icm(const struct mlx5dm_htbl *h);
void mlx5dm_htbl_miss_image(const struct mlx5dm_htbl *h, uint8_t *hw);
const uint8_t *mlx5dm_htbl_miss_image_of(struct mlx5dm_shard *sh, const struct mlx5dm_htbl *h);
int mlx5dm_htbl_slot_reserve(struct mlx5dm_htbl *h, uint32_t i);
void mlx5dm_htbl_page_cache_free(struct mlx5dm_shard *sh);
void mlx5dm_htbl_slot_prefetch(const struct mlx5dm_htbl *h, uint32_t i);
uint64_t mlx5dm_htbl_miss_target(const struct mlx5dm_htbl *h);
struct mlx5dm_htbl *mlx5dm_htbl_chain_create(struct mlx5dm_matcher *m, struct mlx5dm_shard *sh,
					    struct mlx5dm_queue *q, uint8_t level,
					    struct mlx5dm_ste *pointing, struct mlx5dm_defer *d);
struct mlx5dm_htbl *mlx5dm_htbl_create(struct mlx5dm_matcher *m, struct mlx5dm_shard *sh,
				       struct mlx5dm_queue *q, uint8_t level, uint8_t log_size,
				       uint16_t byte_mask, struct mlx5dm_ste *pointing,
				       struct mlx5dm_defer *d);
void mlx5dm_htbl_point(struct mlx5dm_ctx *ctx, const struct mlx5dm_htbl *h, uint8_t *shadow);
int mlx5dm_htbl_after_insert(struct mlx5dm_matcher *m, struct mlx5dm_queue *q,
			     struct mlx5dm_htbl *head, struct mlx5dm_defer *d);
int mlx5dm_htbl_drain_step(struct mlx5dm_shard *sh, struct mlx5dm_queue *q, uint16_t qi,
			   bool own, struct mlx5dm_defer *d);
unsigned int mlx5dm_htbl_drain_prefetch(const struct mlx5dm_shard *sh,
					const struct mlx5dm_ste *first[MLX5DM_HTBL_MOVE_ENTRIES]);
void mlx5dm_htbl_drain_prefetch_next(const struct mlx5dm_shard *sh,
				     const struct mlx5dm_ste *const first[], unsigned int n);
int mlx5dm_htbl_after_delete(struct mlx5dm_shard *sh, struct mlx5dm_queue *q, struct mlx5dm_htbl *t,
			     struct mlx5dm_defer *d);
void mlx5dm_htbl_chain_free(struct mlx5dm_matcher *m, struct mlx5dm_htbl *head,
			    struct mlx5dm_defer *d);
bool mlx5dm_htbl_l0_due(struct mlx5dm_shard *sh, bool placed);
int mlx5dm_htbl_l0_grow(struct mlx5dm_matcher *m, uint16_t qi, struct mlx5dm_defer *d);

/* ---- mlx5dm_steer_table.c ---- */
int mlx5dm_anchor_write_miss(struct mlx5dm_domain *dom, struct mlx5dm_queue *q,
			     struct mlx5dm_ste *anchor, uint64_t addr);
int mlx5dm_anchor_write_hit(struct mlx5dm_domain *dom, struct mlx5dm_queue *q,
			    struct mlx5dm_ste *anchor, const struct mlx5dm_htbl *h);

/* ---- mlx5dm_steer_matcher.c ---- */
/* A zeroed matcher of tbl with attr's priority, criteria and mask (errno ENOMEM). */
struct mlx5dm_matcher *mlx5dm_matcher_alloc(struct mlx5dm_table *tbl,
					    const struct mlx5dm_matcher_attr *attr);
uint64_t mlx5dm_matcher_end_icm(const struct mlx5dm_matcher *m);
int mlx5dm_matcher_write_parent(struct mlx5dm_matcher *m, struct mlx5dm_queue *q,
				struct mlx5dm_htbl *h);

/* ---- mlx5dm_steer_action.c ---- */
void mlx5dm_action_ref(struct mlx5dm_action *a, uint32_t n);
void mlx5dm_action_unref(struct mlx5dm_action *a);
int mlx5dm_action_write_icm(struct mlx5dm_ctx *ctx, const struct mlx5dm_icm_chunk *chunk,
			    const void *data, size_t len);

/* ---- mlx5dm_steer_modify.c ---- */
struct mlx5dm_pattern_cache *mlx5dm_pattern_cache_create(struct mlx5dm_ctx *ctx);
void mlx5dm_pattern_cache_destroy(struct mlx5dm_pattern_cache *pc);
/* Distinct patterns in pattern ICM. */
uint32_t mlx5dm_pattern_cache_count(struct mlx5dm_pattern_cache *pc);
/* The shape of its index (tests). */
void mlx5dm_pattern_cache_shape(struct mlx5dm_pattern_cache *pc, struct mlx5dm_index_shape *sh);
/*
 * Put a HW modify list (MODIFY_HDR, or DECAP_L3 with may_inline false) where
 * the device reads it and fill a->ste.modify. On failure the caller frees
 * the action (mlx5dm_modify_release undoes a partial store).
 */
int mlx5dm_modify_store(struct mlx5dm_action *a, const uint8_t *hw, unsigned int n_hw,
			bool may_inline);
void mlx5dm_modify_release(struct mlx5dm_action *a);

/* ---- mlx5dm_steer_stats.c ---- */
/* Table h leaves its matcher / g became the head of a chain (matcher lock held). */
void mlx5dm_htbl_stats_drop(const struct mlx5dm_htbl *h);
void mlx5dm_htbl_stats_grown(const struct mlx5dm_htbl *g);
void mlx5dm_steer_stats_objects(struct mlx5dm_ctx *ctx, struct mlx5dm_ctx_stats *st);

/* ---- mlx5dm_steer_domain.c ---- */
/* Out of the context's list unless it has tables, actions or a root (-EBUSY). */
int mlx5dm_domain_unlist(struct mlx5dm_domain *dom);

/* ---- mlx5dm_steer_table.c ---- */
/* A table of dom (an FDB side) with its start anchor written, no flow table object. */
struct mlx5dm_table *mlx5dm_table_side_new(struct mlx5dm_domain *dom, uint32_t level);
void mlx5dm_table_side_free(struct mlx5dm_table *tbl);

/* ---- mlx5dm_steer_fdb.c ---- */
/* cb (if not NULL) on each vport FDB domain dom knows (manager, looked up, uplink); count. */
unsigned int mlx5dm_fdb_vports_each(struct mlx5dm_domain *dom,
				    void (*cb)(void *arg, const struct mlx5dm_vport_caps *vc),
				    void *arg);
/* Vport num of FDB domain dom (kept once looked up); -EINVAL when the e-switch has none. */
int mlx5dm_fdb_vport_get(struct mlx5dm_domain *dom, uint16_t num, struct mlx5dm_vport_caps *vc);
struct mlx5dm_domain *mlx5dm_fdb_domain_create(struct mlx5dm_ctx *ctx);
int mlx5dm_fdb_domain_destroy(struct mlx5dm_domain *dom);
struct mlx5dm_table *mlx5dm_fdb_table_new(struct mlx5dm_domain *dom, uint32_t level);
void mlx5dm_fdb_table_free(struct mlx5dm_table *tbl);
struct mlx5dm_matcher *mlx5dm_fdb_matcher_create(struct mlx5dm_table *tbl,
						 const struct mlx5dm_matcher_attr *attr,
						 const char **err_field);
int mlx5dm_fdb_matcher_destroy(struct mlx5dm_matcher *m);
/* Its sides' tables and entries, its own rules (an FDB rule counts once). */
int mlx5dm_fdb_matcher_stats(struct mlx5dm_matcher *m, struct mlx5dm_matcher_stats *st);
/* An FDB mask matches source_port whole or not at all: 0 or -EOPNOTSUPP naming it. */
int mlx5dm_fdb_mask_check(const uint8_t *mask, uint8_t criteria, const char **err_field);
int mlx5dm_fdb_rule_prepare(struct mlx5dm_matcher *m, const uint8_t *value,
			    struct mlx5dm_rule_prep *prep);
struct mlx5dm_rule *mlx5dm_fdb_rule_create(struct mlx5dm_matcher *m, uint16_t queue,
					   const uint8_t *value, size_t nb_actions,
					   struct mlx5dm_action *const actions[],
					   const uint32_t args[]);
int mlx5dm_fdb_rule_destroy(struct mlx5dm_rule *rule, uint16_t queue);
/*
 * An FDB rule's side rule of direction dir, NULL if the rule skipped that
 * side; refs[2] and refs[3] link it into its matcher's fdb_rules.
 */
static inline struct mlx5dm_rule *
mlx5dm_fdb_rule_side(const struct mlx5dm_rule *rule, unsigned int dir)
{
	return (struct mlx5dm_rule *)rule->refs[dir];
}

/* The next FDB rule of its matcher's fdb_rules (its lock held). */
static inline struct mlx5dm_rule *
mlx5dm_fdb_rule_next(const struct mlx5dm_rule *rule)
{
	return (struct mlx5dm_rule *)rule->refs[3];
}
/* An action of an FDB domain (created, its RX side's bytes set): its TX side's address. */
void mlx5dm_fdb_action_init(struct mlx5dm_action *a);
/* The bytes of action a on side dir of an FDB domain (out: a->ste, copied). */
void mlx5dm_fdb_action_side(const struct mlx5dm_action *a, enum mlx5dm_ste_dir dir,
			    struct mlx5dm_ste_action *out);

/* ---- mlx5dm_steer_encap.c ---- */
/* Place encap data (ENCAP ICM or a firmware reformat context); fills a->ste.encap. */
int mlx5dm_encap_store(struct mlx5dm_action *a, size_t len, const void *data);
int mlx5dm_encap_release(struct mlx5dm_action *a);

#endif /* _MLX5DM_STEER_PRIV_H_ */
