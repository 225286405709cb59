/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Packet parser of the device model: finds the outer and inner header
 * stacks (Ethernet, up to two VLANs, MPLS, IPv4 with options and
 * fragments, IPv6 with extension headers, TCP/UDP/ICMP, VXLAN, GRE and
 * MPLS-over-UDP tunnels) and derives what the lookups and the ptype need.
 *
 * VLAN tags of TPID 0x8100 (C-tag) and 0x88a8 (S-tag), in any order, are
 * reported with their kind (the first/second VLAN qualifiers). An IP
 * fragment, the first one included, ends the stack at its IP header: a
 * ConnectX parses no header behind it (DPDK doc/guides/nics/mlx5.rst,
 * Limitations), so its L4 fields read as absent and it carries no tunnel.
 *
 * Every read is bounds-checked against the frame: an outer header that
 * claims to extend past its IP datagram or the frame (or to be shorter
 * than its minimum) is a parse error; inside a tunnel payload the same only
 * ends the inner stack. An IP datagram longer than the frame is not L3-OK
 * and parses as far as the frame goes; there, as past the parser's window
 * (MLX5DM_SIM_HDR_MAX), parsing ends quietly, as a hardware parser's depth
 * limit would.
 */

#include <errno.h>
#include <string.h>

#include "mlx5dm_dev.h"
#include "mlx5dm_prm_bits.h"
#include "mlx5dm_sim_engine_priv.h"

#define MLX5DM_SIM_ETH_P_IPV4 0x0800
#define MLX5DM_SIM_ETH_P_IPV6 0x86dd
#define MLX5DM_SIM_ETH_P_CVLAN 0x8100
#define MLX5DM_SIM_ETH_P_SVLAN 0x88a8
#define MLX5DM_SIM_ETH_P_MPLS_MC 0x8848
#define MLX5DM_SIM_ETH_P_TEB 0x6558 /* transparent Ethernet bridging (GRE) */
#define MLX5DM_SIM_VXLAN_PORT 4789
#define MLX5DM_SIM_IPV6_EXT_MAX 8   /* extension headers followed before giving up */

enum {
	MLX5DM_SIM_PARSE_OK = 0,
	MLX5DM_SIM_PARSE_STOP = 1, /* next header beyond the window: stop, no error */
};

/* Where a header stack starts. */
enum mlx5dm_sim_stack_start {
	MLX5DM_SIM_START_ETH,
	MLX5DM_SIM_START_IPV4,
	MLX5DM_SIM_START_IPV6,
	MLX5DM_SIM_START_MPLS,
};

struct mlx5dm_sim_parser {
	const uint8_t *f;
	unsigned int len; /* frame length */
	unsigned int win; /* parse window: min(len, MLX5DM_SIM_HDR_MAX) */
	struct mlx5dm_sim_parse *p;
};

/* Can [off, off + n) be read below end? OK, STOP (beyond the window) or -EINVAL. */
static int
mlx5dm_sim_parse_need(const struct mlx5dm_sim_parser *ps, unsigned int off, unsigned int n,
		      unsigned int end)
{
	if (off + n > end)
		return -EINVAL;
	if (off + n > ps->win)
		return MLX5DM_SIM_PARSE_STOP;
	return MLX5DM_SIM_PARSE_OK;
}

static uint16_t
mlx5dm_sim_be16(const uint8_t *b)
{
	return (uint16_t)((b[0] << 8) | b[1]);
}

static void
mlx5dm_sim_hdrs_init(struct mlx5dm_sim_hdrs *h)
{
	memset(h, 0, sizeof(*h));
	h->l2 = MLX5DM_SIM_NOHDR;
	h->vlan[0] = MLX5DM_SIM_NOHDR;
	h->vlan[1] = MLX5DM_SIM_NOHDR;
	h->mpls = MLX5DM_SIM_NOHDR;
	h->l3 = MLX5DM_SIM_NOHDR;
	h->l4 = MLX5DM_SIM_NOHDR;
}

