/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Private header of the engine half of the device model: the packet
 * parser, field vectors, STE decoding, the walk, the action executor, RSS
 * and the trace. Nothing here is seen by the core (it only calls the
 * mlx5dm_sim_engine_* functions of mlx5dm_sim_priv.h).
 *
 * Per-packet state lives on the caller's stack (struct mlx5dm_sim_walk), so
 * forwarding allocates nothing and several threads can walk at once.
 */

#ifndef _MLX5DM_SIM_ENGINE_PRIV_H_
#define _MLX5DM_SIM_ENGINE_PRIV_H_

#include <stdbool.h>
#include <stdint.h>

#include "mlx5dm_osdep.h"
#include "mlx5dm_sim_priv.h"

/* ---- packet parser (mlx5dm_sim_parse.c) ---- */

#define MLX5DM_SIM_NOHDR 0xffffu
/*
 * The parser keeps a copy of the frame's first bytes so lookups after a
 * header-changing action without the reparse bit still see the headers
 * the packet had when it was last parsed, as the hardware does. Headers
 * ending beyond this window are not parsed (treated as payload).
 */
#define MLX5DM_SIM_HDR_MAX 256u
#define MLX5DM_SIM_MPLS_MAX 5u

/* Encodings shared by the tag layouts (rdma-core dr_ste.h, dr_ste_v1.c). */
enum mlx5dm_sim_l3 {
	MLX5DM_SIM_L3_NONE = 0,
	MLX5DM_SIM_L3_IPV4 = 1,
	MLX5DM_SIM_L3_IPV6 = 2,
};

enum mlx5dm_sim_l4 {
	MLX5DM_SIM_L4_NONE = 0,
	MLX5DM_SIM_L4_TCP = 1,
	MLX5DM_SIM_L4_UDP = 2,
	MLX5DM_SIM_L4_ICMP = 4, /* not a tag encoding: ICMP/ICMPv6, tag l4_type stays 0 */
};

enum mlx5dm_sim_vlan_qual {
	MLX5DM_SIM_VLAN_NONE = 0,
	MLX5DM_SIM_VLAN_S = 1, /* 0x88a8 */
	MLX5DM_SIM_VLAN_C = 2, /* 0x8100 */
};

enum mlx5dm_sim_tnl {
	MLX5DM_SIM_TNL_NONE = 0,
	MLX5DM_SIM_TNL_VXLAN,
	MLX5DM_SIM_TNL_GRE,
	MLX5DM_SIM_TNL_MPLS_UDP, /* MPLS over UDP (destination port 6635) */
};

#define MLX5DM_SIM_ETH_P_MPLS_UC 0x8847 /* MPLS unicast (also a GRE protocol type) */
#define MLX5DM_SIM_MPLS_UDP_PORT 6635 /* IANA mpls-in-udp (RFC 7510) */

/* One header stack (outer or inner); offsets from the frame start. */
struct mlx5dm_sim_hdrs {
	uint16_t l2;          /* Ethernet header, NOHDR when the stack starts at L3 */
	uint16_t vlan[2];     /* VLAN tags (TPID first) */
	uint16_t mpls;        /* first MPLS label stack entry */
	uint16_t l3;          /* IPv4/IPv6 header */
	uint16_t l3_len;      /* IPv4 ihl * 4, or 40 + IPv6 extension headers */
	uint16_t l4;          /* TCP/UDP/ICMP header */
	uint16_t ethertype;   /* the L3 ethertype (after VLANs), 0 without L2 */
	uint8_t nb_vlan;
	uint8_t vlan_qual[2]; /* enum mlx5dm_sim_vlan_qual */
	uint8_t nb_mpls;
	uint8_t l3_type;      /* enum mlx5dm_sim_l3 */
	uint8_t l4_type;      /* enum mlx5dm_sim_l4 */
	uint8_t proto;        /* IPv4 protocol / last IPv6 next header */
	uint8_t frag;         /* IP fragment (first or not) */
	uint8_t first_frag;   /* fragment with offset 0 */
	uint8_t l3_ext;       /* IPv4 options or IPv6 extension headers present */
	uint8_t l3_ok;        /* IPv4 header checksum correct / IPv6 header complete */
	uint8_t l4_ok;        /* L4 header complete */
};

