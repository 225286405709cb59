# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5dm authors
"""Run the stock dpdk-testpmd with net_mlx5dm loaded and parse what it prints."""

import os
import re
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import test_backend  # noqa: E402  (app/test: the ports on the run's backend)


def world_writable_ancestor(path):
    """EAL refuses -d <path> when any ancestor directory is world-writable."""
    d = os.path.dirname(os.path.abspath(path))
    while True:
        if os.stat(d).st_mode & 0o002:
            return d
        parent = os.path.dirname(d)
        if parent == d:
            return None
        d = parent


# coreutils' stdbuf library: makes the child's stdout line-buffered (what `stdbuf -oL` does).
LIBSTDBUF = ('/usr/libexec/coreutils/libstdbuf.so', '/usr/lib/coreutils/libstdbuf.so')


def pmd_load_args(pmd, env, line_buffered=False):
    """EAL arguments (and env changes) that load the PMD: -d when EAL allows it.

    line_buffered: testpmd prints flow errors on stderr and the rest on stdout, which is
    block-buffered into a pipe; line-buffering it keeps the combined output in program
    order (the libasan preload, when there is one, must stay first).
    """
    preload = []
    if os.environ.get('MLX5DM_ASAN_PRELOAD'):
        preload.append(os.environ['MLX5DM_ASAN_PRELOAD'])
    # What the run preloads already (the rdma-core test double of the hw setup) stays.
    preload += [x for x in os.environ.get('LD_PRELOAD', '').split() if x not in preload]
    if line_buffered:
        lib = [x for x in LIBSTDBUF if os.path.exists(x)]
        if not lib:
            raise RuntimeError('libstdbuf.so (coreutils) not found in %s' % (LIBSTDBUF,))
        preload.append(lib[0])
        env['_STDBUF_O'] = 'L'
    bad = world_writable_ancestor(pmd)
    args = []
    if bad is None:
        args = ['-d', pmd]
    else:
        # Loaded before EAL starts, the PMD's constructor registers the driver.
        preload.append(os.path.abspath(pmd))
    if preload:
        env['LD_PRELOAD'] = ' '.join(preload)
    return args


# A command whose output tells that testpmd executed everything sent before it.
MARK_CMD = 'show port summary all'
MARK_LINE = 'Number of available ports:'
PROMPT = 'testpmd> '


def is_pause(c):
    """`sleep S`, or `wait_rx PORT S`: wait until PORT received what it sent, S at most;
    or `pull PORT QUEUE N S`: `flow pull` until N results came, S seconds at most."""
    return c.startswith('sleep ') or c.startswith('wait_rx ') or c.startswith('pull ')


# What testpmd prints for a `flow pull`.
PULLED = re.compile(r'Queue #\d+ pulled (\d+) operations \((\d+) failed')


def pulled(text):
    """(results, failed) summed over the `flow pull` outputs in text."""
    counts = [tuple(map(int, m)) for m in PULLED.findall(text)]
    return sum(n for n, _ in counts), sum(f for _, f in counts)


def split_sleeps(commands):
    """The commands up to the first pause, then [(pause, commands after it), ...]."""
    head, rest = [], []
    for c in commands:
        if is_pause(c):
            rest.append((c.split(), []))
        elif rest:
            rest[-1][1].append(c)
        else:
            head.append(c)
    return head, rest


def unprompt(output):
    """Commands read from stdin print after a prompt: put it on a line of its own."""
    lines = []
    for line in output.splitlines():
        while line.startswith(PROMPT) and len(line) > len(PROMPT):
            lines.append(PROMPT.strip())
            line = line[len(PROMPT):]
        lines.append(line)
    return '\n'.join(lines) + '\n'


STATS_RX = re.compile(r'RX-packets:\s+(\d+)')
STATS_TX = re.compile(r'TX-packets:\s+(\d+)')


def port_rx_tx(text):
    """RX-packets and TX-packets of the last `show port stats` block in text."""
    rx, tx = STATS_RX.findall(text), STATS_TX.findall(text)
    return (int(rx[-1]), int(tx[-1])) if rx and tx else (0, 0)


