/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * What a port's steering holds, for the people running it: the ethdev
 * private dump (rte_eth_dev_priv_dump()) and the telemetry endpoints
 * /mlx5dm/... (usertools/dpdk-telemetry.py). Both say the same facts, read
 * from the steering library's statistics (mlx5dm_*_stats_get) and the
 * rte_flow state's counts under the port's flow lock, so that they agree
 * with the rules the application has created.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <ethdev_driver.h>
#include <rte_telemetry.h>

#include "mlx5dm.h"
#include "mlx5dm_flow.h"

/* The ICM types in the order of struct mlx5dm_ctx_stats. */
static const char *const mlx5dm_icm_names[] = {
	"steering", "modify_header", "modify_pattern", "encap",
};
static const char *const mlx5dm_dom_names[] = { "rx", "tx", "fdb" };

struct mlx5dm_facts {
	struct mlx5dm_ctx_stats ctx;
	struct mlx5dm_domain_stats dom[2];
	uint32_t flows;                 /* rte_flow rules the application created */
	struct mlx5dm_flow_stats flow;
};

/* The port's flow state locked (rules do not change meanwhile), or NULL: none yet. */
static struct mlx5dm_flow_priv *
mlx5dm_facts_lock(struct mlx5dm_priv *priv)
{
	struct mlx5dm_flow_priv *fp = __atomic_load_n(&priv->flow, __ATOMIC_ACQUIRE);

	if (fp != NULL)
		rte_spinlock_lock(&fp->lock);
	return fp;
}

static void
mlx5dm_facts_unlock(struct mlx5dm_flow_priv *fp)
{
	if (fp != NULL)
		rte_spinlock_unlock(&fp->lock);
}

static int
mlx5dm_facts_get(struct mlx5dm_priv *priv, struct mlx5dm_flow_priv *fp, struct mlx5dm_facts *f)
{
	struct mlx5dm_domain *dom[2] = { priv->dom_rx, priv->dom_tx };
	unsigned int i;
	int ret;

	memset(f, 0, sizeof(*f));
	if (priv->steer == NULL)
		return -ENODEV;
	ret = mlx5dm_ctx_stats_get(priv->steer, &f->ctx);
	for (i = 0; ret == 0 && i < RTE_DIM(dom); i++)
		if (dom[i] != NULL)
			ret = mlx5dm_domain_stats_get(dom[i], &f->dom[i]);
	if (fp != NULL) {
		f->flows = mlx5dm_flow_objs_listed(fp);
		mlx5dm_flow_objs_stats(fp, &f->flow);
	}
	return ret;
}

/* ---- the private dump ---- */

/* One line of the dump, formatted then written (as the steering dumps write theirs). */
static void __rte_format_printf(2, 3)
mlx5dm_dump_line(FILE *f, const char *fmt, ...)
{
	char line[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n > 0)
		fwrite(line, 1, RTE_MIN((size_t)n, sizeof(line) - 1), f);
}

static void
mlx5dm_dump_table(void *arg, unsigned int dom, uint32_t group, struct mlx5dm_table *t)
{
	struct mlx5dm_table_stats ts;

	if (mlx5dm_table_stats_get(t, &ts) == 0)
		mlx5dm_dump_line(arg, "  %s group %" PRIu32 ": %" PRIu64 " matchers, %" PRIu64
				 " rules\n", mlx5dm_dom_names[dom], group, ts.matchers, ts.rules);
}

