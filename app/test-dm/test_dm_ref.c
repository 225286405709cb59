/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Reference classifier: rule table, validation entry point and the walk of
 * a packet through egress and ingress groups (semantics in test_dm_ref.h).
 */

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "test_dm_ref_priv.h"
#include "test_dm_vec.h"

int
test_dm_ref_err(struct rte_flow_error *e, int code, enum rte_flow_error_type type,
		const void *cause, const char *msg)
{
	if (e != NULL) {
		e->type = type;
		e->cause = cause;
		e->message = msg;
	}
	return -code;
}

void
test_dm_ref_cfg_init(struct test_dm_ref_cfg *cfg, uint16_t nb_ports, uint16_t nb_rxq)
{
	uint16_t p;

	memset(cfg, 0, sizeof(*cfg));
	cfg->nb_ports = nb_ports;
	cfg->nb_rxq = nb_rxq;
	cfg->fix_cksum = 1;
	for (p = 0; p < TEST_DM_REF_MAX_PORTS; p++)
		cfg->peer[p] = p;
}

struct test_dm_ref *
test_dm_ref_new(const struct test_dm_ref_cfg *cfg)
{
	struct test_dm_ref *r;

	if (cfg->nb_ports == 0 || cfg->nb_ports > TEST_DM_REF_MAX_PORTS || cfg->nb_rxq == 0 ||
	    cfg->nb_rxq > TEST_DM_REF_MAX_QUEUES) {
		errno = EINVAL;
		return NULL;
	}
	r = calloc(1, sizeof(*r));
	if (r == NULL)
		return NULL;
	r->cfg = *cfg;
	return r;
}

void
test_dm_ref_free(struct test_dm_ref *r)
{
	unsigned int i;

	if (r == NULL)
		return;
	for (i = 0; i < r->n; i++)
		free(r->rules[i]);
	free(r->rules);
	free(r);
}

int
test_dm_ref_switch_port(const struct test_dm_ref *r, uint32_t port, struct rte_flow_error *e,
			enum rte_flow_error_type type, const void *cause)
{
	if (port < r->cfg.nb_ports && (r->cfg.role[port] == TEST_DM_REF_PF ||
				       r->cfg.role[port] == TEST_DM_REF_REP))
		return 0;
	return test_dm_ref_err(e, EINVAL, type, cause, "the port is not the PF or a "
			       "representor of this E-Switch");
}

/* The traffic-source items: transfer rules only, naming the PF or a representor. */
static int
test_dm_ref_port_item_check(const struct test_dm_ref *r, const struct rte_flow_attr *attr,
			    const struct rte_flow_item *item, struct rte_flow_error *error)
{
	uint32_t port;

	if (item->type != RTE_FLOW_ITEM_TYPE_REPRESENTED_PORT &&
	    item->type != RTE_FLOW_ITEM_TYPE_PORT_REPRESENTOR &&
	    item->type != RTE_FLOW_ITEM_TYPE_PORT_ID)
		return 0;
	if (!attr->transfer)
		return test_dm_ref_err(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM, item,
				       "traffic source items are for transfer rules");
	if (item->spec == NULL)
		return 0;
	port = item->type == RTE_FLOW_ITEM_TYPE_PORT_ID ?
	       ((const struct rte_flow_item_port_id *)item->spec)->id :
	       ((const struct rte_flow_item_ethdev *)item->spec)->port_id;
	return test_dm_ref_switch_port(r, port, error, RTE_FLOW_ERROR_TYPE_ITEM_SPEC, item);
}

