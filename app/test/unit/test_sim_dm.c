/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * SW ICM device memory of the model: the kernel's allocation rules
 * (rounding to the block then to a power of two, first fit, alignment,
 * ENOMEM, free and reuse), per-type ranges, MRs over DMs and host memory,
 * lazy reservation of a large ICM, and its population at creation when the
 * configuration asks for it.
 */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cmocka.h>

#include "test_sim_util.h"
#include "mlx5dm_sim_core.h"
#include "test_rss.h"

static struct ibv_dm *
dm_alloc(struct tsim *t, unsigned int type, size_t len, uint32_t log_align, uint64_t *icm)
{
	struct ibv_alloc_dm_attr a = { .length = len, .log_align_req = log_align };
	struct mlx5dv_alloc_dm_attr ma = { .type = (enum mlx5dv_alloc_dm_type)type };
	struct mlx5dv_dm out = { .comp_mask = MLX5DV_DM_MASK_REMOTE_VA };
	struct mlx5dv_obj o;
	struct ibv_dm *dm = t->ops->alloc_dm(t->ctx, &a, &ma);

	if (dm == NULL)
		return NULL;
	memset(&o, 0, sizeof(o));
	o.dm.in = dm;
	o.dm.out = &out;
	assert_int_equal(t->ops->init_obj(&o, MLX5DV_OBJ_DM), 0);
	assert_int_equal(out.comp_mask, MLX5DV_DM_MASK_REMOTE_VA);
	assert_null(out.buf);
	assert_int_equal(out.length, len);
	*icm = out.remote_va;
	return dm;
}

static void
test_dm_rules(void **state)
{
	const struct mlx5dm_sim_caps *caps;
	struct mlx5dm_sim_config cfg;
	struct ibv_dm *a, *b, *c, *d, *many[16];
	uint64_t ia, ib, ic, id, im[16], probe;
	unsigned int i, n;
	struct tsim t;

	(void)state;
	mlx5dm_sim_config_default(&cfg);
	cfg.log_steering_sw_icm_size = 16;          /* 64 KiB = 16 blocks of 4 KiB */
	assert_int_equal(tsim_open(&t, &cfg), 0);
	caps = mlx5dm_sim_caps(t.sim);
	/* 1 byte -> one 4 KiB block at the start of the steering range. */
	a = dm_alloc(&t, MLX5DV_DM_TYPE_STEERING_SW_ICM, 1, 0, &ia);
	assert_non_null(a);
	assert_true(ia == caps->steering_sw_icm_start);
	/* 5000 bytes -> 8 KiB (block, then power of two), first fit after block 0. */
	b = dm_alloc(&t, MLX5DV_DM_TYPE_STEERING_SW_ICM, 5000, 0, &ib);
	assert_non_null(b);
	assert_true(ib == caps->steering_sw_icm_start + 4096);
	/* 12 KiB -> 16 KiB, with 16 KiB alignment requested. */
	c = dm_alloc(&t, MLX5DV_DM_TYPE_STEERING_SW_ICM, 12288, 14, &ic);
	assert_non_null(c);
	assert_true(ic == caps->steering_sw_icm_start + 16384);
	/* Blocks 3 is still free: a 4 KiB DM lands there (first fit, no alignment asked). */
	d = dm_alloc(&t, MLX5DV_DM_TYPE_STEERING_SW_ICM, 4096, 0, &id);
	assert_non_null(d);
	assert_true(id == caps->steering_sw_icm_start + 3 * 4096);
	/* What a walk can read (loop bound): the lines of 1 + 2 + 4 + 1 allocated blocks. */
	assert_int_equal(mlx5dm_sim_icm_lines(t.sim), 8 * 4096 / 64);
	/* ICM reads: allocated -> 0, a hole -> -EFAULT. */
	assert_int_equal(mlx5dm_sim_icm_read(t.sim, ia, &probe, 8), 0);
	assert_int_equal(mlx5dm_sim_icm_read(t.sim, ic + 16384, &probe, 8), -EFAULT);
	/* With the GVMI in 63:48 (own vhca) the address is the same; another GVMI is not ours. */
	assert_int_equal(mlx5dm_sim_icm_read(t.sim, ia | (1ull << 48), &probe, 8), 0);
	assert_int_equal(mlx5dm_sim_icm_read(t.sim, ia | (2ull << 48), &probe, 8), -EFAULT);
	/* Exhaust the rest (32 KiB = 8 blocks) and get ENOMEM. */
	for (n = 0; n < 16; n++) {
		many[n] = dm_alloc(&t, MLX5DV_DM_TYPE_STEERING_SW_ICM, 4096, 0, &im[n]);
		if (many[n] == NULL)
			break;
	}
	assert_int_equal(n, 8);
	assert_int_equal(errno, ENOMEM);
	/* Free b (blocks 1-2) and get exactly that range back for an 8 KiB request. */
	assert_int_equal(t.ops->free_dm(b), 0);
	assert_int_equal(mlx5dm_sim_icm_read(t.sim, ib, &probe, 8), -EFAULT);
	b = dm_alloc(&t, MLX5DV_DM_TYPE_STEERING_SW_ICM, 8192, 0, &ib);
	assert_non_null(b);
	assert_true(ib == caps->steering_sw_icm_start + 4096);
	/* Too big for the whole range. */
	assert_null(dm_alloc(&t, MLX5DV_DM_TYPE_STEERING_SW_ICM, 1 << 17, 0, &probe));
	assert_int_equal(errno, ENOMEM);
	for (i = 0; i < n; i++)
		assert_int_equal(t.ops->free_dm(many[i]), 0);
	assert_int_equal(t.ops->free_dm(a), 0);
	assert_int_equal(t.ops->free_dm(b), 0);
	assert_int_equal(t.ops->free_dm(c), 0);
	assert_int_equal(t.ops->free_dm(d), 0);
	assert_int_equal(mlx5dm_sim_icm_lines(t.sim), 0);
	tsim_close(&t);
}

