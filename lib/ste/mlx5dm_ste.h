/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * lib/ste: the bytes of steering table entries (STEs) as the device reads
 * them from ICM. Turns a match mask into a chain of lookups ("builders"),
 * rule values into tags, destinations into hit/miss pointers and an action
 * list into action slots and extra action STEs; computes the hash index the
 * device uses; translates modify-header and reformat actions to the
 * device's encodings.
 *
 * Everything format specific sits behind struct mlx5dm_ste_ctx, obtained
 * with mlx5dm_ste_ctx_get(steering_format_version). Only STE v1
 * (ConnectX-6 Dx) is implemented; callers never test the format themselves.
 *
 * STE buffers are 64 bytes in the software ("shadow") layout:
 * control[0..31] | tag[32..47] | mask[48..63] for legacy (BWC) entries and
 * control[0..31] | tag[32..63] for MATCH entries. mlx5dm_ste_to_hw() turns
 * a full-size shadow entry into the device image right before it is
 * written to ICM. BWC, in names here: the STE v1 entry formats 0 and 1,
 * whose lookup hashes the tag bytes its 16-bit byte mask selects, named as
 * rdma-core names them (DR_STE_V1_TYPE_BWC_BYTE/_DW in providers/mlx5/
 * dr_ste_v1.c, ste_match_bwc_v1 in providers/mlx5/mlx5_ifc.h).
 *
 * Nothing here allocates memory, takes locks or talks to the device.
 */

#ifndef _MLX5DM_STE_H_
#define _MLX5DM_STE_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mlx5dm_prm.h"

/* Side of a domain an STE belongs to (an FDB domain has both). */
enum mlx5dm_ste_dir {
	MLX5DM_STE_DIR_RX = 0,
	MLX5DM_STE_DIR_TX = 1,
};

/* Domain kind, for the rules that differ between NIC and FDB domains. */
enum mlx5dm_ste_domain {
	MLX5DM_STE_DOMAIN_NIC = 0,
	MLX5DM_STE_DOMAIN_FDB = 1,
};

/* Format-independent lookup kinds a builder can produce. */
enum mlx5dm_ste_lookup {
	MLX5DM_STE_LOOKUP_DONT_CARE,	/* always hit, empty mask */
	MLX5DM_STE_LOOKUP_GENERAL_PURPOSE,
	MLX5DM_STE_LOOKUP_REGISTERS_0,
	MLX5DM_STE_LOOKUP_REGISTERS_1,
	MLX5DM_STE_LOOKUP_ETHL2_SRC_DST,
	MLX5DM_STE_LOOKUP_ETHL2_SRC,
	MLX5DM_STE_LOOKUP_ETHL2_DST,
	MLX5DM_STE_LOOKUP_ETHL2_TNL,
	MLX5DM_STE_LOOKUP_IPV4_MISC,
	MLX5DM_STE_LOOKUP_IPV4_5_TUPLE,
	MLX5DM_STE_LOOKUP_IPV6_DST,
	MLX5DM_STE_LOOKUP_IPV6_SRC,
	MLX5DM_STE_LOOKUP_ETHL4,
	MLX5DM_STE_LOOKUP_ETHL4_MISC,
	MLX5DM_STE_LOOKUP_MPLS,
	MLX5DM_STE_LOOKUP_MPLS_OVER_GRE,	/* flex parser, position from the device */
	MLX5DM_STE_LOOKUP_MPLS_OVER_UDP,	/* flex parser, position from the device */
	MLX5DM_STE_LOOKUP_ICMP,
	MLX5DM_STE_LOOKUP_GRE,
	/*
	 * The sending function (misc.source_port, misc.source_sqn): only with
	 * struct mlx5dm_ste_dev_caps.source_gvmi, whose caller has put the
	 * vport's vhca_id in source_port (an FDB side, rdma-core's vport caps),
	 * or, for source_sqn alone, .source_qp (NIC TX: a function's queues).
	 */
	MLX5DM_STE_LOOKUP_SRC_GVMI_QP,
	MLX5DM_STE_LOOKUP_MAX,
};

/*
 * Protocols the device parses with a flex parser: whether it does, and into
 * which of its eight parser dwords, are device facts (QUERY_HCA_CAP
 * flex_parser_protocols and flex_parser_id_*), so their lookups exist only
 * per device (struct mlx5dm_ste_dev_caps).
 */
