/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The E-Switch of a model PF with VFs: the uplink (the wire), the PF
 * (vport 0, the e-switch manager) and VFs 0..num_vfs-1 (vports 1..num_vfs),
 * each function an instance of its own with vhca_id = the PF's + vport.
 *
 * What the manager's firmware answers, as rdma-core's FDB domain reads it
 * (providers/mlx5/dr_domain.c dr_domain_query_fdb_caps, dr_domain_query_vport;
 * dr_devx.c dr_devx_query_esw_vport_context, dr_devx_query_gvmi):
 *   - QUERY_HCA_CAP: eswitch_manager, ESW_FLOW_TABLE (FDB sw_owner/_v2, the
 *     FDB drop and uplink ICM addresses), E_SWITCH (manager vport 0), and
 *     other_function = 1 with function_id = a vport for that function's
 *     general caps (its vhca_id, the vport's gvmi);
 *   - QUERY_ESW_VPORT_CONTEXT: sw_steering_vport_icm_address_rx/_tx;
 *   - FDB flow tables (CREATE_FLOW_TABLE table_type 4, sw_owner_icm_root_0
 *     the RX root, _1 the TX root) and SET_FLOW_TABLE_ROOT, which makes one
 *     the FDB's root: where the frames of the wire (RX) and of the
 *     functions (TX) enter, unless an FDB root rule (mlx5dm_sim_fw_root.c)
 *     names another.
 * All these addresses are terminals of the manager's ICM space (GVMI = its
 * vhca_id, as rdma-core's vport caps give vhca_gvmi = the domain's gvmi).
 *
 * Membership: a VF joins when it is created and leaves when destroyed; the
 * PF leaves first or last. The E-Switch object lives while a member does.
 * Its rwlock is held for reading by every burst that crosses it, for
 * writing by joins and leaves; it is taken before any instance lock.
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_sim_core.h"

#define MLX5DM_SIM_ESWC_IN_OTHER_VPORT  SIMF(0x040, 1)
#define MLX5DM_SIM_ESWC_IN_VPORT_NUMBER SIMF(0x050, 16)
/* esw_vport_context at out bit 0x80; the two ICM addresses at its bit 0x780. */
#define MLX5DM_SIM_ESWC_OUT_ICM_RX      SIMF(0x800, 64)
#define MLX5DM_SIM_ESWC_OUT_ICM_TX      SIMF(0x840, 64)
#define MLX5DM_SIM_QCAP_IN_FUNCTION_ID  SIMF(0x050, 16)

struct mlx5dm_sim_esw {
	pthread_rwlock_t lock;
	uint32_t refs;                  /* members, under mlx5dm_sim_esw_mutex */
	uint16_t num_vfs;
	struct mlx5dm_sim *fn[1 + MLX5DM_SIM_ESW_MAX_VFS]; /* by vport */
};

/* The switch's functions by vport: the PF's 0, then its VFs'. */
static inline uint16_t
mlx5dm_sim_esw_vport_of(uint16_t vf)
{
	return (uint16_t)(1 + vf);
}

/* Joins and leaves (rare): one lock for the reference counts of all switches. */
static pthread_mutex_t mlx5dm_sim_esw_mutex = PTHREAD_MUTEX_INITIALIZER;

int
mlx5dm_sim_esw_attach(struct mlx5dm_sim *sim)
{
	struct mlx5dm_sim_config *cfg = &sim->cfg;
	struct mlx5dm_sim *pf = cfg->esw_pf;
	struct mlx5dm_sim_esw *esw;
	int ret = 0;

	if (cfg->num_vfs > MLX5DM_SIM_ESW_MAX_VFS || (pf != NULL && cfg->num_vfs != 0)) {
		MLX5DM_LOG(ERR, MLX5DM_SIM_LOG, "bad model configuration: num_vfs 0..%u, "
			   "and none on a VF", MLX5DM_SIM_ESW_MAX_VFS);
		return -EINVAL;
	}
	if (pf == NULL && cfg->num_vfs == 0)
		return 0;
	if (pf == NULL) {
		esw = mlx5dm_zmalloc_socket(sizeof(*esw), sim->socket);
		if (esw == NULL)
			return -ENOMEM;
		pthread_rwlock_init(&esw->lock, NULL);
		esw->num_vfs = cfg->num_vfs;
		esw->fn[0] = sim;
		esw->refs = 1;
		sim->esw = esw;
		sim->vport = 0;
		return 0;
	}
	pthread_mutex_lock(&mlx5dm_sim_esw_mutex);
	esw = pf->esw;
	if (esw == NULL || pf->vport != 0 || cfg->vf >= esw->num_vfs) {
		MLX5DM_LOG(ERR, MLX5DM_SIM_LOG, "VF %u: the PF has no such VF", cfg->vf);
		ret = -EINVAL;
	} else if (esw->fn[mlx5dm_sim_esw_vport_of(cfg->vf)] != NULL) {
		MLX5DM_LOG(ERR, MLX5DM_SIM_LOG, "VF %u is already open", cfg->vf);
		ret = -EBUSY;
	} else {
		esw->refs++;
		sim->esw = esw;
		sim->vport = mlx5dm_sim_esw_vport_of(cfg->vf);
		/* The function's identity is the PF's to give. */
		cfg->vhca_id = (uint16_t)(pf->cfg.vhca_id + sim->vport);
		pthread_rwlock_wrlock(&esw->lock);
		esw->fn[sim->vport] = sim;
		pthread_rwlock_unlock(&esw->lock);
	}
	pthread_mutex_unlock(&mlx5dm_sim_esw_mutex);
	return ret;
}

