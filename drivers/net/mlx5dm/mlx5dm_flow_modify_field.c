/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * MODIFY_FIELD and the fixed-field actions (SET_*, DEC_TTL, INC/DEC_TCP_*,
 * OF_SET_VLAN_VID without a push) -> PRM set/add/copy entries (semantics
 * in doc/guides/nics/mlx5dm.rst). The device rewrites whatever header sits
 * there, so a field needs its item (the inner one after a decap). A field
 * is its PRM modify fields, most significant first (a MAC is DMAC_47_16 +
 * DMAC_15_0); offsets count from its most significant bit, immediates hold
 * the whole field right-aligned in network order (TAG and META: host-order
 * words, as their items).
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_flow.h"

/* By enum rte_flow_field_id (width 0: not supported). */
struct mlx5dm_flow_modify_def {
	uint32_t need;           /* pattern layer the header must be in (0: none) */
	uint8_t width;
	uint8_t n_seg;
	struct {
		uint8_t field;   /* PRM modify field */
		uint8_t width;
	} seg[4];
	bool add;                /* the device can ADD to it */
};

/* Pasted directly: names such as IP_TTL are also libc macros. */
#define SEG1(f, w) 1, { { MLX5DM_MODIFY_FLD_##f, w } }
#define SEG2(f0, w0, f1, w1) 2, { { MLX5DM_MODIFY_FLD_##f0, w0 }, { MLX5DM_MODIFY_FLD_##f1, w1 } }
#define SEG4(p) 4, { { MLX5DM_MODIFY_FLD_##p##_127_96, 32 }, \
		     { MLX5DM_MODIFY_FLD_##p##_95_64, 32 }, \
		     { MLX5DM_MODIFY_FLD_##p##_63_32, 32 }, \
		     { MLX5DM_MODIFY_FLD_##p##_31_0, 32 } }
#define L(n) MLX5DM_FLOW_L_##n
#define F(n) RTE_FLOW_FIELD_##n

static const struct mlx5dm_flow_modify_def mlx5dm_flow_modify_defs[] = {
	[F(MAC_DST)] = { 0, 48, SEG2(DMAC_47_16, 32, DMAC_15_0, 16) },
	[F(MAC_SRC)] = { 0, 48, SEG2(SMAC_47_16, 32, SMAC_15_0, 16) },
	[F(VLAN_ID)] = { L(VLAN), 12, SEG1(FIRST_VID, 12) },
	[F(MAC_TYPE)] = { 0, 16, SEG1(ETHERTYPE, 16) },
	[F(IPV4_DSCP)] = { L(IPV4), 6, SEG1(IP_DSCP, 6) },
	[F(IPV4_ECN)] = { L(IPV4), 2, SEG1(IP_ECN, 2) },
	[F(IPV4_TTL)] = { L(IPV4), 8, SEG1(IP_TTL, 8), .add = true },
	[F(IPV4_SRC)] = { L(IPV4), 32, SEG1(SIPV4, 32) },
	[F(IPV4_DST)] = { L(IPV4), 32, SEG1(DIPV4, 32) },
	[F(IPV6_DSCP)] = { L(IPV6), 6, SEG1(IP_DSCP, 6) },
	[F(IPV6_ECN)] = { L(IPV6), 2, SEG1(IP_ECN, 2) },
	[F(IPV6_HOPLIMIT)] = { L(IPV6), 8, SEG1(IPV6_HOPLIMIT, 8), .add = true },
	[F(IPV6_SRC)] = { L(IPV6), 128, SEG4(SIPV6) },
	[F(IPV6_DST)] = { L(IPV6), 128, SEG4(DIPV6) },
	[F(TCP_PORT_SRC)] = { L(TCP), 16, SEG1(TCP_SPORT, 16) },
	[F(TCP_PORT_DST)] = { L(TCP), 16, SEG1(TCP_DPORT, 16) },
	[F(TCP_SEQ_NUM)] = { L(TCP), 32, SEG1(TCP_SEQ_NUM, 32), .add = true },
	[F(TCP_ACK_NUM)] = { L(TCP), 32, SEG1(TCP_ACK_NUM, 32), .add = true },
	[F(TCP_FLAGS)] = { L(TCP), 9, SEG1(TCP_FLAGS, 9) },
	[F(UDP_PORT_SRC)] = { L(UDP), 16, SEG1(UDP_SPORT, 16) },
	[F(UDP_PORT_DST)] = { L(UDP), 16, SEG1(UDP_DPORT, 16) },
	/* Registers: the PRM field is chosen by level (TAG) or direction (META). */
	[F(TAG)] = { 0, 32, SEG1(METADATA_REG_C_2, 32) },
	[F(META)] = { 0, 32, SEG1(METADATA_REG_C_1, 32) },
};

/* A field resolved for one rule: its PRM segments. */
struct mlx5dm_flow_modify_data {
	const struct mlx5dm_flow_modify_def *def;
	uint8_t seg_field[4];
	bool reg;
};

static bool
mlx5dm_flow_modify_immediate(enum rte_flow_field_id id)
{
	return id == RTE_FLOW_FIELD_VALUE || id == RTE_FLOW_FIELD_POINTER;
}

static int
mlx5dm_flow_modify_resolve(struct mlx5dm_flow_translation *x, const struct rte_flow_action *a,
			   const struct rte_flow_action_modify_data *d,
			   struct mlx5dm_flow_modify_data *mf, struct rte_flow_error *error)
{
	unsigned int i;

	memset(mf, 0, sizeof(*mf));
	/* An application's enum may hold anything: out of the table as unsigned. */
	if ((unsigned int)d->field < RTE_DIM(mlx5dm_flow_modify_defs) &&
	    mlx5dm_flow_modify_defs[d->field].width != 0)
		mf->def = &mlx5dm_flow_modify_defs[d->field];
	if (mf->def == NULL) {
		/* Kept after the return: rte_flow_error holds a pointer. */
		static __thread char msg[96];
		const struct rte_flow_action_modify_field *c = a->conf;

		snprintf(msg, sizeof(msg), "MODIFY_FIELD: %s field %d (enum rte_flow_field_id) "
			 "not supported", d == &c->dst ? "destination" : "source", (int)d->field);
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION_CONF, a, msg);
	}
	for (i = 0; i < mf->def->n_seg; i++)
		mf->seg_field[i] = mf->def->seg[i].field;
	if (d->field == RTE_FLOW_FIELD_TAG) {
		if (d->level >= MLX5DM_FLOW_NB_TAGS)
			return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION_CONF,
						  a, "MODIFY_FIELD: TAG index (level) must be 0 "
						  "to 3");
		mf->seg_field[0] = mlx5dm_flow_modify_reg(x, (int)d->level);
		mf->reg = true;
		return 0;
	}
	if (d->field == RTE_FLOW_FIELD_META) {
		mf->seg_field[0] = mlx5dm_flow_modify_reg(x, -1);
		mf->reg = true;
		return 0;
	}
	if (d->level > 1)
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
					  "MODIFY_FIELD: only outermost headers (level 0 or 1) "
					  "can be modified");
	if (mf->def->need != 0 && !(mlx5dm_flow_action_layers(x) & mf->def->need))
		return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION, a,
					  "MODIFY_FIELD: the pattern has no item for the header "
					  "of this field");
	return 0;
}

