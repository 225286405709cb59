/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Capabilities: QUERY_HCA_CAP through the device boundary (the same
 * mailbox on the model and on hardware), decoded with the lib/prm tables,
 * then the gating rules of SW steering (rdma-core providers/mlx5/dr_domain.c,
 * dr_domain_caps_init()).
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "mlx5dm_prm.h"
#include "mlx5dm_prm_queue.h"
#include "mlx5dm_prm_vport.h"
#include "mlx5dm_steer_priv.h"

#define MLX5DM_STEER_CAP_OUT MLX5DM_QUERY_HCA_CAP_OUT_SIZE

/* A query command of 16 input bytes; out gets outlen bytes. */
static int
mlx5dm_caps_cmd(struct mlx5dm_dev *dev, const uint8_t *in, uint8_t *out, size_t outlen,
		const char *what)
{
	int ret;

	memset(out, 0, outlen);
	ret = dev->ops->devx_general_cmd(dev->ctx, in, 16, out, outlen);
	if (ret != 0) {
		MLX5DM_LOG(ERR, MLX5DM_STEER_LOG, "%s failed: %d (status 0x%x syndrome 0x%x)",
			   what, ret, mlx5dm_prm_get(out, 0, 8), mlx5dm_prm_get(out, 32, 32));
		return ret < 0 ? ret : -EIO;
	}
	return 0;
}

static int
mlx5dm_caps_query(struct mlx5dm_dev *dev, enum mlx5dm_hca_cap_type type, uint8_t *out)
{
	uint8_t in[16] = { 0 };
	char what[32];

	mlx5dm_prm_fset(in, mlx5dm_prm_query_hca_cap_in.opcode, MLX5DM_CMD_QUERY_HCA_CAP);
	mlx5dm_prm_fset(in, mlx5dm_prm_query_hca_cap_in.op_mod, MLX5DM_HCA_CAP_OPMOD(type));
	snprintf(what, sizeof(what), "QUERY_HCA_CAP type 0x%x", type);
	return mlx5dm_caps_cmd(dev, in, out, MLX5DM_STEER_CAP_OUT, what);
}

/*
 * How the send rings' QPs connect to themselves, as rdma-core decides it
 * (dr_send_allow_fl(), dr_prepare_qp_to_rts()): force-loopback when the
 * device allows it in the port's RoCE state (roce_en of the NIC vport
 * context), else through the port's RoCE address, GID index 0 of port 1.
 */
static int
mlx5dm_caps_send_path(struct mlx5dm_dev *dev, struct mlx5dm_caps *caps, bool roce,
		      bool fl_dis, uint8_t *out)
{
	const struct mlx5dm_prm_caps_roce *rc = &mlx5dm_prm_caps_roce;
	struct mlx5dm_send_path *p = &caps->send_path;
	uint8_t in[16] = { 0 };
	bool fl_en = false;
	int ret;

	if (roce) {
		ret = mlx5dm_caps_query(dev, MLX5DM_HCA_CAP_ROCE, out);
		if (ret < 0)
			return ret;
		fl_dis |= mlx5dm_prm_fget(out, rc->fl_rc_qp_when_roce_disabled) != 0;
		fl_en = mlx5dm_prm_fget(out, rc->fl_rc_qp_when_roce_enabled) != 0;
		mlx5dm_prm_fset(in, MLX5DM_CMD_IN_OPCODE, MLX5DM_CMD_OP_QUERY_NIC_VPORT_CONTEXT);
		ret = mlx5dm_caps_cmd(dev, in, out, MLX5DM_QUERY_NIC_VPORT_OUT_BYTES,
				      "QUERY_NIC_VPORT_CONTEXT");
		if (ret < 0)
			return ret;
		caps->roce_en = mlx5dm_prm_fget(out, MLX5DM_NIC_VPORT_ROCE_EN) != 0;
	}
	p->fl = caps->roce_en ? fl_en : fl_dis;
	if (p->fl)
		return 0;
	memset(in, 0, sizeof(in));
	mlx5dm_prm_fset(in, MLX5DM_CMD_IN_OPCODE, MLX5DM_CMD_OP_QUERY_ROCE_ADDRESS);
	mlx5dm_prm_fset(in, MLX5DM_QUERY_ROCE_IN_INDEX, 0);
	mlx5dm_prm_fset(in, MLX5DM_QUERY_ROCE_IN_PORT, 1);
	ret = mlx5dm_caps_cmd(dev, in, out, MLX5DM_QUERY_ROCE_ADDRESS_OUT_BYTES,
			      "QUERY_ROCE_ADDRESS");
	if (ret < 0)
		return ret;
	memcpy(p->rgid, out + MLX5DM_ROCE_ADDR_GID_BYTE, sizeof(p->rgid));
	memcpy(p->rmac, out + MLX5DM_ROCE_ADDR_MAC_BYTE, sizeof(p->rmac));
	p->roce_v2 = mlx5dm_prm_fget(out, MLX5DM_ROCE_ADDR_VERSION) == MLX5DM_ROCE_VERSION_2;
	return 0;
}