void
mlx5dm_sim_esw_detach(struct mlx5dm_sim *sim)
{
	struct mlx5dm_sim_esw *esw = sim->esw;
	bool last;

	if (esw == NULL)
		return;
	pthread_rwlock_wrlock(&esw->lock);
	if (esw->fn[sim->vport] == sim)
		esw->fn[sim->vport] = NULL;
	pthread_rwlock_unlock(&esw->lock);
	pthread_mutex_lock(&mlx5dm_sim_esw_mutex);
	last = --esw->refs == 0;
	pthread_mutex_unlock(&mlx5dm_sim_esw_mutex);
	sim->esw = NULL;
	if (!last)
		return;
	pthread_rwlock_destroy(&esw->lock);
	mlx5dm_free(esw);
}

bool
mlx5dm_sim_esw_enter(struct mlx5dm_sim *sim, struct mlx5dm_sim_esw_view *v)
{
	struct mlx5dm_sim_esw *esw = sim->esw;

	if (esw == NULL)
		return false;
	pthread_rwlock_rdlock(&esw->lock);
	v->nfn = 1u + esw->num_vfs;
	memcpy(v->fn, esw->fn, v->nfn * sizeof(v->fn[0]));
	if (v->fn[0] != NULL)
		v->epoch = mlx5dm_sim_walk_enter(v->fn[0]);
	return true;
}

void
mlx5dm_sim_esw_exit(struct mlx5dm_sim *sim, const struct mlx5dm_sim_esw_view *v)
{
	if (v->fn[0] != NULL)
		mlx5dm_sim_walk_exit(v->fn[0], v->epoch);
	pthread_rwlock_unlock(&sim->esw->lock);
}

uint16_t
mlx5dm_sim_esw_vport(const struct mlx5dm_sim *sim)
{
	return sim->vport;
}

int
mlx5dm_sim_esw_vf_vport(const struct mlx5dm_sim *sim, uint16_t vf, uint16_t *vport)
{
	if (sim->esw == NULL || sim->vport != 0 || vf >= sim->esw->num_vfs)
		return -EINVAL;
	*vport = mlx5dm_sim_esw_vport_of(vf);
	return 0;
}

int
mlx5dm_sim_fdb_root_lookup(struct mlx5dm_sim *mgr, enum mlx5dm_sim_dir dir, uint64_t *icm_root)
{
	uint64_t v;

	if ((unsigned int)dir > MLX5DM_SIM_DIR_TX || !mlx5dm_sim_esw_manager(mgr))
		return -EINVAL;
	v = __atomic_load_n(&mgr->fdb_rule_root[dir], __ATOMIC_ACQUIRE);
	if (v == 0)
		v = __atomic_load_n(&mgr->fdb_root[dir], __ATOMIC_ACQUIRE);
	if (v == 0)
		return -ENOENT;
	*icm_root = v;
	return 0;
}

enum mlx5dm_sim_term
mlx5dm_sim_esw_terminal(const struct mlx5dm_sim *sim, uint64_t off, uint32_t *num)
{
	uint64_t n;

	if (!mlx5dm_sim_esw_manager(sim))
		return MLX5DM_SIM_TERM_NONE;
	switch (off) {
	case MLX5DM_SIM_TERM_FDB_DROP_RX_OFF:
	case MLX5DM_SIM_TERM_FDB_DROP_TX_OFF:
		return MLX5DM_SIM_TERM_DROP;
	case MLX5DM_SIM_TERM_UPLINK_RX_OFF:
		return MLX5DM_SIM_TERM_UPLINK_RX;
	case MLX5DM_SIM_TERM_UPLINK_TX_OFF:
		return MLX5DM_SIM_TERM_TX_WIRE;
	default:
		break;
	}
	if (off % 64 != 0)
		return MLX5DM_SIM_TERM_NONE;
	if (off >= MLX5DM_SIM_TERM_VPORT_RX_OFF && off < MLX5DM_SIM_TERM_VPORT_TX_OFF) {
		n = (off - MLX5DM_SIM_TERM_VPORT_RX_OFF) / 64;
		if (n <= sim->esw->num_vfs) {
			*num = (uint32_t)n;
			return MLX5DM_SIM_TERM_VPORT_RX;
		}
	} else if (off >= MLX5DM_SIM_TERM_VPORT_TX_OFF && off < MLX5DM_SIM_TERM_TIR_OFF) {
		n = (off - MLX5DM_SIM_TERM_VPORT_TX_OFF) / 64;
		if (n <= sim->esw->num_vfs) {
			*num = (uint32_t)n;
			return MLX5DM_SIM_TERM_VPORT_TX;
		}
	}
	return MLX5DM_SIM_TERM_NONE;
}

