#!/usr/bin/env bash
# Runs every fuzz target for SECONDS (default 180) on one core, after
# seeding; prints libFuzzer's last status line of each.
set -uo pipefail
cd "$(dirname "$0")"
./seed.sh
for t in check_bytes mutate_tokens random_play wire; do
  cargo +nightly fuzz run -O "$t" -- -max_total_time="${1:-180}" -max_len=65536 -rss_limit_mb=2048 -timeout=20 >"log-$t.txt" 2>&1
  echo "$t: exit $?; $(grep -E '^#[0-9]+' "log-$t.txt" | tail -1)"
done
