/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Checksum maintenance after header rewrites, as the device does it: the
 * IPv4 header checksum is recomputed; TCP/UDP checksums are updated
 * incrementally (RFC 1624) for the changed 16-bit words of the L4 header
 * and of the pseudo header (IP addresses), so the payload is never read;
 * a zero UDP checksum over IPv4 means "none" and stays zero. After an
 * encapsulation the outer length fields are filled in. On receive, the
 * checksums of a delivered frame's outer headers are verified for its CQE.
 */

#include <string.h>

#include "mlx5dm_sim_engine_priv.h"
#include "mlx5dm_sim_prm.h"

uint32_t
mlx5dm_sim_csum_add(uint32_t sum, const uint8_t *buf, unsigned int len)
{
	uint64_t acc = 0;
	unsigned int i;

	/*
	 * Every frame's header and payload checks come here: eight bytes a
	 * load, summed as host-order 16-bit words and byte-swapped once
	 * folded (the ones' complement sum does not depend on byte order,
	 * RFC 1071 2.(B)).
	 */
	for (i = 0; i + 8 <= len; i += 8) {
		uint64_t v;

		memcpy(&v, buf + i, sizeof(v));
		acc += (v & 0xffffffffu) + (v >> 32);
	}
	for (; i + 2 <= len; i += 2) {
		uint16_t h;

		memcpy(&h, buf + i, sizeof(h));
		acc += h;
	}
	while (acc >> 16)
		acc = (acc & 0xffffu) + (acc >> 16);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	acc = __builtin_bswap16((uint16_t)acc);
#endif
	sum += (uint32_t)acc;
	if (len & 1)
		sum += (uint32_t)buf[len - 1] << 8;
	return sum;
}

/* The ones' complement of the folded sum: the checksum field value (0 = verifies). */
uint16_t
mlx5dm_sim_csum_fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffffu) + (sum >> 16);
	return (uint16_t)~sum;
}

static uint16_t
mlx5dm_sim_rd16(const uint8_t *b)
{
	return (uint16_t)(b[0] << 8 | b[1]);
}

static void
mlx5dm_sim_wr16(uint8_t *b, uint16_t v)
{
	b[0] = (uint8_t)(v >> 8);
	b[1] = (uint8_t)v;
}

void
mlx5dm_sim_csum_ipv4_fix(uint8_t *l3, unsigned int hlen)
{
	mlx5dm_sim_wr16(l3 + 10, 0);
	mlx5dm_sim_wr16(l3 + 10, mlx5dm_sim_csum_fold(mlx5dm_sim_csum_add(0, l3, hlen)));
}

void
mlx5dm_sim_csum_l4_adjust(uint8_t *frame, const struct mlx5dm_sim_hdrs *h,
			  const uint8_t *old, const uint8_t *cur, unsigned int len)
{
	uint8_t *csum;
	uint32_t sum;
	uint16_t res;
	unsigned int i;

	if (h->l4 == MLX5DM_SIM_NOHDR)
		return; /* no L4 header (other protocol, or a fragment) */
	if (h->l4_type == MLX5DM_SIM_L4_TCP)
		csum = frame + h->l4 + 16;
	else if (h->l4_type == MLX5DM_SIM_L4_UDP)
		csum = frame + h->l4 + 6;
	else
		return;
	if (h->l4_type == MLX5DM_SIM_L4_UDP && h->l3_type == MLX5DM_SIM_L3_IPV4 &&
	    mlx5dm_sim_rd16(csum) == 0)
		return;
	/* HC' = ~(~HC + sum(~m) + sum(m')) */
	sum = (uint16_t)~mlx5dm_sim_rd16(csum);
	for (i = 0; i + 1 < len; i += 2) {
		sum += (uint16_t)~mlx5dm_sim_rd16(old + i);
		sum += mlx5dm_sim_rd16(cur + i);
	}
	res = mlx5dm_sim_csum_fold(sum);
	if (res == 0 && h->l4_type == MLX5DM_SIM_L4_UDP)
		res = 0xffff; /* a computed UDP checksum of 0 is sent as all-ones */
	mlx5dm_sim_wr16(csum, res);
}

