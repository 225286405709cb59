/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Actions of the reference classifier: what each one does to the packet,
 * its metadata and the fate, in list order; and what rte_flow requires of
 * an action list (one fate, configurations in range, the header a rewrite
 * refers to present in the pattern).
 */

#include <errno.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_ether.h>

#include "test_dm_bits.h"
#include "test_dm_flow.h"
#include "test_dm_ref_priv.h"

struct test_dm_ref_exec {
	const struct test_dm_ref *r;
	struct test_dm_ref_rule *rule;
	struct test_dm_ref_pkt *pkt;
	struct test_dm_fate *fate;
	struct test_dm_ref_verdict *v;
};

typedef int (*test_dm_act_fn)(struct test_dm_ref_exec *x, const struct rte_flow_action *a);

/* Pattern items an action refers to (any one of them must be in the pattern). */
#define TEST_DM_NEED(l) (1u << (l))

struct test_dm_act_desc {
	enum rte_flow_action_type type;
	test_dm_act_fn fn;
	uint8_t fate;		/**< QUEUE, RSS, DROP, JUMP */
	uint8_t ingress_only;	/**< Meaningless on egress (delivery, mbuf flags). */
	uint8_t needs_conf;
	uint32_t needs;		/**< TEST_DM_NEED() of item layers, 0 for none. */
};

/* ---- packet helpers ---- */

void
test_dm_ref_redecode(struct test_dm_ref_pkt *pkt)
{
	struct test_dm_pkt_info *info = &pkt->info;
	unsigned int i, run = 0;

	test_dm_pkt_decode(pkt->data, pkt->len, info);
	/*
	 * The device's parser stops at a tag beyond the ones it knows, and
	 * behind the IP header of a fragment (the first one too): the rest is
	 * payload.
	 */
	for (i = 0; i < info->n; i++) {
		const uint8_t *h = pkt->data + info->h[i].off;

		run = info->h[i].type == TEST_DM_L_VLAN ? run + 1 : 0;
		if (pkt->max_vlans != 0 && run > pkt->max_vlans) {
			info->payload_off = info->h[i].off;
			info->n = i;
			break;
		}
		if (pkt->frag_stops && info->h[i].type == TEST_DM_L_IPV4 &&
		    ((h[6] & 0x3f) != 0 || h[7] != 0) && i + 1 < info->n) {
			info->payload_off = info->h[i + 1].off;
			info->n = i + 1;
			break;
		}
	}
}

static int
test_dm_first_of(const struct test_dm_ref_pkt *pkt, uint32_t layers)
{
	unsigned int i;

	for (i = 0; i < pkt->info.n; i++)
		if (layers & TEST_DM_NEED(pkt->info.h[i].type))
			return (int)i;
	return -1;
}

static uint8_t *
test_dm_hdr(struct test_dm_ref_pkt *pkt, int h)
{
	return pkt->data + pkt->info.h[h].off;
}

/* Replace @p remove bytes at @p off by @p ins_len bytes of @p ins, then re-decode. */
static int
test_dm_splice(struct test_dm_ref_pkt *pkt, uint32_t off, uint32_t remove, const uint8_t *ins,
	       uint32_t ins_len)
{
	if (off + remove > pkt->len || pkt->len - remove + ins_len > TEST_DM_PKT_MAX)
		return -E2BIG;
	memmove(pkt->data + off + ins_len, pkt->data + off + remove, pkt->len - off - remove);
	if (ins_len != 0)
		memcpy(pkt->data + off, ins, ins_len);
	pkt->len = pkt->len - remove + ins_len;
	test_dm_ref_redecode(pkt);
	return 0;
}

static int
test_dm_is_ip(enum test_dm_layer t)
{
	return t == TEST_DM_L_IPV4 || t == TEST_DM_L_IPV6;
}

/* Checksums of the IP header at or before header @p h and of its L4 header. */
static void
test_dm_ref_fix_cksums(const struct test_dm_ref *r, struct test_dm_ref_pkt *pkt, int h)
{
	const struct test_dm_pkt_info *info = &pkt->info;
	int ip = h, l4;

	while (ip >= 0 && !test_dm_is_ip(info->h[ip].type))
		ip--;
	if (ip < 0)
		return;
	if (info->h[ip].type == TEST_DM_L_IPV4)
		test_dm_pkt_fix_ipv4_cksum(test_dm_hdr(pkt, ip));
	l4 = ip + 1;
	if (l4 >= (int)info->n)
		return;
	/*
	 * ICMP has no pseudo-header: only its own rewrites change its checksum.
	 * ICMPv6 has one, but net_mlx5dm's device updates TCP and UDP checksums
	 * only (doc/guides/device_model.rst): its IPv6 address rewrites leave the
	 * ICMPv6 checksum as it was.
	 */
	if ((info->h[l4].type == TEST_DM_L_ICMP ||
	     (info->h[l4].type == TEST_DM_L_ICMP6 &&
	      r->cfg.limits == TEST_DM_REF_LIMITS_MLX5DM)) && h != l4)
		return;
	test_dm_pkt_fix_l4_cksum(pkt->data, pkt->len, info, (unsigned int)ip, (unsigned int)l4);
}

