/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#ifndef _TEST_DM_VEC_H_
#define _TEST_DM_VEC_H_

/* Growable arrays: one helper for every "append, doubling the capacity" list. */

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>

/**
 * Make room for one more element in the array at *@p v holding @p n elements
 * of @p size bytes, capacity *@p cap (doubled when full, 16 at first).
 *
 * @return 0 or -ENOMEM (the array is left as it was).
 */
static inline int
test_dm_vec_grow(void **v, unsigned int *cap, unsigned int n, size_t size)
{
	unsigned int c = *cap != 0 ? *cap * 2 : 16;
	void *p;

	if (n < *cap)
		return 0;
	p = realloc(*v, c * size);
	if (p == NULL)
		return -ENOMEM;
	*v = p;
	*cap = c;
	return 0;
}

#endif /* _TEST_DM_VEC_H_ */
