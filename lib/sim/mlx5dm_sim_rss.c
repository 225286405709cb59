/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Receive-side scaling of a TIR: the hash input is the TIR's selected
 * fields of the packet in the order source IP, destination IP, source
 * port, destination port (each present only if the packet's L3/L4 type is
 * the one the TIR selects), hashed with Toeplitz (or XOR8), and the RQT
 * entry is taken from the hash's low bits: the device indexes a
 * power-of-two table, which software fills by repeating the queue list,
 * so a table of n entries behaves as entry (hash mod 2^ceil(log2 n)) mod n.
 *
 * Symmetric hashing is modelled as the common XOR form: src and dst are
 * replaced by src ^ dst (addresses and ports), so both directions of a
 * flow hash alike. [inferred: the PRM is not public on this point]
 */

#include <string.h>

#include "mlx5dm_sim_engine_priv.h"

uint32_t
mlx5dm_sim_toeplitz(const uint8_t key[40], const uint8_t *in, unsigned int len)
{
	uint64_t win = 0; /* key bits [8i, 8i + 64) while hashing input byte i */
	uint32_t r = 0;
	unsigned int i, b;

	for (i = 0; i < 8; i++)
		win = win << 8 | key[i];
	for (i = 0; i < len; i++) {
		for (b = 0; b < 8; b++) {
			if (in[i] & (0x80u >> b))
				r ^= (uint32_t)(win >> 32);
			win <<= 1;
		}
		if (i + 8 < 40)
			win |= key[i + 8];
	}
	return r;
}

static uint8_t
mlx5dm_sim_xor8(const uint8_t *in, unsigned int len)
{
	uint8_t r = 0;
	unsigned int i;

	for (i = 0; i < len; i++)
		r ^= in[i];
	return r;
}

/* The hash input; returns its length. */
static unsigned int
mlx5dm_sim_rss_input(const struct mlx5dm_sim_tir_info *tir, const struct mlx5dm_sim_parse *p,
		     uint8_t in[36])
{
	const struct mlx5dm_sim_hdrs *h = &p->o;
	unsigned int alen, aoff, n = 0, i;
	const uint8_t *src, *dst;

	if (tir->inner && p->tnl != MLX5DM_SIM_TNL_NONE && p->i.l3_type != MLX5DM_SIM_L3_NONE)
		h = &p->i;
	if (h->l3_type != (tir->l3_ipv6 ? MLX5DM_SIM_L3_IPV6 : MLX5DM_SIM_L3_IPV4))
		return 0;
	alen = h->l3_type == MLX5DM_SIM_L3_IPV6 ? 16 : 4;
	aoff = h->l3_type == MLX5DM_SIM_L3_IPV6 ? 8 : 12;
	src = p->hdr + h->l3 + aoff;
	dst = src + alen;
	for (i = 0; i < alen; i++) {
		uint8_t x = tir->symmetric ? src[i] ^ dst[i] : src[i];

		if (tir->fields & MLX5DM_SIM_HASH_SRC_IP)
			in[n + i] = x;
		if (tir->fields & MLX5DM_SIM_HASH_DST_IP)
			in[n + ((tir->fields & MLX5DM_SIM_HASH_SRC_IP) ? alen : 0) + i] =
				tir->symmetric ? x : dst[i];
	}
	n += alen * (((tir->fields & MLX5DM_SIM_HASH_SRC_IP) != 0) +
		     ((tir->fields & MLX5DM_SIM_HASH_DST_IP) != 0));
	if (h->l4_type != (tir->l4_udp ? MLX5DM_SIM_L4_UDP : MLX5DM_SIM_L4_TCP))
		return n;
	src = p->hdr + h->l4;
	dst = src + 2;
	for (i = 0; i < 2; i++) {
		uint8_t x = tir->symmetric ? src[i] ^ dst[i] : src[i];

		if (tir->fields & MLX5DM_SIM_HASH_L4_SPORT)
			in[n + i] = x;
		if (tir->fields & MLX5DM_SIM_HASH_L4_DPORT)
			in[n + ((tir->fields & MLX5DM_SIM_HASH_L4_SPORT) ? 2 : 0) + i] =
				tir->symmetric ? x : dst[i];
	}
	n += 2 * (((tir->fields & MLX5DM_SIM_HASH_L4_SPORT) != 0) +
		  ((tir->fields & MLX5DM_SIM_HASH_L4_DPORT) != 0));
	return n;
}

uint32_t
mlx5dm_sim_rss_pick(const struct mlx5dm_sim_tir_info *tir, const struct mlx5dm_sim_parse *p,
		    uint32_t *hash, bool *has_hash)
{
	uint8_t in[36];
	unsigned int n, nb;
	uint32_t h, idx;

	*has_hash = false;
	*hash = 0;
	if (!tir->indirect)
		return tir->inline_rqn;
	nb = MLX5DM_MIN(tir->nb_rqs, (uint32_t)MLX5DM_ARRAY_SIZE(tir->rqns));
	if (nb == 0)
		return UINT32_MAX; /* no queue: the caller's delivery fails with no_tir */
	n = mlx5dm_sim_rss_input(tir, p, in);
	h = tir->toeplitz ? mlx5dm_sim_toeplitz(tir->key, in, n) : mlx5dm_sim_xor8(in, n);
	idx = (h & ((1u << mlx5dm_log2_ceil(nb)) - 1)) % nb;
	*hash = h;
	*has_hash = true;
	return tir->rqns[idx];
}
