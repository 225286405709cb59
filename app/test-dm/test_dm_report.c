/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "test_dm_progress.h"
#include "test_dm_report.h"
#include "test_dm_vec.h"

static const char *const test_dm_verdict_names[] = {
	[TEST_DM_PASS] = "pass",
	[TEST_DM_FAIL] = "fail",
	[TEST_DM_ERROR] = "error",
	[TEST_DM_SKIP] = "skip",
};

void
test_dm_report_init(struct test_dm_report *r, const char *runner)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->runner, sizeof(r->runner), "%s", runner);
	r->start = test_dm_now();
}

static char *
test_dm_dup(const char *s)
{
	return strdup(s != NULL ? s : "");
}

/* The report owns its copies (they are const only to their readers). */
static void
test_dm_rec_free(struct test_dm_record *d)
{
	free((void *)(uintptr_t)d->suite);
	free((void *)(uintptr_t)d->name);
	free((void *)(uintptr_t)d->file);
	free((void *)(uintptr_t)d->reason);
	free((void *)(uintptr_t)d->artifacts);
}

int
test_dm_report_add(struct test_dm_report *r, const struct test_dm_record *rec)
{
	struct test_dm_record *d;

	if (test_dm_vec_grow((void **)&r->v, &r->cap, r->n, sizeof(*r->v)) < 0)
		return -ENOMEM;
	d = &r->v[r->n];
	*d = *rec;
	d->suite = test_dm_dup(rec->suite);
	d->name = test_dm_dup(rec->name);
	d->file = test_dm_dup(rec->file);
	d->reason = test_dm_dup(rec->reason);
	d->artifacts = test_dm_dup(rec->artifacts);
	if (d->suite == NULL || d->name == NULL || d->file == NULL || d->reason == NULL ||
	    d->artifacts == NULL) {
		test_dm_rec_free(d);
		return -ENOMEM;
	}
	r->n++;
	return 0;
}

void
test_dm_report_free(struct test_dm_report *r)
{
	unsigned int i;

	for (i = 0; i < r->n; i++)
		test_dm_rec_free(&r->v[i]);
	free(r->v);
	r->v = NULL;
	r->n = 0;
	r->cap = 0;
}

void
test_dm_report_counts(const struct test_dm_report *r, unsigned int *passed,
		      unsigned int *failed, unsigned int *skipped)
{
	unsigned int i;

	*passed = 0;
	*failed = 0;
	*skipped = 0;
	for (i = 0; i < r->n; i++) {
		if (r->v[i].verdict == TEST_DM_PASS)
			(*passed)++;
		else if (r->v[i].verdict == TEST_DM_SKIP)
			(*skipped)++;
		else
			(*failed)++;
	}
}

/* ---- summary table ---- */

struct test_dm_row {
	const char *suite;
	unsigned int cases, passed, failed, skipped;
	uint64_t packets;
	double seconds;
};

static void
test_dm_row_add(struct test_dm_row *row, const struct test_dm_record *rec)
{
	row->cases++;
	row->passed += rec->verdict == TEST_DM_PASS;
	row->skipped += rec->verdict == TEST_DM_SKIP;
	row->failed += rec->verdict == TEST_DM_FAIL || rec->verdict == TEST_DM_ERROR;
	row->packets += rec->packets;
	row->seconds += rec->seconds;
}

static void
test_dm_row_print(const struct test_dm_row *row, FILE *out)
{
	fprintf(out, "%-16s %6u %7u %7u %7u %12" PRIu64 " %9.2fs\n", row->suite, row->cases,
		row->passed, row->failed, row->skipped, row->packets, row->seconds);
}

void
test_dm_report_table(const struct test_dm_report *r, FILE *out)
{
	struct test_dm_row *rows, total = { .suite = "total" };
	unsigned int i, k, nb = 0;

	if (r->n == 0)
		return;
	rows = calloc(r->n, sizeof(*rows));
	if (rows == NULL)
		return;
	for (i = 0; i < r->n; i++) {
		for (k = 0; k < nb; k++)
			if (strcmp(rows[k].suite, r->v[i].suite) == 0)
				break;
		if (k == nb)
			rows[nb++].suite = r->v[i].suite;
		test_dm_row_add(&rows[k], &r->v[i]);
		test_dm_row_add(&total, &r->v[i]);
	}
	fprintf(out, "\n%-16s %6s %7s %7s %7s %12s %10s\n", "suite", "cases", "passed", "failed",
		"skipped", "packets", "time");
	for (k = 0; k < nb; k++)
		test_dm_row_print(&rows[k], out);
	test_dm_row_print(&total, out);
	fprintf(out, "runner %s, wall time %.2fs\n", r->runner, test_dm_now() - r->start);
	free(rows);
}

