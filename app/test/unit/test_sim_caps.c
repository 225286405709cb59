/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * QUERY_HCA_CAP answers of the model and the command path's error
 * reporting: fields checked at their mlx5_ifc bit offsets (relative to the
 * capability, which starts at byte 16 of query_hca_cap_out).
 */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "mlx5dm_prm_caps.h"
#include "test_sim_util.h"

#define CAP_OUT_BYTES (16 + 4096)

static int
query_cap(struct tsim *t, unsigned int type, uint8_t *out)
{
	uint8_t in[16] = { 0 };

	SET(in, 0x00, 16, 0x100);               /* QUERY_HCA_CAP */
	SET(in, 0x30, 16, (type << 1) | 1);     /* op_mod: current */
	memset(out, 0xa5, CAP_OUT_BYTES);
	return t->ops->devx_general_cmd(t->ctx, in, sizeof(in), out, CAP_OUT_BYTES);
}

static void
test_caps_default(void **state)
{
	static uint8_t out[CAP_OUT_BYTES];
	const struct mlx5dm_sim_caps *caps;
	const uint8_t *cap = out + 16;
	struct tsim t;

	(void)state;
	assert_int_equal(tsim_open(&t, NULL), 0);
	caps = mlx5dm_sim_caps(t.sim);
	/* GENERAL */
	assert_int_equal(query_cap(&t, 0x0, out), 0);
	assert_int_equal(tsim_status(out), 0);
	assert_int_equal(GET(cap, 0x030, 16), 1);          /* vhca_id */
	assert_int_equal(GET(cap, 0x444, 4), 1);           /* steering_format_version */
	assert_int_equal(GET(cap, 0x248, 1), 1);           /* fl_rc_qp_when_roce_disabled */
	assert_int_equal(GET(cap, 0x21d, 1), 0);           /* roce */
	assert_int_equal(GET(cap, 0x1b6, 2), 1);           /* port_type Ethernet */
	assert_int_equal(GET(cap, 0x1a7, 1), 0);           /* eswitch_manager */
	/* general_obj_types: SW_ICM (bit 8) and modify-header argument (bit 0x23) */
	assert_true(GET(cap, 0x400, 64) & (1ull << 0x23));
	assert_true(GET(cap, 0x400, 64) & (1ull << 0x08));
	assert_int_equal(GET(cap, 0x773, 5), 16);          /* argument max_alloc */
	/*
	 * Flex parsers (DW42 flex_parser_protocols: MPLS-o-GRE bit 4, MPLS-o-UDP
	 * bit 5 and nothing else; DW54[7:4] / [3:0] their ids 3 and 4), and the
	 * same read through the library's capability layout.
	 */
	assert_int_equal(GET(cap, 0x540, 32), 0x30);
	assert_int_equal(GET(cap, 0x6d8, 4), 3);
	assert_int_equal(GET(cap, 0x6dc, 4), 4);
	assert_int_equal(mlx5dm_prm_fget(out, mlx5dm_prm_caps_general.flex_parser_protocols),
			 MLX5DM_FLEX_PARSER_MPLS_OVER_GRE_ENABLED |
			 MLX5DM_FLEX_PARSER_MPLS_OVER_UDP_ENABLED);
	assert_int_equal(mlx5dm_prm_fget(out, mlx5dm_prm_caps_general.
					 flex_parser_id_outer_first_mpls_over_gre), 3);
	assert_int_equal(mlx5dm_prm_fget(out, mlx5dm_prm_caps_general.
					 flex_parser_id_outer_first_mpls_over_udp_label), 4);
	/* The ICMP parsers stay unassigned (v1 matches ICMP without them). */
	assert_int_equal(GET(cap, 0x6c8, 16), 0);
	/* NIC_FLOW_TABLE */
	assert_int_equal(query_cap(&t, 0x7, out), 0);
	assert_int_equal(GET(cap, 0x200 + 0x01e, 1), 1);   /* RX sw_owner_v2 */
	assert_int_equal(GET(cap, 0x200 + 0x011, 1), 0);   /* RX sw_owner (CX-5 only) */
	assert_int_equal(GET(cap, 0x800 + 0x01e, 1), 1);   /* TX sw_owner_v2 */
	assert_int_equal(GET(cap, 0x200 + 0x038, 8), 64);  /* RX max_ft_level */
	assert_int_equal(GET(cap, 0x800 + 0x038, 8), 64);  /* TX max_ft_level */
	assert_int_equal(GET(cap, 0x036, 10), 128);        /* max_encap_header_size */
	/* Drop/allow addresses at capability byte 1024/1032/1040: distinct, GVMI in 63:48. */
	assert_true(GET(cap, 0x2000, 64) == caps->nic_rx_drop_icm_addr);
	assert_true(GET(cap, 0x2040, 64) == caps->nic_tx_drop_icm_addr);
	assert_true(GET(cap, 0x2080, 64) == caps->nic_tx_allow_icm_addr);
	assert_int_equal(GET(cap, 0x2000, 16), 1);
	assert_true(caps->nic_rx_drop_icm_addr != caps->nic_tx_drop_icm_addr);
	assert_true(caps->nic_tx_allow_icm_addr != caps->nic_tx_drop_icm_addr);
	assert_int_equal(mlx5dm_sim_terminal_lookup(t.sim, caps->nic_rx_drop_icm_addr, NULL),
			 MLX5DM_SIM_TERM_DROP);
	assert_int_equal(mlx5dm_sim_terminal_lookup(t.sim, caps->nic_tx_allow_icm_addr, NULL),
			 MLX5DM_SIM_TERM_TX_WIRE);
	/* ESW_FLOW_TABLE: no FDB ownership, no FDB drop address. */
	assert_int_equal(query_cap(&t, 0x8, out), 0);
	assert_int_equal(GET(cap, 0x200 + 0x011, 1), 0);
	assert_int_equal(GET(cap, 0x200 + 0x01e, 1), 0);
	assert_true(GET(cap, 0x1800, 64) == 0);
	/* DEVICE_MEMORY: sizes from the config, distinct start addresses below 2^40. */
	assert_int_equal(query_cap(&t, 0xf, out), 0);
	assert_int_equal(GET(cap, 0x118, 8), 29);          /* log_steering_sw_icm_size */
	assert_int_equal(GET(cap, 0x108, 8), 24);          /* log_header_modify_sw_icm_size */
	assert_int_equal(GET(cap, 0x112, 6), 12);          /* log_sw_icm_alloc_granularity */
	assert_int_equal(GET(cap, 0x138, 8), 20);          /* pattern */
	assert_int_equal(GET(cap, 0x120, 8), 20);          /* indirect encap */
	assert_true(GET(cap, 0x0c0, 64) == caps->steering_sw_icm_start);
	assert_true(GET(cap, 0x140, 64) == caps->header_modify_sw_icm_start);
	assert_true(GET(cap, 0x1c0, 64) == caps->header_modify_pattern_sw_icm_start);
	assert_true(GET(cap, 0x280, 64) == caps->indirect_encap_icm_base);
	assert_true(caps->steering_sw_icm_start != 0 && caps->steering_sw_icm_start < (1ull << 40));
	assert_true(caps->steering_sw_icm_start != caps->header_modify_sw_icm_start);
	assert_true(caps->header_modify_pattern_sw_icm_start != caps->indirect_encap_icm_base);
	assert_true(caps->indirect_encap_sw_icm);
	tsim_close(&t);
}