static int
mlx5dm_sim_parse_l4(struct mlx5dm_sim_parser *ps, struct mlx5dm_sim_hdrs *h, unsigned int off,
		    unsigned int end)
{
	const uint8_t *b = ps->f + off;
	int rc;

	switch (h->proto) {
	case 6: /* TCP: data offset >= 5 words, whole header present */
		rc = mlx5dm_sim_parse_need(ps, off, 20, end);
		if (rc != MLX5DM_SIM_PARSE_OK)
			return rc;
		if ((b[12] >> 4) < 5)
			return -EINVAL;
		rc = mlx5dm_sim_parse_need(ps, off, (b[12] >> 4) * 4u, end);
		if (rc != MLX5DM_SIM_PARSE_OK)
			return rc;
		h->l4_type = MLX5DM_SIM_L4_TCP;
		break;
	case 17:
		rc = mlx5dm_sim_parse_need(ps, off, 8, end);
		if (rc != MLX5DM_SIM_PARSE_OK)
			return rc;
		h->l4_type = MLX5DM_SIM_L4_UDP;
		break;
	case 1:  /* ICMP */
	case 58: /* ICMPv6 */
		if ((h->proto == 1) != (h->l3_type == MLX5DM_SIM_L3_IPV4))
			return MLX5DM_SIM_PARSE_OK; /* ICMP in IPv6 / ICMPv6 in IPv4: payload */
		rc = mlx5dm_sim_parse_need(ps, off, 8, end);
		if (rc != MLX5DM_SIM_PARSE_OK)
			return rc;
		h->l4_type = MLX5DM_SIM_L4_ICMP;
		break;
	default:
		return MLX5DM_SIM_PARSE_OK;
	}
	h->l4 = (uint16_t)off;
	h->l4_ok = 1;
	return MLX5DM_SIM_PARSE_OK;
}

/* IPv4: sets *next to the L4 offset and *end to the end of the datagram. */
static int
mlx5dm_sim_parse_ipv4(struct mlx5dm_sim_parser *ps, struct mlx5dm_sim_hdrs *h, unsigned int off,
		      unsigned int *end)
{
	const uint8_t *b = ps->f + off;
	unsigned int hlen, tot;
	uint16_t frag;
	int rc;

	rc = mlx5dm_sim_parse_need(ps, off, 20, *end);
	if (rc != MLX5DM_SIM_PARSE_OK)
		return rc;
	hlen = (b[0] & 0xfu) * 4u;
	tot = mlx5dm_sim_be16(b + 2);
	if ((b[0] >> 4) != 4 || hlen < 20 || tot < hlen)
		return -EINVAL;
	rc = mlx5dm_sim_parse_need(ps, off, hlen, *end);
	if (rc != MLX5DM_SIM_PARSE_OK)
		return rc;
	h->l3 = (uint16_t)off;
	h->l3_len = (uint16_t)hlen;
	h->l3_type = MLX5DM_SIM_L3_IPV4;
	h->l3_ext = hlen > 20;
	h->proto = b[9];
	frag = mlx5dm_sim_be16(b + 6);
	/* Fragment: more-fragments set or a non-zero offset. */
	h->frag = (frag & 0x3fffu) != 0;
	h->first_frag = h->frag && (frag & 0x1fffu) == 0;
	/*
	 * A datagram longer than what holds it is steered all the same, not
	 * L3-OK (a ConnectX checks the length, rte_flow's integrity item
	 * l3_len_ok, and drops nothing for it): what the frame lacks of it is
	 * beyond the window, where parsing stops quietly.
	 */
	h->l3_ok = mlx5dm_sim_csum_fold(mlx5dm_sim_csum_add(0, b, hlen)) == 0 &&
		   off + tot <= *end;
	*end = off + tot;
	if (h->frag)
		return MLX5DM_SIM_PARSE_STOP; /* a fragment, even the first: no L4 header */
	return mlx5dm_sim_parse_l4(ps, h, off + hlen, *end);
}

