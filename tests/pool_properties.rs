//! Pooling across processes never panics nor returns NaN where a number is promised, on any
//! finite input.

use proptest::prelude::*;
use rtcompare::Estimate;
use rtcompare::stats::{Pooled, combine, student_t_quantile};
use rtcompare::support::stats::combine_staged;

fn estimate() -> impl Strategy<Value = Estimate> {
    (-1e6..1e6f64, 0.0..1e3f64, 0.0..1e3f64, 0.01..0.999f64).prop_map(|(d, lo, hi, level)| {
        Estimate::from_interval(d, d - lo, d + hi, level).expect("a valid interval")
    })
}

/// `processes_for` read as its definition rather than its formula: the smallest total n, at
/// least the processes already run, whose Stein half-width `t · s / √n` (t on this result's
/// k − 1 degrees of freedom) is within the target `max(abs, rel · |δ|)`. Also: a result that
/// is already precise asks for no more processes, and a wider target never asks for more.
fn plans_the_fewest_processes_that_reach_the_target(p: &Pooled) -> Result<(), TestCaseError> {
    let (abs, rel) = (0.01, 0.05);
    let n = p.processes_for(abs, rel);
    let wider = p.processes_for(2.0 * abs, 2.0 * rel);
    prop_assert!(wider <= n, "wider target {wider} > {n}: {p:?}");
    if p.precise(abs, rel) {
        prop_assert_eq!(n, p.processes, "{:?}", p);
    }
    if n == usize::MAX {
        return Ok(());
    }
    let target = abs.max(rel * p.delta.abs());
    let t = student_t_quantile(0.5 + p.level / 2.0, (p.processes - 1) as f64).unwrap();
    let half = |n: usize| t * p.spread_between / (n as f64).sqrt();
    // Relative slack for the rounding of the square and the ceiling.
    let slack = 1e-9;
    prop_assert!(n >= p.processes, "{n}: {p:?}");
    prop_assert!(
        half(n) <= target * (1.0 + slack),
        "{n} processes miss it: {p:?}"
    );
    prop_assert!(
        n == p.processes || half(n - 1) > target * (1.0 - slack),
        "{} processes already reach it: {p:?}",
        n - 1
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn combine_is_total_on_finite_input(
        es in prop::collection::vec(estimate(), 0..30),
        level in prop_oneof![0.5..0.999f64, any::<f64>()],
        first in 0usize..35,
    ) {
        if let Ok(p) = combine(&es, level) {
            prop_assert!(es.len() >= 3);
            for v in [p.delta, p.low, p.high, p.spread_between, p.spread_within, p.inflation,
                      p.noise_floor, p.bias] {
                prop_assert!(v.is_finite(), "{p:?}");
            }
            prop_assert!(p.low <= p.delta && p.delta <= p.high);
            prop_assert!(p.q.is_nan() || p.q >= 0.0);
            prop_assert!(p.i2.is_nan() || (0.0..=1.0).contains(&p.i2));
            plans_the_fewest_processes_that_reach_the_target(&p)?;
            let shares: f64 = p.modes.iter().map(|m| m.share).sum();
            prop_assert!(p.modes.is_empty() || (shares - 1.0).abs() < 1e-9);
            let _ = p.to_string();
        } else {
            prop_assert!(es.len() < 3 || !(level > 0.0 && level < 1.0) && level != 0.0);
        }
        match combine_staged(&es, first, 0.95) {
            Ok(p) => prop_assert!(p.low <= p.high && (first == 0 || (3..=es.len()).contains(&first))),
            Err(_) => prop_assert!(es.len() < 3 || first != 0 && !(3..=es.len()).contains(&first)),
        }
    }
}
