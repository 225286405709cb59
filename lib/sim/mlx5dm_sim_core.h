/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * Internal header of the model's core half (instance, ICM, DM, MRs, PRM
 * commands, firmware objects, queues). The engine never includes it: it
 * sees the core only through mlx5dm_sim_priv.h.
 *
 * Locking:
 *   sim->lock (rwlock, writer-preferring) is the instance lock. Every
 *   command and verbs-object operation holds it for writing; everything
 *   the datapath does (engine contract calls, queue execution, RQ
 *   writes) holds it for reading, so objects cannot vanish under a reader.
 *   Commands first take the device thread's exec mutex (see
 *   struct mlx5dm_sim_thread), so queues change only between its batches.
 *   No function ever takes it twice (no recursion): *_locked helpers
 *   expect the caller to hold it.
 *   ICM and argument lines are read lock-free (seqlock stripes, see
 *   mlx5dm_sim_icm.c); counters are atomics; an RQ is written under its own spinlock.
 */

#ifndef _MLX5DM_SIM_CORE_H_
#define _MLX5DM_SIM_CORE_H_

#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "mlx5dm_osdep.h"
#include "mlx5dm_sim_priv.h"
#include "mlx5dm_sim_prm.h"

#define MLX5DM_SIM_LOG "sim"

/*
 * ICM address map (bits 39:0; bits 63:48 carry the GVMI where the device
 * reports one). Every SW ICM type lives in its own 64 GiB window, aligned
 * so any power-of-two allocation inside keeps the STE pointer encoding
 * (rdma-core providers/mlx5/dr_ste.c) valid; terminal addresses (drop/allow/TIR) and
 * firmware-owned table roots sit in windows of their own, never inside DM.
 */
#define MLX5DM_SIM_WINDOW_SHIFT      36
#define MLX5DM_SIM_ICM_ADDR_MASK     ((1ull << 48) - 1)
#define MLX5DM_SIM_TERM_WINDOW       0x6u
#define MLX5DM_SIM_FWFT_WINDOW       0x7u
#define MLX5DM_SIM_TERM_RX_DROP_OFF  0x0000
#define MLX5DM_SIM_TERM_TX_DROP_OFF  0x0040
#define MLX5DM_SIM_TERM_TX_ALLOW_OFF 0x0080
#define MLX5DM_SIM_TERM_TIR_OFF      0x100000 /* TIR n at +64 * n */
/* E-Switch manager only (mlx5dm_sim_esw.c): FDB drop, uplink and vport entries. */
#define MLX5DM_SIM_TERM_FDB_DROP_RX_OFF 0x0100
#define MLX5DM_SIM_TERM_FDB_DROP_TX_OFF 0x0140
#define MLX5DM_SIM_TERM_UPLINK_RX_OFF   0x0180
#define MLX5DM_SIM_TERM_UPLINK_TX_OFF   0x01c0
#define MLX5DM_SIM_TERM_VPORT_RX_OFF    0x10000  /* vport n at +64 * n */
#define MLX5DM_SIM_TERM_VPORT_TX_OFF    0x20000
#define MLX5DM_SIM_LINE              64

/* Memory regions: the four SW ICM types plus the argument store. */
enum mlx5dm_sim_region_kind {
	MLX5DM_SIM_REGION_STE = 0,     /* MLX5DV_DM_TYPE_STEERING_SW_ICM (1) */
	MLX5DM_SIM_REGION_MODIFY,      /* HEADER_MODIFY_SW_ICM (2) */
	MLX5DM_SIM_REGION_PATTERN,     /* HEADER_MODIFY_PATTERN_SW_ICM (3) */
	MLX5DM_SIM_REGION_ENCAP,       /* ENCAP_SW_ICM (4) */
	MLX5DM_SIM_REGION_ARG,         /* modify-header argument units, by argument id */
	MLX5DM_SIM_REGION_NUM,
};

/* A bitmap with the kernel allocator's "first fit, aligned" search. */
struct mlx5dm_sim_bitmap {
	uint64_t *w;
	uint64_t nbits;
};