int
mlx5dm_dev_priv_dump(struct rte_eth_dev *dev, FILE *file)
{
	struct mlx5dm_priv *priv = dev->data->dev_private;
	struct mlx5dm_queue_stats qs;
	struct mlx5dm_flow_priv *fp;
	struct mlx5dm_facts f;
	unsigned int i;
	int ret;

	fp = mlx5dm_facts_lock(priv);
	ret = mlx5dm_facts_get(priv, fp, &f);
	if (ret < 0)
		goto out;
	mlx5dm_dump_line(file, "net_mlx5dm port %u: index %u of %u, backend %s, %s\n",
			 priv->port_id, priv->port_index, priv->sh->args.nb_ports,
			 priv->sh->args.backend == RTE_PMD_MLX5DM_BACKEND_SIM ? "sim" : "hw",
			 priv->started ? "started" : "stopped");
	mlx5dm_dump_line(file, "ICM bytes: used, freed awaiting sync, allocated from the device\n");
	for (i = 0; i < RTE_DIM(mlx5dm_icm_names); i++)
		mlx5dm_dump_line(file, "  %-15s %" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
				 mlx5dm_icm_names[i], f.ctx.icm[i].used_bytes,
				 f.ctx.icm[i].hot_bytes, f.ctx.icm[i].dm_bytes);
	mlx5dm_dump_line(file, "rte_flow: %" PRIu32 " flows; steering: %" PRIu64 " rules, %"
			 PRIu64 " matchers, %" PRIu64 " tables\n", f.flows, f.ctx.rules,
			 f.ctx.matchers, f.ctx.tables);
	for (i = 0; i < RTE_DIM(f.dom); i++)
		mlx5dm_dump_line(file, "  %s: %" PRIu64 " tables, %" PRIu64 " matchers, %" PRIu64
				 " rules, %" PRIu64 " actions\n", mlx5dm_dom_names[i],
				 f.dom[i].tables, f.dom[i].matchers, f.dom[i].rules,
				 f.dom[i].actions);
	if (fp != NULL)
		mlx5dm_flow_tbl_foreach(fp, mlx5dm_dump_table, file);
	for (i = 0; i < f.ctx.queues; i++) {
		if (mlx5dm_queue_stats_get(priv->steer, (uint16_t)i, &qs) != 0)
			break;
		mlx5dm_dump_line(file, "rule queue %u: %" PRId64 " rules, %" PRIu64 " WQEs, %"
				 PRIu64 " bytes written, %" PRIu64 " doorbells, %" PRIu64
				 " CQEs, %" PRIu32 " of %" PRIu32 " WQEBBs outstanding, %" PRIu32
				 " WQEs unrung, error %d (syndrome 0x%" PRIx32 "), %"
				 PRIu64 " recoveries\n", i, qs.rules, qs.wqes, qs.write_bytes,
				 qs.doorbells, qs.cqes, qs.outstanding, qs.size, qs.unrung,
				 qs.error, qs.err_syndrome, qs.recoveries);
	}
	mlx5dm_dump_line(file, "counters: %" PRIu32 " in use in %" PRIu32 " bulks, %" PRIu32
			 " counter actions; device bulks %" PRIu64 "\n", f.flow.counters,
			 f.flow.cnt_bulks, f.flow.cnt_actions, f.ctx.counter_bulks);
out:
	mlx5dm_facts_unlock(fp);
	return ret;
}

/* ---- telemetry ---- */

/* The port a command names ("/mlx5dm/icm,0"), if it is a net_mlx5dm port. */
static struct mlx5dm_priv *
mlx5dm_telemetry_port(const char *params)
{
	struct rte_pmd_mlx5dm_port_info info;
	unsigned long port;
	char *end;

	if (params == NULL || *params == '\0')
		return NULL;
	errno = 0;
	port = strtoul(params, &end, 10);
	if (errno != 0 || *end != '\0' || port >= RTE_MAX_ETHPORTS ||
	    rte_pmd_mlx5dm_port_info_get((uint16_t)port, &info) != 0)
		return NULL;
	return rte_eth_devices[port].data->dev_private;
}

/* A dict of d named name (d keeps it); NULL when out of memory. */
static struct rte_tel_data *
mlx5dm_telemetry_dict(struct rte_tel_data *d, const char *name)
{
	struct rte_tel_data *c = rte_tel_data_alloc();

	if (c == NULL)
		return NULL;
	rte_tel_data_start_dict(c);
	if (rte_tel_data_add_dict_container(d, name, c, 0) != 0) {
		rte_tel_data_free(c);
		return NULL;
	}
	return c;
}

static int
mlx5dm_telemetry_ports(const char *cmd __rte_unused, const char *params __rte_unused,
		 struct rte_tel_data *d)
{
	struct rte_pmd_mlx5dm_port_info info;
	uint16_t port;

	rte_tel_data_start_array(d, RTE_TEL_INT_VAL);
	RTE_ETH_FOREACH_DEV(port)
		if (rte_pmd_mlx5dm_port_info_get(port, &info) == 0)
			rte_tel_data_add_array_int(d, port);
	return 0;
}

