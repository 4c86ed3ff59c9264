//! The contract surface: the root names and paths of docs/api.md ("The root") and the README's
//! examples, written exactly as users write them. If this file stops compiling, a name users
//! rely on has changed.

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
    // The options keep their knobs private; their JSON names the margin they judged by.
    let opts_margin = serde_json::to_value(&opts)?["margin"].as_f64();
    let resolved: bool = report.resolved;
    // The four verdicts, exhaustively; the short answer agrees with the long one (equivalent
    // settles the question but proves no side faster).
    match report.verdict {
        Verdict::AFaster | Verdict::BFaster => assert!(resolved, "{report}"),
        Verdict::Equivalent { margin } => {
            assert!(!resolved && Some(margin) == opts_margin, "{report}")
        }
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

/// The names the later capabilities added to the contract surface, written as users write them
/// (cold and warm runs, the counting allocator, pooling across processes). Type-checked here;
/// the pooled run itself is exercised in tests/pool.rs.
#[test]
fn the_names_of_caches_allocations_and_pooling_are_where_users_look()
-> Result<(), Box<dyn std::error::Error>> {
    use rtcompare::pool::{self, Child, PoolOptions};
    use rtcompare::stats::{Pooled, combine};
    use rtcompare::support;
    use rtcompare::support::stats::combine_staged;
    use rtcompare::{Cache, Estimate};

    let opts = CompareOptions::default().cache(Cache::Cold);
    assert_eq!(support::compare::collect_options(&opts).cache, Cache::Cold);
    assert_eq!(Cache::default(), Cache::Warm);
    // A report says which experiment it ran.
    let _cache_of = |r: &Report| -> Cache { r.cache };
    // The counting allocator is a const-constructible global allocator.
    static _COUNTING: rtcompare::alloc::Counting = rtcompare::alloc::Counting::new();

    let est: Vec<Estimate> = [0.10, 0.14, 0.12, 0.11, 0.13]
        .iter()
        .map(|&d| Estimate::from_interval(d, d - 0.002, d + 0.002, 0.95))
        .collect::<Result<_, _>>()?;
    let p: Pooled = combine(&est, 0.95)?;
    let (_, _, _, _, _, _): (f64, f64, f64, f64, f64, f64) =
        (p.delta, p.low, p.high, p.inflation, p.q, p.i2);
    let (_, _, _, _): (usize, bool, Verdict, f64) =
        (p.processes, p.resolved, p.verdict, p.noise_floor);
    assert_eq!(p.processes_for(0.01, 0.0), 20);
    assert_eq!(combine_staged(&est, 3, 0.95)?.first_stage, 3);

    type Body = fn(&mut Child) -> rtcompare::Result<Report>;
    let _run: fn(&PoolOptions, Body) -> rtcompare::Result<Pooled> = |o, f| pool::run(o, f);
    let _child = |c: &mut Child| -> (usize, CompareOptions, (u8, u8)) {
        (c.index(), c.options().clone(), c.build(|| 1, || 2))
    };
    assert!(rtcompare::support::pool::perturb_heap(3).bytes() > 0);
    Ok(())
}

/// A report as this crate wrote it at schema version 1 (`tests/data/report.json`: a structure
/// comparison, written before the report's fields were grouped in Rust, with the gate,
/// process, counter, allocation and live-heap sections filled in by hand) still reads, and
/// writes back the same JSON: the same keys at the same level with the same values, and the
/// top-level keys in the same order, but for the structure comparison's `workload` record,
/// which rtcompare-workload's `StructureReport` reads beside the report (its own tests read
/// this file whole) and the core's `Report` passes over.
#[test]
fn a_schema_1_report_reads_and_writes_the_same_json() -> Result<(), Box<dyn std::error::Error>> {
    let written = include_str!("data/report.json");
    let report = Report::from_json(written)?;
    assert_eq!(report.schema_version, 1);
    let again = report.to_json()?;
    let value = |s: &str| serde_json::from_str::<serde_json::Value>(s);
    let mut expected = value(written)?;
    let record = expected
        .as_object_mut()
        .and_then(|top| top.remove("workload"))
        .expect("a structure comparison's record");
    assert_eq!(record["stream_seed"], 9);
    assert_eq!(value(&again)?, expected);
    // Pretty JSON puts each top-level key at the start of a line indented by two spaces.
    let top_keys = |s: &str| -> Vec<String> {
        s.lines()
            .filter_map(|l| l.strip_prefix("  \""))
            .filter_map(|l| l.split('"').next().map(str::to_string))
            .filter(|k| k != "workload")
            .collect()
    };
    assert_eq!(top_keys(&again), top_keys(written));
    assert_eq!(top_keys(written).len(), 48);
    assert_eq!(Report::from_json(&again)?, report);
    Ok(())
}
