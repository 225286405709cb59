/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Modify header (user set/add/copy -> v1 HW actions, NOP pairing, checks),
 * the L3-decap action list and the small reformat helpers. User actions
 * are written at the set/add/copy_action_in offsets of rdma-core's
 * mlx5_ifc.h; expected HW actions are literal bytes derived by hand from
 * section C (ste_double_action_set/add/copy_v1):
 *   byte 0 id (COPY 05, SET 06, ADD 07), byte 1 HW field, byte 2 bits 5..0
 *   left shifter = bit + 0x20, byte 3 bits 5..0 length; DW1 = data, or for
 *   COPY byte 5 source field, byte 6 bits 5..0 source shifter (+0x20).
 */

#include <errno.h>

#include "test_ste_common.h"

/* set_action_in: type 0x000/4, field 0x004/12, offset 0x013/5, length 0x01b/5, data 0x020/32. */
static void
t_sw_set(uint8_t *a, unsigned int type, unsigned int field, unsigned int off, unsigned int len,
	 uint32_t data)
{
	memset(a, 0, 8);
	mlx5dm_prm_set(a, 0x000, 4, type);
	mlx5dm_prm_set(a, 0x004, 12, field);
	mlx5dm_prm_set(a, 0x013, 5, off);
	mlx5dm_prm_set(a, 0x01b, 5, len);
	mlx5dm_prm_set(a, 0x020, 32, data);
}

/* copy_action_in: src_field/offset as set, dst_field 0x024/12, dst_offset 0x033/5. */
static void
t_sw_copy(uint8_t *a, unsigned int src, unsigned int src_off, unsigned int len,
	  unsigned int dst, unsigned int dst_off)
{
	t_sw_set(a, 3, src, src_off, len, 0);
	mlx5dm_prm_set(a, 0x024, 12, dst);
	mlx5dm_prm_set(a, 0x033, 5, dst_off);
}

/* User field ids (MLX5_ACTION_IN_FIELD_OUT_*). */
enum {
	F_SMAC_47_16 = 0x01, F_SMAC_15_0 = 0x02, F_ETHERTYPE = 0x03, F_DMAC_47_16 = 0x04,
	F_DMAC_15_0 = 0x05, F_IP_DSCP = 0x06, F_TCP_FLAGS = 0x07, F_TCP_SPORT = 0x08,
	F_IP_TTL = 0x0a, F_UDP_DPORT = 0x0c, F_SIPV6_127_96 = 0x0d, F_SIPV4 = 0x15,
	F_DIPV4 = 0x16, F_FIRST_VID = 0x17, F_IPV6_HOPLIMIT = 0x47, F_REG_A = 0x49,
	F_REG_B = 0x50, F_REG_C_0 = 0x51, F_REG_C_1 = 0x52, F_REG_C_5 = 0x56,
	F_TCP_SEQ = 0x59, F_GTPU_TEID = 0x6e, F_IP_ECN = 0x73,
};

#define SET 1
#define ADD 2

static const struct mlx5dm_ste_actions_attr t_rx = {
	.domain = MLX5DM_STE_DOMAIN_NIC, .dir = MLX5DM_STE_DIR_RX, .gvmi = 1,
};
static const struct mlx5dm_ste_actions_attr t_tx = {
	.domain = MLX5DM_STE_DOMAIN_NIC, .dir = MLX5DM_STE_DIR_TX, .gvmi = 1,
};

/* One user action and its HW translation. */
static void
t_one(const struct mlx5dm_ste_actions_attr *attr, const uint8_t *sw, const uint8_t *exp)
{
	struct mlx5dm_ste_action_err err = { 0 };
	uint8_t hw[16];
	unsigned int n = 0;

	memset(hw, 0xee, sizeof(hw));
	if (mlx5dm_ste_modify_translate(t_ctx(), attr, sw, 1, hw, 2, &n, &err) != 0) {
		fprintf(stderr, "error: %s\n", err.msg);
		fail();
	}
	assert_int_equal(n, 1);
	t_assert_bytes(hw, exp, 8, "HW action");
}

