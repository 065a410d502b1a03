#!/usr/bin/env python3
"""Differential test of `fenguard check` against python-chess 1.11.2 (SPEC sections 4 and 7).

Generates a corpus of FEN lines (bench/fen_corpus.py: random standard and Chess960 games,
random placements, and mutations python-chess refuses), runs
`fenguard check --format json --castling C --ep M --file FILE` once for each of the six
mode sets, and requires for every input line:

* python-chess accepts it (`chess.Board(line, chess960=True)`): fenguard's `valid` equals
  `board.is_valid()`; for valid ones `fen` equals `board.fen(en_passant=M)` (xfen castling)
  or `board.shredder_fen(en_passant=M)` (shredder), and `chess960` says whether a castling
  right needs Chess960 (its king off the e-file or its rook off the a/h files);
* python-chess refuses it (ValueError): fenguard says invalid, except the documented
  differences in DIFFERENCES (counted separately);
* JSON shape: one object per input line, in order, with the SPEC keys and diagnostics.

Usage: scripts/oracle_diff.py [--fenguard PATH] [--seed N] [--count N] [--show N]
       scripts/oracle_diff.py --generate-only OUT [--seed N] [--count N]
Prints counts per category, the first mismatches in full and `N passed, M failed`;
exit status 1 on any failure, 2 on a usage or build error.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from typing import Callable, Optional

try:
    import chess
except ImportError:
    sys.exit("python-chess is required: pip install chess==1.11.2")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
from fen_corpus import generate  # noqa: E402

CASTLING_MODES = ("xfen", "shredder")
EP_MODES = ("legal", "xfen", "fen")
SEVERITIES = {"error", "warning", "note"}
KEYS = {"input", "valid", "repaired", "fen", "chess960", "diagnostics"}
DIAG_KEYS = {"code", "severity", "message", "span", "fix"}
CODE_RE = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
WHITE_LETTERS, BLACK_LETTERS = "KQABCDEFGH", "kqabcdefgh"


def castling_field(line: str) -> Optional[str]:
    fields = line.split()
    return fields[2] if len(fields) > 2 and fields[2] != "-" else None


def with_castling(line: str, castling: str) -> str:
    fields = line.split()
    fields[2] = castling
    return " ".join(fields)


def canonical_castling(line: str, dedupe: bool) -> Optional[str]:
    """`line` with its castling letters white first (each color in its given order),
    repeated letters removed when `dedupe`; None when the field has other characters."""
    field = castling_field(line)
    if field is None or any(c not in WHITE_LETTERS + BLACK_LETTERS for c in field):
        return None
    if dedupe:
        field = "".join(dict.fromkeys(field))
    white = "".join(c for c in field if c in WHITE_LETTERS)
    black = "".join(c for c in field if c in BLACK_LETTERS)
    return with_castling(line, white + black)


def reordered(line: str) -> Optional[str]:
    field = castling_field(line)
    if field is None or len(set(field)) != len(field):
        return None
    return canonical_castling(line, dedupe=False)


def deduplicated(line: str) -> Optional[str]:
    field = castling_field(line)
    if field is None or len(set(field)) == len(field):
        return None
    return canonical_castling(line, dedupe=True)


def without_trailing_slash(line: str) -> Optional[str]:
    fields = line.split()
    if not fields or not fields[0].endswith("/") or fields[0].count("/") != 8:
        return None
    fields[0] = fields[0][:-1]
    return " ".join(fields)


def merged_rights(line: str) -> Optional[str]:
    """`line` with its castling field read letter by letter (each letter alone, as
    python-chess reads it) and written back as the union of those rights in Shredder-FEN
    order; None when the field is already canonical or a letter alone is refused. Covers
    letters that name the same rook twice (`HAhK`: `K` is the h1 rook again)."""
    field = castling_field(line)
    if field is None or len(field) < 2 or any(c not in WHITE_LETTERS + BLACK_LETTERS for c in field):
        return None
    mask = 0
    for c in field:
        try:
            board = chess.Board(with_castling(line, c), chess960=True)
        except ValueError:
            return None
        mask |= board.castling_rights
    # Shredder-FEN order without python-chess's cleaning: White then Black, h-side first.
    letters = "".join(chess.FILE_NAMES[chess.square_file(sq)].upper() for sq in chess.scan_reversed(mask & chess.BB_RANK_1))
    letters += "".join(chess.FILE_NAMES[chess.square_file(sq)] for sq in chess.scan_reversed(mask & chess.BB_RANK_8))
    if letters == field:
        return None
    return with_castling(line, letters)


@dataclass(frozen=True)
class Difference:
    """A documented place where fenguard deliberately accepts what python-chess refuses.

    `rewrite` gives the equivalent input python-chess accepts (None: does not apply);
    fenguard must then answer as python-chess does for the rewrite and report one of
    `codes` (empty: any code) as a warning. With `optional`, rejecting the input (python-chess's reading)
    is also fine."""

    name: str
    codes: tuple[str, ...]
    reason: str
    rewrite: Callable[[str], Optional[str]]
    optional: bool = False


DIFFERENCES = (
    Difference("castling-order", ("castling-order",),
               "SPEC 7: castling letters out of order (black before white, e.g. `kqKQ`) have "
               "one reading; fenguard accepts them with a warning and writes them in order. "
               "python-chess's FEN_CASTLING_REGEX refuses them.", reordered),
    Difference("duplicate-castling-right", ("duplicate-castling-right",),
               "SPEC 7: a repeated castling letter (`KKQkq`, more than two letters a color) "
               "means the right once; fenguard accepts it with a warning. python-chess's "
               "regex refuses more than two letters a color.", deduplicated),
    Difference("trailing-slash", (),
               "public case R16: a `/` after rank 1 is repaired with a warning. Without "
               "--repair fenguard may still call it invalid, as python-chess does (9 ranks).",
               without_trailing_slash, optional=True),
    Difference("castling-same-rook", ("castling-order", "duplicate-castling-right"),
               "SPEC 7: castling letters that name one rook twice in two spellings (`HAhK`: "
               "`K` and `H` are both the h1 rook) mean the right once, in any order; fenguard "
               "accepts them with a warning. python-chess's regex refuses them.",
               merged_rights),
)

def queenside_letter_without_rook(line: str) -> bool:
    """python-chess 1.11.2 quirk: `Q`/`q` for a color with no rook on its back rank is
    silently ignored (`_set_castling_fen` takes `lsb(0) == -1 < king`), so the position stays
    valid, while `K`/`k` without a rook makes it invalid (BAD_CASTLING_RIGHTS)."""
    fields = line.split()
    if len(fields) < 3:
        return False
    try:  # only the placement matters; the castling field may be one python-chess refuses
        board = chess.Board(with_castling(line, "-"), chess960=True)
    except ValueError:
        return False
    for letter, color, rank in (("Q", chess.WHITE, chess.BB_RANK_1), ("q", chess.BLACK, chess.BB_RANK_8)):
        if letter in fields[2] and not board.pieces_mask(chess.ROOK, color) & rank:
            return True
    return False


@dataclass(frozen=True)
class Quirk:
    """A python-chess quirk on inputs it accepts and calls valid: fenguard may match
    python-chess or reject the input with one of `codes` as an error."""

    name: str
    codes: tuple[str, ...]
    reason: str
    applies: Callable[[str], bool]


def lone_move_counter(line: str) -> bool:
    """Five fields, the last a nonzero number: python-chess reads it as the halfmove clock
    (fields by position), but it is the fullmove number just as well when the halfmove clock
    is the missing field (SPEC 6: where two readings remain the position is rejected)."""
    fields = line.split()
    if len(fields) != 5:
        return False
    try:
        return int(fields[4]) != 0
    except ValueError:
        return False


def stepping_checkers(line: str) -> bool:
    """The side to move is checked by more than one knight, pawn or king."""
    try:
        board = chess.Board(line, chess960=True)
    except ValueError:
        return False
    steppers = board.knights | board.pawns | board.kings
    return bin(board.checkers_mask() & steppers).count("1") > 1


QUIRKS = (
    Quirk("queenside-letter-without-rook", ("castling-without-rook",),
          "python-chess drops a `Q`/`q` castling letter without complaint when that color "
          "has no rook on its back rank (but calls the same with `K`/`k` invalid); SPEC's "
          "`castling-without-rook` names it an error.", queenside_letter_without_rook),
    Quirk("lone-move-counter", ("missing-field",),
          "python-chess reads a lone counter after the en passant field (`w - - 120`) as the "
          "halfmove clock; it can be the fullmove number as well (the halfmove clock "
          "missing), so fenguard rejects it as ambiguous (SPEC 6, `missing-field`) rather "
          "than risk a fifty-move draw.", lone_move_counter),
    Quirk("stepping-checkers", ("impossible-check",),
          "python-chess 1.11.2 accepts a king checked by two stepping pieces (knights, pawns, "
          "a king: `8/8/N7/2k5/N7/8/8/3K4 b - - 0 1`), which no single move can give; its "
          "later versions and shakmaty refuse it, and so does fenguard in every 8x8 game "
          "(SPEC 15).", stepping_checkers),
)

# python-chess leniencies the corpus deliberately does not generate (fenguard's answer is
# not pinned by SPEC): '~' after a piece (crazyhouse promoted marker), counters in forms only
# Python's int() takes ("+1", "1_0", non-ASCII digits, values beyond 2**32), and whitespace
# other than single spaces between fields (python-chess splits on any whitespace run).
NOT_GENERATED = ("promoted-marker ~", "int() forms +1 1_0", "huge counters", "tabs, runs of spaces")


@dataclass
class Expected:
    """python-chess's verdict on one input line."""

    accepted: bool
    valid: bool = False
    fens: Optional[dict[tuple[str, str], str]] = None
    chess960: bool = False


def needs_chess960(board: chess.Board) -> bool:
    """A castling right whose king is off the e-file or whose rook is off the a/h files."""
    for rook in chess.scan_forward(board.clean_castling_rights()):
        color = chess.WHITE if chess.square_rank(rook) == 0 else chess.BLACK
        king = board.king(color)
        if king is None or chess.square_file(king) != 4 or chess.square_file(rook) not in (0, 7):
            return True
    return False


def oracle(line: str) -> Expected:
    try:
        board = chess.Board(line, chess960=True)
    except ValueError:
        return Expected(accepted=False)
    if not board.is_valid():
        return Expected(accepted=True, valid=False)
    fens = {}
    for ep in EP_MODES:
        fens[("xfen", ep)] = board.fen(en_passant=ep)
        fens[("shredder", ep)] = board.shredder_fen(en_passant=ep)
    return Expected(True, True, fens, needs_chess960(board))


def shape_errors(obj: object, line: str) -> list[str]:
    """What is wrong with the shape of one JSON output object (SPEC 4)."""
    if not isinstance(obj, dict):
        return ["not a JSON object"]
    errs = []
    if not KEYS <= set(obj):  # SPEC: fields may be added, never renamed
        errs.append(f"missing keys {sorted(KEYS - set(obj))}")
    if obj.get("input") != line:
        errs.append(f"input {obj.get('input')!r} != the line {line!r}")
    for key in ("valid", "repaired", "chess960"):
        if not isinstance(obj.get(key), bool):
            errs.append(f"{key} not a bool")
    if obj.get("repaired") is True:
        errs.append("repaired without --repair")
    if (obj.get("fen") is None) == bool(obj.get("valid")) or not (
            obj.get("fen") is None or isinstance(obj.get("fen"), str)):
        errs.append("fen must be a string when valid, null when invalid")
    diags = obj.get("diagnostics")
    if not isinstance(diags, list):
        return errs + ["diagnostics not a list"]
    size = len(line.encode())
    for d in diags:
        if not isinstance(d, dict) or not DIAG_KEYS <= set(d):
            errs.append(f"diagnostic keys: {d!r}")
            continue
        if not isinstance(d["code"], str) or not CODE_RE.match(d["code"]):
            errs.append(f"code not kebab-case: {d['code']!r}")
        if d["severity"] not in SEVERITIES:
            errs.append(f"severity {d['severity']!r}")
        if not isinstance(d["message"], str) or not d["message"]:
            errs.append("empty message")
        span = d["span"]
        if span is not None and not (isinstance(span, list) and len(span) == 2
                                     and all(isinstance(x, int) for x in span)
                                     and 0 <= span[0] <= span[1] <= size):
            errs.append(f"span {span!r} not a byte range in 0..{size}")
    has_error = any(isinstance(d, dict) and d.get("severity") == "error" for d in diags)
    if has_error == bool(obj.get("valid")):
        errs.append("valid must be false exactly when there is an error diagnostic")
    return errs


def codes(obj: dict, severity: str) -> set[str]:
    return {d["code"] for d in obj["diagnostics"] if d["severity"] == severity}


def judge(line: str, exp: Expected, obj: dict, mode: tuple[str, str]) -> tuple[str, list[str]]:
    """(verdict kind, problems) for fenguard's answer `obj` on `line` in `mode`."""
    if not line.strip() and "empty-input" not in codes(obj, "error"):
        return "blank", ["blank line without an `empty-input` error"]
    kind = "python-accepted" if exp.accepted else "python-refused"
    if not exp.accepted:
        for diff in DIFFERENCES:
            eq = diff.rewrite(line)
            if eq is None or not (eq_exp := oracle(eq)).accepted:
                continue
            if diff.optional and not obj["valid"]:
                return f"difference {diff.name} (rejected)", []
            warnings = codes(obj, "warning")
            if eq_exp.valid and not (warnings & set(diff.codes) if diff.codes else warnings):
                return f"difference {diff.name}", [f"valid after rewrite to {eq!r}, but "
                                                   f"no warning of {diff.codes or 'any code'}"]
            exp, kind = eq_exp, f"difference {diff.name}"
            break
        else:
            return kind, [] if not obj["valid"] else ["valid, but python-chess refuses it"]
    if exp.valid and not obj["valid"]:
        for quirk in QUIRKS:
            if quirk.applies(line) and codes(obj, "error") & set(quirk.codes):
                return f"python quirk {quirk.name} (rejected)", []
    if obj["valid"] != exp.valid:
        return kind, [f"valid {obj['valid']} != python-chess is_valid() {exp.valid}"]
    if exp.valid:
        want = exp.fens[mode]
        if obj["fen"] != want:
            return kind, [f"fen {obj['fen']!r} != python-chess {want!r}"]
        if obj["chess960"] != exp.chess960:
            return kind, [f"chess960 {obj['chess960']} != expected {exp.chess960}"]
    return kind, []


def run_fenguard(binary: str, path: str, mode: tuple[str, str]) -> tuple[int, list[bytes], str]:
    cmd = [binary, "check", "--format", "json", "--castling", mode[0], "--ep", mode[1],
           "--file", path]
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=900)
    lines = proc.stdout.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return proc.returncode, lines, proc.stderr.decode(errors="replace")[-2000:]


