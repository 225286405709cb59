/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Helpers of the steering integration tests; see steer_test_env.h. The
 * frame builder is written from the protocol definitions (RFC 791/8200
 * headers, RFC 768/793 pseudo headers, RFC 1071 checksum, RFC 7348 VXLAN,
 * RFC 2784/2890 GRE, RFC 3032 MPLS): expected frames come from here, not
 * from the library's encoders.
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

static void
senv_trace_print(void *arg, const char *line)
{
	(void)arg;
	fprintf(stderr, "trace: %s\n", line);
}

struct senv *
senv_open_dev(const struct mlx5dm_dev_attr *dattr, const struct mlx5dm_ctx_attr *cattr)
{
	struct senv *e = calloc(1, sizeof(*e));
	unsigned int i;

	assert_non_null(e);
	e->dev = mlx5dm_dev_open(dattr);
	assert_non_null(e->dev);
	if (getenv("SIM_TRACE") != NULL)
		mlx5dm_sim_trace_set(mlx5dm_sim_of(e->dev), senv_trace_print, NULL);
	e->ctx = mlx5dm_ctx_open(e->dev, cattr);
	assert_non_null(e->ctx);
	assert_int_equal(mlx5dm_ctx_stats_get(e->ctx, &e->open_stats), 0);
	e->rx = mlx5dm_domain_create(e->ctx, MLX5DM_DOMAIN_NIC_RX);
	e->tx = mlx5dm_domain_create(e->ctx, MLX5DM_DOMAIN_NIC_TX);
	assert_non_null(e->rx);
	assert_non_null(e->tx);
	e->tbl = mlx5dm_table_create(e->rx, 1);
	assert_non_null(e->tbl);
	assert_int_equal(mlx5dm_domain_set_root(e->rx, e->tbl), 0);
	for (i = 0; i < SENV_NB_RQ; i++) {
		e->rq[i] = mlx5dm_rq_create(e->ctx, 10);
		assert_non_null(e->rq[i]);
		e->rqn[i] = mlx5dm_rq_number(e->rq[i]);
		e->tir[i] = mlx5dm_tir_create(e->ctx, &e->rqn[i], 1, NULL);
		assert_non_null(e->tir[i]);
		e->to_q[i] = mlx5dm_action_dest_tir(e->rx, e->tir[i]);
		assert_non_null(e->to_q[i]);
	}
	assert_int_equal(dp_open(&e->dp, e->ctx, e->dev, e->rq, SENV_NB_RQ), 0);
	return e;
}

struct senv *
senv_open_ex(const struct mlx5dm_ctx_attr *cattr, const struct mlx5dm_sim_config *cfg)
{
	struct mlx5dm_dev_attr dattr = { .transport = "sim", .config = cfg };

	return senv_open_dev(&dattr, cattr);
}

struct senv *
senv_open_cfg(uint16_t nb_queues, const struct mlx5dm_sim_config *cfg)
{
	struct mlx5dm_ctx_attr cattr = { .nb_queues = nb_queues };

	return senv_open_ex(&cattr, cfg);
}

struct senv *
senv_open(uint16_t nb_queues)
{
	return senv_open_cfg(nb_queues, NULL);
}

static void
senv_close_objs(struct senv *e)
{
	unsigned int i;

	dp_close(&e->dp);
	for (i = 0; i < SENV_NB_RQ; i++) {
		assert_int_equal(mlx5dm_action_destroy(e->to_q[i]), 0);
		assert_int_equal(mlx5dm_tir_destroy(e->tir[i]), 0);
		assert_int_equal(mlx5dm_rq_destroy(e->rq[i]), 0);
	}
	assert_int_equal(mlx5dm_domain_set_root(e->rx, NULL), 0);
	assert_int_equal(mlx5dm_table_destroy(e->tbl), 0);
}

void
senv_close_failed(struct senv *e)
{
	senv_close_objs(e);
	assert_int_equal(mlx5dm_domain_destroy(e->rx), 0);
	assert_int_equal(mlx5dm_domain_destroy(e->tx), 0);
	assert_int_equal(mlx5dm_ctx_close(e->ctx), 0);
	mlx5dm_dev_close(e->dev);
	free(e);
}

