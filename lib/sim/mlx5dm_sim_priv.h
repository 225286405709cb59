/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Internal contract between the two halves of the model:
 *
 *   core   (mlx5dm_sim_core*.c, mlx5dm_sim_fw*.c, mlx5dm_sim_queue*.c):
 *          instance, capabilities, ICM arenas, firmware objects and PRM
 *          commands, umem/UAR/CQ/QP and the send-queue WQE executor, RQ
 *          rings, the mlx5dm_sim_dev_ops table;
 *   engine (mlx5dm_sim_engine*.c, mlx5dm_sim_parse*.c, ...):
 *          packet parser, STE walker, action executor, RSS queue choice,
 *          wire, per-port statistics, trace.
 *
 * The engine sees the core only through the functions below (its unit
 * tests link a fake core implementing them), and the core sees the engine
 * only through the mlx5dm_sim_engine_* functions.
 *
 * Thread safety: every function here may be called concurrently from
 * several threads (several device threads walk packets while another
 * thread writes ICM through a send queue). The lookups of firmware
 * objects (terminal_lookup, tir_info, rq_deliver, reformat_read) are made
 * inside a hold (mlx5dm_sim_hold) on the instance they name.
 */

#ifndef _MLX5DM_SIM_PRIV_H_
#define _MLX5DM_SIM_PRIV_H_

#include <stdbool.h>
#include <stdint.h>

#include "mlx5dm_sim.h"

/*
 * A frame inside the model: the engine's unit of work. It never crosses
 * the device boundary; frames reach the model through its queues.
 */
struct mlx5dm_sim_pkt {
	void *cookie;       /* caller's handle (e.g. an mbuf), returned untouched */
	uint8_t *data;      /* first byte of the frame; may move into headroom */
	uint16_t len;       /* frame length */
	uint16_t headroom;  /* writable bytes before data (encap, VLAN push) */
	uint16_t tailroom;  /* writable bytes after data + len */
	uint16_t flags;     /* MLX5DM_SIM_PKT_F_* set by the device on delivery */
	uint32_t flow_tag;  /* valid with MLX5DM_SIM_PKT_F_FLOW_TAG */
	uint32_t rss_hash;  /* valid with MLX5DM_SIM_PKT_F_RSS_HASH */
	uint32_t ptype;     /* MLX5DM_SIM_PTYPE_* of the delivered frame (outer, inner) */
	uint8_t rx_ok;      /* delivered: the CQE's hds_ip_ext byte (L3_OK, L4_OK) */
	uint8_t rx_hdr;     /* delivered: the CQE's ip_frag / l4_hdr_type / l3_hdr_type byte */
	uint32_t metadata;  /* Tx: the WQE's flow_table_metadata, reg_a of the NIC TX walk */
	uint32_t sqn;       /* Tx: the send queue's number (source_qp of the TX walks) */
	uint8_t fate;       /* enum mlx5dm_sim_pkt_fate, set by the engine */
};

/*
 * Packet types the parser finds (outer, inner). The values are numerically
 * equal to DPDK's RTE_PTYPE_*, but lib/ does not include DPDK headers.
 */
