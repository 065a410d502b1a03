#!/usr/bin/env python3
"""variant10_oracle: differential test of fenguard's 10x8 board against pyffish
(Fairy-Stockfish's own binding), SPEC section 10.

For each of capablanca, caparandom (random Capablanca Random Chess arrays), gothic, janus and
embassy it plays fixed-seed random games with pyffish and feeds every position reached to
`fenguard check --variant V --format json --legal-moves` (X-FEN castling; Shredder-FEN for
caparandom, as Fairy-Stockfish writes it). For a position reached by play it checks:
  verdict    valid, as pyffish's `validate_fen` says;
  moves      the same set of legal moves as `legal_moves` (castles king-to-target, in
             caparandom king-takes-rook);
  after      the FEN after the move played equals `get_fen` after it.
Then mutations of those positions, judged by the X-FEN definition (the expected verdict and
code), with pyffish's own verdict tallied beside them (run in a child process: its validator
crashes on some inputs) to document where pyffish is lenient:
  rank-long / rank-short   a rank of 11 / 9 squares          invalid: rank-too-long/-short
  count-11                 a count of 11                      invalid: bad-digit
  no-king                  the white king replaced            invalid: missing-king
  pawn-back-rank           a pawn on the first rank           invalid: pawn-on-back-rank
  castle-beyond            a castling letter past the j-file  invalid: bad-castling-char
  castle-prefix            the seed's `s` / `m` prefix        invalid: unsupported-castling-prefix
  ep-off-board             en passant square k6 / a9          invalid: bad-ep-square
  ep-wrong-rank            en passant square on rank 4        invalid: ep-square-wrong-rank
  turn-swapped             the other side to move             invalid (opposite-check) exactly
                                                              when the mover was in check
Prints per-check counts and `N passed, M failed`; exit status 1 on any failure.

Usage: scripts/variant10_oracle.py [--fenguard PATH] [--seed N] [--count N] [--verbose]
  --count: positions reached by play, over all five variants (default 20000).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import random
import subprocess
import sys

try:
    import pyffish as sf
except ImportError:
    sys.exit("pyffish is required: pip install pyffish")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VARIANTS = ["capablanca", "caparandom", "gothic", "janus", "embassy"]
FILES = "abcdefghij"


def crc_array(rng: random.Random) -> str:
    """A random Capablanca Random Chess back rank: bishops on opposite colors, the king
    between the rooks."""
    while True:
        pieces = list("rnabqkbcnr")
        rng.shuffle(pieces)
        b = [i for i, p in enumerate(pieces) if p == "b"]
        r = [i for i, p in enumerate(pieces) if p == "r"]
        k = pieces.index("k")
        if b[0] % 2 != b[1] % 2 and r[0] < k < r[1]:
            return "".join(pieces)


def start_fen(variant: str, rng: random.Random) -> str:
    if variant != "caparandom":
        return sf.start_fen(variant)
    a = crc_array(rng)
    return f"{a}/pppppppppp/10/10/10/10/PPPPPPPPPP/{a.upper()} w KQkq - 0 1"


def play(variant: str, count: int, rng: random.Random) -> list[dict]:
    """Positions reached by random play: fen, legal moves, the move played, the FEN after
    it, whether the side to move after it is in check."""
    out: list[dict] = []
    while len(out) < count:
        fen = start_fen(variant, rng)
        for _ply in range(rng.randint(20, 160)):
            legal = sf.legal_moves(variant, fen, [])
            if not legal or len(out) >= count:
                break
            move = rng.choice(legal)
            after = sf.get_fen(variant, fen, [move])
            check = sf.gives_check(variant, fen, [move])
            out.append({"fen": fen, "legal": legal, "move": move, "after": after,
                        "check_after": check})
            fen = after
    return out


def run_fenguard(fenguard: str, variant: str, fens: list[str]) -> list[dict]:
    castling = "shredder" if variant == "caparandom" else "xfen"
    proc = subprocess.run(
        [fenguard, "check", "--variant", variant, "--format", "json", "--legal-moves",
         "--castling", castling, "--ep", "xfen"],
        input="".join(f + "\n" for f in fens), capture_output=True, text=True, timeout=3600)
    if proc.returncode == 2:
        sys.exit(f"fenguard check failed: {proc.stderr}")
    lines = proc.stdout.splitlines()
    assert len(lines) == len(fens), f"{len(lines)} output lines for {len(fens)} inputs"
    return [json.loads(line) for line in lines]


def set_rank(fen: str, k: int, text: str) -> str:
    fields = fen.split(" ")
    ranks = fields[0].split("/")
    ranks[k] = text
    fields[0] = "/".join(ranks)
    return " ".join(fields)


def set_field(fen: str, n: int, text: str) -> str:
    fields = fen.split(" ")
    fields[n] = text
    return " ".join(fields)


def expand(rank: str) -> list[str]:
    """A rank as ten cells ('' for empty)."""
    cells: list[str] = []
    i = 0
    while i < len(rank):
        if rank[i].isdigit():
            j = i
            while j < len(rank) and rank[j].isdigit():
                j += 1
            cells += [""] * int(rank[i:j])
            i = j
        else:
            cells.append(rank[i])
            i += 1
    return cells


def compress(cells: list[str]) -> str:
    out, empty = "", 0
    for c in cells:
        if c:
            out += (str(empty) if empty else "") + c
            empty = 0
        else:
            empty += 1
    return out + (str(empty) if empty else "")


def mutations(rec: dict, rng: random.Random) -> list[tuple[str, str, bool, set[str]]]:
    """(kind, fen, expected valid, acceptable codes) mutations of a reached position."""
    fen = rec["after"]
    fields = fen.split(" ")
    ranks = fields[0].split("/")
    out = []
    k = rng.randrange(1, 7)
    cells = expand(ranks[k])
    out.append(("rank-long", set_rank(fen, k, compress(cells) + "N"), False, {"rank-too-long"}))
    empties = [i for i, c in enumerate(cells) if not c]
    if empties:
        short = cells[:]
        del short[rng.choice(empties)]
        out.append(("rank-short", set_rank(fen, k, compress(short)), False, {"rank-too-short"}))
    if not any(cells):
        out.append(("count-11", set_rank(fen, k, "11"), False, {"bad-digit"}))
    if "K" in fields[0]:
        out.append(("no-king", fen.replace("K", "N", 1), False, {"missing-king"}))
    first = expand(ranks[7])
    spots = [i for i, c in enumerate(first) if c.lower() != "k"]
    if spots:
        first[rng.choice(spots)] = "P"
        out.append(("pawn-back-rank", set_rank(fen, 7, compress(first)), False,
                    {"pawn-on-back-rank"}))
    letter = rng.choice("LNOPZ")
    out.append(("castle-beyond", set_field(fen, 2, letter + fields[2].replace("-", "")), False,
                {"bad-castling-char"}))
    prefix = rng.choice("sm")
    out.append(("castle-prefix", set_field(fen, 2, prefix + fields[2].replace("-", "KQkq")),
                False, {"unsupported-castling-prefix"}))
    out.append(("ep-off-board", set_field(fen, 3, rng.choice(["k6", "a9", "k3"])), False,
                {"bad-ep-square"}))
    out.append(("ep-wrong-rank", set_field(fen, 3, rng.choice(FILES) + "4"), False,
                {"ep-square-wrong-rank"}))
    swapped = set_field(set_field(fen, 1, "b" if fields[1] == "w" else "w"), 3, "-")
    out.append(("turn-swapped", swapped, not rec["check_after"],
                {"opposite-check"} if rec["check_after"] else set()))
    return out


def pyffish_verdicts(variant: str, fens: list[str]) -> list[str]:
    """pyffish's `validate_fen` per FEN, in a child process restarted after a crash:
    'accepts', 'rejects' or 'crashes'."""
    code = ("import sys, pyffish as sf\n"
            "v = sys.argv[1]\n"
            "for line in sys.stdin:\n"
            "    r = sf.validate_fen(line.rstrip('\\n'), v)\n"
            "    sys.stderr.write('R %d\\n' % r); sys.stderr.flush()\n")
    verdicts: list[str] = []
    while len(verdicts) < len(fens):
        rest = fens[len(verdicts):]
        proc = subprocess.run([sys.executable, "-c", code, variant],
                              input="".join(f + "\n" for f in rest),
                              capture_output=True, text=True, timeout=600)
        got = [line for line in proc.stderr.splitlines() if line.startswith("R ")]
        verdicts += ["accepts" if line == "R 1" else "rejects" for line in got]
        if len(got) < len(rest):
            verdicts.append("crashes")
    return verdicts


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fenguard", default=os.path.join(ROOT, "target", "release", "fenguard"))
    ap.add_argument("--seed", type=int, default=20261201)
    ap.add_argument("--count", type=int, default=20000)
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    tally: collections.Counter = collections.Counter()
    lenient: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    failures: list[str] = []

    def check(name: str, ok: bool, detail: str) -> None:
        tally[(name, ok)] += 1
        if not ok:
            failures.append(f"{name}: {detail}")

    per_variant = max(1, args.count // len(VARIANTS))
    for variant in VARIANTS:
        recs = play(variant, per_variant, rng)
        ours = run_fenguard(variant=variant, fenguard=args.fenguard, fens=[r["fen"] for r in recs])
        for rec, got in zip(recs, ours):
            where = f"{variant} {rec['fen']}"
            check("verdict", got["valid"] and sf.validate_fen(rec["fen"], variant) == 1,
                  f"{where}: fenguard {got['valid']} {got['diagnostics']}")
            if not got["valid"]:
                continue
            moves = dict(got["legal_moves"])
            check("moves", set(moves) == set(rec["legal"]),
                  f"{where}: only fenguard {sorted(set(moves) - set(rec['legal']))}, "
                  f"only pyffish {sorted(set(rec['legal']) - set(moves))}")
            mine = moves.get(rec["move"])
            check("after", mine == rec["after"],
                  f"{where} {rec['move']}: fenguard {mine}, pyffish {rec['after']}")
        muts = [m for rec in recs[:: max(1, len(recs) // 400)] for m in mutations(rec, rng)]
        ours = run_fenguard(variant=variant, fenguard=args.fenguard, fens=[m[1] for m in muts])
        theirs = pyffish_verdicts(variant, [m[1] for m in muts])
        for (kind, fen, valid, codes), got, pyf in zip(muts, ours, theirs):
            found = {d["code"] for d in got["diagnostics"] if d["severity"] == "error"}
            ok = got["valid"] == valid and (not codes or bool(found & codes))
            check("mutation " + kind, ok,
                  f"{variant} {fen}: expected valid={valid} {sorted(codes)}, fenguard "
                  f"valid={got['valid']} {sorted(found)}")
            lenient[kind][f"pyffish {pyf}"] += 1
    names = sorted({name for name, _ in tally})
    for name in names:
        print(f"{name:28} {tally[(name, True)]:7} passed {tally[(name, False)]:5} failed")
    print("pyffish's own verdicts on the mutations (fenguard judges by the X-FEN definition):")
    for kind in sorted(lenient):
        print(f"  {kind:20} " + ", ".join(f"{k}: {v}" for k, v in sorted(lenient[kind].items())))
    for f in failures[: (len(failures) if args.verbose else 15)]:
        print("FAIL " + f)
    passed = sum(v for (_, ok), v in tally.items() if ok)
    failed = sum(v for (_, ok), v in tally.items() if not ok)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
