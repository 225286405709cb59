/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * rte_flow rules end to end on the device model: rte_flow attr/pattern/
 * actions translated by the PMD's flow code, created as real steering
 * library objects (tables, matchers, actions, rules written into the
 * model's ICM), then frames sent through the model's port: NIC TX
 * steering, the loopback wire, NIC RX steering, an RQ. The model decides
 * every fate from the bytes in its ICM, so these tests check the
 * translation (match parameter, modify lists, encap headers, RSS TIRs)
 * against what the device does, not against the code's own tables.
 */

#include <stdalign.h>
#include <stdlib.h>

#include "test_flow_common.h"
#include "dp_test_util.h"
#include "mlx5dm_dev.h"
#include "mlx5dm_sim.h"
#include "mlx5dm_sim_priv.h"

#define ITEM(t, s, m) { .type = RTE_FLOW_ITEM_TYPE_##t, .spec = (s), .mask = (m) }
#define END_ITEM { .type = RTE_FLOW_ITEM_TYPE_END }
#define ACT(t, c) { .type = RTE_FLOW_ACTION_TYPE_##t, .conf = (c) }
#define END_ACT { .type = RTE_FLOW_ACTION_TYPE_END }
#define NB_Q 4

struct env {
	struct mlx5dm_dev *dev;
	struct mlx5dm_ctx *ctx;
	struct mlx5dm_domain *dom[2];
	struct mlx5dm_rq *rq[NB_Q];
	uint32_t rqn[NB_Q];
	struct mlx5dm_flow_priv fp;
	struct dp dp;
};

static int
env_rqn(void *arg, uint16_t q, uint32_t *rqn)
{
	struct env *e = arg;

	if (q >= NB_Q)
		return -EINVAL;
	*rqn = e->rqn[q];
	return 0;
}

static struct env *
env_open_cfg(const struct mlx5dm_sim_config *cfg)
{
	struct mlx5dm_dev_attr dattr = { .transport = "sim", .config = cfg };
	struct mlx5dm_ctx_attr cattr = { .nb_queues = 1, .allow_duplicate_rules = true };
	struct mlx5dm_flow_port port = { .rqn = env_rqn };
	/* The flow state's rule queue lanes are a cache line each. */
	struct env *e = aligned_alloc(alignof(struct env),
				      RTE_ALIGN(sizeof(struct env), RTE_CACHE_LINE_SIZE));
	unsigned int i;

	assert_non_null(e);
	memset(e, 0, sizeof(*e));
	e->dev = mlx5dm_dev_open(&dattr);
	assert_non_null(e->dev);
	e->ctx = mlx5dm_ctx_open(e->dev, &cattr);
	assert_non_null(e->ctx);
	e->dom[0] = mlx5dm_domain_create(e->ctx, MLX5DM_DOMAIN_NIC_RX);
	e->dom[1] = mlx5dm_domain_create(e->ctx, MLX5DM_DOMAIN_NIC_TX);
	assert_non_null(e->dom[0]);
	assert_non_null(e->dom[1]);
	for (i = 0; i < NB_Q; i++) {
		e->rq[i] = mlx5dm_rq_create(e->ctx, 10);
		assert_non_null(e->rq[i]);
		e->rqn[i] = mlx5dm_rq_number(e->rq[i]);
	}
	port.ctx = e->ctx;
	port.dom[0] = e->dom[0];
	port.dom[1] = e->dom[1];
	port.rqn_arg = e;
	mlx5dm_flow_priv_init(&e->fp, e->dev->socket);
	assert_int_equal(mlx5dm_flow_objs_start(&e->fp, &port), 0);
	assert_int_equal(dp_open(&e->dp, e->ctx, e->dev, e->rq, NB_Q), 0);
	return e;
}

static struct env *
env_open(void)
{
	return env_open_cfg(NULL);
}

static void
env_close(struct env *e)
{
	unsigned int i;

	dp_close(&e->dp);
	mlx5dm_flow_objs_stop(&e->fp);
	assert_int_equal(e->fp.st.tables + e->fp.st.matchers + e->fp.st.entries +
			 e->fp.st.counters, 0);
	for (i = 0; i < NB_Q; i++)
		assert_int_equal(mlx5dm_rq_destroy(e->rq[i]), 0);
	assert_int_equal(mlx5dm_domain_destroy(e->dom[0]), 0);
	assert_int_equal(mlx5dm_domain_destroy(e->dom[1]), 0);
	assert_int_equal(mlx5dm_ctx_close(e->ctx), 0);
	mlx5dm_dev_close(e->dev);
	free(e);
}

/* The port's live counts, its rule queues' included. */
static struct mlx5dm_flow_stats
env_stats(const struct env *e)
{
	struct mlx5dm_flow_stats s;

	mlx5dm_flow_objs_stats(&e->fp, &s);
	return s;
}

static struct rte_flow *
env_flow(struct env *e, const struct rte_flow_attr *attr, const struct rte_flow_item *items,
	 const struct rte_flow_action *actions, bool internal)
{
	const struct mlx5dm_flow_context ctx = { .nb_rx_queues = NB_Q, .internal = internal };
	struct rte_flow_error err = { .message = NULL };
	struct mlx5dm_flow_spec spec;
	struct rte_flow *f;

	if (mlx5dm_flow_translate(&ctx, attr, items, actions, &spec, &err) != 0)
		fail_msg("translation: %s", err.message);
	f = mlx5dm_flow_objs_create(&e->fp, &spec, !internal, &err);
	if (f == NULL)
		fail_msg("create: %s (%d)", err.message, rte_errno);
	return f;
}

/* A flow as the PMD creates it: through the implicit template of its shape. */
static struct rte_flow *
env_flow_cached(struct env *e, const struct rte_flow_item *items,
		const struct rte_flow_action *actions)
{
	struct mlx5dm_flow_context ctx = { .nb_rx_queues = NB_Q };
	struct rte_flow_error err = { .message = NULL };
	struct rte_flow *f;

	f = mlx5dm_flow_objs_make(&e->fp, &ctx, NULL, &t_attr_in, items, actions, &err);
	if (f == NULL)
		fail_msg("create: %s (%d)", err.message, rte_errno);
	return f;
}

struct frame {
	uint8_t buf[512];
	uint16_t len;
};

#define HEADROOM 128

/* Ethernet [VLAN] IPv4 UDP with an 18-byte payload. */
static uint8_t *
frame_udp4(struct frame *f, int vid, uint32_t sip, uint32_t dip, uint16_t sport,
	   uint16_t dport)
{
	uint8_t *p = f->buf + HEADROOM, *ip;
	static const uint8_t macs[12] = { 0x02, 0, 0, 0, 0, 0x01, 0x02, 0, 0, 0, 0, 0x99 };

	memset(f->buf, 0, sizeof(f->buf));
	memcpy(p, macs, sizeof(macs));
	ip = p + 14;
	if (vid >= 0) {
		p[12] = 0x81;
		p[14] = (uint8_t)(vid >> 8);
		p[15] = (uint8_t)vid;
		ip += 4;
	}
	ip[-2] = 0x08;
	ip[-1] = 0x00;
	ip[0] = 0x45;
	ip[3] = 46;          /* total length: 20 + 8 + 18 */
	ip[8] = 64;          /* TTL */
	ip[9] = 17;          /* UDP */
	mlx5dm_prm_put_be32(ip + 12, sip);
	mlx5dm_prm_put_be32(ip + 16, dip);
	ip[20] = (uint8_t)(sport >> 8);
	ip[21] = (uint8_t)sport;
	ip[22] = (uint8_t)(dport >> 8);
	ip[23] = (uint8_t)dport;
	ip[25] = 26;         /* UDP length */
	memset(ip + 28, 0xab, 18);
	f->len = (uint16_t)(ip - p + 46);
	return p;
}

/* Send a frame; the queue it arrived on (got filled), -1 when dropped. */
static int
env_send(struct env *e, struct frame *f, struct mlx5dm_sim_pkt *got)
{
	int q = dp_send_pkt(&e->dp, f->buf + HEADROOM, f->len, got);

	if (q < -1)
		fail_msg("frame lost in the model (%d)", q);
	return q;
}

static int
env_send_udp4(struct env *e, uint32_t sip, uint32_t dip, uint16_t sport, uint16_t dport,
	      struct mlx5dm_sim_pkt *got)
{
	/* Static: got->data points into it after the return. */
	static struct frame f;

	frame_udp4(&f, -1, sip, dip, sport, dport);
	return env_send(e, &f, got);
}

static const struct rte_flow_item p_eth[] = { ITEM(ETH, NULL, NULL), END_ITEM };
static const uint16_t all_queues[NB_Q] = { 0, 1, 2, 3 };

/*
 * An egress rule changes the frame, an ingress rule undoes it and queues:
 * the frame must arrive on queue q exactly as it was sent.
 */
static void
env_round_trip(const struct rte_flow_action *out_acts, const struct rte_flow_item *in_items,
	       const struct rte_flow_action *in_acts, int q, const char *what)
{
	struct mlx5dm_sim_pkt got;
	struct env *e = env_open();
	uint8_t orig[64];
	struct frame f;
	uint8_t *p;

	env_flow(e, &t_attr_out, p_eth, out_acts, false);
	env_flow(e, &t_attr_in, in_items, in_acts, false);
	p = frame_udp4(&f, -1, 0x0a000001, 0x0a000002, 1000, 2000);
	memcpy(orig, p, f.len);
	assert_int_equal(env_send(e, &f, &got), q);
	assert_int_equal(got.len, 60);
	t_assert_bytes(got.data, orig, 60, what);
	env_close(e);
}
/* rte_flow's default IPv4 mask covers the source too: match the destination only. */
static const struct rte_flow_item_ipv4 ip_dst_mask = { .hdr.dst_addr = RTE_BE32(0xffffffff) };

/* The default rule as the PMD installs it: RSS (IP) over all queues, lowest priority. */
static void
env_default_rule(struct env *e)
{
	const struct rte_flow_attr attr = { .ingress = 1,
					    .priority = MLX5DM_FLOW_DEFAULT_PRIORITY };
	const struct rte_flow_action_rss rss = { .types = RTE_ETH_RSS_IP, .queue_num = NB_Q,
						 .queue = all_queues };
	const struct rte_flow_action acts[] = { ACT(RSS, &rss), END_ACT };

	e->fp.default_flow = env_flow(e, &attr, p_eth, acts, true);
}

static void
test_model_default_rss(void **state)
{
	struct env *e = env_open();
	unsigned int i, used = 0, hits[NB_Q] = { 0 };
	struct frame f;
	uint8_t *p;
	int q;

	(void)state;
	/* Without any rule, NIC RX drops. */
	assert_int_equal(env_send_udp4(e, 0x0a000001, 0x0a000002, 1, 2, NULL), -1);
	env_default_rule(e);
	for (i = 0; i < 64; i++) {
		q = env_send_udp4(e, 0x0a000000 + i * 7919, 0x0b000001, 1000, 2000, NULL);
		assert_true(q >= 0);
		hits[q]++;
	}
	for (i = 0; i < NB_Q; i++)
		used += hits[i] != 0;
	assert_true(used >= 3);
	/* Same addresses, same queue. */
	q = env_send_udp4(e, 0x0a000005, 0x0b000001, 1, 2, NULL);
	assert_int_equal(env_send_udp4(e, 0x0a000005, 0x0b000001, 3, 4, NULL), q);
	/* Non-IP traffic: the first queue. */
	p = frame_udp4(&f, -1, 0, 0, 0, 0);
	p[12] = 0x08;
	p[13] = 0x06;
	assert_int_equal(env_send(e, &f, NULL), 0);
	env_close(e);
}

static void
test_model_queue_mark_drop(void **state)
{
	const struct rte_flow_item_ipv4 ip = { .hdr.dst_addr = RTE_BE32(0x0a000002) };
	const struct rte_flow_item_udp udp = { .hdr.dst_port = RTE_BE16(2000) };
	const struct rte_flow_item_udp udp_mask = { .hdr.dst_port = RTE_BE16(0xffff) };
	const struct rte_flow_item items[] = { ITEM(ETH, NULL, NULL),
					       ITEM(IPV4, &ip, &ip_dst_mask),
					       ITEM(UDP, &udp, &udp_mask), END_ITEM };
	const struct rte_flow_item_udp drop_port = { .hdr.dst_port = RTE_BE16(3000) };
	const struct rte_flow_item drop_items[] = { ITEM(ETH, NULL, NULL), ITEM(IPV4, NULL, NULL),
						    ITEM(UDP, &drop_port, &udp_mask), END_ITEM };
	const struct rte_flow_action_mark mark = { .id = 7 };
	const struct rte_flow_action_queue q2 = { .index = 2 };
	const struct rte_flow_action acts[] = { ACT(MARK, &mark), ACT(QUEUE, &q2), END_ACT };
	struct mlx5dm_sim_pkt got;
	struct env *e = env_open();
	struct rte_flow *f;
	uint32_t id = 0;

	(void)state;
	env_default_rule(e);
	f = env_flow(e, &t_attr_in, items, acts, false);
	env_flow(e, &t_attr_in, drop_items, t_act_drop, false);
	assert_int_equal(env_send_udp4(e, 0x0a000001, 0x0a000002, 1000, 2000, &got), 2);
	assert_true(got.flags & MLX5DM_SIM_PKT_F_FLOW_TAG);
	assert_int_equal(mlx5dm_flow_tag_decode(got.flow_tag, &id), 2);
	assert_int_equal(id, 7);
	/* Another destination: the default rule, no mark. */
	assert_true(env_send_udp4(e, 0x0a000001, 0x0a000003, 1000, 2000, &got) >= 0);
	assert_false(got.flags & MLX5DM_SIM_PKT_F_FLOW_TAG);
	assert_int_equal(env_send_udp4(e, 0x0a000001, 0x0a000009, 1000, 3000, NULL), -1);
	/* Destroyed: back to the default. */
	assert_int_equal(mlx5dm_flow_objs_destroy(&e->fp, f, NULL), 0);
	assert_true(env_send_udp4(e, 0x0a000001, 0x0a000002, 1000, 2000, &got) >= 0);
	assert_false(got.flags & MLX5DM_SIM_PKT_F_FLOW_TAG);
	env_close(e);
}

/*
 * A rule write the device fails (the model completes a WQE of the rule
 * queue's ring in error, as a ConnectX does an RDMA WRITE it cannot make):
 * rte_flow create returns EIO with the error set (or returns before the
 * device failed the write), the frame keeps its path, and the queue's
 * error is reported by the creates that follow.
 */
static void
test_model_ring_failure(void **state)
{
	const struct rte_flow_item_ipv4 ip = { .hdr.dst_addr = RTE_BE32(0x0a000002) };
	const struct rte_flow_item_ipv4 ip3 = { .hdr.dst_addr = RTE_BE32(0x0a000003) };
	const struct rte_flow_item items[] = { ITEM(ETH, NULL, NULL),
					       ITEM(IPV4, &ip, &ip_dst_mask), END_ITEM };
	const struct rte_flow_item items3[] = { ITEM(ETH, NULL, NULL),
						ITEM(IPV4, &ip3, &ip_dst_mask), END_ITEM };
	const struct rte_flow_action_mark mark = { .id = 7 };
	const struct rte_flow_action_queue q2 = { .index = 2 };
	const struct rte_flow_action acts[] = { ACT(MARK, &mark), ACT(QUEUE, &q2), END_ACT };
	const struct mlx5dm_flow_context ctx = { .nb_rx_queues = NB_Q };
	struct rte_flow_error err = { .message = NULL };
	struct mlx5dm_flow_spec spec;
	struct mlx5dm_sim_pkt got;
	struct env *e = env_open();
	struct rte_flow *first;
	uint64_t flows, rules;
	unsigned int i;
	int q;

	(void)state;
	env_default_rule(e);
	/* The rule's matcher exists: the failing WQE is the rule's own write. */
	env_flow(e, &t_attr_in, items3, acts, false);
	flows = env_stats(e).flows;
	rules = env_stats(e).rules;
	q = env_send_udp4(e, 0x0a000001, 0x0a000002, 1000, 2000, &got);
	assert_true(q >= 0);
	assert_int_equal(mlx5dm_flow_translate(&ctx, &t_attr_in, items, acts, &spec, &err), 0);
	mlx5dm_sim_sq_fail_at(mlx5dm_sim_of(e->dev), 1);
	/*
	 * The device runs beside the caller: the create may return before the
	 * device failed its write. Then the rule never became reachable, and
	 * the creates after the device reported it fail.
	 */
	first = mlx5dm_flow_objs_create(&e->fp, &spec, true, &err);
	if (first != NULL) {
		mlx5dm_sim_sq_catch_up(mlx5dm_sim_of(e->dev));
		assert_int_equal(env_send_udp4(e, 0x0a000001, 0x0a000002, 1000, 2000, &got), q);
		assert_false(got.flags & MLX5DM_SIM_PKT_F_FLOW_TAG);
		flows = env_stats(e).flows;
		rules = env_stats(e).rules;
	}
	for (i = first != NULL ? 1 : 0; i < 2; i++) {
		rte_errno = 0;
		err.message = NULL;
		assert_null(mlx5dm_flow_objs_create(&e->fp, &spec, true, &err));
		assert_int_equal(rte_errno, EIO);
		assert_int_equal(err.type, RTE_FLOW_ERROR_TYPE_UNSPECIFIED);
		assert_non_null(err.message);
		assert_non_null(strstr(err.message, "device"));
		assert_int_equal(env_stats(e).flows, flows);
		assert_int_equal(env_stats(e).rules, rules);
		/* Not steered by the failed rule: the default rule's queue, no mark. */
		assert_int_equal(env_send_udp4(e, 0x0a000001, 0x0a000002, 1000, 2000, &got), q);
		assert_false(got.flags & MLX5DM_SIM_PKT_F_FLOW_TAG);
	}
	env_close(e);
}

/* Group 0 jumps to group 1; a MARK there is seen by a MARK item in group 2. */
static void
test_model_jump_mark_item(void **state)
{
	const struct rte_flow_action_jump j1 = { .group = 1 }, j2 = { .group = 2 };
	const struct rte_flow_action_mark mark = { .id = 0x42 };
	const struct rte_flow_action_queue q3 = { .index = 3 }, q1 = { .index = 1 };
	const struct rte_flow_item_mark m42 = { .id = 0x42 };
	const struct rte_flow_item p_mark[] = { ITEM(MARK, &m42, NULL), END_ITEM };
	const struct rte_flow_action a_j1[] = { ACT(JUMP, &j1), END_ACT };
	const struct rte_flow_action a_mark_j2[] = { ACT(MARK, &mark), ACT(JUMP, &j2), END_ACT };
	const struct rte_flow_action a_q3[] = { ACT(QUEUE, &q3), END_ACT };
	const struct rte_flow_action a_q1[] = { ACT(QUEUE, &q1), END_ACT };
	const struct rte_flow_attr g1 = { .group = 1, .ingress = 1 };
	const struct rte_flow_attr g2 = { .group = 2, .ingress = 1 };
	const struct rte_flow_attr g2_low = { .group = 2, .ingress = 1, .priority = 1 };
	const struct rte_flow_item_udp u = { .hdr.dst_port = RTE_BE16(53) };
	const struct rte_flow_item_udp um = { .hdr.dst_port = RTE_BE16(0xffff) };
	const struct rte_flow_item p_dns[] = { ITEM(ETH, NULL, NULL), ITEM(IPV4, NULL, NULL),
					       ITEM(UDP, &u, &um), END_ITEM };
	struct mlx5dm_sim_pkt got;
	struct env *e = env_open();
	uint32_t id = 0;

	(void)state;
	env_flow(e, &t_attr_in, p_eth, a_j1, false);
	env_flow(e, &g1, p_dns, a_mark_j2, false);
	env_flow(e, &g1, p_eth, a_q3, false);
	env_flow(e, &g2, p_mark, a_q1, false);
	env_flow(e, &g2_low, p_eth, t_act_drop, false);
	/* DNS: marked in group 1, MARK item in group 2 -> queue 1 with the tag. */
	assert_int_equal(env_send_udp4(e, 1, 2, 1000, 53, &got), 1);
	assert_int_equal(mlx5dm_flow_tag_decode(got.flow_tag, &id), 2);
	assert_int_equal(id, 0x42);
	/* Other UDP: group 1's catch-all. */
	assert_int_equal(env_send_udp4(e, 1, 2, 1000, 54, NULL), 3);
	env_close(e);
}

static void
test_model_count(void **state)
{
	const struct rte_flow_action_queue q1 = { .index = 1 };
	const struct rte_flow_action acts[] = { ACT(COUNT, NULL), ACT(QUEUE, &q1), END_ACT };
	struct rte_flow_query_count qc = { .reset = 1 };
	struct env *e = env_open();
	struct rte_flow *f;
	unsigned int i;

	(void)state;
	f = env_flow(e, &t_attr_in, p_eth, acts, false);
	for (i = 0; i < 5; i++)
		assert_int_equal(env_send_udp4(e, 1, 2, 3, 4, NULL), 1);
	assert_int_equal(mlx5dm_flow_objs_query_count(&e->fp, f, &qc, NULL), 0);
	assert_int_equal(qc.hits, 5);
	assert_int_equal(qc.bytes, 5 * 60);
	assert_int_equal(env_send_udp4(e, 1, 2, 3, 4, NULL), 1);
	assert_int_equal(mlx5dm_flow_objs_query_count(&e->fp, f, &qc, NULL), 0);
	assert_int_equal(qc.hits, 1);
	env_close(e);
}

/* Egress rewrites the destination; ingress matches the new one. */
static void
test_model_egress_modify(void **state)
{
	const struct rte_flow_action_set_ipv4 nd = { .ipv4_addr = RTE_BE32(0xc6120505) };
	const struct rte_flow_action_set_tp np = { .port = RTE_BE16(4444) };
	const struct rte_flow_item p_udp[] = { ITEM(ETH, NULL, NULL), ITEM(IPV4, NULL, NULL),
					       ITEM(UDP, NULL, NULL), END_ITEM };
	const struct rte_flow_action a_out[] = { ACT(SET_IPV4_DST, &nd), ACT(SET_TP_DST, &np),
						 ACT(DEC_TTL, NULL), END_ACT };
	const struct rte_flow_item_ipv4 ip = { .hdr.dst_addr = RTE_BE32(0xc6120505) };
	const struct rte_flow_item p_in[] = { ITEM(ETH, NULL, NULL),
					      ITEM(IPV4, &ip, &ip_dst_mask), END_ITEM };
	const struct rte_flow_action_queue q3 = { .index = 3 };
	const struct rte_flow_action a_in[] = { ACT(QUEUE, &q3), END_ACT };
	struct mlx5dm_sim_pkt got;
	struct env *e = env_open();

	(void)state;
	env_flow(e, &t_attr_out, p_udp, a_out, false);
	env_flow(e, &t_attr_in, p_in, a_in, false);
	assert_int_equal(env_send_udp4(e, 0x0a000001, 0x0a000002, 1000, 2000, &got), 3);
	assert_int_equal(mlx5dm_prm_be32(got.data + 30), 0xc6120505);
	assert_int_equal(got.data[36] << 8 | got.data[37], 4444);
	assert_int_equal(got.data[22], 63); /* TTL 64 - 1 */
	env_close(e);
}

/* VXLAN encap on egress, VXLAN match + decap on ingress: the original frame comes back. */
static void
test_model_vxlan_round_trip(void **state)
{
	struct rte_flow_item_eth oeth = {
		.hdr.dst_addr.addr_bytes = { 0x02, 0, 0, 0, 0, 0x77 },
		.hdr.src_addr.addr_bytes = { 0x02, 0, 0, 0, 0, 0x78 },
	};
	struct rte_flow_item_ipv4 oip = {
		.hdr.src_addr = RTE_BE32(0xac100001), .hdr.dst_addr = RTE_BE32(0xac100002),
	};
	struct rte_flow_item_udp oudp = { .hdr.src_port = RTE_BE16(5555) };
	struct rte_flow_item_vxlan ovx = { .hdr.vx_vni = RTE_BE32(0x00abcd00) };
	struct rte_flow_item def[] = {
		ITEM(ETH, &oeth, NULL), ITEM(IPV4, &oip, NULL), ITEM(UDP, &oudp, NULL),
		ITEM(VXLAN, &ovx, NULL), END_ITEM,
	};
	const struct rte_flow_action_vxlan_encap enc = { .definition = def };
	const struct rte_flow_action a_out[] = { ACT(VXLAN_ENCAP, &enc), END_ACT };
	const struct rte_flow_item_vxlan vni = { .hdr.vx_vni = RTE_BE32(0x00abcd00) };
	const struct rte_flow_item p_in[] = {
		ITEM(ETH, NULL, NULL), ITEM(IPV4, NULL, NULL), ITEM(UDP, NULL, NULL),
		ITEM(VXLAN, &vni, NULL), END_ITEM,
	};
	const struct rte_flow_action_queue q2 = { .index = 2 };
	const struct rte_flow_action a_in[] = { ACT(VXLAN_DECAP, NULL), ACT(QUEUE, &q2), END_ACT };

	(void)state;
	env_round_trip(a_out, p_in, a_in, 2, "decapsulated frame");
}

/* RSS action on IPv4/UDP ports: spread by ports, never to the excluded queue. */
static void
test_model_rss_ports(void **state)
{
	const uint16_t q123[] = { 1, 2, 3 };
	const struct rte_flow_action_rss rss = { .types = RTE_ETH_RSS_NONFRAG_IPV4_UDP,
						 .queue_num = 3, .queue = q123 };
	const struct rte_flow_item p_udp[] = { ITEM(ETH, NULL, NULL), ITEM(IPV4, NULL, NULL),
					       ITEM(UDP, NULL, NULL), END_ITEM };
	const struct rte_flow_action acts[] = { ACT(RSS, &rss), END_ACT };
	unsigned int i, hits[NB_Q] = { 0 };
	struct env *e = env_open();

	(void)state;
	env_flow(e, &t_attr_in, p_udp, acts, false);
	for (i = 0; i < 48; i++) {
		int q = env_send_udp4(e, 1, 2, (uint16_t)(1000 + i), 2000, NULL);

		assert_true(q >= 1 && q <= 3);
		hits[q]++;
	}
	assert_true(hits[1] && hits[2] && hits[3]);
	env_close(e);
}

/* Egress pushes VLAN 100; ingress matches VID 100, pops it and queues. */
static void
test_model_vlan_push_pop(void **state)
{
	const struct rte_flow_action_of_push_vlan push = { .ethertype = RTE_BE16(0x8100) };
	const struct rte_flow_action_of_set_vlan_vid vid = { .vlan_vid = RTE_BE16(100) };
	const struct rte_flow_action a_out[] = { ACT(OF_PUSH_VLAN, &push),
						 ACT(OF_SET_VLAN_VID, &vid), END_ACT };
	const struct rte_flow_item_vlan v100 = { .hdr.vlan_tci = RTE_BE16(100) };
	const struct rte_flow_item p_in[] = { ITEM(ETH, NULL, NULL), ITEM(VLAN, &v100, NULL),
					      END_ITEM };
	const struct rte_flow_action_queue q1 = { .index = 1 };
	const struct rte_flow_action a_in[] = { ACT(OF_POP_VLAN, NULL), ACT(QUEUE, &q1), END_ACT };

	(void)state;
	env_round_trip(a_out, p_in, a_in, 1, "frame after push and pop");
}

/* An Ethernet IPv6 UDP frame (dst ::2 + last byte). */
static void
frame_udp6(struct frame *f, uint8_t dst_last, uint16_t sport, uint16_t dport)
{
	uint8_t *p = f->buf + HEADROOM, *ip = p + 14;
	static const uint8_t macs[12] = { 0x02, 0, 0, 0, 0, 0x01, 0x02, 0, 0, 0, 0, 0x99 };

	memset(f->buf, 0, sizeof(f->buf));
	memcpy(p, macs, sizeof(macs));
	p[12] = 0x86;
	p[13] = 0xdd;
	ip[0] = 0x60;
	ip[5] = 26;          /* payload length: 8 + 18 */
	ip[6] = 17;
	ip[7] = 64;
	ip[8] = 0x20;
	ip[9] = 0x01;
	ip[23] = 1;          /* src 2001::1 */
	ip[24] = 0x20;
	ip[25] = 0x01;
	ip[39] = dst_last;   /* dst 2001::<dst_last> */
	ip[40] = (uint8_t)(sport >> 8);
	ip[41] = (uint8_t)sport;
	ip[42] = (uint8_t)(dport >> 8);
	ip[43] = (uint8_t)dport;
	ip[45] = 26;
	f->len = 14 + 40 + 26;
}

/* VLAN, IPv6 and priorities: the more urgent of two overlapping rules wins. */
static void
test_model_vlan_ipv6_priority(void **state)
{
	const struct rte_flow_item_vlan v7 = { .hdr.vlan_tci = RTE_BE16(7) };
	const struct rte_flow_item p_vlan[] = { ITEM(ETH, NULL, NULL), ITEM(VLAN, &v7, NULL),
						END_ITEM };
	const struct rte_flow_item_ipv6 d2 = { .hdr.dst_addr = { 0x20, 0x01, [15] = 2 } };
	const struct rte_flow_item_ipv6 dmask = { .hdr.dst_addr = {
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff } };
	const struct rte_flow_item_udp u53 = { .hdr.dst_port = RTE_BE16(53) };
	const struct rte_flow_item_udp umask = { .hdr.dst_port = RTE_BE16(0xffff) };
	const struct rte_flow_item p_v6[] = { ITEM(ETH, NULL, NULL), ITEM(IPV6, &d2, &dmask),
					      END_ITEM };
	const struct rte_flow_item p_v6_dns[] = { ITEM(ETH, NULL, NULL), ITEM(IPV6, &d2, &dmask),
						  ITEM(UDP, &u53, &umask), END_ITEM };
	const struct rte_flow_action_queue q1 = { .index = 1 }, q2 = { .index = 2 },
					   q3 = { .index = 3 };
	const struct rte_flow_action a1[] = { ACT(QUEUE, &q1), END_ACT };
	const struct rte_flow_action a2[] = { ACT(QUEUE, &q2), END_ACT };
	const struct rte_flow_action a3[] = { ACT(QUEUE, &q3), END_ACT };
	const struct rte_flow_attr prio1 = { .ingress = 1, .priority = 1 };
	struct env *e = env_open();
	struct frame f;

	(void)state;
	env_flow(e, &t_attr_in, p_vlan, a1, false);
	env_flow(e, &prio1, p_v6, a2, false);
	env_flow(e, &t_attr_in, p_v6_dns, a3, false);
	frame_udp4(&f, 7, 1, 2, 3, 4);
	assert_int_equal(env_send(e, &f, NULL), 1);
	frame_udp4(&f, 8, 1, 2, 3, 4);
	assert_int_equal(env_send(e, &f, NULL), -1);
	frame_udp6(&f, 2, 1000, 53);
	assert_int_equal(env_send(e, &f, NULL), 3);
	frame_udp6(&f, 2, 1000, 54);
	assert_int_equal(env_send(e, &f, NULL), 2);
	frame_udp6(&f, 3, 1000, 53);
	assert_int_equal(env_send(e, &f, NULL), -1);
	env_close(e);
}

/* Registers between groups: SET_TAG / SET_META in group 0, TAG / META items in group 1. */
static void
test_model_tag_meta(void **state)
{
	const struct rte_flow_action_set_tag tag = { .data = 0xbeef, .mask = 0xffff, .index = 3 };
	const struct rte_flow_action_set_meta meta = { .data = 0x1200, .mask = 0xff00 };
	const struct rte_flow_action_jump j1 = { .group = 1 };
	const struct rte_flow_action a0[] = { ACT(SET_TAG, &tag), ACT(SET_META, &meta),
					      ACT(JUMP, &j1), END_ACT };
	const struct rte_flow_item_tag t = { .data = 0xbeef, .index = 3 };
	const struct rte_flow_item_meta m = { .data = 0x1200 };
	const struct rte_flow_item p1[] = { ITEM(TAG, &t, NULL), ITEM(META, &m, NULL), END_ITEM };
	const struct rte_flow_item_meta m_other = { .data = 0x1300 };
	const struct rte_flow_item p2[] = { ITEM(META, &m_other, NULL), END_ITEM };
	const struct rte_flow_action_queue q1 = { .index = 1 }, q2 = { .index = 2 };
	const struct rte_flow_action a1[] = { ACT(QUEUE, &q1), END_ACT };
	const struct rte_flow_action a2[] = { ACT(QUEUE, &q2), END_ACT };
	const struct rte_flow_attr g1 = { .group = 1, .ingress = 1 };
	struct env *e = env_open();

	(void)state;
	env_flow(e, &t_attr_in, p_eth, a0, false);
	env_flow(e, &g1, p2, a2, false);
	env_flow(e, &g1, p1, a1, false);
	assert_int_equal(env_send_udp4(e, 1, 2, 3, 4, NULL), 1);
	env_close(e);
}

/*
 * SET_TAG / SET_META with DROP: register writes change no packet byte, so
 * they go with DROP (a header change does not); the frame is dropped.
 */
static void
test_model_set_tag_drop(void **state)
{
	const struct rte_flow_action_set_tag tag = { .data = 5, .mask = 0xff, .index = 0 };
	const struct rte_flow_action_set_meta meta = { .data = 9, .mask = 0xff };
	const struct rte_flow_action acts[] = { ACT(SET_TAG, &tag), ACT(SET_META, &meta),
						ACT(DROP, NULL), END_ACT };
	const struct rte_flow_item_ipv4 ip = { .hdr.dst_addr = RTE_BE32(0x0a000002) };
	const struct rte_flow_item items[] = { ITEM(ETH, NULL, NULL),
					       ITEM(IPV4, &ip, &ip_dst_mask), END_ITEM };
	const struct rte_flow_action_set_ipv4 sip = { .ipv4_addr = RTE_BE32(1) };
	const struct rte_flow_action bad[] = { ACT(SET_TAG, &tag), ACT(SET_IPV4_SRC, &sip),
					       ACT(DROP, NULL), END_ACT };
	const struct mlx5dm_flow_context ctx = { .nb_rx_queues = NB_Q };
	struct rte_flow_error err = { .message = NULL };
	struct mlx5dm_flow_spec spec;
	struct env *e = env_open();

	(void)state;
	env_default_rule(e);
	env_flow(e, &t_attr_in, items, acts, false);
	assert_int_equal(env_send_udp4(e, 0x0a000001, 0x0a000002, 1000, 2000, NULL), -1);
	assert_true(env_send_udp4(e, 0x0a000001, 0x0a000003, 1000, 2000, NULL) >= 0);
	assert_int_equal(mlx5dm_flow_translate(&ctx, &t_attr_in, items, bad, &spec, &err),
			 -ENOTSUP);
	assert_string_equal(err.message, "DROP cannot be combined with header changes");
	env_close(e);
}

/*
 * Create rule i of a kind until the device is full: the refusal says
 * ENOSPC (a resource of fixed size is full: no retry helps, EAGAIN would
 * say one does), leaves nothing behind, and a freed rule makes room again.
 */
typedef struct rte_flow *(*full_rule_fn)(struct env *e, unsigned int i,
					  struct rte_flow_error *err);

static void
env_fill_until_full(struct env *e, full_rule_fn make, unsigned int max, const char *what)
{
	struct rte_flow **f = calloc(max, sizeof(*f));
	struct rte_flow_error err;
	unsigned int n, i;

	assert_non_null(f);
	for (n = 0; n < max; n++) {
		memset(&err, 0, sizeof(err));
		rte_errno = 0;
		f[n] = make(e, n, &err);
		if (f[n] == NULL)
			break;
	}
	if (n == max || n == 0)
		fail_msg("%s: %u rules created, expected the device to fill up", what, n);
	if (rte_errno != ENOSPC)
		fail_msg("%s full after %u rules: rte_errno %d (%s), expected ENOSPC", what, n,
			 rte_errno, err.message != NULL ? err.message : "");
	assert_int_equal(err.type, RTE_FLOW_ERROR_TYPE_UNSPECIFIED);
	assert_non_null(err.message);
	/* Full stays full (no retry succeeds); a destroyed rule makes room. */
	assert_null(make(e, n, &err));
	assert_int_equal(rte_errno, ENOSPC);
	assert_int_equal(mlx5dm_flow_objs_destroy(&e->fp, f[n - 1], NULL), 0);
	f[n - 1] = make(e, n, &err);
	assert_non_null(f[n - 1]);
	for (i = 0; i < n; i++)
		assert_int_equal(mlx5dm_flow_objs_destroy(&e->fp, f[i], NULL), 0);
	free(f);
}

static struct rte_flow *
env_try(struct env *e, const struct rte_flow_attr *attr, const struct rte_flow_item *items,
	const struct rte_flow_action *actions, struct rte_flow_error *err)
{
	const struct mlx5dm_flow_context ctx = { .nb_rx_queues = NB_Q };
	struct mlx5dm_flow_spec spec;

	if (mlx5dm_flow_translate(&ctx, attr, items, actions, &spec, err) != 0)
		fail_msg("translation: %s", err->message);
	return mlx5dm_flow_objs_create(&e->fp, &spec, true, err);
}

/* One flow table per group. */
static struct rte_flow *
full_table(struct env *e, unsigned int i, struct rte_flow_error *err)
{
	const struct rte_flow_attr attr = { .group = i + 1, .ingress = 1 };
	const struct rte_flow_action_queue q = { .index = 0 };
	const struct rte_flow_action acts[] = { ACT(QUEUE, &q), END_ACT };

	return env_try(e, &attr, p_eth, acts, err);
}

/* One reformat context per distinct encap header (no ENCAP ICM: all are firmware's). */
static struct rte_flow *
full_reformat(struct env *e, unsigned int i, struct rte_flow_error *err)
{
	uint8_t hdr[50] = { 0x02, 0, 0, 0, 0, 0x01, 0x02, 0, 0, 0, 0, 0x02, 0x08, 0x00, 0x45 };
	const struct rte_flow_action_raw_encap enc = { .data = hdr, .size = sizeof(hdr) };
	const struct rte_flow_action acts[] = { ACT(RAW_ENCAP, &enc), END_ACT };

	hdr[48] = (uint8_t)(i >> 8);
	hdr[49] = (uint8_t)i;
	return env_try(e, &t_attr_out, p_eth, acts, err);
}

/* One flow counter per counted rule. */
static struct rte_flow *
full_counter(struct env *e, unsigned int i, struct rte_flow_error *err)
{
	const struct rte_flow_item_ipv4 ip = { .hdr.dst_addr = rte_cpu_to_be_32(0x0a000000 + i) };
	const struct rte_flow_item items[] = { ITEM(ETH, NULL, NULL),
					       ITEM(IPV4, &ip, &ip_dst_mask), END_ITEM };
	const struct rte_flow_action_queue q = { .index = 0 };
	const struct rte_flow_action acts[] = { ACT(COUNT, NULL), ACT(QUEUE, &q), END_ACT };

	return env_try(e, &t_attr_in, items, acts, err);
}

static void
test_model_full_is_enospc(void **state)
{
	struct mlx5dm_sim_config cfg;
	struct env *e;

	(void)state;
	mlx5dm_sim_config_default(&cfg);
	cfg.log_max_objects = 7;
	cfg.log_indirect_encap_sw_icm_size = 0;
	e = env_open_cfg(&cfg);
	env_fill_until_full(e, full_table, 1u << 8, "flow tables");
	env_fill_until_full(e, full_reformat, 1u << 8, "reformat contexts");
	env_close(e);
	mlx5dm_sim_config_default(&cfg);
	cfg.log_max_flow_counters = 9;
	e = env_open_cfg(&cfg);
	env_fill_until_full(e, full_counter, 1u << 10, "flow counters");
	env_close(e);
}

static unsigned int log_lines;
static char log_last[256];

static void
count_log(enum mlx5dm_log_level level, const char *module, const char *fmt, va_list ap)
{
	(void)level;
	(void)module;
	vsnprintf(log_last, sizeof(log_last), fmt, ap);
	log_lines++;
}

/*
 * Once ENCAP ICM is full every new encap header takes a firmware reformat
 * context: that fallback, taken per rule, logs a few lines in all, not
 * lines per rule.
 */
static void
test_model_fallback_logs_limited(void **state)
{
	const unsigned int n = (1u << 12) + 200; /* 4096 headers fit the smallest ENCAP ICM */
	struct rte_flow **f = calloc(n, sizeof(*f));
	struct mlx5dm_sim_config cfg;
	struct rte_flow_error err;
	struct env *e;
	unsigned int i;

	(void)state;
	assert_non_null(f);
	mlx5dm_sim_config_default(&cfg);
	cfg.log_indirect_encap_sw_icm_size = 18;
	e = env_open_cfg(&cfg);
	log_lines = 0;
	mlx5dm_log_set_hook(count_log);
	for (i = 0; i < n; i++) {
		f[i] = full_reformat(e, i, &err);
		assert_non_null(f[i]);
	}
	mlx5dm_log_set_hook(NULL);
	if (log_lines > 8)
		fail_msg("%u log lines for %u encap rules (last: %s)", log_lines, n, log_last);
	for (i = 0; i < n; i++)
		assert_int_equal(mlx5dm_flow_objs_destroy(&e->fp, f[i], NULL), 0);
	free(f);
	env_close(e);
}

/* Ingress SET_MAC_DST and MODIFY_FIELD (IPv4 src copied to dst): the bytes that arrive. */
static void
test_model_modify_bytes(void **state)
{
	const struct rte_flow_action_set_mac mac = { .mac_addr = { 0x0a, 0x0b, 0x0c, 0x0d,
								   0x0e, 0x0f } };
	const struct rte_flow_action_modify_field mf = {
		.operation = RTE_FLOW_MODIFY_SET,
		.dst = { .field = RTE_FLOW_FIELD_IPV4_DST },
		.src = { .field = RTE_FLOW_FIELD_IPV4_SRC },
		.width = 32,
	};
	const struct rte_flow_action_queue q0 = { .index = 0 };
	const struct rte_flow_item p_ip[] = { ITEM(ETH, NULL, NULL), ITEM(IPV4, NULL, NULL),
					      END_ITEM };
	const struct rte_flow_action acts[] = { ACT(SET_MAC_DST, &mac), ACT(MODIFY_FIELD, &mf),
						ACT(QUEUE, &q0), END_ACT };
	static const uint8_t new_mac[6] = { 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f };
	struct mlx5dm_sim_pkt got;
	struct env *e = env_open();

	(void)state;
	env_flow(e, &t_attr_in, p_ip, acts, false);
	assert_int_equal(env_send_udp4(e, 0xc0a80101, 0x0a000002, 3, 4, &got), 0);
	t_assert_bytes(got.data, new_mac, 6, "destination MAC");
	assert_int_equal(mlx5dm_prm_be32(got.data + 26), 0xc0a80101);
	assert_int_equal(mlx5dm_prm_be32(got.data + 30), 0xc0a80101);
	env_close(e);
}

/*
 * Rule i of round r of test_model_cached_rules(): queue 1 and mark 5 for
 * one half, 2 and 6 for the other, the second round in the other order.
 */
#define CACHED_N 8
#define CACHED_A(r, i) (((i) < CACHED_N / 2) == ((r) == 0))
#define CACHED_Q(r, i) (CACHED_A(r, i) ? 1 : 2)
#define CACHED_MARK(r, i) (CACHED_A(r, i) ? 5u : 6u)

static void
env_expect_cached(struct env *e, uint32_t dip, int q, uint32_t mark)
{
	struct mlx5dm_sim_pkt got;
	uint32_t id = 0;

	assert_int_equal(env_send_udp4(e, 0x01010101, dip, 1000, 2000, &got), q);
	assert_int_equal(mlx5dm_flow_tag_decode(got.flow_tag, &id), 2);
	assert_int_equal(id, mark);
}

/* Rules a template's setters made so far. */
static uint32_t
env_fast(const struct env *e)
{
	struct mlx5dm_flow_stats st;

	mlx5dm_flow_objs_stats(&e->fp, &st);
	return st.fast;
}

/*
 * Rules as flow-perf inserts them (one pattern shape, one address each):
 * their implicit template's setters make them, yet each one steers its own
 * address, and a changed queue or mark in the same list takes effect. All
 * of it again after the flows (and their matcher and template) are gone.
 * Then a rule of the same items with another mask, and one with a mask the
 * device refuses, are translated as without a template.
 */
static void
test_model_cached_rules(void **state)
{
	struct rte_flow_item_ipv4 ip = { .hdr.dst_addr = 0 };
	const struct rte_flow_item_ipv4 net_mask = { .hdr.dst_addr = RTE_BE32(0xffffff00) };
	const struct rte_flow_item_ipv4 bad_mask = { .hdr.packet_id = RTE_BE16(0xffff) };
	const struct rte_flow_item items[] = { ITEM(ETH, NULL, NULL),
					       ITEM(IPV4, &ip, &ip_dst_mask), END_ITEM };
	const struct rte_flow_item net[] = { ITEM(ETH, NULL, NULL), ITEM(IPV4, &ip, &net_mask),
					     END_ITEM };
	const struct rte_flow_item bad[] = { ITEM(ETH, NULL, NULL), ITEM(IPV4, &ip, &bad_mask),
					     END_ITEM };
	struct rte_flow_action_queue q = { .index = 0 };
	struct rte_flow_action_mark mark = { .id = 0 };
	const struct rte_flow_action acts[] = { ACT(MARK, &mark), ACT(QUEUE, &q), END_ACT };
	const struct mlx5dm_flow_context plain = { .nb_rx_queues = NB_Q };
	struct mlx5dm_flow_context port = plain;
	struct mlx5dm_flow_spec spec;
	struct rte_flow_error err[2];
	struct rte_flow *f[CACHED_N];
	struct env *e = env_open();
	unsigned int round, i;
	uint32_t fast;

	(void)state;
	for (round = 0; round < 2; round++) {
		fast = env_fast(e);
		for (i = 0; i < CACHED_N; i++) {
			ip.hdr.dst_addr = rte_cpu_to_be_32(0x0a000100 + i);
			q.index = CACHED_Q(round, i);
			mark.id = CACHED_MARK(round, i);
			f[i] = env_flow_cached(e, items, acts);
		}
		/* All but the very first rule, which compiles the template (queues, marks set). */
		assert_int_equal(env_fast(e) - fast, CACHED_N - 1);
		assert_int_equal(e->fp.st.templates, 1);
		assert_int_equal(e->fp.st.matchers, 1);
		/* The address is a whole masked field: the tags come from the items. */
		assert_int_equal(e->fp.st.tags, 1);
		for (i = 0; i < CACHED_N; i++)
			env_expect_cached(e, 0x0a000100 + i, CACHED_Q(round, i),
					  CACHED_MARK(round, i));
		assert_int_equal(env_send_udp4(e, 1, 0x0a000108, 1000, 2000, NULL), -1);
		for (i = 0; i < CACHED_N; i++)
			assert_int_equal(mlx5dm_flow_objs_destroy(&e->fp, f[i], NULL), 0);
		assert_int_equal(e->fp.st.matchers + e->fp.st.action_sets + e->fp.st.templates, 0);
		assert_int_equal(e->fp.st.tags, 0);
		assert_int_equal(env_send_udp4(e, 1, 0x0a000100, 1000, 2000, NULL), -1);
	}
	/* Another mask: walked; a refused one: as without the cache (type, cause, message). */
	ip.hdr.dst_addr = RTE_BE32(0x0a000200);
	q.index = 3;
	env_flow_cached(e, net, acts);
	env_expect_cached(e, 0x0a000277, 3, mark.id);
	/* Its second rule takes the setters; part of a field goes through the match value. */
	fast = env_fast(e);
	ip.hdr.dst_addr = RTE_BE32(0x0a000300);
	env_flow_cached(e, net, acts);
	env_expect_cached(e, 0x0a000377, 3, mark.id);
	assert_int_equal(env_fast(e) - fast, 1);
	assert_int_equal(e->fp.st.tags, 0);
	assert_null(mlx5dm_flow_objs_make(&e->fp, &port, NULL, &t_attr_in, bad, acts, &err[0]));
	assert_int_equal(rte_errno, ENOTSUP);
	assert_int_equal(mlx5dm_flow_translate(&plain, &t_attr_in, bad, acts, &spec, &err[1]),
			 -ENOTSUP);
	assert_int_equal(err[0].type, err[1].type);
	assert_ptr_equal(err[0].cause, &bad[1]);
	assert_ptr_equal(err[0].cause, err[1].cause);
	assert_ptr_equal(err[0].message, err[1].message);
	env_close(e);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_model_default_rss),
		cmocka_unit_test(test_model_queue_mark_drop),
		cmocka_unit_test(test_model_jump_mark_item),
		cmocka_unit_test(test_model_count),
		cmocka_unit_test(test_model_egress_modify),
		cmocka_unit_test(test_model_vxlan_round_trip),
		cmocka_unit_test(test_model_rss_ports),
		cmocka_unit_test(test_model_vlan_push_pop),
		cmocka_unit_test(test_model_vlan_ipv6_priority),
		cmocka_unit_test(test_model_tag_meta),
		cmocka_unit_test(test_model_set_tag_drop),
		cmocka_unit_test(test_model_full_is_enospc),
		cmocka_unit_test(test_model_fallback_logs_limited),
		cmocka_unit_test(test_model_modify_bytes),
		cmocka_unit_test(test_model_cached_rules),
		cmocka_unit_test(test_model_ring_failure),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
