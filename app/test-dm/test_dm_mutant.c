/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "test_dm_mutant.h"

enum test_dm_mutation {
	TEST_DM_MUTANT_PRIORITY,
	TEST_DM_MUTANT_MARK,
	TEST_DM_MUTANT_LOSE,
};

struct test_dm_mutant {
	const struct test_dm_runner_ops *ops;
	void *ctx;
	enum test_dm_mutation kind;
	uint64_t seen;			/**< Packets passed through. */
};

/* Highest priority value net_mlx5dm accepts: p becomes this minus p. */
#define TEST_DM_MUTANT_PRIO_MAX 16382u
#define TEST_DM_MUTANT_LOSE_EVERY 97

static int
test_dm_mutant_begin(void *ctx, const struct test_dm_case *c, char *msg, size_t size)
{
	struct test_dm_mutant *m = ctx;

	return m->ops->case_begin(m->ctx, c, msg, size);
}

static void
test_dm_mutant_end(void *ctx)
{
	struct test_dm_mutant *m = ctx;

	m->ops->case_end(m->ctx);
}

static int
test_dm_mutant_create(void *ctx, const struct test_dm_flow_cmd *cmd, void **handle,
		      struct rte_flow_error *error)
{
	struct test_dm_mutant *m = ctx;
	struct test_dm_flow_cmd turned;

	if (m->kind != TEST_DM_MUTANT_PRIORITY || cmd->attr.priority > TEST_DM_MUTANT_PRIO_MAX)
		return m->ops->flow_create(m->ctx, cmd, handle, error);
	/* Same pattern and actions (not copied: they outlive the rule), turned priority. */
	turned = *cmd;
	turned.attr.priority = TEST_DM_MUTANT_PRIO_MAX - cmd->attr.priority;
	return m->ops->flow_create(m->ctx, &turned, handle, error);
}

static int
test_dm_mutant_validate(void *ctx, const struct test_dm_flow_cmd *cmd, struct rte_flow_error *error)
{
	struct test_dm_mutant *m = ctx;

	return m->ops->flow_validate(m->ctx, cmd, error);
}

static int
test_dm_mutant_destroy(void *ctx, uint16_t port, void *handle, struct rte_flow_error *error)
{
	struct test_dm_mutant *m = ctx;

	return m->ops->flow_destroy(m->ctx, port, handle, error);
}

static int
test_dm_mutant_flush(void *ctx, uint16_t port, struct rte_flow_error *error)
{
	struct test_dm_mutant *m = ctx;

	return m->ops->flow_flush(m->ctx, port, error);
}

static int
test_dm_mutant_query(void *ctx, uint16_t port, void *handle, struct rte_flow_query_count *q,
		     struct rte_flow_error *error)
{
	struct test_dm_mutant *m = ctx;

	return m->ops->flow_query_count(m->ctx, port, handle, q, error);
}

static void
test_dm_mutant_apply(struct test_dm_mutant *m, unsigned int n, struct test_dm_rx *rx)
{
	unsigned int k;

	for (k = 0; k < n; k++, m->seen++) {
		if (!rx[k].received)
			continue;
		if (m->kind == TEST_DM_MUTANT_MARK && rx[k].fdir_id)
			rx[k].mark++;
		if (m->kind == TEST_DM_MUTANT_LOSE && m->seen % TEST_DM_MUTANT_LOSE_EVERY ==
		    TEST_DM_MUTANT_LOSE_EVERY - 1) {
			free(rx[k].data);
			memset(&rx[k], 0, sizeof(rx[k]));
		}
	}
}

static int
test_dm_mutant_send(void *ctx, uint16_t port, const struct test_dm_pktlist *pkts,
		    struct test_dm_rx *rx)
{
	struct test_dm_mutant *m = ctx;
	int ret = m->ops->send(m->ctx, port, pkts, rx);

	if (ret == 0)
		test_dm_mutant_apply(m, pkts->n, rx);
	return ret;
}

static int
test_dm_mutant_send_tagged(void *ctx, uint16_t port, const struct test_dm_pktlist *pkts,
			   struct test_dm_rx *rx)
{
	struct test_dm_mutant *m = ctx;
	int ret = m->ops->send_tagged != NULL ? m->ops->send_tagged(m->ctx, port, pkts, rx) :
		  m->ops->send(m->ctx, port, pkts, rx);

	if (ret == 0)
		test_dm_mutant_apply(m, pkts->n, rx);
	return ret;
}

static uint16_t
test_dm_mutant_peer(void *ctx, uint16_t port)
{
	struct test_dm_mutant *m = ctx;

	return m->ops->peer(m->ctx, port);
}

static int
test_dm_mutant_dump(void *ctx, uint16_t port, FILE *f, char *why, size_t size)
{
	struct test_dm_mutant *m = ctx;

	if (m->ops->dump == NULL) {
		snprintf(why, size, "%s has no dump", m->ops->name);
		return -ENOTSUP;
	}
	return m->ops->dump(m->ctx, port, f, why, size);
}

const struct test_dm_runner_ops test_dm_mutant_ops = {
	.name = "mutant",
	.case_begin = test_dm_mutant_begin,
	.case_end = test_dm_mutant_end,
	.flow_create = test_dm_mutant_create,
	.flow_validate = test_dm_mutant_validate,
	.flow_destroy = test_dm_mutant_destroy,
	.flow_flush = test_dm_mutant_flush,
	.flow_query_count = test_dm_mutant_query,
	.send = test_dm_mutant_send,
	.peer = test_dm_mutant_peer,
	.send_tagged = test_dm_mutant_send_tagged,
	.dump = test_dm_mutant_dump,
};

static const char *const test_dm_mutant_names[] = {
	[TEST_DM_MUTANT_PRIORITY] = "priority",
	[TEST_DM_MUTANT_MARK] = "mark",
	[TEST_DM_MUTANT_LOSE] = "lose",
};

struct test_dm_mutant *
test_dm_mutant_new(const struct test_dm_runner_ops *ops, void *ctx, const char *kind)
{
	struct test_dm_mutant *m;
	unsigned int i;

	for (i = 0; i < RTE_DIM(test_dm_mutant_names); i++)
		if (strcmp(kind, test_dm_mutant_names[i]) == 0)
			break;
	if (i == RTE_DIM(test_dm_mutant_names)) {
		errno = EINVAL;
		return NULL;
	}
	m = calloc(1, sizeof(*m));
	if (m == NULL)
		return NULL;
	m->ops = ops;
	m->ctx = ctx;
	m->kind = (enum test_dm_mutation)i;
	return m;
}

void
test_dm_mutant_free(struct test_dm_mutant *m)
{
	free(m);
}