static void
test_translate_each(void **state)
{
	static const struct {
		uint8_t type, field, off, len;
		uint32_t data;
		bool tx;
		uint8_t hw[8];
	} cases[] = {
		/* DMAC[47:16]: field 0x00 from bit 0, length 32 kept as 32. */
		{ SET, F_DMAC_47_16, 0, 0, 0x11223344, false,
		  { 0x06, 0x00, 0x20, 0x20, 0x11, 0x22, 0x33, 0x44 } },
		{ SET, F_SMAC_15_0, 0, 16, 0xaabb, false,
		  { 0x06, 0x09, 0x30, 0x10, 0x00, 0x00, 0xaa, 0xbb } },
		{ SET, F_ETHERTYPE, 0, 16, 0x86dd, false,
		  { 0x06, 0x01, 0x20, 0x10, 0x00, 0x00, 0x86, 0xdd } },
		{ SET, F_FIRST_VID, 0, 12, 0x123, false,
		  { 0x06, 0x02, 0x20, 0x0c, 0x00, 0x00, 0x01, 0x23 } },
		{ SET, F_IP_TTL, 0, 8, 0x40, false,
		  { 0x06, 0x0e, 0x28, 0x08, 0x00, 0x00, 0x00, 0x40 } },
		{ SET, F_IPV6_HOPLIMIT, 0, 8, 0x20, false,
		  { 0x06, 0x0e, 0x28, 0x08, 0x00, 0x00, 0x00, 0x20 } },
		{ SET, F_IP_DSCP, 0, 6, 0x2e, false,
		  { 0x06, 0x0e, 0x32, 0x06, 0x00, 0x00, 0x00, 0x2e } },
		{ SET, F_IP_ECN, 0, 2, 1, false,
		  { 0x06, 0x0e, 0x30, 0x02, 0x00, 0x00, 0x00, 0x01 } },
		{ SET, F_TCP_FLAGS, 0, 9, 0x012, false,
		  { 0x06, 0x19, 0x30, 0x09, 0x00, 0x00, 0x00, 0x12 } },
		/* DIPV4 bits 15..8: offset 8, length 8. */
		{ SET, F_DIPV4, 8, 8, 0xab, false,
		  { 0x06, 0x41, 0x28, 0x08, 0x00, 0x00, 0x00, 0xab } },
		{ SET, F_REG_C_5, 0, 0, 0xcafe, false,
		  { 0x06, 0x8d, 0x20, 0x20, 0x00, 0x00, 0xca, 0xfe } },
		{ SET, F_REG_B, 0, 0, 7, false,
		  { 0x06, 0x7b, 0x20, 0x20, 0x00, 0x00, 0x00, 0x07 } },
		{ SET, F_REG_A, 0, 0, 7, true,
		  { 0x06, 0x7c, 0x20, 0x20, 0x00, 0x00, 0x00, 0x07 } },
		/* ADD: the whole field, the addend in DW1 (0xff = -1 on 8 bits). */
		{ ADD, F_IP_TTL, 0, 0, 0xff, false,
		  { 0x07, 0x0e, 0x28, 0x08, 0x00, 0x00, 0x00, 0xff } },
		{ ADD, F_TCP_SEQ, 0, 0, 0x100, true,
		  { 0x07, 0x5e, 0x20, 0x20, 0x00, 0x00, 0x01, 0x00 } },
	};
	uint8_t sw[8];
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		t_sw_set(sw, cases[i].type, cases[i].field, cases[i].off, cases[i].len,
			 cases[i].data);
		t_one(cases[i].tx ? &t_tx : &t_rx, sw, cases[i].hw);
	}
}

static void
test_translate_copy(void **state)
{
	uint8_t sw[8];

	(void)state;
	/* reg_c_0[15:0] -> TCP source port (field 0x18 bits 31..16). */
	t_sw_copy(sw, F_REG_C_0, 0, 16, F_TCP_SPORT, 0);
	t_one(&t_rx, sw, (const uint8_t[]){ 0x05, 0x18, 0x30, 0x10, 0x00, 0x90, 0x20, 0x00 });
	/* SIPV4[31:24] -> reg_c_1[7:0]. */
	t_sw_copy(sw, F_SIPV4, 24, 8, F_REG_C_1, 0);
	t_one(&t_tx, sw, (const uint8_t[]){ 0x05, 0x91, 0x20, 0x08, 0x00, 0x40, 0x38, 0x00 });
}

