#!/bin/bash
# Callgrind's instruction counts of a fixed set of commands for two
# `tabula` binaries, and the change in per cent: the figure to compare
# when the machine is shared (docs/performance.md, "How to measure").
#
#   benches/instructions.sh OLD NEW
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 OLD NEW" >&2
  exit 2
fi
if ! command -v valgrind >/dev/null; then
  echo "$0: needs valgrind (callgrind) on the PATH" >&2
  exit 2
fi
for bin in "$1" "$2"; do
  if [ ! -x "$bin" ]; then
    echo "$0: no executable at $bin" >&2
    exit 2
  fi
done
old=$(realpath "$1")
new=$(realpath "$2")
cd "$(dirname "$0")/.."
# The instructions of one command, or nothing when it fails.
count() {
  local out
  if out=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1); then
    awk '/Collected/ { print $4 }' <<<"$out"
  fi
}
while read -r cmd; do
  # shellcheck disable=SC2086 # each line is a command's arguments
  a=$(count "$old" -q $cmd)
  # shellcheck disable=SC2086
  b=$(count "$new" -q $cmd)
  if [ -z "$a" ] || [ -z "$b" ]; then
    printf '%-55s failed under valgrind\n' "$cmd"
    continue
  fi
  awk -v c="$cmd" -v a="$a" -v b="$b" \
    'BEGIN { printf "%-55s %10.1fM %10.1fM %+7.2f%%\n", c, a / 1e6, b / 1e6, (b / a - 1) * 100 }'
done <<'COMMANDS'
perft games/boop.game 4
perft games/bug.game 4
perft games/snekagon.game 2
perft games/bug_off.game 7 --seed 7 --stack --reveal
--seed 1 playout games/bug.game -n 100
--seed 1 playout games/snekagon.game -n 5
--seed 1 playout games/boop.game -n 50
--seed 1 playout games/hex.game -n 20
COMMANDS
