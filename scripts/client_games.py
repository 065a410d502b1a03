#!/usr/bin/env python3
"""Real-client test for fenguard: python-chess plays short engine games through the proxy.

python-chess 1.11.2 (`chess.engine.SimpleEngine.popen_uci`) drives the engine command. It sets
`UCI_Chess960` from the board, sends `position [startpos | fen <root>] moves ...` in its own
notation and, every few plies, `go ... searchmoves <all legal moves>`. The script plays
`--games960` games from random Chess960 start positions and `--games` standard games, each
`--random-plies` random plies then engine moves (`--nodes` per move, at most `--max-plies`).

Checks, per game:
- every `bestmove` (and `ponder`, and the pv python-chess parsed) is legal: python-chess logs an
  error on `chess.engine` when it has to drop an illegal pv or ponder move; any such log record,
  any exception, or a move outside `searchmoves` fails the game;
- afterwards (unless `--skip-log-check`), every `kind: "position"` record in
  `<log dir>/positions.jsonl` must match, in order, the board python-chess had when it sent that
  position: `final_fen` (SPEC 8: the normalized FEN after the moves) must describe the same
  position as `board.fen()` — placement, side to move, castling rights (as rook squares, so
  X-FEN and Shredder-FEN spellings compare equal), legal en passant square and both counters.

Exit status 0 when every game passed, 1 otherwise; the last line is `N passed, M failed`.

Dry run against Stockfish directly (no proxy, no log):
    scripts/client_games.py --engine-cmd /usr/games/stockfish --skip-log-check --games 2 --games960 2
Through fenguard (default command, `{log_dir}` is replaced by a fresh directory):
    scripts/client_games.py --fenguard target/release/fenguard
"""

import argparse
import json
import logging
import os
import random
import shlex
import sys
import shutil
import tempfile

import chess
import chess.engine


class ErrorCounter(logging.Handler):
    """Counts python-chess engine log records at WARNING or above (dropped illegal moves)."""

    def __init__(self):
        super().__init__(level=logging.WARNING)
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


def position_key(board):
    """What a FEN says, independent of castling spelling and of non-capturable ep squares."""
    ep = board.ep_square if board.has_legal_en_passant() else None
    return (board.board_fen(), board.turn, board.clean_castling_rights(), ep,
            board.halfmove_clock, board.fullmove_number)


def play_game(engine, board, args, rng, expected, game_no):
    """Plays one game; appends (game_no, board FEN) for each position sent. Returns errors."""
    errors = []
    game = object()
    for _ in range(args.random_plies):
        if board.is_game_over():
            return errors
        board.push(rng.choice(list(board.legal_moves)))
    ply = 0
    while ply < args.max_plies and not board.is_game_over():
        legal = list(board.legal_moves)
        root_moves = None
        if ply % 5 == 4:
            root_moves = legal
        expected.append((game_no, board.fen()))
        try:
            result = engine.play(board, chess.engine.Limit(nodes=args.nodes), game=game,
                                 info=chess.engine.INFO_PV, root_moves=root_moves)
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError,
                TimeoutError) as exc:
            errors.append(f"ply {ply} in {board.fen()}: engine error: {exc!r}")
            return errors
        if result.move is None or result.move not in board.legal_moves:
            errors.append(f"ply {ply}: illegal or missing bestmove {result.move} in {board.fen()}")
            return errors
        if root_moves is not None and result.move not in root_moves:
            errors.append(f"ply {ply}: bestmove {result.move} outside searchmoves")
        if result.ponder is not None:
            after = board.copy(stack=False)
            after.push(result.move)
            if result.ponder not in after.legal_moves:
                errors.append(f"ply {ply}: illegal ponder {result.ponder} in {after.fen()}")
        board.push(result.move)
        ply += 1
    return errors


def read_position_records(path):
    records = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError as exc:
                raise SystemExit(f"{path}:{n}: not JSON: {exc}")
            if rec.get("kind") == "position":
                records.append((n, rec))
    return records


