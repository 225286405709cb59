/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * TEMPORARY: symbols the flow part calls that do not exist yet on this
 * branch, so librte_net_mlx5dm.so links (-Wl,--no-undefined). Each fails
 * with ENOTSUP; nothing here pretends to work. Delete this file (and its
 * line in meson.build) when:
 *  - lib/steer implements mlx5dm_domain_dump (declared in mlx5dm_steer.h),
 *    and
 *  - the datapath implements mlx5dm_rxq_rqn() (mlx5dm.h).
 * Linking both will fail with "multiple definition", which is the reminder.
 */

#include <errno.h>

#include "mlx5dm.h"
#include "mlx5dm_steer.h"

int
mlx5dm_domain_dump(struct mlx5dm_domain *dom, FILE *f)
{
	(void)dom;
	(void)f;
	return -ENOTSUP;
}

int
mlx5dm_rxq_rqn(struct rte_eth_dev *dev, uint16_t queue, uint32_t *rqn)
{
	(void)dev;
	(void)queue;
	(void)rqn;
	return -ENOTSUP;
}
