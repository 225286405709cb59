/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The model's side of the device boundary: mlx5dm_sim_dev_ops.
 *
 * Every rdma-core-named entry behaves like the rdma-core function it
 * stands for (return values included: int entries return 0 or a positive
 * errno and set errno; creators return NULL with errno). Packets travel
 * through the datapath queues, which the device thread runs
 * (mlx5dm_sim_thread.c).
 */

#include "mlx5dm_sim_core.h"

const struct mlx5dm_dev_ops mlx5dm_sim_dev_ops = {
	.name = "sim",
	.alloc_pd = mlx5dm_sim_alloc_pd,
	.dealloc_pd = mlx5dm_sim_dealloc_pd,
	.alloc_dm = mlx5dm_sim_alloc_dm,
	.free_dm = mlx5dm_sim_free_dm,
	.reg_dm_mr = mlx5dm_sim_reg_dm_mr,
	.reg_mr = mlx5dm_sim_reg_mr,
	.dereg_mr = mlx5dm_sim_dereg_mr,
	.init_obj = mlx5dm_sim_init_obj,
	.devx_general_cmd = mlx5dm_sim_devx_general_cmd,
	.devx_obj_create = mlx5dm_sim_devx_obj_create,
	.devx_obj_query = mlx5dm_sim_devx_obj_query,
	.devx_obj_modify = mlx5dm_sim_devx_obj_modify,
	.devx_obj_destroy = mlx5dm_sim_devx_obj_destroy,
	.devx_umem_reg = mlx5dm_sim_devx_umem_reg,
	.devx_umem_dereg = mlx5dm_sim_devx_umem_dereg,
	.devx_alloc_uar = mlx5dm_sim_devx_alloc_uar,
	.devx_free_uar = mlx5dm_sim_devx_free_uar,
	.devx_query_eqn = mlx5dm_sim_devx_query_eqn,
	.create_flow_matcher = mlx5dm_sim_create_flow_matcher,
	.destroy_flow_matcher = mlx5dm_sim_destroy_flow_matcher,
	.create_flow = mlx5dm_sim_create_flow,
	.destroy_flow = mlx5dm_sim_destroy_flow,
};
