/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The rdma-core test double: the libibverbs and libmlx5 entry points the
 * hardware transport (lib/dev/mlx5dm_dev_hw.c) calls, served by device
 * model instances. Preloaded (devtools/with-rdma-double.sh), it stands in
 * for rdma-core so that backend=hw runs where there is no ConnectX; the
 * product still links the real libraries.
 *
 * A thin adapter: every object comes from the model's ops table
 * (mlx5dm_sim_dev_ops, whose entries have rdma-core's signatures), and
 * the model's context is an extended verbs context whose operations this
 * file points at the same entries, for verbs.h's inline calls. What the
 * double adds is what rdma-core and the kernel add: a device list (names,
 * sysfs paths, PCI addresses), opening a device by name, the cabling
 * between devices, and refusing DEVX where a device has none.
 *
 * Configuration: MLX5DM_RDMA_DOUBLE (doc/guides/testing.rst).
 */

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <infiniband/verbs.h>
#include <infiniband/mlx5dv.h>

#include "mlx5dm_osdep.h"
#include "mlx5dm_prm.h"
#include "mlx5dm_prm_queue.h"
#include "mlx5dm_prm_vport.h"
#include "mlx5dm_sim.h"

#define RD_ENV "MLX5DM_RDMA_DOUBLE"
/* Port 0 looped; mlx5_1 and mlx5_2 cabled: the topology the tests use on the model. */
#define RD_DEFAULT "mlx5_0 mlx5_1,wire=mlx5_2 mlx5_2,wire=mlx5_1"
#define RD_MAX_DEVS 32

struct rd_dev {
	struct ibv_device ibdev;        /* what ibv_get_device_list hands out */
	char pci[16];                   /* DDDD:BB:DD.F */
	char wire[IBV_SYSFS_NAME_MAX];  /* the device cabled to this one; "" = looped */
	bool no_devx;                   /* opening with DEVX fails */
	bool trace;                     /* the model's packet-walk trace to stderr */
	bool has_numa;                  /* the function has a numa_node file, holding: */
	int numa_node;
	struct rd_dev *pf;              /* a VF: its PF (cfg.vf its number) */
	struct mlx5dm_sim_config cfg;
	struct mlx5dm_sim *sim;         /* while open */
	unsigned int opens;
};

/* A device key: a field of the model's configuration it sets. */
struct rd_key {
	const char *name;
	size_t off;
	enum { RD_U8, RD_U16, RD_U64, RD_NOT } type; /* RD_NOT: a bool, key=0 sets it */
	uint64_t max;
};

#define RD_CFG(k, f, t, m) { k, offsetof(struct mlx5dm_sim_config, f), t, m }
static const struct rd_key rd_keys[] = {
	RD_CFG("ste_format", steering_format_version, RD_U8, 255),
	RD_CFG("sw_owner", no_sw_owner, RD_NOT, 1),
	RD_CFG("log_sw_icm", log_steering_sw_icm_size, RD_U8, 63),
	RD_CFG("log_modify_icm", log_header_modify_sw_icm_size, RD_U8, 63),
	RD_CFG("log_encap_icm", log_indirect_encap_sw_icm_size, RD_U8, 63),
	RD_CFG("log_max_ft_level", log_max_ft_level, RD_U8, 63),
	RD_CFG("log_max_qp_sz", log_max_qp_sz, RD_U8, 31),
	RD_CFG("log_max_cq_sz", log_max_cq_sz, RD_U8, 31),
	RD_CFG("mac", vport_mac, RD_U64, 0xffffffffffffull),
	RD_CFG("mtu", vport_mtu, RD_U16, 0xffff),
	RD_CFG("link", link_down, RD_NOT, 1),
	RD_CFG("vfs", num_vfs, RD_U16, MLX5DM_SIM_ESW_MAX_VFS),
};

static struct {
	pthread_mutex_t lock;
	pthread_once_t once;
	struct rd_dev dev[RD_MAX_DEVS];
	unsigned int nb_dev;
	char root[PATH_MAX];            /* the sysfs tree, removed at exit */
	pid_t root_pid;
} rd = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.once = PTHREAD_ONCE_INIT,
};

static void __attribute__((format(printf, 1, 2)))
rd_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "rdma double: ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

static struct rd_dev *
rd_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < rd.nb_dev; i++)
		if (strcmp(rd.dev[i].ibdev.name, name) == 0)
			return &rd.dev[i];
	return NULL;
}

static int
rd_parse_pci(const char *v, char *out, size_t size)
{
	unsigned int dom, bus, dev, fn;
	char end;

	if (sscanf(v, "%4x:%2x:%2x.%1x%c", &dom, &bus, &dev, &fn, &end) != 4 || dev > 0x1f ||
	    fn > 7)
		return -EINVAL;
	snprintf(out, size, "%04x:%02x:%02x.%x", dom, bus, dev, fn);
	return 0;
}

