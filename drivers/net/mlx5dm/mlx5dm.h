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
 * Threading: Rx/Tx bursts take no locks (one lcore per queue, as DPDK asks);
 * the device is on the far side of the queues' memory.
 */

#ifndef _MLX5DM_H_
#define _MLX5DM_H_

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <rte_branch_prediction.h>
#include <rte_dev.h>
#include <rte_ether.h>
#include <rte_ring.h>
#include <rte_mempool.h>
#include <rte_spinlock.h>

#include "rte_pmd_mlx5dm.h"

#define MLX5DM_DRIVER_NAME net_mlx5dm
#define MLX5DM_MAX_PORTS 16
/* VFs of a model PF's E-Switch (the model's MLX5DM_SIM_ESW_MAX_VFS). */
#define MLX5DM_MAX_VFS 7
#define MLX5DM_MAX_QUEUES 64
#define MLX5DM_MIN_DESC 32
#define MLX5DM_MAX_DESC 32768
/*
 * Rule writes of rte_flow create/destroy are posted, and the rule queue's
 * doorbell is rung once this many wait, or when anything could observe
 * the device: a Tx burst through the port or its peer, a flow query, dump,
 * flush or isolate, a shared action's last release, a stop.
 */
#define MLX5DM_DEF_DOORBELL_BATCH 1
#define MLX5DM_MAX_DOORBELL_BATCH 1024
/*
 * STE ICM of a model port, log2 bytes: the least SW steering runs with
 * (rdma-core's DR needs 2^26), the default, and the most a port may hold
 * resident.
 */
#define MLX5DM_MIN_LOG_STEERING_ICM_SIZE 26
#define MLX5DM_DEF_LOG_STEERING_ICM_SIZE 28
#define MLX5DM_MAX_LOG_STEERING_ICM_SIZE 32
#define MLX5DM_MIN_MTU 68
#define MLX5DM_MAX_MTU 9600

enum mlx5dm_topology {
	MLX5DM_TOPO_LOOP, /* every port's wire loops back to itself */
	MLX5DM_TOPO_PAIR, /* ports 2k and 2k+1 are cabled to each other */
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
	uint8_t log_steering_icm_size; /* sim: the model's STE ICM, log2 bytes */
	char ib_device[64];        /* hw: RDMA device name ("": not given) */
	char pci_addr[13];         /* hw: canonical PCI address ("": not given) */
	uint8_t nb_vfs;            /* sim: representor=vf[...]: VFs listed */
	uint8_t vfs[MLX5DM_MAX_VFS]; /* their numbers, in the order given */
	uint8_t vf_ports;          /* sim: the VF functions are ethdev ports too */
};

struct mlx5dm_priv;
struct mlx5dm_rq;
struct mlx5dm_sq;
struct mlx5dm_mr;
struct mlx5dv_devx_uar;
struct rte_eth_dev;
struct rte_flow_ops;

/* The last memory region a queue's lookups hit: [start, end) has lkey. */
struct mlx5dm_mr_cache {
	uintptr_t start;
	uintptr_t end;
	uint32_t lkey;
};

/*
 * An Rx queue is a receive queue (RQ) of the port's device in the mlx5
 * format: every WQE holds an mbuf of the queue's pool, the device writes a
 * frame into one and a CQE that says so; the burst hands the mbuf out and
 * posts a fresh one in its place. Single writer: the polling lcore.
 */