void
senv_close(struct senv *e)
{
	struct mlx5dm_ctx_stats st;
	unsigned int i;

	senv_close_objs(e);
	/* Every object is gone: the ICM in use is what the context alone holds. */
	senv_sync(e);
	st = senv_stats(e);
	assert_icm_equal(&e->open_stats, &st);
	for (i = 0; i < 4; i++)
		assert_int_equal(st.icm[i].hot_bytes, 0);
	assert_int_equal(st.tables, 0);
	assert_int_equal(st.matchers, 0);
	assert_int_equal(st.rules, 0);
	assert_int_equal(mlx5dm_domain_destroy(e->rx), 0);
	assert_int_equal(mlx5dm_domain_destroy(e->tx), 0);
	assert_int_equal(mlx5dm_ctx_close(e->ctx), 0);
	mlx5dm_dev_close(e->dev);
	free(e);
}

/* ---- frames ---- */

static void
put16(uint8_t *b, uint16_t v)
{
	b[0] = (uint8_t)(v >> 8);
	b[1] = (uint8_t)v;
}

static void
put32(uint8_t *b, uint32_t v)
{
	put16(b, (uint16_t)(v >> 16));
	put16(b + 2, (uint16_t)v);
}

static void
put_mac(uint8_t *b, uint64_t mac)
{
	unsigned int i;

	for (i = 0; i < 6; i++)
		b[i] = (uint8_t)(mac >> (40 - 8 * i));
}

void
ipv6_addr(uint8_t *a, uint32_t w0, uint32_t w1, uint32_t w2, uint32_t w3)
{
	put32(a, w0);
	put32(a + 4, w1);
	put32(a + 8, w2);
	put32(a + 12, w3);
}

static uint32_t
csum_sum(const uint8_t *buf, unsigned int len, uint32_t sum)
{
	unsigned int i;

	for (i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)buf[i] << 8 | buf[i + 1];
	if (len & 1)
		sum += (uint32_t)buf[len - 1] << 8;
	return sum;
}

