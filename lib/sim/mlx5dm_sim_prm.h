/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The model's own reading of the PRM: every command, capability, WQE and
 * CQE field the firmware half of the model decodes or encodes, declared
 * once as (bit offset, width) in PRM bit order (bit 0 = MSB of byte 0).
 *
 * These are written from the PRM/mlx5_ifc layouts independently of the
 * library's encoders (lib/prm, lib/ste): the two sides check each other.
 * Offsets are relative to the start of the structure named in the prefix
 * (e.g. QPC_* inside the qpc, which starts at byte 24 of the QP commands).
 */

#ifndef _MLX5DM_SIM_PRM_H_
#define _MLX5DM_SIM_PRM_H_

#include "mlx5dm_prm_bits.h"

#define SIMF(b, w) MLX5DM_PRM_FIELD(b, w)

/* ---- command opcodes ---- */
enum {
	MLX5DM_SIM_OP_QUERY_HCA_CAP = 0x100,
	MLX5DM_SIM_OP_CREATE_CQ = 0x400,
	MLX5DM_SIM_OP_DESTROY_CQ = 0x401,
	MLX5DM_SIM_OP_QUERY_CQ = 0x402,
	MLX5DM_SIM_OP_CREATE_QP = 0x500,
	MLX5DM_SIM_OP_DESTROY_QP = 0x501,
	MLX5DM_SIM_OP_RST2INIT_QP = 0x502,
	MLX5DM_SIM_OP_INIT2RTR_QP = 0x503,
	MLX5DM_SIM_OP_RTR2RTS_QP = 0x504,
	MLX5DM_SIM_OP_2ERR_QP = 0x507,
	MLX5DM_SIM_OP_2RST_QP = 0x50a,
	MLX5DM_SIM_OP_QUERY_QP = 0x50b,
	MLX5DM_SIM_OP_QUERY_VPORT_STATE = 0x750,
	MLX5DM_SIM_OP_QUERY_ESW_VPORT_CONTEXT = 0x752,
	MLX5DM_SIM_OP_QUERY_NIC_VPORT_CONTEXT = 0x754,
	MLX5DM_SIM_OP_QUERY_ROCE_ADDRESS = 0x760,
	MLX5DM_SIM_OP_ALLOC_TRANSPORT_DOMAIN = 0x816,
	MLX5DM_SIM_OP_DEALLOC_TRANSPORT_DOMAIN = 0x817,
	MLX5DM_SIM_OP_CREATE_TIR = 0x900,
	MLX5DM_SIM_OP_DESTROY_TIR = 0x902,
	MLX5DM_SIM_OP_QUERY_TIR = 0x903,
	MLX5DM_SIM_OP_CREATE_SQ = 0x904,
	MLX5DM_SIM_OP_MODIFY_SQ = 0x905,
	MLX5DM_SIM_OP_DESTROY_SQ = 0x906,
	MLX5DM_SIM_OP_QUERY_SQ = 0x907,
	MLX5DM_SIM_OP_CREATE_RQ = 0x908,
	MLX5DM_SIM_OP_MODIFY_RQ = 0x909,
	MLX5DM_SIM_OP_DESTROY_RQ = 0x90a,
	MLX5DM_SIM_OP_QUERY_RQ = 0x90b,
	MLX5DM_SIM_OP_CREATE_TIS = 0x912,
	MLX5DM_SIM_OP_DESTROY_TIS = 0x914,
	MLX5DM_SIM_OP_CREATE_RQT = 0x916,
	MLX5DM_SIM_OP_MODIFY_RQT = 0x917,
	MLX5DM_SIM_OP_DESTROY_RQT = 0x918,
	MLX5DM_SIM_OP_SET_FLOW_TABLE_ROOT = 0x92f,
	MLX5DM_SIM_OP_CREATE_FLOW_TABLE = 0x930,
	MLX5DM_SIM_OP_DESTROY_FLOW_TABLE = 0x931,
	MLX5DM_SIM_OP_QUERY_FLOW_TABLE = 0x932,
	MLX5DM_SIM_OP_CREATE_FLOW_GROUP = 0x933,
	MLX5DM_SIM_OP_DESTROY_FLOW_GROUP = 0x934,
	MLX5DM_SIM_OP_SET_FLOW_TABLE_ENTRY = 0x936,
	MLX5DM_SIM_OP_DELETE_FLOW_TABLE_ENTRY = 0x938,
	MLX5DM_SIM_OP_ALLOC_FLOW_COUNTER = 0x939,
	MLX5DM_SIM_OP_DEALLOC_FLOW_COUNTER = 0x93a,
	MLX5DM_SIM_OP_QUERY_FLOW_COUNTER = 0x93b,
	MLX5DM_SIM_OP_ALLOC_PACKET_REFORMAT_CONTEXT = 0x93d,
	MLX5DM_SIM_OP_DEALLOC_PACKET_REFORMAT_CONTEXT = 0x93e,
	MLX5DM_SIM_OP_CREATE_GENERAL_OBJECT = 0xa00,
	MLX5DM_SIM_OP_QUERY_GENERAL_OBJECT = 0xa02,
	MLX5DM_SIM_OP_DESTROY_GENERAL_OBJECT = 0xa03,
	MLX5DM_SIM_OP_SYNC_STEERING = 0xb00,
};