enum mlx5dm_ste_flex {
	MLX5DM_STE_FLEX_MPLS_OVER_GRE,	/* misc2.outer_first_mpls_over_gre_* */
	MLX5DM_STE_FLEX_MPLS_OVER_UDP,	/* misc2.outer_first_mpls_over_udp_* */
	MLX5DM_STE_FLEX_MAX,
};

/* The device facts builder selection depends on (decoded QUERY_HCA_CAP). */
struct mlx5dm_ste_dev_caps {
	uint32_t flex_protocols;		/* flex_parser_protocols: MLX5DM_FLEX_PARSER_* */
	uint8_t flex_id[MLX5DM_STE_FLEX_MAX];	/* parser id of each protocol (0..7 usable) */
	bool source_gvmi;			/* misc.source_port holds a vhca_id: match it */
	bool source_qp;				/* misc.source_sqn can be matched (TX) */
};

struct mlx5dm_ste_lookup_def;
struct mlx5dm_ste_actions_set;
struct mlx5dm_ste_modify_field;

/* What a format can do beyond the basics (ctx->caps). */
enum {
	MLX5DM_STE_CAP_RX_ENCAP = 1u << 0,	/* encap allowed on an RX side */
	MLX5DM_STE_CAP_TX_POP = 1u << 1,	/* pop VLAN allowed on TX */
	MLX5DM_STE_CAP_RX_PUSH = 1u << 2,	/* push VLAN allowed on RX */
	MLX5DM_STE_CAP_POP_MODIFY = 1u << 3,	/* pop VLAN and modify in one STE */
	MLX5DM_STE_CAP_MODIFY_INLINE = 1u << 4,	/* single modify action in the STE */
};

/* Error report of the action and modify-header encoders. */
struct mlx5dm_ste_action_err {
	int index;	/* offending entry of the input list, -1 = the list as a whole */
	char msg[96];	/* e.g. "modify_header after encap on NIC_TX" */
};

/*
 * Per-format operations. Callers use the mlx5dm_ste_* wrappers below; a new
 * format (v0, v2, ...) is a new instance of this table.
 */
struct mlx5dm_ste_ctx {
	uint8_t format_version;
	const char *name;
	uint32_t caps;			/* MLX5DM_STE_CAP_* */
	uint16_t lu_dont_care;		/* anchors, always-hit builder */
	uint16_t lu_action;		/* extra action STEs */
	/*
	 * Tag layouts and lookup types, indexed by enum mlx5dm_ste_lookup
	 * (NULL for the flex-parser kinds, which depend on the device)...
	 */
	const struct mlx5dm_ste_lookup_def *const *lookups;
	/*
	 * ...and those: entry flex * MLX5DM_PRM_FLEX_PARSERS + parser id, for
	 * each enum mlx5dm_ste_flex and parser id; NULL: none.
	 */
	const struct mlx5dm_ste_lookup_def *flex_lookups;
	/* Modify-header field map, indexed by user field id (< map_size). */
	const struct mlx5dm_ste_modify_field *modify_map;
	unsigned int modify_map_size;

	/* Control part. */
	void (*init)(uint8_t *ste, uint16_t lu_type, enum mlx5dm_ste_dir dir, uint16_t gvmi);
	bool (*is_match_entry)(const uint8_t *ste);
	void (*set_next_lu_type)(uint8_t *ste, uint16_t lu_type);
	uint16_t (*get_next_lu_type)(const uint8_t *ste);
	void (*set_byte_mask)(uint8_t *ste, uint16_t byte_mask);
	uint16_t (*get_byte_mask)(const uint8_t *ste);
	void (*set_hit_addr)(uint8_t *ste, uint64_t icm_addr, uint32_t num_entries);
	void (*set_hit_gvmi)(uint8_t *ste, uint16_t gvmi);
	void (*set_miss_addr)(uint8_t *ste, uint64_t icm_addr);
	uint64_t (*get_miss_addr)(const uint8_t *ste);
	void (*set_counter_id)(uint8_t *ste, uint32_t counter_id);
	uint32_t (*get_counter_id)(const uint8_t *ste);
	/*
	 * The byte offset in ste of the one flow-tag action slot holding tag,
	 * -1 when none or more than one slot reads so (NULL: not offered);
	 * set_flow_tag rewrites the tag of such a slot; get_flow_tag reads the
	 * tag of the one flow-tag slot of any value (-1: none or more than one).
	 */
	int (*flow_tag_slot)(const uint8_t *ste, uint32_t tag);
	void (*set_flow_tag)(uint8_t *slot, uint32_t tag);
	int (*get_flow_tag)(const uint8_t *ste, uint32_t *tag);
	void (*set_ctrl_always_hit)(uint8_t *ste, uint16_t next_lu_type, uint16_t next_byte_mask,
				    uint64_t next_icm_addr, uint32_t next_num_entries,
				    uint16_t gvmi);
	void (*set_ctrl_always_miss)(uint8_t *ste, uint64_t miss_icm_addr, uint16_t gvmi);
	void (*to_hw)(uint8_t *ste, unsigned int size);

