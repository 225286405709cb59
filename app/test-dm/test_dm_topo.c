/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5dm authors
 */

#include <errno.h>
#include <string.h>

#include "test_dm_topo.h"

static const char *const test_dm_topo_names[TEST_DM_TOPO_ROLES] = {
	[TEST_DM_TOPO_PF] = "pf",
	[TEST_DM_TOPO_REP0] = "rep0",
	[TEST_DM_TOPO_REP1] = "rep1",
	[TEST_DM_TOPO_VF0] = "vf0",
	[TEST_DM_TOPO_VF1] = "vf1",
	[TEST_DM_TOPO_WIRE] = "wire",
};

/*
 * One table for the whole run: cases are parsed after the ports are known,
 * and every case of a run sees the same switch.
 */
static uint16_t test_dm_topo_ports[TEST_DM_TOPO_ROLES] = {
	3, 4, 5, 6, 7, TEST_DM_TOPO_NONE,
};

const char *
test_dm_topo_name(enum test_dm_topo_role role)
{
	return role < TEST_DM_TOPO_ROLES ? test_dm_topo_names[role] : "?";
}

uint16_t
test_dm_topo_port(enum test_dm_topo_role role)
{
	return role < TEST_DM_TOPO_ROLES ? test_dm_topo_ports[role] : TEST_DM_TOPO_NONE;
}

void
test_dm_topo_set(enum test_dm_topo_role role, uint16_t port)
{
	if (role < TEST_DM_TOPO_ROLES)
		test_dm_topo_ports[role] = port;
}

void
test_dm_topo_set_default(void)
{
	unsigned int r;

	for (r = 0; r < TEST_DM_TOPO_WIRE; r++)
		test_dm_topo_ports[r] = (uint16_t)(3 + r);
	test_dm_topo_ports[TEST_DM_TOPO_WIRE] = TEST_DM_TOPO_NONE;
}

int
test_dm_topo_lookup(const char *s, size_t len, uint16_t *port)
{
	unsigned int r;

	for (r = 0; r < TEST_DM_TOPO_ROLES; r++) {
		if (strlen(test_dm_topo_names[r]) == len &&
		    memcmp(test_dm_topo_names[r], s, len) == 0) {
			*port = test_dm_topo_ports[r];
			return *port != TEST_DM_TOPO_NONE ? 0 : -ENODEV;
		}
	}
	return -ENOENT;
}

int
test_dm_topo_role_of(uint16_t port)
{
	unsigned int r;

	for (r = 0; r < TEST_DM_TOPO_ROLES; r++)
		if (port != TEST_DM_TOPO_NONE && test_dm_topo_ports[r] == port)
			return (int)r;
	return -1;
}
