/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Object numbers. Each kind has its own id space (qpn, cqn, tirn, table
 * ids, mkeys, ...) as on the device. Slots are handed out round-robin so
 * a freshly freed number is not reused at once: a stale id held by the
 * caller then fails cleanly instead of silently naming a new object.
 */

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "mlx5dm_sim_core.h"

int
mlx5dm_sim_idtab_init(struct mlx5dm_sim_idtab *t, uint32_t base, uint32_t max)
{
	memset(t, 0, sizeof(*t));
	t->base = base;
	t->max = max;
	return 0;
}

void
mlx5dm_sim_idtab_fini(struct mlx5dm_sim_idtab *t)
{
	mlx5dm_free(t->slot);
	t->slot = NULL;
	t->cap = 0;
}

static int
mlx5dm_sim_idtab_grow(struct mlx5dm_sim_idtab *t)
{
	uint32_t ncap = t->cap == 0 ? 64 : t->cap * 2;
	void **n;

	if (ncap > t->max)
		ncap = t->max;
	if (ncap <= t->cap)
		return -ENOSPC;
	n = mlx5dm_calloc(ncap, sizeof(*n));
	if (n == NULL)
		return -ENOMEM;
	if (t->cap != 0)
		memcpy(n, t->slot, t->cap * sizeof(*n));
	mlx5dm_free(t->slot);
	t->slot = n;
	t->cursor = t->cap;
	t->cap = ncap;
	return 0;
}

int
mlx5dm_sim_idtab_add(struct mlx5dm_sim_idtab *t, void *p, uint32_t *id)
{
	uint32_t i;
	int ret;

	/* Grow while less than a quarter is free, so the round-robin cursor finds room fast. */
	if (t->count + t->cap / 4 >= t->cap) {
		ret = mlx5dm_sim_idtab_grow(t);
		if (ret != 0 && t->count >= t->cap)
			return ret;
	}
	for (i = 0; i < t->cap; i++) {
		uint32_t s = (t->cursor + i) % t->cap;

		if (t->slot[s] == NULL) {
			t->slot[s] = p;
			t->cursor = (s + 1) % t->cap;
			t->count++;
			*id = t->base + s;
			return 0;
		}
	}
	return -ENOSPC;
}

void
mlx5dm_sim_idtab_del(struct mlx5dm_sim_idtab *t, uint32_t id)
{
	if (id < t->base || id - t->base >= t->cap || t->slot[id - t->base] == NULL)
		return;
	t->slot[id - t->base] = NULL;
	t->count--;
}

void *
mlx5dm_sim_obj_new(struct mlx5dm_sim *sim, enum mlx5dm_sim_kind kind, size_t size)
{
	struct mlx5dm_sim_obj *o = mlx5dm_zmalloc(size);
	int ret;

	if (o == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	ret = mlx5dm_sim_idtab_add(&sim->tab[kind], o, &o->id);
	if (ret != 0) {
		mlx5dm_free(o);
		errno = -ret;
		return NULL;
	}
	o->magic = MLX5DM_SIM_OBJ_MAGIC;
	o->kind = (uint8_t)kind;
	o->sim = sim;
	return o;
}

void
mlx5dm_sim_obj_free(struct mlx5dm_sim *sim, void *obj)
{
	struct mlx5dm_sim_obj *o = obj;

	if (o == NULL)
		return;
	mlx5dm_sim_idtab_del(&sim->tab[o->kind], o->id);
	o->magic = 0;
	mlx5dm_free(o);
}

static uint64_t mlx5dm_sim_leftover;

static uint64_t
mlx5dm_sim_live_locked(const struct mlx5dm_sim *sim)
{
	uint64_t n = mlx5dm_sim_root_objects(sim);
	unsigned int k;

	for (k = 0; k < MLX5DM_SIM_K_NUM; k++)
		n += sim->tab[k].count;
	return n;
}

uint64_t
mlx5dm_sim_live_objects(struct mlx5dm_sim *sim)
{
	uint64_t n;

	pthread_rwlock_rdlock(&sim->lock);
	n = mlx5dm_sim_live_locked(sim);
	pthread_rwlock_unlock(&sim->lock);
	return n;
}

uint64_t
mlx5dm_sim_left_behind(void)
{
	return __atomic_load_n(&mlx5dm_sim_leftover, __ATOMIC_RELAXED);
}

void
mlx5dm_sim_note_left_behind(struct mlx5dm_sim *sim)
{
	uint64_t n = mlx5dm_sim_live_locked(sim);

	if (n == 0)
		return;
	__atomic_add_fetch(&mlx5dm_sim_leftover, n, __ATOMIC_RELAXED);
	MLX5DM_LOG(INFO, MLX5DM_SIM_LOG, "%s destroyed with %" PRIu64 " objects still live",
		   sim->ibdev.name, n);
}
