/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The port's flow state, shared by the synchronous ops and the template
 * API: made on first use.
 */

#include <errno.h>
#include <stdalign.h>

#include <rte_common.h>
#include <rte_ethdev.h>
#include <rte_flow_driver.h>
#include <rte_malloc.h>
#include <ethdev_driver.h>

#include "mlx5dm.h"
#include "mlx5dm_flow.h"
#include "mlx5dm_flow_template.h"
#include "mlx5dm_osdep.h"

/* Created on first use: isolate may precede start. */
struct mlx5dm_flow_priv *
mlx5dm_flow_port_fp_new(struct mlx5dm_priv *priv)
{
	/* A port built by hand in unit tests has no device. */
	int socket = priv->dev != NULL ? priv->dev->socket : MLX5DM_SOCKET_ANY;
	struct mlx5dm_flow_priv *fp, *expected = NULL;

	fp = mlx5dm_aligned_zmalloc_socket(sizeof(*fp), alignof(struct mlx5dm_flow_priv), socket);
	if (fp == NULL)
		return NULL;
	mlx5dm_flow_priv_init(fp, socket);
	/* A probed port (a port built by hand in unit tests has no vdev state, no EAL). */
	if (priv->sh != NULL)
		fp->null_engine = priv->sh->args.flow_engine == MLX5DM_FLOW_ENGINE_NULL;
	if (!__atomic_compare_exchange_n(&priv->flow, &expected, fp, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE)) {
		mlx5dm_free(fp);
		fp = expected;
	}
	return fp;
}

int
mlx5dm_flow_nomem(struct rte_flow_error *error)
{
	return rte_flow_error_set(error, ENOMEM, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
				  "no memory for the port's flow state");
}
