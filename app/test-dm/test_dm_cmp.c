/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#include <stdio.h>
#include <string.h>

#include "test_dm_cmp.h"

static int
test_dm_fate_has_queue(const struct test_dm_fate *f, uint16_t q)
{
	unsigned int i;

	if (f->kind == TEST_DM_FATE_QUEUE)
		return f->queue == q;
	for (i = 0; i < f->nb_queues; i++)
		if (f->queues[i] == q)
			return 1;
	return 0;
}

static void
test_dm_marks_format(int fdir, int fdir_id, uint32_t mark, char *buf, size_t size)
{
	if (fdir_id)
		snprintf(buf, size, ", mark %u", mark);
	else if (fdir)
		snprintf(buf, size, ", flag");
	else
		buf[0] = '\0';
}

void
test_dm_fate_format(const struct test_dm_fate *f, char *buf, size_t size)
{
	char marks[32];
	size_t n;
	unsigned int i;

	if (f->kind == TEST_DM_FATE_DROP) {
		snprintf(buf, size, "dropped%s", f->dropped_on_egress ? " on egress" :
			 f->group_miss ? " (missed in a group above 0)" : "");
		return;
	}
	test_dm_marks_format(f->fdir, f->fdir_id, f->mark, marks, sizeof(marks));
	if (f->kind == TEST_DM_FATE_QUEUE) {
		snprintf(buf, size, "port %u queue %u%s", f->port, f->queue, marks);
		return;
	}
	snprintf(buf, size, "port %u one of queues ", f->port);
	for (i = 0; i < f->nb_queues; i++) {
		n = strlen(buf);
		snprintf(buf + n, size - n, "%s%u", i == 0 ? "" : ",", f->queues[i]);
	}
	n = strlen(buf);
	snprintf(buf + n, size - n, " (%s)%s", f->default_rss ? "default rss" : "rss", marks);
}

void
test_dm_rx_format(const struct test_dm_rx *rx, char *buf, size_t size)
{
	char marks[32];

	if (!rx->received) {
		snprintf(buf, size, "dropped");
		return;
	}
	test_dm_marks_format(rx->fdir, rx->fdir_id, rx->mark, marks, sizeof(marks));
	snprintf(buf, size, "port %u queue %u%s", rx->port, rx->queue, marks);
}

int
test_dm_fate_cmp(const struct test_dm_fate *f, const struct test_dm_rx *rx, char *why,
		 size_t size)
{
	char want[160], got[96];
	uint32_t i;

	test_dm_fate_format(f, want, sizeof(want));
	test_dm_rx_format(rx, got, sizeof(got));
	if ((f->kind == TEST_DM_FATE_DROP) != !rx->received) {
		snprintf(why, size, "expected %s, got %s", want, got);
		return 1;
	}
	if (!rx->received)
		return 0;
	if (rx->port != f->port || !test_dm_fate_has_queue(f, rx->queue) ||
	    rx->fdir != f->fdir || rx->fdir_id != f->fdir_id ||
	    (f->fdir_id && rx->mark != f->mark)) {
		snprintf(why, size, "expected %s, got %s", want, got);
		return 1;
	}
	for (i = 0; i < rx->len && i < f->len && rx->data[i] == f->data[i]; i++)
		;
	if (rx->len != f->len || i != rx->len) {
		snprintf(why, size, "bytes differ: got %u bytes, expected %u, first difference at "
			 "offset %u", rx->len, f->len, i);
		return 1;
	}
	return 0;
}