	/* Actions. */
	int (*place_actions)(const struct mlx5dm_ste_ctx *ctx,
			     const struct mlx5dm_ste_actions_set *set, uint16_t gvmi,
			     uint8_t *last_ste, unsigned int max_extra, unsigned int *n_extra,
			     struct mlx5dm_ste_action_err *err);
	void (*modify_encode)(uint8_t *hw, uint8_t sw_type, uint8_t dst_hw_field,
			      uint8_t dst_bit, uint8_t length, uint32_t data,
			      uint8_t src_hw_field, uint8_t src_bit);
	int (*decap_l3_list)(const uint8_t *l2_hdr, size_t len, uint8_t *hw,
			     unsigned int max_hw, unsigned int *n_hw);
	void (*modify_pattern)(uint8_t *action);
	/* Leading bytes of a pattern action that tell patterns apart. */
	unsigned int (*modify_pattern_key)(const uint8_t *action);
};

/**
 * Get the STE context of a device's steering_format_version cap.
 * Return: the context, or NULL with errno ENOTSUP for a format that is not
 * implemented (only 1, ConnectX-6 Dx, is).
 */
const struct mlx5dm_ste_ctx *mlx5dm_ste_ctx_get(uint8_t steering_format_version);

/* ------------------------------------------------------------------------
 * Control part: lookup types, pointers, images.
 */

/* Initialise the control of an STE of lookup lu_type (next lookup: don't care). */
static inline void
mlx5dm_ste_init(const struct mlx5dm_ste_ctx *ctx, uint8_t *ste, uint16_t lu_type,
		enum mlx5dm_ste_dir dir, uint16_t gvmi)
{
	ctx->init(ste, lu_type, dir, gvmi);
}

/* Next lookup (type and byte mask) of the table the hit pointer leads to. */
static inline void
mlx5dm_ste_set_next_lookup(const struct mlx5dm_ste_ctx *ctx, uint8_t *ste, uint16_t lu_type,
			   uint16_t byte_mask)
{
	ctx->set_next_lu_type(ste, lu_type);
	ctx->set_byte_mask(ste, byte_mask);
}

/* Hit pointer: a table of num_entries (power of two, 1 for a final address). */
static inline void
mlx5dm_ste_set_hit_addr(const struct mlx5dm_ste_ctx *ctx, uint8_t *ste, uint64_t icm_addr,
			uint32_t num_entries)
{
	ctx->set_hit_addr(ste, icm_addr, num_entries);
}

/* GVMI owning the hit target (own vhca_id, or a drop address >> 48). */
static inline void
mlx5dm_ste_set_hit_gvmi(const struct mlx5dm_ste_ctx *ctx, uint8_t *ste, uint16_t gvmi)
{
	ctx->set_hit_gvmi(ste, gvmi);
}

/* Miss pointer (64-byte aligned ICM address; 0 = "always hit" action STE). */
static inline void
mlx5dm_ste_set_miss_addr(const struct mlx5dm_ste_ctx *ctx, uint8_t *ste, uint64_t icm_addr)
{
	ctx->set_miss_addr(ste, icm_addr);
}

static inline uint64_t
mlx5dm_ste_get_miss_addr(const struct mlx5dm_ste_ctx *ctx, const uint8_t *ste)
{
	return ctx->get_miss_addr(ste);
}

/* Flow counter an entry counts into (0: none); only the control part is read/written. */
static inline void
mlx5dm_ste_set_counter_id(const struct mlx5dm_ste_ctx *ctx, uint8_t *ste, uint32_t counter_id)
{
	ctx->set_counter_id(ste, counter_id);
}

static inline uint32_t
mlx5dm_ste_get_counter_id(const struct mlx5dm_ste_ctx *ctx, const uint8_t *ste)
{
	return ctx->get_counter_id(ste);
}

static inline int
mlx5dm_ste_flow_tag_slot(const struct mlx5dm_ste_ctx *ctx, const uint8_t *ste, uint32_t tag)
{
	return ctx->flow_tag_slot != NULL ? ctx->flow_tag_slot(ste, tag) : -1;
}

