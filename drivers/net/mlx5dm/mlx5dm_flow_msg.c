/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Refusal texts that name an item or action type, for every step of the
 * translation (items, actions, the match writers).
 */

#include <stdio.h>

#include "mlx5dm_flow.h"

/* Refusal texts made here: rte_flow_error keeps only a pointer. */
static __thread char mlx5dm_flow_msg_buf[160];

/* DPDK's name of an item or action type (testpmd's names), NULL for a type it does not name. */
static const char *
mlx5dm_flow_type_name(bool action, int type)
{
	const char *name = NULL;

	if (rte_flow_conv(action ? RTE_FLOW_CONV_OP_ACTION_NAME_PTR :
			  RTE_FLOW_CONV_OP_ITEM_NAME_PTR, &name, sizeof(name),
			  (const void *)(intptr_t)type, NULL) < 0)
		return NULL;
	return name;
}

const char *
mlx5dm_flow_type_msg(bool action, int type)
{
	const char *what = action ? "action" : "item";
	const char *name = mlx5dm_flow_type_name(action, type);

	if (name == NULL)
		snprintf(mlx5dm_flow_msg_buf, sizeof(mlx5dm_flow_msg_buf),
			 "%s type %d not supported", what, type);
	else
		snprintf(mlx5dm_flow_msg_buf, sizeof(mlx5dm_flow_msg_buf),
			 "%s type %s not supported", what, name);
	return mlx5dm_flow_msg_buf;
}

const char *
mlx5dm_flow_named_msg(bool action, int type, const char *msg)
{
	const char *name = mlx5dm_flow_type_name(action, type);

	if (name == NULL)
		snprintf(mlx5dm_flow_msg_buf, sizeof(mlx5dm_flow_msg_buf), "%s type %d: %s",
			 action ? "action" : "item", type, msg);
	else
		snprintf(mlx5dm_flow_msg_buf, sizeof(mlx5dm_flow_msg_buf), "%s: %s", name, msg);
	return mlx5dm_flow_msg_buf;
}