void
test_dm_ref_touch(const struct test_dm_ref *r, struct test_dm_ref_pkt *pkt, int h)
{
	if (r->cfg.fix_cksum && h >= 0)
		test_dm_ref_fix_cksums(r, pkt, h);
	/* A rewrite can change what follows (a UDP port, an EtherType): parse again. */
	test_dm_ref_redecode(pkt);
}

/* Prepend encapsulation bytes; the NIC fills in their lengths and IPv4 checksum. */
static int
test_dm_encap(struct test_dm_ref_exec *x, const uint8_t *hdr, uint32_t n)
{
	struct test_dm_ref_pkt *pkt = x->pkt;
	unsigned int i, last = 0;
	int ret;

	ret = test_dm_splice(pkt, 0, 0, hdr, n);
	if (ret < 0 || !x->r->cfg.fix_cksum)
		return ret;
	for (i = 0; i < pkt->info.n && pkt->info.h[i].off < n; i++)
		last = i;
	test_dm_pkt_fix_lengths(pkt->data, pkt->len, &pkt->info, 0, last);
	return 0;
}

/* ---- actions ---- */

static int
test_dm_act_nop(struct test_dm_ref_exec *x, const struct rte_flow_action *a)
{
	RTE_SET_USED(x);
	RTE_SET_USED(a);
	return 0;
}

static int
test_dm_act_count(struct test_dm_ref_exec *x, const struct rte_flow_action *a)
{
	RTE_SET_USED(a);
	x->rule->hits++;
	x->rule->bytes += x->pkt->len;
	return 0;
}

static int
test_dm_act_mark(struct test_dm_ref_exec *x, const struct rte_flow_action *a)
{
	const struct rte_flow_action_mark *c = a->conf;

	x->pkt->fdir = 1;
	x->pkt->fdir_id = 1;
	x->pkt->mark = c->id;
	x->pkt->marked = 1;
	return 0;
}

/*
 * MARK and FLAG write the packet's one flow tag: the last of them wins
 * (what a MARK item of a later group sees is the last MARK's id).
 */
static int
test_dm_act_flag(struct test_dm_ref_exec *x, const struct rte_flow_action *a)
{
	RTE_SET_USED(a);
	x->pkt->fdir = 1;
	x->pkt->fdir_id = 0;
	return 0;
}

static int
test_dm_act_queue(struct test_dm_ref_exec *x, const struct rte_flow_action *a)
{
	const struct rte_flow_action_queue *c = a->conf;

	x->fate->kind = TEST_DM_FATE_QUEUE;
	x->fate->queue = c->index;
	x->v->fate = 1;
	return 0;
}

static int
test_dm_act_rss(struct test_dm_ref_exec *x, const struct rte_flow_action *a)
{
	const struct rte_flow_action_rss *c = a->conf;

	x->fate->kind = TEST_DM_FATE_RSS;
	x->fate->nb_queues = (uint16_t)RTE_MIN(c->queue_num, (uint32_t)TEST_DM_REF_MAX_QUEUES);
	memcpy(x->fate->queues, c->queue, x->fate->nb_queues * sizeof(c->queue[0]));
	x->fate->rss_types = c->types;
	x->v->fate = 1;
	return 0;
}

static int
test_dm_act_drop(struct test_dm_ref_exec *x, const struct rte_flow_action *a)
{
	RTE_SET_USED(a);
	x->fate->kind = TEST_DM_FATE_DROP;
	x->v->fate = 1;
	return 0;
}

static int
test_dm_act_jump(struct test_dm_ref_exec *x, const struct rte_flow_action *a)
{
	const struct rte_flow_action_jump *c = a->conf;

	x->v->jump = 1;
	x->v->group = c->group;
	return 0;
}

/* A port action of a transfer rule decides: the walk forwards (test_dm_ref.c). */
static int
test_dm_act_port(struct test_dm_ref_exec *x, const struct rte_flow_action *a)
{
	x->pkt->fwd = a->type;
	if (a->type == RTE_FLOW_ACTION_TYPE_PORT_ID)
		x->pkt->fwd_port = (uint16_t)((const struct rte_flow_action_port_id *)a->conf)->id;
	else
		x->pkt->fwd_port = ((const struct rte_flow_action_ethdev *)a->conf)->port_id;
	x->v->forward = 1;
	return 0;
}

/* Write @p n bytes at byte @p off of the first header among @p layers. */
static int
test_dm_rewrite(struct test_dm_ref_exec *x, uint32_t layers, unsigned int off,
		const void *src, unsigned int n)
{
	int h = test_dm_first_of(x->pkt, layers);

	if (h < 0)
		return 0;
	memcpy(test_dm_hdr(x->pkt, h) + off, src, n);
	test_dm_ref_touch(x->r, x->pkt, h);
	return 0;
}

static int
test_dm_act_set_mac(struct test_dm_ref_exec *x, const struct rte_flow_action *a)
{
	const struct rte_flow_action_set_mac *c = a->conf;

	return test_dm_rewrite(x, TEST_DM_NEED(TEST_DM_L_ETH),
			       a->type == RTE_FLOW_ACTION_TYPE_SET_MAC_DST ? 0 : 6, c->mac_addr, 6);
}

