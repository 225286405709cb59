/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The device boundary. Everything above it (lib/icm, lib/send, lib/steer,
 * the PMD) talks to a ConnectX only through this operations table, whose
 * entries have rdma-core's own signatures. Transports fill it; they join a
 * registry by name when they are loaded (mlx5dm_dev_transport_register)
 * and a device is opened by naming one:
 *
 *   - "hw":  rdma-core itself (mlx5dv_alloc_dm, mlx5dv_devx_*, ...), the
 *            device opened with DEVX (mlx5dm_dev_hw.c);
 *   - "sim": the device model (lib/sim), which builds and returns the same
 *            verbs objects (struct ibv_dm, struct ibv_mr, ...) and decodes
 *            the same PRM command mailboxes and WQEs. lib/dev knows
 *            nothing else of it.
 *
 * What crosses the boundary is the hardware's language: QUERY_HCA_CAP
 * blobs, PRM command mailboxes, device memory of the four SW ICM types,
 * mlx5 WQEs in a send queue buffer, 64-byte CQEs, and the doorbell, which
 * is not an operation but a store into the UAR page (mlx5dm_dev_doorbell).
 *
 * Packets travel through raw-packet queues (SQ/RQ WQEs and CQEs in host
 * memory) on both transports: no operation carries a frame. A transport
 * that cannot do an operation returns -ENOTSUP (int ops) or NULL with
 * errno = ENOTSUP. The model's own controls (cabling, its counters) are
 * optional operations that the hardware leaves NULL.
 */

#ifndef _MLX5DM_DEV_H_
#define _MLX5DM_DEV_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>
#include <infiniband/mlx5dv.h>

#include "mlx5dm_build_config.h"

/* rdma-core < 50 lacks the ENCAP SW ICM DM type; the value is fixed by the uapi. */
#if !MLX5DM_HAVE_DM_TYPE_ENCAP_SW_ICM
#define MLX5DV_DM_TYPE_ENCAP_SW_ICM 4
#endif

/* The boundary's module name in log lines. */
#define MLX5DM_DEV_LOG "dev"

struct mlx5dm_dev;

/*
 * Why the device dropped frames of one uplink (monotonic counters): what
 * the device model counts (the optional port_stats operation).
 */
struct mlx5dm_dev_drop_stats {
	uint64_t steering_drop;  /* walk ended at a drop address */
	uint64_t no_tir;         /* walk ended at a TIR/RQ that does not exist or is not ready */
	uint64_t parse_error;    /* malformed frame */
	uint64_t queue_full;     /* the chosen RQ had nothing posted (or its WQE was in error) */
	uint64_t default_miss;   /* RX default (no root rule / miss to the default address) */
	uint64_t walk_error;     /* unreadable ICM, bad pointer, unmodelled format */
	uint64_t no_peer;        /* wire not connected to a live port */
	uint64_t no_room;        /* an inserting action (encap, VLAN push) had no head/tailroom */
	uint64_t loop;           /* the walk revisited an STE: the tables hold a cycle */
};

struct mlx5dm_dev_port_stats {
	uint64_t tx_packets, tx_bytes;     /* entered NIC TX */
	uint64_t wire_packets, wire_bytes; /* left NIC TX onto the wire */
	uint64_t rx_packets, rx_bytes;     /* entered NIC RX from the wire */
	uint64_t delivered;                /* reached an RQ */
	struct mlx5dm_dev_drop_stats drops;
};

/*
 * The operations table. Entries named after an rdma-core function have that
 * function's signature and semantics (see its man page); the comments only
 * say what this project relies on.
 */
struct mlx5dm_dev_ops {
	const char *name; /* "hw" or "sim" */

	/* Protection domain for MRs and DEVX objects. */
	struct ibv_pd *(*alloc_pd)(struct ibv_context *ctx);
	int (*dealloc_pd)(struct ibv_pd *pd);