/* What a per-port command says, with the port's flow state locked (fp may be NULL). */
typedef void (*mlx5dm_telemetry_body)(struct mlx5dm_priv *priv, struct mlx5dm_flow_priv *fp,
				const struct mlx5dm_facts *f, struct rte_tel_data *d);

static void
mlx5dm_telemetry_icm_body(struct mlx5dm_priv *priv __rte_unused,
		    struct mlx5dm_flow_priv *fp __rte_unused, const struct mlx5dm_facts *f,
		    struct rte_tel_data *d)
{
	struct rte_tel_data *c;
	unsigned int i;

	for (i = 0; i < RTE_DIM(mlx5dm_icm_names); i++) {
		c = mlx5dm_telemetry_dict(d, mlx5dm_icm_names[i]);
		if (c == NULL)
			return;
		rte_tel_data_add_dict_u64(c, "used_bytes", f->ctx.icm[i].used_bytes);
		rte_tel_data_add_dict_u64(c, "hot_bytes", f->ctx.icm[i].hot_bytes);
		rte_tel_data_add_dict_u64(c, "dm_bytes", f->ctx.icm[i].dm_bytes);
	}
}

static void
mlx5dm_telemetry_rules_body(struct mlx5dm_priv *priv __rte_unused,
		      struct mlx5dm_flow_priv *fp __rte_unused, const struct mlx5dm_facts *f,
		      struct rte_tel_data *d)
{
	struct rte_tel_data *c;
	unsigned int i;

	rte_tel_data_add_dict_u64(d, "flows", f->flows);
	rte_tel_data_add_dict_u64(d, "templates", f->flow.templates);
	rte_tel_data_add_dict_u64(d, "tag_templates", f->flow.tags);
	rte_tel_data_add_dict_u64(d, "rules", f->ctx.rules);
	rte_tel_data_add_dict_u64(d, "matchers", f->ctx.matchers);
	rte_tel_data_add_dict_u64(d, "tables", f->ctx.tables);
	for (i = 0; i < RTE_DIM(f->dom); i++) {
		c = mlx5dm_telemetry_dict(d, mlx5dm_dom_names[i]);
		if (c == NULL)
			return;
		rte_tel_data_add_dict_u64(c, "tables", f->dom[i].tables);
		rte_tel_data_add_dict_u64(c, "matchers", f->dom[i].matchers);
		rte_tel_data_add_dict_u64(c, "rules", f->dom[i].rules);
		rte_tel_data_add_dict_u64(c, "actions", f->dom[i].actions);
	}
}

static void
mlx5dm_telemetry_table(void *arg, unsigned int dom, uint32_t group, struct mlx5dm_table *t)
{
	struct mlx5dm_table_stats ts;
	struct rte_tel_data *c;
	char name[32];

	if (mlx5dm_table_stats_get(t, &ts) != 0)
		return;
	snprintf(name, sizeof(name), "%s_group_%" PRIu32, mlx5dm_dom_names[dom], group);
	c = mlx5dm_telemetry_dict(arg, name);
	if (c == NULL)
		return;
	rte_tel_data_add_dict_u64(c, "matchers", ts.matchers);
	rte_tel_data_add_dict_u64(c, "rules", ts.rules);
}

static void
mlx5dm_telemetry_tables_body(struct mlx5dm_priv *priv __rte_unused, struct mlx5dm_flow_priv *fp,
		       const struct mlx5dm_facts *f __rte_unused, struct rte_tel_data *d)
{
	if (fp != NULL)
		mlx5dm_flow_tbl_foreach(fp, mlx5dm_telemetry_table, d);
}

