/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The engine of one model instance: its uplink port, the wire, per-port
 * statistics and the trace hook. A burst (mlx5dm_sim_engine_port_tx, called
 * by the device thread for a datapath SQ) runs each frame through NIC TX
 * steering of this instance, puts it on the wire (to the cabled peer, or
 * back to itself when unconnected), runs NIC RX steering of the receiving
 * instance and hands it to the chosen receive queue.
 *
 * Datapath threads share nothing writable but the statistics and read the
 * wire and trace hook with atomic loads; all per-packet state is on the
 * stack, so forwarding allocates nothing. A burst counts into its own
 * copies of the two ports' statistics and adds them to the shared ones
 * (relaxed atomics) once at its end: the atomics would otherwise wait,
 * frame after frame, for the stores into the other core's buffers. For
 * the same reason a burst holds the instances it reaches once
 * (mlx5dm_sim_hold), not frame by frame.
 */

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <string.h>

#include "mlx5dm_sim_engine_priv.h"

/* One Ethernet uplink per instance (mlx5dm_sim.h). */
#define MLX5DM_SIM_ENGINE_PORTS MLX5DM_ARRAY_SIZE(((struct mlx5dm_sim_engine *)0)->st)

/*
 * The wire of the uplink, one atomic word: 0 = looped back to itself,
 * MLX5DM_SIM_WIRE_DEAD = cabled to an instance that is gone, otherwise the
 * peer engine (whose only port is 0).
 */
#define MLX5DM_SIM_WIRE_LOOP ((uintptr_t)0)
#define MLX5DM_SIM_WIRE_DEAD ((uintptr_t)1)

/* Statistics are read counter by counter as uint64_t (port_stats). */
_Static_assert(sizeof(struct mlx5dm_dev_port_stats) % sizeof(uint64_t) == 0,
	       "port statistics must be uint64_t counters only");

/* Cabling is control path: one lock for all engines avoids lock ordering. */
static pthread_mutex_t mlx5dm_sim_wire_lock = PTHREAD_MUTEX_INITIALIZER;

/* A counter of the burst's own statistics (on the stack). */
void
mlx5dm_sim_stat_add(uint64_t *c, uint64_t v)
{
	*c += v;
}

/* Add the burst's statistics to the port's. */
void
mlx5dm_sim_stat_flush(struct mlx5dm_dev_port_stats *dst, const struct mlx5dm_dev_port_stats *src)
{
	const uint64_t *s = (const uint64_t *)src;
	uint64_t *d = (uint64_t *)dst;
	size_t i;

	for (i = 0; i < sizeof(*src) / sizeof(uint64_t); i++)
		if (s[i] != 0)
			__atomic_fetch_add(&d[i], s[i], __ATOMIC_RELAXED);
}

