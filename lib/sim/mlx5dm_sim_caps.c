/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * QUERY_HCA_CAP answers of the model: a ConnectX-6 Dx (by default) whose
 * steering-relevant values come from mlx5dm_sim_config. The blobs are
 * built once per instance from the table below and copied out on every
 * query, so current and maximum capabilities are the same.
 *
 * Offsets: lib/sim/mlx5dm_sim_prm.h (from mlx5_ifc.h). Note the NIC RX/TX
 * drop/allow ICM addresses sit at capability bit 0x2000 (byte 1024).
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_sim_core.h"

struct mlx5dm_sim_capval {
	uint8_t type;
	uint16_t base;                  /* bit offset of the enclosing block */
	struct mlx5dm_prm_field f;
	uint64_t v;
};

/* Flow table properties reported for NIC RX and NIC TX alike. */
static void
mlx5dm_sim_caps_ft_props(const struct mlx5dm_sim *sim, uint8_t *blob, unsigned int base)
{
	bool v2 = sim->cfg.steering_format_version >= 1;
	bool sw = !sim->cfg.no_sw_owner;
	const struct mlx5dm_sim_capval rows[] = {
		{ 0, 0, MLX5DM_SIM_FTP_FT_SUPPORT, 1 },
		{ 0, 0, MLX5DM_SIM_FTP_FLOW_TAG, 1 },
		{ 0, 0, MLX5DM_SIM_FTP_FLOW_COUNTER, 1 },
		{ 0, 0, MLX5DM_SIM_FTP_FLOW_MODIFY_EN, 1 },
		{ 0, 0, MLX5DM_SIM_FTP_MODIFY_ROOT, 1 },
		{ 0, 0, MLX5DM_SIM_FTP_REFORMAT, 1 },
		{ 0, 0, MLX5DM_SIM_FTP_DECAP, 1 },
		{ 0, 0, MLX5DM_SIM_FTP_POP_VLAN, 1 },
		{ 0, 0, MLX5DM_SIM_FTP_PUSH_VLAN, 1 },
		{ 0, 0, MLX5DM_SIM_FTP_POP_VLAN_2, 1 },
		{ 0, 0, MLX5DM_SIM_FTP_PUSH_VLAN_2, 1 },
		/* ConnectX-5 reports sw_owner; later formats report sw_owner_v2. */
		{ 0, 0, MLX5DM_SIM_FTP_SW_OWNER, sw && !v2 },
		{ 0, 0, MLX5DM_SIM_FTP_SW_OWNER_V2, sw && v2 },
		{ 0, 0, MLX5DM_SIM_FTP_REFORMAT_L3_TNL_L2, 1 },
		{ 0, 0, MLX5DM_SIM_FTP_REFORMAT_L2_L3_TNL, 1 },
		{ 0, 0, MLX5DM_SIM_FTP_LOG_MAX_FT_SIZE, 23 },
		{ 0, 0, MLX5DM_SIM_FTP_LOG_MAX_MODIFY_HDR, 16 },
		{ 0, 0, MLX5DM_SIM_FTP_MAX_MODIFY_ACTIONS, 32 },
		{ 0, 0, MLX5DM_SIM_FTP_MAX_FT_LEVEL, sim->cfg.log_max_ft_level },
		{ 0, 0, MLX5DM_SIM_FTP_LOG_MAX_FT_NUM, 16 },
		{ 0, 0, MLX5DM_SIM_FTP_LOG_MAX_FLOW_COUNTER, 24 },
		{ 0, 0, MLX5DM_SIM_FTP_LOG_MAX_DESTINATION, 6 },
		{ 0, 0, MLX5DM_SIM_FTP_LOG_MAX_FLOW, 20 },
	};
	unsigned int i;

	for (i = 0; i < MLX5DM_ARRAY_SIZE(rows); i++)
		mlx5dm_prm_set64(blob, base + rows[i].f.bit, rows[i].f.width, rows[i].v);
}

