/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Encapsulation and decapsulation, as doc/guides/nics/mlx5dm.rst lists
 * them (RAW_DECAP / RAW_ENCAP as DPDK's mlx5 reads them). Lengths and
 * checksums of a built header stay zero: the device fills them in.
 */

#include <errno.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ip.h>
#include <rte_udp.h>
#include <rte_vxlan.h>

#include "mlx5dm_flow.h"

#define MLX5DM_FLOW_ENCAP_DECISION 34u /* Ethernet + IPv4: a "tunnel" header is longer */
#define MLX5DM_FLOW_IPV4_TTL 64
#define MLX5DM_FLOW_IPV6_HOPS 255

/* The definition, VOIDs skipped, as at most 5 items in the required order. */
static int
mlx5dm_flow_encap_items(const struct rte_flow_action *a, const struct rte_flow_item *def,
			const struct rte_flow_item **it, struct rte_flow_error *error)
{
	static const char *msg = "VXLAN_ENCAP definition must be ETH / [VLAN] / IPV4 or IPV6 / "
				 "UDP / VXLAN / END, each with a spec";
	unsigned int n = 0;

	for (; def != NULL && def->type != RTE_FLOW_ITEM_TYPE_END; def++) {
		if (def->type == RTE_FLOW_ITEM_TYPE_VOID)
			continue;
		if (n == 5 || def->spec == NULL)
			return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_CONF,
						  a, msg);
		it[n++] = def;
	}
	if (n == 4) {
		/* No VLAN: shift so it[i] has the same meaning either way. */
		memmove(&it[2], &it[1], 3 * sizeof(it[0]));
		it[1] = NULL;
		n = 5;
	}
	if (n != 5 || it[0]->type != RTE_FLOW_ITEM_TYPE_ETH ||
	    (it[1] != NULL && it[1]->type != RTE_FLOW_ITEM_TYPE_VLAN) ||
	    (it[2]->type != RTE_FLOW_ITEM_TYPE_IPV4 && it[2]->type != RTE_FLOW_ITEM_TYPE_IPV6) ||
	    it[3]->type != RTE_FLOW_ITEM_TYPE_UDP || it[4]->type != RTE_FLOW_ITEM_TYPE_VXLAN)
		return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_CONF, a, msg);
	return 0;
}

int
mlx5dm_flow_vxlan_encap_build(const struct rte_flow_action *a, uint8_t *buf, size_t *len,
			      struct rte_flow_error *error)
{
	const struct rte_flow_action_vxlan_encap *c = a->conf;
	const struct rte_flow_item *it[5] = { NULL };
	struct rte_ether_hdr *eth;
	struct rte_udp_hdr *udp;
	struct rte_vxlan_hdr *vx;
	rte_be16_t l3_type;
	uint8_t *p = buf;
	int ret;

	ret = mlx5dm_flow_encap_items(a, c->definition, it, error);
	if (ret < 0)
		return ret;
	l3_type = RTE_BE16(it[2]->type == RTE_FLOW_ITEM_TYPE_IPV4 ? RTE_ETHER_TYPE_IPV4 :
			   RTE_ETHER_TYPE_IPV6);
	RTE_BUILD_BUG_ON(sizeof(struct rte_ether_hdr) + sizeof(struct rte_vlan_hdr) +
			 sizeof(struct rte_ipv6_hdr) + sizeof(struct rte_udp_hdr) +
			 sizeof(struct rte_vxlan_hdr) > MLX5DM_FLOW_MAX_ENCAP);
	eth = (struct rte_ether_hdr *)p;
	memcpy(eth, &((const struct rte_flow_item_eth *)it[0]->spec)->hdr, sizeof(*eth));
	p += sizeof(*eth);
	if (eth->ether_type == 0)
		eth->ether_type = it[1] != NULL ? RTE_BE16(RTE_ETHER_TYPE_VLAN) : l3_type;
	if (it[1] != NULL) {
		struct rte_vlan_hdr *vlan = (struct rte_vlan_hdr *)p;

		memcpy(vlan, &((const struct rte_flow_item_vlan *)it[1]->spec)->hdr, sizeof(*vlan));
		if (vlan->eth_proto == 0)
			vlan->eth_proto = l3_type;
		p += sizeof(*vlan);
	}
	if (it[2]->type == RTE_FLOW_ITEM_TYPE_IPV4) {
		struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)p;

