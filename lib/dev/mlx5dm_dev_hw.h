/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/* The hardware transport's device selection (PF, its VFs), for its tests. */

#ifndef _MLX5DM_DEV_HW_H_
#define _MLX5DM_DEV_HW_H_

#include "mlx5dm_dev.h"

/*
 * The PCI address (canonical, see mlx5dm_dev_pci_parse()) of the RDMA
 * device whose sysfs directory is ibdev_path. -ENOENT when it is not a
 * PCI function.
 */
int mlx5dm_dev_hw_pci_of(const char *ibdev_path, char out[MLX5DM_DEV_PCI_ADDR_LEN]);

/*
 * The PCI address of VF vf of the PF whose RDMA device's sysfs directory
 * is pf_ibdev_path (the PF function's virtfn<vf> link). -ENOENT when the
 * PF has no such VF.
 */
int mlx5dm_dev_hw_vf_pci(const char *pf_ibdev_path, uint16_t vf,
			 char out[MLX5DM_DEV_PCI_ADDR_LEN]);

/*
 * The device of list[0..n) named ib_device and at canonical PCI address
 * pci (either may be NULL, not both), or NULL after one log line: no such
 * device, or several at that address.
 */
struct ibv_device *mlx5dm_dev_hw_select(struct ibv_device **list, int n,
					const char *ib_device, const char *pci);

#endif /* _MLX5DM_DEV_HW_H_ */
