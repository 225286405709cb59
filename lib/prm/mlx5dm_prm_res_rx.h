/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * PRM layouts of the receive objects a steering rule delivers to: RQ
 * (create_rq_in/modify_rq_in with rqc and its wq), RQT (create_rqt_in with
 * rqtc and the RQ list) and TIR (create_tir_in with tirc; create_tir_out
 * also carries the TIR's ICM address, the final hit address of an STE
 * delivering to it - rdma-core verbs.c, set_devx_obj_info()). Bit offsets follow mlx5_ifc.h /
 * DPDK mlx5_prm.h (bit 0 = MSB of byte 0), relative to the mailbox start.
 */

#ifndef _MLX5DM_PRM_RES_RX_H_
#define _MLX5DM_PRM_RES_RX_H_

#include "mlx5dm_prm_bits.h"

enum {
	MLX5DM_CMD_OP_CREATE_TIR = 0x900,
	MLX5DM_CMD_OP_CREATE_RQ = 0x908,
	MLX5DM_CMD_OP_MODIFY_RQ = 0x909,
	MLX5DM_CMD_OP_CREATE_RQT = 0x916,
};

/* create_rq_in / modify_rq_in (272 bytes): the rqc starts at bit 0x100. */
#define MLX5DM_CREATE_RQ_IN_BYTES 272
#define MLX5DM_CREATE_RQ_OUT_BYTES 16
#define MLX5DM_MODIFY_RQ_IN_BYTES 272
#define MLX5DM_MODIFY_RQ_OUT_BYTES 16
#define MLX5DM_MODIFY_RQ_IN_RQ_STATE MLX5DM_PRM_FIELD(0x40, 4) /* current state */
#define MLX5DM_MODIFY_RQ_IN_RQN      MLX5DM_PRM_FIELD(0x48, 24)
#define MLX5DM_MODIFY_RQ_IN_BITMASK  MLX5DM_PRM_FIELD(0x80, 64)
#define MLX5DM_RQC_OFF 0x100
#define MLX5DM_RQC(off, w) MLX5DM_PRM_FIELD(MLX5DM_RQC_OFF + (off), (w))
#define MLX5DM_RQC_VSD               MLX5DM_RQC(0x03, 1)
#define MLX5DM_RQC_MEM_RQ_TYPE       MLX5DM_RQC(0x04, 4)
#define MLX5DM_RQC_STATE             MLX5DM_RQC(0x08, 4)
#define MLX5DM_RQC_FLUSH_IN_ERROR_EN MLX5DM_RQC(0x0d, 1)
#define MLX5DM_RQC_TS_FORMAT         MLX5DM_RQC(0x1a, 2)
#define MLX5DM_RQC_CQN               MLX5DM_RQC(0x48, 24)
/* The wq inside the rqc. */
#define MLX5DM_WQ_OFF (MLX5DM_RQC_OFF + 0x180)
#define MLX5DM_WQ(off, w) MLX5DM_PRM_FIELD(MLX5DM_WQ_OFF + (off), (w))
#define MLX5DM_WQ_TYPE               MLX5DM_WQ(0x000, 4)
#define MLX5DM_WQ_END_PADDING_MODE   MLX5DM_WQ(0x005, 2)
#define MLX5DM_WQ_PD                 MLX5DM_WQ(0x048, 24)
#define MLX5DM_WQ_DBR_ADDR           MLX5DM_WQ(0x080, 64)
#define MLX5DM_WQ_LOG_WQ_STRIDE      MLX5DM_WQ(0x10c, 4)
#define MLX5DM_WQ_LOG_WQ_PG_SZ       MLX5DM_WQ(0x113, 5)
#define MLX5DM_WQ_LOG_WQ_SZ          MLX5DM_WQ(0x11b, 5)
#define MLX5DM_WQ_DBR_UMEM_VALID     MLX5DM_WQ(0x120, 1)
#define MLX5DM_WQ_WQ_UMEM_VALID      MLX5DM_WQ(0x121, 1)
#define MLX5DM_WQ_DBR_UMEM_ID        MLX5DM_WQ(0x140, 32)
#define MLX5DM_WQ_WQ_UMEM_ID         MLX5DM_WQ(0x160, 32)
#define MLX5DM_WQ_WQ_UMEM_OFFSET     MLX5DM_WQ(0x180, 64)

enum {
	MLX5DM_RQC_STATE_RST = 0x0,
	MLX5DM_RQC_STATE_RDY = 0x1,
	MLX5DM_RQC_STATE_ERR = 0x3,
	MLX5DM_RQC_MEM_RQ_TYPE_INLINE = 0x0,
	MLX5DM_WQ_TYPE_CYCLIC = 0x1,
	MLX5DM_WQ_END_PAD_NONE = 0x0,
	MLX5DM_TS_FORMAT_FREE_RUNNING = 0x0,
	MLX5DM_TS_FORMAT_DEFAULT = 0x1,
	MLX5DM_HCA_TS_FORMAT_FR = 0x0,    /* cmd_hca_cap.rq_ts_format: free running only */
};

