/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The rte_flow_ops of net_mlx5dm and its start/stop/close hooks, on an
 * ethdev port built by hand (no EAL) over the fake steering library:
 * the default RSS rule, isolated mode, creation only on a started port,
 * handle checks, COUNT query, flush, dump, and nothing left after stop.
 */

#include <stdlib.h>

#include <ethdev_driver.h>
#include <rte_flow_driver.h>

#include "test_flow_common.h"
#include "flow_fake_steer.h"
#include "mlx5dm.h"
#include "mlx5dm_flow_template.h"

#define ITEM(t, s, m) { .type = RTE_FLOW_ITEM_TYPE_##t, .spec = (s), .mask = (m) }
#define END_ITEM { .type = RTE_FLOW_ITEM_TYPE_END }
#define ACT(t, c) { .type = RTE_FLOW_ACTION_TYPE_##t, .conf = (c) }
#define END_ACT { .type = RTE_FLOW_ACTION_TYPE_END }

/* What the PMD's other files provide. */
int mlx5dm_logtype;

int
mlx5dm_rxq_rqn(struct rte_eth_dev *dev, uint16_t queue, uint32_t *rqn)
{
	if (queue >= dev->data->nb_rx_queues)
		return -EINVAL;
	*rqn = 100u + queue;
	return 0;
}

static int dummy_ctx;
static struct mlx5dm_priv priv;
static struct rte_eth_dev_data data;
static struct rte_eth_dev dev;
static const struct rte_flow_ops *ops;

static const struct rte_flow_item p_eth[] = { ITEM(ETH, NULL, NULL), END_ITEM };

static int
setup(void **state)
{
	(void)state;
	fake_reset();
	memset(&priv, 0, sizeof(priv));
	memset(&data, 0, sizeof(data));
	memset(&dev, 0, sizeof(dev));
	priv.steer = (struct mlx5dm_ctx *)&dummy_ctx;
	priv.dom_rx = fake_domain(0);
	priv.dom_tx = fake_domain(1);
	data.dev_private = &priv;
	data.nb_rx_queues = 4;
	data.dev_conf.rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
	data.dev_conf.rx_adv_conf.rss_conf.rss_hf = RTE_ETH_RSS_IP;
	dev.data = &data;
	assert_int_equal(mlx5dm_flow_ops_get(&dev, &ops), 0);
	return 0;
}

static int
teardown(void **state)
{
	struct fake_live l;

	(void)state;
	mlx5dm_flow_close(&dev);
	assert_null(priv.flow);
	fake_live_get(&l);
	assert_int_equal(l.tables + l.matchers + l.rules + l.actions + l.tirs + l.counters, 0);
	return 0;
}

static int
live_rules(void)
{
	struct fake_live l;

	fake_live_get(&l);
	return l.rules;
}

static void
test_ops_table(void **state)
{
	(void)state;
	assert_non_null(ops->validate);
	assert_non_null(ops->create);
	assert_non_null(ops->destroy);
	assert_non_null(ops->flush);
	assert_non_null(ops->query);
	assert_non_null(ops->isolate);
	assert_non_null(ops->dev_dump);
}

static void
test_create_needs_start(void **state)
{
	static const char *const msg = "the port is not started: create flows after starting it";
	struct rte_flow_error err = { .message = NULL };
	struct rte_flow *f;

	(void)state;
	/* Creation needs a started port; ENODEV, not a retry (EAGAIN)... */
	assert_null(ops->create(&dev, &t_attr_in, p_eth, t_act_drop, &err));
	assert_int_equal(rte_errno, ENODEV);
	assert_int_equal(err.type, RTE_FLOW_ERROR_TYPE_UNSPECIFIED);
	assert_string_equal(err.message, msg);
	assert_int_equal(live_rules(), 0);
	/* ...and validation gives create's answer: the same refusal, a bad rule's own first. */
	err.message = NULL;
	assert_int_equal(ops->validate(&dev, &t_attr_in, p_eth, t_act_drop, &err), -ENODEV);
	assert_int_equal(err.type, RTE_FLOW_ERROR_TYPE_UNSPECIFIED);
	assert_string_equal(err.message, msg);
	assert_int_equal(ops->validate(&dev, &t_attr_in, p_eth, t_act_end, &err), -EINVAL);
	assert_null(ops->create(&dev, &t_attr_in, p_eth, t_act_end, &err));
	assert_int_equal(rte_errno, EINVAL);
	/* Started: both accept; stopped again: both refuse. */
	assert_int_equal(mlx5dm_flow_start(&dev), 0);
	assert_int_equal(ops->validate(&dev, &t_attr_in, p_eth, t_act_drop, &err), 0);
	f = ops->create(&dev, &t_attr_in, p_eth, t_act_drop, &err);
	assert_non_null(f);
	assert_int_equal(ops->destroy(&dev, f, &err), 0);
	mlx5dm_flow_stop(&dev);
	assert_int_equal(ops->validate(&dev, &t_attr_in, p_eth, t_act_drop, &err), -ENODEV);
	assert_null(ops->create(&dev, &t_attr_in, p_eth, t_act_drop, &err));
	assert_int_equal(rte_errno, ENODEV);
}

static void
test_default_rule(void **state)
{
	const struct mlx5dm_rule *r;
	struct fake_live l;

	(void)state;
	assert_int_equal(mlx5dm_flow_start(&dev), 0);
	/* RSS over 4 queues (IP): IPv4, IPv6, rest; the last priority band of group 0. */
	assert_int_equal(live_rules(), 3);
	r = priv.flow->default_flow->rules[0].rule;
	assert_ptr_equal(r->m->tbl, fake_domain(0)->root);
	assert_int_equal(r->m->attr.priority, 16383 * 4 + 1);
	assert_int_equal(r->acts[0]->tir->nb, 4);
	assert_true(r->acts[0]->tir->hash);
	assert_memory_equal(r->acts[0]->tir->rss.key, mlx5dm_flow_rss_default_key, 40);
	r = priv.flow->default_flow->rules[2].rule;
	assert_int_equal(r->m->attr.priority, 16383 * 4 + 2);
	/* Started twice: still one default rule, nothing leaked. */
	assert_int_equal(mlx5dm_flow_start(&dev), 0);
	assert_int_equal(live_rules(), 3);
	mlx5dm_flow_stop(&dev);
	fake_live_get(&l);
	assert_int_equal(l.tables + l.rules + l.tirs, 0);
	/* No RSS configured: everything to queue 0. */
	data.dev_conf.rxmode.mq_mode = RTE_ETH_MQ_RX_NONE;
	assert_int_equal(mlx5dm_flow_start(&dev), 0);
	assert_int_equal(live_rules(), 1);
	r = priv.flow->default_flow->rules[0].rule;
	assert_false(r->acts[0]->tir->hash);
	assert_int_equal(r->acts[0]->tir->rqns[0], 100);
	mlx5dm_flow_stop(&dev);
}

