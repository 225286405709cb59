/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Private state of the net_mlx5dm PMD.
 *
 * One vdev ("net_mlx5dm0,ports=2") is one device with nb_ports ethdev ports.
 * The vdev-wide state (devargs, port table) lives in struct mlx5dm_shared;
 * each ethdev port has a struct mlx5dm_priv as its dev_private.
 *
 * Threading: Rx/Tx bursts take no locks (one lcore per queue, as DPDK asks).
 * A Tx burst delivers into the peer port's Rx ring, which is multi-producer;
 * Rx counters are therefore updated with relaxed atomics by the producers.
 */

#ifndef _MLX5DM_H_
#define _MLX5DM_H_

#include <stdbool.h>
#include <stdint.h>

#include <rte_dev.h>
#include <rte_ether.h>
#include <rte_ring.h>
#include <rte_mempool.h>

#include "rte_pmd_mlx5dm.h"

#define MLX5DM_DRIVER_NAME net_mlx5dm
#define MLX5DM_MAX_PORTS 16
#define MLX5DM_MAX_QUEUES 64
#define MLX5DM_MIN_DESC 32
#define MLX5DM_MAX_DESC 32768
/*
 * Rule writes of rte_flow create/destroy are posted, and the rule queue's
 * doorbell is rung once this many wait, or when anything could observe
 * the device: a Tx burst through the port or its peer, a flow query, dump,
 * flush or isolate, a shared action's last release, a stop.
 */
#define MLX5DM_DEF_DOORBELL_BATCH 32
#define MLX5DM_MAX_DOORBELL_BATCH 1024
/*
 * devarg mem_reserve (MiB): memory for the steering state of rules, mapped
 * and populated at probe so that rule insertion does not pay the first
 * touch of fresh memory (mlx5dm_huge_reserve); shared by the device's ports.
 */
#define MLX5DM_MAX_MEM_RESERVE 65536
/*
 * devarg mem_ahead (MiB): address space for the same state, populated by a
 * thread on another CPU ahead of use (mlx5dm_huge_reserve_ahead), then
 * MLX5DM_MEM_AHEAD_LEAD past what is taken. devarg mem_ahead_start (MiB):
 * how much of it is backed from the probe on; a port start lends its CPU
 * to that (mlx5dm_ahead_settle) for at most MLX5DM_MEM_AHEAD_WAIT_MS.
 */
#define MLX5DM_DEF_MEM_AHEAD 4096
#define MLX5DM_DEF_MEM_AHEAD_START 160
#define MLX5DM_MEM_AHEAD_LEAD ((size_t)32 << 20)
#define MLX5DM_MEM_AHEAD_WAIT_MS 1000
/*
 * devarg sim_icm_start (MiB): with sim_icm_populate=ahead, how much model
 * STE ICM is backed from the probe on, split evenly among the device's
 * ports. 128 covers the tables of a matcher of a million rules on a
 * one-port device (its 2^20-entry table is the second 64 MiB DM range): a
 * table growth writes its whole table within a few thousand rules, faster
 * than the thread can back it.
 */
#define MLX5DM_DEF_SIM_ICM_START 128
#define MLX5DM_MIN_MTU 68
#define MLX5DM_MAX_MTU 9600

enum mlx5dm_topology {
	MLX5DM_TOPO_LOOP, /* every port's wire loops back to itself */
	MLX5DM_TOPO_PAIR, /* ports 2k and 2k+1 are cabled to each other */
};

/* devarg sim_icm_populate: when the model's SW ICM becomes resident. */
enum mlx5dm_icm_populate {
	MLX5DM_ICM_POP_LAZY,  /* 0: as it is first written */
	MLX5DM_ICM_POP_ALL,   /* 1: all of it when the model is created */
	MLX5DM_ICM_POP_AHEAD, /* ahead: a model thread, ahead of what is allocated */
};

/* What rte_flow rules of the ports become. */
enum mlx5dm_flow_engine {
	MLX5DM_FLOW_ENGINE_STEER, /* steering rules (the driver) */
	MLX5DM_FLOW_ENGINE_NULL,  /* handles only: the floor of a flow benchmark harness */
};

