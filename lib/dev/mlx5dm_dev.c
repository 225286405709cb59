/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/* Opening and closing a device through one of the two transports. */

#include <errno.h>

#include "mlx5dm_osdep.h"
#include "mlx5dm_sim.h"
#include "mlx5dm_dev_priv.h"

static int
mlx5dm_dev_sim_open(struct mlx5dm_dev *dev, const struct mlx5dm_sim_config *cfg)
{
	struct mlx5dm_sim *sim = mlx5dm_sim_create(cfg);

	if (sim == NULL) {
		MLX5DM_LOG(ERR, MLX5DM_DEV_LOG, "cannot create the device model (errno %d)", errno);
		return -errno;
	}
	dev->ops = &mlx5dm_sim_dev_ops;
	dev->ctx = mlx5dm_sim_context(sim);
	dev->transport = sim;
	return 0;
}

struct mlx5dm_dev *
mlx5dm_dev_open(const struct mlx5dm_dev_attr *attr)
{
	struct mlx5dm_dev *dev;
	int ret;

	if (attr == NULL || (attr->backend != MLX5DM_DEV_BACKEND_SIM &&
			     attr->backend != MLX5DM_DEV_BACKEND_HW)) {
		errno = EINVAL;
		return NULL;
	}
	dev = mlx5dm_zmalloc(sizeof(*dev));
	if (dev == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	dev->backend = attr->backend;
	if (attr->backend == MLX5DM_DEV_BACKEND_SIM)
		ret = mlx5dm_dev_sim_open(dev, attr->sim);
	else
		ret = mlx5dm_dev_hw_open(dev, attr->ib_device);
	if (ret != 0) {
		mlx5dm_free(dev);
		errno = -ret;
		return NULL;
	}
	return dev;
}

void
mlx5dm_dev_close(struct mlx5dm_dev *dev)
{
	if (dev == NULL)
		return;
	if (dev->backend == MLX5DM_DEV_BACKEND_SIM)
		mlx5dm_sim_destroy(dev->transport);
	else
		mlx5dm_dev_hw_close(dev);
	mlx5dm_free(dev);
}
