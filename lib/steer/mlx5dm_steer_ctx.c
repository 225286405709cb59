/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The steering context: device resources shared by every domain. Bring-up
 * order follows rdma-core's DR (dr_domain.c, mlx5dv_dr_domain_create()): caps, STE
 * format, PD (+pdn), UAR, ICM pools, send rings.
 */

#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <string.h>

#include "mlx5dm_steer_priv.h"

_Static_assert(offsetof(struct mlx5dm_ctx, res) == 0,
	       "the resource layer finds its context at the ctx pointer");

/* SYNC_STEERING: the device drops whatever it cached from ICM. */
int
mlx5dm_steer_hw_sync(struct mlx5dm_ctx *ctx)
{
	return mlx5dm_res_sync_steering(&ctx->res);
}

/* Drain (or quiesce) every ring; each queue lock is taken alone (callers hold none). */
static int
mlx5dm_steer_rings(struct mlx5dm_ctx *ctx, int (*fn)(struct mlx5dm_send_ring *ring))
{
	unsigned int i;
	int ret = 0;

	for (i = 0; i <= ctx->nb_queues; i++) {
		struct mlx5dm_queue *q = &ctx->queues[i];
		int r;

		mlx5dm_spinlock_lock(&q->lock);
		r = fn(q->ring);
		mlx5dm_spinlock_unlock(&q->lock);
		if (r < 0 && ret == 0)
			ret = r;
	}
	return ret;
}

/*
 * The wait of mlx5dm_steer_queue_wait() once its writes before pos are not
 * known done; *lost (when asked): some of them will never execute.
 */
static int
mlx5dm_steer_ring_wait(struct mlx5dm_queue *o, uint32_t pos, bool try, bool *lost)
{
	int ret = 0;

	if (!try)
		mlx5dm_spinlock_lock(&o->lock);
	else if (!mlx5dm_spinlock_trylock(&o->lock))
		return -EBUSY;
	/* Completions already there (its user may not have reaped them) spare a fence. */
	if (!mlx5dm_send_done(o->ring, pos))
		(void)mlx5dm_send_poll(o->ring);
	if (!mlx5dm_send_done(o->ring, pos))
		ret = mlx5dm_send_quiesce(o->ring);
	if (lost != NULL)
		*lost = mlx5dm_send_lost(o->ring, pos);
	mlx5dm_spinlock_unlock(&o->lock);
	return ret == -ETIMEDOUT ? ret : 0;
}

/*
 * Make rule queue qi's writes before pos execute before the caller writes
 * after them (qi's lock is taken if they may not have: callers hold no
 * queue lock). 0 once they have, or never will (a ring in error is only
 * quiesced: what it did not execute never will); -ETIMEDOUT when the
 * device completed nothing for the stall limit: they may still execute,
 * so the caller must not write as if they had; -EBUSY with try, for a
 * caller that holds a queue lock, instead of waiting for qi's lock.
 */
int
mlx5dm_steer_queue_wait(struct mlx5dm_ctx *ctx, uint16_t qi, uint32_t pos, bool try)
{
	int ret;

	if (mlx5dm_send_done(ctx->queues[qi].ring, pos))
		return 0;
	ret = mlx5dm_steer_ring_wait(&ctx->queues[qi], pos, try, NULL);
	if (ret != -EBUSY)
		__atomic_fetch_add(&ctx->n_order_waits, 1, __ATOMIC_RELAXED);
	return ret;
}

/* Where queue o's writes posted so far end (its user posts under its lock). */
static uint32_t
mlx5dm_steer_queue_pos(struct mlx5dm_queue *o)
{
	uint32_t pos;

	mlx5dm_spinlock_lock(&o->lock);
	pos = mlx5dm_send_pos(o->ring);
	mlx5dm_spinlock_unlock(&o->lock);
	return pos;
}

/*
 * Make every write that the rule queues named in `queues` (bit i % 64 for
 * queue i: several queues may share a bit, which only waits for more),
 * other than q, posted so far execute before q's next ones, each other
 * queue's lock taken in turn and no other (the caller holds no queue lock,
 * nor a lock a queue's rule waits for). 0; -EIO when some of them will
 * never execute (a ring in error lost them); -ETIMEDOUT when the device
 * completed nothing for the stall limit.
 */