/* Parsed devargs; defaults are set before parsing. */
struct mlx5dm_devargs {
	enum rte_pmd_mlx5dm_backend backend;
	uint16_t nb_ports;
	enum mlx5dm_topology topology;
	enum mlx5dm_flow_engine flow_engine;
	uint16_t doorbell_batch;   /* rule writes per rule-queue doorbell */
	uint32_t mem_reserve_mb;   /* warm reserve for steering state, MiB (0: none) */
	uint32_t mem_ahead_mb;     /* populate-ahead reserve, MiB (0: none) */
	uint32_t mem_ahead_start_mb; /* of it backed from the probe on, MiB */
	enum mlx5dm_icm_populate sim_icm_populate;
	uint32_t sim_icm_start_mb; /* (ahead) model STE ICM backed from the probe on, all ports */
};

struct mlx5dm_priv;
struct mlx5dm_rq;
struct rte_eth_dev;
struct rte_flow_ops;

/*
 * An Rx queue is a receive queue (RQ) of the port's device: the model
 * delivers steered frames into it; the burst takes them back as mbufs.
 */
struct mlx5dm_rxq {
	struct mlx5dm_priv *priv;
	struct mlx5dm_dev *dev;
	struct mlx5dm_rq *rq;
	uint32_t rqn;
	struct rte_mempool *mp;
	uint16_t idx;
	uint16_t nb_desc;
	uint16_t port_id;
	/* Counted at poll time; the device's enqueue-time counters win when it has them. */
	uint64_t polled;
	uint64_t polled_bytes;
	/* Device counters at the last stats reset. */
	uint64_t base_packets;
	uint64_t base_bytes;
	uint64_t base_full;
};

/* Single writer: the lcore owning the queue. */
struct mlx5dm_txq {
	struct mlx5dm_priv *priv;
	struct mlx5dm_dev *dev;
	uint16_t idx;
	uint16_t nb_desc;
	uint64_t packets;
	uint64_t bytes;
	uint64_t dropped;          /* the device (steering, wire or receiver) dropped them */
	uint64_t linearize_fail;   /* multi-segment mbufs that could not be made contiguous */
};

struct mlx5dm_shared;
struct mlx5dm_dev;
struct mlx5dm_ctx;
struct mlx5dm_domain;
struct mlx5dm_flow_priv;

struct mlx5dm_priv {
	struct mlx5dm_shared *sh;
	struct rte_eth_dev_data *data;
	uint16_t port_index;       /* inside the vdev */
	uint16_t port_id;          /* ethdev port id */
	uint16_t peer_index;       /* port_index at the other end of the wire */
	bool started;
	bool promisc;
	bool allmulti;
	struct rte_ether_addr mac;
	/*
	 * Steering of this port (set up at probe by the datapath part,
	 * mlx5dm_ethdev.c): its device (one model instance or NIC function per
	 * port), the steering context and the NIC RX/TX domains.
	 */
	struct mlx5dm_dev *dev;
	struct mlx5dm_ctx *steer;
	struct mlx5dm_domain *dom_rx;
	struct mlx5dm_domain *dom_tx;
	/* rte_flow state (mlx5dm_flow*.c). */
	struct mlx5dm_flow_priv *flow;
	bool isolated;                 /* rte_flow_isolate(): no default RSS rule */
	/* Rule writes may wait for the doorbell (doorbell_batch > 1): see mlx5dm_rules_ring(). */
	uint32_t rules_unrung;
};

void mlx5dm_rules_ring_slow(struct mlx5dm_priv *priv);

/*
 * Ring the rule queue if rule writes may wait behind it, before anything
 * observes the port's steering. A relaxed load on the fast path: a flow
 * operation that happens-before the caller also stored the flag before it.
 */
static inline void
mlx5dm_rules_ring(struct mlx5dm_priv *priv)
{
	if (__atomic_load_n(&priv->rules_unrung, __ATOMIC_RELAXED) != 0)
		mlx5dm_rules_ring_slow(priv);
}

/* A flow operation posted rule writes that may not have been rung yet. */
static inline void
mlx5dm_rules_posted(struct mlx5dm_priv *priv)
{
	if (__atomic_load_n(&priv->rules_unrung, __ATOMIC_RELAXED) == 0)
		__atomic_store_n(&priv->rules_unrung, 1, __ATOMIC_RELAXED);
}

