/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * RSS: Toeplitz against the published Microsoft RSS verification values,
 * then queue choice through a TIR with an indirection table (hash LSBs),
 * spread, non-power-of-two tables, symmetric hashing, XOR8, field
 * selection by L3/L4 type and inner-header hashing.
 */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "mlx5dm_dev.h"
#include "mlx5dm_sim_engine_priv.h"
#include "sim_test_env.h"

static const uint8_t ms_key[40] = {
	0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2, 0x41, 0x67, 0x25, 0x3d, 0x43, 0xa3,
	0x8f, 0xb0, 0xd0, 0xca, 0x2b, 0xcb, 0xae, 0x7b, 0x30, 0xb4, 0x77, 0xcb, 0x2d, 0xa3,
	0x80, 0x30, 0xf2, 0x0c, 0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01, 0xfa,
};

#define IP4(a, b, c, d) ((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (d))

/* Microsoft "Verifying the RSS Hash Calculation", IPv4 (destination, source). */
static const struct {
	uint32_t dst, src;
	uint16_t dport, sport;
	uint32_t h_ip, h_tcp;
} ms4[] = {
	{ IP4(161, 142, 100, 80), IP4(66, 9, 149, 187), 1766, 2794, 0x323e8fc2, 0x51ccc178 },
	{ IP4(65, 69, 140, 83), IP4(199, 92, 111, 2), 4739, 14230, 0xd718262a, 0xc626b0ea },
	{ IP4(12, 22, 207, 184), IP4(24, 19, 198, 95), 38024, 12898, 0xd2d0a5de, 0x5c2b394a },
	{ IP4(209, 142, 163, 6), IP4(38, 27, 205, 30), 2217, 48228, 0x82989176, 0xafc7327f },
	{ IP4(202, 188, 127, 2), IP4(153, 39, 163, 191), 1303, 44251, 0x5d1809c5, 0x10e828a2 },
};

/* ... and IPv6. */
static const struct {
	uint8_t dst[16], src[16];
	uint16_t dport, sport;
	uint32_t h_ip, h_tcp;
} ms6[] = {
	{ { 0x3f, 0xfe, 0x25, 0x01, 0x02, 0x00, 0x00, 0x03, [15] = 1 },
	  { 0x3f, 0xfe, 0x25, 0x01, 0x02, 0x00, 0x1f, 0xff, [15] = 7 },
	  1766, 2794, 0x2cc18cd5, 0x40207d3d },
	{ { 0xff, 0x02, [15] = 1 },
	  { 0x3f, 0xfe, 0x05, 0x01, 0x00, 0x08, 0, 0, 0x02, 0x60, 0x97, 0xff, 0xfe, 0x40, 0xef,
	    0xab },
	  4739, 14230, 0x0f0c461c, 0xdde51bbf },
	{ { 0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0x02, 0x00, 0xf8, 0xff, 0xfe, 0x21, 0x67, 0xcf },
	  { 0x3f, 0xfe, 0x19, 0x00, 0x45, 0x45, 0x00, 0x03, 0x02, 0x00, 0xf8, 0xff, 0xfe, 0x21,
	    0x67, 0xcf },
	  38024, 44251, 0x4b61e985, 0x02d1feef },
};

static void
put_be(uint8_t *b, uint32_t v, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		b[i] = (uint8_t)(v >> (8 * (n - 1 - i)));
}

static void
test_toeplitz_vectors(void **state)
{
	uint8_t in[36];
	unsigned int i;

	(void)state;
	for (i = 0; i < MLX5DM_ARRAY_SIZE(ms4); i++) {
		put_be(in, ms4[i].src, 4);
		put_be(in + 4, ms4[i].dst, 4);
		put_be(in + 8, ms4[i].sport, 2);
		put_be(in + 10, ms4[i].dport, 2);
		assert_int_equal(mlx5dm_sim_toeplitz(ms_key, in, 8), ms4[i].h_ip);
		assert_int_equal(mlx5dm_sim_toeplitz(ms_key, in, 12), ms4[i].h_tcp);
	}
	for (i = 0; i < MLX5DM_ARRAY_SIZE(ms6); i++) {
		memcpy(in, ms6[i].src, 16);
		memcpy(in + 16, ms6[i].dst, 16);
		put_be(in + 32, ms6[i].sport, 2);
		put_be(in + 34, ms6[i].dport, 2);
		assert_int_equal(mlx5dm_sim_toeplitz(ms_key, in, 32), ms6[i].h_ip);
		assert_int_equal(mlx5dm_sim_toeplitz(ms_key, in, 36), ms6[i].h_tcp);
	}
}

