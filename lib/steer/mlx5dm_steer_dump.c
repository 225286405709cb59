/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Domain dump in the CSV format of rdma-core's mlx5dv_dump_dr_domain()
 * (record types 3000-3424, one record a line, fields separated by commas),
 * so that the public mlx_steering_dump parser ("sws") reads our dumps.
 *
 * Ids are object addresses, as rdma-core prints them: the same object has
 * the same id in every record that names it (a matcher's id in its rules,
 * a rule's id in its entries and actions, a shared action's id in every
 * rule using it). ICM locations are printed as rdma-core does, as the
 * 64-byte line index (icm_addr >> 6, 32 bits).
 *
 * Rule entries carry the 64 bytes of every STE of the rule (match levels,
 * then action STEs) in the software layout, which is what rdma-core keeps
 * and dumps (hw_ste) and what the parser decodes: control | tag | mask.
 * For MATCH entries that is the ICM content; for BWC (legacy) entries the
 * device image has tag and mask swapped (mlx5dm_ste_to_hw). The bytes are
 * rebuilt from the records exactly as mlx5dm_ste_write_full() builds the
 * writes, never read back from the device.
 *
 * Extension: the table record (3100) has one more field than rdma-core's,
 * the flow table object id; parsers ignore trailing fields.
 *
 * An FDB domain is dumped as rdma-core dumps one: its vports (3003), each
 * table with its RX and TX anchors (3101, 3102), each matcher with both
 * sides (3202, 3203, their builders), each rule once (3300) with the
 * entries of its sides (3303, 3304) and its actions once. Ids are those
 * of the FDB objects, not of their sides.
 *
 * Locking: the context lock for the whole dump (tables and matchers stay
 * put), each matcher's shard locks while its rules are walked (inserts
 * and deletes on that matcher wait; other matchers keep going). Nothing is
 * written.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include "mlx5dm_prm_match.h"
#include "mlx5dm_steer_priv.h"

/* Record types (rdma-core providers/mlx5/dr_dbg.c, enum dr_dump_rec_type). */
enum mlx5dm_dump_rec {
	MLX5DM_DUMP_DOMAIN = 3000,
	MLX5DM_DUMP_DOMAIN_FLEX_PARSER = 3001,
	MLX5DM_DUMP_DOMAIN_VPORT = 3003,
	MLX5DM_DUMP_DOMAIN_CAPS = 3004,
	MLX5DM_DUMP_DOMAIN_SEND_RING = 3005,
	MLX5DM_DUMP_TABLE = 3100,
	MLX5DM_DUMP_TABLE_RX = 3101,          /* TX: + 1 */
	MLX5DM_DUMP_MATCHER = 3200,
	MLX5DM_DUMP_MATCHER_RX = 3202,        /* TX: + 1 */
	MLX5DM_DUMP_MATCHER_BUILDER = 3204,
	MLX5DM_DUMP_MATCHER_MASK = 3205,
	MLX5DM_DUMP_RULE = 3300,
	MLX5DM_DUMP_RULE_RX_ENTRY_V1 = 3303,  /* TX: + 1 */
	MLX5DM_DUMP_ACTION_ENCAP_L2 = 3400,
	MLX5DM_DUMP_ACTION_ENCAP_L3 = 3401,
	MLX5DM_DUMP_ACTION_MODIFY_HDR = 3402,
	MLX5DM_DUMP_ACTION_DROP = 3403,
	MLX5DM_DUMP_ACTION_FT = 3405,
	MLX5DM_DUMP_ACTION_CTR = 3406,
	MLX5DM_DUMP_ACTION_TAG = 3407,
	MLX5DM_DUMP_ACTION_VPORT = 3408,
	MLX5DM_DUMP_ACTION_DECAP_L2 = 3409,
	MLX5DM_DUMP_ACTION_DECAP_L3 = 3410,
	MLX5DM_DUMP_ACTION_DEVX_TIR = 3411,
	MLX5DM_DUMP_ACTION_PUSH_VLAN = 3412,
	MLX5DM_DUMP_ACTION_POP_VLAN = 3413,
	MLX5DM_DUMP_ACTION_MISS = 3423,
};

/* The longest record is the matcher mask: 7 sections of 128 hex digits. */
#define MLX5DM_DUMP_LINE_MAX 2048