/* HW executes pairs: a field touched twice in one pair is split by a NOP. */
static void
test_nop_pairing(void **state)
{
	const uint8_t nop[8] = { 0 };
	uint8_t sw[3 * 8], hw[6 * 8];
	struct mlx5dm_ste_action_err err;
	unsigned int n;

	(void)state;
	/* DMAC[15:0] and ethertype share HW field 0x01. */
	t_sw_set(sw, SET, F_DMAC_15_0, 0, 16, 0x1111);
	t_sw_set(sw + 8, SET, F_ETHERTYPE, 0, 16, 0x0800);
	memset(hw, 0xee, sizeof(hw));
	assert_int_equal(mlx5dm_ste_modify_translate(t_ctx(), &t_rx, sw, 2, hw, 4, &n, &err), 0);
	assert_int_equal(n, 3);
	t_assert_bytes(hw, (const uint8_t[]){ 0x06, 0x01, 0x30, 0x10, 0, 0, 0x11, 0x11 }, 8,
		       "first");
	t_assert_bytes(hw + 8, nop, 8, "NOP");
	t_assert_bytes(hw + 16, (const uint8_t[]){ 0x06, 0x01, 0x20, 0x10, 0, 0, 0x08, 0x00 }, 8,
		       "second");
	/* A COPY reading the field the previous action wrote. */
	t_sw_set(sw, SET, F_SIPV4, 0, 0, 0x0a000001);
	t_sw_copy(sw + 8, F_SIPV4, 0, 0, F_REG_C_1, 0);
	assert_int_equal(mlx5dm_ste_modify_translate(t_ctx(), &t_rx, sw, 2, hw, 4, &n, &err), 0);
	assert_int_equal(n, 3);
	t_assert_bytes(hw + 8, nop, 8, "NOP before COPY");
	assert_int_equal(hw[16], 0x05);
	/* Only the second of a pair matters: index 2 starts a new pair. */
	t_sw_set(sw, SET, F_DMAC_47_16, 0, 0, 1);
	t_sw_set(sw + 8, SET, F_SMAC_47_16, 0, 0, 2);
	t_sw_set(sw + 16, SET, F_SMAC_47_16, 0, 0, 3);
	assert_int_equal(mlx5dm_ste_modify_translate(t_ctx(), &t_rx, sw, 3, hw, 6, &n, &err), 0);
	assert_int_equal(n, 3);
	assert_int_equal(hw[16 + 1], 0x08);
	assert_int_equal(hw[16 + 7], 3);
	/* DSCP, ECN, TTL all in field 0x0e: NOP, ECN, NOP, TTL. */
	t_sw_set(sw, SET, F_IP_DSCP, 0, 6, 1);
	t_sw_set(sw + 8, SET, F_IP_ECN, 0, 2, 1);
	t_sw_set(sw + 16, SET, F_IP_TTL, 0, 8, 1);
	assert_int_equal(mlx5dm_ste_modify_translate(t_ctx(), &t_rx, sw, 3, hw, 6, &n, &err), 0);
	assert_int_equal(n, 5);
	t_assert_bytes(hw + 8, nop, 8, "NOP 1");
	t_assert_bytes(hw + 24, nop, 8, "NOP 2");
	assert_int_equal(hw[16 + 2], 0x30);	/* ECN at bit 16 */
	assert_int_equal(hw[32 + 2], 0x28);	/* TTL at bit 8 */
	/* The same list does not fit in 4 HW actions. */
	assert_int_equal(mlx5dm_ste_modify_translate(t_ctx(), &t_rx, sw, 3, hw, 4, &n, &err),
			 -EINVAL);
	assert_string_equal(err.msg, "modify list needs more than 4 HW actions");
}