#define TIRN 20

/* RX: anchor -> TIR 20 with an indirection table of rqns 0x300 + i. */
static void
rss_setup(struct env *e, const struct mlx5dm_sim_tir_info *ti)
{
	unsigned int i;

	fake_terminal_add(e->sim, TIR_ADDR(TIRN), MLX5DM_SIM_TERM_TIR, TIRN);
	fake_tir_add(e->sim, TIRN, ti);
	for (i = 0; i < ti->nb_rqs; i++)
		fake_rq_add(e->sim, ti->rqns[i], FAKE_RQ_DEPTH, true);
	fake_root_set(e->sim, MLX5DM_SIM_DIR_RX, STE(0));
	t_ste_put_hit(e->sim, STE(0), GVMI(TIR_ADDR(TIRN)), 1, 0x000f, 0);
}

static struct mlx5dm_sim_tir_info
rss_tir(uint32_t nb, uint32_t fields, bool udp)
{
	struct mlx5dm_sim_tir_info ti = {
		.indirect = true, .nb_rqs = nb, .toeplitz = true, .fields = fields, .l4_udp = udp,
	};
	uint32_t i;

	memcpy(ti.key, ms_key, sizeof(ms_key));
	for (i = 0; i < nb; i++)
		ti.rqns[i] = 0x300 + i;
	return ti;
}

#define ALL (MLX5DM_SIM_HASH_SRC_IP | MLX5DM_SIM_HASH_DST_IP | MLX5DM_SIM_HASH_L4_SPORT | \
	     MLX5DM_SIM_HASH_L4_DPORT)

static struct mlx5dm_sim_pkt *
tcp4(struct tpkt *t, uint32_t src, uint32_t dst, uint16_t sport, uint16_t dport)
{
	tp_init(t);
	tp_eth(t, 1, 2, 0x0800);
	tp_ipv4(t, src, dst, 6, 64, 0);
	tp_tcp(t, sport, dport, 1, 2, 0x10);
	return tp_finish(t);
}

/* Send one frame; returns the table slot (0x300 + i) that received it and its hash. */
static unsigned int
send_rss(struct env *e, struct mlx5dm_sim_pkt *pkt, uint32_t nb, uint32_t *hash)
{
	unsigned int before[256], i, q = UINT32_MAX;
	const struct fake_rx *rx;

	for (i = 0; i < nb; i++)
		before[i] = fake_rq_count(e->sim, 0x300 + i);
	assert_int_equal(env_send(e, pkt), MLX5DM_SIM_PKT_DELIVERED);
	for (i = 0; i < nb; i++) {
		if (fake_rq_count(e->sim, 0x300 + i) == before[i])
			continue;
		assert_int_equal(fake_rq_count(e->sim, 0x300 + i), before[i] + 1);
		assert_int_equal(q, UINT32_MAX);
		q = i;
	}
	assert_int_not_equal(q, UINT32_MAX);
	rx = fake_rq_get(e->sim, 0x300 + q, before[q]);
	assert_int_equal(rx->pkt.flags & MLX5DM_SIM_PKT_F_RSS_HASH, MLX5DM_SIM_PKT_F_RSS_HASH);
	*hash = rx->pkt.rss_hash;
	return q;
}

