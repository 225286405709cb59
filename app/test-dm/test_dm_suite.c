/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test_dm_suite.h"
#include "test_dm_vec.h"

#ifndef TEST_DM_SUITES_SRC
#error "TEST_DM_SUITES_SRC must name app/test-dm/suites of the source tree"
#endif

/* ---- finding suites ---- */

static int
test_dm_is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int
test_dm_suite_dir(const char *override, char *out, size_t size, char *msg, size_t msize)
{
	char exe[PATH_MAX], installed[PATH_MAX + 64] = "";
	ssize_t n;

	if (override != NULL) {
		snprintf(out, size, "%s", override);
		if (test_dm_is_dir(out))
			return 0;
		snprintf(msg, msize, "--suite-dir %s: not a directory", override);
		return -ENOENT;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		snprintf(installed, sizeof(installed), "%s/../share/dpdk-test-dm/suites",
			 dirname(exe));
		if (test_dm_is_dir(installed)) {
			snprintf(out, size, "%s", installed);
			return 0;
		}
	}
	snprintf(out, size, "%s", TEST_DM_SUITES_SRC);
	if (test_dm_is_dir(out))
		return 0;
	snprintf(msg, msize, "no suite directory: tried %s and %s (give --suite-dir)",
		 installed[0] != '\0' ? installed : "(next to the binary)", TEST_DM_SUITES_SRC);
	return -ENOENT;
}

static int
test_dm_case_file(const struct dirent *d)
{
	size_t len = strlen(d->d_name);

	return len > 5 && strcmp(d->d_name + len - 5, ".case") == 0;
}

static int
test_dm_visible(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

void
test_dm_names_free(char **names, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

int
test_dm_suite_names(const char *dir, char ***names)
{
	struct dirent **ents;
	char path[PATH_MAX];
	int i, n, k = 0;

	n = scandir(dir, &ents, test_dm_visible, alphasort);
	if (n < 0)
		return -errno;
	*names = calloc((size_t)n + 1, sizeof(**names));
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, ents[i]->d_name);
		if (*names != NULL && test_dm_is_dir(path))
			(*names)[k++] = strdup(ents[i]->d_name);
		free(ents[i]);
	}
	free(ents);
	if (*names == NULL)
		return -ENOMEM;
	for (i = 0; i < k; i++) {
		if ((*names)[i] == NULL) {
			test_dm_names_free(*names, k);
			return -ENOMEM;
		}
	}
	return k;
}

/* ---- jobs ---- */

int
test_dm_jobs_add_file(struct test_dm_jobs *j, const char *suite, const char *path)
{
	struct test_dm_job *job;

	if (test_dm_vec_grow((void **)&j->v, &j->cap, j->n, sizeof(*j->v)) < 0)
		return -ENOMEM;
	job = &j->v[j->n];
	job->suite = strdup(suite);
	job->path = strdup(path);
	if (job->suite == NULL || job->path == NULL) {
		free(job->suite);
		free(job->path);
		return -ENOMEM;
	}
	j->n++;
	return 0;
}

static int
test_dm_jobs_add_dir(struct test_dm_jobs *j, const char *dir, const char *name)
{
	struct dirent **ents;
	char path[PATH_MAX];
	int i, n, ret = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	n = scandir(path, &ents, test_dm_case_file, alphasort);
	if (n < 0)
		return -errno;
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s/%s", dir, name, ents[i]->d_name);
		if (ret == 0)
			ret = test_dm_jobs_add_file(j, name, path);
		free(ents[i]);
	}
	free(ents);
	return ret < 0 ? ret : n;
}

static void
test_dm_known_suites(char **names, int n, char *msg, size_t size)
{
	size_t len;
	int i;

	len = strlen(msg);
	for (i = 0; i < n && len + 2 < size; i++) {
		snprintf(msg + len, size - len, "%s%s", i == 0 ? "" : ", ", names[i]);
		len = strlen(msg);
	}
}

int
test_dm_jobs_add_suite(struct test_dm_jobs *j, const char *dir, const char *name,
		       char *msg, size_t size)
{
	int i, n, ret = 0, added = 0;
	char **names;

	n = test_dm_suite_names(dir, &names);
	if (n < 0) {
		snprintf(msg, size, "%s: %s", dir, strerror(-n));
		return n;
	}
	for (i = 0; i < n && ret >= 0; i++) {
		if (strcmp(name, "all") != 0 && strcmp(name, names[i]) != 0)
			continue;
		ret = test_dm_jobs_add_dir(j, dir, names[i]);
		added += ret > 0 ? ret : 0;
		if (ret == 0 && strcmp(name, "all") != 0) {
			snprintf(msg, size, "suite %s has no .case file", name);
			ret = -ENOENT;
		}
	}
	if (ret >= 0 && added == 0 && strcmp(name, "all") != 0) {
		snprintf(msg, size, "no suite '%s' in %s; suites: ", name, dir);
		test_dm_known_suites(names, n, msg, size);
		ret = -ENOENT;
	}
	test_dm_names_free(names, n);
	return ret < 0 ? ret : added;
}

void
test_dm_jobs_free(struct test_dm_jobs *j)
{
	unsigned int i;

	for (i = 0; i < j->n; i++) {
		free(j->v[i].suite);
		free(j->v[i].path);
	}
	free(j->v);
	memset(j, 0, sizeof(*j));
}

