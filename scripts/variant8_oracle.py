#!/usr/bin/env python3
"""Differential test of fenguard's 8x8 variants against python-chess 1.11.2 `chess.variant`.

For each variant: positions from random games, plus mutations of them (turn, castling field,
en passant square, a piece added or removed, pockets, promoted markers, check counters, text
damage). Every input goes through `fenguard check --variant V --format json --legal-moves`
(one process a variant, all inputs on stdin) and through python-chess
(`Board(fen, chess960=True)`): the same verdict (`is_valid()`; a FEN python-chess refuses to
parse must be invalid), and for valid positions the same FEN (`board.fen()`, X-FEN castling,
legal en passant) and the same legal moves (UCI, king-takes-rook castling).

Known, documented differences (README "8x8 variants") are counted apart, never as passes:
see `known_difference`. Prints per variant and in total `N passed, M failed` (and the known
differences); exit status 1 when anything failed.

    scripts/variant8_oracle.py [--per-variant N] [--seed S] [--fenguard PATH] [--variant V]...
"""

import argparse
import json
import os
import random
import subprocess
import sys

import chess
import chess.variant

CLASSES = {
    "crazyhouse": chess.variant.CrazyhouseBoard,
    "atomic": chess.variant.AtomicBoard,
    "kingofthehill": chess.variant.KingOfTheHillBoard,
    "3check": chess.variant.ThreeCheckBoard,
    "horde": chess.variant.HordeBoard,
    "racingkings": chess.variant.RacingKingsBoard,
    "antichess": chess.variant.AntichessBoard,
    "giveaway": chess.variant.GiveawayBoard,
}

PIECES = "PNBRQKpnbrqk"


def random_game_positions(cls, rng, count):
    """FENs (en_passant='fen', so en passant squares appear) from random games."""
    out = []
    while len(out) < count:
        board = cls(chess960=True)
        plies = rng.randint(0, 120)
        for _ in range(plies):
            moves = list(board.legal_moves)
            if not moves or board.is_variant_end():
                break
            board.push(rng.choice(moves))
            if rng.random() < 0.08:
                out.append(board.fen(en_passant="fen"))
        out.append(board.fen(en_passant="fen"))
    return out[:count]


def split_fen(fen):
    return fen.split(" ")


def mutate(variant, fen, rng):
    """One random mutation of a valid FEN."""
    parts = split_fen(fen)
    kind = rng.randrange(11)
    board_part = parts[0]
    if kind == 0:
        parts[1] = "b" if parts[1] == "w" else "w"
    elif kind == 1:
        letters = "KQkqABCDEFGHabcdefgh"
        parts[2] = "".join(rng.sample(letters, rng.randint(1, 4))) if rng.random() < 0.8 else "-"
    elif kind == 2:
        file = "abcdefgh"[rng.randrange(8)]
        rank = rng.choice("36") if rng.random() < 0.8 else str(rng.randint(1, 8))
        parts[3] = file + rank
    elif kind in (3, 4, 5):
        cls = CLASSES[variant]
        try:
            board = cls(fen, chess960=True)
        except ValueError:
            return fen
        sq = rng.randrange(64)
        if kind == 3:
            board.set_piece_at(sq, chess.Piece.from_symbol(rng.choice(PIECES)))
        elif kind == 4:
            board.remove_piece_at(sq)
        else:
            kings = list(chess.scan_forward(board.kings))
            if kings:
                board.remove_piece_at(rng.choice(kings))
        return board.fen(en_passant="fen")
    elif kind == 6 and variant == "crazyhouse":
        extra = "".join(rng.choice("PNBRQpnbrq") for _ in range(rng.randint(1, 3)))
        if board_part.endswith("]"):
            parts[0] = board_part[:-1] + extra + "]"
        else:
            parts[0] = board_part + "/" + extra
    elif kind == 6 and variant == "3check":
        a, b = rng.randint(0, 4), rng.randint(0, 4)
        if rng.random() < 0.5:
            parts[4] = f"{a}+{b}"
        else:
            del parts[4]
            parts.append(f"+{a}+{b}")
    elif kind == 7:
        # A promoted marker after a random piece letter.
        spots = [i for i, c in enumerate(board_part) if c in PIECES and "[" not in board_part[:i]]
        if spots:
            i = rng.choice(spots)
            parts[0] = board_part[: i + 1] + "~" + board_part[i + 1 :]
    elif kind == 8:
        # Text damage: a character removed or repeated.
        text = " ".join(parts)
        i = rng.randrange(len(text))
        return text[:i] + text[i + 1 :] if rng.random() < 0.5 else text[:i] + text[i] + text[i:]
    elif kind == 9 and variant == "crazyhouse":
        # The lichess ninth-rank pocket instead of brackets.
        if board_part.endswith("]"):
            b, pocket = board_part[:-1].split("[", 1)
            parts[0] = b + "/" + pocket
    elif kind == 10:
        parts[4] = str(rng.randint(0, 120))
    return " ".join(parts)


