/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Header insert/remove actions: REMOVE_HEADER_TO_HEADER (decap), REMOVE_BY_SIZE
 * (pop VLAN, L3-decap padding), INSERT_INLINE (push VLAN, L3-decap L2
 * rebuild) and INSERT_POINTER (encap data from ENCAP ICM, or from a packet
 * reformat context on a device without ENCAP ICM). Positions are a
 * header anchor of the current frame plus an offset in 2-byte words.
 *
 * The frame grows into the packet's headroom (the bytes before the insert
 * point move down) or, without headroom, into its tailroom (the bytes after
 * it move up); removal moves the bytes before the cut up. No room is a
 * drop (MLX5DM_SIM_FATE_NO_ROOM).
 */

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "mlx5dm_prm_bits.h"
#include "mlx5dm_sim_engine_priv.h"

/* Header anchors (DR_STE_HEADER_ANCHOR_*). */
enum {
	MLX5DM_SIM_ANCHOR_START = 0x00,
	MLX5DM_SIM_ANCHOR_1ST_VLAN = 0x02,
	MLX5DM_SIM_ANCHOR_L3 = 0x07,
	MLX5DM_SIM_ANCHOR_INNER_MAC = 0x13,
	MLX5DM_SIM_ANCHOR_INNER_L3 = 0x19,
};

/* Field positions of the insert/remove actions; v3 re-lays them (mlx5_ifc.h *_v1, *_v3). */
struct mlx5dm_sim_rf_layout {
	struct mlx5dm_prm_field start_anchor, end_anchor, decap;   /* REMOVE_HEADER_TO_HEADER */
	struct mlx5dm_prm_field rs_anchor, rs_offset, rs_size;     /* REMOVE_BY_SIZE */
	struct mlx5dm_prm_field in_anchor, in_offset;              /* INSERT_INLINE/POINTER */
	struct mlx5dm_prm_field ptr_size, ptr_attr, ptr_data;      /* INSERT_POINTER, data */
};

static const struct mlx5dm_sim_rf_layout mlx5dm_sim_rf_v1 = {
	.start_anchor = MLX5DM_PRM_FIELD(0x00a, 6),
	.end_anchor = MLX5DM_PRM_FIELD(0x012, 6),
	.decap = MLX5DM_PRM_FIELD(0x01c, 1),
	.rs_anchor = MLX5DM_PRM_FIELD(0x00a, 6),
	.rs_offset = MLX5DM_PRM_FIELD(0x012, 7),
	.rs_size = MLX5DM_PRM_FIELD(0x01a, 6),
	.in_anchor = MLX5DM_PRM_FIELD(0x00a, 6),
	.in_offset = MLX5DM_PRM_FIELD(0x010, 7),
	.ptr_size = MLX5DM_PRM_FIELD(0x017, 6),
	.ptr_attr = MLX5DM_PRM_FIELD(0x01d, 3),
	.ptr_data = MLX5DM_PRM_FIELD(0x020, 32),
};

static const struct mlx5dm_sim_rf_layout mlx5dm_sim_rf_v3 = {
	.start_anchor = MLX5DM_PRM_FIELD(0x008, 7),
	.end_anchor = MLX5DM_PRM_FIELD(0x00f, 7),
	.decap = MLX5DM_PRM_FIELD(0x01c, 1),
	.rs_anchor = MLX5DM_PRM_FIELD(0x008, 7),
	.rs_offset = MLX5DM_PRM_FIELD(0x00f, 8),
	.rs_size = MLX5DM_PRM_FIELD(0x01a, 6),
	.in_anchor = MLX5DM_PRM_FIELD(0x008, 7),
	.in_offset = MLX5DM_PRM_FIELD(0x00f, 8),
	.ptr_size = MLX5DM_PRM_FIELD(0x017, 6),
	.ptr_attr = MLX5DM_PRM_FIELD(0x01d, 3),
	.ptr_data = MLX5DM_PRM_FIELD(0x020, 32),
};

#define MLX5DM_SIM_INSERT_ATTR_ENCAP 1

/* Byte offset of an anchor in the current frame; -1 absent, -2 unknown anchor. */
static int
mlx5dm_sim_rf_anchor(struct mlx5dm_sim_walk *w, unsigned int anchor)
{
	const struct mlx5dm_sim_parse *lay = mlx5dm_sim_walk_layout(w);
	unsigned int off;

	switch (anchor) {
	case MLX5DM_SIM_ANCHOR_START:
		return 0;
	case MLX5DM_SIM_ANCHOR_1ST_VLAN:
		off = lay->o.vlan[0];
		break;
	case MLX5DM_SIM_ANCHOR_L3:
		off = lay->o.l3;
		break;
	case MLX5DM_SIM_ANCHOR_INNER_MAC:
		off = lay->tnl != MLX5DM_SIM_TNL_NONE ? lay->i.l2 : MLX5DM_SIM_NOHDR;
		break;
	case MLX5DM_SIM_ANCHOR_INNER_L3:
		off = lay->tnl != MLX5DM_SIM_TNL_NONE ? lay->i.l3 : MLX5DM_SIM_NOHDR;
		break;
	default:
		return -2;
	}
	return off == MLX5DM_SIM_NOHDR ? -1 : (int)off;
}