struct mlx5dm_dump {
	FILE *f;
	struct mlx5dm_ctx *ctx;
	struct mlx5dm_domain *dom;
	uint64_t dom_id;
	unsigned int side;                /* 0 RX, 1 TX: offset of the per-side records */
	int err;                          /* first error, sticky */
	size_t len;
	char line[MLX5DM_DUMP_LINE_MAX];
};

static uint64_t
mlx5dm_dump_id(const void *obj)
{
	return (uint64_t)(uintptr_t)obj;
}

#define MLX5DM_DUMP_ID_COUNTER (1ull << 63)

uint64_t
mlx5dm_action_dump_id(const struct mlx5dm_action *a, uint32_t arg)
{
	if (a->kind == MLX5DM_ACT_COUNTERS)
		return MLX5DM_DUMP_ID_COUNTER | (uint32_t)(a->ste.counter_id + arg);
	return mlx5dm_dump_id(a);
}

static uint64_t
mlx5dm_dump_icm_idx(uint64_t icm_addr)
{
	return (icm_addr >> 6) & 0xffffffffu;
}

/* Append formatted text to the current record. */
static void
mlx5dm_dump_add(struct mlx5dm_dump *d, const char *fmt, ...)
{
	size_t room = sizeof(d->line) - d->len;
	va_list ap;
	int n;

	if (d->err != 0)
		return;
	va_start(ap, fmt);
	n = vsnprintf(d->line + d->len, room, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= room) {
		d->err = -EOVERFLOW;
		return;
	}
	d->len += (size_t)n;
}

static void
mlx5dm_dump_hex(struct mlx5dm_dump *d, const uint8_t *buf, size_t n)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	if (d->err != 0)
		return;
	if (d->len + 2 * n >= sizeof(d->line)) {
		d->err = -EOVERFLOW;
		return;
	}
	for (i = 0; i < n; i++) {
		d->line[d->len++] = digits[buf[i] >> 4];
		d->line[d->len++] = digits[buf[i] & 0xf];
	}
}

/* Start a record: its type and its own id (every record has both first). */
static void
mlx5dm_dump_rec(struct mlx5dm_dump *d, unsigned int type, uint64_t id)
{
	d->len = 0;
	mlx5dm_dump_add(d, "%u,0x%" PRIx64, type, id);
}

/* Terminate the current record and write it. */
static int
mlx5dm_dump_end(struct mlx5dm_dump *d)
{
	if (d->err != 0)
		return d->err;
	d->line[d->len++] = '\n';
	if (fwrite(d->line, 1, d->len, d->f) != d->len)
		d->err = -EIO;
	d->len = 0;
	return d->err;
}

/* ---- domain ---- */

/* 3003: number, vhca_id of its function, RX and TX entries. */
static void
mlx5dm_dump_vport(void *arg, const struct mlx5dm_vport_caps *vc)
{
	struct mlx5dm_dump *d = arg;

	mlx5dm_dump_rec(d, MLX5DM_DUMP_DOMAIN_VPORT, d->dom_id);
	mlx5dm_dump_add(d, ",%u,0x%x,0x%" PRIx64 ",0x%" PRIx64, vc->num, vc->vport_gvmi,
			vc->icm_rx, vc->icm_tx);
	mlx5dm_dump_end(d);
}