static void
test_isolate(void **state)
{
	struct rte_flow_error err = { .message = NULL };
	struct rte_flow *f;

	(void)state;
	/* Before start: the port then starts without the default rule. */
	assert_int_equal(ops->isolate(&dev, 1, &err), 0);
	assert_true(priv.isolated);
	assert_int_equal(mlx5dm_flow_start(&dev), 0);
	assert_int_equal(live_rules(), 0);
	/* Started, no flows: the default rule comes and goes. */
	assert_int_equal(ops->isolate(&dev, 0, &err), 0);
	assert_int_equal(live_rules(), 3);
	assert_int_equal(ops->isolate(&dev, 1, &err), 0);
	assert_int_equal(live_rules(), 0);
	/* With a flow: refused, nothing changes. */
	f = ops->create(&dev, &t_attr_in, p_eth, t_act_drop, &err);
	assert_non_null(f);
	assert_int_equal(ops->isolate(&dev, 0, &err), -EBUSY);
	assert_string_equal(err.message, "isolated mode can only change while no flows exist");
	assert_true(priv.isolated);
	assert_int_equal(live_rules(), 1);
	assert_int_equal(ops->destroy(&dev, f, &err), 0);
	mlx5dm_flow_stop(&dev);
}

static void
test_handles_query_flush(void **state)
{
	const struct rte_flow_action count[] = { ACT(COUNT, NULL), ACT(DROP, NULL), END_ACT };
	const struct rte_flow_action q_count = { .type = RTE_FLOW_ACTION_TYPE_COUNT };
	const struct rte_flow_action q_drop = { .type = RTE_FLOW_ACTION_TYPE_DROP };
	struct rte_flow_error err = { .message = NULL };
	struct rte_flow_query_count q = { .reset = 0 };
	struct rte_flow *f1, *f2;
	struct rte_flow bogus;
	uint32_t idx;

	(void)state;
	assert_int_equal(mlx5dm_flow_start(&dev), 0);
	f1 = ops->create(&dev, &t_attr_in, p_eth, count, &err);
	f2 = ops->create(&dev, &t_attr_out, p_eth, t_act_drop, &err);
	assert_non_null(f1);
	assert_non_null(f2);
	assert_int_equal(live_rules(), 3 + 2);
	mlx5dm_flow_cnt_counters(priv.flow, f1->cnt, &idx)->packets[idx] = 5;
	assert_int_equal(ops->query(&dev, f1, &q_count, &q, &err), 0);
	assert_int_equal(q.hits, 5);
	assert_int_equal(ops->query(&dev, f1, &q_drop, &q, &err), -ENOTSUP);
	assert_string_equal(err.message, "only COUNT can be queried");
	assert_int_equal(ops->query(&dev, f2, &q_count, &q, &err), -EINVAL);
	assert_string_equal(err.message, "the flow has no COUNT action");
	assert_int_equal(ops->destroy(&dev, &bogus, &err), -EINVAL);
	assert_int_equal(err.type, RTE_FLOW_ERROR_TYPE_HANDLE);
	assert_ptr_equal(err.cause, &bogus);
	assert_int_equal(ops->query(&dev, &bogus, &q_count, &q, &err), -EINVAL);
	assert_int_equal(err.type, RTE_FLOW_ERROR_TYPE_HANDLE);
	/* Flush: user flows go, the default rule stays. */
	assert_int_equal(ops->flush(&dev, &err), 0);
	assert_int_equal(live_rules(), 3);
	assert_int_equal(ops->destroy(&dev, f1, &err), -EINVAL);
	mlx5dm_flow_stop(&dev);
	assert_int_equal(live_rules(), 0);
}

static void
test_dump(void **state)
{
	struct rte_flow_error err = { .message = NULL };
	struct rte_flow *f;
	char *buf = NULL;
	size_t len = 0;
	FILE *out;

	(void)state;
	assert_int_equal(mlx5dm_flow_start(&dev), 0);
	out = open_memstream(&buf, &len);
	assert_non_null(out);
	assert_int_equal(ops->dev_dump(&dev, NULL, out, &err), 0);
	fclose(out);
	assert_string_equal(buf, "fake domain 0\nfake domain 1\n");
	free(buf);
	/* One flow: its rule's records (the fake library names the action count). */
	f = ops->create(&dev, &t_attr_in, p_eth, t_act_drop, &err);
	assert_non_null(f);
	out = open_memstream(&buf, &len);
	assert_non_null(out);
	assert_int_equal(ops->dev_dump(&dev, f, out, &err), 0);
	fclose(out);
	assert_string_equal(buf, "fake rule 1 actions\n");
	free(buf);
	/* A destroyed flow is no handle: refused, nothing written. */
	assert_int_equal(ops->destroy(&dev, f, &err), 0);
	buf = NULL;
	out = open_memstream(&buf, &len);
	assert_non_null(out);
	assert_int_equal(ops->dev_dump(&dev, f, out, &err), -EINVAL);
	assert_int_equal(err.type, RTE_FLOW_ERROR_TYPE_HANDLE);
	fclose(out);
	assert_int_equal(len, 0);
	free(buf);
	mlx5dm_flow_stop(&dev);
}

/* ---- the template API ---- */

static const struct rte_flow_queue_attr q_attr = { .size = 4 };
static const struct rte_flow_queue_attr *q_attrs[2] = { &q_attr, &q_attr };
static const struct rte_flow_port_attr port_attr = { .nb_counters = 0 };

static void
test_template_configure(void **state)
{
	const struct rte_flow_pattern_template_attr pa = { .ingress = 1 };
	const struct rte_flow_port_attr meters = { .nb_meters = 1 };
	struct rte_flow_error err = { .message = NULL };
	struct rte_flow_port_info pi;
	struct rte_flow_queue_info qi;
	struct rte_flow *f;

	(void)state;
	assert_int_equal(ops->info_get(&dev, &pi, &qi, &err), 0);
	assert_int_equal(pi.max_nb_queues, 64);
	assert_true(pi.max_nb_counters >= 1u << 24);
	assert_int_equal(qi.max_size, MLX5DM_QUEUE_MAX_OPS);
	/* Templates need a configured flow engine. */
	assert_null(ops->pattern_template_create(&dev, &pa, p_eth, &err));
	assert_int_equal(rte_errno, EINVAL);
	assert_string_equal(err.message, "the flow engine is not configured: call "
			    "rte_flow_configure() first");
	assert_int_equal(ops->configure(&dev, &port_attr, 0, NULL, &err), -EINVAL);
	assert_int_equal(ops->configure(&dev, &meters, 2,
					q_attrs, &err),
			 -ENOTSUP);
	assert_string_equal(err.message, "rte_flow_configure: aging objects, meters and "
			    "connection tracking are not supported");
	assert_int_equal(ops->configure(&dev, &port_attr, 2,
					q_attrs, &err), 0);
	assert_int_equal(priv.flow->tmpl->nb_queues, 2);
	assert_int_equal(priv.flow->tmpl->aq[1].size, 4);
	/* Not again while a rule exists. */
	assert_int_equal(mlx5dm_flow_start(&dev), 0);
	f = ops->create(&dev, &t_attr_in, p_eth, t_act_drop, &err);
	assert_non_null(f);
	assert_int_equal(ops->configure(&dev, &port_attr, 1,
					q_attrs, &err),
			 -EBUSY);
	assert_string_equal(err.message, "rte_flow_configure: flow rules exist; destroy them "
			    "before configuring again");
	assert_int_equal(ops->destroy(&dev, f, &err), 0);
	assert_int_equal(ops->configure(&dev, &port_attr, 1,
					q_attrs, &err), 0);
	assert_int_equal(priv.flow->tmpl->nb_queues, 1);
	mlx5dm_flow_stop(&dev);
}

