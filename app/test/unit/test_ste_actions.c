/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * STE v1 actions: slot placement in the last match STE and in extra
 * action STEs, per direction, with the hit pointer to the final address;
 * and the refusal of impossible lists, by cause. Expected bytes are
 * literal, derived by hand from mlx5_ifc.h (STE control, v1 actions):
 *   BWC action area = bytes 24..31, MATCH action area = bytes 20..31;
 *   FLOW_TAG 0c tt tt tt; MODIFY_LIST 0f nn pp pp; ACCELERATED_LIST
 *   0e pp pp pp | nn aa aa aa; REMOVE_HEADER 09 <start> <end> <decap 0x08,
 *   vni 0x04>; REMOVE_BY_SIZE 08 <anchor> <offset << 1> <size>;
 *   INSERT_INLINE 0a <anchor> <offset << 1> 00 | data;
 *   INSERT_POINTER 0b <anchor> <offset << 1 | size >> 5> <size << 3 | attr> | ptr.
 */

#include <errno.h>

#include "test_ste_common.h"

#define GVMI 0x0011
#define DEFAULT_ADDR 0x40000ull

/* A BWC ETHL2_O match STE right after init (bytes as in test_ste_ctrl). */
static void
t_base_bwc(uint8_t *e)
{
	memset(e, 0, 64);
	e[5] = 0x11;
	e[6] = 0x03;
	e[13] = 0x11;
	e[14] = 0x0f;
	e[23] = 0x11;
}

/* An extra action STE: MATCH, lookup 0x040f, miss 0, zero tag. */
static void
t_base_action(uint8_t *e)
{
	memset(e, 0, 64);
	e[0] = 0x04;
	e[5] = 0x11;
	e[6] = 0x0f;
	e[13] = 0x11;
	e[14] = 0x0f;
}

/* Final hit pointer (size 1) and GVMI: idx = (addr >> 5) | 1. */
static void
t_final(uint8_t *e, uint64_t addr, uint16_t gvmi)
{
	uint64_t idx = (addr >> 5) | 1;
	uint32_t dw4 = (uint32_t)((idx & 0x7ffffff) << 5);

	e[12] = (uint8_t)(gvmi >> 8);
	e[13] = (uint8_t)gvmi;
	e[15] = (uint8_t)(idx >> 27);
	e[16] = (uint8_t)(dw4 >> 24);
	e[17] = (uint8_t)(dw4 >> 16);
	e[18] = (uint8_t)(dw4 >> 8);
	e[19] = (uint8_t)dw4;
}

static void
t_bytes(uint8_t *e, unsigned int off, const uint8_t *b, unsigned int n)
{
	memcpy(e + off, b, n);
}

#define SET(e, off, ...) t_bytes((e), (off), (const uint8_t[]){ __VA_ARGS__ }, \
				 sizeof((const uint8_t[]){ __VA_ARGS__ }))
#define REPARSE(e) ((e)[11] |= 0x08)

static const struct mlx5dm_ste_actions_attr t_rx = {
	.domain = MLX5DM_STE_DOMAIN_NIC, .dir = MLX5DM_STE_DIR_RX, .gvmi = GVMI,
	.default_icm_addr = DEFAULT_ADDR,
};
static const struct mlx5dm_ste_actions_attr t_tx = {
	.domain = MLX5DM_STE_DOMAIN_NIC, .dir = MLX5DM_STE_DIR_TX, .gvmi = GVMI,
	.default_icm_addr = DEFAULT_ADDR,
};

#define A(t, ...) { .type = MLX5DM_STE_ACTION_##t, __VA_ARGS__ }
#define LIST(idx, n) .modify = { .mode = MLX5DM_STE_MODIFY_LIST, .num_actions = (n), \
				 .index = (idx) }