/* Segment holding field bit b (from the MSB); *end = its last field bit. */
static unsigned int
mlx5dm_flow_modify_seg(const struct mlx5dm_flow_modify_data *mf, unsigned int b, unsigned int *end)
{
	unsigned int k, first = 0;

	for (k = 0; k < mf->def->n_seg; k++) {
		unsigned int last = first + mf->def->seg[k].width - 1;

		if (b <= last) {
			*end = last;
			return k;
		}
		first = last + 1;
	}
	*end = first - 1;
	return mf->def->n_seg - 1;
}

/* Immediate v into buf as a big-endian bit string, the field right-aligned: its first bit. */
static unsigned int
mlx5dm_flow_modify_value(const struct mlx5dm_flow_modify_data *dst, const void *v, uint8_t *buf)
{
	unsigned int nbytes = (dst->def->width + 7u) / 8u;

	if (dst->reg) {
		uint32_t host;

		memcpy(&host, v, sizeof(host));
		mlx5dm_prm_put_be32(buf, host);
	} else {
		memcpy(buf, v, nbytes);
	}
	return nbytes * 8u - dst->def->width;
}

/* The immediate in buf (the field from bit base) into the field's bits [b, stop), by op. */
static int
mlx5dm_flow_modify_put(struct mlx5dm_flow_translation *x, const struct rte_flow_action *a,
		       const struct mlx5dm_flow_modify_data *dst, enum rte_flow_modify_op op,
		       const uint8_t *buf, unsigned int base, unsigned int b, unsigned int stop,
		       struct rte_flow_error *error)
{
	unsigned int w = dst->def->width;
	uint32_t v;
	int ret = 0;

