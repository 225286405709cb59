/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Strict devargs parsing: an unknown key, a repeated key, a malformed or
 * out-of-range value fails the probe with one log line naming the culprit.
 */

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_dev.h>
#include <rte_kvargs.h>

#include <ethdev_driver.h>

#include "mlx5dm.h"
#include "mlx5dm_dev.h"
#include "mlx5dm_log.h"

#define MLX5DM_ARG_BACKEND "backend"
#define MLX5DM_ARG_PORTS "ports"
#define MLX5DM_ARG_TOPOLOGY "topology"
#define MLX5DM_ARG_FLOW_ENGINE "flow_engine"
#define MLX5DM_ARG_DOORBELL_BATCH "doorbell_batch"
#define MLX5DM_ARG_LOG_STEERING_ICM_SIZE "log_steering_icm_size"
#define MLX5DM_ARG_IB_DEVICE "ib_device"
#define MLX5DM_ARG_PCI_ADDR "pci_addr"
#define MLX5DM_ARG_REPRESENTOR "representor"
#define MLX5DM_ARG_VF_PORTS "vf_ports"

static const char * const mlx5dm_valid_args[] = {
	MLX5DM_ARG_BACKEND,
	MLX5DM_ARG_PORTS,
	MLX5DM_ARG_TOPOLOGY,
	MLX5DM_ARG_FLOW_ENGINE,
	MLX5DM_ARG_DOORBELL_BATCH,
	MLX5DM_ARG_LOG_STEERING_ICM_SIZE,
	MLX5DM_ARG_IB_DEVICE,
	MLX5DM_ARG_PCI_ADDR,
	MLX5DM_ARG_REPRESENTOR,
	MLX5DM_ARG_VF_PORTS,
	NULL,
};

/* Devargs of one backend only: given with the other, they fail the probe. */
static const char * const mlx5dm_sim_only_args[] = {
	MLX5DM_ARG_PORTS,
	MLX5DM_ARG_TOPOLOGY,
	MLX5DM_ARG_LOG_STEERING_ICM_SIZE,
};
static const char * const mlx5dm_hw_only_args[] = {
	MLX5DM_ARG_IB_DEVICE,
	MLX5DM_ARG_PCI_ADDR,
};

/* One text for the probe's error lines and the driver's parameter string (dpdk-pmdinfo). */
#define MLX5DM_DEVARGS_HELP \
	MLX5DM_ARG_BACKEND "=sim|hw " \
	MLX5DM_ARG_PORTS "=<1-" RTE_STR(MLX5DM_MAX_PORTS) "> " \
	MLX5DM_ARG_TOPOLOGY "=loop|pair " \
	MLX5DM_ARG_FLOW_ENGINE "=steer|null " \
	MLX5DM_ARG_DOORBELL_BATCH "=<1-" RTE_STR(MLX5DM_MAX_DOORBELL_BATCH) "> " \
	MLX5DM_ARG_LOG_STEERING_ICM_SIZE "=<" RTE_STR(MLX5DM_MIN_LOG_STEERING_ICM_SIZE) "-" \
	RTE_STR(MLX5DM_MAX_LOG_STEERING_ICM_SIZE) "> " \
	MLX5DM_ARG_IB_DEVICE "=<RDMA device name> " \
	MLX5DM_ARG_PCI_ADDR "=<[domain:]bus:device.function> " \
	MLX5DM_ARG_REPRESENTOR "=vf<N>|vf[<N>-<M>]|vf[<N>,<M>,...] " \
	MLX5DM_ARG_VF_PORTS "=0|1"

const char mlx5dm_devargs_help[] = MLX5DM_DEVARGS_HELP;
RTE_PMD_REGISTER_PARAM_STRING(MLX5DM_DRIVER_NAME, MLX5DM_DEVARGS_HELP);

struct mlx5dm_arg_ctx {
	const char *dev;
	struct mlx5dm_devargs *args;
};