int
test_dm_jobs_need_switch(const struct test_dm_jobs *jobs)
{
	struct test_dm_case *c;
	struct test_dm_err err;
	unsigned int i;
	int need = 0;

	/* A case that does not load fails when it runs; here it needs nothing. */
	for (i = 0; i < jobs->n && !need; i++) {
		if (test_dm_case_load(jobs->v[i].path, &c, &err) != 0)
			continue;
		need = c->needs_switch;
		test_dm_case_free(c);
	}
	return need;
}

/* ---- running ---- */

static void
test_dm_suite_one(const struct test_dm_runner_ops *ops, void *ctx, const struct test_dm_job *job,
		  unsigned int run, const struct test_dm_suite_cfg *cfg,
		  struct test_dm_report *report)
{
	struct test_dm_record rec = { .suite = job->suite, .file = job->path, .run = run };
	struct test_dm_case_result cr;
	struct test_dm_case *c = NULL;
	struct test_dm_err err;
	double t0 = test_dm_now();
	char line[768];

	memset(&cr, 0, sizeof(cr));
	if (test_dm_case_load(job->path, &c, &err) != 0) {
		rec.verdict = TEST_DM_ERROR;
		rec.name = job->path;
		rec.reason = err.msg;
		snprintf(line, sizeof(line), "FAIL %s/%s: %s", job->suite, job->path, err.msg);
	} else if (cfg->skip_flow != NULL && test_dm_case_uses_flow(c)) {
		rec.verdict = TEST_DM_SKIP;
		rec.name = c->name;
		rec.reason = cfg->skip_flow;
		snprintf(line, sizeof(line), "SKIP %s/%s: %s", job->suite, c->name,
			 cfg->skip_flow);
	} else if (cfg->skip_switch != NULL && c->needs_switch) {
		rec.verdict = TEST_DM_SKIP;
		rec.name = c->name;
		rec.reason = cfg->skip_switch;
		snprintf(line, sizeof(line), "SKIP %s/%s: %s", job->suite, c->name,
			 cfg->skip_switch);
	} else if (test_dm_case_run(c, ops, ctx, cfg->opts, &cr) != 0) {
		rec.verdict = TEST_DM_ERROR;
		rec.name = c->name;
		rec.reason = cr.first_failure;
		snprintf(line, sizeof(line), "FAIL %s/%s: could not run on %s: %s", job->suite,
			 c->name, ops->name, cr.first_failure);
	} else if (cr.skipped[0] != '\0') {
		rec.verdict = TEST_DM_SKIP;
		rec.name = c->name;
		rec.reason = cr.skipped;
		snprintf(line, sizeof(line), "SKIP %s/%s: %s", job->suite, c->name, cr.skipped);
	} else {
		rec.verdict = cr.failed != 0 ? TEST_DM_FAIL : TEST_DM_PASS;
		rec.name = c->name;
		rec.reason = cr.first_failure;
		if (cr.failed != 0)
			snprintf(line, sizeof(line), "FAIL %s/%s: %u of %u checks failed, "
				 "first: %s", job->suite, c->name, cr.failed, cr.checks,
				 cr.first_failure);
		else
			snprintf(line, sizeof(line), "PASS %s/%s (%u checks on %s)", job->suite,
				 c->name, cr.checks, ops->name);
	}
	rec.checks = cr.checks;
	rec.failed = cr.failed;
	rec.packets = cr.packets;
	rec.received = cr.received;
	rec.artifacts = cr.artifacts;
	rec.seconds = test_dm_now() - t0;
	test_dm_progress_clear(cfg->progress);
	if (run > 1)
		fprintf(cfg->out, "%s [run %u]\n", line, run);
	else
		fprintf(cfg->out, "%s\n", line);
	if (cr.artifacts[0] != '\0' && rec.verdict != TEST_DM_PASS)
		fprintf(cfg->out, "  evidence: %s\n", cr.artifacts);
	if (test_dm_report_add(report, &rec) < 0)
		fprintf(cfg->out, "  (out of memory: not in the report)\n");
	test_dm_case_free(c);
}

void
test_dm_suite_run(const struct test_dm_runner_ops *ops, void *ctx,
		  const struct test_dm_jobs *jobs, const struct test_dm_suite_cfg *cfg,
		  struct test_dm_report *report)
{
	unsigned int runs = cfg->repeat != 0 ? cfg->repeat : 1, run, i, p, f, s;
	const char *base;

	for (run = 1; run <= runs; run++) {
		for (i = 0; i < jobs->n; i++) {
			test_dm_report_counts(report, &p, &f, &s);
			base = strrchr(jobs->v[i].path, '/');
			test_dm_progress_show(cfg->progress, 1, "[%u/%u] %s/%s: %u passed, "
					      "%u failed", (run - 1) * jobs->n + i + 1,
					      runs * jobs->n, jobs->v[i].suite,
					      base != NULL ? base + 1 : jobs->v[i].path, p, f);
			test_dm_suite_one(ops, ctx, &jobs->v[i], run, cfg, report);
		}
	}
	test_dm_progress_clear(cfg->progress);
}