	if (op != RTE_FLOW_MODIFY_SET) {
		v = mlx5dm_prm_get(buf, base, w);
		if (op == RTE_FLOW_MODIFY_SUB)
			v = (uint32_t)(-(uint64_t)v) & (w == 32 ? UINT32_MAX : (1u << w) - 1);
		return mlx5dm_flow_modify_entry(x, a, MLX5DM_MODIFY_ACTION_ADD, dst->seg_field[0],
						0, 0, v, dst->seg_field[0], 0, error);
	}
	while (ret == 0 && b < stop) {
		unsigned int end, k = mlx5dm_flow_modify_seg(dst, b, &end);
		unsigned int last = RTE_MIN(end, stop - 1);
		unsigned int len = last - b + 1;

		ret = mlx5dm_flow_modify_set(x, a, dst->seg_field[k], (uint8_t)(end - last),
					     (uint8_t)len, mlx5dm_prm_get(buf, base + b, len),
					     error);
		b += len;
	}
	return ret;
}

static int
mlx5dm_flow_modify_copy(struct mlx5dm_flow_translation *x, const struct rte_flow_action *a,
			const struct rte_flow_action_modify_field *c,
			const struct mlx5dm_flow_modify_data *dst,
			const struct mlx5dm_flow_modify_data *src, struct rte_flow_error *error)
{
	unsigned int db = c->dst.offset, sb = c->src.offset, left = c->width;
	int ret = 0;

	while (ret == 0 && left > 0) {
		unsigned int dend, send;
		unsigned int dk = mlx5dm_flow_modify_seg(dst, db, &dend);
		unsigned int sk = mlx5dm_flow_modify_seg(src, sb, &send);
		unsigned int len = RTE_MIN(left, RTE_MIN(dend - db + 1, send - sb + 1));

		/* PRM offsets count from each field's LSB. */
		ret = mlx5dm_flow_modify_entry(x, a, MLX5DM_MODIFY_ACTION_COPY, src->seg_field[sk],
					       (uint8_t)(send - (sb + len - 1)), (uint8_t)len, 0,
					       dst->seg_field[dk], (uint8_t)(dend - (db + len - 1)),
					       error);
		db += len;
		sb += len;
		left -= len;
	}
	return ret;
}

