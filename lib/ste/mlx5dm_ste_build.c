/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The generic builder engine: picks lookups for a match mask in the order
 * the device expects (rdma-core dr_matcher.c, dr_matcher_set_ste_builders()),
 * lets each consume the mask fields it covers, and turns rule values into tags. It knows no layout:
 * positions come from the format's lookup maps (mlx5dm_ste_v1_lookup.c).
 *
 * Flex-parser lookups (MPLS over GRE / over UDP) have a tag position and a
 * lookup type that depend on the device (which parser id it gives the
 * protocol, and whether it parses the protocol at all). The format supplies
 * one ready lookup per parser id (ctx->flex_lookups); selection picks the
 * one of the device's id, or none, so past that point a flex lookup is a
 * builder like any other (same map code, same template and hash path).
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_ste_priv.h"

/* One step of the selection order. */
struct mlx5dm_ste_sel {
	uint8_t lookup;		/* enum mlx5dm_ste_lookup */
	uint8_t phases;		/* OUTER and/or INNER pass */
	uint8_t ipv;		/* only for this mask ip_version (0 = any) */
	uint8_t flex;		/* 1 + enum mlx5dm_ste_flex: placed by the device; 0: not */
	uint8_t n_trig;
	uint8_t n_trig2;
	/* Selected if any of trig is set (NULL: any field of the map)... */
	const struct mlx5dm_ste_field_source *trig;
	/* ...and, when given, any of trig2 too. */
	const struct mlx5dm_ste_field_source *trig2;
};

static const struct mlx5dm_ste_field_source mlx5dm_ste_trigger_smac[] = {
	MLX5DM_STE_FSRC_SPEC(smac_47_16), MLX5DM_STE_FSRC_SPEC(smac_15_0),
};

static const struct mlx5dm_ste_field_source mlx5dm_ste_trigger_dmac[] = {
	MLX5DM_STE_FSRC_SPEC(dmac_47_16), MLX5DM_STE_FSRC_SPEC(dmac_15_0),
};

/* What makes an L2 (destination) lookup necessary; frag alone does not. */
static const struct mlx5dm_ste_field_source mlx5dm_ste_trigger_l2_dst[] = {
	MLX5DM_STE_FSRC_SPEC(first_vid), MLX5DM_STE_FSRC_SPEC(first_cfi),
	MLX5DM_STE_FSRC_SPEC(first_prio), MLX5DM_STE_FSRC_SPEC(cvlan_tag),
	MLX5DM_STE_FSRC_SPEC(svlan_tag), MLX5DM_STE_FSRC_SPEC(dmac_47_16),
	MLX5DM_STE_FSRC_SPEC(dmac_15_0), MLX5DM_STE_FSRC_SPEC(ethertype),
	MLX5DM_STE_FSRC_SPEC(ip_version),
	MLX5DM_STE_FSRC_IO(misc, outer_second_vid, inner_second_vid),
	MLX5DM_STE_FSRC_IO(misc, outer_second_cfi, inner_second_cfi),
	MLX5DM_STE_FSRC_IO(misc, outer_second_prio, inner_second_prio),
	MLX5DM_STE_FSRC_IO(misc, outer_second_cvlan_tag, inner_second_cvlan_tag),
	MLX5DM_STE_FSRC_IO(misc, outer_second_svlan_tag, inner_second_svlan_tag),
};

/* The inner L2 tunnel lookup is only worth it when the VNI is matched. */
static const struct mlx5dm_ste_field_source mlx5dm_ste_trigger_vni[] = {
	MLX5DM_STE_FSRC(misc, vxlan_vni),
};

#define TRIG(t) .trig = (t), .n_trig = MLX5DM_ARRAY_SIZE(t)
#define TRIG2(t) .trig2 = (t), .n_trig2 = MLX5DM_ARRAY_SIZE(t)
#define OUTER (1u << 0)
#define INNER (1u << 1)
#define SEL(k, ph, ...) { .lookup = MLX5DM_STE_LOOKUP_##k, .phases = (ph), __VA_ARGS__ }
#define FLEX(k) .flex = 1 + MLX5DM_STE_FLEX_##k

