/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The datapath's queue formats: send WQEs written into an SQ ring, receive
 * WQEs of an RQ and the 64-byte CQEs read back. Layouts as the PRM gives
 * them: rdma-core providers/mlx5/mlx5dv.h (struct mlx5_wqe_ctrl_seg,
 * mlx5_wqe_eth_seg, mlx5_wqe_data_seg, MLX5_WQE_CTRL_CQ_UPDATE) and DPDK
 * drivers/common/mlx5/mlx5_prm.h (struct mlx5_cqe, struct mlx5_err_cqe,
 * MLX5_CQE_*, MLX5_OPCODE_SEND). Header-only so that the unit tests build
 * and parse the bytes the bursts do.
 */

#ifndef _MLX5DM_RXTX_H_
#define _MLX5DM_RXTX_H_

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_io.h>
#include <rte_mbuf_core.h>
#include <rte_mbuf_ptype.h>

#define MLX5DM_WQEBB 64u               /* send WQE basic block */
#define MLX5DM_WSEG 16u                /* segment unit: what ds counts */
#define MLX5DM_WSEGS_PER_WQEBB (MLX5DM_WQEBB / MLX5DM_WSEG)
#define MLX5DM_WQE_DS_MAX 63u          /* ds is 6 bits */
#define MLX5DM_RQ_WQE 16u              /* one data segment */
#define MLX5DM_CQE 64u

#define MLX5DM_OPCODE_SEND 0x0au
#define MLX5DM_WQE_CTRL_CQ_UPDATE 0x08u   /* fm_ce_se: completion wanted */
/* The Ethernet segment carries the first 2 inline bytes (inline_hdr_start). */
#define MLX5DM_ESEG_INLINE_HEAD 2u

#define MLX5DM_CQE_REQ 0x0u
#define MLX5DM_CQE_RESP_SEND 0x2u
#define MLX5DM_CQE_REQ_ERR 0xdu
#define MLX5DM_CQE_RESP_ERR 0xeu
#define MLX5DM_CQE_INVALID 0xfu

#define MLX5DM_CQE_SYNDROME_LOCAL_LENGTH_ERR 0x01u
#define MLX5DM_CQE_SYNDROME_LOCAL_QP_OP_ERR 0x02u
#define MLX5DM_CQE_SYNDROME_LOCAL_PROT_ERR 0x04u
#define MLX5DM_CQE_SYNDROME_WR_FLUSH_ERR 0x05u

/* Byte offsets in a 64-byte CQE (struct mlx5_cqe; syndrome of struct mlx5_err_cqe). */
#define MLX5DM_CQE_PKT_INFO 0          /* bit 0 tunneled, bit 1 outer_l3_type (IPv6) */
#define MLX5DM_CQE_RX_HASH_RES 12
#define MLX5DM_CQE_RX_HASH_TYPE 16
#define MLX5DM_CQE_HDS_IP_EXT 28       /* bit 1 L3 checksum ok, bit 2 L4 checksum ok */
#define MLX5DM_CQE_L4_L3_HDR 29        /* ip_frag 7, l4_hdr_type 6:4, l3_hdr_type 3:2 */
#define MLX5DM_CQE_BYTE_CNT 44
#define MLX5DM_CQE_SYNDROME 55
#define MLX5DM_CQE_SOP_DROP_QPN 56     /* low 24 bits: the flow tag */
#define MLX5DM_CQE_WQE_COUNTER 60
#define MLX5DM_CQE_OP_OWN 63           /* opcode 7:4, owner 0 */

#define MLX5DM_CQE_L3_OK 0x02u
#define MLX5DM_CQE_L4_OK 0x04u
#define MLX5DM_CQE_TUNNELED 0x01u
#define MLX5DM_CQE_L3_IPV6 1u          /* l3_hdr_type */
#define MLX5DM_CQE_L3_IPV4 2u
#define MLX5DM_CQE_L4_TCP 1u           /* l4_hdr_type; 3 and 4 are TCP with(out) ACK data */
#define MLX5DM_CQE_L4_UDP 2u
#define MLX5DM_CQE_L4_TCP_EMPTY_ACK 3u
#define MLX5DM_CQE_L4_TCP_ACK 4u
#define MLX5DM_CQE_IP_FRAG 0x80u