static inline void
mlx5dm_ste_set_flow_tag(const struct mlx5dm_ste_ctx *ctx, uint8_t *slot, uint32_t tag)
{
	ctx->set_flow_tag(slot, tag);
}

static inline int
mlx5dm_ste_get_flow_tag(const struct mlx5dm_ste_ctx *ctx, const uint8_t *ste, uint32_t *tag)
{
	return ctx->get_flow_tag != NULL ? ctx->get_flow_tag(ste, tag) : -1;
}

/* True for entries with a 32-byte tag and no mask (MATCH / definer). */
static inline bool
mlx5dm_ste_is_match_entry(const struct mlx5dm_ste_ctx *ctx, const uint8_t *ste)
{
	return ctx->is_match_entry(ste);
}

/*
 * Shadow layout -> device image, in place, right before an ICM write of
 * size bytes (64 = full entry, 32 = control only). The operation is its
 * own inverse. v1: swaps tag and mask of full BWC entries.
 */
static inline void
mlx5dm_ste_to_hw(const struct mlx5dm_ste_ctx *ctx, uint8_t *ste, unsigned int size)
{
	if (ctx->to_hw != NULL)
		ctx->to_hw(ste, size);
}

/*
 * Complete 64-byte shadow image of an unused hash-table slot of lookup
 * lu_type: nothing can match it and a lookup continues at miss_icm_addr.
 */
void mlx5dm_ste_build_always_miss(const struct mlx5dm_ste_ctx *ctx, uint8_t *ste,
				  uint16_t lu_type, enum mlx5dm_ste_dir dir, uint16_t gvmi,
				  uint64_t miss_icm_addr);

/*
 * Complete 64-byte shadow image of an entry that always hits and continues
 * in the table at next_icm_addr (next_num_entries entries, lookup
 * next_lu_type hashed with next_byte_mask). Used for anchors.
 */
void mlx5dm_ste_build_always_hit(const struct mlx5dm_ste_ctx *ctx, uint8_t *ste,
				 uint16_t lu_type, enum mlx5dm_ste_dir dir, uint16_t gvmi,
				 uint16_t next_lu_type, uint16_t next_byte_mask,
				 uint64_t next_icm_addr, uint32_t next_num_entries);

/* ------------------------------------------------------------------------
 * Hash: the index the device computes for an entry.
 */

/* Reflected CRC-32 (poly 0xEDB88320), seed 0, no final xor. */
uint32_t mlx5dm_ste_crc32(const uint8_t *buf, size_t len);
/* The device's hash: mlx5dm_ste_crc32() byte-swapped. */
uint32_t mlx5dm_ste_hash(const uint8_t *buf, size_t len);
/* The hash of a legacy (BWC) 16-byte tag: bytes selected by byte_mask (0 if none). */
uint32_t mlx5dm_ste_hash_bwc(const uint8_t *tag, uint16_t byte_mask);
/*
 * Index of a legacy (BWC) entry with this 16-byte tag in a table of
 * num_entries hashed with byte_mask (bit 15 = tag byte 0). 0 when the
 * table has one entry or byte_mask is 0.
 */
uint32_t mlx5dm_ste_hash_index_bwc(const uint8_t *tag, uint16_t byte_mask,
				   uint32_t num_entries);
/* Index of a MATCH entry: hash of the whole 32-byte tag. */
uint32_t mlx5dm_ste_hash_index_match(const uint8_t *tag, uint32_t num_entries);

/* ------------------------------------------------------------------------
 * Builders: match mask (fte_match_param) -> chain of lookups.
 */

#define MLX5DM_STE_MAX_BUILDERS 20

/* One lookup of a matcher's chain. */
struct mlx5dm_ste_builder {
	const struct mlx5dm_ste_lookup_def *def;
	uint32_t active;	/* map entries the mask uses (bit i = entry i) */
	uint16_t lu_type;
	uint16_t byte_mask;	/* bit 15-i set <=> bit_mask[i] == 0xff */
	uint8_t bit_mask[MLX5DM_STE_MASK_SIZE];
	uint8_t lookup;		/* enum mlx5dm_ste_lookup */
	bool inner;
};