int
mlx5dm_steer_wait_others(struct mlx5dm_ctx *ctx, const struct mlx5dm_queue *q, uint64_t queues)
{
	unsigned int i;
	int ret = 0;

	for (i = 0; i < ctx->nb_queues; i++) {
		struct mlx5dm_queue *o = &ctx->queues[i];
		bool lost = false;
		uint32_t pos;
		int r;

		if (o == q || (queues & mlx5dm_steer_queue_bit(ctx, o)) == 0)
			continue;
		pos = mlx5dm_steer_queue_pos(o);
		if (mlx5dm_send_done(o->ring, pos))
			continue;
		r = mlx5dm_steer_ring_wait(o, pos, false, &lost);
		if (r == 0 && lost)
			r = -EIO;
		if (r < 0 && ret == 0)
			ret = r;
	}
	return ret;
}

/* Every write posted is on the device; a ring in error reports it. */
int
mlx5dm_steer_sync_rings(struct mlx5dm_ctx *ctx)
{
	return mlx5dm_steer_rings(ctx, mlx5dm_send_drain);
}

/*
 * No posted write can still land: what freeing ICM needs. A ring in error
 * writes nothing more once flushed, so it does not stop the other queues'
 * objects from being freed and their ICM reused.
 */
int
mlx5dm_steer_quiesce_rings(struct mlx5dm_ctx *ctx)
{
	return mlx5dm_steer_rings(ctx, mlx5dm_send_quiesce);
}

/*
 * -EIO when a ring in error lost a deletion's unlink: the device may still
 * reach what the deletion freed until mlx5dm_queue_recover() writes it
 * again (mlx5dm_redo_unlink()).
 */
static int
mlx5dm_steer_redo_due(struct mlx5dm_ctx *ctx)
{
	unsigned int i;
	bool due = false;

	for (i = 0; i < ctx->nb_queues && !due; i++) {
		struct mlx5dm_queue *q = &ctx->queues[i];

		mlx5dm_spinlock_lock(&q->lock);
		due = mlx5dm_send_kept_due(q->ring);
		mlx5dm_spinlock_unlock(&q->lock);
	}
	return due ? -EIO : 0;
}

/* The ICM pools' sync-before-reuse callback: no queued write targets freed ICM. */
static int
mlx5dm_steer_icm_sync(void *arg)
{
	struct mlx5dm_ctx *ctx = arg;
	int ret;

	ret = mlx5dm_steer_quiesce_rings(ctx);
	if (ret == 0)
		ret = mlx5dm_steer_redo_due(ctx);
	if (ret == 0)
		ret = mlx5dm_steer_hw_sync(ctx);
	return ret;
}

struct mlx5dm_queue *
mlx5dm_steer_ctrl_queue(struct mlx5dm_ctx *ctx)
{
	return &ctx->queues[ctx->nb_queues];
}

/*
 * What SW steering of NIC RX/TX needs from the device, checked before
 * anything is created on it (rdma-core's DR gates on the same:
 * dr_domain_caps_init(), dr_domain_check_icm_memory_caps()): one log line
 * per capability missing, then -ENOTSUP.
 */
