/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The reference classifier behind the runner interface: a case runs on it
 * exactly as on ports, which checks the case (and the oracle) without a
 * device, and is the "expected" side of the random mode.
 *
 * An RSS fate names a set of queues; to deliver on one, this runner hashes
 * the outermost IP addresses (and TCP/UDP ports) with Toeplitz and picks
 * queues[hash % n]. A device spreads differently: comparisons with a device
 * use the set, not the queue.
 *
 * The template API: a table's rule is the synchronous rule it stands for
 * (test_dm_flow_tmpl_rule()), added at once; its result waits on its flow
 * queue until a push (or at once without postpone) and is pulled in order.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_thash.h>

#include "test_dm_ref.h"
#include "test_dm_runner.h"
#include "test_dm_vec.h"

/* A pattern or actions template (its command) or a template table. */
struct test_dm_ref_runner_tmpl {
	const struct test_dm_flow_cmd *cmd;
	struct test_dm_ref_runner_tmpl *pt[TEST_DM_TABLE_TEMPLATES];
	struct test_dm_ref_runner_tmpl *at[TEST_DM_TABLE_TEMPLATES];
};

/* The rule arrays of a table's rule (the reference keeps pointers to them). */
struct test_dm_ref_runner_rule {
	struct rte_flow_item items[TEST_DM_FLOW_MAX_ITEMS];
	struct rte_flow_action actions[TEST_DM_FLOW_MAX_ACTIONS];
};

struct test_dm_ref_runner_result {
	uint16_t port;
	uint32_t queue;
	int pushed;
	void *user_data;
};

struct test_dm_ref_runner {
	struct test_dm_ref *ref;
	struct test_dm_ref_cfg cfg;
	struct test_dm_fate fate;
	/* The template API, for the current case. */
	uint16_t nb_fq[TEST_DM_REF_MAX_PORTS];		/**< Flow queues configured. */
	uint32_t fq_size[TEST_DM_REF_MAX_PORTS];
	void **owned;				/**< Templates and rule arrays. */
	unsigned int nb_owned;
	unsigned int cap_owned;
	struct test_dm_ref_runner_result *res;
	unsigned int nb_res;
	unsigned int cap_res;
};

/* The common 40-byte Toeplitz key (Microsoft's RSS verification suite). */
static const uint8_t test_dm_rss_key[40] = {
	0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2, 0x41, 0x67, 0x25, 0x3d, 0x43, 0xa3,
	0x8f, 0xb0, 0xd0, 0xca, 0x2b, 0xcb, 0xae, 0x7b, 0x30, 0xb4, 0x77, 0xcb, 0x2d, 0xa3,
	0x80, 0x30, 0xf2, 0x0c, 0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01, 0xfa,
};

static uint32_t
test_dm_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint16_t
test_dm_rss_pick(const struct test_dm_fate *f)
{
	struct test_dm_pkt_info info;
	uint32_t tuple[9];
	unsigned int n = 0, i;
	int ip, l4;

	test_dm_pkt_decode(f->data, f->len, &info);
	ip = test_dm_pkt_find(&info, TEST_DM_L_IPV4, 0);
	if (ip >= 0) {
		tuple[n++] = test_dm_be32(f->data + info.h[ip].off + 12);
		tuple[n++] = test_dm_be32(f->data + info.h[ip].off + 16);
	} else if ((ip = test_dm_pkt_find(&info, TEST_DM_L_IPV6, 0)) >= 0) {
		for (i = 0; i < 8; i++)
			tuple[n++] = test_dm_be32(f->data + info.h[ip].off + 8 + 4 * i);
	}
	l4 = ip >= 0 && ip + 1 < (int)info.n ? ip + 1 : -1;
	if (l4 >= 0 && n < RTE_DIM(tuple) &&
	    (info.h[l4].type == TEST_DM_L_TCP || info.h[l4].type == TEST_DM_L_UDP))
		tuple[n++] = test_dm_be32(f->data + info.h[l4].off);
	if (n == 0 || f->nb_queues == 0)
		return f->nb_queues != 0 ? f->queues[0] : 0;
	return f->queues[rte_softrss(tuple, n, test_dm_rss_key) % f->nb_queues];
}

