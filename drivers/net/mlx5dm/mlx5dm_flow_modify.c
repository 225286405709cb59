/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Header and register changes -> PRM modify-header entries. The device
 * rewrites whatever header sits there, so SET_IPV4_SRC needs an IPV4 item
 * (the inner one after a decap). Decrements are ADDs of the complement.
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_flow.h"

#define IN mlx5dm_prm_modify_in

/* Metadata registers: a write there changes no byte of the packet. */
static bool
mlx5dm_flow_modify_is_reg(uint8_t field)
{
	return field == MLX5DM_MODIFY_FLD_METADATA_REG_A ||
	       (field >= MLX5DM_MODIFY_FLD_METADATA_REG_B &&
		field <= MLX5DM_MODIFY_FLD_METADATA_REG_C_5);
}

/* A new entry of the list: *e, with its type and (source) field set; dst is what it writes. */
static int
mlx5dm_flow_modify_entry(struct mlx5dm_flow_xlate *x, const struct rte_flow_action *a,
			 uint8_t type, uint8_t field, uint8_t dst, uint8_t **e,
			 struct rte_flow_error *error)
{
	struct mlx5dm_flow_spec *spec = x->spec;

	if (spec->nb_modify == MLX5DM_FLOW_MAX_MODIFY)
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION, a,
					  "too many header changes in one rule (at most 64 "
					  "fields)");
	*e = &spec->modify[spec->nb_modify * MLX5DM_MODIFY_ACTION_SIZE];
	memset(*e, 0, MLX5DM_MODIFY_ACTION_SIZE);
	mlx5dm_prm_fset(*e, IN.action_type, type);
	mlx5dm_prm_fset(*e, IN.field, field);
	spec->nb_modify++;
	x->seen |= mlx5dm_flow_modify_is_reg(dst) ? MLX5DM_FLOW_A_SET_REG : MLX5DM_FLOW_A_MODIFY;
	return 0;
}

bool
mlx5dm_flow_modify_is_set32(const uint8_t *e, uint32_t *data)
{
	if (mlx5dm_prm_fget(e, IN.action_type) != MLX5DM_MODIFY_ACTION_SET ||
	    mlx5dm_prm_fget(e, IN.offset) != 0 || mlx5dm_prm_fget(e, IN.length) != 0)
		return false;
	*data = (uint32_t)mlx5dm_prm_fget(e, IN.data);
	return true;
}

int
mlx5dm_flow_modify_set(struct mlx5dm_flow_xlate *x, const struct rte_flow_action *a,
		       uint8_t field, uint8_t offset, uint8_t length, uint32_t data,
		       struct rte_flow_error *error)
{
	uint8_t *e;
	int ret = mlx5dm_flow_modify_entry(x, a, MLX5DM_MODIFY_ACTION_SET, field, field, &e,
					   error);

	if (ret < 0)
		return ret;
	if (length != 0 && length < 32)
		data &= (1u << length) - 1;
	mlx5dm_prm_fset(e, IN.offset, offset);
	mlx5dm_prm_fset(e, IN.length, length == 32 ? 0 : length); /* 0 means 32 */
	mlx5dm_prm_fset(e, IN.data, data);
	return 0;
}

int
mlx5dm_flow_modify_add(struct mlx5dm_flow_xlate *x, const struct rte_flow_action *a,
		       uint8_t field, uint32_t data, struct rte_flow_error *error)
{
	uint8_t *e;
	int ret = mlx5dm_flow_modify_entry(x, a, MLX5DM_MODIFY_ACTION_ADD, field, field, &e,
					   error);

	if (ret < 0)
		return ret;
	mlx5dm_prm_fset(e, IN.data, data);
	return 0;
}

int
mlx5dm_flow_modify_copy(struct mlx5dm_flow_xlate *x, const struct rte_flow_action *a,
			uint8_t src, uint8_t src_offset, uint8_t dst, uint8_t dst_offset,
			uint8_t length, struct rte_flow_error *error)
{
	uint8_t *e;
	int ret = mlx5dm_flow_modify_entry(x, a, MLX5DM_MODIFY_ACTION_COPY, src, dst, &e,
					   error);

	if (ret < 0)
		return ret;
	mlx5dm_prm_fset(e, IN.offset, src_offset);
	mlx5dm_prm_fset(e, IN.length, length == 32 ? 0 : length);
	mlx5dm_prm_fset(e, IN.dst_field, dst);
	mlx5dm_prm_fset(e, IN.dst_offset, dst_offset);
	return 0;
}