	/* SW ICM: type from mlx5dv_alloc_dm_attr.type (MLX5DV_DM_TYPE_*). */
	struct ibv_dm *(*alloc_dm)(struct ibv_context *ctx, struct ibv_alloc_dm_attr *dm_attr,
				   struct mlx5dv_alloc_dm_attr *mlx5_dm_attr);
	int (*free_dm)(struct ibv_dm *dm);
	/* Zero-based MR over [dm_offset, dm_offset + length) of a DM: rkey for RDMA. */
	struct ibv_mr *(*reg_dm_mr)(struct ibv_pd *pd, struct ibv_dm *dm, uint64_t dm_offset,
				    size_t length, unsigned int access);
	/* MR over host memory (send-ring data buffers, RDMA READ targets). */
	struct ibv_mr *(*reg_mr)(struct ibv_pd *pd, void *addr, size_t length, int access);
	int (*dereg_mr)(struct ibv_mr *mr);
	/* MLX5DV_OBJ_DM with MLX5DV_DM_MASK_REMOTE_VA yields the DM's ICM address. */
	int (*init_obj)(struct mlx5dv_obj *obj, uint64_t obj_type);

	/* PRM commands. */
	int (*devx_general_cmd)(struct ibv_context *ctx, const void *in, size_t inlen,
				void *out, size_t outlen);
	struct mlx5dv_devx_obj *(*devx_obj_create)(struct ibv_context *ctx, const void *in,
						   size_t inlen, void *out, size_t outlen);
	int (*devx_obj_query)(struct mlx5dv_devx_obj *obj, const void *in, size_t inlen,
			      void *out, size_t outlen);
	int (*devx_obj_modify)(struct mlx5dv_devx_obj *obj, const void *in, size_t inlen,
			       void *out, size_t outlen);
	int (*devx_obj_destroy)(struct mlx5dv_devx_obj *obj);

	/* Host memory the device reads/writes by umem id (queue buffers, doorbell records). */
	struct mlx5dv_devx_umem *(*devx_umem_reg)(struct ibv_context *ctx, void *addr,
						  size_t size, uint32_t access);
	int (*devx_umem_dereg)(struct mlx5dv_devx_umem *umem);
	struct mlx5dv_devx_uar *(*devx_alloc_uar)(struct ibv_context *ctx, uint32_t flags);
	void (*devx_free_uar)(struct mlx5dv_devx_uar *uar);
	/* The EQ of completion vector `vector`: what CREATE_CQ's c_eqn names (0 or an errno). */
	int (*devx_query_eqn)(struct ibv_context *context, uint32_t vector, uint32_t *eqn);

	/* Root (kernel/firmware-owned) flow table: how traffic enters SW-owned tables. */
	struct mlx5dv_flow_matcher *(*create_flow_matcher)(struct ibv_context *ctx,
			struct mlx5dv_flow_matcher_attr *attr);
	int (*destroy_flow_matcher)(struct mlx5dv_flow_matcher *matcher);
	struct ibv_flow *(*create_flow)(struct mlx5dv_flow_matcher *matcher,
					struct mlx5dv_flow_match_parameters *match_value,
					size_t num_actions,
					struct mlx5dv_flow_action_attr actions_attr[]);
	int (*destroy_flow)(struct ibv_flow *flow);

