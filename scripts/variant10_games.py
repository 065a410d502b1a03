#!/usr/bin/env python3
"""10x8 games through fenguard against Fairy-Stockfish, pyffish as the referee (issue 10).

For each 10x8 variant (capablanca, caparandom, gothic, janus, embassy) this script plays games
as a GUI would, through `fenguard --log-dir <tmp> -- fairy-stockfish`, in three GUI modes:

- `standard`: `UCI_Chess960 false` (castles king-to-target, `f1i1`; caparandom king-takes-rook);
- `chess960`: `UCI_Chess960 true` (castles king-takes-rook, `f1j1`);
- `detect`: the GUI stays in standard notation and sets `fenguard Chess960 detect`; the start
  position has the king off its file, so fenguard switches the engine to Chess960 itself and
  translates castles both ways (GUI king-to-target, engine king-takes-rook).

The start position is the variant's with the back rank between king and rooks emptied (so both
sides can castle at once; `standard` games alternate `position startpos` from the real start
every other game). The first `--random-plies` plies are chosen by the script (a castle whenever
one is legal, else a seeded random legal move), the rest by the engine (`go nodes N`).

Checks (pyffish 0.0.90 is the referee, in the GUI's notation):
- every `bestmove` is in `pyffish.legal_moves(variant, start, moves, chess960)`, never `0000`
  while moves exist; the last `info ... pv` before it is a legal sequence;
- fenguard writes no `info string fenguard` line (no rejection, no `illegal-bestmove`);
- in positions.jsonl (read through `fenguard log --format json`, which rebuilds compact
  records): every position record `valid`, no diagnostic, `"variant": "<name>"`; every search
  record without diagnostics; in `detect` games a `chess960-enabled` record, and each castle
  the GUI sent reaches the engine king-takes-rook (`moves_out`);
- castles are counted per direction (GUI->engine; engine->GUI in `bestmove` and pv, each
  checked legal in the GUI's notation) and printed. In `detect` games (but caparandom, whose
  notation is the same in both modes) a castle the GUI sent must reach the engine rewritten.

Exit status 0 when every game passed; the last line is `N passed, M failed`.

    scripts/variant10_games.py --fenguard target/debug/fenguard --engine /usr/games/fairy-stockfish
"""

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time

import pyffish

VARIANTS = ["capablanca", "caparandom", "gothic", "janus", "embassy"]
MODES = ["standard", "chess960", "detect"]


def cleared(fen, shift_king=False):
    """`fen` with the back-rank pieces between king and rooks removed (king moved one file
    toward the a-side rook with `shift_king`)."""
    board, rest = fen.split(" ", 1)
    ranks = board.split("/")

    def clear(rank):
        files = []
        for c in rank:
            files.extend(["."] * int(c) if c.isdigit() else [c])
        king = next(i for i, c in enumerate(files) if c in "Kk")
        out = ["."] * len(files)
        out[0], out[-1] = files[0], files[-1]
        out[king - 1 if shift_king else king] = files[king]
        text, empty = "", 0
        for c in out:
            if c == ".":
                empty += 1
                continue
            text += (str(empty) if empty else "") + c
            empty = 0
        return text + (str(empty) if empty else "")

    ranks[0], ranks[-1] = clear(ranks[0]), clear(ranks[-1])
    return "/".join(ranks) + " " + rest


class Gui:
    """fenguard in front of the engine, driven line by line."""

    def __init__(self, fenguard, engine, log_dir):
        self.proc = subprocess.Popen([fenguard, "--log-dir", log_dir, "--", engine],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                     bufsize=1)

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def until(self, word, patience=60):
        """The lines read up to and including the first starting with `word`."""
        lines = []
        deadline = time.monotonic() + patience
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"fenguard ended before `{word}`: {lines[-5:]}")
            lines.append(line.rstrip("\n"))
            if line.split(" ", 1)[0].strip() == word:
                return lines
        raise RuntimeError(f"no `{word}` within {patience} s")

    def quit(self):
        self.send("quit")
        self.proc.wait(timeout=10)


def is_castle(variant, fen, moves, move, c960):
    """Whether `move` (after `moves` from `fen`) is a castle, by pyffish's SAN."""
    here = pyffish.get_fen(variant, fen, moves, c960)
    return pyffish.get_san(variant, here, move, c960).startswith("O-O")


