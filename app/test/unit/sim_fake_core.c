/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Fake core for the engine tests (see sim_fake_core.h). Fixed-size tables,
 * a mutex around everything the datapath may touch concurrently (RQs and
 * counters); ICM is read without locking because tests do not write ICM
 * while packets flow.
 */

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "mlx5dm_osdep.h"
#include "sim_fake_core.h"

#define FAKE_MAX 32

struct fake_icm {
	uint64_t base;
	size_t size;
	uint8_t *mem;
};

struct fake_term {
	uint64_t addr;
	enum mlx5dm_sim_term t;
	uint32_t tirn;
};

struct fake_rq {
	uint32_t rqn;
	bool ready;
	unsigned int depth;
	unsigned int count;
	struct fake_rx rx[FAKE_RQ_DEPTH];
};

struct fake_ctr {
	uint32_t id;
	uint64_t packets, bytes;
};

struct fake_arg {
	uint32_t id;
	unsigned int nb;
	uint8_t *mem;
};

struct fake_prc {
	uint32_t id;
	size_t len;
	uint8_t data[256];
};

struct mlx5dm_sim {
	struct mlx5dm_sim_caps caps;
	struct mlx5dm_sim_engine *engine;
	bool root_valid[2];
	uint64_t root[2];
	struct fake_icm icm[FAKE_MAX];
	unsigned int nb_icm;
	struct fake_term term[FAKE_MAX];
	unsigned int nb_term;
	struct {
		uint32_t tirn;
		struct mlx5dm_sim_tir_info info;
	} tir[FAKE_MAX];
	unsigned int nb_tir;
	struct fake_rq *rq[FAKE_MAX];
	unsigned int nb_rq;
	struct fake_ctr ctr[FAKE_MAX];
	unsigned int nb_ctr;
	struct fake_arg arg[FAKE_MAX];
	unsigned int nb_arg;
	struct fake_prc prc[FAKE_MAX];
	unsigned int nb_prc;
	uint32_t icm_writes;       /* fake_icm_write calls: every line's version */
	pthread_mutex_t lock;
};

struct mlx5dm_sim *
fake_create(void)
{
	struct mlx5dm_sim *sim = calloc(1, sizeof(*sim));

	if (sim == NULL)
		abort();
	sim->caps = (struct mlx5dm_sim_caps){
		.vhca_id = FAKE_VHCA,
		.steering_format_version = 1,
		.nic_rx_drop_icm_addr = FAKE_RX_DROP,
		.nic_tx_drop_icm_addr = FAKE_TX_DROP,
		.nic_tx_allow_icm_addr = FAKE_TX_ALLOW,
		.steering_sw_icm_start = FAKE_STE_BASE,
		.header_modify_sw_icm_start = FAKE_MODIFY_BASE,
		.header_modify_pattern_sw_icm_start = FAKE_PATTERN_BASE,
		.indirect_encap_icm_base = FAKE_ENCAP_BASE,
		.indirect_encap_sw_icm = true,
	};
	pthread_mutex_init(&sim->lock, NULL);
	fake_terminal_add(sim, FAKE_RX_DROP, MLX5DM_SIM_TERM_DROP, 0);
	fake_terminal_add(sim, FAKE_TX_DROP, MLX5DM_SIM_TERM_DROP, 0);
	fake_terminal_add(sim, FAKE_TX_ALLOW, MLX5DM_SIM_TERM_TX_WIRE, 0);
	sim->engine = mlx5dm_sim_engine_create(sim, MLX5DM_SOCKET_ANY);
	if (sim->engine == NULL)
		abort();
	return sim;
}

void
fake_destroy(struct mlx5dm_sim *sim)
{
	unsigned int i;

	mlx5dm_sim_engine_destroy(sim->engine);
	for (i = 0; i < sim->nb_icm; i++)
		free(sim->icm[i].mem);
	for (i = 0; i < sim->nb_rq; i++)
		free(sim->rq[i]);
	for (i = 0; i < sim->nb_arg; i++)
		free(sim->arg[i].mem);
	pthread_mutex_destroy(&sim->lock);
	free(sim);
}

struct mlx5dm_sim_caps *
fake_caps(struct mlx5dm_sim *sim)
{
	return &sim->caps;
}

