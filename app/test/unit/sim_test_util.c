/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Test helpers (see sim_test_util.h). Bit offsets below are read off
 * rdma-core's mlx5_ifc.h: ste_match_bwc_v1 / ste_mask_and_match_v1 and
 * the v1 actions.
 */

#include <stdlib.h>
#include <string.h>

#include "sim_test_util.h"

/* Fields as (bit, width, value) at the offsets of mlx5_ifc.h (STE, actions). */
struct t_fld {
	uint16_t bit;
	uint8_t width;
	uint32_t val;
};

static void
t_put(uint8_t *a, const struct t_fld *f, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		mlx5dm_prm_set(a, f[i].bit, f[i].width, f[i].val);
}

#define T_PUT(a, ...) t_put((a), (const struct t_fld[]){ __VA_ARGS__ }, \
	sizeof((const struct t_fld[]){ __VA_ARGS__ }) / sizeof(struct t_fld))

void
t_ste_init(struct t_ste *s, uint16_t lu)
{
	memset(s, 0, sizeof(*s));
	s->fmt = (uint8_t)(lu >> 8);
	s->ctx = (uint8_t)lu;
	s->next_lu = 0x000f;
}

void
t_ste_image(const struct t_ste *s, uint8_t out[64])
{
	uint64_t miss_idx = (s->miss & 0xffffffffffull) >> 6;
	uint64_t hit_idx = 0;

	if (s->hit_size != 0)
		hit_idx = ((s->hit & 0xffffffffffull) >> 5) | s->hit_size;
	memset(out, 0, 64);
	T_PUT(out,
	      { 0x000, 8, s->fmt },                         /* entry_format */
	      { 0x008, 24, s->counter },                    /* counter_id */
	      { 0x020, 16, (uint32_t)(s->miss >> 48) },     /* miss_address_63_48 */
	      { 0x030, 8, s->ctx },                         /* match_definer_ctx_idx */
	      { 0x038, 8, (uint32_t)(miss_idx >> 26) },     /* miss_address_39_32 */
	      { 0x040, 26, (uint32_t)miss_idx },            /* miss_address_31_6 */
	      { 0x05c, 1, s->reparse },                     /* reparse */
	      { 0x060, 16, (uint32_t)(s->hit >> 48) },      /* next_table_base_63_48 */
	      { 0x070, 8, s->next_lu & 0xffu },             /* hash_definer_ctx_idx */
	      { 0x078, 8, (uint32_t)(hit_idx >> 27) },      /* next_table_base_39_32_size */
	      { 0x080, 27, (uint32_t)hit_idx });            /* next_table_base_31_5_size */
	if (s->fmt <= 1) {
		T_PUT(out, { 0x0a0, 16, s->byte_mask },         /* byte_mask */
		      { 0x0b0, 1, s->next_lu >> 8u },            /* next_entry_format */
		      { 0x0b2, 14, FAKE_VHCA });                 /* gvmi */
		memcpy(out + 24, s->act, 8);                      /* action (dw6..) */
		memcpy(out + 32, s->mask, 16);                    /* HW image: mask, then tag */
		memcpy(out + 48, s->tag, 16);
	} else if (s->fmt <= 3) {
		memcpy(out + 20, s->act, 12);                     /* action (dw5..) */
		memcpy(out + 32, s->mask, 16);
		memcpy(out + 48, s->tag, 16);
	} else {
		memcpy(out + 20, s->act, 12);
		memcpy(out + 32, s->tag, 32);                     /* definer tag */
	}
}

void
t_ste_put(struct mlx5dm_sim *sim, uint64_t addr, const struct t_ste *s)
{
	uint8_t img[64];

	t_ste_image(s, img);
	fake_icm_write(sim, addr, img, sizeof(img));
}

void
t_ste_put_hit(struct mlx5dm_sim *sim, uint64_t addr, uint64_t next, uint32_t size,
	      uint16_t next_lu, uint16_t byte_mask)
{
	struct t_ste s;

	t_ste_init(&s, 0x000f);
	s.hit = next;
	s.hit_size = size;
	s.next_lu = next_lu;
	s.byte_mask = byte_mask;
	t_ste_put(sim, addr, &s);
}

