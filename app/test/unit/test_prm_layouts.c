/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * PRM layouts declared as data in lib/prm: capability fields read back
 * from QUERY_HCA_CAP output bytes placed by hand (offsets of
 * mlx5_ifc.h cmd_hca_cap, +16 for the output header), and the fte_match_param
 * field table checked for structure and against literal positions.
 */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "mlx5dm_prm.h"

#define OUT_SIZE MLX5DM_QUERY_HCA_CAP_OUT_SIZE
/* Byte i of the capability structure inside the output mailbox. */
#define CAP(i) (16 + (i))

static uint64_t
t_get(const uint8_t *out, struct mlx5dm_prm_field f)
{
	return mlx5dm_prm_fget(out, f);
}

static void
test_query_hca_cap_in(void **state)
{
	const struct mlx5dm_prm_query_hca_cap_in *l = &mlx5dm_prm_query_hca_cap_in;
	uint8_t in[16] = { 0 };

	(void)state;
	mlx5dm_prm_fset(in, l->opcode, MLX5DM_CMD_QUERY_HCA_CAP);
	mlx5dm_prm_fset(in, l->op_mod, MLX5DM_HCA_CAP_OPMOD(MLX5DM_HCA_CAP_NIC_FLOW_TABLE));
	assert_memory_equal(in, ((const uint8_t[]){ 0x01, 0x00, 0, 0, 0, 0, 0x00, 0x0f }), 8);
}

static void
test_general_caps(void **state)
{
	const struct mlx5dm_prm_caps_general *g = &mlx5dm_prm_caps_general;
	static uint8_t out[OUT_SIZE];

	(void)state;
	memset(out, 0, sizeof(out));
	out[CAP(6)] = 0x12;			/* vhca_id DW1[15:0] */
	out[CAP(7)] = 0x34;
	out[CAP(136)] = 0xc1;			/* sq_ts_format 3, format version 1 */
	out[CAP(128 + 3)] = 0x08;		/* general_obj_types bit 0x23 */
	out[CAP(52)] = 0x01;			/* eswitch_manager DW13[24] */
	out[CAP(168 + 3)] = 0x80;		/* flex_parser_protocols bit 7 */
	out[CAP(219)] = 0x53;			/* parser ids: MPLSoGRE 5, MPLSoUDP 3 */
	out[CAP(255)] = 0x01;			/* definer format 0 supported */
	assert_int_equal(t_get(out, g->vhca_id), 0x1234);
	assert_int_equal(t_get(out, g->steering_format_version), 1);
	assert_int_equal(t_get(out, g->sq_ts_format), 3);
	assert_true(t_get(out, g->general_obj_types) ==
		    1ull << MLX5DM_GENERAL_OBJ_TYPE_HEADER_MODIFY_ARGUMENT);
	assert_int_equal(t_get(out, g->eswitch_manager), 1);
	assert_int_equal(t_get(out, g->flex_parser_protocols),
			 MLX5DM_FLEX_PARSER_VXLAN_GPE_ENABLED);
	assert_int_equal(t_get(out, g->flex_parser_id_outer_first_mpls_over_gre), 5);
	assert_int_equal(t_get(out, g->flex_parser_id_outer_first_mpls_over_udp_label), 3);
	assert_true(t_get(out, g->match_definer_format_supported) == 1);
	assert_int_equal(t_get(out, g->prio_tag_required), 0);
}

