/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The STE walk of one packet through one direction.
 *
 * The walk holds a "pointer": a table base address, its number of entries,
 * the lookup type and byte mask of the STE that pointed at it. At the root
 * the pointer is the flow table's ICM root, 1 entry, lookup DONT_CARE. Per
 * step:
 *   1. a terminal address (drop, TX allow, TIR, an FDB vport or uplink) ends it;
 *   2. index = 0 for a 1-entry table, else the hash of the packet's field
 *      vector of the pointer's lookup type under the pointer's byte mask,
 *      modulo the table size; the 64-byte STE at base + 64 * index is read;
 *   3. the STE matches when (vector & mask) == tag, the vector being that
 *      of the STE's own lookup type (an all-zero mask always hits; an
 *      always-miss STE has a zero mask and a non-zero tag byte);
 *   4. miss: continue at the miss address as a 1-entry table (collision
 *      chain entries, matcher end anchors and default addresses are all
 *      reached this way);
 *   5. hit: count (counter_id), run the actions in slot order, re-parse the
 *      headers if the STE has the reparse bit and the frame changed, then
 *      follow the hit pointer with this STE's next lookup type, byte mask
 *      and the size encoded in the pointer.
 * Any chain without a cycle is walked to its end, however long: a device
 * walks a table's matchers one after the other (rdma-core chains them
 * through their end anchors, DPDK mlx5 gives a group tens of thousands of
 * them) and no source documents a hop limit. A cycle in the tables is a
 * loop, dropped and counted as such. Brent's check on (STE address, state
 * generation) finds one that comes back in an identical state (the
 * generation changes with every action that alters the packet or its
 * metadata); one that changes the state every turn is found when the walk
 * has read more STEs than the allocated ICM holds (and more than
 * MLX5DM_SIM_WALK_SHORT), for then it has read one twice. The library
 * never builds a cycle (jumps go to higher levels), so no rule set it
 * accepts reaches either.
 */

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "mlx5dm_sim_engine_priv.h"

enum mlx5dm_sim_via {
	MLX5DM_SIM_VIA_ROOT,
	MLX5DM_SIM_VIA_HIT,
	MLX5DM_SIM_VIA_MISS,
};

static const char *const mlx5dm_sim_via_name[] = { "root", "hit", "miss" };

/* STEs a walk reads before it asks how many lines the ICM holds. */
#define MLX5DM_SIM_WALK_SHORT 8
/*
 * STEs of a walk kept in the device thread's cache: a chain longer than
 * half of it (thousands of matchers) would only evict its own lines, and
 * a line decoded for the cache costs more than one decoded for once.
 */
#define MLX5DM_SIM_WALK_CACHED (1u << (MLX5DM_SIM_LINES_LOG - 1))

struct mlx5dm_sim_ptr {
	uint64_t addr;      /* GVMI << 48 | table base */
	uint32_t size;      /* entries */
	uint16_t lu;        /* lookup type the table is hashed with */
	uint16_t byte_mask;
	uint8_t via;        /* enum mlx5dm_sim_via */
	bool may_end;       /* may be a terminal address (else known to name an STE) */
};

const struct mlx5dm_sim_parse *
mlx5dm_sim_walk_layout(struct mlx5dm_sim_walk *w)
{
	if (!w->dirty)
		return &w->look;
	if (!w->work_valid) {
		/* A malformed result still gives usable (partial) offsets. */
		(void)mlx5dm_sim_parse(w->pkt->data, w->pkt->len, &w->work);
		w->work_valid = true;
	}
	return &w->work;
}

void
mlx5dm_sim_walk_changed(struct mlx5dm_sim_walk *w)
{
	/* Even when offsets survive a rewrite, work's header copy does not. */
	w->dirty = true;
	w->work_valid = false;
	w->gen++;
}

/*
 * The field vector of lookup type lu for the packet's current state, at
 * least the bytes in need (bit 15 = byte 0); NULL if lu is not modelled.
 */
