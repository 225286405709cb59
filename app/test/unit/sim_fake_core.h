/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * A fake core half of the device model for the engine's unit tests: it
 * implements the "provided by the core" functions of mlx5dm_sim_priv.h
 * over state the test builds by hand (ICM images as address -> bytes,
 * terminal addresses, TIRs, RQs, counters, argument objects).
 */

#ifndef _SIM_FAKE_CORE_H_
#define _SIM_FAKE_CORE_H_

#include <stdbool.h>
#include <stdint.h>

#include "mlx5dm_sim_priv.h"

#define FAKE_RQ_DEPTH 64
#define FAKE_FRAME_MAX 512

/* What an RQ received: the delivered descriptor and a copy of its bytes. */
struct fake_rx {
	struct mlx5dm_sim_pkt pkt;
	uint8_t data[FAKE_FRAME_MAX];
};

/* Default caps: ICM bases of the four types and the terminal addresses. */
#define FAKE_STE_BASE 0x100000000ull
#define FAKE_MODIFY_BASE 0x200000000ull
#define FAKE_PATTERN_BASE 0x300000000ull
#define FAKE_ENCAP_BASE 0x400000000ull
#define FAKE_RX_DROP 0x7f0000000ull
#define FAKE_TX_DROP 0x7f0000040ull
#define FAKE_TX_ALLOW 0x7f0000080ull
#define FAKE_VHCA 0x0002

struct mlx5dm_sim *fake_create(void);
void fake_destroy(struct mlx5dm_sim *sim);
struct mlx5dm_sim_caps *fake_caps(struct mlx5dm_sim *sim);

/* Map [base, base + size) as readable ICM (zero-filled); returns its bytes. */
uint8_t *fake_icm_map(struct mlx5dm_sim *sim, uint64_t base, size_t size);
void fake_icm_write(struct mlx5dm_sim *sim, uint64_t addr, const void *src, size_t len);

void fake_root_set(struct mlx5dm_sim *sim, enum mlx5dm_sim_dir dir, uint64_t icm_root);
void fake_terminal_add(struct mlx5dm_sim *sim, uint64_t addr, enum mlx5dm_sim_term t,
		       uint32_t tirn);
void fake_tir_add(struct mlx5dm_sim *sim, uint32_t tirn, const struct mlx5dm_sim_tir_info *ti);
void fake_rq_add(struct mlx5dm_sim *sim, uint32_t rqn, unsigned int depth, bool ready);
/* Number of frames rqn received; *rx (if not NULL) points at the i-th. */
unsigned int fake_rq_count(struct mlx5dm_sim *sim, uint32_t rqn);
const struct fake_rx *fake_rq_get(struct mlx5dm_sim *sim, uint32_t rqn, unsigned int i);
void fake_counter_add(struct mlx5dm_sim *sim, uint32_t id);
void fake_counter_get(struct mlx5dm_sim *sim, uint32_t id, uint64_t *packets, uint64_t *bytes);
/* Argument object: nb 64-byte units starting at id. */
uint8_t *fake_arg_add(struct mlx5dm_sim *sim, uint32_t id, unsigned int nb);

/* Packet reformat context id holding len header bytes (devices without ENCAP ICM). */
void fake_reformat_add(struct mlx5dm_sim *sim, uint32_t id, const void *data, size_t len);

/* The engine the fake core created with its instance. */
struct mlx5dm_sim_engine *fake_engine(struct mlx5dm_sim *sim);

#endif /* _SIM_FAKE_CORE_H_ */