static int
mlx5dm_sim_parse_ipv6(struct mlx5dm_sim_parser *ps, struct mlx5dm_sim_hdrs *h, unsigned int off,
		      unsigned int *end)
{
	const uint8_t *b = ps->f + off;
	unsigned int pay, cur, i;
	uint8_t nh;
	int rc;

	rc = mlx5dm_sim_parse_need(ps, off, 40, *end);
	if (rc != MLX5DM_SIM_PARSE_OK)
		return rc;
	pay = mlx5dm_sim_be16(b + 4);
	if ((b[0] >> 4) != 6)
		return -EINVAL;
	/* Too long: as IPv4. 0: a jumbogram or an unknown length, the frame bounds it. */
	h->l3_ok = off + 40 + pay <= *end;
	if (pay != 0)
		*end = off + 40 + pay;
	h->l3 = (uint16_t)off;
	h->l3_type = MLX5DM_SIM_L3_IPV6;
	nh = b[6];
	cur = off + 40;
	for (i = 0; i < MLX5DM_SIM_IPV6_EXT_MAX; i++) {
		unsigned int elen;

		if (nh != 0 && nh != 43 && nh != 44 && nh != 60)
			break; /* not hop-by-hop, routing, fragment or destination options */
		rc = mlx5dm_sim_parse_need(ps, cur, 8, *end);
		if (rc != MLX5DM_SIM_PARSE_OK)
			return rc;
		h->l3_ext = 1;
		if (nh == 44) {
			uint16_t fo = mlx5dm_sim_be16(ps->f + cur + 2);

			elen = 8;
			h->frag = 1;
			h->first_frag = (fo >> 3) == 0;
		} else {
			elen = (ps->f[cur + 1] + 1u) * 8u;
			rc = mlx5dm_sim_parse_need(ps, cur, elen, *end);
			if (rc != MLX5DM_SIM_PARSE_OK)
				return rc;
		}
		nh = ps->f[cur];
		cur += elen;
	}
	h->proto = nh;
	h->l3_len = (uint16_t)(cur - off);
	if (i == MLX5DM_SIM_IPV6_EXT_MAX || h->frag)
		return MLX5DM_SIM_PARSE_STOP;
	return mlx5dm_sim_parse_l4(ps, h, cur, *end);
}

/* An MPLS label stack; *next = first byte after the bottom of stack. */
static int
mlx5dm_sim_parse_mpls(struct mlx5dm_sim_parser *ps, struct mlx5dm_sim_hdrs *h, unsigned int off,
		      unsigned int end, unsigned int *next)
{
	int rc;

	h->mpls = (uint16_t)off;
	while (h->nb_mpls < MLX5DM_SIM_MPLS_MAX) {
		rc = mlx5dm_sim_parse_need(ps, off, 4, end);
		if (rc != MLX5DM_SIM_PARSE_OK)
			return rc;
		h->nb_mpls++;
		off += 4;
		if (ps->f[off - 2] & 0x1) { /* S: bottom of stack */
			*next = off;
			return MLX5DM_SIM_PARSE_OK;
		}
	}
	return MLX5DM_SIM_PARSE_STOP; /* deeper than the parser follows */
}

/* Ethernet and up to two VLAN tags; returns the L3 ethertype in h->ethertype. */
static int
mlx5dm_sim_parse_eth(struct mlx5dm_sim_parser *ps, struct mlx5dm_sim_hdrs *h, unsigned int off,
		     unsigned int end, unsigned int *next)
{
	uint16_t et;
	int rc;

	rc = mlx5dm_sim_parse_need(ps, off, 14, end);
	if (rc != MLX5DM_SIM_PARSE_OK)
		return rc;
	h->l2 = (uint16_t)off;
	off += 12;
	et = mlx5dm_sim_be16(ps->f + off);
	while ((et == MLX5DM_SIM_ETH_P_CVLAN || et == MLX5DM_SIM_ETH_P_SVLAN) && h->nb_vlan < 2) {
		rc = mlx5dm_sim_parse_need(ps, off, 6, end); /* tag + the next ethertype */
		if (rc != MLX5DM_SIM_PARSE_OK)
			return rc;
		h->vlan[h->nb_vlan] = (uint16_t)off;
		h->vlan_qual[h->nb_vlan] = et == MLX5DM_SIM_ETH_P_SVLAN ?
					   MLX5DM_SIM_VLAN_S : MLX5DM_SIM_VLAN_C;
		h->nb_vlan++;
		off += 4;
		et = mlx5dm_sim_be16(ps->f + off);
	}
	h->ethertype = et;
	*next = off + 2;
	return MLX5DM_SIM_PARSE_OK;
}

/* What follows an MPLS bottom of stack: IP by its version nibble, else payload. */
static enum mlx5dm_sim_stack_start
mlx5dm_sim_parse_after_mpls(const struct mlx5dm_sim_parser *ps, unsigned int off,
			    unsigned int end)
{
	if (off >= end || off >= ps->win)
		return MLX5DM_SIM_START_MPLS; /* nothing to parse */
	switch (ps->f[off] >> 4) {
	case 4:
		return MLX5DM_SIM_START_IPV4;
	case 6:
		return MLX5DM_SIM_START_IPV6;
	default:
		return MLX5DM_SIM_START_MPLS;
	}
}

