/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/* vdev probe/remove and the ethdev control operations of net_mlx5dm. */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_version.h>
#include <rte_mbuf.h>
#include <ethdev_driver.h>
#include <ethdev_vdev.h>
#include <bus_vdev_driver.h>

#include "mlx5dm.h"
#include "mlx5dm_log.h"
#include "mlx5dm_build_config.h"
#include "mlx5dm_dev.h"
#include "mlx5dm_flow.h"
#include "mlx5dm_osdep.h"
#include "mlx5dm_steer.h"

#if RTE_VERSION < RTE_VERSION_NUM(22, 11, 0, 0) || RTE_VERSION >= RTE_VERSION_NUM(22, 12, 0, 0)
#error "net_mlx5dm is built against the DPDK 22.11 driver SDK headers only"
#endif

RTE_LOG_REGISTER_DEFAULT(mlx5dm_logtype, NOTICE);
RTE_LOG_REGISTER_SUFFIX(mlx5dm_logtype_lib, lib, NOTICE);

static const struct eth_dev_ops mlx5dm_dev_ops;
static int mlx5dm_link_set(struct rte_eth_dev *dev, bool running);
static void mlx5dm_port_steer_fini(struct mlx5dm_priv *priv);
static void mlx5dm_port_steer_close(struct mlx5dm_priv *priv);

static struct mlx5dm_priv *
mlx5dm_priv(struct rte_eth_dev *dev)
{
	return dev->data->dev_private;
}

static int
mlx5dm_dev_configure(struct rte_eth_dev *dev)
{
	struct rte_eth_conf *conf = &dev->data->dev_conf;

	if (conf->rxmode.mq_mode != RTE_ETH_MQ_RX_NONE &&
	    conf->rxmode.mq_mode != RTE_ETH_MQ_RX_RSS) {
		MLX5DM_DRV_LOG(ERR, "port %u: Rx multi-queue mode %d not supported",
			       dev->data->port_id, conf->rxmode.mq_mode);
		return -ENOTSUP;
	}
	if (conf->txmode.mq_mode != RTE_ETH_MQ_TX_NONE) {
		MLX5DM_DRV_LOG(ERR, "port %u: Tx multi-queue mode %d not supported",
			       dev->data->port_id, conf->txmode.mq_mode);
		return -ENOTSUP;
	}
	return 0;
}

static int
mlx5dm_dev_start(struct rte_eth_dev *dev)
{
	struct mlx5dm_priv *priv = mlx5dm_priv(dev);
	uint16_t i;
	int ret;

	for (i = 0; i < dev->data->nb_rx_queues; i++) {
		if (dev->data->rx_queues[i] == NULL) {
			MLX5DM_DRV_LOG(ERR, "port %u: Rx queue %u not set up",
				       dev->data->port_id, i);
			return -EINVAL;
		}
		dev->data->rx_queue_state[i] = RTE_ETH_QUEUE_STATE_STARTED;
	}
	for (i = 0; i < dev->data->nb_tx_queues; i++) {
		if (dev->data->tx_queues[i] == NULL) {
			MLX5DM_DRV_LOG(ERR, "port %u: Tx queue %u not set up",
				       dev->data->port_id, i);
			return -EINVAL;
		}
		dev->data->tx_queue_state[i] = RTE_ETH_QUEUE_STATE_STARTED;
	}
	/*
	 * Group 0 and the default rule exist only while the port runs; a
	 * representor's Rx is a rule of the manager's, the manager's FDB
	 * follows its NIC tables.
	 */
	if (priv->kind == MLX5DM_PORT_REPRESENTOR) {
		ret = mlx5dm_esw_rep_start(dev);
	} else {
		ret = mlx5dm_flow_start(dev);
		if (ret == 0 && priv->dom_fdb != NULL) {
			ret = mlx5dm_esw_start(dev);
			if (ret < 0)
				mlx5dm_flow_stop(dev);
		}
	}
	if (ret < 0) {
		MLX5DM_DRV_LOG(ERR, "port %u: steering start failed: %s", dev->data->port_id,
			       rte_strerror(-ret));
		return ret;
	}
	mlx5dm_flow_tmpl_start(dev);
	priv->started = true;
	if (priv->dom_fdb != NULL)
		mlx5dm_esw_reps_restart(priv);
	/* ethdev marks the port started after this returns; the link follows the vport. */
	mlx5dm_link_set(dev, true);
	return 0;
}