/* Set the bits of mask in a 32-bit register field (one entry per run of ones). */
static int
mlx5dm_flow_modify_set_masked(struct mlx5dm_flow_xlate *x, const struct rte_flow_action *a,
			      uint8_t field, uint32_t data, uint32_t mask,
			      struct rte_flow_error *error)
{
	unsigned int bit = 0;
	int ret;

	if (mask == 0)
		return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
					  "mask is zero: nothing to set");
	/* One SET per run of ones: offset = its lowest bit. */
	while (bit < 32) {
		unsigned int len = 0;

		if (!(mask & (1u << bit))) {
			bit++;
			continue;
		}
		while (bit + len < 32 && (mask & (1u << (bit + len))))
			len++;
		ret = mlx5dm_flow_modify_set(x, a, field, (uint8_t)bit, (uint8_t)len,
					     (uint32_t)((uint64_t)data >> bit), error);
		if (ret < 0)
			return ret;
		bit += len;
	}
	return 0;
}

static int
mlx5dm_flow_need(struct mlx5dm_flow_xlate *x, const struct rte_flow_action *a, uint32_t layers,
		 const char *msg, struct rte_flow_error *error)
{
	if (!(mlx5dm_flow_action_layers(x) & layers))
		return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION, a, msg);
	return 0;
}

/* Actions setting fixed fields from the bytes of their configuration. */
struct mlx5dm_flow_set_def {
	enum rte_flow_action_type type;
	uint32_t need;          /* pattern layer(s) the field lives in, 0: always there */
	const char *msg;
	uint8_t n;
	uint8_t conf_size;      /* bytes of the configuration */
	uint8_t conf_max;       /* for a one-byte value: its maximum (0: none) */
	struct {
		uint8_t field;
		uint8_t length;
		uint8_t conf_bit;    /* of the value in the configuration */
	} f[4];
};

#define FLD(n) MLX5DM_MODIFY_FLD_##n

static const struct mlx5dm_flow_set_def mlx5dm_flow_set_defs[] = {
	{ RTE_FLOW_ACTION_TYPE_SET_MAC_SRC, 0, NULL, 2, 6, 0,
	  { { FLD(SMAC_47_16), 32, 0 }, { FLD(SMAC_15_0), 16, 32 } } },
	{ RTE_FLOW_ACTION_TYPE_SET_MAC_DST, 0, NULL, 2, 6, 0,
	  { { FLD(DMAC_47_16), 32, 0 }, { FLD(DMAC_15_0), 16, 32 } } },
	{ RTE_FLOW_ACTION_TYPE_SET_IPV4_SRC, MLX5DM_FLOW_L_IPV4,
	  "SET_IPV4_SRC needs an IPV4 item in the pattern", 1, 4, 0, { { FLD(SIPV4), 32, 0 } } },
	{ RTE_FLOW_ACTION_TYPE_SET_IPV4_DST, MLX5DM_FLOW_L_IPV4,
	  "SET_IPV4_DST needs an IPV4 item in the pattern", 1, 4, 0, { { FLD(DIPV4), 32, 0 } } },
	{ RTE_FLOW_ACTION_TYPE_SET_IPV6_SRC, MLX5DM_FLOW_L_IPV6,
	  "SET_IPV6_SRC needs an IPV6 item in the pattern", 4, 16, 0,
	  { { FLD(SIPV6_127_96), 32, 0 }, { FLD(SIPV6_95_64), 32, 32 },
	    { FLD(SIPV6_63_32), 32, 64 }, { FLD(SIPV6_31_0), 32, 96 } } },
	{ RTE_FLOW_ACTION_TYPE_SET_IPV6_DST, MLX5DM_FLOW_L_IPV6,
	  "SET_IPV6_DST needs an IPV6 item in the pattern", 4, 16, 0,
	  { { FLD(DIPV6_127_96), 32, 0 }, { FLD(DIPV6_95_64), 32, 32 },
	    { FLD(DIPV6_63_32), 32, 64 }, { FLD(DIPV6_31_0), 32, 96 } } },
	{ RTE_FLOW_ACTION_TYPE_SET_IPV4_DSCP, MLX5DM_FLOW_L_IPV4,
	  "SET_IPV4_DSCP needs an IPV4 item in the pattern", 1, 1, 63,
	  { { FLD(IP_DSCP), 6, 2 } } },
};

