/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Which device the hw transport opens: by name, by PCI address (resolved
 * through a sysfs tree built here, laid out as the kernel lays out
 * /sys/class/infiniband/<dev>/device), or the first mlx5 one; bad and
 * ambiguous requests refused with one line; DEVX refused by
 * mlx5dv_open_device() named as such. A device opened without a socket
 * takes its PCI function's NUMA node (its numa_node file), unless the
 * file is missing, says -1 or is unreadable; a caller's socket wins.
 *
 * The rdma-core entry points the selection calls are defined below: the
 * library archive linked into this program resolves them here rather than
 * in libibverbs/libmlx5, so the test sees what the library asked for.
 */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "mlx5dm_osdep.h"
#include "mlx5dm_dev_hw.h"

/*
 * name, where its sysfs "device" link points (NULL: no link), mlx5 or not;
 * a link into the tree's pci/ is a function directory made here, whose
 * numa_node file holds node (NULL: no file).
 */
static const struct {
	const char *name;
	const char *link;
	bool mlx5;
	const char *node;
} devs[] = {
	{ "rxe0", NULL, false },
	{ "mlx5_0", "../../../0000:08:00.0", true },
	{ "mlx5_1", "../../../0000:08:00.1", true },
	{ "mlx5_2", "../../../0000:81:00.0", true },
	{ "mlx5_3", "../../../0000:81:00.0", true },
	{ "mlx5_4", "../../../mlx5_core.sf.2", true },
	{ "bnxt_re0", "../../../0000:03:00.0", false },
	{ "mlx5_20", "../pci/0000:0a:00.0", true, "0\n" },
	{ "mlx5_21", "../pci/0000:0a:00.1", true, "1\n" },
	{ "mlx5_22", "../pci/0000:0b:00.0", true, "-1\n" },
	{ "mlx5_23", "../pci/0000:0b:00.1", true, NULL },
	{ "mlx5_24", "../pci/0000:0c:00.0", true, "node0\n" },
	{ "mlx5_25", "../pci/0000:0c:00.1", true, "\n" },
};
#define NB_DEVS (sizeof(devs) / sizeof(devs[0]))

static char tree[64];
static struct ibv_device ibdevs[NB_DEVS];
static struct ibv_device *list[NB_DEVS + 1];
static char opened[64];
static int list_calls, free_calls;
static char last_log[512];
/* The most severe level logged (the lowest number; 0: none). */
static enum mlx5dm_log_level worst_level;
/* mlx5dv_open_device() succeeds (a context of its own per device), else refuses DEVX. */
static bool open_ok;
static struct ibv_context contexts[NB_DEVS];
static int close_calls;

/* ---- the rdma-core entry points the selection uses ---- */

struct ibv_device **
ibv_get_device_list(int *num)
{
	list_calls++;
	*num = (int)NB_DEVS;
	return list;
}

void
ibv_free_device_list(struct ibv_device **l)
{
	assert_ptr_equal(l, list);
	free_calls++;
}

const char *
ibv_get_device_name(struct ibv_device *device)
{
	return device->name;
}

bool
mlx5dv_is_supported(struct ibv_device *device)
{
	return (size_t)(device - ibdevs) < NB_DEVS && devs[device - ibdevs].mlx5;
}

/* A kernel without DEVX: the open is refused (unless open_ok). */
struct ibv_context *
mlx5dv_open_device(struct ibv_device *device, struct mlx5dv_context_attr *attr)
{
	assert_true(attr->flags & MLX5DV_CONTEXT_FLAGS_DEVX);
	snprintf(opened, sizeof(opened), "%s", device->name);
	if (open_ok) {
		contexts[device - ibdevs].device = device;
		return &contexts[device - ibdevs];
	}
	errno = EOPNOTSUPP;
	return NULL;
}

int
ibv_close_device(struct ibv_context *context)
{
	assert_ptr_equal(context->device, &ibdevs[context - contexts]);
	close_calls++;
	return 0;
}