static int
mlx5dm_dev_stop(struct rte_eth_dev *dev)
{
	struct mlx5dm_priv *priv = mlx5dm_priv(dev);
	uint16_t i;

	priv->started = false;
	mlx5dm_link_set(dev, false);
	/* No rule steers here any more; then the rings are emptied. */
	if (priv->kind == MLX5DM_PORT_REPRESENTOR) {
		mlx5dm_esw_rep_stop(dev);
	} else {
		if (priv->dom_fdb != NULL)
			mlx5dm_esw_stop(dev);
		mlx5dm_flow_stop(dev);
	}
	for (i = 0; i < dev->data->nb_rx_queues; i++) {
		if (dev->data->rx_queues[i] != NULL)
			mlx5dm_rxq_drain(dev->data->rx_queues[i]);
		dev->data->rx_queue_state[i] = RTE_ETH_QUEUE_STATE_STOPPED;
	}
	for (i = 0; i < dev->data->nb_tx_queues; i++)
		dev->data->tx_queue_state[i] = RTE_ETH_QUEUE_STATE_STOPPED;
	return 0;
}

static void
mlx5dm_rxq_info_get(struct rte_eth_dev *dev, uint16_t idx, struct rte_eth_rxq_info *qinfo)
{
	struct mlx5dm_rxq *rxq = dev->data->rx_queues[idx];

	qinfo->mp = rxq->mp;
	qinfo->nb_desc = rxq->nb_desc;
	qinfo->queue_state = dev->data->rx_queue_state[idx];
}

static void
mlx5dm_txq_info_get(struct rte_eth_dev *dev, uint16_t idx, struct rte_eth_txq_info *qinfo)
{
	struct mlx5dm_txq *txq = dev->data->tx_queues[idx];

	qinfo->nb_desc = txq->nb_desc;
	qinfo->queue_state = dev->data->tx_queue_state[idx];
}

static int
mlx5dm_dev_infos_get(struct rte_eth_dev *dev, struct rte_eth_dev_info *info)
{
	struct mlx5dm_priv *priv = mlx5dm_priv(dev);

	info->max_mac_addrs = 1;
	info->max_rx_pktlen = MLX5DM_MAX_MTU + RTE_ETHER_HDR_LEN + RTE_ETHER_CRC_LEN;
	info->min_mtu = MLX5DM_MIN_MTU;
	info->max_mtu = MLX5DM_MAX_MTU;
	info->max_rx_queues = MLX5DM_MAX_QUEUES;
	info->max_tx_queues = MLX5DM_MAX_QUEUES;
	info->min_rx_bufsize = 0;
	info->rx_desc_lim = (struct rte_eth_desc_lim){
		.nb_max = MLX5DM_MAX_DESC, .nb_min = MLX5DM_MIN_DESC, .nb_align = 1,
	};
	info->tx_desc_lim = info->rx_desc_lim;
	info->default_rxportconf.ring_size = 1024;
	info->default_txportconf.ring_size = 1024;
	info->default_rxportconf.nb_queues = 1;
	info->default_txportconf.nb_queues = 1;
	info->dev_capa = 0;
	info->speed_capa = RTE_ETH_LINK_SPEED_100G;
	/* Toeplitz over IPv4/IPv6 addresses and TCP/UDP ports, as the TIRs do. */
	info->flow_type_rss_offloads = MLX5DM_FLOW_RSS_HF_SUPPORTED;
	info->hash_key_size = 40;
	/* What the CQE reports: RSS hash, checksum verdicts. */
	info->rx_offload_capa = RTE_ETH_RX_OFFLOAD_RSS_HASH | RTE_ETH_RX_OFFLOAD_CHECKSUM;
	info->tx_offload_capa = RTE_ETH_TX_OFFLOAD_MULTI_SEGS;
	/*
	 * As DPDK mlx5 reports them: the manager (the uplink) and its
	 * representors share a switch domain; a representor's port is its VF,
	 * the manager's is none (UINT16_MAX). VF functions are not in it.
	 */
	if (mlx5dm_esw_manager(priv) != NULL) {
		info->switch_info.name = dev->data->name;
		info->switch_info.domain_id = priv->sh->switch_domain;
		info->switch_info.port_id = priv->kind == MLX5DM_PORT_REPRESENTOR ? priv->vf :
					    UINT16_MAX;
	}
	return 0;
}

/*
 * The link is up while the port runs and its vport's link is up
 * (QUERY_VPORT_STATE). Nothing tells the speed (that is a PTYS register
 * read), so an up link reports RTE_ETH_SPEED_NUM_UNKNOWN, as DPDK's mlx5
 * does when ethtool does not know it (mlx5_link_update_unlocked_gset()).
 */
static int
mlx5dm_link_set(struct rte_eth_dev *dev, bool running)
{
	struct mlx5dm_port_attr attr;
	struct rte_eth_link link = {
		.link_speed = RTE_ETH_SPEED_NUM_NONE,
		.link_duplex = RTE_ETH_LINK_FULL_DUPLEX,
		.link_autoneg = RTE_ETH_LINK_FIXED,
		.link_status = RTE_ETH_LINK_DOWN,
	};
	int ret = 0;

	if (running) {
		ret = mlx5dm_port_attr_query(mlx5dm_priv(dev)->dev, &attr);
		if (ret == 0 && attr.link_up) {
			link.link_status = RTE_ETH_LINK_UP;
			link.link_speed = RTE_ETH_SPEED_NUM_UNKNOWN;
		}
	}
	rte_eth_linkstatus_set(dev, &link);
	return ret;
}

