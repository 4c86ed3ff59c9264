#!/usr/bin/env bash
# The measurements behind docs/background.md's "Comparing whole programs" tables: for two command
# pairs (md5sum of a file, CPU-bound ~20 ms; md5sum of a small file, ~2 ms), 20 A/A
# comparisons and 20 with B's input 5 % larger, with `rtcompare cmd` and with hyperfine side by
# side; five identical commands 20 times (family-wise false signals); and the tool's own cost
# per run against an empty command.
#
#   cargo build --release -p rtcompare-cli && bash cli/scripts/measure.sh [REPEATS] [OUT_DIR]
#
# Needs jq, md5sum, and hyperfine on PATH for the side-by-side columns (it is not a dependency
# of the crate; `cargo install hyperfine` or `apt-get install hyperfine`).
set -euo pipefail
cd "$(dirname "$0")/../.."
REPEATS=${1:-20}
OUT=${2:-target/measure-cli}
BIN=target/release/rtcompare
MAX_TIME=${MAX_TIME:-10s}
mkdir -p "$OUT"
DATA=$(mktemp -d)
trap 'rm -rf "$DATA"' EXIT

# B's input is sized so that B's run takes 5 % longer than A's in total: md5sum's time is
# c + k·bytes, so A's size and twice it give k, and B gets 0.05·t(A)/k more bytes than A.
median_ns() {
    "$BIN" cmd --shell none --no-validation --runs 21 --json "$OUT/cal.json" "$1" "$2" > /dev/null
    jq -r '[.commands[0].median_ns, .commands[1].median_ns] | @tsv' "$OUT/cal.json"
}
for spec in cpu:12000000 short:1000000; do
    pair=${spec%%:*}
    size=${spec#*:}
    head -c "$size" /dev/urandom > "$DATA/${pair}_a"
    head -c $((2 * size)) /dev/urandom > "$DATA/${pair}_2a"
    read -r t1 t2 < <(median_ns "md5sum $DATA/${pair}_a" "md5sum $DATA/${pair}_2a")
    extra=$(echo "0.05 * $t1 * $size / ($t2 - $t1)" | bc -l | cut -d. -f1)
    head -c $((size + extra)) /dev/urandom > "$DATA/${pair}_b"
    echo "pair $pair: A md5sum of $size bytes, median $t1 ns; twice the input $t2 ns; B $((size + extra)) bytes"
done

echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores, $(uname -r)"
echo "date: $(date -u +%FT%TZ); load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"

# One rtcompare comparison: prints outcome, pairs, wall seconds, ratio.
ours() {
    local json="$OUT/ours.json"
    "$BIN" cmd --shell none --max-time "$MAX_TIME" --json "$json" "$1" "$2" > /dev/null
    jq -r '[.comparisons[0].verdict.outcome, .pairs, .elapsed_s, .comparisons[0].verdict.ratio] | @tsv' "$json"
}

# One hyperfine comparison: prints whether its "± times faster" range excludes 1, its wall
# seconds and its ratio (B's mean over A's), with hyperfine's own error propagation.
theirs() {
    local json="$OUT/hf.json" t0 t1
    t0=$(date +%s.%N)
    hyperfine -N --warmup 2 --style none --export-json "$json" "$1" "$2" > /dev/null 2>&1
    t1=$(date +%s.%N)
    jq -r --arg wall "$(echo "$t1 - $t0" | bc)" '
        .results as $r
        | ($r[0].mean) as $ma | ($r[1].mean) as $mb
        | ($r[0].stddev / $ma) as $ca | ($r[1].stddev / $mb) as $cb
        | (if $ma < $mb then $mb / $ma else $ma / $mb end) as $q
        | ($q * (($ca * $ca + $cb * $cb) | sqrt)) as $e
        | [(if $q - $e > 1 then "excludes_1" else "includes_1" end), $wall, ($mb / $ma)] | @tsv' "$json"
}

for pair in cpu short; do
    A="md5sum $DATA/${pair}_a"
    B5="md5sum $DATA/${pair}_b"
    for kind in aa five; do
        if [ "$kind" = aa ]; then B=$A; else B=$B5; fi
        for i in $(seq 1 "$REPEATS"); do
            printf '%s\t%s\t%s\tours\t%s\n' "$pair" "$kind" "$i" "$(ours "$A" "$B")"
            if command -v hyperfine > /dev/null; then
                printf '%s\t%s\t%s\thyperfine\t%s\n' "$pair" "$kind" "$i" "$(theirs "$A" "$B")"
            fi
        done
    done
done | tee "$OUT/comparisons.tsv"

# Five identical commands, each compared with the first: a verdict on any of the four
# comparisons is a family-wise false signal (rtcompare judges each at 1 − 0.05/4; hyperfine
# has no verdict, so its "± times faster" range against the first command is read as above).
A="md5sum $DATA/short_a"
for i in $(seq 1 "$REPEATS"); do
    json="$OUT/five.json"
    "$BIN" cmd --shell none --max-time "$MAX_TIME" --json "$json" "$A" "$A" "$A" "$A" "$A" > /dev/null
    printf 'five\tfamily\t%s\tours\t%s\n' "$i" "$(jq -r '[([.comparisons[]
        | select(.verdict.outcome == "faster" or .verdict.outcome == "slower")] | length),
        .elapsed_s] | @tsv' "$json")"
    if command -v hyperfine > /dev/null; then
        t0=$(date +%s.%N)
        hyperfine -N --warmup 2 --style none --export-json "$OUT/hf5.json" "$A" "$A" "$A" "$A" "$A" \
            > /dev/null 2>&1
        t1=$(date +%s.%N)
        printf 'five\tfamily\t%s\thyperfine\t%s\n' "$i" "$(jq -r --arg wall "$(echo "$t1 - $t0" | bc)" '
            .results as $r | ($r[0].mean) as $ma | ($r[0].stddev / $ma) as $ca
            | [$r[1:][] | (.mean) as $mb | (.stddev / $mb) as $cb
                | (if $ma < $mb then $mb / $ma else $ma / $mb end) as $q
                | ($q * (($ca * $ca + $cb * $cb) | sqrt)) as $e
                | select($q - $e > 1)] | [length, $wall] | @tsv' "$OUT/hf5.json")"
    fi
done | tee -a "$OUT/comparisons.tsv"

# Overhead: the tool's wall time per run beyond the empty program's own, against hyperfine's
# figure for the same program (both without a shell).
"$BIN" cmd --shell none --no-validation --runs 200 --json "$OUT/empty.json" true true > /dev/null
# 200 pairs plus 5 start-floor runs and 2 × 2 warm-ups: the wall time of the invocation beyond
# the runs' own spawn-to-reap times, per run.
jq -r '"empty command (true, no shell): rtcompare median wall per run \(.commands[0].median_ns) ns; "
    + "its own cost per run beyond spawn-to-reap \((.elapsed_s * 1e9 / 409) - .commands[0].mean_ns | floor) ns"' \
    "$OUT/empty.json"
if command -v hyperfine > /dev/null; then
    hyperfine -N --runs 400 --style none --export-json "$OUT/hf-empty.json" true > /dev/null 2>&1
    echo "empty command (true, no shell): hyperfine median $(jq '.results[0].median * 1e9' "$OUT/hf-empty.json") ns"
fi
# The self-test on the short command, recorded.
"$BIN" selftest --cmd "md5sum $DATA/short_a" --shell none --max-time "$MAX_TIME" \
    --record "$OUT/calibration" || true
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
