/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The reference classifier's "steering dump": its rules as the walk sees
 * them (direction, group, priority, item and action names, counters), in
 * the order a lookup tries them. Written next to a failing case, like the
 * device's dump on the ports.
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "test_dm_flow.h"
#include "test_dm_ref_priv.h"

static void
test_dm_ref_dump_rule(const struct test_dm_ref_rule *rule, FILE *f)
{
	const struct rte_flow_item *it;
	const struct rte_flow_action *a;
	const char *name;

	fprintf(f, "rule %" PRIu64 ": %s group %u priority %u pattern", rule->seq,
		rule->attr.ingress ? "ingress" : "egress", rule->attr.group,
		rule->attr.priority);
	for (it = rule->pattern; it->type != RTE_FLOW_ITEM_TYPE_END; it++) {
		name = test_dm_flow_item_name(it->type);
		fprintf(f, " %s%s /", name != NULL ? name : "?", it->spec != NULL ? "(spec)" : "");
	}
	fprintf(f, " end actions");
	for (a = rule->actions; a->type != RTE_FLOW_ACTION_TYPE_END; a++) {
		name = test_dm_flow_action_name(a->type);
		fprintf(f, " %s /", name != NULL ? name : "?");
	}
	fprintf(f, " end");
	if (rule->counted)
		fprintf(f, " hits %" PRIu64 " bytes %" PRIu64, rule->hits, rule->bytes);
	fprintf(f, "\n");
}

static int
test_dm_ref_dump_cmp(const void *a, const void *b)
{
	const struct test_dm_ref_rule *x = *(const struct test_dm_ref_rule *const *)a;
	const struct test_dm_ref_rule *y = *(const struct test_dm_ref_rule *const *)b;

	if (x->attr.ingress != y->attr.ingress)
		return x->attr.ingress ? 1 : -1;
	if (x->attr.group != y->attr.group)
		return x->attr.group < y->attr.group ? -1 : 1;
	if (x->attr.priority != y->attr.priority)
		return x->attr.priority < y->attr.priority ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void
test_dm_ref_dump(const struct test_dm_ref *r, uint16_t port, FILE *f)
{
	const struct test_dm_ref_rule **v;
	unsigned int i, n = 0;

	v = calloc(r->n + 1, sizeof(*v));
	if (v == NULL) {
		fprintf(f, "(out of memory)\n");
		return;
	}
	for (i = 0; i < r->n; i++)
		if (r->rules[i]->port == port)
			v[n++] = r->rules[i];
	qsort(v, n, sizeof(*v), test_dm_ref_dump_cmp);
	fprintf(f, "%u rule(s), egress then ingress, in lookup order\n", n);
	for (i = 0; i < n; i++)
		test_dm_ref_dump_rule(v[i], f);
	free(v);
}
