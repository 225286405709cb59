/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dp_test_util.h"
#include "mlx5dm_prm_bits.h"
#include "mlx5dm_res.h"

static void
put_be64(uint8_t *p, uint64_t v)
{
	mlx5dm_prm_put_be32(p, (uint32_t)(v >> 32));
	mlx5dm_prm_put_be32(p + 4, (uint32_t)v);
}

/* Post the receive WQE with counter pi of RQ r: one data segment, buffer pi % posted. */
static void
dp_rq_post(struct dp *dp, struct dp_rq *r)
{
	uint8_t *w = r->wi.wqes + (size_t)(r->pi & ((1u << r->wi.log_wqes) - 1)) * 16;
	uint8_t *b = r->buf + (size_t)(r->pi % DP_RQ_POSTED) * DP_BUF;

	mlx5dm_prm_put_be32(w, DP_BUF);
	mlx5dm_prm_put_be32(w + 4, dp->mr->lkey);
	put_be64(w + 8, (uintptr_t)b);
	r->pi++;
	__atomic_thread_fence(__ATOMIC_RELEASE);
	r->wi.dbrec[0] = __builtin_bswap32(r->pi);
}

int
dp_open(struct dp *dp, struct mlx5dm_ctx *ctx, struct mlx5dm_dev *dev,
	struct mlx5dm_rq *const *rqs, unsigned int nb)
{
	unsigned int i, j;

	memset(dp, 0, sizeof(*dp));
	if (nb > DP_MAX_RQ)
		return -EINVAL;
	dp->dev = dev;
	dp->nb_rq = nb;
	dp->sq = mlx5dm_sq_create(ctx, 6);
	if (dp->sq == NULL)
		return -errno;
	mlx5dm_sq_info(dp->sq, &dp->sqi);
	dp->mem_len = DP_BUF * (1 + (size_t)nb * DP_RQ_POSTED);
	dp->mem = aligned_alloc(4096, (dp->mem_len + 4095) & ~(size_t)4095);
	if (dp->mem == NULL)
		goto fail;
	dp->mr = dev->ops->reg_mr(mlx5dm_res_pd(mlx5dm_ctx_res(ctx)), dp->mem, dp->mem_len,
				  IBV_ACCESS_LOCAL_WRITE);
	if (dp->mr == NULL)
		goto fail;
	for (i = 0; i < nb; i++) {
		struct dp_rq *r = &dp->rq[i];

		mlx5dm_rq_info(rqs[i], &r->wi);
		r->buf = dp->mem + DP_BUF * (1 + (size_t)i * DP_RQ_POSTED);
		for (j = 0; j < DP_RQ_POSTED && j < (1u << r->wi.log_wqes); j++)
			dp_rq_post(dp, r);
	}
	return 0;
fail:
	dp_close(dp);
	return -ENOMEM;
}

void
dp_close(struct dp *dp)
{
	if (dp->mr != NULL)
		dp->dev->ops->dereg_mr(dp->mr);
	free(dp->mem);
	if (dp->sq != NULL)
		mlx5dm_sq_destroy(dp->sq);
	memset(dp, 0, sizeof(*dp));
}

const uint8_t *
dp_cqe(uint8_t *cqes, uint32_t log, uint32_t *ci, volatile uint32_t *dbrec)
{
	const uint8_t *c = cqes + (size_t)(*ci & ((1u << log) - 1)) * 64;
	uint8_t op_own = __atomic_load_n(&c[63], __ATOMIC_ACQUIRE);

	if ((op_own >> 4) == 0xf || (op_own & 1) != ((*ci >> log) & 1))
		return NULL;
	(*ci)++;
	*dbrec = __builtin_bswap32(*ci & 0xffffff);
	return c;
}

/* Write len bytes at WQEBB counter pi + byte off of the SQ ring, wrapping. */
static void
dp_sq_put(struct dp *dp, uint16_t pi, const uint8_t *src, uint32_t len)
{
	uint32_t bytes = 64u << dp->sqi.log_wqes;
	uint32_t off = (uint32_t)(pi & ((1u << dp->sqi.log_wqes) - 1)) * 64, i;

	for (i = 0; i < len; i++)
		dp->sqi.wqes[(off + i) % bytes] = src[i];
}