/* ---- command status (out mailbox byte 0) ---- */
enum {
	MLX5DM_SIM_ST_OK = 0x00,
	MLX5DM_SIM_ST_INT_ERR = 0x01,
	MLX5DM_SIM_ST_BAD_OP = 0x02,
	MLX5DM_SIM_ST_BAD_PARAM = 0x03,
	MLX5DM_SIM_ST_BAD_SYS_STATE = 0x04,
	MLX5DM_SIM_ST_BAD_RES = 0x05,
	MLX5DM_SIM_ST_RES_BUSY = 0x06,
	MLX5DM_SIM_ST_EXCEED_LIM = 0x08,
	MLX5DM_SIM_ST_BAD_RES_STATE = 0x09,
	MLX5DM_SIM_ST_NO_RES = 0x0f,
	MLX5DM_SIM_ST_BAD_INPUT_LEN = 0x10,
	MLX5DM_SIM_ST_BAD_OUTPUT_LEN = 0x11,
};

/* ---- generic mailbox header ---- */
#define MLX5DM_SIM_IN_OPCODE        SIMF(0x000, 16)
#define MLX5DM_SIM_IN_OP_MOD        SIMF(0x030, 16)
#define MLX5DM_SIM_OUT_STATUS       SIMF(0x000, 8)
#define MLX5DM_SIM_OUT_SYNDROME     SIMF(0x020, 32)
#define MLX5DM_SIM_IN_HDR_BYTES     8
#define MLX5DM_SIM_OUT_HDR_BYTES    16
/* The object number most commands carry in DW2[23:0] (in) and return there (out). */
#define MLX5DM_SIM_IN_OBJ_NUM       SIMF(0x048, 24)
#define MLX5DM_SIM_OUT_OBJ_NUM      SIMF(0x048, 24)

/* ---- QUERY_HCA_CAP ---- */
#define MLX5DM_SIM_QCAP_IN_OTHER_FUNC  SIMF(0x040, 1)
#define MLX5DM_SIM_QCAP_OUT_CAP_BYTE   16
#define MLX5DM_SIM_CAP_BYTES           4096
enum {
	MLX5DM_SIM_CAP_GENERAL = 0x0,
	MLX5DM_SIM_CAP_ETH_OFFLOAD = 0x1,
	MLX5DM_SIM_CAP_ROCE = 0x4,
	MLX5DM_SIM_CAP_NIC_FLOW_TABLE = 0x7,
	MLX5DM_SIM_CAP_ESW_FLOW_TABLE = 0x8,
	MLX5DM_SIM_CAP_ESW = 0x9,
	MLX5DM_SIM_CAP_DEVICE_MEMORY = 0xf,
	MLX5DM_SIM_CAP_NUM = 0x10,
};

/* cmd_hca_cap (GENERAL) */
#define MLX5DM_SIM_GEN_VHCA_ID              SIMF(0x030, 16)
#define MLX5DM_SIM_GEN_LOG_MAX_QP_SZ        SIMF(0x088, 8)
#define MLX5DM_SIM_GEN_LOG_MAX_QP           SIMF(0x09b, 5)
#define MLX5DM_SIM_GEN_LOG_MAX_CQ_SZ        SIMF(0x0c8, 8)
#define MLX5DM_SIM_GEN_LOG_MAX_CQ           SIMF(0x0db, 5)
#define MLX5DM_SIM_GEN_NIC_FLOW_TABLE       SIMF(0x1a6, 1)
#define MLX5DM_SIM_GEN_ESWITCH_MANAGER      SIMF(0x1a7, 1)
#define MLX5DM_SIM_GEN_PORT_TYPE            SIMF(0x1b6, 2)
#define MLX5DM_SIM_GEN_NUM_PORTS            SIMF(0x1b8, 8)
#define MLX5DM_SIM_GEN_LOG_MAX_MSG          SIMF(0x1c3, 5)
#define MLX5DM_SIM_GEN_CQE_VERSION          SIMF(0x1fc, 4)
#define MLX5DM_SIM_GEN_ROCE                 SIMF(0x21d, 1)
#define MLX5DM_SIM_GEN_UAR_4K               SIMF(0x240, 1)
#define MLX5DM_SIM_GEN_FL_RC_QP_ROCE_DIS    SIMF(0x248, 1)
#define MLX5DM_SIM_GEN_LOG_BF_REG_SIZE      SIMF(0x26b, 5)
#define MLX5DM_SIM_GEN_FLOW_COUNTER_BULK    SIMF(0x310, 8)
#define MLX5DM_SIM_GEN_LOG_MAX_TD           SIMF(0x323, 5)
#define MLX5DM_SIM_GEN_LOG_MAX_PD           SIMF(0x32b, 5)
#define MLX5DM_SIM_GEN_LOG_MAX_FC_BULK      SIMF(0x348, 8)
#define MLX5DM_SIM_GEN_LOG_MAX_RQ           SIMF(0x363, 5)
#define MLX5DM_SIM_GEN_LOG_MAX_TIR          SIMF(0x373, 5)
#define MLX5DM_SIM_GEN_LOG_MAX_RQT          SIMF(0x38b, 5)
#define MLX5DM_SIM_GEN_LOG_MAX_RQT_SIZE     SIMF(0x393, 5)
#define MLX5DM_SIM_GEN_LOG_MAX_WQ_SZ        SIMF(0x3db, 5)
#define MLX5DM_SIM_GEN_OBJ_TYPES            SIMF(0x400, 64)
#define MLX5DM_SIM_GEN_SQ_TS_FORMAT         SIMF(0x440, 2)
#define MLX5DM_SIM_GEN_RQ_TS_FORMAT         SIMF(0x442, 2)
#define MLX5DM_SIM_GEN_STEERING_FMT         SIMF(0x444, 4)
#define MLX5DM_SIM_GEN_FLEX_PROTOCOLS       SIMF(0x540, 32) /* DW42 */
#define MLX5DM_SIM_GEN_FLEX_ID_MPLS_O_GRE   SIMF(0x6d8, 4)  /* DW54[7:4] */
#define MLX5DM_SIM_GEN_FLEX_ID_MPLS_O_UDP   SIMF(0x6dc, 4)  /* DW54[3:0] */
#define MLX5DM_SIM_GEN_ARG_GRANULARITY      SIMF(0x76c, 4)
#define MLX5DM_SIM_GEN_ARG_MAX_ALLOC        SIMF(0x773, 5)

