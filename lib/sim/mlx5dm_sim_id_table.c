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
mlx5dm_sim_id_table_init(struct mlx5dm_sim_id_table *t, uint32_t base, uint32_t max, int socket)
{
	memset(t, 0, sizeof(*t));
	t->base = base;
	t->max = max;
	t->socket = socket;
	return 0;
}

void
mlx5dm_sim_id_table_fini(struct mlx5dm_sim_id_table *t)
{
	/* One allocation holds the four arrays (mlx5dm_sim_id_table_grow()). */
	mlx5dm_free(t->slot);
	t->slot = NULL;
	t->live = NULL;
	t->live_slot = NULL;
	t->live_at = NULL;
	t->cap = 0;
}

static int
mlx5dm_sim_id_table_grow(struct mlx5dm_sim_id_table *t)
{
	uint32_t ncap = t->cap == 0 ? 64 : t->cap * 2;
	void **slot, **live;
	uint32_t *live_slot, *live_at;

	if (ncap > t->max)
		ncap = t->max;
	if (ncap <= t->cap)
		return -ENOSPC;
	slot = mlx5dm_calloc_socket(ncap, 2 * sizeof(void *) + 2 * sizeof(uint32_t), t->socket);
	if (slot == NULL)
		return -ENOMEM;
	live = slot + ncap;
	live_slot = (uint32_t *)(void *)(live + ncap);
	live_at = live_slot + ncap;
	if (t->cap != 0) {
		memcpy(slot, t->slot, t->cap * sizeof(*slot));
		memcpy(live, t->live, t->cap * sizeof(*live));
		memcpy(live_slot, t->live_slot, t->cap * sizeof(*live_slot));
		memcpy(live_at, t->live_at, t->cap * sizeof(*live_at));
	}
	mlx5dm_free(t->slot);
	t->slot = slot;
	t->live = live;
	t->live_slot = live_slot;
	t->live_at = live_at;
	t->cursor = t->cap;
	t->cap = ncap;
	return 0;
}

int
mlx5dm_sim_id_table_add(struct mlx5dm_sim_id_table *t, void *p, uint32_t *id)
{
	uint32_t i;
	int ret;

	/* Grow while less than a quarter is free, so the round-robin cursor finds room fast. */
	if (t->count + t->cap / 4 >= t->cap) {
		ret = mlx5dm_sim_id_table_grow(t);
		if (ret != 0 && t->count >= t->cap)
			return ret;
	}
	for (i = 0; i < t->cap; i++) {
		uint32_t s = (t->cursor + i) % t->cap;

		if (t->slot[s] == NULL) {
			t->slot[s] = p;
			t->cursor = (s + 1) % t->cap;
			t->live[t->count] = p;
			t->live_slot[t->count] = s;
			t->live_at[s] = t->count;
			t->count++;
			*id = t->base + s;
			return 0;
		}
	}
	return -ENOSPC;
}

void
mlx5dm_sim_id_table_del(struct mlx5dm_sim_id_table *t, uint32_t id)
{
	uint32_t s = id - t->base, i, last;

	if (id < t->base || s >= t->cap || t->slot[s] == NULL)
		return;
	t->slot[s] = NULL;
	/* The last live object takes the place of the one leaving. */
	i = t->live_at[s];
	last = --t->count;
	t->live[i] = t->live[last];
	t->live_slot[i] = t->live_slot[last];
	t->live_at[t->live_slot[i]] = i;
	t->live[last] = NULL;
}

void *
mlx5dm_sim_obj_new(struct mlx5dm_sim *sim, enum mlx5dm_sim_kind kind, size_t size)
{
	struct mlx5dm_sim_obj *o = mlx5dm_zmalloc_socket(size, sim->socket);
	int ret;

	if (o == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	ret = mlx5dm_sim_id_table_add(&sim->tab[kind], o, &o->id);
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
	mlx5dm_sim_id_table_del(&sim->tab[o->kind], o->id);
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
