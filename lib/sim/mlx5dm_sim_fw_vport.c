/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The function's NIC vport as its firmware reports it: MTU and link state
 * from the configuration (vport_mtu, link_down). The rest of the NIC vport
 * context (RoCE, inline mode, MAC) is answered by the queue side
 * (mlx5dm_sim_cmd_query_nic_vport_context()), whose fields the send queues
 * depend on; this file adds the port's.
 *
 * Layouts: mlx5_ifc.h nic_vport_context (at bit 0x80 of the output) and
 * query_vport_state_in/out.
 */

#include "mlx5dm_sim_core.h"

#define MLX5DM_SIM_VPORT_MTU            SIMF(0x080 + 0x130, 16)
#define MLX5DM_SIM_VSTATE_IN_OTHER      SIMF(0x040, 1)
#define MLX5DM_SIM_VSTATE_ADMIN         SIMF(0x078, 4)
#define MLX5DM_SIM_VSTATE_OPER          SIMF(0x07c, 4)

enum {
	MLX5DM_SIM_VSTATE_OP_MOD_VNIC = 0x0,
	MLX5DM_SIM_VSTATE_DOWN = 0x0,
	MLX5DM_SIM_VSTATE_UP = 0x1,
	/* The MTU the kernel gives a netdev of 1500 bytes: 1500 + 14 + 4 + 4 (mlx5e hard_mtu). */
	MLX5DM_SIM_VPORT_MTU_DEFAULT = 1522,
};

int
mlx5dm_sim_cmd_nic_vport_context(struct mlx5dm_sim_cmd *c)
{
	int st = mlx5dm_sim_cmd_query_nic_vport_context(c);

	if (st != MLX5DM_SIM_ST_OK)
		return st;
	mlx5dm_sim_out(c, MLX5DM_SIM_VPORT_MTU, c->sim->cfg.vport_mtu != 0 ?
		       c->sim->cfg.vport_mtu : MLX5DM_SIM_VPORT_MTU_DEFAULT);
	return MLX5DM_SIM_ST_OK;
}

int
mlx5dm_sim_cmd_query_vport_state(struct mlx5dm_sim_cmd *c)
{
	uint64_t state = c->sim->cfg.link_down ? MLX5DM_SIM_VSTATE_DOWN : MLX5DM_SIM_VSTATE_UP;

	if (c->op_mod != MLX5DM_SIM_VSTATE_OP_MOD_VNIC ||
	    mlx5dm_sim_in(c, MLX5DM_SIM_VSTATE_IN_OTHER) != 0)
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "only the function's own NIC vport");
	/* Administratively up; operationally as the cable is. */
	mlx5dm_sim_out(c, MLX5DM_SIM_VSTATE_ADMIN, MLX5DM_SIM_VSTATE_UP);
	mlx5dm_sim_out(c, MLX5DM_SIM_VSTATE_OPER, state);
	return MLX5DM_SIM_ST_OK;
}