static void
test_translate_refused(void **state)
{
	static const struct {
		uint8_t type, field, off, len;
		bool tx;
		int ret;
		const char *msg;
	} one[] = {
		{ ADD, F_DMAC_47_16, 0, 0, false, -EINVAL,
		  "ADD on field 0x4 (only TTL, hop limit, TCP seq/ack)" },
		{ SET, F_IP_TTL, 4, 8, false, -EINVAL,
		  "field 0xa: offset 4 + length 8 exceeds 8 bits" },
		{ SET, F_REG_A, 0, 0, false, -EINVAL, "REG_A can only be modified on NIC_TX" },
		{ SET, F_REG_B, 0, 0, true, -EINVAL, "REG_B can only be modified on NIC_RX" },
		{ 5, F_IP_TTL, 0, 0, false, -EOPNOTSUPP, "unknown modify action type 5" },
		{ SET, 0x30, 0, 0, false, -EINVAL, "unsupported modify field 0x30" },
		/* GTP-U TEID lives in a flex parser whose id is not wired in. */
		{ SET, F_GTPU_TEID, 0, 0, false, -EINVAL, "unsupported modify field 0x6e" },
	};
	struct mlx5dm_ste_actions_attr fdb = t_tx;
	struct mlx5dm_ste_action_err err;
	uint8_t sw[16], hw[32];
	unsigned int i, n;

	(void)state;
	for (i = 0; i < sizeof(one) / sizeof(one[0]); i++) {
		t_sw_set(sw, one[i].type, one[i].field, one[i].off, one[i].len, 0);
		memset(&err, 0, sizeof(err));
		assert_int_equal(mlx5dm_ste_modify_translate(t_ctx(), one[i].tx ? &t_tx : &t_rx,
							     sw, 1, hw, 2, &n, &err), one[i].ret);
		assert_int_equal(err.index, 0);
		assert_string_equal(err.msg, one[i].msg);
	}
	/* COPY ranges are checked on both ends. */
	t_sw_copy(sw, F_REG_C_0, 20, 16, F_REG_C_1, 0);
	assert_int_equal(mlx5dm_ste_modify_translate(t_ctx(), &t_rx, sw, 1, hw, 2, &n, &err),
			 -EINVAL);
	assert_string_equal(err.msg, "field 0x51: offset 20 + length 16 exceeds 32 bits");
	t_sw_copy(sw, F_REG_C_0, 0, 16, F_TCP_SPORT, 1);
	assert_int_equal(mlx5dm_ste_modify_translate(t_ctx(), &t_rx, sw, 1, hw, 2, &n, &err),
			 -EINVAL);
	/* Reading REG_B on TX is refused like writing it. */
	t_sw_copy(sw, F_REG_B, 0, 0, F_REG_C_0, 0);
	assert_int_equal(mlx5dm_ste_modify_translate(t_ctx(), &t_tx, sw, 1, hw, 2, &n, &err),
			 -EINVAL);
	assert_string_equal(err.msg, "REG_B can only be modified on NIC_RX");
	/* FDB: neither register. */
	fdb.domain = MLX5DM_STE_DOMAIN_FDB;
	t_sw_set(sw, SET, F_REG_A, 0, 0, 0);
	assert_int_equal(mlx5dm_ste_modify_translate(t_ctx(), &fdb, sw, 1, hw, 2, &n, &err),
			 -EINVAL);
	/* One L3 and one L4 header kind per list; the index names the action. */
	t_sw_set(sw, SET, F_SIPV4, 0, 0, 1);
	t_sw_set(sw + 8, SET, F_SIPV6_127_96, 0, 0, 1);
	assert_int_equal(mlx5dm_ste_modify_translate(t_ctx(), &t_rx, sw, 2, hw, 4, &n, &err),
			 -EINVAL);
	assert_int_equal(err.index, 1);
	assert_string_equal(err.msg, "IPv4 and IPv6 fields in one list");
	t_sw_set(sw, SET, F_TCP_SPORT, 0, 16, 1);
	t_sw_set(sw + 8, SET, F_UDP_DPORT, 0, 16, 1);
	assert_int_equal(mlx5dm_ste_modify_translate(t_ctx(), &t_rx, sw, 2, hw, 4, &n, &err),
			 -EINVAL);
	assert_string_equal(err.msg, "TCP and UDP fields in one list");
	assert_int_equal(mlx5dm_ste_modify_translate(t_ctx(), &t_rx, sw, 0, hw, 4, &n, &err),
			 -EINVAL);
}