static void
test_template_refusals(void **state)
{
	const struct rte_flow_pattern_template_attr pa = { .ingress = 1 };
	const struct rte_flow_actions_template_attr aa = { .ingress = 1 };
	const struct rte_flow_item sctp[] = { ITEM(ETH, NULL, NULL), ITEM(IPV4, NULL, NULL),
					      ITEM(SCTP, NULL, NULL), END_ITEM };
	const struct rte_flow_action meter[] = { ACT(METER, NULL), ACT(DROP, NULL), END_ACT };
	const struct rte_flow_action drop_mask[] = { ACT(QUEUE, NULL), END_ACT };
	struct rte_flow_error err = { .message = NULL };

	(void)state;
	assert_int_equal(ops->configure(&dev, &port_attr, 1,
					q_attrs, &err), 0);
	/* What the synchronous API refuses is refused at template creation, named. */
	assert_null(ops->pattern_template_create(&dev, &pa, sctp, &err));
	assert_int_equal(rte_errno, ENOTSUP);
	assert_int_equal(err.type, RTE_FLOW_ERROR_TYPE_ITEM);
	assert_ptr_equal(err.cause, &sctp[2]);
	assert_string_equal(err.message, mlx5dm_flow_type_msg(false, RTE_FLOW_ITEM_TYPE_SCTP));
	assert_null(ops->actions_template_create(&dev, &aa, meter, meter, &err));
	assert_int_equal(rte_errno, ENOTSUP);
	assert_ptr_equal(err.cause, &meter[0]);
	assert_string_equal(err.message, mlx5dm_flow_type_msg(true, RTE_FLOW_ACTION_TYPE_METER));
	assert_null(ops->actions_template_create(&dev, &aa, t_act_drop, drop_mask, &err));
	assert_int_equal(rte_errno, EINVAL);
}

/* A refusal: rte_errno, the error's type and message. */
static void
refused(const struct rte_flow_error *err, int errnum, enum rte_flow_error_type type,
	const char *msg)
{
	assert_int_equal(rte_errno, errnum);
	assert_int_equal(err->type, type);
	assert_string_equal(err->message, msg);
}

/*
 * Bad input to the template API, call by call: each refusal says what is
 * wrong, and leaves nothing behind (no template, table, rule or result;
 * the templates a refused table named are not held).
 */
