/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The device-resource layer of the steering library (private to lib/steer):
 * the firmware objects that SW-owned steering needs around its ICM.
 *
 *  - flow tables: a CREATE_FLOW_TABLE object per SW-owned table, whose ICM
 *    root is the table's start anchor (the firmware must know the table so
 *    that root rules and jumps can name it);
 *  - the root connection: one match-all rule in the kernel/firmware-owned
 *    root table of a direction, forwarding (DEST_DEVX) to a SW-owned table;
 *  - receive objects: RQ (with its CQ), RQT, TIR - a TIR's ICM address is
 *    the final hit address of an STE delivering to it;
 *  - flow counter bulks (ALLOC/QUERY_FLOW_COUNTER): an STE counts into
 *    counter id = bulk id + offset;
 *  - modify-header argument objects (general object 0x23) carved into
 *    pools of 1/2/4/8 64-byte units: an STE names argument id = object id
 *    + unit offset;
 *  - packet reformat contexts (ALLOC_PACKET_REFORMAT_CONTEXT): encap data
 *    kept by the firmware when the device has no ENCAP SW ICM;
 *  - SYNC_STEERING.
 *
 * Every object is created through the device boundary (DEVX), so the same
 * code runs on hardware and on the model. A device error becomes -errno
 * (rdma-core's status -> errno mapping) and one log line naming the
 * command, its status and syndrome; a failed call leaves nothing behind.
 *
 * Threading: every function may be called from any thread. The context
 * mutex guards the shared state (argument pools, lazily allocated UAR,
 * root connections); objects themselves must not be destroyed while
 * another thread uses them (the steering core's refcounts ensure it).
 *
 * Contract with the steering core: struct mlx5dm_ctx (mlx5dm_steer.h)
 * begins with a struct mlx5dm_res_ctx, so the public resource functions
 * (mlx5dm_rq_*, mlx5dm_tir_*, mlx5dm_counters_*) reach it from the ctx
 * pointer alone (mlx5dm_ctx_res()).
 */

#ifndef _MLX5DM_RES_H_
#define _MLX5DM_RES_H_

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/queue.h>

#include "mlx5dm_dev.h"
#include "mlx5dm_steer.h"

/* What the resource layer needs from the caller: the device and a few caps. */
struct mlx5dm_res_attr {
	struct mlx5dm_dev *dev;
	struct ibv_pd *pd;              /* NULL: the context allocates its own */
	struct mlx5dv_devx_uar *uar;    /* for RQ CQs; NULL: allocated on the first RQ */
	uint16_t vhca_id;               /* cmd_hca_cap.vhca_id (logs; the core's GVMI) */
	uint32_t eqn;                   /* completion EQ of RQ CQs (mlx5dv_devx_query_eqn) */
	uint8_t rq_ts_format;           /* cmd_hca_cap.rq_ts_format */
	/* Modify-header argument objects (cmd_hca_cap). */
	bool arg_supported;             /* general_obj_types has 1 << 0x23 */
	uint8_t log_arg_granularity;    /* log_header_modify_argument_granularity */
	uint8_t log_arg_max_alloc;      /* log_header_modify_argument_max_alloc */
	/* Flow counter bulk sizes. */
	uint8_t fc_bulk_bitmap;         /* cmd_hca_cap.flow_counter_bulk_alloc: bit k = 128 << k */
	uint8_t log_max_fc_bulk;        /* cmd_hca_cap_2.flow_counter_bulk_log_max_alloc; 0: none */
};

/* Objects alive, for leak checks and stats. */
struct mlx5dm_res_stats {
	uint32_t fts;
	uint32_t roots;         /* root rules installed */
	uint32_t rqs;
	uint32_t sqs;
	uint32_t tirs;
	uint32_t counter_bulks;
	uint32_t arg_objs;      /* argument general objects (incl. cached empty ones) */
	uint32_t args;          /* argument slots handed out */
	uint32_t reformats;     /* packet reformat contexts */
	uint32_t mrs;           /* datapath memory regions */
};

/* Argument slot sizes: 1, 2, 4, 8 units (<= 8, 16, 32, 64 modify actions). */
#define MLX5DM_RES_ARG_CLASSES 4
#define MLX5DM_RES_ARG_MAX_ACTIONS 64
#define MLX5DM_RES_ARG_ACTIONS_PER_UNIT 8

struct mlx5dm_res_arg_obj;
LIST_HEAD(mlx5dm_res_arg_obj_list, mlx5dm_res_arg_obj);

/* One pool per slot size. */
struct mlx5dm_res_arg_pool {
	unsigned int log_units;                    /* slot = 2^log_units units */
	struct mlx5dm_res_arg_obj_list avail;      /* objects with a free slot */
	struct mlx5dm_res_arg_obj_list full;
	uint32_t nempty;                           /* objects with no slot in use */
};

struct mlx5dm_res_ctx {
	struct mlx5dm_dev *dev;
	struct ibv_pd *pd;
	uint32_t pdn;
	uint32_t tdn;                 /* transport domain of the TIRs */
	struct mlx5dv_devx_obj *td;
	struct mlx5dv_devx_uar *uar;
	struct mlx5dv_devx_obj *tis;  /* of the datapath SQs, made with the first one */
	uint32_t tisn;
	uint32_t inline_min;          /* inline header bytes the SQs' WQEs must carry */
	bool own_pd;
	bool own_uar;
	struct mlx5dm_res_attr attr;  /* as given (pd/uar fields not used after init) */
	uint8_t log_arg_obj_range;    /* units per argument object, log2 */
	pthread_mutex_t lock;
	struct mlx5dm_res_arg_pool arg_pools[MLX5DM_RES_ARG_CLASSES];
	struct mlx5dm_res_stats live; /* updated atomically */
};

/* The resource context of a steering context (see the contract above); NULL for NULL. */
static inline struct mlx5dm_res_ctx *
mlx5dm_ctx_res(struct mlx5dm_ctx *ctx)
{
	return (struct mlx5dm_res_ctx *)(void *)ctx;
}

/* ---- context (mlx5dm_steer_res_ctx.c) ---- */

/*
 * Allocate the PD (unless given) and resolve its number, allocate the
 * transport domain, set up the argument pools. 0 or -errno.
 */
int mlx5dm_res_ctx_init(struct mlx5dm_res_ctx *res, const struct mlx5dm_res_attr *attr);
/* -EBUSY (and nothing freed) while objects other than cached argument objects live. */
int mlx5dm_res_ctx_fini(struct mlx5dm_res_ctx *res);
void mlx5dm_res_stats_get(struct mlx5dm_res_ctx *res, struct mlx5dm_res_stats *st);

/* PD of the steering objects (send rings register their MRs in it too). */
struct ibv_pd *mlx5dm_res_pd(const struct mlx5dm_res_ctx *res);
uint32_t mlx5dm_res_pdn(const struct mlx5dm_res_ctx *res);

/* SYNC_STEERING: the device drops what it cached of steering ICM. 0 or -errno. */
int mlx5dm_res_sync_steering(struct mlx5dm_res_ctx *res);

/* ---- flow tables (mlx5dm_steer_res_ft.c) ---- */

struct mlx5dm_res_ft;

/*
 * A SW-owned flow table of a domain at level (1..255; rdma-core creates all
 * its SW tables at max_ft_level - 1, the caller picks). icm_root_0 is the
 * ICM address of the table's start anchor (RX side for FDB), icm_root_1 the
 * TX-side anchor of an FDB table (ignored otherwise). The anchors must be
 * written before the call: from here on the device may walk them.
 */
int mlx5dm_res_ft_create(struct mlx5dm_res_ctx *res, enum mlx5dm_domain_type type,
			 uint32_t level, uint64_t icm_root_0, uint64_t icm_root_1,
			 struct mlx5dm_res_ft **out);
/* -EBUSY (device) while a root rule points at it; the table then stays. */
int mlx5dm_res_ft_destroy(struct mlx5dm_res_ft *ft);
uint32_t mlx5dm_res_ft_id(const struct mlx5dm_res_ft *ft);
/* QUERY_FLOW_TABLE: the ICM roots as the device knows them. */
int mlx5dm_res_ft_query(struct mlx5dm_res_ft *ft, uint64_t *icm_root_0, uint64_t *icm_root_1);
/* The DEVX object (what a root rule's DEST_DEVX action names). */
struct mlx5dv_devx_obj *mlx5dm_res_ft_obj(const struct mlx5dm_res_ft *ft);

/* ---- root-table connection (mlx5dm_steer_res_root.c) ---- */

/*
 * The entry rule of a domain: a match-all rule in the root table forwarding
 * to a SW-owned table. Embedded in the domain; calls on one root are
 * serialised by the context lock.
 */
struct mlx5dm_res_root {
	struct mlx5dm_res_ctx *res;
	enum mlx5dm_domain_type type;
	uint16_t priority;                 /* < 0xffff: slots use priority and priority + 1 */
	unsigned int slot;                 /* priority offset of the installed rule */
	struct mlx5dv_flow_matcher *matcher;
	struct ibv_flow *flow;
	struct mlx5dm_res_ft *ft;          /* current target, NULL when none */
};

void mlx5dm_res_root_init(struct mlx5dm_res_root *root, struct mlx5dm_res_ctx *res,
			  enum mlx5dm_domain_type type, uint16_t priority);
/*
 * Point the domain at ft (NULL: remove the rule). A replacement is
 * make-before-break: the new rule goes in at the other priority slot before
 * the old one is removed, so traffic never falls to the default meanwhile.
 */
int mlx5dm_res_root_set(struct mlx5dm_res_root *root, struct mlx5dm_res_ft *ft);

/* Host memory registered with the device (queue buffers, doorbell records). */
struct mlx5dm_res_umem {
	uint8_t *buf;
	size_t size;
	struct mlx5dv_devx_umem *umem;
};

int mlx5dm_res_umem_alloc(struct mlx5dm_res_ctx *res, struct mlx5dm_res_umem *u, size_t size);
void mlx5dm_res_umem_free(struct mlx5dm_res_ctx *res, struct mlx5dm_res_umem *u);

/*
 * ---- receive objects (mlx5dm_steer_res_rq.c, mlx5dm_steer_res_tir.c) ----
 * mlx5dm_rq_create/mlx5dm_tir_create (mlx5dm_steer.h) are these on
 * mlx5dm_ctx_res(ctx); destroy with mlx5dm_rq_destroy/mlx5dm_tir_destroy.
 */

#define MLX5DM_RES_RQ_LOG_MAX 16   /* log_size of an RQ: 1..16 */
#define MLX5DM_RES_RQT_MAX 256     /* RQs of one TIR */

struct mlx5dm_rq *mlx5dm_res_rq_create(struct mlx5dm_res_ctx *res, uint32_t log_size);
uint32_t mlx5dm_res_rq_cqn(const struct mlx5dm_rq *rq);

/* The UAR named by CQs and SQs: given at init, or allocated once (NC, else BF). */
struct mlx5dv_devx_uar *mlx5dm_res_uar(struct mlx5dm_res_ctx *res);

#define MLX5DM_RES_CQE_BYTES 64u

/* Mark the 2^log_size CQEs of buf invalid (opcode 0xf, owner 0). */
void mlx5dm_res_cq_invalidate(struct mlx5dm_res_umem *buf, uint32_t log_size);
/*
 * CREATE_CQ of 2^log_size 64-byte CQEs in buf, its doorbell record at
 * dbr_off of dbr, on uar_page. 0 or -errno (logged as what).
 */
int mlx5dm_res_cq_create(struct mlx5dm_res_ctx *res, uint32_t log_size, uint32_t uar_page,
			 const struct mlx5dm_res_umem *buf, const struct mlx5dm_res_umem *dbr,
			 uint32_t dbr_off, const char *what, struct mlx5dv_devx_obj **cq,
			 uint32_t *cqn);

/*
 * ---- send queues (mlx5dm_steer_res_sq.c) ----
 * The context's TIS (made with the first SQ, destroyed by ctx_fini).
 */
int mlx5dm_res_tis_fini(struct mlx5dm_res_ctx *res);

/* mlx5dm_mr_reg (mlx5dm_steer.h) on a resource context (mlx5dm_steer_res_mr.c). */
struct mlx5dm_mr *mlx5dm_res_mr_reg(struct mlx5dm_res_ctx *res, void *addr, size_t len);

struct mlx5dm_tir *mlx5dm_res_tir_create(struct mlx5dm_res_ctx *res, const uint32_t *rqns,
					 uint32_t nb_rqns, const struct mlx5dm_rss_attr *rss);
uint32_t mlx5dm_res_tir_number(const struct mlx5dm_tir *tir);
/* The TIR's ICM address: the hit address of an STE delivering to it. */
uint64_t mlx5dm_res_tir_icm_addr(const struct mlx5dm_tir *tir);

/*
 * ---- flow counters (mlx5dm_steer_res_counter.c) ----
 * mlx5dm_counters_alloc (mlx5dm_steer.h) is the first on mlx5dm_ctx_res(ctx);
 * free with mlx5dm_counters_free; mlx5dm_counters_query reads one counter.
 */

struct mlx5dm_counters *mlx5dm_res_counters_alloc(struct mlx5dm_res_ctx *res, uint32_t log_n);
/* Counters usable (2^log_n as requested). */
uint32_t mlx5dm_res_counters_size(const struct mlx5dm_counters *c);
/* What an STE's counter_id holds for counter index: bulk id + index. */
uint32_t mlx5dm_res_counter_id(const struct mlx5dm_counters *c, uint32_t index);
/* Read counters [first, first + n) into packets[]/bytes[]. 0 or -errno. */
int mlx5dm_res_counters_query(struct mlx5dm_counters *c, uint32_t first, uint32_t n,
			      uint64_t *packets, uint64_t *bytes);

/* ---- modify-header arguments (mlx5dm_steer_res_arg.c) ---- */

struct mlx5dm_res_arg;

/*
 * A slot for the argument data of nb_actions modify actions (1..64):
 * ceil(nb_actions / 8) rounded up to 1, 2, 4 or 8 units. -ENOTSUP when the
 * device has no argument objects or the slot exceeds an object. The data is
 * written by the caller through FLOW_TBL_ACCESS WQEs (mlx5dm_send_arg_update
 * to id + i for the i-th unit).
 */
int mlx5dm_res_arg_alloc(struct mlx5dm_res_ctx *res, uint32_t nb_actions,
			 struct mlx5dm_res_arg **out);
/*
 * Return a slot. The caller must have made sure the device no longer reads
 * it (no rule using it remains reachable). An object whose slots are all
 * free is destroyed unless it is the pool's only empty one (kept to avoid
 * create/destroy churn).
 */
void mlx5dm_res_arg_free(struct mlx5dm_res_arg *arg);
/* Argument id (object id + unit offset) of the slot's first unit. */
uint32_t mlx5dm_res_arg_id(const struct mlx5dm_res_arg *arg);
uint32_t mlx5dm_res_arg_units(const struct mlx5dm_res_arg *arg);
/* Destroy the pools' empty argument objects (context teardown); 0 or the first -errno. */
int mlx5dm_res_arg_pools_fini(struct mlx5dm_res_ctx *res);

/* ---- packet reformat contexts (mlx5dm_steer_res_reformat.c) ---- */

struct mlx5dm_res_reformat;

/*
 * A firmware reformat context of reformat_type (MLX5DM_REFORMAT_TYPE_*,
 * mlx5dm_prm_res.h) holding len (2..1023) bytes of data; its
 * packet_reformat_id is what an STE's INSERT_POINTER names when the device
 * has no ENCAP SW ICM. 0 or -errno (the device's refusal mapped and logged).
 */
int mlx5dm_res_reformat_alloc(struct mlx5dm_res_ctx *res, unsigned int reformat_type,
			      const void *data, size_t len, struct mlx5dm_res_reformat **out);
/*
 * Destroy it; the caller must have made sure no reachable STE names it.
 * On a device error the context stays (and is still accounted): -errno.
 */
int mlx5dm_res_reformat_free(struct mlx5dm_res_reformat *r);
uint32_t mlx5dm_res_reformat_id(const struct mlx5dm_res_reformat *r);

/* ---- shared helpers (mlx5dm_steer_res_ctx.c) ---- */

/*
 * Turn a failed command into -errno and log it: err is the positive errno
 * the boundary reported (errno after a NULL create, or the return value of
 * general_cmd/obj_modify/obj_query); EREMOTEIO carries a firmware status in
 * out, mapped as rdma-core maps it.
 */
int mlx5dm_res_cmd_err(const char *cmd, const void *out, int err);

/*
 * Destroy a DEVX object (the transport builds the destroy command). On
 * failure the object stays, one line "<what> 0x<id> destroy failed: ..." is
 * logged and -errno returned.
 */
int mlx5dm_res_obj_destroy(struct mlx5dm_res_ctx *res, struct mlx5dv_devx_obj *obj,
			   const char *what, uint32_t id);


/* Live-object accounting. */
static inline void
mlx5dm_res_live_add(uint32_t *counter, int delta)
{
	__atomic_add_fetch(counter, (uint32_t)delta, __ATOMIC_RELAXED);
}

#endif /* _MLX5DM_RES_H_ */
