/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/* Opening and closing a device through one of the two transports. */

#include <errno.h>
#include <stdio.h>
#include <string.h>

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

/* Exactly n hex digits of value <= max at *s; *s moves past them. */
static int
mlx5dm_dev_hex(const char **s, unsigned int n, unsigned long max, unsigned long *v)
{
	unsigned int i;

	*v = 0;
	for (i = 0; i < n; i++) {
		char c = (*s)[i];
		unsigned long d;

		if (c >= '0' && c <= '9')
			d = (unsigned long)(c - '0');
		else if (c >= 'a' && c <= 'f')
			d = (unsigned long)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			d = (unsigned long)(c - 'A' + 10);
		else
			return -EINVAL;
		*v = *v << 4 | d;
	}
	*s += n;
	return *v <= max ? 0 : -EINVAL;
}

int
mlx5dm_dev_pci_parse(const char *s, char out[MLX5DM_DEV_PCI_ADDR_LEN])
{
	unsigned long dom = 0, bus, slot, fn;
	const char *p = s;

	if (s == NULL)
		return -EINVAL;
	/* "dddd:" only when the whole address is there: 12 characters. */
	if (strlen(s) == MLX5DM_DEV_PCI_ADDR_LEN - 1 &&
	    (mlx5dm_dev_hex(&p, 4, 0xffff, &dom) < 0 || *p++ != ':'))
		return -EINVAL;
	if (mlx5dm_dev_hex(&p, 2, 0xff, &bus) < 0 || *p++ != ':' ||
	    mlx5dm_dev_hex(&p, 2, 0x1f, &slot) < 0 || *p++ != '.' ||
	    mlx5dm_dev_hex(&p, 1, 7, &fn) < 0 || *p != '\0')
		return -EINVAL;
	snprintf(out, MLX5DM_DEV_PCI_ADDR_LEN, "%04lx:%02lx:%02lx.%lx", dom, bus, slot, fn);
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
		ret = mlx5dm_dev_hw_open(dev, attr->ib_device, attr->pci_addr);
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