static int
test_dm_act_set_ipv4(struct test_dm_ref_exec *x, const struct rte_flow_action *a)
{
	const struct rte_flow_action_set_ipv4 *c = a->conf;

	return test_dm_rewrite(x, TEST_DM_NEED(TEST_DM_L_IPV4),
			       a->type == RTE_FLOW_ACTION_TYPE_SET_IPV4_SRC ? 12 : 16,
			       &c->ipv4_addr, 4);
}

static int
test_dm_act_set_ipv6(struct test_dm_ref_exec *x, const struct rte_flow_action *a)
{
	const struct rte_flow_action_set_ipv6 *c = a->conf;

	return test_dm_rewrite(x, TEST_DM_NEED(TEST_DM_L_IPV6),
			       a->type == RTE_FLOW_ACTION_TYPE_SET_IPV6_SRC ? 8 : 24,
			       c->ipv6_addr, 16);
}

static int
test_dm_act_set_tp(struct test_dm_ref_exec *x, const struct rte_flow_action *a)
{
	const struct rte_flow_action_set_tp *c = a->conf;

	return test_dm_rewrite(x, TEST_DM_NEED(TEST_DM_L_TCP) | TEST_DM_NEED(TEST_DM_L_UDP),
			       a->type == RTE_FLOW_ACTION_TYPE_SET_TP_SRC ? 0 : 2, &c->port, 2);
}

/* Set (value >= 0) or decrement (value < 0) the outermost TTL / hop limit. */
static int
test_dm_ttl(struct test_dm_ref_exec *x, int value)
{
	int h = test_dm_first_of(x->pkt, TEST_DM_NEED(TEST_DM_L_IPV4) |
				 TEST_DM_NEED(TEST_DM_L_IPV6));
	uint8_t *ttl;

	if (h < 0)
		return 0;
	ttl = test_dm_hdr(x->pkt, h) + (x->pkt->info.h[h].type == TEST_DM_L_IPV4 ? 8 : 7);
	*ttl = value >= 0 ? (uint8_t)value : (uint8_t)(*ttl - 1);
	test_dm_ref_touch(x->r, x->pkt, h);
	return 0;
}

static int
test_dm_act_set_ttl(struct test_dm_ref_exec *x, const struct rte_flow_action *a)
{
	return test_dm_ttl(x, ((const struct rte_flow_action_set_ttl *)a->conf)->ttl_value);
}

static int
test_dm_act_dec_ttl(struct test_dm_ref_exec *x, const struct rte_flow_action *a)
{
	RTE_SET_USED(a);
	return test_dm_ttl(x, -1);
}

static int
test_dm_act_tcp_seq_ack(struct test_dm_ref_exec *x, const struct rte_flow_action *a)
{
	int h = test_dm_first_of(x->pkt, TEST_DM_NEED(TEST_DM_L_TCP));
	int ack = a->type == RTE_FLOW_ACTION_TYPE_INC_TCP_ACK ||
		  a->type == RTE_FLOW_ACTION_TYPE_DEC_TCP_ACK;
	int dec = a->type == RTE_FLOW_ACTION_TYPE_DEC_TCP_SEQ ||
		  a->type == RTE_FLOW_ACTION_TYPE_DEC_TCP_ACK;
	uint32_t delta = rte_be_to_cpu_32(*(const rte_be32_t *)a->conf);
	uint8_t *t;
	uint32_t v;

	if (h < 0)
		return 0;
	t = test_dm_hdr(x->pkt, h);
	v = (uint32_t)test_dm_bits_get(t, ack ? 64 : 32, 32);
	v = dec ? v - delta : v + delta;
	test_dm_bits_set(t, ack ? 64 : 32, 32, v);
	test_dm_ref_touch(x->r, x->pkt, h);
	return 0;
}

static int
test_dm_act_set_dscp(struct test_dm_ref_exec *x, const struct rte_flow_action *a)
{
	const struct rte_flow_action_set_dscp *c = a->conf;
	int h = test_dm_first_of(x->pkt, TEST_DM_NEED(TEST_DM_L_IPV4));

	if (h < 0)
		return 0;
	test_dm_bits_set(test_dm_hdr(x->pkt, h), 8, 6, c->dscp);
	test_dm_ref_touch(x->r, x->pkt, h);
	return 0;
}

static int
test_dm_act_set_tag(struct test_dm_ref_exec *x, const struct rte_flow_action *a)
{
	const struct rte_flow_action_set_tag *c = a->conf;
	uint32_t *t = &x->pkt->tags[c->index];

	*t = (*t & ~c->mask) | (c->data & c->mask);
	return 0;
}

static int
test_dm_act_set_meta(struct test_dm_ref_exec *x, const struct rte_flow_action *a)
{
	const struct rte_flow_action_set_meta *c = a->conf;

	x->pkt->meta = (x->pkt->meta & ~c->mask) | (c->data & c->mask);
	return 0;
}

