/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#include <stdarg.h>
#include <time.h>
#include <unistd.h>

#include "test_dm_progress.h"

double
test_dm_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void
test_dm_progress_init(struct test_dm_progress *p, FILE *out)
{
	p->out = out;
	p->on = out != NULL && isatty(fileno(out));
	p->shown = 0;
	p->last = 0;
}

void
test_dm_progress_show(struct test_dm_progress *p, int force, const char *fmt, ...)
{
	double now;
	va_list ap;

	if (p == NULL || !p->on)
		return;
	now = test_dm_now();
	if (!force && now - p->last < 0.1)
		return;
	p->last = now;
	fputc('\r', p->out);
	va_start(ap, fmt);
	vfprintf(p->out, fmt, ap);
	va_end(ap);
	fputs("\033[K", p->out);
	fflush(p->out);
	p->shown = 1;
}

void
test_dm_progress_clear(struct test_dm_progress *p)
{
	if (p == NULL || !p->on || !p->shown)
		return;
	fputs("\r\033[K", p->out);
	fflush(p->out);
	p->shown = 0;
}