static void
test_dm_ref_runner_tmpl_reset(struct test_dm_ref_runner *rr)
{
	unsigned int i;

	for (i = 0; i < rr->nb_owned; i++)
		free(rr->owned[i]);
	rr->nb_owned = 0;
	rr->nb_res = 0;
	memset(rr->nb_fq, 0, sizeof(rr->nb_fq));
}

static int
test_dm_ref_runner_begin(void *ctx, const struct test_dm_case *c, char *msg, size_t size)
{
	struct test_dm_ref_runner *rr = ctx;

	test_dm_ref_free(rr->ref);
	test_dm_ref_runner_tmpl_reset(rr);
	rr->cfg.nb_rxq = c->nb_queues;
	rr->ref = test_dm_ref_new(&rr->cfg);
	if (rr->ref == NULL) {
		snprintf(msg, size, "bad reference configuration");
		return -EINVAL;
	}
	return 0;
}

static void
test_dm_ref_runner_end(void *ctx)
{
	RTE_SET_USED(ctx);
}

static int
test_dm_ref_runner_create(void *ctx, const struct test_dm_flow_cmd *cmd, void **handle,
			  struct rte_flow_error *error)
{
	struct test_dm_ref_runner *rr = ctx;

	*handle = test_dm_ref_rule_add(rr->ref, cmd->port, &cmd->attr, cmd->pattern,
				       cmd->actions, error);
	return *handle != NULL ? 0 : -EINVAL;
}

static int
test_dm_ref_runner_validate(void *ctx, const struct test_dm_flow_cmd *cmd,
			    struct rte_flow_error *error)
{
	struct test_dm_ref_runner *rr = ctx;

	return test_dm_ref_validate(rr->ref, cmd->port, &cmd->attr, cmd->pattern, cmd->actions,
				    error);
}

static int
test_dm_ref_runner_destroy(void *ctx, uint16_t port, void *handle, struct rte_flow_error *error)
{
	struct test_dm_ref_runner *rr = ctx;

	RTE_SET_USED(port);
	if (test_dm_ref_rule_del(rr->ref, handle) < 0) {
		error->type = RTE_FLOW_ERROR_TYPE_HANDLE;
		error->message = "no such rule";
		return -ENOENT;
	}
	return 0;
}

static int
test_dm_ref_runner_flush(void *ctx, uint16_t port, struct rte_flow_error *error)
{
	struct test_dm_ref_runner *rr = ctx;

	RTE_SET_USED(error);
	test_dm_ref_flush(rr->ref, port);
	return 0;
}

static int
test_dm_ref_runner_query(void *ctx, uint16_t port, void *handle, struct rte_flow_query_count *q,
			 struct rte_flow_error *error)
{
	struct test_dm_ref_runner *rr = ctx;

	RTE_SET_USED(port);
	return test_dm_ref_query(rr->ref, handle, q, error);
}

static int
test_dm_ref_runner_err(struct rte_flow_error *error, int err, const char *msg)
{
	error->type = RTE_FLOW_ERROR_TYPE_UNSPECIFIED;
	error->message = msg;
	return -err;
}

static void *
test_dm_ref_runner_own(struct test_dm_ref_runner *rr, size_t size)
{
	void *p;

	if (test_dm_vec_grow((void **)&rr->owned, &rr->cap_owned, rr->nb_owned,
			     sizeof(*rr->owned)) < 0)
		return NULL;
	p = calloc(1, size);
	if (p != NULL)
		rr->owned[rr->nb_owned++] = p;
	return p;
}

static int
test_dm_ref_runner_flow_configure(void *ctx, const struct test_dm_flow_cmd *cmd,
				  struct rte_flow_error *error)
{
	struct test_dm_ref_runner *rr = ctx;

