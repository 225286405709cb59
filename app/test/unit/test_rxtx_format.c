/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The PMD's send WQEs, receive WQEs and CQE reading against bytes written
 * here by hand from the PRM layouts, not from the code under test:
 * rdma-core providers/mlx5/mlx5dv.h (struct mlx5_wqe_ctrl_seg: opmod_idx_opcode,
 * qpn_ds, fm_ce_se at byte 11; struct mlx5_wqe_eth_seg: flow_table_metadata
 * at 8, inline_hdr_sz at 12, inline_hdr_start at 14; struct
 * mlx5_wqe_data_seg: byte_count, lkey, addr) and DPDK
 * drivers/common/mlx5/mlx5_prm.h (struct mlx5_cqe, struct mlx5_err_cqe),
 * DPDK drivers/net/mlx5/mlx5_rxtx.c (mlx5_set_ptype_table's index).
 */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "mlx5dm_rxtx.h"

#define SQN 0x1234u

static uint8_t ring[64 * 64] __attribute__((aligned(64)));
static uint8_t frame[256];

static void
frame_init(void)
{
	unsigned int i;

	for (i = 0; i < sizeof(frame); i++)
		frame[i] = (uint8_t)(0x40 + i);
}

/* Big-endian address bytes of p, as a data segment holds them. */
static void
be_addr(uint8_t *out, const void *p)
{
	uint64_t a = (uint64_t)(uintptr_t)p;
	int i;

	for (i = 0; i < 8; i++)
		out[i] = (uint8_t)(a >> (56 - 8 * i));
}

static void
assert_unit(unsigned int unit, const uint8_t *exp)
{
	if (memcmp(ring + unit * 16, exp, 16) != 0) {
		unsigned int i;

		for (i = 0; i < 16; i++)
			print_error("unit %u byte %u: 0x%02x, expected 0x%02x\n", unit, i,
				    ring[unit * 16 + i], exp[i]);
		fail();
	}
}

/*
 * One 60-byte frame, 18 header bytes inline, Tx metadata, completion
 * asked, at WQEBB 5: control, Ethernet, one unit of inline, one data
 * segment (ds 4, one WQEBB).
 */
static void
test_send_single(void **state)
{
	const struct mlx5dm_tx_seg seg = { .addr = frame, .len = 60, .lkey = 0xabcd };
	const struct mlx5dm_tx_wqe w = {
		.sqn = SQN, .metadata = 0xdeadbeef, .inline_sz = 18, .completion = true,
		.nsegs = 1, .segs = &seg,
	};
	const uint8_t ctrl[16] = { 0x00, 0x00, 0x05, 0x0a, 0x00, 0x12, 0x34, 0x04,
				   0, 0, 0, 0x08, 0, 0, 0, 0 };
	uint8_t eth[16] = { 0, 0, 0, 0, 0, 0, 0, 0, 0xde, 0xad, 0xbe, 0xef, 0x00, 18 };
	uint8_t inl[16], dseg[16] = { 0x00, 0x00, 0x00, 42, 0x00, 0x00, 0xab, 0xcd };
	uint64_t db;

	(void)state;
	frame_init();
	memset(ring, 0xee, sizeof(ring));
	eth[14] = frame[0];
	eth[15] = frame[1];
	memcpy(inl, frame + 2, 16);
	be_addr(dseg + 8, frame + 18);
	assert_int_equal(mlx5dm_tx_wqe_ds(18, 1), 4);
	assert_int_equal(mlx5dm_tx_wqe_write(ring, 6, 5, &w), 1);
	assert_unit(20, ctrl);
	assert_unit(21, eth);
	assert_unit(22, inl);
	assert_unit(23, dseg);
	/* The next WQEBB is untouched. */
	assert_int_equal(ring[24 * 16], 0xee);
	/* The doorbell carries the control segment's first 8 bytes as they lie in memory. */
	db = mlx5dm_tx_doorbell_value(ring, 6, 5);
	assert_memory_equal(&db, ctrl, 8);
}

/*
 * Three mbuf segments (10, 30, 100 bytes) in the ring's last WQEBB with
 * the 16-bit counter at 0xffff: the 18-byte header spans the first two
 * segments, the data segments start 8 bytes into the second; the WQE
 * (ds 5) wraps to the ring's first unit. No completion: fm_ce_se 0.
 */
static void
test_send_multi_wrap(void **state)
{
	const struct mlx5dm_tx_seg segs[3] = {
		{ .addr = frame, .len = 10, .lkey = 0x101 },
		{ .addr = frame + 64, .len = 30, .lkey = 0x202 },
		{ .addr = frame + 128, .len = 100, .lkey = 0x303 },
	};
	const struct mlx5dm_tx_wqe w = {
		.sqn = SQN, .inline_sz = 18, .nsegs = 3, .segs = segs,
	};
	const uint8_t ctrl[16] = { 0x00, 0xff, 0xff, 0x0a, 0x00, 0x12, 0x34, 0x05 };
	uint8_t eth[16] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x00, 18 };
	uint8_t inl[16];
	uint8_t d1[16] = { 0, 0, 0, 22, 0, 0, 0x02, 0x02 };
	uint8_t d2[16] = { 0, 0, 0, 100, 0, 0, 0x03, 0x03 };

	(void)state;
	frame_init();
	memset(ring, 0xee, sizeof(ring));
	eth[14] = frame[0];
	eth[15] = frame[1];
	memcpy(inl, frame + 2, 8);
	memcpy(inl + 8, frame + 64, 8);
	be_addr(d1 + 8, frame + 64 + 8);
	be_addr(d2 + 8, frame + 128);
	assert_int_equal(mlx5dm_tx_wqe_write(ring, 6, 0xffff, &w), 2);
	assert_unit(252, ctrl);
	assert_unit(253, eth);
	assert_unit(254, inl);
	assert_unit(255, d1);
	assert_unit(0, d2);
	assert_int_equal(ring[16], 0xee);
}