static void
test_nic_flow_table_caps(void **state)
{
	const struct mlx5dm_prm_caps_nic_ft *n = &mlx5dm_prm_caps_nic_ft;
	static uint8_t out[OUT_SIZE];

	(void)state;
	memset(out, 0, sizeof(out));
	out[CAP(6)] = 0x01;			/* max_encap_header_size = 256 */
	out[CAP(64 + 2)] = 0x40;		/* RX sw_owner DW0[14] */
	out[CAP(64 + 3)] = 0x02;		/* RX sw_owner_v2 DW0[1] */
	out[CAP(64 + 4)] = 0x1a;		/* RX log_max_ft_size DW1[29:24] */
	out[CAP(64 + 7)] = 0x3f;		/* RX max_ft_level DW1[7:0] */
	out[CAP(256 + 2)] = 0x40;		/* TX sw_owner */
	/*
	 * The SW-steering addresses sit at cap bytes 1024/1032/1040 (bit 0x2000
	 * of flow_table_nic_cap in rdma-core's, DPDK's and the kernel's
	 * mlx5_ifc.h).
	 */
	memcpy(out + CAP(1024), (const uint8_t[]){ 0, 1, 0, 0, 0x12, 0x34, 0x56, 0x40 }, 8);
	memcpy(out + CAP(1040), (const uint8_t[]){ 0, 1, 0, 0, 0xab, 0xcd, 0xef, 0x00 }, 8);
	assert_int_equal(t_get(out, n->max_encap_header_size), 256);
	assert_int_equal(t_get(out, n->rx.sw_owner), 1);
	assert_int_equal(t_get(out, n->rx.sw_owner_v2), 1);
	assert_int_equal(t_get(out, n->rx.log_max_ft_size), 0x1a);
	assert_int_equal(t_get(out, n->rx.max_ft_level), 0x3f);
	assert_int_equal(t_get(out, n->tx.sw_owner), 1);
	assert_int_equal(t_get(out, n->tx.sw_owner_v2), 0);
	assert_true(t_get(out, n->sw_steering_nic_rx_action_drop_icm_address) ==
		    0x0001000012345640ull);
	assert_true(t_get(out, n->sw_steering_nic_tx_action_drop_icm_address) == 0);
	assert_true(t_get(out, n->sw_steering_nic_tx_action_allow_icm_address) ==
		    0x00010000abcdef00ull);
}

static void
test_esw_roce_caps(void **state)
{
	const struct mlx5dm_prm_caps_esw_ft *e = &mlx5dm_prm_caps_esw_ft;
	const struct mlx5dm_prm_caps_roce *r = &mlx5dm_prm_caps_roce;
	static uint8_t out[OUT_SIZE];

	(void)state;
	memset(out, 0, sizeof(out));
	out[CAP(64 + 3)] = 0x02;		/* FDB sw_owner_v2 */
	out[CAP(768 + 7)] = 0x40;		/* FDB RX drop */
	out[CAP(792 + 6)] = 0x01;		/* uplink TX */
	assert_int_equal(t_get(out, e->fdb.sw_owner_v2), 1);
	assert_true(t_get(out, e->sw_steering_fdb_action_drop_icm_address_rx) == 0x40);
	assert_true(t_get(out, e->sw_steering_uplink_icm_address_tx) == 0x100);
	memset(out, 0, sizeof(out));
	out[CAP(0)] = 0x02;			/* fl_rc_qp_when_roce_enabled DW0[25] */
	out[CAP(3)] = 0x01;			/* qp_ts_format */
	assert_int_equal(t_get(out, r->fl_rc_qp_when_roce_enabled), 1);
	assert_int_equal(t_get(out, r->fl_rc_qp_when_roce_disabled), 0);
	assert_int_equal(t_get(out, r->qp_ts_format), 1);
}

static void
test_device_memory_caps(void **state)
{
	const struct mlx5dm_prm_caps_dev_mem *d = &mlx5dm_prm_caps_dev_mem;
	static uint8_t out[OUT_SIZE];

	(void)state;
	memset(out, 0, sizeof(out));
	out[CAP(24 + 3)] = 0x01;		/* steering start 0x0000_0001_0000_0000 */
	out[CAP(33)] = 20;			/* log_header_modify_sw_icm_size */
	out[CAP(34)] = 17;			/* log_sw_icm_alloc_granularity */
	out[CAP(35)] = 30;			/* log_steering_sw_icm_size */
	out[CAP(36)] = 24;			/* log_indirect_encap_sw_icm_size */
	out[CAP(39)] = 19;			/* log_header_modify_pattern_sw_icm_size */
	out[CAP(40 + 3)] = 0x02;
	out[CAP(56 + 3)] = 0x03;
	out[CAP(80 + 3)] = 0x04;
	assert_true(t_get(out, d->steering_sw_icm_start_address) == 0x100000000ull);
	assert_int_equal(t_get(out, d->log_header_modify_sw_icm_size), 20);
	assert_int_equal(t_get(out, d->log_sw_icm_alloc_granularity), 17);
	assert_int_equal(t_get(out, d->log_steering_sw_icm_size), 30);
	assert_int_equal(t_get(out, d->log_indirect_encap_sw_icm_size), 24);
	assert_int_equal(t_get(out, d->log_header_modify_pattern_sw_icm_size), 19);
	assert_true(t_get(out, d->header_modify_sw_icm_start_address) == 0x200000000ull);
	assert_true(t_get(out, d->header_modify_pattern_sw_icm_start_address) == 0x300000000ull);
	assert_true(t_get(out, d->indirect_encap_icm_base) == 0x400000000ull);
	assert_true(t_get(out, d->indirect_encap_sw_icm_start_address) == 0);
}