/* Parse a decimal unsigned integer in [min, max]; no sign, no junk, no empty. */
static int
mlx5dm_parse_uint(const char *dev, const char *key, const char *value,
		  unsigned long min, unsigned long max, unsigned long *out)
{
	unsigned long v;
	char *end = NULL;

	if (value == NULL || value[0] < '0' || value[0] > '9')
		goto bad;
	errno = 0;
	v = strtoul(value, &end, 10);
	if (errno != 0 || end == value || *end != '\0')
		goto bad;
	if (v < min || v > max) {
		MLX5DM_DRV_LOG(ERR, "%s: devarg %s=%s out of range [%lu, %lu]",
			       dev, key, value, min, max);
		return -ERANGE;
	}
	*out = v;
	return 0;
bad:
	MLX5DM_DRV_LOG(ERR, "%s: devarg %s=%s is not a decimal integer",
		       dev, key, value == NULL ? "" : value);
	return -EINVAL;
}

/* One keyword of a fixed list -> its value. */
struct mlx5dm_arg_word {
	const char *word;
	int value;
};

/* Keyword devargs: their words and where the value goes (an enum field). */
static const struct mlx5dm_arg_enum {
	const char *key;
	struct mlx5dm_arg_word words[3];
	const char *expected;
	size_t off;
} mlx5dm_arg_enums[] = {
	{ MLX5DM_ARG_BACKEND,
	  { { "sim", RTE_PMD_MLX5DM_BACKEND_SIM }, { "hw", RTE_PMD_MLX5DM_BACKEND_HW } },
	  "sim or hw", offsetof(struct mlx5dm_devargs, backend) },
	{ MLX5DM_ARG_TOPOLOGY,
	  { { "loop", MLX5DM_TOPO_LOOP }, { "pair", MLX5DM_TOPO_PAIR } },
	  "loop or pair", offsetof(struct mlx5dm_devargs, topology) },
	{ MLX5DM_ARG_FLOW_ENGINE,
	  { { "steer", MLX5DM_FLOW_ENGINE_STEER }, { "null", MLX5DM_FLOW_ENGINE_NULL } },
	  "steer or null", offsetof(struct mlx5dm_devargs, flow_engine) },
};

static_assert(sizeof(((struct mlx5dm_devargs *)0)->pci_addr) == MLX5DM_DEV_PCI_ADDR_LEN &&
	      sizeof(((struct mlx5dm_devargs *)0)->ib_device) == IBV_SYSFS_NAME_MAX,
	      "device selection fields as lib/dev and rdma-core size them");

/* The enum fields the table writes are ints. */
static_assert(sizeof(enum rte_pmd_mlx5dm_backend) == sizeof(int) &&
	      sizeof(enum mlx5dm_topology) == sizeof(int) &&
	      sizeof(enum mlx5dm_flow_engine) == sizeof(int), "enum devargs are ints");

static int
mlx5dm_arg_keyword(const char *key, const char *value, void *opaque)
{
	struct mlx5dm_arg_ctx *ctx = opaque;
	const struct mlx5dm_arg_enum *e = NULL;
	unsigned int i;

	for (i = 0; i < RTE_DIM(mlx5dm_arg_enums); i++)
		if (strcmp(key, mlx5dm_arg_enums[i].key) == 0)
			e = &mlx5dm_arg_enums[i];
	if (e == NULL)
		return -EINVAL;
	for (i = 0; value != NULL && i < RTE_DIM(e->words) && e->words[i].word != NULL; i++)
		if (strcmp(value, e->words[i].word) == 0) {
			memcpy((uint8_t *)ctx->args + e->off, &e->words[i].value, sizeof(int));
			return 0;
		}
	MLX5DM_DRV_LOG(ERR, "%s: devarg %s=%s invalid (expected %s)",
		       ctx->dev, key, value == NULL ? "" : value, e->expected);
	return -EINVAL;
}