/* Run the encoder on a fresh BWC match STE and compare all STEs. */
static void
t_run(const struct mlx5dm_ste_actions_attr *attr, const struct mlx5dm_ste_action *acts,
      unsigned int n, const uint8_t *exp, unsigned int n_exp_extra, bool match_entry)
{
	const struct mlx5dm_ste_ctx *ctx = t_ctx();
	struct mlx5dm_ste_action_err err = { .index = 99 };
	uint8_t stes[4 * 64];
	unsigned int n_extra = 99, i;
	char what[32];

	memset(stes, 0xee, sizeof(stes));
	memset(stes, 0, 64);
	mlx5dm_ste_init(ctx, stes, match_entry ? 0x0405 : 0x0003, attr->dir, GVMI);
	assert_int_equal(mlx5dm_ste_check_actions(ctx, attr, acts, n, &err), 0);
	if (mlx5dm_ste_set_actions(ctx, attr, acts, n, stes, 3, &n_extra, &err) != 0) {
		fprintf(stderr, "error at %d: %s\n", err.index, err.msg);
		fail();
	}
	assert_int_equal(n_extra, n_exp_extra);
	for (i = 0; i <= n_extra; i++) {
		snprintf(what, sizeof(what), "STE %u", i);
		t_assert_bytes(stes + 64 * i, exp + 64 * i, 64, what);
	}
}

static void
test_rx_flow_tag_tir(void **state)
{
	const struct mlx5dm_ste_action acts[] = {
		A(FLOW_TAG, .flow_tag = 0xabcdef),
		A(DEST_TIR, .icm_addr = 0x100000040ull),
	};
	uint8_t e[64];

	(void)state;
	t_base_bwc(e);
	SET(e, 24, 0x0c, 0xab, 0xcd, 0xef);
	t_final(e, 0x100000040ull, GVMI);
	/* Hand check of the pointer: (0x100000040 >> 5) | 1 = 0x8000003. */
	assert_int_equal(e[15], 0x01);
	assert_int_equal(e[19], 0x60);
	t_run(&t_rx, acts, 2, e, 0, false);
}

/* L2 decap + tag share the STE; the counter must come after the decap. */
static void
test_rx_decap_l2_counter(void **state)
{
	const struct mlx5dm_ste_action acts[] = {
		A(COUNTER, .counter_id = 0x123456),
		A(DECAP_L2),
		A(FLOW_TAG, .flow_tag = 5),
		A(DEST_TABLE, .icm_addr = 0x8000),
	};
	uint8_t e[128];

	(void)state;
	t_base_bwc(e);
	SET(e, 24, 0x09, 0x00, 0x13, 0x0c, 0x0c, 0x00, 0x00, 0x05);
	REPARSE(e);
	t_base_action(e + 64);
	SET(e + 64, 1, 0x12, 0x34, 0x56);
	t_final(e + 64, 0x8000, GVMI);
	t_run(&t_rx, acts, 4, e, 1, false);
}

/* L3 decap (modify list) and modify header never share an STE. */
static void
test_rx_decap_l3_modify(void **state)
{
	const struct mlx5dm_ste_action acts[] = {
		A(DECAP_L3, LIST(0x1234, 6)),
		A(MODIFY_HDR, LIST(0x55, 3)),
		A(COUNTER, .counter_id = 7),
	};
	uint8_t e[128];

	(void)state;
	t_base_bwc(e);
	SET(e, 24, 0x0f, 0x06, 0x12, 0x34);
	REPARSE(e);
	t_base_action(e + 64);
	SET(e + 64, 20, 0x0f, 0x03, 0x00, 0x55);
	REPARSE(e + 64);
	SET(e + 64, 1, 0x00, 0x00, 0x07);
	t_final(e + 64, DEFAULT_ADDR, GVMI);
	t_run(&t_rx, acts, 3, e, 1, false);
}

/* After a decap the pop goes to its own STE (rdma-core's v1 rule), and
 * the counter follows the pop. */
static void
test_rx_decap_pop(void **state)
{
	const struct mlx5dm_ste_action acts[] = {
		A(DECAP_L2),
		A(POP_VLAN),
		A(COUNTER, .counter_id = 0x20),
		A(DEST_TABLE, .icm_addr = 0x8000),
	};
	uint8_t e[192];

	(void)state;
	t_base_bwc(e);
	/* 4 bytes of the BWC area stay free: the pop may not use them. */
	SET(e, 24, 0x09, 0x00, 0x13, 0x0c);
	REPARSE(e);
	t_base_action(e + 64);
	SET(e + 64, 20, 0x08, 0x02, 0x00, 0x02);
	REPARSE(e + 64);
	/* Counter after a pop: one more STE so it sees the popped packet. */
	t_base_action(e + 128);
	SET(e + 128, 1, 0x00, 0x00, 0x20);
	t_final(e + 128, 0x8000, GVMI);
	t_run(&t_rx, acts, 4, e, 2, false);
}