static const uint8_t *
mlx5dm_sim_walk_fv(struct mlx5dm_sim_walk *w, uint16_t lu, uint16_t need)
{
	struct mlx5dm_sim_fv_slot *f = NULL;
	unsigned int i;

	if (w->fv_gen != w->gen) {
		w->fv_n = 0;
		w->fv_gen = w->gen;
	}
	for (i = 0; i < w->fv_n; i++)
		if (w->fv[i].lu == lu) {
			f = &w->fv[i];
			break;
		}
	if (f == NULL) {
		if (w->fv_n < MLX5DM_SIM_WALK_FV_SLOTS) {
			f = &w->fv[w->fv_n++];
		} else {
			f = &w->fv[w->fv_next];
			w->fv_next = (uint8_t)((w->fv_next + 1) % MLX5DM_SIM_WALK_FV_SLOTS);
		}
		memset(f->v, 0, sizeof(f->v));
		f->have = 0;
		f->done = 0;
		f->lu = lu;
	}
	if ((need & ~f->done) == 0)
		return f->v;
	if (mlx5dm_sim_fv_build_part(lu, &w->look, &w->meta, f->v, need, &f->have) != 0) {
		/* Nothing was built: the slot is given up. */
		f->lu = MLX5DM_SIM_LU_NONE;
		return NULL;
	}
	f->done |= need;
	return f->v;
}

/* Field vectors, masks and tags are compared a 64-bit word at a time. */
_Static_assert(MLX5DM_SIM_FV_LEN % 8 == 0, "field vectors must be whole words");

static uint64_t
mlx5dm_sim_word(const uint8_t *b, unsigned int i)
{
	uint64_t v;

	memcpy(&v, b + 8 * i, sizeof(v));
	return v;
}

/* n: a multiple of 8. */
static bool
mlx5dm_sim_all_zero(const uint8_t *b, unsigned int n)
{
	uint64_t acc = 0;
	unsigned int i;

	for (i = 0; i < n / 8; i++)
		acc |= mlx5dm_sim_word(b, i);
	return acc == 0;
}

/* 1 hit, 0 miss, -1 the STE cannot be evaluated (walk error, traced). */
static int
mlx5dm_sim_walk_match(struct mlx5dm_sim_walk *w, const struct mlx5dm_sim_ste *s)
{
	const uint8_t *v;
	unsigned int i;

	switch (s->fmt) {
	case MLX5DM_SIM_STE_BWC:
	case MLX5DM_SIM_STE_MASK_MATCH:
		/* Zero mask: the vector is irrelevant (always-hit / always-miss STEs). */
		if (s->mask_bytes == 0)
			return mlx5dm_sim_all_zero(s->tag, MLX5DM_SIM_FV_LEN);
		/* Only the bytes the mask looks at; the others are zero in v and in the mask. */
		v = mlx5dm_sim_walk_fv(w, s->lu, s->mask_bytes);
		if (v == NULL) {
			MLX5DM_SIM_TRACE(w, "   lookup type 0x%04x is not modelled", s->lu);
			return -1;
		}
		for (i = 0; i < MLX5DM_SIM_FV_LEN / 8; i++)
			if ((mlx5dm_sim_word(v, i) & mlx5dm_sim_word(s->mask, i)) !=
			    mlx5dm_sim_word(s->tag, i))
				return 0;
		return 1;
	case MLX5DM_SIM_STE_DEFINER:
		/*
		 * Definer masks live in firmware objects the engine does not see;
		 * only the definer-less action STE (index DONT_CARE) is modelled.
		 */
		if ((s->lu & 0xffu) == MLX5DM_SIM_LU_DONT_CARE)
			return mlx5dm_sim_all_zero(s->tag, 2 * MLX5DM_SIM_FV_LEN);
		MLX5DM_SIM_TRACE(w, "   definer %u (MATCH entry) is not modelled", s->lu & 0xffu);
		return -1;
	default:
		MLX5DM_SIM_TRACE(w, "   entry_format %u is not an STE format of v1",
				 s->entry_format);
		return -1;
	}
}

/* Slot index of the packet in the table ptr names; -1 when it cannot be hashed. */
static int64_t
mlx5dm_sim_walk_index(struct mlx5dm_sim_walk *w, const struct mlx5dm_sim_ptr *ptr,
		      uint32_t *hash)
{
	const uint8_t *v;

	*hash = 0;
	if (ptr->size == 1 || ptr->byte_mask == 0)
		return 0;
	v = mlx5dm_sim_walk_fv(w, ptr->lu, ptr->byte_mask);
	if (v == NULL) {
		MLX5DM_SIM_TRACE(w, "  table 0x%" PRIx64 ": hash lookup type 0x%04x not modelled",
				 ptr->addr, ptr->lu);
		return -1;
	}
	*hash = mlx5dm_sim_hash(v, ptr->byte_mask);
	return *hash & (ptr->size - 1);
}

