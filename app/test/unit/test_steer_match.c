/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Match kinds on the device model: for each kind, one matcher and several
 * rules (each tagging and steering to its own queue), frames that must hit
 * each rule, frames that must hit nothing, then deletion (a deleted rule
 * stops matching after a sync, the others keep matching). Masks the
 * library cannot match are refused with the field named.
 */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <cmocka.h>

#include "steer_test_env.h"
#include "test_util.h"

#define F(sec, name) MLX5DM_FTE(sec, name)
#define NB_RULES 6

struct mcase {
	const char *name;
	uint8_t criteria;
	void (*mask)(uint8_t *m);
	/* Value of rule i and a frame that must hit it (p starts as pkt_udp4). */
	void (*rule)(uint8_t *v, struct pkt *p, unsigned int i);
	/* Variant k of rule i's frame that must still hit rule i. */
	void (*hit)(struct pkt *p, unsigned int i, unsigned int k);
	unsigned int nb_hit;
	/* Variant k of rule i's frame that must hit no rule. */
	void (*miss)(struct pkt *p, unsigned int i, unsigned int k);
	unsigned int nb_miss;
};

/* ---- L2 ---- */

static void
m_dmac(uint8_t *m)
{
	mp_mac(m, F(outer, dmac_47_16), 0xffffffffffffull);
}

static void
r_dmac(uint8_t *v, struct pkt *p, unsigned int i)
{
	p->o.dmac = 0x0200000000a0ull + i * 0x010000000001ull;
	mp_mac(v, F(outer, dmac_47_16), p->o.dmac);
}

static void
x_dmac(struct pkt *p, unsigned int i, unsigned int k)
{
	(void)i;
	/* One bit off in the low half, then in the high half. */
	p->o.dmac ^= k == 0 ? 0x1 : 0x010000000000ull;
}

static void
h_any_l3(struct pkt *p, unsigned int i, unsigned int k)
{
	(void)i;
	/* What follows L2 does not matter to an L2 rule. */
	if (k == 0) {
		p->o.l3 = 6;
		ipv6_addr(p->o.sip6, 0xfe800000, 0, 0, 1);
		ipv6_addr(p->o.dip6, 0xfe800000, 0, 0, 2);
	} else {
		pkt_tcp(&p->o);
	}
}

static void
m_smac(uint8_t *m)
{
	mp_mac(m, F(outer, smac_47_16), 0xffffffffffffull);
}

static void
r_smac(uint8_t *v, struct pkt *p, unsigned int i)
{
	p->o.smac = 0x0a0000000010ull + i;
	mp_mac(v, F(outer, smac_47_16), p->o.smac);
}

static void
x_smac(struct pkt *p, unsigned int i, unsigned int k)
{
	(void)i;
	if (k == 0)
		p->o.smac += 0x100;
	else
		p->o.dmac = p->o.smac; /* the address on the other side does not count */
	if (k == 1)
		p->o.smac = 0x0a00000000ffull;
}

static void
m_smac_dmac(uint8_t *m)
{
	m_smac(m);
	m_dmac(m);
}

static void
r_smac_dmac(uint8_t *v, struct pkt *p, unsigned int i)
{
	r_smac(v, p, i);
	r_dmac(v, p, i);
}

static void
x_smac_dmac(struct pkt *p, unsigned int i, unsigned int k)
{
	/* Right source with another rule's destination, and the reverse. */
	if (k == 0)
		p->o.dmac = 0x0200000000a0ull + ((i + 1) % NB_RULES) * 0x010000000001ull;
	else if (k == 1)
		p->o.smac = 0x0a0000000010ull + (i + 1) % NB_RULES;
	else
		p->o.smac ^= 0x800000000000ull;
}

static const uint16_t ethertypes[NB_RULES] = {
	0x0800, 0x86dd, 0x0806, 0x88cc, 0x88f7, 0x8906,
};

static void
m_ethertype(uint8_t *m)
{
	mp_set(m, F(outer, ethertype), 0xffff);
}

static void
r_ethertype(uint8_t *v, struct pkt *p, unsigned int i)
{
	mp_set(v, F(outer, ethertype), ethertypes[i]);
	if (ethertypes[i] == 0x86dd) {
		pkt_udp6(p);
	} else if (ethertypes[i] != 0x0800) {
		p->o.l3 = 0;
		p->o.ethertype = ethertypes[i];
		p->payload = 46;
	}
}

static void
h_ethertype_vlan(struct pkt *p, unsigned int i, unsigned int k)
{
	(void)k;
	(void)i;
	/* The L3 ethertype is the one after the VLAN tag. */
	p->o.nb_vlan = 1;
	p->o.vlan_tci[0] = 7;
}

static void
x_ethertype(struct pkt *p, unsigned int i, unsigned int k)
{
	(void)i;
	(void)k;
	p->o.l3 = 0;
	p->o.ethertype = 0x9000;
	p->payload = 46;
}

/* First VLAN: C-tag with id and priority. */
static void
m_vlan1(uint8_t *m)
{
	mp_set(m, F(outer, cvlan_tag), 1);
	mp_set(m, F(outer, first_vid), 0xfff);
	mp_set(m, F(outer, first_prio), 7);
}

static void
r_vlan1(uint8_t *v, struct pkt *p, unsigned int i)
{
	mp_set(v, F(outer, cvlan_tag), 1);
	mp_set(v, F(outer, first_vid), 100 + i);
	mp_set(v, F(outer, first_prio), i % 8);
	p->o.nb_vlan = 1;
	p->o.vlan_tpid[0] = 0x8100;
	p->o.vlan_tci[0] = (uint16_t)((i % 8) << 13 | (100 + i));
}

static void
h_vlan1(struct pkt *p, unsigned int i, unsigned int k)
{
	(void)i;
	if (k == 0)
		p->o.vlan_tci[0] |= 1u << 12; /* CFI/DEI is not in the mask */
	else
		p->o.dmac = 0x0affffffffffull; /* nor are the MACs */
}

static void
x_vlan1(struct pkt *p, unsigned int i, unsigned int k)
{
	switch (k) {
	case 0: /* another id */
		p->o.vlan_tci[0] = (uint16_t)((i % 8) << 13 | (100 + i + 50));
		break;
	case 1: /* another priority */
		p->o.vlan_tci[0] ^= 1u << 13;
		break;
	case 2: /* untagged */
		p->o.nb_vlan = 0;
		break;
	default: /* same TCI in an S-tag: the qualifier differs */
		p->o.vlan_tpid[0] = 0x88a8;
		break;
	}
}

/* QinQ: S-tag id in the first VLAN, C-tag id in the second (misc). */
static void
m_vlan2(uint8_t *m)
{
	mp_set(m, F(outer, svlan_tag), 1);
	mp_set(m, F(outer, first_vid), 0xfff);
	mp_set(m, F(misc, outer_second_cvlan_tag), 1);
	mp_set(m, F(misc, outer_second_vid), 0xfff);
}

static void
r_vlan2(uint8_t *v, struct pkt *p, unsigned int i)
{
	mp_set(v, F(outer, svlan_tag), 1);
	mp_set(v, F(outer, first_vid), 10 + i);
	mp_set(v, F(misc, outer_second_cvlan_tag), 1);
	mp_set(v, F(misc, outer_second_vid), 2000 + i);
	p->o.nb_vlan = 2;
	p->o.vlan_tpid[0] = 0x88a8;
	p->o.vlan_tci[0] = (uint16_t)(10 + i);
	p->o.vlan_tpid[1] = 0x8100;
	p->o.vlan_tci[1] = (uint16_t)(2000 + i);
}

static void
x_vlan2(struct pkt *p, unsigned int i, unsigned int k)
{
	switch (k) {
	case 0: /* wrong inner id */
		p->o.vlan_tci[1] = (uint16_t)(2000 + (i + 1) % NB_RULES);
		break;
	case 1: /* only the S-tag */
		p->o.nb_vlan = 1;
		break;
	case 2: /* second tag is an S-tag too */
		p->o.vlan_tpid[1] = 0x88a8;
		break;
	default: /* ids swapped between the tags */
		p->o.vlan_tci[0] = (uint16_t)(2000 + i);
		p->o.vlan_tci[1] = (uint16_t)(10 + i);
		break;
	}
}