uint16_t
inet_csum(const uint8_t *buf, unsigned int len, uint32_t sum)
{
	sum = csum_sum(buf, len, sum);
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

void
pkt_udp4(struct pkt *p)
{
	memset(p, 0, sizeof(*p));
	p->o.dmac = 0x020000000001ull;
	p->o.smac = 0x020000000099ull;
	p->o.l3 = 4;
	p->o.sip = 0x0a000001;
	p->o.dip = 0x0a000002;
	p->o.ttl = 64;
	p->o.proto = 17;
	p->o.ip_id = 0x1234;
	p->o.sport = 1000;
	p->o.dport = 2000;
	p->payload = 18;
}

void
pkt_udp6(struct pkt *p)
{
	pkt_udp4(p);
	p->o.l3 = 6;
	ipv6_addr(p->o.sip6, 0x20010db8, 0, 0, 1);
	ipv6_addr(p->o.dip6, 0x20010db8, 0, 0, 2);
	p->o.flow_label = 0x12345;
}

void
pkt_tcp(struct hdrs *h)
{
	h->proto = 6;
	h->tcp_flags = 0x010; /* ACK */
	h->seq = 0x11223344;
	h->ack = 0x55667788;
}

void
pkt_vxlan(struct pkt *p, uint32_t vni)
{
	p->tnl = TNL_VXLAN;
	p->vni = vni;
	p->o.udp_csum_zero = true;
	p->o.sport = 49152;
	p->in.dmac = 0x0200000000a1ull;
	p->in.smac = 0x0200000000a2ull;
	p->in.l3 = 4;
	p->in.sip = 0xc0a80001;
	p->in.dip = 0xc0a80002;
	p->in.ttl = 32;
	p->in.proto = 17;
	p->in.ip_id = 0x4321;
	p->in.sport = 3000;
	p->in.dport = 4000;
}

static unsigned int
l4_hdr_len(uint8_t proto)
{
	switch (proto) {
	case 6:
		return 20;
	case 17:
	case 1:
	case 58:
		return 8;
	default:
		return 0; /* payload (or a tunnel) right after the IP header */
	}
}

static uint16_t
l2_ethertype(const struct hdrs *h)
{
	if (h->nb_mpls)
		return 0x8847;
	if (h->l3 == 4)
		return 0x0800;
	if (h->l3 == 6)
		return 0x86dd;
	return h->ethertype;
}

/* Pseudo-header sum (RFC 793 / RFC 8200 8.1) of an L4 segment of seg bytes. */
static uint32_t
pseudo_sum(const struct hdrs *h, uint8_t proto, unsigned int seg)
{
	uint8_t ph[40];

	if (h->l3 == 4) {
		put32(ph, h->sip);
		put32(ph + 4, h->dip);
		return csum_sum(ph, 8, 0) + proto + seg;
	}
	memcpy(ph, h->sip6, 16);
	memcpy(ph + 16, h->dip6, 16);
	return csum_sum(ph, 32, 0) + proto + seg;
}

static void
l4_build(uint8_t *l4, const struct hdrs *h, unsigned int seg)
{
	uint16_t c;

	switch (h->proto) {
	case 6:
		put16(l4, h->sport);
		put16(l4 + 2, h->dport);
		put32(l4 + 4, h->seq);
		put32(l4 + 8, h->ack);
		l4[12] = (uint8_t)(5 << 4 | ((h->tcp_flags >> 8) & 1));
		l4[13] = (uint8_t)h->tcp_flags;
		put16(l4 + 14, 0x2000);
		put16(l4 + 16, 0);
		put16(l4 + 18, 0);
		put16(l4 + 16, inet_csum(l4, seg, pseudo_sum(h, 6, seg)));
		break;
	case 17:
		put16(l4, h->sport);
		put16(l4 + 2, h->dport);
		put16(l4 + 4, (uint16_t)seg);
		put16(l4 + 6, 0);
		if (h->udp_csum_zero && h->l3 == 4)
			break;
		c = inet_csum(l4, seg, pseudo_sum(h, 17, seg));
		put16(l4 + 6, c == 0 ? 0xffff : c);
		break;
	case 1:
	case 58:
		l4[0] = h->icmp_type;
		l4[1] = h->icmp_code;
		put16(l4 + 2, 0);
		put32(l4 + 4, h->icmp_data);
		/* ICMPv6 covers a pseudo header, ICMPv4 does not. */
		put16(l4 + 2, inet_csum(l4, seg, h->l3 == 6 ? pseudo_sum(h, 58, seg) : 0));
		break;
	default:
		break;
	}
}

uint16_t
stack_build(uint8_t *out, const struct hdrs *h, const uint8_t *payload, uint16_t payload_len)
{
	unsigned int off = 0, i, l4len, seg, l3len;
	uint8_t *l3;

	if (!h->no_l2) {
		put_mac(out, h->dmac);
		put_mac(out + 6, h->smac);
		off = 12;
		for (i = 0; i < h->nb_vlan; i++, off += 4) {
			put16(out + off, h->vlan_tpid[i] != 0 ? h->vlan_tpid[i] : 0x8100);
			put16(out + off + 2, h->vlan_tci[i]);
		}
		put16(out + off, l2_ethertype(h));
		off += 2;
	}
	for (i = 0; i < h->nb_mpls; i++, off += 4)
		put32(out + off, h->mpls[i] | (i + 1u == h->nb_mpls ? 0x100u : 0));
	if (h->l3 == 0) {
		memcpy(out + off, payload, payload_len);
		return (uint16_t)(off + payload_len);
	}
	l3 = out + off;
	l3len = h->l3 == 4 ? 20 : 40;
	l4len = l4_hdr_len(h->proto);
	seg = l4len + payload_len;
	memcpy(l3 + l3len + l4len, payload, payload_len);
	if (h->l3 == 4) {
		l3[0] = 0x45;
		l3[1] = h->tos;
		put16(l3 + 2, (uint16_t)(20 + seg));
		put16(l3 + 4, h->ip_id);
		put16(l3 + 6, h->frag_off);
		l3[8] = h->ttl;
		l3[9] = h->proto;
		put16(l3 + 10, 0);
		put32(l3 + 12, h->sip);
		put32(l3 + 16, h->dip);
		put16(l3 + 10, inet_csum(l3, 20, 0));
	} else {
		put32(l3, 6u << 28 | (uint32_t)h->tos << 20 | (h->flow_label & 0xfffff));
		put16(l3 + 4, (uint16_t)seg);
		l3[6] = h->proto;
		l3[7] = h->ttl;
		memcpy(l3 + 8, h->sip6, 16);
		memcpy(l3 + 24, h->dip6, 16);
	}
	l4_build(l3 + l3len, h, seg);
	return (uint16_t)(off + l3len + seg);
}

void
frame_build(struct frame *f, const struct pkt *p)
{
	uint8_t pl[FRAME_MAX], inner[FRAME_MAX];
	struct hdrs o = p->o;
	uint16_t n, ilen;
	unsigned int i;

	for (i = 0; i < p->payload; i++)
		pl[i] = (uint8_t)(i * 31 + 7);
	memset(f, 0, sizeof(*f));
	if (p->tnl == TNL_NONE) {
		f->len = stack_build(f->b, &o, pl, p->payload);
		return;
	}
	ilen = stack_build(inner + 16, &p->in, pl, p->payload);
	if (p->tnl == TNL_VXLAN) {
		/* Flags: I (VNI valid); VNI in bytes 4..6. */
		memset(inner + 8, 0, 8);
		inner[8] = 0x08;
		put32(inner + 12, p->vni << 8);
		o.proto = 17;
		o.dport = 4789;
		n = stack_build(f->b, &o, inner + 8, (uint16_t)(8 + ilen));
	} else {
		uint16_t proto = p->gre_proto;
		unsigned int hl = p->gre_key_present ? 8 : 4;

		if (proto == 0)
			proto = !p->in.no_l2 ? 0x6558 : p->in.nb_mpls ? 0x8847 :
				p->in.l3 == 6 ? 0x86dd : 0x0800;
		put16(inner + 16 - hl, p->gre_key_present ? 0x2000 : 0);
		put16(inner + 16 - hl + 2, proto);
		if (p->gre_key_present)
			put32(inner + 12, p->gre_key);
		o.proto = 47;
		n = stack_build(f->b, &o, inner + 16 - hl, (uint16_t)(hl + ilen));
	}
	f->len = n;
}

/* ---- sending ---- */

int
senv_send_rqs(struct senv *e, const struct frame *f, const uint32_t *rqns, unsigned int nb,
	      struct rx *out)
{
	static struct dp_rx r;
	unsigned int q;
	int got;

	got = dp_send(&e->dp, f->b, f->len, &r);
	if (got == -1)
		return RX_DROPPED;
	if (got < 0)
		return got - 1;
	if (r.len > FRAME_MAX + FRAME_HEADROOM)
		return -4;
	for (q = 0; q < nb; q++) {
		if (rqns[q] != e->rqn[got])
			continue;
		if (out != NULL) {
			out->q = (int)q;
			memcpy(out->b, r.b, r.len);
			out->len = r.len;
			out->flags = (uint16_t)((r.flow_tag != 0 ? MLX5DM_SIM_PKT_F_FLOW_TAG : 0) |
						(r.has_hash ? MLX5DM_SIM_PKT_F_RSS_HASH : 0));
			out->flow_tag = r.flow_tag;
			out->rss_hash = r.rss_hash;
		}
		return (int)q;
	}
	return -5; /* delivered but on none of these RQs */
}

int
senv_send(struct senv *e, const struct frame *f, struct rx *out)
{
	int q = senv_send_rqs(e, f, e->rqn, SENV_NB_RQ, out);

	if (q < RX_DROPPED)
		fail_msg("senv_send: frame lost in the model (%d)", q);
	return q;
}

int
senv_send_pkt(struct senv *e, const struct pkt *p)
{
	struct frame f;

	frame_build(&f, p);
	return senv_send(e, &f, NULL);
}

void
rx_assert_bytes(const struct rx *out, const struct frame *want)
{
	unsigned int i;

	if (out->len == want->len && memcmp(out->b, want->b, want->len) == 0)
		return;
	fprintf(stderr, "received %u bytes, expected %u\n", out->len, want->len);
	for (i = 0; i < out->len || i < want->len; i++) {
		int g = i < out->len ? out->b[i] : -1, w = i < want->len ? want->b[i] : -1;

		if (g != w)
			fprintf(stderr, "  byte %3u: got %02x want %02x\n", i,
				(unsigned int)g & 0xff, (unsigned int)w & 0xff);
	}
	fail_msg("received frame differs from the expected one");
}

struct mlx5dm_dev_port_stats
senv_port_stats(struct senv *e)
{
	struct mlx5dm_dev_port_stats st;

	assert_int_equal(mlx5dm_sim_port_stats_get(mlx5dm_sim_of(e->dev), 0, &st), 0);
	return st;
}

/* ---- match parameters ---- */

void
mp_mac(uint8_t *p, enum mlx5dm_fte_field hi, uint64_t mac)
{
	/* The _15_0 half is declared right after the _47_16 half. */
	mlx5dm_fte_set(p, hi, (uint32_t)(mac >> 16));
	mlx5dm_fte_set(p, (enum mlx5dm_fte_field)(hi + 1), (uint32_t)(mac & 0xffff));
}

void
mp_ip6(uint8_t *p, enum mlx5dm_fte_field first, const uint8_t *a)
{
	unsigned int i;

	for (i = 0; i < 4; i++)
		mlx5dm_fte_set(p, (enum mlx5dm_fte_field)(first + i),
			       (uint32_t)a[4 * i] << 24 | (uint32_t)a[4 * i + 1] << 16 |
			       (uint32_t)a[4 * i + 2] << 8 | a[4 * i + 3]);
}

void
fkey_mask(uint8_t *m)
{
	memset(m, 0, MP_SIZE);
	mp_mac(m, MLX5DM_FTE(outer, dmac_47_16), 0xffffffffffffull);
	mp_set(m, MLX5DM_FTE(outer, ip_version), 4);
	mp_set(m, MLX5DM_FTE(outer, ip_ttl_hoplimit), 0xff);
	mp_set(m, MLX5DM_FTE(outer, src_ip_31_0), 0xffffffff);
	mp_set(m, MLX5DM_FTE(outer, dst_ip_31_0), 0xffffffff);
	mp_set(m, MLX5DM_FTE(outer, ip_protocol), 0xff);
	mp_set(m, MLX5DM_FTE(outer, udp_sport), 0xffff);
	mp_set(m, MLX5DM_FTE(outer, udp_dport), 0xffff);
	mp_set(m, MLX5DM_FTE(outer, tcp_sport), 0xffff);
	mp_set(m, MLX5DM_FTE(outer, tcp_dport), 0xffff);
}

void
fkey_value(const struct fkey *k, uint8_t *v)
{
	memset(v, 0, MP_SIZE);
	mp_mac(v, MLX5DM_FTE(outer, dmac_47_16), k->dmac);
	mp_set(v, MLX5DM_FTE(outer, ip_version), 4);
	mp_set(v, MLX5DM_FTE(outer, ip_ttl_hoplimit), k->ttl);
	mp_set(v, MLX5DM_FTE(outer, src_ip_31_0), k->sip);
	mp_set(v, MLX5DM_FTE(outer, dst_ip_31_0), k->dip);
	mp_set(v, MLX5DM_FTE(outer, ip_protocol), k->tcp ? 6 : 17);
	mp_set(v, k->tcp ? MLX5DM_FTE(outer, tcp_sport) : MLX5DM_FTE(outer, udp_sport), k->sport);
	mp_set(v, k->tcp ? MLX5DM_FTE(outer, tcp_dport) : MLX5DM_FTE(outer, udp_dport), k->dport);
}

void
fkey_frame(const struct fkey *k, struct frame *f)
{
	struct pkt p;

	pkt_udp4(&p);
	if (k->tcp)
		pkt_tcp(&p.o);
	p.o.dmac = k->dmac;
	p.o.ttl = k->ttl;
	p.o.sip = k->sip;
	p.o.dip = k->dip;
	p.o.sport = k->sport;
	p.o.dport = k->dport;
	frame_build(f, &p);
}

struct mlx5dm_matcher *
senv_matcher(struct mlx5dm_table *tbl, uint16_t prio, uint8_t criteria, const uint8_t *mask,
	     uint32_t log_hint)
{
	struct mlx5dm_matcher_attr ma = {
		.priority = prio, .criteria = criteria, .mask = mask, .log_rules_hint = log_hint,
	};
	const char *field = NULL;
	struct mlx5dm_matcher *m = mlx5dm_matcher_create(tbl, &ma, &field);

	if (m == NULL)
		fail_msg("matcher refused: errno %d field %s", errno, field ? field : "-");
	return m;
}

struct mlx5dm_rule *
senv_rule(struct mlx5dm_matcher *m, uint16_t queue, const uint8_t *value, size_t n,
	  struct mlx5dm_action *const acts[])
{
	struct mlx5dm_rule *r = mlx5dm_rule_create(m, queue, value, n, acts);

	if (r == NULL)
		fail_msg("rule refused: errno %d", errno);
	return r;
}

void
destroy_actions(struct mlx5dm_action *const a[], unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (mlx5dm_action_destroy(a[i]) != 0)
			fail_msg("action %u of %u not destroyed", i, n);
}

/* ---- modify-header actions ---- */

void
mod_set(uint8_t *a, uint16_t field, uint8_t offset, uint8_t length, uint32_t data)
{
	/* set_action_in: type[31:28] field[27:16] offset[12:8] length[4:0] | data */
	put32(a, 1u << 28 | (uint32_t)(field & 0xfff) << 16 | (uint32_t)(offset & 0x1f) << 8 |
		 (length & 0x1fu));
	put32(a + 4, data);
}

void
mod_add(uint8_t *a, uint16_t field, uint32_t data)
{
	put32(a, 2u << 28 | (uint32_t)(field & 0xfff) << 16);
	put32(a + 4, data);
}

void
mod_copy(uint8_t *a, uint16_t src, uint8_t src_off, uint16_t dst, uint8_t dst_off,
	 uint8_t length)
{
	put32(a, 3u << 28 | (uint32_t)(src & 0xfff) << 16 | (uint32_t)(src_off & 0x1f) << 8 |
		 (length & 0x1fu));
	put32(a + 4, (uint32_t)(dst & 0xfff) << 16 | (uint32_t)(dst_off & 0x1f) << 8);
}

/* ---- accounting ---- */

void
senv_sync(struct senv *e)
{
	const uint32_t all = MLX5DM_SYNC_SW | MLX5DM_SYNC_HW | MLX5DM_SYNC_MEM;

	assert_int_equal(mlx5dm_domain_sync(e->rx, all), 0);
	assert_int_equal(mlx5dm_domain_sync(e->tx, all), 0);
}

struct mlx5dm_ctx_stats
senv_stats(struct senv *e)
{
	struct mlx5dm_ctx_stats st;

	assert_int_equal(mlx5dm_ctx_stats_get(e->ctx, &st), 0);
	return st;
}

void
assert_icm_equal(const struct mlx5dm_ctx_stats *a, const struct mlx5dm_ctx_stats *b)
{
	static const char *const names[4] = {
		"STEERING", "HEADER_MODIFY", "HEADER_MODIFY_PATTERN", "ENCAP",
	};
	bool ok = true;
	unsigned int i;

	for (i = 0; i < 4; i++) {
		if (a->icm[i].used_bytes == b->icm[i].used_bytes)
			continue;
		fprintf(stderr, "ICM %s used: %llu then %llu\n", names[i],
			(unsigned long long)a->icm[i].used_bytes,
			(unsigned long long)b->icm[i].used_bytes);
		ok = false;
	}
	if (!ok)
		fail_msg("ICM usage did not return to its starting value");
}

uint64_t
rnd_next(uint64_t *s)
{
	/* xorshift64* */
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dull;
}