/* ---- JSON ---- */

static void
test_dm_json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void
test_dm_json_record(FILE *f, const struct test_dm_record *rec)
{
	fputs("    {\"suite\": ", f);
	test_dm_json_str(f, rec->suite);
	fputs(", \"case\": ", f);
	test_dm_json_str(f, rec->name);
	fputs(", \"file\": ", f);
	test_dm_json_str(f, rec->file);
	fprintf(f, ", \"run\": %u, \"result\": \"%s\", \"checks\": %u, \"failed_checks\": %u, "
		"\"packets\": %" PRIu64 ", \"received\": %" PRIu64 ", \"seconds\": %.6f, "
		"\"reason\": ", rec->run, test_dm_verdict_names[rec->verdict], rec->checks,
		rec->failed, rec->packets, rec->received, rec->seconds);
	test_dm_json_str(f, rec->reason);
	fputs(", \"artifacts\": ", f);
	test_dm_json_str(f, rec->artifacts);
	fputc('}', f);
}

int
test_dm_report_json(const struct test_dm_report *r, const char *path)
{
	unsigned int i, passed, failed, skipped;
	FILE *f = fopen(path, "w");

	if (f == NULL)
		return -errno;
	test_dm_report_counts(r, &passed, &failed, &skipped);
	fputs("{\n  \"tool\": \"dpdk-test-dm\",\n  \"runner\": ", f);
	test_dm_json_str(f, r->runner);
	if (r->has_seed)
		fprintf(f, ",\n  \"seed\": %" PRIu64, r->seed);
	fprintf(f, ",\n  \"passed\": %u,\n  \"failed\": %u,\n  \"skipped\": %u,\n"
		"  \"seconds\": %.3f,\n  \"cases\": [\n", passed, failed, skipped,
		test_dm_now() - r->start);
	for (i = 0; i < r->n; i++) {
		test_dm_json_record(f, &r->v[i]);
		fputs(i + 1 < r->n ? ",\n" : "\n", f);
	}
	fputs("  ]\n}\n", f);
	return fclose(f) == 0 ? 0 : -EIO;
}

/* ---- TAP ---- */

/* A YAML single-quoted scalar: quotes doubled, one line. */
static void
test_dm_yaml_str(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s != '\0'; s++) {
		if (*s == '\'')
			fputs("''", f);
		else
			fputc(*s == '\n' ? ' ' : *s, f);
	}
	fputc('\'', f);
}

int
test_dm_report_tap(const struct test_dm_report *r, const char *path)
{
	FILE *f = fopen(path, "w");
	unsigned int i;

	if (f == NULL)
		return -errno;
	fprintf(f, "TAP version 13\n1..%u\n", r->n);
	for (i = 0; i < r->n; i++) {
		const struct test_dm_record *rec = &r->v[i];

		fprintf(f, "%s %u - %s/%s", rec->verdict == TEST_DM_PASS ||
			rec->verdict == TEST_DM_SKIP ? "ok" : "not ok", i + 1, rec->suite,
			rec->name);
		if (rec->run > 1)
			fprintf(f, " (run %u)", rec->run);
		if (rec->verdict == TEST_DM_SKIP)
			fprintf(f, " # SKIP %s", rec->reason);
		fputc('\n', f);
		if (rec->verdict != TEST_DM_FAIL && rec->verdict != TEST_DM_ERROR)
			continue;
		fputs("  ---\n  message: ", f);
		test_dm_yaml_str(f, rec->reason);
		fprintf(f, "\n  checks: %u\n  failed_checks: %u\n  packets: %" PRIu64 "\n",
			rec->checks, rec->failed, rec->packets);
		fputs("  artifacts: ", f);
		test_dm_yaml_str(f, rec->artifacts);
		fputs("\n  ...\n", f);
	}
	return fclose(f) == 0 ? 0 : -EIO;
}
