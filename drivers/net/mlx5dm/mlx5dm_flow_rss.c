/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * QUEUE and RSS -> TIRs. A TIR hashes one kind of packet (others go to the
 * first queue), so RSS over several kinds becomes a sub-rule per distinct
 * hash, matching IP version and protocol: IP+L4 first, then IP, then the
 * rest. Kinds the pattern excludes are skipped.
 */

#include <errno.h>
#include <string.h>

#include <rte_ip.h>

#include "mlx5dm_flow.h"

/* The Toeplitz key of Microsoft's RSS verification suite (used when none is given). */
const uint8_t mlx5dm_flow_rss_default_key[40] = {
	0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2, 0x41, 0x67,
	0x25, 0x3d, 0x43, 0xa3, 0x8f, 0xb0, 0xd0, 0xca, 0x2b, 0xcb,
	0xae, 0x7b, 0x30, 0xb4, 0x77, 0xcb, 0x2d, 0xa3, 0x80, 0x30,
	0xf2, 0x0c, 0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01, 0xfa,
};

int
mlx5dm_flow_translate_queue(struct mlx5dm_flow_translation *x, const struct rte_flow_action *a,
			    struct rte_flow_error *error)
{
	const struct rte_flow_action_queue *q = a->conf;

	if (q->index >= x->ctx->nb_rx_queues)
		return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
					  "QUEUE index is beyond the configured Rx queues");
	x->spec->nb_queues = 1;
	x->spec->queues[0] = q->index;
	return 0;
}

static int
mlx5dm_flow_rss_queues(struct mlx5dm_flow_translation *x, const struct rte_flow_action *a,
		       const struct rte_flow_action_rss *r, struct rte_flow_error *error)
{
	uint64_t used[(MLX5DM_FLOW_MAX_QUEUES + 63) / 64] = { 0 };
	unsigned int i;

	if (r->queue_num == 0 || r->queue == NULL)
		return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
					  "RSS needs at least one queue");
	if (r->queue_num > MLX5DM_FLOW_MAX_QUEUES)
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
					  "RSS over at most 64 queues");
	for (i = 0; i < r->queue_num; i++) {
		uint16_t q = r->queue[i];

		if (q >= x->ctx->nb_rx_queues)
			return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_CONF,
						  a, "RSS queue index is beyond the configured "
						  "Rx queues");
		if (used[q / 64] & (1ull << (q % 64)))
			return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION_CONF,
						  a, "RSS queue list has duplicates");
		used[q / 64] |= 1ull << (q % 64);
		x->spec->queues[i] = q;
	}
	x->spec->nb_queues = (uint16_t)r->queue_num;
	return 0;
}

int
mlx5dm_flow_translate_rss(struct mlx5dm_flow_translation *x, const struct rte_flow_action *a,
			  struct rte_flow_error *error)
{
	const struct rte_flow_action_rss *r = a->conf;
	struct mlx5dm_flow_spec *spec = x->spec;
	uint64_t types = r->types != 0 ? r->types : RTE_ETH_RSS_IP;

	if (r->func != RTE_ETH_HASH_FUNCTION_DEFAULT && r->func != RTE_ETH_HASH_FUNCTION_TOEPLITZ &&
	    r->func != RTE_ETH_HASH_FUNCTION_SYMMETRIC_TOEPLITZ)
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
					  "RSS hash function not supported: Toeplitz or "
					  "symmetric Toeplitz only");
	if (r->level > 2)
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
					  "RSS level must be 0 or 1 (outer) or 2 (inner)");
	if (r->level == 2 && !(spec->layers & MLX5DM_FLOW_L_TUNNEL))
		return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
					  "inner RSS (level 2) needs a tunnel item in the pattern");
	if (types & ~(uint64_t)MLX5DM_FLOW_RSS_HF_SUPPORTED)
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
					  "RSS types contain hash types the device cannot compute "
					  "(IPv4/IPv6 addresses and TCP/UDP ports only)");
	if ((types & RTE_ETH_RSS_L3_SRC_ONLY) && (types & RTE_ETH_RSS_L3_DST_ONLY))
		return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
					  "RSS types L3_SRC_ONLY and L3_DST_ONLY together");
	if ((types & RTE_ETH_RSS_L4_SRC_ONLY) && (types & RTE_ETH_RSS_L4_DST_ONLY))
		return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
					  "RSS types L4_SRC_ONLY and L4_DST_ONLY together");
	if (r->key_len != 0 && r->key_len != sizeof(spec->rss_key))
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
					  "RSS key must be 40 bytes");
	if (r->key_len != 0 && r->key == NULL)
		return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
					  "RSS key length given without a key");
	memcpy(spec->rss_key, r->key_len != 0 ? r->key : mlx5dm_flow_rss_default_key,
	       sizeof(spec->rss_key));
	spec->rss_types = types;
	spec->rss_inner = r->level == 2;
	spec->rss_symmetric = r->func == RTE_ETH_HASH_FUNCTION_SYMMETRIC_TOEPLITZ;
	return mlx5dm_flow_rss_queues(x, a, r, error);
}