static int
mlx5dm_link_update(struct rte_eth_dev *dev, int wait __rte_unused)
{
	return mlx5dm_link_set(dev, mlx5dm_priv(dev)->started);
}

static int
mlx5dm_promiscuous_enable(struct rte_eth_dev *dev)
{
	mlx5dm_priv(dev)->promisc = true;
	return 0;
}

static int
mlx5dm_promiscuous_disable(struct rte_eth_dev *dev)
{
	mlx5dm_priv(dev)->promisc = false;
	return 0;
}

static int
mlx5dm_allmulticast_enable(struct rte_eth_dev *dev)
{
	mlx5dm_priv(dev)->allmulti = true;
	return 0;
}

static int
mlx5dm_allmulticast_disable(struct rte_eth_dev *dev)
{
	mlx5dm_priv(dev)->allmulti = false;
	return 0;
}

static int
mlx5dm_mac_addr_set(struct rte_eth_dev *dev, struct rte_ether_addr *addr)
{
	rte_ether_addr_copy(addr, &mlx5dm_priv(dev)->mac);
	return 0;
}

static int
mlx5dm_mtu_set(struct rte_eth_dev *dev __rte_unused, uint16_t mtu)
{
	/* ethdev checked [min_mtu, max_mtu]; the loopback wire carries any size. */
	return mtu >= MLX5DM_MIN_MTU && mtu <= MLX5DM_MAX_MTU ? 0 : -EINVAL;
}

static int
mlx5dm_ethdev_close(struct rte_eth_dev *dev)
{
	struct mlx5dm_priv *priv = mlx5dm_priv(dev);
	struct mlx5dm_shared *sh = priv->sh;
	uint16_t i;

	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return 0;
	if (priv->kind != MLX5DM_PORT_REPRESENTOR)
		mlx5dm_flow_close(dev);
	for (i = 0; i < dev->data->nb_rx_queues; i++)
		mlx5dm_rx_queue_release(dev, i);
	for (i = 0; i < dev->data->nb_tx_queues; i++)
		mlx5dm_tx_queue_release(dev, i);
	mlx5dm_mr_release_all(priv);
	mlx5dm_port_steer_close(priv);
	/* The MAC lives in priv, which ethdev frees with the port. */
	dev->data->mac_addrs = NULL;
	sh->ports[priv->port_index] = NULL;
	MLX5DM_DRV_LOG(INFO, "%s: port %u (index %u) closed", sh->name, dev->data->port_id,
		       priv->port_index);
	if (--sh->nb_live == 0) {
		if (sh->mgr_held != NULL) {
			mlx5dm_port_steer_fini(sh->mgr_held);
			rte_free(sh->mgr_held);
		}
		mlx5dm_esw_fini(sh);
		rte_free(sh);
	}
	priv->sh = NULL;
	return 0;
}

static const struct eth_dev_ops mlx5dm_dev_ops = {
	.dev_configure = mlx5dm_dev_configure,
	.dev_start = mlx5dm_dev_start,
	.dev_stop = mlx5dm_dev_stop,
	.dev_close = mlx5dm_ethdev_close,
	.dev_infos_get = mlx5dm_dev_infos_get,
	.link_update = mlx5dm_link_update,
	.promiscuous_enable = mlx5dm_promiscuous_enable,
	.promiscuous_disable = mlx5dm_promiscuous_disable,
	.allmulticast_enable = mlx5dm_allmulticast_enable,
	.allmulticast_disable = mlx5dm_allmulticast_disable,
	.mac_addr_set = mlx5dm_mac_addr_set,
	.mtu_set = mlx5dm_mtu_set,
	.rx_queue_setup = mlx5dm_rx_queue_setup,
	.tx_queue_setup = mlx5dm_tx_queue_setup,
	.rx_queue_release = mlx5dm_rx_queue_release,
	.tx_queue_release = mlx5dm_tx_queue_release,
	.tx_done_cleanup = mlx5dm_tx_done_cleanup,
	.dev_supported_ptypes_get = mlx5dm_supported_ptypes,
	.rxq_info_get = mlx5dm_rxq_info_get,
	.txq_info_get = mlx5dm_txq_info_get,
	.stats_get = mlx5dm_stats_get,
	.stats_reset = mlx5dm_stats_reset,
	.xstats_get = mlx5dm_xstats_get,
	.xstats_get_names = mlx5dm_xstats_get_names,
	.xstats_reset = mlx5dm_stats_reset,
	.flow_ops_get = mlx5dm_esw_flow_ops_get,
	.eth_dev_priv_dump = mlx5dm_dev_priv_dump,
};

/* Route the DPDK-free library's log lines to pmd.net.mlx5dm.lib. */
static void
mlx5dm_lib_log(enum mlx5dm_log_level level, const char *module, const char *fmt, va_list ap)
{
	char buf[512];

	if (!rte_log_can_log(mlx5dm_logtype_lib, (uint32_t)level))
		return;
	vsnprintf(buf, sizeof(buf), fmt, ap);
	rte_log((uint32_t)level, mlx5dm_logtype_lib, "mlx5dm.%s: %s\n", module, buf);
}

