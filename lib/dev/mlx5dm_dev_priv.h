/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/* Transports of the device boundary, as seen by mlx5dm_dev.c. */

#ifndef _MLX5DM_DEV_PRIV_H_
#define _MLX5DM_DEV_PRIV_H_

#include "mlx5dm_dev.h"

#define MLX5DM_DEV_LOG "dev"

/* rdma-core: open ib_device (NULL: the first mlx5 device) with DEVX. -errno on failure. */
int mlx5dm_dev_hw_open(struct mlx5dm_dev *dev, const char *ib_device);
void mlx5dm_dev_hw_close(struct mlx5dm_dev *dev);

#endif /* _MLX5DM_DEV_PRIV_H_ */