/* Integer devargs: range and where the value goes (a field of 1, 2 or 4 bytes). */
static const struct mlx5dm_arg_uint {
	const char *key;
	unsigned long min, max;
	size_t off, size;
} mlx5dm_arg_uints[] = {
	{ MLX5DM_ARG_PORTS, 1, MLX5DM_MAX_PORTS,
	  offsetof(struct mlx5dm_devargs, nb_ports), sizeof(uint16_t) },
	{ MLX5DM_ARG_DOORBELL_BATCH, 1, MLX5DM_MAX_DOORBELL_BATCH,
	  offsetof(struct mlx5dm_devargs, doorbell_batch), sizeof(uint16_t) },
	{ MLX5DM_ARG_LOG_STEERING_ICM_SIZE, MLX5DM_MIN_LOG_STEERING_ICM_SIZE,
	  MLX5DM_MAX_LOG_STEERING_ICM_SIZE,
	  offsetof(struct mlx5dm_devargs, log_steering_icm_size), sizeof(uint8_t) },
	{ MLX5DM_ARG_VF_PORTS, 0, 1, offsetof(struct mlx5dm_devargs, vf_ports), sizeof(uint8_t) },
};

static int
mlx5dm_arg_uint(const char *key, const char *value, void *opaque)
{
	struct mlx5dm_arg_ctx *ctx = opaque;
	const struct mlx5dm_arg_uint *u = NULL;
	uint8_t *field;
	unsigned long v;
	unsigned int i;
	int ret;

	for (i = 0; i < RTE_DIM(mlx5dm_arg_uints); i++)
		if (strcmp(key, mlx5dm_arg_uints[i].key) == 0)
			u = &mlx5dm_arg_uints[i];
	if (u == NULL)
		return -EINVAL;
	ret = mlx5dm_parse_uint(ctx->dev, key, value, u->min, u->max, &v);
	if (ret < 0)
		return ret;
	field = (uint8_t *)ctx->args + u->off;
	if (u->size == sizeof(uint32_t)) {
		uint32_t w = (uint32_t)v;

		memcpy(field, &w, sizeof(w));
	} else if (u->size == sizeof(uint16_t)) {
		uint16_t w = (uint16_t)v;

		memcpy(field, &w, sizeof(w));
	} else {
		*field = (uint8_t)v;
	}
	return 0;
}

/* ib_device: a name as the kernel gives RDMA devices (mlx5_0, mlx5_bond_0, ...). */
static int
mlx5dm_arg_ib_device(const char *key, const char *value, void *opaque)
{
	struct mlx5dm_arg_ctx *ctx = opaque;
	size_t i, len = strlen(value);

	for (i = 0; i < len; i++)
		if (!isalnum((unsigned char)value[i]) && strchr("_-.", value[i]) == NULL)
			break;
	if (len == 0 || i < len || len >= sizeof(ctx->args->ib_device)) {
		MLX5DM_DRV_LOG(ERR, "%s: devarg %s=%s invalid (expected an RDMA device name "
			       "such as mlx5_0: letters, digits, '_', '-', '.', at most %zu)",
			       ctx->dev, key, value, sizeof(ctx->args->ib_device) - 1);
		return -EINVAL;
	}
	memcpy(ctx->args->ib_device, value, len + 1);
	return 0;
}

/* pci_addr: kept in the canonical form the device layer compares with sysfs. */
static int
mlx5dm_arg_pci_addr(const char *key, const char *value, void *opaque)
{
	struct mlx5dm_arg_ctx *ctx = opaque;

	if (mlx5dm_dev_pci_parse(value, ctx->args->pci_addr) < 0) {
		MLX5DM_DRV_LOG(ERR, "%s: devarg %s=%s invalid (expected a PCI address "
			       "[domain:]bus:device.function in hex, e.g. 0000:08:00.0)",
			       ctx->dev, key, value);
		return -EINVAL;
	}
	return 0;
}

/*
 * representor: DPDK's syntax (rte_eth_devargs_parse(), as DPDK mlx5 takes
 * it), VF representors only, VFs 0 .. MLX5DM_MAX_VFS - 1 (the model's
 * E-Switch makes them; a NIC's must have them: the device open checks),
 * none twice; kept in the order given.
 */