	/*
	 * Optional, the device model's own controls: NULL on hardware, whose
	 * cabling is physical. Callers go through mlx5dm_dev_wire_connect()
	 * and mlx5dm_dev_port_stats(), which say -ENOTSUP for NULL.
	 */
	/* Cable the uplink of a to the uplink of b (both directions); a == b loops it. */
	int (*wire_connect)(struct ibv_context *a, struct ibv_context *b);
	/* The uplink's counters. 0 or -errno. */
	int (*port_stats)(struct ibv_context *ctx, struct mlx5dm_dev_port_stats *stats);
	/*
	 * On an E-Switch manager: the metadata_reg_c_0 value and mask the
	 * switch stamps on a frame from vport (MLX5DM_DEV_VPORT_UPLINK: the
	 * wire), with which a frame that missed the FDB tells the manager
	 * where it came from. On hardware, mlx5dv_query_port()'s reg_c0 of
	 * the vport's IB port (the kernel gives it in switchdev mode only:
	 * -ENOTSUP otherwise); -EINVAL: no such vport on the switch.
	 */
	int (*vport_reg_c0)(struct ibv_context *ctx, uint16_t vport, uint32_t *value,
			    uint32_t *mask);
	/*
	 * On an E-Switch manager: the vport of its VF vf, which a rule names
	 * to reach or match that function (source_port, a vport
	 * destination). A device numbers its functions its own way (an ECPF,
	 * a PF with SFs): on hardware the vport mlx5dv_query_port() gives
	 * for the IB port of the VF's representor (the netdev whose
	 * phys_port_name is pf<N>vf<vf>), as DPDK mlx5 finds its
	 * representors. -EINVAL: the switch has no such VF.
	 */
	int (*vf_vport)(struct ibv_context *ctx, uint16_t vf, uint16_t *vport);
};

/* The uplink's vport number (rdma-core WIRE_PORT). */
#define MLX5DM_DEV_VPORT_UPLINK 0xffffu

struct mlx5dm_dev_attr {
	const char *transport; /* a registered transport's name: "hw", "sim" */
	/*
	 * hw: the RDMA device by name (e.g. "mlx5_0") and/or by the PCI
	 * address of its function (any form mlx5dm_dev_pci_parse() takes);
	 * both NULL: the first mlx5 device.
	 */
	const char *ib_device;
	const char *pci_addr;
	/*
	 * The transport's own configuration (the model's: struct
	 * mlx5dm_sim_config), for programs that link that transport; NULL:
	 * its defaults with the fields below.
	 */
	const void *config;
	/*
	 * A transport that makes the device it opens (the model) gives it
	 * this identity: function (vhca_id) and permanent MAC (48 bits); 0:
	 * its default. A NIC has its own.
	 */
	uint16_t vhca_id;
	uint64_t mac;
	/*
	 * A transport that makes its device memory (the model): resident from
	 * the open on, and the log2 size of its STE ICM (0: its default).
	 */
	bool icm_resident;
	uint8_t log_steering_icm_size;
	/*
	 * The E-Switch: num_vfs VFs make the device a PF that manages one
	 * (the model makes them; on a NIC the open checks that the E-Switch
	 * is in switchdev mode with a representor port for each of VFs
	 * 0..num_vfs-1, as the kernel made them); esw_manager set opens VF
	 * vf of that open PF instead (which must be closed after it; on a
	 * NIC the function the PF's sysfs virtfn<vf> link names, and
	 * ib_device/pci_addr are not looked at).
	 */
	uint16_t num_vfs;
	struct mlx5dm_dev *esw_manager;
	uint16_t vf;
	/*
	 * The NUMA socket the library's host memory for the device comes
	 * from (the device's own, e.g. its PCI function's node), when
	 * has_socket: socket 0 is a socket, so zeroed attributes say none.
	 * None (or a negative one, MLX5DM_SOCKET_ANY): the device's own where
	 * the transport knows it (hw: its PCI function's NUMA node), else the
	 * allocator's choice; dev->socket says which.
	 */
	bool has_socket;
	int socket;
};

/* "dddd:bb:dd.f": a PCI address in its canonical form, with the final NUL. */
#define MLX5DM_DEV_PCI_ADDR_LEN 13

/*
 * Parse a PCI address, "dddd:bb:dd.f" or "bb:dd.f" (domain 0), in hex of
 * either case, as DPDK and sysfs write it; out gets the canonical
 * lower-case form with the domain. -EINVAL on anything else (a missing
 * function, device > 0x1f, function > 7, extra characters).
 */