def find_binary(arg: Optional[str]) -> str:
    if arg:
        return arg
    path = os.path.join(ROOT, "target", "release", "fenguard")
    print("building fenguard (cargo build --release) ...", flush=True)
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    return path


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fenguard", help="fenguard binary (default: build target/release/fenguard)")
    ap.add_argument("--seed", type=int, default=20261129)
    ap.add_argument("--count", type=int, default=50_000)
    ap.add_argument("--show", type=int, default=8, help="mismatches to print in full")
    ap.add_argument("--keep", help="also write the corpus to this file")
    ap.add_argument("--generate-only", metavar="OUT", help="write the corpus to OUT and exit")
    args = ap.parse_args()

    t0 = time.monotonic()
    corpus = generate(args.seed, args.count)
    text = "".join(line + "\n" for _, line in corpus).encode()
    if args.generate_only or args.keep:
        with open(args.generate_only or args.keep, "wb") as f:
            f.write(text)
        if args.generate_only:
            print(f"wrote {len(corpus)} lines to {args.generate_only}")
            return 0
    try:
        binary = find_binary(args.fenguard)
    except (OSError, subprocess.CalledProcessError) as err:
        print(f"error: cannot build fenguard: {err}", file=sys.stderr)
        return 2
    expected = [oracle(line) for _, line in corpus]
    t1 = time.monotonic()
    print(f"corpus: {len(corpus)} lines, seed {args.seed}; python-chess side {t1 - t0:.1f}s")

    failed_inputs: set[int] = set()
    run_failures: list[str] = []
    shown: list[str] = []
    per_cat: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    kinds: collections.Counter = collections.Counter()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "corpus.fen")
        with open(path, "wb") as f:
            f.write(text)
        for mode in [(c, e) for c in CASTLING_MODES for e in EP_MODES]:
            ts = time.monotonic()
            status, out, stderr = run_fenguard(binary, path, mode)
            label = f"--castling {mode[0]} --ep {mode[1]}"
            print(f"  {label}: exit {status} (1: some inputs are invalid, as expected), "
                  f"{len(out)} lines, {time.monotonic() - ts:.2f}s")
            if len(out) != len(corpus):
                run_failures.append(f"{label}: {len(out)} output lines for {len(corpus)} "
                                    f"inputs; stderr: {stderr.strip()}")
            any_invalid = False
            for i, ((cat, line), exp) in enumerate(zip(corpus, expected)):
                if i >= len(out):
                    failed_inputs.add(i)
                    continue
                try:
                    obj = json.loads(out[i])
                    problems = shape_errors(obj, line)
                    kind = "shape"
                    if not problems:
                        kind, problems = judge(line, exp, obj, mode)
                except (ValueError, KeyError, TypeError) as err:
                    obj, kind, problems = None, "shape", [f"bad JSON: {err}"]
                any_invalid |= isinstance(obj, dict) and obj.get("valid") is False
                if mode == ("xfen", "legal"):
                    kinds[kind] += 1
                    per_cat[cat]["inputs"] += 1
                    per_cat[cat]["py-accepted"] += exp.accepted
                    per_cat[cat]["py-valid"] += exp.valid
                    per_cat[cat]["fg-valid"] += isinstance(obj, dict) and obj.get("valid") is True
                if problems:
                    if i not in failed_inputs:
                        per_cat[cat]["failed"] += 1
                    failed_inputs.add(i)
                    if len(shown) < args.show:
                        shown.append(f"[{cat} | {kind} | {label}] line {i + 1}\n"
                                     f"  input:    {line!r}\n  problem:  {'; '.join(problems)}\n"
                                     f"  fenguard: {out[i].decode(errors='replace')}")
            want_status = 1 if any_invalid else 0
            if status != want_status:
                run_failures.append(f"{label}: exit status {status}, expected {want_status}")

    print(f"\n{'category':22}{'inputs':>8}{'py-ok':>8}{'py-valid':>9}{'fg-valid':>9}{'failed':>8}")
    for cat in sorted(per_cat):
        c = per_cat[cat]
        print(f"{cat:22}{c['inputs']:8}{c['py-accepted']:8}{c['py-valid']:9}"
              f"{c['fg-valid']:9}{c['failed']:8}")
    print("\nverdict kinds (mode xfen/legal):")
    for kind, n in sorted(kinds.items()):
        print(f"  {kind:40} {n}")
    print("documented differences:")
    for diff in DIFFERENCES:
        print(f"  {diff.name}: {diff.reason}")
    print("python-chess quirks (fenguard may reject with the code named):")
    for quirk in QUIRKS:
        print(f"  {quirk.name} {quirk.codes}: {quirk.reason}")
    print(f"not generated (python-chess leniencies): {', '.join(NOT_GENERATED)}")
    for msg in run_failures:
        print(f"RUN FAILURE: {msg}")
    if shown:
        print(f"\nfirst {len(shown)} mismatches:")
        print("\n".join(shown))
    failed = len(failed_inputs) + len(run_failures)
    print(f"\n{len(corpus) - len(failed_inputs)} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
