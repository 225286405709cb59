/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "mlx5dm_prm_match.h"
#include "mlx5dm_sim_priv.h"
#include "steer_feat_env.h"
#include "test_util.h"

static void
fenv_trace(void *arg, const char *line)
{
	(void)arg;
	fprintf(stderr, "trace: %s\n", line);
}

struct fenv *
fenv_open(const struct mlx5dm_sim_config *cfg)
{
	struct mlx5dm_dev_attr dattr = { .transport = "sim", .config = cfg };
	struct mlx5dm_ctx_attr cattr = { .nb_queues = 2 };
	struct fenv *e = calloc(1, sizeof(*e));
	unsigned int i;

	assert_non_null(e);
	/* Counts every host allocation of the library and the model from here on. */
	test_alloc_count_install();
	e->dev = mlx5dm_dev_open(&dattr);
	assert_non_null(e->dev);
	e->sim = mlx5dm_sim_of(e->dev);
	if (getenv("SIM_TRACE") != NULL)
		mlx5dm_sim_trace_set(e->sim, fenv_trace, NULL);
	e->ctx = mlx5dm_ctx_open(e->dev, &cattr);
	assert_non_null(e->ctx);
	e->rx = mlx5dm_domain_create(e->ctx, MLX5DM_DOMAIN_NIC_RX);
	e->tx = mlx5dm_domain_create(e->ctx, MLX5DM_DOMAIN_NIC_TX);
	assert_non_null(e->rx);
	assert_non_null(e->tx);
	e->rx_tbl = mlx5dm_table_create(e->rx, 1);
	e->tx_tbl = mlx5dm_table_create(e->tx, 1);
	assert_non_null(e->rx_tbl);
	assert_non_null(e->tx_tbl);
	assert_int_equal(mlx5dm_domain_set_root(e->rx, e->rx_tbl), 0);
	assert_int_equal(mlx5dm_domain_set_root(e->tx, e->tx_tbl), 0);
	for (i = 0; i < FENV_QUEUES; i++) {
		e->rq[i] = mlx5dm_rq_create(e->ctx, 6);
		assert_non_null(e->rq[i]);
		e->rqn[i] = mlx5dm_rq_number(e->rq[i]);
		e->tir[i] = mlx5dm_tir_create(e->ctx, &e->rqn[i], 1, NULL);
		assert_non_null(e->tir[i]);
		e->to_q[i] = mlx5dm_action_dest_tir(e->rx, e->tir[i]);
		assert_non_null(e->to_q[i]);
	}
	assert_int_equal(dp_open(&e->dp, e->ctx, e->dev, e->rq, FENV_QUEUES), 0);
	assert_int_equal(mlx5dm_ctx_stats_get(e->ctx, &e->start), 0);
	mlx5dm_res_stats_get(mlx5dm_ctx_res(e->ctx), &e->res_start);
	return e;
}

void
fenv_close(struct fenv *e)
{
	struct mlx5dm_res_stats rs;
	struct mlx5dm_ctx_stats st;
	unsigned int i;

	/* Back to the start: no ICM, argument slot, reformat context or rule left. */
	assert_int_equal(mlx5dm_ctx_stats_get(e->ctx, &st), 0);
	for (i = 0; i < 4; i++)
		assert_int_equal(st.icm[i].used_bytes, e->start.icm[i].used_bytes);
	assert_int_equal(st.rules, 0);
	assert_int_equal(st.matchers, 0);
	mlx5dm_res_stats_get(mlx5dm_ctx_res(e->ctx), &rs);
	assert_int_equal(rs.args, e->res_start.args);
	assert_int_equal(rs.reformats, e->res_start.reformats);
	dp_close(&e->dp);
	for (i = 0; i < FENV_QUEUES; i++) {
		assert_int_equal(mlx5dm_action_destroy(e->to_q[i]), 0);
		assert_int_equal(mlx5dm_tir_destroy(e->tir[i]), 0);
		assert_int_equal(mlx5dm_rq_destroy(e->rq[i]), 0);
	}
	assert_int_equal(mlx5dm_domain_set_root(e->rx, NULL), 0);
	assert_int_equal(mlx5dm_domain_set_root(e->tx, NULL), 0);
	assert_int_equal(mlx5dm_table_destroy(e->rx_tbl), 0);
	assert_int_equal(mlx5dm_table_destroy(e->tx_tbl), 0);
	assert_int_equal(mlx5dm_domain_destroy(e->rx), 0);
	assert_int_equal(mlx5dm_domain_destroy(e->tx), 0);
	assert_int_equal(mlx5dm_ctx_close(e->ctx), 0);
	mlx5dm_dev_close(e->dev);
	/* Nothing of the library or the model is left in host memory. */
	assert_int_equal(test_alloc_live(), 0);
	free(e);
}