struct mlx5dm_sim_engine *
fake_engine(struct mlx5dm_sim *sim)
{
	return sim->engine;
}

uint8_t *
fake_icm_map(struct mlx5dm_sim *sim, uint64_t base, size_t size)
{
	struct fake_icm *r;

	if (sim->nb_icm == FAKE_MAX)
		abort();
	r = &sim->icm[sim->nb_icm++];

	r->base = base;
	r->size = size;
	r->mem = calloc(1, size);
	if (r->mem == NULL)
		abort();
	return r->mem;
}

/* The region holding [addr, addr + len), GVMI bits ignored; NULL if none. */
static uint8_t *
fake_icm_at(struct mlx5dm_sim *sim, uint64_t addr, size_t len)
{
	unsigned int i;

	addr &= 0xffffffffffffull;
	for (i = 0; i < sim->nb_icm; i++) {
		struct fake_icm *r = &sim->icm[i];

		if (addr >= r->base && addr + len <= r->base + r->size)
			return r->mem + (addr - r->base);
	}
	return NULL;
}

void
fake_icm_write(struct mlx5dm_sim *sim, uint64_t addr, const void *src, size_t len)
{
	uint8_t *p = fake_icm_at(sim, addr, len);

	if (p == NULL)
		abort();
	memcpy(p, src, len);
	sim->icm_writes++;
}

void
fake_root_set(struct mlx5dm_sim *sim, enum mlx5dm_sim_dir dir, uint64_t icm_root)
{
	sim->root_valid[dir] = true;
	sim->root[dir] = icm_root;
}

void
fake_terminal_add(struct mlx5dm_sim *sim, uint64_t addr, enum mlx5dm_sim_term t, uint32_t tirn)
{
	if (sim->nb_term == FAKE_MAX)
		abort();
	sim->term[sim->nb_term++] = (struct fake_term){ .addr = addr, .t = t, .tirn = tirn };
}

void
fake_tir_add(struct mlx5dm_sim *sim, uint32_t tirn, const struct mlx5dm_sim_tir_info *ti)
{
	if (sim->nb_tir == FAKE_MAX)
		abort();
	sim->tir[sim->nb_tir].tirn = tirn;
	sim->tir[sim->nb_tir].info = *ti;
	sim->nb_tir++;
}

void
fake_rq_add(struct mlx5dm_sim *sim, uint32_t rqn, unsigned int depth, bool ready)
{
	struct fake_rq *rq = calloc(1, sizeof(*rq));

	if (rq == NULL || sim->nb_rq == FAKE_MAX)
		abort();
	rq->rqn = rqn;
	rq->ready = ready;
	rq->depth = depth < FAKE_RQ_DEPTH ? depth : FAKE_RQ_DEPTH;
	sim->rq[sim->nb_rq++] = rq;
}

static struct fake_rq *
fake_rq_find(struct mlx5dm_sim *sim, uint32_t rqn)
{
	unsigned int i;

	for (i = 0; i < sim->nb_rq; i++)
		if (sim->rq[i]->rqn == rqn)
			return sim->rq[i];
	return NULL;
}

unsigned int
fake_rq_count(struct mlx5dm_sim *sim, uint32_t rqn)
{
	struct fake_rq *rq = fake_rq_find(sim, rqn);
	unsigned int n;

	pthread_mutex_lock(&sim->lock);
	n = rq != NULL ? rq->count : 0;
	pthread_mutex_unlock(&sim->lock);
	return n;
}

const struct fake_rx *
fake_rq_get(struct mlx5dm_sim *sim, uint32_t rqn, unsigned int i)
{
	struct fake_rq *rq = fake_rq_find(sim, rqn);

	if (rq == NULL || i >= rq->count || i >= FAKE_RQ_DEPTH)
		return NULL;
	return &rq->rx[i];
}

void
fake_counter_add(struct mlx5dm_sim *sim, uint32_t id)
{
	if (sim->nb_ctr == FAKE_MAX)
		abort();
	sim->ctr[sim->nb_ctr++] = (struct fake_ctr){ .id = id };
}

