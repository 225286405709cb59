/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/* The registry of transports; opening and closing a device through one. */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "mlx5dm_osdep.h"
#include "mlx5dm_dev.h"

/* Filled before main() by the transports' constructors, or by a program before its first open. */
#define MLX5DM_DEV_MAX_TRANSPORTS 8
static const struct mlx5dm_dev_transport *mlx5dm_dev_transports[MLX5DM_DEV_MAX_TRANSPORTS];

const struct mlx5dm_dev_transport *
mlx5dm_dev_transport_find(const char *name)
{
	unsigned int i;

	for (i = 0; name != NULL && i < MLX5DM_DEV_MAX_TRANSPORTS; i++)
		if (mlx5dm_dev_transports[i] != NULL &&
		    strcmp(mlx5dm_dev_transports[i]->name, name) == 0)
			return mlx5dm_dev_transports[i];
	return NULL;
}

int
mlx5dm_dev_transport_register(const struct mlx5dm_dev_transport *transport)
{
	unsigned int i;

	if (transport == NULL || transport->name == NULL || transport->open == NULL ||
	    transport->close == NULL)
		return -EINVAL;
	if (mlx5dm_dev_transport_find(transport->name) != NULL)
		return -EEXIST;
	for (i = 0; i < MLX5DM_DEV_MAX_TRANSPORTS; i++) {
		if (mlx5dm_dev_transports[i] == NULL) {
			mlx5dm_dev_transports[i] = transport;
			return 0;
		}
	}
	return -ENOSPC;
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
	const struct mlx5dm_dev_transport *transport;
	struct mlx5dm_dev *dev;
	int socket, ret;

	if (attr == NULL || attr->transport == NULL) {
		errno = EINVAL;
		return NULL;
	}
	transport = mlx5dm_dev_transport_find(attr->transport);
	if (transport == NULL) {
		MLX5DM_LOG(ERR, MLX5DM_DEV_LOG, "no transport \"%s\" in this build",
			   attr->transport);
		errno = ENOENT;
		return NULL;
	}
	socket = attr->has_socket && attr->socket >= 0 ? attr->socket : MLX5DM_SOCKET_ANY;
	dev = mlx5dm_zmalloc_socket(sizeof(*dev), socket);
	if (dev == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	dev->transport = transport;
	dev->socket = socket;
	ret = transport->open(dev, attr);
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
	dev->transport->close(dev);
	mlx5dm_free(dev);
}

int
mlx5dm_dev_wire_connect(struct mlx5dm_dev *a, struct mlx5dm_dev *b)
{
	if (a->ops != b->ops)
		return -EINVAL;
	if (a->ops->wire_connect == NULL)
		return -ENOTSUP;
	return a->ops->wire_connect(a->ctx, b->ctx);
}

int
mlx5dm_dev_port_stats(struct mlx5dm_dev *dev, struct mlx5dm_dev_port_stats *stats)
{
	if (dev->ops->port_stats == NULL)
		return -ENOTSUP;
	return dev->ops->port_stats(dev->ctx, stats);
}

int
mlx5dm_dev_vport_reg_c0(struct mlx5dm_dev *dev, uint16_t vport, uint32_t *value, uint32_t *mask)
{
	if (dev->ops->vport_reg_c0 == NULL)
		return -ENOTSUP;
	return dev->ops->vport_reg_c0(dev->ctx, vport, value, mask);
}

int
mlx5dm_dev_vf_vport(struct mlx5dm_dev *dev, uint16_t vf, uint16_t *vport)
{
	if (dev->ops->vf_vport == NULL)
		return -ENOTSUP;
	return dev->ops->vf_vport(dev->ctx, vf, vport);
}