# The output dialects compared: fenguard's `--castling`/`--ep` and python-chess's writer.
DIALECTS = [
    ("xfen", "legal", lambda b: b.fen(en_passant="legal")),
    ("shredder", "xfen", lambda b: b.shredder_fen(en_passant="xfen")),
    ("xfen", "fen", lambda b: b.fen(en_passant="fen")),
]


def python_verdict(variant, fen, write):
    """(valid, fen, sorted legal moves) or None when python-chess refuses to parse."""
    try:
        board = CLASSES[variant](fen, chess960=True)
    except (ValueError, IndexError, KeyError):
        return None
    valid = board.is_valid()
    if not valid:
        return (False, None, None)
    return (True, write(board), sorted(m.uci() for m in board.legal_moves))


def known_difference(variant, fen, ours, theirs):
    """The documented reason a result differs, or None."""
    parts = fen.split()
    castling = parts[2] if len(parts) > 2 else "-"
    if variant in ("antichess", "racingkings") and castling != "-":
        return "castling-in-a-variant-without-castling"
    codes = {d["code"] for d in ours["diagnostics"]}
    errors = {d["code"] for d in ours["diagnostics"] if d["severity"] == "error"}
    if theirs is None and ours["valid"] and codes & {"duplicate-castling-right", "castling-order"}:
        return "lenient-castling-letters"
    missing = [d for d in ours["diagnostics"] if d["code"] == "missing-field"]
    if theirs is None and ours["valid"] and missing:
        # python-chess reads fields by position and refuses `w -  0 23`; fenguard reads which
        # field is missing from what the values look like (SPEC 6, `missing-field` warning).
        return "fields-read-by-shape"
    if len(parts) == 5 and not ours["valid"] and any(d["severity"] == "error" for d in missing):
        try:
            if int(parts[4]) != 0:
                # python-chess reads a lone counter as the halfmove clock; it can be the
                # fullmove number as well, so fenguard rejects it as ambiguous (as for chess).
                return "lone-move-counter"
        except ValueError:
            pass
    if theirs is None:
        return None
    if theirs[0] and errors == {"impossible-check"}:
        # shakmaty refuses checks no single move can give (a pawn and a knight at once);
        # python-chess only refuses some of them.
        return "stricter-impossible-check"
    if variant == "atomic" and errors == {"opposite-check"}:
        return "atomic-opposite-check"
    if any(m in parts[0] for m in ("P~", "p~")):
        return "promoted-pawn-marker"
    if any(m in parts[0] for m in ("K~", "k~")) and ours["valid"]:
        return "promoted-king-marker"
    try:
        board = CLASSES[variant](fen, chess960=True)
    except ValueError:
        return None
    if variant == "3check" and (max(board.remaining_checks) > 3 or min(board.remaining_checks) < 0 or board.remaining_checks == [0, 0]):
        return "3check-counters"
    if variant == "crazyhouse":
        pockets = board.pockets
        if any(p.count(chess.KING) for p in pockets):
            return "crazyhouse-pocket-king"
    if any(chess.popcount(board.kings & side) > 1 for side in board.occupied_co) and chess.popcount(board.kings) <= 2:
        return "two-kings-one-side"
    return None


