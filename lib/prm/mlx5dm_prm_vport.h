/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The port's attributes as the NIC vport reports them: QUERY_VPORT_STATE
 * and the fields of QUERY_NIC_VPORT_CONTEXT's nic_vport_context the PMD
 * reads (mlx5_ifc.h: query_vport_state_in/out, nic_vport_context, at bit
 * 0x80 of query_nic_vport_context_out).
 */

#ifndef _MLX5DM_PRM_VPORT_H_
#define _MLX5DM_PRM_VPORT_H_

#include "mlx5dm_prm_bits.h"

enum {
	MLX5DM_CMD_OP_QUERY_VPORT_STATE = 0x750,
	/* op_mod: the function's own NIC vport. */
	MLX5DM_VPORT_STATE_OP_MOD_VNIC = 0x0,
	MLX5DM_VPORT_STATE_DOWN = 0x0,
	MLX5DM_VPORT_STATE_UP = 0x1,
};

/* query_vport_state_in (16 bytes) / _out (16 bytes). */
#define MLX5DM_QUERY_VPORT_STATE_OUT_BYTES 16
#define MLX5DM_VPORT_STATE_ADMIN   MLX5DM_PRM_FIELD(0x78, 4)
#define MLX5DM_VPORT_STATE_OPER    MLX5DM_PRM_FIELD(0x7c, 4)

/* nic_vport_context: mtu, permanent_address (mac_address_layout). */
#define MLX5DM_NIC_VPORT_MTU       MLX5DM_PRM_FIELD(0x80 + 0x130, 16)
#define MLX5DM_NIC_VPORT_MAC_47_32 MLX5DM_PRM_FIELD(0x80 + 0x7b0, 16)
#define MLX5DM_NIC_VPORT_MAC_31_0  MLX5DM_PRM_FIELD(0x80 + 0x7c0, 32)

/*
 * The vport's MTU counts the whole frame: the netdev's MTU plus Ethernet
 * header, one VLAN tag and FCS (the kernel's MLX5E_ETH_HARD_MTU,
 * drivers/net/ethernet/mellanox/mlx5/core/en.h, MLX5E_SW2HW_MTU).
 */
#define MLX5DM_VPORT_HARD_MTU (14 + 4 + 4)

/*
 * The E-Switch as its manager reports it (mlx5_ifc.h query_esw_vport_context_in/
 * out with esw_vport_context at bit 0x80 of the output; e_switch_cap, cap type 9):
 * what an FDB domain reads of a vport (rdma-core dr_devx.c,
 * dr_devx_query_esw_vport_context) and which vport the manager is.
 */
enum {
	MLX5DM_CMD_OP_QUERY_ESW_VPORT_CONTEXT = 0x752,
	/* The uplink's number in source_port matching (rdma-core WIRE_PORT). */
	MLX5DM_VPORT_UPLINK = 0xffff,
};
#define MLX5DM_QUERY_ESW_VPORT_OUT_BYTES (16 + 256)
#define MLX5DM_ESW_VPORT_IN_OTHER_VPORT MLX5DM_PRM_FIELD(0x40, 1)
#define MLX5DM_ESW_VPORT_IN_NUMBER      MLX5DM_PRM_FIELD(0x50, 16)
#define MLX5DM_ESW_VPORT_ICM_RX         MLX5DM_PRM_FIELD(0x80 + 0x780, 64)
#define MLX5DM_ESW_VPORT_ICM_TX         MLX5DM_PRM_FIELD(0x80 + 0x7c0, 64)
#define MLX5DM_ESW_CAP_MANAGER_VALID    MLX5DM_PRM_FIELD(0x60, 1)
#define MLX5DM_ESW_CAP_MANAGER_VPORT    MLX5DM_PRM_FIELD(0x70, 16)

#endif /* _MLX5DM_PRM_VPORT_H_ */
