//! Seeded Monte Carlo: pooled intervals cover the true difference at their nominal level, and
//! Stein's two-stage interval keeps it when the total was planned from the first stage.

use rtcompare::Estimate;
use rtcompare::stats::combine;
use rtcompare::support::rng::Rng;
use rtcompare::support::stats::combine_staged;

const MU: f64 = 0.03;
const WITHIN: f64 = 0.002;
const TRIALS: usize = 2_000;

fn process(rng: &mut Rng, ratio: f64) -> Estimate {
    let d = MU + ratio * WITHIN * rng.next_normal() + WITHIN * rng.next_normal();
    let hw = 1.959_964 * WITHIN;
    Estimate::from_interval(d, d - hw, d + hw, 0.95).unwrap()
}

/// 2,000 trials: the binomial standard error at 95 % is 0.49 points, so 93.5–96.5 % is three
/// of them either way.
fn assert_covers(hits: usize, what: &str) {
    let rate = hits as f64 / TRIALS as f64;
    assert!((0.935..=0.965).contains(&rate), "{what}: coverage {rate}");
}

#[test]
fn combine_covers_at_its_level() {
    let mut rng = Rng::new(7);
    for (k, ratio) in [(3usize, 5.0), (5, 15.0), (10, 1.0)] {
        let hits = (0..TRIALS)
            .filter(|_| {
                let es: Vec<Estimate> = (0..k).map(|_| process(&mut rng, ratio)).collect();
                let p = combine(&es, 0.95).unwrap();
                p.low <= MU && MU <= p.high
            })
            .count();
        assert_covers(hits, &format!("combine, k = {k}, ratio {ratio}"));
    }
}

#[test]
fn stein_keeps_its_level_when_the_total_is_planned() {
    let mut rng = Rng::new(8);
    for ratio in [1.0f64, 5.0] {
        let target = WITHIN * (1.0 + ratio * ratio).sqrt() / 2.0;
        let hits = (0..TRIALS)
            .filter(|_| {
                let mut es: Vec<Estimate> = (0..5).map(|_| process(&mut rng, ratio)).collect();
                let total = combine(&es, 0.95)
                    .unwrap()
                    .processes_for(target, 0.0)
                    .min(400);
                while es.len() < total {
                    es.push(process(&mut rng, ratio));
                }
                let p = combine_staged(&es, 5, 0.95).unwrap();
                p.low <= MU && MU <= p.high
            })
            .count();
        assert_covers(hits, &format!("combine_staged, ratio {ratio}"));
    }
}