	if (cmd->port >= rr->cfg.nb_ports)
		return test_dm_ref_runner_err(error, ENODEV, "no such port");
	if (test_dm_ref_count(rr->ref, cmd->port) != 0)
		return test_dm_ref_runner_err(error, EBUSY, "rte_flow_configure: flow rules exist");
	rr->nb_fq[cmd->port] = cmd->nb_queues;
	rr->fq_size[cmd->port] = cmd->queue_size;
	return 0;
}

/* Templates and tables are kept as they were declared; their rules are checked when made. */
static int
test_dm_ref_runner_template_create(void *ctx, const struct test_dm_flow_cmd *cmd, void *const *refs,
				   void **handle, struct rte_flow_error *error)
{
	struct test_dm_ref_runner *rr = ctx;
	struct test_dm_ref_runner_tmpl *t;
	unsigned int i;

	if (cmd->port >= rr->cfg.nb_ports || rr->nb_fq[cmd->port] == 0)
		return test_dm_ref_runner_err(error, EINVAL, "the flow engine is not configured: "
					      "call rte_flow_configure() first");
	t = test_dm_ref_runner_own(rr, sizeof(*t));
	if (t == NULL)
		return test_dm_ref_runner_err(error, ENOMEM, "out of memory");
	t->cmd = cmd;
	for (i = 0; cmd->type == TEST_DM_FLOW_TABLE && i < cmd->nb_pattern_templates; i++)
		t->pt[i] = refs[i];
	for (i = 0; cmd->type == TEST_DM_FLOW_TABLE && i < cmd->nb_actions_templates; i++)
		t->at[i] = refs[cmd->nb_pattern_templates + i];
	*handle = t;
	return 0;
}

static int
test_dm_ref_runner_template_destroy(void *ctx, enum test_dm_flow_cmd_type type, uint16_t port,
				    void *handle, struct rte_flow_error *error)
{
	RTE_SET_USED(ctx);
	RTE_SET_USED(type);
	RTE_SET_USED(port);
	RTE_SET_USED(handle);
	RTE_SET_USED(error);
	return 0;
}

/* Room for one more result on the queue, or a negative errno. */
static int
test_dm_ref_runner_queue_room(struct test_dm_ref_runner *rr, uint16_t port, uint32_t queue,
			      struct rte_flow_error *error)
{
	unsigned int i, n = 0;

	if (port >= rr->cfg.nb_ports || queue >= rr->nb_fq[port])
		return test_dm_ref_runner_err(error, EINVAL, "no such flow queue: see "
					      "rte_flow_configure()");
	for (i = 0; i < rr->nb_res; i++)
		n += rr->res[i].port == port && rr->res[i].queue == queue;
	if (n >= rr->fq_size[port])
		return test_dm_ref_runner_err(error, EAGAIN,
					      "the flow queue is full: pull its results " "first");
	return test_dm_vec_grow((void **)&rr->res, &rr->cap_res, rr->nb_res, sizeof(*rr->res)) < 0 ?
	       test_dm_ref_runner_err(error, ENOMEM, "out of memory") : 0;
}

static void
test_dm_ref_runner_result(struct test_dm_ref_runner *rr, uint16_t port, uint32_t queue,
			  int postpone, void *user_data)
{
	rr->res[rr->nb_res++] = (struct test_dm_ref_runner_result){ port, queue, !postpone,
								     user_data };
}