int
test_dm_ref_validate(const struct test_dm_ref *r, uint16_t port,
		     const struct rte_flow_attr *attr, const struct rte_flow_item *pattern,
		     const struct rte_flow_action *actions, struct rte_flow_error *error)
{
	const struct rte_flow_item *item;
	int prev_gre = 0, ret;

	if (port >= r->cfg.nb_ports)
		return test_dm_ref_err(error, ENODEV, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
				       "no such port");
	if (attr == NULL)
		return test_dm_ref_err(error, EINVAL, RTE_FLOW_ERROR_TYPE_ATTR, NULL,
				       "no attributes");
	/* Device limits first, stage by stage, so a rule gets the device's error type. */
	ret = test_dm_ref_limits_attr(r, attr, error);
	if (ret < 0)
		return ret;
	if (attr->transfer && r->cfg.role[port] != TEST_DM_REF_PF &&
	    r->cfg.role[port] != TEST_DM_REF_REP)
		return test_dm_ref_err(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ATTR_TRANSFER, attr,
				       "transfer rules need the PF or a representor of an "
				       "E-Switch");
	if (attr->transfer && attr->egress)
		return test_dm_ref_err(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ATTR_EGRESS, attr,
				       "a transfer rule is not an egress rule");
	if (!attr->transfer && attr->ingress == attr->egress)
		return test_dm_ref_err(error, EINVAL, attr->ingress ?
				       RTE_FLOW_ERROR_TYPE_ATTR_EGRESS :
				       RTE_FLOW_ERROR_TYPE_ATTR, attr,
				       "exactly one of ingress and egress is needed");
	ret = test_dm_ref_limits_items(r, attr, pattern, error);
	if (ret < 0)
		return ret;
	for (item = pattern; item->type != RTE_FLOW_ITEM_TYPE_END; item++) {
		ret = test_dm_ref_item_check(item, error);
		if (ret < 0)
			return ret;
		if (item->type == RTE_FLOW_ITEM_TYPE_GRE_KEY && !prev_gre)
			return test_dm_ref_err(error, EINVAL, RTE_FLOW_ERROR_TYPE_ITEM, item,
					       "gre_key must follow gre");
		if (item->type != RTE_FLOW_ITEM_TYPE_VOID)
			prev_gre = item->type == RTE_FLOW_ITEM_TYPE_GRE;
		ret = test_dm_ref_port_item_check(r, attr, item, error);
		if (ret < 0)
			return ret;
	}
	ret = test_dm_ref_limits_actions(r, attr, pattern, actions, error);
	if (ret < 0)
		return ret;
	return test_dm_ref_action_check(r, attr, pattern, actions, error);
}

struct test_dm_ref_rule *
test_dm_ref_rule_add(struct test_dm_ref *r, uint16_t port, const struct rte_flow_attr *attr,
		     const struct rte_flow_item *pattern, const struct rte_flow_action *actions,
		     struct rte_flow_error *error)
{
	const struct rte_flow_action *a;
	struct test_dm_ref_rule *rule;

	if (test_dm_ref_validate(r, port, attr, pattern, actions, error) < 0)
		return NULL;
	if (test_dm_vec_grow((void **)&r->rules, &r->cap, r->n, sizeof(*r->rules)) < 0)
		goto nomem;
	rule = calloc(1, sizeof(*rule));
	if (rule == NULL)
		goto nomem;
	rule->port = port;
	rule->seq = r->seq++;
	rule->attr = *attr;
	rule->pattern = pattern;
	rule->actions = actions;
	for (a = actions; a->type != RTE_FLOW_ACTION_TYPE_END; a++)
		rule->counted |= a->type == RTE_FLOW_ACTION_TYPE_COUNT;
	r->rules[r->n++] = rule;
	return rule;
nomem:
	test_dm_ref_err(error, ENOMEM, RTE_FLOW_ERROR_TYPE_HANDLE, NULL, "out of memory");
	return NULL;
}

int
test_dm_ref_rule_del(struct test_dm_ref *r, struct test_dm_ref_rule *rule)
{
	unsigned int i;

	for (i = 0; i < r->n; i++) {
		if (r->rules[i] == rule) {
			free(rule);
			memmove(&r->rules[i], &r->rules[i + 1], (r->n - i - 1) * sizeof(*r->rules));
			r->n--;
			return 0;
		}
	}
	return -ENOENT;
}

void
test_dm_ref_flush(struct test_dm_ref *r, uint16_t port)
{
	unsigned int i, k = 0;

	for (i = 0; i < r->n; i++) {
		if (r->rules[i]->port == port)
			free(r->rules[i]);
		else
			r->rules[k++] = r->rules[i];
	}
	r->n = k;
}

unsigned int
test_dm_ref_count(const struct test_dm_ref *r, uint16_t port)
{
	unsigned int i, n = 0;

	for (i = 0; i < r->n; i++)
		n += r->rules[i]->port == port;
	return n;
}

