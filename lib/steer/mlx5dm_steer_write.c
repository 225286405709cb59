/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Writing STEs to ICM through a queue's send ring (the images: in
 * mlx5dm_steer_image.c), STE records and deferred frees of ICM.
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_steer_priv.h"

uint64_t
mlx5dm_ste_icm(const struct mlx5dm_ste *ste)
{
	return mlx5dm_icm_chunk_entry_icm(ste->chunk, mlx5dm_ste_index(ste));
}

/* Write count copies of one 64-byte device image from entry first. */
int
mlx5dm_ste_write_image(struct mlx5dm_ctx *ctx, struct mlx5dm_queue *q,
		       const struct mlx5dm_icm_chunk *chunk, uint32_t first, uint32_t count,
		       const uint8_t *hw_image)
{
	(void)ctx;
	/* One entry (a slot freed by a deletion): inline in the WQE. */
	if (count == 1)
		return mlx5dm_send_write(q->ring, mlx5dm_icm_chunk_entry_mr(chunk, first),
					 chunk->rkey, hw_image, MLX5DM_STE_SIZE);
	return mlx5dm_send_write_repeat(q->ring, mlx5dm_icm_chunk_entry_mr(chunk, first),
					chunk->rkey, hw_image, MLX5DM_STE_SIZE, count);
}

/* A record with its own single-entry chunk (collision, action and anchor entries). */
struct mlx5dm_ste *
mlx5dm_ste_alloc_single(struct mlx5dm_ctx *ctx)
{
	struct mlx5dm_ste *ste = mlx5dm_zmalloc_socket(MLX5DM_STE_REC_FULL, ctx->dev->socket);

	if (ste == NULL)
		return NULL;
	ste->chunk = mlx5dm_icm_chunk_alloc(ctx->ste_pool, 0);
	if (ste->chunk == NULL) {
		mlx5dm_free(ste);
		return NULL;
	}
	return ste;
}

void
mlx5dm_ste_free_single(struct mlx5dm_ste *ste, struct mlx5dm_defer *d)
{
	if (ste == NULL)
		return;
	mlx5dm_defer_chunk(d, ste->chunk);
	mlx5dm_free(ste);
}

void
mlx5dm_defer_chunk(struct mlx5dm_defer *d, struct mlx5dm_icm_chunk *chunk)
{
	unsigned int inl = MLX5DM_ARRAY_SIZE(d->chunks);

	if (chunk == NULL)
		return;
	if (d->n < inl) {
		d->chunks[d->n++] = chunk;
		return;
	}
	if (d->n - inl == d->cap) {
		unsigned int cap = d->cap != 0 ? 2 * d->cap : 256;
		/* Lives for one operation and is of no device: no socket. */
		struct mlx5dm_icm_chunk **more = mlx5dm_malloc_socket(sizeof(*more) * cap,
								      MLX5DM_SOCKET_ANY);

		if (more == NULL) {
			/* Freeing now may run an ICM sync under the caller's locks. */
			MLX5DM_LOG(WARNING, MLX5DM_STEER_LOG, "no memory to defer a free");
			mlx5dm_icm_chunk_free(chunk);
			return;
		}
		if (d->more != NULL)
			memcpy(more, d->more, sizeof(*more) * d->cap);
		mlx5dm_free(d->more);
		d->more = more;
		d->cap = cap;
	}
	d->more[d->n - inl] = chunk;
	d->n++;
}

void
mlx5dm_defer_run(struct mlx5dm_defer *d)
{
	unsigned int inl = MLX5DM_ARRAY_SIZE(d->chunks);
	unsigned int i;

	for (i = 0; i < d->n; i++)
		mlx5dm_icm_chunk_free(i < inl ? d->chunks[i] : d->more[i - inl]);
	mlx5dm_free(d->more);
	d->more = NULL;
	d->cap = 0;
	d->n = 0;
	if (d->want_sync && d->sync_pool != NULL)
		mlx5dm_icm_pool_sync(d->sync_pool);
	d->want_sync = false;
}

/*
 * A record for a slot entry of one of the shard's tables (ICM = the
 * table's) above the last level (a last-level entry's is its rule's).
 */
struct mlx5dm_ste *
mlx5dm_ste_rec_alloc(struct mlx5dm_shard *sh)
{
	return mlx5dm_slab_alloc(&sh->ste_slab);
}

/* A record with an ICM entry of its own (collision, action or miss anchor). */
struct mlx5dm_ste *
mlx5dm_ste_entry_alloc(struct mlx5dm_shard *sh)
{
	struct mlx5dm_ste *s = mlx5dm_slab_alloc(&sh->ste_slab);

	if (s == NULL)
		return NULL;
	if (mlx5dm_entry_pool_get(&sh->entry_pool, sh->m->tbl->dom->ctx, s) < 0) {
		mlx5dm_slab_free(&sh->ste_slab, s);
		return NULL;
	}
	return s;
}

/*
 * Free a record of the shard; an own ICM entry turns hot until the next
 * sync. A lean record goes with its rule's (mlx5dm_rule_last()).
 */
void
mlx5dm_ste_rec_free(struct mlx5dm_shard *sh, struct mlx5dm_ste *s, struct mlx5dm_defer *d)
{
	struct mlx5dm_ctx *ctx = sh->m->tbl->dom->ctx;

	if (s == NULL)
		return;
	if (sh->l0_hint == s)
		sh->l0_hint = NULL;
	if (s->pooled) {
		d->sync_pool = ctx->ste_pool;
		mlx5dm_entry_pool_put(&sh->entry_pool, ctx, s, d);
	}
	if (!s->lean)
		mlx5dm_slab_free(&sh->ste_slab, s);
}