static int
test_dm_act_push_vlan(struct test_dm_ref_exec *x, const struct rte_flow_action *a)
{
	const struct rte_flow_action_of_push_vlan *c = a->conf;
	uint8_t tag[4];

	/* OpenFlow: a pushed tag starts as a copy of the current outer one, else zero. */
	memcpy(tag, &c->ethertype, 2);
	tag[2] = 0;
	tag[3] = 0;
	if (x->pkt->info.n > 1 && x->pkt->info.h[1].type == TEST_DM_L_VLAN)
		memcpy(tag + 2, test_dm_hdr(x->pkt, 1), 2);
	return test_dm_splice(x->pkt, 12, 0, tag, 4);
}

static int
test_dm_act_pop_vlan(struct test_dm_ref_exec *x, const struct rte_flow_action *a)
{
	RTE_SET_USED(a);
	if (x->pkt->info.n < 2 || x->pkt->info.h[1].type != TEST_DM_L_VLAN)
		return 0;
	/* Drop the TPID (end of the Ethernet header) and the TCI. */
	return test_dm_splice(x->pkt, 12, 4, NULL, 0);
}

static int
test_dm_act_set_vlan(struct test_dm_ref_exec *x, const struct rte_flow_action *a)
{
	const struct rte_flow_action_of_set_vlan_vid *vid = a->conf;
	const struct rte_flow_action_of_set_vlan_pcp *pcp = a->conf;
	int h = test_dm_first_of(x->pkt, TEST_DM_NEED(TEST_DM_L_VLAN));

	if (h < 0)
		return 0;
	if (a->type == RTE_FLOW_ACTION_TYPE_OF_SET_VLAN_VID)
		test_dm_bits_set(test_dm_hdr(x->pkt, h), 4, 12, rte_be_to_cpu_16(vid->vlan_vid));
	else
		test_dm_bits_set(test_dm_hdr(x->pkt, h), 0, 3, pcp->vlan_pcp);
	return 0;
}

static int
test_dm_act_vxlan_decap(struct test_dm_ref_exec *x, const struct rte_flow_action *a)
{
	int h = test_dm_first_of(x->pkt, TEST_DM_NEED(TEST_DM_L_VXLAN));

	RTE_SET_USED(a);
	if (h < 0)
		return 0;
	return test_dm_splice(x->pkt, 0, x->pkt->info.h[h].off + 8u, NULL, 0);
}

static int
test_dm_act_vxlan_encap(struct test_dm_ref_exec *x, const struct rte_flow_action *a)
{
	const struct rte_flow_action_vxlan_encap *c = a->conf;
	struct test_dm_pkt_info info;
	uint8_t hdr[TEST_DM_RAW_MAX];
	int n, h;

	n = test_dm_flow_items_to_bytes(c->definition, hdr, sizeof(hdr));
	if (n < 0)
		return n;
	/* Values the NIC driver gives fields left at zero (as mlx5 does). */
	test_dm_pkt_decode(hdr, (size_t)n, &info);
	h = test_dm_pkt_find(&info, TEST_DM_L_IPV4, 0);
	if (h >= 0 && hdr[info.h[h].off + 8] == 0)
		hdr[info.h[h].off + 8] = 64;
	h = test_dm_pkt_find(&info, TEST_DM_L_IPV6, 0);
	if (h >= 0 && hdr[info.h[h].off + 7] == 0)
		hdr[info.h[h].off + 7] = 255;
	return test_dm_encap(x, hdr, (uint32_t)n);
}

static int
test_dm_act_raw_encap(struct test_dm_ref_exec *x, const struct rte_flow_action *a)
{
	const struct rte_flow_action_raw_encap *c = a->conf;

	return test_dm_encap(x, c->data, (uint32_t)c->size);
}

static int
test_dm_act_raw_decap(struct test_dm_ref_exec *x, const struct rte_flow_action *a)
{
	const struct rte_flow_action_raw_decap *c = a->conf;

	return test_dm_splice(x->pkt, 0, (uint32_t)RTE_MIN(c->size, (size_t)x->pkt->len),
			      NULL, 0);
}

static int
test_dm_act_modify(struct test_dm_ref_exec *x, const struct rte_flow_action *a)
{
	test_dm_ref_modify(x->r, x->pkt, a->conf);
	return 0;
}

