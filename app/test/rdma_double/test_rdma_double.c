/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The hardware transport through the rdma-core test double (run with
 * devtools/with-rdma-double.sh; without the double there is no mlx5
 * device and every test fails). The double presents the devices of
 * DOUBLE_CONF: it opens them by name, resolves their PCI address through
 * the sysfs tree it writes, builds the same steering as the sim transport
 * does (the two dumps are equal), and refuses what a device lacks: DEVX at
 * open, STE format 2 at steering open, a switch in switchdev mode with the
 * VFs asked for. Its E-Switch answers as the sim transport's does. A
 * device's PCI function has the NUMA node configured (VFs their PF's).
 */

#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "mlx5dm_dev.h"
#include "mlx5dm_dev_hw.h"
#include "mlx5dm_osdep.h"
#include "mlx5dm_prm_match.h"
#include "mlx5dm_steer.h"

#define DOUBLE_CONF "mlx5_0 mlx5_1,wire=mlx5_2,pci=0000:3b:00.1,numa_node=1 " \
		    "mlx5_2,wire=mlx5_1,numa_node=-1 mlx5_3,devx=0 mlx5_4,ste_format=2 " \
		    "mlx5_5,sw_owner=0 mlx5_6,vfs=2,numa_node=0"
/* The PF in switchdev mode: its VFs are the devices after the configured ones. */
#define ESW_PF "mlx5_6"
#define ESW_VFS 2
#define ESW_VF1 "mlx5_8"
#define NB_RULES 64

/* The error lines logged since the last reset, one per line. */
static char errors[2048];

static void
capture(enum mlx5dm_log_level level, const char *module, const char *fmt, va_list ap)
{
	size_t len = strlen(errors);

	(void)module;
	if (level > MLX5DM_LOG_ERR || len + 2 >= sizeof(errors))
		return;
	vsnprintf(errors + len, sizeof(errors) - len - 1, fmt, ap);
	strcat(errors, "\n");
}

static struct mlx5dm_dev *
open_hw(const char *name)
{
	struct mlx5dm_dev_attr attr = { .transport = "hw", .ib_device = name };

	return mlx5dm_dev_open(&attr);
}

/* open_hw(name) with the error lines it logs in errors[]. */
static struct mlx5dm_dev *
open_hw_logged(const char *name)
{
	struct mlx5dm_dev *dev;

	mlx5dm_log_set_hook(capture);
	errors[0] = '\0';
	errno = 0;
	dev = open_hw(name);
	mlx5dm_log_set_hook(NULL);
	return dev;
}

static struct mlx5dm_dev *
open_hw_pci(const char *pci)
{
	struct mlx5dm_dev_attr attr = { .transport = "hw", .pci_addr = pci };

	return mlx5dm_dev_open(&attr);
}

/* The PCI function <ibdev_path>/device leads to, as rdma-core and DPDK's mlx5 read it. */
static void
pci_of(struct mlx5dm_dev *dev, char *out, size_t size)
{
	char path[PATH_MAX], real[PATH_MAX];
	const char *slash;

	snprintf(path, sizeof(path), "%s/device", dev->ctx->device->ibdev_path);
	assert_non_null(realpath(path, real));
	slash = strrchr(real, '/');
	assert_non_null(slash);
	snprintf(out, size, "%s", slash + 1);
}

/* dev is the device name, at the PCI function pci; closes it. */
static void
is_device(struct mlx5dm_dev *dev, const char *name, const char *pci)
{
	char addr[32];

	assert_non_null(dev);
	assert_string_equal(dev->ops->name, "hw");
	assert_string_equal(dev->ctx->device->name, name);
	pci_of(dev, addr, sizeof(addr));
	assert_string_equal(addr, pci);
	mlx5dm_dev_close(dev);
}

static void
test_open_by_name(void **state)
{
	(void)state;
	is_device(open_hw(NULL), "mlx5_0", "0000:08:00.0");
	is_device(open_hw("mlx5_1"), "mlx5_1", "0000:3b:00.1");
	/* By PCI address, as the hardware transport reads it from the sysfs tree. */
	is_device(open_hw_pci("3b:00.1"), "mlx5_1", "0000:3b:00.1");
	is_device(open_hw_pci("0000:09:00.0"), "mlx5_2", "0000:09:00.0");
}