/* Packet kinds a TIR tells apart. */
enum {
	MLX5DM_FLOW_K_V4_TCP,
	MLX5DM_FLOW_K_V4_UDP,
	MLX5DM_FLOW_K_V4,
	MLX5DM_FLOW_K_V6_TCP,
	MLX5DM_FLOW_K_V6_UDP,
	MLX5DM_FLOW_K_V6,
	MLX5DM_FLOW_K_OTHER,
	MLX5DM_FLOW_NB_KINDS,
};

/* Types that hash any packet of the family on its addresses. */
#define MLX5DM_FLOW_RSS_V4_ANY \
	(RTE_ETH_RSS_IPV4 | RTE_ETH_RSS_FRAG_IPV4 | RTE_ETH_RSS_NONFRAG_IPV4_OTHER)
#define MLX5DM_FLOW_RSS_V6_ANY \
	(RTE_ETH_RSS_IPV6 | RTE_ETH_RSS_FRAG_IPV6 | RTE_ETH_RSS_NONFRAG_IPV6_OTHER | \
	 RTE_ETH_RSS_IPV6_EX)

static const struct {
	uint8_t ipv;
	uint8_t proto;
	uint64_t l4_types;      /* types hashing this kind's ports */
	uint64_t l3_types;      /* types hashing this kind's addresses */
} mlx5dm_flow_kinds[MLX5DM_FLOW_NB_KINDS] = {
	[MLX5DM_FLOW_K_V4_TCP] = { 4, IPPROTO_TCP, RTE_ETH_RSS_NONFRAG_IPV4_TCP,
				   MLX5DM_FLOW_RSS_V4_ANY },
	[MLX5DM_FLOW_K_V4_UDP] = { 4, IPPROTO_UDP, RTE_ETH_RSS_NONFRAG_IPV4_UDP,
				   MLX5DM_FLOW_RSS_V4_ANY },
	[MLX5DM_FLOW_K_V4] = { 4, 0, 0, MLX5DM_FLOW_RSS_V4_ANY },
	[MLX5DM_FLOW_K_V6_TCP] = { 6, IPPROTO_TCP,
				   RTE_ETH_RSS_NONFRAG_IPV6_TCP | RTE_ETH_RSS_IPV6_TCP_EX,
				   MLX5DM_FLOW_RSS_V6_ANY },
	[MLX5DM_FLOW_K_V6_UDP] = { 6, IPPROTO_UDP,
				   RTE_ETH_RSS_NONFRAG_IPV6_UDP | RTE_ETH_RSS_IPV6_UDP_EX,
				   MLX5DM_FLOW_RSS_V6_ANY },
	[MLX5DM_FLOW_K_V6] = { 6, 0, 0, MLX5DM_FLOW_RSS_V6_ANY },
	[MLX5DM_FLOW_K_OTHER] = { 0, 0, 0, 0 },
};

/* The hash of one kind; fields 0 = no hash (first queue). */
static void
mlx5dm_flow_kind_hash(const struct mlx5dm_flow_spec *spec, unsigned int k,
		      struct mlx5dm_flow_sub *sub)
{
	uint64_t t = spec->rss_types;
	uint32_t l3 = MLX5DM_RSS_SRC_IP | MLX5DM_RSS_DST_IP;
	uint32_t l4 = MLX5DM_RSS_L4_SPORT | MLX5DM_RSS_L4_DPORT;
	uint32_t fields = 0;

	if (t & RTE_ETH_RSS_L3_SRC_ONLY)
		l3 = MLX5DM_RSS_SRC_IP;
	else if (t & RTE_ETH_RSS_L3_DST_ONLY)
		l3 = MLX5DM_RSS_DST_IP;
	if (t & RTE_ETH_RSS_L4_SRC_ONLY)
		l4 = MLX5DM_RSS_L4_SPORT;
	else if (t & RTE_ETH_RSS_L4_DST_ONLY)
		l4 = MLX5DM_RSS_L4_DPORT;
	if (t & mlx5dm_flow_kinds[k].l4_types)
		fields = l3 | l4;
	else if (t & mlx5dm_flow_kinds[k].l3_types)
		fields = l3;
	memset(sub, 0, sizeof(*sub));
	sub->inner = spec->rss_inner;
	if (fields == 0)
		return;
	sub->hash = true;
	sub->rss.ipv6 = mlx5dm_flow_kinds[k].ipv == 6;
	sub->rss.udp = (fields & l4) != 0 && mlx5dm_flow_kinds[k].proto == IPPROTO_UDP;
	sub->rss.inner = spec->rss_inner;
	sub->rss.symmetric = spec->rss_symmetric;
	sub->rss.fields = fields;
	memcpy(sub->rss.key, spec->rss_key, sizeof(sub->rss.key));
}

