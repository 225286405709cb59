/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The template and asynchronous rte_flow API (DPDK 22.11). A table
 * compiles each pair of its templates from an example rule and, while the
 * port is started, holds their matchers sized for nb_flows. A rule of a
 * table takes the synchronous path through its pair's template; its result
 * waits in its flow queue's ring (one lcore's: no lock) until pulled.
 * Transfer tables' rules are translated by mlx5dm_esw.c.
 */

#ifndef _MLX5DM_FLOW_TEMPLATE_H_
#define _MLX5DM_FLOW_TEMPLATE_H_

#include <stdbool.h>
#include <stdint.h>
#include <sys/queue.h>

#include <rte_flow.h>
#include <rte_flow_driver.h>
#include <ethdev_driver.h>

#include "mlx5dm.h"
#include "mlx5dm_flow.h"

#define MLX5DM_FLOW_TMPL_MAX_ITEMS 32u      /* items of a pattern template, END excluded */
#define MLX5DM_FLOW_TMPL_MAX_ACTIONS 32u    /* actions of an actions template, END excluded */
#define MLX5DM_FLOW_TMPL_MAX_PER_TABLE 8u   /* pattern (actions) templates of a table */

/* What pattern and actions templates share: the port's list of them, their tables. */
struct mlx5dm_flow_tmpl_head {
	LIST_ENTRY(mlx5dm_flow_tmpl_head) next;
	uint32_t users;                 /* tables built on it */
	bool ingress;
	bool egress;
	bool transfer;                  /* of transfer tables only (and they take no other) */
};
LIST_HEAD(mlx5dm_flow_tmpl_list, mlx5dm_flow_tmpl_head);

struct rte_flow_pattern_template {
	struct mlx5dm_flow_tmpl_head h;
	bool relaxed;
	uint16_t nb;                    /* items, END excluded */
	struct rte_flow_item *items;    /* a copy: types and masks (NULL: none, or all zero) */
};

struct rte_flow_actions_template {
	struct mlx5dm_flow_tmpl_head h;
	uint16_t nb;                    /* actions, END excluded */
	struct rte_flow_action *actions; /* copies */
	uint32_t fixed;                 /* bit i: action i is masked (its configuration fixed) */
	int8_t jump;                    /* transfer: the JUMP left to the rule (-1: none) */
};

/* The rules of a transfer table to group hold anchor ct (a compiled template never compiled). */
struct mlx5dm_flow_tmpl_jump {
	uint32_t group;
	struct mlx5dm_flow_compiled *ct;
};

struct rte_flow_template_table {
	LIST_ENTRY(rte_flow_template_table) next;
	struct rte_flow_attr attr;
	uint32_t nb_flows;              /* rules the table is sized for */
	uint8_t nb_pt;
	uint8_t nb_at;
	struct rte_flow_pattern_template *pt[MLX5DM_FLOW_TMPL_MAX_PER_TABLE];
	struct rte_flow_actions_template *at[MLX5DM_FLOW_TMPL_MAX_PER_TABLE];
	/* Each pair's compiled template (pattern template i, actions template j: i * nb_at + j). */
	uint16_t nb_ct;
	struct mlx5dm_flow_compiled **ct;
	/*
	 * A transfer table (no compiled template): spec, its rules' translation
	 * (under fp->lock). They hold ct[0] (the table knows it has rules), or,
	 * when their actions template leaves the JUMP to them (at->jump), the
	 * anchor of their group, which holds the group's tail.
	 */
	struct mlx5dm_flow_spec *spec;
	uint32_t nb_jumps;
	uint32_t max_jumps;
	struct mlx5dm_flow_tmpl_jump *jumps;
	/*
	 * While the port is started: the matchers of the rules of every
	 * template pair, and nb_flows handles reserved in the port's pool for
	 * each handle class (bit: rules per flow) the pairs' rules take.
	 */
	bool bound;
	uint32_t handle_classes;
	uint32_t nb_m;
	struct mlx5dm_flow_matcher **m;
};

/* A waiting result, when it may be pulled, and what it needs should its rule queue fail. */
struct mlx5dm_flow_async_op {
	struct rte_flow_op_result res;
	struct rte_flow *flow;          /* a creation's flow, undone if its writes were lost */
	uint32_t pos;                   /* the rule queue's position after the operation */
	bool writes;                    /* the operation wrote through the rule queue */
};

/* One flow queue: results of finished operations, a ring of size entries (one lcore). */
struct mlx5dm_flow_async_queue {
	uint32_t size;
	uint32_t head;                  /* place of the next result to pull */
	uint32_t count;                 /* results waiting */
	uint32_t pushed;                /* of them, the first that may be pulled */
	uint64_t recoveries;            /* of its rule queue, when its results were last checked */
	struct mlx5dm_flow_async_op *op;
} __rte_cache_aligned;

