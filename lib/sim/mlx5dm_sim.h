/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The device model: a software ConnectX-6 Dx (one PCI function with one
 * Ethernet uplink per instance) behind the hardware's own interface.
 *
 * It is reached through the device boundary (lib/dev): it joins the
 * registry as transport "sim" when loaded, and mlx5dm_dev_open() of "sim"
 * creates an instance and fills struct mlx5dm_dev with mlx5dm_sim_dev_ops.
 * Several instances can be cabled together (mlx5dm_sim_wire_connect, or
 * mlx5dm_dev_wire_connect); an unconnected uplink loops back to itself.
 *
 * A PF configured with VFs (num_vfs) is the manager of an E-Switch that
 * switches between its uplink and its functions: the PF (vport 0) and
 * each VF (vport 1 + i), every function an instance of its own, opened
 * through the same transport (esw_pf, vf), so a test plays the VM on a VF.
 *
 * The model decides a packet's fate only from the bytes written into its
 * ICM and from its firmware objects; it never sees library structures.
 */

#ifndef _MLX5DM_SIM_H_
#define _MLX5DM_SIM_H_

#include <stdbool.h>
#include <stdint.h>

#include "mlx5dm_dev.h"

struct mlx5dm_sim;

/* What the model reports in its capabilities; defaults = a ConnectX-6 Dx. */
struct mlx5dm_sim_config {
	uint8_t steering_format_version;        /* 1 (STE v1) by default */
	uint16_t vhca_id;                       /* GVMI of this function */
	uint8_t log_steering_sw_icm_size;       /* >= 26 for SW steering */
	uint8_t log_header_modify_sw_icm_size;  /* >= 15 */
	uint8_t log_header_modify_pattern_sw_icm_size; /* >= 15; 0 = no pattern ICM */
	uint8_t log_indirect_encap_sw_icm_size; /* 0 = ENCAP SW ICM unsupported */
	uint8_t log_sw_icm_alloc_granularity;   /* DM block size, log2 bytes */
	bool header_modify_argument;            /* general object 0x23 supported */
	uint8_t log_max_ft_level;               /* NIC RX/TX max_ft_level */
	uint16_t max_encap_header_size;         /* bytes */
	/*
	 * How many objects of one kind the firmware holds (flow tables,
	 * reformat contexts, TIRs, ...: 2^n, 6..16; 0 = 16) and how many flow
	 * counters (2^n, 8..20; 0 = 20): past them a create fails with
	 * NO_RESOURCES, as on a device. Small values let tests reach them.
	 */
	uint8_t log_max_objects;
	uint8_t log_max_flow_counters;
	/* log_max_qp_sz and log_max_cq_sz reported (0: 15 and 22, a ConnectX-6 Dx's). */
	uint8_t log_max_qp_sz;
	uint8_t log_max_cq_sz;
	/* NIC RX/TX flow tables report neither sw_owner nor sw_owner_v2 (firmware keeps them). */
	bool no_sw_owner;
	/*
	 * The NIC vport: its permanent MAC (48 bits; 0: 02:00:00:00:00:<vhca_id>),
	 * its MTU as the vport context counts it, the whole frame with one VLAN
	 * tag and FCS (0: 1522, a netdev MTU of 1500), and the link (up unless
	 * link_down).
	 */
	uint64_t vport_mac;
	uint16_t vport_mtu;
	bool link_down;
	/*
	 * alloc_dm refuses ENCAP_SW_ICM (EOPNOTSUPP) while the capabilities
	 * still report the region: a device behind an rdma-core older than
	 * 50 or a kernel without that DM type.
	 */
	bool refuse_encap_dm;
	/*
	 * RoCE enabled on the port (the general "roce" capability and the
	 * NIC vport context's roce_en): RC QPs may then connect through the
	 * port's GID. Off by default.
	 */
	bool roce;
	/*
	 * Force-loopback RC QPs are not allowed (fl_rc_qp_when_roce_disabled
	 * and _enabled 0): a QP then connects through the port's GID, which
	 * needs RoCE. false by default: allowed in both RoCE states.
	 */
	bool no_force_loopback;
	/*
	 * The NIC vport context demands L2 inline headers (min_wqe_inline_mode
	 * L2: 18 bytes in each Ethernet segment of a send WQE; the Ethernet
	 * offload caps say wqe_inline_mode "vport context"). false: none.
	 * true by default.
	 */
	bool wqe_inline_l2;
	/*
	 * The SW ICM regions (STE, modify, pattern, encap) are device memory:
	 * mapped and faulted in when the instance is created, from the huge
	 * page pool where it has room (mlx5dm_resident_map), so rule writes
	 * never pay a page fault; a NIC port's model (the PMD) sets it. false
	 * (the default): backed as first written, so a large configured ICM
	 * costs nothing.
	 */
	bool icm_populate;
	/*
	 * The E-Switch (mlx5dm_sim_esw.c). num_vfs (0..MLX5DM_SIM_ESW_MAX_VFS)
	 * VFs make this instance a PF that manages one; 0 is the single-
	 * function device. esw_pf set: this instance is VF vf of that PF
	 * (which must outlive it); its vhca_id is then the PF's + 1 + vf.
	 */
	uint16_t num_vfs;
	struct mlx5dm_sim *esw_pf;
	uint16_t vf;
};