struct mlx5dm_sim_region {
	uint8_t *base;          /* host mapping */
	uint64_t size;          /* bytes; 0 = region not present */
	uint64_t icm_start;     /* device address of byte 0 (0 for ARG) */
	unsigned int log_block; /* allocation block */
	struct mlx5dm_sim_bitmap blocks; /* allocated blocks (read lock-free) */
	uint64_t live;          /* blocks allocated to DMs (read lock-free) */
	bool resident;          /* mapped by mlx5dm_resident_map (config icm_populate) */
};

/*
 * id -> object table: ids are base + slot, reused round-robin. live holds
 * the objects densely (count of them), so the device thread visits the
 * queues there are rather than every slot.
 */
struct mlx5dm_sim_id_table {
	void **slot;
	void **live;
	uint32_t *live_slot;    /* slot of live[i] */
	uint32_t *live_at;      /* index in live of the object in a slot */
	uint32_t cap;
	uint32_t max;
	uint32_t base;
	uint32_t cursor;
	int socket;             /* of its arrays */
	uint32_t count;
};

/* Object kinds (one id space each, as on the device). */
enum mlx5dm_sim_kind {
	MLX5DM_SIM_K_PD = 0,
	MLX5DM_SIM_K_MR,
	MLX5DM_SIM_K_DM,
	MLX5DM_SIM_K_UMEM,
	MLX5DM_SIM_K_UAR,
	MLX5DM_SIM_K_CQ,
	MLX5DM_SIM_K_QP,
	MLX5DM_SIM_K_TD,
	MLX5DM_SIM_K_RQ,
	MLX5DM_SIM_K_RQT,
	MLX5DM_SIM_K_TIR,
	MLX5DM_SIM_K_FT,
	MLX5DM_SIM_K_FG,
	MLX5DM_SIM_K_FTE,
	MLX5DM_SIM_K_FC,
	MLX5DM_SIM_K_ARG,
	MLX5DM_SIM_K_PRC,       /* packet reformat context */
	MLX5DM_SIM_K_TIS,
	MLX5DM_SIM_K_SQ,        /* datapath (raw packet) send queue */
	MLX5DM_SIM_K_NUM,
};

/* Header of every model object; refs counts objects that point at it. */
struct mlx5dm_sim_obj {
	uint32_t magic;
	uint8_t kind;           /* enum mlx5dm_sim_kind */
	uint32_t id;
	uint32_t refs;
	uint32_t aux[3];        /* what the destroy mailbox needs besides the id */
	struct mlx5dm_sim *sim;
};
#define MLX5DM_SIM_OBJ_MAGIC 0x53494d4fu

/* Flow counters: two-level table of atomics, chunks made on first use. */
#define MLX5DM_SIM_FC_LOG_MAX    20
#define MLX5DM_SIM_FC_LOG_CHUNK  12
#define MLX5DM_SIM_FC_CHUNKS     (1u << (MLX5DM_SIM_FC_LOG_MAX - MLX5DM_SIM_FC_LOG_CHUNK))
struct mlx5dm_sim_fc_slot {
	uint64_t packets;
	uint64_t bytes;
	uint32_t live;          /* allocated (1) or free (0) */
};

/* SYNC_STEERING grace period over engine walks (port_tx calls). */
struct mlx5dm_sim_sync {
	uint32_t epoch;
	uint64_t inflight[2];
	pthread_mutex_t mutex;
};

/*
 * The device thread (mlx5dm_sim_thread.c). exec is held while it runs
 * queues and by every command (before sim->lock), so a command never
 * changes a queue in the middle of a batch.
 */
struct mlx5dm_sim_thread {
	pthread_t th;
	pthread_mutex_t exec;
	struct mlx5dm_sim_tx *tx;       /* its Tx frame buffers */
	uint64_t stray_doorbells;       /* doorbell values naming no queue of their UAR */
	bool stop;
	bool running;
};

int mlx5dm_sim_thread_start(struct mlx5dm_sim *sim);
void mlx5dm_sim_thread_stop(struct mlx5dm_sim *sim);

#define MLX5DM_SIM_SEQ_STRIPES 4096