void
mlx5dm_sim_encap_fixup(uint8_t *frame, uint16_t len)
{
	unsigned int off = 12, nb_vlan = 0, l4 = 0;
	uint16_t et;
	uint8_t proto;

	if (len < 14)
		return;
	et = mlx5dm_sim_rd16(frame + off);
	while ((et == 0x8100 || et == 0x88a8) && nb_vlan < 2 && off + 6u <= len) {
		off += 4;
		nb_vlan++;
		et = mlx5dm_sim_rd16(frame + off);
	}
	off += 2;
	if (et == 0x0800 && off + 20u <= len && (frame[off] >> 4) == 4 &&
	    off + (frame[off] & 0xfu) * 4u <= len) {
		mlx5dm_sim_wr16(frame + off + 2, (uint16_t)(len - off));
		mlx5dm_sim_csum_ipv4_fix(frame + off, (frame[off] & 0xfu) * 4u);
		proto = frame[off + 9];
		l4 = off + (frame[off] & 0xfu) * 4u;
	} else if (et == 0x86dd && off + 40u <= len) {
		mlx5dm_sim_wr16(frame + off + 4, (uint16_t)(len - off - 40));
		proto = frame[off + 6];
		l4 = off + 40;
	} else {
		return;
	}
	if (proto == 17 && l4 + 8u <= len)
		mlx5dm_sim_wr16(frame + l4 + 4, (uint16_t)(len - l4));
}

void
mlx5dm_sim_rx_offload(const struct mlx5dm_sim_parse *p, const uint8_t *f, uint16_t len,
		      uint8_t *ok, uint8_t *hdr)
{
	const struct mlx5dm_sim_hdrs *o = &p->o;
	bool udp = o->l4_type == MLX5DM_SIM_L4_UDP;
	uint32_t l4_len, pay, sum;
	const uint8_t *l3, *l4;
	uint8_t l3_type;

	*ok = 0;
	*hdr = 0;
	if (o->l3 == MLX5DM_SIM_NOHDR || o->l3_type == MLX5DM_SIM_L3_NONE)
		return;
	l3 = f + o->l3;
	if (o->l3_type == MLX5DM_SIM_L3_IPV4) {
		l3_type = 2;
		pay = (uint32_t)(l3[2] << 8 | l3[3]);
		l4_len = pay > o->l3_len ? pay - o->l3_len : 0;
	} else {
		/* The payload length counts the extension headers too. */
		l3_type = 1;
		pay = (uint32_t)(l3[4] << 8 | l3[5]);
		l4_len = pay > o->l3_len - 40u ? pay - (o->l3_len - 40u) : 0;
	}
	if (o->l3_ok)
		*ok |= MLX5DM_SIM_CQE_L3_OK;
	*hdr = (uint8_t)((o->frag ? MLX5DM_SIM_CQE_IP_FRAG : 0) |
			 l3_type << MLX5DM_SIM_CQE_L3_SHIFT);
	/* The parser gives a fragment no L4 header. */
	if (o->l4_type != MLX5DM_SIM_L4_TCP && !udp)
		return;
	*hdr |= (uint8_t)((udp ? 2 : 1) << MLX5DM_SIM_CQE_L4_SHIFT);
	l4 = f + o->l4;
	if (l4_len == 0 || o->l4 + l4_len > len)
		return;
	/* UDP over IPv4 without a checksum: nothing to verify. */
	if (udp && l3_type == 2 && l4_len >= 8 && l4[6] == 0 && l4[7] == 0) {
		*ok |= MLX5DM_SIM_CQE_L4_OK;
		return;
	}
	/* The pseudo header: the addresses, the protocol and the L4 length. */
	if (l3_type == 2)
		sum = mlx5dm_sim_csum_add(0, l3 + 12, 8);
	else
		sum = mlx5dm_sim_csum_add(0, l3 + 8, 32);
	sum += o->proto + l4_len;
	if (mlx5dm_sim_csum_fold(mlx5dm_sim_csum_add(sum, l4, l4_len)) == 0)
		*ok |= MLX5DM_SIM_CQE_L4_OK;
}
