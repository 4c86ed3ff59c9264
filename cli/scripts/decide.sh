#!/usr/bin/env bash
# The measurements behind docs/background.md's "rtcompare cmd decides" table: md5sum of a file sized
# for about 45 ms a run, REPEATS A/A comparisons and REPEATS with B's input sized for a 5 %
# longer run, each at the defaults (the sequential decision) and with `--precision` (the
# earlier rule, a control), in alternation, so both see the same machine.
#
#   cargo build --release -p rtcompare-cli && bash cli/scripts/decide.sh [REPEATS] [OUT_DIR]
#
# Needs jq, bc and md5sum. BIN overrides the binary (default target/release/rtcompare).
set -euo pipefail
cd "$(dirname "$0")/../.."
REPEATS=${1:-10}
OUT=${2:-target/measure-decide}
BIN=${BIN:-target/release/rtcompare}
mkdir -p "$OUT"
DATA=$(mktemp -d)
trap 'rm -rf "$DATA"' EXIT

# md5sum's time is c + k·bytes: A's size and twice it give k; A is sized for about 45 ms and B
# gets 0.05·t(A)/k more bytes.
median_ns() {
    "$BIN" cmd --shell none --no-validation --runs 21 --json "$OUT/cal.json" "$1" "$2" > /dev/null
    jq -r '[.commands[0].median_ns, .commands[1].median_ns] | @tsv' "$OUT/cal.json"
}
probe=12000000
head -c "$probe" /dev/urandom > "$DATA/probe"
head -c $((2 * probe)) /dev/urandom > "$DATA/probe2"
read -r t1 t2 < <(median_ns "md5sum $DATA/probe" "md5sum $DATA/probe2")
size=$(echo "$probe + (45000000 - $t1) * $probe / ($t2 - $t1)" | bc -l | cut -d. -f1)
head -c "$size" /dev/urandom > "$DATA/a"
read -r ta _ < <(median_ns "md5sum $DATA/a" "md5sum $DATA/probe")
extra=$(echo "0.05 * $ta * $probe / ($t2 - $t1)" | bc -l | cut -d. -f1)
head -c $((size + extra)) /dev/urandom > "$DATA/b"
echo "A: md5sum of $size bytes, median $ta ns; B: $((size + extra)) bytes"
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores, $(uname -r)"
echo "date: $(date -u +%FT%TZ); load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"

one() {
    local json="$OUT/one.json"
    "$BIN" cmd --shell none --json "$json" "$@" > /dev/null 2>&1 || true
    jq -r '[.comparisons[0].verdict.outcome, .pairs, .elapsed_s, .comparisons[0].verdict.ratio,
            .comparisons[0].verdict.low, .comparisons[0].verdict.high, .stop] | @tsv' "$json"
}
printf 'case\tmode\toutcome\tpairs\tseconds\tratio\tlow\thigh\tstop\n'
for i in $(seq "$REPEATS"); do
    for case in aa five; do
        b="$DATA/a"
        [ "$case" = five ] && b="$DATA/b"
        printf '%s\tdecide\t%s\n' "$case" "$(one "md5sum $DATA/a" "md5sum $b")"
        printf '%s\tprecision\t%s\n' "$case" "$(one --precision "md5sum $DATA/a" "md5sum $b")"
    done
done
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