/* What an ethertype (or GRE protocol type) leads to; false: nothing parsed. */
static bool
mlx5dm_sim_parse_next(uint16_t et, bool gre, enum mlx5dm_sim_stack_start *start)
{
	static const struct {
		uint16_t et;
		uint8_t start;
	} next[] = {
		{ MLX5DM_SIM_ETH_P_IPV4, MLX5DM_SIM_START_IPV4 },
		{ MLX5DM_SIM_ETH_P_IPV6, MLX5DM_SIM_START_IPV6 },
		{ MLX5DM_SIM_ETH_P_MPLS_UC, MLX5DM_SIM_START_MPLS },
		{ MLX5DM_SIM_ETH_P_MPLS_MC, MLX5DM_SIM_START_MPLS },
		{ MLX5DM_SIM_ETH_P_TEB, MLX5DM_SIM_START_ETH }, /* GRE only */
	};
	unsigned int i;

	for (i = 0; i < MLX5DM_ARRAY_SIZE(next); i++) {
		if (next[i].et == et && (gre || next[i].start != MLX5DM_SIM_START_ETH)) {
			*start = (enum mlx5dm_sim_stack_start)next[i].start;
			return true;
		}
	}
	return false;
}

/* One header stack from its first header down to L4; *end shrinks to the datagram. */
static int
mlx5dm_sim_parse_stack(struct mlx5dm_sim_parser *ps, struct mlx5dm_sim_hdrs *h,
		       enum mlx5dm_sim_stack_start start, unsigned int off, unsigned int *end)
{
	int rc;

	bool l2 = start == MLX5DM_SIM_START_ETH;

	if (l2) {
		rc = mlx5dm_sim_parse_eth(ps, h, off, *end, &off);
		if (rc != MLX5DM_SIM_PARSE_OK)
			return rc;
		if (!mlx5dm_sim_parse_next(h->ethertype, false, &start))
			return MLX5DM_SIM_PARSE_STOP;
	}
	if (start == MLX5DM_SIM_START_MPLS) {
		rc = mlx5dm_sim_parse_mpls(ps, h, off, *end, &off);
		if (rc != MLX5DM_SIM_PARSE_OK)
			return rc;
		/*
		 * Labels carried by Ethernet end the stack: what they carry is
		 * no L3 of this stack (mlx5 treats MPLS as a tunnel layer, so an
		 * `eth / ipv4` match must not see IP behind labels). Labels in
		 * GRE or UDP (port 6635) begin the inner stack, whose IP follows
		 * them.
		 */
		if (l2)
			return MLX5DM_SIM_PARSE_STOP;
		start = mlx5dm_sim_parse_after_mpls(ps, off, *end);
	}
	switch (start) {
	case MLX5DM_SIM_START_IPV4:
		return mlx5dm_sim_parse_ipv4(ps, h, off, end);
	case MLX5DM_SIM_START_IPV6:
		return mlx5dm_sim_parse_ipv6(ps, h, off, end);
	default:
		return MLX5DM_SIM_PARSE_STOP;
	}
}

/* GRE: the inner stack by protocol type (RFC 2784/2890 C, K, S bits). */
static int
mlx5dm_sim_parse_gre(struct mlx5dm_sim_parser *ps, unsigned int off, unsigned int end)
{
	struct mlx5dm_sim_parse *p = ps->p;
	enum mlx5dm_sim_stack_start start;
	uint16_t flags, proto;
	unsigned int hlen;
	int rc;

	rc = mlx5dm_sim_parse_need(ps, off, 4, end);
	if (rc != MLX5DM_SIM_PARSE_OK)
		return rc;
	flags = mlx5dm_sim_be16(ps->f + off);
	proto = mlx5dm_sim_be16(ps->f + off + 2);
	hlen = 4 + ((flags & 0xc000u) ? 4 : 0) + ((flags & 0x2000u) ? 4 : 0) +
	       ((flags & 0x1000u) ? 4 : 0);
	rc = mlx5dm_sim_parse_need(ps, off, hlen, end);
	if (rc != MLX5DM_SIM_PARSE_OK)
		return rc;
	p->tnl = MLX5DM_SIM_TNL_GRE;
	p->tnl_off = (uint16_t)off;
	p->tnl_len = (uint16_t)hlen;
	/* Version 1 (PPTP) and source routing (R) payloads are not parsed. */
	if ((flags & 0x0007u) != 0 || (flags & 0x4000u) != 0)
		return MLX5DM_SIM_PARSE_STOP;
	if (!mlx5dm_sim_parse_next(proto, true, &start))
		return MLX5DM_SIM_PARSE_STOP;
	p->mpls_in_gre = start == MLX5DM_SIM_START_MPLS;
	return mlx5dm_sim_parse_stack(ps, &p->i, start, off + hlen, &end);
}