#define MLX5DM_SIM_PTYPE_L2_ETHER          0x00000001u
#define MLX5DM_SIM_PTYPE_L2_ETHER_VLAN     0x00000006u
#define MLX5DM_SIM_PTYPE_L2_ETHER_QINQ     0x00000007u
#define MLX5DM_SIM_PTYPE_L2_ETHER_MPLS     0x0000000au
#define MLX5DM_SIM_PTYPE_L3_IPV4           0x00000010u
#define MLX5DM_SIM_PTYPE_L3_IPV4_EXT       0x00000030u /* IPv4 with options */
#define MLX5DM_SIM_PTYPE_L3_IPV6           0x00000040u
#define MLX5DM_SIM_PTYPE_L3_IPV6_EXT       0x000000c0u /* IPv6 with extension headers */
#define MLX5DM_SIM_PTYPE_L4_TCP            0x00000100u
#define MLX5DM_SIM_PTYPE_L4_UDP            0x00000200u
#define MLX5DM_SIM_PTYPE_L4_FRAG           0x00000300u
#define MLX5DM_SIM_PTYPE_L4_ICMP           0x00000500u
#define MLX5DM_SIM_PTYPE_L4_NONFRAG        0x00000600u
#define MLX5DM_SIM_PTYPE_TUNNEL_GRE        0x00002000u
#define MLX5DM_SIM_PTYPE_TUNNEL_VXLAN      0x00003000u
#define MLX5DM_SIM_PTYPE_TUNNEL_MPLS_IN_GRE 0x0000c000u
#define MLX5DM_SIM_PTYPE_TUNNEL_MPLS_IN_UDP 0x0000d000u
#define MLX5DM_SIM_PTYPE_INNER_L2_ETHER    0x00010000u
#define MLX5DM_SIM_PTYPE_INNER_L2_ETHER_VLAN 0x00020000u
#define MLX5DM_SIM_PTYPE_INNER_L3_IPV4     0x00100000u
#define MLX5DM_SIM_PTYPE_INNER_L3_IPV4_EXT 0x00200000u
#define MLX5DM_SIM_PTYPE_INNER_L3_IPV6     0x00300000u
#define MLX5DM_SIM_PTYPE_INNER_L3_IPV6_EXT 0x00500000u
#define MLX5DM_SIM_PTYPE_INNER_L4_TCP      0x01000000u
#define MLX5DM_SIM_PTYPE_INNER_L4_UDP      0x02000000u
#define MLX5DM_SIM_PTYPE_INNER_L4_FRAG     0x03000000u
#define MLX5DM_SIM_PTYPE_INNER_L4_ICMP     0x05000000u
#define MLX5DM_SIM_PTYPE_INNER_L4_NONFRAG  0x06000000u

#define MLX5DM_SIM_PKT_F_FLOW_TAG (1u << 0)
#define MLX5DM_SIM_PKT_F_RSS_HASH (1u << 1)

enum mlx5dm_sim_pkt_fate {
	MLX5DM_SIM_PKT_DELIVERED = 1, /* written into an RQ's buffer */
	MLX5DM_SIM_PKT_DROPPED = 2,   /* the caller still owns it and frees it */
};

/* ---- provided by the core, used by the engine ---- */

/*
 * Copy len bytes of ICM at icm_addr (a full ICM address, GVMI in bits 63:48
 * ignored for the own function). Each aligned 64-byte line is copied as one
 * snapshot: a concurrent write of that line is seen entirely or not at all.
 * Returns 0, or -EFAULT if any byte is outside an allocated DM.
 */
int mlx5dm_sim_icm_read(struct mlx5dm_sim *sim, uint64_t icm_addr, void *dst, size_t len);

/*
 * The version of an ICM line's contents, for caches of what was decoded
 * from one: the line holds the bytes mlx5dm_sim_icm_read_line gave as long
 * as mlx5dm_sim_icm_line_ver gives the same version. Every write that
 * reaches the line changes it (writes to other lines may as well), and so
 * do a discard of ICM and SYNC_STEERING.
 */
struct mlx5dm_sim_line_ver {
	uint64_t epoch; /* the instance's: unique to it, moved by discards and syncs */
	uint32_t seq;   /* the line's write sequence: even, odd while a write is under way */
};

/* Read the aligned 64-byte line at icm_addr as mlx5dm_sim_icm_read does, and its version. */
int mlx5dm_sim_icm_read_line(struct mlx5dm_sim *sim, uint64_t icm_addr, void *dst,
			     struct mlx5dm_sim_line_ver *ver);
/* The version of that line now; -EFAULT where mlx5dm_sim_icm_read would fail. */
int mlx5dm_sim_icm_line_ver(struct mlx5dm_sim *sim, uint64_t icm_addr,
			    struct mlx5dm_sim_line_ver *ver);

/*
 * How many 64-byte lines of SW ICM are allocated now: a walk reads only
 * those, so one that has read more STEs has read an STE twice.
 */
uint64_t mlx5dm_sim_icm_lines(struct mlx5dm_sim *sim);

/*
 * Before a walk: execute every WQE already rung on the device's steering
 * send queues (the device thread may not have run them yet), so a packet
 * sees each ICM write whose doorbell record was written before it.
 */
void mlx5dm_sim_sq_catch_up(struct mlx5dm_sim *sim);

