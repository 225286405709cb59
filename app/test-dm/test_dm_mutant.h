/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#ifndef _TEST_DM_MUTANT_H_
#define _TEST_DM_MUTANT_H_

/*
 * A deliberately broken runner, wrapped around a working one, to show that
 * the suites and the random mode catch a wrong device: "priority" turns
 * every rule's priority around (the last match wins instead of the first),
 * "mark" reports marks off by one, "lose" loses one packet in 97.
 */

#include "test_dm_runner.h"

extern const struct test_dm_runner_ops test_dm_mutant_ops;

struct test_dm_mutant;

/** NULL with errno EINVAL for an unknown @p kind, ENOMEM. */
struct test_dm_mutant *test_dm_mutant_new(const struct test_dm_runner_ops *ops, void *ctx,
					  const char *kind);
void test_dm_mutant_free(struct test_dm_mutant *m);

/** The kinds, for usage messages. */
#define TEST_DM_MUTANT_KINDS "priority, mark, lose"

#endif /* _TEST_DM_MUTANT_H_ */