/* Pop both VLANs in one action, then modify and push in new STEs. */
static void
test_rx_pop_modify_push(void **state)
{
	const struct mlx5dm_ste_action acts[] = {
		A(POP_VLAN),
		A(POP_VLAN),
		A(MODIFY_HDR, .modify = { .mode = MLX5DM_STE_MODIFY_INLINE, .num_actions = 1,
					  .inline_action = { 6, 0, 0x20, 0x20, 0x11, 0x22, 0x33,
							     0x44 } }),
		A(PUSH_VLAN, .vlan_hdr = 0x81000123),
		A(DEST_TABLE, .icm_addr = 0x8000),
	};
	uint8_t e[192];

	(void)state;
	t_base_bwc(e);
	SET(e, 24, 0x08, 0x02, 0x00, 0x04);		/* from 1st VLAN, 4 words */
	REPARSE(e);
	t_base_action(e + 64);
	SET(e + 64, 20, 0x06, 0x00, 0x20, 0x20, 0x11, 0x22, 0x33, 0x44);
	REPARSE(e + 64);
	t_base_action(e + 128);
	SET(e + 128, 20, 0x0a, 0x00, 0x0c, 0x00, 0x81, 0x00, 0x01, 0x23);	/* offset 6 words */
	REPARSE(e + 128);
	t_final(e + 128, 0x8000, GVMI);
	t_run(&t_rx, acts, 5, e, 2, false);
}

/* TX: counter in the first STE, pattern modify, encap in its own STE. */
static void
test_tx_modify_encap(void **state)
{
	const struct mlx5dm_ste_action acts[] = {
		A(MODIFY_HDR, .modify = { .mode = MLX5DM_STE_MODIFY_PATTERN, .num_actions = 5,
					  .index = 0x20, .pattern_index = 0x10 }),
		A(ENCAP_L2, .encap = { .index = 0x40, .size = 50 }),
		A(COUNTER, .counter_id = 9),
		A(DEST_TABLE, .icm_addr = 0x8000),
	};
	uint8_t e[128];

	(void)state;
	t_base_bwc(e);
	SET(e, 1, 0x00, 0x00, 0x09);
	SET(e, 24, 0x0e, 0x00, 0x00, 0x10, 0x05, 0x00, 0x00, 0x20);
	REPARSE(e);
	t_base_action(e + 64);
	/* 50 bytes = 25 words = 0b011001; attributes 1 (encap). */
	SET(e + 64, 20, 0x0b, 0x00, 0x00, 0xc9, 0x00, 0x00, 0x00, 0x40);
	REPARSE(e + 64);
	t_final(e + 64, 0x8000, GVMI);
	t_run(&t_tx, acts, 4, e, 1, false);
}

/* L2 -> L3 encap needs 12 bytes: remove L2 up to the L3 anchor, insert. */
static void
test_tx_encap_l3(void **state)
{
	const struct mlx5dm_ste_action acts[] = {
		A(ENCAP_L3, .encap = { .index = 0x80, .size = 40 }),
		A(DEST_TABLE, .icm_addr = 0x8000),
	};
	uint8_t e[128];

	(void)state;
	t_base_bwc(e);
	t_base_action(e + 64);
	SET(e + 64, 20, 0x09, 0x00, 0x07, 0x00);
	SET(e + 64, 24, 0x0b, 0x00, 0x00, 0xa1, 0x00, 0x00, 0x00, 0x80);	/* 20 words */
	REPARSE(e + 64);
	t_final(e + 64, 0x8000, GVMI);
	t_run(&t_tx, acts, 2, e, 1, false);
}

/* In a MATCH last STE (12 bytes) pop and modify share the STE on v1. */
static void
test_tx_pop_modify_match_entry(void **state)
{
	const struct mlx5dm_ste_action acts[] = {
		A(POP_VLAN),
		A(MODIFY_HDR, LIST(0x100, 2)),
		A(DEST_TABLE, .icm_addr = 0x1234567800ull),
	};
	uint8_t e[64];

	(void)state;
	memset(e, 0, sizeof(e));
	e[0] = 0x04;
	e[5] = 0x11;
	e[6] = 0x05;
	e[14] = 0x0f;
	SET(e, 20, 0x08, 0x02, 0x00, 0x02, 0x0f, 0x02, 0x01, 0x00);
	REPARSE(e);
	t_final(e, 0x1234567800ull, GVMI);
	assert_int_equal(e[15], 0x12);
	t_run(&t_tx, acts, 3, e, 0, true);
}