static int
mlx5dm_ctx_check_caps(const struct mlx5dm_caps *caps, unsigned int log_sq)
{
	/* steering_format_version as rdma-core's mlx5dv.h names the formats. */
	static const char * const fmt_dev[] = { "ConnectX-5", "ConnectX-6 Dx", "ConnectX-7",
						"ConnectX-8" };
	static const char * const icm_cap[MLX5DM_ICM_TYPE_NUM] = {
		[MLX5DM_ICM_STE] = "log_steering_sw_icm_size",
		[MLX5DM_ICM_MODIFY] = "log_header_modify_sw_icm_size",
		[MLX5DM_ICM_PATTERN] = "log_header_modify_pattern_sw_icm_size",
		[MLX5DM_ICM_ENCAP] = "log_indirect_encap_sw_icm_size",
	};
	const uint8_t icm_log[MLX5DM_ICM_TYPE_NUM] = {
		[MLX5DM_ICM_STE] = caps->icm.log_steering_sw_icm_size,
		[MLX5DM_ICM_MODIFY] = caps->icm.log_header_modify_sw_icm_size,
		[MLX5DM_ICM_PATTERN] = caps->icm.log_header_modify_pattern_sw_icm_size,
		[MLX5DM_ICM_ENCAP] = caps->icm.log_indirect_encap_sw_icm_size,
	};
	unsigned int t, missing = 0;

	if (caps->fmt != 1) {
		MLX5DM_LOG(ERR, MLX5DM_STEER_LOG, "steering_format_version %u (%s): only 1 "
			   "(ConnectX-6 Dx, STE v1) is implemented", caps->fmt,
			   caps->fmt < MLX5DM_ARRAY_SIZE(fmt_dev) ? fmt_dev[caps->fmt] : "unknown");
		missing++;
	}
	if (!caps->rx_sw_owner || !caps->tx_sw_owner) {
		MLX5DM_LOG(ERR, MLX5DM_STEER_LOG, "NIC %s flow tables: neither sw_owner nor "
			   "sw_owner_v2: software may not own the steering", !caps->rx_sw_owner &&
			   !caps->tx_sw_owner ? "RX and TX" : !caps->rx_sw_owner ? "RX" : "TX");
		missing++;
	}
	if (caps->max_ft_level < 2) {
		MLX5DM_LOG(ERR, MLX5DM_STEER_LOG, "NIC flow tables: max_ft_level %u, at least 2 "
			   "needed (the root table jumps to SW-owned tables below it)",
			   caps->max_ft_level);
		missing++;
	}
	/* The send engine's QP and CQ (a CQE per WQE). */
	if (caps->log_max_qp_sz < log_sq || caps->log_max_cq_sz < log_sq) {
		MLX5DM_LOG(ERR, MLX5DM_STEER_LOG, "log_max_qp_sz %u, log_max_cq_sz %u: the send "
			   "engine's QP and CQ need %u", caps->log_max_qp_sz, caps->log_max_cq_sz,
			   log_sq);
		missing++;
	}
	for (t = 0; t < MLX5DM_ICM_TYPE_NUM; t++) {
		/* Pattern ICM is checked even unused, as rdma-core does; encap is optional. */
		if (t == MLX5DM_ICM_ENCAP && icm_log[t] == 0)
			continue;
		if (icm_log[t] >= mlx5dm_icm_min_log_size((enum mlx5dm_icm_type)t))
			continue;
		MLX5DM_LOG(ERR, MLX5DM_STEER_LOG, "%s %u: SW ICM of 2^%u bytes at least needed",
			   icm_cap[t], icm_log[t],
			   mlx5dm_icm_min_log_size((enum mlx5dm_icm_type)t));
		missing++;
	}
	if (!caps->send_path.fl && !caps->roce_en) {
		MLX5DM_LOG(ERR, MLX5DM_STEER_LOG, "fl_rc_qp_when_roce_disabled 0 and RoCE "
			   "disabled: the send engine's QP can connect to itself neither by "
			   "force-loopback nor through the port's GID");
		missing++;
	}
	return missing == 0 ? 0 : -ENOTSUP;
}

static int
mlx5dm_ctx_alloc_pd(struct mlx5dm_ctx *ctx)
{
	struct mlx5dv_pd dvpd = { 0 };
	struct mlx5dv_obj obj;
	int ret;

	ctx->pd = ctx->dev->ops->alloc_pd(ctx->dev->ctx);
	if (ctx->pd == NULL) {
		MLX5DM_LOG(ERR, MLX5DM_STEER_LOG, "PD allocation failed: %d", errno);
		return -errno;
	}
	memset(&obj, 0, sizeof(obj));
	obj.pd.in = ctx->pd;
	obj.pd.out = &dvpd;
	ret = ctx->dev->ops->init_obj(&obj, MLX5DV_OBJ_PD);
	if (ret != 0) {
		MLX5DM_LOG(ERR, MLX5DM_STEER_LOG, "PD number query failed: %d", ret);
		return ret < 0 ? ret : -ret;
	}
	ctx->pdn = dvpd.pdn;
	return 0;
}