static void
test_caps_configured(void **state)
{
	static uint8_t out[CAP_OUT_BYTES];
	const uint8_t *cap = out + 16;
	struct mlx5dm_sim_config cfg;
	struct tsim t;

	(void)state;
	mlx5dm_sim_config_default(&cfg);
	cfg.steering_format_version = 0;
	cfg.vhca_id = 0x77;
	cfg.header_modify_argument = false;
	cfg.log_header_modify_pattern_sw_icm_size = 0;
	cfg.log_max_ft_level = 30;
	cfg.max_encap_header_size = 512;
	cfg.log_indirect_encap_sw_icm_size = 0;
	assert_int_equal(tsim_open(&t, &cfg), 0);
	/* No ENCAP ICM: the engine takes INSERT_POINTER data from reformat contexts. */
	assert_false(mlx5dm_sim_caps(t.sim)->indirect_encap_sw_icm);
	assert_int_equal(query_cap(&t, 0x0, out), 0);
	assert_int_equal(GET(cap, 0x030, 16), 0x77);
	assert_int_equal(GET(cap, 0x444, 4), 0);
	assert_false(GET(cap, 0x400, 64) & (1ull << 0x23));
	assert_int_equal(query_cap(&t, 0x7, out), 0);
	assert_int_equal(GET(cap, 0x200 + 0x011, 1), 1);   /* CX-5 style sw_owner */
	assert_int_equal(GET(cap, 0x200 + 0x01e, 1), 0);
	assert_int_equal(GET(cap, 0x200 + 0x038, 8), 30);
	assert_int_equal(GET(cap, 0x036, 10), 512);
	assert_int_equal(GET(cap, 0x2000, 16), 0x77);       /* GVMI of the drop address */
	assert_int_equal(query_cap(&t, 0xf, out), 0);
	assert_int_equal(GET(cap, 0x138, 8), 0);
	assert_true(GET(cap, 0x1c0, 64) == 0);              /* no pattern ICM */
	assert_int_equal(GET(cap, 0x120, 8), 0);            /* no ENCAP ICM */
	tsim_close(&t);
	/* An impossible configuration is refused at open. */
	cfg.steering_format_version = 9;
	assert_int_not_equal(tsim_open(&t, &cfg), 0);
	assert_null(t.dev);
}

