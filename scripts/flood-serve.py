#!/usr/bin/env python3
"""Pre-auth flood test of `fenguard serve` (issue 16): idle connections at --rate a second
against a daemon whose descriptor limit is --nofile (soft and hard, as `ulimit -n`), while a
legitimate client (`auth TOKEN`, `uci` -> `uciok`, `isready` -> `readyok`, `quit`) connects
every --interval seconds.

Loopback only: the flood comes from 127.0.0.2 ... 127.0.0.(1+--sources) (--sources 0: from
127.0.0.1, the legitimate clients' own address), the legitimate clients from 127.0.0.1.
Bounded: it runs --duration seconds, holds at most --hold flood connections itself (the oldest
is closed beyond that), then stops the daemon with SIGTERM.

Reports, once a second and at the end: legitimate clients in / tried, their time to `readyok`,
the daemon's descriptors (/proc/PID/fd) and RSS, flood connections opened; and the daemon's
"shedding load" log lines.

    python3 scripts/flood-serve.py --fenguard target/debug/fenguard --rate 600 --duration 20

Exit status 1 when a legitimate client did not get in.
"""

import argparse
import collections
import errno
import hashlib
import os
import resource
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def proc_stats(pid):
    """(descriptors, RSS KiB) of pid, (0, 0) once it is gone."""
    try:
        fds = len(os.listdir(f"/proc/{pid}/fd"))
        with open(f"/proc/{pid}/status") as f:
            rss = next(int(l.split()[1]) for l in f if l.startswith("VmRSS:"))
        return fds, rss
    except (OSError, StopIteration):
        return 0, 0


def legit_client(port, token, timeout, results):
    """One legitimate session; appends (ok, seconds, why)."""
    start = time.monotonic()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
            s.settimeout(timeout)
            s.sendall(f"auth {token}\nuci\n".encode())
            buf = b""
            for want, then in ((b"uciok\n", b"isready\n"), (b"readyok\n", b"quit\n")):
                while want not in buf:
                    chunk = s.recv(4096)
                    if not chunk:
                        raise ConnectionError(f"closed; got {buf[-200:]!r}")
                    buf += chunk
                s.sendall(then)
        results.append((True, time.monotonic() - start, ""))
    except (OSError, ConnectionError) as e:
        results.append((False, time.monotonic() - start, str(e)))


