/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Flow counters. ALLOC_FLOW_COUNTER hands out a bulk of 2^log (or
 * 128 * flow_counter_bulk, or 1) counters whose base id is aligned to the
 * bulk size, so "counter object id + offset" (what an STE's counter_id
 * holds) names one counter. Counting (mlx5dm_sim_counter_add) is lock-free:
 * slots live in chunks that are created once and kept until the instance
 * goes; a slot counts only while its bulk is allocated. The chunks are
 * cut from one huge-page region, mapped at the first bulk and faulted in
 * 2 MiB at a time (a million counters' slots on the heap would be thousands
 * of 4 KiB page faults, each costly in a VM).
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_sim_core.h"

#define MLX5DM_SIM_FC_CHUNK (1u << MLX5DM_SIM_FC_LOG_CHUNK)
#define MLX5DM_SIM_FC_LOG_BULK_MAX 15
#define MLX5DM_SIM_FC_MEM \
	MLX5DM_ALIGN_UP(sizeof(struct mlx5dm_sim_fc_slot) << MLX5DM_SIM_FC_LOG_MAX, \
			MLX5DM_HUGE_SIZE)

static struct mlx5dm_sim_fc_slot *
mlx5dm_sim_fc_slot(struct mlx5dm_sim *sim, uint32_t id)
{
	struct mlx5dm_sim_fc_slot *chunk;

	if (id >= (1u << MLX5DM_SIM_FC_LOG_MAX))
		return NULL;
	chunk = __atomic_load_n(&sim->fc_chunk[id >> MLX5DM_SIM_FC_LOG_CHUNK], __ATOMIC_ACQUIRE);
	return chunk == NULL ? NULL : &chunk[id & (MLX5DM_SIM_FC_CHUNK - 1)];
}

void
mlx5dm_sim_counter_add(struct mlx5dm_sim *sim, uint32_t counter_id, uint32_t bytes)
{
	struct mlx5dm_sim_fc_slot *s = mlx5dm_sim_fc_slot(sim, counter_id);

	if (s == NULL || !__atomic_load_n(&s->live, __ATOMIC_ACQUIRE))
		return;
	__atomic_fetch_add(&s->packets, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&s->bytes, bytes, __ATOMIC_RELAXED);
}

int
mlx5dm_sim_cmd_alloc_fc(struct mlx5dm_sim_cmd *c)
{
	uint32_t log = (uint32_t)mlx5dm_sim_in(c, MLX5DM_SIM_FC_IN_BULK_LOG);
	uint32_t bulk = (uint32_t)mlx5dm_sim_in(c, MLX5DM_SIM_FC_IN_BULK);
	uint32_t n = log != 0 ? 1u << log : bulk != 0 ? bulk * 128 : 1;
	struct mlx5dm_sim_obj *o;
	uint32_t i, k;
	int64_t base;

	if (!MLX5DM_IS_POW2(n) || n > (1u << MLX5DM_SIM_FC_LOG_BULK_MAX))
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "bad counter bulk size");
	base = mlx5dm_sim_bitmap_find_area(&c->sim->fc_ids, n, n);
	if (base < 0)
		return MLX5DM_SIM_FAIL(c, NO_RES, "out of flow counters");
	for (k = (uint32_t)base >> MLX5DM_SIM_FC_LOG_CHUNK;
	     k <= ((uint32_t)base + n - 1) >> MLX5DM_SIM_FC_LOG_CHUNK; k++) {
		struct mlx5dm_sim_fc_slot *chunk;

		if (c->sim->fc_chunk[k] != NULL)
			continue;
		if (c->sim->fc_mem == NULL) {
			c->sim->fc_mem = mlx5dm_huge_alloc(MLX5DM_SIM_FC_MEM, false,
							   c->sim->socket);
			if (c->sim->fc_mem == NULL)
				return MLX5DM_SIM_FAIL(c, NO_RES, "out of counter memory");
		}
		chunk = c->sim->fc_mem + ((size_t)k << MLX5DM_SIM_FC_LOG_CHUNK);
		__atomic_store_n(&c->sim->fc_chunk[k], chunk, __ATOMIC_RELEASE);
	}
	o = mlx5dm_sim_obj_new(c->sim, MLX5DM_SIM_K_FC, sizeof(*o));
	if (o == NULL)
		return MLX5DM_SIM_FAIL(c, NO_RES, "out of counter objects");
	mlx5dm_sim_bitmap_set(&c->sim->fc_ids, (uint64_t)base, n, true);
	for (i = 0; i < n; i++) {
		struct mlx5dm_sim_fc_slot *s = mlx5dm_sim_fc_slot(c->sim, (uint32_t)base + i);

		__atomic_store_n(&s->packets, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&s->bytes, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&s->live, 1, __ATOMIC_RELEASE);
	}
	o->aux[0] = (uint32_t)base;
	o->aux[1] = n;
	mlx5dm_sim_out(c, MLX5DM_SIM_FC_OUT_ID, (uint64_t)base);
	c->obj = o;
	return MLX5DM_SIM_ST_OK;
}