uint16_t
ipv4_csum(const uint8_t *ip, unsigned int hlen)
{
	uint32_t sum = 0;
	unsigned int i;

	for (i = 0; i < hlen; i += 2)
		sum += (uint32_t)ip[i] << 8 | ip[i + 1];
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

void
ipv4_csum_set(uint8_t *ip)
{
	uint16_t csum;

	ip[10] = ip[11] = 0;
	csum = ipv4_csum(ip, (ip[0] & 0xfu) * 4u);
	ip[10] = (uint8_t)(csum >> 8);
	ip[11] = (uint8_t)csum;
}

void
frame_udp4(struct frame *f, uint64_t dmac, uint64_t smac, uint32_t sip, uint32_t dip,
	   uint16_t sport, uint16_t dport, unsigned int payload_len)
{
	uint8_t *p = frame_data(f);
	uint16_t ip_len = (uint16_t)(20 + 8 + payload_len);
	unsigned int i;

	memset(f->buf, 0, sizeof(f->buf));
	fenv_put_mac(p, dmac);
	fenv_put_mac(p + 6, smac);
	p[12] = 0x08;
	p[13] = 0x00;
	p[14] = 0x45;
	p[16] = (uint8_t)(ip_len >> 8);
	p[17] = (uint8_t)ip_len;
	p[22] = 64;             /* TTL */
	p[23] = 17;             /* UDP */
	mlx5dm_prm_put_be32(p + 26, sip);
	mlx5dm_prm_put_be32(p + 30, dip);
	ipv4_csum_set(p + 14);
	p[34] = (uint8_t)(sport >> 8);
	p[35] = (uint8_t)sport;
	p[36] = (uint8_t)(dport >> 8);
	p[37] = (uint8_t)dport;
	p[38] = (uint8_t)((8 + payload_len) >> 8);
	p[39] = (uint8_t)(8 + payload_len);
	for (i = 0; i < payload_len; i++)
		p[42 + i] = (uint8_t)(0xa0 + i);
	f->len = (uint16_t)(14 + ip_len);
}

int
fenv_send(struct fenv *e, struct frame *f, uint8_t *got, uint16_t *got_len)
{
	struct mlx5dm_sim_pkt r;
	int q = dp_send_pkt(&e->dp, frame_data(f), f->len, &r);

	if (q == -1)
		return -1;
	if (q < 0)
		fail_msg("frame lost in the model (%d)", q);
	if (got != NULL)
		memcpy(got, r.data, r.len);
	if (got_len != NULL)
		*got_len = r.len;
	return q;
}

void
fenv_mask_dmac(uint8_t *mask)
{
	mlx5dm_fte_set(mask, MLX5DM_FTE(outer, dmac_47_16), 0xffffffff);
	mlx5dm_fte_set(mask, MLX5DM_FTE(outer, dmac_15_0), 0xffff);
}

void
fenv_value_dmac(uint8_t *v, uint64_t mac)
{
	mlx5dm_fte_set(v, MLX5DM_FTE(outer, dmac_47_16), (uint32_t)(mac >> 16));
	mlx5dm_fte_set(v, MLX5DM_FTE(outer, dmac_15_0), (uint32_t)(mac & 0xffff));
}

struct mlx5dm_matcher *
fenv_dmac_matcher(struct mlx5dm_table *tbl)
{
	uint8_t mask[MLX5DM_MATCH_PARAM_SIZE] = { 0 };
	struct mlx5dm_matcher_attr ma = { .criteria = 1, .mask = mask };
	struct mlx5dm_matcher *m;

	fenv_mask_dmac(mask);
	m = mlx5dm_matcher_create(tbl, &ma, NULL);
	assert_non_null(m);
	return m;
}

struct mlx5dm_rule *
fenv_dmac_rule(struct mlx5dm_matcher *m, uint64_t mac, size_t n,
	       struct mlx5dm_action *const acts[])
{
	uint8_t v[MLX5DM_MATCH_PARAM_SIZE] = { 0 };
	struct mlx5dm_rule *r;

	fenv_value_dmac(v, mac);
	r = mlx5dm_rule_create(m, 0, v, n, acts);
	assert_non_null(r);
	return r;
}

int
fenv_icm_read(struct fenv *e, uint64_t icm_addr, void *dst, size_t len)
{
	mlx5dm_sim_sq_catch_up(e->sim);
	return mlx5dm_sim_icm_read(e->sim, icm_addr, dst, len);
}

int
fenv_arg_read(struct fenv *e, uint32_t arg_id, void *dst, size_t len)
{
	mlx5dm_sim_sq_catch_up(e->sim);
	return mlx5dm_sim_arg_read(e->sim, arg_id, dst, len);
}

int
fenv_reformat_read(struct fenv *e, uint32_t id, void *dst, size_t len)
{
	mlx5dm_sim_sq_catch_up(e->sim);
	return mlx5dm_sim_reformat_read(e->sim, id, dst, len);
}