/* A vport's ICM entries (QUERY_ESW_VPORT_CONTEXT): its own (0) or, other, of vport num. */
static int
mlx5dm_caps_esw_vport(struct mlx5dm_dev *dev, bool other, uint16_t num,
		      struct mlx5dm_vport_caps *vc, uint8_t *out)
{
	uint8_t in[16] = { 0 };
	int ret;

	mlx5dm_prm_fset(in, MLX5DM_CMD_IN_OPCODE, MLX5DM_CMD_OP_QUERY_ESW_VPORT_CONTEXT);
	mlx5dm_prm_fset(in, MLX5DM_ESW_VPORT_IN_OTHER_VPORT, other);
	mlx5dm_prm_fset(in, MLX5DM_ESW_VPORT_IN_NUMBER, num);
	ret = mlx5dm_caps_cmd(dev, in, out, MLX5DM_QUERY_ESW_VPORT_OUT_BYTES,
			      "QUERY_ESW_VPORT_CONTEXT");
	if (ret < 0)
		return ret;
	vc->num = num;
	vc->icm_rx = mlx5dm_prm_fget(out, MLX5DM_ESW_VPORT_ICM_RX);
	vc->icm_tx = mlx5dm_prm_fget(out, MLX5DM_ESW_VPORT_ICM_TX);
	return 0;
}

/*
 * The FDB of an E-Switch manager (rdma-core dr_domain_query_fdb_caps,
 * dr_domain_query_esw_mgr, dr_domain_fill_uplink_caps). The manager is
 * vport 0 here: an ECPF's (esw_manager_vport_number 0xfffe) is not handled,
 * so its FDB stays without SW ownership.
 */
static int
mlx5dm_caps_fdb(struct mlx5dm_dev *dev, struct mlx5dm_caps *caps, uint8_t *out)
{
	const struct mlx5dm_prm_caps_esw_ft *ft = &mlx5dm_prm_caps_esw_ft;
	struct mlx5dm_fdb_caps *fdb = &caps->fdb;
	bool sw_owner;
	int ret;

	ret = mlx5dm_caps_query(dev, MLX5DM_HCA_CAP_ESW_FLOW_TABLE, out);
	if (ret < 0)
		return ret;
	sw_owner = mlx5dm_prm_fget(out, ft->fdb.sw_owner_v2) ?
		   caps->fmt <= 3 : mlx5dm_prm_fget(out, ft->fdb.sw_owner) != 0;
	fdb->max_ft_level = (uint8_t)mlx5dm_prm_fget(out, ft->fdb.max_ft_level);
	fdb->drop_icm_rx = mlx5dm_prm_fget(out, ft->sw_steering_fdb_action_drop_icm_address_rx);
	fdb->drop_icm_tx = mlx5dm_prm_fget(out, ft->sw_steering_fdb_action_drop_icm_address_tx);
	fdb->uplink.num = MLX5DM_VPORT_UPLINK;
	fdb->uplink.icm_rx = mlx5dm_prm_fget(out, ft->sw_steering_uplink_icm_address_rx);
	fdb->uplink.icm_tx = mlx5dm_prm_fget(out, ft->sw_steering_uplink_icm_address_tx);
	fdb->uplink.vhca_gvmi = caps->vhca_id;
	ret = mlx5dm_caps_query(dev, MLX5DM_HCA_CAP_ESW, out);
	if (ret < 0)
		return ret;
	if (mlx5dm_prm_fget(out, MLX5DM_ESW_CAP_MANAGER_VALID) &&
	    mlx5dm_prm_fget(out, MLX5DM_ESW_CAP_MANAGER_VPORT) != 0) {
		MLX5DM_LOG(NOTICE, MLX5DM_STEER_LOG, "FDB: e-switch manager vport 0x%x, not 0",
			   (unsigned int)mlx5dm_prm_fget(out, MLX5DM_ESW_CAP_MANAGER_VPORT));
		return 0;
	}
	ret = mlx5dm_caps_esw_vport(dev, false, 0, &fdb->manager, out);
	if (ret < 0)
		return ret;
	fdb->manager.vport_gvmi = caps->vhca_id;
	fdb->manager.vhca_gvmi = caps->vhca_id;
	fdb->sw_owner = sw_owner;
	return 0;
}

