#!/usr/bin/env python3
"""compare-builds: two fenguard builds must give the same bytes on a long session.

Usage: scripts/compare-builds.py BEFORE AFTER [--lines N] [--seed S]

Generates a long GUI session (python-chess): games resent move by move from `startpos` and
from FENs, every line a new position, Chess960 starts with castles in both notations, illegal
moves, missing promotions, FENs to repair or reject, odd whitespace and `\\r\\n`, quotes,
backslashes, control bytes, non-ASCII and non-UTF-8 bytes in the lines, `setoption
UCI_Chess960`, `ucinewgame`, `go` and `isready`. Each build runs it through
bench/mock_engine.c (built with gcc) under four configurations (the default; `on_invalid`
"repair" and "forward"; `chess960 = "detect"`). The GUI's output and `positions.jsonl` must be
byte-identical, `ts`, `session`, the engine's `pid` and `elapsed_ms` aside (the session is sent
a piece at a time, each up to an `isready` whose `readyok` is awaited, so that it is the same
session on every run). Exit status 0 when they are.
"""

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile

import chess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

CONFIGS = {
    "default": "",
    "repair": '[positions]\non_invalid = "repair"\n',
    "forward": '[positions]\non_invalid = "forward"\n',
    "detect": '[positions]\nchess960 = "detect"\non_invalid = "repair"\n',
}

ODD = [b"\"", b"\\", b"\x01", b"\x1b", b"\x7f", "\u00e9".encode(), b"\xff\xfe", "\u2028".encode()]


def random_game(rng, board, plies):
    moves = []
    for _ in range(plies):
        legal = list(board.legal_moves)
        if not legal:
            break
        mv = rng.choice(legal)
        moves.append(mv)
        board.push(mv)
    return moves


def uci(board, mv, chess960):
    """The move in standard (`e1g1`) or Chess960 (`e1h1`) castling notation."""
    return board.uci(mv, chess960=chess960)


def texts(start, moves, chess960):
    board = start.copy()
    out = []
    for mv in moves:
        out.append(uci(board, mv, chess960))
        board.push(mv)
    return out


def mangle(rng, words):
    """Odd spacing, an odd byte in a move, an illegal or unpromoted move, now and then."""
    words = [w.encode() if isinstance(w, str) else w for w in words]
    r = rng.random()
    if r < 0.05 and words:
        i = rng.randrange(len(words))
        words[i] = words[i] + rng.choice(ODD)
    elif r < 0.08 and words:
        words.insert(rng.randrange(len(words) + 1), b"e2e5")
    elif r < 0.10 and words and len(words[-1]) == 5:
        words[-1] = words[-1][:4]
    sep = b" "
    if rng.random() < 0.05:
        sep = rng.choice([b"  ", b"\t", b" \t "])
    return sep.join(words)


def fen_line(rng, fen, words):
    fen = fen.encode()
    r = rng.random()
    if r < 0.03:
        fen = fen.replace(b"K", b"", 1)  # no white king
    elif r < 0.06:
        fen = fen.replace(b" - ", b" KQkq ", 1)  # castling rights without the pieces
    elif r < 0.08:
        fen = b" ".join(fen.split(b" ")[:2])  # missing fields
    elif r < 0.09:
        fen = fen + b" " + rng.choice(ODD)
    line = b"position fen " + fen
    if words or rng.random() < 0.3:
        line += b" moves " + mangle(rng, words)
    return line


