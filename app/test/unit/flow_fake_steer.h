/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * A fake of the steering library API (mlx5dm_steer.h) for the rte_flow
 * object-layer tests: it keeps the objects the PMD creates, enforces the
 * library's rules on them (busy objects cannot be destroyed, a rule's
 * actions belong to its matcher's domain, values stay inside the mask, no
 * duplicate rules) and can fail its n-th call. Linking it instead of
 * lib/steer lets the tests count every object a flow creates and check
 * that a failed flow leaves none behind.
 */

#ifndef _FLOW_FAKE_STEER_H_
#define _FLOW_FAKE_STEER_H_

#include <stdbool.h>
#include <stdint.h>

#include "mlx5dm_steer.h"

enum fake_act_kind {
	FAKE_DROP = 1, FAKE_DEST_TABLE, FAKE_DEST_TIR, FAKE_COUNTER, FAKE_TAG, FAKE_MODIFY,
	FAKE_REFORMAT, FAKE_PUSH, FAKE_POP, FAKE_DEFAULT_MISS,
	FAKE_COUNTERS,          /* a bulk's: the rule's argument is the counter index */
	FAKE_TAGS,              /* the domain's flow tags: the rule's argument is the tag */
	FAKE_MODIFY_SET,        /* one set entry (data zeroed): the rule's argument is the data */
	FAKE_VPORT,
};

struct mlx5dm_domain {
	int id;
	struct mlx5dm_table *root;
};

struct mlx5dm_table {
	struct mlx5dm_domain *dom;
	uint32_t level;
	int matchers;
	int refs;               /* root, dest_table actions */
};

struct mlx5dm_matcher {
	struct mlx5dm_table *tbl;
	struct mlx5dm_matcher_attr attr;
	uint8_t mask[MLX5DM_MATCH_PARAM_SIZE];
	int rules;
};

struct mlx5dm_tir {
	uint32_t nb;
	uint32_t rqns[64];
	bool hash;
	struct mlx5dm_rss_attr rss;
	int refs;
};

struct mlx5dm_counters {
	uint32_t n;
	uint64_t packets[1024];
	uint64_t bytes[1024];
	int refs;
};

struct mlx5dm_action {
	struct mlx5dm_domain *dom;
	enum fake_act_kind kind;
	int refs;               /* rules */
	struct mlx5dm_table *tbl;
	struct mlx5dm_tir *tir;
	struct mlx5dm_counters *cnt;
	uint32_t u32;           /* tag, push header, reformat type, counter index */
	size_t len;
	uint8_t data[512];
};

struct mlx5dm_rule {
	struct mlx5dm_matcher *m;
	uint8_t value[MLX5DM_MATCH_PARAM_SIZE];
	size_t n;
	struct mlx5dm_action *acts[MLX5DM_RULE_MAX_ACTIONS];
	uint32_t args[MLX5DM_RULE_MAX_ACTIONS];   /* 0 where none was given */
};

struct fake_live {
	int tables, matchers, rules, actions, tirs, counters, tags;
};

void fake_reset(void);
void fake_live_get(struct fake_live *l);
/* The n-th (1-based) creating call from now fails with ENOMEM; 0 disarms. */
void fake_fail_at(unsigned int n);
bool fake_failed(void);
void fake_allow_duplicates(bool allow);
struct mlx5dm_domain *fake_domain(int id);
/* The last rule created (NULL if none). */
const struct mlx5dm_rule *fake_last_rule(void);

#endif /* _FLOW_FAKE_STEER_H_ */