int
test_dm_ref_query(struct test_dm_ref *r, struct test_dm_ref_rule *rule,
		  struct rte_flow_query_count *q, struct rte_flow_error *error)
{
	RTE_SET_USED(r);
	if (!rule->counted)
		return test_dm_ref_err(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION, NULL,
				       "rule has no count action");
	q->hits_set = 1;
	q->bytes_set = 1;
	q->hits = rule->hits;
	q->bytes = rule->bytes;
	if (q->reset) {
		rule->hits = 0;
		rule->bytes = 0;
	}
	return 0;
}

/* Where rules are looked up: a port's egress or ingress rules, the E-Switch's FDB. */
enum {
	TEST_DM_DIR_EGRESS,
	TEST_DM_DIR_INGRESS,
	TEST_DM_DIR_FDB,
};

/*
 * The rule of @p group deciding for the packet: lowest priority value, then
 * earliest. Notes a tie (undefined in rte_flow) in fate->ambiguous.
 */
static struct test_dm_ref_rule *
test_dm_ref_lookup(struct test_dm_ref *r, uint16_t port, int dir, uint32_t group,
		   const struct test_dm_ref_pkt *pkt, struct test_dm_fate *fate)
{
	struct test_dm_ref_rule *best = NULL, *rule;
	unsigned int i;
	int tie = 0;

	for (i = 0; i < r->n; i++) {
		rule = r->rules[i];
		/* The switch has one FDB: its transfer rules, made on any of its ports. */
		if (dir == TEST_DM_DIR_FDB ? !rule->attr.transfer :
		    rule->attr.transfer || rule->port != port ||
		    rule->attr.ingress != (unsigned int)dir)
			continue;
		if (rule->attr.group != group)
			continue;
		if (best != NULL && rule->attr.priority > best->attr.priority)
			continue;
		if (!test_dm_ref_match(rule->pattern, pkt))
			continue;
		if (best != NULL && rule->attr.priority == best->attr.priority) {
			tie = 1;
			continue;
		}
		/* A better priority: earlier ties do not concern the winner. */
		best = rule;
		tie = 0;
	}
	fate->ambiguous |= tie;
	return best;
}

/*
 * Walk one direction. @return 1 when a fate was decided, 2 when a port
 * action forwards (pkt->fwd), 0 on a miss, <0 on error.
 */
static int
test_dm_ref_walk(struct test_dm_ref *r, uint16_t port, int dir,
		 struct test_dm_ref_pkt *pkt, struct test_dm_fate *fate)
{
	int ingress = dir == TEST_DM_DIR_INGRESS;
	struct test_dm_ref_verdict v;
	struct test_dm_ref_rule *rule;
	uint32_t group = 0;
	unsigned int jumps;
	int ret;

	for (jumps = 0; jumps <= TEST_DM_REF_MAX_JUMPS; jumps++) {
		rule = test_dm_ref_lookup(r, port, dir, group, pkt, fate);
		if (rule == NULL && ingress && group != 0 &&
		    r->cfg.limits == TEST_DM_REF_LIMITS_MLX5DM) {
			/* net_mlx5dm: a table's miss is its domain's default, drop on NIC RX. */
			fate->kind = TEST_DM_FATE_DROP;
			fate->group_miss = 1;
			return 1;
		}
		if (rule == NULL)
			return 0;
		if (fate->nb_chain < TEST_DM_REF_CHAIN)
			fate->chain[fate->nb_chain++] = rule;
		ret = test_dm_ref_apply(r, rule, pkt, fate, &v);
		if (ret < 0)
			return ret;
		if (v.forward)
			return 2;
		if (v.fate)
			return 1;
		if (!v.jump)
			return 0;
		group = v.group;
	}
	fate->loop = 1;
	fate->kind = TEST_DM_FATE_DROP;
	return 1;
}

static void
test_dm_ref_default_rss(const struct test_dm_ref *r, struct test_dm_fate *fate)
{
	uint16_t q;

	fate->kind = TEST_DM_FATE_RSS;
	fate->default_rss = 1;
	fate->nb_queues = r->cfg.nb_rxq;
	for (q = 0; q < r->cfg.nb_rxq; q++)
		fate->queues[q] = q;
}

