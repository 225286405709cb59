/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The model instance: configuration, capabilities as configured, the
 * verbs context handed to the caller, the engine, teardown, and the
 * SYNC_STEERING grace period over packet walks.
 */

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "mlx5dm_sim_core.h"

void
mlx5dm_sim_config_default(struct mlx5dm_sim_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->steering_format_version = 1;       /* ConnectX-6 Dx: STE v1 */
	cfg->vhca_id = 1;                       /* like PF1: a non-zero GVMI */
	cfg->log_steering_sw_icm_size = 29;     /* 512 MiB, reserved lazily */
	cfg->log_header_modify_sw_icm_size = 24;
	cfg->log_header_modify_pattern_sw_icm_size = 20;
	cfg->log_indirect_encap_sw_icm_size = 20;
	cfg->log_sw_icm_alloc_granularity = 12; /* 4 KiB blocks */
	cfg->header_modify_argument = true;
	cfg->log_max_ft_level = 64;             /* reported as max_ft_level */
	cfg->max_encap_header_size = 128;
	cfg->wqe_inline_l2 = true;
}

static bool
mlx5dm_sim_log_ok(uint8_t log, uint8_t gran, bool optional)
{
	if (log == 0)
		return optional;
	return log >= gran && log <= MLX5DM_SIM_WINDOW_SHIFT;
}

static int
mlx5dm_sim_config_check(const struct mlx5dm_sim_config *c)
{
	const char *bad = NULL;

	if (c->steering_format_version > 3)
		bad = "steering_format_version must be 0..3";
	else if (c->log_sw_icm_alloc_granularity < 6 || c->log_sw_icm_alloc_granularity > 24)
		bad = "log_sw_icm_alloc_granularity must be 6..24";
	else if (!mlx5dm_sim_log_ok(c->log_steering_sw_icm_size,
				    c->log_sw_icm_alloc_granularity, false) ||
		 !mlx5dm_sim_log_ok(c->log_header_modify_sw_icm_size,
				    c->log_sw_icm_alloc_granularity, false) ||
		 !mlx5dm_sim_log_ok(c->log_header_modify_pattern_sw_icm_size,
				    c->log_sw_icm_alloc_granularity, true) ||
		 !mlx5dm_sim_log_ok(c->log_indirect_encap_sw_icm_size,
				    c->log_sw_icm_alloc_granularity, true))
		bad = "ICM log sizes must be granularity..36 (pattern/encap may be 0)";
	else if (c->log_max_ft_level == 0)
		bad = "max_ft_level must be >= 1";
	else if (c->max_encap_header_size > 1023)
		bad = "max_encap_header_size is a 10-bit field";
	else if (c->log_max_objects != 0 && (c->log_max_objects < 6 || c->log_max_objects > 16))
		bad = "log_max_objects must be 6..16 (or 0)";
	else if (c->log_max_flow_counters != 0 &&
		 (c->log_max_flow_counters < 8 ||
		  c->log_max_flow_counters > MLX5DM_SIM_FC_LOG_MAX))
		bad = "log_max_flow_counters must be 8..20 (or 0)";
	if (bad == NULL)
		return 0;
	MLX5DM_LOG(ERR, MLX5DM_SIM_LOG, "bad model configuration: %s", bad);
	return -EINVAL;
}

uint64_t
mlx5dm_sim_term_icm(const struct mlx5dm_sim *sim, uint64_t off)
{
	return ((uint64_t)sim->cfg.vhca_id << 48) |
	       ((uint64_t)MLX5DM_SIM_TERM_WINDOW << MLX5DM_SIM_WINDOW_SHIFT) | off;
}

uint64_t
mlx5dm_sim_tir_icm(const struct mlx5dm_sim *sim, uint32_t tirn)
{
	return mlx5dm_sim_term_icm(sim, MLX5DM_SIM_TERM_TIR_OFF + (uint64_t)tirn * 64);
}

