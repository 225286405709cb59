/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "mlx5dm_osdep.h"
#include "test_icm_fake.h"
#include "test_util.h"

struct fake_dev fake;
static pthread_mutex_t fake_lock = PTHREAD_MUTEX_INITIALIZER;
/* Stand-ins for verbs objects the pools only pass through. */
static char fake_ctx_obj, fake_pd_obj;

static struct ibv_dm *
fake_alloc_dm(struct ibv_context *ctx, struct ibv_alloc_dm_attr *attr,
	      struct mlx5dv_alloc_dm_attr *mattr)
{
	uint32_t type = (uint32_t)mattr->type;
	struct fake_dm *dm = NULL;
	uint64_t addr;

	pthread_mutex_lock(&fake_lock);
	fake.alloc_calls++;
	if (ctx != (struct ibv_context *)(void *)&fake_ctx_obj || type == 0 ||
	    type >= FAKE_DM_TYPES || attr->comp_mask != 0 || mattr->comp_mask != 0 ||
	    !MLX5DM_IS_POW2(attr->length)) {
		errno = EINVAL;
		goto out;
	}
	if (fake.fail_alloc_always ||
	    (fake.fail_alloc_at != 0 && --fake.fail_alloc_at == 0)) {
		errno = ENOMEM;
		goto out;
	}
	if (fake.ndms == FAKE_MAX_DMS) {
		errno = ENOSPC;
		goto out;
	}
	/* Naturally aligned unless told otherwise (a real device need not be). */
	addr = MLX5DM_ALIGN_UP(fake.next[type], (uint64_t)attr->length);
	if (fake.misalign_calls != 0) {
		fake.misalign_calls--;
		addr += fake.misalign_by;
	}
	fake.next[type] = addr + attr->length;
	dm = calloc(1, sizeof(*dm));
	assert_non_null(dm);
	dm->type = type;
	dm->addr = addr;
	dm->length = attr->length;
	dm->live = true;
	fake.dms[fake.ndms++] = dm;
	fake.live_dms++;
out:
	pthread_mutex_unlock(&fake_lock);
	return dm != NULL ? &dm->ibv : NULL;
}

static int
fake_free_dm(struct ibv_dm *ibv)
{
	struct fake_dm *dm = (struct fake_dm *)ibv;

	pthread_mutex_lock(&fake_lock);
	assert_true(dm->live);
	dm->live = false;
	fake.free_calls++;
	fake.live_dms--;
	pthread_mutex_unlock(&fake_lock);
	return 0;
}

static int
fake_init_obj(struct mlx5dv_obj *obj, uint64_t type)
{
	struct fake_dm *dm = (struct fake_dm *)obj->dm.in;

	pthread_mutex_lock(&fake_lock);
	fake.init_obj_calls++;
	assert_true(type == MLX5DV_OBJ_DM);
	assert_true(dm->live);
	obj->dm.out->length = dm->length;
	obj->dm.out->buf = NULL;
	if ((obj->dm.out->comp_mask & MLX5DV_DM_MASK_REMOTE_VA) && !fake.no_remote_va) {
		obj->dm.out->remote_va = dm->addr;
		obj->dm.out->comp_mask = MLX5DV_DM_MASK_REMOTE_VA;
	} else {
		obj->dm.out->comp_mask = 0;
	}
	pthread_mutex_unlock(&fake_lock);
	return 0;
}

static struct ibv_mr *
fake_reg_dm_mr(struct ibv_pd *pd, struct ibv_dm *ibv, uint64_t offset, size_t length,
	       unsigned int access)
{
	struct fake_dm *dm = (struct fake_dm *)ibv;
	struct fake_mr *mr = NULL;

	pthread_mutex_lock(&fake_lock);
	fake.reg_calls++;
	if (pd != fake.pd || !dm->live || offset + length > dm->length) {
		errno = EINVAL;
		goto out;
	}
	if (fake.fail_reg) {
		errno = EACCES;
		goto out;
	}
	mr = calloc(1, sizeof(*mr));
	assert_non_null(mr);
	mr->dm = dm;
	mr->dm_offset = offset;
	mr->access = access;
	/* Zero-based: the MR's address 0 is the DM's byte `offset`. */
	mr->ibv.addr = (access & IBV_ACCESS_ZERO_BASED) ? NULL : (void *)(uintptr_t)offset;
	mr->ibv.length = length;
	mr->ibv.pd = pd;
	mr->ibv.rkey = fake.next_rkey++;
	mr->ibv.lkey = mr->ibv.rkey;
	dm->mr = mr;
	fake.live_mrs++;
out:
	pthread_mutex_unlock(&fake_lock);
	return mr != NULL ? &mr->ibv : NULL;
}