static void
test_rss_ms_vectors_through_tir(void **state)
{
	struct env *e = *state;
	struct mlx5dm_sim_tir_info ti = rss_tir(8, ALL, false);
	unsigned int i, q;
	uint32_t h;
	struct tpkt t;

	rss_setup(e, &ti);
	for (i = 0; i < MLX5DM_ARRAY_SIZE(ms4); i++) {
		q = send_rss(e, tcp4(&t, ms4[i].src, ms4[i].dst, ms4[i].sport, ms4[i].dport), 8,
			     &h);
		assert_int_equal(h, ms4[i].h_tcp);
		/* The RQT entry is the hash's low bits. */
		assert_int_equal(q, ms4[i].h_tcp & 7);
	}
}

/* An independent Toeplitz: bit i of the input selects key bits i..i+31. */
static uint32_t
ref_toeplitz(const uint8_t *key, const uint8_t *in, unsigned int len)
{
	uint32_t r = 0;
	unsigned int i, k;

	for (i = 0; i < len * 8; i++) {
		uint32_t w = 0;

		if (!(in[i / 8] & (0x80 >> (i % 8))))
			continue;
		for (k = 0; k < 32; k++) {
			unsigned int b = i + k;

			w = w << 1 | (b < 320 ? (key[b / 8] >> (7 - b % 8)) & 1u : 0);
		}
		r ^= w;
	}
	return r;
}

static void
test_rss_spread(void **state)
{
	struct env *e = *state;
	struct mlx5dm_sim_tir_info ti = rss_tir(4, ALL, false);
	unsigned int i, q, total = 0;
	uint8_t in[12];
	uint32_t h;
	struct tpkt t;

	rss_setup(e, &ti);
	for (i = 0; i < 128; i++) {
		uint16_t sport = (uint16_t)(10000 + 7 * i);

		put_be(in, 0x0a000001, 4);
		put_be(in + 4, 0x0a000002, 4);
		put_be(in + 8, sport, 2);
		put_be(in + 10, 80, 2);
		q = send_rss(e, tcp4(&t, 0x0a000001, 0x0a000002, sport, 80), 4, &h);
		assert_int_equal(q, ref_toeplitz(ms_key, in, 12) & 3);
		assert_int_equal(h, ref_toeplitz(ms_key, in, 12));
	}
	for (i = 0; i < 4; i++) {
		assert_true(fake_rq_count(e->sim, 0x300 + i) >= 16);
		total += fake_rq_count(e->sim, 0x300 + i);
	}
	assert_int_equal(total, 128);
}

/* A 3-entry table behaves as the 4-entry power-of-two table software would fill. */
static void
test_rss_non_pow2(void **state)
{
	struct env *e = *state;
	struct mlx5dm_sim_tir_info ti = rss_tir(3, ALL, false);
	unsigned int i, q;
	uint32_t h;
	struct tpkt t;

	rss_setup(e, &ti);
	for (i = 0; i < 32; i++) {
		q = send_rss(e, tcp4(&t, 0x0a000001, 0x0a000002, (uint16_t)(2000 + i), 80), 3, &h);
		assert_int_equal(q, (h & 3) % 3);
	}
}

