/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#include <dirent.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "test_rss.h"

uint64_t
test_rss_bytes(void)
{
	unsigned long long size, res;
	FILE *f = fopen("/proc/self/statm", "r");

	assert_non_null(f);
	assert_int_equal(fscanf(f, "%llu %llu", &size, &res), 2);
	fclose(f);
	return (uint64_t)res * (uint64_t)sysconf(_SC_PAGESIZE);
}

uint64_t
test_rss_wait(uint64_t at_least)
{
	uint64_t rss = test_rss_bytes();
	unsigned int i;

	for (i = 0; i < 60000 && rss < at_least; i++) {
		usleep(1000);
		rss = test_rss_bytes();
	}
	return rss;
}

pid_t
test_thread_tid(const char *name)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	pid_t tid = -1;

	assert_non_null(d);
	while ((e = readdir(d)) != NULL && tid < 0) {
		char path[64], comm[32] = "";
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm", e->d_name);
		f = fopen(path, "r");
		if (f == NULL)
			continue; /* the thread ended meanwhile */
		if (fgets(comm, sizeof(comm), f) != NULL) {
			comm[strcspn(comm, "\n")] = '\0';
			if (strcmp(comm, name) == 0)
				tid = (pid_t)atoi(e->d_name);
		}
		fclose(f);
	}
	closedir(d);
	return tid;
}

int
test_thread_gone(const char *name)
{
	unsigned int i;

	for (i = 0; i < 2000 && test_thread_tid(name) >= 0; i++)
		usleep(1000);
	return test_thread_tid(name) < 0;
}