static int
mlx5dm_arg_representor(const char *key, const char *value, void *opaque)
{
	struct mlx5dm_arg_ctx *ctx = opaque;
	struct mlx5dm_devargs *args = ctx->args;
	struct rte_eth_devargs eth_da;
	char buf[128];
	uint16_t i, j;

	memset(&eth_da, 0, sizeof(eth_da));
	if ((size_t)snprintf(buf, sizeof(buf), "%s=%s", key, value) >= sizeof(buf) ||
	    rte_eth_devargs_parse(buf, &eth_da) < 0 || eth_da.nb_representor_ports == 0) {
		MLX5DM_DRV_LOG(ERR, "%s: devarg %s=%s invalid (expected vf<N>, vf[<N>-<M>] "
			       "or vf[<N>,<M>,...])", ctx->dev, key, value);
		return -EINVAL;
	}
	if (eth_da.type != RTE_ETH_REPRESENTOR_VF || eth_da.nb_mh_controllers > 0 ||
	    eth_da.nb_ports > 1 || (eth_da.nb_ports == 1 && eth_da.ports[0] != 0)) {
		MLX5DM_DRV_LOG(ERR, "%s: devarg %s=%s: only VF representors (vf...) of the "
			       "device's own PF are supported", ctx->dev, key, value);
		return -ENOTSUP;
	}
	if (eth_da.nb_representor_ports > MLX5DM_MAX_VFS) {
		MLX5DM_DRV_LOG(ERR, "%s: devarg %s=%s: at most %u representors", ctx->dev, key,
			       value, MLX5DM_MAX_VFS);
		return -ERANGE;
	}
	for (i = 0; i < eth_da.nb_representor_ports; i++) {
		uint16_t vf = eth_da.representor_ports[i];

		if (vf >= MLX5DM_MAX_VFS) {
			MLX5DM_DRV_LOG(ERR, "%s: devarg %s=%s: VF %u out of range [0, %u]",
				       ctx->dev, key, value, vf, MLX5DM_MAX_VFS - 1);
			return -ERANGE;
		}
		for (j = 0; j < i; j++)
			if (eth_da.representor_ports[j] == vf) {
				MLX5DM_DRV_LOG(ERR, "%s: devarg %s=%s: VF %u listed twice",
					       ctx->dev, key, value, vf);
				return -EINVAL;
			}
		args->vfs[i] = (uint8_t)vf;
	}
	args->nb_vfs = (uint8_t)eth_da.nb_representor_ports;
	return 0;
}

static const struct {
	const char *key;
	arg_handler_t handler;
} mlx5dm_arg_handlers[] = {
	{ MLX5DM_ARG_BACKEND, mlx5dm_arg_keyword },
	{ MLX5DM_ARG_PORTS, mlx5dm_arg_uint },
	{ MLX5DM_ARG_TOPOLOGY, mlx5dm_arg_keyword },
	{ MLX5DM_ARG_FLOW_ENGINE, mlx5dm_arg_keyword },
	{ MLX5DM_ARG_DOORBELL_BATCH, mlx5dm_arg_uint },
	{ MLX5DM_ARG_LOG_STEERING_ICM_SIZE, mlx5dm_arg_uint },
	{ MLX5DM_ARG_IB_DEVICE, mlx5dm_arg_ib_device },
	{ MLX5DM_ARG_PCI_ADDR, mlx5dm_arg_pci_addr },
	{ MLX5DM_ARG_REPRESENTOR, mlx5dm_arg_representor },
	{ MLX5DM_ARG_VF_PORTS, mlx5dm_arg_uint },
};

/* A devarg of the other backend than the one chosen. */
static int
mlx5dm_devargs_backend_check(const char *name, struct rte_kvargs *kvlist,
			     const struct mlx5dm_devargs *args)
{
	bool hw = args->backend == RTE_PMD_MLX5DM_BACKEND_HW;
	const char * const *keys = hw ? mlx5dm_sim_only_args : mlx5dm_hw_only_args;
	unsigned int i, n = hw ? RTE_DIM(mlx5dm_sim_only_args) : RTE_DIM(mlx5dm_hw_only_args);

	for (i = 0; i < n; i++) {
		if (rte_kvargs_count(kvlist, keys[i]) == 0)
			continue;
		MLX5DM_DRV_LOG(ERR, "%s: devarg %s applies to backend=%s only (backend=%s)",
			       name, keys[i], hw ? "sim" : "hw", hw ? "hw" : "sim");
		return -EINVAL;
	}
	if (args->ib_device[0] != '\0' && args->pci_addr[0] != '\0') {
		MLX5DM_DRV_LOG(ERR, "%s: devargs %s and %s both name the device: give one",
			       name, MLX5DM_ARG_IB_DEVICE, MLX5DM_ARG_PCI_ADDR);
		return -EINVAL;
	}
	return 0;
}