def play_game(gui, variant, mode, start, use_startpos, args, rng, counts):
    """One game; returns a list of errors."""
    c960 = mode == "chess960"
    moves = []
    gui.send("ucinewgame")
    for ply in range(args.max_plies):
        legal = pyffish.legal_moves(variant, start, moves, c960)
        if not legal or pyffish.is_optional_game_end(variant, start, moves, c960)[0]:
            return []
        if ply < args.random_plies:
            # White (the GUI's side in the opening) castles at once; Black keeps its rights for
            # the engine to castle (and to name castles in its pv).
            castles = [m for m in legal if ply % 2 == 0 and is_castle(variant, start, moves, m, c960)]
            move = rng.choice(castles or legal)
            counts["gui"] += bool(castles)
            moves.append(move)
            continue
        head = "position startpos" if use_startpos else f"position fen {start}"
        gui.send(head + (" moves " + " ".join(moves) if moves else ""))
        gui.send(f"go nodes {args.nodes}")
        lines = gui.until("bestmove")
        own = [l for l in lines if l.startswith("info string fenguard")]
        if own:
            return [f"ply {ply}: {own}"]
        best = lines[-1].split()[1]
        if best not in legal:
            return [f"ply {ply}: bestmove {best} not legal in {pyffish.get_fen(variant, start, moves, c960)} ({mode})"]
        pvs = [l.split(" pv ", 1)[1].split() for l in lines if l.startswith("info") and " pv " in l]
        if pvs:
            line = list(moves)
            for m in pvs[-1]:
                if m not in pyffish.legal_moves(variant, start, line, c960):
                    return [f"ply {ply}: pv move {m} not legal after {line} ({mode}): {pvs[-1]}"]
                counts["engine"] += is_castle(variant, start, line, m, c960)
                line.append(m)
        moves.append(best)
    return []


def read_log(fenguard, log_dir):
    out = subprocess.run([fenguard, "log", "--format", "json", "--log-dir", log_dir],
                         check=True, capture_output=True, text=True).stdout
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def check_log(fenguard, log_dir, variant, mode, counts):
    errors = []
    translated = set()
    records = read_log(fenguard, log_dir)
    positions = [r for r in records if r.get("kind") == "position"]
    if not positions:
        errors.append("no position record")
    for r in positions:
        if r["verdict"] != "valid" or r["diagnostics"] or r.get("variant") != variant:
            errors.append(f"record {r['seq']}: {r['verdict']} {r.get('variant')} {r['diagnostics']}")
        if mode == "detect":
            moves_in, moves_out = r["moves_in"], r["moves_out"]
            moves_in = moves_in.split() if isinstance(moves_in, str) else moves_in
            moves_out = moves_out.split() if isinstance(moves_out, str) else moves_out
            for gui_move, sent in zip(moves_in, moves_out):
                if gui_move != sent:
                    translated.add((r["fen_in"], gui_move, sent))
    for r in records:
        if r.get("kind") == "search":
            found = [d for d in r["diagnostics"] if not d["message"].startswith("ponder move")]
            if found:
                errors.append(f"search {r['seq']}: {found}")
    if mode == "detect" and not any(r.get("kind") == "chess960-enabled" for r in records):
        errors.append("no chess960-enabled record in detect mode")
    counts["translated"] = len(translated)
    return errors


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fenguard", default="target/debug/fenguard")
    parser.add_argument("--engine", default="/usr/games/fairy-stockfish")
    parser.add_argument("--games", type=int, default=2, help="games per variant and mode")
    parser.add_argument("--nodes", type=int, default=300)
    parser.add_argument("--random-plies", type=int, default=4)
    parser.add_argument("--max-plies", type=int, default=60)
    parser.add_argument("--seed", type=int, default=20261201)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    passed = failed = 0
    for variant in VARIANTS:
        for mode in MODES:
            counts = {"gui": 0, "engine": 0, "translated": 0}
            start = cleared(pyffish.start_fen(variant), shift_king=mode == "detect")
            with tempfile.TemporaryDirectory(prefix="fenguard-v10-") as log_dir:
                gui = Gui(args.fenguard, args.engine, log_dir)
                gui.send("uci")
                gui.until("uciok")
                gui.send(f"setoption name UCI_Variant value {variant}")
                if mode == "detect":
                    gui.send("setoption name fenguard Chess960 value detect")
                else:
                    gui.send(f"setoption name UCI_Chess960 value {str(mode == 'chess960').lower()}")
                gui.send("isready")
                gui.until("readyok")
                errors = []
                for game in range(args.games):
                    use_startpos = mode == "standard" and game % 2 == 1
                    game_start = pyffish.start_fen(variant) if use_startpos else start
                    try:
                        found = play_game(gui, variant, mode, game_start, use_startpos, args,
                                          rng, counts)
                    except RuntimeError as err:
                        found = [str(err)]
                    errors += [f"game {game + 1}: {e}" for e in found]
                gui.quit()
                errors += check_log(args.fenguard, log_dir, variant, mode, counts)
            # caparandom castles king-takes-rook in both modes: nothing to translate.
            if mode == "detect" and variant != "caparandom" and counts["gui"] \
                    and not counts["translated"]:
                errors.append("castles sent by the GUI were not translated for the engine")
            label = f"{variant} {mode}: castles GUI->engine {counts['gui']}, engine->GUI " \
                    f"(bestmove and pv) {counts['engine']}, distinct castles translated in " \
                    f"moves_out {counts['translated']}"
            if errors:
                failed += 1
                print(f"FAIL {label}: " + "; ".join(errors[:5]))
            else:
                passed += 1
                print(f"ok   {label}")
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