/* A terminal address ends the walk; returns true when it did. */
static bool
mlx5dm_sim_walk_terminal(struct mlx5dm_sim_walk *w, const struct mlx5dm_sim_ptr *ptr)
{
	static const char *const names[] = {
		"", "drop", "wire", "tir", "vport (rx)", "vport (tx)", "uplink (rx)"
	};
	enum mlx5dm_sim_term t;
	uint32_t tirn = 0;

	t = mlx5dm_sim_terminal_lookup(w->sim, ptr->addr, &tirn);
	switch (t) {
	case MLX5DM_SIM_TERM_NONE:
		return false;
	case MLX5DM_SIM_TERM_VPORT_RX:
	case MLX5DM_SIM_TERM_VPORT_TX:
		/* A vport's entry of one FDB side is no entry of the other. */
		w->fate = w->fdb && (w->dir == MLX5DM_SIM_DIR_RX) ==
			  (t == MLX5DM_SIM_TERM_VPORT_RX) ? MLX5DM_SIM_FATE_VPORT :
			  MLX5DM_SIM_FATE_WALK_ERROR;
		w->vport = (uint16_t)tirn;
		break;
	case MLX5DM_SIM_TERM_UPLINK_RX:
		/* No loopback of the wire's frames to the wire (rdma-core refuses it too). */
		w->fate = w->fdb && w->dir == MLX5DM_SIM_DIR_RX ? MLX5DM_SIM_FATE_STEERING_DROP :
			  MLX5DM_SIM_FATE_WALK_ERROR;
		break;
	case MLX5DM_SIM_TERM_DROP:
		/* RX's default address is its drop address: a miss there is a default miss. */
		w->fate = w->dir == MLX5DM_SIM_DIR_RX && ptr->via == MLX5DM_SIM_VIA_MISS ?
			  MLX5DM_SIM_FATE_DEFAULT_MISS : MLX5DM_SIM_FATE_STEERING_DROP;
		break;
	case MLX5DM_SIM_TERM_TX_WIRE:
		w->fate = w->dir == MLX5DM_SIM_DIR_TX ? MLX5DM_SIM_FATE_WIRE :
			  MLX5DM_SIM_FATE_WALK_ERROR;
		break;
	case MLX5DM_SIM_TERM_TIR:
		w->fate = w->dir == MLX5DM_SIM_DIR_RX && !w->fdb ? MLX5DM_SIM_FATE_TIR :
			  MLX5DM_SIM_FATE_WALK_ERROR;
		w->tirn = tirn;
		break;
	default:
		w->fate = MLX5DM_SIM_FATE_WALK_ERROR;
		break;
	}
	MLX5DM_SIM_TRACE(w, "  0x%" PRIx64 " (%s): terminal %s%s", ptr->addr,
			 mlx5dm_sim_via_name[ptr->via],
			 t < MLX5DM_ARRAY_SIZE(names) ? names[t] : "?",
			 w->fate == MLX5DM_SIM_FATE_WALK_ERROR ? ", not valid in this direction" :
			 "");
	if (t == MLX5DM_SIM_TERM_TIR)
		MLX5DM_SIM_TRACE(w, "  tir 0x%x", tirn);
	else if (t == MLX5DM_SIM_TERM_VPORT_RX || t == MLX5DM_SIM_TERM_VPORT_TX)
		MLX5DM_SIM_TRACE(w, "  vport %u", tirn);
	return true;
}

/* Hit: counter, actions, reparse. 0, or the fate that ends the walk. */
static int
mlx5dm_sim_walk_hit(struct mlx5dm_sim_walk *w, const struct mlx5dm_sim_ste *s)
{
	int rc;

	/* Counted as the packet reached this STE, before its own actions. */
	if (s->counter_id != 0) {
		MLX5DM_SIM_TRACE(w, "   counter 0x%x += 1 packet, %u bytes", s->counter_id,
				 w->pkt->len);
		mlx5dm_sim_counter_add(w->sim, s->counter_id, w->pkt->len);
	}
	rc = s->no_actions ? 0 : mlx5dm_sim_act_run(w, s->actions, s->actions_len);
	if (rc != 0)
		return rc;
	if (s->reparse && w->dirty) {
		if (mlx5dm_sim_parse(w->pkt->data, w->pkt->len, &w->look) != 0) {
			MLX5DM_SIM_TRACE(w, "   reparse: malformed frame after the actions");
			return MLX5DM_SIM_FATE_PARSE_ERROR;
		}
		w->dirty = false;
		w->work_valid = false;
		w->fv_n = 0;
		MLX5DM_SIM_TRACE(w, "   reparse: %u bytes, ptype 0x%08x", w->pkt->len,
				 w->look.ptype);
	}
	if (s->hit_size == 0) {
		MLX5DM_SIM_TRACE(w, "   no valid hit pointer");
		return MLX5DM_SIM_FATE_WALK_ERROR;
	}
	return 0;
}

