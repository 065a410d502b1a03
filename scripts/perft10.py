#!/usr/bin/env python3
"""perft10: fenguard's 10x8 move generator against Fairy-Stockfish's `go perft`.

The expected counts live in tests/variant10_perft.txt (`variant;depth;nodes;fen`), read by
`cargo test --test variants variant10_perft::`. This script
  --generate   picks the positions (the five start positions, then mid-game positions from
               fixed-seed random games played with pyffish: with castling among the legal
               moves, a legal en passant capture, promotions to archbishop / chancellor /
               janus) and writes the table from Fairy-Stockfish's counts;
  (default)    checks the table live: Fairy-Stockfish's `go perft DEPTH` and
               `fenguard check --variant V --format json --perft DEPTH` against it.
Prints `N passed, M failed`; exit status 1 on any failure.

Usage: scripts/perft10.py [--generate] [--fenguard PATH] [--engine PATH] [--seed N]
                          [--depth N] [--table FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TABLE = os.path.join(ROOT, "tests", "variant10_perft.txt")
VARIANTS = ["capablanca", "caparandom", "gothic", "janus", "embassy"]


def fsf_perft(engine: str, variant: str, fen: str, depth: int) -> int:
    """Fairy-Stockfish's `go perft DEPTH` node count of `fen` under `variant`."""
    script = (f"setoption name UCI_Variant value {variant}\n"
              f"position fen {fen}\ngo perft {depth}\nquit\n")
    out = subprocess.run([engine], input=script, capture_output=True, text=True,
                         check=True, timeout=600).stdout
    for line in out.splitlines():
        if line.startswith("Nodes searched:"):
            return int(line.split(":")[1])
    raise RuntimeError(f"no perft count from {engine} for {variant} {fen}: {out[-300:]}")


def piece_map(fen: str) -> dict[str, str]:
    """Square name -> piece letter of a 10x8 FEN's placement."""
    out = {}
    for r, rank in enumerate(fen.split()[0].split("/")):
        f = 0
        i = 0
        while i < len(rank):
            if rank[i].isdigit():
                j = i
                while j < len(rank) and rank[j].isdigit():
                    j += 1
                f += int(rank[i:j])
                i = j
                continue
            out["abcdefghij"[f] + str(8 - r)] = rank[i]
            f += 1
            i += 1
    return out


def features(fen: str, legal: list[str]) -> set[str]:
    """What the legal moves of `fen` exercise: castle, ep, promo (to a, c or j)."""
    found = set()
    pieces = piece_map(fen)
    ep = fen.split()[3]
    for m in legal:
        p = pieces.get(m[0:2], "")
        if len(m) == 5 and m[4] in "acj":
            found.add("promo")
        if p.lower() == "k":
            target = pieces.get(m[2:4], "")
            own_rook = target == ("R" if p.isupper() else "r")
            if own_rook or abs(ord(m[0]) - ord(m[2])) >= 2:
                found.add("castle")
        if p.lower() == "p" and m[2:4] == ep and m[0] != m[2]:
            found.add("ep")
    return found


def generate(engine: str, seed: int, depth: int) -> list[tuple[str, int, int, str]]:
    import pyffish as sf
    rng = random.Random(seed)
    rows = []
    for v in VARIANTS:
        fen = sf.start_fen(v)
        rows.append((v, depth, fsf_perft(engine, v, fen, depth), fen))
    wanted = {"castle": 10, "ep": 8, "promo": 8}
    taken = {k: 0 for k in wanted}
    games = 0
    while any(taken[k] < wanted[k] for k in wanted) and games < 2000:
        v = VARIANTS[games % len(VARIANTS)]
        games += 1
        start = sf.start_fen(v)
        fen = start
        used: set[str] = set()
        for _ply in range(200):
            legal = sf.legal_moves(v, fen, [])
            if not legal:
                break
            for k in sorted(features(fen, legal) - used):
                if taken[k] < wanted[k] and _ply >= 8:
                    rows.append((v, depth, fsf_perft(engine, v, fen, depth), fen))
                    taken[k] += 1
                    used.add(k)
                    print(f"  {k}: {v} {fen}", file=sys.stderr)
                    break
            # Pawn moves are preferred so that promotions and en passant happen.
            pieces = piece_map(fen)
            pawn = [m for m in legal if pieces.get(m[0:2], "").lower() == "p"]
            move = rng.choice(pawn if pawn and rng.random() < 0.5 else legal)
            fen = sf.get_fen(v, fen, [move])
    return rows


def our_perft(fenguard: str, variant: str, fen: str, depth: int) -> int | None:
    out = subprocess.run([fenguard, "check", "--variant", variant, "--format", "json",
                          "--perft", str(depth), fen],
                         capture_output=True, text=True, timeout=600).stdout
    rec = json.loads(out.splitlines()[0])
    return rec.get("perft")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--generate", action="store_true")
    ap.add_argument("--fenguard", default=os.path.join(ROOT, "target", "release", "fenguard"))
    ap.add_argument("--engine", default="/usr/games/fairy-stockfish")
    ap.add_argument("--seed", type=int, default=20261201)
    ap.add_argument("--depth", type=int, default=3)
    ap.add_argument("--table", default=TABLE)
    args = ap.parse_args()
    if args.generate:
        rows = generate(args.engine, args.seed, args.depth)
        with open(args.table, "w") as f:
            f.write("# variant;depth;nodes;fen -- Fairy-Stockfish `go perft` counts, written by\n"
                    f"# scripts/perft10.py --generate --seed {args.seed} --depth {args.depth}\n")
            for v, d, n, fen in rows:
                f.write(f"{v};{d};{n};{fen}\n")
        print(f"wrote {len(rows)} positions to {args.table}")
        return 0
    passed = failed = 0
    with open(args.table) as f:
        rows = [line.rstrip("\n").split(";") for line in f if not line.startswith("#")]
    for v, d, n, fen in rows:
        d, n = int(d), int(n)
        live = fsf_perft(args.engine, v, fen, d)
        ours = our_perft(args.fenguard, v, fen, d)
        if live == n and ours == n:
            passed += 1
        else:
            failed += 1
            print(f"FAIL {v} depth {d}: table {n}, Fairy-Stockfish {live}, fenguard {ours}: {fen}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