/* The template state of a port (fp->tmpl), made by rte_flow_configure(). */
struct mlx5dm_flow_tmpl {
	uint16_t nb_queues;
	struct mlx5dm_flow_async_queue *aq;
	/* Library rule queues flow queues share (mlx5dm_flow_queue.c). */
	rte_spinlock_t qlock[MLX5DM_FLOW_MAX_QUEUES];
	struct mlx5dm_flow_tmpl_list pts;
	struct mlx5dm_flow_tmpl_list ats;
	LIST_HEAD(, rte_flow_template_table) tables;
	uint32_t nb_jumps;              /* jump anchors of the tables (mlx5dm_flow_tmpl_jump) */
};

/* mlx5dm_flow_port.c: the port's flow state, made on first use (NULL: no memory). */
struct mlx5dm_flow_priv *mlx5dm_flow_port_fp_new(struct mlx5dm_priv *priv);
static inline struct mlx5dm_flow_priv *
mlx5dm_flow_port_fp(struct rte_eth_dev *dev)
{
	struct mlx5dm_priv *priv = dev->data->dev_private;
	struct mlx5dm_flow_priv *fp = __atomic_load_n(&priv->flow, __ATOMIC_ACQUIRE);

	return MLX5DM_LIKELY(fp != NULL) ? fp : mlx5dm_flow_port_fp_new(priv);
}
int mlx5dm_flow_nomem(struct rte_flow_error *error);
static inline int
mlx5dm_flow_tmpl_err(struct rte_flow_error *error, int err, const char *msg)
{
	return rte_flow_error_set(error, err, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL, msg);
}

/* mlx5dm_flow_ops.c: destroy a handle on queue (under qlock unless NULL), either API. */
int mlx5dm_flow_destroy_one(struct rte_eth_dev *dev, struct mlx5dm_flow_priv *fp,
			    struct rte_flow *flow, uint16_t queue, rte_spinlock_t *qlock,
			    struct rte_flow_error *error);
/*
 * rte_flow_create() in two halves: begin with fp->lock held (translated
 * through ct, NULL: the implicit template; objects into b), end without
 * (inserted on queue, under qlock unless NULL; listed). Nothing is left
 * after a failure.
 */
int mlx5dm_flow_create_begin(struct rte_eth_dev *dev, struct mlx5dm_flow_priv *fp,
			     struct mlx5dm_flow_compiled *ct, bool relaxed,
			     const struct rte_flow_attr *attr, const struct rte_flow_item items[],
			     const struct rte_flow_action actions[], struct mlx5dm_flow_build *b,
			     struct rte_flow_error *error);
struct rte_flow *mlx5dm_flow_create_end(struct rte_eth_dev *dev, struct mlx5dm_flow_priv *fp,
					struct mlx5dm_flow_build *b, uint16_t queue,
					rte_spinlock_t *qlock, struct rte_flow_error *error);

/*
 * mlx5dm_esw.c's translation of transfer rules for template tables
 * (sh->esw_translator): the actions they may have, and a rule into a spec.
 */
struct mlx5dm_esw_translator {
	bool (*action_ok)(enum rte_flow_action_type type);
	int (*spec)(struct rte_eth_dev *dev, const struct rte_flow_attr *attr,
		    const struct rte_flow_item pattern[], const struct rte_flow_action actions[],
		    struct mlx5dm_flow_spec *spec, struct rte_flow_error *error);
	/*
	 * Take (or give back) a reference of the tail of FDB group (its last
	 * rule, to the switch's catch group), no flow lock held; take: 0, or
	 * a negative errno (-ENODEV: the switch is stopped).
	 */
	int (*tail)(struct rte_eth_dev *dev, uint32_t group, bool take);
	/* The RQ number of a representor's queue of the manager dev (MLX5DM_ESW_REP_QUEUE()). */
	int (*rqn)(struct rte_eth_dev *dev, uint16_t queue, uint32_t *rqn);
};
/* The port's transfer translation (NULL: no E-Switch). */
static inline const struct mlx5dm_esw_translator *
mlx5dm_flow_tmpl_translator(struct rte_eth_dev *dev)
{
	return ((struct mlx5dm_priv *)dev->data->dev_private)->sh->esw_translator;
}
/*
 * mlx5dm_flow_template.c: the jump anchor of tbl's rules to group
 * (fp->lock held), made with the group's tail if there is none: fp->lock
 * is let go while the tail is taken. *spare: a tail was taken that the
 * anchor does not hold (give it back without fp->lock). NULL with error.
 */