void
fake_counter_get(struct mlx5dm_sim *sim, uint32_t id, uint64_t *packets, uint64_t *bytes)
{
	unsigned int i;

	*packets = 0;
	*bytes = 0;
	pthread_mutex_lock(&sim->lock);
	for (i = 0; i < sim->nb_ctr; i++) {
		if (sim->ctr[i].id == id) {
			*packets = sim->ctr[i].packets;
			*bytes = sim->ctr[i].bytes;
		}
	}
	pthread_mutex_unlock(&sim->lock);
}

uint8_t *
fake_arg_add(struct mlx5dm_sim *sim, uint32_t id, unsigned int nb)
{
	struct fake_arg *a;

	if (sim->nb_arg == FAKE_MAX)
		abort();
	a = &sim->arg[sim->nb_arg++];

	a->id = id;
	a->nb = nb;
	a->mem = calloc(nb, 64);
	if (a->mem == NULL)
		abort();
	return a->mem;
}

void
fake_reformat_add(struct mlx5dm_sim *sim, uint32_t id, const void *data, size_t len)
{
	struct fake_prc *p;

	if (sim->nb_prc == FAKE_MAX || len > sizeof(p->data))
		abort();
	p = &sim->prc[sim->nb_prc++];
	p->id = id;
	p->len = len;
	memcpy(p->data, data, len);
}

/* ---- the contract ---- */

int
mlx5dm_sim_icm_read(struct mlx5dm_sim *sim, uint64_t icm_addr, void *dst, size_t len)
{
	const uint8_t *p = fake_icm_at(sim, icm_addr, len);

	if (p == NULL)
		return -EFAULT;
	memcpy(dst, p, len);
	return 0;
}

int
mlx5dm_sim_icm_read_line(struct mlx5dm_sim *sim, uint64_t icm_addr, void *dst,
			 struct mlx5dm_sim_line_ver *ver)
{
	if (icm_addr % 64 != 0 || mlx5dm_sim_icm_line_ver(sim, icm_addr, ver) != 0)
		return -EFAULT;
	return mlx5dm_sim_icm_read(sim, icm_addr, dst, 64);
}

/* Any write moves every line's version. */
int
mlx5dm_sim_icm_line_ver(struct mlx5dm_sim *sim, uint64_t icm_addr,
			struct mlx5dm_sim_line_ver *ver)
{
	if (fake_icm_at(sim, icm_addr, 64) == NULL)
		return -EFAULT;
	ver->epoch = 0;
	ver->seq = sim->icm_writes * 2;
	return 0;
}

uint64_t
mlx5dm_sim_icm_lines(struct mlx5dm_sim *sim)
{
	uint64_t n = 0;
	unsigned int i;

	for (i = 0; i < sim->nb_icm; i++)
		n += sim->icm[i].size / 64;
	return n;
}

/* The fake has no send queues: nothing can be waiting. */
void
mlx5dm_sim_sq_catch_up(struct mlx5dm_sim *sim)
{
	(void)sim;
}

const struct mlx5dm_sim_caps *
mlx5dm_sim_caps(struct mlx5dm_sim *sim)
{
	return &sim->caps;
}

int
mlx5dm_sim_root_lookup(struct mlx5dm_sim *sim, enum mlx5dm_sim_dir dir, uint64_t *icm_root)
{
	if (!sim->root_valid[dir])
		return -ENOENT;
	*icm_root = sim->root[dir];
	return 0;
}

enum mlx5dm_sim_term
mlx5dm_sim_terminal_lookup(struct mlx5dm_sim *sim, uint64_t icm_addr, uint32_t *tirn)
{
	unsigned int i;

	for (i = 0; i < sim->nb_term; i++) {
		/* Terminals are matched on the address bits; the GVMI bits vary by action. */
		if ((sim->term[i].addr & 0xffffffffffffull) == (icm_addr & 0xffffffffffffull)) {
			*tirn = sim->term[i].tirn;
			return sim->term[i].t;
		}
	}
	return MLX5DM_SIM_TERM_NONE;
}

/* The fake's terminals may be added at any address. */
bool
mlx5dm_sim_terminal_possible(const struct mlx5dm_sim *sim, uint64_t icm_addr)
{
	(void)sim;
	(void)icm_addr;
	return true;
}

int
mlx5dm_sim_tir_info(struct mlx5dm_sim *sim, uint32_t tirn, struct mlx5dm_sim_tir_info *info)
{
	unsigned int i;

	for (i = 0; i < sim->nb_tir; i++) {
		if (sim->tir[i].tirn == tirn) {
			*info = sim->tir[i].info;
			return 0;
		}
	}
	return -ENOENT;
}