static inline void
mlx5dm_put_be16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static inline void
mlx5dm_put_be32(uint8_t *p, uint32_t v)
{
	uint32_t be = rte_cpu_to_be_32(v);

	memcpy(p, &be, 4);
}

static inline void
mlx5dm_put_be64(uint8_t *p, uint64_t v)
{
	uint64_t be = rte_cpu_to_be_64(v);

	memcpy(p, &be, 8);
}

/*
 * A doorbell record: the counter the device reads, stored in one piece
 * after a write barrier (rte_io_wmb, as DPDK's mlx5 does before its
 * qp_db and cq_db stores), so the WQEs and released CQEs before it reach
 * the device first. The store is atomic (release) as the device's read is
 * one access: the device never sees half a counter, and a race detector
 * sees the order.
 */
static inline void
mlx5dm_dbrec_set(volatile uint32_t *rec, uint32_t v)
{
	rte_io_wmb();
	__atomic_store_n((uint32_t *)(uintptr_t)rec, rte_cpu_to_be_32(v), __ATOMIC_RELEASE);
}

static inline uint16_t
mlx5dm_get_be16(const volatile uint8_t *p)
{
	return (uint16_t)((uint16_t)p[0] << 8 | p[1]);
}

static inline uint32_t
mlx5dm_get_be32(const volatile uint8_t *p)
{
	uint32_t v;

	memcpy(&v, (const void *)(uintptr_t)p, 4);
	return rte_be_to_cpu_32(v);
}

/* ---- send ---- */

/* A piece of the frame: host memory the device reads through lkey. */
struct mlx5dm_tx_seg {
	const uint8_t *addr;
	uint32_t len;
	uint32_t lkey;
};

/* What one send WQE carries. */
struct mlx5dm_tx_wqe {
	uint32_t sqn;
	uint32_t metadata;       /* flow_table_metadata: reg_a of the NIC TX walk */
	uint16_t inline_sz;      /* header bytes copied into the Ethernet segment */
	bool completion;         /* ask for a CQE (CQ_UPDATE) */
	uint16_t nsegs;
	const struct mlx5dm_tx_seg *segs;
};

/*
 * 16-byte units of a WQE that inlines inline_sz bytes and points at the
 * frame's remaining bytes spread over nsegs segments (at most one data
 * segment per mbuf segment).
 */
static inline unsigned int
mlx5dm_tx_wqe_ds(uint16_t inline_sz, unsigned int nsegs)
{
	unsigned int ds = 2; /* control + Ethernet segment */

	if (inline_sz > MLX5DM_ESEG_INLINE_HEAD)
		ds += (inline_sz - MLX5DM_ESEG_INLINE_HEAD + MLX5DM_WSEG - 1) / MLX5DM_WSEG;
	return ds + nsegs;
}

/* Unit u (16 bytes) of the SQ ring, wrapping at its end. */
static inline uint8_t *
mlx5dm_tx_unit(uint8_t *wqes, uint32_t unit_mask, uint32_t u)
{
	return wqes + (size_t)(u & unit_mask) * MLX5DM_WSEG;
}

/* Copy n bytes starting at offset off of the segments' concatenation. */
static inline void
mlx5dm_tx_gather(uint8_t *dst, const struct mlx5dm_tx_seg *segs, unsigned int nsegs,
		 uint32_t off, uint32_t n)
{
	unsigned int i;

	for (i = 0; i < nsegs && n > 0; i++) {
		uint32_t take;

		if (off >= segs[i].len) {
			off -= segs[i].len;
			continue;
		}
		take = RTE_MIN(segs[i].len - off, n);
		memcpy(dst, segs[i].addr + off, take);
		dst += take;
		n -= take;
		off = 0;
	}
}

