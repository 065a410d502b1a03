#!/usr/bin/env python3
"""Random giveaway games from python-chess 1.11.2's `chess.variant.GiveawayBoard` (issue 21).

Writes the fixture `tests/giveaway_games.txt`, which `tests/variants/giveaway_games.rs` replays through
fenguard's `Position8`: per ply, tab-separated, the FEN before (X-FEN castling, legal en
passant), the move in Chess960 notation (king takes rook), the move in standard notation
(`board.uci(move, chess960=False)`: `e1g1` for a castle from e1 to a corner rook), the FEN
after, and python-chess's legal moves in that position (Chess960 notation, sorted, space
separated). Games start from the standard start (`KQkq`) and from Chess960 start positions, half of
them with the back ranks cleared but for kings and rooks;
moves are random (seeded), a castle chosen whenever one is legal and a coin says so, until the
game ends or `--max-plies`.

    scripts/giveaway_games.py --seed 20261221 --games 40 > tests/giveaway_games.txt
"""

import argparse
import random

import chess
import chess.variant


def fen(board):
    return board.fen(en_passant="legal")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=20261221)
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--max-plies", type=int, default=60)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    print(f"# giveaway games, python-chess {chess.__version__}, seed {args.seed}, "
          f"{args.games} games: before, uci960, ucistd, after, legal moves")
    for game in range(args.games):
        if game % 2 == 0:
            board = chess.variant.GiveawayBoard(chess960=True)
        else:
            board = chess.variant.GiveawayBoard.from_chess960_pos(rng.randrange(960))
        if game % 4 >= 2:
            # Back ranks cleared but for kings and rooks: castles come early and often.
            for sq in list(chess.SquareSet(chess.BB_BACKRANKS)):
                if board.piece_type_at(sq) not in (chess.KING, chess.ROOK):
                    board.remove_piece_at(sq)
        for _ in range(args.max_plies):
            moves = list(board.legal_moves)
            if not moves or board.is_variant_end():
                break
            castles = [m for m in moves if board.is_castling(m)]
            mv = rng.choice(castles) if castles and rng.random() < 0.7 else rng.choice(moves)
            before = fen(board)
            legal = " ".join(sorted(m.uci() for m in moves))
            uci960 = board.uci(mv, chess960=True)
            ucistd = board.uci(mv, chess960=False)
            board.push(mv)
            print("\t".join([before, uci960, ucistd, fen(board), legal]))


if __name__ == "__main__":
    main()
