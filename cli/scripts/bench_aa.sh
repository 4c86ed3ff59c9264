#!/usr/bin/env bash
# docs/background.md's "A suite within its time budget": RUNS runs of `rtcompare bench --baseline HEAD`
# at its defaults on a crate of four ~50 µs benchmarks that are identical at both revisions (an
# A/A suite), one line per benchmark and run, then the tally.
#
#   cargo build --release -p rtcompare-cli && bash cli/scripts/bench_aa.sh [RUNS] [DIR]
#
# Needs git and jq. The crate is made in DIR (default a fresh temporary directory) with this
# repository as its path dependency; BIN overrides the binary (default target/release/rtcompare).
set -euo pipefail
cd "$(dirname "$0")/../.."
REPO=$(pwd)
RUNS=${1:-20}
DIR=${2:-$(mktemp -d)}
BIN=${BIN:-$REPO/target/release/rtcompare}
mkdir -p "$DIR/benches" "$DIR/src"
cd "$DIR"
cat > Cargo.toml <<TOML
[package]
name = "aa"
version = "0.1.0"
edition = "2021"

[dependencies]
rtcompare = { path = "$REPO", default-features = false }

[[bench]]
name = "suite"
harness = false

[workspace]
TOML
: > src/lib.rs
cat > benches/suite.rs <<'RUST'
//! Four benchmarks of about 50 µs each, the same at both revisions: an A/A suite.
use std::collections::{BTreeMap, HashMap};
use std::hint::black_box;

fn chain(steps: u64) -> u64 {
    let mut x = 1u64;
    for _ in 0..black_box(steps) {
        x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
    }
    black_box(x)
}

fn main() {
    rtcompare::bench::main(|b| {
        b.bench("chain-400k", || chain(400_000));
        b.bench("sort-4k", || {
            let mut v: Vec<u64> = (0..4096u64)
                .map(|i| black_box(i).wrapping_mul(2_654_435_761) % 100_000)
                .collect();
            v.sort();
            black_box(v[0])
        });
        b.bench("hashmap-2k", || {
            let mut m = HashMap::new();
            for i in 0..2000u64 {
                m.insert(black_box(i).wrapping_mul(2_654_435_761), i);
            }
            black_box(m.len())
        });
        b.bench("btree-format-400", || {
            let mut m = BTreeMap::new();
            for i in 0..400u64 {
                m.insert(format!("{:08}", black_box(i).wrapping_mul(2_654_435_761) % 1_000_000), i);
            }
            black_box(m.len())
        });
    });
}
RUST
[ -d .git ] || { git init -q && git add -A && git -c user.email=aa@example.com -c user.name=aa commit -qm base; }
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; $(date -u +%FT%TZ)"
printf 'run\tseconds\tload\tbenchmark\tverdict\tpairs\tdelta\tlow\thigh\n'
for i in $(seq "$RUNS"); do
    s=$(date +%s.%N)
    CARGO_TARGET_DIR=tgt "$BIN" bench --baseline HEAD --json "aa$i.json" > "aa$i.out" 2> "aa$i.err" || true
    e=$(date +%s.%N)
    jq -r --arg i "$i" --arg t "$(echo "$e - $s" | bc)" --arg l "$(cut -d' ' -f1 /proc/loadavg)" '
        .benchmarks[] | [$i, $t, $l, .name,
          (if .resolved then "verdict" elif .equivalent then "equivalent" else "cannot tell" end),
          .processes, .delta, .low, .high] | @tsv' "aa$i.json"
done | tee runs.tsv
echo "runs with any verdict (all false): $(awk -F'\t' '$5 == "verdict" {print $1}' runs.tsv | sort -u | wc -l) of $RUNS"
awk -F'\t' 'NR > 0 {n[$4 FS $5]++} END {for (k in n) print k "\t" n[k]}' runs.tsv | sort
