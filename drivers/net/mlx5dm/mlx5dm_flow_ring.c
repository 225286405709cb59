/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Doorbell batching (devarg doorbell_batch > 1): what this driver does that
 * observes steering (Tx bursts, queries, dumps, flush, start/stop) rings
 * what waits first; frames from the wire are not seen, hence the default
 * of one doorbell per operation.
 */

#include "mlx5dm.h"
#include "mlx5dm_log.h"
#include "mlx5dm_steer.h"

void
mlx5dm_rules_ring_slow(struct mlx5dm_priv *priv)
{
	uint16_t q;
	int ret;

	/* Cleared first: writes posted after this leave the flag set again. */
	if (__atomic_exchange_n(&priv->rules_unrung, 0, __ATOMIC_ACQ_REL) == 0 ||
	    priv->steer == NULL)
		return;
	/* A flush takes the queue's lock in the library: any thread may ring any queue. */
	for (q = 0; q < priv->nb_rule_queues; q++) {
		ret = mlx5dm_queue_flush(priv->steer, q);
		if (ret < 0)
			MLX5DM_DRV_LOG(ERR, "port %u: rule queue %u doorbell failed: %d",
				       priv->port_id, q, ret);
	}
}