/* Completion EQs: one per completion vector, numbered from MLX5DM_SIM_EQN_BASE. */
#define MLX5DM_SIM_COMP_VECTORS 4
#define MLX5DM_SIM_EQN_BASE 8

struct mlx5dm_sim {
	struct ibv_device ibdev;        /* what vctx.context.device points at */
	/*
	 * vctx.context is handed out as the verbs context. Extended, as every
	 * rdma-core provider's, so verbs.h's inline calls (ibv_free_dm, ...)
	 * find their operations; the model leaves those empty (its callers
	 * use the ops table) and a test double may fill them.
	 */
	struct verbs_context vctx;
	struct mlx5dm_sim_config cfg;
	int socket;                     /* of its host memory: the device's */
	struct mlx5dm_sim_caps caps;
	uint8_t *cap_blob[MLX5DM_SIM_CAP_NUM]; /* QUERY_HCA_CAP answers, built once */
	pthread_rwlock_t lock;
	struct mlx5dm_sim_region region[MLX5DM_SIM_REGION_NUM];
	uint32_t seq[MLX5DM_SIM_SEQ_STRIPES];
	/* Versions of ICM lines (mlx5dm_sim_line_ver): unique per instance, moved by discards. */
	uint64_t icm_epoch;
	struct mlx5dm_sim_id_table tab[MLX5DM_SIM_K_NUM];
	struct mlx5dm_sim_bitmap fc_ids;
	/* ENCAP ICM lines of firmware reformat contexts: each line's context (obj id), 0 free. */
	uint32_t *prc_line_owner;
	uint64_t prc_first_line;        /* line index of the first one (from the region start) */
	uint32_t prc_lines;
	struct mlx5dm_sim_fc_slot *fc_chunk[MLX5DM_SIM_FC_CHUNKS];
	struct mlx5dm_sim_fc_slot *fc_mem;      /* every chunk's slots (huge region) */
	uint64_t root_cache[2];         /* per direction: ICM of the best root rule, 0 = none */
	void *root_rules;               /* list head, see mlx5dm_sim_fw_root.c */
	uint32_t root_matchers;         /* live root matchers */
	struct mlx5dm_sim_sync sync;
	struct mlx5dm_sim_engine *engine;
	struct mlx5dm_sim_thread dt;
	uint64_t sq_fail_in;            /* mlx5dm_sim_sq_fail_at(): WQEs left, 0 = off */
	struct mlx5dm_sim_esw *esw;     /* the E-Switch this function is on, or NULL */
	uint16_t vport;                 /* its vport there (0: the PF, the manager) */
	/*
	 * Manager: per direction, the FDB's entry: of the best FDB root rule,
	 * else of the table SET_FLOW_TABLE_ROOT named; 0 = none.
	 */
	uint64_t fdb_rule_root[2];
	uint64_t fdb_root[2];
	struct mlx5dm_sim_obj *fdb_root_ft;
};

static inline struct mlx5dm_sim *
mlx5dm_sim_from_ctx(struct ibv_context *ctx)
{
	return (struct mlx5dm_sim *)((uint8_t *)ctx - offsetof(struct mlx5dm_sim, vctx.context));
}

/* ---- bitmap (mlx5dm_sim_bitmap.c) ---- */
int mlx5dm_sim_bitmap_init(struct mlx5dm_sim_bitmap *bm, uint64_t nbits, int socket);
void mlx5dm_sim_bitmap_fini(struct mlx5dm_sim_bitmap *bm);
int64_t mlx5dm_sim_bitmap_find_area(const struct mlx5dm_sim_bitmap *bm, uint64_t n,
				    uint64_t align);
void mlx5dm_sim_bitmap_set(struct mlx5dm_sim_bitmap *bm, uint64_t start, uint64_t n, bool on);
bool mlx5dm_sim_bitmap_all_set(const struct mlx5dm_sim_bitmap *bm, uint64_t start, uint64_t n);

/* Bit i (false past the end); read without the lock, as the datapath does. */
static inline bool
mlx5dm_sim_bitmap_test(const struct mlx5dm_sim_bitmap *bm, uint64_t i)
{
	return i < bm->nbits && (__atomic_load_n(&bm->w[i / 64], __ATOMIC_ACQUIRE) >> (i % 64)) & 1;
}