/*
 * Write a SEND WQE at WQEBB index pi of a ring of 2^log_wqes WQEBBs:
 * control segment, Ethernet segment with inline_sz header bytes (the first
 * two in the segment, the rest in the following units, zero-padded), one
 * data segment per segment holding bytes past the inlined header. Units
 * wrap around the ring's end. Returns the WQEBBs taken; the caller has
 * checked that they are free and that ds fits (MLX5DM_WQE_DS_MAX).
 */
static inline unsigned int
mlx5dm_tx_wqe_write(uint8_t *wqes, uint32_t log_wqes, uint16_t pi,
		    const struct mlx5dm_tx_wqe *w)
{
	uint32_t unit_mask = (MLX5DM_WSEGS_PER_WQEBB << log_wqes) - 1;
	uint32_t u = (uint32_t)pi * MLX5DM_WSEGS_PER_WQEBB;
	unsigned int nsegs = 0, i;
	uint32_t skip, done;
	uint8_t *seg;

	skip = w->inline_sz;
	for (i = 0; i < w->nsegs; i++) {
		if (skip >= w->segs[i].len) {
			skip -= w->segs[i].len;
			continue;
		}
		nsegs++;
		skip = 0;
	}
	/* Control segment. */
	seg = mlx5dm_tx_unit(wqes, unit_mask, u++);
	mlx5dm_put_be32(seg, (uint32_t)pi << 8 | MLX5DM_OPCODE_SEND);
	mlx5dm_put_be32(seg + 4, w->sqn << 8 | mlx5dm_tx_wqe_ds(w->inline_sz, nsegs));
	memset(seg + 8, 0, 8);
	if (w->completion)
		seg[11] = MLX5DM_WQE_CTRL_CQ_UPDATE;
	/* Ethernet segment. */
	seg = mlx5dm_tx_unit(wqes, unit_mask, u++);
	memset(seg, 0, 8);
	mlx5dm_put_be32(seg + 8, w->metadata);
	mlx5dm_put_be16(seg + 12, w->inline_sz);
	seg[14] = 0;
	seg[15] = 0;
	done = RTE_MIN((uint32_t)w->inline_sz, MLX5DM_ESEG_INLINE_HEAD);
	mlx5dm_tx_gather(seg + 14, w->segs, w->nsegs, 0, done);
	while (done < w->inline_sz) {
		uint32_t n = RTE_MIN((uint32_t)w->inline_sz - done, MLX5DM_WSEG);

		seg = mlx5dm_tx_unit(wqes, unit_mask, u++);
		memset(seg + n, 0, MLX5DM_WSEG - n);
		mlx5dm_tx_gather(seg, w->segs, w->nsegs, done, n);
		done += n;
	}
	/* Data segments: what the inline header did not take. */
	skip = w->inline_sz;
	for (i = 0; i < w->nsegs; i++) {
		const struct mlx5dm_tx_seg *s = &w->segs[i];

		if (skip >= s->len) {
			skip -= s->len;
			continue;
		}
		seg = mlx5dm_tx_unit(wqes, unit_mask, u++);
		mlx5dm_put_be32(seg, s->len - skip);
		mlx5dm_put_be32(seg + 4, s->lkey);
		mlx5dm_put_be64(seg + 8, (uint64_t)(uintptr_t)(s->addr + skip));
		skip = 0;
	}
	return (u - (uint32_t)pi * MLX5DM_WSEGS_PER_WQEBB + MLX5DM_WSEGS_PER_WQEBB - 1) /
	       MLX5DM_WSEGS_PER_WQEBB;
}

/* The doorbell value: the first 8 bytes of the WQE's control segment. */
static inline uint64_t
mlx5dm_tx_doorbell_value(const uint8_t *wqes, uint32_t log_wqes, uint16_t pi)
{
	uint64_t v;

	memcpy(&v, wqes + (size_t)(pi & ((1u << log_wqes) - 1)) * MLX5DM_WQEBB, 8);
	return v;
}

