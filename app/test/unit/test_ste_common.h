/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Shared helpers of the lib/ste unit tests. Positions here are literal
 * numbers read off rdma-core's mlx5_ifc.h (fte_match_param, the ste_*_v1
 * STE, action and tag layouts), deliberately not the library's layout tables: expected bytes
 * must not come from the code under test.
 */

#ifndef _TEST_STE_COMMON_H_
#define _TEST_STE_COMMON_H_

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "mlx5dm_prm_bits.h"
#include "mlx5dm_ste.h"

/* fte_match_param sections: absolute bit of a section-relative offset. */
#define T_OUTER(b) (0x000 + (b))
#define T_MISC(b) (0x200 + (b))
#define T_INNER(b) (0x400 + (b))
#define T_MISC2(b) (0x600 + (b))
#define T_MISC3(b) (0x800 + (b))
#define T_MISC5(b) (0xc00 + (b))

/* dr_match_spec (outer / inner), section-relative bit and width. */
#define S_SMAC_47_16 0x000, 32
#define S_SMAC_15_0 0x020, 16
#define S_ETHERTYPE 0x030, 16
#define S_DMAC_47_16 0x040, 32
#define S_DMAC_15_0 0x060, 16
#define S_FIRST_PRIO 0x070, 3
#define S_FIRST_CFI 0x073, 1
#define S_FIRST_VID 0x074, 12
#define S_IP_PROTOCOL 0x080, 8
#define S_IP_DSCP 0x088, 6
#define S_IP_ECN 0x08e, 2
#define S_CVLAN_TAG 0x090, 1
#define S_SVLAN_TAG 0x091, 1
#define S_FRAG 0x092, 1
#define S_IP_VERSION 0x093, 4
#define S_TCP_FLAGS 0x097, 9
#define S_TCP_SPORT 0x0a0, 16
#define S_TCP_DPORT 0x0b0, 16
#define S_IPV4_IHL 0x0d0, 4
#define S_TTL 0x0d8, 8
#define S_UDP_SPORT 0x0e0, 16
#define S_UDP_DPORT 0x0f0, 16
#define S_SRC_IP_127_96 0x100, 32
#define S_SRC_IP_95_64 0x120, 32
#define S_SRC_IP_63_32 0x140, 32
#define S_SRC_IP_31_0 0x160, 32
#define S_DST_IP_127_96 0x180, 32
#define S_DST_IP_95_64 0x1a0, 32
#define S_DST_IP_63_32 0x1c0, 32
#define S_DST_IP_31_0 0x1e0, 32

/* dr_match_set_misc. */
#define M_GRE_C_PRESENT 0x000, 1
#define M_GRE_K_PRESENT 0x002, 1
#define M_GRE_S_PRESENT 0x003, 1
#define M_OUTER_SECOND_PRIO 0x040, 3
#define M_OUTER_SECOND_VID 0x044, 12
#define M_INNER_SECOND_VID 0x054, 12
#define M_OUTER_SECOND_CVLAN_TAG 0x060, 1
#define M_INNER_SECOND_CVLAN_TAG 0x061, 1
#define M_OUTER_SECOND_SVLAN_TAG 0x062, 1
#define M_GRE_PROTOCOL 0x070, 16
#define M_GRE_KEY_H 0x080, 24
#define M_GRE_KEY_L 0x098, 8
#define M_VXLAN_VNI 0x0a0, 24
#define M_OUTER_IPV6_FLOW_LABEL 0x0ec, 20
#define M_INNER_IPV6_FLOW_LABEL 0x10c, 20

/* dr_match_set_misc2. */
#define M2_OUTER_MPLS_LABEL 0x000, 20
#define M2_OUTER_MPLS_EXP 0x014, 3
#define M2_OUTER_MPLS_S_BOS 0x017, 1
#define M2_OUTER_MPLS_TTL 0x018, 8
#define M2_INNER_MPLS_LABEL 0x020, 20
#define M2_INNER_MPLS_TTL 0x038, 8
#define M2_REG_C_7 0x080, 32
#define M2_REG_C_6 0x0a0, 32
#define M2_REG_C_5 0x0c0, 32
#define M2_REG_C_4 0x0e0, 32
#define M2_REG_C_3 0x100, 32
#define M2_REG_C_2 0x120, 32
#define M2_REG_C_1 0x140, 32
#define M2_REG_C_0 0x160, 32
#define M2_REG_A 0x180, 32

/* dr_match_set_misc3. */
#define M3_INNER_TCP_SEQ 0x000, 32
#define M3_OUTER_TCP_SEQ 0x020, 32
#define M3_INNER_TCP_ACK 0x040, 32
#define M3_OUTER_TCP_ACK 0x060, 32
#define M3_ICMP_HDR 0x0c0, 32
#define M3_ICMPV6_HDR 0x0e0, 32
#define M3_ICMP_TYPE 0x100, 8
#define M3_ICMP_CODE 0x108, 8
#define M3_ICMPV6_TYPE 0x110, 8
#define M3_ICMPV6_CODE 0x118, 8

/* dr_match_set_misc5. */
#define M5_TUNNEL_HEADER_0 0x080, 32

/* Set a field given as (section macro, "bit, width" pair). */
#define T_PUT_(sec, b, w, buf, v) mlx5dm_prm_set64((buf), sec(b), (w), (v))
#define T_PUT(buf, sec, f, v) T_PUT_(sec, f, buf, v)

/* A field as "absolute bit, width" (for tables of cases). */
#define T_BW_(sec, b, w) sec(b), (w)
#define T_BW(sec, f) T_BW_(sec, f)

/* Criteria bits (match_criteria_enable): outer, misc, inner, misc2, misc3, misc4, misc5. */
#define C_OUTER 0x01
#define C_MISC 0x02
#define C_INNER 0x04
#define C_MISC2 0x08
#define C_MISC3 0x10
#define C_MISC5 0x40

static inline void
t_dump(const char *what, const uint8_t *b, size_t n)
{
	size_t i;

	fprintf(stderr, "%s:", what);
	for (i = 0; i < n; i++)
		fprintf(stderr, "%s%02x", i % 16 ? " " : "\n  ", b[i]);
	fprintf(stderr, "\n");
}

/* Byte compare that prints both sides on mismatch. */
static inline void
t_assert_bytes(const uint8_t *got, const uint8_t *exp, size_t n, const char *what)
{
	if (memcmp(got, exp, n) != 0) {
		fprintf(stderr, "mismatch in %s\n", what);
		t_dump("got", got, n);
		t_dump("expected", exp, n);
		fail();
	}
}

/* Test-side byte mask: bit 15 - i set iff mask byte i is 0xff. */
static inline uint16_t
t_byte_mask(const uint8_t *m)
{
	uint16_t bm = 0;
	int i;

	for (i = 0; i < 16; i++)
		if (m[i] == 0xff)
			bm |= (uint16_t)(1u << (15 - i));
	return bm;
}

static inline const struct mlx5dm_ste_ctx *
t_ctx(void)
{
	const struct mlx5dm_ste_ctx *ctx = mlx5dm_ste_ctx_get(1);

	assert_non_null(ctx);
	return ctx;
}

#endif /* _TEST_STE_COMMON_H_ */