int
mlx5dm_devargs_parse(const char *name, const char *params, struct mlx5dm_devargs *args)
{
	struct mlx5dm_arg_ctx ctx = { .dev = name, .args = args };
	struct rte_kvargs *kvlist;
	unsigned int i;
	int ret = 0;

	*args = (struct mlx5dm_devargs){
		.backend = RTE_PMD_MLX5DM_BACKEND_SIM,
		.nb_ports = 1,
		.topology = MLX5DM_TOPO_LOOP,
		.flow_engine = MLX5DM_FLOW_ENGINE_STEER,
		.doorbell_batch = MLX5DM_DEF_DOORBELL_BATCH,
		.log_steering_icm_size = MLX5DM_DEF_LOG_STEERING_ICM_SIZE,
		.vf_ports = 0,
	};
	if (params == NULL || params[0] == '\0')
		return 0;
	kvlist = rte_kvargs_parse(params, mlx5dm_valid_args);
	if (kvlist == NULL) {
		MLX5DM_DRV_LOG(ERR, "%s: cannot parse devargs \"%s\": "
			       "unknown key or bad syntax (valid: %s)",
			       name, params, mlx5dm_devargs_help);
		return -EINVAL;
	}
	for (i = 0; i < kvlist->count; i++) {
		const char *key = kvlist->pairs[i].key;

		if (kvlist->pairs[i].value == NULL) {
			MLX5DM_DRV_LOG(ERR, "%s: devarg %s needs a value (valid: %s)",
				       name, key, mlx5dm_devargs_help);
			ret = -EINVAL;
			goto free_kvlist;
		}
		if (rte_kvargs_count(kvlist, key) > 1) {
			MLX5DM_DRV_LOG(ERR, "%s: devarg %s given more than once", name, key);
			ret = -EINVAL;
			goto free_kvlist;
		}
	}
	for (i = 0; i < RTE_DIM(mlx5dm_arg_handlers); i++) {
		/* The handlers log the precise cause. */
		if (rte_kvargs_process(kvlist, mlx5dm_arg_handlers[i].key,
				       mlx5dm_arg_handlers[i].handler, &ctx) < 0) {
			ret = -EINVAL;
			goto free_kvlist;
		}
	}
	/* Cross-key validation. */
	ret = mlx5dm_devargs_backend_check(name, kvlist, args);
	if (ret < 0)
		goto free_kvlist;
	if (args->topology == MLX5DM_TOPO_PAIR && args->nb_ports % 2 != 0) {
		MLX5DM_DRV_LOG(ERR, "%s: topology=pair needs an even number of ports (ports=%u)",
			       name, args->nb_ports);
		ret = -EINVAL;
	}
	if (ret == 0 && args->vf_ports && args->nb_vfs == 0) {
		MLX5DM_DRV_LOG(ERR, "%s: devarg %s=1 needs %s (the VFs to open)", name,
			       MLX5DM_ARG_VF_PORTS, MLX5DM_ARG_REPRESENTOR);
		ret = -EINVAL;
	}
	/* Port 0 manages the E-Switch; its ports with the others stay under the port limit. */
	if (ret == 0 && args->nb_ports + args->nb_vfs * (1 + args->vf_ports) > MLX5DM_MAX_PORTS) {
		MLX5DM_DRV_LOG(ERR, "%s: %u ports, %u representors and %u VF ports are more "
			       "than %u ports", name, args->nb_ports, args->nb_vfs,
			       args->nb_vfs * args->vf_ports, MLX5DM_MAX_PORTS);
		ret = -EINVAL;
	}
free_kvlist:
	rte_kvargs_free(kvlist);
	return ret;
}
