"""Random FEN corpus for fenguard's differential test and benchmarks.

Generates FEN lines from random standard and Chess960 games (random legal moves, so the
positions have en passant squares, moved kings and rooks, partial and inner-rook castling
rights), random placements, and mutations of them that python-chess refuses or judges
invalid. Deterministic for a given seed (Python's `random.Random`, python-chess 1.11.2).

    >>> from fen_corpus import generate
    >>> lines = generate(seed=1, count=100)   # [(category, line), ...]

Used by `scripts/oracle_diff.py` (SPEC section 7) and `scripts/bench-check` (section 9).
"""

from __future__ import annotations

import random
from typing import Callable

import chess

FILES = "abcdefgh"

# Characters a random character mutation may write. Deliberately leaves out characters that
# python-chess accepts beyond FEN (see oracle_diff.NOT_GENERATED): '~' (crazyhouse promoted
# marker), '+' and '_' (Python's int() takes "+1" and "1_0"), and whitespace.
MUTATION_CHARS = "KQRBNPkqrbnp0123456789/-abcdefghwxyzXYZ*.?!#=@é♔"


def fields_of(fen: str) -> list[str]:
    """The space-separated fields of `fen` (at least one, possibly empty)."""
    return fen.split(" ")


def with_field(fen: str, index: int, value: str) -> str:
    """`fen` with field `index` (0 board .. 5 fullmove) replaced, padding missing fields."""
    fields = fields_of(fen)
    defaults = ["8/8/8/8/8/8/8/8", "w", "-", "-", "0", "1"]
    while len(fields) <= index:
        fields.append(defaults[len(fields)])
    fields[index] = value
    return " ".join(fields)


def ranks_of(fen: str) -> list[str]:
    """The board field of `fen` split at '/'."""
    return fields_of(fen)[0].split("/")


def with_ranks(fen: str, ranks: list[str]) -> str:
    """`fen` with its board field rebuilt from `ranks`."""
    return with_field(fen, 0, "/".join(ranks))


def expand_rank(rank: str) -> list[str]:
    """A rank as a list of one-character squares, '.' for empty (digits expanded)."""
    squares: list[str] = []
    for ch in rank:
        if ch.isdigit():
            squares.extend("." * int(ch))
        else:
            squares.append(ch)
    return squares


def compress_rank(squares: list[str]) -> str:
    """The FEN text of a rank given as squares ('.' for empty)."""
    out, run = [], 0
    for sq in squares:
        if sq == ".":
            run += 1
            continue
        if run:
            out.append(str(run))
            run = 0
        out.append(sq)
    if run:
        out.append(str(run))
    return "".join(out)


def random_counters(rng: random.Random, board: chess.Board) -> tuple[int, int]:
    """The game's counters most of the time, random ones otherwise."""
    if rng.random() < 0.8:
        return board.halfmove_clock, board.fullmove_number
    return rng.randrange(0, 120), rng.randrange(1, 200)


def game_fen(rng: random.Random, board: chess.Board) -> str:
    """A FEN of `board` in a randomly chosen dialect (X-FEN or Shredder-FEN castling, and an
    en passant field as standard FEN, X-FEN or legal-only writes it)."""
    ep = rng.choice(["fen", "fen", "xfen", "legal"])
    text = board.shredder_fen(en_passant=ep) if rng.random() < 0.3 else board.fen(en_passant=ep)
    half, full = random_counters(rng, board)
    return with_field(with_field(text, 4, str(half)), 5, str(full))


def random_games(rng: random.Random, chess960: bool, want: int) -> list[chess.Board]:
    """Snapshots of random games: random legal moves, biased to double pawn pushes and
    castling so en passant squares and moved kings and rooks are common."""
    snaps: list[chess.Board] = []
    while len(snaps) < want:
        if chess960:
            board = chess.Board.from_chess960_pos(rng.randrange(960))
            board.chess960 = True
        else:
            board = chess.Board(chess960=True)
        length = rng.randrange(0, 140)
        for _ply in range(length):
            moves = list(board.legal_moves)
            if not moves:
                break
            special = [m for m in moves if board.is_castling(m)
                       or (board.piece_type_at(m.from_square) == chess.PAWN
                           and abs(m.to_square - m.from_square) == 16)]
            move = rng.choice(special) if special and rng.random() < 0.3 else rng.choice(moves)
            board.push(move)
            if rng.random() < 0.08 or (board.ep_square is not None and rng.random() < 0.2):
                snaps.append(board.copy(stack=False))
        snaps.append(board.copy(stack=False))
    return snaps[:want]