/* ---- IPv4 ---- */

static void
m_ip4_addr_proto(uint8_t *m)
{
	mp_set(m, F(outer, ip_version), 4);
	mp_set(m, F(outer, src_ip_31_0), 0xffffffff);
	mp_set(m, F(outer, dst_ip_31_0), 0xffffffff);
	mp_set(m, F(outer, ip_protocol), 0xff);
}

static void
r_ip4_addr_proto(uint8_t *v, struct pkt *p, unsigned int i)
{
	p->o.sip = 0x0a010000 + i;
	p->o.dip = 0x0a020000 + i * 0x100;
	if (i % 2)
		pkt_tcp(&p->o);
	mp_set(v, F(outer, ip_version), 4);
	mp_set(v, F(outer, src_ip_31_0), p->o.sip);
	mp_set(v, F(outer, dst_ip_31_0), p->o.dip);
	mp_set(v, F(outer, ip_protocol), p->o.proto);
}

static void
x_ip4_addr_proto(struct pkt *p, unsigned int i, unsigned int k)
{
	(void)i;
	switch (k) {
	case 0:
		p->o.sip ^= 0x80000000;
		break;
	case 1:
		p->o.dip += 1;
		break;
	case 2: /* the other L4 protocol */
		p->o.proto = p->o.proto == 6 ? 17 : 6;
		break;
	case 3: /* addresses swapped */
		p->o.sip ^= p->o.dip;
		p->o.dip ^= p->o.sip;
		p->o.sip ^= p->o.dip;
		break;
	default: /* not IPv4 */
		pkt_udp6(p);
		break;
	}
}

static void
m_ip4_ttl(uint8_t *m)
{
	mp_set(m, F(outer, ip_version), 4);
	mp_set(m, F(outer, ip_ttl_hoplimit), 0xff);
}

static void
r_ip4_ttl(uint8_t *v, struct pkt *p, unsigned int i)
{
	p->o.ttl = (uint8_t)(1 + 40 * i);
	mp_set(v, F(outer, ip_version), 4);
	mp_set(v, F(outer, ip_ttl_hoplimit), p->o.ttl);
}

static void
h_ip4_any_addr(struct pkt *p, unsigned int i, unsigned int k)
{
	(void)i;
	p->o.sip = 0xc0000201 + k;
	p->o.dip = 0xc6336401 + k;
}

static void
x_ip4_ttl(struct pkt *p, unsigned int i, unsigned int k)
{
	(void)i;
	if (k == 0) {
		p->o.ttl = 255;
	} else {
		/* Same hop limit in IPv6: the matcher is IPv4 only. */
		uint8_t ttl = p->o.ttl;

		pkt_udp6(p);
		p->o.ttl = ttl;
	}
}

static void
m_ip4_dscp(uint8_t *m)
{
	mp_set(m, F(outer, ip_version), 4);
	mp_set(m, F(outer, ip_dscp), 0x3f);
}

static void
r_ip4_dscp(uint8_t *v, struct pkt *p, unsigned int i)
{
	p->o.tos = (uint8_t)((8 * i + 2) << 2);
	mp_set(v, F(outer, ip_version), 4);
	mp_set(v, F(outer, ip_dscp), 8 * i + 2);
}

static void
h_ecn(struct pkt *p, unsigned int i, unsigned int k)
{
	(void)i;
	p->o.tos |= (uint8_t)(k + 1); /* ECN is not in the mask */
}

static void
x_ip4_dscp(struct pkt *p, unsigned int i, unsigned int k)
{
	(void)i;
	p->o.tos = k == 0 ? 0 : (uint8_t)(p->o.tos ^ 0x04);
}

/* ---- L4 over IPv4 ---- */

static void
m_tcp_ports(uint8_t *m)
{
	mp_set(m, F(outer, ip_version), 4);
	mp_set(m, F(outer, ip_protocol), 0xff);
	mp_set(m, F(outer, tcp_sport), 0xffff);
	mp_set(m, F(outer, tcp_dport), 0xffff);
}

static void
r_tcp_ports(uint8_t *v, struct pkt *p, unsigned int i)
{
	pkt_tcp(&p->o);
	p->o.sport = (uint16_t)(40000 + i);
	p->o.dport = (uint16_t)(80 + i * 1000);
	mp_set(v, F(outer, ip_version), 4);
	mp_set(v, F(outer, ip_protocol), 6);
	mp_set(v, F(outer, tcp_sport), p->o.sport);
	mp_set(v, F(outer, tcp_dport), p->o.dport);
}

static void
x_l4_ports(struct pkt *p, unsigned int i, unsigned int k)
{
	uint16_t t;

	(void)i;
	switch (k) {
	case 0: /* swapped */
		t = p->o.sport;
		p->o.sport = p->o.dport;
		p->o.dport = t;
		break;
	case 1:
		p->o.dport ^= 0x8000;
		break;
	case 2:
		p->o.sport ^= 0x0001;
		break;
	default: /* same ports over the other protocol */
		p->o.proto = p->o.proto == 6 ? 17 : 6;
		break;
	}
}

static void
m_udp_ports(uint8_t *m)
{
	mp_set(m, F(outer, ip_version), 4);
	mp_set(m, F(outer, ip_protocol), 0xff);
	mp_set(m, F(outer, udp_sport), 0xffff);
	mp_set(m, F(outer, udp_dport), 0xffff);
}

static void
r_udp_ports(uint8_t *v, struct pkt *p, unsigned int i)
{
	p->o.sport = (uint16_t)(5353 + i);
	p->o.dport = (uint16_t)(53 + i * 7);
	mp_set(v, F(outer, ip_version), 4);
	mp_set(v, F(outer, ip_protocol), 17);
	mp_set(v, F(outer, udp_sport), p->o.sport);
	mp_set(v, F(outer, udp_dport), p->o.dport);
}

static const uint16_t tcp_flag_sets[NB_RULES] = {
	0x002, 0x012, 0x011, 0x004, 0x018, 0x110,
};

static void
m_tcp_flags(uint8_t *m)
{
	mp_set(m, F(outer, ip_version), 4);
	mp_set(m, F(outer, ip_protocol), 0xff);
	mp_set(m, F(outer, tcp_flags), 0x1ff);
}

static void
r_tcp_flags(uint8_t *v, struct pkt *p, unsigned int i)
{
	pkt_tcp(&p->o);
	p->o.tcp_flags = tcp_flag_sets[i];
	mp_set(v, F(outer, ip_version), 4);
	mp_set(v, F(outer, ip_protocol), 6);
	mp_set(v, F(outer, tcp_flags), tcp_flag_sets[i]);
}

static void
x_tcp_flags(struct pkt *p, unsigned int i, unsigned int k)
{
	(void)i;
	p->o.tcp_flags = k == 0 ? 0x010 : (uint16_t)(p->o.tcp_flags | 0x020); /* ACK; +URG */
}

/* ---- IPv6 ---- */

static void
m_ip6_full(uint8_t *m)
{
	static const uint8_t ones[16] = {
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	};

	mp_set(m, F(outer, ip_version), 6);
	mp_ip6(m, F(outer, src_ip_127_96), ones);
	mp_ip6(m, F(outer, dst_ip_127_96), ones);
}

static void
r_ip6_full(uint8_t *v, struct pkt *p, unsigned int i)
{
	pkt_udp6(p);
	ipv6_addr(p->o.sip6, 0x20010db8, 0, 0, 0x10 + i);
	ipv6_addr(p->o.dip6, 0x20010db8, 1, 0x12345678, 0x20 + i);
	mp_set(v, F(outer, ip_version), 6);
	mp_ip6(v, F(outer, src_ip_127_96), p->o.sip6);
	mp_ip6(v, F(outer, dst_ip_127_96), p->o.dip6);
}