/* ---- receive ---- */

/* Receive WQE idx: one data segment (buffer length, lkey, address). */
static inline void
mlx5dm_rx_wqe_write(uint8_t *wqes, uint32_t idx, uint32_t len, uint32_t lkey, uint64_t addr)
{
	uint8_t *w = wqes + (size_t)idx * MLX5DM_RQ_WQE;

	mlx5dm_put_be32(w, len);
	mlx5dm_put_be32(w + 4, lkey);
	mlx5dm_put_be64(w + 8, addr);
}

/* ---- completions ---- */

/*
 * The CQE at consumer index ci of a CQ of 2^log_cqes entries, if software
 * owns it: the owner bit equals the wrap parity of ci and the opcode is
 * not INVALID. NULL otherwise. op_own is read with acquire semantics, the
 * read barrier DPDK's mlx5 puts after it (rte_io_rmb): the rest of the
 * CQE, the frame the device wrote and the WQEs it read before the CQE are
 * ordered before what the caller does next, as the device's own release
 * of op_own (written last) demands, and a race detector sees that order.
 */
static inline volatile uint8_t *
mlx5dm_cqe_get(uint8_t *cqes, uint32_t log_cqes, uint32_t ci)
{
	uint8_t *cqe = cqes + (size_t)(ci & ((1u << log_cqes) - 1)) * MLX5DM_CQE;
	uint8_t op_own = __atomic_load_n(&cqe[MLX5DM_CQE_OP_OWN], __ATOMIC_ACQUIRE);

	if ((op_own & 1u) != ((ci >> log_cqes) & 1u) || (op_own >> 4) == MLX5DM_CQE_INVALID)
		return NULL;
	return cqe;
}

static inline uint8_t
mlx5dm_cqe_opcode(const volatile uint8_t *cqe)
{
	return cqe[MLX5DM_CQE_OP_OWN] >> 4;
}

static inline uint16_t
mlx5dm_cqe_wqe_counter(const volatile uint8_t *cqe)
{
	return mlx5dm_get_be16(cqe + MLX5DM_CQE_WQE_COUNTER);
}

static inline uint8_t
mlx5dm_cqe_syndrome(const volatile uint8_t *cqe)
{
	return cqe[MLX5DM_CQE_SYNDROME];
}

static inline uint32_t
mlx5dm_cqe_byte_cnt(const volatile uint8_t *cqe)
{
	return mlx5dm_get_be32(cqe + MLX5DM_CQE_BYTE_CNT);
}

static inline uint32_t
mlx5dm_cqe_flow_tag(const volatile uint8_t *cqe)
{
	return mlx5dm_get_be32(cqe + MLX5DM_CQE_SOP_DROP_QPN) & 0xffffffu;
}

/* RSS hash of the frame; false when no TIR hashed it. */
static inline bool
mlx5dm_cqe_rss_hash(const volatile uint8_t *cqe, uint32_t *hash)
{
	if (cqe[MLX5DM_CQE_RX_HASH_TYPE] == 0)
		return false;
	*hash = mlx5dm_get_be32(cqe + MLX5DM_CQE_RX_HASH_RES);
	return true;
}

/*
 * Index into the packet-type table, as DPDK's rxq_cq_to_pkt_type builds
 * it: bits 1:0 l3_hdr_type, 4:2 l4_hdr_type, 5 ip_frag, 6 tunneled, 7
 * outer_l3_type.
 */
static inline uint8_t
mlx5dm_cqe_ptype_index(const volatile uint8_t *cqe)
{
	return (uint8_t)((cqe[MLX5DM_CQE_PKT_INFO] & 0x3u) << 6 | cqe[MLX5DM_CQE_L4_L3_HDR] >> 2);
}

