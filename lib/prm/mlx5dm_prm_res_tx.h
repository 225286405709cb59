/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * PRM layouts of the send side of a raw-packet datapath queue: TIS
 * (create_tis_in with tisc), SQ (create_sq_in/modify_sq_in with sqc and
 * its wq, which has the RQ's wq layout) and where the inline header size
 * an Ethernet segment must carry comes from: the Ethernet offload caps'
 * wqe_inline_mode and, when that says "vport context", the NIC vport
 * context's min_wqe_inline_mode. Bit offsets follow the kernel's
 * include/linux/mlx5/mlx5_ifc.h and DPDK drivers/common/mlx5/mlx5_prm.h
 * (struct mlx5_ifc_sqc_bits, mlx5_ifc_tisc_bits,
 * mlx5_ifc_per_protocol_networking_offload_caps_bits,
 * mlx5_ifc_nic_vport_context_bits), bit 0 = MSB of byte 0, relative to
 * the mailbox start.
 */

#ifndef _MLX5DM_PRM_RES_TX_H_
#define _MLX5DM_PRM_RES_TX_H_

#include "mlx5dm_prm_bits.h"
#include "mlx5dm_prm_res_rx.h"

enum {
	MLX5DM_CMD_OP_CREATE_TIS = 0x912,
	MLX5DM_CMD_OP_DESTROY_TIS = 0x914, /* built by devx_obj_destroy */
	MLX5DM_CMD_OP_CREATE_SQ = 0x904,
	MLX5DM_CMD_OP_MODIFY_SQ = 0x905,
	MLX5DM_CMD_OP_DESTROY_SQ = 0x906,  /* built by devx_obj_destroy */
	MLX5DM_CMD_OP_QUERY_SQ = 0x907,
};

/* create_tis_in (272 bytes): the tisc starts at bit 0x100. */
#define MLX5DM_CREATE_TIS_IN_BYTES 272
#define MLX5DM_CREATE_TIS_OUT_BYTES 16
#define MLX5DM_TISC_OFF 0x100
#define MLX5DM_TISC_PRIO             MLX5DM_PRM_FIELD(MLX5DM_TISC_OFF + 0x0c, 4)
#define MLX5DM_TISC_TRANSPORT_DOMAIN MLX5DM_PRM_FIELD(MLX5DM_TISC_OFF + 0x128, 24)

/*
 * create_sq_in / modify_sq_in (272 bytes): the sqc starts at bit 0x100 in
 * both; its wq at sqc bit 0x180, laid out as the RQ's (MLX5DM_WQ_* minus
 * MLX5DM_WQ_OFF gives the offset inside a wq).
 */
#define MLX5DM_CREATE_SQ_IN_BYTES 272
#define MLX5DM_CREATE_SQ_OUT_BYTES 16
#define MLX5DM_MODIFY_SQ_IN_BYTES 272
#define MLX5DM_MODIFY_SQ_OUT_BYTES 16
#define MLX5DM_QUERY_SQ_IN_BYTES 16
#define MLX5DM_QUERY_SQ_OUT_BYTES (16 + 256)
#define MLX5DM_QUERY_SQ_OUT_SQC_OFF 0x100  /* query_sq_out: reserved 0x40, then the sqc */
#define MLX5DM_MODIFY_SQ_IN_SQ_STATE MLX5DM_PRM_FIELD(0x40, 4) /* current state */
#define MLX5DM_MODIFY_SQ_IN_SQN      MLX5DM_PRM_FIELD(0x48, 24)
#define MLX5DM_QUERY_SQ_IN_SQN       MLX5DM_PRM_FIELD(0x48, 24)
#define MLX5DM_SQC_OFF 0x100
#define MLX5DM_SQC(off, w) MLX5DM_PRM_FIELD(MLX5DM_SQC_OFF + (off), (w))
#define MLX5DM_SQC_RLKY              MLX5DM_SQC(0x00, 1)
#define MLX5DM_SQC_FLUSH_IN_ERROR_EN MLX5DM_SQC(0x03, 1)
#define MLX5DM_SQC_MIN_WQE_INLINE_MODE MLX5DM_SQC(0x05, 3)
#define MLX5DM_SQC_STATE             MLX5DM_SQC(0x08, 4)
#define MLX5DM_SQC_TS_FORMAT         MLX5DM_SQC(0x1a, 2)
#define MLX5DM_SQC_CQN               MLX5DM_SQC(0x48, 24)
#define MLX5DM_SQC_TIS_LST_SZ        MLX5DM_SQC(0x100, 16)
#define MLX5DM_SQC_TIS_NUM_0         MLX5DM_SQC(0x168, 24)
/* The sqc's wq: the RQ's wq fields moved by the sqc/rqc difference (both at ctx + 0x180). */
#define MLX5DM_SQ_WQ(f) MLX5DM_PRM_FIELD((f).bit - MLX5DM_RQC_OFF + MLX5DM_SQC_OFF, (f).width)

enum {
	MLX5DM_SQC_STATE_RST = 0x0,
	MLX5DM_SQC_STATE_RDY = 0x1,
	MLX5DM_SQC_STATE_ERR = 0x3,
};

/*
 * Ethernet offload caps (cap type 0x1), per_protocol_networking_offload_caps:
 * wqe_inline_mode at bit 0x12 of the capability (the QUERY_HCA_CAP output
 * carries it after the 16-byte header, hence the 0x80 here).
 */
#define MLX5DM_HCA_CAP_ETH_OFFLOAD 0x1
#define MLX5DM_ETH_CAP_WQE_INLINE_MODE MLX5DM_PRM_FIELD(0x80 + 0x12, 2)
enum {
	MLX5DM_CAP_INLINE_MODE_L2 = 0,            /* 18 bytes, always */
	MLX5DM_CAP_INLINE_MODE_VPORT_CONTEXT = 1, /* the vport's min_wqe_inline_mode */
	MLX5DM_CAP_INLINE_MODE_NOT_REQUIRED = 2,
};

/* query_nic_vport_context_out: nic_vport_context at bit 0x80, min_wqe_inline_mode at +0x05. */
#define MLX5DM_NIC_VPORT_MIN_WQE_INLINE_MODE MLX5DM_PRM_FIELD(0x80 + 0x05, 3)
enum {
	MLX5DM_INLINE_MODE_NONE = 0,
	MLX5DM_INLINE_MODE_L2 = 1,
};

/* Inline header bytes of MLX5DM_INLINE_MODE_L2 (DPDK MLX5_ESEG_MIN_INLINE_SIZE). */
#define MLX5DM_INLINE_L2_BYTES 18

#endif /* _MLX5DM_PRM_RES_TX_H_ */