static void
test_dm_types(void **state)
{
	const struct mlx5dm_sim_caps *caps;
	struct mlx5dm_sim_config cfg;
	struct ibv_alloc_dm_attr a = { .length = 64 };
	struct mlx5dv_alloc_dm_attr ma = { .type = MLX5DV_DM_TYPE_MEMIC };
	struct ibv_dm *dm[4];
	uint64_t icm[4];
	unsigned int i;
	struct tsim t;

	(void)state;
	assert_int_equal(tsim_open(&t, NULL), 0);
	caps = mlx5dm_sim_caps(t.sim);
	for (i = 0; i < 4; i++) {
		dm[i] = dm_alloc(&t, i + 1, 64, 0, &icm[i]);
		assert_non_null(dm[i]);
	}
	assert_true(icm[0] == caps->steering_sw_icm_start);
	assert_true(icm[1] == caps->header_modify_sw_icm_start);
	assert_true(icm[2] == caps->header_modify_pattern_sw_icm_start);
	assert_true(icm[3] == caps->indirect_encap_icm_base);
	for (i = 0; i < 4; i++)
		assert_int_equal(t.ops->free_dm(dm[i]), 0);
	/* MEMIC is not modelled; comp_mask must be 0. */
	assert_null(t.ops->alloc_dm(t.ctx, &a, &ma));
	assert_int_equal(errno, EOPNOTSUPP);
	ma.type = MLX5DV_DM_TYPE_STEERING_SW_ICM;
	a.comp_mask = 1;
	assert_null(t.ops->alloc_dm(t.ctx, &a, &ma));
	assert_int_equal(errno, EINVAL);
	tsim_close(&t);
	/* A type the configuration leaves out. */
	mlx5dm_sim_config_default(&cfg);
	cfg.log_indirect_encap_sw_icm_size = 0;
	assert_int_equal(tsim_open(&t, &cfg), 0);
	a.comp_mask = 0;
	ma.type = (enum mlx5dv_alloc_dm_type)MLX5DV_DM_TYPE_ENCAP_SW_ICM;
	assert_null(t.ops->alloc_dm(t.ctx, &a, &ma));
	assert_int_equal(errno, EOPNOTSUPP);
	tsim_close(&t);
}