/**
 * Choose the lookups for a match mask, in the device's selection order.
 *
 * @dev: the device's flex-parser facts; NULL = a device without flex-parser
 *       protocols (their fields are then refused like any uncovered field).
 * @mask: 448-byte fte_match_param mask; only the sections enabled in
 *        criteria (match_criteria_enable bits 0..6) are read.
 * @dir: side of the domain the matcher lives on.
 * @out, @max: room for the builders; *n receives their number.
 * @err_field: on failure, the fte_match_param field at fault
 *             ("outer.ip_ttl_hoplimit"), or NULL when no field is to blame.
 *
 * An all-zero mask yields one always-hit builder. MPLS over GRE / over UDP
 * (misc2.outer_first_mpls_over_*) is looked up through the device's flex
 * parser when dev reports the protocol (MLX5DM_FLEX_PARSER_MPLS_OVER_*_ENABLED)
 * with a parser id below 8.
 * Return: 0; -EOPNOTSUPP if a mask field is covered by no builder (or the
 * mask's ip_version is neither 4 nor 6); -ENOSPC if more than max builders
 * are needed; -EINVAL for bad arguments.
 */
int mlx5dm_ste_build_matcher(const struct mlx5dm_ste_ctx *ctx,
			     const struct mlx5dm_ste_dev_caps *dev, const uint8_t *mask,
			     uint8_t criteria, enum mlx5dm_ste_dir dir,
			     struct mlx5dm_ste_builder *out, unsigned int max, unsigned int *n,
			     const char **err_field);

/**
 * Check a rule value against its matcher mask: no value bit outside the
 * mask, and ip_version equal to the mask's (the matcher's IP version).
 * Return: 0, or -EINVAL with *err_field naming the field.
 */
int mlx5dm_ste_check_value(const uint8_t *mask, const uint8_t *value, uint8_t criteria,
			   const char **err_field);

/**
 * The 16-byte tag of one builder for a rule value (already checked with
 * mlx5dm_ste_check_value()). Return: 0, or -EINVAL for an encoding the
 * lookup cannot express (ip_version other than 4/6).
 */
int mlx5dm_ste_build_tag(const struct mlx5dm_ste_builder *b, const uint8_t *value,
			 uint8_t *tag);

/**
 * The shadow STEs of a rule's match chain: for each builder, control (own
 * lookup, next lookup and byte mask of the following builder), the
 * builder's bit mask and the rule's tag. Pointers are left for the caller.
 * @ste_arr: n * 64 bytes. Return: 0 or the error of mlx5dm_ste_build_tag().
 */
int mlx5dm_ste_build_ste_arr(const struct mlx5dm_ste_ctx *ctx,
			     const struct mlx5dm_ste_builder *b, unsigned int n,
			     const uint8_t *value, enum mlx5dm_ste_dir dir, uint16_t gvmi,
			     uint8_t *ste_arr);

/*
 * A matcher's rule chain compiled once (a "template"): the shadow STEs with
 * everything a rule value cannot change already in place (control, next
 * lookups, bit masks, tag bits fixed by the mask such as the l3_type of the
 * matcher's IP version), plus the list of value bytes to copy into tags.
 * Tag fields that are not whole bytes, or that share bits with another
 * field, go through the generic map code, so a template build gives exactly
 * the bytes of mlx5dm_ste_build_ste_arr() at the cost of a few byte copies.
 */
#define MLX5DM_STE_TMPL_MAX_COPIES 64
#define MLX5DM_STE_TMPL_MAX_SLOW (MLX5DM_STE_MAX_BUILDERS * 32)

/* len bytes of the rule value at src go to byte dst of the STE array. */
struct mlx5dm_ste_tmpl_copy {
	uint16_t src;
	uint16_t dst;
	uint8_t len;
};

/* A map entry built the generic way: entry map of builder ste. */
struct mlx5dm_ste_tmpl_slow {
	uint8_t ste;
	uint8_t map;
};

struct mlx5dm_ste_tmpl {
	const struct mlx5dm_ste_builder *b;	/* the builders it was compiled from */
	unsigned int n;				/* STEs (builders) */
	unsigned int n_copy;
	unsigned int n_slow;
	uint8_t ipv[2];				/* ip_version a value must carry (0: any) */
	uint8_t criteria;
	uint8_t n_sec;				/* enabled sections, listed in sec[] */
	uint8_t sec[MLX5DM_FTE_NUM_SECTIONS];
	uint8_t image[MLX5DM_STE_MAX_BUILDERS * MLX5DM_STE_SIZE];
	/* Per 8-byte word of the match parameter: bits a value must not set. */
	uint64_t outside[MLX5DM_FTE_PARAM_SIZE / 8];
	struct mlx5dm_ste_tmpl_copy copy[MLX5DM_STE_TMPL_MAX_COPIES];
	struct mlx5dm_ste_tmpl_slow slow[MLX5DM_STE_TMPL_MAX_SLOW];
};

