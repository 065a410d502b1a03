#!/usr/bin/env python3
"""A UCI engine on python-chess with switchable faults, for `fenguard doctor`'s tests.

    python3 tests/doctor/fault_engine.py [--faults NAME,NAME...]

Clean (no faults) it does what doctor expects of a sound engine: `id name` / `id author`,
options, `isready` at any time, every `go` form with an `info ... score ...` line before its
`bestmove`, `go perft N` with a divide (Stockfish's shape), `UCI_Chess960` (king takes rook),
and a refusal (`info string invalid position`, `bestmove 0000`) for a position it cannot read.
Its search is one ply (a mate in one if there is one); its moves are legal. Each fault breaks
one thing (FAULTS below), found by one doctor check.
"""

import os
import sys
import threading
import time

import chess

FAULTS = {
    "divide-illegal": "perft divide lists `z9z9: 0` (the total stays right)",
    "divide-missing": "perft divide leaves out its last move, its count added to the first",
    "castle-king-target": "with UCI_Chess960, castles written king-to-target (e1c1, e1g1)",
    "no-score": "no `score` in its info lines (fastchess --compliance fails it)",
    "no-author": "no `id author` (fastchess --compliance fails it)",
    "movetime-overshoot": "`go movetime T` answers after T + 400 ms",
    "crash-no-kings": "a position without a white king: a message on stderr, then abort()",
    "xboard": "answers `uci` as an xboard engine does: `Error (unknown command): uci`",
    "leading-space": "ignores a line with leading spaces",
    "hang-eof": "does not exit when its input closes",
    "castle-standard-off": "without UCI_Chess960, castles written king-takes-rook (e1h1)",
}

faults = set()
args = sys.argv[1:]
while args:
    a = args.pop(0)
    if a == "--faults" and args:
        faults.update(f for f in args.pop(0).split(",") if f)
for f in faults:
    if f not in FAULTS:
        sys.stderr.write(f"fault_engine: unknown fault {f}\n")
        sys.exit(2)

out_lock = threading.Lock()


def say(line):
    with out_lock:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()


class State:
    def __init__(self):
        self.chess960 = False
        self.board = chess.Board()
        self.search = None
        self.stop = threading.Event()
        self.ponderhit = threading.Event()


st = State()


def uci_of(board, move):
    """A move as this engine writes it (the faults included)."""
    text = board.uci(move, chess960=st.chess960)
    if board.is_castling(move):
        if st.chess960 and "castle-king-target" in faults:
            rank = "1" if board.turn == chess.WHITE else "8"
            target = "g" if board.is_kingside_castling(move) else "c"
            text = text[:2] + target + rank
        if not st.chess960 and "castle-standard-off" in faults:
            text = board.uci(move, chess960=True)
    return text


def set_position(tokens):
    """`position ...` read: the board, or None for a refusal."""
    try:
        i = 0
        if tokens[i] == "startpos":
            board = chess.Board(chess960=st.chess960)
            i += 1
        elif tokens[i] == "fen":
            i += 1
            fen = []
            while i < len(tokens) and tokens[i] != "moves":
                fen.append(tokens[i])
                i += 1
            board = chess.Board(" ".join(fen), chess960=st.chess960)
        else:
            return None
        if not board.is_valid():
            return None
        if i < len(tokens) and tokens[i] == "moves":
            for m in tokens[i + 1:]:
                board.push_uci(m)
        return board
    except (ValueError, IndexError, AssertionError):
        return None


def perft(board, depth):
    if depth == 0:
        return 1
    if depth == 1:
        return board.legal_moves.count()
    n = 0
    for m in board.legal_moves:
        board.push(m)
        n += perft(board, depth - 1)
        board.pop()
    return n


def go_perft(board, depth):
    divide = []
    for m in board.legal_moves:
        board.push(m)
        count = perft(board, depth - 1)
        board.pop()
        divide.append([uci_of(board, m), count])
    if "divide-missing" in faults and len(divide) > 1:
        divide[0][1] += divide[-1][1]
        divide.pop()
    total = sum(n for _, n in divide)
    lines = [f"{m}: {n}" for m, n in divide]
    if "divide-illegal" in faults:
        lines.append("z9z9: 0")
    for line in lines:
        say(line)
    say("")
    say(f"Nodes searched: {total}")