/* L3 decap: remove to inner L3, insert the new L2 backwards, drop the pad. */
static void
test_decap_l3_list(void **state)
{
	const uint8_t l2[18] = {
		0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb,
		0x81, 0x00, 0x00, 0x64, 0x08, 0x00,
	};
	const uint8_t exp14[6][8] = {
		{ 0x09, 0x00, 0x19, 0x0c },			/* to anchor 0x19, decap+vni */
		{ 0x0a, 0x00, 0x00, 0x00, 0xaa, 0xbb, 0x81, 0x00 },
		{ 0x0a, 0x00, 0x00, 0x00, 0x66, 0x77, 0x88, 0x99 },
		{ 0x0a, 0x00, 0x00, 0x00, 0x22, 0x33, 0x44, 0x55 },
		{ 0x0a, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x11 },	/* 2 pad bytes */
		{ 0x08, 0x00, 0x00, 0x01 },			/* remove 1 word */
	};
	const uint8_t exp18[7][8] = {
		{ 0x09, 0x00, 0x19, 0x0c },
		{ 0x0a, 0x00, 0x00, 0x00, 0x00, 0x64, 0x08, 0x00 },
		{ 0x0a, 0x00, 0x00, 0x00, 0xaa, 0xbb, 0x81, 0x00 },
		{ 0x0a, 0x00, 0x00, 0x00, 0x66, 0x77, 0x88, 0x99 },
		{ 0x0a, 0x00, 0x00, 0x00, 0x22, 0x33, 0x44, 0x55 },
		{ 0x0a, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x11 },
		{ 0x08, 0x00, 0x00, 0x01 },
	};
	uint8_t hw[8 * 8];
	unsigned int n;

	(void)state;
	/* 14 bytes: dmac, smac, ethertype 0x8100 (the first 14 of l2[]). */
	memset(hw, 0xee, sizeof(hw));
	assert_int_equal(mlx5dm_ste_decap_l3_list(t_ctx(), l2, 14, hw, 8, &n), 0);
	assert_int_equal(n, 6);
	t_assert_bytes(hw, &exp14[0][0], sizeof(exp14), "decap 14");
	/* 18 bytes: with a VLAN tag. */
	assert_int_equal(mlx5dm_ste_decap_l3_list(t_ctx(), l2, 18, hw, 8, &n), 0);
	assert_int_equal(n, 7);
	t_assert_bytes(hw, &exp18[0][0], sizeof(exp18), "decap 18");
	/* Other sizes, or no room. */
	assert_int_equal(mlx5dm_ste_decap_l3_list(t_ctx(), l2, 16, hw, 8, &n), -EINVAL);
	assert_int_equal(mlx5dm_ste_decap_l3_list(t_ctx(), l2, 18, hw, 6, &n), -ENOSPC);
}

/* Pattern = the list without per-rule data (SET/ADD/INSERT_INLINE DW1). */
static void
test_pattern(void **state)
{
	const uint8_t l2[14] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0x08, 0x00 };
	uint8_t sw[3 * 8], hw[8 * 8], pat[8 * 8];
	struct mlx5dm_ste_action_err err;
	unsigned int n, i;

	(void)state;
	t_sw_set(sw, SET, F_IP_TTL, 0, 8, 0x40);
	t_sw_set(sw + 8, ADD, F_TCP_SEQ, 0, 0, 5);
	t_sw_copy(sw + 16, F_REG_C_0, 0, 16, F_TCP_SPORT, 0);
	assert_int_equal(mlx5dm_ste_modify_translate(t_ctx(), &t_tx, sw, 3, hw, 6, &n, &err), 0);
	assert_int_equal(n, 3);
	assert_int_equal(mlx5dm_ste_modify_pattern(t_ctx(), hw, n, pat), 0);
	t_assert_bytes(pat, (const uint8_t[]){ 0x06, 0x0e, 0x28, 0x08, 0, 0, 0, 0 }, 8, "SET");
	t_assert_bytes(pat + 8, (const uint8_t[]){ 0x07, 0x5e, 0x20, 0x20, 0, 0, 0, 0 }, 8, "ADD");
	t_assert_bytes(pat + 16, hw + 16, 8, "COPY kept");
	/* L3 decap: inserts lose their data, removals are kept; in place. */
	assert_int_equal(mlx5dm_ste_decap_l3_list(t_ctx(), l2, 14, hw, 8, &n), 0);
	memcpy(pat, hw, sizeof(pat));
	assert_int_equal(mlx5dm_ste_modify_pattern(t_ctx(), pat, n, pat), 0);
	t_assert_bytes(pat, hw, 8, "remove header kept");
	for (i = 1; i < 5; i++) {
		t_assert_bytes(pat + 8 * i, hw + 8 * i, 4, "insert DW0 kept");
		t_assert_bytes(pat + 8 * i + 4, (const uint8_t[]){ 0, 0, 0, 0 }, 4, "insert data");
	}
	t_assert_bytes(pat + 40, hw + 40, 8, "remove size kept");
}