static void
test_template_bad_input(void **state)
{
	const struct rte_flow_pattern_template_attr pa = { .ingress = 1 }, pe = { .egress = 1 };
	const struct rte_flow_actions_template_attr aa = { .ingress = 1 };
	const struct rte_flow_port_attr flags = { .flags = 1 };
	const struct rte_flow_port_attr many = { .nb_counters = mlx5dm_flow_cnt_max() + 1 };
	const struct rte_flow_item_ipv4 dst_mask = { .hdr.dst_addr = RTE_BE32(0xffffffff) };
	const struct rte_flow_item_ipv4 dst = { .hdr.dst_addr = RTE_BE32(0x0a000002) };
	const struct rte_flow_item tp[] = { ITEM(ETH, NULL, NULL), ITEM(IPV4, NULL, &dst_mask),
					    END_ITEM };
	const struct rte_flow_item ranged[] = {
		ITEM(ETH, NULL, NULL),
		{ .type = RTE_FLOW_ITEM_TYPE_IPV4, .spec = &dst, .last = &dst, .mask = &dst_mask },
		END_ITEM };
	const struct rte_flow_item rp[] = { ITEM(ETH, NULL, NULL), ITEM(IPV4, &dst, NULL),
					    END_ITEM };
	const struct rte_flow_item no_spec[] = { ITEM(ETH, NULL, NULL), ITEM(IPV4, NULL, NULL),
						 END_ITEM };
	const struct rte_flow_item other[] = { ITEM(ETH, NULL, NULL), ITEM(IPV6, NULL, NULL),
					       END_ITEM };
	const struct rte_flow_action_queue q1 = { .index = 1 };
	const struct rte_flow_action ta[] = { ACT(QUEUE, &q1), END_ACT };
	const struct rte_flow_action tm[] = { ACT(QUEUE, NULL), END_ACT };
	const struct rte_flow_action mark_mask[] = { ACT(MARK, NULL), END_ACT };
	const struct rte_flow_action longer[] = { ACT(QUEUE, NULL), ACT(DROP, NULL), END_ACT };
	const struct rte_flow_action drop[] = { ACT(DROP, NULL), END_ACT };
	const struct rte_flow_template_table_attr ta_attr = {
		.flow_attr = { .group = 1, .ingress = 1 }, .nb_flows = 16 };
	const struct rte_flow_indir_action_conf in = { .ingress = 1 }, fdb = { .transfer = 1 };
	const struct rte_flow_action count[] = { ACT(COUNT, NULL), END_ACT };
	const struct rte_flow_action_queue bad_queue = { .index = 9 };
	struct rte_flow_query_count qc = { .reset = 0 };
	struct rte_flow_item long_pattern[MLX5DM_FLOW_TMPL_MAX_ITEMS + 2];
	struct rte_flow_action long_actions[MLX5DM_FLOW_TMPL_MAX_ACTIONS + 2];
	struct rte_flow_pattern_template *pt, *pt_out, *pts[MLX5DM_FLOW_TMPL_MAX_PER_TABLE + 1];
	struct rte_flow_actions_template *at;
	struct rte_flow_template_table *tbl;
	struct rte_flow_error err = { .message = NULL };
	struct rte_flow_op_result res[4];
	struct rte_flow_action_handle *h;
	struct fake_live l0, l;
	unsigned int i;

	(void)state;
	for (i = 0; i < RTE_DIM(long_pattern); i++)
		long_pattern[i] = (struct rte_flow_item){ .type = RTE_FLOW_ITEM_TYPE_VOID };
	long_pattern[RTE_DIM(long_pattern) - 1].type = RTE_FLOW_ITEM_TYPE_END;
	for (i = 0; i < RTE_DIM(long_actions); i++)
		long_actions[i] = (struct rte_flow_action){ .type = RTE_FLOW_ACTION_TYPE_VOID };
	long_actions[RTE_DIM(long_actions) - 1].type = RTE_FLOW_ACTION_TYPE_END;
	/* rte_flow_configure(): refused, the port stays unconfigured. */
	assert_int_equal(ops->configure(&dev, &port_attr, MLX5DM_FLOW_MAX_QUEUES + 1, q_attrs,
					&err), -EINVAL);
	refused(&err, EINVAL, RTE_FLOW_ERROR_TYPE_UNSPECIFIED,
		"more flow queues than rte_flow_info_get()'s max_nb_queues");
	assert_int_equal(ops->configure(&dev, &many, 1, q_attrs, &err), -EINVAL);
	refused(&err, EINVAL, RTE_FLOW_ERROR_TYPE_UNSPECIFIED,
		"more counters than rte_flow_info_get()'s max_nb_counters");
	assert_int_equal(ops->configure(&dev, &flags, 1, q_attrs, &err), -ENOTSUP);
	refused(&err, ENOTSUP, RTE_FLOW_ERROR_TYPE_UNSPECIFIED,
		"rte_flow_configure: no port flag is supported");
	assert_null(priv.flow->tmpl);
	assert_int_equal(ops->configure(&dev, &port_attr, 1, q_attrs, &err), 0);
	assert_int_equal(mlx5dm_flow_start(&dev), 0);
	fake_live_get(&l0);
	/* Templates. */
	assert_null(ops->pattern_template_create(&dev, NULL, tp, &err));
	refused(&err, EINVAL, RTE_FLOW_ERROR_TYPE_UNSPECIFIED,
		"pattern template: attributes and pattern are required");
	assert_null(ops->pattern_template_create(&dev, &pa, long_pattern, &err));
	refused(&err, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM_NUM, "pattern template: too many items");
	assert_null(ops->pattern_template_create(&dev, &pa, ranged, &err));
	refused(&err, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM_LAST,
		mlx5dm_flow_named_msg(false, RTE_FLOW_ITEM_TYPE_IPV4,
				      "a template item takes no range"));
	assert_ptr_equal(err.cause, &ranged[1]);
	assert_null(ops->actions_template_create(&dev, &aa, ta, NULL, &err));
	refused(&err, EINVAL, RTE_FLOW_ERROR_TYPE_UNSPECIFIED,
		"actions template: attributes, actions and masks are required");
	assert_null(ops->actions_template_create(&dev, &aa, long_actions, long_actions, &err));
	refused(&err, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION_NUM,
		"actions template: too many actions");
	assert_null(ops->actions_template_create(&dev, &aa, ta, mark_mask, &err));
	refused(&err, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION,
		mlx5dm_flow_named_msg(true, RTE_FLOW_ACTION_TYPE_QUEUE,
				      "the mask list must have the action list's types"));
	assert_ptr_equal(err.cause, &mark_mask[0]);
	assert_null(ops->actions_template_create(&dev, &aa, ta, longer, &err));
	refused(&err, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION,
		"the mask list is longer than the action list");
	assert_ptr_equal(err.cause, &longer[1]);
	assert_true(LIST_EMPTY(&priv.flow->tmpl->pts) && LIST_EMPTY(&priv.flow->tmpl->ats));
	/* Tables. */
	pt = ops->pattern_template_create(&dev, &pa, tp, &err);
	pt_out = ops->pattern_template_create(&dev, &pe, tp, &err);
	at = ops->actions_template_create(&dev, &aa, ta, tm, &err);
	assert_true(pt != NULL && pt_out != NULL && at != NULL);
	for (i = 0; i < RTE_DIM(pts); i++)
		pts[i] = pt;
	assert_null(ops->template_table_create(&dev, &ta_attr, pts, 0, &at, 1, &err));
	refused(&err, EINVAL, RTE_FLOW_ERROR_TYPE_UNSPECIFIED,
		"template table: attributes and 1 to 8 pattern and actions templates are "
		"required");
	assert_null(ops->template_table_create(&dev, &ta_attr, pts, RTE_DIM(pts), &at, 1, &err));
	assert_int_equal(rte_errno, EINVAL);
	assert_null(ops->template_table_create(&dev, &ta_attr, &pt_out, 1, &at, 1, &err));
	refused(&err, EINVAL, RTE_FLOW_ERROR_TYPE_UNSPECIFIED,
		"template table: a pattern template is of the other direction (a transfer "
		"table takes transfer templates only)");
	fake_live_get(&l);
	assert_int_equal(l.matchers, l0.matchers);
	/* Not held by the refused table. */
	assert_int_equal(ops->pattern_template_destroy(&dev, pt_out, &err), 0);
	tbl = ops->template_table_create(&dev, &ta_attr, &pt, 1, &at, 1, &err);
	assert_non_null(tbl);
	/* Rules: refused, no result. */
	assert_null(ops->async_create(&dev, 1, NULL, tbl, rp, 0, ta, 0, NULL, &err));
	refused(&err, EINVAL, RTE_FLOW_ERROR_TYPE_UNSPECIFIED,
		"no such flow queue: see rte_flow_configure()");
	assert_null(ops->async_create(&dev, 0, NULL, NULL, rp, 0, ta, 0, NULL, &err));
	refused(&err, EINVAL, RTE_FLOW_ERROR_TYPE_UNSPECIFIED,
		"a template table, a pattern and actions are required");
	assert_null(ops->async_create(&dev, 0, NULL, tbl, rp, 1, ta, 0, NULL, &err));
	refused(&err, EINVAL, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, "no such template in the table");
	assert_null(ops->async_create(&dev, 0, NULL, tbl, other, 0, ta, 0, NULL, &err));
	refused(&err, EINVAL, RTE_FLOW_ERROR_TYPE_ITEM, "the rule's pattern is not its template's");
	assert_ptr_equal(err.cause, &other[1]);
	assert_null(ops->async_create(&dev, 0, NULL, tbl, no_spec, 0, ta, 0, NULL, &err));
	refused(&err, EINVAL, RTE_FLOW_ERROR_TYPE_ITEM_SPEC,
		mlx5dm_flow_named_msg(false, RTE_FLOW_ITEM_TYPE_IPV4, "the template masks "
				      "fields of the item: the rule must give their values"));
	assert_null(ops->async_create(&dev, 0, NULL, tbl, rp, 0, drop, 0, NULL, &err));
	refused(&err, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION,
		"the rule's actions are not their template's");
	assert_ptr_equal(err.cause, &drop[0]);
	assert_int_equal(ops->pull(&dev, 0, res, RTE_DIM(res), &err), 0);
	assert_int_equal(live_rules(), l0.rules);
	/* Indirect actions. */
	assert_null(ops->action_handle_create(&dev, &in, drop, &err));
	refused(&err, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION,
		"indirect actions: COUNT only, ingress, egress or transfer");
	assert_null(ops->action_handle_create(&dev, &fdb, count, &err));
	refused(&err, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION,
		"a transfer COUNT needs an E-Switch manager port");
	h = ops->action_handle_create(&dev, &in, count, &err);
	assert_non_null(h);
	long_actions[0] = (struct rte_flow_action){ .type = RTE_FLOW_ACTION_TYPE_INDIRECT,
						    .conf = h };
	assert_null(ops->create(&dev, &t_attr_in, p_eth, long_actions, &err));
	refused(&err, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION_NUM,
		"a rule with an INDIRECT action: too many actions");
	/* The translation's cause is the application's action, not the PMD's copy. */
	long_actions[1] = (struct rte_flow_action){ .type = RTE_FLOW_ACTION_TYPE_QUEUE,
						    .conf = &bad_queue };
	long_actions[2].type = RTE_FLOW_ACTION_TYPE_END;
	assert_null(ops->create(&dev, &t_attr_in, p_eth, long_actions, &err));
	assert_int_equal(err.type, RTE_FLOW_ERROR_TYPE_ACTION_CONF);
	assert_ptr_equal(err.cause, &long_actions[1]);
	assert_int_equal(ops->validate(&dev, &t_attr_in, p_eth, long_actions, &err), -EINVAL);
	assert_ptr_equal(err.cause, &long_actions[1]);
	assert_int_equal(ops->action_handle_destroy(&dev, h, &err), 0);
	/* Handles the port never made: refused without being read. */
	assert_int_equal(ops->action_handle_destroy(&dev, NULL, &err), -EINVAL);
	refused(&err, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_CONF, "unknown indirect action handle");
	h = (struct rte_flow_action_handle *)(uintptr_t)UINT64_C(0x1234000000777);
	assert_int_equal(ops->action_handle_destroy(&dev, h, &err), -EINVAL);
	assert_int_equal(ops->action_handle_query(&dev, h, &qc, &err), -EINVAL);
	refused(&err, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_CONF, "unknown indirect action handle");
	/* A stopped port takes no rule. */
	mlx5dm_flow_stop(&dev);
	assert_null(ops->async_create(&dev, 0, NULL, tbl, rp, 0, ta, 0, NULL, &err));
	refused(&err, ENODEV, RTE_FLOW_ERROR_TYPE_UNSPECIFIED,
		"the port is not started: create flows after starting it");
	assert_int_equal(ops->pull(&dev, 0, res, RTE_DIM(res), &err), 0);
	assert_int_equal(ops->template_table_destroy(&dev, tbl, &err), 0);
	assert_int_equal(ops->pattern_template_destroy(&dev, pt, &err), 0);
	assert_int_equal(ops->actions_template_destroy(&dev, at, &err), 0);
}

