#!/usr/bin/env python3
"""Soak test for fenguard (issue 5): many fast games while the engine is killed at random.

A raw UCI client (subprocess pipes and a reader thread; python-chess 1.11.2 only checks moves)
plays `--games` short games through `fenguard --config FILE --log-dir DIR` in front of the real
engine, `--nodes` nodes a move, a share of them (`--chess960-share`) from Chess960 starts with
`UCI_Chess960` set. Meanwhile a killer thread SIGKILLs fenguard's child (the engine) after
exponentially distributed intervals of mean `--kill-rate` seconds (0: no kills). The config has
`engine.restart = true` and a high `engine.max_restarts`, so fenguard restarts the engine.

Per move the client sends `position ... moves ...` and `go nodes N`, then waits for `bestmove`:
- a legal move (python-chess, in the GUI's notation) is played;
- `bestmove 0000` after a kill is a search lost to a crash and answered; the same position and
  `go` are sent again (up to `--retries` times); a `bestmove 0000` with no kill since the
  previous `go` is "unexplained" and fails;
- no `bestmove` within `--timeout` seconds is a hang; the client then sends `stop` and
  `isready`: if the `bestmove` still does not come, it is lost.
A `bestmove` that arrives while no search is open is "stray" and fails.

At the end: fenguard's peak RSS (VmHWM) is read, fenguard must answer `isready`, exit with
status 0 after `quit`, and leave no engine process. Restarts are counted from
`<log dir>/positions.jsonl` (`engine-start` records minus 1). The last line is
`N passed, M failed` (checks); exit status 1 on any failure.

    scripts/soak.py                      # 500 games, kills every 1 s on average
    scripts/soak.py --quick              # CI: 20 games, kills every 0.5 s on average
    scripts/soak.py --kill-rate 0        # the harness alone, no kills
"""

import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from datetime import datetime

import chess

from soak_client import Client, Stats
from soak_procs import Killer, Proxy, children, proc_state, still_running, status_kib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def read_log(path):
    """(engine-start records, engine-exit records, unparsable lines) of positions.jsonl."""
    starts, exits, bad = [], [], 0
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                try:
                    rec = json.loads(line)
                except json.JSONDecodeError:
                    bad += 1
                    continue
                if rec.get("kind") == "engine-start":
                    starts.append(rec)
                elif rec.get("kind") == "engine-exit":
                    exits.append(rec)
    except OSError:
        bad += 1
    return starts, exits, bad


def restart_latencies(kills, starts):
    """Seconds from each kill to the next `engine-start` record (ts in UTC, SPEC 8)."""
    times = sorted(datetime.fromisoformat(r["ts"].replace("Z", "+00:00")).timestamp()
                   for r in starts if isinstance(r.get("ts"), str))
    out = []
    for _, wall, _ in kills:
        later = [t for t in times if t >= wall]
        if later:
            out.append(later[0] - wall)
    return sorted(out)


def median(values):
    return f"{values[len(values) // 2]:.3f}" if values else None


def ensure_binary(path):
    if os.path.exists(path):
        return
    release = os.path.join(ROOT, "target", "release", "fenguard")
    if os.path.abspath(path) != release:
        sys.exit(f"{path}: no such fenguard binary")
    print("building target/release/fenguard ...", flush=True)
    subprocess.run(["cargo", "build", "--release", "--locked", "--bin", "fenguard"],
                   cwd=ROOT, check=True)


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    p.add_argument("--fenguard", default=os.path.join(ROOT, "target", "release", "fenguard"))
    p.add_argument("--engine", default="/usr/games/stockfish")
    p.add_argument("--games", type=int, default=500)
    p.add_argument("--nodes", type=int, default=300, help="nodes per engine move")
    p.add_argument("--max-plies", type=int, default=80, help="engine plies per game")
    p.add_argument("--random-plies", type=int, default=4, help="random plies first")
    p.add_argument("--kill-rate", type=float, default=1.0,
                   help="mean seconds between engine kills (0: none)")
    p.add_argument("--chess960-share", type=float, default=0.3)
    p.add_argument("--seed", type=int, default=20261129)
    p.add_argument("--timeout", type=float, default=10.0, help="seconds to wait for bestmove")
    p.add_argument("--retries", type=int, default=3, help="new `go`s after `bestmove 0000`")
    p.add_argument("--max-restarts", type=int, default=1000, help="engine.max_restarts")
    p.add_argument("--max-rss-mib", type=float, default=15.0, help="fenguard peak RSS limit")
    p.add_argument("--keep-logs", action="store_true", help="keep the temp log directory")
    p.add_argument("--quick", action="store_true",
                   help="CI mode: 20 games, kills every 0.5 s on average")
    args = p.parse_args()
    if args.quick:
        args.games, args.kill_rate = 20, 0.5
    return args