/* ---- helpers ---- */

static void
capture(enum mlx5dm_log_level level, const char *module, const char *fmt, va_list ap)
{
	(void)module;
	if (worst_level == 0 || level < worst_level)
		worst_level = level;
	vsnprintf(last_log, sizeof(last_log), fmt, ap);
}

/* tree/pci/<function>, holding numa_node when i's device has one. */
static int
make_function(size_t i)
{
	char path[IBV_SYSFS_PATH_MAX + 64];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tree, devs[i].link + 3);
	if (mkdir(path, 0700) != 0)
		return -1;
	if (devs[i].node == NULL)
		return 0;
	strcat(path, "/numa_node");
	f = fopen(path, "w");
	if (f == NULL)
		return -1;
	fputs(devs[i].node, f);
	return fclose(f);
}

/* Whether i's "device" link is to a function directory of the tree. */
static bool
in_tree(size_t i)
{
	return devs[i].link != NULL && strncmp(devs[i].link, "../pci/", 7) == 0;
}

static int
setup(void **state)
{
	char path[IBV_SYSFS_PATH_MAX];
	size_t i;

	(void)state;
	snprintf(tree, sizeof(tree), "/tmp/mlx5dm_sysfs_XXXXXX");
	if (mkdtemp(tree) == NULL)
		return -1;
	snprintf(path, sizeof(path), "%s/pci", tree);
	if (mkdir(path, 0700) != 0)
		return -1;
	for (i = 0; i < NB_DEVS; i++) {
		snprintf(ibdevs[i].name, sizeof(ibdevs[i].name), "%s", devs[i].name);
		snprintf(ibdevs[i].ibdev_path, sizeof(ibdevs[i].ibdev_path), "%s/%s", tree,
			 devs[i].name);
		if (mkdir(ibdevs[i].ibdev_path, 0700) != 0)
			return -1;
		snprintf(path, sizeof(path), "%s/device", ibdevs[i].ibdev_path);
		if (devs[i].link != NULL && symlink(devs[i].link, path) != 0)
			return -1;
		if (in_tree(i) && make_function(i) != 0)
			return -1;
		list[i] = &ibdevs[i];
	}
	mlx5dm_log_set_hook(capture);
	return 0;
}

static int
teardown(void **state)
{
	char path[IBV_SYSFS_PATH_MAX];
	size_t i;

	(void)state;
	mlx5dm_log_set_hook(NULL);
	for (i = 0; i < NB_DEVS; i++) {
		snprintf(path, sizeof(path), "%s/device", ibdevs[i].ibdev_path);
		unlink(path);
		rmdir(ibdevs[i].ibdev_path);
		if (!in_tree(i))
			continue;
		snprintf(path, sizeof(path), "%s/%s/numa_node", tree, devs[i].link + 3);
		unlink(path);
		snprintf(path, sizeof(path), "%s/%s", tree, devs[i].link + 3);
		rmdir(path);
	}
	snprintf(path, sizeof(path), "%s/pci", tree);
	rmdir(path);
	return rmdir(tree);
}

/* Open with a selection; returns the errno and leaves the device asked for in `opened`. */
static int
open_hw(const char *name, const char *pci)
{
	struct mlx5dm_dev_attr attr = {
		.transport = "hw", .ib_device = name, .pci_addr = pci,
	};
	opened[0] = '\0';
	last_log[0] = '\0';
	errno = 0;
	assert_null(mlx5dm_dev_open(&attr));
	/* Every listing is given back. */
	assert_int_equal(list_calls, free_calls);
	return errno;
}

/* ---- tests ---- */