int
mlx5dm_caps_vport(struct mlx5dm_dev *dev, const struct mlx5dm_caps *caps, uint16_t num,
		  struct mlx5dm_vport_caps *vc)
{
	uint8_t *out;
	uint8_t in[16] = { 0 };
	int ret;

	if (!caps->fdb.sw_owner)
		return -ENOTSUP;
	if (num == MLX5DM_VPORT_UPLINK || num == caps->fdb.manager.num) {
		*vc = num == MLX5DM_VPORT_UPLINK ? caps->fdb.uplink : caps->fdb.manager;
		return 0;
	}
	out = mlx5dm_malloc_socket(MLX5DM_STEER_CAP_OUT, dev->socket);
	if (out == NULL)
		return -ENOMEM;
	ret = mlx5dm_caps_esw_vport(dev, true, num, vc, out);
	if (ret < 0)
		goto free_out;
	/* The vport's function: its vhca_id is what source_gvmi matches (dr_devx_query_gvmi). */
	mlx5dm_prm_fset(in, mlx5dm_prm_query_hca_cap_in.opcode, MLX5DM_CMD_QUERY_HCA_CAP);
	mlx5dm_prm_fset(in, mlx5dm_prm_query_hca_cap_in.op_mod,
			MLX5DM_HCA_CAP_OPMOD(MLX5DM_HCA_CAP_GENERAL));
	mlx5dm_prm_fset(in, mlx5dm_prm_query_hca_cap_in.other_function, 1);
	mlx5dm_prm_fset(in, mlx5dm_prm_query_hca_cap_in.function_id, num);
	ret = mlx5dm_caps_cmd(dev, in, out, MLX5DM_STEER_CAP_OUT, "QUERY_HCA_CAP other_function");
	if (ret < 0)
		goto free_out;
	vc->vport_gvmi = (uint16_t)mlx5dm_prm_fget(out, mlx5dm_prm_caps_general.vhca_id);
	vc->vhca_gvmi = caps->vhca_id;
free_out:
	mlx5dm_free(out);
	return ret;
}

