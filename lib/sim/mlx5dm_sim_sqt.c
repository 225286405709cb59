/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

/*
 * The send-queue engine on its own thread (config sq_thread), as a NIC's
 * engines run beside the host cores: a doorbell only marks its QP and
 * wakes the thread, which executes the WQEs (mlx5dm_sim_sq_exec) and
 * writes the CQEs; the caller's core goes back to work at once and learns
 * of progress from completions, exactly as on hardware.
 *
 * Packet walks see every WQE rung before them: a port_tx first catches up
 * the send queues of both devices it walks (mlx5dm_sim_sq_catch_up takes
 * each QP's lock, so a batch the thread is executing is finished first).
 *
 * Wake-up: the thread spins briefly after its last batch, then sleeps on
 * a condition variable; a doorbell bumps a counter and signals only when
 * the thread is asleep (the counter and the sleeping flag are a Dekker
 * pair, sequentially consistent, so no wake-up is lost).
 */

#include <errno.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>

#include "mlx5dm_sim_queue.h"

#define MLX5DM_SIM_SQT_SPIN 20000 /* idle polls before sleeping */

/* Run the rung WQEs of every QP of the device; sim->lock held for reading. */
static void
mlx5dm_sim_sq_run_all(struct mlx5dm_sim *sim, bool pending_only)
{
	struct mlx5dm_sim_idtab *t = &sim->tab[MLX5DM_SIM_K_QP];
	uint32_t i;

	for (i = 0; i < t->cap; i++) {
		struct mlx5dm_sim_qp *qp = t->slot[i];

		if (qp == NULL)
			continue;
		if (pending_only && __atomic_exchange_n(&qp->db_pending, 0, __ATOMIC_ACQ_REL) == 0)
			continue;
		mlx5dm_spinlock_lock(&qp->lock);
		mlx5dm_sim_sq_exec(sim, qp);
		mlx5dm_spinlock_unlock(&qp->lock);
	}
}

void
mlx5dm_sim_sq_catch_up(struct mlx5dm_sim *sim)
{
	if (sim == NULL || !sim->sqt.running)
		return;
	pthread_rwlock_rdlock(&sim->lock);
	mlx5dm_sim_sq_run_all(sim, false);
	pthread_rwlock_unlock(&sim->lock);
}

void
mlx5dm_sim_sq_kick(struct mlx5dm_sim *sim, struct mlx5dm_sim_qp *qp)
{
	struct mlx5dm_sim_sqt *t = &sim->sqt;

	__atomic_store_n(&qp->db_pending, 1, __ATOMIC_RELEASE);
	__atomic_fetch_add(&t->kicks, 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&t->sleeping, __ATOMIC_SEQ_CST)) {
		pthread_mutex_lock(&t->mu);
		pthread_cond_signal(&t->cv);
		pthread_mutex_unlock(&t->mu);
	}
}

static void *
mlx5dm_sim_sqt_main(void *arg)
{
	struct mlx5dm_sim *sim = arg;
	struct mlx5dm_sim_sqt *t = &sim->sqt;
	unsigned int idle = 0;
	uint32_t seen = 0;

	for (;;) {
		uint32_t k = __atomic_load_n(&t->kicks, __ATOMIC_SEQ_CST);

		if (k != seen) {
			seen = k;
			idle = 0;
			pthread_rwlock_rdlock(&sim->lock);
			mlx5dm_sim_sq_run_all(sim, true);
			pthread_rwlock_unlock(&sim->lock);
			continue;
		}
		if (__atomic_load_n(&t->stop, __ATOMIC_ACQUIRE))
			break;
		if (++idle < MLX5DM_SIM_SQT_SPIN) {
			MLX5DM_PAUSE();
			continue;
		}
		pthread_mutex_lock(&t->mu);
		__atomic_store_n(&t->sleeping, 1, __ATOMIC_SEQ_CST);
		if (__atomic_load_n(&t->kicks, __ATOMIC_SEQ_CST) == seen &&
		    !__atomic_load_n(&t->stop, __ATOMIC_ACQUIRE))
			pthread_cond_wait(&t->cv, &t->mu);
		__atomic_store_n(&t->sleeping, 0, __ATOMIC_SEQ_CST);
		pthread_mutex_unlock(&t->mu);
		idle = 0;
	}
	return NULL;
}

int
mlx5dm_sim_sqt_start(struct mlx5dm_sim *sim)
{
	struct mlx5dm_sim_sqt *t = &sim->sqt;
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t all;
	long c;
	int ret;

	pthread_mutex_init(&t->mu, NULL);
	pthread_cond_init(&t->cv, NULL);
	ret = pthread_create(&t->th, NULL, mlx5dm_sim_sqt_main, sim);
	if (ret != 0) {
		MLX5DM_LOG(ERR, MLX5DM_SIM_LOG, "cannot start the send-queue thread: %s",
			   strerror(ret));
		pthread_cond_destroy(&t->cv);
		pthread_mutex_destroy(&t->mu);
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
	(void)pthread_setname_np(t->th, "mlx5dm-sim-sq");
	t->running = true;
	return 0;
}

void
mlx5dm_sim_sqt_stop(struct mlx5dm_sim *sim)
{
	struct mlx5dm_sim_sqt *t = &sim->sqt;

	if (!t->running)
		return;
	pthread_mutex_lock(&t->mu);
	__atomic_store_n(&t->stop, true, __ATOMIC_RELEASE);
	pthread_cond_signal(&t->cv);
	pthread_mutex_unlock(&t->mu);
	pthread_join(t->th, NULL);
	/* What was rung before the stop still executes, as a device drains on reset. */
	t->running = false;
	pthread_cond_destroy(&t->cv);
	pthread_mutex_destroy(&t->mu);
}