/* roce_cap */
#define MLX5DM_SIM_ROCE_FL_RC_QP_DIS        SIMF(0x005, 1)
#define MLX5DM_SIM_ROCE_FL_RC_QP_EN         SIMF(0x006, 1)

/* flow_table_prop_layout, relative to each properties block */
#define MLX5DM_SIM_FTP_FT_SUPPORT           SIMF(0x000, 1)
#define MLX5DM_SIM_FTP_FLOW_TAG             SIMF(0x001, 1)
#define MLX5DM_SIM_FTP_FLOW_COUNTER         SIMF(0x002, 1)
#define MLX5DM_SIM_FTP_FLOW_MODIFY_EN       SIMF(0x003, 1)
#define MLX5DM_SIM_FTP_MODIFY_ROOT          SIMF(0x004, 1)
#define MLX5DM_SIM_FTP_REFORMAT             SIMF(0x007, 1)
#define MLX5DM_SIM_FTP_DECAP                SIMF(0x008, 1)
#define MLX5DM_SIM_FTP_POP_VLAN             SIMF(0x00a, 1)
#define MLX5DM_SIM_FTP_PUSH_VLAN            SIMF(0x00b, 1)
#define MLX5DM_SIM_FTP_POP_VLAN_2           SIMF(0x00d, 1)
#define MLX5DM_SIM_FTP_PUSH_VLAN_2          SIMF(0x00e, 1)
#define MLX5DM_SIM_FTP_SW_OWNER             SIMF(0x011, 1)
#define MLX5DM_SIM_FTP_REFORMAT_L3_TNL_L2   SIMF(0x012, 1)
#define MLX5DM_SIM_FTP_REFORMAT_L2_L3_TNL   SIMF(0x013, 1)
#define MLX5DM_SIM_FTP_SW_OWNER_V2          SIMF(0x01e, 1)
#define MLX5DM_SIM_FTP_LOG_MAX_FT_SIZE      SIMF(0x022, 6)
#define MLX5DM_SIM_FTP_LOG_MAX_MODIFY_HDR   SIMF(0x028, 8)
#define MLX5DM_SIM_FTP_MAX_MODIFY_ACTIONS   SIMF(0x030, 8)
#define MLX5DM_SIM_FTP_MAX_FT_LEVEL         SIMF(0x038, 8)
#define MLX5DM_SIM_FTP_LOG_MAX_FT_NUM       SIMF(0x078, 8)
#define MLX5DM_SIM_FTP_LOG_MAX_FLOW_COUNTER SIMF(0x090, 8)
#define MLX5DM_SIM_FTP_LOG_MAX_DESTINATION  SIMF(0x098, 8)
#define MLX5DM_SIM_FTP_LOG_MAX_FLOW         SIMF(0x0b8, 8)

/* flow_table_nic_cap (NIC_FLOW_TABLE) */
#define MLX5DM_SIM_NIC_MAX_ENCAP_HDR        SIMF(0x036, 10)
#define MLX5DM_SIM_NIC_PROP_RX_BIT          0x200   /* flow_table_properties_nic_receive */
#define MLX5DM_SIM_NIC_PROP_TX_BIT          0x800   /* flow_table_properties_nic_transmit */
#define MLX5DM_SIM_NIC_RX_DROP_ICM          SIMF(0x2000, 64)
#define MLX5DM_SIM_NIC_TX_DROP_ICM          SIMF(0x2040, 64)
#define MLX5DM_SIM_NIC_TX_ALLOW_ICM         SIMF(0x2080, 64)

/* flow_table_eswitch_cap (ESW_FLOW_TABLE) */
#define MLX5DM_SIM_ESW_PROP_FDB_BIT         0x200   /* flow_table_properties_nic_esw_fdb */
#define MLX5DM_SIM_ESW_FDB_DROP_RX_ICM      SIMF(0x1800, 64)
#define MLX5DM_SIM_ESW_FDB_DROP_TX_ICM      SIMF(0x1840, 64)
#define MLX5DM_SIM_ESW_UPLINK_RX_ICM        SIMF(0x1880, 64)
#define MLX5DM_SIM_ESW_UPLINK_TX_ICM        SIMF(0x18c0, 64)

/* e_switch_cap (ESW) */
#define MLX5DM_SIM_ESWCAP_MGR_VPORT_VALID   SIMF(0x060, 1)
#define MLX5DM_SIM_ESWCAP_MGR_VPORT         SIMF(0x070, 16)

/* device_mem_cap (DEVICE_MEMORY) */
#define MLX5DM_SIM_DM_MEMIC                 SIMF(0x000, 1)
#define MLX5DM_SIM_DM_STEERING_START        SIMF(0x0c0, 64)
#define MLX5DM_SIM_DM_LOG_MODIFY_SIZE       SIMF(0x108, 8)
#define MLX5DM_SIM_DM_LOG_GRANULARITY       SIMF(0x112, 6)
#define MLX5DM_SIM_DM_LOG_STEERING_SIZE     SIMF(0x118, 8)
#define MLX5DM_SIM_DM_LOG_ENCAP_SIZE        SIMF(0x120, 8)
#define MLX5DM_SIM_DM_LOG_PATTERN_SIZE      SIMF(0x138, 8)
#define MLX5DM_SIM_DM_MODIFY_START          SIMF(0x140, 64)
#define MLX5DM_SIM_DM_PATTERN_START         SIMF(0x1c0, 64)
#define MLX5DM_SIM_DM_ENCAP_START           SIMF(0x240, 64)
#define MLX5DM_SIM_DM_ENCAP_BASE            SIMF(0x280, 64)