/* ---- id tables (mlx5dm_sim_id_table.c) ---- */
int mlx5dm_sim_id_table_init(struct mlx5dm_sim_id_table *t, uint32_t base, uint32_t max,
			     int socket);
void mlx5dm_sim_id_table_fini(struct mlx5dm_sim_id_table *t);
int mlx5dm_sim_id_table_add(struct mlx5dm_sim_id_table *t, void *p, uint32_t *id);
void mlx5dm_sim_id_table_del(struct mlx5dm_sim_id_table *t, uint32_t id);
/* Allocate an object of kind with size bytes, registered in its table (NULL + errno). */
void *mlx5dm_sim_obj_new(struct mlx5dm_sim *sim, enum mlx5dm_sim_kind kind, size_t size);
void mlx5dm_sim_obj_free(struct mlx5dm_sim *sim, void *obj);

/* Inline: every WQE and doorbell looks objects up by number (QP, MRs, UAR). */
static inline void *
mlx5dm_sim_id_table_get(const struct mlx5dm_sim_id_table *t, uint32_t id)
{
	if (id < t->base || id - t->base >= t->cap)
		return NULL;
	return t->slot[id - t->base];
}

static inline void *
mlx5dm_sim_obj_get(struct mlx5dm_sim *sim, enum mlx5dm_sim_kind kind, uint32_t id)
{
	return mlx5dm_sim_id_table_get(&sim->tab[kind], id);
}

/* Validate a handle handed back by the caller (NULL if not ours). */
static inline struct mlx5dm_sim_obj *
mlx5dm_sim_obj_check(const void *p, enum mlx5dm_sim_kind kind)
{
	struct mlx5dm_sim_obj *o = (struct mlx5dm_sim_obj *)(uintptr_t)p;

	if (o == NULL || o->magic != MLX5DM_SIM_OBJ_MAGIC || o->kind != kind)
		return NULL;
	return o;
}

/* ---- ICM / argument memory (mlx5dm_sim_icm.c) ---- */
int mlx5dm_sim_icm_init(struct mlx5dm_sim *sim);
void mlx5dm_sim_icm_fini(struct mlx5dm_sim *sim);
uint64_t mlx5dm_sim_region_start(enum mlx5dm_sim_region_kind r);
/* Line-atomic copy into/out of a region at byte offset off (caller checked bounds). */
void mlx5dm_sim_region_write(struct mlx5dm_sim *sim, enum mlx5dm_sim_region_kind r, uint64_t off,
			     const void *src, size_t len);
void mlx5dm_sim_region_read(struct mlx5dm_sim *sim, enum mlx5dm_sim_region_kind r, uint64_t off,
			    void *dst, size_t len);
/* The same at a host address inside a region's mapping (lines are aligned in both). */
void mlx5dm_sim_icm_store(struct mlx5dm_sim *sim, uint8_t *dst, const void *src, size_t len);
/* Is [off, off + len) allocated in region r? */
bool mlx5dm_sim_region_live(const struct mlx5dm_sim *sim, enum mlx5dm_sim_region_kind r,
			    uint64_t off, uint64_t len);
/* Give freed memory back to the OS (contents become zero). */
void mlx5dm_sim_region_discard(struct mlx5dm_sim *sim, enum mlx5dm_sim_region_kind r, uint64_t off,
			       uint64_t len);
/*
 * Strip and check the GVMI of a device address (0 or own vhca_id); false if
 * foreign. Inline: every hop of a walk asks it.
 */
static inline bool
mlx5dm_sim_icm_local(const struct mlx5dm_sim *sim, uint64_t addr, uint64_t *local)
{
	uint16_t gvmi = (uint16_t)(addr >> 48);

	if (gvmi != 0 && gvmi != sim->cfg.vhca_id)
		return false;
	/* Bits 47:40 cannot be encoded in an STE pointer: no address of ours has them. */
	if ((addr & MLX5DM_SIM_ICM_ADDR_MASK) >> 40)
		return false;
	*local = addr & MLX5DM_SIM_ICM_ADDR_MASK;
	return true;
}