/*
 * The library's memory comes from the DPDK heap, as DPDK mlx5's does
 * (mlx5_malloc, MLX5_MEM_RTE): hugepage-backed under EAL hugepages, on the
 * socket each allocation names: its port's device's (a model has none, nor
 * a NIC function of no known node: then the calling lcore's, else any).
 */
static int
mlx5dm_rte_socket(int socket)
{
	return socket == MLX5DM_SOCKET_ANY ? SOCKET_ID_ANY : socket;
}

/*
 * The heap's lock orders a free before the next allocation of the same
 * memory on another lcore; librte_eal is not built for ThreadSanitizer, so
 * it does not see that lock: a release before each free and an acquire
 * after each allocation, on one object, tell it (the new owner's writes are
 * then not reported against the old owner's accesses).
 */
#if defined(__SANITIZE_THREAD__)
#define MLX5DM_HEAP_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define MLX5DM_HEAP_TSAN 1
#endif
#endif

#ifdef MLX5DM_HEAP_TSAN
#include <sanitizer/tsan_interface.h>

static char mlx5dm_heap_order;

static void *
mlx5dm_heap_taken(void *p)
{
	__tsan_acquire(&mlx5dm_heap_order);
	return p;
}

static void
mlx5dm_rte_free(void *p)
{
	__tsan_release(&mlx5dm_heap_order);
	rte_free(p);
}
#else
#define mlx5dm_heap_taken(p) (p)
#define mlx5dm_rte_free rte_free
#endif

static void *
mlx5dm_rte_alloc(size_t size, size_t align, int socket)
{
	return mlx5dm_heap_taken(rte_malloc_socket("mlx5dm", size, (unsigned int)align,
						   mlx5dm_rte_socket(socket)));
}

static void *
mlx5dm_rte_zalloc(size_t size, size_t align, int socket)
{
	return mlx5dm_heap_taken(rte_zmalloc_socket("mlx5dm", size, (unsigned int)align,
						    mlx5dm_rte_socket(socket)));
}

static const struct mlx5dm_alloc_ops mlx5dm_rte_alloc_ops = {
	.alloc = mlx5dm_rte_alloc,
	.zalloc = mlx5dm_rte_zalloc,
	.free = mlx5dm_rte_free,
};

/* Once, before the library allocates anything: memory goes back where it came from. */
static void
mlx5dm_mem_use_rte(void)
{
	static bool set;

	if (set)
		return;
	mlx5dm_alloc_set_ops(&mlx5dm_rte_alloc_ops);
	set = true;
}

/* What port index of the vdev is: NIC ports, representors, VF ports (vfs[*vf]). */
static enum mlx5dm_port_kind
mlx5dm_port_kind(const struct mlx5dm_devargs *args, uint16_t index, uint16_t *vf)
{
	if (index < args->nb_ports)
		return MLX5DM_PORT_NIC;
	index -= args->nb_ports;
	*vf = args->vfs[index % args->nb_vfs];
	return index < args->nb_vfs ? MLX5DM_PORT_REPRESENTOR : MLX5DM_PORT_VF;
}

/* The ethdev name of port index: DPDK's representor names, as DPDK mlx5 gives them. */
static void
mlx5dm_port_name(char *buf, size_t len, const char *vdev, const struct mlx5dm_devargs *args,
		 uint16_t index)
{
	uint16_t vf = 0;

	switch (mlx5dm_port_kind(args, index, &vf)) {
	case MLX5DM_PORT_REPRESENTOR:
		snprintf(buf, len, "%s_representor_vf%u", vdev, vf);
		return;
	case MLX5DM_PORT_VF:
		snprintf(buf, len, "%s_vf%u", vdev, vf);
		return;
	default:
		break;
	}
	if (index == 0)
		snprintf(buf, len, "%s", vdev);
	else
		snprintf(buf, len, "%s_p%u", vdev, index);
}

/*
 * The rule queues of the port's steering context: one per EAL lcore, so
 * that lcores calling rte_flow_create() at once share no queue and no lock;
 * one for every other thread (a non-EAL thread, a service lcore), which
 * takes it under a lock; and as many as there are EAL lcores for the flow
 * queues of rte_flow_configure() (an application gives each of its lcores
 * a flow queue). The context cannot add queues later: it has them from
 * the start.
 */
static void
mlx5dm_port_rule_queues(struct mlx5dm_priv *priv)
{
	unsigned int lcore;
	uint16_t n = 0;

	RTE_LCORE_FOREACH(lcore)
		priv->rule_queue[lcore] = n++;
	for (lcore = 0; lcore < RTE_MAX_LCORE; lcore++)
		if (!rte_lcore_is_enabled(lcore))
			priv->rule_queue[lcore] = n;
	priv->rule_queue_any = n;
	priv->rule_queue_tmpl = n + 1;
	priv->nb_rule_queues_tmpl = n;
	priv->nb_rule_queues = (uint16_t)(2 * n + 1);
}

