/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The hardware transport: the boundary operations are rdma-core's own
 * functions, on a device opened with DEVX. A few are static inlines or
 * macros in verbs.h, so they get a one-line wrapper to have an address.
 * The ports' packets go through raw-packet queues made of these same
 * calls (DEVX objects, umems, UAR doorbells), as on the model.
 */

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mlx5dm_osdep.h"
#include "mlx5dm_dev_hw.h"

static int
mlx5dm_dev_hw_free_dm(struct ibv_dm *dm)
{
	return ibv_free_dm(dm);
}

static struct ibv_mr *
mlx5dm_dev_hw_reg_dm_mr(struct ibv_pd *pd, struct ibv_dm *dm, uint64_t dm_offset,
			size_t length, unsigned int access)
{
	return ibv_reg_dm_mr(pd, dm, dm_offset, length, access);
}

static struct ibv_mr *
mlx5dm_dev_hw_reg_mr(struct ibv_pd *pd, void *addr, size_t length, int access)
{
	return ibv_reg_mr(pd, addr, length, access);
}

static int
mlx5dm_dev_hw_destroy_flow(struct ibv_flow *flow)
{
	return ibv_destroy_flow(flow);
}

/* The device's IB ports (1..n), or -errno. */
static int
mlx5dm_dev_hw_nb_ports(struct ibv_context *ctx)
{
	struct ibv_device_attr attr;
	int ret;

	ret = ibv_query_device(ctx, &attr);
	return ret != 0 ? -ret : attr.phys_port_cnt;
}

/*
 * The mlx5dv_query_port() facts of the IB port whose vport is vport. In
 * switchdev mode the PF's device has one IB port per representor (the
 * uplink's and each VF's), in no order to rely on: DPDK mlx5 and
 * rdma-core (dr_domain_query_vport) look each port's vport up, as here.
 * -EINVAL when no port of the device is that vport.
 */
static int
mlx5dm_dev_hw_vport_port(struct ibv_context *ctx, uint16_t vport, struct mlx5dv_port *info)
{
	int port, nb = mlx5dm_dev_hw_nb_ports(ctx);

	if (nb < 0)
		return nb;
	for (port = 1; port <= nb; port++) {
		memset(info, 0, sizeof(*info));
		if (mlx5dv_query_port(ctx, port, info) != 0)
			continue;
		if ((info->flags & MLX5DV_QUERY_PORT_VPORT) != 0 && info->vport == vport)
			return 0;
	}
	return -EINVAL;
}

/* The switch's source-port stamp: what the kernel reports for the vport's IB port. */
static int
mlx5dm_dev_hw_vport_reg_c0(struct ibv_context *ctx, uint16_t vport, uint32_t *value,
			   uint32_t *mask)
{
	struct mlx5dv_port info;
	int ret;

	ret = mlx5dm_dev_hw_vport_port(ctx, vport, &info);
	if (ret < 0)
		return ret;
	/* Only in switchdev mode does the kernel give the stamp (mlx5_ib query_port). */
	if ((info.flags & MLX5DV_QUERY_PORT_VPORT_REG_C0) == 0)
		return -ENOTSUP;
	*value = info.reg_c0.value;
	*mask = info.reg_c0.mask;
	return 0;
}

/* The first line of the sysfs file <ibdev_path>/<name>, without its newline. */
static int
mlx5dm_dev_hw_sysfs_line(const char *ibdev_path, const char *name, char *out, size_t len)
{
	char path[IBV_SYSFS_PATH_MAX + 64];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", ibdev_path, name);
	f = fopen(path, "r");
	if (f == NULL)
		return -errno;
	if (fgets(out, (int)len, f) == NULL) {
		fclose(f);
		return -EINVAL;
	}
	fclose(f);
	out[strcspn(out, "\n")] = '\0';
	return 0;
}

/*
 * The VF a representor's phys_port_name names: "pf<N>vf<M>", or on an
 * ECPF "c<H>pf<N>vf<M>" for a host's (DPDK mlx5_translate_port_name()
 * reads these names). -EINVAL for any other name (the uplink's "p<N>").
 */