static int
mlx5dm_dump_domain(struct mlx5dm_dump *d)
{
	const struct mlx5dm_caps *caps = &d->ctx->caps;
	/* rdma-core's four ICMP parsers, then ours: the ids FLEX_PARSER lookups read. */
	const struct {
		const char *name;
		unsigned int id;
	} flex[] = {
		{ "icmp_dw0", caps->flex_id_icmp[0] },
		{ "icmp_dw1", caps->flex_id_icmp[1] },
		{ "icmpv6_dw0", caps->flex_id_icmp[2] },
		{ "icmpv6_dw1", caps->flex_id_icmp[3] },
		{ "mpls_over_gre", caps->ste.flex_id[MLX5DM_STE_FLEX_MPLS_OVER_GRE] },
		{ "mpls_over_udp", caps->ste.flex_id[MLX5DM_STE_FLEX_MPLS_OVER_UDP] },
	};
	struct mlx5dm_icm_stats is[MLX5DM_ICM_TYPE_NUM];
	struct ibv_context *ibctx = d->ctx->dev->ctx;
	_Static_assert(MLX5DM_STE_FLEX_MAX == 2, "the dump names every flex protocol");
	const char *dev_name = d->ctx->dev->ops->name;
	unsigned int i;

	if (ibctx != NULL && ibctx->device != NULL)
		dev_name = ibctx->device->name;
	mlx5dm_icm_set_stats(d->ctx->icm, is, NULL);
	/* id, type, gvmi, SW steering, version, device, flags, DMs per ICM type, format. */
	mlx5dm_dump_rec(d, MLX5DM_DUMP_DOMAIN, d->dom_id);
	mlx5dm_dump_add(d, ",%d,0x%x,1,mlx5dm-%s,%s,0,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%u",
			(int)d->dom->type, caps->vhca_id, MLX5DM_VERSION, dev_name,
			is[MLX5DM_ICM_STE].dm_count, is[MLX5DM_ICM_MODIFY].dm_count,
			is[MLX5DM_ICM_PATTERN].dm_count, caps->fmt);
	mlx5dm_dump_end(d);
	/* gvmi, NIC RX/TX drop addresses, flex protocols, vports, eswitch manager. */
	mlx5dm_dump_rec(d, MLX5DM_DUMP_DOMAIN_CAPS, d->dom_id);
	mlx5dm_dump_add(d, ",0x%x,0x%" PRIx64 ",0x%" PRIx64 ",0x%x,%u,%d", caps->vhca_id,
			caps->rx_drop_icm, caps->tx_drop_icm, caps->ste.flex_protocols,
			mlx5dm_domain_is_fdb(d->dom) ?
			mlx5dm_fdb_vports_each(d->dom, NULL, NULL) : 0,
			caps->eswitch_manager ? 1 : 0);
	mlx5dm_dump_end(d);
	if (mlx5dm_domain_is_fdb(d->dom))
		(void)mlx5dm_fdb_vports_each(d->dom, mlx5dm_dump_vport, d);
	for (i = 0; i < MLX5DM_ARRAY_SIZE(flex); i++) {
		mlx5dm_dump_rec(d, MLX5DM_DUMP_DOMAIN_FLEX_PARSER, d->dom_id);
		mlx5dm_dump_add(d, ",%s,0x%x", flex[i].name, flex[i].id);
		mlx5dm_dump_end(d);
	}
	/* Every rule queue and the control queue. */
	for (i = 0; i <= d->ctx->nb_queues; i++) {
		const struct mlx5dm_send_ring *ring = d->ctx->queues[i].ring;

		mlx5dm_dump_rec(d, MLX5DM_DUMP_DOMAIN_SEND_RING, mlx5dm_dump_id(ring));
		mlx5dm_dump_add(d, ",0x%" PRIx64 ",0x%x,0x%x", d->dom_id,
				mlx5dm_send_ring_cqn(ring), mlx5dm_send_ring_qpn(ring));
		mlx5dm_dump_end(d);
	}
	return d->err;
}

/* ---- rules ---- */

/* Record type and the one optional 32-bit field of each action. */
struct mlx5dm_dump_action_fmt {
	uint16_t rec;
	uint8_t arg;                      /* enum mlx5dm_dump_arg */
};

enum mlx5dm_dump_arg {
	MLX5DM_DUMP_ARG_NONE,
	MLX5DM_DUMP_ARG_COUNTER,
	MLX5DM_DUMP_ARG_TAG,
	MLX5DM_DUMP_ARG_LIST_INDEX,
	MLX5DM_DUMP_ARG_ENCAP_INDEX,
	MLX5DM_DUMP_ARG_VLAN,
	MLX5DM_DUMP_ARG_ICM,
	MLX5DM_DUMP_ARG_VPORT,
	MLX5DM_DUMP_ARG_SPECIAL,          /* several fields: mlx5dm_dump_action() */
};