static void
test_cmd_errors(void **state)
{
	static uint8_t out[CAP_OUT_BYTES];
	uint8_t in[272];
	struct tsim t;

	(void)state;
	assert_int_equal(tsim_open(&t, NULL), 0);
	/* Unsupported capability type: BAD_PARAM + syndrome, EREMOTEIO. */
	assert_int_equal(query_cap(&t, 0x3, out), EREMOTEIO);
	assert_int_equal(errno, EREMOTEIO);
	assert_int_equal(tsim_status(out), 0x03);
	assert_int_equal(tsim_syndrome(out) >> 24, 0x5d);
	assert_int_equal((tsim_syndrome(out) >> 12) & 0xfff, 0x100);
	/* Unknown opcode: BAD_OP. */
	memset(in, 0, sizeof(in));
	SET(in, 0x00, 16, 0x7ff);
	assert_int_equal(t.ops->devx_general_cmd(t.ctx, in, 16, out, 16), EREMOTEIO);
	assert_int_equal(tsim_status(out), 0x02);
	assert_int_not_equal(tsim_syndrome(out), 0);
	/* Output mailbox too short for a capability: BAD_OUTPUT_LEN. */
	SET(in, 0x00, 16, 0x100);
	SET(in, 0x30, 16, 1);
	assert_int_equal(t.ops->devx_general_cmd(t.ctx, in, 16, out, 64), EREMOTEIO);
	assert_int_equal(tsim_status(out), 0x11);
	/* Input too short: BAD_INPUT_LEN. */
	assert_int_equal(t.ops->devx_general_cmd(t.ctx, in, 8, out, CAP_OUT_BYTES), EREMOTEIO);
	assert_int_equal(tsim_status(out), 0x10);
	/* An object command through the general entry: rejected before firmware, out untouched. */
	memset(in, 0, sizeof(in));
	SET(in, 0x00, 16, 0x900);
	memset(out, 0x5a, 16);
	assert_int_equal(t.ops->devx_general_cmd(t.ctx, in, sizeof(in), out, 16), EINVAL);
	assert_int_equal(out[0], 0x5a);
	/* No mailbox at all. */
	assert_int_equal(t.ops->devx_general_cmd(t.ctx, NULL, 0, out, 16), EINVAL);
	/* A general command through the object-create entry. */
	SET(in, 0x00, 16, 0x100);
	assert_null(t.ops->devx_obj_create(t.ctx, in, 16, out, CAP_OUT_BYTES));
	assert_int_equal(errno, EINVAL);
	/* SYNC_STEERING: no payload, OK. */
	memset(in, 0, sizeof(in));
	SET(in, 0x00, 16, 0xb00);
	assert_int_equal(t.ops->devx_general_cmd(t.ctx, in, 32, out, 16), 0);
	assert_int_equal(tsim_status(out), 0);
	tsim_close(&t);
}