/* create_rqt_in: 272 bytes + 4 per RQ; the rqtc starts at bit 0x100. */
#define MLX5DM_CREATE_RQT_IN_BYTES(n) (272 + 4 * (n))
#define MLX5DM_CREATE_RQT_OUT_BYTES 16
#define MLX5DM_RQTC_OFF 0x100
#define MLX5DM_RQTC_MAX_SIZE    MLX5DM_PRM_FIELD(MLX5DM_RQTC_OFF + 0xb0, 16)
#define MLX5DM_RQTC_ACTUAL_SIZE MLX5DM_PRM_FIELD(MLX5DM_RQTC_OFF + 0xd0, 16)
/* rq_num[i] (rq_num_bits: 8 reserved bits, then the 24-bit RQ number). */
#define MLX5DM_RQTC_RQ_NUM(i)   MLX5DM_PRM_FIELD(MLX5DM_RQTC_OFF + 0x780 + 32 * (i) + 8, 24)

/* create_tir_in (272 bytes): the tirc starts at bit 0x100. */
#define MLX5DM_CREATE_TIR_IN_BYTES 272
#define MLX5DM_CREATE_TIR_OUT_BYTES 16
#define MLX5DM_TIRC_OFF 0x100
#define MLX5DM_TIRC(off, w) MLX5DM_PRM_FIELD(MLX5DM_TIRC_OFF + (off), (w))
#define MLX5DM_TIRC_DISP_TYPE         MLX5DM_TIRC(0x020, 4)
#define MLX5DM_TIRC_INLINE_RQN        MLX5DM_TIRC(0x0e8, 24)
#define MLX5DM_TIRC_RX_HASH_SYMMETRIC MLX5DM_TIRC(0x100, 1)
#define MLX5DM_TIRC_TUNNELED_OFFLOAD  MLX5DM_TIRC(0x102, 1)
#define MLX5DM_TIRC_INDIRECT_TABLE    MLX5DM_TIRC(0x108, 24)
#define MLX5DM_TIRC_RX_HASH_FN        MLX5DM_TIRC(0x120, 4)
#define MLX5DM_TIRC_TRANSPORT_DOMAIN  MLX5DM_TIRC(0x128, 24)
#define MLX5DM_TIRC_TOEPLITZ_KEY_BYTE ((MLX5DM_TIRC_OFF + 0x140) / 8)
#define MLX5DM_TIRC_TOEPLITZ_KEY_LEN  40
/* rx_hash_field_select (32 bits) at tirc 0x280 (outer) and 0x2a0 (inner). */
#define MLX5DM_TIRC_SEL_OUTER 0x280
#define MLX5DM_TIRC_SEL_INNER 0x2a0
#define MLX5DM_TIRC_SEL_L3_PROT_TYPE(sel) MLX5DM_TIRC((sel) + 0x00, 1)
#define MLX5DM_TIRC_SEL_L4_PROT_TYPE(sel) MLX5DM_TIRC((sel) + 0x01, 1)
#define MLX5DM_TIRC_SEL_FIELDS(sel)       MLX5DM_TIRC((sel) + 0x02, 30)
/* create_tir_out: tirn and the TIR's RX ICM address in three pieces. */
#define MLX5DM_CREATE_TIR_OUT_ICM_63_40 MLX5DM_PRM_FIELD(0x08, 24)
#define MLX5DM_CREATE_TIR_OUT_ICM_39_32 MLX5DM_PRM_FIELD(0x40, 8)
#define MLX5DM_CREATE_TIR_OUT_TIRN      MLX5DM_PRM_FIELD(0x48, 24)
#define MLX5DM_CREATE_TIR_OUT_ICM_31_0  MLX5DM_PRM_FIELD(0x60, 32)

enum {
	MLX5DM_TIRC_DISP_DIRECT = 0x0,
	MLX5DM_TIRC_DISP_INDIRECT = 0x1,
	MLX5DM_RX_HASH_FN_TOEPLITZ = 0x2,
	MLX5DM_L3_PROT_IPV4 = 0,
	MLX5DM_L3_PROT_IPV6 = 1,
	MLX5DM_L4_PROT_TCP = 0,
	MLX5DM_L4_PROT_UDP = 1,
};

/* selected_fields bits (MLX5_RX_HASH_FIELD_SELECT_SELECTED_FIELDS_*). */
#define MLX5DM_HASH_SEL_SRC_IP   (1u << 0)
#define MLX5DM_HASH_SEL_DST_IP   (1u << 1)
#define MLX5DM_HASH_SEL_L4_SPORT (1u << 2)
#define MLX5DM_HASH_SEL_L4_DPORT (1u << 3)

#endif /* _MLX5DM_PRM_RES_RX_H_ */