/*
 * A pattern template may mask the protocol fields the next item implies
 * (EtherType, VLAN presence, IP protocol): the table is made, and each
 * rule's value must agree with the next item, as rte_flow_create() says.
 */
static void
test_template_protocol_masks(void **state)
{
	const struct rte_flow_pattern_template_attr pa = { .ingress = 1 };
	const struct rte_flow_actions_template_attr aa = { .ingress = 1 };
	const struct rte_flow_item_eth type_mask = { .hdr.ether_type = RTE_BE16(0xffff) };
	const struct rte_flow_item_eth vlan_mask = { .has_vlan = 1 };
	const struct rte_flow_item_ipv4 proto_mask = { .hdr.next_proto_id = 0xff };
	const struct rte_flow_item t_type[] = { ITEM(ETH, NULL, &type_mask), ITEM(IPV4, NULL, NULL),
						END_ITEM };
	const struct rte_flow_item t_vlan[] = { ITEM(ETH, NULL, &vlan_mask), ITEM(VLAN, NULL, NULL),
						END_ITEM };
	const struct rte_flow_item t_proto[] = { ITEM(ETH, NULL, NULL),
						 ITEM(IPV4, NULL, &proto_mask),
						 ITEM(UDP, NULL, NULL), END_ITEM };
	const struct rte_flow_item_eth ipv4 = { .hdr.ether_type = RTE_BE16(RTE_ETHER_TYPE_IPV4) };
	const struct rte_flow_item_eth ipv6 = { .hdr.ether_type = RTE_BE16(RTE_ETHER_TYPE_IPV6) };
	const struct rte_flow_item_eth tagged = { .has_vlan = 1 };
	const struct rte_flow_item_ipv4 udp = { .hdr.next_proto_id = IPPROTO_UDP };
	const struct rte_flow_item r_type[] = { ITEM(ETH, &ipv4, NULL), ITEM(IPV4, NULL, NULL),
						END_ITEM };
	const struct rte_flow_item r_bad[] = { ITEM(ETH, &ipv6, NULL), ITEM(IPV4, NULL, NULL),
					       END_ITEM };
	const struct rte_flow_item s_bad[] = { ITEM(ETH, &ipv6, &type_mask), ITEM(IPV4, NULL, NULL),
					       END_ITEM };
	const struct rte_flow_item r_vlan[] = { ITEM(ETH, &tagged, NULL), ITEM(VLAN, NULL, NULL),
						END_ITEM };
	const struct rte_flow_item r_proto[] = { ITEM(ETH, NULL, NULL), ITEM(IPV4, &udp, NULL),
						 ITEM(UDP, NULL, NULL), END_ITEM };
	const struct rte_flow_template_table_attr ta_attr = {
		.flow_attr = { .group = 1, .ingress = 1 }, .nb_flows = 4 };
	const struct rte_flow_item *tp[] = { t_type, t_vlan, t_proto };
	const struct rte_flow_item *rp[] = { r_type, r_vlan, r_proto };
	struct rte_flow_error err = { .message = NULL };
	struct rte_flow_pattern_template *pt[RTE_DIM(tp)];
	struct rte_flow_template_table *tbl[RTE_DIM(tp)];
	struct rte_flow_op_result res[4];
	struct rte_flow_actions_template *at;
	struct rte_flow *f;
	unsigned int i;

	(void)state;
	assert_int_equal(ops->configure(&dev, &port_attr, 1, q_attrs, &err), 0);
	assert_int_equal(mlx5dm_flow_start(&dev), 0);
	at = ops->actions_template_create(&dev, &aa, t_act_drop, t_act_drop, &err);
	assert_non_null(at);
	for (i = 0; i < RTE_DIM(tp); i++) {
		pt[i] = ops->pattern_template_create(&dev, &pa, tp[i], &err);
		assert_non_null(pt[i]);
		tbl[i] = ops->template_table_create(&dev, &ta_attr, &pt[i], 1, &at, 1, &err);
		assert_non_null(tbl[i]);
		f = ops->async_create(&dev, 0, NULL, tbl[i], rp[i], 0, t_act_drop, 0, NULL, &err);
		assert_non_null(f);
		assert_int_equal(ops->pull(&dev, 0, res, RTE_DIM(res), &err), 1);
		assert_int_equal(res[0].status, RTE_FLOW_OP_SUCCESS);
	}
	/* A value the next item contradicts: refused by name, as rte_flow_create() does. */
	assert_null(ops->async_create(&dev, 0, NULL, tbl[0], r_bad, 0, t_act_drop, 0, NULL, &err));
	assert_int_equal(rte_errno, EINVAL);
	assert_string_equal(err.message, "L3 item does not match the EtherType given before it");
	assert_ptr_equal(err.cause, &r_bad[1]);
	assert_null(ops->create(&dev, &t_attr_in_g1, s_bad, t_act_drop, &err));
	assert_string_equal(err.message, "L3 item does not match the EtherType given before it");
	mlx5dm_flow_stop(&dev);
}

/* Rule i's field of the match value. */
static uint32_t
rule_field(const struct mlx5dm_rule *r, enum mlx5dm_fte_field f)
{
	return mlx5dm_fte_get(r->value, f);
}