/**
 * Compile the template of a builder chain (from mlx5dm_ste_build_matcher()
 * on mask/criteria; b must stay in place as long as the template is used).
 * Return: 0, or -EINVAL for bad arguments.
 */
int mlx5dm_ste_tmpl_compile(const struct mlx5dm_ste_ctx *ctx, const struct mlx5dm_ste_builder *b,
			    unsigned int n, const uint8_t *mask, uint8_t criteria,
			    enum mlx5dm_ste_dir dir, uint16_t gvmi, struct mlx5dm_ste_tmpl *t);

/*
 * Does a rule value pass mlx5dm_ste_check_value() against the template's
 * mask? (The fast test; on false, mlx5dm_ste_check_value() names the field.)
 */
bool mlx5dm_ste_tmpl_value_ok(const struct mlx5dm_ste_tmpl *t, const uint8_t *value);

/**
 * The shadow STEs of a rule (t->n * 64 bytes), as mlx5dm_ste_build_ste_arr()
 * builds them, for a value that passed mlx5dm_ste_tmpl_value_ok().
 * Return: 0 or the error of the generic map code.
 */
int mlx5dm_ste_tmpl_build(const struct mlx5dm_ste_tmpl *t, const uint8_t *value,
			  uint8_t *ste_arr);

/*
 * Tags straight from a caller's bytes, as DPDK mlx5 HWS's definer setters
 * write a rule's tag from its items (drivers/net/mlx5/hws/mlx5dr_definer.c,
 * mlx5dr_definer_create_tag()): rules whose values are one example value
 * but for whole bytes the caller moves in from its own sources. The
 * example's entries are built once (the image); the caller's moves into
 * the match parameter are composed with the template's byte copies out of
 * it into moves from the sources to the entries. A rule's entries are the
 * image and those moves: no value is built, checked or read.
 */
#define MLX5DM_STE_TAG_MAX_MOVES 32

/* len bytes at byte from of source src go to byte to (of a value, or of the entries). */
struct mlx5dm_ste_move {
	uint16_t from;
	uint16_t to;
	uint8_t src;
	uint8_t len;
};

struct mlx5dm_ste_tag {
	unsigned int n;				/* STEs */
	unsigned int n_move;
	struct mlx5dm_ste_move move[MLX5DM_STE_TAG_MAX_MOVES];
	uint8_t image[MLX5DM_STE_MAX_BUILDERS * MLX5DM_STE_SIZE];
};

/**
 * Compose moves into the value (n of them) with template t into tag. The
 * example value must pass mlx5dm_ste_check_value() for t's matcher; each
 * moved byte must be wholly in the mask (so any byte passes the check),
 * outside the ip_version the matcher fixes, copied into the entries only
 * by whole-byte copies, and read by no other map entry (so its value
 * changes nothing else).
 * Return: 0; -EINVAL (bad arguments, a value outside the mask);
 * -EOPNOTSUPP (a move the tag cannot take as said, or too many moves).
 */
int mlx5dm_ste_tag_compile(const struct mlx5dm_ste_tmpl *t, const uint8_t *value,
			   const struct mlx5dm_ste_move *moves, unsigned int n,
			   struct mlx5dm_ste_tag *tag);

/* The entries of a rule (tag->n * 64 bytes) from its sources (src[i]: source i). */
void mlx5dm_ste_tag_build(const struct mlx5dm_ste_tag *tag, const void *const src[],
			  uint8_t *ste_arr);

/* Printable name of a lookup kind ("ETHL2_SRC_DST"). */
const char *mlx5dm_ste_lookup_name(enum mlx5dm_ste_lookup lookup);

/* ------------------------------------------------------------------------
 * Actions of a rule.
 */

