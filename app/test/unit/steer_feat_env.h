/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Environment of the steering feature tests (test_steer_feat_*.c): the
 * library on a device model configured by the test, NIC RX and TX domains
 * each with a root table, two receive queues behind TIRs, and frames sent
 * on the model's port (NIC TX -> loopback wire -> NIC RX -> RQ). Closing
 * checks that ICM usage, device objects and host memory are back to what
 * they were once the environment was up.
 */

#ifndef _STEER_FEAT_ENV_H_
#define _STEER_FEAT_ENV_H_

#include <stdbool.h>
#include <stdint.h>

#include "dp_test_util.h"
#include "mlx5dm_dev.h"
#include "mlx5dm_res.h"
#include "mlx5dm_sim.h"
#include "mlx5dm_steer.h"

#define FENV_QUEUES 2
#define FENV_FRAME_MAX 512
#define FENV_HEADROOM 128

struct fenv {
	struct mlx5dm_dev *dev;
	struct mlx5dm_sim *sim;
	struct mlx5dm_ctx *ctx;
	struct mlx5dm_domain *rx, *tx;
	struct mlx5dm_table *rx_tbl, *tx_tbl;  /* level 1, the domains' roots */
	struct mlx5dm_rq *rq[FENV_QUEUES];
	uint32_t rqn[FENV_QUEUES];
	struct mlx5dm_tir *tir[FENV_QUEUES];
	struct mlx5dm_action *to_q[FENV_QUEUES];  /* NIC RX: deliver to queue i */
	struct mlx5dm_ctx_stats start;
	struct mlx5dm_res_stats res_start;
	long host_start;
	struct dp dp;                           /* an SQ and the RQs' posted buffers */
};

/* Open with a model configuration (NULL: defaults); SIM_TRACE=1 prints packet walks. */
struct fenv *fenv_open(const struct mlx5dm_sim_config *cfg);
/* Everything the test created must be gone: checks usage, then closes. */
void fenv_close(struct fenv *e);

/* A frame in a buffer with headroom for the device to grow it. */
struct frame {
	uint8_t buf[FENV_HEADROOM + FENV_FRAME_MAX];
	uint16_t len;
};

static inline uint8_t *
frame_data(struct frame *f)
{
	return f->buf + FENV_HEADROOM;
}

/* Ethernet + IPv4 (TTL 64, checksum filled) + UDP with payload_len bytes 0xa0, 0xa1... */
void frame_udp4(struct frame *f, uint64_t dmac, uint64_t smac, uint32_t sip, uint32_t dip,
		uint16_t sport, uint16_t dport, unsigned int payload_len);
/* The one's complement checksum of an IPv4 header of hlen bytes (checksum field included). */
uint16_t ipv4_csum(const uint8_t *ip, unsigned int hlen);
/* Fill in the checksum of the IPv4 header at ip. */
void ipv4_csum_set(uint8_t *ip);

/*
 * Send f on the port: the queue index it arrived on (*got = the received
 * bytes, *got_len), or -1 if the device dropped it.
 */
int fenv_send(struct fenv *e, struct frame *f, uint8_t *got, uint16_t *got_len);

/*
 * What the device holds (mlx5dm_sim_icm_read, _arg_read, _reformat_read),
 * once it has executed every rule write rung so far: the device thread
 * runs beside the test, as a NIC does.
 */
int fenv_icm_read(struct fenv *e, uint64_t icm_addr, void *dst, size_t len);
int fenv_arg_read(struct fenv *e, uint32_t arg_id, void *dst, size_t len);
int fenv_reformat_read(struct fenv *e, uint32_t id, void *dst, size_t len);

/* Match parameter helpers. */
void fenv_mask_dmac(uint8_t *mask);
void fenv_value_dmac(uint8_t *v, uint64_t mac);

/* A dmac matcher in tbl, a rule for mac with the given actions. */
struct mlx5dm_matcher *fenv_dmac_matcher(struct mlx5dm_table *tbl);
struct mlx5dm_rule *fenv_dmac_rule(struct mlx5dm_matcher *m, uint64_t mac, size_t n,
				   struct mlx5dm_action *const acts[]);

static inline void
fenv_put_mac(uint8_t *p, uint64_t mac)
{
	unsigned int i;

	for (i = 0; i < 6; i++)
		p[i] = (uint8_t)(mac >> (40 - 8 * i));
}

#endif /* _STEER_FEAT_ENV_H_ */