static void
mlx5dm_telemetry_send_body(struct mlx5dm_priv *priv, struct mlx5dm_flow_priv *fp __rte_unused,
		     const struct mlx5dm_facts *f, struct rte_tel_data *d)
{
	struct mlx5dm_queue_stats qs;
	struct rte_tel_data *c;
	char name[32];
	unsigned int i;

	rte_tel_data_add_dict_u64(d, "wqes", f->ctx.wqes);
	rte_tel_data_add_dict_u64(d, "write_bytes", f->ctx.write_bytes);
	for (i = 0; i < f->ctx.queues; i++) {
		if (mlx5dm_queue_stats_get(priv->steer, (uint16_t)i, &qs) != 0)
			return;
		snprintf(name, sizeof(name), "queue_%u", i);
		c = mlx5dm_telemetry_dict(d, name);
		if (c == NULL)
			return;
		rte_tel_data_add_dict_int(c, "rules", (int)qs.rules);
		rte_tel_data_add_dict_u64(c, "wqes", qs.wqes);
		rte_tel_data_add_dict_u64(c, "write_bytes", qs.write_bytes);
		rte_tel_data_add_dict_u64(c, "doorbells", qs.doorbells);
		rte_tel_data_add_dict_u64(c, "cqes", qs.cqes);
		rte_tel_data_add_dict_u64(c, "full_waits", qs.full_waits);
		rte_tel_data_add_dict_u64(c, "size", qs.size);
		rte_tel_data_add_dict_u64(c, "outstanding", qs.outstanding);
		rte_tel_data_add_dict_u64(c, "unrung", qs.unrung);
		rte_tel_data_add_dict_int(c, "error", qs.error);
		rte_tel_data_add_dict_u64(c, "err_syndrome", qs.err_syndrome);
		rte_tel_data_add_dict_u64(c, "recoveries", qs.recoveries);
	}
}

static void
mlx5dm_telemetry_counters_body(struct mlx5dm_priv *priv __rte_unused,
			 struct mlx5dm_flow_priv *fp __rte_unused, const struct mlx5dm_facts *f,
			 struct rte_tel_data *d)
{
	rte_tel_data_add_dict_u64(d, "counters", f->flow.counters);
	rte_tel_data_add_dict_u64(d, "bulks", f->flow.cnt_bulks);
	rte_tel_data_add_dict_u64(d, "counter_actions", f->flow.cnt_actions);
	rte_tel_data_add_dict_u64(d, "device_bulks", f->ctx.counter_bulks);
}

/* The per-port commands: /mlx5dm/<name>,<port_id>. */
static const struct {
	const char *cmd;
	mlx5dm_telemetry_body body;
	const char *help;
} mlx5dm_telemetry_cmds[] = {
	{ "/mlx5dm/icm", mlx5dm_telemetry_icm_body,
	  "Returns ICM bytes used, awaiting sync and allocated from the device, per ICM type." },
	{ "/mlx5dm/rules", mlx5dm_telemetry_rules_body,
	  "Returns the rte_flow flows and the steering rules, per domain." },
	{ "/mlx5dm/tables", mlx5dm_telemetry_tables_body,
	  "Returns matchers and rules per rte_flow group." },
	{ "/mlx5dm/send", mlx5dm_telemetry_send_body, "Returns the rule queues' send rings." },
	{ "/mlx5dm/counters", mlx5dm_telemetry_counters_body,
	  "Returns flow counters and their bulks." },
};

static int
mlx5dm_telemetry_port_cmd(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct mlx5dm_priv *priv = mlx5dm_telemetry_port(params);
	struct mlx5dm_flow_priv *fp;
	struct mlx5dm_facts f;
	unsigned int i;
	int ret;

	for (i = 0; i < RTE_DIM(mlx5dm_telemetry_cmds); i++)
		if (strcmp(cmd, mlx5dm_telemetry_cmds[i].cmd) == 0)
			break;
	if (priv == NULL || i == RTE_DIM(mlx5dm_telemetry_cmds))
		return -EINVAL;
	fp = mlx5dm_facts_lock(priv);
	ret = mlx5dm_facts_get(priv, fp, &f);
	if (ret == 0) {
		rte_tel_data_start_dict(d);
		mlx5dm_telemetry_cmds[i].body(priv, fp, &f, d);
	}
	mlx5dm_facts_unlock(fp);
	return ret;
}

RTE_INIT(mlx5dm_telemetry_init)
{
	char help[RTE_TEL_MAX_STRING_LEN];
	unsigned int i;

	rte_telemetry_register_cmd("/mlx5dm/ports", mlx5dm_telemetry_ports,
			"Returns the net_mlx5dm port ids. Takes no parameters");
	for (i = 0; i < RTE_DIM(mlx5dm_telemetry_cmds); i++) {
		/* The help is copied by telemetry. */
		snprintf(help, sizeof(help), "%s Parameters: int port_id",
			 mlx5dm_telemetry_cmds[i].help);
		rte_telemetry_register_cmd(mlx5dm_telemetry_cmds[i].cmd, mlx5dm_telemetry_port_cmd,
					   help);
	}
}