/*
 * Whether EAL's heap serves socket: one of EAL's sockets (its lcores'
 * nodes) with memory there. With hugepages rte_malloc_socket() fails on
 * any other socket, and on one whose hugepages are all taken (none
 * reserved on that node, or the legacy memory model's limit): a trial
 * allocation says. (Without hugepages it takes any socket for any.)
 */
static bool
mlx5dm_eal_socket(int socket)
{
	unsigned int i, n = rte_socket_count();
	void *p;

	for (i = 0; i < n; i++)
		if (rte_socket_id_by_idx(i) == socket)
			break;
	if (i == n)
		return false;
	p = rte_malloc_socket("mlx5dm_socket", 1, 0, socket);
	if (p == NULL)
		return false;
	rte_free(p);
	return true;
}

/*
 * A port with no socket of its own (a vdev's) takes its device's, the
 * node the hw transport read from the PCI function, as a PCI port gets
 * its function's in DPDK (ethdev_pci.h, rte_eth_copy_pci_info()):
 * rte_eth_dev_socket_id() reports it, and the queues and the flow state
 * made after the probe follow it. Only a socket EAL's heap serves: on
 * another, every allocation the library asked for there would fail, so
 * the device's memory goes anywhere and the port keeps none.
 */
static void
mlx5dm_port_socket(struct mlx5dm_priv *priv)
{
	int socket = priv->dev->socket;

	if (priv->data->numa_node != SOCKET_ID_ANY || socket == MLX5DM_SOCKET_ANY)
		return;
	if (mlx5dm_eal_socket(socket)) {
		priv->data->numa_node = socket;
		return;
	}
	MLX5DM_DRV_LOG(INFO, "port %u: the device is on NUMA node %d, where EAL has no memory: "
		       "the port's memory is on any socket", priv->port_id, socket);
	/* Its steering context comes next: nothing is on the device's socket yet. */
	priv->dev->socket = MLX5DM_SOCKET_ANY;
}

/*
 * The port's device and steering: one device per port (a NIC function with
 * one uplink: on sim, a model instance), its steering context and NIC RX/TX
 * domains.
 */
static int
mlx5dm_port_steer_init(struct mlx5dm_priv *priv, const struct mlx5dm_devargs *args)
{
	struct mlx5dm_priv *mgr = priv->sh->ports[0];
	struct mlx5dm_port_attr pattr;
	struct mlx5dm_dev_attr dattr = {
		.transport = args->backend == RTE_PMD_MLX5DM_BACKEND_HW ? "hw" : "sim",
		.ib_device = args->ib_device[0] != '\0' ? args->ib_device : NULL,
		.pci_addr = args->pci_addr[0] != '\0' ? args->pci_addr : NULL,
		/* The manager's VFs take the vhca ids after its own (1 + 1 + vf). */
		.vhca_id = (uint16_t)(priv->port_index + 1 +
				      (priv->port_index != 0 && args->nb_vfs != 0 ?
				       MLX5DM_MAX_VFS : 0)),
		/*
		 * The model's ICM is resident from the port's creation on, as a
		 * NIC's device memory is; its STE ICM is what the devarg asks.
		 */
		.icm_resident = true,
		.log_steering_icm_size = args->log_steering_icm_size,
		/* The library's memory for the port: on the port's socket, when it has one. */
		.has_socket = priv->data->numa_node != SOCKET_ID_ANY,
		.socket = priv->data->numa_node,
	};
	/* rte_flow allows identical rules, as mlx5 does. */
	struct mlx5dm_ctx_attr cattr = {
		.allow_duplicate_rules = true,
		.doorbell_batch = args->doorbell_batch,
	};
	unsigned int i;
	int ret;

	mlx5dm_port_rule_queues(priv);
	cattr.nb_queues = priv->nb_rule_queues;
	priv->rules_batched = args->doorbell_batch > 1;
	if (priv->kind == MLX5DM_PORT_REPRESENTOR) {
		/* The manager's device and context; the MAC is the representor's own. */
		priv->dev = mgr->dev;
		priv->steer = mgr->steer;
		mlx5dm_port_socket(priv);
		priv->data->mtu = mgr->data->mtu;
		/* Its VF's vport is the device's to say (an ECPF numbers them otherwise). */
		ret = mlx5dm_dev_vf_vport(mgr->dev, priv->vf, &priv->vport);
		if (ret < 0)
			MLX5DM_DRV_LOG(ERR, "port %u: no vport of VF %u on the E-Switch: %s",
				       priv->port_id, priv->vf, rte_strerror(-ret));
		return ret;
	}
	if (priv->kind == MLX5DM_PORT_VF) {
		dattr.esw_manager = mgr->dev;
		dattr.vf = priv->vf;
	} else if (priv->port_index == 0) {
		for (i = 0; i < args->nb_vfs; i++)
			dattr.num_vfs = RTE_MAX(dattr.num_vfs, (uint16_t)(args->vfs[i] + 1));
	}
	for (i = 0; i < RTE_ETHER_ADDR_LEN; i++)
		dattr.mac = dattr.mac << 8 | priv->mac.addr_bytes[i];
	priv->dev = mlx5dm_dev_open(&dattr);
	if (priv->dev == NULL)
		return -errno;
	mlx5dm_port_socket(priv);
	/* The port is what the NIC vport says it is. */
	ret = mlx5dm_port_attr_query(priv->dev, &pattr);
	if (ret < 0) {
		MLX5DM_DRV_LOG(ERR, "port %u: cannot read the port's MAC and MTU from the device",
			       priv->port_id);
		goto close_dev;
	}
	memcpy(priv->mac.addr_bytes, pattr.mac, RTE_ETHER_ADDR_LEN);
	priv->data->mtu = pattr.mtu;
	priv->steer = mlx5dm_ctx_open(priv->dev, &cattr);
	if (priv->steer == NULL) {
		ret = -errno;
		goto close_dev;
	}
	priv->dom_rx = mlx5dm_domain_create(priv->steer, MLX5DM_DOMAIN_NIC_RX);
	if (priv->dom_rx == NULL) {
		ret = -errno;
		goto close_ctx;
	}
	priv->dom_tx = mlx5dm_domain_create(priv->steer, MLX5DM_DOMAIN_NIC_TX);
	if (priv->dom_tx == NULL) {
		ret = -errno;
		goto destroy_rx;
	}
	if (dattr.num_vfs != 0) {
		priv->dom_fdb = mlx5dm_domain_create(priv->steer, MLX5DM_DOMAIN_FDB);
		if (priv->dom_fdb == NULL) {
			ret = -errno;
			MLX5DM_DRV_LOG(ERR, "port %u: the device manages no E-Switch with "
				       "SW-owned FDB tables", priv->port_id);
			goto destroy_tx;
		}
	}
	return 0;
destroy_tx:
	mlx5dm_domain_destroy(priv->dom_tx);
	priv->dom_tx = NULL;
destroy_rx:
	mlx5dm_domain_destroy(priv->dom_rx);
	priv->dom_rx = NULL;
close_ctx:
	mlx5dm_ctx_close(priv->steer);
	priv->steer = NULL;
close_dev:
	mlx5dm_dev_close(priv->dev);
	priv->dev = NULL;
	return ret;
}