static bool
mlx5dm_flow_same_hash(const struct mlx5dm_flow_sub *a, const struct mlx5dm_flow_sub *b)
{
	if (a->hash != b->hash)
		return false;
	return !a->hash || memcmp(&a->rss, &b->rss, sizeof(a->rss)) == 0;
}

/* Kinds the pattern can still produce, from its ip_version / ip_protocol. */
static uint32_t
mlx5dm_flow_kinds_possible(const struct mlx5dm_flow_translation *x, bool inner)
{
	enum mlx5dm_fte_field fv = MLX5DM_FLOW_IO(inner, ip_version);
	enum mlx5dm_fte_field fp = MLX5DM_FLOW_IO(inner, ip_protocol);
	uint32_t vm = mlx5dm_flow_match_mask(x, fv), pm = mlx5dm_flow_match_mask(x, fp);
	uint32_t v = mlx5dm_flow_match_value(x, fv), p = mlx5dm_flow_match_value(x, fp);
	uint32_t possible = 0;
	unsigned int k;

	for (k = 0; k < MLX5DM_FLOW_NB_KINDS; k++) {
		uint8_t kv = mlx5dm_flow_kinds[k].ipv, kp = mlx5dm_flow_kinds[k].proto;

		/* ip_version's mask is the version itself (SW steering convention). */
		if (vm != 0 && kv != v)
			continue;
		if (pm == 0xff && kv != 0) {
			/* A known protocol: its kind, or the plain IP kind for others. */
			bool l4 = p == IPPROTO_TCP || p == IPPROTO_UDP;

			if (l4 ? kp != p : kp != 0)
				continue;
		}
		possible |= 1u << k;
	}
	return possible;
}

/* Every possible kind of the family hashes as the (possible) non-IP kind does. */
static bool
mlx5dm_flow_family_is_other(const struct mlx5dm_flow_sub *h, uint32_t possible,
			    unsigned int base)
{
	unsigned int k;

	if (!(possible & (1u << MLX5DM_FLOW_K_OTHER)))
		return false;
	for (k = base; k < base + 3; k++)
		if ((possible & (1u << k)) &&
		    !mlx5dm_flow_same_hash(&h[k], &h[MLX5DM_FLOW_K_OTHER]))
			return false;
	return true;
}

static void
mlx5dm_flow_sub_add(struct mlx5dm_flow_spec *spec, const struct mlx5dm_flow_sub *h,
		    uint8_t subprio, uint8_t ipv, uint8_t proto)
{
	struct mlx5dm_flow_sub *s = &spec->sub[spec->nb_sub++];

	*s = *h;
	s->subprio = subprio;
	s->ipv = ipv;
	s->proto = proto;
}

/* The sub-rules by hash (QUEUE, or RSS over the kinds the pattern leaves possible). */
static void
mlx5dm_flow_rss_subs(struct mlx5dm_flow_translation *x)
{
	struct mlx5dm_flow_sub h[MLX5DM_FLOW_NB_KINDS];
	struct mlx5dm_flow_spec *spec = x->spec;
	uint32_t possible;
	unsigned int k, first = MLX5DM_FLOW_NB_KINDS, fam;
	bool same = true;

	spec->nb_sub = 0;
	/* Only RSS (a fate of its own) gives more than one queue. */
	possible = spec->nb_queues >= 2 ? mlx5dm_flow_kinds_possible(x, spec->rss_inner) : 0;
	for (k = 0; k < MLX5DM_FLOW_NB_KINDS; k++) {
		if (!(possible & (1u << k)))
			continue;
		mlx5dm_flow_kind_hash(spec, k, &h[k]);
		if (first == MLX5DM_FLOW_NB_KINDS)
			first = k;
		else if (!mlx5dm_flow_same_hash(&h[k], &h[first]))
			same = false;
	}
	if (first == MLX5DM_FLOW_NB_KINDS) {
		/* No RSS, or nothing can match anyway: one rule to the first queue. */
		memset(&spec->sub[0], 0, sizeof(spec->sub[0]));
		spec->nb_sub = 1;
		return;
	}
	if (same) {
		mlx5dm_flow_sub_add(spec, &h[first], 0, 0, 0);
		return;
	}
	/* Per IP family: TCP / UDP rules where they hash differently from the rest. */
	for (fam = 0; fam < 2; fam++) {
		unsigned int base = fam == 0 ? MLX5DM_FLOW_K_V4_TCP : MLX5DM_FLOW_K_V6_TCP;
		unsigned int ip = base + 2;

		if (mlx5dm_flow_family_is_other(h, possible, base))
			continue; /* the catch-all rule serves it */
		for (k = base; k < ip; k++) {
			if (!(possible & (1u << k)))
				continue;
			if ((possible & (1u << ip)) && mlx5dm_flow_same_hash(&h[k], &h[ip]))
				continue;
			mlx5dm_flow_sub_add(spec, &h[k], 0, mlx5dm_flow_kinds[k].ipv,
					    mlx5dm_flow_kinds[k].proto);
		}
		if (possible & (1u << ip))
			mlx5dm_flow_sub_add(spec, &h[ip], 1, mlx5dm_flow_kinds[ip].ipv, 0);
	}
	if (possible & (1u << MLX5DM_FLOW_K_OTHER))
		mlx5dm_flow_sub_add(spec, &h[MLX5DM_FLOW_K_OTHER], 2, 0, 0);
}