def random_placement(rng: random.Random) -> str:
    """A random board: two kings (usually) and up to 30 random pieces, random side to move,
    plausible castling letters and ep field. Many are invalid (checks, pawns, material)."""
    squares = [["."] * 8 for _ in range(8)]
    free = list(range(64))
    rng.shuffle(free)
    for king in "Kk":
        sq = free.pop()
        squares[sq // 8][sq % 8] = king
    for _ in range(rng.choice([2, 4, 6, 10, 16, 30])):
        sq = free.pop()
        piece = rng.choice("QRRBBNNPPPPqrrbbnnpppp")
        if piece in "Pp" and sq // 8 in (0, 7) and rng.random() < 0.9:
            piece = rng.choice("RN") if piece == "P" else rng.choice("rn")
        squares[sq // 8][sq % 8] = piece
    board = "/".join(compress_rank(squares[7 - r]) for r in range(8))
    castling = rng.choice(["-", "-", "K", "Qk", "KQkq", "k", "q", "Kq"])
    ep = "-" if rng.random() < 0.8 else rng.choice(FILES) + rng.choice("36")
    turn = rng.choice("wb")
    return f"{board} {turn} {castling} {ep} {rng.randrange(0, 60)} {rng.randrange(1, 90)}"


def inner_rook_position(rng: random.Random) -> str:
    """A back rank with two white rooks on one side of the king (X-FEN's inner-rook case),
    castling written with the inner rook's file letter, K/Q (outermost) or both."""
    king = rng.randrange(1, 7)
    sides = [side for side in (-1, 1) if sum((f - king) * side > 0 for f in range(8)) >= 2]
    side = rng.choice(sides)
    beyond = [f for f in range(8) if (f - king) * side > 0]
    inner, outer = sorted(rng.sample(beyond, 2), key=lambda f: abs(f - king))
    rank = ["."] * 8
    rank[king], rank[inner], rank[outer] = "K", "R", "R"
    letter = rng.choice([FILES[inner].upper(), "K" if side > 0 else "Q"])
    black = rng.choice(["", "k", "q", "kq"])
    board = f"r3k2r/pppppppp/8/8/8/8/PPPPPPPP/{compress_rank(rank)}"
    if not black:
        board = "4k3/pppppppp/8/8/8/8/PPPPPPPP/" + compress_rank(rank)
    return f"{board} {rng.choice('wb')} {letter}{black} - 0 1"


# ---- mutations: each takes (rng, fen) and returns the mutated line -------------------------


def m_king_removed(rng: random.Random, fen: str) -> str:
    ranks = ranks_of(fen)
    king = rng.choice("Kk")
    for i, rank in enumerate(ranks):
        squares = expand_rank(rank)
        if king in squares:
            squares[squares.index(king)] = "."
            ranks[i] = compress_rank(squares)
    return with_ranks(fen, ranks)


def m_piece_placed(piece_choices: str, rank_choices: range) -> Callable[[random.Random, str], str]:
    def mutate(rng: random.Random, fen: str) -> str:
        ranks = ranks_of(fen)
        r = rng.choice(list(rank_choices))
        squares = expand_rank(ranks[r])
        if len(squares) == 8:
            squares[rng.randrange(8)] = rng.choice(piece_choices)
            ranks[r] = compress_rank(squares)
        return with_ranks(fen, ranks)
    return mutate


def m_turn_flip(rng: random.Random, fen: str) -> str:
    turn = fields_of(fen)[1] if len(fields_of(fen)) > 1 else "w"
    return with_field(fen, 1, "b" if turn == "w" else "w")


def m_ep_square(rng: random.Random, fen: str) -> str:
    rank = rng.choice("36") if rng.random() < 0.6 else rng.choice("12345678")
    return with_field(fen, 3, rng.choice(FILES) + rank)


def m_ep_syntax(rng: random.Random, fen: str) -> str:
    return with_field(fen, 3, rng.choice(["e9", "i3", "E3", "e", "e33", "--", "3e", "x", "a0"]))


def m_castling_random(rng: random.Random, fen: str) -> str:
    """Syntactically fine castling letters (<= 2 a color, white first) that may lack rooks."""
    white = "".join(sorted(rng.sample("KQABCDEFGH", rng.randrange(0, 3)), key="KQABCDEFGH".index))
    black = "".join(sorted(rng.sample("kqabcdefgh", rng.randrange(0, 3)), key="kqabcdefgh".index))
    return with_field(fen, 2, (white + black) or "-")


def m_castling_order(rng: random.Random, fen: str) -> str:
    """Castling letters of the start position in a non-canonical order (python-chess refuses
    black before white; fenguard accepts with `castling-order`)."""
    return with_field(fen, 2, rng.choice(["kqKQ", "kKqQ", "qkQK", "KkQq", "kQ", "qK", "QkKq"]))


def m_castling_repeat(rng: random.Random, fen: str) -> str:
    return with_field(fen, 2, rng.choice(["KKQkq", "KQkqq", "KKkk", "KQKQ", "kk", "QQq"]))


def m_castling_bad_char(rng: random.Random, fen: str) -> str:
    return with_field(fen, 2, rng.choice(["KQkqX", "K-", "1", "x", "KQkq-", "KI", "W"]))


def m_rank_len(delta: int) -> Callable[[random.Random, str], str]:
    def mutate(rng: random.Random, fen: str) -> str:
        ranks = ranks_of(fen)
        i = rng.randrange(len(ranks))
        squares = expand_rank(ranks[i])
        if delta > 0:
            squares.insert(rng.randrange(len(squares) + 1), rng.choice(".pPnN"))
        elif squares:
            squares.pop(rng.randrange(len(squares)))
        ranks[i] = compress_rank(squares) or "8"
        return with_ranks(fen, ranks)
    return mutate


def m_rank_count(delta: int) -> Callable[[random.Random, str], str]:
    def mutate(rng: random.Random, fen: str) -> str:
        ranks = ranks_of(fen)
        i = rng.randrange(len(ranks))
        if delta > 0:
            ranks.insert(i, rng.choice(["8", "pppppppp", "4P3"]))
        else:
            ranks.pop(i)
        return with_ranks(fen, ranks)
    return mutate


def m_bad_digit(rng: random.Random, fen: str) -> str:
    ranks = ranks_of(fen)
    i = rng.randrange(len(ranks))
    choice = rng.random()
    if choice < 0.4:
        ranks[i] = ranks[i] + "0"
    elif choice < 0.7:
        ranks[i] = "9"
    else:
        ranks[i] = rng.choice(["44", "53", "17", "116", "80"])
    return with_ranks(fen, ranks)


def m_bad_char(rng: random.Random, fen: str) -> str:
    board = fields_of(fen)[0]
    positions = [i for i, ch in enumerate(board) if ch.isalpha()]
    i = rng.choice(positions) if positions else 0
    board = board[:i] + rng.choice("xXzZ*?éä♔") + board[i + 1:]
    return with_field(fen, 0, board)


def m_bad_color(rng: random.Random, fen: str) -> str:
    return with_field(fen, 1, rng.choice(["W", "B", "white", "-", "x", "wb"]))


def m_counter_negative(rng: random.Random, fen: str) -> str:
    return with_field(fen, rng.choice([4, 5]), str(-rng.randrange(1, 20)))


def m_counter_garbage(rng: random.Random, fen: str) -> str:
    return with_field(fen, rng.choice([4, 5]), rng.choice(["a", "1.5", "x1", "1x", "--", "½"]))


def m_fullmove_zero(rng: random.Random, fen: str) -> str:
    return with_field(fen, 5, "0")


def m_missing_fields(rng: random.Random, fen: str) -> str:
    return " ".join(fields_of(fen)[: rng.randrange(1, 6)])


def m_extra_field(rng: random.Random, fen: str) -> str:
    return fen + " " + rng.choice(["0", "bm e4;", 'id "x";', "moves", "w"])


def m_whitespace(rng: random.Random, fen: str) -> str:
    return rng.choice(["", " ", "  "]) + fen + rng.choice(["", " ", "   "])


def m_truncated(rng: random.Random, fen: str) -> str:
    return fen[: rng.randrange(1, len(fen))]


def m_random_char(rng: random.Random, fen: str) -> str:
    i = rng.randrange(len(fen))
    return fen[:i] + rng.choice(MUTATION_CHARS) + fen[i + 1:]


def m_trailing_slash(rng: random.Random, fen: str) -> str:
    return with_field(fen, 0, fields_of(fen)[0] + "/")


MUTATIONS: dict[str, tuple[float, Callable[[random.Random, str], str]]] = {
    # name: (weight, mutation)
    "king-removed": (3, m_king_removed),
    "king-added": (2, m_piece_placed("Kk", range(8))),
    "pawn-back-rank": (2, m_piece_placed("Pp", range(0, 8, 7))),
    "turn-flip": (4, m_turn_flip),
    "ep-square": (5, m_ep_square),
    "ep-syntax": (1, m_ep_syntax),
    "castling-random": (6, m_castling_random),
    "castling-order": (1, m_castling_order),
    "castling-repeat": (1, m_castling_repeat),
    "castling-bad-char": (1, m_castling_bad_char),
    "rank-9-squares": (1, m_rank_len(+1)),
    "rank-7-squares": (1, m_rank_len(-1)),
    "board-9-ranks": (1, m_rank_count(+1)),
    "board-7-ranks": (1, m_rank_count(-1)),
    "bad-digit": (1, m_bad_digit),
    "bad-piece-char": (1, m_bad_char),
    "bad-color": (1, m_bad_color),
    "counter-negative": (1, m_counter_negative),
    "counter-garbage": (1, m_counter_garbage),
    "fullmove-zero": (1, m_fullmove_zero),
    "missing-fields": (2, m_missing_fields),
    "extra-field": (1, m_extra_field),
    "whitespace": (1, m_whitespace),
    "truncated": (2, m_truncated),
    "random-char": (4, m_random_char),
    "trailing-slash": (0.5, m_trailing_slash),
}


def generate(seed: int, count: int) -> list[tuple[str, str]]:
    """`count` (category, FEN line) pairs, deterministic for `seed`. About 40% unmutated
    game / placement positions, the rest mutations; a few blank lines."""
    rng = random.Random(seed)
    pool_size = max(count // 3, 10)
    std = random_games(rng, chess960=False, want=pool_size // 2)
    c960 = random_games(rng, chess960=True, want=pool_size // 2)
    bases: list[tuple[str, str]] = []
    bases += [("game-standard", game_fen(rng, b)) for b in std]
    bases += [("game-chess960", game_fen(rng, b)) for b in c960]
    bases += [("in-check-flip", m_turn_flip(rng, game_fen(rng, b))) for b in std + c960
              if b.is_check()]
    bases += [("random-placement", random_placement(rng)) for _ in range(pool_size // 5)]
    bases += [("inner-rook", inner_rook_position(rng)) for _ in range(pool_size // 40 + 1)]
    names = list(MUTATIONS)
    weights = [MUTATIONS[n][0] for n in names]
    out: list[tuple[str, str]] = []
    while len(out) < count:
        roll = rng.random()
        category, fen = rng.choice(bases)
        if roll < 0.004:
            out.append(("blank", rng.choice(["", " ", "   "])))
        elif roll < 0.4:
            out.append((category, fen))
        else:
            name = rng.choices(names, weights)[0]
            out.append((name, MUTATIONS[name][1](rng, fen)))
    return out