static void
x_ip6_full(struct pkt *p, unsigned int i, unsigned int k)
{
	(void)i;
	switch (k) {
	case 0:
		p->o.sip6[15] ^= 1;
		break;
	case 1:
		p->o.dip6[0] ^= 0x80;
		break;
	case 2:
		p->o.dip6[8] ^= 0x01;
		break;
	default: /* the IPv4 frame of the same flow */
		pkt_udp4(p);
		break;
	}
}

static void
m_ip6_prefix(uint8_t *m)
{
	mp_set(m, F(outer, ip_version), 6);
	/* Source /64, destination /48. */
	mp_set(m, F(outer, src_ip_127_96), 0xffffffff);
	mp_set(m, F(outer, src_ip_95_64), 0xffffffff);
	mp_set(m, F(outer, dst_ip_127_96), 0xffffffff);
	mp_set(m, F(outer, dst_ip_95_64), 0xffff0000);
}

static void
r_ip6_prefix(uint8_t *v, struct pkt *p, unsigned int i)
{
	pkt_udp6(p);
	ipv6_addr(p->o.sip6, 0x20010db8, i, 0x1111, 0x2222);
	ipv6_addr(p->o.dip6, 0x20010db8, (0x100 + i) << 16 | 0x77, 0, 1);
	mp_set(v, F(outer, ip_version), 6);
	mp_set(v, F(outer, src_ip_127_96), 0x20010db8);
	mp_set(v, F(outer, src_ip_95_64), i);
	mp_set(v, F(outer, dst_ip_127_96), 0x20010db8);
	mp_set(v, F(outer, dst_ip_95_64), (0x100 + i) << 16);
}

static void
h_ip6_prefix(struct pkt *p, unsigned int i, unsigned int k)
{
	/* Other hosts of both prefixes. */
	ipv6_addr(p->o.sip6, 0x20010db8, i, 0xffffffff - k, 0x12345678 * (k + 1));
	ipv6_addr(p->o.dip6, 0x20010db8, (0x100 + i) << 16 | (0xffff - k), k, 0xabcdef);
}

static void
x_ip6_prefix(struct pkt *p, unsigned int i, unsigned int k)
{
	if (k == 0)
		p->o.dip6[5] ^= 0x01; /* last bit of the /48 */
	else if (k == 1)
		p->o.sip6[7] ^= 0x01; /* last bit of the /64 */
	else
		ipv6_addr(p->o.sip6, 0x20010db9, i, 0x1111, 0x2222);
}

static void
m_ip6_l4(uint8_t *m)
{
	mp_set(m, F(outer, ip_version), 6);
	mp_set(m, F(outer, ip_protocol), 0xff);
	mp_set(m, F(outer, tcp_dport), 0xffff);
	mp_set(m, F(outer, tcp_sport), 0xffff);
	mp_set(m, F(outer, udp_dport), 0xffff);
	mp_set(m, F(outer, udp_sport), 0xffff);
}

static void
r_ip6_l4(uint8_t *v, struct pkt *p, unsigned int i)
{
	pkt_udp6(p);
	p->o.sport = (uint16_t)(33000 + i);
	p->o.dport = (uint16_t)(443 + i);
	mp_set(v, F(outer, ip_version), 6);
	if (i % 2) {
		pkt_tcp(&p->o);
		mp_set(v, F(outer, tcp_sport), p->o.sport);
		mp_set(v, F(outer, tcp_dport), p->o.dport);
	} else {
		mp_set(v, F(outer, udp_sport), p->o.sport);
		mp_set(v, F(outer, udp_dport), p->o.dport);
	}
	mp_set(v, F(outer, ip_protocol), p->o.proto);
}

static void
x_ip6_l4(struct pkt *p, unsigned int i, unsigned int k)
{
	if (k < 4) {
		x_l4_ports(p, i, k);
		return;
	}
	/* The IPv4 frame with the same ports. */
	p->o.l3 = 4;
}

static void
m_ip6_hop_dscp(uint8_t *m)
{
	mp_set(m, F(outer, ip_version), 6);
	mp_set(m, F(outer, ip_ttl_hoplimit), 0xff);
	mp_set(m, F(outer, ip_dscp), 0x3f);
}

static void
r_ip6_hop_dscp(uint8_t *v, struct pkt *p, unsigned int i)
{
	pkt_udp6(p);
	p->o.ttl = (uint8_t)(255 - i);
	p->o.tos = (uint8_t)((46 - i) << 2);
	mp_set(v, F(outer, ip_version), 6);
	mp_set(v, F(outer, ip_ttl_hoplimit), p->o.ttl);
	mp_set(v, F(outer, ip_dscp), 46 - i);
}

static void
x_ip6_hop_dscp(struct pkt *p, unsigned int i, unsigned int k)
{
	(void)i;
	if (k == 0)
		p->o.ttl = 1;
	else
		p->o.tos = 0;
}

/* ---- tunnels ---- */

static void
m_vxlan_l2(uint8_t *m)
{
	mp_set(m, F(misc, vxlan_vni), 0xffffff);
	mp_mac(m, F(inner, dmac_47_16), 0xffffffffffffull);
}

static void
r_vxlan_l2(uint8_t *v, struct pkt *p, unsigned int i)
{
	pkt_vxlan(p, 1000 + i * 0x10000);
	p->in.dmac = 0x0200000000b0ull + i;
	mp_set(v, F(misc, vxlan_vni), 1000 + i * 0x10000);
	mp_mac(v, F(inner, dmac_47_16), p->in.dmac);
}

static void
h_vxlan_outer(struct pkt *p, unsigned int i, unsigned int k)
{
	(void)i;
	/* Outer headers are not in the mask. */
	p->o.dmac = 0x0affffffff00ull + k;
	p->o.sip = 0x01020304 + k;
	p->o.sport = (uint16_t)(50000 + k);
}

static void
x_vxlan_l2(struct pkt *p, unsigned int i, unsigned int k)
{
	switch (k) {
	case 0: /* another rule's VNI */
		p->vni = 1000 + ((i + 1) % NB_RULES) * 0x10000;
		break;
	case 1:
		p->in.dmac ^= 0x100000000000ull;
		break;
	case 2: /* the inner MAC as the outer one, no tunnel */
		pkt_udp4(p);
		p->o.dmac = 0x0200000000b0ull + i;
		break;
	default: /* same bytes after UDP, but not to the VXLAN port: no tunnel */
		p->o.sport = 4789;
		p->tnl = TNL_NONE;
		p->payload = 60;
		break;
	}
}

static void
m_vxlan_ip4(uint8_t *m)
{
	mp_set(m, F(misc, vxlan_vni), 0xffffff);
	mp_set(m, F(inner, ip_version), 4);
	mp_set(m, F(inner, src_ip_31_0), 0xffffffff);
	mp_set(m, F(inner, dst_ip_31_0), 0xffffffff);
	mp_set(m, F(inner, ip_protocol), 0xff);
	mp_set(m, F(inner, udp_dport), 0xffff);
}

static void
r_vxlan_ip4(uint8_t *v, struct pkt *p, unsigned int i)
{
	pkt_vxlan(p, 77);
	p->in.sip = 0xc0a80100 + i;
	p->in.dip = 0xc0a80200 + i;
	p->in.dport = (uint16_t)(5000 + i);
	mp_set(v, F(misc, vxlan_vni), 77);
	mp_set(v, F(inner, ip_version), 4);
	mp_set(v, F(inner, src_ip_31_0), p->in.sip);
	mp_set(v, F(inner, dst_ip_31_0), p->in.dip);
	mp_set(v, F(inner, ip_protocol), 17);
	mp_set(v, F(inner, udp_dport), p->in.dport);
}

static void
x_vxlan_inner(struct pkt *p, unsigned int i, unsigned int k)
{
	(void)i;
	switch (k) {
	case 0:
		p->in.dport ^= 0x0100;
		break;
	case 1:
		p->in.dip ^= 0x00010000;
		break;
	case 2:
		p->vni = 78;
		break;
	default: /* inner header values in the outer header, no tunnel */
		p->tnl = TNL_NONE;
		p->o.sip = p->in.sip;
		p->o.dip = p->in.dip;
		p->o.dport = p->in.dport;
		break;
	}
}