struct mlx5dm_sim_parse {
	struct mlx5dm_sim_hdrs o; /* outer */
	struct mlx5dm_sim_hdrs i; /* inner (tunnel payload) */
	uint8_t tnl;              /* enum mlx5dm_sim_tnl */
	uint8_t mpls_in_gre;      /* the GRE payload is an MPLS stack (inner mpls) */
	uint16_t tnl_off;         /* VXLAN or GRE header; MPLS over UDP: the UDP payload */
	uint16_t tnl_len;         /* 0 for MPLS over UDP: its labels are the inner mpls */
	uint16_t len;             /* valid bytes in hdr[] */
	uint16_t pkt_len;         /* frame length when parsed */
	uint32_t ptype;           /* MLX5DM_SIM_PTYPE_* */
	uint8_t hdr[MLX5DM_SIM_HDR_MAX];
};

/* 0, or -EINVAL for a malformed or truncated frame (p is then partial). */
int mlx5dm_sim_parse(const uint8_t *frame, uint16_t len, struct mlx5dm_sim_parse *p);

/* ---- per-packet metadata carried through a walk ---- */

struct mlx5dm_sim_meta {
	uint32_t reg_a;       /* general purpose (matched by GENERAL_PURPOSE) */
	uint32_t reg_b;       /* metadata to CQE */
	uint32_t reg_c[8];
	uint32_t flow_tag;
	bool has_flow_tag;
	/* What the E-Switch stamps on a frame from a function (0 from the wire). */
	uint16_t source_gvmi;
	uint32_t source_qp;
};

/* ---- field vectors (mlx5dm_sim_parse_fv.c) ---- */

/* v1 lookup types: (mode << 8) | index (rdma-core dr_ste_v1.c, DR_STE_V1_LU_TYPE_*). */
enum mlx5dm_sim_lu {
	MLX5DM_SIM_LU_ETHL2_TNL = 0x0002,
	MLX5DM_SIM_LU_ETHL2_O = 0x0003,
	MLX5DM_SIM_LU_ETHL2_I = 0x0004,
	MLX5DM_SIM_LU_ETHL2_SRC_O = 0x0005,
	MLX5DM_SIM_LU_ETHL2_SRC_I = 0x0006,
	MLX5DM_SIM_LU_IPV4_5_TUPLE_O = 0x0007,
	MLX5DM_SIM_LU_IPV4_5_TUPLE_I = 0x0008,
	MLX5DM_SIM_LU_ETHL4_O = 0x0009,
	MLX5DM_SIM_LU_ETHL4_I = 0x000a,
	MLX5DM_SIM_LU_ETHL2_SRC_DST_O = 0x000b,
	MLX5DM_SIM_LU_ETHL2_SRC_DST_I = 0x000c,
	MLX5DM_SIM_LU_IPV4_MISC_O = 0x000d,
	/* 0x000f is both ETHL3_IPV4_MISC_I and DONT_CARE (anchors use a zero mask). */
	MLX5DM_SIM_LU_IPV4_MISC_I = 0x000f,
	MLX5DM_SIM_LU_DONT_CARE = 0x000f,
	MLX5DM_SIM_LU_SRC_QP_GVMI = 0x0104,
	MLX5DM_SIM_LU_IPV6_DES_O = 0x0107,
	MLX5DM_SIM_LU_IPV6_DES_I = 0x0108,
	MLX5DM_SIM_LU_IPV6_SRC_O = 0x0109,
	MLX5DM_SIM_LU_IPV6_SRC_I = 0x010a,
	MLX5DM_SIM_LU_MPLS_O = 0x010b,
	MLX5DM_SIM_LU_MPLS_I = 0x010c,
	MLX5DM_SIM_LU_GRE = 0x010d,
	MLX5DM_SIM_LU_GENERAL_PURPOSE = 0x010e,
	MLX5DM_SIM_LU_STEERING_REGS_0 = 0x010f,
	MLX5DM_SIM_LU_STEERING_REGS_1 = 0x0110,
	MLX5DM_SIM_LU_FLEX_PARSER_0 = 0x0111, /* flex parsers 3..0, one dword each */
	MLX5DM_SIM_LU_FLEX_PARSER_1 = 0x0112, /* flex parsers 7..4 */
	MLX5DM_SIM_LU_ETHL4_MISC_O = 0x0113,
	MLX5DM_SIM_LU_ETHL4_MISC_I = 0x0114,
	MLX5DM_SIM_LU_NONE = 0xffff, /* no lookup type (mode and index are far smaller) */
};