static int
rd_parse_mac(const char *v, uint64_t *mac)
{
	unsigned int b[6], i;
	char end;

	if (sscanf(v, "%2x:%2x:%2x:%2x:%2x:%2x%c", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5],
		   &end) != 6)
		return -EINVAL;
	*mac = 0;
	for (i = 0; i < 6; i++)
		*mac = *mac << 8 | b[i];
	return 0;
}

static int
rd_parse_key(struct rd_dev *d, const char *key, const char *v)
{
	unsigned long long n;
	unsigned int i;
	uint8_t *f;
	char *end;

	if (strcmp(key, "pci") == 0)
		return rd_parse_pci(v, d->pci, sizeof(d->pci));
	if (strcmp(key, "wire") == 0) {
		if (strlen(v) >= sizeof(d->wire))
			return -EINVAL;
		snprintf(d->wire, sizeof(d->wire), "%s", v);
		return 0;
	}
	if (strcmp(key, "mac") == 0 && strchr(v, ':') != NULL)
		return rd_parse_mac(v, &d->cfg.vport_mac);
	if (strcmp(key, "numa_node") == 0) {
		long node = strtol(v, &end, 10);

		/* What the kernel writes: a node, or -1 for none known. */
		if (*v == '\0' || *end != '\0' || node < -1 || node > 1023)
			return -EINVAL;
		d->has_numa = true;
		d->numa_node = (int)node;
		return 0;
	}
	n = strtoull(v, &end, 0);
	if (*v == '\0' || *end != '\0')
		return -EINVAL;
	if (strcmp(key, "devx") == 0 || strcmp(key, "trace") == 0) {
		if (n > 1)
			return -EINVAL;
		if (key[0] == 'd')
			d->no_devx = n == 0;
		else
			d->trace = n == 1;
		return 0;
	}
	for (i = 0; i < sizeof(rd_keys) / sizeof(rd_keys[0]); i++) {
		if (strcmp(key, rd_keys[i].name) != 0)
			continue;
		if (n > rd_keys[i].max)
			return -EINVAL;
		f = (uint8_t *)&d->cfg + rd_keys[i].off;
		if (rd_keys[i].type == RD_U8)
			*f = (uint8_t)n;
		else if (rd_keys[i].type == RD_U16)
			*(uint16_t *)(void *)f = (uint16_t)n;
		else if (rd_keys[i].type == RD_U64)
			*(uint64_t *)(void *)f = n;
		else
			*(bool *)f = n == 0;
		return 0;
	}
	return -ENOENT;
}

/* One device: NAME[,KEY=VALUE...]. */
static int
rd_parse_dev(char *spec)
{
	struct rd_dev *d = &rd.dev[rd.nb_dev];
	char *save = NULL, *kv, *name;
	unsigned int i = rd.nb_dev;
	int ret;

	if (rd.nb_dev == RD_MAX_DEVS) {
		rd_err("%s: more than %u devices", RD_ENV, RD_MAX_DEVS);
		return -E2BIG;
	}
	name = strtok_r(spec, ",", &save);
	if (name == NULL || strlen(name) >= sizeof(d->ibdev.name) || rd_find(name) != NULL) {
		rd_err("%s: bad or repeated device name '%s'", RD_ENV, name != NULL ? name : "");
		return -EINVAL;
	}
	memset(d, 0, sizeof(*d));
	snprintf(d->ibdev.name, sizeof(d->ibdev.name), "%s", name);
	/* Two functions per card, as a dual-port ConnectX: 08:00.0, 08:00.1, 09:00.0, ... */
	snprintf(d->pci, sizeof(d->pci), "0000:%02x:00.%u", 8 + i / 2, i % 2);
	mlx5dm_sim_config_default(&d->cfg);
	while ((kv = strtok_r(NULL, ",", &save)) != NULL) {
		char *eq = strchr(kv, '=');

		if (eq == NULL) {
			rd_err("%s: '%s': expected KEY=VALUE", RD_ENV, kv);
			return -EINVAL;
		}
		*eq = '\0';
		ret = rd_parse_key(d, kv, eq + 1);
		if (ret != 0) {
			*eq = '=';
			rd_err(ret == -ENOENT ? "%s: '%s': unknown key" : "%s: '%s': bad value",
			       RD_ENV, kv);
			return ret;
		}
	}
	rd.nb_dev++;
	return 0;
}

