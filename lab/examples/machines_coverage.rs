//! A seeded simulation of a fleet of CI runners, for `stats::combine_machines` (and
//! `rtcompare combine` above it): machines whose true δ scatters around the comparison's δ by a
//! between-machine SD τ, each measured with its own standard error s. Per cell (τ = 0.5, 1 and
//! 3 times s; 3, 5 and 10 machines), 2,000 fleets: the coverage of the t interval over
//! machines and of the random-effects (HKSJ) interval at 0.95, the outlier rule's false alarms
//! per fleet, and its detection of one machine shifted by six τ and by six times the whole
//! spread √(τ² + s²).
//!
//! `cargo run --release -p rtcompare-lab --example machines_coverage`

use rtcompare::stats::{MachineEstimate, combine_machines};
use rtcompare::support::rng::Rng;

const DELTA: f64 = 0.02;
const S: f64 = 0.005;
const FLEETS: usize = 2_000;

fn fleet(rng: &mut Rng, k: usize, tau: f64, shift: f64) -> Vec<MachineEstimate> {
    (0..k)
        .map(|i| {
            let d = DELTA + tau * rng.next_normal() + S * rng.next_normal();
            let d = if i == k - 1 { d + shift } else { d };
            MachineEstimate {
                delta: d,
                low: d - 1.959_964 * S,
                high: d + 1.959_964 * S,
                level: 0.95,
                noise_floor: 0.0,
                label: format!("machine {i}"),
            }
        })
        .collect()
}

fn main() -> Result<(), rtcompare::Error> {
    let mut rng = Rng::new(24);
    println!(
        "| τ / s | machines | t interval covers | random effects covers | outlier false alarms | detects +6τ | detects +6√(τ²+s²) |"
    );
    println!("|--:|--:|--:|--:|--:|--:|--:|");
    for ratio in [0.5, 1.0, 3.0] {
        let tau = ratio * S;
        for k in [3usize, 5, 10] {
            let (mut t_cover, mut re_cover, mut alarms) = (0usize, 0usize, 0usize);
            for _ in 0..FLEETS {
                let p = combine_machines(&fleet(&mut rng, k, tau, 0.0), 0.95, 0.0)?;
                t_cover += usize::from(p.low <= DELTA && DELTA <= p.high);
                re_cover += usize::from(p.re_low <= DELTA && DELTA <= p.re_high);
                alarms += usize::from(!p.outliers.is_empty());
            }
            let mut detect = |shift: f64| -> Result<f64, rtcompare::Error> {
                let mut hit = 0usize;
                for _ in 0..FLEETS {
                    let p = combine_machines(&fleet(&mut rng, k, tau, shift), 0.95, 0.0)?;
                    hit += usize::from(p.outliers.iter().any(|o| o.index == k - 1));
                }
                Ok(hit as f64 / FLEETS as f64)
            };
            let by_tau = detect(6.0 * tau)?;
            let by_spread = detect(6.0 * (tau * tau + S * S).sqrt())?;
            let share = |n: usize| n as f64 / FLEETS as f64;
            println!(
                "| {ratio} | {k} | {:.3} | {:.3} | {:.3} | {by_tau:.3} | {by_spread:.3} |",
                share(t_cover),
                share(re_cover),
                share(alarms)
            );
        }
    }
    Ok(())
}