static int
mlx5dm_dev_hw_port_name_vf(const char *name, unsigned int *vf)
{
	unsigned int c, pf;
	int n = 0;

	if (sscanf(name, "c%upf%uvf%u%n", &c, &pf, vf, &n) == 3 && name[n] == '\0')
		return 0;
	n = 0;
	if (sscanf(name, "pf%uvf%u%n", &pf, vf, &n) == 2 && name[n] == '\0')
		return 0;
	return -EINVAL;
}

/*
 * VF vf's vport, as DPDK mlx5 finds a representor's (mlx5_os.c
 * mlx5_dev_spawn: the switch port name, then the IB port's vport_num):
 * the IB port whose netdev (gid_attrs/ndevs/0) has the phys_port_name of
 * VF vf, and that port's vport from mlx5dv_query_port().
 */
static int
mlx5dm_dev_hw_vf_vport(struct ibv_context *ctx, uint16_t vf, uint16_t *vport)
{
	const char *ibdev_path = ctx->device->ibdev_path;
	char name[IBV_SYSFS_NAME_MAX + 64], ifname[IBV_SYSFS_NAME_MAX], pname[64];
	int port, nb = mlx5dm_dev_hw_nb_ports(ctx);
	struct mlx5dv_port info;
	unsigned int which;

	if (nb < 0)
		return nb;
	for (port = 1; port <= nb; port++) {
		snprintf(name, sizeof(name), "ports/%d/gid_attrs/ndevs/0", port);
		if (mlx5dm_dev_hw_sysfs_line(ibdev_path, name, ifname, sizeof(ifname)) < 0)
			continue;
		snprintf(name, sizeof(name), "device/net/%s/phys_port_name", ifname);
		if (mlx5dm_dev_hw_sysfs_line(ibdev_path, name, pname, sizeof(pname)) < 0 ||
		    mlx5dm_dev_hw_port_name_vf(pname, &which) < 0 || which != vf)
			continue;
		memset(&info, 0, sizeof(info));
		if (mlx5dv_query_port(ctx, port, &info) != 0 ||
		    (info.flags & MLX5DV_QUERY_PORT_VPORT) == 0)
			return -EIO;
		*vport = info.vport;
		return 0;
	}
	return -EINVAL;
}

static const struct mlx5dm_dev_ops mlx5dm_dev_hw_ops = {
	.name = "hw",
	.alloc_pd = ibv_alloc_pd,
	.dealloc_pd = ibv_dealloc_pd,
	.alloc_dm = mlx5dv_alloc_dm,
	.free_dm = mlx5dm_dev_hw_free_dm,
	.reg_dm_mr = mlx5dm_dev_hw_reg_dm_mr,
	.reg_mr = mlx5dm_dev_hw_reg_mr,
	.dereg_mr = ibv_dereg_mr,
	.init_obj = mlx5dv_init_obj,
	.devx_general_cmd = mlx5dv_devx_general_cmd,
	.devx_obj_create = mlx5dv_devx_obj_create,
	.devx_obj_query = mlx5dv_devx_obj_query,
	.devx_obj_modify = mlx5dv_devx_obj_modify,
	.devx_obj_destroy = mlx5dv_devx_obj_destroy,
	.devx_umem_reg = mlx5dv_devx_umem_reg,
	.devx_umem_dereg = mlx5dv_devx_umem_dereg,
	.devx_alloc_uar = mlx5dv_devx_alloc_uar,
	.devx_free_uar = mlx5dv_devx_free_uar,
	.devx_query_eqn = mlx5dv_devx_query_eqn,
	.create_flow_matcher = mlx5dv_create_flow_matcher,
	.destroy_flow_matcher = mlx5dv_destroy_flow_matcher,
	.create_flow = mlx5dv_create_flow,
	.destroy_flow = mlx5dm_dev_hw_destroy_flow,
	.vport_reg_c0 = mlx5dm_dev_hw_vport_reg_c0,
	.vf_vport = mlx5dm_dev_hw_vf_vport,
};