/*
 * The VFs of the PFs configured with vfs=N, devices of their own after
 * the configured ones, as the kernel adds a VF's RDMA device: named
 * mlx5_<first free index>, at PCI address D:(B^0x80):F.v for VF v of the
 * PF at D:B:S.F. The vhca ids: each PF's, then its VFs' (the PF's + 1 +
 * VF, as the model gives them), then the next device's.
 */
/* VF v of pf, a device named mlx5_<first free index from *idx>. */
static int
rd_add_vf(struct rd_dev *pf, uint16_t v, unsigned int *idx)
{
	unsigned int dom, bus, slot, fn;
	struct rd_dev *d;

	if (rd.nb_dev == RD_MAX_DEVS) {
		rd_err("%s: more than %u devices with the VFs", RD_ENV, RD_MAX_DEVS);
		return -E2BIG;
	}
	d = &rd.dev[rd.nb_dev];
	memset(d, 0, sizeof(*d));
	do
		snprintf(d->ibdev.name, sizeof(d->ibdev.name), "mlx5_%u", (*idx)++);
	while (rd_find(d->ibdev.name) != NULL);
	sscanf(pf->pci, "%x:%x:%x.%x", &dom, &bus, &slot, &fn);
	snprintf(d->pci, sizeof(d->pci), "%04x:%02x:%02x.%x", dom, bus ^ 0x80, fn, v);
	mlx5dm_sim_config_default(&d->cfg);
	d->cfg.vf = v;
	d->cfg.vhca_id = (uint16_t)(pf->cfg.vhca_id + 1 + v);
	d->pf = pf;
	d->no_devx = pf->no_devx;
	d->trace = pf->trace;
	/* A VF is on its PF's card, so on its node. */
	d->has_numa = pf->has_numa;
	d->numa_node = pf->numa_node;
	rd.nb_dev++;
	return 0;
}

/*
 * The VFs of the PFs configured with vfs=N, devices of their own after
 * the configured ones, as the kernel adds a VF's RDMA device: named
 * mlx5_<first free index>, at PCI address D:(B^0x80):F.v for VF v of the
 * PF at D:B:S.F. The vhca ids: each PF's, then its VFs' (the PF's + 1 +
 * VF, as the model gives them), then the next device's.
 */
static int
rd_add_vfs(void)
{
	unsigned int i, nb_conf = rd.nb_dev, idx = 0;
	uint16_t vhca = 1, v;
	int ret;

	for (i = 0; i < nb_conf; i++) {
		struct rd_dev *pf = &rd.dev[i];

		pf->cfg.vhca_id = vhca;
		vhca = (uint16_t)(vhca + 1 + pf->cfg.num_vfs);
		for (v = 0; v < pf->cfg.num_vfs; v++) {
			ret = rd_add_vf(pf, v, &idx);
			if (ret < 0)
				return ret;
		}
	}
	return 0;
}

static int
rd_parse(const char *conf)
{
	char *copy = strdup(conf), *save = NULL, *spec;
	unsigned int i;
	int ret = 0;

	if (copy == NULL)
		return -ENOMEM;
	for (spec = strtok_r(copy, " \t\n", &save); spec != NULL && ret == 0;
	     spec = strtok_r(NULL, " \t\n", &save))
		ret = rd_parse_dev(spec);
	free(copy);
	for (i = 0; ret == 0 && i < rd.nb_dev; i++) {
		struct rd_dev *peer;

		if (rd.dev[i].wire[0] == '\0')
			continue;
		peer = rd_find(rd.dev[i].wire);
		/* A cable has two ends: each names the other. */
		if (peer == NULL || strcmp(peer->wire, rd.dev[i].ibdev.name) != 0) {
			rd_err("%s: %s is cabled to a device that is not cabled back to it",
			       RD_ENV, rd.dev[i].ibdev.name);
			ret = -EINVAL;
		}
	}
	if (ret == 0)
		ret = rd_add_vfs();
	if (ret != 0)
		rd.nb_dev = 0;
	return ret;
}

static int
rd_write(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f == NULL)
		return -errno;
	fputs(text, f);
	return fclose(f) == 0 ? 0 : -errno;
}

static int
rd_mkdirs(char *path)
{
	char *p;

	for (p = strchr(path + 1, '/'); p != NULL; p = strchr(p + 1, '/')) {
		*p = '\0';
		if (mkdir(path, 0755) != 0 && errno != EEXIST) {
			*p = '/';
			return -errno;
		}
		*p = '/';
	}
	return mkdir(path, 0755) != 0 && errno != EEXIST ? -errno : 0;
}

/*
 * The sysfs layout rdma-core reads (and DPDK's mlx5 after it):
 * class/infiniband/<name> links to the device's directory under the PCI
 * function, whose "device" link leads back to the function, whose uevent
 * holds PCI_SLOT_NAME (and numa_node, when configured: the kernel writes
 * it where the platform has NUMA); class/infiniband_verbs/uverbsN names
 * the device.
 */