/* The flex_parser_protocols bit that says the device parses each flex protocol. */
static const uint32_t mlx5dm_ste_flex_protocol[MLX5DM_STE_FLEX_MAX] = {
	[MLX5DM_STE_FLEX_MPLS_OVER_GRE] = MLX5DM_FLEX_PARSER_MPLS_OVER_GRE_ENABLED,
	[MLX5DM_STE_FLEX_MPLS_OVER_UDP] = MLX5DM_FLEX_PARSER_MPLS_OVER_UDP_ENABLED,
};

/*
 * The selection order. The table is walked twice: first for the outer
 * headers and the section-wide fields (registers, GRE), then for the inner
 * headers; each pass takes the steps marked for it. The MPLS-over-GRE/UDP
 * fields are section-wide (misc2, outer only): the outer pass takes them.
 */
static const struct mlx5dm_ste_sel mlx5dm_ste_order[] = {
	SEL(GENERAL_PURPOSE, OUTER),
	SEL(REGISTERS_0, OUTER),
	SEL(REGISTERS_1, OUTER),
	SEL(SRC_GVMI_QP, OUTER),
	SEL(ETHL2_TNL, INNER, TRIG(mlx5dm_ste_trigger_vni)),
	SEL(ETHL2_SRC_DST, OUTER | INNER, TRIG(mlx5dm_ste_trigger_smac),
	    TRIG2(mlx5dm_ste_trigger_dmac)),
	SEL(ETHL2_SRC, OUTER | INNER, TRIG(mlx5dm_ste_trigger_smac)),
	SEL(ETHL2_DST, OUTER | INNER, TRIG(mlx5dm_ste_trigger_l2_dst)),
	SEL(IPV4_MISC, OUTER | INNER, .ipv = 4),
	SEL(IPV4_5_TUPLE, OUTER | INNER, .ipv = 4),
	SEL(IPV6_DST, OUTER | INNER, .ipv = 6),
	SEL(IPV6_SRC, OUTER | INNER, .ipv = 6),
	SEL(ETHL4, OUTER | INNER, .ipv = 6),
	SEL(ETHL4_MISC, OUTER | INNER),
	SEL(MPLS, OUTER | INNER),
	SEL(MPLS_OVER_GRE, OUTER, FLEX(MPLS_OVER_GRE)),
	SEL(MPLS_OVER_UDP, OUTER, FLEX(MPLS_OVER_UDP)),
	SEL(ICMP, OUTER),
	SEL(GRE, OUTER),
};

static const char *const mlx5dm_ste_lookup_names[MLX5DM_STE_LOOKUP_MAX] = {
	[MLX5DM_STE_LOOKUP_DONT_CARE] = "DONT_CARE",
	[MLX5DM_STE_LOOKUP_GENERAL_PURPOSE] = "GENERAL_PURPOSE",
	[MLX5DM_STE_LOOKUP_REGISTERS_0] = "STEERING_REGISTERS_0",
	[MLX5DM_STE_LOOKUP_REGISTERS_1] = "STEERING_REGISTERS_1",
	[MLX5DM_STE_LOOKUP_ETHL2_SRC_DST] = "ETHL2_SRC_DST",
	[MLX5DM_STE_LOOKUP_ETHL2_SRC] = "ETHL2_SRC",
	[MLX5DM_STE_LOOKUP_ETHL2_DST] = "ETHL2",
	[MLX5DM_STE_LOOKUP_ETHL2_TNL] = "ETHL2_TNL",
	[MLX5DM_STE_LOOKUP_IPV4_MISC] = "ETHL3_IPV4_MISC",
	[MLX5DM_STE_LOOKUP_IPV4_5_TUPLE] = "ETHL3_IPV4_5_TUPLE",
	[MLX5DM_STE_LOOKUP_IPV6_DST] = "IPV6_DES",
	[MLX5DM_STE_LOOKUP_IPV6_SRC] = "IPV6_SRC",
	[MLX5DM_STE_LOOKUP_ETHL4] = "ETHL4",
	[MLX5DM_STE_LOOKUP_ETHL4_MISC] = "ETHL4_MISC",
	[MLX5DM_STE_LOOKUP_MPLS] = "MPLS",
	[MLX5DM_STE_LOOKUP_MPLS_OVER_GRE] = "MPLS_OVER_GRE",
	[MLX5DM_STE_LOOKUP_MPLS_OVER_UDP] = "MPLS_OVER_UDP",
	[MLX5DM_STE_LOOKUP_ICMP] = "ICMP",
	[MLX5DM_STE_LOOKUP_GRE] = "GRE",
	[MLX5DM_STE_LOOKUP_SRC_GVMI_QP] = "SRC_QP_GVMI",
};