struct mlx5dm_rxq {
	uint8_t *wqes;                  /* 16-byte WQEs */
	volatile uint32_t *dbrec;       /* [0]: WQEs posted */
	uint8_t *cqes;
	volatile uint32_t *cq_dbrec;
	uint32_t log_wqes;
	uint32_t log_cqes;
	uint32_t rq_pi;                 /* WQEs posted since the last (re)start */
	uint32_t rq_db;                 /* of them in the doorbell record (the device knows) */
	uint32_t rq_ci;                 /* of them completed */
	uint32_t cq_ci;
	uint32_t buf_len;               /* bytes a WQE offers (data room past the headroom) */
	bool err;                       /* an error CQE was seen: wait for the flush, recover */
	struct rte_mbuf **elts;         /* the mbuf of each WQE */
	struct rte_mempool *mp;
	uint16_t port_id;
	struct mlx5dm_mr_cache mr;
	uint64_t packets;
	uint64_t bytes;
	uint64_t errors;                /* error CQEs other than flushes */
	uint64_t nombuf;                /* frames dropped: no mbuf to replace theirs */
	uint64_t recoveries;            /* ERR -> RDY */
	/* Control path. */
	struct mlx5dm_priv *priv;
	struct mlx5dm_rq *rq;
	uint32_t rqn;
	uint16_t idx;
	uint16_t nb_desc;
};

/* What a completion-requesting WQE releases when its CQE comes. */
struct mlx5dm_txq_comp {
	uint16_t elts_head;             /* mbufs posted up to and including this WQE */
	uint16_t pi_next;               /* WQEBB counter past it */
};

/*
 * A Tx queue is a send queue (SQ) of the port's device: one SEND WQE per
 * frame, mbufs kept until a completion covers them. Single writer: the
 * lcore owning the queue.
 */
struct mlx5dm_txq {
	uint8_t *wqes;                  /* 64-byte WQEBBs */
	volatile uint32_t *dbrec;       /* [1]: WQEBBs posted */
	uint8_t *cqes;
	volatile uint32_t *cq_dbrec;
	struct mlx5dv_devx_uar *uar;
	uint32_t log_wqes;
	uint32_t log_cqes;
	uint32_t sqn;
	uint16_t inline_min;
	uint16_t pi;                    /* WQEBBs posted */
	uint16_t ci;                    /* WQEBBs completed */
	uint16_t elts_head;             /* mbufs posted */
	uint16_t elts_tail;             /* mbufs freed */
	uint16_t since_comp;            /* WQEs since the last that asked for a CQE */
	uint32_t cq_ci;
	struct rte_mbuf **elts;         /* 2^log_wqes: a WQE takes at least one WQEBB */
	struct mlx5dm_txq_comp *comp;   /* by WQEBB index */
	struct mlx5dm_mr_cache mr;
	uint64_t packets;
	uint64_t bytes;
	uint64_t errors;                /* frames lost to an error CQE (the rest flushed) */
	uint64_t refused;               /* not posted: memory not registered, too many segs */
	uint64_t recoveries;
	/* Control path. */
	struct mlx5dm_priv *priv;
	struct mlx5dm_sq *sq;
	uint16_t idx;
	uint16_t nb_desc;
};

/*
 * The memory regions of a port (its device's PD): the chunks of every
 * mempool whose mbufs its queues carry, registered once (Rx pools at queue
 * set-up, Tx pools at their first mbuf). Lookups read without a lock: an
 * entry is complete before the count that publishes it.
 */
#define MLX5DM_MR_MAX 256

struct mlx5dm_mr_entry {
	uintptr_t start;
	uintptr_t end;
	uint32_t lkey;
	const struct rte_mempool *mp;
	struct mlx5dm_mr *mr;
};

struct mlx5dm_mr_table {
	rte_spinlock_t lock;            /* registration (control path) */
	uint32_t n;                     /* published entries */
	struct mlx5dm_mr_entry e[MLX5DM_MR_MAX];
};

struct mlx5dm_shared;
struct mlx5dm_dev;
struct mlx5dm_ctx;
struct mlx5dm_domain;
struct mlx5dm_flow_priv;

/* What an ethdev port of the vdev is. */
enum mlx5dm_port_kind {
	MLX5DM_PORT_NIC,          /* a NIC port (a PF; port 0 manages the E-Switch if any) */
	MLX5DM_PORT_REPRESENTOR,  /* a VF's representor, on the manager's device */
	MLX5DM_PORT_VF,           /* a VF function itself (vf_ports=1) */
};

struct mlx5dm_esw_rep;