/* The PCI address a sysfs link (<ibdev_path>/<name>) ends in. */
static int
mlx5dm_dev_hw_link_pci(const char *ibdev_path, const char *name,
		       char out[MLX5DM_DEV_PCI_ADDR_LEN])
{
	char link[IBV_SYSFS_PATH_MAX + 32], target[IBV_SYSFS_PATH_MAX];
	const char *base;
	ssize_t len;

	if ((size_t)snprintf(link, sizeof(link), "%s/%s", ibdev_path, name) >= sizeof(link))
		return -ENAMETOOLONG;
	len = readlink(link, target, sizeof(target) - 1);
	if (len < 0)
		return -ENOENT;
	target[len] = '\0';
	base = strrchr(target, '/');
	base = base != NULL ? base + 1 : target;
	return mlx5dm_dev_pci_parse(base, out) == 0 ? 0 : -ENOENT;
}

int
mlx5dm_dev_hw_pci_of(const char *ibdev_path, char out[MLX5DM_DEV_PCI_ADDR_LEN])
{
	/*
	 * <ibdev_path>/device links to the device's parent in sysfs, on PCI
	 * the function's directory, named by its address (as rdma-core's
	 * sysfs layout and DPDK's mlx5_get_pci_addr() read it).
	 */
	return mlx5dm_dev_hw_link_pci(ibdev_path, "device", out);
}

int
mlx5dm_dev_hw_vf_pci(const char *pf_ibdev_path, uint16_t vf, char out[MLX5DM_DEV_PCI_ADDR_LEN])
{
	char name[32];

	/* The PCI core links a PF's function directory to its VF n's as virtfn<n>. */
	snprintf(name, sizeof(name), "device/virtfn%u", vf);
	return mlx5dm_dev_hw_link_pci(pf_ibdev_path, name, out);
}

struct ibv_device *
mlx5dm_dev_hw_select(struct ibv_device **list, int n, const char *ib_device, const char *pci)
{
	struct ibv_device *found = NULL;
	char addr[MLX5DM_DEV_PCI_ADDR_LEN];
	int i;

	for (i = 0; list != NULL && i < n; i++) {
		const char *name = ibv_get_device_name(list[i]);

		if (ib_device != NULL && (name == NULL || strcmp(name, ib_device) != 0))
			continue;
		if (pci != NULL && (mlx5dm_dev_hw_pci_of(list[i]->ibdev_path, addr) < 0 ||
				    strcmp(addr, pci) != 0))
			continue;
		if (found != NULL) {
			MLX5DM_LOG(ERR, MLX5DM_DEV_LOG, "PCI address %s has several RDMA devices "
				   "(%s, %s): name one with ib_device", pci,
				   ibv_get_device_name(found), name);
			return NULL;
		}
		found = list[i];
	}
	if (found == NULL)
		MLX5DM_LOG(ERR, MLX5DM_DEV_LOG, "no RDMA device%s%s%s%s (ibv_get_device_list "
			   "returned %d devices)", ib_device != NULL ? " named " : "",
			   ib_device != NULL ? ib_device : "",
			   pci != NULL ? " at PCI address " : "", pci != NULL ? pci : "", n);
	return found;
}

/* The first device rdma-core's mlx5 provider drives, or NULL after one log line. */
static struct ibv_device *
mlx5dm_dev_hw_first(struct ibv_device **list, int n, const char *why)
{
	int i;

	for (i = 0; list != NULL && i < n; i++)
		if (mlx5dv_is_supported(list[i]))
			return list[i];
	MLX5DM_LOG(ERR, MLX5DM_DEV_LOG,
		   "no mlx5 device found (ibv_get_device_list returned %d devices, none mlx5%s)",
		   n, why);
	return NULL;
}

/*
 * A PF asked to manage num_vfs VFs: its E-Switch is in switchdev mode (the
 * uplink's IB port reports its reg_c_0 stamp) and each VF 0..num_vfs-1
 * has a representor port (named pf<N>vf<VF>). A NIC's functions are what the
 * kernel made them: this only checks, with a line saying what to do.
 */
