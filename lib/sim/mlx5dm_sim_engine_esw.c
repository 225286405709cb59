/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The E-Switch's datapath (the switch itself: mlx5dm_sim_esw.c).
 *
 * A frame a function sends (NIC TX of that function allowed it) enters the
 * FDB on its TX side; a frame from the wire enters it on its RX side: the
 * walk of the manager's FDB root (SET_FLOW_TABLE_ROOT) with the stamps the
 * device gives a frame entering the switch: metadata_reg_c_0 = the source
 * vport's metadata (mlx5dm_sim_esw_reg_c0) and, for the SRC_QP_GVMI lookup,
 * source_gvmi = the sending function's vhca_id (0 from the wire) and
 * source_qp = its send queue's number (0 from the wire). The walk
 * ends at
 *   - a vport's entry (sw_steering_vport_icm_address_rx on the RX side,
 *     _tx on the TX side): the frame enters that function's NIC RX, with
 *     reg_c_0 kept, as Linux's switchdev mode sets fdb_to_vport_reg_c;
 *     the FDB default of rdma-core and Linux is the manager's vport, so a
 *     frame that misses the FDB reaches the PF (where the representor of
 *     the function it came from is told by reg_c_0);
 *   - the uplink (TX side: sw_steering_uplink_icm_address_tx): the wire;
 *   - a drop address, or the uplink on the RX side: dropped.
 * Without an FDB root, frames of the functions go to the wire and frames
 * of the wire to the PF's NIC RX, as on a device without a switch.
 *
 * Statistics: tx_* and wire_* count on the sending function, rx_* (frames
 * into NIC RX) and delivered on the function that receives; the uplink's
 * rx_* also count the wire's frames the FDB sends on to another function.
 */

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "mlx5dm_sim_engine_priv.h"

/* Vport metadata ids (Linux eswitch_offloads.c): the uplink's is reserved. */
#define MLX5DM_SIM_ESW_META_UPLINK 1u
#define MLX5DM_SIM_ESW_META_FIRST  2u

uint32_t
mlx5dm_sim_esw_reg_c0(uint16_t vport)
{
	uint32_t id = vport == MLX5DM_SIM_VPORT_UPLINK ? MLX5DM_SIM_ESW_META_UPLINK :
		      MLX5DM_SIM_ESW_META_FIRST + vport;

	return id << 16;
}

struct mlx5dm_sim_esw_burst {
	struct mlx5dm_sim_engine *src;        /* the sending function */
	struct mlx5dm_sim_esw_view *vt;    /* its switch; NULL: none */
	struct mlx5dm_sim_engine *peer;       /* the far end of the uplink's cable; NULL: dead */
	struct mlx5dm_sim_esw_view *vr;    /* the switch the peer manages; NULL: none */
	struct mlx5dm_sim_hold hold;
	struct mlx5dm_dev_port_stats st;   /* the sender's, added to its own at the end */
};

/*
 * NIC RX of engine's function, with the reg_c_0 the switch passed on (0: none),
 * then the delivery; counted in st, which is added to the function's.
 */
static void
mlx5dm_sim_esw_nic_rx(struct mlx5dm_sim_esw_burst *b, struct mlx5dm_sim_engine *engine,
		      struct mlx5dm_sim_pkt *pkt, uint32_t reg_c0, struct mlx5dm_dev_port_stats *st)
{
	struct mlx5dm_sim_walk w;

	mlx5dm_sim_engine_walk_init(engine, &w, &b->hold, MLX5DM_SIM_DIR_RX, pkt);
	memset(&w.meta, 0, sizeof(w.meta));
	w.meta.reg_c[0] = reg_c0;
	w.meta_set = true;
	mlx5dm_sim_walk_run(&w);
	if (mlx5dm_sim_engine_drop(st, w.fate))
		MLX5DM_SIM_TRACE(&w, "fate: %s", mlx5dm_sim_fate_name(w.fate));
	else
		mlx5dm_sim_engine_deliver(&w, st);
	mlx5dm_sim_stat_flush(&engine->st[0], st);
}

/* Into vport from->vport of switch v: that function's NIC RX. */
static void
mlx5dm_sim_esw_to_vport(struct mlx5dm_sim_esw_burst *b, const struct mlx5dm_sim_esw_view *v,
			const struct mlx5dm_sim_walk *from, struct mlx5dm_sim_pkt *pkt)
{
	struct mlx5dm_sim *fn = from->vport < v->nfn ? v->fn[from->vport] : NULL;
	struct mlx5dm_dev_port_stats st;

	if (fn == NULL) {
		MLX5DM_SIM_TRACE(from, "fate: dropped (vport %u: no function open)", from->vport);
		mlx5dm_sim_stat_add(&b->st.drops.no_peer, 1);
		return;
	}
	memset(&st, 0, sizeof(st));
	mlx5dm_sim_stat_add(&st.rx_packets, 1);
	mlx5dm_sim_stat_add(&st.rx_bytes, pkt->len);
	mlx5dm_sim_esw_nic_rx(b, mlx5dm_sim_engine_of(fn), pkt, from->meta.reg_c[0], &st);
}