static int
mlx5dm_ctx_res_init(struct mlx5dm_ctx *ctx)
{
	struct mlx5dm_res_attr rattr = {
		.dev = ctx->dev,
		.pd = ctx->pd,
		.uar = ctx->uar,
		.eqn = ctx->eqn,
		.vhca_id = ctx->caps.vhca_id,
		.rq_ts_format = ctx->caps.rq_ts_format,
		.arg_supported = ctx->caps.modify_argument,
		.log_arg_granularity = ctx->caps.log_arg_granularity,
		.log_arg_max_alloc = ctx->caps.log_arg_max_alloc,
		.fc_bulk_bitmap = ctx->caps.fc_bulk_bitmap,
		.log_max_fc_bulk = ctx->caps.log_max_fc_bulk,
	};
	int ret;

	ret = mlx5dm_res_ctx_init(&ctx->res, &rattr);
	if (ret == 0)
		ctx->res_ready = true;
	return ret;
}

/* The send attributes of the context's rings, of 2^log_sq_wqebb WQEBBs (0: the default). */
static struct mlx5dm_send_attr
mlx5dm_ctx_send_attr(const struct mlx5dm_ctx *ctx, uint32_t log_sq_wqebb)
{
	struct mlx5dm_send_attr sattr = {
		.dev = ctx->dev,
		.pd = ctx->pd,
		.pdn = ctx->pdn,
		.uar = ctx->uar,
		.eqn = ctx->eqn,
		.path = ctx->caps.send_path,
		.log_sq_wqebb = log_sq_wqebb,
	};

	return sattr;
}

static int
mlx5dm_ctx_create_queues(struct mlx5dm_ctx *ctx, const struct mlx5dm_ctx_attr *attr)
{
	struct mlx5dm_send_attr sattr = mlx5dm_ctx_send_attr(ctx, attr->log_queue_wqebb);
	unsigned int i;

	ctx->queues = mlx5dm_aligned_zmalloc_socket(((size_t)ctx->nb_queues + 1) *
						    sizeof(*ctx->queues),
						    _Alignof(struct mlx5dm_queue),
						    ctx->dev->socket);
	if (ctx->queues == NULL)
		return -ENOMEM;
	for (i = 0; i <= ctx->nb_queues; i++) {
		mlx5dm_spinlock_init(&ctx->queues[i].lock);
		/* A size the caller chose is kept: rings grow from the default one only. */
		ctx->queues[i].sized = attr->log_queue_wqebb != 0;
		ctx->queues[i].db_batch = attr->doorbell_batch > 1 ? attr->doorbell_batch : 1;
		ctx->queues[i].ring = mlx5dm_send_ring_create(&sattr);
		if (ctx->queues[i].ring == NULL)
			return -errno;
	}
	return 0;
}

static void
mlx5dm_ctx_free(struct mlx5dm_ctx *ctx)
{
	const struct mlx5dm_dev_ops *ops = ctx->dev->ops;
	unsigned int i;

	if (ctx->queues != NULL) {
		for (i = 0; i <= ctx->nb_queues; i++) {
			mlx5dm_send_ring_destroy(ctx->queues[i].ring);
			mlx5dm_spinlock_destroy(&ctx->queues[i].lock);
		}
		mlx5dm_free(ctx->queues);
	}
	mlx5dm_pattern_cache_destroy(ctx->patterns);
	if (ctx->icm != NULL) {
		/* Nothing may still be read from ICM about to go back to the device. */
		if (ctx->res_ready)
			mlx5dm_steer_hw_sync(ctx);
		mlx5dm_icm_set_destroy(ctx->icm);
	}
	if (ctx->res_ready && mlx5dm_res_ctx_fini(&ctx->res) < 0)
		MLX5DM_LOG(ERR, MLX5DM_STEER_LOG, "device resources still in use at close");
	if (ctx->uar != NULL)
		ops->devx_free_uar(ctx->uar);
	if (ctx->pd != NULL)
		ops->dealloc_pd(ctx->pd);
	mlx5dm_slab_destroy(&ctx->act_slab);
	mlx5dm_spinlock_destroy(&ctx->lock);
	mlx5dm_free(ctx);
}