/*
 * UDP tunnels by destination port: VXLAN (an 8-byte header, then
 * Ethernet) and MPLS over UDP (the label stack right after the UDP header,
 * then IP by its version nibble). A payload too short for the tunnel's
 * first header is no tunnel: the packet is plain UDP.
 */
static int
mlx5dm_sim_parse_udp_tunnel(struct mlx5dm_sim_parser *ps, unsigned int end)
{
	static const struct {
		uint16_t port;
		uint8_t tnl;     /* enum mlx5dm_sim_tnl */
		uint8_t hlen;    /* tunnel header before the inner stack */
		uint8_t need;    /* bytes that must follow the UDP header */
		uint8_t start;   /* enum mlx5dm_sim_stack_start */
	} udp[] = {
		{ MLX5DM_SIM_VXLAN_PORT, MLX5DM_SIM_TNL_VXLAN, 8, 8, MLX5DM_SIM_START_ETH },
		{ MLX5DM_SIM_MPLS_UDP_PORT, MLX5DM_SIM_TNL_MPLS_UDP, 0, 4, MLX5DM_SIM_START_MPLS },
	};
	struct mlx5dm_sim_parse *p = ps->p;
	unsigned int off = p->o.l4 + 8u, i;
	uint16_t dport;
	int rc;

	dport = mlx5dm_sim_be16(ps->f + p->o.l4 + 2);
	for (i = 0; i < MLX5DM_ARRAY_SIZE(udp); i++)
		if (udp[i].port == dport)
			break;
	if (i == MLX5DM_ARRAY_SIZE(udp))
		return MLX5DM_SIM_PARSE_OK;
	rc = mlx5dm_sim_parse_need(ps, off, udp[i].need, end);
	if (rc != MLX5DM_SIM_PARSE_OK)
		return rc;
	p->tnl = udp[i].tnl;
	p->tnl_off = (uint16_t)off;
	p->tnl_len = udp[i].hlen;
	return mlx5dm_sim_parse_stack(ps, &p->i, (enum mlx5dm_sim_stack_start)udp[i].start,
				      off + udp[i].hlen, &end);
}

static int
mlx5dm_sim_parse_tunnel(struct mlx5dm_sim_parser *ps, unsigned int end)
{
	const struct mlx5dm_sim_hdrs *o = &ps->p->o;

	if (o->l3_type != MLX5DM_SIM_L3_NONE && o->proto == 47 && !o->frag)
		return mlx5dm_sim_parse_gre(ps, o->l3 + o->l3_len, end);
	if (o->l4_type == MLX5DM_SIM_L4_UDP)
		return mlx5dm_sim_parse_udp_tunnel(ps, end);
	return MLX5DM_SIM_PARSE_OK;
}

/*
 * L4 packet type of a stack in the outer encoding; the inner encoding is
 * the same value shifted left by 16 (RTE_PTYPE_L4_* / RTE_PTYPE_INNER_L4_*).
 */
static uint32_t
mlx5dm_sim_parse_ptype_l4(const struct mlx5dm_sim_hdrs *h, bool nonfrag)
{
	if (h->frag)
		return MLX5DM_SIM_PTYPE_L4_FRAG;
	switch (h->l4_type) {
	case MLX5DM_SIM_L4_TCP:
		return MLX5DM_SIM_PTYPE_L4_TCP;
	case MLX5DM_SIM_L4_UDP:
		return MLX5DM_SIM_PTYPE_L4_UDP;
	case MLX5DM_SIM_L4_ICMP:
		return MLX5DM_SIM_PTYPE_L4_ICMP;
	default:
		return nonfrag && h->l3_type != MLX5DM_SIM_L3_NONE ?
		       MLX5DM_SIM_PTYPE_L4_NONFRAG : 0;
	}
}

