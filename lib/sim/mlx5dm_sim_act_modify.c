/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Header rewrite actions (v1 SET 0x06, ADD 0x07, COPY 0x05; rdma-core
 * providers/mlx5/dr_ste_v1.c). An action names a 32-bit "dword" of the device's
 * header view by its dw_offset code and a bit range in it (shifter - 0x20,
 * length). The map from codes to packet bytes and metadata registers is
 * declared below as data, read off the v1 field map; bits of a dword the
 * map does not cover read as zero and are not writable, and a dword whose
 * header is absent from the packet is ignored (the trace says so).
 */

#include <string.h>

#include "mlx5dm_prm_bits.h"
#include "mlx5dm_sim_engine_priv.h"

/* Where a piece of a dword lives. */
enum mlx5dm_sim_mf_base {
	MLX5DM_SIM_MF_L2,      /* Ethernet header */
	MLX5DM_SIM_MF_ETHTYPE, /* the L3 ethertype field (after VLANs) */
	MLX5DM_SIM_MF_VLAN0,   /* first VLAN tag (TPID first) */
	MLX5DM_SIM_MF_IPV4,
	MLX5DM_SIM_MF_IPV6,
	MLX5DM_SIM_MF_L4,      /* TCP or UDP header */
	MLX5DM_SIM_MF_TCP,
	MLX5DM_SIM_MF_META,    /* bit = register: 0..7 reg_c, 8 reg_a, 9 reg_b */
};

#define MLX5DM_SIM_META_REG_A 8
#define MLX5DM_SIM_META_REG_B 9

struct mlx5dm_sim_mf_piece {
	uint8_t code;  /* dw_offset */
	uint8_t lsb;   /* piece position in the dword */
	uint8_t width;
	uint8_t base;  /* enum mlx5dm_sim_mf_base */
	uint16_t bit;  /* MSB of the piece from the header start (PRM bit order) */
};

#define MLX5DM_SIM_MF_PIECES 4 /* most pieces one dword has (L3_OUT_0) */