int
dp_send_meta(struct dp *dp, const uint8_t *frame, uint16_t len, uint32_t metadata,
	     struct dp_rx *out)
{
	uint8_t *tx = dp->mem;
	uint8_t w[192];
	uint32_t inl = dp->sqi.inline_min, at, ds;
	const uint8_t *c = NULL;
	uint64_t first8;
	unsigned int i;

	if (len > DP_BUF || len < inl)
		return -2;
	memset(w, 0, sizeof(w));
	/* Inline header: 2 bytes at the end of the Ethernet segment, the rest after it. */
	memcpy(w + 30, frame, inl);
	at = 32 + (inl > 2 ? (inl - 2 + 15) / 16 * 16 : 0);
	if (len > inl) {
		memcpy(tx, frame + inl, len - inl);
		mlx5dm_prm_put_be32(w + at, len - inl);
		mlx5dm_prm_put_be32(w + at + 4, dp->mr->lkey);
		put_be64(w + at + 8, (uintptr_t)tx);
		at += 16;
	}
	ds = at / 16;
	mlx5dm_prm_put_be32(w, (uint32_t)dp->pi << 8 | 0x0a);         /* wqe_index, SEND */
	mlx5dm_prm_put_be32(w + 4, dp->sqi.qn << 8 | ds);
	w[11] = 0x08;                                          /* CQ_UPDATE */
	mlx5dm_prm_put_be32(w + 16 + 8, metadata);
	w[16 + 12] = (uint8_t)(inl >> 8);
	w[16 + 13] = (uint8_t)inl;
	dp_sq_put(dp, dp->pi, w, at);
	dp->pi = (uint16_t)(dp->pi + (at + 63) / 64);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	dp->sqi.dbrec[1] = __builtin_bswap32(dp->pi);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	memcpy(&first8, w, sizeof(first8));
	mlx5dm_dev_doorbell(dp->sqi.uar, 0, first8);
	for (i = 0; i < 500000 && c == NULL; i++) {
		c = dp_cqe(dp->sqi.cqes, dp->sqi.log_cqes, &dp->cq_ci, dp->sqi.cq_dbrec);
		if (c == NULL)
			usleep(10);
	}
	if (c == NULL || (c[63] >> 4) != 0x0)
		return -3;
	return dp_recv(dp, out);
}

int
dp_recv(struct dp *dp, struct dp_rx *out)
{
	const uint8_t *c;
	unsigned int q;

	for (q = 0; q < dp->nb_rq; q++) {
		struct dp_rq *r = &dp->rq[q];

		c = dp_cqe(r->wi.cqes, r->wi.log_cqes, &r->cq_ci, r->wi.cq_dbrec);
		if (c == NULL)
			continue;
		if ((c[63] >> 4) != 0x2)
			return -4;
		if (out != NULL) {
			uint16_t idx = (uint16_t)(c[60] << 8 | c[61]);

			out->q = (int)q;
			out->len = (uint16_t)mlx5dm_prm_be32(c + 44);
			memcpy(out->b, r->buf + (size_t)(idx % DP_RQ_POSTED) * DP_BUF, out->len);
			out->flow_tag = mlx5dm_prm_be32(c + 56) & 0xffffff;
			out->rss_hash = mlx5dm_prm_be32(c + 12);
			out->has_hash = c[16] != 0;
			memcpy(out->cqe, c, 64);
		}
		dp_rq_post(dp, r);
		return (int)q;
	}
	return -1;
}

int
dp_send(struct dp *dp, const uint8_t *frame, uint16_t len, struct dp_rx *out)
{
	return dp_send_meta(dp, frame, len, 0, out);
}

int
dp_send_pkt(struct dp *dp, const uint8_t *frame, uint16_t len, struct mlx5dm_sim_pkt *got)
{
	static struct dp_rx r;
	int q = dp_send(dp, frame, len, &r);

	if (q >= 0 && got != NULL) {
		memset(got, 0, sizeof(*got));
		got->data = r.b;
		got->len = r.len;
		got->flow_tag = r.flow_tag;
		got->rss_hash = r.rss_hash;
		got->flags = (uint16_t)((r.flow_tag != 0 ? MLX5DM_SIM_PKT_F_FLOW_TAG : 0) |
					(r.has_hash ? MLX5DM_SIM_PKT_F_RSS_HASH : 0));
	}
	return q;
}
