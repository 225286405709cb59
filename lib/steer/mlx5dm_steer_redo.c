/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Deletions a failed send ring lost, written again once it is back.
 *
 * A rule's deletion is one write, its unlink (the slot's new image, the
 * follower's image in the slot, or the predecessor's control part). The
 * rule leaves the library when the call returns, yet the device executes
 * that write later. Should the ring fail first (an error CQE: the QP
 * flushes every later WQE unexecuted, PRM "Error Handling" of send queues),
 * the device keeps steering by the rule, and the ICM it reaches was handed
 * back to its pool. So each queue keeps its unlinks, in the order they were
 * posted, until the ring reports them done: mlx5dm_queue_recover() posts
 * the lost ones again behind the reset QP and drains them, and until then
 * the ICM sync fails (the pools keep freed ICM hot, mlx5dm_icm.h), so no
 * freed entry is reused while the device may still reach it.
 *
 * The bytes written again are those of the lost write: nothing later on
 * that queue changed the entry (the ring refuses everything until it is
 * back), and a creation lost with it is destroyed by its caller after the
 * recovery, which writes the slot chain again as the library holds it.
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_steer_priv.h"

int
mlx5dm_redo_init(struct mlx5dm_queue *q)
{
	struct mlx5dm_send_stats st;

	/* Every unlink takes a WQEBB: no more can be outstanding, plus a few never posted. */
	mlx5dm_send_stats_get(q->ring, &st);
	q->redo.cap = st.size + MLX5DM_REDO_UNPOSTED;
	q->redo.log = mlx5dm_calloc(q->redo.cap, sizeof(*q->redo.log));
	return q->redo.log == NULL ? -ENOMEM : 0;
}

void
mlx5dm_redo_fini(struct mlx5dm_queue *q)
{
	mlx5dm_free(q->redo.log);
	q->redo.log = NULL;
	q->redo.count = 0;
}

static struct mlx5dm_unlink *
mlx5dm_redo_at(struct mlx5dm_queue *q, uint32_t i)
{
	uint32_t k = q->redo.head + i;

	return &q->redo.log[k >= q->redo.cap ? k - q->redo.cap : k];
}

/* A kept unlink still to be executed: not posted, or posted and lost by the ring. */
static bool
mlx5dm_redo_pending(const struct mlx5dm_queue *q, const struct mlx5dm_unlink *u)
{
	return !u->posted || mlx5dm_send_lost(q->ring, u->pos);
}

/* Forget the unlinks the device executed (the oldest first). */
void
mlx5dm_redo_trim(struct mlx5dm_queue *q)
{
	while (q->redo.count != 0) {
		const struct mlx5dm_unlink *u = &q->redo.log[q->redo.head];

		if (!u->posted || !mlx5dm_send_done(q->ring, u->pos) ||
		    mlx5dm_send_error(q->ring) != 0)
			break;
		q->redo.head = q->redo.head + 1 == q->redo.cap ? 0 : q->redo.head + 1;
		q->redo.count--;
	}
}

/* Post len bytes of image at ICM address addr, kept until executed (queue lock held). */
static int
mlx5dm_redo_post(struct mlx5dm_queue *q, uint64_t addr, uint32_t rkey, const uint8_t *image,
		 uint8_t len)
{
	struct mlx5dm_unlink *u;
	int ret;

	if (q->redo.count == q->redo.cap) {
		/* Cannot be with every unlink posted: the oldest cannot be redone now. */
		MLX5DM_LOG(ERR, MLX5DM_STEER_LOG, "unlink of a lost deletion dropped");
		q->redo.head = q->redo.head + 1 == q->redo.cap ? 0 : q->redo.head + 1;
		q->redo.count--;
	}
	u = mlx5dm_redo_at(q, q->redo.count);
	u->addr = addr;
	u->rkey = rkey;
	u->len = len;
	/* The two sizes an unlink writes, each a fixed copy. */
	if (len == MLX5DM_STE_SIZE)
		memcpy(u->image, image, MLX5DM_STE_SIZE);
	else
		memcpy(u->image, image, MLX5DM_STE_CTRL_SIZE);
	/* A write is posted exactly when it returns 0 (mlx5dm_send.h). */
	ret = mlx5dm_send_write(q->ring, addr, rkey, image, len);
	u->pos = mlx5dm_send_pos(q->ring);
	u->posted = ret == 0;
	q->redo.count++;
	return ret;
}

int
mlx5dm_redo_unlink(struct mlx5dm_queue *q, const struct mlx5dm_icm_chunk *chunk, uint32_t i,
		   const uint8_t *image, uint8_t len)
{
	/* In batches: the queue's creations forget the rest (mlx5dm_redo_forget()). */
	if (q->redo.count >= MLX5DM_REDO_TRIM_AT)
		mlx5dm_redo_trim(q);
	return mlx5dm_redo_post(q, mlx5dm_icm_chunk_entry_mr(chunk, i), chunk->rkey, image, len);
}

bool
mlx5dm_redo_due(struct mlx5dm_queue *q)
{
	uint32_t i;

	if (mlx5dm_send_error(q->ring) == 0)
		return false;
	for (i = 0; i < q->redo.count; i++)
		if (mlx5dm_redo_pending(q, mlx5dm_redo_at(q, i)))
			return true;
	return false;
}

int
mlx5dm_redo_run(struct mlx5dm_queue *q)
{
	uint32_t i, n = q->redo.count, redone = 0;
	int ret = 0;

	if (mlx5dm_send_error(q->ring) != 0)
		return -EIO;
	/*
	 * Each kept unlink leaves the front and, unless the device executed
	 * it, comes back at the end, in its order: a lost one posted again
	 * (or, once a post failed, as not posted, for the next recovery), one
	 * still outstanding on a ring that did not fail as it was.
	 */
	for (i = 0; i < n; i++) {
		struct mlx5dm_unlink u = q->redo.log[q->redo.head];
		bool pending = mlx5dm_redo_pending(q, &u);

		q->redo.head = q->redo.head + 1 == q->redo.cap ? 0 : q->redo.head + 1;
		q->redo.count--;
		if (!pending && mlx5dm_send_done(q->ring, u.pos))
			continue;
		if (pending && ret == 0) {
			ret = mlx5dm_redo_post(q, u.addr, u.rkey, u.image, u.len);
			redone++;
			continue;
		}
		if (pending)
			u.posted = false;
		*mlx5dm_redo_at(q, q->redo.count) = u;
		q->redo.count++;
	}
	if (redone == 0)
		return ret;
	if (ret == 0)
		ret = mlx5dm_send_drain(q->ring);
	MLX5DM_LOG(NOTICE, MLX5DM_STEER_LOG, "unlinks of deletions the ring lost written "
		   "again: %u (%d)", redone, ret);
	q->redo.redone += redone;
	return ret;
}