#define MLX5DM_SIM_FV_LEN 16u

/*
 * Build the 16-byte field vector of lookup type lu for packet p (tag
 * layout of mlx5_ifc.h ste_*_v1). Returns 0, or -ENOTSUP when lu is not
 * modelled (v is then all zero).
 */
int mlx5dm_sim_fv_build(uint16_t lu, const struct mlx5dm_sim_parse *p,
			const struct mlx5dm_sim_meta *m, uint8_t v[MLX5DM_SIM_FV_LEN]);
/*
 * The same, for the bytes in need only (bit 15 = byte 0, as a hash byte
 * mask: those a mask or a hash looks at): the fields of the layout that
 * touch them, except those already in *have (bit k: the layout's field
 * k), are written into v, which holds what earlier calls built (all zero
 * at first); *have gains them. The other bytes of v stay as they were.
 */
int mlx5dm_sim_fv_build_part(uint16_t lu, const struct mlx5dm_sim_parse *p,
			     const struct mlx5dm_sim_meta *m, uint8_t v[MLX5DM_SIM_FV_LEN],
			     uint16_t need, uint64_t *have);
const char *mlx5dm_sim_fv_name(uint16_t lu);

/* ---- hash (mlx5dm_sim_engine_hash.c) ---- */

/*
 * The device's hash-table index input: reflected CRC-32 (0xEDB88320),
 * seed 0, no final xor, over the bytes of v selected by byte_mask (bit 15
 * = byte 0; unselected bytes hash as 0), byte-swapped.
 */
uint32_t mlx5dm_sim_hash(const uint8_t v[MLX5DM_SIM_FV_LEN], uint16_t byte_mask);
uint32_t mlx5dm_sim_crc32(const uint8_t *buf, unsigned int len);

/* ---- STE decoding (mlx5dm_sim_engine_ste.c) ---- */

#define MLX5DM_SIM_STE_SIZE 64u

enum mlx5dm_sim_ste_fmt {
	MLX5DM_SIM_STE_BWC,       /* entry_format 0/1: ctrl | mask(16) | tag(16), 8 B actions */
	MLX5DM_SIM_STE_MASK_MATCH, /* entry_format 2/3: ctrl(12 B actions) | mask | tag */
	MLX5DM_SIM_STE_DEFINER,   /* entry_format 4: ctrl(12 B actions) | tag(32) */
	MLX5DM_SIM_STE_UNKNOWN,
};

struct mlx5dm_sim_ste {
	uint8_t raw[MLX5DM_SIM_STE_SIZE];
	uint8_t entry_format;
	uint8_t fmt;              /* enum mlx5dm_sim_ste_fmt */
	uint16_t lu;              /* own lookup type: mode << 8 | match_definer_ctx_idx, mode =
				   * entry_format (BWC), entry_format - 2 (2/3), 4 (definer) */
	uint32_t counter_id;
	uint64_t miss_addr;       /* GVMI << 48 | address */
	bool reparse;
	uint16_t next_lu;         /* next_entry_format << 8 | hash_definer_ctx_idx */
	uint64_t hit_addr;        /* GVMI << 48 | table base */
	uint32_t hit_size;        /* entries of the next table; 0 = no valid pointer */
	uint16_t byte_mask;       /* next table's hash byte mask */
	const uint8_t *actions;   /* into raw */
	uint8_t actions_len;      /* 8 (BWC) or 12 */
	const uint8_t *mask;      /* 16 B, NULL for definer entries */
	const uint8_t *tag;       /* 16 B (BWC) or 32 B (definer) */
	uint16_t mask_bytes;      /* the mask's non-zero bytes, bit 15 = byte 0 (0 without mask) */
	bool no_actions;          /* every action slot is a NOP: a hit runs nothing */
	/* The pointers may name terminals (mlx5dm_sim_terminal_possible; true when not known). */
	bool hit_may_end;
	bool miss_may_end;
};

