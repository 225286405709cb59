/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Doorbell batching of the rule queues (devarg doorbell_batch > 1): rte_flow
 * create/destroy post their rule writes and the library rings the queue
 * once enough wait, saving an MMIO write per operation. What this driver
 * can see observing the steering rings what waits first
 * (mlx5dm_rules_ring()): its own Tx bursts, queries, dumps, flush, port
 * start/stop. Frames from elsewhere (the wire, another port of the same
 * cable on hardware) are not seen: there a rule may take effect only at
 * the next doorbell, hence the default of one doorbell per operation.
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