static void
test_template_rules(void **state)
{
	const struct rte_flow_pattern_template_attr pa = { .ingress = 1 };
	const struct rte_flow_pattern_template_attr pa_relaxed = { .ingress = 1,
								   .relaxed_matching = 1 };
	const struct rte_flow_actions_template_attr aa = { .ingress = 1 };
	const struct rte_flow_item_ipv4 dst_mask = { .hdr.dst_addr = RTE_BE32(0xffffffff) };
	const struct rte_flow_item tp[] = { ITEM(ETH, NULL, NULL), ITEM(IPV4, NULL, &dst_mask),
					    ITEM(UDP, NULL, NULL), END_ITEM };
	/* MARK left to the rule, QUEUE fixed to 2 by its mask. */
	const struct rte_flow_action_mark mark0 = { .id = 0 };
	const struct rte_flow_action_queue q2 = { .index = 2 }, qmask = { .index = 0xffff };
	const struct rte_flow_action ta[] = { ACT(MARK, &mark0), ACT(QUEUE, &q2), END_ACT };
	const struct rte_flow_action tm[] = { ACT(MARK, &mark0), ACT(QUEUE, &qmask), END_ACT };
	const struct rte_flow_template_table_attr ta_attr = {
		.flow_attr = { .group = 1, .ingress = 1 }, .nb_flows = 1000 };
	const struct rte_flow_op_attr later = { .postpone = 1 };
	const struct rte_flow_item_ipv4 dst = { .hdr.dst_addr = RTE_BE32(0x0a000007) };
	const struct rte_flow_item rp[] = { ITEM(ETH, NULL, NULL), ITEM(IPV4, &dst, NULL),
					    ITEM(UDP, NULL, NULL), END_ITEM };
	const struct rte_flow_action_mark mark5 = { .id = 5 };
	const struct rte_flow_action_queue q3 = { .index = 3 };
	const struct rte_flow_action ra[] = { ACT(MARK, &mark5), ACT(QUEUE, &q3), END_ACT };
	struct rte_flow_error err = { .message = NULL };
	struct rte_flow_pattern_template *pt, *ptr;
	struct rte_flow_actions_template *at;
	struct rte_flow_template_table *tbl, *tblr;
	struct rte_flow_op_result res[4];
	const struct mlx5dm_rule *r;
	struct rte_flow *f, *fr, *fq[4];
	struct fake_live l0, l;
	unsigned int i;
	int cookie;

	(void)state;
	assert_int_equal(ops->configure(&dev, &port_attr, 2,
					q_attrs, &err), 0);
	assert_int_equal(mlx5dm_flow_start(&dev), 0);
	pt = ops->pattern_template_create(&dev, &pa, tp, &err);
	ptr = ops->pattern_template_create(&dev, &pa_relaxed, tp, &err);
	at = ops->actions_template_create(&dev, &aa, ta, tm, &err);
	assert_non_null(pt);
	assert_non_null(ptr);
	assert_non_null(at);
	fake_live_get(&l0);
	/* A table is its matcher, made now and sized for its nb_flows. */
	tbl = ops->template_table_create(&dev, &ta_attr, &pt, 1, &at, 1, &err);
	assert_non_null(tbl);
	fake_live_get(&l);
	assert_int_equal(l.matchers, l0.matchers + 1);
	assert_int_equal(tbl->m[0]->m->attr.log_rules_hint, 10);
	/* A template in use stays. */
	assert_int_equal(ops->pattern_template_destroy(&dev, pt, &err), -EBUSY);
	/* A rule: its values under the template's masks, its MARK, the template's QUEUE. */
	f = ops->async_create(&dev, 1, &later, tbl, rp, 0, ra, 0, &cookie, &err);
	assert_non_null(f);
	r = fake_last_rule();
	assert_ptr_equal(r->m, tbl->m[0]->m);
	assert_int_equal(rule_field(r, MLX5DM_FTE(outer, dst_ip_31_0)), 0x0a000007);
	assert_int_equal(rule_field(r, MLX5DM_FTE(outer, ip_protocol)), IPPROTO_UDP);
	assert_int_equal(r->args[0], 5 + 1);
	assert_int_equal(r->acts[1]->tir->rqns[0], 102);
	/* Postponed: pulled after the push only, with its user data. */
	assert_int_equal(ops->pull(&dev, 1, res, 4, &err), 0);
	assert_int_equal(ops->push(&dev, 1, &err), 0);
	assert_int_equal(ops->pull(&dev, 1, res, 4, &err), 1);
	assert_int_equal(res[0].status, RTE_FLOW_OP_SUCCESS);
	assert_ptr_equal(res[0].user_data, &cookie);
	/* Relaxed: UDP without a mask implies no IP protocol. */
	tblr = ops->template_table_create(&dev, &ta_attr, &ptr, 1, &at, 1, &err);
	assert_non_null(tblr);
	fr = ops->async_create(&dev, 0, NULL, tblr, rp, 0, ra, 0, NULL, &err);
	assert_non_null(fr);
	r = fake_last_rule();
	assert_int_equal(mlx5dm_fte_get(r->m->mask, MLX5DM_FTE(outer, ip_protocol)), 0);
	assert_int_equal(rule_field(r, MLX5DM_FTE(outer, dst_ip_31_0)), 0x0a000007);
	assert_int_equal(ops->async_destroy(&dev, 0, NULL, fr, NULL, &err), 0);
	assert_int_equal(ops->async_destroy(&dev, 1, NULL, f, &cookie, &err), 0);
	assert_int_equal(ops->pull(&dev, 0, res, 4, &err), 2);
	assert_int_equal(ops->pull(&dev, 1, res, 4, &err), 1);
	assert_ptr_equal(res[0].user_data, &cookie);
	/* A queue holds its size of results: full, it refuses until pulled. */
	for (i = 0; i < 4; i++) {
		fq[i] = ops->async_create(&dev, 0, NULL, tbl, rp, 0, ra, 0, NULL, &err);
		assert_non_null(fq[i]);
	}
	assert_null(ops->async_create(&dev, 0, NULL, tbl, rp, 0, ra, 0, NULL, &err));
	assert_int_equal(rte_errno, EAGAIN);
	assert_int_equal(ops->pull(&dev, 0, res, 4, &err), 4);
	for (i = 0; i < 4; i++)
		assert_int_equal(ops->async_destroy(&dev, 0, NULL, fq[i], NULL, &err), 0);
	assert_int_equal(ops->pull(&dev, 0, res, 4, &err), 4);
	fake_live_get(&l);
	assert_int_equal(l.rules, l0.rules);
	assert_int_equal(ops->template_table_destroy(&dev, tbl, &err), 0);
	assert_int_equal(ops->template_table_destroy(&dev, tblr, &err), 0);
	fake_live_get(&l);
	assert_int_equal(l.matchers, l0.matchers);
	assert_int_equal(ops->pattern_template_destroy(&dev, pt, &err), 0);
	mlx5dm_flow_stop(&dev);
}

/*
 * Indirect COUNTs (the async handle calls): a rule may count with a live
 * one; an unknown or destroyed handle is refused by name, without being
 * read; one in use stays (EBUSY); after a port stop its counter is gone
 * (ENODEV) and only its destroy works.
 */