/* Drop: the hit GVMI is the firmware's, from bits 63:48 of the address. */
static void
test_rx_drop(void **state)
{
	const uint64_t drop = 0x0005001234567800ull;
	const struct mlx5dm_ste_action acts[] = {
		A(COUNTER, .counter_id = 3),
		A(DROP, .icm_addr = drop),
	};
	uint8_t e[64];

	(void)state;
	t_base_bwc(e);
	e[3] = 0x03;
	t_final(e, drop, 0x0005);
	/* Only bits 39:5 reach the pointer. */
	assert_int_equal(e[15], 0x12);
	assert_int_equal(e[12], 0x00);
	assert_int_equal(e[13], 0x05);
	t_run(&t_rx, acts, 2, e, 0, false);
}

/*
 * FDB: a vport destination ends the walk at the vport's entry, owned by
 * the e-switch manager (hit GVMI 0x0022 here, not the rule's 0x0011);
 * the RX side may encapsulate (v1), after a counter, as NIC TX does.
 */
static void
test_fdb_vport(void **state)
{
	const uint64_t vport_rx = 0x0022000000a01040ull;
	const struct mlx5dm_ste_action acts[] = {
		A(COUNTER, .counter_id = 0x10),
		A(ENCAP_L2, .encap = { 0x0007, 50 }),
		A(DEST_VPORT, .vport = { vport_rx, 0x0022 }),
	};
	struct mlx5dm_ste_actions_attr rx = t_rx, tx = t_tx;
	uint8_t e[64];

	(void)state;
	rx.domain = MLX5DM_STE_DOMAIN_FDB;
	tx.domain = MLX5DM_STE_DOMAIN_FDB;
	t_base_bwc(e);
	SET(e, 1, 0x00, 0x00, 0x10);
	/* INSERT_POINTER as on NIC TX (test_tx_modify_encap), in the match entry's slot. */
	SET(e, 24, 0x0b, 0x00, 0x00, 0xc9, 0x00, 0x00, 0x00, 0x07);
	REPARSE(e);
	t_final(e, vport_rx, 0x0022);
	/* idx = (0x0022000000a01040 >> 5) | 1 = ...0x50083: bits 39:32 of the address are 0. */
	assert_int_equal(e[15], 0x00);
	assert_int_equal(e[16], 0x00);
	assert_int_equal(e[17], 0xa0);
	assert_int_equal(e[18], 0x10);
	assert_int_equal(e[19], 0x60);
	t_run(&rx, acts, 3, e, 0, false);
	t_run(&tx, acts, 3, e, 0, false);
}

/* TX: a push after a modify goes to a new STE (encap/push stay apart). */
static void
test_tx_modify_push(void **state)
{
	const struct mlx5dm_ste_action acts[] = {
		A(COUNTER, .counter_id = 0xfffffe),
		A(MODIFY_HDR, LIST(0x7, 1)),
		A(PUSH_VLAN, .vlan_hdr = 0x88a80064),
	};
	uint8_t e[128];

	(void)state;
	t_base_bwc(e);
	SET(e, 1, 0xff, 0xff, 0xfe);
	SET(e, 24, 0x0f, 0x01, 0x00, 0x07);
	REPARSE(e);
	t_base_action(e + 64);
	SET(e + 64, 20, 0x0a, 0x00, 0x0c, 0x00, 0x88, 0xa8, 0x00, 0x64);
	REPARSE(e + 64);
	t_final(e + 64, DEFAULT_ADDR, GVMI);
	t_run(&t_tx, acts, 3, e, 1, false);
}

static void
test_rx_counter_only(void **state)
{
	const struct mlx5dm_ste_action acts[] = { A(COUNTER, .counter_id = 1) };
	uint8_t e[64];

	(void)state;
	t_base_bwc(e);
	e[3] = 0x01;
	t_final(e, DEFAULT_ADDR, GVMI);
	t_run(&t_rx, acts, 1, e, 0, false);
	/* No action at all: straight to the default address. */
	t_base_bwc(e);
	t_final(e, DEFAULT_ADDR, GVMI);
	t_run(&t_rx, NULL, 0, e, 0, false);
}

