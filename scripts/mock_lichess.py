#!/usr/bin/env python3
"""A test double of lichess's external-engine API: lila's registration endpoints and the work
broker (lila-engine), on one 127.0.0.1 port, for `fenguard provide`'s tests.

    python3 scripts/mock_lichess.py [--port 0] [--poll-s 10] [--pickup-s 15] [--token T ...]
                                    [--broker-port P] [--idle-timeout-s S] [--track-pids]

prints `listening http://127.0.0.1:PORT` on stdout (flushed) and serves until killed. With
--broker-port the broker has its own port (as engine.lichess.ovh beside lichess.org), printed on
a second line `broker http://127.0.0.1:PORT`; each port then answers 404 to the other's paths. Python 3.11
standard library only; python-chess (`import chess`) is used, when installed, for one thing: the
broker's legality checks of a job's position and moves (sanitize) and the PV normalization of
what the requester receives (emit). Without it everything else works and jobs are checked for
syntax only (`"checked": "syntax"` in /_mock/jobs).

Sources followed (commit 371eae8 of lichess-org/lila-engine unless said otherwise):
- src/main.rs: the three broker handlers `acquire`, `submit`, `analyse`, their status codes
  (`impl IntoResponse for Error`) and timeouts (10 s long poll, 15 s pickup);
- src/uci.rs: `UciOut::from_line`, the grammar of the engine lines the provider streams;
- src/api.rs: `Work` (its serde shape: what the broker answers 422 to) and `Work::sanitize`
  (what it answers 400 to, and the clamps);
- src/emit.rs: `Emit::update` / `should_emit`, what the requester receives;
- src/hub.rs (the per-selector queue, MAX_ITEMS, skipping jobs whose requester left),
  src/ongoing.rs (acquired jobs waiting for their submit), src/model/*.rs (the provider
  selector, job ids, MultiPv, UciVariant names and aliases);
- lila (lichess-org/lila, modules/analyse ExternalEngine.scala and controllers/Analyse.scala):
  the registration form, its limits, the JSON written back, the status codes (create is 201);
- lichess-org/api doc/specs (tags/externalengine, schemas/ExternalEngine*.yaml);
- shakmaty 0.30.1 (the chess library lila-engine uses): `UciMove::from_ascii`,
  `UciMove::to_move`, `Fen::from_ascii` (ported below as syntax checks).

HTTP behaviour of the real broker (axum 0.8 on hyper 1) that the mock reproduces:
- every error is `text/plain; charset=utf-8` with the error's message; success of a submit is
  200 with an empty body; no job within the poll is 204 with no body;
- a handler that answers before it has read the whole request body (404 on submit, 200 when the
  requester left, 400 at a refused line, 200 at `bestmove`) leaves the rest unread: hyper then
  closes the connection instead of keeping it alive (the mock sends `connection: close` and
  closes; the real broker may omit the header). A client still writing gets EPIPE/ECONNRESET,
  possibly before it has read the response;
- a client that closes its connection while its long poll waits is noticed (hyper drops the
  handler), so no job is handed to a poll nobody reads; the same for a requester.

Test hooks (not lichess API) under /_mock/: enqueue, jobs, engines, stats, requests,
broker-down, inject, wait. See `Handler.mock_*` for their bodies and answers.
"""

from __future__ import annotations

import argparse
import hashlib
import heapq
import http
import itertools
import json
import os
import queue
import re
import secrets
import select
import socket
import string
import struct
import sys
import threading
import time
import urllib.parse
from collections import deque
from http.server import BaseHTTPRequestHandler

try:  # only for sanitize's legality checks and emit's PV normalization
    import chess
    import chess.variant
except ImportError:  # pragma: no cover - exercised where python-chess is missing
    chess = None

# --------------------------------------------------------------------------------------------
# Integers as Rust's `str::parse` reads them (core::num `from_str_radix`, radix 10): an optional
# `+` (or `-` for signed types), then one or more ASCII digits; no spaces, no `_`; out of range
# is an error. Python's int() is more lenient (Unicode digits, `_`, spaces), so it is not used
# on unchecked text.

U32 = (0, 2**32 - 1)
U64 = (0, 2**64 - 1)
I32 = (-(2**31), 2**31 - 1)
I64 = (-(2**63), 2**63 - 1)
_DIGITS = re.compile(r"[0-9]+")


class ParseIntError(ValueError):
    """Rust's ParseIntError, with its Display text."""


def rust_parse_int(text: str, bounds: tuple[int, int]) -> int:
    lo, hi = bounds
    if text == "":
        raise ParseIntError("cannot parse integer from empty string")
    digits, negative = text, False
    if text[0] in "+-" and len(text) == 1:
        raise ParseIntError("invalid digit found in string")
    if text[0] == "+":
        digits = text[1:]
    elif text[0] == "-" and lo < 0:
        digits, negative = text[1:], True
    if not _DIGITS.fullmatch(digits):
        raise ParseIntError("invalid digit found in string")
    value = -int(digits) if negative else int(digits)
    if value > hi:
        raise ParseIntError("number too large to fit in target type")
    if value < lo:
        raise ParseIntError("number too small to fit in target type")
    return value


# --------------------------------------------------------------------------------------------
# UCI moves: shakmaty 0.30.1 `UciMove::from_ascii` (src/uci.rs). A move is a tuple:
# ("normal", from, to, promotion_role_or_None) | ("put", role, to) | ("null",), squares 0..63
# (a1 = 0), roles as lowercase letters "pnbrqk".

FILES = "abcdefgh"
RANKS = "12345678"
ROLES = "pnbrqk"


class ParseUciMoveError(ValueError):
    def __str__(self) -> str:
        return "invalid uci"


def _square(two: str) -> int:
    if len(two) != 2 or two[0] not in FILES or two[1] not in RANKS:
        raise ParseUciMoveError()
    return RANKS.index(two[1]) * 8 + FILES.index(two[0])