int
mlx5dm_sim_caps_build(struct mlx5dm_sim *sim)
{
	const struct mlx5dm_sim_config *cfg = &sim->cfg;
	const struct mlx5dm_sim_caps *c = &sim->caps;
	bool mgr = mlx5dm_sim_esw_manager(sim);
	uint64_t obj_types = 1ull << MLX5DM_SIM_OBJ_SW_ICM;
	const struct mlx5dm_sim_capval rows[] = {
		{ MLX5DM_SIM_CAP_GENERAL, 0, MLX5DM_SIM_GEN_VHCA_ID, cfg->vhca_id },
		{ MLX5DM_SIM_CAP_GENERAL, 0, MLX5DM_SIM_GEN_LOG_MAX_QP_SZ,
		  cfg->log_max_qp_sz != 0 ? cfg->log_max_qp_sz : 15 },
		{ MLX5DM_SIM_CAP_GENERAL, 0, MLX5DM_SIM_GEN_LOG_MAX_QP, 16 },
		{ MLX5DM_SIM_CAP_GENERAL, 0, MLX5DM_SIM_GEN_LOG_MAX_CQ_SZ,
		  cfg->log_max_cq_sz != 0 ? cfg->log_max_cq_sz : 22 },
		{ MLX5DM_SIM_CAP_GENERAL, 0, MLX5DM_SIM_GEN_LOG_MAX_CQ, 16 },
		{ MLX5DM_SIM_CAP_GENERAL, 0, MLX5DM_SIM_GEN_NIC_FLOW_TABLE, 1 },
		{ MLX5DM_SIM_CAP_GENERAL, 0, MLX5DM_SIM_GEN_ESWITCH_MANAGER,
		  mlx5dm_sim_esw_manager(sim) },
		{ MLX5DM_SIM_CAP_GENERAL, 0, MLX5DM_SIM_GEN_PORT_TYPE, 1 },   /* Ethernet */
		{ MLX5DM_SIM_CAP_GENERAL, 0, MLX5DM_SIM_GEN_NUM_PORTS, 1 },
		{ MLX5DM_SIM_CAP_GENERAL, 0, MLX5DM_SIM_GEN_LOG_MAX_MSG, 30 },
		{ MLX5DM_SIM_CAP_GENERAL, 0, MLX5DM_SIM_GEN_CQE_VERSION, 1 },
		/* RoCE off by default: the send rings use force-loopback RC QPs. */
		{ MLX5DM_SIM_CAP_GENERAL, 0, MLX5DM_SIM_GEN_ROCE, cfg->roce },
		{ MLX5DM_SIM_CAP_GENERAL, 0, MLX5DM_SIM_GEN_UAR_4K, 1 },
		{ MLX5DM_SIM_CAP_GENERAL, 0, MLX5DM_SIM_GEN_FL_RC_QP_ROCE_DIS,
		  !cfg->no_force_loopback },
		{ MLX5DM_SIM_CAP_GENERAL, 0, MLX5DM_SIM_GEN_LOG_BF_REG_SIZE, 9 },
		{ MLX5DM_SIM_CAP_GENERAL, 0, MLX5DM_SIM_GEN_FLOW_COUNTER_BULK, 0xff },
		{ MLX5DM_SIM_CAP_GENERAL, 0, MLX5DM_SIM_GEN_LOG_MAX_TD, 16 },
		{ MLX5DM_SIM_CAP_GENERAL, 0, MLX5DM_SIM_GEN_LOG_MAX_PD, 16 },
		{ MLX5DM_SIM_CAP_GENERAL, 0, MLX5DM_SIM_GEN_LOG_MAX_FC_BULK, 15 },
		{ MLX5DM_SIM_CAP_GENERAL, 0, MLX5DM_SIM_GEN_LOG_MAX_RQ, 16 },
		{ MLX5DM_SIM_CAP_GENERAL, 0, MLX5DM_SIM_GEN_LOG_MAX_TIR, 16 },
		{ MLX5DM_SIM_CAP_GENERAL, 0, MLX5DM_SIM_GEN_LOG_MAX_RQT, 16 },
		/* tir_info carries at most 256 RQT entries. */
		{ MLX5DM_SIM_CAP_GENERAL, 0, MLX5DM_SIM_GEN_LOG_MAX_RQT_SIZE, 8 },
		{ MLX5DM_SIM_CAP_GENERAL, 0, MLX5DM_SIM_GEN_LOG_MAX_WQ_SZ, 16 },
		{ MLX5DM_SIM_CAP_GENERAL, 0, MLX5DM_SIM_GEN_OBJ_TYPES,
		  obj_types | (cfg->header_modify_argument ?
			       1ull << MLX5DM_SIM_OBJ_MODIFY_HDR_ARG : 0) },
		{ MLX5DM_SIM_CAP_GENERAL, 0, MLX5DM_SIM_GEN_STEERING_FMT,
		  cfg->steering_format_version },
		{ MLX5DM_SIM_CAP_GENERAL, 0, MLX5DM_SIM_GEN_FLEX_PROTOCOLS,
		  MLX5DM_SIM_FLEX_PROTO_MPLS_O_GRE | MLX5DM_SIM_FLEX_PROTO_MPLS_O_UDP },
		{ MLX5DM_SIM_CAP_GENERAL, 0, MLX5DM_SIM_GEN_FLEX_ID_MPLS_O_GRE,
		  MLX5DM_SIM_FLEX_ID_MPLS_O_GRE },
		{ MLX5DM_SIM_CAP_GENERAL, 0, MLX5DM_SIM_GEN_FLEX_ID_MPLS_O_UDP,
		  MLX5DM_SIM_FLEX_ID_MPLS_O_UDP },
		{ MLX5DM_SIM_CAP_GENERAL, 0, MLX5DM_SIM_GEN_ARG_GRANULARITY, 0 },
		{ MLX5DM_SIM_CAP_GENERAL, 0, MLX5DM_SIM_GEN_ARG_MAX_ALLOC,
		  cfg->header_modify_argument ? 16 : 0 },
		{ MLX5DM_SIM_CAP_ETH_OFFLOAD, 0, MLX5DM_SIM_ETH_WQE_INLINE_MODE,
		  MLX5DM_SIM_CAP_INLINE_VPORT },
		{ MLX5DM_SIM_CAP_ROCE, 0, MLX5DM_SIM_ROCE_FL_RC_QP_DIS, !cfg->no_force_loopback },
		{ MLX5DM_SIM_CAP_ROCE, 0, MLX5DM_SIM_ROCE_FL_RC_QP_EN, !cfg->no_force_loopback },
		{ MLX5DM_SIM_CAP_NIC_FLOW_TABLE, 0, MLX5DM_SIM_NIC_MAX_ENCAP_HDR,
		  cfg->max_encap_header_size },
		{ MLX5DM_SIM_CAP_NIC_FLOW_TABLE, 0, MLX5DM_SIM_NIC_RX_DROP_ICM,
		  c->nic_rx_drop_icm_addr },
		{ MLX5DM_SIM_CAP_NIC_FLOW_TABLE, 0, MLX5DM_SIM_NIC_TX_DROP_ICM,
		  c->nic_tx_drop_icm_addr },
		{ MLX5DM_SIM_CAP_NIC_FLOW_TABLE, 0, MLX5DM_SIM_NIC_TX_ALLOW_ICM,
		  c->nic_tx_allow_icm_addr },
		/* ESW_FLOW_TABLE and ESW stay all zero on a function that manages no e-switch. */
		{ MLX5DM_SIM_CAP_ESW_FLOW_TABLE, 0, MLX5DM_SIM_ESW_FDB_DROP_RX_ICM,
		  mgr ? mlx5dm_sim_term_icm(sim, MLX5DM_SIM_TERM_FDB_DROP_RX_OFF) : 0 },
		{ MLX5DM_SIM_CAP_ESW_FLOW_TABLE, 0, MLX5DM_SIM_ESW_FDB_DROP_TX_ICM,
		  mgr ? mlx5dm_sim_term_icm(sim, MLX5DM_SIM_TERM_FDB_DROP_TX_OFF) : 0 },
		{ MLX5DM_SIM_CAP_ESW_FLOW_TABLE, 0, MLX5DM_SIM_ESW_UPLINK_RX_ICM,
		  mgr ? mlx5dm_sim_term_icm(sim, MLX5DM_SIM_TERM_UPLINK_RX_OFF) : 0 },
		{ MLX5DM_SIM_CAP_ESW_FLOW_TABLE, 0, MLX5DM_SIM_ESW_UPLINK_TX_ICM,
		  mgr ? mlx5dm_sim_term_icm(sim, MLX5DM_SIM_TERM_UPLINK_TX_OFF) : 0 },
		/* The PF is the manager: vport 0, not an ECPF's 0xfffe. */
		{ MLX5DM_SIM_CAP_ESW, 0, MLX5DM_SIM_ESWCAP_MGR_VPORT_VALID, mgr },
		{ MLX5DM_SIM_CAP_ESW, 0, MLX5DM_SIM_ESWCAP_MGR_VPORT, 0 },
		{ MLX5DM_SIM_CAP_DEVICE_MEMORY, 0, MLX5DM_SIM_DM_MEMIC, 0 },
		{ MLX5DM_SIM_CAP_DEVICE_MEMORY, 0, MLX5DM_SIM_DM_STEERING_START,
		  c->steering_sw_icm_start },
		{ MLX5DM_SIM_CAP_DEVICE_MEMORY, 0, MLX5DM_SIM_DM_LOG_MODIFY_SIZE,
		  cfg->log_header_modify_sw_icm_size },
		{ MLX5DM_SIM_CAP_DEVICE_MEMORY, 0, MLX5DM_SIM_DM_LOG_GRANULARITY,
		  cfg->log_sw_icm_alloc_granularity },
		{ MLX5DM_SIM_CAP_DEVICE_MEMORY, 0, MLX5DM_SIM_DM_LOG_STEERING_SIZE,
		  cfg->log_steering_sw_icm_size },
		{ MLX5DM_SIM_CAP_DEVICE_MEMORY, 0, MLX5DM_SIM_DM_LOG_ENCAP_SIZE,
		  cfg->log_indirect_encap_sw_icm_size },
		{ MLX5DM_SIM_CAP_DEVICE_MEMORY, 0, MLX5DM_SIM_DM_LOG_PATTERN_SIZE,
		  cfg->log_header_modify_pattern_sw_icm_size },
		{ MLX5DM_SIM_CAP_DEVICE_MEMORY, 0, MLX5DM_SIM_DM_MODIFY_START,
		  c->header_modify_sw_icm_start },
		{ MLX5DM_SIM_CAP_DEVICE_MEMORY, 0, MLX5DM_SIM_DM_PATTERN_START,
		  c->header_modify_pattern_sw_icm_start },
		{ MLX5DM_SIM_CAP_DEVICE_MEMORY, 0, MLX5DM_SIM_DM_ENCAP_START,
		  c->indirect_encap_icm_base },
		{ MLX5DM_SIM_CAP_DEVICE_MEMORY, 0, MLX5DM_SIM_DM_ENCAP_BASE,
		  c->indirect_encap_icm_base },
	};
	static const uint8_t present[] = {
		MLX5DM_SIM_CAP_GENERAL, MLX5DM_SIM_CAP_ETH_OFFLOAD, MLX5DM_SIM_CAP_ROCE,
		MLX5DM_SIM_CAP_NIC_FLOW_TABLE,
		MLX5DM_SIM_CAP_ESW_FLOW_TABLE, MLX5DM_SIM_CAP_ESW, MLX5DM_SIM_CAP_DEVICE_MEMORY,
	};
	unsigned int i;

	for (i = 0; i < MLX5DM_ARRAY_SIZE(present); i++) {
		sim->cap_blob[present[i]] = mlx5dm_zmalloc_socket(MLX5DM_SIM_CAP_BYTES,
								  sim->socket);
		if (sim->cap_blob[present[i]] == NULL)
			return -ENOMEM;
	}
	for (i = 0; i < MLX5DM_ARRAY_SIZE(rows); i++)
		mlx5dm_prm_set64(sim->cap_blob[rows[i].type], rows[i].base + rows[i].f.bit,
				 rows[i].f.width, rows[i].v);
	mlx5dm_sim_caps_ft_props(sim, sim->cap_blob[MLX5DM_SIM_CAP_NIC_FLOW_TABLE],
				 MLX5DM_SIM_NIC_PROP_RX_BIT);
	mlx5dm_sim_caps_ft_props(sim, sim->cap_blob[MLX5DM_SIM_CAP_NIC_FLOW_TABLE],
				 MLX5DM_SIM_NIC_PROP_TX_BIT);
	if (mgr)
		mlx5dm_sim_caps_ft_props(sim, sim->cap_blob[MLX5DM_SIM_CAP_ESW_FLOW_TABLE],
					 MLX5DM_SIM_ESW_PROP_FDB_BIT);
	return 0;
}

void
mlx5dm_sim_caps_free(struct mlx5dm_sim *sim)
{
	unsigned int i;

	for (i = 0; i < MLX5DM_SIM_CAP_NUM; i++) {
		mlx5dm_free(sim->cap_blob[i]);
		sim->cap_blob[i] = NULL;
	}
}

int
mlx5dm_sim_cmd_query_hca_cap(struct mlx5dm_sim_cmd *c)
{
	unsigned int type = c->op_mod >> 1;

	if (type >= MLX5DM_SIM_CAP_NUM || c->sim->cap_blob[type] == NULL)
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "capability type not supported");
	if (mlx5dm_sim_in(c, MLX5DM_SIM_QCAP_IN_OTHER_FUNC))
		return mlx5dm_sim_esw_other_caps(c, type);
	memcpy(c->out + MLX5DM_SIM_QCAP_OUT_CAP_BYTE, c->sim->cap_blob[type],
	       MLX5DM_SIM_CAP_BYTES);
	return MLX5DM_SIM_ST_OK;
}

const struct mlx5dm_sim_caps *
mlx5dm_sim_caps(struct mlx5dm_sim *sim)
{
	return &sim->caps;
}
