#!/usr/bin/env python3
"""Othello perft, written independently of tabula to check the counts in
othello.perft: plain Python on bitboards, no tabula code.

    python3 tests/perft/othello.py DEPTH [SIDE]     (SIDE 8 by default)

Black moves first from the four centre discs (White on the diagonal
through a1). A player with no placement passes, which counts as a move;
when neither player can place the game is over and the path ends there
(it is not a leaf of a deeper perft), as tabula's perft counts paths of
exactly DEPTH moves. Prints the depth, the count and how many finished
games were met above the last ply.
"""
import sys

DIRS = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]


def moves(me, op, n):
    """Each legal placement of `me`: (square, discs it flips)."""
    full = (1 << (n * n)) - 1
    empty = ~(me | op) & full
    out = []
    for i in range(n * n):
        if not (empty >> i) & 1:
            continue
        f, r = i % n, i // n
        flips = 0
        for df, dr in DIRS:
            x, y, run = f + df, r + dr, 0
            while 0 <= x < n and 0 <= y < n and (op >> (y * n + x)) & 1:
                run |= 1 << (y * n + x)
                x, y = x + df, y + dr
            if run and 0 <= x < n and 0 <= y < n and (me >> (y * n + x)) & 1:
                flips |= run
        if flips:
            out.append((i, flips))
    return out


def perft(me, op, depth, n, over):
    if depth == 0:
        return 1
    ms = moves(me, op, n)
    if not ms:
        if not moves(op, me, n):
            over[0] += 1  # finished: no path of this length goes on
            return 0
        return perft(op, me, depth - 1, n, over)  # the pass is a move
    return sum(perft(op ^ fl, me | fl | (1 << i), depth - 1, n, over) for i, fl in ms)


def main():
    depth = int(sys.argv[1])
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 8
    h = n // 2
    black = (1 << ((h) * n + h - 1)) | (1 << ((h - 1) * n + h))
    white = (1 << ((h - 1) * n + h - 1)) | (1 << (h * n + h))
    over = [0]
    print(depth, perft(black, white, depth, n, over), "finished:", over[0])


if __name__ == "__main__":
    main()
