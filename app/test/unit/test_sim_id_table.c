/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The model's id tables: ids are base + slot, handed out round-robin; the
 * live list the device thread walks holds exactly the objects there are,
 * whatever the order of adds and deletes and across growth.
 */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "mlx5dm_sim_core.h"

#define BASE 0x100u
#define MAX 1024u

/* The live list and the slots name the same objects, each once, at the right ids. */
static void
assert_live(const struct mlx5dm_sim_id_table *t, void *const *ref)
{
	uint32_t i, n = 0;
	uint8_t seen[MAX] = { 0 };

	for (i = 0; i < MAX; i++)
		n += ref[i] != NULL;
	assert_int_equal(t->count, n);
	for (i = 0; i < t->count; i++) {
		uint32_t s = t->live_slot[i];

		assert_true(s < MAX);
		assert_false(seen[s]);
		seen[s] = 1;
		assert_ptr_equal(t->live[i], ref[s]);
		assert_ptr_equal(mlx5dm_sim_id_table_get(t, BASE + s), ref[s]);
	}
}

static void
test_live_list(void **state)
{
	static void *ref[MAX];
	struct mlx5dm_sim_id_table t;
	uintptr_t tag = 1;
	uint32_t i, id;

	(void)state;
	memset(ref, 0, sizeof(ref));
	mlx5dm_sim_id_table_init(&t, BASE, MAX, MLX5DM_SOCKET_ANY);
	srand(21);
	/* Grows from 64 slots to MAX while objects come and go at random. */
	for (i = 0; i < 20000; i++) {
		if (t.count < 700 && (t.count == 0 || rand() % 3 != 0)) {
			void *p = (void *)(tag++ << 4);

			assert_int_equal(mlx5dm_sim_id_table_add(&t, p, &id), 0);
			assert_true(id >= BASE && id - BASE < MAX);
			assert_null(ref[id - BASE]);
			ref[id - BASE] = p;
		} else {
			uint32_t k = (uint32_t)rand() % t.count;

			id = BASE + t.live_slot[k];
			mlx5dm_sim_id_table_del(&t, id);
			ref[id - BASE] = NULL;
		}
		if (i % 97 == 0)
			assert_live(&t, ref);
	}
	assert_live(&t, ref);
	/* Down to nothing: the list empties with the table. */
	while (t.count > 0) {
		id = BASE + t.live_slot[t.count / 2];
		mlx5dm_sim_id_table_del(&t, id);
		ref[id - BASE] = NULL;
	}
	assert_live(&t, ref);
	/* An id not in use (or outside the table) changes nothing. */
	mlx5dm_sim_id_table_del(&t, BASE + 3);
	mlx5dm_sim_id_table_del(&t, BASE - 1);
	assert_int_equal(t.count, 0);
	mlx5dm_sim_id_table_fini(&t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_live_list),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
