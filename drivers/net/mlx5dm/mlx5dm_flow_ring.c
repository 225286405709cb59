/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Doorbell batching of the rule queue (devarg doorbell_batch): rte_flow
 * create/destroy post their rule writes and the library rings the queue
 * once enough wait, saving a doorbell (a model run, an MMIO write on a
 * NIC) per operation. Whatever could observe the steering first rings
 * what waits (mlx5dm_rules_ring()), so to a user every rule is in place
 * when its create returns, as with a doorbell per operation.
 */

#include "mlx5dm.h"
#include "mlx5dm_log.h"
#include "mlx5dm_steer.h"

void
mlx5dm_rules_ring_slow(struct mlx5dm_priv *priv)
{
	int ret;

	/* Cleared first: writes posted after this leave the flag set again. */
	if (__atomic_exchange_n(&priv->rules_unrung, 0, __ATOMIC_ACQ_REL) == 0 ||
	    priv->steer == NULL)
		return;
	ret = mlx5dm_queue_flush(priv->steer, 0);
	if (ret < 0)
		MLX5DM_DRV_LOG(ERR, "port %u: rule queue doorbell failed: %d", priv->port_id, ret);
}