#define TEST_DM_IP46 (TEST_DM_NEED(TEST_DM_L_IPV4) | TEST_DM_NEED(TEST_DM_L_IPV6))
#define TEST_DM_L4 (TEST_DM_NEED(TEST_DM_L_TCP) | TEST_DM_NEED(TEST_DM_L_UDP))
#define TEST_DM_A(t, fn, fate, in, conf, needs) \
	{ RTE_FLOW_ACTION_TYPE_##t, (fn), (fate), (in), (conf), (needs) }

static const struct test_dm_act_desc test_dm_acts[] = {
	TEST_DM_A(VOID, test_dm_act_nop, 0, 0, 0, 0),
	TEST_DM_A(COUNT, test_dm_act_count, 0, 0, 0, 0),
	TEST_DM_A(MARK, test_dm_act_mark, 0, 1, 1, 0),
	TEST_DM_A(FLAG, test_dm_act_flag, 0, 1, 0, 0),
	TEST_DM_A(QUEUE, test_dm_act_queue, 1, 1, 1, 0),
	TEST_DM_A(RSS, test_dm_act_rss, 1, 1, 1, 0),
	TEST_DM_A(DROP, test_dm_act_drop, 1, 0, 0, 0),
	TEST_DM_A(JUMP, test_dm_act_jump, 1, 0, 1, 0),
	TEST_DM_A(REPRESENTED_PORT, test_dm_act_port, 1, 0, 1, 0),
	TEST_DM_A(PORT_REPRESENTOR, test_dm_act_port, 1, 0, 1, 0),
	TEST_DM_A(PORT_ID, test_dm_act_port, 1, 0, 1, 0),
	TEST_DM_A(SET_MAC_SRC, test_dm_act_set_mac, 0, 0, 1, TEST_DM_NEED(TEST_DM_L_ETH)),
	TEST_DM_A(SET_MAC_DST, test_dm_act_set_mac, 0, 0, 1, TEST_DM_NEED(TEST_DM_L_ETH)),
	TEST_DM_A(SET_IPV4_SRC, test_dm_act_set_ipv4, 0, 0, 1, TEST_DM_NEED(TEST_DM_L_IPV4)),
	TEST_DM_A(SET_IPV4_DST, test_dm_act_set_ipv4, 0, 0, 1, TEST_DM_NEED(TEST_DM_L_IPV4)),
	TEST_DM_A(SET_IPV6_SRC, test_dm_act_set_ipv6, 0, 0, 1, TEST_DM_NEED(TEST_DM_L_IPV6)),
	TEST_DM_A(SET_IPV6_DST, test_dm_act_set_ipv6, 0, 0, 1, TEST_DM_NEED(TEST_DM_L_IPV6)),
	TEST_DM_A(SET_TP_SRC, test_dm_act_set_tp, 0, 0, 1, TEST_DM_L4),
	TEST_DM_A(SET_TP_DST, test_dm_act_set_tp, 0, 0, 1, TEST_DM_L4),
	TEST_DM_A(SET_TTL, test_dm_act_set_ttl, 0, 0, 1, TEST_DM_IP46),
	TEST_DM_A(DEC_TTL, test_dm_act_dec_ttl, 0, 0, 0, TEST_DM_IP46),
	TEST_DM_A(INC_TCP_SEQ, test_dm_act_tcp_seq_ack, 0, 0, 1, TEST_DM_NEED(TEST_DM_L_TCP)),
	TEST_DM_A(DEC_TCP_SEQ, test_dm_act_tcp_seq_ack, 0, 0, 1, TEST_DM_NEED(TEST_DM_L_TCP)),
	TEST_DM_A(INC_TCP_ACK, test_dm_act_tcp_seq_ack, 0, 0, 1, TEST_DM_NEED(TEST_DM_L_TCP)),
	TEST_DM_A(DEC_TCP_ACK, test_dm_act_tcp_seq_ack, 0, 0, 1, TEST_DM_NEED(TEST_DM_L_TCP)),
	TEST_DM_A(SET_IPV4_DSCP, test_dm_act_set_dscp, 0, 0, 1, TEST_DM_NEED(TEST_DM_L_IPV4)),
	TEST_DM_A(SET_TAG, test_dm_act_set_tag, 0, 0, 1, 0),
	TEST_DM_A(SET_META, test_dm_act_set_meta, 0, 0, 1, 0),
	TEST_DM_A(MODIFY_FIELD, test_dm_act_modify, 0, 0, 1, 0),
	TEST_DM_A(OF_PUSH_VLAN, test_dm_act_push_vlan, 0, 0, 1, 0),
	TEST_DM_A(OF_POP_VLAN, test_dm_act_pop_vlan, 0, 0, 0, TEST_DM_NEED(TEST_DM_L_VLAN)),
	/* Need a VLAN in the pattern or a preceding push (checked separately). */
	TEST_DM_A(OF_SET_VLAN_VID, test_dm_act_set_vlan, 0, 0, 1, 0),
	TEST_DM_A(OF_SET_VLAN_PCP, test_dm_act_set_vlan, 0, 0, 1, 0),
	TEST_DM_A(VXLAN_ENCAP, test_dm_act_vxlan_encap, 0, 0, 1, 0),
	TEST_DM_A(VXLAN_DECAP, test_dm_act_vxlan_decap, 0, 0, 0, TEST_DM_NEED(TEST_DM_L_VXLAN)),
	TEST_DM_A(RAW_ENCAP, test_dm_act_raw_encap, 0, 0, 1, 0),
	TEST_DM_A(RAW_DECAP, test_dm_act_raw_decap, 0, 0, 1, 0),
};

static const struct test_dm_act_desc *
test_dm_act_get(enum rte_flow_action_type type)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(test_dm_acts); i++)
		if (test_dm_acts[i].type == type)
			return &test_dm_acts[i];
	return NULL;
}