static int
test_dm_ref_ingress(struct test_dm_ref *r, uint16_t port, struct test_dm_ref_pkt *pkt,
		    struct test_dm_fate *fate)
{
	int ret;

	/* Metadata does not cross the wire. */
	memset(pkt->tags, 0, sizeof(pkt->tags));
	pkt->meta = 0;
	pkt->mark = 0;
	pkt->marked = 0;
	pkt->fdir = 0;
	pkt->fdir_id = 0;
	fate->port = port;
	ret = test_dm_ref_walk(r, port, TEST_DM_DIR_INGRESS, pkt, fate);
	if (ret < 0)
		return ret;
	if (ret == 0)
		test_dm_ref_default_rss(r, fate);
	fate->fdir = pkt->fdir;
	fate->fdir_id = pkt->fdir_id;
	fate->mark = pkt->mark;
	fate->meta = pkt->meta;
	memcpy(fate->tags, pkt->tags, sizeof(fate->tags));
	fate->len = pkt->len;
	return 0;
}

/* The port of @p role (and VF @p vf), TEST_DM_REF_NO_PORT when none. */
static uint16_t
test_dm_ref_role_port(const struct test_dm_ref *r, enum test_dm_ref_role role, uint8_t vf)
{
	uint16_t p;

	for (p = 0; p < r->cfg.nb_ports; p++)
		if (r->cfg.role[p] == role && (role == TEST_DM_REF_PF || r->cfg.vf[p] == vf))
			return p;
	return TEST_DM_REF_NO_PORT;
}

static int test_dm_ref_fdb(struct test_dm_ref *r, struct test_dm_ref_pkt *pkt,
			   struct test_dm_fate *fate, unsigned int hops);

/*
 * A frame on the wire of @p port: at the other end a NIC port's ingress, or
 * the uplink of an E-Switch (the FDB, source: the uplink, which the PF
 * represents). @p hops bounds a frame going round a looped uplink.
 */
static int
test_dm_ref_to_wire(struct test_dm_ref *r, uint16_t port, struct test_dm_ref_pkt *pkt,
		    struct test_dm_fate *fate, unsigned int hops)
{
	uint16_t peer = r->cfg.peer[port];

	if (r->cfg.role[peer] != TEST_DM_REF_PF)
		return test_dm_ref_ingress(r, peer, pkt, fate);
	pkt->src_represented = peer;
	pkt->src_ethdev = TEST_DM_REF_NO_PORT;
	return test_dm_ref_fdb(r, pkt, fate, hops + 1);
}

/* Deliver what a port action (or the switch's default) names. */
static int
test_dm_ref_forward(struct test_dm_ref *r, enum rte_flow_action_type type, uint16_t port,
		    struct test_dm_ref_pkt *pkt, struct test_dm_fate *fate, unsigned int hops)
{
	/* Validation keeps port actions on the switch; a VF without its function drops. */
	if (port >= r->cfg.nb_ports) {
		fate->kind = TEST_DM_FATE_DROP;
		return 0;
	}
	if (type == RTE_FLOW_ACTION_TYPE_PORT_REPRESENTOR)
		return test_dm_ref_ingress(r, port, pkt, fate);
	/* REPRESENTED_PORT, PORT_ID: what the port represents. */
	if (r->cfg.role[port] == TEST_DM_REF_PF)
		return test_dm_ref_to_wire(r, port, pkt, fate, hops);
	return test_dm_ref_forward(r, RTE_FLOW_ACTION_TYPE_PORT_REPRESENTOR,
				   test_dm_ref_role_port(r, TEST_DM_REF_VF, r->cfg.vf[port]), pkt,
				   fate, hops);
}