int
mlx5dm_flow_rss_expand(struct mlx5dm_flow_translation *x, struct rte_flow_error *error)
{
	mlx5dm_flow_rss_subs(x);
	return mlx5dm_flow_vlan_expand(x->spec, error);
}

int
mlx5dm_flow_vlan_expand(struct mlx5dm_flow_spec *spec, struct rte_flow_error *error)
{
	unsigned int bit, i, n;

	/* A tag of either kind: each sub-rule so far once more, with the tag an S-tag. */
	for (bit = 1; bit <= spec->vlan_either; bit <<= 1) {
		if (!(spec->vlan_either & bit))
			continue;
		n = spec->nb_sub;
		if (2 * n + spec->nb_extra > MLX5DM_FLOW_MAX_SUB)
			return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM, NULL,
						  "VLAN tags of either kind need too many device "
						  "rules here: name the TPID (ETH type or VLAN "
						  "inner_type 0x8100 or 0x88a8)");
		for (i = 0; i < n; i++) {
			spec->sub[n + i] = spec->sub[i];
			spec->sub[n + i].svlan |= (uint8_t)bit;
		}
		spec->nb_sub = (uint8_t)(2 * n);
	}
	return 0;
}

enum mlx5dm_fte_field
mlx5dm_flow_vlan_tag_field(bool inner, bool second, bool svlan)
{
	static const enum mlx5dm_fte_field f[2][2][2] = {
		/* [inner][second][svlan] */
		{ { MLX5DM_FTE(outer, cvlan_tag), MLX5DM_FTE(outer, svlan_tag) },
		  { MLX5DM_FTE(misc, outer_second_cvlan_tag),
		    MLX5DM_FTE(misc, outer_second_svlan_tag) } },
		{ { MLX5DM_FTE(inner, cvlan_tag), MLX5DM_FTE(inner, svlan_tag) },
		  { MLX5DM_FTE(misc, inner_second_cvlan_tag),
		    MLX5DM_FTE(misc, inner_second_svlan_tag) } },
	};

	return f[inner][second][svlan];
}

void
mlx5dm_flow_sub_match(const struct mlx5dm_flow_spec *spec, unsigned int i, uint8_t *mask,
		      uint8_t *value, uint8_t *criteria)
{
	const struct mlx5dm_flow_sub *s = &spec->sub[i];
	unsigned int t;

	memcpy(mask, spec->mask, MLX5DM_MATCH_PARAM_SIZE);
	memcpy(value, spec->value, MLX5DM_MATCH_PARAM_SIZE);
	/* The S-tag kind of each tag (MLX5DM_FLOW_TAG_BIT()): both bits are in the mask. */
	for (t = 0; t < 4; t++) {
		if (!(s->svlan & (1u << t)))
			continue;
		mlx5dm_fte_set(value, mlx5dm_flow_vlan_tag_field(t / 2, t % 2, false), 0);
		mlx5dm_fte_set(value, mlx5dm_flow_vlan_tag_field(t / 2, t % 2, true), 1);
	}
	if (s->ipv != 0) {
		enum mlx5dm_fte_field f = MLX5DM_FLOW_IO(s->inner, ip_version);

		mlx5dm_fte_set(mask, f, s->ipv); /* mask = version: SW steering convention */
		mlx5dm_fte_set(value, f, s->ipv);
	}
	if (s->proto != 0) {
		enum mlx5dm_fte_field f = MLX5DM_FLOW_IO(s->inner, ip_protocol);

		mlx5dm_fte_set(mask, f, 0xff);
		mlx5dm_fte_set(value, f, s->proto);
	}
	*criteria = mlx5dm_flow_match_criteria(mask);
}