/* ---- capabilities (mlx5dm_sim_caps.c) ---- */
int mlx5dm_sim_caps_build(struct mlx5dm_sim *sim);
void mlx5dm_sim_caps_free(struct mlx5dm_sim *sim);

/* ---- commands (mlx5dm_sim_cmd.c) ---- */
struct mlx5dm_sim_cmd {
	struct mlx5dm_sim *sim;
	const uint8_t *in;
	size_t inlen;
	uint8_t *out;
	size_t outlen;
	uint16_t opcode;
	uint16_t op_mod;
	struct mlx5dm_sim_obj *obj;   /* target (modify/query/destroy) or created object */
	uint32_t syndrome;            /* set by mlx5dm_sim_cmd_fail */
	const char *why;
};
/* Record a failure: returns the status so handlers can `return mlx5dm_sim_cmd_fail(...)`. */
int mlx5dm_sim_cmd_fail(struct mlx5dm_sim_cmd *c, int status, unsigned int reason,
			const char *why);
#define MLX5DM_SIM_FAIL(c, st, why) mlx5dm_sim_cmd_fail(c, MLX5DM_SIM_ST_ ## st, __LINE__, why)
uint64_t mlx5dm_sim_in(const struct mlx5dm_sim_cmd *c, struct mlx5dm_prm_field f);
uint64_t mlx5dm_sim_in_at(const struct mlx5dm_sim_cmd *c, unsigned int byte,
			  struct mlx5dm_prm_field f);
void mlx5dm_sim_out(struct mlx5dm_sim_cmd *c, struct mlx5dm_prm_field f, uint64_t v);
void mlx5dm_sim_out_at(struct mlx5dm_sim_cmd *c, unsigned int byte, struct mlx5dm_prm_field f,
		       uint64_t v);

/* Destroy by DW2[23:0]: the object must be c->obj and unreferenced; PRM status. */
int mlx5dm_sim_cmd_destroy_check(struct mlx5dm_sim_cmd *c, enum mlx5dm_sim_kind kind);