static void
mlx5dm_sim_caps_fill(struct mlx5dm_sim *sim)
{
	struct mlx5dm_sim_caps *c = &sim->caps;

	c->vhca_id = sim->cfg.vhca_id;
	c->steering_format_version = sim->cfg.steering_format_version;
	/* Terminal addresses carry the GVMI in 63:48, as the device reports them. */
	c->nic_rx_drop_icm_addr = mlx5dm_sim_term_icm(sim, MLX5DM_SIM_TERM_RX_DROP_OFF);
	c->nic_tx_drop_icm_addr = mlx5dm_sim_term_icm(sim, MLX5DM_SIM_TERM_TX_DROP_OFF);
	c->nic_tx_allow_icm_addr = mlx5dm_sim_term_icm(sim, MLX5DM_SIM_TERM_TX_ALLOW_OFF);
	/* DM start addresses carry no GVMI: STE pointers hold bits 39:0 only. */
	c->steering_sw_icm_start = sim->region[MLX5DM_SIM_REGION_STE].icm_start;
	c->header_modify_sw_icm_start = sim->region[MLX5DM_SIM_REGION_MODIFY].icm_start;
	c->header_modify_pattern_sw_icm_start = sim->region[MLX5DM_SIM_REGION_PATTERN].icm_start;
	c->indirect_encap_icm_base = sim->region[MLX5DM_SIM_REGION_ENCAP].icm_start;
	c->indirect_encap_sw_icm = sim->cfg.log_indirect_encap_sw_icm_size != 0;
}

/* Id bases: realistic-looking, distinct per kind so mixed-up ids fail. */
static const uint32_t mlx5dm_sim_id_base[MLX5DM_SIM_K_NUM] = {
	[MLX5DM_SIM_K_PD] = 0x10, [MLX5DM_SIM_K_MR] = 0x100, [MLX5DM_SIM_K_DM] = 0x1,
	[MLX5DM_SIM_K_UMEM] = 0x40, [MLX5DM_SIM_K_UAR] = 0x80, [MLX5DM_SIM_K_CQ] = 0x400,
	[MLX5DM_SIM_K_QP] = 0x1100, [MLX5DM_SIM_K_TD] = 0x20, [MLX5DM_SIM_K_RQ] = 0x2200,
	[MLX5DM_SIM_K_RQT] = 0x30, [MLX5DM_SIM_K_TIR] = 0x3300, [MLX5DM_SIM_K_FT] = 0x4,
	[MLX5DM_SIM_K_FG] = 0x50, [MLX5DM_SIM_K_FTE] = 0x1, [MLX5DM_SIM_K_FC] = 0x1,
	[MLX5DM_SIM_K_ARG] = 0x1, [MLX5DM_SIM_K_PRC] = 0x600, [MLX5DM_SIM_K_TIS] = 0x70,
	[MLX5DM_SIM_K_SQ] = 0x5500,
};

