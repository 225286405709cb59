/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/* Names of rte_flow error types, for "expect reject ... error <TYPE>". */

#include <stddef.h>
#include <string.h>

#include <rte_common.h>
#include <rte_flow.h>

#include "test_dm_flow.h"

#define TEST_DM_ET(n) [RTE_FLOW_ERROR_TYPE_##n] = "RTE_FLOW_ERROR_TYPE_" #n

static const char *const test_dm_error_types[] = {
	TEST_DM_ET(NONE),
	TEST_DM_ET(UNSPECIFIED),
	TEST_DM_ET(HANDLE),
	TEST_DM_ET(ATTR_GROUP),
	TEST_DM_ET(ATTR_PRIORITY),
	TEST_DM_ET(ATTR_INGRESS),
	TEST_DM_ET(ATTR_EGRESS),
	TEST_DM_ET(ATTR_TRANSFER),
	TEST_DM_ET(ATTR),
	TEST_DM_ET(ITEM_NUM),
	TEST_DM_ET(ITEM_SPEC),
	TEST_DM_ET(ITEM_LAST),
	TEST_DM_ET(ITEM_MASK),
	TEST_DM_ET(ITEM),
	TEST_DM_ET(ACTION_NUM),
	TEST_DM_ET(ACTION_CONF),
	TEST_DM_ET(ACTION),
	TEST_DM_ET(STATE),
};

int
test_dm_flow_error_type_parse(const char *s, size_t len)
{
	static const char prefix[] = "RTE_FLOW_ERROR_TYPE_";
	const size_t plen = sizeof(prefix) - 1;
	unsigned int i;

	for (i = 0; i < RTE_DIM(test_dm_error_types); i++) {
		const char *name = test_dm_error_types[i];

		if (name == NULL)
			continue;
		if (strlen(name) == len && memcmp(name, s, len) == 0)
			return (int)i;
		if (strlen(name) - plen == len && memcmp(name + plen, s, len) == 0)
			return (int)i;
	}
	return -1;
}

const char *
test_dm_flow_error_type_name(int type)
{
	if (type < 0 || (unsigned int)type >= RTE_DIM(test_dm_error_types) ||
	    test_dm_error_types[type] == NULL)
		return "RTE_FLOW_ERROR_TYPE_(unknown)";
	return test_dm_error_types[type];
}
