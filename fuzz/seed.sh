#!/usr/bin/env bash
# Seeds the fuzz corpora: every bundled game and every error fixture for
# check_bytes; positions of the bundled games for wire.
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p corpus/check_bytes corpus/mutate_tokens corpus/random_play corpus/wire
cp ../games/*.game ../tests/errors/*.game ../tests/warnings/*.game ../tests/fuzz/*.game corpus/check_bytes/ 2>/dev/null || true
i=0
for g in ../games/*.game; do
  h=$(printf '%02x' "$i")
  printf "\\x$h" > "corpus/mutate_tokens/game$i"
  printf "\\x$h\\x01\\x00\\x00\\x00\\x00\\x00\\x00\\x00" > "corpus/random_play/game$i"
  printf "\\x${h}turn X\\nply 3\\n" > "corpus/wire/pos$i"
  i=$((i + 1))
done