static void
mlx5dm_port_steer_fini(struct mlx5dm_priv *priv)
{
	if (priv->kind == MLX5DM_PORT_REPRESENTOR) {
		priv->steer = NULL;
		priv->dev = NULL;
		return;
	}
	if (priv->dom_fdb != NULL && mlx5dm_domain_destroy(priv->dom_fdb) < 0)
		MLX5DM_DRV_LOG(ERR, "port %u: FDB domain still in use", priv->port_id);
	priv->dom_fdb = NULL;
	if (priv->dom_tx != NULL && mlx5dm_domain_destroy(priv->dom_tx) < 0)
		MLX5DM_DRV_LOG(ERR, "port %u: NIC TX domain still in use", priv->port_id);
	if (priv->dom_rx != NULL && mlx5dm_domain_destroy(priv->dom_rx) < 0)
		MLX5DM_DRV_LOG(ERR, "port %u: NIC RX domain still in use", priv->port_id);
	if (priv->steer != NULL && mlx5dm_ctx_close(priv->steer) < 0)
		MLX5DM_DRV_LOG(ERR, "port %u: steering context still in use", priv->port_id);
	if (priv->dev != NULL)
		mlx5dm_dev_close(priv->dev);
	priv->dom_tx = NULL;
	priv->dom_rx = NULL;
	priv->steer = NULL;
	priv->dev = NULL;
}

/*
 * A closing port's steering, unless it is the E-Switch manager's and
 * representors (whose queues and rules are on its device) are still open:
 * then the last port's close ends it.
 */
static void
mlx5dm_port_steer_close(struct mlx5dm_priv *priv)
{
	struct mlx5dm_shared *sh = priv->sh;
	uint16_t i;

	for (i = 0; priv->dom_fdb != NULL && i < sh->nb_ethdevs; i++) {
		if (sh->ports[i] == NULL || sh->ports[i]->kind != MLX5DM_PORT_REPRESENTOR)
			continue;
		sh->mgr_held = rte_malloc_socket("mlx5dm_mgr", sizeof(*priv), 0,
						 priv->data->numa_node);
		if (sh->mgr_held == NULL)
			break;
		memcpy(sh->mgr_held, priv, sizeof(*priv));
		return;
	}
	mlx5dm_port_steer_fini(priv);
}