int
mlx5dm_flow_translate_modify_field(struct mlx5dm_flow_translation *x,
				   const struct rte_flow_action *a, struct rte_flow_error *error)
{
	const struct rte_flow_action_modify_field *c = a->conf;
	struct mlx5dm_flow_modify_data dst, src;
	int ret;

	if (c->operation != RTE_FLOW_MODIFY_SET && c->operation != RTE_FLOW_MODIFY_ADD &&
	    c->operation != RTE_FLOW_MODIFY_SUB)
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
					  "MODIFY_FIELD: unknown operation");
	ret = mlx5dm_flow_modify_resolve(x, a, &c->dst, &dst, error);
	if (ret < 0)
		return ret;
	if (c->width == 0 || c->width > dst.def->width ||
	    c->dst.offset > (uint32_t)dst.def->width - c->width)
		return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
					  "MODIFY_FIELD: width is 0 or offset + width exceeds the "
					  "destination field");
	if (!dst.reg) {
		ret = mlx5dm_flow_stage_enter(x, MLX5DM_FLOW_STAGE_MODIFY, a, error);
		if (ret < 0)
			return ret;
	}
	if (c->operation != RTE_FLOW_MODIFY_SET &&
	    (!dst.def->add || c->dst.offset != 0 || c->width != dst.def->width))
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
					  "MODIFY_FIELD ADD/SUB: only whole TTL, hop limit, TCP "
					  "sequence or acknowledgment fields");
	if (c->operation != RTE_FLOW_MODIFY_SET && !mlx5dm_flow_modify_immediate(c->src.field))
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
					  "MODIFY_FIELD ADD/SUB: the source must be an immediate "
					  "value");
	if (mlx5dm_flow_modify_immediate(c->src.field)) {
		const void *v = c->src.field == RTE_FLOW_FIELD_VALUE ? c->src.value : c->src.pvalue;
		uint8_t buf[16];

		if (v == NULL)
			return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
						  "MODIFY_FIELD: POINTER source is NULL");
		/* An ADD/SUB takes the whole field: mf_put ignores the range. */
		return mlx5dm_flow_modify_put(x, a, &dst, c->operation, buf,
					      mlx5dm_flow_modify_value(&dst, v, buf), c->dst.offset,
					      c->dst.offset + c->width, error);
	}
	ret = mlx5dm_flow_modify_resolve(x, a, &c->src, &src, error);
	if (ret < 0)
		return ret;
	if (c->width > src.def->width || c->src.offset > (uint32_t)src.def->width - c->width)
		return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
					  "MODIFY_FIELD: offset + width exceeds the source field");
	return mlx5dm_flow_modify_copy(x, a, c, &dst, &src, error);
}

/*
 * A fixed-field action: the first field whose header the pattern has, its
 * configuration the immediate (as a MODIFY_FIELD POINTER source).
 */
struct mlx5dm_flow_set_def {
	enum rte_flow_field_id field[2];
	enum rte_flow_modify_op op;
	uint8_t max;            /* of a one-byte value (0: any) */
	const char *msg;        /* no such header */
};

#define A(n) RTE_FLOW_ACTION_TYPE_##n
#define SET RTE_FLOW_MODIFY_SET
#define TP_MSG "SET_TP_SRC/DST needs a TCP or UDP item in the pattern"
#define TTL_MSG "SET_TTL/DEC_TTL needs an IPV4 or IPV6 item in the pattern"
#define SEQ_MSG "INC/DEC_TCP_SEQ/ACK needs a TCP item in the pattern"

