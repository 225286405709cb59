/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#ifndef _RTE_PMD_MLX5DM_H_
#define _RTE_PMD_MLX5DM_H_

/**
 * @file
 * Public API of the net_mlx5dm poll-mode driver.
 */

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Backend a net_mlx5dm port runs on. */
enum rte_pmd_mlx5dm_backend {
	RTE_PMD_MLX5DM_BACKEND_SIM = 0, /**< the device model shipped with mlx5dm */
	RTE_PMD_MLX5DM_BACKEND_HW = 1,  /**< a ConnectX NIC through rdma-core */
};

/** What a net_mlx5dm port is and where its wire goes. */
struct rte_pmd_mlx5dm_port_info {
	enum rte_pmd_mlx5dm_backend backend;
	uint16_t port_index;   /**< index of the port inside its vdev (0-based) */
	uint16_t nb_ports;     /**< ports created by the same vdev */
	uint16_t peer_port_id; /**< ethdev port id at the other end of the wire */
};

/**
 * Describe a net_mlx5dm port.
 *
 * @param port_id
 *   Ethdev port identifier.
 * @param[out] info
 *   Filled on success.
 * @return
 *   0 on success; -ENODEV if port_id is not a valid port; -ENOTSUP if the port
 *   is not a net_mlx5dm port; -EINVAL if info is NULL. rte_errno is set too.
 */
int rte_pmd_mlx5dm_port_info_get(uint16_t port_id, struct rte_pmd_mlx5dm_port_info *info);

#ifdef __cplusplus
}
#endif

#endif /* _RTE_PMD_MLX5DM_H_ */