void mlx5dm_sim_ste_decode(const uint8_t raw[MLX5DM_SIM_STE_SIZE], struct mlx5dm_sim_ste *s);

/*
 * A cache of decoded STE lines, direct-mapped by ICM address, owned by one
 * thread (a device thread). An entry holds the line's bytes as read and
 * their decoding, and the line's version then (mlx5dm_sim_line_ver): it
 * serves only while the line's version is still that one, so a walk still
 * decides from the ICM bytes as they are, and any write to the line (the
 * send engine's, a discard, SYNC_STEERING) is seen by the next read.
 */
#define MLX5DM_SIM_LINES_LOG 12

struct mlx5dm_sim_lines {
	struct mlx5dm_sim_line_ent {
		const struct mlx5dm_sim *sim;
		uint64_t addr;
		struct mlx5dm_sim_line_ver ver;
		struct mlx5dm_sim_ste ste;
	} e[1u << MLX5DM_SIM_LINES_LOG];
};

/*
 * The decoded STE at icm_addr of sim: from c while the line is as it was
 * decoded, else read, decoded and kept in c (c NULL: into *own). NULL
 * when mlx5dm_sim_icm_read would fail there. The result is valid until
 * the next fetch with c.
 */
const struct mlx5dm_sim_ste *mlx5dm_sim_ste_fetch(struct mlx5dm_sim *sim,
						  struct mlx5dm_sim_lines *c, uint64_t icm_addr,
						  struct mlx5dm_sim_ste *own);

/* ---- walk (mlx5dm_sim_engine_walk.c) ---- */

enum mlx5dm_sim_fate {
	MLX5DM_SIM_FATE_NONE = 0,
	MLX5DM_SIM_FATE_WIRE,         /* TX: onto the wire */
	MLX5DM_SIM_FATE_TIR,          /* RX: to TIR w->tirn */
	MLX5DM_SIM_FATE_STEERING_DROP,
	MLX5DM_SIM_FATE_DEFAULT_MISS,
	MLX5DM_SIM_FATE_WALK_ERROR,
	MLX5DM_SIM_FATE_PARSE_ERROR,
	MLX5DM_SIM_FATE_NO_ROOM,      /* an inserting action had no head/tailroom */
	MLX5DM_SIM_FATE_LOOP,         /* an STE revisited: the tables hold a cycle */
	MLX5DM_SIM_FATE_VPORT,        /* FDB: into vport w->vport (its NIC RX) */
};

struct mlx5dm_sim_engine;

/* Lookup types whose field vectors a walk keeps at once. */
#define MLX5DM_SIM_WALK_FV_SLOTS 4

/* Everything one packet's walk through one direction needs, on the stack. */
struct mlx5dm_sim_walk {
	struct mlx5dm_sim *sim;
	struct mlx5dm_sim_hold *hold; /* the burst's, on sim */
	struct mlx5dm_sim_lines *lines; /* the burst's cache of decoded STEs, or NULL */
	const struct mlx5dm_sim_caps *caps;
	enum mlx5dm_sim_dir dir;
	struct mlx5dm_sim_pkt *pkt;
	bool fdb;                     /* the E-Switch's FDB of w->sim (the manager) */
	bool meta_set;                /* w->meta is preset (E-Switch stamps), not cleared */
	mlx5dm_sim_trace_fn trace;   /* NULL when tracing is off */
	void *trace_arg;
	struct mlx5dm_sim_meta meta;
	struct mlx5dm_sim_parse look; /* what lookups see; refreshed on reparse */
	struct mlx5dm_sim_parse work; /* the current frame layout, for actions */
	bool look_current;            /* set before a walk: look already describes pkt */
	bool dirty;                   /* frame layout changed since look was parsed */
	bool work_valid;              /* work matches the current frame */
	uint32_t gen;                 /* bumped by every state change (loop detection) */
	/*
	 * The field vectors built, by lookup type, each with the fields built
	 * so far (a mask or a hash asks for the bytes it looks at): valid
	 * while the state (gen) and the parse lookups see stay, for a walk
	 * alternates between the lookup types of its matchers and hashes.
	 */
	struct mlx5dm_sim_fv_slot {
		uint8_t v[MLX5DM_SIM_FV_LEN];
		uint64_t have;        /* fields built */
		uint16_t done;        /* bytes complete: every field touching them built */
		uint16_t lu;
	} fv[MLX5DM_SIM_WALK_FV_SLOTS];
	uint8_t fv_n;                 /* slots in use; 0 = none valid */
	uint8_t fv_next;              /* the slot a new lookup type takes when all are in use */
	uint32_t fv_gen;
	uint32_t tirn;                /* with MLX5DM_SIM_FATE_TIR */
	uint16_t vport;               /* with MLX5DM_SIM_FATE_VPORT */
	uint8_t fate;                 /* enum mlx5dm_sim_fate */
};

