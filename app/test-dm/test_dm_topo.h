/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#ifndef _TEST_DM_TOPO_H_
#define _TEST_DM_TOPO_H_

/*
 * The switch topology: an E-Switch with its PF (the e-switch manager and
 * uplink representor), two VFs with a representor port each, each VF's own
 * function as a port (the VM's view of the VF) and, when the uplink is
 * cabled rather than looped, the "wire", the port at its other end (the
 * outside world). Cases name these ports by role
 * instead of by number ("pf", "rep0", "rep1", "vf0", "vf1", "wire"), so the
 * same case runs whatever port ids the ports got: the reference runner
 * (--check) uses fixed ids after the default topology's three ports, a run
 * on ports sets the ids it found before its cases are loaded.
 */

#include <stddef.h>
#include <stdint.h>

enum test_dm_topo_role {
	TEST_DM_TOPO_PF,
	TEST_DM_TOPO_REP0,
	TEST_DM_TOPO_REP1,
	TEST_DM_TOPO_VF0,
	TEST_DM_TOPO_VF1,
	TEST_DM_TOPO_WIRE,
	TEST_DM_TOPO_ROLES,
};

/** VFs of the switch topology. */
#define TEST_DM_TOPO_VFS 2
/** No port has this role (the switch is not there). */
#define TEST_DM_TOPO_NONE UINT16_MAX

/** Name of a role ("pf", "rep0", ...). */
const char *test_dm_topo_name(enum test_dm_topo_role role);

/** Port id of a role (TEST_DM_TOPO_NONE when unset). */
uint16_t test_dm_topo_port(enum test_dm_topo_role role);

/** Set the port id of a role. */
void test_dm_topo_set(enum test_dm_topo_role role, uint16_t port);

/**
 * The reference's fixed ids: after the default topology's ports 0 to 2, from
 * 3 on; no wire port (the PF's uplink is looped).
 */
void test_dm_topo_set_default(void);

/**
 * A port named by role: @return 0 and *port, -ENOENT when @p s is no role's
 * name, -ENODEV when the role has no port (a looped uplink has no wire).
 */
int test_dm_topo_lookup(const char *s, size_t len, uint16_t *port);

/** Role of @p port, or -1 when it has none. */
int test_dm_topo_role_of(uint16_t port);

#endif /* _TEST_DM_TOPO_H_ */