static void
test_dm_mr(void **state)
{
	struct ibv_alloc_dm_attr a = { .length = 8192 };
	struct mlx5dv_alloc_dm_attr ma = { .type = MLX5DV_DM_TYPE_STEERING_SW_ICM };
	unsigned int acc = IBV_ACCESS_ZERO_BASED | IBV_ACCESS_LOCAL_WRITE |
			   IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ;
	struct ibv_mr *mr, *hmr;
	struct ibv_dm *dm;
	uint8_t host[256];
	struct tsim t;

	(void)state;
	assert_int_equal(tsim_open(&t, NULL), 0);
	dm = t.ops->alloc_dm(t.ctx, &a, &ma);
	assert_non_null(dm);
	/* Not zero-based, past the end, remote write without local write: EINVAL. */
	assert_null(t.ops->reg_dm_mr(t.pd, dm, 0, 4096, acc & ~IBV_ACCESS_ZERO_BASED));
	assert_int_equal(errno, EINVAL);
	assert_null(t.ops->reg_dm_mr(t.pd, dm, 4096, 8192, acc));
	assert_int_equal(errno, EINVAL);
	assert_null(t.ops->reg_dm_mr(t.pd, dm, 0, 4096, acc & ~IBV_ACCESS_LOCAL_WRITE));
	assert_int_equal(errno, EINVAL);
	mr = t.ops->reg_dm_mr(t.pd, dm, 4096, 4096, acc);
	assert_non_null(mr);
	assert_null(mr->addr);                  /* zero-based */
	assert_int_equal(mr->length, 4096);
	assert_int_equal(mr->lkey, mr->rkey);
	assert_ptr_equal(mr->pd, t.pd);
	/* The DM and the PD are busy while the MR exists. */
	assert_int_equal(t.ops->free_dm(dm), EBUSY);
	assert_int_equal(t.ops->dealloc_pd(t.pd), EBUSY);
	hmr = t.ops->reg_mr(t.pd, host, sizeof(host), IBV_ACCESS_LOCAL_WRITE);
	assert_non_null(hmr);
	assert_ptr_equal(hmr->addr, host);
	assert_int_not_equal(hmr->lkey, mr->lkey);
	assert_int_equal(t.ops->dereg_mr(hmr), 0);
	assert_int_equal(t.ops->dereg_mr(mr), 0);
	assert_int_equal(t.ops->free_dm(dm), 0);
	tsim_close(&t);
}

static void
test_dm_lazy_large(void **state)
{
	struct mlx5dm_sim_config cfg;
	struct ibv_dm *dm;
	uint64_t icm, v = 0;
	struct tsim t;

	(void)state;
	/* 64 GiB of steering ICM costs nothing until written (MAP_NORESERVE). */
	mlx5dm_sim_config_default(&cfg);
	cfg.log_steering_sw_icm_size = 36;
	assert_int_equal(tsim_open(&t, &cfg), 0);
	dm = dm_alloc(&t, MLX5DV_DM_TYPE_STEERING_SW_ICM, 1ull << 34, 0, &icm);
	assert_non_null(dm);
	assert_int_equal(mlx5dm_sim_icm_read(t.sim, icm + (1ull << 34) - 8, &v, 8), 0);
	assert_true(v == 0);
	assert_int_equal(t.ops->free_dm(dm), 0);
	tsim_close(&t);
}

/*
 * icm_populate: the STE, modify, pattern and encap regions are resident as
 * soon as the instance exists (the argument store is not, it is host
 * memory of another kind); without it creating the instance backs none of
 * them. Closing gives the memory back either way.
 */
static void
test_dm_icm_populate(void **state)
{
	struct mlx5dm_sim_config cfg;
	uint64_t rss0, rss1, icm, sw_icm, v = 1;
	struct ibv_dm *dm;
	unsigned int pop;
	struct tsim t;

	(void)state;
	mlx5dm_sim_config_default(&cfg);
	cfg.log_steering_sw_icm_size = 26;          /* 64 MiB */
	sw_icm = (1ull << cfg.log_steering_sw_icm_size) +
		 (1ull << cfg.log_header_modify_sw_icm_size) +
		 (1ull << cfg.log_header_modify_pattern_sw_icm_size) +
		 (1ull << cfg.log_indirect_encap_sw_icm_size);
	for (pop = 0; pop < 2; pop++) {
		cfg.icm_populate = pop != 0;
		rss0 = test_rss_bytes();
		assert_int_equal(tsim_open(&t, &cfg), 0);
		rss1 = test_rss_bytes();
		if (pop) {
			if (rss1 < rss0 + sw_icm)
				fail_msg("populated: RSS grew by %llu bytes, SW ICM is %llu",
					 (unsigned long long)(rss1 - rss0),
					 (unsigned long long)sw_icm);
			/* Not the 256 MiB argument store. */
			assert_true(rss1 < rss0 + sw_icm + (64u << 20));
		} else if (rss1 > rss0 + (16u << 20)) {
			fail_msg("not populated: RSS grew by %llu bytes",
				 (unsigned long long)(rss1 - rss0));
		}
		/* Either way the ICM works and reads zero where nothing was written. */
		dm = dm_alloc(&t, MLX5DV_DM_TYPE_STEERING_SW_ICM, 1u << 20, 0, &icm);
		assert_non_null(dm);
		assert_int_equal(mlx5dm_sim_icm_read(t.sim, icm + (1u << 20) - 8, &v, 8), 0);
		assert_true(v == 0);
		assert_int_equal(t.ops->free_dm(dm), 0);
		tsim_close(&t);
		assert_true(test_rss_bytes() < rss0 + (16u << 20));
	}
}