/*
 * Walk w->pkt through direction w->dir of w->sim: parse, steer, execute
 * actions. Sets w->fate (and w->tirn); never fails otherwise.
 */
void mlx5dm_sim_walk_run(struct mlx5dm_sim_walk *w);

/* The frame's current layout (re-parsed lazily after header changes). */
const struct mlx5dm_sim_parse *mlx5dm_sim_walk_layout(struct mlx5dm_sim_walk *w);
/* Record that the frame's bytes changed (lookups see it only after a reparse). */
void mlx5dm_sim_walk_changed(struct mlx5dm_sim_walk *w);

/* ---- the engine of an instance (mlx5dm_sim_engine.c), shared with the E-Switch ---- */

struct mlx5dm_sim_engine {
	struct mlx5dm_sim *sim;
	uintptr_t wire;
	mlx5dm_sim_trace_fn trace;
	void *trace_arg;
	struct mlx5dm_dev_port_stats st[1];
};

void mlx5dm_sim_stat_add(uint64_t *c, uint64_t v);
void mlx5dm_sim_stat_flush(struct mlx5dm_dev_port_stats *dst,
			   const struct mlx5dm_dev_port_stats *src);
void mlx5dm_sim_engine_walk_init(struct mlx5dm_sim_engine *engine, struct mlx5dm_sim_walk *w,
				 struct mlx5dm_sim_hold *hold, enum mlx5dm_sim_dir dir,
				 struct mlx5dm_sim_pkt *pkt);
/* Count a walk that did not end where it should go on; true if it was a drop. */
bool mlx5dm_sim_engine_drop(struct mlx5dm_dev_port_stats *st, uint8_t fate);
/* RX walk ended at a TIR: choose the queue and deliver. */
void mlx5dm_sim_engine_deliver(struct mlx5dm_sim_walk *w, struct mlx5dm_dev_port_stats *st);
const char *mlx5dm_sim_fate_name(uint8_t fate);
/* Which engine receives what engine's uplink sends; NULL: the cable is dead. */
struct mlx5dm_sim_engine *mlx5dm_sim_engine_peer(struct mlx5dm_sim_engine *engine);

/*
 * A burst of frames that crosses an E-Switch (mlx5dm_sim_engine_esw.c): sent
 * by a function on one (vt entered) and/or into an uplink whose device
 * manages one (vr entered; peer is then its engine). Exits both views.
 */
int mlx5dm_sim_engine_esw_burst(struct mlx5dm_sim_engine *engine, struct mlx5dm_sim_esw_view *vt,
				struct mlx5dm_sim_engine *peer, struct mlx5dm_sim_esw_view *vr,
				struct mlx5dm_sim_pkt *pkts, uint16_t n,
				struct mlx5dm_sim_lines *lines);

/* ---- actions (mlx5dm_sim_act*.c) ---- */