/*
 * Whether an ingress rule's counter comes after its VLAN pushes. The
 * device counts a frame as it reaches the STE holding the counter, and the
 * NIC RX placement (rdma-core's STE v1 order: decap, tag, pop, modify,
 * push, counter) moves the counter to an STE of its own after a decap or a
 * pop, unless a later action already opened a new STE for it: a modify
 * list (never in the decap's or the pop's STE), or the tag behind an L3
 * decap (which fills the match STE's action space). @p rule's actions;
 * @p egress: the rule counts as an egress rule (test_dm_ref_counts_egress()).
 */
static int
test_dm_ref_counts_after_push(const struct test_dm_ref_rule *rule, int egress)
{
	int decap = 0, decap_l3 = 0, pop = 0, modify = 0, tag = 0, pushed = 0;
	const struct rte_flow_action *a;

	if (egress)
		return 0;
	for (a = rule->actions; a->type != RTE_FLOW_ACTION_TYPE_END; a++) {
		switch (a->type) {
		case RTE_FLOW_ACTION_TYPE_VXLAN_DECAP:
		case RTE_FLOW_ACTION_TYPE_RAW_DECAP:
			decap = 1;
			break;
		case RTE_FLOW_ACTION_TYPE_RAW_ENCAP:
			/* On ingress, the new L2 header of an L3 tunnel's decapsulation. */
			decap_l3 = 1;
			break;
		case RTE_FLOW_ACTION_TYPE_OF_POP_VLAN:
			pop = 1;
			break;
		case RTE_FLOW_ACTION_TYPE_OF_PUSH_VLAN:
			pushed = 1;
			break;
		case RTE_FLOW_ACTION_TYPE_OF_SET_VLAN_VID:
			/* Into the header just pushed; without one, a rewrite of the tag. */
			modify |= !pushed;
			break;
		case RTE_FLOW_ACTION_TYPE_MARK:
		case RTE_FLOW_ACTION_TYPE_FLAG:
			tag = 1;
			break;
		case RTE_FLOW_ACTION_TYPE_SET_MAC_SRC:
		case RTE_FLOW_ACTION_TYPE_SET_MAC_DST:
		case RTE_FLOW_ACTION_TYPE_SET_IPV4_SRC:
		case RTE_FLOW_ACTION_TYPE_SET_IPV4_DST:
		case RTE_FLOW_ACTION_TYPE_SET_IPV6_SRC:
		case RTE_FLOW_ACTION_TYPE_SET_IPV6_DST:
		case RTE_FLOW_ACTION_TYPE_SET_TP_SRC:
		case RTE_FLOW_ACTION_TYPE_SET_TP_DST:
		case RTE_FLOW_ACTION_TYPE_SET_TTL:
		case RTE_FLOW_ACTION_TYPE_DEC_TTL:
		case RTE_FLOW_ACTION_TYPE_INC_TCP_SEQ:
		case RTE_FLOW_ACTION_TYPE_DEC_TCP_SEQ:
		case RTE_FLOW_ACTION_TYPE_INC_TCP_ACK:
		case RTE_FLOW_ACTION_TYPE_DEC_TCP_ACK:
		case RTE_FLOW_ACTION_TYPE_SET_IPV4_DSCP:
		case RTE_FLOW_ACTION_TYPE_SET_TAG:
		case RTE_FLOW_ACTION_TYPE_SET_META:
		case RTE_FLOW_ACTION_TYPE_MODIFY_FIELD:
			modify = 1;
			break;
		default:
			break;
		}
	}
	return (decap || pop) && !modify && !(decap && decap_l3 && tag);
}

/*
 * Where the device's counter counts a frame (as measured on the model): on
 * ingress after the rule's decapsulation and VLAN pops, before its VLAN
 * pushes unless @p after_push (test_dm_ref_counts_after_push()), before an
 * encapsulation (an ingress RAW_ENCAP is the new L2 header of a
 * decapsulation); on egress (@p egress) before any of its header changes. @return
 * whether the frame is counted before action @p a.
 */
static int
test_dm_ref_counts_before(int egress, const struct rte_flow_action *a, int after_push)
{
	switch (a->type) {
	case RTE_FLOW_ACTION_TYPE_OF_PUSH_VLAN:
		return !after_push;
	case RTE_FLOW_ACTION_TYPE_VXLAN_ENCAP:
		return 1;
	case RTE_FLOW_ACTION_TYPE_RAW_ENCAP:
	case RTE_FLOW_ACTION_TYPE_RAW_DECAP:
	case RTE_FLOW_ACTION_TYPE_OF_POP_VLAN:
		return egress;
	default:
		return 0;
	}
}

/*
 * A rule counts as an egress rule: an egress rule, or a transfer rule on a
 * frame that did not come from the wire (the FDB's TX side, whose rules
 * the device lays out as egress rules).
 */
static int
test_dm_ref_counts_egress(const struct test_dm_ref *r, const struct test_dm_ref_rule *rule,
			  const struct test_dm_ref_pkt *pkt)
{
	if (!rule->attr.transfer)
		return rule->attr.egress;
	return pkt->src_represented == TEST_DM_REF_NO_PORT ||
	       r->cfg.role[pkt->src_represented] != TEST_DM_REF_PF;
}