/* Impossible lists and parameters, each with its cause. */
static void
test_refused(void **state)
{
	static const struct {
		bool tx;
		unsigned int n;
		struct mlx5dm_ste_action acts[4];
		int ret;
		int index;
		const char *msg;
	} cases[] = {
		{ true, 2, { A(ENCAP_L2, .encap = { 1, 50 }), A(MODIFY_HDR, LIST(1, 1)) },
		  -EOPNOTSUPP, 1, "modify_header after encap on NIC_TX" },
		{ true, 2, { A(ENCAP_L2, .encap = { 1, 50 }), A(ENCAP_L3, .encap = { 1, 50 }) },
		  -EOPNOTSUPP, 1, "two encap actions" },
		{ true, 1, { A(FLOW_TAG, .flow_tag = 1) }, -EOPNOTSUPP, 0, "flow_tag on NIC_TX" },
		{ true, 1, { A(DECAP_L2) }, -EOPNOTSUPP, 0, "decap_l2 on NIC_TX" },
		{ true, 1, { A(DEST_TIR, .icm_addr = 64) }, -EOPNOTSUPP, 0, "dest_tir on NIC_TX" },
		{ false, 1, { A(ENCAP_L2, .encap = { 1, 50 }) }, -EOPNOTSUPP, 0,
		  "encap_l2 on NIC_RX" },
		{ false, 3, { A(PUSH_VLAN, .vlan_hdr = 0x81000001),
			      A(PUSH_VLAN, .vlan_hdr = 0x81000002),
			      A(PUSH_VLAN, .vlan_hdr = 0x81000003) },
		  -EOPNOTSUPP, 2, "more than two push_vlan actions" },
		{ false, 2, { A(DROP, .icm_addr = 64), A(FLOW_TAG, .flow_tag = 1) },
		  -EOPNOTSUPP, 1, "flow_tag after a terminating action on NIC_RX" },
		{ false, 2, { A(DEST_TABLE, .icm_addr = 64), A(DEST_TIR, .icm_addr = 64) },
		  -EOPNOTSUPP, 1, "two terminating actions" },
		{ false, 2, { A(DECAP_L2), A(DROP, .icm_addr = 64) },
		  -EOPNOTSUPP, 1, "drop after decap on NIC_RX" },
		{ true, 2, { A(MODIFY_HDR, LIST(1, 1)), A(DROP, .icm_addr = 64) },
		  -EOPNOTSUPP, 1, "drop after modify_header on NIC_TX" },
		{ false, 2, { A(MODIFY_HDR, LIST(1, 1)), A(DECAP_L2) },
		  -EOPNOTSUPP, 1, "decap_l2 after modify_header on NIC_RX" },
		{ true, 2, { A(MODIFY_HDR, LIST(1, 1)), A(POP_VLAN) },
		  -EOPNOTSUPP, 1, "pop_vlan after modify_header on NIC_TX" },
		{ true, 2, { A(PUSH_VLAN, .vlan_hdr = 0x81000001), A(MODIFY_HDR, LIST(1, 1)) },
		  -EOPNOTSUPP, 1, "modify_header after push_vlan on NIC_TX" },
		{ false, 1, { A(PUSH_VLAN, .vlan_hdr = 0x08000001) }, -EINVAL, 0,
		  "push_vlan with TPID 0x0800" },
		{ true, 1, { A(ENCAP_L2, .encap = { 1, 51 }) }, -EINVAL, 0,
		  "encap_l2: header size 51 not encodable" },
		{ false, 1, { A(MODIFY_HDR, .modify = { .mode = MLX5DM_STE_MODIFY_INLINE,
							.num_actions = 2 }) },
		  -EINVAL, 0, "modify_header: invalid action list reference" },
		{ false, 1, { A(DECAP_L3, .modify = { .mode = MLX5DM_STE_MODIFY_INLINE,
						      .num_actions = 1 }) },
		  -EINVAL, 0, "decap_l3: invalid action list reference" },
		{ false, 1, { { .type = (enum mlx5dm_ste_action_type)99 } }, -EINVAL, 0,
		  "unknown action type 99" },
	};
	const struct mlx5dm_ste_ctx *ctx = t_ctx();
	unsigned int i, n_extra;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct mlx5dm_ste_action_err err = { .index = 42 };
		uint8_t stes[4 * 64] = { 0 };

		mlx5dm_ste_init(ctx, stes, 0x0003, MLX5DM_STE_DIR_RX, GVMI);
		assert_int_equal(mlx5dm_ste_set_actions(ctx, cases[i].tx ? &t_tx : &t_rx,
							cases[i].acts, cases[i].n, stes, 3,
							&n_extra, &err), cases[i].ret);
		assert_int_equal(err.index, cases[i].index);
		assert_string_equal(err.msg, cases[i].msg);
		memset(&err, 0, sizeof(err));
		assert_int_equal(mlx5dm_ste_check_actions(ctx, cases[i].tx ? &t_tx : &t_rx,
							  cases[i].acts, cases[i].n, &err),
				 cases[i].ret);
		assert_string_equal(err.msg, cases[i].msg);
	}
}

