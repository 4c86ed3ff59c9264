//! The gate file of docs/topics/gates.md, kept here so it always compiles and
//! runs. In a debug build (plain `cargo test`) the gates skip; `cargo test --release` runs them.

use rtcompare::gate::{Effort, GateOptions};
use rtcompare::{Candidate, assert_equivalent, assert_faster, assert_not_slower};
use std::collections::HashSet;
use std::hint::black_box;

const INPUT: &str = "17,4,99,23,8,15,42,16,4,8,15,16,23,42";

fn parse_new(s: &str) -> Vec<u32> {
    s.split(',').map(|x| x.parse().unwrap()).collect()
}
fn parse_old(s: &str) -> Vec<u32> {
    s.split(',').map(|x| x.trim().parse().unwrap()).collect()
}

// The shortest gate: one line, two closures that each perform one operation.
#[test]
fn parse_is_not_slower() {
    assert_not_slower!(
        || parse_new(black_box(INPUT)),
        || parse_old(black_box(INPUT)),
        budget = 0.05
    );
}

// A claimed speedup must be proven: the interval's lower bound must clear 10 %.
#[test]
fn hash_lookup_is_faster_than_a_scan() {
    let keys: Vec<u64> = (0..1_000).map(|i| i * 7919).collect();
    let set: HashSet<u64> = keys.iter().copied().collect();
    let probe = keys[700];
    let candidate = Candidate::new("HashSet::contains", |n| {
        for _ in 0..n {
            black_box(set.contains(black_box(&probe)));
        }
    });
    let baseline = Candidate::new("Vec::contains", |n| {
        for _ in 0..n {
            black_box(keys.contains(black_box(&probe)));
        }
    });
    assert_faster!(candidate, baseline, by = 0.10);
}

// Equivalence: the whole interval must lie within ±15 %, with options.
#[test]
fn refactor_is_equivalent() {
    let opts = GateOptions::default()
        .effort(Effort::Quick)
        .name("refactor");
    assert_equivalent!(
        || parse_new(black_box(INPUT)),
        || parse_new(black_box(INPUT)),
        within = 0.15,
        options = opts
    );
}
