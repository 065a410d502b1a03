#!/usr/bin/env python3
"""Soak test for fenguard (issue 5): many fast games while the engine is killed at random.

A raw UCI client (subprocess pipes and a reader thread; python-chess 1.11.2 only checks moves)
plays `--games` short games through `fenguard --config FILE --log-dir DIR` in front of the real
engine, `--nodes` nodes a move, a share of them (`--chess960-share`) from Chess960 starts with
`UCI_Chess960` set. Meanwhile a killer thread SIGKILLs fenguard's child (the engine) after
exponentially distributed intervals of mean `--kill-rate` seconds (0: no kills); after a kill,
with probability `--early-kill-share`, the next kill hits the new engine within 60 ms of its start,
while fenguard replays `uci`, options and position to it. The config has
`engine.restart = true` and a high `engine.max_restarts`, so fenguard restarts the engine.

Per move the client sends `position ... moves ...` and `go nodes N`, then waits for `bestmove`:
- a legal move (python-chess, in the GUI's notation) is played;
- `bestmove 0000` after a kill is a search lost to a crash and answered; the same position and
  `go` are sent again (up to `--retries` times); more `bestmove 0000` answers than kills fail;
- no `bestmove` within `--timeout` seconds of the `go` or of the last kill, whichever is later
  (fenguard waits up to 2 s before each restart), is a hang; the client then sends `stop` and
  `isready`: if the `bestmove` still does not come, it is lost.
A `bestmove` that arrives while no search is open is "stray" and fails, and so does any
`readyok` not asked for, or `uciok`/`id`/`option` after the handshake (leaks of the replay).

At the end: fenguard's own memory (RssAnon; VmHWM is reported) is read, fenguard must answer `isready`, exit with
status 0 after `quit`, and leave no engine process. Restarts are counted from
`<log dir>/positions.jsonl` (`engine-start` records minus 1). The last line is
`N passed, M failed` (checks); exit status 1 on any failure, 2 without Linux /proc.

    scripts/soak.py                      # 500 games, kills every 1 s on average
    scripts/soak.py --quick              # CI: 20 games, 8 kills (every 0.2 s on average)
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
    except OSError as exc:
        bad = f"cannot read: {exc.strerror}"
    return starts, exits, bad


def restart_latencies(kills, starts):
    """Seconds from each kill to the next `engine-start` record (ts in UTC, SPEC 8)."""
    times = sorted(datetime.fromisoformat(r["ts"].replace("Z", "+00:00")).timestamp()
                   for r in starts if isinstance(r.get("ts"), str))
    out = []
    for wall, _, _ in kills:
        later = [t for t in times if t >= wall]
        if later:
            out.append(later[0] - wall)
    return sorted(out)


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
    p.add_argument("--max-kills", type=int, default=0, help="stop killing after N (0: never)")
    p.add_argument("--early-kill-share", type=float, default=0.25,
                   help="share of kills that hit a new engine during fenguard's replay")
    p.add_argument("--chess960-share", type=float, default=0.3)
    p.add_argument("--seed", type=int, default=20261129)
    p.add_argument("--timeout", type=float, default=10.0, help="seconds to wait for bestmove")
    p.add_argument("--retries", type=int, default=3, help="new `go`s after `bestmove 0000`")
    p.add_argument("--max-restarts", type=int, default=1000, help="engine.max_restarts")
    p.add_argument("--max-rss-mib", type=float, default=15.0,
                   help="limit of fenguard's own memory (RssAnon)")
    p.add_argument("--keep-logs", action="store_true", help="keep the temp log directory")
    p.add_argument("--quick", action="store_true",
                   help="CI mode: 20 games, 8 kills, every 0.2 s on average")
    args = p.parse_args()
    if args.quick:
        args.games, args.kill_rate, args.max_kills = 20, 0.2, 8
    return args


def play_games(client, args, facts):
    """Plays `args.games` games (fewer when fenguard dies); notes RSS after a tenth of them."""
    rng = random.Random(args.seed)
    for game_no in range(args.games):
        if rng.random() < args.chess960_share:
            board = chess.Board.from_chess960_pos(rng.randrange(960))
        else:
            board = chess.Board()
        if client.play(board, rng):
            client.stats.games += 1
        if game_no == args.games // 10:
            facts["rss_early"] = status_kib(client.proxy.proc.pid, "VmRSS")
            facts["anon_early"] = status_kib(client.proxy.proc.pid, "RssAnon")
        if client.dead:
            return


def shut_down(client, args, check, facts):
    """Final memory reading, `isready`, `quit`, exit status and leftover engines."""
    proxy = client.proxy
    time.sleep(0.2)
    client.drain("after the last game")
    alive = proxy.proc.poll() is None
    facts["hwm"] = status_kib(proxy.proc.pid, "VmHWM")
    facts["rss_end"] = status_kib(proxy.proc.pid, "VmRSS")
    facts["anon_end"] = status_kib(proxy.proc.pid, "RssAnon")
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


def check_counts(stats, killer, args, log_path, check, facts):
    """The checks on the counters and on positions.jsonl; fills `facts` for the table."""
    starts, exits, bad = read_log(log_path)
    kills = facts["kills"] = killer.count()
    facts["early"] = sum(1 for _, _, early in killer.kills if early)
    started_pids = {r.get("pid") for r in starts}
    strangers = [pid for _, pid, _ in killer.kills if pid not in started_pids]
    facts["latencies"] = restart_latencies(killer.kills, starts)
    restarts = facts["restarts"] = max(len(starts) - 1, 0)
    killed = facts["killed_exits"] = sum(1 for e in exits if e.get("signal") == signal.SIGKILL)
    check("positions.jsonl readable, every line JSON", bad == 0, bad)
    check(f"all {args.games} games completed", stats.games == args.games, stats.games)
    check("lost bestmoves = 0", stats.lost == 0, stats.lost)
    check("hangs = 0", stats.hangs == 0, stats.hangs)
    check("illegal bestmoves = 0", stats.illegal == 0, stats.illegal)
    check("stray bestmoves = 0", stats.stray == 0, stats.stray)
    check("no unasked readyok/uciok/id/option", stats.leaked == 0, stats.leaked)
    check("bestmove 0000 answers <= kills", stats.unexplained_zero == 0,
          f"{stats.zero_answers} answers, {kills} kills")
    check("no search unanswered after retries", stats.retries_exhausted == 0,
          stats.retries_exhausted)
    check("restarts = kills", restarts == kills, f"{restarts} restarts, {kills} kills")
    check("engine-exit (signal 9) records = kills", killed == kills, f"{killed} records")
    check("`engine exited` info strings = kills", stats.exited_infos == kills,
          f"{stats.exited_infos} info strings")
    check("every killed pid is an engine-start pid", not strangers, strangers)
    if args.kill_rate > 0:
        check("the engine was killed at least once", kills > 0, kills)
    # fenguard's own memory (RssAnon: heap, stacks), sampled after a tenth of the games and at
    # the end: VmHWM also counts the pages of the binary itself, ~14 MiB for a debug build.
    anon = [facts.get("anon_early"), facts.get("anon_end")]
    anon = max((a for a in anon if a is not None), default=None)
    check(f"own memory (RssAnon) <= {args.max_rss_mib} MiB",
          anon is not None and anon <= args.max_rss_mib * 1024, f"{anon} KiB")


def print_table(stats, args, facts):
    lat = facts["latencies"]
    rows = [("games completed", f"{stats.games} / {args.games}"),
            ("moves checked", stats.moves), ("kills sent", facts["kills"]),
            ("kills within the engine's first moments", facts["early"]),
            ("restarts (engine-start - 1)", facts["restarts"]),
            ("engine-exit records (signal 9)", facts["killed_exits"]),
            ("`engine exited` info strings", stats.exited_infos),
            ("bestmove 0000 answers", stats.zero_answers),
            ("lost bestmoves", stats.lost), ("hangs", stats.hangs),
            ("illegal bestmoves", stats.illegal), ("stray bestmoves", stats.stray),
            ("kill -> engine-start median / max",
             f"{seconds(lat[len(lat) // 2] if lat else None)} / "
             f"{seconds(max(lat, default=None))}"),
            ("peak RSS (VmHWM, binary pages included)", f"{facts.get('hwm')} KiB"),
            ("own memory (RssAnon) after 10% of games / at end",
             f"{facts.get('anon_early')} / {facts.get('anon_end')} KiB"),
            ("RSS after 10% of games / at end",
             f"{facts.get('rss_early')} / {facts.get('rss_end')} KiB"),
            ("duration of the games", seconds(facts["played"])),
            ("nodes / kill rate / seed", f"{args.nodes} / {args.kill_rate} s / {args.seed}")]
    rows += [(f"info string fenguard: {k}", n) for k, n in sorted(stats.fenguard_infos.items())]
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print(f"{name:<{width}}  {value}")
    for event in stats.events:
        print(f"  problem: {event}")
    print()


def seconds(value):
    return "-" if value is None else f"{value:.3f} s"


def main():
    args = parse_args()
    if not os.path.isdir("/proc/self/task"):
        print("soak.py needs Linux /proc (children, VmHWM)", file=sys.stderr)
        return 2
    ensure_binary(args.fenguard)
    work = tempfile.mkdtemp(prefix="fenguard-soak-")
    log_dir = os.path.join(work, "logs")
    config = os.path.join(work, "soak.toml")
    with open(config, "w") as f:
        f.write(f"[engine]\ncommand = {json.dumps(args.engine)}\nrestart = true\n"
                f"max_restarts = {args.max_restarts}\n[log]\ndir = {json.dumps(log_dir)}\n")
    began = time.monotonic()
    proxy = Proxy([args.fenguard, "--config", config, "--log-dir", log_dir],
                  os.path.join(work, "stderr.txt"))
    stats = Stats()
    killer = Killer(proxy.proc.pid, args.kill_rate, random.Random(args.seed + 1),
                    args.early_kill_share, limit=args.max_kills)
    client = Client(proxy, killer, args, stats)
    checks, facts = [], {}

    def check(name, ok, detail=""):
        checks.append((name, ok, detail))

    started = client.handshake()
    check("handshake (uciok, readyok)", started)
    if started:
        killer.start()
        play_games(client, args, facts)
        killer.stop_event.set()
        killer.join()
    facts["played"] = time.monotonic() - began
    shut_down(client, args, check, facts)
    check_counts(stats, killer, args, os.path.join(log_dir, "positions.jsonl"), check, facts)
    print_table(stats, args, facts)
    for name, ok, detail in checks:
        print(f"{'ok  ' if ok else 'FAIL'} {name}" + ("" if ok or detail == "" else f" ({detail})"))
    failed = sum(1 for _, ok, _ in checks if not ok)
    if failed or args.keep_logs:
        print(f"logs kept in {work} (soak.toml, stderr.txt, logs/positions.jsonl)")
    else:
        shutil.rmtree(work, ignore_errors=True)
    print(f"{len(checks) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