/* ---- flow tables (create/destroy/query_flow_table) ---- */
#define MLX5DM_SIM_FT_IN_OTHER_VPORT        SIMF(0x040, 1)
#define MLX5DM_SIM_FT_IN_TABLE_TYPE         SIMF(0x080, 8)
#define MLX5DM_SIM_FT_IN_TABLE_ID           SIMF(0x0a8, 24)   /* destroy/query/group/fte */
#define MLX5DM_SIM_FT_IN_CTX_BYTE           24                /* flow_table_context */
#define MLX5DM_SIM_FT_OUT_ICM_63_40         SIMF(0x008, 24)
#define MLX5DM_SIM_FT_OUT_ICM_39_32         SIMF(0x040, 8)
#define MLX5DM_SIM_FT_OUT_TABLE_ID          SIMF(0x048, 24)
#define MLX5DM_SIM_FT_OUT_ICM_31_0          SIMF(0x060, 32)
#define MLX5DM_SIM_FT_QOUT_CTX_BYTE         24
/* flow_table_context */
#define MLX5DM_SIM_FTC_SW_OWNER             SIMF(0x002, 1)
#define MLX5DM_SIM_FTC_TABLE_MISS_ACTION    SIMF(0x004, 4)
#define MLX5DM_SIM_FTC_LEVEL                SIMF(0x008, 8)
#define MLX5DM_SIM_FTC_LOG_SIZE             SIMF(0x018, 8)
#define MLX5DM_SIM_FTC_TABLE_MISS_ID        SIMF(0x028, 24)
#define MLX5DM_SIM_FTC_ICM_ROOT_1           SIMF(0x0c0, 64)
#define MLX5DM_SIM_FTC_ICM_ROOT_0           SIMF(0x100, 64)
enum {
	MLX5DM_SIM_FT_NIC_RX = 0x0,
	MLX5DM_SIM_FT_NIC_TX = 0x1,
	MLX5DM_SIM_FT_FDB = 0x4,
};

/* create_flow_group_in / destroy_flow_group_in */
#define MLX5DM_SIM_FG_IN_START_INDEX        SIMF(0x0e0, 32)
#define MLX5DM_SIM_FG_IN_END_INDEX          SIMF(0x120, 32)
#define MLX5DM_SIM_FG_IN_CRITERIA_EN        SIMF(0x1f8, 8)
#define MLX5DM_SIM_FG_IN_CRITERIA_BYTE      64
#define MLX5DM_SIM_FG_IN_GROUP_ID           SIMF(0x0c0, 32)   /* destroy */
#define MLX5DM_SIM_MATCH_PARAM_BYTES        512
/* set_fte_in / delete_fte_in */
#define MLX5DM_SIM_FTE_IN_FLOW_INDEX        SIMF(0x100, 32)
#define MLX5DM_SIM_FTE_IN_CTX_BYTE          64
#define MLX5DM_SIM_FLC_GROUP_ID             SIMF(0x020, 32)
#define MLX5DM_SIM_FLC_FLOW_TAG             SIMF(0x048, 24)
#define MLX5DM_SIM_FLC_ACTION               SIMF(0x070, 16)
#define MLX5DM_SIM_FLC_EXT_DEST             SIMF(0x080, 1)
#define MLX5DM_SIM_FLC_DEST_LIST_SIZE       SIMF(0x088, 24)
#define MLX5DM_SIM_FLC_COUNTER_LIST_SIZE    SIMF(0x0a8, 24)
#define MLX5DM_SIM_FLC_DEST_BYTE            768
#define MLX5DM_SIM_DEST_TYPE                SIMF(0x000, 8)
#define MLX5DM_SIM_DEST_ID                  SIMF(0x008, 24)
#define MLX5DM_SIM_DEST_COUNTER_ID          SIMF(0x000, 32)
enum {
	MLX5DM_SIM_FLC_ACT_ALLOW = 0x1,
	MLX5DM_SIM_FLC_ACT_DROP = 0x2,
	MLX5DM_SIM_FLC_ACT_FWD_DEST = 0x4,
	MLX5DM_SIM_FLC_ACT_COUNT = 0x8,
	MLX5DM_SIM_DEST_FT = 0x1,
	MLX5DM_SIM_DEST_TIR = 0x2,
};