static int
test_dm_ref_runner_async_create(void *ctx, const struct test_dm_flow_cmd *cmd, void *table,
				void *user_data, void **handle, struct rte_flow_error *error)
{
	struct test_dm_ref_runner *rr = ctx;
	struct test_dm_ref_runner_tmpl *t = table;
	const struct test_dm_flow_cmd *tc = t->cmd;
	struct test_dm_ref_runner_rule *r;
	int ret;

	ret = test_dm_ref_runner_queue_room(rr, cmd->port, cmd->queue, error);
	if (ret < 0)
		return ret;
	if (cmd->pattern_index >= tc->nb_pattern_templates ||
	    cmd->actions_index >= tc->nb_actions_templates)
		return test_dm_ref_runner_err(error, EINVAL, "no such template in the table");
	r = test_dm_ref_runner_own(rr, sizeof(*r));
	if (r == NULL)
		return test_dm_ref_runner_err(error, ENOMEM, "out of memory");
	ret = test_dm_flow_tmpl_rule(t->pt[cmd->pattern_index]->cmd,
				     t->at[cmd->actions_index]->cmd, cmd, r->items, r->actions,
				     error);
	if (ret < 0)
		return ret;
	*handle = test_dm_ref_rule_add(rr->ref, cmd->port, &tc->attr, r->items, r->actions,
				       error);
	if (*handle == NULL)
		return -EINVAL;
	test_dm_ref_runner_result(rr, cmd->port, cmd->queue, cmd->postpone, user_data);
	return 0;
}

static int
test_dm_ref_runner_async_destroy(void *ctx, uint16_t port, uint32_t queue, int postpone,
				 void *handle, void *user_data, struct rte_flow_error *error)
{
	struct test_dm_ref_runner *rr = ctx;
	int ret;

	ret = test_dm_ref_runner_queue_room(rr, port, queue, error);
	if (ret < 0)
		return ret;
	if (test_dm_ref_rule_del(rr->ref, handle) < 0)
		return test_dm_ref_runner_err(error, ENOENT, "no such rule");
	test_dm_ref_runner_result(rr, port, queue, postpone, user_data);
	return 0;
}

static int
test_dm_ref_runner_push(void *ctx, uint16_t port, uint32_t queue, struct rte_flow_error *error)
{
	struct test_dm_ref_runner *rr = ctx;
	unsigned int i;

	if (port >= rr->cfg.nb_ports || queue >= rr->nb_fq[port])
		return test_dm_ref_runner_err(error, EINVAL, "no such flow queue");
	for (i = 0; i < rr->nb_res; i++)
		if (rr->res[i].port == port && rr->res[i].queue == queue)
			rr->res[i].pushed = 1;
	return 0;
}

static int
test_dm_ref_runner_pull(void *ctx, uint16_t port, uint32_t queue, struct rte_flow_op_result *res,
			uint16_t n, struct rte_flow_error *error)
{
	struct test_dm_ref_runner *rr = ctx;
	unsigned int i, k = 0, got = 0;

	if (port >= rr->cfg.nb_ports || queue >= rr->nb_fq[port])
		return test_dm_ref_runner_err(error, EINVAL, "no such flow queue");
	for (i = 0; i < rr->nb_res; i++) {
		const struct test_dm_ref_runner_result *r = &rr->res[i];

		if (got < n && r->port == port && r->queue == queue && r->pushed) {
			res[got++] = (struct rte_flow_op_result){
				.status = RTE_FLOW_OP_SUCCESS, .user_data = r->user_data };
			continue;
		}
		rr->res[k++] = *r;
	}
	rr->nb_res = k;
	return (int)got;
}

static int
test_dm_ref_runner_send(void *ctx, uint16_t port, const struct test_dm_pktlist *pkts,
			struct test_dm_rx *rx)
{
	struct test_dm_ref_runner *rr = ctx;
	struct test_dm_fate *f = &rr->fate;
	unsigned int k;
	int ret;

