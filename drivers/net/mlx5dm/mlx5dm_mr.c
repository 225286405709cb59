/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Memory regions of a port's datapath, as DPDK's mlx5 PMD keeps them
 * (drivers/common/mlx5/mlx5_common_mr.c): each memory chunk of a mempool
 * is registered once in the port's PD; WQEs name a buffer by the lkey of
 * the chunk holding it. Registration is the control path (a system call
 * on hardware): at Rx queue set-up for its pool, and for a Tx mbuf whose
 * pool is new to the port, once, outside the burst's steady state.
 */

#include <errno.h>

#include <rte_mbuf.h>
#include <ethdev_driver.h>

#include "mlx5dm.h"
#include "mlx5dm_log.h"
#include "mlx5dm_steer.h"

struct mlx5dm_mr_reg_arg {
	struct mlx5dm_priv *priv;
	const struct rte_mempool *mp;
	uint32_t n;     /* entries written, not yet published */
	int ret;
};

static void
mlx5dm_mr_chunk_reg(struct rte_mempool *mp, void *opaque, struct rte_mempool_memhdr *hdr,
		    unsigned int idx __rte_unused)
{
	struct mlx5dm_mr_reg_arg *a = opaque;
	struct mlx5dm_mr_table *t = &a->priv->mrs;
	struct mlx5dm_mr_entry *e;
	struct mlx5dm_mr *mr;

	if (a->ret != 0)
		return;
	if (a->n >= MLX5DM_MR_MAX) {
		a->ret = -ENOSPC;
		return;
	}
	mr = mlx5dm_mr_reg(a->priv->steer, hdr->addr, hdr->len);
	if (mr == NULL) {
		a->ret = -errno;
		return;
	}
	e = &t->e[a->n++];
	e->start = (uintptr_t)hdr->addr;
	e->end = e->start + hdr->len;
	e->lkey = mlx5dm_mr_lkey(mr);
	e->mp = mp;
	e->mr = mr;
}

static bool
mlx5dm_mr_has_pool(struct mlx5dm_mr_table *t, const struct rte_mempool *mp)
{
	uint32_t i, n = __atomic_load_n(&t->n, __ATOMIC_ACQUIRE);

	for (i = 0; i < n; i++)
		if (t->e[i].mp == mp)
			return true;
	return false;
}

int
mlx5dm_mr_mempool_reg(struct mlx5dm_priv *priv, struct rte_mempool *mp)
{
	struct mlx5dm_mr_table *t = &priv->mrs;
	struct mlx5dm_mr_reg_arg a = { .priv = priv, .mp = mp };
	uint32_t i;

	rte_spinlock_lock(&t->lock);
	if (mlx5dm_mr_has_pool(t, mp)) {
		rte_spinlock_unlock(&t->lock);
		return 0;
	}
	a.n = t->n;
	rte_mempool_mem_iter(mp, mlx5dm_mr_chunk_reg, &a);
	if (a.ret != 0) {
		for (i = t->n; i < a.n; i++)
			mlx5dm_mr_dereg(t->e[i].mr);
		rte_spinlock_unlock(&t->lock);
		MLX5DM_DRV_LOG(ERR, "port %u: mempool %s: memory registration failed: %s",
			       priv->port_id, mp->name, rte_strerror(-a.ret));
		return a.ret;
	}
	__atomic_store_n(&t->n, a.n, __ATOMIC_RELEASE);
	rte_spinlock_unlock(&t->lock);
	MLX5DM_DRV_LOG(DEBUG, "port %u: mempool %s registered (%u chunks)", priv->port_id,
		       mp->name, mp->nb_mem_chunks);
	return 0;
}

static const struct mlx5dm_mr_entry *
mlx5dm_mr_find(struct mlx5dm_mr_table *t, uintptr_t addr)
{
	uint32_t i, n = __atomic_load_n(&t->n, __ATOMIC_ACQUIRE);

	for (i = 0; i < n; i++)
		if (addr - t->e[i].start < t->e[i].end - t->e[i].start)
			return &t->e[i];
	return NULL;
}

uint32_t
mlx5dm_mr_lkey_slow(struct mlx5dm_priv *priv, struct mlx5dm_mr_cache *cache,
		    struct rte_mbuf *m, uintptr_t addr)
{
	const struct mlx5dm_mr_entry *e = mlx5dm_mr_find(&priv->mrs, addr);

	if (e == NULL) {
		struct rte_mbuf *direct = m;

		/* Data of an indirect mbuf lives in its direct mbuf's pool. */
		if (RTE_MBUF_CLONED(m))
			direct = rte_mbuf_from_indirect(m);
		/* External buffers belong to no pool the PMD could register. */
		if (RTE_MBUF_HAS_EXTBUF(m) || direct->pool == NULL ||
		    mlx5dm_mr_mempool_reg(priv, direct->pool) != 0)
			return MLX5DM_MR_NONE;
		e = mlx5dm_mr_find(&priv->mrs, addr);
		if (e == NULL)
			return MLX5DM_MR_NONE;
	}
	cache->start = e->start;
	cache->end = e->end;
	cache->lkey = e->lkey;
	return e->lkey;
}

/* At close, after the queues are gone: the device no longer reads the memory. */
void
mlx5dm_mr_release_all(struct mlx5dm_priv *priv)
{
	struct mlx5dm_mr_table *t = &priv->mrs;
	uint32_t i;

	rte_spinlock_lock(&t->lock);
	for (i = 0; i < t->n; i++)
		if (mlx5dm_mr_dereg(t->e[i].mr) < 0)
			MLX5DM_DRV_LOG(ERR, "port %u: MR 0x%x: deregistration failed",
				       priv->port_id, t->e[i].lkey);
	__atomic_store_n(&t->n, 0, __ATOMIC_RELEASE);
	rte_spinlock_unlock(&t->lock);
}
