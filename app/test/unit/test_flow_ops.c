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
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