/*
 * A burst's hold on the instances its frames reach (the sending one and
 * the receiving one, which may be the same): their firmware objects stay
 * as they are until mlx5dm_sim_release, so the lookups below take no lock
 * frame by frame (a locked instruction per frame would wait for every
 * store before it, into lines the driver's core reads). The RQ a frame
 * was last delivered to stays locked in the hold for the next frame.
 */
#define MLX5DM_SIM_HOLD_MAX (2 * (1 + MLX5DM_SIM_ESW_MAX_VFS))
struct mlx5dm_sim_lines;
struct mlx5dm_sim_hold {
	struct mlx5dm_sim *sim[MLX5DM_SIM_HOLD_MAX]; /* held, in address order */
	unsigned int n;
	struct mlx5dm_sim *rq_sim;  /* the instance of rq */
	void *rq;                   /* the RQ last delivered to, locked; or NULL */
	struct mlx5dm_sim_lines *lines; /* the burst's cache of decoded STEs (set by the engine) */
};
void mlx5dm_sim_hold(struct mlx5dm_sim_hold *h, struct mlx5dm_sim *a, struct mlx5dm_sim *b);
/* The same for n instances (NULLs and repeats skipped; n <= MLX5DM_SIM_HOLD_MAX). */
void mlx5dm_sim_hold_all(struct mlx5dm_sim_hold *h, struct mlx5dm_sim *const *sims,
			 unsigned int n);
void mlx5dm_sim_release(struct mlx5dm_sim_hold *h);

/* Capabilities as configured (the values QUERY_HCA_CAP reports). */
struct mlx5dm_sim_caps {
	uint16_t vhca_id;
	uint8_t steering_format_version;
	uint64_t nic_rx_drop_icm_addr;     /* sw_steering_nic_rx_action_drop_icm_address */
	uint64_t nic_tx_drop_icm_addr;     /* sw_steering_nic_tx_action_drop_icm_address */
	uint64_t nic_tx_allow_icm_addr;    /* sw_steering_nic_tx_action_allow_icm_address */
	uint64_t steering_sw_icm_start;
	uint64_t header_modify_sw_icm_start;          /* base of MODIFY_LIST line indexes */
	uint64_t header_modify_pattern_sw_icm_start;  /* base of pattern indexes */
	uint64_t indirect_encap_icm_base;             /* base of INSERT_POINTER indexes */
	/*
	 * The device has ENCAP SW ICM (log_indirect_encap_sw_icm_size != 0):
	 * an INSERT_POINTER names a 64-byte line of it (firmware reformat
	 * contexts are lines of it too). Without, the pointer is a
	 * packet_reformat_id (mlx5dm_sim_reformat_read).
	 */
	bool indirect_encap_sw_icm;
};
const struct mlx5dm_sim_caps *mlx5dm_sim_caps(struct mlx5dm_sim *sim);

/*
 * Flex parsers of the modelled device: a ConnectX whose firmware enables
 * the MPLS-over-GRE and MPLS-over-UDP parsers. QUERY_HCA_CAP reports these
 * ids (flex_parser_id_outer_first_mpls_over_gre / _udp_label) and their
 * flex_parser_protocols bits; the engine fills the FLEX_PARSER_0/1 lookups
 * by the same ids. Every other parser id reads 0.
 */
#define MLX5DM_SIM_FLEX_ID_MPLS_O_GRE 3u
#define MLX5DM_SIM_FLEX_ID_MPLS_O_UDP 4u
#define MLX5DM_SIM_FLEX_PROTO_MPLS_O_GRE (1u << 4) /* MPLS_OVER_GRE_ENABLED */
#define MLX5DM_SIM_FLEX_PROTO_MPLS_O_UDP (1u << 5) /* MPLS_OVER_UDP_ENABLED */

enum mlx5dm_sim_dir {
	MLX5DM_SIM_DIR_RX = 0,
	MLX5DM_SIM_DIR_TX = 1,
};

/*
 * Where a packet enters steering in a direction: the ICM root of the
 * SW-owned flow table that the highest-priority root-table rule forwards
 * to (MLX5DV_FLOW_ACTION_DEST_DEVX). -ENOENT when no root rule exists
 * (RX: default miss; TX: straight to the wire).
 * The root may also be a terminal address (a DROP root rule gives the
 * direction's drop address, DEST_DEVX to a TIR the TIR's address): check
 * mlx5dm_sim_terminal_lookup before reading an STE there, as for any hop.
 */
