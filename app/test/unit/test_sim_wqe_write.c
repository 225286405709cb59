/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The model's RDMA WRITE paths. Inline WRITEs of this QP to a target that
 * passes every check take the executor's short path (target checks kept
 * for the doorbell, payload stored line by line without the segment list);
 * everything else takes the general path. These tests post batches of
 * WQEs rung by one doorbell and check, against a shadow copy written with
 * plain memcpy semantics, every byte of the DMs and of a host buffer:
 * whole lines, control halves, part words, writes across lines, overlaps,
 * zero lengths, two MRs that share a cache slot, host MR targets, SQ
 * wrap-around. Then each refusal in the middle of a batch: the WQEs before
 * it land, it gets an error CQE with the PRM syndrome and the model's
 * reason, the ones after it are flushed and change nothing.
 */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "test_sim_util.h"

#define DM_BYTES 4096
#define NSLOT_MRS 9     /* MRs on one DM: two of them share a cache slot (8 slots) */
#define SLOT_MR_BYTES 256

struct wctx {
	struct tsim t;
	struct tring r;
	struct tdm d[2];
	struct ibv_dm *sdm;                     /* the DM under the slot MRs */
	struct ibv_mr *smr[NSLOT_MRS];          /* SLOT_MR_BYTES each, at SLOT_MR_BYTES * i */
	uint64_t sicm;
	struct ibv_mr *hmr;
	struct ibv_mr *wrap_mr;                 /* host MR from 2^64 - 64 on: never touched */
	struct ibv_mr *src_mr;                  /* gather source of pointer WRITEs */
	uint8_t src[512];
	uint8_t host[1024];
	/* What each target must hold: DM 0, DM 1, the slot DM, the host buffer. */
	uint8_t want[3][DM_BYTES];
	uint8_t want_host[1024];
	uint8_t last_ctrl[16];
	unsigned int seed;
};

enum { T_DM0, T_DM1, T_SLOT, T_HOST };