/*
 * The port's RoCE state and address, what a send ring that may not use
 * force-loopback connects through: QUERY_NIC_VPORT_CONTEXT's roce_en and
 * QUERY_ROCE_ADDRESS's GID index 0 (mlx5_ifc offsets), with the caps that
 * go with them.
 */
static void
test_port_address(void **state)
{
	/* MAC 02:00:00:00:00:01 (vhca_id 1); its modified EUI-64 link-local GID. */
	static const uint8_t gid[16] = { 0xfe, 0x80, 0, 0, 0, 0, 0, 0,
					 0, 0, 0, 0xff, 0xfe, 0, 0, 1 };
	static const uint8_t mac[6] = { 0x02, 0, 0, 0, 0, 1 };
	static uint8_t out[CAP_OUT_BYTES];
	struct mlx5dm_sim_config cfg;
	uint8_t in[16];
	struct tsim t;
	unsigned int roce;

	(void)state;
	for (roce = 0; roce < 2; roce++) {
		mlx5dm_sim_config_default(&cfg);
		cfg.roce = roce;
		cfg.no_force_loopback = roce;
		assert_int_equal(tsim_open(&t, &cfg), 0);
		assert_int_equal(query_cap(&t, 0x0, out), 0);
		assert_int_equal(GET(out + 16, 0x21d, 1), roce);      /* roce */
		assert_int_equal(GET(out + 16, 0x248, 1), !roce);     /* fl_rc_qp_..._disabled */
		assert_int_equal(query_cap(&t, 0x4, out), 0);
		assert_int_equal(GET(out + 16, 0x005, 1), !roce);     /* ..._disabled (ROCE caps) */
		assert_int_equal(GET(out + 16, 0x006, 1), !roce);     /* ..._enabled */
		memset(in, 0, sizeof(in));
		SET(in, 0x00, 16, 0x754);
		assert_int_equal(t.ops->devx_general_cmd(t.ctx, in, 16, out, 16 + 256), 0);
		assert_int_equal(GET(out, 0x80 + 0x1f, 1), roce);     /* roce_en */
		assert_memory_equal(out + (0x80 + 0x7b0) / 8, mac, 6); /* permanent_address */
		memset(in, 0, sizeof(in));
		SET(in, 0x00, 16, 0x760);
		SET(in, 0x5c, 4, 1);                                  /* vhca_port_num */
		assert_int_equal(t.ops->devx_general_cmd(t.ctx, in, 16, out, 48), 0);
		assert_memory_equal(out + 16, gid, 16);               /* source_l3_address */
		assert_memory_equal(out + 34, mac, 6);                /* source_mac */
		assert_int_equal(GET(out, 0x80 + 0xd8, 8), 2);        /* roce_version 2 */
		/* One GID on one port. */
		SET(in, 0x40, 16, 1);
		assert_int_equal(t.ops->devx_general_cmd(t.ctx, in, 16, out, 48), EREMOTEIO);
		assert_int_equal(tsim_status(out), 0x03);
		SET(in, 0x40, 16, 0);
		SET(in, 0x5c, 4, 2);
		assert_int_equal(t.ops->devx_general_cmd(t.ctx, in, 16, out, 48), EREMOTEIO);
		tsim_close(&t);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_caps_default),
		cmocka_unit_test(test_caps_configured),
		cmocka_unit_test(test_cmd_errors),
		cmocka_unit_test(test_port_address),
	};

	return cmocka_run_group_tests_name("sim_caps", tests, NULL, NULL);
}
