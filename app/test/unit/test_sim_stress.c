/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Line atomicity of ICM writes: two threads write the same 64-byte lines
 * through RDMA WRITE WQEs while a third reads lines with
 * mlx5dm_sim_icm_read. Whole lines: each WQE writes two lines, each a
 * self-consistent pattern (eight equal 8-byte words). Part lines: each WQE
 * writes 64 bytes from the middle of a line, the second half of one line
 * and the first half of the next (four equal words each). A reader must
 * never see a torn line or half. No timing is asserted: the test runs a
 * fixed amount of work.
 */

#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <unistd.h>

#include "mlx5dm_sim_core.h"
#include "test_sim_util.h"

#define NLINES 8
#define WRITES 20000

struct stress {
	struct tsim t;
	struct tdm ste;
	unsigned int at, len;   /* each write: its offset in its first line, its length */
	unsigned int unit;      /* bytes written whole by one write: a line or a half */
	uint32_t started;
	uint32_t writers_done;
	uint64_t torn;
	uint64_t reads;
	uint64_t changes;
};

struct writer {
	struct stress *s;
	unsigned int id;
	int err;
};

static void *
writer_main(void *arg)
{
	struct writer *wr = arg;
	struct stress *s = wr->s;
	uint8_t w[11 * 16];
	struct tring r;
	unsigned int i, k;

	wr->err = tring_create(&s->t, &r, 4, 6, 3);
	while (__atomic_load_n(&s->started, __ATOMIC_ACQUIRE) == 0)
		;
	/*
	 * At least WRITES rounds, and on until the reader has seen the lines
	 * change a few times: on a loaded machine the reader may not get the
	 * CPU while a fixed number of writes runs (bounded by 100 x WRITES).
	 */
	for (i = 0; wr->err == 0 && i < 100u * WRITES &&
	     (i < WRITES || __atomic_load_n(&s->changes, __ATOMIC_RELAXED) < 16); i++) {
		unsigned int line = (i * 3 + wr->id) % (NLINES - 1);
		uint8_t ds = (uint8_t)((32 + 4 + s->len + 15) / 16);
		uint64_t pat[16];
		const uint8_t *cqe;

		/* Copies of one word naming writer, unit (line or half) and round. */
		for (k = 0; k < s->len / 8; k++)
			pat[k] = ((uint64_t)wr->id << 56) |
				 ((uint64_t)(64 * line + s->at + 8 * k) / s->unit << 40) | i;
		memset(w, 0, sizeof(w));
		tring_ctrl(&r, w, 0, 0x08, ds, true, 0);
		SET(w + 16, 0x00, 64, 64ull * line + s->at);
		SET(w + 16, 0x40, 32, s->ste.mr->rkey);
		SET(w + 32, 0x00, 32, 0x80000000u | s->len);
		memcpy(w + 36, pat, s->len);
		tring_put(&r, w, ds * 16u);
		tring_ring(&r, w);
		cqe = tring_poll(&r);
		if (cqe == NULL || (cqe[63] >> 4) != 0)
			wr->err = -EIO;
	}
	__atomic_fetch_add(&s->writers_done, 1, __ATOMIC_RELEASE);
	tring_destroy(&r);
	return NULL;
}

static void *
reader_main(void *arg)
{
	struct stress *s = arg;
	uint64_t img[16], last = 0;
	unsigned int n = 0;

	__atomic_store_n(&s->started, 1, __ATOMIC_RELEASE);
	while (__atomic_load_n(&s->writers_done, __ATOMIC_ACQUIRE) < 2) {
		unsigned int line = n++ % (NLINES - 1);
		unsigned int k;

		/* Two lines at once: each unit must be whole, units need not match. */
		if (mlx5dm_sim_icm_read(s->t.sim, s->ste.icm + 64ull * line, img, 128) != 0)
			s->torn++;
		for (k = 1; k < 16; k++)
			if (k % (s->unit / 8) != 0 && img[k] != img[k - 1])
				s->torn++;
		if (img[0] != last)
			__atomic_fetch_add(&s->changes, 1, __ATOMIC_RELAXED);
		last = img[0];
		s->reads++;
	}
	return NULL;
}

static void
run_torn(unsigned int at, unsigned int len, unsigned int unit)
{
	struct stress s;
	struct writer wr[2];
	pthread_t tw[2], tr;
	unsigned int i;

	memset(&s, 0, sizeof(s));
	s.at = at;
	s.len = len;
	s.unit = unit;
	assert_int_equal(tsim_open(&s.t, NULL), 0);
	assert_int_equal(tdm_alloc(&s.t, &s.ste, MLX5DV_DM_TYPE_STEERING_SW_ICM, 4096), 0);
	for (i = 0; i < 2; i++) {
		wr[i].s = &s;
		wr[i].id = i + 1;
		assert_int_equal(pthread_create(&tw[i], NULL, writer_main, &wr[i]), 0);
	}
	assert_int_equal(pthread_create(&tr, NULL, reader_main, &s), 0);
	for (i = 0; i < 2; i++)
		pthread_join(tw[i], NULL);
	pthread_join(tr, NULL);
	assert_int_equal(wr[0].err, 0);
	assert_int_equal(wr[1].err, 0);
	assert_true(s.reads > 0);
	assert_true(s.changes > 1);     /* the reader did run while lines changed */
	assert_int_equal(s.torn, 0);
	tdm_free(&s.t, &s.ste);
	tsim_close(&s.t);
}

static void
test_no_torn_lines(void **state)
{
	(void)state;
	run_torn(0, 128, 64);
}

/* 64 bytes from the middle of a line: two halves, each line under its own stripe. */
static void
test_no_torn_part_lines(void **state)
{
	(void)state;
	run_torn(32, 64, 32);
}

struct syncer {
	struct tsim *t;
	uint32_t done;
	int ret;
};

static void *
sync_main(void *arg)
{
	struct syncer *y = arg;
	uint8_t in[32] = { 0 }, out[16];

	SET(in, 0x00, 16, 0xb00);
	y->ret = y->t->ops->devx_general_cmd(y->t->ctx, in, sizeof(in), out, sizeof(out));
	__atomic_store_n(&y->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static void
test_sync_waits_for_walks(void **state)
{
	struct syncer y = { 0 };
	pthread_t th;
	uint32_t e, e2;
	struct tsim t;

	(void)state;
	assert_int_equal(tsim_open(&t, NULL), 0);
	y.t = &t;
	/* A walk in progress holds SYNC_STEERING back... */
	e = mlx5dm_sim_walk_enter(t.sim);
	assert_int_equal(pthread_create(&th, NULL, sync_main, &y), 0);
	usleep(50 * 1000);
	assert_int_equal(__atomic_load_n(&y.done, __ATOMIC_ACQUIRE), 0);
	/* ...a walk that starts now does not (it belongs to the new epoch)... */
	while (__atomic_load_n(&t.sim->sync.epoch, __ATOMIC_ACQUIRE) == e)
		usleep(1000);
	e2 = mlx5dm_sim_walk_enter(t.sim);
	assert_int_not_equal(e2, e);
	/* ...and the sync completes when the old walk ends. */
	mlx5dm_sim_walk_exit(t.sim, e);
	pthread_join(th, NULL);
	assert_int_equal(y.done, 1);
	assert_int_equal(y.ret, 0);
	mlx5dm_sim_walk_exit(t.sim, e2);
	tsim_close(&t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_torn_lines),
		cmocka_unit_test(test_no_torn_part_lines),
		cmocka_unit_test(test_sync_waits_for_walks),
	};

	return cmocka_run_group_tests_name("sim_stress", tests, NULL, NULL);
}
