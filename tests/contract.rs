//! The contract surface of DESIGN.md, written exactly as users write it. If this file stops
//! compiling, a name users rely on has changed.

use rtcompare::{Candidate, CompareOptions, Report, Verdict, compare};

fn work_a() -> u64 {
    std::hint::black_box(3u64).pow(7)
}

fn work_b() -> u64 {
    std::hint::black_box(3u64).pow(9)
}

#[test]
fn the_design_contract_compiles_and_runs() -> Result<(), Box<dyn std::error::Error>> {
    let a = Candidate::new("a", |n: u64| {
        for _ in 0..n {
            std::hint::black_box(work_a());
        }
    })
    .with_setup(|| { /* outside the measured region */ })
    .with_teardown(|| {});
    let b = Candidate::new("b", |n: u64| {
        for _ in 0..n {
            std::hint::black_box(work_b());
        }
    });
    let opts = CompareOptions::default()
        .thresholds([0.05, 0.10])
        .seed(42)
        .validation_runs(10)
        .skip_validation(false)
        .repeats(101)
        .level(0.95)
        .resamples(1_000)
        .warmup_duration(std::time::Duration::from_millis(30))
        .max_duration(std::time::Duration::from_secs(10));
    let report: Report = compare(a, b, &opts)?;
    println!("{report}");
    let resolved: bool = report.resolved;
    // The three verdicts, exhaustively; the short answer agrees with the long one.
    match report.verdict {
        Verdict::AFaster | Verdict::BFaster => assert!(resolved, "{report}"),
        Verdict::CannotTell(_) => assert!(!resolved, "{report}"),
    }
    let delta: f64 = report.estimate.delta;
    let (low, high, level) = (
        report.estimate.low,
        report.estimate.high,
        report.estimate.level,
    );
    assert!(low <= high && level == 0.95, "{report}");
    assert_eq!(report.estimate.ratio().ratio, 1.0 / (1.0 - delta));
    let samples: &Vec<f64> = &report.samples_a;
    assert_eq!((samples.len(), report.samples_b.len()), (101, 101));
    let floor: f64 = report.noise_floor;
    assert!(report.validated && floor.is_finite(), "{report}");
    for w in &report.warnings {
        assert!(!w.to_string().is_empty(), "{}", w.code());
    }
    let json = serde_json::to_string(&report)?;
    assert!(json.contains("\"schema_version\""));
    assert_eq!(report.seed, 42);
    Ok(())
}
