#!/usr/bin/env bash
# A fleet of CI runners imitated on one machine, for `rtcompare combine`: the same comparison
# run five times as five "runners" under conditions this machine can impose (pinned to CPU 0 or
# CPU 1, with or without a busy loop on the same CPU, each with its own seed), each written to
# JSON, then combined. Once for an A/A (the same command twice) and once with B's input 5 %
# larger (md5sum of 1 MB against 1.05 MB).
#
#   cargo build --release -p rtcompare-cli && bash cli/scripts/fleet.sh [OUT_DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:-target/fleet}
BIN=target/release/rtcompare
mkdir -p "$OUT"
DATA=$(mktemp -d)
LOADS=()
cleanup() {
    for p in "${LOADS[@]}"; do kill "$p" 2> /dev/null || true; done
    rm -rf "$DATA"
}
trap cleanup EXIT
head -c 1000000 /dev/urandom > "$DATA/a"
head -c 1050000 /dev/urandom > "$DATA/b"
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(uname -r); date: $(date -u +%FT%TZ)"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
# runner: CPU, whether a busy loop shares it (bounded: killed after the run), seed.
runners=("0 no 11" "1 no 12" "0 yes 13" "1 yes 14" "1 no 15")
for kind in aa five; do
    files=()
    for i in "${!runners[@]}"; do
        read -r cpu load seed <<< "${runners[$i]}"
        B="md5sum $DATA/a"
        [ "$kind" = five ] && B="md5sum $DATA/b"
        if [ "$load" = yes ]; then
            timeout 120 taskset -c "$cpu" sh -c 'while :; do :; done' &
            LOADS+=($!)
        fi
        json="$OUT/$kind-runner$i.json"
        taskset -c "$cpu" "$BIN" cmd -N --max-time 10s --seed "$seed" --json "$json" \
            "md5sum $DATA/a" "$B" > /dev/null
        if [ "$load" = yes ]; then kill "${LOADS[-1]}" 2> /dev/null || true; fi
        printf '%s runner %s (CPU %s, busy loop %s): %s\n' "$kind" "$i" "$cpu" "$load" \
            "$(jq -r '.comparisons[0] | "δ \(.estimate.delta * 100 | . * 100 | round / 100) % [\(.estimate.low * 100 | . * 100 | round / 100), \(.estimate.high * 100 | . * 100 | round / 100)], \(.verdict.outcome)"' "$json")"
        files+=("$json")
    done
    echo "combined ($kind):"
    "$BIN" combine "${files[@]}" --json "$OUT/$kind-combined.json" || true
done
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
