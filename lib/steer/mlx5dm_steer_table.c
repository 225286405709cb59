/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Tables: a SW-owned flow table object whose ICM root is the table's start
 * anchor. The anchor is written (always-miss to the domain default) and
 * drained before the device learns about the table (SWS 10, rule 6).
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_steer_priv.h"


/* Rewrite an anchor as always-miss to addr (full entry). */
int
mlx5dm_anchor_write_miss(struct mlx5dm_domain *dom, struct mlx5dm_queue *q,
			 struct mlx5dm_ste *anchor, uint64_t addr)
{
	struct mlx5dm_ctx *ctx = dom->ctx;
	uint8_t img[MLX5DM_STE_SIZE];

	mlx5dm_ste_build_always_miss(ctx->ste, img, ctx->ste->lu_dont_care, dom->dir,
				     ctx->caps.vhca_id, addr);
	mlx5dm_ste_set_image(anchor, img);
	return mlx5dm_ste_write_full(ctx, q, anchor, NULL);
}

/* Rewrite an anchor as always-hit into the chain head h (full entry). */
int
mlx5dm_anchor_write_hit(struct mlx5dm_domain *dom, struct mlx5dm_queue *q,
			struct mlx5dm_ste *anchor, const struct mlx5dm_htbl *h)
{
	struct mlx5dm_ctx *ctx = dom->ctx;
	uint8_t img[MLX5DM_STE_SIZE];

	mlx5dm_ste_build_always_hit(ctx->ste, img, ctx->ste->lu_dont_care, dom->dir,
				    ctx->caps.vhca_id, h->lu_type, h->byte_mask,
				    mlx5dm_htbl_icm(h), h->num_entries);
	mlx5dm_ste_set_image(anchor, img);
	return mlx5dm_ste_write_full(ctx, q, anchor, NULL);
}

struct mlx5dm_table *
mlx5dm_table_side_new(struct mlx5dm_domain *dom, uint32_t level)
{
	struct mlx5dm_ctx *ctx = dom->ctx;
	struct mlx5dm_defer d = { .n = 0 };
	struct mlx5dm_table *tbl;
	struct mlx5dm_queue *q;
	int ret;

	tbl = mlx5dm_zmalloc_socket(sizeof(*tbl), ctx->dev->socket);
	if (tbl == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	tbl->dom = dom;
	tbl->level = level;
	TAILQ_INIT(&tbl->matchers);
	mlx5dm_spinlock_init(&tbl->anchor_lock);
	tbl->s_anchor = mlx5dm_ste_alloc_single(ctx);
	if (tbl->s_anchor == NULL) {
		ret = -ENOMEM;
		goto free_tbl;
	}
	q = mlx5dm_steer_ctrl_queue(ctx);
	mlx5dm_spinlock_lock(&q->lock);
	ret = mlx5dm_anchor_write_miss(dom, q, tbl->s_anchor, dom->default_icm);
	if (ret == 0)
		ret = mlx5dm_send_drain(q->ring);
	mlx5dm_spinlock_unlock(&q->lock);
	if (ret < 0)
		goto free_anchor;
	return tbl;
free_anchor:
	mlx5dm_ste_free_single(tbl->s_anchor, &d);
	mlx5dm_defer_run(&d);
free_tbl:
	mlx5dm_spinlock_destroy(&tbl->anchor_lock);
	mlx5dm_free(tbl);
	errno = -ret;
	return NULL;
}

void
mlx5dm_table_side_free(struct mlx5dm_table *tbl)
{
	struct mlx5dm_defer d = { .n = 0 };

	mlx5dm_ste_free_single(tbl->s_anchor, &d);
	mlx5dm_defer_run(&d);
	mlx5dm_spinlock_destroy(&tbl->anchor_lock);
	mlx5dm_free(tbl);
}

/* A NIC table: its anchor, then the firmware table that starts at it. */
static struct mlx5dm_table *
mlx5dm_table_nic_new(struct mlx5dm_domain *dom, uint32_t level)
{
	struct mlx5dm_ctx *ctx = dom->ctx;
	struct mlx5dm_table *tbl;
	int ret;

	tbl = mlx5dm_table_side_new(dom, level);
	if (tbl == NULL)
		return NULL;
	/* Firmware level: one below the deepest, as rdma-core's DR does. */
	ret = mlx5dm_res_ft_create(&ctx->res, dom->type, ctx->caps.max_ft_level - 1u,
				   mlx5dm_ste_icm(tbl->s_anchor), 0, &tbl->ft);
	if (ret < 0) {
		mlx5dm_table_side_free(tbl);
		errno = -ret;
		return NULL;
	}
	tbl->ft_id = mlx5dm_res_ft_id(tbl->ft);
	return tbl;
}

struct mlx5dm_table *
mlx5dm_table_create(struct mlx5dm_domain *dom, uint32_t level)
{
	struct mlx5dm_ctx *ctx;
	struct mlx5dm_table *tbl;

	if (dom == NULL || level == 0 || dom->top != NULL) {
		errno = EINVAL;
		return NULL;
	}
	ctx = dom->ctx;
	if (mlx5dm_domain_is_fdb(dom))
		tbl = mlx5dm_fdb_table_new(dom, level);
	else
		tbl = mlx5dm_table_nic_new(dom, level);
	if (tbl == NULL)
		return NULL;
	mlx5dm_spinlock_lock(&ctx->lock);
	LIST_INSERT_HEAD(&dom->tables, tbl, next);
	ctx->n_tables++;
	mlx5dm_spinlock_unlock(&ctx->lock);
	return tbl;
}

int
mlx5dm_table_destroy(struct mlx5dm_table *tbl)
{
	struct mlx5dm_ctx *ctx;

	if (tbl == NULL || tbl->dom->top != NULL)
		return -EINVAL;
	ctx = tbl->dom->ctx;
	mlx5dm_spinlock_lock(&ctx->lock);
	if (!TAILQ_EMPTY(&tbl->matchers) || tbl->refcnt != 0) {
		mlx5dm_spinlock_unlock(&ctx->lock);
		return -EBUSY;
	}
	LIST_REMOVE(tbl, next);
	ctx->n_tables--;
	mlx5dm_spinlock_unlock(&ctx->lock);
	mlx5dm_res_ft_destroy(tbl->ft);
	if (mlx5dm_domain_is_fdb(tbl->dom))
		mlx5dm_fdb_table_free(tbl);
	else
		mlx5dm_table_side_free(tbl);
	return 0;
}