static int
rd_sysfs_dev(struct rd_dev *d, unsigned int i)
{
	char path[PATH_MAX], text[128], n[IBV_SYSFS_NAME_MAX];
	const char *r = rd.root;
	int ret;

	snprintf(n, sizeof(n), "%s", d->ibdev.name);

	snprintf(path, sizeof(path), "%s/devices/pci0000:00/%s/infiniband/%s", r, d->pci, n);
	ret = rd_mkdirs(path);
	if (ret == 0) {
		snprintf(path, sizeof(path), "%s/devices/pci0000:00/%s/uevent", r, d->pci);
		snprintf(text, sizeof(text),
			 "DRIVER=mlx5_core\nPCI_ID=15B3:101D\nPCI_SLOT_NAME=%s\n", d->pci);
		ret = rd_write(path, text);
	}
	if (ret == 0 && d->has_numa) {
		snprintf(path, sizeof(path), "%s/devices/pci0000:00/%s/numa_node", r, d->pci);
		snprintf(text, sizeof(text), "%d\n", d->numa_node);
		ret = rd_write(path, text);
	}
	if (ret == 0) {
		snprintf(path, sizeof(path), "%s/devices/pci0000:00/%s/infiniband/%s/device",
			 r, d->pci, n);
		snprintf(text, sizeof(text), "../../../%s", d->pci);
		ret = symlink(text, path) == 0 ? 0 : -errno;
	}
	if (ret == 0) {
		snprintf(path, sizeof(path), "%s/class/infiniband/%s", r, n);
		snprintf(text, sizeof(text), "../../devices/pci0000:00/%s/infiniband/%s",
			 d->pci, n);
		ret = symlink(text, path) == 0 ? 0 : -errno;
	}
	if (ret == 0) {
		snprintf(path, sizeof(path), "%s/class/infiniband_verbs/uverbs%u", r, i);
		ret = rd_mkdirs(path);
	}
	if (ret == 0) {
		snprintf(path, sizeof(path), "%s/class/infiniband_verbs/uverbs%u/ibdev", r, i);
		snprintf(text, sizeof(text), "%s\n", n);
		ret = rd_write(path, text);
	}
	if (ret != 0)
		return ret;
	snprintf(d->ibdev.dev_name, sizeof(d->ibdev.dev_name), "uverbs%u", i);
	snprintf(d->ibdev.dev_path, sizeof(d->ibdev.dev_path), "%s/class/infiniband_verbs/uverbs%u",
		 r, i);
	snprintf(d->ibdev.ibdev_path, sizeof(d->ibdev.ibdev_path), "%s/class/infiniband/%s", r, n);
	d->ibdev.node_type = IBV_NODE_CA;
	d->ibdev.transport_type = IBV_TRANSPORT_IB;
	return 0;
}

/*
 * SR-IOV as the PCI core shows it: the PF's function directory has
 * sriov_numvfs and a virtfn<n> link to each VF's, each VF's a physfn link
 * back (DPDK's and the kernel's tools read these).
 */
static int
rd_sysfs_sriov(const struct rd_dev *d)
{
	char path[PATH_MAX], text[64];
	const char *r = rd.root;

	if (d->cfg.num_vfs != 0) {
		snprintf(path, sizeof(path), "%s/devices/pci0000:00/%s/sriov_numvfs", r, d->pci);
		snprintf(text, sizeof(text), "%u\n", d->cfg.num_vfs);
		return rd_write(path, text);
	}
	if (d->pf == NULL)
		return 0;
	snprintf(path, sizeof(path), "%s/devices/pci0000:00/%s/virtfn%u", r, d->pf->pci,
		 d->cfg.vf);
	snprintf(text, sizeof(text), "../%s", d->pci);
	if (symlink(text, path) != 0)
		return -errno;
	snprintf(path, sizeof(path), "%s/devices/pci0000:00/%s/physfn", r, d->pci);
	snprintf(text, sizeof(text), "../%s", d->pf->pci);
	return symlink(text, path) == 0 ? 0 : -errno;
}

/* "<dir>/<file>" holding text, its directories made. */
static int
rd_write_in(char *dir, const char *file, const char *text)
{
	char path[PATH_MAX];
	int ret;

	ret = rd_mkdirs(dir);
	if (ret != 0)
		return ret;
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	return rd_write(path, text);
}

/*
 * A PF in switchdev mode: each IB port's netdev (ports/<p>/gid_attrs/
 * ndevs/0), a representor under the PF's function (net/<ifname>) named as
 * the kernel names them (phys_port_name: "p0" for the uplink's, port 1;
 * "pf0vf<v>" for VF v's, port 2 + v).
 */
