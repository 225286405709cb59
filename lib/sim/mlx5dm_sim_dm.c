/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Device memory of the model: PDs, SW ICM allocation per DM type with the
 * kernel's rules (mlx5_ib handle_alloc_dm_sw_icm + mlx5_dm_sw_icm_alloc),
 * memory regions over DMs (zero-based, SW_ICM access mode) and over host
 * memory, and mlx5dv_init_obj for the DM's ICM address and the PD number.
 *
 * Allocation rule: length rounded up to the SW ICM block
 * (2^log_sw_icm_alloc_granularity) and then to a power of two; a first-fit
 * search over the type's block bitmap with the start aligned to
 * max(log_align_req, block); ENOMEM when no run of free blocks is left.
 * The returned ICM address is the type's start address + block * block size.
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_sim_core.h"

#define MLX5DM_SIM_MR_ACCESS (IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | \
			      IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC)

#define MLX5DM_SIM_CONTAINER(p, type, member) \
	((type *)(void *)((uint8_t *)(p) - offsetof(type, member)))

/* The model object around a verbs object handed back by the caller, or NULL. */
#define MLX5DM_SIM_OF(p, type, member, kind) \
	((p) == NULL ? NULL : \
	 (type *)(void *)mlx5dm_sim_obj_check(MLX5DM_SIM_CONTAINER(p, type, member), kind))

struct mlx5dm_sim_pd *
mlx5dm_sim_pd_of(struct ibv_pd *pd)
{
	return MLX5DM_SIM_OF(pd, struct mlx5dm_sim_pd, pd, MLX5DM_SIM_K_PD);
}

static struct mlx5dm_sim_dm *
mlx5dm_sim_dm_of(struct ibv_dm *dm)
{
	return MLX5DM_SIM_OF(dm, struct mlx5dm_sim_dm, dm, MLX5DM_SIM_K_DM);
}

static struct mlx5dm_sim_mr *
mlx5dm_sim_mr_of(struct ibv_mr *mr)
{
	return MLX5DM_SIM_OF(mr, struct mlx5dm_sim_mr, mr, MLX5DM_SIM_K_MR);
}

struct ibv_pd *
mlx5dm_sim_alloc_pd(struct ibv_context *ctx)
{
	struct mlx5dm_sim *sim = mlx5dm_sim_from_ctx(ctx);
	struct mlx5dm_sim_pd *p;

	pthread_rwlock_wrlock(&sim->lock);
	p = mlx5dm_sim_obj_new(sim, MLX5DM_SIM_K_PD, sizeof(*p));
	if (p != NULL) {
		p->pd.context = ctx;
		p->pd.handle = p->h.id;
	}
	pthread_rwlock_unlock(&sim->lock);
	return p != NULL ? &p->pd : NULL;
}

int
mlx5dm_sim_dealloc_pd(struct ibv_pd *pd)
{
	struct mlx5dm_sim_pd *p = mlx5dm_sim_pd_of(pd);
	struct mlx5dm_sim *sim;
	int ret = 0;

	if (p == NULL)
		return errno = EINVAL;
	sim = p->h.sim;
	pthread_rwlock_wrlock(&sim->lock);
	if (p->h.refs != 0)
		ret = EBUSY; /* MRs, QPs or argument objects still use it */
	else
		mlx5dm_sim_obj_free(sim, p);
	pthread_rwlock_unlock(&sim->lock);
	if (ret != 0)
		errno = ret;
	return ret;
}

/* SW ICM is not mapped into the process: the memcpy helpers do not apply. */
static int
mlx5dm_sim_dm_memcpy_to(struct ibv_dm *dm, uint64_t off, const void *src, size_t len)
{
	(void)dm;
	(void)off;
	(void)src;
	(void)len;
	return EOPNOTSUPP;
}

static int
mlx5dm_sim_dm_memcpy_from(void *dst, struct ibv_dm *dm, uint64_t off, size_t len)
{
	(void)dst;
	(void)dm;
	(void)off;
	(void)len;
	return EOPNOTSUPP;
}

static int
mlx5dm_sim_dm_place(struct mlx5dm_sim *sim, struct mlx5dm_sim_dm *d, uint64_t length,
		    uint32_t log_align)
{
	struct mlx5dm_sim_region *g = &sim->region[d->region];
	uint64_t block = 1ull << g->log_block;
	uint64_t act = MLX5DM_ALIGN_UP(length, block);
	int64_t idx;

	act = 1ull << mlx5dm_log2_ceil(act);
	if (act > g->size)
		return ENOMEM;
	if (log_align < g->log_block)
		log_align = g->log_block;
	if (log_align >= 48)
		return EINVAL;
	idx = mlx5dm_sim_bitmap_find_area(&g->blocks, act >> g->log_block,
					  1ull << (log_align - g->log_block));
	if (idx < 0)
		return ENOMEM;
	mlx5dm_sim_bitmap_set(&g->blocks, (uint64_t)idx, act >> g->log_block, true);
	__atomic_fetch_add(&g->live, act >> g->log_block, __ATOMIC_RELAXED);
	d->off = (uint64_t)idx << g->log_block;
	d->size = act;
	d->length = length;
	return 0;
}

