/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * mlx5dm_ctx_open() on a device that lacks what SW steering needs: the
 * model presents the capabilities, the context refuses with ENOTSUP and
 * one log line per missing capability, and creates nothing on the device.
 * The port's attributes as the device's vport reports them.
 */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <cmocka.h>

#include "mlx5dm_osdep.h"
#include "mlx5dm_dev.h"
#include "mlx5dm_sim.h"
#include "mlx5dm_steer.h"
#include "mlx5dm_prm_vport.h"
#include "mlx5dm_steer_priv.h"

#define MAX_LINES 16

static char lines[MAX_LINES][512];
static unsigned int nb_lines;

static void
capture(enum mlx5dm_log_level level, const char *module, const char *fmt, va_list ap)
{
	if (level > MLX5DM_LOG_ERR || strcmp(module, "steer") != 0 || nb_lines == MAX_LINES)
		return;
	vsnprintf(lines[nb_lines++], sizeof(lines[0]), fmt, ap);
}

typedef void (*cfg_fn)(struct mlx5dm_sim_config *cfg);

/* Open a context on a model configured by fn; expect exactly the lines in want. */
static void
refused(cfg_fn fn, const char * const *want, unsigned int n)
{
	struct mlx5dm_dev_attr attr = { .transport = "sim" };
	struct mlx5dm_sim_config cfg;
	struct mlx5dm_dev *dev;
	unsigned int i;

	mlx5dm_sim_config_default(&cfg);
	fn(&cfg);
	attr.config = &cfg;
	dev = mlx5dm_dev_open(&attr);
	assert_non_null(dev);
	nb_lines = 0;
	mlx5dm_log_set_hook(capture);
	errno = 0;
	assert_null(mlx5dm_ctx_open(dev, NULL));
	mlx5dm_log_set_hook(NULL);
	assert_int_equal(errno, ENOTSUP);
	for (i = 0; i < nb_lines; i++)
		print_message("refused: %s\n", lines[i]);
	assert_int_equal(nb_lines, n);
	for (i = 0; i < n; i++)
		assert_string_equal(lines[i], want[i]);
	/* Nothing was created on the device: no PD, UAR, DM, queue or table. */
	assert_int_equal(mlx5dm_sim_live_objects(mlx5dm_sim_of(dev)), 0);
	mlx5dm_dev_close(dev);
}

static void
cfg_fmt0(struct mlx5dm_sim_config *cfg)
{
	cfg->steering_format_version = 0;
}

static void
cfg_fmt2(struct mlx5dm_sim_config *cfg)
{
	cfg->steering_format_version = 2;
}

static void
cfg_no_sw_owner(struct mlx5dm_sim_config *cfg)
{
	cfg->no_sw_owner = true;
}

static void
cfg_ft_level(struct mlx5dm_sim_config *cfg)
{
	cfg->log_max_ft_level = 1;
}

static void
cfg_qp_sz(struct mlx5dm_sim_config *cfg)
{
	cfg->log_max_qp_sz = 8;
}

static void
cfg_cq_sz(struct mlx5dm_sim_config *cfg)
{
	cfg->log_max_cq_sz = 9;
}

static void
cfg_icm(struct mlx5dm_sim_config *cfg)
{
	cfg->log_steering_sw_icm_size = 25;
	cfg->log_header_modify_sw_icm_size = 14;
	cfg->log_header_modify_pattern_sw_icm_size = 0;
	cfg->log_indirect_encap_sw_icm_size = 17;
}

static void
cfg_no_connect(struct mlx5dm_sim_config *cfg)
{
	cfg->roce = false;
	cfg->no_force_loopback = true;
}

/* Everything at once: still one line each. */
static void
cfg_all(struct mlx5dm_sim_config *cfg)
{
	cfg_fmt2(cfg);
	cfg_no_sw_owner(cfg);
	cfg_ft_level(cfg);
	cfg_qp_sz(cfg);
	cfg_icm(cfg);
	cfg_no_connect(cfg);
}

static const char fmt_line[] = "steering_format_version %u (%s): only 1 (ConnectX-6 Dx, STE v1) "
			       "is implemented";