static void
m_vxlan_ip6(uint8_t *m)
{
	static const uint8_t ones[16] = {
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	};

	mp_set(m, F(misc, vxlan_vni), 0xffffff);
	mp_set(m, F(inner, ip_version), 6);
	mp_ip6(m, F(inner, dst_ip_127_96), ones);
	mp_set(m, F(inner, ip_protocol), 0xff);
	mp_set(m, F(inner, tcp_dport), 0xffff);
}

static void
r_vxlan_ip6(uint8_t *v, struct pkt *p, unsigned int i)
{
	pkt_vxlan(p, 0xabcdef);
	p->in.l3 = 6;
	ipv6_addr(p->in.sip6, 0xfd000000, 0, 0, 1);
	ipv6_addr(p->in.dip6, 0xfd000000, 0, 0, 0x100 + i);
	pkt_tcp(&p->in);
	p->in.dport = (uint16_t)(8080 + i);
	mp_set(v, F(misc, vxlan_vni), 0xabcdef);
	mp_set(v, F(inner, ip_version), 6);
	mp_ip6(v, F(inner, dst_ip_127_96), p->in.dip6);
	mp_set(v, F(inner, ip_protocol), 6);
	mp_set(v, F(inner, tcp_dport), p->in.dport);
}

static void
x_vxlan_ip6(struct pkt *p, unsigned int i, unsigned int k)
{
	(void)i;
	switch (k) {
	case 0:
		p->in.dip6[12] ^= 0x40;
		break;
	case 1:
		p->in.dport++;
		break;
	case 2: /* UDP with the same port */
		p->in.proto = 17;
		break;
	default: /* inner IPv4 */
		p->in.l3 = 4;
		break;
	}
}

static void
m_gre(uint8_t *m)
{
	mp_set(m, F(misc, gre_protocol), 0xffff);
	mp_set(m, F(misc, gre_k_present), 1);
	mp_set(m, F(misc, gre_key_h), 0xffffff);
	mp_set(m, F(misc, gre_key_l), 0xff);
}

static void
r_gre(uint8_t *v, struct pkt *p, unsigned int i)
{
	uint32_t key = 0x10000001u * (i + 1);

	p->tnl = TNL_GRE;
	p->gre_key_present = true;
	p->gre_key = key;
	p->in = p->o;
	p->in.sip = 0xac100001 + i;
	p->in.dip = 0xac100101 + i;
	/* Even rules carry IPv4, odd rules Ethernet (transparent bridging). */
	p->in.no_l2 = i % 2 == 0;
	mp_set(v, F(misc, gre_protocol), i % 2 == 0 ? 0x0800 : 0x6558);
	mp_set(v, F(misc, gre_k_present), 1);
	mp_set(v, F(misc, gre_key_h), key >> 8);
	mp_set(v, F(misc, gre_key_l), key & 0xff);
}

static void
x_gre(struct pkt *p, unsigned int i, unsigned int k)
{
	(void)i;
	switch (k) {
	case 0:
		p->gre_key ^= 0x01;
		break;
	case 1:
		p->gre_key ^= 0x01000000;
		break;
	case 2: /* no key */
		p->gre_key_present = false;
		break;
	default: /* the other payload type */
		p->in.no_l2 = !p->in.no_l2;
		break;
	}
}

static void
m_mpls(uint8_t *m)
{
	mp_set(m, F(misc2, outer_first_mpls_label), 0xfffff);
}

static void
r_mpls(uint8_t *v, struct pkt *p, unsigned int i)
{
	uint32_t label = 16 + i * 0x1111;

	p->o.nb_mpls = 1;
	p->o.mpls[0] = label << 12 | 64;
	mp_set(v, F(misc2, outer_first_mpls_label), label);
}

static void
h_mpls(struct pkt *p, unsigned int i, unsigned int k)
{
	(void)i;
	if (k == 0) {
		/* EXP and TTL are not in the mask. */
		p->o.mpls[0] = (p->o.mpls[0] & ~0xfffu) | 5u << 9 | 3;
	} else {
		/* Only the top of a two-label stack counts. */
		p->o.nb_mpls = 2;
		p->o.mpls[1] = 999u << 12 | 64;
	}
}

static void
x_mpls(struct pkt *p, unsigned int i, unsigned int k)
{
	(void)i;
	if (k == 0) {
		p->o.mpls[0] ^= 1u << 12;
	} else if (k == 1) {
		p->o.nb_mpls = 0;
	} else {
		/* The label second in the stack. */
		p->o.nb_mpls = 2;
		p->o.mpls[1] = p->o.mpls[0];
		p->o.mpls[0] = 999u << 12 | 64;
	}
}

/* ---- partial masks ---- */

static void
m_ip4_dst24(uint8_t *m)
{
	mp_set(m, F(outer, ip_version), 4);
	mp_set(m, F(outer, dst_ip_31_0), 0xffffff00);
}

static void
r_ip4_dst24(uint8_t *v, struct pkt *p, unsigned int i)
{
	p->o.dip = 0x0a000000 + (i + 1) * 0x10000 + 0x0700 + 9;
	mp_set(v, F(outer, ip_version), 4);
	mp_set(v, F(outer, dst_ip_31_0), p->o.dip & 0xffffff00);
}

static void
h_ip4_dst24(struct pkt *p, unsigned int i, unsigned int k)
{
	(void)i;
	p->o.dip = (p->o.dip & 0xffffff00) | (k == 0 ? 0 : k == 1 ? 1 : 255);
}

static void
x_ip4_dst24(struct pkt *p, unsigned int i, unsigned int k)
{
	(void)i;
	p->o.dip += k == 0 ? 0x100 : 0x01000000;
}

static void
m_port_range(uint8_t *m)
{
	mp_set(m, F(outer, ip_version), 4);
	mp_set(m, F(outer, ip_protocol), 0xff);
	mp_set(m, F(outer, tcp_dport), 0xff00);
	mp_set(m, F(outer, first_vid), 0xff0);
	mp_set(m, F(outer, cvlan_tag), 1);
}

static void
r_port_range(uint8_t *v, struct pkt *p, unsigned int i)
{
	pkt_tcp(&p->o);
	p->o.dport = (uint16_t)((0x10 + i) << 8 | 0x42);
	p->o.nb_vlan = 1;
	p->o.vlan_tci[0] = (uint16_t)((0x20 + i) << 4 | 0x3);
	mp_set(v, F(outer, ip_version), 4);
	mp_set(v, F(outer, ip_protocol), 6);
	mp_set(v, F(outer, tcp_dport), (0x10 + i) << 8);
	mp_set(v, F(outer, first_vid), (0x20 + i) << 4);
	mp_set(v, F(outer, cvlan_tag), 1);
}

static void
h_port_range(struct pkt *p, unsigned int i, unsigned int k)
{
	(void)i;
	p->o.dport = (uint16_t)((p->o.dport & 0xff00) | (k ? 0xff : 0x00));
	p->o.vlan_tci[0] = (uint16_t)((p->o.vlan_tci[0] & 0xff0) | (k ? 0xf : 0) | 0xe000);
}

static void
x_port_range(struct pkt *p, unsigned int i, unsigned int k)
{
	(void)i;
	if (k == 0)
		p->o.dport ^= 0x4000;
	else
		p->o.vlan_tci[0] ^= 0x100;
}

/* ---- more fields ---- */

static void
m_ip4_frag(uint8_t *m)
{
	mp_set(m, F(outer, ip_version), 4);
	mp_set(m, F(outer, frag), 1);
	mp_set(m, F(outer, dst_ip_31_0), 0xffffffff);
}

static void
r_ip4_frag(uint8_t *v, struct pkt *p, unsigned int i)
{
	p->o.dip = 0x0a0b0000 + i;
	p->o.frag_off = i % 2 ? 0x2000 : 0;
	mp_set(v, F(outer, ip_version), 4);
	mp_set(v, F(outer, frag), i % 2);
	mp_set(v, F(outer, dst_ip_31_0), p->o.dip);
}

static void
h_ip4_frag(struct pkt *p, unsigned int i, unsigned int k)
{
	(void)k;
	/* A later fragment is a fragment too; DF alone is not one. */
	p->o.frag_off = i % 2 ? 0x00b9 : 0x4000;
}