const char *
mlx5dm_ste_lookup_name(enum mlx5dm_ste_lookup lookup)
{
	if ((unsigned int)lookup >= MLX5DM_STE_LOOKUP_MAX)
		return "?";
	return mlx5dm_ste_lookup_names[lookup];
}

static bool
mlx5dm_ste_any_set(const uint8_t *param, const struct mlx5dm_ste_field_source *f, unsigned int n,
		   bool inner)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (mlx5dm_fte_get(param, f[i].id[inner]) != 0)
			return true;
	return false;
}

/* Default trigger: any source field of the lookup's map. */
static bool
mlx5dm_ste_map_any_set(const uint8_t *param, const struct mlx5dm_ste_lookup_def *def,
		       bool inner)
{
	unsigned int i;

	for (i = 0; i < def->n_map; i++) {
		const struct mlx5dm_ste_field_map *m = &def->map[i];

		if (mlx5dm_fte_get(param, m->src.id[inner]) != 0)
			return true;
		if (m->kind == MLX5DM_STE_FIELD_MAP_VLAN_QUAL &&
		    mlx5dm_fte_get(param, m->src2.id[inner]) != 0)
			return true;
	}
	return false;
}

static bool
mlx5dm_ste_selected(const struct mlx5dm_ste_sel *s, const struct mlx5dm_ste_lookup_def *def,
		    const uint8_t *mask, bool inner)
{
	if (s->trig == NULL)
		return mlx5dm_ste_map_any_set(mask, def, inner);
	if (!mlx5dm_ste_any_set(mask, s->trig, s->n_trig, inner))
		return false;
	return s->trig2 == NULL || mlx5dm_ste_any_set(mask, s->trig2, s->n_trig2, inner);
}

/*
 * Mask side of one map entry: write the bit mask and consume (zero) the
 * source fields. Returns true if the mask uses the entry.
 */
static bool
mlx5dm_ste_field_map_mask(const struct mlx5dm_ste_field_map *m, bool inner, uint8_t *mask,
			  uint8_t *bit_mask)
{
	enum mlx5dm_fte_field src = m->src.id[inner];
	uint32_t v = mlx5dm_fte_get(mask, src);

	if (m->kind == MLX5DM_STE_FIELD_MAP_VLAN_QUAL) {
		enum mlx5dm_fte_field src2 = m->src2.id[inner];

		v |= mlx5dm_fte_get(mask, src2);
		mlx5dm_fte_set(mask, src2, 0);
	}
	if (v == 0)
		return false;
	mlx5dm_fte_set(mask, src, 0);
	/* Encoded fields are compared whole: the qualifier / l3_type values. */
	mlx5dm_prm_fset(bit_mask, *m->dst, m->kind == MLX5DM_STE_FIELD_MAP_COPY ? v : UINT64_MAX);
	return true;
}

/* Value side of one (active) map entry. */
int
mlx5dm_ste_field_map_value(const struct mlx5dm_ste_field_map *m, bool inner, const uint8_t *value,
			   uint8_t *tag)
{
	uint32_t v = mlx5dm_fte_get(value, m->src.id[inner]);

	switch (m->kind) {
	case MLX5DM_STE_FIELD_MAP_COPY:
		/* Two sources may share a field (TCP or UDP port): keep the set one. */
		if (v != 0)
			mlx5dm_prm_fset(tag, *m->dst, v);
		return 0;
	case MLX5DM_STE_FIELD_MAP_L3_TYPE:
		if (v == 4)
			mlx5dm_prm_fset(tag, *m->dst, MLX5DM_TAG_L3_TYPE_IPV4);
		else if (v == 6)
			mlx5dm_prm_fset(tag, *m->dst, MLX5DM_TAG_L3_TYPE_IPV6);
		else
			return -EINVAL;
		return 0;
	default:
		if (v != 0)
			mlx5dm_prm_fset(tag, *m->dst, MLX5DM_TAG_VLAN_QUAL_CVLAN);
		else if (mlx5dm_fte_get(value, m->src2.id[inner]) != 0)
			mlx5dm_prm_fset(tag, *m->dst, MLX5DM_TAG_VLAN_QUAL_SVLAN);
		return 0;
	}
}

