/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Internals shared by the files of lib/ste: the data shapes of lookup
 * (tag) maps, modify-header field maps and the validated action set, and
 * the format tables. Not part of the module's API.
 */

#ifndef _MLX5DM_STE_PRIV_H_
#define _MLX5DM_STE_PRIV_H_

#include "mlx5dm_osdep.h"
#include "mlx5dm_ste.h"

/* How a tag field is filled from fte_match_param fields. */
enum mlx5dm_ste_field_map_kind {
	MLX5DM_STE_FIELD_MAP_COPY,		/* tag field = param field */
	MLX5DM_STE_FIELD_MAP_L3_TYPE,	/* ip_version: mask -> all ones, 4/6 -> 1/2 */
	MLX5DM_STE_FIELD_MAP_VLAN_QUAL,	/* cvlan_tag/svlan_tag -> qualifier 2/1 */
};

/*
 * A match-parameter field as seen by an outer ([0]) or inner ([1]) builder,
 * e.g. outer.smac_47_16 / inner.smac_47_16, or misc.outer_second_vid /
 * misc.inner_second_vid. Section-wide fields repeat the same id.
 */
struct mlx5dm_ste_field_source {
	uint16_t id[2];	/* enum mlx5dm_fte_field */
};

#define MLX5DM_STE_FSRC_SPEC(f) { { MLX5DM_FTE(outer, f), MLX5DM_FTE(inner, f) } }
#define MLX5DM_STE_FSRC_IO(sec, fo, fi) { { MLX5DM_FTE(sec, fo), MLX5DM_FTE(sec, fi) } }
#define MLX5DM_STE_FSRC(sec, f) MLX5DM_STE_FSRC_IO(sec, f, f)

/* One tag field of a lookup and where its bits come from. */
struct mlx5dm_ste_field_map {
	const struct mlx5dm_prm_field *dst;
	struct mlx5dm_ste_field_source src;
	struct mlx5dm_ste_field_source src2;	/* VLAN_QUAL: the svlan_tag field */
	uint8_t kind;			/* enum mlx5dm_ste_field_map_kind */
};

/* A lookup of one format: its type codes and its tag map (<= 32 entries). */
struct mlx5dm_ste_lookup_def {
	uint16_t lu_type[2];		/* outer, inner */
	uint8_t n_map;
	const struct mlx5dm_ste_field_map *map;
};

/* Where a user modify-header field sits in the format's HW field space. */
struct mlx5dm_ste_modify_field {
	uint8_t valid;
	uint8_t hw_field;
	uint8_t start;		/* first bit in the HW field */
	uint8_t end;		/* last bit */
	uint8_t l3_class;	/* 0, or 1 = IPv4 / 2 = IPv6 field */
	uint8_t l4_class;	/* 0, or 1 = TCP / 2 = UDP field */
};

/* Action categories after validation, in no particular order. */
struct mlx5dm_ste_actions_set {
	uint32_t present;	/* bit = enum mlx5dm_ste_action_type */
	uint32_t counter_id;
	uint32_t flow_tag;
	const struct mlx5dm_ste_modify_ref *modify;
	const struct mlx5dm_ste_modify_ref *decap_l3;
	uint32_t encap_index;
	uint16_t encap_size;
	uint8_t n_push;
	uint8_t n_pop;
	uint32_t push_hdr[2];
	enum mlx5dm_ste_dir dir;
	uint64_t final_icm_addr;
	uint16_t final_gvmi;
};

#define MLX5DM_STE_ACT_BIT(t) (1u << MLX5DM_STE_ACTION_##t)

/* Tag bits of one active map entry for a rule value (the entry's bits must be zero). */
int mlx5dm_ste_field_map_value(const struct mlx5dm_ste_field_map *m, bool inner,
			       const uint8_t *value, uint8_t *tag);

/* STE v1. */
extern const struct mlx5dm_ste_ctx mlx5dm_ste_ctx_v1;
extern const struct mlx5dm_ste_lookup_def *const mlx5dm_ste_v1_lookups[MLX5DM_STE_LOOKUP_MAX];
extern const struct mlx5dm_ste_lookup_def
	mlx5dm_ste_v1_flex_lookups[MLX5DM_STE_FLEX_MAX][MLX5DM_PRM_FLEX_PARSERS];
extern const struct mlx5dm_ste_modify_field mlx5dm_ste_v1_modify_map[MLX5DM_MODIFY_FLD_MAX];

int mlx5dm_ste_v1_place_actions(const struct mlx5dm_ste_ctx *ctx,
				const struct mlx5dm_ste_actions_set *set, uint16_t gvmi,
				uint8_t *last_ste, unsigned int max_extra,
				unsigned int *n_extra, struct mlx5dm_ste_action_err *err);
void mlx5dm_ste_v1_modify_encode(uint8_t *hw, uint8_t sw_type, uint8_t dst_hw_field,
				 uint8_t dst_bit, uint8_t length, uint32_t data,
				 uint8_t src_hw_field, uint8_t src_bit);
/* v1 action-slot encoders (mlx5dm_ste_v1_act_enc.c); slots must be zeroed. */
void mlx5dm_ste_v1_write_flow_tag(uint8_t *a, uint32_t tag);
void mlx5dm_ste_v1_write_remove_header(uint8_t *a, uint8_t end_anchor, bool decap);
void mlx5dm_ste_v1_write_remove_size(uint8_t *a, uint8_t anchor, uint8_t start_offset_words,
				     uint8_t size_words);
void mlx5dm_ste_v1_write_insert_inline(uint8_t *a, uint8_t offset_words, uint32_t data);
void mlx5dm_ste_v1_write_insert_ptr(uint8_t *a, uint32_t pointer, uint16_t size);
int mlx5dm_ste_v1_write_modify(uint8_t *a, const struct mlx5dm_ste_modify_ref *m,
			       struct mlx5dm_ste_action_err *err);
void mlx5dm_ste_v1_write_push(uint8_t *a, uint32_t hdr);
void mlx5dm_ste_v1_modify_pattern(uint8_t *action);
unsigned int mlx5dm_ste_v1_modify_pattern_key(const uint8_t *action);
int mlx5dm_ste_v1_decap_l3_list(const uint8_t *l2_hdr, size_t len, uint8_t *hw,
				unsigned int max_hw, unsigned int *n_hw);

/* Fill an action error report (printf-style message). */
void mlx5dm_ste_action_err_set(struct mlx5dm_ste_action_err *err, int index,
			       const char *fmt, ...) MLX5DM_FORMAT(3, 4);

/* mlx5dm_ste_hash_bwc() by tables only (the path of CPUs without a carry-less multiply). */
uint32_t mlx5dm_ste_hash_bwc_tables(const uint8_t *tag, uint16_t byte_mask);

#endif /* _MLX5DM_STE_PRIV_H_ */