struct mlx5dm_priv {
	struct mlx5dm_shared *sh;
	struct rte_eth_dev_data *data;
	uint16_t port_index;       /* inside the vdev */
	uint16_t port_id;          /* ethdev port id */
	uint16_t peer_index;       /* port_index at the other end of the wire */
	enum mlx5dm_port_kind kind;
	uint16_t vf;               /* representor, VF port: the VF's number */
	uint16_t vport;            /* representor: its VF's vport, as the device numbers it */
	/*
	 * A representor has no device of its own: dev and steer are the
	 * manager's (not closed with the port), it has no NIC domains; its
	 * Rx is the manager's NIC RX rule for its VF (mlx5dm_esw.c).
	 */
	struct mlx5dm_esw_rep *rep;
	struct mlx5dm_domain *dom_fdb; /* the E-Switch manager's FDB (port 0 with representors) */
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
	/*
	 * The library's rule queues (mlx5dm_port_steer_init()): one of its own
	 * for each EAL lcore (rule_queue[lcore id]), one that every other
	 * thread takes under a lock (rule_queue_any, also in rule_queue[] for
	 * the lcores that are not EAL's), then nb_rule_queues_tmpl for the flow
	 * queues of rte_flow_configure() from rule_queue_tmpl on.
	 */
	uint16_t rule_queue[RTE_MAX_LCORE];
	uint16_t rule_queue_any;
	uint16_t rule_queue_tmpl;
	uint16_t nb_rule_queues_tmpl;
	uint16_t nb_rule_queues;
	/* rte_flow state (mlx5dm_flow*.c). */
	struct mlx5dm_flow_priv *flow;
	bool isolated;                 /* rte_flow_isolate(): no default RSS rule */
	/* Rule writes may wait for the doorbell (doorbell_batch > 1): see mlx5dm_rules_ring(). */
	bool rules_batched;
	uint32_t rules_unrung;
	uint64_t imissed_base;         /* the device's out-of-buffer count at the last reset */
	struct mlx5dm_mr_table mrs;
};

void mlx5dm_rules_ring_slow(struct mlx5dm_priv *priv);

/*
 * Ring the rule queues if rule writes may wait behind them, before anything
 * observes the port's steering. A relaxed load on the fast path: a flow
 * operation that happens-before the caller also stored the flag before it.
 */
static inline void
mlx5dm_rules_ring(struct mlx5dm_priv *priv)
{
	if (__atomic_load_n(&priv->rules_unrung, __ATOMIC_RELAXED) != 0)
		mlx5dm_rules_ring_slow(priv);
}

/*
 * A flow operation posted rule writes that may not have been rung yet: only
 * with doorbell batching, else each operation rang its own before it returned.
 */
static inline void
mlx5dm_rules_posted(struct mlx5dm_priv *priv)
{
	if (priv->rules_batched && __atomic_load_n(&priv->rules_unrung, __ATOMIC_RELAXED) == 0)
		__atomic_store_n(&priv->rules_unrung, 1, __ATOMIC_RELAXED);
}

struct mlx5dm_esw;
struct mlx5dm_esw_translator;

struct mlx5dm_shared {
	char name[RTE_DEV_NAME_MAX_LEN];
	struct mlx5dm_devargs args;
	uint16_t nb_ethdevs;       /* NIC ports, then representors, then VF ports */
	uint16_t switch_domain;    /* with representors: of the manager and its representors */
	struct mlx5dm_esw *esw;    /* transfer rules (mlx5dm_esw.c) */
	/* Their translation for transfer template tables (mlx5dm_flow_template.h). */
	const struct mlx5dm_esw_translator *esw_translator;
	struct mlx5dm_priv *mgr_held; /* the manager's steering, closed after its representors */
	uint16_t nb_live;          /* ports not yet closed */
	struct mlx5dm_priv *ports[MLX5DM_MAX_PORTS]; /* NULL once closed */
};