void
mlx5dm_sim_hold(struct mlx5dm_sim_hold *h, struct mlx5dm_sim *a, struct mlx5dm_sim *b)
{
	/* The fake's objects are set up before the walks and never change during them. */
	h->sim[0] = a;
	h->sim[1] = b;
	h->n = 2;
	h->rq_sim = NULL;
	h->rq = NULL;
}

void
mlx5dm_sim_hold_all(struct mlx5dm_sim_hold *h, struct mlx5dm_sim *const *sims, unsigned int n)
{
	mlx5dm_sim_hold(h, n > 0 ? sims[0] : NULL, n > 1 ? sims[1] : NULL);
}

/* The fake device is a single function: no e-switch. */
bool
mlx5dm_sim_esw_enter(struct mlx5dm_sim *sim, struct mlx5dm_sim_esw_view *v)
{
	(void)sim;
	v->nfn = 0;
	return false;
}

void
mlx5dm_sim_esw_exit(struct mlx5dm_sim *sim, const struct mlx5dm_sim_esw_view *v)
{
	(void)sim;
	(void)v;
}

uint16_t
mlx5dm_sim_esw_vport(const struct mlx5dm_sim *sim)
{
	(void)sim;
	return 0;
}

int
mlx5dm_sim_fdb_root_lookup(struct mlx5dm_sim *mgr, enum mlx5dm_sim_dir dir, uint64_t *icm_root)
{
	(void)mgr;
	(void)dir;
	(void)icm_root;
	return -ENOENT;
}

void
mlx5dm_sim_release(struct mlx5dm_sim_hold *h)
{
	(void)h;
}

int
mlx5dm_sim_rq_deliver(struct mlx5dm_sim_hold *h, struct mlx5dm_sim *sim, uint32_t rqn,
		      const struct mlx5dm_sim_pkt *pkt)
{
	struct fake_rq *rq = fake_rq_find(sim, rqn);
	struct fake_rx *rx;
	int rc = 0;

	(void)h;
	if (rq == NULL || !rq->ready)
		return -ENOENT;
	pthread_mutex_lock(&sim->lock);
	if (rq->count >= rq->depth) {
		rc = -ENOSPC;
	} else {
		rx = &rq->rx[rq->count++];
		rx->pkt = *pkt;
		memcpy(rx->data, pkt->data, pkt->len < FAKE_FRAME_MAX ? pkt->len : FAKE_FRAME_MAX);
	}
	pthread_mutex_unlock(&sim->lock);
	return rc;
}

void
mlx5dm_sim_counter_add(struct mlx5dm_sim *sim, uint32_t counter_id, uint32_t bytes)
{
	unsigned int i;

	pthread_mutex_lock(&sim->lock);
	for (i = 0; i < sim->nb_ctr; i++) {
		if (sim->ctr[i].id == counter_id) {
			sim->ctr[i].packets++;
			sim->ctr[i].bytes += bytes;
		}
	}
	pthread_mutex_unlock(&sim->lock);
}

int
mlx5dm_sim_arg_read(struct mlx5dm_sim *sim, uint32_t arg_id, void *dst, size_t len)
{
	unsigned int i;

	for (i = 0; i < sim->nb_arg; i++) {
		struct fake_arg *a = &sim->arg[i];

		if (arg_id >= a->id && arg_id < a->id + a->nb &&
		    (arg_id - a->id) * 64ull + len <= a->nb * 64ull) {
			memcpy(dst, a->mem + (arg_id - a->id) * 64ull, len);
			return 0;
		}
	}
	return -ENOENT;
}

int
mlx5dm_sim_reformat_read(struct mlx5dm_sim *sim, uint32_t id, void *dst, size_t len)
{
	unsigned int i;

	for (i = 0; i < sim->nb_prc; i++) {
		if (sim->prc[i].id != id)
			continue;
		if (len > sim->prc[i].len)
			return -ERANGE;
		memcpy(dst, sim->prc[i].data, len);
		return 0;
	}
	return -ENOENT;
}

struct mlx5dm_sim_engine *
mlx5dm_sim_engine_of(struct mlx5dm_sim *sim)
{
	return sim->engine;
}