struct mlx5dm_flow_compiled *mlx5dm_flow_tmpl_jump_get(struct rte_eth_dev *dev,
						       struct mlx5dm_flow_priv *fp,
						       struct rte_flow_template_table *tbl,
						       uint32_t group, bool *spare,
						       struct rte_flow_error *error);
/*
 * idle: the anchor of id ct_id (a flow's ct, 0: none), if it is one and no
 * rule holds it any more; pop: any such anchor (all of them once the rules
 * are flushed). It is removed and the group whose tail it held is in
 * *group (to give back without fp->lock: mlx5dm_flow_tmpl_jump_tail());
 * false if there is none. fp->lock held.
 */
bool mlx5dm_flow_tmpl_jump_idle(struct mlx5dm_flow_priv *fp, uint16_t ct_id, uint32_t *group);
bool mlx5dm_flow_tmpl_jump_pop(struct mlx5dm_flow_priv *fp, uint32_t *group);
/* Give back a tail an anchor held (mlx5dm_flow_tmpl_jump_idle()); no flow lock held. */
void mlx5dm_flow_tmpl_jump_tail(struct rte_eth_dev *dev, uint32_t group);

/* mlx5dm_flow_template.c: the rte_flow_ops entries. */
int mlx5dm_flow_info_get(struct rte_eth_dev *dev, struct rte_flow_port_info *port_info,
			 struct rte_flow_queue_info *queue_info, struct rte_flow_error *error);
int mlx5dm_flow_configure(struct rte_eth_dev *dev, const struct rte_flow_port_attr *port_attr,
			  uint16_t nb_queue, const struct rte_flow_queue_attr *queue_attr[],
			  struct rte_flow_error *error);
struct rte_flow_pattern_template *
mlx5dm_flow_pattern_template_create(struct rte_eth_dev *dev,
				    const struct rte_flow_pattern_template_attr *attr,
				    const struct rte_flow_item pattern[],
				    struct rte_flow_error *error);
int mlx5dm_flow_pattern_template_destroy(struct rte_eth_dev *dev,
					 struct rte_flow_pattern_template *pt,
					 struct rte_flow_error *error);
struct rte_flow_actions_template *
mlx5dm_flow_actions_template_create(struct rte_eth_dev *dev,
				    const struct rte_flow_actions_template_attr *attr,
				    const struct rte_flow_action actions[],
				    const struct rte_flow_action masks[],
				    struct rte_flow_error *error);
int mlx5dm_flow_actions_template_destroy(struct rte_eth_dev *dev,
					 struct rte_flow_actions_template *at,
					 struct rte_flow_error *error);
struct rte_flow_template_table *
mlx5dm_flow_template_table_create(struct rte_eth_dev *dev,
				  const struct rte_flow_template_table_attr *attr,
				  struct rte_flow_pattern_template *pts[], uint8_t nb_pt,
				  struct rte_flow_actions_template *ats[], uint8_t nb_at,
				  struct rte_flow_error *error);
int mlx5dm_flow_template_table_destroy(struct rte_eth_dev *dev,
				       struct rte_flow_template_table *tbl,
				       struct rte_flow_error *error);

/*
 * The compiled template of a rule of tbl's templates pt_idx, at_idx whose
 * setters take the rule as it is (the template's item and action types,
 * a spec where the template masks, at most one indirect action: its handle
 * in *shared); NULL: the rule is built by mlx5dm_flow_tmpl_rule() (which
 * refuses what is wrong).
 */
struct mlx5dm_flow_compiled *mlx5dm_flow_tmpl_fast(const struct rte_flow_template_table *tbl,
						   uint8_t pt_idx, uint8_t at_idx,
						   const struct rte_flow_item pattern[],
						   const struct rte_flow_action actions[],
						   const struct rte_flow_action_handle **shared);
/*
 * A rule of tbl's templates pt_idx, at_idx with the values vals, avals
 * (NULL: the example, zero values) into items and actions (room for the
 * template maxima + 1). An INDIRECT action becomes COUNT, its handle
 * *shared. 0 or -errno with error.
 */
int mlx5dm_flow_tmpl_rule(const struct rte_flow_template_table *tbl, uint8_t pt_idx,
			  uint8_t at_idx, const struct rte_flow_item vals[],
			  const struct rte_flow_action avals[], struct rte_flow_item *items,
			  struct rte_flow_action *actions, struct rte_flow_action_handle **shared,
			  struct rte_flow_error *error);
/* The table's matchers (fp->lock held, port started); 0 or a negative errno with error. */
int mlx5dm_flow_tmpl_bind(struct rte_eth_dev *dev, struct mlx5dm_flow_priv *fp,
			  struct rte_flow_template_table *tbl, struct rte_flow_error *error);