void
t_ste_put_miss(struct mlx5dm_sim *sim, uint64_t addr, uint16_t lu, uint64_t miss)
{
	struct t_ste s;

	t_ste_init(&s, lu);
	s.miss = miss;
	s.tag[0] = 0xdc; /* with a zero mask byte 0 nothing can match */
	t_ste_put(sim, addr, &s);
}

uint32_t
t_crc_bswap(const uint8_t *buf, unsigned int len)
{
	uint32_t crc = 0;
	unsigned int i, k;

	for (i = 0; i < len; i++) {
		crc ^= buf[i];
		for (k = 0; k < 8; k++)
			crc = (crc & 1) ? (crc >> 1) ^ 0xedb88320u : crc >> 1;
	}
	return ((crc & 0xff) << 24) | ((crc & 0xff00) << 8) | ((crc >> 8) & 0xff00) | (crc >> 24);
}

uint32_t
t_slot(const uint8_t tag[16], uint16_t byte_mask, uint32_t size)
{
	uint8_t buf[16];
	unsigned int i;

	for (i = 0; i < 16; i++)
		buf[i] = (byte_mask >> (15 - i)) & 1 ? tag[i] : 0;
	return t_crc_bswap(buf, 16) % size;
}

uint16_t
t_byte_mask(const uint8_t mask[16])
{
	uint16_t bm = 0;
	unsigned int i;

	for (i = 0; i < 16; i++)
		if (mask[i] == 0xff)
			bm |= (uint16_t)(1u << (15 - i));
	return bm;
}

void
t_act_flow_tag(uint8_t *a, uint32_t tag)
{
	T_PUT(a, { 0x000, 8, 0x0c }, { 0x008, 24, tag });
}

/* SET/ADD/COPY: shifters carry the bit position + 0x20. */
static void
t_act_mod(uint8_t *a, uint8_t id, uint8_t dw, unsigned int pos, unsigned int len,
	  uint32_t data)
{
	T_PUT(a, { 0x000, 8, id }, { 0x008, 8, dw }, { 0x012, 6, pos + 0x20 }, { 0x01a, 6, len },
	      { 0x020, 32, data });
}

void
t_act_set(uint8_t *a, uint8_t dw, unsigned int pos, unsigned int len, uint32_t data)
{
	t_act_mod(a, 0x06, dw, pos, len, data);
}

void
t_act_add(uint8_t *a, uint8_t dw, unsigned int pos, unsigned int len, uint32_t data)
{
	t_act_mod(a, 0x07, dw, pos, len, data);
}

void
t_act_copy(uint8_t *a, uint8_t dst, unsigned int dpos, unsigned int len, uint8_t src,
	   unsigned int spos)
{
	t_act_mod(a, 0x05, dst, dpos, len, 0);
	T_PUT(a, { 0x028, 8, src }, { 0x032, 6, spos + 0x20 });
}

void
t_act_modify_list(uint8_t *a, unsigned int n, uint16_t line)
{
	T_PUT(a, { 0x000, 8, 0x0f }, { 0x008, 8, n }, { 0x010, 16, line });
}

void
t_act_accel_list(uint8_t *a, uint32_t pattern, unsigned int n, uint32_t arg)
{
	T_PUT(a, { 0x000, 8, 0x0e }, { 0x008, 24, pattern }, { 0x020, 8, n }, { 0x028, 24, arg });
}

void
t_act_remove_hdr(uint8_t *a, unsigned int start, unsigned int end, bool decap)
{
	/* decap also sets vni_to_cqe (0x01d), as rdma-core does */
	T_PUT(a, { 0x000, 8, 0x09 }, { 0x00a, 6, start }, { 0x012, 6, end }, { 0x01c, 1, decap },
	      { 0x01d, 1, decap });
}