struct mlx5dm_ctx *
mlx5dm_ctx_open(struct mlx5dm_dev *dev, const struct mlx5dm_ctx_attr *attr)
{
	static const struct mlx5dm_ctx_attr defaults = { .nb_queues = 1 };
	struct mlx5dm_icm_set_attr iattr;
	struct mlx5dm_ctx *ctx;
	int ret;

	if (dev == NULL) {
		errno = EINVAL;
		return NULL;
	}
	if (attr == NULL)
		attr = &defaults;
	ctx = mlx5dm_zmalloc_socket(sizeof(*ctx), dev->socket);
	if (ctx == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	ctx->dev = dev;
	ctx->nb_queues = attr->nb_queues != 0 ? attr->nb_queues : 1;
	ctx->allow_dup = attr->allow_duplicate_rules;
	mlx5dm_spinlock_init(&ctx->lock);
	mlx5dm_slab_init(&ctx->act_slab, sizeof(struct mlx5dm_action), dev->socket);
	LIST_INIT(&ctx->domains);
	ret = mlx5dm_caps_read(dev, &ctx->caps);
	if (ret < 0)
		goto free_ctx;
	ret = mlx5dm_ctx_check_caps(&ctx->caps, attr->log_queue_wqebb != 0 ?
				    attr->log_queue_wqebb : MLX5DM_SEND_LOG_SQ_WQEBB);
	if (ret < 0)
		goto free_ctx;
	ctx->ste = mlx5dm_ste_ctx_get(ctx->caps.fmt);
	if (ctx->ste == NULL) {
		ret = -ENOTSUP;
		goto free_ctx;
	}
	ret = mlx5dm_ctx_alloc_pd(ctx);
	if (ret < 0)
		goto free_ctx;
	/* The CQs' completion EQ, as DPDK mlx5 takes it: completion vector 0's. */
	ret = dev->ops->devx_query_eqn(dev->ctx, 0, &ctx->eqn);
	if (ret != 0) {
		MLX5DM_LOG(ERR, MLX5DM_STEER_LOG, "completion EQ query failed: %d", ret);
		ret = ret > 0 ? -ret : ret;
		goto free_ctx;
	}
	ctx->uar = dev->ops->devx_alloc_uar(dev->ctx, MLX5DV_UAR_ALLOC_TYPE_NC);
	if (ctx->uar == NULL)
		ctx->uar = dev->ops->devx_alloc_uar(dev->ctx, MLX5DV_UAR_ALLOC_TYPE_BF);
	if (ctx->uar == NULL) {
		MLX5DM_LOG(ERR, MLX5DM_STEER_LOG, "UAR allocation failed: %d", errno);
		ret = -errno;
		goto free_ctx;
	}
	ret = mlx5dm_ctx_res_init(ctx);
	if (ret < 0)
		goto free_ctx;
	memset(&iattr, 0, sizeof(iattr));
	iattr.dev = dev;
	iattr.pd = ctx->pd;
	iattr.caps = &ctx->caps.icm;
	iattr.sync = mlx5dm_steer_icm_sync;
	iattr.sync_arg = ctx;
	iattr.reclaim = attr->reclaim_icm;
	/* Pattern + argument modify headers need argument objects (fmt >= 1 checked above). */
	iattr.modify_pattern = ctx->caps.modify_argument;
	ctx->icm = mlx5dm_icm_set_create(&iattr);
	if (ctx->icm == NULL) {
		ret = -errno;
		goto free_ctx;
	}
	ctx->ste_pool = mlx5dm_icm_set_pool(ctx->icm, MLX5DM_ICM_STE);
	ctx->modify_pool = mlx5dm_icm_set_pool(ctx->icm, MLX5DM_ICM_MODIFY);
	/*
	 * ENCAP SW ICM when the device reports it and the transport can
	 * allocate that DM type (on hardware, an rdma-core that has it at
	 * build time). Otherwise encap headers go to firmware reformat
	 * contexts, decided here rather than failed per action.
	 */
	if (dev->transport->dm_types & 1u << MLX5DV_DM_TYPE_ENCAP_SW_ICM)
		ctx->encap_pool = mlx5dm_icm_set_pool(ctx->icm, MLX5DM_ICM_ENCAP);
	ctx->pattern_pool = mlx5dm_icm_set_pool(ctx->icm, MLX5DM_ICM_PATTERN);
	if (ctx->pattern_pool != NULL) {
		ctx->patterns = mlx5dm_pattern_cache_create(ctx);
		if (ctx->patterns == NULL) {
			ret = -errno;
			goto free_ctx;
		}
	}
	ret = mlx5dm_ctx_create_queues(ctx, attr);
	if (ret < 0)
		goto free_ctx;
	ctx->queue_log_grown = MLX5DM_MIN(MLX5DM_QUEUE_LOG_WQEBB_GROWN,
					  MLX5DM_MIN(ctx->caps.log_max_qp_sz,
						     ctx->caps.log_max_cq_sz));
	MLX5DM_LOG(INFO, MLX5DM_STEER_LOG, "context: vhca_id %u, %s, %u queue(s), %s encap, "
		   "%s modify header", ctx->caps.vhca_id, ctx->ste->name, ctx->nb_queues,
		   ctx->encap_pool != NULL ? "SW" : "firmware",
		   ctx->patterns != NULL ? "pattern + argument" : "list");
	return ctx;
free_ctx:
	mlx5dm_ctx_free(ctx);
	errno = ret < 0 ? -ret : EIO;
	return NULL;
}

int
mlx5dm_ctx_close(struct mlx5dm_ctx *ctx)
{
	if (ctx == NULL)
		return -EINVAL;
	if (!LIST_EMPTY(&ctx->domains))
		return -EBUSY;
	mlx5dm_steer_quiesce_rings(ctx);
	mlx5dm_ctx_free(ctx);
	return 0;
}

int
mlx5dm_queue_resize(struct mlx5dm_ctx *ctx, uint16_t queue, uint32_t ops)
{
	struct mlx5dm_send_attr sattr;
	struct mlx5dm_queue *q;
	uint32_t log = 6;
	int ret;

	if (ctx == NULL || queue >= ctx->nb_queues || ops == 0 || ops > MLX5DM_QUEUE_MAX_OPS)
		return -EINVAL;
	while ((1u << log) < ops * MLX5DM_QUEUE_OP_WQEBB)
		log++;
	/* No larger than the device's QPs and CQs: it waits for room more often then. */
	if (log > ctx->caps.log_max_qp_sz || log > ctx->caps.log_max_cq_sz)
		log = MLX5DM_MAX(6u, MLX5DM_MIN(ctx->caps.log_max_qp_sz, ctx->caps.log_max_cq_sz));
	sattr = mlx5dm_ctx_send_attr(ctx, log);
	q = &ctx->queues[queue];
	mlx5dm_spinlock_lock(&q->lock);
	ret = mlx5dm_send_ring_resize(q->ring, &sattr);
	if (ret == 0)
		q->sized = true;
	mlx5dm_spinlock_unlock(&q->lock);
	return ret;
}

/*
 * A rule operation on q waited for room in its ring's SQ: the device
 * completed more slowly than the caller posted for as long as the SQ
 * lasted (a burst; on the model, a nap of its thread). Doubled, the ring
 * holds the next such stretch: each wait is paid once per size, not once
 * per SQ's worth of writes. Rings of queues nobody inserts through stay
 * as small as they started. Queue lock held; the drain of the resize
 * waits for what the queue posted, which the caller was waiting for.
 */
void
mlx5dm_queue_grow(struct mlx5dm_ctx *ctx, struct mlx5dm_queue *q)
{
	struct mlx5dm_send_stats ss;
	struct mlx5dm_send_attr sattr;
	uint32_t log = 0;
	int ret;

	q->sq_full_waits = mlx5dm_send_sq_full_waits(q->ring);
	if (q->sized)
		return;
	mlx5dm_send_stats_get(q->ring, &ss);
	while ((1u << log) < ss.size)
		log++;
	if (log >= ctx->queue_log_grown || ss.err != 0)
		return;
	sattr = mlx5dm_ctx_send_attr(ctx, log + 1);
	ret = mlx5dm_send_ring_resize(q->ring, &sattr);
	if (ret < 0)
		MLX5DM_LOG(WARNING, MLX5DM_STEER_LOG, "rule queue ring of %u WQEBBs not grown: %d",
			   ss.size, ret);
}

int
mlx5dm_queue_flush(struct mlx5dm_ctx *ctx, uint16_t queue)
{
	struct mlx5dm_queue *q;
	int ret;

	if (queue >= ctx->nb_queues)
		return -EINVAL;
	q = &ctx->queues[queue];
	mlx5dm_spinlock_lock(&q->lock);
	ret = mlx5dm_send_flush(q->ring);
	mlx5dm_spinlock_unlock(&q->lock);
	return ret;
}

int
mlx5dm_queue_doorbell_batch(struct mlx5dm_ctx *ctx, uint16_t queue, uint32_t wqes)
{
	struct mlx5dm_queue *q;

	if (ctx == NULL || queue >= ctx->nb_queues)
		return -EINVAL;
	q = &ctx->queues[queue];
	mlx5dm_spinlock_lock(&q->lock);
	q->db_batch = wqes > 1 ? wqes : 1;
	mlx5dm_spinlock_unlock(&q->lock);
	return 0;
}

int
mlx5dm_queue_drain(struct mlx5dm_ctx *ctx, uint16_t queue)
{
	struct mlx5dm_queue *q;
	int ret;

	if (queue >= ctx->nb_queues)
		return -EINVAL;
	q = &ctx->queues[queue];
	mlx5dm_spinlock_lock(&q->lock);
	ret = mlx5dm_send_drain(q->ring);
	mlx5dm_spinlock_unlock(&q->lock);
	return ret;
}

int
mlx5dm_queue_poll(struct mlx5dm_ctx *ctx, uint16_t queue, struct mlx5dm_queue_progress *p)
{
	struct mlx5dm_send_stats ss;
	struct mlx5dm_queue *q;
	int ret;

	if (ctx == NULL || p == NULL || queue >= ctx->nb_queues)
		return -EINVAL;
	q = &ctx->queues[queue];
	mlx5dm_spinlock_lock(&q->lock);
	ret = mlx5dm_send_progress(q->ring, &p->done);
	mlx5dm_send_stats_get(q->ring, &ss);
	mlx5dm_spinlock_unlock(&q->lock);
	p->recoveries = ss.recoveries;
	return ret;
}

bool
mlx5dm_queue_done(const struct mlx5dm_queue_progress *p, uint32_t pos)
{
	/* Positions wrap at 2^32; those compared are less than 2^31 apart. */
	return (int32_t)(p->done - pos) >= 0;
}

uint32_t
mlx5dm_queue_pos(struct mlx5dm_ctx *ctx, uint16_t queue)
{
	struct mlx5dm_queue *q;
	uint32_t pos;

	if (queue >= ctx->nb_queues)
		return 0;
	q = &ctx->queues[queue];
	mlx5dm_spinlock_lock(&q->lock);
	pos = mlx5dm_send_pos(q->ring);
	mlx5dm_spinlock_unlock(&q->lock);
	return pos;
}

bool
mlx5dm_queue_lost(struct mlx5dm_ctx *ctx, uint16_t queue, uint32_t pos)
{
	struct mlx5dm_queue *q;
	bool lost;

	if (queue >= ctx->nb_queues)
		return false;
	q = &ctx->queues[queue];
	mlx5dm_spinlock_lock(&q->lock);
	lost = mlx5dm_send_lost(q->ring, pos);
	mlx5dm_spinlock_unlock(&q->lock);
	return lost;
}

int
mlx5dm_queue_recover(struct mlx5dm_ctx *ctx, uint16_t queue)
{
	struct mlx5dm_send_stats before, after;
	struct mlx5dm_queue *q;
	int ret;

	if (ctx == NULL || queue >= ctx->nb_queues)
		return -EINVAL;
	q = &ctx->queues[queue];
	mlx5dm_spinlock_lock(&q->lock);
	mlx5dm_send_stats_get(q->ring, &before);
	ret = mlx5dm_send_recover(q->ring);
	mlx5dm_send_stats_get(q->ring, &after);
	/* Under the same hold: no sync finds the ring back and its lost unlinks not executed. */
	if (ret == 0 && after.rewrites != before.rewrites) {
		ret = mlx5dm_send_drain(q->ring);
		MLX5DM_LOG(NOTICE, MLX5DM_STEER_LOG, "unlinks of deletions the ring lost written "
			   "again: %" PRIu64 " (%d)", after.rewrites - before.rewrites, ret);
	}
	mlx5dm_spinlock_unlock(&q->lock);
	return ret;
}

int
mlx5dm_ctx_stats_get(struct mlx5dm_ctx *ctx, struct mlx5dm_ctx_stats *st)
{
	struct mlx5dm_icm_stats is[MLX5DM_ICM_TYPE_NUM];
	struct mlx5dm_send_stats ss;
	int64_t rules = 0;
	unsigned int i;

	memset(st, 0, sizeof(*st));
	mlx5dm_icm_set_stats(ctx->icm, is, NULL);
	for (i = 0; i < MLX5DM_ICM_TYPE_NUM && i < MLX5DM_ARRAY_SIZE(st->icm); i++) {
		st->icm[i].used_bytes = is[i].used_bytes;
		st->icm[i].hot_bytes = is[i].hot_bytes;
		st->icm[i].dm_bytes = is[i].dm_bytes;
	}
	for (i = 0; i <= ctx->nb_queues; i++) {
		mlx5dm_spinlock_lock(&ctx->queues[i].lock);
		mlx5dm_send_stats_get(ctx->queues[i].ring, &ss);
		rules += ctx->queues[i].n_rules;
		mlx5dm_spinlock_unlock(&ctx->queues[i].lock);
		st->wqes += ss.wqes;
		st->write_bytes += ss.write_bytes;
	}
	mlx5dm_spinlock_lock(&ctx->lock);
	st->tables = ctx->n_tables;
	st->matchers = ctx->n_matchers;
	mlx5dm_spinlock_unlock(&ctx->lock);
	st->rules = (uint64_t)rules;
	st->rehash = __atomic_load_n(&ctx->n_rehash, __ATOMIC_RELAXED);
	st->queues = ctx->nb_queues;
	st->queue_waits = __atomic_load_n(&ctx->n_order_waits, __ATOMIC_RELAXED);
	mlx5dm_steer_stats_objects(ctx, st);
	return 0;
}

int
mlx5dm_ctx_ste_room(struct mlx5dm_ctx *ctx, uint64_t rules)
{
	struct mlx5dm_icm_stats is[MLX5DM_ICM_TYPE_NUM];
	uint64_t size, used;

	if (ctx == NULL)
		return -EINVAL;
	size = mlx5dm_ctx_ste_entries(ctx) * MLX5DM_STE_SIZE;
	mlx5dm_icm_set_stats(ctx->icm, is, NULL);
	used = MLX5DM_MIN(is[MLX5DM_ICM_STE].used_bytes, size);
	if (rules > (size - used) / MLX5DM_STE_SIZE) {
		MLX5DM_LOG(ERR, MLX5DM_STEER_LOG, "%" PRIu64 " rules need %" PRIu64 " bytes of STE "
			   "ICM at the least; the device has %" PRIu64 " of %" PRIu64 " left",
			   rules, rules * MLX5DM_STE_SIZE, size - used, size);
		return -ENOMEM;
	}
	return 0;
}

int
mlx5dm_queue_stats_get(struct mlx5dm_ctx *ctx, uint16_t queue, struct mlx5dm_queue_stats *st)
{
	struct mlx5dm_send_stats ss;
	struct mlx5dm_queue *q;

	if (ctx == NULL || st == NULL || queue >= ctx->nb_queues)
		return -EINVAL;
	q = &ctx->queues[queue];
	mlx5dm_spinlock_lock(&q->lock);
	mlx5dm_send_stats_get(q->ring, &ss);
	st->rules = q->n_rules;
	mlx5dm_spinlock_unlock(&q->lock);
	st->unlinks_redone = ss.rewrites;
	st->wqes = ss.wqes;
	st->write_bytes = ss.write_bytes;
	st->doorbells = ss.doorbells;
	st->cqes = ss.cqes;
	st->full_waits = ss.full_waits;
	st->size = ss.size;
	st->outstanding = ss.outstanding;
	st->unrung = ss.unrung;
	st->error = ss.err;
	st->err_syndrome = ss.err_syndrome;
	st->recoveries = ss.recoveries;
	st->shard_busy = __atomic_load_n(&q->n_shard_busy, __ATOMIC_RELAXED);
	return 0;
}
