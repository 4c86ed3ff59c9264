#!/usr/bin/env bash
# The pull-request gate as a new user runs it: a scratch crate with rtcompare as a
# dev-dependency (this checkout, by path), two commits (the head's `work` slower by a few per
# cent), a fresh clone, no `rtcompare` binary on PATH, then
#   cargo bench --bench b -- --baseline HEAD~1 --fail-on-regression 2% --markdown s.md
# at the defaults, TRIALS times. Prints each trial's exit status, the change of `work` and
# `same` (+ = slower) with their intervals and verdicts, and its wall time; the first trial
# includes the builds. MARGIN, when set, is passed as `--margin`; with SHOW set, each trial's
# summary is printed too.
#
#   [BUDGET=2%] [MARGIN=2%] scripts/harness_gate.sh [TRIALS] [BASE_STEPS] [HEAD_STEPS] [--workspace]
#
# With --workspace the crate is a member `app` of a virtual workspace (beside a member `tools`
# with a bench target of its own), and the command runs at the root with `-p app`.
set -euo pipefail
trials=${1:-5}
base_steps=${2:-1000}
head_steps=${3:-1030}
workspace=${4:-}
budget=${BUDGET:-2%}
margin=(${MARGIN:+--margin "$MARGIN"})
root=$(cd "$(dirname "$0")/.." && pwd)
scratch=$(mktemp -d /tmp/rtcompare-gate-XXXXXX)
trap 'rm -rf "$scratch"' EXIT

bench() {
    cat <<SRC
use std::hint::black_box;
// A dependent chain whose every step the optimiser must keep: its time is linear in the steps.
fn chain(steps: u64) -> u64 {
    let mut x = 1u64;
    for i in 0..black_box(steps) {
        x = black_box(x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(i));
    }
    x
}
fn main() {
    rtcompare::bench::main(|b| {
        b.bench("work", || chain($1));
        b.bench("same", || chain(1_000));
    });
}
SRC
}

origin=$scratch/origin
mkdir -p "$origin"
if [ "$workspace" = --workspace ]; then
    printf '[workspace]\nmembers = ["app", "tools"]\nresolver = "2"\n' > "$origin/Cargo.toml"
    members="app tools"
    pkgdir=app
else
    members="."
    pkgdir=.
fi
for m in $members; do
    name=$([ "$m" = . ] && echo demo || echo "$m")
    mkdir -p "$origin/$m/benches" "$origin/$m/src"
    {
        printf '[package]\nname = "%s"\nversion = "0.1.0"\nedition = "2021"\n\n' "$name"
        printf '[dev-dependencies]\nrtcompare = { path = "%s", default-features = false }\n\n' "$root"
        printf '[[bench]]\nname = "%s"\nharness = false\n' "$([ "$m" = tools ] && echo t || echo b)"
        [ "$m" = . ] && printf '\n[workspace]\n'
    } > "$origin/$m/Cargo.toml"
    : > "$origin/$m/src/lib.rs"
done
cp "$root/Cargo.lock" "$origin/"
# cargo trims the workspace's lock file to what this crate uses: let it, before the commit, so
# the head is not a working tree with uncommitted changes.
cargo metadata -q --offline --format-version 1 --manifest-path "$origin/Cargo.toml" >/dev/null
printf 'target\n*.md\n' > "$origin/.gitignore"
bench "$base_steps" > "$origin/$pkgdir/benches/b.rs"
[ "$workspace" = --workspace ] && bench 1000 > "$origin/tools/benches/t.rs"
git -C "$origin" init -q
git -C "$origin" add .
git -C "$origin" -c user.name=a -c user.email=a@b commit -qm base
bench "$head_steps" > "$origin/$pkgdir/benches/b.rs"
git -C "$origin" -c user.name=a -c user.email=a@b commit --allow-empty -qam head
git clone -q "$origin" "$scratch/clone"
cd "$scratch/clone"

# No rtcompare binary anywhere on PATH.
path=$(tr ':' '\n' <<<"$PATH" | while read -r d; do [ -e "$d/rtcompare" ] || printf '%s:' "$d"; done)
export PATH=${path%:}
if command -v rtcompare >/dev/null; then echo "an rtcompare binary is on PATH" >&2; exit 1; fi

lscpu | grep -m1 'Model name' || true
date -u +"%Y-%m-%d %H:%M UTC"
if [ "$workspace" = --workspace ]; then
    cmd=(cargo bench -p app --bench b -- --baseline HEAD~1 --fail-on-regression "$budget" --markdown s.md --json s.json "${margin[@]}")
else
    cmd=(cargo bench --bench b -- --baseline HEAD~1 --fail-on-regression "$budget" --markdown s.md --json s.json "${margin[@]}")
fi
echo "command: ${cmd[*]}"
echo "trial exit seconds work(change [low, high] verdict) same(change [low, high] verdict)"
for t in $(seq 1 "$trials"); do
    rm -f s.md s.json
    start=$(date +%s.%N)
    status=0
    "${cmd[@]}" >"$scratch/out.$t" 2>"$scratch/err.$t" || status=$?
    end=$(date +%s.%N)
    rows=$(grep -E '^\| `(work|same)`' s.md 2>/dev/null | awk -F'|' '{gsub(/ +/," ",$5); gsub(/ +/," ",$6); printf "%s(%s %s) ", $2, $5, $6}')
    printf '%d %d %.0f %s\n' "$t" "$status" "$(echo "$end - $start" | bc)" "$rows"
    [ -s s.md ] || { echo "no summary written; stderr:"; tail -20 "$scratch/err.$t"; }
    if [ -n "${SHOW:-}" ] && [ -s s.md ]; then cat s.md; fi
done