/*
 * The FDB walk on manager mgr of a frame entering from vport (the uplink:
 * MLX5DM_SIM_VPORT_UPLINK) of vhca gvmi. false: the FDB has no root.
 */
static bool
mlx5dm_sim_esw_fdb(struct mlx5dm_sim_esw_burst *b, struct mlx5dm_sim *mgr,
		   enum mlx5dm_sim_dir dir, uint16_t vport, uint16_t gvmi,
		   struct mlx5dm_sim_pkt *pkt, struct mlx5dm_sim_walk *w)
{
	uint64_t root;

	if (mlx5dm_sim_fdb_root_lookup(mgr, dir, &root) != 0)
		return false;
	mlx5dm_sim_engine_walk_init(mlx5dm_sim_engine_of(mgr), w, &b->hold, dir, pkt);
	w->fdb = true;
	memset(&w->meta, 0, sizeof(w->meta));
	w->meta.reg_c[0] = mlx5dm_sim_esw_reg_c0(vport);
	w->meta.source_gvmi = gvmi;
	/* A function's frame also tells its send queue (what a representor's Tx is told by). */
	w->meta.source_qp = dir == MLX5DM_SIM_DIR_TX ? pkt->sqn : 0;
	w->meta_set = true;
	MLX5DM_SIM_TRACE(w, "e-switch: from %s %u, reg_c_0 0x%08x, source_gvmi 0x%x, "
			 "source_qp 0x%x", vport == MLX5DM_SIM_VPORT_UPLINK ? "uplink" : "vport",
			 vport == MLX5DM_SIM_VPORT_UPLINK ? 0 : vport, w->meta.reg_c[0], gvmi,
			 w->meta.source_qp);
	mlx5dm_sim_walk_run(w);
	return true;
}

/* A frame off the wire into the peer: its FDB RX side, or its NIC RX. */
static void
mlx5dm_sim_esw_ingress(struct mlx5dm_sim_esw_burst *b, struct mlx5dm_sim_pkt *pkt)
{
	struct mlx5dm_sim_engine *peer = b->peer;
	struct mlx5dm_dev_port_stats st;
	struct mlx5dm_sim_walk w;

	memset(&st, 0, sizeof(st));
	mlx5dm_sim_stat_add(&st.rx_packets, 1);
	mlx5dm_sim_stat_add(&st.rx_bytes, pkt->len);
	if (b->vr != NULL && mlx5dm_sim_esw_fdb(b, peer->sim, MLX5DM_SIM_DIR_RX,
						MLX5DM_SIM_VPORT_UPLINK, 0, pkt, &w)) {
		if (w.fate == MLX5DM_SIM_FATE_VPORT) {
			mlx5dm_sim_stat_flush(&peer->st[0], &st);
			mlx5dm_sim_esw_to_vport(b, b->vr, &w, pkt);
			return;
		}
		(void)mlx5dm_sim_engine_drop(&st, w.fate);
		MLX5DM_SIM_TRACE(&w, "fate: %s", w.fate == MLX5DM_SIM_FATE_WIRE ?
				 "dropped (the wire's frames go back to no wire)" :
				 mlx5dm_sim_fate_name(w.fate));
		if (w.fate == MLX5DM_SIM_FATE_WIRE)
			mlx5dm_sim_stat_add(&st.drops.walk_error, 1);
		mlx5dm_sim_stat_flush(&peer->st[0], &st);
		return;
	}
	mlx5dm_sim_esw_nic_rx(b, peer, pkt, 0, &st);
}