def square_name(sq: int) -> str:
    return FILES[sq % 8] + RANKS[sq // 8]


def parse_uci_move(text: str) -> tuple:
    """`UciMove::from_ascii`: 4 or 5 bytes; `0000`; `R@sq` with any-case role letter
    (`Role::from_char` takes both cases, `k` and `p` included); `sqsq`; `sqsqR` likewise.
    `e1e1` is syntactically a move (to_move finds it illegal)."""
    raw = text.encode("utf-8")
    if len(raw) == 4:
        if raw == b"0000":
            return ("null",)
        if raw[1:2] == b"@":
            role = chr(raw[0]).lower()
            if role not in ROLES:
                raise ParseUciMoveError()
            return ("put", role, _square(text[2:4]))
        return ("normal", _square(text[0:2]), _square(text[2:4]), None)
    if len(raw) == 5:
        role = chr(raw[4]).lower()
        if role not in ROLES:
            raise ParseUciMoveError()
        return ("normal", _square(text[0:2]), _square(text[2:4]), role)
    raise ParseUciMoveError()


def uci_move_str(m: tuple) -> str:
    """shakmaty's `UciMove` Display: drops with an uppercase role, promotions lowercase."""
    if m[0] == "null":
        return "0000"
    if m[0] == "put":
        return m[1].upper() + "@" + square_name(m[2])
    return square_name(m[1]) + square_name(m[2]) + (m[3] or "")


# --------------------------------------------------------------------------------------------
# The engine-line grammar of the broker: lila-engine src/uci.rs, `UciOut::from_line` and its
# `Parser` (`read`, `read_until`, `parse_out`, `parse_bestmove`, `parse_info`, `parse_score`,
# `parse_moves`), followed token for token:
# - `Parser::new`: a `\r` or `\n` anywhere in the line is UnexpectedLineBreak (the body reader,
#   tokio's `lines()`, has already removed the `\n` and one `\r` before it);
# - tokens are separated by runs of ' ' and '\t' only (`is_separator`);
# - `parse_out`: a first token other than `bestmove` / `info` (and an empty line) is ignored:
#   Ok(None), the line is read and dropped (so `id`, `option`, `readyok`, `Info` are fine);
# - `bestmove [M|(none)] [ponder [P|(none)]]`; a second token other than `ponder` is
#   UnexpectedToken; tokens after P are not read;
# - `info`: any of these fields, any number of times, in any order, each with its value:
#   multipv u32 (then MultiPv: above 5 is an error, 0 reads as 1), depth u32, seldepth u32,
#   time u64 (ms), nodes u64, score (cp i64 | mate i32) [lowerbound] [upperbound] (any number of
#   them), currmove M, currmovenumber u32, hashfull u32, nps u64, tbhits u64, sbhits u64,
#   cpuload u32, refutation M M*, currline u32 M*, pv M*, string REST (the rest of the line,
#   trimmed; may be empty). A field whose value is missing is UnexpectedEndOfLine; any other
#   token (`wdl`, `ebf`, `movesleft`, a word after a pv) is UnexpectedToken;
# - a move list (`pv`, `refutation`, `currline`) takes tokens while they parse as UCI moves
#   (`parse_moves`); the first token that does not is read as the next field name.
# `info string ...` is therefore accepted (and ignored by emit), never refused.


class ProtocolError(ValueError):
    """lila-engine's `uci::ProtocolError`; str() is its Display text."""


class _Parser:
    def __init__(self, line: str):
        if "\r" in line or "\n" in line:
            raise ProtocolError("unexpected line break in uci command")
        self.s = line

    def _read(self) -> tuple[str | None, str]:
        s = self.s.lstrip(" \t")
        if not s:
            return None, s
        end = len(s)
        for sep in (" ", "\t"):
            i = s.find(sep)
            if i != -1:
                end = min(end, i)
        return s[:end], s[end:]

    def next(self) -> str | None:
        head, self.s = self._read()
        return head

    def peek(self) -> str | None:
        return self._read()[0]

    def rest(self) -> str:
        """`self.until(|_| false)`: the rest of the line without its outer separators."""
        s, self.s = self.s.lstrip(" \t"), ""
        return s.rstrip(" \t")

    def value(self) -> str:
        token = self.next()
        if token is None:
            raise ProtocolError("unexpected end of line")
        return token

    def int_value(self, bounds: tuple[int, int]) -> int:
        try:
            return rust_parse_int(self.value(), bounds)
        except ParseIntError as err:
            raise ProtocolError(f"invalid integer: {err}") from None

    def move_value(self) -> tuple:
        try:
            return parse_uci_move(self.value())
        except ParseUciMoveError as err:
            raise ProtocolError(f"invalid move: {err}") from None

    def moves(self) -> list:
        out = []
        while (token := self.peek()) is not None:
            try:
                out.append(parse_uci_move(token))
            except ParseUciMoveError:
                break
            self.next()
        return out

    def bestmove(self) -> dict:
        token = self.next()
        m = None if token in (None, "(none)") else self._move(token)
        ponder = None
        token = self.next()
        if token == "ponder":
            token = self.next()
            ponder = None if token in (None, "(none)") else self._move(token)
        elif token is not None:
            raise ProtocolError("unexpected token")
        return {"type": "bestmove", "move": m, "ponder": ponder}

    @staticmethod
    def _move(token: str) -> tuple:
        try:
            return parse_uci_move(token)
        except ParseUciMoveError as err:
            raise ProtocolError(f"invalid move: {err}") from None

    def score(self) -> dict:
        kind = self.next()
        if kind == "cp":
            value = self.int_value(I64)
        elif kind == "mate":
            value = self.int_value(I32)
        elif kind is None:
            raise ProtocolError("unexpected end of line")
        else:
            raise ProtocolError("unexpected token")
        score = {"kind": kind, "value": value, "lowerbound": False, "upperbound": False}
        while (token := self.peek()) in ("lowerbound", "upperbound"):
            self.next()
            score[token] = True
        return score

    def info(self) -> dict:
        info: dict = {"type": "info"}
        ints = {
            "depth": U32, "seldepth": U32, "time": U64, "nodes": U64, "currmovenumber": U32,
            "hashfull": U32, "nps": U64, "tbhits": U64, "sbhits": U64, "cpuload": U32,
        }
        while (token := self.next()) is not None:
            if token == "multipv":
                n = self.int_value(U32)
                if n > 5:  # model/multi_pv.rs `TryFrom<u32> for MultiPv`
                    raise ProtocolError("invalid multipv: supported range is 1 to 5")
                info["multipv"] = max(1, n)
            elif token in ints:
                info[token] = self.int_value(ints[token])
            elif token == "score":
                info["score"] = self.score()
            elif token == "currmove":
                info["currmove"] = self.move_value()
            elif token == "refutation":
                refuted = self.move_value()
                info.setdefault("refutation", {})[refuted] = self.moves()
            elif token == "currline":
                cpu = self.int_value(U32)
                info.setdefault("currline", {})[cpu] = self.moves()
            elif token == "pv":
                info["pv"] = self.moves()
            elif token == "string":
                info["string"] = self.rest()
            else:
                raise ProtocolError("unexpected token")
        return info


def parse_engine_line(line: str) -> dict | None:
    """`UciOut::from_line`: None for an ignored line, a dict for `info` / `bestmove`, or
    ProtocolError (the broker's 400)."""
    p = _Parser(line)
    first = p.next()
    if first == "bestmove":
        return p.bestmove()
    if first == "info":
        return p.info()
    return None


# --------------------------------------------------------------------------------------------
# FEN syntax: shakmaty 0.30.1 `Fen::from_ascii` (src/fen.rs), what lila-engine's serde reads
# `initialFen` with (a failure is a 422 from axum's Json extractor). Parts are split at ' ' and
# '_', empty parts dropped, missing parts default. The result is a "setup" dict; legality is
# checked afterwards (sanitize, 400).


class FenError(ValueError):
    pass


def _parse_board(text: str) -> tuple[dict, set]:
    board: dict[int, str] = {}
    promoted: set[int] = set()
    rank, file, i = 7, 0, 0
    while i < len(text):
        ch = text[i]
        i += 1
        if ch == "/" and file == 8:
            file, rank = 0, rank - 1
            if rank < 0:
                raise FenError("invalid board part in fen")
        elif "1" <= ch <= "8":
            file += int(ch)
            if file > 8:
                raise FenError("invalid board part in fen")
        elif ch.lower() in ROLES and ch.isascii():
            if not (0 <= file < 8 and 0 <= rank < 8):
                raise FenError("invalid board part in fen")
            sq = rank * 8 + file
            board[sq] = ch
            if text[i : i + 1] == "~":
                promoted.add(sq)
                i += 1
            file += 1
        else:
            raise FenError("invalid board part in fen")
    if rank == 0 and file == 8:
        return board, promoted
    raise FenError("invalid board part in fen")


def _parse_remaining_checks(part: str) -> tuple[int, int] | None:
    bits = part.split("+", 2)
    try:
        if len(bits) == 3 and bits[0] == "":  # "+W+B": checks given so far
            given = [int(b) for b in bits[1:] if _DIGITS.fullmatch(b)]
            if len(given) != 2 or any(g > 3 for g in given):
                return None
            return 3 - given[0], 3 - given[1]
        if len(bits) == 2:  # "W+B": checks remaining
            left = [int(b) for b in bits if _DIGITS.fullmatch(b)]
            if len(left) != 2 or any(n > 3 for n in left):
                return None
            return left[0], left[1]
    except ValueError:
        return None
    return None


def parse_fen(fen: str) -> dict:
    parts = iter([p for p in re.split(r"[ _]", fen) if p])
    board_part = next(parts, None)
    if board_part is None:
        raise FenError("invalid fen")
    pocket_part = None
    if board_part.endswith("]"):
        split = board_part.find("[")
        if split == -1:
            raise FenError("invalid board part in fen")
        board_part, pocket_part = board_part[:split], board_part[split + 1 : -1]
    else:
        slashes = [i for i, ch in enumerate(board_part) if ch == "/"]
        if len(slashes) >= 8:
            split = slashes[7]
            board_part, pocket_part = board_part[:split], board_part[split + 1 :]
    board, promoted = _parse_board(board_part)
    pockets = None
    if pocket_part is not None:
        if len(pocket_part.encode()) > 64 or any(
            not (ch.isascii() and ch.lower() in ROLES) for ch in pocket_part
        ):
            raise FenError("invalid pocket in fen")
        pockets = pocket_part
    turn = next(parts, None)
    if turn not in (None, "w", "b"):
        raise FenError("invalid turn part in fen")
    castling: set[int] = set()
    part = next(parts, None)
    if part not in (None, "-"):
        for ch in part:
            white = ch.isascii() and ch.isupper()
            backrank = 0 if white else 7
            ours = sorted(
                sq for sq, p in board.items()
                if sq // 8 == backrank and p in ("RK" if white else "rk")
            )
            low = ch.lower()
            rook = "R" if white else "r"
            if low == "k":
                sq = ours[-1] if ours and board[ours[-1]] == rook else backrank * 8 + 7
            elif low == "q":
                sq = ours[0] if ours and board[ours[0]] == rook else backrank * 8
            elif ch.isascii() and low in FILES:
                sq = backrank * 8 + FILES.index(low)
            else:
                raise FenError("invalid castling part in fen")
            castling.add(sq)
        for backrank in (0, 7):
            if sum(1 for sq in castling if sq // 8 == backrank) > 2:
                raise FenError("invalid castling part in fen")
    ep = None
    part = next(parts, None)
    if part not in (None, "-"):
        try:
            ep = _square(part)
        except ParseUciMoveError:
            raise FenError("invalid ep square in fen") from None
    checks = None
    halfmoves_part = next(parts, None)
    if halfmoves_part is not None and (c := _parse_remaining_checks(halfmoves_part)):
        checks, halfmoves_part = c, next(parts, None)
    halfmoves, fullmoves = 0, 1
    if halfmoves_part is not None:
        if not _DIGITS.fullmatch(halfmoves_part):
            raise FenError("invalid halfmove clock in fen")
        halfmoves = min(int(halfmoves_part), U32[1])
    part = next(parts, None)
    if part is not None:
        if not _DIGITS.fullmatch(part):
            raise FenError("invalid fullmove part in fen")
        fullmoves = max(1, min(int(part), U32[1]))
    last = next(parts, None)
    if last is not None and checks is None and (c := _parse_remaining_checks(last)):
        checks, last = c, next(parts, None)
    if last is not None:
        raise FenError("invalid fen")
    return {
        "board": board, "promoted": promoted, "pockets": pockets, "turn": turn or "w",
        "castling": castling, "ep": ep, "checks": checks, "halfmoves": halfmoves,
        "fullmoves": fullmoves,
    }


# --------------------------------------------------------------------------------------------
# Variants: lila-engine src/model/uci_variant.rs (names and the aliases serde also reads) and
# lila's registration form (`Variant.list.all.map(_.uciKey)`: exactly the eight names).

VARIANTS = ["chess", "crazyhouse", "antichess", "atomic", "horde", "kingofthehill",
            "racingkings", "3check"]
VARIANT_ALIASES = {
    "chess": "chess", "standard": "chess", "chess960": "chess", "fromPosition": "chess",
    "antichess": "antichess", "atomic": "atomic", "crazyhouse": "crazyhouse", "horde": "horde",
    "kingofthehill": "kingofthehill", "kingOfTheHill": "kingofthehill",
    "racingkings": "racingkings", "racingKings": "racingkings",
    "3check": "3check", "threeCheck": "3check",
}


def _board_class(variant: str):
    return {
        "chess": chess.Board, "crazyhouse": chess.variant.CrazyhouseBoard,
        "antichess": chess.variant.AntichessBoard, "atomic": chess.variant.AtomicBoard,
        "horde": chess.variant.HordeBoard, "kingofthehill": chess.variant.KingOfTheHillBoard,
        "racingkings": chess.variant.RacingKingsBoard, "3check": chess.variant.ThreeCheckBoard,
    }[variant]


class Position:
    """A position of a job, for sanitize and emit. With python-chess: the real rules
    (`VariantPosition` in lila-engine); without it (`lite`): only whose turn it is, moves taken
    as they are."""

    def __init__(self, board=None, white_to_move: bool = True):
        self.board = board
        self._white = white_to_move

    @property
    def lite(self) -> bool:
        return self.board is None

    @property
    def white_to_move(self) -> bool:
        return self.board.turn == chess.WHITE if self.board is not None else self._white

    @classmethod
    def from_setup(cls, variant: str, setup: dict) -> "Position":
        """`VariantPosition::from_setup(variant, setup, CastlingMode::Chess960)`; raises
        InvalidWork when python-chess finds the position invalid (its `status()`)."""
        if chess is None:
            return cls(None, setup["turn"] == "w")
        rows = []
        for rank in range(7, -1, -1):
            row, empty = "", 0
            for file in range(8):
                sq = rank * 8 + file
                if sq in setup["board"]:
                    row += (str(empty) if empty else "") + setup["board"][sq]
                    empty = 0
                    if variant == "crazyhouse" and sq in setup["promoted"]:
                        row += "~"
                else:
                    empty += 1
            rows.append(row + (str(empty) if empty else ""))
        fen = "/".join(rows)
        if variant == "crazyhouse":
            fen += "[" + (setup["pockets"] or "") + "]"
        castling = "".join(
            FILES[sq % 8].upper() if sq // 8 == 0 else FILES[sq % 8]
            for sq in sorted(setup["castling"])
        ) or "-"
        ep = square_name(setup["ep"]) if setup["ep"] is not None else "-"
        fen += f" {setup['turn']} {castling} {ep}"
        if variant == "3check":
            w, b = setup["checks"] or (3, 3)
            fen += f" {w}+{b}"
        fen += f" {setup['halfmoves']} {setup['fullmoves']}"
        try:
            board = _board_class(variant)(fen, chess960=True)
        except ValueError as err:
            raise InvalidWork(f"illegal initial position: {err}") from None
        status = board.status()
        if status != chess.STATUS_VALID:
            names = [s.name.lower() for s in chess.Status if s and s in status]
            raise InvalidWork("illegal initial position: " + ", ".join(names))
        return cls(board)

    def fen(self) -> str:
        """`Fen::from_position(&pos, EnPassantMode::Legal)` (python-chess's rendering; shakmaty
        may differ in details such as the castling letters of unusual Chess960 setups)."""
        return self.board.fen(en_passant="legal")

    def to_move(self, m: tuple):
        """shakmaty `UciMove::to_move`: a king onto one of our castling rooks, or e1/e8 two
        squares along the back rank, is a castle; a pawn going diagonally to an empty square is
        en passant; then the move must be legal. None when it is not."""
        b = self.board
        if m[0] == "null":
            return None
        if m[0] == "put":
            mv = chess.Move(m[2], m[2], drop=ROLES.index(m[1]) + 1)
        else:
            _, frm, to, promo = m
            piece = b.piece_at(frm)
            if piece is None:
                return None
            if promo is not None and piece.piece_type != chess.PAWN:
                return None
            backrank = 0 if b.turn == chess.WHITE else 7
            if piece.piece_type == chess.KING and (
                b.castling_rights & b.occupied_co[b.turn] & chess.BB_SQUARES[to]
            ):
                mv = chess.Move(frm, to)
            elif (
                piece.piece_type == chess.KING
                and frm == backrank * 8 + 4
                and to // 8 == backrank
                and abs(to % 8 - frm % 8) == 2
            ):
                mv = chess.Move(frm, backrank * 8 + (7 if to > frm else 0))
            else:
                mv = chess.Move(frm, to, promotion=ROLES.index(promo) + 1 if promo else None)
        return mv if b.is_legal(mv) else None

    def play(self, m: tuple) -> str | None:
        """Plays a UCI move; its king-takes-rook form (`to_uci(CastlingMode::Chess960)`), or
        None when it is illegal here."""
        if self.board is None:
            self._white = not self._white
            return uci_move_str(m)
        mv = self.to_move(m)
        if mv is None:
            return None
        text = self.board.uci(mv, chess960=True)
        self.board.push(mv)
        return text

    def copy(self) -> "Position":
        if self.board is None:
            return Position(None, self._white)
        return Position(self.board.copy(stack=False))


# --------------------------------------------------------------------------------------------
# Work: lila-engine src/api.rs. `decode_work` is its serde shape (axum's Json extractor answers
# 422 when it fails); `sanitize` is `Work::sanitize` (400 "invalid work: ...").


class DataError(ValueError):
    """serde's data error: axum's JsonDataError, 422."""


class InvalidWork(ValueError):
    """lila-engine's InvalidWorkError, 400 `invalid work: {self}`."""


def _json_int(obj: dict, key: str, bounds: tuple[int, int], what: str) -> int:
    if key not in obj:
        raise DataError(f"missing field `{key}`")
    v = obj[key]
    if isinstance(v, bool) or not isinstance(v, int):
        raise DataError(f"invalid type: {_json_type(v)}, expected {what}")
    if not bounds[0] <= v <= bounds[1]:
        raise DataError(f"invalid value: integer `{v}`, expected {what}")
    return v


def _json_str(obj: dict, key: str) -> str:
    if key not in obj:
        raise DataError(f"missing field `{key}`")
    if not isinstance(obj[key], str):
        raise DataError(f"invalid type: {_json_type(obj[key])}, expected a string")
    return obj[key]


def _json_type(v) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return f"boolean `{str(v).lower()}`"
    if isinstance(v, int):
        return f"integer `{v}`"
    if isinstance(v, float):
        return f"floating point `{v}`"
    if isinstance(v, str):
        return f"string {json.dumps(v)}"
    return "a sequence" if isinstance(v, list) else "a map"


def decode_work(w) -> dict:
    """serde of `Work`: camelCase keys; `threads`, `hash` NonZeroU32; exactly one of
    `movetime` (u32) / `depth` (u32) / `nodes` (u64), the first of them in the object wins
    (serde's flattened enum); `multiPv` u32 at most 5 (0 reads as 1); `variant` a name or alias;
    `initialFen` a FEN shakmaty parses; `moves` UCI moves. Unknown keys are ignored."""
    if not isinstance(w, dict):
        raise DataError(f"invalid type: {_json_type(w)}, expected struct Work")
    out = {
        "sessionId": _json_str(w, "sessionId"),
        "threads": _json_int(w, "threads", (1, U32[1]), "a nonzero u32"),
        "hash": _json_int(w, "hash", (1, U32[1]), "a nonzero u32"),
    }
    search = next((k for k in w if k in ("movetime", "depth", "nodes")), None)
    if search is None:
        raise DataError("no variant of enum Search found in flattened data")
    out["search"] = (search, _json_int(w, search, U64 if search == "nodes" else U32,
                                       "u64" if search == "nodes" else "u32"))
    multi_pv = _json_int(w, "multiPv", U32, "u32")
    if multi_pv > 5:
        raise DataError("supported range is 1 to 5")
    out["multiPv"] = max(1, multi_pv)
    variant = _json_str(w, "variant")
    if variant not in VARIANT_ALIASES:
        raise DataError(f"unknown variant `{variant}`")
    out["variant"] = VARIANT_ALIASES[variant]
    out["initialFen"] = _json_str(w, "initialFen")
    try:
        out["setup"] = parse_fen(out["initialFen"])
    except FenError as err:
        raise DataError(str(err)) from None
    moves = w.get("moves")
    if "moves" not in w:
        raise DataError("missing field `moves`")
    if not isinstance(moves, list):
        raise DataError(f"invalid type: {_json_type(moves)}, expected a sequence")
    out["moves"] = []
    for m in moves:
        if not isinstance(m, str):
            raise DataError(f"invalid type: {_json_type(m)}, expected a string")
        try:
            out["moves"].append(parse_uci_move(m))
        except ParseUciMoveError as err:
            raise DataError(str(err)) from None
    return out


def sanitize(work: dict, engine: dict) -> tuple[dict, Position, str]:
    """`Work::sanitize`: the variant must be one the engine registered; the initial position
    legal (Chess960 castling); at most 600 moves, each legal; threads and hash clamped to the
    engine's maxThreads / maxHash. Answers the Work as the broker serializes it (field order of
    the struct, the search key flattened, moves in king-takes-rook form), the position after
    the moves, and how thoroughly it was checked ("legal" or, without python-chess, "syntax")."""
    if work["variant"] not in [VARIANT_ALIASES.get(v) for v in engine["variants"]]:
        raise InvalidWork("unsupported variant")
    pos = Position.from_setup(work["variant"], work["setup"])
    initial_fen = work["initialFen"] if pos.lite else pos.fen()
    if len(work["moves"]) > 600:
        raise InvalidWork("too many moves")
    moves = []
    for m in work["moves"]:
        text = pos.play(m)
        if text is None:
            raise InvalidWork("illegal uci move: illegal uci")
        moves.append(text)
    key, value = work["search"]
    out = {
        "sessionId": work["sessionId"],
        "threads": min(work["threads"], engine["maxThreads"]),
        "hash": min(work["hash"], engine["maxHash"]),
        key: value,
        "multiPv": work["multiPv"],
        "variant": work["variant"],
        "initialFen": initial_fen,
        "moves": moves,
    }
    return out, pos, "syntax" if pos.lite else "legal"


def raw_position(work) -> Position:
    """The position of a job enqueued raw (unchecked), as well as it can be had, for emit."""
    try:
        decoded = decode_work(work)
        pos = Position.from_setup(decoded["variant"], decoded["setup"])
        for m in decoded["moves"]:
            if pos.play(m) is None:
                break
        return pos
    except (DataError, InvalidWork, KeyError, TypeError):
        fen = work.get("initialFen") if isinstance(work, dict) else None
        white = not (isinstance(fen, str) and " b" in fen)
        return Position(None, white)


# --------------------------------------------------------------------------------------------
# Emit: lila-engine src/emit.rs, what the requester receives (one JSON line per emit).


def _neg_saturating(kind: str, v: int) -> int:
    lo, hi = I64 if kind == "cp" else I32
    return hi if v == lo else -v


class Emit:
    def __init__(self):
        self.time = 0
        self.depth = 0
        self.nodes = 0
        self.pvs: list = []

    @staticmethod
    def _extract(uci: dict, pos: Position) -> tuple[int, dict | None]:
        """`EmitPv::extract`: a pv is emitted from an info with depth, score and pv, whose
        score is exact unless it is not the first pv; moves normalized (at most 30, up to the
        first illegal one), the eval from White's point of view."""
        multi_pv = uci.get("multipv", 1) if uci["type"] == "info" else 1
        if uci["type"] != "info" or not all(k in uci for k in ("depth", "score", "pv")):
            return multi_pv, None
        score = uci["score"]
        if multi_pv == 1 and (score["lowerbound"] or score["upperbound"]):
            return multi_pv, None
        moves, p = [], pos.copy()
        for m in uci["pv"][:30]:
            text = p.play(m)
            if text is None:
                break
            moves.append(text)
        value = score["value"] if pos.white_to_move else _neg_saturating(
            score["kind"], score["value"])
        return multi_pv, {"moves": moves, score["kind"]: value, "depth": uci["depth"]}

    def update(self, uci: dict, pos: Position) -> None:
        multi_pv, emit_pv = self._extract(uci, pos)
        if multi_pv <= 1:
            if uci["type"] == "info":
                self.time = uci.get("time", self.time)
                self.depth = uci.get("depth", self.depth)
                self.nodes = uci.get("nodes", self.nodes)
            self.pvs = [None] * len(self.pvs)
        elif uci["type"] == "info" and "depth" in uci:
            self.depth = min(self.depth, uci["depth"])
        if len(self.pvs) < multi_pv:
            self.pvs += [None] * (multi_pv - len(self.pvs))
        if emit_pv is not None:
            self.pvs[multi_pv - 1] = emit_pv

    def should_emit(self) -> bool:
        return bool(self.pvs) and all(pv is not None for pv in self.pvs)

    def to_json(self) -> dict:
        return {"time": self.time, "depth": self.depth, "nodes": self.nodes,
                "pvs": [dict(pv) if pv else None for pv in self.pvs]}


# --------------------------------------------------------------------------------------------
# lila: the registration API (controllers/Analyse.scala `externalEngine*`, modules/analyse
# ExternalEngine.scala). Its form, bound from the JSON body as Play binds JSON (scalars read as
# their text): name `cleanNonEmptyText(1, 200)`, maxThreads `number(1, 65536)`, maxHash
# `number(1, 1048576)`, variants `optional(list(typeIn(the eight names)))` (absent or empty:
# ["chess"]), officialStockfish optional boolean, providerSecret `nonEmptyText(16, 1024)`,
# providerData `optional(text(maxLength = 8192))`, defaultDepth optional number (ignored).
# Errors: 400 with Play's errorsAsJson both at the top level and under "error"
# (`ridiculousBackwardCompatibleJsonError`). Create answers 201 (`Created`), update and show
# 200, delete `{"ok":true}` or 404; an engine of another user is 404.

ALNUM = string.ascii_letters + string.digits


def provider_selector(secret: str) -> str:
    """model/provider_secret.rs `ProviderSecret::selector`, and lila's
    `Algo.sha256("providerSecret:" + providerSecret).hex`."""
    return hashlib.sha256(("providerSecret:" + secret).encode("utf-8")).hexdigest()


def _play_text(v) -> str | None:
    """A JSON value as Play's form binding sees it (None: absent)."""
    if v is None:
        return None
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float, str)):
        return str(v)
    return None


