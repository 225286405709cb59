#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5dm authors
"""meson install --destdir, then build and run a DPDK application against what it installed.

The application (install_app.c) is compiled with nothing but
`pkg-config --cflags --libs libmlx5dm libdpdk`, so a missing .pc, public
header or library fails here. The PMD must land where EAL loads drivers from
without -d (RTE_EAL_PMD_PATH), and the model's headers must stay inside.
"""

import argparse
import glob
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile


def run(argv, env=None, what=None):
    p = subprocess.run(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True, timeout=240)
    if p.returncode != 0:
        sys.exit('%s failed (%d):\n$ %s\n%s' % (what or argv[0], p.returncode, ' '.join(argv),
                                                 p.stdout))
    return p.stdout


def check(cond, msg):
    if not cond:
        sys.exit('FAIL: ' + msg)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--meson', required=True)
    ap.add_argument('--build-dir', required=True)
    ap.add_argument('--cc', required=True, help='the C compiler command')
    ap.add_argument('--prefix', required=True)
    ap.add_argument('--libdir', required=True)
    ap.add_argument('--includedir', required=True)
    ap.add_argument('--pmd-dir', required=True, help='where meson installs the PMD')
    ap.add_argument('--pmd-dir-is-default', choices=['true', 'false'], required=True)
    ap.add_argument('--source', required=True)
    ap.add_argument('--keep', action='store_true', help='keep the destdir')
    args = ap.parse_args()

    # Under the build directory: EAL and ld.so like no world-writable ancestors.
    dest = tempfile.mkdtemp(prefix='install-test-', dir=args.build_dir)
    try:
        test(args, dest)
    finally:
        if not args.keep:
            shutil.rmtree(dest, ignore_errors=True)
    print('install test passed')


def test(args, dest):
    run([args.meson, 'install', '-C', args.build_dir, '--no-rebuild', '--quiet',
         '--destdir', dest], what='meson install')

    def at(path):
        return os.path.join(dest, path.lstrip('/'))

    libdir = os.path.join(args.prefix, args.libdir)
    incdir = os.path.join(args.prefix, args.includedir, 'mlx5dm')
    pmd = at(os.path.join(args.pmd_dir, 'librte_net_mlx5dm.so'))
    check(os.path.isfile(pmd), 'PMD not installed at %s' % pmd)
    link = at(os.path.join(libdir, 'librte_net_mlx5dm.so'))
    check(os.path.realpath(link) == os.path.realpath(pmd),
          '%s does not lead to the installed PMD' % link)
    headers = sorted(os.path.basename(h) for h in glob.glob(at(os.path.join(incdir, '*.h'))))
    print('installed headers:', ' '.join(headers))
    check(not [h for h in headers if h.startswith('mlx5dm_sim')],
          'the model\'s headers are not public')

    # The .pc as installed; a prefix that is not relative to the file's place is moved into
    # the destdir (the one line meson install --destdir leaves pointing at the real prefix).
    pcdir = os.path.join(dest, 'pkgconfig-view')
    os.makedirs(pcdir)
    pc = at(os.path.join(libdir, 'pkgconfig', 'libmlx5dm.pc'))
    if os.path.exists(pc):
        with open(pc) as f:
            text = f.read()
        text = re.sub(r'^prefix=(/.*)$', lambda m: 'prefix=' + at(m.group(1)), text,
                      count=1, flags=re.M)
        with open(os.path.join(pcdir, 'libmlx5dm.pc'), 'w') as f:
            f.write(text)
    env = dict(os.environ)
    env['PKG_CONFIG_PATH'] = pcdir + ':' + env.get('PKG_CONFIG_PATH', '')
    pmddir = run(['pkg-config', '--variable=pmddir', 'libmlx5dm'], env, 'pkg-config').strip()
    check(pmddir == args.pmd_dir, 'libmlx5dm.pc pmddir=%s, PMD installed in %s'
          % (pmddir, args.pmd_dir))
    flags = run(['pkg-config', '--cflags', '--libs', 'libmlx5dm', 'libdpdk'], env,
                'pkg-config').split()
    app = os.path.join(dest, 'install_app')
    run(shlex.split(args.cc) + ['-o', app, args.source] + flags, env, 'building the application')

    env['LD_LIBRARY_PATH'] = at(libdir)
    if os.environ.get('MLX5DM_ASAN_PRELOAD'):
        env['LD_PRELOAD'] = os.environ['MLX5DM_ASAN_PRELOAD']
    out = run([app, '--no-huge', '--no-pci', '--no-shconf', '-m', '256',
               '--file-prefix=mlx5dm_install_%d' % os.getpid(), '--log-level=lib.eal:error',
               '--vdev', 'net_mlx5dm0,ports=2,topology=pair'], env, 'the application')
    print(out, end='')
    for port, peer in ((0, 1), (1, 0)):
        want = 'port %d: backend sim index %d of 2 peer %d' % (port, port, peer)
        check(want in out, 'missing "%s"' % want)
    m = re.search(r'^library: tables (\d+) steering ICM used (\d+)$', out, re.M)
    check(m is not None, 'the library part printed nothing')
    check(int(m.group(1)) == 1 and int(m.group(2)) > 0,
          'library: want 1 table and steering ICM in use, got %s' % m.group(0))
    m = re.search(r'^eal plugin dir: (.*)$', out, re.M)
    check(m is not None, 'no plugin dir printed')
    if args.pmd_dir_is_default == 'true':
        check(m.group(1) == args.pmd_dir,
              'PMD installed in %s, EAL loads drivers from %s' % (args.pmd_dir, m.group(1)))


if __name__ == '__main__':
    main()