/* ---- TIR / RQT / RQ / transport domain ---- */
#define MLX5DM_SIM_TIR_IN_CTX_BYTE          32
#define MLX5DM_SIM_TIRC_DISP_TYPE           SIMF(0x020, 4)
#define MLX5DM_SIM_TIRC_INLINE_RQN          SIMF(0x0e8, 24)
#define MLX5DM_SIM_TIRC_HASH_SYMMETRIC      SIMF(0x100, 1)
#define MLX5DM_SIM_TIRC_TUNNELED_OFFLOAD    SIMF(0x102, 1)
#define MLX5DM_SIM_TIRC_INDIRECT_TABLE      SIMF(0x108, 24)
#define MLX5DM_SIM_TIRC_HASH_FN             SIMF(0x120, 4)
#define MLX5DM_SIM_TIRC_TRANSPORT_DOMAIN    SIMF(0x128, 24)
#define MLX5DM_SIM_TIRC_TOEPLITZ_KEY_BYTE   40
#define MLX5DM_SIM_TIRC_SEL_OUTER_BIT       0x280
#define MLX5DM_SIM_TIRC_SEL_INNER_BIT       0x2a0
#define MLX5DM_SIM_HSEL_L3_PROT             SIMF(0x000, 1)
#define MLX5DM_SIM_HSEL_L4_PROT             SIMF(0x001, 1)
#define MLX5DM_SIM_HSEL_FIELDS              SIMF(0x002, 30)
#define MLX5DM_SIM_TIR_OUT_ICM_63_40        SIMF(0x008, 24)
#define MLX5DM_SIM_TIR_OUT_ICM_39_32        SIMF(0x040, 8)
#define MLX5DM_SIM_TIR_OUT_TIRN             SIMF(0x048, 24)
#define MLX5DM_SIM_TIR_OUT_ICM_31_0         SIMF(0x060, 32)
#define MLX5DM_SIM_TIR_QOUT_CTX_BYTE        32
enum {
	MLX5DM_SIM_TIR_DISP_DIRECT = 0,
	MLX5DM_SIM_TIR_DISP_INDIRECT = 1,
	MLX5DM_SIM_HASH_FN_NONE = 0,
	MLX5DM_SIM_HASH_FN_XOR8 = 1,
	MLX5DM_SIM_HASH_FN_TOEPLITZ = 2,
};

#define MLX5DM_SIM_RQT_IN_CTX_BYTE          32
#define MLX5DM_SIM_RQTC_MAX_SIZE            SIMF(0x0b0, 16)
#define MLX5DM_SIM_RQTC_ACTUAL_SIZE         SIMF(0x0d0, 16)
#define MLX5DM_SIM_RQTC_RQ_LIST_BYTE        240
#define MLX5DM_SIM_RQT_ENTRY_RQN            SIMF(0x008, 24)
#define MLX5DM_SIM_RQT_MOD_IN_BITMASK       SIMF(0x080, 64)

/* per_protocol_networking_offload_caps (mlx5_ifc.h): how much header a WQE inlines. */
#define MLX5DM_SIM_ETH_WQE_INLINE_MODE      SIMF(0x012, 2)
enum {
	MLX5DM_SIM_CAP_INLINE_L2 = 0,
	MLX5DM_SIM_CAP_INLINE_VPORT = 1,
	MLX5DM_SIM_CAP_INLINE_NOT_REQUIRED = 2,
	MLX5DM_SIM_INLINE_MODE_NONE = 0,    /* min_wqe_inline_mode values */
	MLX5DM_SIM_INLINE_MODE_L2 = 1,
	MLX5DM_SIM_INLINE_L2_BYTES = 18,    /* DPDK MLX5_ESEG_MIN_INLINE_SIZE */
};

/* tisc at create_tis_in byte 32 (mlx5_ifc_tisc_bits). */
#define MLX5DM_SIM_TIS_IN_CTX_BYTE          32
#define MLX5DM_SIM_TISC_TRANSPORT_DOMAIN    SIMF(0x128, 24)

/*
 * sqc at create_sq_in / modify_sq_in / query_sq_out byte 32
 * (mlx5_ifc_sqc_bits); its wq at sqc byte 48, laid out as the RQ's.
 */
#define MLX5DM_SIM_SQ_IN_CTX_BYTE           32
#define MLX5DM_SIM_SQC_BYTES                240
#define MLX5DM_SIM_SQC_FLUSH_IN_ERROR_EN    SIMF(0x003, 1)
#define MLX5DM_SIM_SQC_MIN_WQE_INLINE_MODE  SIMF(0x005, 3)
#define MLX5DM_SIM_SQC_STATE                SIMF(0x008, 4)
#define MLX5DM_SIM_SQC_CQN                  SIMF(0x048, 24)
#define MLX5DM_SIM_SQC_TIS_LST_SZ           SIMF(0x100, 16)
#define MLX5DM_SIM_SQC_TIS_NUM_0            SIMF(0x168, 24)
#define MLX5DM_SIM_SQC_WQ_BYTE              48
#define MLX5DM_SIM_SQ_MOD_IN_STATE          SIMF(0x040, 4)
enum {
	MLX5DM_SIM_SQ_RST = 0x0,
	MLX5DM_SIM_SQ_RDY = 0x1,
	MLX5DM_SIM_SQ_ERR = 0x3,
};

/* wq (mlx5_ifc_wq_bits), inside an rqc or sqc. */
#define MLX5DM_SIM_WQ_TYPE                  SIMF(0x000, 4)
#define MLX5DM_SIM_WQ_DBR_ADDR              SIMF(0x080, 64)
#define MLX5DM_SIM_WQ_LOG_WQ_STRIDE         SIMF(0x10c, 4)
#define MLX5DM_SIM_WQ_DBR_UMEM_ID           SIMF(0x140, 32)
#define MLX5DM_SIM_WQ_WQ_UMEM_ID            SIMF(0x160, 32)
#define MLX5DM_SIM_WQ_WQ_UMEM_OFFSET        SIMF(0x180, 64)
#define MLX5DM_SIM_WQ_CYCLIC                1

#define MLX5DM_SIM_RQ_IN_CTX_BYTE           32
#define MLX5DM_SIM_RQC_MEM_RQ_TYPE          SIMF(0x004, 4)
#define MLX5DM_SIM_RQC_STATE                SIMF(0x008, 4)
#define MLX5DM_SIM_RQC_CQN                  SIMF(0x048, 24)
#define MLX5DM_SIM_RQC_WQ_BYTE              48
#define MLX5DM_SIM_WQ_PD                    SIMF(0x048, 24)
#define MLX5DM_SIM_WQ_LOG_WQ_SZ             SIMF(0x11b, 5)
#define MLX5DM_SIM_RQ_MOD_IN_STATE          SIMF(0x040, 4)
#define MLX5DM_SIM_RQ_QOUT_CTX_BYTE         32
enum {
	MLX5DM_SIM_RQ_RST = 0x0,
	MLX5DM_SIM_RQ_RDY = 0x1,
	MLX5DM_SIM_RQ_ERR = 0x3,
};