def bind_registration(data: dict) -> tuple[dict | None, dict]:
    errors: dict[str, list[str]] = {}

    def err(key: str, msg: str) -> None:
        errors.setdefault(key, []).append(msg)

    def text(key: str) -> str | None:
        return _play_text(data.get(key))

    def number(key: str, lo: int, hi: int) -> int | None:
        t = text(key)
        if t is None:
            err(key, "This field is required")
            return None
        if not re.fullmatch(r"-?[0-9]+", t):
            err(key, "Numeric value expected")
            return None
        n = int(t)
        if n < lo:
            err(key, f"Must be greater or equal to {lo}")
        elif n > hi:
            err(key, f"Must be less or equal to {hi}")
        return n

    name = text("name")
    if name is None:
        err("name", "This field is required")
    else:
        name = "".join(ch for ch in name if ch.isprintable()).strip()  # cleanText, roughly
        if not name:
            err("name", "This field is required")
        elif len(name) > 200:
            err("name", "Maximum length is 200")
    max_threads = number("maxThreads", 1, 65_536)
    max_hash = number("maxHash", 1, 1_048_576)
    variants = data.get("variants")
    if variants is not None:
        if not isinstance(variants, list):
            variants = [variants]
        for i, v in enumerate(variants):
            if _play_text(v) not in VARIANTS:
                err(f"variants[{i}]", "error.invalid")
        variants = [_play_text(v) for v in variants]
    official = text("officialStockfish")
    if official not in (None, "true", "false"):
        err("officialStockfish", "error.boolean")
    secret = text("providerSecret")
    if secret is None or not secret.strip():
        err("providerSecret", "This field is required")
    elif len(secret) < 16:
        err("providerSecret", "Minimum length is 16")
    elif len(secret) > 1024:
        err("providerSecret", "Maximum length is 1024")
    provider_data = text("providerData")
    if provider_data is not None and len(provider_data) > 8192:
        err("providerData", "Maximum length is 8192")
    depth = text("defaultDepth")
    if depth is not None and not re.fullmatch(r"-?[0-9]+", depth):
        err("defaultDepth", "Numeric value expected")
    if errors:
        return None, errors
    return {
        "name": name, "maxThreads": max_threads, "maxHash": max_hash,
        "variants": variants or ["chess"], "officialStockfish": official == "true",
        "providerSecret": secret, "providerData": provider_data,
    }, {}