/* mlx5dm_esw.c: representors and transfer rules. */
int mlx5dm_esw_init(struct mlx5dm_shared *sh);
void mlx5dm_esw_fini(struct mlx5dm_shared *sh);
int mlx5dm_esw_rep_start(struct rte_eth_dev *dev);
void mlx5dm_esw_rep_stop(struct rte_eth_dev *dev);
void mlx5dm_esw_reps_restart(struct mlx5dm_priv *mgr);
int mlx5dm_esw_start(struct rte_eth_dev *dev);
void mlx5dm_esw_stop(struct rte_eth_dev *dev);
int mlx5dm_esw_flow_ops_get(struct rte_eth_dev *dev, const struct rte_flow_ops **ops);
/*
 * Rx queue q of VF vf's representor as a queue of its manager's flow path
 * (a representor's NIC rules are the manager's flows): its RQ number is
 * sh->esw_translator->rqn()'s.
 */
#define MLX5DM_ESW_REP_QUEUE(vf, q) ((uint16_t)(MLX5DM_MAX_QUEUES * (1u + (vf)) + (q)))

/* The manager's priv of a port of a vdev with an E-Switch, NULL otherwise. */
static inline struct mlx5dm_priv *
mlx5dm_esw_manager(const struct mlx5dm_priv *priv)
{
	if (priv->sh == NULL || priv->sh->args.nb_vfs == 0 || priv->kind == MLX5DM_PORT_VF)
		return NULL;
	return priv->sh->ports[0];
}

/* mlx5dm_devargs.c */
int mlx5dm_devargs_parse(const char *name, const char *params, struct mlx5dm_devargs *args);
extern const char mlx5dm_devargs_help[];

/* Flow tag the rte_flow FLAG action sets: RTE_MBUF_F_RX_FDIR without an id. */
#define MLX5DM_FLOW_TAG_FLAG 0xffffffu

/* mlx5dm_rxtx.c */
uint16_t mlx5dm_rx_burst(void *rxq, struct rte_mbuf **pkts, uint16_t n);
uint16_t mlx5dm_tx_burst(void *txq, struct rte_mbuf **pkts, uint16_t n);
int mlx5dm_tx_done_cleanup(void *txq, uint32_t free_cnt);
void mlx5dm_rxq_drain(struct mlx5dm_rxq *rxq);
void mlx5dm_rxq_post_all(struct mlx5dm_rxq *rxq);
void mlx5dm_txq_reset(struct mlx5dm_txq *txq);
const uint32_t *mlx5dm_supported_ptypes(struct rte_eth_dev *dev);

/* mlx5dm_mr.c */
int mlx5dm_mr_mempool_reg(struct mlx5dm_priv *priv, struct rte_mempool *mp);
uint32_t mlx5dm_mr_lkey_slow(struct mlx5dm_priv *priv, struct mlx5dm_mr_cache *cache,
			     struct rte_mbuf *m, uintptr_t addr);
void mlx5dm_mr_release_all(struct mlx5dm_priv *priv);

/* No MR covers the address (an lkey the PMD never uses). */
#define MLX5DM_MR_NONE UINT32_MAX

/*
 * lkey of addr, the data of mbuf segment m: the queue's last hit, else the
 * port's table, else m's pool registered now (first use of a pool).
 */
static inline uint32_t
mlx5dm_mbuf_lkey(struct mlx5dm_priv *priv, struct mlx5dm_mr_cache *cache, struct rte_mbuf *m,
		 uintptr_t addr)
{
	if (likely(addr - cache->start < cache->end - cache->start))
		return cache->lkey;
	return mlx5dm_mr_lkey_slow(priv, cache, m, addr);
}

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
/*
 * Once the port's domains run (the FDB's too): the matchers of template
 * tables made before the start, so that no rule pays for them. A table
 * whose matchers cannot be made is left to its first rule, which reports why.
 */
void mlx5dm_flow_tmpl_start(struct rte_eth_dev *dev);
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

/* mlx5dm_telemetry.c: the ethdev private dump; also registers the /mlx5dm/ telemetry. */
int mlx5dm_dev_priv_dump(struct rte_eth_dev *dev, FILE *file);

#endif /* _MLX5DM_H_ */