struct mlx5dm_shared {
	char name[RTE_DEV_NAME_MAX_LEN];
	struct mlx5dm_devargs args;
	uint16_t nb_live;          /* ports not yet closed */
	struct mlx5dm_reserve *reserve; /* devarg mem_reserve (NULL: none) */
	struct mlx5dm_reserve *ahead;   /* devarg mem_ahead (NULL: none) */
	struct mlx5dm_priv *ports[MLX5DM_MAX_PORTS]; /* NULL once closed */
};

/* mlx5dm_devargs.c */
int mlx5dm_devargs_parse(const char *name, const char *params, struct mlx5dm_devargs *args);
extern const char mlx5dm_devargs_help[];

/* Flow tag the rte_flow FLAG action sets: RTE_MBUF_F_RX_FDIR without an id. */
#define MLX5DM_FLOW_TAG_FLAG 0xffffffu

/* mlx5dm_rxtx.c */
uint16_t mlx5dm_rx_burst(void *rxq, struct rte_mbuf **pkts, uint16_t n);
uint16_t mlx5dm_tx_burst(void *txq, struct rte_mbuf **pkts, uint16_t n);
void mlx5dm_rxq_drain(struct mlx5dm_rxq *rxq);

/* mlx5dm_rxq.c */
struct rte_eth_rxconf;
struct rte_eth_txconf;
int mlx5dm_rx_queue_setup(struct rte_eth_dev *dev, uint16_t idx, uint16_t nb_desc,
			  unsigned int socket, const struct rte_eth_rxconf *conf,
			  struct rte_mempool *mp);
void mlx5dm_rx_queue_release(struct rte_eth_dev *dev, uint16_t idx);
int mlx5dm_tx_queue_setup(struct rte_eth_dev *dev, uint16_t idx, uint16_t nb_desc,
			  unsigned int socket, const struct rte_eth_txconf *conf);
void mlx5dm_tx_queue_release(struct rte_eth_dev *dev, uint16_t idx);
int mlx5dm_rxq_counts(struct mlx5dm_rxq *rxq, uint64_t *packets, uint64_t *bytes,
		      uint64_t *full);

/*
 * Interface between the datapath part and the rte_flow part.
 *
 * Provided by the datapath (mlx5dm_ethdev.c / mlx5dm_rxq.c):
 *   mlx5dm_rxq_rqn(): the device RQ number behind Rx queue `queue`, for
 *   TIRs (QUEUE/RSS actions and the default RSS rule).
 * Provided by the flow part (mlx5dm_flow*.c):
 *   mlx5dm_flow_start(): called at the end of dev_start (queues exist): set
 *   up group 0 of both domains as the root tables and, unless isolated, the
 *   default rule (lowest priority, match-all: RSS over all Rx queues with
 *   the configured rss_conf, like the NIC's default).
 *   mlx5dm_flow_stop(): called at dev_stop: remove every rule (flows do not
 *   survive a stop; testpmd flushes them anyway) and the default rule.
 *   mlx5dm_flow_close(): at dev_close: free everything rte_flow created.
 */
int mlx5dm_rxq_rqn(struct rte_eth_dev *dev, uint16_t queue, uint32_t *rqn);
int mlx5dm_flow_start(struct rte_eth_dev *dev);
void mlx5dm_flow_stop(struct rte_eth_dev *dev);
void mlx5dm_flow_close(struct rte_eth_dev *dev);
int mlx5dm_flow_ops_get(struct rte_eth_dev *dev, const struct rte_flow_ops **ops);

/* mlx5dm_stats.c */
struct rte_eth_stats;
struct rte_eth_xstat;
struct rte_eth_xstat_name;
int mlx5dm_stats_get(struct rte_eth_dev *dev, struct rte_eth_stats *stats);
int mlx5dm_stats_reset(struct rte_eth_dev *dev);
int mlx5dm_xstats_get(struct rte_eth_dev *dev, struct rte_eth_xstat *xstats, unsigned int n);
int mlx5dm_xstats_get_names(struct rte_eth_dev *dev, struct rte_eth_xstat_name *names,
			    unsigned int size);

#endif /* _MLX5DM_H_ */