static int
rd_sysfs_reps(const struct rd_dev *d)
{
	char dir[PATH_MAX], ifname[64], pname[32];
	const char *r = rd.root;
	unsigned int port;
	int ret = 0;

	for (port = 1; ret == 0 && d->cfg.num_vfs != 0 && port <= 1u + d->cfg.num_vfs; port++) {
		if (port == 1)
			snprintf(pname, sizeof(pname), "p0");
		else
			snprintf(pname, sizeof(pname), "pf0vf%u", port - 2);
		snprintf(ifname, sizeof(ifname), "%s_%s\n", d->ibdev.name, pname);
		snprintf(dir, sizeof(dir), "%s/devices/pci0000:00/%s/infiniband/%s/ports/%u/"
			 "gid_attrs/ndevs", r, d->pci, d->ibdev.name, port);
		ret = rd_write_in(dir, "0", ifname);
		if (ret != 0)
			break;
		ifname[strcspn(ifname, "\n")] = '\0';
		snprintf(dir, sizeof(dir), "%s/devices/pci0000:00/%s/net/%s", r, d->pci, ifname);
		strcat(pname, "\n");
		ret = rd_write_in(dir, "phys_port_name", pname);
	}
	return ret;
}

static int
rd_rm(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void __attribute__((destructor))
rd_fini(void)
{
	/* A forked child leaves its parent's tree alone. */
	if (rd.root[0] != '\0' && rd.root_pid == getpid())
		nftw(rd.root, rd_rm, 16, FTW_DEPTH | FTW_PHYS);
}

static int
rd_sysfs(void)
{
	const char *tmp = getenv("TMPDIR");
	char path[PATH_MAX];
	unsigned int i;
	int ret = 0;

	snprintf(rd.root, sizeof(rd.root), "%s/mlx5dm-rdma-double.XXXXXX",
		 tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp");
	if (mkdtemp(rd.root) == NULL) {
		rd_err("cannot create the sysfs tree under %s: %s", rd.root, strerror(errno));
		rd.root[0] = '\0';
		return -errno;
	}
	rd.root_pid = getpid();
	snprintf(path, sizeof(path), "%s/class/infiniband", rd.root);
	ret = rd_mkdirs(path);
	for (i = 0; ret == 0 && i < rd.nb_dev; i++)
		ret = rd_sysfs_dev(&rd.dev[i], i);
	for (i = 0; ret == 0 && i < rd.nb_dev; i++)
		ret = rd_sysfs_sriov(&rd.dev[i]);
	for (i = 0; ret == 0 && i < rd.nb_dev; i++)
		ret = rd_sysfs_reps(&rd.dev[i]);
	if (ret != 0)
		rd_err("cannot write the sysfs tree %s: %s", rd.root, strerror(-ret));
	return ret;
}

static void
rd_init(void)
{
	const char *conf = getenv(RD_ENV);

	if (rd_parse(conf != NULL ? conf : RD_DEFAULT) != 0 || rd_sysfs() != 0)
		rd.nb_dev = 0;
}

static struct rd_dev *
rd_of_device(struct ibv_device *device)
{
	unsigned int i;

	for (i = 0; i < rd.nb_dev; i++)
		if (device == &rd.dev[i].ibdev)
			return &rd.dev[i];
	return NULL;
}

static struct rd_dev *
rd_of_context(struct ibv_context *ctx)
{
	unsigned int i;

	for (i = 0; i < rd.nb_dev; i++)
		if (rd.dev[i].sim != NULL && mlx5dm_sim_context(rd.dev[i].sim) == ctx)
			return &rd.dev[i];
	return NULL;
}

static void
rd_trace(void *arg, const char *line)
{
	fprintf(stderr, "%s: %s\n", (const char *)arg, line);
}

/* Cable d to its peer when both are open; the model unplugs a cable when one end goes. */
static void
rd_plug(struct rd_dev *d)
{
	struct rd_dev *peer = d->wire[0] != '\0' ? rd_find(d->wire) : NULL;

	if (peer != NULL && peer->sim != NULL)
		mlx5dm_sim_wire_connect(d->sim, 0, peer->sim, 0);
}

/* ---- libibverbs ---- */

struct ibv_device **
ibv_get_device_list(int *num_devices)
{
	struct ibv_device **list;
	unsigned int i;

	pthread_once(&rd.once, rd_init);
	list = calloc(rd.nb_dev + 1, sizeof(*list));
	if (list == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	for (i = 0; i < rd.nb_dev; i++)
		list[i] = &rd.dev[i].ibdev;
	if (num_devices != NULL)
		*num_devices = (int)rd.nb_dev;
	return list;
}

void
ibv_free_device_list(struct ibv_device **list)
{
	free(list);
}

const char *
ibv_get_device_name(struct ibv_device *device)
{
	return device->name;
}

int
ibv_close_device(struct ibv_context *context)
{
	struct rd_dev *d;

	pthread_mutex_lock(&rd.lock);
	d = rd_of_context(context);
	if (d == NULL) {
		pthread_mutex_unlock(&rd.lock);
		errno = EINVAL;
		return -1;
	}
	if (--d->opens == 0) {
		mlx5dm_sim_destroy(d->sim);
		d->sim = NULL;
	}
	pthread_mutex_unlock(&rd.lock);
	return 0;
}

/* A PF in switchdev mode has an IB port per representor: the uplink's and each VF's. */
static unsigned int
rd_nb_ports(const struct rd_dev *d)
{
	return 1u + d->cfg.num_vfs;
}

/* What a ConnectX-6 Dx's device attributes say; the port count is the double's. */
int
ibv_query_device(struct ibv_context *context, struct ibv_device_attr *device_attr)
{
	struct rd_dev *d;
	int ret = 0;

	pthread_mutex_lock(&rd.lock);
	d = rd_of_context(context);
	if (d == NULL) {
		ret = EINVAL;
	} else {
		memset(device_attr, 0, sizeof(*device_attr));
		snprintf(device_attr->fw_ver, sizeof(device_attr->fw_ver), "22.36.1010");
		device_attr->vendor_id = 0x02c9;
		device_attr->vendor_part_id = 0x101d;
		device_attr->phys_port_cnt = (uint8_t)rd_nb_ports(d);
	}
	pthread_mutex_unlock(&rd.lock);
	return ret;
}

struct ibv_pd *
ibv_alloc_pd(struct ibv_context *context)
{
	return mlx5dm_sim_dev_ops.alloc_pd(context);
}

int
ibv_dealloc_pd(struct ibv_pd *pd)
{
	return mlx5dm_sim_dev_ops.dealloc_pd(pd);
}

/* In parentheses: verbs.h makes ibv_reg_mr a macro over this symbol. */
struct ibv_mr *
(ibv_reg_mr)(struct ibv_pd *pd, void *addr, size_t length, int access)
{
	return mlx5dm_sim_dev_ops.reg_mr(pd, addr, length, access);
}

/* The model's MRs are addressed by virtual address: only iova == addr is served. */
struct ibv_mr *
ibv_reg_mr_iova2(struct ibv_pd *pd, void *addr, size_t length, uint64_t iova,
		 unsigned int access)
{
	if (iova != (uintptr_t)addr) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	return mlx5dm_sim_dev_ops.reg_mr(pd, addr, length, (int)access);
}

int
ibv_dereg_mr(struct ibv_mr *mr)
{
	return mlx5dm_sim_dev_ops.dereg_mr(mr);
}

/* ---- libmlx5 ---- */

bool
mlx5dv_is_supported(struct ibv_device *device)
{
	return rd_of_device(device) != NULL;
}

/*
 * Without DEVX the kernel refuses a DEVX user context with EINVAL
 * (drivers/infiniband/hw/mlx5/devx.c, mlx5_ib_devx_create: log_max_uctx 0
 * means not supported), and mlx5dv_open_device returns NULL with it.
 */
struct ibv_context *
mlx5dv_open_device(struct ibv_device *device, struct mlx5dv_context_attr *attr)
{
	struct rd_dev *d = rd_of_device(device);
	struct verbs_context *vctx;
	int ret = 0;

	if (d == NULL) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	if (attr != NULL && (attr->flags & MLX5DV_CONTEXT_FLAGS_DEVX) != 0 && d->no_devx) {
		errno = EINVAL;
		return NULL;
	}
	pthread_mutex_lock(&rd.lock);
	if (d->sim == NULL && d->pf != NULL) {
		/* The model's VF joins the E-Switch of its open PF. */
		if (d->pf->sim == NULL) {
			rd_err("%s: VF %u of %s: open the PF first", d->ibdev.name, d->cfg.vf,
			       d->pf->ibdev.name);
			ret = ENODEV;
			goto unlock;
		}
		d->cfg.esw_pf = d->pf->sim;
	}
	if (d->sim == NULL) {
		d->sim = mlx5dm_sim_create(&d->cfg, MLX5DM_SOCKET_ANY);
		if (d->sim == NULL) {
			ret = errno;
			goto unlock;
		}
		vctx = verbs_get_ctx(mlx5dm_sim_context(d->sim));
		vctx->context.device = &d->ibdev;
		vctx->free_dm = mlx5dm_sim_dev_ops.free_dm;
		vctx->reg_dm_mr = mlx5dm_sim_dev_ops.reg_dm_mr;
		vctx->ibv_destroy_flow = mlx5dm_sim_dev_ops.destroy_flow;
		rd_plug(d);
		if (d->trace)
			mlx5dm_sim_trace_set(d->sim, rd_trace, d->ibdev.name);
	}
	d->opens++;
unlock:
	pthread_mutex_unlock(&rd.lock);
	if (ret != 0) {
		errno = ret;
		return NULL;
	}
	return mlx5dm_sim_context(d->sim);
}

/* A vport's ICM entries from the manager's firmware (the uplink's: its FDB caps). */
static int
rd_vport_icm(struct rd_dev *pf, uint16_t vport, uint64_t *rx, uint64_t *tx)
{
	const struct mlx5dm_prm_caps_esw_ft *ft = &mlx5dm_prm_caps_esw_ft;
	struct ibv_context *ctx = mlx5dm_sim_context(pf->sim);
	uint8_t in[16] = { 0 }, out[MLX5DM_QUERY_HCA_CAP_OUT_SIZE] = { 0 };
	int ret;

	if (vport == MLX5DM_SIM_VPORT_UPLINK) {
		mlx5dm_prm_fset(in, mlx5dm_prm_query_hca_cap_in.opcode, MLX5DM_CMD_QUERY_HCA_CAP);
		mlx5dm_prm_fset(in, mlx5dm_prm_query_hca_cap_in.op_mod,
				MLX5DM_HCA_CAP_OPMOD(MLX5DM_HCA_CAP_ESW_FLOW_TABLE));
		ret = mlx5dm_sim_dev_ops.devx_general_cmd(ctx, in, sizeof(in), out, sizeof(out));
		*rx = mlx5dm_prm_fget(out, ft->sw_steering_uplink_icm_address_rx);
		*tx = mlx5dm_prm_fget(out, ft->sw_steering_uplink_icm_address_tx);
		return ret;
	}
	mlx5dm_prm_fset(in, MLX5DM_CMD_IN_OPCODE, MLX5DM_CMD_OP_QUERY_ESW_VPORT_CONTEXT);
	mlx5dm_prm_fset(in, MLX5DM_ESW_VPORT_IN_OTHER_VPORT, 1);
	mlx5dm_prm_fset(in, MLX5DM_ESW_VPORT_IN_NUMBER, vport);
	ret = mlx5dm_sim_dev_ops.devx_general_cmd(ctx, in, sizeof(in), out,
						  MLX5DM_QUERY_ESW_VPORT_OUT_BYTES);
	*rx = mlx5dm_prm_fget(out, MLX5DM_ESW_VPORT_ICM_RX);
	*tx = mlx5dm_prm_fget(out, MLX5DM_ESW_VPORT_ICM_TX);
	return ret;
}

/*
 * What the kernel answers (drivers/infiniband/hw/mlx5/std_types.c,
 * MLX5_IB_METHOD_QUERY_PORT): every function's port its vport, vhca id
 * and e-switch owner; a PF in switchdev mode has port 1 for the uplink
 * and port 2 + v for VF v's representor (vport 1 + v), each with the
 * vport's steering ICM entries and its reg_c_0 stamp, from the model's
 * E-Switch.
 */
static int
rd_query_port(struct rd_dev *d, uint32_t port_num, struct mlx5dv_port *p)
{
	uint16_t own = d->cfg.vhca_id, vport;
	uint64_t rx, tx;
	int ret;

	if (port_num < 1 || port_num > rd_nb_ports(d))
		return EINVAL;
	p->flags = MLX5DV_QUERY_PORT_VPORT | MLX5DV_QUERY_PORT_VPORT_VHCA_ID |
		   MLX5DV_QUERY_PORT_ESW_OWNER_VHCA_ID;
	if (d->cfg.num_vfs == 0) {
		/* A function of its own (or a VF): its vport 0; the switch is its PF's. */
		p->vport = 0;
		p->vport_vhca_id = own;
		p->esw_owner_vhca_id = d->pf != NULL ? d->pf->cfg.vhca_id : own;
		return 0;
	}
	vport = port_num == 1 ? MLX5DM_SIM_VPORT_UPLINK : (uint16_t)(port_num - 1);
	p->vport = vport;
	p->vport_vhca_id = vport == MLX5DM_SIM_VPORT_UPLINK ? own : (uint16_t)(own + vport);
	p->esw_owner_vhca_id = own;
	ret = rd_vport_icm(d, vport, &rx, &tx);
	if (ret != 0)
		return ret;
	p->vport_steering_icm_rx = rx;
	p->vport_steering_icm_tx = tx;
	p->reg_c0.value = mlx5dm_sim_esw_reg_c0(vport);
	p->reg_c0.mask = 0xffff0000u;
	p->flags |= MLX5DV_QUERY_PORT_VPORT_STEERING_ICM_RX |
		    MLX5DV_QUERY_PORT_VPORT_STEERING_ICM_TX | MLX5DV_QUERY_PORT_VPORT_REG_C0;
	return 0;
}

/* mlx5dv_query_port() is an inline over this; info_len is the caller's struct size. */
int
_mlx5dv_query_port(struct ibv_context *context, uint32_t port_num, struct mlx5dv_port *info,
		   size_t info_len)
{
	struct mlx5dv_port p;
	struct rd_dev *d;
	int ret;

	memset(&p, 0, sizeof(p));
	pthread_mutex_lock(&rd.lock);
	d = rd_of_context(context);
	ret = d != NULL ? rd_query_port(d, port_num, &p) : EINVAL;
	pthread_mutex_unlock(&rd.lock);
	if (ret == 0)
		memcpy(info, &p, info_len < sizeof(p) ? info_len : sizeof(p));
	return ret;
}

struct ibv_dm *
mlx5dv_alloc_dm(struct ibv_context *context, struct ibv_alloc_dm_attr *dm_attr,
		struct mlx5dv_alloc_dm_attr *mlx5_dm_attr)
{
	return mlx5dm_sim_dev_ops.alloc_dm(context, dm_attr, mlx5_dm_attr);
}

int
mlx5dv_init_obj(struct mlx5dv_obj *obj, uint64_t obj_type)
{
	return mlx5dm_sim_dev_ops.init_obj(obj, obj_type);
}

int
mlx5dv_devx_general_cmd(struct ibv_context *context, const void *in, size_t inlen, void *out,
			size_t outlen)
{
	return mlx5dm_sim_dev_ops.devx_general_cmd(context, in, inlen, out, outlen);
}

struct mlx5dv_devx_obj *
mlx5dv_devx_obj_create(struct ibv_context *context, const void *in, size_t inlen, void *out,
		       size_t outlen)
{
	return mlx5dm_sim_dev_ops.devx_obj_create(context, in, inlen, out, outlen);
}

int
mlx5dv_devx_obj_query(struct mlx5dv_devx_obj *obj, const void *in, size_t inlen, void *out,
		      size_t outlen)
{
	return mlx5dm_sim_dev_ops.devx_obj_query(obj, in, inlen, out, outlen);
}

int
mlx5dv_devx_obj_modify(struct mlx5dv_devx_obj *obj, const void *in, size_t inlen, void *out,
		       size_t outlen)
{
	return mlx5dm_sim_dev_ops.devx_obj_modify(obj, in, inlen, out, outlen);
}

int
mlx5dv_devx_obj_destroy(struct mlx5dv_devx_obj *obj)
{
	return mlx5dm_sim_dev_ops.devx_obj_destroy(obj);
}

struct mlx5dv_devx_umem *
mlx5dv_devx_umem_reg(struct ibv_context *context, void *addr, size_t size, uint32_t access)
{
	return mlx5dm_sim_dev_ops.devx_umem_reg(context, addr, size, access);
}

int
mlx5dv_devx_umem_dereg(struct mlx5dv_devx_umem *umem)
{
	return mlx5dm_sim_dev_ops.devx_umem_dereg(umem);
}

struct mlx5dv_devx_uar *
mlx5dv_devx_alloc_uar(struct ibv_context *context, uint32_t flags)
{
	return mlx5dm_sim_dev_ops.devx_alloc_uar(context, flags);
}

void
mlx5dv_devx_free_uar(struct mlx5dv_devx_uar *uar)
{
	mlx5dm_sim_dev_ops.devx_free_uar(uar);
}

int
mlx5dv_devx_query_eqn(struct ibv_context *context, uint32_t vector, uint32_t *eqn)
{
	return mlx5dm_sim_dev_ops.devx_query_eqn(context, vector, eqn);
}

struct mlx5dv_flow_matcher *
mlx5dv_create_flow_matcher(struct ibv_context *context, struct mlx5dv_flow_matcher_attr *attr)
{
	return mlx5dm_sim_dev_ops.create_flow_matcher(context, attr);
}

int
mlx5dv_destroy_flow_matcher(struct mlx5dv_flow_matcher *matcher)
{
	return mlx5dm_sim_dev_ops.destroy_flow_matcher(matcher);
}

struct ibv_flow *
mlx5dv_create_flow(struct mlx5dv_flow_matcher *matcher,
		   struct mlx5dv_flow_match_parameters *match_value, size_t num_actions,
		   struct mlx5dv_flow_action_attr actions_attr[])
{
	return mlx5dm_sim_dev_ops.create_flow(matcher, match_value, num_actions, actions_attr);
}