static const char owner_line[] = "NIC RX and TX flow tables: neither sw_owner nor sw_owner_v2: "
				 "software may not own the steering";
static const char level_line[] = "NIC flow tables: max_ft_level 1, at least 2 needed (the root "
				 "table jumps to SW-owned tables below it)";
static const char connect_line[] = "fl_rc_qp_when_roce_disabled 0 and RoCE disabled: the send "
				   "engine's QP can connect to itself neither by force-loopback "
				   "nor through the port's GID";
static const char * const icm_lines[] = {
	"log_steering_sw_icm_size 25: SW ICM of 2^26 bytes at least needed",
	"log_header_modify_sw_icm_size 14: SW ICM of 2^15 bytes at least needed",
	"log_header_modify_pattern_sw_icm_size 0: SW ICM of 2^15 bytes at least needed",
	"log_indirect_encap_sw_icm_size 17: SW ICM of 2^18 bytes at least needed",
};

static void
test_format_version(void **state)
{
	char l0[256], l2[256];
	const char *w0[] = { l0 }, *w2[] = { l2 };

	(void)state;
	snprintf(l0, sizeof(l0), fmt_line, 0, "ConnectX-5");
	snprintf(l2, sizeof(l2), fmt_line, 2, "ConnectX-7");
	refused(cfg_fmt0, w0, 1);
	refused(cfg_fmt2, w2, 1);
}

static void
test_sw_owner(void **state)
{
	const char *w[] = { owner_line };

	(void)state;
	refused(cfg_no_sw_owner, w, 1);
}

static void
test_ft_level(void **state)
{
	const char *w[] = { level_line };

	(void)state;
	refused(cfg_ft_level, w, 1);
}

static void
test_queue_sizes(void **state)
{
	const char *wq[] = {
		"log_max_qp_sz 8, log_max_cq_sz 22: the send engine's QP and CQ need 10",
	};
	const char *wc[] = {
		"log_max_qp_sz 15, log_max_cq_sz 9: the send engine's QP and CQ need 10",
	};

	(void)state;
	refused(cfg_qp_sz, wq, 1);
	refused(cfg_cq_sz, wc, 1);
}

static void
test_icm_sizes(void **state)
{
	(void)state;
	refused(cfg_icm, icm_lines, 4);
}

static void
test_send_connection(void **state)
{
	const char *w[] = { connect_line };

	(void)state;
	refused(cfg_no_connect, w, 1);
}

static void
test_all_missing(void **state)
{
	char l2[256];
	const char *w[] = {
		l2, owner_line, level_line,
		"log_max_qp_sz 8, log_max_cq_sz 22: the send engine's QP and CQ need 10",
		icm_lines[0], icm_lines[1], icm_lines[2], icm_lines[3], connect_line,
	};

	(void)state;
	snprintf(l2, sizeof(l2), fmt_line, 2, "ConnectX-7");
	refused(cfg_all, w, 9);
}

/* The default model (a ConnectX-6 Dx) passes, and its context is all on the device. */
static void
test_default_accepted(void **state)
{
	struct mlx5dm_dev_attr attr = { .transport = "sim" };
	struct mlx5dm_dev *dev;
	struct mlx5dm_ctx *ctx;

	(void)state;
	dev = mlx5dm_dev_open(&attr);
	assert_non_null(dev);
	nb_lines = 0;
	mlx5dm_log_set_hook(capture);
	ctx = mlx5dm_ctx_open(dev, NULL);
	mlx5dm_log_set_hook(NULL);
	assert_non_null(ctx);
	assert_int_equal(nb_lines, 0);
	assert_true(mlx5dm_sim_live_objects(mlx5dm_sim_of(dev)) > 0);
	assert_int_equal(mlx5dm_ctx_close(ctx), 0);
	assert_int_equal(mlx5dm_sim_live_objects(mlx5dm_sim_of(dev)), 0);
	mlx5dm_dev_close(dev);
	assert_int_equal(mlx5dm_sim_left_behind(), 0);
}

