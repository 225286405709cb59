/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Shared helpers of the rte_flow translation tests (no EAL, no device).
 * Match positions are the literal fte_match_param offsets of
 * test_ste_common.h (plus a few more below, same source), never the PMD's
 * or the library's field tables.
 */

#ifndef _TEST_FLOW_COMMON_H_
#define _TEST_FLOW_COMMON_H_

#include <rte_flow.h>

#include "test_ste_common.h"
#include "mlx5dm_flow.h"

/* More literal positions (mlx5_ifc.h fte_match_param). */
#define S_SVLAN S_SVLAN_TAG
#define M_OUTER_SECOND_CFI 0x043, 1
#define M_OUTER_SECOND_SVLAN 0x062, 1
#define M2_OUTER_MPLS_GRE_LABEL 0x040, 20
#define M3_ICMP_TYPE 0x100, 8
#define M3_ICMP_CODE 0x108, 8
#define M3_ICMPV6_TYPE 0x110, 8
#define C_ALL_SECTIONS 0x7f

/* Outer header field f ("bit, width" macro): bit and width for mlx5dm_prm_get(). */
#define T_AT_(b, w) T_OUTER(b), (w)
#define T_AT(f) T_AT_(f)

struct t_match {
	uint8_t mask[MLX5DM_MATCH_PARAM_SIZE];
	uint8_t value[MLX5DM_MATCH_PARAM_SIZE];
	uint8_t criteria;
};

/* Expect field f of section sec to be matched with mask m and value v. */
#define T_FIELD_(t, sec, b, w, m, v) do { \
		mlx5dm_prm_set64((t)->mask, sec(b), (w), (m)); \
		mlx5dm_prm_set64((t)->value, sec(b), (w), (v)); \
	} while (0)
/* f is a "bit, width" pair macro: expanded by this extra level. */
#define T_FIELD(t, sec, f, m, v) T_FIELD_(t, sec, f, m, v)

static const struct rte_flow_attr t_attr_in = { .ingress = 1 };
static const struct rte_flow_attr t_attr_out = { .egress = 1 };
static const struct rte_flow_attr t_attr_in_g1 = { .group = 1, .ingress = 1 };

static const struct rte_flow_action t_act_drop[] = {
	{ .type = RTE_FLOW_ACTION_TYPE_DROP },
	{ .type = RTE_FLOW_ACTION_TYPE_END },
};

static const struct rte_flow_action t_act_end[] = {
	{ .type = RTE_FLOW_ACTION_TYPE_END },
};

static const struct mlx5dm_flow_context t_context = { .nb_rx_queues = 8 };

static inline void
t_translate_ok(const struct rte_flow_attr *attr, const struct rte_flow_item *items,
	   const struct rte_flow_action *actions, struct mlx5dm_flow_spec *spec)
{
	struct rte_flow_error err = { .message = NULL };
	int ret = mlx5dm_flow_translate(&t_context, attr, items, actions, spec, &err);

	if (ret != 0)
		fprintf(stderr, "translation failed: %d type %d: %s\n", ret, err.type,
			err.message != NULL ? err.message : "(null)");
	assert_int_equal(ret, 0);
}

/* Criteria from the expected mask, written out section by section. */
static inline uint8_t
t_criteria(const uint8_t *mask)
{
	uint8_t c = 0;
	unsigned int s, i;

	for (s = 0; s < 7; s++)
		for (i = 0; i < 64; i++)
			if (mask[s * 64 + i] != 0)
				c |= (uint8_t)(1u << s);
	return c;
}

static inline void
t_assert_match(const struct mlx5dm_flow_spec *spec, const struct t_match *exp)
{
	t_assert_bytes(spec->mask, exp->mask, MLX5DM_MATCH_PARAM_SIZE, "mask");
	t_assert_bytes(spec->value, exp->value, MLX5DM_MATCH_PARAM_SIZE, "value");
	assert_int_equal(spec->criteria, t_criteria(exp->mask));
}

#endif /* _TEST_FLOW_COMMON_H_ */