/* Every field inside its section, no overlaps, names "section.field". */
static void
test_fte_table_structure(void **state)
{
	static const char *const sec[] = {
		"outer.", "misc.", "inner.", "misc2.", "misc3.", "misc4.", "misc5.",
	};
	uint8_t owner[448 * 8];
	unsigned int i, b;

	(void)state;
	memset(owner, 0, sizeof(owner));
	for (i = 0; i < MLX5DM_FTE_NUM_FIELDS; i++) {
		const struct mlx5dm_fte_field_desc *d = &mlx5dm_fte_fields[i];
		unsigned int s = d->section;

		assert_true(s < 7);
		assert_true(d->f.width >= 1 && d->f.width <= 32);
		assert_true(d->f.bit >= s * 512);
		assert_true(d->f.bit + d->f.width <= (s + 1) * 512);
		assert_memory_equal(d->name, sec[s], strlen(sec[s]));
		for (b = d->f.bit; b < d->f.bit + d->f.width; b++) {
			assert_int_equal(owner[b], 0);
			owner[b] = 1;
		}
	}
}

static void
test_fte_positions(void **state)
{
	static const struct {
		enum mlx5dm_fte_field id;
		unsigned int bit, width;
		const char *name;
	} cases[] = {
		{ MLX5DM_FTE(outer, ip_ttl_hoplimit), 0x0d8, 8, "outer.ip_ttl_hoplimit" },
		{ MLX5DM_FTE(outer, tcp_flags), 0x097, 9, "outer.tcp_flags" },
		{ MLX5DM_FTE(inner, smac_47_16), 0x400, 32, "inner.smac_47_16" },
		{ MLX5DM_FTE(inner, dst_ip_31_0), 0x400 + 0x1e0, 32, "inner.dst_ip_31_0" },
		{ MLX5DM_FTE(misc, vxlan_vni), 0x200 + 0x0a0, 24, "misc.vxlan_vni" },
		{ MLX5DM_FTE(misc, inner_ipv6_flow_label), 0x200 + 0x10c, 20,
		  "misc.inner_ipv6_flow_label" },
		{ MLX5DM_FTE(misc2, metadata_reg_c_0), 0x600 + 0x160, 32,
		  "misc2.metadata_reg_c_0" },
		{ MLX5DM_FTE(misc3, outer_tcp_seq_num), 0x800 + 0x020, 32,
		  "misc3.outer_tcp_seq_num" },
		{ MLX5DM_FTE(misc4, prog_sample_field_id_7), 0xa00 + 0x1e0, 32,
		  "misc4.prog_sample_field_id_7" },
		{ MLX5DM_FTE(misc5, tunnel_header_3), 0xc00 + 0x0e0, 32, "misc5.tunnel_header_3" },
	};
	uint8_t p[448] = { 0 };
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct mlx5dm_fte_field_desc *d = &mlx5dm_fte_fields[cases[i].id];

		assert_int_equal(d->f.bit, cases[i].bit);
		assert_int_equal(d->f.width, cases[i].width);
		assert_string_equal(d->name, cases[i].name);
	}
	/* Accessors: outer.ethertype = bytes 6..7, misc.gre_key_l = byte 64 + 19. */
	mlx5dm_fte_set(p, MLX5DM_FTE(outer, ethertype), 0x86dd);
	mlx5dm_fte_set(p, MLX5DM_FTE(misc, gre_key_l), 0x5a);
	assert_int_equal(p[6], 0x86);
	assert_int_equal(p[7], 0xdd);
	assert_int_equal(p[64 + 19], 0x5a);
	assert_int_equal(mlx5dm_fte_get(p, MLX5DM_FTE(outer, ethertype)), 0x86dd);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_query_hca_cap_in),
		cmocka_unit_test(test_general_caps),
		cmocka_unit_test(test_nic_flow_table_caps),
		cmocka_unit_test(test_esw_roce_caps),
		cmocka_unit_test(test_device_memory_caps),
		cmocka_unit_test(test_fte_table_structure),
		cmocka_unit_test(test_fte_positions),
	};

	return cmocka_run_group_tests_name("prm_layouts", tests, NULL, NULL);
}