static void
x_ip4_frag(struct pkt *p, unsigned int i, unsigned int k)
{
	(void)k;
	p->o.frag_off = i % 2 ? 0 : 0x2000;
}

static void
m_tcp_seq_ack(uint8_t *m)
{
	mp_set(m, F(misc3, outer_tcp_seq_num), 0xffffffff);
	mp_set(m, F(misc3, outer_tcp_ack_num), 0xffffffff);
}

static void
r_tcp_seq_ack(uint8_t *v, struct pkt *p, unsigned int i)
{
	pkt_tcp(&p->o);
	p->o.seq = 0x01000001u * (i + 1);
	p->o.ack = 0xfedc0000u + i;
	mp_set(v, F(misc3, outer_tcp_seq_num), p->o.seq);
	mp_set(v, F(misc3, outer_tcp_ack_num), p->o.ack);
}

static void
x_tcp_seq_ack(struct pkt *p, unsigned int i, unsigned int k)
{
	(void)i;
	if (k == 0)
		p->o.seq++;
	else if (k == 1)
		p->o.ack ^= 0x80000000;
	else
		p->o.proto = 17;
}

static void
m_ip6_flow_label(uint8_t *m)
{
	mp_set(m, F(outer, ip_version), 6);
	mp_set(m, F(misc, outer_ipv6_flow_label), 0xfffff);
}

static void
r_ip6_flow_label(uint8_t *v, struct pkt *p, unsigned int i)
{
	pkt_udp6(p);
	p->o.flow_label = 0x10000 + i * 0x3333;
	mp_set(v, F(outer, ip_version), 6);
	mp_set(v, F(misc, outer_ipv6_flow_label), p->o.flow_label);
}

static void
x_ip6_flow_label(struct pkt *p, unsigned int i, unsigned int k)
{
	(void)i;
	(void)k;
	p->o.flow_label ^= 0x80000;
}

static void
m_dscp_ecn(uint8_t *m)
{
	mp_set(m, F(outer, ip_version), 4);
	mp_set(m, F(outer, ip_dscp), 0x3f);
	mp_set(m, F(outer, ip_ecn), 3);
}

static void
r_dscp_ecn(uint8_t *v, struct pkt *p, unsigned int i)
{
	p->o.tos = (uint8_t)((10 + i) << 2 | (i % 4));
	mp_set(v, F(outer, ip_version), 4);
	mp_set(v, F(outer, ip_dscp), 10 + i);
	mp_set(v, F(outer, ip_ecn), i % 4);
}

static void
x_dscp_ecn(struct pkt *p, unsigned int i, unsigned int k)
{
	(void)i;
	(void)k;
	p->o.tos ^= 1;
}

static void
m_vxlan_smac_vlan(uint8_t *m)
{
	mp_set(m, F(misc, vxlan_vni), 0xffffff);
	mp_mac(m, F(inner, smac_47_16), 0xffffffffffffull);
	mp_set(m, F(inner, cvlan_tag), 1);
	mp_set(m, F(inner, first_vid), 0xfff);
}

static void
r_vxlan_smac_vlan(uint8_t *v, struct pkt *p, unsigned int i)
{
	pkt_vxlan(p, 4096 + i);
	p->in.smac = 0x0200000000c0ull + i;
	p->in.nb_vlan = 1;
	p->in.vlan_tci[0] = (uint16_t)(300 + i);
	mp_set(v, F(misc, vxlan_vni), 4096 + i);
	mp_mac(v, F(inner, smac_47_16), p->in.smac);
	mp_set(v, F(inner, cvlan_tag), 1);
	mp_set(v, F(inner, first_vid), 300 + i);
}

static void
x_vxlan_smac_vlan(struct pkt *p, unsigned int i, unsigned int k)
{
	switch (k) {
	case 0:
		p->in.smac++;
		break;
	case 1:
		p->in.vlan_tci[0] ^= 0x800;
		break;
	case 2: /* inner untagged */
		p->in.nb_vlan = 0;
		break;
	default: /* the inner values on the outer frame */
		pkt_udp4(p);
		p->o.smac = 0x0200000000c0ull + i;
		p->o.nb_vlan = 1;
		p->o.vlan_tci[0] = (uint16_t)(300 + i);
		break;
	}
}

static void
m_gre_inner(uint8_t *m)
{
	mp_set(m, F(misc, gre_protocol), 0xffff);
	mp_set(m, F(inner, ip_version), 4);
	mp_set(m, F(inner, dst_ip_31_0), 0xffffffff);
	mp_set(m, F(inner, ip_protocol), 0xff);
	mp_set(m, F(inner, udp_dport), 0xffff);
}

static void
r_gre_inner(uint8_t *v, struct pkt *p, unsigned int i)
{
	p->tnl = TNL_GRE;
	p->in = p->o;
	p->in.no_l2 = true;
	p->in.dip = 0xac110000 + i;
	p->in.dport = (uint16_t)(7000 + i);
	mp_set(v, F(misc, gre_protocol), 0x0800);
	mp_set(v, F(inner, ip_version), 4);
	mp_set(v, F(inner, dst_ip_31_0), p->in.dip);
	mp_set(v, F(inner, ip_protocol), 17);
	mp_set(v, F(inner, udp_dport), p->in.dport);
}

static void
h_gre_inner(struct pkt *p, unsigned int i, unsigned int k)
{
	(void)i;
	(void)k;
	/* A key does not change what is inside. */
	p->gre_key_present = true;
	p->gre_key = 0x12345678;
}

static void
x_gre_inner(struct pkt *p, unsigned int i, unsigned int k)
{
	(void)i;
	if (k == 0) {
		p->in.dport++;
	} else if (k == 1) {
		p->in.dip ^= 0x100;
	} else {
		/* The inner values as the outer header, no tunnel. */
		p->tnl = TNL_NONE;
		p->o.dip = p->in.dip;
		p->o.dport = p->in.dport;
	}
}