static const struct mlx5dm_dump_action_fmt mlx5dm_dump_action_fmts[] = {
	[MLX5DM_STE_ACTION_COUNTER] = { MLX5DM_DUMP_ACTION_CTR, MLX5DM_DUMP_ARG_COUNTER },
	[MLX5DM_STE_ACTION_FLOW_TAG] = { MLX5DM_DUMP_ACTION_TAG, MLX5DM_DUMP_ARG_TAG },
	[MLX5DM_STE_ACTION_DECAP_L2] = { MLX5DM_DUMP_ACTION_DECAP_L2, MLX5DM_DUMP_ARG_NONE },
	[MLX5DM_STE_ACTION_DECAP_L3] = { MLX5DM_DUMP_ACTION_DECAP_L3, MLX5DM_DUMP_ARG_LIST_INDEX },
	[MLX5DM_STE_ACTION_MODIFY_HDR] = { MLX5DM_DUMP_ACTION_MODIFY_HDR, MLX5DM_DUMP_ARG_SPECIAL },
	[MLX5DM_STE_ACTION_POP_VLAN] = { MLX5DM_DUMP_ACTION_POP_VLAN, MLX5DM_DUMP_ARG_NONE },
	[MLX5DM_STE_ACTION_PUSH_VLAN] = { MLX5DM_DUMP_ACTION_PUSH_VLAN, MLX5DM_DUMP_ARG_VLAN },
	[MLX5DM_STE_ACTION_ENCAP_L2] = { MLX5DM_DUMP_ACTION_ENCAP_L2, MLX5DM_DUMP_ARG_ENCAP_INDEX },
	[MLX5DM_STE_ACTION_ENCAP_L3] = { MLX5DM_DUMP_ACTION_ENCAP_L3, MLX5DM_DUMP_ARG_ENCAP_INDEX },
	[MLX5DM_STE_ACTION_DROP] = { MLX5DM_DUMP_ACTION_DROP, MLX5DM_DUMP_ARG_NONE },
	[MLX5DM_STE_ACTION_DEST_TABLE] = { MLX5DM_DUMP_ACTION_FT, MLX5DM_DUMP_ARG_SPECIAL },
	[MLX5DM_STE_ACTION_DEST_TIR] = { MLX5DM_DUMP_ACTION_DEVX_TIR, MLX5DM_DUMP_ARG_ICM },
	[MLX5DM_STE_ACTION_DEFAULT_MISS] = { MLX5DM_DUMP_ACTION_MISS, MLX5DM_DUMP_ARG_NONE },
	[MLX5DM_STE_ACTION_DEST_VPORT] = { MLX5DM_DUMP_ACTION_VPORT, MLX5DM_DUMP_ARG_VPORT },
};

/* The 32- or 64-bit field of actions with one (fmt->arg), of rule's action a. */
static uint64_t
mlx5dm_dump_action_arg(const struct mlx5dm_action *a, const struct mlx5dm_rule *rule,
		       enum mlx5dm_dump_arg arg)
{
	const struct mlx5dm_ste_action *sa = &a->ste;

	switch (arg) {
	case MLX5DM_DUMP_ARG_COUNTER:
		return sa->counter_id;
	case MLX5DM_DUMP_ARG_TAG:
		/* The tags action's tag is the rule's (in its entries). */
		if (a->kind == MLX5DM_ACT_FLOW_TAGS)
			return mlx5dm_rule_flow_tag(rule, a);
		return sa->flow_tag;
	case MLX5DM_DUMP_ARG_LIST_INDEX:
		return sa->modify.index;
	case MLX5DM_DUMP_ARG_ENCAP_INDEX:
		return sa->encap.index;
	case MLX5DM_DUMP_ARG_VLAN:
		return sa->vlan_hdr;
	case MLX5DM_DUMP_ARG_VPORT:
		return a->vport;
	default:
		return sa->icm_addr;
	}
}