/*
 * No inline header (inline_min 0): the Ethernet segment is zero but for
 * the metadata; the empty middle segment gets no data segment (a byte
 * count of 0 would mean 2 GiB); the inline header may end inside a
 * segment at its very end.
 */
static void
test_send_no_inline_and_empty_seg(void **state)
{
	const struct mlx5dm_tx_seg segs[3] = {
		{ .addr = frame, .len = 18, .lkey = 0x1 },
		{ .addr = frame + 18, .len = 0, .lkey = 0x2 },
		{ .addr = frame + 32, .len = 40, .lkey = 0x3 },
	};
	struct mlx5dm_tx_wqe w = {
		.sqn = 0xabcdef, .metadata = 7, .inline_sz = 0, .completion = true, .nsegs = 3,
		.segs = segs,
	};
	const uint8_t ctrl[16] = { 0x00, 0x00, 0x00, 0x0a, 0xab, 0xcd, 0xef, 0x04,
				   0, 0, 0, 0x08 };
	const uint8_t eth[16] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7, 0, 0, 0, 0 };
	uint8_t d0[16] = { 0, 0, 0, 18, 0, 0, 0, 1 };
	uint8_t d2[16] = { 0, 0, 0, 40, 0, 0, 0, 3 };
	const uint8_t ctrl18[16] = { 0x00, 0x00, 0x00, 0x0a, 0xab, 0xcd, 0xef, 0x04,
				     0, 0, 0, 0x08 };

	(void)state;
	frame_init();
	memset(ring, 0xee, sizeof(ring));
	be_addr(d0 + 8, frame);
	be_addr(d2 + 8, frame + 32);
	assert_int_equal(mlx5dm_tx_wqe_write(ring, 6, 0, &w), 1);
	assert_unit(0, ctrl);
	assert_unit(1, eth);
	assert_unit(2, d0);
	assert_unit(3, d2);
	/* 18 inline bytes take the whole first segment: control, eth, inline, one dseg. */
	memset(ring, 0xee, sizeof(ring));
	w.inline_sz = 18;
	assert_int_equal(mlx5dm_tx_wqe_write(ring, 6, 0, &w), 1);
	assert_unit(0, ctrl18);
	assert_unit(2, frame + 2);
	assert_unit(3, d2);
	assert_int_equal(ring[16 + 13], 18);
}

/* Receive WQE i: byte count, lkey, address, big-endian, at 16 * i. */
static void
test_rx_wqe(void **state)
{
	const uint8_t exp[16] = { 0x00, 0x00, 0x07, 0x80, 0x11, 0x22, 0x33, 0x44,
				  0x00, 0x00, 0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc };

	(void)state;
	memset(ring, 0, sizeof(ring));
	mlx5dm_rx_wqe_write(ring, 3, 1920, 0x11223344, 0x123456789abcull);
	assert_unit(3, exp);
}

