/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The device thread: one per model instance, the model's engines running
 * beside the host cores as a NIC's do. It learns of work only from memory,
 * as a ConnectX does: the doorbell records of the queues and the doorbell
 * registers of its UAR pages (the driver's doorbell is a store into the
 * page, mlx5dm_dev_doorbell; no one calls into the device). Work is taken
 * from the records, which cannot lose a doorbell as a register overwritten
 * before the thread looks can; a register value that names no queue of
 * its page is counted and logged, as a stray doorbell. Each pass visits
 * the queues the device has (the id tables' live lists), not every id,
 * under the exec mutex:
 *   - steering QPs whose SQ producer counter moved: their WQEs execute
 *     (mlx5dm_sim_sq_exec);
 *   - datapath SQs whose send counter moved: their frames go out
 *     (mlx5dm_sim_sq_run: NIC TX steering, wire, NIC RX steering, Rx CQE,
 *     then Tx CQE);
 *   - RQs in ERR whose receive counter moved: the posted WQEs complete
 *     with flush errors.
 * Before a frame is walked, every steering WQE already rung on both
 * devices the walk touches executes (mlx5dm_sim_sq_catch_up, called by
 * the engine), so a frame sees every rule write rung before it.
 *
 * Two cabled devices: the sending device's thread walks the whole journey
 * and writes the receiving device's RQ (under that RQ's lock and that
 * device's instance lock for reading); frames of one SQ are walked in
 * order by one thread, so none is lost or reordered on the way.
 *
 * Pacing: the thread naps between passes rather than spinning, so that
 * on a machine with few cores it leaves the CPU to the host that posts
 * the work, and a pass finds many WQEs, not one (the cost of a pass is
 * paid per batch). No result depends on when a pass runs: a frame walk
 * catches up with every rung WQE first, and the driver learns of
 * execution only from CQEs. After a pass with work the thread naps
 * MLX5DM_SIM_DT_SLEEP_MIN_NS; after a pass that found a quarter of some
 * steering SQ rung (the host posts faster than the nap drains) it polls
 * again at once, so the ring does not fill while it sleeps; after a pass
 * without work the nap doubles up to MLX5DM_SIM_DT_SLEEP_MAX_NS, so an
 * idle model costs no core. The thread's timer slack is cut to
 * MLX5DM_SIM_DT_SLACK_NS: the default slack (proc(5), timerslack_ns)
 * would stretch each short nap several times over.
 */

#include <errno.h>
#include <sched.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "mlx5dm_sim_queue.h"

#define MLX5DM_SIM_DT_SLEEP_MIN_NS 10000l
#define MLX5DM_SIM_DT_SLEEP_MAX_NS 1000000l
#define MLX5DM_SIM_DT_SLACK_NS 1000ul

/* What a pass found, in increasing order. */
enum mlx5dm_sim_dt_load {
	MLX5DM_SIM_DT_IDLE,             /* nothing rung */
	MLX5DM_SIM_DT_WORK,             /* some work: nap, then poll */
	MLX5DM_SIM_DT_BUSY,             /* a quarter of an SQ: poll again at once */
};

/* Run the rung WQEs of every steering QP; sim->lock held for reading. */
static enum mlx5dm_sim_dt_load
mlx5dm_sim_qp_run_all(struct mlx5dm_sim *sim)
{
	struct mlx5dm_sim_id_table *t = &sim->tab[MLX5DM_SIM_K_QP];
	enum mlx5dm_sim_dt_load load = MLX5DM_SIM_DT_IDLE;
	uint32_t i;

	for (i = 0; i < t->count; i++) {
		struct mlx5dm_sim_qp *qp = t->live[i];

		if ((uint16_t)mlx5dm_sim_dbr_get(qp->dbr + 4) ==
		    __atomic_load_n(&qp->hw_ctr, __ATOMIC_RELAXED))
			continue;
		mlx5dm_spinlock_lock(&qp->lock);
		if (mlx5dm_sim_sq_exec(sim, qp) >= qp->sq_bytes / MLX5DM_SIM_WQEBB / 4)
			load = MLX5DM_SIM_DT_BUSY;
		else
			load = MLX5DM_MAX(load, MLX5DM_SIM_DT_WORK);
		mlx5dm_spinlock_unlock(&qp->lock);
	}
	return load;
}

void
mlx5dm_sim_sq_catch_up(struct mlx5dm_sim *sim)
{
	if (sim == NULL)
		return;
	pthread_rwlock_rdlock(&sim->lock);
	mlx5dm_sim_qp_run_all(sim);
	pthread_rwlock_unlock(&sim->lock);
}

/* Register 0 of a UAR page (and its BlueFlame twin at +256): new values. sim->lock read-held. */
static void
mlx5dm_sim_uar_watch(struct mlx5dm_sim *sim)
{
	struct mlx5dm_sim_id_table *t = &sim->tab[MLX5DM_SIM_K_UAR];
	uint32_t i, r;

	for (i = 0; i < t->count; i++) {
		struct mlx5dm_sim_uar *u = t->live[i];

		if (u->page == NULL)
			continue;
		for (r = 0; r < 2; r++) {
			const uint64_t *reg = (const uint64_t *)(const void *)((const uint8_t *)
					      u->uar.reg_addr + 256 * r);
			uint64_t v = __atomic_load_n(reg, __ATOMIC_ACQUIRE);
			struct mlx5dm_sim_qp *qp;
			uint8_t b[8];
			uint32_t qn;

			if (v == u->seen[r])
				continue;
			u->seen[r] = v;
			memcpy(b, &v, sizeof(b));
			qn = (uint32_t)mlx5dm_prm_fget(b, MLX5DM_SIM_CTRL_QPN);
			qp = mlx5dm_sim_obj_get(sim, MLX5DM_SIM_K_QP, qn);
			/* An SQ may ring on any UAR of the device; a QP on its own. */
			if ((qp != NULL && qp->uar == u) ||
			    mlx5dm_sim_obj_get(sim, MLX5DM_SIM_K_SQ, qn) != NULL)
				continue;
			if (__atomic_fetch_add(&sim->dt.stray_doorbells, 1, __ATOMIC_RELAXED) == 0)
				MLX5DM_LOG(INFO, MLX5DM_SIM_LOG,
					   "doorbell on UAR page 0x%x names no queue of it (0x%x)",
					   u->h.id, qn);
		}
	}
}

/* One pass over the device's queues: what it found. Exec mutex held. */
static enum mlx5dm_sim_dt_load
mlx5dm_sim_thread_pass(struct mlx5dm_sim *sim)
{
	struct mlx5dm_sim_id_table *sqs = &sim->tab[MLX5DM_SIM_K_SQ];
	struct mlx5dm_sim_id_table *rqs = &sim->tab[MLX5DM_SIM_K_RQ];
	enum mlx5dm_sim_dt_load load;
	bool work = false;
	uint32_t i;

	pthread_rwlock_rdlock(&sim->lock);
	mlx5dm_sim_uar_watch(sim);
	load = mlx5dm_sim_qp_run_all(sim);
	for (i = 0; i < rqs->count; i++)
		if (mlx5dm_sim_rq_flush(sim, rqs->live[i]))
			work = true;
	pthread_rwlock_unlock(&sim->lock);
	/*
	 * SQs are walked without the instance lock (the walk takes it where it
	 * needs it); they cannot go away meanwhile: commands wait for exec.
	 */
	for (i = 0; i < sqs->count; i++)
		if (mlx5dm_sim_sq_run(sim, sim->dt.tx, sqs->live[i]))
			work = true;
	return work ? MLX5DM_MAX(load, MLX5DM_SIM_DT_WORK) : load;
}

static void *
mlx5dm_sim_thread_main(void *arg)
{
	struct mlx5dm_sim *sim = arg;
	struct mlx5dm_sim_thread *t = &sim->dt;
	long nap = MLX5DM_SIM_DT_SLEEP_MIN_NS;

	(void)prctl(PR_SET_TIMERSLACK, MLX5DM_SIM_DT_SLACK_NS, 0, 0, 0);
	while (!__atomic_load_n(&t->stop, __ATOMIC_ACQUIRE)) {
		enum mlx5dm_sim_dt_load load;
		struct timespec ts;

		pthread_mutex_lock(&t->exec);
		load = mlx5dm_sim_thread_pass(sim);
		pthread_mutex_unlock(&t->exec);
		if (load == MLX5DM_SIM_DT_BUSY) {
			nap = MLX5DM_SIM_DT_SLEEP_MIN_NS;
			continue;
		}
		if (load == MLX5DM_SIM_DT_WORK)
			nap = MLX5DM_SIM_DT_SLEEP_MIN_NS;
		ts.tv_sec = 0;
		ts.tv_nsec = nap;
		nanosleep(&ts, NULL);
		if (load == MLX5DM_SIM_DT_IDLE)
			nap = MLX5DM_MIN(nap * 2, MLX5DM_SIM_DT_SLEEP_MAX_NS);
	}
	return NULL;
}

int
mlx5dm_sim_thread_start(struct mlx5dm_sim *sim)
{
	struct mlx5dm_sim_thread *t = &sim->dt;
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t all;
	long c;
	int ret;

	t->tx = mlx5dm_sim_tx_create(sim->socket);
	if (t->tx == NULL)
		return -ENOMEM;
	ret = pthread_create(&t->th, NULL, mlx5dm_sim_thread_main, sim);
	if (ret != 0) {
		MLX5DM_LOG(ERR, MLX5DM_SIM_LOG, "cannot start the device thread: %s",
			   strerror(ret));
		mlx5dm_sim_tx_free(t->tx);
		t->tx = NULL;
		return -ret;
	}
	/*
	 * Any CPU: the creator is often pinned (a DPDK lcore), and the device
	 * must not compete with it for that one.
	 */
	CPU_ZERO(&all);
	for (c = 0; c < n && c < CPU_SETSIZE; c++)
		CPU_SET((int)c, &all);
	(void)pthread_setaffinity_np(t->th, sizeof(all), &all);
	(void)pthread_setname_np(t->th, "mlx5dm-sim-dev");
	t->running = true;
	return 0;
}

void
mlx5dm_sim_thread_stop(struct mlx5dm_sim *sim)
{
	struct mlx5dm_sim_thread *t = &sim->dt;

	if (!t->running)
		return;
	__atomic_store_n(&t->stop, true, __ATOMIC_RELEASE);
	pthread_join(t->th, NULL);
	t->running = false;
	mlx5dm_sim_tx_free(t->tx);
	t->tx = NULL;
}