#define MLX5DM_SIM_MFP(c, l, w, b, o) \
	{ .code = (c), .lsb = (l), .width = (w), .base = MLX5DM_SIM_MF_ ## b, .bit = (o) }

/* v1 header fields (DR_STE_V1_ACTION_MDFY_FLD_*), common to v1..v3. */
static const struct mlx5dm_sim_mf_piece mlx5dm_sim_mf_hdr[] = {
	MLX5DM_SIM_MFP(0x00, 0, 32, L2, 0),         /* L2_OUT_0: dmac[47:16] */
	MLX5DM_SIM_MFP(0x01, 16, 16, L2, 32),       /* L2_OUT_1: dmac[15:0] | ethertype */
	MLX5DM_SIM_MFP(0x01, 0, 16, ETHTYPE, 0),
	MLX5DM_SIM_MFP(0x02, 0, 16, VLAN0, 16),     /* L2_OUT_2: first VLAN TCI */
	MLX5DM_SIM_MFP(0x08, 0, 32, L2, 48),        /* SRC_L2_OUT_0: smac[47:16] */
	MLX5DM_SIM_MFP(0x09, 16, 16, L2, 80),       /* SRC_L2_OUT_1: smac[15:0] */
	MLX5DM_SIM_MFP(0x0e, 16, 8, IPV4, 8),       /* L3_OUT_0: DSCP|ECN, TTL */
	MLX5DM_SIM_MFP(0x0e, 8, 8, IPV4, 64),
	MLX5DM_SIM_MFP(0x0e, 16, 8, IPV6, 4),       /* traffic class, hop limit */
	MLX5DM_SIM_MFP(0x0e, 8, 8, IPV6, 56),
	MLX5DM_SIM_MFP(0x18, 16, 16, L4, 0),        /* L4_OUT_0: sport | dport */
	MLX5DM_SIM_MFP(0x18, 0, 16, L4, 16),
	MLX5DM_SIM_MFP(0x19, 16, 9, TCP, 103),      /* L4_OUT_1: TCP flags ns..fin */
	MLX5DM_SIM_MFP(0x40, 0, 32, IPV4, 96),      /* IPV4_OUT_0/1: src, dst */
	MLX5DM_SIM_MFP(0x41, 0, 32, IPV4, 128),
	MLX5DM_SIM_MFP(0x44, 0, 32, IPV6, 192),     /* IPV6_DST_OUT_0..3 */
	MLX5DM_SIM_MFP(0x45, 0, 32, IPV6, 224),
	MLX5DM_SIM_MFP(0x46, 0, 32, IPV6, 256),
	MLX5DM_SIM_MFP(0x47, 0, 32, IPV6, 288),
	MLX5DM_SIM_MFP(0x4c, 0, 32, IPV6, 64),      /* IPV6_SRC_OUT_0..3 */
	MLX5DM_SIM_MFP(0x4d, 0, 32, IPV6, 96),
	MLX5DM_SIM_MFP(0x4e, 0, 32, IPV6, 128),
	MLX5DM_SIM_MFP(0x4f, 0, 32, IPV6, 160),
	MLX5DM_SIM_MFP(0x5e, 0, 32, TCP, 32),       /* TCP_MISC_0/1: seq, ack */
	MLX5DM_SIM_MFP(0x5f, 0, 32, TCP, 64),
	MLX5DM_SIM_MFP(0x7b, 0, 32, META, MLX5DM_SIM_META_REG_B), /* METADATA_2_CQE */
	MLX5DM_SIM_MFP(0x7c, 0, 32, META, MLX5DM_SIM_META_REG_A), /* GNRL_PURPOSE */
};

/*
 * Metadata registers reg_c0..7 by format version. v1: REGISTER_6/7 = c0/c1,
 * 4/5 = c2/c3, 2/3 = c4/c5 (rdma-core's v1 table); REGISTER_0/1 = c6/c7 is
 * inferred from that pairing. v2/v3 shift the block by 4 (dr_ste_v2.c).
 */
static const uint8_t mlx5dm_sim_mf_regc_v1[8] = { 0x90, 0x91, 0x8e, 0x8f, 0x8c, 0x8d, 0x8a, 0x8b };
static const uint8_t mlx5dm_sim_mf_regc_v2[8] = { 0x94, 0x95, 0x92, 0x93, 0x90, 0x91, 0x8e, 0x8f };

/* The pieces of dword code; returns their number. */
static unsigned int
mlx5dm_sim_mf_lookup(const struct mlx5dm_sim_walk *w, uint8_t code,
		     struct mlx5dm_sim_mf_piece out[MLX5DM_SIM_MF_PIECES])
{
	const uint8_t *regc = w->caps->steering_format_version >= 2 ?
			      mlx5dm_sim_mf_regc_v2 : mlx5dm_sim_mf_regc_v1;
	unsigned int i, n = 0;

	for (i = 0; i < 8; i++) {
		if (regc[i] == code) {
			out[0] = (struct mlx5dm_sim_mf_piece)MLX5DM_SIM_MFP(code, 0, 32, META, i);
			return 1;
		}
	}
	/* L3_OUT_0 lists an IPv4 and an IPv6 view; the absent one is skipped later. */
	for (i = 0; i < MLX5DM_ARRAY_SIZE(mlx5dm_sim_mf_hdr) && n < MLX5DM_SIM_MF_PIECES; i++)
		if (mlx5dm_sim_mf_hdr[i].code == code)
			out[n++] = mlx5dm_sim_mf_hdr[i];
	return n;
}

/* Header offset of a piece in the current frame, or NOHDR when absent. */
static unsigned int
mlx5dm_sim_mf_hdr_off(const struct mlx5dm_sim_hdrs *h, const struct mlx5dm_sim_mf_piece *pc)
{
	switch (pc->base) {
	case MLX5DM_SIM_MF_L2:
		return h->l2;
	case MLX5DM_SIM_MF_ETHTYPE:
		if (h->l2 == MLX5DM_SIM_NOHDR)
			return MLX5DM_SIM_NOHDR;
		return h->nb_vlan ? h->vlan[h->nb_vlan - 1] + 4u : h->l2 + 12u;
	case MLX5DM_SIM_MF_VLAN0:
		return h->nb_vlan ? h->vlan[0] : MLX5DM_SIM_NOHDR;
	case MLX5DM_SIM_MF_IPV4:
		return h->l3_type == MLX5DM_SIM_L3_IPV4 ? h->l3 : MLX5DM_SIM_NOHDR;
	case MLX5DM_SIM_MF_IPV6:
		return h->l3_type == MLX5DM_SIM_L3_IPV6 ? h->l3 : MLX5DM_SIM_NOHDR;
	case MLX5DM_SIM_MF_L4:
		return h->l4_type == MLX5DM_SIM_L4_TCP || h->l4_type == MLX5DM_SIM_L4_UDP ?
		       h->l4 : MLX5DM_SIM_NOHDR;
	case MLX5DM_SIM_MF_TCP:
		return h->l4_type == MLX5DM_SIM_L4_TCP ? h->l4 : MLX5DM_SIM_NOHDR;
	default:
		return MLX5DM_SIM_NOHDR;
	}
}

static uint32_t *
mlx5dm_sim_mf_reg(struct mlx5dm_sim_walk *w, unsigned int r)
{
	if (r == MLX5DM_SIM_META_REG_A)
		return &w->meta.reg_a;
	if (r == MLX5DM_SIM_META_REG_B)
		return &w->meta.reg_b;
	return &w->meta.reg_c[r];
}

static uint32_t
mlx5dm_sim_mf_mask(unsigned int width)
{
	return width >= 32 ? 0xffffffffu : (1u << width) - 1;
}

/* Assemble dword code; *present = 0 when none of its pieces exists in the packet. */
static uint32_t
mlx5dm_sim_mf_read(struct mlx5dm_sim_walk *w, uint8_t code, bool *present)
{
	const struct mlx5dm_sim_parse *lay = mlx5dm_sim_walk_layout(w);
	struct mlx5dm_sim_mf_piece pc[MLX5DM_SIM_MF_PIECES];
	unsigned int i, n, off;
	uint32_t d = 0, v;

	*present = false;
	n = mlx5dm_sim_mf_lookup(w, code, pc);
	for (i = 0; i < n; i++) {
		if (pc[i].base == MLX5DM_SIM_MF_META) {
			v = *mlx5dm_sim_mf_reg(w, pc[i].bit);
		} else {
			off = mlx5dm_sim_mf_hdr_off(&lay->o, &pc[i]);
			if (off == MLX5DM_SIM_NOHDR)
				continue;
			v = mlx5dm_prm_get(w->pkt->data + off, pc[i].bit, pc[i].width);
		}
		d |= (v & mlx5dm_sim_mf_mask(pc[i].width)) << pc[i].lsb;
		*present = true;
	}
	return d;
}

/* Keep the checksums right after the header bytes [b0, b1) of a piece changed. */
static void
mlx5dm_sim_mf_csum(struct mlx5dm_sim_walk *w, const struct mlx5dm_sim_mf_piece *pc,
		   unsigned int hoff, unsigned int b0, const uint8_t *old, unsigned int len)
{
	const struct mlx5dm_sim_hdrs *h = &mlx5dm_sim_walk_layout(w)->o;
	uint8_t *f = w->pkt->data;
	bool pseudo;

	if (pc->base == MLX5DM_SIM_MF_IPV4)
		mlx5dm_sim_csum_ipv4_fix(f + h->l3, h->l3_len);
	/* The addresses are in the TCP/UDP pseudo header. */
	pseudo = (pc->base == MLX5DM_SIM_MF_IPV4 && b0 >= 12) ||
		 (pc->base == MLX5DM_SIM_MF_IPV6 && b0 >= 8);
	if (pseudo || pc->base == MLX5DM_SIM_MF_L4 || pc->base == MLX5DM_SIM_MF_TCP)
		mlx5dm_sim_csum_l4_adjust(f, h, old, f + hoff + b0, len);
}

/* Write the bits of d selected by m into dword code. */
static void
mlx5dm_sim_mf_write(struct mlx5dm_sim_walk *w, uint8_t code, uint32_t d, uint32_t m)
{
	const struct mlx5dm_sim_parse *lay = mlx5dm_sim_walk_layout(w);
	struct mlx5dm_sim_mf_piece pc[MLX5DM_SIM_MF_PIECES];
	bool bytes = false;
	unsigned int i, n;

	n = mlx5dm_sim_mf_lookup(w, code, pc);
	for (i = 0; i < n; i++) {
		uint32_t pm = (m >> pc[i].lsb) & mlx5dm_sim_mf_mask(pc[i].width);
		uint32_t pv = (d >> pc[i].lsb) & mlx5dm_sim_mf_mask(pc[i].width);
		unsigned int off, b0, b1;
		uint8_t old[8];
		uint8_t *hp;
		uint32_t cur;

		if (pm == 0)
			continue;
		if (pc[i].base == MLX5DM_SIM_MF_META) {
			uint32_t *r = mlx5dm_sim_mf_reg(w, pc[i].bit);

			*r = (*r & ~pm) | (pv & pm);
			continue;
		}
		off = mlx5dm_sim_mf_hdr_off(&lay->o, &pc[i]);
		if (off == MLX5DM_SIM_NOHDR)
			continue; /* the other L3 view, or a header this packet lacks */
		hp = w->pkt->data + off;
		/* The 16-bit words the piece touches (for the checksum update). */
		b0 = (pc[i].bit / 8u) & ~1u;
		b1 = MLX5DM_ALIGN_UP((pc[i].bit + pc[i].width + 7u) / 8u, 2u);
		memcpy(old, hp + b0, b1 - b0);
		cur = mlx5dm_prm_get(hp, pc[i].bit, pc[i].width);
		mlx5dm_prm_set(hp, pc[i].bit, pc[i].width, (cur & ~pm) | (pv & pm));
		mlx5dm_sim_mf_csum(w, &pc[i], off, b0, old, b1 - b0);
		bytes = true;
	}
	if (bytes)
		mlx5dm_sim_walk_changed(w);
	else
		w->gen++; /* metadata only: still a new state for loop detection */
}

/* ste_double_action_{set,add,copy}_v1 */
static const struct {
	struct mlx5dm_prm_field id, dst, dst_shift, len, data, src, src_shift;
} mlx5dm_sim_mf_act = {
	.id = MLX5DM_PRM_FIELD(0x000, 8),
	.dst = MLX5DM_PRM_FIELD(0x008, 8),
	.dst_shift = MLX5DM_PRM_FIELD(0x012, 6),
	.len = MLX5DM_PRM_FIELD(0x01a, 6),
	.data = MLX5DM_PRM_FIELD(0x020, 32),
	.src = MLX5DM_PRM_FIELD(0x028, 8),
	.src_shift = MLX5DM_PRM_FIELD(0x032, 6),
};

/* The v1 shifters carry the bit position + 0x20 (MLX5_MODIFY_HEADER_V1_QW_OFFSET). */
#define MLX5DM_SIM_MF_QW_OFFSET 0x20u

int
mlx5dm_sim_act_modify(struct mlx5dm_sim_walk *w, const uint8_t *a)
{
	unsigned int id = (unsigned int)mlx5dm_prm_fget(a, mlx5dm_sim_mf_act.id);
	uint8_t dst = (uint8_t)mlx5dm_prm_fget(a, mlx5dm_sim_mf_act.dst);
	unsigned int dshift = (unsigned int)mlx5dm_prm_fget(a, mlx5dm_sim_mf_act.dst_shift);
	unsigned int len = (unsigned int)mlx5dm_prm_fget(a, mlx5dm_sim_mf_act.len);
	uint32_t data = (uint32_t)mlx5dm_prm_fget(a, mlx5dm_sim_mf_act.data);
	unsigned int pos, spos;
	uint32_t m, d, v;
	bool present;

	if (len == 0)
		len = 32;
	pos = dshift - MLX5DM_SIM_MF_QW_OFFSET;
	if (dshift < MLX5DM_SIM_MF_QW_OFFSET || len > 32 || pos + len > 32) {
		MLX5DM_SIM_TRACE(w, "    bad modify action: shifter 0x%x length %u", dshift, len);
		return MLX5DM_SIM_FATE_WALK_ERROR;
	}
	m = mlx5dm_sim_mf_mask(len);
	d = mlx5dm_sim_mf_read(w, dst, &present);
	switch (id) {
	case MLX5DM_SIM_ACT_SET:
		v = data & m;
		MLX5DM_SIM_TRACE(w, "    set dword 0x%02x bits %u..%u = 0x%x", dst, pos,
				 pos + len - 1, v);
		break;
	case MLX5DM_SIM_ACT_ADD:
		v = (((d >> pos) & m) + data) & m;
		MLX5DM_SIM_TRACE(w, "    add 0x%x to dword 0x%02x bits %u..%u -> 0x%x", data, dst,
				 pos, pos + len - 1, v);
		break;
	case MLX5DM_SIM_ACT_COPY: {
		uint8_t src = (uint8_t)mlx5dm_prm_fget(a, mlx5dm_sim_mf_act.src);
		unsigned int sshift = (unsigned int)mlx5dm_prm_fget(a, mlx5dm_sim_mf_act.src_shift);
		bool src_present;

		spos = sshift - MLX5DM_SIM_MF_QW_OFFSET;
		if (sshift < MLX5DM_SIM_MF_QW_OFFSET || spos + len > 32) {
			MLX5DM_SIM_TRACE(w, "    bad copy action: source shifter 0x%x", sshift);
			return MLX5DM_SIM_FATE_WALK_ERROR;
		}
		v = (mlx5dm_sim_mf_read(w, src, &src_present) >> spos) & m;
		MLX5DM_SIM_TRACE(w, "    copy dword 0x%02x bits %u.. -> dword 0x%02x bits %u..%u"
				 " = 0x%x", src, spos, dst, pos, pos + len - 1, v);
		break;
	}
	default:
		return MLX5DM_SIM_FATE_WALK_ERROR;
	}
	if (!present) {
		MLX5DM_SIM_TRACE(w, "    dword 0x%02x not in this packet: ignored", dst);
		return 0;
	}
	mlx5dm_sim_mf_write(w, dst, v << pos, m << pos);
	return 0;
}
