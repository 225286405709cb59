/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The model's side of the device boundary: mlx5dm_sim_dev_ops and the
 * "sim" transport, which joins lib/dev's registry when the model is loaded.
 *
 * Every rdma-core-named entry behaves like the rdma-core function it
 * stands for (return values included: int entries return 0 or a positive
 * errno and set errno; creators return NULL with errno). Packets travel
 * through the datapath queues, which the device thread runs
 * (mlx5dm_sim_thread.c).
 */

#include <errno.h>

#include "mlx5dm_sim_core.h"

/* The model has one uplink per instance. */
static int
mlx5dm_sim_ops_wire_connect(struct ibv_context *a, struct ibv_context *b)
{
	return mlx5dm_sim_wire_connect(mlx5dm_sim_from_ctx(a), 0, mlx5dm_sim_from_ctx(b), 0);
}

static int
mlx5dm_sim_ops_port_stats(struct ibv_context *ctx, struct mlx5dm_dev_port_stats *stats)
{
	return mlx5dm_sim_port_stats_get(mlx5dm_sim_from_ctx(ctx), 0, stats);
}

/* The switch's stamp (mlx5dm_sim_engine_esw.c), on a PF that manages one. */
static int
mlx5dm_sim_ops_vport_reg_c0(struct ibv_context *ctx, uint16_t vport, uint32_t *value,
			    uint32_t *mask)
{
	struct mlx5dm_sim *sim = mlx5dm_sim_from_ctx(ctx);

	if (sim->cfg.num_vfs == 0 ||
	    (vport != MLX5DM_SIM_VPORT_UPLINK && vport > sim->cfg.num_vfs))
		return -EINVAL;
	*value = mlx5dm_sim_esw_reg_c0(vport);
	*mask = 0xffff0000u;
	return 0;
}

/* The vport its E-Switch gives VF vf (mlx5dm_sim_esw.c). */
static int
mlx5dm_sim_ops_vf_vport(struct ibv_context *ctx, uint16_t vf, uint16_t *vport)
{
	return mlx5dm_sim_esw_vf_vport(mlx5dm_sim_from_ctx(ctx), vf, vport);
}

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
	.wire_connect = mlx5dm_sim_ops_wire_connect,
	.port_stats = mlx5dm_sim_ops_port_stats,
	.vport_reg_c0 = mlx5dm_sim_ops_vport_reg_c0,
	.vf_vport = mlx5dm_sim_ops_vf_vport,
};

/* attr->config is the whole configuration; without it, defaults and attr's fields. */
static int
mlx5dm_sim_transport_open(struct mlx5dm_dev *dev, const struct mlx5dm_dev_attr *attr)
{
	struct mlx5dm_sim_config cfg;
	struct mlx5dm_sim *sim;

	if (attr->config != NULL) {
		cfg = *(const struct mlx5dm_sim_config *)attr->config;
	} else {
		mlx5dm_sim_config_default(&cfg);
		if (attr->vhca_id != 0)
			cfg.vhca_id = attr->vhca_id;
		if (attr->mac != 0)
			cfg.vport_mac = attr->mac;
		cfg.icm_populate = attr->icm_resident;
		if (attr->log_steering_icm_size != 0)
			cfg.log_steering_sw_icm_size = attr->log_steering_icm_size;
		cfg.num_vfs = attr->num_vfs;
		cfg.vf = attr->vf;
		if (attr->esw_manager != NULL) {
			cfg.esw_pf = mlx5dm_sim_of(attr->esw_manager);
			if (cfg.esw_pf == NULL) {
				MLX5DM_LOG(ERR, MLX5DM_SIM_LOG, "VF %u: its PF is no model device",
					   attr->vf);
				return -EINVAL;
			}
		}
	}
	sim = mlx5dm_sim_create(&cfg, dev->socket);
	if (sim == NULL) {
		MLX5DM_LOG(ERR, MLX5DM_SIM_LOG, "cannot create the device model (errno %d)", errno);
		return -errno;
	}
	dev->ops = &mlx5dm_sim_dev_ops;
	dev->ctx = mlx5dm_sim_context(sim);
	dev->priv = sim;
	return 0;
}

static void
mlx5dm_sim_transport_close(struct mlx5dm_dev *dev)
{
	mlx5dm_sim_destroy(dev->priv);
}

const struct mlx5dm_dev_transport mlx5dm_sim_transport = {
	.name = "sim",
	.dm_types = 1u << MLX5DV_DM_TYPE_STEERING_SW_ICM |
		    1u << MLX5DV_DM_TYPE_HEADER_MODIFY_SW_ICM |
		    1u << MLX5DV_DM_TYPE_HEADER_MODIFY_PATTERN_SW_ICM |
		    1u << MLX5DV_DM_TYPE_ENCAP_SW_ICM,
	.open = mlx5dm_sim_transport_open,
	.close = mlx5dm_sim_transport_close,
};

/* At load time, before any open (lib/meson.build makes static links keep this object). */
static void MLX5DM_CONSTRUCTOR
mlx5dm_sim_transport_join(void)
{
	mlx5dm_dev_transport_register(&mlx5dm_sim_transport);
}

struct mlx5dm_sim *
mlx5dm_sim_of(const struct mlx5dm_dev *dev)
{
	return dev != NULL && dev->transport == &mlx5dm_sim_transport ? dev->priv : NULL;
}