static void
mlx5dm_dump_action(struct mlx5dm_dump *d, const struct mlx5dm_action *a,
		   const struct mlx5dm_rule *rule, uint64_t rule_id)
{
	const struct mlx5dm_ste_action *sa = &a->ste;
	const struct mlx5dm_ste_modify_ref *mod = &sa->modify;
	const struct mlx5dm_dump_action_fmt *fmt;

	if ((unsigned int)sa->type >= MLX5DM_ARRAY_SIZE(mlx5dm_dump_action_fmts))
		return;
	fmt = &mlx5dm_dump_action_fmts[sa->type];
	if (a->kind == MLX5DM_ACT_COUNTERS) {
		/* A bulk's action: the rule's own counter (from its entries) and its id. */
		uint32_t id = mlx5dm_rule_bulk_counter_id(rule, a);

		mlx5dm_dump_rec(d, fmt->rec, mlx5dm_action_dump_id(a, id - sa->counter_id));
		mlx5dm_dump_add(d, ",0x%" PRIx64 ",0x%x", rule_id, id);
		mlx5dm_dump_end(d);
		return;
	}
	mlx5dm_dump_rec(d, fmt->rec, mlx5dm_dump_id(a));
	mlx5dm_dump_add(d, ",0x%" PRIx64, rule_id);
	if (sa->type == MLX5DM_STE_ACTION_DEST_TABLE) {
		/* Flow table object id, destination table id. */
		mlx5dm_dump_add(d, ",0x%x,0x%" PRIx64, a->dest_tbl->ft_id,
				mlx5dm_dump_id(a->dest_tbl));
	} else if (sa->type == MLX5DM_STE_ACTION_MODIFY_HDR) {
		/*
		 * List line index, single-action (inline) flag, then pattern
		 * mode's action count, pattern index and argument id; the
		 * pattern's actions are not kept by the library, so the count
		 * is 0 and the parser shows the indexes only.
		 */
		mlx5dm_dump_add(d, ",0x%x,%d,0x0,0x%x,0x%x",
				mod->mode == MLX5DM_STE_MODIFY_LIST ? mod->index : 0,
				mod->mode == MLX5DM_STE_MODIFY_INLINE ? 1 : 0,
				mod->mode == MLX5DM_STE_MODIFY_PATTERN ? mod->pattern_index : 0,
				mod->mode == MLX5DM_STE_MODIFY_PATTERN ? mod->index : 0);
	} else if (fmt->arg != MLX5DM_DUMP_ARG_NONE) {
		mlx5dm_dump_add(d, ",0x%" PRIx64, mlx5dm_dump_action_arg(a, rule, fmt->arg));
	}
	mlx5dm_dump_end(d);
}

/* One STE as rdma-core dumps it: the buffer a full write converts and posts. */
static void
mlx5dm_dump_entry(struct mlx5dm_dump *d, const struct mlx5dm_ste *s, const uint8_t *bit_mask,
		  uint64_t rule_id)
{
	uint8_t img[MLX5DM_STE_SIZE];

	mlx5dm_ste_image(s, bit_mask, img);
	mlx5dm_dump_rec(d, MLX5DM_DUMP_RULE_RX_ENTRY_V1 + d->side,
			mlx5dm_dump_icm_idx(mlx5dm_ste_icm(s)));
	mlx5dm_dump_add(d, ",0x%" PRIx64 ",", rule_id);
	mlx5dm_dump_hex(d, img, sizeof(img));
	mlx5dm_dump_end(d);
}

/* The entries of rule (of one side), as rule_id's, on side d->side. */
static void
mlx5dm_dump_rule_entries(struct mlx5dm_dump *d, const struct mlx5dm_rule *rule, uint64_t rule_id)
{
	const struct mlx5dm_matcher *m = rule->matcher;
	const struct mlx5dm_ste *path[MLX5DM_STE_MAX_BUILDERS];
	const struct mlx5dm_ste *s = mlx5dm_rule_last(rule);
	unsigned int lvl, i;

	/* Each table's pointing entry is the level above: walk up from the last. */
	for (lvl = m->nb_builders; lvl-- > 0;) {
		path[lvl] = s;
		s = s->htbl->pointing_ste;
	}
	for (lvl = 0; lvl < m->nb_builders; lvl++)
		mlx5dm_dump_entry(d, path[lvl], m->builders[lvl].bit_mask, rule_id);
	for (i = 0; i < rule->nb_act_stes; i++)
		mlx5dm_dump_entry(d, mlx5dm_rule_act_stes(rule)[i], NULL, rule_id);
}

static void
mlx5dm_dump_rule_actions(struct mlx5dm_dump *d, const struct mlx5dm_rule *rule, uint64_t rule_id)
{
	unsigned int i;

	for (i = 0; i < rule->nb_actions; i++)
		mlx5dm_dump_action(d, mlx5dm_rule_action_list(rule)[i], rule, rule_id);
}

static int
mlx5dm_dump_rule(struct mlx5dm_dump *d, const struct mlx5dm_rule *rule)
{
	const uint64_t rule_id = mlx5dm_dump_id(rule);

	mlx5dm_dump_rec(d, MLX5DM_DUMP_RULE, rule_id);
	mlx5dm_dump_add(d, ",0x%" PRIx64, mlx5dm_dump_id(rule->matcher));
	mlx5dm_dump_end(d);
	mlx5dm_dump_rule_entries(d, rule, rule_id);
	mlx5dm_dump_rule_actions(d, rule, rule_id);
	return d->err;
}