struct mlx5dm_sim *
mlx5dm_sim_create(const struct mlx5dm_sim_config *cfg, int socket)
{
	pthread_rwlockattr_t ra;
	struct mlx5dm_sim *sim;
	unsigned int k;
	static uint32_t instances;
	static uint64_t epochs;
	int ret;

	sim = mlx5dm_aligned_zmalloc_socket(sizeof(*sim), 64, socket);
	if (sim == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	sim->socket = socket;
	/* Line versions of a new instance at the address of a gone one differ from its. */
	sim->icm_epoch = __atomic_add_fetch(&epochs, 1ull << 32, __ATOMIC_RELAXED);
	if (cfg != NULL)
		sim->cfg = *cfg;
	else
		mlx5dm_sim_config_default(&sim->cfg);
	ret = mlx5dm_sim_config_check(&sim->cfg);
	if (ret != 0)
		goto free_sim;
	/* Writers first: a stream of packet walks must not starve commands. */
	pthread_rwlockattr_init(&ra);
	pthread_rwlockattr_setkind_np(&ra, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	pthread_rwlock_init(&sim->lock, &ra);
	pthread_rwlockattr_destroy(&ra);
	pthread_mutex_init(&sim->sync.mutex, NULL);
	pthread_mutex_init(&sim->dt.exec, NULL);
	for (k = 0; k < MLX5DM_SIM_K_NUM; k++)
		mlx5dm_sim_id_table_init(&sim->tab[k], mlx5dm_sim_id_base[k],
					 1u << (sim->cfg.log_max_objects != 0 ?
						sim->cfg.log_max_objects : 16), socket);
	ret = mlx5dm_sim_esw_attach(sim);
	if (ret != 0)
		goto fini;
	ret = mlx5dm_sim_icm_init(sim);
	if (ret != 0)
		goto fini;
	ret = mlx5dm_sim_bitmap_init(&sim->fc_ids, 1u << (sim->cfg.log_max_flow_counters != 0 ?
							  sim->cfg.log_max_flow_counters :
							  MLX5DM_SIM_FC_LOG_MAX), socket);
	if (ret != 0)
		goto fini;
	/* Counter id 0..127 and argument units 0..4095 are never handed out. */
	mlx5dm_sim_bitmap_set(&sim->fc_ids, 0, 128, true);
	ret = mlx5dm_sim_prc_init(sim);
	if (ret != 0)
		goto fini;
	if (sim->region[MLX5DM_SIM_REGION_ARG].size != 0)
		mlx5dm_sim_bitmap_set(&sim->region[MLX5DM_SIM_REGION_ARG].blocks, 0, 4096, true);
	mlx5dm_sim_caps_fill(sim);
	ret = mlx5dm_sim_caps_build(sim);
	if (ret != 0)
		goto fini;
	snprintf(sim->ibdev.name, sizeof(sim->ibdev.name), "mlx5dm_sim%u",
		 __atomic_fetch_add(&instances, 1, __ATOMIC_RELAXED));
	sim->ibdev.node_type = IBV_NODE_CA;
	sim->ibdev.transport_type = IBV_TRANSPORT_IB;
	sim->vctx.sz = sizeof(sim->vctx);
	sim->vctx.context.abi_compat = __VERBS_ABI_IS_EXTENDED;
	sim->vctx.context.device = &sim->ibdev;
	sim->vctx.context.cmd_fd = -1;
	sim->vctx.context.async_fd = -1;
	sim->vctx.context.num_comp_vectors = MLX5DM_SIM_COMP_VECTORS;
	pthread_mutex_init(&sim->vctx.context.mutex, NULL);
	sim->engine = mlx5dm_sim_engine_create(sim, socket);
	if (sim->engine == NULL) {
		ret = errno != 0 ? -errno : -ENOMEM;
		goto fini;
	}
	ret = mlx5dm_sim_thread_start(sim);
	if (ret != 0)
		goto fini;
	return sim;
fini:
	mlx5dm_sim_destroy(sim);
	errno = -ret;
	return NULL;
free_sim:
	mlx5dm_free(sim);
	errno = -ret;
	return NULL;
}

void
mlx5dm_sim_destroy(struct mlx5dm_sim *sim)
{
	unsigned int k, i;

	if (sim == NULL)
		return;
	mlx5dm_sim_thread_stop(sim);
	/* No burst crosses to this function from here on. */
	mlx5dm_sim_esw_detach(sim);
	if (sim->engine != NULL) {
		/* A cabled peer keeps a cable to nowhere (its frames are lost), as a real one. */
		mlx5dm_sim_engine_destroy(sim->engine);
		sim->engine = NULL;
	}
	mlx5dm_sim_note_left_behind(sim);
	mlx5dm_sim_root_free_all(sim);
	/* Whatever the caller left behind goes with the device, as on a reset. */
	for (k = 0; k < MLX5DM_SIM_K_NUM; k++) {
		struct mlx5dm_sim_id_table *t = &sim->tab[k];

		for (i = 0; i < t->cap; i++) {
			void *o = t->slot[i];

			if (o == NULL)
				continue;
			if (k == MLX5DM_SIM_K_UAR)
				mlx5dm_sim_uar_release(sim, o);
			mlx5dm_sim_obj_free(sim, o);
		}
		mlx5dm_sim_id_table_fini(t);
	}
	mlx5dm_sim_fc_free_all(sim);
	mlx5dm_sim_bitmap_fini(&sim->fc_ids);
	mlx5dm_sim_prc_fini(sim);
	mlx5dm_sim_caps_free(sim);
	mlx5dm_sim_icm_fini(sim);
	pthread_rwlock_destroy(&sim->lock);
	pthread_mutex_destroy(&sim->sync.mutex);
	pthread_mutex_destroy(&sim->dt.exec);
	pthread_mutex_destroy(&sim->vctx.context.mutex);
	mlx5dm_free(sim);
}

struct ibv_context *
mlx5dm_sim_context(struct mlx5dm_sim *sim)
{
	return &sim->vctx.context;
}

struct mlx5dm_sim_engine *
mlx5dm_sim_engine_of(struct mlx5dm_sim *sim)
{
	return sim->engine;
}

int
mlx5dm_sim_wire_connect(struct mlx5dm_sim *sim_a, uint16_t a, struct mlx5dm_sim *sim_b,
			uint16_t b)
{
	if (sim_a == NULL || sim_b == NULL)
		return -EINVAL;
	/* A VF has no uplink: its frames leave by the PF's. */
	if ((sim_a->esw != NULL && sim_a->vport != 0) || (sim_b->esw != NULL && sim_b->vport != 0))
		return -EINVAL;
	return mlx5dm_sim_engine_wire_connect(sim_a->engine, a, sim_b->engine, b);
}

int
mlx5dm_sim_port_stats_get(struct mlx5dm_sim *sim, uint16_t port,
			  struct mlx5dm_dev_port_stats *st)
{
	if (sim == NULL || st == NULL)
		return -EINVAL;
	return mlx5dm_sim_engine_port_stats(sim->engine, port, st);
}

void
mlx5dm_sim_trace_set(struct mlx5dm_sim *sim, mlx5dm_sim_trace_fn fn, void *arg)
{
	if (sim != NULL)
		mlx5dm_sim_engine_trace_set(sim->engine, fn, arg);
}

/*
 * Grace period for SYNC_STEERING. Every engine walk (one port_tx call)
 * registers in the current epoch; a sync flips the epoch and waits until
 * the walks of the old one have finished, so when SYNC_STEERING returns no
 * walk that could still hold a pointer into memory the caller is about to
 * reuse is running. New walks are not held back.
 */
uint32_t
mlx5dm_sim_walk_enter(struct mlx5dm_sim *sim)
{
	for (;;) {
		uint32_t e = __atomic_load_n(&sim->sync.epoch, __ATOMIC_ACQUIRE);

		__atomic_fetch_add(&sim->sync.inflight[e & 1], 1, __ATOMIC_SEQ_CST);
		if (__atomic_load_n(&sim->sync.epoch, __ATOMIC_SEQ_CST) == e)
			return e;
		__atomic_fetch_sub(&sim->sync.inflight[e & 1], 1, __ATOMIC_RELEASE);
	}
}

void
mlx5dm_sim_walk_exit(struct mlx5dm_sim *sim, uint32_t epoch)
{
	__atomic_fetch_sub(&sim->sync.inflight[epoch & 1], 1, __ATOMIC_RELEASE);
}

void
mlx5dm_sim_sync_wait(struct mlx5dm_sim *sim)
{
	uint32_t old;

	pthread_mutex_lock(&sim->sync.mutex);
	old = __atomic_fetch_add(&sim->sync.epoch, 1, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(&sim->sync.inflight[old & 1], __ATOMIC_ACQUIRE) != 0)
		sched_yield();
	pthread_mutex_unlock(&sim->sync.mutex);
}

int
mlx5dm_sim_cmd_sync_steering(struct mlx5dm_sim_cmd *c)
{
	/*
	 * ICM writes are visible at once (a cache of decoded lines checks
	 * their versions); what remains is the walk fence. The versions move
	 * all the same: SYNC_STEERING is where a device drops its cache.
	 */
	__atomic_fetch_add(&c->sim->icm_epoch, 1, __ATOMIC_RELEASE);
	mlx5dm_sim_sync_wait(c->sim);
	return MLX5DM_SIM_ST_OK;
}