/* Patterns are told apart by a COPY's 8 bytes and the first 4 of anything else. */
static void
test_pattern_equal(void **state)
{
	const uint8_t set_a[8] = { 0x06, 0x0e, 0x28, 0x08, 0, 0, 0, 0 };
	const uint8_t set_b[8] = { 0x06, 0x0e, 0x28, 0x08, 0x12, 0x34, 0x56, 0x78 };
	const uint8_t set_c[8] = { 0x06, 0x0e, 0x28, 0x07, 0, 0, 0, 0 };
	const uint8_t copy_a[8] = { 0x05, 0x18, 0x30, 0x10, 0x00, 0x90, 0x20, 0x00 };
	const uint8_t copy_b[8] = { 0x05, 0x18, 0x30, 0x10, 0x00, 0x91, 0x20, 0x00 };
	uint8_t a[16], b[16];

	(void)state;
	assert_true(mlx5dm_ste_modify_pattern_equal(t_ctx(), set_a, set_b, 1));
	assert_false(mlx5dm_ste_modify_pattern_equal(t_ctx(), set_a, set_c, 1));
	assert_true(mlx5dm_ste_modify_pattern_equal(t_ctx(), copy_a, copy_a, 1));
	assert_false(mlx5dm_ste_modify_pattern_equal(t_ctx(), copy_a, copy_b, 1));
	/* Position matters: the second action differs. */
	memcpy(a, set_a, 8);
	memcpy(a + 8, copy_a, 8);
	memcpy(b, set_b, 8);
	memcpy(b + 8, copy_b, 8);
	assert_true(mlx5dm_ste_modify_pattern_equal(t_ctx(), a, b, 1));
	assert_false(mlx5dm_ste_modify_pattern_equal(t_ctx(), a, b, 2));
}

static void
test_reformat_helpers(void **state)
{
	uint32_t hdr = 0;

	(void)state;
	assert_int_equal(mlx5dm_ste_vlan_hdr(0x8100, 0x2064, &hdr), 0);
	assert_int_equal(hdr, 0x81002064);
	assert_int_equal(mlx5dm_ste_vlan_hdr(0x88a8, 0x0001, &hdr), 0);
	assert_int_equal(hdr, 0x88a80001);
	assert_int_equal(mlx5dm_ste_vlan_hdr(0x0800, 0x0001, &hdr), -EINVAL);
	/* Encap size: even, <= 126 (63 words), within the device cap. */
	assert_int_equal(mlx5dm_ste_encap_check(50, 0), 0);
	assert_int_equal(mlx5dm_ste_encap_check(126, 128), 0);
	assert_int_equal(mlx5dm_ste_encap_check(51, 0), -EINVAL);
	assert_int_equal(mlx5dm_ste_encap_check(128, 0), -EINVAL);
	assert_int_equal(mlx5dm_ste_encap_check(60, 50), -EINVAL);
	/* ICM object index: 64-byte lines from the area base. */
	assert_int_equal(mlx5dm_ste_icm_index(0x80000140ull, 0x80000000ull), 5);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_translate_each),
		cmocka_unit_test(test_translate_copy),
		cmocka_unit_test(test_nop_pairing),
		cmocka_unit_test(test_translate_refused),
		cmocka_unit_test(test_decap_l3_list),
		cmocka_unit_test(test_pattern),
		cmocka_unit_test(test_pattern_equal),
		cmocka_unit_test(test_reformat_helpers),
	};

	return cmocka_run_group_tests_name("ste_modify", tests, NULL, NULL);
}