int
mlx5dm_sim_cmd_dealloc_fc(struct mlx5dm_sim_cmd *c)
{
	struct mlx5dm_sim_obj *o = c->obj;
	uint32_t i;

	if (o == NULL || mlx5dm_sim_in(c, MLX5DM_SIM_FC_DEALLOC_ID) != o->aux[0])
		return MLX5DM_SIM_FAIL(c, BAD_RES, "not the base of a counter bulk");
	for (i = 0; i < o->aux[1]; i++)
		__atomic_store_n(&mlx5dm_sim_fc_slot(c->sim, o->aux[0] + i)->live, 0,
				 __ATOMIC_RELEASE);
	mlx5dm_sim_bitmap_set(&c->sim->fc_ids, o->aux[0], o->aux[1], false);
	mlx5dm_sim_obj_free(c->sim, o);
	return MLX5DM_SIM_ST_OK;
}

/* Read (and optionally clear) one counter as the PRM traffic_counter (BE packets, octets). */
static void
mlx5dm_sim_fc_read(struct mlx5dm_sim *sim, uint32_t id, bool clear, uint8_t out[16])
{
	struct mlx5dm_sim_fc_slot *s = mlx5dm_sim_fc_slot(sim, id);
	uint64_t p, b;

	if (clear) {
		p = __atomic_exchange_n(&s->packets, 0, __ATOMIC_RELAXED);
		b = __atomic_exchange_n(&s->bytes, 0, __ATOMIC_RELAXED);
	} else {
		p = __atomic_load_n(&s->packets, __ATOMIC_RELAXED);
		b = __atomic_load_n(&s->bytes, __ATOMIC_RELAXED);
	}
	mlx5dm_prm_set64(out, 0, 64, p);
	mlx5dm_prm_set64(out, 64, 64, b);
}

int
mlx5dm_sim_cmd_query_fc(struct mlx5dm_sim_cmd *c)
{
	struct mlx5dm_sim_obj *o = c->obj;
	uint32_t id = (uint32_t)mlx5dm_sim_in(c, MLX5DM_SIM_FCQ_IN_ID);
	uint32_t n = (uint32_t)mlx5dm_sim_in(c, MLX5DM_SIM_FCQ_IN_NUM);
	bool clear = mlx5dm_sim_in(c, MLX5DM_SIM_FCQ_IN_CLEAR) != 0;
	uint8_t *dst;
	uint32_t i;

	n = n == 0 ? 1 : n;
	if (id < o->aux[0] || (uint64_t)id + n > (uint64_t)o->aux[0] + o->aux[1])
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "counters outside the bulk");
	if (mlx5dm_sim_in(c, MLX5DM_SIM_FCQ_IN_DUMP_TO_MEM)) {
		/* Dump through an mkey: a host MR registered for local write. */
		struct mlx5dm_sim_mr *mr = mlx5dm_sim_mr_lookup(c->sim,
					(uint32_t)mlx5dm_sim_in(c, MLX5DM_SIM_FCQ_IN_MKEY));
		uint64_t addr = mlx5dm_sim_in(c, MLX5DM_SIM_FCQ_IN_ADDRESS);
		uint64_t len = (uint64_t)n * MLX5DM_SIM_TRAFFIC_COUNTER_BYTES;
		uintptr_t start;

		if (mr == NULL || mr->dm != NULL || !(mr->access & IBV_ACCESS_LOCAL_WRITE))
			return MLX5DM_SIM_FAIL(c, BAD_PARAM, "bad dump mkey");
		start = (uintptr_t)mr->mr.addr;
		if (addr < start || addr - start > mr->mr.length ||
		    len > mr->mr.length - (addr - start))
			return MLX5DM_SIM_FAIL(c, BAD_PARAM, "dump outside the mkey");
		dst = (uint8_t *)(uintptr_t)addr;
	} else {
		if (c->outlen < MLX5DM_SIM_FCQ_OUT_STATS_BYTE +
				(uint64_t)n * MLX5DM_SIM_TRAFFIC_COUNTER_BYTES)
			return MLX5DM_SIM_FAIL(c, BAD_OUTPUT_LEN,
					       "output too short for num_of_counters");
		dst = c->out + MLX5DM_SIM_FCQ_OUT_STATS_BYTE;
	}
	for (i = 0; i < n; i++)
		mlx5dm_sim_fc_read(c->sim, id + i, clear,
				   dst + (size_t)i * MLX5DM_SIM_TRAFFIC_COUNTER_BYTES);
	return MLX5DM_SIM_ST_OK;
}

void
mlx5dm_sim_fc_free_all(struct mlx5dm_sim *sim)
{
	unsigned int k;

	for (k = 0; k < MLX5DM_ARRAY_SIZE(sim->fc_chunk); k++)
		sim->fc_chunk[k] = NULL;
	mlx5dm_huge_free(sim->fc_mem, MLX5DM_SIM_FC_MEM);
	sim->fc_mem = NULL;
}