static int
mlx5dm_dev_hw_esw_check(struct ibv_context *ctx, uint16_t num_vfs)
{
	const char *name = ibv_get_device_name(ctx->device);
	struct mlx5dv_port info;
	uint16_t vf, vport;

	if (mlx5dm_dev_hw_vport_port(ctx, MLX5DM_DEV_VPORT_UPLINK, &info) < 0 ||
	    (info.flags & MLX5DV_QUERY_PORT_VPORT_REG_C0) == 0) {
		MLX5DM_LOG(ERR, MLX5DM_DEV_LOG, "%s: no E-Switch in switchdev mode (no IB port "
			   "of the uplink vport with its reg_c0): devlink dev eswitch set "
			   "pci/<PF> mode switchdev", name);
		return -ENOTSUP;
	}
	for (vf = 0; vf < num_vfs; vf++) {
		if (mlx5dm_dev_hw_vf_vport(ctx, vf, &vport) == 0)
			continue;
		MLX5DM_LOG(ERR, MLX5DM_DEV_LOG, "%s: VF %u has no representor port (no IB port "
			   "whose netdev's phys_port_name is pf<N>vf%u): the PF has fewer VFs "
			   "(echo N > /sys/bus/pci/devices/<PF>/sriov_numvfs)", name, vf, vf);
		return -ENODEV;
	}
	return 0;
}

/* VF vf of the open PF esw_manager: its function, through the PF's virtfn link. */
static int
mlx5dm_dev_hw_vf_of(const struct mlx5dm_dev *esw_manager, uint16_t vf,
		    char pci[MLX5DM_DEV_PCI_ADDR_LEN])
{
	struct ibv_device *pf = esw_manager->ctx->device;

	if (mlx5dm_dev_hw_vf_pci(pf->ibdev_path, vf, pci) == 0)
		return 0;
	MLX5DM_LOG(ERR, MLX5DM_DEV_LOG, "%s: no VF %u (no virtfn%u link under the PF's PCI "
		   "function)", ibv_get_device_name(pf), vf, vf);
	return -ENODEV;
}

/*
 * A device opened with no socket takes its PCI function's NUMA node
 * (<ibdev_path>/device/numa_node: the kernel's sysfs-bus-pci ABI, -1 when
 * the platform does not say), as DPDK's PCI bus (drivers/bus/pci/linux/
 * pci.c, pci_scan_one) gives a PCI port its node. Optional information:
 * no file, -1 or anything else leave the device on any socket.
 */
static void
mlx5dm_dev_hw_socket(struct mlx5dm_dev *dev, struct ibv_device *ibdev)
{
	const char *name = ibv_get_device_name(ibdev);
	char line[32], *end;
	long node;
	int ret;

	if (dev->socket != MLX5DM_SOCKET_ANY)
		return;
	ret = mlx5dm_dev_hw_sysfs_line(ibdev->ibdev_path, "device/numa_node", line,
				       sizeof(line));
	if (ret < 0) {
		MLX5DM_LOG(DEBUG, MLX5DM_DEV_LOG, "%s: no NUMA node of its PCI function (%s): "
			   "any socket", name, strerror(-ret));
		return;
	}
	errno = 0;
	node = strtol(line, &end, 10);
	if (line[0] == '\0' || *end != '\0' || errno != 0 || node < -1 || node > INT_MAX) {
		MLX5DM_LOG(INFO, MLX5DM_DEV_LOG, "%s: NUMA node of its PCI function unreadable "
			   "(\"%s\"): any socket", name, line);
		return;
	}
	if (node == -1) {
		MLX5DM_LOG(DEBUG, MLX5DM_DEV_LOG, "%s: NUMA node of its PCI function unknown "
			   "(-1): any socket", name);
		return;
	}
	dev->socket = (int)node;
	MLX5DM_LOG(DEBUG, MLX5DM_DEV_LOG, "%s: on NUMA node %d, its PCI function's", name,
		   dev->socket);
}