static int
mlx5dm_flow_set_fixed(struct mlx5dm_flow_xlate *x, const struct rte_flow_action *a,
		      const struct mlx5dm_flow_set_def *d, struct rte_flow_error *error)
{
	uint8_t conf[16] = { 0 };
	unsigned int i;
	int ret;

	/* A padded copy: the bit reader loads whole 32-bit words. */
	memcpy(conf, a->conf, d->conf_size);
	if (d->need != 0) {
		ret = mlx5dm_flow_need(x, a, d->need, d->msg, error);
		if (ret < 0)
			return ret;
	}
	if (d->conf_max != 0 && conf[0] > d->conf_max)
		return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
					  "value out of range (DSCP is 0 to 63)");
	for (i = 0; i < d->n; i++) {
		ret = mlx5dm_flow_modify_set(x, a, d->f[i].field, 0, d->f[i].length,
					     mlx5dm_prm_get(conf, d->f[i].conf_bit,
							    d->f[i].length), error);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/* TCP or UDP port field of the pattern's L4. */
static int
mlx5dm_flow_set_tp(struct mlx5dm_flow_xlate *x, const struct rte_flow_action *a, bool src,
		   struct rte_flow_error *error)
{
	const struct rte_flow_action_set_tp *c = a->conf;
	uint32_t l = mlx5dm_flow_action_layers(x);
	uint8_t field;

	if (l & MLX5DM_FLOW_L_TCP)
		field = src ? FLD(TCP_SPORT) : FLD(TCP_DPORT);
	else if (l & MLX5DM_FLOW_L_UDP)
		field = src ? FLD(UDP_SPORT) : FLD(UDP_DPORT);
	else
		return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION, a,
					  "SET_TP_SRC/DST needs a TCP or UDP item in the pattern");
	return mlx5dm_flow_modify_set(x, a, field, 0, 16, rte_be_to_cpu_16(c->port), error);
}

/* IPv4 TTL or IPv6 hop limit, per the pattern's L3. */
static int
mlx5dm_flow_ttl_field(struct mlx5dm_flow_xlate *x, const struct rte_flow_action *a,
		      uint8_t *field, struct rte_flow_error *error)
{
	uint32_t l = mlx5dm_flow_action_layers(x);

	if (l & MLX5DM_FLOW_L_IPV4)
		*field = FLD(IP_TTL);
	else if (l & MLX5DM_FLOW_L_IPV6)
		*field = FLD(IPV6_HOPLIMIT);
	else
		return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION, a,
					  "SET_TTL/DEC_TTL needs an IPV4 or IPV6 item in the "
					  "pattern");
	return 0;
}

static int
mlx5dm_flow_set_ttl(struct mlx5dm_flow_xlate *x, const struct rte_flow_action *a,
		    struct rte_flow_error *error)
{
	uint8_t field = 0;
	int ret = mlx5dm_flow_ttl_field(x, a, &field, error);

	if (ret < 0)
		return ret;
	if (a->type == RTE_FLOW_ACTION_TYPE_DEC_TTL)
		return mlx5dm_flow_modify_add(x, a, field, 0xff, error);
	return mlx5dm_flow_modify_set(x, a, field, 0, 8,
				      ((const struct rte_flow_action_set_ttl *)a->conf)->ttl_value,
				      error);
}

static int
mlx5dm_flow_tcp_seq_ack(struct mlx5dm_flow_xlate *x, const struct rte_flow_action *a,
			struct rte_flow_error *error)
{
	uint32_t v = rte_be_to_cpu_32(*(const rte_be32_t *)a->conf);
	bool ack = a->type == RTE_FLOW_ACTION_TYPE_INC_TCP_ACK ||
		   a->type == RTE_FLOW_ACTION_TYPE_DEC_TCP_ACK;
	bool dec = a->type == RTE_FLOW_ACTION_TYPE_DEC_TCP_SEQ ||
		   a->type == RTE_FLOW_ACTION_TYPE_DEC_TCP_ACK;
	int ret = mlx5dm_flow_need(x, a, MLX5DM_FLOW_L_TCP, "INC/DEC_TCP_SEQ/ACK needs a TCP "
				   "item in the pattern", error);

	if (ret < 0)
		return ret;
	return mlx5dm_flow_modify_add(x, a, ack ? FLD(TCP_ACK_NUM) : FLD(TCP_SEQ_NUM),
				      dec ? (uint32_t)-v : v, error);
}