int
test_dm_ref_apply(struct test_dm_ref *r, struct test_dm_ref_rule *rule,
		  struct test_dm_ref_pkt *pkt, struct test_dm_fate *fate,
		  struct test_dm_ref_verdict *v)
{
	struct test_dm_ref_exec x = { .r = r, .rule = rule, .pkt = pkt, .fate = fate, .v = v };
	/* net_mlx5dm counts where the device does, not where COUNT is in the list. */
	int device = r->cfg.limits == TEST_DM_REF_LIMITS_MLX5DM && rule->counted;
	int egress = test_dm_ref_counts_egress(r, rule, pkt);
	int after_push = device && test_dm_ref_counts_after_push(rule, egress);
	const struct rte_flow_action *a;
	const struct test_dm_act_desc *d;
	int ret;

	memset(v, 0, sizeof(*v));
	for (a = rule->actions; a->type != RTE_FLOW_ACTION_TYPE_END; a++) {
		d = test_dm_act_get(a->type);
		if (d == NULL)
			return -ENOTSUP;
		if (device && test_dm_ref_counts_before(egress, a, after_push)) {
			test_dm_act_count(&x, a);
			device = 0;
		}
		if (a->type == RTE_FLOW_ACTION_TYPE_COUNT && device)
			continue;
		ret = d->fn(&x, a);
		if (ret < 0)
			return ret;
	}
	if (device)
		test_dm_act_count(&x, a);
	return 0;
}

/* ---- validation ---- */

static uint32_t
test_dm_pattern_layers(const struct rte_flow_item *pattern)
{
	uint32_t layers = 0;
	enum test_dm_layer l;

	for (; pattern->type != RTE_FLOW_ITEM_TYPE_END; pattern++) {
		l = test_dm_flow_item_layer(pattern->type);
		if (l != TEST_DM_L_COUNT)
			layers |= TEST_DM_NEED(l);
	}
	return layers;
}

/* VXLAN_ENCAP's definition: eth / [vlan] / ipv4|ipv6 / udp / vxlan, all with a spec. */
static int
test_dm_vxlan_def_ok(const struct rte_flow_item *it)
{
	static const enum rte_flow_item_type want[] = {
		RTE_FLOW_ITEM_TYPE_ETH, RTE_FLOW_ITEM_TYPE_VLAN, RTE_FLOW_ITEM_TYPE_IPV4,
		RTE_FLOW_ITEM_TYPE_UDP, RTE_FLOW_ITEM_TYPE_VXLAN, RTE_FLOW_ITEM_TYPE_END,
	};
	unsigned int w = 0;

	if (it == NULL)
		return 0;
	for (;; it++) {
		enum rte_flow_item_type t = it->type;

		if (t == RTE_FLOW_ITEM_TYPE_VOID)
			continue;
		if (t == RTE_FLOW_ITEM_TYPE_IPV6)
			t = RTE_FLOW_ITEM_TYPE_IPV4;
		/* VLAN is optional. */
		if (w == 1 && t != RTE_FLOW_ITEM_TYPE_VLAN)
			w++;
		if (w >= RTE_DIM(want) || t != want[w])
			return 0;
		if (t == RTE_FLOW_ITEM_TYPE_END)
			return 1;
		if (it->spec == NULL)
			return 0;
		w++;
	}
}