static int
fake_dereg_mr(struct ibv_mr *ibv)
{
	struct fake_mr *mr = (struct fake_mr *)ibv;

	pthread_mutex_lock(&fake_lock);
	fake.dereg_calls++;
	fake.live_mrs--;
	/* The DM keeps a pointer for inspection; keep the MR until fake_fini. */
	mr->ibv.rkey = 0;
	pthread_mutex_unlock(&fake_lock);
	return 0;
}

static const struct mlx5dm_dev_ops fake_ops = {
	.name = "fake",
	.alloc_dm = fake_alloc_dm,
	.free_dm = fake_free_dm,
	.reg_dm_mr = fake_reg_dm_mr,
	.dereg_mr = fake_dereg_mr,
	.init_obj = fake_init_obj,
};

long
fake_live_allocs(void)
{
	return test_alloc_live();
}

void
fake_init(void)
{
	unsigned int t;

	memset(&fake, 0, sizeof(fake));
	fake.dev.ops = &fake_ops;
	fake.dev.ctx = (struct ibv_context *)(void *)&fake_ctx_obj;
	fake.pd = (struct ibv_pd *)(void *)&fake_pd_obj;
	fake.next_rkey = FAKE_RKEY_FIRST;
	for (t = 0; t < FAKE_DM_TYPES; t++)
		fake.next[t] = FAKE_ICM_BASE(t) + FAKE_ICM_FIRST_OFFSET;
	test_alloc_count_install();
}

void
fake_fini(void)
{
	unsigned int i;

	assert_int_equal(fake.live_dms, 0);
	assert_int_equal(fake.live_mrs, 0);
	for (i = 0; i < fake.ndms; i++) {
		free(fake.dms[i]->mr);
		free(fake.dms[i]);
	}
	fake.ndms = 0;
	mlx5dm_alloc_fail_at(0);
}

int
probe_sync(void *arg)
{
	struct sync_probe *p = arg;

	p->calls++;
	/* Taking the pool lock here proves the pool dropped it around the callback. */
	if (p->pool != NULL)
		mlx5dm_icm_pool_stats(p->pool, &p->in_sync);
	if (p->hook != NULL)
		p->hook_ret = p->hook(p);
	return p->ret;
}

void
log_capture_start(void)
{
	test_log_start();
}

void
log_capture_stop(void)
{
	test_log_stop();
}

int
log_errors(void)
{
	return test_log_errors();
}

const char *
log_last(void)
{
	return test_log_last();
}

struct mlx5dm_icm_pool_attr
fake_pool_attr(enum mlx5dm_icm_type type, uint8_t log_icm_size, struct sync_probe *probe)
{
	struct mlx5dm_icm_pool_attr a;

	memset(&a, 0, sizeof(a));
	a.type = type;
	a.dev = &fake.dev;
	a.pd = fake.pd;
	a.log_icm_size = log_icm_size;
	a.sync = probe_sync;
	a.sync_arg = probe;
	return a;
}

struct mlx5dm_icm_pool *
fake_pool_new(enum mlx5dm_icm_type type, uint8_t log_icm_size, uint64_t index_base,
	      struct sync_probe *probe)
{
	struct mlx5dm_icm_pool_attr a = fake_pool_attr(type, log_icm_size, probe);
	struct mlx5dm_icm_pool *pool;

	a.index_base = index_base;
	pool = mlx5dm_icm_pool_create(&a);
	assert_non_null(pool);
	if (probe != NULL)
		probe->pool = pool;
	return pool;
}