def lila_engine_json(e: dict) -> dict:
    """lila's `ExternalEngine.jsonWrites` (its key order; officialStockfish only when true)."""
    out = {k: e[k] for k in ("id", "name", "userId", "maxThreads", "maxHash", "variants",
                             "providerData", "clientSecret")}
    if e["officialStockfish"]:
        out["officialStockfish"] = True
    return out


def broker_engine_json(e: dict) -> dict:
    """lila-engine's `Engine` as serialized in an acquire answer (model/engine.rs: id, then
    the flattened EngineConfig; variants through UciVariant)."""
    return {
        "id": e["id"], "name": e["name"], "clientSecret": e["clientSecret"],
        "userId": e["userId"], "maxThreads": e["maxThreads"], "maxHash": e["maxHash"],
        "variants": [VARIANT_ALIASES[v] for v in e["variants"]],
        "providerData": e["providerData"],
    }


# --------------------------------------------------------------------------------------------
# The broker's state: hub.rs (a FIFO per provider selector, at most MAX_ITEMS entries; acquire
# pops the first job whose requester still waits), ongoing.rs (acquired jobs by job id until
# their submit begins), and the mock's records of every job.

MAX_ITEMS = 1024  # hub.rs
SETTLED = ("ended", "expired", "dropped")


def now() -> float:
    return time.time()


class Requester:
    """The side that asked for the analysis: lila-engine's `Job.tx` (a oneshot sender the
    requester waits on; `is_valid` = the requester has not left) and, once the submit begins,
    the channel of Emits. `kind` is "mock" (a /_mock/enqueue job, no HTTP request held open) or
    "http" (a POST .../analyse)."""

    def __init__(self, broker: "Broker", kind: str, leave_after_lines=None,
                 leave_after_emits=None, leave_after_s=None):
        self.broker = broker
        self.kind = kind
        self.job: Job | None = None
        self.left_reason: str | None = None
        self.picked_up = False
        self.submit_q: queue.Queue | None = None
        self.out_q: queue.Queue = queue.Queue()  # picked, emits, left, end: http requester only
        self.leave_after_lines = leave_after_lines
        self.leave_after_emits = leave_after_emits
        self.leave_after_s = leave_after_s

    @property
    def left(self) -> bool:
        return self.left_reason is not None

    def pick_up(self, submit_q: queue.Queue) -> bool:
        """`work.tx.send(rx)` at the start of a submit; False when the requester has left."""
        with self.broker.lock:
            if self.left:
                return False
            self.picked_up = True
            self.submit_q = submit_q
            if self.kind == "http":
                self.out_q.put(("picked",))
        if self.leave_after_s is not None:
            self.broker.reaper.at(now() + self.leave_after_s,
                                  lambda: self.leave(f"left {self.leave_after_s} s after pickup"))
        return True

    def leave(self, reason: str) -> None:
        with self.broker.lock:
            if self.left:
                return
            self.left_reason = reason
            job = self.job
            if job is not None:
                job.times["left"] = now()
                if job.state in ("queued", "acquired"):
                    job.state = "expired"
                self.broker.lock.notify_all()
            if self.submit_q is not None:
                self.submit_q.put(("left",))
            if self.kind == "http":
                self.out_q.put(("left",))

    def deliver(self, emit: dict) -> bool:
        """`tx.send(emit)`; False when the requester has gone."""
        with self.broker.lock:
            if self.left:
                return False
            job = self.job
            job.emits.append(emit)
            job.times.setdefault("first_emit", now())
            if self.kind == "http":
                self.out_q.put(("emit", emit))
            n = len(job.emits)
        if self.leave_after_emits is not None and n >= self.leave_after_emits:
            self.leave(f"left after {n} emits")
        return True

    def end(self) -> None:
        if self.kind == "http":
            self.out_q.put(("end",))


class Job:
    _keys = itertools.count(1)

    def __init__(self, engine: dict, work: dict, pos: Position, requester: Requester,
                 raw: bool, checked: str):
        self.key = f"j{next(Job._keys)}"
        self.engine_id = engine["id"]
        # the Job carries the engine as the broker read it at the request (main.rs `Job`)
        self.engine_json = broker_engine_json(engine)
        self.selector = engine["providerSelector"]
        self.work = work
        self.pos = pos
        self.requester = requester
        requester.job = self
        self.raw = raw
        self.checked = checked
        self.state = "queued"
        self.note: str | None = None
        self.id: str | None = None  # the broker's job id, from acquire on
        self.acquire_count = 0
        self.acquired_by: dict | None = None
        self.submits: list[dict] = []
        self.status: int | None = None
        self.end: str | None = None
        self.error: str | None = None
        self.lines: list[dict] = []
        self.emits: list[dict] = []
        self.times: dict[str, float] = {"queued": now()}

    def to_json(self, lines: bool = True) -> dict:
        """A snapshot (under broker.lock; the submit thread appends to lines, emits and
        times without it, so each is copied in one atomic step first)."""
        times = dict(self.times)
        out = {
            "job": self.key, "id": self.id, "engine": self.engine_id,
            "selector": self.selector, "requester": self.requester.kind, "raw": self.raw,
            "checked": self.checked, "state": self.state, "note": self.note,
            "work": self.work, "acquire_count": self.acquire_count,
            "acquired_by": self.acquired_by, "submits": [dict(a) for a in self.submits],
            "submit_status": self.status, "end": self.end, "error": self.error,
            "requester_left": self.requester.left_reason,
            "line_count": len(self.lines), "emit_count": len(self.emits),
            "times": {k: round(v, 6) for k, v in times.items()},
        }
        if lines:
            out["lines"] = list(self.lines)
            out["emits"] = list(self.emits)
        return out