static int
test_dm_conf_check(const struct test_dm_ref *r, const struct rte_flow_attr *attr,
		   const struct rte_flow_action *a, struct rte_flow_error *e)
{
	const char *why = NULL;
	unsigned int i;

	switch (a->type) {
	case RTE_FLOW_ACTION_TYPE_QUEUE:
		if (((const struct rte_flow_action_queue *)a->conf)->index >= r->cfg.nb_rxq)
			why = "queue index out of range";
		break;
	case RTE_FLOW_ACTION_TYPE_RSS: {
		const struct rte_flow_action_rss *c = a->conf;

		if (c->queue_num == 0 || c->queue == NULL)
			why = "RSS without queues";
		for (i = 0; why == NULL && i < c->queue_num; i++)
			if (c->queue[i] >= r->cfg.nb_rxq)
				why = "RSS queue index out of range";
		break;
	}
	case RTE_FLOW_ACTION_TYPE_JUMP:
		if (((const struct rte_flow_action_jump *)a->conf)->group == attr->group)
			why = "jump to the rule's own group";
		break;
	case RTE_FLOW_ACTION_TYPE_SET_TAG:
		if (((const struct rte_flow_action_set_tag *)a->conf)->index >= TEST_DM_REF_TAGS)
			why = "tag index out of range";
		break;
	case RTE_FLOW_ACTION_TYPE_SET_IPV4_DSCP:
		if (((const struct rte_flow_action_set_dscp *)a->conf)->dscp > 63)
			why = "DSCP larger than 6 bits";
		break;
	case RTE_FLOW_ACTION_TYPE_OF_PUSH_VLAN: {
		uint16_t et = rte_be_to_cpu_16(
			((const struct rte_flow_action_of_push_vlan *)a->conf)->ethertype);

		if (et != RTE_ETHER_TYPE_VLAN && et != RTE_ETHER_TYPE_QINQ)
			why = "pushed VLAN EtherType is neither 0x8100 nor 0x88a8";
		break;
	}
	case RTE_FLOW_ACTION_TYPE_OF_SET_VLAN_VID:
		if (rte_be_to_cpu_16(((const struct rte_flow_action_of_set_vlan_vid *)
				      a->conf)->vlan_vid) > 0xfff)
			why = "VLAN ID larger than 12 bits";
		break;
	case RTE_FLOW_ACTION_TYPE_OF_SET_VLAN_PCP:
		if (((const struct rte_flow_action_of_set_vlan_pcp *)a->conf)->vlan_pcp > 7)
			why = "VLAN PCP larger than 3 bits";
		break;
	case RTE_FLOW_ACTION_TYPE_RAW_ENCAP:
		if (((const struct rte_flow_action_raw_encap *)a->conf)->size == 0)
			why = "empty encapsulation data";
		break;
	case RTE_FLOW_ACTION_TYPE_RAW_DECAP:
		if (((const struct rte_flow_action_raw_decap *)a->conf)->size == 0)
			why = "empty decapsulation size";
		break;
	case RTE_FLOW_ACTION_TYPE_VXLAN_ENCAP:
		if (!test_dm_vxlan_def_ok(((const struct rte_flow_action_vxlan_encap *)
					   a->conf)->definition))
			why = "VXLAN definition is not eth / [vlan] / ipv4|ipv6 / udp / vxlan";
		break;
	case RTE_FLOW_ACTION_TYPE_MODIFY_FIELD:
		return test_dm_ref_modify_check(a->conf, e);
	case RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT:
	case RTE_FLOW_ACTION_TYPE_PORT_REPRESENTOR:
	case RTE_FLOW_ACTION_TYPE_PORT_ID: {
		uint32_t port = a->type == RTE_FLOW_ACTION_TYPE_PORT_ID ?
			((const struct rte_flow_action_port_id *)a->conf)->id :
			((const struct rte_flow_action_ethdev *)a->conf)->port_id;

		if (test_dm_ref_switch_port(r, port, e, RTE_FLOW_ERROR_TYPE_ACTION_CONF, a) < 0)
			return -EINVAL;
		if (a->type == RTE_FLOW_ACTION_TYPE_PORT_ID &&
			 ((const struct rte_flow_action_port_id *)a->conf)->original)
			why = "PORT_ID with 'original' is not supported";
		break;
	}
	default:
		break;
	}
	if (why != NULL)
		return test_dm_ref_err(e, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_CONF, a, why);
	return 0;
}

int
test_dm_ref_action_check(const struct test_dm_ref *r, const struct rte_flow_attr *attr,
			 const struct rte_flow_item *pattern,
			 const struct rte_flow_action *actions, struct rte_flow_error *e)
{
	uint32_t layers = test_dm_pattern_layers(pattern);
	const struct rte_flow_action *a;
	const struct test_dm_act_desc *d;
	unsigned int fates = 0;
	int pushed = 0, ret;

	for (a = actions; a->type != RTE_FLOW_ACTION_TYPE_END; a++) {
		d = test_dm_act_get(a->type);
		if (d == NULL)
			return test_dm_ref_err(e, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION, a,
					       "action not supported");
		if (d->needs_conf && a->conf == NULL)
			return test_dm_ref_err(e, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
					       "action needs a configuration");
		if (d->ingress_only && !attr->ingress)
			return test_dm_ref_err(e, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION, a,
					       "action only meaningful on ingress");
		if (d->needs != 0 && !(d->needs & layers))
			return test_dm_ref_err(e, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION, a,
					       "the header this action changes is not in the "
					       "pattern");
		if ((a->type == RTE_FLOW_ACTION_TYPE_OF_SET_VLAN_VID ||
		     a->type == RTE_FLOW_ACTION_TYPE_OF_SET_VLAN_PCP) && !pushed &&
		    !(layers & TEST_DM_NEED(TEST_DM_L_VLAN)))
			return test_dm_ref_err(e, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION, a,
					       "no VLAN in the pattern nor pushed before");
		if (!attr->transfer && (a->type == RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT ||
					a->type == RTE_FLOW_ACTION_TYPE_PORT_REPRESENTOR ||
					a->type == RTE_FLOW_ACTION_TYPE_PORT_ID))
			return test_dm_ref_err(e, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION, a,
					       "port actions are for transfer rules");
		pushed |= a->type == RTE_FLOW_ACTION_TYPE_OF_PUSH_VLAN;
		fates += d->fate;
		ret = test_dm_conf_check(r, attr, a, e);
		if (ret < 0)
			return ret;
	}
	if (fates > 1)
		return test_dm_ref_err(e, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION, actions,
				       "more than one fate action");
	if (fates == 0 && attr->ingress)
		return test_dm_ref_err(e, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION, actions,
				       "no fate action (queue, rss, drop or jump)");
	if (fates == 0 && attr->transfer)
		return test_dm_ref_err(e, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION, actions,
				       "no fate action (a port action, drop or jump)");
	return 0;
}
