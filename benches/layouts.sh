#!/bin/bash
# Builds the `tabula` binary of a checkout in four code layouts, so that two
# builds can be compared layout by layout (docs/performance.md, "How to
# measure": one pair of builds can differ by 20% through code layout alone).
#
#   benches/layouts.sh CHECKOUT OUT TAG
#
# writes OUT/TAG_0 .. OUT/TAG_3: the default build; functions aligned to 64
# bytes; functions to 32 and blocks to 16; four codegen units. Each layout
# keeps its own target directory under OUT (OUT/target_N), so a second
# checkout builds incrementally. Then pair, for example with farm-bench:
#   farm-bench -n 12 --pin 1 --vs "OUT/old_0 -q perft games/boop.game 5" \
#       -- OUT/new_0 -q perft games/boop.game 5
# for each layout, and quote the median of each (the middle figure of
# `A/B wall`).
set -euo pipefail
if [ $# -ne 3 ]; then
  echo "usage: $0 CHECKOUT OUT TAG" >&2
  exit 2
fi
checkout=$1
out=$(mkdir -p "$2" && cd "$2" && pwd)
tag=$3
# RUSTFLAGS replaces the flags of .cargo/config.toml: keep its popcnt.
base="-C target-feature=+popcnt"
layouts=(
  ""
  "-C llvm-args=-align-all-functions=6"
  "-C llvm-args=-align-all-functions=5 -C llvm-args=-align-all-nofallthru-blocks=4"
  "cgu4"
)
cd "$checkout"
for i in "${!layouts[@]}"; do
  extra=${layouts[$i]}
  if [ "$extra" = cgu4 ]; then
    CARGO_PROFILE_RELEASE_CODEGEN_UNITS=4 RUSTFLAGS="$base" \
      CARGO_TARGET_DIR="$out/target_$i" cargo build --release -q
  else
    RUSTFLAGS="$base $extra" CARGO_TARGET_DIR="$out/target_$i" cargo build --release -q
  fi
  cp "$out/target_$i/release/tabula" "$out/${tag}_$i"
  echo "$out/${tag}_$i"
done