static void
test_rss_symmetric_and_fields(void **state)
{
	struct env *e = *state;
	struct mlx5dm_sim_tir_info ti = rss_tir(8, ALL, false);
	uint32_t h1, h2;
	uint8_t in[8];
	struct tpkt t;

	ti.symmetric = true;
	rss_setup(e, &ti);
	send_rss(e, tcp4(&t, 0x0a000001, 0x0a000002, 1234, 80), 8, &h1);
	send_rss(e, tcp4(&t, 0x0a000002, 0x0a000001, 80, 1234), 8, &h2);
	assert_int_equal(h1, h2);

	/* A UDP-selecting TIR hashes a TCP packet on its addresses only. */
	fake_destroy(e->sim);
	e->sim = fake_create();
	e->engine = fake_engine(e->sim);
	fake_icm_map(e->sim, FAKE_STE_BASE, 1u << 16);
	ti = rss_tir(8, ALL, true);
	rss_setup(e, &ti);
	send_rss(e, tcp4(&t, ms4[0].src, ms4[0].dst, ms4[0].sport, ms4[0].dport), 8, &h1);
	assert_int_equal(h1, ms4[0].h_ip);
	/* Destination address only. */
	fake_destroy(e->sim);
	e->sim = fake_create();
	e->engine = fake_engine(e->sim);
	fake_icm_map(e->sim, FAKE_STE_BASE, 1u << 16);
	ti = rss_tir(8, MLX5DM_SIM_HASH_DST_IP, false);
	rss_setup(e, &ti);
	send_rss(e, tcp4(&t, ms4[0].src, ms4[0].dst, ms4[0].sport, ms4[0].dport), 8, &h1);
	put_be(in, ms4[0].dst, 4);
	assert_int_equal(h1, ref_toeplitz(ms_key, in, 4));
	/* An IPv6-selecting TIR gets nothing to hash from an IPv4 packet. */
	fake_destroy(e->sim);
	e->sim = fake_create();
	e->engine = fake_engine(e->sim);
	fake_icm_map(e->sim, FAKE_STE_BASE, 1u << 16);
	ti = rss_tir(8, ALL, false);
	ti.l3_ipv6 = 1;
	rss_setup(e, &ti);
	assert_int_equal(send_rss(e, tcp4(&t, ms4[0].src, ms4[0].dst, ms4[0].sport,
					  ms4[0].dport), 8, &h1), 0);
	assert_int_equal(h1, 0);
}

static void
test_rss_xor8_and_inner(void **state)
{
	struct env *e = *state;
	struct mlx5dm_sim_tir_info ti = rss_tir(4, ALL, false);
	uint8_t in[12];
	uint32_t h;
	struct tpkt t;

	ti.toeplitz = false;
	ti.inner = true;
	rss_setup(e, &ti);
	/* VXLAN: the hash covers the inner IPv4/TCP 4-tuple. */
	tp_init(&t);
	tp_eth(&t, 1, 2, 0x0800);
	tp_ipv4(&t, 0x01010101, 0x02020202, 17, 64, 0);
	tp_udp(&t, 5, 4789, false);
	tp_u32(&t, 0x08000000);
	tp_u32(&t, 0x00000100);
	tp_eth(&t, 3, 4, 0x0800);
	tp_ipv4(&t, 0xc0a80001, 0xc0a80102, 6, 64, 0);
	tp_tcp(&t, 0x1234, 0x5678, 1, 2, 0x10);
	send_rss(e, tp_finish(&t), 4, &h);
	put_be(in, 0xc0a80001, 4);
	put_be(in + 4, 0xc0a80102, 4);
	put_be(in + 8, 0x1234, 2);
	put_be(in + 10, 0x5678, 2);
	/* XOR8 of those 12 bytes */
	assert_int_equal(h, in[0] ^ in[1] ^ in[2] ^ in[3] ^ in[4] ^ in[5] ^ in[6] ^ in[7] ^ in[8] ^
			 in[9] ^ in[10] ^ in[11]);
	assert_int_equal(h, 0x0a); /* c0^a8^00^01^c0^a8^01^02^12^34^56^78 */
}

/* A direct TIR delivers to its RQ without a hash. */
static void
test_direct_tir(void **state)
{
	struct env *e = *state;
	const struct fake_rx *rx;
	struct tpkt t;

	fake_root_set(e->sim, MLX5DM_SIM_DIR_RX, STE(0));
	t_ste_put_hit(e->sim, STE(0), GVMI(TIR_ADDR(5)), 1, 0x000f, 0);
	env_send(e, tcp4(&t, 1, 2, 3, 4));
	rx = env_last_rx(e, 5);
	assert_non_null(rx);
	assert_int_equal(rx->pkt.flags & MLX5DM_SIM_PKT_F_RSS_HASH, 0);
}

#define T(f) cmocka_unit_test_setup_teardown(f, env_setup, env_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_toeplitz_vectors),
		T(test_rss_ms_vectors_through_tir),
		T(test_rss_spread),
		T(test_rss_non_pow2),
		T(test_rss_symmetric_and_fields),
		T(test_rss_xor8_and_inner),
		T(test_direct_tir),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