static void
cqe_clear(uint8_t *cqe)
{
	memset(cqe, 0, 64);
}

/*
 * Ownership: CQE ci of a 4-entry CQ is software's when its owner bit
 * equals bit 2 of ci and its opcode is not 0xf (invalid).
 */
static void
test_cqe_owner(void **state)
{
	uint8_t *cq = ring;

	(void)state;
	memset(cq, 0, 4 * 64);
	cq[1 * 64 + 63] = 0x20;                          /* RESP_SEND, owner 0 */
	assert_non_null(mlx5dm_cqe_get(cq, 2, 1));      /* first pass: parity 0 */
	assert_null(mlx5dm_cqe_get(cq, 2, 5));          /* second pass wants owner 1 */
	cq[1 * 64 + 63] = 0x21;
	assert_null(mlx5dm_cqe_get(cq, 2, 1));
	assert_ptr_equal(mlx5dm_cqe_get(cq, 2, 5), cq + 64);
	cq[1 * 64 + 63] = 0xf1;                          /* invalid, whatever the owner */
	assert_null(mlx5dm_cqe_get(cq, 2, 5));
	cq[1 * 64 + 63] = 0xf0;
	assert_null(mlx5dm_cqe_get(cq, 2, 1));
	cq[3 * 64 + 63] = 0x00;                          /* REQ, owner 0 */
	assert_int_equal(mlx5dm_cqe_opcode(mlx5dm_cqe_get(cq, 2, 3)), MLX5DM_CQE_REQ);
}

/* Every field the Rx burst reads from a receive completion. */
static void
test_cqe_rx_fields(void **state)
{
	uint8_t cqe[64];
	uint32_t hash = 0;

	(void)state;
	cqe_clear(cqe);
	cqe[12] = 0x12, cqe[13] = 0x34, cqe[14] = 0x56, cqe[15] = 0x78; /* rx_hash_res */
	cqe[16] = 0x2;                                                  /* rx_hash_type */
	cqe[44] = 0x00, cqe[45] = 0x00, cqe[46] = 0x05, cqe[47] = 0xdc; /* byte_cnt 1500 */
	cqe[56] = 0xff, cqe[57] = 0x00, cqe[58] = 0x00, cqe[59] = 0x2a; /* sop_drop_qpn */
	cqe[60] = 0x01, cqe[61] = 0x02;                                 /* wqe_counter */
	cqe[63] = 0x21;
	assert_int_equal(mlx5dm_cqe_opcode(cqe), MLX5DM_CQE_RESP_SEND);
	assert_int_equal(mlx5dm_cqe_byte_cnt(cqe), 1500);
	assert_int_equal(mlx5dm_cqe_flow_tag(cqe), 0x2a);
	assert_int_equal(mlx5dm_cqe_wqe_counter(cqe), 0x102);
	assert_true(mlx5dm_cqe_rss_hash(cqe, &hash));
	assert_int_equal(hash, 0x12345678);
	cqe[16] = 0;
	hash = 0;
	assert_false(mlx5dm_cqe_rss_hash(cqe, &hash));
	assert_int_equal(hash, 0);
	cqe[57] = 0xff, cqe[58] = 0xff, cqe[59] = 0xff;
	assert_int_equal(mlx5dm_cqe_flow_tag(cqe), 0xffffff);
}

/* An error completion: opcode in the high nibble, syndrome at byte 55 (struct mlx5_err_cqe). */
static void
test_cqe_error(void **state)
{
	uint8_t cqe[64];

	(void)state;
	cqe_clear(cqe);
	cqe[55] = 0x04;
	cqe[60] = 0x00, cqe[61] = 0x07;
	cqe[63] = 0xe0;
	assert_int_equal(mlx5dm_cqe_opcode(cqe), MLX5DM_CQE_RESP_ERR);
	assert_int_equal(mlx5dm_cqe_syndrome(cqe), MLX5DM_CQE_SYNDROME_LOCAL_PROT_ERR);
	assert_int_equal(mlx5dm_cqe_wqe_counter(cqe), 7);
	cqe[55] = 0x05;
	cqe[63] = 0xd1;
	assert_int_equal(mlx5dm_cqe_opcode(cqe), MLX5DM_CQE_REQ_ERR);
	assert_int_equal(mlx5dm_cqe_syndrome(cqe), MLX5DM_CQE_SYNDROME_WR_FLUSH_ERR);
}