/* Command handlers: return a PRM status (0 = OK). */
typedef int (*mlx5dm_sim_cmd_fn)(struct mlx5dm_sim_cmd *c);
int mlx5dm_sim_cmd_query_hca_cap(struct mlx5dm_sim_cmd *c);
int mlx5dm_sim_cmd_sync_steering(struct mlx5dm_sim_cmd *c);
int mlx5dm_sim_cmd_query_nic_vport_context(struct mlx5dm_sim_cmd *c);
int mlx5dm_sim_cmd_query_roce_address(struct mlx5dm_sim_cmd *c);
/* mlx5dm_sim_fw_vport.c: the vport context with the port's fields, the vport state. */
int mlx5dm_sim_cmd_nic_vport_context(struct mlx5dm_sim_cmd *c);
int mlx5dm_sim_cmd_query_vport_state(struct mlx5dm_sim_cmd *c);
int mlx5dm_sim_cmd_create_ft(struct mlx5dm_sim_cmd *c);
int mlx5dm_sim_cmd_destroy_ft(struct mlx5dm_sim_cmd *c);
int mlx5dm_sim_cmd_query_ft(struct mlx5dm_sim_cmd *c);
int mlx5dm_sim_cmd_create_fg(struct mlx5dm_sim_cmd *c);
int mlx5dm_sim_cmd_destroy_fg(struct mlx5dm_sim_cmd *c);
int mlx5dm_sim_cmd_set_fte(struct mlx5dm_sim_cmd *c);
int mlx5dm_sim_cmd_delete_fte(struct mlx5dm_sim_cmd *c);
int mlx5dm_sim_cmd_alloc_td(struct mlx5dm_sim_cmd *c);
int mlx5dm_sim_cmd_dealloc_td(struct mlx5dm_sim_cmd *c);
int mlx5dm_sim_cmd_create_tir(struct mlx5dm_sim_cmd *c);
int mlx5dm_sim_cmd_destroy_tir(struct mlx5dm_sim_cmd *c);
int mlx5dm_sim_cmd_query_tir(struct mlx5dm_sim_cmd *c);
int mlx5dm_sim_cmd_create_rqt(struct mlx5dm_sim_cmd *c);
int mlx5dm_sim_cmd_modify_rqt(struct mlx5dm_sim_cmd *c);
int mlx5dm_sim_cmd_destroy_rqt(struct mlx5dm_sim_cmd *c);
int mlx5dm_sim_cmd_create_rq(struct mlx5dm_sim_cmd *c);
int mlx5dm_sim_cmd_modify_rq(struct mlx5dm_sim_cmd *c);
int mlx5dm_sim_cmd_query_rq(struct mlx5dm_sim_cmd *c);
int mlx5dm_sim_cmd_destroy_rq(struct mlx5dm_sim_cmd *c);
int mlx5dm_sim_cmd_alloc_fc(struct mlx5dm_sim_cmd *c);
int mlx5dm_sim_cmd_dealloc_fc(struct mlx5dm_sim_cmd *c);
int mlx5dm_sim_cmd_query_fc(struct mlx5dm_sim_cmd *c);
int mlx5dm_sim_cmd_create_gobj(struct mlx5dm_sim_cmd *c);
int mlx5dm_sim_cmd_query_gobj(struct mlx5dm_sim_cmd *c);
int mlx5dm_sim_cmd_destroy_gobj(struct mlx5dm_sim_cmd *c);
int mlx5dm_sim_cmd_alloc_prc(struct mlx5dm_sim_cmd *c);
int mlx5dm_sim_prc_init(struct mlx5dm_sim *sim);
void mlx5dm_sim_prc_fini(struct mlx5dm_sim *sim);
int mlx5dm_sim_cmd_dealloc_prc(struct mlx5dm_sim_cmd *c);
int mlx5dm_sim_cmd_create_cq(struct mlx5dm_sim_cmd *c);
int mlx5dm_sim_cmd_destroy_cq(struct mlx5dm_sim_cmd *c);
int mlx5dm_sim_cmd_create_qp(struct mlx5dm_sim_cmd *c);
int mlx5dm_sim_cmd_modify_qp(struct mlx5dm_sim_cmd *c);
int mlx5dm_sim_cmd_query_qp(struct mlx5dm_sim_cmd *c);
int mlx5dm_sim_cmd_destroy_qp(struct mlx5dm_sim_cmd *c);
int mlx5dm_sim_cmd_create_tis(struct mlx5dm_sim_cmd *c);
int mlx5dm_sim_cmd_destroy_tis(struct mlx5dm_sim_cmd *c);
int mlx5dm_sim_cmd_create_sq(struct mlx5dm_sim_cmd *c);
int mlx5dm_sim_cmd_modify_sq(struct mlx5dm_sim_cmd *c);
int mlx5dm_sim_cmd_query_sq(struct mlx5dm_sim_cmd *c);
int mlx5dm_sim_cmd_destroy_sq(struct mlx5dm_sim_cmd *c);

/* ---- E-Switch (mlx5dm_sim_esw.c) ---- */
/* At create, before the capabilities: join or make the configured E-Switch. */
int mlx5dm_sim_esw_attach(struct mlx5dm_sim *sim);
/* At destroy, after the device thread stopped: leave it. */
void mlx5dm_sim_esw_detach(struct mlx5dm_sim *sim);
/* Is sim the manager of an E-Switch (the PF of num_vfs > 0)? */
static inline bool
mlx5dm_sim_esw_manager(const struct mlx5dm_sim *sim)
{
	return sim->esw != NULL && sim->vport == 0;
}
/* The manager's terminal at off (an MLX5DM_SIM_TERM_* offset); NONE if not one. */
enum mlx5dm_sim_term mlx5dm_sim_esw_terminal(const struct mlx5dm_sim *sim, uint64_t off,
					     uint32_t *num);