/* ---- flow counters ---- */
#define MLX5DM_SIM_FC_IN_PD                 SIMF(0x048, 24)
#define MLX5DM_SIM_FC_IN_BULK_LOG           SIMF(0x073, 5)
#define MLX5DM_SIM_FC_IN_BULK               SIMF(0x078, 8)
#define MLX5DM_SIM_FC_OUT_ID                SIMF(0x040, 32)
#define MLX5DM_SIM_FC_DEALLOC_ID            SIMF(0x040, 32)
#define MLX5DM_SIM_FCQ_IN_MKEY              SIMF(0x060, 32)
#define MLX5DM_SIM_FCQ_IN_ADDRESS           SIMF(0x080, 64)
#define MLX5DM_SIM_FCQ_IN_CLEAR             SIMF(0x0c0, 1)
#define MLX5DM_SIM_FCQ_IN_DUMP_TO_MEM       SIMF(0x0c1, 1)
#define MLX5DM_SIM_FCQ_IN_NUM               SIMF(0x0c2, 30)
#define MLX5DM_SIM_FCQ_IN_ID                SIMF(0x0e0, 32)
#define MLX5DM_SIM_FCQ_OUT_STATS_BYTE       16
#define MLX5DM_SIM_TRAFFIC_COUNTER_BYTES    16

/*
 * ---- packet reformat contexts ----
 * alloc_packet_reformat_context_in: 28-byte header, then the
 * packet_reformat_context_in (reformat_type in its first byte, data size in
 * the low 10 bits of DW0, the data from its byte 6 on); the out mailbox
 * returns packet_reformat_id in DW2. The dealloc mailbox names it in DW2.
 */
#define MLX5DM_SIM_PRC_IN_TYPE              SIMF(0x0e0, 8)
#define MLX5DM_SIM_PRC_IN_SIZE              SIMF(0x0f6, 10)
#define MLX5DM_SIM_PRC_IN_DATA_BYTE         34
#define MLX5DM_SIM_PRC_IN_MIN_BYTES         36
#define MLX5DM_SIM_PRC_OUT_ID               SIMF(0x040, 32)
#define MLX5DM_SIM_PRC_DEALLOC_ID           SIMF(0x040, 32)
enum {
	MLX5DM_SIM_REFORMAT_L2_TO_VXLAN = 0x0,
	MLX5DM_SIM_REFORMAT_L2_TO_NVGRE = 0x1,
	MLX5DM_SIM_REFORMAT_L2_TO_L2_TUNNEL = 0x2,
	MLX5DM_SIM_REFORMAT_L3_TUNNEL_TO_L2 = 0x3,
	MLX5DM_SIM_REFORMAT_L2_TO_L3_TUNNEL = 0x4,
};

/* ---- general objects ---- */
#define MLX5DM_SIM_GO_IN_TYPE               SIMF(0x030, 16)
#define MLX5DM_SIM_GO_IN_ID                 SIMF(0x040, 32)
#define MLX5DM_SIM_GO_IN_LOG_RANGE          SIMF(0x063, 5)
#define MLX5DM_SIM_GO_OUT_ID                SIMF(0x040, 32)
#define MLX5DM_SIM_GO_HDR_BYTES             16
#define MLX5DM_SIM_ARG_ACCESS_PD            SIMF(0x088, 24)   /* in modify_header_arg */
enum {
	MLX5DM_SIM_OBJ_SW_ICM = 0x0008,
	MLX5DM_SIM_OBJ_MODIFY_HDR_ARG = 0x0023,
};

/* ---- CQ ---- */
#define MLX5DM_SIM_CQ_IN_CTX_BYTE           16
#define MLX5DM_SIM_CQC_CQE_SZ               SIMF(0x008, 3)
#define MLX5DM_SIM_CQC_DBR_UMEM_ID          SIMF(0x020, 32)
#define MLX5DM_SIM_CQC_LOG_CQ_SIZE          SIMF(0x063, 5)
#define MLX5DM_SIM_CQC_UAR_PAGE             SIMF(0x068, 24)
#define MLX5DM_SIM_CQC_C_EQN                SIMF(0x0b8, 8)
#define MLX5DM_SIM_CQC_DBR_ADDR             SIMF(0x1c0, 64)
#define MLX5DM_SIM_CQ_IN_UMEM_OFFSET        SIMF(0x280, 64)
#define MLX5DM_SIM_CQ_IN_UMEM_ID            SIMF(0x2c0, 32)
#define MLX5DM_SIM_CQ_IN_BYTES              272