/* FNV-1a: distinct vdevs get distinct MACs, stable across runs. */
static uint32_t
mlx5dm_name_hash(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s != '\0')
		h = (h ^ (uint8_t)*s++) * 16777619u;
	return h;
}

static struct rte_eth_dev *
mlx5dm_port_create(struct rte_vdev_device *vdev, struct mlx5dm_shared *sh, uint16_t index)
{
	char name[RTE_ETH_NAME_MAX_LEN];
	struct rte_eth_dev *dev;
	struct mlx5dm_priv *priv;
	uint32_t hash;
	uint16_t peer;

	if (index == 0) {
		dev = rte_eth_vdev_allocate(vdev, sizeof(*priv));
	} else {
		mlx5dm_port_name(name, sizeof(name), sh->name, &sh->args, index);
		dev = rte_eth_dev_allocate(name);
		if (dev != NULL) {
			dev->data->dev_private = rte_zmalloc_socket(name, sizeof(*priv),
					RTE_CACHE_LINE_SIZE, vdev->device.numa_node);
			if (dev->data->dev_private == NULL) {
				rte_eth_dev_release_port(dev);
				dev = NULL;
			} else {
				dev->device = &vdev->device;
				dev->data->numa_node = vdev->device.numa_node;
			}
		}
	}
	if (dev == NULL) {
		MLX5DM_DRV_LOG(ERR, "%s: cannot allocate ethdev port %u", sh->name, index);
		return NULL;
	}
	priv = dev->data->dev_private;
	priv->sh = sh;
	priv->data = dev->data;
	priv->port_index = index;
	priv->port_id = dev->data->port_id;
	priv->kind = mlx5dm_port_kind(&sh->args, index, &priv->vf);
	rte_spinlock_init(&priv->mrs.lock);
	/* Representors and VF ports have no wire of their own. */
	peer = sh->args.topology == MLX5DM_TOPO_PAIR && priv->kind == MLX5DM_PORT_NIC ?
	       index ^ 1 : index;
	priv->peer_index = peer;
	/*
	 * The model's MAC: locally administered, 02:4d:44:<vdev name hash>:<port
	 * index>; the device reports it (or a NIC its own) at bring-up.
	 */
	hash = mlx5dm_name_hash(sh->name);
	priv->mac = (struct rte_ether_addr){
		.addr_bytes = { 0x02, 0x4d, 0x44, (uint8_t)(hash >> 8), (uint8_t)hash,
				(uint8_t)index },
	};
	dev->data->mac_addrs = &priv->mac;
	/* The flow ops serialise themselves (mlx5dm_flow_ops.c): no ethdev mutex per call. */
	dev->data->dev_flags |= RTE_ETH_DEV_AUTOFILL_QUEUE_XSTATS |
				RTE_ETH_DEV_FLOW_OPS_THREAD_SAFE;
	if (priv->kind == MLX5DM_PORT_REPRESENTOR) {
		dev->data->dev_flags |= RTE_ETH_DEV_REPRESENTOR;
		dev->data->representor_id = priv->vf;
		dev->data->backer_port_id = sh->ports[0]->port_id;
	}
	dev->data->dev_link = (struct rte_eth_link){
		.link_speed = RTE_ETH_SPEED_NUM_NONE,
		.link_duplex = RTE_ETH_LINK_FULL_DUPLEX,
		.link_autoneg = RTE_ETH_LINK_FIXED,
		.link_status = RTE_ETH_LINK_DOWN,
	};
	dev->dev_ops = &mlx5dm_dev_ops;
	dev->rx_pkt_burst = mlx5dm_rx_burst;
	dev->tx_pkt_burst = mlx5dm_tx_burst;
	sh->ports[index] = priv;
	sh->nb_live++;
	return dev;
}