static const struct mcase cases[] = {
	{ "dmac", CRIT(outer), m_dmac, r_dmac, h_any_l3, 2, x_dmac, 2 },
	{ "smac", CRIT(outer), m_smac, r_smac, h_any_l3, 2, x_smac, 2 },
	{ "smac+dmac", CRIT(outer), m_smac_dmac, r_smac_dmac, h_any_l3, 2, x_smac_dmac, 3 },
	{ "ethertype", CRIT(outer), m_ethertype, r_ethertype, h_ethertype_vlan, 1,
	  x_ethertype, 1 },
	{ "first vlan", CRIT(outer), m_vlan1, r_vlan1, h_vlan1, 2, x_vlan1, 4 },
	{ "second vlan", CRIT(outer) | CRIT(misc), m_vlan2, r_vlan2, NULL, 0, x_vlan2, 4 },
	{ "ipv4 src/dst/proto", CRIT(outer), m_ip4_addr_proto, r_ip4_addr_proto, NULL, 0,
	  x_ip4_addr_proto, 5 },
	{ "ipv4 ttl", CRIT(outer), m_ip4_ttl, r_ip4_ttl, h_ip4_any_addr, 2, x_ip4_ttl, 2 },
	{ "ipv4 dscp", CRIT(outer), m_ip4_dscp, r_ip4_dscp, h_ecn, 3, x_ip4_dscp, 2 },
	{ "tcp ports", CRIT(outer), m_tcp_ports, r_tcp_ports, h_ip4_any_addr, 1, x_l4_ports, 4 },
	{ "udp ports", CRIT(outer), m_udp_ports, r_udp_ports, h_ip4_any_addr, 1, x_l4_ports, 4 },
	{ "tcp flags", CRIT(outer), m_tcp_flags, r_tcp_flags, NULL, 0, x_tcp_flags, 2 },
	{ "ipv6 src/dst", CRIT(outer), m_ip6_full, r_ip6_full, NULL, 0, x_ip6_full, 4 },
	{ "ipv6 prefixes", CRIT(outer), m_ip6_prefix, r_ip6_prefix, h_ip6_prefix, 2,
	  x_ip6_prefix, 3 },
	{ "ipv6 l4", CRIT(outer), m_ip6_l4, r_ip6_l4, NULL, 0, x_ip6_l4, 5 },
	{ "ipv6 hop limit/dscp", CRIT(outer), m_ip6_hop_dscp, r_ip6_hop_dscp, NULL, 0,
	  x_ip6_hop_dscp, 2 },
	{ "vxlan vni + inner dmac", CRIT(misc) | CRIT(inner), m_vxlan_l2, r_vxlan_l2,
	  h_vxlan_outer, 2, x_vxlan_l2, 4 },
	{ "vxlan inner ipv4/udp", CRIT(misc) | CRIT(inner), m_vxlan_ip4, r_vxlan_ip4,
	  h_vxlan_outer, 2, x_vxlan_inner, 4 },
	{ "vxlan inner ipv6/tcp", CRIT(misc) | CRIT(inner), m_vxlan_ip6, r_vxlan_ip6,
	  h_vxlan_outer, 1, x_vxlan_ip6, 4 },
	{ "gre protocol/key", CRIT(misc), m_gre, r_gre, NULL, 0, x_gre, 4 },
	{ "mpls label", CRIT(misc2), m_mpls, r_mpls, h_mpls, 2, x_mpls, 3 },
	{ "ipv4 dst /24", CRIT(outer), m_ip4_dst24, r_ip4_dst24, h_ip4_dst24, 3,
	  x_ip4_dst24, 2 },
	{ "port and vlan ranges", CRIT(outer), m_port_range, r_port_range, h_port_range, 2,
	  x_port_range, 2 },
	{ "ipv4 fragment", CRIT(outer), m_ip4_frag, r_ip4_frag, h_ip4_frag, 1, x_ip4_frag, 1 },
	{ "tcp seq/ack", CRIT(misc3), m_tcp_seq_ack, r_tcp_seq_ack, NULL, 0, x_tcp_seq_ack, 3 },
	{ "ipv6 flow label", CRIT(outer) | CRIT(misc), m_ip6_flow_label, r_ip6_flow_label, NULL,
	  0, x_ip6_flow_label, 1 },
	{ "dscp + ecn", CRIT(outer), m_dscp_ecn, r_dscp_ecn, NULL, 0, x_dscp_ecn, 1 },
	{ "vxlan inner smac + vlan", CRIT(misc) | CRIT(inner), m_vxlan_smac_vlan,
	  r_vxlan_smac_vlan, h_vxlan_outer, 1, x_vxlan_smac_vlan, 4 },
	{ "gre inner ipv4/udp", CRIT(misc) | CRIT(inner), m_gre_inner, r_gre_inner, h_gre_inner,
	  1, x_gre_inner, 3 },
};

/* Build rule i's frame, optionally a hit (k >= 0) or miss (k >= 0) variant. */
static void
case_frame(const struct mcase *c, unsigned int i, int hit, int miss, struct frame *f)
{
	uint8_t v[MP_SIZE];
	struct pkt p;

	pkt_udp4(&p);
	memset(v, 0, sizeof(v));
	c->rule(v, &p, i);
	if (hit >= 0)
		c->hit(&p, i, (unsigned int)hit);
	if (miss >= 0)
		c->miss(&p, i, (unsigned int)miss);
	frame_build(f, &p);
}

/* Every frame of rule i (and its hit variants) arrives tagged i + 1 on queue i % 4. */
static void
case_check_hits(struct senv *e, const struct mcase *c, unsigned int i, bool present)
{
	struct frame f;
	struct rx got;
	int k;

	for (k = -1; k < (int)c->nb_hit; k++) {
		case_frame(c, i, k, -1, &f);
		if (!present) {
			if (senv_send(e, &f, NULL) != RX_DROPPED)
				fail_msg("%s: deleted rule %u still matches (variant %d)", c->name,
					 i, k);
			continue;
		}
		if (senv_send(e, &f, &got) != (int)(i % SENV_NB_RQ))
			fail_msg("%s: rule %u frame (variant %d) not on its queue", c->name, i,
				 k);
		assert_true(got.flags & MLX5DM_SIM_PKT_F_FLOW_TAG);
		assert_int_equal(got.flow_tag, i + 1);
		rx_assert_bytes(&got, &f);
	}
}

static void
run_case(struct senv *e, const struct mcase *c)
{
	struct mlx5dm_action *tags[NB_RULES];
	struct mlx5dm_rule *r[NB_RULES];
	struct mlx5dm_matcher *m;
	uint8_t mask[MP_SIZE] = { 0 };
	unsigned int i, k;
	struct frame f;

	c->mask(mask);
	m = senv_matcher(e->tbl, 0, c->criteria, mask, 0);
	for (i = 0; i < NB_RULES; i++) {
		struct mlx5dm_action *acts[2];
		uint8_t v[MP_SIZE] = { 0 };
		struct pkt p;

		pkt_udp4(&p);
		c->rule(v, &p, i);
		tags[i] = mlx5dm_action_flow_tag(e->rx, i + 1);
		assert_non_null(tags[i]);
		acts[0] = tags[i];
		acts[1] = e->to_q[i % SENV_NB_RQ];
		r[i] = senv_rule(m, 0, v, 2, acts);
	}
	for (i = 0; i < NB_RULES; i++) {
		case_check_hits(e, c, i, true);
		for (k = 0; k < c->nb_miss; k++) {
			case_frame(c, i, -1, (int)k, &f);
			if (senv_send(e, &f, NULL) != RX_DROPPED)
				fail_msg("%s: miss variant %u of rule %u matched", c->name, k, i);
		}
	}
	/* Delete the even rules: they stop matching, the odd ones keep matching. */
	for (i = 0; i < NB_RULES; i += 2)
		assert_int_equal(mlx5dm_rule_destroy(r[i], 0), 0);
	assert_int_equal(mlx5dm_domain_sync(e->rx, MLX5DM_SYNC_SW | MLX5DM_SYNC_HW), 0);
	for (i = 0; i < NB_RULES; i++)
		case_check_hits(e, c, i, i % 2 == 1);
	for (i = 1; i < NB_RULES; i += 2)
		assert_int_equal(mlx5dm_rule_destroy(r[i], 0), 0);
	assert_int_equal(mlx5dm_domain_sync(e->rx, MLX5DM_SYNC_SW | MLX5DM_SYNC_HW), 0);
	for (i = 0; i < NB_RULES; i++)
		case_check_hits(e, c, i, false);
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	for (i = 0; i < NB_RULES; i++)
		assert_int_equal(mlx5dm_action_destroy(tags[i]), 0);
}

static void
test_match_kinds(void **state)
{
	struct senv *e = senv_open(1);
	struct mlx5dm_ctx_stats st0, st1;
	unsigned int c;

	(void)state;
	st0 = senv_stats(e);
	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		fprintf(stderr, "match kind: %s\n", cases[c].name);
		run_case(e, &cases[c]);
	}
	senv_sync(e);
	st1 = senv_stats(e);
	assert_icm_equal(&st0, &st1);
	senv_close(e);
}