static void
test_indirect_handles(void **state)
{
	const struct rte_flow_pattern_template_attr pa = { .ingress = 1 };
	const struct rte_flow_actions_template_attr aa = { .ingress = 1 };
	const struct rte_flow_indir_action_conf in = { .ingress = 1 };
	const struct rte_flow_action count = ACT(COUNT, NULL);
	const struct rte_flow_item_ipv4 dst_mask = { .hdr.dst_addr = RTE_BE32(0xffffffff) };
	const struct rte_flow_item tp[] = { ITEM(ETH, NULL, NULL), ITEM(IPV4, NULL, &dst_mask),
					    END_ITEM };
	const struct rte_flow_action_queue q1 = { .index = 1 };
	const struct rte_flow_action ta[] = { ACT(INDIRECT, NULL), ACT(QUEUE, &q1), END_ACT };
	const struct rte_flow_action tm[] = { ACT(INDIRECT, NULL), ACT(QUEUE, &q1), END_ACT };
	const struct rte_flow_template_table_attr ta_attr = {
		.flow_attr = { .group = 1, .ingress = 1 }, .nb_flows = 16 };
	const struct rte_flow_item_ipv4 dst = { .hdr.dst_addr = RTE_BE32(0x0a000007) };
	const struct rte_flow_item rp[] = { ITEM(ETH, NULL, NULL), ITEM(IPV4, &dst, NULL),
					    END_ITEM };
	static int not_a_handle;
	struct rte_flow_action_handle *h[3], *stranger = (void *)&not_a_handle;
	struct rte_flow_action ra[] = { ACT(INDIRECT, NULL), ACT(QUEUE, &q1), END_ACT };
	struct rte_flow_error err = { .message = NULL };
	struct rte_flow_query_count qc = { .reset = 0 };
	struct rte_flow_pattern_template *pt;
	struct rte_flow_actions_template *at;
	struct rte_flow_template_table *tbl;
	struct rte_flow_op_result res[4];
	struct rte_flow *f;
	unsigned int i;
	int rules;

	(void)state;
	assert_int_equal(ops->configure(&dev, &port_attr, 2, q_attrs, &err), 0);
	assert_int_equal(mlx5dm_flow_start(&dev), 0);
	for (i = 0; i < RTE_DIM(h); i++) {
		h[i] = ops->async_action_handle_create(&dev, 0, NULL, &in, &count, NULL, &err);
		assert_non_null(h[i]);
	}
	assert_int_equal(ops->pull(&dev, 0, res, 4, &err), 3);
	pt = ops->pattern_template_create(&dev, &pa, tp, &err);
	at = ops->actions_template_create(&dev, &aa, ta, tm, &err);
	assert_non_null(pt);
	assert_non_null(at);
	tbl = ops->template_table_create(&dev, &ta_attr, &pt, 1, &at, 1, &err);
	assert_non_null(tbl);
	/* An address that is no handle of the port: refused, nothing made. */
	rules = live_rules();
	ra[0].conf = stranger;
	assert_null(ops->async_create(&dev, 0, NULL, tbl, rp, 0, ra, 0, NULL, &err));
	assert_int_equal(rte_errno, EINVAL);
	assert_string_equal(err.message, "unknown indirect action handle");
	assert_int_equal(ops->async_action_handle_query(&dev, 0, NULL, stranger, &qc, NULL,
							&err), -EINVAL);
	/* No handle at all: no counter of the rule's own instead. */
	ra[0].conf = NULL;
	assert_null(ops->async_create(&dev, 0, NULL, tbl, rp, 0, ra, 0, NULL, &err));
	assert_int_equal(rte_errno, EINVAL);
	assert_string_equal(err.message, "INDIRECT: the rule gives no handle");
	assert_int_equal(live_rules(), rules);
	/* The middle handle counts a rule: it stays while the rule does. */
	ra[0].conf = h[1];
	f = ops->async_create(&dev, 0, NULL, tbl, rp, 0, ra, 0, NULL, &err);
	assert_non_null(f);
	assert_int_equal(ops->async_action_handle_destroy(&dev, 0, NULL, h[1], NULL, &err),
			 -EBUSY);
	assert_int_equal(ops->async_action_handle_query(&dev, 0, NULL, h[1], &qc, NULL, &err),
			 0);
	assert_int_equal(ops->async_destroy(&dev, 0, NULL, f, NULL, &err), 0);
	assert_int_equal(ops->async_action_handle_destroy(&dev, 0, NULL, h[1], NULL, &err), 0);
	assert_int_equal(ops->pull(&dev, 0, res, 4, &err), 4);
	/* Destroyed: unknown (its address is not read). */
	assert_null(ops->async_create(&dev, 0, NULL, tbl, rp, 0, ra, 0, NULL, &err));
	assert_string_equal(err.message, "unknown indirect action handle");
	/* A stop takes the counters: the others are known but empty, and only go. */
	assert_int_equal(ops->template_table_destroy(&dev, tbl, &err), 0);
	mlx5dm_flow_stop(&dev);
	assert_int_equal(mlx5dm_flow_start(&dev), 0);
	assert_int_equal(ops->async_action_handle_query(&dev, 0, NULL, h[0], &qc, NULL, &err),
			 -ENODEV);
	assert_int_equal(ops->async_action_handle_destroy(&dev, 0, NULL, h[0], NULL, &err), 0);
	assert_int_equal(ops->async_action_handle_destroy(&dev, 0, NULL, h[2], NULL, &err), 0);
	assert_int_equal(ops->async_action_handle_destroy(&dev, 0, NULL, h[2], NULL, &err),
			 -EINVAL);
	assert_int_equal(ops->actions_template_destroy(&dev, at, &err), 0);
	assert_int_equal(ops->pattern_template_destroy(&dev, pt, &err), 0);
	mlx5dm_flow_stop(&dev);
}

/*
 * Indirect COUNTs of the synchronous API (no rte_flow_configure()): an
 * INDIRECT action of rte_flow_create() or rte_flow_validate() counts with
 * the handle's counter, the second rule of the shape through its implicit
 * template's setters too. Refused, nothing made: no handle, two, the other
 * direction's, an unknown one. A handle in use stays (EBUSY); after a stop
 * its counter is gone (ENODEV) and only its destroy works.
 */
static void
test_indirect_sync(void **state)
{
	const struct rte_flow_indir_action_conf in = { .ingress = 1 }, out = { .egress = 1 };
	const struct rte_flow_action count = ACT(COUNT, NULL);
	const struct rte_flow_action_queue q1 = { .index = 1 };
	struct rte_flow_item_ipv4 dst = { .hdr.dst_addr = RTE_BE32(0x0a000001) };
	const struct rte_flow_item_ipv4 dst_mask = { .hdr.dst_addr = RTE_BE32(0xffffffff) };
	const struct rte_flow_item pat[] = { ITEM(ETH, NULL, NULL), ITEM(IPV4, &dst, &dst_mask),
					     END_ITEM };
	struct rte_flow_action acts[] = { ACT(INDIRECT, NULL), ACT(QUEUE, &q1), END_ACT };
	struct rte_flow_action two[] = { ACT(INDIRECT, NULL), ACT(INDIRECT, NULL), END_ACT };
	struct rte_flow_error err = { .message = NULL };
	struct rte_flow_query_count qc = { .reset = 0 };
	struct rte_flow_action_handle *h, *tx;
	struct mlx5dm_flow_stats st;
	struct rte_flow *f[2];
	uint32_t fast;
	int rules;

	(void)state;
	assert_null(ops->action_handle_create(&dev, &in, &count, &err));
	assert_int_equal(rte_errno, ENODEV);
	assert_int_equal(mlx5dm_flow_start(&dev), 0);
	h = ops->action_handle_create(&dev, &in, &count, &err);
	tx = ops->action_handle_create(&dev, &out, &count, &err);
	assert_non_null(h);
	assert_non_null(tx);
	rules = live_rules();
	assert_null(ops->create(&dev, &t_attr_in, pat, acts, &err));
	assert_string_equal(err.message, "INDIRECT: the rule gives no handle");
	assert_int_equal(ops->validate(&dev, &t_attr_in, pat, acts, &err), -EINVAL);
	two[0].conf = h;
	two[1].conf = h;
	assert_null(ops->create(&dev, &t_attr_in, pat, two, &err));
	assert_string_equal(err.message, "one indirect action per rule");
	acts[0].conf = tx;
	assert_null(ops->create(&dev, &t_attr_in, pat, acts, &err));
	assert_string_equal(err.message, "the indirect COUNT is of the other direction");
	assert_int_equal(ops->validate(&dev, &t_attr_in, pat, acts, &err), -EINVAL);
	acts[0].conf = (void *)(uintptr_t)0x1234;
	assert_null(ops->create(&dev, &t_attr_in, pat, acts, &err));
	assert_string_equal(err.message, "unknown indirect action handle");
	assert_int_equal(live_rules(), rules);
	/* Two rules count with it, the second by the setters: one counter action and index. */
	acts[0].conf = h;
	assert_int_equal(ops->validate(&dev, &t_attr_in, pat, acts, &err), 0);
	f[0] = ops->create(&dev, &t_attr_in, pat, acts, &err);
	assert_non_null(f[0]);
	mlx5dm_flow_objs_stats(priv.flow, &st);
	fast = st.fast;
	dst.hdr.dst_addr = RTE_BE32(0x0a000002);
	f[1] = ops->create(&dev, &t_attr_in, pat, acts, &err);
	assert_non_null(f[1]);
	mlx5dm_flow_objs_stats(priv.flow, &st);
	assert_int_equal(st.fast, fast + 1);
	assert_int_equal(f[0]->rules[0].rule->acts[0]->kind, FAKE_COUNTERS);
	assert_ptr_equal(f[1]->rules[0].rule->acts[0], f[0]->rules[0].rule->acts[0]);
	assert_int_equal(f[1]->rules[0].rule->args[0], f[0]->rules[0].rule->args[0]);
	assert_int_equal(ops->action_handle_destroy(&dev, h, &err), -EBUSY);
	assert_int_equal(ops->action_handle_query(&dev, h, &qc, &err), 0);
	assert_int_equal(ops->destroy(&dev, f[0], &err), 0);
	assert_int_equal(ops->action_handle_destroy(&dev, h, &err), -EBUSY);
	assert_int_equal(ops->destroy(&dev, f[1], &err), 0);
	assert_int_equal(ops->action_handle_destroy(&dev, h, &err), 0);
	assert_int_equal(ops->action_handle_destroy(&dev, h, &err), -EINVAL);
	mlx5dm_flow_stop(&dev);
	assert_int_equal(mlx5dm_flow_start(&dev), 0);
	assert_int_equal(ops->action_handle_query(&dev, tx, &qc, &err), -ENODEV);
	assert_int_equal(ops->action_handle_destroy(&dev, tx, &err), 0);
	mlx5dm_flow_stop(&dev);
}

