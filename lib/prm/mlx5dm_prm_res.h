/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * PRM layouts of the device-resource commands of the steering library:
 * SW-owned flow tables, SYNC_STEERING, flow counters, modify-header
 * argument objects (general object 0x23) and transport domains. The
 * receive side (RQ, RQT, TIR) is in mlx5dm_prm_res_rx.h.
 *
 * Bit offsets follow mlx5_ifc.h (bit 0 = MSB of byte 0), relative to the
 * start of the mailbox unless the name says otherwise. The common mailbox
 * header (opcode, op_mod, status, syndrome) is in mlx5dm_prm_queue.h.
 */

#ifndef _MLX5DM_PRM_RES_H_
#define _MLX5DM_PRM_RES_H_

#include "mlx5dm_prm_bits.h"
#include "mlx5dm_prm_queue.h"

enum {
	MLX5DM_CMD_OP_ALLOC_TRANSPORT_DOMAIN = 0x816,
	MLX5DM_CMD_OP_CREATE_FLOW_TABLE = 0x930,
	MLX5DM_CMD_OP_QUERY_FLOW_TABLE = 0x932,
	MLX5DM_CMD_OP_ALLOC_FLOW_COUNTER = 0x939,
	MLX5DM_CMD_OP_DEALLOC_FLOW_COUNTER = 0x93a, /* built by devx_obj_destroy */
	MLX5DM_CMD_OP_QUERY_FLOW_COUNTER = 0x93b,
	MLX5DM_CMD_OP_CREATE_GENERAL_OBJECT = 0xa00,
	MLX5DM_CMD_OP_SYNC_STEERING = 0xb00,
};

/*
 * Command status values (out byte 0) and the errno rdma-core maps each to
 * (mlx5_cmd_status_to_err); DEVX reports a failed status as EREMOTEIO.
 */
enum {
	MLX5DM_CMD_STAT_OK = 0x00,
	MLX5DM_CMD_STAT_INT_ERR = 0x01,
	MLX5DM_CMD_STAT_BAD_OP_ERR = 0x02,
	MLX5DM_CMD_STAT_BAD_PARAM_ERR = 0x03,
	MLX5DM_CMD_STAT_BAD_SYS_STATE_ERR = 0x04,
	MLX5DM_CMD_STAT_BAD_RES_ERR = 0x05,
	MLX5DM_CMD_STAT_RES_BUSY = 0x06,
	MLX5DM_CMD_STAT_LIM_ERR = 0x08,
	MLX5DM_CMD_STAT_BAD_RES_STATE_ERR = 0x09,
	MLX5DM_CMD_STAT_IX_ERR = 0x0a,
	MLX5DM_CMD_STAT_NO_RES_ERR = 0x0f,
	MLX5DM_CMD_STAT_BAD_QP_STATE_ERR = 0x10,
	MLX5DM_CMD_STAT_BAD_PKT_ERR = 0x30,
	MLX5DM_CMD_STAT_BAD_SIZE_OUTS_CQES_ERR = 0x40,
	MLX5DM_CMD_STAT_BAD_INP_LEN_ERR = 0x50,
	MLX5DM_CMD_STAT_BAD_OUTP_LEN_ERR = 0x51,
};

/* Most create commands return the new object's number in DW2[23:0]. */
#define MLX5DM_CMD_OUT_OBJ_NUM MLX5DM_PRM_FIELD(0x48, 24)

/* alloc_transport_domain_in / _out (16 bytes each). */
#define MLX5DM_ALLOC_TD_IN_BYTES 16
#define MLX5DM_ALLOC_TD_OUT_BYTES 16
#define MLX5DM_ALLOC_TD_OUT_TD MLX5DM_CMD_OUT_OBJ_NUM

/* create_flow_table_in (64 bytes) / create_flow_table_out (16 bytes). */
#define MLX5DM_CREATE_FT_IN_BYTES 64
#define MLX5DM_CREATE_FT_OUT_BYTES 16
#define MLX5DM_FT_IN_TABLE_TYPE MLX5DM_PRM_FIELD(0x80, 8)
#define MLX5DM_FT_IN_TABLE_ID   MLX5DM_PRM_FIELD(0xa8, 24) /* query/destroy */
#define MLX5DM_CREATE_FT_OUT_TABLE_ID MLX5DM_CMD_OUT_OBJ_NUM
/* flow_table_context: at bit 0xc0 of create_flow_table_in and query_flow_table_out. */
#define MLX5DM_FTC_OFF 0xc0
#define MLX5DM_FTC(off, w) MLX5DM_PRM_FIELD(MLX5DM_FTC_OFF + (off), (w))
#define MLX5DM_FTC_SW_OWNER    MLX5DM_FTC(0x02, 1)
#define MLX5DM_FTC_LEVEL       MLX5DM_FTC(0x08, 8)
/* root_0: RX side (NIC RX, FDB) or the TX side of NIC TX; root_1: TX side of FDB. */
#define MLX5DM_FTC_ICM_ROOT_1  MLX5DM_FTC(0xc0, 64)
#define MLX5DM_FTC_ICM_ROOT_0  MLX5DM_FTC(0x100, 64)

