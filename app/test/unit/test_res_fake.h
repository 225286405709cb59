/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * A fake device boundary for the resource-layer tests, written from the
 * PRM (mlx5_ifc.h / DPDK mlx5_prm.h) with literal bit offsets - it never
 * uses lib/prm constants, so it checks them. It decodes every mailbox,
 * keeps objects with references as firmware does (an RQ named by a TIR
 * cannot be destroyed, a CQ must exist for an RQ, ...), answers like
 * firmware (ids, TIR ICM addresses, counter values, error status and
 * syndrome with EREMOTEIO), records every command's input for byte-level
 * checks, and has knobs to fail any command.
 */

#ifndef _TEST_RES_FAKE_H_
#define _TEST_RES_FAKE_H_

#include <stdbool.h>
#include <stdint.h>

#include "mlx5dm_osdep.h"
#include "mlx5dm_res.h"
#include "test_util.h"

#define FAKE_PDN 0x5d
#define FAKE_UAR_PAGE 0x2b
#define FAKE_TDN 0x7d01
#define FAKE_VHCA 0x3
#define FAKE_MAX_OBJS 1024
#define FAKE_MAX_UMEMS 64
#define FAKE_MBOX_MAX 1400
#define FAKE_REC_MAX 256
#define FAKE_MAX_FLOWS 8

/* First ids per kind (distinct ranges catch mix-ups). */
#define FAKE_FT_ID0 0x10
#define FAKE_CQ_ID0 0x400
#define FAKE_RQ_ID0 0x1100
#define FAKE_RQT_ID0 0x2200
#define FAKE_TIR_ID0 0x3300
#define FAKE_FC_ID0 0x8000
#define FAKE_ARG_ID0 0x200000
#define FAKE_PRC_ID0 0x7700
#define FAKE_LKEY0 0x51e0
#define FAKE_MAX_MRS 4

/* A TIR's ICM address: all three output pieces non-zero and distinct. */
#define FAKE_TIR_ICM(tirn) (0xa1b2c3d4e5f60000ull + ((uint64_t)(tirn) << 6))

/* Counter values the fake reports (64-bit, vary per id). */
#define FAKE_FC_PACKETS(id) ((uint64_t)(id) * 3 + 1)
#define FAKE_FC_BYTES(id) (((uint64_t)((id) & 0xf) << 32) + (uint64_t)(id) * 64)

struct fake_obj {
	bool live;
	uint16_t opcode;       /* the create opcode */
	uint32_t id;
	uint32_t range;        /* counters in a bulk, units of an argument object, reformat bytes */
	uint32_t refs;         /* objects that name this one */
	struct fake_obj *ref[2];  /* objects this one names (released on destroy) */
	struct fake_obj **rqt_rqs; /* RQT: the RQs of its list */
	uint32_t rqt_n;
	uint16_t umem_ids[2];  /* umems this one uses */
	uint8_t state;         /* RQ state */
	uint8_t table_type;    /* FT */
	uint64_t root[2];      /* FT: sw_owner_icm_root_0/1 */
};

struct fake_mr {
	struct ibv_mr mr;      /* first */
	bool live;
	struct ibv_pd *pd;
	int access;
};

struct fake_umem {
	struct mlx5dv_devx_umem u;
	bool live;
	void *addr;
	size_t size;
	uint32_t access;
	uint32_t refs;
};

/* One recorded command. */
struct fake_rec {
	uint16_t opcode;
	char how;              /* 'c' create, 'm' modify, 'q' query, 'g' general */
	size_t inlen;
	size_t outlen;
	uint8_t in[FAKE_MBOX_MAX];
};

struct fake_matcher {
	bool live;
	struct mlx5dv_flow_matcher_attr attr;
	size_t mask_sz;
	bool mask_zero;
	uint32_t flows;
};

struct fake_flow {
	struct ibv_flow ibv;   /* first */
	bool live;
	struct fake_matcher *m;
	size_t value_sz;
	bool value_zero;
	size_t nactions;
	int action_type;
	struct fake_obj *dest;
	uint64_t seq;
};

struct fake_res_dev {
	struct mlx5dm_dev dev;
	struct fake_obj objs[FAKE_MAX_OBJS];
	struct fake_umem umems[FAKE_MAX_UMEMS];
	struct fake_mr mrs[FAKE_MAX_MRS];
	struct fake_matcher matchers[FAKE_MAX_FLOWS];
	struct fake_flow flows[FAKE_MAX_FLOWS];
	struct fake_rec recs[FAKE_REC_MAX];
	unsigned int nrecs;
	uint32_t next_id[8];
	uint32_t next_fc, next_arg;
	struct mlx5dv_devx_uar uar;
	uint64_t flow_seq;
	/* Knobs. */
	uint16_t fail_opcode;      /* this opcode fails ... */
	unsigned int fail_skip;    /* ... after this many successes ... */
	uint8_t fail_status;       /* ... with this status (0: transport error fail_errno) */
	uint32_t fail_syndrome;
	int fail_errno;
	bool tir_no_icm;           /* CREATE_TIR answers ICM address 0 */
	bool fc_log_size;          /* ALLOC_FLOW_COUNTER accepts flow_counter_bulk_log_size */
	bool fail_pd, fail_init_obj, fail_uar_nc, fail_uar_all, fail_umem, fail_mr;
	int fail_matcher, fail_flow, fail_destroy_flow; /* errno to fail with once, 0 = work */
	unsigned int fail_flow_skip;
	/* Counters. */
	unsigned int live_objs, live_umems, live_matchers, live_flows, live_mrs;
	unsigned int pd_allocs, pd_frees, uar_allocs, uar_frees, syncs, destroys;
	unsigned int bad_calls;    /* calls on dead/unknown handles */
	unsigned int same_prio;    /* two live root rules of one direction at one priority */
	uint32_t root_active[16];  /* NIC RX target table id after each root change */
	unsigned int nroot_active;
};

extern struct fake_res_dev fres;

/* (Re)initialise the fake and install the counting allocator. */
void fres_init(void);
/* Asserts nothing is left alive on the device or on the host. */
void fres_fini(void);

/* Default resource attributes for the fake (caps of a ConnectX-6 Dx). */
struct mlx5dm_res_attr fres_attr(void);
/* A context on the fake (asserted), and its teardown (asserted). */
void fres_ctx(struct mlx5dm_res_ctx *res);
void fres_ctx_fini(struct mlx5dm_res_ctx *res);

/* The most recent recorded command with this opcode (asserted to exist). */
const struct fake_rec *fres_last(uint16_t opcode);
unsigned int fres_count(uint16_t opcode);
/* The whole recorded input must be exactly exp (len bytes). */
void fres_assert_mbox(const struct fake_rec *r, const uint8_t *exp, size_t len);
/* The one live umem of this size (asserted). */
struct fake_umem *fres_umem_by_size(size_t size);
/* The live object with this create opcode and id, or NULL. */
struct fake_obj *fres_obj(uint16_t opcode, uint32_t id);
/* Fail the n-th (1-based) next command of opcode with status/syndrome. */
void fres_fail(uint16_t opcode, unsigned int nth, uint8_t status, uint32_t syndrome);

/* Literal-offset mailbox writer for expected images. */
void fres_put(uint8_t *buf, unsigned int bit, unsigned int width, uint64_t v);

#endif /* _TEST_RES_FAKE_H_ */
