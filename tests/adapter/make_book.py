"""Builds a PolyGlot book from a few games (python-chess computes the keys) and reads it
back with python-chess's chess.polyglot reader: prints one JSON line per book position
(the moves from the start, the FEN, the key, every book move and the one
`chess.polyglot.MemoryMappedReader.find` gives).

Usage: make_book.py OUT.bin
"""
import json
import struct
import sys

import chess
import chess.polyglot

GAMES = [
    "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1 f8c5",
    "e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6",
    "d2d4 d7d5 c2c4 e7e6 b1c3 g8f6 c1g5 f8e7",
    "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7",
    "e2e4 e7e5 g1f3 b8c6 f1b5 g8f6 e1g1",
]


def encode(board, move):
    to = move.to_square
    if board.is_castling(move):
        rank = chess.square_rank(move.from_square)
        to = chess.square(7 if chess.square_file(move.to_square) == 6 else 0, rank)
    promo = move.promotion - 1 if move.promotion else 0
    fr = move.from_square
    return (chess.square_file(to) | chess.square_rank(to) << 3
            | chess.square_file(fr) << 6 | chess.square_rank(fr) << 9 | promo << 12)


def main():
    out = sys.argv[1]
    weights = {}  # (key, move) -> weight, in first-seen order
    paths = {}  # key -> (moves from the start, fen)
    for game in GAMES:
        board = chess.Board()
        played = []
        for uci in game.split():
            move = chess.Move.from_uci(uci)
            key = chess.polyglot.zobrist_hash(board)
            paths.setdefault(key, (list(played), board.fen()))
            entry = (key, encode(board, move))
            weights[entry] = weights.get(entry, 0) + 1
            board.push(move)
            played.append(uci)
    entries = sorted(weights.items(), key=lambda kv: kv[0][0])
    with open(out, "wb") as f:
        for (key, move), weight in entries:
            f.write(struct.pack(">QHHI", key, move, weight, 0))
    with chess.polyglot.open_reader(out) as reader:
        for key, (played, fen) in paths.items():
            board = chess.Board(fen)
            assert chess.polyglot.zobrist_hash(board) == key
            found = [e.move.uci() for e in reader.find_all(board)]
            best = reader.find(board).move.uci()
            print(json.dumps({"moves": played, "fen": fen, "key": "%016x" % key,
                              "book": found, "best": best}))


main()