int
mlx5dm_caps_read(struct mlx5dm_dev *dev, struct mlx5dm_caps *caps)
{
	const struct mlx5dm_prm_caps_general *g = &mlx5dm_prm_caps_general;
	const struct mlx5dm_prm_caps_nic_ft *ft = &mlx5dm_prm_caps_nic_ft;
	const struct mlx5dm_prm_caps_dev_mem *dm = &mlx5dm_prm_caps_dev_mem;
	bool roce, fl_dis;
	uint8_t *out;
	int ret;

	out = mlx5dm_malloc_socket(MLX5DM_STEER_CAP_OUT, dev->socket);
	if (out == NULL)
		return -ENOMEM;
	memset(caps, 0, sizeof(*caps));
	ret = mlx5dm_caps_query(dev, MLX5DM_HCA_CAP_GENERAL, out);
	if (ret < 0)
		goto free_out;
	caps->vhca_id = (uint16_t)mlx5dm_prm_fget(out, g->vhca_id);
	caps->log_max_qp_sz = (uint8_t)mlx5dm_prm_fget(out, g->log_max_qp_sz);
	caps->log_max_cq_sz = (uint8_t)mlx5dm_prm_fget(out, g->log_max_cq_sz);
	caps->fmt = (uint8_t)mlx5dm_prm_fget(out, g->steering_format_version);
	caps->modify_argument = (mlx5dm_prm_fget(out, g->general_obj_types) >>
				 MLX5DM_GENERAL_OBJ_TYPE_HEADER_MODIFY_ARGUMENT) & 1;
	caps->log_arg_granularity =
		(uint8_t)mlx5dm_prm_fget(out, g->log_header_modify_argument_granularity);
	caps->log_arg_max_alloc =
		(uint8_t)mlx5dm_prm_fget(out, g->log_header_modify_argument_max_alloc);
	caps->fc_bulk_bitmap = (uint8_t)mlx5dm_prm_fget(out, g->flow_counter_bulk_alloc);
	caps->log_max_fc_bulk = (uint8_t)mlx5dm_prm_fget(out, g->log_max_flow_counter_bulk);
	caps->rq_ts_format = (uint8_t)mlx5dm_prm_fget(out, g->rq_ts_format);
	caps->eswitch_manager = mlx5dm_prm_fget(out, g->eswitch_manager) != 0;
	roce = mlx5dm_prm_fget(out, g->roce) != 0;
	fl_dis = mlx5dm_prm_fget(out, g->fl_rc_qp_when_roce_disabled) != 0;
	caps->ste.flex_protocols = (uint32_t)mlx5dm_prm_fget(out, g->flex_parser_protocols);
	caps->ste.flex_id[MLX5DM_STE_FLEX_MPLS_OVER_GRE] =
		(uint8_t)mlx5dm_prm_fget(out, g->flex_parser_id_outer_first_mpls_over_gre);
	caps->ste.flex_id[MLX5DM_STE_FLEX_MPLS_OVER_UDP] =
		(uint8_t)mlx5dm_prm_fget(out, g->flex_parser_id_outer_first_mpls_over_udp_label);
	caps->flex_id_icmp[0] = (uint8_t)mlx5dm_prm_fget(out, g->flex_parser_id_icmp_dw0);
	caps->flex_id_icmp[1] = (uint8_t)mlx5dm_prm_fget(out, g->flex_parser_id_icmp_dw1);
	caps->flex_id_icmp[2] = (uint8_t)mlx5dm_prm_fget(out, g->flex_parser_id_icmpv6_dw0);
	caps->flex_id_icmp[3] = (uint8_t)mlx5dm_prm_fget(out, g->flex_parser_id_icmpv6_dw1);

	ret = mlx5dm_caps_query(dev, MLX5DM_HCA_CAP_NIC_FLOW_TABLE, out);
	if (ret < 0)
		goto free_out;
	/* sw_owner is only meaningful when sw_owner_v2 is clear (3.2, rule 3). */
	caps->rx_sw_owner = mlx5dm_prm_fget(out, ft->rx.sw_owner_v2) ?
			    caps->fmt <= 3 : mlx5dm_prm_fget(out, ft->rx.sw_owner) != 0;
	caps->tx_sw_owner = mlx5dm_prm_fget(out, ft->tx.sw_owner_v2) ?
			    caps->fmt <= 3 : mlx5dm_prm_fget(out, ft->tx.sw_owner) != 0;
	caps->max_ft_level = (uint8_t)MLX5DM_MIN(mlx5dm_prm_fget(out, ft->rx.max_ft_level),
						mlx5dm_prm_fget(out, ft->tx.max_ft_level));
	caps->rx_drop_icm = mlx5dm_prm_fget(out, ft->sw_steering_nic_rx_action_drop_icm_address);
	caps->tx_drop_icm = mlx5dm_prm_fget(out, ft->sw_steering_nic_tx_action_drop_icm_address);
	caps->tx_allow_icm = mlx5dm_prm_fget(out, ft->sw_steering_nic_tx_action_allow_icm_address);
	caps->max_encap_header_size = (uint16_t)mlx5dm_prm_fget(out, ft->max_encap_header_size);

	ret = mlx5dm_caps_query(dev, MLX5DM_HCA_CAP_DEVICE_MEMORY, out);
	if (ret < 0)
		goto free_out;
	caps->icm.steering_format_version = caps->fmt;
	caps->icm.log_steering_sw_icm_size =
		(uint8_t)mlx5dm_prm_fget(out, dm->log_steering_sw_icm_size);
	caps->icm.log_header_modify_sw_icm_size =
		(uint8_t)mlx5dm_prm_fget(out, dm->log_header_modify_sw_icm_size);
	caps->icm.log_header_modify_pattern_sw_icm_size =
		(uint8_t)mlx5dm_prm_fget(out, dm->log_header_modify_pattern_sw_icm_size);
	caps->icm.log_indirect_encap_sw_icm_size =
		(uint8_t)mlx5dm_prm_fget(out, dm->log_indirect_encap_sw_icm_size);
	caps->icm.header_modify_sw_icm_start_address =
		mlx5dm_prm_fget(out, dm->header_modify_sw_icm_start_address);
	caps->icm.header_modify_pattern_sw_icm_start_address =
		mlx5dm_prm_fget(out, dm->header_modify_pattern_sw_icm_start_address);
	caps->icm.indirect_encap_icm_base = mlx5dm_prm_fget(out, dm->indirect_encap_icm_base);
	ret = mlx5dm_caps_send_path(dev, caps, roce, fl_dis, out);
	/* NIC domains do not need the FDB: a manager whose FDB cannot be read has none. */
	if (ret == 0 && caps->eswitch_manager && mlx5dm_caps_fdb(dev, caps, out) < 0) {
		MLX5DM_LOG(NOTICE, MLX5DM_STEER_LOG, "FDB capabilities unreadable: no FDB");
		memset(&caps->fdb, 0, sizeof(caps->fdb));
	}
free_out:
	mlx5dm_free(out);
	return ret;
}

