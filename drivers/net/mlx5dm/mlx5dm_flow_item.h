/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Pattern items as data: the bits the device matches, where each field
 * goes per variant (outer/inner, VLAN, MPLS position), the layers an item
 * needs or excludes before it, and hooks for what these cannot say (the
 * rest of the order, implied fields, host order, flags).
 */

#ifndef _MLX5DM_FLOW_ITEM_H_
#define _MLX5DM_FLOW_ITEM_H_

#include <stddef.h>

#include "mlx5dm_flow.h"

/* Field variants: which fte field an item field lands in. */
enum {
	MLX5DM_FLOW_V_OUTER = 0,        /* also: plain MPLS */
	MLX5DM_FLOW_V_INNER = 1,        /* also: MPLS over GRE */
	MLX5DM_FLOW_V_OUTER2 = 2,       /* second VLAN; also: MPLS over UDP */
	MLX5DM_FLOW_V_INNER2 = 3,
	MLX5DM_FLOW_NB_VARIANTS = 4,
};

#define MLX5DM_FLOW_FTE_NONE ((uint16_t)MLX5DM_FTE_NUM_FIELDS)

/*
 * A field map: bits [bit, bit + width) of the item (network order)
 * -> an fte field per variant.
 */
struct mlx5dm_flow_field_map {
	uint16_t bit;
	uint8_t width;
	uint8_t group;  /* non-zero: fields of one group are one number for `last` */
	uint16_t fte[MLX5DM_FLOW_NB_VARIANTS];
};

#define MLX5DM_FLOW_BIT(type, member) ((uint16_t)(offsetof(type, member) * 8))
/* Item n's structure, rte_flow default mask and our nic mask (mlx5dm_flow_nic_<n>). */
#define MLX5DM_FLOW_ITEM(n) \
	.size = sizeof(struct rte_flow_item_##n), .default_mask = &rte_flow_item_##n##_mask, \
	.nic_mask = &mlx5dm_flow_nic_##n
/* The same, with its map mlx5dm_flow_map_<n>. */
#define MLX5DM_FLOW_ITEM_MAP(n) \
	MLX5DM_FLOW_ITEM(n), .map = mlx5dm_flow_map_##n, .n_map = RTE_DIM(mlx5dm_flow_map_##n)
/* A header field with an outer and an inner twin. */
#define MLX5DM_FLOW_FMAP_IO(b, w, g, f) \
	{ .bit = (b), .width = (w), .group = (g), \
	  .fte = { MLX5DM_FTE(outer, f), MLX5DM_FTE(inner, f), MLX5DM_FLOW_FTE_NONE, \
		   MLX5DM_FLOW_FTE_NONE } }
/* A field with one fte field per variant (NONE where the variant has none). */
#define MLX5DM_FLOW_FMAP_V(b, w, g, v0, v1, v2, v3) \
	{ .bit = (b), .width = (w), .group = (g), .fte = { v0, v1, v2, v3 } }

/* The item is refused when the layers are there (or, MLX5DM_FLOW_O_ABSENT, are not). */
struct mlx5dm_flow_order {
	uint64_t layers;        /* MLX5DM_FLOW_L_*, outer form (0: no rule) */
	uint8_t flags;
	uint8_t err;            /* EINVAL or ENOTSUP */
	const char *msg;
};
#define MLX5DM_FLOW_O_LEVEL 1u  /* the layers of the item's own level */
#define MLX5DM_FLOW_O_ABSENT 2u

struct mlx5dm_flow_item_def {
	uint16_t size;                  /* of the rte_flow_item_* structure */
	const void *default_mask;
	const void *nic_mask;           /* what the device can match, same layout */
	const char *mask_msg;           /* static message for a mask beyond nic_mask */
	const struct mlx5dm_flow_field_map *map;
	uint8_t n_map;
	uint64_t layer;                 /* MLX5DM_FLOW_L_*, outer form */
	bool level_free;                /* layer is not per level (tunnel, metadata) */
	bool metadata;                  /* not a header: allowed anywhere, even after MPLS */
	/* L3 items: the ip_version they imply and the EtherType they need. */
	uint8_t ip_version;
	uint16_t ethertype;
	/* L4 items: the protocol they imply. */
	uint8_t ip_proto;
	/* Layer order: these rules, then the hook (which may set x->variant). */
	struct mlx5dm_flow_order rule[3];
	int (*order)(struct mlx5dm_flow_translation *x, struct rte_flow_error *error);
	/*
	 * Before the map: what it cannot express; may clear the mask bits it
	 * consumed. Neither hook reads spec bits the map covers, nor any
	 * outside the mask: a compiled template copies the map's without
	 * running them, and compiles no mask bit a hook consumed.
	 */
	int (*pre)(struct mlx5dm_flow_translation *x, const uint8_t *spec, uint8_t *mask,
		   const uint8_t *last, struct rte_flow_error *error);
	/* After the map: implied fields. */
	int (*post)(struct mlx5dm_flow_translation *x, struct rte_flow_error *error);
};

/* The definition of an item type; NULL if not supported. */
const struct mlx5dm_flow_item_def *mlx5dm_flow_item_def_get(enum rte_flow_item_type type);

/* Level of the current item: true once a tunnel item was seen. */
static inline uint64_t
mlx5dm_flow_level(const struct mlx5dm_flow_translation *x, uint64_t outer_flags)
{
	return x->inner ? MLX5DM_FLOW_INNER(outer_flags) : outer_flags;
}

static inline bool
mlx5dm_flow_has(const struct mlx5dm_flow_translation *x, uint64_t flags)
{
	return (x->spec->layers & flags) != 0;
}

/* ITEM error on the current item. */
int mlx5dm_flow_item_err(struct mlx5dm_flow_translation *x, int code, const char *msg,
			 struct rte_flow_error *error);
/* `last` range of a host-order 32-bit value -> mask (see mlx5dm_flow_range_to_mask). */
int mlx5dm_flow_item_range_u32(struct mlx5dm_flow_translation *x, uint32_t spec, uint32_t last,
			       uint32_t *mask, struct rte_flow_error *error);

extern const struct mlx5dm_flow_item_def mlx5dm_flow_item_eth;
extern const struct mlx5dm_flow_item_def mlx5dm_flow_item_vlan;
extern const struct mlx5dm_flow_item_def mlx5dm_flow_item_ipv4;
extern const struct mlx5dm_flow_item_def mlx5dm_flow_item_ipv6;
extern const struct mlx5dm_flow_item_def mlx5dm_flow_item_tcp;
extern const struct mlx5dm_flow_item_def mlx5dm_flow_item_udp;
extern const struct mlx5dm_flow_item_def mlx5dm_flow_item_icmp;
extern const struct mlx5dm_flow_item_def mlx5dm_flow_item_icmp6;
extern const struct mlx5dm_flow_item_def mlx5dm_flow_item_vxlan;
extern const struct mlx5dm_flow_item_def mlx5dm_flow_item_gre;
extern const struct mlx5dm_flow_item_def mlx5dm_flow_item_gre_key;
extern const struct mlx5dm_flow_item_def mlx5dm_flow_item_mpls;
extern const struct mlx5dm_flow_item_def mlx5dm_flow_item_meta;
extern const struct mlx5dm_flow_item_def mlx5dm_flow_item_tag;
extern const struct mlx5dm_flow_item_def mlx5dm_flow_item_mark;

#endif /* _MLX5DM_FLOW_ITEM_H_ */
