/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#ifndef _TEST_DM_PORTS_H_
#define _TEST_DM_PORTS_H_

/*
 * The net_mlx5dm ports a run uses. Without --vdev the app makes the default
 * topology itself: net_mlx5dm0 (port 0, looped to itself) and net_mlx5dm1
 * with two cabled ports (1 <-> 2), the topology the reference runner of
 * --check models too. A hardware run (--backend hw, or backend=hw in the
 * devargs) only ever uses hardware ports: when the PMD refuses the device,
 * the run stops with the reason instead of falling back to the model.
 * A NIC's ports loop back (a loopback plug or self-loopback) unless
 * --cabled says which two are wired to each other.
 */

#include <stddef.h>
#include <stdint.h>

#include "test_dm_opts.h"

/** Peers of the default topology (0 <-> 0, 1 <-> 2), for the reference runner. */
#define TEST_DM_DEFAULT_PORTS 3
extern const uint16_t test_dm_default_peer[TEST_DM_DEFAULT_PORTS];

/**
 * Make sure there are net_mlx5dm ports of the asked-for backend.
 *
 * @return number of ports, or <0 with the reason in @p msg.
 */
int test_dm_ports_prepare(const struct test_dm_config *cfg, char *msg, size_t size);

/**
 * The port at the other end of @p port's wire: the model's ports say it,
 * a hardware port's is the one --cabled pairs it with, else itself.
 */
uint16_t test_dm_ports_peer(const struct test_dm_config *cfg, uint16_t port);

/** The E-Switch the default topology gains when a case needs the switch topology. */
#define TEST_DM_SWITCH_VDEV "net_mlx5dm2"
#define TEST_DM_SWITCH_ARGS "representor=vf[0-1],vf_ports=1"

/**
 * Add the switch topology's vdev (TEST_DM_SWITCH_VDEV, TEST_DM_SWITCH_ARGS).
 * @return 0, or <0 with the reason in @p msg.
 */
int test_dm_ports_add_switch(char *msg, size_t size);

/**
 * Find the ports of the switch topology among the ports (test_dm_topo.h) by
 * their names: a PF <name>, its representors <name>_representor_vf0 and
 * _vf1, the VF functions <name>_vf0 and _vf1, and the port at the other end
 * of the PF's wire (none when it is looped); set their ids for the cases.
 *
 * @return 0, or <0 with what is missing in @p msg.
 */
int test_dm_ports_find_switch(const struct test_dm_config *cfg, char *msg, size_t size);

#endif /* _TEST_DM_PORTS_H_ */
