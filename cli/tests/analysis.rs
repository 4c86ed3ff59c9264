//! The verdict on constructed timings: the few-runs path and the bootstrap path, as pure
//! functions, without running a process.

use rtcompare_cli::analysis::{AnalysisOptions, CommandOutcome, Floor, Rule, analyse};

fn us(xs: &[f64]) -> Vec<f64> {
    xs.iter().map(|x| x * 1e3).collect()
}

#[test]
fn timing_modes_with_equal_best_runs_are_parity() {
    // Two clusters near 570 µs and 720 µs in both programs; A mostly slow, B mostly fast.
    let a = us(&[716.0, 566.0, 724.0, 719.0, 722.0]);
    let b = us(&[569.0, 587.0, 721.0, 575.0, 718.0]);
    let v = analyse(&a, &b, None, &AnalysisOptions::default()).unwrap();
    assert_eq!(v.rule, Rule::FewRuns);
    // The median ratio alone would call B 19 % faster.
    assert!(v.verdict.ratio < 0.85, "{}", v.verdict.ratio);
    assert_eq!(
        v.verdict.outcome,
        CommandOutcome::Parity,
        "{}",
        v.verdict.reason
    );
    assert!(v.verdict.tolerance >= v.verdict.noise);
}

#[test]
fn a_smooth_shift_is_a_win_or_a_loss() {
    let a = us(&[500.0, 505.0, 510.0, 502.0, 508.0]);
    let b = us(&[600.0, 610.0, 605.0, 615.0, 603.0]);
    let o = AnalysisOptions::default();
    let v = analyse(&a, &b, None, &o).unwrap();
    assert_eq!(
        (v.rule, v.verdict.outcome),
        (Rule::FewRuns, CommandOutcome::Loss)
    );
    assert!((v.verdict.ratio - 605.0 / 505.0).abs() < 1e-12);
    assert!((v.verdict.best_ratio - 600.0 / 500.0).abs() < 1e-12);
    assert!(v.verdict.outcome.is_regression());
    let v = analyse(&b, &a, None, &o).unwrap();
    assert_eq!(v.verdict.outcome, CommandOutcome::Win);
    assert!(!v.verdict.outcome.is_regression());
}

#[test]
fn eleven_pairs_switch_to_the_bootstrap_rule() {
    let a: Vec<f64> = (0..11).map(|i| 1e7 + 1e4 * f64::from(i % 3)).collect();
    let b: Vec<f64> = a.iter().map(|x| x * 1.10).collect();
    let v = analyse(&a, &b, None, &AnalysisOptions::default()).unwrap();
    assert_eq!(
        (v.rule, v.verdict.outcome),
        (Rule::Bootstrap, CommandOutcome::Slower)
    );
    let (low, high) = (v.verdict.low.unwrap(), v.verdict.high.unwrap());
    assert!(low <= v.verdict.ratio && v.verdict.ratio <= high);
    // A floor above the 10 % difference leaves it unresolved.
    let floor = Floor {
        pairs: 11,
        a: Some(0.12),
        b: Some(0.02),
        floor: 0.12,
        few_runs: None,
    };
    let v = analyse(&a, &b, Some(&floor), &AnalysisOptions::default()).unwrap();
    assert_eq!(v.verdict.outcome, CommandOutcome::CannotTell);
    assert_eq!(v.verdict.noise, 0.12);
}

#[test]
fn the_floor_from_aa_series_uses_the_rule_for_its_length() {
    let o = AnalysisOptions::default();
    let x: Vec<f64> = (0..11).map(|i| 1e7 + 1e4 * f64::from(i % 4)).collect();
    let y: Vec<f64> = (0..11).map(|i| 1e7 + 1e4 * f64::from(i % 3)).collect();
    let f = Floor::from_series(&x, &y, &y, &x, &o).unwrap();
    assert!(f.floor > 0.0 && f.floor < 0.01, "{f:?}");
    assert_eq!(f.floor, f.a.unwrap().max(f.b.unwrap()));
    let f = Floor::from_series(&x[..5], &y[..5], &y[..5], &x[..5], &o).unwrap();
    assert_eq!(f.floor, 0.0);
    assert!(f.few_runs.is_some());
}

#[test]
fn bad_timings_are_errors_not_panics() {
    let o = AnalysisOptions::default();
    assert!(analyse(&[1e6], &[1e6], None, &o).is_err());
    assert!(analyse(&[1e6, 0.0, 1e6], &[1e6, 1e6, 1e6], None, &o).is_err());
    assert!(analyse(&[1e6, f64::NAN], &[1e6, 1e6], None, &o).is_err());
}