int mlx5dm_sim_root_lookup(struct mlx5dm_sim *sim, enum mlx5dm_sim_dir dir,
			   uint64_t *icm_root);

/*
 * Addresses that end a walk instead of naming an STE. The engine passes
 * icm_addr as an STE encodes it: the pointer's GVMI field (hit or miss
 * *_63_48) in bits 63:48 and address bits 39:0 (bits 47:40 are not
 * encodable, so they are 0); match terminals on bits 47:0.
 */
enum mlx5dm_sim_term {
	MLX5DM_SIM_TERM_NONE = 0,  /* not a terminal: an STE address */
	MLX5DM_SIM_TERM_DROP,      /* an RX/TX drop address */
	MLX5DM_SIM_TERM_TX_WIRE,   /* NIC TX allow address: onto the wire */
	MLX5DM_SIM_TERM_TIR,       /* a TIR's ICM address (CREATE_TIR output) */
	/* An E-Switch manager's FDB terminals (*tirn = the vport number for VPORT_*): */
	MLX5DM_SIM_TERM_VPORT_RX,  /* sw_steering_vport_icm_address_rx: into the vport */
	MLX5DM_SIM_TERM_VPORT_TX,  /* sw_steering_vport_icm_address_tx: into the vport */
	MLX5DM_SIM_TERM_UPLINK_RX, /* sw_steering_uplink_icm_address_rx */
};
enum mlx5dm_sim_term mlx5dm_sim_terminal_lookup(struct mlx5dm_sim *sim, uint64_t icm_addr,
						uint32_t *tirn);
/*
 * Whether mlx5dm_sim_terminal_lookup may ever give anything but NONE for
 * icm_addr: a property of the address alone (the windows terminals live
 * in), so a cache of decoded STEs may keep it with a line's pointers.
 */
bool mlx5dm_sim_terminal_possible(const struct mlx5dm_sim *sim, uint64_t icm_addr);

/*
 * The E-Switch of sim, for a burst: the functions by vport number (NULL
 * where none is open) and the manager (fn[0], NULL once the PF is gone).
 * mlx5dm_sim_esw_enter returns false when sim is on none; otherwise the
 * membership stays as it is until mlx5dm_sim_esw_exit, and a SYNC_STEERING
 * on the manager waits for the burst, which walks the manager's FDB ICM.
 */
struct mlx5dm_sim_esw_view {
	struct mlx5dm_sim *fn[1 + MLX5DM_SIM_ESW_MAX_VFS];
	unsigned int nfn;
	uint32_t epoch;             /* the burst's walk epoch on the manager (SYNC_STEERING) */
};
bool mlx5dm_sim_esw_enter(struct mlx5dm_sim *sim, struct mlx5dm_sim_esw_view *v);
void mlx5dm_sim_esw_exit(struct mlx5dm_sim *sim, const struct mlx5dm_sim_esw_view *v);
/* The vport of a function on an E-Switch, and its vhca_id (source_gvmi). */
uint16_t mlx5dm_sim_esw_vport(const struct mlx5dm_sim *sim);
/* On the PF managing a switch: the vport of its VF vf; -EINVAL for none. */
int mlx5dm_sim_esw_vf_vport(const struct mlx5dm_sim *sim, uint16_t vf, uint16_t *vport);
/* Where FDB traffic enters on the manager: the root table's RX or TX root; -ENOENT: none. */
int mlx5dm_sim_fdb_root_lookup(struct mlx5dm_sim *mgr, enum mlx5dm_sim_dir dir,
			       uint64_t *icm_root);

/* RX hash fields of a TIR (PRM rx_hash_field_select). */
#define MLX5DM_SIM_HASH_SRC_IP   (1u << 0)
#define MLX5DM_SIM_HASH_DST_IP   (1u << 1)
#define MLX5DM_SIM_HASH_L4_SPORT (1u << 2)
#define MLX5DM_SIM_HASH_L4_DPORT (1u << 3)