/* Checksum flags: an L3/L4 header the device found is good when verified, bad otherwise. */
static inline uint64_t
mlx5dm_cqe_cksum_flags(const volatile uint8_t *cqe)
{
	uint8_t hdr = cqe[MLX5DM_CQE_L4_L3_HDR];
	uint8_t ok = cqe[MLX5DM_CQE_HDS_IP_EXT];
	uint8_t l3 = (hdr >> 2) & 0x3u, l4 = (hdr >> 4) & 0x7u;
	uint64_t f = 0;

	if (ok & MLX5DM_CQE_L3_OK)
		f |= RTE_MBUF_F_RX_IP_CKSUM_GOOD;
	else if (l3 == MLX5DM_CQE_L3_IPV4)
		f |= RTE_MBUF_F_RX_IP_CKSUM_BAD;
	if (ok & MLX5DM_CQE_L4_OK)
		f |= RTE_MBUF_F_RX_L4_CKSUM_GOOD;
	else if (l4 != 0 && l4 <= MLX5DM_CQE_L4_TCP_ACK && !(hdr & MLX5DM_CQE_IP_FRAG))
		f |= RTE_MBUF_F_RX_L4_CKSUM_BAD;
	return f;
}

/*
 * The packet-type table (256 entries) indexed by mlx5dm_cqe_ptype_index:
 * what a CQE says, nothing more (header extensions and the tunnel kind are
 * not in it). For a tunneled frame l3/l4 describe the inner headers.
 */
static inline void
mlx5dm_ptype_table_init(uint32_t *t)
{
	unsigned int i;

	for (i = 0; i < 256; i++) {
		unsigned int l3 = i & 0x3u, l4 = (i >> 2) & 0x7u;
		bool frag = i & 0x20u, tunnel = i & 0x40u, outer6 = i & 0x80u;
		uint32_t l3t, l4t, v = RTE_PTYPE_L2_ETHER;

		if (l3 == 0 || l3 == 3) {
			/* No IP header seen: L2 only (a tunnel needs an outer IP). */
			t[i] = l3 == 0 && !tunnel ? v : RTE_PTYPE_UNKNOWN;
			if (l3 == 0 && tunnel)
				t[i] = v | (outer6 ? RTE_PTYPE_L3_IPV6_EXT_UNKNOWN :
						     RTE_PTYPE_L3_IPV4_EXT_UNKNOWN);
			continue;
		}
		if (frag)
			l4t = RTE_PTYPE_L4_FRAG;
		else if (l4 == MLX5DM_CQE_L4_UDP)
			l4t = RTE_PTYPE_L4_UDP;
		else if (l4 == MLX5DM_CQE_L4_TCP || l4 == MLX5DM_CQE_L4_TCP_EMPTY_ACK ||
			 l4 == MLX5DM_CQE_L4_TCP_ACK)
			l4t = RTE_PTYPE_L4_TCP;
		else if (l4 == 0)
			l4t = RTE_PTYPE_L4_NONFRAG;
		else
			l4t = RTE_PTYPE_UNKNOWN;
		l3t = l3 == MLX5DM_CQE_L3_IPV6 ? RTE_PTYPE_L3_IPV6_EXT_UNKNOWN :
						 RTE_PTYPE_L3_IPV4_EXT_UNKNOWN;
		if (!tunnel) {
			t[i] = v | l3t | l4t;
			continue;
		}
		/* Inner types are the outer ones shifted into the inner nibbles. */
		v |= outer6 ? RTE_PTYPE_L3_IPV6_EXT_UNKNOWN : RTE_PTYPE_L3_IPV4_EXT_UNKNOWN;
		t[i] = v | (l3 == MLX5DM_CQE_L3_IPV6 ? RTE_PTYPE_INNER_L3_IPV6_EXT_UNKNOWN :
						       RTE_PTYPE_INNER_L3_IPV4_EXT_UNKNOWN) |
		       (l4t << 16);
	}
}

#endif /* _MLX5DM_RXTX_H_ */