enum mlx5dm_ste_action_type {
	MLX5DM_STE_ACTION_COUNTER,	/* flow counter id (object id + offset) */
	MLX5DM_STE_ACTION_FLOW_TAG,	/* RX: 24-bit tag reported in the CQE */
	MLX5DM_STE_ACTION_DECAP_L2,	/* RX: remove an L2 tunnel (VXLAN...) */
	MLX5DM_STE_ACTION_DECAP_L3,	/* RX: remove an L3 tunnel, write a new L2 */
	MLX5DM_STE_ACTION_MODIFY_HDR,
	MLX5DM_STE_ACTION_POP_VLAN,	/* one VLAN per action, at most 2 */
	MLX5DM_STE_ACTION_PUSH_VLAN,	/* one VLAN per action, at most 2 */
	MLX5DM_STE_ACTION_ENCAP_L2,	/* TX: L2 -> L2 tunnel */
	MLX5DM_STE_ACTION_ENCAP_L3,	/* TX: L2 -> L3 tunnel (strip L2 first) */
	/* Terminating actions: where the packet goes after the last STE. */
	MLX5DM_STE_ACTION_DROP,
	MLX5DM_STE_ACTION_DEST_TABLE,
	MLX5DM_STE_ACTION_DEST_TIR,	/* RX only */
	MLX5DM_STE_ACTION_DEFAULT_MISS,
	MLX5DM_STE_ACTION_DEST_VPORT,	/* FDB only: a vport's (or the uplink's) entry */
	MLX5DM_STE_ACTION_TYPE_MAX,
};

/* Where a modify-header (or L3 decap) action list lives. */
enum mlx5dm_ste_modify_mode {
	MLX5DM_STE_MODIFY_INLINE,	/* one HW action, copied into the STE */
	MLX5DM_STE_MODIFY_LIST,		/* list in HEADER_MODIFY ICM */
	MLX5DM_STE_MODIFY_PATTERN,	/* pattern in PATTERN ICM + argument object */
};

/*
 * INLINE takes the single HW action of mlx5dm_ste_modify_translate() (a
 * SET/ADD/COPY executed from the STE itself); LIST and PATTERN refer to a
 * list written to ICM (pattern bytes from mlx5dm_ste_modify_pattern()).
 */
struct mlx5dm_ste_modify_ref {
	uint8_t mode;			/* enum mlx5dm_ste_modify_mode */
	uint8_t num_actions;		/* HW actions in the list */
	uint32_t index;			/* LIST: 64-B line index; PATTERN: argument id */
	uint32_t pattern_index;		/* PATTERN: 64-B line index of the pattern */
	uint8_t inline_action[MLX5DM_MODIFY_ACTION_SIZE];	/* INLINE */
};

/* One abstract action of a rule. */
struct mlx5dm_ste_action {
	enum mlx5dm_ste_action_type type;
	union {
		uint32_t counter_id;
		uint32_t flow_tag;
		struct mlx5dm_ste_modify_ref modify;	/* MODIFY_HDR, DECAP_L3 */
		struct {
			uint32_t index;	/* ENCAP ICM line index or reformat id */
			uint16_t size;	/* header bytes inserted (even, <= 126) */
		} encap;
		uint32_t vlan_hdr;	/* PUSH_VLAN: TPID << 16 | TCI */
		uint64_t icm_addr;	/* DROP, DEST_TABLE, DEST_TIR */
		struct {
			uint64_t icm_addr;	/* the side's vport entry (where icm_addr is) */
			uint16_t gvmi;		/* the e-switch manager owning it */
		} vport;
	};
};

struct mlx5dm_ste_actions_attr {
	enum mlx5dm_ste_domain domain;
	enum mlx5dm_ste_dir dir;
	uint16_t gvmi;			/* own vhca_id */
	uint64_t default_icm_addr;	/* no terminating action / DEFAULT_MISS */
};

#define MLX5DM_STE_MAX_ACTION_STES 8

/**
 * Validate an ordered action list for one side of a domain and write it:
 * action slots (and counter, reparse, final hit pointer) into last_ste, the
 * last match STE of the rule (shadow layout, control already initialised),
 * plus *n_extra action STEs at last_ste + 64, + 128, ... (room for max_extra).
 * Extra STEs are MATCH entries of lookup ctx->lu_action with miss pointer 0;
 * the caller links each to the previous one with mlx5dm_ste_set_hit_addr()
 * once it has placed them in ICM. The last STE of the chain gets the final
 * hit pointer (size 1) and GVMI.
 * Return: 0; -EOPNOTSUPP / -EINVAL with err naming the impossible action or
 * combination; -ENOSPC if more than max_extra action STEs are needed.
 */
int mlx5dm_ste_set_actions(const struct mlx5dm_ste_ctx *ctx,
			   const struct mlx5dm_ste_actions_attr *attr,
			   const struct mlx5dm_ste_action *acts, unsigned int n_acts,
			   uint8_t *last_ste, unsigned int max_extra, unsigned int *n_extra,
			   struct mlx5dm_ste_action_err *err);