int mlx5dm_dev_pci_parse(const char *s, char out[MLX5DM_DEV_PCI_ADDR_LEN]);

/* An open device: its transport, the transport's ops and its verbs context. */
struct mlx5dm_dev {
	const struct mlx5dm_dev_transport *transport;
	const struct mlx5dm_dev_ops *ops;
	struct ibv_context *ctx;
	void *priv; /* the transport's (the model instance) */
	/* Where every allocation for the device's objects is: a socket or MLX5DM_SOCKET_ANY. */
	int socket;
};

/* A transport of the registry: how its devices are opened and closed. */
struct mlx5dm_dev_transport {
	const char *name;
	/* The DM types (1u << MLX5DV_DM_TYPE_*) its alloc_dm can allocate. */
	uint32_t dm_types;
	/* Fill dev->ops, ->ctx and ->priv from attr: 0, or -errno after one log line. */
	int (*open)(struct mlx5dm_dev *dev, const struct mlx5dm_dev_attr *attr);
	void (*close)(struct mlx5dm_dev *dev);
};

/*
 * Join the registry (load-time constructors, or a program before its first
 * open). -EEXIST when the name is taken, -ENOSPC when the registry is full.
 */
int mlx5dm_dev_transport_register(const struct mlx5dm_dev_transport *transport);

/* The registered transport of that name, or NULL. */
const struct mlx5dm_dev_transport *mlx5dm_dev_transport_find(const char *name);

/*
 * The doorbell: the 8-byte store of the first 8 bytes of the last posted
 * control segment to the UAR register (uar->reg_addr + offset), after the
 * WQEs and the doorbell record are visible. On a ConnectX an MMIO write
 * into a write-combining page: the store fence after it flushes the
 * write-combining buffer, as rdma-core's mmio_flush_writes() (util/
 * udma_barrier.h) and DPDK's rte_wmb() after mlx5_uar_write64_relaxed()
 * (drivers/net/mlx5/mlx5_tx.h) do. Not a full fence: the core need not
 * wait for the store to leave before its next loads. On the model a store
 * into the UAR page its device thread watches. Either way, no call into
 * the device.
 */
static inline void
mlx5dm_dev_doorbell(struct mlx5dv_devx_uar *uar, uint32_t offset, uint64_t value)
{
	volatile uint64_t *reg = (volatile uint64_t *)(void *)((uint8_t *)uar->reg_addr + offset);

	*reg = value;
#if defined(__x86_64__) || defined(__i386__)
	__asm__ volatile("sfence" ::: "memory");
#elif defined(__aarch64__)
	__asm__ volatile("dsb st" ::: "memory");
#else
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
}

/*
 * Open a device through the transport attr names. Returns NULL with errno
 * set and one log line saying what was looked for when it fails (e.g. hw
 * on a machine without an mlx5 device: ENODEV; a transport that is not
 * registered: ENOENT).
 */
struct mlx5dm_dev *mlx5dm_dev_open(const struct mlx5dm_dev_attr *attr);
void mlx5dm_dev_close(struct mlx5dm_dev *dev);

/*
 * The optional operations. -ENOTSUP: not supported by this device (a NIC);
 * -EINVAL: devices of two transports.
 */
int mlx5dm_dev_wire_connect(struct mlx5dm_dev *a, struct mlx5dm_dev *b);
int mlx5dm_dev_port_stats(struct mlx5dm_dev *dev, struct mlx5dm_dev_port_stats *stats);
int mlx5dm_dev_vport_reg_c0(struct mlx5dm_dev *dev, uint16_t vport, uint32_t *value,
			    uint32_t *mask);
int mlx5dm_dev_vf_vport(struct mlx5dm_dev *dev, uint16_t vf, uint16_t *vport);

#endif /* _MLX5DM_DEV_H_ */