static int
mlx5dm_probe(struct rte_vdev_device *vdev)
{
	const char *name = rte_vdev_device_name(vdev);
	struct rte_eth_dev *devs[MLX5DM_MAX_PORTS] = { NULL };
	struct mlx5dm_devargs args;
	struct mlx5dm_shared *sh;
	uint16_t i;
	int ret;

	if (rte_eal_process_type() != RTE_PROC_PRIMARY) {
		MLX5DM_DRV_LOG(ERR, "%s: secondary processes are not supported", name);
		return -ENOTSUP;
	}
	ret = mlx5dm_devargs_parse(name, rte_vdev_device_args(vdev), &args);
	if (ret < 0)
		return ret;
	mlx5dm_log_set_hook(mlx5dm_lib_log);
	mlx5dm_mem_use_rte();
	sh = rte_zmalloc_socket("mlx5dm_shared", sizeof(*sh), RTE_CACHE_LINE_SIZE,
				vdev->device.numa_node);
	if (sh == NULL)
		return -ENOMEM;
	snprintf(sh->name, sizeof(sh->name), "%s", name);
	sh->args = args;
	/* NIC ports, then one representor per listed VF, then the VF ports. */
	sh->nb_ethdevs = (uint16_t)(args.nb_ports + args.nb_vfs * (1 + args.vf_ports));
	ret = mlx5dm_esw_init(sh);
	if (ret < 0) {
		rte_free(sh);
		return ret;
	}
	for (i = 0; i < sh->nb_ethdevs; i++) {
		devs[i] = mlx5dm_port_create(vdev, sh, i);
		if (devs[i] == NULL) {
			ret = -ENOMEM;
			goto release_ports;
		}
		ret = mlx5dm_port_steer_init(devs[i]->data->dev_private, &args);
		if (ret < 0) {
			MLX5DM_DRV_LOG(ERR, "%s: port %u: device bring-up failed: %s", name, i,
				       rte_strerror(-ret));
			i++;
			goto release_ports;
		}
	}
	/* Cable the pairs; an unconnected uplink loops back to itself. */
	for (i = 0; args.topology == MLX5DM_TOPO_PAIR && i < args.nb_ports; i += 2) {
		struct mlx5dm_priv *a = devs[i]->data->dev_private;
		struct mlx5dm_priv *b = devs[i + 1]->data->dev_private;

		ret = mlx5dm_dev_wire_connect(a->dev, b->dev);
		if (ret < 0) {
			MLX5DM_DRV_LOG(ERR, "%s: cannot cable ports %u and %u: %s", name, i, i + 1,
				       ret == -ENOTSUP ? "not supported by this device" :
				       rte_strerror(-ret));
			i = args.nb_ports;
			goto release_ports;
		}
	}
	for (i = 0; i < sh->nb_ethdevs; i++)
		rte_eth_dev_probing_finish(devs[i]);
	MLX5DM_DRV_LOG(INFO, "%s: %u port(s), %u representor(s), %u VF port(s), backend=%s, "
		       "topology=%s%s", name, args.nb_ports, args.nb_vfs,
		       args.nb_vfs * args.vf_ports,
		       args.backend == RTE_PMD_MLX5DM_BACKEND_SIM ? "sim" : "hw",
		       args.topology == MLX5DM_TOPO_LOOP ? "loop" : "pair",
		       args.flow_engine == MLX5DM_FLOW_ENGINE_NULL ?
		       ", flow_engine=null (rte_flow rules are handles only)" : "");
	return 0;
release_ports:
	/* VFs before their PF, representors before the device they share. */
	while (i-- > 0) {
		mlx5dm_port_steer_fini(devs[i]->data->dev_private);
		devs[i]->data->mac_addrs = NULL;
		rte_eth_dev_release_port(devs[i]);
	}
	mlx5dm_esw_fini(sh);
	rte_free(sh);
	return ret;
}

static int
mlx5dm_remove(struct rte_vdev_device *vdev)
{
	const char *name = rte_vdev_device_name(vdev);
	char pname[RTE_ETH_NAME_MAX_LEN];
	struct mlx5dm_devargs args;
	uint16_t i, n;

	if (mlx5dm_devargs_parse(name, rte_vdev_device_args(vdev), &args) < 0)
		return -EINVAL;
	n = (uint16_t)(args.nb_ports + args.nb_vfs * (1 + args.vf_ports));
	/*
	 * Close every port of this vdev still open, the VF ports and the
	 * representors before the manager; the last close frees the shared state.
	 */
	for (i = n; i-- > 0;) {
		struct rte_eth_dev *dev;

		mlx5dm_port_name(pname, sizeof(pname), name, &args, i);
		dev = rte_eth_dev_allocated(pname);
		if (dev == NULL)
			continue;
		if (dev->data->dev_started)
			rte_eth_dev_stop(dev->data->port_id);
		rte_eth_dev_close(dev->data->port_id);
	}
	return 0;
}

int
rte_pmd_mlx5dm_port_info_get(uint16_t port_id, struct rte_pmd_mlx5dm_port_info *info)
{
	struct mlx5dm_priv *priv;
	struct rte_eth_dev *dev;

	if (!rte_eth_dev_is_valid_port(port_id)) {
		rte_errno = ENODEV;
		return -ENODEV;
	}
	dev = &rte_eth_devices[port_id];
	if (dev->dev_ops != &mlx5dm_dev_ops) {
		rte_errno = ENOTSUP;
		return -ENOTSUP;
	}
	if (info == NULL) {
		rte_errno = EINVAL;
		return -EINVAL;
	}
	priv = mlx5dm_priv(dev);
	info->backend = priv->sh->args.backend;
	info->port_index = priv->port_index;
	info->nb_ports = priv->sh->args.nb_ports;
	info->peer_port_id = priv->sh->ports[priv->peer_index] != NULL ?
			     priv->sh->ports[priv->peer_index]->port_id : RTE_MAX_ETHPORTS;
	return 0;
}

static struct rte_vdev_driver mlx5dm_vdev_driver = {
	.probe = mlx5dm_probe,
	.remove = mlx5dm_remove,
};

RTE_PMD_REGISTER_VDEV(MLX5DM_DRIVER_NAME, mlx5dm_vdev_driver);