/* The socket the device named name is opened on without one asked for. */
static int
socket_of(const char *name)
{
	struct mlx5dm_dev *dev = open_hw(name);
	int socket;

	assert_non_null(dev);
	socket = dev->socket;
	mlx5dm_dev_close(dev);
	return socket;
}

/* The NUMA node of the function: none configured (no file), a node, -1. */
static void
test_numa_node(void **state)
{
	(void)state;
	assert_int_equal(socket_of("mlx5_0"), MLX5DM_SOCKET_ANY);
	assert_int_equal(socket_of("mlx5_1"), 1);
	assert_int_equal(socket_of("mlx5_2"), MLX5DM_SOCKET_ANY);
}

/* NB_RULES dmac rules in an RX table of level 1, half drop, half jump to level 2. */
static char *
steer_and_dump(struct mlx5dm_dev *dev, size_t *len)
{
	struct mlx5dm_ctx_attr cattr = { .nb_queues = 1 };
	uint8_t mask[MLX5DM_MATCH_PARAM_SIZE] = { 0 };
	struct mlx5dm_rule *rules[NB_RULES];
	struct mlx5dm_action *drop, *jump;
	struct mlx5dm_matcher_attr ma = {
		.criteria = MLX5DM_FTE_CRITERIA(outer), .mask = mask,
	};
	struct mlx5dm_table *t1, *t2;
	struct mlx5dm_matcher *m;
	struct mlx5dm_domain *rx;
	struct mlx5dm_ctx *ctx;
	char *buf = NULL;
	unsigned int i;
	FILE *f;

	ctx = mlx5dm_ctx_open(dev, &cattr);
	assert_non_null(ctx);
	rx = mlx5dm_domain_create(ctx, MLX5DM_DOMAIN_NIC_RX);
	assert_non_null(rx);
	t1 = mlx5dm_table_create(rx, 1);
	t2 = mlx5dm_table_create(rx, 2);
	assert_non_null(t1);
	assert_non_null(t2);
	assert_int_equal(mlx5dm_domain_set_root(rx, t1), 0);
	mlx5dm_fte_set(mask, MLX5DM_FTE(outer, dmac_47_16), 0xffffffff);
	mlx5dm_fte_set(mask, MLX5DM_FTE(outer, dmac_15_0), 0xffff);
	m = mlx5dm_matcher_create(t1, &ma, NULL);
	assert_non_null(m);
	drop = mlx5dm_action_drop(rx);
	jump = mlx5dm_action_dest_table(rx, t2);
	assert_non_null(drop);
	assert_non_null(jump);
	for (i = 0; i < NB_RULES; i++) {
		uint8_t v[MLX5DM_MATCH_PARAM_SIZE] = { 0 };
		struct mlx5dm_action *a = i % 2 ? jump : drop;

		mlx5dm_fte_set(v, MLX5DM_FTE(outer, dmac_47_16), 0x02000000u + i);
		mlx5dm_fte_set(v, MLX5DM_FTE(outer, dmac_15_0), i);
		rules[i] = mlx5dm_rule_create(m, 0, v, 1, &a);
		assert_non_null(rules[i]);
	}
	assert_int_equal(mlx5dm_domain_sync(rx, 0), 0);
	f = open_memstream(&buf, len);
	assert_non_null(f);
	assert_int_equal(mlx5dm_domain_dump(rx, f), 0);
	fclose(f);
	for (i = 0; i < NB_RULES; i++)
		assert_int_equal(mlx5dm_rule_destroy(rules[i], 0), 0);
	assert_int_equal(mlx5dm_matcher_destroy(m), 0);
	assert_int_equal(mlx5dm_action_destroy(drop), 0);
	assert_int_equal(mlx5dm_action_destroy(jump), 0);
	assert_int_equal(mlx5dm_domain_set_root(rx, NULL), 0);
	assert_int_equal(mlx5dm_table_destroy(t1), 0);
	assert_int_equal(mlx5dm_table_destroy(t2), 0);
	assert_int_equal(mlx5dm_domain_destroy(rx), 0);
	assert_int_equal(mlx5dm_ctx_close(ctx), 0);
	return buf;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char * const *)a, *(char * const *)b);
}

/*
 * The RX rule entries of a dump (records 3303: ICM index, rule, STE hex)
 * without the rule's host address, sorted, one per line: what the
 * device's ICM holds, whatever order the rules were dumped in.
 */