/* Masks the library cannot match: EOPNOTSUPP and the first field at fault. */
static void
test_refused_masks(void **state)
{
	static const struct {
		enum mlx5dm_fte_field f;
		uint32_t v;
		uint8_t criteria;
		const char *name;
	} bad[] = {
		{ F(misc3, gtpu_teid), 0xffffffff, CRIT(misc3), "misc3.gtpu_teid" },
		{ F(misc3, outer_vxlan_gpe_vni), 0xffffff, CRIT(misc3),
		  "misc3.outer_vxlan_gpe_vni" },
		/* L3 fields without an IP version: no lookup takes them. */
		{ F(outer, ip_ttl_hoplimit), 0xff, CRIT(outer), "outer.ip_ttl_hoplimit" },
		{ F(outer, src_ip_31_0), 0xffffffff, CRIT(outer), "outer.src_ip_31_0" },
		{ F(outer, tcp_dport), 0xffff, CRIT(outer), "outer.tcp_dport" },
		{ F(inner, dst_ip_31_0), 0xffffffff, CRIT(inner), "inner.dst_ip_31_0" },
		/* The IP version as a mask of all ones (DPDK's habit) is not 4 or 6. */
		{ F(outer, ip_version), 0xf, CRIT(outer), "outer.ip_version" },
		{ F(outer, l3_ok), 1, CRIT(outer), "outer.l3_ok" },
		{ F(outer, l4_checksum_ok), 1, CRIT(outer), "outer.l4_checksum_ok" },
		{ F(misc, source_port), 0xffff, CRIT(misc), "misc.source_port" },
		{ F(misc, geneve_vni), 0xffffff, CRIT(misc), "misc.geneve_vni" },
		{ F(misc, outer_esp_spi), 0xffffffff, CRIT(misc), "misc.outer_esp_spi" },
		{ F(misc4, prog_sample_field_value_0), 0xffffffff, CRIT(misc4),
		  "misc4.prog_sample_field_value_0" },
		{ F(misc5, tunnel_header_1), 0xffffffff, CRIT(misc5), "misc5.tunnel_header_1" },
	};
	struct senv *e = senv_open(1);
	struct mlx5dm_ctx_stats st0, st1;
	unsigned int i;

	(void)state;
	st0 = senv_stats(e);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct mlx5dm_matcher_attr ma = { .criteria = bad[i].criteria };
		uint8_t mask[MP_SIZE] = { 0 };
		const char *field = NULL;

		mp_set(mask, bad[i].f, bad[i].v);
		ma.mask = mask;
		errno = 0;
		assert_null(mlx5dm_matcher_create(e->tbl, &ma, &field));
		assert_int_equal(errno, EOPNOTSUPP);
		assert_non_null(field);
		if (strcmp(field, bad[i].name) != 0)
			fail_msg("mask %s refused naming %s", bad[i].name, field);
	}
	/* A refused matcher leaves nothing behind. */
	senv_sync(e);
	st1 = senv_stats(e);
	assert_icm_equal(&st0, &st1);
	assert_int_equal(st1.matchers, st0.matchers);
	senv_close(e);
}

/* Rule values the matcher cannot hold: EINVAL, the field named in the log. */
static void
test_refused_values(void **state)
{
	struct senv *e = senv_open(1);
	uint8_t mask[MP_SIZE] = { 0 }, v[MP_SIZE] = { 0 };
	struct mlx5dm_matcher *m;

	(void)state;
	mp_set(mask, F(outer, ip_version), 4);
	mp_set(mask, F(outer, dst_ip_31_0), 0xffffff00);
	m = senv_matcher(e->tbl, 0, CRIT(outer), mask, 0);
	test_log_start();
	/* A host bit outside the /24 mask. */
	mp_set(v, F(outer, ip_version), 4);
	mp_set(v, F(outer, dst_ip_31_0), 0x0a000001);
	assert_null(mlx5dm_rule_create(m, 0, v, 1, &e->to_q[0]));
	assert_int_equal(errno, EINVAL);
	assert_string_equal(test_log_last(),
			    "steer: rule value outside the matcher mask: outer.dst_ip_31_0");
	/* An IP version other than the matcher's. */
	mp_set(v, F(outer, dst_ip_31_0), 0x0a000000);
	mp_set(v, F(outer, ip_version), 6);
	assert_null(mlx5dm_rule_create(m, 0, v, 1, &e->to_q[0]));
	assert_int_equal(errno, EINVAL);
	assert_string_equal(test_log_last(),
			    "steer: rule value outside the matcher mask: outer.ip_version");
	/* A field the mask does not have at all. */
	mp_set(v, F(outer, ip_version), 4);
	mp_set(v, F(outer, ip_ttl_hoplimit), 3);
	assert_null(mlx5dm_rule_create(m, 0, v, 1, &e->to_q[0]));
	assert_int_equal(errno, EINVAL);
	assert_string_equal(test_log_last(),
			    "steer: rule value outside the matcher mask: outer.ip_ttl_hoplimit");
	/* Queue out of range. */
	mp_set(v, F(outer, ip_ttl_hoplimit), 0);
	assert_null(mlx5dm_rule_create(m, 1, v, 1, &e->to_q[0]));
	assert_int_equal(errno, EINVAL);
	test_log_stop();
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	senv_close(e);
}

/*
 * Metadata registers: a table-1 rule writes reg_c_1 (and reg_c_4) with a
 * modify header and jumps to table 2, whose matcher steers on the
 * registers. The frame itself carries nothing that table 2 could match.
 */
static void
test_match_registers(void **state)
{
	struct senv *e = senv_open(1);
	struct mlx5dm_action *mod[4], *jump, *acts[2];
	uint8_t mask[MP_SIZE] = { 0 }, v[MP_SIZE];
	struct mlx5dm_matcher *m1, *m2;
	struct mlx5dm_rule *r1[4], *r2[4];
	struct mlx5dm_table *t2;
	unsigned int i;
	struct frame f;
	struct pkt p;

	(void)state;
	t2 = mlx5dm_table_create(e->rx, 2);
	assert_non_null(t2);
	jump = mlx5dm_action_dest_table(e->rx, t2);
	assert_non_null(jump);
	m_dmac(mask);
	m1 = senv_matcher(e->tbl, 0, CRIT(outer), mask, 0);
	memset(mask, 0, sizeof(mask));
	mp_set(mask, F(misc2, metadata_reg_c_1), 0xffffffff);
	mp_set(mask, F(misc2, metadata_reg_c_4), 0x0000ff00);
	m2 = senv_matcher(t2, 0, CRIT(misc2), mask, 0);
	for (i = 0; i < 4; i++) {
		uint8_t ma[2 * MOD_SIZE];

		mod_set(ma, 0x52 /* reg_c_1 */, 0, 0, 0xc0de0000 + i);
		mod_set(ma + MOD_SIZE, 0x55 /* reg_c_4 */, 8, 8, 0x40 + i);
		mod[i] = mlx5dm_action_modify_header(e->rx, 2, ma);
		assert_non_null(mod[i]);
		memset(v, 0, sizeof(v));
		mp_mac(v, F(outer, dmac_47_16), 0x020000000100ull + i);
		acts[0] = mod[i];
		acts[1] = jump;
		r1[i] = senv_rule(m1, 0, v, 2, acts);
		/* Table 2 maps register values to queues in reverse order. */
		memset(v, 0, sizeof(v));
		mp_set(v, F(misc2, metadata_reg_c_1), 0xc0de0000 + i);
		mp_set(v, F(misc2, metadata_reg_c_4), (0x40 + i) << 8);
		r2[i] = senv_rule(m2, 0, v, 1, &e->to_q[3 - i]);
	}
	for (i = 0; i < 4; i++) {
		struct rx got;

		pkt_udp4(&p);
		p.o.dmac = 0x020000000100ull + i;
		frame_build(&f, &p);
		assert_int_equal(senv_send(e, &f, &got), 3 - i);
		/* Registers are metadata: the frame is unchanged. */
		rx_assert_bytes(&got, &f);
	}
	/* A table-2 rule deleted: its register value now misses there (drop). */
	assert_int_equal(mlx5dm_rule_destroy(r2[2], 0), 0);
	assert_int_equal(mlx5dm_domain_sync(e->rx, MLX5DM_SYNC_SW | MLX5DM_SYNC_HW), 0);
	pkt_udp4(&p);
	p.o.dmac = 0x020000000102ull;
	frame_build(&f, &p);
	assert_int_equal(senv_send(e, &f, NULL), RX_DROPPED);
	p.o.dmac = 0x020000000103ull;
	frame_build(&f, &p);
	assert_int_equal(senv_send(e, &f, NULL), 0);
	for (i = 0; i < 4; i++) {
		assert_int_equal(mlx5dm_rule_destroy(r1[i], 0), 0);
		if (i != 2)
			assert_int_equal(mlx5dm_rule_destroy(r2[i], 0), 0);
		assert_int_equal(mlx5dm_action_destroy(mod[i]), 0);
	}
	assert_int_equal(mlx5dm_matcher_destroy(m1), 0);
	assert_int_equal(mlx5dm_matcher_destroy(m2), 0);
	assert_int_equal(mlx5dm_action_destroy(jump), 0);
	assert_int_equal(mlx5dm_table_destroy(t2), 0);
	senv_close(e);
}

