#!/usr/bin/env bash
# What proving "no change" costs `rtcompare cmd`, as its user types it (the defaults, unpinned):
# TRIALS runs on two identical awk loops of about 45 ms, and as many with B doing 5 % more
# work; each trial's verdict, rounds and wall time, then the median time of each set.
# RTCOMPARE=PATH measures another build of the tool (an older commit's, say) the same way.
#
#   scripts/cmd_equivalence.sh [TRIALS] [ITERATIONS]     (defaults: 8 and 1650000, 45 ms here)
set -euo pipefail
trials=${1:-8}
n=${2:-1650000}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
lscpu | grep -m1 'Model name' || true
date -u +"%Y-%m-%d %H:%M UTC"
bin=${RTCOMPARE:-}
if [ -z "$bin" ]; then
    cargo build -q --release -p rtcompare-cli
    bin=$root/target/release/rtcompare
fi
a="awk 'BEGIN{for(i=0;i<$n;i++)s+=i}'"
slow=$(echo "$n * 105 / 100" | bc)
b5="awk 'BEGIN{for(i=0;i<$slow;i++)s+=i}'"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for kind in identical 5%-slower; do
    b=$a
    [ "$kind" = identical ] || b=$b5
    times=()
    for t in $(seq 1 "$trials"); do
        start=$(date +%s.%N)
        "$bin" cmd --json "$work/r.json" "$a" "$b" >/dev/null 2>&1 || true
        end=$(date +%s.%N)
        secs=$(echo "$end - $start" | bc)
        times+=("$secs")
        verdict=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); c=r["comparisons"][0]; print(c["verdict"]["outcome"], c["verdict"].get("low"), c["verdict"].get("high"), r.get("pairs"))' "$work/r.json")
        printf '%-10s trial %2d: %6.1f s  %s\n' "$kind" "$t" "$secs" "$verdict"
    done
    printf '%s\n' "${times[@]}" | sort -n | awk -v k="$kind" '{a[NR]=$1} END{m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%s: median %.1f s (min %.1f, max %.1f) over %d trials\n", k, m, a[1], a[NR], NR}'
done
