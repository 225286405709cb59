/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The PMD's records of a steering dump, as DPDK mlx5's `flow dump` writes
 * them before the domains (mlx_steering_dump shows them in the rules that
 * use the action, named by the library action's address):
 *   4410,0x<action id>,<header bytes in hex>                packet reformat
 *   4420,0x<action id>,<number of actions>,<actions in hex> modify header
 *   4430,0x<action id>,<hits>,<bytes>                       a flow's counter
 * 4410 only for VXLAN headers: the parser reads them at fixed offsets.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "mlx5dm_flow.h"

#define MLX5DM_DUMP_PMD_REFORMAT 4410
#define MLX5DM_DUMP_PMD_MODIFY 4420
#define MLX5DM_DUMP_PMD_COUNTER 4430

#define MLX5DM_DUMP_ETH_LEN 14
#define MLX5DM_DUMP_VLAN_LEN 4
#define MLX5DM_DUMP_IPV4_LEN 20
#define MLX5DM_DUMP_IPV6_LEN 40
#define MLX5DM_DUMP_UDP_VXLAN_LEN 16     /* UDP 8 + VXLAN 8 */
#define MLX5DM_DUMP_IPPROTO_UDP 17

/* The longest record: 4420 with a full modify list (8 bytes, 16 hex digits, each). */
#define MLX5DM_DUMP_PMD_LINE (64 + 16 * MLX5DM_FLOW_MAX_MODIFY)

struct mlx5dm_flow_dump {
	FILE *f;
	int err;
	char line[MLX5DM_DUMP_PMD_LINE];
};

static uint16_t
mlx5dm_flow_dump_be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

/* Is this header Ethernet [/ VLAN] / IPv4 without options or IPv6 / UDP / VXLAN, exactly? */
static bool
mlx5dm_flow_dump_is_vxlan(const uint8_t *h, size_t len)
{
	size_t off = MLX5DM_DUMP_ETH_LEN;
	uint16_t type;
	uint8_t proto;

	if (len < off)
		return false;
	type = mlx5dm_flow_dump_be16(h + off - 2);
	if (type == 0x8100 || type == 0x88a8) {
		off += MLX5DM_DUMP_VLAN_LEN;
		if (len < off)
			return false;
		type = mlx5dm_flow_dump_be16(h + off - 2);
	}
	if (type == 0x0800) {
		if (len < off + MLX5DM_DUMP_IPV4_LEN || h[off] != 0x45)
			return false;
		proto = h[off + 9];
		off += MLX5DM_DUMP_IPV4_LEN;
	} else if (type == 0x86dd) {
		if (len < off + MLX5DM_DUMP_IPV6_LEN || (h[off] >> 4) != 6)
			return false;
		proto = h[off + 6];
		off += MLX5DM_DUMP_IPV6_LEN;
	} else {
		return false;
	}
	return proto == MLX5DM_DUMP_IPPROTO_UDP && len == off + MLX5DM_DUMP_UDP_VXLAN_LEN;
}

/* The record of n characters in d->line. */
static void
mlx5dm_flow_dump_line(struct mlx5dm_flow_dump *d, int n)
{
	if (n < 0 || (size_t)n >= sizeof(d->line))
		d->err = -EOVERFLOW;
	else if (fwrite(d->line, 1, (size_t)n, d->f) != (size_t)n)
		d->err = -EIO;
}

/* The record begun in d->line (n characters), then len bytes of data in hex. */
static void
mlx5dm_flow_dump_hex(struct mlx5dm_flow_dump *d, int n, const uint8_t *data, size_t len)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	if (n < 0 || (size_t)n + 2 * len + 1 >= sizeof(d->line)) {
		d->err = -EOVERFLOW;
		return;
	}
	for (i = 0; i < len; i++) {
		d->line[n++] = digits[data[i] >> 4];
		d->line[n++] = digits[data[i] & 0xf];
	}
	d->line[n++] = '\n';
	mlx5dm_flow_dump_line(d, n);
}

/* The 4420 records of the flow's modify-set actions, with the data its rules gave. */
static void
mlx5dm_flow_dump_sets(struct mlx5dm_flow_dump *d, const struct rte_flow *flow)
{
	const unsigned int head = MLX5DM_MODIFY_ACTION_SIZE - MLX5DM_MODIFY_ARG_SIZE;
	const struct mlx5dm_flow_action_set *s;
	const struct mlx5dm_flow_entry *ent;
	uint8_t e[MLX5DM_MODIFY_ACTION_SIZE];
	unsigned int i, k;
	uint32_t data;
	int n;

	for (i = 0; i < flow->nb_rules && d->err == 0; i++) {
		s = flow->rules[i].action_set;
		for (k = 0; k < s->nb && d->err == 0; k++) {
			ent = s->entries[k];
			if (ent->kind != MLX5DM_FLOW_ENTRY_MODIFY_SET ||
			    mlx5dm_rule_modify_data(flow->rules[i].rule, s->acts[k], &data) < 0)
				continue;
			memcpy(e, ent->key + ent->k.key_len - ent->data_len, head);
			mlx5dm_prm_put_be32(&e[head], data);
			n = snprintf(d->line, sizeof(d->line), "%d,0x%" PRIx64 ",1,",
				     MLX5DM_DUMP_PMD_MODIFY, (uint64_t)(uintptr_t)s->acts[k]);
			mlx5dm_flow_dump_hex(d, n, e, sizeof(e));
		}
	}
}