/* A frame entering the E-Switch from the source pkt->src_*: the FDB's rules, then its fate. */
static int
test_dm_ref_fdb(struct test_dm_ref *r, struct test_dm_ref_pkt *pkt, struct test_dm_fate *fate,
		unsigned int hops)
{
	uint16_t pf = test_dm_ref_role_port(r, TEST_DM_REF_PF, 0);
	int ret;

	if (hops > TEST_DM_REF_MAX_JUMPS || pf == TEST_DM_REF_NO_PORT) {
		fate->loop = 1;
		fate->kind = TEST_DM_FATE_DROP;
		return 0;
	}
	/* What the functions set stays in the function: the FDB sees the frame only. */
	memset(pkt->tags, 0, sizeof(pkt->tags));
	pkt->meta = 0;
	pkt->mark = 0;
	pkt->marked = 0;
	ret = test_dm_ref_walk(r, pf, TEST_DM_DIR_FDB, pkt, fate);
	if (ret < 0)
		return ret;
	if (ret == 1) {
		fate->dropped_in_fdb = 1;
		fate->len = pkt->len;
		return 0;
	}
	if (ret == 2) {
		fate->switched = 1;
		return test_dm_ref_forward(r, pkt->fwd, pkt->fwd_port, pkt, fate, hops);
	}
	fate->fdb_miss = 1;
	if (pkt->src_represented != TEST_DM_REF_NO_PORT)
		return test_dm_ref_ingress(r, pkt->src_represented, pkt, fate);
	return test_dm_ref_forward(r, RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT, pkt->src_ethdev, pkt,
				   fate, hops);
}

static int
test_dm_ref_start(const struct test_dm_ref *r, struct test_dm_fate *fate,
		  struct test_dm_ref_pkt *pkt, const uint8_t *p, size_t len)
{
	if (len > TEST_DM_PKT_MAX)
		return -E2BIG;
	memset(fate, 0, offsetof(struct test_dm_fate, data));
	memset(pkt, 0, sizeof(*pkt));
	pkt->src_represented = TEST_DM_REF_NO_PORT;
	pkt->src_ethdev = TEST_DM_REF_NO_PORT;
	memcpy(fate->data, p, len);
	pkt->data = fate->data;
	pkt->len = (uint32_t)len;
	/*
	 * net_mlx5dm's device parses two VLAN tags in a row (doc/guides/device_model.rst)
	 * and nothing behind the IP header of a fragment (doc/guides/nics/mlx5dm.rst,
	 * Limitations): L4 items miss every fragment.
	 */
	pkt->max_vlans = r->cfg.limits == TEST_DM_REF_LIMITS_MLX5DM ? 2 : 0;
	pkt->frag_stops = r->cfg.limits == TEST_DM_REF_LIMITS_MLX5DM;
	test_dm_ref_redecode(pkt);
	return 0;
}

int
test_dm_ref_receive(struct test_dm_ref *r, uint16_t rx_port, const uint8_t *p, size_t len,
		    struct test_dm_fate *fate)
{
	struct test_dm_ref_pkt pkt;
	int ret;

	if (rx_port >= r->cfg.nb_ports)
		return -EINVAL;
	ret = test_dm_ref_start(r, fate, &pkt, p, len);
	return ret < 0 ? ret : test_dm_ref_ingress(r, rx_port, &pkt, fate);
}

int
test_dm_ref_send(struct test_dm_ref *r, uint16_t tx_port, const uint8_t *p, size_t len,
		 struct test_dm_fate *fate)
{
	struct test_dm_ref_pkt pkt;
	int ret;

	if (tx_port >= r->cfg.nb_ports || r->cfg.peer[tx_port] >= r->cfg.nb_ports)
		return -EINVAL;
	ret = test_dm_ref_start(r, fate, &pkt, p, len);
	if (ret < 0)
		return ret;
	ret = test_dm_ref_walk(r, tx_port, TEST_DM_DIR_EGRESS, &pkt, fate);
	if (ret < 0)
		return ret;
	if (ret > 0 && fate->kind == TEST_DM_FATE_DROP) {
		fate->dropped_on_egress = 1;
		fate->len = pkt.len;
		return 0;
	}
	switch (r->cfg.role[tx_port]) {
	case TEST_DM_REF_VF:
		pkt.src_represented = test_dm_ref_role_port(r, TEST_DM_REF_REP,
							    r->cfg.vf[tx_port]);
		return test_dm_ref_fdb(r, &pkt, fate, 0);
	case TEST_DM_REF_PF:
	case TEST_DM_REF_REP:
		pkt.src_ethdev = tx_port;
		return test_dm_ref_fdb(r, &pkt, fate, 0);
	default:
		return test_dm_ref_to_wire(r, tx_port, &pkt, fate, 0);
	}
}