def feed_after_sleeps(p, rest, timeout):
    """Send each group of commands once testpmd executed the previous ones and the pause ended.

    `sleep S`: S seconds later. `wait_rx PORT S`: once PORT's RX-packets reached its
    TX-packets (every frame it sent is back, on a looped wire), polled, or S seconds later.
    `pull PORT QUEUE N S`: once `flow pull PORT queue QUEUE`, repeated, printed N results
    (a pull returns only the operations the device has executed), or S seconds later.
    """
    marks = [0]
    out = []
    cond = threading.Condition()

    def executed(cmd):
        """Send cmd and a mark; wait until testpmd printed the mark; return what cmd printed."""
        with cond:
            start, want = len(out), marks[0] + 1
        p.stdin.write((cmd + '\n' if cmd else '') + MARK_CMD + '\n')
        p.stdin.flush()
        with cond:
            cond.wait_for(lambda: marks[0] >= want, max(0, deadline - time.monotonic()))
            return ''.join(out[start:])

    def pause(words):
        if words[0] == 'sleep':
            time.sleep(float(words[1]))
            return
        if words[0] == 'pull':
            until, got = min(deadline, time.monotonic() + float(words[4])), 0
            while got < int(words[3]) and time.monotonic() < until:
                got += pulled(executed('flow pull %s queue %s' % (words[1], words[2])))[0]
            return
        until = min(deadline, time.monotonic() + float(words[2]))
        while time.monotonic() < until:
            rx, tx = port_rx_tx(executed('show port stats %s' % words[1]))
            if tx > 0 and rx >= tx:
                return
            time.sleep(0.1)

    def reader():
        for line in p.stdout:
            with cond:
                out.append(line)
                if MARK_LINE in line:
                    marks[0] += 1
                    cond.notify_all()
        with cond:
            marks[0] = float('inf')
            cond.notify_all()

    t = threading.Thread(target=reader, daemon=True)
    t.start()
    deadline = time.monotonic() + timeout
    try:
        for words, cmds in rest:
            executed(None)
            pause(words)
            p.stdin.write(''.join(c + '\n' for c in cmds))
            p.stdin.flush()
        p.stdin.close()
    except BrokenPipeError:
        pass
    p.wait(max(1, deadline - time.monotonic()))
    t.join(5)
    return p.returncode, unprompt(''.join(out))


def run_commands(argv, commands, env, timeout=120, cwd=None):
    """Run testpmd (argv, ending with its application arguments) on the commands.

    `sleep S` or `wait_rx PORT S` among the commands: the device works beside
    testpmd (a frame sent is on its way until the device is done with it), so
    what follows is sent once testpmd executed what came before and the pause
    ended (read from stdin; the output is line-buffered for that, see
    pmd_load_args; see feed_after_sleeps).
    Returns (returncode, combined output).
    """
    head, rest = split_sleeps(commands)
    with tempfile.NamedTemporaryFile('w', suffix='.cmd', delete=False, dir=cwd) as f:
        f.write('\n'.join(head) + '\n')
        cmdfile = f.name
    argv = list(argv) + ['--cmdline-file=' + cmdfile]
    try:
        if rest:
            p = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                 stderr=subprocess.STDOUT, env=env, universal_newlines=True,
                                 errors='replace')
            try:
                return feed_after_sleeps(p, rest, timeout)
            finally:
                if p.poll() is None:
                    p.kill()
        p = subprocess.run(argv, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, env=env, timeout=timeout,
                           universal_newlines=True, errors='replace')
    finally:
        os.unlink(cmdfile)
    return p.returncode, p.stdout


def run_testpmd(testpmd, pmd, vdev, commands, app_args=(), eal_extra=(), wrapper=(),
                timeout=120, line_buffered=False):
    """Run testpmd on the commands (see run_commands); return (returncode, combined output).

    vdev: one --vdev argument or a list of them (ports in that order), as on the
    device model; test_backend puts them on the run's backend.
    """
    env = dict(os.environ)
    ports = test_backend.ports([vdev] if isinstance(vdev, str) else vdev)
    env.update(ports.env)
    sleeps = any(is_pause(c) for c in commands)
    eal = pmd_load_args(pmd, env, line_buffered or sleeps)
    prefix = 'mlx5dm_tp_%d' % os.getpid()
    cmd = list(wrapper) + [
        testpmd, '--no-huge', '--no-pci', '-m', '1024', '-l', '0-1',
        '--file-prefix=' + prefix, '--no-shconf', '--log-level=lib.eal:error',
    ]
    for v in ports.vdevs:
        cmd += ['--vdev', v]
    cmd += eal + list(eal_extra) + [
        '--', '-i', '--no-mlockall', '--total-num-mbufs=8192',
    ] + list(app_args)
    return run_commands(cmd, commands, env, timeout)


XSTATS_HDR = re.compile(r'#+ NIC extended statistics for port (\d+)')
XSTAT_LINE = re.compile(r'^\s*([A-Za-z0-9_\[\]\.]+):\s+(\d+)\s*$')


def parse_xstats(output):
    """Every `show port xstats` block, in order, as (port, {name: value})."""
    blocks = []
    cur = None
    for line in output.splitlines():
        m = XSTATS_HDR.search(line)
        if m:
            cur = {}
            blocks.append((int(m.group(1)), cur))
            continue
        if cur is None:
            continue
        m = XSTAT_LINE.match(line)
        if m:
            cur[m.group(1)] = int(m.group(2))
        elif line.startswith('#') or line.startswith('testpmd>'):
            cur = None
    return blocks


class Checker:
    """Collects named checks; prints one line each and a closing summary."""

    def __init__(self, name):
        self.name = name
        self.failed = 0
        self.passed = 0

    def check(self, what, cond, detail=''):
        if cond:
            self.passed += 1
            print('ok   %s' % what)
        else:
            self.failed += 1
            print('FAIL %s %s' % (what, detail))

    def done(self, output=None):
        print('%s: %d checks passed, %d failed' % (self.name, self.passed, self.failed))
        if self.failed and output is not None:
            print('---- testpmd output ----')
            print(output)
        sys.exit(1 if self.failed or self.passed == 0 else 0)