		memcpy(ip, &((const struct rte_flow_item_ipv4 *)it[2]->spec)->hdr, sizeof(*ip));
		if (ip->version_ihl == 0)
			ip->version_ihl = RTE_IPV4_VHL_DEF;
		if (ip->time_to_live == 0)
			ip->time_to_live = MLX5DM_FLOW_IPV4_TTL;
		if (ip->next_proto_id == 0)
			ip->next_proto_id = IPPROTO_UDP;
		p += sizeof(*ip);
	} else {
		struct rte_ipv6_hdr *ip = (struct rte_ipv6_hdr *)p;

		memcpy(ip, &((const struct rte_flow_item_ipv6 *)it[2]->spec)->hdr, sizeof(*ip));
		if ((ip->vtc_flow & RTE_BE32(0xf0000000)) == 0)
			ip->vtc_flow |= RTE_BE32(0x60000000); /* version 6 */
		if (ip->proto == 0)
			ip->proto = IPPROTO_UDP;
		if (ip->hop_limits == 0)
			ip->hop_limits = MLX5DM_FLOW_IPV6_HOPS;
		p += sizeof(*ip);
	}
	udp = (struct rte_udp_hdr *)p;
	memcpy(udp, &((const struct rte_flow_item_udp *)it[3]->spec)->hdr, sizeof(*udp));
	if (udp->dst_port == 0)
		udp->dst_port = RTE_BE16(RTE_VXLAN_DEFAULT_PORT);
	p += sizeof(*udp);
	vx = (struct rte_vxlan_hdr *)p;
	memcpy(vx, &((const struct rte_flow_item_vxlan *)it[4]->spec)->hdr, sizeof(*vx));
	if (vx->vx_flags == 0)
		vx->vx_flags = RTE_BE32(0x08000000); /* I: the VNI is valid */
	p += sizeof(*vx);
	*len = (size_t)(p - buf);
	return 0;
}

static int
mlx5dm_flow_encap_data(struct mlx5dm_flow_translation *x, enum mlx5dm_reformat_type type,
		       struct rte_flow_error *error)
{
	const struct rte_flow_action_raw_encap *e = x->raw_encap;
	struct mlx5dm_flow_spec *spec = x->spec;

	if (e->size % 2 != 0 || e->size > MLX5DM_FLOW_MAX_ENCAP)
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION_CONF,
					  x->raw_encap_act, "RAW_ENCAP header must be an even "
					  "number of bytes, at most 126");
	memcpy(spec->encap_data, e->data, e->size);
	spec->encap_len = (uint16_t)e->size;
	spec->encap_type = type;
	spec->encap = true;
	return 0;
}

static int
mlx5dm_flow_reformat_ingress(struct mlx5dm_flow_translation *x, struct rte_flow_error *error)
{
	const struct rte_flow_action_raw_encap *e = x->raw_encap;
	const struct rte_flow_action_raw_decap *d = x->raw_decap;
	struct mlx5dm_flow_spec *spec = x->spec;

	if (d == NULL)
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION,
					  x->raw_encap_act, "RAW_ENCAP on ingress is only "
					  "supported after RAW_DECAP (L3 tunnel decap)");
	if (e == NULL) {
		if (!(spec->layers & MLX5DM_FLOW_L_TUNNEL))
			return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION,
						  x->raw_decap_act, "RAW_DECAP needs a tunnel "
						  "item in the pattern");
		spec->decap_type = MLX5DM_REFORMAT_L2_TUNNEL_TO_L2;
		return 0;
	}
	if (d->size <= MLX5DM_FLOW_ENCAP_DECISION || (e->size != 14 && e->size != 18))
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION_CONF,
					  x->raw_encap_act, "RAW_DECAP + RAW_ENCAP on ingress: "
					  "an L3 tunnel decap needs a tunnel header over 34 bytes "
					  "and a new L2 header of 14 or 18 bytes");
	memcpy(spec->decap_data, e->data, e->size);
	spec->decap_len = (uint16_t)e->size;
	spec->decap_type = MLX5DM_REFORMAT_L3_TUNNEL_TO_L2;
	return 0;
}

static int
mlx5dm_flow_reformat_egress(struct mlx5dm_flow_translation *x, struct rte_flow_error *error)
{
	const struct rte_flow_action_raw_encap *e = x->raw_encap;
	const struct rte_flow_action_raw_decap *d = x->raw_decap;

	if (e == NULL)
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION,
					  x->raw_decap_act, "RAW_DECAP on egress is only "
					  "supported before RAW_ENCAP (L2 to L3 tunnel encap)");
	if (d == NULL) {
		if (e->size < sizeof(struct rte_ether_hdr))
			return rte_flow_error_set(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_CONF,
						  x->raw_encap_act, "RAW_ENCAP header shorter "
						  "than Ethernet");
		return mlx5dm_flow_encap_data(x, MLX5DM_REFORMAT_L2_TO_L2_TUNNEL, error);
	}
	if (d->size > MLX5DM_FLOW_ENCAP_DECISION || e->size <= MLX5DM_FLOW_ENCAP_DECISION)
		return rte_flow_error_set(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION_CONF,
					  x->raw_encap_act, "RAW_DECAP + RAW_ENCAP on egress: an "
					  "L2 to L3 tunnel encap needs an L2 header of at most 34 "
					  "bytes and a tunnel header over 34 bytes");
	return mlx5dm_flow_encap_data(x, MLX5DM_REFORMAT_L2_TO_L3_TUNNEL, error);
}

int
mlx5dm_flow_translate_reformat(struct mlx5dm_flow_translation *x, struct rte_flow_error *error)
{
	if (x->raw_decap == NULL && x->raw_encap == NULL)
		return 0;
	return x->spec->egress ? mlx5dm_flow_reformat_egress(x, error) :
				 mlx5dm_flow_reformat_ingress(x, error);
}