/* bit 15 - i <=> mask byte i is all ones: only those bytes are hashed. */
static uint16_t
mlx5dm_ste_byte_mask(const uint8_t *bit_mask)
{
	uint16_t bm = 0;
	unsigned int i;

	for (i = 0; i < MLX5DM_STE_MASK_SIZE; i++)
		bm = (uint16_t)(bm << 1 | (bit_mask[i] == 0xff));
	return bm;
}

/*
 * The lookup a selection step stands for on this device: the format's, or
 * for a flex-parser step the one at the device's parser id. NULL when the
 * device does not parse the protocol (or gives it a parser id the lookups
 * cannot reach): the step is skipped and its fields stay unconsumed.
 */
static const struct mlx5dm_ste_lookup_def *
mlx5dm_ste_sel_def(const struct mlx5dm_ste_ctx *ctx, const struct mlx5dm_ste_dev_caps *dev,
		   const struct mlx5dm_ste_sel *s)
{
	unsigned int k, id;

	/* source_port is a vport number unless the caller made it a vhca_id. */
	if (s->lookup == MLX5DM_STE_LOOKUP_SRC_GVMI_QP &&
	    (dev == NULL || (!dev->source_gvmi && !dev->source_qp)))
		return NULL;
	if (s->flex == 0)
		return ctx->lookups[s->lookup];
	k = s->flex - 1u;
	if (dev == NULL || ctx->flex_lookups == NULL ||
	    !(dev->flex_protocols & mlx5dm_ste_flex_protocol[k]))
		return NULL;
	id = dev->flex_id[k];
	return id < MLX5DM_PRM_FLEX_PARSERS ?
	       &ctx->flex_lookups[k * MLX5DM_PRM_FLEX_PARSERS + id] : NULL;
}

static void
mlx5dm_ste_builder_init(struct mlx5dm_ste_builder *b, const struct mlx5dm_ste_lookup_def *def,
			enum mlx5dm_ste_lookup lookup, bool inner, uint8_t *mask)
{
	unsigned int i;

	memset(b, 0, sizeof(*b));
	b->def = def;
	b->lookup = (uint8_t)lookup;
	b->inner = inner;
	b->lu_type = def->lu_type[inner];
	for (i = 0; i < def->n_map; i++)
		if (mlx5dm_ste_field_map_mask(&def->map[i], inner, mask, b->bit_mask))
			b->active |= 1u << i;
	b->byte_mask = mlx5dm_ste_byte_mask(b->bit_mask);
}

static const char *const mlx5dm_ste_reserved_names[MLX5DM_FTE_NUM_SECTIONS] = {
	"outer.reserved", "misc.reserved", "inner.reserved", "misc2.reserved",
	"misc3.reserved", "misc4.reserved", "misc5.reserved",
};

/*
 * Name the first field of the enabled sections where bits[] (the leftover
 * mask, or value & ~mask) is set. NULL if nothing is set at all.
 */
static const char *
mlx5dm_ste_first_set_field(const uint8_t *bits, uint8_t criteria)
{
	unsigned int i, s;

	for (i = 0; i < MLX5DM_FTE_NUM_FIELDS; i++)
		if ((criteria & (1u << mlx5dm_fte_fields[i].section)) &&
		    mlx5dm_prm_fget(bits, mlx5dm_fte_fields[i].f) != 0)
			return mlx5dm_fte_fields[i].name;
	for (s = 0; s < MLX5DM_FTE_NUM_SECTIONS; s++) {
		const uint8_t *sec = bits + s * MLX5DM_FTE_SECTION_SIZE;

		if (!(criteria & (1u << s)))
			continue;
		for (i = 0; i < MLX5DM_FTE_SECTION_SIZE; i++)
			if (sec[i] != 0)
				return mlx5dm_ste_reserved_names[s];
	}
	return NULL;
}