static const struct mlx5dm_flow_set_def mlx5dm_flow_set_defs[] = {
	[A(SET_MAC_SRC)] = { { F(MAC_SRC) }, SET, 0, NULL },
	[A(SET_MAC_DST)] = { { F(MAC_DST) }, SET, 0, NULL },
	[A(SET_IPV4_SRC)] = { { F(IPV4_SRC) }, SET, 0,
	  "SET_IPV4_SRC needs an IPV4 item in the pattern" },
	[A(SET_IPV4_DST)] = { { F(IPV4_DST) }, SET, 0,
	  "SET_IPV4_DST needs an IPV4 item in the pattern" },
	[A(SET_IPV6_SRC)] = { { F(IPV6_SRC) }, SET, 0,
	  "SET_IPV6_SRC needs an IPV6 item in the pattern" },
	[A(SET_IPV6_DST)] = { { F(IPV6_DST) }, SET, 0,
	  "SET_IPV6_DST needs an IPV6 item in the pattern" },
	[A(SET_IPV4_DSCP)] = { { F(IPV4_DSCP) }, SET, 63,
	  "SET_IPV4_DSCP needs an IPV4 item in the pattern" },
	[A(SET_TP_SRC)] = { { F(TCP_PORT_SRC), F(UDP_PORT_SRC) }, SET, 0, TP_MSG },
	[A(SET_TP_DST)] = { { F(TCP_PORT_DST), F(UDP_PORT_DST) }, SET, 0, TP_MSG },
	[A(SET_TTL)] = { { F(IPV4_TTL), F(IPV6_HOPLIMIT) }, SET, 0, TTL_MSG },
	[A(DEC_TTL)] = { { F(IPV4_TTL), F(IPV6_HOPLIMIT) }, RTE_FLOW_MODIFY_SUB, 0, TTL_MSG },
	[A(INC_TCP_SEQ)] = { { F(TCP_SEQ_NUM) }, RTE_FLOW_MODIFY_ADD, 0, SEQ_MSG },
	[A(DEC_TCP_SEQ)] = { { F(TCP_SEQ_NUM) }, RTE_FLOW_MODIFY_SUB, 0, SEQ_MSG },
	[A(INC_TCP_ACK)] = { { F(TCP_ACK_NUM) }, RTE_FLOW_MODIFY_ADD, 0, SEQ_MSG },
	[A(DEC_TCP_ACK)] = { { F(TCP_ACK_NUM) }, RTE_FLOW_MODIFY_SUB, 0, SEQ_MSG },
	[A(OF_SET_VLAN_VID)] = { { F(VLAN_ID) }, SET, 0,
	  "OF_SET_VLAN_VID needs OF_PUSH_VLAN before it or a VLAN item in the pattern" },
};

int
mlx5dm_flow_translate_set(struct mlx5dm_flow_translation *x, const struct rte_flow_action *a,
				 struct rte_flow_error *error)
{
	/* Its callers (the action table, OF_SET_VLAN_VID) pass only types set_defs has. */
	const struct mlx5dm_flow_set_def *d = &mlx5dm_flow_set_defs[a->type];
	struct mlx5dm_flow_modify_data dst = { .def = NULL };
	static const uint8_t one = 1; /* DEC_TTL's: it has no configuration to read */
	const void *v = a->type == RTE_FLOW_ACTION_TYPE_DEC_TTL ? &one : a->conf;
	uint8_t buf[16];
	unsigned int i;
	int ret;

	ret = mlx5dm_flow_stage_enter(x, MLX5DM_FLOW_STAGE_MODIFY, a, error);
	if (ret < 0)
		return ret;
	for (i = 0; i < RTE_DIM(d->field) && dst.def == NULL; i++) {
		dst.def = &mlx5dm_flow_modify_defs[d->field[i]];
		if (dst.def->width == 0 ||
		    (dst.def->need != 0 && !(mlx5dm_flow_action_layers(x) & dst.def->need)))
			dst.def = NULL;
	}
	if (dst.def == NULL)
		return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION, a, d->msg);
	if (d->max != 0 && *(const uint8_t *)a->conf > d->max)
		return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
					  "value out of range (DSCP is 0 to 63)");
	for (i = 0; i < dst.def->n_seg; i++)
		dst.seg_field[i] = dst.def->seg[i].field;
	/* The configuration is the immediate MODIFY_FIELD takes: the field right-aligned. */
	return mlx5dm_flow_modify_put(x, a, &dst, d->op, buf,
				      mlx5dm_flow_modify_value(&dst, v, buf), 0, dst.def->width,
				      error);
}