static int
mlx5dm_flow_set_vid(struct mlx5dm_flow_xlate *x, const struct rte_flow_action *a,
		    struct rte_flow_error *error)
{
	const struct rte_flow_action_of_set_vlan_vid *c = a->conf;
	int ret = mlx5dm_flow_need(x, a, MLX5DM_FLOW_L_VLAN, "OF_SET_VLAN_VID needs OF_PUSH_VLAN "
				   "before it or a VLAN item in the pattern", error);

	if (ret < 0)
		return ret;
	return mlx5dm_flow_modify_set(x, a, FLD(FIRST_VID), 0, 12, rte_be_to_cpu_16(c->vlan_vid),
				      error);
}

uint8_t
mlx5dm_flow_modify_reg(const struct mlx5dm_flow_xlate *x, int index)
{
	static const uint8_t tag_regs[MLX5DM_FLOW_NB_TAGS] = {
		FLD(METADATA_REG_C_2), FLD(METADATA_REG_C_3),
		FLD(METADATA_REG_C_4), FLD(METADATA_REG_C_5),
	};

	/* META is the Tx descriptor's metadata (reg_a) on egress. */
	if (index < 0)
		return x->spec->egress ? FLD(METADATA_REG_A) : FLD(METADATA_REG_C_1);
	return tag_regs[index];
}

static int
mlx5dm_flow_set_reg(struct mlx5dm_flow_xlate *x, const struct rte_flow_action *a,
		    struct rte_flow_error *error)
{
	if (a->type == RTE_FLOW_ACTION_TYPE_SET_TAG) {
		const struct rte_flow_action_set_tag *t = a->conf;

		if (t->index >= MLX5DM_FLOW_NB_TAGS)
			return rte_flow_error_set(error, ENOTSUP,
						  RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
						  "SET_TAG index must be 0 to 3");
		return mlx5dm_flow_modify_set_masked(x, a, mlx5dm_flow_modify_reg(x, t->index),
						     t->data, t->mask, error);
	} else {
		const struct rte_flow_action_set_meta *m = a->conf;

		return mlx5dm_flow_modify_set_masked(x, a, mlx5dm_flow_modify_reg(x, -1), m->data,
						     m->mask, error);
	}
}

int
mlx5dm_flow_xlate_set_action(struct mlx5dm_flow_xlate *x, const struct rte_flow_action *a,
			     struct rte_flow_error *error)
{
	unsigned int i;
	int ret;

	/* Registers are not packet headers: their writes may come anywhere. */
	if (a->type == RTE_FLOW_ACTION_TYPE_SET_TAG || a->type == RTE_FLOW_ACTION_TYPE_SET_META)
		return mlx5dm_flow_set_reg(x, a, error);
	ret = mlx5dm_flow_stage_enter(x, MLX5DM_FLOW_STAGE_MODIFY, a, error);
	if (ret < 0)
		return ret;
	for (i = 0; i < RTE_DIM(mlx5dm_flow_set_defs); i++)
		if (mlx5dm_flow_set_defs[i].type == a->type)
			return mlx5dm_flow_set_fixed(x, a, &mlx5dm_flow_set_defs[i], error);
	switch (a->type) {
	case RTE_FLOW_ACTION_TYPE_SET_TP_SRC:
	case RTE_FLOW_ACTION_TYPE_SET_TP_DST:
		return mlx5dm_flow_set_tp(x, a, a->type == RTE_FLOW_ACTION_TYPE_SET_TP_SRC, error);
	case RTE_FLOW_ACTION_TYPE_SET_TTL:
	case RTE_FLOW_ACTION_TYPE_DEC_TTL:
		return mlx5dm_flow_set_ttl(x, a, error);
	case RTE_FLOW_ACTION_TYPE_INC_TCP_SEQ:
	case RTE_FLOW_ACTION_TYPE_DEC_TCP_SEQ:
	case RTE_FLOW_ACTION_TYPE_INC_TCP_ACK:
	case RTE_FLOW_ACTION_TYPE_DEC_TCP_ACK:
		return mlx5dm_flow_tcp_seq_ack(x, a, error);
	case RTE_FLOW_ACTION_TYPE_OF_SET_VLAN_VID:
		return mlx5dm_flow_set_vid(x, a, error);
	default:
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION, a,
					  mlx5dm_flow_type_msg(true, a->type));
	}
}