/* ---- QP ---- */
#define MLX5DM_SIM_QP_IN_QPC_BYTE           24
#define MLX5DM_SIM_QP_IN_WQ_UMEM_OFFSET     SIMF(0x800, 64)
#define MLX5DM_SIM_QP_IN_WQ_UMEM_ID         SIMF(0x840, 32)
#define MLX5DM_SIM_QP_IN_BYTES              272
#define MLX5DM_SIM_QPM_IN_QPN               SIMF(0x048, 24)   /* rst2init & co */
#define MLX5DM_SIM_QPM_IN_BYTES             (24 + 232 + 16)
#define MLX5DM_SIM_QPQ_OUT_QPC_BYTE         24
#define MLX5DM_SIM_QPC_STATE                SIMF(0x000, 4)
#define MLX5DM_SIM_QPC_ST                   SIMF(0x008, 8)
#define MLX5DM_SIM_QPC_PM_STATE             SIMF(0x013, 2)
#define MLX5DM_SIM_QPC_PD                   SIMF(0x028, 24)
#define MLX5DM_SIM_QPC_MTU                  SIMF(0x040, 3)
#define MLX5DM_SIM_QPC_LOG_RQ_SIZE          SIMF(0x049, 4)
#define MLX5DM_SIM_QPC_LOG_RQ_STRIDE        SIMF(0x04d, 3)
#define MLX5DM_SIM_QPC_NO_SQ                SIMF(0x050, 1)
#define MLX5DM_SIM_QPC_LOG_SQ_SIZE          SIMF(0x051, 4)
#define MLX5DM_SIM_QPC_UAR_PAGE             SIMF(0x068, 24)
#define MLX5DM_SIM_QPC_REMOTE_QPN           SIMF(0x0a8, 24)
#define MLX5DM_SIM_QPC_CQN_SND              SIMF(0x3e8, 24)
#define MLX5DM_SIM_QPC_RRE                  SIMF(0x490, 1)
#define MLX5DM_SIM_QPC_RWE                  SIMF(0x491, 1)
#define MLX5DM_SIM_QPC_CQN_RCV              SIMF(0x4e8, 24)
#define MLX5DM_SIM_QPC_DBR_ADDR             SIMF(0x500, 64)
#define MLX5DM_SIM_QPC_RQ_TYPE              SIMF(0x565, 3)
#define MLX5DM_SIM_QPC_HW_SQ_WQEBB_CTR      SIMF(0x5a0, 16)
/* primary_address_path (ads) at qpc bit 0xc0 */
#define MLX5DM_SIM_QPC_PAP_FL               SIMF(0x0c0 + 0x000, 1)
#define MLX5DM_SIM_QPC_PAP_SRC_ADDR_INDEX   SIMF(0x0c0 + 0x048, 8)
#define MLX5DM_SIM_QPC_PAP_RGID_BYTE        ((0x0c0 + 0x080) / 8)
#define MLX5DM_SIM_QPC_PAP_UDP_SPORT        SIMF(0x0c0 + 0x110, 16)
#define MLX5DM_SIM_QPC_PAP_RMAC_47_32       SIMF(0x0c0 + 0x130, 16)
#define MLX5DM_SIM_QPC_PAP_RMAC_31_0        SIMF(0x0c0 + 0x140, 32)

/* QUERY_NIC_VPORT_CONTEXT: nic_vport_context at out bit 0x80 */
#define MLX5DM_SIM_VPORT_IN_OTHER_VPORT     SIMF(0x040, 1)
#define MLX5DM_SIM_VPORT_OUT_BYTES          (16 + 256)
#define MLX5DM_SIM_VPORT_MIN_INLINE         SIMF(0x080 + 0x005, 3)
#define MLX5DM_SIM_VPORT_ROCE_EN            SIMF(0x080 + 0x01f, 1)
#define MLX5DM_SIM_VPORT_MAC_47_32          SIMF(0x080 + 0x7b0, 16)
#define MLX5DM_SIM_VPORT_MAC_31_0           SIMF(0x080 + 0x7c0, 32)

/* QUERY_ROCE_ADDRESS: roce_addr_layout at out bit 0x80 */
#define MLX5DM_SIM_ROCE_IN_INDEX            SIMF(0x040, 16)
#define MLX5DM_SIM_ROCE_IN_PORT             SIMF(0x05c, 4)
#define MLX5DM_SIM_ROCE_OUT_BYTES           (16 + 32)
#define MLX5DM_SIM_ROCE_GID_BYTE            16
#define MLX5DM_SIM_ROCE_MAC_47_32           SIMF(0x080 + 0x090, 16)
#define MLX5DM_SIM_ROCE_MAC_31_0            SIMF(0x080 + 0x0a0, 32)
#define MLX5DM_SIM_ROCE_L3_TYPE             SIMF(0x080 + 0x0d4, 4)
#define MLX5DM_SIM_ROCE_VERSION             SIMF(0x080 + 0x0d8, 8)
#define MLX5DM_SIM_ROCE_VERSION_2           2
#define MLX5DM_SIM_QPC_DBR_UMEM_ID          SIMF(0x720, 32)
enum {
	MLX5DM_SIM_QP_ST_RC = 0x0,
	MLX5DM_SIM_QP_RQ_ZERO_LEN = 0x3,
	MLX5DM_SIM_QPS_RST = 0x0,
	MLX5DM_SIM_QPS_INIT = 0x1,
	MLX5DM_SIM_QPS_RTR = 0x2,
	MLX5DM_SIM_QPS_RTS = 0x3,
	MLX5DM_SIM_QPS_ERR = 0x6,
};