int mlx5dm_sim_cmd_query_esw_vport_context(struct mlx5dm_sim_cmd *c);
int mlx5dm_sim_cmd_set_ft_root(struct mlx5dm_sim_cmd *c);
/* QUERY_HCA_CAP other_function: the general caps of vport function_id. */
int mlx5dm_sim_esw_other_caps(struct mlx5dm_sim_cmd *c, unsigned int type);

/* ---- firmware objects shared between core files ---- */
struct mlx5dm_sim_pd {
	struct mlx5dm_sim_obj h;
	struct ibv_pd pd;
};
struct mlx5dm_sim_pd *mlx5dm_sim_pd_of(struct ibv_pd *pd);

struct mlx5dm_sim_dm {
	struct mlx5dm_sim_obj h;
	struct ibv_dm dm;
	enum mlx5dm_sim_region_kind region;
	uint64_t off;           /* offset in the region */
	uint64_t size;          /* rounded allocation */
	uint64_t length;        /* requested length */
};

struct mlx5dm_sim_mr {
	struct mlx5dm_sim_obj h;
	struct ibv_mr mr;
	struct mlx5dm_sim_pd *pd;
	struct mlx5dm_sim_dm *dm;  /* NULL: host memory */
	uint64_t dm_off;        /* region offset of MR address 0 (DM MRs) */
	unsigned int access;
	uint32_t key;
};
/* Find an MR by lkey/rkey (read lock held); inline, as every WQE does it. */
static inline struct mlx5dm_sim_mr *
mlx5dm_sim_mr_lookup(struct mlx5dm_sim *sim, uint32_t key)
{
	struct mlx5dm_sim_mr *m = mlx5dm_sim_obj_get(sim, MLX5DM_SIM_K_MR, key >> 8);

	return m != NULL && m->key == key ? m : NULL;
}

struct mlx5dm_sim_umem {
	struct mlx5dm_sim_obj h;
	struct mlx5dv_devx_umem umem;
	uint8_t *addr;
	size_t size;
};
/* Host pointer of [off, off + len) in a umem, or NULL if out of range. */
uint8_t *mlx5dm_sim_umem_ptr(struct mlx5dm_sim *sim, uint32_t umem_id, uint64_t off,
			     uint64_t len, struct mlx5dm_sim_umem **umem);

struct mlx5dm_sim_uar {
	struct mlx5dm_sim_obj h;
	struct mlx5dv_devx_uar uar;
	void *page;
	bool freed;             /* devx_free_uar called; kept while QPs use it */
	uint64_t seen[2];       /* registers 0 and 256 as the device thread last read them */
};

struct mlx5dm_sim_cq;
struct mlx5dm_sim_rq;
struct mlx5dm_sim_tir;
struct mlx5dm_sim_ft;

/* Table drop addresses etc. (mlx5dm_sim_fw_tir.c) */
uint64_t mlx5dm_sim_tir_icm(const struct mlx5dm_sim *sim, uint32_t tirn);
uint64_t mlx5dm_sim_term_icm(const struct mlx5dm_sim *sim, uint64_t off);
/* Flow table lookups for root rules (mlx5dm_sim_fw_ft.c) */
bool mlx5dm_sim_ft_is(struct mlx5dm_sim_obj *o, unsigned int table_type, uint64_t *icm_root);
/* A SW-owned FDB table's RX and TX roots; false for any other object. */
bool mlx5dm_sim_ft_fdb_roots(struct mlx5dm_sim_obj *o, uint64_t *rx, uint64_t *tx);
bool mlx5dm_sim_fw_table_terminal(struct mlx5dm_sim *sim, uint64_t local, enum mlx5dm_sim_term *t,
				  uint32_t *tirn);
void mlx5dm_sim_root_free_all(struct mlx5dm_sim *sim);
/* Live root matchers and rules (caller holds the lock). */
uint64_t mlx5dm_sim_root_objects(const struct mlx5dm_sim *sim);
/* At destroy: count (and log) what the driver left behind. */
void mlx5dm_sim_note_left_behind(struct mlx5dm_sim *sim);

