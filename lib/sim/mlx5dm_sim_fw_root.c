/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The root flow table of NIC RX, NIC TX and (on an E-Switch manager) the
 * FDB, owned by the kernel/firmware on hardware and reached through
 * mlx5dv_create_flow_matcher/create_flow. It is how traffic enters a
 * SW-owned table (rdma-core dr_action.c, dr_actions_build_attr(); an FDB
 * domain's level-0 rules are FDB root rules, dr_rule.c).
 *
 * Modelled: matchers with an empty mask (match everything) and rules with
 * exactly one fate action: MLX5DV_FLOW_ACTION_DEST_DEVX to a flow table
 * DEVX object of the same type (or, on NIC RX, a TIR), or
 * MLX5DV_FLOW_ACTION_DROP. An FDB rule gives both FDB entries: its table's
 * RX and TX roots; while one exists it takes precedence over the table
 * SET_FLOW_TABLE_ROOT named (mlx5dm_sim_esw.c). A matcher with a non-empty mask fails with
 * EOPNOTSUPP: the model does not classify packets outside the STEs it walks.
 *
 * The entry point a packet takes is the rule with the lowest priority value
 * (oldest first among equals); it is cached per direction so the datapath
 * reads one 64-bit word. The cached address is the SW table's
 * sw_owner_icm_root_0, or a terminal address (drop, TIR, FW table root)
 * that mlx5dm_sim_terminal_lookup resolves.
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_sim_core.h"

#define MLX5DM_SIM_MATCHER_MAGIC 0x4d415443u
#define MLX5DM_SIM_FLOW_MAGIC 0x464c4f57u

/* Root tables: NIC RX and NIC TX (by enum mlx5dm_sim_dir), then the FDB. */
#define MLX5DM_SIM_ROOT_FDB 2

struct mlx5dm_sim_matcher {
	uint32_t magic;
	struct mlx5dm_sim *sim;
	enum mlx5dm_sim_dir dir;
	uint8_t table;             /* MLX5DM_SIM_DIR_RX/TX or MLX5DM_SIM_ROOT_FDB */
	uint16_t priority;
	size_t match_sz;
	uint32_t nflows;
};

struct mlx5dm_sim_root_flow {
	struct ibv_flow flow;
	uint32_t magic;
	struct mlx5dm_sim_matcher *m;
	struct mlx5dm_sim_obj *dest;   /* NULL for DROP */
	uint64_t icm;
	uint64_t icm_tx;               /* FDB: the TX side's entry (icm: the RX side's) */
	uint64_t seq;
};

struct mlx5dm_sim_root {
	struct mlx5dm_sim_root_flow **v;
	uint32_t n, cap;
	uint64_t seq;
};

static void
mlx5dm_sim_root_recompute(struct mlx5dm_sim *sim)
{
	struct mlx5dm_sim_root *r = sim->root_rules;
	struct mlx5dm_sim_root_flow *best[3] = { NULL, NULL, NULL };
	struct mlx5dm_sim_root_flow *fdb;
	uint32_t i, d;

	for (i = 0; r != NULL && i < r->n; i++) {
		struct mlx5dm_sim_root_flow *f = r->v[i];
		struct mlx5dm_sim_root_flow **b = &best[f->m->table];

		if (*b == NULL || f->m->priority < (*b)->m->priority ||
		    (f->m->priority == (*b)->m->priority && f->seq < (*b)->seq))
			*b = f;
	}
	for (d = 0; d < 2; d++)
		__atomic_store_n(&sim->root_cache[d], best[d] != NULL ? best[d]->icm : 0,
				 __ATOMIC_RELEASE);
	fdb = best[MLX5DM_SIM_ROOT_FDB];
	__atomic_store_n(&sim->fdb_rule_root[MLX5DM_SIM_DIR_RX], fdb != NULL ? fdb->icm : 0,
			 __ATOMIC_RELEASE);
	__atomic_store_n(&sim->fdb_rule_root[MLX5DM_SIM_DIR_TX], fdb != NULL ? fdb->icm_tx : 0,
			 __ATOMIC_RELEASE);
}

int
mlx5dm_sim_root_lookup(struct mlx5dm_sim *sim, enum mlx5dm_sim_dir dir, uint64_t *icm_root)
{
	uint64_t v;

	if ((unsigned int)dir > MLX5DM_SIM_DIR_TX)
		return -EINVAL;
	v = __atomic_load_n(&sim->root_cache[dir], __ATOMIC_ACQUIRE);
	if (v == 0)
		return -ENOENT;
	*icm_root = v;
	return 0;
}

struct mlx5dv_flow_matcher *
mlx5dm_sim_create_flow_matcher(struct ibv_context *ctx, struct mlx5dv_flow_matcher_attr *attr)
{
	struct mlx5dm_sim *sim = mlx5dm_sim_from_ctx(ctx);
	struct mlx5dm_sim_matcher *m;
	unsigned int ft = MLX5DV_FLOW_TABLE_TYPE_NIC_RX;
	size_t i;

	if (attr == NULL || attr->match_mask == NULL || attr->type != IBV_FLOW_ATTR_NORMAL ||
	    (attr->comp_mask & ~(uint64_t)MLX5DV_FLOW_MATCHER_MASK_FT_TYPE) != 0) {
		errno = EINVAL;
		return NULL;
	}
	if (attr->comp_mask & MLX5DV_FLOW_MATCHER_MASK_FT_TYPE)
		ft = attr->ft_type;
	if (ft == MLX5DV_FLOW_TABLE_TYPE_FDB && !mlx5dm_sim_esw_manager(sim)) {
		MLX5DM_LOG(NOTICE, MLX5DM_SIM_LOG, "root matcher: FDB on no e-switch manager");
		errno = EOPNOTSUPP;
		return NULL;
	}
	if (ft != MLX5DV_FLOW_TABLE_TYPE_NIC_RX && ft != MLX5DV_FLOW_TABLE_TYPE_NIC_TX &&
	    ft != MLX5DV_FLOW_TABLE_TYPE_FDB) {
		MLX5DM_LOG(NOTICE, MLX5DM_SIM_LOG, "root matcher: ft_type %u not modelled", ft);
		errno = EOPNOTSUPP;
		return NULL;
	}
	for (i = 0; i < attr->match_mask->match_sz; i++) {
		if (((const uint8_t *)attr->match_mask->match_buf)[i] != 0) {
			MLX5DM_LOG(NOTICE, MLX5DM_SIM_LOG,
				   "root matcher: only an empty (match-all) mask is modelled");
			errno = EOPNOTSUPP;
			return NULL;
		}
	}
	m = mlx5dm_zmalloc_socket(sizeof(*m), sim->socket);
	if (m == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	m->magic = MLX5DM_SIM_MATCHER_MAGIC;
	m->sim = sim;
	m->dir = ft == MLX5DV_FLOW_TABLE_TYPE_NIC_TX ? MLX5DM_SIM_DIR_TX : MLX5DM_SIM_DIR_RX;
	m->table = ft == MLX5DV_FLOW_TABLE_TYPE_FDB ? MLX5DM_SIM_ROOT_FDB : (uint8_t)m->dir;
	m->priority = attr->priority;
	m->match_sz = attr->match_mask->match_sz;
	__atomic_add_fetch(&sim->root_matchers, 1, __ATOMIC_RELAXED);
	return (struct mlx5dv_flow_matcher *)m;
}

int
mlx5dm_sim_destroy_flow_matcher(struct mlx5dv_flow_matcher *matcher)
{
	struct mlx5dm_sim_matcher *m = (struct mlx5dm_sim_matcher *)matcher;

	if (m == NULL || m->magic != MLX5DM_SIM_MATCHER_MAGIC)
		return errno = EINVAL;
	if (__atomic_load_n(&m->nflows, __ATOMIC_RELAXED) != 0)
		return errno = EBUSY;
	m->magic = 0;
	__atomic_sub_fetch(&m->sim->root_matchers, 1, __ATOMIC_RELAXED);
	mlx5dm_free(m);
	return 0;
}

/* The fate of an FDB root rule: its RX and TX entries. */
static int
mlx5dm_sim_root_fdb_fate(struct mlx5dm_sim *sim, struct mlx5dv_flow_action_attr *a,
			 struct mlx5dm_sim_root_flow *f)
{
	if (a->type == MLX5DV_FLOW_ACTION_DROP) {
		f->icm = mlx5dm_sim_term_icm(sim, MLX5DM_SIM_TERM_FDB_DROP_RX_OFF);
		f->icm_tx = mlx5dm_sim_term_icm(sim, MLX5DM_SIM_TERM_FDB_DROP_TX_OFF);
		return 0;
	}
	if (a->type != MLX5DV_FLOW_ACTION_DEST_DEVX)
		return EOPNOTSUPP;
	f->dest = mlx5dm_sim_obj_check(a->obj, MLX5DM_SIM_K_FT);
	if (f->dest == NULL || f->dest->sim != sim ||
	    !mlx5dm_sim_ft_fdb_roots(f->dest, &f->icm, &f->icm_tx))
		return EINVAL;
	return 0;
}

/* The single fate of a root rule: 0, or an errno value. */
static int
mlx5dm_sim_root_fate(struct mlx5dm_sim *sim, struct mlx5dm_sim_matcher *m, size_t n,
		     struct mlx5dv_flow_action_attr *a, struct mlx5dm_sim_root_flow *f)
{
	unsigned int type = m->dir == MLX5DM_SIM_DIR_TX ? MLX5DM_SIM_FT_NIC_TX :
			    MLX5DM_SIM_FT_NIC_RX;

	if (n != 1 || a == NULL)
		return EOPNOTSUPP; /* one fate action, nothing else, is modelled */
	if (m->table == MLX5DM_SIM_ROOT_FDB)
		return mlx5dm_sim_root_fdb_fate(sim, a, f);
	if (a->type == MLX5DV_FLOW_ACTION_DROP) {
		f->icm = m->dir == MLX5DM_SIM_DIR_TX ? sim->caps.nic_tx_drop_icm_addr :
						       sim->caps.nic_rx_drop_icm_addr;
		return 0;
	}
	if (a->type != MLX5DV_FLOW_ACTION_DEST_DEVX)
		return EOPNOTSUPP;
	f->dest = mlx5dm_sim_obj_check(a->obj, MLX5DM_SIM_K_FT);
	if (f->dest != NULL)
		return f->dest->sim == sim && mlx5dm_sim_ft_is(f->dest, type, &f->icm) ? 0 : EINVAL;
	f->dest = mlx5dm_sim_obj_check(a->obj, MLX5DM_SIM_K_TIR);
	if (f->dest != NULL && f->dest->sim == sim && m->dir == MLX5DM_SIM_DIR_RX) {
		f->icm = mlx5dm_sim_tir_icm(sim, f->dest->id);
		return 0;
	}
	return EINVAL;
}

struct ibv_flow *
mlx5dm_sim_create_flow(struct mlx5dv_flow_matcher *matcher,
		       struct mlx5dv_flow_match_parameters *match_value, size_t num_actions,
		       struct mlx5dv_flow_action_attr actions_attr[])
{
	struct mlx5dm_sim_matcher *m = (struct mlx5dm_sim_matcher *)matcher;
	struct mlx5dm_sim_root_flow *f;
	struct mlx5dm_sim_root *r;
	struct mlx5dm_sim *sim;
	int ret;

	if (m == NULL || m->magic != MLX5DM_SIM_MATCHER_MAGIC || match_value == NULL ||
	    match_value->match_sz != m->match_sz) {
		errno = EINVAL;
		return NULL;
	}
	sim = m->sim;
	f = mlx5dm_zmalloc_socket(sizeof(*f), sim->socket);
	if (f == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	pthread_rwlock_wrlock(&sim->lock);
	ret = mlx5dm_sim_root_fate(sim, m, num_actions, actions_attr, f);
	r = sim->root_rules;
	if (ret == 0 && r == NULL) {
		r = mlx5dm_zmalloc_socket(sizeof(*r), sim->socket);
		sim->root_rules = r;
		ret = r == NULL ? ENOMEM : 0;
	}
	if (ret == 0 && r->n == r->cap) {
		uint32_t ncap = r->cap == 0 ? 8 : r->cap * 2;
		struct mlx5dm_sim_root_flow **nv;

		nv = mlx5dm_calloc_socket(ncap, sizeof(*nv), sim->socket);
		if (nv == NULL) {
			ret = ENOMEM;
		} else {
			if (r->n != 0)
				memcpy(nv, r->v, r->n * sizeof(*nv));
			mlx5dm_free(r->v);
			r->v = nv;
			r->cap = ncap;
		}
	}
	if (ret == 0) {
		f->magic = MLX5DM_SIM_FLOW_MAGIC;
		f->m = m;
		f->seq = r->seq++;
		f->flow.context = &sim->vctx.context;
		f->flow.handle = (uint32_t)f->seq;
		r->v[r->n++] = f;
		if (f->dest != NULL)
			f->dest->refs++;
		m->nflows++;
		mlx5dm_sim_root_recompute(sim);
	}
	pthread_rwlock_unlock(&sim->lock);
	if (ret != 0) {
		mlx5dm_free(f);
		errno = ret;
		return NULL;
	}
	return &f->flow;
}

int
mlx5dm_sim_destroy_flow(struct ibv_flow *flow)
{
	struct mlx5dm_sim_root_flow *f = (struct mlx5dm_sim_root_flow *)flow;
	struct mlx5dm_sim_root *r;
	struct mlx5dm_sim *sim;
	uint32_t i;

	if (f == NULL || f->magic != MLX5DM_SIM_FLOW_MAGIC)
		return errno = EINVAL;
	sim = f->m->sim;
	pthread_rwlock_wrlock(&sim->lock);
	r = sim->root_rules;
	for (i = 0; i < r->n; i++) {
		if (r->v[i] == f) {
			r->v[i] = r->v[--r->n];
			break;
		}
	}
	if (f->dest != NULL)
		f->dest->refs--;
	f->m->nflows--;
	mlx5dm_sim_root_recompute(sim);
	pthread_rwlock_unlock(&sim->lock);
	f->magic = 0;
	mlx5dm_free(f);
	return 0;
}

void
mlx5dm_sim_root_free_all(struct mlx5dm_sim *sim)
{
	struct mlx5dm_sim_root *r = sim->root_rules;
	uint32_t i;

	if (r == NULL)
		return;
	/* Matchers are the caller's; rules left behind are reclaimed with the device. */
	for (i = 0; i < r->n; i++) {
		r->v[i]->m->nflows--;
		r->v[i]->magic = 0;
		mlx5dm_free(r->v[i]);
	}
	mlx5dm_free(r->v);
	mlx5dm_free(r);
	sim->root_rules = NULL;
	sim->root_cache[0] = 0;
	sim->root_cache[1] = 0;
	sim->fdb_rule_root[0] = 0;
	sim->fdb_rule_root[1] = 0;
}

uint64_t
mlx5dm_sim_root_objects(const struct mlx5dm_sim *sim)
{
	const struct mlx5dm_sim_root *r = sim->root_rules;

	return __atomic_load_n(&sim->root_matchers, __ATOMIC_RELAXED) + (r != NULL ? r->n : 0);
}