/* One MPLS label (S set, TTL 64) over GRE (protocol 0x8847) or none: plain IPv4 over GRE. */
static void
t_mpls_gre_frame(struct frame *f, unsigned int nb_mpls, uint32_t label)
{
	struct pkt p;

	pkt_udp4(&p);
	p.tnl = TNL_GRE;
	p.in = p.o;
	p.in.no_l2 = true;
	p.in.sip = 0xc0a80001;
	p.in.dip = 0xc0a80002;
	p.in.nb_mpls = (uint8_t)nb_mpls;
	p.in.mpls[0] = label << 12 | 3u << 9 | 64;
	frame_build(f, &p);
}

/* One MPLS label (exp 3, S, TTL 64) as the payload of outer IPv4/UDP to dport. */
static void
t_mpls_udp_frame(struct frame *f, uint16_t dport, uint32_t label)
{
	const uint8_t payload[8] = { 0 };
	uint8_t inner[128];
	struct hdrs in;
	struct pkt p;
	uint16_t n;

	pkt_udp4(&p);
	in = p.o;
	in.no_l2 = true;
	in.sip = 0xc0a80001;
	in.dip = 0xc0a80002;
	in.nb_mpls = 1;
	in.mpls[0] = label << 12 | 3u << 9 | 64;
	n = stack_build(inner, &in, payload, sizeof(payload));
	p.o.dport = dport;
	f->len = stack_build(f->b, &p.o, inner, n);
}

#define T_MPLS_MANY 64

/*
 * MPLS over GRE and over UDP, through the device's flex parsers (the model
 * reports both protocols): each matcher's label steers its tunnel's frames
 * only; other labels, UDP ports other than 6635 and GRE without MPLS miss.
 */
static void
test_match_mpls_over_tunnels(void **state)
{
	/* GRE frames (udp_port 0) with nb_mpls labels, or UDP frames to udp_port. */
	static const struct {
		uint16_t udp_port;
		unsigned int nb_mpls;
		uint32_t label;
		int q;
	} sends[] = {
		{ 0, 1, 100, 1 }, { 0, 1, 101, RX_DROPPED }, { 0, 0, 100, RX_DROPPED },
		{ 0, 1, 200, RX_DROPPED }, { 6635, 1, 200, 2 }, { 6635, 1, 201, RX_DROPPED },
		{ 6636, 1, 200, RX_DROPPED }, { 6635, 1, 100, RX_DROPPED },
	};
	struct senv *e = senv_open(1);
	uint8_t mask[MP_SIZE] = { 0 }, v[MP_SIZE] = { 0 };
	struct mlx5dm_matcher_attr ma = { .criteria = CRIT(misc2), .mask = mask };
	unsigned int i;
	struct mlx5dm_matcher *mg, *mu;
	struct mlx5dm_rule *rg, *ru, *many[T_MPLS_MANY];
	struct mlx5dm_matcher_stats ms;
	const char *field = "untouched";
	struct frame f;

	(void)state;
	mp_set(mask, F(misc2, outer_first_mpls_over_gre_label), 0xfffff);
	assert_int_equal(mlx5dm_matcher_check(e->rx, &ma, &field), 0);
	assert_null(field);
	mg = senv_matcher(e->tbl, 0, CRIT(misc2), mask, 0);
	mp_set(v, F(misc2, outer_first_mpls_over_gre_label), 100);
	rg = senv_rule(mg, 0, v, 1, &e->to_q[1]);
	memset(mask, 0, sizeof(mask));
	memset(v, 0, sizeof(v));
	mp_set(mask, F(misc2, outer_first_mpls_over_udp_label), 0xfffff);
	mp_set(mask, F(misc2, outer_first_mpls_over_udp_exp), 7);
	mp_set(mask, F(misc2, outer_first_mpls_over_udp_ttl), 0xff);
	assert_int_equal(mlx5dm_matcher_check(e->rx, &ma, &field), 0);
	mu = senv_matcher(e->tbl, 1, CRIT(misc2), mask, 0);
	mp_set(v, F(misc2, outer_first_mpls_over_udp_label), 200);
	mp_set(v, F(misc2, outer_first_mpls_over_udp_exp), 3);
	mp_set(v, F(misc2, outer_first_mpls_over_udp_ttl), 64);
	ru = senv_rule(mu, 0, v, 1, &e->to_q[2]);
	for (i = 0; i < sizeof(sends) / sizeof(sends[0]); i++) {
		if (sends[i].udp_port != 0)
			t_mpls_udp_frame(&f, sends[i].udp_port, sends[i].label);
		else
			t_mpls_gre_frame(&f, sends[i].nb_mpls, sends[i].label);
		if (senv_send(e, &f, NULL) != sends[i].q)
			fail_msg("frame %u: not on %d", i, sends[i].q);
	}
	/* Enough labels to grow the GRE matcher's table: the tag bytes are hashed. */
	memset(v, 0, sizeof(v));
	for (i = 0; i < T_MPLS_MANY; i++) {
		mp_set(v, F(misc2, outer_first_mpls_over_gre_label), 5000 + 7 * i);
		many[i] = senv_rule(mg, 0, v, 1, &e->to_q[1 + i % 3]);
	}
	assert_int_equal(mlx5dm_matcher_stats_get(mg, &ms), 0);
	assert_true(ms.entries > 1 && ms.used > 1);
	for (i = 0; i < T_MPLS_MANY; i++) {
		t_mpls_gre_frame(&f, 1, 5000 + 7 * i);
		if (senv_send(e, &f, NULL) != (int)(1 + i % 3))
			fail_msg("label %u: not on queue %u", 5000 + 7 * i, 1 + i % 3);
	}
	for (i = 0; i < T_MPLS_MANY; i++)
		assert_int_equal(mlx5dm_rule_destroy(many[i], 0), 0);
	assert_int_equal(mlx5dm_rule_destroy(rg, 0), 0);
	assert_int_equal(mlx5dm_rule_destroy(ru, 0), 0);
	assert_int_equal(mlx5dm_matcher_destroy(mg), 0);
	assert_int_equal(mlx5dm_matcher_destroy(mu), 0);
	senv_close(e);
}

/*
 * mlx5dm_match_check(): on a domain, the device's verdict (the model
 * reports the flex parsers MPLS over GRE needs); without one, the verdict
 * for a device without them, naming the field; a value bit outside the
 * mask is refused either way.
 */
static void
test_match_check(void **state)
{
	struct senv *e = senv_open(1);
	uint8_t mask[MP_SIZE] = { 0 }, v[MP_SIZE] = { 0 };
	struct mlx5dm_matcher_attr ma = { .criteria = CRIT(misc2), .mask = mask };
	const char *field = "untouched";

	(void)state;
	mp_set(mask, F(misc2, outer_first_mpls_over_gre_label), 0xfffff);
	mp_set(v, F(misc2, outer_first_mpls_over_gre_label), 100);
	assert_int_equal(mlx5dm_match_check(e->rx, MLX5DM_DOMAIN_NIC_RX, &ma, v, &field), 0);
	assert_null(field);
	assert_int_equal(mlx5dm_match_check(NULL, MLX5DM_DOMAIN_NIC_RX, &ma, v, &field),
			 -EOPNOTSUPP);
	assert_string_equal(field, "misc2.outer_first_mpls_over_gre_label");
	mp_set(v, F(misc2, outer_first_mpls_over_udp_label), 1);
	assert_int_equal(mlx5dm_match_check(e->rx, MLX5DM_DOMAIN_NIC_RX, &ma, v, &field),
			 -EINVAL);
	assert_string_equal(field, "misc2.outer_first_mpls_over_udp_label");
	senv_close(e);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_match_kinds),
		cmocka_unit_test(test_refused_masks),
		cmocka_unit_test(test_refused_values),
		cmocka_unit_test(test_match_registers),
		cmocka_unit_test(test_match_mpls_over_tunnels),
		cmocka_unit_test(test_match_check),
	};

	return cmocka_run_group_tests_name("steer_match", tests, NULL, NULL);
}