def choose(board, searchmoves):
    moves = [m for m in board.legal_moves if not searchmoves or board.uci(m, chess960=st.chess960) in searchmoves or uci_of(board, m) in searchmoves]
    if not moves:
        return None
    for m in moves:
        board.push(m)
        mate = board.is_checkmate()
        board.pop()
        if mate:
            return m
    captures = [m for m in moves if board.is_capture(m)]
    return (captures or moves)[0]


def search(board, params):
    """One search on its own thread: waits as the `go` asks, then answers."""
    t0 = time.monotonic()
    infinite = "infinite" in params or "ponder" in params
    movetime = params.get("movetime")
    if board is None:
        say("info string invalid position: not searched")
        if infinite:
            st.stop.wait()
        say("bestmove 0000")
        return
    searchmoves = params.get("searchmoves", [])
    best = choose(board, searchmoves)
    if infinite:
        while not st.stop.is_set() and not st.ponderhit.is_set():
            st.stop.wait(0.01)
    elif movetime is not None:
        wait = movetime / 1000.0
        wait = wait + 0.4 if "movetime-overshoot" in faults else wait / 2
        st.stop.wait(wait)
    ms = int((time.monotonic() - t0) * 1000)
    if best is None:
        say("info depth 0 score mate 0" if "no-score" not in faults else "info depth 0")
        say("bestmove 0000")
        return
    pv = uci_of(board, best)
    after = board.copy()
    after.push(best)
    reply = next(iter(after.legal_moves), None)
    if reply is not None:
        pv2 = uci_of(after, reply)
    score = "" if "no-score" in faults else " score cp 12"
    say(f"info depth 1 seldepth 1 multipv 1{score} nodes 20 nps 2000 time {ms} pv {pv}" + (f" {pv2}" if reply else ""))
    say(f"bestmove {pv}" + (f" ponder {pv2}" if reply else ""))


def go(tokens):
    params = {}
    i = 0
    while i < len(tokens):
        t = tokens[i]
        if t in ("infinite", "ponder"):
            params[t] = True
        elif t == "searchmoves":
            params["searchmoves"] = tokens[i + 1:]
            break
        elif i + 1 < len(tokens):
            try:
                params[t] = int(tokens[i + 1])
            except ValueError:
                pass
            i += 1
        i += 1
    if "perft" in params:
        if st.board is not None:
            go_perft(st.board.copy(), params["perft"])
        return
    wait_search()
    st.stop.clear()
    st.ponderhit.clear()
    board = st.board.copy() if st.board is not None else None
    st.search = threading.Thread(target=search, args=(board, params), daemon=True)
    st.search.start()


def wait_search():
    if st.search is not None:
        st.search.join()
        st.search = None


def handle(raw):
    if raw[:1].isspace() and raw.strip() and "leading-space" in faults:
        return True
    tokens = raw.split()
    if not tokens:
        return True
    cmd, rest = tokens[0], tokens[1:]
    if cmd == "uci":
        if "xboard" in faults:
            say("Error (unknown command): uci")
            return True
        say("id name FaultEngine")
        if "no-author" not in faults:
            say("id author fenguard tests")
        say("option name Hash type spin default 16 min 1 max 1024")
        say("option name Ponder type check default false")
        say("option name UCI_Chess960 type check default false")
        say("option name Style type combo default Normal var Solid var Normal var Risky")
        say("uciok")
    elif cmd == "isready":
        say("readyok")
    elif cmd == "setoption":
        if len(rest) >= 4 and rest[0] == "name" and rest[1] == "UCI_Chess960":
            st.chess960 = rest[3] == "true"
    elif cmd == "ucinewgame":
        wait_search()
    elif cmd == "position":
        if not rest:
            return True
        fen_kings = "fen" in rest[:1] and len(rest) > 1 and "K" not in rest[1]
        if fen_kings and "crash-no-kings" in faults:
            sys.stderr.write("fault_engine: Assertion `king_square(WHITE) != SQ_NONE' failed.\n")
            sys.stderr.flush()
            os.abort()
        wait_search()
        st.board = set_position(rest)
        if st.board is None:
            say("info string invalid position")
    elif cmd == "go":
        go(rest)
    elif cmd == "stop":
        st.stop.set()
        wait_search()
    elif cmd == "ponderhit":
        st.ponderhit.set()
        wait_search()
    elif cmd == "quit":
        return False
    return True


def main():
    for raw in sys.stdin:
        raw = raw.rstrip("\n")
        if not handle(raw):
            os._exit(0)
    if "hang-eof" in faults:
        while True:
            time.sleep(1)
    os._exit(0)


if __name__ == "__main__":
    main()
