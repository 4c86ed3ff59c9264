//! Seeded simulations of Pilot's analyses, small enough for `cargo test` (the full tables come
//! from `cargo run --release -p rtcompare-lab --example pilot_tables` and are in docs/background.md). Every series is
//! drawn from a fixed seed, so each count below is deterministic, and each bound is the claim
//! the issue makes, not the count observed.

use rtcompare::Candidate;
use rtcompare::precision::{Precision, StopReason};
use rtcompare::stats::{BatchMeansOptions, batch_means, change_points};
use rtcompare::support::measure::SimulatedClock;
use rtcompare::support::measure::measure_with_clock;
use rtcompare::support::rng::{Rng, derive_seed};
use rtcompare::support::stats::batch_means_at;
use std::cell::RefCell;

const SEED: u64 = 20_260_927;

#[derive(Clone, Copy, Debug)]
enum Noise {
    Normal,
    Exponential,
    LogNormal,
    Bernoulli(f64),
    Ar(f64),
}

fn series(noise: Noise, n: usize, rng: &mut Rng) -> Vec<f64> {
    match noise {
        Noise::Normal => (0..n).map(|_| rng.next_normal()).collect(),
        Noise::Exponential => (0..n).map(|_| -(1.0 - rng.next_f64()).ln()).collect(),
        Noise::LogNormal => (0..n).map(|_| rng.next_normal().exp()).collect(),
        Noise::Bernoulli(p) => (0..n)
            .map(|_| if rng.next_f64() < p { 1.0 } else { 0.0 })
            .collect(),
        Noise::Ar(rho) => {
            let s = (1.0 - rho * rho).sqrt();
            let mut x = rng.next_normal();
            for _ in 0..500 {
                x = rho * x + s * rng.next_normal();
            }
            (0..n)
                .map(|_| {
                    x = rho * x + s * rng.next_normal();
                    x
                })
                .collect()
        }
    }
}

/// Share of `samples` series of `n` readings in which any change point is reported.
fn false_rate(noise: Noise, n: usize, samples: usize, stream: u64) -> f64 {
    let mut rng = Rng::new(derive_seed(SEED, stream));
    let flagged = (0..samples)
        .filter(|_| {
            !change_points(&series(noise, n, &mut rng))
                .unwrap()
                .is_empty()
        })
        .count();
    flagged as f64 / samples as f64
}

#[test]
fn no_change_in_iid_series_is_rarely_flagged() {
    // The claim: at most 1 % of iid series without a change are flagged (Pilot measured
    // ≤ 0.7 % in 1,000 samples). Here 200 samples of 300 readings per distribution.
    for (i, noise) in [
        Noise::Normal,
        Noise::Exponential,
        Noise::LogNormal,
        Noise::Bernoulli(0.5),
        Noise::Bernoulli(0.95),
    ]
    .into_iter()
    .enumerate()
    {
        let r = false_rate(noise, 300, 200, i as u64);
        assert!(r <= 0.01, "{noise:?}: {r}");
    }
}

#[test]
fn no_change_in_ar1_series_is_rarely_flagged() {
    // The claim: at most 2.5 % for AR(1) with ρ from 0.5 to 0.9 (Pilot: ≤ 2.0 %).
    for (i, rho) in [0.5, 0.8, 0.9].into_iter().enumerate() {
        let r = false_rate(Noise::Ar(rho), 300, 200, 10 + i as u64);
        assert!(r <= 0.025, "ρ {rho}: {r}");
    }
}

#[test]
fn a_one_sigma_warm_up_of_50_in_500_is_found() {
    // The claim: found (a change point within ±20 of reading 50) in at least 90 % of samples
    // (Pilot: 95.9 % for normal noise).
    let mut rng = Rng::new(derive_seed(SEED, 20));
    let samples = 100;
    let found = (0..samples)
        .filter(|_| {
            let mut xs = series(Noise::Normal, 500, &mut rng);
            for x in &mut xs[..50] {
                *x += 1.0;
            }
            change_points(&xs)
                .unwrap()
                .iter()
                .any(|&c| c.abs_diff(50) <= 20)
        })
        .count();
    assert!(found * 100 >= 90 * samples, "{found} of {samples}");
}