/* A TIR as the engine needs it to pick an RQ (a consistent snapshot). */
struct mlx5dm_sim_tir_info {
	bool indirect;             /* false: inline_rqn; true: RQT + hash */
	uint32_t inline_rqn;
	uint32_t nb_rqs;           /* RQT size (power of two or not, as created) */
	bool toeplitz;             /* rx_hash_fn: true Toeplitz, false XOR8 */
	bool symmetric;            /* rx_hash_symmetric */
	uint8_t key[40];           /* rx_hash_toeplitz_key */
	uint8_t l3_ipv6;           /* outer selected_fields l3_prot_type: 0 IPv4, 1 IPv6 */
	uint8_t l4_udp;            /* l4_prot_type: 0 TCP, 1 UDP */
	uint32_t fields;           /* MLX5DM_SIM_HASH_* */
	bool inner;                /* hash on the inner headers (tunneled_offload_en) */
	uint32_t rqns[256];        /* RQT entries (last: only nb_rqs are copied) */
};
int mlx5dm_sim_tir_info(struct mlx5dm_sim *sim, uint32_t tirn, struct mlx5dm_sim_tir_info *info);

/*
 * Hand a frame to receive queue rqn: written into the buffer of its next
 * posted WQE with a CQE. 0 on success; -ENOENT if rqn does not exist or is
 * not in RDY state; -ENOSPC if nothing is posted (out of buffer); -EIO if
 * the WQE was in error (the RQ is in ERR now).
 */
int mlx5dm_sim_rq_deliver(struct mlx5dm_sim_hold *h, struct mlx5dm_sim *sim, uint32_t rqn,
			  const struct mlx5dm_sim_pkt *pkt);

/*
 * Count a hit on flow counter counter_id (the STE's counter_id: counter
 * object id + offset in its bulk). Unknown ids are ignored, as hardware does.
 */
void mlx5dm_sim_counter_add(struct mlx5dm_sim *sim, uint32_t counter_id, uint32_t bytes);

/*
 * Read modify-header argument data: len bytes starting at 64-byte unit
 * arg_id (argument object id + unit offset). -ENOENT if not allocated.
 */
int mlx5dm_sim_arg_read(struct mlx5dm_sim *sim, uint32_t arg_id, void *dst, size_t len);

/*
 * Read the header bytes of packet reformat context id (what
 * ALLOC_PACKET_REFORMAT_CONTEXT stored): the first len bytes. -ENOENT if no
 * such context, -ERANGE if it holds fewer than len bytes.
 */
int mlx5dm_sim_reformat_read(struct mlx5dm_sim *sim, uint32_t id, void *dst, size_t len);

/* The engine of an instance. */
struct mlx5dm_sim_engine *mlx5dm_sim_engine_of(struct mlx5dm_sim *sim);

/* ---- provided by the engine, used by the core ---- */

struct mlx5dm_sim_engine;

/* Its state on socket (the instance's). */
struct mlx5dm_sim_engine *mlx5dm_sim_engine_create(struct mlx5dm_sim *sim, int socket);
void mlx5dm_sim_engine_destroy(struct mlx5dm_sim_engine *engine);
/* A burst of frames: NIC TX steering, wire, peer NIC RX steering, delivery. */
int mlx5dm_sim_engine_port_tx(struct mlx5dm_sim_engine *engine, uint16_t port,
			      struct mlx5dm_sim_pkt *pkts, uint16_t n);
/*
 * The same, the walks keeping what they decode of STE lines in lines (see
 * mlx5dm_sim_ste_fetch): a cache of one thread, which only it may pass.
 */
int mlx5dm_sim_engine_port_tx_lines(struct mlx5dm_sim_engine *engine, uint16_t port,
				    struct mlx5dm_sim_pkt *pkts, uint16_t n,
				    struct mlx5dm_sim_lines *lines);
/* Bytes of such a cache (64-byte aligned); all zero, it is an empty one. */
size_t mlx5dm_sim_lines_bytes(void);
int mlx5dm_sim_engine_wire_connect(struct mlx5dm_sim_engine *a, uint16_t pa,
				   struct mlx5dm_sim_engine *b, uint16_t pb);
void mlx5dm_sim_engine_wire_disconnect(struct mlx5dm_sim_engine *engine);
int mlx5dm_sim_engine_port_stats(struct mlx5dm_sim_engine *engine, uint16_t port,
				 struct mlx5dm_dev_port_stats *st);
void mlx5dm_sim_engine_trace_set(struct mlx5dm_sim_engine *engine, mlx5dm_sim_trace_fn fn,
				 void *arg);

#endif /* _MLX5DM_SIM_PRIV_H_ */