/* Before the flow objects stop (fp->lock held, user flows flushed): tables let matchers go. */
void mlx5dm_flow_tmpl_stop(struct mlx5dm_flow_priv *fp);
/* Free the template state (port close). */
void mlx5dm_flow_tmpl_free(struct mlx5dm_flow_priv *fp);

/* The compiled template of pattern template pi and actions template ai of tbl. */
static inline struct mlx5dm_flow_compiled *
mlx5dm_flow_tmpl_compiled(const struct rte_flow_template_table *tbl, uint8_t pi, uint8_t ai)
{
	return tbl->ct[pi * tbl->nb_at + ai];
}

/* mlx5dm_flow_queue.c: the rte_flow_ops entries. */
struct rte_flow *mlx5dm_flow_async_create(struct rte_eth_dev *dev, uint32_t queue,
					  const struct rte_flow_op_attr *op_attr,
					  struct rte_flow_template_table *tbl,
					  const struct rte_flow_item pattern[], uint8_t pt_idx,
					  const struct rte_flow_action actions[], uint8_t at_idx,
					  void *user_data, struct rte_flow_error *error);
int mlx5dm_flow_async_destroy(struct rte_eth_dev *dev, uint32_t queue,
			      const struct rte_flow_op_attr *op_attr, struct rte_flow *flow,
			      void *user_data, struct rte_flow_error *error);
int mlx5dm_flow_push(struct rte_eth_dev *dev, uint32_t queue, struct rte_flow_error *error);
int mlx5dm_flow_pull(struct rte_eth_dev *dev, uint32_t queue, struct rte_flow_op_result res[],
		     uint16_t n_res, struct rte_flow_error *error);
struct rte_flow_action_handle *
mlx5dm_flow_async_handle_create(struct rte_eth_dev *dev, uint32_t queue,
				const struct rte_flow_op_attr *op_attr,
				const struct rte_flow_indir_action_conf *conf,
				const struct rte_flow_action *action, void *user_data,
				struct rte_flow_error *error);
int mlx5dm_flow_async_handle_destroy(struct rte_eth_dev *dev, uint32_t queue,
				     const struct rte_flow_op_attr *op_attr,
				     struct rte_flow_action_handle *h, void *user_data,
				     struct rte_flow_error *error);
int mlx5dm_flow_async_handle_query(struct rte_eth_dev *dev, uint32_t queue,
				   const struct rte_flow_op_attr *op_attr,
				   const struct rte_flow_action_handle *h, void *data,
				   void *user_data, struct rte_flow_error *error);

/* mlx5dm_flow_indirect.c: indirect COUNTs (rte_flow_action_handle_*()), INDIRECT actions. */
struct rte_flow_action_handle *
mlx5dm_flow_handle_create(struct rte_eth_dev *dev, const struct rte_flow_indir_action_conf *conf,
			  const struct rte_flow_action *action, struct rte_flow_error *error);
int mlx5dm_flow_handle_destroy(struct rte_eth_dev *dev, struct rte_flow_action_handle *h,
			       struct rte_flow_error *error);
int mlx5dm_flow_handle_query(struct rte_eth_dev *dev, const struct rte_flow_action_handle *h,
			     void *data, struct rte_flow_error *error);
/*
 * A rule's indirect COUNT h may count its rules of domain dom (fp->lock
 * held): 0, or -errno with error (unknown, gone with a stop, another domain).
 */
int mlx5dm_flow_handle_check(struct mlx5dm_flow_priv *fp, const struct rte_flow_action_handle *h,
			     unsigned int dom, struct rte_flow_error *error);
/*
 * An error whose cause is in the PMD's copy (bytes long) of the
 * application's list orig (items or actions, entry for entry) names the
 * application's entry instead: the copy is gone once the call returns.
 */
static inline void
mlx5dm_flow_cause_mapped(struct rte_flow_error *error, const void *copy, const void *orig,
			 size_t bytes)
{
	uintptr_t c, b = (uintptr_t)copy;

	if (error == NULL || orig == NULL)
		return;
	c = (uintptr_t)error->cause;
	if (c >= b && c < b + bytes)
		error->cause = (const uint8_t *)orig + (c - b);
}
/*
 * A synchronous rule's INDIRECT action (one, a COUNT handle): *actions
 * becomes acts (room for MLX5DM_FLOW_TMPL_MAX_ACTIONS + 1), the same with
 * COUNT there, and *shared the handle. 0 (nothing done without one) or
 * -errno with error.
 */
int mlx5dm_flow_indirect_count(const struct rte_flow_action **actions,
			       struct rte_flow_action *acts,
			       const struct rte_flow_action_handle **shared,
			       struct rte_flow_error *error);

#endif /* _MLX5DM_FLOW_TEMPLATE_H_ */
