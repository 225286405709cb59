/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Encap on a NIC TX domain, end to end on the device model, with and
 * without ENCAP SW ICM: without it the header lives in a firmware packet
 * reformat context whose id the STE's INSERT_POINTER carries (SWS 8.1).
 * On a device that has encap ICM but refused it to the library (rdma-core
 * without the DM type), the firmware's context is a line of that memory.
 * Frames go NIC TX -> wire (loopback) -> NIC RX -> RQ and are checked byte
 * for byte (outer lengths and IPv4 checksum are the device's to fill in),
 * then decapsulated back on RX.
 */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <cmocka.h>

#include "mlx5dm_sim_priv.h"
#include "mlx5dm_steer_priv.h"
#include "steer_feat_env.h"

#define MAC_IN    0x020000000001ull   /* the inner frame's dmac (TX match) */
#define MAC_OUT   0x02a0a1a2a3a4ull   /* the outer dmac (RX match) */
#define MAC_SRC   0x02b0b1b2b3b4ull
#define VXLAN_HDR 50
#define GRE_HDR   38

/* Outer Ethernet + IPv4 carrying proto (lengths and checksum 0, as software writes them). */
static void
outer_eth_ipv4(uint8_t *h, size_t len, uint8_t proto)
{
	memset(h, 0, len);
	fenv_put_mac(h, MAC_OUT);
	fenv_put_mac(h + 6, MAC_SRC);
	h[12] = 0x08;
	h[14] = 0x45;
	h[22] = 64;
	h[23] = proto;
	mlx5dm_prm_put_be32(h + 26, 0xac100001);
	mlx5dm_prm_put_be32(h + 30, 0xac100002);
}

/* ... / UDP 50000 -> 4789 / VXLAN (I flag, VNI 0xabcd). */
static void
vxlan_hdr(uint8_t h[VXLAN_HDR])
{
	outer_eth_ipv4(h, VXLAN_HDR, 17);
	h[34] = 0xc3;
	h[35] = 0x50;
	h[36] = 0x12;
	h[37] = 0xb5;
	h[42] = 0x08;
	h[47] = 0xab;
	h[48] = 0xcd;
}

/* ... / GRE (IPv4): replaces the frame's own L2. */
static void
gre_hdr(uint8_t h[GRE_HDR])
{
	outer_eth_ipv4(h, GRE_HDR, 47);
	h[36] = 0x08;
}

/* What the wire carries: hdr (its lengths and checksum filled) followed by body. */
static uint16_t
expect_encap(const uint8_t *hdr, unsigned int hlen, const uint8_t *body, unsigned int blen,
	     uint8_t *exp)
{
	unsigned int len = hlen + blen;

	memcpy(exp, hdr, hlen);
	memcpy(exp + hlen, body, blen);
	exp[16] = (uint8_t)((len - 14) >> 8);
	exp[17] = (uint8_t)(len - 14);
	if (exp[23] == 17) {
		exp[38] = (uint8_t)((len - 34) >> 8);
		exp[39] = (uint8_t)(len - 34);
	}
	ipv4_csum_set(exp + 14);
	return (uint16_t)len;
}

/* The INSERT_POINTER action of the rule's STE (v1 double action, STE bytes 24..31). */
static void
check_insert_ptr(struct fenv *e, const struct mlx5dm_rule *r, unsigned int size,
		 uint32_t ptr)
{
	uint8_t ste[64], exp[8] = { 0 };

	assert_int_equal(fenv_icm_read(e, mlx5dm_ste_icm(mlx5dm_rule_last(r)), ste, 64), 0);
	mlx5dm_prm_set(exp, 0x000, 8, 0x0b);          /* action_id INSERT_POINTER */
	mlx5dm_prm_set(exp, 0x00a, 6, 0);             /* start_anchor: packet start */
	mlx5dm_prm_set(exp, 0x010, 7, 0);             /* start_offset */
	mlx5dm_prm_set(exp, 0x017, 6, size / 2);      /* size in 2-byte words */
	mlx5dm_prm_set(exp, 0x01d, 3, 1);             /* attributes: encap */
	mlx5dm_prm_set(exp, 0x020, 32, ptr);          /* pointer */
	assert_memory_equal(ste + 24, exp, 8);
}

/* The library's encap ICM; none on the device; the device's, refused to the library. */
enum encap_dev { ENCAP_DM, ENCAP_NO_ICM, ENCAP_DM_REFUSED };

/* Where the device reads the header: ENCAP ICM line, or firmware context (contexts live). */
static void
check_encap_data(struct fenv *e, const struct mlx5dm_action *a, const uint8_t *hdr,
		 unsigned int len, enum encap_dev dev, uint32_t contexts)
{
	bool sw_icm = dev == ENCAP_DM;
	const struct mlx5dm_sim_caps *caps = mlx5dm_sim_caps(e->sim);
	struct mlx5dm_res_stats rs;
	uint8_t got[128];

	mlx5dm_res_stats_get(mlx5dm_ctx_res(e->ctx), &rs);
	if (sw_icm) {
		assert_non_null(a->chunk);
		assert_null(a->fw_reformat);
		assert_int_equal(fenv_icm_read(e, caps->indirect_encap_icm_base +
						     64ull * a->ste.encap.index, got, len), 0);
		assert_int_equal(rs.reformats, 0);
	} else {
		assert_null(a->chunk);
		assert_non_null(a->fw_reformat);
		assert_int_equal(fenv_reformat_read(e, a->ste.encap.index, got, len),
				 0);
		assert_int_equal(rs.reformats, contexts);
	}
	assert_memory_equal(got, hdr, len);
	/* The firmware keeps the context in the device's encap ICM: the id is its line. */
	if (dev == ENCAP_DM_REFUSED)
		assert_int_equal(fenv_icm_read(e, caps->indirect_encap_icm_base +
						     64ull * a->ste.encap.index, got, len), 0);
	assert_memory_equal(got, hdr, len);
	assert_int_equal(a->ste.encap.size, len);
}

static void
encap_run(enum encap_dev dev)
{
	const struct mlx5dm_sim_caps *caps;
	bool sw_icm = dev == ENCAP_DM;
	uint8_t hdr[VXLAN_HDR], ghdr[GRE_HDR], got[FENV_FRAME_MAX], exp[FENV_FRAME_MAX];
	struct mlx5dm_action *encap, *encap3, *decap, *acts[2];
	struct mlx5dm_matcher *mtx, *mrx;
	struct mlx5dm_rule *rtx, *rrx;
	struct mlx5dm_sim_config cfg;
	struct mlx5dm_ctx_stats st;
	struct fenv *e;
	struct frame f;
	uint16_t len = 0, elen;
	uint32_t ctx_id;

	mlx5dm_sim_config_default(&cfg);
	if (dev == ENCAP_NO_ICM)
		cfg.log_indirect_encap_sw_icm_size = 0;
	cfg.refuse_encap_dm = dev == ENCAP_DM_REFUSED;
	e = fenv_open(&cfg);
	caps = mlx5dm_sim_caps(e->sim);
	assert_true(caps->indirect_encap_sw_icm == (dev != ENCAP_NO_ICM));
	assert_true((e->ctx->encap_pool != NULL) == (dev != ENCAP_NO_ICM));
	vxlan_hdr(hdr);
	encap = mlx5dm_action_reformat(e->tx, MLX5DM_REFORMAT_L2_TO_L2_TUNNEL, VXLAN_HDR, hdr);
	assert_non_null(encap);
	check_encap_data(e, encap, hdr, VXLAN_HDR, dev, 1);
	/* An encap is a NIC TX action. */
	assert_null(mlx5dm_action_reformat(e->rx, MLX5DM_REFORMAT_L2_TO_L2_TUNNEL, VXLAN_HDR,
					   hdr));
	assert_int_equal(errno, EOPNOTSUPP);

	mtx = fenv_dmac_matcher(e->tx_tbl);
	rtx = fenv_dmac_rule(mtx, MAC_IN, 1, &encap);
	check_insert_ptr(e, rtx, VXLAN_HDR, encap->ste.encap.index);
	mrx = fenv_dmac_matcher(e->rx_tbl);
	rrx = fenv_dmac_rule(mrx, MAC_OUT, 1, &e->to_q[1]);

	frame_udp4(&f, MAC_IN, MAC_SRC, 0x0a000001, 0x0a000002, 1000, 2000, 20);
	elen = expect_encap(hdr, VXLAN_HDR, frame_data(&f), f.len, exp);
	assert_int_equal(fenv_send(e, &f, got, &len), 1);
	assert_int_equal(len, elen);
	assert_memory_equal(got, exp, elen);
	/* Another inner dmac: no TX rule, no encap; nothing matches on RX: dropped. */
	frame_udp4(&f, MAC_IN + 1, MAC_SRC, 0x0a000001, 0x0a000002, 1000, 2000, 20);
	assert_int_equal(fenv_send(e, &f, NULL, NULL), -1);

	/* RX decapsulates: the original frame comes back. */
	assert_int_equal(mlx5dm_rule_destroy(rrx, 0), 0);
	decap = mlx5dm_action_reformat(e->rx, MLX5DM_REFORMAT_L2_TUNNEL_TO_L2, 0, NULL);
	assert_non_null(decap);
	acts[0] = decap;
	acts[1] = e->to_q[0];
	rrx = fenv_dmac_rule(mrx, MAC_OUT, 2, acts);
	frame_udp4(&f, MAC_IN, MAC_SRC, 0x0a000001, 0x0a000002, 1000, 2000, 20);
	memcpy(exp, frame_data(&f), f.len);
	assert_int_equal(fenv_send(e, &f, got, &len), 0);
	assert_int_equal(len, f.len);
	assert_memory_equal(got, exp, f.len);
	assert_int_equal(mlx5dm_rule_destroy(rrx, 0), 0);
	assert_int_equal(mlx5dm_action_destroy(decap), 0);
	rrx = fenv_dmac_rule(mrx, MAC_OUT, 1, &e->to_q[1]);

	/* L2 to L3 tunnel: the frame's Ethernet header is replaced. */
	assert_int_equal(mlx5dm_rule_destroy(rtx, 0), 0);
	gre_hdr(ghdr);
	encap3 = mlx5dm_action_reformat(e->tx, MLX5DM_REFORMAT_L2_TO_L3_TUNNEL, GRE_HDR, ghdr);
	assert_non_null(encap3);
	check_encap_data(e, encap3, ghdr, GRE_HDR, dev, 2);
	rtx = fenv_dmac_rule(mtx, MAC_IN, 1, &encap3);
	frame_udp4(&f, MAC_IN, MAC_SRC, 0x0a000001, 0x0a000002, 1000, 2000, 20);
	elen = expect_encap(ghdr, GRE_HDR, frame_data(&f) + 14, f.len - 14u, exp);
	assert_int_equal(fenv_send(e, &f, got, &len), 1);
	assert_int_equal(len, elen);
	assert_memory_equal(got, exp, elen);

	/* Destroy: the firmware context goes with the action. */
	ctx_id = encap->ste.encap.index;
	assert_int_equal(mlx5dm_action_destroy(encap), 0);
	if (!sw_icm)
		assert_int_equal(fenv_reformat_read(e, ctx_id, got, 2), -ENOENT);
	if (dev == ENCAP_DM_REFUSED) {
		/* Freed with the context: the line reads as zeros. */
		assert_int_equal(fenv_icm_read(e, caps->indirect_encap_icm_base + 64ull * ctx_id,
					       got, VXLAN_HDR), 0);
		for (elen = 0; elen < VXLAN_HDR; elen++)
			assert_int_equal(got[elen], 0);
	}
	assert_int_equal(mlx5dm_rule_destroy(rtx, 0), 0);
	assert_int_equal(mlx5dm_rule_destroy(rrx, 0), 0);
	assert_int_equal(mlx5dm_action_destroy(encap3), 0);
	assert_int_equal(mlx5dm_matcher_destroy(mtx), 0);
	assert_int_equal(mlx5dm_matcher_destroy(mrx), 0);
	/* Without ENCAP ICM none was ever allocated from the device. */
	assert_int_equal(mlx5dm_ctx_stats_get(e->ctx, &st), 0);
	assert_true((st.icm[MLX5DM_ICM_ENCAP].dm_bytes != 0) == sw_icm);
	fenv_close(e);
}

static void
test_encap_sw_icm(void **state)
{
	(void)state;
	encap_run(ENCAP_DM);
}

static void
test_encap_reformat_context(void **state)
{
	(void)state;
	encap_run(ENCAP_NO_ICM);
}

/*
 * The device has encap ICM but the library cannot have it (refuse_encap_dm
 * stands for rdma-core < 50): the header goes to a firmware context, which
 * the device's encap walk finds like any other line, and frames arrive
 * encapsulated byte for byte.
 */
static void
test_encap_dm_refused_frames(void **state)
{
	(void)state;
	encap_run(ENCAP_DM_REFUSED);
}

/* Above max_encap_header_size: refused before the firmware is asked; nothing left behind. */
static void
test_encap_refused(void **state)
{
	struct mlx5dm_sim_config cfg;
	struct mlx5dm_res_stats rs;
	struct mlx5dm_action *a;
	uint8_t hdr[64] = { 0 };
	struct fenv *e;

	(void)state;
	mlx5dm_sim_config_default(&cfg);
	cfg.log_indirect_encap_sw_icm_size = 0;
	cfg.max_encap_header_size = 40;
	e = fenv_open(&cfg);
	assert_null(mlx5dm_action_reformat(e->tx, MLX5DM_REFORMAT_L2_TO_L2_TUNNEL, 42, hdr));
	assert_int_equal(errno, EINVAL);
	mlx5dm_res_stats_get(mlx5dm_ctx_res(e->ctx), &rs);
	assert_int_equal(rs.reformats, 0);
	a = mlx5dm_action_reformat(e->tx, MLX5DM_REFORMAT_L2_TO_L2_TUNNEL, 40, hdr);
	assert_non_null(a);
	mlx5dm_res_stats_get(mlx5dm_ctx_res(e->ctx), &rs);
	assert_int_equal(rs.reformats, 1);
	assert_int_equal(mlx5dm_action_destroy(a), 0);
	fenv_close(e);
}

/* alloc_dm calls of the ENCAP type, and the library's log lines at WARNING and above. */
static const struct mlx5dm_dev_ops *real_ops;
static unsigned int encap_dm_calls, loud_lines;

static struct ibv_dm *
count_alloc_dm(struct ibv_context *ctx, struct ibv_alloc_dm_attr *dm_attr,
	       struct mlx5dv_alloc_dm_attr *mlx5_dm_attr)
{
	if (mlx5_dm_attr->type == MLX5DV_DM_TYPE_ENCAP_SW_ICM)
		encap_dm_calls++;
	return real_ops->alloc_dm(ctx, dm_attr, mlx5_dm_attr);
}

static void
count_log(enum mlx5dm_log_level level, const char *module, const char *fmt, va_list ap)
{
	(void)module;
	(void)fmt;
	(void)ap;
	if (level <= MLX5DM_LOG_WARNING)
		loud_lines++;
}

#define NB_ENCAPS 16

/*
 * NB_ENCAPS encap actions on a context whose ENCAP SW ICM cannot be had;
 * returns how many ENCAP DMs were asked for and how many loud log lines
 * came after the first action. Every action works (firmware context).
 */
static void
encap_unavailable(struct mlx5dm_dev *dev, unsigned int *dm_calls, unsigned int *later_lines)
{
	struct mlx5dm_action *a[NB_ENCAPS];
	struct mlx5dm_ctx_attr cattr = { .nb_queues = 1 };
	const struct mlx5dm_dev_ops *saved = dev->ops;
	struct mlx5dm_dev_ops ops = *dev->ops;
	struct mlx5dm_res_stats rs;
	struct mlx5dm_domain *tx;
	struct mlx5dm_ctx *ctx;
	uint8_t hdr[VXLAN_HDR];
	unsigned int i;

	real_ops = dev->ops;
	ops.alloc_dm = count_alloc_dm;
	dev->ops = &ops;
	encap_dm_calls = 0;
	ctx = mlx5dm_ctx_open(dev, &cattr);
	assert_non_null(ctx);
	tx = mlx5dm_domain_create(ctx, MLX5DM_DOMAIN_NIC_TX);
	assert_non_null(tx);
	vxlan_hdr(hdr);
	for (i = 0; i < NB_ENCAPS; i++) {
		if (i == 1) {
			loud_lines = 0;
			mlx5dm_log_set_hook(count_log);
		}
		hdr[48] = (uint8_t)i;
		a[i] = mlx5dm_action_reformat(tx, MLX5DM_REFORMAT_L2_TO_L2_TUNNEL, VXLAN_HDR, hdr);
		assert_non_null(a[i]);
	}
	mlx5dm_log_set_hook(NULL);
	*dm_calls = encap_dm_calls;
	*later_lines = loud_lines;
	mlx5dm_res_stats_get(mlx5dm_ctx_res(ctx), &rs);
	assert_int_equal(rs.reformats, NB_ENCAPS);
	for (i = 0; i < NB_ENCAPS; i++)
		assert_int_equal(mlx5dm_action_destroy(a[i]), 0);
	assert_int_equal(mlx5dm_domain_destroy(tx), 0);
	assert_int_equal(mlx5dm_ctx_close(ctx), 0);
	dev->ops = saved;
}

/*
 * The device reports ENCAP SW ICM but its stack refuses the DM type: the
 * first encap asks once, then every header goes to a firmware reformat
 * context without asking or logging again.
 */
static void
test_encap_dm_refused(void **state)
{
	struct mlx5dm_dev_attr dattr = { .transport = "sim" };
	struct mlx5dm_sim_config cfg;
	struct mlx5dm_dev *dev;
	unsigned int calls, lines;

	(void)state;
	mlx5dm_sim_config_default(&cfg);
	cfg.refuse_encap_dm = true;
	dattr.config = &cfg;
	dev = mlx5dm_dev_open(&dattr);
	assert_non_null(dev);
	encap_unavailable(dev, &calls, &lines);
	assert_true(calls <= 1);
	assert_int_equal(lines, 0);
	mlx5dm_dev_close(dev);
}

/*
 * On the hardware transport, ENCAP SW ICM needs an rdma-core that has the
 * DM type at build time: without it the context never asks (the model
 * stands in for the device, reporting the region and giving it out).
 */
static void
test_encap_dm_build(void **state)
{
	struct mlx5dm_dev_attr dattr = { .transport = "sim" };
	struct mlx5dm_dev *dev, hw;
	unsigned int calls, lines;

	(void)state;
	dev = mlx5dm_dev_open(&dattr);
	assert_non_null(dev);
	hw = *dev;
	hw.transport = mlx5dm_dev_transport_find("hw");
	if (MLX5DM_HAVE_DM_TYPE_ENCAP_SW_ICM) {
		skip();
	} else {
		encap_unavailable(&hw, &calls, &lines);
		assert_int_equal(calls, 0);
		assert_int_equal(lines, 0);
	}
	mlx5dm_dev_close(dev);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_encap_sw_icm),
		cmocka_unit_test(test_encap_reformat_context),
		cmocka_unit_test(test_encap_refused),
		cmocka_unit_test(test_encap_dm_refused),
		cmocka_unit_test(test_encap_dm_refused_frames),
		cmocka_unit_test(test_encap_dm_build),
	};

	return cmocka_run_group_tests_name("steer_feat_encap", tests, NULL, NULL);
}