static void
mlx5dm_sim_esw_one(struct mlx5dm_sim_esw_burst *b, struct mlx5dm_sim_pkt *pkt)
{
	struct mlx5dm_sim *src = b->src->sim;
	struct mlx5dm_sim *mgr;
	struct mlx5dm_sim_walk w;

	pkt->fate = MLX5DM_SIM_PKT_DROPPED;
	pkt->flags = 0;
	mlx5dm_sim_stat_add(&b->st.tx_packets, 1);
	mlx5dm_sim_stat_add(&b->st.tx_bytes, pkt->len);
	mlx5dm_sim_engine_walk_init(b->src, &w, &b->hold, MLX5DM_SIM_DIR_TX, pkt);
	mlx5dm_sim_walk_run(&w);
	if (mlx5dm_sim_engine_drop(&b->st, w.fate)) {
		MLX5DM_SIM_TRACE(&w, "fate: %s", mlx5dm_sim_fate_name(w.fate));
		return;
	}
	if (b->vt != NULL) {
		mgr = b->vt->fn[0];
		if (mgr == NULL) {
			MLX5DM_SIM_TRACE(&w, "fate: dropped (the e-switch manager is gone)");
			mlx5dm_sim_stat_add(&b->st.drops.no_peer, 1);
			return;
		}
		if (mlx5dm_sim_esw_fdb(b, mgr, MLX5DM_SIM_DIR_TX, mlx5dm_sim_esw_vport(src),
				       mlx5dm_sim_caps(src)->vhca_id, pkt, &w)) {
			if (w.fate == MLX5DM_SIM_FATE_VPORT) {
				mlx5dm_sim_esw_to_vport(b, b->vt, &w, pkt);
				return;
			}
			if (mlx5dm_sim_engine_drop(&b->st, w.fate)) {
				MLX5DM_SIM_TRACE(&w, "fate: %s", mlx5dm_sim_fate_name(w.fate));
				return;
			}
		}
	}
	mlx5dm_sim_stat_add(&b->st.wire_packets, 1);
	mlx5dm_sim_stat_add(&b->st.wire_bytes, pkt->len);
	if (b->peer == NULL) {
		MLX5DM_SIM_TRACE(&w, "fate: dropped (wire leads to no live port)");
		mlx5dm_sim_stat_add(&b->st.drops.no_peer, 1);
		return;
	}
	mlx5dm_sim_esw_ingress(b, pkt);
}

/* Add s to the n instances of sims unless NULL or there already. */
static void
mlx5dm_sim_esw_add(struct mlx5dm_sim **sims, unsigned int *n, struct mlx5dm_sim *s)
{
	unsigned int i;

	if (s == NULL)
		return;
	for (i = 0; i < *n; i++)
		if (sims[i] == s)
			return;
	sims[(*n)++] = s;
}

int
mlx5dm_sim_engine_esw_burst(struct mlx5dm_sim_engine *engine, struct mlx5dm_sim_esw_view *vt,
			    struct mlx5dm_sim_engine *peer, struct mlx5dm_sim_esw_view *vr,
			    struct mlx5dm_sim_pkt *pkts, uint16_t n, struct mlx5dm_sim_lines *lines)
{
	struct mlx5dm_sim_esw_burst b = { .src = engine, .vt = vt, .peer = peer, .vr = vr };
	struct mlx5dm_sim *sims[MLX5DM_SIM_HOLD_MAX];
	struct mlx5dm_sim_esw_view vr_own;
	struct mlx5dm_sim *mgr;
	unsigned int ns = 0, i;

	if (vt != NULL) {
		/* A function's frames leave by its switch manager's uplink. */
		mgr = vt->fn[0];
		b.peer = mgr != NULL ? mlx5dm_sim_engine_peer(mlx5dm_sim_engine_of(mgr)) : NULL;
		if (b.peer != NULL && b.peer->sim == mgr)
			b.vr = vt;
		else if (b.peer != NULL && mlx5dm_sim_esw_enter(b.peer->sim, &vr_own))
			b.vr = &vr_own;
	}
	mlx5dm_sim_esw_add(sims, &ns, engine->sim);
	if (b.peer != NULL)
		mlx5dm_sim_esw_add(sims, &ns, b.peer->sim);
	for (i = 0; vt != NULL && i < vt->nfn; i++)
		mlx5dm_sim_esw_add(sims, &ns, vt->fn[i]);
	for (i = 0; b.vr != NULL && i < b.vr->nfn; i++)
		mlx5dm_sim_esw_add(sims, &ns, b.vr->fn[i]);
	/* Every device the frames may reach first executes what was rung (before the hold). */
	for (i = 0; i < ns; i++)
		mlx5dm_sim_sq_catch_up(sims[i]);
	mlx5dm_sim_hold_all(&b.hold, sims, ns);
	b.hold.lines = lines;
	for (i = 0; i < n; i++)
		mlx5dm_sim_esw_one(&b, &pkts[i]);
	mlx5dm_sim_release(&b.hold);
	mlx5dm_sim_stat_flush(&engine->st[0], &b.st);
	if (b.vr != NULL && b.vr != vt)
		mlx5dm_sim_esw_exit(b.peer->sim, b.vr);
	if (vt != NULL)
		mlx5dm_sim_esw_exit(engine->sim, vt);
	return n;
}