struct mlx5dm_sim_engine *
mlx5dm_sim_engine_create(struct mlx5dm_sim *sim, int socket)
{
	struct mlx5dm_sim_engine *engine;

	if (sim == NULL) {
		errno = EINVAL;
		return NULL;
	}
	engine = mlx5dm_zmalloc_socket(sizeof(*engine), socket);
	if (engine == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	engine->sim = sim;
	return engine;
}

void
mlx5dm_sim_engine_destroy(struct mlx5dm_sim_engine *engine)
{
	uintptr_t peer;

	if (engine == NULL)
		return;
	pthread_mutex_lock(&mlx5dm_sim_wire_lock);
	peer = __atomic_load_n(&engine->wire, __ATOMIC_RELAXED);
	/* The peer keeps a cable that now leads nowhere. */
	if (peer != MLX5DM_SIM_WIRE_LOOP && peer != MLX5DM_SIM_WIRE_DEAD)
		__atomic_store_n(&((struct mlx5dm_sim_engine *)peer)->wire, MLX5DM_SIM_WIRE_DEAD,
				 __ATOMIC_RELEASE);
	pthread_mutex_unlock(&mlx5dm_sim_wire_lock);
	mlx5dm_free(engine);
}

/* Unplug engine's cable; its peer (if any) loops back again. Wire lock held. */
static void
mlx5dm_sim_engine_unplug(struct mlx5dm_sim_engine *engine)
{
	uintptr_t peer = __atomic_load_n(&engine->wire, __ATOMIC_RELAXED);

	if (peer != MLX5DM_SIM_WIRE_LOOP && peer != MLX5DM_SIM_WIRE_DEAD)
		__atomic_store_n(&((struct mlx5dm_sim_engine *)peer)->wire, MLX5DM_SIM_WIRE_LOOP,
				 __ATOMIC_RELEASE);
	__atomic_store_n(&engine->wire, MLX5DM_SIM_WIRE_LOOP, __ATOMIC_RELEASE);
}

int
mlx5dm_sim_engine_wire_connect(struct mlx5dm_sim_engine *a, uint16_t pa,
			       struct mlx5dm_sim_engine *b, uint16_t pb)
{
	if (a == NULL || b == NULL || pa >= MLX5DM_SIM_ENGINE_PORTS ||
	    pb >= MLX5DM_SIM_ENGINE_PORTS)
		return -EINVAL;
	pthread_mutex_lock(&mlx5dm_sim_wire_lock);
	mlx5dm_sim_engine_unplug(a);
	mlx5dm_sim_engine_unplug(b);
	if (a != b) {
		__atomic_store_n(&a->wire, (uintptr_t)b, __ATOMIC_RELEASE);
		__atomic_store_n(&b->wire, (uintptr_t)a, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&mlx5dm_sim_wire_lock);
	return 0;
}

void
mlx5dm_sim_engine_wire_disconnect(struct mlx5dm_sim_engine *engine)
{
	if (engine == NULL)
		return;
	pthread_mutex_lock(&mlx5dm_sim_wire_lock);
	mlx5dm_sim_engine_unplug(engine);
	pthread_mutex_unlock(&mlx5dm_sim_wire_lock);
}

int
mlx5dm_sim_engine_port_stats(struct mlx5dm_sim_engine *engine, uint16_t port,
			     struct mlx5dm_dev_port_stats *st)
{
	const uint64_t *src;
	uint64_t *dst;
	unsigned int i;

	if (engine == NULL || st == NULL || port >= MLX5DM_SIM_ENGINE_PORTS)
		return -EINVAL;
	/* The structure is all uint64_t counters: copy it counter by counter. */
	src = (const uint64_t *)&engine->st[port];
	dst = (uint64_t *)st;
	for (i = 0; i < sizeof(*st) / sizeof(uint64_t); i++)
		dst[i] = __atomic_load_n(&src[i], __ATOMIC_RELAXED);
	return 0;
}

void
mlx5dm_sim_engine_trace_set(struct mlx5dm_sim_engine *engine, mlx5dm_sim_trace_fn fn, void *arg)
{
	if (engine == NULL)
		return;
	/* arg first: a walk that sees the new fn also sees its arg. */
	__atomic_store_n(&engine->trace_arg, arg, __ATOMIC_RELAXED);
	__atomic_store_n(&engine->trace, fn, __ATOMIC_RELEASE);
}

void
mlx5dm_sim_engine_walk_init(struct mlx5dm_sim_engine *engine, struct mlx5dm_sim_walk *w,
			    struct mlx5dm_sim_hold *hold, enum mlx5dm_sim_dir dir,
			    struct mlx5dm_sim_pkt *pkt)
{
	w->sim = engine->sim;
	w->hold = hold;
	w->lines = hold->lines;
	w->look_current = false;
	w->fdb = false;
	w->meta_set = false;
	w->dir = dir;
	w->pkt = pkt;
	w->trace = __atomic_load_n(&engine->trace, __ATOMIC_ACQUIRE);
	w->trace_arg = __atomic_load_n(&engine->trace_arg, __ATOMIC_RELAXED);
}

bool
mlx5dm_sim_engine_drop(struct mlx5dm_dev_port_stats *st, uint8_t fate)
{
	struct mlx5dm_dev_drop_stats *d = &st->drops;

	switch (fate) {
	case MLX5DM_SIM_FATE_STEERING_DROP:
		mlx5dm_sim_stat_add(&d->steering_drop, 1);
		return true;
	case MLX5DM_SIM_FATE_DEFAULT_MISS:
		mlx5dm_sim_stat_add(&d->default_miss, 1);
		return true;
	case MLX5DM_SIM_FATE_PARSE_ERROR:
		mlx5dm_sim_stat_add(&d->parse_error, 1);
		return true;
	case MLX5DM_SIM_FATE_NO_ROOM:
		mlx5dm_sim_stat_add(&d->no_room, 1);
		return true;
	case MLX5DM_SIM_FATE_LOOP:
		mlx5dm_sim_stat_add(&d->loop, 1);
		return true;
	case MLX5DM_SIM_FATE_WIRE:
	case MLX5DM_SIM_FATE_TIR:
	case MLX5DM_SIM_FATE_VPORT:
		return false;
	default:
		mlx5dm_sim_stat_add(&d->walk_error, 1);
		return true;
	}
}

void
mlx5dm_sim_engine_deliver(struct mlx5dm_sim_walk *w, struct mlx5dm_dev_port_stats *st)
{
	struct mlx5dm_sim_pkt *pkt = w->pkt;
	const struct mlx5dm_sim_parse *lay;
	struct mlx5dm_sim_tir_info tir;
	bool has_hash;
	uint32_t rqn, hash;
	int rc;

	if (mlx5dm_sim_tir_info(w->sim, w->tirn, &tir) != 0) {
		MLX5DM_SIM_TRACE(w, "fate: dropped (TIR 0x%x does not exist)", w->tirn);
		mlx5dm_sim_stat_add(&st->drops.no_tir, 1);
		return;
	}
	lay = mlx5dm_sim_walk_layout(w);
	rqn = mlx5dm_sim_rss_pick(&tir, lay, &hash, &has_hash);
	pkt->flags = 0;
	if (w->meta.has_flow_tag) {
		pkt->flags |= MLX5DM_SIM_PKT_F_FLOW_TAG;
		pkt->flow_tag = w->meta.flow_tag;
	}
	if (has_hash) {
		pkt->flags |= MLX5DM_SIM_PKT_F_RSS_HASH;
		pkt->rss_hash = hash;
	}
	pkt->ptype = lay->ptype;
	mlx5dm_sim_rx_offload(lay, pkt->data, pkt->len, &pkt->rx_ok, &pkt->rx_hdr);
	/* The RQ keeps a copy: it must already say delivered. */
	pkt->fate = MLX5DM_SIM_PKT_DELIVERED;
	rc = mlx5dm_sim_rq_deliver(w->hold, w->sim, rqn, pkt);
	if (rc == 0) {
		if (has_hash)
			MLX5DM_SIM_TRACE(w, "fate: delivered to rq 0x%x by RSS (hash 0x%08x)",
					 rqn, hash);
		else
			MLX5DM_SIM_TRACE(w, "fate: delivered to rq 0x%x", rqn);
		mlx5dm_sim_stat_add(&st->delivered, 1);
		return;
	}
	pkt->fate = MLX5DM_SIM_PKT_DROPPED;
	MLX5DM_SIM_TRACE(w, "fate: dropped (rq 0x%x: %s)", rqn,
			 rc == -ENOSPC ? "nothing posted" : rc == -EIO ? "WQE in error" :
			 "missing or not ready");
	mlx5dm_sim_stat_add(rc == -ENOSPC || rc == -EIO ? &st->drops.queue_full :
			    &st->drops.no_tir, 1);
}

const char *
mlx5dm_sim_fate_name(uint8_t fate)
{
	static const char *const names[] = {
		[MLX5DM_SIM_FATE_NONE] = "none",
		[MLX5DM_SIM_FATE_WIRE] = "wire",
		[MLX5DM_SIM_FATE_TIR] = "tir",
		[MLX5DM_SIM_FATE_STEERING_DROP] = "dropped (steering drop)",
		[MLX5DM_SIM_FATE_DEFAULT_MISS] = "dropped (default miss)",
		[MLX5DM_SIM_FATE_WALK_ERROR] = "dropped (walk error)",
		[MLX5DM_SIM_FATE_PARSE_ERROR] = "dropped (parse error)",
		[MLX5DM_SIM_FATE_NO_ROOM] = "dropped (no head/tailroom)",
		[MLX5DM_SIM_FATE_LOOP] = "dropped (loop)",
		[MLX5DM_SIM_FATE_VPORT] = "vport",
	};

	return fate < MLX5DM_ARRAY_SIZE(names) ? names[fate] : "?";
}

struct mlx5dm_sim_engine *
mlx5dm_sim_engine_peer(struct mlx5dm_sim_engine *engine)
{
	uintptr_t w = __atomic_load_n(&engine->wire, __ATOMIC_ACQUIRE);

	if (w == MLX5DM_SIM_WIRE_LOOP)
		return engine;
	if (w == MLX5DM_SIM_WIRE_DEAD)
		return NULL;
	return (struct mlx5dm_sim_engine *)w;
}

/* One frame from engine to peer (NULL: a dead cable), counted into tx_st and rx_st. */
static void
mlx5dm_sim_engine_one(struct mlx5dm_sim_engine *engine, struct mlx5dm_sim_engine *peer,
		      struct mlx5dm_sim_hold *hold, struct mlx5dm_sim_pkt *pkt,
		      struct mlx5dm_dev_port_stats *tx_st, struct mlx5dm_dev_port_stats *rx_st)
{
	struct mlx5dm_dev_port_stats *st = tx_st;
	struct mlx5dm_sim_walk w;

	pkt->fate = MLX5DM_SIM_PKT_DROPPED;
	pkt->flags = 0;
	mlx5dm_sim_stat_add(&st->tx_packets, 1);
	mlx5dm_sim_stat_add(&st->tx_bytes, pkt->len);
	mlx5dm_sim_engine_walk_init(engine, &w, hold, MLX5DM_SIM_DIR_TX, pkt);
	mlx5dm_sim_walk_run(&w);
	if (mlx5dm_sim_engine_drop(st, w.fate)) {
		MLX5DM_SIM_TRACE(&w, "fate: %s", mlx5dm_sim_fate_name(w.fate));
		return;
	}
	mlx5dm_sim_stat_add(&st->wire_packets, 1);
	mlx5dm_sim_stat_add(&st->wire_bytes, pkt->len);
	if (peer == NULL) {
		MLX5DM_SIM_TRACE(&w, "fate: dropped (wire leads to no live port)");
		mlx5dm_sim_stat_add(&st->drops.no_peer, 1);
		return;
	}
	st = rx_st;
	mlx5dm_sim_stat_add(&st->rx_packets, 1);
	mlx5dm_sim_stat_add(&st->rx_bytes, pkt->len);
	mlx5dm_sim_engine_walk_init(peer, &w, hold, MLX5DM_SIM_DIR_RX, pkt);
	/* The wire does not change the bytes: what the TX walk last parsed still holds. */
	w.look_current = !w.dirty;
	mlx5dm_sim_walk_run(&w);
	if (mlx5dm_sim_engine_drop(st, w.fate)) {
		MLX5DM_SIM_TRACE(&w, "fate: %s", mlx5dm_sim_fate_name(w.fate));
		return;
	}
	mlx5dm_sim_engine_deliver(&w, st);
}

int
mlx5dm_sim_engine_port_tx(struct mlx5dm_sim_engine *engine, uint16_t port,
			  struct mlx5dm_sim_pkt *pkts, uint16_t n)
{
	return mlx5dm_sim_engine_port_tx_lines(engine, port, pkts, n, NULL);
}

int
mlx5dm_sim_engine_port_tx_lines(struct mlx5dm_sim_engine *engine, uint16_t port,
				struct mlx5dm_sim_pkt *pkts, uint16_t n,
				struct mlx5dm_sim_lines *lines)
{
	struct mlx5dm_dev_port_stats tx_st, rx_st;
	struct mlx5dm_sim_esw_view vt, vr;
	struct mlx5dm_sim_engine *peer;
	struct mlx5dm_sim_hold hold;
	uint16_t i;

	if (engine == NULL || port >= MLX5DM_SIM_ENGINE_PORTS || (pkts == NULL && n != 0))
		return -EINVAL;
	if (mlx5dm_sim_esw_enter(engine->sim, &vt))
		return mlx5dm_sim_engine_esw_burst(engine, &vt, NULL, NULL, pkts, n, lines);
	peer = mlx5dm_sim_engine_peer(engine);
	if (peer != NULL && peer != engine && mlx5dm_sim_esw_enter(peer->sim, &vr))
		return mlx5dm_sim_engine_esw_burst(engine, NULL, peer, &vr, pkts, n, lines);
	/* Both ends steer these frames: each device first executes what was rung. */
	mlx5dm_sim_sq_catch_up(engine->sim);
	if (peer != NULL && peer != engine)
		mlx5dm_sim_sq_catch_up(peer->sim);
	memset(&tx_st, 0, sizeof(tx_st));
	memset(&rx_st, 0, sizeof(rx_st));
	mlx5dm_sim_hold(&hold, engine->sim, peer != NULL ? peer->sim : NULL);
	hold.lines = lines;
	for (i = 0; i < n; i++)
		mlx5dm_sim_engine_one(engine, peer, &hold, &pkts[i], &tx_st, &rx_st);
	mlx5dm_sim_release(&hold);
	mlx5dm_sim_stat_flush(&engine->st[port], &tx_st);
	if (peer != NULL)
		mlx5dm_sim_stat_flush(&peer->st[0], &rx_st);
	return n;
}