static void
mlx5dm_sim_walk_trace_ste(struct mlx5dm_sim_walk *w, const struct mlx5dm_sim_ptr *ptr,
			  uint64_t addr, int64_t idx, uint32_t hash, const struct mlx5dm_sim_ste *s,
			  int rc)
{
	const char *res = rc > 0 ? "HIT" : rc == 0 ? "miss" : "ERROR";

	if (ptr->size > 1)
		MLX5DM_SIM_TRACE(w, "  0x%" PRIx64 " (%s) slot %" PRId64 "/%u of %s table, "
				 "byte_mask 0x%04x hash 0x%08x: ste %s(0x%04x) %s", addr,
				 mlx5dm_sim_via_name[ptr->via], idx, ptr->size,
				 mlx5dm_sim_fv_name(ptr->lu), ptr->byte_mask, hash,
				 mlx5dm_sim_fv_name(s->lu), s->lu, res);
	else
		MLX5DM_SIM_TRACE(w, "  0x%" PRIx64 " (%s): ste %s(0x%04x) %s", addr,
				 mlx5dm_sim_via_name[ptr->via], mlx5dm_sim_fv_name(s->lu), s->lu,
				 res);
}

/* Brent's cycle detection over (address, state generation). */
struct mlx5dm_sim_cycle {
	uint64_t addr;
	uint32_t gen;
	uint32_t power, lam;
};

static bool
mlx5dm_sim_cycle_step(struct mlx5dm_sim_cycle *c, uint64_t addr, uint32_t gen)
{
	/* The saved point exists once power has grown past 1. */
	if (c->power > 1 && c->addr == addr && c->gen == gen)
		return true;
	if (++c->lam == c->power) {
		c->addr = addr;
		c->gen = gen;
		c->power *= 2;
		c->lam = 0;
	}
	return false;
}

static void
mlx5dm_sim_walk_steps(struct mlx5dm_sim_walk *w, struct mlx5dm_sim_ptr ptr)
{
	struct mlx5dm_sim_cycle cyc = { .power = 1 };
	/*
	 * The ICM's lines are counted only once the walk has read a few STEs
	 * (most end sooner); a loop is then still found, a few reads later.
	 */
	uint64_t read = 0, held = MLX5DM_SIM_WALK_SHORT;
	const struct mlx5dm_sim_ste *s;
	struct mlx5dm_sim_ste own;
	uint64_t addr;
	uint32_t hash;
	int64_t idx;
	int rc;

	for (;;) {
		if (ptr.may_end && mlx5dm_sim_walk_terminal(w, &ptr))
			return;
		idx = mlx5dm_sim_walk_index(w, &ptr, &hash);
		if (idx < 0) {
			w->fate = MLX5DM_SIM_FATE_WALK_ERROR;
			return;
		}
		addr = ptr.addr + MLX5DM_SIM_STE_SIZE * (uint64_t)idx;
		if (mlx5dm_sim_cycle_step(&cyc, addr, w->gen)) {
			MLX5DM_SIM_TRACE(w, "  0x%" PRIx64 ": loop (STE revisited, same state)",
					 addr);
			w->fate = MLX5DM_SIM_FATE_LOOP;
			return;
		}
		/* Decoded once per line while its bytes stay (the device thread's cache). */
		s = mlx5dm_sim_ste_fetch(w->sim, read < MLX5DM_SIM_WALK_CACHED ? w->lines : NULL,
					 addr, &own);
		if (s == NULL) {
			MLX5DM_SIM_TRACE(w, "  0x%" PRIx64 " (%s): ICM not readable", addr,
					 mlx5dm_sim_via_name[ptr.via]);
			w->fate = MLX5DM_SIM_FATE_WALK_ERROR;
			return;
		}
		/* Counted again first: the ICM may have grown since the walk began. */
		if (++read > held && read > (held = mlx5dm_sim_icm_lines(w->sim))) {
			MLX5DM_SIM_TRACE(w, "  0x%" PRIx64 ": loop (%" PRIu64 " STEs read, the ICM "
					 "holds %" PRIu64 ")", addr, read, held);
			w->fate = MLX5DM_SIM_FATE_LOOP;
			return;
		}
		rc = mlx5dm_sim_walk_match(w, s);
		mlx5dm_sim_walk_trace_ste(w, &ptr, addr, idx, hash, s, rc);
		if (rc < 0) {
			w->fate = MLX5DM_SIM_FATE_WALK_ERROR;
			return;
		}
		if (rc == 0) {
			ptr = (struct mlx5dm_sim_ptr){ .addr = s->miss_addr, .size = 1,
						       .lu = s->lu, .via = MLX5DM_SIM_VIA_MISS,
						       .may_end = s->miss_may_end };
			continue;
		}
		rc = mlx5dm_sim_walk_hit(w, s);
		if (rc != 0) {
			w->fate = (uint8_t)rc;
			return;
		}
		ptr = (struct mlx5dm_sim_ptr){ .addr = s->hit_addr, .size = s->hit_size,
					       .lu = s->next_lu, .byte_mask = s->byte_mask,
					       .via = MLX5DM_SIM_VIA_HIT,
					       .may_end = s->hit_may_end };
	}
}