/* Whether every page (all true) or no page (all false) of [p, p + len) is resident. */
static bool
pages_resident(const uint8_t *p, size_t len, bool all)
{
	unsigned char vec[512];
	size_t off, i;

	for (off = 0; off < len; off += sizeof(vec) * 4096) {
		size_t n = (len - off) / 4096 < sizeof(vec) ? (len - off) / 4096 : sizeof(vec);

		assert_int_equal(mincore((void *)(uintptr_t)(p + off), n * 4096, vec), 0);
		for (i = 0; i < n; i++)
			if (((vec[i] & 1) != 0) != all)
				return false;
	}
	return true;
}

/*
 * Resident ICM stays device memory: a DM range freed is zeroed in place
 * (it reads zero when taken again) and stays resident; written bytes are
 * read back as written.
 */
static void
test_dm_icm_resident_reuse(void **state)
{
	const uint64_t mib = 1u << 20;
	static const uint8_t pat[64] = { 0xde, 0xad, 0xbe, 0xef, [63] = 0x77 };
	struct mlx5dm_sim_config cfg;
	uint64_t icm, icm2;
	uint8_t back[64];
	struct ibv_dm *dm;
	struct tsim t;
	uint8_t *ste;

	(void)state;
	mlx5dm_sim_config_default(&cfg);
	cfg.log_steering_sw_icm_size = 26;          /* 64 MiB */
	cfg.icm_populate = true;
	assert_int_equal(tsim_open(&t, &cfg), 0);
	ste = t.sim->region[MLX5DM_SIM_REGION_STE].base;
	assert_true(pages_resident(ste, 64 * mib, true));
	dm = dm_alloc(&t, MLX5DV_DM_TYPE_STEERING_SW_ICM, 16 * mib, 0, &icm);
	assert_non_null(dm);
	/* Written as the send queue writes (SW ICM takes no memcpy_to_dm). */
	mlx5dm_sim_region_write(t.sim, MLX5DM_SIM_REGION_STE, icm & (64 * mib - 1), pat,
				sizeof(pat));
	mlx5dm_sim_region_write(t.sim, MLX5DM_SIM_REGION_STE, (icm & (64 * mib - 1)) + 12 * mib,
				pat, sizeof(pat));
	assert_int_equal(mlx5dm_sim_icm_read(t.sim, icm, back, sizeof(back)), 0);
	assert_memory_equal(back, pat, sizeof(pat));
	assert_int_equal(t.ops->free_dm(dm), 0);
	assert_true(pages_resident(ste, 64 * mib, true));
	dm = dm_alloc(&t, MLX5DV_DM_TYPE_STEERING_SW_ICM, 16 * mib, 0, &icm2);
	assert_non_null(dm);
	assert_true(icm2 == icm);
	assert_int_equal(mlx5dm_sim_icm_read(t.sim, icm, back, sizeof(back)), 0);
	assert_true(back[0] == 0 && back[63] == 0);
	assert_int_equal(mlx5dm_sim_icm_read(t.sim, icm + 12 * mib, back, sizeof(back)), 0);
	assert_true(back[0] == 0 && back[63] == 0);
	assert_int_equal(t.ops->free_dm(dm), 0);
	tsim_close(&t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dm_rules),
		cmocka_unit_test(test_dm_types),
		cmocka_unit_test(test_dm_mr),
		cmocka_unit_test(test_dm_lazy_large),
		cmocka_unit_test(test_dm_icm_populate),
		cmocka_unit_test(test_dm_icm_resident_reuse),
	};

	return cmocka_run_group_tests_name("sim_dm", tests, NULL, NULL);
}