/* Objects whose kind keeps memory besides the object itself (teardown). */
void mlx5dm_sim_uar_release(struct mlx5dm_sim *sim, void *obj);
/* Counters (mlx5dm_sim_fw_counter.c) */
void mlx5dm_sim_fc_free_all(struct mlx5dm_sim *sim);
/* Arguments (mlx5dm_sim_fw_arg.c): write one 64-byte unit from a WQE; 0 or CQE syndrome. */
int mlx5dm_sim_arg_write(struct mlx5dm_sim *sim, uint32_t arg_id, uint32_t pdn,
			 const uint8_t data[64]);
/* Queues (mlx5dm_sim_queue.c) */
void mlx5dm_sim_uar_put(struct mlx5dm_sim *sim, struct mlx5dm_sim_uar *u);

/* SYNC_STEERING grace period (mlx5dm_sim_core.c) */
uint32_t mlx5dm_sim_walk_enter(struct mlx5dm_sim *sim);
void mlx5dm_sim_walk_exit(struct mlx5dm_sim *sim, uint32_t epoch);
void mlx5dm_sim_sync_wait(struct mlx5dm_sim *sim);

/* ---- the boundary operations of the model (mlx5dm_sim_dev_ops) ---- */
struct ibv_pd *mlx5dm_sim_alloc_pd(struct ibv_context *ctx);
int mlx5dm_sim_dealloc_pd(struct ibv_pd *pd);
struct ibv_dm *mlx5dm_sim_alloc_dm(struct ibv_context *ctx, struct ibv_alloc_dm_attr *attr,
				   struct mlx5dv_alloc_dm_attr *mlx5_attr);
int mlx5dm_sim_free_dm(struct ibv_dm *dm);
struct ibv_mr *mlx5dm_sim_reg_dm_mr(struct ibv_pd *pd, struct ibv_dm *dm, uint64_t dm_offset,
				    size_t length, unsigned int access);
struct ibv_mr *mlx5dm_sim_reg_mr(struct ibv_pd *pd, void *addr, size_t length, int access);
int mlx5dm_sim_dereg_mr(struct ibv_mr *mr);
int mlx5dm_sim_init_obj(struct mlx5dv_obj *obj, uint64_t obj_type);
int mlx5dm_sim_devx_general_cmd(struct ibv_context *ctx, const void *in, size_t inlen,
				void *out, size_t outlen);
struct mlx5dv_devx_obj *mlx5dm_sim_devx_obj_create(struct ibv_context *ctx, const void *in,
						   size_t inlen, void *out, size_t outlen);
int mlx5dm_sim_devx_obj_query(struct mlx5dv_devx_obj *obj, const void *in, size_t inlen,
			      void *out, size_t outlen);
int mlx5dm_sim_devx_obj_modify(struct mlx5dv_devx_obj *obj, const void *in, size_t inlen,
			       void *out, size_t outlen);
int mlx5dm_sim_devx_obj_destroy(struct mlx5dv_devx_obj *obj);
struct mlx5dv_devx_umem *mlx5dm_sim_devx_umem_reg(struct ibv_context *ctx, void *addr,
						  size_t size, uint32_t access);
int mlx5dm_sim_devx_umem_dereg(struct mlx5dv_devx_umem *umem);
struct mlx5dv_devx_uar *mlx5dm_sim_devx_alloc_uar(struct ibv_context *ctx, uint32_t flags);
void mlx5dm_sim_devx_free_uar(struct mlx5dv_devx_uar *uar);
int mlx5dm_sim_devx_query_eqn(struct ibv_context *context, uint32_t vector, uint32_t *eqn);
struct mlx5dv_flow_matcher *mlx5dm_sim_create_flow_matcher(struct ibv_context *ctx,
		struct mlx5dv_flow_matcher_attr *attr);
int mlx5dm_sim_destroy_flow_matcher(struct mlx5dv_flow_matcher *matcher);
struct ibv_flow *mlx5dm_sim_create_flow(struct mlx5dv_flow_matcher *matcher,
					struct mlx5dv_flow_match_parameters *match_value,
					size_t num_actions,
					struct mlx5dv_flow_action_attr actions_attr[]);
int mlx5dm_sim_destroy_flow(struct ibv_flow *flow);

#endif /* _MLX5DM_SIM_CORE_H_ */