struct ibv_dm *
mlx5dm_sim_alloc_dm(struct ibv_context *ctx, struct ibv_alloc_dm_attr *attr,
		    struct mlx5dv_alloc_dm_attr *mlx5_attr)
{
	struct mlx5dm_sim *sim = mlx5dm_sim_from_ctx(ctx);
	struct mlx5dm_sim_dm *d = NULL;
	unsigned int type;
	int ret = 0;

	if (attr == NULL || mlx5_attr == NULL || attr->comp_mask != 0 ||
	    mlx5_attr->comp_mask != 0 || attr->length == 0) {
		errno = EINVAL;
		return NULL;
	}
	type = (unsigned int)mlx5_attr->type;
	/* MEMIC (0) is not modelled; types 1..4 are the SW ICM regions. */
	if (type < 1 || type > 4 || sim->region[type - 1].size == 0 ||
	    (type == MLX5DV_DM_TYPE_HEADER_MODIFY_PATTERN_SW_ICM &&
	     sim->cfg.steering_format_version == 0) ||
	    (type == MLX5DV_DM_TYPE_ENCAP_SW_ICM && sim->cfg.refuse_encap_dm)) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	pthread_rwlock_wrlock(&sim->lock);
	d = mlx5dm_sim_obj_new(sim, MLX5DM_SIM_K_DM, sizeof(*d));
	if (d == NULL) {
		ret = errno;
		goto unlock;
	}
	d->region = (enum mlx5dm_sim_region_kind)(type - 1);
	ret = mlx5dm_sim_dm_place(sim, d, attr->length, attr->log_align_req);
	if (ret != 0) {
		mlx5dm_sim_obj_free(sim, d);
		d = NULL;
		goto unlock;
	}
	d->dm.context = ctx;
	d->dm.handle = d->h.id;
	d->dm.memcpy_to_dm = mlx5dm_sim_dm_memcpy_to;
	d->dm.memcpy_from_dm = mlx5dm_sim_dm_memcpy_from;
unlock:
	pthread_rwlock_unlock(&sim->lock);
	if (d == NULL) {
		errno = ret;
		return NULL;
	}
	return &d->dm;
}

int
mlx5dm_sim_free_dm(struct ibv_dm *dm)
{
	struct mlx5dm_sim_dm *d = mlx5dm_sim_dm_of(dm);
	struct mlx5dm_sim *sim;
	struct mlx5dm_sim_region *g;

	if (d == NULL)
		return errno = EINVAL;
	sim = d->h.sim;
	g = &sim->region[d->region];
	pthread_rwlock_wrlock(&sim->lock);
	if (d->h.refs != 0) {
		pthread_rwlock_unlock(&sim->lock);
		return errno = EBUSY; /* registered MRs hold it */
	}
	mlx5dm_sim_bitmap_set(&g->blocks, d->off >> g->log_block, d->size >> g->log_block, false);
	__atomic_fetch_sub(&g->live, d->size >> g->log_block, __ATOMIC_RELAXED);
	mlx5dm_sim_region_discard(sim, d->region, d->off, d->size);
	mlx5dm_sim_obj_free(sim, d);
	pthread_rwlock_unlock(&sim->lock);
	return 0;
}

static struct mlx5dm_sim_mr *
mlx5dm_sim_mr_new(struct mlx5dm_sim *sim, struct mlx5dm_sim_pd *p, unsigned int access)
{
	static uint32_t variant;
	struct mlx5dm_sim_mr *m = mlx5dm_sim_obj_new(sim, MLX5DM_SIM_K_MR, sizeof(*m));

	if (m == NULL)
		return NULL;
	/* mkey = index << 8 | variant, so a stale key of a reused index misses. */
	m->key = (m->h.id << 8) | (__atomic_add_fetch(&variant, 1, __ATOMIC_RELAXED) & 0xff);
	m->pd = p;
	m->access = access;
	m->mr.context = p->pd.context;
	m->mr.pd = &p->pd;
	m->mr.handle = m->h.id;
	m->mr.lkey = m->key;
	m->mr.rkey = m->key;
	p->h.refs++;
	return m;
}