/*
 * An FDB rule: once, with the entries of each of its sides (each side's
 * matcher locked meanwhile) and the actions of one.
 */
static int
mlx5dm_dump_fdb_rule(struct mlx5dm_dump *d, const struct mlx5dm_rule *rule)
{
	const uint64_t rule_id = mlx5dm_dump_id(rule);
	const struct mlx5dm_rule *side, *any = NULL;
	unsigned int s;

	mlx5dm_dump_rec(d, MLX5DM_DUMP_RULE, rule_id);
	mlx5dm_dump_add(d, ",0x%" PRIx64, mlx5dm_dump_id(rule->matcher));
	mlx5dm_dump_end(d);
	for (s = 0; s < 2; s++) {
		side = mlx5dm_fdb_rule_side(rule, s);
		if (side == NULL)
			continue;
		d->side = s;
		mlx5dm_matcher_lock_all(side->matcher);
		mlx5dm_dump_rule_entries(d, side, rule_id);
		mlx5dm_matcher_unlock_all(side->matcher);
		any = side;
	}
	/* A side's action list stays as it is while the rule lives. */
	if (any != NULL)
		mlx5dm_dump_rule_actions(d, any, rule_id);
	return d->err;
}

/* Every rule below a chain of hash tables (all tables of the chain, all levels). */
static int
mlx5dm_dump_chain(struct mlx5dm_dump *d, const struct mlx5dm_htbl *head)
{
	const struct mlx5dm_htbl *t;
	const struct mlx5dm_ste *s;
	uint32_t i;

	for (t = head; t != NULL && d->err == 0; t = t->chain_next) {
		for (i = 0; i < t->num_entries && d->err == 0; i++) {
			for (s = mlx5dm_htbl_slot(t, i); s != NULL && d->err == 0;
			     s = s->next_col) {
				if (mlx5dm_ste_next_htbl(s) != NULL)
					mlx5dm_dump_chain(d, s->next_htbl);
				else if (s->rule != NULL)
					mlx5dm_dump_rule(d, s->rule);
			}
		}
	}
	return d->err;
}

/* ---- matchers ---- */

/*
 * The mask in rdma-core's struct dr_match_param layout, which the parser
 * decodes: per 32-bit word, the fields of the PRM dword in declaration
 * order from the least significant bit (C bit-fields on a little-endian
 * host), stored little-endian. A PRM field at bit o (from the dword's MSB)
 * of width w therefore lands at bits o..o+w-1 of the word.
 */
static void
mlx5dm_dump_mask_words(const uint8_t *mask, uint32_t words[][MLX5DM_FTE_SECTION_SIZE / 4])
{
	unsigned int i;

	for (i = 0; i < MLX5DM_FTE_NUM_FIELDS; i++) {
		const struct mlx5dm_fte_field_desc *fd = &mlx5dm_fte_fields[i];
		unsigned int off = fd->f.bit - fd->section * MLX5DM_FTE_SECTION_SIZE * 8u;
		uint64_t v = mlx5dm_prm_fget(mask, fd->f);

		if (v == 0 || off % 32 + fd->f.width > 32)
			continue;
		words[fd->section][off / 32] |= (uint32_t)v << (off % 32);
	}
}

static void
mlx5dm_dump_mask(struct mlx5dm_dump *d, const struct mlx5dm_matcher *m)
{
	/* rdma-core's order of the sections; each is empty unless enabled. */
	static const uint8_t order[MLX5DM_FTE_NUM_SECTIONS] = {
		MLX5DM_FTE_SEC_outer, MLX5DM_FTE_SEC_inner, MLX5DM_FTE_SEC_misc,
		MLX5DM_FTE_SEC_misc2, MLX5DM_FTE_SEC_misc3, MLX5DM_FTE_SEC_misc4,
		MLX5DM_FTE_SEC_misc5,
	};
	uint32_t words[MLX5DM_FTE_NUM_SECTIONS][MLX5DM_FTE_SECTION_SIZE / 4];
	uint8_t le[MLX5DM_FTE_SECTION_SIZE];
	unsigned int i, w;

	memset(words, 0, sizeof(words));
	mlx5dm_dump_mask_words(m->mask, words);
	mlx5dm_dump_rec(d, MLX5DM_DUMP_MATCHER_MASK, mlx5dm_dump_id(m));
	for (i = 0; i < MLX5DM_FTE_NUM_SECTIONS; i++) {
		bool last = i == MLX5DM_FTE_NUM_SECTIONS - 1;

		mlx5dm_dump_add(d, ",");
		if (!(m->criteria & (1u << order[i]))) {
			/* rdma-core ends an absent last section with one more comma. */
			if (last)
				mlx5dm_dump_add(d, ",");
			continue;
		}
		for (w = 0; w < MLX5DM_FTE_SECTION_SIZE / 4; w++) {
			le[4 * w] = (uint8_t)words[order[i]][w];
			le[4 * w + 1] = (uint8_t)(words[order[i]][w] >> 8);
			le[4 * w + 2] = (uint8_t)(words[order[i]][w] >> 16);
			le[4 * w + 3] = (uint8_t)(words[order[i]][w] >> 24);
		}
		mlx5dm_dump_hex(d, le, sizeof(le));
	}
	mlx5dm_dump_end(d);
}