/* Resolve anchor + offset; 0 ok, else the fate (or -1: skip the action). */
static int
mlx5dm_sim_rf_pos(struct mlx5dm_sim_walk *w, const char *what, unsigned int anchor,
		  unsigned int off_bytes, unsigned int *pos)
{
	int a = mlx5dm_sim_rf_anchor(w, anchor);

	if (a == -2) {
		MLX5DM_SIM_TRACE(w, "    %s: anchor 0x%02x not modelled", what, anchor);
		return MLX5DM_SIM_FATE_WALK_ERROR;
	}
	if (a < 0 || a + off_bytes > w->pkt->len) {
		MLX5DM_SIM_TRACE(w, "    %s: anchor 0x%02x + %u not in this packet, skipped", what,
				 anchor, off_bytes);
		return -1;
	}
	*pos = (unsigned int)a + off_bytes;
	return 0;
}

static void
mlx5dm_sim_rf_remove(struct mlx5dm_sim_walk *w, unsigned int pos, unsigned int n)
{
	struct mlx5dm_sim_pkt *pkt = w->pkt;

	memmove(pkt->data + n, pkt->data, pos);
	pkt->data += n;
	pkt->len = (uint16_t)(pkt->len - n);
	pkt->headroom = (uint16_t)(pkt->headroom + n);
	mlx5dm_sim_walk_changed(w);
}

static int
mlx5dm_sim_rf_insert(struct mlx5dm_sim_walk *w, unsigned int pos, const uint8_t *b,
		     unsigned int n)
{
	struct mlx5dm_sim_pkt *pkt = w->pkt;

	if (pkt->len + n > UINT16_MAX) {
		MLX5DM_SIM_TRACE(w, "    insert %u bytes: frame would exceed 64 KiB", n);
		return MLX5DM_SIM_FATE_NO_ROOM;
	}
	if (pkt->headroom >= n) {
		memmove(pkt->data - n, pkt->data, pos);
		pkt->data -= n;
		pkt->headroom = (uint16_t)(pkt->headroom - n);
	} else if (pkt->tailroom >= n) {
		memmove(pkt->data + pos + n, pkt->data + pos, pkt->len - pos);
		pkt->tailroom = (uint16_t)(pkt->tailroom - n);
	} else {
		MLX5DM_SIM_TRACE(w, "    insert %u bytes: headroom %u, tailroom %u: no room", n,
				 pkt->headroom, pkt->tailroom);
		return MLX5DM_SIM_FATE_NO_ROOM;
	}
	memcpy(pkt->data + pos, b, n);
	pkt->len = (uint16_t)(pkt->len + n);
	mlx5dm_sim_walk_changed(w);
	return 0;
}

static int
mlx5dm_sim_rf_remove_hdr(struct mlx5dm_sim_walk *w, const struct mlx5dm_sim_rf_layout *l,
			 const uint8_t *a)
{
	unsigned int sa = (unsigned int)mlx5dm_prm_fget(a, l->start_anchor);
	unsigned int ea = (unsigned int)mlx5dm_prm_fget(a, l->end_anchor);
	unsigned int s, e;
	int rc;

	rc = mlx5dm_sim_rf_pos(w, "remove header", sa, 0, &s);
	if (rc == 0)
		rc = mlx5dm_sim_rf_pos(w, "remove header", ea, 0, &e);
	if (rc != 0)
		return rc < 0 ? 0 : rc;
	if (e < s) {
		MLX5DM_SIM_TRACE(w, "    remove header 0x%02x..0x%02x: end before start, skipped",
				 sa, ea);
		return 0;
	}
	MLX5DM_SIM_TRACE(w, "    remove header anchor 0x%02x..0x%02x: bytes %u..%u%s", sa, ea, s,
			 e, mlx5dm_prm_fget(a, l->decap) ? " (decap)" : "");
	mlx5dm_sim_rf_remove(w, s, e - s);
	return 0;
}

static int
mlx5dm_sim_rf_remove_size(struct mlx5dm_sim_walk *w, const struct mlx5dm_sim_rf_layout *l,
			  const uint8_t *a)
{
	unsigned int anchor = (unsigned int)mlx5dm_prm_fget(a, l->rs_anchor);
	unsigned int off = 2u * (unsigned int)mlx5dm_prm_fget(a, l->rs_offset);
	unsigned int n = 2u * (unsigned int)mlx5dm_prm_fget(a, l->rs_size);
	unsigned int s;
	int rc;

	rc = mlx5dm_sim_rf_pos(w, "remove by size", anchor, off, &s);
	if (rc != 0)
		return rc < 0 ? 0 : rc;
	if (s + n > w->pkt->len) {
		MLX5DM_SIM_TRACE(w, "    remove %u bytes at %u: past the frame end, skipped", n, s);
		return 0;
	}
	MLX5DM_SIM_TRACE(w, "    remove %u bytes at anchor 0x%02x + %u", n, anchor, off);
	mlx5dm_sim_rf_remove(w, s, n);
	return 0;
}