static int
wsetup(void **state)
{
	struct wctx *c = calloc(1, sizeof(*c));
	struct ibv_alloc_dm_attr a = { .length = NSLOT_MRS * SLOT_MR_BYTES };
	struct mlx5dv_alloc_dm_attr ma = { .type = MLX5DV_DM_TYPE_STEERING_SW_ICM };
	struct mlx5dv_dm out = { .comp_mask = MLX5DV_DM_MASK_REMOTE_VA };
	struct mlx5dv_obj o;
	unsigned int i;

	*state = c;
	if (c == NULL || tsim_open(&c->t, NULL) != 0 || tring_create(&c->t, &c->r, 6, 6, 3) != 0 ||
	    tdm_alloc(&c->t, &c->d[0], MLX5DV_DM_TYPE_STEERING_SW_ICM, DM_BYTES) != 0 ||
	    tdm_alloc(&c->t, &c->d[1], MLX5DV_DM_TYPE_STEERING_SW_ICM, DM_BYTES) != 0)
		return -1;
	c->sdm = c->t.ops->alloc_dm(c->t.ctx, &a, &ma);
	if (c->sdm == NULL)
		return -1;
	memset(&o, 0, sizeof(o));
	o.dm.in = c->sdm;
	o.dm.out = &out;
	if (c->t.ops->init_obj(&o, MLX5DV_OBJ_DM) != 0)
		return -1;
	c->sicm = out.remote_va;
	for (i = 0; i < NSLOT_MRS; i++) {
		c->smr[i] = c->t.ops->reg_dm_mr(c->t.pd, c->sdm, (uint64_t)SLOT_MR_BYTES * i,
						SLOT_MR_BYTES, IBV_ACCESS_ZERO_BASED |
						IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
		if (c->smr[i] == NULL)
			return -1;
	}
	c->hmr = c->t.ops->reg_mr(c->t.pd, c->host, sizeof(c->host), IBV_ACCESS_LOCAL_WRITE |
				  IBV_ACCESS_REMOTE_WRITE);
	c->wrap_mr = c->t.ops->reg_mr(c->t.pd, (void *)(UINTPTR_MAX - 63), 4096,
				      IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	c->src_mr = c->t.ops->reg_mr(c->t.pd, c->src, sizeof(c->src), IBV_ACCESS_LOCAL_WRITE);
	return c->hmr == NULL || c->wrap_mr == NULL || c->src_mr == NULL ? -1 : 0;
}

static int
wteardown(void **state)
{
	struct wctx *c = *state;
	unsigned int i;

	c->t.ops->dereg_mr(c->src_mr);
	c->t.ops->dereg_mr(c->wrap_mr);
	c->t.ops->dereg_mr(c->hmr);
	for (i = 0; i < NSLOT_MRS; i++)
		c->t.ops->dereg_mr(c->smr[i]);
	c->t.ops->free_dm(c->sdm);
	tdm_free(&c->t, &c->d[1]);
	tdm_free(&c->t, &c->d[0]);
	tring_destroy(&c->r);
	tsim_close(&c->t);
	free(c);
	return 0;
}

/*
 * Post (without ringing) an RDMA WRITE of len inline bytes to (va, rkey),
 * ds segments (0: just enough); the payload is a fresh pattern, returned
 * in data. Returns the WQE index.
 */
static uint16_t
put_write(struct wctx *c, uint64_t va, uint32_t rkey, uint32_t len, uint8_t ds,
	  bool signal, uint8_t *data)
{
	uint8_t w[64 * 16] = { 0 };
	uint16_t idx = c->r.pi;
	uint32_t i;

	if (ds == 0)
		ds = (uint8_t)((32 + 4 + len + 15) / 16);
	for (i = 0; i < len; i++)
		data[i] = (uint8_t)(c->seed * 37 + i * 11 + 1);
	c->seed++;
	tring_ctrl(&c->r, w, 0, 0x08, ds, signal, 0);
	SET(w + 16, 0x00, 64, va);
	SET(w + 16, 0x40, 32, rkey);
	SET(w + 32, 0x00, 32, 0x80000000u | len);
	memcpy(w + 36, data, len);
	tring_put(&c->r, w, ds * 16u);
	memcpy(c->last_ctrl, w, sizeof(c->last_ctrl));
	return idx;
}

/* A write that must land: posted, and applied to the shadow of its target. */
static uint16_t
put_good(struct wctx *c, unsigned int tgt, uint64_t va, uint32_t len, bool signal)
{
	static const uint8_t none[1];
	uint8_t data[64 * 16];
	uint32_t rkey;
	uint16_t idx;

	if (tgt == T_HOST) {
		idx = put_write(c, (uintptr_t)c->host + va, c->hmr->rkey, len, 0, signal, data);
		memcpy(c->want_host + va, len != 0 ? data : none, len);
		return idx;
	}
	rkey = tgt == T_SLOT ? c->smr[0]->rkey : c->d[tgt].mr->rkey;
	idx = put_write(c, va, rkey, len, 0, signal, data);
	memcpy(c->want[tgt] + va, len != 0 ? data : none, len);
	return idx;
}

/*
 * A WRITE of len bytes gathered from the host source buffer at soff by one
 * data pointer segment (the general path), to DM 0 at va; applied to the
 * shadow (the source must stay as it is until the doorbell).
 */
static void
put_ptr(struct wctx *c, uint64_t va, uint32_t soff, uint32_t len)
{
	uint8_t w[64] = { 0 };
	uint32_t i;

	for (i = 0; i < len; i++)
		c->src[soff + i] = (uint8_t)(c->seed * 53 + i * 7 + 3);
	c->seed++;
	tring_ctrl(&c->r, w, 0, 0x08, 3, false, 0);
	SET(w + 16, 0x00, 64, va);
	SET(w + 16, 0x40, 32, c->d[0].mr->rkey);
	SET(w + 32, 0x00, 32, len);
	SET(w + 32, 0x20, 32, c->src_mr->lkey);
	SET(w + 32, 0x40, 64, (uintptr_t)c->src + soff);
	tring_put(&c->r, w, 48);
	memcpy(c->last_ctrl, w, sizeof(c->last_ctrl));
	memcpy(c->want[T_DM0] + va, c->src + soff, len);
}

static void
ring(struct wctx *c)
{
	tring_ring(&c->r, c->last_ctrl);
}

/* Every byte of both DMs, the slot DM and the host buffer is what the shadow says. */
static void
check_all(struct wctx *c)
{
	uint8_t back[DM_BYTES];
	unsigned int i;

	for (i = 0; i < 2; i++) {
		assert_int_equal(mlx5dm_sim_icm_read(c->t.sim, c->d[i].icm, back, DM_BYTES), 0);
		assert_memory_equal(back, c->want[i], DM_BYTES);
	}
	assert_int_equal(mlx5dm_sim_icm_read(c->t.sim, c->sicm, back,
					     NSLOT_MRS * SLOT_MR_BYTES), 0);
	assert_memory_equal(back, c->want[T_SLOT], NSLOT_MRS * SLOT_MR_BYTES);
	assert_memory_equal(c->host, c->want_host, sizeof(c->host));
}

/* The next CQE: requester completion (opcode 0) or error (13) of WRITE WQE idx. */
static void
check_cqe(struct wctx *c, uint16_t idx, uint8_t synd, uint8_t vendor)
{
	const uint8_t *cqe = tring_poll(&c->r);

	assert_non_null(cqe);
	assert_int_equal(cqe[63] >> 4, synd == 0 ? 0x0 : 0xd);
	assert_int_equal(cqe[56], 0x08);                        /* s_wqe_opcode */
	assert_int_equal(GET(cqe, 0x1c8, 24), c->r.qpn);
	assert_int_equal(GET(cqe, 0x1e0, 16), idx);             /* wqe_counter */
	if (synd != 0) {
		assert_int_equal(cqe[55], synd);
		assert_int_equal(cqe[54], vendor);
	}
}

static uint32_t
qp_state(struct wctx *c)
{
	uint8_t in[16] = { 0 }, out[272];

	SET(in, 0x00, 16, 0x50b);
	SET(in, 0x48, 24, c->r.qpn);
	assert_int_equal(c->t.ops->devx_obj_query(c->r.qp, in, 16, out, sizeof(out)), 0);
	return (uint32_t)GET(out + 24, 0x00, 4);
}

/*
 * One batch of every payload shape, three times over so the SQ (64 WQEBBs)
 * wraps and some WQEs straddle its end (those are put together and take
 * the general path): only the last WQE of a batch asks for a CQE.
 */
static void
test_shapes(void **state)
{
	struct wctx *c = *state;
	unsigned int round;
	uint16_t idx;

	for (round = 0; round < 3; round++) {
		uint64_t o = round * 8;         /* each round moves the unaligned ones */

		put_good(c, T_DM0, 0, 64, false);               /* a whole line (an STE) */
		put_good(c, T_DM0, 128, 64, false);
		put_good(c, T_DM0, 256 + 32, 32, false);        /* a control half */
		put_good(c, T_DM0, 320 + 8, 8, false);          /* one word */
		put_good(c, T_DM0, 384 + 5 + o, 13, false);     /* part words */
		put_good(c, T_DM0, 448 + 40 + o, 100, false);   /* head, whole line, tail */
		put_good(c, T_DM0, 1024, 200, false);           /* three lines and a tail */
		put_good(c, T_DM0, 2047 - o, 1, false);         /* one byte */
		put_good(c, T_DM0, 3000, 0, false);             /* nothing */
		put_good(c, T_DM1, 64 * (round + 1), 64, false); /* the other DM's MR */
		put_good(c, T_DM1, 4096 - 64, 64, false);       /* the last line of the MR */
		put_good(c, T_DM0, 0 + 8 + o, 16, false);       /* over the first line, after it */
		put_good(c, T_HOST, 100 + o, 40, false);        /* a host MR */
		put_good(c, T_DM0, 3072 + 32 + o, 64, false);   /* a line's worth, unaligned */
		idx = put_good(c, T_DM0, 512 + 60, 8, true);    /* across a line boundary */
		ring(c);
		check_cqe(c, idx, 0, 0);
		check_all(c);
		/* The general path between short ones. */
		put_good(c, T_DM0, 700, 64, false);
		put_ptr(c, 700 + 3 + o, 0, 10);                 /* inside a line, part words */
		put_good(c, T_DM0, 704, 8, false);
		put_ptr(c, 2100 + o, 64, 300);                  /* across five lines */
		idx = put_good(c, T_DM0, 2110, 16, true);
		ring(c);
		check_cqe(c, idx, 0, 0);
		assert_null(tring_poll(&c->r));                 /* unsignalled: no CQE */
		check_all(c);
	}
	assert_true(c->r.pi > 64);                              /* the SQ did wrap */
	/* One of four WQEBBs that certainly straddles the SQ's end (NOPs up to slot 62). */
	while ((c->r.pi & 63) != 62) {
		uint8_t nop[16] = { 0 };

		tring_ctrl(&c->r, nop, 0, 0x00, 1, false, 0);
		tring_put(&c->r, nop, sizeof(nop));
	}
	idx = put_good(c, T_DM0, 1536 + 16, 200, true);
	ring(c);
	check_cqe(c, idx, 0, 0);
	check_all(c);
	assert_int_equal(qp_state(c), 3);
}

/*
 * Batches of one-WQEBB WQEs nearly as long as the SQ (62 of 64 WQEBBs),
 * longer than the executor's window of ICM prefetches, so that window
 * slides along the batch: short WRITEs to both DMs, some words written
 * twice in one batch (the later WQE must win), general-path WQEs between
 * them, and a run of general-path WQEs longer than the window followed by
 * short ones. Every byte lands, in WQE order; only the last WQE asks for
 * a CQE.
 */
static void
test_long_batch(void **state)
{
	struct wctx *c = *state;
	unsigned int round, i;
	uint16_t idx = 0;

	for (round = 0; round < 3; round++) {
		for (i = 0; i < 62; i++) {
			bool last = i == 61;
			uint64_t va = 64 * (i % 24) + 8 * (i % 3);

			if (round == 2 && i < 34)
				put_ptr(c, 3072 + 8 * i, 8 * i, 8); /* a run of general ones */
			else if (round < 2 && i % 9 == 4 && !last)
				put_ptr(c, va, 8 * i, 8);   /* the general path among short ones */
			else
				idx = put_good(c, i % 2 == 0 ? T_DM0 : T_DM1, va, 8, last);
		}
		ring(c);
		check_cqe(c, idx, 0, 0);
		assert_null(tring_poll(&c->r));
		check_all(c);
	}
	assert_int_equal(qp_state(c), 3);
}

/*
 * Two MRs whose keys map to the same slot of the executor's target cache,
 * used alternately in one batch, and a third key of the same slot: every
 * write lands in its own MR, relative to the MR's own start and length.
 */
static void
test_shared_slot(void **state)
{
	struct wctx *c = *state;
	unsigned int i, j, a = 0, b = 0, n;
	uint8_t data[64];
	uint16_t idx = 0;

	/* Nine MRs, eight slots (MR index modulo 8): two share one. */
	for (i = 0; i < NSLOT_MRS && b == 0; i++)
		for (j = i + 1; j < NSLOT_MRS; j++)
			if (((c->smr[i]->rkey >> 8) & 7) == ((c->smr[j]->rkey >> 8) & 7)) {
				a = i;
				b = j;
				break;
			}
	assert_true(b != 0);
	for (n = 0; n < 8; n++) {
		unsigned int m = n % 2 ? b : a;
		uint64_t va = (n / 2) * 64;

		idx = put_write(c, va, c->smr[m]->rkey, 64, 0, n == 7, data);
		memcpy(c->want[T_SLOT] + (size_t)SLOT_MR_BYTES * m + va, data, 64);
	}
	ring(c);
	check_cqe(c, idx, 0, 0);
	check_all(c);
	/* The same key again, but past the MR's 256 bytes (the DM goes on): refused. */
	put_write(c, 0, c->smr[a]->rkey, 64, 0, false, data);
	memcpy(c->want[T_SLOT] + (size_t)SLOT_MR_BYTES * a, data, 64);
	idx = put_write(c, SLOT_MR_BYTES - 32, c->smr[a]->rkey, 64, 0, false, data);
	ring(c);
	check_cqe(c, idx, 0x13, 2);
	check_all(c);
}

/* One refusal in the middle of a batch. */
struct bad {
	const char *what;
	uint8_t synd, vendor;
};

/*
 * Post a good write (it lands), the bad WQE built by kind, and another good
 * write (flushed); ring once and check the three CQEs and every byte.
 */
static void
run_bad(struct wctx *c, unsigned int kind, const struct bad *b)
{
	uint32_t key = c->d[0].mr->rkey;
	uint8_t data[64 * 16];
	uint16_t idx, flushed;

	put_good(c, T_DM0, 64, 64, false);
	idx = c->r.pi;
	switch (kind) {
	case 0: /* the key of a cached MR with another variant: same slot, no MR */
		put_write(c, 0, key ^ 0x1, 64, 0, false, data);
		break;
	case 1: /* a key that names nothing */
		put_write(c, 0, 0x00abcdef, 64, 0, false, data);
		break;
	case 2: /* an MR of another PD */
		put_write(c, 0, c->d[1].mr->rkey, 64, 0, false, data);
		break;
	case 3: /* past the MR's end */
		put_write(c, DM_BYTES - 32, key, 64, 0, false, data);
		break;
	case 4: /* starting at its end */
		put_write(c, DM_BYTES, key, 1, 0, false, data);
		break;
	case 5: /* far beyond: offset + length would wrap */
		put_write(c, UINT64_MAX - 7, key, 64, 0, false, data);
		break;
	case 6: /* below a host MR's start */
		put_write(c, (uintptr_t)c->host - 64, c->hmr->rkey, 64, 0, false, data);
		break;
	case 7: /* an MR without remote write */
		put_write(c, 0, c->d[1].mr->rkey, 64, 0, false, data);
		break;
	case 8: /* an inline length longer than its segments (5 DS hold 44 bytes) */
		put_write(c, 0, key, 64, 5, false, data);
		break;
	case 9: /* a control segment naming another QP */
		put_write(c, 0, key, 64, 0, false, data);
		SET(c->r.sq + (size_t)(idx & 63) * 64, 0x20, 24, c->r.qpn + 1);
		break;
	case 10: /* a host MR whose range wraps past 2^64: va 8 is below its start */
		put_write(c, 8, c->wrap_mr->rkey, 64, 0, false, data);
		break;
	default: /* rung up to the middle of the WQE: it never completes */
		put_write(c, 0, key, 64, 0, false, data);
		c->r.pi--;
		break;
	}
	flushed = c->r.pi;
	if (kind <= 10)
		put_write(c, 128, key, 64, 0, false, data);     /* not applied to the shadow */
	ring(c);
	check_cqe(c, idx, b->synd, b->vendor);
	if (kind <= 10)
		check_cqe(c, flushed, 0x05, 0);
	assert_null(tring_poll(&c->r));
	assert_int_equal(qp_state(c), 6);
	check_all(c);
}

static void
test_refusals(void **state)
{
	static const struct bad bads[] = {
		{ "stale variant", 0x13, 1 }, { "no such key", 0x13, 1 },
		{ "other PD", 0x13, 1 }, { "past the end", 0x13, 2 },
		{ "at the end", 0x13, 2 }, { "wrapping", 0x13, 2 },
		{ "below start", 0x13, 2 }, { "no remote write", 0x13, 3 },
		{ "inline too long", 0x01, 8 }, { "other QP", 0x02, 10 },
		{ "wrapping host MR", 0x13, 2 }, { "partial", 0x02, 13 },
	};
	struct wctx *c = *state;
	unsigned int k;

	for (k = 0; k < sizeof(bads) / sizeof(bads[0]); k++) {
		struct tsim *t = &c->t;
		struct ibv_pd *pd2 = NULL;

		print_message("refusal: %s\n", bads[k].what);
		if (k == 2 || k == 7) {
			/* DM 1 re-registered: in another PD (2), or without remote write (7). */
			t->ops->dereg_mr(c->d[1].mr);
			pd2 = k == 2 ? t->ops->alloc_pd(t->ctx) : NULL;
			c->d[1].mr = t->ops->reg_dm_mr(k == 2 ? pd2 : t->pd, c->d[1].dm, 0,
						       DM_BYTES, IBV_ACCESS_ZERO_BASED |
						       IBV_ACCESS_LOCAL_WRITE |
						       (k == 2 ? IBV_ACCESS_REMOTE_WRITE : 0) |
						       IBV_ACCESS_REMOTE_READ);
			assert_non_null(c->d[1].mr);
		}
		run_bad(c, k, &bads[k]);
		if (k == 2 || k == 7) {
			t->ops->dereg_mr(c->d[1].mr);
			if (pd2 != NULL)
				assert_int_equal(t->ops->dealloc_pd(pd2), 0);
			c->d[1].mr = t->ops->reg_dm_mr(t->pd, c->d[1].dm, 0, DM_BYTES,
						       IBV_ACCESS_ZERO_BASED |
						       IBV_ACCESS_LOCAL_WRITE |
						       IBV_ACCESS_REMOTE_WRITE |
						       IBV_ACCESS_REMOTE_READ);
			assert_non_null(c->d[1].mr);
		}
		/* A fresh QP for the next case (this one is in error). */
		tring_destroy(&c->r);
		assert_int_equal(tring_create(t, &c->r, 6, 6, 3), 0);
	}
}

/* A key used by one doorbell, then deregistered: the next doorbell refuses it. */
static void
test_stale_key_across_doorbells(void **state)
{
	struct wctx *c = *state;
	uint32_t old = c->d[1].mr->rkey;
	uint8_t data[64];
	uint16_t idx;

	idx = put_good(c, T_DM1, 0, 64, true);
	ring(c);
	check_cqe(c, idx, 0, 0);
	c->t.ops->dereg_mr(c->d[1].mr);
	c->d[1].mr = c->t.ops->reg_dm_mr(c->t.pd, c->d[1].dm, 0, DM_BYTES, IBV_ACCESS_ZERO_BASED |
					 IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	assert_non_null(c->d[1].mr);
	assert_int_not_equal(c->d[1].mr->rkey, old);
	idx = put_write(c, 0, old, 64, 0, true, data);
	ring(c);
	check_cqe(c, idx, 0x13, 1);
	check_all(c);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_shapes, wsetup, wteardown),
		cmocka_unit_test_setup_teardown(test_long_batch, wsetup, wteardown),
		cmocka_unit_test_setup_teardown(test_shared_slot, wsetup, wteardown),
		cmocka_unit_test_setup_teardown(test_refusals, wsetup, wteardown),
		cmocka_unit_test_setup_teardown(test_stale_key_across_doorbells, wsetup,
						wteardown),
	};

	return cmocka_run_group_tests_name("sim_wqe_write", tests, NULL, NULL);
}
