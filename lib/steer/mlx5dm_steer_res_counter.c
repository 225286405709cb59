/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Flow counters. ALLOC_FLOW_COUNTER hands out a bulk whose first counter id
 * it returns; an STE counts into counter_id = that id + offset. Bulks are
 * sized by flow_counter_bulk_log_size where the device supports it
 * (cmd_hca_cap_2), else by the older flow_counter_bulk (multiples of 128,
 * rounded up to the smallest size the device offers). QUERY_FLOW_COUNTER
 * reads one counter, or a range whose first id is 4-aligned (the kernel's
 * MLX5_FC_BULK_QUERY_ALIGNMENT): ranges are widened to that alignment and
 * read in chunks.
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_osdep.h"
#include "mlx5dm_prm_res.h"
#include "mlx5dm_res.h"

#define MLX5DM_RES_FC_LOG_MAX 23u     /* 8M counters in a bulk, far above any device */
#define MLX5DM_RES_FC_LOG_UNIT 7u     /* flow_counter_bulk counts in 128s */
#define MLX5DM_RES_FC_QUERY_ALIGN 4u
#define MLX5DM_RES_FC_QUERY_CHUNK 128u /* counters per bulk query (2 KiB of output) */

struct mlx5dm_counters {
	struct mlx5dm_res_ctx *res;
	struct mlx5dv_devx_obj *obj;
	uint32_t base_id;
	uint32_t n;          /* counters usable: 2^log_n */
	uint32_t bulk_n;     /* counters allocated (>= n) */
};

/* Choose the ALLOC_FLOW_COUNTER sizing fields for 2^log_n counters; 0 or -ENOTSUP. */
static int
mlx5dm_res_fc_sizing(const struct mlx5dm_res_attr *a, uint32_t log_n, uint8_t *in,
		     uint32_t *bulk_n)
{
	uint32_t log_alloc = MLX5DM_MAX(log_n, MLX5DM_RES_FC_LOG_UNIT);
	uint32_t k = log_alloc - MLX5DM_RES_FC_LOG_UNIT;

	if (a->log_max_fc_bulk != 0 && log_n <= a->log_max_fc_bulk) {
		mlx5dm_prm_fset(in, MLX5DM_ALLOC_FC_IN_BULK_LOG_SIZE, log_n);
		*bulk_n = 1u << log_n;
		return 0;
	}
	if (log_n == 0) {
		*bulk_n = 1; /* both size fields 0: a single counter */
		return 0;
	}
	if (k < 8 && (a->fc_bulk_bitmap & (1u << k)) != 0) {
		mlx5dm_prm_fset(in, MLX5DM_ALLOC_FC_IN_BULK, 1u << k);
		*bulk_n = 1u << log_alloc;
		return 0;
	}
	MLX5DM_LOG(ERR, "res", "no flow counter bulk of 2^%u: bulk_log_max %u, bulk bitmap 0x%x",
		   log_n, a->log_max_fc_bulk, a->fc_bulk_bitmap);
	return -ENOTSUP;
}