/*
 * The bytes an INSERT_POINTER inserts: a line of ENCAP SW ICM when the
 * device has it (written by the library, or by the firmware for a packet
 * reformat context), else the packet reformat context the pointer names.
 */
static int
mlx5dm_sim_rf_ptr_data(struct mlx5dm_sim_walk *w, uint32_t ptr, uint8_t *buf, unsigned int n)
{
	uint64_t addr;
	int ret;

	if (!w->caps->indirect_encap_sw_icm) {
		ret = mlx5dm_sim_reformat_read(w->sim, ptr, buf, n);
		if (ret != 0)
			MLX5DM_SIM_TRACE(w, "    insert pointer: reformat context 0x%x (%u bytes) "
					 "%s", ptr, n,
					 ret == -ERANGE ? "is shorter" : "does not exist");
		return ret != 0 ? MLX5DM_SIM_FATE_WALK_ERROR : 0;
	}
	addr = w->caps->indirect_encap_icm_base + 64ull * ptr;
	if (mlx5dm_sim_icm_read(w->sim, addr, buf, n) != 0) {
		MLX5DM_SIM_TRACE(w, "    insert pointer %u (ICM 0x%" PRIx64 ", %u bytes): "
				 "unreadable", ptr, addr, n);
		return MLX5DM_SIM_FATE_WALK_ERROR;
	}
	return 0;
}

static int
mlx5dm_sim_rf_insert_act(struct mlx5dm_sim_walk *w, const struct mlx5dm_sim_rf_layout *l,
			 const uint8_t *a, bool inline_data)
{
	unsigned int anchor = (unsigned int)mlx5dm_prm_fget(a, l->in_anchor);
	unsigned int off = 2u * (unsigned int)mlx5dm_prm_fget(a, l->in_offset);
	uint8_t buf[2 * 63]; /* size is 6 bits of 2-byte words */
	unsigned int s, n;
	uint32_t ptr = 0;
	int rc;

	rc = mlx5dm_sim_rf_pos(w, "insert", anchor, off, &s);
	if (rc != 0)
		return rc < 0 ? 0 : rc;
	if (inline_data) {
		n = 4;
		memcpy(buf, a + 4, 4); /* the inline data dword, in wire order */
		MLX5DM_SIM_TRACE(w, "    insert inline %02x%02x%02x%02x at anchor 0x%02x + %u",
				 buf[0], buf[1], buf[2], buf[3], anchor, off);
	} else {
		n = 2u * (unsigned int)mlx5dm_prm_fget(a, l->ptr_size);
		ptr = (uint32_t)mlx5dm_prm_fget(a, l->ptr_data);
		rc = mlx5dm_sim_rf_ptr_data(w, ptr, buf, n);
		if (rc != 0)
			return rc;
		MLX5DM_SIM_TRACE(w, "    insert %u bytes of encap %u at anchor 0x%02x + %u",
				 n, ptr, anchor, off);
	}
	rc = mlx5dm_sim_rf_insert(w, s, buf, n);
	if (rc == 0 && !inline_data && s == 0 &&
	    mlx5dm_prm_fget(a, l->ptr_attr) == MLX5DM_SIM_INSERT_ATTR_ENCAP)
		mlx5dm_sim_encap_fixup(w->pkt->data, w->pkt->len);
	return rc;
}

int
mlx5dm_sim_act_reformat(struct mlx5dm_sim_walk *w, const uint8_t *a)
{
	const struct mlx5dm_sim_rf_layout *l = w->caps->steering_format_version >= 3 ?
					       &mlx5dm_sim_rf_v3 : &mlx5dm_sim_rf_v1;

	switch (a[0]) {
	case MLX5DM_SIM_ACT_REMOVE_HDR:
		return mlx5dm_sim_rf_remove_hdr(w, l, a);
	case MLX5DM_SIM_ACT_REMOVE_BY_SIZE:
		return mlx5dm_sim_rf_remove_size(w, l, a);
	case MLX5DM_SIM_ACT_INSERT_INLINE:
		return mlx5dm_sim_rf_insert_act(w, l, a, true);
	case MLX5DM_SIM_ACT_INSERT_PTR:
		return mlx5dm_sim_rf_insert_act(w, l, a, false);
	default:
		return MLX5DM_SIM_FATE_WALK_ERROR;
	}
}