/* The matcher's IP version: 0 (none), 4 or 6, as the device splits lookups by it. */
static int
mlx5dm_ste_check_ip_version(const uint8_t *mask, uint8_t criteria, const char **err_field)
{
	static const enum mlx5dm_fte_field ipv[2] = {
		MLX5DM_FTE(outer, ip_version), MLX5DM_FTE(inner, ip_version),
	};
	unsigned int i;

	for (i = 0; i < 2; i++) {
		uint32_t v = mlx5dm_fte_get(mask, ipv[i]);

		if ((criteria & (1u << mlx5dm_fte_fields[ipv[i]].section)) &&
		    v != 0 && v != 4 && v != 6) {
			*err_field = mlx5dm_fte_fields[ipv[i]].name;
			return -EOPNOTSUPP;
		}
	}
	return 0;
}

int
mlx5dm_ste_build_matcher(const struct mlx5dm_ste_ctx *ctx, const struct mlx5dm_ste_dev_caps *dev,
			 const uint8_t *mask, uint8_t criteria, enum mlx5dm_ste_dir dir,
			 struct mlx5dm_ste_builder *out, unsigned int max, unsigned int *n,
			 const char **err_field)
{
	uint8_t left[MLX5DM_FTE_PARAM_SIZE];
	const char *dummy;
	unsigned int s, p, idx = 0;
	int ret;

	if (err_field == NULL)
		err_field = &dummy;
	*err_field = NULL;
	if (ctx == NULL || mask == NULL || out == NULL || n == NULL ||
	    (criteria & ~MLX5DM_FTE_CRITERIA_ALL) != 0)
		return -EINVAL;
	/* The source-port lookup is the caller's choice (dev->source_gvmi), not dir's. */
	(void)dir;
	ret = mlx5dm_ste_check_ip_version(mask, criteria, err_field);
	if (ret < 0)
		return ret;
	/* A send queue alone (source_qp): source_port is no vhca_id to compare. */
	if ((criteria & (1u << mlx5dm_fte_fields[MLX5DM_FTE(misc, source_port)].section)) &&
	    mlx5dm_fte_get(mask, MLX5DM_FTE(misc, source_port)) != 0 &&
	    (dev == NULL || !dev->source_gvmi)) {
		*err_field = mlx5dm_fte_fields[MLX5DM_FTE(misc, source_port)].name;
		return -EOPNOTSUPP;
	}
	/* Working copy of the enabled sections; builders consume it. */
	memset(left, 0, sizeof(left));
	for (s = 0; s < MLX5DM_FTE_NUM_SECTIONS; s++)
		if (criteria & (1u << s))
			memcpy(left + s * MLX5DM_FTE_SECTION_SIZE,
			       mask + s * MLX5DM_FTE_SECTION_SIZE, MLX5DM_FTE_SECTION_SIZE);
	for (p = 0; p < 2; p++) {
		bool inner = p == 1, flex_taken = false;
		uint32_t ipv = mlx5dm_fte_get(left, inner ? MLX5DM_FTE(inner, ip_version) :
							    MLX5DM_FTE(outer, ip_version));

		for (s = 0; s < MLX5DM_ARRAY_SIZE(mlx5dm_ste_order); s++) {
			const struct mlx5dm_ste_sel *sel = &mlx5dm_ste_order[s];
			const struct mlx5dm_ste_lookup_def *def;

			if (!(sel->phases & (inner ? INNER : OUTER)))
				continue;
			if (sel->ipv != 0 && sel->ipv != ipv)
				continue;
			/*
			 * One MPLS-over-GRE/UDP lookup per pass, as rdma-core's
			 * else-if: a packet carries MPLS over one of them, and the
			 * other's fields stay unconsumed (the mask is refused).
			 */
			if (sel->flex != 0 && flex_taken)
				continue;
			def = mlx5dm_ste_sel_def(ctx, dev, sel);
			if (def == NULL || !mlx5dm_ste_selected(sel, def, left, inner))
				continue;
			if (idx == max)
				return -ENOSPC;
			mlx5dm_ste_builder_init(&out[idx++], def, sel->lookup, inner, left);
			flex_taken |= sel->flex != 0;
		}
	}
	*err_field = mlx5dm_ste_first_set_field(left, criteria);
	if (*err_field != NULL)
		return -EOPNOTSUPP;
	if (idx == 0) {
		/* Nothing to match: one lookup that hits everything. */
		if (max == 0)
			return -ENOSPC;
		mlx5dm_ste_builder_init(&out[idx++], ctx->lookups[MLX5DM_STE_LOOKUP_DONT_CARE],
					MLX5DM_STE_LOOKUP_DONT_CARE, false, left);
	}
	*n = idx;
	return 0;
}