#define MLX5DM_SIM_ESW_MAX_VFS 7
/* The uplink's vport number in source_port matching (rdma-core WIRE_PORT). */
#define MLX5DM_SIM_VPORT_UPLINK 0xffffu

/*
 * The source-port metadata the E-Switch writes into metadata_reg_c_0 of a
 * frame that enters the FDB from vport (or MLX5DM_SIM_VPORT_UPLINK), as
 * Linux does in switchdev mode (eswitch_offloads.c,
 * mlx5_esw_match_metadata_alloc: a 16-bit id in bits 31:16, the uplink's
 * reserved id 1). On hardware the library reads it with mlx5dv_query_port
 * (MLX5DV_QUERY_PORT_VPORT_REG_C0); the mask is 0xffff0000.
 */
uint32_t mlx5dm_sim_esw_reg_c0(uint16_t vport);

void mlx5dm_sim_config_default(struct mlx5dm_sim_config *cfg);

/* The boundary operations the model implements (see mlx5dm_dev.h). */
extern const struct mlx5dm_dev_ops mlx5dm_sim_dev_ops;

/* Its transport: attr->config of mlx5dm_dev_open() is a struct mlx5dm_sim_config. */
extern const struct mlx5dm_dev_transport mlx5dm_sim_transport;

/* The instance behind a device opened through "sim", NULL for another device. */
struct mlx5dm_sim *mlx5dm_sim_of(const struct mlx5dm_dev *dev);

/*
 * Create/destroy an instance (what opening and closing a "sim" device do),
 * its host memory on socket (the device's; MLX5DM_SOCKET_ANY: no
 * preference).
 */
struct mlx5dm_sim *mlx5dm_sim_create(const struct mlx5dm_sim_config *cfg, int socket);
void mlx5dm_sim_destroy(struct mlx5dm_sim *sim);
struct ibv_context *mlx5dm_sim_context(struct mlx5dm_sim *sim);

/* Cable uplink a of sim_a to uplink b of sim_b (both directions); a VF has none (-EINVAL). */
int mlx5dm_sim_wire_connect(struct mlx5dm_sim *sim_a, uint16_t a, struct mlx5dm_sim *sim_b,
			    uint16_t b);

int mlx5dm_sim_port_stats_get(struct mlx5dm_sim *sim, uint16_t port,
			      struct mlx5dm_dev_port_stats *st);

/*
 * Objects the driver created on the instance and has not destroyed: PDs,
 * MRs, DMs, umems, UARs, DEVX objects, root matchers and rules. A clean
 * teardown brings it to 0 before mlx5dm_sim_destroy(), which reclaims
 * whatever is left as a device reset does, and adds it to a process-wide
 * count (mlx5dm_sim_left_behind()): what teardowns leaked.
 */
uint64_t mlx5dm_sim_live_objects(struct mlx5dm_sim *sim);
uint64_t mlx5dm_sim_left_behind(void);

/*
 * Fault injection (tests): the n-th send-queue WQE the model executes from
 * now on (n >= 1, any QP) fails as an RDMA access with a key the device
 * does not know fails on a ConnectX: nothing is written, an error CQE with
 * the remote access syndrome (0x13) reports it, the QP moves to the error
 * state and its later WQEs complete with flush errors. n = 0 disarms.
 */
void mlx5dm_sim_sq_fail_at(struct mlx5dm_sim *sim, uint64_t n);

/*
 * Packet-walk trace (debugging). Off by default and free when off: one
 * predictable branch per walk. When on, every STE visited, hit/miss,
 * actions executed and the final fate are passed to fn as text lines.
 */
typedef void (*mlx5dm_sim_trace_fn)(void *arg, const char *line);
void mlx5dm_sim_trace_set(struct mlx5dm_sim *sim, mlx5dm_sim_trace_fn fn, void *arg);

#endif /* _MLX5DM_SIM_H_ */
