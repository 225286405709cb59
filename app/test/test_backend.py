# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5dm authors
"""The net_mlx5dm ports of a test, on the backend the run asks for.

Tests describe their ports as on the device model: --vdev net_mlx5dm0,
--vdev net_mlx5dm1,ports=2,topology=pair. MLX5DM_TEST_BACKEND (set by
`meson test --setup hw`) is 'sim' (the default: nothing changes) or 'hw': each
model port becomes a vdev of its own with backend=hw on a device of the
rdma-core test double, cabled as the model's ports were, and the double's
configuration (MLX5DM_RDMA_DOUBLE) presents exactly those devices. A vdev with
representors makes its port 0's device a PF in switchdev mode with the VFs
they name (vfs=N), whose VF devices the double adds.
"""

import os
import sys

VARIABLE = 'MLX5DM_TEST_BACKEND'
# Devargs of the model only: they describe what the hw devices' cabling now is.
SIM_ONLY = ('ports', 'topology', 'sim_sq_thread')
# Devargs of the vdev's E-Switch manager (its port 0) only.
SWITCH = ('representor', 'vf_ports')
# The devarg that names the RDMA device of a hw port.
HW_DEVICE = 'ib_device'


def backend():
    value = os.environ.get(VARIABLE, 'sim')
    if value not in ('sim', 'hw'):
        sys.exit('%s=%s: expected sim or hw' % (VARIABLE, value))
    return value


class Ports:
    """vdevs: the --vdev arguments; cables: (port, port) pairs of hw ports wired to
    each other; env: what the run's environment needs (the double's devices)."""

    def __init__(self, vdevs, cables=(), env=None):
        self.vdevs = list(vdevs)
        self.cables = list(cables)
        self.env = dict(env or {})


def _split(vdev):
    name, _, rest = vdev.partition(',')
    # Commas inside [...] belong to the value (representor=vf[0,1]).
    args, depth, cur = [], 0, ''
    for c in rest + ',':
        if c == ',' and depth == 0:
            if cur:
                args.append(cur)
            cur = ''
            continue
        depth += (c == '[') - (c == ']')
        cur += c
    return name, [tuple(a.split('=', 1)) if '=' in a else (a, '') for a in args]


def _nb_vfs(representor):
    """The VFs a PF needs for representor=VALUE: up to the highest listed."""
    ids = representor.split('vf', 1)[-1].strip('[]')
    top = -1
    for part in ids.split(','):
        if part:
            top = max(top, int(part.split('-')[-1]))
    return top + 1


def ports(vdevs, which=None):
    """The --vdev arguments for the backend (which, or MLX5DM_TEST_BACKEND)."""
    if (which or backend()) == 'sim':
        return Ports(vdevs)
    out, cables, devices = [], [], []
    for vdev in vdevs:
        name, args = _split(vdev)
        if not name.startswith('net_mlx5dm'):
            out.append(vdev)
            continue
        opts = dict(args)
        nb = int(opts.get('ports', '1'))
        pair = opts.get('topology', 'loop') == 'pair'
        keep = ','.join(k + '=' + v for k, v in args if k not in SIM_ONLY + ('backend',))
        for i in range(nb):
            dev = 'mlx5_%d' % len(devices)
            spec = dev
            # The E-Switch manager (port 0): a PF in switchdev mode with the VFs.
            if i == 0 and 'representor' in opts:
                spec += ',vfs=%d' % _nb_vfs(opts['representor'])
            if pair and i % 2 == 0 and i + 1 < nb:
                spec += ',wire=mlx5_%d' % (len(devices) + 1)
                cables.append((len(out), len(out) + 1))
            elif pair and i % 2 == 1:
                spec += ',wire=mlx5_%d' % (len(devices) - 1)
            devices.append(spec)
            port = name if i == 0 else '%s_p%d' % (name, i)
            if i != 0:
                # The switch is port 0's: the others are plain NIC ports.
                keep = ','.join(k + '=' + v for k, v in args
                                if k not in SIM_ONLY + ('backend',) + SWITCH)
            out.append(','.join(x for x in (port, 'backend=hw', HW_DEVICE + '=' + dev, keep)
                                if x))
    env = {'MLX5DM_RDMA_DOUBLE': ' '.join(devices)} if devices else {}
    return Ports(out, cables, env)


def test_dm_args(argv):
    """dpdk-test-dm's command line (EAL args -- app args) with its ports on the
    backend: hw ports get --backend hw and --cabled for each wired pair."""
    if '--' in argv:
        cut = argv.index('--')
        eal, app = argv[:cut], argv[cut + 1:]
    else:
        eal, app = list(argv), []
    vdevs, rest, i = [], [], 0
    while i < len(eal):
        if eal[i] == '--vdev' and i + 1 < len(eal):
            vdevs.append(eal[i + 1])
            i += 2
        else:
            rest.append(eal[i])
            i += 1
    p = ports(vdevs)
    if p.vdevs != vdevs:
        app = ['--backend', 'hw'] + ['--cabled=%d:%d' % c for c in p.cables] + app
    eal = rest + [x for v in p.vdevs for x in ('--vdev', v)]
    return eal + ['--'] + app, p.env


def main(argv):
    """run: test_backend.py PROGRAM [EAL ARGS] [-- APP ARGS] (dpdk-test-dm)."""
    if len(argv) < 2:
        sys.exit('usage: test_backend.py DPDK-TEST-DM [EAL ARGS] [-- APP ARGS]')
    args, env = test_dm_args(argv[2:])
    os.environ.update(env)
    sys.stdout.flush()
    os.execv(argv[1], [argv[1]] + args)


if __name__ == '__main__':
    main(sys.argv)
