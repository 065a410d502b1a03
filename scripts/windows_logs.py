"""The log and configuration checks of scripts/windows_run.py (see there)."""

import os
import re
import shutil
import subprocess
import threading
import time
import uuid

from windows_wine import Proxy, check, json_seq, position_records, wait_until


def config_and_logs(ctx):
    appdata = ctx.wine.env_var("APPDATA")
    local = ctx.wine.env_var("LOCALAPPDATA")
    check(re.match(r"^[A-Z]:\\", appdata) and re.match(r"^[A-Z]:\\", local),
          f"APPDATA={appdata!r} LOCALAPPDATA={local!r}")
    config_win = appdata + "\\fenguard\\fenguard.toml"
    config_unix = ctx.wine.unix_path(config_win)
    log_unix = ctx.wine.unix_path(local + "\\fenguard")
    shutil.rmtree(log_unix, ignore_errors=True)
    os.makedirs(os.path.dirname(config_unix), exist_ok=True)
    marker = f"fgmark-config-{uuid.uuid4().hex[:8]}"
    with open(config_unix, "w", newline="\r\n") as fh:
        # A bare name: found on %PATH% with `.exe` added; the marker through engine.args.
        fh.write(f"# written by scripts/windows_run.py\n[engine]\ncommand = \"fake_engine\"\n"
                 f"args = ['{marker}']\n")
    engine_dir = ctx.wine.win_path(os.path.dirname(ctx.engine))
    p = Proxy(ctx, "config", log_dir=False, engine=False, marker=marker,
              env={"FENGUARD_CONFIG": config_win, "WINEPATH": engine_dir})
    try:
        p.handshake()
        check(p.engine_alive(), f"no engine with the config's argument {p.marker}")
        p.send(b"args\n")
        out = p.wait_for(b"info string args ")
        check(f"info string args {p.marker}\n".encode() in out.replace(b"\r\n", b"\n"),
              f"engine args: {out[-200:]!r}")
        p.send(b"position startpos moves e2e4\nisready\n")
        p.wait_stdout(lambda o: o.count(b"readyok\n") >= 2)
        p.send(b"quit\n")
        check(p.wait_exit() == 0, "quit did not exit 0")
        files = sorted(os.listdir(log_unix)) if os.path.isdir(log_unix) else []
        check("fenguard.log" in files and "positions.jsonl" in files,
              f"{local}\\fenguard holds {files}")
        with open(os.path.join(log_unix, "positions.jsonl"), encoding="utf-8") as fh:
            records = fh.read()
        check('"position startpos moves e2e4"' in records, "position record missing")
        # `fenguard log` without a file reads the same default directory.
        shown = subprocess.run(["wine", ctx.fenguard, "log", "--format", "json"],
                               env=ctx.wine.env, capture_output=True, timeout=120)
        check(shown.returncode == 0 and b"position startpos moves e2e4" in shown.stdout,
              f"`fenguard log`: exit {shown.returncode}, {shown.stdout[-300:]!r} "
              f"{shown.stderr[-300:]!r}")
        return (f"config {config_win} read (engine `fake_engine` found on PATH), "
                f"logs in {local}\\fenguard: {', '.join(files)}; `fenguard log` reads them")
    finally:
        p.kill()


