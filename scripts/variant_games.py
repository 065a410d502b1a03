#!/usr/bin/env python3
"""Variant games through fenguard against Fairy-Stockfish, driven by python-chess (issues 9, 10).

python-chess 1.11.2 (`chess.engine.SimpleEngine.popen_uci([fenguard, '--', fairy-stockfish])`)
plays each `chess.variant` variant fenguard models in the proxy (crazyhouse, atomic,
kingofthehill, 3check, horde, racingkings, antichess, giveaway) and plain chess: it sets `UCI_Variant`
from the board (python-chess manages that option itself, from the engine's `option name
UCI_Variant type combo ... var ...` line), sends `position fen <variant FEN> moves ...` and
`go nodes N`. The first plies of each game are random legal moves (seeded), the rest engine
moves, until the game ends by the variant's rules (or `--max-plies`, then adjudicated).

Checks, per game:
- every game reaches its end (or the ply cap) without an exception;
- every `bestmove` is legal on python-chess's variant board; no `bestmove 0000` (python-chess
  raises on a null move in a position with legal moves);
- no `info string fenguard: rejected` / `illegal-bestmove` line; in `<log dir>/positions.jsonl`
  (read through `fenguard log --format json`, which rebuilds compact records) every position
  record is judged `valid` by fenguard's own rules for the variant, carries `"variant":
  "<name>"` (none for chess) and no `variant-not-checked` note; no search record holds a
  diagnostic.

After a move that ends the game (racing kings), Fairy-Stockfish 11.1 still names a ponder
move; python-chess refuses it ("Engine sent invalid ponder move"), fenguard relays it unjudged
(issue 21: there is no position to ponder in), so no search record may hold a diagnostic.

`giveaway` castles (python-chess's `GiveawayBoard`, Fairy-Stockfish, cutechess): fenguard models
it (issue 21), castles included.

Variants the engine does not list in its `UCI_Variant` option are skipped with a `SKIP` line
(Debian's Fairy-Stockfish 11.1 has no `atomic`). python-chess may log "invalid ponder move" or
"exception parsing pv" for the engine's own output in some variants: the engine's lines are
relayed unchanged (the same happens without fenguard), so those do not fail a game; they are
counted, not printed with their tracebacks, and one line names how many there were.

Exit status 0 when every game passed, 1 otherwise; the last line is `N passed, M failed`.

    scripts/variant_games.py --fenguard target/debug/fenguard --engine /usr/games/fairy-stockfish
"""

import argparse
import json
import logging
import os
import random
import subprocess
import sys
import tempfile

import chess
import chess.engine
import chess.variant

VARIANTS = [
    chess.Board,
    chess.variant.CrazyhouseBoard,
    chess.variant.AtomicBoard,
    chess.variant.KingOfTheHillBoard,
    chess.variant.ThreeCheckBoard,
    chess.variant.HordeBoard,
    chess.variant.RacingKingsBoard,
    chess.variant.AntichessBoard,
    chess.variant.GiveawayBoard,
]


def play_game(engine, board_class, args, rng):
    """Plays one game; returns a list of errors (empty when it passed)."""
    board = board_class()
    errors = []
    for ply in range(args.max_plies):
        if board.is_game_over():
            return errors
        if ply < args.random_plies:
            board.push(rng.choice(list(board.legal_moves)))
            continue
        try:
            result = engine.play(board, chess.engine.Limit(nodes=args.nodes),
                                 info=chess.engine.INFO_ALL)
        except chess.engine.EngineError as err:
            errors.append(f"ply {ply}: engine error: {err}")
            return errors
        text = result.info.get("string", "")
        if "fenguard: rejected" in text or "illegal-bestmove: bestmove" in text:
            errors.append(f"ply {ply}: {text}")
        if result.move is None:
            errors.append(f"ply {ply}: no bestmove in {board.fen()}")
            return errors
        if result.move not in board.legal_moves:
            errors.append(f"ply {ply}: illegal bestmove {result.move} in {board.fen()}")
            return errors
        board.push(result.move)
    return errors


def read_log(fenguard, log_dir):
    """Every record of `<log_dir>/positions.jsonl`, rebuilt in full by `fenguard log`."""
    out = subprocess.run([fenguard, "log", "--format", "json", "--log-dir", log_dir],
                         check=True, capture_output=True, text=True).stdout
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def check_log(fenguard, log_dir, variants_played):
    """The positions log: every position valid and named with its variant; searches clean."""
    errors = []
    seen = {}
    for record in read_log(fenguard, log_dir):
        kind = record.get("kind")
        variant = record.get("variant") or "chess"
        # A ponder move after a game-ending bestmove (Fairy-Stockfish names one in racing
        # kings) is not judged by fenguard since issue 21: no exception here any more.
        found = record.get("diagnostics", [])
        if kind == "search" and found:
            errors.append(f"search in {variant}: {found}")
        if kind != "position":
            continue
        seen[variant] = seen.get(variant, 0) + 1
        if record["verdict"] != "valid":
            errors.append(f"{record['verdict']} in {variant}: {record['raw'][:200]}")
        for d in record["diagnostics"]:
            errors.append(f"{d['code']} in {variant}: {d['message']}")
    for name in variants_played:
        if seen.get(name, 0) < 1:
            errors.append(f"no position record with variant {name}")
    return errors


class EngineNotes(logging.Handler):
    """Counts what python-chess logs about the engine's own output (an unparsable pv, a
    ponder move after a game-ending move), instead of printing each with its traceback."""

    def __init__(self):
        super().__init__(level=logging.WARNING)
        self.counts = {}

    def emit(self, record):
        key = record.getMessage().split(":")[0]
        self.counts[key] = self.counts.get(key, 0) + 1


def main():
    notes = EngineNotes()
    engine_log = logging.getLogger("chess.engine")
    engine_log.addHandler(notes)
    engine_log.propagate = False
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fenguard", default="target/debug/fenguard")
    parser.add_argument("--engine", default="/usr/games/fairy-stockfish")
    parser.add_argument("--games", type=int, default=2, help="games per variant")
    parser.add_argument("--nodes", type=int, default=500)
    parser.add_argument("--random-plies", type=int, default=4)
    parser.add_argument("--max-plies", type=int, default=200)
    parser.add_argument("--seed", type=int, default=20261201)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    passed = failed = 0
    with tempfile.TemporaryDirectory(prefix="fenguard-variants-") as log_dir:
        command = [args.fenguard, "--log-dir", log_dir, "--", args.engine]
        engine = chess.engine.SimpleEngine.popen_uci(command)
        played = []
        offered = engine.options["UCI_Variant"].var if "UCI_Variant" in engine.options else []
        try:
            for board_class in VARIANTS:
                name = board_class.uci_variant
                if name != "chess" and name not in offered:
                    # Debian's Fairy-Stockfish 11.1 has no atomic: nothing to play it against.
                    print(f"SKIP {name}: the engine does not offer UCI_Variant {name}")
                    continue
                played.append(name)
                for game in range(args.games):
                    errors = play_game(engine, board_class, args, rng)
                    if errors:
                        failed += 1
                        print(f"FAIL {name} game {game + 1}: " + "; ".join(errors))
                    else:
                        passed += 1
        finally:
            engine.quit()
        log_errors = check_log(args.fenguard, log_dir, played)
        for error in log_errors:
            print(f"FAIL log: {error}")
        failed += len(log_errors)
    if notes.counts:
        told = ", ".join(f'{n} x "{what}"' for what, n in sorted(notes.counts.items()))
        print(f"python-chess noted about the engine's own output (not failures): {told}")
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
