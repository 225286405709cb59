/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "test_dm_pktlist.h"
#include "test_dm_vec.h"

int
test_dm_pktlist_add(struct test_dm_pktlist *l, const uint8_t *p, size_t len)
{
	uint8_t *copy;

	if (test_dm_vec_grow((void **)&l->v, &l->cap, l->n, sizeof(*l->v)) < 0)
		return -ENOMEM;
	copy = malloc(len != 0 ? len : 1);
	if (copy == NULL)
		return -ENOMEM;
	memcpy(copy, p, len);
	l->v[l->n].data = copy;
	l->v[l->n].len = (uint32_t)len;
	l->n++;
	return 0;
}

void
test_dm_pktlist_free(struct test_dm_pktlist *l)
{
	unsigned int i;

	for (i = 0; i < l->n; i++)
		free(l->v[i].data);
	free(l->v);
	l->v = NULL;
	l->n = 0;
	l->cap = 0;
}
