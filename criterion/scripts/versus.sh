#!/usr/bin/env bash
# One bench file (scripts/versus/versus.rs) run by criterion 0.8 and by rtcompare-criterion on
# this machine, alternately, ROUNDS times each, at both tools' defaults, unpinned, as a user
# types `cargo bench`. Prints each benchmark's time per iteration with its 95 % interval from
# both, whether they agree, and each tool's time per benchmark (docs/background.md,
# "criterion's API over the harness").
#
#   bash criterion/scripts/versus.sh [ROUNDS]   # default 2
#
# Builds two scratch crates in a temporary directory outside the workspace (criterion from
# the registry, the layer by path) and removes it on exit, error or Ctrl-C.
set -euo pipefail
rounds=${1:-2}
repo=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/rtcompare-versus.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

for tool in criterion layer; do
    mkdir -p "$work/$tool/benches" "$work/$tool/src"
    if [ "$tool" = criterion ]; then
        dep='criterion = "=0.8.2"'
    else
        dep="criterion = { package = \"rtcompare-criterion\", path = \"$repo/criterion\" }"
    fi
    cat >"$work/$tool/Cargo.toml" <<TOML
[package]
name = "versus"
version = "0.1.0"
edition = "2021"

[dev-dependencies]
$dep

[[bench]]
name = "versus"
harness = false

[workspace]
TOML
    : >"$work/$tool/src/lib.rs"
    cp "$repo/criterion/scripts/versus/versus.rs" "$work/$tool/benches/versus.rs"
    # The workspace's lock file pins the layer's dependencies; criterion's resolve afresh.
    if [ "$tool" = layer ]; then cp "$repo/Cargo.lock" "$work/$tool/Cargo.lock"; fi
    (cd "$work/$tool" && cargo bench --no-run --bench versus -q 2>/dev/null)
done

bin() { # the bench binary cargo built for a tool
    (cd "$work/$1" && cargo bench --no-run --bench versus --message-format=json -q 2>/dev/null) |
        grep -o '"executable":"[^"]*"' | tail -1 | cut -d'"' -f4
}
crit=$(bin criterion)
layer=$(bin layer)
results="$work/results"
mkdir -p "$results"
echo "machine: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) CPUs; $(date -u '+%Y-%m-%d %H:%M UTC')"
for round in $(seq 1 "$rounds"); do
    for tool in criterion layer; do
        start=$(date +%s%N)
        if [ "$tool" = criterion ]; then
            (cd "$work/criterion" && "$crit" --bench >/dev/null 2>&1)
            cp -r "$work/criterion/target/criterion" "$results/criterion-$round"
        else
            (cd "$work/layer" && "$layer" --bench >/dev/null 2>&1)
            cp "$work/layer/target/rtcompare/bench/versus.json" "$results/layer-$round.json"
        fi
        end=$(date +%s%N)
        printf '%s\t%s\t%s\n' "$tool" "$round" "$(((end - start) / 1000000))" >>"$results/times.tsv"
    done
done
cd "$repo"
cargo run --release -q -p rtcompare-criterion --example versus_criterion -- "$results"