void
t_act_remove_size(uint8_t *a, unsigned int anchor, unsigned int off_words,
		  unsigned int size_words)
{
	T_PUT(a, { 0x000, 8, 0x08 }, { 0x00a, 6, anchor }, { 0x012, 7, off_words },
	      { 0x01a, 6, size_words });
}

void
t_act_insert_inline(uint8_t *a, unsigned int anchor, unsigned int off_words, uint32_t data)
{
	T_PUT(a, { 0x000, 8, 0x0a }, { 0x00a, 6, anchor }, { 0x010, 7, off_words },
	      { 0x020, 32, data });
}

void
t_act_insert_ptr(uint8_t *a, unsigned int anchor, unsigned int off_words,
		 unsigned int size_words, unsigned int attr, uint32_t ptr)
{
	T_PUT(a, { 0x000, 8, 0x0b }, { 0x00a, 6, anchor }, { 0x010, 7, off_words },
	      { 0x017, 6, size_words }, { 0x01d, 3, attr }, { 0x020, 32, ptr });
}

/* ---- frames ---- */

void
tp_init(struct tpkt *t)
{
	memset(t, 0, sizeof(*t));
}

void
tp_bytes(struct tpkt *t, const void *b, unsigned int n)
{
	if (t->len + n > TP_MAX)
		abort();
	memcpy(t->mem + TP_HEAD + t->len, b, n);
	t->len += n;
}

void
tp_u16(struct tpkt *t, uint16_t v)
{
	uint8_t b[2] = { (uint8_t)(v >> 8), (uint8_t)v };

	tp_bytes(t, b, 2);
}

void
tp_u32(struct tpkt *t, uint32_t v)
{
	tp_u16(t, (uint16_t)(v >> 16));
	tp_u16(t, (uint16_t)v);
}

static void
tp_mac(struct tpkt *t, uint64_t mac)
{
	tp_u16(t, (uint16_t)(mac >> 32));
	tp_u32(t, (uint32_t)mac);
}

void
tp_eth(struct tpkt *t, uint64_t dmac, uint64_t smac, uint16_t et)
{
	tp_mac(t, dmac);
	tp_mac(t, smac);
	tp_u16(t, et);
}

void
tp_vlan(struct tpkt *t, uint16_t tci, uint16_t next_et)
{
	tp_u16(t, tci);
	tp_u16(t, next_et);
}

static void
tp_fix(struct tpkt *t, uint8_t kind, bool csum)
{
	int ip = -1;
	unsigned int i;

	for (i = 0; i < t->nb_fix; i++)
		if (t->fix[i].kind == 4 || t->fix[i].kind == 6)
			ip = (int)i;
	t->fix[t->nb_fix].kind = kind;
	t->fix[t->nb_fix].off = t->len;
	t->fix[t->nb_fix].ip = ip;
	t->fix[t->nb_fix].csum = csum;
	t->nb_fix++;
}

void
tp_ipv4(struct tpkt *t, uint32_t src, uint32_t dst, uint8_t proto, uint8_t ttl, uint8_t tos)
{
	tp_fix(t, 4, true);
	tp_u16(t, (uint16_t)(0x4500 | tos));
	tp_u16(t, 0);          /* total length: tp_finish */
	tp_u16(t, 0x1234);     /* id */
	tp_u16(t, 0x4000);     /* DF */
	tp_u16(t, (uint16_t)(ttl << 8 | proto));
	tp_u16(t, 0);          /* checksum: tp_finish */
	tp_u32(t, src);
	tp_u32(t, dst);
}

void
tp_ipv6(struct tpkt *t, const uint8_t src[16], const uint8_t dst[16], uint8_t nh,
	uint8_t hop_limit)
{
	tp_fix(t, 6, true);
	tp_u32(t, 0x60012345); /* version 6, traffic class 0x00, flow label 0x12345 */
	tp_u16(t, 0);          /* payload length: tp_finish */
	tp_u16(t, (uint16_t)(nh << 8 | hop_limit));
	tp_bytes(t, src, 16);
	tp_bytes(t, dst, 16);
}

