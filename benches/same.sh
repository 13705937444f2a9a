#!/bin/bash
# Prints three checksums of what a `tabula` binary plays: the JSON of 200
# seeded playouts of every bundled game, of 30 listed ones, and a set of
# perfts. Two builds that print the same three lines play the same games
# (check this before pairing their wall times: docs/performance.md).
#
#   benches/same.sh [BIN]        (default: target/release/tabula)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-target/release/tabula}
if [ ! -x "$bin" ]; then
  echo "usage: $0 [BIN]  (no executable at $bin)" >&2
  exit 2
fi
{ for g in games/*.game; do "$bin" -q --seed 7 playout "$g" -n 200 --json | grep -v second; done; } | md5sum
{ for g in games/*.game; do "$bin" -q --seed 7 playout "$g" -n 30 --list --json | grep -v second; done; } | md5sum
{
  "$bin" -q perft games/boop.game 3
  "$bin" -q perft games/bug.game 3
  "$bin" -q perft games/snekagon.game 2
  "$bin" -q perft games/bug_off.game 7 --seed 7 --stack --reveal
  "$bin" -q perft games/tictactoe.game 9
  "$bin" -q perft games/connect4.game 6
  "$bin" -q perft games/hex.game 2
  "$bin" -q perft games/breakthrough.game 3
  "$bin" -q perft games/chess.game 3
  "$bin" -q perft games/morris.game 3
  "$bin" -q perft games/othello.game 5
} | md5sum
