/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <unistd.h>
#include <cmocka.h>

#include "test_rss.h"

uint64_t
test_rss_bytes(void)
{
	unsigned long long size, res, kib = 0;
	char line[128];
	FILE *f = fopen("/proc/self/statm", "r");

	assert_non_null(f);
	assert_int_equal(fscanf(f, "%llu %llu", &size, &res), 2);
	fclose(f);
	/* Pages of the huge page pool are not in the resident set: added from status. */
	f = fopen("/proc/self/status", "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "HugetlbPages: %llu kB", &kib) == 1)
			break;
	fclose(f);
	return (uint64_t)res * (uint64_t)sysconf(_SC_PAGESIZE) + ((uint64_t)kib << 10);
}