/* Side m (its locks held) of matcher id: its first table, end anchor and builders. */
static void
mlx5dm_dump_matcher_side(struct mlx5dm_dump *d, const struct mlx5dm_matcher *m, uint64_t id)
{
	unsigned int i;

	mlx5dm_dump_rec(d, MLX5DM_DUMP_MATCHER_RX + d->side, mlx5dm_dump_id(m->builders));
	mlx5dm_dump_add(d, ",0x%" PRIx64 ",%u,0x%" PRIx64 ",0x%" PRIx64 ",-1", id,
			m->nb_builders, mlx5dm_dump_icm_idx(mlx5dm_htbl_icm(m->first)),
			mlx5dm_dump_icm_idx(mlx5dm_matcher_end_icm(m)));
	mlx5dm_dump_end(d);
	/* Our lookups are all legacy (BWC) ones: no definer, -1. */
	for (i = 0; i < m->nb_builders; i++) {
		mlx5dm_dump_rec(d, MLX5DM_DUMP_MATCHER_BUILDER, id);
		mlx5dm_dump_add(d, ",%u,%d,0x%x,-1", i, d->side == 0 ? 1 : 0,
				m->builders[i].lu_type);
		mlx5dm_dump_end(d);
	}
}

static int
mlx5dm_dump_matcher(struct mlx5dm_dump *d, struct mlx5dm_matcher *m)
{
	const uint64_t id = mlx5dm_dump_id(m);
	const struct mlx5dm_rule *r;
	unsigned int s;

	mlx5dm_dump_rec(d, MLX5DM_DUMP_MATCHER, id);
	mlx5dm_dump_add(d, ",0x%" PRIx64 ",%u", mlx5dm_dump_id(m->tbl), m->priority);
	mlx5dm_dump_end(d);
	mlx5dm_dump_mask(d, m);
	if (m->half[MLX5DM_STE_DIR_RX] != NULL) {
		/* FDB: both sides, then each rule once (the list held: rules stay whole). */
		for (s = 0; s < 2; s++) {
			d->side = s;
			mlx5dm_matcher_lock_all(m->half[s]);
			mlx5dm_dump_matcher_side(d, m->half[s], id);
			mlx5dm_matcher_unlock_all(m->half[s]);
		}
		mlx5dm_spinlock_lock(&m->fdb_lock);
		for (r = m->fdb_rules; r != NULL && d->err == 0; r = mlx5dm_fdb_rule_next(r))
			mlx5dm_dump_fdb_rule(d, r);
		mlx5dm_spinlock_unlock(&m->fdb_lock);
		return d->err;
	}
	mlx5dm_matcher_lock_all(m);
	/* The matcher's side of the domain; its first table and its end anchor. */
	mlx5dm_dump_matcher_side(d, m, id);
	mlx5dm_dump_chain(d, m->first);
	mlx5dm_matcher_unlock_all(m);
	return d->err;
}

/* ---- tables ---- */