def run_fenguard(exe, variant, fens, castling, ep):
    proc = subprocess.run(
        [exe, "check", "--variant", variant, "--format", "json", "--legal-moves",
         "--castling", castling, "--ep", ep, "-"],
        input="\n".join(fens) + "\n",
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode not in (0, 1):
        sys.exit(f"fenguard check failed ({proc.returncode}): {proc.stderr}")
    lines = proc.stdout.splitlines()
    if len(lines) != len(fens):
        sys.exit(f"fenguard gave {len(lines)} lines for {len(fens)} inputs")
    return [json.loads(line) for line in lines]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--per-variant", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--fenguard", default=os.environ.get("FENGUARD", "target/release/fenguard"))
    ap.add_argument("--variant", action="append")
    ap.add_argument("--show", type=int, default=5, help="failures shown per variant")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    total_pass = total_fail = total_known = 0
    for variant in args.variant or list(CLASSES):
        cls = CLASSES[variant]
        base = random_game_positions(cls, rng, args.per_variant // 2)
        fens = base + [mutate(variant, rng.choice(base), rng) for _ in range(args.per_variant - len(base))]
        passed = failed = known = 0
        reasons = {}
        shown = 0
        # Each input in one dialect, the dialects in turn.
        batches = [[], [], []]
        for n, fen in enumerate(fens):
            batches[n % 3].append(fen)
        checked = []
        for (castling, ep, write), batch in zip(DIALECTS, batches):
            results = run_fenguard(args.fenguard, variant, batch, castling, ep)
            checked += [(fen, ours, write) for fen, ours in zip(batch, results)]
        kinds = {"valid": 0, "invalid": 0, "refused": 0}
        for fen, ours, write in checked:
            theirs = python_verdict(variant, fen, write)
            kinds["refused" if theirs is None else "valid" if theirs[0] else "invalid"] += 1
            ok = (
                (theirs is None and not ours["valid"])
                or (theirs is not None and theirs[0] == ours["valid"] and (
                    not ours["valid"]
                    or (theirs[1] == ours["fen"] and theirs[2] == sorted(ours["legal_moves"]))
                ))
            )
            if ok:
                passed += 1
                continue
            reason = known_difference(variant, fen, ours, theirs)
            if reason:
                known += 1
                reasons[reason] = reasons.get(reason, 0) + 1
                continue
            failed += 1
            if shown < args.show:
                shown += 1
                print(f"FAIL {variant}: {fen!r}")
                print(f"  python-chess: {theirs if theirs is None else theirs[:2]}")
                print(f"  fenguard:     valid={ours['valid']} fen={ours['fen']} "
                      f"codes={[d['code'] for d in ours['diagnostics']]}")
                if theirs and ours["valid"] and theirs[0] and theirs[2] != sorted(ours["legal_moves"]):
                    a, b = set(theirs[2]), set(ours["legal_moves"])
                    print(f"  moves only python-chess: {sorted(a - b)}; only fenguard: {sorted(b - a)}")
        detail = ", ".join(f"{k}: {n}" for k, n in sorted(reasons.items()))
        print(f"{variant}: {passed} passed, {failed} failed, {known} known differences"
              + (f" ({detail})" if detail else "")
              + f"; python-chess: {kinds['valid']} valid, {kinds['invalid']} invalid, "
              f"{kinds['refused']} refused")
        total_pass += passed
        total_fail += failed
        total_known += known
    print(f"{total_pass} passed, {total_fail} failed ({total_known} known differences, documented)")
    sys.exit(1 if total_fail else 0)


if __name__ == "__main__":
    main()