static char *
entries(char *dump, unsigned int *n)
{
	char *line, *save = NULL, *lines[4 * NB_RULES], *out;
	size_t len = 0;
	unsigned int i;

	*n = 0;
	for (line = strtok_r(dump, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
		char *rule, *hex;

		if (strncmp(line, "3303,", 5) != 0)
			continue;
		rule = strchr(line + 5, ',');
		hex = rule != NULL ? strchr(rule + 1, ',') : NULL;
		assert_non_null(hex);
		memmove(rule, hex, strlen(hex) + 1);
		assert_true(*n < 4 * NB_RULES);
		lines[(*n)++] = line;
		len += strlen(line) + 1;
	}
	qsort(lines, *n, sizeof(lines[0]), cmp_str);
	out = calloc(1, len + 1);
	assert_non_null(out);
	for (i = 0; i < *n; i++) {
		strcat(out, lines[i]);
		strcat(out, "\n");
	}
	return out;
}

static void
test_steering_as_on_the_model(void **state)
{
	struct mlx5dm_dev_attr sim_attr = { .transport = "sim" };
	struct mlx5dm_dev *hw, *sim;
	char *hw_dump, *sim_dump, *hw_entries, *sim_entries;
	unsigned int hw_n, sim_n;
	size_t hw_len, sim_len;

	(void)state;
	hw = open_hw("mlx5_0");
	assert_non_null(hw);
	assert_string_equal(hw->ops->name, "hw");
	hw_dump = steer_and_dump(hw, &hw_len);
	mlx5dm_dev_close(hw);
	sim = mlx5dm_dev_open(&sim_attr);
	assert_non_null(sim);
	sim_dump = steer_and_dump(sim, &sim_len);
	mlx5dm_dev_close(sim);
	/* Every rule's entry, at the same ICM index with the same bytes as on the model. */
	hw_entries = entries(hw_dump, &hw_n);
	sim_entries = entries(sim_dump, &sim_n);
	assert_int_equal(hw_n, NB_RULES);
	assert_int_equal(sim_n, NB_RULES);
	assert_string_equal(hw_entries, sim_entries);
	free(hw_entries);
	free(sim_entries);
	free(hw_dump);
	free(sim_dump);
}

static void
test_refuse_no_devx(void **state)
{
	(void)state;
	assert_null(open_hw_logged("mlx5_3"));
	assert_int_equal(errno, EINVAL);
	/* The line names the device, DEVX and the reason. */
	assert_non_null(strstr(errors, "mlx5_3"));
	assert_non_null(strstr(errors, "DEVX"));
	assert_non_null(strstr(errors, "Invalid argument"));
	print_message("refused: %s", errors);
}

/* Steering on device name is refused (ENOTSUP) with a line that names what. */
static void
refused_at_steering(const char *name, const char *what)
{
	struct mlx5dm_ctx_attr cattr = { .nb_queues = 1 };
	struct mlx5dm_dev *dev;

	dev = open_hw(name);
	assert_non_null(dev);
	mlx5dm_log_set_hook(capture);
	errors[0] = '\0';
	errno = 0;
	assert_null(mlx5dm_ctx_open(dev, &cattr));
	mlx5dm_log_set_hook(NULL);
	assert_int_equal(errno, ENOTSUP);
	assert_non_null(strstr(errors, what));
	print_message("refused: %s", errors);
	mlx5dm_dev_close(dev);
}

static void
test_refuse_ste_format_2(void **state)
{
	(void)state;
	refused_at_steering("mlx5_4", "steering_format_version 2");
}

static void
test_refuse_no_sw_owner(void **state)
{
	(void)state;
	refused_at_steering("mlx5_5", "sw_owner");
}

static void
test_no_such_device(void **state)
{
	(void)state;
	assert_null(open_hw_logged("mlx5_9"));
	assert_int_equal(errno, ENODEV);
	assert_non_null(strstr(errors, "no RDMA device named mlx5_9 (ibv_get_device_list "
			       "returned 9 devices)"));
}

static struct mlx5dm_dev *
open_esw(const char *transport, const char *name, uint16_t num_vfs)
{
	struct mlx5dm_dev_attr attr = {
		.transport = transport, .ib_device = name, .num_vfs = num_vfs,
	};

	return mlx5dm_dev_open(&attr);
}

static struct mlx5dm_dev *
open_vf(struct mlx5dm_dev *pf, uint16_t vf)
{
	struct mlx5dm_dev_attr attr = {
		.transport = pf->ops->name, .esw_manager = pf, .vf = vf,
	};

	return mlx5dm_dev_open(&attr);
}

/*
 * The switch facts through mlx5dv_query_port on the double's PF in
 * switchdev mode equal the model's own (the sim transport) for the same
 * E-Switch: each vport's reg_c_0 stamp and mask, the same vports (the
 * uplink and 1..num_vfs) and no other, an FDB domain on both.
 */
static void
test_esw_as_on_the_model(void **state)
{
	static const uint16_t vports[] = { 0xffff, 1, 2, 3, 0x7fff };
	struct mlx5dm_ctx_attr cattr = { .nb_queues = 1 };
	struct mlx5dm_dev *dev[2];
	uint32_t value[2], mask[2];
	unsigned int i, k;
	int ret[2];

	(void)state;
	dev[0] = open_esw("hw", ESW_PF, ESW_VFS);
	assert_non_null(dev[0]);
	dev[1] = open_esw("sim", NULL, ESW_VFS);
	assert_non_null(dev[1]);
	for (i = 0; i < sizeof(vports) / sizeof(vports[0]); i++) {
		for (k = 0; k < 2; k++) {
			value[k] = mask[k] = 0;
			ret[k] = mlx5dm_dev_vport_reg_c0(dev[k], vports[i], &value[k], &mask[k]);
		}
		print_message("vport 0x%x: hw %d 0x%08x/0x%08x, sim %d 0x%08x/0x%08x\n",
			      vports[i], ret[0], value[0], mask[0], ret[1], value[1], mask[1]);
		assert_int_equal(ret[0], ret[1]);
		assert_int_equal(ret[0], vports[i] != 0xffff && vports[i] > ESW_VFS ? -EINVAL : 0);
		assert_int_equal(value[0], value[1]);
		assert_int_equal(mask[0], mask[1]);
	}
	assert_int_equal(mask[0], 0);
	for (k = 0; k < 2; k++) {
		struct mlx5dm_ctx *ctx = mlx5dm_ctx_open(dev[k], &cattr);
		struct mlx5dm_domain *fdb;

		assert_non_null(ctx);
		fdb = mlx5dm_domain_create(ctx, MLX5DM_DOMAIN_FDB);
		assert_non_null(fdb);
		assert_int_equal(mlx5dm_domain_destroy(fdb), 0);
		assert_int_equal(mlx5dm_ctx_close(ctx), 0);
	}
	mlx5dm_dev_close(dev[1]);
	mlx5dm_dev_close(dev[0]);
}

/*
 * A VF's vport as the device gives it: on hw the vport of the IB port
 * whose representor netdev is named pf0vf<vf>, on the model its E-Switch's
 * numbering, the same on both; none for a VF past the PF's, none on a VF.
 */
static void
test_esw_vf_vport(void **state)
{
	struct mlx5dm_dev *dev[2], *vf;
	uint16_t vport[2];
	uint32_t value, mask;
	unsigned int k;
	uint16_t i;

	(void)state;
	dev[0] = open_esw("hw", ESW_PF, ESW_VFS);
	assert_non_null(dev[0]);
	dev[1] = open_esw("sim", NULL, ESW_VFS);
	assert_non_null(dev[1]);
	for (i = 0; i < ESW_VFS; i++) {
		for (k = 0; k < 2; k++) {
			vport[k] = 0;
			assert_int_equal(mlx5dm_dev_vf_vport(dev[k], i, &vport[k]), 0);
			/* A vport of the switch, stamped as such. */
			assert_int_equal(mlx5dm_dev_vport_reg_c0(dev[k], vport[k], &value, &mask),
					 0);
		}
		assert_int_equal(vport[0], vport[1]);
		assert_int_not_equal(vport[0], 0);
		assert_int_not_equal(vport[0], 0xffff);
	}
	for (k = 0; k < 2; k++) {
		assert_int_equal(mlx5dm_dev_vf_vport(dev[k], ESW_VFS, &vport[k]), -EINVAL);
		vf = open_vf(dev[k], 0);
		assert_non_null(vf);
		assert_int_equal(mlx5dm_dev_vf_vport(vf, 0, &vport[k]), -EINVAL);
		mlx5dm_dev_close(vf);
	}
	mlx5dm_dev_close(dev[1]);
	mlx5dm_dev_close(dev[0]);
}

/* VF 0 through the hw transport, of PF pf. */
static struct mlx5dm_dev *
open_hw_vf_of(struct mlx5dm_dev *pf)
{
	struct mlx5dm_dev_attr attr = { .transport = "hw", .esw_manager = pf };

	return mlx5dm_dev_open(&attr);
}

/* A VF opened through its PF: the function the PF's virtfn link names. */
static void
test_esw_vf(void **state)
{
	char want[MLX5DM_DEV_PCI_ADDR_LEN], got[MLX5DM_DEV_PCI_ADDR_LEN];
	struct mlx5dm_dev *pf, *vf, *sim;

	(void)state;
	pf = open_esw("hw", ESW_PF, ESW_VFS);
	assert_non_null(pf);
	vf = open_vf(pf, 1);
	assert_non_null(vf);
	assert_string_equal(vf->ctx->device->name, ESW_VF1);
	/* The VF's function is on its PF's node. */
	assert_int_equal(pf->socket, 0);
	assert_int_equal(vf->socket, 0);
	assert_int_equal(mlx5dm_dev_hw_vf_pci(pf->ctx->device->ibdev_path, 1, want), 0);
	assert_int_equal(mlx5dm_dev_hw_pci_of(vf->ctx->device->ibdev_path, got), 0);
	assert_string_equal(got, want);
	/* A VF has no switch of its own. */
	assert_int_equal(mlx5dm_dev_vport_reg_c0(vf, 0xffff, &(uint32_t){ 0 }, &(uint32_t){ 0 }),
			 -EINVAL);
	mlx5dm_dev_close(vf);
	/* The PF has VFs 0 and 1 only. */
	mlx5dm_log_set_hook(capture);
	errors[0] = '\0';
	assert_null(open_vf(pf, 2));
	mlx5dm_log_set_hook(NULL);
	assert_int_equal(errno, ENODEV);
	assert_non_null(strstr(errors, "no VF 2 (no virtfn2 link"));
	/* A VF of a PF of the other transport. */
	sim = open_esw("sim", NULL, ESW_VFS);
	assert_non_null(sim);
	errors[0] = '\0';
	mlx5dm_log_set_hook(capture);
	assert_null(open_hw_vf_of(sim));
	mlx5dm_log_set_hook(NULL);
	assert_int_equal(errno, EINVAL);
	assert_non_null(strstr(errors, "VF 0: its PF is no hw device"));
	mlx5dm_dev_close(sim);
	mlx5dm_dev_close(pf);
	/* The model's VF joins an open PF: the VF device alone does not open. */
	assert_null(open_hw(ESW_VF1));
}

/* A PF asked for VFs its switch does not show is refused at open, saying why. */
static void
test_esw_refused(void **state)
{
	(void)state;
	mlx5dm_log_set_hook(capture);
	errors[0] = '\0';
	assert_null(open_esw("hw", "mlx5_0", 1));
	assert_int_equal(errno, ENOTSUP);
	assert_non_null(strstr(errors, "mlx5_0: no E-Switch in switchdev mode"));
	errors[0] = '\0';
	assert_null(open_esw("hw", ESW_PF, ESW_VFS + 1));
	assert_int_equal(errno, ENODEV);
	assert_non_null(strstr(errors, ESW_PF ": VF 2 has no representor port (no IB port"));
	mlx5dm_log_set_hook(NULL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_open_by_name),
		cmocka_unit_test(test_numa_node),
		cmocka_unit_test(test_steering_as_on_the_model),
		cmocka_unit_test(test_refuse_no_devx),
		cmocka_unit_test(test_refuse_ste_format_2),
		cmocka_unit_test(test_refuse_no_sw_owner),
		cmocka_unit_test(test_no_such_device),
		cmocka_unit_test(test_esw_as_on_the_model),
		cmocka_unit_test(test_esw_vf),
		cmocka_unit_test(test_esw_vf_vport),
		cmocka_unit_test(test_esw_refused),
	};

	/* Read by the double at its first call. */
	setenv("MLX5DM_RDMA_DOUBLE", DOUBLE_CONF, 1);
	return cmocka_run_group_tests_name("rdma_double", tests, NULL, NULL);
}