int
mlx5dm_port_attr_query(struct mlx5dm_dev *dev, struct mlx5dm_port_attr *attr)
{
	uint8_t in[16] = { 0 };
	uint8_t out[MLX5DM_QUERY_NIC_VPORT_OUT_BYTES];
	uint64_t mac;
	unsigned int i;
	int ret;

	mlx5dm_prm_fset(in, MLX5DM_CMD_IN_OPCODE, MLX5DM_CMD_OP_QUERY_NIC_VPORT_CONTEXT);
	ret = mlx5dm_caps_cmd(dev, in, out, sizeof(out), "QUERY_NIC_VPORT_CONTEXT");
	if (ret < 0)
		return ret;
	mac = mlx5dm_prm_fget(out, MLX5DM_NIC_VPORT_MAC_47_32) << 32 |
	      mlx5dm_prm_fget(out, MLX5DM_NIC_VPORT_MAC_31_0);
	for (i = 0; i < 6; i++)
		attr->mac[i] = (uint8_t)(mac >> (40 - 8 * i));
	attr->mtu = (uint16_t)mlx5dm_prm_fget(out, MLX5DM_NIC_VPORT_MTU);
	if (attr->mtu <= MLX5DM_VPORT_HARD_MTU) {
		MLX5DM_LOG(ERR, MLX5DM_STEER_LOG, "QUERY_NIC_VPORT_CONTEXT: vport MTU %u",
			   attr->mtu);
		return -EIO;
	}
	attr->mtu -= MLX5DM_VPORT_HARD_MTU;
	memset(in, 0, sizeof(in));
	mlx5dm_prm_fset(in, MLX5DM_CMD_IN_OPCODE, MLX5DM_CMD_OP_QUERY_VPORT_STATE);
	mlx5dm_prm_fset(in, MLX5DM_CMD_IN_OP_MOD, MLX5DM_VPORT_STATE_OP_MOD_VNIC);
	ret = mlx5dm_caps_cmd(dev, in, out, MLX5DM_QUERY_VPORT_STATE_OUT_BYTES,
			      "QUERY_VPORT_STATE");
	if (ret < 0)
		return ret;
	attr->link_up = mlx5dm_prm_fget(out, MLX5DM_VPORT_STATE_OPER) == MLX5DM_VPORT_STATE_UP;
	return 0;
}