static int
mlx5dm_dump_table(struct mlx5dm_dump *d, struct mlx5dm_table *tbl)
{
	const uint64_t id = mlx5dm_dump_id(tbl);
	struct mlx5dm_matcher *m;
	unsigned int s;

	/* Table type: rdma-core's FS_FT_NIC_RX/TX (0, 1, as our domain types), FS_FT_FDB (4). */
	mlx5dm_dump_rec(d, MLX5DM_DUMP_TABLE, id);
	mlx5dm_dump_add(d, ",0x%" PRIx64 ",%d,%u,0x%x", d->dom_id,
			tbl->half[0] != NULL ? 4 : (int)d->dom->type, tbl->level, tbl->ft_id);
	mlx5dm_dump_end(d);
	for (s = 0; s < 2; s++) {
		const struct mlx5dm_table *t = tbl->half[0] != NULL ? tbl->half[s] : tbl;

		if (tbl->half[0] != NULL)
			d->side = s;
		mlx5dm_dump_rec(d, MLX5DM_DUMP_TABLE_RX + d->side, id);
		mlx5dm_dump_add(d, ",0x%" PRIx64, mlx5dm_dump_icm_idx(mlx5dm_ste_icm(t->s_anchor)));
		mlx5dm_dump_end(d);
		if (tbl->half[0] == NULL)
			break;
	}
	TAILQ_FOREACH(m, &tbl->matchers, next) {
		if (mlx5dm_dump_matcher(d, m) < 0)
			break;
	}
	return d->err;
}

/* A dump context for a domain (NULL with errno on no memory). */
static struct mlx5dm_dump *
mlx5dm_dump_new(struct mlx5dm_domain *dom, FILE *f)
{
	/* Too large for the stack of a polling thread. */
	struct mlx5dm_dump *d = mlx5dm_zmalloc_socket(sizeof(*d), dom->ctx->dev->socket);

	if (d == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	d->f = f;
	d->dom = dom;
	d->ctx = dom->ctx;
	d->dom_id = mlx5dm_dump_id(dom);
	d->side = dom->dir == MLX5DM_STE_DIR_TX ? 1 : 0;
	return d;
}

/* Flush, log an overlong record, free: the dump's result. */
static int
mlx5dm_dump_finish(struct mlx5dm_dump *d)
{
	int ret;

	if (d->err == 0 && fflush(d->f) != 0)
		d->err = -EIO;
	ret = d->err;
	if (ret == -EOVERFLOW)
		MLX5DM_LOG(ERR, MLX5DM_STEER_LOG, "dump record longer than %d bytes",
			   MLX5DM_DUMP_LINE_MAX);
	mlx5dm_free(d);
	return ret;
}

int
mlx5dm_rule_dump(struct mlx5dm_rule *rule, FILE *f)
{
	struct mlx5dm_matcher *m;
	struct mlx5dm_dump *d;

	if (rule == NULL || f == NULL)
		return -EINVAL;
	m = rule->matcher;
	d = mlx5dm_dump_new(m->tbl->dom, f);
	if (d == NULL)
		return -ENOMEM;
	if (m->half[MLX5DM_STE_DIR_RX] != NULL) {
		mlx5dm_dump_fdb_rule(d, rule);
		return mlx5dm_dump_finish(d);
	}
	mlx5dm_matcher_lock_all(m);
	mlx5dm_dump_rule(d, rule);
	mlx5dm_matcher_unlock_all(m);
	return mlx5dm_dump_finish(d);
}

int
mlx5dm_domain_dump(struct mlx5dm_domain *dom, FILE *f)
{
	struct mlx5dm_table *tbl, **order;
	size_t i, total = 0;
	struct mlx5dm_dump *d;

	if (dom == NULL || f == NULL)
		return -EINVAL;
	d = mlx5dm_dump_new(dom, f);
	if (d == NULL)
		return -ENOMEM;
	mlx5dm_dump_domain(d);
	mlx5dm_spinlock_lock(&d->ctx->lock);
	/* Creation order, as rdma-core lists tables: the list holds the newest first. */
	LIST_FOREACH(tbl, &dom->tables, next)
		total++;
	order = total > 1 ? mlx5dm_calloc_socket(total, sizeof(*order), d->ctx->dev->socket) : NULL;
	i = total;
	LIST_FOREACH(tbl, &dom->tables, next) {
		if (order == NULL) {
			/* One table, or no memory for the order: list order. */
			mlx5dm_dump_table(d, tbl);
			continue;
		}
		order[--i] = tbl;
	}
	for (i = 0; order != NULL && i < total && d->err == 0; i++)
		mlx5dm_dump_table(d, order[i]);
	mlx5dm_free(order);
	mlx5dm_spinlock_unlock(&d->ctx->lock);
	return mlx5dm_dump_finish(d);
}