int
mlx5dm_ste_check_value(const uint8_t *mask, const uint8_t *value, uint8_t criteria,
		       const char **err_field)
{
	static const enum mlx5dm_fte_field ipv[2] = {
		MLX5DM_FTE(outer, ip_version), MLX5DM_FTE(inner, ip_version),
	};
	uint8_t outside[MLX5DM_FTE_PARAM_SIZE];
	const char *dummy;
	uint8_t any = 0;
	unsigned int i;

	if (err_field == NULL)
		err_field = &dummy;
	*err_field = NULL;
	if (mask == NULL || value == NULL || (criteria & ~MLX5DM_FTE_CRITERIA_ALL) != 0)
		return -EINVAL;
	/* Fast pass, a word at a time over the enabled sections (every rule pays it). */
	for (i = 0; i < MLX5DM_FTE_NUM_SECTIONS; i++) {
		uint64_t acc = 0, m, v;
		unsigned int w;

		if (!(criteria & (1u << i)))
			continue;
		for (w = 0; w < MLX5DM_FTE_SECTION_SIZE; w += 8) {
			memcpy(&m, mask + i * MLX5DM_FTE_SECTION_SIZE + w, 8);
			memcpy(&v, value + i * MLX5DM_FTE_SECTION_SIZE + w, 8);
			acc |= v & ~m;
		}
		any |= acc != 0;
	}
	if (any != 0) {
		for (i = 0; i < MLX5DM_FTE_PARAM_SIZE; i++) {
			bool on = criteria & (1u << (i / MLX5DM_FTE_SECTION_SIZE));

			outside[i] = on ? (uint8_t)(value[i] & ~mask[i]) : 0;
		}
		*err_field = mlx5dm_ste_first_set_field(outside, criteria);
		return -EINVAL;
	}
	/* The mask's ip_version is the matcher's version: the value must equal it. */
	for (i = 0; i < 2; i++) {
		uint32_t m = mlx5dm_fte_get(mask, ipv[i]);

		if ((criteria & (1u << mlx5dm_fte_fields[ipv[i]].section)) && m != 0 &&
		    mlx5dm_fte_get(value, ipv[i]) != m) {
			*err_field = mlx5dm_fte_fields[ipv[i]].name;
			return -EINVAL;
		}
	}
	return 0;
}

int
mlx5dm_ste_build_tag(const struct mlx5dm_ste_builder *b, const uint8_t *value, uint8_t *tag)
{
	const struct mlx5dm_ste_lookup_def *def = b->def;
	unsigned int i;
	int ret;

	memset(tag, 0, MLX5DM_STE_TAG_SIZE);
	/* Only the entries the mask uses: the value is zero elsewhere anyway. */
	for (i = 0; i < def->n_map; i++) {
		if (!(b->active & (1u << i)))
			continue;
		ret = mlx5dm_ste_field_map_value(&def->map[i], b->inner, value, tag);
		if (ret < 0)
			return ret;
	}
	return 0;
}

int
mlx5dm_ste_build_ste_arr(const struct mlx5dm_ste_ctx *ctx, const struct mlx5dm_ste_builder *b,
			 unsigned int n, const uint8_t *value, enum mlx5dm_ste_dir dir,
			 uint16_t gvmi, uint8_t *ste_arr)
{
	unsigned int i;
	int ret;

	for (i = 0; i < n; i++) {
		uint8_t *ste = ste_arr + (size_t)i * MLX5DM_STE_SIZE;

		memset(ste, 0, MLX5DM_STE_SIZE);
		ctx->init(ste, b[i].lu_type, dir, gvmi);
		memcpy(ste + MLX5DM_STE_MASK_OFF, b[i].bit_mask, MLX5DM_STE_MASK_SIZE);
		ret = mlx5dm_ste_build_tag(&b[i], value, ste + MLX5DM_STE_TAG_OFF);
		if (ret < 0)
			return ret;
		/* The next lookup is hashed as the following builder says. */
		if (i + 1 < n)
			mlx5dm_ste_set_next_lookup(ctx, ste, b[i + 1].lu_type, b[i + 1].byte_mask);
	}
	return 0;
}
