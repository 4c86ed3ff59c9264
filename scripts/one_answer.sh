#!/usr/bin/env bash
# One question asked of four front ends, as their users type it: is a candidate that does
# (1 + EXTRA) times the baseline's work slower, judged against MARGIN?
#   - pool::run and a cargo-test gate (lab/examples/one_answer.rs, a dependent chain);
#   - rtcompare cmd --threshold MARGIN on two awk loops, N and N·(1 + EXTRA) iterations;
#   - the bench target's own gate, cargo bench -- --baseline HEAD~1 --margin MARGIN
#     (scripts/harness_gate.sh, a dependent chain of 1,000 steps against 1,000·(1 + EXTRA)).
# Each prints its answer in the words every front end uses (+ = the candidate is slower).
#
#   scripts/one_answer.sh [EXTRA] [MARGIN_PERCENT]      (defaults: 0.01 2)
set -euo pipefail
extra=${1:-0.01}
margin_pct=${2:-2}
margin=$(echo "scale=4; $margin_pct / 100" | bc)
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
lscpu | grep -m1 'Model name' || true
date -u +"%Y-%m-%d %H:%M UTC"
echo "candidate: $extra more work; margin ±$margin_pct %"

cargo build -q --release -p rtcompare-cli
cargo build -q --release -p rtcompare-lab --example one_answer
./target/release/examples/one_answer --extra "$extra" --margin "$margin"

n=3000000
m=$(echo "$n * (1 + $extra) / 1" | bc)
echo "rtcompare cmd: $(./target/release/rtcompare cmd --threshold "${margin_pct}%" \
    "awk 'BEGIN{for(i=0;i<$n;i++)s+=i}'" "awk 'BEGIN{for(i=0;i<$m;i++)s+=i}'" 2>/dev/null \
    | grep -m1 '^B against A:')"

steps=$(echo "1000 * (1 + $extra) / 1" | bc)
echo "bench target:"
BUDGET="${margin_pct}%" MARGIN="${margin_pct}%" scripts/harness_gate.sh 1 1000 "$steps" | tail -1