class Reaper:
    """Runs callbacks at given times (requesters' pickup timeouts and leave_after_s)."""

    def __init__(self):
        self.cond = threading.Condition()
        self.heap: list = []
        self.seq = itertools.count()
        threading.Thread(target=self._run, name="reaper", daemon=True).start()

    def at(self, when: float, fn) -> None:
        with self.cond:
            heapq.heappush(self.heap, (when, next(self.seq), fn))
            self.cond.notify()

    def _run(self) -> None:
        while True:
            with self.cond:
                while not self.heap or self.heap[0][0] > now():
                    self.cond.wait(None if not self.heap else self.heap[0][0] - now())
                _, _, fn = heapq.heappop(self.heap)
            try:
                fn()
            except Exception as err:  # noqa: BLE001 - a hook must not kill the reaper
                print(f"mock_lichess: reaper: {err!r}", file=sys.stderr)


class Broker:
    def __init__(self, poll_s: float, pickup_s: float):
        self.poll_s = poll_s
        self.pickup_s = pickup_s
        self.lock = threading.Condition()
        self.queues: dict[str, deque] = {}
        self.ongoing: dict[str, Job] = {}
        self.jobs: list[Job] = []
        self.by_key: dict[str, Job] = {}
        self.by_id: dict[str, Job] = {}
        self.unknown_submits: list[dict] = []
        self.waiting: dict[str, int] = {}  # long polls waiting, by selector
        self.active_submits: set[queue.Queue] = set()
        self.down_until = 0.0
        self.down_mode: str | None = None
        self.reaper = Reaper()

    # hub.rs `Shard::submit`
    def submit(self, engine: dict, work: dict, pos: Position, requester: Requester,
               raw: bool, checked: str, pickup_s: float | None) -> Job:
        job = Job(engine, work, pos, requester, raw, checked)
        with self.lock:
            self.jobs.append(job)
            self.by_key[job.key] = job
            q = self.queues.setdefault(job.selector, deque())
            if len(q) < MAX_ITEMS:
                q.append(job)
            else:  # silently not queued; the requester waits until its pickup timeout
                job.state = "dropped"
                job.note = "queue full (hub.rs MAX_ITEMS = 1024)"
            self.lock.notify_all()
        if pickup_s is not None:
            self.reaper.at(job.times["queued"] + pickup_s, lambda: self._pickup_timeout(job))
        return job

    def _pickup_timeout(self, job: Job) -> None:
        # main.rs `analyse`: `timeout(15 s, rx)`, where rx resolves at the start of the submit
        if not job.requester.picked_up:
            job.requester.leave("pickup timeout (503)")

    def down(self) -> str | None:
        with self.lock:
            if self.down_mode and now() < self.down_until:
                return self.down_mode
            self.down_mode = None
            return None

    # main.rs `acquire` with hub.rs `Hub::acquire` / `Shard::acquire`
    def acquire(self, selector: str, conn: dict, client_gone, deadline: float):
        """The acquired Job; None at the deadline; "gone" when the client closed its
        connection meanwhile (hyper drops the handler: nothing is popped); "down" when the
        broker went down meanwhile."""
        with self.lock:
            self.waiting[selector] = self.waiting.get(selector, 0) + 1
            try:
                while True:
                    if self.down_mode and now() < self.down_until:
                        return "down"
                    q = self.queues.get(selector)
                    while q:
                        job = q.popleft()
                        if job.requester.left:  # `is_valid`: skipped, as the hub does
                            continue
                        job.id = "".join(secrets.choice(ALNUM) for _ in range(16))
                        job.state = "acquired"
                        job.acquire_count += 1
                        job.acquired_by = dict(conn)
                        job.times["acquired"] = now()
                        self.ongoing[job.id] = job
                        self.by_id[job.id] = job
                        self.lock.notify_all()
                        return job
                    left = deadline - now()
                    if left <= 0:
                        return None
                    self.lock.wait(min(left, 0.1))
                    if client_gone():
                        return "gone"
            finally:
                self.waiting[selector] -= 1

    # ongoing.rs `Ongoing::remove`
    def take(self, job_id: str, conn: dict) -> Job | None:
        with self.lock:
            job = self.ongoing.pop(job_id, None)
            attempt = {"at": round(now(), 6), **conn, "status": None, "end": None}
            known = self.by_id.get(job_id)
            if known is not None:
                known.submits.append(attempt)
            else:
                self.unknown_submits.append({"id": job_id, **attempt})
            if job is None:
                attempt["status"] = 404
                return None
            job.times["submit_started"] = now()
            job.state = "streaming"
            self.lock.notify_all()
            return job

    def finish(self, job: Job, status: int | None, end: str, error: str | None = None):
        with self.lock:
            job.state = "ended"
            job.status = status
            job.end = end
            job.error = error
            job.times["ended"] = now()
            job.submits[-1]["status"] = status
            job.submits[-1]["end"] = end
            self.lock.notify_all()
        job.requester.end()

    def go_down(self, seconds: float, mode: str, drop_state: bool) -> None:
        with self.lock:
            self.down_until = now() + seconds
            self.down_mode = mode
            if drop_state:  # a restart: lila-engine keeps its hub and ongoing in memory only
                for q in self.queues.values():
                    for job in q:
                        if job.state == "queued":
                            job.state, job.note = "dropped", "broker restart"
                for job in self.ongoing.values():
                    job.state, job.note = "dropped", "broker restart"
                self.queues.clear()
                self.ongoing.clear()
            for q in self.active_submits:
                q.put(("cut",))
            self.lock.notify_all()
        for job in list(self.jobs):
            if job.state == "dropped" and job.note == "broker restart":
                job.requester.leave("broker restart")


# --------------------------------------------------------------------------------------------
# HTTP plumbing: request bodies (Content-Length or chunked, read as they arrive) and lines.


class BodyError(IOError):
    pass


class BodyReader:
    """A request body as it arrives: `read_some()` answers the bytes available (b"" at the
    end of the body), never reading past the body; BodyError when it is malformed or the
    connection ends inside it (hyper's body error)."""

    def __init__(self, rfile, headers):
        self.rfile = rfile
        te = (headers.get("Transfer-Encoding") or "").lower()
        self.chunked = "chunked" in te
        self.left = 0
        self.done = False
        self.bytes_read = 0
        if not self.chunked:
            cl = headers.get("Content-Length")
            if cl is None:
                self.left = 0
            elif re.fullmatch(r"[0-9]+", cl.strip()):
                self.left = int(cl.strip())
            else:
                raise BodyError("invalid content-length")
            self.done = self.left == 0

    def read_some(self, n: int = 65536) -> bytes:
        if self.done:
            return b""
        if self.chunked and self.left == 0:
            line = self.rfile.readline(4096)
            if not line.endswith(b"\n"):
                raise BodyError("connection closed inside the chunked body")
            size = line.split(b";", 1)[0].strip()
            if not re.fullmatch(rb"[0-9A-Fa-f]{1,16}", size):
                raise BodyError("invalid chunk size line")
            self.left = int(size, 16)
            if self.left == 0:
                while True:  # trailers, up to the empty line
                    line = self.rfile.readline(4096)
                    if not line.endswith(b"\n"):
                        raise BodyError("connection closed inside the chunked body")
                    if line in (b"\r\n", b"\n"):
                        break
                self.done = True
                return b""
        data = self.rfile.read1(min(n, self.left))
        if not data:
            raise BodyError("connection closed inside the body")
        self.left -= len(data)
        self.bytes_read += len(data)
        if self.left == 0:
            if self.chunked:
                crlf = self.rfile.readline(3)
                if crlf not in (b"\r\n", b"\n"):
                    raise BodyError("chunk not followed by CRLF")
            else:
                self.done = True
        return data

    def read_all(self, limit: int) -> bytes:
        out = bytearray()
        while (data := self.read_some()):
            out += data
            if len(out) > limit:
                raise OverflowError()
        return bytes(out)


def body_lines(reader: BodyReader, q: queue.Queue) -> None:
    """tokio's `AsyncBufReadExt::lines()` over the body, into q: ("line", bytes) for each line
    (split at `\\n`, one `\\r` before it removed; a last line without `\\n` is kept as it is,
    `\\r` included), then ("eof",) or ("error", message)."""
    buf = b""
    try:
        while True:
            data = reader.read_some()
            if not data:
                break
            buf += data
            *lines, buf = buf.split(b"\n")
            for line in lines:
                q.put(("line", line[:-1] if line.endswith(b"\r") else line))
        if buf:
            q.put(("line", buf))
        q.put(("eof",))
    except (BodyError, OSError, ValueError) as err:
        q.put(("error", f"i/o error: error reading a body from connection: {err}"))


# --------------------------------------------------------------------------------------------
# The server.

NGINX_502 = (b"<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n"
             b"<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n"
             b"</body>\r\n</html>\r\n")


class State:
    def __init__(self, args):
        self.broker = Broker(args.poll_s, args.pickup_s)
        self.tokens: dict[str, dict] = {}
        for spec in args.token or ["lip_mocktoken"]:
            token, _, rest = spec.partition("/")
            user, _, scopes = rest.partition("/")
            self.tokens[token] = {
                "user": (user or "mock-user").lower(),
                "scopes": set((scopes or "engine:read,engine:write").split(",")),
            }
        self.engines: dict[str, dict] = {}  # lila's external_engine collection
        self.log: list[dict] = []
        self.log_lock = threading.Lock()
        self.injections: list[dict] = []
        self.conn_ids = itertools.count(1)
        self.idle_timeout_s = args.idle_timeout_s
        self.track_pids = args.track_pids
        self.verbose = args.verbose