static bool
mlx5dm_sim_access_ok(unsigned int access, unsigned int allowed)
{
	if (access & ~allowed)
		return false;
	/* Verbs rule: remote write or atomic needs local write. */
	if ((access & (IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_ATOMIC)) &&
	    !(access & IBV_ACCESS_LOCAL_WRITE))
		return false;
	return true;
}

struct ibv_mr *
mlx5dm_sim_reg_dm_mr(struct ibv_pd *pd, struct ibv_dm *dm, uint64_t dm_offset, size_t length,
		     unsigned int access)
{
	struct mlx5dm_sim_pd *p = mlx5dm_sim_pd_of(pd);
	struct mlx5dm_sim_dm *d = mlx5dm_sim_dm_of(dm);
	struct mlx5dm_sim_mr *m = NULL;
	struct mlx5dm_sim *sim;

	if (p == NULL || d == NULL || p->h.sim != d->h.sim || length == 0 ||
	    !(access & IBV_ACCESS_ZERO_BASED) ||
	    !mlx5dm_sim_access_ok(access, MLX5DM_SIM_MR_ACCESS | IBV_ACCESS_ZERO_BASED) ||
	    dm_offset > d->size || length > d->size - dm_offset) {
		errno = EINVAL;
		return NULL;
	}
	sim = p->h.sim;
	pthread_rwlock_wrlock(&sim->lock);
	m = mlx5dm_sim_mr_new(sim, p, access);
	if (m != NULL) {
		m->dm = d;
		m->dm_off = d->off + dm_offset;
		m->mr.addr = NULL; /* zero-based: RDMA address 0 is dm_offset */
		m->mr.length = length;
		d->h.refs++;
	}
	pthread_rwlock_unlock(&sim->lock);
	return m != NULL ? &m->mr : NULL;
}

struct ibv_mr *
mlx5dm_sim_reg_mr(struct ibv_pd *pd, void *addr, size_t length, int access)
{
	struct mlx5dm_sim_pd *p = mlx5dm_sim_pd_of(pd);
	struct mlx5dm_sim_mr *m;
	struct mlx5dm_sim *sim;

	if (p == NULL || addr == NULL || length == 0 || access < 0 ||
	    !mlx5dm_sim_access_ok((unsigned int)access, MLX5DM_SIM_MR_ACCESS)) {
		errno = EINVAL;
		return NULL;
	}
	sim = p->h.sim;
	pthread_rwlock_wrlock(&sim->lock);
	m = mlx5dm_sim_mr_new(sim, p, (unsigned int)access);
	if (m != NULL) {
		m->mr.addr = addr;
		m->mr.length = length;
	}
	pthread_rwlock_unlock(&sim->lock);
	return m != NULL ? &m->mr : NULL;
}

int
mlx5dm_sim_dereg_mr(struct ibv_mr *mr)
{
	struct mlx5dm_sim_mr *m = mlx5dm_sim_mr_of(mr);
	struct mlx5dm_sim *sim;

	if (m == NULL)
		return errno = EINVAL;
	sim = m->h.sim;
	pthread_rwlock_wrlock(&sim->lock);
	m->pd->h.refs--;
	if (m->dm != NULL)
		m->dm->h.refs--;
	mlx5dm_sim_obj_free(sim, m);
	pthread_rwlock_unlock(&sim->lock);
	return 0;
}

int
mlx5dm_sim_init_obj(struct mlx5dv_obj *obj, uint64_t obj_type)
{
	if (obj == NULL || (obj_type & ~(uint64_t)(MLX5DV_OBJ_DM | MLX5DV_OBJ_PD)) != 0)
		return errno = EOPNOTSUPP; /* CQs/QPs are DEVX objects on the model */
	if (obj_type & MLX5DV_OBJ_DM) {
		struct mlx5dm_sim_dm *d = mlx5dm_sim_dm_of(obj->dm.in);
		uint64_t mask = 0;

		if (d == NULL || obj->dm.out == NULL)
			return errno = EINVAL;
		obj->dm.out->buf = NULL;    /* SW ICM is not mapped */
		obj->dm.out->length = d->length;
		if (obj->dm.out->comp_mask & MLX5DV_DM_MASK_REMOTE_VA) {
			obj->dm.out->remote_va = d->h.sim->region[d->region].icm_start + d->off;
			mask |= MLX5DV_DM_MASK_REMOTE_VA;
		}
		obj->dm.out->comp_mask = mask;
	}
	if (obj_type & MLX5DV_OBJ_PD) {
		struct mlx5dm_sim_pd *p = mlx5dm_sim_pd_of(obj->pd.in);

		if (p == NULL || obj->pd.out == NULL)
			return errno = EINVAL;
		obj->pd.out->pdn = p->h.id;
		obj->pd.out->comp_mask = 0;
	}
	return 0;
}