def session(rng, n):
    out = [b"uci", b"isready"]
    chess960 = False
    while len(out) < n:
        kind = rng.random()
        if kind < 0.05:
            chess960 = not chess960
            out.append(b"setoption name UCI_Chess960 value " + (b"true" if chess960 else b"false"))
            out.append(b"isready")
            continue
        if kind < 0.35:
            # A game resent move by move (the memo's case).
            if rng.random() < 0.5:
                start, head = chess.Board(), b"position startpos"
            else:
                start = chess.Board()
                random_game(rng, start, rng.randrange(0, 30))
                head = b"position fen " + start.fen().encode()
            board = start.copy()
            moves = random_game(rng, board, rng.randrange(1, 40))
            words = texts(start, moves, chess960)
            out.append(b"ucinewgame")
            for k in range(len(words) + 1):
                line = head + (b" moves " + mangle(rng, words[:k]) if k else b"")
                out.append(line)
                if rng.random() < 0.2:
                    out.append(b"go depth 1")
                out.append(b"isready")
        elif kind < 0.55:
            # Chess960 starts, castles included where the game has them.
            start = chess.Board.from_chess960_pos(rng.randrange(960))
            board = start.copy()
            moves = random_game(rng, board, rng.randrange(0, 30))
            for notation in (True, False):
                words = texts(start, moves, notation)
                out.append(fen_line(rng, start.fen(), words))
                out.append(b"isready")
        else:
            # Every line a new position.
            start = chess.Board()
            random_game(rng, start, rng.randrange(0, 60))
            board = start.copy()
            moves = random_game(rng, board, rng.randrange(0, 20))
            out.append(fen_line(rng, start.fen(), texts(start, moves, chess960)))
            if rng.random() < 0.1:
                out.append(b"go movetime 1")
            out.append(b"isready")
    out.append(b"quit")
    ends = [b"\n", b"\r\n"]
    return b"".join(line + (ends[1] if rng.random() < 0.05 else ends[0]) for line in out)


def normalize(log):
    log = re.sub(rb'"ts":"[^"]*","session":"[^"]*"', b'"ts":"","session":""', log)
    log = re.sub(rb'"elapsed_ms":\d+', b'"elapsed_ms":0', log)
    return re.sub(rb'"pid":\d+', b'"pid":0', log)


def run(binary, engine, config, gui, work):
    """Runs `binary` on `gui` a piece at a time: each piece ends with an `isready` and the
    next is sent once its `readyok` came back, so that the engine's answers (and the records
    of searches) take the same place among the GUI's lines on every run."""
    logs = tempfile.mkdtemp(dir=work)
    cmd = [binary, "--log-dir", logs]
    if config:
        path = os.path.join(logs, "fenguard.toml")
        with open(path, "w") as f:
            f.write(config)
        cmd += ["--config", path]
    env = dict(os.environ, MOCK_BURST="3")
    proc = subprocess.Popen(cmd + ["--", engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL,
                            env=env, cwd=logs)
    out = []
    piece = []
    for line in gui.splitlines(keepends=True):
        piece.append(line)
        if line.rstrip(b"\r\n") != b"isready":
            continue
        proc.stdin.write(b"".join(piece))
        proc.stdin.flush()
        piece = []
        while True:
            answer = proc.stdout.readline()
            out.append(answer)
            if not answer or answer == b"readyok\n":
                break
    proc.stdin.write(b"".join(piece))
    proc.stdin.close()
    out.append(proc.stdout.read())
    proc.wait(timeout=60)
    with open(os.path.join(logs, "positions.jsonl"), "rb") as f:
        return b"".join(out), normalize(f.read())


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("before")
    p.add_argument("after")
    p.add_argument("--lines", type=int, default=20000)
    p.add_argument("--seed", type=int, default=17)
    a = p.parse_args()
    work = tempfile.mkdtemp(prefix="compare-builds.")
    engine = os.path.join(work, "mock_engine")
    subprocess.run(["gcc", "-O2", "-o", engine, os.path.join(ROOT, "bench/mock_engine.c")],
                   check=True)
    gui = session(random.Random(a.seed), a.lines)
    failed = 0
    for name, config in CONFIGS.items():
        before = run(a.before, engine, config, gui, work)
        after = run(a.after, engine, config, gui, work)
        records = before[1].count(b"\n")
        same = before == after
        lines = gui.count(b"\n")
        print(f"{name}: {lines} GUI lines, {len(before[0])} bytes to the GUI, "
              f"{records} records: {'identical' if same else 'DIFFERENT'}")
        if not same:
            failed = 1
            for label, x, y in (("GUI output", before[0], after[0]), ("log", before[1], after[1])):
                for i, (l, r) in enumerate(zip(x.split(b"\n"), y.split(b"\n"))):
                    if l != r:
                        print(f"  {label} line {i + 1}:\n    before {l[:300]!r}\n    after  {r[:300]!r}")
                        break
    sys.exit(failed)


if __name__ == "__main__":
    main()