def rotation_and_log(ctx):
    """log.max_bytes / log.keep rotate positions.jsonl and fenguard.log on Windows (renames of
    files fenguard holds open), while `fenguard log -f` follows positions.jsonl across the
    rotations; then `fenguard log --pgn` reads the current file."""
    d = os.path.join(ctx.work, "rotation")
    os.makedirs(d, exist_ok=True)
    config = os.path.join(d, "fenguard.toml")
    with open(config, "w", newline="\r\n") as fh:
        fh.write("[log]\nmax_bytes = 4096\nkeep = 2\ntranscript = true\n")
    p = Proxy(ctx, "rotation", args=["--config", ctx.wine.win_path(config)])
    follower = None
    try:
        p.handshake()
        game = ["g1f3", "g8f6", "f3g1", "f6g8"] * 10
        p.send(b"ucinewgame\nposition startpos\nisready\n")
        p.wait_stdout(lambda o: o.count(b"readyok\n") >= 2)
        positions = os.path.join(p.log_dir, "positions.jsonl")
        follower = subprocess.Popen(
            ["wine", ctx.fenguard, "log", "-f", "--format", "json", ctx.wine.win_path(positions)],
            env=ctx.wine.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        # Drained as it goes: a full pipe would stall the follower.
        followed = []
        drain = threading.Thread(target=lambda: followed.append(follower.stdout.read()), daemon=True)
        drain.start()
        time.sleep(2)  # the follower is reading before the rotations start
        sent = 1
        for rounds in range(3):
            for ply in range(1, len(game) + 1):
                p.send(f"position startpos moves {' '.join(game[:ply])}\n".encode())
                sent += 1
                time.sleep(0.05)  # a rotation every ~0.7 s: the follower polls every 0.1 s
            p.send(b"ucinewgame\nisready\n")
            p.wait_stdout(lambda o, r=rounds: o.count(b"readyok\n") >= 3 + r)
        p.send(b"quit\n")
        check(p.wait_exit() == 0, "quit did not exit 0")
        files = sorted(os.listdir(p.log_dir))
        for name in ("positions.jsonl", "fenguard.log"):
            for suffix in ("", ".1", ".2"):
                check(name + suffix in files, f"no {name}{suffix}: {files}")
            check(name + ".3" not in files, f"keep = 2 but {name}.3 exists")
        sizes = {f: os.path.getsize(os.path.join(p.log_dir, f)) for f in files}
        big = {f: n for f, n in sizes.items() if n > 4096 + 1024}
        check(not big, f"files past the cap (4096 + one record): {big}")
        time.sleep(1.5)  # the follower polls every 100 ms
        follower.kill()
        follower.wait()
        drain.join(30)
        out, err = followed[0] if followed else b"", follower.stderr.read()
        seqs = [json_seq(line) for line in out.decode(errors="replace").splitlines() if line.strip()]
        pos_seqs = sorted(q for kind, q in seqs if kind == "position")
        check(len(pos_seqs) == sent and pos_seqs == sorted(set(pos_seqs)),
              f"follower saw {len(pos_seqs)} position records ({pos_seqs[:3]}..{pos_seqs[-3:]}), "
              f"{sent} sent; stderr {err[-300:]!r}")
        pgn = subprocess.run(["wine", ctx.fenguard, "log", "--pgn", ctx.wine.win_path(positions)],
                             env=ctx.wine.env, capture_output=True, timeout=120)
        text = pgn.stdout.decode(errors="replace")
        check(pgn.returncode == 0 and "1. Nf3 Nf6" in text,
              f"log --pgn: exit {pgn.returncode}, {text[:300]!r} {pgn.stderr[-300:]!r}")
        return (f"{sent} position records; {', '.join(f'{f} {n}' for f, n in sizes.items())} "
                f"bytes; `log -f` saw all {len(pos_seqs)} across the rotations; `log --pgn` read")
    finally:
        if follower and follower.poll() is None:
            follower.kill()
            follower.wait()
        p.kill()


def two_writers(ctx):
    """Two fenguards (a GUI's engine match) share one log directory: after A rotates
    positions.jsonl, B's next record goes to the new positions.jsonl, not to the file A renamed
    (B notices by file identity). Writes are one at a time: Wine 8's appends from two processes
    to one file are not atomic (two `FILE_APPEND_DATA` writers lose lines under Wine, not
    under Windows), so concurrent writing is not a test of fenguard here."""
    d = os.path.join(ctx.work, "two-writers")
    logs = os.path.join(d, "logs")
    os.makedirs(d, exist_ok=True)
    config = os.path.join(d, "fenguard.toml")
    with open(config, "w", newline="\r\n") as fh:
        fh.write("[log]\nmax_bytes = 4096\nkeep = 100\n")
    args = ["--config", ctx.wine.win_path(config), "--log-dir", ctx.wine.win_path(logs)]
    a = Proxy(ctx, "writer-a", args=args, log_dir=False)
    b = Proxy(ctx, "writer-b", args=args, log_dir=False)

    def count():
        return sum(len(v) for v in position_records(logs).values()) if os.path.isdir(logs) else 0

    try:
        for p in (a, b):
            p.handshake()
        b.send(b"position startpos moves e2e4\n")
        check(wait_until(lambda: count() == 1, 10), "B's first record never written")
        game = ["g1f3", "g8f6", "f3g1", "f6g8"] * 10
        for ply in range(1, len(game) + 1):
            a.send(f"position startpos moves {' '.join(game[:ply])}\n".encode())
        check(wait_until(lambda: count() == 1 + len(game), 10), f"A's records: {count() - 1}")
        before = position_records(logs)
        check(len(before) >= 3, f"A did not rotate: {sorted(before)}")
        b.send(b"position startpos moves e2e4 e7e5\n")
        check(wait_until(lambda: count() == 2 + len(game), 10), "B's second record never written")
        after = position_records(logs)
        newest = after.get("positions.jsonl", [])
        sessions = {s for s, _ in newest}
        for p in (a, b):
            p.send(b"quit\n")
            check(p.wait_exit() == 0, "quit did not exit 0")
        check(len(sessions) == 2,
              f"positions.jsonl holds the records of {len(sessions)} session(s) after B's write "
              f"({len(newest)} records): B wrote to a rotated file; files "
              f"{ {f: len(v) for f, v in after.items()} }")
        return (f"A rotated {len(before) - 1} times; B's next record is in the new "
                f"positions.jsonl with A's latest ({len(newest)} records there)")
    finally:
        a.kill()
        b.kill()


def check_crlf(ctx):
    fens = (b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\r\n"
            b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1\r\n")
    out = subprocess.run(["wine", ctx.fenguard, "check", "--format", "fen"], input=fens,
                         env=ctx.wine.env, capture_output=True, timeout=120)
    lines = out.stdout.replace(b"\r\n", b"\n").decode(errors="replace").splitlines()
    check(len(lines) == 2, f"exit {out.returncode}, stdout {out.stdout!r}, stderr {out.stderr[-300:]!r}")
    check(lines[0].startswith("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
          f"first line {lines[0]!r}")
    check(lines[1] == "invalid" or "e9" not in lines[1], f"second line {lines[1]!r}")
    return f"exit {out.returncode}: {lines!r}"