void
mlx5dm_sim_walk_run(struct mlx5dm_sim_walk *w)
{
	struct mlx5dm_sim_ptr ptr = { .size = 1, .lu = MLX5DM_SIM_LU_DONT_CARE,
				      .via = MLX5DM_SIM_VIA_ROOT, .may_end = true };
	const char *dir = w->fdb ? (w->dir == MLX5DM_SIM_DIR_RX ? "fdb rx" : "fdb tx") :
			  w->dir == MLX5DM_SIM_DIR_RX ? "rx" : "tx";
	int rc;

	w->fate = MLX5DM_SIM_FATE_NONE;
	w->dirty = false;
	w->work_valid = false;
	w->gen = 0;
	w->fv_n = 0;
	w->fv_next = 0;
	w->fv_gen = 0;
	w->caps = mlx5dm_sim_caps(w->sim);
	if (!w->meta_set)
		memset(&w->meta, 0, sizeof(w->meta));
	/*
	 * Like the Ethernet segment's flow_table_metadata: reg_a of the Tx walk;
	 * its send queue is the SRC_QP_GVMI lookup's source_qp (NIC TX tells a
	 * function's queues apart, as DPDK mlx5's SQ item matches them).
	 */
	if (w->dir == MLX5DM_SIM_DIR_TX && !w->fdb) {
		w->meta.reg_a = w->pkt->metadata;
		w->meta.source_qp = w->pkt->sqn;
	}
	if (!w->look_current && mlx5dm_sim_parse(w->pkt->data, w->pkt->len, &w->look) != 0) {
		MLX5DM_SIM_TRACE(w, "%s: %u bytes: malformed frame", dir, w->pkt->len);
		w->fate = MLX5DM_SIM_FATE_PARSE_ERROR;
		return;
	}
	MLX5DM_SIM_TRACE(w, "%s: %u bytes, ptype 0x%08x", dir, w->pkt->len, w->look.ptype);
	if (w->caps->steering_format_version < 1 || w->caps->steering_format_version > 3) {
		MLX5DM_SIM_TRACE(w, "%s: steering format %u is not modelled", dir,
				 w->caps->steering_format_version);
		w->fate = MLX5DM_SIM_FATE_WALK_ERROR;
		return;
	}
	rc = w->fdb ? mlx5dm_sim_fdb_root_lookup(w->sim, w->dir, &ptr.addr) :
	     mlx5dm_sim_root_lookup(w->sim, w->dir, &ptr.addr);
	if (rc == -ENOENT && w->fdb) {
		/* The E-Switch's own path (mlx5dm_sim_engine_esw.c): the caller knows it. */
		MLX5DM_SIM_TRACE(w, "%s: no root table", dir);
		w->fate = MLX5DM_SIM_FATE_DEFAULT_MISS;
		return;
	}
	if (rc == -ENOENT) {
		/* No root rule: RX default miss, TX straight to the wire. */
		MLX5DM_SIM_TRACE(w, "%s: no root rule", dir);
		w->fate = w->dir == MLX5DM_SIM_DIR_RX ? MLX5DM_SIM_FATE_DEFAULT_MISS :
			  MLX5DM_SIM_FATE_WIRE;
		return;
	}
	if (rc != 0) {
		MLX5DM_SIM_TRACE(w, "%s: root lookup failed (%d)", dir, rc);
		w->fate = MLX5DM_SIM_FATE_WALK_ERROR;
		return;
	}
	MLX5DM_SIM_TRACE(w, "%s: root 0x%" PRIx64, dir, ptr.addr);
	mlx5dm_sim_walk_steps(w, ptr);
}