def main():
    args = parse_args()
    ensure_binary(args.fenguard)
    rng = random.Random(args.seed)
    work = tempfile.mkdtemp(prefix="fenguard-soak-")
    log_dir = os.path.join(work, "logs")
    config = os.path.join(work, "soak.toml")
    with open(config, "w") as f:
        f.write(f"[engine]\ncommand = {json.dumps(args.engine)}\nrestart = true\n"
                f"max_restarts = {args.max_restarts}\n[log]\ndir = {json.dumps(log_dir)}\n")
    cmd = [args.fenguard, "--config", config, "--log-dir", log_dir]
    began = time.monotonic()
    proxy = Proxy(cmd, os.path.join(work, "stderr.txt"))
    stats = Stats()
    killer = Killer(proxy.proc.pid, args.kill_rate, random.Random(args.seed + 1))
    client = Client(proxy, killer, args, stats)
    checks = []

    def check(name, ok, detail=""):
        checks.append((name, ok, detail))

    started = client.handshake()
    check("handshake (uciok, readyok)", started)
    rss_early = None
    if started:
        killer.start()
        for game_no in range(args.games):
            if rng.random() < args.chess960_share:
                board = chess.Board.from_chess960_pos(rng.randrange(960))
            else:
                board = chess.Board()
            if client.play(board, rng):
                stats.games += 1
            if game_no == args.games // 10:
                rss_early = status_kib(proxy.proc.pid, "VmRSS")
            if client.dead:
                break
        killer.stop_event.set()
        killer.join()
    played = time.monotonic() - began
    time.sleep(0.2)
    client.drain("after the last game")
    alive = proxy.proc.poll() is None
    hwm = status_kib(proxy.proc.pid, "VmHWM")
    rss_end = status_kib(proxy.proc.pid, "VmRSS")
    check("fenguard alive after the games", alive)
    check("fenguard answers isready at the end", alive and client.ready(args.timeout))
    engines = {p: proc_state(p) for p in children(proxy.proc.pid)}
    proxy.send("quit")
    try:
        status = proxy.proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proxy.proc.kill()
        status = "no exit within 10 s"
    proxy.reader.join(timeout=5)
    client.drain("after quit")
    check("quit: exit status 0", status == 0, f"status {status}")
    leftovers = [p for p, st in engines.items() if st is not None and still_running(p, st[1])]
    check("no engine process left", not leftovers, f"alive: {leftovers}")

    starts, exits, bad = read_log(os.path.join(log_dir, "positions.jsonl"))
    kills = killer.count()
    started_pids = {r.get("pid") for r in starts}
    strangers = [pid for _, _, pid in killer.kills if pid not in started_pids]
    latencies = restart_latencies(killer.kills, starts)
    restarts = max(len(starts) - 1, 0)
    killed_exits = [e for e in exits if e.get("signal") == signal.SIGKILL]
    check("positions.jsonl readable, every line JSON", bad == 0, f"{bad} bad")
    check(f"all {args.games} games completed", stats.games == args.games, f"{stats.games}")
    check("lost bestmoves = 0", stats.lost == 0, str(stats.lost))
    check("hangs = 0", stats.hangs == 0, str(stats.hangs))
    check("illegal bestmoves = 0", stats.illegal == 0, str(stats.illegal))
    check("stray bestmoves = 0", stats.stray == 0, str(stats.stray))
    check("every bestmove 0000 follows a kill", stats.unexplained_zero == 0,
          str(stats.unexplained_zero))
    check("no search unanswered after retries", stats.retries_exhausted == 0,
          str(stats.retries_exhausted))
    check("restarts = kills", restarts == kills, f"{restarts} restarts, {kills} kills")
    check("engine-exit (signal 9) records = kills", len(killed_exits) == kills,
          f"{len(killed_exits)} records")
    check("`engine exited` info strings = kills", stats.exited_infos == kills,
          f"{stats.exited_infos} info strings")
    check("every killed pid is an engine-start pid", not strangers, f"{strangers}")
    if args.kill_rate > 0:
        check("the engine was killed at least once", kills > 0, f"{kills}")
    check(f"peak RSS <= {args.max_rss_mib} MiB", hwm is not None
          and hwm <= args.max_rss_mib * 1024, f"{hwm} KiB")

    rows = [("games completed", f"{stats.games} / {args.games}"),
            ("moves checked", stats.moves), ("kills sent", kills),
            ("restarts (engine-start - 1)", restarts),
            ("engine-exit records (signal 9)", len(killed_exits)),
            ("`engine exited` info strings", stats.exited_infos),
            ("bestmove 0000 answers", stats.zero_answers),
            ("lost bestmoves", stats.lost), ("hangs", stats.hangs),
            ("illegal bestmoves", stats.illegal), ("stray bestmoves", stats.stray),
            ("restart latency median / max", f"{median(latencies)} / {max(latencies, default=None)} s"),
            ("peak RSS (VmHWM)", f"{hwm} KiB"),
            ("RSS after 10% of games / at end", f"{rss_early} / {rss_end} KiB"),
            ("duration of the games", f"{played:.1f} s"),
            ("nodes / kill rate / seed", f"{args.nodes} / {args.kill_rate} s / {args.seed}")]
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print(f"{name:<{width}}  {value}")
    for event in stats.events:
        print(f"  problem: {event}")
    print()
    for name, ok, detail in checks:
        print(f"{'ok  ' if ok else 'FAIL'} {name}" + (f" ({detail})" if detail and not ok else ""))
    failed = sum(1 for _, ok, _ in checks if not ok)
    if failed or args.keep_logs:
        print(f"logs kept in {work} (stderr.txt, logs/positions.jsonl)")
    else:
        shutil.rmtree(work, ignore_errors=True)
    print(f"{len(checks) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