/* Only the validation of mlx5dm_ste_set_actions() (same errors). */
int mlx5dm_ste_check_actions(const struct mlx5dm_ste_ctx *ctx,
			     const struct mlx5dm_ste_actions_attr *attr,
			     const struct mlx5dm_ste_action *acts, unsigned int n_acts,
			     struct mlx5dm_ste_action_err *err);

/* Printable name of an action type ("modify_header"). */
const char *mlx5dm_ste_action_name(enum mlx5dm_ste_action_type type);

/* ------------------------------------------------------------------------
 * Modify header and reformat data.
 */

/**
 * Translate user modify-header actions (set/add/copy_action_in, 8 bytes
 * each) to the device's HW actions, inserting a NOP where two actions of a
 * pair would touch the same HW field.
 * @hw, @max_hw: output room (2 * n_sw always suffices); *n_hw = count.
 * Return: 0; -EINVAL (bad field/offset/length, ADD on a field other than
 * TTL/hop limit/TCP seq/ack, REG_A off NIC TX, REG_B off NIC RX, IPv4 and
 * IPv6 or TCP and UDP fields mixed, list too long) or -EOPNOTSUPP (unknown
 * action type), with err->index = the offending user action.
 */
int mlx5dm_ste_modify_translate(const struct mlx5dm_ste_ctx *ctx,
				const struct mlx5dm_ste_actions_attr *attr,
				const uint8_t *sw, unsigned int n_sw,
				uint8_t *hw, unsigned int max_hw, unsigned int *n_hw,
				struct mlx5dm_ste_action_err *err);

/**
 * The pattern of a HW action list (pattern + argument mode): the same
 * actions with the data of every SET/ADD/INSERT_INLINE zeroed; the
 * argument object carries the full list. pattern may equal hw.
 * Return: 0, or -EINVAL for bad arguments.
 */
int mlx5dm_ste_modify_pattern(const struct mlx5dm_ste_ctx *ctx, const uint8_t *hw,
			      unsigned int n, uint8_t *pattern);

/**
 * Do two patterns (n actions each, from mlx5dm_ste_modify_pattern()) denote
 * the same device pattern? Per action, the bytes the format distinguishes
 * patterns by are compared (v1: all 8 of a COPY, the first 4 of anything
 * else, as rdma-core's pattern cache does).
 */
bool mlx5dm_ste_modify_pattern_equal(const struct mlx5dm_ste_ctx *ctx, const uint8_t *a,
				     const uint8_t *b, unsigned int n);

/**
 * A hash of a pattern over the bytes mlx5dm_ste_modify_pattern_equal()
 * compares: equal patterns hash equal.
 */
uint32_t mlx5dm_ste_modify_pattern_hash(const struct mlx5dm_ste_ctx *ctx, const uint8_t *pattern,
					unsigned int n);

/**
 * HW action list of an L3-tunnel decap that writes l2_hdr (14 bytes, or 18
 * with one VLAN) in front of the inner IP header; stored like a modify list.
 * Return: 0 with *n_hw actions (v1: 6 or 7), -EINVAL for another length,
 * -ENOSPC if max_hw is too small.
 */
int mlx5dm_ste_decap_l3_list(const struct mlx5dm_ste_ctx *ctx, const uint8_t *l2_hdr,
			     size_t len, uint8_t *hw, unsigned int max_hw, unsigned int *n_hw);

/**
 * 32-bit VLAN header for MLX5DM_STE_ACTION_PUSH_VLAN.
 * Return: 0, or -EINVAL unless tpid is 0x8100 or 0x88a8.
 */
int mlx5dm_ste_vlan_hdr(uint16_t tpid, uint16_t tci, uint32_t *hdr);

/**
 * Check an encap header for the device: even size (inserted in 2-byte
 * words), at most 126 bytes (6-bit word count) and max_encap_header_size
 * (the NIC flow table cap; 0 = no cap limit). Return: 0 or -EINVAL.
 */
int mlx5dm_ste_encap_check(size_t size, unsigned int max_encap_header_size);

/*
 * Index the device expects for an object in a SW ICM area (modify list,
 * pattern, encap data): its 64-byte line number from the area's base.
 */
static inline uint32_t
mlx5dm_ste_icm_index(uint64_t icm_addr, uint64_t area_base)
{
	return (uint32_t)((icm_addr - area_base) / 64);
}

#endif /* _MLX5DM_STE_H_ */