int
mlx5dm_sim_cmd_query_esw_vport_context(struct mlx5dm_sim_cmd *c)
{
	struct mlx5dm_sim *sim = c->sim;
	uint64_t vport = 0;

	if (!mlx5dm_sim_esw_manager(sim))
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "not an e-switch manager");
	if (mlx5dm_sim_in(c, MLX5DM_SIM_ESWC_IN_OTHER_VPORT))
		vport = mlx5dm_sim_in(c, MLX5DM_SIM_ESWC_IN_VPORT_NUMBER);
	if (vport > sim->esw->num_vfs)
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "no such vport");
	mlx5dm_sim_out(c, MLX5DM_SIM_ESWC_OUT_ICM_RX,
		       mlx5dm_sim_term_icm(sim, MLX5DM_SIM_TERM_VPORT_RX_OFF + 64 * vport));
	mlx5dm_sim_out(c, MLX5DM_SIM_ESWC_OUT_ICM_TX,
		       mlx5dm_sim_term_icm(sim, MLX5DM_SIM_TERM_VPORT_TX_OFF + 64 * vport));
	return MLX5DM_SIM_ST_OK;
}

int
mlx5dm_sim_esw_other_caps(struct mlx5dm_sim_cmd *c, unsigned int type)
{
	struct mlx5dm_sim *sim = c->sim;
	uint64_t vport = mlx5dm_sim_in(c, MLX5DM_SIM_QCAP_IN_FUNCTION_ID);
	uint8_t *cap = c->out + MLX5DM_SIM_QCAP_OUT_CAP_BYTE;

	if (!mlx5dm_sim_esw_manager(sim))
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "other_function: not an e-switch manager");
	if (vport > sim->esw->num_vfs)
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "other_function: no such function");
	if (type != MLX5DM_SIM_CAP_GENERAL)
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "other_function: only general caps");
	/* The functions are alike but for their identity. */
	memcpy(cap, sim->cap_blob[type], MLX5DM_SIM_CAP_BYTES);
	mlx5dm_prm_set64(cap, MLX5DM_SIM_GEN_VHCA_ID.bit, MLX5DM_SIM_GEN_VHCA_ID.width,
			 (uint16_t)(sim->cfg.vhca_id + vport));
	mlx5dm_prm_set64(cap, MLX5DM_SIM_GEN_ESWITCH_MANAGER.bit,
			 MLX5DM_SIM_GEN_ESWITCH_MANAGER.width, vport == 0);
	return MLX5DM_SIM_ST_OK;
}

int
mlx5dm_sim_cmd_set_ft_root(struct mlx5dm_sim_cmd *c)
{
	struct mlx5dm_sim *sim = c->sim;
	uint32_t id = (uint32_t)mlx5dm_sim_in(c, MLX5DM_SIM_FT_IN_TABLE_ID);
	struct mlx5dm_sim_obj *o = NULL;
	uint64_t rx = 0, tx = 0;

	if (mlx5dm_sim_in(c, MLX5DM_SIM_FT_IN_TABLE_TYPE) != MLX5DM_SIM_FT_FDB)
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "only the FDB root is modelled");
	if (!mlx5dm_sim_esw_manager(sim))
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "FDB: not an e-switch manager");
	if (mlx5dm_sim_in(c, MLX5DM_SIM_FT_IN_OTHER_VPORT))
		return MLX5DM_SIM_FAIL(c, BAD_PARAM, "other_vport not supported");
	/* Table 0: back to no root (frames of the functions to the wire, of the wire to the PF). */
	if (id != 0) {
		o = mlx5dm_sim_obj_get(sim, MLX5DM_SIM_K_FT, id);
		if (!mlx5dm_sim_ft_fdb_roots(o, &rx, &tx))
			return MLX5DM_SIM_FAIL(c, BAD_PARAM, "not a SW-owned FDB flow table");
		o->refs++;
	}
	if (sim->fdb_root_ft != NULL)
		sim->fdb_root_ft->refs--;
	sim->fdb_root_ft = o;
	__atomic_store_n(&sim->fdb_root[MLX5DM_SIM_DIR_RX], rx, __ATOMIC_RELEASE);
	__atomic_store_n(&sim->fdb_root[MLX5DM_SIM_DIR_TX], tx, __ATOMIC_RELEASE);
	return MLX5DM_SIM_ST_OK;
}