/* A cached action's record (an mlx5dm_index_foreach() callback). */
static void
mlx5dm_flow_dump_entry(void *arg, void *rec)
{
	struct mlx5dm_flow_dump *d = arg;
	const struct mlx5dm_flow_entry *e = rec;
	const uint8_t *data = e->key + e->k.key_len - e->data_len;
	uint64_t id = (uint64_t)(uintptr_t)e->act;
	int n;

	if (d->err != 0)
		return;
	if (e->kind == MLX5DM_FLOW_ENTRY_MODIFY) {
		n = snprintf(d->line, sizeof(d->line), "%d,0x%" PRIx64 ",%u,",
			     MLX5DM_DUMP_PMD_MODIFY, id,
			     (unsigned int)(e->data_len / MLX5DM_MODIFY_ACTION_SIZE));
	} else if (e->kind == MLX5DM_FLOW_ENTRY_REFORMAT &&
		   (e->u32 == MLX5DM_REFORMAT_L2_TO_L2_TUNNEL ||
		    e->u32 == MLX5DM_REFORMAT_L2_TO_L3_TUNNEL) &&
		   mlx5dm_flow_dump_is_vxlan(data, e->data_len)) {
		n = snprintf(d->line, sizeof(d->line), "%d,0x%" PRIx64 ",",
			     MLX5DM_DUMP_PMD_REFORMAT, id);
	} else {
		/* A modify-set's data is each rule's: see mlx5dm_flow_dump_sets(). */
		return;
	}
	mlx5dm_flow_dump_hex(d, n, data, e->data_len);
}

/* e is in the set of one of the flow's first n rules. */
static bool
mlx5dm_flow_dump_seen(const struct rte_flow *flow, unsigned int n,
		      const struct mlx5dm_flow_entry *e)
{
	const struct mlx5dm_flow_action_set *s;
	unsigned int i, k;

	for (i = 0; i < n; i++)
		for (k = 0, s = flow->rules[i].action_set; k < s->nb; k++)
			if (s->entries[k] == e)
				return true;
	return false;
}

static void
mlx5dm_flow_dump_counter(struct mlx5dm_flow_priv *fp, struct mlx5dm_flow_dump *d,
			 struct rte_flow *flow)
{
	struct rte_flow_query_count q;
	struct rte_flow_error error;
	struct mlx5dm_action *a;
	uint32_t arg;
	int n, ret;

	if (d->err != 0 || flow->cnt == 0)
		return;
	memset(&q, 0, sizeof(q));
	ret = mlx5dm_flow_objs_query_count(fp, flow, &q, &error);
	if (ret < 0) {
		d->err = ret;
		return;
	}
	a = mlx5dm_flow_cnt_action(fp, flow->cnt, flow->dom, &arg);
	n = snprintf(d->line, sizeof(d->line), "%d,0x%" PRIx64 ",%" PRIu64 ",%" PRIu64 "\n",
		     MLX5DM_DUMP_PMD_COUNTER, mlx5dm_action_dump_id(a, arg), q.hits, q.bytes);
	mlx5dm_flow_dump_line(d, n);
}

int
mlx5dm_flow_dump_pmd(struct mlx5dm_flow_priv *fp, FILE *f)
{
	struct mlx5dm_flow_dump d = { .f = f };
	struct rte_flow *flow;

	mlx5dm_index_foreach(&fp->entries, mlx5dm_flow_dump_entry, &d);
	for (flow = mlx5dm_flow_pool_next(&fp->pool, NULL); flow != NULL;
	     flow = mlx5dm_flow_pool_next(&fp->pool, flow)) {
		if (!mlx5dm_flow_take(flow))
			continue;
		mlx5dm_flow_dump_sets(&d, flow);
		mlx5dm_flow_dump_counter(fp, &d, flow);
		mlx5dm_flow_give(flow);
	}
	return d.err;
}

int
mlx5dm_flow_dump_flow(struct mlx5dm_flow_priv *fp, struct rte_flow *flow, FILE *f)
{
	struct mlx5dm_flow_dump d = { .f = f };
	const struct mlx5dm_flow_action_set *s;
	unsigned int i, k;

	/* Each of its shared actions once: its rules' sets share some. */
	for (i = 0; i < flow->nb_rules; i++) {
		s = flow->rules[i].action_set;
		for (k = 0; k < s->nb; k++)
			if (!mlx5dm_flow_dump_seen(flow, i, s->entries[k]))
				mlx5dm_flow_dump_entry(&d, s->entries[k]);
	}
	mlx5dm_flow_dump_sets(&d, flow);
	mlx5dm_flow_dump_counter(fp, &d, flow);
	for (i = 0; i < flow->nb_rules && d.err == 0; i++)
		d.err = mlx5dm_rule_dump(flow->rules[i].rule, f);
	return d.err;
}