static void
test_pci_parse(void **state)
{
	static const struct {
		const char *in;
		const char *out; /* NULL: refused */
	} cases[] = {
		{ "0000:08:00.0", "0000:08:00.0" },
		{ "08:00.1", "0000:08:00.1" },
		{ "0001:AF:1f.7", "0001:af:1f.7" },
		{ "ffff:ff:1f.7", "ffff:ff:1f.7" },
		{ "08:00", NULL },          /* no function */
		{ "0000:08:20.0", NULL },   /* device > 0x1f */
		{ "0000:08:00.8", NULL },   /* function > 7 */
		{ "000:08:00.0", NULL },    /* short domain */
		{ "0000:8:00.0", NULL },    /* short bus */
		{ "0000:08:00.0 ", NULL },  /* trailing junk */
		{ "0000-08:00.0", NULL },
		{ "mlx5_0", NULL },
		{ "", NULL },
	};
	char out[MLX5DM_DEV_PCI_ADDR_LEN];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int ret = mlx5dm_dev_pci_parse(cases[i].in, out);

		if (cases[i].out == NULL) {
			assert_int_equal(ret, -EINVAL);
		} else {
			assert_int_equal(ret, 0);
			assert_string_equal(out, cases[i].out);
		}
	}
	assert_int_equal(mlx5dm_dev_pci_parse(NULL, out), -EINVAL);
}

static void
test_pci_of_sysfs(void **state)
{
	char out[MLX5DM_DEV_PCI_ADDR_LEN];

	(void)state;
	assert_int_equal(mlx5dm_dev_hw_pci_of(ibdevs[2].ibdev_path, out), 0);
	assert_string_equal(out, "0000:08:00.1");
	/* No link (a software device) and a link to an auxiliary-bus function. */
	assert_int_equal(mlx5dm_dev_hw_pci_of(ibdevs[0].ibdev_path, out), -ENOENT);
	assert_int_equal(mlx5dm_dev_hw_pci_of(ibdevs[5].ibdev_path, out), -ENOENT);
}

static void
test_select_by_name(void **state)
{
	(void)state;
	assert_int_equal(open_hw("mlx5_1", NULL), EOPNOTSUPP);
	assert_string_equal(opened, "mlx5_1");
	/* The DEVX refusal names the device and DEVX. */
	assert_non_null(strstr(last_log, "mlx5_1: DEVX not available"));
	assert_int_equal(open_hw("mlx5_9", NULL), ENODEV);
	assert_string_equal(opened, "");
	assert_non_null(strstr(last_log, "no RDMA device named mlx5_9"));
	assert_int_equal(open_hw("rxe0", NULL), ENODEV);
	assert_string_equal(last_log, "RDMA device rxe0 is not mlx5");
}

static void
test_select_by_pci(void **state)
{
	(void)state;
	assert_int_equal(open_hw(NULL, "0000:08:00.1"), EOPNOTSUPP);
	assert_string_equal(opened, "mlx5_1");
	/* Short form and upper case name the same function. */
	assert_int_equal(open_hw(NULL, "08:00.0"), EOPNOTSUPP);
	assert_string_equal(opened, "mlx5_0");
	assert_int_equal(open_hw(NULL, "0000:08:00.0"), EOPNOTSUPP);
	assert_string_equal(opened, "mlx5_0");
	assert_int_equal(open_hw(NULL, "0000:09:00.0"), ENODEV);
	assert_string_equal(opened, "");
	assert_non_null(strstr(last_log, "no RDMA device at PCI address 0000:09:00.0"));
	/* A function that is not mlx5. */
	assert_int_equal(open_hw(NULL, "03:00.0"), ENODEV);
	assert_string_equal(last_log, "RDMA device bnxt_re0 is not mlx5");
}

