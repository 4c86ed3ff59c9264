//! The assertion macros, the one-line form of a gate. `#[macro_export]` puts them at the crate
//! root (`rtcompare::assert_not_slower!`); their bodies call `assert_gate` (through `rtcompare::support::gate`).

/// Fails when `candidate` is proven slower than `baseline` (the interval of its slowdown above
/// zero and the noise floor) and its estimated slowdown exceeds `budget` (a fraction). Each
/// side is a [`Candidate`](crate::Candidate) or a closure performing one operation. "Cannot tell"
/// passes. Skipped in debug builds unless `RTCOMPARE_GATE=force`; see [the module
/// docs](crate::gate). With `processes = k` (3 or more) the test binary re-runs this one test in
/// `k` processes and the gate decides on their pooled interval and floor (see
/// [`pool`](crate::pool)); all three gates take it.
///
/// ```no_run
/// use std::hint::black_box;
/// rtcompare::assert_not_slower!(|| black_box(3u64).pow(5), || black_box(3u64).pow(5), budget = 0.10);
/// // With options:
/// let opts = rtcompare::gate::GateOptions::default().name("pow");
/// rtcompare::assert_not_slower!(|| black_box(3u64).pow(5), || black_box(3u64).pow(5), budget = 0.10, options = opts);
/// ```
#[macro_export]
macro_rules! assert_not_slower {
    ($candidate:expr, $baseline:expr, budget = $budget:expr $(,)?) => {
        $crate::assert_not_slower!(
            $candidate,
            $baseline,
            budget = $budget,
            options = $crate::gate::GateOptions::default()
        )
    };
    ($candidate:expr, $baseline:expr, budget = $budget:expr, processes = $k:expr $(,)?) => {
        $crate::assert_not_slower!(
            $candidate,
            $baseline,
            budget = $budget,
            options = $crate::gate::GateOptions::default().processes($k)
        )
    };
    ($candidate:expr, $baseline:expr, budget = $budget:expr, options = $options:expr $(,)?) => {
        $crate::support::gate::assert_gate(
            $candidate,
            $baseline,
            $crate::gate::Expectation::NotSlower { budget: $budget },
            &$options,
        )
    };
}

/// Fails unless `candidate` needs at least `by` (a fraction) less time than `baseline`, by the
/// lower-bound rule on a resolved result. "Cannot tell" fails, saying which kind.
///
/// ```no_run
/// use std::hint::black_box;
/// let v: Vec<u64> = (0..1000).collect();
/// rtcompare::assert_faster!(|| black_box(&v).iter().sum::<u64>(),
///                           || black_box(&v).iter().map(|x| x * 1).sum::<u64>(), by = 0.0);
/// ```
#[macro_export]
macro_rules! assert_faster {
    ($candidate:expr, $baseline:expr, by = $by:expr $(,)?) => {
        $crate::assert_faster!(
            $candidate,
            $baseline,
            by = $by,
            options = $crate::gate::GateOptions::default()
        )
    };
    ($candidate:expr, $baseline:expr, by = $by:expr, processes = $k:expr $(,)?) => {
        $crate::assert_faster!(
            $candidate,
            $baseline,
            by = $by,
            options = $crate::gate::GateOptions::default().processes($k)
        )
    };
    ($candidate:expr, $baseline:expr, by = $by:expr, options = $options:expr $(,)?) => {
        $crate::support::gate::assert_gate(
            $candidate,
            $baseline,
            $crate::gate::Expectation::Faster { by: $by },
            &$options,
        )
    };
}

/// Fails unless the whole interval of the difference lies within ±`within` (a fraction) and the
/// noise floor is below it.
///
/// ```no_run
/// use std::hint::black_box;
/// rtcompare::assert_equivalent!(|| black_box(7u64) * 3, || black_box(7u64) * 3, within = 0.15);
/// ```
#[macro_export]
macro_rules! assert_equivalent {
    ($candidate:expr, $baseline:expr, within = $m:expr $(,)?) => {
        $crate::assert_equivalent!(
            $candidate,
            $baseline,
            within = $m,
            options = $crate::gate::GateOptions::default()
        )
    };
    ($candidate:expr, $baseline:expr, within = $m:expr, processes = $k:expr $(,)?) => {
        $crate::assert_equivalent!(
            $candidate,
            $baseline,
            within = $m,
            options = $crate::gate::GateOptions::default().processes($k)
        )
    };
    ($candidate:expr, $baseline:expr, within = $m:expr, options = $options:expr $(,)?) => {
        $crate::support::gate::assert_gate(
            $candidate,
            $baseline,
            $crate::gate::Expectation::Equivalent { margin: $m },
            &$options,
        )
    };
}