/* ---- send WQE (bytes inside the WQE; big-endian) ---- */
#define MLX5DM_SIM_WQEBB                    64
#define MLX5DM_SIM_WQE_DS                   16            /* one data segment unit */
#define MLX5DM_SIM_CTRL_OPMOD               SIMF(0x000, 8)
#define MLX5DM_SIM_CTRL_WQE_INDEX           SIMF(0x008, 16)
#define MLX5DM_SIM_CTRL_OPCODE              SIMF(0x018, 8)
#define MLX5DM_SIM_CTRL_QPN                 SIMF(0x020, 24)
#define MLX5DM_SIM_CTRL_DS                  SIMF(0x03a, 6)
#define MLX5DM_SIM_CTRL_FM_CE_SE            SIMF(0x058, 8)
#define MLX5DM_SIM_CTRL_IMM                 SIMF(0x060, 32)
#define MLX5DM_SIM_CTRL_CE_CQ_UPDATE        0x08
#define MLX5DM_SIM_RADDR_VA                 SIMF(0x000, 64)   /* raddr seg, byte 16 */
#define MLX5DM_SIM_RADDR_RKEY               SIMF(0x040, 32)
#define MLX5DM_SIM_DSEG_BYTE_COUNT          SIMF(0x000, 32)
#define MLX5DM_SIM_DSEG_LKEY                SIMF(0x020, 32)
#define MLX5DM_SIM_DSEG_ADDR                SIMF(0x040, 64)
#define MLX5DM_SIM_INLINE_FLAG              0x80000000u
#define MLX5DM_SIM_ARG_WQE_DS               8             /* ctrl + 48 B flow update + 64 B */
#define MLX5DM_SIM_ARG_WQE_DATA_BYTE        64
/* Ethernet segment (mlx5_wqe_eth_seg): metadata, inline header size, its first 2 bytes. */
#define MLX5DM_SIM_ESEG_METADATA            SIMF(0x040, 32)
#define MLX5DM_SIM_ESEG_INLINE_HDR_SZ       SIMF(0x060, 16)
#define MLX5DM_SIM_ESEG_INLINE_BYTE         14
enum {
	MLX5DM_SIM_WQE_NOP = 0x00,
	MLX5DM_SIM_WQE_RDMA_WRITE = 0x08,
	MLX5DM_SIM_WQE_RDMA_READ = 0x10,
	MLX5DM_SIM_WQE_SEND = 0x0a,
	MLX5DM_SIM_WQE_FLOW_TBL_ACCESS = 0x2c,
	MLX5DM_SIM_WQE_OPMOD_ARG_UPDATE = 1,
};

/*
 * Hot paths (the WQE executor) load a segment once as host-order dwords
 * and take several fields from them: f must lie within one dword, which
 * is dw[f.bit / 32]. With a constant f this is one shift and one mask.
 */
static inline void
mlx5dm_sim_dw_load(uint32_t *dw, const uint8_t *p, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		dw[i] = mlx5dm_prm_be32(p + 4 * i);
}

static inline uint32_t
mlx5dm_sim_dw_get(const uint32_t *dw, struct mlx5dm_prm_field f)
{
	unsigned int shift = 31 - (f.bit + f.width - 1) % 32;

	return (uint32_t)((dw[f.bit / 32] >> shift) & ((1ull << f.width) - 1));
}

/* ---- CQE (64 bytes) ---- */
#define MLX5DM_SIM_CQE_BYTES                64
/* Receive completion fields (DPDK struct mlx5_cqe, mlx5_rxtx.c rxq_cq_to_pkt_type). */
#define MLX5DM_SIM_CQE_PKT_INFO             SIMF(0x000, 8)    /* byte 0 */
#define MLX5DM_SIM_CQE_RX_HASH_RES          SIMF(0x060, 32)   /* byte 12 */
#define MLX5DM_SIM_CQE_RX_HASH_TYPE         SIMF(0x080, 8)    /* byte 16 */
#define MLX5DM_SIM_CQE_HDS_IP_EXT           SIMF(0x0e0, 8)    /* byte 28 */
#define MLX5DM_SIM_CQE_HDR_TYPE             SIMF(0x0e8, 8)    /* byte 29 */
#define MLX5DM_SIM_CQE_FLOW_TAG             SIMF(0x1c8, 24)   /* sop_drop_qpn [23:0] */
#define MLX5DM_SIM_CQE_BYTE_CNT             SIMF(0x160, 32)   /* byte 44 */
#define MLX5DM_SIM_CQE_VENDOR_SYND          SIMF(0x1b0, 8)    /* byte 54 */
#define MLX5DM_SIM_CQE_SYNDROME             SIMF(0x1b8, 8)    /* byte 55 */
#define MLX5DM_SIM_CQE_SOP_OPCODE           SIMF(0x1c0, 8)    /* byte 56 */
#define MLX5DM_SIM_CQE_QPN                  SIMF(0x1c8, 24)
#define MLX5DM_SIM_CQE_WQE_COUNTER          SIMF(0x1e0, 16)   /* byte 60 */
#define MLX5DM_SIM_CQE_OPCODE               SIMF(0x1f8, 4)    /* byte 63 [7:4] */
#define MLX5DM_SIM_CQE_OWNER                SIMF(0x1ff, 1)    /* byte 63 [0] */
enum {
	MLX5DM_SIM_CQE_REQ = 0x0,
	MLX5DM_SIM_CQE_RESP_SEND = 0x2,
	MLX5DM_SIM_CQE_REQ_ERR = 0xd,
	MLX5DM_SIM_CQE_RESP_ERR = 0xe,
	MLX5DM_SIM_CQE_L3_OK = 0x2,         /* hds_ip_ext */
	MLX5DM_SIM_CQE_L4_OK = 0x4,
	MLX5DM_SIM_CQE_IP_FRAG = 0x80,      /* byte 29 */
	MLX5DM_SIM_CQE_L4_SHIFT = 4,        /* byte 29 [6:4]: none, TCP, UDP */
	MLX5DM_SIM_CQE_L3_SHIFT = 2,        /* byte 29 [3:2]: none, IPv6, IPv4 */
	MLX5DM_SIM_CQE_INVALID = 0xf,
	MLX5DM_SIM_SYND_LOCAL_LENGTH = 0x01,
	MLX5DM_SIM_SYND_LOCAL_QP_OP = 0x02,
	MLX5DM_SIM_SYND_LOCAL_PROT = 0x04,
	MLX5DM_SIM_SYND_WR_FLUSH = 0x05,
	MLX5DM_SIM_SYND_REMOTE_ACCESS = 0x13,
};

#endif /* _MLX5DM_SIM_PRM_H_ */