def peer_pid(peer_port: int, server_port: int) -> int | None:
    """The process on this machine owning a loopback client socket (Linux /proc)."""
    try:
        inode = None
        for table in ("/proc/net/tcp", "/proc/net/tcp6"):
            with open(table) as f:
                next(f)
                for row in f:
                    cols = row.split()
                    local, remote = cols[1], cols[2]
                    if (int(local.rsplit(":", 1)[1], 16) == peer_port
                            and int(remote.rsplit(":", 1)[1], 16) == server_port):
                        inode = cols[9]
                        break
            if inode:
                break
        if not inode:
            return None
        target = f"socket:[{inode}]"
        for pid in os.listdir("/proc"):
            if not pid.isdigit() or int(pid) == os.getpid():
                continue
            try:
                for fd in os.listdir(f"/proc/{pid}/fd"):
                    if os.readlink(f"/proc/{pid}/fd/{fd}") == target:
                        return int(pid)
            except OSError:
                continue
    except OSError:
        return None
    return None


BROKER_ROUTES = [
    ("acquire", re.compile(r"/api/external-engine/work")),
    ("submit", re.compile(r"/api/external-engine/work/([^/]+)")),
    ("analyse", re.compile(r"/api/external-engine/([^/]+)/analyse")),
]
LILA_ROUTES = [
    ("collection", re.compile(r"/api/external-engine")),
    ("engine", re.compile(r"/api/external-engine/([^/]+)")),
]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "mock-lichess"
    sys_version = ""
    state: State  # set on the class by main()

    # ---- connection and request plumbing

    def setup(self):
        super().setup()
        self.conn_id = next(self.state.conn_ids)
        self.pid = None
        if self.state.track_pids:
            self.pid = peer_pid(self.client_address[1], self.server.port)

    def handle_one_request(self):
        # an idle keep-alive connection is closed after --idle-timeout-s (0: never)
        self.connection.settimeout(self.state.idle_timeout_s or None)
        super().handle_one_request()

    def log_message(self, format, *args):  # noqa: A002 - BaseHTTPRequestHandler's signature
        if self.state.verbose:
            sys.stderr.write("mock_lichess: " + (format % args) + "\n")

    def conn_info(self) -> dict:
        return {"conn": self.conn_id, "peer": f"{self.client_address[0]}:{self.client_address[1]}",
                "user_agent": self.headers.get("User-Agent"), "pid": self.pid}

    def do_GET(self):
        self.dispatch()

    do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = do_HEAD = do_GET

    def dispatch(self):
        self.connection.settimeout(None)
        self.aborted = False
        self.t0 = now()
        url = urllib.parse.urlsplit(self.path)
        self.route_path, self.query = url.path, urllib.parse.parse_qs(url.query)
        self.entry = {
            "i": None, "t": round(self.t0, 6), "conn": self.conn_id,
            "peer": f"{self.client_address[0]}:{self.client_address[1]}",
            "method": self.command, "path": self.path, "host": self.headers.get("Host"),
            "status": None, "ms": None, "note": None,
        }
        mock = self.route_path.startswith("/_mock/")
        if not mock or self.state.verbose:
            with self.state.log_lock:
                self.entry["i"] = len(self.state.log)
                self.state.log.append(self.entry)
        try:
            if mock:
                self.route_mock()
            elif self.injected():
                pass
            else:
                self.route()
        except (BrokenPipeError, ConnectionResetError, ConnectionAbortedError) as err:
            self.entry["note"] = self.entry["note"] or f"client gone: {err.__class__.__name__}"
            self.close_connection = True
        except Exception as err:  # noqa: BLE001 - answer 500 and keep serving
            import traceback
            traceback.print_exc()
            self.entry["note"] = f"mock error: {err!r}"
            try:
                self.respond(500, f"mock error: {err!r}", close=True)
            except OSError:
                self.close_connection = True
        finally:
            if self.entry["ms"] is None:
                self.entry["ms"] = round((now() - self.t0) * 1000, 3)

    def respond(self, status: int, body=b"", ctype: str | None = "text/plain; charset=utf-8",
                headers: dict | None = None, close: bool = False) -> None:
        if isinstance(body, str):
            body = body.encode("utf-8")
        elif isinstance(body, (dict, list)):  # compact, as serde_json and Play write it
            body = json.dumps(body, separators=(",", ":")).encode("utf-8")
            ctype = "application/json"
        head = [f"HTTP/1.1 {status} {http.HTTPStatus(status).phrase}",
                f"date: {self.date_time_string()}"]
        if status != 204:
            if ctype and body:
                head.append(f"content-type: {ctype}")
            head.append(f"content-length: {len(body)}")
        for k, v in (headers or {}).items():
            head.append(f"{k}: {v}")
        if close or self.close_connection:
            head.append("connection: close")
            self.close_connection = True
        self.entry["status"] = status
        self.entry["ms"] = round((now() - self.t0) * 1000, 3)
        self.wfile.write(("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body)

    def abort(self, note: str) -> None:
        """Resets the connection (RST at close), no response: a broker gone mid-request."""
        self.entry["note"] = note
        self.aborted = True
        self.close_connection = True
        try:
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                       struct.pack("ii", 1, 0))
        except OSError:
            pass

    def finish(self):
        if self.close_connection:
            # wakes a body reader thread still blocked on the socket; an aborted connection
            # is then reset at close (SO_LINGER 0), another one gets its FIN now (and a RST
            # at close if the client's unread data is still arriving)
            try:
                self.connection.shutdown(
                    socket.SHUT_RD if getattr(self, "aborted", False) else socket.SHUT_RDWR)
            except OSError:
                pass
        try:
            super().finish()
        except OSError:
            pass

    def client_gone(self) -> bool:
        """Whether the client has closed its end (EOF or reset), without consuming input."""
        try:
            readable, _, _ = select.select([self.connection], [], [], 0)
            if not readable:
                return False
            return self.connection.recv(1, socket.MSG_PEEK) == b""
        except (OSError, ValueError):
            return True

    def body_reader(self) -> BodyReader | None:
        try:
            return BodyReader(self.rfile, self.headers)
        except BodyError as err:
            self.respond(400, str(err), close=True)
            return None

    def drain_or_close(self, reader: BodyReader, budget_s: float = 0.05) -> None:
        """hyper's `poll_drain_or_close_read` when a handler answers without reading the whole
        body: what of the body has already arrived is read; a body not read to its end then
        means no keep-alive (the connection is closed after the answer)."""
        deadline = now() + budget_s
        try:
            while not reader.done and now() < deadline:
                self.connection.settimeout(max(0.001, deadline - now()))
                reader.read_some()
        except (OSError, BodyError):
            pass
        finally:
            self.connection.settimeout(None)
        if not reader.done:
            self.close_connection = True

    # ---- routing

    def injected(self) -> bool:
        inj = None
        with self.state.log_lock:
            for cand in self.state.injections:
                if cand["count"] > 0 and re.search(cand["path"], self.route_path) and (
                        cand.get("method") in (None, self.command)):
                    cand["count"] -= 1
                    inj = cand
                    break
        if inj is None:
            return False
        if inj.get("delay_s"):
            time.sleep(inj["delay_s"])
            if not inj.get("status") and not inj.get("reset"):
                return False  # a delay only: then served normally
        if inj.get("reset"):
            self.abort("injected reset")
        else:
            self.respond(inj["status"], inj.get("body", ""), close=True)
            self.entry["note"] = "injected"
        return True

    def route(self):
        down = self.state.broker.down()
        path, method = self.route_path, self.command
        role = self.server.role
        if down == "refuse" and role != "lila":
            self.abort("broker down (refuse)")
            return
        for name, rx in BROKER_ROUTES:
            m = rx.fullmatch(path)
            if m and role == "lila":
                break  # lichess.org has no such route
            if m:
                if method != "POST":  # axum's MethodRouter
                    self.respond(405, headers={"allow": "POST"})
                elif down == "502":
                    self.entry["note"] = "broker down"
                    self.respond(502, NGINX_502, ctype="text/html", close=True)
                elif down == "reset":
                    self.abort("broker down (reset)")
                else:
                    args = [urllib.parse.unquote(g) for g in m.groups()]
                    getattr(self, "broker_" + name)(*args)
                return
        for name, rx in LILA_ROUTES:
            m = rx.fullmatch(path)
            if m and role != "broker":
                args = [urllib.parse.unquote(g) for g in m.groups()]
                getattr(self, "lila_" + name)(*args)
                return
        if role == "broker":
            self.respond(404)  # axum's fallback: no body
        else:
            self.respond(404, {"error": "Not found"})

    # ---- JSON bodies

    def read_json(self, limit: int, axum: bool):
        """The request body as JSON: axum's `Json` extractor (axum: 415 without a JSON
        content type, 413 over the limit, 400 syntax, then the caller's 422) or Play's
        (lila: a non-JSON body reads as no fields). Returns (ok, value)."""
        ctype = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        is_json = ctype == "application/json" or (
            ctype.startswith("application/") and ctype.endswith("+json"))
        reader = self.body_reader()
        if reader is None:
            return False, None
        if axum and not is_json:
            self.drain_or_close(reader)
            self.respond(415, "Expected request with `Content-Type: application/json`")
            return False, None
        try:
            raw = reader.read_all(limit)
        except OverflowError:
            self.drain_or_close(reader)
            self.respond(413, "Failed to buffer the request body: length limit exceeded")
            return False, None
        except (BodyError, OSError) as err:
            self.respond(400, f"Failed to buffer the request body: {err}", close=True)
            return False, None
        if not is_json:
            return True, {}

        def no_dup(pairs):
            seen = {}
            for k, v in pairs:
                if k in seen:
                    raise DataError(f"duplicate field `{k}`")
                seen[k] = v
            return seen

        def no_constant(c):
            raise ValueError(f"invalid JSON constant {c}")

        try:
            return True, json.loads(raw.decode("utf-8"), object_pairs_hook=no_dup,
                                    parse_constant=no_constant)
        except DataError as err:
            if axum:
                self.respond(422, f"Failed to deserialize the JSON body into the target type: {err}")
            else:
                self.respond(400, {"error": str(err)})
            return False, None
        except (ValueError, UnicodeDecodeError) as err:
            if axum:
                self.respond(400, f"Failed to parse the request body as JSON: {err}")
            else:
                self.respond(400, {"error": f"Invalid JSON: {err}"})
            return False, None

    # ---- lila: registration

    def auth(self, scope: str) -> dict | None:
        header = self.headers.get("Authorization") or ""
        kind, _, token = header.partition(" ")
        if kind.lower() != "bearer" or not token.strip():
            self.respond(401, {"error": "Login required"})
            return None
        user = self.state.tokens.get(token.strip())
        if user is None:
            self.respond(401, {"error": "No such token"})
            return None
        if scope not in user["scopes"]:
            self.respond(403, {"error": f"Missing scope: {scope}"})
            return None
        return user

    def lila_collection(self):
        if self.command == "GET":
            user = self.auth("engine:read")
            if user:
                mine = [e for e in self.state.engines.values() if e["userId"] == user["user"]]
                self.respond(200, [lila_engine_json(e) for e in mine[:64]])
        elif self.command == "POST":
            user = self.auth("engine:write")
            if user:
                ok, data = self.read_json(100 * 1024, axum=False)
                if ok:
                    self.lila_save(user, data, None)
        else:
            self.respond(404, {"error": "Not found"})

    def lila_engine(self, engine_id: str):
        scope = "engine:read" if self.command == "GET" else "engine:write"
        if self.command not in ("GET", "PUT", "DELETE"):
            self.respond(404, {"error": "Not found"})
            return
        user = self.auth(scope)
        if not user:
            return
        engine = self.state.engines.get(engine_id)
        if engine is not None and engine["userId"] != user["user"]:
            engine = None
        if self.command == "DELETE":
            if engine is None:
                self.respond(404, {"error": "Not found"})
            else:
                del self.state.engines[engine_id]
                self.respond(200, {"ok": True})
            return
        if engine is None:
            self.respond(404, {"error": "Not found"})
            return
        if self.command == "GET":
            self.respond(200, lila_engine_json(engine))
            return
        ok, data = self.read_json(100 * 1024, axum=False)
        if ok:
            self.lila_save(user, data, engine)

    def lila_save(self, user: dict, data, prev: dict | None):
        form, errors = bind_registration(data if isinstance(data, dict) else {})
        if errors:
            self.respond(400, {**errors, "error": errors})
            return
        engine = {
            "id": prev["id"] if prev else "eei_" + "".join(
                secrets.choice(ALNUM) for _ in range(12)),
            "name": form["name"], "userId": user["user"],
            "maxThreads": form["maxThreads"], "maxHash": form["maxHash"],
            "variants": form["variants"], "officialStockfish": form["officialStockfish"],
            "providerSelector": provider_selector(form["providerSecret"]),
            "providerData": form["providerData"],
            "clientSecret": prev["clientSecret"] if prev else "ees_" + "".join(
                secrets.choice(ALNUM) for _ in range(16)),
        }
        self.state.engines[engine["id"]] = engine
        self.respond(200 if prev else 201, lila_engine_json(engine))

    # ---- broker

    def broker_acquire(self):
        ok, req = self.read_json(2 << 20, axum=True)
        if not ok:
            return
        try:
            if not isinstance(req, dict):
                raise DataError(f"invalid type: {_json_type(req)}, expected struct AcquireRequest")
            secret = _json_str(req, "providerSecret")
        except DataError as err:
            self.respond(422, f"Failed to deserialize the JSON body into the target type: {err}")
            return
        broker = self.state.broker
        selector = provider_selector(secret)
        job = broker.acquire(selector, self.conn_info(), self.client_gone,
                             now() + broker.poll_s)
        if job is None:
            self.respond(204, headers={"access-control-allow-origin": "*"})
        elif job == "gone":
            self.entry["note"] = "client closed the long poll"
            self.close_connection = True
        elif job == "down":
            if broker.down_mode == "502":
                self.entry["note"] = "broker down"
                self.respond(502, NGINX_502, ctype="text/html", close=True)
            else:
                self.abort(f"broker down ({broker.down_mode})")
        else:
            self.entry["note"] = f"job {job.key}"
            self.respond(200, {"id": job.id, "work": job.work, "engine": job.engine_json},
                         headers={"access-control-allow-origin": "*"})

    def broker_submit(self, job_id: str):
        broker = self.state.broker
        reader = self.body_reader()
        if reader is None:
            return
        job = broker.take(job_id, self.conn_info())
        if job is None:
            self.drain_or_close(reader)
            self.respond(404, "work not found or cancelled or expired")
            return
        self.entry["note"] = f"job {job.key}"
        q: queue.Queue = queue.Queue()
        with broker.lock:
            broker.active_submits.add(q)
        job.requester.pick_up(q)  # the result is ignored, as in main.rs
        reader_thread = threading.Thread(target=body_lines, args=(reader, q), daemon=True)
        reader_thread.start()
        emit = Emit()
        status, end, error = 200, None, None
        try:
            while True:
                if job.requester.left:
                    end = "requester-left"
                    break
                item = q.get()
                if item[0] == "left":
                    end = "requester-left"
                    break
                if item[0] == "cut":
                    broker.finish(job, None, "broker-down", "connection cut by broker-down")
                    self.abort("broker down: submit cut")
                    return
                if item[0] == "eof":
                    end = "eof"
                    break
                if item[0] == "error":
                    status, end, error = 400, "io-error", item[1]
                    break
                raw = item[1]
                t = now()
                try:
                    text = raw.decode("utf-8")
                except UnicodeDecodeError:
                    status, end = 400, "io-error"
                    error = "i/o error: stream did not contain valid UTF-8"
                    job.lines.append({"t": round(t, 6), "line": raw.decode("utf-8", "replace"),
                                      "kind": "refused", "error": error})
                    break
                try:
                    uci = parse_engine_line(text)
                except ProtocolError as err:
                    status, end, error = 400, "protocol-error", f"uci protocol error: {err}"
                    job.lines.append({"t": round(t, 6), "line": text, "kind": "refused",
                                      "error": error})
                    break
                kind = "ignored" if uci is None else uci["type"]
                job.lines.append({"t": round(t, 6), "line": text, "kind": kind})
                job.times.setdefault("first_line", t)
                if uci is not None:
                    if kind == "info":
                        job.times.setdefault("first_info", t)
                    emit.update(uci, job.pos)
                    if kind == "bestmove":
                        job.times["bestmove"] = t
                        end = "bestmove"
                        break
                    if emit.should_emit() and not job.requester.deliver(emit.to_json()):
                        end = "requester-left"
                        break
                n = job.requester.leave_after_lines
                if n is not None and len(job.lines) >= n:
                    job.requester.leave(f"left after {len(job.lines)} lines")
        finally:
            with broker.lock:
                broker.active_submits.discard(q)
        broker.finish(job, status, end, error)
        # the body's end, if it has already arrived, keeps the connection (drain_or_close)
        reader_thread.join(0.05)
        if not reader.done:
            self.close_connection = True
        self.respond(status, error or "")

    def broker_analyse(self, engine_id: str):
        broker = self.state.broker
        ok, req = self.read_json(2 << 20, axum=True)
        if not ok:
            return
        try:
            if not isinstance(req, dict):
                raise DataError(f"invalid type: {_json_type(req)}, expected struct AnalyseRequest")
            client_secret = _json_str(req, "clientSecret")
            if "work" not in req:
                raise DataError("missing field `work`")
            work = decode_work(req["work"])
        except DataError as err:
            self.respond(422, f"Failed to deserialize the JSON body into the target type: {err}")
            return
        engine = self.state.engines.get(engine_id)
        if engine is None or not secrets.compare_digest(engine["clientSecret"], client_secret):
            self.respond(404, "engine not found or invalid clientSecret")
            return
        try:
            sanitized, pos, checked = sanitize(work, engine)
        except InvalidWork as err:
            self.respond(400, f"invalid work: {err}")
            return
        requester = Requester(broker, "http")
        job = broker.submit(engine, sanitized, pos, requester, False, checked, None)
        self.entry["note"] = f"job {job.key}"
        deadline = now() + broker.pickup_s
        while True:
            try:
                item = requester.out_q.get(timeout=0.1)
                break
            except queue.Empty:
                if self.client_gone():
                    requester.leave("requester closed its connection")
                    self.close_connection = True
                    return
                if now() >= deadline:
                    requester.leave("pickup timeout (503)")
                    self.respond(503, "provider did not pick up work")
                    return
        if item[0] != "picked":  # left before pickup: the broker restarted (drop_state)
            self.abort("broker restart")
            return
        # picked up: the response streams the emits (axum-extra JsonLines) until the submit ends
        self.entry["status"] = 200
        self.wfile.write(
            ("HTTP/1.1 200 OK\r\n"
             f"date: {self.date_time_string()}\r\n"
             "content-type: application/x-ndjson\r\n"
             "access-control-allow-origin: *\r\n"
             "transfer-encoding: chunked\r\n\r\n").encode("latin-1"))
        try:
            while True:
                try:
                    item = requester.out_q.get(timeout=0.1)
                except queue.Empty:
                    if self.client_gone():
                        requester.leave("requester closed its connection")
                        self.close_connection = True
                        return
                    continue
                if item[0] == "emit":
                    data = (json.dumps(item[1], separators=(",", ":")) + "\n").encode("utf-8")
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
                elif item[0] in ("end", "left"):
                    self.wfile.write(b"0\r\n\r\n")
                    return
        except OSError:
            requester.leave("requester closed its connection")
            self.close_connection = True

    # ---- test hooks

    def route_mock(self):
        name = self.route_path[len("/_mock/"):].replace("-", "_")
        fn = getattr(self, f"mock_{self.command.lower()}_{name}", None)
        if fn is None:
            self.respond(404, {"error": f"no mock hook {self.command} {self.route_path}"})
            return
        if self.command == "POST":
            ok, body = self.read_json(64 << 20, axum=False)
            if not ok:
                return
            if not isinstance(body, dict):
                self.respond(400, {"error": "expected a JSON object"})
                return
            fn(body)
        else:
            fn()

    def find_engine(self, ref) -> dict | None:
        engines = list(self.state.engines.values())
        return next((e for e in engines if e["id"] == ref), None) or next(
            (e for e in engines if e["name"] == ref), None)

    def mock_post_enqueue(self, body: dict):
        """{"engine": id or name, "work": {...}, "raw": false, "pickup_s": default --pickup-s
        (null: the requester waits for ever), "leave_after_lines": N, "leave_after_emits": N,
        "leave_after_s": S} -> 200 {"job": key, "work": the sanitized work}; 400 {"error",
        "status"} with the status the broker would answer to this work."""
        engine = self.find_engine(body.get("engine"))
        if engine is None:
            self.respond(400, {"error": f"no engine {body.get('engine')!r}", "status": 404})
            return
        broker = self.state.broker
        work = body.get("work")
        if body.get("raw"):
            sanitized, pos, checked = work, raw_position(work), "none"
        else:
            try:
                sanitized, pos, checked = sanitize(decode_work(work), engine)
            except DataError as err:
                self.respond(400, {"error": str(err), "status": 422})
                return
            except InvalidWork as err:
                self.respond(400, {"error": f"invalid work: {err}", "status": 400})
                return
        requester = Requester(broker, "mock", body.get("leave_after_lines"),
                              body.get("leave_after_emits"), body.get("leave_after_s"))
        pickup_s = body.get("pickup_s", broker.pickup_s)
        job = broker.submit(engine, sanitized, pos, requester, bool(body.get("raw")),
                            checked, pickup_s)
        self.respond(200, {"job": job.key, "work": sanitized, "state": job.state})

    def mock_get_jobs(self):
        """?job=KEY or ?id=BROKER_ID filters; ?lines=0 leaves out lines and emits."""
        broker = self.state.broker
        lines = self.query.get("lines", ["1"])[0] != "0"
        with broker.lock:
            jobs = list(broker.jobs)
            if "job" in self.query:
                jobs = [j for j in jobs if j.key in self.query["job"]]
            if "id" in self.query:
                jobs = [j for j in jobs if j.id in self.query["id"]]
            out = {"jobs": [j.to_json(lines) for j in jobs],
                   "unknown_submits": list(broker.unknown_submits)}
        self.respond(200, out)

    def mock_get_engines(self):
        broker = self.state.broker
        with broker.lock:
            out = []
            for e in self.state.engines.values():
                q = broker.queues.get(e["providerSelector"], ())
                out.append({**lila_engine_json(e), "providerSelector": e["providerSelector"],
                            "officialStockfish": e["officialStockfish"],
                            "queued": sum(1 for j in q if j.state == "queued"),
                            "waiting_acquires": broker.waiting.get(e["providerSelector"], 0)})
        self.respond(200, out)

    def mock_get_stats(self):
        broker = self.state.broker
        with broker.lock:
            states: dict[str, int] = {}
            for j in broker.jobs:
                states[j.state] = states.get(j.state, 0) + 1
            out = {"jobs": len(broker.jobs), "states": states,
                   "waiting_acquires": sum(broker.waiting.values()),
                   "ongoing": len(broker.ongoing), "down": broker.down_mode if (
                       broker.down_mode and now() < broker.down_until) else None,
                   "requests": len(self.state.log)}
        self.respond(200, out)

    def mock_get_requests(self):
        """?since=I: entries from index I on."""
        since = int(self.query.get("since", ["0"])[0])
        with self.state.log_lock:
            out = [dict(e) for e in self.state.log[since:]]
        self.respond(200, out)

    def mock_post_broker_down(self, body: dict):
        """{"seconds": S, "mode": "502" | "reset" | "refuse", "drop_state": false}: for S
        seconds the broker's endpoints answer 502 (as nginx before a dead upstream), or reset
        the connection, or (refuse) the broker's port is closed: with --broker-port only that
        one, else the only port, every endpoint and these hooks included (requests arriving on
        connections already open are reset). Long polls waiting answer 502 / are reset at once;
        submits in progress are cut (reset). drop_state: the broker restarts, losing queued and
        acquired jobs."""
        mode = str(body.get("mode", "502"))
        if mode not in ("502", "reset", "refuse"):
            self.respond(400, {"error": "mode is 502, reset or refuse"})
            return
        seconds = float(body.get("seconds", 5))
        self.respond(200, {"ok": True, "until": now() + seconds, "mode": mode})
        self.state.broker.go_down(seconds, mode, bool(body.get("drop_state")))

    def mock_post_inject(self, body: dict):
        """{"path": regex, "method": optional, "count": 1, "status": code, "body": text,
        "reset": false, "delay_s": 0}: the next `count` matching requests (any endpoint but
        /_mock/) are answered so (then closed), reset, or only delayed."""
        inj = {"path": body.get("path", ""), "method": body.get("method"),
               "count": int(body.get("count", 1)), "status": body.get("status"),
               "body": body.get("body", ""), "reset": bool(body.get("reset")),
               "delay_s": float(body.get("delay_s", 0))}
        if not inj["status"] and not inj["reset"] and not inj["delay_s"]:
            self.respond(400, {"error": "give status, reset or delay_s"})
            return
        with self.state.log_lock:
            self.state.injections.append(inj)
        self.respond(200, {"ok": True})

    def mock_post_wait(self, body: dict):
        """{"job": key (default: every job), "until": "settled" | "ended" | "acquired" |
        "streaming", "count": N (at least N jobs exist), "timeout_s": 10} -> 200 {"ok": true,
        "jobs": [...]} once true, 408 {"ok": false, ...} at the timeout."""
        broker = self.state.broker
        until = body.get("until", "settled")
        order = ["queued", "acquired", "streaming", "ended"]
        deadline = now() + float(body.get("timeout_s", 10))
        count = int(body.get("count", 0))

        def done(j: Job) -> bool:
            if until == "settled":
                return j.state in SETTLED
            if j.state in ("expired", "dropped"):
                return True
            return order.index(j.state) >= order.index(until)

        with broker.lock:
            while True:
                jobs = [broker.by_key[body["job"]]] if body.get("job") in broker.by_key else (
                    [] if body.get("job") else list(broker.jobs))
                ok = len(jobs) >= max(count, 1 if body.get("job") else 0) and all(
                    done(j) for j in jobs)
                left = deadline - now()
                if ok or left <= 0:
                    break
                broker.lock.wait(min(left, 0.5))
            out = {"ok": ok, "jobs": [j.to_json(lines=False) for j in jobs]}
        self.respond(200 if ok else 408, out)


class Listener:
    """A listening port and what it serves: "both" (lila and the broker, the default), or
    "lila" / "broker" with --broker-port. Handlers see it as `self.server`."""

    def __init__(self, role: str, port: int):
        self.role = role
        self.sock: socket.socket | None = self._bind(port)
        self.port = self.sock.getsockname()[1]

    @staticmethod
    def _bind(port: int) -> socket.socket:
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(("127.0.0.1", port))
        s.listen(256)
        return s

    def close(self) -> None:
        if self.sock is not None:
            self.sock.close()
            self.sock = None

    def reopen(self) -> None:
        if self.sock is None:
            try:
                self.sock = self._bind(self.port)
            except OSError as err:
                print(f"mock_lichess: cannot listen again on {self.port}: {err}",
                      file=sys.stderr)


class Server:
    """The accept loop, one thread per connection. It owns the listening sockets so that the
    "refuse" mode of broker-down can close the broker's (the only one, or the --broker-port
    one) and open it again on the same port."""

    def __init__(self, state: State, port: int, broker_port: int | None):
        self.state = state
        if broker_port is None:
            self.listeners = [Listener("both", port)]
        else:
            self.listeners = [Listener("lila", port), Listener("broker", broker_port)]

    def serve(self) -> None:
        broker = self.state.broker
        while True:
            refusing = broker.down() == "refuse"
            for listener in self.listeners:
                if refusing and listener.role != "lila":
                    listener.close()
                else:
                    listener.reopen()
            socks = [ls.sock for ls in self.listeners if ls.sock is not None]
            if not socks:
                time.sleep(0.02)
                continue
            readable, _, _ = select.select(socks, [], [], 0.05)
            for sock in readable:
                listener = next(ls for ls in self.listeners if ls.sock is sock)
                try:
                    conn, addr = sock.accept()
                except OSError:
                    continue
                conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                threading.Thread(target=self._connection, args=(conn, addr, listener),
                                 daemon=True).start()

    @staticmethod
    def _connection(conn: socket.socket, addr, listener: Listener) -> None:
        try:
            Handler(conn, addr, listener)
        except OSError:
            pass
        finally:
            try:
                conn.close()
            except OSError:
                pass


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--port", type=int, default=0, help="0: any free port (default)")
    ap.add_argument("--broker-port", type=int,
                    help="serve the broker on this port (0: any) and lila alone on --port, as "
                         "engine.lichess.ovh and lichess.org; prints a second line "
                         "`broker http://127.0.0.1:PORT`")
    ap.add_argument("--poll-s", type=float, default=10.0,
                    help="how long an acquire waits for a job before 204 (lila-engine: 10)")
    ap.add_argument("--pickup-s", type=float, default=15.0,
                    help="how long a requester waits for the submit to begin before it leaves "
                         "(503) (lila-engine: 15)")
    ap.add_argument("--token", action="append",
                    help="an accepted OAuth token: TOKEN[/USER[/SCOPES]], SCOPES comma-separated "
                         "(default user mock-user, scopes engine:read,engine:write); repeatable; "
                         "default one token lip_mocktoken")
    ap.add_argument("--idle-timeout-s", type=float, default=0.0,
                    help="close a keep-alive connection idle this long (0: never)")
    ap.add_argument("--track-pids", action="store_true",
                    help="record the client process of each connection (Linux /proc)")
    ap.add_argument("--verbose", action="store_true", help="log every request on stderr")
    args = ap.parse_args(argv)
    state = State(args)
    Handler.state = state
    server = Server(state, args.port, args.broker_port)
    print(f"listening http://127.0.0.1:{server.listeners[0].port}", flush=True)
    if args.broker_port is not None:
        print(f"broker http://127.0.0.1:{server.listeners[1].port}", flush=True)
    try:
        server.serve()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