static void
test_select_refused(void **state)
{
	(void)state;
	/* Two devices at one address: which one is not guessed. */
	assert_int_equal(open_hw(NULL, "0000:81:00.0"), ENODEV);
	assert_string_equal(opened, "");
	assert_string_equal(last_log, "PCI address 0000:81:00.0 has several RDMA devices "
			    "(mlx5_2, mlx5_3): name one with ib_device");
	/* ... which ib_device settles. */
	assert_int_equal(open_hw("mlx5_3", "0000:81:00.0"), EOPNOTSUPP);
	assert_string_equal(opened, "mlx5_3");
	/* Name and address of two different devices. */
	assert_int_equal(open_hw("mlx5_0", "0000:08:00.1"), ENODEV);
	assert_string_equal(opened, "");
	assert_non_null(strstr(last_log,
			       "no RDMA device named mlx5_0 at PCI address 0000:08:00.1"));
	/* Not an address: refused before the devices are listed. */
	assert_int_equal(open_hw(NULL, "08:00"), EINVAL);
	assert_string_equal(last_log,
			    "\"08:00\" is not a PCI address ([domain:]bus:device.function in hex)");
}

static void
test_select_first_mlx5(void **state)
{
	(void)state;
	/* rxe0 comes first in the list but is not mlx5. */
	assert_int_equal(open_hw(NULL, NULL), EOPNOTSUPP);
	assert_string_equal(opened, "mlx5_0");
}

/*
 * The socket the device named name is opened with, asked for socket
 * (MLX5DM_SOCKET_ANY: none); nothing logged as an error or a warning.
 */
static int
opened_socket(const char *name, int socket)
{
	struct mlx5dm_dev_attr attr = {
		.transport = "hw", .ib_device = name,
		.has_socket = socket != MLX5DM_SOCKET_ANY, .socket = socket,
	};
	struct mlx5dm_dev *dev;
	int closes = close_calls;

	worst_level = 0;
	open_ok = true;
	dev = mlx5dm_dev_open(&attr);
	open_ok = false;
	assert_non_null(dev);
	assert_string_equal(opened, name);
	socket = dev->socket;
	mlx5dm_dev_close(dev);
	assert_int_equal(close_calls, closes + 1);
	assert_int_equal(list_calls, free_calls);
	assert_true(worst_level == 0 || worst_level > MLX5DM_LOG_WARNING);
	return socket;
}

static void
test_socket_of_function(void **state)
{
	(void)state;
	assert_int_equal(opened_socket("mlx5_20", MLX5DM_SOCKET_ANY), 0);
	assert_int_equal(opened_socket("mlx5_21", MLX5DM_SOCKET_ANY), 1);
	/* Unknown to the platform, no file, garbage, an empty line: any. */
	assert_int_equal(opened_socket("mlx5_22", MLX5DM_SOCKET_ANY), MLX5DM_SOCKET_ANY);
	assert_int_equal(opened_socket("mlx5_23", MLX5DM_SOCKET_ANY), MLX5DM_SOCKET_ANY);
	assert_int_equal(opened_socket("mlx5_24", MLX5DM_SOCKET_ANY), MLX5DM_SOCKET_ANY);
	assert_non_null(strstr(last_log, "mlx5_24: NUMA node of its PCI function unreadable "
			       "(\"node0\")"));
	assert_int_equal(opened_socket("mlx5_25", MLX5DM_SOCKET_ANY), MLX5DM_SOCKET_ANY);
	/* A function link that leads nowhere (no directory): any. */
	assert_int_equal(opened_socket("mlx5_1", MLX5DM_SOCKET_ANY), MLX5DM_SOCKET_ANY);
	/* The caller's socket wins, over a node and over none. */
	assert_int_equal(opened_socket("mlx5_20", 3), 3);
	assert_int_equal(opened_socket("mlx5_21", 0), 0);
	assert_int_equal(opened_socket("mlx5_22", 2), 2);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pci_parse),
		cmocka_unit_test(test_pci_of_sysfs),
		cmocka_unit_test(test_select_by_name),
		cmocka_unit_test(test_select_by_pci),
		cmocka_unit_test(test_select_refused),
		cmocka_unit_test(test_select_first_mlx5),
		cmocka_unit_test(test_socket_of_function),
	};

	return cmocka_run_group_tests_name("dev_hw_select", tests, setup, teardown);
}