static int
mlx5dm_dev_hw_open(struct mlx5dm_dev *dev, const struct mlx5dm_dev_attr *dattr)
{
	struct mlx5dv_context_attr attr = { .flags = MLX5DV_CONTEXT_FLAGS_DEVX };
	const char *ib_device = dattr->ib_device, *pci_addr = dattr->pci_addr;
	char pci[MLX5DM_DEV_PCI_ADDR_LEN];
	struct ibv_device **list;
	struct ibv_device *pick;
	struct ibv_context *ctx;
	char why[128] = "";
	int n = 0, ret = 0;

	if (dattr->esw_manager != NULL) {
		if (dattr->esw_manager->ops != &mlx5dm_dev_hw_ops) {
			MLX5DM_LOG(ERR, MLX5DM_DEV_LOG, "VF %u: its PF is no hw device",
				   dattr->vf);
			return -EINVAL;
		}
		ret = mlx5dm_dev_hw_vf_of(dattr->esw_manager, dattr->vf, pci);
		if (ret < 0)
			return ret;
		ib_device = NULL;
		pci_addr = pci;
	}
	if (pci_addr != NULL && pci_addr != pci && mlx5dm_dev_pci_parse(pci_addr, pci) < 0) {
		MLX5DM_LOG(ERR, MLX5DM_DEV_LOG, "\"%s\" is not a PCI address "
			   "([domain:]bus:device.function in hex)", pci_addr);
		return -EINVAL;
	}
	list = ibv_get_device_list(&n);
	if (list == NULL) {
		/* No RDMA subsystem at all reads the same as an empty list. */
		snprintf(why, sizeof(why), ": %s", strerror(errno));
		n = 0;
	}
	if (ib_device == NULL && pci_addr == NULL) {
		pick = mlx5dm_dev_hw_first(list, n, why);
	} else {
		pick = mlx5dm_dev_hw_select(list, n, ib_device, pci_addr != NULL ? pci : NULL);
		if (pick != NULL && !mlx5dv_is_supported(pick)) {
			MLX5DM_LOG(ERR, MLX5DM_DEV_LOG, "RDMA device %s is not mlx5",
				   ibv_get_device_name(pick));
			pick = NULL;
		}
	}
	if (pick == NULL) {
		ret = -ENODEV;
		goto free_list;
	}
	/* Before anything is allocated for the device: all of it goes there. */
	mlx5dm_dev_hw_socket(dev, pick);
	/* Without DEVX (kernel or rdma-core too old, or not allowed) nothing else can work. */
	ctx = mlx5dv_open_device(pick, &attr);
	if (ctx == NULL) {
		ret = errno != 0 ? -errno : -ENODEV;
		MLX5DM_LOG(ERR, MLX5DM_DEV_LOG, "%s: DEVX not available: mlx5dv_open_device() "
			   "with MLX5DV_CONTEXT_FLAGS_DEVX failed: %s",
			   ibv_get_device_name(pick), strerror(-ret));
		goto free_list;
	}
	if (dattr->num_vfs != 0) {
		ret = mlx5dm_dev_hw_esw_check(ctx, dattr->num_vfs);
		if (ret < 0) {
			ibv_close_device(ctx);
			goto free_list;
		}
	}
	dev->ops = &mlx5dm_dev_hw_ops;
	dev->ctx = ctx;
free_list:
	if (list != NULL)
		ibv_free_device_list(list);
	return ret;
}

static void
mlx5dm_dev_hw_close(struct mlx5dm_dev *dev)
{
	if (dev->ctx != NULL)
		ibv_close_device(dev->ctx);
	dev->ctx = NULL;
}

/* "hw": rdma-core opens the device named ib_device and/or at PCI address pci_addr. */
const struct mlx5dm_dev_transport mlx5dm_dev_hw_transport = {
	.name = "hw",
	/* ENCAP SW ICM only through an rdma-core that has the type (>= 50) at build time. */
	.dm_types = 1u << MLX5DV_DM_TYPE_STEERING_SW_ICM |
		    1u << MLX5DV_DM_TYPE_HEADER_MODIFY_SW_ICM |
		    1u << MLX5DV_DM_TYPE_HEADER_MODIFY_PATTERN_SW_ICM |
		    (MLX5DM_HAVE_DM_TYPE_ENCAP_SW_ICM ? 1u << MLX5DV_DM_TYPE_ENCAP_SW_ICM : 0),
	.open = mlx5dm_dev_hw_open,
	.close = mlx5dm_dev_hw_close,
};

/* At load time, before any open (lib/meson.build makes static links keep this object). */
static void MLX5DM_CONSTRUCTOR
mlx5dm_dev_hw_join(void)
{
	mlx5dm_dev_transport_register(&mlx5dm_dev_hw_transport);
}