def check_log(log_dir, expected, failed_games):
    """Compares position records with the boards sent; marks failing games. Returns messages."""
    path = os.path.join(log_dir, "positions.jsonl")
    if not os.path.exists(path):
        failed_games.update(g for g, _ in expected)
        return [f"no position log at {path}: no game can be verified"]
    records = read_position_records(path)
    problems = []
    if len(records) != len(expected):
        problems.append(f"{path}: {len(records)} position records, but {len(expected)} "
                        "positions were sent")
        failed_games.update(g for g, _ in expected[len(records):])
    for (n, rec), (game_no, fen) in zip(records, expected):
        final = rec.get("final_fen")
        want = chess.Board(fen, chess960=True)
        try:
            got = chess.Board(final, chess960=True) if final else None
        except ValueError:
            got = None
        if got is None or position_key(got) != position_key(want):
            failed_games.add(game_no)
            problems.append(f"{path}:{n}: game {game_no}: final_fen {final!r} != {want.fen()!r} "
                            f"(verdict {rec.get('verdict')!r}, raw {rec.get('raw')!r})")
    return problems


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    default_fenguard = os.path.join(here, "..", "target", "release", "fenguard")
    p = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    p.add_argument("--fenguard", default=default_fenguard, help="fenguard binary")
    p.add_argument("--engine", default="/usr/games/stockfish", help="the real engine")
    p.add_argument("--engine-cmd", help="whole command to run instead of fenguard + engine; "
                   "`{log_dir}` is replaced by the log directory")
    p.add_argument("--log-dir", help="log directory (default: a fresh temporary one)")
    p.add_argument("--skip-log-check", action="store_true",
                   help="do not read positions.jsonl (dry run against a bare engine)")
    p.add_argument("--games", type=int, default=20, help="standard games")
    p.add_argument("--games960", type=int, default=20, help="Chess960 games")
    p.add_argument("--nodes", type=int, default=2000, help="nodes per engine move")
    p.add_argument("--max-plies", type=int, default=60, help="engine plies per game")
    p.add_argument("--random-plies", type=int, default=2, help="random plies before the engine")
    p.add_argument("--seed", type=int, default=1, help="random seed")
    args = p.parse_args()

    log_dir = args.log_dir or tempfile.mkdtemp(prefix="fenguard-client-")
    if args.engine_cmd:
        cmd = [part.replace("{log_dir}", log_dir) for part in shlex.split(args.engine_cmd)]
    else:
        cmd = [args.fenguard, "--log-dir", log_dir, "--", args.engine]

    counter = ErrorCounter()
    logging.getLogger("chess.engine").addHandler(counter)
    rng = random.Random(args.seed)
    boards = [chess.Board() for _ in range(args.games)]
    boards += [chess.Board.from_chess960_pos(rng.randrange(960)) for _ in range(args.games960)]

    expected = []
    game_errors = {}
    try:
        engine = chess.engine.SimpleEngine.popen_uci(cmd)
    except (OSError, chess.engine.EngineError, TimeoutError) as exc:
        print(f"cannot start engine {cmd}: {exc!r}", file=sys.stderr)
        return 1
    try:
        for game_no, board in enumerate(boards, 1):
            seen = len(counter.messages)
            errors = play_game(engine, board, args, rng, expected, game_no)
            errors += [f"python-chess: {m}" for m in counter.messages[seen:]]
            game_errors[game_no] = errors
            kind = "chess960" if board.chess960 else "standard"
            status = "ok" if not errors else "FAILED"
            print(f"game {game_no} ({kind}, {len(board.move_stack)} plies): {status}")
            for e in errors:
                print(f"  {e}")
            if any("engine error" in e for e in errors):
                engine.close()
                engine = chess.engine.SimpleEngine.popen_uci(cmd)
    finally:
        try:
            engine.quit()
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError, TimeoutError):
            engine.close()

    failed = {g for g, e in game_errors.items() if e}
    problems = [] if args.skip_log_check else check_log(log_dir, expected, failed)
    for msg in problems:
        print(msg)
    passed = len(boards) - len(failed)
    ok = not failed and not problems
    if args.log_dir is None and ok:
        shutil.rmtree(log_dir, ignore_errors=True)  # a temporary one; kept when a game failed
    elif not args.skip_log_check:
        print(f"position log: {os.path.join(log_dir, 'positions.jsonl')}")
    print(f"{passed} passed, {len(failed)} failed")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