/* query_flow_table_in (64 bytes) / query_flow_table_out (64 bytes). */
#define MLX5DM_QUERY_FT_IN_BYTES 64
#define MLX5DM_QUERY_FT_OUT_BYTES 64

enum {
	MLX5DM_FT_TYPE_NIC_RX = 0x0,
	MLX5DM_FT_TYPE_NIC_TX = 0x1,
	MLX5DM_FT_TYPE_FDB = 0x4,
	MLX5DM_FT_MAX_LEVEL = 0xff, /* width of flow_table_context.level */
};

/*
 * fte_match_param: the match mask/value blob of root-table matchers and rules
 * (outer, misc, inner, misc2..5 and a reserved tail: 512 bytes).
 */
#define MLX5DM_FTE_MATCH_PARAM_BYTES 512

/* sync_steering_in (32 bytes, opcode only) / sync_steering_out (16 bytes). */
#define MLX5DM_SYNC_STEERING_IN_BYTES 32
#define MLX5DM_SYNC_STEERING_OUT_BYTES 16

/*
 * alloc_flow_counter_in / _out (16 bytes each). A bulk is sized either by
 * flow_counter_bulk_log_size (2^n counters, cmd_hca_cap_2 support) or by the
 * older flow_counter_bulk (n * 128 counters, n a power of two); both zero
 * allocates one counter. The out id is the bulk's first counter.
 */
#define MLX5DM_ALLOC_FC_IN_BYTES 16
#define MLX5DM_ALLOC_FC_OUT_BYTES 16
#define MLX5DM_ALLOC_FC_IN_BULK_LOG_SIZE MLX5DM_PRM_FIELD(0x73, 5)
#define MLX5DM_ALLOC_FC_IN_BULK          MLX5DM_PRM_FIELD(0x78, 8)
#define MLX5DM_ALLOC_FC_OUT_ID           MLX5DM_PRM_FIELD(0x40, 32)
#define MLX5DM_FC_BULK_UNIT 128u

/*
 * query_flow_counter_in (32 bytes) / query_flow_counter_out: 16-byte header
 * then num_of_counters traffic_counter entries (0 = one counter).
 */
#define MLX5DM_QUERY_FC_IN_BYTES 32
#define MLX5DM_QUERY_FC_OUT_HDR_BYTES 16
#define MLX5DM_QUERY_FC_IN_NUM  MLX5DM_PRM_FIELD(0xc2, 30)
#define MLX5DM_QUERY_FC_IN_ID   MLX5DM_PRM_FIELD(0xe0, 32)
#define MLX5DM_TRAFFIC_COUNTER_BYTES 16
#define MLX5DM_TRAFFIC_COUNTER_PACKETS MLX5DM_PRM_FIELD(0x00, 64)
#define MLX5DM_TRAFFIC_COUNTER_OCTETS  MLX5DM_PRM_FIELD(0x40, 64)

/*
 * general_obj_in_cmd_hdr (16 bytes) + modify_header_arg (20 bytes): the
 * create mailbox of a modify-header argument object; the out header returns
 * the object id, the first of 2^log_obj_range argument units (64 bytes each).
 */
#define MLX5DM_GOBJ_HDR_BYTES 16
#define MLX5DM_GOBJ_OUT_BYTES 16
#define MLX5DM_GOBJ_IN_OBJ_TYPE      MLX5DM_PRM_FIELD(0x30, 16)
#define MLX5DM_GOBJ_IN_LOG_OBJ_RANGE MLX5DM_PRM_FIELD(0x63, 5)
#define MLX5DM_GOBJ_OUT_OBJ_ID       MLX5DM_PRM_FIELD(0x40, 32)
#define MLX5DM_CREATE_ARG_IN_BYTES (MLX5DM_GOBJ_HDR_BYTES + 20)
#define MLX5DM_ARG_IN_ACCESS_PD      MLX5DM_PRM_FIELD(0x80 + 0x88, 24)

enum {
	MLX5DM_GOBJ_TYPE_HEADER_MODIFY_ARGUMENT = 0x23,
	MLX5DM_ARG_UNIT_BYTES = 64,  /* one argument unit: 8 modify actions */
};

#endif /* _MLX5DM_PRM_RES_H_ */