static void
test_placement_limits(void **state)
{
	const struct mlx5dm_ste_ctx *ctx = t_ctx();
	const struct mlx5dm_ste_action many[] = {
		A(POP_VLAN), A(MODIFY_HDR, LIST(1, 1)), A(PUSH_VLAN, .vlan_hdr = 0x81000001),
	};
	const struct mlx5dm_ste_action big_index[] = { A(MODIFY_HDR, LIST(0x10000, 1)) };
	const struct mlx5dm_ste_action tag[] = { A(FLOW_TAG, .flow_tag = 1) };
	const struct mlx5dm_ste_action vport[] = { A(DEST_VPORT, .vport = { 0x40, 1 }) };
	struct mlx5dm_ste_actions_attr fdb = t_rx;
	struct mlx5dm_ste_action_err err;
	uint8_t stes[4 * 64] = { 0 };
	unsigned int n_extra;

	(void)state;
	mlx5dm_ste_init(ctx, stes, 0x0003, MLX5DM_STE_DIR_RX, GVMI);
	/* Needs 2 action STEs. */
	assert_int_equal(mlx5dm_ste_set_actions(ctx, &t_rx, many, 3, stes, 1, &n_extra, &err),
			 -ENOSPC);
	assert_string_equal(err.msg, "actions need more than 1 action STEs");
	assert_int_equal(mlx5dm_ste_set_actions(ctx, &t_rx, many, 3, stes, 2, &n_extra, &err),
			 0);
	assert_int_equal(n_extra, 2);
	/* The basic modify list pointer has 16 bits. */
	memset(stes, 0, sizeof(stes));
	mlx5dm_ste_init(ctx, stes, 0x0003, MLX5DM_STE_DIR_RX, GVMI);
	assert_int_equal(mlx5dm_ste_set_actions(ctx, &t_rx, big_index, 1, stes, 2, &n_extra,
						&err), -ERANGE);
	assert_string_equal(err.msg, "modify list index 65536 exceeds 16 bits");
	/* An FDB side has no flow tag; a NIC side no vport. */
	fdb.domain = MLX5DM_STE_DOMAIN_FDB;
	assert_int_equal(mlx5dm_ste_set_actions(ctx, &fdb, tag, 1, stes, 2, &n_extra, &err),
			 -EOPNOTSUPP);
	assert_string_equal(err.msg, "flow_tag on FDB_RX");
	assert_int_equal(mlx5dm_ste_set_actions(ctx, &t_tx, vport, 1, stes, 2, &n_extra, &err),
			 -EOPNOTSUPP);
	assert_string_equal(err.msg, "dest_vport on NIC_TX");
	assert_string_equal(mlx5dm_ste_action_name(MLX5DM_STE_ACTION_MODIFY_HDR), "modify_header");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rx_flow_tag_tir),
		cmocka_unit_test(test_rx_decap_l2_counter),
		cmocka_unit_test(test_rx_decap_l3_modify),
		cmocka_unit_test(test_rx_decap_pop),
		cmocka_unit_test(test_rx_pop_modify_push),
		cmocka_unit_test(test_tx_modify_encap),
		cmocka_unit_test(test_tx_encap_l3),
		cmocka_unit_test(test_tx_pop_modify_match_entry),
		cmocka_unit_test(test_tx_modify_push),
		cmocka_unit_test(test_rx_drop),
		cmocka_unit_test(test_fdb_vport),
		cmocka_unit_test(test_rx_counter_only),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_placement_limits),
	};

	return cmocka_run_group_tests_name("ste_actions", tests, NULL, NULL);
}