static void
test_port_attr(void **state)
{
	struct mlx5dm_dev_attr attr = { .transport = "sim" };
	static const uint8_t mac[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x01 };
	static const uint8_t mac2[6] = { 0x0c, 0x42, 0xa1, 0x12, 0x34, 0x56 };
	struct mlx5dm_sim_config cfg;
	struct mlx5dm_port_attr pa;
	struct mlx5dm_dev *dev;

	(void)state;
	/* Defaults: a netdev of MTU 1500 (vport 1522), link up. */
	mlx5dm_sim_config_default(&cfg);
	attr.config = &cfg;
	dev = mlx5dm_dev_open(&attr);
	assert_non_null(dev);
	assert_int_equal(mlx5dm_port_attr_query(dev, &pa), 0);
	assert_memory_equal(pa.mac, mac, 6);
	assert_int_equal(pa.mtu, 1500);
	assert_true(pa.link_up);
	mlx5dm_dev_close(dev);
	/* What the vport says, whatever it says. */
	cfg.vport_mac = 0x0c42a1123456ull;
	cfg.vport_mtu = 9000 + 22;
	cfg.link_down = true;
	dev = mlx5dm_dev_open(&attr);
	assert_non_null(dev);
	assert_int_equal(mlx5dm_port_attr_query(dev, &pa), 0);
	assert_memory_equal(pa.mac, mac2, 6);
	assert_int_equal(pa.mtu, 9000);
	assert_false(pa.link_up);
	/* A vport MTU that cannot hold a frame is refused. */
	mlx5dm_dev_close(dev);
	cfg.vport_mtu = 22;
	dev = mlx5dm_dev_open(&attr);
	assert_non_null(dev);
	assert_int_equal(mlx5dm_port_attr_query(dev, &pa), -EIO);
	assert_int_equal(mlx5dm_sim_live_objects(mlx5dm_sim_of(dev)), 0);
	mlx5dm_dev_close(dev);
}