def flood(port, rate, sources, hold, stop, counts):
    """Opens idle connections at `rate` a second until `stop` is set."""
    held = collections.deque()
    addrs = [f"127.0.0.{2 + i % 250}" for i in range(sources)] or ["127.0.0.1"]
    next_at = time.monotonic()
    i = 0
    while not stop.is_set():
        now = time.monotonic()
        if now < next_at:
            time.sleep(min(next_at - now, 0.01))
            continue
        next_at += 1.0 / rate
        s = socket.socket()
        s.setblocking(False)
        try:
            s.bind((addrs[i % len(addrs)], 0))
            err = s.connect_ex(("127.0.0.1", port))
        except OSError as e:
            err = e.errno
        i += 1
        if err not in (0, errno.EINPROGRESS):
            counts["failed"] += 1
            s.close()
            continue
        counts["opened"] += 1
        held.append(s)
        while len(held) > hold:
            held.popleft().close()
    for s in held:
        s.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fenguard", default="target/debug/fenguard")
    ap.add_argument("--engine", default="target/debug/fake_engine")
    ap.add_argument("--rate", type=float, default=600, help="flood connections a second")
    ap.add_argument("--duration", type=float, default=20, help="seconds of flood")
    ap.add_argument("--interval", type=float, default=0.1, help="seconds between legit clients")
    ap.add_argument("--nofile", type=int, default=1024, help="the daemon's RLIMIT_NOFILE")
    ap.add_argument("--sources", type=int, default=50, help="flood source addresses (0: 127.0.0.1)")
    ap.add_argument("--hold", type=int, default=3000, help="flood connections held at most")
    ap.add_argument("--timeout", type=float, default=5, help="legit client's patience, s")
    ap.add_argument("--extra-config", default="", help="more [serve] lines")
    args = ap.parse_args()
    args.duration = min(args.duration, 300)
    args.rate = min(args.rate, 5000)

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, args.hold + 1000), hard))

    work = tempfile.mkdtemp(prefix="fenguard-flood-")
    token = secrets.token_hex(32)
    tokens = os.path.join(work, "tokens")
    with open(tokens, "w") as f:
        f.write(hashlib.sha256(token.encode()).hexdigest() + " flood-test\n")
    os.chmod(tokens, 0o600)
    config = os.path.join(work, "serve.toml")
    with open(config, "w") as f:
        f.write(f'[serve]\ntokens_file = "{tokens}"\n{args.extra_config}\n')
    port = free_port()

    def limit():
        resource.setrlimit(resource.RLIMIT_NOFILE, (args.nofile, args.nofile))

    daemon = subprocess.Popen(
        [args.fenguard, "serve", "--config", config, "--log-dir", os.path.join(work, "logs"),
         "--listen", f"127.0.0.1:{port}", "--", args.engine],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=open(os.path.join(work, "stderr"), "w"), preexec_fn=limit)
    deadline = time.monotonic() + 10
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            if time.monotonic() > deadline or daemon.poll() is not None:
                sys.exit(f"daemon did not start; see {work}/stderr")
            time.sleep(0.05)
    time.sleep(0.3)

    stop = threading.Event()
    counts = collections.Counter()
    flooder = threading.Thread(target=flood, args=(port, args.rate, args.sources, args.hold, stop, counts))
    flooder.start()
    results, clients, samples = [], [], []
    start = time.monotonic()
    next_client = start + 0.5
    next_sample = start
    while time.monotonic() - start < args.duration:
        now = time.monotonic()
        if now >= next_client:
            t = threading.Thread(target=legit_client, args=(port, token, args.timeout, results))
            t.start()
            clients.append(t)
            next_client += args.interval
        if now >= next_sample:
            fds, rss = proc_stats(daemon.pid)
            ok = sum(1 for r in results if r[0])
            samples.append((fds, rss))
            print(f"t={now - start:5.1f}s flood opened {counts['opened']:6d} failed {counts['failed']:4d} "
                  f"| legit {ok}/{len(results)} | daemon fds {fds:4d} rss {rss / 1024:6.1f} MiB", flush=True)
            next_sample += 1
        time.sleep(0.005)
    stop.set()
    flooder.join()
    for t in clients:
        t.join(args.timeout + 5)
    daemon.send_signal(signal.SIGTERM)
    try:
        code = daemon.wait(10)
    except subprocess.TimeoutExpired:
        daemon.kill()
        code = "killed"

    ok = [r for r in results if r[0]]
    bad = [r for r in results if not r[0]]
    times = sorted(r[1] for r in ok)
    elapsed = args.duration
    print(f"\nflood: {counts['opened']} idle connections opened in {elapsed:.0f} s "
          f"({counts['opened'] / elapsed:.0f}/s), {counts['failed']} failed to open, from "
          f"{max(args.sources, 1)} source addresses; daemon RLIMIT_NOFILE {args.nofile}")
    print(f"legitimate clients: {len(ok)}/{len(results)} got in "
          f"({100.0 * len(ok) / max(len(results), 1):.1f}%)")
    if times:
        p95 = times[min(len(times) - 1, int(len(times) * 0.95))]
        print(f"  time to readyok: median {statistics.median(times) * 1000:.0f} ms, "
              f"p95 {p95 * 1000:.0f} ms, max {times[-1] * 1000:.0f} ms")
    for r in bad[:5]:
        print(f"  failed after {r[1]:.2f} s: {r[2]}")
    fds = [s[0] for s in samples if s[0]]
    rss = [s[1] for s in samples if s[1]]
    if fds:
        print(f"daemon descriptors: min {min(fds)}, max {max(fds)}; RSS max {max(rss) / 1024:.1f} MiB")
    log = ""
    logs = os.path.join(work, "logs")
    for name in sorted(os.listdir(logs)) if os.path.isdir(logs) else []:
        if name.startswith("fenguard.log"):
            with open(os.path.join(logs, name), errors="replace") as f:
                log += f.read()
    shed = [l for l in log.splitlines() if "shedding load" in l]
    print(f"daemon log: {len(log.splitlines())} lines, {len(shed)} 'shedding load' summaries, "
          f"{log.count('cannot duplicate')} 'cannot duplicate'; exit {code}")
    for line in shed[:2]:
        print("  " + line[line.find("shedding"):][:400])
    print(f"(work directory {work})")
    sys.exit(0 if results and not bad else 1)


if __name__ == "__main__":
    main()