/*
 * Packet type and checksums from pkt_info (byte 0), hds_ip_ext (28) and
 * l4_l3_hdr_type (29): the table index is DPDK's (l3 1:0, l4 4:2, frag 5,
 * tunneled 6, outer IPv6 7).
 */
static void
test_cqe_ptype_cksum(void **state)
{
	static uint32_t t[256];
	uint8_t cqe[64];

	(void)state;
	mlx5dm_ptype_table_init(t);
	cqe_clear(cqe);
	/* IPv4 TCP, both checksums verified. */
	cqe[29] = 0x18;                 /* l4_hdr_type 1 (TCP), l3_hdr_type 2 (IPv4) */
	cqe[28] = 0x06;
	assert_int_equal(mlx5dm_cqe_ptype_index(cqe), 0x06);
	assert_int_equal(t[0x06], RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV4_EXT_UNKNOWN |
			 RTE_PTYPE_L4_TCP);
	assert_int_equal(mlx5dm_cqe_cksum_flags(cqe),
			 RTE_MBUF_F_RX_IP_CKSUM_GOOD | RTE_MBUF_F_RX_L4_CKSUM_GOOD);
	/* Same, neither verifies. */
	cqe[28] = 0x00;
	assert_int_equal(mlx5dm_cqe_cksum_flags(cqe),
			 RTE_MBUF_F_RX_IP_CKSUM_BAD | RTE_MBUF_F_RX_L4_CKSUM_BAD);
	/* IPv6 UDP, L4 bad: IPv6 has no header checksum to call bad. */
	cqe[29] = 0x24;                 /* l4 2 (UDP), l3 1 (IPv6) */
	assert_int_equal(mlx5dm_cqe_ptype_index(cqe), 0x09);
	assert_int_equal(t[0x09], RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV6_EXT_UNKNOWN |
			 RTE_PTYPE_L4_UDP);
	assert_int_equal(mlx5dm_cqe_cksum_flags(cqe), RTE_MBUF_F_RX_L4_CKSUM_BAD);
	/* IPv4 fragment: no L4 verdict. */
	cqe[29] = 0x88;                 /* ip_frag, l3 2 */
	assert_int_equal(mlx5dm_cqe_ptype_index(cqe), 0x22);
	assert_int_equal(t[0x22], RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV4_EXT_UNKNOWN |
			 RTE_PTYPE_L4_FRAG);
	assert_int_equal(mlx5dm_cqe_cksum_flags(cqe), RTE_MBUF_F_RX_IP_CKSUM_BAD);
	/* Not IP. */
	cqe[29] = 0x00;
	assert_int_equal(mlx5dm_cqe_ptype_index(cqe), 0x00);
	assert_int_equal(t[0x00], RTE_PTYPE_L2_ETHER);
	assert_int_equal(mlx5dm_cqe_cksum_flags(cqe), 0);
	/* Tunneled over IPv6, inner IPv4 UDP fragment... */
	cqe[0] = 0x03;
	cqe[29] = 0xa8;
	assert_int_equal(mlx5dm_cqe_ptype_index(cqe), 0xea);
	assert_int_equal(t[0xea], RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV6_EXT_UNKNOWN |
			 RTE_PTYPE_INNER_L3_IPV4_EXT_UNKNOWN | RTE_PTYPE_INNER_L4_FRAG);
	/* ... and over IPv4, inner IPv4 UDP. */
	cqe[0] = 0x01;
	cqe[29] = 0x28;
	assert_int_equal(mlx5dm_cqe_ptype_index(cqe), 0x4a);
	assert_int_equal(t[0x4a], RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV4_EXT_UNKNOWN |
			 RTE_PTYPE_INNER_L3_IPV4_EXT_UNKNOWN | RTE_PTYPE_INNER_L4_UDP);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_send_single),
		cmocka_unit_test(test_send_multi_wrap),
		cmocka_unit_test(test_send_no_inline_and_empty_seg),
		cmocka_unit_test(test_rx_wqe),
		cmocka_unit_test(test_cqe_owner),
		cmocka_unit_test(test_cqe_rx_fields),
		cmocka_unit_test(test_cqe_error),
		cmocka_unit_test(test_cqe_ptype_cksum),
	};

	return cmocka_run_group_tests_name("rxtx_format", tests, NULL, NULL);
}