/* A PF with two VFs: the FDB as an FDB domain reads it on the manager; a VF has none. */
static void
test_fdb_caps(void **state)
{
	struct mlx5dm_dev_attr attr = { .transport = "sim" };
	struct mlx5dm_sim_config cfg, vcfg;
	struct mlx5dm_caps caps, vcaps;
	struct mlx5dm_vport_caps vc[3], u;
	struct mlx5dm_dev *pf, *vf[2];
	struct mlx5dm_domain *dom;
	struct mlx5dm_ctx *ctx;
	uint16_t g;
	unsigned int i;

	(void)state;
	mlx5dm_sim_config_default(&cfg);
	cfg.num_vfs = 2;
	g = cfg.vhca_id;
	attr.config = &cfg;
	pf = mlx5dm_dev_open(&attr);
	assert_non_null(pf);
	for (i = 0; i < 2; i++) {
		mlx5dm_sim_config_default(&vcfg);
		vcfg.esw_pf = mlx5dm_sim_of(pf);
		vcfg.vf = (uint16_t)i;
		attr.config = &vcfg;
		vf[i] = mlx5dm_dev_open(&attr);
		assert_non_null(vf[i]);
	}
	assert_int_equal(mlx5dm_caps_read(pf, &caps), 0);
	assert_true(caps.eswitch_manager);
	assert_true(caps.fdb.sw_owner);
	assert_int_equal(caps.fdb.max_ft_level, 64);
	/* Drop, uplink and vport entries: distinct addresses of the manager (GVMI 63:48). */
	assert_int_equal(caps.fdb.drop_icm_rx >> 48, g);
	assert_int_equal(caps.fdb.drop_icm_tx >> 48, g);
	assert_true(caps.fdb.drop_icm_rx != caps.fdb.drop_icm_tx);
	assert_int_equal(caps.fdb.uplink.num, MLX5DM_VPORT_UPLINK);
	assert_int_equal(caps.fdb.uplink.vport_gvmi, 0);
	assert_int_equal(caps.fdb.uplink.vhca_gvmi, g);
	assert_int_equal(caps.fdb.uplink.icm_rx >> 48, g);
	assert_true(caps.fdb.uplink.icm_tx != caps.fdb.drop_icm_tx);
	assert_int_equal(mlx5dm_caps_vport(pf, &caps, MLX5DM_VPORT_UPLINK, &u), 0);
	assert_memory_equal(&u, &caps.fdb.uplink, sizeof(u));
	for (i = 0; i < 3; i++) {
		assert_int_equal(mlx5dm_caps_vport(pf, &caps, (uint16_t)i, &vc[i]), 0);
		assert_int_equal(vc[i].num, i);
		assert_int_equal(vc[i].vhca_gvmi, g);
		assert_int_equal(vc[i].icm_rx >> 48, g);
		assert_int_equal(vc[i].icm_tx >> 48, g);
		assert_true(vc[i].icm_rx != vc[i].icm_tx);
		assert_true(vc[i].icm_rx != caps.fdb.uplink.icm_rx);
		assert_true(i == 0 || vc[i].icm_rx != vc[i - 1].icm_rx);
	}
	assert_memory_equal(&vc[0], &caps.fdb.manager, sizeof(vc[0]));
	assert_int_equal(vc[0].vport_gvmi, g);
	/* A VF's vport gvmi is the vhca_id the VF itself reports; it manages nothing. */
	for (i = 0; i < 2; i++) {
		assert_int_equal(mlx5dm_caps_read(vf[i], &vcaps), 0);
		assert_int_equal(vc[1 + i].vport_gvmi, vcaps.vhca_id);
		assert_false(vcaps.eswitch_manager);
		assert_false(vcaps.fdb.sw_owner);
		assert_int_equal(mlx5dm_caps_vport(vf[i], &vcaps, 0, &u), -ENOTSUP);
	}
	assert_int_equal(mlx5dm_caps_vport(pf, &caps, 3, &u), -EIO);
	/* FDB domains: none on a VF, not yet on the manager. */
	ctx = mlx5dm_ctx_open(vf[0], NULL);
	assert_non_null(ctx);
	nb_lines = 0;
	mlx5dm_log_set_hook(capture);
	assert_null(mlx5dm_domain_create(ctx, MLX5DM_DOMAIN_FDB));
	mlx5dm_log_set_hook(NULL);
	assert_int_equal(errno, ENOTSUP);
	assert_int_equal(nb_lines, 1);
	assert_string_equal(lines[0],
			    "FDB: the device manages no e-switch with SW-owned FDB tables");
	assert_int_equal(mlx5dm_ctx_close(ctx), 0);
	/* The manager has one: its sides miss to the manager's vport, drop to the FDB's drops. */
	ctx = mlx5dm_ctx_open(pf, NULL);
	assert_non_null(ctx);
	dom = mlx5dm_domain_create(ctx, MLX5DM_DOMAIN_FDB);
	assert_non_null(dom);
	assert_int_equal(dom->half[0]->default_icm, vc[0].icm_rx);
	assert_int_equal(dom->half[1]->default_icm, vc[0].icm_tx);
	assert_int_equal(dom->half[0]->drop_icm, caps.fdb.drop_icm_rx);
	assert_int_equal(dom->half[1]->drop_icm, caps.fdb.drop_icm_tx);
	assert_int_equal(dom->half[0]->dir, MLX5DM_STE_DIR_RX);
	assert_int_equal(dom->half[1]->dir, MLX5DM_STE_DIR_TX);
	assert_int_equal(mlx5dm_ctx_close(ctx), -EBUSY);
	assert_int_equal(mlx5dm_domain_destroy(dom), 0);
	assert_int_equal(mlx5dm_ctx_close(ctx), 0);
	mlx5dm_dev_close(vf[0]);
	mlx5dm_dev_close(vf[1]);
	mlx5dm_dev_close(pf);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format_version),
		cmocka_unit_test(test_sw_owner),
		cmocka_unit_test(test_ft_level),
		cmocka_unit_test(test_queue_sizes),
		cmocka_unit_test(test_icm_sizes),
		cmocka_unit_test(test_send_connection),
		cmocka_unit_test(test_all_missing),
		cmocka_unit_test(test_default_accepted),
		cmocka_unit_test(test_port_attr),
		cmocka_unit_test(test_fdb_caps),
	};

	return cmocka_run_group_tests_name("steer_caps", tests, NULL, NULL);
}