	for (k = 0; k < pkts->n; k++) {
		ret = test_dm_ref_send(rr->ref, port, pkts->v[k].data, pkts->v[k].len, f);
		if (ret < 0)
			return ret;
		memset(&rx[k], 0, sizeof(rx[k]));
		rx[k].ambiguous = f->ambiguous;
		if (f->kind == TEST_DM_FATE_DROP)
			continue;
		rx[k].received = 1;
		rx[k].port = f->port;
		rx[k].queue = f->kind == TEST_DM_FATE_QUEUE ? f->queue : test_dm_rss_pick(f);
		rx[k].fdir = f->fdir;
		rx[k].fdir_id = f->fdir_id;
		rx[k].mark = f->fdir_id ? f->mark : 0;
		rx[k].data = malloc(f->len != 0 ? f->len : 1);
		if (rx[k].data == NULL)
			return -ENOMEM;
		memcpy(rx[k].data, f->data, f->len);
		rx[k].len = f->len;
	}
	return 0;
}

static int
test_dm_ref_runner_dump(void *ctx, uint16_t port, FILE *f, char *why, size_t size)
{
	struct test_dm_ref_runner *rr = ctx;

	RTE_SET_USED(why);
	RTE_SET_USED(size);
	test_dm_ref_dump(rr->ref, port, f);
	return 0;
}

static uint16_t
test_dm_ref_runner_peer(void *ctx, uint16_t port)
{
	struct test_dm_ref_runner *rr = ctx;

	return port < TEST_DM_REF_MAX_PORTS ? rr->cfg.peer[port] : port;
}

const struct test_dm_runner_ops test_dm_ref_runner_ops = {
	.name = "reference",
	.case_begin = test_dm_ref_runner_begin,
	.case_end = test_dm_ref_runner_end,
	.flow_create = test_dm_ref_runner_create,
	.flow_validate = test_dm_ref_runner_validate,
	.flow_destroy = test_dm_ref_runner_destroy,
	.flow_flush = test_dm_ref_runner_flush,
	.flow_query_count = test_dm_ref_runner_query,
	.flow_configure = test_dm_ref_runner_flow_configure,
	.template_create = test_dm_ref_runner_template_create,
	.template_destroy = test_dm_ref_runner_template_destroy,
	.async_create = test_dm_ref_runner_async_create,
	.async_destroy = test_dm_ref_runner_async_destroy,
	.push = test_dm_ref_runner_push,
	.pull = test_dm_ref_runner_pull,
	.send = test_dm_ref_runner_send,
	.peer = test_dm_ref_runner_peer,
	.send_tagged = NULL,
	.dump = test_dm_ref_runner_dump,
};

struct test_dm_ref_runner *
test_dm_ref_runner_new(uint16_t nb_ports, const uint16_t *peer)
{
	struct test_dm_ref_runner *rr;
	uint16_t p;

	if (nb_ports == 0 || nb_ports > TEST_DM_REF_MAX_PORTS)
		return NULL;
	rr = calloc(1, sizeof(*rr));
	if (rr == NULL)
		return NULL;
	test_dm_ref_cfg_init(&rr->cfg, nb_ports, 1);
	/* Cases are written for net_mlx5dm: refuse what it refuses. */
	rr->cfg.limits = TEST_DM_REF_LIMITS_MLX5DM;
	for (p = 0; peer != NULL && p < nb_ports; p++)
		rr->cfg.peer[p] = peer[p];
	return rr;
}

void
test_dm_ref_runner_set_role(struct test_dm_ref_runner *rr, uint16_t port, int role, uint8_t vf)
{
	if (port >= TEST_DM_REF_MAX_PORTS)
		return;
	rr->cfg.role[port] = (uint8_t)role;
	rr->cfg.vf[port] = vf;
}

void
test_dm_ref_runner_set_limits(struct test_dm_ref_runner *rr, int limits)
{
	rr->cfg.limits = (uint8_t)limits;
}

void
test_dm_ref_runner_free(struct test_dm_ref_runner *rr)
{
	if (rr == NULL)
		return;
	test_dm_ref_free(rr->ref);
	test_dm_ref_runner_tmpl_reset(rr);
	free(rr->owned);
	free(rr->res);
	free(rr);
}

struct test_dm_ref *
test_dm_ref_runner_ref(struct test_dm_ref_runner *rr)
{
	return rr->ref;
}