/* DPDK-valued packet type of the parsed stacks. */
static uint32_t
mlx5dm_sim_parse_ptype(const struct mlx5dm_sim_parse *p)
{
	static const uint32_t l3[2][3] = {
		{ 0, MLX5DM_SIM_PTYPE_L3_IPV4, MLX5DM_SIM_PTYPE_L3_IPV6 },
		{ 0, MLX5DM_SIM_PTYPE_L3_IPV4_EXT, MLX5DM_SIM_PTYPE_L3_IPV6_EXT },
	};
	static const uint32_t il3[2][3] = {
		{ 0, MLX5DM_SIM_PTYPE_INNER_L3_IPV4, MLX5DM_SIM_PTYPE_INNER_L3_IPV6 },
		{ 0, MLX5DM_SIM_PTYPE_INNER_L3_IPV4_EXT, MLX5DM_SIM_PTYPE_INNER_L3_IPV6_EXT },
	};
	const struct mlx5dm_sim_hdrs *o = &p->o, *i = &p->i;
	uint32_t t = 0;

	if (o->l2 != MLX5DM_SIM_NOHDR)
		t |= o->nb_mpls ? MLX5DM_SIM_PTYPE_L2_ETHER_MPLS :
		     o->nb_vlan == 2 ? MLX5DM_SIM_PTYPE_L2_ETHER_QINQ :
		     o->nb_vlan == 1 ? MLX5DM_SIM_PTYPE_L2_ETHER_VLAN : MLX5DM_SIM_PTYPE_L2_ETHER;
	t |= l3[o->l3_ext][o->l3_type];
	/* A GRE-tunnelled IP packet has no outer L4 type. */
	t |= mlx5dm_sim_parse_ptype_l4(o, p->tnl == MLX5DM_SIM_TNL_NONE);
	if (p->tnl == MLX5DM_SIM_TNL_NONE)
		return t;
	if (p->tnl == MLX5DM_SIM_TNL_VXLAN)
		t |= MLX5DM_SIM_PTYPE_TUNNEL_VXLAN;
	else if (p->tnl == MLX5DM_SIM_TNL_MPLS_UDP)
		t |= MLX5DM_SIM_PTYPE_TUNNEL_MPLS_IN_UDP;
	else
		t |= p->mpls_in_gre ? MLX5DM_SIM_PTYPE_TUNNEL_MPLS_IN_GRE :
		     MLX5DM_SIM_PTYPE_TUNNEL_GRE;
	if (i->l2 != MLX5DM_SIM_NOHDR)
		t |= i->nb_vlan ? MLX5DM_SIM_PTYPE_INNER_L2_ETHER_VLAN :
		     MLX5DM_SIM_PTYPE_INNER_L2_ETHER;
	t |= il3[i->l3_ext][i->l3_type];
	return t | mlx5dm_sim_parse_ptype_l4(i, true) << 16;
}

int
mlx5dm_sim_parse(const uint8_t *frame, uint16_t len, struct mlx5dm_sim_parse *p)
{
	struct mlx5dm_sim_parser ps = {
		.f = frame,
		.len = len,
		.win = MLX5DM_MIN((unsigned int)len, MLX5DM_SIM_HDR_MAX),
		.p = p,
	};
	unsigned int end = len;
	int rc;

	mlx5dm_sim_hdrs_init(&p->o);
	mlx5dm_sim_hdrs_init(&p->i);
	p->tnl = MLX5DM_SIM_TNL_NONE;
	p->mpls_in_gre = 0;
	p->tnl_off = MLX5DM_SIM_NOHDR;
	p->tnl_len = 0;
	p->pkt_len = len;
	p->len = (uint16_t)ps.win;
	memcpy(p->hdr, frame, ps.win);
	rc = mlx5dm_sim_parse_stack(&ps, &p->o, MLX5DM_SIM_START_ETH, 0, &end);
	/*
	 * A tunnel payload is data to the outer headers: when it does not
	 * parse, the inner stack is simply absent (or partial), the frame is
	 * not malformed.
	 */
	if (rc == MLX5DM_SIM_PARSE_OK)
		(void)mlx5dm_sim_parse_tunnel(&ps, end);
	p->ptype = mlx5dm_sim_parse_ptype(p);
	return rc < 0 ? rc : 0;
}