#[test]
fn coverage_at_rho_0_8_naive_versus_batch_means() {
    // A nominal 95 % interval that ignores the correlation covers about 48.6 % at ρ = 0.8
    // (n = 1000, σ estimated: slightly less). Batch means at the strict limit restore most of
    // the coverage.
    let mut rng = Rng::new(derive_seed(SEED, 30));
    let reps = 300;
    let (mut naive, mut batched, mut tried) = (0, 0, 0);
    for _ in 0..reps {
        let xs = series(Noise::Ar(0.8), 1000, &mut rng);
        let iid = batch_means_at(&xs, 1, 0.95).unwrap();
        naive += usize::from(iid.low <= 0.0 && 0.0 <= iid.high);
        if let Ok(b) = batch_means(&xs, &BatchMeansOptions::default().ac_limit(0.1)) {
            tried += 1;
            batched += usize::from(b.low <= 0.0 && 0.0 <= b.high);
        }
    }
    let naive = naive as f64 / reps as f64;
    assert!((naive - 0.486).abs() < 0.07, "naive coverage {naive}");
    let batched = batched as f64 / tried as f64;
    assert!(
        tried >= reps * 9 / 10 && batched >= 0.85,
        "{batched} of {tried}"
    );
}

#[test]
fn sessions_of_every_preset_finish_on_iid_and_ar_readings() {
    // The EDM defect: strict could never finish. Every preset must, on well-behaved noise; and
    // its interval must cover the true mean (1000 ns) about as often as it claims.
    const SESSIONS: u64 = 40;
    let mut table = Vec::new();
    for (i, ar) in [0.0, 0.5].into_iter().enumerate() {
        // Each preset with its fewest batch means (Pilot's: 30, 50, 200).
        for (name, p, min_batches) in [
            ("quick", Precision::quick(), 30),
            ("normal", Precision::normal(), 50),
            ("strict", Precision::strict(), 200),
        ] {
            let mut covered = 0;
            for k in 0..SESSIONS {
                let clock = SimulatedClock::new(1);
                let c = clock.clone();
                let rng = RefCell::new(Rng::new(derive_seed(SEED, 40 + 100 * i as u64 + k)));
                let x = RefCell::new(0.0f64);
                let cand = Candidate::new("sim", move |n| {
                    let e = rng.borrow_mut().next_normal();
                    let v = ar * *x.borrow() + (1.0f64 - ar * ar).sqrt() * e;
                    *x.borrow_mut() = v;
                    c.advance(((1000.0 + 150.0 * v) * n as f64) as u64);
                });
                let m = measure_with_clock(cand, &p.clone().inner_loops(1), &clock).unwrap();
                assert_eq!(
                    m.stop,
                    StopReason::TargetMet,
                    "{name}, ρ = {ar}, session {k}"
                );
                let e = m.estimate.unwrap();
                assert!(e.batches >= min_batches);
                covered += usize::from(e.low <= 1000.0 && 1000.0 <= e.high);
            }
            let rate = covered as f64 / SESSIONS as f64;
            table.push(format!("{name} ρ={ar}: {covered}/{SESSIONS}"));
            // Nominal 95 %. Independent readings: every preset. Under AR(0.5) the presets
            // accept batch means whose autocorrelation is up to their limit: at strict's (0.1)
            // and normal's (0.2) the interval is too narrow by at most 1.11 and 1.22 (89 %
            // coverage or more); at quick's (0.8) single readings pass, too narrow by √3 (74 %).
            let (low, high) = match (ar > 0.0, name) {
                (false, _) => (0.85, 1.0),
                (true, "quick") => (0.55, 0.90),
                (true, _) => (0.80, 1.0),
            };
            assert!(
                (low..=high).contains(&rate),
                "{name}, ρ = {ar}: the interval covered the mean in {covered} of {SESSIONS} \
                 sessions, outside [{low}, {high}]"
            );
        }
    }
    println!("coverage of the true mean: {}", table.join(", "));
}