/* v1 action ids (first byte of an action slot, rdma-core enum dr_ste_v1_action_id). */
enum mlx5dm_sim_act_id {
	MLX5DM_SIM_ACT_NOP = 0x00,
	MLX5DM_SIM_ACT_COPY = 0x05,
	MLX5DM_SIM_ACT_SET = 0x06,
	MLX5DM_SIM_ACT_ADD = 0x07,
	MLX5DM_SIM_ACT_REMOVE_BY_SIZE = 0x08,
	MLX5DM_SIM_ACT_REMOVE_HDR = 0x09,
	MLX5DM_SIM_ACT_INSERT_INLINE = 0x0a,
	MLX5DM_SIM_ACT_INSERT_PTR = 0x0b,
	MLX5DM_SIM_ACT_FLOW_TAG = 0x0c,
	MLX5DM_SIM_ACT_ACCEL_LIST = 0x0e,
	MLX5DM_SIM_ACT_MODIFY_LIST = 0x0f,
	MLX5DM_SIM_ACT_ASO = 0x12,
};

/* Outcome of executing actions: 0, or an enum mlx5dm_sim_fate that ends the walk. */
int mlx5dm_sim_act_run(struct mlx5dm_sim_walk *w, const uint8_t *area, unsigned int len);

/* Header rewrite (SET/ADD/COPY) of one 8-byte action; 0 or a fate. */
int mlx5dm_sim_act_modify(struct mlx5dm_sim_walk *w, const uint8_t *a);
/* Insert/remove actions (one 4- or 8-byte action); 0 or a fate. */
int mlx5dm_sim_act_reformat(struct mlx5dm_sim_walk *w, const uint8_t *a);

/* Checksums (mlx5dm_sim_act_csum.c). */
uint16_t mlx5dm_sim_csum_fold(uint32_t sum);
uint32_t mlx5dm_sim_csum_add(uint32_t sum, const uint8_t *buf, unsigned int len);
void mlx5dm_sim_csum_ipv4_fix(uint8_t *l3, unsigned int hlen);
/* Adjust the L4 checksum at l4 for a 16-bit-aligned region changing from old to new. */
void mlx5dm_sim_csum_l4_adjust(uint8_t *frame, const struct mlx5dm_sim_hdrs *h,
			       const uint8_t *old, const uint8_t *cur, unsigned int len);

/*
 * What the receive offload reports in the CQE of a frame delivered with
 * layout p (the device's one parse of it, the one its steering used, so
 * the frame is not parsed again): the hds_ip_ext byte in *ok (L3_OK: an
 * IPv4 header whose checksum verifies, or an IPv6 header; L4_OK: a TCP or
 * UDP checksum that verifies, or UDP over IPv4 without one) and the
 * ip_frag / l4_hdr_type / l3_hdr_type byte in *hdr, of the outer headers.
 */
void mlx5dm_sim_rx_offload(const struct mlx5dm_sim_parse *p, const uint8_t *f, uint16_t len,
			   uint8_t *ok, uint8_t *hdr);

/*
 * After an encapsulation header was inserted at the frame start, set its
 * IPv4 total length (and header checksum), IPv6 payload length and UDP
 * length from the new frame length, as the device does.
 */
void mlx5dm_sim_encap_fixup(uint8_t *frame, uint16_t len);

/* ---- RSS (mlx5dm_sim_rss.c) ---- */

uint32_t mlx5dm_sim_toeplitz(const uint8_t key[40], const uint8_t *in, unsigned int len);
/*
 * Pick the receive queue of tir for packet p; sets *hash and *has_hash
 * when the TIR hashes. Returns the RQ number.
 */
uint32_t mlx5dm_sim_rss_pick(const struct mlx5dm_sim_tir_info *tir,
			     const struct mlx5dm_sim_parse *p, uint32_t *hash, bool *has_hash);

/* ---- trace (mlx5dm_sim_engine_trace.c) ---- */

void mlx5dm_sim_tracef(const struct mlx5dm_sim_walk *w, const char *fmt, ...)
	MLX5DM_FORMAT(2, 3);

#define MLX5DM_SIM_TRACE(w, ...) do { \
	if (MLX5DM_UNLIKELY((w)->trace != NULL)) \
		mlx5dm_sim_tracef((w), __VA_ARGS__); \
} while (0)

#endif /* _MLX5DM_SIM_ENGINE_PRIV_H_ */