/*
 * A table's pairs of templates are compiled once, when it is made: rules
 * alternating between its two pattern templates are each made by their
 * pair's setters (no translation), with their own values in the match and
 * the tag, in their template's matcher.
 */
static void
test_template_compiled(void **state)
{
	const struct rte_flow_pattern_template_attr pa = { .ingress = 1 };
	const struct rte_flow_actions_template_attr aa = { .ingress = 1 };
	const struct rte_flow_item_ipv4 dst_mask = { .hdr.dst_addr = RTE_BE32(0xffffffff) };
	const struct rte_flow_item_ipv4 src_mask = { .hdr.src_addr = RTE_BE32(0xffffffff) };
	const struct rte_flow_item tp_dst[] = { ITEM(ETH, NULL, NULL),
						ITEM(IPV4, NULL, &dst_mask), END_ITEM };
	const struct rte_flow_item tp_src[] = { ITEM(ETH, NULL, NULL),
						ITEM(IPV4, NULL, &src_mask), END_ITEM };
	const struct rte_flow_action_mark mark0 = { .id = 0 };
	const struct rte_flow_action_queue q1 = { .index = 1 }, qmask = { .index = 0xffff };
	const struct rte_flow_action ta[] = { ACT(MARK, &mark0), ACT(QUEUE, &q1), END_ACT };
	const struct rte_flow_action tm[] = { ACT(MARK, &mark0), ACT(QUEUE, &qmask), END_ACT };
	const struct rte_flow_template_table_attr ta_attr = {
		.flow_attr = { .group = 1, .ingress = 1 }, .nb_flows = 64 };
	struct rte_flow_item_ipv4 ip = { .hdr.dst_addr = 0 };
	const struct rte_flow_item rp[] = { ITEM(ETH, NULL, NULL), ITEM(IPV4, &ip, NULL),
					    END_ITEM };
	struct rte_flow_action_mark mark = { .id = 0 };
	const struct rte_flow_action ra[] = { ACT(MARK, &mark), ACT(QUEUE, NULL), END_ACT };
	struct rte_flow_error err = { .message = NULL };
	struct rte_flow_pattern_template *pt[2];
	struct rte_flow_actions_template *at;
	struct rte_flow_template_table *tbl;
	struct mlx5dm_flow_compiled *ct[2];
	struct rte_flow_op_result res[16];
	struct mlx5dm_flow_stats st;
	const struct mlx5dm_rule *r;
	uint32_t fast;
	struct rte_flow *f[16];
	unsigned int i, k;
	int live0;

	(void)state;
	assert_int_equal(ops->configure(&dev, &port_attr, 2, q_attrs, &err), 0);
	assert_int_equal(mlx5dm_flow_start(&dev), 0);
	pt[0] = ops->pattern_template_create(&dev, &pa, tp_dst, &err);
	pt[1] = ops->pattern_template_create(&dev, &pa, tp_src, &err);
	at = ops->actions_template_create(&dev, &aa, ta, tm, &err);
	assert_true(pt[0] != NULL && pt[1] != NULL && at != NULL);
	tbl = ops->template_table_create(&dev, &ta_attr, pt, 2, &at, 1, &err);
	assert_non_null(tbl);
	for (k = 0; k < 2; k++) {
		ct[k] = mlx5dm_flow_tmpl_compiled(tbl, (uint8_t)k, 0);
		assert_true(ct[k]->fast);
	}
	mlx5dm_flow_objs_stats(priv.flow, &st);
	fast = st.fast;
	live0 = live_rules();
	for (i = 0; i < RTE_DIM(f); i++) {
		k = i % 2;
		ip.hdr.dst_addr = rte_cpu_to_be_32(0x0a000000 + i);
		ip.hdr.src_addr = rte_cpu_to_be_32(0x0b000000 + i);
		mark.id = 100 + i;
		f[i] = ops->async_create(&dev, 0, NULL, tbl, rp, (uint8_t)k, ra, 0, NULL, &err);
		assert_non_null(f[i]);
		r = fake_last_rule();
		assert_ptr_equal(r->m, tbl->m[k]->m);
		assert_int_equal(rule_field(r, MLX5DM_FTE(outer, dst_ip_31_0)),
				 k == 0 ? 0x0a000000 + i : 0);
		assert_int_equal(rule_field(r, MLX5DM_FTE(outer, src_ip_31_0)),
				 k == 1 ? 0x0b000000 + i : 0);
		assert_int_equal(r->args[0], 100 + i + 1);
		assert_int_equal(r->acts[1]->tir->rqns[0], 101);
		assert_int_equal(ops->pull(&dev, 0, res, RTE_DIM(res), &err), 1);
	}
	/* Every rule of both pairs made by their setters. */
	mlx5dm_flow_objs_stats(priv.flow, &st);
	assert_int_equal(st.fast - fast, RTE_DIM(f));
	for (i = 0; i < RTE_DIM(f); i++) {
		assert_int_equal(ops->async_destroy(&dev, 0, NULL, f[i], NULL, &err), 0);
		assert_int_equal(ops->pull(&dev, 0, res, RTE_DIM(res), &err), 1);
	}
	assert_int_equal(live_rules(), live0);
	assert_int_equal(ops->template_table_destroy(&dev, tbl, &err), 0);
	mlx5dm_flow_stop(&dev);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_ops_table, setup, teardown),
		cmocka_unit_test_setup_teardown(test_create_needs_start, setup, teardown),
		cmocka_unit_test_setup_teardown(test_default_rule, setup, teardown),
		cmocka_unit_test_setup_teardown(test_isolate, setup, teardown),
		cmocka_unit_test_setup_teardown(test_handles_query_flush, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dump, setup, teardown),
		cmocka_unit_test_setup_teardown(test_template_configure, setup, teardown),
		cmocka_unit_test_setup_teardown(test_template_refusals, setup, teardown),
		cmocka_unit_test_setup_teardown(test_template_bad_input, setup, teardown),
		cmocka_unit_test_setup_teardown(test_template_protocol_masks, setup, teardown),
		cmocka_unit_test_setup_teardown(test_template_rules, setup, teardown),
		cmocka_unit_test_setup_teardown(test_template_compiled, setup, teardown),
		cmocka_unit_test_setup_teardown(test_indirect_handles, setup, teardown),
		cmocka_unit_test_setup_teardown(test_indirect_sync, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