void
tp_udp(struct tpkt *t, uint16_t sport, uint16_t dport, bool csum)
{
	tp_fix(t, 17, csum);
	tp_u16(t, sport);
	tp_u16(t, dport);
	tp_u32(t, 0);
}

void
tp_tcp(struct tpkt *t, uint16_t sport, uint16_t dport, uint32_t seq, uint32_t ack,
       uint16_t flags)
{
	tp_fix(t, 106, true);
	tp_u16(t, sport);
	tp_u16(t, dport);
	tp_u32(t, seq);
	tp_u32(t, ack);
	tp_u16(t, (uint16_t)(0x5000 | flags)); /* data offset 5 */
	tp_u16(t, 0x2000);                    /* window */
	tp_u16(t, 0);                         /* checksum: tp_finish */
	tp_u16(t, 0);                         /* urgent */
}

void
tp_payload(struct tpkt *t, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		uint8_t b = (uint8_t)(0xa0 + i);

		tp_bytes(t, &b, 1);
	}
}

static uint32_t
t_sum(uint32_t s, const uint8_t *b, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		s += (i & 1) ? b[i] : (uint32_t)b[i] << 8;
	return s;
}

static uint16_t
t_fold(uint32_t s)
{
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t)~s;
}

/* Sum of the pseudo header of ip (v4 or v6) for an L4 segment. */
static uint32_t
t_pseudo(const uint8_t *ip, unsigned int l4_len, uint8_t proto)
{
	uint32_t s = proto + l4_len;

	if ((ip[0] >> 4) == 4)
		return t_sum(s, ip + 12, 8);
	return t_sum(s, ip + 8, 32);
}

struct mlx5dm_sim_pkt *
tp_finish(struct tpkt *t)
{
	uint8_t *f = t->mem + TP_HEAD;
	int i;

	for (i = (int)t->nb_fix - 1; i >= 0; i--) {
		unsigned int off = t->fix[i].off, n = t->len - off;
		uint8_t *h = f + off, *ip = t->fix[i].ip >= 0 ? f + t->fix[t->fix[i].ip].off : NULL;
		uint16_t c;

		switch (t->fix[i].kind) {
		case 4:
			h[2] = (uint8_t)(n >> 8);
			h[3] = (uint8_t)n;
			c = t_fold(t_sum(0, h, (h[0] & 0xfu) * 4u));
			h[10] = (uint8_t)(c >> 8);
			h[11] = (uint8_t)c;
			break;
		case 6:
			h[4] = (uint8_t)((n - 40) >> 8);
			h[5] = (uint8_t)(n - 40);
			break;
		case 17:
			h[4] = (uint8_t)(n >> 8);
			h[5] = (uint8_t)n;
			if (!t->fix[i].csum || ip == NULL)
				break;
			c = t_fold(t_sum(t_pseudo(ip, n, 17), h, n));
			if (c == 0)
				c = 0xffff;
			h[6] = (uint8_t)(c >> 8);
			h[7] = (uint8_t)c;
			break;
		default: /* TCP */
			if (ip == NULL)
				break;
			c = t_fold(t_sum(t_pseudo(ip, n, 6), h, n));
			h[16] = (uint8_t)(c >> 8);
			h[17] = (uint8_t)c;
			break;
		}
	}
	t->pkt = (struct mlx5dm_sim_pkt){
		.data = f,
		.len = (uint16_t)t->len,
		.headroom = TP_HEAD,
		.tailroom = (uint16_t)(sizeof(t->mem) - TP_HEAD - t->len),
	};
	return &t->pkt;
}

bool
t_ipv4_csum_ok(const uint8_t *ip)
{
	return t_fold(t_sum(0, ip, (ip[0] & 0xfu) * 4u)) == 0;
}

bool
t_l4_csum_ok(const uint8_t *ip, const uint8_t *l4, unsigned int l4_len, uint8_t proto)
{
	return t_fold(t_sum(t_pseudo(ip, l4_len, proto), l4, l4_len)) == 0;
}