struct mlx5dm_counters *
mlx5dm_res_counters_alloc(struct mlx5dm_res_ctx *res, uint32_t log_n)
{
	uint8_t in[MLX5DM_ALLOC_FC_IN_BYTES] = { 0 };
	uint8_t out[MLX5DM_ALLOC_FC_OUT_BYTES] = { 0 };
	struct mlx5dm_counters *c;
	int ret;

	if (res == NULL || log_n > MLX5DM_RES_FC_LOG_MAX) {
		errno = EINVAL;
		return NULL;
	}
	c = mlx5dm_zmalloc_socket(sizeof(*c), res->dev->socket);
	if (c == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	mlx5dm_prm_fset(in, MLX5DM_CMD_IN_OPCODE, MLX5DM_CMD_OP_ALLOC_FLOW_COUNTER);
	ret = mlx5dm_res_fc_sizing(&res->attr, log_n, in, &c->bulk_n);
	if (ret < 0)
		goto free_c;
	c->obj = res->dev->ops->devx_obj_create(res->dev->ctx, in, sizeof(in), out, sizeof(out));
	if (c->obj == NULL) {
		ret = mlx5dm_res_cmd_err("ALLOC_FLOW_COUNTER", out, errno);
		goto free_c;
	}
	c->res = res;
	c->base_id = (uint32_t)mlx5dm_prm_fget(out, MLX5DM_ALLOC_FC_OUT_ID);
	c->n = 1u << log_n;
	mlx5dm_res_live_add(&res->live.counter_bulks, 1);
	MLX5DM_LOG(DEBUG, "res", "flow counters 0x%x..0x%x (bulk of %u)", c->base_id,
		   c->base_id + c->n - 1, c->bulk_n);
	return c;
free_c:
	mlx5dm_free(c);
	errno = -ret;
	return NULL;
}

int
mlx5dm_counters_free(struct mlx5dm_counters *c)
{
	int ret;

	if (c == NULL)
		return -EINVAL;
	/* DEALLOC_FLOW_COUNTER of the bulk's base id, built by the transport. */
	ret = mlx5dm_res_obj_destroy(c->res, c->obj, "flow counter bulk", c->base_id);
	if (ret < 0)
		return ret;
	mlx5dm_res_live_add(&c->res->live.counter_bulks, -1);
	mlx5dm_free(c);
	return 0;
}

uint32_t
mlx5dm_res_counters_size(const struct mlx5dm_counters *c)
{
	return c->n;
}

uint32_t
mlx5dm_res_counter_id(const struct mlx5dm_counters *c, uint32_t index)
{
	return c->base_id + index;
}

/*
 * One QUERY_FLOW_COUNTER of cnt counters from bulk offset start (cnt 1:
 * num_of_counters 0, a single counter); entries [skip, skip + n) are stored.
 */
static int
mlx5dm_res_fc_query_cmd(struct mlx5dm_counters *c, uint32_t start, uint32_t cnt, uint32_t skip,
			uint32_t n, uint64_t *packets, uint64_t *bytes)
{
	uint8_t in[MLX5DM_QUERY_FC_IN_BYTES] = { 0 };
	uint8_t out[MLX5DM_QUERY_FC_OUT_HDR_BYTES +
		    MLX5DM_RES_FC_QUERY_CHUNK * MLX5DM_TRAFFIC_COUNTER_BYTES];
	size_t outlen = MLX5DM_QUERY_FC_OUT_HDR_BYTES + (size_t)cnt * MLX5DM_TRAFFIC_COUNTER_BYTES;
	uint32_t i;
	int ret;

	memset(out, 0, outlen);
	mlx5dm_prm_fset(in, MLX5DM_CMD_IN_OPCODE, MLX5DM_CMD_OP_QUERY_FLOW_COUNTER);
	mlx5dm_prm_fset(in, MLX5DM_QUERY_FC_IN_ID, c->base_id + start);
	mlx5dm_prm_fset(in, MLX5DM_QUERY_FC_IN_NUM, cnt == 1 ? 0 : cnt);
	ret = c->res->dev->ops->devx_obj_query(c->obj, in, sizeof(in), out, outlen);
	if (ret != 0)
		return mlx5dm_res_cmd_err("QUERY_FLOW_COUNTER", out, ret);
	for (i = 0; i < n; i++) {
		const uint8_t *tc = out + MLX5DM_QUERY_FC_OUT_HDR_BYTES +
				    (size_t)(skip + i) * MLX5DM_TRAFFIC_COUNTER_BYTES;

		packets[i] = mlx5dm_prm_fget(tc, MLX5DM_TRAFFIC_COUNTER_PACKETS);
		bytes[i] = mlx5dm_prm_fget(tc, MLX5DM_TRAFFIC_COUNTER_OCTETS);
	}
	return 0;
}

int
mlx5dm_res_counters_query(struct mlx5dm_counters *c, uint32_t first, uint32_t n,
			  uint64_t *packets, uint64_t *bytes)
{
	/* Bulk reads need a 4-aligned first id inside the bulk; else read one by one. */
	bool aligned = c != NULL && c->bulk_n >= MLX5DM_RES_FC_QUERY_ALIGN &&
		       c->base_id % MLX5DM_RES_FC_QUERY_ALIGN == 0;
	uint32_t done = 0;
	int ret;

	if (c == NULL || packets == NULL || bytes == NULL || n == 0 || first >= c->n ||
	    n > c->n - first)
		return -EINVAL;
	while (done < n) {
		uint32_t pos = first + done;
		uint32_t start = pos, skip = 0, take = 1;

		if (aligned && n - done > 1) {
			start = pos & ~(MLX5DM_RES_FC_QUERY_ALIGN - 1);
			skip = pos - start;
			take = MLX5DM_MIN(n - done, MLX5DM_RES_FC_QUERY_CHUNK - skip);
		}
		ret = mlx5dm_res_fc_query_cmd(c, start, skip + take, skip, take, packets + done,
					      bytes + done);
		if (ret < 0)
			return ret;
		done += take;
	}
	return 0;
}

struct mlx5dm_counters *
mlx5dm_counters_alloc(struct mlx5dm_ctx *ctx, uint32_t log_n)
{
	return mlx5dm_res_counters_alloc(mlx5dm_ctx_res(ctx), log_n);
}

int
mlx5dm_counters_query(struct mlx5dm_counters *c, uint32_t index, uint64_t *packets,
		      uint64_t *bytes)
{
	return mlx5dm_res_counters_query(c, index, 1, packets, bytes);
}
